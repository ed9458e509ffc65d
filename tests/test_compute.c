/* Compute end to end: HLSL through D3DCompile, a serialized root signature, a pipeline,
 * root constants, root descriptors, descriptor tables and Dispatch, checked on the CPU. */
#include <stdio.h>
#include <string.h>

#include <d3dcompiler.h>

#include "d3d12xs.h"
#include "harness.h"

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    struct harness_list list;
};

static ID3DBlob *compile(const char *source, const char *entry)
{
    ID3DBlob *code = NULL, *errors = NULL;
    HRESULT hr = D3DCompile(source, strlen(source), "test.hlsl", NULL, NULL, entry, "cs_6_0", 0, 0, &code, &errors);
    CHECK_MSG(SUCCEEDED(hr), "D3DCompile failed: %s", errors ? (const char *)ID3D10Blob_GetBufferPointer(errors) : "?");
    if (errors)
        ID3D10Blob_Release(errors);
    return code;
}

static ID3D12RootSignature *root_signature(ID3D12Device *device, const D3D12_ROOT_PARAMETER1 *parameters, UINT count)
{
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc;
    ID3DBlob *blob = NULL, *errors = NULL;
    ID3D12RootSignature *signature = NULL;

    memset(&desc, 0, sizeof(desc));
    desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    desc.Desc_1_1.NumParameters = count;
    desc.Desc_1_1.pParameters = parameters;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&desc, &blob, &errors), S_OK);
    if (!blob)
        return NULL;
    CHECK_HR(ID3D12Device_CreateRootSignature(device, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
            &IID_ID3D12RootSignature, (void **)&signature), S_OK);
    ID3D10Blob_Release(blob);
    return signature;
}

/* Root constants + a root UAV: out[i] = i * scale + bias over 4096 threads. */
static void test_root_constants_and_uav(struct env *env)
{
    static const char source[] =
        "cbuffer Constants : register(b0) { uint scale; uint bias; };\n"
        "RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(64, 1, 1)]\n"
        "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, id.x * scale + bias); }\n";
    D3D12_ROOT_PARAMETER1 parameters[2];
    uint32_t data[4096], constants[2] = {3, 7};
    bool ok = true;

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 2;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    ID3D12RootSignature *signature = root_signature(env->device, parameters, 2);
    ID3DBlob *code = compile(source, "main");
    ID3D12PipelineState *state = harness_compute_pipeline(env->device, signature, code);
    ID3D12Resource *output = harness_uav_buffer(env->device, sizeof(data));
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12CommandQueue *queue = harness_create_queue(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);

    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(list.list, 0, 2, constants, 0);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 1, ID3D12Resource_GetGPUVirtualAddress(output));
    ID3D12GraphicsCommandList2_Dispatch(list.list, 4096 / 64, 1, 1);
    harness_execute_and_wait(env->device, queue, &list);
    harness_read_back(env->device, env->queue, output, data, sizeof(data));
    for (uint32_t i = 0; i < 4096 && ok; i++)
        ok = data[i] == i * 3 + 7;
    CHECK_MSG(ok, "root constants + root UAV: wrong output");

    harness_release_list(&list);
    ID3D12CommandQueue_Release(queue);
    ID3D12Resource_Release(output);
    ID3D12PipelineState_Release(state);
    ID3D10Blob_Release(code);
    ID3D12RootSignature_Release(signature);
}

/* Pipelines of one root signature that bind alike share its pipeline layout, and one that binds
 * differently gets its own; switching between them keeps the root arguments. The application
 * may let go of the root signature once it is set (the pipelines hold it): the layouts stay
 * valid until the last pipeline made with them is gone (ASan and the validation layer would
 * see a destroyed layout). */
