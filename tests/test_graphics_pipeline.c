/* Graphics pipelines: the stages of D3DCompile'd HLSL (semantics kept in the blob, system values
 * with D3D's meaning), linked by semantic rather than Location, bound to the root signature per
 * stage visibility with the DENY_* flags in force; CreateGraphicsPipelineState and
 * CreatePipelineState streams; and one test per rule D3D12 checks, each refusal with its
 * HRESULT and its one line. Drawing is tests/test_draw.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "harness.h"
#include "dxbc_writer.h"
#include "spirv/spirv_module.h"
#include "spirv/spirv_stage_io.h"
#include "pipelines/graphics_link.h"

static ID3D12Device *device;
static ID3D12RootSignature *signature;   /* b0: four constants, every stage */
static ID3D10Blob *vs, *ps;

static const char stage_source[] =
    "cbuffer C : register(b0) { float4 tint; };\n"
    "struct VSIn { float3 pos : POSITION; float4 color : COLOR0; float2 uv : TEXCOORD3; uint vid : SV_VertexID;"
    " uint iid : SV_InstanceID; };\n"
    "struct VSOut { float4 pos : SV_Position; float2 uv : TEXCOORD3; float4 color : COLOR0; nointerpolation uint id : ID; };\n"
    "VSOut vs(VSIn i) { VSOut o; o.pos = float4(i.pos, 1); o.uv = i.uv; o.color = i.color * tint; o.id = i.vid + i.iid; return o; }\n"
    /* the pixel shader declares its inputs in another order than the vertex shader's outputs */
    "struct PSIn { float4 pos : SV_Position; nointerpolation uint id : ID; float4 color : COLOR0; float2 uv : TEXCOORD3; };\n"
    "float4 ps(PSIn i) : SV_Target0 { return i.color * tint + float4(i.uv, i.pos.w, i.id); }\n"
    "float4 ps_normal(float4 pos : SV_Position, float3 n : NORMAL) : SV_Target0 { return float4(n, 1); }\n"
    "uint4 ps_uint(float4 pos : SV_Position) : SV_Target0 { return uint4(1, 2, 3, 4); }\n"
    "struct DualOut { float4 a : SV_Target0; float4 b : SV_Target1; };\n"
    "DualOut ps_dual(PSIn i) { DualOut o; o.a = i.color; o.b = i.color.wzyx; return o; }\n"
    "float4 vs_plain(float3 pos : POSITION) : SV_Position { return float4(pos, 1); }\n"
    "float4 vs_int(int3 pos : POSITION) : SV_Position { return float4(pos, 1); }\n";

