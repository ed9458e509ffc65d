/* The scheduler (see scheduler.h and scheduler_state.h for its parts): queue operations are
 * enqueued here, submitted at once when ready or held, and the held work is flushed whenever a
 * signal or a published value write may have made some of it ready. Every public call decides
 * under the scheduler lock and hands the resulting submissions to Vulkan after releasing it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sync/scheduler_state.h"
#include "trace/trace.h"

/* How long a ready queue Wait may wait for the next operation of its queue (enqueue_locked). */
#define PARK_NS (20ull * 1000)

static void lock(struct d3d12_scheduler *scheduler)
{
    pthread_mutex_lock(&scheduler->lock);
}

/* Releases the lock, then hands what was decided under it to Vulkan. */
static HRESULT unlock_and_submit(struct d3d12_device *device)
{
    return d3d12_submission_unlock_and_drain(device);
}

void d3d12_op_cleanup_locked(struct d3d12_device *device, struct d3d12_op *op)
{
    switch (op->kind) {
    case D3D12_OP_EXECUTE:
        free(op->u.execute.command_buffers);
        free(op->u.execute.writes);
        d3d12_queue_trace_free(op->trace);
        break;
    case D3D12_OP_SIGNAL:
        d3d12_timeline_release_locked(device, op->u.signal.timeline);
        break;
    case D3D12_OP_WAIT_FENCE:
        d3d12_timeline_release_locked(device, op->u.wait_fence.timeline);
        break;
    case D3D12_OP_WAIT_MEMORY:
        break;
    }
    memset(op, 0, sizeof(*op));
}

/* Held work that will never run: its serials count as done once the submitted work is. */
void d3d12_engine_drop_held_locked(struct d3d12_engine *engine, const char *why)
{
    struct d3d12_scheduler *scheduler = d3d12_scheduler_of(engine->device);
    if (!engine->held_count)
        return;
    /* After a removal the removal itself was the one line. */
    if (d3d12_device_removed_reason(engine->device) == S_OK)
        WARN("queue '%s': %zu operations still waiting are dropped (%s)", engine->name, engine->held_count, why);
    else
        TRACE("queue '%s': %zu operations still waiting are dropped (%s)", engine->name, engine->held_count, why);
    for (size_t i = 0; i < engine->held_count; i++) {
        if (engine->held[i].kind == D3D12_OP_WAIT_MEMORY)
            scheduler->memory_wait_count--;
        d3d12_op_cleanup_locked(engine->device, &engine->held[i]);
    }
    if (engine->parked) {
        engine->parked = false;
        scheduler->parked_count--;
    }
    engine->held_count = 0;
    engine->held = engine->held_buffer;
    scheduler->held_engine_count--;
    atomic_store(&engine->drop_wait_serial, engine->submitted_serial);
    atomic_store(&engine->dropped_through, engine->next_serial);
}


/* Submits what every engine's held operations can reach, until nothing moves. */
static void flush_held_locked(struct d3d12_scheduler *scheduler)
{
    size_t stack[32], *reach = stack, *done;
    bool progress = true;

    if (scheduler->engine_count > D3D12XS_ARRAY_SIZE(stack) / 2 && !(reach = calloc(scheduler->engine_count * 2, sizeof(*reach))))
        return; /* the waiter's next poll tries again */
    done = reach + scheduler->engine_count;
    while (progress && scheduler->held_engine_count) {
        bool left = true, strict = true;
        progress = false;
        d3d12_resolver_simulate_locked(scheduler, reach);
        memset(done, 0, scheduler->engine_count * sizeof(*done));
        /* One run per queue in turn, so that the GPU starts on a ping-pong's first hops while
         * the later ones are still being handed over. A run that waits on another queue's
         * serial goes after the run that signals it: Vulkan allows a wait submitted before its
         * signal, but the H200's driver then defers it. If no queue could go in a round (not
         * expected: the simulation found an order), the order is given up. */
        while (left) {
            bool moved = false;
            left = false;
            for (size_t e = 0; e < scheduler->engine_count; e++) {
                struct d3d12_engine *engine = scheduler->engines[e];
                HRESULT hr;
                if (done[e] == reach[e])
                    continue;
                const struct d3d12_op *first = &engine->held[done[e]];
                if (strict && first->kind == D3D12_OP_WAIT_MEMORY && first->u.wait_memory.met_by == D3D12_MET_BY_SEMAPHORE
                        && first->u.wait_memory.writer->submitted_serial < first->u.wait_memory.writer_serial) {
                    left = true;
                    continue;
                }
                moved = true;
                size_t taken = d3d12_submission_take_run_locked(scheduler, engine, &engine->held[done[e]], reach[e] - done[e], &hr);
                for (size_t i = 0; i < taken; i++) {
                    struct d3d12_op *op = &engine->held[done[e]++];
                    if (op->kind == D3D12_OP_WAIT_MEMORY)
                        scheduler->memory_wait_count--;
                    d3d12_op_cleanup_locked(engine->device, op);
                }
                left |= done[e] < reach[e];
            }
            if (left && !moved)
                strict = false;
        }
        for (size_t e = 0; e < scheduler->engine_count; e++) {
            struct d3d12_engine *engine = scheduler->engines[e];
            if (!done[e])
                continue;
            progress = true;
            if (engine->parked) {
                engine->parked = false;
                scheduler->parked_count--;
            }
            /* The front moves on; enqueue_locked compacts when the end is reached, so a list of
             * many segments submitted one hop at a time costs no copying per hop. */
            engine->held += done[e];
            engine->held_count -= done[e];
            if (!engine->held_count) {
                engine->held = engine->held_buffer;
                scheduler->held_engine_count--;
            }
        }
    }
    if (reach != stack)
        free(reach);
}

