/* ID3D12QueryHeap: a VkQueryPool (timestamps). */
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
    vkDestroyCommandPool(device->vk_device, heap->init_pool, NULL);
    free(heap);
}

static ULONG STDMETHODCALLTYPE d3d12_query_heap_Release(ID3D12QueryHeap *iface)
{
    struct d3d12_query_heap *heap = impl_from_ID3D12QueryHeap(iface);
    unsigned refcount = d3d12xs_object_release(&heap->object);
    if (!refcount)
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

    vkResetQueryPool(device->vk_device, heap->vk_pool, 0, heap->desc.Count);
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

HRESULT d3d12_query_heap_create(struct d3d12_device *device, const D3D12_QUERY_HEAP_DESC *desc, REFIID riid, void **out)
{
    static const char method[] = "ID3D12Device::CreateQueryHeap";
    struct d3d12_query_heap *heap;
    VkResult vr;
    HRESULT hr;

    if (out)
        *out = NULL;
    if (!desc)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc is NULL (must describe the query heap)");
    if (desc->Type != D3D12_QUERY_HEAP_TYPE_TIMESTAMP && desc->Type != D3D12_QUERY_HEAP_TYPE_COPY_QUEUE_TIMESTAMP) {
        if (desc->Type <= D3D12_QUERY_HEAP_TYPE_VIDEO_DECODE_STATISTICS)
            return d3d12xs_fail(E_NOTIMPL, method, "pDesc->Type is %d (only TIMESTAMP and COPY_QUEUE_TIMESTAMP are implemented)", (int)desc->Type);
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Type is %d (not a D3D12_QUERY_HEAP_TYPE)", (int)desc->Type);
    }
    if (!desc->Count)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Count is 0 (a heap holds at least one query)");
    if (desc->NodeMask > 1)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->NodeMask is 0x%x (must be 0 or 1)", desc->NodeMask);
    if (desc->Type == D3D12_QUERY_HEAP_TYPE_COPY_QUEUE_TIMESTAMP && !device->queue_map[D3D12_COMMAND_LIST_TYPE_COPY].timestamps)
        return d3d12xs_fail(E_INVALIDARG, method, "COPY_QUEUE_TIMESTAMP heaps need copy-queue timestamps, which this device lacks");
    if (!riid)
        return d3d12xs_fail(E_INVALIDARG, method, "riid is NULL (must name the query heap interface)");
    if (!out)
        return d3d12xs_fail(E_POINTER, method, "ppvHeap is NULL (must receive the query heap)");

    if (!(heap = calloc(1, sizeof(*heap))))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the query heap");
    heap->ID3D12QueryHeap_iface.lpVtbl = &d3d12_query_heap_vtbl;
    d3d12xs_object_init(&heap->object, device);
    heap->desc = *desc;
    VkQueryPoolCreateInfo pool_info = {
        .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
        .queryType = VK_QUERY_TYPE_TIMESTAMP,
        .queryCount = desc->Count,
    };
    if ((vr = vkCreateQueryPool(device->vk_device, &pool_info, NULL, &heap->vk_pool)) != VK_SUCCESS) {
        hr = d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "vkCreateQueryPool failed (VkResult %d)", vr);
        ID3D12QueryHeap_Release(&heap->ID3D12QueryHeap_iface);
        return hr;
    }
    if (FAILED(hr = make_queries_available(heap, method))) {
        ID3D12QueryHeap_Release(&heap->ID3D12QueryHeap_iface);
        return hr;
    }
    hr = d3d12xs_hand_out(ID3D12QueryHeap_QueryInterface(&heap->ID3D12QueryHeap_iface, riid, out), method);
    ID3D12QueryHeap_Release(&heap->ID3D12QueryHeap_iface);
    return hr;
}
