/* The console's synchronisation (SPEC §2.2-2.4, §4) through the calls console code makes:
 * the launch-rate handshake (a COMPUTE list dispatches, publishes a value with a bottom-of-
 * pipe write and GL2 write-back; a DIRECT list waits for it mid-list and reads the data; the
 * CPU spins on the same memory), 1,000 rounds; every comparison of a mid-list wait, released
 * by the CPU; queue WaitX/SignalX/KickoffX and CreateCommandQueueX; the hang of a wait nobody
 * satisfies, and the line it prints; bad input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <d3dcompiler.h>
#include <d3d12_xs.h>

#include "harness.h"

#define THREADS 256
#define ROUNDS_DEFAULT 1000

static ID3D12RootSignature *root_signature(ID3D12Device *device)
{
    D3D12_ROOT_PARAMETER1 parameters[2];
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc;
    ID3DBlob *blob = NULL, *errors = NULL;
    ID3D12RootSignature *signature = NULL;

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 1;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    memset(&desc, 0, sizeof(desc));
    desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    desc.Desc_1_1.NumParameters = 2;
    desc.Desc_1_1.pParameters = parameters;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&desc, &blob, &errors), S_OK);
    CHECK_HR(ID3D12Device_CreateRootSignature(device, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
            &IID_ID3D12RootSignature, (void **)&signature), S_OK);
    ID3D10Blob_Release(blob);
    return signature;
}

static ID3D12PipelineState *round_pipeline(ID3D12Device *device, ID3D12RootSignature *signature)
{
    static const char source[] =
        "cbuffer Round : register(b0) { uint round; };\n"
        "RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(64, 1, 1)]\n"
        "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, round * 1000 + id.x); }\n";
    ID3DBlob *code = NULL, *errors = NULL;
    ID3D12PipelineState *state;
    CHECK_HR(D3DCompile(source, strlen(source), "round.hlsl", NULL, NULL, "main", "cs_6_0", 0, 0, &code, &errors), S_OK);
    state = harness_compute_pipeline(device, signature, code);
    ID3D10Blob_Release(code);
    return state;
}

/* A buffer the CPU reads and writes and the GPU writes: console "graphics memory" stand-in. */
static ID3D12Resource *shared_memory(ID3D12Device *device, UINT64 size, void **mapped)
{
    D3D12_HEAP_PROPERTIES heap = {D3D12_HEAP_TYPE_CUSTOM, D3D12_CPU_PAGE_PROPERTY_WRITE_BACK, D3D12_MEMORY_POOL_L0, 0, 0};
    D3D12_RESOURCE_DESC desc = harness_buffer_desc(size);
    ID3D12Resource *resource = NULL;
    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON, NULL,
            &IID_ID3D12Resource, (void **)&resource), S_OK);
    CHECK_HR(ID3D12Resource_Map(resource, 0, NULL, mapped), S_OK);
    return resource;
}

static const char *comparison_name(D3D12_COMPARISON_FUNC comparison)
{
    static const char *const names[] = {"?", "NEVER", "LESS", "EQUAL", "LESS_EQUAL", "GREATER", "NOT_EQUAL", "GREATER_EQUAL", "ALWAYS"};
    return (unsigned)comparison < 9 ? names[comparison] : "?";
}

static uint64_t load64(const void *address)
{
    return __atomic_load_n((const uint64_t *)address, __ATOMIC_ACQUIRE);
}

static void record(ID3D12GraphicsCommandList *list, ID3D12CommandAllocator *allocator)
{
    CHECK_HR(ID3D12CommandAllocator_Reset(allocator), S_OK);
    CHECK_HR(ID3D12GraphicsCommandList_Reset(list, allocator, NULL), S_OK);
}

static void execute(ID3D12CommandQueue *queue, ID3D12GraphicsCommandList *list)
{
    ID3D12CommandList *lists[1] = {(ID3D12CommandList *)list};
    CHECK_HR(ID3D12GraphicsCommandList_Close(list), S_OK);
    ID3D12CommandQueue_ExecuteCommandLists(queue, 1, lists);
}

/* The launch-rate handshake of the issue, with queues made the console way. In graphics
 * memory from XMemVirtualAlloc (the CPU pointer is the GPU address; the dispatch writes its
 * data there through a root UAV and the CPU reads it) or in a CUSTOM heap buffer (the DIRECT
 * list copies the data to a readback buffer after its wait). */