static void hold_op_locked(struct d3d12_scheduler *scheduler, struct d3d12_engine *engine, struct d3d12_op *op)
{
    if (!engine->held_count)
        scheduler->held_engine_count++;
    if (op->kind == D3D12_OP_WAIT_MEMORY)
        scheduler->memory_wait_count++;
    engine->held[engine->held_count++] = *op;
    TRACE("queue '%s': operation %llu held until its wait can be met", engine->name, (unsigned long long)op->serial);
}

/* Queues ops[0..count) on the engine in order, deciding the submission of what is ready.
 * Takes ownership of the operations. */
static HRESULT enqueue_locked(struct d3d12_scheduler *scheduler, struct d3d12_engine *engine, struct d3d12_op *ops, uint32_t count,
        uint64_t *serial)
{
    uint64_t now = d3d12xs_now_ns();
    bool signalled = false;
    HRESULT hr = S_OK;

    size_t first = engine->held_buffer ? (size_t)(engine->held - engine->held_buffer) : 0;
    if (first && first + engine->held_count + count > engine->held_capacity) {
        memmove(engine->held_buffer, engine->held, engine->held_count * sizeof(*engine->held));
        first = 0;
    }
    bool reserved = d3d12xs_array_reserve((void **)&engine->held_buffer, &engine->held_capacity, first + engine->held_count + count,
            sizeof(*engine->held));
    engine->held = engine->held_buffer + first;
    if (!reserved) {
        for (uint32_t i = 0; i < count; i++)
            d3d12_op_cleanup_locked(engine->device, &ops[i]);
        return E_OUTOFMEMORY;
    }
    for (uint32_t i = 0; i < count; i++) {
        struct d3d12_op *op = &ops[i];
        op->serial = ++engine->next_serial;
        op->enqueued_ns = now;
    }
    bool had_parked = engine->parked;
    for (uint32_t i = 0; i < count;) {
        /* A queue Wait that is ready but would go to Vulkan alone is kept for the next operation
         * on the queue, so that the usual Wait + Signal (or + ExecuteCommandLists) is one
         * submission, as hand-written Vulkan would make it; the waiter submits it within about
         * 50 us if nothing follows. */
        if (!engine->held_count && i == count - 1 && ops[i].kind == D3D12_OP_WAIT_FENCE && !engine->internal
                && d3d12_op_ready_locked(scheduler, engine, &ops[i], NULL)) {
            hold_op_locked(scheduler, engine, &ops[i++]);
            engine->parked = true;
            if (!scheduler->parked_count++)
                scheduler->parked_since_ns = now;
            continue;
        }
        if (!engine->held_count && d3d12_op_ready_locked(scheduler, engine, &ops[i], NULL)) {
            HRESULT op_hr;
            size_t taken = d3d12_submission_take_run_locked(scheduler, engine, &ops[i], count - i, &op_hr);
            if (FAILED(op_hr) && SUCCEEDED(hr))
                hr = op_hr;
            for (size_t k = 0; k < taken; k++, i++) {
                signalled |= ops[i].kind == D3D12_OP_SIGNAL;
                d3d12_op_cleanup_locked(engine->device, &ops[i]);
            }
        } else {
            hold_op_locked(scheduler, engine, &ops[i++]);
        }
    }
    if (serial)
        *serial = engine->next_serial;
    if ((signalled || had_parked || scheduler->writes_published) && scheduler->held_engine_count)
        flush_held_locked(scheduler);
    scheduler->writes_published = false;
    return hr;
}

