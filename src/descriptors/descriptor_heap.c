/* ID3D12DescriptorHeap: an array of struct d3d12xs_descriptor. CPU handles are addresses in
 * that array, which the device's registry maps back to the heap (heap_registry.h); GPU handles
 * of shader-visible heaps are offsets from a unique per-heap base. */
#include <stdlib.h>
#include <string.h>

#include "descriptors/descriptors.h"
#include "descriptors/heap_registry.h"
#include "memory/va_map.h"
#include "sync/scheduler.h"
#include "generated/d3d12_stubs.h"

#define METHOD(name) "ID3D12DescriptorHeap::" #name

static struct d3d12_descriptor_heap *impl_from_ID3D12DescriptorHeap(ID3D12DescriptorHeap *iface)
{
    return D3D12XS_CONTAINING(iface, struct d3d12_descriptor_heap, ID3D12DescriptorHeap_iface);
}

static HRESULT STDMETHODCALLTYPE d3d12_descriptor_heap_QueryInterface(ID3D12DescriptorHeap *iface, REFIID riid, void **object)
{
    static const IID *const iids[] = {&IID_ID3D12DescriptorHeap, &IID_ID3D12Pageable, &IID_ID3D12DeviceChild, &IID_ID3D12Object, &IID_IUnknown, NULL};
    return d3d12xs_query_interface(iface, METHOD(QueryInterface), iids, riid, object);
}

D3D12XS_DEVICE_CHILD_METHODS(d3d12_descriptor_heap, ID3D12DescriptorHeap, impl_from_ID3D12DescriptorHeap, "ID3D12DescriptorHeap")

static void destroy_heap(struct d3d12_device *device, void *object)
{
    struct d3d12_descriptor_heap *heap = object;
    heap->object.device = device; /* the object part was cleaned up at Release; its memory goes through the device */
    d3d12_descriptor_heap_destroy_memory(heap);
    d3d12xs_descriptor_records_free(device, heap->descriptors, heap->desc.NumDescriptors);
    free(heap);
}

static ULONG STDMETHODCALLTYPE d3d12_descriptor_heap_Release(ID3D12DescriptorHeap *iface)
{
    struct d3d12_descriptor_heap *heap = impl_from_ID3D12DescriptorHeap(iface);
    unsigned refcount = d3d12xs_object_release(&heap->object);
    if (!refcount && !d3d12xs_exit_torn_down()) {
        /* Its handles stop resolving now; its descriptor memory, which dispatches enqueued so
         * far may still read, goes when they are done (as resources go: Release never waits). */
        d3d12xs_descriptor_heap_unregister(heap);
        d3d12xs_va_free(heap->object.device, heap->gpu_base);
        d3d12_scheduler_retire_object(&heap->object, destroy_heap, heap);
    }
    return refcount;
}

static D3D12_DESCRIPTOR_HEAP_DESC STDMETHODCALLTYPE d3d12_descriptor_heap_GetDesc(ID3D12DescriptorHeap *iface)
{
    return impl_from_ID3D12DescriptorHeap(iface)->desc;
}

static D3D12_CPU_DESCRIPTOR_HANDLE STDMETHODCALLTYPE d3d12_descriptor_heap_GetCPUDescriptorHandleForHeapStart(ID3D12DescriptorHeap *iface)
{
    D3D12_CPU_DESCRIPTOR_HANDLE handle;
    handle.ptr = (SIZE_T)impl_from_ID3D12DescriptorHeap(iface)->descriptors;
    return handle;
}

static D3D12_GPU_DESCRIPTOR_HANDLE STDMETHODCALLTYPE d3d12_descriptor_heap_GetGPUDescriptorHandleForHeapStart(ID3D12DescriptorHeap *iface)
{
    struct d3d12_descriptor_heap *heap = impl_from_ID3D12DescriptorHeap(iface);
    D3D12_GPU_DESCRIPTOR_HANDLE handle = {0};
    if (!(heap->desc.Flags & D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE))
        ERR("%s: heap '%s' is not shader-visible (it has no GPU handles)", METHOD(GetGPUDescriptorHandleForHeapStart),
                d3d12xs_object_name(&heap->object));
    else
        handle.ptr = heap->gpu_base;
    return handle;
}

#if defined(__clang__)
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Woverride-init"
#endif

static const ID3D12DescriptorHeapVtbl d3d12_descriptor_heap_vtbl = {
    D3D12XS_STUB_VTBL_ID3D12DescriptorHeap,
    .QueryInterface = d3d12_descriptor_heap_QueryInterface,
    D3D12XS_DEVICE_CHILD_VTBL_ENTRIES(d3d12_descriptor_heap),
    .Release = d3d12_descriptor_heap_Release,
    .GetDesc = d3d12_descriptor_heap_GetDesc,
    .GetCPUDescriptorHandleForHeapStart = d3d12_descriptor_heap_GetCPUDescriptorHandleForHeapStart,
    .GetGPUDescriptorHandleForHeapStart = d3d12_descriptor_heap_GetGPUDescriptorHandleForHeapStart,
};

struct d3d12_descriptor_heap *unsafe_impl_from_ID3D12DescriptorHeap(ID3D12DescriptorHeap *iface)
{
    if (!iface || iface->lpVtbl != &d3d12_descriptor_heap_vtbl)
        return NULL;
    return impl_from_ID3D12DescriptorHeap(iface);
}

