/* Recording never builds a pipeline (docs/design.md, "Pipelines"): CreateComputePipelineState
 * makes every VkPipeline its shader can need, and D3D12XSGetPipelineStatistics counts them.
 *
 * - What creation makes: a shader writing a root UAV gets two (Dispatch's, and DispatchX's for
 *   start groups and thread limits), a third where it declares a UAV globallycoherent
 *   (DISABLE_VOLATILE's coherent variant), from HLSL and from DXBC alike; one that also reads a
 *   root raw buffer with Load4 another (root views off 16-byte boundaries); one with no storage
 *   at all two whatever its source.
 * - Recording a list that runs every variant (Dispatch; a root SRV 4 and 8 bytes off a 16-byte
 *   boundary; DispatchX with a start group, a partial group, DISABLE_VOLATILE, a start group with
 *   a misaligned view) makes none, and each dispatch computes its words.
 * - A DispatchX its shader cannot run (a partial group of a shader with a group barrier) is a
 *   recording error naming why, and builds nothing either.
 * - D3D12XSGetPipelineStatistics' argument checks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include <d3dcompiler.h>
#include <d3d12_xs.h>

#include "dxbc_writer.h"
#include "harness.h"

#define GROUP 64
#define GROUPS 4
#define THREADS (GROUP * GROUPS)
#define INPUT_WORDS (4 * THREADS + 16)

/* Thread id.x - first copies the input's 16 bytes at element i (the root SRV's view, wherever it
 * starts) to its output element, plus 1. */
static const char copy_source[] =
    "cbuffer Grid : register(b0) { uint first; };\n"
    "ByteAddressBuffer input : register(t0);\n"
    "RWByteAddressBuffer output : register(u0);\n"
    "[numthreads(64, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID)\n"
    "{\n"
    "    uint i = id.x - first;\n"
    "    output.Store4(i * 16, input.Load4(i * 16) + 1);\n"
    "}\n";

static const char store_source[] =
    "RWByteAddressBuffer output : register(u0);\n"
    "[numthreads(64, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, id.x); }\n";

static const char coherent_source[] =
    "globallycoherent RWByteAddressBuffer output : register(u0);\n"
    "[numthreads(64, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, id.x); }\n";

static const char barrier_source[] =
    "RWByteAddressBuffer output : register(u0);\n"
    "groupshared uint shared_word;\n"
    "[numthreads(64, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID, uint index : SV_GroupIndex)\n"
    "{\n"
    "    if (index == 0) shared_word = 7;\n"
    "    GroupMemoryBarrierWithGroupSync();\n"
    "    output.Store(id.x * 4, shared_word);\n"
    "}\n";

/* A compute shader that does nothing: no storage for the coherent variant to decorate. */
static const uint32_t empty_spirv[] = {
    SpvMagicNumber, 0x10000, 0, 5, 0,
    2u << 16 | SpvOpCapability, SpvCapabilityShader,
    3u << 16 | SpvOpMemoryModel, SpvAddressingModelLogical, SpvMemoryModelGLSL450,
    5u << 16 | SpvOpEntryPoint, SpvExecutionModelGLCompute, 1, 0x6e69616d /* "main" */, 0,
    6u << 16 | SpvOpExecutionMode, 1, SpvExecutionModeLocalSize, 64, 1, 1,
    2u << 16 | SpvOpTypeVoid, 2,
    3u << 16 | SpvOpTypeFunction, 3, 2,
    5u << 16 | SpvOpFunction, 2, 1, SpvFunctionControlMaskNone, 3,
    2u << 16 | SpvOpLabel, 4,
    1u << 16 | SpvOpReturn,
    1u << 16 | SpvOpFunctionEnd,
};

/* store_source in shader model 5.0, its UAV declared globally coherent (dcl_uav_raw_glc) or not:
 *   dcl_uav_raw u0; dcl_input vThreadID.x; dcl_temps 1; dcl_thread_group 64, 1, 1
 *   ishl r0.x, vThreadID.x, l(2); store_raw u0.x, r0.x, vThreadID.x; ret */
