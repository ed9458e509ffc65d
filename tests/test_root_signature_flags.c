/* The console root signature flags at work (SPEC §2.5), besides directly indexed heaps
 * (test_heap_indexing.c) and the flag checks of the blob (test_root_signature_blob.c):
 * root arguments survive internal work with and without FORCE_COMPUTE_2_SPILL_AREA and with
 * the memory-based ABI; the memory-based ABI takes more root constants than push constants
 * hold; root CBV/SRV/UAV arguments reach the shader through memory with it;
 * D3D12XSGetCommandListDispatchCounters; DENY_* flags on compute. */
#include <stdio.h>
#include <string.h>

#include <d3dcompiler.h>

#include "harness.h"

#define ROUNDS 4

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
};

static ID3DBlob *compile(const char *source)
{
    ID3DBlob *code = NULL, *errors = NULL;
    HRESULT hr = D3DCompile(source, strlen(source), "flags.hlsl", NULL, NULL, "main", "cs_6_0", 0, 0, &code, &errors);
    CHECK_MSG(SUCCEEDED(hr), "D3DCompile failed: %s", errors ? (const char *)ID3D10Blob_GetBufferPointer(errors) : "?");
    if (errors)
        ID3D10Blob_Release(errors);
    return code;
}

static ID3D12RootSignature *root_signature(ID3D12Device *device, const D3D12_ROOT_PARAMETER1 *parameters, UINT count,
        D3D12_ROOT_SIGNATURE_FLAGS flags)
{
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc;
    ID3DBlob *blob = NULL;
    ID3D12RootSignature *signature = NULL;

    memset(&desc, 0, sizeof(desc));
    desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    desc.Desc_1_1.NumParameters = count;
    desc.Desc_1_1.pParameters = parameters;
    desc.Desc_1_1.Flags = flags;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&desc, &blob, NULL), S_OK);
    if (!blob)
        return NULL;
    CHECK_HR(ID3D12Device_CreateRootSignature(device, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
            &IID_ID3D12RootSignature, (void **)&signature), S_OK);
    ID3D10Blob_Release(blob);
    return signature;
}

static void raw_uav(ID3D12Device *device, ID3D12Resource *resource, UINT words, D3D12_CPU_DESCRIPTOR_HANDLE at)
{
    D3D12_UNORDERED_ACCESS_VIEW_DESC desc;
    memset(&desc, 0, sizeof(desc));
    desc.Format = DXGI_FORMAT_R32_TYPELESS;
    desc.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
    desc.Buffer.NumElements = words;
    desc.Buffer.Flags = D3D12_BUFFER_UAV_FLAG_RAW;
    ID3D12Device_CreateUnorderedAccessView(device, resource, NULL, &desc, at);
}

/* Root constants, a root UAV and a table set once; between dispatches, every kind of work the
 * library does on its own (a UAV clear, timestamps and their resolve, a copy, a value write
 * and a wait on memory, which starts a new command buffer); each dispatch adds the
 * arguments it sees to three sums. */
