/* The scheduler: the only code that submits to Vulkan, and the owner of every wait. Its parts
 * (engines, timelines, the wait resolver, submission, retirement) are drawn in scheduler_state.h.
 *
 * Each D3D12 queue is an *engine*: a VkQueue plus a private timeline semaphore, the
 * serial, that counts the engine's finished operations. Operations (execute a run of
 * segments, signal a fence, wait for a fence value, wait for a value in memory) take the
 * next serial when they are enqueued. An operation whose wait cannot be met yet is held,
 * with everything after it on its engine, until its readiness rule holds:
 *   - fence wait:  the fence's value is reached, or a queue or CPU signal of at least that
 *                  value was handed to Vulkan since (fence_values.h: values may go down);
 *   - memory wait: the comparison holds for the value in memory now.
 * Vulkan therefore never sees a wait whose signal comes later, which cannot deadlock even
 * when every engine shares one VkQueue (lavapipe).
 *
 * Vulkan objects that submitted or held work may still use are retired, not destroyed:
 * d3d12_scheduler_retire() destroys them once every engine has finished the serials it had
 * enqueued at that moment. Decisions are made under the scheduler's lock; the submissions they
 * produce are handed to Vulkan after it is released, and retirement has a lock of its own. */
#ifndef D3D12XS_SCHEDULER_H
#define D3D12XS_SCHEDULER_H

#include "device/device.h"

struct d3d12_scheduler;
struct d3d12_engine;

/* The scheduler's side of a fence: its semaphore and the map from the semaphore's virtual values
 * to D3D12 values (fence_values.h says why values need a map). Held by the fence, by queued
 * operations and by event registrations; the semaphore is retired when the last of them lets go. */
struct d3d12_fence_signal {
    uint64_t virtual_value;       /* what the semaphore reaches when the signal executes */
    uint64_t value;               /* the D3D12 value it sets */
};
struct d3d12_fence_watch;
struct d3d12_timeline {
    VkSemaphore semaphore;        /* counts virtual values */
    unsigned refcount;            /* under the scheduler lock */
    const struct d3d12_engine *last_signal_engine; /* identity only */
    bool orphaned;                /* the fence is gone: only queued signals can still move it */
    char name[64];                /* the fence's name, for messages */
    /* The trace (queue_trace.c): the flow of the latest CPU Signal and its value, so a queue
     * wait it releases ends that arrow (scheduler lock). */
    uint64_t trace_cpu_flow, trace_cpu_value;
    /* A CPU Signal's flush of held work (scheduler lock): the waits it meets go even if a queue
     * signal, pending before it, lands meanwhile and sets a lower value. */
    bool cpu_signal_flush;
    uint64_t cpu_signal_value;
    /* fence_values.c, under values_lock (taken last of all locks; virtual_next is written with
     * the scheduler lock held too, so either lock is enough to read it): */
    pthread_mutex_t values_lock;
    uint64_t virtual_next;        /* the last virtual value handed out */
    uint64_t completed_value;     /* D3D12 value of the latest signal known complete (or CPU signal) */
    uint64_t completed_virtual;   /* the virtual value up to which completed_value accounts */
    struct d3d12_fence_signal *signals; /* signals handed to Vulkan, not yet seen complete: a ring */
    size_t signal_first, signal_count, signal_capacity;
    struct d3d12_fence_watch *watches;  /* host waits not met yet */
};

/* A wait on a value in memory (the console's Wait32/64BitValueX): readable by the host. */
struct d3d12_memory_wait {
    const volatile void *host_address;
    uint32_t size;                /* 4 or 8 bytes */
    D3D12_COMPARISON_FUNC comparison;
    uint64_t value;
    uint64_t gpu_address;         /* identifies the value among published writes; for messages */
    /* A command buffer that waits on the GPU (sync/gpu_wait.h), or VK_NULL_HANDLE: the
     * scheduler runs it instead of holding the segment when a satisfying write is already
     * handed to Vulkan on a queue the wait cannot hold up. */
    VkCommandBuffer gpu_command_buffer;
};

/* A value a segment writes whose value is known when it is recorded (bottom- and
 * top-of-pipe writes): what lets a later memory wait be waited out on the GPU. */
struct d3d12_value_write {
    uint64_t gpu_address;
    uint64_t value;
    uint32_t size;
};

/* One run of recorded commands that executes as a unit. */
/* A command list's PIX events while a capture runs (commands/command_list_pix.c records them
 * with GPU timestamps into its pool; queue_trace.c reads them once the segment that ends each
 * one has run). Reference-counted: the list and every traced execution hold one. */
