/* Recording never builds a pipeline (docs/design.md, "Pipelines"): CreateComputePipelineState
 * makes every VkPipeline its shader can need, and D3D12XSGetPipelineStatistics counts them.
 *
 * - What creation makes: a shader writing a root UAV gets three (Dispatch's, DispatchX's for
 *   start groups and thread limits, and its coherent one); one that also reads a root raw
 *   buffer with Load4 a fourth (root views off 16-byte boundaries); one with no storage at all
 *   two (its coherent DispatchX variant is its DispatchX one).
 * - Recording a list that runs every variant (Dispatch; a root SRV 4 and 8 bytes off a 16-byte
 *   boundary; DispatchX with a start group, a partial group, DISABLE_VOLATILE, a start group with
 *   a misaligned view) makes none, and each dispatch computes its words.
 * - A DispatchX its shader cannot run (a partial group of a shader with a group barrier) is a
 *   recording error naming why, and builds nothing either.
 * - D3D12XSGetPipelineStatistics' argument checks. */
#include <stdio.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include <d3dcompiler.h>
#include <d3d12_xs.h>

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

static void test_what_creation_makes(ID3D12Device *device, ID3D12RootSignature *signature)
{
    D3D12_COMPUTE_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *pipeline;
    uint64_t before;
    LOG_MARK();

    before = vk_pipelines_created(device);
    pipeline = pipeline_from_hlsl(device, signature, store_source);
    CHECK_MSG(vk_pipelines_created(device) - before == 3, "a root UAV store made %llu VkPipelines (3 expected)",
            (unsigned long long)(vk_pipelines_created(device) - before));
    if (pipeline)
        ID3D12PipelineState_Release(pipeline);

    before = vk_pipelines_created(device);
    pipeline = pipeline_from_hlsl(device, signature, copy_source);
    CHECK_MSG(vk_pipelines_created(device) - before == 4, "a root raw buffer read with Load4 made %llu VkPipelines (4 expected)",
            (unsigned long long)(vk_pipelines_created(device) - before));
    if (pipeline)
        ID3D12PipelineState_Release(pipeline);

    memset(&desc, 0, sizeof(desc));
    desc.pRootSignature = signature;
    desc.CS.pShaderBytecode = empty_spirv;
    desc.CS.BytecodeLength = sizeof(empty_spirv);
    before = vk_pipelines_created(device);
    pipeline = NULL;
    CHECK_HR(ID3D12Device_CreateComputePipelineState(device, &desc, &IID_ID3D12PipelineState, (void **)&pipeline), S_OK);
    CHECK_MSG(vk_pipelines_created(device) - before == 2, "a shader without storage made %llu VkPipelines (2 expected)",
            (unsigned long long)(vk_pipelines_created(device) - before));
    if (pipeline)
        ID3D12PipelineState_Release(pipeline);
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