static void test_arguments_survive_internal_work(struct env *env, D3D12_ROOT_SIGNATURE_FLAGS flags)
{
    static const char source[] =
        "cbuffer Root : register(b0) { uint a; uint b; };\n"
        "RWByteAddressBuffer sums : register(u0);\n"
        "ByteAddressBuffer table_input : register(t0);\n"
        "[numthreads(1, 1, 1)]\n"
        "void main()\n"
        "{\n"
        "    uint old;\n"
        "    sums.InterlockedAdd(0, a, old);\n"
        "    sums.InterlockedAdd(4, b, old);\n"
        "    sums.InterlockedAdd(8, table_input.Load(0), old);\n"
        "}\n";
    D3D12_DESCRIPTOR_HEAP_DESC visible_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 2, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    D3D12_DESCRIPTOR_HEAP_DESC cpu_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    D3D12_QUERY_HEAP_DESC query_desc = {D3D12_QUERY_HEAP_TYPE_TIMESTAMP, ROUNDS, 0};
    D3D12_DESCRIPTOR_RANGE1 range;
    D3D12_ROOT_PARAMETER1 parameters[3];
    D3D12_SHADER_RESOURCE_VIEW_DESC srv;
    ID3D12DescriptorHeap *visible = NULL, *cpu_heap = NULL;
    ID3D12QueryHeap *queries = NULL;
    uint32_t constants[2] = {3, 1000}, *mapped, sums[4], cleared[16];
    uint64_t timestamps[ROUNDS], *memory = NULL;
    const bool memory_abi = flags & D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI;
    D3D12XS_DISPATCH_COUNTERS counters;
    UINT increment = ID3D12Device_GetDescriptorHandleIncrementSize(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);

    memset(&range, 0, sizeof(range));
    range.RangeType = D3D12_DESCRIPTOR_RANGE_TYPE_SRV;
    range.NumDescriptors = 1;
    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 2;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    parameters[2].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    parameters[2].DescriptorTable.NumDescriptorRanges = 1;
    parameters[2].DescriptorTable.pDescriptorRanges = &range;
    ID3D12RootSignature *signature = root_signature(env->device, parameters, 3, flags);
    ID3DBlob *code = compile(source);
    ID3D12PipelineState *state = code ? harness_compute_pipeline(env->device, signature, code) : NULL;
    ID3D12Resource *sum_buffer = harness_uav_buffer(env->device, sizeof(sums));
    ID3D12Resource *clear_target = harness_uav_buffer(env->device, sizeof(cleared));
    ID3D12Resource *input = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, 256, D3D12_RESOURCE_STATE_GENERIC_READ);
    ID3D12Resource *copy_target = harness_create_buffer(env->device, D3D12_HEAP_TYPE_DEFAULT, 256, D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12Resource *query_results = harness_create_buffer(env->device, D3D12_HEAP_TYPE_READBACK, sizeof(timestamps),
            D3D12_RESOURCE_STATE_COPY_DEST);
    CHECK_HR(ID3D12Resource_Map(input, 0, NULL, (void **)&mapped), S_OK);
    mapped[0] = 1000000;
    ID3D12Resource_Unmap(input, 0, NULL);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &visible_desc, &IID_ID3D12DescriptorHeap, (void **)&visible), S_OK);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &cpu_desc, &IID_ID3D12DescriptorHeap, (void **)&cpu_heap), S_OK);
    CHECK_HR(ID3D12Device_CreateQueryHeap(env->device, &query_desc, &IID_ID3D12QueryHeap, (void **)&queries), S_OK);
    CHECK_HR(D3D12XSAllocateGraphicsMemory(env->device, 65536, FALSE, (void **)&memory), S_OK);
    if (!state || !visible || !cpu_heap || !queries || !memory)
        goto done;
    memory[0] = 1; /* what the wait waits for: already there */
    memset(&srv, 0, sizeof(srv));
    srv.Format = DXGI_FORMAT_R32_TYPELESS;
    srv.ViewDimension = D3D12_SRV_DIMENSION_BUFFER;
    srv.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
    srv.Buffer.NumElements = 64;
    srv.Buffer.Flags = D3D12_BUFFER_SRV_FLAG_RAW;
    D3D12_CPU_DESCRIPTOR_HANDLE table_cpu = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(visible);
    D3D12_GPU_DESCRIPTOR_HANDLE table_gpu = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(visible);
    ID3D12Device_CreateShaderResourceView(env->device, input, &srv, table_cpu);
    D3D12_CPU_DESCRIPTOR_HANDLE clear_visible_cpu = {table_cpu.ptr + increment};
    D3D12_GPU_DESCRIPTOR_HANDLE clear_gpu = {table_gpu.ptr + increment};
    raw_uav(env->device, clear_target, 16, clear_visible_cpu);
    raw_uav(env->device, clear_target, 16, ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(cpu_heap));

    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    D3D12_RESOURCE_BARRIER uav_barrier = {D3D12_RESOURCE_BARRIER_TYPE_UAV, D3D12_RESOURCE_BARRIER_FLAG_NONE, .UAV = {NULL}};
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &visible);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(list.list, 0, 2, constants, 0);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 1, ID3D12Resource_GetGPUVirtualAddress(sum_buffer));
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 2, table_gpu);
    for (UINT round = 0; round < ROUNDS; round++) {
        const UINT values[4] = {0xc0de0000 + round, 0, 0, 0};
        ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
        ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &uav_barrier);
        ID3D12GraphicsCommandList2_ClearUnorderedAccessViewUint(list.list, clear_gpu,
                ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(cpu_heap), clear_target, values, 0, NULL);
        ID3D12GraphicsCommandList2_EndQuery(list.list, queries, D3D12_QUERY_TYPE_TIMESTAMP, round);
        ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, copy_target, 0, input, 0, 16);
        ID3D12GraphicsCommandList_Write64BitValueBottomOfPipeX(list.list, (D3D12_GPU_VIRTUAL_ADDRESS)(uintptr_t)&memory[1], round + 1,
                D3D12XBOX_FLUSH_NONE, D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
        ID3D12GraphicsCommandList_Wait64BitValueX(list.list, (D3D12_GPU_VIRTUAL_ADDRESS)(uintptr_t)&memory[0],
                D3D12_COMPARISON_FUNC_GREATER_EQUAL, 1, D3D12XBOX_WAIT_FLAG_NONE);
        /* An internal dispatch (the clock conversion) between the application's dispatches. */
        ID3D12GraphicsCommandList_Write64BitValueBottomOfPipeX(list.list, (D3D12_GPU_VIRTUAL_ADDRESS)(uintptr_t)&memory[2], 0,
                D3D12XBOX_FLUSH_NONE, D3D12XBOX_WRITE_VALUE_BOP_FLAG_SYSTEM_TIMESTAMP);
        ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &uav_barrier);
    }
    ID3D12GraphicsCommandList2_ResolveQueryData(list.list, queries, D3D12_QUERY_TYPE_TIMESTAMP, 0, ROUNDS, query_results, 0);
    CHECK_HR(D3D12XSGetCommandListDispatchCounters((ID3D12CommandList *)list.list, &counters), S_OK);
    CHECK_MSG(counters.PushConstantAbiDispatches == (memory_abi ? 0 : ROUNDS) && counters.MemoryAbiDispatches == (memory_abi ? ROUNDS : 0),
            "flags 0x%x: %llu push-constant and %llu memory-based dispatches", (unsigned)flags,
            (unsigned long long)counters.PushConstantAbiDispatches, (unsigned long long)counters.MemoryAbiDispatches);
    /* The root UAV: through memory with the flag, pushed without; the table's SRV is read from
     * the heap's memory either way. */
    CHECK_MSG(counters.MemoryRootDescriptors == (memory_abi ? ROUNDS : 0) && counters.PushedRootDescriptors == (memory_abi ? 0 : ROUNDS),
            "flags 0x%x: %llu buffers through memory, %llu root descriptors pushed", (unsigned)flags,
            (unsigned long long)counters.MemoryRootDescriptors, (unsigned long long)counters.PushedRootDescriptors);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);

    harness_read_back(env->device, env->queue, sum_buffer, sums, sizeof(sums));
    harness_read_back(env->device, env->queue, clear_target, cleared, sizeof(cleared));
    CHECK_MSG(sums[0] == ROUNDS * 3 && sums[1] == ROUNDS * 1000 && sums[2] == ROUNDS * 1000000,
            "flags 0x%x: the dispatches saw arguments summing to %u %u %u, expected %u %u %u", (unsigned)flags, sums[0], sums[1],
            sums[2], ROUNDS * 3, ROUNDS * 1000, ROUNDS * 1000000);
    CHECK_MSG(cleared[0] == 0xc0de0000 + ROUNDS - 1 && cleared[15] == 0xc0de0000 + ROUNDS - 1, "flags 0x%x: the clears left 0x%x",
            (unsigned)flags, cleared[0]);
    CHECK_MSG(memory[1] == ROUNDS, "flags 0x%x: the value writes left %llu", (unsigned)flags, (unsigned long long)memory[1]);
    CHECK_HR(ID3D12Resource_Map(query_results, 0, NULL, (void **)&mapped), S_OK);
    memcpy(timestamps, mapped, sizeof(timestamps));
    ID3D12Resource_Unmap(query_results, 0, NULL);
    for (UINT round = 1; round < ROUNDS; round++)
        CHECK_MSG(timestamps[round] >= timestamps[round - 1] && timestamps[0], "flags 0x%x: timestamps %llu then %llu", (unsigned)flags,
                (unsigned long long)timestamps[round - 1], (unsigned long long)timestamps[round]);

