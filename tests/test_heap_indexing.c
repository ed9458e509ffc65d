/* Root signatures with CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED: shaders index the bound heap
 * through <d3d12xs_heap.hlsli>, hundreds of descriptors at a time, with bounds that never
 * reach application memory; textures and samplers of the heaps by slot (with
 * SAMPLER_HEAP_DIRECTLY_INDEXED too); without the flags such shaders are refused. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <d3dcompiler.h>

#include "harness.h"

#define BUFFER_COUNT 500
#define BUFFER_WORDS 64
#define OUTPUT_INDEX BUFFER_COUNT       /* raw UAV: one word per thread */
#define STRUCTURED_INDEX (BUFFER_COUNT + 1) /* structured SRV, stride 8 */
#define COUNTER_INDEX (BUFFER_COUNT + 2)    /* raw UAV of 4 words: atomics */
#define HEAP_SIZE (BUFFER_COUNT + 3)

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12DescriptorHeap *heap;
    UINT increment;
};

static ID3DBlob *compile(const char *source)
{
    ID3DBlob *code = NULL, *errors = NULL;
    HRESULT hr = D3DCompile(source, strlen(source), "heap.hlsl", NULL, NULL, "main", "cs_6_0", 0, 0, &code, &errors);
    CHECK_MSG(SUCCEEDED(hr), "D3DCompile failed: %s", errors ? (const char *)ID3D10Blob_GetBufferPointer(errors) : "?");
    if (errors)
        ID3D10Blob_Release(errors);
    return code;
}

static ID3D12RootSignature *root_signature(ID3D12Device *device, D3D12_ROOT_SIGNATURE_FLAGS flags)
{
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc;
    D3D12_ROOT_PARAMETER1 parameter;
    ID3DBlob *blob = NULL;
    ID3D12RootSignature *signature = NULL;

    memset(&parameter, 0, sizeof(parameter));
    parameter.ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameter.Constants.Num32BitValues = 2;
    memset(&desc, 0, sizeof(desc));
    desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    desc.Desc_1_1.NumParameters = 1;
    desc.Desc_1_1.pParameters = &parameter;
    desc.Desc_1_1.Flags = flags;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&desc, &blob, NULL), S_OK);
    if (!blob)
        return NULL;
    CHECK_HR(ID3D12Device_CreateRootSignature(device, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
            &IID_ID3D12RootSignature, (void **)&signature), S_OK);
    ID3D10Blob_Release(blob);
    return signature;
}

static D3D12_CPU_DESCRIPTOR_HANDLE cpu_at(struct env *env, ID3D12DescriptorHeap *heap, UINT index)
{
    D3D12_CPU_DESCRIPTOR_HANDLE handle = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap);
    handle.ptr += (SIZE_T)index * env->increment;
    return handle;
}

static void raw_view(struct env *env, ID3D12Resource *resource, UINT first_word, UINT words, bool uav, D3D12_CPU_DESCRIPTOR_HANDLE at)
{
    if (uav) {
        D3D12_UNORDERED_ACCESS_VIEW_DESC desc;
        memset(&desc, 0, sizeof(desc));
        desc.Format = DXGI_FORMAT_R32_TYPELESS;
        desc.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
        desc.Buffer.FirstElement = first_word;
        desc.Buffer.NumElements = words;
        desc.Buffer.Flags = D3D12_BUFFER_UAV_FLAG_RAW;
        ID3D12Device_CreateUnorderedAccessView(env->device, resource, NULL, &desc, at);
    } else {
        D3D12_SHADER_RESOURCE_VIEW_DESC desc;
        memset(&desc, 0, sizeof(desc));
        desc.Format = DXGI_FORMAT_R32_TYPELESS;
        desc.ViewDimension = D3D12_SRV_DIMENSION_BUFFER;
        desc.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
        desc.Buffer.FirstElement = first_word;
        desc.Buffer.NumElements = words;
        desc.Buffer.Flags = D3D12_BUFFER_SRV_FLAG_RAW;
        ID3D12Device_CreateShaderResourceView(env->device, resource, &desc, at);
    }
}

/* Thread t reads word (t + shift) % 64 of buffer t through heap[t], a structured element
 * and two reads outside the heap or a view, and writes the sum to heap[OUTPUT_INDEX] word t;
 * every thread adds 1 to heap[COUNTER_INDEX] word 0 and stores past the end of that view. */
