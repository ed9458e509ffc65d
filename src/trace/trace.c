/* The trace file writer (trace.h, docs/trace.md).
 *
 * Events are formatted into a buffer under one lock and written in batches. The file is one
 * JSON object whose event array is closed after every batch: the next batch is written over
 * the closing "]}" and closes it again, so the file parses whenever no batch is half written
 * (a crash loses the events of the last 100 ms at most). */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/config.h"
#include "common/log.h"
#include "common/util.h"
#include "trace/trace.h"

#define FLUSH_EVENTS 256
#define FLUSH_NS (100ull * 1000 * 1000)
#define MAX_TRACKS 256
#define CLOSING "\n]}\n"

atomic_bool d3d12xs_trace_running;
static atomic_bool batch_pending; /* events buffered, not written yet (the waiter's hint) */

struct track_name {
    uint32_t track;
    char name[96];
};

static struct {
    pthread_mutex_t lock;
    FILE *file;
    long data_end;            /* where the closing starts: the next batch goes there */
    uint64_t start_ns;
    unsigned capture;         /* counts captures, so CPU tracks are named once in each */
    bool first_event;
    char *buffer;
    size_t length, capacity;
    unsigned buffered;
    uint64_t written_ns;
    struct track_name tracks[MAX_TRACKS];
    unsigned track_count;
    bool exit_hook;
} trace = {.lock = PTHREAD_MUTEX_INITIALIZER};

static atomic_uint next_queue_track;

/* The devices' drains, under their own lock (taken before any device's). */
#define MAX_DRAINS 64
static pthread_mutex_t drains_lock = PTHREAD_MUTEX_INITIALIZER;
static struct drain {
    d3d12xs_trace_drain_fn drain;
    void *context;
} drains[MAX_DRAINS];
static unsigned drain_count;
static _Thread_local unsigned cpu_track_capture;

/* ---- formatting ---- */

static void append(const char *text, size_t length)
{
    if (trace.length + length + 1 > trace.capacity) {
        size_t capacity = trace.capacity ? trace.capacity * 2 : 65536;
        while (capacity < trace.length + length + 1)
            capacity *= 2;
        char *bigger = realloc(trace.buffer, capacity);
        if (!bigger)
            return; /* the event is lost; the file stays valid */
        trace.buffer = bigger;
        trace.capacity = capacity;
    }
    memcpy(trace.buffer + trace.length, text, length);
    trace.length += length;
}

static void appendf(const char *format, ...) __attribute__((format(printf, 1, 2)));
static void appendf(const char *format, ...)
{
    char text[1024];
    va_list args;
    va_start(args, format);
    int n = vsnprintf(text, sizeof(text), format, args);
    va_end(args);
    if (n > 0)
        append(text, (size_t)n < sizeof(text) ? (size_t)n : sizeof(text) - 1);
}

/* A JSON string's contents: quotes, backslashes and control characters escaped. */
static size_t escape(char *out, size_t size, const char *value)
{
    size_t n = 0;
    for (const unsigned char *c = (const unsigned char *)(value ? value : ""); *c && n + 7 < size; c++) {
        if (*c == '"' || *c == '\\')
            out[n++] = '\\', out[n++] = (char)*c;
        else if (*c < 0x20)
            n += (size_t)snprintf(out + n, size - n, "\\u%04x", *c);
        else
            out[n++] = (char)*c;
    }
    out[n] = 0;
    return n;
}

static void add_arg(struct d3d12xs_trace_args *args, const char *key, const char *json_value)
{
    int n = snprintf(args->text + args->length, sizeof(args->text) - args->length, "%s\"%s\":%s", args->length ? "," : "", key, json_value);
    if (n > 0 && args->length + (size_t)n < sizeof(args->text))
        args->length += (size_t)n;
}

void d3d12xs_trace_arg_string(struct d3d12xs_trace_args *args, const char *key, const char *value)
{
    char escaped[256], quoted[260];
    escape(escaped, sizeof(escaped), value);
    snprintf(quoted, sizeof(quoted), "\"%s\"", escaped);
    add_arg(args, key, quoted);
}

