/* bench_binding: what binding costs since descriptor heaps became descriptor buffers, next to Wine's
 * vkd3d 1.2 running the same D3D12 program and, where stated, raw Vulkan doing the same work:
 *
 *   root_constant_dispatch  CPU ns per SetComputeRoot32BitConstant + Dispatch(1,1,1);
 *                           raw Vulkan: vkCmdPushConstants of 4 bytes + vkCmdDispatch(1,1,1)
 *   table_dispatch          CPU ns per SetComputeRootDescriptorTable (4 UAVs, two tables in turn) + Dispatch;
 *                           raw Vulkan: vkCmdPushConstants of the table's start (two in turn) + vkCmdDispatch
 *                           of a descriptor-buffer pipeline, what d3d12xs records per table change
 *   copy_descriptors_1/_64  CPU ns per CopyDescriptorsSimple of 1 / 64 descriptors into a shader-visible heap;
 *                           raw Vulkan (1): a memcpy of a storage-buffer descriptor kept in CPU memory into
 *                           a mapped descriptor buffer, the bytes a copy must move and nothing else
 *   create_srv              CPU ns per CreateShaderResourceView (raw buffer) into a shader-visible heap;
 *                           raw Vulkan: vkGetDescriptorEXT of a storage buffer into a descriptor buffer
 *   root_uav_dispatch       CPU ns per SetComputeRootUnorderedAccessView (two buffers in turn) + Dispatch(1,1,1):
 *                           the address's lookup in the GPU virtual address map, then a push descriptor
 *   create_cbv              CPU ns per CreateConstantBufferView (256 bytes, by address) into a shader-visible heap
 *   gpu_table_1000          GPU us per dispatch of a shader reading through a 1,000-descriptor table;
 *                           raw Vulkan: the same HLSL, its descriptors in a descriptor buffer
 *
 * vkd3d's column comes from this program built a second time against vkd3d (bench_binding_vkd3d,
 * BENCH_VKD3D defined, its shaders from tests/dxbc_writer.c), which the d3d12xs build runs beside
 * itself with the argument `peer`, in rounds that alternate with its own. Before timing, each D3D12
 * side runs the figures' dispatches and checks every word they wrote. See docs/benchmarks.md.
 * D3D12XS_BENCH_OUT=<path> also writes the figures as TSV. */
#include <malloc.h>

#ifdef BENCH_VKD3D
#define INITGUID /* vkd3d's headers define the IIDs in the one file that asks */
#endif
#include "bench_util.h"
#ifdef BENCH_VKD3D
#include "dxbc_writer.h"
#define SIDE "vkd3d"
#else
#define SIDE "d3d12xs"
#define PEER_PROGRAM "bench_binding_vkd3d"
#endif

const char *bench_name = "bench_binding";

#define PAIRS 1000                  /* set + Dispatch pairs per recorded list (figures 1, 2) */
#define THREADS 64                  /* threads of the figure 1 and 2 kernels (one group) */
#define TABLE_UAVS 4
#define COPY_MAX 64
#define VIEW_WORDS 64               /* each raw view: 64 words, 256 bytes apart (any device's alignment) */
#define GPU_TABLE_SIZE 1000         /* figure 5: descriptors in the table, threads in the dispatch */
#define GPU_GROUP 8
#define ROUNDS 3                    /* with a peer: this side, the peer, this side, ... */
#define MAX_SAMPLES 1024

/* Where each figure's descriptors sit in the shader-visible heap. */
#define SLOT_TABLES 0               /* two tables of 4 UAVs: 0-3 and 4-7 */
#define SLOT_COPIES 8               /* 8 destinations of 64 copied descriptors, used in turn */
#define COPY_DESTINATIONS 8
#define SLOT_CREATED (SLOT_COPIES + COPY_DESTINATIONS * COPY_MAX)  /* 64 created SRVs, in turn */
#define CREATED_SLOTS 64
#define SLOT_GPU_TABLE 1024         /* figure 5's 1,000 typed SRVs */
#define VISIBLE_SLOTS (SLOT_GPU_TABLE + GPU_TABLE_SIZE)
/* The non-shader-visible heap: 64 raw SRVs (the copies' source), then figure 2's 8 UAVs. */
#define STAGING_TABLE_UAVS COPY_MAX
#define STAGING_SLOTS (COPY_MAX + 2 * TABLE_UAVS)

enum figure_id { FIG_ROOT_CONSTANT, FIG_TABLE, FIG_COPY_1, FIG_COPY_64, FIG_CREATE_SRV, FIG_ROOT_UAV, FIG_CREATE_CBV, FIG_GPU_TABLE,
    FIG_COUNT };
static const char *const figure_names[FIG_COUNT] = {
    "root_constant_dispatch", "table_dispatch", "copy_descriptors_1", "copy_descriptors_64", "create_srv", "root_uav_dispatch",
    "create_cbv", "gpu_table_1000",
};
static const char *const figure_units[FIG_COUNT] = {"ns", "ns", "ns", "ns", "ns", "ns", "ns", "us"};
static const int figure_decimals[FIG_COUNT] = {1, 1, 1, 1, 1, 1, 1, 3};

enum side_id { SIDE_D3D, SIDE_PEER, SIDE_RAW, SIDE_COUNT };

static double samples[SIDE_COUNT][FIG_COUNT][MAX_SAMPLES];
static unsigned sample_counts[SIDE_COUNT][FIG_COUNT];

static void add_sample(enum side_id side, enum figure_id figure, double value)
{
    REQUIRE(sample_counts[side][figure] < MAX_SAMPLES, "too many samples of %s", figure_names[figure]);
    samples[side][figure][sample_counts[side][figure]++] = value;
}

struct sizes {
    unsigned samples, warmup;       /* per round, CPU figures */
    unsigned calls;                 /* calls per sample of the descriptor figures */
    unsigned gpu_dispatches, gpu_reps;
};

static struct sizes sizes_for(bool cpu_device)
{
    /* lavapipe records and runs on this machine's CPU; a GPU affords more dispatches per sample. */
    if (cpu_device)
        return (struct sizes){101, 5, 1000, 200, 31};
    return (struct sizes){201, 20, 1000, 10000, 31};
}

/* The value figure 2's UAV k gets at word j. */
static uint32_t table_output(uint32_t uav, uint32_t j) { return (uav + 1) << 16 | j; }

/* ---- kernels ------------------------------------------------------------------------------ */

/* Figure 1: u0[id] = the root constant + id. */
static const char constant_hlsl[] = BENCH_HLSL_PROLOGUE
    "PUSH_CONSTANTS(Constants) { uint value; };\n"
    "BINDING(0) RWByteAddressBuffer output : register(u0);\n"
    "[numthreads(64, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, value + id.x); }\n";

/* Figure 2: uK[id] = (K + 1) << 16 | id for the four UAVs of the table. */
static const char table_hlsl[] = BENCH_HLSL_PROLOGUE
    "RWByteAddressBuffer out0 : register(u0);\n"
    "RWByteAddressBuffer out1 : register(u1);\n"
    "RWByteAddressBuffer out2 : register(u2);\n"
    "RWByteAddressBuffer out3 : register(u3);\n"
    "[numthreads(64, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID)\n"
    "{\n"
    "    out0.Store(id.x * 4, 0x10000 | id.x);\n"
    "    out1.Store(id.x * 4, 0x20000 | id.x);\n"
    "    out2.Store(id.x * 4, 0x30000 | id.x);\n"
    "    out3.Store(id.x * 4, 0x40000 | id.x);\n"
    "}\n";

#ifndef BENCH_VKD3D
/* The word at element 0 of figure 5's input view k. */
static uint32_t table_input(uint32_t k) { return k * 2654435761u ^ 0x5bd1e995u; }

/* Figure 5 (not on vkd3d): thread i copies element 0 of typed view i of the table to output word i. */
static const char gpu_table_hlsl[] =
    "Buffer<uint> inputs[1000] : register(t0);\n"
    "RWByteAddressBuffer output : register(u0);\n"
    "[numthreads(8, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, inputs[NonUniformResourceIndex(id.x)][0]); }\n";

/* The same for raw Vulkan in GLSL: glslang's HLSL has no NonUniformResourceIndex (D3DCompile
 * rewrites it), and without the NonUniform decoration a GPU may read one descriptor per wave.
 * Binding 0: the 1,000 uniform texel buffers, binding 1: the output. */
static const char gpu_table_glsl[] =
    "#version 450\n"
    "#extension GL_EXT_nonuniform_qualifier : require\n"
    "layout(local_size_x = 8) in;\n"
    "layout(set = 0, binding = 0) uniform usamplerBuffer inputs[1000];\n"
    "layout(set = 0, binding = 1) writeonly buffer Output { uint words[]; };\n"
    "void main() { uint i = gl_GlobalInvocationID.x; words[i] = texelFetch(inputs[nonuniformEXT(i)], 0).x; }\n";

/* Figure 2 for raw Vulkan as d3d12xs runs it: the table is its start, a push constant, into an
 * array of storage buffers in a descriptor buffer (d3d12xs's heap: one array for the whole heap),
 * and UAV k is element start + k. Binding 0: the two tables' 2 x 4 output buffers. */
static const char table_glsl[] =
    "#version 450\n"
    "layout(local_size_x = 64) in;\n"
    "layout(push_constant) uniform Table { uint start; };\n"
    "layout(set = 0, binding = 0) writeonly buffer Output { uint words[]; } outputs[8];\n"
    "void main()\n"
    "{\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    outputs[start].words[i] = 0x10000u | i;\n"
    "    outputs[start + 1u].words[i] = 0x20000u | i;\n"
    "    outputs[start + 2u].words[i] = 0x30000u | i;\n"
    "    outputs[start + 3u].words[i] = 0x40000u | i;\n"
    "}\n";
#endif

