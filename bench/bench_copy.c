/* bench_copy: a buffer copy kernel towards the memory limit, d3d12xs (HLSL through D3DCompile)
 * against raw Vulkan (GLSL and HLSL through shaderc), same device, same run. See
 * docs/benchmarks.md.
 *
 * Every kernel is the same loop: 256-thread groups, a grid-stride loop over 16-byte elements
 * (uvec4 / uint4), `count` elements, `stride` = threads in the grid. The d3d12xs side compiles
 * HLSL with D3DCompile in two forms, ByteAddressBuffer Load4/Store4 and
 * StructuredBuffer<uint4>/RWStructuredBuffer<uint4>; the raw side runs the GLSL uvec4 kernel
 * and the same two HLSL sources compiled by shaderc directly (glslang's SPIR-V without
 * D3DCompile's fix-ups). Each kernel copies into its own destination, checked word by word
 * after its first run. GB/s = 2 x bytes / GPU time between two timestamps around the one
 * dispatch. Each d3d12xs form's ratio is its GB/s over the best raw kernel's (best median) in
 * the same repetition, median over repetitions; the target is >= 0.97. The ByteAddressBuffer
 * form runs a second time compiled with D3D12XS_NO_VECTORIZE=1 (glslang's four 32-bit accesses
 * per Load4/Store4, before src/spirv/spirv_vectorize.c), for comparison, without a target.
 *
 * Arguments: mib=N (bytes copied, default 1024 on a GPU, 64 on a CPU device), groups=N
 * (default: one group per 16 x 256 elements, at most 65535). */
#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.h>

#include "bench_util.h"

/* the header's inline definition gets its external one here (C99 6.7.4) */
extern void SpvHasResultAndType(SpvOp opcode, bool *hasResult, bool *hasResultType);

const char *bench_name = "bench_copy";

static const char copy_hlsl[] =
    BENCH_HLSL_PROLOGUE
    "PUSH_CONSTANTS(Constants) { uint count; uint stride; };\n"
    "#ifdef STRUCTURED\n"
    "BINDING(0) StructuredBuffer<uint4> src : register(t0);\n"
    "BINDING(1) RWStructuredBuffer<uint4> dst : register(u0);\n"
    "#define COPY(i) dst[i] = src[i]\n"
    "#else\n"
    "BINDING(0) ByteAddressBuffer src : register(t0);\n"
    "BINDING(1) RWByteAddressBuffer dst : register(u0);\n"
    "#define COPY(i) dst.Store4((i) * 16, src.Load4((i) * 16))\n"
    "#endif\n"
    "[numthreads(256, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID)\n"
    "{\n"
    "    for (uint i = id.x; i < count; i += stride)\n"
    "        COPY(i);\n"
    "}\n";

static const char copy_glsl[] =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(std430, set = 0, binding = 0) readonly buffer Src { uvec4 src[]; };\n"
    "layout(std430, set = 0, binding = 1) writeonly buffer Dst { uvec4 dst[]; };\n"
    "layout(push_constant) uniform Constants { uint count; uint stride; };\n"
    "void main()\n"
    "{\n"
    "    for (uint i = gl_GlobalInvocationID.x; i < count; i += stride)\n"
    "        dst[i] = src[i];\n"
    "}\n";

enum {D3D_BYTE_ADDRESS, D3D_BYTE_ADDRESS_SCALAR, D3D_STRUCTURED, D3D_FORMS};
enum {RAW_GLSL, RAW_BYTE_ADDRESS, RAW_STRUCTURED, RAW_KERNELS};
static const char *const d3d_names[D3D_FORMS] = {"d3d12xs ByteAddressBuffer Load4/Store4",
        "  same, D3D12XS_NO_VECTORIZE=1 (32-bit)", "d3d12xs StructuredBuffer<uint4>"};
static const char *const raw_names[RAW_KERNELS] = {"raw GLSL uvec4", "raw HLSL ByteAddressBuffer (shaderc)",
        "raw HLSL StructuredBuffer<uint4> (shaderc)"};
#define TARGET 0.97