static void test_shared_layouts_outlive_the_root_signature(struct env *env)
{
    static const char store_source[] =
        "cbuffer Constants : register(b0) { uint bias; };\n"
        "RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(64, 1, 1)]\n"
        "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, id.x + bias); }\n";
    static const char add_source[] =
        "cbuffer Constants : register(b0) { uint bias; };\n"
        "RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(64, 1, 1)]\n"
        "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, output.Load(id.x * 4) * 2 + bias); }\n";
    /* Binds no UAV: another shape of the same root signature. */
    static const char empty_source[] =
        "[numthreads(1, 1, 1)]\n"
        "void main() { }\n";
    D3D12_RESOURCE_BARRIER barrier;
    D3D12_ROOT_PARAMETER1 parameters[2];
    uint32_t data[1024], bias = 5;
    bool ok = true;

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 1;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    ID3D12RootSignature *signature = root_signature(env->device, parameters, 2);
    ID3DBlob *store_code = compile(store_source, "main"), *add_code = compile(add_source, "main");
    ID3DBlob *empty_code = compile(empty_source, "main");
    ID3D12PipelineState *store = harness_compute_pipeline(env->device, signature, store_code);
    ID3D12PipelineState *add = harness_compute_pipeline(env->device, signature, add_code);
    ID3D12PipelineState *empty = harness_compute_pipeline(env->device, signature, empty_code);
    ID3D12Resource *output = harness_uav_buffer(env->device, sizeof(data));
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12CommandQueue *queue = harness_create_queue(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    LOG_MARK();

    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
    barrier.UAV.pResource = output;
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, store);
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list.list, 0, bias, 0);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 1, ID3D12Resource_GetGPUVirtualAddress(output));
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1024 / 64, 1, 1);
    ID3D12RootSignature_Release(signature);
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, empty);
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, add);
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list.list, 0, 1, 0);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 1, ID3D12Resource_GetGPUVirtualAddress(output));
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1024 / 64, 1, 1);
    harness_execute_and_wait(env->device, queue, &list);
    ID3D12PipelineState_Release(store);
    ID3D12PipelineState_Release(empty);
    ID3D12PipelineState_Release(add);
    harness_read_back(env->device, env->queue, output, data, sizeof(data));
    for (uint32_t i = 0; i < 1024 && ok; i++)
        ok = data[i] == (i + bias) * 2 + 1;
    CHECK_MSG(ok, "pipelines sharing a layout: wrong output");
    CHECK_NO_LOG();

    harness_release_list(&list);
    ID3D12CommandQueue_Release(queue);
    ID3D12Resource_Release(output);
    ID3D10Blob_Release(store_code);
    ID3D10Blob_Release(add_code);
    ID3D10Blob_Release(empty_code);
}

/* A shader reading only some of its root signature's root descriptors (the root signature's own
 * layout holds them all, each at its parameter index): an SRV at parameter 1 and a UAV at
 * parameter 3, with an unused root UAV between them. */
static void test_root_descriptor_subset(struct env *env)
{
    static const char source[] =
        "cbuffer Constants : register(b0) { uint bias; };\n"
        "ByteAddressBuffer input : register(t0);\n"
        "RWByteAddressBuffer output : register(u1);\n"
        "[numthreads(64, 1, 1)]\n"
        "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, input.Load(id.x * 4) + bias); }\n";
    D3D12_ROOT_PARAMETER1 parameters[4];
    uint32_t data[256], *mapped = NULL;
    bool ok = true;

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 1;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV;
    parameters[2].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    parameters[3].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    parameters[3].Descriptor.ShaderRegister = 1;
    ID3D12RootSignature *signature = root_signature(env->device, parameters, 4);
    ID3DBlob *code = compile(source, "main");
    ID3D12PipelineState *state = harness_compute_pipeline(env->device, signature, code);
    ID3D12Resource *input = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, sizeof(data), D3D12_RESOURCE_STATE_GENERIC_READ);
    ID3D12Resource *unused = harness_uav_buffer(env->device, 256);
    ID3D12Resource *output = harness_uav_buffer(env->device, sizeof(data));
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12CommandQueue *queue = harness_create_queue(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    LOG_MARK();

    CHECK_HR(ID3D12Resource_Map(input, 0, NULL, (void **)&mapped), S_OK);
    for (uint32_t i = 0; i < 256 && mapped; i++)
        mapped[i] = i * 3;
    ID3D12Resource_Unmap(input, 0, NULL);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list.list, 0, 11, 0);
    ID3D12GraphicsCommandList2_SetComputeRootShaderResourceView(list.list, 1, ID3D12Resource_GetGPUVirtualAddress(input));
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 2, ID3D12Resource_GetGPUVirtualAddress(unused));
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 3, ID3D12Resource_GetGPUVirtualAddress(output));
    ID3D12GraphicsCommandList2_Dispatch(list.list, 256 / 64, 1, 1);
    harness_execute_and_wait(env->device, queue, &list);
    harness_read_back(env->device, env->queue, output, data, sizeof(data));
    for (uint32_t i = 0; i < 256 && ok; i++)
        ok = data[i] == i * 3 + 11;
    CHECK_MSG(ok, "root descriptors at parameters 1 and 3: wrong output");
    CHECK_NO_LOG();

    harness_release_list(&list);
    ID3D12CommandQueue_Release(queue);
    ID3D12Resource_Release(output);
    ID3D12Resource_Release(unused);
    ID3D12Resource_Release(input);
    ID3D12PipelineState_Release(state);
    ID3D10Blob_Release(code);
    ID3D12RootSignature_Release(signature);
}

