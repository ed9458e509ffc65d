/* Descriptor heaps as D3D12 defines them (docs/descriptors.md): a shader-visible heap is GPU
 * memory the shader reads when the dispatch runs, a table is an offset into it. Each case
 * checks what the GPU wrote: large heaps, an unbounded table indexed non-uniformly,
 * descriptors written after Close, arrays of descriptors and every buffer view kind, UAV counters,
 * tables that do not fit the bound heap, and descriptors of a released resource. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <d3dcompiler.h>
#include <d3d12_xs.h>

#include "harness.h"

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    UINT increment;
};

static D3D12_DESCRIPTOR_RANGE1 range(D3D12_DESCRIPTOR_RANGE_TYPE type, UINT count, UINT base_register, UINT space, UINT offset,
        D3D12_DESCRIPTOR_RANGE_FLAGS flags)
{
    D3D12_DESCRIPTOR_RANGE1 r = {type, count, base_register, space, flags, offset};
    return r;
}

static D3D12_ROOT_PARAMETER1 table(const D3D12_DESCRIPTOR_RANGE1 *ranges, UINT count)
{
    D3D12_ROOT_PARAMETER1 parameter;
    memset(&parameter, 0, sizeof(parameter));
    parameter.ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    parameter.DescriptorTable.NumDescriptorRanges = count;
    parameter.DescriptorTable.pDescriptorRanges = ranges;
    return parameter;
}

static D3D12_ROOT_PARAMETER1 root_parameter(D3D12_ROOT_PARAMETER_TYPE type, UINT shader_register, UINT values)
{
    D3D12_ROOT_PARAMETER1 parameter;
    memset(&parameter, 0, sizeof(parameter));
    parameter.ParameterType = type;
    if (type == D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS) {
        parameter.Constants.ShaderRegister = shader_register;
        parameter.Constants.Num32BitValues = values;
    } else {
        parameter.Descriptor.ShaderRegister = shader_register;
    }
    return parameter;
}

static ID3D12DescriptorHeap *create_heap(ID3D12Device *device, D3D12_DESCRIPTOR_HEAP_TYPE type, UINT count, bool visible)
{
    D3D12_DESCRIPTOR_HEAP_DESC desc = {type, count, visible ? D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE : D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    ID3D12DescriptorHeap *heap = NULL;
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(device, &desc, &IID_ID3D12DescriptorHeap, (void **)&heap), S_OK);
    return heap;
}

static D3D12_CPU_DESCRIPTOR_HANDLE cpu_at(const struct env *env, ID3D12DescriptorHeap *heap, UINT index)
{
    D3D12_CPU_DESCRIPTOR_HANDLE handle = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap);
    handle.ptr += (SIZE_T)index * env->increment;
    return handle;
}

static D3D12_GPU_DESCRIPTOR_HANDLE gpu_at(const struct env *env, ID3D12DescriptorHeap *heap, UINT index)
{
    D3D12_GPU_DESCRIPTOR_HANDLE handle = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(heap);
    handle.ptr += (UINT64)index * env->increment;
    return handle;
}

static void raw_uav(const struct env *env, ID3D12Resource *resource, UINT64 first_word, UINT words, D3D12_CPU_DESCRIPTOR_HANDLE handle)
{
    D3D12_UNORDERED_ACCESS_VIEW_DESC desc;
    memset(&desc, 0, sizeof(desc));
    desc.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
    desc.Format = DXGI_FORMAT_R32_TYPELESS;
    desc.Buffer.FirstElement = first_word;
    desc.Buffer.NumElements = words;
    desc.Buffer.Flags = D3D12_BUFFER_UAV_FLAG_RAW;
    ID3D12Device_CreateUnorderedAccessView(env->device, resource, NULL, &desc, handle);
}

static void buffer_srv(const struct env *env, ID3D12Resource *resource, DXGI_FORMAT format, UINT stride, UINT64 first, UINT count,
        D3D12_CPU_DESCRIPTOR_HANDLE handle)
{
    D3D12_SHADER_RESOURCE_VIEW_DESC desc;
    memset(&desc, 0, sizeof(desc));
    desc.ViewDimension = D3D12_SRV_DIMENSION_BUFFER;
    desc.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
    desc.Format = format;
    desc.Buffer.FirstElement = first;
    desc.Buffer.NumElements = count;
    desc.Buffer.StructureByteStride = stride;
    desc.Buffer.Flags = format == DXGI_FORMAT_R32_TYPELESS ? D3D12_BUFFER_SRV_FLAG_RAW : D3D12_BUFFER_SRV_FLAG_NONE;
    ID3D12Device_CreateShaderResourceView(env->device, resource, &desc, handle);
}

static void buffer_uav(const struct env *env, ID3D12Resource *resource, ID3D12Resource *counter, DXGI_FORMAT format, UINT stride,
        UINT count, D3D12_CPU_DESCRIPTOR_HANDLE handle)
{
    D3D12_UNORDERED_ACCESS_VIEW_DESC desc;
    memset(&desc, 0, sizeof(desc));
    desc.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
    desc.Format = format;
    desc.Buffer.NumElements = count;
    desc.Buffer.StructureByteStride = stride;
    desc.Buffer.Flags = format == DXGI_FORMAT_R32_TYPELESS ? D3D12_BUFFER_UAV_FLAG_RAW : D3D12_BUFFER_UAV_FLAG_NONE;
    ID3D12Device_CreateUnorderedAccessView(env->device, resource, counter, &desc, handle);
}

static uint32_t read_word(const struct env *env, ID3D12Resource *buffer, size_t index)
{
    uint32_t words[64] = {0};
    CHECK_MSG(index < 64, "read_word: index %zu", index);
    harness_read_back(env->device, env->queue, buffer, words, sizeof(words));
    return words[index];
}

/* ---- a 100,000-descriptor heap: tables at both ends ---- */

