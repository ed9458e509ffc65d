/* The console's synchronisation as console code uses it (SPEC §2.4, §2.6), verified:
 *  1. the launch-rate handshake: a DIRECT and a COMPUTE list each wait mid-list on a value
 *     the other writes with a bottom-of-pipe write into graphics memory, the CPU spins on the
 *     same memory, and the DIRECT side reads what the COMPUTE side's dispatch wrote; 1,000 rounds;
 *  2. a pipelined post-process: each frame the DIRECT list waits (EQUAL, n - 1) for the
 *     COMPUTE queue's previous frame, renders frame n and publishes it; the COMPUTE list waits
 *     for it and post-processes it; 100 frames, every post-processed frame checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <d3d12_xs.h>
#include <d3dcompiler.h>

#define ELEMENTS 1024
#define ROUNDS 1000 /* `console_sync rounds=N` runs N */
#define FRAMES 100

static unsigned rounds = ROUNDS;

static int failures;
#define CHECK_HR(expr) do { HRESULT hr_ = (expr); if (FAILED(hr_)) { fprintf(stderr, "console_sync: %s failed: 0x%08x\n", #expr, (unsigned)hr_); exit(1); } } while (0)

/* out[i] = in[i] * mul + add: "render" with mul 0, "post-process" with mul 2, add 1. */
static const char shader[] =
    "cbuffer Params : register(b0) { uint mul; uint add; };\n"
    "ByteAddressBuffer input : register(t0);\n"
    "RWByteAddressBuffer output : register(u0);\n"
    "[numthreads(64, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, input.Load(id.x * 4) * mul + add); }\n";

struct gpu {
    ID3D12Device *device;
    ID3D12CommandQueue *direct, *compute;
    ID3D12RootSignature *signature;
    ID3D12PipelineState *pipeline;
    ID3D12CommandAllocator *allocators[2];
    ID3D12GraphicsCommandList *lists[2]; /* DIRECT, COMPUTE */
    ID3D12Fence *fence;
    UINT64 fence_value;
};

static void init(struct gpu *g)
{
    D3D12XBOX_COMMAND_QUEUE_DESC direct = {D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_QUEUE_FLAG_NONE, 0, 0};
    D3D12XBOX_COMMAND_QUEUE_DESC compute = {D3D12_COMMAND_LIST_TYPE_COMPUTE, D3D12_COMMAND_QUEUE_FLAG_NONE, 0, 0};
    D3D12_ROOT_PARAMETER1 parameters[3];
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc;
    D3D12_COMPUTE_PIPELINE_STATE_DESC pipeline;
    ID3DBlob *blob = NULL, *code = NULL;

    memset(g, 0, sizeof(*g));
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&g->device));
    CHECK_HR(ID3D12Device_CreateCommandQueueX(g->device, &direct, &IID_ID3D12CommandQueue, (void **)&g->direct));
    CHECK_HR(ID3D12Device_CreateCommandQueueX(g->device, &compute, &IID_ID3D12CommandQueue, (void **)&g->compute));
    /* the names a trace shows (D3D12XS_TRACE, docs/trace.md) */
    ID3D12CommandQueue_SetName(g->direct, L"gfx");
    ID3D12CommandQueue_SetName(g->compute, L"async compute");
    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 2;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV;
    parameters[2].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    memset(&desc, 0, sizeof(desc));
    desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    desc.Desc_1_1.NumParameters = 3;
    desc.Desc_1_1.pParameters = parameters;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&desc, &blob, NULL));
    CHECK_HR(ID3D12Device_CreateRootSignature(g->device, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
            &IID_ID3D12RootSignature, (void **)&g->signature));
    CHECK_HR(D3DCompile(shader, sizeof(shader) - 1, "console_sync.hlsl", NULL, NULL, "main", "cs_6_0", 0, 0, &code, NULL));
    memset(&pipeline, 0, sizeof(pipeline));
    pipeline.pRootSignature = g->signature;
    pipeline.CS.pShaderBytecode = ID3D10Blob_GetBufferPointer(code);
    pipeline.CS.BytecodeLength = ID3D10Blob_GetBufferSize(code);
    CHECK_HR(ID3D12Device_CreateComputePipelineState(g->device, &pipeline, &IID_ID3D12PipelineState, (void **)&g->pipeline));
    ID3D10Blob_Release(blob);
    ID3D10Blob_Release(code);
    for (int i = 0; i < 2; i++) {
        D3D12_COMMAND_LIST_TYPE type = i ? D3D12_COMMAND_LIST_TYPE_COMPUTE : D3D12_COMMAND_LIST_TYPE_DIRECT;
        CHECK_HR(ID3D12Device_CreateCommandAllocator(g->device, type, &IID_ID3D12CommandAllocator, (void **)&g->allocators[i]));
        CHECK_HR(ID3D12Device_CreateCommandList(g->device, 0, type, g->allocators[i], NULL, &IID_ID3D12GraphicsCommandList, (void **)&g->lists[i]));
        CHECK_HR(ID3D12GraphicsCommandList_Close(g->lists[i]));
        ID3D12GraphicsCommandList_SetName(g->lists[i], i ? L"compute list" : L"gfx list");
    }
    CHECK_HR(ID3D12Device_CreateFence(g->device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&g->fence));
    ID3D12Fence_SetName(g->fence, L"idle");
}

