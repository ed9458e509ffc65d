/* A small portable event (manual or auto reset) standing in for Win32 event HANDLEs,
 * so fence->SetEventOnCompletion(value, event) code compiles and runs unchanged. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sync/event.h"

struct d3d12xs_event {
    atomic_uint refcount; /* the handle's, plus one per pending fence registration */
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool manual_reset;
    bool signaled;
    /* A forwarder (d3d12xs_event_create_forwarder) sets forward, once, at its forward_count-th set. */
    struct d3d12xs_event *forward;
    unsigned forward_count;
};

/* Live handles, sorted by address: a handle is looked up here before it is ever
 * dereferenced, so made-up pointers and closed events are reported, not read. */
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct d3d12xs_event **registry;
static size_t registry_count, registry_capacity;

static size_t registry_position_locked(const void *handle)
{
    size_t low = 0, high = registry_count;
    while (low < high) {
        size_t mid = low + (high - low) / 2;
        if ((uintptr_t)registry[mid] < (uintptr_t)handle)
            low = mid + 1;
        else
            high = mid;
    }
    return low;
}

static bool registry_add(struct d3d12xs_event *event)
{
    size_t position;
    pthread_mutex_lock(&registry_lock);
    if (!d3d12xs_array_reserve((void **)&registry, &registry_capacity, registry_count + 1, sizeof(*registry))) {
        pthread_mutex_unlock(&registry_lock);
        return false;
    }
    position = registry_position_locked(event);
    memmove(registry + position + 1, registry + position, (registry_count - position) * sizeof(*registry));
    registry[position] = event;
    registry_count++;
    pthread_mutex_unlock(&registry_lock);
    return true;
}

/* Removes the handle and returns the event, or NULL when it was not a live handle. */
static struct d3d12xs_event *registry_remove(HANDLE handle)
{
    struct d3d12xs_event *event = NULL;
    size_t position;
    pthread_mutex_lock(&registry_lock);
    position = registry_position_locked(handle);
    if (position < registry_count && registry[position] == handle) {
        event = registry[position];
        memmove(registry + position, registry + position + 1, (registry_count - position - 1) * sizeof(*registry));
        registry_count--;
    }
    pthread_mutex_unlock(&registry_lock);
    return event;
}

static void event_set(struct d3d12xs_event *event)
{
    if (event->forward) {
        bool now;
        pthread_mutex_lock(&event->lock);
        now = event->forward_count && !--event->forward_count;
        pthread_mutex_unlock(&event->lock);
        if (now)
            event_set(event->forward);
        return;
    }
    pthread_mutex_lock(&event->lock);
    event->signaled = true;
    if (event->manual_reset)
        pthread_cond_broadcast(&event->cond);
    else
        pthread_cond_signal(&event->cond);
    pthread_mutex_unlock(&event->lock);
}

struct d3d12xs_event *d3d12xs_event_acquire(HANDLE handle)
{
    struct d3d12xs_event *event = NULL;
    size_t position;
    pthread_mutex_lock(&registry_lock);
    position = registry_position_locked(handle);
    if (position < registry_count && registry[position] == handle) {
        event = registry[position];
        atomic_fetch_add(&event->refcount, 1);
    }
    pthread_mutex_unlock(&registry_lock);
    return event;
}

void d3d12xs_event_release(struct d3d12xs_event *event, bool set)
{
    if (set)
        event_set(event);
    if (atomic_fetch_sub(&event->refcount, 1) == 1) {
        if (event->forward)
            d3d12xs_event_release(event->forward, false);
        pthread_cond_destroy(&event->cond);
        pthread_mutex_destroy(&event->lock);
        free(event);
    }
}

