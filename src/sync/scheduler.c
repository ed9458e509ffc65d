/* The scheduler (see scheduler.h): engines, queue operations and their waits, held work,
 * retirement of Vulkan objects by serial, and the hang watchdog's view of all of them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sync/scheduler.h"

enum op_type {
    OP_EXECUTE,
    OP_SIGNAL,
    OP_WAIT_FENCE,
    OP_WAIT_MEMORY,
};

struct op {
    enum op_type type;
    uint64_t serial;
    uint64_t enqueued_ns;
    struct d3d12_timeline *timeline;     /* SIGNAL, WAIT_FENCE: holds a reference */
    uint64_t value;
    struct d3d12_memory_wait memory;     /* WAIT_MEMORY */
    VkCommandBuffer *command_buffers;    /* EXECUTE */
    uint32_t command_buffer_count;
    bool on_helper;
    struct d3d12_query_reset *resets;
    uint32_t reset_count;
    struct d3d12_value_write *writes;    /* EXECUTE: known values its segments write */
    uint32_t write_count;
    bool gpu_wait;                       /* WAIT_MEMORY: ready because the GPU will wait it out: */
    bool queue_order;                    /*    the writer is earlier on the same VkQueue, */
    struct d3d12_engine *writer;         /*    or this engine's serial semaphore reaches writer_serial, */
    uint64_t writer_serial;              /*    (else: the spin shader) */
    bool inline_wait;                    /* WAIT_MEMORY: may sit inside a run (a spin, or already met) */
    char what[96];                       /* "list 'x' segment 2 (call 17)": for hang reports */
};

/* What an engine last handed to Vulkan, for naming the work that stopped progressing. */
#define INFLIGHT_RING 8
struct inflight {
    uint64_t serial;
    bool on_gpu_wait;                    /* a GPU-side memory wait: the report reads memory */
    struct d3d12_memory_wait memory;
    char what[96];
};

/* A known value handed to Vulkan: later memory waits for it may wait on the GPU. */
#define PUBLISHED_RING 32
struct published_write {
    struct d3d12_value_write write;
    uint64_t serial;
};

struct d3d12_engine {
    struct d3d12_device *device;
    unsigned refcount;          /* the queue's, plus one per allocator that used it */
    bool orphaned;              /* its queue is gone */
    bool internal;              /* the scheduler's own compute-capable engine */
    D3D12_COMMAND_LIST_TYPE type;
    VkQueue vk_queue;
    uint32_t family;
    VkSemaphore serial_semaphore;
    uint64_t next_serial;       /* last serial handed out */
    uint64_t submitted_serial;  /* last serial handed to Vulkan */
    uint64_t dropped_through;   /* serials up to this were dropped unsubmitted... */
    uint64_t drop_wait_serial;  /* ...and count as done once this one is */
    uint64_t internal_waited;   /* internal-engine serial this engine's work already waits for */
    bool parked;                /* held[0] is a ready fence wait kept for the next operation's submission */
    struct op *held;            /* held_count operations, from held_first within held_buffer */
    struct op *held_buffer;
    size_t held_count, held_capacity;
    uint64_t watch_completed, watch_since_ns;
    struct inflight inflight[INFLIGHT_RING];
    unsigned inflight_next;
    struct published_write published[PUBLISHED_RING];
    unsigned published_next;
    struct published_write reached[PUBLISHED_RING]; /* the newest writes of held[0, reach) in a flush's pass */
    unsigned reached_next;
    char name[64];
};

struct engine_serial {
    struct d3d12_engine *engine;
    uint64_t serial;
};

struct retired_object {
    d3d12_retire_fn destroy;
    void *object;
    struct engine_serial *pending;
    uint32_t pending_count;
};

/* How long a ready queue Wait may wait for the next operation of its queue (enqueue_locked). */
#define PARK_NS (20ull * 1000)

/* A semaphore whose last signal has been seen, kept a while before it is destroyed. */
struct buried_semaphore {
    VkSemaphore semaphore;
    uint64_t since_ns;
};

struct d3d12_scheduler {
    pthread_mutex_t lock;
    pthread_mutex_t graveyard_lock; /* may be taken with or without the lock above */
    struct buried_semaphore *graveyard;
    size_t graveyard_count, graveyard_capacity;
    struct d3d12_engine **engines;
    size_t engine_count, engine_capacity;
    struct d3d12_engine *internal;    /* query initialisation and helper segments */
    uint64_t internal_serial;         /* every engine waits for this internal serial first */
    unsigned held_engine_count;
    unsigned memory_wait_count;       /* held memory waits: the waiter polls while any exist */
    bool writes_published;            /* a submission published known values: look at held waits */
    unsigned parked_count;            /* engines with a parked fence wait (the waiter submits them soon) */
    uint64_t parked_since_ns;         /* when the oldest of them was parked */
    uint64_t memory_waits_on_host, memory_waits_on_gpu;
    struct retired_object *retired;
    size_t retired_count, retired_capacity;
};

static struct d3d12_scheduler *scheduler_of(struct d3d12_device *device)
{
    return device->scheduler;
}

/* Semaphores are destroyed a while after their work is seen finished, not at once: lavapipe's
 * queue thread can still touch a timeline it has just signalled (both crashes of that thread
 * seen in testing followed such a destruction). */
#define SEMAPHORE_BURIAL_NS (500ull * 1000 * 1000)

static void bury_semaphore(struct d3d12_device *device, VkSemaphore semaphore)
{
    struct d3d12_scheduler *scheduler = scheduler_of(device);
    pthread_mutex_lock(&scheduler->graveyard_lock);
    if (d3d12xs_array_reserve((void **)&scheduler->graveyard, &scheduler->graveyard_capacity, scheduler->graveyard_count + 1,
            sizeof(*scheduler->graveyard)))
        scheduler->graveyard[scheduler->graveyard_count++] = (struct buried_semaphore){semaphore, d3d12xs_now_ns()};
    else
        vkDestroySemaphore(device->vk_device, semaphore, NULL);
    pthread_mutex_unlock(&scheduler->graveyard_lock);
}

/* Destroys the semaphores buried long enough ago (all of them when force); returns how many
 * are left. */
static size_t empty_graveyard(struct d3d12_device *device, bool force)
{
    struct d3d12_scheduler *scheduler = scheduler_of(device);
    uint64_t now = d3d12xs_now_ns();
    size_t kept = 0;
    pthread_mutex_lock(&scheduler->graveyard_lock);
    for (size_t i = 0; i < scheduler->graveyard_count; i++) {
        if (force || now - scheduler->graveyard[i].since_ns > SEMAPHORE_BURIAL_NS)
            vkDestroySemaphore(device->vk_device, scheduler->graveyard[i].semaphore, NULL);
        else
            scheduler->graveyard[kept++] = scheduler->graveyard[i];
    }
    scheduler->graveyard_count = kept;
    pthread_mutex_unlock(&scheduler->graveyard_lock);
    return kept;
}

/* ---- engines ---- */

static uint64_t engine_completed(struct d3d12_engine *engine)
{
    uint64_t value = 0;
    if (vkGetSemaphoreCounterValue(engine->device->vk_device, engine->serial_semaphore, &value) != VK_SUCCESS)
        return UINT64_MAX;
    return value;
}

static bool engine_serial_done_locked(struct d3d12_engine *engine, uint64_t serial, uint64_t completed)
{
    return completed >= serial || (serial <= engine->dropped_through && completed >= engine->drop_wait_serial);
}

