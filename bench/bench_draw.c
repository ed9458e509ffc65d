/* bench_draw: what drawing costs through d3d12xs, next to raw Vulkan doing the same work in the
 * same run and to Wine's vkd3d 1.2 running the same D3D12 program (bench_draw_vkd3d).
 *
 *   CPU ns per call pair, recorded into an open rendering pass, 1,000 pairs per list:
 *     draw                 DrawInstanced(3, 1)                                   raw: vkCmdDraw
 *     root_constant_draw   SetGraphicsRoot32BitConstant + DrawInstanced          raw: vkCmdPushConstants (4 bytes) + vkCmdDraw
 *     vertex_buffers_draw  IASetVertexBuffers (two views in turn) + DrawInstanced raw: vkCmdBindVertexBuffers2 + vkCmdDraw
 *     pipeline_draw        SetPipelineState (two in turn) + DrawInstanced         raw: vkCmdBindPipeline + vkCmdDraw
 *     table_draw           SetGraphicsRootDescriptorTable (two in turn) + Draw    raw: vkCmdPushConstants of the table's start
 *                                                                                + vkCmdDraw (what d3d12xs records per table)
 *   GPU us per draw (timestamps around it; bench_draw_gpu.h), d3d12xs against raw Vulkan rendering
 *   into an image in GENERAL (d3d12xs's one layout) and into one in COLOR_ATTACHMENT_OPTIMAL:
 *     fill_*               a full-screen triangle, many instances deep, into RGBA8_UNORM or RGBA16_FLOAT,
 *                          blending off or on
 *     vertices             many small triangles from a vertex buffer through an input layout
 *   Graphics pipeline creation (VS + PS) in us (bench_draw_create.h): new shader bytes at every
 *   creation from HLSL and from DXBC, a creation that finds a live pipeline of the same
 *   description, and the first pipeline of a process.
 *
 * Before timing, each side runs its draws once and the images are read back and compared (the CPU
 * figures' target on the D3D12 sides; every GPU figure's target on d3d12xs and both raw images).
 * vkd3d 1.2 takes only DXBC: its shaders come from tests/dxbc_writer.c. See docs/benchmarks.md.
 *
 *   bench_draw [cpu] [gpu] [create]   the figures named (all by default)
 *   bench_draw_vkd3d peer             vkd3d's CPU and creation figures as one line, for bench_draw
 * D3D12XS_BENCH_OUT=<path> also writes the figures as TSV. */
#include <malloc.h>

#ifdef BENCH_VKD3D
#define INITGUID /* vkd3d's headers define the IIDs in the one file that asks */
#endif
#include "bench_util.h"
#include "dxbc_writer.h"
#ifdef BENCH_VKD3D
#define SIDE "vkd3d"
#else
#define SIDE "d3d12xs"
#define PEER_PROGRAM "bench_draw_vkd3d"
#endif

const char *bench_name = "bench_draw";

#define PAIRS 1000              /* call + draw pairs per recorded list */
#define CPU_TARGET_SIZE 64      /* the CPU figures' render target, RGBA8 */
#define TABLE_STRIDE_WORDS 64   /* the two tables' views, 256 bytes apart (any device's alignment) */
#define MAX_SAMPLES 1024
#define MAX_CHILDREN 31

struct sizes {
    unsigned cpu_samples, cpu_warmup;
    unsigned target_size, fill_layers, triangles, gpu_reps;
    unsigned create_samples, create_warmup, children;
};

static struct sizes sizes_for(bool cpu_device)
{
    /* lavapipe records, rasterizes and compiles on this machine's CPU: smaller targets and fewer
     * samples keep the whole run under a minute there. */
    if (cpu_device)
        return (struct sizes){101, 5, 512, 32, 100000, 11, 41, 4, 5};
    return (struct sizes){201, 20, 2048, 64, 1000000, 31, 401, 40, 15};
}

/* ---- the CPU figures' shaders ------------------------------------------------------------- */

enum cpu_figure { CPU_DRAW, CPU_ROOT_CONSTANT, CPU_VERTEX_BUFFERS, CPU_PIPELINE, CPU_TABLE, CPU_COUNT };
static const char *const cpu_names[CPU_COUNT] = {"draw", "root_constant_draw", "vertex_buffers_draw", "pipeline_draw", "table_draw"};

#ifndef BENCH_VKD3D
/* b0's value sets the depth, t0's first word the red channel; GREEN tells the two pipelines
 * apart. VS_MASK and GREEN make new shader bytes for the creation figures. */
static const char cpu_hlsl[] =
    "cbuffer Constants : register(b0) { uint value; };\n"
    "ByteAddressBuffer table : register(t0);\n"
    "float4 vs_main(float2 pos : POSITION) : SV_Position { return float4(pos, float(value & VS_MASK) * 0.5, 1.0); }\n"
    "float4 ps_main() : SV_Target { return float4(asfloat(table.Load(0)), GREEN, 0.0, 1.0); }\n";

/* The raw twin: the root constant and the table's start are push constants, the tables an array
 * of storage buffers indexed by the start (d3d12xs's heap is one array). */
static const char cpu_vs_glsl[] =
    "#version 450\n"
    "layout(push_constant) uniform Root { uint value; uint table_start; };\n"
    "layout(location = 0) in vec2 pos;\n"
    "void main() { gl_Position = vec4(pos, float(value & uint(VS_MASK)) * 0.5, 1.0); }\n";
static const char cpu_ps_glsl[] =
    "#version 450\n"
    "layout(push_constant) uniform Root { uint value; uint table_start; };\n"
    "layout(set = 0, binding = 0) readonly buffer Table { float word; } tables[2];\n"
    "layout(location = 0) out vec4 color;\n"
    "void main() { color = vec4(tables[table_start].word, GREEN, 0.0, 1.0); }\n";
#endif

static const float table_words[2] = {0.25f, 0.75f};

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* The CPU figures' shaders in shader model 5.0, as FXC would compile them:
 *   vs: dcl_constantbuffer cb0[1]; dcl_input v0.xy; dcl_output_siv o0, position; dcl_temps 1
 *       mov o0.xy, v0; and r0.x, cb0[0].x, l(mask); utof r0.x, r0.x; mul o0.z, r0.x, l(0.5); mov o0.w, l(1.0); ret
 *   ps: dcl_resource_raw t0; dcl_output o0; dcl_temps 1
 *       ld_raw r0.x, l(0), t0; mov o0.x, r0.x; mov o0.yzw, l(0, green, 0, 1); ret */
static struct bench_bytes dxbc_stage(bool pixel, uint32_t vs_mask, float green)
{
    const struct dxbc_instruction vs[] = {
        {DXBC_OP_DCL_CONSTANT_BUFFER, 1, {DXBC_CB_DECL(0, 1)}, 0, {0}},
        {DXBC_OP_DCL_INPUT, 1, {DXBC_DST(DXBC_INPUT, 0, DXBC_X | DXBC_Y)}, 0, {0}},
        {DXBC_OP_DCL_OUTPUT_SIV, 1, {DXBC_DST(DXBC_OUTPUT, 0, 0xf)}, 1, {1}},
        {DXBC_OP_DCL_TEMPS, 0, {{0}}, 1, {1}},
        {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_OUTPUT, 0, DXBC_X | DXBC_Y), DXBC_SRC4(DXBC_INPUT, 0)}, 0, {0}},
        {DXBC_OP_AND, 3, {DXBC_DST(DXBC_TEMP, 0, DXBC_X), DXBC_CB_SRC(0, 0, 0), DXBC_IMM(vs_mask)}, 0, {0}},
        {DXBC_OP_UTOF, 2, {DXBC_DST(DXBC_TEMP, 0, DXBC_X), DXBC_SRC(DXBC_TEMP, 0, 0)}, 0, {0}},
        {DXBC_OP_MUL, 3, {DXBC_DST(DXBC_OUTPUT, 0, DXBC_Z), DXBC_SRC(DXBC_TEMP, 0, 0), DXBC_IMM(0x3f000000)}, 0, {0}},
        {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_OUTPUT, 0, DXBC_W), DXBC_IMM(0x3f800000)}, 0, {0}},
        {DXBC_OP_RET, 0, {{0}}, 0, {0}},
    };
    const struct dxbc_instruction ps[] = {
        {DXBC_OP_DCL_RESOURCE_RAW, 1, {DXBC_RESOURCE(DXBC_RESOURCE_SRV, 0)}, 0, {0}},
        {DXBC_OP_DCL_OUTPUT, 1, {DXBC_DST(DXBC_OUTPUT, 0, 0xf)}, 0, {0}},
        {DXBC_OP_DCL_TEMPS, 0, {{0}}, 1, {1}},
        {DXBC_OP_LD_RAW, 3, {DXBC_DST(DXBC_TEMP, 0, DXBC_X), DXBC_IMM(0), DXBC_READ(DXBC_RESOURCE_SRV, 0)}, 0, {0}},
        {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_OUTPUT, 0, DXBC_X), DXBC_SRC(DXBC_TEMP, 0, 0)}, 0, {0}},
        {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_OUTPUT, 0, DXBC_Y | DXBC_Z | DXBC_W), DXBC_IMM4(0, float_bits(green), 0, 0x3f800000)}, 0, {0}},
        {DXBC_OP_RET, 0, {{0}}, 0, {0}},
    };
    static const struct dxbc_signature_element vs_inputs[] = {{"POSITION", 0, 0, 3, 0, 0x3, 0x3}};
    static const struct dxbc_signature_element vs_outputs[] = {{"SV_Position", 0, 1, 3, 0, 0xf, 0}};
    static const struct dxbc_signature_element ps_outputs[] = {{"SV_Target", 0, 64, 3, 0, 0xf, 0}};
    struct bench_bytes b;

    if (pixel)
        b.data = dxbc_write_shader_with_signatures(DXBC_PIXEL_SHADER, 5, 0, ps, BENCH_ARRAY_SIZE(ps), NULL, 0, ps_outputs, 1, &b.size);
    else
        b.data = dxbc_write_shader_with_signatures(DXBC_VERTEX_SHADER, 5, 0, vs, BENCH_ARRAY_SIZE(vs), vs_inputs, 1, vs_outputs, 1, &b.size);
    REQUIRE(b.data, "the DXBC writer could not encode a shader");
    return b;
}

#ifndef BENCH_VKD3D
/* D3DCompile's blob of one entry point of `source` (macros: name, value, ..., NULL), as bytes. */
static struct bench_bytes hlsl_stage(const char *source, const char *entry, const char *target, const char *const *macros)
{
    D3D_SHADER_MACRO defines[8];
    ID3DBlob *code = NULL, *errors = NULL;
    struct bench_bytes b;
    unsigned n = 0;

    for (const char *const *m = macros; m && *m && n + 1 < BENCH_ARRAY_SIZE(defines); m += 2)
        defines[n++] = (D3D_SHADER_MACRO){m[0], m[1]};
    defines[n] = (D3D_SHADER_MACRO){NULL, NULL};
    HRESULT hr = D3DCompile(source, strlen(source), "bench_draw.hlsl", defines, NULL, entry, target, 0, 0, &code, &errors);
    if (FAILED(hr))
        bench_fail(__LINE__, "D3DCompile %s failed (0x%08x): %s", entry, (unsigned)hr,
                errors ? (const char *)ID3D10Blob_GetBufferPointer(errors) : "?");
    if (errors)
        ID3D10Blob_Release(errors);
    b.size = ID3D10Blob_GetBufferSize(code);
    REQUIRE((b.data = malloc(b.size)), "out of memory");
    memcpy(b.data, ID3D10Blob_GetBufferPointer(code), b.size);
    ID3D10Blob_Release(code);
    return b;
}

