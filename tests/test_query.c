/* Timestamp queries: EndQuery around a 64 MiB copy on DIRECT, COMPUTE and COPY lists,
 * ResolveQueryData into readback buffers, GetTimestampFrequency; pipeline statistics around
 * dispatches, occlusion and stream-output queries (0 without draws); and the query heaps and
 * query commands that break D3D12's rules. */
#include <stdlib.h>
#include <string.h>

#include <d3d12_xs.h>

#include "harness.h"

#define BIG_COPY (64ull << 20)

static ID3D12QueryHeap *create_query_heap(ID3D12Device *device, D3D12_QUERY_HEAP_TYPE type, UINT count)
{
    D3D12_QUERY_HEAP_DESC desc = {type, count, 0};
    ID3D12QueryHeap *heap = NULL;
    CHECK_HR(ID3D12Device_CreateQueryHeap(device, &desc, &IID_ID3D12QueryHeap, (void **)&heap), S_OK);
    CHECK(heap != NULL);
    return heap;
}

static void fill_readback(ID3D12Resource *readback, UINT64 size, uint8_t value)
{
    void *data = NULL;
    CHECK_HR(ID3D12Resource_Map(readback, 0, NULL, &data), S_OK);
    if (data)
        memset(data, value, size);
    ID3D12Resource_Unmap(readback, 0, NULL);
}

static void read_words(ID3D12Resource *readback, uint64_t *out, size_t count)
{
    void *data = NULL;
    CHECK_HR(ID3D12Resource_Map(readback, 0, NULL, &data), S_OK);
    if (data)
        memcpy(out, data, count * sizeof(*out));
    else
        memset(out, 0, count * sizeof(*out));
    ID3D12Resource_Unmap(readback, 0, NULL);
}

/* Timestamps around a 64 MiB copy on one list type, resolved on the same list. */
static void time_big_copy(ID3D12Device *device, D3D12_COMMAND_LIST_TYPE type, const char *name,
        ID3D12Resource *src, ID3D12Resource *dst)
{
    D3D12_QUERY_HEAP_TYPE heap_type = type == D3D12_COMMAND_LIST_TYPE_COPY ? D3D12_QUERY_HEAP_TYPE_COPY_QUEUE_TIMESTAMP
            : D3D12_QUERY_HEAP_TYPE_TIMESTAMP;
    ID3D12CommandQueue *queue = harness_create_queue(device, type);
    /* Every list type resolves its own timestamps: a transfer-only COPY list does it in a
     * segment that runs on a compute-capable Vulkan queue. */
    D3D12_COMMAND_LIST_TYPE resolve_type = type;
    ID3D12CommandQueue *resolve_queue = queue;
    ID3D12QueryHeap *heap = create_query_heap(device, heap_type, 4);
    ID3D12Resource *readback = harness_create_buffer(device, D3D12_HEAP_TYPE_READBACK, 64, D3D12_RESOURCE_STATE_COPY_DEST);
    struct harness_list list = harness_create_list(device, type);
    uint64_t values[8], frequency = 0;
    double seconds;
    LOG_MARK();

    fill_readback(readback, 64, 0xab);
    CHECK_HR(ID3D12CommandQueue_GetTimestampFrequency(queue, &frequency), S_OK);
    CHECK_MSG(frequency >= 1000, "%s queue timestamp frequency is %llu Hz", name, (unsigned long long)frequency);

    ID3D12GraphicsCommandList2_EndQuery(list.list, heap, D3D12_QUERY_TYPE_TIMESTAMP, 1);
    ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, dst, 0, src, 0, BIG_COPY);
    ID3D12GraphicsCommandList2_EndQuery(list.list, heap, D3D12_QUERY_TYPE_TIMESTAMP, 2);
    /* Results land at offset 16: [16, 32) hold queries 1 and 2; the bytes around stay untouched. */
    if (resolve_type == type) {
        ID3D12GraphicsCommandList2_ResolveQueryData(list.list, heap, D3D12_QUERY_TYPE_TIMESTAMP, 1, 2, readback, 16);
        harness_execute_and_wait(device, queue, &list);
    } else {
        struct harness_list resolve = harness_create_list(device, resolve_type);
        harness_execute_and_wait(device, queue, &list);
        ID3D12GraphicsCommandList2_ResolveQueryData(resolve.list, heap, D3D12_QUERY_TYPE_TIMESTAMP, 1, 2, readback, 16);
        harness_execute_and_wait(device, resolve_queue, &resolve);
        harness_release_list(&resolve);
    }
    CHECK_NO_LOG();

    read_words(readback, values, 8);
    CHECK_MSG(values[0] == 0xababababababababull && values[1] == 0xababababababababull && values[4] == 0xababababababababull,
            "%s: ResolveQueryData wrote outside [16, 32)", name);
    CHECK_MSG(values[2] != 0 && values[3] != 0 && values[2] != 0xababababababababull && values[3] != 0xababababababababull,
            "%s: timestamps were not written (0x%llx, 0x%llx)", name, (unsigned long long)values[2], (unsigned long long)values[3]);
    CHECK_MSG(values[3] >= values[2], "%s: the second timestamp %llu is before the first %llu", name,
            (unsigned long long)values[3], (unsigned long long)values[2]);
    seconds = frequency ? (double)(values[3] - values[2]) / (double)frequency : -1.0;
    CHECK_MSG(seconds > 0.0 && seconds < 10.0, "%s: a 64 MiB copy took %g s by the timestamps", name, seconds);

    /* A later list resolves a query written by an earlier submission; re-executing the first
     * list writes newer timestamps. */
    {
        struct harness_list resolve = harness_create_list(device, resolve_type);
        uint64_t again[8];
        ID3D12CommandList *lists[1] = {(ID3D12CommandList *)list.list};
        ID3D12Fence *fence = NULL;
        CHECK_HR(ID3D12Device_CreateFence(device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&fence), S_OK);
        ID3D12CommandQueue_ExecuteCommandLists(queue, 1, lists);
        CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, 1), S_OK);
        CHECK_HR(ID3D12CommandQueue_Wait(resolve_queue, fence, 1), S_OK);
        ID3D12GraphicsCommandList2_ResolveQueryData(resolve.list, heap, D3D12_QUERY_TYPE_TIMESTAMP, 1, 1, readback, 0);
        ID3D12GraphicsCommandList2_ResolveQueryData(resolve.list, heap, D3D12_QUERY_TYPE_TIMESTAMP, 2, 1, readback, 56);
        harness_execute_and_wait(device, resolve_queue, &resolve);
        ID3D12Fence_Release(fence);
        read_words(readback, again, 8);
        /* [16, 32) is rewritten by the re-executed list only when it resolves itself. */
        CHECK_MSG(again[0] >= values[3] && again[7] >= again[0] && (resolve_type != type || (again[2] == again[0] && again[3] == again[7])),
                "%s: re-executed timestamps are %llu..%llu after %llu", name, (unsigned long long)again[0],
                (unsigned long long)again[7], (unsigned long long)values[3]);
        harness_release_list(&resolve);
    }
    CHECK_NO_LOG();

    if (resolve_queue != queue)
        ID3D12CommandQueue_Release(resolve_queue);
    harness_release_list(&list);
    ID3D12Resource_Release(readback);
    ID3D12QueryHeap_Release(heap);
    ID3D12CommandQueue_Release(queue);
}