static void test_large_heap(struct env *env)
{
    static const char source[] =
        "ByteAddressBuffer input : register(t0);\n"
        "RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(1, 1, 1)] void main() { output.Store(4, input.Load(0) + 1); }\n";
    const UINT count = 100000;
    D3D12_DESCRIPTOR_RANGE1 srv = range(D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 1, 0, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE);
    D3D12_DESCRIPTOR_RANGE1 uav = range(D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 1, 0, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE);
    D3D12_ROOT_PARAMETER1 parameters[2] = {table(&srv, 1), table(&uav, 1)};
    const uint32_t value = 41;
    LOG_MARK();

    ID3D12RootSignature *signature = harness_root_signature(env->device, parameters, 2, 0);
    ID3DBlob *code = harness_compile(source, 0);
    ID3D12PipelineState *state = harness_compute_pipeline(env->device, signature, code);
    ID3D10Blob_Release(code);
    ID3D12DescriptorHeap *heap = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, count, true);
    ID3D12Resource *input = harness_upload_buffer(env->device, &value, sizeof(value)), *output = harness_uav_buffer(env->device, 256);
    buffer_srv(env, input, DXGI_FORMAT_R32_TYPELESS, 0, 0, 1, cpu_at(env, heap, 0));
    raw_uav(env, output, 0, 64, cpu_at(env, heap, count - 1));

    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &heap);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 0, gpu_at(env, heap, 0));
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 1, gpu_at(env, heap, count - 1));
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    harness_execute_and_wait(env->device, env->queue, &list);
    CHECK_MSG(read_word(env, output, 1) == value + 1, "100,000-descriptor heap: read %u, expected %u", read_word(env, output, 1), value + 1);
    CHECK_NO_LOG();

    harness_release_list(&list);
    ID3D12Resource_Release(input);
    ID3D12Resource_Release(output);
    ID3D12DescriptorHeap_Release(heap);
    ID3D12PipelineState_Release(state);
    ID3D12RootSignature_Release(signature);
}

/* ---- 10,000 descriptors of one unbounded table, indexed non-uniformly ---- */

#define MANY 10000u
#define SLICE_WORDS 64u /* 256 bytes: every slice starts on any device's buffer-view alignment */

static void test_unbounded_nonuniform(struct env *env)
{
    static const char source[] =
        "Buffer<uint> inputs[] : register(t0, space1);\n"
        "RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(64, 1, 1)] void main(uint3 id : SV_DispatchThreadID)\n"
        "{\n"
        "    if (id.x >= 10000) return;\n"
        "    uint which = (id.x * 7919) % 10000;\n"
        "    output.Store(id.x * 4, inputs[NonUniformResourceIndex(which)][1]);\n"
        "}\n";
    D3D12_DESCRIPTOR_RANGE1 srvs = range(D3D12_DESCRIPTOR_RANGE_TYPE_SRV, UINT32_MAX, 0, 1, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE);
    D3D12_ROOT_PARAMETER1 parameters[2] = {table(&srvs, 1), root_parameter(D3D12_ROOT_PARAMETER_TYPE_UAV, 0, 0)};
    uint32_t *data = calloc(MANY * SLICE_WORDS, sizeof(*data)), *results = calloc(MANY, sizeof(*results));
    unsigned wrong = 0, first_wrong = UINT32_MAX;
    LOG_MARK();

    if (!data || !results) {
        CHECK_MSG(false, "out of memory");
        free(data);
        free(results);
        return;
    }
    for (uint32_t i = 0; i < MANY; i++)
        data[i * SLICE_WORDS + 1] = i * 3 + 1;
    ID3D12RootSignature *signature = harness_root_signature(env->device, parameters, 2, 0);
    ID3DBlob *code = harness_compile(source, 0);
    ID3D12PipelineState *state = harness_compute_pipeline(env->device, signature, code);
    ID3D10Blob_Release(code);
    /* the table starts at 5: heap index = 5 + the shader's index */
    ID3D12DescriptorHeap *heap = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, MANY + 5, true);
    ID3D12Resource *input = harness_upload_buffer(env->device, data, MANY * SLICE_WORDS * sizeof(*data));
    ID3D12Resource *output = harness_uav_buffer(env->device, MANY * sizeof(uint32_t));
    for (uint32_t i = 0; i < MANY; i++)
        buffer_srv(env, input, DXGI_FORMAT_R32_UINT, 0, (UINT64)i * SLICE_WORDS, SLICE_WORDS, cpu_at(env, heap, 5 + i));

    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &heap);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 0, gpu_at(env, heap, 5));
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 1, ID3D12Resource_GetGPUVirtualAddress(output));
    ID3D12GraphicsCommandList2_Dispatch(list.list, (MANY + 63) / 64, 1, 1);
    {
        ID3D12CommandQueue *queue = harness_create_queue(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
        harness_execute_and_wait(env->device, queue, &list);
        ID3D12CommandQueue_Release(queue);
    }
    harness_read_back(env->device, env->queue, output, results, MANY * sizeof(*results));
    for (uint32_t i = 0; i < MANY; i++) {
        uint32_t which = (uint32_t)((uint64_t)i * 7919 % MANY);
        if (results[i] != which * 3 + 1 && !wrong++)
            first_wrong = i;
    }
    CHECK_MSG(!wrong, "unbounded table: %u of %u threads read the wrong descriptor (first: thread %u read %u)", wrong, MANY, first_wrong,
            first_wrong < MANY ? results[first_wrong] : 0);
    CHECK_NO_LOG();

    harness_release_list(&list);
    ID3D12Resource_Release(input);
    ID3D12Resource_Release(output);
    ID3D12DescriptorHeap_Release(heap);
    ID3D12PipelineState_Release(state);
    ID3D12RootSignature_Release(signature);
    free(data);
    free(results);
}

