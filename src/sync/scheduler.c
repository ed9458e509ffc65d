/* Queue submission. A queue Wait whose value nobody has submitted a signal for yet is held
 * back, with everything queued after it, until a queue Signal or a CPU Signal provides the
 * value. Vulkan then only ever sees waits whose signals were submitted first, which cannot
 * deadlock even when several D3D12 queues share one VkQueue (lavapipe has exactly one).
 * Nothing here needs a thread: only an API call can provide a missing signal, and each such
 * call flushes what it unblocked. */
#include <stdlib.h>
#include <string.h>

#include "sync/scheduler.h"
#include "commands/command_allocator.h"

static bool op_is_ready_locked(const struct d3d12_queue_op *op)
{
    return op->type != D3D12_QUEUE_OP_WAIT || op->u.fence.fence->submitted_value >= op->u.fence.value;
}

/* Released once the submit lock is dropped: a last release may wait on the queues. */
static void defer_release(struct d3d12_device *device, IUnknown *object)
{
    if (d3d12xs_array_reserve((void **)&device->deferred_releases, &device->deferred_release_capacity,
            device->deferred_release_count + 1, sizeof(*device->deferred_releases)))
        device->deferred_releases[device->deferred_release_count++] = object;
    else
        ERR("out of memory: a reference held by a queue operation is leaked");
}

static void op_cleanup(struct d3d12_device *device, struct d3d12_queue_op *op)
{
    if (op->type == D3D12_QUEUE_OP_EXECUTE) {
        for (uint32_t i = 0; i < op->u.execute.count; i++)
            defer_release(device, (IUnknown *)&op->u.execute.allocators[i]->ID3D12CommandAllocator_iface);
        free(op->u.execute.allocators);
        free(op->u.execute.command_buffers);
        free(op->u.execute.host_query_resets);
    } else if (op->u.fence.fence) {
        defer_release(device, (IUnknown *)&op->u.fence.fence->ID3D12Fence_iface);
    }
}

void d3d12_device_unlock_submit(struct d3d12_device *device)
{
    IUnknown *stack[16], **objects = stack;
    size_t count = device->deferred_release_count;

    if (count > D3D12XS_ARRAY_SIZE(stack) && !(objects = malloc(count * sizeof(*objects)))) {
        pthread_mutex_unlock(&device->submit_lock);
        return; /* keep them queued for the next unlock */
    }
    if (count) /* the array is NULL until a first release is deferred */
        memcpy(objects, device->deferred_releases, count * sizeof(*objects));
    device->deferred_release_count = 0;
    pthread_mutex_unlock(&device->submit_lock);
    for (size_t i = 0; i < count; i++)
        IUnknown_Release(objects[i]);
    if (objects != stack)
        free(objects);
}