static const D3D12_INPUT_ELEMENT_DESC elements[] = {
    {"POSITION", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    {"COLOR", 0, DXGI_FORMAT_R8G8B8A8_UNORM, 0, D3D12_APPEND_ALIGNED_ELEMENT, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    {"TEXCOORD", 3, DXGI_FORMAT_R32G32_FLOAT, 1, 0, D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA, 1},
};

static void base_desc(D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc)
{
    harness_graphics_desc(desc, signature, vs, ps);
    desc->InputLayout.pInputElementDescs = elements;
    desc->InputLayout.NumElements = 3;
}

static ID3D12PipelineState *create(const D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc, HRESULT expected)
{
    ID3D12PipelineState *state = NULL;
    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(device, desc, &IID_ID3D12PipelineState, (void **)&state), expected);
    CHECK(SUCCEEDED(expected) ? state != NULL : state == NULL);
    return state;
}

/* A refused description: its HRESULT and exactly one line holding needle. */
#define REFUSED(desc, hr, needle) do { LOG_MARK(); create(desc, hr); CHECK_LOG(needle); } while (0)

static void set_shader(D3D12_SHADER_BYTECODE *slot, ID3D10Blob *blob)
{
    slot->pShaderBytecode = blob ? ID3D10Blob_GetBufferPointer(blob) : NULL;
    slot->BytecodeLength = blob ? ID3D10Blob_GetBufferSize(blob) : 0;
}

/* Whether the blob's module decorates a variable BuiltIn builtin. */
static bool has_builtin(ID3D10Blob *blob, uint32_t builtin)
{
    const uint32_t *words = ID3D10Blob_GetBufferPointer(blob);
    size_t count = ID3D10Blob_GetBufferSize(blob) / 4;
    for (size_t i = 5; i < count && words[i] >> 16;) {
        if ((words[i] & 0xffff) == SpvOpDecorate && words[i] >> 16 == 4 && words[i + 2] == SpvDecorationBuiltIn && words[i + 3] == builtin)
            return true;
        i += words[i] >> 16;
    }
    return false;
}

static bool has_op(ID3D10Blob *blob, uint32_t op)
{
    const uint32_t *words = ID3D10Blob_GetBufferPointer(blob);
    size_t count = ID3D10Blob_GetBufferSize(blob) / 4;
    for (size_t i = 5; i < count && words[i] >> 16; i += words[i] >> 16)
        if ((words[i] & 0xffff) == op)
            return true;
    return false;
}

/* D3DCompile keeps the semantics of located inputs and outputs and gives system values D3D's meaning. */
static void test_blob_semantics(void)
{
    struct d3d12xs_spirv_module *module = NULL;
    struct d3d12xs_stage_interface iface;
    char error[256];
    uint32_t found = 0;

    CHECK_HR(d3d12xs_spirv_module_parse(ID3D10Blob_GetBufferPointer(vs), ID3D10Blob_GetBufferSize(vs), &module, error, sizeof(error)), S_OK);
    CHECK_HR(d3d12xs_spirv_stage_interface(module, &iface, error, sizeof(error)), S_OK);
    CHECK(iface.execution_model == SpvExecutionModelVertex);
    for (uint32_t i = 0; i < iface.count; i++) {
        const struct d3d12xs_stage_variable *v = &iface.variables[i];
        if (!v->output && !strcmp(v->semantic, "TEXCOORD") && v->semantic_index == 3)
            found |= 1;
        if (v->output && !strcmp(v->semantic, "COLOR") && v->semantic_index == 0 && v->components == 4)
            found |= 2;
        if (v->output && !strcmp(v->semantic, "ID") && v->scalar_op == SpvOpTypeInt)
            found |= 4;
    }
    CHECK_MSG(found == 7, "semantics found: 0x%x", found);
    d3d12xs_stage_interface_cleanup(&iface);
    d3d12xs_spirv_module_destroy(module);
    /* SV_VertexID and SV_InstanceID without the draw's bases; SV_Position.w is w in the pixel shader */
    CHECK(has_builtin(vs, SpvBuiltInBaseVertex));
    CHECK(has_builtin(vs, SpvBuiltInBaseInstance));
    CHECK(has_op(ps, SpvOpFDiv));
    {
        char name[16];
        uint32_t index;
        CHECK(d3d12xs_split_semantic("texcoord12", name, sizeof(name), &index) && !strcmp(name, "TEXCOORD") && index == 12);
        CHECK(d3d12xs_split_semantic("COLOR", name, sizeof(name), &index) && index == 0);
        CHECK(!d3d12xs_split_semantic("123", name, sizeof(name), &index));
    }
}

/* The pixel shader's inputs take the vertex shader's Locations of the same semantics. */
static void test_link_by_semantic(void)
{
    struct d3d12_graphics_stage stages[2];
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    struct d3d12_graphics_desc graphics;
    uint32_t element_locations[3];
    ID3D10Blob *blobs[2] = {vs, ps};
    char error[256];

    base_desc(&desc);
    d3d12_graphics_desc_from_desc(&desc, &graphics);
    memset(stages, 0, sizeof(stages));
    for (int s = 0; s < 2; s++) {
        stages[s].stage = s ? VK_SHADER_STAGE_FRAGMENT_BIT : VK_SHADER_STAGE_VERTEX_BIT;
        stages[s].argument = s ? "PS" : "VS";
        CHECK_HR(d3d12xs_spirv_module_parse(ID3D10Blob_GetBufferPointer(blobs[s]), ID3D10Blob_GetBufferSize(blobs[s]), &stages[s].module,
                error, sizeof(error)), S_OK);
        CHECK_HR(d3d12xs_spirv_stage_interface(stages[s].module, &stages[s].iface, error, sizeof(error)), S_OK);
    }
    CHECK_HR(d3d12_graphics_link(&graphics, stages, 2, false, element_locations, "test"), S_OK);
    /* each relocated pixel-shader input now sits where the vertex shader writes its semantic */
    for (uint32_t k = 0; k < stages[1].iface.count; k++) {
        const struct d3d12xs_stage_variable *in = &stages[1].iface.variables[k];
        uint32_t location = in->location;
        if (in->output || in->location == D3D12XS_NO_LOCATION)
            continue;
        for (uint32_t l = 0; l < stages[1].link_count; l++)
            if (stages[1].link_ids[l] == in->variable_id)
                location = stages[1].link_locations[l];
        for (uint32_t j = 0; j < stages[0].iface.count; j++) {
            const struct d3d12xs_stage_variable *out = &stages[0].iface.variables[j];
            if (out->output && !strcmp(out->semantic, in->semantic))
                CHECK_MSG(out->location == location, "%s: vertex output at %u, pixel input at %u", in->semantic, out->location, location);
        }
    }
    CHECK(stages[1].link_count >= 2); /* the orders differ: some inputs moved */
    /* elements feed the vertex shader's Locations of their semantics */
    for (uint32_t j = 0; j < stages[0].iface.count; j++) {
        const struct d3d12xs_stage_variable *in = &stages[0].iface.variables[j];
        if (!in->output && !strcmp(in->semantic, "TEXCOORD"))
            CHECK(element_locations[2] == in->location);
        if (!in->output && !strcmp(in->semantic, "POSITION"))
            CHECK(element_locations[0] == in->location);
    }
    for (int s = 0; s < 2; s++) {
        d3d12xs_spirv_module_destroy(stages[s].module);
        d3d12_graphics_stage_cleanup(&stages[s]);
    }
    {
        ID3D12PipelineState *state = create(&desc, S_OK);
        if (state)
            ID3D12PipelineState_Release(state);
    }
}

static void test_link_refusals(void)
{
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    ID3D10Blob *ps_normal = harness_compile_stage(stage_source, "ps_normal", "ps_5_0");
    ID3D10Blob *vs_int = harness_compile_stage(stage_source, "vs_int", "vs_5_0");
    ID3D10Blob *ps_uint = harness_compile_stage(stage_source, "ps_uint", "ps_5_0");
    D3D12_INPUT_ELEMENT_DESC two[2];

    base_desc(&desc);
    set_shader(&desc.PS, ps_normal);
    REFUSED(&desc, E_INVALIDARG, "reads NORMAL0, which the vertex shader");
    base_desc(&desc);
    memcpy(two, elements, sizeof(two));
    desc.InputLayout.pInputElementDescs = two;
    desc.InputLayout.NumElements = 2;
    REFUSED(&desc, E_INVALIDARG, "reads TEXCOORD3, which pDesc->InputLayout does not provide");
    base_desc(&desc);
    set_shader(&desc.VS, vs_int);
    desc.PS.pShaderBytecode = NULL;
    desc.PS.BytecodeLength = 0;
    REFUSED(&desc, E_INVALIDARG, "reads POSITION0 as int");
    base_desc(&desc);
    set_shader(&desc.VS, ps);
    REFUSED(&desc, E_INVALIDARG, "pDesc->VS is a pixel shader");
    base_desc(&desc);
    set_shader(&desc.PS, ps_uint);
    REFUSED(&desc, E_INVALIDARG, "writes SV_Target0 as uint");
    desc.RTVFormats[0] = DXGI_FORMAT_R8G8B8A8_UINT;
    {
        ID3D12PipelineState *state = create(&desc, S_OK);
        if (state)
            ID3D12PipelineState_Release(state);
    }
    ID3D10Blob_Release(ps_normal);
    ID3D10Blob_Release(vs_int);
    ID3D10Blob_Release(ps_uint);
}

/* Root parameters are matched per stage visibility; DENY_* flags refuse a stage that reads any. */
static void test_visibility_and_deny(void)
{
    static const char source[] =
        "cbuffer V : register(b0) { float4 offset; };\n"
        "float4 vs(float3 pos : POSITION) : SV_Position { return float4(pos, 1) + offset; }\n"
        "cbuffer P : register(b0) { float4 color; };\n"
        "cbuffer Q : register(b1) { float4 extra; };\n"
        "float4 ps() : SV_Target0 { return color; }\n"
        "float4 ps_extra() : SV_Target0 { return extra; }\n";
    D3D12_ROOT_PARAMETER1 parameters[3];
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    ID3D10Blob *v = harness_compile_stage(source, "vs", "vs_5_1"), *p = harness_compile_stage(source, "ps", "ps_5_1");
    ID3D10Blob *p_extra = harness_compile_stage(source, "ps_extra", "ps_5_1");
    ID3D12RootSignature *split, *denied;
    ID3D12PipelineState *state;

    memset(parameters, 0, sizeof(parameters));
    for (int i = 0; i < 3; i++) {
        parameters[i].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
        parameters[i].Constants.Num32BitValues = 4;
    }
    parameters[0].ShaderVisibility = D3D12_SHADER_VISIBILITY_VERTEX;
    parameters[1].ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL;
    parameters[2].ShaderVisibility = D3D12_SHADER_VISIBILITY_VERTEX;
    parameters[2].Constants.ShaderRegister = 1;
    split = harness_root_signature(device, parameters, 3, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT);
    harness_graphics_desc(&desc, split, v, p);
    desc.InputLayout.pInputElementDescs = elements;
    desc.InputLayout.NumElements = 1;
    if ((state = create(&desc, S_OK)))
        ID3D12PipelineState_Release(state);
    /* b1 is visible to the vertex shader only */
    set_shader(&desc.PS, p_extra);
    REFUSED(&desc, E_INVALIDARG, "shader register b1, space0 is not in the root signature");

    denied = harness_root_signature(device, parameters, 2, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT
            | D3D12_ROOT_SIGNATURE_FLAG_DENY_PIXEL_SHADER_ROOT_ACCESS);
    harness_graphics_desc(&desc, denied, v, p);
    desc.InputLayout.pInputElementDescs = elements;
    desc.InputLayout.NumElements = 1;
    REFUSED(&desc, E_INVALIDARG, "denies that stage root access");
    desc.PS.pShaderBytecode = NULL;
    desc.PS.BytecodeLength = 0;
    if ((state = create(&desc, S_OK)))
        ID3D12PipelineState_Release(state);
    ID3D12RootSignature_Release(split);
    ID3D12RootSignature_Release(denied);
    ID3D10Blob_Release(v);
    ID3D10Blob_Release(p);
    ID3D10Blob_Release(p_extra);
}

/* Geometry and tessellation stages, and shader model 6 targets. */
static void test_stages(void)
{
    static const char source[] =
        "struct V { float4 pos : SV_Position; float4 color : COLOR; };\n"
        "V vs(float3 pos : POSITION) { V o; o.pos = float4(pos, 1); o.color = float4(pos, 1); return o; }\n"
        "[maxvertexcount(3)] void gs(triangle V input[3], inout TriangleStream<V> stream)\n"
        "{ for (int i = 0; i < 3; i++) stream.Append(input[i]); stream.RestartStrip(); }\n"
        "struct C { float edges[3] : SV_TessFactor; float inside : SV_InsideTessFactor; };\n"
        "C constants(InputPatch<V, 3> patch) { C c; c.edges[0] = c.edges[1] = c.edges[2] = 1; c.inside = 1; return c; }\n"
        "[domain(\"tri\")] [partitioning(\"integer\")] [outputtopology(\"triangle_cw\")] [outputcontrolpoints(3)]\n"
        "[patchconstantfunc(\"constants\")] V hs(InputPatch<V, 3> patch, uint i : SV_OutputControlPointID) { return patch[i]; }\n"
        "[domain(\"tri\")] V ds(C c, float3 uvw : SV_DomainLocation, const OutputPatch<V, 3> patch)\n"
        "{ V o; o.pos = patch[0].pos * uvw.x + patch[1].pos * uvw.y + patch[2].pos * uvw.z; o.color = patch[0].color; return o; }\n"
        "float4 ps(V i) : SV_Target { return i.color; }\n";
    ID3D10Blob *v = harness_compile_stage(source, "vs", "vs_6_0"), *g = harness_compile_stage(source, "gs", "gs_5_0");
    ID3D10Blob *h = harness_compile_stage(source, "hs", "hs_5_0"), *d = harness_compile_stage(source, "ds", "ds_5_0");
    ID3D10Blob *p = harness_compile_stage(source, "ps", "ps_6_0");
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *state;

    harness_graphics_desc(&desc, signature, v, p);
    desc.InputLayout.pInputElementDescs = elements;
    desc.InputLayout.NumElements = 1;
    if ((state = create(&desc, S_OK)))
        ID3D12PipelineState_Release(state);
    set_shader(&desc.GS, g);
    if ((state = create(&desc, S_OK)))
        ID3D12PipelineState_Release(state);
    set_shader(&desc.GS, NULL);
    set_shader(&desc.HS, h);
    REFUSED(&desc, E_INVALIDARG, "pDesc->DS is empty but pDesc->HS is not");
    set_shader(&desc.DS, d);
    REFUSED(&desc, E_INVALIDARG, "PrimitiveTopologyType is not PATCH with an HS");
    desc.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH;
    if ((state = create(&desc, S_OK)))
        ID3D12PipelineState_Release(state);
    set_shader(&desc.GS, g);
    if ((state = create(&desc, S_OK)))
        ID3D12PipelineState_Release(state);
    ID3D10Blob_Release(v);
    ID3D10Blob_Release(g);
    ID3D10Blob_Release(h);
    ID3D10Blob_Release(d);
    ID3D10Blob_Release(p);
}

/* System values through Vulkan's built-ins: clip and cull distances, the render-target array
 * index and viewport index from the vertex shader, front face, sample index, primitive id,
 * coverage in and out, depth and its conservative form. */
static void test_system_values(void)
{
    static const char source[] =
        "struct V { float4 pos : SV_Position; float clip : SV_ClipDistance0; float cull : SV_CullDistance0; float4 color : COLOR; };\n"
        "V vs(float3 pos : POSITION) { V o; o.pos = float4(pos, 1); o.clip = pos.x; o.cull = pos.y; o.color = 1; return o; }\n"
        "struct L { float4 pos : SV_Position; uint layer : SV_RenderTargetArrayIndex; uint viewport : SV_ViewportArrayIndex; };\n"
        "L vs_layer(float3 pos : POSITION) { L o; o.pos = float4(pos, 1); o.layer = 0; o.viewport = 0; return o; }\n"
        "struct P { float4 color : SV_Target0; float depth : SV_Depth; uint coverage : SV_Coverage; };\n"
        "P ps(V i, bool front : SV_IsFrontFace, uint sample : SV_SampleIndex, uint primitive : SV_PrimitiveID, uint mask : SV_Coverage)\n"
        "{ P o; o.color = i.color * (front ? 1 : 0.5) + sample + primitive; o.depth = i.pos.z * 0.5; o.coverage = mask; return o; }\n"
        "float4 ps_ge(float4 pos : SV_Position, out float depth : SV_DepthGreaterEqual) : SV_Target { depth = pos.z; return 1; }\n";
    ID3D10Blob *v = harness_compile_stage(source, "vs", "vs_5_0"), *p = harness_compile_stage(source, "ps", "ps_5_0");
    ID3D10Blob *p_ge = harness_compile_stage(source, "ps_ge", "ps_5_0");
    D3D12_FEATURE_DATA_D3D12_OPTIONS options;
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *state;

    harness_graphics_desc(&desc, signature, v, p);
    desc.InputLayout.pInputElementDescs = elements;
    desc.InputLayout.NumElements = 1;
    desc.DSVFormat = DXGI_FORMAT_D32_FLOAT;
    desc.SampleDesc.Count = 4;
    if ((state = create(&desc, S_OK)))
        ID3D12PipelineState_Release(state);
    set_shader(&desc.PS, p_ge);
    if ((state = create(&desc, S_OK)))
        ID3D12PipelineState_Release(state);
    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_D3D12_OPTIONS, &options, sizeof(options)), S_OK);
    if (options.VPAndRTArrayIndexFromAnyShaderFeedingRasterizerSupportedWithoutGSEmulation) {
        ID3D10Blob *layer = harness_compile_stage(source, "vs_layer", "vs_5_0");
        set_shader(&desc.VS, layer);
        desc.PS.pShaderBytecode = NULL;
        desc.PS.BytecodeLength = 0;
        if ((state = create(&desc, S_OK)))
            ID3D12PipelineState_Release(state);
        ID3D10Blob_Release(layer);
    }
    ID3D10Blob_Release(v);
    ID3D10Blob_Release(p);
    ID3D10Blob_Release(p_ge);
}

