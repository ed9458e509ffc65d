/* ID3D12QueryHeap: a VkQueryPool for timestamps; for the other types, Vulkan query pools and
 * the buffer of D3D12 results that EndQuery fills (query_heap.h). */
#include <stdlib.h>

#include "commands/query_heap.h"
#include "sync/scheduler.h"
#include "generated/d3d12_stubs.h"

#define METHOD(name) "ID3D12QueryHeap::" #name

static struct d3d12_query_heap *impl_from_ID3D12QueryHeap(ID3D12QueryHeap *iface)
{
    return D3D12XS_CONTAINING(iface, struct d3d12_query_heap, ID3D12QueryHeap_iface);
}

static HRESULT STDMETHODCALLTYPE d3d12_query_heap_QueryInterface(ID3D12QueryHeap *iface, REFIID riid, void **object)
{
    static const IID *const iids[] = {&IID_ID3D12QueryHeap, &IID_ID3D12Pageable, &IID_ID3D12DeviceChild, &IID_ID3D12Object, &IID_IUnknown, NULL};
    return d3d12xs_query_interface(iface, METHOD(QueryInterface), iids, riid, object);
}

D3D12XS_DEVICE_CHILD_METHODS(d3d12_query_heap, ID3D12QueryHeap, impl_from_ID3D12QueryHeap, "ID3D12QueryHeap")

static void destroy_query_heap(struct d3d12_device *device, void *object)
{
    struct d3d12_query_heap *heap = object;
    vkDestroyQueryPool(device->vk_device, heap->vk_pool, NULL);
    vkDestroyQueryPool(device->vk_device, heap->compute_pool, NULL);
    d3d12xs_free_buffer(device, &heap->results, &heap->results_memory);
    vkDestroyCommandPool(device->vk_device, heap->init_pool, NULL);
    free(heap);
}

static ULONG STDMETHODCALLTYPE d3d12_query_heap_Release(ID3D12QueryHeap *iface)
{
    struct d3d12_query_heap *heap = impl_from_ID3D12QueryHeap(iface);
    unsigned refcount = d3d12xs_object_release(&heap->object);
    if (!refcount && !d3d12xs_exit_torn_down())
        d3d12_scheduler_retire_object(&heap->object, destroy_query_heap, heap);
    return refcount;
}

#if defined(__clang__)
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Woverride-init"
#endif

static const ID3D12QueryHeapVtbl d3d12_query_heap_vtbl = {
    D3D12XS_STUB_VTBL_ID3D12QueryHeap,
    .QueryInterface = d3d12_query_heap_QueryInterface,
    D3D12XS_DEVICE_CHILD_VTBL_ENTRIES(d3d12_query_heap),
    .Release = d3d12_query_heap_Release,
};

struct d3d12_query_heap *unsafe_impl_from_ID3D12QueryHeap(ID3D12QueryHeap *iface)
{
    if (!iface || iface->lpVtbl != &d3d12_query_heap_vtbl)
        return NULL;
    return impl_from_ID3D12QueryHeap(iface);
}

/* Resolves copy results with VK_QUERY_RESULT_WAIT_BIT: without it a GPU may copy before the
 * timestamp counts as available (the H200 did). So that a query D3D12 code never ended cannot
 * block a resolve forever, every query is written once here and starts available (its value
 * is then meaningless, as D3D12 says of queries never ended). */
static HRESULT make_queries_available(struct d3d12_query_heap *heap, const char *method)
{
    struct d3d12_device *device = heap->object.device;
    VkCommandPoolCreateInfo pool_info = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
            .queueFamilyIndex = d3d12_scheduler_internal_family(device)};
    VkCommandBufferAllocateInfo allocate_info = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandBufferCount = 1};
    VkCommandBufferBeginInfo begin_info = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
            .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    VkCommandBuffer command_buffer;
    VkResult vr;

    if (!device->queue_map[D3D12_COMMAND_LIST_TYPE_DIRECT].timestamps)
        return S_OK; /* nothing can write timestamps on this device's DIRECT queues */
    if ((vr = vkCreateCommandPool(device->vk_device, &pool_info, NULL, &heap->init_pool)) != VK_SUCCESS)
        goto failed;
    allocate_info.commandPool = heap->init_pool;
    if ((vr = vkAllocateCommandBuffers(device->vk_device, &allocate_info, &command_buffer)) != VK_SUCCESS
            || (vr = vkBeginCommandBuffer(command_buffer, &begin_info)) != VK_SUCCESS)
        goto failed;
    for (UINT i = 0; i < heap->desc.Count; i++)
        vkCmdWriteTimestamp2(command_buffer, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, heap->vk_pool, i);
    if ((vr = vkEndCommandBuffer(command_buffer)) != VK_SUCCESS)
        goto failed;
    /* The scheduler runs it before any queue's next work: nothing waits here. */
    return d3d12_scheduler_run_internal(device, command_buffer, method);

