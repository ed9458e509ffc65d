/* Queries: BeginQuery and EndQuery of every D3D12 query type but video decode statistics,
 * ResolveQueryData into a buffer, and the rules on which lists take which. */
#include <stddef.h>
#include <stdio.h>

#include "command_recording.h"

#define METHOD(name) "ID3D12GraphicsCommandList::" #name

enum query_call {
    QUERY_BEGIN,
    QUERY_END,
    QUERY_RESOLVE,
};

/* D3D12's rules on which heap each query type uses and which list types take it (the
 * D3D12_QUERY_TYPE and D3D12_QUERY_HEAP_TYPE documentation, "Queries" in the D3D12
 * programming guide): occlusion and stream-output queries on DIRECT lists; pipeline
 * statistics on DIRECT and COMPUTE lists; timestamps on DIRECT and COMPUTE lists in TIMESTAMP
 * heaps and on COPY lists in COPY_QUEUE_TIMESTAMP heaps, with EndQuery only. Copy-queue
 * timestamp heaps are written by COPY lists only, but DIRECT and COMPUTE lists may resolve
 * them: that is how their timestamps leave a transfer-only Vulkan queue. BeginQuery on a query
 * already begun and EndQuery on one not begun are runtime errors that make Close fail (the
 * BeginQuery remarks of the D3D12 documentation). Returns the heap, or NULL after recording
 * the error. */
static struct d3d12_query_heap *query_heap_argument(struct d3d12_command_list *list, const char *command,
        ID3D12QueryHeap *heap_iface, D3D12_QUERY_TYPE type, enum query_call call)
{
    struct d3d12_query_heap *heap = unsafe_impl_from_ID3D12QueryHeap(heap_iface);
    bool copy_list = list->type == D3D12_COMMAND_LIST_TYPE_COPY;
    D3D12_QUERY_HEAP_TYPE wanted;
    const char *lists = NULL;    /* the list types that take the query type, where this one does not */

    if (!heap) {
        d3d12_command_list_record_error(list, command, "pQueryHeap is %s (must be a heap from CreateQueryHeap)",
                heap_iface ? "not a d3d12xs query heap" : "NULL");
        return NULL;
    }
    switch (type) {
    case D3D12_QUERY_TYPE_TIMESTAMP:
        if (call == QUERY_BEGIN) {
            d3d12_command_list_record_error(list, command, "Type is TIMESTAMP (timestamps take EndQuery only)");
            return NULL;
        }
        wanted = copy_list ? D3D12_QUERY_HEAP_TYPE_COPY_QUEUE_TIMESTAMP : D3D12_QUERY_HEAP_TYPE_TIMESTAMP;
        if (heap->desc.Type != wanted && !(call == QUERY_RESOLVE && !copy_list
                && heap->desc.Type == D3D12_QUERY_HEAP_TYPE_COPY_QUEUE_TIMESTAMP)) {
            d3d12_command_list_record_error(list, command, "pQueryHeap has type %d; a %s list needs %s", (int)heap->desc.Type,
                    copy_list ? "COPY" : "DIRECT or COMPUTE", copy_list ? "COPY_QUEUE_TIMESTAMP" : "TIMESTAMP");
            return NULL;
        }
        if (call == QUERY_END && !list->object.device->queue_map[list->type].timestamps) {
            d3d12_command_list_record_error(list, command, "the Vulkan queue family of this list type has no timestamps");
            return NULL;
        }
        return heap;
    case D3D12_QUERY_TYPE_OCCLUSION:
    case D3D12_QUERY_TYPE_BINARY_OCCLUSION:
        wanted = D3D12_QUERY_HEAP_TYPE_OCCLUSION;
        if (list->type != D3D12_COMMAND_LIST_TYPE_DIRECT)
            lists = "DIRECT lists only";
        break;
    case D3D12_QUERY_TYPE_PIPELINE_STATISTICS:
    case D3D12_QUERY_TYPE_PIPELINE_STATISTICS1:
        wanted = type == D3D12_QUERY_TYPE_PIPELINE_STATISTICS ? D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS
                : D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS1;
        if (copy_list)
            lists = "DIRECT and COMPUTE lists only";
        break;
    case D3D12_QUERY_TYPE_SO_STATISTICS_STREAM0:
    case D3D12_QUERY_TYPE_SO_STATISTICS_STREAM1:
    case D3D12_QUERY_TYPE_SO_STATISTICS_STREAM2:
    case D3D12_QUERY_TYPE_SO_STATISTICS_STREAM3:
        wanted = D3D12_QUERY_HEAP_TYPE_SO_STATISTICS;
        if (list->type != D3D12_COMMAND_LIST_TYPE_DIRECT)
            lists = "DIRECT lists only";
        break;
    case D3D12_QUERY_TYPE_VIDEO_DECODE_STATISTICS:
        d3d12_command_list_record_error(list, command, "Type is VIDEO_DECODE_STATISTICS (video decode command lists only)");
        return NULL;
    default:
        d3d12_command_list_record_error(list, command, "Type is %d (not a D3D12_QUERY_TYPE)", (int)type);
        return NULL;
    }
    if (lists) {
        d3d12_command_list_record_error(list, command, "Type is %s, which %s take (this list is %s)", d3d12_query_type_name(type), lists,
                copy_list ? "COPY" : "COMPUTE");
        return NULL;
    }
    if (heap->desc.Type != wanted) {
        d3d12_command_list_record_error(list, command, "pQueryHeap has type %d; Type %s needs a heap of type %d", (int)heap->desc.Type,
                d3d12_query_type_name(type), (int)wanted);
        return NULL;
    }
    return heap;
}

