/* bench_launch: wave launch rate of DispatchX against raw Vulkan dispatching the same grid,
 * modelled on the console's launch-rate tests. See docs/benchmarks.md.
 *
 * A nearly empty kernel (the first thread of each group stores one word, so the dispatch has
 * an effect) runs over a large grid of 8 x N groups: wave32 and wave64 pipelines (the
 * console's __XBOX_ENABLE_WAVE32 define), groups of 1, 2 and 4 waves, on a DIRECT and a
 * COMPUTE queue, in order and with D3D12XBOX_DISPATCH_FLAG_ENABLE_OUT_OF_ORDER (COMPUTE only:
 * on DIRECT the flag must be refused, and that is shown). Each row: waves launched per
 * microsecond of GPU time (timestamps around the one dispatch) for d3d12xs and raw Vulkan, the
 * paired ratio d3d12xs / raw (per repetition, sides back to back, median), and waves per GPU
 * clock where the clock can be read (nvidia-smi). Arguments: `quick` runs a tenth of the grid. */
#include "bench_util.h"

const char *bench_name = "bench_launch";

/* The kernel: THREADS_Y is threads / 8. groups_x is the grid width, salt changes per row so
 * that each row's result can be told from the last one's. */
static const char launch_hlsl[] =
    BENCH_HLSL_PROLOGUE
    "PUSH_CONSTANTS(Constants) { uint groups_x; uint salt; };\n"
    "BINDING(0) RWByteAddressBuffer output : register(u0);\n"
    "[numthreads(8, THREADS_Y, 1)]\n"
    "void main(uint3 group : SV_GroupID, uint index : SV_GroupIndex)\n"
    "{\n"
    "    if (index == 0) {\n"
    "        uint g = group.y * groups_x + group.x;\n"
    "        output.Store(g * 4, g ^ salt);\n"
    "    }\n"
    "}\n";

#define GROUPS_X 1024u
#define WAVE_SIZES 2      /* 32, 64 */
#define WAVE_COUNTS 3     /* 1, 2, 4 waves per group */
#define KERNELS (WAVE_SIZES * WAVE_COUNTS)
#define QUEUES 2          /* DIRECT, COMPUTE */
#define ROWS (KERNELS * 3) /* DIRECT in order, COMPUTE in order, COMPUTE out of order */

struct kernel {
    unsigned wave;        /* the console's wave size the shader is built for: 32 or 64 */
    unsigned waves;       /* console waves per group: 1, 2, 4 */
    unsigned threads;     /* wave * waves, numthreads(8, threads / 8, 1) */
    unsigned d3d_subgroup, raw_subgroup; /* the subgroup size each side runs it with */
    bool raw_required;
    unsigned hw_waves;    /* device subgroups per group: ceil(threads / subgroup) */
    unsigned groups;      /* per dispatch, a multiple of GROUPS_X */
    ID3D12PipelineState *pipeline;
    struct bench_vk_kernel raw;
};

struct row {
    unsigned kernel, queue; /* queue 0 DIRECT, 1 COMPUTE */
    bool out_of_order;
    uint32_t salt;
    ID3D12CommandAllocator *allocator;
    ID3D12GraphicsCommandList *list;
    VkCommandBuffer cmd;
    struct bench_rates rates;  /* waves per microsecond */
    double mhz;                /* SM clock during the row, 0 if unknown */
};

struct bench {
    ID3D12Device *device;
    D3D12XS_DEVICE_INFO info;
    struct bench_d3d_queue queues[QUEUES];
    ID3D12RootSignature *signature;
    ID3D12QueryHeap *timestamps;
    ID3D12Resource *resolved;        /* READBACK, 2 UINT64 per row */
    ID3D12Resource *output;
    UINT64 output_size;

    struct bench_vk vk;
    struct bench_vk_queue vk_queues[QUEUES];
    VkQueryPool vk_timestamps;
    struct bench_vk_buffer vk_output;
    bool nvidia;

    struct kernel kernels[KERNELS];
    struct row rows[ROWS];
};

static const D3D12_COMMAND_LIST_TYPE queue_types[QUEUES] = {D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_LIST_TYPE_COMPUTE};
static const char *const queue_names[QUEUES] = {"DIRECT", "COMPUTE"};

