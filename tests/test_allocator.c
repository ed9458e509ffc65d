/* The device's memory allocator (src/memory/allocator.c), seen through the API and
 * D3D12XSGetMemoryStatistics: many small committed resources share a few VkDeviceMemory
 * objects and each keeps its own bytes; freed ranges are reused and come back zeroed; a large
 * resource gets memory of its own; placed resources bind into their heap's allocation; and
 * creation and release from four threads at once never hand one range out twice. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include <d3d12xs.h>

#define SMALL_COUNT 1000
#define D3D12XS_ARRAY_SIZE_TEST(a) (sizeof(a) / sizeof((a)[0]))

static D3D12XS_MEMORY_STATISTICS statistics(ID3D12Device *device)
{
    D3D12XS_MEMORY_STATISTICS s;
    memset(&s, 0, sizeof(s));
    CHECK_HR(D3D12XSGetMemoryStatistics(device, &s), S_OK);
    return s;
}

/* Released resources free their memory at retirement, which the waiter thread may run a
 * moment later when GPU work used them: waits (bounded) until the count is back to count. */
static D3D12XS_MEMORY_STATISTICS wait_allocations(ID3D12Device *device, UINT64 count)
{
    D3D12XS_MEMORY_STATISTICS s = statistics(device);
    uint64_t start = harness_now_ms();
    while (s.AllocationCount != count && harness_now_ms() - start < 5000) {
        harness_sleep_ms(1);
        s = statistics(device);
    }
    CHECK_MSG(s.AllocationCount == count, "%llu allocations live, expected %llu after the releases", (unsigned long long)s.AllocationCount,
            (unsigned long long)count);
    return s;
}

static ID3D12Resource *create_committed(ID3D12Device *device, D3D12_HEAP_TYPE type, UINT64 size, D3D12_HEAP_FLAGS flags)
{
    D3D12_HEAP_PROPERTIES properties = harness_heap_properties(type);
    D3D12_RESOURCE_DESC desc = harness_buffer_desc(size);
    D3D12_RESOURCE_STATES state = type == D3D12_HEAP_TYPE_UPLOAD ? D3D12_RESOURCE_STATE_GENERIC_READ : D3D12_RESOURCE_STATE_COPY_DEST;
    ID3D12Resource *resource = NULL;
    HRESULT hr = ID3D12Device_CreateCommittedResource(device, &properties, flags, &desc, state, NULL, &IID_ID3D12Resource, (void **)&resource);
    CHECK_MSG(SUCCEEDED(hr) && resource, "CreateCommittedResource(heap %d, %llu bytes) returned 0x%08x", (int)type, (unsigned long long)size,
            (unsigned)hr);
    return resource;
}

static uint8_t pattern_byte(uint32_t seed, size_t i)
{
    return (uint8_t)((seed * 2654435761u + (uint32_t)i * 40503u) >> 13) | 1; /* never 0, so zeroed memory cannot pass */
}

static void *map(ID3D12Resource *resource)
{
    void *data = NULL;
    CHECK_HR(ID3D12Resource_Map(resource, 0, NULL, &data), S_OK);
    return data;
}

static D3D12_RESOURCE_BARRIER transition(ID3D12Resource *resource, D3D12_RESOURCE_STATES before, D3D12_RESOURCE_STATES after)
{
    D3D12_RESOURCE_BARRIER barrier;
    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    barrier.Transition.pResource = resource;
    barrier.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    barrier.Transition.StateBefore = before;
    barrier.Transition.StateAfter = after;
    return barrier;
}

/* 1,000 small committed buffers in UPLOAD, READBACK and DEFAULT heaps: each written (through
 * Map or a GPU copy) and read back with its own bytes, all in a handful of VkDeviceMemory. */
