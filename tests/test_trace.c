/* The trace file (docs/trace.md) of a two-queue handshake: a DIRECT list writes a value at the
 * bottom of the pipe and waits mid-list for the COMPUTE list's, which waits for it first; the
 * COMPUTE queue first waits on a fence that the CPU signals. Checked: the file is JSON in the
 * trace-event format (every event's fields and types), both queues' tracks are named, their
 * segments are in order and do not overlap, each wait ends an arrow that starts at the write or
 * signal that released it (the CPU Signal on the CPU track), the list's PIX events nest, the API
 * calls are on the CPU track; a second capture (D3D12XSStartTrace again) starts a new file; the
 * misuse of the capture calls is refused with one line; a hang's one line names each queue's
 * last finished and first unfinished work, which the trace marks too; and a program started
 * with D3D12XS_TRACE that dies mid-run leaves a file that parses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <d3d12_xs.h>
#include <d3d12xs.h>
#include <pix3.h>

#include "harness.h"
#include "json_reader.h"

#define QUEUE_TRACKS_FROM 1000.0

struct events {
    struct json *root;
    const struct json *list;
};

static bool load(const char *path, struct events *events)
{
    FILE *file = fopen(path, "rb");
    char *text = NULL;
    long size;
    size_t offset = 0;

    memset(events, 0, sizeof(*events));
    CHECK_MSG(file != NULL, "cannot open %s", path);
    if (!file)
        return false;
    fseek(file, 0, SEEK_END);
    size = ftell(file);
    fseek(file, 0, SEEK_SET);
    if (size > 0 && (text = malloc((size_t)size)) && fread(text, 1, (size_t)size, file) == (size_t)size)
        events->root = json_parse(text, (size_t)size, &offset);
    fclose(file);
    free(text);
    CHECK_MSG(events->root != NULL, "%s is not JSON (error at byte %zu)", path, offset);
    if (!events->root)
        return false;
    events->list = json_member(events->root, "traceEvents");
    CHECK_MSG(events->list && events->list->type == JSON_ARRAY, "no traceEvents array");
    return events->list && events->list->type == JSON_ARRAY;
}

static bool is_number(const struct json *event, const char *key)
{
    const struct json *member = json_member(event, key);
    return member && member->type == JSON_NUMBER;
}

/* The trace-event format's rules for the phases d3d12xs writes. */
static void check_format(const struct events *events)
{
    unsigned bad = 0;
    for (size_t i = 0; i < events->list->count; i++) {
        const struct json *e = &events->list->items[i];
        const char *ph = json_string(e, "ph");
        bool ok = e->type == JSON_OBJECT && strlen(ph) == 1 && strchr("MXisf", ph[0]) && is_number(e, "pid") && is_number(e, "tid")
                && is_number(e, "ts") && json_number(e, "ts", -1) >= 0 && json_member(e, "name") && *json_string(e, "name");
        if (ok && ph[0] == 'X')
            ok = is_number(e, "dur") && json_number(e, "dur", -1) >= 0 && *json_string(e, "cat");
        if (ok && ph[0] == 'i')
            ok = !strcmp(json_string(e, "s"), "t") && *json_string(e, "cat");
        if (ok && (ph[0] == 's' || ph[0] == 'f'))
            ok = is_number(e, "id") && (ph[0] == 's' || !strcmp(json_string(e, "bp"), "e"));
        if (ok && ph[0] == 'M')
            ok = json_member(e, "args") && (*json_string(json_member(e, "args"), "name") || is_number(json_member(e, "args"), "sort_index"));
        if (!ok && bad++ < 5)
            CHECK_MSG(false, "event %zu breaks the trace-event format (ph '%s', name '%s')", i, ph, json_string(e, "name"));
    }
}

static double track_of(const struct events *events, const char *name)
{
    for (size_t i = 0; i < events->list->count; i++) {
        const struct json *e = &events->list->items[i];
        if (!strcmp(json_string(e, "ph"), "M") && !strcmp(json_string(e, "name"), "thread_name")
                && !strcmp(json_string(json_member(e, "args"), "name"), name))
            return json_number(e, "tid", -1);
    }
    return -1;
}