#ifdef BENCH_VKD3D
/* The kernels of figures 1 and 2 in shader model 5.0, as FXC would compile them. */
static const struct dxbc_instruction constant_sm5[] = {
    {DXBC_OP_DCL_CONSTANT_BUFFER, 1, {DXBC_CB_DECL(0, 1)}, 0, {0}},
    {DXBC_OP_DCL_UAV_RAW, 1, {DXBC_RESOURCE(DXBC_UAV, 0)}, 0, {0}},
    {DXBC_OP_DCL_INPUT, 1, {DXBC_DST(DXBC_THREAD_ID, 0, DXBC_X)}, 0, {0}},
    {DXBC_OP_DCL_TEMPS, 0, {{0}}, 1, {1}},
    {DXBC_OP_DCL_THREAD_GROUP, 0, {{0}}, 3, {THREADS, 1, 1}},
    {DXBC_OP_ISHL, 3, {DXBC_DST(DXBC_TEMP, 0, DXBC_X), DXBC_SRC(DXBC_THREAD_ID, 0, 0), DXBC_IMM(2)}, 0, {0}},
    {DXBC_OP_IADD, 3, {DXBC_DST(DXBC_TEMP, 0, DXBC_Y), DXBC_SRC(DXBC_THREAD_ID, 0, 0), DXBC_CB_SRC(0, 0, 0)}, 0, {0}},
    {DXBC_OP_STORE_RAW, 3, {DXBC_DST(DXBC_UAV, 0, DXBC_X), DXBC_SRC(DXBC_TEMP, 0, 0), DXBC_SRC(DXBC_TEMP, 0, 1)}, 0, {0}},
    {DXBC_OP_RET, 0, {{0}}, 0, {0}},
};

#define TABLE_STORE(k) \
    {DXBC_OP_IADD, 3, {DXBC_DST(DXBC_TEMP, 0, DXBC_Y), DXBC_SRC(DXBC_THREAD_ID, 0, 0), DXBC_IMM((k + 1) << 16)}, 0, {0}}, \
    {DXBC_OP_STORE_RAW, 3, {DXBC_DST(DXBC_UAV, k, DXBC_X), DXBC_SRC(DXBC_TEMP, 0, 0), DXBC_SRC(DXBC_TEMP, 0, 1)}, 0, {0}}
/* iadd, not or: id < 64 never reaches bit 16, so the sum is the HLSL's or. */
static const struct dxbc_instruction table_sm5[] = {
    {DXBC_OP_DCL_UAV_RAW, 1, {DXBC_RESOURCE(DXBC_UAV, 0)}, 0, {0}},
    {DXBC_OP_DCL_UAV_RAW, 1, {DXBC_RESOURCE(DXBC_UAV, 1)}, 0, {0}},
    {DXBC_OP_DCL_UAV_RAW, 1, {DXBC_RESOURCE(DXBC_UAV, 2)}, 0, {0}},
    {DXBC_OP_DCL_UAV_RAW, 1, {DXBC_RESOURCE(DXBC_UAV, 3)}, 0, {0}},
    {DXBC_OP_DCL_INPUT, 1, {DXBC_DST(DXBC_THREAD_ID, 0, DXBC_X)}, 0, {0}},
    {DXBC_OP_DCL_TEMPS, 0, {{0}}, 1, {1}},
    {DXBC_OP_DCL_THREAD_GROUP, 0, {{0}}, 3, {THREADS, 1, 1}},
    {DXBC_OP_ISHL, 3, {DXBC_DST(DXBC_TEMP, 0, DXBC_X), DXBC_SRC(DXBC_THREAD_ID, 0, 0), DXBC_IMM(2)}, 0, {0}},
    TABLE_STORE(0), TABLE_STORE(1), TABLE_STORE(2), TABLE_STORE(3),
    {DXBC_OP_RET, 0, {{0}}, 0, {0}},
};
#endif

/* ---- the D3D12 side (d3d12xs, or vkd3d in bench_binding_vkd3d) ---------------------------- */

struct d3d {
    ID3D12Device *device;
    char device_name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
    bool cpu_device;
    struct bench_d3d_queue q;                      /* COMPUTE */
    ID3D12CommandAllocator *allocator;             /* the timed recordings */
    ID3D12GraphicsCommandList *list;
    ID3D12DescriptorHeap *visible, *staging;       /* shader-visible; CPU-only */
    UINT increment;

    ID3D12RootSignature *constant_signature, *table_signature;
    ID3D12PipelineState *constant_pipeline, *table_pipeline;
    ID3D12Resource *constant_output, *table_outputs[2 * TABLE_UAVS], *view_buffer;
    D3D12_SHADER_RESOURCE_VIEW_DESC raw_srv;       /* figure 4's view of view_buffer */

#ifndef BENCH_VKD3D
    ID3D12RootSignature *gpu_signature;
    ID3D12PipelineState *gpu_pipeline;
    ID3D12Resource *gpu_inputs, *gpu_output, *query_results;
    ID3D12QueryHeap *queries;
    ID3D12CommandAllocator *gpu_allocator;
    ID3D12GraphicsCommandList *gpu_list;
#endif
};

static D3D12_CPU_DESCRIPTOR_HANDLE cpu_slot(const struct d3d *d, ID3D12DescriptorHeap *heap, unsigned slot)
{
    D3D12_CPU_DESCRIPTOR_HANDLE handle = bench_d3d_heap_cpu_start(heap);
    handle.ptr += (SIZE_T)slot * d->increment;
    return handle;
}

static D3D12_GPU_DESCRIPTOR_HANDLE gpu_slot(const struct d3d *d, unsigned slot)
{
    D3D12_GPU_DESCRIPTOR_HANDLE handle = bench_d3d_heap_gpu_start(d->visible);
    handle.ptr += (UINT64)slot * d->increment;
    return handle;
}

static ID3D12DescriptorHeap *d3d_heap(ID3D12Device *device, unsigned slots, bool shader_visible)
{
    D3D12_DESCRIPTOR_HEAP_DESC desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, slots,
            shader_visible ? D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE : D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    ID3D12DescriptorHeap *heap = NULL;
    HR(ID3D12Device_CreateDescriptorHeap(device, &desc, &IID_ID3D12DescriptorHeap, (void **)&heap));
    return heap;
}

/* The pipeline of one kernel: D3DCompile's blob on d3d12xs, the writer's DXBC on vkd3d. */
#ifdef BENCH_VKD3D
struct dxbc_instruction_table {
    const struct dxbc_instruction *instructions;
    size_t count;
};
#define SM5(table) (&(const struct dxbc_instruction_table){table, BENCH_ARRAY_SIZE(table)})

static ID3D12PipelineState *d3d_pipeline(ID3D12Device *device, ID3D12RootSignature *signature, const char *hlsl,
        const struct dxbc_instruction_table *sm5)
{
    D3D12_COMPUTE_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *state = NULL;
    size_t size;
    void *code = dxbc_write_shader(DXBC_COMPUTE_SHADER, 5, 0, sm5->instructions, sm5->count, &size);

    (void)hlsl;
    REQUIRE(code, "the DXBC writer could not encode a shader");
    memset(&desc, 0, sizeof(desc));
    desc.pRootSignature = signature;
    desc.CS.pShaderBytecode = code;
    desc.CS.BytecodeLength = size;
    HR(ID3D12Device_CreateComputePipelineState(device, &desc, &IID_ID3D12PipelineState, (void **)&state));
    free(code);
    return state;
}
#else
#define SM5(table) NULL
struct dxbc_instruction_table;

static ID3D12PipelineState *d3d_pipeline(ID3D12Device *device, ID3D12RootSignature *signature, const char *hlsl,
        const struct dxbc_instruction_table *sm5)
{
    (void)sm5;
    return bench_d3d_pipeline(device, signature, hlsl, NULL);
}
#endif

/* A raw view of `words` words from word `first` of a buffer. */
static D3D12_SHADER_RESOURCE_VIEW_DESC raw_srv_desc(UINT64 first, UINT words)
{
    D3D12_SHADER_RESOURCE_VIEW_DESC desc;
    memset(&desc, 0, sizeof(desc));
    desc.Format = DXGI_FORMAT_R32_TYPELESS;
    desc.ViewDimension = D3D12_SRV_DIMENSION_BUFFER;
    desc.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
    desc.Buffer.FirstElement = first;
    desc.Buffer.NumElements = words;
    desc.Buffer.Flags = D3D12_BUFFER_SRV_FLAG_RAW;
    return desc;
}

static void d3d_execute_and_wait(struct d3d *d, ID3D12GraphicsCommandList *list, const char *what)
{
    ID3D12CommandList *lists[] = {(ID3D12CommandList *)list};
    ID3D12CommandQueue_ExecuteCommandLists(d->q.queue, 1, lists);
    HR(ID3D12CommandQueue_Signal(d->q.queue, d->q.fence, ++d->q.fence_value));
    bench_d3d_wait_polled(d->q.fence, d->q.fence_value, what);
}

