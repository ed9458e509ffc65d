/* One-off work for the internal engine (scheduler.h): a transient pool and command buffer,
 * recorded by the caller, run before every queue's next work, retired once it has run. */
#include <stdlib.h>

#include "sync/scheduler.h"
#include "sync/scheduler_state.h"
#include "sync/waiter.h"

static void destroy_pool(struct d3d12_device *device, void *object)
{
    VkCommandPool *pool = object;
    vkDestroyCommandPool(device->vk_device, *pool, NULL);
    free(pool);
}

HRESULT d3d12_scheduler_record_internal(struct d3d12_device *device, void (*record)(VkCommandBuffer command_buffer, void *context),
        void *context, const char *what, const char *method)
{
    VkCommandPoolCreateInfo pool_info = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
            .queueFamilyIndex = d3d12_scheduler_internal_family(device)};
    VkCommandBufferAllocateInfo allocate_info = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
            .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1};
    VkCommandBufferBeginInfo begin_info = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
            .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    VkCommandBuffer command_buffer;
    VkCommandPool *pool;
    VkResult vr;
    HRESULT hr;

    if (!(pool = calloc(1, sizeof(*pool))))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the command pool of %s", what);
    if ((vr = vkCreateCommandPool(device->vk_device, &pool_info, NULL, pool)) != VK_SUCCESS) {
        free(pool);
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "vkCreateCommandPool for %s failed (VkResult %d)", what, vr);
    }
    allocate_info.commandPool = *pool;
    if ((vr = vkAllocateCommandBuffers(device->vk_device, &allocate_info, &command_buffer)) != VK_SUCCESS
            || (vr = vkBeginCommandBuffer(command_buffer, &begin_info)) != VK_SUCCESS) {
        destroy_pool(device, pool);
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "recording %s failed (VkResult %d)", what, vr);
    }
    record(command_buffer, context);
    if ((vr = vkEndCommandBuffer(command_buffer)) != VK_SUCCESS) {
        destroy_pool(device, pool);
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "recording %s failed (VkResult %d)", what, vr);
    }
    hr = d3d12_scheduler_run_internal(device, command_buffer, method);
    d3d12_scheduler_retire(device, destroy_pool, pool);
    /* New work for the waiter to watch, as a queue's would be: without it a sleeping waiter
     * would leave this work, and every object retired behind it, until other work woke it. */
    d3d12_waiter_kick(device, false);
    return hr;
}

/* Slices of the CPU wait for internal work: between them the wait looks whether the watchdog
 * declared the device removed (its timeout is the one that applies, not a second one here). */
#define INTERNAL_WAIT_SLICE_NS 50000000ull

HRESULT d3d12_scheduler_finish_internal(struct d3d12_device *device, const char *what, const char *method)
{
    struct d3d12_scheduler *scheduler = d3d12_scheduler_of(device);
    struct d3d12_engine *engine;
    uint64_t serial;
    HRESULT hr;

    pthread_mutex_lock(&scheduler->lock);
    engine = scheduler->internal;
    serial = scheduler->internal_serial;
    pthread_mutex_unlock(&scheduler->lock);
    while (!d3d12_engine_serial_done_soon(engine, serial, INTERNAL_WAIT_SLICE_NS))
        if (FAILED(hr = d3d12_device_removed_reason(device)))
            return d3d12xs_fail(hr, method, "the device was removed before %s finished", what);
    return d3d12_device_removed_reason(device);
}
