/* Retirement: Vulkan objects that enqueued work may still use are destroyed once every engine
 * has finished the serials it had handed out when they were released. Its own lock, taken
 * after the scheduler's where both are held; collection takes only this one, so destroying
 * objects never holds up a queue or the watchdog. */
#include <stdlib.h>

#include "sync/scheduler_state.h"

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

/* A semaphore whose last signal has been seen, kept a while before it is destroyed. */
struct buried_semaphore {
    VkSemaphore semaphore;
    uint64_t since_ns;
};

struct d3d12_retirement {
    pthread_mutex_t lock;
    struct retired_object *retired;
    size_t retired_count, retired_capacity;
    pthread_mutex_t graveyard_lock; /* may be taken with or without the locks above */
    struct buried_semaphore *graveyard;
    size_t graveyard_count, graveyard_capacity;
};

/* Semaphores are destroyed a while after their work is seen finished, not at once: lavapipe's
 * queue thread can still touch a timeline it has just signalled (both crashes of that thread
 * seen in testing followed such a destruction). */
#define SEMAPHORE_BURIAL_NS (500ull * 1000 * 1000)

HRESULT d3d12_retirement_create(struct d3d12_scheduler *scheduler)
{
    struct d3d12_retirement *retirement;
    if (!(retirement = calloc(1, sizeof(*retirement))))
        return E_OUTOFMEMORY;
    pthread_mutex_init(&retirement->lock, NULL);
    pthread_mutex_init(&retirement->graveyard_lock, NULL);
    scheduler->retirement = retirement;
    return S_OK;
}

void d3d12_retirement_destroy(struct d3d12_device *device)
{
    struct d3d12_retirement *retirement = d3d12_scheduler_of(device)->retirement;
    if (!retirement)
        return;
    d3d12_empty_graveyard(device, true);
    free(retirement->graveyard);
    free(retirement->retired);
    pthread_mutex_destroy(&retirement->graveyard_lock);
    pthread_mutex_destroy(&retirement->lock);
    free(retirement);
    d3d12_scheduler_of(device)->retirement = NULL;
}

void d3d12_bury_semaphore(struct d3d12_device *device, VkSemaphore semaphore)
{
    struct d3d12_retirement *retirement = d3d12_scheduler_of(device)->retirement;
    pthread_mutex_lock(&retirement->graveyard_lock);
    if (d3d12xs_array_reserve((void **)&retirement->graveyard, &retirement->graveyard_capacity, retirement->graveyard_count + 1,
            sizeof(*retirement->graveyard)))
        retirement->graveyard[retirement->graveyard_count++] = (struct buried_semaphore){semaphore, d3d12xs_now_ns()};
    else
        vkDestroySemaphore(device->vk_device, semaphore, NULL);
    pthread_mutex_unlock(&retirement->graveyard_lock);
}

size_t d3d12_empty_graveyard(struct d3d12_device *device, bool force)
{
    struct d3d12_retirement *retirement = d3d12_scheduler_of(device)->retirement;
    uint64_t now = d3d12xs_now_ns();
    size_t kept = 0;
    pthread_mutex_lock(&retirement->graveyard_lock);
    for (size_t i = 0; i < retirement->graveyard_count; i++) {
        if (force || now - retirement->graveyard[i].since_ns > SEMAPHORE_BURIAL_NS)
            vkDestroySemaphore(device->vk_device, retirement->graveyard[i].semaphore, NULL);
        else
            retirement->graveyard[kept++] = retirement->graveyard[i];
    }
    retirement->graveyard_count = kept;
    pthread_mutex_unlock(&retirement->graveyard_lock);
    return kept;
}

void d3d12_retire_locked(struct d3d12_scheduler *scheduler, struct d3d12_device *device, d3d12_retire_fn destroy, void *object)
{
    struct d3d12_retirement *retirement = scheduler->retirement;
    struct retired_object entry = {.destroy = destroy, .object = object};
    size_t pending_capacity = 0;

    for (size_t i = 0; i < scheduler->engine_count; i++) {
        struct d3d12_engine *engine = scheduler->engines[i];
        if (d3d12_engine_idle_locked(engine))
            continue;
        if (!d3d12xs_array_reserve((void **)&entry.pending, &pending_capacity, entry.pending_count + 1, sizeof(*entry.pending)))
            break; /* out of memory: the object is destroyed with the device */
        entry.pending[entry.pending_count++] = (struct engine_serial){engine, engine->next_serial};
    }
    if (!entry.pending_count) {
        destroy(device, object);
        return;
    }
    pthread_mutex_lock(&retirement->lock);
    if (!d3d12xs_array_reserve((void **)&retirement->retired, &retirement->retired_capacity, retirement->retired_count + 1,
            sizeof(*retirement->retired))) {
        pthread_mutex_unlock(&retirement->lock);
        ERR("out of memory: an object the GPU may still use is leaked instead of destroyed");
        free(entry.pending);
        return;
    }
    retirement->retired[retirement->retired_count++] = entry;
    pthread_mutex_unlock(&retirement->lock);
}

void d3d12_scheduler_retire(struct d3d12_device *device, d3d12_retire_fn destroy, void *object)
{
    struct d3d12_scheduler *scheduler = d3d12_scheduler_of(device);
    pthread_mutex_lock(&scheduler->lock);
    d3d12_retire_locked(scheduler, device, destroy, object);
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

void d3d12_retirement_forget_engine(struct d3d12_device *device, const struct d3d12_engine *engine)
{
    struct d3d12_retirement *retirement = d3d12_scheduler_of(device)->retirement;
    pthread_mutex_lock(&retirement->lock);
    for (size_t i = 0; i < retirement->retired_count; i++) {
        struct retired_object *entry = &retirement->retired[i];
        uint32_t kept = 0;
        for (uint32_t p = 0; p < entry->pending_count; p++)
            if (entry->pending[p].engine != engine)
                entry->pending[kept++] = entry->pending[p];
        entry->pending_count = kept;
    }
    pthread_mutex_unlock(&retirement->lock);
}

size_t d3d12_retirement_collect(struct d3d12_device *device, bool force)
{
    struct d3d12_retirement *retirement = d3d12_scheduler_of(device)->retirement;
    struct retired_object *ready = NULL;
    size_t ready_count = 0, ready_capacity = 0, kept = 0;

    /* Engines named here cannot be freed meanwhile: freeing one takes this lock first. */
    pthread_mutex_lock(&retirement->lock);
    for (size_t i = 0; i < retirement->retired_count; i++) {
        struct retired_object *entry = &retirement->retired[i];
        uint32_t pending = 0;
        for (uint32_t p = 0; p < entry->pending_count; p++) {
            struct engine_serial *wait = &entry->pending[p];
            if (!force && !d3d12_engine_serial_done(wait->engine, wait->serial, d3d12_engine_completed(wait->engine)))
                entry->pending[pending++] = *wait;
        }
        entry->pending_count = pending;
        if (!pending && d3d12xs_array_reserve((void **)&ready, &ready_capacity, ready_count + 1, sizeof(*ready)))
            ready[ready_count++] = *entry;
        else
            retirement->retired[kept++] = *entry;
    }
    retirement->retired_count = kept;
    pthread_mutex_unlock(&retirement->lock);
    /* Destroyed outside the lock: a destroy may retire something itself (a timeline's fence). */
    for (size_t i = 0; i < ready_count; i++) {
        free(ready[i].pending);
        ready[i].destroy(device, ready[i].object);
    }
    free(ready);
    return kept;
}