static HANDLE event_create(BOOL manual_reset, BOOL initial_state, struct d3d12xs_event *forward, unsigned forward_count)
{
    struct d3d12xs_event *event;
    pthread_condattr_t attr;

    if (!(event = calloc(1, sizeof(*event)))) {
        ERR("CreateEvent: out of memory");
        return NULL;
    }
    atomic_init(&event->refcount, 1);
    event->manual_reset = manual_reset;
    event->signaled = initial_state;
    if ((event->forward = forward)) {
        atomic_fetch_add(&forward->refcount, 1);
        event->forward_count = forward_count;
    }
    pthread_mutex_init(&event->lock, NULL);
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&event->cond, &attr);
    pthread_condattr_destroy(&attr);
    if (!registry_add(event)) {
        ERR("CreateEvent: out of memory");
        d3d12xs_event_release(event, false);
        return NULL;
    }
    return event;
}

bool d3d12xs_event_spent(struct d3d12xs_event *event)
{
    bool spent;
    if (!event || !event->forward)
        return false;
    pthread_mutex_lock(&event->lock);
    spent = !event->forward_count;
    pthread_mutex_unlock(&event->lock);
    return spent;
}

HANDLE D3D12XSCreateEvent(BOOL manual_reset, BOOL initial_state)
{
    return event_create(manual_reset, initial_state, NULL, 0);
}

HANDLE d3d12xs_event_create_forwarder(struct d3d12xs_event *target, unsigned count)
{
    return event_create(FALSE, FALSE, target, count);
}

DWORD D3D12XSWaitForEvent(HANDLE handle, DWORD milliseconds)
{
    struct d3d12xs_event *event;
    struct timespec deadline;
    DWORD result = WAIT_OBJECT_0;

    if (!(event = d3d12xs_event_acquire(handle))) {
        ERR("WaitForSingleObject: hHandle %p is not an open event made by CreateEvent", handle);
        return WAIT_FAILED;
    }
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += milliseconds / 1000;
    deadline.tv_nsec += (long)(milliseconds % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&event->lock);
    while (!event->signaled) {
        int rc = milliseconds == INFINITE ? pthread_cond_wait(&event->cond, &event->lock)
                                          : pthread_cond_timedwait(&event->cond, &event->lock, &deadline);
        if (rc == ETIMEDOUT) {
            result = WAIT_TIMEOUT;
            break;
        }
    }
    if (result == WAIT_OBJECT_0 && !event->manual_reset)
        event->signaled = false;
    pthread_mutex_unlock(&event->lock);
    d3d12xs_event_release(event, false);
    return result;
}

BOOL D3D12XSSetEvent(HANDLE handle)
{
    struct d3d12xs_event *event;
    if (!(event = d3d12xs_event_acquire(handle))) {
        ERR("SetEvent: hEvent %p is not an open event made by CreateEvent", handle);
        return FALSE;
    }
    d3d12xs_event_release(event, true);
    return TRUE;
}

BOOL D3D12XSResetEvent(HANDLE handle)
{
    struct d3d12xs_event *event;
    if (!(event = d3d12xs_event_acquire(handle))) {
        ERR("ResetEvent: hEvent %p is not an open event made by CreateEvent", handle);
        return FALSE;
    }
    pthread_mutex_lock(&event->lock);
    event->signaled = false;
    pthread_mutex_unlock(&event->lock);
    d3d12xs_event_release(event, false);
    return TRUE;
}

BOOL D3D12XSCloseEvent(HANDLE handle)
{
    struct d3d12xs_event *event;
    if (!(event = registry_remove(handle))) {
        ERR("CloseHandle: hObject %p is not an open event made by CreateEvent", handle);
        return FALSE;
    }
    /* Fence registrations still pending keep it alive until they are done with it. */
    d3d12xs_event_release(event, false);
    return TRUE;
}

BOOL D3D12XSQueryPerformanceCounter(LARGE_INTEGER *count)
{
    if (!count) {
        ERR("QueryPerformanceCounter: lpPerformanceCount is NULL");
        return FALSE;
    }
    count->QuadPart = (int64_t)d3d12xs_now_ns();
    return TRUE;
}

BOOL D3D12XSQueryPerformanceFrequency(LARGE_INTEGER *frequency)
{
    if (!frequency) {
        ERR("QueryPerformanceFrequency: lpFrequency is NULL");
        return FALSE;
    }
    frequency->QuadPart = 1000000000;
    return TRUE;
}
