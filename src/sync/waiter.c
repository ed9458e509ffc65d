/* The waiter thread (see waiter.h). It sleeps in vkWaitSemaphores over the fences that events
 * wait for plus a host-signalled wake semaphore, in slices: 50 ms while anything is watched,
 * 50 us while a memory wait is held (memory has nothing to wait on but polling). After each
 * slice it lets the scheduler poll, and applies the one hang-timeout policy: a registration,
 * a held operation or submitted work that made no progress for the hang timeout marks the
 * device hung, which ends every wait. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <time.h>

#include "sync/event.h"
#include "trace/trace.h"
#include "sync/fence_values.h"
#include "sync/waiter.h"

struct registration {
    struct d3d12_timeline *timeline; /* holds a reference; only this thread drops it (but see host_wait) */
    uint64_t value;
    struct d3d12xs_event *event;     /* holds a reference; NULL for a host wait */
    struct d3d12_fence_watch *watch; /* event registrations: linked into the timeline (fence_values.h) */
    uint64_t wait_virtual;           /* the semaphore value to wake at, from the last look */
    uint64_t since_ns;
    const char *method;
    /* A host wait: its own thread waits on the semaphore and removes the registration;
     * this thread only applies the hang timeout to it. */
    const void *host_wait;
};

struct d3d12_waiter {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool stop;
    bool sleeping;              /* in pthread_cond_wait: nothing watched */
    bool kicked;                /* work arrived since the last poll began */
    bool in_wait;               /* in vkWaitSemaphores */
    bool in_long_wait;          /* ...for a whole watch slice: memory waits are not being polled */
    bool recheck;               /* a CPU Signal set a value without moving its semaphore */
    VkSemaphore wake_semaphore;
    uint64_t wake_value;
    struct registration *registrations;
    size_t registration_count, registration_capacity;
};

#define WATCH_SLICE_NS (50ull * 1000 * 1000)
#define MEMORY_POLL_NS (50ull * 1000)
#define MEMORY_SPIN_NS (200ull * 1000)
/* While memory or parked waits keep it polling every 50 us, the full poll (hang detection,
 * retirement, the graveyard) runs at most this often; between, only held waits are flushed.
 * Full polls at every 50 us took the scheduler lock and the driver's semaphore queries beside
 * the application's submissions in a cross-queue ping-pong. */
#define FULL_POLL_NS (1000ull * 1000)
/* A host wait on a fence with queue signals pending looks again this often: a CPU Signal cannot
 * move the semaphore then (fence_values.c), and may still meet the wait at once. */
#define PENDING_SLICE_NS (1000ull * 1000)

static void wake_locked(struct d3d12_device *device, struct d3d12_waiter *waiter)
{
    if (waiter->in_wait) {
        VkSemaphoreSignalInfo signal_info = {
            .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
            .semaphore = waiter->wake_semaphore,
            .value = ++waiter->wake_value,
        };
        vkSignalSemaphore(device->vk_device, &signal_info);
    }
    pthread_cond_signal(&waiter->cond);
}