/* A PIX event around what a list does (shown on its queue's track in a trace). */
static void begin_event(ID3D12GraphicsCommandList *list, const char *name)
{
    ID3D12GraphicsCommandList_BeginEvent(list, 1 /* an ANSI string */, name, (UINT)strlen(name) + 1);
}

static ID3D12GraphicsCommandList *begin(struct gpu *g, int which)
{
    CHECK_HR(ID3D12CommandAllocator_Reset(g->allocators[which]));
    CHECK_HR(ID3D12GraphicsCommandList_Reset(g->lists[which], g->allocators[which], g->pipeline));
    ID3D12GraphicsCommandList_SetComputeRootSignature(g->lists[which], g->signature);
    return g->lists[which];
}

static void dispatch(ID3D12GraphicsCommandList *list, D3D12_GPU_VIRTUAL_ADDRESS input, D3D12_GPU_VIRTUAL_ADDRESS output, UINT mul, UINT add)
{
    UINT constants[2] = {mul, add};
    ID3D12GraphicsCommandList_SetComputeRoot32BitConstants(list, 0, 2, constants, 0);
    ID3D12GraphicsCommandList_SetComputeRootShaderResourceView(list, 1, input);
    ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(list, 2, output);
    ID3D12GraphicsCommandList_Dispatch(list, ELEMENTS / 64, 1, 1);
}

static void submit(struct gpu *g, int which)
{
    ID3D12CommandQueue *queue = which ? g->compute : g->direct;
    CHECK_HR(ID3D12GraphicsCommandList_Close(g->lists[which]));
    ID3D12CommandQueue_ExecuteCommandLists(queue, 1, (ID3D12CommandList **)&g->lists[which]);
    CHECK_HR(ID3D12CommandQueue_KickoffX(queue));
}

static void wait_idle(struct gpu *g)
{
    CHECK_HR(ID3D12CommandQueue_Signal(g->direct, g->fence, ++g->fence_value));
    CHECK_HR(ID3D12CommandQueue_Signal(g->compute, g->fence, ++g->fence_value));
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(g->fence, g->fence_value, NULL));
}