void d3d12xs_trace_arg_u64(struct d3d12xs_trace_args *args, const char *key, uint64_t value)
{
    char text[24];
    snprintf(text, sizeof(text), "%llu", (unsigned long long)value);
    add_arg(args, key, text);
}

void d3d12xs_trace_arg_hex(struct d3d12xs_trace_args *args, const char *key, uint64_t value)
{
    char text[24];
    snprintf(text, sizeof(text), "\"0x%llx\"", (unsigned long long)value);
    add_arg(args, key, text);
}

/* ---- the file ---- */

/* Writes the buffered events before the closing, then the closing. Lock held. */
static void write_batch_locked(uint64_t now_ns)
{
    trace.written_ns = now_ns;
    trace.buffered = 0;
    atomic_store_explicit(&batch_pending, false, memory_order_relaxed);
    if (!trace.file || !trace.length)
        return;
    if (fseek(trace.file, trace.data_end, SEEK_SET) || fwrite(trace.buffer, 1, trace.length, trace.file) != trace.length) {
        ERR("D3D12XS_TRACE: cannot write the trace file; the capture stops");
        fclose(trace.file);
        trace.file = NULL;
        atomic_store(&d3d12xs_trace_running, false);
        return;
    }
    trace.data_end = ftell(trace.file);
    trace.length = 0;
    fputs(CLOSING, trace.file);
    fflush(trace.file);
}

/* An event's start: the separator, then its fields up to (not including) the closing brace. */
static void begin_event_locked(const char *phase, uint32_t track, uint64_t at_ns)
{
    double us = at_ns > trace.start_ns ? (double)(at_ns - trace.start_ns) / 1000.0 : 0.0;
    appendf("%s{\"ph\":\"%s\",\"pid\":1,\"tid\":%u,\"ts\":%.3f", trace.first_event ? "\n" : ",\n", phase, track, us);
    trace.first_event = false;
}

static void end_event_locked(void)
{
    uint64_t now = d3d12xs_now_ns();
    append("}", 1);
    atomic_store_explicit(&batch_pending, true, memory_order_relaxed);
    if (++trace.buffered >= FLUSH_EVENTS || now - trace.written_ns > FLUSH_NS)
        write_batch_locked(now);
}

static void name_track_locked(uint32_t track, const char *name)
{
    char escaped[200];
    escape(escaped, sizeof(escaped), name);
    begin_event_locked("M", track, trace.start_ns);
    appendf(",\"name\":\"thread_name\",\"args\":{\"name\":\"%s\"}", escaped);
    end_event_locked();
    /* queues first in creation order, then the waiter, then CPU threads */
    begin_event_locked("M", track, trace.start_ns);
    appendf(",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":%u}",
            track >= D3D12XS_TRACE_QUEUE_TRACK_BASE && track < D3D12XS_TRACE_QUEUE_TRACK_BASE + 10000 ? track - D3D12XS_TRACE_QUEUE_TRACK_BASE
            : track == D3D12XS_TRACE_WAITER_TRACK ? 10000u : 20000u);
    end_event_locked();
}

static void stop_at_exit(void)
{
    d3d12xs_trace_stop();
}

