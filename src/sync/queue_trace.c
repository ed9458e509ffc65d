/* The queues' tracks of the trace file (docs/trace.md), from what the scheduler decides.
 *
 * While a capture runs, each segment an engine submits is framed by two timestamp queries
 * (pre-recorded command buffers of a per-engine ring, reset on the host), so its span is GPU
 * time converted to the host clock (device/gpu_clock.c); where the engine's family has no
 * timestamps, the ring is full or the clock cannot be calibrated, the span runs from submission
 * to the moment the host saw the work finished. Waits are spans from when they held the queue
 * (after the work before them) to when they were met: at once for waits the host released, at
 * the start of the next segment for waits met on the GPU. Signals and value writes are
 * instants; a flow arrow goes from each to the wait it released.
 *
 * Everything here runs under the scheduler lock, when ops are handed to Vulkan (record) and
 * when the waiter polls (collect); events go to the trace writer, whose lock is taken last. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/gpu_clock.h"
#include "sync/scheduler_state.h"
#include "trace/trace.h"

#define TIMESTAMP_SLOTS 512 /* segments with timestamps in flight per engine */

struct d3d12_op_trace {
    uint32_t segment_count;
    struct d3d12_op_trace_segment {
        char list[48];
        uint32_t index, first_call, last_call;
        uint32_t write_count;   /* of the op's writes, in segment order */
        uint32_t slot;          /* timestamp slot, or UINT32_MAX */
        struct d3d12_trace_marks *marks; /* the list's PIX events (a reference), or NULL */
    } segments[];
};

enum record_kind { RECORD_EXECUTE, RECORD_WAIT, RECORD_SIGNAL };

struct trace_record {
    enum record_kind kind;
    uint64_t serial, enqueued_ns, submit_ns;
    struct d3d12_op_trace *segments;          /* EXECUTE (owned) */
    struct d3d12_value_write *writes;         /* EXECUTE (owned copy) */
    uint32_t write_count;
    bool met_on_host;                         /* WAIT: released by the host at submit_ns */
    uint64_t flow;                            /* WAIT: the arrow it ends; SIGNAL: the one it starts (0: none) */
    char name[96];
    struct d3d12xs_trace_args args;
};

struct d3d12_engine_trace {
    VkQueryPool pool;
    VkCommandPool command_pool;
    VkCommandBuffer begin[TIMESTAMP_SLOTS], end[TIMESTAMP_SLOTS];
    uint32_t next_slot, slots_in_use;
    bool timestamps;                          /* the family has them and the clock is calibrated */
    struct trace_record *records;             /* submitted, not collected, in serial order */
    size_t record_count, record_capacity;
    uint64_t last_end_ns;                     /* end of the last segment collected */
    struct trace_record open_wait;            /* a wait met on the GPU, ended by the next segment */
    bool wait_open;
};

void d3d12_queue_trace_free(struct d3d12_op_trace *trace);

/* ---- flow ids: the same arrow seen from both ends ---- */

static uint64_t mix(uint64_t a, uint64_t b)
{
    uint64_t h = (a ^ 0x9e3779b97f4a7c15ull) * 0xbf58476d1ce4e5b9ull;
    h ^= b + 0x94d049bb133111ebull + (h << 6) + (h >> 2);
    return (h ^ (h >> 31)) & ((1ull << 52) - 1); /* exact as a JSON number */
}

static uint64_t fence_flow(const struct d3d12_timeline *timeline, uint64_t virtual_value)
{
    return mix((uint64_t)(uintptr_t)timeline, virtual_value) | 1;
}

static uint64_t write_flow(const struct d3d12_engine *writer, uint64_t serial, uint64_t gpu_address)
{
    return mix(mix(writer->trace_track, serial), gpu_address) | 1;
}

/* ---- per-engine state ---- */

static struct d3d12_engine_trace *engine_trace(struct d3d12_engine *engine)
{
    struct d3d12_device *device = engine->device;
    struct d3d12_engine_trace *trace;