static ID3D12Resource *d3d_uav_buffer(struct d3d *d, UINT64 bytes)
{
    return bench_d3d_buffer(d->device, D3D12_HEAP_TYPE_DEFAULT, bytes, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS,
            D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
}

/* Maps `bytes` of a READBACK buffer and compares word j with expect(j, context); fails naming the buffer. */
static void d3d_check_words(ID3D12Resource *readback, unsigned words, uint32_t (*expect)(uint32_t, uint32_t), uint32_t context,
        const char *what)
{
    D3D12_RANGE range = {0, (SIZE_T)words * 4};
    const uint32_t *mapped = NULL;
    HR(ID3D12Resource_Map(readback, 0, &range, (void **)&mapped));
    for (uint32_t j = 0; j < words; j++)
        REQUIRE(mapped[j] == expect(context, j), "%s: %s word %u is 0x%x, not 0x%x", SIDE, what, j, mapped[j], expect(context, j));
    ID3D12Resource_Unmap(readback, 0, NULL);
}

/* Reads `words` words of a UAV buffer back into a new READBACK buffer (Release it). */
static ID3D12Resource *d3d_read_back(struct d3d *d, ID3D12Resource *buffer, unsigned words)
{
    ID3D12Resource *readback = bench_d3d_buffer(d->device, D3D12_HEAP_TYPE_READBACK, (UINT64)words * 4, D3D12_RESOURCE_FLAG_NONE,
            D3D12_RESOURCE_STATE_COPY_DEST);
    D3D12_RESOURCE_BARRIER barriers[2] = {
        bench_d3d_transition(buffer, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE),
        bench_d3d_transition(buffer, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_UNORDERED_ACCESS),
    };
    ID3D12CommandAllocator *allocator;
    ID3D12GraphicsCommandList *list;

    bench_d3d_new_list(d->device, d->q.type, &allocator, &list);
    ID3D12GraphicsCommandList_ResourceBarrier(list, 1, &barriers[0]);
    ID3D12GraphicsCommandList_CopyBufferRegion(list, readback, 0, buffer, 0, (UINT64)words * 4);
    ID3D12GraphicsCommandList_ResourceBarrier(list, 1, &barriers[1]);
    HR(ID3D12GraphicsCommandList_Close(list));
    d3d_execute_and_wait(d, list, "a read-back");
    ID3D12GraphicsCommandList_Release(list);
    ID3D12CommandAllocator_Release(allocator);
    return readback;
}

static uint32_t constant_output(uint32_t value, uint32_t j) { return value + j; }

/* A root parameter of one table: `count` descriptors of one type from register 0 (*range is filled). */
static D3D12_ROOT_PARAMETER1 table_parameter(D3D12_DESCRIPTOR_RANGE1 *range, D3D12_DESCRIPTOR_RANGE_TYPE type, UINT count)
{
    D3D12_ROOT_PARAMETER1 parameter;
    memset(range, 0, sizeof(*range));
    range->RangeType = type;
    range->NumDescriptors = count;
    memset(&parameter, 0, sizeof(parameter));
    parameter.ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    parameter.DescriptorTable.NumDescriptorRanges = 1;
    parameter.DescriptorTable.pDescriptorRanges = range;
    return parameter;
}

static void d3d_init(struct d3d *d, const struct bench_vk *raw)
{
    D3D12_ROOT_PARAMETER1 parameters[2];
    D3D12_DESCRIPTOR_RANGE1 range;

    memset(d, 0, sizeof(*d));
    d->device = bench_d3d_create_device(raw, d->device_name, &d->cpu_device);
    bench_d3d_queue_init(d->device, &d->q, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    bench_d3d_new_list(d->device, d->q.type, &d->allocator, &d->list);
    HR(ID3D12GraphicsCommandList_Close(d->list));
    d->visible = d3d_heap(d->device, VISIBLE_SLOTS, true);
    d->staging = d3d_heap(d->device, STAGING_SLOTS, false);
    d->increment = ID3D12Device_GetDescriptorHandleIncrementSize(d->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);

    /* Figure 1: root constant b0 + root UAV u0. */
    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 1;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    d->constant_signature = bench_d3d_root_signature(d->device, parameters, 2);
    d->constant_pipeline = d3d_pipeline(d->device, d->constant_signature, constant_hlsl, SM5(constant_sm5));
    d->constant_output = d3d_uav_buffer(d, THREADS * 4);

    /* Figure 2: one table of UAVs u0-u3, the two tables' views made in the CPU-only heap and
     * copied into the shader-visible one (so the check covers CopyDescriptorsSimple too). */
    memset(parameters, 0, sizeof(parameters));
    parameters[0] = table_parameter(&range, D3D12_DESCRIPTOR_RANGE_TYPE_UAV, TABLE_UAVS);
    d->table_signature = bench_d3d_root_signature(d->device, parameters, 1);
    d->table_pipeline = d3d_pipeline(d->device, d->table_signature, table_hlsl, SM5(table_sm5));
    for (unsigned i = 0; i < 2 * TABLE_UAVS; i++) {
        D3D12_UNORDERED_ACCESS_VIEW_DESC uav;
        memset(&uav, 0, sizeof(uav));
        uav.Format = DXGI_FORMAT_R32_TYPELESS;
        uav.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
        uav.Buffer.NumElements = THREADS;
        uav.Buffer.Flags = D3D12_BUFFER_UAV_FLAG_RAW;
        d->table_outputs[i] = d3d_uav_buffer(d, THREADS * 4);
        ID3D12Device_CreateUnorderedAccessView(d->device, d->table_outputs[i], NULL, &uav, cpu_slot(d, d->staging, STAGING_TABLE_UAVS + i));
    }
    ID3D12Device_CopyDescriptorsSimple(d->device, 2 * TABLE_UAVS, cpu_slot(d, d->visible, SLOT_TABLES),
            cpu_slot(d, d->staging, STAGING_TABLE_UAVS), D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);

    /* Figures 3 and 4: raw SRVs of one buffer, 64 of them in the CPU-only heap as the copies' source. */
    d->view_buffer = d3d_uav_buffer(d, (UINT64)COPY_MAX * VIEW_WORDS * 4);
    for (unsigned i = 0; i < COPY_MAX; i++) {
        D3D12_SHADER_RESOURCE_VIEW_DESC desc = raw_srv_desc((UINT64)i * VIEW_WORDS, VIEW_WORDS);
        ID3D12Device_CreateShaderResourceView(d->device, d->view_buffer, &desc, cpu_slot(d, d->staging, i));
    }
    d->raw_srv = raw_srv_desc(0, COPY_MAX * VIEW_WORDS);
}

/* Runs figures 1 and 2's dispatches once and checks every word they wrote. */
static void d3d_check(struct d3d *d)
{
    ID3D12GraphicsCommandList *list = d->list;
    ID3D12Resource *readback;

    HR(ID3D12CommandAllocator_Reset(d->allocator));
    HR(ID3D12GraphicsCommandList_Reset(list, d->allocator, NULL));
    ID3D12GraphicsCommandList_SetComputeRootSignature(list, d->constant_signature);
    ID3D12GraphicsCommandList_SetPipelineState(list, d->constant_pipeline);
    ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(list, 1, ID3D12Resource_GetGPUVirtualAddress(d->constant_output));
    ID3D12GraphicsCommandList_SetComputeRoot32BitConstant(list, 0, 7, 0);
    ID3D12GraphicsCommandList_Dispatch(list, 1, 1, 1);
    ID3D12GraphicsCommandList_SetDescriptorHeaps(list, 1, &d->visible);
    ID3D12GraphicsCommandList_SetComputeRootSignature(list, d->table_signature);
    ID3D12GraphicsCommandList_SetPipelineState(list, d->table_pipeline);
    ID3D12GraphicsCommandList_SetComputeRootDescriptorTable(list, 0, gpu_slot(d, SLOT_TABLES));
    ID3D12GraphicsCommandList_Dispatch(list, 1, 1, 1);
    ID3D12GraphicsCommandList_SetComputeRootDescriptorTable(list, 0, gpu_slot(d, SLOT_TABLES + TABLE_UAVS));
    ID3D12GraphicsCommandList_Dispatch(list, 1, 1, 1);
    HR(ID3D12GraphicsCommandList_Close(list));
    d3d_execute_and_wait(d, list, "the check dispatches");

    readback = d3d_read_back(d, d->constant_output, THREADS);
    d3d_check_words(readback, THREADS, constant_output, 7, "root_constant_dispatch's output");
    ID3D12Resource_Release(readback);
    for (unsigned i = 0; i < 2 * TABLE_UAVS; i++) {
        char what[64];
        snprintf(what, sizeof(what), "table %u's UAV u%u", i / TABLE_UAVS, i % TABLE_UAVS);
        readback = d3d_read_back(d, d->table_outputs[i], THREADS);
        d3d_check_words(readback, THREADS, table_output, i % TABLE_UAVS, what);
        ID3D12Resource_Release(readback);
    }
}

/* Figure 1: ns per SetComputeRoot32BitConstant + Dispatch; Reset, binding and Close untimed. */
static double d3d_sample_root_constant(struct d3d *d)
{
    ID3D12GraphicsCommandList *list = d->list;
    double start, end;

    HR(ID3D12CommandAllocator_Reset(d->allocator));
    HR(ID3D12GraphicsCommandList_Reset(list, d->allocator, NULL));
    ID3D12GraphicsCommandList_SetComputeRootSignature(list, d->constant_signature);
    ID3D12GraphicsCommandList_SetPipelineState(list, d->constant_pipeline);
    ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(list, 1, ID3D12Resource_GetGPUVirtualAddress(d->constant_output));
    start = bench_now_ns();
    for (unsigned i = 0; i < PAIRS; i++) {
        ID3D12GraphicsCommandList_SetComputeRoot32BitConstant(list, 0, i, 0);
        ID3D12GraphicsCommandList_Dispatch(list, 1, 1, 1);
    }
    end = bench_now_ns();
    HR(ID3D12GraphicsCommandList_Close(list));
    return (end - start) / PAIRS;
}

/* Figure 2: ns per SetComputeRootDescriptorTable (the two tables in turn) + Dispatch. */
static double d3d_sample_table(struct d3d *d)
{
    ID3D12GraphicsCommandList *list = d->list;
    D3D12_GPU_DESCRIPTOR_HANDLE tables[2] = {gpu_slot(d, SLOT_TABLES), gpu_slot(d, SLOT_TABLES + TABLE_UAVS)};
    double start, end;

    HR(ID3D12CommandAllocator_Reset(d->allocator));
    HR(ID3D12GraphicsCommandList_Reset(list, d->allocator, NULL));
    ID3D12GraphicsCommandList_SetDescriptorHeaps(list, 1, &d->visible);
    ID3D12GraphicsCommandList_SetComputeRootSignature(list, d->table_signature);
    ID3D12GraphicsCommandList_SetPipelineState(list, d->table_pipeline);
    start = bench_now_ns();
    for (unsigned i = 0; i < PAIRS; i++) {
        ID3D12GraphicsCommandList_SetComputeRootDescriptorTable(list, 0, tables[i & 1]);
        ID3D12GraphicsCommandList_Dispatch(list, 1, 1, 1);
    }
    end = bench_now_ns();
    HR(ID3D12GraphicsCommandList_Close(list));
    return (end - start) / PAIRS;
}

/* Figure 3: ns per CopyDescriptorsSimple of `count` SRVs, to 8 destinations in turn. */
static double d3d_sample_copy(struct d3d *d, unsigned count, unsigned calls)
{
    D3D12_CPU_DESCRIPTOR_HANDLE source = cpu_slot(d, d->staging, 0), destinations[COPY_DESTINATIONS];
    double start;

    for (unsigned i = 0; i < COPY_DESTINATIONS; i++)
        destinations[i] = cpu_slot(d, d->visible, SLOT_COPIES + i * COPY_MAX);
    start = bench_now_ns();
    for (unsigned i = 0; i < calls; i++)
        ID3D12Device_CopyDescriptorsSimple(d->device, count, destinations[i % COPY_DESTINATIONS], source,
                D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    return (bench_now_ns() - start) / calls;
}

/* Figure 4: ns per CreateShaderResourceView of a raw buffer view, to 64 slots in turn. */
static double d3d_sample_create_srv(struct d3d *d, unsigned calls)
{
    D3D12_CPU_DESCRIPTOR_HANDLE first = cpu_slot(d, d->visible, SLOT_CREATED), slot;
    double start = bench_now_ns();

    for (unsigned i = 0; i < calls; i++) {
        slot.ptr = first.ptr + (SIZE_T)(i % CREATED_SLOTS) * d->increment;
        ID3D12Device_CreateShaderResourceView(d->device, d->view_buffer, &d->raw_srv, slot);
    }
    return (bench_now_ns() - start) / calls;
}

/* ns per SetComputeRootUnorderedAccessView (figure 1's output and table 0's first, in turn) +
 * Dispatch; Reset, binding and Close untimed. */
static double d3d_sample_root_uav(struct d3d *d)
{
    ID3D12GraphicsCommandList *list = d->list;
    D3D12_GPU_VIRTUAL_ADDRESS outputs[2] = {ID3D12Resource_GetGPUVirtualAddress(d->constant_output),
            ID3D12Resource_GetGPUVirtualAddress(d->table_outputs[0])};
    double start, end;

    HR(ID3D12CommandAllocator_Reset(d->allocator));
    HR(ID3D12GraphicsCommandList_Reset(list, d->allocator, NULL));
    ID3D12GraphicsCommandList_SetComputeRootSignature(list, d->constant_signature);
    ID3D12GraphicsCommandList_SetPipelineState(list, d->constant_pipeline);
    ID3D12GraphicsCommandList_SetComputeRoot32BitConstant(list, 0, 0, 0);
    start = bench_now_ns();
    for (unsigned i = 0; i < PAIRS; i++) {
        ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(list, 1, outputs[i & 1]);
        ID3D12GraphicsCommandList_Dispatch(list, 1, 1, 1);
    }
    end = bench_now_ns();
    HR(ID3D12GraphicsCommandList_Close(list));
    return (end - start) / PAIRS;
}

/* ns per CreateConstantBufferView of 256 bytes of the view buffer, to figure 4's 64 slots in turn. */
static double d3d_sample_create_cbv(struct d3d *d, unsigned calls)
{
    D3D12_CPU_DESCRIPTOR_HANDLE first = cpu_slot(d, d->visible, SLOT_CREATED), slot;
    D3D12_CONSTANT_BUFFER_VIEW_DESC desc = {ID3D12Resource_GetGPUVirtualAddress(d->view_buffer), 256};
    double start = bench_now_ns();

    for (unsigned i = 0; i < calls; i++) {
        slot.ptr = first.ptr + (SIZE_T)(i % CREATED_SLOTS) * d->increment;
        ID3D12Device_CreateConstantBufferView(d->device, &desc, slot);
    }
    return (bench_now_ns() - start) / calls;
}

#ifndef BENCH_VKD3D
/* Figure 5 (d3d12xs only): the 1,000 typed views in the shader-visible heap, the list between
 * two timestamps, and a check of its output. */
static void d3d_gpu_init(struct d3d *d, unsigned dispatches)
{
    D3D12_QUERY_HEAP_DESC query_desc = {D3D12_QUERY_HEAP_TYPE_TIMESTAMP, 2, 0};
    const UINT64 input_bytes = (UINT64)GPU_TABLE_SIZE * VIEW_WORDS * 4;
    D3D12_ROOT_PARAMETER1 parameters[2];
    D3D12_DESCRIPTOR_RANGE1 range;
    ID3D12GraphicsCommandList *list;
    ID3D12CommandAllocator *allocator;
    ID3D12Resource *upload, *readback;
    D3D12_RESOURCE_BARRIER barrier;
    uint32_t *words = NULL;

    memset(parameters, 0, sizeof(parameters));
    parameters[0] = table_parameter(&range, D3D12_DESCRIPTOR_RANGE_TYPE_SRV, GPU_TABLE_SIZE);
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    d->gpu_signature = bench_d3d_root_signature(d->device, parameters, 2);
    d->gpu_pipeline = bench_d3d_pipeline(d->device, d->gpu_signature, gpu_table_hlsl, NULL);
    d->gpu_output = d3d_uav_buffer(d, GPU_TABLE_SIZE * 4);
    HR(ID3D12Device_CreateQueryHeap(d->device, &query_desc, &IID_ID3D12QueryHeap, (void **)&d->queries));
    d->query_results = bench_d3d_buffer(d->device, D3D12_HEAP_TYPE_READBACK, 2 * sizeof(UINT64), D3D12_RESOURCE_FLAG_NONE,
            D3D12_RESOURCE_STATE_COPY_DEST);

    /* Input view k is element 0 of a 64-word stretch: typed views start 256 bytes apart. */
    d->gpu_inputs = bench_d3d_buffer(d->device, D3D12_HEAP_TYPE_DEFAULT, input_bytes, D3D12_RESOURCE_FLAG_NONE,
            D3D12_RESOURCE_STATE_COPY_DEST);
    upload = bench_d3d_buffer(d->device, D3D12_HEAP_TYPE_UPLOAD, input_bytes, D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_GENERIC_READ);
    HR(ID3D12Resource_Map(upload, 0, NULL, (void **)&words));
    memset(words, 0, input_bytes);
    for (uint32_t k = 0; k < GPU_TABLE_SIZE; k++)
        words[k * VIEW_WORDS] = table_input(k);
    ID3D12Resource_Unmap(upload, 0, NULL);
    bench_d3d_new_list(d->device, d->q.type, &allocator, &list);
    ID3D12GraphicsCommandList_CopyBufferRegion(list, d->gpu_inputs, 0, upload, 0, input_bytes);
    barrier = bench_d3d_transition(d->gpu_inputs, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE);
    ID3D12GraphicsCommandList_ResourceBarrier(list, 1, &barrier);
    HR(ID3D12GraphicsCommandList_Close(list));
    d3d_execute_and_wait(d, list, "the upload");
    ID3D12GraphicsCommandList_Release(list);
    ID3D12CommandAllocator_Release(allocator);
    ID3D12Resource_Release(upload);
    for (uint32_t k = 0; k < GPU_TABLE_SIZE; k++) {
        D3D12_SHADER_RESOURCE_VIEW_DESC desc;
        memset(&desc, 0, sizeof(desc));
        desc.Format = DXGI_FORMAT_R32_UINT;
        desc.ViewDimension = D3D12_SRV_DIMENSION_BUFFER;
        desc.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
        desc.Buffer.FirstElement = (UINT64)k * VIEW_WORDS;
        desc.Buffer.NumElements = 1;
        ID3D12Device_CreateShaderResourceView(d->device, d->gpu_inputs, &desc, cpu_slot(d, d->visible, SLOT_GPU_TABLE + k));
    }

    bench_d3d_new_list(d->device, d->q.type, &d->gpu_allocator, &d->gpu_list);
    list = d->gpu_list;
    ID3D12GraphicsCommandList_SetDescriptorHeaps(list, 1, &d->visible);
    ID3D12GraphicsCommandList_SetComputeRootSignature(list, d->gpu_signature);
    ID3D12GraphicsCommandList_SetPipelineState(list, d->gpu_pipeline);
    ID3D12GraphicsCommandList_SetComputeRootDescriptorTable(list, 0, gpu_slot(d, SLOT_GPU_TABLE));
    ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(list, 1, ID3D12Resource_GetGPUVirtualAddress(d->gpu_output));
    ID3D12GraphicsCommandList_EndQuery(list, d->queries, D3D12_QUERY_TYPE_TIMESTAMP, 0);
    for (unsigned i = 0; i < dispatches; i++)
        ID3D12GraphicsCommandList_Dispatch(list, GPU_TABLE_SIZE / GPU_GROUP, 1, 1);
    ID3D12GraphicsCommandList_EndQuery(list, d->queries, D3D12_QUERY_TYPE_TIMESTAMP, 1);
    ID3D12GraphicsCommandList_ResolveQueryData(list, d->queries, D3D12_QUERY_TYPE_TIMESTAMP, 0, 2, d->query_results, 0);
    HR(ID3D12GraphicsCommandList_Close(list));

    d3d_execute_and_wait(d, list, "figure 5's dispatches");
    readback = d3d_read_back(d, d->gpu_output, GPU_TABLE_SIZE);
    HR(ID3D12Resource_Map(readback, 0, NULL, (void **)&words));
    for (uint32_t k = 0; k < GPU_TABLE_SIZE; k++)
        REQUIRE(words[k] == table_input(k), "%s: gpu_table_1000's output word %u is 0x%x, not 0x%x", SIDE, k, words[k], table_input(k));
    ID3D12Resource_Unmap(readback, 0, NULL);
    ID3D12Resource_Release(readback);
}

/* Figure 5: GPU us per dispatch between the list's two timestamps. */
static double d3d_sample_gpu(struct d3d *d, unsigned dispatches)
{
    D3D12_RANGE range = {0, 2 * sizeof(UINT64)};
    UINT64 *ticks = NULL;
    double us;

    d3d_execute_and_wait(d, d->gpu_list, "figure 5's dispatches");
    HR(ID3D12Resource_Map(d->query_results, 0, &range, (void **)&ticks));
    us = (double)(ticks[1] - ticks[0]) * 1e6 / (double)d->q.frequency / dispatches;
    ID3D12Resource_Unmap(d->query_results, 0, NULL);
    return us;
}
#endif

static void d3d_destroy(struct d3d *d)
{
#ifndef BENCH_VKD3D
    if (d->gpu_list) {
        ID3D12GraphicsCommandList_Release(d->gpu_list);
        ID3D12CommandAllocator_Release(d->gpu_allocator);
        ID3D12QueryHeap_Release(d->queries);
        ID3D12Resource_Release(d->query_results);
        ID3D12Resource_Release(d->gpu_inputs);
        ID3D12Resource_Release(d->gpu_output);
        ID3D12PipelineState_Release(d->gpu_pipeline);
        ID3D12RootSignature_Release(d->gpu_signature);
    }
#endif
    for (unsigned i = 0; i < 2 * TABLE_UAVS; i++)
        ID3D12Resource_Release(d->table_outputs[i]);
    ID3D12Resource_Release(d->view_buffer);
    ID3D12Resource_Release(d->constant_output);
    ID3D12PipelineState_Release(d->table_pipeline);
    ID3D12PipelineState_Release(d->constant_pipeline);
    ID3D12RootSignature_Release(d->table_signature);
    ID3D12RootSignature_Release(d->constant_signature);
    ID3D12DescriptorHeap_Release(d->staging);
    ID3D12DescriptorHeap_Release(d->visible);
    ID3D12GraphicsCommandList_Release(d->list);
    ID3D12CommandAllocator_Release(d->allocator);
    bench_d3d_queue_destroy(&d->q);
    ID3D12Device_Release(d->device);
}

/* The CPU figures of the D3D12 side, `n->samples` of each after `n->warmup` untimed ones; where
 * raw is given, the raw Vulkan samples of root_constant_dispatch, table_dispatch and create_srv
 * alternate with them (raw_sample_root_constant, raw_sample_table, raw_sample_create_srv). */
struct raw;
static double raw_sample_root_constant(struct raw *r);
static double raw_sample_table(struct raw *r);
static double raw_sample_create_srv(struct raw *r, unsigned calls);
static double raw_sample_copy(struct raw *r, unsigned calls);

/* One sample of a figure that raw Vulkan also records, from the D3D12 side or the raw side. */
static double sample_paired(struct d3d *d, struct raw *raw, enum figure_id figure, bool raw_side, unsigned calls)
{
    switch (figure) {
    case FIG_ROOT_CONSTANT:
        return raw_side ? raw_sample_root_constant(raw) : d3d_sample_root_constant(d);
    case FIG_TABLE:
        return raw_side ? raw_sample_table(raw) : d3d_sample_table(d);
    case FIG_COPY_1:
        return raw_side ? raw_sample_copy(raw, calls) : d3d_sample_copy(d, 1, calls);
    default:
        return raw_side ? raw_sample_create_srv(raw, calls) : d3d_sample_create_srv(d, calls);
    }
}

/* A figure with a raw Vulkan side: which side goes first alternates sample by sample, so that
 * drift of the machine hits both alike. */
static void measure_paired(struct d3d *d, struct raw *raw, const struct sizes *n, enum side_id side, enum figure_id figure)
{
    for (unsigned i = 0; i < n->warmup + n->samples; i++) {
        double raw_ns = 0, d3d_ns;
        if (raw && i % 2)
            raw_ns = sample_paired(d, raw, figure, true, n->calls);
        d3d_ns = sample_paired(d, raw, figure, false, n->calls);
        if (raw && !(i % 2))
            raw_ns = sample_paired(d, raw, figure, true, n->calls);
        if (i >= n->warmup) {
            add_sample(side, figure, d3d_ns);
            if (raw)
                add_sample(SIDE_RAW, figure, raw_ns);
        }
    }
}

static void d3d_measure_cpu(struct d3d *d, struct raw *raw, const struct sizes *n, enum side_id side)
{
    measure_paired(d, raw, n, side, FIG_ROOT_CONSTANT);
    measure_paired(d, raw, n, side, FIG_TABLE);
    measure_paired(d, raw, n, side, FIG_COPY_1);
    for (unsigned i = 0; i < n->warmup + n->samples; i++) {
        double many = d3d_sample_copy(d, COPY_MAX, n->calls);
        if (i >= n->warmup)
            add_sample(side, FIG_COPY_64, many);
    }
    measure_paired(d, raw, n, side, FIG_CREATE_SRV);
    for (unsigned i = 0; i < n->warmup + n->samples; i++) {
        double v = d3d_sample_root_uav(d);
        if (i >= n->warmup)
            add_sample(side, FIG_ROOT_UAV, v);
    }
    for (unsigned i = 0; i < n->warmup + n->samples; i++) {
        double v = d3d_sample_create_cbv(d, n->calls);
        if (i >= n->warmup)
            add_sample(side, FIG_CREATE_CBV, v);
    }
}

/* ---- the raw Vulkan side (d3d12xs build only) --------------------------------------------- */

struct raw {
    struct bench_vk vk;             /* bench_binding_vkd3d: the instance only, to pick vkd3d's device */
#ifndef BENCH_VKD3D
    struct bench_vk_queue q;
    VkPhysicalDeviceDescriptorBufferPropertiesEXT db;
    PFN_vkGetDescriptorEXT vkGetDescriptorEXT;
    PFN_vkCmdBindDescriptorBuffersEXT vkCmdBindDescriptorBuffersEXT;
    PFN_vkCmdSetDescriptorBufferOffsetsEXT vkCmdSetDescriptorBufferOffsetsEXT;
    struct bench_vk_buffer descriptors;     /* host-visible descriptor buffer: figure 5's set, figure 4's slots, figure 2's set */
    uint8_t *descriptors_mapped;
    VkDeviceAddress descriptors_address;
    VkDeviceSize created_offset;            /* figure 4's 64 slots */
    VkDeviceSize table_set_offset;          /* figure 2's set */
    VkDeviceSize copies_offset;             /* figure 3's destinations, COPY_MAX slots apart as d3d12xs's */
    uint8_t staged_descriptor[256];         /* figure 3's source: a descriptor kept in CPU memory */
    struct bench_vk_buffer view_buffer, inputs, output;
    VkDescriptorAddressInfoEXT view_address; /* figure 4's storage buffer */
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    VkQueryPool queries;
    VkCommandBuffer timed_cmd;

    /* Figures 1 and 2: their pipelines and outputs, and the command buffer their samples record into. */
    struct bench_vk_kernel constant;        /* push-descriptor set of the output, 4 bytes of push constants */
    VkDescriptorSetLayout table_set_layout;
    VkPipelineLayout table_layout;
    VkPipeline table_pipeline;
    struct bench_vk_buffer constant_output, table_outputs[2 * TABLE_UAVS];
    VkCommandPool cpu_pool;
    VkCommandBuffer cpu_cmd;
#endif
};

#ifndef BENCH_VKD3D
/* Figures 1 and 2's raw command buffer is had as d3d12xs has its lists' (command_allocator.c,
 * command_recording.c): from a pool made without flags, reset with vkResetCommandPool before
 * each sample (ID3D12CommandAllocator::Reset), begun with SIMULTANEOUS_USE. */
#define RAW_CPU_POOL_FLAGS 0
#define RAW_CPU_BEGIN_FLAGS VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT

static VkDeviceAddress raw_address(const struct raw *r, VkBuffer buffer)
{
    VkBufferDeviceAddressInfo info = {VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, NULL, buffer};
    return vkGetBufferDeviceAddress(r->vk.device, &info);
}

static void raw_get_descriptor(const struct raw *r, VkDescriptorType type, const VkDescriptorAddressInfoEXT *address, size_t size, void *out)
{
    VkDescriptorGetInfoEXT info = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_GET_INFO_EXT, .type = type};
    if (type == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER)
        info.data.pUniformTexelBuffer = address;
    else
        info.data.pStorageBuffer = address;
    r->vkGetDescriptorEXT(r->vk.device, &info, size, out);
}

static void raw_check(struct raw *r);

/* The device (descriptor buffers, buffer addresses, non-uniform texel-buffer indexing: what
 * figure 5's shader and descriptors need; dynamic indexing of storage-buffer arrays: figure 2's),
 * figure 5's pipeline, buffers and descriptors, figure 4's storage buffer, figures 1 and 2's
 * pipelines, outputs and descriptors; the command buffer of figure 5 and a check of its output,
 * then figures 1 and 2's check (raw_check). */
static void raw_init(struct raw *r, unsigned dispatches)
{
    static const char *const extensions[] = {VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME};
    const VkDeviceSize input_bytes = (VkDeviceSize)GPU_TABLE_SIZE * VIEW_WORDS * 4;
    const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    VkPhysicalDeviceDescriptorBufferFeaturesEXT buffer_features = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT,
            .descriptorBuffer = VK_TRUE};
    VkPhysicalDeviceVulkan12Features features12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, .pNext = &buffer_features,
            .bufferDeviceAddress = VK_TRUE, .shaderUniformTexelBufferArrayDynamicIndexing = VK_TRUE,
            .shaderUniformTexelBufferArrayNonUniformIndexing = VK_TRUE};
    VkPhysicalDeviceFeatures2 features = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &features12,
            .features = {.shaderStorageBufferArrayDynamicIndexing = VK_TRUE}};
    VkQueueFamilyProperties families[16];
    uint32_t count = BENCH_ARRAY_SIZE(families), family = 0;
    PFN_vkGetDescriptorSetLayoutSizeEXT get_layout_size;
    PFN_vkGetDescriptorSetLayoutBindingOffsetEXT get_binding_offset;
    VkDeviceSize set_size, input_offset, output_offset, table_set_size, table_binding_offset;
    struct bench_vk_buffer staging;
    VkCommandBuffer cmd;
    uint32_t *words;

    /* The family d3d12xs gives COMPUTE queues: the first compute-only one, else the first with compute. */
    vkGetPhysicalDeviceQueueFamilyProperties(r->vk.physical_device, &count, families);
    int compute_only = -1, any_compute = -1;
    for (uint32_t i = 0; i < count; i++)
        if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
            if (any_compute < 0)
                any_compute = (int)i;
            if (compute_only < 0 && !(families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT))
                compute_only = (int)i;
        }
    REQUIRE(any_compute >= 0, "no compute queue family");
    family = (uint32_t)(compute_only >= 0 ? compute_only : any_compute);
    bench_vk_create_device_with(&r->vk, &family, 1, &r->q, extensions, BENCH_ARRAY_SIZE(extensions), &features);
    r->db.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_PROPERTIES_EXT;
    VkPhysicalDeviceProperties2 properties = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &r->db};
    vkGetPhysicalDeviceProperties2(r->vk.physical_device, &properties);
    r->vkGetDescriptorEXT = (PFN_vkGetDescriptorEXT)vkGetDeviceProcAddr(r->vk.device, "vkGetDescriptorEXT");
    r->vkCmdBindDescriptorBuffersEXT = (PFN_vkCmdBindDescriptorBuffersEXT)vkGetDeviceProcAddr(r->vk.device, "vkCmdBindDescriptorBuffersEXT");
    r->vkCmdSetDescriptorBufferOffsetsEXT = (PFN_vkCmdSetDescriptorBufferOffsetsEXT)vkGetDeviceProcAddr(r->vk.device,
            "vkCmdSetDescriptorBufferOffsetsEXT");
    get_layout_size = (PFN_vkGetDescriptorSetLayoutSizeEXT)vkGetDeviceProcAddr(r->vk.device, "vkGetDescriptorSetLayoutSizeEXT");
    get_binding_offset = (PFN_vkGetDescriptorSetLayoutBindingOffsetEXT)vkGetDeviceProcAddr(r->vk.device,
            "vkGetDescriptorSetLayoutBindingOffsetEXT");
    REQUIRE(r->vkGetDescriptorEXT && r->vkCmdBindDescriptorBuffersEXT && r->vkCmdSetDescriptorBufferOffsetsEXT && get_layout_size
            && get_binding_offset, "VK_EXT_descriptor_buffer without its functions");

    /* Figure 5's set: 1,000 uniform texel buffers and the output storage buffer, in descriptor-buffer memory. */
    VkDescriptorSetLayoutBinding bindings[2] = {
        {0, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, GPU_TABLE_SIZE, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    };
    VkDescriptorSetLayoutCreateInfo set_info = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
            .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT, .bindingCount = 2, .pBindings = bindings};
    VK(vkCreateDescriptorSetLayout(r->vk.device, &set_info, NULL, &r->set_layout));
    VkPipelineLayoutCreateInfo layout_info = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
            .pSetLayouts = &r->set_layout};
    VK(vkCreatePipelineLayout(r->vk.device, &layout_info, NULL, &r->layout));
    VkComputePipelineCreateInfo pipeline_info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .flags = VK_PIPELINE_CREATE_DESCRIPTOR_BUFFER_BIT_EXT,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                .module = bench_vk_shader(&r->vk, gpu_table_glsl, true, NULL), .pName = "main"},
        .layout = r->layout,
    };
    VK(vkCreateComputePipelines(r->vk.device, VK_NULL_HANDLE, 1, &pipeline_info, NULL, &r->pipeline));
    vkDestroyShaderModule(r->vk.device, pipeline_info.stage.module, NULL);
    get_layout_size(r->vk.device, r->set_layout, &set_size);
    get_binding_offset(r->vk.device, r->set_layout, 0, &input_offset);
    get_binding_offset(r->vk.device, r->set_layout, 1, &output_offset);

    /* Figure 1's pipeline: the same HLSL, its output a push descriptor, its constant 4 bytes of push constants. */
    r->constant = bench_vk_kernel(&r->vk, bench_vk_shader(&r->vk, constant_hlsl, false, NULL), 1, 4, 0);
    /* Figure 2's: one descriptor-buffer set of the two tables' 8 storage buffers, the table's start 4 bytes of push constants. */
    VkDescriptorSetLayoutBinding table_binding = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2 * TABLE_UAVS, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    VkDescriptorSetLayoutCreateInfo table_set_info = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
            .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT, .bindingCount = 1, .pBindings = &table_binding};
    VK(vkCreateDescriptorSetLayout(r->vk.device, &table_set_info, NULL, &r->table_set_layout));
    VkPushConstantRange table_range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 4};
    VkPipelineLayoutCreateInfo table_layout_info = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
            .pSetLayouts = &r->table_set_layout, .pushConstantRangeCount = 1, .pPushConstantRanges = &table_range};
    VK(vkCreatePipelineLayout(r->vk.device, &table_layout_info, NULL, &r->table_layout));
    pipeline_info.stage.module = bench_vk_shader(&r->vk, table_glsl, true, NULL);
    pipeline_info.layout = r->table_layout;
    VK(vkCreateComputePipelines(r->vk.device, VK_NULL_HANDLE, 1, &pipeline_info, NULL, &r->table_pipeline));
    vkDestroyShaderModule(r->vk.device, pipeline_info.stage.module, NULL);
    get_layout_size(r->vk.device, r->table_set_layout, &table_set_size);
    get_binding_offset(r->vk.device, r->table_set_layout, 0, &table_binding_offset);

    r->created_offset = (set_size + 255) / 256 * 256;
    r->table_set_offset = r->created_offset + CREATED_SLOTS * r->db.storageBufferDescriptorSize;
    r->table_set_offset = (r->table_set_offset + r->db.descriptorBufferOffsetAlignment - 1) / r->db.descriptorBufferOffsetAlignment
            * r->db.descriptorBufferOffsetAlignment;
    r->copies_offset = r->table_set_offset + table_set_size;
    r->descriptors = bench_vk_buffer_with_flags(&r->vk, r->copies_offset + (VkDeviceSize)COPY_DESTINATIONS * COPY_MAX
            * r->db.storageBufferDescriptorSize,
            VK_BUFFER_USAGE_RESOURCE_DESCRIPTOR_BUFFER_BIT_EXT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT, host, 0,
            VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT);
    VK(vkMapMemory(r->vk.device, r->descriptors.memory, 0, VK_WHOLE_SIZE, 0, (void **)&r->descriptors_mapped));
    r->descriptors_address = raw_address(r, r->descriptors.buffer);

    r->inputs = bench_vk_buffer_with_flags(&r->vk, input_bytes, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT
            | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT);
    r->output = bench_vk_buffer_with_flags(&r->vk, GPU_TABLE_SIZE * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT
            | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT);
    r->view_buffer = bench_vk_buffer_with_flags(&r->vk, (VkDeviceSize)COPY_MAX * VIEW_WORDS * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT
            | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT);
    r->view_address = (VkDescriptorAddressInfoEXT){.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_ADDRESS_INFO_EXT,
            .address = raw_address(r, r->view_buffer.buffer), .range = (VkDeviceSize)COPY_MAX * VIEW_WORDS * 4};
    if (r->db.storageBufferDescriptorSize > sizeof(r->staged_descriptor))
        bench_fail(__LINE__, "a storage-buffer descriptor of %zu bytes is larger than bench_binding keeps (%zu)",
                r->db.storageBufferDescriptorSize, sizeof(r->staged_descriptor));
    raw_get_descriptor(r, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &r->view_address, r->db.storageBufferDescriptorSize, r->staged_descriptor);
    for (uint32_t k = 0; k < GPU_TABLE_SIZE; k++) {
        VkDescriptorAddressInfoEXT address = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_ADDRESS_INFO_EXT,
                .address = raw_address(r, r->inputs.buffer) + (VkDeviceSize)k * VIEW_WORDS * 4, .range = 4, .format = VK_FORMAT_R32_UINT};
        raw_get_descriptor(r, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, &address, r->db.uniformTexelBufferDescriptorSize,
                r->descriptors_mapped + input_offset + k * r->db.uniformTexelBufferDescriptorSize);
    }
    {
        VkDescriptorAddressInfoEXT address = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_ADDRESS_INFO_EXT,
                .address = raw_address(r, r->output.buffer), .range = GPU_TABLE_SIZE * 4};
        raw_get_descriptor(r, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &address, r->db.storageBufferDescriptorSize,
                r->descriptors_mapped + output_offset);
    }
    r->constant_output = bench_vk_buffer(&r->vk, THREADS * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 0,
            VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    for (uint32_t k = 0; k < 2 * TABLE_UAVS; k++) {
        r->table_outputs[k] = bench_vk_buffer_with_flags(&r->vk, THREADS * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT
                | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
                VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT);
        VkDescriptorAddressInfoEXT address = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_ADDRESS_INFO_EXT,
                .address = raw_address(r, r->table_outputs[k].buffer), .range = THREADS * 4};
        raw_get_descriptor(r, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &address, r->db.storageBufferDescriptorSize,
                r->descriptors_mapped + r->table_set_offset + table_binding_offset + k * r->db.storageBufferDescriptorSize);
    }
    VkCommandPoolCreateInfo pool_info = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .flags = RAW_CPU_POOL_FLAGS,
            .queueFamilyIndex = r->q.family};
    VK(vkCreateCommandPool(r->vk.device, &pool_info, NULL, &r->cpu_pool));
    VkCommandBufferAllocateInfo cmd_info = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = r->cpu_pool,
            .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1};
    VK(vkAllocateCommandBuffers(r->vk.device, &cmd_info, &r->cpu_cmd));

    /* The inputs, through a staging buffer. */
    staging = bench_vk_buffer(&r->vk, input_bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, host, 0);
    VK(vkMapMemory(r->vk.device, staging.memory, 0, VK_WHOLE_SIZE, 0, (void **)&words));
    memset(words, 0, input_bytes);
    for (uint32_t k = 0; k < GPU_TABLE_SIZE; k++)
        words[k * VIEW_WORDS] = table_input(k);
    cmd = bench_vk_begin(&r->vk, &r->q);
    vkCmdCopyBuffer(cmd, staging.buffer, r->inputs.buffer, 1, &(VkBufferCopy){0, 0, input_bytes});
    bench_vk_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
            VK_ACCESS_2_SHADER_READ_BIT);
    VK(vkEndCommandBuffer(cmd));
    bench_vk_submit_and_wait(&r->vk, &r->q, cmd);
    vkFreeCommandBuffers(r->vk.device, r->q.pool, 1, &cmd);
    bench_vk_free_buffer(&r->vk, &staging);

    /* Figure 5's command buffer: binding after the first timestamp, where d3d12xs binds (at the first Dispatch). */
    VkQueryPoolCreateInfo query_info = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, .queryType = VK_QUERY_TYPE_TIMESTAMP, .queryCount = 2};
    VK(vkCreateQueryPool(r->vk.device, &query_info, NULL, &r->queries));
    VkDescriptorBufferBindingInfoEXT binding = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_BUFFER_BINDING_INFO_EXT,
            .address = r->descriptors_address, .usage = VK_BUFFER_USAGE_RESOURCE_DESCRIPTOR_BUFFER_BIT_EXT};
    uint32_t buffer_index = 0;
    VkDeviceSize set_offset = 0;
    cmd = r->timed_cmd = bench_vk_begin(&r->vk, &r->q);
    vkCmdResetQueryPool(cmd, r->queries, 0, 2);
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, r->queries, 0);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->pipeline);
    r->vkCmdBindDescriptorBuffersEXT(cmd, 1, &binding);
    r->vkCmdSetDescriptorBufferOffsetsEXT(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->layout, 0, 1, &buffer_index, &set_offset);
    for (unsigned i = 0; i < dispatches; i++)
        vkCmdDispatch(cmd, GPU_TABLE_SIZE / GPU_GROUP, 1, 1);
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, r->queries, 1);
    VK(vkEndCommandBuffer(cmd));

    bench_vk_submit_and_wait(&r->vk, &r->q, r->timed_cmd);
    staging = bench_vk_read_back(&r->vk, &r->q, r->output.buffer, GPU_TABLE_SIZE * 4, (void **)&words);
    for (uint32_t k = 0; k < GPU_TABLE_SIZE; k++)
        REQUIRE(words[k] == table_input(k), "raw Vulkan: gpu_table_1000's output word %u is 0x%x, not 0x%x", k, words[k], table_input(k));
    bench_vk_free_buffer(&r->vk, &staging);
    raw_check(r);
}