static void test_many_small(ID3D12Device *device, ID3D12CommandQueue *queue)
{
    static ID3D12Resource *resources[SMALL_COUNT];
    static UINT64 sizes[SMALL_COUNT], offsets[SMALL_COUNT + 1];
    D3D12XS_MEMORY_STATISTICS before = statistics(device), during, after;
    D3D12_RESOURCE_BARRIER *barriers = calloc(SMALL_COUNT, sizeof(*barriers));
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12Resource *staging, *result;
    uint8_t *staging_data, *result_data;
    unsigned barrier_count = 0, wrong = 0, unaligned = 0;

    /* Sizes from 4 bytes to 2 KiB, odd ones too, each at its offset in one staging buffer. */
    for (unsigned i = 0; i < SMALL_COUNT; i++) {
        sizes[i] = 4 + (i * 37) % 2045;
        offsets[i + 1] = offsets[i] + ((sizes[i] + 15) & ~15ull);
    }
    staging = create_committed(device, D3D12_HEAP_TYPE_UPLOAD, offsets[SMALL_COUNT], D3D12_HEAP_FLAG_NONE);
    result = create_committed(device, D3D12_HEAP_TYPE_READBACK, offsets[SMALL_COUNT], D3D12_HEAP_FLAG_NONE);
    staging_data = map(staging);
    for (unsigned i = 0; i < SMALL_COUNT && staging_data; i++)
        for (UINT64 b = 0; b < sizes[i]; b++)
            staging_data[offsets[i] + b] = pattern_byte(i, b);

    for (unsigned i = 0; i < SMALL_COUNT; i++) {
        D3D12_HEAP_TYPE type = i % 3 == 0 ? D3D12_HEAP_TYPE_UPLOAD : i % 3 == 1 ? D3D12_HEAP_TYPE_READBACK : D3D12_HEAP_TYPE_DEFAULT;
        resources[i] = create_committed(device, type, sizes[i], D3D12_HEAP_FLAG_NONE);
        if (!resources[i])
            continue;
        if (type == D3D12_HEAP_TYPE_UPLOAD) {
            uint8_t *data = map(resources[i]);
            /* What D3D12 code (SSE copies) expects of a mapped buffer at least. */
            unaligned += ((uintptr_t)data % 16) != 0;
            for (UINT64 b = 0; data && b < sizes[i]; b++)
                data[b] = pattern_byte(i, b);
            ID3D12Resource_Unmap(resources[i], 0, NULL);
        } else {
            ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, resources[i], 0, staging, offsets[i], sizes[i]);
            if (type == D3D12_HEAP_TYPE_DEFAULT)
                barriers[barrier_count++] = transition(resources[i], D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
        }
    }
    during = statistics(device);
    CHECK_MSG(unaligned == 0, "%u mapped pointers are not 16-byte aligned", unaligned);
    CHECK_MSG(during.AllocationCount == before.AllocationCount + SMALL_COUNT + 2, "%llu allocations for %u resources (had %llu)",
            (unsigned long long)during.AllocationCount, SMALL_COUNT + 2, (unsigned long long)before.AllocationCount);
    /* A handful: the blocks of at most two or three memory types. */
    CHECK_MSG(during.DeviceMemoryCount - before.DeviceMemoryCount <= 6, "%u small resources took %llu new VkDeviceMemory objects",
            SMALL_COUNT, (unsigned long long)(during.DeviceMemoryCount - before.DeviceMemoryCount));
    CHECK(during.DedicatedMemoryCount == before.DedicatedMemoryCount);
    CHECK(during.AllocatedBytes <= during.DeviceMemoryBytes);

    /* Each UPLOAD and DEFAULT buffer lands at its own offset of one READBACK buffer. */
    if (barrier_count)
        ID3D12GraphicsCommandList2_ResourceBarrier(list.list, barrier_count, barriers);
    for (unsigned i = 0; i < SMALL_COUNT; i++)
        if (resources[i] && i % 3 != 1)
            ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, result, offsets[i], resources[i], 0, sizes[i]);
    harness_execute_and_wait(device, queue, &list);

    result_data = map(result);
    for (unsigned i = 0; i < SMALL_COUNT; i++) {
        const uint8_t *data = i % 3 == 1 ? (resources[i] ? map(resources[i]) : NULL) : (result_data ? result_data + offsets[i] : NULL);
        bool ok = data != NULL;
        for (UINT64 b = 0; ok && b < sizes[i]; b++)
            ok = data[b] == pattern_byte(i, b);
        wrong += !ok;
        if (i % 3 == 1 && resources[i])
            ID3D12Resource_Unmap(resources[i], 0, NULL);
    }
    CHECK_MSG(wrong == 0, "%u of %u small resources did not read back their own bytes", wrong, SMALL_COUNT);
    ID3D12Resource_Unmap(result, 0, NULL);
    ID3D12Resource_Unmap(staging, 0, NULL);

    for (unsigned i = 0; i < SMALL_COUNT; i++)
        if (resources[i])
            ID3D12Resource_Release(resources[i]);
    ID3D12Resource_Release(staging);
    ID3D12Resource_Release(result);
    harness_release_list(&list);
    after = wait_allocations(device, before.AllocationCount);
    /* Emptied blocks go, but one per pool stays for the next requests. */
    CHECK_MSG(after.DeviceMemoryCount <= before.DeviceMemoryCount + 3, "%llu VkDeviceMemory objects left after the releases (had %llu)",
            (unsigned long long)after.DeviceMemoryCount, (unsigned long long)before.DeviceMemoryCount);
    printf("1,000 small committed resources: %llu VkDeviceMemory objects at peak (%llu before)\n",
            (unsigned long long)during.DeviceMemoryCount, (unsigned long long)before.DeviceMemoryCount);
    free(barriers);
}

