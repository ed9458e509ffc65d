/* Arrays of raw and structured buffers read through descriptor tables (docs/descriptors.md):
 * StructuredBuffer<T> a[N], RWStructuredBuffer, ByteAddressBuffer and RWByteAddressBuffer,
 * bounded and unbounded, indexed dynamically and with NonUniformResourceIndex, with element
 * and member access (struct elements of a 12-byte stride), Load/Store/Interlocked and
 * GetDimensions of one element; every case checks
 * what the GPU wrote. Misuses D3DCompile cannot translate are refused with a message. */
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

static D3D12_DESCRIPTOR_RANGE1 range(D3D12_DESCRIPTOR_RANGE_TYPE type, UINT count, UINT space, UINT offset)
{
    D3D12_DESCRIPTOR_RANGE1 r = {type, count, 0, space, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, offset};
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

static D3D12_ROOT_PARAMETER1 root_uav(UINT shader_register)
{
    D3D12_ROOT_PARAMETER1 parameter;
    memset(&parameter, 0, sizeof(parameter));
    parameter.ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    parameter.Descriptor.ShaderRegister = shader_register;
    return parameter;
}

static ID3D12DescriptorHeap *create_heap(ID3D12Device *device, UINT count)
{
    D3D12_DESCRIPTOR_HEAP_DESC desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, count, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
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

/* A structured (stride > 0) or raw (stride 0) SRV of count elements (words) from first. */
static void srv(const struct env *env, ID3D12Resource *resource, UINT stride, UINT64 first, UINT count,
        D3D12_CPU_DESCRIPTOR_HANDLE handle)
{
    D3D12_SHADER_RESOURCE_VIEW_DESC desc;
    memset(&desc, 0, sizeof(desc));
    desc.ViewDimension = D3D12_SRV_DIMENSION_BUFFER;
    desc.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
    desc.Format = stride ? DXGI_FORMAT_UNKNOWN : DXGI_FORMAT_R32_TYPELESS;
    desc.Buffer.FirstElement = first;
    desc.Buffer.NumElements = count;
    desc.Buffer.StructureByteStride = stride;
    desc.Buffer.Flags = stride ? D3D12_BUFFER_SRV_FLAG_NONE : D3D12_BUFFER_SRV_FLAG_RAW;
    ID3D12Device_CreateShaderResourceView(env->device, resource, &desc, handle);
}

static void uav(const struct env *env, ID3D12Resource *resource, UINT stride, UINT64 first, UINT count,
        D3D12_CPU_DESCRIPTOR_HANDLE handle)
{
    D3D12_UNORDERED_ACCESS_VIEW_DESC desc;
    memset(&desc, 0, sizeof(desc));
    desc.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
    desc.Format = stride ? DXGI_FORMAT_UNKNOWN : DXGI_FORMAT_R32_TYPELESS;
    desc.Buffer.FirstElement = first;
    desc.Buffer.NumElements = count;
    desc.Buffer.StructureByteStride = stride;
    desc.Buffer.Flags = stride ? D3D12_BUFFER_UAV_FLAG_NONE : D3D12_BUFFER_UAV_FLAG_RAW;
    ID3D12Device_CreateUnorderedAccessView(env->device, resource, NULL, &desc, handle);
}

/* Binds signature, state and heap, sets table parameters [0, table_count) at heap indices
 * table_starts and the root UAV after them to output, dispatches groups and waits. */
static void run(struct env *env, ID3D12RootSignature *signature, ID3D12PipelineState *state, ID3D12DescriptorHeap *heap,
        const UINT *table_starts, UINT table_count, ID3D12Resource *output, UINT groups)
{
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &heap);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    for (UINT i = 0; i < table_count; i++)
        ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, i, gpu_at(env, heap, table_starts[i]));
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, table_count, ID3D12Resource_GetGPUVirtualAddress(output));
    ID3D12GraphicsCommandList2_Dispatch(list.list, groups, 1, 1);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
}