/* Sets the events of registrations that are done; all of them once the device is removed. */
static void fire_locked(struct d3d12_device *device, struct d3d12_waiter *waiter, bool all)
{
    size_t kept = 0;
    for (size_t i = 0; i < waiter->registration_count; i++) {
        struct registration *registration = &waiter->registrations[i];
        if (registration->host_wait) {
            waiter->registrations[kept++] = *registration;
            continue;
        }
        /* A forwarder that has set its event already (SetEventOnMultipleFenceCompletion's ANY)
         * needs no more: the registration goes, so it does not count as a hang. */
        if (d3d12xs_event_spent(registration->event)) {
            d3d12xs_event_release(registration->event, false);
            d3d12_fence_watch_remove(registration->timeline, registration->watch);
            free(registration->watch);
            d3d12_timeline_release(device, registration->timeline);
            continue;
        }
        bool pending;
        bool reached = d3d12_fence_watch_done(device, registration->timeline, registration->watch, &registration->wait_virtual, &pending)
                || all;
        /* Destroying a fence sets the events waiting for values nothing can signal any more,
         * as on Windows (and the registration goes, so it does not count as a hang). */
        bool unreachable = !reached && !d3d12_fence_watch_can_complete(device, registration->timeline, registration->watch);
        if (reached || unreachable) {
            if (unreachable)
                TRACE("%s: fence '%s' was released before reaching %llu and nothing can signal it now: its event is set",
                        registration->method, registration->timeline->name, (unsigned long long)registration->value);
            d3d12xs_event_release(registration->event, true);
            d3d12_fence_watch_remove(registration->timeline, registration->watch);
            free(registration->watch);
            d3d12_timeline_release(device, registration->timeline);
        } else {
            waiter->registrations[kept++] = *registration;
        }
    }
    waiter->registration_count = kept;
}

/* DXGI_ERROR_DEVICE_HUNG, its one line naming why and what every queue did. */
static void mark_hung(struct d3d12_device *device, const char *why)
{
    char line[1536];
    size_t length = (size_t)snprintf(line, sizeof(line), "%s", why);
    if (length < sizeof(line))
        d3d12_scheduler_describe_hang(device, line + length, sizeof(line) - length);
    d3d12_device_mark_removed(device, DXGI_ERROR_DEVICE_HUNG, line);
}

/* A host wait past the hang timeout: why, for the loop to remove the device outside the lock. */
static void check_registration_timeouts_locked(struct d3d12_device *device, struct d3d12_waiter *waiter, uint64_t now, char *hang_why,
        size_t hang_why_size)
{
    uint64_t timeout_ns = (uint64_t)atomic_load(&device->hang_timeout_ms) * 1000000;
    if (!timeout_ns)
        return;
    for (size_t i = 0; i < waiter->registration_count; i++) {
        struct registration *registration = &waiter->registrations[i];
        if (registration->event && d3d12xs_event_spent(registration->event))
            continue; /* goes at the next fire_locked */
        if (now > registration->since_ns && now - registration->since_ns > timeout_ns) {
            snprintf(hang_why, hang_why_size, "%s waited %llu ms for fence '%s' to reach %llu (it is at %llu)", registration->method,
                    (unsigned long long)(timeout_ns / 1000000), registration->timeline->name, (unsigned long long)registration->value,
                    (unsigned long long)d3d12_timeline_completed_value(device, registration->timeline));
            return;
        }
    }
}