    if (engine->trace)
        return engine->trace;
    if (!(trace = calloc(1, sizeof(*trace))))
        return NULL;
    engine->trace = trace;
    if (!device->queue_map[engine->type].timestamps || !d3d12xs_gpu_clock_available(device))
        return trace;
    VkQueryPoolCreateInfo pool_info = {
        .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
        .queryType = VK_QUERY_TYPE_TIMESTAMP,
        .queryCount = 2 * TIMESTAMP_SLOTS,
    };
    VkCommandPoolCreateInfo command_pool_info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .queueFamilyIndex = engine->family,
    };
    if (vkCreateQueryPool(device->vk_device, &pool_info, NULL, &trace->pool) != VK_SUCCESS
            || vkCreateCommandPool(device->vk_device, &command_pool_info, NULL, &trace->command_pool) != VK_SUCCESS) {
        WARN("queue '%s': no timestamp queries for the trace; its segments show host times", engine->name);
        return trace;
    }
    vkResetQueryPool(device->vk_device, trace->pool, 0, 2 * TIMESTAMP_SLOTS);
    trace->timestamps = true;
    return trace;
}

/* The command buffer writing timestamp query (recorded on first use, submitted again after). */
static VkCommandBuffer timestamp_command_buffer(struct d3d12_engine *engine, struct d3d12_engine_trace *trace, uint32_t slot, bool end)
{
    VkCommandBuffer *command_buffer = end ? &trace->end[slot] : &trace->begin[slot];
    VkCommandBufferAllocateInfo allocate_info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = trace->command_pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    VkCommandBufferBeginInfo begin_info = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};

    if (*command_buffer)
        return *command_buffer;
    if (vkAllocateCommandBuffers(engine->device->vk_device, &allocate_info, command_buffer) != VK_SUCCESS) {
        *command_buffer = VK_NULL_HANDLE;
        return VK_NULL_HANDLE;
    }
    vkBeginCommandBuffer(*command_buffer, &begin_info);
    /* After all earlier work of the queue: the segment's start is when it could start. */
    vkCmdWriteTimestamp2(*command_buffer, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, trace->pool, 2 * slot + end);
    vkEndCommandBuffer(*command_buffer);
    return *command_buffer;
}

void d3d12_queue_trace_engine_free(struct d3d12_engine *engine)
{
    struct d3d12_engine_trace *trace = engine->trace;
    VkDevice vk_device = engine->device->vk_device;
    if (!trace)
        return;
    for (size_t i = 0; i < trace->record_count; i++) {
        d3d12_queue_trace_free(trace->records[i].segments);
        free(trace->records[i].writes);
    }
    free(trace->records);
    if (trace->command_pool)
        vkDestroyCommandPool(vk_device, trace->command_pool, NULL);
    if (trace->pool)
        vkDestroyQueryPool(vk_device, trace->pool, NULL);
    free(trace);
    engine->trace = NULL;
}

/* ---- describing and recording ---- */

struct d3d12_op_trace *d3d12_queue_trace_describe(const struct d3d12_submit_segment *segments, uint32_t count)
{
    struct d3d12_op_trace *trace;
    if (!d3d12xs_trace_on() || !(trace = calloc(1, sizeof(*trace) + count * sizeof(trace->segments[0]))))
        return NULL;
    trace->segment_count = count;
    for (uint32_t i = 0; i < count; i++) {
        struct d3d12_op_trace_segment *segment = &trace->segments[i];
        snprintf(segment->list, sizeof(segment->list), "%s", segments[i].list_name ? segments[i].list_name : "?");
        segment->index = segments[i].index;
        segment->first_call = segments[i].first_call;
        segment->last_call = segments[i].last_call;
        segment->write_count = segments[i].write_count;
        segment->slot = UINT32_MAX;
        if ((segment->marks = segments[i].trace_marks))
            d3d12_trace_marks_add_ref(segment->marks);
    }
    return trace;
}

void d3d12_queue_trace_free(struct d3d12_op_trace *trace)
{
    for (uint32_t i = 0; trace && i < trace->segment_count; i++)
        if (trace->segments[i].marks)
            d3d12_trace_marks_release(trace->segments[i].marks);
    free(trace);
}

/* ---- a list's PIX events ---- */

struct d3d12_trace_marks *d3d12_trace_marks_create(struct d3d12_device *device, uint32_t query_count)
{
    struct d3d12_trace_marks *marks = calloc(1, sizeof(*marks));
    VkQueryPoolCreateInfo pool_info = {
        .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
        .queryType = VK_QUERY_TYPE_TIMESTAMP,
        .queryCount = query_count,
    };
    if (!marks)
        return NULL;
    if (vkCreateQueryPool(device->vk_device, &pool_info, NULL, &marks->pool) != VK_SUCCESS) {
        free(marks);
        return NULL;
    }
    atomic_init(&marks->refcount, 1);
    marks->device = device;
    marks->query_count = query_count;
    return marks;
}