/* ---- bounded arrays of each kind in one table ---- */

#define ITEM_WORDS 5 /* struct Item { float4 f; uint id; }: D3D's stride 20 */
#define THREADS 64 /* 4 groups of 16 */
#define SUM_WORDS 68
#define RESULTS 9

static void test_bounded(struct env *env, UINT flags, const char *what)
{
    static const char source[] =
        "struct Item { float4 f; uint id; };\n"
        "StructuredBuffer<Item> items[4] : register(t0, space1);\n"
        "ByteAddressBuffer words[3] : register(t0, space2);\n"
        "RWStructuredBuffer<uint> slots[4] : register(u0, space1);\n"
        "RWByteAddressBuffer sums[2] : register(u0, space2);\n"
        "RWStructuredBuffer<uint> results : register(u0);\n"
        "[numthreads(16, 1, 1)] void main(uint3 id : SV_DispatchThreadID, uint3 group : SV_GroupID)\n"
        "{\n"
        "    /* g: dynamic and uniform; k, k3: non-uniform */\n"
        "    uint t = id.x, g = group.x, k = t % 4, k3 = t % 3, count, stride, bytes, old;\n"
        "    uint o = t * 9;\n"
        "    results[o + 0] = items[g][t % 8].id;\n"
        "    results[o + 1] = items[NonUniformResourceIndex(k)][(t + 1) % 8].id;\n"
        "    results[o + 2] = (uint)(items[NonUniformResourceIndex(k)][1].f.y * 2.0);\n"
        "    results[o + 3] = words[g % 3].Load((t % 16) * 4);\n"
        "    uint4 v = words[NonUniformResourceIndex(k3)].Load4(16);\n"
        "    results[o + 4] = v.x + v.w;\n"
        "    items[g].GetDimensions(count, stride);\n"
        "    results[o + 5] = count * 100 + stride;\n"
        "    words[g % 3].GetDimensions(bytes);\n"
        "    results[o + 6] = bytes;\n"
        "    slots[NonUniformResourceIndex(k)][t / 4] = t + 1;\n"
        "    slots[g][16 + t % 16] = items[g].Load(0).id + t;\n"
        "    sums[g % 2].InterlockedAdd(0, t, old);\n"
        "    sums[NonUniformResourceIndex(t % 2)].Store2(8 + (t / 2) * 8, uint2(t, t * t));\n"
        "    results[o + 7] = old < 2100 ? 1 : 0;\n"
        "    sums[g % 2].GetDimensions(bytes);\n"
        "    results[o + 8] = bytes;\n"
        "}\n";
    /* heap: 0-3 items (8 + k items each), 4-6 words (64 - 4 k words), 7-10 slots, 11-12 sums */
    D3D12_DESCRIPTOR_RANGE1 ranges[4] = {
        range(D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 4, 1, 0), range(D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 3, 2, 4),
        range(D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 4, 1, 7), range(D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 2, 2, 11),
    };
    D3D12_ROOT_PARAMETER1 parameters[2] = {table(ranges, 4), root_uav(0)};
    uint32_t item_data[4][12 * ITEM_WORDS], word_data[3][64], results[THREADS * RESULTS], slots[4][32], sums[2][SUM_WORDS];
    ID3D12Resource *item_buffers[4], *word_buffers[3], *slot_buffers[4], *sum_buffers[2], *output;
    unsigned wrong = 0;
    UINT start = 0;
    LOG_MARK();

    memset(item_data, 0, sizeof(item_data));
    for (uint32_t k = 0; k < 4; k++)
        for (uint32_t j = 0; j < 12; j++) {
            float y = (float)k + (float)j * 0.5f;
            memcpy(&item_data[k][j * ITEM_WORDS + 1], &y, 4);
            item_data[k][j * ITEM_WORDS + 4] = 1000 * k + j;
        }
    for (uint32_t k = 0; k < 3; k++)
        for (uint32_t w = 0; w < 64; w++)
            word_data[k][w] = 100 * k + w;

    ID3D12RootSignature *signature = harness_root_signature(env->device, parameters, 2, D3D12_ROOT_SIGNATURE_FLAG_NONE);
    ID3DBlob *code = harness_compile(source, flags);
    ID3D12PipelineState *state = code ? harness_compute_pipeline(env->device, signature, code) : NULL;
    if (code)
        ID3D10Blob_Release(code);
    if (!state) {
        CHECK_MSG(false, "%s: no pipeline", what);
        if (signature)
            ID3D12RootSignature_Release(signature);
        return;
    }
    ID3D12DescriptorHeap *heap = create_heap(env->device, 13);
    for (uint32_t k = 0; k < 4; k++) {
        item_buffers[k] = harness_upload_buffer(env->device, item_data[k], sizeof(item_data[k]));
        srv(env, item_buffers[k], ITEM_WORDS * 4, 0, 8 + k, cpu_at(env, heap, k));
        slot_buffers[k] = harness_uav_buffer(env->device, sizeof(slots[k]));
        uav(env, slot_buffers[k], 4, 0, 32, cpu_at(env, heap, 7 + k));
    }
    for (uint32_t k = 0; k < 3; k++) {
        word_buffers[k] = harness_upload_buffer(env->device, word_data[k], sizeof(word_data[k]));
        srv(env, word_buffers[k], 0, 0, 64 - 4 * k, cpu_at(env, heap, 4 + k));
    }
    for (uint32_t k = 0; k < 2; k++) {
        sum_buffers[k] = harness_uav_buffer(env->device, sizeof(sums[k]));
        uav(env, sum_buffers[k], 0, 0, SUM_WORDS, cpu_at(env, heap, 11 + k));
    }
    output = harness_uav_buffer(env->device, sizeof(results));
    run(env, signature, state, heap, &start, 1, output, 4);

    harness_read_back(env->device, env->queue, output, results, sizeof(results));
    for (uint32_t t = 0; t < THREADS; t++) {
        uint32_t g = t / 16, k = t % 4, k3 = t % 3, expected[RESULTS];
        const uint32_t *r = &results[t * RESULTS];
        expected[0] = 1000 * g + t % 8;
        expected[1] = 1000 * k + (t + 1) % 8;
        expected[2] = 2 * k + 1;
        expected[3] = 100 * (g % 3) + t % 16;
        expected[4] = 2 * (100 * k3) + 4 + 7;
        expected[5] = (8 + g) * 100 + 20;
        expected[6] = (64 - 4 * (g % 3)) * 4;
        expected[7] = 1;
        expected[8] = SUM_WORDS * 4;
        for (uint32_t i = 0; i < RESULTS; i++)
            if (r[i] != expected[i] && wrong++ < 8)
                CHECK_MSG(false, "%s: thread %u result %u is %u, expected %u", what, t, i, r[i], expected[i]);
    }
    for (uint32_t k = 0; k < 4; k++) {
        harness_read_back(env->device, env->queue, slot_buffers[k], slots[k], sizeof(slots[k]));
        for (uint32_t j = 0; j < 16; j++)
            if ((slots[k][j] != k + 4 * j + 1 || slots[k][16 + j] != 1000 * k + 16 * k + j) && wrong++ < 8)
                CHECK_MSG(false, "%s: RWStructuredBuffer slots[%u] element %u / %u is %u / %u, expected %u / %u", what, k, j,
                        16 + j, slots[k][j], slots[k][16 + j], k + 4 * j + 1, 1000 * k + 16 * k + j);
    }
    for (uint32_t k = 0; k < 2; k++) {
        uint32_t total = 0;
        harness_read_back(env->device, env->queue, sum_buffers[k], sums[k], sizeof(sums[k]));
        for (uint32_t t = 0; t < THREADS; t++)
            total += (t / 16) % 2 == k ? t : 0;
        for (uint32_t t = k; t < THREADS; t += 2) {
            if ((sums[k][2 + (t / 2) * 2] != t || sums[k][3 + (t / 2) * 2] != t * t) && wrong++ < 8)
                CHECK_MSG(false, "%s: RWByteAddressBuffer sums[%u] Store2 of thread %u: %u %u", what, k, t,
                        sums[k][2 + (t / 2) * 2], sums[k][3 + (t / 2) * 2]);
        }
        if (sums[k][0] != total && wrong++ < 8)
            CHECK_MSG(false, "%s: sums[%u] InterlockedAdd total %u, expected %u", what, k, sums[k][0], total);
    }
    CHECK_MSG(!wrong, "%s: %u wrong values", what, wrong);
    CHECK_NO_LOG();

    for (uint32_t k = 0; k < 4; k++) {
        ID3D12Resource_Release(item_buffers[k]);
        ID3D12Resource_Release(slot_buffers[k]);
    }
    for (uint32_t k = 0; k < 3; k++)
        ID3D12Resource_Release(word_buffers[k]);
    for (uint32_t k = 0; k < 2; k++)
        ID3D12Resource_Release(sum_buffers[k]);
    ID3D12Resource_Release(output);
    ID3D12DescriptorHeap_Release(heap);
    ID3D12PipelineState_Release(state);
    ID3D12RootSignature_Release(signature);
}

