/* The root signature owns the VkPipelineLayout (issue 16): CreateRootSignature makes one, and
 * every pipeline made with it shares it whatever its shader binds: a root UAV only (with static
 * samplers declared), a static sampler, root constants (through memory under the memory-based
 * ABI), a descriptor table, the directly indexed heap, DispatchX's ordered-append state. Creating
 * pipelines adds no layout (D3D12XSGetPipelineLayoutCount); each pipeline still computes the
 * right words with the validation layer on; the layout goes with the last of them. A root
 * signature declaring more push descriptors than the device holds refuses only the pipelines
 * that need one it left out. */
#include <stdio.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include <d3dcompiler.h>
#include <d3d12xs.h>

#include "harness.h"

#define THREADS 64

enum shader_kind { ROOT_UAV, STATIC_SAMPLER, CONSTANTS, TABLE, HEAP, ORDERED_APPEND, SHADER_COUNT };

/* Each shader writes word t = expected(kind, t) into the buffer its kind names (root UAV u0,
 * the table's u1 = heap slot 0, or heap slot 1 through d3d12xs_heap.hlsli). */
static const char *const sources[SHADER_COUNT] = {
    [ROOT_UAV] =
        "RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(64, 1, 1)]\n"
        "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, id.x + 1); }\n",
    [STATIC_SAMPLER] = NULL, /* sampler_spirv: D3DCompile drops samplers that no texture sample uses */
    [CONSTANTS] =
        "cbuffer Root : register(b0) { uint scale; uint bias; };\n"
        "RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(64, 1, 1)]\n"
        "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, id.x * scale + bias); }\n",
    [TABLE] =
        "RWByteAddressBuffer table_output : register(u1);\n"
        "[numthreads(64, 1, 1)]\n"
        "void main(uint3 id : SV_DispatchThreadID) { table_output.Store(id.x * 4, id.x + 4); }\n",
    [HEAP] =
        "#include <d3d12xs_heap.hlsli>\n"
        "[numthreads(64, 1, 1)]\n"
        "void main(uint3 id : SV_DispatchThreadID) { D3D12XSHeapStore(1u, id.x * 4u, id.x + 5u); }\n",
    [ORDERED_APPEND] =
        "#include <d3d12xs_ordered_append.hlsli>\n"
        "RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(64, 1, 1)]\n"
        "void main(uint3 id : SV_DispatchThreadID, uint index : SV_GroupIndex)\n"
        "{\n"
        "    D3D12XSOrderedAppendLaunch(index);\n"
        "    output.Store(id.x * 4, D3D12XSOrderedAppend(0, 1));\n"
        "}\n",
};

/* A shader that loads sampler s<reg>, space0 and does nothing else: with no textures yet, a
 * load is the one use a shader can make of a static sampler, and it makes the sampler
 * statically used, so the validation layer checks its binding. */
static size_t sampler_spirv(uint32_t *words, uint32_t reg)
{
    const uint32_t code[] = {
        SpvMagicNumber, 0x10000, 0, 9, 0,
        2u << 16 | SpvOpCapability, SpvCapabilityShader,
        3u << 16 | SpvOpMemoryModel, SpvAddressingModelLogical, SpvMemoryModelGLSL450,
        5u << 16 | SpvOpEntryPoint, SpvExecutionModelGLCompute, 1, 0x6e69616d /* "main" */, 0,
        6u << 16 | SpvOpExecutionMode, 1, SpvExecutionModeLocalSize, 64, 1, 1,
        4u << 16 | SpvOpDecorate, 6, SpvDecorationDescriptorSet, 0,
        4u << 16 | SpvOpDecorate, 6, SpvDecorationBinding, 3u << 14 | reg, /* register class s: 3 */
        2u << 16 | SpvOpTypeVoid, 2,
        3u << 16 | SpvOpTypeFunction, 3, 2,
        2u << 16 | SpvOpTypeSampler, 4,
        4u << 16 | SpvOpTypePointer, 5, SpvStorageClassUniformConstant, 4,
        4u << 16 | SpvOpVariable, 5, 6, SpvStorageClassUniformConstant,
        5u << 16 | SpvOpFunction, 2, 1, SpvFunctionControlMaskNone, 3,
        2u << 16 | SpvOpLabel, 7,
        4u << 16 | SpvOpLoad, 4, 8, 6,
        1u << 16 | SpvOpReturn,
        1u << 16 | SpvOpFunctionEnd,
    };
    memcpy(words, code, sizeof(code));
    return sizeof(code);
}