failed:
    return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "initialising the %u queries failed (VkResult %d)", heap->desc.Count, vr);
}

uint32_t d3d12_query_result_size(D3D12_QUERY_HEAP_TYPE type)
{
    switch (type) {
    case D3D12_QUERY_HEAP_TYPE_OCCLUSION:
    case D3D12_QUERY_HEAP_TYPE_TIMESTAMP:
    case D3D12_QUERY_HEAP_TYPE_COPY_QUEUE_TIMESTAMP:
        return sizeof(UINT64);
    case D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS:
        return sizeof(D3D12_QUERY_DATA_PIPELINE_STATISTICS);
    case D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS1:
        return sizeof(D3D12_QUERY_DATA_PIPELINE_STATISTICS1);
    case D3D12_QUERY_HEAP_TYPE_SO_STATISTICS:
        return sizeof(D3D12_QUERY_DATA_SO_STATISTICS);
    default:
        return 0;
    }
}

/* Vulkan's pipeline statistics bits 0-10 are D3D12_QUERY_DATA_PIPELINE_STATISTICS's fields in
 * the same order (IAVertices ... CSInvocations), and a result packs the enabled bits in bit
 * order: with all eleven, a Vulkan result is the D3D12 structure. */
#define ALL_PIPELINE_STATISTICS 0x7ffu

static HRESULT create_pool(struct d3d12_query_heap *heap, VkQueryType type, VkQueryPipelineStatisticFlags statistics, VkQueryPool *pool,
        const char *method)
{
    struct d3d12_device *device = heap->object.device;
    VkQueryPoolCreateInfo pool_info = {
        .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
        .queryType = type,
        .queryCount = heap->desc.Count,
        .pipelineStatistics = statistics,
    };
    VkResult vr;

    if ((vr = vkCreateQueryPool(device->vk_device, &pool_info, NULL, pool)) != VK_SUCCESS)
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "vkCreateQueryPool failed (VkResult %d)", vr);
    /* Queries start reset, a defined state; lists reset each again before they write it. */
    vkResetQueryPool(device->vk_device, *pool, 0, heap->desc.Count);
    return S_OK;
}

/* The pools and result buffer of the types other than timestamps. */
static HRESULT create_result_storage(struct d3d12_query_heap *heap, const char *method)
{
    static const D3D12_HEAP_PROPERTIES device_local = {.Type = D3D12_HEAP_TYPE_DEFAULT};
    struct d3d12_device *device = heap->object.device;
    VkBufferCreateInfo buffer_info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = (VkDeviceSize)heap->desc.Count * heap->result_size,
        /* STORAGE: BINARY_OCCLUSION counts are folded to 0 or 1 in place (command_list_query.c) */
        .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    HRESULT hr;

    switch (heap->desc.Type) {
    case D3D12_QUERY_HEAP_TYPE_OCCLUSION:
        /* DIRECT lists (the only ones that take occlusion queries) run on a graphics family.
         * Without draws nothing passes, so each query counts 0; with draws they count for real. */
        if (FAILED(hr = create_pool(heap, VK_QUERY_TYPE_OCCLUSION, 0, &heap->vk_pool, method)))
            return hr;
        break;
    case D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS:
    case D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS1:
        if (!device->has_pipeline_statistics) {
            WARN("%s: the Vulkan device has no pipelineStatisticsQuery: the %u queries of this PIPELINE_STATISTICS heap read 0",
                    method, heap->desc.Count);
            break;
        }
        /* Graphics statistics may only be counted on graphics families: a COMPUTE list on a
         * compute-only family counts in a pool of compute invocations alone. */
        if (FAILED(hr = create_pool(heap, VK_QUERY_TYPE_PIPELINE_STATISTICS, ALL_PIPELINE_STATISTICS, &heap->vk_pool, method)))
            return hr;
        if (!device->queue_map[D3D12_COMMAND_LIST_TYPE_COMPUTE].supports_graphics
                && FAILED(hr = create_pool(heap, VK_QUERY_TYPE_PIPELINE_STATISTICS, VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT,
                        &heap->compute_pool, method)))
            return hr;
        break;
    case D3D12_QUERY_HEAP_TYPE_SO_STATISTICS:
        /* A transform feedback stream query counts D3D12's two values in D3D12's order
         * (primitives written, primitives the stream output), for the stream its begin names.
         * Without the extension's queries nothing streams out either, and {0, 0} is exact. */
        if (device->graphics.transform_feedback_queries
                && FAILED(hr = create_pool(heap, VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT, 0, &heap->vk_pool, method)))
            return hr;
        break;
    default:
        break;
    }
    if (FAILED(hr = d3d12xs_allocate_buffer(device, &buffer_info, &device_local, 0, 0, &heap->results, &heap->results_memory, method)))
        return hr;
    /* A query never ended resolves to 0. */
    return d3d12xs_allocation_zero(device, &heap->results_memory, method);
}