static HRESULT enqueue(struct d3d12_engine *engine, struct d3d12_op *ops, uint32_t count, uint64_t *serial)
{
    struct d3d12_scheduler *scheduler = d3d12_scheduler_of(engine->device);
    HRESULT hr, submit_hr;
    lock(scheduler);
    hr = enqueue_locked(scheduler, engine, ops, count, serial);
    submit_hr = unlock_and_submit(engine->device);
    return FAILED(hr) ? hr : submit_hr;
}

/* ---- engines and timelines: the calls that may release held work ---- */

void d3d12_engine_orphan(struct d3d12_engine *engine)
{
    struct d3d12_scheduler *scheduler = d3d12_scheduler_of(engine->device);
    lock(scheduler);
    engine->orphaned = true;
    if (engine->parked)
        flush_held_locked(scheduler); /* a parked wait is ready: it goes now */
    engine->refcount--;
    unlock_and_submit(engine->device);
}

void d3d12_timeline_orphan(struct d3d12_device *device, struct d3d12_timeline *timeline)
{
    struct d3d12_scheduler *scheduler = d3d12_scheduler_of(device);
    lock(scheduler);
    timeline->orphaned = true;
    /* As on Windows, destroying a fence lets the queues waiting on it for values nothing will
     * signal go on (d3d12_op_ready_locked): their held work runs now. */
    if (scheduler->held_engine_count)
        flush_held_locked(scheduler);
    d3d12_timeline_release_locked(device, timeline);
    unlock_and_submit(device);
}

HRESULT d3d12_timeline_signal_on_host(struct d3d12_device *device, struct d3d12_timeline *timeline, uint64_t value, bool *waiters_must_look,
        const char *method)
{
    struct d3d12_scheduler *scheduler = d3d12_scheduler_of(device);
    HRESULT hr;

    lock(scheduler);
    /* Any value, lower ones too: D3D12 sets it (fence_values.c maps it onto the semaphore). */
    if (FAILED(hr = d3d12_fence_values_signal_on_host_locked(device, timeline, value, waiters_must_look, method))) {
        pthread_mutex_unlock(&scheduler->lock);
        return hr;
    }
    /* The trace's arrow from this Signal to the queue waits it releases (queue_trace.c). */
    if (d3d12xs_trace_on()) {
        static _Atomic uint64_t cpu_signals;
        timeline->trace_cpu_flow = ((atomic_fetch_add(&cpu_signals, 1) + 1) << 1) | (1ull << 51);
        timeline->trace_cpu_value = value;
        d3d12xs_trace_flow(d3d12xs_trace_cpu_track(), true, timeline->trace_cpu_flow, d3d12xs_now_ns());
    }
    /* Held queue waits for at most value are met now, even if a queue signal pending before this
     * one lands meanwhile with a lower value (fence_values.c reads cpu_signal_value). */
    if (scheduler->held_engine_count) {
        timeline->cpu_signal_flush = true;
        timeline->cpu_signal_value = value;
        flush_held_locked(scheduler);
        timeline->cpu_signal_flush = false;
    }
    unlock_and_submit(device);
    return S_OK;
}

/* ---- queue operations ---- */

/* An execute op's segments, for hang reports: "list 'a' segments 0-2 (calls 0-30; first command
 * Dispatch at call 3, last copy at call 29)", or from one list's segment to another's. */
static void describe_run(struct d3d12_op *op, const struct d3d12_submit_segment *first, const struct d3d12_submit_segment *last)
{
    const char *first_list = first->list_name ? first->list_name : "?", *last_list = last->list_name ? last->list_name : "?";
    char commands[96] = "";
    size_t n;

    const struct d3d12_submit_segment *with_first = first, *with_last = last;
    /* the segments between them are contiguous: the first and the last that hold a command */
    while (with_first < last && !with_first->first_command)
        with_first++;
    while (with_last > first && !with_last->last_command)
        with_last--;
    op->has_commands = with_first->first_command && with_last->last_command;
    if (op->has_commands)
        snprintf(commands, sizeof(commands), "; first command %s at call %u, last %s at call %u", with_first->first_command,
                with_first->first_command_call, with_last->last_command, with_last->last_command_call);
    else
        snprintf(commands, sizeof(commands), "; no GPU commands");
    if (first == last && last->last_call == UINT32_MAX)
        n = (size_t)snprintf(op->what, sizeof(op->what), "list '%s' segment %u (no calls", first_list, first->index);
    else if (first == last)
        n = (size_t)snprintf(op->what, sizeof(op->what), "list '%s' segment %u (calls %u-%u", first_list, first->index, first->first_call,
                last->last_call);
    else if (!strcmp(first_list, last_list))
        n = (size_t)snprintf(op->what, sizeof(op->what), "list '%s' segments %u-%u (calls %u-%u", first_list, first->index, last->index,
                first->first_call, last->last_call);
    else
        n = (size_t)snprintf(op->what, sizeof(op->what), "list '%s' segment %u (call %u) to list '%s' segment %u (call %u", first_list,
                first->index, first->first_call, last_list, last->index, last->last_call);
    if (n < sizeof(op->what))
        snprintf(op->what + n, sizeof(op->what) - n, "%s)", commands);
}