/* A descriptor table with an SRV and a UAV range: out[i] = in[i] * 2. */
static void test_descriptor_table(struct env *env)
{
    static const char source[] =
        "StructuredBuffer<uint> input : register(t0);\n"
        "RWStructuredBuffer<uint> output : register(u0);\n"
        "[numthreads(32, 1, 1)]\n"
        "void main(uint3 id : SV_DispatchThreadID) { output[id.x] = input[id.x] * 2; }\n";
    D3D12_DESCRIPTOR_RANGE1 ranges[2];
    D3D12_ROOT_PARAMETER1 parameter;
    D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    D3D12_SHADER_RESOURCE_VIEW_DESC srv;
    D3D12_UNORDERED_ACCESS_VIEW_DESC uav;
    ID3D12DescriptorHeap *heap = NULL;
    uint32_t data[1024], *mapped = NULL;
    bool ok = true;

    memset(ranges, 0, sizeof(ranges));
    ranges[0].RangeType = D3D12_DESCRIPTOR_RANGE_TYPE_SRV;
    ranges[0].NumDescriptors = 1;
    ranges[1].RangeType = D3D12_DESCRIPTOR_RANGE_TYPE_UAV;
    ranges[1].NumDescriptors = 1;
    ranges[1].OffsetInDescriptorsFromTableStart = D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND;
    memset(&parameter, 0, sizeof(parameter));
    parameter.ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    parameter.DescriptorTable.NumDescriptorRanges = 2;
    parameter.DescriptorTable.pDescriptorRanges = ranges;
    ID3D12RootSignature *signature = root_signature(env->device, &parameter, 1);
    ID3DBlob *code = compile(source, "main");
    ID3D12PipelineState *state = harness_compute_pipeline(env->device, signature, code);
    ID3D12Resource *input = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, sizeof(data), D3D12_RESOURCE_STATE_GENERIC_READ);
    ID3D12Resource *output = harness_uav_buffer(env->device, sizeof(data));
    CHECK_HR(ID3D12Resource_Map(input, 0, NULL, (void **)&mapped), S_OK);
    for (uint32_t i = 0; i < 1024; i++)
        mapped[i] = i + 100;
    ID3D12Resource_Unmap(input, 0, NULL);

    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&heap), S_OK);
    UINT increment = ID3D12Device_GetDescriptorHandleIncrementSize(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    D3D12_CPU_DESCRIPTOR_HANDLE cpu = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap);
    D3D12_GPU_DESCRIPTOR_HANDLE gpu = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(heap);
    memset(&srv, 0, sizeof(srv));
    srv.ViewDimension = D3D12_SRV_DIMENSION_BUFFER;
    srv.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
    srv.Buffer.NumElements = 1024;
    srv.Buffer.StructureByteStride = 4;
    cpu.ptr += increment; /* the table starts at descriptor 1 */
    gpu.ptr += increment;
    ID3D12Device_CreateShaderResourceView(env->device, input, &srv, cpu);
    memset(&uav, 0, sizeof(uav));
    uav.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
    uav.Buffer.NumElements = 1024;
    uav.Buffer.StructureByteStride = 4;
    cpu.ptr += increment;
    ID3D12Device_CreateUnorderedAccessView(env->device, output, NULL, &uav, cpu);

    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &heap);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 0, gpu);
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1024 / 32, 1, 1);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_read_back(env->device, env->queue, output, data, sizeof(data));
    for (uint32_t i = 0; i < 1024 && ok; i++)
        ok = data[i] == (i + 100) * 2;
    CHECK_MSG(ok, "descriptor table: wrong output");

    harness_release_list(&list);
    ID3D12DescriptorHeap_Release(heap);
    ID3D12Resource_Release(input);
    ID3D12Resource_Release(output);
    ID3D12PipelineState_Release(state);
    ID3D10Blob_Release(code);
    ID3D12RootSignature_Release(signature);
}