static void bad_command(ID3D12Device *device, D3D12_COMMAND_LIST_TYPE type, const char *needle,
        void (*record)(ID3D12GraphicsCommandList2 *list, void *context), void *context, const char *command)
{
    struct harness_list list = harness_create_list(device, type);
    LOG_MARK();
    record(list.list, context);
    CHECK_LOG(command, needle, "now invalid");
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
    CHECK_LOG("Close", "invalid command", command, needle);
    harness_release_list(&list);
}

struct query_args {
    ID3D12QueryHeap *heap;
    D3D12_QUERY_TYPE type;
    UINT index, count;
    ID3D12Resource *dst;
    UINT64 offset;
};

static void record_end(ID3D12GraphicsCommandList2 *list, void *context)
{
    struct query_args *a = context;
    ID3D12GraphicsCommandList2_EndQuery(list, a->heap, a->type, a->index);
}

static void record_begin(ID3D12GraphicsCommandList2 *list, void *context)
{
    struct query_args *a = context;
    ID3D12GraphicsCommandList2_BeginQuery(list, a->heap, a->type, a->index);
}

static void record_resolve(ID3D12GraphicsCommandList2 *list, void *context)
{
    struct query_args *a = context;
    ID3D12GraphicsCommandList2_ResolveQueryData(list, a->heap, a->type, a->index, a->count, a->dst, a->offset);
}

