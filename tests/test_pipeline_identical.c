/* A pipeline created from a description identical to a live one's finds that one
 * (docs/design.md, "Pipelines"): CreateComputePipelineState still hands out a new object, with
 * its own reference count, name and private data, and both run the same VkPipelines; releasing
 * either leaves the other working. What counts as identical: the root signature's serialized
 * blob (another root signature object of the same blob finds it too), the shader bytecode, the
 * flags and CreateComputePipelineStateX's limits; a DXBC shader carrying its root signature (no
 * pRootSignature) finds the live pipeline of the same bytecode. Another root signature, other
 * bytecode or other limits make another pipeline. Many threads creating the same description end with one
 * pipeline. Graphics pipelines are found the same way: another pixel shader, blend field, input
 * element, render target format or root signature makes another one. D3D12XSGetPipelineStatistics
 * says which happened. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <d3dcompiler.h>
#include <d3d12_xs.h>

#include "dxbc_writer.h"
#include "harness.h"

#define THREADS 64
#define CREATOR_THREADS 6
#define CREATIONS_PER_THREAD 20

static const char store_source[] =
    "cbuffer Root : register(b0) { uint scale; };\n"
    "RWByteAddressBuffer output : register(u0);\n"
    "[numthreads(64, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, id.x * scale + 1); }\n";
static const char other_source[] =
    "cbuffer Root : register(b0) { uint scale; };\n"
    "RWByteAddressBuffer output : register(u0);\n"
    "[numthreads(64, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, id.x * scale + 2); }\n";

static const GUID test_guid = {0x5d1c2a7e, 0x41b3, 0x4c0f, {0x9a, 0x21, 0x6e, 0x3b, 0x88, 0x10, 0x4f, 0xd2}};

static D3D12XS_PIPELINE_STATISTICS statistics_of(ID3D12Device *device)
{
    D3D12XS_PIPELINE_STATISTICS statistics;
    memset(&statistics, 0, sizeof(statistics));
    CHECK_HR(D3D12XSGetPipelineStatistics(device, &statistics), S_OK);
    return statistics;
}

/* One root constant at b0, one root UAV u0 (visibility: all, or compute only for `other`). */
static ID3D12RootSignature *create_root_signature(ID3D12Device *device, bool other)
{
    D3D12_ROOT_PARAMETER1 parameters[2];
    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 1;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    return harness_root_signature(device, parameters, 2,
            other ? D3D12_ROOT_SIGNATURE_FLAG_DENY_VERTEX_SHADER_ROOT_ACCESS : D3D12_ROOT_SIGNATURE_FLAG_NONE);
}

static ID3D12PipelineState *create_pipeline(ID3D12Device *device, ID3D12RootSignature *signature, ID3D10Blob *code)
{
    D3D12_COMPUTE_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *pipeline = NULL;
    memset(&desc, 0, sizeof(desc));
    desc.pRootSignature = signature;
    desc.CS.pShaderBytecode = ID3D10Blob_GetBufferPointer(code);
    desc.CS.BytecodeLength = ID3D10Blob_GetBufferSize(code);
    CHECK_HR(ID3D12Device_CreateComputePipelineState(device, &desc, &IID_ID3D12PipelineState, (void **)&pipeline), S_OK);
    return pipeline;
}

