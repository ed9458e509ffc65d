/* Queries open across view-instanced draws. Vulkan counts a rendering pass of view instancing
 * (multiview) in as many consecutive queries as the pass has views, begun and ended inside the
 * pass (the Vulkan spec's "Query Operation"), which a query begun before the pass does not have;
 * D3D12's query counts every view. So a D3D12 query open across such a pass is split into pieces: the Vulkan query
 * counting it ends before the pass begins, the pass's views count in a piece of as many queries
 * of the allocator's pools (command_allocator.h) begun inside the pass, and after the pass a
 * one-query piece goes on counting. EndQuery then adds the heap's query and every piece into
 * the heap's D3D12 result with one internal thread (shaders/query_sum.comp), which a pipeline
 * statistics query open meanwhile does not count (it goes on in a piece of its own after that
 * thread). Vulkan leaves open how a multiview query's count is spread over its views' queries,
 * only that their sum is the total, which is what D3D12 counts (lavapipe puts it all in the
 * first). SO_STATISTICS queries count nothing in such a pass (no
 * transform feedback is active in one: pipelines that stream out have no views), so they pause
 * for it instead (docs/graphics.md, "View instancing"). */
#include "command_recording.h"
#include "commands/command_allocator.h"
#include "commands/query_views.h"
#include "device/internal_pipeline.h"
#include "query_sum_spirv.h"

/* query_sum.comp's push constants. */
struct query_sum {
    uint32_t piece_index, piece_count, result_index, fields, binary;
};

void d3d12_query_sum_create(struct d3d12_device *device)
{
    device->query_sum = d3d12xs_internal_pass_create(device, 2, sizeof(struct query_sum), d3d12_query_sum_spirv, sizeof(d3d12_query_sum_spirv));
}

void d3d12_query_sum_destroy(struct d3d12_device *device)
{
    d3d12xs_internal_pass_destroy(device, device->query_sum);
    device->query_sum = NULL;
}

/* The 64-bit counts of one Vulkan result of the heap's type: D3D12's fields in D3D12's order
 * (query_heap.c). */
static uint32_t result_fields(const struct d3d12_query_heap *heap)
{
    switch (heap->desc.Type) {
    case D3D12_QUERY_HEAP_TYPE_OCCLUSION:
        return 1;
    case D3D12_QUERY_HEAP_TYPE_SO_STATISTICS:
        return sizeof(D3D12_QUERY_DATA_SO_STATISTICS) / sizeof(UINT64);
    default:
        return sizeof(D3D12_QUERY_DATA_PIPELINE_STATISTICS) / sizeof(UINT64);
    }
}

/* A new piece of count queries for the open query (command_list_query_pieces.c); false after
 * recording the error, nothing counts it then. */
static bool start_piece(struct d3d12_command_list *list, struct d3d12_open_query *open, uint32_t count, const char *command)
{
    HRESULT hr = d3d12_command_list_start_query_piece(list, open, count);
    if (FAILED(hr))
        d3d12_command_list_record_error(list, command, "cannot make the Vulkan queries that count query %u (%s) across a view-instanced "
                "pass (HRESULT 0x%08x)", open->index, d3d12_query_type_name(open->type), (unsigned)hr);
    return SUCCEEDED(hr);
}

void d3d12_command_list_queries_before_views_pass(struct d3d12_command_list *list, uint32_t view_mask, const char *command)
{
    const uint32_t views = (uint32_t)__builtin_popcount(view_mask);

    for (uint32_t i = 0; i < list->open_query_count; i++) {
        struct d3d12_open_query *open = &list->open_queries[i];
        if (!open->vk_pool)
            continue; /* nothing counts it: it resolves to zeros */
        if (!list->object.device->query_sum) {
            d3d12_command_list_record_unsupported(list, command, "query %u (%s) is open across this view-instanced draw, and the device "
                    "could not make the pipeline that sums a query's per-view counts", open->index, d3d12_query_type_name(open->type));
            return;
        }
        d3d12_command_list_end_vulkan_query(list, open);
        open->split = true;
        list->queries_in_views_pass = true;
        /* no transform feedback in a multiview pass: nothing to count there */
        if (open->heap->desc.Type == D3D12_QUERY_HEAP_TYPE_SO_STATISTICS)
            open->active_pool = VK_NULL_HANDLE;
        else
            start_piece(list, open, views, command);
    }
}

/* The sum is no work of the application's: pipeline statistics queries open around it stop
 * counting for it (their Vulkan query ends) and go on in a fresh piece after it. */