static void test_handshake(ID3D12Device *device, unsigned rounds, bool graphics_memory)
{
    D3D12XBOX_COMMAND_QUEUE_DESC compute_desc = {D3D12_COMMAND_LIST_TYPE_COMPUTE, D3D12_COMMAND_QUEUE_FLAG_NONE, 0, 0};
    D3D12XBOX_COMMAND_QUEUE_DESC direct_desc = {D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_QUEUE_FLAG_NONE, 0, 0};
    ID3D12CommandQueue *compute_queue = NULL, *direct_queue = NULL;
    ID3D12RootSignature *signature = root_signature(device);
    ID3D12PipelineState *pipeline = round_pipeline(device, signature);
    ID3D12Resource *data = harness_uav_buffer(device, THREADS * 4);
    ID3D12Resource *readback = harness_create_buffer(device, D3D12_HEAP_TYPE_READBACK, THREADS * 4, D3D12_RESOURCE_STATE_COPY_DEST);
    void *fences_cpu = NULL;
    ID3D12Resource *fences = NULL;
    struct harness_list compute = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    struct harness_list direct = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList *compute_list = (ID3D12GraphicsCommandList *)compute.list;
    ID3D12GraphicsCommandList *direct_list = (ID3D12GraphicsCommandList *)direct.list;
    ID3D12Fence *done = harness_create_fence(device, 0), *compute_done = harness_create_fence(device, 0);
    D3D12_GPU_VIRTUAL_ADDRESS to_gfx, to_compute, data_address;
    unsigned bad_rounds = 0, spins_ok = 0;
    uint32_t *seen = NULL;
    D3D12XS_SYNC_STATISTICS before, after;
    LOG_MARK();

    CHECK_HR(D3D12XSGetSyncStatistics(device, &before), S_OK);
    if (graphics_memory) {
        uint64_t *memory = (uint64_t *)XMemVirtualAlloc(NULL, 64 * 1024, MEM_RESERVE | MEM_COMMIT | MEM_64K_PAGES, XMEM_GRAPHICS,
                PAGE_READWRITE | PAGE_WRITECOMBINE | PAGE_GRAPHICS_READWRITE);
        CHECK(memory != NULL);
        fences_cpu = memory;
        to_gfx = (D3D12_GPU_VIRTUAL_ADDRESS)(uintptr_t)&memory[0]; /* the CPU pointer IS the GPU address */
        data_address = (D3D12_GPU_VIRTUAL_ADDRESS)(uintptr_t)memory + 4096;
    } else {
        fences = shared_memory(device, 64 * 1024, &fences_cpu);
        to_gfx = ID3D12Resource_GetGPUVirtualAddress(fences);
        data_address = ID3D12Resource_GetGPUVirtualAddress(data);
    }
    to_compute = to_gfx + 8;

    CHECK_HR(ID3D12Device_CreateCommandQueueX(device, &compute_desc, &IID_ID3D12CommandQueue, (void **)&compute_queue), S_OK);
    CHECK_HR(ID3D12Device_CreateCommandQueueX(device, &direct_desc, &IID_ID3D12CommandQueue, (void **)&direct_queue), S_OK);
    ID3D12GraphicsCommandList_Close(compute_list);
    ID3D12GraphicsCommandList_Close(direct_list);
    CHECK_HR(ID3D12Resource_Map(readback, 0, NULL, (void **)&seen), S_OK);

    for (unsigned n = 1; n <= rounds; n++) {
        /* DIRECT first: it waits mid-list for the value the COMPUTE list has not written yet. */
        record(direct_list, direct.allocator);
        ID3D12GraphicsCommandList_Wait64BitValueX(direct_list, to_gfx, D3D12_COMPARISON_FUNC_GREATER_EQUAL, n, D3D12XBOX_WAIT_FLAG_NONE);
        if (!graphics_memory)
            ID3D12GraphicsCommandList_CopyBufferRegion(direct_list, readback, 0, data, 0, THREADS * 4);
        ID3D12GraphicsCommandList_Write64BitValueBottomOfPipeX(direct_list, to_compute, n, D3D12XBOX_FLUSH_NONE,
                D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
        execute(direct_queue, direct_list);
        CHECK_HR(ID3D12CommandQueue_Signal(direct_queue, done, n), S_OK);

        record(compute_list, compute.allocator);
        ID3D12GraphicsCommandList_Wait64BitValueX(compute_list, to_compute, D3D12_COMPARISON_FUNC_GREATER_EQUAL, n - 1, D3D12XBOX_WAIT_FLAG_NONE);
        ID3D12GraphicsCommandList_SetComputeRootSignature(compute_list, signature);
        ID3D12GraphicsCommandList_SetPipelineState(compute_list, pipeline);
        ID3D12GraphicsCommandList_SetComputeRoot32BitConstant(compute_list, 0, n, 0);
        ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(compute_list, 1, data_address);
        ID3D12GraphicsCommandList_Dispatch(compute_list, THREADS / 64, 1, 1);
        ID3D12GraphicsCommandList_Write64BitValueBottomOfPipe2X(compute_list, to_gfx, n, D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK,
                D3D12XBOX_SYNC_CONTROL_FLAG_NONE, D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
        execute(compute_queue, compute_list);
        CHECK_HR(ID3D12CommandQueue_KickoffX(compute_queue), S_OK);

        /* The CPU spins on the same memory (bounded: a failure must not hang the test). */
        uint64_t start = harness_now_ms();
        while (load64(fences_cpu) < n && harness_now_ms() - start < 10000)
            ;
        spins_ok += load64(fences_cpu) >= n;
        const uint32_t *result = graphics_memory ? (const uint32_t *)((char *)fences_cpu + 4096) : seen;
        /* In graphics memory the CPU reads the data as soon as it sees the value. */
        if ((!graphics_memory && ID3D12Fence_SetEventOnCompletion(done, n, NULL) != S_OK) || !result || result[0] != n * 1000
                || result[THREADS - 1] != n * 1000 + THREADS - 1)
            bad_rounds++;
        if (graphics_memory && ID3D12Fence_SetEventOnCompletion(done, n, NULL) != S_OK)
            bad_rounds++;
        /* Both allocators are reset next round: the COMPUTE list must be done too. */
        if (ID3D12CommandQueue_Signal(compute_queue, compute_done, n) != S_OK || ID3D12Fence_SetEventOnCompletion(compute_done, n, NULL) != S_OK)
            bad_rounds++;
    }
    CHECK_MSG(bad_rounds == 0, "%u of %u rounds read data the dispatch had not written yet", bad_rounds, rounds);
    CHECK_MSG(spins_ok == rounds, "the CPU saw the value in %u of %u rounds", spins_ok, rounds);
    CHECK_MSG(load64((char *)fences_cpu + 8) == rounds, "the DIRECT side's value is %llu", (unsigned long long)load64((char *)fences_cpu + 8));
    /* Each round has two memory waits. The DIRECT list's is for a value the COMPUTE list
     * writes: where GPU-side waits are on, the scheduler lets the GPU wait it out once that
     * write is submitted (unless the host already sees the value by then). */
    CHECK_HR(D3D12XSGetSyncStatistics(device, &after), S_OK);
    uint64_t on_gpu = after.MemoryWaitsOnGpu - before.MemoryWaitsOnGpu, on_host = after.MemoryWaitsOnHost - before.MemoryWaitsOnHost;
    printf("handshake (%s): %llu memory waits met by the host, %llu by the GPU\n", graphics_memory ? "graphics memory" : "CUSTOM heap",
            (unsigned long long)on_host, (unsigned long long)on_gpu);
    CHECK_MSG(on_gpu + on_host == 2ull * rounds, "%llu memory waits counted for %u", (unsigned long long)(on_gpu + on_host), 2 * rounds);
    CHECK_MSG(after.GpuMemoryWaitsEnabled ? on_gpu > 0 : on_gpu == 0, "%llu GPU-side waits with GPU waits %s", (unsigned long long)on_gpu,
            after.GpuMemoryWaitsEnabled ? "on" : "off");
    CHECK_NO_LOG();

    ID3D12Resource_Unmap(readback, 0, NULL);
    if (fences) {
        ID3D12Resource_Unmap(fences, 0, NULL);
        ID3D12Resource_Release(fences);
    } else {
        CHECK(VirtualFree(fences_cpu, 0, MEM_RELEASE));
    }
    harness_release_list(&compute);
    harness_release_list(&direct);
    ID3D12Fence_Release(done);
    ID3D12Fence_Release(compute_done);
    ID3D12Resource_Release(readback);
    ID3D12Resource_Release(data);
    ID3D12PipelineState_Release(pipeline);
    ID3D12RootSignature_Release(signature);
    CHECK(ID3D12CommandQueue_Release(compute_queue) == 0);
    CHECK(ID3D12CommandQueue_Release(direct_queue) == 0);
}

/* Every comparison function of a mid-list 32-bit wait, released by a CPU write. */
static void test_comparisons(ID3D12Device *device)
{
    static const struct { D3D12_COMPARISON_FUNC comparison; uint32_t reference, failing, passing; } cases[] = {
        {D3D12_COMPARISON_FUNC_LESS, 10, 10, 9},
        {D3D12_COMPARISON_FUNC_EQUAL, 10, 11, 10},
        {D3D12_COMPARISON_FUNC_LESS_EQUAL, 10, 11, 10},
        {D3D12_COMPARISON_FUNC_GREATER, 10, 10, 11},
        {D3D12_COMPARISON_FUNC_NOT_EQUAL, 10, 10, 3},
        {D3D12_COMPARISON_FUNC_GREATER_EQUAL, 10, 9, 10},
        {D3D12_COMPARISON_FUNC_ALWAYS, 10, 10, 10},
    };
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    void *cpu = NULL;
    ID3D12Resource *memory = shared_memory(device, 4096, &cpu);
    D3D12_GPU_VIRTUAL_ADDRESS address = ID3D12Resource_GetGPUVirtualAddress(memory);
    ID3D12Fence *fence = harness_create_fence(device, 0);
    LOG_MARK();

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        ID3D12GraphicsCommandList *l = (ID3D12GraphicsCommandList *)list.list;
        __atomic_store_n((uint32_t *)cpu, cases[i].failing, __ATOMIC_RELEASE);
        ID3D12GraphicsCommandList_Write32BitValueTopOfPipeX(l, address + 64, 1000 + (UINT)i);
        ID3D12GraphicsCommandList_Wait32BitValueX(l, address, cases[i].comparison, cases[i].reference, D3D12XBOX_WAIT_FLAG_NONE);
        ID3D12GraphicsCommandList_Write32BitValueBottomOfPipe2X(l, address + 128, 2000 + (UINT)i, D3D12XBOX_SYNC_FLAG_NONE,
                D3D12XBOX_SYNC_CONTROL_FLAG_NONE, D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
        execute(queue, l);
        CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, i + 1), S_OK);
        if (cases[i].comparison != D3D12_COMPARISON_FUNC_ALWAYS) {
            uint64_t start = harness_now_ms();
            /* The part before the wait runs; the part after does not. */
            while (__atomic_load_n((uint32_t *)((char *)cpu + 64), __ATOMIC_ACQUIRE) != 1000 + i && harness_now_ms() - start < 5000)
                ;
            harness_sleep_ms(20);
            CHECK_MSG(__atomic_load_n((uint32_t *)((char *)cpu + 64), __ATOMIC_ACQUIRE) == 1000 + i, "%s: the command before the wait did not run",
                    comparison_name(cases[i].comparison));
            CHECK_MSG(ID3D12Fence_GetCompletedValue(fence) == i && __atomic_load_n((uint32_t *)((char *)cpu + 128), __ATOMIC_ACQUIRE) != 2000 + i,
                    "%s %u ran past its wait with %u in memory", comparison_name(cases[i].comparison), cases[i].reference,
                    cases[i].failing);
        }
        __atomic_store_n((uint32_t *)cpu, cases[i].passing, __ATOMIC_RELEASE);
        CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, i + 1, NULL), S_OK);
        CHECK(__atomic_load_n((uint32_t *)((char *)cpu + 128), __ATOMIC_ACQUIRE) == 2000 + i);
        harness_release_list(&list);
    }
    CHECK_NO_LOG();
    ID3D12Resource_Unmap(memory, 0, NULL);
    ID3D12Resource_Release(memory);
    ID3D12Fence_Release(fence);
    ID3D12CommandQueue_Release(queue);
}

