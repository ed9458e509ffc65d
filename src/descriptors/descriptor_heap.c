/* ID3D12DescriptorHeap: an array of struct d3d12xs_descriptor. CPU handles are addresses in
 * that array; GPU handles of shader-visible heaps are offsets from a unique per-heap base. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "descriptors/descriptors.h"
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

/* The device's live heaps: what a CPU handle is checked against. Each thread also keeps the
 * last heaps its handles resolved to (lookup_cache below), valid while no heap of any device was
 * created or released since: CopyDescriptorsSimple then finds both heaps without a lock. */
static atomic_uint_least64_t heap_epoch = 1;
struct d3d12xs_descriptor_heap_registry {
    pthread_mutex_t lock;
    struct d3d12_descriptor_heap **heaps;
    size_t count, capacity;
};

HRESULT d3d12xs_descriptor_heap_registry_init(struct d3d12_device *device)
{
    struct d3d12xs_descriptor_heap_registry *registry = calloc(1, sizeof(*registry));
    if (!registry)
        return E_OUTOFMEMORY;
    pthread_mutex_init(&registry->lock, NULL);
    device->descriptor_heaps = registry;
    return S_OK;
}

void d3d12xs_descriptor_heap_registry_cleanup(struct d3d12_device *device)
{
    struct d3d12xs_descriptor_heap_registry *registry = device->descriptor_heaps;
    if (!registry)
        return;
    pthread_mutex_destroy(&registry->lock);
    free(registry->heaps);
    free(registry);
    device->descriptor_heaps = NULL;
}

static bool register_heap(struct d3d12_device *device, struct d3d12_descriptor_heap *heap)
{
    struct d3d12xs_descriptor_heap_registry *registry = device->descriptor_heaps;
    bool registered;
    pthread_mutex_lock(&registry->lock);
    registered = d3d12xs_array_reserve((void **)&registry->heaps, &registry->capacity, registry->count + 1, sizeof(*registry->heaps));
    if (registered)
        registry->heaps[registry->count++] = heap;
    atomic_fetch_add_explicit(&heap_epoch, 1, memory_order_release);
    pthread_mutex_unlock(&registry->lock);
    return registered;
}

static void unregister_heap(struct d3d12_device *device, struct d3d12_descriptor_heap *heap)
{
    struct d3d12xs_descriptor_heap_registry *registry = device->descriptor_heaps;
    pthread_mutex_lock(&registry->lock);
    for (size_t i = 0; i < registry->count; i++) {
        if (registry->heaps[i] == heap) {
            registry->heaps[i] = registry->heaps[--registry->count];
            break;
        }
    }
    atomic_fetch_add_explicit(&heap_epoch, 1, memory_order_release);
    pthread_mutex_unlock(&registry->lock);
}

static void destroy_heap(struct d3d12_device *device, void *object)
{
    struct d3d12_descriptor_heap *heap = object;
    heap->object.device = device; /* the object part was cleaned up at Release; its memory goes through the device */
    d3d12_descriptor_heap_destroy_memory(heap);
    free(heap->descriptors);
    free(heap);
}

