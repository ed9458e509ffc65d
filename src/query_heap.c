/* ID3D12QueryHeap: a VkQueryPool (timestamps). */
#include <stdlib.h>

#include "private.h"
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

static ULONG STDMETHODCALLTYPE d3d12_query_heap_Release(ID3D12QueryHeap *iface)
{
    struct d3d12_query_heap *heap = impl_from_ID3D12QueryHeap(iface);
    unsigned refcount = d3d12xs_object_release(&heap->object);
    if (!refcount) {
        /* After a removal the application cannot know when the GPU is done with it. */
        if (d3d12_device_removed_reason(heap->object.device) != S_OK)
            d3d12_device_wait_queues_idle(heap->object.device, METHOD(Release));
        vkDestroyQueryPool(heap->object.device->vk_device, heap->vk_pool, NULL);
        d3d12xs_object_cleanup(&heap->object);
        free(heap);
    }
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
    /* Every query starts reset, so a resolve of one never written reads nothing rather than hangs. */
    vkResetQueryPool(device->vk_device, heap->vk_pool, 0, desc->Count);
    hr = ID3D12QueryHeap_QueryInterface(&heap->ID3D12QueryHeap_iface, riid, out);
    ID3D12QueryHeap_Release(&heap->ID3D12QueryHeap_iface);
    return hr;
}
