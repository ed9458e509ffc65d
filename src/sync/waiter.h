/* The device's waiter thread (waiter.c): the one place that applies the hang timeout. It
 * sets events when fences reach their values, releases host waits, polls held memory waits,
 * destroys retired objects and watches submitted and held work. */
#ifndef D3D12XS_WAITER_H
#define D3D12XS_WAITER_H

#include "device/device.h"
#include "sync/scheduler.h"

struct d3d12xs_event;

HRESULT d3d12_waiter_create(struct d3d12_device *device);
/* Stops the thread; every registered event is set. */
void d3d12_waiter_destroy(struct d3d12_device *device);
/* Sets the event when the timeline reaches value, when the device is removed, or (with a
 * warning) when the fence is gone and nothing can reach the value any more. Takes over the
 * caller's event reference. */
HRESULT d3d12_waiter_add(struct d3d12_device *device, struct d3d12_timeline *timeline, uint64_t value,
        struct d3d12xs_event *event, const char *method);
/* Blocks until the timeline reaches value or the device is removed (by the hang timeout too). */
HRESULT d3d12_waiter_wait(struct d3d12_device *device, struct d3d12_timeline *timeline, uint64_t value, const char *method);
/* New queue work: a sleeping waiter starts watching again. With memory_wait (the work waits
 * on a value in memory), a waiter in a long slice wakes to start polling. */
void d3d12_waiter_kick(struct d3d12_device *device, bool memory_wait);
/* A CPU Signal set a fence's value without moving its semaphore: the waiter looks at its events
 * again now rather than at the end of its slice. */
void d3d12_waiter_recheck(struct d3d12_device *device);

#endif