/* DXBC stages (FXC's shader model 5): linked by their signatures' semantics, with each other and
 * with D3DCompile's stages. A hull shader without tessellator declarations leaves its DXBC domain
 * shader without the partitioning it takes (test_dxbc_tessellation draws real ones). */
static void test_dxbc_stages(void)
{
    static const struct dxbc_instruction vs_program[] = {
        {DXBC_OP_DCL_INPUT, 1, {DXBC_DST(DXBC_INPUT, 0, DXBC_X | DXBC_Y | DXBC_Z)}, 0, {0}},
        {DXBC_OP_DCL_INPUT, 1, {DXBC_DST(DXBC_INPUT, 1, 0xf)}, 0, {0}},
        {DXBC_OP_DCL_OUTPUT_SIV, 1, {DXBC_DST(DXBC_OUTPUT, 0, 0xf)}, 1, {1}},
        {DXBC_OP_DCL_OUTPUT, 1, {DXBC_DST(DXBC_OUTPUT, 1, 0xf)}, 0, {0}},
        {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_OUTPUT, 0, DXBC_X | DXBC_Y | DXBC_Z), DXBC_SRC4(DXBC_INPUT, 0)}, 0, {0}},
        {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_OUTPUT, 0, DXBC_W), DXBC_IMM(0x3f800000)}, 0, {0}},
        {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_OUTPUT, 1, 0xf), DXBC_SRC4(DXBC_INPUT, 1)}, 0, {0}},
        {DXBC_OP_RET, 0, {{0}}, 0, {0}},
    };
    static const struct dxbc_signature_element vs_inputs[] = {{"POSITION", 0, 0, 3, 0, 0x7, 0x7}, {"COLOR", 0, 0, 3, 1, 0xf, 0xf}};
    static const struct dxbc_signature_element vs_outputs[] = {{"SV_Position", 0, 1, 3, 0, 0xf, 0}, {"COLOR", 0, 0, 3, 1, 0xf, 0}};
    static const struct dxbc_instruction ps_program[] = {
        {DXBC_OP_DCL_INPUT_PS | DXBC_INTERPOLATION_LINEAR, 1, {DXBC_DST(DXBC_INPUT, 1, 0xf)}, 0, {0}},
        {DXBC_OP_DCL_OUTPUT, 1, {DXBC_DST(DXBC_OUTPUT, 0, 0xf)}, 0, {0}},
        {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_OUTPUT, 0, 0xf), DXBC_SRC4(DXBC_INPUT, 1)}, 0, {0}},
        {DXBC_OP_RET, 0, {{0}}, 0, {0}},
    };
    static const struct dxbc_signature_element ps_inputs[] = {{"SV_Position", 0, 1, 3, 0, 0xf, 0}, {"COLOR", 0, 0, 3, 1, 0xf, 0xf}};
    static const struct dxbc_signature_element ps_outputs[] = {{"SV_Target", 0, 64, 3, 0, 0xf, 0}};
    static const char hlsl_ps[] = "float4 main(float4 pos : SV_Position, float4 color : COLOR) : SV_Target { return color; }\n";
    ID3D10Blob *hlsl = harness_compile_stage(hlsl_ps, "main", "ps_5_0");
    size_t vs_size, ps_size, hs_size;
    void *vs_code = dxbc_write_shader_with_signatures(DXBC_VERTEX_SHADER, 5, 0, vs_program, sizeof(vs_program) / sizeof(vs_program[0]), vs_inputs, 2,
            vs_outputs, 2, &vs_size);
    void *ps_code = dxbc_write_shader_with_signatures(DXBC_PIXEL_SHADER, 5, 0, ps_program, sizeof(ps_program) / sizeof(ps_program[0]), ps_inputs, 2,
            ps_outputs, 1, &ps_size);
    void *hs_code = dxbc_write_shader_with_signatures(3, 5, 0, ps_program + 3, 1, NULL, 0, NULL, 0, &hs_size);
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *state;

    base_desc(&desc);
    desc.InputLayout.NumElements = 2;
    desc.VS.pShaderBytecode = vs_code;
    desc.VS.BytecodeLength = vs_size;
    desc.PS.pShaderBytecode = ps_code;
    desc.PS.BytecodeLength = ps_size;
    if ((state = create(&desc, S_OK)))
        ID3D12PipelineState_Release(state);
    /* the stages are translated together: a refusal names its stage, the first one where
     * several are refused (one byte changed after the writer signed the container) */
    {
        uint8_t *bad_vs = malloc(vs_size), *bad_ps = malloc(ps_size);
        CHECK(bad_vs && bad_ps);
        if (bad_vs && bad_ps) {
            memcpy(bad_vs, vs_code, vs_size);
            memcpy(bad_ps, ps_code, ps_size);
            bad_vs[vs_size - 8] ^= 1;
            bad_ps[ps_size - 8] ^= 1;
            desc.PS.pShaderBytecode = bad_ps;
            REFUSED(&desc, E_INVALIDARG, "pDesc->PS: the DXBC checksum does not match");
            desc.VS.pShaderBytecode = bad_vs;
            REFUSED(&desc, E_INVALIDARG, "pDesc->VS: ");
            desc.VS.pShaderBytecode = vs_code;
            desc.PS.pShaderBytecode = ps_code;
        }
        free(bad_vs);
        free(bad_ps);
    }
    /* the HLSL pixel shader's COLOR is at Location 0, the DXBC vertex shader's at 1 */
    set_shader(&desc.PS, hlsl);
    if ((state = create(&desc, S_OK)))
        ID3D12PipelineState_Release(state);
    desc.HS.pShaderBytecode = hs_code;
    desc.HS.BytecodeLength = hs_size;
    desc.DS = desc.HS;
    desc.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH;
    REFUSED(&desc, E_INVALIDARG, "pDesc->HS declares no partitioning (spacing), which the DXBC domain shader pDesc->DS takes from it");
    ID3D10Blob_Release(hlsl);
    free(vs_code);
    free(ps_code);
    free(hs_code);
}