bool d3d12_engine_serial_done_soon(struct d3d12_engine *engine, uint64_t serial, uint64_t timeout_ns)
{
    struct d3d12_scheduler *scheduler = scheduler_of(engine->device);
    uint64_t target;
    bool done;

    pthread_mutex_lock(&scheduler->lock);
    done = engine_serial_done_locked(engine, serial, engine_completed(engine));
    /* Only work handed to Vulkan can finish by itself; held work needs an API call. */
    target = serial <= engine->dropped_through ? engine->drop_wait_serial : serial;
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

static bool engine_idle_locked(struct d3d12_engine *engine)
{
    return engine_serial_done_locked(engine, engine->next_serial, engine_completed(engine));
}

static struct d3d12_engine *engine_new(struct d3d12_device *device, D3D12_COMMAND_LIST_TYPE type, bool internal, int vk_queue_index,
        const char *method)
{
    struct d3d12_scheduler *scheduler = scheduler_of(device);
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
    return engine_new(device, type, false, vk_queue_index, method);
}

void d3d12_engine_add_ref(struct d3d12_engine *engine)
{
    struct d3d12_scheduler *scheduler = scheduler_of(engine->device);
    pthread_mutex_lock(&scheduler->lock);
    engine->refcount++;
    pthread_mutex_unlock(&scheduler->lock);
}

void d3d12_engine_set_name(struct d3d12_engine *engine, const char *name)
{
    struct d3d12_scheduler *scheduler = scheduler_of(engine->device);
    pthread_mutex_lock(&scheduler->lock);
    snprintf(engine->name, sizeof(engine->name), "%s", name);
    pthread_mutex_unlock(&scheduler->lock);
}

uint32_t d3d12_engine_family(const struct d3d12_engine *engine)
{
    return engine->family;
}

static void timeline_release_locked(struct d3d12_device *device, struct d3d12_timeline *timeline);

static void op_cleanup_locked(struct d3d12_device *device, struct op *op)
{
    if (op->timeline)
        timeline_release_locked(device, op->timeline);
    free(op->command_buffers);
    free(op->resets);
    free(op->writes);
    memset(op, 0, sizeof(*op));
}

/* Held work that will never run: its serials count as done once the submitted work is. */
static void engine_drop_held_locked(struct d3d12_engine *engine, const char *why)
{
    struct d3d12_scheduler *scheduler = scheduler_of(engine->device);
    if (!engine->held_count)
        return;
    /* After a removal the removal itself was the one line; a released queue is news. */
    if (d3d12_device_removed_reason(engine->device) == S_OK)
        WARN("queue '%s': %zu operations still waiting are dropped (%s)", engine->name, engine->held_count, why);
    else
        TRACE("queue '%s': %zu operations still waiting are dropped (%s)", engine->name, engine->held_count, why);
    for (size_t i = 0; i < engine->held_count; i++) {
        if (engine->held[i].type == OP_WAIT_MEMORY)
            scheduler->memory_wait_count--;
        op_cleanup_locked(engine->device, &engine->held[i]);
    }
    engine->held_count = 0;
    engine->held = engine->held_buffer;
    scheduler->held_engine_count--;
    engine->dropped_through = engine->next_serial;
    engine->drop_wait_serial = engine->submitted_serial;
}

static void retire_locked(struct d3d12_scheduler *scheduler, struct d3d12_device *device, d3d12_retire_fn destroy, void *object);

static void bury_serial_semaphore(struct d3d12_device *device, void *semaphore)
{
    bury_semaphore(device, (VkSemaphore)semaphore);
}

static void engine_free_locked(struct d3d12_scheduler *scheduler, struct d3d12_engine *engine)
{
    for (size_t i = 0; i < scheduler->engine_count; i++) {
        if (scheduler->engines[i] == engine) {
            scheduler->engines[i] = scheduler->engines[--scheduler->engine_count];
            break;
        }
    }
    /* Retired objects may still name it, if it finished after collect_retired last looked:
     * its work is done (or abandoned, at destruction), so it holds none of them up. */
    for (size_t i = 0; i < scheduler->retired_count; i++) {
        struct retired_object *entry = &scheduler->retired[i];
        uint32_t kept = 0;
        for (uint32_t p = 0; p < entry->pending_count; p++)
            if (entry->pending[p].engine != engine)
                entry->pending[kept++] = entry->pending[p];
        entry->pending_count = kept;
    }
    /* Another queue's submission may still wait on this serial semaphore (a memory wait met
     * by it): it is buried once all work submitted so far has finished. */
    retire_locked(scheduler, engine->device, bury_serial_semaphore, (void *)engine->serial_semaphore);
    free(engine->held_buffer);
    free(engine);
}

/* Engines nobody refers to go once their work finished. */
static void free_finished_engines_locked(struct d3d12_scheduler *scheduler)
{
    for (size_t i = 0; i < scheduler->engine_count;) {
        struct d3d12_engine *engine = scheduler->engines[i];
        if (!engine->refcount && engine->orphaned && engine_idle_locked(engine))
            engine_free_locked(scheduler, engine);
        else
            i++;
    }
}

void d3d12_engine_release(struct d3d12_engine *engine)
{
    struct d3d12_scheduler *scheduler = scheduler_of(engine->device);
    pthread_mutex_lock(&scheduler->lock);
    engine->refcount--;
    pthread_mutex_unlock(&scheduler->lock);
}

static void flush_held_locked(struct d3d12_scheduler *scheduler);

void d3d12_engine_orphan(struct d3d12_engine *engine)
{
    struct d3d12_scheduler *scheduler = scheduler_of(engine->device);
    pthread_mutex_lock(&scheduler->lock);
    /* Nothing can signal the held work's waits through this queue any more, and D3D12 does
     * not keep a released queue running. */
    engine->orphaned = true;
    if (engine->parked)
        flush_held_locked(scheduler); /* a parked wait is ready: it goes, it is not dropped */
    engine_drop_held_locked(engine, "the queue was released");
    engine->refcount--;
    pthread_mutex_unlock(&scheduler->lock);
}

/* ---- timelines ---- */

HRESULT d3d12_timeline_create(struct d3d12_device *device, uint64_t initial_value, struct d3d12_timeline **out)
{
    VkSemaphoreTypeCreateInfo type_info = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
        .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
        .initialValue = initial_value,
    };
    VkSemaphoreCreateInfo create_info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type_info};
    struct d3d12_timeline *timeline;
    VkResult vr;

    if (!(timeline = calloc(1, sizeof(*timeline))))
        return E_OUTOFMEMORY;
    if ((vr = vkCreateSemaphore(device->vk_device, &create_info, NULL, &timeline->semaphore)) != VK_SUCCESS) {
        free(timeline);
        return d3d12xs_hresult_from_vk(device, vr);
    }
    timeline->refcount = 1;
    timeline->submitted_value = timeline->promised_value = timeline->gpu_signal_value = initial_value;
    snprintf(timeline->name, sizeof(timeline->name), "unnamed");
    *out = timeline;
    return S_OK;
}

void d3d12_timeline_set_name(struct d3d12_device *device, struct d3d12_timeline *timeline, const char *name)
{
    struct d3d12_scheduler *scheduler = scheduler_of(device);
    pthread_mutex_lock(&scheduler->lock);
    snprintf(timeline->name, sizeof(timeline->name), "%s", name);
    pthread_mutex_unlock(&scheduler->lock);
}