struct d3d12_trace_mark {
    bool marker;                  /* SetMarker: an instant at begin_query */
    uint32_t begin_query, end_query; /* end_query is UINT32_MAX while the event is open */
    uint32_t end_segment;         /* the list's segment in which it ended */
    char name[64];
};
struct d3d12_trace_marks {
    _Atomic unsigned refcount;
    struct d3d12_device *device;
    VkQueryPool pool;
    uint32_t query_count, queries_used;
    bool reset_recorded;          /* the recording reset the pool before its first timestamp */
    struct d3d12_trace_mark *marks;
    uint32_t count;
    size_t capacity;
};
struct d3d12_trace_marks *d3d12_trace_marks_create(struct d3d12_device *device, uint32_t query_count);
void d3d12_trace_marks_add_ref(struct d3d12_trace_marks *marks);
void d3d12_trace_marks_release(struct d3d12_trace_marks *marks);

struct d3d12_submit_segment {
    VkCommandBuffer command_buffer;
    bool on_helper;               /* needs a compute-capable queue (transfer-only engines) */
    const struct d3d12_memory_wait *wait; /* waited for before the segment starts, or NULL */
    const char *list_name;        /* for hang reports */
    uint32_t index;               /* segment index in its list */
    uint32_t first_call;          /* call index of its first command */
    uint32_t last_call;           /* and of its last (UINT32_MAX: it has none) */
    const char *cut_by;           /* the command that started it, for hang reports (or NULL) */
    const char *first_command, *last_command; /* its first and last GPU command (kind names, or NULL) */
    uint32_t first_command_call, last_command_call;
    const struct d3d12_value_write *writes; /* known values it writes, in order */
    uint32_t write_count;
    struct d3d12_trace_marks *trace_marks;  /* its list's PIX events (or NULL) */
};

HRESULT d3d12_scheduler_create(struct d3d12_device *device);
/* Waits (bounded) for submitted work, drops held work, destroys every retired object. */
void d3d12_scheduler_destroy(struct d3d12_device *device);

/* vk_queue_index picks one of the family's VkQueues (modulo their count); -1 spreads the
 * engines of one family over them in turn. */
struct d3d12_engine *d3d12_engine_create(struct d3d12_device *device, D3D12_COMMAND_LIST_TYPE type, int vk_queue_index, const char *method);
void d3d12_engine_add_ref(struct d3d12_engine *engine);
void d3d12_engine_release(struct d3d12_engine *engine);
/* The queue is released: its held work still runs when its waits are met (a released fence
 * meets the waits on it that nothing can signal), and the engine goes once all its work
 * finished and nothing refers to it. */
void d3d12_engine_orphan(struct d3d12_engine *engine);
void d3d12_engine_set_name(struct d3d12_engine *engine, const char *name);
uint32_t d3d12_engine_family(const struct d3d12_engine *engine);
/* Whether the operation with this serial (from d3d12_scheduler_execute) has finished,
 * waiting up to timeout_ns when it was handed to Vulkan: a fence value and the engine's
 * serial are signalled by one submission, but Vulkan does not promise the host sees both
 * at once. */
bool d3d12_engine_serial_done_soon(struct d3d12_engine *engine, uint64_t serial, uint64_t timeout_ns);

HRESULT d3d12_timeline_create(struct d3d12_device *device, uint64_t initial_value, struct d3d12_timeline **timeline);
void d3d12_timeline_set_name(struct d3d12_device *device, struct d3d12_timeline *timeline, const char *name);
/* The fence is released. */
void d3d12_timeline_orphan(struct d3d12_device *device, struct d3d12_timeline *timeline);
uint64_t d3d12_timeline_completed_value(struct d3d12_device *device, struct d3d12_timeline *timeline);
/* ID3D12Fence::Signal from the CPU: sets the value at once, lower ones too. *waiters_must_look:
 * queue signals were pending, so the semaphore could not move and nothing waiting on it wakes. */
HRESULT d3d12_timeline_signal_on_host(struct d3d12_device *device, struct d3d12_timeline *timeline, uint64_t value, bool *waiters_must_look,
        const char *method);

/* Queue operations. Segments run in order. *serial receives the serial of the last operation,
 * for allocator reuse checks. */
HRESULT d3d12_scheduler_execute(struct d3d12_engine *engine, const struct d3d12_submit_segment *segments, uint32_t segment_count,
        uint64_t *serial);
HRESULT d3d12_scheduler_signal(struct d3d12_engine *engine, struct d3d12_timeline *timeline, uint64_t value);
/* stages: the destination stage mask of the Vulkan semaphore wait (what of the queue's later
 * work the wait holds back; ALL_COMMANDS for a D3D12 Wait). *parked: the wait is ready and kept
 * for the engine's next operation (the waiter submits it if none comes within 20 us, so it
 * must be awake). */