/* Every rule D3D12 checks in a description, one line each. */
static void test_rules(void)
{
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    D3D12_INPUT_ELEMENT_DESC bad[33];
    ID3D10Blob *dual = harness_compile_stage(stage_source, "ps_dual", "ps_5_0");
    ID3D12PipelineState *state;

    base_desc(&desc);
    desc.VS.pShaderBytecode = NULL;
    desc.VS.BytecodeLength = 0;
    REFUSED(&desc, E_INVALIDARG, "pDesc->VS is empty");
    base_desc(&desc);
    desc.VS.BytecodeLength = 0;
    REFUSED(&desc, E_INVALIDARG, "pDesc->VS has a pointer but BytecodeLength 0");
    base_desc(&desc);
    desc.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_UNDEFINED;
    REFUSED(&desc, E_INVALIDARG, "PrimitiveTopologyType is 0");
    desc.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH;
    REFUSED(&desc, E_INVALIDARG, "PrimitiveTopologyType is PATCH without an HS");
    base_desc(&desc);
    desc.NumRenderTargets = 9;
    REFUSED(&desc, E_INVALIDARG, "NumRenderTargets is 9");
    base_desc(&desc);
    desc.RTVFormats[3] = DXGI_FORMAT_R8G8B8A8_UNORM;
    REFUSED(&desc, E_INVALIDARG, "RTVFormats[3] is 28 past NumRenderTargets 1");
    base_desc(&desc);
    desc.RTVFormats[0] = DXGI_FORMAT_BC1_UNORM;
    REFUSED(&desc, E_INVALIDARG, "RTVFormats[0] is 71, not a render target format");
    base_desc(&desc);
    desc.DSVFormat = DXGI_FORMAT_R32_FLOAT;
    REFUSED(&desc, E_INVALIDARG, "DSVFormat is 41, not a depth-stencil format");
    base_desc(&desc);
    desc.SampleDesc.Count = 3;
    REFUSED(&desc, E_INVALIDARG, "SampleDesc.Count is 3");
    base_desc(&desc);
    desc.SampleDesc.Quality = 5;
    REFUSED(&desc, E_INVALIDARG, "SampleDesc.Quality is 5");
    base_desc(&desc);
    desc.IBStripCutValue = 5;
    REFUSED(&desc, E_INVALIDARG, "IBStripCutValue is 0x5");
    base_desc(&desc);
    desc.NodeMask = 2;
    REFUSED(&desc, E_INVALIDARG, "NodeMask is 0x2");
    base_desc(&desc);
    desc.Flags = 0x80;
    REFUSED(&desc, E_INVALIDARG, "Flags is 0x80");
    base_desc(&desc);
    desc.CachedPSO.pCachedBlob = &desc;
    desc.CachedPSO.CachedBlobSizeInBytes = 16;
    REFUSED(&desc, E_INVALIDARG, "CachedPSO is not a d3d12xs cached pipeline blob");
    base_desc(&desc);
    desc.StreamOutput.NumEntries = 1;
    REFUSED(&desc, E_INVALIDARG, "StreamOutput.pSODeclaration is NULL with NumEntries 1"); /* the rest: test_stream_output.c */

    /* blend */
    base_desc(&desc);
    desc.BlendState.RenderTarget[0].BlendEnable = TRUE;
    desc.BlendState.RenderTarget[0].LogicOpEnable = TRUE;
    REFUSED(&desc, E_INVALIDARG, "enables both blending and a logic op");
    base_desc(&desc);
    desc.BlendState.RenderTarget[0].BlendEnable = TRUE;
    desc.BlendState.RenderTarget[0].SrcBlendAlpha = D3D12_BLEND_SRC_COLOR;
    REFUSED(&desc, E_INVALIDARG, "blends alpha with a colour factor");
    base_desc(&desc);
    desc.BlendState.RenderTarget[0].BlendEnable = TRUE;
    desc.BlendState.RenderTarget[0].SrcBlend = 12;
    REFUSED(&desc, E_INVALIDARG, "has a blend factor outside D3D12_BLEND");
    base_desc(&desc);
    desc.BlendState.RenderTarget[0].BlendEnable = TRUE;
    desc.BlendState.RenderTarget[0].BlendOp = 6;
    REFUSED(&desc, E_INVALIDARG, "BlendOp 6");
    base_desc(&desc);
    desc.BlendState.RenderTarget[0].RenderTargetWriteMask = 0x10;
    REFUSED(&desc, E_INVALIDARG, "RenderTargetWriteMask is 0x10");
    base_desc(&desc);
    desc.BlendState.RenderTarget[0].LogicOpEnable = TRUE;
    REFUSED(&desc, E_INVALIDARG, "has a logic op on RTVFormats[0] 28");
    base_desc(&desc);
    desc.RTVFormats[0] = DXGI_FORMAT_R8G8B8A8_UINT;
    desc.BlendState.RenderTarget[0].BlendEnable = TRUE;
    REFUSED(&desc, E_INVALIDARG, "blends into RTVFormats[0] 30, an integer format");
    base_desc(&desc);
    desc.BlendState.IndependentBlendEnable = TRUE;
    desc.NumRenderTargets = 2;
    desc.RTVFormats[0] = desc.RTVFormats[1] = DXGI_FORMAT_R8G8B8A8_UINT;
    desc.BlendState.RenderTarget[0].LogicOpEnable = TRUE;
    desc.BlendState.RenderTarget[0].LogicOp = D3D12_LOGIC_OP_XOR;
    REFUSED(&desc, E_INVALIDARG, "RenderTarget[1] has another logic op than RenderTarget[0]");
    base_desc(&desc);
    desc.BlendState.IndependentBlendEnable = TRUE;
    desc.NumRenderTargets = 2;
    desc.RTVFormats[1] = DXGI_FORMAT_R8G8B8A8_UNORM;
    desc.BlendState.RenderTarget[1].BlendEnable = TRUE;
    desc.BlendState.RenderTarget[1].SrcBlend = D3D12_BLEND_SRC1_COLOR;
    REFUSED(&desc, E_INVALIDARG, "RenderTarget[1] uses SRC1 factors");
    /* dual-source blending: SV_Target1 is render target 0's second source */
    base_desc(&desc);
    set_shader(&desc.PS, dual);
    desc.BlendState.RenderTarget[0].BlendEnable = TRUE;
    desc.BlendState.RenderTarget[0].SrcBlend = D3D12_BLEND_SRC1_COLOR;
    desc.BlendState.RenderTarget[0].DestBlend = D3D12_BLEND_INV_SRC1_ALPHA;
    if ((state = create(&desc, S_OK)))
        ID3D12PipelineState_Release(state);
    desc.NumRenderTargets = 2;
    desc.RTVFormats[1] = DXGI_FORMAT_R8G8B8A8_UNORM;
    REFUSED(&desc, E_INVALIDARG, "dual-source blending writes render target 0 alone");

    /* rasterizer and multisampling */
    base_desc(&desc);
    desc.RasterizerState.FillMode = 1;
    REFUSED(&desc, E_INVALIDARG, "FillMode is 1");
    base_desc(&desc);
    desc.RasterizerState.CullMode = 0;
    REFUSED(&desc, E_INVALIDARG, "CullMode is 0");
    base_desc(&desc);
    desc.RasterizerState.ForcedSampleCount = 3;
    REFUSED(&desc, E_INVALIDARG, "ForcedSampleCount is 3");
    base_desc(&desc);
    desc.RasterizerState.ForcedSampleCount = 4;
    REFUSED(&desc, E_NOTIMPL, "target-independent rasterization is supported for UAV-only rendering");
    base_desc(&desc);
    desc.RasterizerState.ConservativeRaster = 2;
    REFUSED(&desc, E_INVALIDARG, "ConservativeRaster is 2");
    {
        D3D12_FEATURE_DATA_D3D12_OPTIONS options;
        CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_D3D12_OPTIONS, &options, sizeof(options)), S_OK);
        base_desc(&desc);
        desc.RasterizerState.ConservativeRaster = D3D12_CONSERVATIVE_RASTERIZATION_MODE_ON;
        if (options.ConservativeRasterizationTier == D3D12_CONSERVATIVE_RASTERIZATION_TIER_NOT_SUPPORTED)
            REFUSED(&desc, E_INVALIDARG, "ConservativeRaster is ON but ConservativeRasterizationTier is NOT_SUPPORTED");
        else if ((state = create(&desc, S_OK)))
            ID3D12PipelineState_Release(state);
    }
    /* every other rasterizer state builds: wireframe, front culling, bias, no depth clip, lines */
    base_desc(&desc);
    desc.RasterizerState.FillMode = D3D12_FILL_MODE_WIREFRAME;
    desc.RasterizerState.CullMode = D3D12_CULL_MODE_FRONT;
    desc.RasterizerState.FrontCounterClockwise = TRUE;
    desc.RasterizerState.DepthBias = 4;
    desc.RasterizerState.SlopeScaledDepthBias = 1.5f;
    desc.RasterizerState.DepthClipEnable = FALSE;
    desc.RasterizerState.AntialiasedLineEnable = TRUE;
    desc.DSVFormat = DXGI_FORMAT_D32_FLOAT;
    if ((state = create(&desc, S_OK)))
        ID3D12PipelineState_Release(state);
    desc.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_LINE;
    desc.RasterizerState.MultisampleEnable = TRUE;
    desc.IBStripCutValue = D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_0xFFFFFFFF;
    if ((state = create(&desc, S_OK)))
        ID3D12PipelineState_Release(state);

    /* depth-stencil */
    base_desc(&desc);
    desc.DSVFormat = DXGI_FORMAT_D24_UNORM_S8_UINT;
    desc.DepthStencilState.DepthFunc = 9;
    REFUSED(&desc, E_INVALIDARG, "DepthFunc is 9");
    desc.DepthStencilState.DepthFunc = D3D12_COMPARISON_FUNC_LESS;
    desc.DepthStencilState.DepthWriteMask = 2;
    REFUSED(&desc, E_INVALIDARG, "DepthWriteMask is 2");
    desc.DepthStencilState.DepthWriteMask = D3D12_DEPTH_WRITE_MASK_ZERO;
    desc.DepthStencilState.StencilEnable = TRUE;
    desc.DepthStencilState.BackFace.StencilPassOp = 0;
    REFUSED(&desc, E_INVALIDARG, "DepthStencilState.BackFace has a stencil op outside KEEP to DECR");
    desc.DepthStencilState.BackFace.StencilPassOp = D3D12_STENCIL_OP_INCR;
    desc.DepthStencilState.FrontFace.StencilFunc = 0;
    REFUSED(&desc, E_INVALIDARG, "DepthStencilState.FrontFace.StencilFunc is 0");
    desc.DepthStencilState.FrontFace.StencilFunc = D3D12_COMPARISON_FUNC_EQUAL;
    if ((state = create(&desc, S_OK)))
        ID3D12PipelineState_Release(state);

    /* input layout */
    base_desc(&desc);
    desc.InputLayout.NumElements = 33;
    desc.InputLayout.pInputElementDescs = bad;
    REFUSED(&desc, E_INVALIDARG, "InputLayout.NumElements is 33");
    desc.InputLayout.pInputElementDescs = NULL;
    desc.InputLayout.NumElements = 1;
    REFUSED(&desc, E_INVALIDARG, "InputLayout.pInputElementDescs is NULL");
    memcpy(bad, elements, sizeof(elements));
    desc.InputLayout.pInputElementDescs = bad;
    desc.InputLayout.NumElements = 3;
    bad[1].SemanticName = NULL;
    REFUSED(&desc, E_INVALIDARG, "pInputElementDescs[1].SemanticName is NULL");
    bad[1].SemanticName = "SV_VertexID";
    REFUSED(&desc, E_INVALIDARG, "system values come from the input assembler");
    bad[1].SemanticName = "position";
    REFUSED(&desc, E_INVALIDARG, "pInputElementDescs[0] and [1] are both position0");
    bad[1] = elements[1];
    bad[1].Format = DXGI_FORMAT_BC1_UNORM;
    REFUSED(&desc, E_INVALIDARG, "pInputElementDescs[1].Format 71 is not a vertex buffer format");
    bad[1] = elements[1];
    bad[1].InputSlot = 40;
    REFUSED(&desc, E_INVALIDARG, "pInputElementDescs[1].InputSlot is 40");
    bad[1] = elements[1];
    bad[1].InstanceDataStepRate = 2;
    REFUSED(&desc, E_INVALIDARG, "InstanceDataStepRate is 2 for per-vertex data");
    bad[1] = elements[1];
    bad[1].InputSlotClass = D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA;
    bad[1].InstanceDataStepRate = 1;
    REFUSED(&desc, E_INVALIDARG, "gives slot 0 another InputSlotClass");
    bad[1] = elements[1];
    bad[1].AlignedByteOffset = 2;
    REFUSED(&desc, E_INVALIDARG, "AlignedByteOffset 2 is not a multiple of 4");
    bad[1].AlignedByteOffset = 2046;
    REFUSED(&desc, E_INVALIDARG, "pInputElementDescs[1] ends at byte 2050");
    bad[1] = elements[1];
    bad[2].InstanceDataStepRate = 3; /* a step rate through VK_EXT_vertex_attribute_divisor, where offered */
    LOG_MARK();
    state = NULL;
    if (SUCCEEDED(ID3D12Device_CreateGraphicsPipelineState(device, &desc, &IID_ID3D12PipelineState, (void **)&state)))
        ID3D12PipelineState_Release(state);
    else
        CHECK_LOG("VK_EXT_vertex_attribute_divisor");
    ID3D10Blob_Release(dual);
}