static bool index_argument(struct d3d12_command_list *list, const char *command, const struct d3d12_query_heap *heap, UINT index)
{
    if (index < heap->desc.Count)
        return true;
    d3d12_command_list_record_error(list, command, "Index %u is past the heap's %u queries", index, heap->desc.Count);
    return false;
}

static struct d3d12_open_query *find_open_query(struct d3d12_command_list *list, const struct d3d12_query_heap *heap, uint32_t index)
{
    for (uint32_t i = 0; i < list->open_query_count; i++) {
        if (list->open_queries[i].heap == heap && list->open_queries[i].index == index)
            return &list->open_queries[i];
    }
    return NULL;
}

/* The stream an SO_STATISTICS query type counts. */
/* Heap types whose queries are one Vulkan query type (PIPELINE_STATISTICS1 counts in a
 * pipeline-statistics pool too). */
static D3D12_QUERY_HEAP_TYPE vk_query_class(D3D12_QUERY_HEAP_TYPE type)
{
    return type == D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS1 ? D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS : type;
}

/* The Vulkan query that counts a D3D12 query begun in this list, or VK_NULL_HANDLE where none
 * counts (no transform feedback queries; no pipelineStatisticsQuery). */
static VkQueryPool counting_pool(const struct d3d12_command_list *list, const struct d3d12_query_heap *heap)
{
    if (heap->compute_pool && !list->object.device->queue_map[list->type].supports_graphics)
        return heap->compute_pool;
    return heap->vk_pool;
}