done:
    if (memory)
        D3D12XSFreeGraphicsMemory(memory);
    if (queries)
        ID3D12QueryHeap_Release(queries);
    if (visible)
        ID3D12DescriptorHeap_Release(visible);
    if (cpu_heap)
        ID3D12DescriptorHeap_Release(cpu_heap);
    ID3D12Resource_Release(sum_buffer);
    ID3D12Resource_Release(clear_target);
    ID3D12Resource_Release(input);
    ID3D12Resource_Release(copy_target);
    ID3D12Resource_Release(query_results);
    if (state)
        ID3D12PipelineState_Release(state);
    if (code)
        ID3D10Blob_Release(code);
    ID3D12RootSignature_Release(signature);
}

/* 60 root constants (240 bytes) through memory, which holds them whatever the device's push
 * constants (Mesa 22.3's lavapipe had 128 bytes; Mesa 25 and the H200 have D3D12's 256:
 * test_dispatchx_threads fills those); out[i] = constant i for each of them. */
static void test_memory_abi_many_constants(struct env *env)
{
    static const char source[] =
        "cbuffer Root : register(b0) { uint4 c[15]; };\n"
        "RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(60, 1, 1)]\n"
        "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, c[id.x / 4][id.x % 4]); }\n";
    D3D12_ROOT_PARAMETER1 parameters[2];
    uint32_t constants[60], result[60];
    bool ok = true;

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 60;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    ID3D12RootSignature *signature = root_signature(env->device, parameters, 2, D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI);
    ID3DBlob *code = compile(source);
    ID3D12PipelineState *state = code ? harness_compute_pipeline(env->device, signature, code) : NULL;
    ID3D12Resource *output = harness_uav_buffer(env->device, sizeof(result));
    for (UINT i = 0; i < 60; i++)
        constants[i] = 7 * i + 1;
    if (state) {
        struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
        ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(list.list, 0, 60, constants, 0);
        ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 1, ID3D12Resource_GetGPUVirtualAddress(output));
        ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
        harness_execute_and_wait(env->device, env->queue, &list);
        harness_release_list(&list);
    }
    harness_read_back(env->device, env->queue, output, result, sizeof(result));
    for (UINT i = 0; i < 60 && ok; i++)
        CHECK_MSG(ok = result[i] == 7 * i + 1, "constant %u read through memory as %u, expected %u", i, result[i], 7 * i + 1);

    ID3D12Resource_Release(output);
    if (state)
        ID3D12PipelineState_Release(state);
    if (code)
        ID3D10Blob_Release(code);
    ID3D12RootSignature_Release(signature);
}