/* 1. The launch-rate handshake of the console's samples. */
static void handshake(struct gpu *g)
{
    uint64_t *fences = (uint64_t *)XMemVirtualAlloc(NULL, 64 * 1024, MEM_RESERVE | MEM_COMMIT | MEM_64K_PAGES, XMEM_GRAPHICS,
            PAGE_READWRITE | PAGE_WRITECOMBINE | PAGE_GRAPHICS_READWRITE);
    uint32_t *data = (uint32_t *)XMemVirtualAlloc(NULL, ELEMENTS * 4, MEM_RESERVE | MEM_COMMIT | MEM_64K_PAGES, XMEM_GRAPHICS,
            PAGE_READWRITE | PAGE_WRITECOMBINE | PAGE_GRAPHICS_READWRITE);
    uint32_t *seen = (uint32_t *)XMemVirtualAlloc(NULL, ELEMENTS * 4, MEM_RESERVE | MEM_COMMIT | MEM_64K_PAGES, XMEM_GRAPHICS,
            PAGE_READWRITE | PAGE_WRITECOMBINE | PAGE_GRAPHICS_READWRITE);
    D3D12_GPU_VIRTUAL_ADDRESS to_gfx = (D3D12_GPU_VIRTUAL_ADDRESS)(uintptr_t)&fences[0]; /* the CPU pointer IS the GPU address */
    D3D12_GPU_VIRTUAL_ADDRESS to_compute = (D3D12_GPU_VIRTUAL_ADDRESS)(uintptr_t)&fences[1];
    LARGE_INTEGER start, end, frequency;
    unsigned bad = 0;

    if (!fences || !data || !seen) {
        fprintf(stderr, "console_sync: XMemVirtualAlloc failed\n");
        exit(1);
    }
    QueryPerformanceFrequency(&frequency);
    QueryPerformanceCounter(&start);
    for (uint64_t n = 1; n <= rounds; n++) {
        /* DIRECT waits mid-list for the COMPUTE side's value, then reads its data (mul 1, add 0: a copy). */
        ID3D12GraphicsCommandList *direct = begin(g, 0);
        begin_event(direct, "handshake round");
        ID3D12GraphicsCommandList_Wait64BitValueX(direct, to_gfx, D3D12_COMPARISON_FUNC_GREATER_EQUAL, n, D3D12XBOX_WAIT_FLAG_NONE);
        begin_event(direct, "read compute's data");
        dispatch(direct, (D3D12_GPU_VIRTUAL_ADDRESS)(uintptr_t)data, (D3D12_GPU_VIRTUAL_ADDRESS)(uintptr_t)seen, 1, 0);
        ID3D12GraphicsCommandList_EndEvent(direct);
        ID3D12GraphicsCommandList_Write64BitValueBottomOfPipeX(direct, to_compute, n, D3D12XBOX_FLUSH_BOP_TEXTURE_L2_WRITEBACK,
                D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
        ID3D12GraphicsCommandList_EndEvent(direct);
        submit(g, 0);

        ID3D12GraphicsCommandList *compute = begin(g, 1);
        ID3D12GraphicsCommandList_Wait64BitValueX(compute, to_compute, D3D12_COMPARISON_FUNC_GREATER_EQUAL, n - 1, D3D12XBOX_WAIT_FLAG_NONE);
        dispatch(compute, (D3D12_GPU_VIRTUAL_ADDRESS)(uintptr_t)data, (D3D12_GPU_VIRTUAL_ADDRESS)(uintptr_t)data, 0, (UINT)n);
        ID3D12GraphicsCommandList_Write64BitValueBottomOfPipe2X(compute, to_gfx, n, D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK,
                D3D12XBOX_SYNC_CONTROL_FLAG_NONE, D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
        submit(g, 1);

        while (*(volatile uint64_t *)(uintptr_t)to_gfx < n) /* the CPU spins on the same memory */
            ;
        while (*(volatile uint64_t *)(uintptr_t)to_compute < n)
            ;
        bad += seen[0] != n || seen[ELEMENTS - 1] != n;
        wait_idle(g); /* the allocators are reset for the next round */
    }
    QueryPerformanceCounter(&end);
    wait_idle(g);
    printf("  handshake: %u rounds, DIRECT and COMPUTE waiting mid-list on each other, %.1f us per round, %s\n", rounds,
            (double)(end.QuadPart - start.QuadPart) * 1e6 / (double)frequency.QuadPart / rounds, bad ? "WRONG DATA" : "data verified");
    failures += bad != 0;
    VirtualFree(fences, 0, MEM_RELEASE);
    VirtualFree(data, 0, MEM_RELEASE);
    VirtualFree(seen, 0, MEM_RELEASE);
}

/* 2. Frame n: DIRECT waits until the COMPUTE queue finished frame n - 1, renders frame n
 * (every element n) and publishes it; COMPUTE waits for it and post-processes (2n + 1). */
static void pipelined_post_process(struct gpu *g)
{
    uint64_t *sync = (uint64_t *)XMemVirtualAlloc(NULL, 64 * 1024, MEM_COMMIT, XMEM_GRAPHICS, PAGE_READWRITE | PAGE_GRAPHICS_READWRITE);
    uint32_t *frames = (uint32_t *)XMemVirtualAlloc(NULL, 2 * ELEMENTS * 4, MEM_COMMIT, XMEM_GRAPHICS, PAGE_READWRITE | PAGE_GRAPHICS_READWRITE);
    uint32_t *post = (uint32_t *)XMemVirtualAlloc(NULL, FRAMES * ELEMENTS * 4, MEM_COMMIT, XMEM_GRAPHICS, PAGE_READWRITE | PAGE_GRAPHICS_READWRITE);
    D3D12_GPU_VIRTUAL_ADDRESS rendered = (D3D12_GPU_VIRTUAL_ADDRESS)(uintptr_t)&sync[0];
    D3D12_GPU_VIRTUAL_ADDRESS post_done = (D3D12_GPU_VIRTUAL_ADDRESS)(uintptr_t)&sync[1];
    unsigned bad = 0;

    if (!sync || !frames || !post) {
        fprintf(stderr, "console_sync: XMemVirtualAlloc failed\n");
        exit(1);
    }
    for (uint64_t n = 1; n <= FRAMES; n++) {
        D3D12_GPU_VIRTUAL_ADDRESS frame = (D3D12_GPU_VIRTUAL_ADDRESS)(uintptr_t)&frames[(n % 2) * ELEMENTS];
        ID3D12GraphicsCommandList *direct = begin(g, 0);
        ID3D12GraphicsCommandList_Wait64BitValueX(direct, post_done, D3D12_COMPARISON_FUNC_EQUAL, n - 1, D3D12XBOX_WAIT_FLAG_NONE);
        begin_event(direct, "render frame");
        dispatch(direct, frame, frame, 0, (UINT)n);
        ID3D12GraphicsCommandList_EndEvent(direct);
        ID3D12GraphicsCommandList_Write64BitValueBottomOfPipe2X(direct, rendered, n, D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK,
                D3D12XBOX_SYNC_CONTROL_FLAG_NONE, D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
        submit(g, 0);

        ID3D12GraphicsCommandList *compute = begin(g, 1);
        ID3D12GraphicsCommandList_Wait64BitValueX(compute, rendered, D3D12_COMPARISON_FUNC_GREATER_EQUAL, n, D3D12XBOX_WAIT_FLAG_NONE);
        dispatch(compute, frame, (D3D12_GPU_VIRTUAL_ADDRESS)(uintptr_t)&post[(n - 1) * ELEMENTS], 2, 1);
        ID3D12GraphicsCommandList_Write64BitValueBottomOfPipe2X(compute, post_done, n, D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK,
                D3D12XBOX_SYNC_CONTROL_FLAG_NONE, D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
        submit(g, 1);
        /* The lists are recorded again next frame: wait until both ran this one. */
        while (*(volatile uint64_t *)(uintptr_t)post_done < n)
            ;
        wait_idle(g);
    }
    for (uint64_t n = 1; n <= FRAMES; n++)
        for (unsigned i = 0; i < ELEMENTS; i += ELEMENTS - 1)
            bad += post[(n - 1) * ELEMENTS + i] != 2 * n + 1;
    printf("  post-process: %u frames, each DIRECT list waiting (EQUAL, n - 1) for the COMPUTE queue's previous frame, %s\n", FRAMES,
            bad ? "WRONG RESULTS" : "results verified");
    failures += bad != 0;
    VirtualFree(sync, 0, MEM_RELEASE);
    VirtualFree(frames, 0, MEM_RELEASE);
    VirtualFree(post, 0, MEM_RELEASE);
}

int main(int argc, char **argv)
{
    struct gpu g;
    D3D12XS_DEVICE_INFO info;

    if (argc > 1 && (sscanf(argv[1], "rounds=%u", &rounds) != 1 || !rounds)) {
        fprintf(stderr, "usage: %s [rounds=N] (N > 0 handshake rounds, default %u)\n", argv[0], ROUNDS);
        return 2;
    }
    init(&g);
    CHECK_HR(D3D12XSGetDeviceInfo(g.device, &info));
    printf("d3d12xs console synchronisation on %s (DIRECT family %u, COMPUTE family %u)\n", info.DeviceName,
            info.Queues[D3D12_COMMAND_LIST_TYPE_DIRECT].VulkanQueueFamily, info.Queues[D3D12_COMMAND_LIST_TYPE_COMPUTE].VulkanQueueFamily);
    handshake(&g);
    pipelined_post_process(&g);
    ID3D12Fence_Release(g.fence);
    for (int i = 0; i < 2; i++) {
        ID3D12GraphicsCommandList_Release(g.lists[i]);
        ID3D12CommandAllocator_Release(g.allocators[i]);
    }
    ID3D12PipelineState_Release(g.pipeline);
    ID3D12RootSignature_Release(g.signature);
    ID3D12CommandQueue_Release(g.direct);
    ID3D12CommandQueue_Release(g.compute);
    ID3D12Device_Release(g.device);
    printf("console_sync: %s\n", failures ? "FAILED" : "all results verified");
    return failures ? 1 : 0;
}