HRESULT d3d12xs_trace_start(const char *path, const char *method)
{
    static const char header[] = "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\"d3d12xs\",\"format\":1},\n\"traceEvents\":[";
    FILE *file;

    if (!path || !*path)
        return d3d12xs_fail(E_INVALIDARG, method, "the trace file's path is empty");
    pthread_mutex_lock(&trace.lock);
    if (trace.file) {
        pthread_mutex_unlock(&trace.lock);
        return d3d12xs_fail(E_INVALIDARG, method, "a capture is running already (one at a time per process)");
    }
    if (!(file = fopen(path, "w"))) {
        pthread_mutex_unlock(&trace.lock);
        return d3d12xs_fail(E_INVALIDARG, method, "cannot write the trace file '%s'", path);
    }
    trace.file = file;
    trace.start_ns = d3d12xs_now_ns();
    trace.capture++;
    trace.first_event = true;
    trace.length = 0;
    fputs(header, file);
    trace.data_end = ftell(file);
    begin_event_locked("M", 0, trace.start_ns);
    append(",\"name\":\"process_name\",\"args\":{\"name\":\"d3d12xs\"}", strlen(",\"name\":\"process_name\",\"args\":{\"name\":\"d3d12xs\"}"));
    end_event_locked();
    for (unsigned i = 0; i < trace.track_count; i++)
        name_track_locked(trace.tracks[i].track, trace.tracks[i].name);
    write_batch_locked(trace.start_ns);
    if (!trace.exit_hook)
        trace.exit_hook = !atexit(stop_at_exit);
    atomic_store(&d3d12xs_trace_running, true);
    pthread_mutex_unlock(&trace.lock);
    return S_OK;
}

void d3d12xs_trace_add_drain(d3d12xs_trace_drain_fn drain, void *context)
{
    pthread_mutex_lock(&drains_lock);
    if (drain_count < MAX_DRAINS)
        drains[drain_count++] = (struct drain){drain, context};
    pthread_mutex_unlock(&drains_lock);
}

void d3d12xs_trace_remove_drain(d3d12xs_trace_drain_fn drain, void *context)
{
    pthread_mutex_lock(&drains_lock);
    for (unsigned i = 0; i < drain_count; i++) {
        if (drains[i].drain == drain && drains[i].context == context) {
            drains[i] = drains[--drain_count];
            break;
        }
    }
    pthread_mutex_unlock(&drains_lock);
}

void d3d12xs_trace_stop(void)
{
    /* What the queues finished goes in first. */
    pthread_mutex_lock(&drains_lock);
    for (unsigned i = 0; i < drain_count && d3d12xs_trace_on(); i++)
        drains[i].drain(drains[i].context);
    pthread_mutex_unlock(&drains_lock);
    pthread_mutex_lock(&trace.lock);
    atomic_store(&d3d12xs_trace_running, false);
    if (trace.file) {
        write_batch_locked(d3d12xs_now_ns());
        if (trace.file)
            fclose(trace.file);
        trace.file = NULL;
    }
    trace.length = 0;
    pthread_mutex_unlock(&trace.lock);
}

static void start_from_config_once(void)
{
    const char *path = d3d12xs_config()->trace;
    if (*path && SUCCEEDED(d3d12xs_trace_start(path, "D3D12XS_TRACE")))
        INFO("D3D12XS_TRACE: writing the trace to %s", path);
}

void d3d12xs_trace_start_from_config(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, start_from_config_once);
}

void d3d12xs_trace_tick(uint64_t now_ns)
{
    if (!d3d12xs_trace_on())
        return;
    pthread_mutex_lock(&trace.lock);
    if (trace.buffered && now_ns - trace.written_ns > FLUSH_NS)
        write_batch_locked(now_ns);
    pthread_mutex_unlock(&trace.lock);
}

bool d3d12xs_trace_batch_pending(void)
{
    return atomic_load_explicit(&batch_pending, memory_order_relaxed);
}

void d3d12xs_trace_flush(void)
{
    if (!d3d12xs_trace_on())
        return;
    pthread_mutex_lock(&trace.lock);
    write_batch_locked(d3d12xs_now_ns());
    pthread_mutex_unlock(&trace.lock);
}

/* ---- tracks ---- */

uint32_t d3d12xs_trace_new_queue_track(void)
{
    return D3D12XS_TRACE_QUEUE_TRACK_BASE + atomic_fetch_add(&next_queue_track, 1);
}