static ID3D12PipelineState *create_pipeline(ID3D12Device *device, ID3D12RootSignature *signature, const void *code, size_t size,
        HRESULT *hr)
{
    D3D12_COMPUTE_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *state = NULL;
    memset(&desc, 0, sizeof(desc));
    desc.pRootSignature = signature;
    desc.CS.pShaderBytecode = code;
    desc.CS.BytecodeLength = size;
    *hr = ID3D12Device_CreateComputePipelineState(device, &desc, &IID_ID3D12PipelineState, (void **)&state);
    return state;
}

static uint32_t expected(enum shader_kind kind, uint32_t t)
{
    switch (kind) {
    case ROOT_UAV: return t + 1;
    case STATIC_SAMPLER: return 0; /* writes nothing: the buffer stays zeroed */
    case CONSTANTS: return t * 3 + 7;
    case TABLE: return t + 4;
    case HEAP: return t + 5;
    default: return 0;
    }
}

static UINT64 layout_count(ID3D12Device *device)
{
    UINT64 count = ~0ull;
    CHECK_HR(D3D12XSGetPipelineLayoutCount(device, &count), S_OK);
    return count;
}

/* Root UAV u0, two constants b0, a table of u1, two static samplers, the directly indexed heap. */
static ID3D12RootSignature *create_signature(ID3D12Device *device, D3D12_ROOT_SIGNATURE_FLAGS extra_flags)
{
    D3D12_DESCRIPTOR_RANGE1 range;
    D3D12_ROOT_PARAMETER1 parameters[3];
    D3D12_STATIC_SAMPLER_DESC samplers[2];
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc;
    ID3D10Blob *blob = NULL;
    ID3D12RootSignature *signature = NULL;

    memset(&range, 0, sizeof(range));
    memset(parameters, 0, sizeof(parameters));
    memset(samplers, 0, sizeof(samplers));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    parameters[0].Descriptor.ShaderRegister = 0;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[1].Constants.ShaderRegister = 0;
    parameters[1].Constants.Num32BitValues = 2;
    range.RangeType = D3D12_DESCRIPTOR_RANGE_TYPE_UAV;
    range.NumDescriptors = 1;
    range.BaseShaderRegister = 1;
    parameters[2].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    parameters[2].DescriptorTable.NumDescriptorRanges = 1;
    parameters[2].DescriptorTable.pDescriptorRanges = &range;
    for (int i = 0; i < 2; i++) {
        samplers[i].Filter = i ? D3D12_FILTER_MIN_MAG_MIP_LINEAR : D3D12_FILTER_MIN_MAG_MIP_POINT;
        samplers[i].AddressU = samplers[i].AddressV = samplers[i].AddressW = D3D12_TEXTURE_ADDRESS_MODE_CLAMP;
        samplers[i].MaxLOD = D3D12_FLOAT32_MAX;
        samplers[i].ShaderRegister = (UINT)i;
    }
    memset(&desc, 0, sizeof(desc));
    desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    desc.Desc_1_1.NumParameters = 3;
    desc.Desc_1_1.pParameters = parameters;
    desc.Desc_1_1.NumStaticSamplers = 2;
    desc.Desc_1_1.pStaticSamplers = samplers;
    desc.Desc_1_1.Flags = D3D12_ROOT_SIGNATURE_FLAG_CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED | extra_flags;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&desc, &blob, NULL), S_OK);
    if (!blob)
        return NULL;
    CHECK_HR(ID3D12Device_CreateRootSignature(device, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
            &IID_ID3D12RootSignature, (void **)&signature), S_OK);
    ID3D10Blob_Release(blob);
    return signature;
}

static void raw_uav(ID3D12Device *device, ID3D12Resource *buffer, D3D12_CPU_DESCRIPTOR_HANDLE at)
{
    D3D12_UNORDERED_ACCESS_VIEW_DESC desc;
    memset(&desc, 0, sizeof(desc));
    desc.Format = DXGI_FORMAT_R32_TYPELESS;
    desc.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
    desc.Buffer.NumElements = THREADS;
    desc.Buffer.Flags = D3D12_BUFFER_UAV_FLAG_RAW;
    ID3D12Device_CreateUnorderedAccessView(device, buffer, NULL, &desc, at);
}

/* Dispatches pipeline with every root argument set and checks the words it wrote. */
static void run(ID3D12Device *device, ID3D12CommandQueue *queue, ID3D12RootSignature *signature, ID3D12PipelineState *pipeline,
        enum shader_kind kind, const char *what)
{
    static const UINT constants[2] = {3, 7};
    ID3D12Resource *outputs[3]; /* root UAV, table slot 0, heap slot 1 */
    D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 2, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    ID3D12DescriptorHeap *heap = NULL;
    struct harness_list list;
    uint32_t words[THREADS];
    UINT increment;