void d3d12_trace_marks_add_ref(struct d3d12_trace_marks *marks)
{
    atomic_fetch_add(&marks->refcount, 1);
}

/* The last reference goes once no recorded or traced work needs the pool: the list's, after it
 * was reset or released (its executions hold their own until collected, or retire it). */
void d3d12_trace_marks_release(struct d3d12_trace_marks *marks)
{
    if (atomic_fetch_sub(&marks->refcount, 1) != 1)
        return;
    vkDestroyQueryPool(marks->device->vk_device, marks->pool, NULL);
    free(marks->marks);
    free(marks);
}

/* The host time of one of the list's timestamps, 0 when it cannot be read. */
static uint64_t mark_time(struct d3d12_trace_marks *marks, uint32_t query)
{
    uint64_t ticks;
    if (vkGetQueryPoolResults(marks->device->vk_device, marks->pool, query, 1, sizeof(ticks), &ticks, sizeof(ticks), VK_QUERY_RESULT_64_BIT)
            != VK_SUCCESS)
        return 0;
    return d3d12xs_gpu_clock_host_ns(marks->device, ticks);
}

/* The PIX events and markers that ended in this segment of the list. */
static void emit_marks(struct d3d12_engine *engine, const struct d3d12_op_trace_segment *segment)
{
    struct d3d12_trace_marks *marks = segment->marks;
    for (uint32_t i = 0; marks && i < marks->count; i++) {
        const struct d3d12_trace_mark *mark = &marks->marks[i];
        struct d3d12xs_trace_args args = {.length = 0};
        uint64_t begin, end;
        if (mark->end_segment != segment->index || mark->end_query == UINT32_MAX || !(begin = mark_time(marks, mark->begin_query)))
            continue;
        d3d12xs_trace_arg_string(&args, "list", segment->list);
        if (mark->marker)
            d3d12xs_trace_instant(engine->trace_track, "pix", mark->name, begin, &args);
        else if ((end = mark_time(marks, mark->end_query)))
            d3d12xs_trace_span(engine->trace_track, "pix", mark->name, begin, end > begin ? end : begin, &args);
    }
}

uint32_t d3d12_queue_trace_buffer_count(const struct d3d12_op *op)
{
    return op->trace ? 3 * op->u.execute.command_buffer_count : op->u.execute.command_buffer_count;
}

static struct trace_record *new_record(struct d3d12_engine_trace *trace, const struct d3d12_op *op, enum record_kind kind)
{
    struct trace_record *record;
    if (!d3d12xs_array_reserve((void **)&trace->records, &trace->record_capacity, trace->record_count + 1, sizeof(*trace->records)))
        return NULL;
    record = &trace->records[trace->record_count++];
    memset(record, 0, sizeof(*record));
    record->kind = kind;
    record->serial = op->serial;
    record->enqueued_ns = op->enqueued_ns;
    record->submit_ns = d3d12xs_now_ns();
    return record;
}

uint32_t d3d12_queue_trace_execute_locked(struct d3d12_engine *engine, struct d3d12_op *op, VkCommandBuffer *out)
{
    const struct d3d12_op_execute *execute = &op->u.execute;
    struct d3d12_engine_trace *trace = op->trace ? engine_trace(engine) : NULL;
    struct trace_record *record;
    uint32_t n = 0;

    if (!trace || !(record = new_record(trace, op, RECORD_EXECUTE))) {
        memcpy(out, execute->command_buffers, execute->command_buffer_count * sizeof(*out));
        return execute->command_buffer_count;
    }
    for (uint32_t b = 0; b < execute->command_buffer_count; b++) {
        struct d3d12_op_trace_segment *segment = b < op->trace->segment_count ? &op->trace->segments[b] : NULL;
        VkCommandBuffer begin = VK_NULL_HANDLE, end = VK_NULL_HANDLE;
        if (segment && trace->timestamps && trace->slots_in_use < TIMESTAMP_SLOTS) {
            uint32_t slot = trace->next_slot;
            begin = timestamp_command_buffer(engine, trace, slot, false);
            end = timestamp_command_buffer(engine, trace, slot, true);
            if (begin && end) {
                segment->slot = slot;
                trace->next_slot = (slot + 1) % TIMESTAMP_SLOTS;
                trace->slots_in_use++;
            }
        }
        if (segment && segment->slot != UINT32_MAX)
            out[n++] = begin;
        out[n++] = execute->command_buffers[b];
        if (segment && segment->slot != UINT32_MAX)
            out[n++] = end;
    }
    record->segments = op->trace;
    op->trace = NULL;
    if (execute->write_count && (record->writes = malloc(execute->write_count * sizeof(*record->writes)))) {
        memcpy(record->writes, execute->writes, execute->write_count * sizeof(*record->writes));
        record->write_count = execute->write_count;
    }
    return n;
}