/* Runs pipeline over THREADS threads with scale and checks every word. */
static void check_runs(ID3D12Device *device, ID3D12CommandQueue *queue, ID3D12RootSignature *signature, ID3D12PipelineState *pipeline,
        uint32_t scale, uint32_t bias, const char *what)
{
    ID3D12Resource *output = harness_uav_buffer(device, THREADS * 4);
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList *l = (ID3D12GraphicsCommandList *)list.list;
    uint32_t data[THREADS];
    unsigned wrong = 0;

    ID3D12GraphicsCommandList_SetComputeRootSignature(l, signature);
    ID3D12GraphicsCommandList_SetPipelineState(l, pipeline);
    ID3D12GraphicsCommandList_SetComputeRoot32BitConstant(l, 0, scale, 0);
    ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(l, 1, ID3D12Resource_GetGPUVirtualAddress(output));
    ID3D12GraphicsCommandList_Dispatch(l, 1, 1, 1);
    harness_execute_and_wait(device, queue, &list);
    harness_read_back(device, queue, output, data, sizeof(data));
    for (uint32_t i = 0; i < THREADS; i++)
        wrong += data[i] != i * scale + bias;
    CHECK_MSG(!wrong, "%s: %u of %u words wrong (word 1 is %u, not %u)", what, wrong, THREADS, data[1], scale + bias);
    harness_release_list(&list);
    ID3D12Resource_Release(output);
}

static void test_identical(ID3D12Device *device, ID3D12CommandQueue *queue, ID3D12RootSignature *signature, ID3D10Blob *code)
{
    D3D12XS_PIPELINE_STATISTICS before = statistics_of(device), after;
    ID3D12PipelineState *first = create_pipeline(device, signature, code), *second;
    uint32_t value = 42, size = sizeof(value);
    LOG_MARK();

    after = statistics_of(device);
    CHECK(after.LivePipelines == before.LivePipelines + 1 && after.VkPipelinesCreated > before.VkPipelinesCreated);
    before = after;
    second = create_pipeline(device, signature, code);
    after = statistics_of(device);
    CHECK_MSG(second && second != first, "the second creation must hand out a new object");
    CHECK_MSG(after.LivePipelines == before.LivePipelines && after.VkPipelinesCreated == before.VkPipelinesCreated
            && after.IdenticalPipelinesFound == before.IdenticalPipelinesFound + 1,
            "an identical description made a pipeline (live %llu -> %llu, VkPipelines %llu -> %llu, found %llu -> %llu)",
            (unsigned long long)before.LivePipelines, (unsigned long long)after.LivePipelines,
            (unsigned long long)before.VkPipelinesCreated, (unsigned long long)after.VkPipelinesCreated,
            (unsigned long long)before.IdenticalPipelinesFound, (unsigned long long)after.IdenticalPipelinesFound);
    if (!first || !second)
        return;

    /* Each object is its own: reference count, private data, name. */
    CHECK(ID3D12PipelineState_AddRef(first) == 2);
    CHECK(ID3D12PipelineState_AddRef(second) == 2);
    CHECK(ID3D12PipelineState_Release(first) == 1);
    CHECK(ID3D12PipelineState_Release(second) == 1);
    CHECK_HR(ID3D12PipelineState_SetPrivateData(first, &test_guid, sizeof(value), &value), S_OK);
    CHECK_HR(ID3D12PipelineState_GetPrivateData(second, &test_guid, &size, &value), DXGI_ERROR_NOT_FOUND);
    size = sizeof(value);
    value = 0;
    CHECK_HR(ID3D12PipelineState_GetPrivateData(first, &test_guid, &size, &value), S_OK);
    CHECK(value == 42);
    CHECK_HR(ID3D12PipelineState_SetName(second, L"second"), S_OK);

    check_runs(device, queue, signature, first, 3, 1, "the first object");
    check_runs(device, queue, signature, second, 5, 1, "the second object");
    /* Releasing the first leaves the pipeline to the second, and a third finds it again. */
    CHECK(ID3D12PipelineState_Release(first) == 0);
    CHECK(statistics_of(device).LivePipelines == before.LivePipelines);
    check_runs(device, queue, signature, second, 7, 1, "the second object after the first's release");
    first = create_pipeline(device, signature, code);
    CHECK(statistics_of(device).IdenticalPipelinesFound == after.IdenticalPipelinesFound + 1);
    CHECK(ID3D12PipelineState_Release(second) == 0);
    check_runs(device, queue, signature, first, 9, 1, "a third object after the second's release");
    ID3D12PipelineState_Release(first);
    /* The last object took the pipeline out of the table: the next creation makes one. */
    before = statistics_of(device);
    CHECK(before.LivePipelines == after.LivePipelines - 1);
    first = create_pipeline(device, signature, code);
    after = statistics_of(device);
    CHECK(after.IdenticalPipelinesFound == before.IdenticalPipelinesFound && after.VkPipelinesCreated > before.VkPipelinesCreated);
    ID3D12PipelineState_Release(first);
    CHECK_NO_LOG();
}