static void *dxbc_store(bool globally_coherent, size_t *size)
{
    const struct dxbc_instruction program[] = {
        {DXBC_OP_DCL_UAV_RAW | (globally_coherent ? 1u << 16 : 0), 1, {DXBC_RESOURCE(DXBC_UAV, 0)}, 0, {0}},
        {DXBC_OP_DCL_INPUT, 1, {DXBC_DST(DXBC_THREAD_ID, 0, DXBC_X)}, 0, {0}},
        {DXBC_OP_DCL_TEMPS, 0, {{0}}, 1, {1}},
        {DXBC_OP_DCL_THREAD_GROUP, 0, {{0}}, 3, {64, 1, 1}},
        {DXBC_OP_ISHL, 3, {DXBC_DST(DXBC_TEMP, 0, DXBC_X), DXBC_SRC(DXBC_THREAD_ID, 0, 0), DXBC_IMM(2)}, 0, {0}},
        {DXBC_OP_STORE_RAW, 3, {DXBC_DST(DXBC_UAV, 0, DXBC_X), DXBC_SRC(DXBC_TEMP, 0, 0), DXBC_SRC(DXBC_THREAD_ID, 0, 0)}, 0, {0}},
        {DXBC_OP_RET, 0, {{0}}, 0, {0}},
    };
    return dxbc_write_shader(DXBC_COMPUTE_SHADER, 5, 0, program, sizeof(program) / sizeof(program[0]), size);
}

static uint64_t vk_pipelines_created(ID3D12Device *device)
{
    D3D12XS_PIPELINE_STATISTICS statistics;
    memset(&statistics, 0, sizeof(statistics));
    CHECK_HR(D3D12XSGetPipelineStatistics(device, &statistics), S_OK);
    return statistics.VkPipelinesCreated;
}

/* Parameter 0: one constant at b0; 1: root UAV u0; 2: root SRV t0. */
static ID3D12RootSignature *create_root_signature(ID3D12Device *device)
{
    D3D12_ROOT_PARAMETER1 parameters[3];
    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 1;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    parameters[2].ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV;
    return harness_root_signature(device, parameters, 3, D3D12_ROOT_SIGNATURE_FLAG_NONE);
}

static ID3D12PipelineState *pipeline_from_hlsl(ID3D12Device *device, ID3D12RootSignature *signature, const char *source)
{
    ID3D10Blob *code = harness_compile(source, 0);
    ID3D12PipelineState *pipeline = NULL;
    if (code) {
        pipeline = harness_compute_pipeline(device, signature, code);
        ID3D10Blob_Release(code);
    }
    return pipeline;
}

/* The VkPipelines CreateComputePipelineState made for the shader. */
static uint64_t vk_pipelines_of(ID3D12Device *device, ID3D12RootSignature *signature, const void *code, size_t size)
{
    D3D12_COMPUTE_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *pipeline = NULL;
    uint64_t before = vk_pipelines_created(device);

    memset(&desc, 0, sizeof(desc));
    desc.pRootSignature = signature;
    desc.CS.pShaderBytecode = code;
    desc.CS.BytecodeLength = size;
    CHECK_HR(ID3D12Device_CreateComputePipelineState(device, &desc, &IID_ID3D12PipelineState, (void **)&pipeline), S_OK);
    if (pipeline)
        ID3D12PipelineState_Release(pipeline);
    return vk_pipelines_created(device) - before;
}

