/* bench_indirect: ExecuteIndirect with per-command root constants (VK_EXT_device_generated_commands
 * underneath, docs/indirect.md) next to hand-written Vulkan doing the same work on the same
 * physical device and queue family, in the same run. See docs/benchmarks.md.
 *
 *   GPU ns per command (timestamps around one ExecuteIndirect of COMMANDS commands):
 *     draws       signature CONSTANT (2 values: cell, value) + DRAW, stride 24; each command one
 *                 small triangle over one pixel (its cell) of a 128 x 128 R32_UINT target, which
 *                 stores its value there.
 *                 raw DGC: an indirect commands layout of a push-constant token + a draw token,
 *                 the same stride, the same buffer;
 *                 raw MDI: one vkCmdDrawIndirect of COMMANDS draws over the same buffer (stride 24),
 *                 the vertex shader reading its two constants from that buffer at gl_DrawID.
 *     dispatches  signature CONSTANT (2 values: slot, value) + DISPATCH, stride 20; each command one
 *                 group of 64 threads storing value + thread at its slot of a buffer.
 *                 raw DGC: a push-constant token + a dispatch token, the same stride and buffer;
 *                 raw indirect: per command, vkCmdPushConstants of the command's index (4 bytes)
 *                 + vkCmdDispatchIndirect of its arguments, the kernel reading its two constants
 *                 from the buffer at that index (the constants are GPU data: the CPU can push only
 *                 the index).
 *     Each is printed against each raw form and against the better of the two in the same
 *     repetition.
 *   CPU ns per ExecuteIndirect of 1, 100 and COMMANDS commands (dispatch and draw signatures), many
 *   calls into one list (fewer where their preprocess memory would pass 256 MiB), Reset and the
 *   setup untimed; raw: vkCmdExecuteGeneratedCommandsEXT of as many sequences.
 *
 * After the timed runs every side's target and buffer are read back and checked value by value.
 *   bench_indirect [gpu] [cpu]          the figures named (all by default)
 * D3D12XS_BENCH_OUT=<path> also writes the table as TSV. D3D12XS_DEBUG=1 is a validation run: the
 * layer stays on (the figures measure it too) and any message it gave d3d12xs fails the run. The
 * raw side must run without layers (no VK_INSTANCE_LAYERS): Debian's validation layer predates
 * the extension and would hand the driver its own handles (docs/indirect.md). */
#include <malloc.h>
#include <stddef.h>

#include "bench_util.h"
/* Debian 12's Vulkan headers (1.3.239) predate the extension: the library's declarations. */
#include "../src/device/vk_device_generated_commands.h"

const char *bench_name = "bench_indirect";

#define COMMANDS 10000u
#define GRID 128u              /* the draws' target is GRID x GRID, one pixel per command */
#define GRID_TEXT "128"        /* the same, for the shaders */
#define THREADS 64u            /* a dispatch's one group */
#define THREADS_TEXT "64"
#define CELL_STEP 7919u        /* command i draws into cell (i * CELL_STEP) % COMMANDS: a permutation */
#define CPU_COUNTS 3
static const uint32_t cpu_counts[CPU_COUNTS] = {1, 100, COMMANDS};

/* The argument buffers' commands: two root constants, then D3D12's argument structure (which is
 * Vulkan's indirect command structure field for field). */
struct draw_command {
    uint32_t cell, value;
    D3D12_DRAW_ARGUMENTS draw;
};
struct dispatch_command {
    uint32_t slot, value;
    D3D12_DISPATCH_ARGUMENTS dispatch;
};
#define DRAW_STRIDE ((uint32_t)sizeof(struct draw_command))         /* 24 */
#define DISPATCH_STRIDE ((uint32_t)sizeof(struct dispatch_command)) /* 20 */
_Static_assert(sizeof(struct draw_command) == 24 && sizeof(struct dispatch_command) == 20, "the shaders' strides");

enum kind { KIND_DRAW, KIND_DISPATCH, KIND_COUNT };
static const char *const kind_names[KIND_COUNT] = {"draw", "dispatch"};
static const char *const kind_plurals[KIND_COUNT] = {"draws", "dispatches"};

static uint32_t command_value(uint32_t i)
{
    uint32_t h = (i + 1) * 0x9e3779b1u;
    h ^= h >> 15;
    return (h * 0x2c1b3c6du) | 1u; /* never 0, the cleared target's value */
}

static uint32_t command_cell(uint32_t i)
{
    return (uint32_t)((uint64_t)i * CELL_STEP % COMMANDS);
}

static struct draw_command *draw_commands(void)
{
    struct draw_command *c = calloc(COMMANDS, sizeof(*c));
    REQUIRE(c, "out of memory");
    for (uint32_t i = 0; i < COMMANDS; i++)
        c[i] = (struct draw_command){command_cell(i), command_value(i), {3, 1, 0, 0}};
    return c;
}

static struct dispatch_command *dispatch_commands(void)
{
    struct dispatch_command *c = calloc(COMMANDS, sizeof(*c));
    REQUIRE(c, "out of memory");
    for (uint32_t i = 0; i < COMMANDS; i++)
        c[i] = (struct dispatch_command){command_cell(i), command_value(i), {1, 1, 1}};
    return c;
}

/* Every pixel of a GRID x GRID R32_UINT target read back (rows `pitch` bytes apart): each
 * command's value in its cell, 0 in the cells no command has. */
static void check_target(const uint8_t *rows, size_t pitch, const char *side)
{
    uint32_t *expected = calloc(GRID * GRID, sizeof(*expected));
    REQUIRE(expected, "out of memory");
    for (uint32_t i = 0; i < COMMANDS; i++)
        expected[command_cell(i)] = command_value(i);
    for (uint32_t y = 0; y < GRID; y++)
        for (uint32_t x = 0; x < GRID; x++) {
            uint32_t got;
            memcpy(&got, rows + y * pitch + x * 4, 4);
            if (got != expected[y * GRID + x])
                bench_fail(__LINE__, "%s: pixel (%u, %u) is 0x%08x, expected 0x%08x", side, x, y, got, expected[y * GRID + x]);
        }
    free(expected);
}

/* Every word of the dispatches' buffer: command i's group stored value + thread at its slot. */
static void check_output(const uint32_t *words, const char *side)
{
    for (uint32_t i = 0; i < COMMANDS; i++)
        for (uint32_t t = 0; t < THREADS; t++)
            if (words[command_cell(i) * THREADS + t] != command_value(i) + t)
                bench_fail(__LINE__, "%s: word %u is 0x%08x, expected 0x%08x (command %u)", side, command_cell(i) * THREADS + t,
                        words[command_cell(i) * THREADS + t], command_value(i) + t, i);
}

/* ---- shaders: one HLSL source per kind, D3DCompile for d3d12xs, shaderc (RAW_VULKAN) for raw
 * DGC; the raw multi-draw / indexed forms read the constants from the argument buffer. ---- */

/* A triangle of 1.5 pixels' legs from its cell's corner covers that pixel's centre and no other;
 * y grows downwards as in D3D12 (the raw side's viewport is flipped as d3d12xs's is). */
static const char draw_hlsl[] = BENCH_HLSL_PROLOGUE
    "#define GRID " GRID_TEXT "\n"
    "PUSH_CONSTANTS(Constants) { uint cell; uint value; };\n"
    "struct Varyings { float4 position : SV_Position; nointerpolation uint value : VALUE; };\n"
    "#ifdef SUBTRACT_BASES\n" /* an experiment (D3D12XS_BENCH_RAW_BASES): the raw side counts as d3d12xs's shaders do */
    "Varyings vs_main(uint vertex_index : SV_VertexID, [[vk::builtin(\"BaseVertex\")]] uint base : BASEVERTEX)\n"
    "{\n"
    "    uint id = vertex_index - base;\n"
    "#else\n"
    "Varyings vs_main(uint id : SV_VertexID)\n"
    "{\n"
    "#endif\n"
    "    float2 p = float2(cell % GRID, cell / GRID) + float2(id == 1 ? 1.5 : 0.0, id == 2 ? 1.5 : 0.0);\n"
    "    Varyings v;\n"
    "    v.position = float4(p.x / GRID * 2.0 - 1.0, 1.0 - p.y / GRID * 2.0, 0.0, 1.0);\n"
    "    v.value = value;\n"
    "    return v;\n"
    "}\n"
    "uint ps_main(Varyings v) : SV_Target { return v.value; }\n";

/* The raw multi-draw's vertex shader: the same triangle, its constants from the argument buffer at
 * gl_DrawID (the command's first two words). */
static const char draw_mdi_glsl[] =
    "#version 460\n"
    "layout(std430, set = 0, binding = 0) readonly buffer Commands { uint words[]; };\n"
    "layout(location = 0) flat out uint value_out;\n"
    "void main()\n"
    "{\n"
    "    uint base = uint(gl_DrawID) * 6u; /* the stride in words */\n"
    "    uint cell = words[base];\n"
    "    vec2 p = vec2(cell % GRID_SIZE, cell / GRID_SIZE)\n"
    "            + vec2(gl_VertexIndex == 1 ? 1.5 : 0.0, gl_VertexIndex == 2 ? 1.5 : 0.0);\n"
    "    gl_Position = vec4(p.x / float(GRID_SIZE) * 2.0 - 1.0, 1.0 - p.y / float(GRID_SIZE) * 2.0, 0.0, 1.0);\n"
    "    value_out = words[base + 1u];\n"
    "}\n";

static const char dispatch_hlsl[] = BENCH_HLSL_PROLOGUE
    "#define THREADS " THREADS_TEXT "\n"
    "#ifdef INDEXED\n"
    "[[vk::push_constant]] cbuffer Index { uint command; };\n"
    "[[vk::binding(1, 0)]] ByteAddressBuffer commands;\n"
    "#else\n"
    "PUSH_CONSTANTS(Constants) { uint slot; uint value; };\n"
    "#endif\n"
    "BINDING(0) RWByteAddressBuffer output : register(u0);\n"
    "[numthreads(THREADS, 1, 1)]\n"
    "void main(uint3 id : SV_GroupThreadID)\n"
    "{\n"
    "#ifdef INDEXED\n"
    "    uint slot = commands.Load(command * STRIDE), value = commands.Load(command * STRIDE + 4);\n"
    "#endif\n"
    "    output.Store((slot * THREADS + id.x) * 4, value + id.x);\n"
    "}\n";

/* ---- parameters ---- */

struct params {
    unsigned gpu_reps;
    unsigned cpu_samples, cpu_warmup;
    unsigned cpu_calls[KIND_COUNT][CPU_COUNTS]; /* ExecuteIndirect calls per recorded list */
};

/* ======================================================================================= */
/* d3d12xs side                                                                            */
/* ======================================================================================= */

struct d3d {
    ID3D12Device *device;
    D3D12XS_DEVICE_INFO info;
    struct bench_d3d_queue q;                       /* DIRECT */
    ID3D12QueryHeap *queries;                       /* two per kind */
    ID3D12Resource *query_results;                  /* READBACK, 4 UINT64 */
    ID3D12RootSignature *roots[KIND_COUNT];         /* draw: 2 constants (vertex); dispatch: 2 constants + root UAV */
    ID3D12PipelineState *pipelines[KIND_COUNT];
    ID3D12CommandSignature *signatures[KIND_COUNT];
    ID3D12Resource *arguments[KIND_COUNT];          /* INDIRECT_ARGUMENT */
    ID3D12Resource *target, *output;                /* RENDER_TARGET R32_UINT; UNORDERED_ACCESS */
    ID3D12DescriptorHeap *rtvs;
    ID3D12CommandAllocator *timed_allocators[KIND_COUNT], *cpu_allocator;
    ID3D12GraphicsCommandList *timed_lists[KIND_COUNT], *cpu_list;
};

