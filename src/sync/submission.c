/* Submission: runs of ready operations become Vulkan submissions, decided in order under the
 * scheduler lock and queued; one thread at a time hands the queue to vkQueueSubmit2, with no
 * scheduler lock held, so a slow or blocking submission never stops the watchdog or another
 * queue's thread (a thread that finds a drainer at work leaves its submissions to it). Vulkan
 * sees the submissions in the order they were decided, which is what keeps every wait after
 * the signal it needs (scheduler.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sync/scheduler_state.h"

struct d3d12_pending_submit {
    struct d3d12_pending_submit *next;
    struct d3d12_engine *engine;    /* alive: its serial cannot finish before this is handed over */
    uint32_t wait_count, buffer_count, signal_count;
    VkSemaphoreSubmitInfo *waits, *signals;
    VkCommandBufferSubmitInfo *buffers;
};

static struct d3d12_pending_submit *pending_new(struct d3d12_engine *engine, uint32_t max_waits, uint32_t max_buffers, uint32_t max_signals)
{
    struct d3d12_pending_submit *pending;
    size_t size = sizeof(*pending) + (max_waits + max_signals) * sizeof(VkSemaphoreSubmitInfo) + max_buffers * sizeof(VkCommandBufferSubmitInfo);

    if (!(pending = malloc(size)))
        return NULL;
    memset(pending, 0, sizeof(*pending));
    pending->engine = engine;
    pending->waits = (VkSemaphoreSubmitInfo *)(pending + 1);
    pending->signals = pending->waits + max_waits;
    pending->buffers = (VkCommandBufferSubmitInfo *)(pending->signals + max_signals);
    return pending;
}

static void pending_append_locked(struct d3d12_scheduler *scheduler, struct d3d12_pending_submit *pending)
{
    pthread_mutex_lock(&scheduler->pending_lock);
    if (scheduler->pending_last)
        scheduler->pending_last->next = pending;
    else
        scheduler->pending_first = pending;
    scheduler->pending_last = pending;
    pthread_mutex_unlock(&scheduler->pending_lock);
}

static VkSemaphoreSubmitInfo semaphore_stages_info(VkSemaphore semaphore, uint64_t value, VkPipelineStageFlags2 stages)
{
    return (VkSemaphoreSubmitInfo){
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
        .semaphore = semaphore,
        .value = value,
        .stageMask = stages,
    };
}