static void test_different(ID3D12Device *device, ID3D12CommandQueue *queue, ID3D12RootSignature *signature, ID3D10Blob *code,
        ID3D10Blob *other_code)
{
    ID3D12RootSignature *same_blob = create_root_signature(device, false), *other_signature = create_root_signature(device, true);
    ID3D12PipelineState *base = create_pipeline(device, signature, code), *pipeline;
    D3D12XS_PIPELINE_STATISTICS before = statistics_of(device), after;
    D3D12_COMPUTE_PIPELINE_STATE_DESC desc;
    D3D12XBOX_EXTENDED_COMPUTE_PIPELINE_STATE_DESC extension;
    ID3D12PipelineState *limited[3] = {NULL, NULL, NULL};
    LOG_MARK();

    /* Another root signature object of the same blob: the same pipeline. */
    pipeline = create_pipeline(device, same_blob, code);
    after = statistics_of(device);
    CHECK_MSG(after.LivePipelines == before.LivePipelines && after.IdenticalPipelinesFound == before.IdenticalPipelinesFound + 1,
            "a root signature of the same blob made another pipeline");
    check_runs(device, queue, same_blob, pipeline, 2, 1, "through an equal root signature");
    ID3D12PipelineState_Release(pipeline);

    /* Another root signature (another blob): another pipeline. */
    before = statistics_of(device);
    pipeline = create_pipeline(device, other_signature, code);
    after = statistics_of(device);
    CHECK_MSG(after.LivePipelines == before.LivePipelines + 1 && after.IdenticalPipelinesFound == before.IdenticalPipelinesFound,
            "another root signature found the live pipeline");
    check_runs(device, queue, other_signature, pipeline, 2, 1, "with another root signature");
    ID3D12PipelineState_Release(pipeline);

    /* Other bytecode: another pipeline, which computes its own words. */
    before = statistics_of(device);
    pipeline = create_pipeline(device, signature, other_code);
    after = statistics_of(device);
    CHECK_MSG(after.LivePipelines == before.LivePipelines + 1 && after.IdenticalPipelinesFound == before.IdenticalPipelinesFound,
            "other bytecode found the live pipeline");
    check_runs(device, queue, signature, pipeline, 2, 2, "other bytecode");
    check_runs(device, queue, signature, base, 2, 1, "the first bytecode beside it");
    ID3D12PipelineState_Release(pipeline);

    /* CreateComputePipelineStateX: without extensions it is CreateComputePipelineState's
     * pipeline; its limits are part of the description. */
    memset(&desc, 0, sizeof(desc));
    desc.pRootSignature = signature;
    desc.CS.pShaderBytecode = ID3D10Blob_GetBufferPointer(code);
    desc.CS.BytecodeLength = ID3D10Blob_GetBufferSize(code);
    memset(&extension, 0, sizeof(extension));
    extension.Type = D3D12XBOX_EXTENDED_COMPUTE_PIPELINE_STATE_TYPE_COMPUTE_SHADER_LIMITS;
    D3D12XboxInitializeDefaultComputeShaderLimits(&extension.ComputeShaderLimits);
    before = statistics_of(device);
    CHECK_HR(ID3D12Device_CreateComputePipelineStateX(device, &desc, 0, NULL, &IID_ID3D12PipelineState, (void **)&limited[0]), S_OK);
    CHECK_HR(ID3D12Device_CreateComputePipelineStateX(device, &desc, 1, &extension, &IID_ID3D12PipelineState, (void **)&limited[1]), S_OK);
    extension.ComputeShaderLimits.MaxWavesPerSimd = 4;
    CHECK_HR(ID3D12Device_CreateComputePipelineStateX(device, &desc, 1, &extension, &IID_ID3D12PipelineState, (void **)&limited[2]), S_OK);
    after = statistics_of(device);
    CHECK_MSG(after.LivePipelines == before.LivePipelines + 2 && after.IdenticalPipelinesFound == before.IdenticalPipelinesFound + 1,
            "CreateComputePipelineStateX: %llu pipelines made, %llu found (2 and 1 expected)",
            (unsigned long long)(after.LivePipelines - before.LivePipelines),
            (unsigned long long)(after.IdenticalPipelinesFound - before.IdenticalPipelinesFound));
    for (int i = 0; i < 3; i++)
        if (limited[i])
            ID3D12PipelineState_Release(limited[i]);

    ID3D12PipelineState_Release(base);
    ID3D12RootSignature_Release(same_blob);
    ID3D12RootSignature_Release(other_signature);
    CHECK_NO_LOG();
}