static void test_what_creation_makes(ID3D12Device *device, ID3D12RootSignature *signature)
{
    static const struct {
        const char *name, *source;
        uint64_t expected;
    } shaders[] = {
        {"a root UAV store", store_source, 2},
        {"a globallycoherent root UAV store", coherent_source, 3},
        {"a root raw buffer read with Load4", copy_source, 3},
    };
    LOG_MARK();

    for (unsigned i = 0; i < sizeof(shaders) / sizeof(shaders[0]); i++) {
        ID3D10Blob *code = harness_compile(shaders[i].source, 0);
        uint64_t made;
        if (!code)
            continue;
        made = vk_pipelines_of(device, signature, ID3D10Blob_GetBufferPointer(code), ID3D10Blob_GetBufferSize(code));
        CHECK_MSG(made == shaders[i].expected, "%s made %llu VkPipelines (%llu expected)", shaders[i].name, (unsigned long long)made,
                (unsigned long long)shaders[i].expected);
        ID3D10Blob_Release(code);
    }
    for (int coherent = 0; coherent < 2; coherent++) {
        size_t size = 0;
        void *dxbc = dxbc_store(coherent, &size);
        uint64_t made;
        CHECK(dxbc != NULL);
        if (!dxbc)
            continue;
        made = vk_pipelines_of(device, signature, dxbc, size);
        CHECK_MSG(made == 2u + coherent, "a DXBC root UAV store%s made %llu VkPipelines (%u expected)", coherent ? " (_glc)" : "",
                (unsigned long long)made, 2 + coherent);
        free(dxbc);
    }
    CHECK_MSG(vk_pipelines_of(device, signature, empty_spirv, sizeof(empty_spirv)) == 2, "a shader without storage made other than 2 "
            "VkPipelines");
    CHECK_NO_LOG();
}

/* One dispatch of the copy pipeline: the input view `view_offset` bytes into the input, its
 * output, and how it is dispatched. */
struct copy_case {
    const char *name;
    uint32_t view_offset;
    D3D12XBOX_DISPATCH_FLAGS flags; /* ~0u: Dispatch */
    uint32_t start_group;
    uint32_t count;                 /* groups, or threads with USE_THREAD_DIMENSIONS */
    uint32_t elements;              /* output elements written: the threads that ran */
};