    CHECK_HR(ID3D12Device_CreateDescriptorHeap(device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&heap), S_OK);
    if (!heap)
        return;
    increment = ID3D12Device_GetDescriptorHandleIncrementSize(device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    for (int i = 0; i < 3; i++)
        outputs[i] = harness_uav_buffer(device, THREADS * 4);
    for (int i = 0; i < 2; i++) {
        D3D12_CPU_DESCRIPTOR_HANDLE at = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap);
        at.ptr += (SIZE_T)i * increment;
        raw_uav(device, outputs[1 + i], at);
    }
    D3D12_GPU_DESCRIPTOR_HANDLE start = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(heap);

    list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &heap);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, pipeline);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 0, ID3D12Resource_GetGPUVirtualAddress(outputs[0]));
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(list.list, 1, 2, constants, 0);
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 2, start);
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    harness_execute_and_wait(device, queue, &list);
    harness_release_list(&list);

    harness_read_back(device, queue, outputs[kind == TABLE ? 1 : kind == HEAP ? 2 : 0], words, sizeof(words));
    for (uint32_t t = 0; t < THREADS; t++)
        if (words[t] != expected(kind, t)) {
            CHECK_MSG(false, "%s: word %u is %u, expected %u", what, t, words[t], expected(kind, t));
            break;
        }
    for (int i = 0; i < 3; i++)
        ID3D12Resource_Release(outputs[i]);
    ID3D12DescriptorHeap_Release(heap);
}

static void test_one_layout(ID3D12Device *device, ID3D12CommandQueue *queue, ID3D10Blob *const *code, bool memory_abi)
{
    uint32_t sampler_words[64];
    size_t sampler_size = sampler_spirv(sampler_words, 1);
    const char *abi = memory_abi ? "memory-based ABI" : "push ABI";
    HRESULT hr = S_OK;
    ID3D12PipelineState *pipelines[SHADER_COUNT][2];
    UINT64 before = layout_count(device);
    ID3D12RootSignature *signature = create_signature(device, memory_abi ? D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI : 0);
    UINT64 with_signature = layout_count(device);

    if (!signature)
        return;
    CHECK_MSG(with_signature == before + 1, "%s: CreateRootSignature made %llu layouts, expected 1", abi,
            (unsigned long long)(with_signature - before));
    /* Two of each: none of them may make a layout. */
    for (int kind = 0; kind < SHADER_COUNT; kind++)
        for (int copy = 0; copy < 2; copy++) {
            pipelines[kind][copy] = NULL;
            if (kind == STATIC_SAMPLER)
                pipelines[kind][copy] = create_pipeline(device, signature, sampler_words, sampler_size, &hr);
            else if (code[kind])
                pipelines[kind][copy] = create_pipeline(device, signature, ID3D10Blob_GetBufferPointer(code[kind]),
                        ID3D10Blob_GetBufferSize(code[kind]), &hr);
            else
                continue;
            CHECK_MSG(hr == S_OK, "%s: pipeline of shader %d: 0x%08x", abi, kind, (unsigned)hr);
        }
    CHECK_MSG(layout_count(device) == with_signature, "%s: %d pipelines of one root signature made %lld layouts, expected 0", abi,
            2 * SHADER_COUNT, (long long)(layout_count(device) - with_signature));

    for (int kind = 0; kind < SHADER_COUNT; kind++) {
        char what[64];
        snprintf(what, sizeof(what), "%s, shader %d", abi, kind);
        if (kind != ORDERED_APPEND && pipelines[kind][1])
            run(device, queue, signature, pipelines[kind][1], (enum shader_kind)kind, what);
    }

    /* The pipelines keep the layout after the root signature goes; the last of them frees it. */
    ID3D12RootSignature_Release(signature);
    CHECK(layout_count(device) == with_signature);
    if (pipelines[ROOT_UAV][0]) {
        /* Recorded with an equal root signature of its own layout (D3D12 lets compatible ones mix). */
        ID3D12RootSignature *again = create_signature(device, memory_abi ? D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI : 0);
        if (again) {
            run(device, queue, again, pipelines[ROOT_UAV][0], ROOT_UAV, "after the root signature's release");
            ID3D12RootSignature_Release(again);
        }
    }
    for (int kind = 0; kind < SHADER_COUNT; kind++)
        for (int copy = 0; copy < 2; copy++)
            if (pipelines[kind][copy])
                ID3D12PipelineState_Release(pipelines[kind][copy]);
    /* Retired pipelines go once the device collects them, soon after their work completed. */
    UINT64 now = 0;
    uint64_t deadline = harness_now_ms() + 5000;
    while (SUCCEEDED(D3D12XSGetPipelineLayoutCount(device, &now)) && now != before && harness_now_ms() < deadline)
        harness_sleep_ms(5);
    CHECK_MSG(layout_count(device) == before, "%s: %llu layouts left after every pipeline was released", abi,
            (unsigned long long)(layout_count(device) - before));
}