/* A DEFAULT buffer holding `data`, in `state` (through an UPLOAD buffer). */
static ID3D12Resource *d3d_filled_buffer(struct d3d *d, const void *data, UINT64 size, D3D12_RESOURCE_STATES state)
{
    ID3D12Resource *buffer = bench_d3d_buffer(d->device, D3D12_HEAP_TYPE_DEFAULT, size, D3D12_RESOURCE_FLAG_NONE,
            D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12Resource *upload = bench_d3d_buffer(d->device, D3D12_HEAP_TYPE_UPLOAD, size, D3D12_RESOURCE_FLAG_NONE,
            D3D12_RESOURCE_STATE_GENERIC_READ);
    D3D12_RESOURCE_BARRIER barrier = bench_d3d_transition(buffer, D3D12_RESOURCE_STATE_COPY_DEST, state);
    ID3D12CommandAllocator *allocator;
    ID3D12GraphicsCommandList *list;
    void *mapped = NULL;

    HR(ID3D12Resource_Map(upload, 0, NULL, &mapped));
    memcpy(mapped, data, size);
    ID3D12Resource_Unmap(upload, 0, NULL);
    bench_d3d_new_list(d->device, D3D12_COMMAND_LIST_TYPE_DIRECT, &allocator, &list);
    ID3D12GraphicsCommandList_CopyBufferRegion(list, buffer, 0, upload, 0, size);
    ID3D12GraphicsCommandList_ResourceBarrier(list, 1, &barrier);
    HR(ID3D12GraphicsCommandList_Close(list));
    bench_d3d_execute_and_wait(&d->q, list);
    ID3D12GraphicsCommandList_Release(list);
    ID3D12CommandAllocator_Release(allocator);
    ID3D12Resource_Release(upload);
    return buffer;
}

static ID3DBlob *d3d_compile_stage(const char *source, const char *entry, const char *target)
{
    ID3DBlob *code = NULL, *errors = NULL;
    HRESULT hr = D3DCompile(source, strlen(source), "bench_indirect.hlsl", NULL, NULL, entry, target, 0, 0, &code, &errors);
    if (FAILED(hr))
        bench_fail(__LINE__, "D3DCompile %s failed (0x%08x): %s", entry, (unsigned)hr,
                errors ? (const char *)ID3D10Blob_GetBufferPointer(errors) : "?");
    if (errors)
        ID3D10Blob_Release(errors);
    return code;
}

static ID3D12PipelineState *d3d_draw_pipeline(struct d3d *d)
{
    ID3DBlob *vs = d3d_compile_stage(draw_hlsl, "vs_main", "vs_6_0"), *ps = d3d_compile_stage(draw_hlsl, "ps_main", "ps_6_0");
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *state = NULL;

    memset(&desc, 0, sizeof(desc));
    desc.pRootSignature = d->roots[KIND_DRAW];
    desc.VS = (D3D12_SHADER_BYTECODE){ID3D10Blob_GetBufferPointer(vs), ID3D10Blob_GetBufferSize(vs)};
    desc.PS = (D3D12_SHADER_BYTECODE){ID3D10Blob_GetBufferPointer(ps), ID3D10Blob_GetBufferSize(ps)};
    desc.BlendState.RenderTarget[0].RenderTargetWriteMask = D3D12_COLOR_WRITE_ENABLE_ALL;
    desc.BlendState.RenderTarget[0].LogicOp = D3D12_LOGIC_OP_NOOP;
    desc.SampleMask = UINT32_MAX;
    desc.RasterizerState.FillMode = D3D12_FILL_MODE_SOLID;
    desc.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    desc.RasterizerState.DepthClipEnable = TRUE;
    desc.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
    desc.NumRenderTargets = 1;
    desc.RTVFormats[0] = DXGI_FORMAT_R32_UINT;
    desc.SampleDesc.Count = 1;
    HR(ID3D12Device_CreateGraphicsPipelineState(d->device, &desc, &IID_ID3D12PipelineState, (void **)&state));
    ID3D10Blob_Release(vs);
    ID3D10Blob_Release(ps);
    return state;
}

/* CONSTANT (root parameter 0, both values) + the draw or dispatch. */
static ID3D12CommandSignature *d3d_command_signature(struct d3d *d, enum kind kind)
{
    D3D12_INDIRECT_ARGUMENT_DESC arguments[2];
    D3D12_COMMAND_SIGNATURE_DESC desc = {kind == KIND_DRAW ? DRAW_STRIDE : DISPATCH_STRIDE, 2, arguments, 0};
    ID3D12CommandSignature *signature = NULL;

    memset(arguments, 0, sizeof(arguments));
    arguments[0].Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT;
    arguments[0].Constant.RootParameterIndex = 0;
    arguments[0].Constant.DestOffsetIn32BitValues = 0;
    arguments[0].Constant.Num32BitValuesToSet = 2;
    arguments[1].Type = kind == KIND_DRAW ? D3D12_INDIRECT_ARGUMENT_TYPE_DRAW : D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH;
    HR(ID3D12Device_CreateCommandSignature(d->device, &desc, d->roots[kind], &IID_ID3D12CommandSignature, (void **)&signature));
    return signature;
}

static void d3d_init(struct d3d *d, bool validating)
{
    D3D12_QUERY_HEAP_DESC query_desc = {D3D12_QUERY_HEAP_TYPE_TIMESTAMP, 2 * KIND_COUNT, 0};
    D3D12_DESCRIPTOR_HEAP_DESC rtv_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    D3D12_HEAP_PROPERTIES heap = {D3D12_HEAP_TYPE_DEFAULT, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    D3D12_ROOT_PARAMETER1 parameters[2];
    D3D12_RESOURCE_DESC target_desc;
    struct draw_command *draws = draw_commands();
    struct dispatch_command *dispatches = dispatch_commands();

    memset(d, 0, sizeof(*d));
    HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&d->device));
    HR(D3D12XSGetDeviceInfo(d->device, &d->info));
    if (validating)
        REQUIRE(d->info.ValidationLayerEnabled, "D3D12XS_DEBUG asks for the validation layer, but it is not on (not installed?)");
    else
        REQUIRE(!d->info.ValidationLayerEnabled, "the validation layer is on (D3D12XS_DEBUG): the figures would be meaningless");
    REQUIRE(d->info.Queues[D3D12_COMMAND_LIST_TYPE_DIRECT].TimestampsSupported, "the DIRECT queue has no timestamps");
    bench_d3d_queue_init(d->device, &d->q, D3D12_COMMAND_LIST_TYPE_DIRECT);
    HR(ID3D12Device_CreateQueryHeap(d->device, &query_desc, &IID_ID3D12QueryHeap, (void **)&d->queries));
    d->query_results = bench_d3d_buffer(d->device, D3D12_HEAP_TYPE_READBACK, 2 * KIND_COUNT * sizeof(UINT64), D3D12_RESOURCE_FLAG_NONE,
            D3D12_RESOURCE_STATE_COPY_DEST);

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 2;
    parameters[0].ShaderVisibility = D3D12_SHADER_VISIBILITY_VERTEX;
    if (getenv("D3D12XS_BENCH_DENY_STAGES")) {
        /* An experiment: the draw signature denies the stages it does not use, as Microsoft
         * advises, so d3d12xs's push range and generated-commands layout name vertex and pixel
         * only (the raw layout's stages). */
        D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc = {.Version = D3D_ROOT_SIGNATURE_VERSION_1_1};
        ID3DBlob *blob = NULL, *errors = NULL;
        desc.Desc_1_1.NumParameters = 1;
        desc.Desc_1_1.pParameters = parameters;
        desc.Desc_1_1.Flags = D3D12_ROOT_SIGNATURE_FLAG_DENY_HULL_SHADER_ROOT_ACCESS | D3D12_ROOT_SIGNATURE_FLAG_DENY_DOMAIN_SHADER_ROOT_ACCESS
                | D3D12_ROOT_SIGNATURE_FLAG_DENY_GEOMETRY_SHADER_ROOT_ACCESS | D3D12_ROOT_SIGNATURE_FLAG_DENY_AMPLIFICATION_SHADER_ROOT_ACCESS
                | D3D12_ROOT_SIGNATURE_FLAG_DENY_MESH_SHADER_ROOT_ACCESS;
        HR(D3D12SerializeVersionedRootSignature(&desc, &blob, &errors));
        HR(ID3D12Device_CreateRootSignature(d->device, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
                &IID_ID3D12RootSignature, (void **)&d->roots[KIND_DRAW]));
        ID3D10Blob_Release(blob);
        printf("experiment     : the draw root signature denies hull, domain and geometry shaders (D3D12XS_BENCH_DENY_STAGES)\n");
    } else {
        d->roots[KIND_DRAW] = bench_d3d_root_signature(d->device, parameters, 1);
    }
    parameters[0].ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    d->roots[KIND_DISPATCH] = bench_d3d_root_signature(d->device, parameters, 2);
    d->pipelines[KIND_DRAW] = d3d_draw_pipeline(d);
    d->pipelines[KIND_DISPATCH] = bench_d3d_pipeline(d->device, d->roots[KIND_DISPATCH], dispatch_hlsl, NULL);
    for (unsigned k = 0; k < KIND_COUNT; k++)
        d->signatures[k] = d3d_command_signature(d, (enum kind)k);
    d->arguments[KIND_DRAW] = d3d_filled_buffer(d, draws, COMMANDS * DRAW_STRIDE, D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT);
    d->arguments[KIND_DISPATCH] = d3d_filled_buffer(d, dispatches, COMMANDS * DISPATCH_STRIDE, D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT);
    free(draws);
    free(dispatches);

    memset(&target_desc, 0, sizeof(target_desc));
    target_desc.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    target_desc.Width = GRID;
    target_desc.Height = GRID;
    target_desc.DepthOrArraySize = 1;
    target_desc.MipLevels = 1;
    target_desc.Format = DXGI_FORMAT_R32_UINT;
    target_desc.SampleDesc.Count = 1;
    target_desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    HR(ID3D12Device_CreateCommittedResource(d->device, &heap, D3D12_HEAP_FLAG_NONE, &target_desc, D3D12_RESOURCE_STATE_RENDER_TARGET, NULL,
            &IID_ID3D12Resource, (void **)&d->target));
    HR(ID3D12Device_CreateDescriptorHeap(d->device, &rtv_desc, &IID_ID3D12DescriptorHeap, (void **)&d->rtvs));
    ID3D12Device_CreateRenderTargetView(d->device, d->target, NULL, bench_d3d_heap_cpu_start(d->rtvs));
    d->output = bench_d3d_buffer(d->device, D3D12_HEAP_TYPE_DEFAULT, (UINT64)COMMANDS * THREADS * 4, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS,
            D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    bench_d3d_new_list(d->device, D3D12_COMMAND_LIST_TYPE_DIRECT, &d->cpu_allocator, &d->cpu_list);
    HR(ID3D12GraphicsCommandList_Close(d->cpu_list));
}

/* The state a kind's commands need: root signature, pipeline, and the target or the root UAV. */
static void d3d_setup(struct d3d *d, ID3D12GraphicsCommandList *list, enum kind kind)
{
    if (kind == KIND_DRAW) {
        D3D12_VIEWPORT viewport = {0.0f, 0.0f, (float)GRID, (float)GRID, 0.0f, 1.0f};
        D3D12_RECT scissor = {0, 0, GRID, GRID};
        D3D12_CPU_DESCRIPTOR_HANDLE rtv = bench_d3d_heap_cpu_start(d->rtvs);
        ID3D12GraphicsCommandList_SetGraphicsRootSignature(list, d->roots[KIND_DRAW]);
        ID3D12GraphicsCommandList_SetPipelineState(list, d->pipelines[KIND_DRAW]);
        ID3D12GraphicsCommandList_IASetPrimitiveTopology(list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
        ID3D12GraphicsCommandList_RSSetViewports(list, 1, &viewport);
        ID3D12GraphicsCommandList_RSSetScissorRects(list, 1, &scissor);
        ID3D12GraphicsCommandList_OMSetRenderTargets(list, 1, &rtv, FALSE, NULL);
    } else {
        ID3D12GraphicsCommandList_SetComputeRootSignature(list, d->roots[KIND_DISPATCH]);
        ID3D12GraphicsCommandList_SetPipelineState(list, d->pipelines[KIND_DISPATCH]);
        ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(list, 1, ID3D12Resource_GetGPUVirtualAddress(d->output));
    }
}

static void d3d_execute_indirect(struct d3d *d, ID3D12GraphicsCommandList *list, enum kind kind, UINT count)
{
    ID3D12GraphicsCommandList_ExecuteIndirect(list, d->signatures[kind], count, d->arguments[kind], 0, NULL, 0);
}

/* The timed lists: the state, timestamp, one ExecuteIndirect of COMMANDS, timestamp, resolve.
 * d3d12xs binds at the ExecuteIndirect, inside the window, as the raw side does. */
static void d3d_build_timed(struct d3d *d)
{
    static const float zeros[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (unsigned k = 0; k < KIND_COUNT; k++) {
        ID3D12GraphicsCommandList *list;
        bench_d3d_new_list(d->device, D3D12_COMMAND_LIST_TYPE_DIRECT, &d->timed_allocators[k], &d->timed_lists[k]);
        list = d->timed_lists[k];
        d3d_setup(d, list, (enum kind)k);
        ID3D12GraphicsCommandList_EndQuery(list, d->queries, D3D12_QUERY_TYPE_TIMESTAMP, 2 * k);
        d3d_execute_indirect(d, list, (enum kind)k, COMMANDS);
        ID3D12GraphicsCommandList_EndQuery(list, d->queries, D3D12_QUERY_TYPE_TIMESTAMP, 2 * k + 1);
        ID3D12GraphicsCommandList_ResolveQueryData(list, d->queries, D3D12_QUERY_TYPE_TIMESTAMP, 2 * k, 2, d->query_results,
                2 * k * sizeof(UINT64));
        HR(ID3D12GraphicsCommandList_Close(list));
    }
    /* the target starts cleared: the check finds cells no command drew 0 */
    HR(ID3D12CommandAllocator_Reset(d->cpu_allocator));
    HR(ID3D12GraphicsCommandList_Reset(d->cpu_list, d->cpu_allocator, NULL));
    ID3D12GraphicsCommandList_ClearRenderTargetView(d->cpu_list, bench_d3d_heap_cpu_start(d->rtvs), zeros, 0, NULL);
    HR(ID3D12GraphicsCommandList_Close(d->cpu_list));
    bench_d3d_execute_and_wait(&d->q, d->cpu_list);
}

/* GPU ns per command of one run of a kind's timed list. */
static double d3d_run_timed(struct d3d *d, enum kind kind)
{
    D3D12_RANGE range = {2 * kind * sizeof(UINT64), (2 * kind + 2) * sizeof(UINT64)};
    UINT64 *ticks = NULL;
    double ns;

    /* a blocking wait, as the raw side's vkWaitForFences: on lavapipe a polling thread would take
     * a core from the "GPU"'s threads */
    bench_d3d_execute_and_wait(&d->q, d->timed_lists[kind]);
    HR(ID3D12Resource_Map(d->query_results, 0, &range, (void **)&ticks));
    ns = (double)(ticks[2 * kind + 1] - ticks[2 * kind]) * 1e9 / (double)d->q.frequency / COMMANDS;
    ID3D12Resource_Unmap(d->query_results, 0, NULL);
    return ns;
}

/* CPU ns per ExecuteIndirect of `count` commands: Reset, the state and one ExecuteIndirect (which
 * opens the rendering pass and binds) untimed, then `calls` timed, Close untimed. */
static double d3d_cpu_sample(struct d3d *d, enum kind kind, UINT count, unsigned calls)
{
    double start, end;

    HR(ID3D12CommandAllocator_Reset(d->cpu_allocator));
    HR(ID3D12GraphicsCommandList_Reset(d->cpu_list, d->cpu_allocator, NULL));
    d3d_setup(d, d->cpu_list, kind);
    d3d_execute_indirect(d, d->cpu_list, kind, count);
    start = bench_now_ns();
    for (unsigned i = 0; i < calls; i++)
        d3d_execute_indirect(d, d->cpu_list, kind, count);
    end = bench_now_ns();
    HR(ID3D12GraphicsCommandList_Close(d->cpu_list));
    return (end - start) / calls;
}

/* The target and the buffer the timed runs wrote, read back and checked. */
static void d3d_check(struct d3d *d)
{
    ID3D12Resource *pixels = bench_d3d_buffer(d->device, D3D12_HEAP_TYPE_READBACK, GRID * GRID * 4, D3D12_RESOURCE_FLAG_NONE,
            D3D12_RESOURCE_STATE_COPY_DEST);
    D3D12_RESOURCE_BARRIER barriers[2] = {
        bench_d3d_transition(d->target, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_COPY_SOURCE),
        bench_d3d_transition(d->target, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_RENDER_TARGET),
    };
    D3D12_TEXTURE_COPY_LOCATION dst, src;
    ID3D12Resource *words;
    void *mapped = NULL;

    memset(&dst, 0, sizeof(dst));
    dst.pResource = pixels;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    dst.PlacedFootprint.Footprint = (D3D12_SUBRESOURCE_FOOTPRINT){DXGI_FORMAT_R32_UINT, GRID, GRID, 1, GRID * 4};
    memset(&src, 0, sizeof(src));
    src.pResource = d->target;
    src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    HR(ID3D12CommandAllocator_Reset(d->cpu_allocator));
    HR(ID3D12GraphicsCommandList_Reset(d->cpu_list, d->cpu_allocator, NULL));
    ID3D12GraphicsCommandList_ResourceBarrier(d->cpu_list, 1, &barriers[0]);
    ID3D12GraphicsCommandList_CopyTextureRegion(d->cpu_list, &dst, 0, 0, 0, &src, NULL);
    ID3D12GraphicsCommandList_ResourceBarrier(d->cpu_list, 1, &barriers[1]);
    HR(ID3D12GraphicsCommandList_Close(d->cpu_list));
    bench_d3d_execute_and_wait(&d->q, d->cpu_list);
    HR(ID3D12Resource_Map(pixels, 0, NULL, &mapped));
    check_target(mapped, GRID * 4, "d3d12xs draws");
    ID3D12Resource_Unmap(pixels, 0, NULL);
    ID3D12Resource_Release(pixels);

    words = bench_d3d_read_back(d->device, &d->q, d->output, (UINT64)COMMANDS * THREADS * 4);
    HR(ID3D12Resource_Map(words, 0, NULL, &mapped));
    check_output(mapped, "d3d12xs dispatches");
    ID3D12Resource_Unmap(words, 0, NULL);
    ID3D12Resource_Release(words);
}

static void d3d_destroy(struct d3d *d)
{
    for (unsigned k = 0; k < KIND_COUNT; k++) {
        if (d->timed_lists[k]) {
            ID3D12GraphicsCommandList_Release(d->timed_lists[k]);
            ID3D12CommandAllocator_Release(d->timed_allocators[k]);
        }
        ID3D12Resource_Release(d->arguments[k]);
        ID3D12CommandSignature_Release(d->signatures[k]);
        ID3D12PipelineState_Release(d->pipelines[k]);
        ID3D12RootSignature_Release(d->roots[k]);
    }
    ID3D12GraphicsCommandList_Release(d->cpu_list);
    ID3D12CommandAllocator_Release(d->cpu_allocator);
    ID3D12Resource_Release(d->output);
    ID3D12DescriptorHeap_Release(d->rtvs);
    ID3D12Resource_Release(d->target);
    ID3D12Resource_Release(d->query_results);
    ID3D12QueryHeap_Release(d->queries);
    bench_d3d_queue_destroy(&d->q);
    ID3D12Device_Release(d->device);
}

/* ======================================================================================= */
/* raw Vulkan side                                                                         */
/* ======================================================================================= */

/* The two raw forms of each kind: generated commands, and multi-draw indirect (draws) or one
 * vkCmdDispatchIndirect per command (dispatches). */
enum form { FORM_DGC, FORM_PLAIN, FORM_COUNT };
#define TIMED_CMDS (KIND_COUNT * FORM_COUNT)

struct raw_target {
    VkImage image;
    VkDeviceMemory memory;
    VkImageView view;
};

struct raw {
    struct bench_vk vk;
    struct bench_vk_queue q;                 /* the first graphics family: d3d12xs's DIRECT queues' */
    PFN_vkCreateIndirectCommandsLayoutEXT vkCreateIndirectCommandsLayoutEXT;
    PFN_vkDestroyIndirectCommandsLayoutEXT vkDestroyIndirectCommandsLayoutEXT;
    PFN_vkGetGeneratedCommandsMemoryRequirementsEXT vkGetGeneratedCommandsMemoryRequirementsEXT;
    PFN_vkCmdExecuteGeneratedCommandsEXT vkCmdExecuteGeneratedCommandsEXT;
    VkQueryPool queries;                     /* two per timed command buffer */
    VkDescriptorSetLayout set_layouts[KIND_COUNT][FORM_COUNT];
    VkPipelineLayout layouts[KIND_COUNT][FORM_COUNT];
    VkPipeline pipelines[KIND_COUNT][FORM_COUNT];
    VkIndirectCommandsLayoutEXT commands_layouts[KIND_COUNT];
    VkShaderStageFlags dgc_stages[KIND_COUNT];
    bool sample_locations; /* the experiment's: the draw pipelines with dynamic sample locations */
    unsigned dynamic;      /* the experiment's (D3D12XS_BENCH_RAW_DYNAMIC): RAW_DYNAMIC_* bits */
    PFN_vkCmdSetSampleLocationsEXT vkCmdSetSampleLocationsEXT;
    struct bench_vk_buffer arguments[KIND_COUNT];
    VkDeviceAddress argument_addresses[KIND_COUNT];
    struct raw_target targets[FORM_COUNT];   /* R32_UINT, GENERAL */
    struct bench_vk_buffer outputs[FORM_COUNT];
    /* preprocess memory: a slice per call (CPU figures) or per timed command buffer */
    VkBuffer preprocess;
    VkDeviceMemory preprocess_memory;
    VkDeviceAddress preprocess_address;
    VkDeviceSize preprocess_size;
    VkDeviceSize preprocess_slices[KIND_COUNT][CPU_COUNTS]; /* aligned slice sizes per count; [.][CPU_COUNTS - 1] is COMMANDS */
    VkCommandBuffer timed[KIND_COUNT][FORM_COUNT];
    VkCommandPool cpu_pool;
    VkCommandBuffer cpu_cmd;
};

#define LOAD_SAMPLE_LOCATIONS(r) REQUIRE(((r)->vkCmdSetSampleLocationsEXT = (PFN_vkCmdSetSampleLocationsEXT)vkGetDeviceProcAddr((r)->vk.device, \
        "vkCmdSetSampleLocationsEXT")), "no vkCmdSetSampleLocationsEXT")

