/* bench_pipeline: what creating a compute pipeline costs, from a compiled shader blob.
 *
 *   steady: the same pipeline created and released many times in one process, after warm-up;
 *   first:  the first pipeline of a process, timed in fresh child processes (this program
 *           started again with an argument, the shader bytes on its standard input);
 *   create_identical: the CPU time of creating and releasing a pipeline while one of the same
 *           description is alive (d3d12xs finds the live one; raw Vulkan keeps a twin pipeline
 *           of the same module alive, which some drivers find);
 *   from cached blob (d3d12xs only): steady and first creations of the HLSL kernel's description
 *           with the CachedPSO its pipeline's GetCachedBlob gave;
 *   graphics (d3d12xs only): a VS + PS pipeline's steady creations from HLSL and from its
 *           cached blob, and create_identical.
 *
 * Each D3D12 figure stands next to raw Vulkan making a pipeline of the same layout shape (one
 * storage buffer in a push-descriptor set, as d3d12xs makes of one root UAV) from SPIR-V of the
 * same HLSL (vkCreateShaderModule + vkCreateComputePipelines, then both destroyed), in the
 * same run, and next to Wine's vkd3d: this program built a second time against vkd3d 1.2
 * (bench_pipeline_vkd3d, BENCH_VKD3D defined), run beside it. vkd3d 1.2 takes only DXBC, so its
 * shader is written by tests/dxbc_writer.c. Before timing, each D3D12 side dispatches its
 * pipeline once and checks every word it wrote. See docs/benchmarks.md.
 *
 *   bench_pipeline          d3d12xs, raw Vulkan and (where built) vkd3d
 *   bench_pipeline_vkd3d    vkd3d and raw Vulkan
 * Arguments used between the programs: first-d3d12, first-vulkan (a child's one timing) and
 * peer (bench_pipeline_vkd3d's figures as one line for bench_pipeline). D3D12XS_BENCH_OUT=<path>
 * also writes the figures as TSV. */
#ifdef BENCH_VKD3D
#define INITGUID /* vkd3d's headers define the IIDs in the one file that asks */
#endif
#include "bench_util.h"
#include "dxbc_writer.h"
#ifdef BENCH_VKD3D
#define SIDE "vkd3d"
#else
#define SIDE "d3d12xs"
#define PEER_PROGRAM "bench_pipeline_vkd3d"
#endif

const char *bench_name = "bench_pipeline";

#define THREADS 64
#define GROUPS 16
#define WORDS (THREADS * GROUPS)
#define MAX_SAMPLES 2001
#define MAX_CHILDREN 31

/* u0.Store(tid * 4, tid): the kernel both D3D12 sides and raw Vulkan create. */
static const char store_hlsl[] = BENCH_HLSL_PROLOGUE
    "BINDING(0) RWByteAddressBuffer output : register(u0);\n"
    "[numthreads(64, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, id.x); }\n";

/* The same kernel in shader model 5.0, as FXC would compile it (vkd3d's shader, and d3d12xs's
 * DXBC figures):
 *   dcl_uav_raw u0; dcl_input vThreadID.x; dcl_temps 1; dcl_thread_group 64, 1, 1
 *   ishl r0.x, vThreadID.x, l(2); store_raw u0.x, r0.x, vThreadID.x; ret */
static const struct dxbc_instruction store_sm5[] = {
    {DXBC_OP_DCL_UAV_RAW, 1, {DXBC_RESOURCE(DXBC_UAV, 0)}, 0, {0}},
    {DXBC_OP_DCL_INPUT, 1, {DXBC_DST(DXBC_THREAD_ID, 0, DXBC_X)}, 0, {0}},
    {DXBC_OP_DCL_TEMPS, 0, {{0}}, 1, {1}},
    {DXBC_OP_DCL_THREAD_GROUP, 0, {{0}}, 3, {THREADS, 1, 1}},
    {DXBC_OP_ISHL, 3, {DXBC_DST(DXBC_TEMP, 0, DXBC_X), DXBC_SRC(DXBC_THREAD_ID, 0, 0), DXBC_IMM(2)}, 0, {0}},
    {DXBC_OP_STORE_RAW, 3, {DXBC_DST(DXBC_UAV, 0, DXBC_X), DXBC_SRC(DXBC_TEMP, 0, 0), DXBC_SRC(DXBC_THREAD_ID, 0, 0)}, 0, {0}},
    {DXBC_OP_RET, 0, {{0}}, 0, {0}},
};

/* ---- shader bytes ------------------------------------------------------------------------ */

/* The DXBC kernel storing id ^ k (k = 0: the kernel itself): with another k, another shader
 * to a translation cache and to the driver, the same work. */
static struct bench_bytes dxbc_shader_bytes_with(uint32_t k)
{
    struct dxbc_instruction program[BENCH_ARRAY_SIZE(store_sm5) + 1];
    struct dxbc_instruction xor_k = {DXBC_OP_XOR, 3, {DXBC_DST(DXBC_TEMP, 0, DXBC_Y), DXBC_SRC(DXBC_THREAD_ID, 0, 0), DXBC_IMM(k)}, 0, {0}};
    struct bench_bytes b;
    size_t count = BENCH_ARRAY_SIZE(store_sm5);

    memcpy(program, store_sm5, sizeof(store_sm5));
    if (k) {
        /* ... ishl r0.x; xor r0.y, vThreadID.x, l(k); store_raw u0.x, r0.x, r0.y; ret */
        memmove(&program[5], &program[4], (count - 4) * sizeof(program[0]));
        program[4] = xor_k;
        program[6].operands[2] = (struct dxbc_operand)DXBC_SRC(DXBC_TEMP, 0, 1);
        count++;
    }
    b.data = dxbc_write_shader(DXBC_COMPUTE_SHADER, 5, 0, program, count, &b.size);
    REQUIRE(b.data, "the DXBC writer could not encode the shader");
    return b;
}

static struct bench_bytes dxbc_shader_bytes(void)
{
    return dxbc_shader_bytes_with(0);
}