/* Reads `words` words of a storage buffer back and compares word j with expect(context, j). */
static void raw_check_words(struct raw *r, VkBuffer buffer, unsigned words, uint32_t (*expect)(uint32_t, uint32_t), uint32_t context,
        const char *what)
{
    uint32_t *mapped;
    struct bench_vk_buffer staging = bench_vk_read_back(&r->vk, &r->q, buffer, (VkDeviceSize)words * 4, (void **)&mapped);
    for (uint32_t j = 0; j < words; j++)
        REQUIRE(mapped[j] == expect(context, j), "raw Vulkan: %s word %u is 0x%x, not 0x%x", what, j, mapped[j], expect(context, j));
    bench_vk_free_buffer(&r->vk, &staging);
}

/* Begins figures 1 and 2's command buffer, as a sample does: the pool reset, then SIMULTANEOUS_USE. */
static VkCommandBuffer raw_begin_cpu(struct raw *r)
{
    VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, .flags = RAW_CPU_BEGIN_FLAGS};
    VK(vkResetCommandPool(r->vk.device, r->cpu_pool, 0));
    VK(vkBeginCommandBuffer(r->cpu_cmd, &begin));
    return r->cpu_cmd;
}

/* Figure 2's binding, untimed in a sample: the pipeline, the descriptor buffer and the set's offset in it. */
static void raw_bind_table(struct raw *r, VkCommandBuffer cmd)
{
    VkDescriptorBufferBindingInfoEXT binding = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_BUFFER_BINDING_INFO_EXT,
            .address = r->descriptors_address, .usage = VK_BUFFER_USAGE_RESOURCE_DESCRIPTOR_BUFFER_BIT_EXT};
    uint32_t buffer_index = 0;
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->table_pipeline);
    r->vkCmdBindDescriptorBuffersEXT(cmd, 1, &binding);
    r->vkCmdSetDescriptorBufferOffsetsEXT(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->table_layout, 0, 1, &buffer_index, &r->table_set_offset);
}