/* Pipeline state streams: a subobject per part, D3D12's defaults for the rest. */
struct stream_builder {
    _Alignas(void *) unsigned char bytes[2048];
    size_t size;
};

static void add_subobject(struct stream_builder *b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE type, const void *inner, size_t size, size_t align)
{
    size_t offset = (b->size + sizeof(void *) - 1) & ~(sizeof(void *) - 1), at;
    memcpy(b->bytes + offset, &type, sizeof(type));
    at = (offset + sizeof(type) + align - 1) & ~(align - 1);
    memcpy(b->bytes + at, inner, size);
    b->size = (at + size + sizeof(void *) - 1) & ~(sizeof(void *) - 1);
}
#define ADD(b, type, value) add_subobject(b, type, &(value), sizeof(value), _Alignof(__typeof__(value)))

static HRESULT create_stream(struct stream_builder *b, ID3D12PipelineState **state)
{
    ID3D12Device2 *device2;
    D3D12_PIPELINE_STATE_STREAM_DESC desc = {b->size, b->bytes};
    HRESULT hr;
    *state = NULL;
    if (FAILED(ID3D12Device_QueryInterface(device, &IID_ID3D12Device2, (void **)&device2)))
        return E_NOINTERFACE;
    hr = ID3D12Device2_CreatePipelineState(device2, &desc, &IID_ID3D12PipelineState, (void **)state);
    ID3D12Device2_Release(device2);
    return hr;
}