/* The D3D12 side's shader: D3DCompile's blob (compiled once, before any timing), or DXBC. */
static struct bench_bytes d3d_shader_bytes(void)
{
    struct bench_bytes b;
#ifdef BENCH_VKD3D
    b = dxbc_shader_bytes();
#else
    ID3DBlob *blob = bench_d3d_compile(store_hlsl, NULL);
    b.size = ID3D10Blob_GetBufferSize(blob);
    REQUIRE((b.data = malloc(b.size)), "out of memory");
    memcpy(b.data, ID3D10Blob_GetBufferPointer(blob), b.size);
    ID3D10Blob_Release(blob);
#endif
    return b;
}

static struct bench_bytes raw_shader_bytes(void)
{
    shaderc_compilation_result_t result = bench_spirv(store_hlsl, false, NULL);
    struct bench_bytes b = {malloc(shaderc_result_get_length(result)), shaderc_result_get_length(result)};
    REQUIRE(b.data, "out of memory");
    memcpy(b.data, shaderc_result_get_bytes(result), b.size);
    shaderc_result_release(result);
    return b;
}

/* ---- the D3D12 side ------------------------------------------------------------------------ */

struct d3d {
    ID3D12Device *device;
    ID3D12RootSignature *signature;
    D3D12_COMPUTE_PIPELINE_STATE_DESC desc;
    char device_name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
};

/* vkd3d runs on the raw side's physical device (bench_d3d_create_device). */
static void d3d_init(struct d3d *d, const struct bench_vk *raw, const struct bench_bytes *code)
{
    D3D12_ROOT_PARAMETER1 parameter;

    bool cpu_device;

    memset(d, 0, sizeof(*d));
    d->device = bench_d3d_create_device(raw, d->device_name, &cpu_device);
    memset(&parameter, 0, sizeof(parameter));
    parameter.ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    d->signature = bench_d3d_root_signature(d->device, &parameter, 1);
    d->desc.pRootSignature = d->signature;
    d->desc.CS.pShaderBytecode = code->data;
    d->desc.CS.BytecodeLength = code->size;
}

static void d3d_destroy(struct d3d *d)
{
    ID3D12RootSignature_Release(d->signature);
    ID3D12Device_Release(d->device);
}

static ID3D12PipelineState *d3d_create(const struct d3d *d)
{
    ID3D12PipelineState *state = NULL;
    HR(ID3D12Device_CreateComputePipelineState(d->device, &d->desc, &IID_ID3D12PipelineState, (void **)&state));
    return state;
}

/* Microseconds of one CreateComputePipelineState + Release. */
static double d3d_sample(const struct d3d *d)
{
    double start = bench_now_ns();
    /* Not ID3D12PipelineState_Release(d3d_create(d)): the COM macro names its argument twice. */
    ID3D12PipelineState *state = d3d_create(d);
    ID3D12PipelineState_Release(state);
    return (bench_now_ns() - start) / 1e3;
}

#define IDENTICAL_BATCH 20

/* CPU microseconds of one CreateComputePipelineState + Release while a pipeline of the same
 * description is alive, over a batch (one creation is a few us: a clock read would weigh). */
static double d3d_identical_sample(const struct d3d *d)
{
    double start = bench_thread_cpu_ns();
    for (unsigned i = 0; i < IDENTICAL_BATCH; i++) {
        ID3D12PipelineState *state = d3d_create(d);
        ID3D12PipelineState_Release(state);
    }
    return (bench_thread_cpu_ns() - start) / 1e3 / IDENTICAL_BATCH;
}

/* Dispatches the pipeline over WORDS threads and checks that word i of the output holds i:
 * the shader bytes (DXBC from our writer on vkd3d) do what the HLSL says. */
static void d3d_check(const struct d3d *d)
{
    D3D12_COMMAND_QUEUE_DESC queue_desc = {D3D12_COMMAND_LIST_TYPE_COMPUTE, 0, D3D12_COMMAND_QUEUE_FLAG_NONE, 0};
    ID3D12Resource *output = bench_d3d_buffer(d->device, D3D12_HEAP_TYPE_DEFAULT, WORDS * 4, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS,
            D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    ID3D12Resource *readback = bench_d3d_buffer(d->device, D3D12_HEAP_TYPE_READBACK, WORDS * 4, D3D12_RESOURCE_FLAG_NONE,
            D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12PipelineState *pipeline = d3d_create(d);
    D3D12_RESOURCE_BARRIER barrier = bench_d3d_transition(output, D3D12_RESOURCE_STATE_UNORDERED_ACCESS,
            D3D12_RESOURCE_STATE_COPY_SOURCE);
    D3D12_RANGE range = {0, WORDS * 4};
    ID3D12CommandAllocator *allocator;
    ID3D12GraphicsCommandList *list;
    ID3D12CommandQueue *queue;
    ID3D12Fence *fence;
    const uint32_t *words;

    HR(ID3D12Device_CreateCommandQueue(d->device, &queue_desc, &IID_ID3D12CommandQueue, (void **)&queue));
    HR(ID3D12Device_CreateFence(d->device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&fence));
    bench_d3d_new_list(d->device, D3D12_COMMAND_LIST_TYPE_COMPUTE, &allocator, &list);
    ID3D12GraphicsCommandList_SetComputeRootSignature(list, d->signature);
    ID3D12GraphicsCommandList_SetPipelineState(list, pipeline);
    ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(list, 0, ID3D12Resource_GetGPUVirtualAddress(output));
    ID3D12GraphicsCommandList_Dispatch(list, GROUPS, 1, 1);
    ID3D12GraphicsCommandList_ResourceBarrier(list, 1, &barrier);
    ID3D12GraphicsCommandList_CopyBufferRegion(list, readback, 0, output, 0, WORDS * 4);
    HR(ID3D12GraphicsCommandList_Close(list));
    ID3D12CommandQueue_ExecuteCommandLists(queue, 1, (ID3D12CommandList **)&list);
    HR(ID3D12CommandQueue_Signal(queue, fence, 1));
    bench_d3d_wait_polled(fence, 1, "the check dispatch");
    HR(ID3D12Resource_Map(readback, 0, &range, (void **)&words));
    for (uint32_t i = 0; i < WORDS; i++)
        REQUIRE(words[i] == i, "%s: word %u of the output is 0x%x, not %u", SIDE, i, words[i], i);
    ID3D12Resource_Unmap(readback, 0, NULL);
    ID3D12GraphicsCommandList_Release(list);
    ID3D12CommandAllocator_Release(allocator);
    ID3D12Fence_Release(fence);
    ID3D12CommandQueue_Release(queue);
    ID3D12PipelineState_Release(pipeline);
    ID3D12Resource_Release(readback);
    ID3D12Resource_Release(output);
}

/* ---- the raw Vulkan side ------------------------------------------------------------------ */

struct raw {
    struct bench_vk vk;
    struct bench_vk_queue queue;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    struct bench_bytes spirv;
};

/* The raw instance and physical device only: the D3D12 side takes its device from them. */
static void raw_open(struct raw *r)
{
    memset(r, 0, sizeof(*r));
    bench_vk_open(&r->vk, "bench_pipeline (raw Vulkan)");
}

/* The device and the pipeline layout: storage buffer 0 in a push-descriptor set. */
static void raw_init(struct raw *r, const struct bench_bytes *spirv)
{
    VkQueueFamilyProperties families[16];
    uint32_t count = BENCH_ARRAY_SIZE(families), family = 0;
    VkDescriptorSetLayoutBinding binding = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};

    vkGetPhysicalDeviceQueueFamilyProperties(r->vk.physical_device, &count, families);
    while (family < count && !(families[family].queueFlags & VK_QUEUE_COMPUTE_BIT))
        family++;
    REQUIRE(family < count, "no compute queue family");
    bench_vk_create_device(&r->vk, &family, 1, &r->queue);
    VkDescriptorSetLayoutCreateInfo set_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR,
        .bindingCount = 1,
        .pBindings = &binding,
    };
    VK(vkCreateDescriptorSetLayout(r->vk.device, &set_info, NULL, &r->set_layout));
    VkPipelineLayoutCreateInfo layout_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1,
        .pSetLayouts = &r->set_layout,
    };
    VK(vkCreatePipelineLayout(r->vk.device, &layout_info, NULL, &r->layout));
    r->spirv = *spirv;
}

