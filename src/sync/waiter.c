/* One thread per device that sets events when fences reach their values
 * (SetEventOnCompletion with an event) and watches for GPU work that stops making progress:
 * past the hang timeout the device reports itself hung instead of waiting forever. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <time.h>

#include "sync/scheduler.h"

struct fence_registration {
    struct d3d12_fence *fence; /* a dying fence removes its registrations first */
    uint64_t value;
    HANDLE event;
    uint64_t since_ns;
};

struct d3d12_fence_waiter {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool stop;
    bool gpu_busy; /* some queue has unfinished work: keep the watchdog running */
    VkSemaphore wake_semaphore; /* signalled from the host to interrupt vkWaitSemaphores */
    uint64_t wake_value;
    struct fence_registration *registrations;
    size_t registration_count, registration_capacity;
    /* Semaphores of fences released while the thread may be waiting on them:
     * destroyed by the thread once its wait returns. */
    bool in_wait;
    VkSemaphore *retired;
    size_t retired_count, retired_capacity;
};

#define WATCH_SLICE_NS (50ull * 1000 * 1000)

static void wake_locked(struct d3d12_device *device, struct d3d12_fence_waiter *waiter)
{
    VkSemaphoreSignalInfo signal_info = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
        .semaphore = waiter->wake_semaphore,
        .value = ++waiter->wake_value,
    };
    vkSignalSemaphore(device->vk_device, &signal_info);
    pthread_cond_signal(&waiter->cond);
}

/* Sets the events of reached registrations (all of them once the device is removed). */
static void fire_reached_locked(struct d3d12_device *device, struct d3d12_fence_waiter *waiter, bool all)
{
    size_t kept = 0;
    for (size_t i = 0; i < waiter->registration_count; i++) {
        struct fence_registration *registration = &waiter->registrations[i];
        if (all || d3d12_fence_completed_value(registration->fence) >= registration->value) {
            d3d12xs_event_release(registration->event, true);
        } else {
            waiter->registrations[kept++] = *registration;
        }
    }
    waiter->registration_count = kept;
    (void)device;
}

/* Returns true while some queue still has GPU work in flight. */
static bool watch_queues(struct d3d12_device *device, uint64_t now, uint64_t timeout_ns)
{
    bool busy = false;
    char why[256] = "";

    pthread_mutex_lock(&device->submit_lock);
    for (size_t i = 0; i < device->queue_count; i++) {
        struct d3d12_command_queue *queue = device->queues[i];
        uint64_t completed = d3d12_command_queue_completed_serial(queue);
        if (completed >= queue->submitted_serial) {
            queue->watch_since_ns = 0;
            continue;
        }
        busy = true;
        if (!queue->watch_since_ns || completed != queue->watch_completed) {
            queue->watch_completed = completed;
            queue->watch_since_ns = now;
        } else if (timeout_ns && now - queue->watch_since_ns > timeout_ns && !*why) {
            snprintf(why, sizeof(why), "queue '%s' made no progress for %llu ms", d3d12xs_object_name(&queue->object),
                    (unsigned long long)(timeout_ns / 1000000));
        }
    }
    pthread_mutex_unlock(&device->submit_lock);
    if (*why)
        d3d12_device_mark_removed(device, DXGI_ERROR_DEVICE_HUNG, why);
    return busy;
}