static D3D12XBOX_DISPATCH_FLAGS row_flags(const struct bench *b, const struct row *r)
{
    D3D12XBOX_DISPATCH_FLAGS flags = D3D12XBOX_DISPATCH_FLAG_NONE;
    if (b->kernels[r->kernel].wave == 32)
        flags |= D3D12XBOX_DISPATCH_FLAG_W32;
    if (r->out_of_order)
        flags |= D3D12XBOX_DISPATCH_FLAG_ENABLE_OUT_OF_ORDER;
    return flags;
}

static void build_kernels(struct bench *b, uint64_t target_waves)
{
    for (unsigned w = 0; w < WAVE_SIZES; w++) {
        for (unsigned c = 0; c < WAVE_COUNTS; c++) {
            struct kernel *k = &b->kernels[w * WAVE_COUNTS + c];
            char threads_y[16];
            uint64_t groups;

            k->wave = w ? 64 : 32;
            k->waves = 1u << c;
            k->threads = k->wave * k->waves;
            snprintf(threads_y, sizeof(threads_y), "%u", k->threads / 8);
            D3D_SHADER_MACRO defines[] = {{"THREADS_Y", threads_y}, {"__XBOX_ENABLE_WAVE32", "1"}, {NULL, NULL}};
            if (k->wave == 64)
                defines[1] = (D3D_SHADER_MACRO){NULL, NULL};
            k->pipeline = bench_d3d_pipeline(b->device, b->signature, launch_hlsl, defines);
            k->d3d_subgroup = k->wave == 32 ? b->info.Wave32SubgroupSize : b->info.Wave64SubgroupSize;

            const char *macros[] = {"THREADS_Y", threads_y, NULL};
            k->raw_subgroup = bench_vk_subgroup_size(&b->vk, k->wave, k->threads, &k->raw_required);
            k->raw = bench_vk_kernel(&b->vk, bench_vk_shader(&b->vk, launch_hlsl, false, macros), 1, 8,
                    k->raw_required ? k->raw_subgroup : 0);
            REQUIRE(k->raw_subgroup == k->d3d_subgroup, "wave%u: d3d12xs runs subgroups of %u, raw Vulkan of %u", k->wave,
                    k->d3d_subgroup, k->raw_subgroup);
            k->hw_waves = (k->threads + k->d3d_subgroup - 1) / k->d3d_subgroup;
            /* the same number of device waves in every row */
            groups = (target_waves / k->hw_waves + GROUPS_X - 1) / GROUPS_X * GROUPS_X;
            REQUIRE(groups / GROUPS_X <= 65535, "grid too large");
            k->groups = (unsigned)groups;
            if ((uint64_t)k->groups * 4 > b->output_size)
                b->output_size = (uint64_t)k->groups * 4;
        }
    }
}

static void record_row(struct bench *b, unsigned index)
{
    struct row *r = &b->rows[index];
    const struct kernel *k = &b->kernels[r->kernel];
    uint32_t constants[2] = {GROUPS_X, r->salt};

    bench_d3d_new_list(b->device, queue_types[r->queue], &r->allocator, &r->list);
    ID3D12GraphicsCommandList_SetComputeRootSignature(r->list, b->signature);
    ID3D12GraphicsCommandList_SetPipelineState(r->list, k->pipeline);
    ID3D12GraphicsCommandList_SetComputeRoot32BitConstants(r->list, 0, 2, constants, 0);
    ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(r->list, 1, ID3D12Resource_GetGPUVirtualAddress(b->output));
    ID3D12GraphicsCommandList_EndQuery(r->list, b->timestamps, D3D12_QUERY_TYPE_TIMESTAMP, index * 2);
    ID3D12GraphicsCommandList_DispatchX(r->list, GROUPS_X, k->groups / GROUPS_X, 1, row_flags(b, r));
    ID3D12GraphicsCommandList_EndQuery(r->list, b->timestamps, D3D12_QUERY_TYPE_TIMESTAMP, index * 2 + 1);
    ID3D12GraphicsCommandList_ResolveQueryData(r->list, b->timestamps, D3D12_QUERY_TYPE_TIMESTAMP, index * 2, 2, b->resolved,
            index * 2 * sizeof(UINT64));
    HR(ID3D12GraphicsCommandList_Close(r->list));

    /* Raw Vulkan has no dispatch order to relax: an out-of-order row's twin is the in-order one. */
    r->cmd = bench_vk_begin(&b->vk, &b->vk_queues[r->queue]);
    vkCmdResetQueryPool(r->cmd, b->vk_timestamps, index * 2, 2);
    vkCmdWriteTimestamp2(r->cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, b->vk_timestamps, index * 2);
    /* bound after the first timestamp, where d3d12xs binds too (at the DispatchX) */
    vkCmdBindPipeline(r->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k->raw.pipeline);
    vkCmdPushConstants(r->cmd, k->raw.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(constants), constants);
    bench_vk_push_buffers(&b->vk, r->cmd, &k->raw, &b->vk_output.buffer, 1);
    vkCmdDispatch(r->cmd, GROUPS_X, k->groups / GROUPS_X, 1);
    vkCmdWriteTimestamp2(r->cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, b->vk_timestamps, index * 2 + 1);
    VK(vkEndCommandBuffer(r->cmd));
}

