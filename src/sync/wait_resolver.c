/* The wait resolver: the one readiness rule of each kind of wait, and the choice of how a
 * memory wait is met (in memory already, by queue order, by the writer queue's serial
 * semaphore, or by a spin), from the value writes engines have published or reach in the same
 * flush. Everything here runs under the scheduler lock and blocks on nothing. */
#include <string.h>

#include "sync/scheduler_state.h"

static const char *const comparison_names[] = {"?", "NEVER", "LESS", "EQUAL", "LESS_EQUAL", "GREATER", "NOT_EQUAL", "GREATER_EQUAL", "ALWAYS"};

const char *d3d12_comparison_name(D3D12_COMPARISON_FUNC comparison)
{
    return (unsigned)comparison < D3D12XS_ARRAY_SIZE(comparison_names) ? comparison_names[comparison] : "?";
}

bool d3d12_comparison_holds(D3D12_COMPARISON_FUNC comparison, uint64_t current, uint64_t value)
{
    switch (comparison) {
    case D3D12_COMPARISON_FUNC_NEVER: return false;
    case D3D12_COMPARISON_FUNC_LESS: return current < value;
    case D3D12_COMPARISON_FUNC_EQUAL: return current == value;
    case D3D12_COMPARISON_FUNC_LESS_EQUAL: return current <= value;
    case D3D12_COMPARISON_FUNC_GREATER: return current > value;
    case D3D12_COMPARISON_FUNC_NOT_EQUAL: return current != value;
    case D3D12_COMPARISON_FUNC_GREATER_EQUAL: return current >= value;
    case D3D12_COMPARISON_FUNC_ALWAYS: return true;
    default: return false;
    }
}

bool d3d12_memory_wait_ready(const struct d3d12_memory_wait *wait, uint64_t *current)
{
    uint64_t value = wait->size == 8 ? __atomic_load_n((const volatile uint64_t *)wait->host_address, __ATOMIC_ACQUIRE)
            : __atomic_load_n((const volatile uint32_t *)wait->host_address, __ATOMIC_ACQUIRE);
    if (current)
        *current = value;
    return d3d12_comparison_holds(wait->comparison, value, wait->value);
}

/* The newest known value the writer engine puts at the wait's address, and the serial of the
 * operation that writes it: among the newest writes of the operations the flush found able to
 * go in this pass (with_reached), else among those handed over and not yet finished. Both are
 * rings of the last D3D12_PUBLISHED_RING writes: an older one is not found, and the wait is
 * then met by the host, never wrongly. */
static const struct d3d12_value_write *newest_write_locked(struct d3d12_engine *writer, bool with_reached,
        const struct d3d12_memory_wait *wait, uint64_t *serial)
{
    uint64_t completed = 0;
    bool completed_read = false;

    for (unsigned i = 1; with_reached && i <= D3D12_PUBLISHED_RING && i <= writer->reached_next; i++) {
        const struct d3d12_published_write *slot = &writer->reached[(writer->reached_next - i) % D3D12_PUBLISHED_RING];
        if (slot->write.gpu_address == wait->gpu_address && slot->write.size == wait->size) {
            *serial = slot->serial;
            return &slot->write;
        }
    }
    for (unsigned i = 1; i <= D3D12_PUBLISHED_RING && i <= writer->published_next; i++) {
        const struct d3d12_published_write *slot = &writer->published[(writer->published_next - i) % D3D12_PUBLISHED_RING];
        if (slot->write.gpu_address == wait->gpu_address && slot->write.size == wait->size) {
            /* A finished write says nothing more than memory does, and its address may since
             * belong to other memory (freed and allocated again): only pending writes count. */
            if (!completed_read)
                completed = d3d12_engine_completed(writer), completed_read = true;
            if (slot->serial <= completed)
                return NULL;
            *serial = slot->serial;
            return &slot->write;
        }
    }
    return NULL;
}

/* Whether the GPU may wait out a memory wait on this engine, and how (docs/sync.md). A write
 * that satisfies it must already be handed over, or be among what the writer's queue reaches
 * in this flush (handed over with it), so that everything the wait depends on is submitted
 * with or before it (no cycle). Then, per pair of queues:
 *   - the writer shares this engine's VkQueue: nothing to add. The barrier that starts the
 *     segment after the wait (src ALL_COMMANDS, MEMORY_WRITE) orders it after everything
 *     submitted earlier to that VkQueue, the write included (lavapipe has only one VkQueue);
 *     the write must be handed over already (queue order needs it first);
 *   - the writer is on another family: the submission waits for the writer queue's serial
 *     semaphore to reach the writer's operation (7 us a hop on the H200, where the host round
 *     trip costs 36); with D3D12XS_GPU_WAITS=spin, the spin shader instead, where it exists and
 *     no other queue shares this engine's family (a shader spinning on one queue stops the
 *     other queues of its family, ../shared/DEVICE.md);
 *   - otherwise (another queue of the same family: semaphores cost 170 us there) the host
 *     holds the work until it sees the value.
 * FORCE spins whenever the spin exists and a writer was submitted, SEMAPHORE waits on the
 * writer's serial semaphore then (tests: lavapipe runs submissions one at a time, in order).
 * simulated: NULL, or for each engine how many of its held operations the flush found able to
 * go in this pass; their writes (each engine's reached ring) then count as handed over where
 * the writer progresses on its own. */