/* The device on d3d12xs's DIRECT family with what the figures use: dynamic rendering,
 * synchronization2, multi-draw indirect with gl_DrawID, buffer device addresses, push descriptors
 * and generated commands. False when the device has no VK_EXT_device_generated_commands. */
static bool raw_create_device(struct raw *r)
{
    /* VK_KHR_maintenance5: generated commands require it, and the preprocess memory's usage is its */
    static const char *const extensions[] = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME, D3D12XS_VK_DEVICE_GENERATED_COMMANDS_EXTENSION_NAME,
            D3D12XS_VK_MAINTENANCE_5_EXTENSION_NAME, VK_EXT_SAMPLE_LOCATIONS_EXTENSION_NAME};
    /* An experiment (D3D12XS_BENCH_RAW_SAMPLE_LOCATIONS): the raw draw pipelines with dynamic
     * sample locations, as d3d12xs makes every pipeline where the device has them. */
    r->sample_locations = getenv("D3D12XS_BENCH_RAW_SAMPLE_LOCATIONS")
            && bench_vk_has_device_extension(r->vk.physical_device, VK_EXT_SAMPLE_LOCATIONS_EXTENSION_NAME);
    /* Another (D3D12XS_BENCH_RAW_DYNAMIC, a mask of RAW_DYNAMIC_*): the raw draw pipelines with
     * the Vulkan 1.3 dynamic states every d3d12xs graphics pipeline has, set once per command buffer. */
    r->dynamic = getenv("D3D12XS_BENCH_RAW_DYNAMIC") ? (unsigned)strtoul(getenv("D3D12XS_BENCH_RAW_DYNAMIC"), NULL, 0) : 0;
    VkQueueFamilyProperties families[16];
    uint32_t count = BENCH_ARRAY_SIZE(families), family = 0;
    float priority = 1.0f;
    VkPhysicalDeviceDeviceGeneratedCommandsFeaturesEXT offered_dgc = {
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEVICE_GENERATED_COMMANDS_FEATURES_EXT};
    VkPhysicalDeviceVulkan12Features offered12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, .pNext = &offered_dgc};
    VkPhysicalDeviceVulkan11Features offered11 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, .pNext = &offered12};
    VkPhysicalDeviceFeatures2 offered = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &offered11};

    if (!bench_vk_has_device_extension(r->vk.physical_device, D3D12XS_VK_DEVICE_GENERATED_COMMANDS_EXTENSION_NAME)
            || !bench_vk_has_device_extension(r->vk.physical_device, D3D12XS_VK_MAINTENANCE_5_EXTENSION_NAME))
        return false;
    vkGetPhysicalDeviceFeatures2(r->vk.physical_device, &offered);
    if (!offered_dgc.deviceGeneratedCommands || !offered12.bufferDeviceAddress || !offered11.shaderDrawParameters
            || !offered.features.multiDrawIndirect)
        return false;
    vkGetPhysicalDeviceQueueFamilyProperties(r->vk.physical_device, &count, families);
    while (family < count && !(families[family].queueFlags & VK_QUEUE_GRAPHICS_BIT))
        family++;
    REQUIRE(family < count, "no graphics queue family");
    REQUIRE(families[family].timestampValidBits, "queue family %u has no timestamps", family);

    VkPhysicalDeviceMaintenance5FeaturesKHR maintenance5 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_5_FEATURES_KHR,
            .maintenance5 = VK_TRUE};
    VkPhysicalDeviceDeviceGeneratedCommandsFeaturesEXT dgc = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEVICE_GENERATED_COMMANDS_FEATURES_EXT,
            .pNext = &maintenance5, .deviceGeneratedCommands = VK_TRUE};
    VkPhysicalDeviceVulkan13Features features13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, .pNext = &dgc,
            .synchronization2 = VK_TRUE, .dynamicRendering = VK_TRUE};
    VkPhysicalDeviceVulkan12Features features12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, .pNext = &features13,
            .bufferDeviceAddress = VK_TRUE};
    VkPhysicalDeviceVulkan11Features features11 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, .pNext = &features12,
            .shaderDrawParameters = VK_TRUE};
    VkPhysicalDeviceFeatures2 features = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &features11,
            .features = {.multiDrawIndirect = VK_TRUE}};
    VkDeviceQueueCreateInfo queue_info = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = family, .queueCount = 1,
            .pQueuePriorities = &priority};
    VkDeviceCreateInfo device_info = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &features, .queueCreateInfoCount = 1,
            .pQueueCreateInfos = &queue_info, .enabledExtensionCount = BENCH_ARRAY_SIZE(extensions) - !r->sample_locations,
            .ppEnabledExtensionNames = extensions};
    VK(vkCreateDevice(r->vk.physical_device, &device_info, NULL, &r->vk.device));
    if (r->sample_locations) {
        LOAD_SAMPLE_LOCATIONS(r);
        printf("experiment     : the raw draw pipelines have dynamic sample locations (D3D12XS_BENCH_RAW_SAMPLE_LOCATIONS)\n");
    }
    if (r->dynamic)
        printf("experiment     : the raw draw pipelines have d3d12xs's dynamic states, mask 0x%x (D3D12XS_BENCH_RAW_DYNAMIC: 1 viewport and "
                "scissor with count, 2 blend constants and stencil reference, 4 topology and primitive restart)\n", r->dynamic);
    r->vk.vkCmdPushDescriptorSetKHR = (PFN_vkCmdPushDescriptorSetKHR)vkGetDeviceProcAddr(r->vk.device, "vkCmdPushDescriptorSetKHR");