static void pause_statistics(struct d3d12_command_list *list)
{
    for (uint32_t i = 0; i < list->open_query_count; i++) {
        struct d3d12_open_query *open = &list->open_queries[i];
        if (open->vk_pool && open->active_pool && d3d12_query_piece_kind(open->heap) == D3D12_PIECE_PIPELINE_STATISTICS) {
            d3d12_command_list_end_vulkan_query(list, open);
            open->active_pool = VK_NULL_HANDLE;
            open->split = true;
        }
    }
}

static void resume_statistics(struct d3d12_command_list *list, const char *command)
{
    for (uint32_t i = 0; i < list->open_query_count; i++) {
        struct d3d12_open_query *open = &list->open_queries[i];
        if (open->vk_pool && !open->active_pool && d3d12_query_piece_kind(open->heap) == D3D12_PIECE_PIPELINE_STATISTICS
                && start_piece(list, open, 1, command))
            d3d12_command_list_begin_vulkan_query(list, open, open->active_pool, open->active_slot);
    }
}

void d3d12_command_list_sum_query_pieces(struct d3d12_command_list *list, const struct d3d12_open_query *open, const char *command)
{
    struct d3d12_device *device = list->object.device;
    const struct d3d12xs_internal_pass *pass = device->query_sum;
    struct d3d12_query_heap *heap = open->heap;
    const uint32_t fields = result_fields(heap);
    const VkDeviceSize stride = fields * sizeof(UINT64);
    const VkQueryResultFlags flags = VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT;
    VkCommandBuffer command_buffer = list->vk_command_buffer;
    uint32_t results = 1, kept = 0, at = 1;
    struct query_sum sum = {0};
    VkDeviceSize pieces_offset;
    VkBuffer pieces;

    for (uint32_t i = 0; i < list->query_piece_count; i++) {
        const struct d3d12_query_piece *piece = &list->query_pieces[i];
        if (piece->heap == heap && piece->index == open->index)
            results += piece->count;
    }
    if (FAILED(d3d12_transient_memory_allocate(device, &list->allocator->transient, results * stride, 0, &pieces, &pieces_offset, NULL,
            command))) {
        d3d12_command_list_record_error(list, command, "out of memory for the %u counts of query %u", results, open->index);
        return;
    }
    /* Every count into the allocator's memory, the heap's query first, then each piece's
     * queries; the pieces leave the list. */
    vkCmdCopyQueryPoolResults(command_buffer, heap->vk_pool, open->index, 1, pieces, pieces_offset, stride, flags);
    for (uint32_t i = 0; i < list->query_piece_count; i++) {
        const struct d3d12_query_piece *piece = &list->query_pieces[i];
        if (piece->heap != heap || piece->index != open->index) {
            list->query_pieces[kept++] = *piece;
            continue;
        }
        vkCmdCopyQueryPoolResults(command_buffer, piece->pool, piece->first, piece->count, pieces, pieces_offset + at * stride, stride, flags);
        at += piece->count;
    }
    list->query_piece_count = kept;

    /* Their sum, by one thread, into the heap's result. */
    sum.fields = fields;
    sum.piece_count = results;
    sum.binary = open->type == D3D12_QUERY_TYPE_BINARY_OCCLUSION;
    VkDescriptorBufferInfo buffer_infos[2] = {
        d3d12xs_internal_value_range(device, pieces, pieces_offset, sizeof(UINT64), &sum.piece_index),
        d3d12xs_internal_value_range(device, heap->results, (VkDeviceSize)open->index * heap->result_size, sizeof(UINT64), &sum.result_index),
    };
    buffer_infos[0].range += (results * fields - 1) * sizeof(UINT64);
    buffer_infos[1].range += (fields - 1) * sizeof(UINT64);
    VkWriteDescriptorSet writes[2] = {
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = 0, .descriptorCount = 1,
                .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &buffer_infos[0]},
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = 1, .descriptorCount = 1,
                .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &buffer_infos[1]},
    };
    pause_statistics(list);
    command_buffer = d3d12_command_list_begin_internal(list);
    d3d12_barriers_emit(&list->barriers, command_buffer, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
            VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    d3d12_barriers_before(&list->barriers, command_buffer, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
    device->vk_record.vkCmdBindPipeline(command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, pass->pipeline);
    device->vkCmdPushDescriptorSetKHR(command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, pass->layout.layout, 0, 2, writes);
    device->vk_record.vkCmdPushConstants(command_buffer, pass->layout.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(sum), &sum);
    device->vk_record.vkCmdDispatch(command_buffer, 1, 1, 1);
    d3d12_barriers_emit(&list->barriers, command_buffer, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
            VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT);
    d3d12_command_list_end_internal(list);
    resume_statistics(list, command);
}
