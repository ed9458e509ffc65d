/* Timestamp queries: EndQuery around a 64 MiB copy on DIRECT, COMPUTE and COPY lists,
 * ResolveQueryData into readback buffers, GetTimestampFrequency; and the query heap and
 * query commands that break the rules. */
#include <stdlib.h>
#include <string.h>

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
    bad_command(device, direct, "Type is 0", record_end, ARGS(heap, D3D12_QUERY_TYPE_OCCLUSION, 0, 0, NULL, 0), end);
    /* BeginQuery */
    bad_command(device, direct, "timestamps take EndQuery only", record_begin, ARGS(heap, ts, 0, 0, NULL, 0), begin);
    bad_command(device, copy, "timestamps take EndQuery only", record_begin, ARGS(copy_heap, ts, 0, 0, NULL, 0), begin);
    bad_command(device, direct, "only timestamp queries", record_begin, ARGS(heap, D3D12_QUERY_TYPE_OCCLUSION, 0, 0, NULL, 0), begin);
    /* ResolveQueryData */
    bad_command(device, direct, "AlignedDestinationBufferOffset 4 is not a multiple of 8", record_resolve, ARGS(heap, ts, 0, 2, readback, 4), resolve);
    bad_command(device, direct, "pass the end of the 64-byte pDestinationBuffer", record_resolve, ARGS(heap, ts, 0, 4, readback, 40), resolve);
    bad_command(device, compute, "pass the end", record_resolve, ARGS(heap, ts, 0, 1, readback, 64), resolve);
    bad_command(device, direct, "StartIndex 3 + NumQueries 2 passes the heap's 4 queries", record_resolve, ARGS(heap, ts, 3, 2, readback, 0), resolve);
    bad_command(device, direct, "StartIndex 5", record_resolve, ARGS(heap, ts, 5, 0, readback, 0), resolve);
    bad_command(device, direct, "pDestinationBuffer is NULL", record_resolve, ARGS(heap, ts, 0, 1, NULL, 0), resolve);
    bad_command(device, direct, "UPLOAD heap", record_resolve, ARGS(heap, ts, 0, 1, upload, 0), resolve);
    bad_command(device, copy, "needs COPY_QUEUE_TIMESTAMP", record_resolve, ARGS(heap, ts, 0, 1, readback, 0), resolve);
    bad_command(device, direct, "Type is 1", record_resolve, ARGS(heap, D3D12_QUERY_TYPE_BINARY_OCCLUSION, 0, 1, readback, 0), resolve);
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
    desc.Type = D3D12_QUERY_HEAP_TYPE_OCCLUSION;
    CHECK_HR(ID3D12Device_CreateQueryHeap(device, &desc, &IID_ID3D12QueryHeap, (void **)&heap), E_NOTIMPL);
    CHECK_LOG("CreateQueryHeap", "Type is 0", "TIMESTAMP");
    RELOG_MARK();
    desc.Type = D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS;
    CHECK_HR(ID3D12Device_CreateQueryHeap(device, &desc, &IID_ID3D12QueryHeap, (void **)&heap), E_NOTIMPL);
    CHECK_LOG("CreateQueryHeap", "Type is 2");
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
    CHECK_HR(ID3D12Device_CreateQueryHeap(device, &desc, &IID_ID3D12QueryHeap, NULL), E_POINTER);
    CHECK_LOG("CreateQueryHeap", "ppvHeap is NULL");

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

    ID3D12Resource_Release(src);
    ID3D12Resource_Release(dst);
    harness_release_device(device);
    return harness_finish();
}