static const char heap_source[] =
    "#include <d3d12xs_heap.hlsli>\n"
    "cbuffer Root : register(b0) { uint shift; uint bias; };\n"
    "[numthreads(64, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID)\n"
    "{\n"
    "    uint t = id.x;\n"
    "    if (t >= 500u) return;\n"
    "    uint v = D3D12XSHeapLoad(t, ((t + shift) % 64u) * 4u);\n"
    "    uint2 s = D3D12XSHeapLoad2(501u, (t % 16u) * 8u);\n"
    "    uint outside = D3D12XSHeapLoad(100000u + t, 0u) + D3D12XSHeapLoad(t, 256u + t * 4u);\n"
    "    D3D12XSHeapStore(500u, t * 4u, v + bias + s.y - s.x + outside);\n"
    "    D3D12XSHeapInterlockedAdd(502u, 0u, 1u);\n"
    "    D3D12XSHeapStore(502u, 16u + t * 4u, 0xdeadu);\n"
    "    D3D12XSHeapStore(400000u, 0u, 0xdeadu);\n"
    "}\n";

static void test_hundreds_of_descriptors(struct env *env)
{
    ID3D12Resource *buffers[BUFFER_COUNT], *output, *structured, *counter;
    ID3D12RootSignature *signature = root_signature(env->device, D3D12_ROOT_SIGNATURE_FLAG_CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED);
    ID3DBlob *code = compile(heap_source);
    ID3D12PipelineState *state = code ? harness_compute_pipeline(env->device, signature, code) : NULL;
    uint32_t *mapped, result[BUFFER_COUNT + 16], counters[16], constants[2] = {5, 1000000};
    D3D12_SHADER_RESOURCE_VIEW_DESC srv;
    bool ok = true;

    for (UINT i = 0; i < BUFFER_COUNT; i++) {
        buffers[i] = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, BUFFER_WORDS * 4, D3D12_RESOURCE_STATE_GENERIC_READ);
        CHECK_HR(ID3D12Resource_Map(buffers[i], 0, NULL, (void **)&mapped), S_OK);
        for (UINT k = 0; k < BUFFER_WORDS; k++)
            mapped[k] = i * 1000 + k;
        ID3D12Resource_Unmap(buffers[i], 0, NULL);
        raw_view(env, buffers[i], 0, BUFFER_WORDS, false, cpu_at(env, env->heap, i));
    }
    /* The output view covers words 0..499 of a 516-word buffer: nothing may land past it. */
    output = harness_uav_buffer(env->device, sizeof(result)); /* starts zeroed */
    raw_view(env, output, 0, BUFFER_COUNT, true, cpu_at(env, env->heap, OUTPUT_INDEX));

    structured = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, 16 * 8, D3D12_RESOURCE_STATE_GENERIC_READ);
    CHECK_HR(ID3D12Resource_Map(structured, 0, NULL, (void **)&mapped), S_OK);
    for (UINT k = 0; k < 16; k++)
        mapped[2 * k] = k, mapped[2 * k + 1] = 3 * k;
    ID3D12Resource_Unmap(structured, 0, NULL);
    memset(&srv, 0, sizeof(srv));
    srv.ViewDimension = D3D12_SRV_DIMENSION_BUFFER;
    srv.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
    srv.Buffer.NumElements = 16;
    srv.Buffer.StructureByteStride = 8;
    ID3D12Device_CreateShaderResourceView(env->device, structured, &srv, cpu_at(env, env->heap, STRUCTURED_INDEX));
    counter = harness_uav_buffer(env->device, sizeof(counters));
    raw_view(env, counter, 0, 4, true, cpu_at(env, env->heap, COUNTER_INDEX));

    if (state) {
        struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &env->heap);
        ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
        ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(list.list, 0, 2, constants, 0);
        ID3D12GraphicsCommandList2_Dispatch(list.list, (BUFFER_COUNT + 63) / 64, 1, 1);
        harness_execute_and_wait(env->device, env->queue, &list);
        harness_release_list(&list);
    }
    harness_read_back(env->device, env->queue, output, result, sizeof(result));
    harness_read_back(env->device, env->queue, counter, counters, sizeof(counters));
    for (UINT t = 0; t < BUFFER_COUNT && ok; t++) {
        uint32_t expected = t * 1000 + (t + 5) % 64 + 1000000 + 3 * (t % 16) - (t % 16);
        ok = result[t] == expected;
        CHECK_MSG(ok, "thread %u wrote %u, expected %u", t, result[t], expected);
    }
    CHECK_MSG(ok, "%u descriptors read by index through the heap", BUFFER_COUNT);
    for (UINT k = BUFFER_COUNT; k < BUFFER_COUNT + 16; k++)
        CHECK_MSG(result[k] == 0, "word %u past the output view is 0x%x (nothing may land outside a view)", k, result[k]);
    CHECK_MSG(counters[0] == BUFFER_COUNT, "atomic adds through the heap: %u, expected %u", counters[0], BUFFER_COUNT);
    for (UINT k = 1; k < 16; k++)
        CHECK_MSG(counters[k] == 0, "counter buffer word %u is 0x%x: a store outside the 4-word view landed", k, counters[k]);

    for (UINT i = 0; i < BUFFER_COUNT; i++)
        ID3D12Resource_Release(buffers[i]);
    ID3D12Resource_Release(output);
    ID3D12Resource_Release(structured);
    ID3D12Resource_Release(counter);
    if (state)
        ID3D12PipelineState_Release(state);
    if (code)
        ID3D10Blob_Release(code);
    ID3D12RootSignature_Release(signature);
}

