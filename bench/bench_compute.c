/* bench_compute: d3d12xs compute paths against hand-written Vulkan doing the same work,
 * on the same physical device, in the same run. See docs/benchmarks.md.
 *
 *   1. CPU ns per recorded Dispatch that also changes a root constant
 *   2. GPU us per back-to-back Dispatch (1 group of 64 threads), without and with a UAV barrier,
 *      and with a value written after each (64-bit bottom-of-pipe write; 32-bit marker write:
 *      what a breadcrumb after every command would cost, docs/trace.md)
 *   3. GB/s of an HLSL buffer-copy kernel (bytes read + written / GPU time)
 *
 * Each ratio is d3d12xs's cost over raw Vulkan's (time / time, or raw GB/s / d3d12xs GB/s) in
 * one repetition, the two sides back to back, median over repetitions: above 1 means d3d12xs
 * is slower. D3D12XS_BENCH_OUT=<path> also writes the table as TSV. Arguments (cpu, gpu,
 * gpu_barrier, copy, gpu_bop, gpu_marker, cpu_bop, cpu_wait) run only those figures. */
#include <malloc.h>

#include "bench_util.h"

const char *bench_name = "bench_compute";

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
            bench_fail(__LINE__, "%s copy kernel: word %llu is 0x%08x, expected 0x%08x", side, (unsigned long long)i, words[i], pattern(i));
}

/* ---- the kernels: one HLSL source each, compiled by D3DCompile for d3d12xs and by shaderc
 * (with RAW_VULKAN defined) for raw Vulkan. The only difference is the binding annotations:
 * d3d12xs maps registers through the root signature; raw Vulkan needs explicit ones
 * (BENCH_HLSL_PROLOGUE). ---- */

/* Figures 1 and 2: one uint per thread, from a root constant. */
static const char tiny_hlsl[] = BENCH_HLSL_PROLOGUE
    "PUSH_CONSTANTS(Constants) { uint value; };\n"
    "BINDING(0) RWByteAddressBuffer output : register(u0);\n"
    "[numthreads(64, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, value + id.x); }\n";

/* Figure 3: one uint4 per thread; groups_x is the dispatch width (2D grid: > 65535 groups). */
static const char copy_hlsl[] = BENCH_HLSL_PROLOGUE
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
/* The timed lists (command buffers): no barrier, barrier, copy, 64-bit bottom-of-pipe writes,
 * 32-bit bottom-of-pipe marker writes. */
#define TIMED_SLOTS 5
#define SLOT_BOP 3
#define SLOT_MARKER 4
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
    struct bench_d3d_queue q;      /* COMPUTE */
    ID3D12QueryHeap *queries;      /* two per timed list: no barrier, barrier, copy, BOP writes, marker writes */
    ID3D12Resource *query_results; /* READBACK, 10 UINT64 */

    ID3D12RootSignature *tiny_signature, *copy_signature;
    ID3D12PipelineState *tiny_pipeline, *copy_pipeline;
    ID3D12Resource *tiny_output;

    ID3D12CommandAllocator *record_allocator; /* figure 1 */
    ID3D12GraphicsCommandList *record_list;
    ID3D12CommandAllocator *timed_allocators[TIMED_SLOTS];
    ID3D12GraphicsCommandList *timed_lists[TIMED_SLOTS];
    ID3D12Resource *sync_memory;                /* READBACK: the CPU figures' value writes and waits */

    ID3D12Resource *copy_src, *copy_dst;
};
/* The lists are ID3D12GraphicsCommandList (bench_d3d_new_list's): d3d12xs hands out the same
 * object, with the same methods, for every ID3D12GraphicsCommandList version. */