struct d3d12xs_descriptor *d3d12xs_descriptor_lookup(struct d3d12_device *device, D3D12_CPU_DESCRIPTOR_HANDLE handle,
        UINT count, D3D12_DESCRIPTOR_HEAP_TYPE type, const char **reason, struct d3d12_descriptor_heap **heap_out)
{
    struct d3d12_descriptor_heap *heap = d3d12xs_descriptor_heap_of_range(device, handle.ptr, count, type);
    SIZE_T offset;

    if (heap) {
        if (heap_out)
            *heap_out = heap;
        return (struct d3d12xs_descriptor *)handle.ptr;
    }
    /* Which check failed, in d3d12xs_descriptor_heap_of_range's order. The registry knows a heap
     * by its records' units: the offset says whether the handle is inside its records. */
    heap = d3d12xs_descriptor_heap_find(&device->descriptor_window, handle.ptr);
    if (!heap || (offset = handle.ptr - (SIZE_T)heap->descriptors) >= heap->desc.NumDescriptors * sizeof(*heap->descriptors)) {
        *reason = "not inside a live descriptor heap of this device";
        return NULL;
    }
    if (heap_out)
        *heap_out = heap;
    if (offset % sizeof(*heap->descriptors))
        *reason = "not on a descriptor boundary (use GetDescriptorHandleIncrementSize)";
    else if (heap->desc.Type != type)
        *reason = "in a heap of another type";
    else
        *reason = "too close to the end of its heap for the descriptors asked for";
    return NULL;
}

struct d3d12xs_descriptor *d3d12xs_descriptor_from_cpu_handle(struct d3d12_device *device, D3D12_CPU_DESCRIPTOR_HANDLE handle,
        UINT count, D3D12_DESCRIPTOR_HEAP_TYPE type, const char *method, const char *argument, struct d3d12_descriptor_heap **heap)
{
    const char *reason = "not inside a live descriptor heap of this device"; /* set again by every failed lookup */
    struct d3d12xs_descriptor *descriptor = d3d12xs_descriptor_lookup(device, handle, count, type, &reason, heap);
    if (!descriptor)
        d3d12xs_fail(E_INVALIDARG, method, "%s 0x%zx is %s", argument, (size_t)handle.ptr, reason);
    return descriptor;
}

HRESULT d3d12_descriptor_heap_create(struct d3d12_device *device, const D3D12_DESCRIPTOR_HEAP_DESC *desc, REFIID riid, void **out)
{
    static const char method[] = "ID3D12Device::CreateDescriptorHeap";
    struct d3d12_descriptor_heap *heap;
    HRESULT hr;

    if (out)
        *out = NULL;
    if (!desc)
        return d3d12xs_fail(E_INVALIDARG, method, "pDescriptorHeapDesc is NULL (must describe the heap)");
    if ((unsigned)desc->Type >= D3D12_DESCRIPTOR_HEAP_TYPE_NUM_TYPES)
        return d3d12xs_fail(E_INVALIDARG, method, "pDescriptorHeapDesc->Type is %d (CBV_SRV_UAV, SAMPLER, RTV or DSV)", (int)desc->Type);
    if (!desc->NumDescriptors)
        return d3d12xs_fail(E_INVALIDARG, method, "pDescriptorHeapDesc->NumDescriptors is 0 (a heap holds at least one)");
    if (desc->Flags & ~D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE)
        return d3d12xs_fail(E_INVALIDARG, method, "pDescriptorHeapDesc->Flags is 0x%x (only SHADER_VISIBLE is defined)", desc->Flags);
    if ((desc->Flags & D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE)
            && desc->Type != D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV && desc->Type != D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER)
        return d3d12xs_fail(E_INVALIDARG, method, "RTV and DSV heaps cannot be SHADER_VISIBLE");
    if (desc->Type == D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV && (desc->Flags & D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE)
            && desc->NumDescriptors > 1000000)
        return d3d12xs_fail(E_INVALIDARG, method, "pDescriptorHeapDesc->NumDescriptors is %u (shader-visible CBV_SRV_UAV heaps hold at most 1,000,000)", desc->NumDescriptors);
    if (desc->Type == D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER && (desc->Flags & D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE) && desc->NumDescriptors > 2048)
        return d3d12xs_fail(E_INVALIDARG, method, "pDescriptorHeapDesc->NumDescriptors is %u (shader-visible sampler heaps hold at most 2048)", desc->NumDescriptors);
    if (desc->NodeMask > 1)
        return d3d12xs_fail(E_INVALIDARG, method, "pDescriptorHeapDesc->NodeMask is 0x%x (must be 0 or 1)", desc->NodeMask);
    if (!riid)
        return d3d12xs_fail(E_INVALIDARG, method, "riid is NULL (must name the descriptor heap interface)");
    if (!out)
        return d3d12xs_fail(E_POINTER, method, "ppvHeap is NULL (must receive the heap)");

    if (!(heap = calloc(1, sizeof(*heap))) || !(heap->descriptors = d3d12xs_descriptor_records_allocate(device, desc->NumDescriptors))) {
        free(heap);
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate %u descriptors", desc->NumDescriptors);
    }
    heap->ID3D12DescriptorHeap_iface.lpVtbl = &d3d12_descriptor_heap_vtbl;
    d3d12xs_object_init(&heap->object, device);
    heap->desc = *desc;
    if (desc->Flags & D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE)
        heap->gpu_base = d3d12xs_va_allocate(device, (uint64_t)desc->NumDescriptors * sizeof(*heap->descriptors), VK_NULL_HANDLE, false, NULL);
    if (FAILED(hr = d3d12_descriptor_heap_create_memory(heap, method))) {
        ID3D12DescriptorHeap_Release(&heap->ID3D12DescriptorHeap_iface);
        return hr;
    }

    d3d12xs_descriptor_heap_register(heap);
    hr = d3d12xs_hand_out(ID3D12DescriptorHeap_QueryInterface(&heap->ID3D12DescriptorHeap_iface, riid, out), method);
    ID3D12DescriptorHeap_Release(&heap->ID3D12DescriptorHeap_iface);
    return hr;
}