/* The newest write an engine published to the wait's address whose value meets it. */
static const struct d3d12_engine *find_writer_locked(struct d3d12_scheduler *scheduler, const struct d3d12_memory_wait *wait, uint64_t *serial)
{
    const struct d3d12_engine *best = NULL;
    for (size_t e = 0; e < scheduler->engine_count; e++) {
        const struct d3d12_engine *engine = scheduler->engines[e];
        for (unsigned i = 1; i <= D3D12_PUBLISHED_RING && i <= engine->published_next; i++) {
            const struct d3d12_published_write *slot = &engine->published[(engine->published_next - i) % D3D12_PUBLISHED_RING];
            if (slot->write.gpu_address != wait->gpu_address || !d3d12_comparison_holds(wait->comparison, slot->write.value, wait->value))
                continue;
            if (!best || slot->serial > *serial)
                best = engine, *serial = slot->serial;
            break;
        }
    }
    return best;
}

static const char *met_by_name(enum d3d12_memory_wait_met_by met_by)
{
    switch (met_by) {
    case D3D12_MET_BY_QUEUE_ORDER: return "queue order";
    case D3D12_MET_BY_SPIN: return "gpu spin";
    case D3D12_MET_BY_SEMAPHORE: return "semaphore";
    default: return "host";
    }
}

void d3d12_queue_trace_wait_locked(struct d3d12_scheduler *scheduler, struct d3d12_engine *engine, const struct d3d12_op *op)
{
    struct d3d12_engine_trace *trace = d3d12xs_trace_on() ? engine_trace(engine) : NULL;
    struct trace_record *record;

    if (!trace || !(record = new_record(trace, op, RECORD_WAIT)))
        return;
    if (op->kind == D3D12_OP_WAIT_FENCE) {
        const struct d3d12_op_fence *wait = &op->u.wait_fence;
        snprintf(record->name, sizeof(record->name), "Wait %s >= %llu", wait->timeline->name, (unsigned long long)wait->value);
        d3d12xs_trace_arg_string(&record->args, "fence", wait->timeline->name);
        d3d12xs_trace_arg_u64(&record->args, "value", wait->value);
        /* What the wait holds back (docs/sync.md, WaitX): its Vulkan destination stages, and
         * whether the indirect-argument fetch is among them. */
        d3d12xs_trace_arg_hex(&record->args, "stages", wait->stages);
        d3d12xs_trace_arg_string(&record->args, "indirect_arguments", wait->stages & VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT
                || wait->stages & VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT ? "held" : "not held");
        /* a queue signal submitted before it, else the host (its value was reached, or a CPU Signal) */
        record->met_on_host = !wait->wait_virtual;
        d3d12xs_trace_arg_string(&record->args, "met_by", wait->wait_virtual ? "semaphore" : op->enqueued_ns == record->submit_ns ? "already" : "host");
        if (wait->wait_virtual)
            record->flow = fence_flow(wait->timeline, wait->wait_virtual);
        else if (wait->timeline->trace_cpu_flow && wait->timeline->trace_cpu_value >= wait->value)
            record->flow = wait->timeline->trace_cpu_flow;
    } else {
        const struct d3d12_op_wait_memory *wait = &op->u.wait_memory;
        const struct d3d12_engine *writer = wait->writer;
        uint64_t serial = wait->writer_serial;
        snprintf(record->name, sizeof(record->name), "Wait [0x%llx] %s %llu", (unsigned long long)wait->memory.gpu_address,
                d3d12_comparison_name(wait->memory.comparison), (unsigned long long)wait->memory.value);
        d3d12xs_trace_arg_hex(&record->args, "address", wait->memory.gpu_address);
        d3d12xs_trace_arg_string(&record->args, "comparison", d3d12_comparison_name(wait->memory.comparison));
        d3d12xs_trace_arg_u64(&record->args, "reference", wait->memory.value);
        d3d12xs_trace_arg_string(&record->args, "met_by", met_by_name(wait->met_by));
        record->met_on_host = wait->met_by == D3D12_MET_IN_MEMORY;
        if (!writer)
            writer = find_writer_locked(scheduler, &wait->memory, &serial);
        if (writer)
            record->flow = write_flow(writer, serial, wait->memory.gpu_address);
    }
    d3d12xs_trace_arg_string(&record->args, "queued", op->what);
}