/* GPU_TIMESTAMP writes the GPU clock, in GetTimestampFrequency's ticks, once earlier work is
 * done; SYSTEM_TIMESTAMP writes the same moment in the host clock's domain. */
static void test_timestamps(ID3D12Device *device)
{
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    void *cpu = NULL;
    ID3D12Resource *memory = shared_memory(device, 4096, &cpu);
    D3D12_GPU_VIRTUAL_ADDRESS address = ID3D12Resource_GetGPUVirtualAddress(memory);
    ID3D12Resource *big = harness_uav_buffer(device, 16 << 20), *big2 = harness_uav_buffer(device, 16 << 20);
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12GraphicsCommandList *l = (ID3D12GraphicsCommandList *)list.list;
    uint64_t *stamps = cpu, frequency = 0;
    LOG_MARK();

    memset(cpu, 0, 64);
    ID3D12GraphicsCommandList_Write64BitValueBottomOfPipe2X(l, address, 0, D3D12XBOX_SYNC_FLAG_NONE, D3D12XBOX_SYNC_CONTROL_FLAG_NONE,
            D3D12XBOX_WRITE_VALUE_BOP_FLAG_GPU_TIMESTAMP);
    ID3D12GraphicsCommandList_CopyBufferRegion(l, big2, 0, big, 0, 16 << 20);
    ID3D12GraphicsCommandList_Write64BitValueBottomOfPipeX(l, address + 8, 0, D3D12XBOX_FLUSH_NONE, D3D12XBOX_WRITE_VALUE_BOP_FLAG_GPU_TIMESTAMP);
    harness_execute_and_wait(device, queue, &list);
    CHECK_HR(ID3D12CommandQueue_GetTimestampFrequency(queue, &frequency), S_OK);
    CHECK_MSG(stamps[0] && stamps[1] >= stamps[0], "GPU timestamps %llu, %llu", (unsigned long long)stamps[0], (unsigned long long)stamps[1]);
    CHECK_MSG(frequency && (double)(stamps[1] - stamps[0]) / (double)frequency < 10.0, "a 16 MiB copy took %g s by the timestamps",
            frequency ? (double)(stamps[1] - stamps[0]) / (double)frequency : -1.0);
    CHECK_NO_LOG();
    harness_release_list(&list);

    /* SYSTEM_TIMESTAMP: the host clock's domain (QueryPerformanceCounter, CLOCK_MONOTONIC ns),
     * so the two values fall between host readings taken before and after, in order, and
     * the copy between them takes as long as the GPU clock says (the console's timer idiom). */
    {
        LARGE_INTEGER before, after;
        const int64_t slack_ns = 2000000; /* calibration error allowed */
        list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
        l = (ID3D12GraphicsCommandList *)list.list;
        memset(cpu, 0, 64);
        ID3D12GraphicsCommandList_Write64BitValueBottomOfPipe2X(l, address, 0, D3D12XBOX_SYNC_FLAG_NONE, D3D12XBOX_SYNC_CONTROL_FLAG_NONE,
                D3D12XBOX_WRITE_VALUE_BOP_FLAG_GPU_TIMESTAMP);
        ID3D12GraphicsCommandList_Write64BitValueBottomOfPipe2X(l, address + 16, 0, D3D12XBOX_SYNC_FLAG_NONE, D3D12XBOX_SYNC_CONTROL_FLAG_NONE,
                D3D12XBOX_WRITE_VALUE_BOP_FLAG_SYSTEM_TIMESTAMP);
        ID3D12GraphicsCommandList_CopyBufferRegion(l, big2, 0, big, 0, 16 << 20);
        ID3D12GraphicsCommandList_Write64BitValueBottomOfPipeX(l, address + 24, 0, D3D12XBOX_FLUSH_NONE, D3D12XBOX_WRITE_VALUE_BOP_FLAG_SYSTEM_TIMESTAMP);
        ID3D12GraphicsCommandList_Write64BitValueBottomOfPipeX(l, address + 8, 0, D3D12XBOX_FLUSH_NONE, D3D12XBOX_WRITE_VALUE_BOP_FLAG_GPU_TIMESTAMP);
        QueryPerformanceCounter(&before);
        harness_execute_and_wait(device, queue, &list);
        QueryPerformanceCounter(&after);
        int64_t first = (int64_t)stamps[2], second = (int64_t)stamps[3];
        CHECK_MSG(first >= before.QuadPart - slack_ns && first <= second && second <= after.QuadPart + slack_ns,
                "SYSTEM_TIMESTAMP values %lld, %lld outside the host's %lld..%lld", (long long)first, (long long)second,
                (long long)before.QuadPart, (long long)after.QuadPart);
        double gpu_ns = (double)(stamps[1] - stamps[0]) * 1e9 / (double)frequency;
        /* The GPU timestamps bracket the system ones (on a loaded CPU device by a lot). */
        CHECK_MSG((double)(second - first) <= gpu_ns * 1.01 + 1e6, "the copy took %lld ns by SYSTEM_TIMESTAMP, more than the %.0f ns "
                "between the GPU_TIMESTAMPs around it", (long long)(second - first), gpu_ns);
        CHECK_NO_LOG();
        harness_release_list(&list);
    }
    ID3D12Resource_Unmap(memory, 0, NULL);
    ID3D12Resource_Release(memory);
    ID3D12Resource_Release(big);
    ID3D12Resource_Release(big2);
    ID3D12CommandQueue_Release(queue);
}