/* u0.Store(id * 4, id * cb0[0].x + 1) in shader model 5.0, carrying root_signature (RTS0):
 *   dcl_constantbuffer cb0[1]; dcl_uav_raw u0; dcl_input vThreadID.x; dcl_temps 1;
 *   dcl_thread_group 64, 1, 1; imad r0.x, vThreadID.x, cb0[0].x, l(1);
 *   ishl r0.y, vThreadID.x, l(2); store_raw u0.x, r0.y, r0.x; ret */
static void *dxbc_with_root_signature(ID3DBlob *root_signature, size_t *size)
{
    static const struct dxbc_instruction program[] = {
        {DXBC_OP_DCL_CONSTANT_BUFFER, 1, {DXBC_CB_DECL(0, 1)}, 0, {0}},
        {DXBC_OP_DCL_UAV_RAW, 1, {DXBC_RESOURCE(DXBC_UAV, 0)}, 0, {0}},
        {DXBC_OP_DCL_INPUT, 1, {DXBC_DST(DXBC_THREAD_ID, 0, DXBC_X)}, 0, {0}},
        {DXBC_OP_DCL_TEMPS, 0, {{0}}, 1, {1}},
        {DXBC_OP_DCL_THREAD_GROUP, 0, {{0}}, 3, {THREADS, 1, 1}},
        {DXBC_OP_IMAD, 4, {DXBC_DST(DXBC_TEMP, 0, DXBC_X), DXBC_SRC(DXBC_THREAD_ID, 0, 0), DXBC_CB_SRC(0, 0, 0), DXBC_IMM(1)}, 0, {0}},
        {DXBC_OP_ISHL, 3, {DXBC_DST(DXBC_TEMP, 0, DXBC_Y), DXBC_SRC(DXBC_THREAD_ID, 0, 0), DXBC_IMM(2)}, 0, {0}},
        {DXBC_OP_STORE_RAW, 3, {DXBC_DST(DXBC_UAV, 0, DXBC_X), DXBC_SRC(DXBC_TEMP, 0, 1), DXBC_SRC(DXBC_TEMP, 0, 0)}, 0, {0}},
        {DXBC_OP_RET, 0, {{0}}, 0, {0}},
    };
    return dxbc_write_shader_with_root_signature(DXBC_COMPUTE_SHADER, 5, 0, program, sizeof(program) / sizeof(program[0]),
            ID3D10Blob_GetBufferPointer(root_signature), ID3D10Blob_GetBufferSize(root_signature), size);
}

/* pRootSignature NULL: the shader's RTS0 part is the root signature, and the second creation
 * finds the first's pipeline without making a root signature. */