/* ---- descriptors written after Close, before ExecuteCommandLists ---- */

static ID3D12RootSignature *root_signature_1_0_table(ID3D12Device *device)
{
    D3D12_DESCRIPTOR_RANGE uav = {D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 1, 0, 0, 0};
    D3D12_ROOT_PARAMETER parameter;
    D3D12_ROOT_SIGNATURE_DESC desc;
    ID3DBlob *blob = NULL, *errors = NULL;
    ID3D12RootSignature *signature = NULL;

    memset(&parameter, 0, sizeof(parameter));
    parameter.ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    parameter.DescriptorTable.NumDescriptorRanges = 1;
    parameter.DescriptorTable.pDescriptorRanges = &uav;
    memset(&desc, 0, sizeof(desc));
    desc.NumParameters = 1;
    desc.pParameters = &parameter;
    CHECK_HR(D3D12SerializeRootSignature(&desc, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, &errors), S_OK);
    if (errors)
        ID3D10Blob_Release(errors);
    if (!blob)
        return NULL;
    CHECK_HR(ID3D12Device_CreateRootSignature(device, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
            &IID_ID3D12RootSignature, (void **)&signature), S_OK);
    ID3D10Blob_Release(blob);
    return signature;
}

static void test_written_after_close(struct env *env)
{
    static const char source[] =
        "RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(1, 1, 1)] void main() { output.Store(8, 0x5eed); }\n";
    D3D12_DESCRIPTOR_RANGE1 volatile_uav = range(D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 1, 0, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_VOLATILE);
    D3D12_ROOT_PARAMETER1 parameter = table(&volatile_uav, 1);
    ID3D12RootSignature *signatures[2] = {root_signature_1_0_table(env->device), harness_root_signature(env->device, &parameter, 1, 0)};
    static const char *const names[2] = {"root signature 1.0", "root signature 1.1, DESCRIPTORS_VOLATILE"};
    ID3DBlob *code = harness_compile(source, 0);
    LOG_MARK();

    for (int s = 0; s < 2; s++) {
        for (int by_copy = 0; by_copy < 2; by_copy++) {
            ID3D12PipelineState *state = harness_compute_pipeline(env->device, signatures[s], code);
            ID3D12DescriptorHeap *heap = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4, true);
            ID3D12DescriptorHeap *staging = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4, false);
            ID3D12Resource *first = harness_uav_buffer(env->device, 256), *second = harness_uav_buffer(env->device, 256);
            raw_uav(env, first, 0, 64, cpu_at(env, heap, 2));

            struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
            ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &heap);
            ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signatures[s]);
            ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
            ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 0, gpu_at(env, heap, 2));
            ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
            CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), S_OK);
            /* Now the table's descriptor changes: the GPU must see the new one. */
            if (by_copy) {
                raw_uav(env, second, 0, 64, cpu_at(env, staging, 1));
                ID3D12Device_CopyDescriptorsSimple(env->device, 1, cpu_at(env, heap, 2), cpu_at(env, staging, 1),
                        D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
            } else {
                raw_uav(env, second, 0, 64, cpu_at(env, heap, 2));
            }
            ID3D12CommandQueue_ExecuteCommandLists(env->queue, 1, (ID3D12CommandList **)&list.list);
            {
                ID3D12Fence *fence = harness_create_fence(env->device, 0);
                CHECK_HR(ID3D12CommandQueue_Signal(env->queue, fence, 1), S_OK);
                CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 1, NULL), S_OK);
                ID3D12Fence_Release(fence);
            }
            CHECK_MSG(read_word(env, second, 2) == 0x5eed && read_word(env, first, 2) == 0,
                    "%s, descriptor %s after Close: the new buffer holds 0x%x, the old 0x%x (expected 0x5eed and 0)", names[s],
                    by_copy ? "copied" : "written", read_word(env, second, 2), read_word(env, first, 2));
            harness_release_list(&list);
            ID3D12Resource_Release(first);
            ID3D12Resource_Release(second);
            ID3D12DescriptorHeap_Release(staging);
            ID3D12DescriptorHeap_Release(heap);
            ID3D12PipelineState_Release(state);
        }
    }
    CHECK_NO_LOG();
    ID3D10Blob_Release(code);
    for (int s = 0; s < 2; s++)
        ID3D12RootSignature_Release(signatures[s]);
}