/* The heap is read when the dispatch runs: a descriptor copied in (CopyDescriptorsSimple)
 * after the Dispatch was recorded is the one the shader sees. */
static void test_heap_read_at_execution(struct env *env)
{
    static const char source[] =
        "#include <d3d12xs_heap.hlsli>\n"
        "cbuffer Root : register(b0) { uint from; uint to; };\n"
        "[numthreads(1, 1, 1)]\n"
        "void main() { D3D12XSHeapStore(to, 0u, D3D12XSHeapLoad(from, 4u) + D3D12XSHeapCount()); }\n";
    D3D12_DESCRIPTOR_HEAP_DESC staging_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    ID3D12RootSignature *signature = root_signature(env->device, D3D12_ROOT_SIGNATURE_FLAG_CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED);
    ID3DBlob *code = compile(source);
    ID3D12PipelineState *state = code ? harness_compute_pipeline(env->device, signature, code) : NULL;
    ID3D12Resource *first = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, 256, D3D12_RESOURCE_STATE_GENERIC_READ);
    ID3D12Resource *second = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, 256, D3D12_RESOURCE_STATE_GENERIC_READ);
    ID3D12Resource *output = harness_uav_buffer(env->device, 256);
    ID3D12DescriptorHeap *staging = NULL;
    uint32_t *mapped, result = 0, constants[2] = {7, 8};

    CHECK_HR(ID3D12Resource_Map(first, 0, NULL, (void **)&mapped), S_OK);
    mapped[1] = 111;
    ID3D12Resource_Unmap(first, 0, NULL);
    CHECK_HR(ID3D12Resource_Map(second, 0, NULL, (void **)&mapped), S_OK);
    mapped[1] = 222;
    ID3D12Resource_Unmap(second, 0, NULL);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &staging_desc, &IID_ID3D12DescriptorHeap, (void **)&staging), S_OK);
    raw_view(env, first, 0, 64, false, cpu_at(env, env->heap, 7));
    raw_view(env, second, 0, 64, false, cpu_at(env, staging, 0));
    raw_view(env, output, 0, 64, true, cpu_at(env, env->heap, 8));
    if (state && staging) {
        struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
        ID3D12CommandQueue *queue = harness_create_queue(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
        ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &env->heap);
        ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
        ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(list.list, 0, 2, constants, 0);
        ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
        /* the dispatch is recorded: only its execution can see this copy */
        ID3D12Device_CopyDescriptorsSimple(env->device, 1, cpu_at(env, env->heap, 7), cpu_at(env, staging, 0),
                D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
        harness_execute_and_wait(env->device, queue, &list);
        harness_release_list(&list);
        ID3D12CommandQueue_Release(queue);
    }
    harness_read_back(env->device, env->queue, output, &result, sizeof(result));
    CHECK_MSG(result == 222 + HEAP_SIZE, "read through a descriptor copied in after recording: %u, expected %u", result, 222 + HEAP_SIZE);

    if (staging)
        ID3D12DescriptorHeap_Release(staging);
    ID3D12Resource_Release(first);
    ID3D12Resource_Release(second);
    ID3D12Resource_Release(output);
    if (state)
        ID3D12PipelineState_Release(state);
    if (code)
        ID3D10Blob_Release(code);
    ID3D12RootSignature_Release(signature);
}