static void *waiter_main(void *context)
{
    struct d3d12_device *device = context;
    struct d3d12_waiter *waiter = device->waiter;
    VkSemaphore *semaphores = NULL;
    uint64_t *values = NULL;
    size_t capacity = 0;
    uint64_t last_release_ns = d3d12xs_now_ns(), last_full_poll_ns = 0;
    unsigned memory_waits = 0;
    struct d3d12_scheduler_poll poll = {0};
    char hang_why[256] = "";

    pthread_mutex_lock(&waiter->lock);
    while (!waiter->stop) {
        uint64_t now = d3d12xs_now_ns();

        /* Queue work first: a held wait is usually the cause of a host wait's hang. */
        waiter->kicked = false;
        waiter->recheck = false;
        pthread_mutex_unlock(&waiter->lock);
        /* A host wait that timed out (check_registration_timeouts_locked): the device is
         * removed here, outside the waiter's lock, with what each queue did. */
        if (hang_why[0]) {
            mark_hung(device, hang_why);
            hang_why[0] = 0;
        }
        /* The policy: queue work, held or submitted, that made no progress for the hang
         * timeout marks the device hung, and held work is then dropped (after the line names it). */
        if (!poll.memory_waits_held || now - last_full_poll_ns >= FULL_POLL_NS) {
            d3d12_scheduler_poll(device, now, (uint64_t)atomic_load(&device->hang_timeout_ms) * 1000000, &poll);
            last_full_poll_ns = now;
            if (poll.stall[0]) {
                mark_hung(device, poll.stall);
                d3d12_scheduler_drop_held(device, "the device is removed");
            }
        }
        {
            unsigned held = d3d12_scheduler_flush_memory_waits(device, now, &poll.memory_waits_held);
            if (held < memory_waits || (held && !memory_waits))
                last_release_ns = d3d12xs_now_ns(); /* released, or new: worth a spin */
            if (held < memory_waits && d3d12xs_trace_on()) {
                struct d3d12xs_trace_args args = {.length = 0};
                d3d12xs_trace_arg_u64(&args, "released", memory_waits - held);
                d3d12xs_trace_instant(D3D12XS_TRACE_WAITER_TRACK, "waiter", "memory waits released", last_release_ns, &args);
            }
            memory_waits = held;
        }
        d3d12xs_trace_tick(now);
        pthread_mutex_lock(&waiter->lock);
        if (waiter->stop)
            break;
        /* The same instant as the full poll: work held since before a registration is named first. */
        if (last_full_poll_ns == now && d3d12_device_removed_reason(device) == S_OK)
            check_registration_timeouts_locked(device, waiter, now, hang_why, sizeof(hang_why));
        if (hang_why[0])
            continue; /* removed at once, above, then the events fire */
        fire_locked(device, waiter, d3d12_device_removed_reason(device) != S_OK);

        if (!waiter->registration_count && !poll.busy && !poll.memory_waits_held && !waiter->kicked) {
            waiter->sleeping = true;
            if (d3d12xs_trace_batch_pending()) {
                /* the trace's last events reach the file within 100 ms, even if the program dies */
                struct timespec until;
                clock_gettime(CLOCK_REALTIME, &until);
                until.tv_nsec += 100 * 1000 * 1000;
                until.tv_sec += until.tv_nsec / 1000000000;
                until.tv_nsec %= 1000000000;
                pthread_cond_timedwait(&waiter->cond, &waiter->lock, &until);
            } else {
                pthread_cond_wait(&waiter->cond, &waiter->lock);
            }
            waiter->sleeping = false;
            continue;
        }

        size_t count = 1;
        for (size_t i = 0; i < waiter->registration_count; i++)
            count += !waiter->registrations[i].host_wait;
        if (count > capacity) {
            VkSemaphore *new_semaphores = realloc(semaphores, count * 2 * sizeof(*semaphores));
            uint64_t *new_values = new_semaphores ? realloc(values, count * 2 * sizeof(*values)) : NULL;
            if (new_semaphores)
                semaphores = new_semaphores;
            if (new_values)
                values = new_values;
            if (!new_semaphores || !new_values) {
                ERR("fence waiter: out of memory; events wait for the next slice");
                count = 0;
            } else {
                capacity = count * 2;
            }
        }
        if (count) {
            size_t n = 1;
            semaphores[0] = waiter->wake_semaphore;
            values[0] = waiter->wake_value + 1;
            for (size_t i = 0; i < waiter->registration_count; i++) {
                if (waiter->registrations[i].host_wait)
                    continue;
                semaphores[n] = waiter->registrations[i].timeline->semaphore;
                values[n++] = waiter->registrations[i].wait_virtual;
            }
        }
        if (waiter->recheck)
            continue; /* a value set since the events were looked at: look again first */
        waiter->in_wait = true;
        waiter->in_long_wait = !poll.memory_waits_held;
        pthread_mutex_unlock(&waiter->lock);

        uint64_t slice = poll.memory_waits_held ? MEMORY_POLL_NS : WATCH_SLICE_NS;
        /* A value in memory has nothing to wait on. While waits are being released one after
         * another (a ping-pong between queues), look in a tight loop for a while, since a hop
         * would cost the poll interval otherwise; a wait that stays held gets the slice. */
        if (poll.memory_waits_held && d3d12xs_now_ns() - last_release_ns < MEMORY_SPIN_NS * 5) {
            uint64_t spin_start = d3d12xs_now_ns();
            unsigned held = d3d12_scheduler_flush_memory_waits(device, spin_start, NULL), before = held;
            while (held && held >= before && d3d12xs_now_ns() - spin_start < MEMORY_SPIN_NS) {
                sched_yield();
                held = d3d12_scheduler_flush_memory_waits(device, spin_start, NULL);
            }
            if (held < before)
                last_release_ns = d3d12xs_now_ns();
        }
        if (count) {
            /* One semaphore when only the wake one is watched: lavapipe polls (spins) on waits
             * for any of several, which costs its workers a core. */
            VkSemaphoreWaitInfo wait_info = {
                .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
                .flags = count > 1 ? VK_SEMAPHORE_WAIT_ANY_BIT : 0,
                .semaphoreCount = (uint32_t)count,
                .pSemaphores = semaphores,
                .pValues = values,
            };
            VkResult vr = vkWaitSemaphores(device->vk_device, &wait_info, slice);
            if (vr != VK_SUCCESS && vr != VK_TIMEOUT)
                d3d12xs_hresult_from_vk(device, vr);
        } else {
            struct timespec pause = {0, (long)slice};
            nanosleep(&pause, NULL);
        }

        pthread_mutex_lock(&waiter->lock);
        waiter->in_wait = waiter->in_long_wait = false;
    }
    fire_locked(device, waiter, true);
    pthread_mutex_unlock(&waiter->lock);
    free(semaphores);
    free(values);
    return NULL;
}

