/* Fence values over a monotonic Vulkan timeline (fence_values.h): the virtual-value map of each
 * timeline, the CPU Signal, and how queue waits and host watches are resolved against it.
 * values_lock is the last lock taken anywhere (after the scheduler's and the waiter's); nothing
 * under it blocks (vkGetSemaphoreCounterValue, vkSignalSemaphore only). */
#include <stdlib.h>
#include <string.h>

#include "sync/fence_values.h"
#include "sync/scheduler_state.h"

void d3d12_fence_values_init(struct d3d12_timeline *timeline, uint64_t initial_value)
{
    pthread_mutex_init(&timeline->values_lock, NULL);
    /* The semaphore starts at 0, which stands for the initial value. */
    timeline->virtual_next = timeline->completed_virtual = 0;
    timeline->completed_value = initial_value;
}

void d3d12_fence_values_cleanup(struct d3d12_timeline *timeline)
{
    free(timeline->signals);
    timeline->signals = NULL;
    pthread_mutex_destroy(&timeline->values_lock);
}

#define TRIM_EVERY 32

static struct d3d12_fence_signal *signal_at(struct d3d12_timeline *timeline, size_t i)
{
    return &timeline->signals[(timeline->signal_first + i) % timeline->signal_capacity];
}

/* Moves completed_value past the pending signals the semaphore shows done. False when the
 * semaphore cannot be read (the device is lost). */
static bool update_values(struct d3d12_device *device, struct d3d12_timeline *timeline)
{
    uint64_t counter;
    VkResult vr;

    if (!timeline->signal_count)
        return true; /* nothing pending: the semaphore can tell nothing new */
    if ((vr = vkGetSemaphoreCounterValue(device->vk_device, timeline->semaphore, &counter)) != VK_SUCCESS) {
        d3d12xs_hresult_from_vk(device, vr);
        return false;
    }
    while (timeline->signal_count && signal_at(timeline, 0)->virtual_value <= counter) {
        const struct d3d12_fence_signal *signal = signal_at(timeline, 0);
        timeline->completed_value = signal->value;
        timeline->completed_virtual = signal->virtual_value;
        timeline->signal_first = (timeline->signal_first + 1) % timeline->signal_capacity;
        timeline->signal_count--;
    }
    return true;
}

uint64_t d3d12_timeline_completed_value(struct d3d12_device *device, struct d3d12_timeline *timeline)
{
    uint64_t value;
    bool ok;

    /* A removed device completes every fence, as D3D12 does, so that waits end. */
    if (d3d12_device_removed_reason(device) != S_OK)
        return UINT64_MAX;
    pthread_mutex_lock(&timeline->values_lock);
    ok = update_values(device, timeline);
    value = timeline->completed_value;
    pthread_mutex_unlock(&timeline->values_lock);
    return ok ? value : UINT64_MAX;
}

bool d3d12_fence_values_reserve_locked(struct d3d12_timeline *timeline)
{
    struct d3d12_fence_signal *signals;
    size_t capacity;
    bool ok = true;

    pthread_mutex_lock(&timeline->values_lock);
    if (timeline->signal_count == timeline->signal_capacity) {
        capacity = timeline->signal_capacity ? timeline->signal_capacity * 2 : 8;
        if ((signals = malloc(capacity * sizeof(*signals)))) {
            /* Unrolled into order, so the ring starts at 0 again. */
            for (size_t i = 0; i < timeline->signal_count; i++)
                signals[i] = *signal_at(timeline, i);
            free(timeline->signals);
            timeline->signals = signals;
            timeline->signal_capacity = capacity;
            timeline->signal_first = 0;
        } else {
            ok = false;
        }
    }
    pthread_mutex_unlock(&timeline->values_lock);
    return ok;
}

uint64_t d3d12_fence_values_add_signal_locked(struct d3d12_device *device, struct d3d12_timeline *timeline, uint64_t value)
{
    uint64_t virtual_value;

    pthread_mutex_lock(&timeline->values_lock);
    /* Waits resolve without reading the semaphore, so nothing else may trim the pending list
     * for a long time: every TRIM_EVERY signals it is read here (a driver call per that many). */
    if (timeline->signal_count && !(timeline->signal_count % TRIM_EVERY))
        update_values(device, timeline);
    virtual_value = ++timeline->virtual_next;
    timeline->signal_count++;
    *signal_at(timeline, timeline->signal_count - 1) = (struct d3d12_fence_signal){virtual_value, value};
    /* Host watches added before it wait for this signal if it is their first of enough value. */
    for (struct d3d12_fence_watch *watch = timeline->watches; watch; watch = watch->next) {
        if (!watch->resolved && !watch->met && value >= watch->value) {
            watch->resolved = true;
            watch->target = virtual_value;
        }
    }
    pthread_mutex_unlock(&timeline->values_lock);
    return virtual_value;
}