/* Figures 1 and 2 on raw Vulkan, as d3d_check runs them: the constant 7, then each table, in
 * figures 1 and 2's command buffer; every word of the 9 outputs checked. */
static void raw_check(struct raw *r)
{
    VkCommandBuffer cmd = raw_begin_cpu(r);
    uint32_t value = 7;

    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->constant.pipeline);
    bench_vk_push_buffers(&r->vk, cmd, &r->constant, &r->constant_output.buffer, 1);
    vkCmdPushConstants(cmd, r->constant.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &value);
    vkCmdDispatch(cmd, 1, 1, 1);
    raw_bind_table(r, cmd);
    for (uint32_t start = 0; start < 2 * TABLE_UAVS; start += TABLE_UAVS) {
        vkCmdPushConstants(cmd, r->table_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &start);
        vkCmdDispatch(cmd, 1, 1, 1);
    }
    VK(vkEndCommandBuffer(cmd));
    bench_vk_submit_and_wait(&r->vk, &r->q, cmd);

    raw_check_words(r, r->constant_output.buffer, THREADS, constant_output, 7, "root_constant_dispatch's output");
    for (unsigned i = 0; i < 2 * TABLE_UAVS; i++) {
        char what[64];
        snprintf(what, sizeof(what), "table %u's UAV u%u", i / TABLE_UAVS, i % TABLE_UAVS);
        raw_check_words(r, r->table_outputs[i].buffer, THREADS, table_output, i % TABLE_UAVS, what);
    }
}

