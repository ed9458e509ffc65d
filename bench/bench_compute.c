/* bench_compute: d3d12xs compute paths against hand-written Vulkan doing the same work,
 * on the same physical device, in the same run. See docs/benchmarks.md.
 *
 *   1. CPU ns per recorded Dispatch that also changes a root constant
 *   2. GPU us per back-to-back Dispatch (1 group of 64 threads), without and with a UAV barrier
 *   3. GB/s of an HLSL buffer-copy kernel (bytes read + written / GPU time)
 *
 * Each ratio is d3d12xs's cost over raw Vulkan's (time / time, or raw GB/s / d3d12xs GB/s) in
 * one repetition, the two sides back to back, median over repetitions: above 1 means d3d12xs
 * is slower. D3D12XS_BENCH_OUT=<path> also writes the table as TSV. Arguments (cpu, gpu,
 * gpu_barrier, copy) run only those figures. */
#include <malloc.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <shaderc/shaderc.h>
#include <vulkan/vulkan.h>

#include <d3d12.h>
#include <d3d12_xs.h>
#include <d3dcompiler.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_REPS 64

/* ---- failure, timing, statistics ------------------------------------------------------- */

static void fail(int line, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
static void fail(int line, const char *fmt, ...)
{
    va_list args;
    fprintf(stderr, "bench_compute: line %d: ", line);
    va_start(args, fmt);
    vfprintf(stderr, fmt, args);
    va_end(args);
    fputc('\n', stderr);
    exit(1);
}

#define HR(expr) do { HRESULT hr_ = (expr); \
        if (FAILED(hr_)) fail(__LINE__, "%s failed: HRESULT 0x%08x", #expr, (unsigned)hr_); } while (0)
#define VK(expr) do { VkResult vr_ = (expr); \
        if (vr_ != VK_SUCCESS) fail(__LINE__, "%s failed: VkResult %d", #expr, (int)vr_); } while (0)
#define REQUIRE(cond, ...) do { if (!(cond)) fail(__LINE__, __VA_ARGS__); } while (0)

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(const double *values, unsigned count)
{
    double sorted[MAX_REPS];
    memcpy(sorted, values, count * sizeof(*values));
    qsort(sorted, count, sizeof(*sorted), compare_doubles);
    return count % 2 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2;
}

/* The word at index i of the copy kernel's source buffer. */
static uint32_t pattern(uint64_t i)
{
    return (uint32_t)(i * 2654435761u) ^ 0x5bd1e995u;
}

static void fill_pattern(uint32_t *words, uint64_t count)
{
    for (uint64_t i = 0; i < count; i++)
        words[i] = pattern(i);
}

static void check_pattern(const uint32_t *words, uint64_t count, const char *side)
{
    for (uint64_t i = 0; i < count; i++)
        if (words[i] != pattern(i))
            fail(__LINE__, "%s copy kernel: word %llu is 0x%08x, expected 0x%08x", side, (unsigned long long)i, words[i], pattern(i));
}

/* ---- the kernels: one HLSL source each, compiled by D3DCompile for d3d12xs and by shaderc
 * (with RAW_VULKAN defined) for raw Vulkan. The only difference is the binding annotations:
 * d3d12xs maps registers through the root signature; raw Vulkan needs explicit ones. ---- */

#define HLSL_PROLOGUE \
    "#ifdef RAW_VULKAN\n" \
    "#define PUSH_CONSTANTS(name) [[vk::push_constant]] cbuffer name\n" \
    "#define BINDING(n) [[vk::binding(n, 0)]]\n" \
    "#else\n" \
    "#define PUSH_CONSTANTS(name) cbuffer name : register(b0)\n" \
    "#define BINDING(n)\n" \
    "#endif\n"

/* Figures 1 and 2: one uint per thread, from a root constant. */
static const char tiny_hlsl[] = HLSL_PROLOGUE
    "PUSH_CONSTANTS(Constants) { uint value; };\n"
    "BINDING(0) RWByteAddressBuffer output : register(u0);\n"
    "[numthreads(64, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, value + id.x); }\n";

/* Figure 3: one uint4 per thread; groups_x is the dispatch width (2D grid: > 65535 groups). */
static const char copy_hlsl[] = HLSL_PROLOGUE
    "PUSH_CONSTANTS(Constants) { uint groups_x; };\n"
    "BINDING(0) ByteAddressBuffer src : register(t0);\n"
    "BINDING(1) RWByteAddressBuffer dst : register(u0);\n"
    "[numthreads(64, 1, 1)]\n"
    "void main(uint3 group : SV_GroupID, uint index : SV_GroupIndex)\n"
    "{\n"
    "    uint offset = ((group.y * groups_x + group.x) * 64 + index) * 16;\n"
    "    dst.Store4(offset, src.Load4(offset));\n"
    "}\n";

#define TINY_THREADS 64
#define COPY_GROUPS_X 1024u

/* ---- parameters ---- */

struct params {
    unsigned cpu_dispatches, cpu_reps;       /* figure 1 */
    unsigned gpu_dispatches, gpu_reps;       /* figure 2 */
    uint64_t copy_bytes; unsigned copy_reps; /* figure 3 */
};

/* ======================================================================================= */
/* d3d12xs side                                                                            */
/* ======================================================================================= */

struct d3d {
    ID3D12Device *device;
    D3D12XS_DEVICE_INFO info;
    ID3D12CommandQueue *queue;
    ID3D12Fence *fence;
    UINT64 fence_value;
    UINT64 frequency;
    ID3D12QueryHeap *queries;      /* 0-1 no barrier, 2-3 barrier, 4-5 copy */
    ID3D12Resource *query_results; /* READBACK, 6 UINT64 */

    ID3D12RootSignature *tiny_signature, *copy_signature;
    ID3D12PipelineState *tiny_pipeline, *copy_pipeline;
    ID3D12Resource *tiny_output;

    ID3D12CommandAllocator *record_allocator; /* figure 1 */
    ID3D12GraphicsCommandList2 *record_list;
    ID3D12CommandAllocator *timed_allocators[4];
    ID3D12GraphicsCommandList2 *timed_lists[4]; /* no barrier, barrier, copy, bottom-of-pipe writes */
    ID3D12Resource *sync_memory;                /* READBACK: the CPU figures' value writes and waits */

    ID3D12Resource *copy_src, *copy_dst;
};

static ID3DBlob *d3d_compile(const char *source)
{
    ID3DBlob *code = NULL, *errors = NULL;
    HRESULT hr = D3DCompile(source, strlen(source), "bench.hlsl", NULL, NULL, "main", "cs_6_0", 0, 0, &code, &errors);
    if (FAILED(hr))
        fail(__LINE__, "D3DCompile failed (0x%08x): %s", (unsigned)hr, errors ? (const char *)ID3D10Blob_GetBufferPointer(errors) : "?");
    if (errors)
        ID3D10Blob_Release(errors);
    return code;
}

static ID3D12RootSignature *d3d_root_signature(ID3D12Device *device, const D3D12_ROOT_PARAMETER1 *parameters, UINT count)
{
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc;
    ID3DBlob *blob = NULL, *errors = NULL;
    ID3D12RootSignature *signature = NULL;

    memset(&desc, 0, sizeof(desc));
    desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    desc.Desc_1_1.NumParameters = count;
    desc.Desc_1_1.pParameters = parameters;
    HR(D3D12SerializeVersionedRootSignature(&desc, &blob, &errors));
    HR(ID3D12Device_CreateRootSignature(device, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
            &IID_ID3D12RootSignature, (void **)&signature));
    ID3D10Blob_Release(blob);
    if (errors)
        ID3D10Blob_Release(errors);
    return signature;
}

static ID3D12PipelineState *d3d_pipeline(ID3D12Device *device, ID3D12RootSignature *signature, const char *source)
{
    D3D12_COMPUTE_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *state = NULL;
    ID3DBlob *code = d3d_compile(source);

    memset(&desc, 0, sizeof(desc));
    desc.pRootSignature = signature;
    desc.CS.pShaderBytecode = ID3D10Blob_GetBufferPointer(code);
    desc.CS.BytecodeLength = ID3D10Blob_GetBufferSize(code);
    HR(ID3D12Device_CreateComputePipelineState(device, &desc, &IID_ID3D12PipelineState, (void **)&state));
    ID3D10Blob_Release(code);
    return state;
}

static ID3D12Resource *d3d_buffer(ID3D12Device *device, D3D12_HEAP_TYPE heap_type, UINT64 size, D3D12_RESOURCE_FLAGS flags,
        D3D12_RESOURCE_STATES state)
{
    D3D12_HEAP_PROPERTIES heap;
    D3D12_RESOURCE_DESC desc;
    ID3D12Resource *resource = NULL;

    memset(&heap, 0, sizeof(heap));
    heap.Type = heap_type;
    memset(&desc, 0, sizeof(desc));
    desc.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
    desc.Width = size;
    desc.Height = 1;
    desc.DepthOrArraySize = 1;
    desc.MipLevels = 1;
    desc.Format = DXGI_FORMAT_UNKNOWN;
    desc.SampleDesc.Count = 1;
    desc.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    desc.Flags = flags;
    HR(ID3D12Device_CreateCommittedResource(device, &heap, D3D12_HEAP_FLAG_NONE, &desc, state, NULL, &IID_ID3D12Resource, (void **)&resource));
    return resource;
}

static void d3d_new_list(struct d3d *d, ID3D12CommandAllocator **allocator, ID3D12GraphicsCommandList2 **list)
{
    HR(ID3D12Device_CreateCommandAllocator(d->device, D3D12_COMMAND_LIST_TYPE_COMPUTE, &IID_ID3D12CommandAllocator, (void **)allocator));
    HR(ID3D12Device_CreateCommandList(d->device, 0, D3D12_COMMAND_LIST_TYPE_COMPUTE, *allocator, NULL,
            &IID_ID3D12GraphicsCommandList2, (void **)list));
}

static void d3d_execute_and_wait(struct d3d *d, ID3D12GraphicsCommandList2 *list)
{
    ID3D12CommandList *lists[] = {(ID3D12CommandList *)list};
    ID3D12CommandQueue_ExecuteCommandLists(d->queue, 1, lists);
    HR(ID3D12CommandQueue_Signal(d->queue, d->fence, ++d->fence_value));
    HR(ID3D12Fence_SetEventOnCompletion(d->fence, d->fence_value, NULL));
}

static D3D12_RESOURCE_BARRIER d3d_transition(ID3D12Resource *resource, D3D12_RESOURCE_STATES before, D3D12_RESOURCE_STATES after)
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

static void d3d_init(struct d3d *d)
{
    D3D12_COMMAND_QUEUE_DESC queue_desc = {D3D12_COMMAND_LIST_TYPE_COMPUTE, 0, D3D12_COMMAND_QUEUE_FLAG_NONE, 0};
    D3D12_QUERY_HEAP_DESC query_desc = {D3D12_QUERY_HEAP_TYPE_TIMESTAMP, 8, 0};
    D3D12_ROOT_PARAMETER1 parameters[3];

    memset(d, 0, sizeof(*d));
    HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&d->device));
    HR(D3D12XSGetDeviceInfo(d->device, &d->info));
    REQUIRE(!d->info.ValidationLayerEnabled, "the validation layer is on (D3D12XS_DEBUG): the figures would be meaningless");
    HR(ID3D12Device_CreateCommandQueue(d->device, &queue_desc, &IID_ID3D12CommandQueue, (void **)&d->queue));
    HR(ID3D12Device_CreateFence(d->device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&d->fence));
    HR(ID3D12CommandQueue_GetTimestampFrequency(d->queue, &d->frequency));
    HR(ID3D12Device_CreateQueryHeap(d->device, &query_desc, &IID_ID3D12QueryHeap, (void **)&d->queries));
    d->query_results = d3d_buffer(d->device, D3D12_HEAP_TYPE_READBACK, 8 * sizeof(UINT64), D3D12_RESOURCE_FLAG_NONE,
            D3D12_RESOURCE_STATE_COPY_DEST);
    d->sync_memory = d3d_buffer(d->device, D3D12_HEAP_TYPE_READBACK, 256, D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_COPY_DEST);

    /* Tiny kernel: root constant b0 + root UAV u0. */
    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 1;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    d->tiny_signature = d3d_root_signature(d->device, parameters, 2);
    d->tiny_pipeline = d3d_pipeline(d->device, d->tiny_signature, tiny_hlsl);
    d->tiny_output = d3d_buffer(d->device, D3D12_HEAP_TYPE_DEFAULT, TINY_THREADS * 4, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS,
            D3D12_RESOURCE_STATE_UNORDERED_ACCESS);

    /* Copy kernel: root constant b0 + root SRV t0 + root UAV u0. */
    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 1;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV;
    parameters[2].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    d->copy_signature = d3d_root_signature(d->device, parameters, 3);
    d->copy_pipeline = d3d_pipeline(d->device, d->copy_signature, copy_hlsl);

    /* Figure 1's list is created and closed here; each repetition resets it. */
    d3d_new_list(d, &d->record_allocator, &d->record_list);
    HR(ID3D12GraphicsCommandList2_Close(d->record_list));
}

/* Figure 1: N x (SetComputeRoot32BitConstant + Dispatch), from Reset to Close. */
static double d3d_record(struct d3d *d, unsigned n)
{
    ID3D12GraphicsCommandList2 *list = d->record_list;
    D3D12_GPU_VIRTUAL_ADDRESS output = ID3D12Resource_GetGPUVirtualAddress(d->tiny_output);
    double start, end;

    start = now_ns();
    HR(ID3D12GraphicsCommandList2_Reset(list, d->record_allocator, NULL));
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list, d->tiny_signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list, d->tiny_pipeline);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list, 1, output);
    for (unsigned i = 0; i < n; i++) {
        ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list, 0, i, 0);
        ID3D12GraphicsCommandList2_Dispatch(list, 1, 1, 1);
    }
    HR(ID3D12GraphicsCommandList2_Close(list));
    end = now_ns();
    return (end - start) / n;
}

