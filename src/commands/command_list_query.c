/* Timestamp queries: EndQuery writes, ResolveQueryData copies into a buffer. */
#include "command_recording.h"

#define METHOD(name) "ID3D12GraphicsCommandList::" #name

/* Checks the heap argument of EndQuery (resolving false) or ResolveQueryData (true). Copy-queue
 * timestamp heaps are written by COPY lists only, as D3D12 documents, but DIRECT and COMPUTE
 * lists may resolve them: that is how their timestamps leave a transfer-only Vulkan queue. */
static struct d3d12_query_heap *timestamp_heap_argument(struct d3d12_command_list *list, const char *command,
        ID3D12QueryHeap *heap_iface, D3D12_QUERY_TYPE type, bool resolving)
{
    struct d3d12_query_heap *heap = unsafe_impl_from_ID3D12QueryHeap(heap_iface);
    D3D12_QUERY_HEAP_TYPE wanted = list->type == D3D12_COMMAND_LIST_TYPE_COPY
            ? D3D12_QUERY_HEAP_TYPE_COPY_QUEUE_TIMESTAMP : D3D12_QUERY_HEAP_TYPE_TIMESTAMP;

    if (!heap) {
        d3d12_command_list_record_error(list, command, "pQueryHeap is %s (must be a heap from CreateQueryHeap)",
                heap_iface ? "not a d3d12xs query heap" : "NULL");
        return NULL;
    }
    if (type != D3D12_QUERY_TYPE_TIMESTAMP) {
        d3d12_command_list_record_error(list, command, "Type is %d (only D3D12_QUERY_TYPE_TIMESTAMP is implemented)", (int)type);
        return NULL;
    }
    if (heap->desc.Type != wanted && !(resolving && list->type != D3D12_COMMAND_LIST_TYPE_COPY
            && heap->desc.Type == D3D12_QUERY_HEAP_TYPE_COPY_QUEUE_TIMESTAMP)) {
        d3d12_command_list_record_error(list, command, "pQueryHeap has type %d; a %s list needs %s", (int)heap->desc.Type,
                list->type == D3D12_COMMAND_LIST_TYPE_COPY ? "COPY" : "DIRECT or COMPUTE",
                list->type == D3D12_COMMAND_LIST_TYPE_COPY ? "COPY_QUEUE_TIMESTAMP" : "TIMESTAMP");
        return NULL;
    }
    if (!resolving && !list->object.device->queue_map[list->type].timestamps) {
        d3d12_command_list_record_error(list, command, "the Vulkan queue family of this list type has no timestamps");
        return NULL;
    }
    return heap;
}

void STDMETHODCALLTYPE d3d12_command_list_BeginQuery(ID3D12GraphicsCommandList10 *iface, ID3D12QueryHeap *heap, D3D12_QUERY_TYPE type, UINT index)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    (void)heap, (void)index;
    if (!d3d12_command_list_check_recording(list, METHOD(BeginQuery)))
        return;
    if (type == D3D12_QUERY_TYPE_TIMESTAMP)
        d3d12_command_list_record_error(list, METHOD(BeginQuery), "Type is TIMESTAMP (timestamps take EndQuery only)");
    else
        d3d12_command_list_record_error(list, METHOD(BeginQuery), "Type is %d (only timestamp queries are implemented)", (int)type);
}

void STDMETHODCALLTYPE d3d12_command_list_EndQuery(ID3D12GraphicsCommandList10 *iface, ID3D12QueryHeap *heap_iface, D3D12_QUERY_TYPE type, UINT index)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    struct d3d12_query_heap *heap;

    if (!d3d12_command_list_check_recording(list, METHOD(EndQuery)))
        return;
    if (!(heap = timestamp_heap_argument(list, METHOD(EndQuery), heap_iface, type, false)))
        return;
    if (index >= heap->desc.Count) {
        d3d12_command_list_record_error(list, METHOD(EndQuery), "Index %u is past the heap's %u queries", index, heap->desc.Count);
        return;
    }
    /* A Vulkan query must be reset before each write; transfer-only queues cannot, so their
     * resets go first, on the internal engine (d3d12_command_list_record_query_resets). */
    if (list->transfer_only) {
        if (!d3d12xs_array_reserve((void **)&list->query_resets, &list->query_reset_capacity,
                list->query_reset_count + 1, sizeof(*list->query_resets))) {
            d3d12_command_list_record_error(list, METHOD(EndQuery), "out of memory");
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

    if (!d3d12_command_list_check_recording(list, command))
        return;
    if (!(heap = timestamp_heap_argument(list, command, heap_iface, type, true)))
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
    if (dst_offset > dst->desc.Width || (uint64_t)count * 8 > dst->desc.Width - dst_offset) {
        d3d12_command_list_record_error(list, command, "%u results at offset %llu pass the end of the %llu-byte pDestinationBuffer", count,
                (unsigned long long)dst_offset, (unsigned long long)dst->desc.Width);
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
    /* Queries are always available or being written (see query_heap.c), so waiting is safe. */
    d3d12_barriers_before(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
    vkCmdCopyQueryPoolResults(list->vk_command_buffer, heap->vk_pool, start_index, count, dst->vk_buffer, dst_offset, 8,
            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    struct d3d12_recorded_range range = {dst->vk_buffer, dst_offset, (uint64_t)count * 8, true};
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
