/* ID3D12Fence: the COM face of a scheduler timeline (a Vulkan timeline semaphore counting virtual
 * values, mapped to D3D12 values by fence_values.c, so that values may go down). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sync/event.h"
#include "sync/fence.h"
#include "sync/waiter.h"
#include "trace/trace.h"
#include "generated/d3d12_stubs.h"

#define METHOD(name) "ID3D12Fence::" #name

static struct d3d12_fence *impl_from_ID3D12Fence(ID3D12Fence *iface)
{
    return D3D12XS_CONTAINING(iface, struct d3d12_fence, ID3D12Fence_iface);
}

static HRESULT STDMETHODCALLTYPE d3d12_fence_QueryInterface(ID3D12Fence *iface, REFIID riid, void **object)
{
    static const IID *const iids[] = {&IID_ID3D12Fence, &IID_ID3D12Pageable, &IID_ID3D12DeviceChild, &IID_ID3D12Object, &IID_IUnknown, NULL};
    return d3d12xs_query_interface(iface, METHOD(QueryInterface), iids, riid, object);
}

D3D12XS_DEVICE_CHILD_METHODS(d3d12_fence, ID3D12Fence, impl_from_ID3D12Fence, "ID3D12Fence")

static ULONG STDMETHODCALLTYPE d3d12_fence_Release(ID3D12Fence *iface)
{
    struct d3d12_fence *fence = impl_from_ID3D12Fence(iface);
    unsigned refcount = d3d12xs_object_release(&fence->object);
    if (!refcount && !d3d12xs_exit_torn_down()) {
        /* Queued signals and waits, and registered events, keep the timeline. */
        if (fence->timeline) {
            d3d12_timeline_orphan(fence->object.device, fence->timeline);
            /* Events waiting for values that can no longer come are set now, not a slice later. */
            d3d12_waiter_kick(fence->object.device, true);
        }
        d3d12xs_object_cleanup(&fence->object);
        free(fence);
    }
    return refcount;
}

static UINT64 STDMETHODCALLTYPE d3d12_fence_GetCompletedValue(ID3D12Fence *iface)
{
    struct d3d12_fence *fence = impl_from_ID3D12Fence(iface);
    return d3d12_timeline_completed_value(fence->object.device, fence->timeline);
}

void d3d12_fence_trace_call(uint64_t begin_ns, const char *name, struct d3d12_fence *fence, uint64_t value)
{
    struct d3d12xs_trace_args args = {.length = 0};
    if (!begin_ns)
        return;
    d3d12xs_trace_arg_string(&args, "fence", d3d12xs_object_name(&fence->object));
    d3d12xs_trace_arg_u64(&args, "value", value);
    d3d12xs_trace_end(begin_ns, name, &args);
}

static HRESULT STDMETHODCALLTYPE d3d12_fence_SetEventOnCompletion(ID3D12Fence *iface, UINT64 value, HANDLE event_handle)
{
    struct d3d12_fence *fence = impl_from_ID3D12Fence(iface);
    struct d3d12_device *device = fence->object.device;
    struct d3d12xs_event *event;

    if (!event_handle) {
        /* the time it blocked, in the trace */
        uint64_t begin_ns = d3d12xs_trace_begin();
        HRESULT hr = d3d12_waiter_wait(device, fence->timeline, value, METHOD(SetEventOnCompletion));
        d3d12_fence_trace_call(begin_ns, METHOD(SetEventOnCompletion), fence, value);
        return hr;
    }
    if (!(event = d3d12xs_event_acquire(event_handle)))
        return d3d12xs_fail(E_INVALIDARG, METHOD(SetEventOnCompletion), "hEvent %p is not an open event from CreateEvent", event_handle);
    if (d3d12_timeline_completed_value(device, fence->timeline) >= value) {
        d3d12xs_event_release(event, true);
        return S_OK;
    }
    return d3d12_waiter_add(device, fence->timeline, value, event, METHOD(SetEventOnCompletion));
}

static HRESULT STDMETHODCALLTYPE d3d12_fence_Signal(ID3D12Fence *iface, UINT64 value)
{
    struct d3d12_fence *fence = impl_from_ID3D12Fence(iface);
    struct d3d12_device *device = fence->object.device;
    HRESULT hr;

    bool waiters_must_look = false;
    uint64_t begin_ns = d3d12xs_trace_begin();

    if ((hr = d3d12_device_removed_reason(device)) != S_OK)
        return hr;
    /* A value set without moving the semaphore (queue signals pending) wakes nothing waiting on
     * it: the waiter thread looks at its events again. */
    if (SUCCEEDED(hr = d3d12_timeline_signal_on_host(device, fence->timeline, value, &waiters_must_look, METHOD(Signal)))) {
        if (waiters_must_look)
            d3d12_waiter_recheck(device);
        else
            d3d12_waiter_kick(device, false);
    }
    d3d12_fence_trace_call(begin_ns, METHOD(Signal), fence, value);
    return hr;
}

static HRESULT STDMETHODCALLTYPE d3d12_fence_set_name(ID3D12Fence *iface, LPCWSTR name)
{
    struct d3d12_fence *fence = impl_from_ID3D12Fence(iface);
    HRESULT hr = d3d12xs_object_set_name(&fence->object, METHOD(SetName), name);
    if (SUCCEEDED(hr))
        d3d12_timeline_set_name(fence->object.device, fence->timeline, d3d12xs_object_name(&fence->object));
    return hr;
}

#if defined(__clang__)
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Woverride-init"
#endif

static const ID3D12FenceVtbl d3d12_fence_vtbl = {
    D3D12XS_STUB_VTBL_ID3D12Fence,
    .QueryInterface = d3d12_fence_QueryInterface,
    D3D12XS_DEVICE_CHILD_VTBL_ENTRIES(d3d12_fence),
    .Release = d3d12_fence_Release,
    .GetCompletedValue = d3d12_fence_GetCompletedValue,
    .SetEventOnCompletion = d3d12_fence_SetEventOnCompletion,
    .Signal = d3d12_fence_Signal,
    .SetName = d3d12_fence_set_name,
};

struct d3d12_fence *unsafe_impl_from_ID3D12Fence(ID3D12Fence *iface)
{
    if (!iface || iface->lpVtbl != &d3d12_fence_vtbl)
        return NULL;
    return impl_from_ID3D12Fence(iface);
}

HRESULT d3d12_fence_create(struct d3d12_device *device, UINT64 initial_value, D3D12_FENCE_FLAGS flags, REFIID riid, void **out)
{
    static const char method[] = "ID3D12Device::CreateFence";
    struct d3d12_fence *fence;
    HRESULT hr;

    if (!(fence = calloc(1, sizeof(*fence))))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the fence");
    fence->ID3D12Fence_iface.lpVtbl = &d3d12_fence_vtbl;
    d3d12xs_object_init(&fence->object, device);
    fence->flags = flags;
    if (FAILED(hr = d3d12_timeline_create(device, initial_value, &fence->timeline))) {
        hr = d3d12xs_fail(hr, method, "cannot create the fence's timeline semaphore");
        ID3D12Fence_Release(&fence->ID3D12Fence_iface);
        return hr;
    }
    hr = d3d12xs_hand_out(ID3D12Fence_QueryInterface(&fence->ID3D12Fence_iface, riid, out), method);
    ID3D12Fence_Release(&fence->ID3D12Fence_iface);
    return hr;
}