static void describe_segment(struct d3d12_op *op, const struct d3d12_submit_segment *segment)
{
    if (segment->cut_by)
        snprintf(op->what, sizeof(op->what), "list '%s' call %u (%s)", segment->list_name ? segment->list_name : "?", segment->first_call,
                segment->cut_by);
    else
        snprintf(op->what, sizeof(op->what), "list '%s' segment %u (from call %u)", segment->list_name ? segment->list_name : "?",
                segment->index, segment->first_call);
}

static void free_unqueued(struct d3d12_op *ops, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++)
        if (ops[i].kind == D3D12_OP_EXECUTE)
            free(ops[i].u.execute.command_buffers), free(ops[i].u.execute.writes), d3d12_queue_trace_free(ops[i].trace);
}

HRESULT d3d12_scheduler_execute(struct d3d12_engine *engine, const struct d3d12_submit_segment *segments, uint32_t segment_count,
        uint64_t *serial)
{
    struct d3d12_op stack_ops[4], *ops = stack_ops;
    uint32_t op_count = 0, max_ops = segment_count * 2 + 1;
    HRESULT hr = S_OK;

    if (max_ops > D3D12XS_ARRAY_SIZE(stack_ops) && !(ops = calloc(max_ops, sizeof(*ops))))
        return E_OUTOFMEMORY;
    memset(ops, 0, (ops == stack_ops ? D3D12XS_ARRAY_SIZE(stack_ops) : max_ops) * sizeof(*ops));
    /* Segments between two waits (or helper segments) go to Vulkan in one submission. */
    for (uint32_t i = 0; i < segment_count; i++) {
        const struct d3d12_submit_segment *segment = &segments[i];
        struct d3d12_op *op = op_count ? &ops[op_count - 1] : NULL;
        if (segment->wait) {
            op = &ops[op_count++];
            op->kind = D3D12_OP_WAIT_MEMORY;
            op->u.wait_memory.memory = *segment->wait;
            describe_segment(op, segment);
            op = NULL;
        }
        if (!op || op->kind != D3D12_OP_EXECUTE || op->u.execute.on_helper || segment->on_helper) {
            op = &ops[op_count++];
            op->kind = D3D12_OP_EXECUTE;
            op->u.execute.on_helper = segment->on_helper;
            if (!(op->u.execute.command_buffers = malloc((segment_count - i) * sizeof(*op->u.execute.command_buffers)))) {
                hr = E_OUTOFMEMORY;
                break;
            }
            if (segment->on_helper) {
                describe_segment(op, segment);
            } else {
                /* the op's segments: those up to the next wait or helper segment, described once
                 * (hang reports) and named for the trace */
                uint32_t n = 1;
                while (i + n < segment_count && !segments[i + n].wait && !segments[i + n].on_helper)
                    n++;
                describe_run(op, segment, segment + n - 1);
                if (d3d12xs_trace_on())
                    op->trace = d3d12_queue_trace_describe(segment, n);
            }
        }
        struct d3d12_op_execute *execute = &op->u.execute;
        execute->command_buffers[execute->command_buffer_count++] = segment->command_buffer;
        if (segment->write_count) {
            struct d3d12_value_write *writes = realloc(execute->writes, (execute->write_count + segment->write_count) * sizeof(*writes));
            if (!writes) {
                hr = E_OUTOFMEMORY;
                break;
            }
            memcpy(writes + execute->write_count, segment->writes, segment->write_count * sizeof(*writes));
            execute->writes = writes;
            execute->write_count += segment->write_count;
        }
    }
    if (FAILED(hr))
        free_unqueued(ops, op_count);
    else
        hr = enqueue(engine, ops, op_count, serial);
    if (ops != stack_ops)
        free(ops);
    return hr;
}