/* {index, value} in storage, for Set*Root32BitConstants (a compound literal's commas would
 * split the COBJMACROS macro's arguments). */
static const UINT *pair(UINT storage[2], UINT index, UINT value)
{
    storage[0] = index;
    storage[1] = value;
    return storage;
}

/* Dispatches with only root arguments between them take the short way (dispatch_settled_at in
 * command_list_state.h): constants and tables set between them apply at once, and everything
 * else (a root view, a barrier, an empty dispatch, a count past the limit) still does what it
 * did. Each dispatch writes its constant `value` at `index` of the table's UAV and value + 1000
 * at `index` of the root UAV. */
static void test_settled_dispatches(struct env *env)
{
    static const char source[] =
        "cbuffer C : register(b0) { uint index; uint value; };\n"
        "RWByteAddressBuffer table_out : register(u0);\n"
        "RWByteAddressBuffer root_out : register(u1);\n"
        "[numthreads(1, 1, 1)]\n"
        "void main() { table_out.Store(index * 4, value); root_out.Store(index * 4, value + 1000); }\n";
    D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 2, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    D3D12_DESCRIPTOR_RANGE1 range;
    D3D12_ROOT_PARAMETER1 parameters[3];
    D3D12_UNORDERED_ACCESS_VIEW_DESC uav;
    D3D12XS_DISPATCH_COUNTERS counters;
    D3D12_RESOURCE_BARRIER barrier;
    ID3D12Resource *tables[2], *roots[2];
    ID3D12DescriptorHeap *heap = NULL;
    uint32_t words[4][8], pairs[2];
    /* which of tables[] and roots[] dispatch i (index i, value 10 + i) writes */
    static const unsigned table_of[7] = {0, 0, 0, 1, 1, 1, 1}, root_of[7] = {0, 0, 0, 0, 1, 1, 1};

    memset(&range, 0, sizeof(range));
    range.RangeType = D3D12_DESCRIPTOR_RANGE_TYPE_UAV;
    range.NumDescriptors = 1;
    range.Flags = D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_VOLATILE | D3D12_DESCRIPTOR_RANGE_FLAG_DATA_VOLATILE;
    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 2;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    parameters[1].DescriptorTable.NumDescriptorRanges = 1;
    parameters[1].DescriptorTable.pDescriptorRanges = &range;
    parameters[2].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    parameters[2].Descriptor.ShaderRegister = 1;
    parameters[2].Descriptor.Flags = D3D12_ROOT_DESCRIPTOR_FLAG_DATA_VOLATILE;
    ID3D12RootSignature *signature = root_signature(env->device, parameters, 3);
    ID3DBlob *code = compile(source, "main");
    ID3D12PipelineState *state = harness_compute_pipeline(env->device, signature, code);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&heap), S_OK);
    UINT increment = ID3D12Device_GetDescriptorHandleIncrementSize(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    D3D12_CPU_DESCRIPTOR_HANDLE cpu = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap);
    D3D12_GPU_DESCRIPTOR_HANDLE gpu[2] = {ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(heap)};
    gpu[1].ptr = gpu[0].ptr + increment;
    memset(&uav, 0, sizeof(uav));
    uav.Format = DXGI_FORMAT_R32_TYPELESS;
    uav.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
    uav.Buffer.NumElements = 8;
    uav.Buffer.Flags = D3D12_BUFFER_UAV_FLAG_RAW;
    for (unsigned i = 0; i < 2; i++) {
        tables[i] = harness_uav_buffer(env->device, sizeof(words[0]));
        roots[i] = harness_uav_buffer(env->device, sizeof(words[0]));
        ID3D12Device_CreateUnorderedAccessView(env->device, tables[i], NULL, &uav, cpu);
        cpu.ptr += increment;
    }

    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2 *l = list.list;
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(l, 1, &heap);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(l, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(l, state);
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(l, 1, gpu[0]);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(l, 2, ID3D12Resource_GetGPUVirtualAddress(roots[0]));
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(l, 0, 0, 0);
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(l, 0, 10, 1);
    ID3D12GraphicsCommandList2_Dispatch(l, 1, 1, 1); /* the full way; the list settles */
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(l, 0, 1, 0);
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(l, 0, 11, 1);
    ID3D12GraphicsCommandList2_Dispatch(l, 1, 1, 1);
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(l, 0, 2, pair(pairs, 2, 12), 0);
    ID3D12GraphicsCommandList2_Dispatch(l, 1, 1, 1);
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(l, 1, gpu[1]); /* pushed at once */
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(l, 0, 2, pair(pairs, 3, 13), 0);
    ID3D12GraphicsCommandList2_Dispatch(l, 1, 1, 1);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(l, 2, ID3D12Resource_GetGPUVirtualAddress(roots[1])); /* the flush's */
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(l, 0, 2, pair(pairs, 4, 14), 0);
    ID3D12GraphicsCommandList2_Dispatch(l, 1, 1, 1);
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(l, 0, 2, pair(pairs, 7, 99), 0);
    ID3D12GraphicsCommandList2_Dispatch(l, 0, 1, 1); /* runs nothing, counted as D3D12 counts calls */
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(l, 0, 2, pair(pairs, 5, 15), 0);
    ID3D12GraphicsCommandList2_Dispatch(l, 1, 1, 1);
    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
    ID3D12GraphicsCommandList2_ResourceBarrier(l, 1, &barrier);
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(l, 0, 2, pair(pairs, 6, 16), 0);
    ID3D12GraphicsCommandList2_Dispatch(l, 1, 1, 1);
    CHECK_HR(D3D12XSGetCommandListDispatchCounters((ID3D12CommandList *)l, &counters), S_OK);
    CHECK_MSG(counters.PushConstantAbiDispatches == 8 && counters.MemoryAbiDispatches == 0 && counters.PushedRootDescriptors == 8,
            "settled dispatches: counters %llu / %llu / %llu, expected 8 / 0 / 8", (unsigned long long)counters.PushConstantAbiDispatches,
            (unsigned long long)counters.MemoryAbiDispatches, (unsigned long long)counters.PushedRootDescriptors);
    harness_execute_and_wait(env->device, env->queue, &list);
    /* Close left the list settled for nothing (stop_recording): a dispatch after it is reported
     * and recorded nowhere, not taken by the short way into the ended command buffer */
    LOG_MARK();
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(l, 0, 2, pair(pairs, 7, 17), 0);
    CHECK_LOG("SetComputeRoot32BitConstants", "closed");
    RELOG_MARK();
    ID3D12GraphicsCommandList2_Dispatch(l, 1, 1, 1);
    CHECK_LOG("Dispatch", "closed");
    for (unsigned i = 0; i < 2; i++) {
        harness_read_back(env->device, env->queue, tables[i], words[i], sizeof(words[i]));
        harness_read_back(env->device, env->queue, roots[i], words[2 + i], sizeof(words[i]));
    }
    for (unsigned i = 0; i < 8; i++) {
        uint32_t expect_table[2] = {0, 0}, expect_root[2] = {0, 0};
        if (i < 7) {
            expect_table[table_of[i]] = 10 + i;
            expect_root[root_of[i]] = 1010 + i;
        }
        for (unsigned k = 0; k < 2; k++) {
            CHECK_MSG(words[k][i] == expect_table[k], "settled dispatches: table UAV %u word %u is %u, expected %u", k, i, words[k][i], expect_table[k]);
            CHECK_MSG(words[2 + k][i] == expect_root[k], "settled dispatches: root UAV %u word %u is %u, expected %u", k, i, words[2 + k][i],
                    expect_root[k]);
        }
    }

    /* a count past the limit after settled dispatches is still the recording error it was */
    RELOG_MARK();
    CHECK_HR(ID3D12CommandAllocator_Reset(list.allocator), S_OK);
    CHECK_HR(ID3D12GraphicsCommandList2_Reset(l, list.allocator, state), S_OK);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(l, 1, &heap);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(l, signature);
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(l, 1, gpu[0]);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(l, 2, ID3D12Resource_GetGPUVirtualAddress(roots[0]));
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(l, 0, 2, pair(pairs, 0, 1), 0);
    ID3D12GraphicsCommandList2_Dispatch(l, 1, 1, 1);
    ID3D12GraphicsCommandList2_Dispatch(l, 1, 65536, 1);
    CHECK_LOG("Dispatch", "65536", "exceeds 65535");
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(l), E_INVALIDARG);
    CHECK_LOG("Close", "exceeds 65535");

    harness_release_list(&list);
    for (unsigned i = 0; i < 2; i++) {
        ID3D12Resource_Release(tables[i]);
        ID3D12Resource_Release(roots[i]);
    }
    ID3D12DescriptorHeap_Release(heap);
    ID3D12PipelineState_Release(state);
    ID3D10Blob_Release(code);
    ID3D12RootSignature_Release(signature);
}