/* Figure 1, raw: ns per vkCmdPushConstants of 4 bytes + vkCmdDispatch(1,1,1); the pool reset,
 * vkBeginCommandBuffer, the pipeline and the output's push descriptor untimed, as is vkEndCommandBuffer. */
static double raw_sample_root_constant(struct raw *r)
{
    VkCommandBuffer cmd = raw_begin_cpu(r);
    double start, end;

    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->constant.pipeline);
    bench_vk_push_buffers(&r->vk, cmd, &r->constant, &r->constant_output.buffer, 1);
    start = bench_now_ns();
    for (uint32_t i = 0; i < PAIRS; i++) {
        vkCmdPushConstants(cmd, r->constant.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &i);
        vkCmdDispatch(cmd, 1, 1, 1);
    }
    end = bench_now_ns();
    VK(vkEndCommandBuffer(cmd));
    return (end - start) / PAIRS;
}

/* Figure 2, raw: ns per vkCmdPushConstants of the table's start (0 and 4 in turn) + vkCmdDispatch,
 * what d3d12xs records per table change; the pipeline, descriptor buffer and set offset untimed. */
static double raw_sample_table(struct raw *r)
{
    static const uint32_t starts[2] = {0, TABLE_UAVS};
    VkCommandBuffer cmd = raw_begin_cpu(r);
    double start, end;

    raw_bind_table(r, cmd);
    start = bench_now_ns();
    for (unsigned i = 0; i < PAIRS; i++) {
        vkCmdPushConstants(cmd, r->table_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &starts[i & 1]);
        vkCmdDispatch(cmd, 1, 1, 1);
    }
    end = bench_now_ns();
    VK(vkEndCommandBuffer(cmd));
    return (end - start) / PAIRS;
}