/* Root CBV, SRV and UAV through memory: three dispatches in one list, the second changing only
 * the root UAV's address, the third the CBV's and the SRV's too. No descriptor is pushed with
 * the memory-based ABI (the counters say so), and the results follow each address as with push
 * descriptors. The shader also reads the SRV's GetDimensions, which for a root descriptor
 * counts the elements from its address to the end of its buffer on both paths. Through memory
 * a fourth dispatch reads the SRV 4 bytes past a 16-byte boundary, which D3D12 allows and
 * push descriptors on lavapipe (minStorageBufferOffsetAlignment 16) cannot do. */
static void test_root_descriptors_through_memory(struct env *env, D3D12_ROOT_SIGNATURE_FLAGS flags)
{
    static const char source[] =
        "cbuffer Root : register(b0) { uint scale; };\n"
        "StructuredBuffer<uint> input : register(t0);\n"
        "RWStructuredBuffer<uint> output : register(u0);\n"
        "[numthreads(4, 1, 1)]\n"
        "void main(uint3 id : SV_DispatchThreadID)\n"
        "{\n"
        "    uint count, stride;\n"
        "    input.GetDimensions(count, stride);\n"
        "    output[id.x] = input[id.x] * scale + count * 1000 + stride;\n"
        "}\n";
    /* the upload buffer: scale 2 at 0, scale 5 at 256, inputs at 512 and 768 */
    static const uint32_t scales[2] = {2, 5}, inputs[2][4] = {{1, 2, 3, 4}, {10, 20, 30, 40}};
    const bool memory_abi = flags & D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI;
    D3D12_ROOT_PARAMETER1 parameters[3];
    D3D12XS_DISPATCH_COUNTERS counters;
    ID3D12Resource *outputs[4];
    const UINT dispatches = memory_abi ? 4 : 3, srv_offsets[4] = {512, 512, 768, 516};
    uint32_t result[4];
    uint8_t *mapped = NULL;

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_CBV;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV;
    parameters[2].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    ID3D12RootSignature *signature = root_signature(env->device, parameters, 3, flags);
    ID3DBlob *code = compile(source);
    ID3D12PipelineState *state = code ? harness_compute_pipeline(env->device, signature, code) : NULL;
    ID3D12Resource *upload = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, 1024, D3D12_RESOURCE_STATE_GENERIC_READ);
    D3D12_GPU_VIRTUAL_ADDRESS base = ID3D12Resource_GetGPUVirtualAddress(upload);
    CHECK_HR(ID3D12Resource_Map(upload, 0, NULL, (void **)&mapped), S_OK);
    if (mapped) {
        memset(mapped, 0, 1024);
        memcpy(mapped, &scales[0], 4);
        memcpy(mapped + 256, &scales[1], 4);
        memcpy(mapped + 512, inputs[0], sizeof(inputs[0]));
        memcpy(mapped + 768, inputs[1], sizeof(inputs[1]));
        ID3D12Resource_Unmap(upload, 0, NULL);
    }
    for (UINT i = 0; i < dispatches; i++)
        outputs[i] = harness_uav_buffer(env->device, sizeof(result));
    if (state) {
        struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
        ID3D12GraphicsCommandList2_SetComputeRootConstantBufferView(list.list, 0, base);
        ID3D12GraphicsCommandList2_SetComputeRootShaderResourceView(list.list, 1, base + 512);
        ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 2, ID3D12Resource_GetGPUVirtualAddress(outputs[0]));
        ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
        ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 2, ID3D12Resource_GetGPUVirtualAddress(outputs[1]));
        ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
        ID3D12GraphicsCommandList2_SetComputeRootConstantBufferView(list.list, 0, base + 256);
        ID3D12GraphicsCommandList2_SetComputeRootShaderResourceView(list.list, 1, base + 768);
        ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 2, ID3D12Resource_GetGPUVirtualAddress(outputs[2]));
        ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
        if (memory_abi) {
            ID3D12GraphicsCommandList2_SetComputeRootConstantBufferView(list.list, 0, base);
            ID3D12GraphicsCommandList2_SetComputeRootShaderResourceView(list.list, 1, base + srv_offsets[3]);
            ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 2, ID3D12Resource_GetGPUVirtualAddress(outputs[3]));
            ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
        }
        CHECK_HR(D3D12XSGetCommandListDispatchCounters((ID3D12CommandList *)list.list, &counters), S_OK);
        CHECK_MSG(counters.PushedRootDescriptors == (memory_abi ? 0 : 9) && counters.MemoryRootDescriptors == (memory_abi ? 12 : 0),
                "flags 0x%x: %llu root descriptors pushed, %llu through memory", (unsigned)flags,
                (unsigned long long)counters.PushedRootDescriptors, (unsigned long long)counters.MemoryRootDescriptors);
        harness_execute_and_wait(env->device, env->queue, &list);
        harness_release_list(&list);
    }
    for (UINT d = 0; d < dispatches; d++) {
        /* dispatches 0 and 1 read scale 2 and the input at 512, dispatch 2 scale 5 and the input
         * at 768, dispatch 3 scale 2 and the input from 516 (its element 3 is the zero after it) */
        UINT which = d == 2, count = (1024 - srv_offsets[d]) / 4, skip = d == 3;
        harness_read_back(env->device, env->queue, outputs[d], result, sizeof(result));
        for (UINT i = 0; i < 4; i++) {
            uint32_t expected = (i + skip < 4 ? inputs[which][i + skip] : 0) * scales[which] + count * 1000 + 4;
            CHECK_MSG(result[i] == expected, "flags 0x%x: dispatch %u thread %u wrote %u, expected %u", (unsigned)flags, d, i,
                    result[i], expected);
        }
        ID3D12Resource_Release(outputs[d]);
    }
    ID3D12Resource_Release(upload);
    if (state)
        ID3D12PipelineState_Release(state);
    if (code)
        ID3D10Blob_Release(code);
    ID3D12RootSignature_Release(signature);
}