/* Hands one operation to Vulkan; the submit lock is held. */
static HRESULT submit_op_locked(struct d3d12_command_queue *queue, struct d3d12_queue_op *op)
{
    struct d3d12_device *device = queue->object.device;
    VkCommandBufferSubmitInfo command_buffer_stack[8], *command_buffers = command_buffer_stack;
    VkSemaphoreSubmitInfo signals[2], wait;
    VkSubmitInfo2 submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    VkResult vr;

    memset(signals, 0, sizeof(signals));
    signals[0].sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO;
    signals[0].semaphore = queue->serial_semaphore;
    signals[0].value = op->serial;
    signals[0].stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    submit.signalSemaphoreInfoCount = 1;
    submit.pSignalSemaphoreInfos = signals;

    switch (op->type) {
    case D3D12_QUEUE_OP_EXECUTE:
        if (op->u.execute.count > D3D12XS_ARRAY_SIZE(command_buffer_stack)
                && !(command_buffers = calloc(op->u.execute.count, sizeof(*command_buffers))))
            return E_OUTOFMEMORY;
        for (uint32_t i = 0; i < op->u.execute.count; i++) {
            command_buffers[i] = (VkCommandBufferSubmitInfo){
                .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                .commandBuffer = op->u.execute.command_buffers[i],
            };
        }
        submit.commandBufferInfoCount = op->u.execute.count;
        submit.pCommandBufferInfos = command_buffers;
        /* Transfer-only families cannot reset queries in a command buffer. */
        for (uint32_t i = 0; i < op->u.execute.host_query_reset_count; i++)
            vkResetQueryPool(device->vk_device, op->u.execute.host_query_resets[i].pool, op->u.execute.host_query_resets[i].index, 1);
        break;
    case D3D12_QUEUE_OP_SIGNAL: {
        struct d3d12_fence *fence = op->u.fence.fence;
        fence->used_by_queue = true;
        if (op->u.fence.value <= fence->submitted_value) {
            /* Vulkan timelines cannot go back or repeat a value: the signal is dropped. */
            WARN("ID3D12CommandQueue::Signal: fence '%s' value %llu is not above %llu, already signalled; ignored",
                    d3d12xs_object_name(&fence->object), (unsigned long long)op->u.fence.value,
                    (unsigned long long)fence->submitted_value);
            break;
        }
        signals[1] = signals[0];
        signals[1].semaphore = fence->vk_semaphore;
        signals[1].value = op->u.fence.value;
        submit.signalSemaphoreInfoCount = 2;
        /* Another queue's signal of this fence may still be in flight. Vulkan requires a
         * timeline's signals to execute in increasing order, so this one waits for it: signals
         * of one fence take effect in the order they were submitted. */
        if (fence->last_signal_queue && fence->last_signal_queue != queue
                && d3d12_fence_completed_value(fence) < fence->submitted_value) {
            wait = (VkSemaphoreSubmitInfo){
                .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
                .semaphore = fence->vk_semaphore,
                .value = fence->submitted_value,
                .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
            };
            submit.waitSemaphoreInfoCount = 1;
            submit.pWaitSemaphoreInfos = &wait;
        }
        fence->last_signal_queue = queue;
        fence->submitted_value = op->u.fence.value;
        fence->gpu_signal_value = op->u.fence.value;
        break;
    }
    case D3D12_QUEUE_OP_WAIT:
        op->u.fence.fence->used_by_queue = true;
        wait = (VkSemaphoreSubmitInfo){
            .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
            .semaphore = op->u.fence.fence->vk_semaphore,
            .value = op->u.fence.value,
            .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
        };
        submit.waitSemaphoreInfoCount = 1;
        submit.pWaitSemaphoreInfos = &wait;
        break;
    }

    vr = vkQueueSubmit2(queue->vk_queue, 1, &submit, VK_NULL_HANDLE);
    if (command_buffers != command_buffer_stack)
        free(command_buffers);
    if (vr != VK_SUCCESS) {
        ERR("vkQueueSubmit2 on queue '%s' failed (VkResult %d)", d3d12xs_object_name(&queue->object), vr);
        return d3d12xs_hresult_from_vk(device, vr);
    }
    queue->submitted_serial = op->serial;
    return S_OK;
}

static void hold_op_locked(struct d3d12_command_queue *queue, struct d3d12_queue_op *op)
{
    struct d3d12_device *device = queue->object.device;
    if (!queue->held_count)
        device->held_queue_count++;
    queue->held_ops[queue->held_count++] = *op;
}

/* Submits the ready front of every queue's held operations until nothing moves. */
void d3d12_device_flush_held_ops_locked(struct d3d12_device *device)
{
    bool progress = true;

    while (progress && device->held_queue_count) {
        progress = false;
        for (size_t q = 0; q < device->queue_count; q++) {
            struct d3d12_command_queue *queue = device->queues[q];
            size_t done = 0;
            while (done < queue->held_count && op_is_ready_locked(&queue->held_ops[done])) {
                submit_op_locked(queue, &queue->held_ops[done]);
                op_cleanup(device, &queue->held_ops[done]);
                done++;
            }
            if (!done)
                continue;
            progress = true;
            memmove(queue->held_ops, queue->held_ops + done, (queue->held_count - done) * sizeof(*queue->held_ops));
            queue->held_count -= done;
            if (!queue->held_count)
                device->held_queue_count--;
        }
    }
}