/* CPU figures of the console calls: N x Write64BitValueBottomOfPipeX, or N x Wait64BitValueX
 * (each cuts the list: a new command buffer, and one for a GPU-side wait where those are on). */
static double d3d_record_console(struct d3d *d, unsigned n, bool waits)
{
    ID3D12GraphicsCommandList2 *list = d->record_list;
    ID3D12GraphicsCommandList *console = (ID3D12GraphicsCommandList *)list;
    D3D12_GPU_VIRTUAL_ADDRESS address = ID3D12Resource_GetGPUVirtualAddress(waits ? d->sync_memory : d->tiny_output);
    double start, end;

    start = now_ns();
    HR(ID3D12GraphicsCommandList2_Reset(list, d->record_allocator, NULL));
    for (unsigned i = 0; i < n; i++) {
        if (waits)
            ID3D12GraphicsCommandList_Wait64BitValueX(console, address, D3D12_COMPARISON_FUNC_GREATER_EQUAL, i, D3D12XBOX_WAIT_FLAG_NONE);
        else
            ID3D12GraphicsCommandList_Write64BitValueBottomOfPipeX(console, address, i, D3D12XBOX_FLUSH_NONE, D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
    }
    HR(ID3D12GraphicsCommandList2_Close(list));
    end = now_ns();
    return (end - start) / n;
}

/* Figure 2's lists: timestamp, N dispatches (UAV barriers between them, or a bottom-of-pipe
 * write after each, if asked), timestamp. */
static void d3d_build_dispatch_list(struct d3d *d, unsigned slot, bool barrier, unsigned n)
{
    ID3D12GraphicsCommandList2 *list;
    D3D12_RESOURCE_BARRIER uav;

    d3d_new_list(d, &d->timed_allocators[slot], &d->timed_lists[slot]);
    list = d->timed_lists[slot];
    memset(&uav, 0, sizeof(uav));
    uav.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
    uav.UAV.pResource = d->tiny_output;
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list, d->tiny_signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list, d->tiny_pipeline);
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list, 0, 1, 0);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list, 1, ID3D12Resource_GetGPUVirtualAddress(d->tiny_output));
    ID3D12GraphicsCommandList2_EndQuery(list, d->queries, D3D12_QUERY_TYPE_TIMESTAMP, slot * 2);
    for (unsigned i = 0; i < n; i++) {
        if (barrier && i)
            ID3D12GraphicsCommandList2_ResourceBarrier(list, 1, &uav);
        ID3D12GraphicsCommandList2_Dispatch(list, 1, 1, 1);
        if (slot == 3)
            ID3D12GraphicsCommandList_Write64BitValueBottomOfPipeX((ID3D12GraphicsCommandList *)list,
                    ID3D12Resource_GetGPUVirtualAddress(d->tiny_output) + 128, i, D3D12XBOX_FLUSH_NONE, D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
    }
    ID3D12GraphicsCommandList2_EndQuery(list, d->queries, D3D12_QUERY_TYPE_TIMESTAMP, slot * 2 + 1);
    ID3D12GraphicsCommandList2_ResolveQueryData(list, d->queries, D3D12_QUERY_TYPE_TIMESTAMP, slot * 2, 2, d->query_results,
            slot * 2 * sizeof(UINT64));
    HR(ID3D12GraphicsCommandList2_Close(list));
}