/* ---- arrays of descriptors, indexed with a root constant, next to single views ---- */

/* glslang's HLSL front end compiles arrays of typed buffers and of ConstantBuffer<T>, but not of
 * (RW)StructuredBuffer or (RW)ByteAddressBuffer ("'structure' : Expected"): those are single
 * views here (README, shader limits). */
static void test_arrays_of_each_kind(struct env *env)
{
    static const char source[] =
        "struct Values { uint v; uint pad[63]; };\n"
        "Buffer<uint> typed_in[2] : register(t0);\n"
        "StructuredBuffer<uint> structured_in : register(t2);\n"
        "ByteAddressBuffer raw_in : register(t3);\n"
        "ConstantBuffer<Values> constants_in[2] : register(b1);\n"
        "RWBuffer<uint> typed_out[2] : register(u0);\n"
        "RWStructuredBuffer<uint> structured_out : register(u2);\n"
        "RWByteAddressBuffer raw_out : register(u3);\n"
        "cbuffer Select : register(b0) { uint which; };\n"
        "[numthreads(1, 1, 1)] void main()\n"
        "{\n"
        "    typed_out[which][0] = typed_in[which][0] + constants_in[which].v;\n"
        "    structured_out[0] = structured_in[0] + 2;\n"
        "    raw_out.Store(0, raw_in.Load(0) + constants_in[1 - which].v);\n"
        "}\n";
    /* heap: 0-1 typed SRVs, 2 structured SRV, 3 raw SRV, 4-5 CBVs, 6-7 typed UAVs, 8 structured
     * UAV, 9 raw UAV; one table over all of it */
    D3D12_DESCRIPTOR_RANGE1 ranges[3] = {
        range(D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 4, 0, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE),
        range(D3D12_DESCRIPTOR_RANGE_TYPE_CBV, 2, 1, 0, 4, D3D12_DESCRIPTOR_RANGE_FLAG_NONE),
        range(D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 4, 0, 0, 6, D3D12_DESCRIPTOR_RANGE_FLAG_NONE),
    };
    D3D12_ROOT_PARAMETER1 parameters[2] = {root_parameter(D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS, 0, 1), table(ranges, 3)};
    ID3D12Resource *inputs[6], *outputs[4];
    LOG_MARK();

    ID3D12RootSignature *signature = harness_root_signature(env->device, parameters, 2, 0);
    ID3DBlob *code = harness_compile(source, 0);
    ID3D12PipelineState *state = harness_compute_pipeline(env->device, signature, code);
    ID3D10Blob_Release(code);
    ID3D12DescriptorHeap *heap = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 10, true);
    for (uint32_t i = 0; i < 6; i++) {
        uint32_t words[64] = {0};
        words[0] = 100 * (i + 1);
        inputs[i] = harness_upload_buffer(env->device, words, sizeof(words));
    }
    for (uint32_t i = 0; i < 4; i++)
        outputs[i] = harness_uav_buffer(env->device, 256);
    for (uint32_t k = 0; k < 2; k++) {
        D3D12_CONSTANT_BUFFER_VIEW_DESC cbv = {ID3D12Resource_GetGPUVirtualAddress(inputs[4 + k]), 256};
        buffer_srv(env, inputs[k], DXGI_FORMAT_R32_UINT, 0, 0, 64, cpu_at(env, heap, k));
        ID3D12Device_CreateConstantBufferView(env->device, &cbv, cpu_at(env, heap, 4 + k));
        buffer_uav(env, outputs[k], NULL, DXGI_FORMAT_R32_UINT, 0, 64, cpu_at(env, heap, 6 + k));
    }
    buffer_srv(env, inputs[2], DXGI_FORMAT_UNKNOWN, 4, 0, 64, cpu_at(env, heap, 2));
    buffer_srv(env, inputs[3], DXGI_FORMAT_R32_TYPELESS, 0, 0, 64, cpu_at(env, heap, 3));
    buffer_uav(env, outputs[2], NULL, DXGI_FORMAT_UNKNOWN, 4, 64, cpu_at(env, heap, 8));
    buffer_uav(env, outputs[3], NULL, DXGI_FORMAT_R32_TYPELESS, 0, 64, cpu_at(env, heap, 9));

    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &heap);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list.list, 0, 1, 0);
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 1, gpu_at(env, heap, 0));
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    harness_execute_and_wait(env->device, env->queue, &list);
    /* which = 1: typed_in[1] (200) + constants_in[1] (600); structured 300 + 2; raw 400 + constants_in[0] (500) */
    CHECK_MSG(read_word(env, outputs[1], 0) == 800, "Buffer, RWBuffer and ConstantBuffer arrays: %u, expected 800", read_word(env, outputs[1], 0));
    CHECK_MSG(read_word(env, outputs[0], 0) == 0, "RWBuffer array element 0 was written: %u", read_word(env, outputs[0], 0));
    CHECK_MSG(read_word(env, outputs[2], 0) == 302, "StructuredBuffer views: %u, expected 302", read_word(env, outputs[2], 0));
    CHECK_MSG(read_word(env, outputs[3], 0) == 900, "ByteAddressBuffer views: %u, expected 900", read_word(env, outputs[3], 0));
    CHECK_NO_LOG();

    harness_release_list(&list);
    for (uint32_t i = 0; i < 6; i++)
        ID3D12Resource_Release(inputs[i]);
    for (uint32_t i = 0; i < 4; i++)
        ID3D12Resource_Release(outputs[i]);
    ID3D12DescriptorHeap_Release(heap);
    ID3D12PipelineState_Release(state);
    ID3D12RootSignature_Release(signature);
}

