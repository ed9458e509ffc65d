/* Engines: one per D3D12 queue (plus the scheduler's internal one), a VkQueue with a private
 * timeline semaphore, the serial, counting the engine's finished operations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sync/scheduler_state.h"
#include "trace/trace.h"

bool d3d12_engine_serial_done_soon(struct d3d12_engine *engine, uint64_t serial, uint64_t timeout_ns)
{
    struct d3d12_scheduler *scheduler = d3d12_scheduler_of(engine->device);
    uint64_t target;
    bool done;

    pthread_mutex_lock(&scheduler->lock);
    done = d3d12_engine_serial_done(engine, serial, d3d12_engine_completed(engine));
    /* Only work handed to Vulkan can finish by itself; held work needs an API call. */
    target = serial <= atomic_load(&engine->dropped_through) ? atomic_load(&engine->drop_wait_serial) : serial;
    if (!done && target > engine->submitted_serial)
        timeout_ns = 0;
    pthread_mutex_unlock(&scheduler->lock);
    if (done || !timeout_ns)
        return done;
    VkSemaphoreWaitInfo wait_info = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
        .semaphoreCount = 1,
        .pSemaphores = &engine->serial_semaphore,
        .pValues = &target,
    };
    return vkWaitSemaphores(engine->device->vk_device, &wait_info, timeout_ns) == VK_SUCCESS;
}

struct d3d12_engine *d3d12_engine_new(struct d3d12_device *device, D3D12_COMMAND_LIST_TYPE type, bool internal, int vk_queue_index,
        const char *method)
{
    struct d3d12_scheduler *scheduler = d3d12_scheduler_of(device);
    struct d3d12_queue_family_map *map = &device->queue_map[type];
    VkSemaphoreTypeCreateInfo type_info = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
        .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
    };
    VkSemaphoreCreateInfo create_info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type_info};
    struct d3d12_engine *engine;
    VkResult vr;

    if (!(engine = calloc(1, sizeof(*engine)))) {
        d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the queue's scheduler state");
        return NULL;
    }
    engine->device = device;
    engine->refcount = 1;
    engine->internal = internal;
    engine->type = type;
    engine->family = map->family;
    snprintf(engine->name, sizeof(engine->name), internal ? "d3d12xs internal" : "unnamed");
    engine->trace_track = d3d12xs_trace_new_queue_track();
    d3d12_queue_trace_name_engine(engine);
    if ((vr = vkCreateSemaphore(device->vk_device, &create_info, NULL, &engine->serial_semaphore)) != VK_SUCCESS) {
        d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "vkCreateSemaphore failed (VkResult %d)", vr);
        free(engine);
        return NULL;
    }
    pthread_mutex_lock(&scheduler->lock);
    if (!d3d12xs_array_reserve((void **)&scheduler->engines, &scheduler->engine_capacity, scheduler->engine_count + 1,
            sizeof(*scheduler->engines))) {
        pthread_mutex_unlock(&scheduler->lock);
        vkDestroySemaphore(device->vk_device, engine->serial_semaphore, NULL);
        free(engine);
        d3d12xs_fail(E_OUTOFMEMORY, method, "cannot register the queue");
        return NULL;
    }
    /* D3D12 queues beyond the family's VkQueue count share VkQueues, round-robin. */
    if (internal)
        engine->vk_queue = map->vk_queues[0];
    else if (vk_queue_index >= 0)
        engine->vk_queue = map->vk_queues[(uint32_t)vk_queue_index % map->vk_queue_count];
    else
        engine->vk_queue = map->vk_queues[map->next_vk_queue++ % map->vk_queue_count];
    scheduler->engines[scheduler->engine_count++] = engine;
    pthread_mutex_unlock(&scheduler->lock);
    return engine;
}

struct d3d12_engine *d3d12_engine_create(struct d3d12_device *device, D3D12_COMMAND_LIST_TYPE type, int vk_queue_index, const char *method)
{
    return d3d12_engine_new(device, type, false, vk_queue_index, method);
}