static void *fence_waiter_main(void *context)
{
    struct d3d12_device *device = context;
    struct d3d12_fence_waiter *waiter = device->fence_waiter;
    VkSemaphore *semaphores = NULL;
    uint64_t *values = NULL;
    size_t capacity = 0;

    pthread_mutex_lock(&waiter->lock);
    while (!waiter->stop) {
        uint64_t now = d3d12xs_now_ns();
        uint64_t timeout_ns = (uint64_t)atomic_load(&device->hang_timeout_ms) * 1000000;
        bool removed = d3d12_device_removed_reason(device) != S_OK;

        fire_reached_locked(device, waiter, removed);
        if (!removed && timeout_ns) {
            for (size_t i = 0; i < waiter->registration_count; i++) {
                if (now - waiter->registrations[i].since_ns > timeout_ns) {
                    char why[256];
                    snprintf(why, sizeof(why), "an event waited %llu ms for fence '%s' to reach %llu",
                            (unsigned long long)(timeout_ns / 1000000), d3d12xs_object_name(&waiter->registrations[i].fence->object),
                            (unsigned long long)waiter->registrations[i].value);
                    d3d12_device_mark_removed(device, DXGI_ERROR_DEVICE_HUNG, why);
                    fire_reached_locked(device, waiter, true);
                    break;
                }
            }
        }
        if (!waiter->registration_count && !waiter->gpu_busy) {
            pthread_cond_wait(&waiter->cond, &waiter->lock);
            continue;
        }

        size_t count = waiter->registration_count + 1;
        if (count > capacity) {
            free(semaphores);
            free(values);
            capacity = count * 2;
            semaphores = malloc(capacity * sizeof(*semaphores));
            values = malloc(capacity * sizeof(*values));
            if (!semaphores || !values) {
                ERR("fence waiter: out of memory; events will not be set");
                capacity = 0;
                pthread_cond_wait(&waiter->cond, &waiter->lock);
                continue;
            }
        }
        semaphores[0] = waiter->wake_semaphore;
        values[0] = waiter->wake_value + 1;
        for (size_t i = 0; i < waiter->registration_count; i++) {
            semaphores[i + 1] = waiter->registrations[i].fence->vk_semaphore;
            values[i + 1] = waiter->registrations[i].value;
        }
        waiter->in_wait = true;
        pthread_mutex_unlock(&waiter->lock);

        VkSemaphoreWaitInfo wait_info = {
            .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
            .flags = VK_SEMAPHORE_WAIT_ANY_BIT,
            .semaphoreCount = (uint32_t)count,
            .pSemaphores = semaphores,
            .pValues = values,
        };
        VkResult vr = vkWaitSemaphores(device->vk_device, &wait_info, WATCH_SLICE_NS);
        if (vr != VK_SUCCESS && vr != VK_TIMEOUT)
            d3d12xs_hresult_from_vk(device, vr);
        bool busy = watch_queues(device, d3d12xs_now_ns(), timeout_ns);

        pthread_mutex_lock(&waiter->lock);
        waiter->gpu_busy = busy;
        waiter->in_wait = false;
        for (size_t i = 0; i < waiter->retired_count; i++)
            vkDestroySemaphore(device->vk_device, waiter->retired[i], NULL);
        waiter->retired_count = 0;
    }
    fire_reached_locked(device, waiter, true);
    pthread_mutex_unlock(&waiter->lock);
    free(semaphores);
    free(values);
    return NULL;
}

HRESULT d3d12_fence_waiter_create(struct d3d12_device *device)
{
    struct d3d12_fence_waiter *waiter;
    VkSemaphoreTypeCreateInfo type_info = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
        .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
    };
    VkSemaphoreCreateInfo create_info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type_info};
    VkResult vr;

    if (!(waiter = calloc(1, sizeof(*waiter))))
        return d3d12xs_fail(E_OUTOFMEMORY, "D3D12CreateDevice", "cannot allocate the fence waiter");
    pthread_mutex_init(&waiter->lock, NULL);
    pthread_cond_init(&waiter->cond, NULL);
    if ((vr = vkCreateSemaphore(device->vk_device, &create_info, NULL, &waiter->wake_semaphore)) != VK_SUCCESS) {
        pthread_cond_destroy(&waiter->cond);
        pthread_mutex_destroy(&waiter->lock);
        free(waiter);
        return d3d12xs_fail(E_FAIL, "D3D12CreateDevice", "vkCreateSemaphore for the fence waiter failed (VkResult %d)", vr);
    }
    device->fence_waiter = waiter;
    if (pthread_create(&waiter->thread, NULL, fence_waiter_main, device)) {
        vkDestroySemaphore(device->vk_device, waiter->wake_semaphore, NULL);
        pthread_cond_destroy(&waiter->cond);
        pthread_mutex_destroy(&waiter->lock);
        free(waiter);
        device->fence_waiter = NULL;
        return d3d12xs_fail(E_FAIL, "D3D12CreateDevice", "cannot start the fence waiter thread");
    }
    return S_OK;
}