/* ---- UAV counters of table UAVs: Append, Consume, IncrementCounter ---- */

static void test_counters(struct env *env)
{
    static const char source[] =
        "AppendStructuredBuffer<uint> appended : register(u0);\n"
        "RWStructuredBuffer<uint> counted : register(u1);\n"
        "[numthreads(64, 1, 1)] void main(uint3 id : SV_DispatchThreadID)\n"
        "{\n"
        "    appended.Append(id.x + 1000);\n"
        "    uint slot = counted.IncrementCounter();\n"
        "    counted[slot] = id.x;\n"
        "}\n";
    D3D12_DESCRIPTOR_RANGE1 uavs = range(D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 2, 0, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE);
    D3D12_ROOT_PARAMETER1 parameter = table(&uavs, 1);
    uint32_t values[64], counters[2] = {0, 0}, counter_words[64];
    bool seen[2][64];
    LOG_MARK();

    ID3D12RootSignature *signature = harness_root_signature(env->device, &parameter, 1, 0);
    ID3DBlob *code = harness_compile(source, 0);
    ID3D12PipelineState *state = harness_compute_pipeline(env->device, signature, code);
    ID3D10Blob_Release(code);
    ID3D12DescriptorHeap *heap = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 3, true);
    ID3D12Resource *buffers[2] = {harness_uav_buffer(env->device, 256), harness_uav_buffer(env->device, 256)};
    /* each UAV's counter in a buffer of its own, the second 4096 bytes in (D3D12's counter alignment) */
    ID3D12Resource *counter = harness_uav_buffer(env->device, 256), *counter2 = harness_uav_buffer(env->device, 8192);
    for (uint32_t k = 0; k < 2; k++) {
        D3D12_UNORDERED_ACCESS_VIEW_DESC desc;
        memset(&desc, 0, sizeof(desc));
        desc.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
        desc.Format = DXGI_FORMAT_UNKNOWN;
        desc.Buffer.NumElements = 64;
        desc.Buffer.StructureByteStride = 4;
        desc.Buffer.CounterOffsetInBytes = k ? 4096 : 0;
        ID3D12Device_CreateUnorderedAccessView(env->device, buffers[k], k ? counter2 : counter, &desc, cpu_at(env, heap, 1 + k));
    }

    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &heap);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 0, gpu_at(env, heap, 1));
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_read_back(env->device, env->queue, counter, counter_words, sizeof(counter_words));
    counters[0] = counter_words[0];
    {
        uint32_t *far_words = calloc(2048, sizeof(*far_words));
        if (far_words)
            harness_read_back(env->device, env->queue, counter2, far_words, 2048 * sizeof(*far_words));
        counters[1] = far_words ? far_words[1024] : 0;
        free(far_words);
    }
    CHECK_MSG(counters[0] == 64 && counters[1] == 64, "UAV counters after 64 threads: %u and %u, expected 64 each", counters[0], counters[1]);
    memset(seen, 0, sizeof(seen));
    for (uint32_t k = 0; k < 2; k++) {
        harness_read_back(env->device, env->queue, buffers[k], values, sizeof(values));
        for (uint32_t i = 0; i < 64; i++) {
            uint32_t v = values[i] - (k ? 0 : 1000);
            if (v < 64)
                seen[k][v] = true;
        }
        for (uint32_t i = 0; i < 64; i++)
            CHECK_MSG(seen[k][i], "%s: value %u missing", k ? "IncrementCounter" : "Append", i + (k ? 0 : 1000));
    }
    CHECK_NO_LOG();

    harness_release_list(&list);
    ID3D12Resource_Release(buffers[0]);
    ID3D12Resource_Release(buffers[1]);
    ID3D12Resource_Release(counter);
    ID3D12Resource_Release(counter2);
    ID3D12DescriptorHeap_Release(heap);
    ID3D12PipelineState_Release(state);
    ID3D12RootSignature_Release(signature);
}

