/* The Vulkan queries that count a list's open D3D12 queries: beginning and ending them as their
 * type does, and the pieces a query open across view-instanced passes counts in (the allocator's
 * pools; command_list_query_views.c splits and sums). Below the query and recording files: it
 * calls nothing of theirs, so the rendering pass's end (command_recording.c) can end and resume
 * the queries without a cycle. */
#include "commands/command_allocator.h"
#include "commands/command_list_state.h"
#include "commands/query_heap.h"
#include "common/util.h"

static uint32_t so_stream(D3D12_QUERY_TYPE type)
{
    return type - D3D12_QUERY_TYPE_SO_STATISTICS_STREAM0;
}

enum d3d12_piece_kind d3d12_query_piece_kind(const struct d3d12_query_heap *heap)
{
    switch (heap->desc.Type) {
    case D3D12_QUERY_HEAP_TYPE_OCCLUSION:
        return D3D12_PIECE_OCCLUSION;
    case D3D12_QUERY_HEAP_TYPE_SO_STATISTICS:
        return D3D12_PIECE_STREAM;
    default:
        return D3D12_PIECE_PIPELINE_STATISTICS;
    }
}

void d3d12_command_list_begin_vulkan_query(struct d3d12_command_list *list, const struct d3d12_open_query *open, VkQueryPool pool,
        uint32_t slot)
{
    VkQueryControlFlags flags = 0;

    /* lavapipe keeps the view mask of the last rendering pass after vkCmdEndRendering and
     * begins that many queries at a begin outside any pass (past the pool's end, or over
     * another query's): an empty pass of no views first makes it 0 again. */
    if (list->view_mask_kept) {
        const VkRenderingInfo no_views = {.sType = VK_STRUCTURE_TYPE_RENDERING_INFO, .renderArea = {{0, 0}, {1, 1}}, .layerCount = 1};
        vkCmdBeginRendering(list->vk_command_buffer, &no_views);
        vkCmdEndRendering(list->vk_command_buffer);
        list->view_mask_kept = false;
    }
    if (open->type == D3D12_QUERY_TYPE_OCCLUSION && list->object.device->has_precise_occlusion)
        flags = VK_QUERY_CONTROL_PRECISE_BIT; /* BINARY_OCCLUSION needs only zero or not */
    if (open->heap->desc.Type == D3D12_QUERY_HEAP_TYPE_SO_STATISTICS)
        list->object.device->graphics.vkCmdBeginQueryIndexedEXT(list->vk_command_buffer, pool, slot, flags, so_stream(open->type));
    else
        vkCmdBeginQuery(list->vk_command_buffer, pool, slot, flags);
}

void d3d12_command_list_end_vulkan_query(struct d3d12_command_list *list, const struct d3d12_open_query *open)
{
    if (!open->active_pool)
        return;
    if (open->heap->desc.Type == D3D12_QUERY_HEAP_TYPE_SO_STATISTICS)
        list->object.device->graphics.vkCmdEndQueryIndexedEXT(list->vk_command_buffer, open->active_pool, open->active_slot,
                so_stream(open->type));
    else
        vkCmdEndQuery(list->vk_command_buffer, open->active_pool, open->active_slot);
}

HRESULT d3d12_command_list_start_query_piece(struct d3d12_command_list *list, struct d3d12_open_query *open, uint32_t count)
{
    VkQueryPool pool;
    uint32_t first;
    HRESULT hr;

    open->active_pool = VK_NULL_HANDLE;
    if (FAILED(hr = d3d12_command_allocator_get_query_slots(list->allocator, d3d12_query_piece_kind(open->heap), count, &pool, &first)))
        return hr;
    if (!d3d12xs_array_reserve((void **)&list->query_pieces, &list->query_piece_capacity, list->query_piece_count + 1,
            sizeof(*list->query_pieces)))
        return E_OUTOFMEMORY;
    list->query_pieces[list->query_piece_count++] = (struct d3d12_query_piece){open->heap, open->index, pool, first, count};
    vkCmdResetQueryPool(list->vk_command_buffer, pool, first, count);
    open->active_pool = pool;
    open->active_slot = first;
    return S_OK;
}

void d3d12_command_list_queries_begin_in_views_pass(struct d3d12_command_list *list)
{
    for (uint32_t i = 0; i < list->open_query_count; i++) {
        const struct d3d12_open_query *open = &list->open_queries[i];
        if (open->vk_pool && open->active_pool)
            d3d12_command_list_begin_vulkan_query(list, open, open->active_pool, open->active_slot);
    }
}

void d3d12_command_list_queries_end_in_views_pass(struct d3d12_command_list *list)
{
    for (uint32_t i = 0; i < list->open_query_count; i++) {
        struct d3d12_open_query *open = &list->open_queries[i];
        if (open->vk_pool) {
            d3d12_command_list_end_vulkan_query(list, open);
            open->active_pool = VK_NULL_HANDLE;
        }
    }
}

HRESULT d3d12_command_list_queries_after_views_pass(struct d3d12_command_list *list)
{
    HRESULT hr;

    for (uint32_t i = 0; i < list->open_query_count; i++) {
        struct d3d12_open_query *open = &list->open_queries[i];
        if (!open->vk_pool)
            continue;
        if (FAILED(hr = d3d12_command_list_start_query_piece(list, open, 1)))
            return hr;
        d3d12_command_list_begin_vulkan_query(list, open, open->active_pool, open->active_slot);
    }
    return S_OK;
}