struct bench {
    uint64_t size;
    uint32_t groups, constants[2];
    ID3D12Device *device;
    D3D12XS_DEVICE_INFO info;
    struct bench_d3d_queue queue;
    ID3D12RootSignature *signature;
    ID3D12QueryHeap *timestamps;
    ID3D12Resource *resolved, *src, *dst[D3D_FORMS];
    ID3D12PipelineState *pipelines[D3D_FORMS];
    unsigned vector_loads[D3D_FORMS], vector_stores[D3D_FORMS], scalar_loads[D3D_FORMS];
    ID3D12CommandAllocator *allocators[D3D_FORMS];
    ID3D12GraphicsCommandList *lists[D3D_FORMS];

    struct bench_vk vk;
    struct bench_vk_queue vk_queue;
    VkQueryPool vk_timestamps;
    struct bench_vk_buffer vk_src, vk_dst[RAW_KERNELS];
    struct bench_vk_kernel kernels[RAW_KERNELS];
    VkCommandBuffer cmds[RAW_KERNELS];
};

static uint32_t pattern(uint64_t i)
{
    return (uint32_t)(i * 2654435761u) ^ 0x5bd1e995u;
}

static void check_pattern(const uint32_t *words, uint64_t count, const char *name)
{
    for (uint64_t i = 0; i < count; i++)
        if (words[i] != pattern(i))
            bench_fail(__LINE__, "%s: word %llu is 0x%08x, expected 0x%08x", name, (unsigned long long)i, words[i], pattern(i));
}

/* Counts the 16-byte (4 x 32-bit vector) loads and stores of storage and the 32-bit scalar
 * loads in a SPIR-V blob: what the driver is handed for the copy. */
static void count_accesses(const uint32_t *w, size_t count, unsigned *vector_loads, unsigned *vector_stores, unsigned *scalar_loads)
{
    uint32_t bound = w[3], *type_of = calloc(bound, sizeof(*type_of));
    uint8_t *vec4 = calloc(bound, 1), *int32 = calloc(bound, 1);

    REQUIRE(type_of && vec4 && int32, "out of memory");
    *vector_loads = *vector_stores = *scalar_loads = 0;
    for (size_t o = 5; o < count && (w[o] >> 16); o += w[o] >> 16) {
        uint32_t op = w[o] & 0xffff, n = w[o] >> 16;
        bool has_result, has_type;
        if (op == SpvOpTypeInt && n >= 3 && w[o + 2] == 32 && w[o + 1] < bound)
            int32[w[o + 1]] = 1;
        if (op == SpvOpTypeVector && n >= 4 && w[o + 1] < bound && w[o + 2] < bound && int32[w[o + 2]] && w[o + 3] == 4)
            vec4[w[o + 1]] = 1;
        SpvHasResultAndType((SpvOp)op, &has_result, &has_type);
        if (has_result && has_type && n >= 3 && w[o + 2] < bound)
            type_of[w[o + 2]] = w[o + 1];
        if (op == SpvOpLoad && n >= 4 && w[o + 1] < bound)
            *vector_loads += vec4[w[o + 1]], *scalar_loads += int32[w[o + 1]];
        if (op == SpvOpStore && n >= 3 && w[o + 2] < bound && type_of[w[o + 2]] < bound)
            *vector_stores += vec4[type_of[w[o + 2]]];
    }
    free(type_of);
    free(vec4);
    free(int32);
}