static void test_recording_builds_nothing(ID3D12Device *device, ID3D12CommandQueue *queue, ID3D12RootSignature *signature)
{
    static const struct copy_case cases[] = {
        {"Dispatch", 0, ~0u, 0, GROUPS, THREADS},
        {"Dispatch, view at 4 bytes", 4, ~0u, 0, GROUPS, THREADS},
        {"Dispatch, view at 8 bytes", 8, ~0u, 0, GROUPS, THREADS},
        {"DispatchX, start group 2", 0, D3D12XBOX_DISPATCH_FLAG_NONE, 2, GROUPS, THREADS},
        {"DispatchX, 250 threads", 0, D3D12XBOX_DISPATCH_FLAG_USE_THREAD_DIMENSIONS, 0, 250, 250},
        {"DispatchX, 250 threads from start group 3", 12, D3D12XBOX_DISPATCH_FLAG_USE_THREAD_DIMENSIONS, 3, 250, 250},
        {"DispatchX, DISABLE_VOLATILE", 0, D3D12XBOX_DISPATCH_FLAG_DISABLE_VOLATILE_VECTOR_L1, 0, GROUPS, THREADS},
        {"DispatchX, DISABLE_VOLATILE from start group 1, view at 4", 4,
                D3D12XBOX_DISPATCH_FLAG_DISABLE_VOLATILE_SCALAR_L1 | D3D12XBOX_DISPATCH_FLAG_USE_THREAD_DIMENSIONS, 1, 100, 100},
        {"Dispatch after the variants", 0, ~0u, 0, GROUPS, THREADS},
    };
    enum { CASES = sizeof(cases) / sizeof(cases[0]) };
    ID3D12PipelineState *pipeline = pipeline_from_hlsl(device, signature, copy_source);
    ID3D12Resource *input = harness_create_buffer(device, D3D12_HEAP_TYPE_UPLOAD, INPUT_WORDS * 4, D3D12_RESOURCE_STATE_GENERIC_READ);
    ID3D12Resource *outputs[CASES];
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList *l = (ID3D12GraphicsCommandList *)list.list;
    static uint32_t data[4 * THREADS];
    uint32_t *words = NULL;
    uint64_t before;
    LOG_MARK();

    if (!pipeline || !input)
        return;
    CHECK_HR(ID3D12Resource_Map(input, 0, NULL, (void **)&words), S_OK);
    for (uint32_t i = 0; i < INPUT_WORDS; i++)
        words[i] = i * 3;
    ID3D12Resource_Unmap(input, 0, NULL);

    before = vk_pipelines_created(device);
    ID3D12GraphicsCommandList_SetComputeRootSignature(l, signature);
    ID3D12GraphicsCommandList_SetPipelineState(l, pipeline);
    for (unsigned c = 0; c < CASES; c++) {
        const struct copy_case *k = &cases[c];
        outputs[c] = harness_uav_buffer(device, sizeof(data));
        ID3D12GraphicsCommandList_SetComputeRoot32BitConstant(l, 0, k->start_group * GROUP, 0);
        ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(l, 1, ID3D12Resource_GetGPUVirtualAddress(outputs[c]));
        ID3D12GraphicsCommandList_SetComputeRootShaderResourceView(l, 2, ID3D12Resource_GetGPUVirtualAddress(input) + k->view_offset);
        if (k->flags == ~0u) {
            ID3D12GraphicsCommandList_Dispatch(l, k->count, 1, 1);
        } else {
            CHECK_HR(D3D12XSSetDispatchStartGroup(l, k->start_group, 0, 0), S_OK);
            ID3D12GraphicsCommandList_DispatchX(l, k->count, 1, 1, k->flags);
        }
    }
    CHECK_MSG(vk_pipelines_created(device) == before, "recording made %llu VkPipelines (none expected)",
            (unsigned long long)(vk_pipelines_created(device) - before));
    harness_execute_and_wait(device, queue, &list);
    CHECK_NO_LOG();
    for (unsigned c = 0; c < CASES; c++) {
        unsigned wrong = 0, first_wrong = 0;
        harness_read_back(device, queue, outputs[c], data, sizeof(data));
        for (uint32_t w = 0; w < 4 * THREADS; w++) {
            uint32_t expected = w < 4 * cases[c].elements ? (w + cases[c].view_offset / 4) * 3 + 1 : 0;
            if (data[w] != expected && !wrong++)
                first_wrong = w;
        }
        CHECK_MSG(!wrong, "%s: %u of %u words wrong (word %u is %u, not %u)", cases[c].name, wrong, 4 * THREADS, first_wrong,
                data[first_wrong], first_wrong < 4 * cases[c].elements ? (first_wrong + cases[c].view_offset / 4) * 3 + 1 : 0);
        ID3D12Resource_Release(outputs[c]);
    }
    CHECK(vk_pipelines_created(device) == before);
    harness_release_list(&list);
    ID3D12Resource_Release(input);
    ID3D12PipelineState_Release(pipeline);
}

/* A globallycoherent shader's coherent DispatchX variant runs, made at creation too. */
static void test_coherent_runs(ID3D12Device *device, ID3D12CommandQueue *queue, ID3D12RootSignature *signature)
{
    ID3D12PipelineState *pipeline = pipeline_from_hlsl(device, signature, coherent_source);
    ID3D12Resource *output = harness_uav_buffer(device, 4 * THREADS);
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList *l = (ID3D12GraphicsCommandList *)list.list;
    uint64_t before = vk_pipelines_created(device);
    uint32_t data[THREADS];
    unsigned wrong = 0;
    LOG_MARK();

    if (!pipeline)
        return;
    ID3D12GraphicsCommandList_SetComputeRootSignature(l, signature);
    ID3D12GraphicsCommandList_SetPipelineState(l, pipeline);
    ID3D12GraphicsCommandList_SetComputeRoot32BitConstant(l, 0, 0, 0);
    ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(l, 1, ID3D12Resource_GetGPUVirtualAddress(output));
    ID3D12GraphicsCommandList_DispatchX(l, 1, 1, 1, D3D12XBOX_DISPATCH_FLAG_DISABLE_VOLATILE_VECTOR_L1);
    CHECK_HR(D3D12XSSetDispatchStartGroup(l, 1, 0, 0), S_OK);
    ID3D12GraphicsCommandList_DispatchX(l, THREADS - GROUP - 3, 1, 1,
            D3D12XBOX_DISPATCH_FLAG_DISABLE_VOLATILE_SCALAR_L1 | D3D12XBOX_DISPATCH_FLAG_USE_THREAD_DIMENSIONS);
    CHECK(vk_pipelines_created(device) == before);
    harness_execute_and_wait(device, queue, &list);
    harness_read_back(device, queue, output, data, sizeof(data));
    /* threads 0-63, then 64 on to 64 + THREADS - GROUP - 3 */
    for (uint32_t i = 0; i < THREADS; i++)
        wrong += data[i] != (i < THREADS - 3 ? i : 0);
    CHECK_MSG(!wrong, "coherent variant: %u of %u words wrong", wrong, THREADS);
    CHECK_NO_LOG();
    harness_release_list(&list);
    ID3D12Resource_Release(output);
    ID3D12PipelineState_Release(pipeline);
}