/* A wait nobody satisfies (on the console: a value written to GPU-read-only memory is
 * dropped) ends in DEVICE_HUNG, and the line names queue, list, command and the values. */
static void test_hang(void)
{
    ID3D12Device *device = harness_create_device();
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    void *cpu = NULL;
    ID3D12Resource *memory = shared_memory(device, 4096, &cpu);
    D3D12_GPU_VIRTUAL_ADDRESS address = ID3D12Resource_GetGPUVirtualAddress(memory);
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList *l = (ID3D12GraphicsCommandList *)list.list;
    ID3D12Fence *fence = harness_create_fence(device, 0);
    char expected_address[32];
    LOG_MARK();

    *(uint64_t *)cpu = 7;
    CHECK_HR(D3D12XSSetHangTimeout(device, 200), S_OK);
    CHECK_HR(ID3D12CommandQueue_SetName(queue, L"graphics"), S_OK);
    CHECK_HR(ID3D12GraphicsCommandList_SetName(l, L"frame"), S_OK);
    ID3D12GraphicsCommandList_Wait64BitValueX(l, address, D3D12_COMPARISON_FUNC_EQUAL, 1, D3D12XBOX_WAIT_FLAG_NONE);
    execute(queue, l);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, 1), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 1, NULL), DXGI_ERROR_DEVICE_HUNG);
    snprintf(expected_address, sizeof(expected_address), "0x%llx", (unsigned long long)address);
    CHECK_LOG("DXGI_ERROR_DEVICE_HUNG", "queue 'graphics'", "list 'frame'", "Wait64BitValueX", expected_address, "EQUAL 1", "memory holds 7");
    harness_release_list(&list);
    ID3D12Resource_Unmap(memory, 0, NULL);
    CHECK(ID3D12Resource_Release(memory) == 0);
    CHECK(ID3D12Fence_Release(fence) == 0);
    CHECK(ID3D12CommandQueue_Release(queue) == 0);
    harness_release_device(device);
}

/* The console's teaching hang: a value written to GPU-read-only memory is dropped, so a wait
 * for it never ends; and graphics memory the API refuses. */
static void test_read_only_hang(void)
{
    ID3D12Device *device = harness_create_device();
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    uint64_t *read_only = (uint64_t *)XMemAlloc(64 * 1024, XALLOC_MEMTYPE_GRAPHICS_WRITECOMBINE_GPU_READONLY);
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12GraphicsCommandList *l = (ID3D12GraphicsCommandList *)list.list;
    D3D12_GPU_VIRTUAL_ADDRESS address = (D3D12_GPU_VIRTUAL_ADDRESS)(uintptr_t)read_only;
    ID3D12Fence *fence = harness_create_fence(device, 0);
    void *memory = NULL;
    LOG_MARK();

    CHECK(read_only != NULL);
    CHECK_HR(D3D12XSSetHangTimeout(device, 200), S_OK);
    ID3D12GraphicsCommandList_Write64BitValueBottomOfPipeX(l, address, 1, D3D12XBOX_FLUSH_NONE, D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
    ID3D12GraphicsCommandList_Wait64BitValueX(l, address, D3D12_COMPARISON_FUNC_EQUAL, 1, D3D12XBOX_WAIT_FLAG_NONE);
    execute(queue, l);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, 1), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 1, NULL), DXGI_ERROR_DEVICE_HUNG);
    CHECK_LOG("DXGI_ERROR_DEVICE_HUNG", "Wait64BitValueX", "EQUAL 1", "memory holds 0");
    CHECK(*read_only == 0);
    harness_release_list(&list);
    XMemFree(read_only, XALLOC_MEMTYPE_GRAPHICS_WRITECOMBINE_GPU_READONLY);
    RELOG_MARK();
    CHECK(!VirtualFree(read_only, 0, MEM_RELEASE));
    CHECK_LOG("VirtualFree", "not graphics memory");
    RELOG_MARK();
    CHECK_HR(D3D12XSAllocateGraphicsMemory(device, 0, FALSE, &memory), E_INVALIDARG);
    CHECK_LOG("D3D12XSAllocateGraphicsMemory", "Size is 0");
    RELOG_MARK();
    CHECK_HR(D3D12XSAllocateGraphicsMemory(device, 100, FALSE, NULL), E_POINTER);
    CHECK_LOG("D3D12XSAllocateGraphicsMemory", "Address is NULL");
    CHECK(ID3D12Fence_Release(fence) == 0);
    CHECK(ID3D12CommandQueue_Release(queue) == 0);
    harness_release_device(device);
    /* Graphics memory is the process's: no device is needed (test_graphics_memory.c). */
    RELOG_MARK();
    memory = XMemVirtualAlloc(NULL, 4096, MEM_COMMIT, XMEM_GRAPHICS, PAGE_READWRITE | PAGE_GRAPHICS_READWRITE);
    CHECK(memory && VirtualFree(memory, 0, MEM_RELEASE));
    CHECK_NO_LOG();
}

/* SPEC §4: the list is invalid and Close names the command and the rule. */
static void bad_command(ID3D12Device *device, const char *what, const char *needle, void (*record_bad)(ID3D12GraphicsCommandList *, D3D12_GPU_VIRTUAL_ADDRESS),
        D3D12_GPU_VIRTUAL_ADDRESS address)
{
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    LOG_MARK();
    record_bad((ID3D12GraphicsCommandList *)list.list, address);
    CHECK_LOG(needle);
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
    CHECK_LOG("Close", needle);
    (void)what;
    harness_release_list(&list);
}