static HRESULT enqueue_fence_op(struct d3d12_engine *engine, enum d3d12_op_kind kind, struct d3d12_timeline *timeline, uint64_t value,
        VkPipelineStageFlags2 stages, bool *parked)
{
    struct d3d12_scheduler *scheduler = d3d12_scheduler_of(engine->device);
    struct d3d12_op op = {.kind = kind};
    HRESULT hr, submit_hr;

    if (kind == D3D12_OP_SIGNAL)
        op.u.signal = (struct d3d12_op_fence){.timeline = timeline, .value = value};
    else
        op.u.wait_fence = (struct d3d12_op_fence){.timeline = timeline, .value = value, .stages = stages};
    lock(scheduler);
    timeline->refcount++;
    snprintf(op.what, sizeof(op.what), "%s of fence '%s' to %llu", kind == D3D12_OP_SIGNAL ? "Signal" : "Wait", timeline->name,
            (unsigned long long)value);
    hr = enqueue_locked(scheduler, engine, &op, 1, NULL);
    if (parked)
        *parked = engine->parked;
    submit_hr = unlock_and_submit(engine->device);
    return FAILED(hr) ? hr : submit_hr;
}

HRESULT d3d12_scheduler_signal(struct d3d12_engine *engine, struct d3d12_timeline *timeline, uint64_t value)
{
    return enqueue_fence_op(engine, D3D12_OP_SIGNAL, timeline, value, 0, NULL);
}

HRESULT d3d12_scheduler_wait_fence(struct d3d12_engine *engine, struct d3d12_timeline *timeline, uint64_t value, VkPipelineStageFlags2 stages,
        bool *parked)
{
    return enqueue_fence_op(engine, D3D12_OP_WAIT_FENCE, timeline, value, stages, parked);
}

HRESULT d3d12_scheduler_run_internal(struct d3d12_device *device, VkCommandBuffer command_buffer, const char *method)
{
    struct d3d12_scheduler *scheduler = d3d12_scheduler_of(device);
    struct d3d12_op op = {.kind = D3D12_OP_EXECUTE, .u.execute.command_buffer_count = 1};
    HRESULT hr, submit_hr;

    if (!(op.u.execute.command_buffers = malloc(sizeof(*op.u.execute.command_buffers))))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "out of memory");
    op.u.execute.command_buffers[0] = command_buffer;
    snprintf(op.what, sizeof(op.what), "%s", method);
    lock(scheduler);
    /* Every engine's next submission waits for this one, so nothing needs to wait here. */
    if (SUCCEEDED(hr = enqueue_locked(scheduler, scheduler->internal, &op, 1, NULL)))
        scheduler->internal_serial = scheduler->internal->submitted_serial;
    submit_hr = unlock_and_submit(device);
    return FAILED(hr) ? hr : submit_hr;
}

uint32_t d3d12_scheduler_internal_family(struct d3d12_device *device)
{
    return d3d12_scheduler_of(device)->internal->family;
}

/* ---- the watchdog's view (waiter.c applies the policy) ---- */

static void describe_held(struct d3d12_device *device, const struct d3d12_engine *engine, const struct d3d12_op *op, uint64_t waited_ms,
        uint64_t timeout_ms, char *why, size_t size)
{
    if (op->kind == D3D12_OP_WAIT_MEMORY) {
        const struct d3d12_memory_wait *wait = &op->u.wait_memory.memory;
        uint64_t current;
        d3d12_memory_wait_ready(wait, &current);
        snprintf(why, size, "queue '%s', %s waited %llu ms (hang timeout %llu ms) for the %u-bit value at 0x%llx to be %s %llu (memory holds %llu)",
                engine->name, op->what, (unsigned long long)waited_ms, (unsigned long long)timeout_ms, wait->size * 8,
                (unsigned long long)wait->gpu_address, d3d12_comparison_name(wait->comparison), (unsigned long long)wait->value,
                (unsigned long long)current);
    } else if (op->kind == D3D12_OP_WAIT_FENCE) {
        snprintf(why, size, "queue '%s' waited %llu ms (hang timeout %llu ms) for fence '%s' to reach %llu (it is at %llu; no queue or CPU signal of at least that value was submitted since)",
                engine->name, (unsigned long long)waited_ms, (unsigned long long)timeout_ms, op->u.wait_fence.timeline->name,
                (unsigned long long)op->u.wait_fence.value,
                (unsigned long long)d3d12_timeline_completed_value(device, op->u.wait_fence.timeline));
    } else {
        snprintf(why, size, "queue '%s', %s was held %llu ms (hang timeout %llu ms)", engine->name, op->what,
                (unsigned long long)waited_ms, (unsigned long long)timeout_ms);
    }
}