static void test_dispatch_counters_arguments(struct env *env)
{
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    D3D12XS_DISPATCH_COUNTERS counters;
    LOG_MARK();

    CHECK_HR(D3D12XSGetCommandListDispatchCounters(NULL, &counters), E_INVALIDARG);
    CHECK_LOG("D3D12XSGetCommandListDispatchCounters", "list is NULL");
    RELOG_MARK();
    CHECK_HR(D3D12XSGetCommandListDispatchCounters((ID3D12CommandList *)env->queue, &counters), E_INVALIDARG);
    CHECK_LOG("D3D12XSGetCommandListDispatchCounters", "not a d3d12xs command list");
    RELOG_MARK();
    CHECK_HR(D3D12XSGetCommandListDispatchCounters((ID3D12CommandList *)list.list, NULL), E_INVALIDARG);
    CHECK_LOG("D3D12XSGetCommandListDispatchCounters", "counters is NULL");
    memset(&counters, 0xff, sizeof(counters));
    CHECK_HR(D3D12XSGetCommandListDispatchCounters((ID3D12CommandList *)list.list, &counters), S_OK);
    CHECK(counters.PushConstantAbiDispatches == 0 && counters.MemoryAbiDispatches == 0);
    harness_release_list(&list);
}

/* DENY_* name graphics stages, which have no pipelines here: a compute root signature with all
 * of them (and ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT) works as without them, and keeps them. */
