/* The scheduler's internal state, shared by its parts (scheduler.h says what they do together):
 *   engine.c         engines: a VkQueue, its serial semaphore, the work held on it;
 *   timeline.c       fences' timelines;
 *   fence_values.c   each timeline's map of virtual semaphore values to D3D12 values, the CPU
 *                    Signal, and how fence waits and host watches are resolved against it;
 *   wait_resolver.c  the readiness rule of each wait, and how a memory wait is met;
 *   submission.c     ready operations turned into ordered Vulkan submissions, handed to Vulkan
 *                    by one drainer outside every lock the watchdog or another queue needs;
 *   retirement.c     objects destroyed once the work enqueued before their release finished
 *                    (its own lock);
 *   scheduler.c      enqueueing, the flush of held work, the watchdog's view (waiter.c applies
 *                    the policy).
 * Lock order: the scheduler lock, then the pending lock (submission.c), then the retirement lock,
 * then the graveyard lock; a timeline's values lock (fence_values.c) comes last of all, after
 * these and the waiter's lock, and nothing is taken under it. Graphics memory's process-wide lock (memory/graphics_memory.c) comes
 * before all of them: it retires imports with it held; nothing here takes it. */
#ifndef D3D12XS_SCHEDULER_STATE_H
#define D3D12XS_SCHEDULER_STATE_H

#include "sync/scheduler.h"
#include "sync/fence_values.h"

/* ---- operations: one type per kind ---- */

enum d3d12_op_kind {
    D3D12_OP_EXECUTE,
    D3D12_OP_SIGNAL,
    D3D12_OP_WAIT_FENCE,
    D3D12_OP_WAIT_MEMORY,
};

struct d3d12_op_execute {
    VkCommandBuffer *command_buffers;
    uint32_t command_buffer_count;
    bool on_helper;                      /* runs on the internal compute-capable engine */
    struct d3d12_value_write *writes;    /* known values its segments write, in order */
    uint32_t write_count;
};

/* SIGNAL and WAIT_FENCE: holds a reference on the timeline. value is the D3D12 value. */
struct d3d12_op_fence {
    struct d3d12_timeline *timeline;
    uint64_t value;
    /* WAIT_FENCE, once found ready (it stays so: the signal it counts on was handed to Vulkan):
     * the semaphore's virtual value to wait for, 0 for none (fence_values.h). */
    bool resolved;
    uint64_t wait_virtual;
    /* WAIT_FENCE: the destination stages of its semaphore wait (the queue's choice: a WaitX
     * that leaves the prefetch parser free leaves out DRAW_INDIRECT, docs/sync.md). */
    VkPipelineStageFlags2 stages;
};

/* How a ready memory wait is met (wait_resolver.c). */
enum d3d12_memory_wait_met_by {
    D3D12_MET_NOT_YET,        /* not ready when last looked at */
    D3D12_MET_IN_MEMORY,      /* the comparison holds for the value in memory now */
    D3D12_MET_BY_QUEUE_ORDER, /* the satisfying write was submitted earlier to the same VkQueue */
    D3D12_MET_BY_SPIN,        /* the spin command buffer runs first */
    D3D12_MET_BY_SEMAPHORE,   /* the submission waits for the writer engine's serial */
};

struct d3d12_op_wait_memory {
    struct d3d12_memory_wait memory;
    enum d3d12_memory_wait_met_by met_by;
    struct d3d12_engine *writer;         /* met on the GPU: the engine whose serial (BY_SEMAPHORE: waited for)... */
    uint64_t writer_serial;              /* ...reaches this */
};

struct d3d12_op_trace;

struct d3d12_op {
    enum d3d12_op_kind kind;
    uint64_t serial;
    uint64_t enqueued_ns;
    char what[192];                      /* "list 'x' segment 2 (calls 17-30; ...)": for hang reports */
    bool has_commands;                   /* EXECUTE: its segments hold a GPU command (hang reports name those) */
    struct d3d12_op_trace *trace;        /* EXECUTE while a capture runs: its segments' names (queue_trace.c) */
    union {
        struct d3d12_op_execute execute;
        struct d3d12_op_fence signal;
        struct d3d12_op_fence wait_fence;
        struct d3d12_op_wait_memory wait_memory;
    } u;
};

/* A memory wait met on the GPU sits inside a run of its engine's submission; a semaphore wait
 * starts a submission of its own. */
static inline bool d3d12_op_waits_inside_run(const struct d3d12_op *op)
{
    return op->kind == D3D12_OP_WAIT_MEMORY && op->u.wait_memory.met_by != D3D12_MET_NOT_YET
            && op->u.wait_memory.met_by != D3D12_MET_BY_SEMAPHORE;
}

