/* D3D12 fence values over a Vulkan timeline that only moves forward (fence_values.c).
 *
 * D3D12 lets a fence's value go down: a Signal sets the value, whatever it was. A Vulkan
 * timeline semaphore only grows, so the semaphore counts *virtual* values instead: every signal
 * handed to Vulkan (a queue Signal, or a CPU Signal made while no queue signal is pending) takes
 * the next one, and the timeline keeps, in signal order, (virtual value -> D3D12 value) for the
 * signals not yet seen complete, plus the D3D12 value of the latest one that is. A wait for a
 * D3D12 value V is met at once if the completed value is >= V, else by the first signal from then
 * on whose value is >= V: it waits for that signal's virtual value (docs/sync.md). */
#ifndef D3D12XS_FENCE_VALUES_H
#define D3D12XS_FENCE_VALUES_H

#include "sync/scheduler.h"

/* A host-side wait for a D3D12 value (an event registration, a blocking SetEventOnCompletion):
 * linked into its timeline while it waits, so that every signal made after it is added can meet
 * it, even one that a later, lower signal overwrites before anyone looks. */
struct d3d12_fence_watch {
    struct d3d12_fence_watch *next, *prev;
    uint64_t value;               /* the D3D12 value waited for */
    uint64_t target;              /* resolved: the virtual value of the first signal >= value since it was added */
    bool resolved;
    bool met;                     /* a CPU signal of at least value came (it completes at once) */
};

void d3d12_fence_values_init(struct d3d12_timeline *timeline, uint64_t initial_value);
void d3d12_fence_values_cleanup(struct d3d12_timeline *timeline);

/* A queue signal is handed to Vulkan (scheduler lock held): reserve room first (false: out of
 * memory), then take the signal's virtual value; host watches it meets are resolved to it. */
bool d3d12_fence_values_reserve_locked(struct d3d12_timeline *timeline);
uint64_t d3d12_fence_values_add_signal_locked(struct d3d12_device *device, struct d3d12_timeline *timeline, uint64_t value);
/* The semaphore value the last signal handed out will reach (scheduler lock held). */
uint64_t d3d12_fence_values_last_virtual_locked(const struct d3d12_timeline *timeline);

/* A CPU Signal (scheduler lock held). It sets the value at once. With no queue signal pending it
 * also signals the semaphore; with some pending, Vulkan forbids that, so the value is only
 * recorded (*waiters_must_look: host waiters wake for nothing) and the pending signals set their
 * own values when they execute. */
HRESULT d3d12_fence_values_signal_on_host_locked(struct d3d12_device *device, struct d3d12_timeline *timeline, uint64_t value,
        bool *waiters_must_look, const char *method);

/* A queue wait for value (scheduler lock held): true when it can go, with *wait_virtual the
 * semaphore value to wait for (0: nothing to wait for: the value is reached, or the fence is
 * released and nothing enqueued can reach it); false while no signal of at least value is
 * handed to Vulkan. */
bool d3d12_fence_values_resolve_wait_locked(struct d3d12_device *device, struct d3d12_timeline *timeline, uint64_t value,
        uint64_t *wait_virtual);

/* Host watches (no scheduler lock needed). add: true when value is reached already (the watch is
 * then not linked). done: whether it is met; if not, *wait_virtual is the semaphore value worth
 * waiting for (its signal's, or the next signal's) and *pending whether queue signals are pending
 * (a CPU Signal cannot move the semaphore then, so a waiter should look again soon). */
bool d3d12_fence_watch_add(struct d3d12_device *device, struct d3d12_timeline *timeline, struct d3d12_fence_watch *watch, uint64_t value);
bool d3d12_fence_watch_done(struct d3d12_device *device, struct d3d12_timeline *timeline, struct d3d12_fence_watch *watch,
        uint64_t *wait_virtual, bool *pending);
void d3d12_fence_watch_remove(struct d3d12_timeline *timeline, struct d3d12_fence_watch *watch);
/* false when the fence is released and nothing enqueued can meet the watch any more (takes the
 * scheduler lock). */
bool d3d12_fence_watch_can_complete(struct d3d12_device *device, struct d3d12_timeline *timeline, const struct d3d12_fence_watch *watch);

#endif