static void init_d3d(struct bench *b)
{
    D3D12_QUERY_HEAP_DESC query_desc = {D3D12_QUERY_HEAP_TYPE_TIMESTAMP, D3D_FORMS * 2, 0};
    D3D12_ROOT_PARAMETER1 parameters[3];
    D3D_SHADER_MACRO structured[] = {{"STRUCTURED", "1"}, {NULL, NULL}};
    ID3D12CommandAllocator *allocator;
    ID3D12GraphicsCommandList *list;
    ID3D12Resource *upload;
    D3D12_RESOURCE_BARRIER barrier;
    void *mapped = NULL;

    bench_d3d_queue_init(b->device, &b->queue, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    HR(ID3D12Device_CreateQueryHeap(b->device, &query_desc, &IID_ID3D12QueryHeap, (void **)&b->timestamps));
    b->resolved = bench_d3d_buffer(b->device, D3D12_HEAP_TYPE_READBACK, D3D_FORMS * 2 * sizeof(UINT64), D3D12_RESOURCE_FLAG_NONE,
            D3D12_RESOURCE_STATE_COPY_DEST);
    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 2;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV;
    parameters[2].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    b->signature = bench_d3d_root_signature(b->device, parameters, 3);
    for (unsigned f = 0; f < D3D_FORMS; f++) {
        const D3D_SHADER_MACRO *defines = f == D3D_STRUCTURED ? structured : NULL;
        D3D12_COMPUTE_PIPELINE_STATE_DESC desc;
        ID3DBlob *code;
        /* the ByteAddressBuffer form once more as glslang made it: four 32-bit accesses */
        if (f == D3D_BYTE_ADDRESS_SCALAR)
            setenv("D3D12XS_NO_VECTORIZE", "1", 1);
        code = bench_d3d_compile(copy_hlsl, defines);
        unsetenv("D3D12XS_NO_VECTORIZE");
        count_accesses(ID3D10Blob_GetBufferPointer(code), ID3D10Blob_GetBufferSize(code) / 4, &b->vector_loads[f],
                &b->vector_stores[f], &b->scalar_loads[f]);
        memset(&desc, 0, sizeof(desc));
        desc.pRootSignature = b->signature;
        desc.CS.pShaderBytecode = ID3D10Blob_GetBufferPointer(code);
        desc.CS.BytecodeLength = ID3D10Blob_GetBufferSize(code);
        HR(ID3D12Device_CreateComputePipelineState(b->device, &desc, &IID_ID3D12PipelineState, (void **)&b->pipelines[f]));
        ID3D10Blob_Release(code);
        b->dst[f] = bench_d3d_buffer(b->device, D3D12_HEAP_TYPE_DEFAULT, b->size, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS,
                D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    }

    b->src = bench_d3d_buffer(b->device, D3D12_HEAP_TYPE_DEFAULT, b->size, D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_COPY_DEST);
    upload = bench_d3d_buffer(b->device, D3D12_HEAP_TYPE_UPLOAD, b->size, D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_GENERIC_READ);
    HR(ID3D12Resource_Map(upload, 0, NULL, &mapped));
    for (uint64_t i = 0; i < b->size / 4; i++)
        ((uint32_t *)mapped)[i] = pattern(i);
    ID3D12Resource_Unmap(upload, 0, NULL);
    bench_d3d_new_list(b->device, D3D12_COMMAND_LIST_TYPE_COMPUTE, &allocator, &list);
    ID3D12GraphicsCommandList_CopyBufferRegion(list, b->src, 0, upload, 0, b->size);
    barrier = bench_d3d_transition(b->src, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE);
    ID3D12GraphicsCommandList_ResourceBarrier(list, 1, &barrier);
    HR(ID3D12GraphicsCommandList_Close(list));
    bench_d3d_execute_and_wait(&b->queue, list);
    ID3D12GraphicsCommandList_Release(list);
    ID3D12CommandAllocator_Release(allocator);
    ID3D12Resource_Release(upload);

    for (unsigned f = 0; f < D3D_FORMS; f++) {
        bench_d3d_new_list(b->device, D3D12_COMMAND_LIST_TYPE_COMPUTE, &b->allocators[f], &b->lists[f]);
        list = b->lists[f];
        ID3D12GraphicsCommandList_SetComputeRootSignature(list, b->signature);
        ID3D12GraphicsCommandList_SetPipelineState(list, b->pipelines[f]);
        ID3D12GraphicsCommandList_SetComputeRoot32BitConstants(list, 0, 2, b->constants, 0);
        ID3D12GraphicsCommandList_SetComputeRootShaderResourceView(list, 1, ID3D12Resource_GetGPUVirtualAddress(b->src));
        ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(list, 2, ID3D12Resource_GetGPUVirtualAddress(b->dst[f]));
        ID3D12GraphicsCommandList_EndQuery(list, b->timestamps, D3D12_QUERY_TYPE_TIMESTAMP, f * 2);
        ID3D12GraphicsCommandList_Dispatch(list, b->groups, 1, 1);
        ID3D12GraphicsCommandList_EndQuery(list, b->timestamps, D3D12_QUERY_TYPE_TIMESTAMP, f * 2 + 1);
        ID3D12GraphicsCommandList_ResolveQueryData(list, b->timestamps, D3D12_QUERY_TYPE_TIMESTAMP, f * 2, 2, b->resolved,
                f * 2 * sizeof(UINT64));
        HR(ID3D12GraphicsCommandList_Close(list));
    }
}

static void init_raw(struct bench *b)
{
    const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    const char *structured[] = {"STRUCTURED", "1", NULL};
    uint32_t family = b->info.Queues[D3D12_COMMAND_LIST_TYPE_COMPUTE].VulkanQueueFamily;
    struct bench_vk_buffer staging;
    VkCommandBuffer cmd;
    void *mapped;

    bench_vk_init(&b->vk, "bench_copy (raw Vulkan)", &family, 1, &b->vk_queue);
    VkQueryPoolCreateInfo query_info = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, .queryType = VK_QUERY_TYPE_TIMESTAMP,
            .queryCount = RAW_KERNELS * 2};
    VK(vkCreateQueryPool(b->vk.device, &query_info, NULL, &b->vk_timestamps));
    b->kernels[RAW_GLSL] = bench_vk_kernel(&b->vk, bench_vk_shader(&b->vk, copy_glsl, true, NULL), 2, 8, 0);
    b->kernels[RAW_BYTE_ADDRESS] = bench_vk_kernel(&b->vk, bench_vk_shader(&b->vk, copy_hlsl, false, NULL), 2, 8, 0);
    b->kernels[RAW_STRUCTURED] = bench_vk_kernel(&b->vk, bench_vk_shader(&b->vk, copy_hlsl, false, structured), 2, 8, 0);

    b->vk_src = bench_vk_buffer(&b->vk, b->size, usage, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    for (unsigned k = 0; k < RAW_KERNELS; k++)
        b->vk_dst[k] = bench_vk_buffer(&b->vk, b->size, usage, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    staging = bench_vk_buffer(&b->vk, b->size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
            VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 0);
    VK(vkMapMemory(b->vk.device, staging.memory, 0, VK_WHOLE_SIZE, 0, &mapped));
    for (uint64_t i = 0; i < b->size / 4; i++)
        ((uint32_t *)mapped)[i] = pattern(i);
    vkUnmapMemory(b->vk.device, staging.memory);
    cmd = bench_vk_begin(&b->vk, &b->vk_queue);
    VkBufferCopy region = {0, 0, b->size};
    vkCmdCopyBuffer(cmd, staging.buffer, b->vk_src.buffer, 1, &region);
    bench_vk_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
            VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    VK(vkEndCommandBuffer(cmd));
    bench_vk_submit_and_wait(&b->vk, &b->vk_queue, cmd);
    vkFreeCommandBuffers(b->vk.device, b->vk_queue.pool, 1, &cmd);
    bench_vk_free_buffer(&b->vk, &staging);

    for (unsigned k = 0; k < RAW_KERNELS; k++) {
        VkBuffer buffers[2] = {b->vk_src.buffer, b->vk_dst[k].buffer};
        cmd = b->cmds[k] = bench_vk_begin(&b->vk, &b->vk_queue);
        vkCmdResetQueryPool(cmd, b->vk_timestamps, k * 2, 2);
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, b->vk_timestamps, k * 2);
        /* bound after the first timestamp, where d3d12xs binds too (at the Dispatch) */
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, b->kernels[k].pipeline);
        vkCmdPushConstants(cmd, b->kernels[k].layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(b->constants), b->constants);
        bench_vk_push_buffers(&b->vk, cmd, &b->kernels[k], buffers, 2);
        vkCmdDispatch(cmd, b->groups, 1, 1);
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, b->vk_timestamps, k * 2 + 1);
        VK(vkEndCommandBuffer(cmd));
    }
}