/* ---- engines ---- */

/* What an engine last handed to Vulkan, for naming the work that stopped progressing. */
#define D3D12_INFLIGHT_RING 8
struct d3d12_inflight {
    uint64_t serial;
    bool on_gpu_wait;                    /* a GPU-side memory wait: the report reads memory */
    struct d3d12_memory_wait memory;
    char what[192];
    bool has_commands;
};

/* A known value handed to Vulkan: later memory waits for it may wait on the GPU. */
#define D3D12_PUBLISHED_RING 32
struct d3d12_published_write {
    struct d3d12_value_write write;
    uint64_t serial;
};

struct d3d12_engine {
    struct d3d12_device *device;
    unsigned refcount;          /* the queue's, plus one per allocator that used it */
    bool orphaned;              /* its queue is gone; held work still runs when its waits are met */
    bool internal;              /* the scheduler's own compute-capable engine */
    D3D12_COMMAND_LIST_TYPE type;
    VkQueue vk_queue;
    uint32_t family;
    VkSemaphore serial_semaphore;
    uint64_t next_serial;       /* last serial handed out */
    uint64_t submitted_serial;  /* last serial handed to the submission queue (in order to Vulkan) */
    /* Serials up to dropped_through were dropped unsubmitted and count as done once
     * drop_wait_serial is: read without the lock by retirement.c (written wait-serial first). */
    _Atomic uint64_t dropped_through, drop_wait_serial;
    uint64_t internal_waited;   /* internal-engine serial this engine's work already waits for */
    bool parked;                /* held[0] is a ready fence wait kept for the next operation's submission */
    struct d3d12_op *held;      /* held_count operations, from held within held_buffer */
    struct d3d12_op *held_buffer;
    size_t held_count, held_capacity;
    uint64_t watch_completed, watch_since_ns;
    struct d3d12_inflight inflight[D3D12_INFLIGHT_RING];
    unsigned inflight_next;
    struct d3d12_published_write published[D3D12_PUBLISHED_RING];
    unsigned published_next;
    struct d3d12_published_write reached[D3D12_PUBLISHED_RING]; /* the newest writes of held[0, reach) in a flush's pass */
    unsigned reached_next;
    char name[64];
    uint32_t trace_track;               /* its track in trace files (queue_trace.c) */
    struct d3d12_engine_trace *trace;   /* what a capture needs of it, made on first use */
};

/* ---- the submission queue (submission.c) ---- */

struct d3d12_pending_submit;

/* ---- the scheduler ---- */

struct d3d12_retirement;

struct d3d12_scheduler {
    pthread_mutex_t lock;
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
    /* Submissions decided under the lock, in order, not yet handed to Vulkan (submission.c):
     * appended with both this lock and pending_lock held, taken with pending_lock alone, so a
     * drainer never waits for the scheduler lock (which the waiter takes in a tight loop while
     * memory waits are being released). */
    pthread_mutex_t pending_lock;
    struct d3d12_pending_submit *pending_first, *pending_last;
    pthread_mutex_t submit_lock;      /* held by the one thread handing them to Vulkan */
    struct d3d12_retirement *retirement;
};

static inline struct d3d12_scheduler *d3d12_scheduler_of(struct d3d12_device *device)
{
    return device->scheduler;
}

/* What the engine's serial semaphore says has finished (UINT64_MAX if it cannot be read). */
static inline uint64_t d3d12_engine_completed(struct d3d12_engine *engine)
{
    uint64_t value = 0;
    if (vkGetSemaphoreCounterValue(engine->device->vk_device, engine->serial_semaphore, &value) != VK_SUCCESS)
        return UINT64_MAX;
    return value;
}

/* Whether the operation with this serial has finished, or was dropped and what was submitted
 * before it has. Safe without the scheduler lock: the drop fields are atomics, written
 * wait-serial first. */
static inline bool d3d12_engine_serial_done(struct d3d12_engine *engine, uint64_t serial, uint64_t completed)
{
    if (completed >= serial)
        return true;
    uint64_t dropped_through = atomic_load(&engine->dropped_through);
    return serial <= dropped_through && completed >= atomic_load(&engine->drop_wait_serial);
}

static inline bool d3d12_engine_idle_locked(struct d3d12_engine *engine)
{
    return !engine->held_count && d3d12_engine_serial_done(engine, engine->next_serial, d3d12_engine_completed(engine));
}

/* engine.c */
struct d3d12_engine *d3d12_engine_new(struct d3d12_device *device, D3D12_COMMAND_LIST_TYPE type, bool internal, int vk_queue_index,
        const char *method);