static void test_deny_flags(struct env *env)
{
    static const char source[] =
        "cbuffer Root : register(b0) { uint value; };\n"
        "RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(4, 1, 1)]\n"
        "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, value * 10 + id.x); }\n";
    const D3D12_ROOT_SIGNATURE_FLAGS deny = D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT
            | D3D12_ROOT_SIGNATURE_FLAG_DENY_VERTEX_SHADER_ROOT_ACCESS | D3D12_ROOT_SIGNATURE_FLAG_DENY_HULL_SHADER_ROOT_ACCESS
            | D3D12_ROOT_SIGNATURE_FLAG_DENY_DOMAIN_SHADER_ROOT_ACCESS | D3D12_ROOT_SIGNATURE_FLAG_DENY_GEOMETRY_SHADER_ROOT_ACCESS
            | D3D12_ROOT_SIGNATURE_FLAG_DENY_PIXEL_SHADER_ROOT_ACCESS | D3D12_ROOT_SIGNATURE_FLAG_DENY_AMPLIFICATION_SHADER_ROOT_ACCESS
            | D3D12_ROOT_SIGNATURE_FLAG_DENY_MESH_SHADER_ROOT_ACCESS;
    D3D12_ROOT_PARAMETER1 parameters[2];
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc;
    ID3D12VersionedRootSignatureDeserializer *deserializer = NULL;
    ID3DBlob *blob = NULL;
    uint32_t result[4];

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 1;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    ID3D12RootSignature *signature = root_signature(env->device, parameters, 2, deny);
    ID3DBlob *code = compile(source);
    ID3D12PipelineState *state = code ? harness_compute_pipeline(env->device, signature, code) : NULL;
    ID3D12Resource *output = harness_uav_buffer(env->device, sizeof(result));
    if (state) {
        struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
        ID3D12CommandQueue *queue = harness_create_queue(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
        ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
        ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list.list, 0, 9, 0);
        ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 1, ID3D12Resource_GetGPUVirtualAddress(output));
        ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
        harness_execute_and_wait(env->device, queue, &list);
        harness_release_list(&list);
        ID3D12CommandQueue_Release(queue);
    }
    harness_read_back(env->device, env->queue, output, result, sizeof(result));
    for (UINT i = 0; i < 4; i++)
        CHECK_MSG(result[i] == 90 + i, "DENY_* root signature: thread %u wrote %u, expected %u", i, result[i], 90 + i);

    memset(&desc, 0, sizeof(desc));
    desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    desc.Desc_1_1.NumParameters = 2;
    desc.Desc_1_1.pParameters = parameters;
    desc.Desc_1_1.Flags = deny;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&desc, &blob, NULL), S_OK);
    if (blob) {
        CHECK_HR(D3D12CreateVersionedRootSignatureDeserializer(ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
                &IID_ID3D12VersionedRootSignatureDeserializer, (void **)&deserializer), S_OK);
        if (deserializer) {
            const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *back = ID3D12VersionedRootSignatureDeserializer_GetUnconvertedRootSignatureDesc(deserializer);
            CHECK_MSG(back && back->Desc_1_1.Flags == deny, "DENY_* flags read back as 0x%x", back ? (unsigned)back->Desc_1_1.Flags : 0u);
            ID3D12VersionedRootSignatureDeserializer_Release(deserializer);
        }
        ID3D10Blob_Release(blob);
    }

    ID3D12Resource_Release(output);
    if (state)
        ID3D12PipelineState_Release(state);
    if (code)
        ID3D10Blob_Release(code);
    ID3D12RootSignature_Release(signature);
}

int main(void)
{
    static const D3D12_ROOT_SIGNATURE_FLAGS flag_sets[] = {
        D3D12_ROOT_SIGNATURE_FLAG_NONE,
        D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_COMPUTE_2_SPILL_AREA,
        D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI,
        D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI | D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_COMPUTE_2_SPILL_AREA,
    };
    struct env env;

    harness_init();
    env.device = harness_create_device();
    env.queue = harness_create_queue(env.device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    for (size_t i = 0; i < sizeof(flag_sets) / sizeof(flag_sets[0]); i++) {
        LOG_MARK();
        test_arguments_survive_internal_work(&env, flag_sets[i]);
        /* both console bits are INTERNAL_XDXR: accepted with a warning, no error line */
        CHECK_NO_LOG();
    }
    test_memory_abi_many_constants(&env);
    test_root_descriptors_through_memory(&env, D3D12_ROOT_SIGNATURE_FLAG_NONE);
    test_root_descriptors_through_memory(&env, D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI);
    test_dispatch_counters_arguments(&env);
    test_deny_flags(&env);
    ID3D12CommandQueue_Release(env.queue);
    harness_release_device(env.device);
    return harness_finish();
}