/* GB/s of one run of d3d12xs form f / raw kernel k. */
static double d3d_run(struct bench *b, unsigned f)
{
    D3D12_RANGE range = {f * 2 * sizeof(UINT64), (f * 2 + 2) * sizeof(UINT64)};
    UINT64 *ticks = NULL;
    double ns;

    bench_d3d_execute_and_wait(&b->queue, b->lists[f]);
    HR(ID3D12Resource_Map(b->resolved, 0, &range, (void **)&ticks));
    ns = (double)(ticks[f * 2 + 1] - ticks[f * 2]) * 1e9 / (double)b->queue.frequency;
    ID3D12Resource_Unmap(b->resolved, 0, NULL);
    return 2.0 * (double)b->size / ns;
}

static double raw_run(struct bench *b, unsigned k)
{
    uint64_t ticks[2];
    bench_vk_submit_and_wait(&b->vk, &b->vk_queue, b->cmds[k]);
    VK(vkGetQueryPoolResults(b->vk.device, b->vk_timestamps, k * 2, 2, sizeof(ticks), ticks, sizeof(uint64_t),
            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    return 2.0 * (double)b->size / ((double)(ticks[1] - ticks[0]) * (double)b->vk.properties.limits.timestampPeriod);
}

static void verify(struct bench *b)
{
    void *mapped = NULL;
    for (unsigned f = 0; f < D3D_FORMS; f++) {
        ID3D12Resource *readback = bench_d3d_read_back(b->device, &b->queue, b->dst[f], b->size);
        HR(ID3D12Resource_Map(readback, 0, NULL, &mapped));
        check_pattern(mapped, b->size / 4, d3d_names[f]);
        ID3D12Resource_Unmap(readback, 0, NULL);
        ID3D12Resource_Release(readback);
    }
    for (unsigned k = 0; k < RAW_KERNELS; k++) {
        struct bench_vk_buffer staging = bench_vk_read_back(&b->vk, &b->vk_queue, b->vk_dst[k].buffer, b->size, &mapped);
        check_pattern(mapped, b->size / 4, raw_names[k]);
        vkUnmapMemory(b->vk.device, staging.memory);
        bench_vk_free_buffer(&b->vk, &staging);
    }
}

static void destroy(struct bench *b)
{
    vkDeviceWaitIdle(b->vk.device);
    for (unsigned k = 0; k < RAW_KERNELS; k++) {
        bench_vk_destroy_kernel(&b->vk, &b->kernels[k]);
        bench_vk_free_buffer(&b->vk, &b->vk_dst[k]);
    }
    bench_vk_free_buffer(&b->vk, &b->vk_src);
    vkDestroyQueryPool(b->vk.device, b->vk_timestamps, NULL);
    bench_vk_queue_destroy(&b->vk, &b->vk_queue);
    bench_vk_destroy(&b->vk);
    for (unsigned f = 0; f < D3D_FORMS; f++) {
        ID3D12GraphicsCommandList_Release(b->lists[f]);
        ID3D12CommandAllocator_Release(b->allocators[f]);
        ID3D12PipelineState_Release(b->pipelines[f]);
        ID3D12Resource_Release(b->dst[f]);
    }
    ID3D12Resource_Release(b->src);
    ID3D12Resource_Release(b->resolved);
    ID3D12QueryHeap_Release(b->timestamps);
    ID3D12RootSignature_Release(b->signature);
    bench_d3d_queue_destroy(&b->queue);
    ID3D12Device_Release(b->device);
}

#define GPU_WARM_UP_NS 1e9

int main(int argc, char **argv)
{
    static struct bench b;
    double d3d_samples[D3D_FORMS][BENCH_MAX_REPS], raw_samples[RAW_KERNELS][BENCH_MAX_REPS];
    unsigned long mib = 0, groups = 0, reps;
    unsigned best = 0;

    for (int a = 1; a < argc; a++) {
        bool ok = false;
        if (!strncmp(argv[a], "mib=", 4))
            ok = (mib = strtoul(argv[a] + 4, NULL, 0)) && mib <= 2048;
        else if (!strncmp(argv[a], "groups=", 7))
            ok = (groups = strtoul(argv[a] + 7, NULL, 0)) && groups <= 65535;
        if (!ok) {
            fprintf(stderr, "usage: %s [mib=1..2048] [groups=1..65535]\n", argv[0]);
            return 2;
        }
    }
    setenv("D3D12XS_DEBUG", "0", 1); /* no validation layer: it would measure itself */
    setvbuf(stdout, NULL, _IOLBF, 0);
    HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&b.device));
    HR(D3D12XSGetDeviceInfo(b.device, &b.info));
    REQUIRE(!b.info.ValidationLayerEnabled, "the validation layer is on (D3D12XS_DEBUG): the figures would be meaningless");
    b.size = (uint64_t)(mib ? mib : b.info.IsSoftwareRasterizer ? 64 : 1024) << 20;
    reps = b.info.IsSoftwareRasterizer ? 9 : 15;
    if (!groups) {
        groups = (unsigned long)(b.size / 16 / 256 / 16);
        groups = groups > 65535 ? 65535 : groups ? groups : 1;
    }
    b.groups = (uint32_t)groups;
    b.constants[0] = (uint32_t)(b.size / 16);
    b.constants[1] = b.groups * 256;
    init_d3d(&b);
    init_raw(&b);
    REQUIRE(b.size <= b.vk.properties.limits.maxStorageBufferRange, "%llu MiB is more than the device's maxStorageBufferRange (%u bytes)",
            (unsigned long long)(b.size >> 20), b.vk.properties.limits.maxStorageBufferRange);

    printf("d3d12xs device : %s (%s, %s), COMPUTE queue family %u\n", b.info.DeviceName, b.info.DriverName, b.info.DriverInfo,
            b.info.Queues[D3D12_COMMAND_LIST_TYPE_COMPUTE].VulkanQueueFamily);
    printf("raw Vulkan     : %s (%s, %s), the same family\n", b.vk.properties.deviceName, b.vk.driver.driverName,
            b.vk.driver.driverInfo);
    if (strcmp(b.info.DeviceName, b.vk.properties.deviceName))
        printf("WARNING: the two sides do not run on the same device\n");
    printf("copy           : %llu MiB, %u groups of 256 threads, grid-stride loop over 16-byte elements (%.1f per thread); "
            "%lu reps, medians, kernels in rotating order\n", (unsigned long long)(b.size >> 20), b.groups,
            (double)b.constants[0] / b.constants[1], reps);
    for (unsigned f = 0; f < D3D_FORMS; f++)
        printf("D3DCompile SPIR-V, %-41s: %u 16-byte loads, %u 16-byte stores, %u 32-bit loads (constants included)\n", d3d_names[f],
                b.vector_loads[f], b.vector_stores[f], b.scalar_loads[f]);

    /* first runs, checked word by word; then the warm-up */
    for (unsigned f = 0; f < D3D_FORMS; f++)
        d3d_run(&b, f);
    for (unsigned k = 0; k < RAW_KERNELS; k++)
        raw_run(&b, k);
    verify(&b);
    if (!b.info.IsSoftwareRasterizer)
        for (double start = bench_now_ns(); bench_now_ns() - start < GPU_WARM_UP_NS;) {
            for (unsigned f = 0; f < D3D_FORMS; f++)
                d3d_run(&b, f);
            for (unsigned k = 0; k < RAW_KERNELS; k++)
                raw_run(&b, k);
        }

    for (unsigned rep = 0; rep < reps; rep++) {
        for (unsigned j = 0; j < D3D_FORMS + RAW_KERNELS; j++) {
            unsigned which = (j + rep) % (D3D_FORMS + RAW_KERNELS);
            if (which < D3D_FORMS)
                d3d_samples[which][rep] = d3d_run(&b, which);
            else
                raw_samples[which - D3D_FORMS][rep] = raw_run(&b, which - D3D_FORMS);
        }
    }
    for (unsigned k = 1; k < RAW_KERNELS; k++)
        if (bench_median(raw_samples[k], reps) > bench_median(raw_samples[best], reps))
            best = k;

    printf("\n%-44s %9s %8s %8s   %s\n", "kernel", "GB/s", "ratio", "target", "range GB/s");
    for (unsigned k = 0; k < RAW_KERNELS; k++) {
        struct bench_rates r = bench_rates(raw_samples[k], raw_samples[best], reps);
        printf("%-44s %9.1f %8.3f %8s   %.1f-%.1f%s\n", raw_names[k], r.d3d12xs, r.paired, "", r.d3d12xs_min, r.d3d12xs_max,
                k == best ? "   (best raw)" : "");
    }
    for (unsigned f = 0; f < D3D_FORMS; f++) {
        struct bench_rates r = bench_rates(d3d_samples[f], raw_samples[best], reps);
        if (f == D3D_BYTE_ADDRESS_SCALAR)
            printf("%-44s %9.1f %8.3f %8s   %.1f-%.1f\n", d3d_names[f], r.d3d12xs, r.paired, "", r.d3d12xs_min, r.d3d12xs_max);
        else
            printf("%-44s %9.1f %8.3f %5s%.2f   %.1f-%.1f%s\n", d3d_names[f], r.d3d12xs, r.paired, ">= ", TARGET, r.d3d12xs_min,
                    r.d3d12xs_max, r.paired < TARGET ? "   UNDER TARGET" : "");
    }
    printf("GB/s: 2 x bytes / GPU time of the dispatch, median. ratio: GB/s over the best raw kernel's (%s) in the same\n"
           "repetition, median over repetitions (below 1: slower). Every kernel's first copy was checked word by word.\n",
           raw_names[best]);
    destroy(&b);
    return 0;
}