/* ---- unbounded arrays: tables deep in the heap, indexed non-uniformly ---- */

#define INPUTS 100
#define OUTPUTS 50

static void test_unbounded(struct env *env)
{
    static const char source[] =
        "StructuredBuffer<uint> inputs[] : register(t0, space3);\n"
        "ByteAddressBuffer raw_inputs[] : register(t0, space4);\n"
        "RWByteAddressBuffer outputs[] : register(u0, space3);\n"
        "RWStructuredBuffer<uint2> pairs[] : register(u0, space4);\n"
        "RWStructuredBuffer<uint> results : register(u0);\n"
        "[numthreads(64, 1, 1)] void main(uint3 id : SV_DispatchThreadID)\n"
        "{\n"
        "    uint t = id.x, count, stride;\n"
        "    if (t >= 100) return;\n"
        "    uint which = (t * 37) % 100;\n"
        "    uint value = inputs[NonUniformResourceIndex(which)][t % 4] + raw_inputs[which].Load(4);\n"
        "    outputs[NonUniformResourceIndex(t % 50)].InterlockedAdd(0, value);\n"
        "    outputs[t % 50].Store(4 + 4 * (t / 50), value);\n"
        "    pairs[NonUniformResourceIndex(t / 10)][t % 10] = uint2(t, value);\n"
        "    /* every view has 4 elements: lavapipe answers one lane's size for a non-uniform OpArrayLength */\n"
        "    inputs[NonUniformResourceIndex(which)].GetDimensions(count, stride);\n"
        "    results[t] = count * 16 + stride;\n"
        "}\n";
    /* heap: 7 unused, 100 structured SRVs (4 words each), 100 raw SRVs, 50 raw UAVs (3 words),
     * 10 RWStructuredBuffer<uint2> UAVs (10 elements) */
    enum { SRV_START = 7, RAW_START = SRV_START + INPUTS, UAV_START = RAW_START + INPUTS, PAIR_START = UAV_START + OUTPUTS,
        HEAP_SIZE = PAIR_START + 10 };
    D3D12_DESCRIPTOR_RANGE1 ranges[4] = {
        range(D3D12_DESCRIPTOR_RANGE_TYPE_SRV, UINT32_MAX, 3, 0), range(D3D12_DESCRIPTOR_RANGE_TYPE_SRV, UINT32_MAX, 4, 0),
        range(D3D12_DESCRIPTOR_RANGE_TYPE_UAV, UINT32_MAX, 3, 0), range(D3D12_DESCRIPTOR_RANGE_TYPE_UAV, UINT32_MAX, 4, 0),
    };
    D3D12_ROOT_PARAMETER1 parameters[5] = {table(&ranges[0], 1), table(&ranges[1], 1), table(&ranges[2], 1), table(&ranges[3], 1),
        root_uav(0)};
    static uint32_t data[INPUTS * 4], outputs_data[OUTPUTS * 4], pairs_data[10 * 20], results[INPUTS];
    UINT starts[4] = {SRV_START, RAW_START, UAV_START, PAIR_START};
    unsigned wrong = 0;
    LOG_MARK();

    for (uint32_t i = 0; i < INPUTS * 4; i++)
        data[i] = i * 3;
    ID3D12RootSignature *signature = harness_root_signature(env->device, parameters, 5, D3D12_ROOT_SIGNATURE_FLAG_NONE);
    ID3DBlob *code = harness_compile(source, 0);
    ID3D12PipelineState *state = code ? harness_compute_pipeline(env->device, signature, code) : NULL;
    if (code)
        ID3D10Blob_Release(code);
    if (!state) {
        CHECK_MSG(false, "unbounded arrays: no pipeline");
        if (signature)
            ID3D12RootSignature_Release(signature);
        return;
    }
    ID3D12DescriptorHeap *heap = create_heap(env->device, HEAP_SIZE);
    ID3D12Resource *input = harness_upload_buffer(env->device, data, sizeof(data));
    ID3D12Resource *out_buffer = harness_uav_buffer(env->device, sizeof(outputs_data));
    ID3D12Resource *pair_buffer = harness_uav_buffer(env->device, sizeof(pairs_data));
    ID3D12Resource *output = harness_uav_buffer(env->device, sizeof(results));
    for (uint32_t i = 0; i < INPUTS; i++) {
        srv(env, input, 4, i * 4, 4, cpu_at(env, heap, SRV_START + i));
        srv(env, input, 0, i * 4, 4, cpu_at(env, heap, RAW_START + i));
    }
    for (uint32_t i = 0; i < OUTPUTS; i++)
        uav(env, out_buffer, 0, i * 4, 3, cpu_at(env, heap, UAV_START + i));
    for (uint32_t i = 0; i < 10; i++)
        uav(env, pair_buffer, 8, i * 10, 10, cpu_at(env, heap, PAIR_START + i));
    run(env, signature, state, heap, starts, 4, output, 2);

    harness_read_back(env->device, env->queue, output, results, sizeof(results));
    harness_read_back(env->device, env->queue, out_buffer, outputs_data, sizeof(outputs_data));
    harness_read_back(env->device, env->queue, pair_buffer, pairs_data, sizeof(pairs_data));
    for (uint32_t t = 0; t < INPUTS; t++) {
        uint32_t which = t * 37 % 100, value = data[which * 4 + t % 4] + data[which * 4 + 1];
        if (outputs_data[(t % 50) * 4 + 1 + t / 50] != value && wrong++ < 8)
            CHECK_MSG(false, "unbounded: outputs[%u] word %u is %u, expected %u", t % 50, 1 + t / 50,
                    outputs_data[(t % 50) * 4 + 1 + t / 50], value);
        if ((pairs_data[t * 2] != t || pairs_data[t * 2 + 1] != value) && wrong++ < 8)
            CHECK_MSG(false, "unbounded: pairs[%u][%u] is (%u, %u), expected (%u, %u)", t / 10, t % 10, pairs_data[t * 2],
                    pairs_data[t * 2 + 1], t, value);
        if (results[t] != 4 * 16 + 4 && wrong++ < 8)
            CHECK_MSG(false, "unbounded: GetDimensions of thread %u gave %u, expected %u", t, results[t], 4 * 16 + 4);
    }
    for (uint32_t i = 0; i < OUTPUTS; i++)
        if (outputs_data[i * 4] != outputs_data[i * 4 + 1] + outputs_data[i * 4 + 2] && wrong++ < 8)
            CHECK_MSG(false, "unbounded: InterlockedAdd total of outputs[%u] is %u, expected %u", i, outputs_data[i * 4],
                    outputs_data[i * 4 + 1] + outputs_data[i * 4 + 2]);
    CHECK_MSG(!wrong, "unbounded arrays: %u wrong values", wrong);
    CHECK_NO_LOG();

    ID3D12Resource_Release(input);
    ID3D12Resource_Release(out_buffer);
    ID3D12Resource_Release(pair_buffer);
    ID3D12Resource_Release(output);
    ID3D12DescriptorHeap_Release(heap);
    ID3D12PipelineState_Release(state);
    ID3D12RootSignature_Release(signature);
}