void d3d12_queue_trace_signal_locked(struct d3d12_engine *engine, const struct d3d12_op *op, uint64_t virtual_value)
{
    struct d3d12_engine_trace *trace = d3d12xs_trace_on() ? engine_trace(engine) : NULL;
    const struct d3d12_op_fence *signal = &op->u.signal;
    struct trace_record *record;

    if (!trace || !(record = new_record(trace, op, RECORD_SIGNAL)))
        return;
    snprintf(record->name, sizeof(record->name), "Signal %s = %llu", signal->timeline->name, (unsigned long long)signal->value);
    d3d12xs_trace_arg_string(&record->args, "fence", signal->timeline->name);
    d3d12xs_trace_arg_u64(&record->args, "value", signal->value);
    record->flow = fence_flow(signal->timeline, virtual_value);
}

/* ---- collecting what finished ---- */

static void end_wait(struct d3d12_engine *engine, struct trace_record *wait, uint64_t start_ns, uint64_t end_ns)
{
    if (end_ns < start_ns)
        end_ns = start_ns;
    d3d12xs_trace_span(engine->trace_track, "wait", wait->name, start_ns, end_ns, &wait->args);
    if (wait->flow)
        d3d12xs_trace_flow(engine->trace_track, false, wait->flow, end_ns);
}

static uint64_t wait_start(const struct d3d12_engine_trace *trace, const struct trace_record *wait)
{
    return wait->enqueued_ns > trace->last_end_ns ? wait->enqueued_ns : trace->last_end_ns;
}

static void close_open_wait(struct d3d12_engine *engine, struct d3d12_engine_trace *trace, uint64_t end_ns)
{
    if (!trace->wait_open)
        return;
    trace->wait_open = false;
    end_wait(engine, &trace->open_wait, trace->open_wait.enqueued_ns, end_ns);
}

/* The segment's GPU times, read once its work is done. */
static bool segment_times(struct d3d12_engine *engine, struct d3d12_engine_trace *trace, uint32_t slot, uint64_t *start_ns, uint64_t *end_ns)
{
    uint64_t ticks[2];
    VkResult vr = vkGetQueryPoolResults(engine->device->vk_device, trace->pool, 2 * slot, 2, sizeof(ticks), ticks, sizeof(ticks[0]),
            VK_QUERY_RESULT_64_BIT);
    vkResetQueryPool(engine->device->vk_device, trace->pool, 2 * slot, 2);
    trace->slots_in_use--;
    if (vr != VK_SUCCESS)
        return false;
    *start_ns = d3d12xs_gpu_clock_host_ns(engine->device, ticks[0]);
    *end_ns = d3d12xs_gpu_clock_host_ns(engine->device, ticks[1]);
    return *end_ns >= *start_ns;
}