/* Create/release loops reuse the freed ranges: the counts do not grow. */
static void test_reuse(ID3D12Device *device)
{
    D3D12XS_MEMORY_STATISTICS first = statistics(device), now = first;
    ID3D12Resource *resources[24];
    UINT64 base = statistics(device).AllocationCount;

    for (unsigned loop = 0; loop < 200; loop++) {
        for (unsigned i = 0; i < D3D12XS_ARRAY_SIZE_TEST(resources); i++) {
            D3D12_HEAP_TYPE type = i % 3 == 0 ? D3D12_HEAP_TYPE_UPLOAD : i % 3 == 1 ? D3D12_HEAP_TYPE_READBACK : D3D12_HEAP_TYPE_DEFAULT;
            resources[i] = create_committed(device, type, 256 + 1000 * i + loop % 7, D3D12_HEAP_FLAG_NONE);
        }
        for (unsigned i = 0; i < D3D12XS_ARRAY_SIZE_TEST(resources); i++)
            if (resources[i])
                ID3D12Resource_Release(resources[i]);
        /* Where the GPU cleared a reused DEFAULT range (device-only memory), the release waits
         * for that clear: its memory comes back at retirement. */
        now = wait_allocations(device, base);
        if (!loop)
            first = now;
        if (now.DeviceMemoryCount > first.DeviceMemoryCount || now.AllocationCount != base) {
            CHECK_MSG(false, "loop %u: %llu VkDeviceMemory objects (%llu after the first loop), %llu allocations (expected %llu)", loop,
                    (unsigned long long)now.DeviceMemoryCount, (unsigned long long)first.DeviceMemoryCount,
                    (unsigned long long)now.AllocationCount, (unsigned long long)base);
            break;
        }
    }
    CHECK(now.AllocationCount == base);
    CHECK(now.PeakDeviceMemoryCount >= now.DeviceMemoryCount);
}

/* Above the threshold, a resource or heap has a VkDeviceMemory of its own, freed with it. */
static void test_large(ID3D12Device *device, ID3D12CommandQueue *queue)
{
    D3D12XS_MEMORY_STATISTICS before = statistics(device), during;
    D3D12_HEAP_DESC heap_desc;
    ID3D12Resource *large = create_committed(device, D3D12_HEAP_TYPE_DEFAULT, 48ull << 20, D3D12_HEAP_FLAG_NONE);
    ID3D12Heap *heap = NULL;
    uint8_t *data = malloc(4096);

    memset(&heap_desc, 0, sizeof(heap_desc));
    heap_desc.SizeInBytes = 40ull << 20;
    heap_desc.Properties = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    CHECK_HR(ID3D12Device_CreateHeap(device, &heap_desc, &IID_ID3D12Heap, (void **)&heap), S_OK);
    during = statistics(device);
    CHECK_MSG(during.DedicatedMemoryCount == before.DedicatedMemoryCount + 2, "%llu dedicated VkDeviceMemory objects (expected %llu)",
            (unsigned long long)during.DedicatedMemoryCount, (unsigned long long)before.DedicatedMemoryCount + 2);
    CHECK(during.DeviceMemoryCount == before.DeviceMemoryCount + 2);
    CHECK(during.DeviceMemoryBytes >= before.DeviceMemoryBytes + (88ull << 20));
    /* Fresh memory is zero: the last page of the large buffer reads 0. */
    if (large) {
        ID3D12Resource *readback = create_committed(device, D3D12_HEAP_TYPE_READBACK, 4096, D3D12_HEAP_FLAG_NONE);
        struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        uint8_t *mapped;
        bool zero = true;
        ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, readback, 0, large, (48ull << 20) - 4096, 4096);
        harness_execute_and_wait(device, queue, &list);
        mapped = map(readback);
        for (unsigned i = 0; mapped && i < 4096; i++)
            zero = zero && mapped[i] == 0;
        CHECK_MSG(mapped && zero, "a new 48 MiB DEFAULT buffer does not read zero");
        ID3D12Resource_Unmap(readback, 0, NULL);
        ID3D12Resource_Release(readback);
        harness_release_list(&list);
        ID3D12Resource_Release(large);
    }
    if (heap)
        ID3D12Heap_Release(heap);
    during = wait_allocations(device, before.AllocationCount);
    CHECK(during.DedicatedMemoryCount == before.DedicatedMemoryCount);
    free(data);
}