/* Signals, and the waits d3d12xs adds for itself: every stage. */
static VkSemaphoreSubmitInfo semaphore_info(VkSemaphore semaphore, uint64_t value)
{
    return semaphore_stages_info(semaphore, value, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
}

static void add_buffer(struct d3d12_pending_submit *pending, VkCommandBuffer command_buffer)
{
    pending->buffers[pending->buffer_count++] = (VkCommandBufferSubmitInfo){
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
        .commandBuffer = command_buffer,
    };
}

/* A segment the engine's family cannot run (a transfer-only COPY list's query resets and
 * ResolveQueryData): it runs on the internal compute-capable engine, between this engine's
 * previous operation and its next one, and this engine's serial waits for it. */
static HRESULT take_helper_locked(struct d3d12_scheduler *scheduler, struct d3d12_engine *engine, struct d3d12_op *op)
{
    struct d3d12_engine *helper = scheduler->internal;
    const struct d3d12_op_execute *execute = &op->u.execute;
    struct d3d12_pending_submit *on_helper, *on_engine;

    if (!(on_helper = pending_new(helper, 1, execute->command_buffer_count, 1)))
        return E_OUTOFMEMORY;
    if (!(on_engine = pending_new(engine, 1, 0, 1))) {
        free(on_helper);
        return E_OUTOFMEMORY;
    }
    on_helper->waits[on_helper->wait_count++] = semaphore_info(engine->serial_semaphore, op->serial - 1);
    for (uint32_t i = 0; i < execute->command_buffer_count; i++)
        add_buffer(on_helper, execute->command_buffers[i]);
    on_helper->signals[on_helper->signal_count++] = semaphore_info(helper->serial_semaphore, ++helper->next_serial);
    helper->submitted_serial = helper->next_serial;
    on_engine->waits[on_engine->wait_count++] = semaphore_info(helper->serial_semaphore, helper->next_serial);
    on_engine->signals[on_engine->signal_count++] = semaphore_info(engine->serial_semaphore, op->serial);
    pending_append_locked(scheduler, on_helper);
    pending_append_locked(scheduler, on_engine);
    engine->submitted_serial = op->serial;
    d3d12_engine_note_inflight_locked(engine, op);
    return S_OK;
}

/* A run: an optional wait first, then executions and signals, as one VkSubmitInfo2 (it waits,
 * runs its command buffers, then signals). A queue Wait followed by a Signal thus costs one
 * submission, as in hand-written Vulkan. */
#define RUN_MAX 16
size_t d3d12_submission_take_run_locked(struct d3d12_scheduler *scheduler, struct d3d12_engine *engine, struct d3d12_op *ops, size_t count,
        HRESULT *hr)
{
    struct d3d12_device *device = engine->device;
    struct d3d12_timeline *signalled[RUN_MAX];
    struct d3d12_pending_submit *pending;
    uint32_t buffer_count = 0, signalled_count = 0;
    size_t n = 1;

    *hr = S_OK;
    if (ops[0].kind == D3D12_OP_EXECUTE && ops[0].u.execute.on_helper) {
        *hr = take_helper_locked(scheduler, engine, &ops[0]);
        return 1;
    }
    /* What may follow the first operation in the same submission. */
    if (ops[0].kind == D3D12_OP_EXECUTE)
        buffer_count = d3d12_queue_trace_buffer_count(&ops[0]);
    if (ops[0].kind == D3D12_OP_WAIT_MEMORY && ops[0].u.wait_memory.met_by == D3D12_MET_BY_SPIN)
        buffer_count = 1;
    if (ops[0].kind == D3D12_OP_SIGNAL)
        signalled[signalled_count++] = ops[0].u.signal.timeline;
    while (n < count && signalled_count < RUN_MAX) {
        const struct d3d12_op *op = &ops[n];
        bool repeated = false;
        /* A memory wait the GPU spins on, or one already met, goes inside the run: the flush
         * found every writer it needs submitted before it or with it. */
        if (d3d12_op_waits_inside_run(op)) {
            buffer_count += op->u.wait_memory.met_by == D3D12_MET_BY_SPIN;
            n++;
            continue;
        }
        if (op->kind == D3D12_OP_WAIT_FENCE || op->kind == D3D12_OP_WAIT_MEMORY || (op->kind == D3D12_OP_EXECUTE && op->u.execute.on_helper))
            break;
        for (uint32_t i = 0; i < signalled_count && op->kind == D3D12_OP_SIGNAL; i++)
            repeated |= signalled[i] == op->u.signal.timeline;
        if (repeated)
            break;
        if (op->kind == D3D12_OP_SIGNAL)
            signalled[signalled_count++] = op->u.signal.timeline;
        else
            buffer_count += d3d12_queue_trace_buffer_count(op);
        n++;
    }
    /* Room in each signalled fence's map first, so nothing fails once the run is decided. */
    for (uint32_t i = 0; i < signalled_count; i++) {
        if (!d3d12_fence_values_reserve_locked(signalled[i])) {
            *hr = E_OUTOFMEMORY;
            return 1;
        }
    }
    /* Waits: the internal engine's work, the run's first wait, one per signalled fence. */
    if (!(pending = pending_new(engine, RUN_MAX + 2, buffer_count, RUN_MAX + 1))) {
        *hr = E_OUTOFMEMORY;
        return 1;
    }

    /* Work the scheduler ran for itself (query initialisation) comes first everywhere. */
    if (scheduler->internal && engine != scheduler->internal && engine->internal_waited < scheduler->internal_serial) {
        pending->waits[pending->wait_count++] = semaphore_info(scheduler->internal->serial_semaphore, scheduler->internal_serial);
        engine->internal_waited = scheduler->internal_serial;
    }
    /* The semaphore value of the signal that meets the wait; none when the value was reached
     * already, or when the fence's release let the wait go (fence_values.c). Its stages are the
     * queue's (a WaitX may leave the indirect-argument fetch out). */
    if (ops[0].kind == D3D12_OP_WAIT_FENCE && ops[0].u.wait_fence.wait_virtual)
        pending->waits[pending->wait_count++] = semaphore_stages_info(ops[0].u.wait_fence.timeline->semaphore,
                ops[0].u.wait_fence.wait_virtual, ops[0].u.wait_fence.stages);
    if (ops[0].kind == D3D12_OP_WAIT_MEMORY && ops[0].u.wait_memory.met_by == D3D12_MET_BY_SEMAPHORE)
        pending->waits[pending->wait_count++] = semaphore_info(ops[0].u.wait_memory.writer->serial_semaphore, ops[0].u.wait_memory.writer_serial);
    for (size_t i = 0; i < n; i++) {
        struct d3d12_op *op = &ops[i];
        if (op->kind == D3D12_OP_WAIT_MEMORY || op->kind == D3D12_OP_WAIT_FENCE)
            d3d12_queue_trace_wait_locked(scheduler, engine, op);
        if (op->kind == D3D12_OP_WAIT_MEMORY && op->u.wait_memory.met_by == D3D12_MET_BY_SPIN) {
            add_buffer(pending, op->u.wait_memory.memory.gpu_command_buffer);
        } else if (op->kind == D3D12_OP_EXECUTE && !op->trace) {
            for (uint32_t b = 0; b < op->u.execute.command_buffer_count; b++)
                add_buffer(pending, op->u.execute.command_buffers[b]);
        } else if (op->kind == D3D12_OP_EXECUTE) {
            /* traced: timestamps around each segment */
            VkCommandBuffer stack[48], *buffers = stack;
            uint32_t count = d3d12_queue_trace_buffer_count(op);
            if (count > D3D12XS_ARRAY_SIZE(stack) && !(buffers = malloc(count * sizeof(*buffers)))) {
                d3d12_queue_trace_free(op->trace);
                op->trace = NULL;
                for (uint32_t b = 0; b < op->u.execute.command_buffer_count; b++)
                    add_buffer(pending, op->u.execute.command_buffers[b]);
                continue;
            }
            count = d3d12_queue_trace_execute_locked(engine, op, buffers);
            for (uint32_t b = 0; b < count; b++)
                add_buffer(pending, buffers[b]);
            if (buffers != stack)
                free(buffers);
        } else if (op->kind == D3D12_OP_SIGNAL) {
            struct d3d12_timeline *timeline = op->u.signal.timeline;
            uint64_t previous = d3d12_fence_values_last_virtual_locked(timeline), counter = 0;
            /* Another engine's signal of this fence may still be in flight. Vulkan requires a
             * timeline's signals to execute in increasing order, so this one waits for it: signals
             * of one fence take effect in the order they were submitted. */
            if (timeline->last_signal_engine && timeline->last_signal_engine != engine
                    && (vkGetSemaphoreCounterValue(device->vk_device, timeline->semaphore, &counter) != VK_SUCCESS || counter < previous))
                pending->waits[pending->wait_count++] = semaphore_info(timeline->semaphore, previous);
            /* Every signal takes the next virtual value, whatever its D3D12 value (lower, equal). */
            uint64_t virtual_value = d3d12_fence_values_add_signal_locked(device, timeline, op->u.signal.value);
            pending->signals[pending->signal_count++] = semaphore_info(timeline->semaphore, virtual_value);
            d3d12_queue_trace_signal_locked(engine, op, virtual_value);
            timeline->last_signal_engine = engine;
        }
    }
    /* The serial last: once it is seen, the batch's other signals are done too (lavapipe signals
     * in order), so objects retired by serial, fence semaphores included, are no longer in use.
     * Someone who saw one of the fence values first may find the serial a moment behind:
     * d3d12_engine_serial_done_soon() allows for that. */
    pending->signals[pending->signal_count++] = semaphore_info(engine->serial_semaphore, ops[n - 1].serial);
    pending_append_locked(scheduler, pending);
    engine->submitted_serial = ops[n - 1].serial;
    for (size_t i = 0; i < n; i++) {
        bool gpu_wait = ops[i].kind == D3D12_OP_WAIT_MEMORY && ops[i].u.wait_memory.met_by != D3D12_MET_IN_MEMORY;
        if (ops[i].kind == D3D12_OP_WAIT_MEMORY)
            gpu_wait ? scheduler->memory_waits_on_gpu++ : scheduler->memory_waits_on_host++;
        if (ops[i].kind == D3D12_OP_EXECUTE || gpu_wait)
            d3d12_engine_note_inflight_locked(engine, &ops[i]);
        if (ops[i].kind == D3D12_OP_EXECUTE)
            d3d12_engine_publish_writes_locked(scheduler, engine, &ops[i]);
    }
    return n;
}

static HRESULT hand_over(struct d3d12_pending_submit *pending)
{
    struct d3d12_engine *engine = pending->engine;
    struct d3d12_device *device = engine->device;
    VkSubmitInfo2 submit = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
        .waitSemaphoreInfoCount = pending->wait_count, .pWaitSemaphoreInfos = pending->waits,
        .commandBufferInfoCount = pending->buffer_count, .pCommandBufferInfos = pending->buffers,
        .signalSemaphoreInfoCount = pending->signal_count, .pSignalSemaphoreInfos = pending->signals,
    };
    VkResult vr = vkQueueSubmit2(engine->vk_queue, 1, &submit, VK_NULL_HANDLE);
    char why[160];

    if (vr == VK_SUCCESS)
        return S_OK;
    /* The submission's signals will never come: nothing later on this queue could run. */
    snprintf(why, sizeof(why), "vkQueueSubmit2 on queue '%s' failed (VkResult %d)", engine->name, vr);
    d3d12_device_mark_removed(device, DXGI_ERROR_DEVICE_REMOVED, why);
    return vr == VK_ERROR_OUT_OF_HOST_MEMORY || vr == VK_ERROR_OUT_OF_DEVICE_MEMORY ? E_OUTOFMEMORY : DXGI_ERROR_DEVICE_REMOVED;
}