/* shaderc's SPIR-V of one stage, with the options D3DCompile uses (bench_spirv's, for graphics). */
static struct bench_bytes raw_spirv(const char *source, bool glsl, shaderc_shader_kind kind, const char *entry, const char *const *macros)
{
    shaderc_compiler_t compiler = shaderc_compiler_initialize();
    shaderc_compile_options_t options = shaderc_compile_options_initialize();
    shaderc_compilation_result_t result;
    struct bench_bytes b;

    REQUIRE(compiler && options, "cannot create the shaderc compiler");
    shaderc_compile_options_set_source_language(options, glsl ? shaderc_source_language_glsl : shaderc_source_language_hlsl);
    shaderc_compile_options_set_target_env(options, shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_1);
    shaderc_compile_options_set_target_spirv(options, shaderc_spirv_version_1_3);
    shaderc_compile_options_set_optimization_level(options, shaderc_optimization_level_performance);
    for (const char *const *m = macros; m && *m; m += 2)
        shaderc_compile_options_add_macro_definition(options, m[0], strlen(m[0]), m[1], strlen(m[1]));
    result = shaderc_compile_into_spv(compiler, source, strlen(source), kind, "bench_draw", entry, options);
    if (shaderc_result_get_compilation_status(result) != shaderc_compilation_status_success)
        bench_fail(__LINE__, "shaderc (%s): %s", entry, shaderc_result_get_error_message(result));
    b.size = shaderc_result_get_length(result);
    REQUIRE((b.data = malloc(b.size)), "out of memory");
    memcpy(b.data, shaderc_result_get_bytes(result), b.size);
    shaderc_result_release(result);
    shaderc_compile_options_release(options);
    shaderc_compiler_release(compiler);
    return b;
}
#endif

/* The CPU figures' two stages of variant (vs_mask, green): DXBC, or (d3d12xs) D3DCompile's blobs. */
static void d3d_cpu_stages(bool dxbc, uint32_t vs_mask, float green, struct bench_bytes *vs, struct bench_bytes *ps)
{
#ifndef BENCH_VKD3D
    if (!dxbc) {
        char mask_text[16], green_text[32];
        snprintf(mask_text, sizeof(mask_text), "%uu", vs_mask);
        snprintf(green_text, sizeof(green_text), "%.9g", green);
        const char *const macros[] = {"VS_MASK", mask_text, "GREEN", green_text, NULL};
        *vs = hlsl_stage(cpu_hlsl, "vs_main", "vs_6_0", macros);
        *ps = hlsl_stage(cpu_hlsl, "ps_main", "ps_6_0", macros);
        return;
    }
#else
    REQUIRE(dxbc, "vkd3d takes only DXBC");
#endif
    *vs = dxbc_stage(false, vs_mask, green);
    *ps = dxbc_stage(true, vs_mask, green);
}

/* ---- the D3D12 side (d3d12xs, or vkd3d in bench_draw_vkd3d) ------------------------------ */

struct d3d {
    ID3D12Device *device;
    char device_name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
    bool cpu_device;
    struct bench_d3d_queue q;                       /* DIRECT */
    ID3D12CommandAllocator *allocator;              /* the CPU figures' recordings */
    ID3D12GraphicsCommandList *list;
    ID3D12DescriptorHeap *rtvs, *views;             /* RTVs; the shader-visible heap of the two tables */
    UINT rtv_increment, view_increment;
    ID3D12RootSignature *signature;                 /* b0: one constant; a table of t0 */
    ID3D12PipelineState *pipelines[2];              /* GREEN 0 and 1 */
    ID3D12Resource *target, *vertices, *tables;
    D3D12_VERTEX_BUFFER_VIEW vertex_views[2];
    D3D12_GPU_DESCRIPTOR_HANDLE table_handles[2];
    D3D12_INPUT_ELEMENT_DESC element;
    struct bench_bytes vs, ps;                      /* pipeline 0's shaders (the creation figures' "identical") */
};

static const D3D12_INPUT_ELEMENT_DESC position_element = {"POSITION", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 0,
        D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0};
/* Two full-screen triangles, one per vertex view. */
static const float fullscreen_triangle[6] = {-1.0f, -1.0f, 3.0f, -1.0f, -1.0f, 3.0f};

static D3D12_CPU_DESCRIPTOR_HANDLE d3d_rtv(const struct d3d *d, unsigned slot)
{
    D3D12_CPU_DESCRIPTOR_HANDLE handle = bench_d3d_heap_cpu_start(d->rtvs);
    handle.ptr += (SIZE_T)slot * d->rtv_increment;
    return handle;
}

/* A version 1.1 root signature that allows input layouts. */
static ID3D12RootSignature *d3d_root_signature(ID3D12Device *device, const D3D12_ROOT_PARAMETER1 *parameters, UINT count)
{
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc;
    ID3DBlob *blob = NULL, *errors = NULL;
    ID3D12RootSignature *signature = NULL;

    memset(&desc, 0, sizeof(desc));
    desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    desc.Desc_1_1.NumParameters = count;
    desc.Desc_1_1.pParameters = parameters;
    desc.Desc_1_1.Flags = D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT;
    HR(D3D12SerializeVersionedRootSignature(&desc, &blob, &errors));
    HR(ID3D12Device_CreateRootSignature(device, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
            &IID_ID3D12RootSignature, (void **)&signature));
    ID3D10Blob_Release(blob);
    if (errors)
        ID3D10Blob_Release(errors);
    return signature;
}

/* One colour target of `format`, no depth, the blend the figures use (SRC_ALPHA over INV_SRC_ALPHA). */
static D3D12_GRAPHICS_PIPELINE_STATE_DESC d3d_graphics_desc(ID3D12RootSignature *signature, const struct bench_bytes *vs,
        const struct bench_bytes *ps, DXGI_FORMAT format, bool blend, const D3D12_INPUT_ELEMENT_DESC *elements, UINT element_count)
{
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    D3D12_RENDER_TARGET_BLEND_DESC *target = &desc.BlendState.RenderTarget[0];

    memset(&desc, 0, sizeof(desc));
    desc.pRootSignature = signature;
    desc.VS.pShaderBytecode = vs->data;
    desc.VS.BytecodeLength = vs->size;
    desc.PS.pShaderBytecode = ps->data;
    desc.PS.BytecodeLength = ps->size;
    target->BlendEnable = blend;
    target->SrcBlend = D3D12_BLEND_SRC_ALPHA;
    target->DestBlend = D3D12_BLEND_INV_SRC_ALPHA;
    target->BlendOp = D3D12_BLEND_OP_ADD;
    target->SrcBlendAlpha = D3D12_BLEND_ONE;
    target->DestBlendAlpha = D3D12_BLEND_INV_SRC_ALPHA;
    target->BlendOpAlpha = D3D12_BLEND_OP_ADD;
    target->LogicOp = D3D12_LOGIC_OP_NOOP;
    target->RenderTargetWriteMask = D3D12_COLOR_WRITE_ENABLE_ALL;
    desc.SampleMask = UINT32_MAX;
    desc.RasterizerState.FillMode = D3D12_FILL_MODE_SOLID;
    desc.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    desc.RasterizerState.DepthClipEnable = TRUE;
    desc.InputLayout.pInputElementDescs = elements;
    desc.InputLayout.NumElements = element_count;
    desc.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
    desc.NumRenderTargets = 1;
    desc.RTVFormats[0] = format;
    desc.SampleDesc.Count = 1;
    return desc;
}

static ID3D12PipelineState *d3d_create_graphics(ID3D12Device *device, const D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc)
{
    ID3D12PipelineState *state = NULL;
    HR(ID3D12Device_CreateGraphicsPipelineState(device, desc, &IID_ID3D12PipelineState, (void **)&state));
    return state;
}

/* A 2D render target of `format`, in RENDER_TARGET state, and its RTV in slot `rtv`. */
static ID3D12Resource *d3d_target(struct d3d *d, DXGI_FORMAT format, UINT size, unsigned rtv)
{
    D3D12_HEAP_PROPERTIES heap = {D3D12_HEAP_TYPE_DEFAULT, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 0, 0};
    D3D12_RESOURCE_DESC desc;
    ID3D12Resource *resource = NULL;

    memset(&desc, 0, sizeof(desc));
    desc.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    desc.Width = size;
    desc.Height = size;
    desc.DepthOrArraySize = 1;
    desc.MipLevels = 1;
    desc.Format = format;
    desc.SampleDesc.Count = 1;
    desc.Layout = D3D12_TEXTURE_LAYOUT_UNKNOWN;
    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    HR(ID3D12Device_CreateCommittedResource(d->device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_RENDER_TARGET, NULL,
            &IID_ID3D12Resource, (void **)&resource));
    ID3D12Device_CreateRenderTargetView(d->device, resource, NULL, d3d_rtv(d, rtv));
    return resource;
}

static void d3d_execute_and_wait(struct d3d *d, ID3D12GraphicsCommandList *list, const char *what)
{
    ID3D12CommandList *lists[] = {(ID3D12CommandList *)list};
    ID3D12CommandQueue_ExecuteCommandLists(d->q.queue, 1, lists);
    HR(ID3D12CommandQueue_Signal(d->q.queue, d->q.fence, ++d->q.fence_value));
    bench_d3d_wait_polled(d->q.fence, d->q.fence_value, what);
}

/* A buffer of `size` bytes in DEFAULT memory holding `data`, in `state` (through an upload buffer). */
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
    d3d_execute_and_wait(d, list, "an upload");
    ID3D12GraphicsCommandList_Release(list);
    ID3D12CommandAllocator_Release(allocator);
    ID3D12Resource_Release(upload);
    return buffer;
}

/* Copies a size x size target (RENDER_TARGET state, `pixel_bytes` a pixel) into a new READBACK
 * buffer; the caller maps it. The row pitch is size x pixel_bytes (a multiple of 256 here). */
static ID3D12Resource *d3d_read_target(struct d3d *d, ID3D12GraphicsCommandList *list, ID3D12Resource *target, DXGI_FORMAT format,
        UINT size, UINT pixel_bytes)
{
    ID3D12Resource *readback = bench_d3d_buffer(d->device, D3D12_HEAP_TYPE_READBACK, (UINT64)size * size * pixel_bytes,
            D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_COPY_DEST);
    D3D12_RESOURCE_BARRIER barriers[2] = {
        bench_d3d_transition(target, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_COPY_SOURCE),
        bench_d3d_transition(target, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_RENDER_TARGET),
    };
    D3D12_TEXTURE_COPY_LOCATION dst, src;

    memset(&dst, 0, sizeof(dst));
    dst.pResource = readback;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    dst.PlacedFootprint.Footprint = (D3D12_SUBRESOURCE_FOOTPRINT){format, size, size, 1, size * pixel_bytes};
    memset(&src, 0, sizeof(src));
    src.pResource = target;
    src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    ID3D12GraphicsCommandList_ResourceBarrier(list, 1, &barriers[0]);
    ID3D12GraphicsCommandList_CopyTextureRegion(list, &dst, 0, 0, 0, &src, NULL);
    ID3D12GraphicsCommandList_ResourceBarrier(list, 1, &barriers[1]);
    return readback;
}