static void test_bad_commands(ID3D12Device *device)
{
    ID3D12QueryHeap *heap = create_query_heap(device, D3D12_QUERY_HEAP_TYPE_TIMESTAMP, 4);
    ID3D12QueryHeap *copy_heap = create_query_heap(device, D3D12_QUERY_HEAP_TYPE_COPY_QUEUE_TIMESTAMP, 4);
    ID3D12Resource *readback = harness_create_buffer(device, D3D12_HEAP_TYPE_READBACK, 64, D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12Resource *upload = harness_create_buffer(device, D3D12_HEAP_TYPE_UPLOAD, 64, D3D12_RESOURCE_STATE_GENERIC_READ);
    const D3D12_QUERY_TYPE ts = D3D12_QUERY_TYPE_TIMESTAMP;
    const D3D12_COMMAND_LIST_TYPE direct = D3D12_COMMAND_LIST_TYPE_DIRECT, compute = D3D12_COMMAND_LIST_TYPE_COMPUTE,
            copy = D3D12_COMMAND_LIST_TYPE_COPY;
    struct query_args a;
    static const char end[] = "EndQuery", begin[] = "BeginQuery", resolve[] = "ResolveQueryData";

#define ARGS(h, t, i, c, d, o) (a = (struct query_args){h, t, i, c, d, o}, &a)
    /* EndQuery */
    bad_command(device, direct, "Index 4 is past the heap's 4 queries", record_end, ARGS(heap, ts, 4, 0, NULL, 0), end);
    bad_command(device, compute, "Index 4294967295", record_end, ARGS(heap, ts, UINT32_MAX, 0, NULL, 0), end);
    bad_command(device, copy, "a COPY list needs COPY_QUEUE_TIMESTAMP", record_end, ARGS(heap, ts, 0, 0, NULL, 0), end);
    bad_command(device, direct, "needs TIMESTAMP", record_end, ARGS(copy_heap, ts, 0, 0, NULL, 0), end);
    bad_command(device, compute, "needs TIMESTAMP", record_end, ARGS(copy_heap, ts, 0, 0, NULL, 0), end);
    bad_command(device, direct, "pQueryHeap is NULL", record_end, ARGS(NULL, ts, 0, 0, NULL, 0), end);
    bad_command(device, direct, "Type OCCLUSION needs a heap of type 0", record_end, ARGS(heap, D3D12_QUERY_TYPE_OCCLUSION, 0, 0, NULL, 0), end);
    /* BeginQuery */
    bad_command(device, direct, "timestamps take EndQuery only", record_begin, ARGS(heap, ts, 0, 0, NULL, 0), begin);
    bad_command(device, copy, "timestamps take EndQuery only", record_begin, ARGS(copy_heap, ts, 0, 0, NULL, 0), begin);
    bad_command(device, direct, "Type OCCLUSION needs a heap of type 0", record_begin, ARGS(heap, D3D12_QUERY_TYPE_OCCLUSION, 0, 0, NULL, 0), begin);
    /* ResolveQueryData */
    bad_command(device, direct, "AlignedDestinationBufferOffset 4 is not a multiple of 8", record_resolve, ARGS(heap, ts, 0, 2, readback, 4), resolve);
    bad_command(device, direct, "pass the end of the 64-byte pDestinationBuffer", record_resolve, ARGS(heap, ts, 0, 4, readback, 40), resolve);
    bad_command(device, compute, "pass the end", record_resolve, ARGS(heap, ts, 0, 1, readback, 64), resolve);
    bad_command(device, direct, "StartIndex 3 + NumQueries 2 passes the heap's 4 queries", record_resolve, ARGS(heap, ts, 3, 2, readback, 0), resolve);
    bad_command(device, direct, "StartIndex 5", record_resolve, ARGS(heap, ts, 5, 0, readback, 0), resolve);
    bad_command(device, direct, "pDestinationBuffer is NULL", record_resolve, ARGS(heap, ts, 0, 1, NULL, 0), resolve);
    bad_command(device, direct, "UPLOAD heap", record_resolve, ARGS(heap, ts, 0, 1, upload, 0), resolve);
    bad_command(device, copy, "needs COPY_QUEUE_TIMESTAMP", record_resolve, ARGS(heap, ts, 0, 1, readback, 0), resolve);
    bad_command(device, direct, "Type BINARY_OCCLUSION needs a heap of type 0", record_resolve,
            ARGS(heap, D3D12_QUERY_TYPE_BINARY_OCCLUSION, 0, 1, readback, 0), resolve);
#undef ARGS

    /* Valid edges: a resolve that ends exactly at the heap's and the buffer's end, and an empty one. */
    {
        struct harness_list list = harness_create_list(device, direct);
        ID3D12CommandQueue *queue = harness_create_queue(device, direct);
        uint64_t values[8];
        LOG_MARK();
        fill_readback(readback, 64, 0);
        for (UINT i = 0; i < 4; i++)
            ID3D12GraphicsCommandList2_EndQuery(list.list, heap, ts, i);
        ID3D12GraphicsCommandList2_ResolveQueryData(list.list, heap, ts, 0, 4, readback, 32);
        ID3D12GraphicsCommandList2_ResolveQueryData(list.list, heap, ts, 4, 0, readback, 64);
        harness_execute_and_wait(device, queue, &list);
        CHECK_NO_LOG();
        read_words(readback, values, 8);
        CHECK(values[0] == 0 && values[3] == 0);
        CHECK(values[4] != 0 && values[5] >= values[4] && values[6] >= values[5] && values[7] >= values[6]);
        harness_release_list(&list);
        ID3D12CommandQueue_Release(queue);
    }

    ID3D12QueryHeap_Release(heap);
    ID3D12QueryHeap_Release(copy_heap);
    ID3D12Resource_Release(readback);
    ID3D12Resource_Release(upload);
}

/* ---- the query types other than timestamps ---- */

static const char count_source[] =
    "RWByteAddressBuffer output : register(u0);\n"
    "[numthreads(8, 4, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID) { output.Store((id.y * 64 + id.x) * 4, 1); }\n";

struct compute_env {
    ID3D12RootSignature *signature;
    ID3D12PipelineState *pipeline;
    ID3D12Resource *output;
};

static void set_compute(ID3D12GraphicsCommandList2 *list, const struct compute_env *env)
{
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list, env->signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list, env->pipeline);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list, 0, ID3D12Resource_GetGPUVirtualAddress(env->output));
}

/* Every heap type D3D12 has but video decode statistics is creatable. */
static void test_heap_types(ID3D12Device *device)
{
    static const D3D12_QUERY_HEAP_TYPE types[] = {D3D12_QUERY_HEAP_TYPE_OCCLUSION, D3D12_QUERY_HEAP_TYPE_TIMESTAMP,
            D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS, D3D12_QUERY_HEAP_TYPE_SO_STATISTICS, D3D12_QUERY_HEAP_TYPE_COPY_QUEUE_TIMESTAMP,
            D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS1};
    LOG_MARK();
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        ID3D12QueryHeap *heap = create_query_heap(device, types[i], 1000);
        if (heap)
            CHECK(ID3D12QueryHeap_Release(heap) == 0);
    }
    CHECK_NO_LOG();
}

/* Pipeline statistics around dispatches of 8x4-thread groups: CSInvocations counts threads,
 * the graphics fields stay 0; PIPELINE_STATISTICS1's mesh fields too. */
