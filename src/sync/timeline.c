/* Timelines: the scheduler's side of a fence (a Vulkan timeline semaphore and the map of its
 * virtual values to D3D12 values, fence_values.c); their creation, names and references. CPU
 * signals are in scheduler.c and fence_values.c; queue signals are operations (scheduler.c). */
#include <stdio.h>
#include <stdlib.h>

#include "sync/fence_values.h"
#include "sync/scheduler_state.h"

HRESULT d3d12_timeline_create(struct d3d12_device *device, uint64_t initial_value, struct d3d12_timeline **out)
{
    VkSemaphoreTypeCreateInfo type_info = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
        .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
        .initialValue = 0, /* virtual 0 stands for initial_value (fence_values.c) */
    };
    VkSemaphoreCreateInfo create_info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type_info};
    struct d3d12_timeline *timeline;
    VkResult vr;

    if (!(timeline = calloc(1, sizeof(*timeline))))
        return E_OUTOFMEMORY;
    if ((vr = vkCreateSemaphore(device->vk_device, &create_info, NULL, &timeline->semaphore)) != VK_SUCCESS) {
        free(timeline);
        return d3d12xs_hresult_from_vk(device, vr);
    }
    timeline->refcount = 1;
    d3d12_fence_values_init(timeline, initial_value);
    snprintf(timeline->name, sizeof(timeline->name), "unnamed");
    *out = timeline;
    return S_OK;
}

void d3d12_timeline_set_name(struct d3d12_device *device, struct d3d12_timeline *timeline, const char *name)
{
    struct d3d12_scheduler *scheduler = d3d12_scheduler_of(device);
    pthread_mutex_lock(&scheduler->lock);
    snprintf(timeline->name, sizeof(timeline->name), "%s", name);
    pthread_mutex_unlock(&scheduler->lock);
}

static void destroy_timeline(struct d3d12_device *device, void *object)
{
    struct d3d12_timeline *timeline = object;
    d3d12_bury_semaphore(device, timeline->semaphore);
    d3d12_fence_values_cleanup(timeline);
    free(timeline);
}

void d3d12_timeline_add_ref(struct d3d12_device *device, struct d3d12_timeline *timeline)
{
    struct d3d12_scheduler *scheduler = d3d12_scheduler_of(device);
    pthread_mutex_lock(&scheduler->lock);
    timeline->refcount++;
    pthread_mutex_unlock(&scheduler->lock);
}

void d3d12_timeline_release_locked(struct d3d12_device *device, struct d3d12_timeline *timeline)
{
    if (!--timeline->refcount)
        d3d12_retire_locked(d3d12_scheduler_of(device), device, destroy_timeline, timeline);
}

void d3d12_timeline_release(struct d3d12_device *device, struct d3d12_timeline *timeline)
{
    struct d3d12_scheduler *scheduler = d3d12_scheduler_of(device);
    pthread_mutex_lock(&scheduler->lock);
    d3d12_timeline_release_locked(device, timeline);
    pthread_mutex_unlock(&scheduler->lock);
}