static void d3d_setup_copy(struct d3d *d, uint64_t size)
{
    ID3D12GraphicsCommandList2 *list;
    ID3D12CommandAllocator *allocator;
    ID3D12Resource *upload;
    D3D12_RESOURCE_BARRIER barrier;
    void *mapped = NULL;

    d->copy_src = d3d_buffer(d->device, D3D12_HEAP_TYPE_DEFAULT, size, D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_COPY_DEST);
    d->copy_dst = d3d_buffer(d->device, D3D12_HEAP_TYPE_DEFAULT, size, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS,
            D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    upload = d3d_buffer(d->device, D3D12_HEAP_TYPE_UPLOAD, size, D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_GENERIC_READ);
    HR(ID3D12Resource_Map(upload, 0, NULL, &mapped));
    fill_pattern(mapped, size / 4);
    ID3D12Resource_Unmap(upload, 0, NULL);

    d3d_new_list(d, &allocator, &list);
    ID3D12GraphicsCommandList2_CopyBufferRegion(list, d->copy_src, 0, upload, 0, size);
    barrier = d3d_transition(d->copy_src, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE);
    ID3D12GraphicsCommandList2_ResourceBarrier(list, 1, &barrier);
    HR(ID3D12GraphicsCommandList2_Close(list));
    d3d_execute_and_wait(d, list);
    ID3D12GraphicsCommandList2_Release(list);
    ID3D12CommandAllocator_Release(allocator);
    ID3D12Resource_Release(upload);

    d3d_new_list(d, &d->timed_allocators[2], &d->timed_lists[2]);
    list = d->timed_lists[2];
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list, d->copy_signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list, d->copy_pipeline);
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list, 0, COPY_GROUPS_X, 0);
    ID3D12GraphicsCommandList2_SetComputeRootShaderResourceView(list, 1, ID3D12Resource_GetGPUVirtualAddress(d->copy_src));
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list, 2, ID3D12Resource_GetGPUVirtualAddress(d->copy_dst));
    ID3D12GraphicsCommandList2_EndQuery(list, d->queries, D3D12_QUERY_TYPE_TIMESTAMP, 4);
    ID3D12GraphicsCommandList2_Dispatch(list, COPY_GROUPS_X, (UINT)(size / 16 / 64 / COPY_GROUPS_X), 1);
    ID3D12GraphicsCommandList2_EndQuery(list, d->queries, D3D12_QUERY_TYPE_TIMESTAMP, 5);
    ID3D12GraphicsCommandList2_ResolveQueryData(list, d->queries, D3D12_QUERY_TYPE_TIMESTAMP, 4, 2, d->query_results, 4 * sizeof(UINT64));
    HR(ID3D12GraphicsCommandList2_Close(list));
}