static void test_pipeline_statistics(ID3D12Device *device, D3D12_COMMAND_LIST_TYPE type, const struct compute_env *env, bool statistics1)
{
    D3D12_QUERY_HEAP_TYPE heap_type = statistics1 ? D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS1 : D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS;
    D3D12_QUERY_TYPE query = statistics1 ? D3D12_QUERY_TYPE_PIPELINE_STATISTICS1 : D3D12_QUERY_TYPE_PIPELINE_STATISTICS;
    const size_t words = statistics1 ? 14 : 11, size = words * 8;
    ID3D12CommandQueue *queue = harness_create_queue(device, type);
    ID3D12QueryHeap *heap = create_query_heap(device, heap_type, 3);
    ID3D12Resource *readback = harness_create_buffer(device, D3D12_HEAP_TYPE_READBACK, 4 * size, D3D12_RESOURCE_STATE_COPY_DEST);
    struct harness_list list = harness_create_list(device, type);
    uint64_t values[4 * 14];
    LOG_MARK();

    fill_readback(readback, 4 * size, 0xab);
    set_compute(list.list, env);
    ID3D12GraphicsCommandList2_BeginQuery(list.list, heap, query, 0);
    ID3D12GraphicsCommandList2_Dispatch(list.list, 3, 2, 1);                       /* 6 groups: 192 threads */
    ID3D12GraphicsCommandList2_EndQuery(list.list, heap, query, 0);
    ID3D12GraphicsCommandList2_BeginQuery(list.list, heap, query, 2);
    ID3D12GraphicsCommandList2_Dispatch(list.list, 3, 2, 1);
    ID3D12GraphicsCommandList2_Dispatch(list.list, 5, 1, 1);                       /* + 160 threads */
    ID3D12GraphicsCommandList2_EndQuery(list.list, heap, query, 2);
    ID3D12GraphicsCommandList2_Dispatch(list.list, 7, 1, 1);                       /* outside every query */
    /* Query 1 was never ended: it resolves to 0. [size, 4 * size): queries 0..2. */
    ID3D12GraphicsCommandList2_ResolveQueryData(list.list, heap, query, 0, 3, readback, size);
    harness_execute_and_wait(device, queue, &list);
    CHECK_NO_LOG();

    read_words(readback, values, 4 * words);
    for (size_t i = 0; i < words; i++)
        CHECK_MSG(values[i] == 0xababababababababull, "word %zu before the resolve was written", i);
    for (size_t q = 0; q < 3; q++) {
        const uint64_t *result = values + (q + 1) * words;
        uint64_t expected = q == 0 ? 192 : q == 2 ? 352 : 0;
        CHECK_MSG(result[10] == expected, "type %d %s list: query %zu counted %llu compute invocations, expected %llu", (int)heap_type,
                type == D3D12_COMMAND_LIST_TYPE_DIRECT ? "DIRECT" : "COMPUTE", q, (unsigned long long)result[10], (unsigned long long)expected);
        for (size_t i = 0; i < words; i++) {
            if (i != 10)
                CHECK_MSG(result[i] == 0, "query %zu: field %zu is %llu without graphics work", q, i, (unsigned long long)result[i]);
        }
    }

    /* One list resolves query 0, ends it again around one dispatch and resolves it again:
     * each resolve sees the count ended before it. */
    {
        struct harness_list twice = harness_create_list(device, type);
        uint64_t first[14], second[14];
        ID3D12Resource *other = harness_create_buffer(device, D3D12_HEAP_TYPE_READBACK, size, D3D12_RESOURCE_STATE_COPY_DEST);
        set_compute(twice.list, env);
        ID3D12GraphicsCommandList2_ResolveQueryData(twice.list, heap, query, 0, 1, readback, 0);
        ID3D12GraphicsCommandList2_BeginQuery(twice.list, heap, query, 0);
        ID3D12GraphicsCommandList2_Dispatch(twice.list, 2, 1, 1);
        ID3D12GraphicsCommandList2_EndQuery(twice.list, heap, query, 0);
        ID3D12GraphicsCommandList2_ResolveQueryData(twice.list, heap, query, 0, 1, other, 0);
        harness_execute_and_wait(device, queue, &twice);
        read_words(readback, first, words);
        read_words(other, second, words);
        CHECK_MSG(first[10] == 192 && second[10] == 64, "resolved %llu then %llu, expected 192 then 64", (unsigned long long)first[10],
                (unsigned long long)second[10]);
        ID3D12Resource_Release(other);
        harness_release_list(&twice);
    }
    /* A later list ends query 0 again around one dispatch: the new count replaces the old. */
    {
        struct harness_list again = harness_create_list(device, type);
        uint64_t second[14];
        set_compute(again.list, env);
        ID3D12GraphicsCommandList2_BeginQuery(again.list, heap, query, 0);
        ID3D12GraphicsCommandList2_Dispatch(again.list, 1, 1, 1);
        ID3D12GraphicsCommandList2_EndQuery(again.list, heap, query, 0);
        ID3D12GraphicsCommandList2_ResolveQueryData(again.list, heap, query, 0, 1, readback, 0);
        harness_execute_and_wait(device, queue, &again);
        read_words(readback, second, words);
        CHECK_MSG(second[10] == 32, "re-ended query counted %llu, expected 32", (unsigned long long)second[10]);
        harness_release_list(&again);
    }
    CHECK_NO_LOG();

    harness_release_list(&list);
    ID3D12Resource_Release(readback);
    ID3D12QueryHeap_Release(heap);
    ID3D12CommandQueue_Release(queue);
}

/* Occlusion, binary occlusion and stream-output queries resolve to 0 (no draws exist to pass
 * samples or stream anything out), around a dispatch too. */