/* Views of different sizes picked per thread (NonUniformResourceIndex inside the header), a null
 * view, and a descriptor table read alongside, on both root ABIs: thread t reads word t of
 * heap[t % 8] (view k holds 8 * (k + 1) words, so some reads fall past it) and the table's
 * UAV gets the sum of what it saw, the view size and the heap's size. */
static void test_sizes_nonuniform_with_table(struct env *env, D3D12_ROOT_SIGNATURE_FLAGS abi, UINT compile_flags)
{
    static const char source[] =
        "#include <d3d12xs_heap.hlsli>\n"
        "cbuffer Root : register(b0) { uint bias; };\n"
        "RWStructuredBuffer<uint> output : register(u0, space1);\n"
        "[numthreads(64, 1, 1)]\n"
        "void main(uint3 id : SV_DispatchThreadID)\n"
        "{\n"
        "    uint t = id.x, k = t % 8u;\n"
        "    uint v = D3D12XSHeapLoad(k, t * 4u);\n"
        "    output[t] = v + bias + (D3D12XSHeapViewSize(k) << 16) + D3D12XSHeapCount() * 1000000u\n"
        "            + D3D12XSHeapLoad(8u, 0u) + D3D12XSHeapViewSize(8u);\n"
        "}\n";
    D3D12_DESCRIPTOR_RANGE1 range = {D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 1, 0, 1, D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_VOLATILE, 0};
    D3D12_ROOT_PARAMETER1 parameters[2];
    ID3D12RootSignature *signature;
    ID3D10Blob *code = harness_compile(source, compile_flags);
    ID3D12PipelineState *state;
    ID3D12Resource *views[8], *output = harness_uav_buffer(env->device, 64 * 4);
    D3D12_UNORDERED_ACCESS_VIEW_DESC uav;
    D3D12_SHADER_RESOURCE_VIEW_DESC null_view;
    uint32_t result[64], bias = 7, *mapped;
    bool ok = true;

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 1;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    parameters[1].DescriptorTable.NumDescriptorRanges = 1;
    parameters[1].DescriptorTable.pDescriptorRanges = &range;
    signature = harness_root_signature(env->device, parameters, 2, D3D12_ROOT_SIGNATURE_FLAG_CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED | abi);
    state = code && signature ? harness_compute_pipeline(env->device, signature, code) : NULL;
    CHECK_MSG(state != NULL, "a pipeline with the header and a table (root signature flags 0x%x)", (unsigned)abi);
    for (UINT k = 0; k < 8; k++) {
        UINT words = 8 * (k + 1);
        views[k] = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, 256, D3D12_RESOURCE_STATE_GENERIC_READ);
        CHECK_HR(ID3D12Resource_Map(views[k], 0, NULL, (void **)&mapped), S_OK);
        for (UINT w = 0; w < 64; w++)
            mapped[w] = 100 * k + w; /* also past the view: nothing there may be read */
        ID3D12Resource_Unmap(views[k], 0, NULL);
        raw_view(env, views[k], 0, words, false, cpu_at(env, env->heap, k));
    }
    /* heap[8]: a null raw view (size 0, reads 0) */
    memset(&null_view, 0, sizeof(null_view));
    null_view.Format = DXGI_FORMAT_R32_TYPELESS;
    null_view.ViewDimension = D3D12_SRV_DIMENSION_BUFFER;
    null_view.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
    null_view.Buffer.NumElements = 1;
    null_view.Buffer.Flags = D3D12_BUFFER_SRV_FLAG_RAW;
    ID3D12Device_CreateShaderResourceView(env->device, NULL, &null_view, cpu_at(env, env->heap, 8));
    /* the table's UAV at heap[9] */
    memset(&uav, 0, sizeof(uav));
    uav.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
    uav.Buffer.NumElements = 64;
    uav.Buffer.StructureByteStride = 4;
    ID3D12Device_CreateUnorderedAccessView(env->device, output, NULL, &uav, cpu_at(env, env->heap, 9));
    if (state) {
        struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        D3D12_GPU_DESCRIPTOR_HANDLE table = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(env->heap);
        table.ptr += 9 * (UINT64)env->increment;
        ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &env->heap);
        ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
        ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(list.list, 0, 1, &bias, 0);
        ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 1, table);
        ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
        harness_execute_and_wait(env->device, env->queue, &list);
        harness_release_list(&list);
    }
    harness_read_back(env->device, env->queue, output, result, sizeof(result));
    for (UINT t = 0; t < 64 && ok; t++) {
        UINT k = t % 8, words = 8 * (k + 1);
        uint32_t expected = (t < words ? 100 * k + t : 0) + bias + (words * 4 << 16) + HEAP_SIZE * 1000000u;
        ok = result[t] == expected;
        CHECK_MSG(ok, "flags 0x%x: thread %u wrote 0x%x, expected 0x%x (view %u of %u words)", (unsigned)abi, t, result[t], expected, k, words);
    }
    CHECK_MSG(ok, "flags 0x%x: views of 8 sizes picked per thread, a null view and a table", (unsigned)abi);

    for (UINT k = 0; k < 8; k++)
        ID3D12Resource_Release(views[k]);
    ID3D12Resource_Release(output);
    if (state)
        ID3D12PipelineState_Release(state);
    if (code)
        ID3D10Blob_Release(code);
    if (signature)
        ID3D12RootSignature_Release(signature);
}