/* The CPU figures' root signature: b0, one root constant (the vertex shader's); a table of t0
 * (the pixel shader's). */
static ID3D12RootSignature *d3d_cpu_signature(ID3D12Device *device)
{
    D3D12_ROOT_PARAMETER1 parameters[2];
    D3D12_DESCRIPTOR_RANGE1 range;

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 1;
    parameters[0].ShaderVisibility = D3D12_SHADER_VISIBILITY_VERTEX;
    memset(&range, 0, sizeof(range));
    range.RangeType = D3D12_DESCRIPTOR_RANGE_TYPE_SRV;
    range.NumDescriptors = 1;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    parameters[1].DescriptorTable.NumDescriptorRanges = 1;
    parameters[1].DescriptorTable.pDescriptorRanges = &range;
    parameters[1].ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL;
    return d3d_root_signature(device, parameters, 2);
}

static void d3d_init(struct d3d *d, const struct bench_vk *raw)
{
    D3D12_DESCRIPTOR_HEAP_DESC rtv_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 3, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    D3D12_DESCRIPTOR_HEAP_DESC view_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 2, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    uint32_t words[2 * TABLE_STRIDE_WORDS];
    float vertices[12];

    memset(d, 0, sizeof(*d));
    d->device = bench_d3d_create_device(raw, d->device_name, &d->cpu_device);
    bench_d3d_queue_init(d->device, &d->q, D3D12_COMMAND_LIST_TYPE_DIRECT);
    bench_d3d_new_list(d->device, D3D12_COMMAND_LIST_TYPE_DIRECT, &d->allocator, &d->list);
    HR(ID3D12GraphicsCommandList_Close(d->list));
    HR(ID3D12Device_CreateDescriptorHeap(d->device, &rtv_desc, &IID_ID3D12DescriptorHeap, (void **)&d->rtvs));
    HR(ID3D12Device_CreateDescriptorHeap(d->device, &view_desc, &IID_ID3D12DescriptorHeap, (void **)&d->views));
    d->rtv_increment = ID3D12Device_GetDescriptorHandleIncrementSize(d->device, D3D12_DESCRIPTOR_HEAP_TYPE_RTV);
    d->view_increment = ID3D12Device_GetDescriptorHandleIncrementSize(d->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);

    d->signature = d3d_cpu_signature(d->device);
    d->element = position_element;
    for (unsigned i = 0; i < 2; i++) {
        struct bench_bytes vs, ps;
        d3d_cpu_stages(
#ifdef BENCH_VKD3D
                true,
#else
                false,
#endif
                1, (float)i, &vs, &ps);
        D3D12_GRAPHICS_PIPELINE_STATE_DESC desc = d3d_graphics_desc(d->signature, &vs, &ps, DXGI_FORMAT_R8G8B8A8_UNORM, false, &d->element, 1);
        d->pipelines[i] = d3d_create_graphics(d->device, &desc);
        if (i == 0) {
            d->vs = vs;
            d->ps = ps;
        } else {
            free(vs.data);
            free(ps.data);
        }
    }
    d->target = d3d_target(d, DXGI_FORMAT_R8G8B8A8_UNORM, CPU_TARGET_SIZE, 0);

    memcpy(vertices, fullscreen_triangle, sizeof(fullscreen_triangle));
    memcpy(vertices + 6, fullscreen_triangle, sizeof(fullscreen_triangle));
    d->vertices = d3d_filled_buffer(d, vertices, sizeof(vertices), D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER);
    for (unsigned i = 0; i < 2; i++)
        d->vertex_views[i] = (D3D12_VERTEX_BUFFER_VIEW){ID3D12Resource_GetGPUVirtualAddress(d->vertices) + i * sizeof(fullscreen_triangle),
                sizeof(fullscreen_triangle), 2 * sizeof(float)};

    memset(words, 0, sizeof(words));
    words[0] = float_bits(table_words[0]);
    words[TABLE_STRIDE_WORDS] = float_bits(table_words[1]);
    d->tables = d3d_filled_buffer(d, words, sizeof(words), D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE);
    for (unsigned i = 0; i < 2; i++) {
        D3D12_SHADER_RESOURCE_VIEW_DESC srv;
        D3D12_CPU_DESCRIPTOR_HANDLE slot = bench_d3d_heap_cpu_start(d->views);
        memset(&srv, 0, sizeof(srv));
        srv.Format = DXGI_FORMAT_R32_TYPELESS;
        srv.ViewDimension = D3D12_SRV_DIMENSION_BUFFER;
        srv.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
        srv.Buffer.FirstElement = (UINT64)i * TABLE_STRIDE_WORDS;
        srv.Buffer.NumElements = TABLE_STRIDE_WORDS;
        srv.Buffer.Flags = D3D12_BUFFER_SRV_FLAG_RAW;
        slot.ptr += (SIZE_T)i * d->view_increment;
        ID3D12Device_CreateShaderResourceView(d->device, d->tables, &srv, slot);
        d->table_handles[i] = bench_d3d_heap_gpu_start(d->views);
        d->table_handles[i].ptr += (UINT64)i * d->view_increment;
    }
}

static void d3d_destroy(struct d3d *d)
{
    free(d->vs.data);
    free(d->ps.data);
    ID3D12Resource_Release(d->tables);
    ID3D12Resource_Release(d->vertices);
    ID3D12Resource_Release(d->target);
    for (unsigned i = 0; i < 2; i++)
        ID3D12PipelineState_Release(d->pipelines[i]);
    ID3D12RootSignature_Release(d->signature);
    ID3D12DescriptorHeap_Release(d->views);
    ID3D12DescriptorHeap_Release(d->rtvs);
    ID3D12GraphicsCommandList_Release(d->list);
    ID3D12CommandAllocator_Release(d->allocator);
    bench_d3d_queue_destroy(&d->q);
    ID3D12Device_Release(d->device);
}

/* Everything a CPU figure's list sets before its timed pairs (pipeline 0, vertex view 0, table 0,
 * the constant 0), and one draw, which opens the rendering pass. */
static void d3d_cpu_setup(struct d3d *d, ID3D12GraphicsCommandList *list)
{
    D3D12_VIEWPORT viewport = {0.0f, 0.0f, CPU_TARGET_SIZE, CPU_TARGET_SIZE, 0.0f, 1.0f};
    D3D12_RECT scissor = {0, 0, CPU_TARGET_SIZE, CPU_TARGET_SIZE};
    D3D12_CPU_DESCRIPTOR_HANDLE rtv = d3d_rtv(d, 0);

    ID3D12GraphicsCommandList_SetDescriptorHeaps(list, 1, &d->views);
    ID3D12GraphicsCommandList_SetGraphicsRootSignature(list, d->signature);
    ID3D12GraphicsCommandList_SetPipelineState(list, d->pipelines[0]);
    ID3D12GraphicsCommandList_IASetPrimitiveTopology(list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    ID3D12GraphicsCommandList_RSSetViewports(list, 1, &viewport);
    ID3D12GraphicsCommandList_RSSetScissorRects(list, 1, &scissor);
    ID3D12GraphicsCommandList_OMSetRenderTargets(list, 1, &rtv, FALSE, NULL);
    ID3D12GraphicsCommandList_IASetVertexBuffers(list, 0, 1, &d->vertex_views[0]);
    ID3D12GraphicsCommandList_SetGraphicsRoot32BitConstant(list, 0, 0, 0);
    ID3D12GraphicsCommandList_SetGraphicsRootDescriptorTable(list, 1, d->table_handles[0]);
    ID3D12GraphicsCommandList_DrawInstanced(list, 3, 1, 0, 0);
}

/* The timed part of a CPU figure: `pairs` pairs; each changing call alternates between two
 * values, starting with the one not set by d3d_cpu_setup. */
static void d3d_cpu_pairs(struct d3d *d, ID3D12GraphicsCommandList *list, enum cpu_figure figure, unsigned pairs)
{
    switch (figure) {
    case CPU_DRAW:
        for (unsigned i = 0; i < pairs; i++)
            ID3D12GraphicsCommandList_DrawInstanced(list, 3, 1, 0, 0);
        break;
    case CPU_ROOT_CONSTANT:
        for (unsigned i = 0; i < pairs; i++) {
            ID3D12GraphicsCommandList_SetGraphicsRoot32BitConstant(list, 0, i + 1, 0);
            ID3D12GraphicsCommandList_DrawInstanced(list, 3, 1, 0, 0);
        }
        break;
    case CPU_VERTEX_BUFFERS:
        for (unsigned i = 0; i < pairs; i++) {
            ID3D12GraphicsCommandList_IASetVertexBuffers(list, 0, 1, &d->vertex_views[(i + 1) & 1]);
            ID3D12GraphicsCommandList_DrawInstanced(list, 3, 1, 0, 0);
        }
        break;
    case CPU_PIPELINE:
        for (unsigned i = 0; i < pairs; i++) {
            ID3D12GraphicsCommandList_SetPipelineState(list, d->pipelines[(i + 1) & 1]);
            ID3D12GraphicsCommandList_DrawInstanced(list, 3, 1, 0, 0);
        }
        break;
    case CPU_TABLE:
        for (unsigned i = 0; i < pairs; i++) {
            ID3D12GraphicsCommandList_SetGraphicsRootDescriptorTable(list, 1, d->table_handles[(i + 1) & 1]);
            ID3D12GraphicsCommandList_DrawInstanced(list, 3, 1, 0, 0);
        }
        break;
    case CPU_COUNT:
        break;
    }
}

/* ns per pair of one CPU figure: Reset, the setup and Close untimed. */
static double d3d_cpu_sample(struct d3d *d, enum cpu_figure figure)
{
    double start, end;

    HR(ID3D12CommandAllocator_Reset(d->allocator));
    HR(ID3D12GraphicsCommandList_Reset(d->list, d->allocator, NULL));
    d3d_cpu_setup(d, d->list);
    start = bench_now_ns();
    d3d_cpu_pairs(d, d->list, figure, PAIRS);
    end = bench_now_ns();
    HR(ID3D12GraphicsCommandList_Close(d->list));
    return (end - start) / PAIRS;
}

/* Runs every CPU figure's pattern (three pairs each, ending on pipeline 1 and table 1) and checks
 * that every pixel of the target is (table 1's word, 1, 0, 1): the pipelines, the views and the
 * DXBC (on vkd3d) do what the HLSL says. */
static void d3d_cpu_check(struct d3d *d)
{
    ID3D12Resource *readback;
    const uint8_t *pixels = NULL;
    const uint8_t red = (uint8_t)(table_words[1] * 255.0f + 0.5f);

    HR(ID3D12CommandAllocator_Reset(d->allocator));
    HR(ID3D12GraphicsCommandList_Reset(d->list, d->allocator, NULL));
    d3d_cpu_setup(d, d->list);
    for (unsigned figure = 0; figure < CPU_COUNT; figure++)
        d3d_cpu_pairs(d, d->list, (enum cpu_figure)figure, 1);
    readback = d3d_read_target(d, d->list, d->target, DXGI_FORMAT_R8G8B8A8_UNORM, CPU_TARGET_SIZE, 4);
    HR(ID3D12GraphicsCommandList_Close(d->list));
    d3d_execute_and_wait(d, d->list, "the CPU figures' check");
    HR(ID3D12Resource_Map(readback, 0, NULL, (void **)&pixels));
    for (unsigned i = 0; i < CPU_TARGET_SIZE * CPU_TARGET_SIZE; i++) {
        const uint8_t *p = &pixels[4 * i];
        REQUIRE(p[0] == red && p[1] == 255 && p[2] == 0 && p[3] == 255, "%s: the CPU figures' pixel %u is (%u, %u, %u, %u), not (%u, 255, 0, 255)",
                SIDE, i, p[0], p[1], p[2], p[3], red);
    }
    ID3D12Resource_Unmap(readback, 0, NULL);
    ID3D12Resource_Release(readback);
}

/* ---- the raw Vulkan side ------------------------------------------------------------------ */

/* An image the raw side renders into, kept in one layout (GENERAL or COLOR_ATTACHMENT_OPTIMAL). */
struct raw_target {
    VkImage image;
    VkDeviceMemory memory;
    VkImageView view;
    VkFormat format;
    VkImageLayout layout;
    uint32_t size, pixel_bytes;
};

struct raw {
    struct bench_vk vk;             /* bench_draw_vkd3d: the instance only, to pick vkd3d's device */
#ifndef BENCH_VKD3D
    struct bench_vk_queue q;        /* the first graphics family: d3d12xs's DIRECT queues' */
    VkCommandPool cpu_pool;
    VkCommandBuffer cpu_cmd;
    VkDescriptorSetLayout set_layout;
    VkDescriptorSetLayout like_set_layouts[3]; /* RAW_LIKE_LAYOUT: sets 1 and 2, and the push-descriptor set 3 */
    VkPipelineLayout layout;        /* the set of two tables, 8 bytes of push constants (value, table start) */
    VkDescriptorPool descriptor_pool;
    VkDescriptorSet set;
    VkPipeline pipelines[2];
    struct bench_vk_buffer vertices, tables;
    struct raw_target target;
    VkPipelineLayout empty_layout;  /* the GPU figures' */
    /* An experiment (D3D12XS_BENCH_RAW_LIKE, a mask of RAW_LIKE_*): the CPU figures' raw pipelines
     * made as d3d12xs makes its own, to tell a driver's cost of that state from d3d12xs's code */
    unsigned like;
    struct bench_vk_buffer descriptors;     /* RAW_LIKE_DESCRIPTOR_BUFFER: the set's two descriptors */
    VkDeviceAddress descriptors_address;
    PFN_vkCmdBindDescriptorBuffersEXT vkCmdBindDescriptorBuffersEXT;
    PFN_vkCmdSetDescriptorBufferOffsetsEXT vkCmdSetDescriptorBufferOffsetsEXT;
    PFN_vkCmdSetSampleLocationsEXT vkCmdSetSampleLocationsEXT;
#endif
};

#ifndef BENCH_VKD3D
/* RAW_LIKE_SAMPLE_LOCATIONS: sample locations on and dynamic (d3d12xs's pipelines where the device
 * has VK_EXT_sample_locations at their count); RAW_LIKE_DESCRIPTOR_BUFFER: the tables' set in a
 * descriptor buffer and the pipelines made for one (d3d12xs's heaps); RAW_LIKE_ALL_STAGES: the
 * push-constant range and every push name the five graphics stages (a root signature without
 * DENY_* flags, which this bench's is); RAW_LIKE_LAYOUT: the pipeline layout shaped as d3d12xs's
 * for this bench's root signature: the tables' set, two more (d3d12xs's counter and sampler heap
 * sets, empty here), a push-descriptor set of one storage buffer after them, and 48 bytes of push
 * constants (the root constant, the table start, DispatchX's 16 bytes and ExecuteIndirect's 16) */
enum {RAW_LIKE_SAMPLE_LOCATIONS = 1, RAW_LIKE_DESCRIPTOR_BUFFER = 2, RAW_LIKE_ALL_STAGES = 4, RAW_LIKE_LAYOUT = 8};

/* The stages the raw side's push-constant range names, and so every push. */
static VkShaderStageFlags raw_push_stages(const struct raw *r)
{
    return r->like & RAW_LIKE_ALL_STAGES ? VK_SHADER_STAGE_ALL_GRAPHICS : VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
}
#endif

#ifndef BENCH_VKD3D
#define RAW_CPU_BEGIN_FLAGS VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT /* as d3d12xs begins its command buffers */

static VkShaderModule raw_module(const struct raw *r, const struct bench_bytes *spirv)
{
    VkShaderModuleCreateInfo info = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = spirv->size, .pCode = spirv->data};
    VkShaderModule module;
    VK(vkCreateShaderModule(r->vk.device, &info, NULL, &module));
    return module;
}