/* ---- tables that do not fit the bound heap ---- */

/* A list whose Dispatch was refused: Close fails naming it, and Reset takes the list back. */
static void close_refused(struct harness_list *list)
{
    size_t mark = harness_log_mark();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list->list), E_INVALIDARG);
    harness_check_log(mark, __FILE__, __LINE__, "Close", "Dispatch", NULL);
    CHECK_HR(ID3D12GraphicsCommandList2_Reset(list->list, list->allocator, NULL), S_OK);
}

static void test_bad_tables(struct env *env)
{
    static const char source[] =
        "RWBuffer<uint> outputs[4] : register(u0);\n"
        "[numthreads(1, 1, 1)] void main() { outputs[3][0] = 1; }\n";
    D3D12_DESCRIPTOR_RANGE1 uavs = range(D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 4, 0, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE);
    D3D12_ROOT_PARAMETER1 parameter = table(&uavs, 1);
    size_t mark;

    ID3D12RootSignature *signature = harness_root_signature(env->device, &parameter, 1, 0);
    ID3DBlob *code = harness_compile(source, 0);
    ID3D12PipelineState *state = harness_compute_pipeline(env->device, signature, code);
    ID3D10Blob_Release(code);
    ID3D12DescriptorHeap *heap = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 8, true);
    ID3D12DescriptorHeap *samplers = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, 8, true);
    ID3D12DescriptorHeap *heaps[2] = {heap, samplers};
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);

    /* the array's last element would be descriptor 8 of 8 */
    mark = harness_log_mark();
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 2, heaps);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 0, gpu_at(env, heap, 5));
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    harness_check_log(mark, __FILE__, __LINE__, "Dispatch", "register u0", "does not lie inside the bound CBV_SRV_UAV heap", "5 to 8 of 8", NULL);
    close_refused(&list);

    /* the same table read by a pipeline that reaches less, then by one that reaches past the heap:
     * the pipeline change alone is checked too (the table starts stay; the reach is the new pipeline's) */
    {
        static const char near_source[] =
            "RWBuffer<uint> output : register(u0);\n"
            "[numthreads(1, 1, 1)] void main() { output[0] = 1; }\n";
        ID3DBlob *near_code = harness_compile(near_source, 0);
        ID3D12PipelineState *near = harness_compute_pipeline(env->device, signature, near_code);
        ID3D10Blob_Release(near_code);
        mark = harness_log_mark();
        ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 2, heaps);
        ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, near);
        ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 0, gpu_at(env, heap, 5));
        ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
        ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
        harness_check_log(mark, __FILE__, __LINE__, "Dispatch", "register u0", "does not lie inside the bound CBV_SRV_UAV heap", "5 to 8 of 8", NULL);
        close_refused(&list);
        ID3D12PipelineState_Release(near);
    }

    /* a handle of the sampler heap for a CBV_SRV_UAV table */
    mark = harness_log_mark();
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 2, heaps);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 0, ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(samplers));
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    harness_check_log(mark, __FILE__, __LINE__, "Dispatch", "root parameter 0", "does not lie inside the bound CBV_SRV_UAV heap", NULL);
    mark = harness_log_mark();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
    harness_check_log(mark, __FILE__, __LINE__, "Close", "Dispatch", NULL);

    harness_release_list(&list);
    ID3D12DescriptorHeap_Release(samplers);
    ID3D12DescriptorHeap_Release(heap);
    ID3D12PipelineState_Release(state);
    ID3D12RootSignature_Release(signature);
}

/* ---- views and root descriptors of a released resource ---- */

static void test_released_resource(struct env *env)
{
    static const char source[] =
        "RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(1, 1, 1)] void main() { output.Store(0, 1); }\n";
    D3D12_ROOT_PARAMETER1 parameter = root_parameter(D3D12_ROOT_PARAMETER_TYPE_UAV, 0, 0);
    ID3D12Resource *buffer = harness_uav_buffer(env->device, 256);
    D3D12_GPU_VIRTUAL_ADDRESS address = ID3D12Resource_GetGPUVirtualAddress(buffer);
    ID3D12DescriptorHeap *heap = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 1, true);
    D3D12_CONSTANT_BUFFER_VIEW_DESC cbv = {address, 256};
    size_t mark;

    ID3D12RootSignature *signature = harness_root_signature(env->device, &parameter, 1, 0);
    ID3DBlob *code = harness_compile(source, 0);
    ID3D12PipelineState *state = harness_compute_pipeline(env->device, signature, code);
    ID3D10Blob_Release(code);
    ID3D12Resource_Release(buffer); /* its GPU virtual address names nothing now */

    mark = harness_log_mark();
    ID3D12Device_CreateConstantBufferView(env->device, &cbv, cpu_at(env, heap, 0));
    harness_check_log(mark, __FILE__, __LINE__, "CreateConstantBufferView", "BufferLocation", "not inside one live buffer", NULL);

    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    mark = harness_log_mark();
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 0, address);
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    harness_check_log(mark, __FILE__, __LINE__, "Dispatch", "root parameter 0", "not an address in a live buffer", NULL);
    mark = harness_log_mark();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
    harness_check_log(mark, __FILE__, __LINE__, "Close", "Dispatch", NULL);

    harness_release_list(&list);
    ID3D12DescriptorHeap_Release(heap);
    ID3D12PipelineState_Release(state);
    ID3D12RootSignature_Release(signature);
}