void STDMETHODCALLTYPE d3d12_command_list_BeginQuery(ID3D12GraphicsCommandList10 *iface, ID3D12QueryHeap *heap_iface, D3D12_QUERY_TYPE type, UINT index)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    const char *command = METHOD(BeginQuery);
    struct d3d12_query_heap *heap;
    struct d3d12_open_query *open;
    VkQueryPool pool;

    if (!d3d12_command_list_check_recording(list, command))
        return;
    if (!(heap = query_heap_argument(list, command, heap_iface, type, QUERY_BEGIN)) || !index_argument(list, command, heap, index))
        return;
    if ((open = find_open_query(list, heap, index))) {
        d3d12_command_list_record_error(list, command, "query %u of pQueryHeap is already begun (as %s; EndQuery it before it begins again)",
                index, d3d12_query_type_name(open->type));
        return;
    }
    pool = counting_pool(list, heap);
    /* Vulkan lets one query of each type be active at a time in a command buffer; D3D12 lets
     * queries of a type overlap. Overlapping ones would need one Vulkan query per piece. */
    for (uint32_t i = 0; pool && i < list->open_query_count; i++) {
        const struct d3d12_open_query *other = &list->open_queries[i];
        /* stream queries are one per stream */
        if (other->vk_pool && vk_query_class(other->heap->desc.Type) == vk_query_class(heap->desc.Type)
                && (heap->desc.Type != D3D12_QUERY_HEAP_TYPE_SO_STATISTICS || other->type == type)) {
            d3d12_command_list_record_error(list, command, "query %u of a heap of type %d is still open (d3d12xs cannot overlap two "
                    "queries of one type: Vulkan has one active query per type)", other->index, (int)other->heap->desc.Type);
            return;
        }
    }
    if (!d3d12xs_array_reserve((void **)&list->open_queries, &list->open_query_capacity, list->open_query_count + 1,
            sizeof(*list->open_queries))) {
        d3d12_command_list_record_error(list, command, "out of memory");
        return;
    }
    open = &list->open_queries[list->open_query_count++];
    *open = (struct d3d12_open_query){heap, index, type, pool, pool, index, false};
    if (pool) {
        vkCmdResetQueryPool(list->vk_command_buffer, pool, index, 1);
        d3d12_command_list_begin_vulkan_query(list, open, pool, index);
    }
    d3d12_command_list_note(list, D3D12_RECORDED_BEGIN_QUERY, 0, 0);
}

/* EndQuery of a begun query: ends the Vulkan query and copies its result into the heap's
 * results in D3D12's layout (a split query's pieces summed there). Later commands of the list
 * that read the results (a resolve) wait for the copy through the barrier tracker. */