#define LOAD(name) REQUIRE((r->name = (PFN_##name)vkGetDeviceProcAddr(r->vk.device, #name)), "no " #name)
    LOAD(vkCreateIndirectCommandsLayoutEXT);
    LOAD(vkDestroyIndirectCommandsLayoutEXT);
    LOAD(vkGetGeneratedCommandsMemoryRequirementsEXT);
    LOAD(vkCmdExecuteGeneratedCommandsEXT);
#undef LOAD
    REQUIRE(r->vk.vkCmdPushDescriptorSetKHR, "no vkCmdPushDescriptorSetKHR");
    r->q.family = family;
    vkGetDeviceQueue(r->vk.device, family, 0, &r->q.queue);
    VkFenceCreateInfo fence_info = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VK(vkCreateFence(r->vk.device, &fence_info, NULL, &r->q.fence));
    VkCommandPoolCreateInfo pool_info = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .queueFamilyIndex = family};
    VK(vkCreateCommandPool(r->vk.device, &pool_info, NULL, &r->q.pool));
    VK(vkCreateCommandPool(r->vk.device, &pool_info, NULL, &r->cpu_pool));
    VkCommandBufferAllocateInfo cmd_info = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = r->cpu_pool,
            .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1};
    VK(vkAllocateCommandBuffers(r->vk.device, &cmd_info, &r->cpu_cmd));
    return true;
}

/* A pipeline layout of one push-descriptor set of `buffers` storage buffers and `push_bytes` of
 * push constants, both for `stages`. */
static void raw_layout(struct raw *r, enum kind kind, enum form form, VkShaderStageFlags stages, uint32_t buffers, uint32_t push_bytes)
{
    VkDescriptorSetLayoutBinding bindings[2];
    for (uint32_t i = 0; i < buffers; i++)
        bindings[i] = (VkDescriptorSetLayoutBinding){i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, stages, NULL};
    VkDescriptorSetLayoutCreateInfo set_info = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
            .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR, .bindingCount = buffers, .pBindings = bindings};
    VK(vkCreateDescriptorSetLayout(r->vk.device, &set_info, NULL, &r->set_layouts[kind][form]));
    VkPushConstantRange range = {stages, 0, push_bytes};
    VkPipelineLayoutCreateInfo layout_info = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
            .pSetLayouts = &r->set_layouts[kind][form], .pushConstantRangeCount = push_bytes ? 1 : 0, .pPushConstantRanges = &range};
    VK(vkCreatePipelineLayout(r->vk.device, &layout_info, NULL, &r->layouts[kind][form]));
}

/* shaderc's module of one stage, with the options D3DCompile uses (bench_spirv's); `macros`
 * NULL-terminated name/value pairs. */
static VkShaderModule raw_module(struct raw *r, const char *source, bool glsl, shaderc_shader_kind stage, const char *const *macros)
{
    shaderc_compiler_t compiler = shaderc_compiler_initialize();
    shaderc_compile_options_t options = shaderc_compile_options_initialize();
    shaderc_compilation_result_t result;
    VkShaderModule module;

    REQUIRE(compiler && options, "cannot create the shaderc compiler");
    shaderc_compile_options_set_source_language(options, glsl ? shaderc_source_language_glsl : shaderc_source_language_hlsl);
    shaderc_compile_options_set_target_env(options, shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_1);
    shaderc_compile_options_set_target_spirv(options, shaderc_spirv_version_1_3);
    shaderc_compile_options_set_optimization_level(options, shaderc_optimization_level_performance);
    if (!glsl) {
        shaderc_compile_options_set_hlsl_offsets(options, true);
        shaderc_compile_options_add_macro_definition(options, "RAW_VULKAN", 10, "1", 1);
    }
    for (const char *const *m = macros; m && *m; m += 2)
        shaderc_compile_options_add_macro_definition(options, m[0], strlen(m[0]), m[1], strlen(m[1]));
    result = shaderc_compile_into_spv(compiler, source, strlen(source), stage, "bench_indirect", "main", options);
    if (shaderc_result_get_compilation_status(result) != shaderc_compilation_status_success)
        bench_fail(__LINE__, "shaderc: %s", shaderc_result_get_error_message(result));
    VkShaderModuleCreateInfo info = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = shaderc_result_get_length(result),
            .pCode = (const uint32_t *)shaderc_result_get_bytes(result)};
    VK(vkCreateShaderModule(r->vk.device, &info, NULL, &module));
    shaderc_result_release(result);
    shaderc_compile_options_release(options);
    shaderc_compiler_release(compiler);
    return module;
}

enum {RAW_DYNAMIC_VIEWPORT_WITH_COUNT = 1, RAW_DYNAMIC_BLEND_STENCIL = 2, RAW_DYNAMIC_TOPOLOGY = 4};