static void destroy_semaphore(struct d3d12_device *device, void *object)
{
    struct d3d12_timeline *timeline = object;
    bury_semaphore(device, timeline->semaphore);
    free(timeline);
}

void d3d12_timeline_add_ref(struct d3d12_device *device, struct d3d12_timeline *timeline)
{
    struct d3d12_scheduler *scheduler = scheduler_of(device);
    pthread_mutex_lock(&scheduler->lock);
    timeline->refcount++;
    pthread_mutex_unlock(&scheduler->lock);
}

static void timeline_release_locked(struct d3d12_device *device, struct d3d12_timeline *timeline)
{
    if (!--timeline->refcount)
        retire_locked(scheduler_of(device), device, destroy_semaphore, timeline);
}

void d3d12_timeline_release(struct d3d12_device *device, struct d3d12_timeline *timeline)
{
    struct d3d12_scheduler *scheduler = scheduler_of(device);
    pthread_mutex_lock(&scheduler->lock);
    timeline_release_locked(device, timeline);
    pthread_mutex_unlock(&scheduler->lock);
}

void d3d12_timeline_orphan(struct d3d12_device *device, struct d3d12_timeline *timeline)
{
    struct d3d12_scheduler *scheduler = scheduler_of(device);
    pthread_mutex_lock(&scheduler->lock);
    timeline->orphaned = true;
    timeline_release_locked(device, timeline);
    pthread_mutex_unlock(&scheduler->lock);
}

uint64_t d3d12_timeline_completed_value(struct d3d12_device *device, struct d3d12_timeline *timeline)
{
    uint64_t value = 0;
    VkResult vr;

    /* A removed device completes every fence, as D3D12 does, so that waits end. */
    if (d3d12_device_removed_reason(device) != S_OK)
        return UINT64_MAX;
    if ((vr = vkGetSemaphoreCounterValue(device->vk_device, timeline->semaphore, &value)) != VK_SUCCESS) {
        d3d12xs_hresult_from_vk(device, vr);
        return UINT64_MAX;
    }
    return value;
}

bool d3d12_timeline_can_reach(struct d3d12_device *device, struct d3d12_timeline *timeline, uint64_t value)
{
    struct d3d12_scheduler *scheduler = scheduler_of(device);
    bool reachable;
    pthread_mutex_lock(&scheduler->lock);
    reachable = !timeline->orphaned || timeline->promised_value >= value;
    pthread_mutex_unlock(&scheduler->lock);
    return reachable;
}

/* ---- submission ---- */

static void note_inflight(struct d3d12_engine *engine, const struct op *op)
{
    struct inflight *slot = &engine->inflight[engine->inflight_next++ % INFLIGHT_RING];
    slot->serial = op->serial;
    slot->on_gpu_wait = op->type == OP_WAIT_MEMORY;
    if (slot->on_gpu_wait)
        slot->memory = op->memory;
    memcpy(slot->what, op->what, sizeof(slot->what));
}

/* Known values of a run just handed to Vulkan, newest last. */
static void publish_writes_locked(struct d3d12_scheduler *scheduler, struct d3d12_engine *engine, const struct op *op)
{
    for (uint32_t i = 0; i < op->write_count; i++) {
        struct published_write *slot = &engine->published[engine->published_next++ % PUBLISHED_RING];
        slot->write = op->writes[i];
        slot->serial = op->serial;
    }
    if (op->write_count)
        scheduler->writes_published = true;
}

static VkResult queue_submit(struct d3d12_engine *engine, const VkSubmitInfo2 *submit)
{
    VkResult vr = vkQueueSubmit2(engine->vk_queue, 1, submit, VK_NULL_HANDLE);
    if (vr != VK_SUCCESS)
        ERR("vkQueueSubmit2 on queue '%s' failed (VkResult %d)", engine->name, vr);
    return vr;
}

/* Host query resets (transfer-only families cannot reset in a command buffer) must not touch
 * a query earlier work of this engine, or a resolve on the internal engine, still uses: wait
 * for the work already handed to Vulkan, which finishes without anything held here. Rare:
 * only COPY lists with EndQuery on transfer-only families. */
static void reset_queries_on_host_locked(struct d3d12_scheduler *scheduler, struct d3d12_engine *engine, const struct op *op)
{
    struct d3d12_device *device = engine->device;
    VkSemaphore semaphores[2] = {engine->serial_semaphore, scheduler->internal->serial_semaphore};
    uint64_t values[2] = {engine->submitted_serial, scheduler->internal->submitted_serial};
    VkSemaphoreWaitInfo wait_info = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
        .semaphoreCount = 2,
        .pSemaphores = semaphores,
        .pValues = values,
    };
    unsigned timeout_ms = atomic_load(&device->hang_timeout_ms);

    if (!op->reset_count)
        return;
    if (vkWaitSemaphores(device->vk_device, &wait_info, timeout_ms ? (uint64_t)timeout_ms * 1000000 : UINT64_MAX) == VK_TIMEOUT)
        d3d12_device_mark_removed(device, DXGI_ERROR_DEVICE_HUNG, "work before a COPY list's query reset made no progress");
    for (uint32_t i = 0; i < op->reset_count; i++)
        vkResetQueryPool(device->vk_device, op->resets[i].pool, op->resets[i].index, 1);
}

static VkSemaphoreSubmitInfo semaphore_info(VkSemaphore semaphore, uint64_t value)
{
    return (VkSemaphoreSubmitInfo){
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
        .semaphore = semaphore,
        .value = value,
        .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
    };
}

/* A segment the engine's family cannot run (a transfer-only COPY list's ResolveQueryData):
 * it runs on the internal compute-capable engine, between this engine's previous operation
 * and its next one, and this engine's serial waits for it. The lock is held. */
static HRESULT submit_helper_locked(struct d3d12_scheduler *scheduler, struct d3d12_engine *engine, struct op *op)
{
    struct d3d12_device *device = engine->device;
    struct d3d12_engine *helper = scheduler->internal;
    VkCommandBufferSubmitInfo buffer_stack[8], *buffers = buffer_stack;
    VkResult vr;

    reset_queries_on_host_locked(scheduler, engine, op);
    if (op->command_buffer_count > D3D12XS_ARRAY_SIZE(buffer_stack) && !(buffers = calloc(op->command_buffer_count, sizeof(*buffers))))
        return E_OUTOFMEMORY;
    for (uint32_t i = 0; i < op->command_buffer_count; i++)
        buffers[i] = (VkCommandBufferSubmitInfo){.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, .commandBuffer = op->command_buffers[i]};
    VkSemaphoreSubmitInfo helper_wait = semaphore_info(engine->serial_semaphore, op->serial - 1);
    VkSemaphoreSubmitInfo helper_signal = semaphore_info(helper->serial_semaphore, ++helper->next_serial);
    VkSubmitInfo2 helper_submit = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
        .waitSemaphoreInfoCount = 1, .pWaitSemaphoreInfos = &helper_wait,
        .commandBufferInfoCount = op->command_buffer_count, .pCommandBufferInfos = buffers,
        .signalSemaphoreInfoCount = 1, .pSignalSemaphoreInfos = &helper_signal,
    };
    vr = queue_submit(helper, &helper_submit);
    if (buffers != buffer_stack)
        free(buffers);
    if (vr != VK_SUCCESS)
        return d3d12xs_hresult_from_vk(device, vr);
    helper->submitted_serial = helper->next_serial;

    VkSemaphoreSubmitInfo wait = semaphore_info(helper->serial_semaphore, helper->next_serial);
    VkSemaphoreSubmitInfo signal = semaphore_info(engine->serial_semaphore, op->serial);
    VkSubmitInfo2 submit = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
        .waitSemaphoreInfoCount = 1, .pWaitSemaphoreInfos = &wait,
        .signalSemaphoreInfoCount = 1, .pSignalSemaphoreInfos = &signal,
    };
    if ((vr = queue_submit(engine, &submit)) != VK_SUCCESS)
        return d3d12xs_hresult_from_vk(device, vr);
    engine->submitted_serial = op->serial;
    note_inflight(engine, op);
    return S_OK;
}

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