/* Without the flag, a shader that indexes the heap is refused; a dispatch without a heap set
 * is a recording error. */
static void test_refusals(struct env *env)
{
    ID3D12RootSignature *plain = root_signature(env->device, D3D12_ROOT_SIGNATURE_FLAG_NONE);
    ID3D12RootSignature *indexed = root_signature(env->device, D3D12_ROOT_SIGNATURE_FLAG_CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED);
    ID3DBlob *code = compile(heap_source);
    ID3D12PipelineState *state = NULL;
    D3D12_COMPUTE_PIPELINE_STATE_DESC desc;

    if (!code)
        return;
    memset(&desc, 0, sizeof(desc));
    desc.pRootSignature = plain;
    desc.CS.pShaderBytecode = ID3D10Blob_GetBufferPointer(code);
    desc.CS.BytecodeLength = ID3D10Blob_GetBufferSize(code);
    {
        LOG_MARK();
        CHECK_HR(ID3D12Device_CreateComputePipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&state),
                E_INVALIDARG);
        CHECK_LOG("CreateComputePipelineState", "D3D12_ROOT_SIGNATURE_FLAG_CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED");
    }
    CHECK(!state);
    desc.pRootSignature = indexed;
    CHECK_HR(ID3D12Device_CreateComputePipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&state), S_OK);
    if (state) {
        struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        LOG_MARK();
        ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, indexed);
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
        ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list.list, 0, 0, 0);
        ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list.list, 0, 0, 1);
        ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
        CHECK_LOG("Dispatch", "no CBV_SRV_UAV heap is set");
        RELOG_MARK();
        CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
        CHECK_LOG("Close", "no CBV_SRV_UAV heap is set");
        harness_release_list(&list);
        ID3D12PipelineState_Release(state);
    }
    ID3D10Blob_Release(code);
    ID3D12RootSignature_Release(plain);
    ID3D12RootSignature_Release(indexed);
}

/* The header's registers declared otherwise by the application: refused at pipeline creation
 * with a line naming the register or what is wrong. */