static void d3d_init(struct d3d *d)
{
    D3D12_QUERY_HEAP_DESC query_desc = {D3D12_QUERY_HEAP_TYPE_TIMESTAMP, TIMED_SLOTS * 2, 0};
    D3D12_ROOT_PARAMETER1 parameters[3];

    memset(d, 0, sizeof(*d));
    HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&d->device));
    HR(D3D12XSGetDeviceInfo(d->device, &d->info));
    REQUIRE(!d->info.ValidationLayerEnabled, "the validation layer is on (D3D12XS_DEBUG): the figures would be meaningless");
    bench_d3d_queue_init(d->device, &d->q, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    HR(ID3D12Device_CreateQueryHeap(d->device, &query_desc, &IID_ID3D12QueryHeap, (void **)&d->queries));
    d->query_results = bench_d3d_buffer(d->device, D3D12_HEAP_TYPE_READBACK, TIMED_SLOTS * 2 * sizeof(UINT64), D3D12_RESOURCE_FLAG_NONE,
            D3D12_RESOURCE_STATE_COPY_DEST);
    d->sync_memory = bench_d3d_buffer(d->device, D3D12_HEAP_TYPE_READBACK, 256, D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_COPY_DEST);

    /* Tiny kernel: root constant b0 + root UAV u0. */
    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 1;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    d->tiny_signature = bench_d3d_root_signature(d->device, parameters, 2);
    d->tiny_pipeline = bench_d3d_pipeline(d->device, d->tiny_signature, tiny_hlsl, NULL);
    d->tiny_output = bench_d3d_buffer(d->device, D3D12_HEAP_TYPE_DEFAULT, TINY_THREADS * 4, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS,
            D3D12_RESOURCE_STATE_UNORDERED_ACCESS);

    /* Copy kernel: root constant b0 + root SRV t0 + root UAV u0. */
    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 1;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV;
    parameters[2].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    d->copy_signature = bench_d3d_root_signature(d->device, parameters, 3);
    d->copy_pipeline = bench_d3d_pipeline(d->device, d->copy_signature, copy_hlsl, NULL);

    /* Figure 1's list is created and closed here; each repetition resets it. */
    bench_d3d_new_list(d->device, d->q.type, &d->record_allocator, &d->record_list);
    HR(ID3D12GraphicsCommandList_Close(d->record_list));
}

/* Figure 1: N x (SetComputeRoot32BitConstant + Dispatch), from Reset to Close. */
static double d3d_record(struct d3d *d, unsigned n)
{
    ID3D12GraphicsCommandList *list = d->record_list;
    D3D12_GPU_VIRTUAL_ADDRESS output = ID3D12Resource_GetGPUVirtualAddress(d->tiny_output);
    double start, end;

    start = bench_now_ns();
    HR(ID3D12GraphicsCommandList_Reset(list, d->record_allocator, NULL));
    ID3D12GraphicsCommandList_SetComputeRootSignature(list, d->tiny_signature);
    ID3D12GraphicsCommandList_SetPipelineState(list, d->tiny_pipeline);
    ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(list, 1, output);
    for (unsigned i = 0; i < n; i++) {
        ID3D12GraphicsCommandList_SetComputeRoot32BitConstant(list, 0, i, 0);
        ID3D12GraphicsCommandList_Dispatch(list, 1, 1, 1);
    }
    HR(ID3D12GraphicsCommandList_Close(list));
    end = bench_now_ns();
    return (end - start) / n;
}

/* CPU figures of the console calls: N x Write64BitValueBottomOfPipeX, or N x Wait64BitValueX
 * (each cuts the list: a new command buffer, and one for a GPU-side wait where those are on). */