static void misaligned(ID3D12GraphicsCommandList *l, D3D12_GPU_VIRTUAL_ADDRESS a)
{ ID3D12GraphicsCommandList_Write64BitValueBottomOfPipeX(l, a + 4, 1, D3D12XBOX_FLUSH_NONE, D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE); }
static void unknown_sync(ID3D12GraphicsCommandList *l, D3D12_GPU_VIRTUAL_ADDRESS a)
{ ID3D12GraphicsCommandList_Write32BitValueBottomOfPipe2X(l, a, 1, (D3D12XBOX_SYNC_FLAGS)0x1, D3D12XBOX_SYNC_CONTROL_FLAG_NONE, D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE); }
static void both_gcr(ID3D12GraphicsCommandList *l, D3D12_GPU_VIRTUAL_ADDRESS a)
{ ID3D12GraphicsCommandList_Write32BitValueBottomOfPipe2X(l, a, 1, D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK,
        D3D12XBOX_SYNC_CONTROL_FLAG_GCR_SEQUENCE_FORWARD | D3D12XBOX_SYNC_CONTROL_FLAG_GCR_SEQUENCE_REVERSE, D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE); }
static void flags_on_32bit(ID3D12GraphicsCommandList *l, D3D12_GPU_VIRTUAL_ADDRESS a)
{ ID3D12GraphicsCommandList_Write32BitValueBottomOfPipe2X(l, a, 1, D3D12XBOX_SYNC_FLAG_NONE, D3D12XBOX_SYNC_CONTROL_FLAG_NONE, D3D12XBOX_WRITE_VALUE_BOP_FLAG_GPU_TIMESTAMP); }
static void bad_comparison(ID3D12GraphicsCommandList *l, D3D12_GPU_VIRTUAL_ADDRESS a)
{ ID3D12GraphicsCommandList_Wait64BitValueX(l, a, (D3D12_COMPARISON_FUNC)9, 1, D3D12XBOX_WAIT_FLAG_NONE); }
static void wait_flags(ID3D12GraphicsCommandList *l, D3D12_GPU_VIRTUAL_ADDRESS a)
{ ID3D12GraphicsCommandList_Wait64BitValueX(l, a, D3D12_COMPARISON_FUNC_EQUAL, 1, (D3D12XBOX_WAIT_FLAGS)4); }
static void uncovered(ID3D12GraphicsCommandList *l, D3D12_GPU_VIRTUAL_ADDRESS a)
{ (void)a; ID3D12GraphicsCommandList_Wait32BitValueX(l, 0x10, D3D12_COMPARISON_FUNC_EQUAL, 1, D3D12XBOX_WAIT_FLAG_NONE); }
static void unknown_flush(ID3D12GraphicsCommandList *l, D3D12_GPU_VIRTUAL_ADDRESS a)
{ ID3D12GraphicsCommandList_FlushPipelineX(l, (D3D12XBOX_FLUSH)0x40000000, a, D3D12XBOX_FLUSH_RANGE_ALL); }

static void test_bad_input(ID3D12Device *device)
{
    void *cpu = NULL;
    ID3D12Resource *memory = shared_memory(device, 4096, &cpu);
    ID3D12Resource *gpu_only = harness_uav_buffer(device, 4096);
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12Fence *fence = harness_create_fence(device, 0);
    D3D12_GPU_VIRTUAL_ADDRESS address = ID3D12Resource_GetGPUVirtualAddress(memory);
    D3D12XBOX_SYNC_PARAMS params = {D3D12XBOX_SYNC_FLAG_NONE, (D3D12XBOX_SYNC_CONTROL_FLAGS)0x4};
    D3D12XBOX_COMMAND_QUEUE_DESC desc = {(D3D12_COMMAND_LIST_TYPE)9, D3D12_COMMAND_QUEUE_FLAG_NONE, 0, 0};
    ID3D12CommandQueue *x = NULL;

    {
        D3D12XS_SYNC_STATISTICS statistics;
        LOG_MARK();
        CHECK_HR(D3D12XSGetSyncStatistics(device, NULL), E_INVALIDARG);
        CHECK_LOG("D3D12XSGetSyncStatistics", "statistics is NULL");
        RELOG_MARK();
        CHECK_HR(D3D12XSGetSyncStatistics(NULL, &statistics), E_INVALIDARG);
        CHECK_LOG("D3D12XSGetSyncStatistics", "device is NULL");
    }
    bad_command(device, "misaligned", "not 8-byte aligned", misaligned, address);
    bad_command(device, "unknown sync flag", "SyncFlags 0x1 has unknown bits", unknown_sync, address);
    bad_command(device, "both GCR sequences", "both GCR_SEQUENCE_FORWARD and GCR_SEQUENCE_REVERSE", both_gcr, address);
    bad_command(device, "timestamp flag on a 32-bit write", "must be NONE for a 32-bit write", flags_on_32bit, address);
    bad_command(device, "comparison", "Function is 9", bad_comparison, address);
    bad_command(device, "wait flags", "Flags is 0x4", wait_flags, address);
    bad_command(device, "address covered by nothing", "not inside a live buffer", uncovered, address);
    bad_command(device, "flush flag", "Flush 0x40000000 has unknown bits", unknown_flush, address);

    LOG_MARK();
    {
        struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        ID3D12GraphicsCommandList_Wait64BitValueX((ID3D12GraphicsCommandList *)list.list, ID3D12Resource_GetGPUVirtualAddress(gpu_only),
                D3D12_COMPARISON_FUNC_EQUAL, 1, D3D12XBOX_WAIT_FLAG_NONE);
        CHECK_LOG("Wait64BitValueX", "the CPU cannot read");
        harness_release_list(&list);
    }
    RELOG_MARK();
    CHECK_HR(ID3D12CommandQueue_WaitX(queue, fence, 0, &params), E_INVALIDARG);
    CHECK_LOG("WaitX", "ControlFlags 0x4");
    RELOG_MARK();
    CHECK_HR(ID3D12CommandQueue_SignalX(queue, fence, 1, (D3D12XBOX_FLUSH)0x40000000), E_INVALIDARG);
    CHECK_LOG("SignalX", "Flush");
    RELOG_MARK();
    CHECK_HR(ID3D12CommandQueue_WaitX(queue, fence, 0, NULL), S_OK);
    CHECK_HR(ID3D12CommandQueue_SignalX(queue, fence, 1, D3D12XBOX_FLUSH_IDLE), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 1, NULL), S_OK);
    CHECK_NO_LOG();
    CHECK_HR(ID3D12Device_CreateCommandQueueX(device, &desc, &IID_ID3D12CommandQueue, (void **)&x), E_INVALIDARG);
    CHECK(x == NULL);
    CHECK_LOG("CreateCommandQueueX", "pDesc->Type");
    RELOG_MARK();
    CHECK_HR(ID3D12Device_CreateCommandQueueX(device, NULL, &IID_ID3D12CommandQueue, (void **)&x), E_INVALIDARG);
    CHECK_LOG("CreateCommandQueueX", "pDesc is NULL");

    ID3D12Resource_Unmap(memory, 0, NULL);
    ID3D12Resource_Release(memory);
    ID3D12Resource_Release(gpu_only);
    ID3D12Fence_Release(fence);
    ID3D12CommandQueue_Release(queue);
}