static void test_reserved_registers(struct env *env)
{
    static const struct {
        const char *source, *expected;
    } cases[] = {
        {"ByteAddressBuffer taken : register(t16381, space62);\n"
         "RWByteAddressBuffer output : register(u0);\n"
         "[numthreads(1, 1, 1)] void main() { output.Store(0, taken.Load(0)); }\n",
                "register t16381, space62 is reserved for d3d12xs_heap.hlsli"},
        {"RWByteAddressBuffer taken : register(u16381, space62);\n"
         "[numthreads(1, 1, 1)] void main() { taken.Store(0, 1u); }\n",
                "register u16381, space62 is reserved for d3d12xs_heap.hlsli"},
        {"cbuffer Taken : register(b16381, space62) { uint a; uint b; };\n"
         "RWByteAddressBuffer output : register(u0);\n"
         "[numthreads(1, 1, 1)] void main() { output.Store(0, a + b); }\n",
                "is not a cbuffer of one uint"},
    };
    D3D12_ROOT_PARAMETER1 parameter;
    ID3D12RootSignature *signature;

    memset(&parameter, 0, sizeof(parameter));
    parameter.ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    signature = harness_root_signature(env->device, &parameter, 1, D3D12_ROOT_SIGNATURE_FLAG_CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]) && signature; i++) {
        ID3D10Blob *code = harness_compile(cases[i].source, 0);
        D3D12_COMPUTE_PIPELINE_STATE_DESC desc;
        ID3D12PipelineState *state = NULL;
        if (!code)
            continue;
        memset(&desc, 0, sizeof(desc));
        desc.pRootSignature = signature;
        desc.CS.pShaderBytecode = ID3D10Blob_GetBufferPointer(code);
        desc.CS.BytecodeLength = ID3D10Blob_GetBufferSize(code);
        LOG_MARK();
        CHECK_HR(ID3D12Device_CreateComputePipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&state), E_INVALIDARG);
        CHECK_LOG("CreateComputePipelineState", cases[i].expected);
        CHECK(!state);
        ID3D10Blob_Release(code);
    }
    if (signature)
        ID3D12RootSignature_Release(signature);
}

/* Textures and samplers straight from the heaps (D3D12XS_HEAP_TEXTURES): a Texture2D sampled
 * through slot s of the SAMPLER heap (point, then linear), a Texture2D<uint4> loaded, the sum
 * stored through a RWTexture2D; all chosen by slot index, no table. */
static const char texture_heap_source[] =
    "#define D3D12XS_HEAP_TEXTURES\n"
    "#include <d3d12xs_heap.hlsli>\n"
    "cbuffer Root : register(b0) { uint sampler_slot; uint unused; };\n"
    "[numthreads(4, 4, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID)\n"
    "{\n"
    "    float2 uv = (float2(id.xy) + 0.75) / 4.0;\n"
    "    float4 c = D3D12XSHeapTexture2D(0).SampleLevel(D3D12XSHeapSampler(sampler_slot), uv, 0);\n"
    "    uint4 u = D3D12XSHeapTexture2DUint(2).Load(int3(id.xy, 0));\n"
    "    D3D12XSHeapRWTexture2D(1)[id.xy] = c + float4(u.x * 1000.0, 0, 0, 0);\n"
    "}\n";

static ID3D12Resource *small_texture(struct env *env, DXGI_FORMAT format, bool uav, const void *data, UINT texel_bytes)
{
    D3D12_HEAP_PROPERTIES heap = {D3D12_HEAP_TYPE_CUSTOM, D3D12_CPU_PAGE_PROPERTY_WRITE_BACK, D3D12_MEMORY_POOL_L0, 1, 1};
    D3D12_RESOURCE_DESC desc;
    ID3D12Resource *texture = NULL;

    memset(&desc, 0, sizeof(desc));
    desc.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    desc.Width = desc.Height = 4;
    desc.DepthOrArraySize = desc.MipLevels = 1;
    desc.Format = format;
    desc.SampleDesc.Count = 1;
    desc.Flags = uav ? D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS : D3D12_RESOURCE_FLAG_NONE;
    CHECK_HR(ID3D12Device_CreateCommittedResource(env->device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON, NULL,
            &IID_ID3D12Resource, (void **)&texture), S_OK);
    if (texture && data)
        CHECK_HR(ID3D12Resource_WriteToSubresource(texture, 0, NULL, data, 4 * texel_bytes, 16 * texel_bytes), S_OK);
    return texture;
}