/* Figure 4, raw: ns per vkGetDescriptorEXT of the storage-buffer descriptor of the same view into
 * mapped descriptor-buffer memory, 64 slots in turn (the address known beforehand, as an
 * application using descriptor buffers keeps it). */
static double raw_sample_create_srv(struct raw *r, unsigned calls)
{
    const size_t size = r->db.storageBufferDescriptorSize;
    uint8_t *first = r->descriptors_mapped + r->created_offset;
    double start = bench_now_ns();

    for (unsigned i = 0; i < calls; i++)
        raw_get_descriptor(r, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &r->view_address, size, first + (i % CREATED_SLOTS) * size);
    return (bench_now_ns() - start) / calls;
}

/* Figure 3, raw: ns per memcpy of a storage-buffer descriptor (storageBufferDescriptorSize bytes, a
 * size known at run time as an application knows it) from CPU memory into mapped descriptor-buffer
 * memory, to COPY_DESTINATIONS slots in turn: the bytes a descriptor copy must move. */
static double raw_sample_copy(struct raw *r, unsigned calls)
{
    const size_t size = r->db.storageBufferDescriptorSize;
    uint8_t *destinations[COPY_DESTINATIONS];
    double start;

    for (unsigned i = 0; i < COPY_DESTINATIONS; i++)
        destinations[i] = r->descriptors_mapped + r->copies_offset + (VkDeviceSize)i * COPY_MAX * size;
    start = bench_now_ns();
    for (unsigned i = 0; i < calls; i++)
        memcpy(destinations[i % COPY_DESTINATIONS], r->staged_descriptor, size);
    return (bench_now_ns() - start) / calls;
}

static double raw_sample_gpu(struct raw *r, unsigned dispatches)
{
    uint64_t ticks[2];
    bench_vk_submit_and_wait(&r->vk, &r->q, r->timed_cmd);
    VK(vkGetQueryPoolResults(r->vk.device, r->queries, 0, 2, sizeof(ticks), ticks, sizeof(ticks[0]), VK_QUERY_RESULT_64_BIT));
    return (double)(ticks[1] - ticks[0]) * r->vk.properties.limits.timestampPeriod / 1e3 / dispatches;
}

static void raw_destroy(struct raw *r)
{
    vkDestroyCommandPool(r->vk.device, r->cpu_pool, NULL);
    for (unsigned i = 0; i < 2 * TABLE_UAVS; i++)
        bench_vk_free_buffer(&r->vk, &r->table_outputs[i]);
    bench_vk_free_buffer(&r->vk, &r->constant_output);
    vkDestroyPipeline(r->vk.device, r->table_pipeline, NULL);
    vkDestroyPipelineLayout(r->vk.device, r->table_layout, NULL);
    vkDestroyDescriptorSetLayout(r->vk.device, r->table_set_layout, NULL);
    bench_vk_destroy_kernel(&r->vk, &r->constant);
    vkDestroyQueryPool(r->vk.device, r->queries, NULL);
    vkDestroyPipeline(r->vk.device, r->pipeline, NULL);
    vkDestroyPipelineLayout(r->vk.device, r->layout, NULL);
    vkDestroyDescriptorSetLayout(r->vk.device, r->set_layout, NULL);
    bench_vk_free_buffer(&r->vk, &r->descriptors);
    bench_vk_free_buffer(&r->vk, &r->view_buffer);
    bench_vk_free_buffer(&r->vk, &r->inputs);
    bench_vk_free_buffer(&r->vk, &r->output);
    bench_vk_queue_destroy(&r->vk, &r->q);
    bench_vk_destroy(&r->vk);
}

/* Figure 5, both sides alternating which runs first, after one untimed run each. */
static void measure_gpu(struct d3d *d, struct raw *r, const struct sizes *n)
{
    d3d_sample_gpu(d, n->gpu_dispatches);
    raw_sample_gpu(r, n->gpu_dispatches);
    for (unsigned i = 0; i < n->gpu_reps; i++) {
        if (i % 2)
            add_sample(SIDE_RAW, FIG_GPU_TABLE, raw_sample_gpu(r, n->gpu_dispatches));
        add_sample(SIDE_D3D, FIG_GPU_TABLE, d3d_sample_gpu(d, n->gpu_dispatches));
        if (!(i % 2))
            add_sample(SIDE_RAW, FIG_GPU_TABLE, raw_sample_gpu(r, n->gpu_dispatches));
    }
}
#else
static double raw_sample_root_constant(struct raw *r)
{
    (void)r;
    return 0;
}

static double raw_sample_table(struct raw *r)
{
    (void)r;
    return 0;
}

static double raw_sample_create_srv(struct raw *r, unsigned calls)
{
    (void)r, (void)calls;
    return 0;
}

static double raw_sample_copy(struct raw *r, unsigned calls)
{
    (void)r, (void)calls;
    return 0;
}
#endif

/* ---- the peer, printing and main ---------------------------------------------------------- */

#ifdef BENCH_VKD3D
/* One line per figure: `name=v1,v2,...` (the samples), after `device=`. */
static void print_samples(FILE *f, enum side_id side, const char *device)
{
    fprintf(f, "device=%s\n", device);
    for (unsigned fig = 0; fig < FIG_COUNT; fig++) {
        fprintf(f, "%s=", figure_names[fig]);
        for (unsigned i = 0; i < sample_counts[side][fig]; i++)
            fprintf(f, "%s%.4f", i ? "," : "", samples[side][fig][i]);
        fprintf(f, "\n");
    }
}