/* 32 root UAVs (D3D12's whole root cost) fill lavapipe's and NVIDIA's 32 push descriptors: the
 * static sampler is left out of the layout, and only a shader that uses it is refused. */
static void test_full_push_set(ID3D12Device *device)
{
    static const char uses_last_uav[] =
        "RWByteAddressBuffer output : register(u31);\n"
        "[numthreads(64, 1, 1)]\n"
        "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, id.x); }\n";
    D3D12_ROOT_PARAMETER1 parameters[32];
    D3D12_STATIC_SAMPLER_DESC sampler;
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc;
    ID3D12RootSignature *signature = NULL;
    ID3D12PipelineState *pipeline = NULL;
    ID3D10Blob *blob = NULL, *code;
    uint32_t sampler_words[64];
    size_t sampler_size = sampler_spirv(sampler_words, 0);
    HRESULT hr;

    memset(parameters, 0, sizeof(parameters));
    for (UINT i = 0; i < 32; i++) {
        parameters[i].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
        parameters[i].Descriptor.ShaderRegister = i;
    }
    memset(&sampler, 0, sizeof(sampler));
    sampler.Filter = D3D12_FILTER_MIN_MAG_MIP_POINT;
    sampler.AddressU = sampler.AddressV = sampler.AddressW = D3D12_TEXTURE_ADDRESS_MODE_CLAMP;
    memset(&desc, 0, sizeof(desc));
    desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    desc.Desc_1_1.NumParameters = 32;
    desc.Desc_1_1.pParameters = parameters;
    desc.Desc_1_1.NumStaticSamplers = 1;
    desc.Desc_1_1.pStaticSamplers = &sampler;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&desc, &blob, NULL), S_OK);
    if (!blob)
        return;
    CHECK_HR(ID3D12Device_CreateRootSignature(device, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
            &IID_ID3D12RootSignature, (void **)&signature), S_OK);
    ID3D10Blob_Release(blob);
    if (!signature)
        return;

    if ((code = harness_compile(uses_last_uav, 0))) {
        pipeline = harness_compute_pipeline(device, signature, code);
        if (pipeline)
            ID3D12PipelineState_Release(pipeline);
        ID3D10Blob_Release(code);
    }
    {
        LOG_MARK();
        pipeline = create_pipeline(device, signature, sampler_words, sampler_size, &hr);
        /* A device with more than 32 push descriptors has room for the sampler. */
        CHECK_MSG(hr == E_NOTIMPL || hr == S_OK, "CreateComputePipelineState returned 0x%08x", (unsigned)hr);
        if (hr == E_NOTIMPL) {
            CHECK(!pipeline);
            CHECK_LOG("CreateComputePipelineState", "s0, space0", "no room");
        }
        if (pipeline)
            ID3D12PipelineState_Release(pipeline);
    }
    ID3D12RootSignature_Release(signature);
}

int main(void)
{
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D10Blob *code[SHADER_COUNT];
    UINT64 count;

    harness_init();
    if (!(device = harness_create_device()))
        return harness_finish();
    queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    for (int kind = 0; kind < SHADER_COUNT; kind++)
        code[kind] = sources[kind] ? harness_compile(sources[kind], 0) : NULL;

    test_one_layout(device, queue, code, false);
    test_one_layout(device, queue, code, true);
    test_full_push_set(device);

    {
        LOG_MARK();
        CHECK_HR(D3D12XSGetPipelineLayoutCount(device, NULL), E_INVALIDARG);
        CHECK_LOG("D3D12XSGetPipelineLayoutCount", "count is NULL");
        RELOG_MARK();
        CHECK_HR(D3D12XSGetPipelineLayoutCount(NULL, &count), E_INVALIDARG);
        CHECK_LOG("D3D12XSGetPipelineLayoutCount", "device is NULL");
    }

    for (int kind = 0; kind < SHADER_COUNT; kind++)
        if (code[kind])
            ID3D10Blob_Release(code[kind]);
    ID3D12CommandQueue_Release(queue);
    harness_release_device(device);
    return harness_finish();
}
