/* D3D12's heap sizes on every device (docs/descriptors.md, "Heap sizes"): a shader-visible
 * CBV_SRV_UAV heap of 1,000,000 descriptors and a SAMPLER heap of 2,048 are created whatever
 * the device's shaders can address; the highest descriptor they can address works, with a UAV
 * counter (Append) and a raw view at an unaligned offset, both copied there from a CPU heap
 * (the counter address and the view offset go with the descriptor); d3d12xs_heap.hlsli sees
 * the heap as large as shaders can address (an index past that loads 0); a table that reaches
 * past what shaders can address is a recording error naming the limit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <d3dcompiler.h>
#include <d3d12_xs.h>
#include <d3d12xs.h>

#include "harness.h"

#define D3D12_VIEWS 1000000u
#define D3D12_SAMPLERS 2048u
#define THREADS 64u

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    UINT increment;
    UINT addressable; /* views shaders can address of a 1,000,000-descriptor heap */
};

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

static D3D12_ROOT_PARAMETER1 uav_table(D3D12_DESCRIPTOR_RANGE1 *range, UINT count)
{
    D3D12_ROOT_PARAMETER1 parameter;
    memset(range, 0, sizeof(*range));
    range->RangeType = D3D12_DESCRIPTOR_RANGE_TYPE_UAV;
    range->NumDescriptors = count;
    memset(&parameter, 0, sizeof(parameter));
    parameter.ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    parameter.DescriptorTable.NumDescriptorRanges = 1;
    parameter.DescriptorTable.pDescriptorRanges = range;
    return parameter;
}

/* A 1,000,000-descriptor heap, its highest addressable descriptor an AppendStructuredBuffer
 * and the one below it a raw view 4 bytes into its buffer (misaligned on every device). */
static void test_highest_descriptor(struct env *env, ID3D12DescriptorHeap *heap)
{
    static const char source[] =
        "RWByteAddressBuffer unaligned : register(u0);\n"
        "AppendStructuredBuffer<uint> appended : register(u1);\n"
        "[numthreads(64, 1, 1)] void main(uint3 id : SV_DispatchThreadID)\n"
        "{\n"
        "    unaligned.Store(id.x * 4, id.x + 7);\n"
        "    appended.Append(id.x + 1000);\n"
        "}\n";
    const UINT high = env->addressable - 1;
    D3D12_DESCRIPTOR_RANGE1 range;
    D3D12_ROOT_PARAMETER1 parameter = uav_table(&range, 2);
    D3D12_UNORDERED_ACCESS_VIEW_DESC desc;
    uint32_t words[THREADS + 1], counter = 0;
    bool seen[THREADS];
    LOG_MARK();

    ID3D12RootSignature *signature = harness_root_signature(env->device, &parameter, 1, 0);
    ID3DBlob *code = harness_compile(source, 0);
    ID3D12PipelineState *state = harness_compute_pipeline(env->device, signature, code);
    ID3D10Blob_Release(code);
    ID3D12Resource *raw = harness_uav_buffer(env->device, 4 * (THREADS + 1)), *items = harness_uav_buffer(env->device, 4 * THREADS);
    ID3D12Resource *counter_buffer = harness_uav_buffer(env->device, 256);

    /* written in a CPU heap, copied up: CopyDescriptors takes the counter and the offset along */
    ID3D12DescriptorHeap *staging = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 2, false);
    memset(&desc, 0, sizeof(desc));
    desc.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
    desc.Format = DXGI_FORMAT_R32_TYPELESS;
    desc.Buffer.FirstElement = 1;
    desc.Buffer.NumElements = THREADS;
    desc.Buffer.Flags = D3D12_BUFFER_UAV_FLAG_RAW;
    ID3D12Device_CreateUnorderedAccessView(env->device, raw, NULL, &desc, cpu_at(env, staging, 0));
    memset(&desc, 0, sizeof(desc));
    desc.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
    desc.Format = DXGI_FORMAT_UNKNOWN;
    desc.Buffer.NumElements = THREADS;
    desc.Buffer.StructureByteStride = 4;
    ID3D12Device_CreateUnorderedAccessView(env->device, items, counter_buffer, &desc, cpu_at(env, staging, 1));
    ID3D12Device_CopyDescriptorsSimple(env->device, 2, cpu_at(env, heap, high - 1), cpu_at(env, staging, 0),
            D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);

    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &heap);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 0, gpu_at(env, heap, high - 1));
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    harness_execute_and_wait(env->device, env->queue, &list);

    harness_read_back(env->device, env->queue, raw, words, sizeof(words));
    CHECK_MSG(words[0] == 0, "descriptor %u: the raw view wrote before its first element (%u)", high - 1, words[0]);
    for (uint32_t i = 0; i < THREADS; i++)
        CHECK_MSG(words[1 + i] == i + 7, "descriptor %u: word %u of the raw view is %u, expected %u", high - 1, i, words[1 + i], i + 7);
    harness_read_back(env->device, env->queue, counter_buffer, &counter, sizeof(counter));
    CHECK_MSG(counter == THREADS, "descriptor %u: the UAV counter is %u after %u appends", high, counter, THREADS);
    harness_read_back(env->device, env->queue, items, words, 4 * THREADS);
    memset(seen, 0, sizeof(seen));
    for (uint32_t i = 0; i < THREADS; i++)
        if (words[i] - 1000 < THREADS)
            seen[words[i] - 1000] = true;
    for (uint32_t i = 0; i < THREADS; i++)
        CHECK_MSG(seen[i], "descriptor %u: appended value %u missing", high, i + 1000);
    CHECK_NO_LOG();

    harness_release_list(&list);
    ID3D12DescriptorHeap_Release(staging);
    ID3D12Resource_Release(raw);
    ID3D12Resource_Release(items);
    ID3D12Resource_Release(counter_buffer);
    ID3D12PipelineState_Release(state);
    ID3D12RootSignature_Release(signature);
}