static void raw_destroy(struct raw *r)
{
    vkDestroyPipelineLayout(r->vk.device, r->layout, NULL);
    vkDestroyDescriptorSetLayout(r->vk.device, r->set_layout, NULL);
    bench_vk_queue_destroy(&r->vk, &r->queue);
    bench_vk_destroy(&r->vk);
}

/* vkCreateShaderModule + vkCreateComputePipelines, the module destroyed. */
static VkPipeline raw_create(const struct raw *r)
{
    VkShaderModuleCreateInfo module_info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = r->spirv.size,
        .pCode = r->spirv.data,
    };
    VkShaderModule module;
    VkPipeline pipeline;

    VK(vkCreateShaderModule(r->vk.device, &module_info, NULL, &module));
    VkComputePipelineCreateInfo pipeline_info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = VK_SHADER_STAGE_COMPUTE_BIT,
            .module = module,
            .pName = "main",
        },
        .layout = r->layout,
    };
    VK(vkCreateComputePipelines(r->vk.device, VK_NULL_HANDLE, 1, &pipeline_info, NULL, &pipeline));
    vkDestroyShaderModule(r->vk.device, module, NULL);
    return pipeline;
}

/* Microseconds of vkCreateShaderModule + vkCreateComputePipelines + destroying both: what
 * CreateComputePipelineState + Release do at the least. */
static double raw_sample(const struct raw *r)
{
    double start = bench_now_ns();
    vkDestroyPipeline(r->vk.device, raw_create(r), NULL);
    return (bench_now_ns() - start) / 1e3;
}

/* CPU microseconds of the same, over a batch (raw Vulkan's create_identical). */
static double raw_identical_sample(const struct raw *r)
{
    double start = bench_thread_cpu_ns();
    for (unsigned i = 0; i < IDENTICAL_BATCH; i++)
        vkDestroyPipeline(r->vk.device, raw_create(r), NULL);
    return (bench_thread_cpu_ns() - start) / 1e3 / IDENTICAL_BATCH;
}

/* ---- children: one first pipeline each ---------------------------------------------------- */

/* The child's input for a first creation from a cached blob: the shader's size (8 bytes), the
 * shader, then the blob. */
static struct bench_bytes split_blob_input(struct bench_bytes *input)
{
    struct bench_bytes blob;
    uint64_t size;
    REQUIRE(input->size >= 8, "no shader size on the standard input");
    memcpy(&size, input->data, 8);
    REQUIRE(size <= input->size - 8, "the shader size passes the input's end");
    blob = (struct bench_bytes){(char *)input->data + 8 + size, input->size - 8 - size};
    input->data = (char *)input->data + 8;
    input->size = size;
    return blob;
}

static int child_first(bool d3d, bool from_blob)
{
    struct bench_bytes input = bench_read_all(STDIN_FILENO), code = input, blob = {NULL, 0};
    struct raw r;
    double us;

    if (from_blob)
        blob = split_blob_input(&code);
    raw_open(&r);
    if (d3d) {
        struct d3d d;
        d3d_init(&d, &r.vk, &code);
        d.desc.CachedPSO.pCachedBlob = blob.data;
        d.desc.CachedPSO.CachedBlobSizeInBytes = blob.size;
        us = d3d_sample(&d);
        d3d_destroy(&d);
        vkDestroyInstance(r.vk.instance, NULL);
    } else {
        raw_init(&r, &code);
        us = raw_sample(&r);
        raw_destroy(&r);
    }
    printf("first_us=%.3f\n", us);
    free(input.data);
    return 0;
}

/* ---- statistics and the parent ------------------------------------------------------------ */

struct sizes {
    unsigned steady, warmup, children;
};

struct results {
    struct bench_figure steady, first, identical;
};