HRESULT d3d12_queue_enqueue(struct d3d12_command_queue *queue, struct d3d12_queue_op *op, uint64_t *serial)
{
    struct d3d12_device *device = queue->object.device;
    HRESULT hr = S_OK;

    pthread_mutex_lock(&device->submit_lock);
    op->serial = ++queue->next_serial;
    if (serial)
        *serial = op->serial;
    if (!queue->held_count && op_is_ready_locked(op)) {
        hr = submit_op_locked(queue, op);
        op_cleanup(device, op);
        if (op->type == D3D12_QUEUE_OP_SIGNAL && device->held_queue_count)
            d3d12_device_flush_held_ops_locked(device);
    } else if (!d3d12xs_array_reserve((void **)&queue->held_ops, &queue->held_capacity, queue->held_count + 1, sizeof(*queue->held_ops))) {
        op_cleanup(device, op);
        hr = E_OUTOFMEMORY;
    } else {
        TRACE("queue '%s': operation %llu held until its wait can be met", d3d12xs_object_name(&queue->object),
                (unsigned long long)op->serial);
        hold_op_locked(queue, op);
    }
    d3d12_device_unlock_submit(device);
    d3d12_fence_waiter_kick(device);
    return hr;
}

void d3d12_device_register_queue(struct d3d12_device *device, struct d3d12_command_queue *queue)
{
    pthread_mutex_lock(&device->submit_lock);
    if (d3d12xs_array_reserve((void **)&device->queues, &device->queue_capacity, device->queue_count + 1, sizeof(*device->queues)))
        device->queues[device->queue_count++] = queue;
    else
        ERR("out of memory: queue '%s' will not be flushed", d3d12xs_object_name(&queue->object));
    pthread_mutex_unlock(&device->submit_lock);
}

void d3d12_device_unregister_queue(struct d3d12_device *device, struct d3d12_command_queue *queue)
{
    pthread_mutex_lock(&device->submit_lock);
    if (queue->held_count) {
        WARN("queue '%s' released with %zu operations still waiting for fence values; they are dropped",
                d3d12xs_object_name(&queue->object), queue->held_count);
        for (size_t i = 0; i < queue->held_count; i++)
            op_cleanup(device, &queue->held_ops[i]);
        queue->held_count = 0;
        device->held_queue_count--;
    }
    for (size_t i = 0; i < device->queue_count; i++) {
        if (device->queues[i] == queue) {
            device->queues[i] = device->queues[--device->queue_count];
            break;
        }
    }
    d3d12_device_unlock_submit(device);
}

/* After a removal, work submitted before it may still be running (a hang is declared on
 * slow work too): releases wait this long for it before they free what it uses. */
#define REMOVED_DRAIN_MS 10000u

void d3d12_device_wait_queues_idle(struct d3d12_device *device, const char *method)
{
    VkSemaphore *semaphores = NULL;
    uint64_t *values = NULL;
    size_t count;

    pthread_mutex_lock(&device->submit_lock);
    count = device->queue_count;
    if (count && (semaphores = malloc(count * sizeof(*semaphores))) && (values = malloc(count * sizeof(*values)))) {
        for (size_t i = 0; i < count; i++) {
            semaphores[i] = device->queues[i]->serial_semaphore;
            values[i] = device->queues[i]->submitted_serial;
        }
    } else {
        count = 0;
    }
    pthread_mutex_unlock(&device->submit_lock);

    if (count) {
        unsigned timeout_ms = atomic_load(&device->hang_timeout_ms);
        VkSemaphoreWaitInfo wait_info = {
            .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
            .semaphoreCount = (uint32_t)count,
            .pSemaphores = semaphores,
            .pValues = values,
        };
        VkResult vr = VK_TIMEOUT;
        if (d3d12_device_removed_reason(device) == S_OK) {
            vr = vkWaitSemaphores(device->vk_device, &wait_info, timeout_ms ? (uint64_t)timeout_ms * 1000000 : UINT64_MAX);
            if (vr == VK_TIMEOUT)
                d3d12_device_mark_removed(device, DXGI_ERROR_DEVICE_HUNG, method);
            else if (vr != VK_SUCCESS)
                d3d12xs_hresult_from_vk(device, vr);
        }
        /* Removed: still let the work drain so that nothing is freed under it, but give up
         * (once for the device) on work that never ends. */
        if (vr == VK_TIMEOUT && !atomic_load(&device->removed_drain_abandoned)) {
            unsigned drain_ms = timeout_ms > REMOVED_DRAIN_MS ? timeout_ms : REMOVED_DRAIN_MS;
            vr = vkWaitSemaphores(device->vk_device, &wait_info, (uint64_t)drain_ms * 1000000);
            if (vr == VK_TIMEOUT) {
                atomic_store(&device->removed_drain_abandoned, true);
                WARN("%s: work submitted before the device was removed still runs after %u ms; objects it uses are freed anyway",
                        method, drain_ms);
            }
        }
    }
    free(semaphores);
    free(values);
}