/* d3d12xs_heap.hlsli over the same heap: its size is what shaders can address, the highest
 * addressable descriptor (a raw SRV 4 bytes into its buffer) loads, and the next index loads 0
 * as an index past the heap does (reads no descriptor). */
static void test_directly_indexed(struct env *env, ID3D12DescriptorHeap *heap)
{
    static const char source[] =
        "#include <d3d12xs_heap.hlsli>\n"
        "RWByteAddressBuffer output : register(u0);\n"
        "cbuffer top : register(b0) { uint high; }\n"
        "[numthreads(1, 1, 1)] void main()\n"
        "{\n"
        "    output.Store3(0, uint3(D3D12XSHeapCount(), D3D12XSHeapLoad(high, 4), D3D12XSHeapLoad(high + 1, 0) + 5));\n"
        "}\n";
    D3D12_ROOT_PARAMETER1 parameters[2];
    D3D12_SHADER_RESOURCE_VIEW_DESC view;
    uint32_t words[3] = {0}, data[THREADS];
    void *mapped = NULL;
    LOG_MARK();

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[1].Constants.Num32BitValues = 1;
    ID3D12RootSignature *signature = harness_root_signature(env->device, parameters, 2, D3D12_ROOT_SIGNATURE_FLAG_CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED);
    ID3DBlob *code = harness_compile(source, 0);
    ID3D12PipelineState *state = harness_compute_pipeline(env->device, signature, code);
    ID3D10Blob_Release(code);
    ID3D12Resource *output = harness_uav_buffer(env->device, 256);
    ID3D12Resource *input = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, sizeof(data), D3D12_RESOURCE_STATE_GENERIC_READ);
    for (uint32_t i = 0; i < THREADS; i++)
        data[i] = 3 * i + 1;
    CHECK_HR(ID3D12Resource_Map(input, 0, NULL, &mapped), S_OK);
    if (mapped)
        memcpy(mapped, data, sizeof(data));
    ID3D12Resource_Unmap(input, 0, NULL);
    memset(&view, 0, sizeof(view));
    view.ViewDimension = D3D12_SRV_DIMENSION_BUFFER;
    view.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
    view.Format = DXGI_FORMAT_R32_TYPELESS;
    view.Buffer.FirstElement = 1;
    view.Buffer.NumElements = THREADS - 1;
    view.Buffer.Flags = D3D12_BUFFER_SRV_FLAG_RAW;
    ID3D12Device_CreateShaderResourceView(env->device, input, &view, cpu_at(env, heap, env->addressable - 1));

    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &heap);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 0, ID3D12Resource_GetGPUVirtualAddress(output));
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list.list, 1, env->addressable - 1, 0); /* high */
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_read_back(env->device, env->queue, output, words, sizeof(words));
    CHECK_MSG(words[0] == env->addressable, "D3D12XSHeapCount() of a %u-descriptor heap is %u, expected %u", D3D12_VIEWS, words[0], env->addressable);
    CHECK_MSG(words[1] == 7, "D3D12XSHeapLoad of descriptor %u: %u, expected 7", env->addressable - 1, words[1]);
    CHECK_MSG(words[2] == 5, "D3D12XSHeapLoad past the addressable descriptors: %u, expected 0", words[2] - 5);
    CHECK_NO_LOG();

    harness_release_list(&list);
    ID3D12Resource_Release(input);
    ID3D12Resource_Release(output);
    ID3D12PipelineState_Release(state);
    ID3D12RootSignature_Release(signature);
}

/* Records a dispatch of a table at start (and root constant 1 = 0 where the signature has it);
 * expects it refused naming the limit. */