HRESULT d3d12_waiter_create(struct d3d12_device *device)
{
    d3d12xs_trace_name_track(D3D12XS_TRACE_WAITER_TRACK, "d3d12xs waiter");
    struct d3d12_waiter *waiter;
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
    device->waiter = waiter;
    if (pthread_create(&waiter->thread, NULL, waiter_main, device)) {
        vkDestroySemaphore(device->vk_device, waiter->wake_semaphore, NULL);
        pthread_cond_destroy(&waiter->cond);
        pthread_mutex_destroy(&waiter->lock);
        free(waiter);
        device->waiter = NULL;
        return d3d12xs_fail(E_FAIL, "D3D12CreateDevice", "cannot start the fence waiter thread");
    }
    return S_OK;
}

void d3d12_waiter_destroy(struct d3d12_device *device)
{
    struct d3d12_waiter *waiter = device->waiter;
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
    free(waiter);
    device->waiter = NULL;
}

HRESULT d3d12_waiter_add(struct d3d12_device *device, struct d3d12_timeline *timeline, uint64_t value,
        struct d3d12xs_event *event, const char *method)
{
    struct d3d12_waiter *waiter = device->waiter;
    struct d3d12_fence_watch *watch;

    if (!(watch = malloc(sizeof(*watch)))) {
        d3d12xs_event_release(event, false);
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot record the event");
    }
    pthread_mutex_lock(&waiter->lock);
    if (!d3d12xs_array_reserve((void **)&waiter->registrations, &waiter->registration_capacity,
            waiter->registration_count + 1, sizeof(*waiter->registrations))) {
        pthread_mutex_unlock(&waiter->lock);
        free(watch);
        d3d12xs_event_release(event, false);
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot record the event");
    }
    /* From here every signal can meet it; reached meanwhile (or the device removed): set now. */
    if (d3d12_fence_watch_add(device, timeline, watch, value)) {
        pthread_mutex_unlock(&waiter->lock);
        free(watch);
        d3d12xs_event_release(event, true);
        return S_OK;
    }
    d3d12_timeline_add_ref(device, timeline);
    waiter->registrations[waiter->registration_count++]
            = (struct registration){timeline, value, event, watch, 0, d3d12xs_now_ns(), method, NULL};
    wake_locked(device, waiter);
    pthread_mutex_unlock(&waiter->lock);
    return S_OK;
}