/* Names the oldest unfinished work of the engine; a GPU-side memory wait with its value. */
static void describe_running(const struct d3d12_engine *engine, uint64_t completed, char *what, size_t size)
{
    const struct d3d12_inflight *best = NULL;
    for (unsigned i = 0; i < D3D12_INFLIGHT_RING; i++) {
        const struct d3d12_inflight *slot = &engine->inflight[i];
        if (slot->serial > completed && (!best || slot->serial < best->serial))
            best = slot;
    }
    if (best && best->on_gpu_wait) {
        uint64_t current;
        d3d12_memory_wait_ready(&best->memory, &current);
        snprintf(what, size, "%s, waiting on the GPU for the %u-bit value at 0x%llx to be %s %llu (memory holds %llu)", best->what,
                best->memory.size * 8, (unsigned long long)best->memory.gpu_address, d3d12_comparison_name(best->memory.comparison),
                (unsigned long long)best->memory.value, (unsigned long long)current);
    } else {
        snprintf(what, size, "%s", best ? best->what : "work submitted earlier");
    }
}

/* Held work waiting longer than timeout_ns, or submitted work making no progress for that long:
 * the first found is described in why. Returns whether anything is held or running. */
static bool find_stall_locked(struct d3d12_scheduler *scheduler, struct d3d12_device *device, uint64_t now, uint64_t timeout_ns,
        char *why, size_t size)
{
    bool busy = false;

    for (size_t i = 0; i < scheduler->engine_count; i++) {
        struct d3d12_engine *engine = scheduler->engines[i];
        uint64_t completed = d3d12_engine_completed(engine);
        if (engine->held_count) {
            const struct d3d12_op *front = &engine->held[0];
            busy = true;
            if (timeout_ns && now > front->enqueued_ns && now - front->enqueued_ns > timeout_ns && !*why)
                describe_held(device, engine, front, (now - front->enqueued_ns) / 1000000, timeout_ns / 1000000, why, size);
        }
        if (completed >= engine->submitted_serial) {
            engine->watch_since_ns = 0;
            continue;
        }
        busy = true;
        if (!engine->watch_since_ns || completed != engine->watch_completed) {
            engine->watch_completed = completed;
            engine->watch_since_ns = now;
        } else if (timeout_ns && now > engine->watch_since_ns && now - engine->watch_since_ns > timeout_ns && !*why) {
            char what[320];
            describe_running(engine, completed, what, sizeof(what));
            snprintf(why, size, "queue '%s' made no progress for %llu ms running %s", engine->name,
                    (unsigned long long)(timeout_ns / 1000000), what);
            if (device->gpu_wait_mode == D3D12_GPU_WAITS_INLINE) {
                size_t length = strlen(why);
                snprintf(why + length, size - length, "%s", " (D3D12XS_GPU_WAITS=inline: its memory waits on graphics memory spin "
                        "inside the list, where a value the CPU writes may never be seen)");
            }
        }
    }
    return busy;
}

/* The newest work of the engine known finished (the inflight ring) that ran GPU commands, else
 * the newest at all; NULL when none is in the ring. */
static const struct d3d12_inflight *last_finished(const struct d3d12_engine *engine, uint64_t completed)
{
    const struct d3d12_inflight *best = NULL, *best_with_commands = NULL;
    for (unsigned i = 0; i < D3D12_INFLIGHT_RING; i++) {
        const struct d3d12_inflight *slot = &engine->inflight[i];
        if (!slot->serial || slot->serial > completed)
            continue;
        if (!best || slot->serial > best->serial)
            best = slot;
        if (slot->has_commands && (!best_with_commands || slot->serial > best_with_commands->serial))
            best_with_commands = slot;
    }
    return best_with_commands ? best_with_commands : best;
}

/* The first unfinished work of an engine, briefly: the op and what holds it. */
static void describe_unfinished(const struct d3d12_engine *engine, uint64_t completed, char *out, size_t size)
{
    const struct d3d12_op *held = engine->held_count ? &engine->held[0] : NULL;
    if (held && held->kind == D3D12_OP_WAIT_FENCE)
        snprintf(out, size, "a Wait for fence '%s' to reach %llu, held", held->u.wait_fence.timeline->name,
                (unsigned long long)held->u.wait_fence.value);
    else if (held && held->kind == D3D12_OP_WAIT_MEMORY)
        snprintf(out, size, "%s, held until the value at 0x%llx is %s %llu", held->what, (unsigned long long)held->u.wait_memory.memory.gpu_address,
                d3d12_comparison_name(held->u.wait_memory.memory.comparison), (unsigned long long)held->u.wait_memory.memory.value);
    else if (held)
        snprintf(out, size, "%s, held", held->what);
    else
        describe_running(engine, completed, out, size);
}