/* bench_binding_vkd3d peer: one round of vkd3d's CPU figures, as samples. */
static int peer(void)
{
    struct raw r;
    struct sizes n;
    struct d3d d;

    memset(&r, 0, sizeof(r));
    bench_vk_open(&r.vk, "bench_binding_vkd3d");
    d3d_init(&d, &r.vk);
    d3d_check(&d);
    n = sizes_for(d.cpu_device);
    d3d_measure_cpu(&d, NULL, &n, SIDE_D3D);
    print_samples(stdout, SIDE_D3D, d.device_name);
    d3d_destroy(&d);
    vkDestroyInstance(r.vk.instance, NULL);
    return 0;
}
#else
/* One round of vkd3d's figures from bench_binding_vkd3d, added to SIDE_PEER; false with the reason in `why`. */
static bool run_peer_round(char *device, size_t device_size, char *why, size_t why_size)
{
    struct bench_bytes out;

    if (!bench_run_peer(PEER_PROGRAM, &out, why, why_size))
        return false;
    bench_text_field(out.data, "device", device, device_size);
    for (unsigned fig = 0; fig < FIG_COUNT; fig++) {
        char key[64];
        const char *at;
        snprintf(key, sizeof(key), "\n%s=", figure_names[fig]);
        REQUIRE((at = strstr(out.data, key)), "%s printed no %s", PEER_PROGRAM, figure_names[fig]);
        at += strlen(key);
        while (*at && *at != '\n') {
            char *end;
            double v = strtod(at, &end);
            REQUIRE(end != at, "%s printed a bad sample of %s", PEER_PROGRAM, figure_names[fig]);
            add_sample(SIDE_PEER, (enum figure_id)fig, v);
            at = *end == ',' ? end + 1 : end;
        }
    }
    free(out.data);
    return true;
}
#endif

/* The median and minimum of a side's samples of a figure; false when it has none. */
static bool figure_of_side(enum side_id side, enum figure_id fig, struct bench_figure *f)
{
    static double sorted[MAX_SAMPLES];
    unsigned count = sample_counts[side][fig];
    if (!count)
        return false;
    memcpy(sorted, samples[side][fig], count * sizeof(*sorted));
    *f = bench_figure_of(sorted, count);
    return true;
}

static void print_figure(enum figure_id fig, const char *peer_why)
{
    struct bench_figure a, b, c;
    bool have_d3d = figure_of_side(SIDE_D3D, fig, &a), have_peer = figure_of_side(SIDE_PEER, fig, &b),
         have_raw = figure_of_side(SIDE_RAW, fig, &c);
    const char *unit = figure_units[fig];
    const int p = figure_decimals[fig];

    if (!have_d3d)
        return;
    printf("%s: %s %.*f %s", figure_names[fig], SIDE, p, a.median, unit);
#ifndef BENCH_VKD3D
    if (have_peer)
        printf(", vkd3d %.*f %s (ratio %.3g)", p, b.median, unit, a.median / b.median);
    else
        printf(", vkd3d not measured (%s)", fig == FIG_GPU_TABLE ? "its SM5.1 descriptor array is beyond tests/dxbc_writer.c" : peer_why);
#else
    (void)peer_why;
#endif
    if (have_raw)
        printf(", raw Vulkan %.*f %s (ratio %.3g)", p, c.median, unit, a.median / c.median);
    printf("\n    minimum %s %.*f", SIDE, p, a.min);
    if (have_peer)
        printf(", vkd3d %.*f", p, b.min);
    if (have_raw)
        printf(", raw Vulkan %.*f", p, c.min);
    printf(" %s; samples %u", unit, a.count);
    if (have_peer)
        printf(" / %u", b.count);
    if (have_raw)
        printf(" / %u", c.count);
    printf("\n");
}

/* D3D12XS_BENCH_OUT=<path>: one line per figure, "-" where a side was not measured. */
static void write_tsv(const char *path, const char *device, const struct sizes *n)
{
    FILE *f = fopen(path, "w");

    REQUIRE(f, "cannot write D3D12XS_BENCH_OUT=%s", path);
    fprintf(f, "# bench_binding\tside=%s\tdevice=%s\tpairs=%u\tsamples_per_round=%u\tcalls_per_sample=%u\tgpu_dispatches=%u\tgpu_reps=%u\n",
            SIDE, device, PAIRS, n->samples, n->calls, n->gpu_dispatches, n->gpu_reps);
    fprintf(f, "# figure\tunit\t%s\tvkd3d\tratio_vkd3d\traw_vulkan\tratio_raw\t%s_min\tvkd3d_min\traw_min\n", SIDE, SIDE);
    for (unsigned fig = 0; fig < FIG_COUNT; fig++) {
        struct bench_figure a, b, c;
        bool have_peer = figure_of_side(SIDE_PEER, (enum figure_id)fig, &b), have_raw = figure_of_side(SIDE_RAW, (enum figure_id)fig, &c);
        char cells[6][32];
        if (!figure_of_side(SIDE_D3D, (enum figure_id)fig, &a))
            continue;
        for (unsigned i = 0; i < 6; i++)
            snprintf(cells[i], sizeof(cells[i]), "-");
        if (have_peer) {
            snprintf(cells[0], sizeof(cells[0]), "%.3f", b.median);
            snprintf(cells[1], sizeof(cells[1]), "%.4f", a.median / b.median);
            snprintf(cells[4], sizeof(cells[4]), "%.3f", b.min);
        }
        if (have_raw) {
            snprintf(cells[2], sizeof(cells[2]), "%.3f", c.median);
            snprintf(cells[3], sizeof(cells[3]), "%.4f", a.median / c.median);
            snprintf(cells[5], sizeof(cells[5]), "%.3f", c.min);
        }
        fprintf(f, "%s\t%s\t%.3f\t%s\t%s\t%s\t%s\t%.3f\t%s\t%s\n", figure_names[fig], figure_units[fig], a.median, cells[0], cells[1],
                cells[2], cells[3], a.min, cells[4], cells[5]);
    }
    REQUIRE(fclose(f) == 0, "cannot write D3D12XS_BENCH_OUT=%s", path);
}

int main(int argc, char **argv)
{
    char peer_device[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE] = "", why[PATH_MAX + 128] = "";
    bool have_peer = false;
    struct sizes n;
    struct raw r;
    struct d3d d;

    /* No validation layer: it would measure itself. The peer inherits this. */
    setenv("D3D12XS_DEBUG", "0", 1);
    /* lavapipe mallocs every recorded command and frees it on reset: keep glibc from handing the
     * freed heap back to the kernel, or the recording figures measure page faults (bench_compute). */
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#ifdef BENCH_VKD3D
    if (argc == 2 && !strcmp(argv[1], "peer"))
        return peer();
#endif
    if (argc > 1) {
        fprintf(stderr, "usage: %s   (no arguments)\n", argv[0]);
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);

    memset(&r, 0, sizeof(r));
    bench_vk_open(&r.vk, "bench_binding (raw Vulkan)");
    d3d_init(&d, &r.vk);
    n = sizes_for(d.cpu_device);
    printf("%-15s: %s\n", SIDE " device", d.device_name);
#ifndef BENCH_VKD3D
    raw_init(&r, n.gpu_dispatches);
    printf("raw Vulkan     : %s (%s, %s), VK_EXT_descriptor_buffer: %zu-byte storage-buffer descriptors\n", r.vk.properties.deviceName,
            r.vk.driver.driverName, r.vk.driver.driverInfo, (size_t)r.db.storageBufferDescriptorSize);
    if (strcmp(d.device_name, r.vk.properties.deviceName))
        printf("WARNING: the two sides do not run on the same device\n");
    d3d_gpu_init(&d, n.gpu_dispatches);
#endif
    d3d_check(&d);
    printf("check          : %s's dispatches of root_constant_dispatch and table_dispatch (both tables) wrote every word right%s\n",
            SIDE,
#ifndef BENCH_VKD3D
            "; raw Vulkan's of both, and gpu_table_1000's on both sides"
#else
            ""
#endif
            );
    printf("samples        : %u pairs per list (figures 1-2), %u calls per sample (3-4); %u rounds of %u samples after %u warm-up\n",
            PAIRS, n.calls, ROUNDS, n.samples, n.warmup);

#ifndef BENCH_VKD3D
    printf("gpu            : %u dispatches of %u x %u threads between two timestamps, %u reps, sides alternating\n", n.gpu_dispatches,
            GPU_TABLE_SIZE / GPU_GROUP, GPU_GROUP, n.gpu_reps);
    measure_gpu(&d, &r, &n);
    /* Rounds: this side, then vkd3d in its own process, ROUNDS times, so that drift of the machine
     * reaches both columns alike; the figures pool the rounds' samples. */
    for (unsigned round = 0; round < ROUNDS; round++) {
        d3d_measure_cpu(&d, &r, &n, SIDE_D3D);
        if (round == 0 || have_peer)
            have_peer = run_peer_round(peer_device, sizeof(peer_device), why, sizeof(why));
        if (!have_peer)
            memset(sample_counts[SIDE_PEER], 0, sizeof(sample_counts[SIDE_PEER]));
    }
    if (have_peer)
        printf("vkd3d          : %s (%s, DXBC from tests/dxbc_writer.c, its output checked), %u rounds alternating with d3d12xs's%s\n",
                peer_device, PEER_PROGRAM, ROUNDS, strcmp(peer_device, d.device_name) ? "; WARNING: another device" : "");
    else
        printf("vkd3d          : not measured (%s)\n", why);
#else
    (void)have_peer;
    (void)peer_device;
    for (unsigned round = 0; round < ROUNDS; round++)
        d3d_measure_cpu(&d, NULL, &n, SIDE_D3D);
#endif

    printf("\n");
    for (unsigned fig = 0; fig < FIG_COUNT; fig++)
        print_figure((enum figure_id)fig, why);
    printf("medians; (ratio): %s's median / that side's, above 1 = %s slower. ns: CPU time per call (pair), us: GPU time per dispatch.\n",
            SIDE, SIDE);
    if (getenv("D3D12XS_BENCH_OUT"))
        write_tsv(getenv("D3D12XS_BENCH_OUT"), d.device_name, &n);
#ifndef BENCH_VKD3D
    raw_destroy(&r);
#else
    vkDestroyInstance(r.vk.instance, NULL);
#endif
    d3d_destroy(&d);
    return 0;
}