/* A graphics pipeline as d3d12xs makes one of d3d_graphics_desc: dynamic rendering into one
 * colour format, the state D3D12 sets on lists dynamic (viewports and scissors with counts, blend
 * constants, stencil reference, topology, restart, vertex strides where there is vertex input). */
static VkPipeline raw_graphics_pipeline(const struct raw *r, VkPipelineLayout layout, VkShaderModule vs, VkShaderModule ps, VkFormat format,
        bool blend, uint32_t vertex_stride, const VkVertexInputAttributeDescription *attributes, uint32_t attribute_count)
{
    VkDynamicState dynamic_states[] = {VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT, VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT,
            VK_DYNAMIC_STATE_BLEND_CONSTANTS, VK_DYNAMIC_STATE_STENCIL_REFERENCE, VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY,
            VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE, VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE, VK_DYNAMIC_STATE_SAMPLE_LOCATIONS_EXT};
    const bool like = layout == r->layout; /* the experiment's: the CPU figures' pipelines */
    uint32_t dynamic_count = BENCH_ARRAY_SIZE(dynamic_states) - 1;
    VkPipelineShaderStageCreateInfo stages[2] = {
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_VERTEX_BIT, .module = vs, .pName = "main"},
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_FRAGMENT_BIT, .module = ps, .pName = "main"},
    };
    VkVertexInputBindingDescription binding = {0, vertex_stride, VK_VERTEX_INPUT_RATE_VERTEX};
    VkPipelineVertexInputStateCreateInfo vertex_input = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
            .vertexBindingDescriptionCount = attribute_count ? 1 : 0, .pVertexBindingDescriptions = &binding,
            .vertexAttributeDescriptionCount = attribute_count, .pVertexAttributeDescriptions = attributes};
    VkPipelineInputAssemblyStateCreateInfo input_assembly = {.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
            .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST};
    VkPipelineViewportStateCreateInfo viewport = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    VkPipelineRasterizationStateCreateInfo rasterization = {.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
            .polygonMode = VK_POLYGON_MODE_FILL, .cullMode = VK_CULL_MODE_NONE, .frontFace = VK_FRONT_FACE_CLOCKWISE, .lineWidth = 1.0f};
    VkPipelineMultisampleStateCreateInfo multisample = {.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
            .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT};
    VkPipelineSampleLocationsStateCreateInfoEXT sample_locations = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SAMPLE_LOCATIONS_STATE_CREATE_INFO_EXT,
            .sampleLocationsEnable = VK_TRUE, .sampleLocationsInfo = {.sType = VK_STRUCTURE_TYPE_SAMPLE_LOCATIONS_INFO_EXT,
            .sampleLocationsPerPixel = VK_SAMPLE_COUNT_1_BIT, .sampleLocationGridSize = {1, 1}}};
    VkPipelineDepthStencilStateCreateInfo depth_stencil = {.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
    VkPipelineColorBlendAttachmentState attachment = {.blendEnable = blend, .srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA,
            .dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, .colorBlendOp = VK_BLEND_OP_ADD,
            .srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE, .dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
            .alphaBlendOp = VK_BLEND_OP_ADD, .colorWriteMask = 0xf};
    VkPipelineColorBlendStateCreateInfo color_blend = {.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
            .attachmentCount = 1, .pAttachments = &attachment};
    if (!attribute_count)
        dynamic_count--; /* no strides without vertex input */
    if (like && (r->like & RAW_LIKE_SAMPLE_LOCATIONS)) {
        dynamic_states[dynamic_count++] = VK_DYNAMIC_STATE_SAMPLE_LOCATIONS_EXT;
        multisample.pNext = &sample_locations;
    }
    VkPipelineDynamicStateCreateInfo dynamic = {.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
            .dynamicStateCount = dynamic_count, .pDynamicStates = dynamic_states};
    VkPipelineRenderingCreateInfo rendering = {.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, .colorAttachmentCount = 1,
            .pColorAttachmentFormats = &format};
    VkGraphicsPipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
        .pNext = &rendering,
        .flags = like && (r->like & RAW_LIKE_DESCRIPTOR_BUFFER) ? VK_PIPELINE_CREATE_DESCRIPTOR_BUFFER_BIT_EXT : 0,
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

static const VkVertexInputAttributeDescription raw_position_attribute = {0, 0, VK_FORMAT_R32G32_SFLOAT, 0};

/* The CPU figures' pipeline of variant (vs_mask, green), from GLSL through shaderc. */
static VkPipeline raw_cpu_pipeline(const struct raw *r, uint32_t vs_mask, float green)
{
    char mask_text[16], green_text[32];
    snprintf(mask_text, sizeof(mask_text), "%uu", vs_mask);
    snprintf(green_text, sizeof(green_text), "%.9g", green);
    const char *const macros[] = {"VS_MASK", mask_text, "GREEN", green_text, NULL};
    struct bench_bytes vs_code = raw_spirv(cpu_vs_glsl, true, shaderc_vertex_shader, "main", macros);
    struct bench_bytes ps_code = raw_spirv(cpu_ps_glsl, true, shaderc_fragment_shader, "main", macros);
    VkShaderModule vs = raw_module(r, &vs_code), ps = raw_module(r, &ps_code);
    VkPipeline pipeline = raw_graphics_pipeline(r, r->layout, vs, ps, VK_FORMAT_R8G8B8A8_UNORM, false, 2 * sizeof(float),
            &raw_position_attribute, 1);
    vkDestroyShaderModule(r->vk.device, vs, NULL);
    vkDestroyShaderModule(r->vk.device, ps, NULL);
    free(vs_code.data);
    free(ps_code.data);
    return pipeline;
}

static struct raw_target raw_target(const struct raw *r, VkFormat format, uint32_t pixel_bytes, uint32_t size, VkImageLayout layout)
{
    struct raw_target t = {.format = format, .layout = layout, .size = size, .pixel_bytes = pixel_bytes};
    VkImageCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = format,
        .extent = {size, size, 1},
        .mipLevels = 1,
        .arrayLayers = 1,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    VkMemoryRequirements requirements;

    VK(vkCreateImage(r->vk.device, &info, NULL, &t.image));
    vkGetImageMemoryRequirements(r->vk.device, t.image, &requirements);
    VkMemoryAllocateInfo allocate = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = requirements.size,
            .memoryTypeIndex = bench_vk_memory_type(&r->vk, requirements.memoryTypeBits, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)};
    VK(vkAllocateMemory(r->vk.device, &allocate, NULL, &t.memory));
    VK(vkBindImageMemory(r->vk.device, t.image, t.memory, 0));
    VkImageViewCreateInfo view_info = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, .image = t.image, .viewType = VK_IMAGE_VIEW_TYPE_2D,
            .format = format, .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
    VK(vkCreateImageView(r->vk.device, &view_info, NULL, &t.view));
    return t;
}