static void check_refused(struct env *env, ID3D12DescriptorHeap *heap, ID3D12RootSignature *signature, ID3D12PipelineState *state,
        UINT start, bool constant, const char *reads)
{
    char limit[64];
    size_t mark;
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);

    snprintf(limit, sizeof(limit), "past the %u that shaders", env->addressable);
    mark = harness_log_mark();
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &heap);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 0, gpu_at(env, heap, start));
    if (constant)
        ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list.list, 1, 0, 0);
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    harness_check_log(mark, __FILE__, __LINE__, "Dispatch", "register u0", reads, limit, "can address", NULL);
    mark = harness_log_mark();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
    harness_check_log(mark, __FILE__, __LINE__, "Close", "Dispatch", NULL);
    harness_release_list(&list);
}

/* Tables past what shaders can address: a bounded range whose last descriptor is past it, and an
 * unbounded one that starts past it. */
static void test_past_addressable(struct env *env, ID3D12DescriptorHeap *heap)
{
    static const char bounded_source[] =
        "RWByteAddressBuffer outputs[2] : register(u0);\n"
        "[numthreads(1, 1, 1)] void main() { outputs[1].Store(0, 1); }\n";
    static const char unbounded_source[] =
        "RWByteAddressBuffer outputs[] : register(u0);\n"
        "cbuffer which : register(b0) { uint index; }\n"
        "[numthreads(1, 1, 1)] void main() { outputs[index].Store(0, 1); }\n";
    D3D12_DESCRIPTOR_RANGE1 range;
    D3D12_ROOT_PARAMETER1 parameters[2] = {uav_table(&range, 2)};
    char reads[64];

    if (env->addressable >= D3D12_VIEWS) {
        printf("note: shaders on this device address all %u descriptors of a heap: no table reaches past them\n", D3D12_VIEWS);
        return;
    }
    ID3D12RootSignature *signature = harness_root_signature(env->device, parameters, 1, 0);
    ID3DBlob *code = harness_compile(bounded_source, 0);
    ID3D12PipelineState *state = harness_compute_pipeline(env->device, signature, code);
    ID3D10Blob_Release(code);
    snprintf(reads, sizeof(reads), "reads descriptors %u to %u", env->addressable - 1, env->addressable);
    check_refused(env, heap, signature, state, env->addressable - 1, false, reads);
    ID3D12PipelineState_Release(state);
    ID3D12RootSignature_Release(signature);

    range.NumDescriptors = UINT32_MAX;
    memset(&parameters[1], 0, sizeof(parameters[1]));
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[1].Constants.Num32BitValues = 1;
    signature = harness_root_signature(env->device, parameters, 2, 0);
    code = harness_compile(unbounded_source, 0);
    state = harness_compute_pipeline(env->device, signature, code);
    ID3D10Blob_Release(code);
    snprintf(reads, sizeof(reads), "reads descriptors %u to %u", env->addressable, env->addressable);
    check_refused(env, heap, signature, state, env->addressable, true, reads);
    ID3D12PipelineState_Release(state);
    ID3D12RootSignature_Release(signature);
}

int main(void)
{
    struct env env;
    D3D12XS_DEVICE_INFO info;
    harness_init();
    env.device = harness_create_device();
    env.queue = harness_create_queue(env.device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    env.increment = ID3D12Device_GetDescriptorHandleIncrementSize(env.device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    CHECK_HR(D3D12XSGetDeviceInfo(env.device, &info), S_OK);
    env.addressable = info.ShaderAddressableViewDescriptors < D3D12_VIEWS ? info.ShaderAddressableViewDescriptors : D3D12_VIEWS;
    CHECK_MSG(env.addressable >= 500000, "shaders address %u views of a heap", env.addressable);
    {
        D3D12_FEATURE_DATA_D3D12_OPTIONS options;
        CHECK_HR(ID3D12Device_CheckFeatureSupport(env.device, D3D12_FEATURE_D3D12_OPTIONS, &options, sizeof(options)), S_OK);
        CHECK_MSG(options.ResourceBindingTier == (env.addressable >= D3D12_VIEWS ? D3D12_RESOURCE_BINDING_TIER_3 : D3D12_RESOURCE_BINDING_TIER_2),
                "binding tier %d with %u addressable views", (int)options.ResourceBindingTier, env.addressable);
    }
    ID3D12DescriptorHeap *views = create_heap(env.device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, D3D12_VIEWS, true);
    ID3D12DescriptorHeap *samplers = create_heap(env.device, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, D3D12_SAMPLERS, true);
    if (views) {
        test_highest_descriptor(&env, views);
        test_directly_indexed(&env, views);
        test_past_addressable(&env, views);
        ID3D12DescriptorHeap_Release(views);
    }
    if (samplers)
        ID3D12DescriptorHeap_Release(samplers);
    ID3D12CommandQueue_Release(env.queue);
    harness_release_device(env.device);
    return harness_finish();
}
