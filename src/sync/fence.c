/* ID3D12Fence on a Vulkan timeline semaphore. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sync/scheduler.h"
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
    if (!refcount) {
        /* Submitted queue operations may still refer to the semaphore. */
        if (fence->used_by_queue)
            d3d12_device_wait_queues_idle(fence->object.device, METHOD(Release));
        if (fence->vk_semaphore)
            d3d12_fence_waiter_retire_fence(fence->object.device, fence);
        d3d12xs_object_cleanup(&fence->object);
        free(fence);
    }
    return refcount;
}

uint64_t d3d12_fence_completed_value(struct d3d12_fence *fence)
{
    struct d3d12_device *device = fence->object.device;
    uint64_t value = 0;
    VkResult vr;

    /* A removed device completes every fence, as D3D12 does, so that waits end. */
    if (d3d12_device_removed_reason(device) != S_OK)
        return UINT64_MAX;
    if ((vr = vkGetSemaphoreCounterValue(device->vk_device, fence->vk_semaphore, &value)) != VK_SUCCESS) {
        d3d12xs_hresult_from_vk(device, vr);
        return UINT64_MAX;
    }
    return value;
}

static UINT64 STDMETHODCALLTYPE d3d12_fence_GetCompletedValue(ID3D12Fence *iface)
{
    return d3d12_fence_completed_value(impl_from_ID3D12Fence(iface));
}

HRESULT d3d12_fence_wait(struct d3d12_fence *fence, uint64_t value, const char *method)
{
    struct d3d12_device *device = fence->object.device;
    uint64_t start = d3d12xs_now_ns();
    VkSemaphoreWaitInfo wait_info = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
        .semaphoreCount = 1,
        .pSemaphores = &fence->vk_semaphore,
        .pValues = &value,
    };
    HRESULT hr;

    for (;;) {
        /* Short slices, so that a removal by another thread ends the wait too. */
        VkResult vr = vkWaitSemaphores(device->vk_device, &wait_info, 50 * 1000 * 1000);
        unsigned timeout_ms = atomic_load(&device->hang_timeout_ms);
        if (vr == VK_SUCCESS)
            return S_OK;
        if ((hr = d3d12_device_removed_reason(device)) != S_OK)
            return hr;
        if (vr != VK_TIMEOUT)
            return d3d12xs_hresult_from_vk(device, vr);
        if (timeout_ms && d3d12xs_now_ns() - start > (uint64_t)timeout_ms * 1000000) {
            char why[256];
            snprintf(why, sizeof(why), "%s waited %u ms for fence '%s' to reach %llu (it is at %llu)", method, timeout_ms,
                    d3d12xs_object_name(&fence->object), (unsigned long long)value,
                    (unsigned long long)d3d12_fence_completed_value(fence));
            d3d12_device_mark_removed(device, DXGI_ERROR_DEVICE_HUNG, why);
            return DXGI_ERROR_DEVICE_HUNG;
        }
    }
}

static HRESULT STDMETHODCALLTYPE d3d12_fence_SetEventOnCompletion(ID3D12Fence *iface, UINT64 value, HANDLE event)
{
    struct d3d12_fence *fence = impl_from_ID3D12Fence(iface);

    if (!event)
        return d3d12_fence_wait(fence, value, METHOD(SetEventOnCompletion));
    if (!d3d12xs_event_is_valid(event))
        return d3d12xs_fail(E_INVALIDARG, METHOD(SetEventOnCompletion), "hEvent %p is not an event from CreateEvent", event);
    if (d3d12_fence_completed_value(fence) >= value) {
        D3D12XSSetEvent(event);
        return S_OK;
    }
    return d3d12_fence_waiter_add(fence->object.device, fence, value, event);
}

static HRESULT STDMETHODCALLTYPE d3d12_fence_Signal(ID3D12Fence *iface, UINT64 value)
{
    struct d3d12_fence *fence = impl_from_ID3D12Fence(iface);
    struct d3d12_device *device = fence->object.device;
    uint64_t completed;
    VkResult vr;
    HRESULT hr;

    if ((hr = d3d12_device_removed_reason(device)) != S_OK)
        return hr;
    pthread_mutex_lock(&device->submit_lock);
    completed = d3d12_fence_completed_value(fence);
    if (value == completed) {
        pthread_mutex_unlock(&device->submit_lock);
        return S_OK;
    }
    /* Timeline semaphores only move forward, and only below pending queue signals. */
    if (value < completed) {
        pthread_mutex_unlock(&device->submit_lock);
        return d3d12xs_fail(E_INVALIDARG, METHOD(Signal), "Value %llu is below the fence's current %llu (fence values only grow in d3d12xs)",
                (unsigned long long)value, (unsigned long long)completed);
    }
    if (fence->gpu_signal_value > completed && value >= fence->gpu_signal_value) {
        pthread_mutex_unlock(&device->submit_lock);
        return d3d12xs_fail(E_INVALIDARG, METHOD(Signal), "Value %llu is not below %llu, which a queue is still to signal",
                (unsigned long long)value, (unsigned long long)fence->gpu_signal_value);
    }
    VkSemaphoreSignalInfo signal_info = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
        .semaphore = fence->vk_semaphore,
        .value = value,
    };
    if ((vr = vkSignalSemaphore(device->vk_device, &signal_info)) != VK_SUCCESS) {
        pthread_mutex_unlock(&device->submit_lock);
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), METHOD(Signal), "vkSignalSemaphore failed (VkResult %d)", vr);
    }
    if (value > fence->submitted_value)
        fence->submitted_value = value;
    d3d12_device_flush_held_ops_locked(device);
    d3d12_device_unlock_submit(device);
    d3d12_fence_waiter_kick(device);
    return S_OK;
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
    VkResult vr;
    HRESULT hr;
    VkSemaphoreTypeCreateInfo type_info = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
        .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
        .initialValue = initial_value,
    };
    VkSemaphoreCreateInfo create_info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type_info};

    if (!(fence = calloc(1, sizeof(*fence))))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the fence");
    fence->ID3D12Fence_iface.lpVtbl = &d3d12_fence_vtbl;
    d3d12xs_object_init(&fence->object, device);
    fence->flags = flags;
    fence->submitted_value = initial_value;
    fence->gpu_signal_value = initial_value;
    if ((vr = vkCreateSemaphore(device->vk_device, &create_info, NULL, &fence->vk_semaphore)) != VK_SUCCESS) {
        hr = d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "vkCreateSemaphore failed (VkResult %d)", vr);
        ID3D12Fence_Release(&fence->ID3D12Fence_iface);
        return hr;
    }
    hr = ID3D12Fence_QueryInterface(&fence->ID3D12Fence_iface, riid, out);
    ID3D12Fence_Release(&fence->ID3D12Fence_iface);
    return hr;
}