static void raw_free_target(const struct raw *r, struct raw_target *t)
{
    vkDestroyImageView(r->vk.device, t->view, NULL);
    vkDestroyImage(r->vk.device, t->image, NULL);
    vkFreeMemory(r->vk.device, t->memory, NULL);
}

static void raw_image_barrier(VkCommandBuffer cmd, const struct raw_target *t, VkImageLayout old_layout, VkImageLayout new_layout,
        VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access)
{
    VkImageMemoryBarrier2 barrier = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2, .srcStageMask = src_stage, .srcAccessMask = src_access,
            .dstStageMask = dst_stage, .dstAccessMask = dst_access, .oldLayout = old_layout, .newLayout = new_layout,
            .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .image = t->image,
            .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
    VkDependencyInfo dependency = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .imageMemoryBarrierCount = 1, .pImageMemoryBarriers = &barrier};
    vkCmdPipelineBarrier2(cmd, &dependency);
}

/* A buffer of `size` bytes of device-local memory holding `data` (through a staging buffer). */
static struct bench_vk_buffer raw_filled_buffer(struct raw *r, const void *data, VkDeviceSize size, VkBufferUsageFlags usage,
        VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access)
{
    /* RAW_LIKE_DESCRIPTOR_BUFFER: descriptors of it are made from its address */
    const bool addressed = r->like & RAW_LIKE_DESCRIPTOR_BUFFER;
    struct bench_vk_buffer buffer = bench_vk_buffer_with_flags(&r->vk, size, usage | VK_BUFFER_USAGE_TRANSFER_DST_BIT
            | (addressed ? VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT : 0), 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
            addressed ? VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT : 0);
    struct bench_vk_buffer staging = bench_vk_buffer(&r->vk, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
            VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 0);
    VkCommandBuffer cmd;
    void *mapped;

    VK(vkMapMemory(r->vk.device, staging.memory, 0, VK_WHOLE_SIZE, 0, &mapped));
    memcpy(mapped, data, size);
    cmd = bench_vk_begin(&r->vk, &r->q);
    vkCmdCopyBuffer(cmd, staging.buffer, buffer.buffer, 1, &(VkBufferCopy){0, 0, size});
    bench_vk_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, dst_stage, dst_access);
    VK(vkEndCommandBuffer(cmd));
    bench_vk_submit_and_wait(&r->vk, &r->q, cmd);
    vkFreeCommandBuffers(r->vk.device, r->q.pool, 1, &cmd);
    bench_vk_free_buffer(&r->vk, &staging);
    return buffer;
}

/* Every target starts in its layout, once. */
static void raw_initial_layout(struct raw *r, const struct raw_target *t)
{
    VkCommandBuffer cmd = bench_vk_begin(&r->vk, &r->q);
    raw_image_barrier(cmd, t, VK_IMAGE_LAYOUT_UNDEFINED, t->layout, VK_PIPELINE_STAGE_2_NONE, 0, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
            VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    VK(vkEndCommandBuffer(cmd));
    bench_vk_submit_and_wait(&r->vk, &r->q, cmd);
    vkFreeCommandBuffers(r->vk.device, r->q.pool, 1, &cmd);
}

/* The device on d3d12xs's DIRECT family (the first with graphics), with what the figures use:
 * dynamic rendering, synchronization2, push descriptors, dynamically indexed storage-buffer arrays. */
static void raw_create_device(struct raw *r)
{
    VkQueueFamilyProperties families[16];
    uint32_t count = BENCH_ARRAY_SIZE(families), family = 0;
    float priority = 1.0f;
    const char *extensions[3] = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
    uint32_t extension_count = 1;

    vkGetPhysicalDeviceQueueFamilyProperties(r->vk.physical_device, &count, families);
    while (family < count && !(families[family].queueFlags & VK_QUEUE_GRAPHICS_BIT))
        family++;
    REQUIRE(family < count, "no graphics queue family");
    VkPhysicalDeviceDescriptorBufferFeaturesEXT buffer_features = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT,
            .descriptorBuffer = VK_TRUE};
    VkPhysicalDeviceVulkan12Features features12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
            .bufferDeviceAddress = VK_TRUE};
    VkPhysicalDeviceVulkan13Features features13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
            .synchronization2 = VK_TRUE, .dynamicRendering = VK_TRUE};
    VkPhysicalDeviceFeatures2 features = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &features13,
            .features = {.shaderStorageBufferArrayDynamicIndexing = VK_TRUE}};
    if (r->like & RAW_LIKE_DESCRIPTOR_BUFFER) {
        buffer_features.descriptorBufferPushDescriptors = (r->like & RAW_LIKE_LAYOUT) != 0;
        extensions[extension_count++] = VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME;
        features13.pNext = &features12;
        features12.pNext = &buffer_features;
    }
    if (r->like & RAW_LIKE_SAMPLE_LOCATIONS)
        extensions[extension_count++] = VK_EXT_SAMPLE_LOCATIONS_EXTENSION_NAME;
    VkDeviceQueueCreateInfo queue_info = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = family, .queueCount = 1,
            .pQueuePriorities = &priority};
    VkDeviceCreateInfo device_info = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &features, .queueCreateInfoCount = 1,
            .pQueueCreateInfos = &queue_info, .enabledExtensionCount = extension_count, .ppEnabledExtensionNames = extensions};
    VK(vkCreateDevice(r->vk.physical_device, &device_info, NULL, &r->vk.device));
    r->vkCmdBindDescriptorBuffersEXT = (PFN_vkCmdBindDescriptorBuffersEXT)vkGetDeviceProcAddr(r->vk.device, "vkCmdBindDescriptorBuffersEXT");
    r->vkCmdSetDescriptorBufferOffsetsEXT = (PFN_vkCmdSetDescriptorBufferOffsetsEXT)vkGetDeviceProcAddr(r->vk.device,
            "vkCmdSetDescriptorBufferOffsetsEXT");
    r->vkCmdSetSampleLocationsEXT = (PFN_vkCmdSetSampleLocationsEXT)vkGetDeviceProcAddr(r->vk.device, "vkCmdSetSampleLocationsEXT");
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
}

/* The CPU figures' layout and the GPU figures' (empty). */
static void raw_create_layouts(struct raw *r)
{
    /* The CPU figures' layout: set 0 binding 0, the two tables; push constants: value (VS), table start (FS). */
    VkDescriptorSetLayoutBinding binding = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, VK_SHADER_STAGE_FRAGMENT_BIT, NULL};
    VkDescriptorSetLayoutCreateInfo set_info = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = 1,
            .pBindings = &binding};
    if (r->like & RAW_LIKE_DESCRIPTOR_BUFFER)
        set_info.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT;
    VK(vkCreateDescriptorSetLayout(r->vk.device, &set_info, NULL, &r->set_layout));
    VkDescriptorSetLayout set_layouts[4] = {r->set_layout};
    VkPushConstantRange push = {raw_push_stages(r), 0, r->like & RAW_LIKE_LAYOUT ? 48 : 8};
    VkPipelineLayoutCreateInfo layout_info = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
            .pSetLayouts = set_layouts, .pushConstantRangeCount = 1, .pPushConstantRanges = &push};
    if (r->like & RAW_LIKE_LAYOUT) {
        VkDescriptorSetLayoutBinding pushed = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_ALL_GRAPHICS, NULL};
        VkDescriptorSetLayoutCreateInfo empty = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .flags = set_info.flags};
        VkDescriptorSetLayoutCreateInfo push_set = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                .flags = set_info.flags | VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR, .bindingCount = 1, .pBindings = &pushed};
        VK(vkCreateDescriptorSetLayout(r->vk.device, &empty, NULL, &r->like_set_layouts[0]));
        VK(vkCreateDescriptorSetLayout(r->vk.device, &empty, NULL, &r->like_set_layouts[1]));
        VK(vkCreateDescriptorSetLayout(r->vk.device, &push_set, NULL, &r->like_set_layouts[2]));
        memcpy(&set_layouts[1], r->like_set_layouts, sizeof(r->like_set_layouts));
        layout_info.setLayoutCount = 4;
    }
    VK(vkCreatePipelineLayout(r->vk.device, &layout_info, NULL, &r->layout));
    VkPipelineLayoutCreateInfo empty_info = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    VK(vkCreatePipelineLayout(r->vk.device, &empty_info, NULL, &r->empty_layout));
}

/* RAW_LIKE_DESCRIPTOR_BUFFER: the set of the two tables in a host-visible descriptor buffer. */
static void raw_descriptor_buffer(struct raw *r)
{
    VkPhysicalDeviceDescriptorBufferPropertiesEXT db = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_PROPERTIES_EXT};
    VkPhysicalDeviceProperties2 properties = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &db};
    PFN_vkGetDescriptorSetLayoutSizeEXT get_layout_size = (PFN_vkGetDescriptorSetLayoutSizeEXT)vkGetDeviceProcAddr(r->vk.device,
            "vkGetDescriptorSetLayoutSizeEXT");
    PFN_vkGetDescriptorSetLayoutBindingOffsetEXT get_binding_offset = (PFN_vkGetDescriptorSetLayoutBindingOffsetEXT)vkGetDeviceProcAddr(
            r->vk.device, "vkGetDescriptorSetLayoutBindingOffsetEXT");
    PFN_vkGetDescriptorEXT get_descriptor = (PFN_vkGetDescriptorEXT)vkGetDeviceProcAddr(r->vk.device, "vkGetDescriptorEXT");
    VkDeviceSize set_size, binding_offset;
    char *mapped;

    REQUIRE(get_layout_size && get_binding_offset && get_descriptor && r->vkCmdBindDescriptorBuffersEXT && r->vkCmdSetDescriptorBufferOffsetsEXT,
            "VK_EXT_descriptor_buffer without its functions");
    vkGetPhysicalDeviceProperties2(r->vk.physical_device, &properties);
    get_layout_size(r->vk.device, r->set_layout, &set_size);
    get_binding_offset(r->vk.device, r->set_layout, 0, &binding_offset);
    r->descriptors = bench_vk_buffer_with_flags(&r->vk, set_size, VK_BUFFER_USAGE_RESOURCE_DESCRIPTOR_BUFFER_BIT_EXT
            | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 0,
            VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT);
    VK(vkMapMemory(r->vk.device, r->descriptors.memory, 0, VK_WHOLE_SIZE, 0, (void **)&mapped));
    VkBufferDeviceAddressInfo address_info = {VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, NULL, r->tables.buffer};
    VkDeviceAddress tables = vkGetBufferDeviceAddress(r->vk.device, &address_info);
    for (unsigned i = 0; i < 2; i++) {
        VkDescriptorAddressInfoEXT address = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_ADDRESS_INFO_EXT,
                .address = tables + i * TABLE_STRIDE_WORDS * 4, .range = TABLE_STRIDE_WORDS * 4};
        VkDescriptorGetInfoEXT info = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_GET_INFO_EXT, .type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                .data.pStorageBuffer = &address};
        get_descriptor(r->vk.device, &info, db.storageBufferDescriptorSize, mapped + binding_offset + i * db.storageBufferDescriptorSize);
    }
    vkUnmapMemory(r->vk.device, r->descriptors.memory);
    address_info.buffer = r->descriptors.buffer;
    r->descriptors_address = vkGetBufferDeviceAddress(r->vk.device, &address_info);
}