/* Steady state of the D3D12 side and (where raw is not NULL) raw Vulkan, alternating which
 * goes first in each round so that drift of the machine hits both alike. */
static void measure_steady(const struct d3d *d, const struct raw *raw, const struct sizes *n, struct results *d3d_out,
        struct results *raw_out)
{
    static double d3d_samples[MAX_SAMPLES], raw_samples[MAX_SAMPLES];

    for (unsigned i = 0; i < n->warmup; i++) {
        d3d_sample(d);
        if (raw)
            raw_sample(raw);
    }
    for (unsigned i = 0; i < n->steady; i++) {
        if (raw && i % 2)
            raw_samples[i] = raw_sample(raw);
        d3d_samples[i] = d3d_sample(d);
        if (raw && !(i % 2))
            raw_samples[i] = raw_sample(raw);
    }
    d3d_out->steady = bench_figure_of(d3d_samples, n->steady);
    if (raw)
        raw_out->steady = bench_figure_of(raw_samples, n->steady);
}

/* create_identical: creations while a pipeline of the same description (raw Vulkan: of the
 * same module) stays alive, in batches, the sides alternating as in measure_steady. */
static void measure_identical(const struct d3d *d, const struct raw *raw, const struct sizes *n, struct results *d3d_out,
        struct results *raw_out)
{
    static double d3d_samples[MAX_SAMPLES], raw_samples[MAX_SAMPLES];
    ID3D12PipelineState *live = d3d_create(d);
    VkPipeline raw_live = raw ? raw_create(raw) : VK_NULL_HANDLE;

    for (unsigned i = 0; i < n->warmup; i++) {
        d3d_identical_sample(d);
        if (raw)
            raw_identical_sample(raw);
    }
    for (unsigned i = 0; i < n->steady; i++) {
        if (raw && i % 2)
            raw_samples[i] = raw_identical_sample(raw);
        d3d_samples[i] = d3d_identical_sample(d);
        if (raw && !(i % 2))
            raw_samples[i] = raw_identical_sample(raw);
    }
    d3d_out->identical = bench_figure_of(d3d_samples, n->steady);
    if (raw) {
        raw_out->identical = bench_figure_of(raw_samples, n->steady);
        vkDestroyPipeline(raw->vk.device, raw_live, NULL);
    }
    ID3D12PipelineState_Release(live);
}

#ifndef BENCH_VKD3D
/* The count of distinct-shader samples (each needs its own shader, compiled before its sample). */
static unsigned distinct_count(const struct sizes *n)
{
    return n->steady < 1000 ? n->steady : 1000;
}

/* d3d12xs from DXBC, each creation a shader not translated before in the process (its
 * translation kept by no cache): the running helper process translates it. */
static struct bench_figure measure_distinct_dxbc(struct d3d *d, const struct sizes *n)
{
    static double samples[MAX_SAMPLES];
    unsigned count = distinct_count(n);
    for (unsigned i = 0; i < count + n->warmup; i++) {
        struct bench_bytes code = dxbc_shader_bytes_with(1000003u + i);
        double us;
        d->desc.CS.pShaderBytecode = code.data;
        d->desc.CS.BytecodeLength = code.size;
        us = d3d_sample(d);
        if (i >= n->warmup)
            samples[i - n->warmup] = us;
        free(code.data);
    }
    return bench_figure_of(samples, count);
}
#endif

#ifndef BENCH_VKD3D
/* Raw Vulkan with a module it has not seen in each creation (the kernel XORing its value with a
 * different constant): the driver's cost of a new shader, beside d3d12xs's new DXBC each. */
static struct bench_figure measure_distinct_raw(struct raw *r, const struct sizes *n)
{
    static double samples[MAX_SAMPLES];
    static const char variant_hlsl[] = BENCH_HLSL_PROLOGUE
        "BINDING(0) RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(64, 1, 1)]\n"
        "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, id.x ^ %uu); }\n";
    const struct bench_bytes saved = r->spirv;
    unsigned count = distinct_count(n);

    for (unsigned i = 0; i < count + n->warmup; i++) {
        char source[sizeof(variant_hlsl) + 16];
        snprintf(source, sizeof(source), variant_hlsl, 1000003u + i);
        shaderc_compilation_result_t result = bench_spirv(source, false, NULL);
        double us;
        r->spirv.data = (void *)shaderc_result_get_bytes(result);
        r->spirv.size = shaderc_result_get_length(result);
        us = raw_sample(r);
        if (i >= n->warmup)
            samples[i - n->warmup] = us;
        shaderc_result_release(result);
    }
    r->spirv = saved;
    return bench_figure_of(samples, count);
}
#endif

/* First pipelines in n->children fresh processes per side, the sides alternating. */
static void measure_first_mode(const char *d3d_mode, const struct bench_bytes *d3d_code, const struct bench_bytes *spirv, const struct sizes *n,
        struct results *d3d_out, struct results *raw_out)
{
    double d3d_samples[MAX_CHILDREN], raw_samples[MAX_CHILDREN];
    char self[PATH_MAX];

    bench_self_path(self);
    for (unsigned i = 0; i < n->children; i++)
        for (unsigned k = 0; k < 2; k++) {
            bool d3d = (i + k) % 2 == 0;
            if (!d3d && !spirv)
                continue;
            const char *mode = d3d ? d3d_mode : "first-vulkan";
            struct bench_bytes out;
            int status;
            REQUIRE(bench_run_program(self, mode, d3d ? d3d_code : spirv, &out, &status), "%s %s failed (wait status 0x%x)", self, mode,
                    (unsigned)status);
            (d3d ? d3d_samples : raw_samples)[i] = bench_field(out.data, "first_us");
            free(out.data);
        }
    d3d_out->first = bench_figure_of(d3d_samples, n->children);
    if (spirv)
        raw_out->first = bench_figure_of(raw_samples, n->children);
}

static void measure_first(const struct bench_bytes *d3d_code, const struct bench_bytes *spirv, const struct sizes *n, struct results *d3d_out,
        struct results *raw_out)
{
    measure_first_mode("first-d3d12", d3d_code, spirv, n, d3d_out, raw_out);
}