static void test_zero_queries(ID3D12Device *device, const struct compute_env *env)
{
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12QueryHeap *occlusion = create_query_heap(device, D3D12_QUERY_HEAP_TYPE_OCCLUSION, 2);
    ID3D12QueryHeap *so = create_query_heap(device, D3D12_QUERY_HEAP_TYPE_SO_STATISTICS, 4);
    ID3D12Resource *readback = harness_create_buffer(device, D3D12_HEAP_TYPE_READBACK, 128, D3D12_RESOURCE_STATE_COPY_DEST);
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    uint64_t values[16];
    LOG_MARK();

    fill_readback(readback, 128, 0xab);
    set_compute(list.list, env);
    ID3D12GraphicsCommandList2_BeginQuery(list.list, occlusion, D3D12_QUERY_TYPE_OCCLUSION, 0);
    ID3D12GraphicsCommandList2_Dispatch(list.list, 2, 1, 1);
    ID3D12GraphicsCommandList2_EndQuery(list.list, occlusion, D3D12_QUERY_TYPE_OCCLUSION, 0);
    ID3D12GraphicsCommandList2_BeginQuery(list.list, occlusion, D3D12_QUERY_TYPE_BINARY_OCCLUSION, 1);
    ID3D12GraphicsCommandList2_EndQuery(list.list, occlusion, D3D12_QUERY_TYPE_BINARY_OCCLUSION, 1);
    /* Stream-output queries of different streams may be open together. */
    for (UINT stream = 0; stream < 4; stream++)
        ID3D12GraphicsCommandList2_BeginQuery(list.list, so, D3D12_QUERY_TYPE_SO_STATISTICS_STREAM0 + stream, stream);
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    for (UINT stream = 0; stream < 4; stream++)
        ID3D12GraphicsCommandList2_EndQuery(list.list, so, D3D12_QUERY_TYPE_SO_STATISTICS_STREAM0 + stream, stream);
    ID3D12GraphicsCommandList2_ResolveQueryData(list.list, occlusion, D3D12_QUERY_TYPE_OCCLUSION, 0, 1, readback, 0);
    ID3D12GraphicsCommandList2_ResolveQueryData(list.list, occlusion, D3D12_QUERY_TYPE_BINARY_OCCLUSION, 1, 1, readback, 8);
    ID3D12GraphicsCommandList2_ResolveQueryData(list.list, so, D3D12_QUERY_TYPE_SO_STATISTICS_STREAM0, 0, 4, readback, 32);
    harness_execute_and_wait(device, queue, &list);
    CHECK_NO_LOG();

    read_words(readback, values, 16);
    CHECK_MSG(values[0] == 0 && values[1] == 0, "occlusion %llu, binary occlusion %llu", (unsigned long long)values[0],
            (unsigned long long)values[1]);
    CHECK(values[2] == 0xababababababababull && values[3] == 0xababababababababull);
    for (size_t i = 4; i < 12; i++)
        CHECK_MSG(values[i] == 0, "SO statistics word %zu is 0x%llx", i - 4, (unsigned long long)values[i]);
    CHECK(values[12] == 0xababababababababull);

    harness_release_list(&list);
    ID3D12Resource_Release(readback);
    ID3D12QueryHeap_Release(occlusion);
    ID3D12QueryHeap_Release(so);
    ID3D12CommandQueue_Release(queue);
}

struct query_op {
    char call; /* 'b' BeginQuery, 'e' EndQuery, 'r' ResolveQueryData */
    ID3D12QueryHeap *heap;
    D3D12_QUERY_TYPE type;
    UINT index, count;
    ID3D12Resource *dst;
    UINT64 offset;
};

static void record_ops(ID3D12GraphicsCommandList2 *list, void *context)
{
    for (const struct query_op *op = context; op->call; op++) {
        if (op->call == 'b')
            ID3D12GraphicsCommandList2_BeginQuery(list, op->heap, op->type, op->index);
        else if (op->call == 'e')
            ID3D12GraphicsCommandList2_EndQuery(list, op->heap, op->type, op->index);
        else
            ID3D12GraphicsCommandList2_ResolveQueryData(list, op->heap, op->type, op->index, op->count, op->dst, op->offset);
    }
}