/* ---- struct elements: member writes, atomics on a member, a modifier on the array ---- */

static void test_struct_elements(struct env *env)
{
    static const char source[] =
        "struct Cell { uint count; float2 v; };\n"
        "globallycoherent RWStructuredBuffer<Cell>\n"
        "    cells[2] : register(u0, space5);\n"
        "RWStructuredBuffer<uint> unused : register(u0);\n"
        "[numthreads(16, 1, 1)] void main(uint3 id : SV_DispatchThreadID)\n"
        "{\n"
        "    uint t = id.x;\n"
        "    InterlockedAdd(cells[NonUniformResourceIndex(t % 2)][0].count, t + 1);\n"
        "    cells[NonUniformResourceIndex(t % 2)][1 + t / 2].v.y = t * 0.5;\n"
        "    cells[0][20 + t].v = float2(t, 1);\n"
        "}\n";
    D3D12_DESCRIPTOR_RANGE1 r = range(D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 2, 5, 0);
    D3D12_ROOT_PARAMETER1 parameters[2] = {table(&r, 1), root_uav(0)};
    uint32_t cells[2][40 * 3];
    ID3D12Resource *buffers[2];
    unsigned wrong = 0;
    UINT start = 1;
    LOG_MARK();

    ID3D12RootSignature *signature = harness_root_signature(env->device, parameters, 2, D3D12_ROOT_SIGNATURE_FLAG_NONE);
    ID3DBlob *code = harness_compile(source, 0);
    ID3D12PipelineState *state = code ? harness_compute_pipeline(env->device, signature, code) : NULL;
    if (code)
        ID3D10Blob_Release(code);
    if (!state) {
        CHECK_MSG(false, "struct elements: no pipeline");
        if (signature)
            ID3D12RootSignature_Release(signature);
        return;
    }
    ID3D12DescriptorHeap *heap = create_heap(env->device, 3);
    ID3D12Resource *unused = harness_uav_buffer(env->device, 16);
    for (uint32_t k = 0; k < 2; k++) {
        buffers[k] = harness_uav_buffer(env->device, sizeof(cells[k]));
        uav(env, buffers[k], 12, 0, 40, cpu_at(env, heap, 1 + k));
    }
    run(env, signature, state, heap, &start, 1, unused, 1);
    for (uint32_t k = 0; k < 2; k++) {
        float y;
        harness_read_back(env->device, env->queue, buffers[k], cells[k], sizeof(cells[k]));
        if (cells[k][0] != (k ? 72u : 64u) && wrong++ < 8)
            CHECK_MSG(false, "struct elements: cells[%u][0].count is %u, expected %u", k, cells[k][0], k ? 72u : 64u);
        for (uint32_t e = 1; e <= 8; e++) {
            memcpy(&y, &cells[k][e * 3 + 2], 4);
            if (y != (float)(2 * (e - 1) + k) * 0.5f && wrong++ < 8)
                CHECK_MSG(false, "struct elements: cells[%u][%u].v.y is %g, expected %g", k, e, y, (2 * (e - 1) + k) * 0.5);
        }
    }
    for (uint32_t t = 0; t < 16; t++) {
        float v[2];
        memcpy(v, &cells[0][(20 + t) * 3 + 1], 8);
        if ((v[0] != (float)t || v[1] != 1.0f) && wrong++ < 8)
            CHECK_MSG(false, "struct elements: cells[0][%u].v is (%g, %g), expected (%u, 1)", 20 + t, v[0], v[1], t);
    }
    CHECK_MSG(!wrong, "struct elements: %u wrong values", wrong);
    CHECK_NO_LOG();

    for (uint32_t k = 0; k < 2; k++)
        ID3D12Resource_Release(buffers[k]);
    ID3D12Resource_Release(unused);
    ID3D12DescriptorHeap_Release(heap);
    ID3D12PipelineState_Release(state);
    ID3D12RootSignature_Release(signature);
}