void d3d12xs_trace_name_track(uint32_t track, const char *name)
{
    unsigned i;
    pthread_mutex_lock(&trace.lock);
    for (i = 0; i < trace.track_count && trace.tracks[i].track != track; i++)
        ;
    if (i == trace.track_count && trace.track_count < MAX_TRACKS)
        trace.tracks[trace.track_count++].track = track;
    if (i < MAX_TRACKS)
        snprintf(trace.tracks[i].name, sizeof(trace.tracks[i].name), "%s", name);
    if (trace.file)
        name_track_locked(track, name);
    pthread_mutex_unlock(&trace.lock);
}

void d3d12xs_trace_forget_track(uint32_t track)
{
    pthread_mutex_lock(&trace.lock);
    for (unsigned i = 0; i < trace.track_count; i++) {
        if (trace.tracks[i].track == track) {
            trace.tracks[i] = trace.tracks[--trace.track_count];
            break;
        }
    }
    pthread_mutex_unlock(&trace.lock);
}

uint32_t d3d12xs_trace_cpu_track(void)
{
    uint32_t tid = (uint32_t)syscall(SYS_gettid);
    if (cpu_track_capture != trace.capture && d3d12xs_trace_on()) {
        char name[64];
        cpu_track_capture = trace.capture;
        if ((pid_t)tid == getpid())
            snprintf(name, sizeof(name), "main thread");
        else
            snprintf(name, sizeof(name), "CPU thread %u", tid);
        pthread_mutex_lock(&trace.lock);
        if (trace.file)
            name_track_locked(tid, name);
        pthread_mutex_unlock(&trace.lock);
    }
    return tid;
}

/* ---- events ---- */

static void finish_event_locked(const char *category, const char *name, const struct d3d12xs_trace_args *args)
{
    char escaped[256];
    escape(escaped, sizeof(escaped), name);
    appendf(",\"cat\":\"%s\",\"name\":\"%s\"", category, escaped);
    if (args && args->length)
        appendf(",\"args\":{%s}", args->text);
    end_event_locked();
}

void d3d12xs_trace_span(uint32_t track, const char *category, const char *name, uint64_t start_ns, uint64_t end_ns,
        const struct d3d12xs_trace_args *args)
{
    if (!d3d12xs_trace_on())
        return;
    pthread_mutex_lock(&trace.lock);
    if (trace.file) {
        begin_event_locked("X", track, start_ns);
        if (start_ns < trace.start_ns)
            start_ns = trace.start_ns;
        appendf(",\"dur\":%.3f", end_ns > start_ns ? (double)(end_ns - start_ns) / 1000.0 : 0.0);
        finish_event_locked(category, name, args);
    }
    pthread_mutex_unlock(&trace.lock);
}

void d3d12xs_trace_instant(uint32_t track, const char *category, const char *name, uint64_t at_ns, const struct d3d12xs_trace_args *args)
{
    if (!d3d12xs_trace_on())
        return;
    pthread_mutex_lock(&trace.lock);
    if (trace.file) {
        begin_event_locked("i", track, at_ns);
        appendf(",\"s\":\"t\"");
        finish_event_locked(category, name, args);
    }
    pthread_mutex_unlock(&trace.lock);
}

void d3d12xs_trace_flow(uint32_t track, bool start, uint64_t id, uint64_t at_ns)
{
    if (!d3d12xs_trace_on())
        return;
    pthread_mutex_lock(&trace.lock);
    if (trace.file) {
        begin_event_locked(start ? "s" : "f", track, at_ns);
        appendf(",\"id\":%llu%s,\"cat\":\"release\",\"name\":\"release\"", (unsigned long long)id, start ? "" : ",\"bp\":\"e\"");
        end_event_locked();
    }
    pthread_mutex_unlock(&trace.lock);
}

uint64_t d3d12xs_trace_begin(void)
{
    return d3d12xs_trace_on() ? d3d12xs_now_ns() : 0;
}

void d3d12xs_trace_end(uint64_t begin_ns, const char *name, const struct d3d12xs_trace_args *args)
{
    if (!begin_ns)
        return;
    d3d12xs_trace_span(d3d12xs_trace_cpu_track(), "api", name, begin_ns, d3d12xs_now_ns(), args);
}