/* D3D12's rules on the query types other than timestamps. */
static void test_query_rules(ID3D12Device *device)
{
    ID3D12QueryHeap *occlusion = create_query_heap(device, D3D12_QUERY_HEAP_TYPE_OCCLUSION, 4);
    ID3D12QueryHeap *statistics = create_query_heap(device, D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS, 4);
    ID3D12QueryHeap *so = create_query_heap(device, D3D12_QUERY_HEAP_TYPE_SO_STATISTICS, 4);
    ID3D12QueryHeap *statistics1 = create_query_heap(device, D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS1, 1);
    ID3D12Resource *readback = harness_create_buffer(device, D3D12_HEAP_TYPE_READBACK, 256, D3D12_RESOURCE_STATE_COPY_DEST);
    const D3D12_COMMAND_LIST_TYPE direct = D3D12_COMMAND_LIST_TYPE_DIRECT, compute = D3D12_COMMAND_LIST_TYPE_COMPUTE,
            copy = D3D12_COMMAND_LIST_TYPE_COPY;
    const D3D12_QUERY_TYPE occ = D3D12_QUERY_TYPE_OCCLUSION, bin = D3D12_QUERY_TYPE_BINARY_OCCLUSION,
            stats = D3D12_QUERY_TYPE_PIPELINE_STATISTICS, so0 = D3D12_QUERY_TYPE_SO_STATISTICS_STREAM0;
    static const char end[] = "EndQuery", begin[] = "BeginQuery", resolve[] = "ResolveQueryData";
#define OPS(...) ((struct query_op[]){__VA_ARGS__, {0}})
#define B(h, t, i) {'b', h, t, i, 0, NULL, 0}
#define E(h, t, i) {'e', h, t, i, 0, NULL, 0}
#define R(h, t, i, c, o) {'r', h, t, i, c, readback, o}

    /* Which lists take which types. */
    bad_command(device, compute, "Type is OCCLUSION, which DIRECT lists only take", record_ops, OPS(B(occlusion, occ, 0)), begin);
    bad_command(device, compute, "Type is BINARY_OCCLUSION, which DIRECT lists only take", record_ops, OPS(R(occlusion, bin, 0, 1, 0)), resolve);
    bad_command(device, compute, "Type is SO_STATISTICS_STREAM0, which DIRECT lists only take", record_ops, OPS(B(so, so0, 0)), begin);
    bad_command(device, copy, "Type is PIPELINE_STATISTICS, which DIRECT and COMPUTE lists only take", record_ops, OPS(B(statistics, stats, 0)), begin);
    bad_command(device, copy, "DIRECT and COMPUTE lists only", record_ops, OPS(R(statistics, stats, 0, 1, 0)), resolve);
    bad_command(device, copy, "DIRECT lists only", record_ops, OPS(E(occlusion, occ, 0)), end);
    bad_command(device, direct, "video decode command lists only", record_ops, OPS(B(statistics, D3D12_QUERY_TYPE_VIDEO_DECODE_STATISTICS, 0)), begin);
    bad_command(device, direct, "Type is 9 (not a D3D12_QUERY_TYPE)", record_ops, OPS(B(statistics, (D3D12_QUERY_TYPE)9, 0)), begin);
    /* Which heap each type needs. */
    bad_command(device, direct, "pQueryHeap has type 2; Type OCCLUSION needs a heap of type 0", record_ops, OPS(B(statistics, occ, 0)), begin);
    bad_command(device, direct, "Type SO_STATISTICS_STREAM0 needs a heap of type 3", record_ops, OPS(R(occlusion, so0, 0, 1, 0)), resolve);
    bad_command(device, compute, "Type PIPELINE_STATISTICS1 needs a heap of type 7", record_ops,
            OPS(B(statistics, D3D12_QUERY_TYPE_PIPELINE_STATISTICS1, 0)), begin);
    bad_command(device, direct, "Index 4 is past the heap's 4 queries", record_ops, OPS(B(occlusion, occ, 4)), begin);
    bad_command(device, direct, "Index 4 is past", record_ops, OPS(E(so, so0, 4)), end);
    /* Begin and End pair up in one list. */
    bad_command(device, direct, "query 1 of pQueryHeap is already begun (as OCCLUSION", record_ops,
            OPS(B(occlusion, occ, 1), B(occlusion, bin, 1)), begin);
    bad_command(device, compute, "query 2 of pQueryHeap was not begun in this list", record_ops, OPS(E(statistics, stats, 2)), end);
    bad_command(device, direct, "query 0 of pQueryHeap was not begun", record_ops, OPS(B(occlusion, occ, 0), E(occlusion, occ, 0),
            E(occlusion, occ, 0)), end);
    bad_command(device, direct, "Type is BINARY_OCCLUSION but query 3 was begun as OCCLUSION", record_ops,
            OPS(B(occlusion, occ, 3), E(occlusion, bin, 3)), end);
    bad_command(device, direct, "Type is SO_STATISTICS_STREAM0 but query 0 was begun as SO_STATISTICS_STREAM1", record_ops,
            OPS(B(so, so0 + 1, 0), E(so, so0, 0)), end);
    /* Vulkan has one active query per type in a command buffer. */
    bad_command(device, direct, "cannot overlap two queries of one type", record_ops, OPS(B(occlusion, occ, 0), B(occlusion, bin, 1)), begin);
    bad_command(device, compute, "query 0 of a heap of type 7 is still open (d3d12xs cannot overlap", record_ops,
            OPS(B(statistics1, D3D12_QUERY_TYPE_PIPELINE_STATISTICS1, 0), B(statistics, stats, 0)), begin);
    /* Resolve bounds, by the type's result size. */
    bad_command(device, direct, "3 results of 88 bytes at offset 0 pass the end of the 256-byte pDestinationBuffer", record_ops,
            OPS(R(statistics, stats, 0, 3, 0)), resolve);
    bad_command(device, compute, "2 results of 88 bytes at offset 96", record_ops, OPS(R(statistics, stats, 1, 2, 96)), resolve);
    bad_command(device, direct, "StartIndex 2 + NumQueries 3 passes the heap's 4 queries", record_ops, OPS(R(so, so0, 2, 3, 0)), resolve);
    bad_command(device, direct, "AlignedDestinationBufferOffset 12 is not a multiple of 8", record_ops, OPS(R(occlusion, occ, 0, 1, 12)), resolve);
#undef B
#undef E
#undef R
#undef OPS

    /* Close with a query still open: Close fails and names it (one line, Close's). */
    {
        struct harness_list list = harness_create_list(device, direct);
        LOG_MARK();
        ID3D12GraphicsCommandList2_BeginQuery(list.list, occlusion, occ, 2);
        ID3D12GraphicsCommandList2_BeginQuery(list.list, so, so0, 0);
        CHECK_NO_LOG();
        CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
        CHECK_LOG("Close", "query 2 (OCCLUSION) is still open", "EndQuery it in the list that began it");
        harness_release_list(&list);
    }
    /* A list released while recording with an open query (validation stays quiet). */
    {
        struct harness_list list = harness_create_list(device, compute);
        LOG_MARK();
        ID3D12GraphicsCommandList2_BeginQuery(list.list, statistics, stats, 3);
        harness_release_list(&list);
        CHECK_NO_LOG();
    }
    /* A console wait starts a new Vulkan command buffer, which an active Vulkan query cannot
     * span: refused under one (d3d12xs's limit, not D3D12's); a stream-output query may span it
     * only where no Vulkan query counts it (no transform feedback queries). */
    {
        ID3D12Resource *upload = harness_create_buffer(device, D3D12_HEAP_TYPE_UPLOAD, 64, D3D12_RESOURCE_STATE_GENERIC_READ);
        D3D12_GPU_VIRTUAL_ADDRESS address = ID3D12Resource_GetGPUVirtualAddress(upload);
        struct harness_list list = harness_create_list(device, direct);
        ID3D12GraphicsCommandList *l = (ID3D12GraphicsCommandList *)list.list;
        LOG_MARK();
        ID3D12GraphicsCommandList2_BeginQuery(list.list, statistics, stats, 1);
        ID3D12GraphicsCommandList_Wait32BitValueX(l, address, D3D12_COMPARISON_FUNC_ALWAYS, 0, D3D12XBOX_WAIT_FLAG_NONE);
        CHECK_LOG("Wait32BitValueX", "query 1 (PIPELINE_STATISTICS) is open across this command", "cannot split a query");
        ID3D12GraphicsCommandList2_EndQuery(list.list, statistics, stats, 1);
        RELOG_MARK();
        CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
        CHECK_LOG("Close", "Wait32BitValueX", "is open across this command");
        harness_release_list(&list);
        ID3D12Resource_Release(upload);
    }
    /* Valid edges: resolves that end at the heap's and the buffer's end, an empty one, a query
     * begun again after it ended. */
    {
        struct harness_list list = harness_create_list(device, direct);
        ID3D12CommandQueue *queue = harness_create_queue(device, direct);
        LOG_MARK();
        ID3D12GraphicsCommandList2_BeginQuery(list.list, occlusion, occ, 0);
        ID3D12GraphicsCommandList2_EndQuery(list.list, occlusion, occ, 0);
        ID3D12GraphicsCommandList2_BeginQuery(list.list, occlusion, bin, 0);
        ID3D12GraphicsCommandList2_EndQuery(list.list, occlusion, bin, 0);
        ID3D12GraphicsCommandList2_ResolveQueryData(list.list, statistics, stats, 2, 2, readback, 256 - 176);
        ID3D12GraphicsCommandList2_ResolveQueryData(list.list, so, so0, 4, 0, readback, 256);
        ID3D12GraphicsCommandList2_ResolveQueryData(list.list, occlusion, bin, 0, 4, readback, 224);
        harness_execute_and_wait(device, queue, &list);
        CHECK_NO_LOG();
        harness_release_list(&list);
        ID3D12CommandQueue_Release(queue);
    }

    ID3D12QueryHeap_Release(occlusion);
    ID3D12QueryHeap_Release(statistics);
    ID3D12QueryHeap_Release(so);
    ID3D12QueryHeap_Release(statistics1);
    ID3D12Resource_Release(readback);
}