static void raw_init(struct raw *r)
{
    uint32_t words[2 * TABLE_STRIDE_WORDS];
    float vertices[12];

    raw_create_device(r);
    raw_create_layouts(r);
    for (unsigned i = 0; i < 2; i++)
        r->pipelines[i] = raw_cpu_pipeline(r, 1, (float)i);

    memcpy(vertices, fullscreen_triangle, sizeof(fullscreen_triangle));
    memcpy(vertices + 6, fullscreen_triangle, sizeof(fullscreen_triangle));
    r->vertices = raw_filled_buffer(r, vertices, sizeof(vertices), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT,
            VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT);
    memset(words, 0, sizeof(words));
    words[0] = float_bits(table_words[0]);
    words[TABLE_STRIDE_WORDS] = float_bits(table_words[1]);
    r->tables = raw_filled_buffer(r, words, sizeof(words), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
            VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    if (r->like & RAW_LIKE_DESCRIPTOR_BUFFER) {
        raw_descriptor_buffer(r);
        r->target = raw_target(r, VK_FORMAT_R8G8B8A8_UNORM, 4, CPU_TARGET_SIZE, VK_IMAGE_LAYOUT_GENERAL);
        raw_initial_layout(r, &r->target);
        return;
    }
    VkDescriptorPoolSize pool_size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
    VkDescriptorPoolCreateInfo descriptor_pool_info = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1,
            .poolSizeCount = 1, .pPoolSizes = &pool_size};
    VK(vkCreateDescriptorPool(r->vk.device, &descriptor_pool_info, NULL, &r->descriptor_pool));
    VkDescriptorSetAllocateInfo set_allocate = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, .descriptorPool = r->descriptor_pool,
            .descriptorSetCount = 1, .pSetLayouts = &r->set_layout};
    VK(vkAllocateDescriptorSets(r->vk.device, &set_allocate, &r->set));
    VkDescriptorBufferInfo table_infos[2] = {{r->tables.buffer, 0, TABLE_STRIDE_WORDS * 4}, {r->tables.buffer, TABLE_STRIDE_WORDS * 4,
            TABLE_STRIDE_WORDS * 4}};
    VkWriteDescriptorSet write = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = r->set, .descriptorCount = 2,
            .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = table_infos};
    vkUpdateDescriptorSets(r->vk.device, 1, &write, 0, NULL);
    r->target = raw_target(r, VK_FORMAT_R8G8B8A8_UNORM, 4, CPU_TARGET_SIZE, VK_IMAGE_LAYOUT_GENERAL);
    raw_initial_layout(r, &r->target);
}

static void raw_destroy(struct raw *r)
{
    raw_free_target(r, &r->target);
    if (r->like & RAW_LIKE_DESCRIPTOR_BUFFER)
        bench_vk_free_buffer(&r->vk, &r->descriptors);
    else
        vkDestroyDescriptorPool(r->vk.device, r->descriptor_pool, NULL);
    bench_vk_free_buffer(&r->vk, &r->tables);
    bench_vk_free_buffer(&r->vk, &r->vertices);
    for (unsigned i = 0; i < 2; i++)
        vkDestroyPipeline(r->vk.device, r->pipelines[i], NULL);
    vkDestroyPipelineLayout(r->vk.device, r->empty_layout, NULL);
    vkDestroyPipelineLayout(r->vk.device, r->layout, NULL);
    vkDestroyDescriptorSetLayout(r->vk.device, r->set_layout, NULL);
    for (unsigned i = 0; i < BENCH_ARRAY_SIZE(r->like_set_layouts); i++)
        vkDestroyDescriptorSetLayout(r->vk.device, r->like_set_layouts[i], NULL);
    vkDestroyCommandPool(r->vk.device, r->cpu_pool, NULL);
    bench_vk_queue_destroy(&r->vk, &r->q);
    bench_vk_destroy(&r->vk);
}

/* The rendering pass over a target in its layout (loaded and stored, as d3d12xs's passes) and the
 * dynamic state a new command buffer needs, as d3d12xs sets it at a command buffer's first draw
 * (D3D12's viewport: y flipped). */
static void raw_begin_pass(VkCommandBuffer cmd, const struct raw_target *t, VkPipeline pipeline)
{
    static const float ones[4] = {1.0f, 1.0f, 1.0f, 1.0f};
    VkRenderingAttachmentInfo color = {.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO, .imageView = t->view, .imageLayout = t->layout,
            .loadOp = VK_ATTACHMENT_LOAD_OP_LOAD, .storeOp = VK_ATTACHMENT_STORE_OP_STORE};
    VkRenderingInfo info = {.sType = VK_STRUCTURE_TYPE_RENDERING_INFO, .renderArea = {{0, 0}, {t->size, t->size}}, .layerCount = 1,
            .colorAttachmentCount = 1, .pColorAttachments = &color};
    VkViewport viewport = {0.0f, (float)t->size, (float)t->size, -(float)t->size, 0.0f, 1.0f};
    VkRect2D scissor = {{0, 0}, {t->size, t->size}};

    vkCmdBeginRendering(cmd, &info);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdSetViewportWithCount(cmd, 1, &viewport);
    vkCmdSetScissorWithCount(cmd, 1, &scissor);
    vkCmdSetBlendConstants(cmd, ones);
    vkCmdSetStencilReference(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, 0);
    vkCmdSetPrimitiveTopology(cmd, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
    vkCmdSetPrimitiveRestartEnable(cmd, VK_FALSE);
}

static void raw_bind_vertices(VkCommandBuffer cmd, VkBuffer buffer, VkDeviceSize offset, VkDeviceSize size, VkDeviceSize stride)
{
    vkCmdBindVertexBuffers2(cmd, 0, 1, &buffer, &offset, &size, &stride);
}

/* d3d_cpu_setup's raw twin: the pass, pipeline 0, vertex range 0, the set, value 0 and table 0, one draw. */
static void raw_cpu_setup(struct raw *r, VkCommandBuffer cmd)
{
    static const uint32_t push[2] = {0, 0};
    raw_begin_pass(cmd, &r->target, r->pipelines[0]);
    raw_bind_vertices(cmd, r->vertices.buffer, 0, sizeof(fullscreen_triangle), 2 * sizeof(float));
    if (r->like & RAW_LIKE_DESCRIPTOR_BUFFER) {
        VkDescriptorBufferBindingInfoEXT binding = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_BUFFER_BINDING_INFO_EXT,
                .address = r->descriptors_address, .usage = VK_BUFFER_USAGE_RESOURCE_DESCRIPTOR_BUFFER_BIT_EXT};
        uint32_t buffer_index = 0;
        VkDeviceSize offset = 0;
        r->vkCmdBindDescriptorBuffersEXT(cmd, 1, &binding);
        r->vkCmdSetDescriptorBufferOffsetsEXT(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, r->layout, 0, 1, &buffer_index, &offset);
    } else {
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, r->layout, 0, 1, &r->set, 0, NULL);
    }
    if (r->like & RAW_LIKE_SAMPLE_LOCATIONS) { /* the standard location, as d3d12xs sets it at a pipeline's first draw */
        VkSampleLocationEXT centre = {0.5f, 0.5f};
        VkSampleLocationsInfoEXT locations = {.sType = VK_STRUCTURE_TYPE_SAMPLE_LOCATIONS_INFO_EXT, .sampleLocationsPerPixel = VK_SAMPLE_COUNT_1_BIT,
                .sampleLocationGridSize = {1, 1}, .sampleLocationsCount = 1, .pSampleLocations = &centre};
        r->vkCmdSetSampleLocationsEXT(cmd, &locations);
    }
    vkCmdPushConstants(cmd, r->layout, raw_push_stages(r), 0, 8, push);
    vkCmdDraw(cmd, 3, 1, 0, 0);
}

static void raw_cpu_pairs(struct raw *r, VkCommandBuffer cmd, enum cpu_figure figure, unsigned pairs)
{
    const VkShaderStageFlags stages = raw_push_stages(r);
    switch (figure) {
    case CPU_DRAW:
        for (unsigned i = 0; i < pairs; i++)
            vkCmdDraw(cmd, 3, 1, 0, 0);
        break;
    case CPU_ROOT_CONSTANT:
        for (uint32_t i = 0; i < pairs; i++) {
            uint32_t value = i + 1;
            vkCmdPushConstants(cmd, r->layout, stages, 0, 4, &value);
            vkCmdDraw(cmd, 3, 1, 0, 0);
        }
        break;
    case CPU_VERTEX_BUFFERS:
        for (unsigned i = 0; i < pairs; i++) {
            raw_bind_vertices(cmd, r->vertices.buffer, ((i + 1) & 1) * sizeof(fullscreen_triangle), sizeof(fullscreen_triangle), 2 * sizeof(float));
            vkCmdDraw(cmd, 3, 1, 0, 0);
        }
        break;
    case CPU_PIPELINE:
        for (unsigned i = 0; i < pairs; i++) {
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, r->pipelines[(i + 1) & 1]);
            vkCmdDraw(cmd, 3, 1, 0, 0);
        }
        break;
    case CPU_TABLE:
        for (uint32_t i = 0; i < pairs; i++) {
            uint32_t start = (i + 1) & 1;
            vkCmdPushConstants(cmd, r->layout, stages, 4, 4, &start);
            vkCmdDraw(cmd, 3, 1, 0, 0);
        }
        break;
    case CPU_COUNT:
        break;
    }
}

/* ns per pair: the pool reset, the begin, the setup, the pass's end and vkEndCommandBuffer untimed. */
static double raw_cpu_sample(struct raw *r, enum cpu_figure figure)
{
    VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, .flags = RAW_CPU_BEGIN_FLAGS};
    double start, end;

    VK(vkResetCommandPool(r->vk.device, r->cpu_pool, 0));
    VK(vkBeginCommandBuffer(r->cpu_cmd, &begin));
    raw_cpu_setup(r, r->cpu_cmd);
    start = bench_now_ns();
    raw_cpu_pairs(r, r->cpu_cmd, figure, PAIRS);
    end = bench_now_ns();
    vkCmdEndRendering(r->cpu_cmd);
    VK(vkEndCommandBuffer(r->cpu_cmd));
    return (end - start) / PAIRS;
}

/* Copies a target (in its layout, after colour writes) into a new host-visible buffer, mapped into
 * *mapped; the target is back in its layout. Recorded into cmd, which the caller submits. */
static struct bench_vk_buffer raw_record_read_target(struct raw *r, VkCommandBuffer cmd, const struct raw_target *t)
{
    VkDeviceSize bytes = (VkDeviceSize)t->size * t->size * t->pixel_bytes;
    struct bench_vk_buffer staging = bench_vk_buffer(&r->vk, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
            VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
    VkImageLayout copy_layout = t->layout == VK_IMAGE_LAYOUT_GENERAL ? VK_IMAGE_LAYOUT_GENERAL : VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, .imageExtent = {t->size, t->size, 1}};