static void test_streams(void)
{
    D3D12_SHADER_BYTECODE vs_code = {ID3D10Blob_GetBufferPointer(vs), ID3D10Blob_GetBufferSize(vs)};
    D3D12_SHADER_BYTECODE ps_code = {ID3D10Blob_GetBufferPointer(ps), ID3D10Blob_GetBufferSize(ps)};
    D3D12_INPUT_LAYOUT_DESC layout = {elements, 3};
    D3D12_PRIMITIVE_TOPOLOGY_TYPE topology = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
    D3D12_RT_FORMAT_ARRAY formats = {{DXGI_FORMAT_R8G8B8A8_UNORM}, 1};
    DXGI_FORMAT dsv = DXGI_FORMAT_D32_FLOAT;
    D3D12_DEPTH_STENCIL_DESC1 ds1 = {TRUE, D3D12_DEPTH_WRITE_MASK_ALL, D3D12_COMPARISON_FUNC_LESS_EQUAL, FALSE, 0xff, 0xff,
            {1, 1, 1, 8}, {1, 1, 1, 8}, FALSE};
    D3D12_RASTERIZER_DESC2 r2 = {D3D12_FILL_MODE_SOLID, D3D12_CULL_MODE_NONE, FALSE, 0.0f, 0.0f, 0.0f, TRUE,
            D3D12_LINE_RASTERIZATION_MODE_ALIASED, 0, D3D12_CONSERVATIVE_RASTERIZATION_MODE_OFF};
    D3D12_FEATURE_DATA_D3D12_OPTIONS2 options2;
    ID3D10Blob *cs = harness_compile("[numthreads(1, 1, 1)] void main() {}", 0);
    D3D12_SHADER_BYTECODE cs_code = {ID3D10Blob_GetBufferPointer(cs), ID3D10Blob_GetBufferSize(cs)};
    struct stream_builder b;
    ID3D12PipelineState *state;
    UINT mesh = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_MS;

    memset(&b, 0, sizeof(b));
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_ROOT_SIGNATURE, signature);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VS, vs_code);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PS, ps_code);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_INPUT_LAYOUT, layout);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PRIMITIVE_TOPOLOGY, topology);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RENDER_TARGET_FORMATS, formats);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL_FORMAT, dsv);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RASTERIZER2, r2);
    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_D3D12_OPTIONS2, &options2, sizeof(options2)), S_OK);
    ds1.DepthBoundsTestEnable = options2.DepthBoundsTestSupported;
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL1, ds1);
    CHECK_HR(create_stream(&b, &state), S_OK);
    if (state)
        ID3D12PipelineState_Release(state);
    {
        struct stream_builder twice = b;
        D3D12_DEPTH_STENCIL_DESC ds = {0};
        ADD(&twice, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL, ds);
        LOG_MARK();
        CHECK_HR(create_stream(&twice, &state), E_INVALIDARG);
        CHECK_LOG("holds a second DEPTH_STENCIL subobject");
    }
    {
        struct stream_builder unknown = b;
        UINT bogus = 0;
        add_subobject(&unknown, 23, &bogus, sizeof(bogus), 4);
        LOG_MARK();
        CHECK_HR(create_stream(&unknown, &state), E_INVALIDARG);
        CHECK_LOG("has type 23, which is not a D3D12_PIPELINE_STATE_SUBOBJECT_TYPE");
    }
    {
        struct stream_builder meshy = b;
        ADD(&meshy, mesh, vs_code);
        LOG_MARK();
        CHECK_HR(create_stream(&meshy, &state), E_INVALIDARG);
        CHECK_LOG("holds an MS subobject: mesh and amplification shaders are not supported");
    }
    {
        struct stream_builder mixed = b;
        ADD(&mixed, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CS, cs_code);
        LOG_MARK();
        CHECK_HR(create_stream(&mixed, &state), E_INVALIDARG);
        CHECK_LOG("holds a CS and graphics shaders");
    }
    {
        struct stream_builder short_stream = b;
        short_stream.size -= 12;
        LOG_MARK();
        CHECK_HR(create_stream(&short_stream, &state), E_INVALIDARG);
        CHECK_LOG("runs past SizeInBytes");
    }
    {
        /* a compute stream */
        struct stream_builder compute;
        memset(&compute, 0, sizeof(compute));
        ADD(&compute, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_ROOT_SIGNATURE, signature);
        ADD(&compute, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CS, cs_code);
        CHECK_HR(create_stream(&compute, &state), S_OK);
        if (state)
            ID3D12PipelineState_Release(state);
    }
    {
        /* defaults: no formats (no render target), depth on without a format */
        struct stream_builder minimal;
        memset(&minimal, 0, sizeof(minimal));
        ADD(&minimal, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_ROOT_SIGNATURE, signature);
        ADD(&minimal, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VS, vs_code);
        ADD(&minimal, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_INPUT_LAYOUT, layout);
        ADD(&minimal, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PRIMITIVE_TOPOLOGY, topology);
        CHECK_HR(create_stream(&minimal, &state), S_OK);
        if (state)
            ID3D12PipelineState_Release(state);
    }
    ID3D10Blob_Release(cs);
}

int main(void)
{
    D3D12_ROOT_PARAMETER1 parameter;

    harness_init();
    device = harness_create_device();
    memset(&parameter, 0, sizeof(parameter));
    parameter.ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameter.Constants.Num32BitValues = 4;
    signature = harness_root_signature(device, &parameter, 1, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT);
    vs = harness_compile_stage(stage_source, "vs", "vs_5_0");
    ps = harness_compile_stage(stage_source, "ps", "ps_5_0");

    test_blob_semantics();
    test_link_by_semantic();
    test_link_refusals();
    test_visibility_and_deny();
    test_stages();
    test_system_values();
    test_dxbc_stages();
    test_rules();
    test_streams();

    ID3D10Blob_Release(vs);
    ID3D10Blob_Release(ps);
    ID3D12RootSignature_Release(signature);
    harness_release_device(device);
    return harness_finish();
}