/* ---- DispatchX variants of a pipeline that reads tables ---- */

static void test_dispatchx_variants(struct env *env)
{
    static const char source[] =
        "RWBuffer<uint> output : register(u0);\n"
        "cbuffer Add : register(b0) { uint add; };\n"
        "[numthreads(64, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { output[id.x] = id.x + add; }\n";
    D3D12_DESCRIPTOR_RANGE1 uav = range(D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 1, 0, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE);
    D3D12_ROOT_PARAMETER1 parameters[2] = {root_parameter(D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS, 0, 1), table(&uav, 1)};
    static const D3D12XBOX_DISPATCH_FLAGS flags[3] = {D3D12XBOX_DISPATCH_FLAG_USE_THREAD_DIMENSIONS,
            D3D12XBOX_DISPATCH_FLAG_DISABLE_VOLATILE_VECTOR_L1, D3D12XBOX_DISPATCH_FLAG_NONE};
    uint32_t words[256];
    LOG_MARK();

    ID3D12RootSignature *signature = harness_root_signature(env->device, parameters, 2, 0);
    ID3DBlob *code = harness_compile(source, 0);
    ID3D12PipelineState *state = harness_compute_pipeline(env->device, signature, code);
    ID3D10Blob_Release(code);
    ID3D12DescriptorHeap *heap = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4, true);
    for (int f = 0; f < 3; f++) {
        ID3D12Resource *output = harness_uav_buffer(env->device, sizeof(words));
        unsigned wrong = 0;
        buffer_uav(env, output, NULL, DXGI_FORMAT_R32_UINT, 0, 256, cpu_at(env, heap, 3));
        struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
        ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &heap);
        ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
        ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list.list, 0, 1000, 0);
        ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 1, gpu_at(env, heap, 3));
        /* threads (USE_THREAD_DIMENSIONS: 100 threads) or groups (2 groups: 128 threads) */
        ID3D12GraphicsCommandList_DispatchX((ID3D12GraphicsCommandList *)list.list, f ? 2 : 100, 1, 1, flags[f]);
        {
            ID3D12CommandQueue *queue = harness_create_queue(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
            harness_execute_and_wait(env->device, queue, &list);
            ID3D12CommandQueue_Release(queue);
        }
        harness_read_back(env->device, env->queue, output, words, sizeof(words));
        for (uint32_t i = 0; i < 256; i++)
            wrong += words[i] != (i < (f ? 128u : 100u) ? i + 1000 : 0);
        CHECK_MSG(!wrong, "DispatchX flags 0x%x through a table: %u of 256 words wrong", (unsigned)flags[f], wrong);
        harness_release_list(&list);
        ID3D12Resource_Release(output);
    }
    CHECK_NO_LOG();
    ID3D12DescriptorHeap_Release(heap);
    ID3D12PipelineState_Release(state);
    ID3D12RootSignature_Release(signature);
}

/* ---- a table set while the bound pipeline does not read it ---- */

/* Pipeline B reads tables 0 and 1, A only table 0. Table 1 moves while A is bound (A's dispatch
 * pushes nothing for it); B bound again must read the new table, not the start the last full
 * push left for it. */
static void test_table_unread_then_read(struct env *env)
{
    static const char only_first[] =
        "RWByteAddressBuffer out0 : register(u0);\n"
        "[numthreads(1, 1, 1)] void main() { out0.Store(0, 7); }\n";
    static const char both[] =
        "RWByteAddressBuffer out0 : register(u0);\n"
        "RWByteAddressBuffer counts : register(u1);\n"
        "[numthreads(1, 1, 1)] void main() { uint before; counts.InterlockedAdd(0, 1, before); out0.Store(4, 9); }\n";
    D3D12_DESCRIPTOR_RANGE1 ranges[2] = {range(D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 1, 0, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE),
            range(D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 1, 1, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE)};
    D3D12_ROOT_PARAMETER1 parameters[2] = {table(&ranges[0], 1), table(&ranges[1], 1)};
    ID3D12Resource *buffers[3];
    LOG_MARK();

    ID3D12RootSignature *signature = harness_root_signature(env->device, parameters, 2, 0);
    ID3DBlob *code_a = harness_compile(only_first, 0), *code_b = harness_compile(both, 0);
    ID3D12PipelineState *a = harness_compute_pipeline(env->device, signature, code_a), *b = harness_compute_pipeline(env->device, signature, code_b);
    ID3D10Blob_Release(code_a);
    ID3D10Blob_Release(code_b);
    ID3D12DescriptorHeap *heap = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4, true);
    for (UINT i = 0; i < 3; i++) {
        buffers[i] = harness_uav_buffer(env->device, 256);
        raw_uav(env, buffers[i], 0, 64, cpu_at(env, heap, i));
    }
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &heap);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 0, gpu_at(env, heap, 0));
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 1, gpu_at(env, heap, 1));
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, b);
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);     /* buffers[1] counts 1 */
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, a);
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 1, gpu_at(env, heap, 2));
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);     /* A reads no table 1 */
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, b);
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);     /* buffers[2] counts 1 */
    harness_execute_and_wait(env->device, env->queue, &list);
    CHECK_MSG(read_word(env, buffers[1], 0) == 1 && read_word(env, buffers[2], 0) == 1,
            "a table set while the pipeline bound read none: the first table counted %u dispatches and the new one %u (1 each)",
            read_word(env, buffers[1], 0), read_word(env, buffers[2], 0));
    CHECK_MSG(read_word(env, buffers[0], 0) == 7 && read_word(env, buffers[0], 1) == 9, "table 0 read 0x%x, 0x%x (7, 9)",
            read_word(env, buffers[0], 0), read_word(env, buffers[0], 1));
    CHECK_NO_LOG();
    harness_release_list(&list);
    for (UINT i = 0; i < 3; i++)
        ID3D12Resource_Release(buffers[i]);
    ID3D12DescriptorHeap_Release(heap);
    ID3D12PipelineState_Release(a);
    ID3D12PipelineState_Release(b);
    ID3D12RootSignature_Release(signature);
}

