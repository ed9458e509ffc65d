/* The trace file (docs/trace.md): Chrome trace-event JSON that Perfetto, chrome://tracing and
 * tools/trace-viewer.html open. One capture per process at a time, started by D3D12XS_TRACE at
 * the first device or by D3D12XSStartTrace; every part may emit events. With no capture running
 * an emitting call costs one relaxed atomic load (d3d12xs_trace_on). */
#ifndef D3D12XS_TRACE_H
#define D3D12XS_TRACE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "d3d12.h"

extern atomic_bool d3d12xs_trace_running;

static inline bool d3d12xs_trace_on(void)
{
    return atomic_load_explicit(&d3d12xs_trace_running, memory_order_relaxed);
}

/* Tracks (docs/trace.md): queues are 1000 + their creation index, the waiter 999, CPU threads
 * their Linux tid. */
#define D3D12XS_TRACE_WAITER_TRACK 999u
#define D3D12XS_TRACE_QUEUE_TRACK_BASE 1000u

/* Starts a capture into path (E_INVALIDARG naming the reason when one runs or the file cannot
 * be written); stops it, the file complete. */
HRESULT d3d12xs_trace_start(const char *path, const char *method);
void d3d12xs_trace_stop(void);
/* D3D12XS_TRACE, once per process, at the first device. */
void d3d12xs_trace_start_from_config(void);
/* Called by D3D12XSStopTrace before the file closes, so each device adds what its queues
 * finished; added and removed by the scheduler (the function takes the device's locks, so a
 * device is removed before it goes). */
typedef void (*d3d12xs_trace_drain_fn)(void *context);
void d3d12xs_trace_add_drain(d3d12xs_trace_drain_fn drain, void *context);
void d3d12xs_trace_remove_drain(d3d12xs_trace_drain_fn drain, void *context);
/* Writes what is buffered when the last write is older than 100 ms (the waiter calls it)... */
void d3d12xs_trace_tick(uint64_t now_ns);
/* ...or now (a device's last events, at its destruction). */
void d3d12xs_trace_flush(void);
/* Events wait to be written: the waiter then sleeps at most 100 ms. */
bool d3d12xs_trace_batch_pending(void);

/* A new queue track's id; its name (and the waiter's) shown from now on and in later captures. */
uint32_t d3d12xs_trace_new_queue_track(void);
void d3d12xs_trace_name_track(uint32_t track, const char *name);
/* A queue's track whose queue is gone: later captures do not name it. */
void d3d12xs_trace_forget_track(uint32_t track);
/* The calling thread's CPU track. */
uint32_t d3d12xs_trace_cpu_track(void);

/* The "args" of an event, built up with the functions below (strings are escaped). */
struct d3d12xs_trace_args {
    char text[640];
    size_t length;
};
void d3d12xs_trace_arg_string(struct d3d12xs_trace_args *args, const char *key, const char *value);
void d3d12xs_trace_arg_u64(struct d3d12xs_trace_args *args, const char *key, uint64_t value);
void d3d12xs_trace_arg_hex(struct d3d12xs_trace_args *args, const char *key, uint64_t value);

/* Events at CLOCK_MONOTONIC times (d3d12xs_now_ns); args may be NULL. */
void d3d12xs_trace_span(uint32_t track, const char *category, const char *name, uint64_t start_ns, uint64_t end_ns,
        const struct d3d12xs_trace_args *args);
void d3d12xs_trace_instant(uint32_t track, const char *category, const char *name, uint64_t at_ns, const struct d3d12xs_trace_args *args);
/* A flow arrow: its start (at a signal or write) and its end (at the wait it released), one id. */
void d3d12xs_trace_flow(uint32_t track, bool start, uint64_t id, uint64_t at_ns);

/* An API call's span on the calling thread's track: begin returns 0 when no capture runs, and
 * then end does nothing. */
uint64_t d3d12xs_trace_begin(void);
void d3d12xs_trace_end(uint64_t begin_ns, const char *name, const struct d3d12xs_trace_args *args);

#endif