    raw_image_barrier(cmd, t, t->layout, copy_layout, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
            VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    vkCmdCopyImageToBuffer(cmd, t->image, copy_layout, staging.buffer, 1, &region);
    raw_image_barrier(cmd, t, copy_layout, t->layout, VK_PIPELINE_STAGE_2_COPY_BIT, 0, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
            VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    bench_vk_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    return staging;
}

/* The raw twin of d3d_cpu_check: the same patterns, the same pixels. */
static void raw_cpu_check(struct raw *r)
{
    const uint8_t red = (uint8_t)(table_words[1] * 255.0f + 0.5f);
    VkCommandBuffer cmd = bench_vk_begin(&r->vk, &r->q);
    struct bench_vk_buffer staging;
    const uint8_t *pixels;

    raw_cpu_setup(r, cmd);
    for (unsigned figure = 0; figure < CPU_COUNT; figure++)
        raw_cpu_pairs(r, cmd, (enum cpu_figure)figure, 1);
    vkCmdEndRendering(cmd);
    staging = raw_record_read_target(r, cmd, &r->target);
    VK(vkEndCommandBuffer(cmd));
    bench_vk_submit_and_wait(&r->vk, &r->q, cmd);
    vkFreeCommandBuffers(r->vk.device, r->q.pool, 1, &cmd);
    VK(vkMapMemory(r->vk.device, staging.memory, 0, VK_WHOLE_SIZE, 0, (void **)&pixels));
    for (unsigned i = 0; i < CPU_TARGET_SIZE * CPU_TARGET_SIZE; i++) {
        const uint8_t *p = &pixels[4 * i];
        REQUIRE(p[0] == red && p[1] == 255 && p[2] == 0 && p[3] == 255, "raw Vulkan: the CPU figures' pixel %u is (%u, %u, %u, %u)", i, p[0],
                p[1], p[2], p[3]);
    }
    bench_vk_free_buffer(&r->vk, &staging);
}
#endif /* BENCH_VKD3D */

#ifndef BENCH_VKD3D
#include "bench_draw_gpu.h"
#endif
#include "bench_draw_create.h"

/* ---- the CPU figures ---------------------------------------------------------------------- */

enum side_id { SIDE_D3D, SIDE_RAW, SIDE_COUNT };

static double cpu_samples[SIDE_COUNT][CPU_COUNT][MAX_SAMPLES];

/* n->cpu_warmup, then n->cpu_samples samples of every figure per side; the sides alternate which
 * records first, and each sample's recordings are freed before it (bench_compute: the heap). */
static void measure_cpu(struct d3d *d, struct raw *r, const struct sizes *n)
{
    for (unsigned i = 0; i < n->cpu_warmup + n->cpu_samples; i++)
        for (unsigned figure = 0; figure < CPU_COUNT; figure++) {
            double d3d_ns, raw_ns = 0;
#ifndef BENCH_VKD3D
            if (i % 2)
                raw_ns = raw_cpu_sample(r, (enum cpu_figure)figure);
#endif
            d3d_ns = d3d_cpu_sample(d, (enum cpu_figure)figure);
#ifndef BENCH_VKD3D
            if (!(i % 2))
                raw_ns = raw_cpu_sample(r, (enum cpu_figure)figure);
#else
            (void)r;
#endif
            if (i >= n->cpu_warmup) {
                cpu_samples[SIDE_D3D][figure][i - n->cpu_warmup] = d3d_ns;
                cpu_samples[SIDE_RAW][figure][i - n->cpu_warmup] = raw_ns;
            }
        }
}

/* The median of each side and of the per-sample ratio d3d12xs / raw. */
struct cpu_row {
    struct bench_figure side[SIDE_COUNT];
    double paired;
};

static struct cpu_row cpu_row_of(enum cpu_figure figure, unsigned count)
{
    static double sorted[MAX_SAMPLES];
    struct cpu_row row;

    for (unsigned i = 0; i < count; i++)
        sorted[i] = cpu_samples[SIDE_D3D][figure][i] / cpu_samples[SIDE_RAW][figure][i];
    row.paired = bench_figure_of(sorted, count).median;
    for (unsigned side = 0; side < SIDE_COUNT; side++) {
        memcpy(sorted, cpu_samples[side][figure], count * sizeof(*sorted));
        row.side[side] = bench_figure_of(sorted, count);
    }
    return row;
}

/* ---- the creation figures, the peer, printing and main ------------------------------------ */

struct create_results {
    struct bench_figure f[CREATE_COUNT];
    bool measured[CREATE_COUNT];
};

/* The D3D12 side's creation figures (HLSL ones on d3d12xs only), and raw Vulkan's where r is set:
 * new bytes (raw: CREATE_NEW_DXBC holds its new-SPIR-V figure), identical, first (CREATE_FIRST_DXBC). */
static void measure_create(struct d3d *d, struct raw *r, const struct sizes *n, struct create_results *out, struct create_results *raw_out)
{
    struct bench_bytes vs, ps, hlsl_pair = {NULL, 0}, dxbc_pair, spirv_pair = {NULL, 0};

    memset(out, 0, sizeof(*out));
#ifndef BENCH_VKD3D
    out->f[CREATE_NEW_HLSL] = d3d_measure_new(d, false, false, n);
    out->measured[CREATE_NEW_HLSL] = out->measured[CREATE_FIRST_HLSL] = true;
    d3d_cpu_stages(false, create_vs_mask(0), create_green(0), &vs, &ps);
    hlsl_pair = create_pack(&vs, &ps);
    free(vs.data);
    free(ps.data);
    if (r) {
        memset(raw_out, 0, sizeof(*raw_out));
        raw_out->f[CREATE_NEW_DXBC] = raw_measure_new(r, n);
        raw_out->f[CREATE_IDENTICAL] = raw_measure_identical(r, n);
        raw_create_stages(0, &vs, &ps);
        spirv_pair = create_pack(&vs, &ps);
        free(vs.data);
        free(ps.data);
        raw_out->measured[CREATE_NEW_DXBC] = raw_out->measured[CREATE_IDENTICAL] = raw_out->measured[CREATE_FIRST_DXBC] = true;
    }
#else
    (void)r;
    (void)raw_out;
#endif
    out->f[CREATE_NEW_DXBC] = d3d_measure_new(d, true, false, n);
    out->f[CREATE_NEW_DXBC_DRAW] = d3d_measure_new(d, true, true, n);
    out->f[CREATE_IDENTICAL] = d3d_measure_identical(d, n);
    out->measured[CREATE_NEW_DXBC] = out->measured[CREATE_NEW_DXBC_DRAW] = out->measured[CREATE_IDENTICAL] = true;
    out->measured[CREATE_FIRST_DXBC] = true;
    d3d_cpu_stages(true, create_vs_mask(0), create_green(0), &vs, &ps);
    dxbc_pair = create_pack(&vs, &ps);
    free(vs.data);
    free(ps.data);
    measure_first(hlsl_pair.data ? &hlsl_pair : NULL, &dxbc_pair, spirv_pair.data ? &spirv_pair : NULL, n, &out->f[CREATE_FIRST_HLSL],
            &out->f[CREATE_FIRST_DXBC], r ? &raw_out->f[CREATE_FIRST_DXBC] : NULL);
    free(hlsl_pair.data);
    free(dxbc_pair.data);
    free(spirv_pair.data);
}

#ifdef BENCH_VKD3D
/* bench_draw_vkd3d peer: vkd3d's CPU and creation figures, `name=median,min` one per line. */
static int peer(void)
{
    struct create_results created;
    struct raw r;
    struct sizes n;
    struct d3d d;

    memset(&r, 0, sizeof(r));
    bench_vk_open(&r.vk, "bench_draw_vkd3d");
    d3d_init(&d, &r.vk);
    n = sizes_for(d.cpu_device);
    d3d_cpu_check(&d);
    measure_cpu(&d, &r, &n);
    measure_create(&d, NULL, &n, &created, NULL);
    printf("device=%s\n", d.device_name);
    for (unsigned figure = 0; figure < CPU_COUNT; figure++) {
        struct cpu_row row = cpu_row_of((enum cpu_figure)figure, n.cpu_samples);
        printf("%s=%.4f,%.4f\n", cpu_names[figure], row.side[SIDE_D3D].median, row.side[SIDE_D3D].min);
    }
    for (unsigned figure = 0; figure < CREATE_COUNT; figure++)
        if (created.measured[figure])
            printf("%s=%.4f,%.4f\n", create_names[figure], created.f[figure].median, created.f[figure].min);
    d3d_destroy(&d);
    vkDestroyInstance(r.vk.instance, NULL);
    return 0;
}
#else
/* vkd3d's figures from bench_draw_vkd3d (median, min), false with the reason in `why`. */
struct peer_results {
    struct bench_figure cpu[CPU_COUNT];
    struct create_results created;
    char device[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
};

static bool peer_figure(const char *text, const char *name, struct bench_figure *f)
{
    char value[64], *comma;
    bench_text_field(text, name, value, sizeof(value));
    if (!(comma = strchr(value, ',')))
        return false;
    f->median = strtod(value, NULL);
    f->min = strtod(comma + 1, NULL);
    return true;
}

static bool run_peer(struct peer_results *p, char *why, size_t why_size)
{
    struct bench_bytes out;

    memset(p, 0, sizeof(*p));
    if (!bench_run_peer(PEER_PROGRAM, &out, why, why_size))
        return false;
    bench_text_field(out.data, "device", p->device, sizeof(p->device));
    for (unsigned figure = 0; figure < CPU_COUNT; figure++)
        REQUIRE(peer_figure(out.data, cpu_names[figure], &p->cpu[figure]), "%s printed no %s", PEER_PROGRAM, cpu_names[figure]);
    for (unsigned figure = 0; figure < CREATE_COUNT; figure++)
        p->created.measured[figure] = peer_figure(out.data, create_names[figure], &p->created.f[figure]);
    free(out.data);
    return true;
}
#endif

static FILE *tsv;

static void print_cpu(const struct sizes *n, const void *peer_results)
{
#ifndef BENCH_VKD3D
    printf("\nCPU ns per pair (%u pairs per list, %u samples per side, sides alternating; medians, ratio = %s / that side)\n", PAIRS,
            n->cpu_samples, SIDE);
#else
    printf("\nCPU ns per pair (%u pairs per list, %u samples; medians)\n", PAIRS, n->cpu_samples);
#endif
    for (unsigned figure = 0; figure < CPU_COUNT; figure++) {
        struct cpu_row row = cpu_row_of((enum cpu_figure)figure, n->cpu_samples);
        printf("  %-20s %s %7.1f", cpu_names[figure], SIDE, row.side[SIDE_D3D].median);
#ifndef BENCH_VKD3D
        const struct peer_results *p = peer_results;
        printf("   raw Vulkan %6.1f (%.2f; med/med %.2f)", row.side[SIDE_RAW].median, row.paired,
                row.side[SIDE_D3D].median / row.side[SIDE_RAW].median);
        if (p)
            printf("   vkd3d %7.1f (%.2f)", p->cpu[figure].median, row.side[SIDE_D3D].median / p->cpu[figure].median);
        else
            printf("   vkd3d not measured");
        printf("   minima %.1f | %.1f%s", row.side[SIDE_D3D].min, row.side[SIDE_RAW].min, p ? "" : "\n");
        if (p)
            printf(" | %.1f\n", p->cpu[figure].min);
        if (tsv && p)
            fprintf(tsv, "%s\tns\t%.3f\t%.3f\t%.4f\t%.3f\t%.4f\n", cpu_names[figure], row.side[SIDE_D3D].median, row.side[SIDE_RAW].median,
                    row.paired, p->cpu[figure].median, row.side[SIDE_D3D].median / p->cpu[figure].median);
        else if (tsv)
            fprintf(tsv, "%s\tns\t%.3f\t%.3f\t%.4f\t-\t-\n", cpu_names[figure], row.side[SIDE_D3D].median, row.side[SIDE_RAW].median,
                    row.paired);
#else
        (void)peer_results;
        printf("   minimum %.1f\n", row.side[SIDE_D3D].min);
#endif
    }
}

static void print_create(const struct create_results *c, const struct create_results *raw, const struct create_results *peer)
{
    static const char *const labels[CREATE_COUNT] = {"new HLSL each", "new DXBC each", "  + first draw", "identical (CPU)", "first from HLSL",
            "first from DXBC"};
    /* raw Vulkan's figure beside each: new SPIR-V each, the same modules with a twin alive, first */
    static const enum create_figure raw_of[CREATE_COUNT] = {CREATE_NEW_DXBC, CREATE_NEW_DXBC, CREATE_NEW_DXBC, CREATE_IDENTICAL,
            CREATE_FIRST_DXBC, CREATE_FIRST_DXBC};

    if (raw)
        printf("\ngraphics pipeline creation, us (VS + PS; medians, ratio = %s / that side; raw Vulkan: new SPIR-V each, identical, first)\n",
                SIDE);
    else
        printf("\ngraphics pipeline creation, us (VS + PS; medians)\n");
    for (unsigned figure = 0; figure < CREATE_COUNT; figure++) {
        const struct bench_figure *a = &c->f[figure];
        if (!c->measured[figure])
            continue;
        printf("  %-17s %s %8.1f", labels[figure], SIDE, a->median);
        if (raw && raw->measured[raw_of[figure]])
            printf("   raw Vulkan %8.1f (%.2f)", raw->f[raw_of[figure]].median, a->median / raw->f[raw_of[figure]].median);
        if (peer && peer->measured[figure])
            printf("   vkd3d %8.1f (%.2f)", peer->f[figure].median, a->median / peer->f[figure].median);
        else if (raw)
            printf("   vkd3d %s", figure == CREATE_NEW_HLSL || figure == CREATE_FIRST_HLSL ? "-" : "not measured");
        printf("   minimum %.1f\n", a->min);
        if (tsv) {
            char cells[4][32] = {"-", "-", "-", "-"};
            if (raw && raw->measured[raw_of[figure]]) {
                snprintf(cells[0], sizeof(cells[0]), "%.3f", raw->f[raw_of[figure]].median);
                snprintf(cells[1], sizeof(cells[1]), "%.4f", a->median / raw->f[raw_of[figure]].median);
            }
            if (peer && peer->measured[figure]) {
                snprintf(cells[2], sizeof(cells[2]), "%.3f", peer->f[figure].median);
                snprintf(cells[3], sizeof(cells[3]), "%.4f", a->median / peer->f[figure].median);
            }
            fprintf(tsv, "%s\tus\t%.3f\t%s\t%s\t%s\t%s\n", create_names[figure], a->median, cells[0], cells[1], cells[2], cells[3]);
        }
    }
}

int main(int argc, char **argv)
{
    bool want_cpu = argc < 2, want_gpu = argc < 2, want_create = argc < 2;
    struct create_results created, raw_created;
    struct sizes n;
    struct raw r;
    struct d3d d;

    /* No validation layer: it would measure itself. Children and the peer inherit this. */
    setenv("D3D12XS_DEBUG", "0", 1);
    /* lavapipe mallocs every recorded command and frees it on reset: keep glibc from handing the
     * freed heap back to the kernel, or the recording figures measure page faults (bench_compute). */
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    if (argc == 2 && !strcmp(argv[1], "first-d3d12"))
        return create_child(true);
    if (argc == 2 && !strcmp(argv[1], "first-vulkan"))
        return create_child(false);
#ifdef BENCH_VKD3D
    if (argc == 2 && !strcmp(argv[1], "peer"))
        return peer();
#endif
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "cpu"))
            want_cpu = true;
        else if (!strcmp(argv[i], "gpu"))
            want_gpu = true;
        else if (!strcmp(argv[i], "create"))
            want_create = true;
        else {
            fprintf(stderr, "usage: %s [cpu] [gpu] [create]\n", argv[0]);
            return 2;
        }
    }
    setvbuf(stdout, NULL, _IOLBF, 0);