/* A heap is one allocation; placed resources at 64 KiB offsets bind into it and keep their bytes. */
static void test_placed(ID3D12Device *device, ID3D12CommandQueue *queue)
{
    D3D12XS_MEMORY_STATISTICS before = statistics(device), during;
    D3D12_HEAP_DESC heap_desc;
    D3D12_RESOURCE_DESC desc = harness_buffer_desc(65536);
    ID3D12Resource *placed[4] = {NULL, NULL, NULL, NULL};
    ID3D12Heap *heap = NULL;
    unsigned wrong = 0;

    memset(&heap_desc, 0, sizeof(heap_desc));
    heap_desc.SizeInBytes = 4 * 65536;
    heap_desc.Properties = harness_heap_properties(D3D12_HEAP_TYPE_UPLOAD);
    CHECK_HR(ID3D12Device_CreateHeap(device, &heap_desc, &IID_ID3D12Heap, (void **)&heap), S_OK);
    if (!heap)
        return;
    for (unsigned i = 0; i < 4; i++) {
        uint8_t *data;
        CHECK_HR(ID3D12Device_CreatePlacedResource(device, heap, i * 65536ull, &desc, D3D12_RESOURCE_STATE_GENERIC_READ, NULL,
                &IID_ID3D12Resource, (void **)&placed[i]), S_OK);
        if (!placed[i])
            continue;
        data = map(placed[i]);
        for (unsigned b = 0; data && b < 65536; b++)
            data[b] = pattern_byte(100 + i, b);
        ID3D12Resource_Unmap(placed[i], 0, NULL);
    }
    during = statistics(device);
    CHECK_MSG(during.AllocationCount == before.AllocationCount + 1, "a heap with 4 placed resources holds %llu allocations (expected 1)",
            (unsigned long long)(during.AllocationCount - before.AllocationCount));
    for (unsigned i = 0; i < 4; i++) {
        uint8_t *back = malloc(65536);
        if (!placed[i])
            continue;
        harness_read_back(device, queue, placed[i], back, 65536);
        for (unsigned b = 0; b < 65536; b++)
            if (back[b] != pattern_byte(100 + i, b)) {
                wrong++;
                break;
            }
        free(back);
        ID3D12Resource_Release(placed[i]);
    }
    CHECK_MSG(wrong == 0, "%u of 4 placed resources did not read back their bytes through the GPU", wrong);
    ID3D12Heap_Release(heap);
    wait_allocations(device, before.AllocationCount);
}

/* Ranges freed with garbage in them come back zeroed for the next resource or heap (unless
 * CREATE_NOT_ZEROED), through Map and through the GPU. */