static void collect_execute(struct d3d12_engine *engine, struct d3d12_engine_trace *trace, struct trace_record *record, uint64_t now)
{
    const struct d3d12_op_trace *segments = record->segments;
    uint32_t write = 0;

    for (uint32_t i = 0; segments && i < segments->segment_count; i++) {
        const struct d3d12_op_trace_segment *segment = &segments->segments[i];
        struct d3d12xs_trace_args args = {.length = 0};
        uint64_t start = record->submit_ns, end = now;
        char name[80];
        bool gpu = segment->slot != UINT32_MAX && segment_times(engine, trace, segment->slot, &start, &end);
        if (!gpu && i) /* host times: one span for the op's segments, the first */
            start = end = trace->last_end_ns;
        if (start < trace->last_end_ns && gpu)
            start = trace->last_end_ns; /* the timestamps' conversion may overlap by a few ns */
        close_open_wait(engine, trace, start);
        snprintf(name, sizeof(name), "%s #%u", segment->list, segment->index);
        d3d12xs_trace_arg_string(&args, "list", segment->list);
        d3d12xs_trace_arg_u64(&args, "segment", segment->index);
        d3d12xs_trace_arg_u64(&args, "first_call", segment->first_call);
        if (segment->last_call != UINT32_MAX)
            d3d12xs_trace_arg_u64(&args, "last_call", segment->last_call);
        else
            d3d12xs_trace_arg_string(&args, "commands", "none");
        d3d12xs_trace_arg_string(&args, "clock", gpu ? "gpu" : "cpu");
        if (gpu || !i)
            d3d12xs_trace_span(engine->trace_track, "segment", name, start, end, &args);
        if (gpu)
            emit_marks(engine, segment);
        /* the segment's value writes, at its end (bottom of the pipe) */
        for (uint32_t w = 0; w < segment->write_count && write < record->write_count; w++, write++) {
            const struct d3d12_value_write *value = &record->writes[write];
            struct d3d12xs_trace_args write_args = {.length = 0};
            char write_name[80];
            snprintf(write_name, sizeof(write_name), "Write [0x%llx] = %llu", (unsigned long long)value->gpu_address,
                    (unsigned long long)value->value);
            d3d12xs_trace_arg_hex(&write_args, "address", value->gpu_address);
            d3d12xs_trace_arg_u64(&write_args, "value", value->value);
            d3d12xs_trace_arg_string(&write_args, "list", segment->list);
            d3d12xs_trace_instant(engine->trace_track, "write", write_name, end, &write_args);
            d3d12xs_trace_flow(engine->trace_track, true, write_flow(engine, record->serial, value->gpu_address), end);
        }
        if (end > trace->last_end_ns)
            trace->last_end_ns = end;
    }
}

static void collect_engine(struct d3d12_engine *engine, uint64_t now, bool all)
{
    struct d3d12_engine_trace *trace = engine->trace;
    uint64_t completed = d3d12_engine_completed(engine);
    size_t done = 0;

    for (; done < trace->record_count; done++) {
        struct trace_record *record = &trace->records[done];
        if (!all && !d3d12_engine_serial_done(engine, record->serial, completed))
            break;
        switch (record->kind) {
        case RECORD_EXECUTE:
            collect_execute(engine, trace, record, now);
            break;
        case RECORD_WAIT:
            close_open_wait(engine, trace, trace->last_end_ns > record->enqueued_ns ? trace->last_end_ns : record->enqueued_ns);
            if (record->met_on_host) {
                end_wait(engine, record, wait_start(trace, record), record->submit_ns);
            } else {
                trace->open_wait = *record;
                trace->open_wait.enqueued_ns = wait_start(trace, record);
                trace->wait_open = true;
            }
            break;
        case RECORD_SIGNAL: {
            uint64_t at = trace->last_end_ns > record->submit_ns ? trace->last_end_ns : record->submit_ns;
            close_open_wait(engine, trace, at);
            d3d12xs_trace_instant(engine->trace_track, "signal", record->name, at, &record->args);
            d3d12xs_trace_flow(engine->trace_track, true, record->flow, at);
            break;
        }
        }
        d3d12_queue_trace_free(record->segments);
        free(record->writes);
    }
    if (all)
        close_open_wait(engine, trace, now);
    memmove(trace->records, trace->records + done, (trace->record_count - done) * sizeof(*trace->records));
    trace->record_count -= done;
}

void d3d12_queue_trace_collect_locked(struct d3d12_scheduler *scheduler, uint64_t now, bool all)
{
    for (size_t i = 0; i < scheduler->engine_count; i++)
        if (scheduler->engines[i]->trace)
            collect_engine(scheduler->engines[i], now, all);
}

void d3d12_queue_trace_name_engine(struct d3d12_engine *engine)
{
    static const char *const types[] = {"DIRECT", "BUNDLE", "COMPUTE", "COPY"};
    char name[128];
    if (engine->internal)
        snprintf(name, sizeof(name), "d3d12xs internal queue");
    else
        snprintf(name, sizeof(name), "%s queue '%s'", (unsigned)engine->type < 4 ? types[engine->type] : "?", engine->name);
    d3d12xs_trace_name_track(engine->trace_track, name);
}