/* GPU microseconds of one run of row `index` on each side. */
static double d3d_run(struct bench *b, unsigned index)
{
    const struct row *r = &b->rows[index];
    D3D12_RANGE range = {index * 2 * sizeof(UINT64), (index * 2 + 2) * sizeof(UINT64)};
    UINT64 *ticks = NULL;
    double us;

    bench_d3d_execute_and_wait(&b->queues[r->queue], r->list);
    HR(ID3D12Resource_Map(b->resolved, 0, &range, (void **)&ticks));
    us = (double)(ticks[index * 2 + 1] - ticks[index * 2]) * 1e6 / (double)b->queues[r->queue].frequency;
    ID3D12Resource_Unmap(b->resolved, 0, NULL);
    return us;
}

static double raw_run(struct bench *b, unsigned index)
{
    const struct row *r = &b->rows[index];
    uint64_t ticks[2];

    bench_vk_submit_and_wait(&b->vk, &b->vk_queues[r->queue], r->cmd);
    VK(vkGetQueryPoolResults(b->vk.device, b->vk_timestamps, index * 2, 2, sizeof(ticks), ticks, sizeof(uint64_t),
            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    return (double)(ticks[1] - ticks[0]) * (double)b->vk.properties.limits.timestampPeriod / 1e3;
}

static void check_output(const uint32_t *words, unsigned groups, uint32_t salt, const char *side, unsigned index)
{
    for (unsigned g = 0; g < groups; g++)
        if (words[g] != (g ^ salt))
            bench_fail(__LINE__, "%s, row %u: group %u wrote 0x%08x, expected 0x%08x", side, index, g, words[g], g ^ salt);
}

static void verify_row(struct bench *b, unsigned index)
{
    const struct row *r = &b->rows[index];
    const struct kernel *k = &b->kernels[r->kernel];
    ID3D12Resource *readback = bench_d3d_read_back(b->device, &b->queues[r->queue], b->output, (UINT64)k->groups * 4);
    struct bench_vk_buffer staging;
    void *mapped = NULL;

    HR(ID3D12Resource_Map(readback, 0, NULL, &mapped));
    check_output(mapped, k->groups, r->salt, "d3d12xs", index);
    ID3D12Resource_Unmap(readback, 0, NULL);
    ID3D12Resource_Release(readback);
    staging = bench_vk_read_back(&b->vk, &b->vk_queues[r->queue], b->vk_output.buffer, (VkDeviceSize)k->groups * 4, &mapped);
    check_output(mapped, k->groups, r->salt, "raw Vulkan", index);
    vkUnmapMemory(b->vk.device, staging.memory);
    bench_vk_free_buffer(&b->vk, &staging);
}

/* The log line of the refusal below, shown in the table. */
static char refusal[512];

static void log_callback(D3D12XS_LOG_LEVEL level, const char *line, void *user)
{
    (void)user;
    if (level == D3D12XS_LOG_LEVEL_ERROR && !refusal[0])
        snprintf(refusal, sizeof(refusal), "%s", line);
}

/* ENABLE_OUT_OF_ORDER on a DIRECT list: the console allows it on async compute only, so the
 * list must be invalid (Close: E_INVALIDARG). Returns Close's HRESULT. */
static HRESULT direct_out_of_order(struct bench *b)
{
    ID3D12CommandAllocator *allocator;
    ID3D12GraphicsCommandList *list;
    HRESULT hr;

    bench_d3d_new_list(b->device, D3D12_COMMAND_LIST_TYPE_DIRECT, &allocator, &list);
    ID3D12GraphicsCommandList_SetComputeRootSignature(list, b->signature);
    ID3D12GraphicsCommandList_SetPipelineState(list, b->kernels[0].pipeline);
    ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(list, 1, ID3D12Resource_GetGPUVirtualAddress(b->output));
    D3D12XSSetLogCallback(log_callback, NULL);
    ID3D12GraphicsCommandList_DispatchX(list, 1, 1, 1, D3D12XBOX_DISPATCH_FLAG_W32 | D3D12XBOX_DISPATCH_FLAG_ENABLE_OUT_OF_ORDER);
    hr = ID3D12GraphicsCommandList_Close(list);
    D3D12XSSetLogCallback(NULL, NULL);
    ID3D12GraphicsCommandList_Release(list);
    ID3D12CommandAllocator_Release(allocator);
    return hr;
}

static void init(struct bench *b)
{
    D3D12_QUERY_HEAP_DESC query_desc = {D3D12_QUERY_HEAP_TYPE_TIMESTAMP, ROWS * 2, 0};
    D3D12_ROOT_PARAMETER1 parameters[2];
    uint32_t families[QUEUES];

    memset(b, 0, sizeof(*b));
    HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&b->device));
    HR(D3D12XSGetDeviceInfo(b->device, &b->info));
    REQUIRE(!b->info.ValidationLayerEnabled, "the validation layer is on (D3D12XS_DEBUG): the figures would be meaningless");
    for (unsigned q = 0; q < QUEUES; q++) {
        bench_d3d_queue_init(b->device, &b->queues[q], queue_types[q]);
        families[q] = b->info.Queues[queue_types[q]].VulkanQueueFamily;
        REQUIRE(b->info.Queues[queue_types[q]].TimestampsSupported, "the %s queue has no timestamps", queue_names[q]);
    }
    HR(ID3D12Device_CreateQueryHeap(b->device, &query_desc, &IID_ID3D12QueryHeap, (void **)&b->timestamps));
    b->resolved = bench_d3d_buffer(b->device, D3D12_HEAP_TYPE_READBACK, ROWS * 2 * sizeof(UINT64), D3D12_RESOURCE_FLAG_NONE,
            D3D12_RESOURCE_STATE_COPY_DEST);
    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 2;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    b->signature = bench_d3d_root_signature(b->device, parameters, 2);

    /* The raw side on d3d12xs's physical device and queue families. */
    bench_vk_init(&b->vk, "bench_launch (raw Vulkan)", families, QUEUES, b->vk_queues);
    b->nvidia = b->vk.properties.vendorID == 0x10de;
    VkQueryPoolCreateInfo query_info = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, .queryType = VK_QUERY_TYPE_TIMESTAMP,
            .queryCount = ROWS * 2};
    VK(vkCreateQueryPool(b->vk.device, &query_info, NULL, &b->vk_timestamps));
}