/* Hands a run of ready operations to Vulkan as one submission: an optional wait first, then
 * executions and signals (a VkSubmitInfo2 waits, runs its command buffers, then signals).
 * A queue Wait followed by a Signal thus costs one submission, as in hand-written Vulkan.
 * Returns how many operations it took; the lock is held. */
#define RUN_MAX 16
static size_t submit_run_locked(struct d3d12_scheduler *scheduler, struct d3d12_engine *engine, struct op *ops, size_t count, HRESULT *hr)
{
    struct d3d12_device *device = engine->device;
    VkSemaphoreSubmitInfo waits[RUN_MAX + 2], signals[RUN_MAX + 1];
    VkCommandBufferSubmitInfo buffer_stack[16], *buffers = buffer_stack;
    struct d3d12_timeline *signalled[RUN_MAX];
    VkSubmitInfo2 submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .pWaitSemaphoreInfos = waits, .pSignalSemaphoreInfos = signals};
    uint32_t buffer_count = 0, signalled_count = 0;
    size_t n = 1;
    VkResult vr;

    *hr = S_OK;
    if (ops[0].type == OP_EXECUTE && ops[0].on_helper) {
        *hr = submit_helper_locked(scheduler, engine, &ops[0]);
        return 1;
    }
    /* The run: what may follow the first operation in the same submission. */
    buffer_count = ops[0].type == OP_EXECUTE ? ops[0].command_buffer_count : 0;
    if (ops[0].type == OP_WAIT_MEMORY && ops[0].gpu_wait && !ops[0].queue_order && !ops[0].writer)
        buffer_count = 1;
    if (ops[0].type == OP_SIGNAL)
        signalled[signalled_count++] = ops[0].timeline;
    while (n < count && signalled_count < RUN_MAX) {
        const struct op *op = &ops[n];
        bool repeated = false;
        /* A memory wait the GPU spins on, or one already met, goes inside the run: the
         * scheduler found every writer it needs submitted before it or with it (flush_held_locked). */
        if (op->type == OP_WAIT_MEMORY && op->inline_wait) {
            buffer_count += op->gpu_wait && !op->queue_order;
            n++;
            continue;
        }
        if (op->type == OP_WAIT_FENCE || op->type == OP_WAIT_MEMORY || (op->type == OP_EXECUTE && (op->on_helper || op->reset_count)))
            break;
        for (uint32_t i = 0; i < signalled_count && op->type == OP_SIGNAL; i++)
            repeated |= signalled[i] == op->timeline;
        if (repeated)
            break;
        if (op->type == OP_SIGNAL)
            signalled[signalled_count++] = op->timeline;
        else
            buffer_count += op->command_buffer_count;
        n++;
    }
    if (buffer_count > D3D12XS_ARRAY_SIZE(buffer_stack) && !(buffers = calloc(buffer_count, sizeof(*buffers)))) {
        *hr = E_OUTOFMEMORY;
        return 1;
    }

    /* Work the scheduler ran for itself (query initialisation) comes first everywhere. */
    if (scheduler->internal && engine != scheduler->internal && engine->internal_waited < scheduler->internal_serial) {
        waits[submit.waitSemaphoreInfoCount++] = semaphore_info(scheduler->internal->serial_semaphore, scheduler->internal_serial);
        engine->internal_waited = scheduler->internal_serial;
    }
    if (ops[0].type == OP_WAIT_FENCE)
        waits[submit.waitSemaphoreInfoCount++] = semaphore_info(ops[0].timeline->semaphore, ops[0].value);
    if (ops[0].type == OP_WAIT_MEMORY && ops[0].writer)
        waits[submit.waitSemaphoreInfoCount++] = semaphore_info(ops[0].writer->serial_semaphore, ops[0].writer_serial);
    buffer_count = 0;
    for (size_t i = 0; i < n; i++) {
        struct op *op = &ops[i];
        if (op->type == OP_WAIT_MEMORY && op->gpu_wait && !op->queue_order && !op->writer) {
            buffers[buffer_count++] = (VkCommandBufferSubmitInfo){.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                    .commandBuffer = op->memory.gpu_command_buffer};
        } else if (op->type == OP_EXECUTE) {
            reset_queries_on_host_locked(scheduler, engine, op);
            for (uint32_t b = 0; b < op->command_buffer_count; b++)
                buffers[buffer_count++] = (VkCommandBufferSubmitInfo){.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                        .commandBuffer = op->command_buffers[b]};
        } else if (op->type == OP_SIGNAL) {
            struct d3d12_timeline *timeline = op->timeline;
            if (op->value <= timeline->submitted_value) {
                /* Vulkan timelines cannot go back or repeat a value: the signal is dropped. */
                WARN("ID3D12CommandQueue::Signal: fence '%s' value %llu is not above %llu, already signalled; ignored",
                        timeline->name, (unsigned long long)op->value, (unsigned long long)timeline->submitted_value);
                continue;
            }
            signals[submit.signalSemaphoreInfoCount++] = semaphore_info(timeline->semaphore, op->value);
            /* Another engine's signal of this fence may still be in flight. Vulkan requires a
             * timeline's signals to execute in increasing order, so this one waits for it: signals
             * of one fence take effect in the order they were submitted. */
            if (timeline->last_signal_engine && timeline->last_signal_engine != engine
                    && d3d12_timeline_completed_value(device, timeline) < timeline->submitted_value)
                waits[submit.waitSemaphoreInfoCount++] = semaphore_info(timeline->semaphore, timeline->submitted_value);
            timeline->last_signal_engine = engine;
            timeline->submitted_value = op->value;
            timeline->gpu_signal_value = op->value;
        }
    }
    /* The serial last: once it is seen, the batch's other signals are done too (lavapipe signals
     * in order), so objects retired by serial, fence semaphores included, are no longer in use.
     * Someone who saw one of the fence values first may find the serial a moment behind:
     * d3d12_engine_serial_done_soon() allows for that. */
    signals[submit.signalSemaphoreInfoCount++] = semaphore_info(engine->serial_semaphore, ops[n - 1].serial);
    submit.commandBufferInfoCount = buffer_count;
    submit.pCommandBufferInfos = buffers;
    vr = queue_submit(engine, &submit);
    if (buffers != buffer_stack)
        free(buffers);
    if (vr != VK_SUCCESS) {
        *hr = d3d12xs_hresult_from_vk(device, vr);
        return n;
    }
    engine->submitted_serial = ops[n - 1].serial;
    for (size_t i = 0; i < n; i++) {
        if (ops[i].type == OP_WAIT_MEMORY)
            ops[i].gpu_wait ? scheduler->memory_waits_on_gpu++ : scheduler->memory_waits_on_host++;
        if (ops[i].type == OP_EXECUTE || (ops[i].type == OP_WAIT_MEMORY && ops[i].gpu_wait))
            note_inflight(engine, &ops[i]);
        if (ops[i].type == OP_EXECUTE)
            publish_writes_locked(scheduler, engine, &ops[i]);
    }
    return n;
}