static void test_embedded_root_signature(ID3D12Device *device, ID3D12CommandQueue *queue, ID3D12RootSignature *signature)
{
    D3D12_ROOT_PARAMETER1 parameters[2];
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC root_desc;
    D3D12_COMPUTE_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *pipelines[2] = {NULL, NULL};
    D3D12XS_PIPELINE_STATISTICS before, after;
    ID3DBlob *blob = NULL, *errors = NULL;
    size_t size = 0;
    void *dxbc;
    LOG_MARK();

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 1;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    memset(&root_desc, 0, sizeof(root_desc));
    root_desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    root_desc.Desc_1_1.NumParameters = 2;
    root_desc.Desc_1_1.pParameters = parameters;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&root_desc, &blob, &errors), S_OK);
    if (!blob)
        return;
    dxbc = dxbc_with_root_signature(blob, &size);
    CHECK(dxbc != NULL);
    memset(&desc, 0, sizeof(desc));
    desc.CS.pShaderBytecode = dxbc;
    desc.CS.BytecodeLength = size;
    before = statistics_of(device);
    for (int i = 0; i < 2 && dxbc; i++)
        CHECK_HR(ID3D12Device_CreateComputePipelineState(device, &desc, &IID_ID3D12PipelineState, (void **)&pipelines[i]), S_OK);
    after = statistics_of(device);
    CHECK_MSG(after.LivePipelines == before.LivePipelines + 1 && after.IdenticalPipelinesFound == before.IdenticalPipelinesFound + 1,
            "two creations of a shader with its root signature: %llu pipelines made, %llu found (1 and 1 expected)",
            (unsigned long long)(after.LivePipelines - before.LivePipelines),
            (unsigned long long)(after.IdenticalPipelinesFound - before.IdenticalPipelinesFound));
    if (pipelines[0] && pipelines[1]) {
        /* the shader's root signature has the layout of `signature` */
        ID3D12PipelineState_Release(pipelines[0]);
        check_runs(device, queue, signature, pipelines[1], 6, 1, "a pipeline of a shader's own root signature");
        ID3D12PipelineState_Release(pipelines[1]);
    }
    CHECK(statistics_of(device).LivePipelines == before.LivePipelines);
    CHECK_NO_LOG();
    free(dxbc);
    ID3D10Blob_Release(blob);
}

static const char graphics_source[] =
    "cbuffer Root : register(b0) { float4 color; };\n"
    "float4 vs(float2 pos : POSITION) : SV_Position { return float4(pos, 0.5, 1); }\n"
    "float4 ps() : SV_Target { return color; }\n"
    "float4 other_ps() : SV_Target { return color * 0.5; }\n";

static const D3D12_INPUT_ELEMENT_DESC vertex_layout[] = {
    {"POSITION", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
};

/* Creates desc and checks whether it found a live pipeline (found) or made one. */
static ID3D12PipelineState *create_graphics(ID3D12Device *device, const D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc, bool found,
        const char *what)
{
    D3D12XS_PIPELINE_STATISTICS before = statistics_of(device), after;
    ID3D12PipelineState *pipeline = NULL;

    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(device, desc, &IID_ID3D12PipelineState, (void **)&pipeline), S_OK);
    after = statistics_of(device);
    if (found)
        CHECK_MSG(after.LivePipelines == before.LivePipelines && after.VkPipelinesCreated == before.VkPipelinesCreated
                && after.IdenticalPipelinesFound == before.IdenticalPipelinesFound + 1, "%s made a pipeline", what);
    else
        CHECK_MSG(after.LivePipelines == before.LivePipelines + 1 && after.VkPipelinesCreated == before.VkPipelinesCreated + 1
                && after.IdenticalPipelinesFound == before.IdenticalPipelinesFound, "%s found the live pipeline", what);
    return pipeline;
}