static const struct json *find(const struct events *events, const char *ph, double tid, const char *category, const char *name)
{
    for (size_t i = 0; i < events->list->count; i++) {
        const struct json *e = &events->list->items[i];
        if (!strcmp(json_string(e, "ph"), ph) && (tid < 0 || json_number(e, "tid", -2) == tid)
                && (!category || !strcmp(json_string(e, "cat"), category)) && (!name || strstr(json_string(e, "name"), name)))
            return e;
    }
    return NULL;
}

static double end_of(const struct json *span)
{
    return json_number(span, "ts", 0) + json_number(span, "dur", 0);
}

/* A queue's segments, in time order, one after the other. */
static void check_segments(const struct events *events, double tid, const char *queue, unsigned expected)
{
    double last_end = -1;
    unsigned count = 0;
    for (size_t i = 0; i < events->list->count; i++) {
        const struct json *e = &events->list->items[i];
        if (strcmp(json_string(e, "ph"), "X") || json_number(e, "tid", -1) != tid || strcmp(json_string(e, "cat"), "segment"))
            continue;
        count++;
        CHECK_MSG(json_number(e, "ts", 0) >= last_end - 0.002, "%s: segment '%s' starts at %.3f us, before the previous one ended (%.3f)",
                queue, json_string(e, "name"), json_number(e, "ts", 0), last_end);
        CHECK_MSG(*json_string(json_member(e, "args"), "list") && is_number(json_member(e, "args"), "first_call"),
                "%s: segment '%s' lacks its list and calls", queue, json_string(e, "name"));
        last_end = end_of(e);
    }
    CHECK_MSG(count == expected, "%s: %u segments, expected %u", queue, count, expected);
}

/* The arrow ending at the wait's end, and the event it starts from. */
static const struct json *released_by(const struct events *events, const struct json *wait)
{
    const struct json *end = NULL, *start = NULL;
    for (size_t i = 0; i < events->list->count && !end; i++) {
        const struct json *e = &events->list->items[i];
        if (!strcmp(json_string(e, "ph"), "f") && json_number(e, "tid", -1) == json_number(wait, "tid", -2)
                && json_number(e, "ts", 0) > end_of(wait) - 0.002 && json_number(e, "ts", 0) < end_of(wait) + 0.002)
            end = e;
    }
    CHECK_MSG(end != NULL, "wait '%s' ends no arrow", json_string(wait, "name"));
    for (size_t i = 0; end && i < events->list->count && !start; i++) {
        const struct json *e = &events->list->items[i];
        if (!strcmp(json_string(e, "ph"), "s") && json_number(e, "id", -1) == json_number(end, "id", -2))
            start = e;
    }
    CHECK_MSG(!end || start, "the arrow of wait '%s' has no start", json_string(wait, "name"));
    return start;
}

struct handshake {
    ID3D12Device *device;
    ID3D12CommandQueue *direct, *compute;
    ID3D12Fence *fence, *done;
    uint64_t *values; /* graphics memory: [0] DIRECT's write, [1] COMPUTE's */
};

