/* Fences, the fence waiter thread and events. */
#ifndef D3D12XS_FENCE_H
#define D3D12XS_FENCE_H

#include "device/device.h"

struct d3d12_fence {
    ID3D12Fence ID3D12Fence_iface;
    struct d3d12xs_object object;
    D3D12_FENCE_FLAGS flags;
    VkSemaphore vk_semaphore;
    /* Highest value already handed to Vulkan (by a queue Signal or the CPU), under the
     * device's submit_lock: a queue Wait is held back until this reaches its value. */
    uint64_t submitted_value;
    uint64_t gpu_signal_value; /* highest value a queue signalled (pending or done) */
    bool used_by_queue;        /* a queue Signal or Wait was submitted */
    const struct d3d12_command_queue *last_signal_queue; /* identity only, never dereferenced */
};

struct d3d12_fence *unsafe_impl_from_ID3D12Fence(ID3D12Fence *iface);
uint64_t d3d12_fence_completed_value(struct d3d12_fence *fence);
/* Blocks until the fence reaches value, the device is removed, or the hang timeout passes. */
HRESULT d3d12_fence_wait(struct d3d12_fence *fence, uint64_t value, const char *method);

HRESULT d3d12_fence_waiter_create(struct d3d12_device *device);
void d3d12_fence_waiter_destroy(struct d3d12_device *device);
HRESULT d3d12_fence_waiter_add(struct d3d12_device *device, struct d3d12_fence *fence, uint64_t value, HANDLE event);
/* Drops a dying fence's registrations and destroys its semaphore once no wait uses it. */
void d3d12_fence_waiter_retire_fence(struct d3d12_device *device, struct d3d12_fence *fence);
/* Called after GPU work is submitted, so the hang watchdog looks at it. */
void d3d12_fence_waiter_kick(struct d3d12_device *device);

/* Events (event.c) */
bool d3d12xs_event_is_valid(HANDLE event);
/* A fence registration holds a reference, so that CloseHandle before the event is set
 * does not free it under the fence waiter; release sets the event first when asked. */
void d3d12xs_event_add_ref(HANDLE event);
void d3d12xs_event_release(HANDLE event, bool set);

#endif
