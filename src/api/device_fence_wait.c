/* ID3D12Device1::SetEventOnMultipleFenceCompletion and ID3D12Device3::EnqueueMakeResident, built
 * on the fences' public calls (SetEventOnCompletion, Signal), so the fences' own value handling
 * applies to them unchanged. Several fences reach one event through a forwarder event
 * (sync/event.h): registered on every fence, it sets the caller's event once, at the first
 * completion (ANY) or at the last (ALL). */
#include "api/device_versions.h"
#include "sync/event.h"
#include "sync/fence.h"

static HRESULT check_fences(struct d3d12_device *device, const char *method, ID3D12Fence *const *fences, const UINT64 *values,
        UINT count)
{
    if (count && !fences)
        return d3d12xs_fail(E_INVALIDARG, method, "ppFences is NULL with NumFences %u", count);
    if (count && !values)
        return d3d12xs_fail(E_INVALIDARG, method, "pFenceValues is NULL with NumFences %u", count);
    for (UINT i = 0; i < count; i++) {
        struct d3d12_fence *fence = unsafe_impl_from_ID3D12Fence(fences[i]);
        if (!fence)
            return d3d12xs_fail(E_INVALIDARG, method, "ppFences[%u] is %s (must be a fence from CreateFence)", i,
                    fences[i] ? "not a d3d12xs fence" : "NULL");
        if (fence->object.device != device)
            return d3d12xs_fail(E_INVALIDARG, method, "ppFences[%u] '%s' belongs to another device (fences must be this device's)", i,
                    d3d12xs_object_name(&fence->object));
    }
    return S_OK;
}

/* Registers a forwarder for target on every fence; needed sets of it set target. */
static HRESULT register_forwarder(const char *method, struct d3d12xs_event *target, unsigned needed, ID3D12Fence *const *fences,
        const UINT64 *values, UINT count)
{
    HANDLE forwarder = d3d12xs_event_create_forwarder(target, needed);
    HRESULT hr = S_OK;

    if (!forwarder)
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot make the event that joins the fences");
    for (UINT i = 0; i < count && SUCCEEDED(hr); i++)
        hr = ID3D12Fence_SetEventOnCompletion(fences[i], values[i], forwarder);
    /* The registrations hold it now. */
    D3D12XSCloseEvent(forwarder);
    return hr;
}

HRESULT STDMETHODCALLTYPE d3d12_device_SetEventOnMultipleFenceCompletion(ID3D12Device14 *iface, ID3D12Fence *const *fences,
        const UINT64 *values, UINT count, D3D12_MULTIPLE_FENCE_WAIT_FLAGS flags, HANDLE event_handle)
{
    static const char method[] = "ID3D12Device1::SetEventOnMultipleFenceCompletion";
    struct d3d12_device *device = impl_from_ID3D12Device14(iface);
    struct d3d12xs_event *event;
    HANDLE own;
    HRESULT hr;

    if (flags != D3D12_MULTIPLE_FENCE_WAIT_FLAG_NONE && flags != D3D12_MULTIPLE_FENCE_WAIT_FLAG_ANY)
        return d3d12xs_fail(E_INVALIDARG, method, "Flags is 0x%x (must be D3D12_MULTIPLE_FENCE_WAIT_FLAG_NONE (all) or _ANY)", flags);
    if (FAILED(hr = check_fences(device, method, fences, values, count)))
        return hr;
    if (!count && flags == D3D12_MULTIPLE_FENCE_WAIT_FLAG_ANY)
        return d3d12xs_fail(E_INVALIDARG, method, "NumFences is 0 with FLAG_ANY (no fence could ever complete)");

    if (event_handle) {
        if (!(event = d3d12xs_event_acquire(event_handle)))
            return d3d12xs_fail(E_INVALIDARG, method, "hEvent %p is not an open event from CreateEvent", event_handle);
        if (!count) { /* all of none: met now */
            d3d12xs_event_release(event, true);
            return S_OK;
        }
        hr = register_forwarder(method, event, flags == D3D12_MULTIPLE_FENCE_WAIT_FLAG_ANY ? 1 : count, fences, values, count);
        d3d12xs_event_release(event, false);
        return hr;
    }

    /* No event: block. For all, wait for each fence in turn (each a host wait on its fence,
     * under the hang timeout like SetEventOnCompletion(value, NULL)). */
    if (flags == D3D12_MULTIPLE_FENCE_WAIT_FLAG_NONE) {
        for (UINT i = 0; i < count; i++)
            if (FAILED(hr = ID3D12Fence_SetEventOnCompletion(fences[i], values[i], NULL)))
                return hr;
        return d3d12_device_removed_reason(device);
    }
    /* For any, on an event of our own that the first completion sets. Its registrations are
     * under the hang timeout, and a removed device or a released fence sets them too, so the
     * wait ends as a single fence's would. */
    if (!(own = D3D12XSCreateEvent(FALSE, FALSE)))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot make the event to wait on");
    event = d3d12xs_event_acquire(own);
    hr = register_forwarder(method, event, 1, fences, values, count);
    d3d12xs_event_release(event, false);
    if (SUCCEEDED(hr) && D3D12XSWaitForEvent(own, INFINITE) != WAIT_OBJECT_0)
        hr = d3d12xs_fail(E_FAIL, method, "waiting on its own event failed");
    D3D12XSCloseEvent(own);
    return FAILED(hr) ? hr : d3d12_device_removed_reason(device);
}

/* MakeResident is a no-op here (Vulkan memory is always resident), so the residency operation is
 * done at once and the fence is signalled to the value right away, from the CPU. */
HRESULT STDMETHODCALLTYPE d3d12_device_EnqueueMakeResident(ID3D12Device14 *iface, D3D12_RESIDENCY_FLAGS flags, UINT count,
        ID3D12Pageable *const *objects, ID3D12Fence *fence_iface, UINT64 value)
{
    static const char method[] = "ID3D12Device3::EnqueueMakeResident";
    struct d3d12_device *device = impl_from_ID3D12Device14(iface);
    struct d3d12_fence *fence = unsafe_impl_from_ID3D12Fence(fence_iface);

    if (flags & ~D3D12_RESIDENCY_FLAG_DENY_OVERBUDGET)
        return d3d12xs_fail(E_INVALIDARG, method, "Flags is 0x%x (only D3D12_RESIDENCY_FLAG_DENY_OVERBUDGET is defined)", flags);
    if (count && !objects)
        return d3d12xs_fail(E_INVALIDARG, method, "ppObjects is NULL with NumObjects %u", count);
    for (UINT i = 0; i < count; i++)
        if (!objects[i])
            return d3d12xs_fail(E_INVALIDARG, method, "ppObjects[%u] is NULL", i);
    if (!fence)
        return d3d12xs_fail(E_INVALIDARG, method, "pFenceToSignal is %s (must be a fence from CreateFence)",
                fence_iface ? "not a d3d12xs fence" : "NULL");
    if (fence->object.device != device)
        return d3d12xs_fail(E_INVALIDARG, method, "pFenceToSignal '%s' belongs to another device", d3d12xs_object_name(&fence->object));
    return ID3D12Fence_Signal(fence_iface, value);
}