static void test_zeroed_reuse(ID3D12Device *device, ID3D12CommandQueue *queue)
{
    enum { COUNT = 16, SIZE = 4096 };
    static const D3D12_HEAP_TYPE types[] = {D3D12_HEAP_TYPE_UPLOAD, D3D12_HEAP_TYPE_READBACK, D3D12_HEAP_TYPE_DEFAULT};
    D3D12XS_MEMORY_STATISTICS before = statistics(device), dirty, now;
    ID3D12Resource *resources[COUNT];
    ID3D12Resource *garbage = create_committed(device, D3D12_HEAP_TYPE_UPLOAD, SIZE, D3D12_HEAP_FLAG_NONE);
    uint8_t *data = map(garbage), *back = malloc(SIZE);
    unsigned nonzero = 0;

    memset(data, 0xa5, SIZE);
    ID3D12Resource_Unmap(garbage, 0, NULL);
    for (unsigned t = 0; t < D3D12XS_ARRAY_SIZE_TEST(types); t++) {
        struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        /* Fill: CPU-visible ones through Map, DEFAULT ones by a copy. */
        for (unsigned i = 0; i < COUNT; i++) {
            resources[i] = create_committed(device, types[t], SIZE, D3D12_HEAP_FLAG_NONE);
            if (!resources[i])
                continue;
            if (types[t] == D3D12_HEAP_TYPE_DEFAULT) {
                ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, resources[i], 0, garbage, 0, SIZE);
            } else {
                uint8_t *mapped = map(resources[i]);
                if (mapped)
                    memset(mapped, 0x5a, SIZE);
                ID3D12Resource_Unmap(resources[i], 0, NULL);
            }
        }
        harness_execute_and_wait(device, queue, &list);
        harness_release_list(&list);
        dirty = statistics(device);
        for (unsigned i = 0; i < COUNT; i++)
            if (resources[i])
                ID3D12Resource_Release(resources[i]);
        wait_allocations(device, dirty.AllocationCount - COUNT);

        /* The same ranges again (first fit): they must read zero. */
        for (unsigned i = 0; i < COUNT; i++) {
            bool zero = true;
            resources[i] = create_committed(device, types[t], SIZE, D3D12_HEAP_FLAG_NONE);
            if (!resources[i])
                continue;
            if (types[t] == D3D12_HEAP_TYPE_DEFAULT) {
                harness_read_back(device, queue, resources[i], back, SIZE);
            } else {
                uint8_t *mapped = map(resources[i]);
                memcpy(back, mapped ? mapped : (const uint8_t *)data, SIZE);
                ID3D12Resource_Unmap(resources[i], 0, NULL);
            }
            for (unsigned b = 0; b < SIZE; b++)
                zero = zero && back[b] == 0;
            nonzero += !zero;
        }
        now = statistics(device);
        CHECK_MSG(now.DeviceMemoryCount <= dirty.DeviceMemoryCount + 1, "heap type %d: the released ranges were not reused (%llu VkDeviceMemory, %llu before)",
                (int)types[t], (unsigned long long)now.DeviceMemoryCount, (unsigned long long)dirty.DeviceMemoryCount);
        for (unsigned i = 0; i < COUNT; i++)
            if (resources[i])
                ID3D12Resource_Release(resources[i]);
    }
    CHECK_MSG(nonzero == 0, "%u resources made in reused memory did not read zero", nonzero);

    /* A heap in a reused range starts zeroed too. */
    {
        D3D12_HEAP_DESC heap_desc;
        D3D12_RESOURCE_DESC desc = harness_buffer_desc(65536);
        ID3D12Heap *heap = NULL;
        ID3D12Resource *placed = NULL;
        uint8_t *mapped;
        bool zero = true;

        memset(&heap_desc, 0, sizeof(heap_desc));
        heap_desc.SizeInBytes = 65536;
        heap_desc.Properties = harness_heap_properties(D3D12_HEAP_TYPE_UPLOAD);
        for (int round = 0; round < 2; round++) {
            CHECK_HR(ID3D12Device_CreateHeap(device, &heap_desc, &IID_ID3D12Heap, (void **)&heap), S_OK);
            if (!heap)
                break;
            CHECK_HR(ID3D12Device_CreatePlacedResource(device, heap, 0, &desc, D3D12_RESOURCE_STATE_GENERIC_READ, NULL,
                    &IID_ID3D12Resource, (void **)&placed), S_OK);
            if (placed && (mapped = map(placed))) {
                for (unsigned b = 0; b < 65536; b++)
                    zero = zero && mapped[b] == 0;
                memset(mapped, 0x77, 65536);
                ID3D12Resource_Unmap(placed, 0, NULL);
            }
            if (placed)
                ID3D12Resource_Release(placed);
            ID3D12Heap_Release(heap);
            heap = NULL;
            placed = NULL;
        }
        CHECK_MSG(zero, "a heap made in the range of a released one did not start zeroed");
    }
    ID3D12Resource_Release(garbage);
    now = wait_allocations(device, before.AllocationCount);
    printf("zeroed reuse: %llu reused device-only ranges cleared by the GPU\n", (unsigned long long)now.GpuClears);
    free(back);
}

/* Four threads create, fill, check and release resources at once: a range handed out twice
 * would show another thread's bytes. */
struct thread_args {
    ID3D12Device *device;
    unsigned index, wrong, failed;
};