uint64_t d3d12_fence_values_last_virtual_locked(const struct d3d12_timeline *timeline)
{
    return timeline->virtual_next;
}

HRESULT d3d12_fence_values_signal_on_host_locked(struct d3d12_device *device, struct d3d12_timeline *timeline, uint64_t value,
        bool *waiters_must_look, const char *method)
{
    HRESULT hr;
    VkResult vr;

    *waiters_must_look = false;
    pthread_mutex_lock(&timeline->values_lock);
    if (!update_values(device, timeline)) {
        pthread_mutex_unlock(&timeline->values_lock);
        hr = d3d12_device_removed_reason(device);
        return d3d12xs_fail(FAILED(hr) ? hr : DXGI_ERROR_DEVICE_REMOVED, method, "the fence's semaphore cannot be read (device lost)");
    }
    if (value == timeline->completed_value) {
        pthread_mutex_unlock(&timeline->values_lock);
        return S_OK; /* the value is already set: nothing changes for anyone */
    }
    /* With queue signals pending, Vulkan forbids a host signal above them (and they are above
     * every value it could take): the value is set here only, ordered before them, as on Windows,
     * where a pending queue signal sets its own value later when it executes. */
    if (!timeline->signal_count) {
        VkSemaphoreSignalInfo signal_info = {
            .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
            .semaphore = timeline->semaphore,
            .value = timeline->virtual_next + 1,
        };
        if ((vr = vkSignalSemaphore(device->vk_device, &signal_info)) != VK_SUCCESS) {
            pthread_mutex_unlock(&timeline->values_lock);
            return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "vkSignalSemaphore failed (VkResult %d)", vr);
        }
        timeline->completed_virtual = ++timeline->virtual_next;
    } else {
        *waiters_must_look = true; /* nothing waiting on the semaphore wakes by itself */
    }
    timeline->completed_value = value;
    /* It completes at once: every watch for at most value is met, even one that waits for a
     * pending queue signal (Windows sets the event now). */
    for (struct d3d12_fence_watch *watch = timeline->watches; watch; watch = watch->next)
        if (value >= watch->value)
            watch->met = true;
    pthread_mutex_unlock(&timeline->values_lock);
    return S_OK;
}

/* Whether a queue signal still held (not handed to Vulkan) would bring the timeline to value. */
static bool held_signal_reaches_locked(struct d3d12_scheduler *scheduler, const struct d3d12_timeline *timeline, uint64_t value)
{
    for (size_t e = 0; e < scheduler->engine_count; e++) {
        const struct d3d12_engine *engine = scheduler->engines[e];
        for (size_t i = 0; i < engine->held_count; i++) {
            const struct d3d12_op *op = &engine->held[i];
            if (op->kind == D3D12_OP_SIGNAL && op->u.signal.timeline == timeline && op->u.signal.value >= value)
                return true;
        }
    }
    return false;
}

/* Whether what has completed must be read from the semaphore to resolve a wait for value: only
 * when a pending signal below value follows the completed value at or above it, or follows the
 * first pending signal that reaches it (then whether that one ran before the lower one matters). */
static bool needs_counter_locked(struct d3d12_timeline *timeline, uint64_t value)
{
    bool reached = timeline->completed_value >= value;
    for (size_t i = 0; i < timeline->signal_count; i++) {
        if (signal_at(timeline, i)->value >= value)
            reached = true;
        else if (reached)
            return true;
    }
    return false;
}