void d3d12_engine_add_ref(struct d3d12_engine *engine)
{
    struct d3d12_scheduler *scheduler = d3d12_scheduler_of(engine->device);
    pthread_mutex_lock(&scheduler->lock);
    engine->refcount++;
    pthread_mutex_unlock(&scheduler->lock);
}

void d3d12_engine_release(struct d3d12_engine *engine)
{
    struct d3d12_scheduler *scheduler = d3d12_scheduler_of(engine->device);
    pthread_mutex_lock(&scheduler->lock);
    engine->refcount--;
    pthread_mutex_unlock(&scheduler->lock);
}

void d3d12_engine_set_name(struct d3d12_engine *engine, const char *name)
{
    struct d3d12_scheduler *scheduler = d3d12_scheduler_of(engine->device);
    pthread_mutex_lock(&scheduler->lock);
    snprintf(engine->name, sizeof(engine->name), "%s", name);
    d3d12_queue_trace_name_engine(engine);
    pthread_mutex_unlock(&scheduler->lock);
}

uint32_t d3d12_engine_family(const struct d3d12_engine *engine)
{
    return engine->family;
}

static void bury_serial_semaphore(struct d3d12_device *device, void *semaphore)
{
    d3d12_bury_semaphore(device, (VkSemaphore)semaphore);
}

void d3d12_engine_free_locked(struct d3d12_scheduler *scheduler, struct d3d12_engine *engine)
{
    for (size_t i = 0; i < scheduler->engine_count; i++) {
        if (scheduler->engines[i] == engine) {
            scheduler->engines[i] = scheduler->engines[--scheduler->engine_count];
            break;
        }
    }
    /* Retired objects may still name it, if it finished after the last collection looked: its
     * work is done (or abandoned, at destruction), so it holds none of them up. */
    d3d12_retirement_forget_engine(engine->device, engine);
    /* Another queue's submission may still wait on this serial semaphore (a memory wait met
     * by it): it is buried once all work submitted so far has finished. */
    d3d12_retire_locked(scheduler, engine->device, bury_serial_semaphore, (void *)engine->serial_semaphore);
    d3d12_queue_trace_engine_free(engine);
    d3d12xs_trace_forget_track(engine->trace_track);
    free(engine->held_buffer);
    free(engine);
}

/* Engines nobody refers to go once their work, held work included, finished. */
void d3d12_engine_free_finished_locked(struct d3d12_scheduler *scheduler)
{
    for (size_t i = 0; i < scheduler->engine_count;) {
        struct d3d12_engine *engine = scheduler->engines[i];
        if (!engine->refcount && engine->orphaned && d3d12_engine_idle_locked(engine))
            d3d12_engine_free_locked(scheduler, engine);
        else
            i++;
    }
}

void d3d12_engine_note_inflight_locked(struct d3d12_engine *engine, const struct d3d12_op *op)
{
    struct d3d12_inflight *slot = &engine->inflight[engine->inflight_next++ % D3D12_INFLIGHT_RING];
    slot->serial = op->serial;
    slot->on_gpu_wait = op->kind == D3D12_OP_WAIT_MEMORY;
    if (slot->on_gpu_wait)
        slot->memory = op->u.wait_memory.memory;
    memcpy(slot->what, op->what, sizeof(slot->what));
    slot->has_commands = op->kind == D3D12_OP_EXECUTE && op->has_commands;
}

/* Known values of a run just handed over, newest last. */
void d3d12_engine_publish_writes_locked(struct d3d12_scheduler *scheduler, struct d3d12_engine *engine, const struct d3d12_op *op)
{
    const struct d3d12_op_execute *execute = &op->u.execute;
    for (uint32_t i = 0; i < execute->write_count; i++) {
        struct d3d12_published_write *slot = &engine->published[engine->published_next++ % D3D12_PUBLISHED_RING];
        slot->write = execute->writes[i];
        slot->serial = op->serial;
    }
    if (execute->write_count)
        scheduler->writes_published = true;
}