static double d3d_record_console(struct d3d *d, unsigned n, bool waits)
{
    ID3D12GraphicsCommandList *list = d->record_list;
    D3D12_GPU_VIRTUAL_ADDRESS address = ID3D12Resource_GetGPUVirtualAddress(waits ? d->sync_memory : d->tiny_output);
    double start, end;

    start = bench_now_ns();
    HR(ID3D12GraphicsCommandList_Reset(list, d->record_allocator, NULL));
    for (unsigned i = 0; i < n; i++) {
        if (waits)
            ID3D12GraphicsCommandList_Wait64BitValueX(list, address, D3D12_COMPARISON_FUNC_GREATER_EQUAL, i, D3D12XBOX_WAIT_FLAG_NONE);
        else
            ID3D12GraphicsCommandList_Write64BitValueBottomOfPipeX(list, address, i, D3D12XBOX_FLUSH_NONE, D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
    }
    HR(ID3D12GraphicsCommandList_Close(list));
    end = bench_now_ns();
    return (end - start) / n;
}

/* Figure 2's lists: timestamp, N dispatches (UAV barriers between them, or a bottom-of-pipe
 * write after each, if asked), timestamp. */
static void d3d_build_dispatch_list(struct d3d *d, unsigned slot, bool barrier, unsigned n)
{
    ID3D12GraphicsCommandList *list;
    D3D12_RESOURCE_BARRIER uav;

    bench_d3d_new_list(d->device, d->q.type, &d->timed_allocators[slot], &d->timed_lists[slot]);
    list = d->timed_lists[slot];
    memset(&uav, 0, sizeof(uav));
    uav.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
    uav.UAV.pResource = d->tiny_output;
    ID3D12GraphicsCommandList_SetComputeRootSignature(list, d->tiny_signature);
    ID3D12GraphicsCommandList_SetPipelineState(list, d->tiny_pipeline);
    ID3D12GraphicsCommandList_SetComputeRoot32BitConstant(list, 0, 1, 0);
    ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(list, 1, ID3D12Resource_GetGPUVirtualAddress(d->tiny_output));
    ID3D12GraphicsCommandList_EndQuery(list, d->queries, D3D12_QUERY_TYPE_TIMESTAMP, slot * 2);
    for (unsigned i = 0; i < n; i++) {
        if (barrier && i)
            ID3D12GraphicsCommandList_ResourceBarrier(list, 1, &uav);
        ID3D12GraphicsCommandList_Dispatch(list, 1, 1, 1);
        if (slot == SLOT_BOP)
            ID3D12GraphicsCommandList_Write64BitValueBottomOfPipeX(list, ID3D12Resource_GetGPUVirtualAddress(d->tiny_output) + 128,
                    i, D3D12XBOX_FLUSH_NONE, D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
        if (slot == SLOT_MARKER)
            ID3D12GraphicsCommandList_Write32BitValueBottomOfPipe2X(list, ID3D12Resource_GetGPUVirtualAddress(d->tiny_output) + 128,
                    i, D3D12XBOX_SYNC_FLAG_NONE, D3D12XBOX_SYNC_CONTROL_FLAG_NONE, D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
    }
    ID3D12GraphicsCommandList_EndQuery(list, d->queries, D3D12_QUERY_TYPE_TIMESTAMP, slot * 2 + 1);
    ID3D12GraphicsCommandList_ResolveQueryData(list, d->queries, D3D12_QUERY_TYPE_TIMESTAMP, slot * 2, 2, d->query_results,
            slot * 2 * sizeof(UINT64));
    HR(ID3D12GraphicsCommandList_Close(list));
}

static void d3d_setup_copy(struct d3d *d, uint64_t size)
{
    ID3D12GraphicsCommandList *list;
    ID3D12CommandAllocator *allocator;
    ID3D12Resource *upload;
    D3D12_RESOURCE_BARRIER barrier;
    void *mapped = NULL;

    d->copy_src = bench_d3d_buffer(d->device, D3D12_HEAP_TYPE_DEFAULT, size, D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_COPY_DEST);
    d->copy_dst = bench_d3d_buffer(d->device, D3D12_HEAP_TYPE_DEFAULT, size, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS,
            D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    upload = bench_d3d_buffer(d->device, D3D12_HEAP_TYPE_UPLOAD, size, D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_GENERIC_READ);
    HR(ID3D12Resource_Map(upload, 0, NULL, &mapped));
    fill_pattern(mapped, size / 4);
    ID3D12Resource_Unmap(upload, 0, NULL);

    bench_d3d_new_list(d->device, d->q.type, &allocator, &list);
    ID3D12GraphicsCommandList_CopyBufferRegion(list, d->copy_src, 0, upload, 0, size);
    barrier = bench_d3d_transition(d->copy_src, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE);
    ID3D12GraphicsCommandList_ResourceBarrier(list, 1, &barrier);
    HR(ID3D12GraphicsCommandList_Close(list));
    bench_d3d_execute_and_wait(&d->q, list);
    ID3D12GraphicsCommandList_Release(list);
    ID3D12CommandAllocator_Release(allocator);
    ID3D12Resource_Release(upload);

    bench_d3d_new_list(d->device, d->q.type, &d->timed_allocators[2], &d->timed_lists[2]);
    list = d->timed_lists[2];
    ID3D12GraphicsCommandList_SetComputeRootSignature(list, d->copy_signature);
    ID3D12GraphicsCommandList_SetPipelineState(list, d->copy_pipeline);
    ID3D12GraphicsCommandList_SetComputeRoot32BitConstant(list, 0, COPY_GROUPS_X, 0);
    ID3D12GraphicsCommandList_SetComputeRootShaderResourceView(list, 1, ID3D12Resource_GetGPUVirtualAddress(d->copy_src));
    ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(list, 2, ID3D12Resource_GetGPUVirtualAddress(d->copy_dst));
    ID3D12GraphicsCommandList_EndQuery(list, d->queries, D3D12_QUERY_TYPE_TIMESTAMP, 4);
    ID3D12GraphicsCommandList_Dispatch(list, COPY_GROUPS_X, (UINT)(size / 16 / 64 / COPY_GROUPS_X), 1);
    ID3D12GraphicsCommandList_EndQuery(list, d->queries, D3D12_QUERY_TYPE_TIMESTAMP, 5);
    ID3D12GraphicsCommandList_ResolveQueryData(list, d->queries, D3D12_QUERY_TYPE_TIMESTAMP, 4, 2, d->query_results, 4 * sizeof(UINT64));
    HR(ID3D12GraphicsCommandList_Close(list));
}

static void d3d_verify_copy(struct d3d *d, uint64_t size)
{
    ID3D12Resource *readback = bench_d3d_read_back(d->device, &d->q, d->copy_dst, size);
    void *mapped = NULL;

    HR(ID3D12Resource_Map(readback, 0, NULL, &mapped));
    check_pattern(mapped, size / 4, "d3d12xs");
    ID3D12Resource_Unmap(readback, 0, NULL);
    ID3D12Resource_Release(readback);
}

/* Runs timed list `slot` once; returns the GPU nanoseconds between its two timestamps. */
static double d3d_run_timed(struct d3d *d, unsigned slot)
{
    D3D12_RANGE range = {slot * 2 * sizeof(UINT64), (slot * 2 + 2) * sizeof(UINT64)};
    UINT64 *ticks = NULL;
    double ns;

    bench_d3d_execute_and_wait(&d->q, d->timed_lists[slot]);
    HR(ID3D12Resource_Map(d->query_results, 0, &range, (void **)&ticks));
    ns = (double)(ticks[slot * 2 + 1] - ticks[slot * 2]) * 1e9 / (double)d->q.frequency;
    ID3D12Resource_Unmap(d->query_results, 0, NULL);
    return ns;
}

static void d3d_destroy(struct d3d *d)
{
    if (d->sync_memory)
        ID3D12Resource_Release(d->sync_memory);
    for (unsigned i = 0; i < TIMED_SLOTS; i++) {
        if (d->timed_lists[i])
            ID3D12GraphicsCommandList_Release(d->timed_lists[i]);
        if (d->timed_allocators[i])
            ID3D12CommandAllocator_Release(d->timed_allocators[i]);
    }
    ID3D12GraphicsCommandList_Release(d->record_list);
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
    bench_d3d_queue_destroy(&d->q);
    ID3D12Device_Release(d->device);
}

/* ======================================================================================= */
/* raw Vulkan side                                                                         */
/* ======================================================================================= */

struct raw {
    struct bench_vk vk;
    struct bench_vk_queue q;            /* the compute family's queue, command pool and fence */
    VkQueryPool queries;                /* two per timed command buffer (TIMED_SLOTS) */
    PFN_vkCmdWriteBufferMarker2AMD vkCmdWriteBufferMarker2AMD; /* where the device has VK_AMD_buffer_marker */

    struct bench_vk_kernel tiny, copy;
    struct bench_vk_buffer tiny_output;

    VkCommandBuffer record_cmd;         /* figure 1 */
    VkCommandBuffer timed_cmds[TIMED_SLOTS];
    VkCommandBuffer *split_cmds;        /* the CPU figure of waits: a command buffer per wait */
    unsigned split_count;

    struct bench_vk_buffer copy_src, copy_dst, staging;
};

/* Kept: begins a command buffer allocated beforehand (bench_vk_begin also allocates one, which
 * the CPU figures must not time). */
static void raw_begin(VkCommandBuffer cmd)
{
    VkCommandBufferBeginInfo info = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    VK(vkBeginCommandBuffer(cmd, &info));
}

static void raw_init(struct raw *r)
{
    VkQueryPoolCreateInfo query_info = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, .queryType = VK_QUERY_TYPE_TIMESTAMP,
            .queryCount = TIMED_SLOTS * 2};
    const char *marker_extension = VK_AMD_BUFFER_MARKER_EXTENSION_NAME;
    uint32_t family;

    memset(r, 0, sizeof(*r));
    bench_vk_open(&r->vk, "bench_compute (raw Vulkan)");
    family = bench_vk_compute_family(r->vk.physical_device);
    /* The marker figure writes with vkCmdWriteBufferMarker2AMD where the device has it, as
     * d3d12xs does (docs/sync.md), and with a barrier and vkCmdUpdateBuffer where it has not. */
    if (bench_vk_has_device_extension(r->vk.physical_device, marker_extension)) {
        bench_vk_create_device_with(&r->vk, &family, 1, &r->q, &marker_extension, 1, NULL);
        r->vkCmdWriteBufferMarker2AMD = (PFN_vkCmdWriteBufferMarker2AMD)vkGetDeviceProcAddr(r->vk.device, "vkCmdWriteBufferMarker2AMD");
    } else {
        bench_vk_create_device(&r->vk, &family, 1, &r->q);
    }
    VK(vkCreateQueryPool(r->vk.device, &query_info, NULL, &r->queries));

    /* 4 bytes of push constants; the device's subgroup size. */
    r->tiny = bench_vk_kernel(&r->vk, bench_vk_shader(&r->vk, tiny_hlsl, false, NULL), 1, 4, 0);
    r->copy = bench_vk_kernel(&r->vk, bench_vk_shader(&r->vk, copy_hlsl, false, NULL), 2, 4, 0);
    r->tiny_output = bench_vk_buffer(&r->vk, TINY_THREADS * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, 0,
            VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    VkCommandBufferAllocateInfo info = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = r->q.pool,
            .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1};
    VK(vkAllocateCommandBuffers(r->vk.device, &info, &r->record_cmd));
}

/* Figure 1: N x (vkCmdPushConstants + vkCmdDispatch), from vkBeginCommandBuffer to vkEndCommandBuffer. */
static double raw_record(struct raw *r, unsigned n)
{
    VkCommandBuffer cmd = r->record_cmd;
    double start, end;

    start = bench_now_ns();
    raw_begin(cmd);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->tiny.pipeline);
    bench_vk_push_buffers(&r->vk, cmd, &r->tiny, &r->tiny_output.buffer, 1);
    for (unsigned i = 0; i < n; i++) {
        vkCmdPushConstants(cmd, r->tiny.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &i);
        vkCmdDispatch(cmd, 1, 1, 1);
    }
    VK(vkEndCommandBuffer(cmd));
    end = bench_now_ns();
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
        VkCommandBufferAllocateInfo info = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = r->q.pool,
                .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = n};
        REQUIRE(r->split_cmds = realloc(r->split_cmds, n * sizeof(*r->split_cmds)), "out of memory");
        VK(vkAllocateCommandBuffers(r->vk.device, &info, r->split_cmds));
        r->split_count = n;
    }
    start = bench_now_ns();
    raw_begin(cmd);
    for (uint64_t i = 0; i < n; i++) {
        if (waits) {
            VK(vkEndCommandBuffer(cmd));
            raw_begin(cmd = r->split_cmds[i]);
            bench_vk_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                    VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
        } else {
            bench_vk_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, 0,
                    VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
            vkCmdUpdateBuffer(cmd, r->tiny_output.buffer, 128, 8, &i);
        }
    }
    VK(vkEndCommandBuffer(cmd));
    end = bench_now_ns();
    return (end - start) / n;
}