/* Dynamic rendering into one R32_UINT target, no vertex input, viewport and scissor dynamic. */
static VkPipeline raw_graphics_pipeline(struct raw *r, VkPipelineLayout layout, VkShaderModule vs, VkShaderModule ps)
{
    VkDynamicState dynamic_states[8];
    uint32_t dynamic_count = 0;
    if (r->dynamic & RAW_DYNAMIC_VIEWPORT_WITH_COUNT) {
        dynamic_states[dynamic_count++] = VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT;
        dynamic_states[dynamic_count++] = VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT;
    } else {
        dynamic_states[dynamic_count++] = VK_DYNAMIC_STATE_VIEWPORT;
        dynamic_states[dynamic_count++] = VK_DYNAMIC_STATE_SCISSOR;
    }
    if (r->dynamic & RAW_DYNAMIC_BLEND_STENCIL) {
        dynamic_states[dynamic_count++] = VK_DYNAMIC_STATE_BLEND_CONSTANTS;
        dynamic_states[dynamic_count++] = VK_DYNAMIC_STATE_STENCIL_REFERENCE;
    }
    if (r->dynamic & RAW_DYNAMIC_TOPOLOGY) {
        dynamic_states[dynamic_count++] = VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY;
        dynamic_states[dynamic_count++] = VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE;
    }
    if (r->sample_locations)
        dynamic_states[dynamic_count++] = VK_DYNAMIC_STATE_SAMPLE_LOCATIONS_EXT;
    VkPipelineSampleLocationsStateCreateInfoEXT sample_locations = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SAMPLE_LOCATIONS_STATE_CREATE_INFO_EXT,
            .sampleLocationsEnable = VK_TRUE, .sampleLocationsInfo = {.sType = VK_STRUCTURE_TYPE_SAMPLE_LOCATIONS_INFO_EXT,
            .sampleLocationsPerPixel = VK_SAMPLE_COUNT_1_BIT, .sampleLocationGridSize = {1, 1}}};
    static const VkFormat format = VK_FORMAT_R32_UINT;
    VkPipelineShaderStageCreateInfo stages[2] = {
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_VERTEX_BIT, .module = vs, .pName = "main"},
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_FRAGMENT_BIT, .module = ps, .pName = "main"},
    };
    VkPipelineVertexInputStateCreateInfo vertex_input = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    VkPipelineInputAssemblyStateCreateInfo input_assembly = {.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
            .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST};
    VkPipelineViewportStateCreateInfo viewport = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
            .viewportCount = (r->dynamic & RAW_DYNAMIC_VIEWPORT_WITH_COUNT) ? 0 : 1, .scissorCount = (r->dynamic & RAW_DYNAMIC_VIEWPORT_WITH_COUNT) ? 0 : 1};
    VkPipelineRasterizationStateCreateInfo rasterization = {.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
            .polygonMode = VK_POLYGON_MODE_FILL, .cullMode = VK_CULL_MODE_NONE, .frontFace = VK_FRONT_FACE_CLOCKWISE, .lineWidth = 1.0f};
    VkPipelineMultisampleStateCreateInfo multisample = {.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
            .pNext = r->sample_locations ? &sample_locations : NULL, .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT};
    VkPipelineDepthStencilStateCreateInfo depth_stencil = {.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
    VkPipelineColorBlendAttachmentState attachment = {.colorWriteMask = 0xf};
    VkPipelineColorBlendStateCreateInfo color_blend = {.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
            .attachmentCount = 1, .pAttachments = &attachment};
    VkPipelineDynamicStateCreateInfo dynamic = {.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
            .dynamicStateCount = dynamic_count, .pDynamicStates = dynamic_states};
    VkPipelineRenderingCreateInfo rendering = {.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, .colorAttachmentCount = 1,
            .pColorAttachmentFormats = &format};
    VkGraphicsPipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
        .pNext = &rendering,
        .stageCount = 2,
        .pStages = stages,
        .pVertexInputState = &vertex_input,
        .pInputAssemblyState = &input_assembly,
        .pViewportState = &viewport,
        .pRasterizationState = &rasterization,
        .pMultisampleState = &multisample,
        .pDepthStencilState = &depth_stencil,
        .pColorBlendState = &color_blend,
        .pDynamicState = &dynamic,
        .layout = layout,
    };
    VkPipeline pipeline;
    VK(vkCreateGraphicsPipelines(r->vk.device, VK_NULL_HANDLE, 1, &info, NULL, &pipeline));
    return pipeline;
}

static VkPipeline raw_compute_pipeline(struct raw *r, VkPipelineLayout layout, VkShaderModule module)
{
    VkComputePipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = module,
                .pName = "main"},
        .layout = layout,
    };
    VkPipeline pipeline;
    VK(vkCreateComputePipelines(r->vk.device, VK_NULL_HANDLE, 1, &info, NULL, &pipeline));
    return pipeline;
}

/* The layouts, the pipelines and the indirect commands layouts (push-constant token over the two
 * constants at offset 0, then the draw or dispatch token at offset 8). */
static void raw_pipelines(struct raw *r)
{
    static const char *const vs_entry[] = {"vs_main", "main", NULL}, *const ps_entry[] = {"ps_main", "main", NULL};
    static const char *const mdi_macros[] = {"GRID_SIZE", GRID_TEXT "u", NULL};
    char stride_text[16];
    snprintf(stride_text, sizeof(stride_text), "%uu", DISPATCH_STRIDE);
    const char *const indexed_macros[] = {"INDEXED", "1", "STRIDE", stride_text, NULL};
    static const char *const vs_bases_entry[] = {"vs_main", "main", "SUBTRACT_BASES", "1", NULL};
    VkShaderModule vs = raw_module(r, draw_hlsl, false, shaderc_vertex_shader, getenv("D3D12XS_BENCH_RAW_BASES") ? vs_bases_entry : vs_entry);
    VkShaderModule ps = raw_module(r, draw_hlsl, false, shaderc_fragment_shader, ps_entry);
    VkShaderModule mdi_vs = raw_module(r, draw_mdi_glsl, true, shaderc_vertex_shader, mdi_macros);
    VkShaderModule kernel = raw_module(r, dispatch_hlsl, false, shaderc_compute_shader, NULL);
    VkShaderModule indexed_kernel = raw_module(r, dispatch_hlsl, false, shaderc_compute_shader, indexed_macros);

    raw_layout(r, KIND_DRAW, FORM_DGC, VK_SHADER_STAGE_VERTEX_BIT, 0, 8);
    raw_layout(r, KIND_DRAW, FORM_PLAIN, VK_SHADER_STAGE_VERTEX_BIT, 1, 0);
    raw_layout(r, KIND_DISPATCH, FORM_DGC, VK_SHADER_STAGE_COMPUTE_BIT, 1, 8);
    raw_layout(r, KIND_DISPATCH, FORM_PLAIN, VK_SHADER_STAGE_COMPUTE_BIT, 2, 4);
    r->pipelines[KIND_DRAW][FORM_DGC] = raw_graphics_pipeline(r, r->layouts[KIND_DRAW][FORM_DGC], vs, ps);
    r->pipelines[KIND_DRAW][FORM_PLAIN] = raw_graphics_pipeline(r, r->layouts[KIND_DRAW][FORM_PLAIN], mdi_vs, ps);
    r->pipelines[KIND_DISPATCH][FORM_DGC] = raw_compute_pipeline(r, r->layouts[KIND_DISPATCH][FORM_DGC], kernel);
    r->pipelines[KIND_DISPATCH][FORM_PLAIN] = raw_compute_pipeline(r, r->layouts[KIND_DISPATCH][FORM_PLAIN], indexed_kernel);
    vkDestroyShaderModule(r->vk.device, vs, NULL);
    vkDestroyShaderModule(r->vk.device, ps, NULL);
    vkDestroyShaderModule(r->vk.device, mdi_vs, NULL);
    vkDestroyShaderModule(r->vk.device, kernel, NULL);
    vkDestroyShaderModule(r->vk.device, indexed_kernel, NULL);

    r->dgc_stages[KIND_DRAW] = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
    r->dgc_stages[KIND_DISPATCH] = VK_SHADER_STAGE_COMPUTE_BIT;
    for (unsigned k = 0; k < KIND_COUNT; k++) {
        VkIndirectCommandsPushConstantTokenEXT push = {{k == KIND_DRAW ? VK_SHADER_STAGE_VERTEX_BIT : VK_SHADER_STAGE_COMPUTE_BIT, 0, 8}};
        VkIndirectCommandsLayoutTokenEXT tokens[2] = {
            {.sType = VK_STRUCTURE_TYPE_INDIRECT_COMMANDS_LAYOUT_TOKEN_EXT, .type = VK_INDIRECT_COMMANDS_TOKEN_TYPE_PUSH_CONSTANT_EXT,
                    .data.pPushConstant = &push, .offset = 0},
            {.sType = VK_STRUCTURE_TYPE_INDIRECT_COMMANDS_LAYOUT_TOKEN_EXT,
                    .type = k == KIND_DRAW ? VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_EXT : VK_INDIRECT_COMMANDS_TOKEN_TYPE_DISPATCH_EXT, .offset = 8},
        };
        VkIndirectCommandsLayoutCreateInfoEXT info = {
            .sType = VK_STRUCTURE_TYPE_INDIRECT_COMMANDS_LAYOUT_CREATE_INFO_EXT,
            .shaderStages = r->dgc_stages[k],
            .indirectStride = k == KIND_DRAW ? DRAW_STRIDE : DISPATCH_STRIDE,
            .pipelineLayout = r->layouts[k][FORM_DGC],
            .tokenCount = 2,
            .pTokens = tokens,
        };
        VK(r->vkCreateIndirectCommandsLayoutEXT(r->vk.device, &info, NULL, &r->commands_layouts[k]));
    }
}

/* A buffer of device memory with `usage` (and a device address), filled through a staging buffer
 * when data is given, and made visible to every later command. */
static struct bench_vk_buffer raw_buffer(struct raw *r, const void *data, VkDeviceSize size, VkBufferUsageFlags usage)
{
    struct bench_vk_buffer buffer = bench_vk_buffer_with_flags(&r->vk, size,
            usage | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT, 0,
            VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT);
    struct bench_vk_buffer staging = {VK_NULL_HANDLE, VK_NULL_HANDLE};
    VkCommandBuffer cmd = bench_vk_begin(&r->vk, &r->q);
    void *mapped;

    if (data) {
        staging = bench_vk_buffer(&r->vk, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 0);
        VK(vkMapMemory(r->vk.device, staging.memory, 0, VK_WHOLE_SIZE, 0, &mapped));
        memcpy(mapped, data, size);
        vkCmdCopyBuffer(cmd, staging.buffer, buffer.buffer, 1, &(VkBufferCopy){0, 0, size});
    } else {
        vkCmdFillBuffer(cmd, buffer.buffer, 0, VK_WHOLE_SIZE, 0);
    }
    bench_vk_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
            VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
    VK(vkEndCommandBuffer(cmd));
    bench_vk_submit_and_wait(&r->vk, &r->q, cmd);
    vkFreeCommandBuffers(r->vk.device, r->q.pool, 1, &cmd);
    if (data)
        bench_vk_free_buffer(&r->vk, &staging);
    return buffer;
}

static VkDeviceAddress raw_address(struct raw *r, VkBuffer buffer)
{
    VkBufferDeviceAddressInfo info = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, .buffer = buffer};
    return vkGetBufferDeviceAddress(r->vk.device, &info);
}