static void d3d_verify_copy(struct d3d *d, uint64_t size)
{
    ID3D12Resource *readback = d3d_buffer(d->device, D3D12_HEAP_TYPE_READBACK, size, D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12GraphicsCommandList2 *list;
    ID3D12CommandAllocator *allocator;
    D3D12_RESOURCE_BARRIER barriers[2];
    void *mapped = NULL;

    d3d_new_list(d, &allocator, &list);
    barriers[0] = d3d_transition(d->copy_dst, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
    barriers[1] = d3d_transition(d->copy_dst, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    ID3D12GraphicsCommandList2_ResourceBarrier(list, 1, &barriers[0]);
    ID3D12GraphicsCommandList2_CopyBufferRegion(list, readback, 0, d->copy_dst, 0, size);
    ID3D12GraphicsCommandList2_ResourceBarrier(list, 1, &barriers[1]);
    HR(ID3D12GraphicsCommandList2_Close(list));
    d3d_execute_and_wait(d, list);
    HR(ID3D12Resource_Map(readback, 0, NULL, &mapped));
    check_pattern(mapped, size / 4, "d3d12xs");
    ID3D12Resource_Unmap(readback, 0, NULL);
    ID3D12GraphicsCommandList2_Release(list);
    ID3D12CommandAllocator_Release(allocator);
    ID3D12Resource_Release(readback);
}

/* Runs timed list `slot` once; returns the GPU nanoseconds between its two timestamps. */
static double d3d_run_timed(struct d3d *d, unsigned slot)
{
    D3D12_RANGE range = {slot * 2 * sizeof(UINT64), (slot * 2 + 2) * sizeof(UINT64)};
    UINT64 *ticks = NULL;
    double ns;

    d3d_execute_and_wait(d, d->timed_lists[slot]);
    HR(ID3D12Resource_Map(d->query_results, 0, &range, (void **)&ticks));
    ns = (double)(ticks[slot * 2 + 1] - ticks[slot * 2]) * 1e9 / (double)d->frequency;
    ID3D12Resource_Unmap(d->query_results, 0, NULL);
    return ns;
}

static void d3d_destroy(struct d3d *d)
{
    if (d->sync_memory)
        ID3D12Resource_Release(d->sync_memory);
    for (unsigned i = 0; i < 4; i++) {
        if (d->timed_lists[i])
            ID3D12GraphicsCommandList2_Release(d->timed_lists[i]);
        if (d->timed_allocators[i])
            ID3D12CommandAllocator_Release(d->timed_allocators[i]);
    }
    ID3D12GraphicsCommandList2_Release(d->record_list);
    ID3D12CommandAllocator_Release(d->record_allocator);
    if (d->copy_src)
        ID3D12Resource_Release(d->copy_src);
    if (d->copy_dst)
        ID3D12Resource_Release(d->copy_dst);
    ID3D12Resource_Release(d->tiny_output);
    ID3D12PipelineState_Release(d->tiny_pipeline);
    ID3D12PipelineState_Release(d->copy_pipeline);
    ID3D12RootSignature_Release(d->tiny_signature);
    ID3D12RootSignature_Release(d->copy_signature);
    ID3D12Resource_Release(d->query_results);
    ID3D12QueryHeap_Release(d->queries);
    ID3D12Fence_Release(d->fence);
    ID3D12CommandQueue_Release(d->queue);
    ID3D12Device_Release(d->device);
}

/* ======================================================================================= */
/* raw Vulkan side                                                                         */
/* ======================================================================================= */

struct vk_buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
};

struct vk_kernel {
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipeline;
};

struct raw {
    VkInstance instance;
    VkPhysicalDevice physical_device;
    VkPhysicalDeviceProperties properties;
    VkPhysicalDeviceDriverProperties driver;
    VkPhysicalDeviceMemoryProperties memory;
    VkDevice device;
    uint32_t family;
    VkQueue queue;
    VkFence fence;
    VkCommandPool pool;
    VkQueryPool queries;                /* 0-1 no barrier, 2-3 barrier, 4-5 copy */
    PFN_vkCmdPushDescriptorSetKHR vkCmdPushDescriptorSetKHR;

    struct vk_kernel tiny, copy;
    struct vk_buffer tiny_output;

    VkCommandBuffer record_cmd;         /* figure 1 */
    VkCommandBuffer timed_cmds[4];      /* no barrier, barrier, copy, bottom-of-pipe writes */
    VkCommandBuffer *split_cmds;        /* the CPU figure of waits: a command buffer per wait */
    unsigned split_count;

    struct vk_buffer copy_src, copy_dst, staging;
};

static bool contains_nocase(const char *name, const char *part)
{
    size_t n = strlen(part);
    for (const char *p = name; *p; p++) {
        size_t i = 0;
        while (i < n && p[i] && (p[i] | 0x20) == (part[i] | 0x20))
            i++;
        if (i == n)
            return true;
    }
    return false;
}

static int type_rank(VkPhysicalDeviceType type)
{
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
    default: return 4;
    }
}

/* As d3d12xs does: D3D12XS_DEVICE by index or part of the name, else discrete > integrated >
 * virtual > CPU among Vulkan 1.3 devices. */
static void raw_pick_device(struct raw *r)
{
    const char *choice = getenv("D3D12XS_DEVICE");
    VkPhysicalDevice devices[16];
    uint32_t count = ARRAY_SIZE(devices);
    int best = -1, best_rank = 100;

    VkResult vr = vkEnumeratePhysicalDevices(r->instance, &count, devices);
    REQUIRE((vr == VK_SUCCESS || vr == VK_INCOMPLETE) && count, "no Vulkan device");
    for (uint32_t i = 0; i < count; i++) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(devices[i], &p);
        if (choice && *choice) {
            char *end;
            unsigned long index = strtoul(choice, &end, 10);
            if (*end ? contains_nocase(p.deviceName, choice) : index == i) {
                best = (int)i;
                break;
            }
        } else if (p.apiVersion >= VK_API_VERSION_1_3 && type_rank(p.deviceType) < best_rank) {
            best_rank = type_rank(p.deviceType);
            best = (int)i;
        }
    }
    REQUIRE(best >= 0, "no Vulkan device matches (D3D12XS_DEVICE=%s)", choice ? choice : "");
    r->physical_device = devices[best];
}

static uint32_t raw_memory_type(struct raw *r, uint32_t bits, VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred)
{
    for (int pass = 0; pass < 2; pass++) {
        VkMemoryPropertyFlags wanted = required | (pass ? 0 : preferred);
        for (uint32_t i = 0; i < r->memory.memoryTypeCount; i++)
            if ((bits & (1u << i)) && (r->memory.memoryTypes[i].propertyFlags & wanted) == wanted)
                return i;
    }
    fail(__LINE__, "no memory type with flags 0x%x", (unsigned)required);
}

static struct vk_buffer raw_buffer(struct raw *r, VkDeviceSize size, VkBufferUsageFlags usage, VkMemoryPropertyFlags required,
        VkMemoryPropertyFlags preferred)
{
    VkBufferCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size,
        .usage = usage,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    VkMemoryRequirements requirements;
    struct vk_buffer b;

    VK(vkCreateBuffer(r->device, &info, NULL, &b.buffer));
    vkGetBufferMemoryRequirements(r->device, b.buffer, &requirements);
    VkMemoryAllocateInfo allocate = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = requirements.size,
        .memoryTypeIndex = raw_memory_type(r, requirements.memoryTypeBits, required, preferred),
    };
    VK(vkAllocateMemory(r->device, &allocate, NULL, &b.memory));
    VK(vkBindBufferMemory(r->device, b.buffer, b.memory, 0));
    return b;
}

static void raw_free_buffer(struct raw *r, struct vk_buffer *b)
{
    vkDestroyBuffer(r->device, b->buffer, NULL);
    vkFreeMemory(r->device, b->memory, NULL);
    memset(b, 0, sizeof(*b));
}

/* The same HLSL, compiled by shaderc with the options D3DCompile uses (HLSL, Vulkan 1.1
 * environment, SPIR-V 1.3, performance optimisation) plus RAW_VULKAN for the bindings. */
static VkShaderModule raw_shader(struct raw *r, const char *source)
{
    shaderc_compiler_t compiler = shaderc_compiler_initialize();
    shaderc_compile_options_t options = shaderc_compile_options_initialize();
    shaderc_compilation_result_t result;
    VkShaderModule module;

    REQUIRE(compiler && options, "cannot create the shaderc compiler");
    shaderc_compile_options_set_source_language(options, shaderc_source_language_hlsl);
    shaderc_compile_options_set_target_env(options, shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_1);
    shaderc_compile_options_set_target_spirv(options, shaderc_spirv_version_1_3);
    shaderc_compile_options_set_optimization_level(options, shaderc_optimization_level_performance);
    shaderc_compile_options_set_hlsl_offsets(options, true);
    shaderc_compile_options_add_macro_definition(options, "RAW_VULKAN", 10, "1", 1);
    result = shaderc_compile_into_spv(compiler, source, strlen(source), shaderc_compute_shader, "bench.hlsl", "main", options);
    if (shaderc_result_get_compilation_status(result) != shaderc_compilation_status_success)
        fail(__LINE__, "shaderc: %s", shaderc_result_get_error_message(result));
    VkShaderModuleCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = shaderc_result_get_length(result),
        .pCode = (const uint32_t *)shaderc_result_get_bytes(result),
    };
    VK(vkCreateShaderModule(r->device, &info, NULL, &module));
    shaderc_result_release(result);
    shaderc_compile_options_release(options);
    shaderc_compiler_release(compiler);
    return module;
}