#ifndef BENCH_VKD3D
/* ---- cached blobs and graphics pipelines (d3d12xs only) ----------------------------------- */

/* The cached blob of d's pipeline (GetCachedBlob), malloc()ed. */
static struct bench_bytes d3d_cached_blob(const struct d3d *d)
{
    ID3D12PipelineState *state = d3d_create(d);
    ID3DBlob *blob = NULL;
    struct bench_bytes b;

    HR(ID3D12PipelineState_GetCachedBlob(state, &blob));
    b.size = ID3D10Blob_GetBufferSize(blob);
    REQUIRE((b.data = malloc(b.size)), "out of memory");
    memcpy(b.data, ID3D10Blob_GetBufferPointer(blob), b.size);
    ID3D10Blob_Release(blob);
    ID3D12PipelineState_Release(state);
    return b;
}

/* Steady and first creations from the pipeline's cached blob (the HLSL kernel's description
 * with its CachedPSO): the SPIR-V after d3d12xs's passes goes straight to the driver. */
static void measure_from_blob(struct d3d *d, const struct bench_bytes *code, const struct sizes *n, struct results *out)
{
    struct bench_bytes blob = d3d_cached_blob(d), input;
    uint64_t size = code->size;

    d->desc.CachedPSO.pCachedBlob = blob.data;
    d->desc.CachedPSO.CachedBlobSizeInBytes = blob.size;
    d3d_check(d);
    printf("check          : the %s pipeline from its cached blob (%zu bytes) wrote all %u words right\n", SIDE, blob.size, WORDS);
    measure_steady(d, NULL, n, out, NULL);
    d->desc.CachedPSO.pCachedBlob = NULL;
    d->desc.CachedPSO.CachedBlobSizeInBytes = 0;
    REQUIRE((input.data = malloc(8 + code->size + blob.size)), "out of memory");
    input.size = 8 + code->size + blob.size;
    memcpy(input.data, &size, 8);
    memcpy((char *)input.data + 8, code->data, code->size);
    memcpy((char *)input.data + 8 + code->size, blob.data, blob.size);
    measure_first_mode("first-d3d12-blob", &input, NULL, n, out, NULL);
    free(input.data);
    free(blob.data);
}

/* A graphics pipeline of one vertex and one pixel shader from D3DCompile (vs_6_0, ps_6_0), an
 * input layout of two elements, one render target: creations from HLSL, from the cached blob,
 * and with one of the same description alive. */
static const char graphics_hlsl[] =
    "cbuffer Root : register(b0) { float4 tint; };\n"
    "struct V { float4 pos : SV_Position; float4 color : COLOR; };\n"
    "V vs(float3 pos : POSITION, float4 color : COLOR) { V o; o.pos = float4(pos, 1); o.color = color; return o; }\n"
    "float4 ps(V i) : SV_Target { return i.color * tint; }\n";

struct graphics_figures {
    struct bench_figure steady, from_blob, identical;
};

static ID3DBlob *compile_stage(const char *entry, const char *target)
{
    ID3DBlob *code = NULL, *errors = NULL;
    HRESULT hr = D3DCompile(graphics_hlsl, strlen(graphics_hlsl), "graphics.hlsl", NULL, NULL, entry, target, 0, 0, &code, &errors);
    if (FAILED(hr))
        bench_fail(__LINE__, "D3DCompile %s failed (0x%08x): %s", target, (unsigned)hr,
                errors ? (const char *)ID3D10Blob_GetBufferPointer(errors) : "?");
    if (errors)
        ID3D10Blob_Release(errors);
    return code;
}

static double graphics_sample(ID3D12Device *device, const D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc)
{
    double start = bench_now_ns();
    ID3D12PipelineState *state = NULL;
    HR(ID3D12Device_CreateGraphicsPipelineState(device, desc, &IID_ID3D12PipelineState, (void **)&state));
    ID3D12PipelineState_Release(state);
    return (bench_now_ns() - start) / 1e3;
}

static struct bench_figure graphics_steady(ID3D12Device *device, const D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc, const struct sizes *n)
{
    static double samples[MAX_SAMPLES];
    for (unsigned i = 0; i < n->warmup; i++)
        graphics_sample(device, desc);
    for (unsigned i = 0; i < n->steady; i++)
        samples[i] = graphics_sample(device, desc);
    return bench_figure_of(samples, n->steady);
}