    memset(&r, 0, sizeof(r));
    bench_vk_open(&r.vk, "bench_draw (raw Vulkan)");
    d3d_init(&d, &r.vk);
    n = sizes_for(d.cpu_device);
    printf("%-15s: %s\n", SIDE " device", d.device_name);
#ifndef BENCH_VKD3D
    r.like = getenv("D3D12XS_BENCH_RAW_LIKE") ? (unsigned)strtoul(getenv("D3D12XS_BENCH_RAW_LIKE"), NULL, 0) : 0;
    raw_init(&r);
    printf("raw Vulkan     : %s (%s, %s), queue family %u\n", r.vk.properties.deviceName, r.vk.driver.driverName, r.vk.driver.driverInfo,
            r.q.family);
    if (r.like)
        printf("experiment     : the CPU figures' raw pipelines as d3d12xs makes its own, mask 0x%x (D3D12XS_BENCH_RAW_LIKE: 1 sample "
                "locations on and dynamic, 2 the tables' set in a descriptor buffer, 4 pushes naming every graphics stage, 8 the layout shaped as "
                "d3d12xs's)\n", r.like);
    if (strcmp(d.device_name, r.vk.properties.deviceName))
        printf("WARNING: the two sides do not run on the same device\n");
    raw_cpu_check(&r);
#endif
    d3d_cpu_check(&d);
    printf("check          : the CPU figures' draws wrote every pixel right on %s%s\n", SIDE,
#ifndef BENCH_VKD3D
            " and raw Vulkan"
#else
            ""
#endif
            );
    if (getenv("D3D12XS_BENCH_OUT")) {
        REQUIRE((tsv = fopen(getenv("D3D12XS_BENCH_OUT"), "w")), "cannot write D3D12XS_BENCH_OUT=%s", getenv("D3D12XS_BENCH_OUT"));
        fprintf(tsv, "# bench_draw\tside=%s\tdevice=%s\tpairs=%u\tcpu_samples=%u\ttarget=%u\tfill_layers=%u\ttriangles=%u\tgpu_reps=%u\n", SIDE,
                d.device_name, PAIRS, n.cpu_samples, n.target_size, n.fill_layers, n.triangles, n.gpu_reps);
        fprintf(tsv, "# figure\tunit\t%s\traw_vulkan\tratio_raw\tvkd3d\tratio_vkd3d\n", SIDE);
        fprintf(tsv, "# gpu_* rows: figure\tunit\t%s\traw_general\tratio_general\traw_optimal\tratio_optimal\tgeneral_over_optimal\n", SIDE);
    }

#ifndef BENCH_VKD3D
    if (want_gpu) {
        struct d3d_gpu dg;
        struct raw_gpu rg;
        d3d_gpu_init(&d, &dg, &n);
        raw_gpu_init(&r, &rg, &n);
        printf("\nGPU us per draw (timestamps; %u x %u targets; fill: a full-screen triangle x %u instances; vertices: %u triangles;\n"
               "%u samples per side after one untimed, sides rotating; every figure's three images compared byte for byte first)\n",
                n.target_size, n.target_size, n.fill_layers, n.triangles, n.gpu_reps);
        printf("  %-19s %10s %14s %7s %16s %7s %16s\n", "figure", "d3d12xs", "raw GENERAL", "ratio", "raw ATT_OPTIMAL", "ratio",
                "GENERAL/OPTIMAL");
        for (unsigned f = 0; f < GPU_COUNT; f++) {
            struct gpu_samples s;
            struct bench_rates general, optimal, layouts;
            measure_gpu_figure(&d, &dg, &r, &rg, (enum gpu_figure)f, &n, &s);
            general = bench_rates(s.us[0], s.us[1], s.count);
            optimal = bench_rates(s.us[0], s.us[2], s.count);
            layouts = bench_rates(s.us[1], s.us[2], s.count);
            printf("  %-19s %10.1f %14.1f %7.3f %16.1f %7.3f %16.3f   ranges %.0f-%.0f | %.0f-%.0f | %.0f-%.0f\n", gpu_names[f], general.d3d12xs,
                    general.raw, general.paired, optimal.raw, optimal.paired, layouts.paired, general.d3d12xs_min, general.d3d12xs_max,
                    general.raw_min, general.raw_max, optimal.raw_min, optimal.raw_max);
            if (tsv)
                fprintf(tsv, "gpu_%s\tus\t%.3f\t%.3f\t%.4f\t%.3f\t%.4f\t%.4f\n", gpu_names[f], general.d3d12xs, general.raw, general.paired,
                        optimal.raw, optimal.paired, layouts.paired);
        }
        printf("  (ratio: median over samples of d3d12xs's time / that raw side's in the same round; GENERAL/OPTIMAL: raw GENERAL / raw\n"
               "   COLOR_ATTACHMENT_OPTIMAL, above 1 = GENERAL costs on this device)\n");
        raw_gpu_destroy(&r, &rg);
        d3d_gpu_destroy(&dg);
    }
#else
    (void)want_gpu;
#endif
    if (want_cpu) {
#ifndef BENCH_VKD3D
        struct peer_results p;
        char why[PATH_MAX + 128] = "";
        measure_cpu(&d, &r, &n);
        bool have_peer = run_peer(&p, why, sizeof(why));
        if (have_peer)
            printf("vkd3d          : %s (%s, DXBC from tests/dxbc_writer.c, its draws checked), run after d3d12xs's CPU figures%s\n", p.device,
                    PEER_PROGRAM, strcmp(p.device, d.device_name) ? "; WARNING: another device" : "");
        else
            printf("vkd3d          : not measured (%s)\n", why);
        print_cpu(&n, have_peer ? &p : NULL);
        if (want_create) {
            measure_create(&d, &r, &n, &created, &raw_created);
            print_create(&created, &raw_created, have_peer ? &p.created : NULL);
        }
#else
        measure_cpu(&d, &r, &n);
        print_cpu(&n, NULL);
#endif
    }
    if (want_create && !want_cpu) {
#ifndef BENCH_VKD3D
        struct peer_results p;
        char why[PATH_MAX + 128] = "";
        bool have_peer = run_peer(&p, why, sizeof(why));
        if (!have_peer)
            printf("vkd3d          : not measured (%s)\n", why);
        measure_create(&d, &r, &n, &created, &raw_created);
        print_create(&created, &raw_created, have_peer ? &p.created : NULL);
#else
        (void)raw_created;
        measure_create(&d, NULL, &n, &created, NULL);
        print_create(&created, NULL, NULL);
#endif
    }
    if (tsv)
        REQUIRE(fclose(tsv) == 0, "cannot write D3D12XS_BENCH_OUT");
#ifndef BENCH_VKD3D
    raw_destroy(&r);
#else
    vkDestroyInstance(r.vk.instance, NULL);
#endif
    d3d_destroy(&d);
    return 0;
}