static void end_counted_query(struct d3d12_command_list *list, const struct d3d12_open_query *open, const char *command)
{
    VkCommandBuffer command_buffer = list->vk_command_buffer;
    struct d3d12_query_heap *heap = open->heap;
    const uint32_t index = open->index;
    const VkQueryPool pool = open->vk_pool;
    const D3D12_QUERY_TYPE type = open->type;
    VkDeviceSize offset = (VkDeviceSize)index * heap->result_size;

    d3d12_command_list_end_vulkan_query(list, open);
    d3d12_barriers_before(&list->barriers, command_buffer, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
    if (!pool) {
        vkCmdFillBuffer(command_buffer, heap->results, offset, heap->result_size, 0);
    } else if (open->split) {
        d3d12_command_list_sum_query_pieces(list, open, command);
    } else if (pool == heap->compute_pool) {
        /* The graphics fields are 0: a compute-only family runs no graphics work. */
        VkDeviceSize cs_offset = offsetof(D3D12_QUERY_DATA_PIPELINE_STATISTICS, CSInvocations);
        vkCmdFillBuffer(command_buffer, heap->results, offset, cs_offset, 0);
        vkCmdCopyQueryPoolResults(command_buffer, pool, index, 1, heap->results, offset + cs_offset, sizeof(UINT64),
                VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    } else if (heap->desc.Type == D3D12_QUERY_HEAP_TYPE_SO_STATISTICS) {
        vkCmdCopyQueryPoolResults(command_buffer, pool, index, 1, heap->results, offset, sizeof(D3D12_QUERY_DATA_SO_STATISTICS),
                VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    } else {
        /* Occlusion: one count. Pipeline statistics: the 11 fields of D3D12's structure (see
         * query_heap.c); PIPELINE_STATISTICS1's mesh and amplification fields after them stay 0
         * until mesh shaders exist. */
        VkDeviceSize size = heap->desc.Type == D3D12_QUERY_HEAP_TYPE_OCCLUSION ? sizeof(UINT64) : sizeof(D3D12_QUERY_DATA_PIPELINE_STATISTICS);
        vkCmdCopyQueryPoolResults(command_buffer, pool, index, 1, heap->results, offset, size, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
        /* BINARY_OCCLUSION: the count becomes exactly 0 or 1, folded in place by one internal
         * thread (a statistics query open meanwhile counts its one invocation). */
        if (type == D3D12_QUERY_TYPE_BINARY_OCCLUSION && list->object.device->predicate_fold) {
            command_buffer = d3d12_command_list_begin_internal(list);
            d3d12_barriers_emit(&list->barriers, command_buffer, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                    VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
            d3d12_barriers_before(&list->barriers, command_buffer, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
            d3d12_command_list_fold_value(list, command_buffer, heap->results, offset, heap->results, offset, true);
            d3d12_barriers_emit(&list->barriers, command_buffer, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                    VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT);
            d3d12_command_list_end_internal(list);
        }
    }
    /* Into the transfer stage: a resolve reads the results, a later EndQuery rewrites them. */
    d3d12_barriers_request(&list->barriers, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
            VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT);
}

void STDMETHODCALLTYPE d3d12_command_list_EndQuery(ID3D12GraphicsCommandList10 *iface, ID3D12QueryHeap *heap_iface, D3D12_QUERY_TYPE type, UINT index)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    const char *command = METHOD(EndQuery);
    struct d3d12_query_heap *heap;
    struct d3d12_open_query *open;

    if (!d3d12_command_list_check_recording(list, command))
        return;
    if (!(heap = query_heap_argument(list, command, heap_iface, type, QUERY_END)) || !index_argument(list, command, heap, index))
        return;
    if (type != D3D12_QUERY_TYPE_TIMESTAMP) {
        struct d3d12_open_query ended;
        if (!(open = find_open_query(list, heap, index))) {
            d3d12_command_list_record_error(list, command, "query %u of pQueryHeap was not begun in this list (BeginQuery and EndQuery "
                    "of a %s query go in one list)", index, d3d12_query_type_name(type));
            return;
        }
        if (open->type != type) {
            d3d12_command_list_record_error(list, command, "Type is %s but query %u was begun as %s (they must match)",
                    d3d12_query_type_name(type), index, d3d12_query_type_name(open->type));
            return;
        }
        ended = *open;
        *open = list->open_queries[--list->open_query_count];
        end_counted_query(list, &ended, command);
        d3d12_command_list_note(list, D3D12_RECORDED_END_QUERY, 0, 0);
        return;
    }
    /* A Vulkan query must be reset before each write; transfer-only queues cannot, so their
     * resets go first, on the internal engine (d3d12_command_list_record_query_resets). */
    if (list->transfer_only) {
        if (!d3d12xs_array_reserve((void **)&list->query_resets, &list->query_reset_capacity,
                list->query_reset_count + 1, sizeof(*list->query_resets))) {
            d3d12_command_list_record_error(list, command, "out of memory");
            return;
        }
        list->query_resets[list->query_reset_count++] = (struct d3d12_query_reset){heap->vk_pool, index};
    } else {
        vkCmdResetQueryPool(list->vk_command_buffer, heap->vk_pool, index, 1);
    }
    vkCmdWriteTimestamp2(list->vk_command_buffer, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, heap->vk_pool, index);
    d3d12_command_list_note(list, D3D12_RECORDED_END_QUERY, 0, 0);
}

void STDMETHODCALLTYPE d3d12_command_list_ResolveQueryData(ID3D12GraphicsCommandList10 *iface, ID3D12QueryHeap *heap_iface, D3D12_QUERY_TYPE type,
        UINT start_index, UINT count, ID3D12Resource *dst_iface, UINT64 dst_offset)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    const char *command = METHOD(ResolveQueryData);
    struct d3d12_query_heap *heap;
    struct d3d12_resource *dst;
    uint64_t size;

    if (!d3d12_command_list_check_recording(list, command) || !d3d12_command_list_outside_render_pass(list, command))
        return;
    if (!(heap = query_heap_argument(list, command, heap_iface, type, QUERY_RESOLVE)))
        return;
    if (start_index > heap->desc.Count || count > heap->desc.Count - start_index) {
        d3d12_command_list_record_error(list, command, "StartIndex %u + NumQueries %u passes the heap's %u queries", start_index, count, heap->desc.Count);
        return;
    }
    if (!(dst = unsafe_impl_from_ID3D12Resource(dst_iface))) {
        d3d12_command_list_record_error(list, command, "pDestinationBuffer is %s", dst_iface ? "not a d3d12xs resource" : "NULL");
        return;
    }
    if (dst_offset % 8) {
        d3d12_command_list_record_error(list, command, "AlignedDestinationBufferOffset %llu is not a multiple of 8", (unsigned long long)dst_offset);
        return;
    }
    size = (uint64_t)count * heap->result_size;
    if (dst_offset > dst->desc.Width || size > dst->desc.Width - dst_offset) {
        d3d12_command_list_record_error(list, command, "%u results of %u bytes at offset %llu pass the end of the %llu-byte pDestinationBuffer",
                count, heap->result_size, (unsigned long long)dst_offset, (unsigned long long)dst->desc.Width);
        return;
    }
    if (dst->heap_properties.Type == D3D12_HEAP_TYPE_UPLOAD) {
        d3d12_command_list_record_error(list, command, "pDestinationBuffer is in an UPLOAD heap (the GPU cannot write those)");
        return;
    }
    if (!count)
        return;
    /* vkCmdCopyQueryPoolResults needs a graphics or compute queue: on a transfer-only family
     * the resolve becomes a segment of its own on the scheduler's compute-capable engine. */
    if (list->transfer_only && !d3d12_command_list_cut_segment(list, command, true, NULL))
        return;
    /* Timestamps are always available or being written (see query_heap.c), so waiting is
     * safe; the other types' results are plain buffer contents, ended queries' or zeros. */
    d3d12_barriers_before(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
    if (heap->results) {
        VkBufferCopy region = {(VkDeviceSize)start_index * heap->result_size, dst_offset, size};
        vkCmdCopyBuffer(list->vk_command_buffer, heap->results, dst->vk_buffer, 1, &region);
        /* An EndQuery later in the list rewrites these results: it waits for this read; a later
         * resolve into the same bytes, for this write. */
        d3d12_barriers_request(&list->barriers, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    } else {
        vkCmdCopyQueryPoolResults(list->vk_command_buffer, heap->vk_pool, start_index, count, dst->vk_buffer, dst_offset, 8,
                VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    }
    struct d3d12_recorded_range range = {dst->vk_buffer, dst_offset, size, true, VK_NULL_HANDLE};
    uint32_t first = d3d12_command_list_note_ranges(list, command, &range, 1);
    if (first != UINT32_MAX)
        d3d12_command_list_note(list, D3D12_RECORDED_RESOLVE_QUERY, first, 1);
    if (list->transfer_only)
        d3d12_command_list_cut_segment(list, command, false, NULL);
}

/* The resets of a transfer-only list's queries, in a command buffer that runs on the internal
 * compute-capable engine before the list's first segment. The scheduler orders it after the
 * queue's earlier work and before the list (a helper segment), so it never touches a query
 * that work still uses, and nothing waits on the host for it. */
void d3d12_command_list_record_query_resets(struct d3d12_command_list *list)
{
    const char *command = METHOD(Close);
    VkCommandBuffer command_buffer;
    VkResult vr;
    HRESULT hr;

    if (FAILED(hr = d3d12_command_list_begin_command_buffer(list, true, &command_buffer))) {
        d3d12_command_list_record_error(list, command, "cannot record the list's query resets (HRESULT 0x%08x)", (unsigned)hr);
        return;
    }
    for (uint32_t i = 0; i < list->query_reset_count; i++)
        vkCmdResetQueryPool(command_buffer, list->query_resets[i].pool, list->query_resets[i].index, 1);
    if ((vr = vkEndCommandBuffer(command_buffer)) != VK_SUCCESS) {
        d3d12_command_list_record_error(list, command, "vkEndCommandBuffer of the query resets failed (VkResult %d)", vr);
        return;
    }
    list->query_reset_command_buffer = command_buffer;
}
