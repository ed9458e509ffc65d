/* A small portable event (manual or auto reset) standing in for Win32 event HANDLEs,
 * so fence->SetEventOnCompletion(value, event) code compiles and runs unchanged. */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "sync/fence.h"

#define D3D12XS_EVENT_MAGIC 0x45565458u /* "XTVE": tells our events from stray pointers */

struct d3d12xs_event {
    uint32_t magic;
    atomic_uint refcount; /* the handle's, plus one per pending fence registration */
    atomic_bool closed;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool manual_reset;
    bool signaled;
};

static struct d3d12xs_event *event_from_handle(HANDLE handle)
{
    struct d3d12xs_event *event = handle;
    if (!event || event->magic != D3D12XS_EVENT_MAGIC || atomic_load(&event->closed))
        return NULL;
    return event;
}

static void event_set(struct d3d12xs_event *event)
{
    pthread_mutex_lock(&event->lock);
    event->signaled = true;
    if (event->manual_reset)
        pthread_cond_broadcast(&event->cond);
    else
        pthread_cond_signal(&event->cond);
    pthread_mutex_unlock(&event->lock);
}

void d3d12xs_event_add_ref(HANDLE handle)
{
    atomic_fetch_add(&((struct d3d12xs_event *)handle)->refcount, 1);
}

void d3d12xs_event_release(HANDLE handle, bool set)
{
    struct d3d12xs_event *event = handle;
    if (set)
        event_set(event);
    if (atomic_fetch_sub(&event->refcount, 1) == 1) {
        event->magic = 0;
        pthread_cond_destroy(&event->cond);
        pthread_mutex_destroy(&event->lock);
        free(event);
    }
}

bool d3d12xs_event_is_valid(HANDLE event)
{
    return event_from_handle(event) != NULL;
}

HANDLE D3D12XSCreateEvent(BOOL manual_reset, BOOL initial_state)
{
    struct d3d12xs_event *event;
    pthread_condattr_t attr;

    if (!(event = calloc(1, sizeof(*event)))) {
        ERR("CreateEvent: out of memory");
        return NULL;
    }
    event->magic = D3D12XS_EVENT_MAGIC;
    atomic_init(&event->refcount, 1);
    atomic_init(&event->closed, false);
    event->manual_reset = manual_reset;
    event->signaled = initial_state;
    pthread_mutex_init(&event->lock, NULL);
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&event->cond, &attr);
    pthread_condattr_destroy(&attr);
    return event;
}

DWORD D3D12XSWaitForEvent(HANDLE handle, DWORD milliseconds)
{
    struct d3d12xs_event *event;
    struct timespec deadline;
    DWORD result = WAIT_OBJECT_0;

    if (!(event = event_from_handle(handle))) {
        ERR("WaitForSingleObject: hHandle %p is not an event made by CreateEvent", handle);
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
    return result;
}

BOOL D3D12XSSetEvent(HANDLE handle)
{
    struct d3d12xs_event *event;
    if (!(event = event_from_handle(handle))) {
        ERR("SetEvent: hEvent %p is not an event made by CreateEvent", handle);
        return FALSE;
    }
    event_set(event);
    return TRUE;
}

BOOL D3D12XSResetEvent(HANDLE handle)
{
    struct d3d12xs_event *event;
    if (!(event = event_from_handle(handle))) {
        ERR("ResetEvent: hEvent %p is not an event made by CreateEvent", handle);
        return FALSE;
    }
    pthread_mutex_lock(&event->lock);
    event->signaled = false;
    pthread_mutex_unlock(&event->lock);
    return TRUE;
}

BOOL D3D12XSCloseEvent(HANDLE handle)
{
    struct d3d12xs_event *event;
    if (!(event = event_from_handle(handle))) {
        ERR("CloseHandle: hObject %p is not an event made by CreateEvent", handle);
        return FALSE;
    }
    /* Fence registrations still pending keep it alive until they are done with it. */
    atomic_store(&event->closed, true);
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