/* A cleared R32_UINT target in GENERAL (d3d12xs's one layout for render targets). */
static struct raw_target raw_target(struct raw *r)
{
    static const VkClearColorValue zero = {.uint32 = {0, 0, 0, 0}};
    VkImageSubresourceRange range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageCreateInfo info = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, .imageType = VK_IMAGE_TYPE_2D, .format = VK_FORMAT_R32_UINT,
            .extent = {GRID, GRID, 1}, .mipLevels = 1, .arrayLayers = 1, .samples = VK_SAMPLE_COUNT_1_BIT, .tiling = VK_IMAGE_TILING_OPTIMAL,
            .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
            .sharingMode = VK_SHARING_MODE_EXCLUSIVE, .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED};
    struct raw_target t;
    VkMemoryRequirements requirements;
    VkCommandBuffer cmd;

    VK(vkCreateImage(r->vk.device, &info, NULL, &t.image));
    vkGetImageMemoryRequirements(r->vk.device, t.image, &requirements);
    VkMemoryAllocateInfo allocate = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = requirements.size,
            .memoryTypeIndex = bench_vk_memory_type(&r->vk, requirements.memoryTypeBits, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)};
    VK(vkAllocateMemory(r->vk.device, &allocate, NULL, &t.memory));
    VK(vkBindImageMemory(r->vk.device, t.image, t.memory, 0));
    VkImageViewCreateInfo view_info = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, .image = t.image, .viewType = VK_IMAGE_VIEW_TYPE_2D,
            .format = VK_FORMAT_R32_UINT, .subresourceRange = range};
    VK(vkCreateImageView(r->vk.device, &view_info, NULL, &t.view));

    cmd = bench_vk_begin(&r->vk, &r->q);
    VkImageMemoryBarrier2 to_general = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2, .srcStageMask = VK_PIPELINE_STAGE_2_NONE,
            .dstStageMask = VK_PIPELINE_STAGE_2_CLEAR_BIT, .dstAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
            .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED, .newLayout = VK_IMAGE_LAYOUT_GENERAL, .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
            .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .image = t.image, .subresourceRange = range};
    VkDependencyInfo dependency = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .imageMemoryBarrierCount = 1, .pImageMemoryBarriers = &to_general};
    vkCmdPipelineBarrier2(cmd, &dependency);
    vkCmdClearColorImage(cmd, t.image, VK_IMAGE_LAYOUT_GENERAL, &zero, 1, &range);
    bench_vk_barrier(cmd, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
            VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    VK(vkEndCommandBuffer(cmd));
    bench_vk_submit_and_wait(&r->vk, &r->q, cmd);
    vkFreeCommandBuffers(r->vk.device, r->q.pool, 1, &cmd);
    return t;
}

/* The preprocess memory a generated-commands call of `count` sequences of a kind needs. */
static VkMemoryRequirements raw_preprocess_requirements(struct raw *r, enum kind kind, uint32_t count)
{
    VkGeneratedCommandsPipelineInfoEXT pipeline_info = {.sType = VK_STRUCTURE_TYPE_GENERATED_COMMANDS_PIPELINE_INFO_EXT,
            .pipeline = r->pipelines[kind][FORM_DGC]};
    VkGeneratedCommandsMemoryRequirementsInfoEXT info = {.sType = VK_STRUCTURE_TYPE_GENERATED_COMMANDS_MEMORY_REQUIREMENTS_INFO_EXT,
            .pNext = &pipeline_info, .indirectCommandsLayout = r->commands_layouts[kind], .maxSequenceCount = count};
    VkMemoryRequirements2 requirements = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
    r->vkGetGeneratedCommandsMemoryRequirementsEXT(r->vk.device, &info, &requirements);
    return requirements.memoryRequirements;
}

/* One buffer of preprocess memory: the timed runs' (draws at 0, dispatches after them), and slices
 * for the CPU figures' calls, each call its own as far as `budget` bytes go, then round again
 * (those recordings never run). The buffer has VK_BUFFER_USAGE_2_PREPROCESS_BUFFER_BIT_EXT
 * (VK_KHR_maintenance5's usage flags), as d3d12xs's transient memory does (docs/indirect.md). */
static void raw_preprocess_memory(struct raw *r, VkDeviceSize budget)
{
    VkDeviceSize size, alignment = 256;
    uint32_t type_bits = ~0u;

    for (unsigned k = 0; k < KIND_COUNT; k++)
        for (unsigned c = 0; c < CPU_COUNTS; c++) {
            VkMemoryRequirements req = raw_preprocess_requirements(r, (enum kind)k, cpu_counts[c]);
            alignment = req.alignment > alignment ? req.alignment : alignment;
            if (req.size)
                type_bits &= req.memoryTypeBits;
            r->preprocess_slices[k][c] = req.size;
        }
    for (unsigned k = 0; k < KIND_COUNT; k++)
        for (unsigned c = 0; c < CPU_COUNTS; c++)
            r->preprocess_slices[k][c] = (r->preprocess_slices[k][c] + alignment - 1) / alignment * alignment;
    size = r->preprocess_slices[KIND_DRAW][CPU_COUNTS - 1] + r->preprocess_slices[KIND_DISPATCH][CPU_COUNTS - 1];
    size = size > budget ? size : budget;
    r->preprocess_size = size;
    if (!size)
        return;
    VkMemoryAllocateFlagsInfo flags = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO, .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT};
    VkBufferUsageFlags2CreateInfoKHR usage2 = {.sType = VK_STRUCTURE_TYPE_BUFFER_USAGE_FLAGS_2_CREATE_INFO_KHR,
            .usage = VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT
                    | D3D12XS_BUFFER_USAGE_2_PREPROCESS_BUFFER_BIT_EXT};
    VkBufferCreateInfo info = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .pNext = &usage2, .size = size,
            .usage = VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
            .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
    VkMemoryRequirements requirements;
    VK(vkCreateBuffer(r->vk.device, &info, NULL, &r->preprocess));
    vkGetBufferMemoryRequirements(r->vk.device, r->preprocess, &requirements);
    VkMemoryAllocateInfo allocate = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .pNext = &flags, .allocationSize = requirements.size,
            .memoryTypeIndex = bench_vk_memory_type(&r->vk, requirements.memoryTypeBits & type_bits, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)};
    VK(vkAllocateMemory(r->vk.device, &allocate, NULL, &r->preprocess_memory));
    VK(vkBindBufferMemory(r->vk.device, r->preprocess, r->preprocess_memory, 0));
    r->preprocess_address = raw_address(r, r->preprocess);
}

static void raw_init(struct raw *r, bool *has_generated_commands)
{
    VkQueryPoolCreateInfo query_info = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, .queryType = VK_QUERY_TYPE_TIMESTAMP,
            .queryCount = 2 * TIMED_CMDS};
    struct draw_command *draws;
    struct dispatch_command *dispatches;

    memset(r, 0, sizeof(*r));
    bench_vk_open(&r->vk, "bench_indirect (raw Vulkan)");
    if (!(*has_generated_commands = raw_create_device(r)))
        return;
    VK(vkCreateQueryPool(r->vk.device, &query_info, NULL, &r->queries));
    raw_pipelines(r);
    draws = draw_commands();
    dispatches = dispatch_commands();
    r->arguments[KIND_DRAW] = raw_buffer(r, draws, COMMANDS * DRAW_STRIDE, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    r->arguments[KIND_DISPATCH] = raw_buffer(r, dispatches, COMMANDS * DISPATCH_STRIDE,
            VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    free(draws);
    free(dispatches);
    for (unsigned k = 0; k < KIND_COUNT; k++)
        r->argument_addresses[k] = raw_address(r, r->arguments[k].buffer);
    for (unsigned f = 0; f < FORM_COUNT; f++) {
        r->targets[f] = raw_target(r);
        r->outputs[f] = raw_buffer(r, NULL, (VkDeviceSize)COMMANDS * THREADS * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    }
}

/* vkCmdExecuteGeneratedCommandsEXT of cpu_counts[count_index] sequences of a kind from the
 * argument buffer, its preprocess memory at `preprocess_offset`. */
static void raw_execute_generated(struct raw *r, VkCommandBuffer cmd, enum kind kind, unsigned count_index, VkDeviceSize preprocess_offset)
{
    VkDeviceSize preprocess_size = r->preprocess_slices[kind][count_index];
    VkGeneratedCommandsPipelineInfoEXT pipeline_info = {.sType = VK_STRUCTURE_TYPE_GENERATED_COMMANDS_PIPELINE_INFO_EXT,
            .pipeline = r->pipelines[kind][FORM_DGC]};
    VkGeneratedCommandsInfoEXT info = {
        .sType = VK_STRUCTURE_TYPE_GENERATED_COMMANDS_INFO_EXT,
        .pNext = &pipeline_info,
        .shaderStages = r->dgc_stages[kind],
        .indirectCommandsLayout = r->commands_layouts[kind],
        .indirectAddress = r->argument_addresses[kind],
        .indirectAddressSize = (VkDeviceSize)COMMANDS * (kind == KIND_DRAW ? DRAW_STRIDE : DISPATCH_STRIDE),
        .preprocessAddress = preprocess_size ? r->preprocess_address + preprocess_offset : 0,
        .preprocessSize = preprocess_size,
        .maxSequenceCount = cpu_counts[count_index],
    };
    r->vkCmdExecuteGeneratedCommandsEXT(cmd, VK_FALSE, &info);
}

/* The rendering pass over a form's target (loaded and stored, as d3d12xs's passes), the
 * pipeline, D3D12's viewport (y flipped) and the scissor. */
static void raw_begin_draws(struct raw *r, VkCommandBuffer cmd, enum form form)
{
    VkRenderingAttachmentInfo color = {.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO, .imageView = r->targets[form].view,
            .imageLayout = VK_IMAGE_LAYOUT_GENERAL, .loadOp = VK_ATTACHMENT_LOAD_OP_LOAD, .storeOp = VK_ATTACHMENT_STORE_OP_STORE};
    VkRenderingInfo info = {.sType = VK_STRUCTURE_TYPE_RENDERING_INFO, .renderArea = {{0, 0}, {GRID, GRID}}, .layerCount = 1,
            .colorAttachmentCount = 1, .pColorAttachments = &color};
    VkViewport viewport = {0.0f, (float)GRID, (float)GRID, -(float)GRID, 0.0f, 1.0f};
    VkRect2D scissor = {{0, 0}, {GRID, GRID}};

    vkCmdBeginRendering(cmd, &info);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, r->pipelines[KIND_DRAW][form]);
    if (r->dynamic & RAW_DYNAMIC_VIEWPORT_WITH_COUNT) {
        vkCmdSetViewportWithCount(cmd, 1, &viewport);
        vkCmdSetScissorWithCount(cmd, 1, &scissor);
    } else {
        vkCmdSetViewport(cmd, 0, 1, &viewport);
        vkCmdSetScissor(cmd, 0, 1, &scissor);
    }
    if (r->dynamic & RAW_DYNAMIC_BLEND_STENCIL) {
        static const float blend[4] = {1.0f, 1.0f, 1.0f, 1.0f};
        vkCmdSetBlendConstants(cmd, blend);
        vkCmdSetStencilReference(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, 0);
    }
    if (r->dynamic & RAW_DYNAMIC_TOPOLOGY) {
        vkCmdSetPrimitiveTopology(cmd, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
        vkCmdSetPrimitiveRestartEnable(cmd, VK_FALSE);
    }
    if (r->sample_locations) {
        static const VkSampleLocationEXT centre = {0.5f, 0.5f};
        const VkSampleLocationsInfoEXT locations = {.sType = VK_STRUCTURE_TYPE_SAMPLE_LOCATIONS_INFO_EXT,
                .sampleLocationsPerPixel = VK_SAMPLE_COUNT_1_BIT, .sampleLocationGridSize = {1, 1}, .sampleLocationsCount = 1,
                .pSampleLocations = &centre};
        r->vkCmdSetSampleLocationsEXT(cmd, &locations);
    }
}

static void raw_push_buffers(struct raw *r, VkCommandBuffer cmd, VkPipelineBindPoint bind_point, VkPipelineLayout layout,
        const VkBuffer *buffers, uint32_t count)
{
    VkDescriptorBufferInfo infos[2];
    VkWriteDescriptorSet writes[2];
    for (uint32_t i = 0; i < count; i++) {
        infos[i] = (VkDescriptorBufferInfo){buffers[i], 0, VK_WHOLE_SIZE};
        writes[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = i, .descriptorCount = 1,
                .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &infos[i]};
    }
    r->vk.vkCmdPushDescriptorSetKHR(cmd, bind_point, layout, 0, count, writes);
}

/* The dispatches' pipeline and buffers of a form. */
static void raw_begin_dispatches(struct raw *r, VkCommandBuffer cmd, enum form form)
{
    VkBuffer buffers[2] = {r->outputs[form].buffer, r->arguments[KIND_DISPATCH].buffer};
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->pipelines[KIND_DISPATCH][form]);
    raw_push_buffers(r, cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->layouts[KIND_DISPATCH][form], buffers, form == FORM_DGC ? 1 : 2);
}

/* The timed command buffers: a barrier from the previous run (d3d12xs starts each list with one,
 * outside its window too), the queries' reset, timestamp, the state (after the timestamp, where
 * d3d12xs binds), the COMMANDS commands in the form's way, timestamp. */
static void raw_build_timed(struct raw *r)
{
    for (unsigned k = 0; k < KIND_COUNT; k++)
        for (unsigned f = 0; f < FORM_COUNT; f++) {
            VkCommandBuffer cmd = r->timed[k][f] = bench_vk_begin(&r->vk, &r->q);
            uint32_t query = 2 * (k * FORM_COUNT + f);

            bench_vk_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                    VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
            vkCmdResetQueryPool(cmd, r->queries, query, 2);
            vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, r->queries, query);
            if (k == KIND_DRAW) {
                raw_begin_draws(r, cmd, (enum form)f);
                if (f == FORM_DGC) {
                    raw_execute_generated(r, cmd, KIND_DRAW, CPU_COUNTS - 1, 0);
                } else {
                    raw_push_buffers(r, cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, r->layouts[KIND_DRAW][FORM_PLAIN], &r->arguments[KIND_DRAW].buffer, 1);
                    vkCmdDrawIndirect(cmd, r->arguments[KIND_DRAW].buffer, offsetof(struct draw_command, draw), COMMANDS, DRAW_STRIDE);
                }
                vkCmdEndRendering(cmd);
            } else {
                raw_begin_dispatches(r, cmd, (enum form)f);
                if (f == FORM_DGC) {
                    raw_execute_generated(r, cmd, KIND_DISPATCH, CPU_COUNTS - 1, r->preprocess_slices[KIND_DRAW][CPU_COUNTS - 1]);
                } else {
                    for (uint32_t i = 0; i < COMMANDS; i++) {
                        vkCmdPushConstants(cmd, r->layouts[KIND_DISPATCH][FORM_PLAIN], VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &i);
                        vkCmdDispatchIndirect(cmd, r->arguments[KIND_DISPATCH].buffer,
                                (VkDeviceSize)i * DISPATCH_STRIDE + offsetof(struct dispatch_command, dispatch));
                    }
                }
            }
            vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, r->queries, query + 1);
            VK(vkEndCommandBuffer(cmd));
        }
}