static bool gpu_waitable_locked(struct d3d12_scheduler *scheduler, struct d3d12_engine *engine, struct d3d12_op_wait_memory *op,
        const size_t *simulated)
{
    const struct d3d12_memory_wait *wait = &op->memory;
    enum d3d12_gpu_wait_mode mode = engine->device->gpu_wait_mode;
    bool can_spin = wait->gpu_command_buffer != VK_NULL_HANDLE;

    if (mode == D3D12_GPU_WAITS_OFF || wait->comparison == D3D12_COMPARISON_FUNC_NEVER)
        return false;
    for (size_t e = 0; e < scheduler->engine_count && can_spin && mode == D3D12_GPU_WAITS_SPIN; e++) {
        struct d3d12_engine *other = scheduler->engines[e];
        if (other != engine && other->family == engine->family && (!other->internal || !d3d12_engine_idle_locked(other)))
            can_spin = false;
    }
    for (size_t e = 0; e < scheduler->engine_count; e++) {
        struct d3d12_engine *writer = scheduler->engines[e];
        bool same_queue = writer->vk_queue == engine->vk_queue; /* this engine too: its earlier writes */
        bool other_family = writer->family != engine->family;
        bool spin = can_spin && (mode == D3D12_GPU_WAITS_FORCE || other_family);
        bool semaphore = !spin && writer != engine && !writer->internal && (other_family || mode == D3D12_GPU_WAITS_SEMAPHORE);
        const struct d3d12_value_write *write;
        uint64_t serial = 0;
        if (!spin && !same_queue && !semaphore)
            continue;
        /* What other engines only reached in this pass counts where they progress on their own
         * (another family); elsewhere (one VkQueue, one family) the writer must be handed over
         * already: only the published writes are looked at. */
        bool independent = writer == engine || (mode != D3D12_GPU_WAITS_FORCE && other_family);
        write = newest_write_locked(writer, simulated && independent, wait, &serial);
        if (!write || !d3d12_comparison_holds(wait->comparison, write->value, wait->value))
            continue;
        op->met_by = semaphore ? D3D12_MET_BY_SEMAPHORE : spin ? D3D12_MET_BY_SPIN : D3D12_MET_BY_QUEUE_ORDER;
        op->writer = writer;
        op->writer_serial = serial;
        return true;
    }
    return false;
}

bool d3d12_op_ready_locked(struct d3d12_scheduler *scheduler, struct d3d12_engine *engine, struct d3d12_op *op, const size_t *simulated)
{
    switch (op->kind) {
    case D3D12_OP_WAIT_FENCE: {
        /* Ready once the value is reached or a signal of enough value is handed to Vulkan (or
         * the fence is released and nothing enqueued reaches it); from then on it stays ready,
         * even if a lower signal comes before it is submitted (a parked wait). */
        struct d3d12_op_fence *wait = &op->u.wait_fence;
        if (!wait->resolved)
            wait->resolved = d3d12_fence_values_resolve_wait_locked(engine->device, wait->timeline, wait->value, &wait->wait_virtual);
        return wait->resolved;
    }
    case D3D12_OP_WAIT_MEMORY: {
        struct d3d12_op_wait_memory *wait = &op->u.wait_memory;
        wait->writer = NULL;
        wait->met_by = D3D12_MET_NOT_YET;
        if (d3d12_memory_wait_ready(&wait->memory, NULL)) {
            wait->met_by = D3D12_MET_IN_MEMORY;
            return true;
        }
        return gpu_waitable_locked(scheduler, engine, wait, simulated);
    }
    default: return true;
    }
}

/* Plays the engines' held operations forward together: a memory wait passes when a write that
 * satisfies it is handed over or among what the other engines reached. Such an order exists,
 * so handing every engine its reached operations at once cannot deadlock, and a ping-pong of
 * many hops costs one submission per engine instead of one per hop. */
void d3d12_resolver_simulate_locked(struct d3d12_scheduler *scheduler, size_t *reach)
{
    bool moved = true;

    memset(reach, 0, scheduler->engine_count * sizeof(*reach));
    for (size_t e = 0; e < scheduler->engine_count; e++)
        scheduler->engines[e]->reached_next = 0;
    while (moved) {
        moved = false;
        for (size_t e = 0; e < scheduler->engine_count; e++) {
            struct d3d12_engine *engine = scheduler->engines[e];
            while (reach[e] < engine->held_count && d3d12_op_ready_locked(scheduler, engine, &engine->held[reach[e]], reach)) {
                const struct d3d12_op *op = &engine->held[reach[e]++];
                if (op->kind == D3D12_OP_EXECUTE)
                    for (uint32_t w = 0; w < op->u.execute.write_count; w++)
                        engine->reached[engine->reached_next++ % D3D12_PUBLISHED_RING]
                                = (struct d3d12_published_write){op->u.execute.writes[w], op->serial};
                moved = true;
            }
        }
    }
}