static void *thread_main(void *context)
{
    struct thread_args *args = context;
    ID3D12Resource *live[8] = {NULL};
    UINT64 sizes[8] = {0};
    uint32_t seeds[8] = {0};

    for (unsigned loop = 0; loop < 400; loop++) {
        unsigned slot = loop % 8;
        if (live[slot]) {
            uint8_t *data = NULL;
            if (SUCCEEDED(ID3D12Resource_Map(live[slot], 0, NULL, (void **)&data)) && data) {
                for (UINT64 b = 0; b < sizes[slot]; b++)
                    if (data[b] != pattern_byte(seeds[slot], b)) {
                        args->wrong++;
                        break;
                    }
                ID3D12Resource_Unmap(live[slot], 0, NULL);
            }
            ID3D12Resource_Release(live[slot]);
            live[slot] = NULL;
        }
        D3D12_HEAP_PROPERTIES properties = harness_heap_properties(loop % 2 ? D3D12_HEAP_TYPE_UPLOAD : D3D12_HEAP_TYPE_READBACK);
        D3D12_RESOURCE_DESC desc = harness_buffer_desc(16 + (args->index * 7919 + loop * 104729) % 8000);
        uint8_t *data = NULL;
        if (FAILED(ID3D12Device_CreateCommittedResource(args->device, &properties, D3D12_HEAP_FLAG_NONE, &desc,
                loop % 2 ? D3D12_RESOURCE_STATE_GENERIC_READ : D3D12_RESOURCE_STATE_COPY_DEST, NULL, &IID_ID3D12Resource, (void **)&live[slot]))) {
            args->failed++;
            continue;
        }
        sizes[slot] = desc.Width;
        seeds[slot] = args->index * 100000 + loop;
        if (SUCCEEDED(ID3D12Resource_Map(live[slot], 0, NULL, (void **)&data)) && data) {
            for (UINT64 b = 0; b < sizes[slot]; b++) {
                if (data[b]) { /* new committed memory is zero */
                    args->wrong++;
                    break;
                }
            }
            for (UINT64 b = 0; b < sizes[slot]; b++)
                data[b] = pattern_byte(seeds[slot], b);
            ID3D12Resource_Unmap(live[slot], 0, NULL);
        }
    }
    for (unsigned slot = 0; slot < 8; slot++)
        if (live[slot])
            ID3D12Resource_Release(live[slot]);
    return NULL;
}

static void test_threads(ID3D12Device *device)
{
    D3D12XS_MEMORY_STATISTICS before = statistics(device), after;
    struct thread_args args[4];
    pthread_t threads[4];

    for (unsigned i = 0; i < 4; i++) {
        args[i] = (struct thread_args){device, i, 0, 0};
        CHECK(pthread_create(&threads[i], NULL, thread_main, &args[i]) == 0);
    }
    for (unsigned i = 0; i < 4; i++) {
        pthread_join(threads[i], NULL);
        CHECK_MSG(args[i].failed == 0, "thread %u: %u creations failed", i, args[i].failed);
        CHECK_MSG(args[i].wrong == 0, "thread %u: %u resources held bytes not their own (shared or unzeroed ranges)", i, args[i].wrong);
    }
    after = wait_allocations(device, before.AllocationCount);
    /* 32 live buffers of up to 8 KB at a time fit in the blocks the device has, or one or two more. */
    CHECK_MSG(after.DeviceMemoryCount <= before.DeviceMemoryCount + 2,
            "four threads grew the VkDeviceMemory count from %llu to %llu", (unsigned long long)before.DeviceMemoryCount,
            (unsigned long long)after.DeviceMemoryCount);
}

static void test_arguments(ID3D12Device *device)
{
    D3D12XS_MEMORY_STATISTICS s;
    LOG_MARK();
    CHECK_HR(D3D12XSGetMemoryStatistics(device, NULL), E_INVALIDARG);
    CHECK_LOG("D3D12XSGetMemoryStatistics", "statistics is NULL");
    RELOG_MARK();
    CHECK_HR(D3D12XSGetMemoryStatistics(NULL, &s), E_INVALIDARG);
    CHECK_LOG("D3D12XSGetMemoryStatistics", "device is NULL");
}

int main(void)
{
    harness_init();
    ID3D12Device *device = harness_create_device();
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    D3D12XS_MEMORY_STATISTICS start = statistics(device);

    /* The device's own buffers (the null buffer) already come from the allocator. */
    CHECK(start.AllocationCount >= 1 && start.DeviceMemoryCount >= 1);
    test_many_small(device, queue);
    test_reuse(device);
    test_large(device, queue);
    test_placed(device, queue);
    test_zeroed_reuse(device, queue);
    test_threads(device);
    test_arguments(device);

    ID3D12CommandQueue_Release(queue);
    harness_release_device(device);
    return harness_finish();
}