void d3d12_scheduler_describe_hang(struct d3d12_device *device, char *out, size_t size)
{
    struct d3d12_scheduler *scheduler = d3d12_scheduler_of(device);
    uint64_t now = d3d12xs_now_ns();
    size_t length = 0;

    out[0] = 0;
    lock(scheduler);
    if (d3d12xs_trace_on())
        d3d12_queue_trace_collect_locked(scheduler, now, false);
    for (size_t i = 0; i < scheduler->engine_count && length + 1 < size; i++) {
        struct d3d12_engine *engine = scheduler->engines[i];
        uint64_t completed = d3d12_engine_completed(engine);
        const struct d3d12_inflight *finished = last_finished(engine, completed);
        char unfinished[320];
        int n;

        if (!engine->held_count && completed >= engine->submitted_serial)
            continue; /* idle: nothing of it is stuck */
        describe_unfinished(engine, completed, unfinished, sizeof(unfinished));
        n = snprintf(out + length, size - length, "; queue '%s' last finished %s, first not finished %s", engine->name,
                finished ? finished->what : "nothing of its last 8 submissions", unfinished);
        length = n > 0 && (size_t)n < size - length ? length + (size_t)n : size - 1;
        if (d3d12xs_trace_on()) {
            struct d3d12xs_trace_args args = {.length = 0};
            uint64_t since = engine->held_count ? engine->held[0].enqueued_ns : engine->watch_since_ns ? engine->watch_since_ns : now;
            d3d12xs_trace_arg_string(&args, "last_finished", finished ? finished->what : "?");
            d3d12xs_trace_arg_string(&args, "first_not_finished", unfinished);
            d3d12xs_trace_span(engine->trace_track, "hang", "hang", since, now, &args);
        }
    }
    pthread_mutex_unlock(&scheduler->lock);
    d3d12xs_trace_flush();
}

void d3d12_scheduler_poll(struct d3d12_device *device, uint64_t now, uint64_t timeout_ns, struct d3d12_scheduler_poll *result)
{
    struct d3d12_scheduler *scheduler = d3d12_scheduler_of(device);

    result->stall[0] = 0;
    lock(scheduler);
    /* Parked fence waits go once nothing came to join them for a while. */
    if (scheduler->memory_wait_count || (scheduler->parked_count && now - scheduler->parked_since_ns > PARK_NS))
        flush_held_locked(scheduler);
    result->busy = find_stall_locked(scheduler, device, now, timeout_ns, result->stall, sizeof(result->stall));
    if (d3d12xs_trace_on())
        d3d12_queue_trace_collect_locked(scheduler, now, false);
    if (d3d12_device_removed_reason(device) != S_OK) {
        for (size_t i = 0; i < scheduler->engine_count; i++)
            d3d12_engine_drop_held_locked(scheduler->engines[i], "the device is removed");
    }
    result->memory_waits_held = scheduler->memory_wait_count != 0 || scheduler->parked_count != 0;
    d3d12_engine_free_finished_locked(scheduler);
    unlock_and_submit(device);
    result->busy |= d3d12_retirement_collect(device, false) != 0;
    result->busy |= d3d12_empty_graveyard(device, false) != 0;
}

void d3d12_scheduler_drop_held(struct d3d12_device *device, const char *why)
{
    struct d3d12_scheduler *scheduler = d3d12_scheduler_of(device);
    lock(scheduler);
    for (size_t i = 0; i < scheduler->engine_count; i++)
        d3d12_engine_drop_held_locked(scheduler->engines[i], why);
    pthread_mutex_unlock(&scheduler->lock);
}

void d3d12_scheduler_memory_wait_counts(struct d3d12_device *device, uint64_t *on_host, uint64_t *on_gpu)
{
    struct d3d12_scheduler *scheduler = d3d12_scheduler_of(device);
    lock(scheduler);
    *on_host = scheduler->memory_waits_on_host;
    *on_gpu = scheduler->memory_waits_on_gpu;
    pthread_mutex_unlock(&scheduler->lock);
}

unsigned d3d12_scheduler_flush_memory_waits(struct d3d12_device *device, uint64_t now_ns, bool *waits_held)
{
    struct d3d12_scheduler *scheduler = d3d12_scheduler_of(device);
    unsigned held;
    lock(scheduler);
    if (scheduler->memory_wait_count || (scheduler->parked_count && now_ns - scheduler->parked_since_ns > PARK_NS))
        flush_held_locked(scheduler);
    held = scheduler->memory_wait_count;
    if (waits_held)
        *waits_held = held || scheduler->parked_count;
    unlock_and_submit(device);
    return held;
}

/* ---- creation and destruction ---- */

/* D3D12XSStopTrace: what the queues finished so far goes into the file. */
static void drain_trace(void *context)
{
    struct d3d12_device *device = context;
    struct d3d12_scheduler *scheduler = d3d12_scheduler_of(device);
    lock(scheduler);
    d3d12_queue_trace_collect_locked(scheduler, d3d12xs_now_ns(), false);
    pthread_mutex_unlock(&scheduler->lock);
}