/* GPU ns per command of one run of a kind's timed command buffer in a form. */
static double raw_run_timed(struct raw *r, enum kind kind, enum form form)
{
    uint64_t ticks[2];
    bench_vk_submit_and_wait(&r->vk, &r->q, r->timed[kind][form]);
    VK(vkGetQueryPoolResults(r->vk.device, r->queries, 2 * (kind * FORM_COUNT + form), 2, sizeof(ticks), ticks, sizeof(uint64_t),
            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    return (double)(ticks[1] - ticks[0]) * (double)r->vk.properties.limits.timestampPeriod / COMMANDS;
}

#define RAW_CPU_BEGIN_FLAGS VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT /* as d3d12xs begins its command buffers */

/* CPU ns per vkCmdExecuteGeneratedCommandsEXT of cpu_counts[count_index] sequences: the pool's
 * reset, the begin, the state and one call untimed, then `calls` calls (each the next preprocess
 * slice, raw_preprocess_memory), the pass's end and vkEndCommandBuffer untimed. */
static double raw_cpu_sample(struct raw *r, enum kind kind, unsigned count_index, unsigned calls)
{
    VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, .flags = RAW_CPU_BEGIN_FLAGS};
    VkDeviceSize slice = r->preprocess_slices[kind][count_index], slices = slice ? r->preprocess_size / slice : 1;
    double start, end;

    VK(vkResetCommandPool(r->vk.device, r->cpu_pool, 0));
    VK(vkBeginCommandBuffer(r->cpu_cmd, &begin));
    if (kind == KIND_DRAW)
        raw_begin_draws(r, r->cpu_cmd, FORM_DGC);
    else
        raw_begin_dispatches(r, r->cpu_cmd, FORM_DGC);
    raw_execute_generated(r, r->cpu_cmd, kind, count_index, 0);
    start = bench_now_ns();
    for (unsigned i = 1; i <= calls; i++)
        raw_execute_generated(r, r->cpu_cmd, kind, count_index, i % slices * slice);
    end = bench_now_ns();
    if (kind == KIND_DRAW)
        vkCmdEndRendering(r->cpu_cmd);
    VK(vkEndCommandBuffer(r->cpu_cmd));
    return (end - start) / calls;
}

/* Each form's target and buffer, read back and checked. */
static void raw_check(struct raw *r)
{
    static const char *const draw_sides[FORM_COUNT] = {"raw DGC draws", "raw multi-draw"};
    static const char *const dispatch_sides[FORM_COUNT] = {"raw DGC dispatches", "raw indirect dispatches"};
    for (unsigned f = 0; f < FORM_COUNT; f++) {
        VkDeviceSize pixel_bytes = GRID * GRID * 4, word_bytes = (VkDeviceSize)COMMANDS * THREADS * 4;
        struct bench_vk_buffer staging = bench_vk_buffer(&r->vk, pixel_bytes + word_bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
        VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, .imageExtent = {GRID, GRID, 1}};
        VkCommandBuffer cmd = bench_vk_begin(&r->vk, &r->q);
        uint8_t *mapped;

        bench_vk_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                VK_ACCESS_2_TRANSFER_READ_BIT);
        vkCmdCopyImageToBuffer(cmd, r->targets[f].image, VK_IMAGE_LAYOUT_GENERAL, staging.buffer, 1, &region);
        vkCmdCopyBuffer(cmd, r->outputs[f].buffer, staging.buffer, 1, &(VkBufferCopy){0, pixel_bytes, word_bytes});
        bench_vk_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                VK_ACCESS_2_HOST_READ_BIT);
        VK(vkEndCommandBuffer(cmd));
        bench_vk_submit_and_wait(&r->vk, &r->q, cmd);
        vkFreeCommandBuffers(r->vk.device, r->q.pool, 1, &cmd);
        VK(vkMapMemory(r->vk.device, staging.memory, 0, VK_WHOLE_SIZE, 0, (void **)&mapped));
        check_target(mapped, GRID * 4, draw_sides[f]);
        check_output((const uint32_t *)(mapped + pixel_bytes), dispatch_sides[f]);
        bench_vk_free_buffer(&r->vk, &staging);
    }
}

static void raw_destroy(struct raw *r)
{
    if (!r->vk.device) {
        vkDestroyInstance(r->vk.instance, NULL);
        return;
    }
    VK(vkDeviceWaitIdle(r->vk.device));
    for (unsigned f = 0; f < FORM_COUNT; f++) {
        vkDestroyImageView(r->vk.device, r->targets[f].view, NULL);
        vkDestroyImage(r->vk.device, r->targets[f].image, NULL);
        vkFreeMemory(r->vk.device, r->targets[f].memory, NULL);
        bench_vk_free_buffer(&r->vk, &r->outputs[f]);
    }
    for (unsigned k = 0; k < KIND_COUNT; k++) {
        bench_vk_free_buffer(&r->vk, &r->arguments[k]);
        r->vkDestroyIndirectCommandsLayoutEXT(r->vk.device, r->commands_layouts[k], NULL);
        for (unsigned f = 0; f < FORM_COUNT; f++) {
            vkDestroyPipeline(r->vk.device, r->pipelines[k][f], NULL);
            vkDestroyPipelineLayout(r->vk.device, r->layouts[k][f], NULL);
            vkDestroyDescriptorSetLayout(r->vk.device, r->set_layouts[k][f], NULL);
        }
    }
    vkDestroyBuffer(r->vk.device, r->preprocess, NULL);
    vkFreeMemory(r->vk.device, r->preprocess_memory, NULL);
    vkDestroyQueryPool(r->vk.device, r->queries, NULL);
    vkDestroyCommandPool(r->vk.device, r->cpu_pool, NULL);
    bench_vk_queue_destroy(&r->vk, &r->q);
    bench_vk_destroy(&r->vk);
}

/* ======================================================================================= */
/* the table                                                                               */
/* ======================================================================================= */

enum {
    FIGURE_GPU_DRAW_DGC, FIGURE_GPU_DRAW_MDI, FIGURE_GPU_DRAW_BEST,
    FIGURE_GPU_DISPATCH_DGC, FIGURE_GPU_DISPATCH_INDIRECT, FIGURE_GPU_DISPATCH_BEST,
    FIGURE_CPU_FIRST, /* KIND_COUNT x CPU_COUNTS rows, in cpu_row_kinds' order */
    FIGURE_COUNT = FIGURE_CPU_FIRST + KIND_COUNT * CPU_COUNTS
};
static const enum kind cpu_row_kinds[KIND_COUNT] = {KIND_DISPATCH, KIND_DRAW};

static void write_tsv(const char *path, const struct bench_row *figures, const struct d3d *d, const struct raw *r, const struct params *p,
        bool validating)
{
    FILE *f = fopen(path, "w");
    REQUIRE(f, "cannot write D3D12XS_BENCH_OUT=%s", path);
    fprintf(f, "# bench_indirect\tdevice=%s\tdriver=%s %s\traw_device=%s\tcommands=%u\tgpu_reps=%u\tcpu_samples=%u\tcpu_calls=%u,%u,%u,%u,%u,%u%s\n",
            d->info.DeviceName, d->info.DriverName, d->info.DriverInfo, r->vk.properties.deviceName, COMMANDS, p->gpu_reps, p->cpu_samples,
            p->cpu_calls[KIND_DISPATCH][0], p->cpu_calls[KIND_DISPATCH][1], p->cpu_calls[KIND_DISPATCH][2], p->cpu_calls[KIND_DRAW][0],
            p->cpu_calls[KIND_DRAW][1], p->cpu_calls[KIND_DRAW][2], validating ? "\tvalidation=on" : "");
    bench_rows_tsv(f, figures, FIGURE_COUNT);
    REQUIRE(fclose(f) == 0, "cannot write D3D12XS_BENCH_OUT=%s", path);
}

/* Both sides run their timed work untimed this long first, so the GPU is at its working clock. */
#define GPU_WARM_UP_NS 1e9
#define MAX_CPU_SAMPLES 256
#define CPU_CALLS 100u                  /* ExecuteIndirect calls per recorded list, where the preprocess memory allows */
#define PREPROCESS_BUDGET (256ull << 20) /* the preprocess memory of one recorded list's calls, at most (lavapipe: 150 KB a draw) */

/* The GPU figures: every repetition runs d3d12xs and the two raw forms of each kind, the order
 * rotating; the "better" row pairs d3d12xs with the faster raw form of the same repetition. */