/* A compute pipeline with `buffers` storage buffers in one push-descriptor set and 4 bytes of push constants. */
static struct vk_kernel raw_kernel(struct raw *r, const char *source, uint32_t buffers)
{
    VkDescriptorSetLayoutBinding bindings[2];
    struct vk_kernel k;

    for (uint32_t i = 0; i < buffers; i++)
        bindings[i] = (VkDescriptorSetLayoutBinding){i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    VkDescriptorSetLayoutCreateInfo set_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR,
        .bindingCount = buffers,
        .pBindings = bindings,
    };
    VK(vkCreateDescriptorSetLayout(r->device, &set_info, NULL, &k.set_layout));
    VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 4};
    VkPipelineLayoutCreateInfo layout_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1,
        .pSetLayouts = &k.set_layout,
        .pushConstantRangeCount = 1,
        .pPushConstantRanges = &range,
    };
    VK(vkCreatePipelineLayout(r->device, &layout_info, NULL, &k.layout));
    VkShaderModule module = raw_shader(r, source);
    VkComputePipelineCreateInfo pipeline_info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = VK_SHADER_STAGE_COMPUTE_BIT,
            .module = module,
            .pName = "main",
        },
        .layout = k.layout,
    };
    VK(vkCreateComputePipelines(r->device, VK_NULL_HANDLE, 1, &pipeline_info, NULL, &k.pipeline));
    vkDestroyShaderModule(r->device, module, NULL);
    return k;
}

static void raw_destroy_kernel(struct raw *r, struct vk_kernel *k)
{
    vkDestroyPipeline(r->device, k->pipeline, NULL);
    vkDestroyPipelineLayout(r->device, k->layout, NULL);
    vkDestroyDescriptorSetLayout(r->device, k->set_layout, NULL);
}

static void raw_push_buffers(struct raw *r, VkCommandBuffer cmd, const struct vk_kernel *k, const VkBuffer *buffers, uint32_t count)
{
    VkDescriptorBufferInfo infos[2];
    VkWriteDescriptorSet writes[2];
    for (uint32_t i = 0; i < count; i++) {
        infos[i] = (VkDescriptorBufferInfo){buffers[i], 0, VK_WHOLE_SIZE};
        writes[i] = (VkWriteDescriptorSet){
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstBinding = i,
            .descriptorCount = 1,
            .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            .pBufferInfo = &infos[i],
        };
    }
    r->vkCmdPushDescriptorSetKHR(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k->layout, 0, count, writes);
}

static VkCommandBuffer raw_command_buffer(struct raw *r)
{
    VkCommandBufferAllocateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = r->pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    VkCommandBuffer cmd;
    VK(vkAllocateCommandBuffers(r->device, &info, &cmd));
    return cmd;
}

static void raw_begin(VkCommandBuffer cmd)
{
    VkCommandBufferBeginInfo info = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    VK(vkBeginCommandBuffer(cmd, &info));
}

static void raw_barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage,
        VkAccessFlags2 dst_access)
{
    VkMemoryBarrier2 barrier = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
        .srcStageMask = src_stage,
        .srcAccessMask = src_access,
        .dstStageMask = dst_stage,
        .dstAccessMask = dst_access,
    };
    VkDependencyInfo dependency = {
        .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
        .memoryBarrierCount = 1,
        .pMemoryBarriers = &barrier,
    };
    vkCmdPipelineBarrier2(cmd, &dependency);
}

static void raw_submit_and_wait(struct raw *r, VkCommandBuffer cmd)
{
    VkSubmitInfo submit = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .commandBufferCount = 1,
        .pCommandBuffers = &cmd,
    };
    VK(vkQueueSubmit(r->queue, 1, &submit, r->fence));
    VK(vkWaitForFences(r->device, 1, &r->fence, VK_TRUE, UINT64_MAX));
    VK(vkResetFences(r->device, 1, &r->fence));
}

static void raw_init(struct raw *r)
{
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "bench_compute (raw Vulkan)",
        .apiVersion = VK_API_VERSION_1_3,
    };
    VkInstanceCreateInfo instance_info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
    VkQueueFamilyProperties families[16];
    uint32_t family_count = ARRAY_SIZE(families);
    int compute_only = -1, any_compute = -1;

    memset(r, 0, sizeof(*r));
    VK(vkCreateInstance(&instance_info, NULL, &r->instance));
    raw_pick_device(r);
    r->driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
    VkPhysicalDeviceProperties2 properties2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &r->driver};
    vkGetPhysicalDeviceProperties2(r->physical_device, &properties2);
    r->properties = properties2.properties;
    vkGetPhysicalDeviceMemoryProperties(r->physical_device, &r->memory);

    /* A compute-only family where there is one (as D3D12 COMPUTE queues get), else any compute family. */
    vkGetPhysicalDeviceQueueFamilyProperties(r->physical_device, &family_count, families);
    for (uint32_t i = 0; i < family_count; i++) {
        if (!(families[i].queueFlags & VK_QUEUE_COMPUTE_BIT))
            continue;
        if (any_compute < 0)
            any_compute = (int)i;
        if (compute_only < 0 && !(families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT))
            compute_only = (int)i;
    }
    REQUIRE(any_compute >= 0, "the device has no compute queue");
    r->family = (uint32_t)(compute_only >= 0 ? compute_only : any_compute);
    REQUIRE(families[r->family].timestampValidBits, "queue family %u has no timestamps", r->family);

    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue_info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = r->family,
        .queueCount = 1,
        .pQueuePriorities = &priority,
    };
    VkPhysicalDeviceVulkan13Features features13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, .synchronization2 = VK_TRUE};
    const char *extensions[] = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
    VkDeviceCreateInfo device_info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &features13,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &queue_info,
        .enabledExtensionCount = ARRAY_SIZE(extensions),
        .ppEnabledExtensionNames = extensions,
    };
    VK(vkCreateDevice(r->physical_device, &device_info, NULL, &r->device));
    vkGetDeviceQueue(r->device, r->family, 0, &r->queue);
    r->vkCmdPushDescriptorSetKHR = (PFN_vkCmdPushDescriptorSetKHR)vkGetDeviceProcAddr(r->device, "vkCmdPushDescriptorSetKHR");
    REQUIRE(r->vkCmdPushDescriptorSetKHR, "no vkCmdPushDescriptorSetKHR");

    VkFenceCreateInfo fence_info = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VK(vkCreateFence(r->device, &fence_info, NULL, &r->fence));
    VkCommandPoolCreateInfo pool_info = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .queueFamilyIndex = r->family};
    VK(vkCreateCommandPool(r->device, &pool_info, NULL, &r->pool));
    VkQueryPoolCreateInfo query_info = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, .queryType = VK_QUERY_TYPE_TIMESTAMP, .queryCount = 8};
    VK(vkCreateQueryPool(r->device, &query_info, NULL, &r->queries));

    r->tiny = raw_kernel(r, tiny_hlsl, 1);
    r->copy = raw_kernel(r, copy_hlsl, 2);
    r->tiny_output = raw_buffer(r, TINY_THREADS * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, 0,
            VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    r->record_cmd = raw_command_buffer(r);
}