static void record_and_run(struct handshake *h)
{
    struct harness_list direct = harness_create_list(h->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    struct harness_list compute = harness_create_list(h->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    D3D12_GPU_VIRTUAL_ADDRESS to_compute = (D3D12_GPU_VIRTUAL_ADDRESS)(uintptr_t)&h->values[0];
    D3D12_GPU_VIRTUAL_ADDRESS to_direct = (D3D12_GPU_VIRTUAL_ADDRESS)(uintptr_t)&h->values[1];
    ID3D12GraphicsCommandList *d = (ID3D12GraphicsCommandList *)direct.list, *c = (ID3D12GraphicsCommandList *)compute.list;
    static const char frame[] = "frame", inner[] = "publish";

    ID3D12Object_SetName((ID3D12Object *)direct.list, L"gfx list");
    ID3D12Object_SetName((ID3D12Object *)compute.list, L"compute list");
    /* the list's own methods, and <pix3.h>'s names for them */
    ID3D12GraphicsCommandList_BeginEvent(d, 1, frame, sizeof(frame));
    PIXBeginEvent(d, PIX_COLOR(0, 128, 255), "%s", inner);
    ID3D12GraphicsCommandList_Write64BitValueBottomOfPipeX(d, to_compute, 1, D3D12XBOX_FLUSH_NONE, D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
    PIXEndEvent(d);
    ID3D12GraphicsCommandList_Wait64BitValueX(d, to_direct, D3D12_COMPARISON_FUNC_GREATER_EQUAL, 1, D3D12XBOX_WAIT_FLAG_NONE);
    PIXSetMarker(direct.list, PIX_COLOR_DEFAULT, "after the %s", "wait");
    ID3D12GraphicsCommandList_EndEvent(d);
    CHECK_HR(ID3D12GraphicsCommandList_Close(d), S_OK);

    ID3D12GraphicsCommandList_Wait64BitValueX(c, to_compute, D3D12_COMPARISON_FUNC_GREATER_EQUAL, 1, D3D12XBOX_WAIT_FLAG_NONE);
    ID3D12GraphicsCommandList_Write64BitValueBottomOfPipeX(c, to_direct, 1, D3D12XBOX_FLUSH_NONE, D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
    CHECK_HR(ID3D12GraphicsCommandList_Close(c), S_OK);

    /* COMPUTE first waits for the CPU; DIRECT runs up to its wait meanwhile */
    CHECK_HR(ID3D12CommandQueue_Wait(h->compute, h->fence, 1), S_OK);
    ID3D12CommandQueue_ExecuteCommandLists(h->compute, 1, (ID3D12CommandList **)&compute.list);
    ID3D12CommandQueue_ExecuteCommandLists(h->direct, 1, (ID3D12CommandList **)&direct.list);
    PIXBeginCpuEvent(PIX_COLOR_DEFAULT, "cpu release %d", 1);
    harness_sleep_ms(20);
    CHECK_HR(ID3D12Fence_Signal(h->fence, 1), S_OK);
    PIXEndCpuEvent();
    CHECK_HR(ID3D12CommandQueue_Signal(h->direct, h->done, 1), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(h->compute, h->done, 2), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(h->done, 2, NULL), S_OK);
    harness_release_list(&direct);
    harness_release_list(&compute);
}

static void check_handshake(const char *path)
{
    struct events events;
    double direct, compute, cpu = -1;
    const struct json *e, *start;

    if (!load(path, &events))
        return;
    check_format(&events);
    direct = track_of(&events, "DIRECT queue 'gfx'");
    compute = track_of(&events, "COMPUTE queue 'async compute'");
    CHECK_MSG(direct >= QUEUE_TRACKS_FROM && compute >= QUEUE_TRACKS_FROM, "queue tracks: DIRECT %.0f, COMPUTE %.0f", direct, compute);
    CHECK(track_of(&events, "d3d12xs waiter") == 999);
    /* DIRECT: its list in two segments (cut by the wait); COMPUTE: the list after its wait */
    check_segments(&events, direct, "DIRECT", 2);
    check_segments(&events, compute, "COMPUTE", 2);

    /* The DIRECT wait was released by the COMPUTE list's write, on the COMPUTE track. */
    CHECK_MSG((e = find(&events, "X", direct, "wait", "Wait [")) != NULL, "no memory wait on the DIRECT track");
    if (e && (start = released_by(&events, e))) {
        const struct json *write = find(&events, "i", compute, "write", NULL);
        CHECK_MSG(json_number(start, "tid", -1) == compute, "the DIRECT wait's arrow starts on track %.0f", json_number(start, "tid", -1));
        CHECK_MSG(write && json_number(write, "ts", 0) == json_number(start, "ts", 1), "the DIRECT wait's arrow does not start at the COMPUTE write");
        CHECK(!strcmp(json_string(json_member(e, "args"), "comparison"), "GREATER_EQUAL"));
        CHECK(*json_string(json_member(e, "args"), "met_by"));
    }
    /* The COMPUTE memory wait, released by the DIRECT write. */
    CHECK_MSG((e = find(&events, "X", compute, "wait", "Wait [")) != NULL, "no memory wait on the COMPUTE track");
    if (e && (start = released_by(&events, e)))
        CHECK_MSG(json_number(start, "tid", -1) == direct, "the COMPUTE memory wait's arrow starts on track %.0f", json_number(start, "tid", -1));
    /* The COMPUTE fence wait, released by the CPU's Signal on the main thread's track. */
    CHECK_MSG((e = find(&events, "X", compute, "wait", "Wait cpu fence >= 1")) != NULL, "no fence wait on the COMPUTE track");
    if (e && (start = released_by(&events, e))) {
        cpu = json_number(start, "tid", -1);
        CHECK_MSG(cpu == track_of(&events, "main thread"), "the fence wait's arrow starts on track %.0f, not the main thread's", cpu);
        CHECK_MSG(find(&events, "X", cpu, "api", "ID3D12Fence::Signal") != NULL, "no ID3D12Fence::Signal span on the CPU track");
    }
    /* Queue signals, and the API calls. */
    CHECK_MSG(find(&events, "i", direct, "signal", "Signal done = 1") != NULL, "no signal instant on the DIRECT track");
    CHECK_MSG(find(&events, "X", -1, "api", "ExecuteCommandLists") != NULL, "no ExecuteCommandLists span");
    CHECK_MSG(find(&events, "X", -1, "api", "SetEventOnCompletion") != NULL, "no blocking SetEventOnCompletion span");
    CHECK_MSG(cpu < 0 || find(&events, "X", cpu, "pix", "cpu release 1") != NULL, "no CPU PIX event on the main thread's track");

    /* PIX: "publish" inside "frame", the marker inside "frame", on the DIRECT track. */
    {
        const struct json *outer = find(&events, "X", direct, "pix", "frame"), *nested = find(&events, "X", direct, "pix", "publish");
        const struct json *mark = find(&events, "i", direct, "pix", "after the wait");
        CHECK_MSG(outer && nested && mark, "PIX events on the DIRECT track: frame %p, publish %p, marker %p", (void *)outer, (void *)nested,
                (void *)mark);
        if (outer && nested && mark) {
            CHECK_MSG(json_number(nested, "ts", 0) >= json_number(outer, "ts", 0) - 0.002 && end_of(nested) <= end_of(outer) + 0.002,
                    "'publish' [%.3f, %.3f] is not inside 'frame' [%.3f, %.3f]", json_number(nested, "ts", 0), end_of(nested),
                    json_number(outer, "ts", 0), end_of(outer));
            CHECK_MSG(json_number(mark, "ts", 0) >= end_of(nested) - 0.002 && json_number(mark, "ts", 0) <= end_of(outer) + 0.002,
                    "the marker is not between 'publish' and the end of 'frame'");
        }
    }
    json_free(events.root);
}

static void test_handshake(void)
{
    char path[64], second[64];
    struct handshake h;

    memset(&h, 0, sizeof(h));
    snprintf(path, sizeof(path), "/tmp/d3d12xs-trace-%d.json", (int)getpid());
    snprintf(second, sizeof(second), "/tmp/d3d12xs-trace-%d-2.json", (int)getpid());
    h.device = harness_create_device();
    h.direct = harness_create_queue(h.device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    h.compute = harness_create_queue(h.device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    h.fence = harness_create_fence(h.device, 0);
    h.done = harness_create_fence(h.device, 0);
    ID3D12Object_SetName((ID3D12Object *)h.direct, L"gfx");
    ID3D12Object_SetName((ID3D12Object *)h.compute, L"async compute");
    ID3D12Object_SetName((ID3D12Object *)h.fence, L"cpu fence");
    ID3D12Object_SetName((ID3D12Object *)h.done, L"done");
    CHECK_HR(D3D12XSAllocateGraphicsMemory(h.device, 65536, FALSE, (void **)&h.values), S_OK);
    if (!h.values)
        return;

    CHECK_HR(D3D12XSStartTrace(path), S_OK);
    record_and_run(&h);
    CHECK_HR(D3D12XSStopTrace(), S_OK);
    check_handshake(path);

    /* A second capture: a new file, the tracks named again. */
    h.values[0] = h.values[1] = 0;
    CHECK_HR(ID3D12Fence_Signal(h.fence, 0), S_OK);
    CHECK_HR(ID3D12Fence_Signal(h.done, 0), S_OK);
    CHECK_HR(D3D12XSStartTrace(second), S_OK);
    record_and_run(&h);
    CHECK_HR(D3D12XSStopTrace(), S_OK);
    check_handshake(second);

    D3D12XSFreeGraphicsMemory(h.values);
    ID3D12Fence_Release(h.fence);
    ID3D12Fence_Release(h.done);
    ID3D12CommandQueue_Release(h.direct);
    ID3D12CommandQueue_Release(h.compute);
    harness_release_device(h.device);
    remove(path);
    remove(second);
}

static void test_misuse(void)
{
    {
        LOG_MARK();
        CHECK_HR(D3D12XSStartTrace(NULL), E_INVALIDARG);
        CHECK_LOG("D3D12XSStartTrace", "path is empty");
        RELOG_MARK();
        CHECK_HR(D3D12XSStartTrace("/nonexistent-directory/trace.json"), E_INVALIDARG);
        CHECK_LOG("D3D12XSStartTrace", "cannot write");
    }
    CHECK_HR(D3D12XSStopTrace(), S_FALSE);
    CHECK_HR(D3D12XSStartTrace("/tmp/d3d12xs-trace-misuse.json"), S_OK);
    {
        LOG_MARK();
        CHECK_HR(D3D12XSStartTrace("/tmp/d3d12xs-trace-misuse-2.json"), E_INVALIDARG);
        CHECK_LOG("D3D12XSStartTrace", "running already");
    }
    CHECK_HR(D3D12XSStopTrace(), S_OK);
    {
        struct events events;
        if (load("/tmp/d3d12xs-trace-misuse.json", &events)) {
            check_format(&events);
            json_free(events.root);
        }
    }
    remove("/tmp/d3d12xs-trace-misuse.json");
}

/* A hang with a capture running: each queue finished one list, then DIRECT stops at a mid-list
 * wait for memory nobody writes and COMPUTE at a Wait for a fence nobody signals. The removal's
 * one line names, per queue, the last work finished and the first not finished; the trace ends
 * with a hang span on each queue's track that says the same. */
static void test_hang_report(void)
{
    char path[64];
    ID3D12Device *device = harness_create_device();
    ID3D12CommandQueue *direct = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12CommandQueue *compute = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12Fence *never = harness_create_fence(device, 0), *done = harness_create_fence(device, 0);
    struct harness_list first = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    struct harness_list stuck = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    struct harness_list other = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    uint64_t *memory = NULL;
    struct events events;

    snprintf(path, sizeof(path), "/tmp/d3d12xs-trace-hang-%d.json", (int)getpid());
    ID3D12Object_SetName((ID3D12Object *)direct, L"gfx");
    ID3D12Object_SetName((ID3D12Object *)compute, L"async compute");
    ID3D12Object_SetName((ID3D12Object *)never, L"never");
    ID3D12Object_SetName((ID3D12Object *)first.list, L"first list");
    ID3D12Object_SetName((ID3D12Object *)stuck.list, L"stuck list");
    ID3D12Object_SetName((ID3D12Object *)other.list, L"other list");
    CHECK_HR(D3D12XSAllocateGraphicsMemory(device, 65536, FALSE, (void **)&memory), S_OK);
    CHECK_HR(D3D12XSSetHangTimeout(device, 300), S_OK);
    {
        /* two GPU commands in the first list, one in the other: the report names the last */
        D3D12_WRITEBUFFERIMMEDIATE_PARAMETER write = {(D3D12_GPU_VIRTUAL_ADDRESS)(uintptr_t)&memory[100], 1};
        ID3D12GraphicsCommandList2_WriteBufferImmediate(first.list, 1, &write, NULL);
        ID3D12GraphicsCommandList2_WriteBufferImmediate(first.list, 1, &write, NULL);
        ID3D12GraphicsCommandList_Write64BitValueBottomOfPipeX((ID3D12GraphicsCommandList *)other.list,
                (D3D12_GPU_VIRTUAL_ADDRESS)(uintptr_t)&memory[101], 1, D3D12XBOX_FLUSH_NONE, D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
    }
    CHECK_HR(ID3D12GraphicsCommandList2_Close(first.list), S_OK);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(other.list), S_OK);
    ID3D12GraphicsCommandList_Wait64BitValueX((ID3D12GraphicsCommandList *)stuck.list, (D3D12_GPU_VIRTUAL_ADDRESS)(uintptr_t)memory,
            D3D12_COMPARISON_FUNC_EQUAL, 7, D3D12XBOX_WAIT_FLAG_NONE);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(stuck.list), S_OK);

    CHECK_HR(D3D12XSStartTrace(path), S_OK);
    ID3D12CommandQueue_ExecuteCommandLists(direct, 1, (ID3D12CommandList **)&first.list);
    ID3D12CommandQueue_ExecuteCommandLists(compute, 1, (ID3D12CommandList **)&other.list);
    CHECK_HR(ID3D12CommandQueue_Signal(direct, done, 1), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(done, 1, NULL), S_OK);
    harness_sleep_ms(50); /* the waiter sees them finished */
    {
        LOG_MARK();
        ID3D12CommandQueue_ExecuteCommandLists(direct, 1, (ID3D12CommandList **)&stuck.list);
        CHECK_HR(ID3D12CommandQueue_Wait(compute, never, 1), S_OK);
        CHECK_HR(ID3D12CommandQueue_Signal(direct, done, 2), S_OK);
        CHECK_HR(ID3D12Fence_SetEventOnCompletion(done, 2, NULL), DXGI_ERROR_DEVICE_HUNG);
        /* the last work with GPU commands: the stuck list's first segment (no calls) finished later */
        CHECK_LOG("DXGI_ERROR_DEVICE_HUNG", "queue 'gfx' last finished list 'first list' segment 0 (calls 0-1; first command "
                "WriteBufferImmediate at call 0, last WriteBufferImmediate at call 1)",
                "first not finished list 'stuck list' call 0 (ID3D12GraphicsCommandList::Wait64BitValueX), held until the value at",
                "queue 'async compute' last finished list 'other list' segment 0 (calls 0-0; first command value write at call 0, last value "
                "write at call 0)", "first not finished a Wait for fence 'never' to reach 1, held");
    }
    CHECK_HR(D3D12XSStopTrace(), S_OK);
    if (load(path, &events)) {
        double gfx = track_of(&events, "DIRECT queue 'gfx'"), async = track_of(&events, "COMPUTE queue 'async compute'");
        const struct json *hang;
        check_format(&events);
        CHECK_MSG((hang = find(&events, "X", gfx, "hang", "hang")) != NULL, "no hang span on the DIRECT track");
        if (hang)
            CHECK_MSG(strstr(json_string(json_member(hang, "args"), "first_not_finished"), "stuck list") != NULL,
                    "the DIRECT hang span names '%s'", json_string(json_member(hang, "args"), "first_not_finished"));
        CHECK_MSG((hang = find(&events, "X", async, "hang", "hang")) != NULL, "no hang span on the COMPUTE track");
        if (hang)
            CHECK_MSG(strstr(json_string(json_member(hang, "args"), "last_finished"), "other list") != NULL,
                    "the COMPUTE hang span names '%s'", json_string(json_member(hang, "args"), "last_finished"));
        json_free(events.root);
    }
    if (!getenv("KEEP_TRACE"))
        remove(path);
    harness_release_list(&first);
    harness_release_list(&stuck);
    harness_release_list(&other);
    D3D12XSFreeGraphicsMemory(memory);
    ID3D12Fence_Release(never);
    ID3D12Fence_Release(done);
    ID3D12CommandQueue_Release(direct);
    ID3D12CommandQueue_Release(compute);
    harness_release_device(device);
}

/* The child of test_crash: D3D12XS_TRACE starts the capture with the device; it runs a list
 * and leaves without any ending (no StopTrace, no release, no exit handlers), as a crash would. */
static void child_crash(void)
{
    ID3D12Device *device = harness_create_device();
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12Object_SetName((ID3D12Object *)list.list, L"before the crash");
    harness_execute_and_wait(device, queue, &list); /* closes it */
    harness_sleep_ms(400);
    fflush(NULL);
    _exit(harness_finish());
}

/* A program that dies mid-capture leaves a file that parses, with what happened until 100 ms
 * before (the waiter writes what is buffered then). */
static void test_crash(void)
{
    char variable[80], path[64];
    const char *const environment[] = {variable, NULL};
    struct events events;

    snprintf(path, sizeof(path), "/tmp/d3d12xs-trace-crash-%d.json", (int)getpid());
    snprintf(variable, sizeof(variable), "D3D12XS_TRACE=%s", path);
    CHECK_MSG(harness_run_self("crash", environment), "the child that dies mid-capture failed (its lines above say why)");
    if (load(path, &events)) {
        check_format(&events);
        CHECK_MSG(find(&events, "X", -1, "segment", "before the crash") != NULL, "the file lacks the segment that ran 400 ms before the end");
        json_free(events.root);
    }
    remove(path);
}

int main(int argc, char **argv)
{
    harness_init();
    if (argc > 1 && !strcmp(argv[1], "crash"))
        child_crash();
    test_misuse();
    test_handshake();
    test_hang_report();
    test_crash();
    return harness_finish();
}