/* A value write between dispatches leaves the application's root arguments alone, whatever
 * the write records (a shader thread stores it where GPU-side waits exist): the dispatch after
 * it still sees the root constant and the root UAV set before it. */
static void test_value_write_keeps_root_arguments(ID3D12Device *device)
{
    ID3D12RootSignature *signature = root_signature(device);
    ID3D12PipelineState *pipeline = round_pipeline(device, signature);
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList *console = (ID3D12GraphicsCommandList *)list.list;
    ID3D12Resource *first = harness_uav_buffer(device, THREADS * 4), *second = harness_uav_buffer(device, THREADS * 4);
    void *values_cpu = NULL;
    ID3D12Resource *values = shared_memory(device, 4096, &values_cpu);
    D3D12_GPU_VIRTUAL_ADDRESS values_address = ID3D12Resource_GetGPUVirtualAddress(values);
    uint32_t seen_first[THREADS], seen_second[THREADS];
    unsigned wrong = 0;
    LOG_MARK();

    ID3D12GraphicsCommandList_SetComputeRootSignature(console, signature);
    ID3D12GraphicsCommandList_SetPipelineState(console, pipeline);
    ID3D12GraphicsCommandList_SetComputeRoot32BitConstant(console, 0, 7, 0);
    ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(console, 1, ID3D12Resource_GetGPUVirtualAddress(first));
    ID3D12GraphicsCommandList_Dispatch(console, THREADS / 64, 1, 1);
    ID3D12GraphicsCommandList_Write64BitValueBottomOfPipeX(console, values_address, 1, D3D12XBOX_FLUSH_NONE, D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
    /* Only the UAV changes: the constant must still be 7. */
    ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(console, 1, ID3D12Resource_GetGPUVirtualAddress(second));
    ID3D12GraphicsCommandList_Dispatch(console, THREADS / 64, 1, 1);
    ID3D12GraphicsCommandList_Write64BitValueBottomOfPipe2X(console, values_address + 8, 2, D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK,
            D3D12XBOX_SYNC_CONTROL_FLAG_NONE, D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
    /* Only the constant changes: the UAV must still be the second buffer, over the first results there. */
    ID3D12GraphicsCommandList_SetComputeRoot32BitConstant(console, 0, 9, 0);
    ID3D12GraphicsCommandList_Write32BitValueBottomOfPipe2X(console, values_address + 16, 3, D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK,
            D3D12XBOX_SYNC_CONTROL_FLAG_NONE, D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
    ID3D12GraphicsCommandList_Dispatch(console, THREADS / 64, 1, 1);
    harness_execute_and_wait(device, queue, &list);
    harness_read_back(device, queue, first, seen_first, sizeof(seen_first));
    harness_read_back(device, queue, second, seen_second, sizeof(seen_second));
    for (unsigned i = 0; i < THREADS; i++)
        wrong += seen_first[i] != 7000 + i || seen_second[i] != 9000 + i;
    CHECK_MSG(wrong == 0, "%u values wrong: first[0] %u (7000 expected), second[0] %u (9000 expected)", wrong, seen_first[0], seen_second[0]);
    CHECK(load64(values_cpu) == 1 && load64((char *)values_cpu + 8) == 2 && *(volatile uint32_t *)((char *)values_cpu + 16) == 3);
    CHECK_NO_LOG();

    ID3D12Resource_Unmap(values, 0, NULL);
    ID3D12Resource_Release(values);
    ID3D12Resource_Release(first);
    ID3D12Resource_Release(second);
    harness_release_list(&list);
    ID3D12CommandQueue_Release(queue);
    ID3D12PipelineState_Release(pipeline);
    ID3D12RootSignature_Release(signature);
}

/* SPEC §4's console memory model: a DIRECT list waits for a value the COMPUTE queue writes
 * after a dispatch, then copies what the dispatch wrote. Without a write-back (or barrier)
 * between the dispatch and the value write, the console could hand the reader stale data,
 * although Vulkan gets it right: the validation says so, once, naming both sides. With
 * GL2_WRITEBACK, or a UAV barrier, it is silent. Either list may be executed first. */
static void memory_model_case(ID3D12Device *device, int settle, bool reader_first, bool expect_report)
{
    ID3D12RootSignature *signature = root_signature(device);
    ID3D12PipelineState *pipeline = round_pipeline(device, signature);
    ID3D12CommandQueue *compute_queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12CommandQueue *direct_queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    struct harness_list writer = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    struct harness_list reader = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList *w = (ID3D12GraphicsCommandList *)writer.list, *r = (ID3D12GraphicsCommandList *)reader.list;
    ID3D12Resource *data = harness_uav_buffer(device, THREADS * 4);
    ID3D12Resource *readback = harness_create_buffer(device, D3D12_HEAP_TYPE_READBACK, THREADS * 4, D3D12_RESOURCE_STATE_COPY_DEST);
    /* The value in graphics memory when the reader goes first (the console's pattern, where
     * GPU-side waits happen), in a CUSTOM heap otherwise. */
    void *values_cpu = NULL;
    ID3D12Resource *values = reader_first ? NULL : shared_memory(device, 4096, &values_cpu);
    if (reader_first)
        values_cpu = XMemVirtualAlloc(NULL, 64 * 1024, MEM_RESERVE | MEM_COMMIT | MEM_64K_PAGES, XMEM_GRAPHICS,
                PAGE_READWRITE | PAGE_WRITECOMBINE | PAGE_GRAPHICS_READWRITE);
    D3D12_GPU_VIRTUAL_ADDRESS flag = values ? ID3D12Resource_GetGPUVirtualAddress(values) : (D3D12_GPU_VIRTUAL_ADDRESS)(uintptr_t)values_cpu;
    ID3D12Fence *fence = harness_create_fence(device, 0);
    ID3D12CommandList *lists[2] = {(ID3D12CommandList *)writer.list, (ID3D12CommandList *)reader.list};
    D3D12_RESOURCE_BARRIER uav;
    uint32_t *seen = NULL;
    LOG_MARK();

    ID3D12GraphicsCommandList_SetComputeRootSignature(w, signature);
    ID3D12GraphicsCommandList_SetPipelineState(w, pipeline);
    ID3D12GraphicsCommandList_SetComputeRoot32BitConstant(w, 0, 5, 0);
    ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(w, 1, ID3D12Resource_GetGPUVirtualAddress(data));
    ID3D12GraphicsCommandList_Dispatch(w, THREADS / 64, 1, 1);
    if (settle == 2) {
        memset(&uav, 0, sizeof(uav));
        uav.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
        uav.UAV.pResource = data;
        ID3D12GraphicsCommandList_ResourceBarrier(w, 1, &uav);
    }
    ID3D12GraphicsCommandList_Write64BitValueBottomOfPipe2X(w, flag, 1, settle == 1 ? D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK : D3D12XBOX_SYNC_FLAG_NONE,
            D3D12XBOX_SYNC_CONTROL_FLAG_NONE, D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
    ID3D12GraphicsCommandList_Wait64BitValueX(r, flag, D3D12_COMPARISON_FUNC_GREATER_EQUAL, 1, D3D12XBOX_WAIT_FLAG_NONE);
    ID3D12GraphicsCommandList_CopyBufferRegion(r, readback, 0, data, 0, THREADS * 4);
    CHECK_HR(ID3D12GraphicsCommandList_Close(w), S_OK);
    CHECK_HR(ID3D12GraphicsCommandList_Close(r), S_OK);
    ID3D12CommandQueue_ExecuteCommandLists(reader_first ? direct_queue : compute_queue, 1, &lists[reader_first]);
    ID3D12CommandQueue_ExecuteCommandLists(reader_first ? compute_queue : direct_queue, 1, &lists[!reader_first]);
    CHECK_HR(ID3D12CommandQueue_Signal(direct_queue, fence, 1), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 1, NULL), S_OK);
    CHECK_HR(ID3D12Resource_Map(readback, 0, NULL, (void **)&seen), S_OK);
    CHECK(seen[0] == 5000 && seen[THREADS - 1] == 5000 + THREADS - 1); /* right on Vulkan either way */
    ID3D12Resource_Unmap(readback, 0, NULL);
    if (expect_report)
        CHECK_LOG("console memory model", "(copy) reads", "(Dispatch) wrote", "no write-back", "stale");
    else
        CHECK_NO_LOG();

    ID3D12Fence_Release(fence);
    if (values) {
        ID3D12Resource_Unmap(values, 0, NULL);
        ID3D12Resource_Release(values);
    } else {
        CHECK(VirtualFree(values_cpu, 0, MEM_RELEASE));
    }
    ID3D12Resource_Release(readback);
    ID3D12Resource_Release(data);
    harness_release_list(&writer);
    harness_release_list(&reader);
    ID3D12CommandQueue_Release(compute_queue);
    ID3D12CommandQueue_Release(direct_queue);
    ID3D12PipelineState_Release(pipeline);
    ID3D12RootSignature_Release(signature);
}

/* The memory model over textures. Writer direction A: a COMPUTE dispatch stores into mip 0 of a
 * texture through a descriptor-table UAV, then a bottom-of-pipe value; the DIRECT list waits
 * and copies subresource `read_subresource` out. Direction B: a COMPUTE copy uploads into the
 * texture; the DIRECT list waits and a dispatch loads it through a table SRV. Reported only
 * without a write-back and where the read meets what was written (mip 1 was never written). */
enum texture_direction { DISPATCH_THEN_COPY, COPY_THEN_DISPATCH };

static void texture_memory_model_case(ID3D12Device *device, enum texture_direction direction, bool write_back, UINT read_subresource,
        bool expect_report)
{
    static const char store_source[] =
        "RWTexture2D<uint> texels : register(u0);\n"
        "[numthreads(8, 8, 1)] void main(uint3 id : SV_DispatchThreadID) { texels[id.xy] = id.y * 16 + id.x + 5; }\n";
    static const char load_source[] =
        "Texture2D<uint> texels : register(t0);\n"
        "RWByteAddressBuffer output : register(u1);\n"
        "[numthreads(8, 8, 1)] void main(uint3 id : SV_DispatchThreadID) { output.Store((id.y * 16 + id.x) * 4, texels.Load(int3(id.xy, 0))); }\n";
    D3D12_DESCRIPTOR_RANGE1 range = {direction == DISPATCH_THEN_COPY ? D3D12_DESCRIPTOR_RANGE_TYPE_UAV : D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 1, 0, 0,
            D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 0};
    D3D12_ROOT_PARAMETER1 parameters[2];
    D3D12_HEAP_PROPERTIES default_heap = {D3D12_HEAP_TYPE_DEFAULT, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    D3D12_RESOURCE_DESC desc;
    D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    ID3D12CommandQueue *compute_queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12CommandQueue *direct_queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    struct harness_list writer = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    struct harness_list reader = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList *w = (ID3D12GraphicsCommandList *)writer.list, *r = (ID3D12GraphicsCommandList *)reader.list;
    ID3D12CommandList *lists[2] = {(ID3D12CommandList *)writer.list, (ID3D12CommandList *)reader.list};
    ID3D12Resource *texture = NULL, *buffer, *output = harness_uav_buffer(device, 16 * 16 * 4), *values;
    ID3D12DescriptorHeap *heap = NULL;
    ID3D12Fence *fence = harness_create_fence(device, 0);
    ID3D12RootSignature *signature;
    ID3D12PipelineState *pipeline;
    ID3D10Blob *code;
    D3D12_TEXTURE_COPY_LOCATION buffer_location, texture_location;
    void *values_cpu = NULL;
    uint32_t *seen = NULL;
    LOG_MARK();

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    parameters[0].DescriptorTable.NumDescriptorRanges = 1;
    parameters[0].DescriptorTable.pDescriptorRanges = &range;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    parameters[1].Descriptor.ShaderRegister = 1;
    signature = harness_root_signature(device, parameters, 2, D3D12_ROOT_SIGNATURE_FLAG_NONE);
    code = harness_compile(direction == DISPATCH_THEN_COPY ? store_source : load_source, 0);
    pipeline = harness_compute_pipeline(device, signature, code);
    ID3D10Blob_Release(code);
    memset(&desc, 0, sizeof(desc));
    desc.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    desc.Width = desc.Height = 16;
    desc.DepthOrArraySize = 1;
    desc.MipLevels = 2;
    desc.Format = DXGI_FORMAT_R32_UINT;
    desc.SampleDesc.Count = 1;
    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &default_heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON, NULL,
            &IID_ID3D12Resource, (void **)&texture), S_OK);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&heap), S_OK);
    buffer = harness_create_buffer(device, direction == DISPATCH_THEN_COPY ? D3D12_HEAP_TYPE_READBACK : D3D12_HEAP_TYPE_UPLOAD, 256 * 16,
            direction == DISPATCH_THEN_COPY ? D3D12_RESOURCE_STATE_COPY_DEST : D3D12_RESOURCE_STATE_GENERIC_READ);
    values = shared_memory(device, 4096, &values_cpu);
    if (!texture || !heap || !pipeline)
        goto done;
    if (direction == DISPATCH_THEN_COPY) {
        ID3D12Device_CreateUnorderedAccessView(device, texture, NULL, NULL, ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap));
    } else {
        uint32_t *upload = NULL;
        ID3D12Device_CreateShaderResourceView(device, texture, NULL, ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap));
        CHECK_HR(ID3D12Resource_Map(buffer, 0, NULL, (void **)&upload), S_OK);
        for (unsigned y = 0; upload && y < 16; y++)
            for (unsigned x = 0; x < 16; x++)
                upload[y * 64 + x] = y * 16 + x + 5;
        ID3D12Resource_Unmap(buffer, 0, NULL);
    }
    memset(&buffer_location, 0, sizeof(buffer_location));
    buffer_location.pResource = buffer;
    buffer_location.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    buffer_location.PlacedFootprint.Footprint = (D3D12_SUBRESOURCE_FOOTPRINT){DXGI_FORMAT_R32_UINT, 16 >> read_subresource, 16 >> read_subresource, 1, 256};
    memset(&texture_location, 0, sizeof(texture_location));
    texture_location.pResource = texture;
    texture_location.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    texture_location.SubresourceIndex = read_subresource;

    /* The writer: the store dispatch or the upload copy, then the value. */
    if (direction == DISPATCH_THEN_COPY) {
        ID3D12GraphicsCommandList_SetDescriptorHeaps(w, 1, &heap);
        ID3D12GraphicsCommandList_SetComputeRootSignature(w, signature);
        ID3D12GraphicsCommandList_SetPipelineState(w, pipeline);
        ID3D12GraphicsCommandList_SetComputeRootDescriptorTable(w, 0, ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(heap));
        ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(w, 1, ID3D12Resource_GetGPUVirtualAddress(output));
        ID3D12GraphicsCommandList_Dispatch(w, 2, 2, 1);
    } else {
        ID3D12GraphicsCommandList_CopyTextureRegion(w, &texture_location, 0, 0, 0, &buffer_location, NULL);
    }
    ID3D12GraphicsCommandList_Write64BitValueBottomOfPipe2X(w, ID3D12Resource_GetGPUVirtualAddress(values), 1,
            write_back ? D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK : D3D12XBOX_SYNC_FLAG_NONE, D3D12XBOX_SYNC_CONTROL_FLAG_NONE,
            D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
    /* The reader: wait, then the copy out or the load dispatch. */
    ID3D12GraphicsCommandList_Wait64BitValueX(r, ID3D12Resource_GetGPUVirtualAddress(values), D3D12_COMPARISON_FUNC_GREATER_EQUAL, 1,
            D3D12XBOX_WAIT_FLAG_NONE);
    if (direction == DISPATCH_THEN_COPY) {
        ID3D12GraphicsCommandList_CopyTextureRegion(r, &buffer_location, 0, 0, 0, &texture_location, NULL);
    } else {
        ID3D12GraphicsCommandList_SetDescriptorHeaps(r, 1, &heap);
        ID3D12GraphicsCommandList_SetComputeRootSignature(r, signature);
        ID3D12GraphicsCommandList_SetPipelineState(r, pipeline);
        ID3D12GraphicsCommandList_SetComputeRootDescriptorTable(r, 0, ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(heap));
        ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(r, 1, ID3D12Resource_GetGPUVirtualAddress(output));
        ID3D12GraphicsCommandList_Dispatch(r, 2, 2, 1);
    }
    CHECK_HR(ID3D12GraphicsCommandList_Close(w), S_OK);
    CHECK_HR(ID3D12GraphicsCommandList_Close(r), S_OK);
    ID3D12CommandQueue_ExecuteCommandLists(compute_queue, 1, &lists[0]);
    ID3D12CommandQueue_ExecuteCommandLists(direct_queue, 1, &lists[1]);
    CHECK_HR(ID3D12CommandQueue_Signal(direct_queue, fence, 1), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 1, NULL), S_OK);
    /* Right on Vulkan either way: what was written is what is read. */
    if (direction == DISPATCH_THEN_COPY && read_subresource == 0) {
        CHECK_HR(ID3D12Resource_Map(buffer, 0, NULL, (void **)&seen), S_OK);
        CHECK(seen && seen[0] == 5 && seen[15 * 64 + 15] == 15 * 16 + 15 + 5);
        ID3D12Resource_Unmap(buffer, 0, NULL);
    } else if (direction == COPY_THEN_DISPATCH) {
        uint32_t loaded[256];
        harness_read_back(device, direct_queue, output, loaded, sizeof(loaded));
        CHECK(loaded[0] == 5 && loaded[255] == 255 + 5);
    }
    if (expect_report && direction == DISPATCH_THEN_COPY)
        CHECK_LOG("console memory model", "(copy) reads subresources [0, +1) of texture", "(Dispatch) wrote", "no write-back", "stale");
    else if (expect_report)
        CHECK_LOG("console memory model", "(Dispatch) reads subresources [0, +2) of texture", "(copy) wrote", "no write-back", "stale");
    else
        CHECK_NO_LOG();