/* Hands pending, then whatever was queued meanwhile, to Vulkan. Called with the submit lock
 * held and no other; returns with none. The submit lock is released under the pending lock,
 * once nothing is left: a thread that queues later (under that lock) then finds the submit
 * lock free, so no submission is left behind. */
static HRESULT hand_over_all(struct d3d12_scheduler *scheduler, struct d3d12_pending_submit *pending)
{
    HRESULT result = S_OK;

    for (;;) {
        while (pending) {
            struct d3d12_pending_submit *next = pending->next;
            HRESULT hr = hand_over(pending);
            if (FAILED(hr) && SUCCEEDED(result))
                result = hr;
            free(pending);
            pending = next;
        }
        pthread_mutex_lock(&scheduler->pending_lock);
        pending = scheduler->pending_first;
        scheduler->pending_first = scheduler->pending_last = NULL;
        if (!pending) {
            pthread_mutex_unlock(&scheduler->submit_lock);
            pthread_mutex_unlock(&scheduler->pending_lock);
            return result;
        }
        pthread_mutex_unlock(&scheduler->pending_lock);
    }
}

/* Takes the queued submissions if this thread may hand them over (the submit lock is free);
 * NULL when there are none or a drainer at work will take them. The submit lock is only tried,
 * never waited for. */