static void test_textures_and_samplers(struct env *env)
{
    D3D12_DESCRIPTOR_HEAP_DESC view_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 3, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    D3D12_DESCRIPTOR_HEAP_DESC sampler_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, 2, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    const D3D12_ROOT_SIGNATURE_FLAGS both = D3D12_ROOT_SIGNATURE_FLAG_CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED
            | D3D12_ROOT_SIGNATURE_FLAG_SAMPLER_HEAP_DIRECTLY_INDEXED;
    ID3D12RootSignature *signature = root_signature(env->device, both);
    ID3D12RootSignature *views_only = root_signature(env->device, D3D12_ROOT_SIGNATURE_FLAG_CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED);
    ID3D12DescriptorHeap *views = NULL, *samplers = NULL;
    ID3D12Resource *source, *indices, *output;
    ID3D12PipelineState *state = NULL, *refused = NULL;
    ID3DBlob *code = compile(texture_heap_source);
    float texels[16][4], result[16][4];
    uint32_t index_texels[16];
    D3D12_SAMPLER_DESC sampler;
    LOG_MARK();

    for (unsigned i = 0; i < 16; i++) {
        texels[i][0] = (float)(i % 4);
        texels[i][1] = (float)(i / 4);
        texels[i][2] = 0.0f;
        texels[i][3] = 1.0f;
        index_texels[i] = i;
    }
    source = small_texture(env, DXGI_FORMAT_R32G32B32A32_FLOAT, false, texels, 16);
    indices = small_texture(env, DXGI_FORMAT_R32_UINT, false, index_texels, 4);
    output = small_texture(env, DXGI_FORMAT_R32G32B32A32_FLOAT, true, NULL, 16);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &view_desc, &IID_ID3D12DescriptorHeap, (void **)&views), S_OK);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &sampler_desc, &IID_ID3D12DescriptorHeap, (void **)&samplers), S_OK);
    if (!signature || !views_only || !views || !samplers || !source || !indices || !output || !code)
        goto done;
    ID3D12Device_CreateShaderResourceView(env->device, source, NULL, cpu_at(env, views, 0));
    ID3D12Device_CreateUnorderedAccessView(env->device, output, NULL, NULL, cpu_at(env, views, 1));
    ID3D12Device_CreateShaderResourceView(env->device, indices, NULL, cpu_at(env, views, 2));
    memset(&sampler, 0, sizeof(sampler));
    sampler.Filter = D3D12_FILTER_MIN_MAG_MIP_POINT;
    sampler.AddressU = sampler.AddressV = sampler.AddressW = D3D12_TEXTURE_ADDRESS_MODE_CLAMP;
    sampler.MaxLOD = D3D12_FLOAT32_MAX;
    ID3D12Device_CreateSampler(env->device, &sampler, ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(samplers));
    sampler.Filter = D3D12_FILTER_MIN_MAG_MIP_LINEAR;
    {
        D3D12_CPU_DESCRIPTOR_HANDLE second = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(samplers);
        second.ptr += ID3D12Device_GetDescriptorHandleIncrementSize(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
        ID3D12Device_CreateSampler(env->device, &sampler, second);
    }
    {
        D3D12_COMPUTE_PIPELINE_STATE_DESC desc = {signature, {ID3D10Blob_GetBufferPointer(code), ID3D10Blob_GetBufferSize(code)}, 0,
                {NULL, 0}, D3D12_PIPELINE_STATE_FLAG_NONE};
        CHECK_HR(ID3D12Device_CreateComputePipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&state), S_OK);
        /* Sampler slots need the SAMPLER flag too. */
        desc.pRootSignature = views_only;
        CHECK_HR(ID3D12Device_CreateComputePipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&refused), E_INVALIDARG);
        CHECK_LOG("CreateComputePipelineState", "indexes the sampler heap directly", "SAMPLER_HEAP_DIRECTLY_INDEXED");
        RELOG_MARK();
    }
    for (UINT slot = 0; slot < 2 && state; slot++) {
        struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        ID3D12DescriptorHeap *heaps[2] = {views, samplers};
        unsigned bad = 0;
        ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 2, heaps);
        ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
        ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list.list, 0, slot, 0);
        ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
        harness_execute_and_wait(env->device, env->queue, &list);
        harness_release_list(&list);
        CHECK_NO_LOG();
        CHECK_HR(ID3D12Resource_ReadFromSubresource(output, result, 64, 256, 0, NULL), S_OK);
        for (unsigned i = 0; i < 16; i++) {
            /* texel coordinate x + 0.75: point reads texel x; linear blends x and x + 1 3:1 (clamped at 3) */
            float x = (float)(i % 4), y = (float)(i / 4);
            float ex = slot ? fminf(x + 0.25f, 3.0f) : x, ey = slot ? fminf(y + 0.25f, 3.0f) : y;
            bad += fabsf(result[i][0] - (ex + i * 1000.0f)) > 0.01f || fabsf(result[i][1] - ey) > 0.01f || result[i][3] != 1.0f;
        }
        CHECK_MSG(!bad, "heap %s sampler: %u texels wrong (texel 5: %g %g)", slot ? "linear" : "point", bad, result[5][0], result[5][1]);
    }
    /* A shader of the header's textures that samples nothing needs only the CBV_SRV_UAV flag. */
    {
        static const char loads_only[] =
            "#define D3D12XS_HEAP_TEXTURES\n"
            "#include <d3d12xs_heap.hlsli>\n"
            "[numthreads(4, 4, 1)] void main(uint3 id : SV_DispatchThreadID)\n"
            "{ D3D12XSHeapRWTexture2D(1)[id.xy] = float4(D3D12XSHeapTexture2DUint(2).Load(int3(id.xy, 0))); }\n";
        for (int skip = 0; skip < 2; skip++) { /* unoptimised too: what is declared but unused stays out */
            ID3DBlob *loads = harness_compile(loads_only, skip ? D3DCOMPILE_SKIP_OPTIMIZATION : 0);
            ID3D12PipelineState *loader = NULL;
            D3D12_COMPUTE_PIPELINE_STATE_DESC desc = {views_only, {NULL, 0}, 0, {NULL, 0}, D3D12_PIPELINE_STATE_FLAG_NONE};
            if (!loads)
                continue;
            desc.CS.pShaderBytecode = ID3D10Blob_GetBufferPointer(loads);
            desc.CS.BytecodeLength = ID3D10Blob_GetBufferSize(loads);
            CHECK_HR(ID3D12Device_CreateComputePipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&loader), S_OK);
            if (loader)
                ID3D12PipelineState_Release(loader);
            ID3D10Blob_Release(loads);
        }
    }
    /* Without a SAMPLER heap set, Dispatch says what is missing. */
    if (state) {
        struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &views);
        ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
        ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list.list, 0, 0, 0);
        ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
        CHECK_LOG("Dispatch", "indexes the SAMPLER heap directly", "no SAMPLER heap is set");
        RELOG_MARK();
        CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
        CHECK_LOG("Close", "Dispatch");
        harness_release_list(&list);
    }