void d3d12_fence_waiter_destroy(struct d3d12_device *device)
{
    struct d3d12_fence_waiter *waiter = device->fence_waiter;
    if (!waiter)
        return;
    pthread_mutex_lock(&waiter->lock);
    waiter->stop = true;
    wake_locked(device, waiter);
    pthread_mutex_unlock(&waiter->lock);
    pthread_join(waiter->thread, NULL);
    vkDestroySemaphore(device->vk_device, waiter->wake_semaphore, NULL);
    pthread_cond_destroy(&waiter->cond);
    pthread_mutex_destroy(&waiter->lock);
    free(waiter->registrations);
    free(waiter->retired);
    free(waiter);
    device->fence_waiter = NULL;
}

HRESULT d3d12_fence_waiter_add(struct d3d12_device *device, struct d3d12_fence *fence, uint64_t value, HANDLE event)
{
    struct d3d12_fence_waiter *waiter = device->fence_waiter;

    pthread_mutex_lock(&waiter->lock);
    if (!d3d12xs_array_reserve((void **)&waiter->registrations, &waiter->registration_capacity,
            waiter->registration_count + 1, sizeof(*waiter->registrations))) {
        pthread_mutex_unlock(&waiter->lock);
        return d3d12xs_fail(E_OUTOFMEMORY, "ID3D12Fence::SetEventOnCompletion", "cannot record the event");
    }
    d3d12xs_event_add_ref(event);
    waiter->registrations[waiter->registration_count++] = (struct fence_registration){fence, value, event, d3d12xs_now_ns()};
    wake_locked(device, waiter);
    pthread_mutex_unlock(&waiter->lock);
    return S_OK;
}

void d3d12_fence_waiter_kick(struct d3d12_device *device)
{
    struct d3d12_fence_waiter *waiter = device->fence_waiter;
    if (!waiter)
        return;
    pthread_mutex_lock(&waiter->lock);
    waiter->gpu_busy = true;
    wake_locked(device, waiter);
    pthread_mutex_unlock(&waiter->lock);
}

void d3d12_fence_waiter_retire_fence(struct d3d12_device *device, struct d3d12_fence *fence)
{
    struct d3d12_fence_waiter *waiter = device->fence_waiter;
    size_t kept = 0;

    pthread_mutex_lock(&waiter->lock);
    for (size_t i = 0; i < waiter->registration_count; i++) {
        if (waiter->registrations[i].fence != fence)
            waiter->registrations[kept++] = waiter->registrations[i];
        else
            d3d12xs_event_release(waiter->registrations[i].event, false);
    }
    waiter->registration_count = kept;
    if (waiter->in_wait && d3d12xs_array_reserve((void **)&waiter->retired, &waiter->retired_capacity,
            waiter->retired_count + 1, sizeof(*waiter->retired))) {
        waiter->retired[waiter->retired_count++] = fence->vk_semaphore;
        wake_locked(device, waiter);
    } else {
        if (waiter->in_wait) {
            /* Out of memory for the list: wait for the thread to leave vkWaitSemaphores. */
            wake_locked(device, waiter);
            while (waiter->in_wait) {
                pthread_mutex_unlock(&waiter->lock);
                sched_yield();
                pthread_mutex_lock(&waiter->lock);
            }
        }
        vkDestroySemaphore(device->vk_device, fence->vk_semaphore, NULL);
    }
    fence->vk_semaphore = VK_NULL_HANDLE;
    pthread_mutex_unlock(&waiter->lock);
}
