/* The root signature owns the VkPipelineLayout (issue 16): CreateRootSignature makes one, and
 * every pipeline made with it shares it whatever its shader binds: a root UAV only (with static
 * samplers declared), a static sampler, root constants (through memory under the memory-based
 * ABI), a descriptor table, the directly indexed heap, DispatchX's ordered-append state. Creating
 * pipelines adds no layout (D3D12XSGetPipelineLayoutCount); each pipeline still computes the
 * right words with the validation layer on; the layout goes with the last of them. */
#include <stdio.h>
#include <string.h>

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
    [STATIC_SAMPLER] =
        "SamplerState linear_clamp : register(s1);\n" /* declared, so bound: an immutable sampler */
        "RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(64, 1, 1)]\n"
        "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, id.x + 2); }\n",
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

/* harness_compile with the standard include handler, which finds d3d12xs's own headers. */
static ID3D10Blob *compile(const char *source)
{
    ID3D10Blob *code = NULL, *errors = NULL;
    HRESULT hr = D3DCompile(source, strlen(source), "layout.hlsl", NULL, D3D_COMPILE_STANDARD_FILE_INCLUDE, "main", "cs_6_0", 0, 0,
            &code, &errors);
    CHECK_MSG(SUCCEEDED(hr), "D3DCompile failed: %s", errors ? (const char *)ID3D10Blob_GetBufferPointer(errors) : "?");
    if (errors)
        ID3D10Blob_Release(errors);
    return code;
}

static uint32_t expected(enum shader_kind kind, uint32_t t)
{
    switch (kind) {
    case ROOT_UAV: return t + 1;
    case STATIC_SAMPLER: return t + 2;
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
    const char *abi = memory_abi ? "memory-based ABI" : "push ABI";
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
        for (int copy = 0; copy < 2; copy++)
            pipelines[kind][copy] = code[kind] ? harness_compute_pipeline(device, signature, code[kind]) : NULL;
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
    uint64_t deadline = harness_now_ms() + 5000;
    while (layout_count(device) != before && harness_now_ms() < deadline)
        harness_sleep_ms(5);
    CHECK_MSG(layout_count(device) == before, "%s: %llu layouts left after every pipeline was released", abi,
            (unsigned long long)(layout_count(device) - before));
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
        code[kind] = compile(sources[kind]);

    test_one_layout(device, queue, code, false);
    test_one_layout(device, queue, code, true);

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