static void destroy(struct bench *b)
{
    vkDeviceWaitIdle(b->vk.device);
    for (unsigned i = 0; i < ROWS; i++) {
        ID3D12GraphicsCommandList_Release(b->rows[i].list);
        ID3D12CommandAllocator_Release(b->rows[i].allocator);
    }
    for (unsigned i = 0; i < KERNELS; i++) {
        ID3D12PipelineState_Release(b->kernels[i].pipeline);
        bench_vk_destroy_kernel(&b->vk, &b->kernels[i].raw);
    }
    bench_vk_free_buffer(&b->vk, &b->vk_output);
    vkDestroyQueryPool(b->vk.device, b->vk_timestamps, NULL);
    for (unsigned q = 0; q < QUEUES; q++) {
        bench_vk_queue_destroy(&b->vk, &b->vk_queues[q]);
        bench_d3d_queue_destroy(&b->queues[q]);
    }
    bench_vk_destroy(&b->vk);
    ID3D12Resource_Release(b->output);
    ID3D12Resource_Release(b->resolved);
    ID3D12QueryHeap_Release(b->timestamps);
    ID3D12RootSignature_Release(b->signature);
    ID3D12Device_Release(b->device);
}

/* Both sides run row 0 untimed this long first, so that a GPU is at its working clock. */
#define GPU_WARM_UP_NS 1e9