/* Graphics pipelines: the root signature (by blob), every stage's bytes and every state are the
 * description; each kind of difference makes another pipeline. */
static void test_graphics(ID3D12Device *device)
{
    ID3D10Blob *vs = harness_compile_stage(graphics_source, "vs", "vs_5_0"), *ps = harness_compile_stage(graphics_source, "ps", "ps_5_0");
    ID3D10Blob *other_ps = harness_compile_stage(graphics_source, "other_ps", "ps_5_0");
    D3D12_INPUT_ELEMENT_DESC other_layout[1];
    D3D12_ROOT_PARAMETER1 parameter;
    ID3D12RootSignature *signature, *same_blob, *other_signature;
    D3D12_GRAPHICS_PIPELINE_STATE_DESC base, desc;
    ID3D12PipelineState *first, *pipelines[8];
    D3D12XS_PIPELINE_STATISTICS before;
    unsigned count = 0;
    LOG_MARK();

    memset(&parameter, 0, sizeof(parameter));
    parameter.ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameter.Constants.Num32BitValues = 4;
    signature = harness_root_signature(device, &parameter, 1, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT);
    same_blob = harness_root_signature(device, &parameter, 1, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT);
    other_signature = harness_root_signature(device, &parameter, 1, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT
            | D3D12_ROOT_SIGNATURE_FLAG_DENY_HULL_SHADER_ROOT_ACCESS);
    if (!vs || !ps || !other_ps || !signature || !same_blob || !other_signature)
        return;
    harness_graphics_desc(&base, signature, vs, ps);
    base.InputLayout.pInputElementDescs = vertex_layout;
    base.InputLayout.NumElements = 1;
    before = statistics_of(device);
    first = create_graphics(device, &base, false, "the first description");

    /* Identical: the same description, a copy of it with its own input layout array and
     * another root signature object of the same blob. */
    pipelines[count++] = create_graphics(device, &base, true, "the same description");
    desc = base;
    memcpy(other_layout, vertex_layout, sizeof(vertex_layout));
    desc.InputLayout.pInputElementDescs = other_layout;
    desc.NodeMask = 1;
    pipelines[count++] = create_graphics(device, &desc, true, "a copy of the description (node mask 1)");
    desc = base;
    desc.pRootSignature = same_blob;
    pipelines[count++] = create_graphics(device, &desc, true, "a root signature of the same blob");
    CHECK(pipelines[0] != first);

    /* Each difference: another pipeline. */
    desc = base;
    desc.PS.pShaderBytecode = ID3D10Blob_GetBufferPointer(other_ps);
    desc.PS.BytecodeLength = ID3D10Blob_GetBufferSize(other_ps);
    pipelines[count++] = create_graphics(device, &desc, false, "another pixel shader");
    desc = base;
    desc.BlendState.RenderTarget[0].RenderTargetWriteMask = D3D12_COLOR_WRITE_ENABLE_RED;
    pipelines[count++] = create_graphics(device, &desc, false, "another blend write mask");
    desc = base;
    other_layout[0].Format = DXGI_FORMAT_R16G16_FLOAT;
    desc.InputLayout.pInputElementDescs = other_layout;
    pipelines[count++] = create_graphics(device, &desc, false, "another input element format");
    desc = base;
    desc.RTVFormats[0] = DXGI_FORMAT_B8G8R8A8_UNORM;
    pipelines[count++] = create_graphics(device, &desc, false, "another render target format");
    desc = base;
    desc.pRootSignature = other_signature;
    pipelines[count++] = create_graphics(device, &desc, false, "another root signature");

    for (unsigned i = 0; i < count; i++)
        if (pipelines[i])
            ID3D12PipelineState_Release(pipelines[i]);
    if (first)
        ID3D12PipelineState_Release(first);
    CHECK(statistics_of(device).LivePipelines == before.LivePipelines);
    CHECK_NO_LOG();
    ID3D12RootSignature_Release(signature);
    ID3D12RootSignature_Release(same_blob);
    ID3D12RootSignature_Release(other_signature);
    ID3D10Blob_Release(vs);
    ID3D10Blob_Release(ps);
    ID3D10Blob_Release(other_ps);
}