/* Figure 1: N x (vkCmdPushConstants + vkCmdDispatch), from vkBeginCommandBuffer to vkEndCommandBuffer. */
static double raw_record(struct raw *r, unsigned n)
{
    VkCommandBuffer cmd = r->record_cmd;
    double start, end;

    start = now_ns();
    raw_begin(cmd);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->tiny.pipeline);
    raw_push_buffers(r, cmd, &r->tiny, &r->tiny_output.buffer, 1);
    for (unsigned i = 0; i < n; i++) {
        vkCmdPushConstants(cmd, r->tiny.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &i);
        vkCmdDispatch(cmd, 1, 1, 1);
    }
    VK(vkEndCommandBuffer(cmd));
    end = now_ns();
    return (end - start) / n;
}

/* The nearest raw Vulkan to the console calls: a value write is a barrier from earlier work
 * plus vkCmdUpdateBuffer; a mid-list wait ends the command buffer, begins the next (allocated
 * beforehand) and adds a barrier, which is what d3d12xs records for one. */
static double raw_record_console(struct raw *r, unsigned n, bool waits)
{
    VkCommandBuffer cmd = r->record_cmd;
    double start, end;

    if (waits && r->split_count < n) {
        VkCommandBufferAllocateInfo info = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = r->pool,
                .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = n};
        REQUIRE(r->split_cmds = realloc(r->split_cmds, n * sizeof(*r->split_cmds)), "out of memory");
        VK(vkAllocateCommandBuffers(r->device, &info, r->split_cmds));
        r->split_count = n;
    }
    start = now_ns();
    raw_begin(cmd);
    for (uint64_t i = 0; i < n; i++) {
        if (waits) {
            VK(vkEndCommandBuffer(cmd));
            raw_begin(cmd = r->split_cmds[i]);
            raw_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                    VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
        } else {
            raw_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, 0,
                    VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
            vkCmdUpdateBuffer(cmd, r->tiny_output.buffer, 128, 8, &i);
        }
    }
    VK(vkEndCommandBuffer(cmd));
    end = now_ns();
    return (end - start) / n;
}

static void raw_build_dispatch_cmd(struct raw *r, unsigned slot, bool barrier, unsigned n)
{
    VkCommandBuffer cmd = r->timed_cmds[slot] = raw_command_buffer(r);
    uint32_t value = 1;

    raw_begin(cmd);
    vkCmdResetQueryPool(cmd, r->queries, slot * 2, 2);
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, r->queries, slot * 2);
    /* Bound after the first timestamp, where d3d12xs binds too (at the first Dispatch). */
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->tiny.pipeline);
    vkCmdPushConstants(cmd, r->tiny.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &value);
    raw_push_buffers(r, cmd, &r->tiny, &r->tiny_output.buffer, 1);
    for (unsigned i = 0; i < n; i++) {
        if (barrier && i)
            raw_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                    VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
        vkCmdDispatch(cmd, 1, 1, 1);
        if (slot == 3) {
            uint64_t written = i;
            raw_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, 0, VK_PIPELINE_STAGE_2_COPY_BIT,
                    VK_ACCESS_2_TRANSFER_WRITE_BIT);
            vkCmdUpdateBuffer(cmd, r->tiny_output.buffer, 128, 8, &written);
        }
    }
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, r->queries, slot * 2 + 1);
    VK(vkEndCommandBuffer(cmd));
}

static void raw_setup_copy(struct raw *r, uint64_t size)
{
    const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    VkCommandBuffer cmd;
    void *mapped;

    r->copy_src = raw_buffer(r, size, usage, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    r->copy_dst = raw_buffer(r, size, usage, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    r->staging = raw_buffer(r, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
            VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
    VK(vkMapMemory(r->device, r->staging.memory, 0, VK_WHOLE_SIZE, 0, &mapped));
    fill_pattern(mapped, size / 4);
    vkUnmapMemory(r->device, r->staging.memory);

    cmd = raw_command_buffer(r);
    raw_begin(cmd);
    VkBufferCopy region = {0, 0, size};
    vkCmdCopyBuffer(cmd, r->staging.buffer, r->copy_src.buffer, 1, &region);
    raw_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
            VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    VK(vkEndCommandBuffer(cmd));
    raw_submit_and_wait(r, cmd);
    vkFreeCommandBuffers(r->device, r->pool, 1, &cmd);

    uint32_t groups_x = COPY_GROUPS_X;
    VkBuffer buffers[2] = {r->copy_src.buffer, r->copy_dst.buffer};
    cmd = r->timed_cmds[2] = raw_command_buffer(r);
    raw_begin(cmd);
    vkCmdResetQueryPool(cmd, r->queries, 4, 2);
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, r->queries, 4);
    /* Bound after the first timestamp, where d3d12xs binds too (at the Dispatch). */
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->copy.pipeline);
    vkCmdPushConstants(cmd, r->copy.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &groups_x);
    raw_push_buffers(r, cmd, &r->copy, buffers, 2);
    vkCmdDispatch(cmd, COPY_GROUPS_X, (uint32_t)(size / 16 / 64 / COPY_GROUPS_X), 1);
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, r->queries, 5);
    VK(vkEndCommandBuffer(cmd));
}

static void raw_verify_copy(struct raw *r, uint64_t size)
{
    VkCommandBuffer cmd = raw_command_buffer(r);
    VkBufferCopy region = {0, 0, size};
    void *mapped;

    VK(vkMapMemory(r->device, r->staging.memory, 0, VK_WHOLE_SIZE, 0, &mapped));
    memset(mapped, 0, size);
    raw_begin(cmd);
    raw_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
            VK_ACCESS_2_TRANSFER_READ_BIT);
    vkCmdCopyBuffer(cmd, r->copy_dst.buffer, r->staging.buffer, 1, &region);
    raw_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    VK(vkEndCommandBuffer(cmd));
    raw_submit_and_wait(r, cmd);
    vkFreeCommandBuffers(r->device, r->pool, 1, &cmd);
    check_pattern(mapped, size / 4, "raw Vulkan");
    vkUnmapMemory(r->device, r->staging.memory);
}