HRESULT d3d12_scheduler_create(struct d3d12_device *device)
{
    struct d3d12_scheduler *scheduler;

    if (!(scheduler = calloc(1, sizeof(*scheduler))))
        return d3d12xs_fail(E_OUTOFMEMORY, "D3D12CreateDevice", "cannot allocate the scheduler");
    pthread_mutex_init(&scheduler->lock, NULL);
    pthread_mutex_init(&scheduler->submit_lock, NULL);
    pthread_mutex_init(&scheduler->pending_lock, NULL);
    device->scheduler = scheduler;
    if (FAILED(d3d12_retirement_create(scheduler))
            || !(scheduler->internal = d3d12_engine_new(device, D3D12_COMMAND_LIST_TYPE_DIRECT, true, 0, "D3D12CreateDevice"))) {
        if (scheduler->retirement)
            d3d12_retirement_destroy(device);
        pthread_mutex_destroy(&scheduler->submit_lock);
        pthread_mutex_destroy(&scheduler->pending_lock);
        pthread_mutex_destroy(&scheduler->lock);
        free(scheduler);
        device->scheduler = NULL;
        return d3d12xs_fail(E_OUTOFMEMORY, "D3D12CreateDevice", "cannot create the scheduler's internal engine");
    }
    d3d12xs_trace_add_drain(drain_trace, device);
    return S_OK;
}

/* After a removal, work submitted before it may still be running (a hang is declared on
 * slow work too): destruction waits this long for it before it frees what it uses. */
#define REMOVED_DRAIN_MS 10000u

void d3d12_scheduler_destroy(struct d3d12_device *device)
{
    struct d3d12_scheduler *scheduler = d3d12_scheduler_of(device);
    VkSemaphore *semaphores = NULL;
    uint64_t *values = NULL;
    size_t count = 0;

    if (!scheduler)
        return;
    d3d12xs_trace_remove_drain(drain_trace, device);
    lock(scheduler);
    for (size_t i = 0; i < scheduler->engine_count; i++)
        d3d12_engine_drop_held_locked(scheduler->engines[i], "the device is destroyed");
    pthread_mutex_unlock(&scheduler->lock);
    /* What was decided goes to Vulkan, so that the waits below can end. */
    d3d12_submission_drain_all(device);
    lock(scheduler);
    if ((semaphores = calloc(scheduler->engine_count + 1, sizeof(*semaphores))) && (values = calloc(scheduler->engine_count + 1, sizeof(*values)))) {
        for (size_t i = 0; i < scheduler->engine_count; i++) {
            semaphores[count] = scheduler->engines[i]->serial_semaphore;
            values[count++] = scheduler->engines[i]->submitted_serial;
        }
    }
    pthread_mutex_unlock(&scheduler->lock);
    if (count) {
        unsigned timeout_ms = atomic_load(&device->hang_timeout_ms);
        VkSemaphoreWaitInfo wait_info = {
            .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
            .semaphoreCount = (uint32_t)count,
            .pSemaphores = semaphores,
            .pValues = values,
        };
        uint64_t limit_ms = timeout_ms > REMOVED_DRAIN_MS ? timeout_ms : REMOVED_DRAIN_MS;
        if (vkWaitSemaphores(device->vk_device, &wait_info, limit_ms * 1000000) == VK_TIMEOUT)
            WARN("device destruction: queues still run after %llu ms; their objects are freed anyway", (unsigned long long)limit_ms);
        else
            /* Everything finished; let the driver's queue threads be done with it too before
             * the semaphores and the rest are destroyed (lavapipe's may still be signalling). */
            vkDeviceWaitIdle(device->vk_device);
    }
    free(semaphores);
    free(values);
    d3d12_retirement_collect(device, true);
    lock(scheduler);
    d3d12_submission_discard_locked(scheduler);
    if (d3d12xs_trace_on()) {
        d3d12_queue_trace_collect_locked(scheduler, d3d12xs_now_ns(), true);
        d3d12xs_trace_flush();
    }
    while (scheduler->engine_count)
        d3d12_engine_free_locked(scheduler, scheduler->engines[0]);
    pthread_mutex_unlock(&scheduler->lock);
    d3d12_retirement_collect(device, true); /* the serial semaphores those frees retired */
    d3d12_retirement_destroy(device);
    free(scheduler->engines);
    pthread_mutex_destroy(&scheduler->submit_lock);
    pthread_mutex_destroy(&scheduler->pending_lock);
    pthread_mutex_destroy(&scheduler->lock);
    free(scheduler);
    device->scheduler = NULL;
}