HRESULT d3d12_scheduler_wait_fence(struct d3d12_engine *engine, struct d3d12_timeline *timeline, uint64_t value, VkPipelineStageFlags2 stages,
        bool *parked);
/* Runs one command buffer on an internal compute-capable engine and waits for it (query
 * heap initialisation). */
HRESULT d3d12_scheduler_run_internal(struct d3d12_device *device, VkCommandBuffer command_buffer, const char *method);
/* internal_work.c: record(command_buffer, context) into a command buffer of a pool of its own,
 * run it as d3d12_scheduler_run_internal does, and retire the pool once it has run (objects the
 * work uses are retired by the caller after this returns). what names the work in messages. */
HRESULT d3d12_scheduler_record_internal(struct d3d12_device *device, void (*record)(VkCommandBuffer command_buffer, void *context),
        void *context, const char *what, const char *method);
/* Waits on the CPU until the internal engine's work enqueued so far has run (CPU access to
 * textures goes through it); the watchdog's hang timeout applies. The device's removal reason
 * (one line naming what) when it was removed meanwhile. */
HRESULT d3d12_scheduler_finish_internal(struct d3d12_device *device, const char *what, const char *method);
/* The internal engine's queue family, for command pools of d3d12_scheduler_run_internal. */
uint32_t d3d12_scheduler_internal_family(struct d3d12_device *device);

/* Destroys object with destroy() once all work enqueued so far has finished (at once when
 * none is pending). Safe from any thread. */
typedef void (*d3d12_retire_fn)(struct d3d12_device *device, void *object);
void d3d12_scheduler_retire(struct d3d12_device *device, d3d12_retire_fn destroy, void *object);

/* The end of an object's Release: drops its ID3D12Object part now and hands the rest to
 * destroy() once the work enqueued so far has finished. */
void d3d12_scheduler_retire_object(struct d3d12xs_object *object, d3d12_retire_fn destroy, void *impl);

/* How memory waits were met so far (D3D12XSGetSyncStatistics). */
void d3d12_scheduler_memory_wait_counts(struct d3d12_device *device, uint64_t *on_host, uint64_t *on_gpu);

/* ---- for the waiter thread (waiter.c) ---- */

struct d3d12_scheduler_poll {
    bool memory_waits_held;       /* poll again soon */
    bool busy;                    /* work submitted, held or retired: keep watching */
    char stall[512];              /* held work or submitted work that made no progress for the
                                   * timeout, described; empty when none */
};
/* Submits held work that became ready, destroys retired objects whose work finished, and
 * looks for work stalled longer than timeout_ns (0: never); the waiter applies the policy. */
void d3d12_scheduler_poll(struct d3d12_device *device, uint64_t now_ns, uint64_t timeout_ns, struct d3d12_scheduler_poll *result);
/* Drops every engine's held work (the device is removed). */
void d3d12_scheduler_drop_held(struct d3d12_device *device, const char *why);
/* For the line of DXGI_ERROR_DEVICE_HUNG: for every queue with work not finished, the last work
 * known finished and the first not finished (list, segments, calls; a held wait with what it
 * waits for), as "; queue 'a' last finished ..., first not finished ..." in out; with a capture
 * running, a hang span on each such queue's track (the file written at once). */
void d3d12_scheduler_describe_hang(struct d3d12_device *device, char *out, size_t size);

/* Submits held work whose memory waits are met now, and parked fence waits that nothing came
 * to join since before now_ns - 20 us; returns how many memory waits stay held and, in
 * *waits_held, whether any memory or parked wait does (the waiter then polls again soon).
 * Cheaper than d3d12_scheduler_poll(), which it stands in for between full polls. */
unsigned d3d12_scheduler_flush_memory_waits(struct d3d12_device *device, uint64_t now_ns, bool *waits_held);

/* Whether current compares true with value (the console's wait comparisons). */
bool d3d12_comparison_holds(D3D12_COMPARISON_FUNC comparison, uint64_t current, uint64_t value);
/* Evaluates a memory wait's comparison on the value in memory now. */
bool d3d12_memory_wait_ready(const struct d3d12_memory_wait *wait, uint64_t *current);
const char *d3d12_comparison_name(D3D12_COMPARISON_FUNC comparison);

/* Timeline references for registrations that outlive the fence (waiter.c). */
void d3d12_timeline_add_ref(struct d3d12_device *device, struct d3d12_timeline *timeline);
void d3d12_timeline_release(struct d3d12_device *device, struct d3d12_timeline *timeline);

#endif