static void test_bad_heaps(ID3D12Device *device)
{
    D3D12_QUERY_HEAP_DESC desc = {D3D12_QUERY_HEAP_TYPE_TIMESTAMP, 0, 0};
    ID3D12QueryHeap *heap = (ID3D12QueryHeap *)(uintptr_t)0xdeadbeef;
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12Pageable *pageable = NULL;
    ID3D12Fence *fence = NULL;
    LOG_MARK();

    CHECK_HR(ID3D12Device_CreateQueryHeap(device, &desc, &IID_ID3D12QueryHeap, (void **)&heap), E_INVALIDARG);
    CHECK_LOG("CreateQueryHeap", "Count is 0");
    CHECK(heap == NULL);
    RELOG_MARK();
    CHECK_HR(ID3D12Device_CreateQueryHeap(device, NULL, &IID_ID3D12QueryHeap, (void **)&heap), E_INVALIDARG);
    CHECK_LOG("CreateQueryHeap", "pDesc is NULL");
    RELOG_MARK();
    desc.Count = 4;
    desc.Type = D3D12_QUERY_HEAP_TYPE_VIDEO_DECODE_STATISTICS;
    CHECK_HR(ID3D12Device_CreateQueryHeap(device, &desc, &IID_ID3D12QueryHeap, (void **)&heap), E_INVALIDARG);
    CHECK_LOG("CreateQueryHeap", "VIDEO_DECODE_STATISTICS", "video decode command lists");
    CHECK(heap == NULL);
    RELOG_MARK();
    desc.Type = (D3D12_QUERY_HEAP_TYPE)6;
    CHECK_HR(ID3D12Device_CreateQueryHeap(device, &desc, &IID_ID3D12QueryHeap, (void **)&heap), E_INVALIDARG);
    CHECK_LOG("CreateQueryHeap", "Type is 6", "not a D3D12_QUERY_HEAP_TYPE");
    RELOG_MARK();
    desc.Type = (D3D12_QUERY_HEAP_TYPE)99;
    CHECK_HR(ID3D12Device_CreateQueryHeap(device, &desc, &IID_ID3D12QueryHeap, (void **)&heap), E_INVALIDARG);
    CHECK_LOG("CreateQueryHeap", "Type is 99", "not a D3D12_QUERY_HEAP_TYPE");
    RELOG_MARK();
    desc.Type = D3D12_QUERY_HEAP_TYPE_TIMESTAMP;
    desc.NodeMask = 2;
    CHECK_HR(ID3D12Device_CreateQueryHeap(device, &desc, &IID_ID3D12QueryHeap, (void **)&heap), E_INVALIDARG);
    CHECK_LOG("CreateQueryHeap", "NodeMask");
    desc.NodeMask = 1;
    RELOG_MARK();
    CHECK_HR(ID3D12Device_CreateQueryHeap(device, &desc, NULL, (void **)&heap), E_INVALIDARG);
    CHECK_LOG("CreateQueryHeap", "riid is NULL");
    RELOG_MARK();
    CHECK_HR(ID3D12Device_CreateQueryHeap(device, &desc, &IID_ID3D12QueryHeap, NULL), S_FALSE); /* a capability check */
    CHECK_NO_LOG();
    desc.Count = 0; /* still checks its arguments */
    CHECK_HR(ID3D12Device_CreateQueryHeap(device, &desc, &IID_ID3D12QueryHeap, NULL), E_INVALIDARG);
    CHECK_LOG("CreateQueryHeap", "Count is 0");
    desc.Count = 4;

    /* A good heap: COM plumbing. */
    RELOG_MARK();
    CHECK_HR(ID3D12Device_CreateQueryHeap(device, &desc, &IID_ID3D12QueryHeap, (void **)&heap), S_OK);
    CHECK_HR(ID3D12QueryHeap_QueryInterface(heap, &IID_ID3D12Pageable, (void **)&pageable), S_OK);
    CHECK((void *)pageable == (void *)heap);
    CHECK_HR(ID3D12QueryHeap_QueryInterface(heap, &IID_ID3D12Fence, (void **)&fence), E_NOINTERFACE);
    CHECK(fence == NULL);
    CHECK_NO_LOG();
    ID3D12Pageable_Release(pageable);
    CHECK(ID3D12QueryHeap_Release(heap) == 0);
    /* A heap type the device does not offer is E_INVALIDARG, the interface it lacks E_NOINTERFACE. */
    RELOG_MARK();
    heap = (ID3D12QueryHeap *)(uintptr_t)0xdeadbeef;
    CHECK_HR(ID3D12Device_CreateQueryHeap(device, &desc, &IID_ID3D12Fence, (void **)&heap), E_NOINTERFACE);
    CHECK(heap == NULL);
    CHECK_LOG("CreateQueryHeap", "riid");
    RELOG_MARK();

    CHECK_HR(ID3D12CommandQueue_GetTimestampFrequency(queue, NULL), E_INVALIDARG);
    CHECK_LOG("GetTimestampFrequency", "pFrequency is NULL");
    ID3D12CommandQueue_Release(queue);
}