static double raw_run_timed(struct raw *r, unsigned slot)
{
    uint64_t ticks[2];
    raw_submit_and_wait(r, r->timed_cmds[slot]);
    VK(vkGetQueryPoolResults(r->device, r->queries, slot * 2, 2, sizeof(ticks), ticks, sizeof(uint64_t),
            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    return (double)(ticks[1] - ticks[0]) * (double)r->properties.limits.timestampPeriod;
}

static void raw_destroy(struct raw *r)
{
    vkDeviceWaitIdle(r->device);
    raw_free_buffer(r, &r->tiny_output);
    if (r->copy_src.buffer) {
        raw_free_buffer(r, &r->copy_src);
        raw_free_buffer(r, &r->copy_dst);
        raw_free_buffer(r, &r->staging);
    }
    raw_destroy_kernel(r, &r->tiny);
    raw_destroy_kernel(r, &r->copy);
    vkDestroyQueryPool(r->device, r->queries, NULL);
    vkDestroyCommandPool(r->device, r->pool, NULL);
    free(r->split_cmds);
    vkDestroyFence(r->device, r->fence, NULL);
    vkDestroyDevice(r->device, NULL);
    vkDestroyInstance(r->instance, NULL);
}

/* ======================================================================================= */
/* the table                                                                               */
/* ======================================================================================= */

struct figure {
    const char *arg;     /* the command-line argument that selects the figure */
    const char *key;     /* TSV name */
    const char *label;
    const char *unit;
    bool higher_is_better;
    double target;       /* ratio at or below which the figure is on target */
    bool measured;
    double d3d12xs, raw; /* medians */
    double d3d12xs_min, d3d12xs_max, raw_min, raw_max;
    double paired;       /* median over repetitions of (d3d12xs cost / raw cost) of the same repetition */
};

static void set_samples(struct figure *f, const double *d3d_samples, const double *raw_samples, unsigned count)
{
    f->measured = true;
    f->d3d12xs = median(d3d_samples, count);
    f->raw = median(raw_samples, count);
    f->d3d12xs_min = f->d3d12xs_max = d3d_samples[0];
    f->raw_min = f->raw_max = raw_samples[0];
    double pairs[MAX_REPS];
    for (unsigned i = 0; i < count; i++)
        pairs[i] = f->higher_is_better ? raw_samples[i] / d3d_samples[i] : d3d_samples[i] / raw_samples[i];
    f->paired = median(pairs, count);
    for (unsigned i = 1; i < count; i++) {
        f->d3d12xs_min = d3d_samples[i] < f->d3d12xs_min ? d3d_samples[i] : f->d3d12xs_min;
        f->d3d12xs_max = d3d_samples[i] > f->d3d12xs_max ? d3d_samples[i] : f->d3d12xs_max;
        f->raw_min = raw_samples[i] < f->raw_min ? raw_samples[i] : f->raw_min;
        f->raw_max = raw_samples[i] > f->raw_max ? raw_samples[i] : f->raw_max;
    }
}

/* d3d12xs's cost over raw Vulkan's from the medians: above 1 means d3d12xs is slower. */
static double ratio(const struct figure *f)
{
    return f->higher_is_better ? f->raw / f->d3d12xs : f->d3d12xs / f->raw;
}

static void write_tsv(const char *path, const struct figure *figures, unsigned count, const struct d3d *d, const struct raw *r,
        const struct params *p)
{
    FILE *f = fopen(path, "w");
    REQUIRE(f, "cannot write D3D12XS_BENCH_OUT=%s", path);
    fprintf(f, "# bench_compute\tdevice=%s\tdriver=%s %s\traw_device=%s\tcpu_n=%u\tcpu_reps=%u\tgpu_n=%u\tgpu_reps=%u\tcopy_bytes=%llu\tcopy_reps=%u\n",
            d->info.DeviceName, d->info.DriverName, d->info.DriverInfo, r->properties.deviceName, p->cpu_dispatches, p->cpu_reps,
            p->gpu_dispatches, p->gpu_reps, (unsigned long long)p->copy_bytes, p->copy_reps);
    fprintf(f, "# figure\tunit\td3d12xs\traw_vulkan\tratio\ttarget\tratio_of_medians\td3d12xs_min\td3d12xs_max\traw_min\traw_max\n");
    for (unsigned i = 0; i < count; i++) {
        const struct figure *g = &figures[i];
        if (g->measured)
            fprintf(f, "%s\t%s\t%.4f\t%.4f\t%.4f\t%.2f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\n", g->key, g->unit, g->d3d12xs, g->raw, g->paired,
                    g->target, ratio(g), g->d3d12xs_min, g->d3d12xs_max, g->raw_min, g->raw_max);
    }
    REQUIRE(fclose(f) == 0, "cannot write D3D12XS_BENCH_OUT=%s", path);
}

enum {FIGURE_CPU, FIGURE_GPU, FIGURE_GPU_BARRIER, FIGURE_COPY, FIGURE_GPU_BOP, FIGURE_CPU_BOP, FIGURE_CPU_WAIT, FIGURE_COUNT};

/* Both sides run their timed work untimed this long first, so the GPU is at its working clock. */
#define GPU_WARM_UP_NS 1e9

int main(int argc, char **argv)
{
    struct figure figures[FIGURE_COUNT] = {
        {.arg = "cpu", .key = "cpu_ns_per_dispatch_root_constant", .label = "CPU ns / Dispatch + root constant", .unit = "ns", .target = 1.2},
        {.arg = "gpu", .key = "gpu_us_per_dispatch", .label = "GPU us / Dispatch, no barrier", .unit = "us", .target = 1.05},
        {.arg = "gpu_barrier", .key = "gpu_us_per_dispatch_uav_barrier", .label = "GPU us / Dispatch, UAV barrier", .unit = "us",
                .target = 1.05},
        {.arg = "copy", .key = "copy_kernel_gbps", .label = "copy kernel GB/s (read+write)", .unit = "GB/s", .higher_is_better = true,
                .target = 1.05},
        {.arg = "gpu_bop", .key = "gpu_us_per_dispatch_bop_write", .label = "GPU us / Dispatch + BOP write", .unit = "us", .target = 1.05},
        {.arg = "cpu_bop", .key = "cpu_ns_per_bop_write", .label = "CPU ns / Write64BitValueBottomOfPipeX", .unit = "ns", .target = 1.2},
        {.arg = "cpu_wait", .key = "cpu_ns_per_wait_value", .label = "CPU ns / Wait64BitValueX", .unit = "ns", .target = 1.5},
    };
    bool run[FIGURE_COUNT];
    double d3d_samples[MAX_REPS], raw_samples[MAX_REPS];
    const char *out = getenv("D3D12XS_BENCH_OUT");
    struct params p;
    struct d3d d;
    struct raw r;

    /* Arguments pick figures by key (for profiling one path); none runs them all. */
    for (unsigned i = 0; i < FIGURE_COUNT; i++)
        run[i] = argc < 2;
    for (int a = 1; a < argc; a++) {
        unsigned i = 0;
        while (i < FIGURE_COUNT && strcmp(argv[a], figures[i].arg))
            i++;
        if (i == FIGURE_COUNT) {
            fprintf(stderr, "usage: %s [cpu] [gpu] [gpu_barrier] [copy] [gpu_bop] [cpu_bop] [cpu_wait]   (no argument: all)\n", argv[0]);
            return 2;
        }
        run[i] = true;
    }

    /* No validation layer: it would measure itself. */
    setenv("D3D12XS_DEBUG", "0", 1);
    /* lavapipe mallocs every recorded command and frees it on reset; keep glibc from handing
     * the freed heap back to the kernel, or the CPU figure measures page faults (both sides). */
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    setvbuf(stdout, NULL, _IOLBF, 0);

    d3d_init(&d);
    raw_init(&r);
    if (d.info.IsSoftwareRasterizer)
        p = (struct params){100000, 15, 1000, 31, 64ull << 20, 9};
    else
        p = (struct params){100000, 15, 10000, 15, 256ull << 20, 15};

    printf("d3d12xs device : %s (%s, %s), COMPUTE queue family %u\n", d.info.DeviceName, d.info.DriverName, d.info.DriverInfo,
            d.info.Queues[D3D12_COMMAND_LIST_TYPE_COMPUTE].VulkanQueueFamily);
    printf("raw Vulkan     : %s (%s, %s), queue family %u\n", r.properties.deviceName, r.driver.driverName, r.driver.driverInfo, r.family);
    if (strcmp(d.info.DeviceName, r.properties.deviceName) || d.info.Queues[D3D12_COMMAND_LIST_TYPE_COMPUTE].VulkanQueueFamily != r.family)
        printf("WARNING: the two sides do not run on the same device and queue family\n");
    printf("CPU figure: %u dispatches x %u reps; GPU figures: %u dispatches x %u reps; copy: %llu MiB x %u reps; medians, sides alternating\n",
            p.cpu_dispatches, p.cpu_reps, p.gpu_dispatches, p.gpu_reps, (unsigned long long)(p.copy_bytes >> 20), p.copy_reps);

    /* 2. GPU time per tiny dispatch, without and with barriers between dispatches, and with a
     * bottom-of-pipe value write after each (slot 3). */
    for (unsigned slot = 0; slot < 4; slot++) {
        unsigned figure = slot == 3 ? FIGURE_GPU_BOP : FIGURE_GPU + slot;
        if (slot == 2 || !run[figure])
            continue;
        d3d_build_dispatch_list(&d, slot, slot == 1, p.gpu_dispatches);
        raw_build_dispatch_cmd(&r, slot, slot == 1, p.gpu_dispatches);
        /* The GPU idled through the CPU figure and runs at a low clock until kept busy: without
         * this the H200 showed 0.53 instead of 0.16 us per dispatch, and side-dependent ratios. */
        for (double start = now_ns(); now_ns() - start < GPU_WARM_UP_NS;) {
            d3d_run_timed(&d, slot);
            raw_run_timed(&r, slot);
        }
        for (unsigned i = 0; i <= p.gpu_reps; i++) { /* a warm-up, then alternating sides */
            for (unsigned k = 0; k < 2; k++) {
                if ((i + k) % 2)
                    raw_samples[i ? i - 1 : 0] = raw_run_timed(&r, slot) / p.gpu_dispatches / 1e3;
                else
                    d3d_samples[i ? i - 1 : 0] = d3d_run_timed(&d, slot) / p.gpu_dispatches / 1e3;
            }
        }
        set_samples(&figures[figure], d3d_samples, raw_samples, p.gpu_reps);
    }

    /* 3. Copy kernel bandwidth; the first run of each side is checked word by word. */
    if (run[FIGURE_COPY]) {
        d3d_setup_copy(&d, p.copy_bytes);
        raw_setup_copy(&r, p.copy_bytes);
        d3d_run_timed(&d, 2);
        raw_run_timed(&r, 2);
        d3d_verify_copy(&d, p.copy_bytes);
        raw_verify_copy(&r, p.copy_bytes);
        for (double start = now_ns(); now_ns() - start < GPU_WARM_UP_NS;) {
            d3d_run_timed(&d, 2);
            raw_run_timed(&r, 2);
        }
        for (unsigned i = 0; i < p.copy_reps; i++) {
            for (unsigned k = 0; k < 2; k++) {
                if ((i + k) % 2)
                    raw_samples[i] = 2.0 * (double)p.copy_bytes / raw_run_timed(&r, 2);
                else
                    d3d_samples[i] = 2.0 * (double)p.copy_bytes / d3d_run_timed(&d, 2);
            }
        }
        set_samples(&figures[FIGURE_COPY], d3d_samples, raw_samples, p.copy_reps);
    }

    /* 1. CPU recording cost, measured last: measured first, it left the H200 running d3d12xs's
     * barrier-separated dispatches at 2.04 us instead of 1.87 us (docs/benchmarks.md). Both
     * sides' recordings are freed before each timed one, so both start from the same heap;
     * which side goes first alternates. One warm-up each. */
    if (run[FIGURE_CPU]) {
        for (unsigned i = 0; i <= p.cpu_reps; i++) {
            for (unsigned k = 0; k < 2; k++) {
                HR(ID3D12CommandAllocator_Reset(d.record_allocator));
                VK(vkResetCommandPool(r.device, r.pool, 0));
                if ((i + k) % 2)
                    raw_samples[i ? i - 1 : 0] = raw_record(&r, p.cpu_dispatches);
                else
                    d3d_samples[i ? i - 1 : 0] = d3d_record(&d, p.cpu_dispatches);
            }
        }
        set_samples(&figures[FIGURE_CPU], d3d_samples, raw_samples, p.cpu_reps);
        HR(ID3D12CommandAllocator_Reset(d.record_allocator));
        VK(vkResetCommandPool(r.device, r.pool, 0));
    }
    /* The console calls' recording cost, the same way; a tenth as many (each wait is a segment). */
    for (unsigned waits = 0; waits < 2; waits++) {
        unsigned figure = waits ? FIGURE_CPU_WAIT : FIGURE_CPU_BOP, n = p.cpu_dispatches / 10;
        if (!run[figure])
            continue;
        for (unsigned i = 0; i <= p.cpu_reps; i++) {
            for (unsigned k = 0; k < 2; k++) {
                HR(ID3D12CommandAllocator_Reset(d.record_allocator));
                VK(vkResetCommandPool(r.device, r.pool, 0));
                if ((i + k) % 2)
                    raw_samples[i ? i - 1 : 0] = raw_record_console(&r, n, waits);
                else
                    d3d_samples[i ? i - 1 : 0] = d3d_record_console(&d, n, waits);
            }
        }
        set_samples(&figures[figure], d3d_samples, raw_samples, p.cpu_reps);
        HR(ID3D12CommandAllocator_Reset(d.record_allocator));
    }

    printf("\n%-34s %10s %11s %7s %8s %8s   %s\n", "figure", "d3d12xs", "raw Vulkan", "ratio", "target", "med/med",
            "range d3d12xs | raw");
    for (unsigned i = 0; i < FIGURE_COUNT; i++) {
        const struct figure *f = &figures[i];
        if (!f->measured)
            continue;
        printf("%-34s %10.3f %11.3f %7.3f %5s%.2f %8.3f   %.3f-%.3f | %.3f-%.3f%s\n", f->label, f->d3d12xs, f->raw, f->paired, "<= ",
                f->target, ratio(f), f->d3d12xs_min, f->d3d12xs_max, f->raw_min, f->raw_max, f->paired > f->target ? "   OVER TARGET" : "");
    }
    printf("d3d12xs, raw Vulkan: medians. ratio: d3d12xs cost / raw Vulkan cost (GB/s: raw / d3d12xs) per repetition, the two\n"
           "sides back to back, median over repetitions; above 1 means d3d12xs is slower. med/med: the ratio of the medians.\n");
    if (out && *out)
        write_tsv(out, figures, FIGURE_COUNT, &d, &r, &p);

    raw_destroy(&r);
    d3d_destroy(&d);
    return 0;
}