static struct d3d12_pending_submit *take_for_handing_over(struct d3d12_scheduler *scheduler)
{
    struct d3d12_pending_submit *pending = NULL;

    pthread_mutex_lock(&scheduler->pending_lock);
    if (scheduler->pending_first && !pthread_mutex_trylock(&scheduler->submit_lock)) {
        pending = scheduler->pending_first;
        scheduler->pending_first = scheduler->pending_last = NULL;
    }
    pthread_mutex_unlock(&scheduler->pending_lock);
    return pending;
}

HRESULT d3d12_submission_unlock_and_drain(struct d3d12_device *device)
{
    struct d3d12_scheduler *scheduler = d3d12_scheduler_of(device);
    struct d3d12_pending_submit *pending = take_for_handing_over(scheduler);

    pthread_mutex_unlock(&scheduler->lock);
    return pending ? hand_over_all(scheduler, pending) : S_OK;
}

HRESULT d3d12_submission_drain_all(struct d3d12_device *device)
{
    struct d3d12_scheduler *scheduler = d3d12_scheduler_of(device);
    pthread_mutex_lock(&scheduler->submit_lock);
    return hand_over_all(scheduler, NULL);
}

void d3d12_submission_discard_locked(struct d3d12_scheduler *scheduler)
{
    while (scheduler->pending_first) {
        struct d3d12_pending_submit *next = scheduler->pending_first->next;
        free(scheduler->pending_first);
        scheduler->pending_first = next;
    }
    scheduler->pending_last = NULL;
}