int main(void)
{
    harness_init();
    ID3D12Device *device = harness_create_device();
    ID3D12Resource *src = harness_create_buffer(device, D3D12_HEAP_TYPE_DEFAULT, BIG_COPY, D3D12_RESOURCE_STATE_COPY_SOURCE);
    ID3D12Resource *dst = harness_create_buffer(device, D3D12_HEAP_TYPE_DEFAULT, BIG_COPY, D3D12_RESOURCE_STATE_COPY_DEST);

    time_big_copy(device, D3D12_COMMAND_LIST_TYPE_DIRECT, "DIRECT", src, dst);
    time_big_copy(device, D3D12_COMMAND_LIST_TYPE_COMPUTE, "COMPUTE", src, dst);
    time_big_copy(device, D3D12_COMMAND_LIST_TYPE_COPY, "COPY", src, dst);
    test_bad_commands(device);
    test_bad_heaps(device);
    test_heap_types(device);
    {
        D3D12_ROOT_PARAMETER1 parameter = {.ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV};
        struct compute_env env = {harness_root_signature(device, &parameter, 1, D3D12_ROOT_SIGNATURE_FLAG_NONE), NULL,
                harness_uav_buffer(device, 64 * 64 * 4)};
        ID3D10Blob *code = harness_compile(count_source, 0);
        if (code && env.signature) {
            env.pipeline = harness_compute_pipeline(device, env.signature, code);
            test_pipeline_statistics(device, D3D12_COMMAND_LIST_TYPE_DIRECT, &env, false);
            test_pipeline_statistics(device, D3D12_COMMAND_LIST_TYPE_COMPUTE, &env, false);
            test_pipeline_statistics(device, D3D12_COMMAND_LIST_TYPE_DIRECT, &env, true);
            test_pipeline_statistics(device, D3D12_COMMAND_LIST_TYPE_COMPUTE, &env, true);
            test_zero_queries(device, &env);
            ID3D12PipelineState_Release(env.pipeline);
        }
        if (code)
            ID3D10Blob_Release(code);
        if (env.signature)
            ID3D12RootSignature_Release(env.signature);
        ID3D12Resource_Release(env.output);
    }
    test_query_rules(device);

    ID3D12Resource_Release(src);
    ID3D12Resource_Release(dst);
    harness_release_device(device);
    return harness_finish();
}