/* ---- a heap released while work that reads it is in flight ---- */

/* D3D12 makes that the application's fault; d3d12xs keeps the descriptor memory until the work
 * enqueued before the Release is done, as it does for resources, so the dispatch still reads it. */
static void test_heap_released_in_flight(struct env *env)
{
    static const char source[] =
        "RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(1, 1, 1)] void main() { output.Store(12, 0xfeed); }\n";
    D3D12_DESCRIPTOR_RANGE1 uav = range(D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 1, 0, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE);
    D3D12_ROOT_PARAMETER1 parameter = table(&uav, 1);
    ID3D12Fence *gate = harness_create_fence(env->device, 0), *done = harness_create_fence(env->device, 0);
    LOG_MARK();

    ID3D12RootSignature *signature = harness_root_signature(env->device, &parameter, 1, 0);
    ID3DBlob *code = harness_compile(source, 0);
    ID3D12PipelineState *state = harness_compute_pipeline(env->device, signature, code);
    ID3D10Blob_Release(code);
    ID3D12DescriptorHeap *heap = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4, true);
    ID3D12Resource *output = harness_uav_buffer(env->device, 256);
    raw_uav(env, output, 0, 64, cpu_at(env, heap, 1));

    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &heap);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 0, gpu_at(env, heap, 1));
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), S_OK);
    /* the list waits behind a gate, so the heap goes while the dispatch is surely pending */
    CHECK_HR(ID3D12CommandQueue_Wait(env->queue, gate, 1), S_OK);
    ID3D12CommandQueue_ExecuteCommandLists(env->queue, 1, (ID3D12CommandList **)&list.list);
    CHECK_HR(ID3D12CommandQueue_Signal(env->queue, done, 1), S_OK);
    ID3D12DescriptorHeap_Release(heap);
    {
        /* memory of a new heap must not be the old one's while the dispatch is pending */
        ID3D12DescriptorHeap *other = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4, true);
        ID3D12Resource *decoy = harness_uav_buffer(env->device, 256);
        raw_uav(env, decoy, 0, 64, cpu_at(env, other, 1));
        CHECK_HR(ID3D12Fence_Signal(gate, 1), S_OK);
        CHECK_HR(ID3D12Fence_SetEventOnCompletion(done, 1, NULL), S_OK);
        CHECK_MSG(read_word(env, output, 3) == 0xfeed && read_word(env, decoy, 3) == 0,
                "a heap released in flight: the dispatch wrote 0x%x to its buffer and 0x%x to a new heap's", read_word(env, output, 3),
                read_word(env, decoy, 3));
        ID3D12Resource_Release(decoy);
        ID3D12DescriptorHeap_Release(other);
    }
    CHECK_NO_LOG();
    harness_release_list(&list);
    ID3D12Resource_Release(output);
    ID3D12Fence_Release(gate);
    ID3D12Fence_Release(done);
    ID3D12PipelineState_Release(state);
    ID3D12RootSignature_Release(signature);
}

int main(void)
{
    struct env env;
    harness_init();
    env.device = harness_create_device();
    env.queue = harness_create_queue(env.device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    env.increment = ID3D12Device_GetDescriptorHandleIncrementSize(env.device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    test_large_heap(&env);
    test_unbounded_nonuniform(&env);
    test_written_after_close(&env);
    test_arrays_of_each_kind(&env);
    test_counters(&env);
    test_bad_tables(&env);
    test_released_resource(&env);
    test_dispatchx_variants(&env);
    test_table_unread_then_read(&env);
    test_heap_released_in_flight(&env);
    ID3D12CommandQueue_Release(env.queue);
    harness_release_device(env.device);
    return harness_finish();
}