done:
    ID3D12Fence_Release(fence);
    ID3D12Resource_Unmap(values, 0, NULL);
    ID3D12Resource_Release(values);
    ID3D12Resource_Release(buffer);
    ID3D12Resource_Release(output);
    if (texture) ID3D12Resource_Release(texture);
    if (heap) ID3D12DescriptorHeap_Release(heap);
    if (pipeline) ID3D12PipelineState_Release(pipeline);
    ID3D12RootSignature_Release(signature);
    harness_release_list(&writer);
    harness_release_list(&reader);
    ID3D12CommandQueue_Release(compute_queue);
    ID3D12CommandQueue_Release(direct_queue);
}

/* Runs in a process started with D3D12XS_CONSOLE_VALIDATION=1 (main): on whatever D3D12XS_DEBUG says. */
static void test_memory_model(void)
{
    ID3D12Device *device;

    device = harness_create_device();
    for (int reader_first = 0; reader_first < 2; reader_first++) {
        memory_model_case(device, 0, reader_first, true);  /* no write-back: reported */
        memory_model_case(device, 1, reader_first, false); /* GL2_WRITEBACK */
        memory_model_case(device, 2, reader_first, false); /* a UAV barrier before the value write */
    }
    texture_memory_model_case(device, DISPATCH_THEN_COPY, false, 0, true);  /* the written mip, no write-back: reported */
    texture_memory_model_case(device, DISPATCH_THEN_COPY, true, 0, false);  /* GL2_WRITEBACK */
    texture_memory_model_case(device, DISPATCH_THEN_COPY, false, 1, false); /* mip 1 was not written */
    texture_memory_model_case(device, COPY_THEN_DISPATCH, false, 0, true);  /* a table SRV reads what the copy wrote */
    texture_memory_model_case(device, COPY_THEN_DISPATCH, true, 0, false);
    harness_release_device(device);
}

int main(int argc, char **argv)
{
    static const char *const console_validation[] = {"D3D12XS_CONSOLE_VALIDATION=1", NULL};
    const char *rounds = getenv("CONSOLE_SYNC_ROUNDS");
    ID3D12Device *device;

    harness_init();
    /* The library reads D3D12XS_CONSOLE_VALIDATION once per process: this case has its own. */
    if (argc > 1 && !strcmp(argv[1], "memory_model")) {
        test_memory_model();
        return harness_finish();
    }
    device = harness_create_device();
    test_handshake(device, rounds ? (unsigned)atoi(rounds) : ROUNDS_DEFAULT, false);
    test_handshake(device, rounds ? (unsigned)atoi(rounds) : ROUNDS_DEFAULT, true);
    test_value_write_keeps_root_arguments(device);
    test_comparisons(device);
    test_timestamps(device);
    test_bad_input(device);
    harness_release_device(device);
    test_hang();
    test_read_only_hang();
    CHECK_MSG(harness_run_self("memory_model", console_validation), "the memory-model case failed (its lines above say why)");
    return harness_finish();
}