static void measure_gpu(struct d3d *d, struct raw *r, const struct params *p, struct bench_row *figures)
{
    double samples[KIND_COUNT][3][BENCH_MAX_REPS], best[BENCH_MAX_REPS];

    for (unsigned k = 0; k < KIND_COUNT; k++) {
        d3d_run_timed(d, (enum kind)k);
        for (unsigned f = 0; f < FORM_COUNT; f++)
            raw_run_timed(r, (enum kind)k, (enum form)f);
    }
    for (double start = bench_now_ns(); bench_now_ns() - start < GPU_WARM_UP_NS;)
        for (unsigned k = 0; k < KIND_COUNT; k++) {
            d3d_run_timed(d, (enum kind)k);
            for (unsigned f = 0; f < FORM_COUNT; f++)
                raw_run_timed(r, (enum kind)k, (enum form)f);
        }
    for (unsigned i = 0; i < p->gpu_reps; i++)
        for (unsigned k = 0; k < KIND_COUNT; k++)
            for (unsigned s = 0; s < 3; s++) {
                unsigned side = (s + i) % 3; /* 0: d3d12xs, 1 + form: raw */
                samples[k][side][i] = side ? raw_run_timed(r, (enum kind)k, (enum form)(side - 1)) : d3d_run_timed(d, (enum kind)k);
            }
    for (unsigned k = 0; k < KIND_COUNT; k++) {
        unsigned row = k == KIND_DRAW ? FIGURE_GPU_DRAW_DGC : FIGURE_GPU_DISPATCH_DGC;
        for (unsigned i = 0; i < p->gpu_reps; i++)
            best[i] = samples[k][1][i] < samples[k][2][i] ? samples[k][1][i] : samples[k][2][i];
        bench_row_set(&figures[row], samples[k][0], samples[k][1], p->gpu_reps);
        bench_row_set(&figures[row + 1], samples[k][0], samples[k][2], p->gpu_reps);
        bench_row_set(&figures[row + 2], samples[k][0], best, p->gpu_reps);
    }
}

/* The CPU figures: each sample frees both sides' recordings first, the sides alternating which
 * records first (bench_compute: the heap). */
static void measure_cpu(struct d3d *d, struct raw *r, const struct params *p, struct bench_row *figures)
{
    static double d3d_samples[MAX_CPU_SAMPLES], raw_samples[MAX_CPU_SAMPLES];

    for (unsigned block = 0; block < KIND_COUNT; block++)
        for (unsigned c = 0; c < CPU_COUNTS; c++) {
            enum kind k = cpu_row_kinds[block];
            unsigned row = FIGURE_CPU_FIRST + block * CPU_COUNTS + c;
            for (unsigned i = 0; i < p->cpu_warmup + p->cpu_samples; i++) {
                double d3d_ns, raw_ns = 0;
                if (i % 2)
                    raw_ns = raw_cpu_sample(r, k, c, p->cpu_calls[k][c]);
                d3d_ns = d3d_cpu_sample(d, k, cpu_counts[c], p->cpu_calls[k][c]);
                if (!(i % 2))
                    raw_ns = raw_cpu_sample(r, k, c, p->cpu_calls[k][c]);
                if (i >= p->cpu_warmup) {
                    d3d_samples[i - p->cpu_warmup] = d3d_ns;
                    raw_samples[i - p->cpu_warmup] = raw_ns;
                }
            }
            bench_row_set(&figures[row], d3d_samples, raw_samples, p->cpu_samples);
        }
}

int main(int argc, char **argv)
{
    static char labels[KIND_COUNT * CPU_COUNTS][64], keys[KIND_COUNT * CPU_COUNTS][64];
    struct bench_row figures[FIGURE_COUNT] = {
        [FIGURE_GPU_DRAW_DGC] = {.key = "gpu_ns_per_draw_vs_dgc", .label = "GPU ns / draw, raw DGC", .unit = "ns", .target = 1.05},
        [FIGURE_GPU_DRAW_MDI] = {.key = "gpu_ns_per_draw_vs_mdi", .label = "GPU ns / draw, raw multi-draw", .unit = "ns", .target = 1.05},
        [FIGURE_GPU_DRAW_BEST] = {.key = "gpu_ns_per_draw_vs_better", .label = "GPU ns / draw, better raw", .unit = "ns", .target = 1.05},
        [FIGURE_GPU_DISPATCH_DGC] = {.key = "gpu_ns_per_dispatch_vs_dgc", .label = "GPU ns / dispatch, raw DGC", .unit = "ns",
                .target = 1.05},
        [FIGURE_GPU_DISPATCH_INDIRECT] = {.key = "gpu_ns_per_dispatch_vs_indirect", .label = "GPU ns / dispatch, raw indirect", .unit = "ns",
                .target = 1.05},
        [FIGURE_GPU_DISPATCH_BEST] = {.key = "gpu_ns_per_dispatch_vs_better", .label = "GPU ns / dispatch, better raw", .unit = "ns",
                .target = 1.05},
    };
    const char *out = getenv("D3D12XS_BENCH_OUT"), *debug = getenv("D3D12XS_DEBUG");
    /* D3D12XS_DEBUG set to anything but 0: a validation run, the layer kept on. */
    bool validating = debug && *debug && strcmp(debug, "0"), want_gpu = argc < 2, want_cpu = argc < 2, has_generated_commands;
    struct params p;
    struct d3d d;
    struct raw r;

    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "gpu"))
            want_gpu = true;
        else if (!strcmp(argv[a], "cpu"))
            want_cpu = true;
        else {
            fprintf(stderr, "usage: %s [gpu] [cpu]\n", argv[0]);
            return 2;
        }
    }
    for (unsigned block = 0; block < KIND_COUNT; block++)
        for (unsigned c = 0; c < CPU_COUNTS; c++) {
            enum kind k = cpu_row_kinds[block];
            unsigned i = block * CPU_COUNTS + c;
            snprintf(labels[i], sizeof(labels[i]), "CPU ns / ExecuteIndirect of %u %s", cpu_counts[c],
                    cpu_counts[c] > 1 ? kind_plurals[k] : kind_names[k]);
            snprintf(keys[i], sizeof(keys[i]), "cpu_ns_per_execute_indirect_%s_%u", kind_names[k], cpu_counts[c]);
            figures[FIGURE_CPU_FIRST + i] = (struct bench_row){.key = keys[i], .label = labels[i], .unit = "ns", .target = 1.5};
        }

    /* No validation layer unless asked for: it would measure itself. */
    if (!validating)
        setenv("D3D12XS_DEBUG", "0", 1);
    /* lavapipe mallocs every recorded command and frees it on reset: keep glibc from handing the
     * freed heap back to the kernel, or the recording figures measure page faults (bench_compute). */
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    setvbuf(stdout, NULL, _IOLBF, 0);

    raw_init(&r, &has_generated_commands);
    if (!has_generated_commands) {
        printf("%s has no VK_EXT_device_generated_commands (with bufferDeviceAddress, multiDrawIndirect and shaderDrawParameters):\n"
               "d3d12xs refuses these signatures there (docs/indirect.md); nothing to measure\n", r.vk.properties.deviceName);
        raw_destroy(&r);
        return 0;
    }
    d3d_init(&d, validating);
    memset(&p, 0, sizeof(p));
    p.gpu_reps = d.info.IsSoftwareRasterizer ? 21 : 15;
    p.cpu_samples = d.info.IsSoftwareRasterizer ? 31 : 101;
    p.cpu_warmup = d.info.IsSoftwareRasterizer ? 3 : 10;
    /* d3d12xs gives each call preprocess memory of its own (which its allocator keeps until it
     * goes): a list's calls stay within the budget, one call at least. */
    raw_preprocess_memory(&r, PREPROCESS_BUDGET);
    for (unsigned k = 0; k < KIND_COUNT; k++)
        for (unsigned c = 0; c < CPU_COUNTS; c++) {
            VkDeviceSize slice = r.preprocess_slices[k][c], fit = slice ? PREPROCESS_BUDGET / slice : CPU_CALLS;
            p.cpu_calls[k][c] = fit > CPU_CALLS ? CPU_CALLS : fit ? (unsigned)fit : 1;
        }

    printf("d3d12xs device : %s (%s, %s), DIRECT queue family %u\n", d.info.DeviceName, d.info.DriverName, d.info.DriverInfo,
            d.info.Queues[D3D12_COMMAND_LIST_TYPE_DIRECT].VulkanQueueFamily);
    printf("raw Vulkan     : %s (%s, %s), queue family %u\n", r.vk.properties.deviceName, r.vk.driver.driverName, r.vk.driver.driverInfo,
            r.q.family);
    if (strcmp(d.info.DeviceName, r.vk.properties.deviceName) || d.info.Queues[D3D12_COMMAND_LIST_TYPE_DIRECT].VulkanQueueFamily != r.q.family)
        printf("WARNING: the two sides do not run on the same device and queue family\n");
    printf("%u commands per ExecuteIndirect: draws (2 root constants + DRAW, stride %u: one pixel each of a %u x %u R32_UINT target)\n"
           "and dispatches (2 root constants + DISPATCH, stride %u: one group of %u threads each); preprocess memory for %u sequences:\n"
           "%llu bytes (draws), %llu (dispatches); CPU: %u samples of %u, %u, %u (dispatches) and %u, %u, %u (draws) calls per list;\n"
           "GPU: %u reps; medians, sides alternating\n",
            COMMANDS, DRAW_STRIDE, GRID, GRID, DISPATCH_STRIDE, THREADS, COMMANDS,
            (unsigned long long)raw_preprocess_requirements(&r, KIND_DRAW, COMMANDS).size,
            (unsigned long long)raw_preprocess_requirements(&r, KIND_DISPATCH, COMMANDS).size, p.cpu_samples, p.cpu_calls[KIND_DISPATCH][0],
            p.cpu_calls[KIND_DISPATCH][1], p.cpu_calls[KIND_DISPATCH][2], p.cpu_calls[KIND_DRAW][0], p.cpu_calls[KIND_DRAW][1],
            p.cpu_calls[KIND_DRAW][2], p.gpu_reps);
    if (validating)
        printf("VALIDATION RUN (D3D12XS_DEBUG=%s): the layer is on, so the figures measure it too; only the checks count\n", debug);

    if (want_gpu) {
        d3d_build_timed(&d);
        raw_build_timed(&r);
        measure_gpu(&d, &r, &p, figures);
        /* The timed runs' results, each side's own, read back and checked. */
        d3d_check(&d);
        raw_check(&r);
        printf("check          : every pixel and word the %u draws and %u dispatches wrote is right on d3d12xs and both raw forms\n",
                COMMANDS, COMMANDS);
    }
    if (want_cpu)
        measure_cpu(&d, &r, &p, figures);

    bench_rows_print(figures, FIGURE_COUNT, 45);
    printf("GPU ns: the time between the timestamps around the %u commands / %u. raw DGC: a push-constant token + a draw or\n"
           "dispatch token over the same buffer; raw multi-draw: one vkCmdDrawIndirect of %u draws, the constants read at gl_DrawID;\n"
           "raw indirect: per command vkCmdPushConstants (its index) + vkCmdDispatchIndirect, the constants read at that index;\n"
           "better raw: the faster raw form of each repetition. CPU ns: time of a list's ExecuteIndirect calls (raw: as many\n"
           "vkCmdExecuteGeneratedCommandsEXT) into one open list / their number. ratio: d3d12xs / raw per repetition, median;\n"
           "above 1 means d3d12xs is slower. med/med: the ratio of the medians.\n",
            COMMANDS, COMMANDS, COMMANDS);
    if (out && *out)
        write_tsv(out, figures, &d, &r, &p, validating);
    if (validating) {
        UINT64 messages = D3D12XSGetValidationMessageCount(d.device);
        REQUIRE(!messages, "the validation layer reported %llu messages on d3d12xs's device (in the log above)", (unsigned long long)messages);
        printf("validation: no messages on d3d12xs's device\n");
    }

    raw_destroy(&r);
    d3d_destroy(&d);
    return 0;
}