int main(int argc, char **argv)
{
    double d3d_samples[BENCH_MAX_REPS], raw_samples[BENCH_MAX_REPS];
    uint64_t target_waves;
    unsigned reps;
    bool quick = argc > 1 && !strcmp(argv[1], "quick");
    static struct bench b;
    HRESULT refused;

    if (argc > 1 && !quick) {
        fprintf(stderr, "usage: %s [quick]\n", argv[0]);
        return 2;
    }
    setenv("D3D12XS_DEBUG", "0", 1); /* no validation layer: it would measure itself */
    setvbuf(stdout, NULL, _IOLBF, 0);
    init(&b);
    /* device waves per dispatch, the same in every row: a few ms on a GPU */
    target_waves = b.info.IsSoftwareRasterizer ? 1u << 20 : 1u << 24;
    reps = b.info.IsSoftwareRasterizer ? 7 : 15;
    if (quick)
        target_waves /= 10;
    build_kernels(&b, target_waves);
    b.output = bench_d3d_buffer(b.device, D3D12_HEAP_TYPE_DEFAULT, b.output_size, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS,
            D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    b.vk_output = bench_vk_buffer(&b.vk, b.output_size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 0,
            VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    for (unsigned i = 0; i < ROWS; i++) {
        struct row *r = &b.rows[i];
        r->kernel = i / 3;
        r->queue = i % 3 ? 1 : 0;
        r->out_of_order = i % 3 == 2;
        r->salt = 0x9e3779b9u * (i + 1);
        record_row(&b, i);
    }

    printf("d3d12xs device : %s (%s, %s); DIRECT on queue family %u, COMPUTE on family %u\n", b.info.DeviceName, b.info.DriverName,
            b.info.DriverInfo, b.info.Queues[0].VulkanQueueFamily, b.info.Queues[2].VulkanQueueFamily);
    printf("raw Vulkan     : %s (%s, %s); the same families\n", b.vk.properties.deviceName, b.vk.driver.driverName,
            b.vk.driver.driverInfo);
    if (strcmp(b.info.DeviceName, b.vk.properties.deviceName))
        printf("WARNING: the two sides do not run on the same device\n");
    printf("wave sizes     : wave32 pipelines run %u-wide subgroups (%s), wave64 pipelines %u-wide (%s); device range %u-%u%s\n",
            b.info.Wave32SubgroupSize, b.kernels[0].raw_required ? "required" : "the device's default", b.info.Wave64SubgroupSize,
            b.kernels[WAVE_COUNTS].raw_required ? "required" : "the device's default", b.info.MinSubgroupSize, b.info.MaxSubgroupSize,
            b.vk.subgroup_size_control ? "" : ", no subgroup size control");
    if (b.info.Wave32SubgroupSize == b.info.Wave64SubgroupSize)
        printf("                 both wave sizes map to ONE subgroup size (%u) here: a wave64 group is %u device waves\n",
                b.info.Wave32SubgroupSize, 64 / b.info.Wave64SubgroupSize);
    printf("grid           : %u x N groups of 8 x (threads / 8), N so that every row launches about %llu device waves; "
            "%u reps, medians, sides alternating\n", GROUPS_X, (unsigned long long)target_waves, reps);

    printf("(the library's two error lines below are expected: DispatchX(ENABLE_OUT_OF_ORDER) on a DIRECT list must be refused)\n");
    refused = direct_out_of_order(&b);
    REQUIRE(refused == E_INVALIDARG, "DispatchX(ENABLE_OUT_OF_ORDER) on a DIRECT list: Close returned 0x%08x, not E_INVALIDARG",
            (unsigned)refused);

    /* first runs, checked group by group; then the warm-up */
    for (unsigned i = 0; i < ROWS; i++) {
        d3d_run(&b, i);
        raw_run(&b, i);
        verify_row(&b, i);
    }
    if (!b.info.IsSoftwareRasterizer)
        for (double start = bench_now_ns(); bench_now_ns() - start < GPU_WARM_UP_NS;) {
            d3d_run(&b, 0);
            raw_run(&b, 0);
        }

    for (unsigned i = 0; i < ROWS; i++) {
        struct row *r = &b.rows[i];
        const struct kernel *k = &b.kernels[r->kernel];
        double waves = (double)k->groups * k->hw_waves;
        FILE *clock = b.nvidia ? bench_clock_start() : NULL;
        for (unsigned rep = 0; rep < reps; rep++) {
            for (unsigned side = 0; side < 2; side++) {
                if ((rep + side) % 2)
                    raw_samples[rep] = waves / raw_run(&b, i);
                else
                    d3d_samples[rep] = waves / d3d_run(&b, i);
            }
        }
        r->mhz = bench_clock_finish(clock, b.vk.id.deviceUUID);
        r->rates = bench_rates(d3d_samples, raw_samples, reps);
    }

    printf("\n%-6s %-5s %-8s %-11s %-8s %-13s %11s %11s %7s %9s %9s %6s   %s\n", "wave", "sub", "group", "waves/group", "queue",
            "dispatch", "d3d12xs", "raw Vulkan", "ratio", "d3d12xs", "raw", "MHz", "range d3d12xs | raw (waves/us)");
    printf("%-6s %-5s %-8s %-11s %-8s %-13s %11s %11s %7s %9s %9s\n", "", "", "", "(device)", "", "", "waves/us", "waves/us",
            "", "waves/clk", "waves/clk");
    double best_d3d = 0, best_raw = 0;
    for (unsigned i = 0; i < ROWS; i++) {
        const struct row *r = &b.rows[i];
        const struct kernel *k = &b.kernels[r->kernel];
        char shape[16], waves[24], d3d_clk[16] = "-", raw_clk[16] = "-", mhz[16] = "-";
        snprintf(shape, sizeof(shape), "8x%u", k->threads / 8);
        snprintf(waves, sizeof(waves), "%u (%u)", k->waves, k->hw_waves);
        if (r->mhz) {
            snprintf(d3d_clk, sizeof(d3d_clk), "%.3f", r->rates.d3d12xs / r->mhz);
            snprintf(raw_clk, sizeof(raw_clk), "%.3f", r->rates.raw / r->mhz);
            snprintf(mhz, sizeof(mhz), "%.0f", r->mhz);
        }
        if (r->queue == 1 && r->out_of_order && k->wave == 32 && k->waves == 1 && r->mhz) {
            best_d3d = r->rates.d3d12xs / r->mhz;
            best_raw = r->rates.raw / r->mhz;
        }
        printf("wave%-2u %-5u %-8s %-11s %-8s %-13s %11.1f %11.1f %7.3f %9s %9s %6s   %.1f-%.1f | %.1f-%.1f\n", k->wave,
                k->d3d_subgroup, shape, waves, queue_names[r->queue], r->out_of_order ? "out of order" : "in order",
                r->rates.d3d12xs, r->rates.raw, r->rates.paired, d3d_clk, raw_clk, mhz, r->rates.d3d12xs_min,
                r->rates.d3d12xs_max, r->rates.raw_min, r->rates.raw_max);
        if (i % 3 == 2)
            printf("wave%-2u %-5u %-8s %-11s %-8s %-13s refused: Close returned E_INVALIDARG (out of order is for COMPUTE queues)\n",
                    k->wave, k->d3d_subgroup, shape, waves, "DIRECT", "out of order");
    }
    printf("waves/group: the console's waves (wave32 or wave64) and, in brackets, the device's subgroups per group. ratio:\n"
           "d3d12xs waves/us / raw Vulkan waves/us per repetition, the two sides back to back, median over repetitions\n"
           "(below 1: d3d12xs launches slower). Raw Vulkan has no dispatch order: an out-of-order row's raw twin is the same\n"
           "vkCmdDispatch on the COMPUTE family. waves/clk: waves/us / SM MHz (nvidia-smi during the row).\n");
    printf("DIRECT + ENABLE_OUT_OF_ORDER: %s\n", refusal[0] ? refusal : "(Close returned E_INVALIDARG)");
    printf("reference: Xbox Series X launches 2 waves per clock (out of order, wave32, one-wave groups).\n");
    if (best_d3d)
        printf("this device, the same row (COMPUTE, out of order, wave32, 1 wave): d3d12xs %.3f, raw Vulkan %.3f waves per clock "
               "(%.2fx / %.2fx the console's 2)\n", best_d3d, best_raw, best_d3d / 2, best_raw / 2);
    else
        printf("this device: clock not readable (nvidia-smi absent or not this GPU), so no waves per clock\n");
    destroy(&b);
    return 0;
}