static void test_refused_variant(ID3D12Device *device, ID3D12RootSignature *signature)
{
    ID3D12PipelineState *pipeline = pipeline_from_hlsl(device, signature, barrier_source);
    ID3D12Resource *output = harness_uav_buffer(device, 4 * THREADS);
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList *l = (ID3D12GraphicsCommandList *)list.list;
    uint64_t before = vk_pipelines_created(device);
    LOG_MARK();

    if (!pipeline)
        return;
    ID3D12GraphicsCommandList_SetComputeRootSignature(l, signature);
    ID3D12GraphicsCommandList_SetPipelineState(l, pipeline);
    ID3D12GraphicsCommandList_SetComputeRoot32BitConstant(l, 0, 0, 0);
    ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(l, 1, ID3D12Resource_GetGPUVirtualAddress(output));
    /* whole groups from a start group run (DispatchX's variant without the thread limit) */
    CHECK_HR(D3D12XSSetDispatchStartGroup(l, 1, 0, 0), S_OK);
    ID3D12GraphicsCommandList_DispatchX(l, 2, 1, 1, D3D12XBOX_DISPATCH_FLAG_NONE);
    CHECK_NO_LOG();
    ID3D12GraphicsCommandList_DispatchX(l, 100, 1, 1, D3D12XBOX_DISPATCH_FLAG_USE_THREAD_DIMENSIONS);
    CHECK_LOG("DispatchX", "group barrier", "cannot be run exactly");
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList_Close(l), E_INVALIDARG);
    CHECK_LOG("Close", "group barrier");
    CHECK(vk_pipelines_created(device) == before);
    harness_release_list(&list);
    ID3D12Resource_Release(output);
    ID3D12PipelineState_Release(pipeline);
}

static void test_statistics_arguments(ID3D12Device *device)
{
    D3D12XS_PIPELINE_STATISTICS statistics;
    LOG_MARK();

    CHECK_HR(D3D12XSGetPipelineStatistics(device, NULL), E_INVALIDARG);
    CHECK_LOG("D3D12XSGetPipelineStatistics", "statistics is NULL");
    RELOG_MARK();
    CHECK_HR(D3D12XSGetPipelineStatistics(NULL, &statistics), E_INVALIDARG);
    CHECK_LOG("D3D12XSGetPipelineStatistics", "device is NULL");
}

int main(void)
{
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12RootSignature *signature;
    D3D12XS_PIPELINE_STATISTICS statistics;

    harness_init();
    device = harness_create_device();
    queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    signature = create_root_signature(device);
    if (signature) {
        test_what_creation_makes(device, signature);
        test_recording_builds_nothing(device, queue, signature);
        test_coherent_runs(device, queue, signature);
        test_refused_variant(device, signature);
        ID3D12RootSignature_Release(signature);
    }
    test_statistics_arguments(device);
    CHECK_HR(D3D12XSGetPipelineStatistics(device, &statistics), S_OK);
    CHECK_MSG(statistics.LivePipelines == 0, "%llu pipelines live after all were released", (unsigned long long)statistics.LivePipelines);
    ID3D12CommandQueue_Release(queue);
    harness_release_device(device);
    return harness_finish();
}