HRESULT d3d12_waiter_wait(struct d3d12_device *device, struct d3d12_timeline *timeline, uint64_t value, const char *method)
{
    struct d3d12_waiter *waiter = device->waiter;
    struct d3d12_fence_watch watch;
    uint64_t wait_virtual = 0;
    VkSemaphoreWaitInfo wait_info = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
        .semaphoreCount = 1,
        .pSemaphores = &timeline->semaphore,
        .pValues = &wait_virtual,
    };
    char identity;
    bool pending;
    VkResult vr;

    if (d3d12_timeline_completed_value(device, timeline) >= value)
        return d3d12_device_removed_reason(device);
    /* The caller waits on the one semaphore itself (lavapipe spins on waits for any of
     * several); the registration puts the wait under the waiter thread's hang timeout. */
    pthread_mutex_lock(&waiter->lock);
    if (!d3d12xs_array_reserve((void **)&waiter->registrations, &waiter->registration_capacity,
            waiter->registration_count + 1, sizeof(*waiter->registrations))) {
        pthread_mutex_unlock(&waiter->lock);
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot record the wait");
    }
    if (d3d12_fence_watch_add(device, timeline, &watch, value)) {
        pthread_mutex_unlock(&waiter->lock);
        return d3d12_device_removed_reason(device);
    }
    d3d12_timeline_add_ref(device, timeline);
    waiter->registrations[waiter->registration_count++]
            = (struct registration){timeline, value, NULL, NULL, 0, d3d12xs_now_ns(), method, &identity};
    wake_locked(device, waiter);
    pthread_mutex_unlock(&waiter->lock);

    /* Each wake (its signal landed, or the next signal, which may resolve it) looks again. Ends
     * too when the fence is released with the value out of reach, as on Windows. */
    while (!d3d12_fence_watch_done(device, timeline, &watch, &wait_virtual, &pending) && d3d12_device_removed_reason(device) == S_OK
            && d3d12_fence_watch_can_complete(device, timeline, &watch)) {
        vr = vkWaitSemaphores(device->vk_device, &wait_info, pending ? PENDING_SLICE_NS : WATCH_SLICE_NS);
        if (vr != VK_SUCCESS && vr != VK_TIMEOUT) {
            d3d12xs_hresult_from_vk(device, vr);
            break;
        }
    }
    d3d12_fence_watch_remove(timeline, &watch);

    pthread_mutex_lock(&waiter->lock);
    for (size_t i = 0; i < waiter->registration_count; i++) {
        if (waiter->registrations[i].host_wait == &identity) {
            waiter->registrations[i] = waiter->registrations[--waiter->registration_count];
            break;
        }
    }
    pthread_mutex_unlock(&waiter->lock);
    d3d12_timeline_release(device, timeline);
    return d3d12_device_removed_reason(device);
}

void d3d12_waiter_recheck(struct d3d12_device *device)
{
    struct d3d12_waiter *waiter = device->waiter;
    if (!waiter)
        return;
    pthread_mutex_lock(&waiter->lock);
    waiter->recheck = waiter->kicked = true;
    wake_locked(device, waiter);
    pthread_mutex_unlock(&waiter->lock);
}

void d3d12_waiter_kick(struct d3d12_device *device, bool memory_wait)
{
    struct d3d12_waiter *waiter = device->waiter;
    if (!waiter)
        return;
    pthread_mutex_lock(&waiter->lock);
    waiter->kicked = true;
    if (waiter->sleeping)
        pthread_cond_signal(&waiter->cond);
    else if (memory_wait && waiter->in_long_wait)
        wake_locked(device, waiter);
    pthread_mutex_unlock(&waiter->lock);
}