/* Whether the GPU may wait out a memory wait on this engine, and how. A write that satisfies
 * it must already be handed to Vulkan, or be among what the writer's queue reaches in this
 * flush (handed over with it), so that everything the wait depends on is submitted with or
 * before it (no cycle). Then, per pair of queues (docs/sync.md):
 *   - the writer shares this engine's VkQueue: nothing to add. The barrier that starts the
 *     segment after the wait (src ALL_COMMANDS, MEMORY_WRITE) orders it after everything
 *     submitted earlier to that VkQueue, the write included (lavapipe has only one VkQueue);
 *     the write must be handed over already (queue order needs it first);
 *   - the writer is on another family: the submission waits for the writer queue's serial
 *     semaphore to reach the writer's operation (7 us a hop on the H200, where the host
 *     round trip costs 36); with D3D12XS_GPU_WAITS=spin, the spin shader instead, where it
 *     exists (1.4 us for the spin itself) and no other queue shares this engine's family (a
 *     shader spinning on one queue stops the other queues of its family, ../shared/DEVICE.md);
 *   - otherwise (another queue of the same family: semaphores cost 170 us there) the host
 *     holds the work until it sees the value.
 * FORCE spins whenever the spin exists and a writer was submitted, SEMAPHORE waits on the
 * writer's serial semaphore then (tests: lavapipe runs submissions one at a time, in order). */
/* The newest known value the writer engine puts at the wait's address, and the serial of the
 * operation that writes it: among the newest writes of the operations flush_held_locked found
 * able to go in this pass (with_reached), else among those handed to Vulkan and not yet
 * finished. Both are rings of the last PUBLISHED_RING writes: an older one is not found, and
 * the wait is then met by the host, never wrongly. */
static const struct d3d12_value_write *newest_write_locked(struct d3d12_engine *writer, bool with_reached,
        const struct d3d12_memory_wait *wait, uint64_t *serial)
{
    uint64_t completed = 0;
    bool completed_read = false;

    for (unsigned i = 1; with_reached && i <= PUBLISHED_RING && i <= writer->reached_next; i++) {
        const struct published_write *slot = &writer->reached[(writer->reached_next - i) % PUBLISHED_RING];
        if (slot->write.gpu_address == wait->gpu_address && slot->write.size == wait->size) {
            *serial = slot->serial;
            return &slot->write;
        }
    }
    for (unsigned i = 1; i <= PUBLISHED_RING && i <= writer->published_next; i++) {
        const struct published_write *slot = &writer->published[(writer->published_next - i) % PUBLISHED_RING];
        if (slot->write.gpu_address == wait->gpu_address && slot->write.size == wait->size) {
            /* A finished write says nothing more than memory does, and its address may since
             * belong to other memory (freed and allocated again): only pending writes count. */
            if (!completed_read)
                completed = engine_completed(writer), completed_read = true;
            if (slot->serial <= completed)
                return NULL;
            *serial = slot->serial;
            return &slot->write;
        }
    }
    return NULL;
}

/* simulated: NULL, or for each engine how many of its held operations flush_held_locked found
 * able to go in this pass; then the writes of those (each engine's reached ring) count as
 * handed over where the writer progresses on its own: they go together. */
static bool gpu_waitable_locked(struct d3d12_scheduler *scheduler, struct d3d12_engine *engine, struct op *op, const size_t *simulated)
{
    const struct d3d12_memory_wait *wait = &op->memory;
    enum d3d12_gpu_wait_mode mode = engine->device->gpu_wait_mode;
    bool can_spin = wait->gpu_command_buffer != VK_NULL_HANDLE;

    if (mode == D3D12_GPU_WAITS_OFF || wait->comparison == D3D12_COMPARISON_FUNC_NEVER)
        return false;
    for (size_t e = 0; e < scheduler->engine_count && can_spin && mode == D3D12_GPU_WAITS_SPIN; e++) {
        struct d3d12_engine *other = scheduler->engines[e];
        if (other != engine && other->family == engine->family && (!other->internal || !engine_idle_locked(other)))
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
        /* What other engines only reached in this pass counts where they progress on their
         * own (another family); elsewhere (one VkQueue, one family) the writer must be handed
         * over already: only the published writes are looked at. */
        bool independent = writer == engine || (mode != D3D12_GPU_WAITS_FORCE && other_family);
        write = newest_write_locked(writer, simulated && independent, wait, &serial);
        if (!write || !d3d12_comparison_holds(wait->comparison, write->value, wait->value))
            continue;
        op->queue_order = same_queue && !spin && !semaphore;
        op->writer = semaphore ? writer : NULL;
        op->writer_serial = serial;
        /* A semaphore wait starts a submission of its own; the others go inside a run. */
        op->inline_wait = !semaphore;
        return true;
    }
    return false;
}

/* The one readiness rule of each kind of wait. */
static bool op_ready_locked(struct d3d12_scheduler *scheduler, struct d3d12_engine *engine, struct op *op, const size_t *simulated)
{
    switch (op->type) {
    case OP_WAIT_FENCE: return op->timeline->submitted_value >= op->value;
    case OP_WAIT_MEMORY:
        op->writer = NULL;
        if (d3d12_memory_wait_ready(&op->memory, NULL)) {
            op->gpu_wait = false;
            op->inline_wait = true;
            return true;
        }
        return (op->gpu_wait = gpu_waitable_locked(scheduler, engine, op, simulated));
    default: return true;
    }
}

static void hold_op_locked(struct d3d12_scheduler *scheduler, struct d3d12_engine *engine, struct op *op)
{
    if (!engine->held_count)
        scheduler->held_engine_count++;
    if (op->type == OP_WAIT_MEMORY)
        scheduler->memory_wait_count++;
    engine->held[engine->held_count++] = *op;
    TRACE("queue '%s': operation %llu held until its wait can be met", engine->name, (unsigned long long)op->serial);
}

/* How far each engine's held operations can go now (reach[e] of them), found by playing
 * the engines forward together: a memory wait passes when a write that satisfies it is
 * handed over or among what the other engines reached. Such an order exists, so handing
 * every engine its reached operations at once cannot deadlock, and a ping-pong of many hops
 * costs one submission per engine instead of one per hop. */