done:
    if (code) ID3D10Blob_Release(code);
    if (state) ID3D12PipelineState_Release(state);
    if (refused) ID3D12PipelineState_Release(refused);
    if (signature) ID3D12RootSignature_Release(signature);
    if (views_only) ID3D12RootSignature_Release(views_only);
    if (views) ID3D12DescriptorHeap_Release(views);
    if (samplers) ID3D12DescriptorHeap_Release(samplers);
    if (source) ID3D12Resource_Release(source);
    if (indices) ID3D12Resource_Release(indices);
    if (output) ID3D12Resource_Release(output);
}

int main(void)
{
    D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, HEAP_SIZE, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    struct env env;

    harness_init();
    env.device = harness_create_device();
    env.queue = harness_create_queue(env.device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    env.increment = ID3D12Device_GetDescriptorHandleIncrementSize(env.device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    env.heap = NULL;
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env.device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&env.heap), S_OK);
    if (env.heap) {
        test_hundreds_of_descriptors(&env);
        test_heap_read_at_execution(&env);
        test_sizes_nonuniform_with_table(&env, D3D12_ROOT_SIGNATURE_FLAG_NONE, 0);
        test_sizes_nonuniform_with_table(&env, D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI, 0);
        test_sizes_nonuniform_with_table(&env, D3D12_ROOT_SIGNATURE_FLAG_NONE, D3DCOMPILE_SKIP_OPTIMIZATION);
        test_refusals(&env);
        test_reserved_registers(&env);
        test_textures_and_samplers(&env);
        ID3D12DescriptorHeap_Release(env.heap);
    }
    ID3D12CommandQueue_Release(env.queue);
    harness_release_device(env.device);
    return harness_finish();
}