static void raw_build_dispatch_cmd(struct raw *r, unsigned slot, bool barrier, unsigned n)
{
    VkCommandBuffer cmd = r->timed_cmds[slot] = bench_vk_begin(&r->vk, &r->q);
    uint32_t value = 1;

    vkCmdResetQueryPool(cmd, r->queries, slot * 2, 2);
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, r->queries, slot * 2);
    /* Bound after the first timestamp, where d3d12xs binds too (at the first Dispatch). */
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->tiny.pipeline);
    vkCmdPushConstants(cmd, r->tiny.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &value);
    bench_vk_push_buffers(&r->vk, cmd, &r->tiny, &r->tiny_output.buffer, 1);
    for (unsigned i = 0; i < n; i++) {
        if (barrier && i)
            bench_vk_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                    VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
        vkCmdDispatch(cmd, 1, 1, 1);
        if (slot == SLOT_MARKER && r->vkCmdWriteBufferMarker2AMD) {
            r->vkCmdWriteBufferMarker2AMD(cmd, VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT, r->tiny_output.buffer, 128, i);
        } else if (slot == SLOT_BOP || slot == SLOT_MARKER) {
            uint64_t written = i;
            bench_vk_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, 0,
                    VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
            vkCmdUpdateBuffer(cmd, r->tiny_output.buffer, 128, slot == SLOT_BOP ? 8 : 4, &written);
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

    r->copy_src = bench_vk_buffer(&r->vk, size, usage, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    r->copy_dst = bench_vk_buffer(&r->vk, size, usage, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    r->staging = bench_vk_buffer(&r->vk, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
            VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
    VK(vkMapMemory(r->vk.device, r->staging.memory, 0, VK_WHOLE_SIZE, 0, &mapped));
    fill_pattern(mapped, size / 4);
    vkUnmapMemory(r->vk.device, r->staging.memory);

    cmd = bench_vk_begin(&r->vk, &r->q);
    VkBufferCopy region = {0, 0, size};
    vkCmdCopyBuffer(cmd, r->staging.buffer, r->copy_src.buffer, 1, &region);
    bench_vk_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
            VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    VK(vkEndCommandBuffer(cmd));
    bench_vk_submit_and_wait(&r->vk, &r->q, cmd);
    vkFreeCommandBuffers(r->vk.device, r->q.pool, 1, &cmd);

    uint32_t groups_x = COPY_GROUPS_X;
    VkBuffer buffers[2] = {r->copy_src.buffer, r->copy_dst.buffer};
    cmd = r->timed_cmds[2] = bench_vk_begin(&r->vk, &r->q);
    vkCmdResetQueryPool(cmd, r->queries, 4, 2);
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, r->queries, 4);
    /* Bound after the first timestamp, where d3d12xs binds too (at the Dispatch). */
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->copy.pipeline);
    vkCmdPushConstants(cmd, r->copy.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &groups_x);
    bench_vk_push_buffers(&r->vk, cmd, &r->copy, buffers, 2);
    vkCmdDispatch(cmd, COPY_GROUPS_X, (uint32_t)(size / 16 / 64 / COPY_GROUPS_X), 1);
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, r->queries, 5);
    VK(vkEndCommandBuffer(cmd));
}

static void raw_verify_copy(struct raw *r, uint64_t size)
{
    void *mapped;
    struct bench_vk_buffer readback = bench_vk_read_back(&r->vk, &r->q, r->copy_dst.buffer, size, &mapped);

    check_pattern(mapped, size / 4, "raw Vulkan");
    vkUnmapMemory(r->vk.device, readback.memory);
    bench_vk_free_buffer(&r->vk, &readback);
}

static double raw_run_timed(struct raw *r, unsigned slot)
{
    uint64_t ticks[2];
    bench_vk_submit_and_wait(&r->vk, &r->q, r->timed_cmds[slot]);
    VK(vkGetQueryPoolResults(r->vk.device, r->queries, slot * 2, 2, sizeof(ticks), ticks, sizeof(uint64_t),
            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    return (double)(ticks[1] - ticks[0]) * (double)r->vk.properties.limits.timestampPeriod;
}

static void raw_destroy(struct raw *r)
{
    vkDeviceWaitIdle(r->vk.device);
    bench_vk_free_buffer(&r->vk, &r->tiny_output);
    if (r->copy_src.buffer) {
        bench_vk_free_buffer(&r->vk, &r->copy_src);
        bench_vk_free_buffer(&r->vk, &r->copy_dst);
        bench_vk_free_buffer(&r->vk, &r->staging);
    }
    bench_vk_destroy_kernel(&r->vk, &r->tiny);
    bench_vk_destroy_kernel(&r->vk, &r->copy);
    vkDestroyQueryPool(r->vk.device, r->queries, NULL);
    free(r->split_cmds);
    bench_vk_queue_destroy(&r->vk, &r->q);
    bench_vk_destroy(&r->vk);
}

/* ======================================================================================= */
/* the table                                                                               */
/* ======================================================================================= */

static void write_tsv(const char *path, const struct bench_row *figures, unsigned count, const struct d3d *d, const struct raw *r,
        const struct params *p)
{
    FILE *f = fopen(path, "w");
    REQUIRE(f, "cannot write D3D12XS_BENCH_OUT=%s", path);
    fprintf(f, "# bench_compute\tdevice=%s\tdriver=%s %s\traw_device=%s\tcpu_n=%u\tcpu_reps=%u\tgpu_n=%u\tgpu_reps=%u\tcopy_bytes=%llu\tcopy_reps=%u\n",
            d->info.DeviceName, d->info.DriverName, d->info.DriverInfo, r->vk.properties.deviceName, p->cpu_dispatches, p->cpu_reps,
            p->gpu_dispatches, p->gpu_reps, (unsigned long long)p->copy_bytes, p->copy_reps);
    bench_rows_tsv(f, figures, count);
    REQUIRE(fclose(f) == 0, "cannot write D3D12XS_BENCH_OUT=%s", path);
}

enum {FIGURE_CPU, FIGURE_GPU, FIGURE_GPU_BARRIER, FIGURE_COPY, FIGURE_GPU_BOP, FIGURE_GPU_MARKER, FIGURE_CPU_BOP, FIGURE_CPU_WAIT,
      FIGURE_COUNT};

/* Both sides run their timed work untimed this long first, so the GPU is at its working clock. */
#define GPU_WARM_UP_NS 1e9

int main(int argc, char **argv)
{
    struct bench_row figures[FIGURE_COUNT] = {
        {.arg = "cpu", .key = "cpu_ns_per_dispatch_root_constant", .label = "CPU ns / Dispatch + root constant", .unit = "ns", .target = 1.2},
        {.arg = "gpu", .key = "gpu_us_per_dispatch", .label = "GPU us / Dispatch, no barrier", .unit = "us", .target = 1.05},
        {.arg = "gpu_barrier", .key = "gpu_us_per_dispatch_uav_barrier", .label = "GPU us / Dispatch, UAV barrier", .unit = "us",
                .target = 1.05},
        {.arg = "copy", .key = "copy_kernel_gbps", .label = "copy kernel GB/s (read+write)", .unit = "GB/s", .higher_is_better = true,
                .target = 1.05},
        {.arg = "gpu_bop", .key = "gpu_us_per_dispatch_bop_write", .label = "GPU us / Dispatch + BOP write", .unit = "us", .target = 1.05},
        {.arg = "gpu_marker", .key = "gpu_us_per_dispatch_marker_write", .label = "GPU us / Dispatch + 32-bit marker", .unit = "us",
                .target = 1.05},
        {.arg = "cpu_bop", .key = "cpu_ns_per_bop_write", .label = "CPU ns / Write64BitValueBottomOfPipeX", .unit = "ns", .target = 1.2},
        {.arg = "cpu_wait", .key = "cpu_ns_per_wait_value", .label = "CPU ns / Wait64BitValueX", .unit = "ns", .target = 1.5},
    };
    bool run[FIGURE_COUNT];
    double d3d_samples[BENCH_MAX_REPS], raw_samples[BENCH_MAX_REPS];
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
            fprintf(stderr, "usage: %s [cpu] [gpu] [gpu_barrier] [copy] [gpu_bop] [gpu_marker] [cpu_bop] [cpu_wait]   (no argument: all)\n", argv[0]);
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
    printf("raw Vulkan     : %s (%s, %s), queue family %u\n", r.vk.properties.deviceName, r.vk.driver.driverName, r.vk.driver.driverInfo,
            r.q.family);
    if (strcmp(d.info.DeviceName, r.vk.properties.deviceName) || d.info.Queues[D3D12_COMMAND_LIST_TYPE_COMPUTE].VulkanQueueFamily != r.q.family)
        printf("WARNING: the two sides do not run on the same device and queue family\n");
    printf("CPU figure: %u dispatches x %u reps; GPU figures: %u dispatches x %u reps; copy: %llu MiB x %u reps; medians, sides alternating\n",
            p.cpu_dispatches, p.cpu_reps, p.gpu_dispatches, p.gpu_reps, (unsigned long long)(p.copy_bytes >> 20), p.copy_reps);

    /* 2. GPU time per tiny dispatch, without and with barriers between dispatches, and with a
     * bottom-of-pipe value write after each (64-bit, then 32-bit). */
    for (unsigned slot = 0; slot < TIMED_SLOTS; slot++) {
        unsigned figure = slot == SLOT_MARKER ? FIGURE_GPU_MARKER : slot == SLOT_BOP ? FIGURE_GPU_BOP : FIGURE_GPU + slot;
        if (slot == 2 || !run[figure])
            continue;
        d3d_build_dispatch_list(&d, slot, slot == 1, p.gpu_dispatches);
        raw_build_dispatch_cmd(&r, slot, slot == 1, p.gpu_dispatches);
        /* The GPU idled through the CPU figure and runs at a low clock until kept busy: without
         * this the H200 showed 0.53 instead of 0.16 us per dispatch, and side-dependent ratios. */
        for (double start = bench_now_ns(); bench_now_ns() - start < GPU_WARM_UP_NS;) {
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
        bench_row_set(&figures[figure], d3d_samples, raw_samples, p.gpu_reps);
    }

    /* 3. Copy kernel bandwidth; the first run of each side is checked word by word. */
    if (run[FIGURE_COPY]) {
        d3d_setup_copy(&d, p.copy_bytes);
        raw_setup_copy(&r, p.copy_bytes);
        d3d_run_timed(&d, 2);
        raw_run_timed(&r, 2);
        d3d_verify_copy(&d, p.copy_bytes);
        raw_verify_copy(&r, p.copy_bytes);
        for (double start = bench_now_ns(); bench_now_ns() - start < GPU_WARM_UP_NS;) {
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
        bench_row_set(&figures[FIGURE_COPY], d3d_samples, raw_samples, p.copy_reps);
    }

    /* 1. CPU recording cost, measured last: measured first, it left the H200 running d3d12xs's
     * barrier-separated dispatches at 2.04 us instead of 1.87 us (docs/benchmarks.md). Both
     * sides' recordings are freed before each timed one, so both start from the same heap;
     * which side goes first alternates. One warm-up each. */
    if (run[FIGURE_CPU]) {
        for (unsigned i = 0; i <= p.cpu_reps; i++) {
            for (unsigned k = 0; k < 2; k++) {
                HR(ID3D12CommandAllocator_Reset(d.record_allocator));
                VK(vkResetCommandPool(r.vk.device, r.q.pool, 0));
                if ((i + k) % 2)
                    raw_samples[i ? i - 1 : 0] = raw_record(&r, p.cpu_dispatches);
                else
                    d3d_samples[i ? i - 1 : 0] = d3d_record(&d, p.cpu_dispatches);
            }
        }
        bench_row_set(&figures[FIGURE_CPU], d3d_samples, raw_samples, p.cpu_reps);
        HR(ID3D12CommandAllocator_Reset(d.record_allocator));
        VK(vkResetCommandPool(r.vk.device, r.q.pool, 0));
    }
    /* The console calls' recording cost, the same way; a tenth as many (each wait is a segment). */
    for (unsigned waits = 0; waits < 2; waits++) {
        unsigned figure = waits ? FIGURE_CPU_WAIT : FIGURE_CPU_BOP, n = p.cpu_dispatches / 10;
        if (!run[figure])
            continue;
        for (unsigned i = 0; i <= p.cpu_reps; i++) {
            for (unsigned k = 0; k < 2; k++) {
                HR(ID3D12CommandAllocator_Reset(d.record_allocator));
                VK(vkResetCommandPool(r.vk.device, r.q.pool, 0));
                if ((i + k) % 2)
                    raw_samples[i ? i - 1 : 0] = raw_record_console(&r, n, waits);
                else
                    d3d_samples[i ? i - 1 : 0] = d3d_record_console(&d, n, waits);
            }
        }
        bench_row_set(&figures[figure], d3d_samples, raw_samples, p.cpu_reps);
        HR(ID3D12CommandAllocator_Reset(d.record_allocator));
    }

    bench_rows_print(figures, FIGURE_COUNT, 34);
    printf("d3d12xs, raw Vulkan: medians. ratio: d3d12xs cost / raw Vulkan cost (GB/s: raw / d3d12xs) per repetition, the two\n"
           "sides back to back, median over repetitions; above 1 means d3d12xs is slower. med/med: the ratio of the medians.\n");
    if (out && *out)
        write_tsv(out, figures, FIGURE_COUNT, &d, &r, &p);

    raw_destroy(&r);
    d3d_destroy(&d);
    return 0;
}