bool d3d12_fence_values_resolve_wait_locked(struct d3d12_device *device, struct d3d12_timeline *timeline, uint64_t value,
        uint64_t *wait_virtual)
{
    bool resolved = false;

    *wait_virtual = 0;
    if (timeline->cpu_signal_flush && timeline->cpu_signal_value >= value)
        return true; /* met by the CPU Signal being made */
    pthread_mutex_lock(&timeline->values_lock);
    /* Reading the semaphore is a driver call (on the H200 a few us, three per cross-queue hop
     * before this): it is needed only where a pending signal lowers the value below the wait's,
     * after one that reaches it or below what has completed. Otherwise the pending signals
     * alone say when the wait is met: the first one of enough value, or none yet. */
    if (!needs_counter_locked(timeline, value)) {
        if (timeline->completed_value >= value) {
            resolved = true;
        } else {
            for (size_t i = 0; i < timeline->signal_count && !resolved; i++) {
                if (signal_at(timeline, i)->value >= value) {
                    *wait_virtual = signal_at(timeline, i)->virtual_value;
                    resolved = true;
                }
            }
        }
    } else if (!update_values(device, timeline) || timeline->completed_value >= value) {
        resolved = true; /* reached (or the device is lost: nothing to wait for) */
    } else {
        /* Pending signals execute after this point: the first of enough value meets the wait. */
        for (size_t i = 0; i < timeline->signal_count && !resolved; i++) {
            if (signal_at(timeline, i)->value >= value) {
                *wait_virtual = signal_at(timeline, i)->virtual_value;
                resolved = true;
            }
        }
    }
    pthread_mutex_unlock(&timeline->values_lock);
    /* As on Windows, destroying a fence lets go the waits for values nothing enqueued reaches. */
    if (!resolved && timeline->orphaned && !held_signal_reaches_locked(d3d12_scheduler_of(device), timeline, value))
        resolved = true;
    return resolved;
}

bool d3d12_fence_watch_add(struct d3d12_device *device, struct d3d12_timeline *timeline, struct d3d12_fence_watch *watch, uint64_t value)
{
    bool reached;

    memset(watch, 0, sizeof(*watch));
    watch->value = value;
    pthread_mutex_lock(&timeline->values_lock);
    reached = !update_values(device, timeline) || timeline->completed_value >= value;
    for (size_t i = 0; i < timeline->signal_count && !reached && !watch->resolved; i++) {
        if (signal_at(timeline, i)->value >= value) {
            watch->resolved = true;
            watch->target = signal_at(timeline, i)->virtual_value;
        }
    }
    if (!reached) {
        watch->next = timeline->watches;
        if (timeline->watches)
            timeline->watches->prev = watch;
        timeline->watches = watch;
    }
    pthread_mutex_unlock(&timeline->values_lock);
    return reached;
}

bool d3d12_fence_watch_done(struct d3d12_device *device, struct d3d12_timeline *timeline, struct d3d12_fence_watch *watch,
        uint64_t *wait_virtual, bool *pending)
{
    bool done;

    pthread_mutex_lock(&timeline->values_lock);
    done = !update_values(device, timeline) || watch->met || (watch->resolved && timeline->completed_virtual >= watch->target);
    /* Unresolved: the next signal, whichever, is worth waking for (it may resolve the watch). */
    *wait_virtual = watch->resolved ? watch->target : timeline->virtual_next + 1;
    *pending = timeline->signal_count != 0;
    pthread_mutex_unlock(&timeline->values_lock);
    return done;
}

void d3d12_fence_watch_remove(struct d3d12_timeline *timeline, struct d3d12_fence_watch *watch)
{
    pthread_mutex_lock(&timeline->values_lock);
    if (watch->prev)
        watch->prev->next = watch->next;
    else if (timeline->watches == watch)
        timeline->watches = watch->next;
    if (watch->next)
        watch->next->prev = watch->prev;
    watch->next = watch->prev = NULL;
    pthread_mutex_unlock(&timeline->values_lock);
}

bool d3d12_fence_watch_can_complete(struct d3d12_device *device, struct d3d12_timeline *timeline, const struct d3d12_fence_watch *watch)
{
    struct d3d12_scheduler *scheduler = d3d12_scheduler_of(device);
    bool possible = true;

    pthread_mutex_lock(&scheduler->lock);
    if (timeline->orphaned) {
        /* A resolved watch waits for a signal handed to Vulkan; an unresolved one only for a
         * held signal, since every signal submitted since it was added resolved it or fell short. */
        pthread_mutex_lock(&timeline->values_lock);
        possible = watch->met || watch->resolved;
        pthread_mutex_unlock(&timeline->values_lock);
        possible = possible || held_signal_reaches_locked(scheduler, timeline, watch->value);
    }
    pthread_mutex_unlock(&scheduler->lock);
    return possible;
}