/* Bad input to CreateRootSignature, CreateComputePipelineState and the recording calls. */
static void test_errors(struct env *env)
{
    static const char source[] =
        "RWByteAddressBuffer output : register(u0);\n"
        "Buffer<uint> typed : register(t3, space1);\n"
        "[numthreads(1, 1, 1)]\n"
        "void main() { output.Store(0, typed[0]); }\n";
    static const uint8_t dxbc[32] = {'D', 'X', 'B', 'C'};
    D3D12_ROOT_PARAMETER1 parameter;
    D3D12_COMPUTE_PIPELINE_STATE_DESC desc;
    ID3D12RootSignature *signature, *bad = NULL;
    ID3D12PipelineState *state = NULL;
    uint8_t garbage[64];
    LOG_MARK();

    memset(&parameter, 0, sizeof(parameter));
    parameter.ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    signature = root_signature(env->device, &parameter, 1);
    CHECK_NO_LOG();

    memset(garbage, 0x5a, sizeof(garbage));
    CHECK_HR(ID3D12Device_CreateRootSignature(env->device, 0, garbage, sizeof(garbage), &IID_ID3D12RootSignature, (void **)&bad), E_INVALIDARG);
    CHECK_LOG("pBlobWithRootSignature");
    RELOG_MARK();
    CHECK_HR(ID3D12Device_CreateRootSignature(env->device, 0, NULL, 0, &IID_ID3D12RootSignature, (void **)&bad), E_INVALIDARG);
    CHECK_LOG("pBlobWithRootSignature", "NULL");
    RELOG_MARK();
    CHECK(bad == NULL);

    /* t3 in space1 is not in the root signature: pipeline creation fails and says which register. */
    ID3DBlob *code = compile(source, "main");
    memset(&desc, 0, sizeof(desc));
    desc.pRootSignature = signature;
    desc.CS.pShaderBytecode = ID3D10Blob_GetBufferPointer(code);
    desc.CS.BytecodeLength = ID3D10Blob_GetBufferSize(code);
    CHECK_HR(ID3D12Device_CreateComputePipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&state), E_INVALIDARG);
    CHECK_LOG("t3, space1", "not in the root signature");
    RELOG_MARK();
    desc.CS.pShaderBytecode = dxbc;
    desc.CS.BytecodeLength = sizeof(dxbc);
    CHECK_HR(ID3D12Device_CreateComputePipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&state), E_INVALIDARG);
    CHECK_LOG("pDesc->CS", "DXBC", "bytes"); /* a DXBC header and nothing else (test_dxbc has the rest) */
    RELOG_MARK();
    desc.pRootSignature = NULL;
    CHECK_HR(ID3D12Device_CreateComputePipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&state), E_INVALIDARG);
    CHECK_LOG("pRootSignature");
    RELOG_MARK();
    CHECK(state == NULL);
    ID3D10Blob_Release(code);

    /* Recording errors: each logs one line, marks the list invalid, and Close names it. */
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    CHECK_LOG("Dispatch", "no pipeline state");
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
    CHECK_LOG("Close", "Dispatch");
    RELOG_MARK();

    static const char uav_source[] =
        "RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(1, 1, 1)] void main() { output.Store(0, 1); }\n";
    code = compile(uav_source, "main");
    ID3D12PipelineState *good = harness_compute_pipeline(env->device, signature, code), *switched = NULL;
    ID3D10Blob_Release(code);
    CHECK_HR(ID3D12GraphicsCommandList2_Reset(list.list, list.allocator, good), S_OK);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    {
        /* Never set: D3D12 leaves it undefined, d3d12xs warns (debug layer) and binds a null view. */
        size_t warnings = harness_warning_count();
        ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
        CHECK_NO_LOG();
        CHECK_DEBUG_WARNINGS(warnings, 1, "root parameter 0 is read by the shader but was never set");
    }
    {
        /* Another pipeline is checked (and warns) once; switching back to one that passed the
         * checks with nothing else changed checks nothing again (passed[] in command_list_state.h). */
        static const char other_source[] =
            "RWByteAddressBuffer output : register(u0);\n"
            "[numthreads(1, 1, 1)] void main() { output.Store(0, 2); }\n";
        ID3D10Blob *other_code = compile(other_source, "main");
        ID3D12PipelineState *other = harness_compute_pipeline(env->device, signature, other_code);
        size_t warnings = harness_warning_count();
        ID3D10Blob_Release(other_code);
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, other);
        ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
        CHECK_DEBUG_WARNINGS(warnings, 1, "root parameter 0 is read by the shader but was never set");
        warnings = harness_warning_count();
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, good);
        ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, other);
        ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
        CHECK_MSG(harness_warning_count() == warnings, "switching between two checked pipelines warned %zu times again",
                harness_warning_count() - warnings);
        CHECK_NO_LOG();
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, good);
        switched = other; /* released with good: the list holds commands of it */
    }
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 0, 0x1234);
    CHECK_NO_LOG();
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    CHECK_LOG("Dispatch", "0x1234");
    RELOG_MARK();
    ID3D12GraphicsCommandList2_Dispatch(list.list, 65536, 1, 1);
    CHECK_LOG("Dispatch", "65535");
    RELOG_MARK();
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list.list, 0, 1, 0);
    CHECK_LOG("SetComputeRoot32BitConstant", "root parameter 0 is a UAV");
    RELOG_MARK();
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 5, 0);
    CHECK_LOG("RootParameterIndex 5");
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
    CHECK_LOG("Close", "Dispatch");
    RELOG_MARK();

    /* COPY lists cannot dispatch. */
    struct harness_list copy = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_COPY);
    ID3D12GraphicsCommandList2_Dispatch(copy.list, 1, 1, 1);
    CHECK_LOG("Dispatch", "COPY");
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(copy.list), E_INVALIDARG);
    CHECK_LOG("Close");

    harness_release_list(&copy);
    harness_release_list(&list);
    ID3D12PipelineState_Release(good);
    if (switched)
        ID3D12PipelineState_Release(switched);
    ID3D12RootSignature_Release(signature);
}

int main(void)
{
    struct env env;
    harness_init();
    env.device = harness_create_device();
    env.queue = harness_create_queue(env.device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    test_root_constants_and_uav(&env);
    test_shared_layouts_outlive_the_root_signature(&env);
    test_root_descriptor_subset(&env);
    test_descriptor_table(&env);
    test_settled_dispatches(&env);
    test_errors(&env);
    ID3D12CommandQueue_Release(env.queue);
    harness_release_device(env.device);
    return harness_finish();
}