HRESULT d3d12_query_heap_create(struct d3d12_device *device, const D3D12_QUERY_HEAP_DESC *desc, REFIID riid, void **out)
{
    static const char method[] = "ID3D12Device::CreateQueryHeap";
    struct d3d12_query_heap *heap;
    bool timestamps;
    HRESULT hr;

    if (out)
        *out = NULL;
    if (!desc)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc is NULL (must describe the query heap)");
    /* Video decode statistics are written by video decode command lists only, which need an
     * ID3D12VideoDevice: d3d12xs has none, so, as Windows on an adapter without video decode,
     * the type is one this device does not offer (E_INVALIDARG, like COPY_QUEUE_TIMESTAMP
     * without copy-queue timestamps). */
    if (desc->Type == D3D12_QUERY_HEAP_TYPE_VIDEO_DECODE_STATISTICS)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Type is VIDEO_DECODE_STATISTICS (needs video decode command lists, which d3d12xs lacks)");
    if (!d3d12_query_result_size(desc->Type))
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Type is %d (not a D3D12_QUERY_HEAP_TYPE)", (int)desc->Type);
    if (!desc->Count)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Count is 0 (a heap holds at least one query)");
    if (desc->NodeMask > 1)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->NodeMask is 0x%x (must be 0 or 1)", desc->NodeMask);
    if (desc->Type == D3D12_QUERY_HEAP_TYPE_COPY_QUEUE_TIMESTAMP && !device->queue_map[D3D12_COMMAND_LIST_TYPE_COPY].timestamps)
        return d3d12xs_fail(E_INVALIDARG, method, "COPY_QUEUE_TIMESTAMP heaps need copy-queue timestamps, which this device lacks");
    if (!out)
        return S_FALSE; /* D3D12's capability check: the arguments are valid, nothing is made */
    if (!riid)
        return d3d12xs_fail(E_INVALIDARG, method, "riid is NULL (must name the query heap interface)");

    if (!(heap = calloc(1, sizeof(*heap))))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the query heap");
    heap->ID3D12QueryHeap_iface.lpVtbl = &d3d12_query_heap_vtbl;
    d3d12xs_object_init(&heap->object, device);
    heap->desc = *desc;
    heap->result_size = d3d12_query_result_size(desc->Type);
    timestamps = desc->Type == D3D12_QUERY_HEAP_TYPE_TIMESTAMP || desc->Type == D3D12_QUERY_HEAP_TYPE_COPY_QUEUE_TIMESTAMP;
    if (timestamps) {
        if (SUCCEEDED(hr = create_pool(heap, VK_QUERY_TYPE_TIMESTAMP, 0, &heap->vk_pool, method)))
            hr = make_queries_available(heap, method);
    } else {
        hr = create_result_storage(heap, method);
    }
    if (FAILED(hr)) {
        ID3D12QueryHeap_Release(&heap->ID3D12QueryHeap_iface);
        return hr;
    }
    hr = d3d12xs_hand_out(ID3D12QueryHeap_QueryInterface(&heap->ID3D12QueryHeap_iface, riid, out), method);
    ID3D12QueryHeap_Release(&heap->ID3D12QueryHeap_iface);
    return hr;
}
