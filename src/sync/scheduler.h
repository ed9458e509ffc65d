/* Queues and submission. */
#ifndef D3D12XS_SCHEDULER_H
#define D3D12XS_SCHEDULER_H

#include "device/device.h"
#include "sync/fence.h"

enum d3d12_queue_op_type {
    D3D12_QUEUE_OP_EXECUTE,
    D3D12_QUEUE_OP_SIGNAL,
    D3D12_QUEUE_OP_WAIT,
};

struct d3d12_query_reset {
    VkQueryPool pool;
    uint32_t index;
};

struct d3d12_queue_op {
    enum d3d12_queue_op_type type;
    uint64_t serial; /* value of the queue's serial semaphore once this op is done */
    union {
        struct {
            VkCommandBuffer *command_buffers;
            uint32_t count;
            struct d3d12_query_reset *host_query_resets; /* for transfer-only families */
            uint32_t host_query_reset_count;
            /* One reference per list: a held execution keeps the command buffers' pool alive. */
            struct d3d12_command_allocator **allocators;
        } execute;
        struct {
            struct d3d12_fence *fence; /* holds a reference while the op is queued */
            uint64_t value;
        } fence;
    } u;
};

struct d3d12_command_queue {
    ID3D12CommandQueue ID3D12CommandQueue_iface;
    struct d3d12xs_object object;
    D3D12_COMMAND_QUEUE_DESC desc;
    VkQueue vk_queue;
    uint32_t vk_family;
    bool transfer_only;

    /* all below under device->submit_lock */
    VkSemaphore serial_semaphore; /* counts finished operations */
    uint64_t next_serial;
    uint64_t submitted_serial;    /* last serial handed to Vulkan */
    struct d3d12_queue_op *held_ops; /* waiting for a signal nobody has submitted yet */
    size_t held_count, held_capacity;
    /* hang watchdog (fence_waiter.c), under device->submit_lock too */
    uint64_t watch_completed;
    uint64_t watch_since_ns;
};

struct d3d12_command_queue *unsafe_impl_from_ID3D12CommandQueue(ID3D12CommandQueue *iface);
HRESULT d3d12_command_queue_create(struct d3d12_device *device, const D3D12_COMMAND_QUEUE_DESC *desc, REFIID riid, void **queue);
uint64_t d3d12_command_queue_completed_serial(struct d3d12_command_queue *queue);

/* Queues an operation; submits it (and anything it unblocks) when its waits can be met.
 * Takes ownership of op's allocations and fence reference. */
HRESULT d3d12_queue_enqueue(struct d3d12_command_queue *queue, struct d3d12_queue_op *op, uint64_t *serial);
/* Drops submit_lock, then releases the fences that operations let go of meanwhile. */
void d3d12_device_unlock_submit(struct d3d12_device *device);
/* Submits held-back operations of every queue that a new signal unblocked; submit_lock held. */
void d3d12_device_flush_held_ops_locked(struct d3d12_device *device);
/* Waits (up to the hang timeout) until every queue has finished what was submitted so far. */
void d3d12_device_wait_queues_idle(struct d3d12_device *device, const char *method);
void d3d12_device_register_queue(struct d3d12_device *device, struct d3d12_command_queue *queue);
void d3d12_device_unregister_queue(struct d3d12_device *device, struct d3d12_command_queue *queue);

#endif