static ULONG STDMETHODCALLTYPE d3d12_descriptor_heap_Release(ID3D12DescriptorHeap *iface)
{
    struct d3d12_descriptor_heap *heap = impl_from_ID3D12DescriptorHeap(iface);
    unsigned refcount = d3d12xs_object_release(&heap->object);
    if (!refcount) {
        /* Its handles stop resolving now; its descriptor memory, which dispatches enqueued so
         * far may still read, goes when they are done (as resources go: Release never waits). */
        unregister_heap(heap->object.device, heap);
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

/* The heaps this thread's handles resolved to last, while heap_epoch stays what it was then. */
#define LOOKUP_CACHE_SIZE 4
static _Thread_local struct {
    uint64_t epoch;
    const struct d3d12xs_descriptor_heap_registry *registry;
    struct d3d12_descriptor_heap *heaps[LOOKUP_CACHE_SIZE];
    unsigned next;
} lookup_cache;

static struct d3d12_descriptor_heap *cached_heap(const struct d3d12xs_descriptor_heap_registry *registry, SIZE_T ptr)
{
    if (lookup_cache.registry != registry || lookup_cache.epoch != atomic_load_explicit(&heap_epoch, memory_order_acquire))
        return NULL;
    for (unsigned i = 0; i < LOOKUP_CACHE_SIZE; i++) {
        struct d3d12_descriptor_heap *heap = lookup_cache.heaps[i];
        if (heap && ptr - (SIZE_T)heap->descriptors < heap->desc.NumDescriptors * sizeof(*heap->descriptors))
            return heap;
    }
    return NULL;
}

/* Called with the registry lock held, so the epoch read belongs to the heaps just searched. */
static void cache_heap_locked(const struct d3d12xs_descriptor_heap_registry *registry, struct d3d12_descriptor_heap *heap)
{
    uint64_t epoch = atomic_load_explicit(&heap_epoch, memory_order_relaxed);
    if (lookup_cache.registry != registry || lookup_cache.epoch != epoch) {
        memset(&lookup_cache, 0, sizeof(lookup_cache));
        lookup_cache.registry = registry;
        lookup_cache.epoch = epoch;
    }
    lookup_cache.heaps[lookup_cache.next++ % LOOKUP_CACHE_SIZE] = heap;
}

/* The checks of a handle inside heap; NULL with the reason when one fails. */
static struct d3d12xs_descriptor *check_handle(struct d3d12_descriptor_heap *heap, D3D12_CPU_DESCRIPTOR_HANDLE handle, UINT count,
        D3D12_DESCRIPTOR_HEAP_TYPE type, const char **reason)
{
    SIZE_T start = (SIZE_T)heap->descriptors, end = start + heap->desc.NumDescriptors * sizeof(*heap->descriptors);
    if ((handle.ptr - start) % sizeof(*heap->descriptors))
        *reason = "not on a descriptor boundary (use GetDescriptorHandleIncrementSize)";
    else if (heap->desc.Type != type)
        *reason = "in a heap of another type";
    else if (count > (end - handle.ptr) / sizeof(*heap->descriptors))
        *reason = "too close to the end of its heap for the descriptors asked for";
    else
        return (struct d3d12xs_descriptor *)handle.ptr;
    return NULL;
}

struct d3d12xs_descriptor *d3d12xs_descriptor_lookup(struct d3d12_device *device, D3D12_CPU_DESCRIPTOR_HANDLE handle,
        UINT count, D3D12_DESCRIPTOR_HEAP_TYPE type, const char **reason, struct d3d12_descriptor_heap **heap_out)
{
    struct d3d12xs_descriptor_heap_registry *registry = device->descriptor_heaps;
    struct d3d12xs_descriptor *descriptor = NULL;
    struct d3d12_descriptor_heap *heap;

    if ((heap = cached_heap(registry, handle.ptr))) {
        if (heap_out)
            *heap_out = heap;
        return check_handle(heap, handle, count, type, reason);
    }
    *reason = "not inside a live descriptor heap of this device";
    pthread_mutex_lock(&registry->lock);
    for (size_t i = 0; i < registry->count; i++) {
        SIZE_T start, end;
        heap = registry->heaps[i];
        start = (SIZE_T)heap->descriptors, end = start + heap->desc.NumDescriptors * sizeof(*heap->descriptors);
        if (handle.ptr < start || handle.ptr >= end)
            continue;
        descriptor = check_handle(heap, handle, count, type, reason);
        cache_heap_locked(registry, heap);
        if (heap_out)
            *heap_out = heap;
        break;
    }
    pthread_mutex_unlock(&registry->lock);
    return descriptor;
}

struct d3d12xs_descriptor *d3d12xs_descriptor_from_cpu_handle(struct d3d12_device *device, D3D12_CPU_DESCRIPTOR_HANDLE handle,
        UINT count, D3D12_DESCRIPTOR_HEAP_TYPE type, const char *method, const char *argument, struct d3d12_descriptor_heap **heap)
{
    const char *reason;
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

    if (!(heap = calloc(1, sizeof(*heap))) || !(heap->descriptors = calloc(desc->NumDescriptors, sizeof(*heap->descriptors)))) {
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

    if (!register_heap(device, heap)) {
        ID3D12DescriptorHeap_Release(&heap->ID3D12DescriptorHeap_iface);
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot register the heap");
    }
    hr = d3d12xs_hand_out(ID3D12DescriptorHeap_QueryInterface(&heap->ID3D12DescriptorHeap_iface, riid, out), method);
    ID3D12DescriptorHeap_Release(&heap->ID3D12DescriptorHeap_iface);
    return hr;
}