void d3d12_engine_free_locked(struct d3d12_scheduler *scheduler, struct d3d12_engine *engine);
void d3d12_engine_free_finished_locked(struct d3d12_scheduler *scheduler);
void d3d12_engine_note_inflight_locked(struct d3d12_engine *engine, const struct d3d12_op *op);
void d3d12_engine_publish_writes_locked(struct d3d12_scheduler *scheduler, struct d3d12_engine *engine, const struct d3d12_op *op);

/* queue_trace.c: the queues' tracks of the trace file (docs/trace.md). describe is NULL while no
 * capture runs; the others do nothing for ops without trace or with no capture running. */
struct d3d12_op_trace *d3d12_queue_trace_describe(const struct d3d12_submit_segment *segments, uint32_t count);
void d3d12_queue_trace_free(struct d3d12_op_trace *trace);
/* The command buffers an EXECUTE op submits (timestamps around its segments while traced)... */
uint32_t d3d12_queue_trace_buffer_count(const struct d3d12_op *op);
/* ...written to out; the op's trace moves to the engine's records. */
uint32_t d3d12_queue_trace_execute_locked(struct d3d12_engine *engine, struct d3d12_op *op, VkCommandBuffer *out);
void d3d12_queue_trace_wait_locked(struct d3d12_scheduler *scheduler, struct d3d12_engine *engine, const struct d3d12_op *op);
void d3d12_queue_trace_signal_locked(struct d3d12_engine *engine, const struct d3d12_op *op, uint64_t virtual_value);
/* Events of the recorded work that finished (all: everything recorded, at device destruction). */
void d3d12_queue_trace_collect_locked(struct d3d12_scheduler *scheduler, uint64_t now_ns, bool all);
void d3d12_queue_trace_name_engine(struct d3d12_engine *engine);
void d3d12_queue_trace_engine_free(struct d3d12_engine *engine);

/* timeline.c */
void d3d12_timeline_release_locked(struct d3d12_device *device, struct d3d12_timeline *timeline);

/* scheduler.c */
void d3d12_op_cleanup_locked(struct d3d12_device *device, struct d3d12_op *op);
void d3d12_engine_drop_held_locked(struct d3d12_engine *engine, const char *why);

/* wait_resolver.c: whether op can go now; simulated: see d3d12_resolver_simulate_locked. */
bool d3d12_op_ready_locked(struct d3d12_scheduler *scheduler, struct d3d12_engine *engine, struct d3d12_op *op, const size_t *simulated);
/* How far each engine's held operations can go now (reach[e] of them). */
void d3d12_resolver_simulate_locked(struct d3d12_scheduler *scheduler, size_t *reach);

/* submission.c: turns a run of ready operations that starts at ops[0] into submissions on the
 * submission queue; returns how many operations it took. */
size_t d3d12_submission_take_run_locked(struct d3d12_scheduler *scheduler, struct d3d12_engine *engine, struct d3d12_op *ops, size_t count,
        HRESULT *hr);
/* Releases the scheduler lock (held on entry) and hands every queued submission to Vulkan, in
 * order, unless another thread is doing it (it then hands these over too). Returns the first
 * failure of the submissions this thread handed over. */
HRESULT d3d12_submission_unlock_and_drain(struct d3d12_device *device);
/* The same, waiting for the submit lock, with the scheduler lock not held (device destruction). */
HRESULT d3d12_submission_drain_all(struct d3d12_device *device);
/* Frees what was never handed over (device destruction, after a drain). */
void d3d12_submission_discard_locked(struct d3d12_scheduler *scheduler);

/* retirement.c */
HRESULT d3d12_retirement_create(struct d3d12_scheduler *scheduler);
void d3d12_retirement_destroy(struct d3d12_device *device);
/* Retires object on the serials every busy engine has handed out so far. */
void d3d12_retire_locked(struct d3d12_scheduler *scheduler, struct d3d12_device *device, d3d12_retire_fn destroy, void *object);
/* Destroys retired objects whose work finished (all of them when force); returns how many are left. */
size_t d3d12_retirement_collect(struct d3d12_device *device, bool force);
/* An engine is freed: retired objects no longer wait for it. */
void d3d12_retirement_forget_engine(struct d3d12_device *device, const struct d3d12_engine *engine);
/* Semaphores are destroyed a while after their last signal was seen (lavapipe). */
void d3d12_bury_semaphore(struct d3d12_device *device, VkSemaphore semaphore);
size_t d3d12_empty_graveyard(struct d3d12_device *device, bool force);

#endif