/* ---- what D3DCompile refuses, with a message naming the construct ---- */

static void check_refused(const char *source, const char *needle)
{
    ID3DBlob *code = NULL, *errors = NULL;
    LOG_MARK();
    CHECK_HR(D3DCompile(source, strlen(source), "refused.hlsl", NULL, NULL, "main", "cs_6_0", 0, 0, &code, &errors), E_FAIL);
    CHECK_MSG(errors && strstr((const char *)ID3D10Blob_GetBufferPointer(errors), needle), "the message lacks '%s': %s", needle,
            errors ? (const char *)ID3D10Blob_GetBufferPointer(errors) : "(none)");
    CHECK_LOG("D3DCompile", "refused.hlsl", needle);
    if (code)
        ID3D10Blob_Release(code);
    if (errors)
        ID3D10Blob_Release(errors);
}

static void test_refused(void)
{
    check_refused(
        "StructuredBuffer<uint> a[2] : register(t0, space1);\n"
        "RWStructuredBuffer<uint> o : register(u0);\n"
        "uint first(StructuredBuffer<uint> b) { return b[0]; }\n"
        "[numthreads(1, 1, 1)] void main() { o[0] = first(a[1]); }\n",
        "an element of the array of buffers a is used other than in place");
    check_refused(
        "RWStructuredBuffer<uint> c[2] : register(u0, space1);\n"
        "[numthreads(1, 1, 1)] void main() { c[1][0] = c[0].IncrementCounter(); }\n",
        "IncrementCounter of an element of an array of RWStructuredBuffer is not supported");
    check_refused(
        "ByteAddressBuffer r[2] : register(t0, space1);\n"
        "RWStructuredBuffer<uint> o : register(u0);\n"
        "[numthreads(1, 1, 1)] void main() { r[0].Store(0, 1); o[0] = 0; }\n",
        "the method Store of an element of an array of buffers is not supported");
    check_refused(
        "RWByteAddressBuffer w[2] : register(u0, space1);\n"
        "void clear(RWByteAddressBuffer b[2]) { b[0].Store(0, 0); }\n"
        "[numthreads(1, 1, 1)] void main() { clear(w); }\n",
        "the array of buffers b is a function parameter");
    check_refused(
        "struct P { double d; uint u; };\n"
        "StructuredBuffer<P> ps[2] : register(t0, space1);\n"
        "RWStructuredBuffer<uint> o : register(u0);\n"
        "[numthreads(1, 1, 1)] void main() { uint c, s; ps[1].GetDimensions(c, s); o[0] = c + s; }\n",
        "GetDimensions of an element of the array of StructuredBuffer ps needs an element type");
}

int main(void)
{
    struct env env;
    harness_init();
    env.device = harness_create_device();
    env.queue = harness_create_queue(env.device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    env.increment = ID3D12Device_GetDescriptorHandleIncrementSize(env.device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    test_bounded(&env, 0, "bounded arrays");
    test_bounded(&env, D3DCOMPILE_SKIP_OPTIMIZATION, "bounded arrays, -Od");
    test_unbounded(&env);
    test_struct_elements(&env);
    test_refused();
    ID3D12CommandQueue_Release(env.queue);
    harness_release_device(env.device);
    return harness_finish();
}