static void simulate_held_locked(struct d3d12_scheduler *scheduler, size_t *reach)
{
    bool moved = true;

    memset(reach, 0, scheduler->engine_count * sizeof(*reach));
    for (size_t e = 0; e < scheduler->engine_count; e++)
        scheduler->engines[e]->reached_next = 0;
    while (moved) {
        moved = false;
        for (size_t e = 0; e < scheduler->engine_count; e++) {
            struct d3d12_engine *engine = scheduler->engines[e];
            while (reach[e] < engine->held_count
                    && op_ready_locked(scheduler, engine, &engine->held[reach[e]], reach)) {
                const struct op *op = &engine->held[reach[e]++];
                for (uint32_t w = 0; w < op->write_count; w++)
                    engine->reached[engine->reached_next++ % PUBLISHED_RING] = (struct published_write){op->writes[w], op->serial};
                moved = true;
            }
        }
    }
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
        bool left = true;
        progress = false;
        simulate_held_locked(scheduler, reach);
        memset(done, 0, scheduler->engine_count * sizeof(*done));
        /* One run per queue in turn, so that the GPU starts on a ping-pong's first hops
         * while the later ones are still being handed over. A run that waits on another
         * queue's serial goes after the run that signals it: Vulkan allows a wait submitted
         * before its signal, but the H200's driver then defers it. If no queue could go in
         * a round (not expected: simulate_held_locked found an order), the order is given up. */
        bool strict = true;
        while (left) {
            bool moved = false;
            left = false;
            for (size_t e = 0; e < scheduler->engine_count; e++) {
                struct d3d12_engine *engine = scheduler->engines[e];
                HRESULT hr;
                if (done[e] == reach[e])
                    continue;
                const struct op *first = &engine->held[done[e]];
                if (strict && first->type == OP_WAIT_MEMORY && first->writer && first->writer->submitted_serial < first->writer_serial) {
                    left = true;
                    continue;
                }
                moved = true;
                size_t taken = submit_run_locked(scheduler, engine, &engine->held[done[e]], reach[e] - done[e], &hr);
                for (size_t i = 0; i < taken; i++) {
                    struct op *op = &engine->held[done[e]++];
                    if (op->type == OP_WAIT_MEMORY)
                        scheduler->memory_wait_count--;
                    op_cleanup_locked(engine->device, op);
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

/* Queues ops[0..count) on the engine in order, submitting what is ready. Takes ownership. */
static HRESULT enqueue_locked(struct d3d12_scheduler *scheduler, struct d3d12_engine *engine, struct op *ops, uint32_t count, uint64_t *serial)
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
            op_cleanup_locked(engine->device, &ops[i]);
        return E_OUTOFMEMORY;
    }
    for (uint32_t i = 0; i < count; i++) {
        struct op *op = &ops[i];
        op->serial = ++engine->next_serial;
        op->enqueued_ns = now;
        if (op->type == OP_SIGNAL && op->value > op->timeline->promised_value)
            op->timeline->promised_value = op->value;
    }
    bool had_parked = engine->parked;
    for (uint32_t i = 0; i < count;) {
        /* A queue Wait that is ready but would go to Vulkan alone is kept for the next operation
         * on the queue, so that the usual Wait + Signal (or + ExecuteCommandLists) is one
         * submission, as hand-written Vulkan would make it; the waiter submits it within about
         * 50 us if nothing follows. */
        if (!engine->held_count && i == count - 1 && ops[i].type == OP_WAIT_FENCE && !engine->internal
                && op_ready_locked(scheduler, engine, &ops[i], NULL)) {
            hold_op_locked(scheduler, engine, &ops[i++]);
            engine->parked = true;
            if (!scheduler->parked_count++)
                scheduler->parked_since_ns = now;
            continue;
        }
        if (!engine->held_count && op_ready_locked(scheduler, engine, &ops[i], NULL)) {
            HRESULT op_hr;
            size_t taken = submit_run_locked(scheduler, engine, &ops[i], count - i, &op_hr);
            if (FAILED(op_hr) && SUCCEEDED(hr))
                hr = op_hr;
            for (size_t k = 0; k < taken; k++, i++) {
                signalled |= ops[i].type == OP_SIGNAL;
                op_cleanup_locked(engine->device, &ops[i]);
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

static HRESULT enqueue(struct d3d12_engine *engine, struct op *ops, uint32_t count, uint64_t *serial)
{
    struct d3d12_scheduler *scheduler = scheduler_of(engine->device);
    HRESULT hr;
    pthread_mutex_lock(&scheduler->lock);
    hr = enqueue_locked(scheduler, engine, ops, count, serial);
    pthread_mutex_unlock(&scheduler->lock);
    return hr;
}

static void describe_segment(struct op *op, const struct d3d12_submit_segment *segment)
{
    if (segment->cut_by)
        snprintf(op->what, sizeof(op->what), "list '%s' call %u (%s)", segment->list_name ? segment->list_name : "?", segment->first_call,
                segment->cut_by);
    else
        snprintf(op->what, sizeof(op->what), "list '%s' segment %u (from call %u)", segment->list_name ? segment->list_name : "?",
                segment->index, segment->first_call);
}

HRESULT d3d12_scheduler_execute(struct d3d12_engine *engine, const struct d3d12_submit_segment *segments, uint32_t segment_count,
        const struct d3d12_query_reset *resets, uint32_t reset_count, uint64_t *serial)
{
    struct op stack_ops[4], *ops = stack_ops;
    uint32_t op_count = 0, max_ops = segment_count * 2 + 1;
    HRESULT hr = S_OK;

    if (max_ops > D3D12XS_ARRAY_SIZE(stack_ops) && !(ops = calloc(max_ops, sizeof(*ops))))
        return E_OUTOFMEMORY;
    memset(ops, 0, (ops == stack_ops ? D3D12XS_ARRAY_SIZE(stack_ops) : max_ops) * sizeof(*ops));
    /* Segments between two waits (or helper segments) go to Vulkan in one submission. */
    for (uint32_t i = 0; i < segment_count; i++) {
        const struct d3d12_submit_segment *segment = &segments[i];
        struct op *op = op_count ? &ops[op_count - 1] : NULL;
        if (segment->wait) {
            op = &ops[op_count++];
            op->type = OP_WAIT_MEMORY;
            op->memory = *segment->wait;
            describe_segment(op, segment);
            op = NULL;
        }
        if (!op || op->type != OP_EXECUTE || op->on_helper || segment->on_helper) {
            op = &ops[op_count++];
            op->type = OP_EXECUTE;
            op->on_helper = segment->on_helper;
            if (!(op->command_buffers = malloc((segment_count - i) * sizeof(*op->command_buffers)))) {
                hr = E_OUTOFMEMORY;
                break;
            }
            describe_segment(op, segment);
        }
        op->command_buffers[op->command_buffer_count++] = segment->command_buffer;
        if (segment->write_count) {
            struct d3d12_value_write *writes = realloc(op->writes, (op->write_count + segment->write_count) * sizeof(*writes));
            if (!writes) {
                hr = E_OUTOFMEMORY;
                break;
            }
            memcpy(writes + op->write_count, segment->writes, segment->write_count * sizeof(*writes));
            op->writes = writes;
            op->write_count += segment->write_count;
        }
    }
    if (SUCCEEDED(hr) && reset_count) {
        /* Host query resets happen before the first submission of the call. */
        struct op *first = NULL;
        for (uint32_t i = 0; i < op_count && !first; i++)
            if (ops[i].type == OP_EXECUTE)
                first = &ops[i];
        if (first && (first->resets = malloc(reset_count * sizeof(*resets)))) {
            memcpy(first->resets, resets, reset_count * sizeof(*resets));
            first->reset_count = reset_count;
        } else if (first) {
            hr = E_OUTOFMEMORY;
        }
    }
    if (FAILED(hr)) {
        for (uint32_t i = 0; i < op_count; i++)
            free(ops[i].command_buffers), free(ops[i].resets), free(ops[i].writes);
    } else {
        hr = enqueue(engine, ops, op_count, serial);
    }
    if (ops != stack_ops)
        free(ops);
    return hr;
}

static HRESULT enqueue_fence_op(struct d3d12_engine *engine, enum op_type type, struct d3d12_timeline *timeline, uint64_t value,
        bool *parked)
{
    struct d3d12_scheduler *scheduler = scheduler_of(engine->device);
    struct op op = {.type = type, .timeline = timeline, .value = value};
    HRESULT hr;

    pthread_mutex_lock(&scheduler->lock);
    timeline->refcount++;
    snprintf(op.what, sizeof(op.what), "%s of fence '%s' to %llu", type == OP_SIGNAL ? "Signal" : "Wait", timeline->name,
            (unsigned long long)value);
    hr = enqueue_locked(scheduler, engine, &op, 1, NULL);
    if (parked)
        *parked = engine->parked;
    pthread_mutex_unlock(&scheduler->lock);
    return hr;
}

HRESULT d3d12_scheduler_signal(struct d3d12_engine *engine, struct d3d12_timeline *timeline, uint64_t value)
{
    return enqueue_fence_op(engine, OP_SIGNAL, timeline, value, NULL);
}

HRESULT d3d12_scheduler_wait_fence(struct d3d12_engine *engine, struct d3d12_timeline *timeline, uint64_t value, bool *parked)
{
    return enqueue_fence_op(engine, OP_WAIT_FENCE, timeline, value, parked);
}

HRESULT d3d12_scheduler_wait_memory(struct d3d12_engine *engine, const struct d3d12_memory_wait *wait)
{
    struct op op = {.type = OP_WAIT_MEMORY, .memory = *wait};
    snprintf(op.what, sizeof(op.what), "a memory wait");
    return enqueue(engine, &op, 1, NULL);
}

HRESULT d3d12_timeline_signal_on_host(struct d3d12_device *device, struct d3d12_timeline *timeline, uint64_t value, const char *method)
{
    struct d3d12_scheduler *scheduler = scheduler_of(device);
    uint64_t completed;
    VkResult vr;

    pthread_mutex_lock(&scheduler->lock);
    completed = d3d12_timeline_completed_value(device, timeline);
    if (value == completed) {
        pthread_mutex_unlock(&scheduler->lock);
        return S_OK;
    }
    /* Timeline semaphores only move forward, and only below pending queue signals. */
    if (value < completed) {
        pthread_mutex_unlock(&scheduler->lock);
        return d3d12xs_fail(E_INVALIDARG, method, "Value %llu is below the fence's current %llu (fence values only grow in d3d12xs)",
                (unsigned long long)value, (unsigned long long)completed);
    }
    if (timeline->gpu_signal_value > completed && value >= timeline->gpu_signal_value) {
        pthread_mutex_unlock(&scheduler->lock);
        return d3d12xs_fail(E_INVALIDARG, method, "Value %llu is not below %llu, which a queue is still to signal",
                (unsigned long long)value, (unsigned long long)timeline->gpu_signal_value);
    }
    VkSemaphoreSignalInfo signal_info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = timeline->semaphore, .value = value};
    if ((vr = vkSignalSemaphore(device->vk_device, &signal_info)) != VK_SUCCESS) {
        pthread_mutex_unlock(&scheduler->lock);
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "vkSignalSemaphore failed (VkResult %d)", vr);
    }
    if (value > timeline->submitted_value)
        timeline->submitted_value = value;
    if (value > timeline->promised_value)
        timeline->promised_value = value;
    flush_held_locked(scheduler);
    pthread_mutex_unlock(&scheduler->lock);
    return S_OK;
}

HRESULT d3d12_scheduler_run_internal(struct d3d12_device *device, VkCommandBuffer command_buffer, const char *method)
{
    struct d3d12_scheduler *scheduler = scheduler_of(device);
    struct op op = {.type = OP_EXECUTE, .command_buffer_count = 1};
    HRESULT hr;

    if (!(op.command_buffers = malloc(sizeof(*op.command_buffers))))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "out of memory");
    op.command_buffers[0] = command_buffer;
    snprintf(op.what, sizeof(op.what), "%s", method);
    pthread_mutex_lock(&scheduler->lock);
    /* Every engine's next submission waits for this one, so nothing needs to wait here. */
    if (SUCCEEDED(hr = enqueue_locked(scheduler, scheduler->internal, &op, 1, NULL)))
        scheduler->internal_serial = scheduler->internal->submitted_serial;
    pthread_mutex_unlock(&scheduler->lock);
    return hr;
}

uint32_t d3d12_scheduler_internal_family(struct d3d12_device *device)
{
    return scheduler_of(device)->internal->family;
}

/* ---- retirement ---- */

static void retire_locked(struct d3d12_scheduler *scheduler, struct d3d12_device *device, d3d12_retire_fn destroy, void *object)
{
    struct retired_object entry = {.destroy = destroy, .object = object};
    size_t pending_capacity = 0;

    for (size_t i = 0; i < scheduler->engine_count; i++) {
        struct d3d12_engine *engine = scheduler->engines[i];
        if (engine_idle_locked(engine))
            continue;
        if (!d3d12xs_array_reserve((void **)&entry.pending, &pending_capacity, entry.pending_count + 1, sizeof(*entry.pending))) {
            /* Out of memory: the object is destroyed with the device. */
            break;
        }
        entry.pending[entry.pending_count++] = (struct engine_serial){engine, engine->next_serial};
    }
    if (!entry.pending_count) {
        destroy(device, object);
        return;
    }
    if (!d3d12xs_array_reserve((void **)&scheduler->retired, &scheduler->retired_capacity, scheduler->retired_count + 1,
            sizeof(*scheduler->retired))) {
        ERR("out of memory: an object the GPU may still use is leaked instead of destroyed");
        free(entry.pending);
        return;
    }
    scheduler->retired[scheduler->retired_count++] = entry;
}

void d3d12_scheduler_retire(struct d3d12_device *device, d3d12_retire_fn destroy, void *object)
{
    struct d3d12_scheduler *scheduler = scheduler_of(device);
    pthread_mutex_lock(&scheduler->lock);
    retire_locked(scheduler, device, destroy, object);
    pthread_mutex_unlock(&scheduler->lock);
}

void d3d12_scheduler_retire_object(struct d3d12xs_object *object, d3d12_retire_fn destroy, void *impl)
{
    struct d3d12_device *device = object->device;
    /* The device must outlive the retirement: this reference keeps it while the object's own
     * goes, and its last release (here, in the caller's thread) collects what is left. */
    ID3D12Device_AddRef(&device->ID3D12Device_iface);
    d3d12xs_object_cleanup(object);
    d3d12_scheduler_retire(device, destroy, impl);
    ID3D12Device_Release(&device->ID3D12Device_iface);
}

/* Destroys retired objects whose work finished (all of them when force). */
static void collect_retired(struct d3d12_device *device, bool force)
{
    struct d3d12_scheduler *scheduler = scheduler_of(device);
    struct retired_object *ready = NULL;
    size_t ready_count = 0, ready_capacity = 0, kept = 0;

    pthread_mutex_lock(&scheduler->lock);
    for (size_t i = 0; i < scheduler->retired_count; i++) {
        struct retired_object *entry = &scheduler->retired[i];
        uint32_t pending = 0;
        for (uint32_t p = 0; p < entry->pending_count; p++) {
            struct engine_serial *wait = &entry->pending[p];
            if (!force && !engine_serial_done_locked(wait->engine, wait->serial, engine_completed(wait->engine)))
                entry->pending[pending++] = *wait;
        }
        entry->pending_count = pending;
        if (!pending && d3d12xs_array_reserve((void **)&ready, &ready_capacity, ready_count + 1, sizeof(*ready)))
            ready[ready_count++] = *entry;
        else
            scheduler->retired[kept++] = *entry;
    }
    scheduler->retired_count = kept;
    free_finished_engines_locked(scheduler);
    pthread_mutex_unlock(&scheduler->lock);
    for (size_t i = 0; i < ready_count; i++) {
        free(ready[i].pending);
        ready[i].destroy(device, ready[i].object);
    }
    free(ready);
}

/* ---- watchdog ---- */

static void describe_held(struct d3d12_device *device, const struct d3d12_engine *engine, const struct op *op, uint64_t waited_ms,
        uint64_t timeout_ms, char *why, size_t size)
{
    if (op->type == OP_WAIT_MEMORY) {
        uint64_t current;
        d3d12_memory_wait_ready(&op->memory, &current);
        snprintf(why, size, "queue '%s', %s waited %llu ms (hang timeout %llu ms) for the %u-bit value at 0x%llx to be %s %llu (memory holds %llu)",
                engine->name, op->what, (unsigned long long)waited_ms, (unsigned long long)timeout_ms, op->memory.size * 8, (unsigned long long)op->memory.gpu_address,
                d3d12_comparison_name(op->memory.comparison), (unsigned long long)op->memory.value, (unsigned long long)current);
    } else {
        snprintf(why, size, "queue '%s' waited %llu ms (hang timeout %llu ms) for fence '%s' to reach %llu (it is at %llu; no queue or CPU signal of that value was submitted)",
                engine->name, (unsigned long long)waited_ms, (unsigned long long)timeout_ms, op->timeline->name, (unsigned long long)op->value,
                (unsigned long long)d3d12_timeline_completed_value(device, op->timeline));
    }
}

/* Names the oldest unfinished work of the engine; a GPU-side memory wait with its value. */
static void describe_running(const struct d3d12_engine *engine, uint64_t completed, char *what, size_t size)
{
    const struct inflight *best = NULL;
    for (unsigned i = 0; i < INFLIGHT_RING; i++) {
        const struct inflight *slot = &engine->inflight[i];
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

static bool watch_engines_locked(struct d3d12_scheduler *scheduler, struct d3d12_device *device, uint64_t now, uint64_t timeout_ns,
        char *why, size_t size)
{
    bool busy = false;

    for (size_t i = 0; i < scheduler->engine_count; i++) {
        struct d3d12_engine *engine = scheduler->engines[i];
        uint64_t completed = engine_completed(engine);
        if (engine->held_count) {
            const struct op *front = &engine->held[0];
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

void d3d12_scheduler_poll(struct d3d12_device *device, uint64_t now, struct d3d12_scheduler_poll *result)
{
    struct d3d12_scheduler *scheduler = scheduler_of(device);
    uint64_t timeout_ns = (uint64_t)atomic_load(&device->hang_timeout_ms) * 1000000;
    char why[512] = "";

    pthread_mutex_lock(&scheduler->lock);
    /* Parked fence waits go once nothing came to join them for a while. */
    if (scheduler->memory_wait_count || (scheduler->parked_count && now - scheduler->parked_since_ns > PARK_NS))
        flush_held_locked(scheduler);
    result->busy = watch_engines_locked(scheduler, device, now, timeout_ns, why, sizeof(why));
    if (*why)
        d3d12_device_mark_removed(device, DXGI_ERROR_DEVICE_HUNG, why);
    if (d3d12_device_removed_reason(device) != S_OK) {
        for (size_t i = 0; i < scheduler->engine_count; i++)
            engine_drop_held_locked(scheduler->engines[i], "the device is removed");
    }
    result->memory_waits_held = scheduler->memory_wait_count != 0 || scheduler->parked_count != 0;
    result->busy |= scheduler->retired_count != 0;
    pthread_mutex_unlock(&scheduler->lock);
    collect_retired(device, false);
    result->busy |= empty_graveyard(device, false) != 0;
}

void d3d12_scheduler_memory_wait_counts(struct d3d12_device *device, uint64_t *on_host, uint64_t *on_gpu)
{
    struct d3d12_scheduler *scheduler = scheduler_of(device);
    pthread_mutex_lock(&scheduler->lock);
    *on_host = scheduler->memory_waits_on_host;
    *on_gpu = scheduler->memory_waits_on_gpu;
    pthread_mutex_unlock(&scheduler->lock);
}

unsigned d3d12_scheduler_flush_memory_waits(struct d3d12_device *device)
{
    struct d3d12_scheduler *scheduler = scheduler_of(device);
    unsigned held;
    pthread_mutex_lock(&scheduler->lock);
    if (scheduler->memory_wait_count)
        flush_held_locked(scheduler);
    held = scheduler->memory_wait_count;
    pthread_mutex_unlock(&scheduler->lock);
    return held;
}

/* ---- creation and destruction ---- */

HRESULT d3d12_scheduler_create(struct d3d12_device *device)
{
    struct d3d12_scheduler *scheduler;
    D3D12_COMMAND_LIST_TYPE internal_type = D3D12_COMMAND_LIST_TYPE_DIRECT;

    if (!(scheduler = calloc(1, sizeof(*scheduler))))
        return d3d12xs_fail(E_OUTOFMEMORY, "D3D12CreateDevice", "cannot allocate the scheduler");
    pthread_mutex_init(&scheduler->lock, NULL);
    pthread_mutex_init(&scheduler->graveyard_lock, NULL);
    device->scheduler = scheduler;
    if (!(scheduler->internal = engine_new(device, internal_type, true, 0, "D3D12CreateDevice"))) {
        pthread_mutex_destroy(&scheduler->graveyard_lock);
        pthread_mutex_destroy(&scheduler->lock);
        free(scheduler);
        device->scheduler = NULL;
        return E_FAIL;
    }
    snprintf(scheduler->internal->name, sizeof(scheduler->internal->name), "d3d12xs internal");
    return S_OK;
}

/* After a removal, work submitted before it may still be running (a hang is declared on
 * slow work too): destruction waits this long for it before it frees what it uses. */
#define REMOVED_DRAIN_MS 10000u

void d3d12_scheduler_destroy(struct d3d12_device *device)
{
    struct d3d12_scheduler *scheduler = scheduler_of(device);
    VkSemaphore *semaphores = NULL;
    uint64_t *values = NULL;
    size_t count = 0;

    if (!scheduler)
        return;
    pthread_mutex_lock(&scheduler->lock);
    for (size_t i = 0; i < scheduler->engine_count; i++)
        engine_drop_held_locked(scheduler->engines[i], "the device is destroyed");
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
    collect_retired(device, true);
    pthread_mutex_lock(&scheduler->lock);
    while (scheduler->engine_count)
        engine_free_locked(scheduler, scheduler->engines[0]);
    pthread_mutex_unlock(&scheduler->lock);
    collect_retired(device, true); /* the serial semaphores those frees retired */
    empty_graveyard(device, true);
    free(scheduler->graveyard);
    pthread_mutex_destroy(&scheduler->graveyard_lock);
    free(scheduler->engines);
    free(scheduler->retired);
    pthread_mutex_destroy(&scheduler->lock);
    free(scheduler);
    device->scheduler = NULL;
}