struct creator {
    ID3D12Device *device;
    ID3D12RootSignature *signature;
    ID3D10Blob *code;
    ID3D12PipelineState *kept;
    unsigned failed;
};

/* Creates and releases the description, keeping the last one. */
static void *creator_main(void *argument)
{
    struct creator *c = argument;
    D3D12_COMPUTE_PIPELINE_STATE_DESC desc;
    memset(&desc, 0, sizeof(desc));
    desc.pRootSignature = c->signature;
    desc.CS.pShaderBytecode = ID3D10Blob_GetBufferPointer(c->code);
    desc.CS.BytecodeLength = ID3D10Blob_GetBufferSize(c->code);
    for (int i = 0; i < CREATIONS_PER_THREAD; i++) {
        ID3D12PipelineState *pipeline = NULL;
        if (FAILED(ID3D12Device_CreateComputePipelineState(c->device, &desc, &IID_ID3D12PipelineState, (void **)&pipeline)) || !pipeline) {
            c->failed++;
            continue;
        }
        if (c->kept)
            ID3D12PipelineState_Release(c->kept);
        c->kept = pipeline;
    }
    return NULL;
}

static void test_threads(ID3D12Device *device, ID3D12CommandQueue *queue, ID3D12RootSignature *signature, ID3D10Blob *code)
{
    struct creator creators[CREATOR_THREADS];
    pthread_t threads[CREATOR_THREADS];
    D3D12XS_PIPELINE_STATISTICS before = statistics_of(device), after;
    LOG_MARK();

    for (int i = 0; i < CREATOR_THREADS; i++) {
        creators[i] = (struct creator){device, signature, code, NULL, 0};
        CHECK(pthread_create(&threads[i], NULL, creator_main, &creators[i]) == 0);
    }
    for (int i = 0; i < CREATOR_THREADS; i++)
        pthread_join(threads[i], NULL);
    after = statistics_of(device);
    CHECK_MSG(after.LivePipelines == before.LivePipelines + 1, "%d threads creating one description left %llu pipelines live",
            CREATOR_THREADS, (unsigned long long)(after.LivePipelines - before.LivePipelines));
    for (int i = 0; i < CREATOR_THREADS; i++) {
        CHECK_MSG(!creators[i].failed, "thread %d: %u creations failed", i, creators[i].failed);
        if (creators[i].kept) {
            if (i == 0 || i == CREATOR_THREADS - 1)
                check_runs(device, queue, signature, creators[i].kept, 4, 1, "a pipeline made on another thread");
            ID3D12PipelineState_Release(creators[i].kept);
        }
    }
    CHECK(statistics_of(device).LivePipelines == before.LivePipelines);
    CHECK_NO_LOG();
}

int main(void)
{
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12RootSignature *signature;
    ID3D10Blob *code, *other_code;

    harness_init();
    device = harness_create_device();
    queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    signature = create_root_signature(device, false);
    code = harness_compile(store_source, 0);
    other_code = harness_compile(other_source, 0);
    if (signature && code && other_code) {
        test_identical(device, queue, signature, code);
        test_different(device, queue, signature, code, other_code);
        test_threads(device, queue, signature, code);
        test_embedded_root_signature(device, queue, signature);
        test_graphics(device);
    }
    CHECK(statistics_of(device).LivePipelines == 0);
    if (code)
        ID3D10Blob_Release(code);
    if (other_code)
        ID3D10Blob_Release(other_code);
    if (signature)
        ID3D12RootSignature_Release(signature);
    ID3D12CommandQueue_Release(queue);
    harness_release_device(device);
    return harness_finish();
}