static void measure_graphics(const struct bench_vk *raw, const struct sizes *n, struct graphics_figures *out)
{
    static const D3D12_INPUT_ELEMENT_DESC layout[] = {
        {"POSITION", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
        {"COLOR", 0, DXGI_FORMAT_R8G8B8A8_UNORM, 0, 12, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    };
    static double samples[MAX_SAMPLES];
    ID3DBlob *vs = compile_stage("vs", "vs_6_0"), *ps = compile_stage("ps", "ps_6_0"), *blob = NULL;
    char name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC root_desc;
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    D3D12_ROOT_PARAMETER1 parameter;
    ID3D12RootSignature *signature = NULL;
    ID3D12PipelineState *live = NULL;
    ID3DBlob *serialized = NULL;
    ID3D12Device *device;
    bool cpu_device;

    device = bench_d3d_create_device(raw, name, &cpu_device);
    memset(&parameter, 0, sizeof(parameter));
    parameter.ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameter.Constants.Num32BitValues = 4;
    memset(&root_desc, 0, sizeof(root_desc));
    root_desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    root_desc.Desc_1_1.NumParameters = 1;
    root_desc.Desc_1_1.pParameters = &parameter;
    root_desc.Desc_1_1.Flags = D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT;
    HR(D3D12SerializeVersionedRootSignature(&root_desc, &serialized, NULL));
    HR(ID3D12Device_CreateRootSignature(device, 0, ID3D10Blob_GetBufferPointer(serialized), ID3D10Blob_GetBufferSize(serialized),
            &IID_ID3D12RootSignature, (void **)&signature));
    ID3D10Blob_Release(serialized);

    memset(&desc, 0, sizeof(desc));
    desc.pRootSignature = signature;
    desc.VS = (D3D12_SHADER_BYTECODE){ID3D10Blob_GetBufferPointer(vs), ID3D10Blob_GetBufferSize(vs)};
    desc.PS = (D3D12_SHADER_BYTECODE){ID3D10Blob_GetBufferPointer(ps), ID3D10Blob_GetBufferSize(ps)};
    for (unsigned i = 0; i < D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT; i++) {
        D3D12_RENDER_TARGET_BLEND_DESC *rt = &desc.BlendState.RenderTarget[i];
        rt->SrcBlend = rt->SrcBlendAlpha = D3D12_BLEND_ONE;
        rt->DestBlend = rt->DestBlendAlpha = D3D12_BLEND_ZERO;
        rt->BlendOp = rt->BlendOpAlpha = D3D12_BLEND_OP_ADD;
        rt->LogicOp = D3D12_LOGIC_OP_NOOP;
        rt->RenderTargetWriteMask = D3D12_COLOR_WRITE_ENABLE_ALL;
    }
    desc.SampleMask = UINT32_MAX;
    desc.RasterizerState.FillMode = D3D12_FILL_MODE_SOLID;
    desc.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    desc.RasterizerState.DepthClipEnable = TRUE;
    desc.InputLayout = (D3D12_INPUT_LAYOUT_DESC){layout, 2};
    desc.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
    desc.NumRenderTargets = 1;
    desc.RTVFormats[0] = DXGI_FORMAT_R8G8B8A8_UNORM;
    desc.SampleDesc.Count = 1;

    out->steady = graphics_steady(device, &desc, n);
    HR(ID3D12Device_CreateGraphicsPipelineState(device, &desc, &IID_ID3D12PipelineState, (void **)&live));
    HR(ID3D12PipelineState_GetCachedBlob(live, &blob));
    /* create_identical: CPU time of a creation + Release with `live` alive, in batches */
    for (unsigned i = 0; i < n->warmup + n->steady; i++) {
        double start = bench_thread_cpu_ns();
        for (unsigned k = 0; k < IDENTICAL_BATCH; k++) {
            ID3D12PipelineState *state = NULL;
            HR(ID3D12Device_CreateGraphicsPipelineState(device, &desc, &IID_ID3D12PipelineState, (void **)&state));
            ID3D12PipelineState_Release(state);
        }
        if (i >= n->warmup)
            samples[i - n->warmup] = (bench_thread_cpu_ns() - start) / 1e3 / IDENTICAL_BATCH;
    }
    out->identical = bench_figure_of(samples, n->steady);
    ID3D12PipelineState_Release(live);
    desc.CachedPSO = (D3D12_CACHED_PIPELINE_STATE){ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob)};
    out->from_blob = graphics_steady(device, &desc, n);
    ID3D10Blob_Release(blob);
    ID3D12RootSignature_Release(signature);
    ID3D10Blob_Release(vs);
    ID3D10Blob_Release(ps);
    ID3D12Device_Release(device);
}
#endif

static struct sizes sizes_for(const struct bench_vk *vk)
{
    /* lavapipe compiles with LLVM (milliseconds a pipeline) on a shared CPU; a GPU's driver is
     * faster by two orders of magnitude, so it affords more samples. */
    if (vk->properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU)
        return (struct sizes){101, 10, 7};
    return (struct sizes){2001, 100, 15};
}

#ifdef BENCH_VKD3D
/* bench_pipeline_vkd3d peer: vkd3d's figures only, on one line. */
static int peer(void)
{
    struct bench_bytes code = d3d_shader_bytes();
    struct results v;
    struct raw r;
    struct sizes n;
    struct d3d d;

    raw_open(&r);
    n = sizes_for(&r.vk);
    d3d_init(&d, &r.vk, &code);
    d3d_check(&d);
    measure_steady(&d, NULL, &n, &v, NULL);
    measure_identical(&d, NULL, &n, &v, NULL);
    d3d_destroy(&d);
    measure_first(&code, NULL, &n, &v, NULL);
    printf("device=%s\n", d.device_name);
    printf("steady_us=%.3f steady_min_us=%.3f steady_count=%u first_us=%.3f first_min_us=%.3f first_count=%u dxbc_bytes=%zu "
            "identical_us=%.3f identical_min_us=%.3f identical_count=%u\n",
            v.steady.median, v.steady.min, v.steady.count, v.first.median, v.first.min, v.first.count, code.size,
            v.identical.median, v.identical.min, v.identical.count);
    vkDestroyInstance(r.vk.instance, NULL);
    free(code.data);
    return 0;
}
#else
/* vkd3d's figures from bench_pipeline_vkd3d next to this program, where it was built and runs
 * (a copied build tree needs vkd3d's libraries where it goes); else why not, in `why`. */
static bool run_peer(struct results *v, char *device, size_t device_size, size_t *dxbc_bytes, char *why, size_t why_size)
{
    struct bench_bytes out;

    if (!bench_run_peer(PEER_PROGRAM, &out, why, why_size))
        return false;
    v->steady = (struct bench_figure){bench_field(out.data, "steady_us"), bench_field(out.data, "steady_min_us"), (unsigned)bench_field(out.data, "steady_count")};
    v->first = (struct bench_figure){bench_field(out.data, "first_us"), bench_field(out.data, "first_min_us"), (unsigned)bench_field(out.data, "first_count")};
    v->identical = (struct bench_figure){bench_field(out.data, "identical_us"), bench_field(out.data, "identical_min_us"),
            (unsigned)bench_field(out.data, "identical_count")};
    *dxbc_bytes = (size_t)bench_field(out.data, "dxbc_bytes");
    bench_text_field(out.data, "device", device, device_size);
    free(out.data);
    return true;
}
#endif

/* D3D12XS_BENCH_OUT=<path>: the figures as TSV ("-" where vkd3d was not measured). */
static void write_tsv(const char *path, const char *device, const struct sizes *n, const struct results *d3d, const struct results *raw,
        const struct results *peer)
{
    static const char *const keys[3] = {"pipeline_steady_us", "pipeline_first_us", "pipeline_create_identical_us"};
    FILE *f = fopen(path, "w");

    REQUIRE(f, "cannot write D3D12XS_BENCH_OUT=%s", path);
    fprintf(f, "# bench_pipeline\tside=%s\tdevice=%s\tsteady_count=%u\twarmup=%u\tchildren=%u\n", SIDE, device, n->steady, n->warmup,
            n->children);
    fprintf(f, "# figure\tunit\t%s\traw_vulkan\tratio_raw\tvkd3d\tratio_vkd3d\t%s_min\traw_min\tvkd3d_min\n", SIDE, SIDE);
    for (unsigned i = 0; i < 3; i++) {
        const struct bench_figure *a = i == 2 ? &d3d->identical : i ? &d3d->first : &d3d->steady;
        const struct bench_figure *b = i == 2 ? &raw->identical : i ? &raw->first : &raw->steady;
        const struct bench_figure *c = peer ? (i == 2 ? &peer->identical : i ? &peer->first : &peer->steady) : NULL;
        char peer_median[32] = "-", peer_ratio[32] = "-", peer_min[32] = "-";
        if (c) {
            snprintf(peer_median, sizeof(peer_median), "%.3f", c->median);
            snprintf(peer_ratio, sizeof(peer_ratio), "%.4f", a->median / c->median);
            snprintf(peer_min, sizeof(peer_min), "%.3f", c->min);
        }
        fprintf(f, "%s\tus\t%.3f\t%.3f\t%.4f\t%s\t%s\t%.3f\t%.3f\t%s\n", keys[i], a->median, b->median, a->median / b->median,
                peer_median, peer_ratio, a->min, b->min, peer_min);
    }
    REQUIRE(fclose(f) == 0, "cannot write D3D12XS_BENCH_OUT=%s", path);
}

static void print_line(const char *name, const struct bench_figure *d3d, const struct bench_figure *raw, const struct bench_figure *peer)
{
    /* create_identical is a few us: two decimals there */
    int digits = d3d->median < 10 ? 2 : 1;
    printf("pipeline %s: %s %.*f us, raw Vulkan %.1f us (%.*f)", name, SIDE, digits, d3d->median, raw->median, digits + 1,
            d3d->median / raw->median);
#ifndef BENCH_VKD3D
    if (peer)
        printf(", vkd3d %.1f us (%.*f)\n", peer->median, digits + 1, d3d->median / peer->median);
    else
        printf(", vkd3d not measured\n");
#else
    (void)peer;
    printf("\n");
#endif
}

int main(int argc, char **argv)
{
    struct bench_bytes code, spirv;
    struct results d3d_results, raw_results, peer_results;
#ifndef BENCH_VKD3D
    struct bench_bytes dxbc = {NULL, 0};
    struct results dxbc_results, blob_results, dxbc_blob_results, indirect_results = {0};
    struct bench_figure dxbc_distinct, raw_distinct;
    struct graphics_figures graphics;
#endif
    bool have_peer = false;
    char peer_device[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE] = "", why[PATH_MAX + 128] = "";
    size_t peer_code_size = 0;
    struct sizes n;
    struct raw r;
    struct d3d d;

    /* No validation layer: it would measure itself. The children inherit this. */
    setenv("D3D12XS_DEBUG", "0", 1);
    if (argc == 2 && !strcmp(argv[1], "first-d3d12"))
        return child_first(true, false);
    if (argc == 2 && !strcmp(argv[1], "first-d3d12-blob"))
        return child_first(true, true);
    if (argc == 2 && !strcmp(argv[1], "first-vulkan"))
        return child_first(false, false);
#ifdef BENCH_VKD3D
    if (argc == 2 && !strcmp(argv[1], "peer"))
        return peer();
#endif
    if (argc > 1) {
        fprintf(stderr, "usage: %s   (no arguments)\n", argv[0]);
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);

    code = d3d_shader_bytes();
    spirv = raw_shader_bytes();
    raw_open(&r);
    n = sizes_for(&r.vk);
    d3d_init(&d, &r.vk, &code);
    raw_init(&r, &spirv);
    printf("%-15s: %s\n", SIDE " device", d.device_name);
    printf("raw Vulkan     : %s (%s, %s)\n", r.vk.properties.deviceName, r.vk.driver.driverName, r.vk.driver.driverInfo);
    if (strcmp(d.device_name, r.vk.properties.deviceName))
        printf("WARNING: the two sides do not run on the same device\n");
    printf("kernel         : numthreads(64, 1, 1), u0.Store(id * 4, id); one root UAV / one push-descriptor storage buffer\n");
    printf("shader bytes   : %s %zu (%s), raw Vulkan %zu (SPIR-V from shaderc)\n", SIDE, code.size,
#ifdef BENCH_VKD3D
            "DXBC from tests/dxbc_writer.c",
#else
            "D3DCompile cs_6_0, compiled once before timing",
#endif
            spirv.size);
    printf("samples        : steady %u creations + Release per side after %u warm-up, sides alternating; first: %u fresh processes per side;\n"
           "                 create_identical: %u samples of %u creations + Release each with one of the same description alive,\n"
           "                 this thread's CPU time\n",
            n.steady, n.warmup, n.children, n.steady, IDENTICAL_BATCH);

    d3d_check(&d);
    printf("check          : the %s pipeline wrote all %u words right\n", SIDE, WORDS);
    measure_steady(&d, &r, &n, &d3d_results, &raw_results);
    measure_identical(&d, &r, &n, &d3d_results, &raw_results);
#ifndef BENCH_VKD3D
    measure_from_blob(&d, &code, &n, &blob_results);
    /* With a command signature that sets the root UAV alive: each creation also makes the
     * pipeline's ExecuteIndirect variant, ahead of need (docs/indirect.md) */
    {
        D3D12_INDIRECT_ARGUMENT_DESC arguments[2] = {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW},
                {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH}};
        const D3D12_COMMAND_SIGNATURE_DESC signature_desc = {sizeof(D3D12_GPU_VIRTUAL_ADDRESS) + sizeof(D3D12_DISPATCH_ARGUMENTS), 2,
                arguments, 0};
        ID3D12CommandSignature *command_signature = NULL;
        if (SUCCEEDED(ID3D12Device_CreateCommandSignature(d.device, &signature_desc, d.signature, &IID_ID3D12CommandSignature,
                (void **)&command_signature))) {
            measure_steady(&d, NULL, &n, &indirect_results, NULL);
            ID3D12CommandSignature_Release(command_signature);
        }
    }
#endif
    d3d_destroy(&d);
#ifndef BENCH_VKD3D
    /* d3d12xs again from the DXBC vkd3d gets: steady creations find the translation kept (no
     * helper process), a fresh process's first one starts the helper and translates */
    {
        struct d3d dxbc_side;
        dxbc = dxbc_shader_bytes();
        d3d_init(&dxbc_side, &r.vk, &dxbc);
        d3d_check(&dxbc_side);
        printf("check          : the %s pipeline from DXBC wrote all %u words right\n", SIDE, WORDS);
        measure_steady(&dxbc_side, NULL, &n, &dxbc_results, NULL);
        measure_from_blob(&dxbc_side, &dxbc, &n, &dxbc_blob_results);
        dxbc_distinct = measure_distinct_dxbc(&dxbc_side, &n);
        raw_distinct = measure_distinct_raw(&r, &n);
        d3d_destroy(&dxbc_side);
    }
    measure_graphics(&r.vk, &n, &graphics);
#endif
    raw_destroy(&r);
    measure_first(&code, &spirv, &n, &d3d_results, &raw_results);
#ifndef BENCH_VKD3D
    measure_first(&dxbc, NULL, &n, &dxbc_results, NULL);
#endif
#ifndef BENCH_VKD3D
    have_peer = run_peer(&peer_results, peer_device, sizeof(peer_device), &peer_code_size, why, sizeof(why));
    if (have_peer)
        printf("vkd3d          : %s (%s, DXBC %zu bytes from tests/dxbc_writer.c, its output checked), run after the others%s\n",
                peer_device, PEER_PROGRAM, peer_code_size, strcmp(peer_device, d.device_name) ? "; WARNING: another device" : "");
    else
        printf("vkd3d          : not measured (%s)\n", why);
#else
    (void)peer_device;
    (void)peer_code_size;
    (void)why;
#endif

    printf("\n");
    print_line("steady", &d3d_results.steady, &raw_results.steady, have_peer ? &peer_results.steady : NULL);
    print_line("first", &d3d_results.first, &raw_results.first, have_peer ? &peer_results.first : NULL);
    print_line("create_identical (CPU)", &d3d_results.identical, &raw_results.identical, have_peer ? &peer_results.identical : NULL);
#ifndef BENCH_VKD3D
    print_line("steady from DXBC", &dxbc_results.steady, &raw_results.steady, have_peer ? &peer_results.steady : NULL);
    print_line("first from DXBC", &dxbc_results.first, &raw_results.first, have_peer ? &peer_results.first : NULL);
    print_line("new DXBC each (raw: new SPIR-V each)", &dxbc_distinct, &raw_distinct, have_peer ? &peer_results.steady : NULL);
    /* medians (minima): the machine may be shared */
    printf("pipeline steady with an ExecuteIndirect signature of its root UAV alive (its variant made too): %s %.1f (%.1f) us\n", SIDE,
            indirect_results.steady.median, indirect_results.steady.min);
    printf("pipeline steady from cached blob: %s %.1f (%.1f) us; from HLSL %.1f (%.1f), from DXBC %.1f (%.1f)\n", SIDE,
            blob_results.steady.median, blob_results.steady.min, d3d_results.steady.median, d3d_results.steady.min,
            dxbc_results.steady.median, dxbc_results.steady.min);
    printf("pipeline first from cached blob: %s %.1f (%.1f) us; from HLSL %.1f (%.1f), from DXBC %.1f (%.1f)\n", SIDE,
            blob_results.first.median, blob_results.first.min, d3d_results.first.median, d3d_results.first.min,
            dxbc_results.first.median, dxbc_results.first.min);
    printf("pipeline from the DXBC description's cached blob: steady %s %.1f (%.1f) us, first %.1f (%.1f) us\n", SIDE,
            dxbc_blob_results.steady.median, dxbc_blob_results.steady.min, dxbc_blob_results.first.median, dxbc_blob_results.first.min);
    printf("graphics pipeline (VS + PS, 2 input elements): steady %s %.1f (%.1f) us, from cached blob %.1f (%.1f) us, "
            "create_identical (CPU) %.2f (%.2f) us\n", SIDE, graphics.steady.median, graphics.steady.min, graphics.from_blob.median,
            graphics.from_blob.min, graphics.identical.median, graphics.identical.min);
    free(dxbc.data);
#endif
    printf("minimum: steady %s %.1f, raw Vulkan %.1f", SIDE, d3d_results.steady.min, raw_results.steady.min);
    if (have_peer)
        printf(", vkd3d %.1f", peer_results.steady.min);
    printf(" us; first %s %.1f, raw Vulkan %.1f", SIDE, d3d_results.first.min, raw_results.first.min);
    if (have_peer)
        printf(", vkd3d %.1f", peer_results.first.min);
    printf(" us\n");
    printf("medians; (ratio): %s's median / that side's, above 1 = %s slower; raw Vulkan is measured in this run,\n"
           "alternating with %s.%s\n", SIDE, SIDE, SIDE,
#ifdef BENCH_VKD3D
            ""
#else
            " vkd3d runs in its own process after the others (its ratio spans two processes)."
#endif
            );
    if (getenv("D3D12XS_BENCH_OUT"))
        write_tsv(getenv("D3D12XS_BENCH_OUT"), d.device_name, &n, &d3d_results, &raw_results, have_peer ? &peer_results : NULL);
    free(code.data);
    free(spirv.data);
    return 0;
}
