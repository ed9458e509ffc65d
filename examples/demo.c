/* d3d12xs demo: data goes CPU -> COPY queue -> COMPUTE queue -> DIRECT queue -> CPU, each
 * hop ordered only by fences, with the lists submitted in reverse order so every queue
 * waits for a signal that does not exist yet. The result is verified byte for byte. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <d3d12.h>
#include <d3d12_xs.h>
#include <d3dcompiler.h>

#define DATA_SIZE (32u << 20)

static int failures;

#define CHECK_HR(expr) do { HRESULT hr_ = (expr); if (FAILED(hr_)) { \
        fprintf(stderr, "demo: %s failed: 0x%08x\n", #expr, (unsigned)hr_); exit(1); } } while (0)

static ID3D12Resource *create_buffer(ID3D12Device *device, D3D12_HEAP_TYPE type, UINT64 size, D3D12_RESOURCE_STATES state)
{
    D3D12_HEAP_PROPERTIES heap = {type, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 0, 0};
    D3D12_RESOURCE_DESC desc;
    ID3D12Resource *resource;

    memset(&desc, 0, sizeof(desc));
    desc.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
    desc.Width = size;
    desc.Height = desc.DepthOrArraySize = desc.MipLevels = 1;
    desc.SampleDesc.Count = 1;
    desc.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &heap, D3D12_HEAP_FLAG_NONE, &desc, state, NULL,
            &IID_ID3D12Resource, (void **)&resource));
    return resource;
}

struct stage {
    const char *name;
    D3D12_COMMAND_LIST_TYPE type;
    ID3D12CommandQueue *queue;
    ID3D12CommandAllocator *allocator;
    ID3D12GraphicsCommandList2 *list;
    ID3D12QueryHeap *timestamps;
    UINT64 frequency;
};

static void create_stage(ID3D12Device *device, struct stage *stage)
{
    D3D12_COMMAND_QUEUE_DESC queue_desc = {stage->type, D3D12_COMMAND_QUEUE_PRIORITY_NORMAL, D3D12_COMMAND_QUEUE_FLAG_NONE, 0};
    D3D12_QUERY_HEAP_DESC query_desc = {stage->type == D3D12_COMMAND_LIST_TYPE_COPY
            ? D3D12_QUERY_HEAP_TYPE_COPY_QUEUE_TIMESTAMP : D3D12_QUERY_HEAP_TYPE_TIMESTAMP, 2, 0};

    CHECK_HR(ID3D12Device_CreateCommandQueue(device, &queue_desc, &IID_ID3D12CommandQueue, (void **)&stage->queue));
    CHECK_HR(ID3D12Device_CreateCommandAllocator(device, stage->type, &IID_ID3D12CommandAllocator, (void **)&stage->allocator));
    CHECK_HR(ID3D12Device_CreateCommandList(device, 0, stage->type, stage->allocator, NULL,
            &IID_ID3D12GraphicsCommandList2, (void **)&stage->list));
    if (SUCCEEDED(ID3D12CommandQueue_GetTimestampFrequency(stage->queue, &stage->frequency)))
        CHECK_HR(ID3D12Device_CreateQueryHeap(device, &query_desc, &IID_ID3D12QueryHeap, (void **)&stage->timestamps));
}

static void release_stage(struct stage *stage)
{
    if (stage->timestamps)
        ID3D12QueryHeap_Release(stage->timestamps);
    ID3D12GraphicsCommandList2_Release(stage->list);
    ID3D12CommandAllocator_Release(stage->allocator);
    ID3D12CommandQueue_Release(stage->queue);
}

/* Records: timestamp, copy src -> dst, timestamp. */
static void record_copy(struct stage *stage, ID3D12Resource *dst, ID3D12Resource *src)
{
    if (stage->timestamps)
        ID3D12GraphicsCommandList2_EndQuery(stage->list, stage->timestamps, D3D12_QUERY_TYPE_TIMESTAMP, 0);
    ID3D12GraphicsCommandList2_CopyResource(stage->list, dst, src);
    if (stage->timestamps)
        ID3D12GraphicsCommandList2_EndQuery(stage->list, stage->timestamps, D3D12_QUERY_TYPE_TIMESTAMP, 1);
}

/* HLSL compute on the data: a 256-bin byte histogram (group-shared atomics), then an
 * inclusive prefix sum of the bins (a group-shared scan), both checked against the CPU. */
static const char histogram_hlsl[] =
    "ByteAddressBuffer data : register(t0);\n"
    "RWByteAddressBuffer bins : register(u0);\n"
    "RWByteAddressBuffer prefix : register(u1);\n"
    "cbuffer Params : register(b0) { uint word_count; };\n"
    "groupshared uint local_bins[256];\n"
    "[numthreads(256, 1, 1)]\n"
    "void histogram(uint3 group : SV_GroupID, uint lane : SV_GroupIndex)\n"
    "{\n"
    "    local_bins[lane] = 0;\n"
    "    GroupMemoryBarrierWithGroupSync();\n"
    "    for (uint k = 0; k < 16; k++) {\n"
    "        uint w = group.x * 4096 + k * 256 + lane;\n"
    "        if (w < word_count) {\n"
    "            uint v = data.Load(w * 4);\n"
    "            InterlockedAdd(local_bins[v & 255], 1);\n"
    "            InterlockedAdd(local_bins[(v >> 8) & 255], 1);\n"
    "            InterlockedAdd(local_bins[(v >> 16) & 255], 1);\n"
    "            InterlockedAdd(local_bins[v >> 24], 1);\n"
    "        }\n"
    "    }\n"
    "    GroupMemoryBarrierWithGroupSync();\n"
    "    bins.InterlockedAdd(lane * 4, local_bins[lane]);\n"
    "}\n"
    "groupshared uint scan[256];\n"
    "[numthreads(256, 1, 1)]\n"
    "void prefix_sum(uint lane : SV_GroupIndex)\n"
    "{\n"
    "    scan[lane] = bins.Load(lane * 4);\n"
    "    GroupMemoryBarrierWithGroupSync();\n"
    "    for (uint offset = 1; offset < 256; offset <<= 1) {\n"
    "        uint v = lane >= offset ? scan[lane - offset] : 0;\n"
    "        GroupMemoryBarrierWithGroupSync();\n"
    "        scan[lane] += v;\n"
    "        GroupMemoryBarrierWithGroupSync();\n"
    "    }\n"
    "    prefix.Store(lane * 4, scan[lane]);\n"
    "}\n";

static ID3D12PipelineState *compute_pipeline(ID3D12Device *device, ID3D12RootSignature *signature, const char *entry)
{
    D3D12_COMPUTE_PIPELINE_STATE_DESC desc;
    ID3DBlob *code = NULL, *errors = NULL;
    ID3D12PipelineState *state;

    if (FAILED(D3DCompile(histogram_hlsl, sizeof(histogram_hlsl) - 1, "histogram.hlsl", NULL, NULL, entry, "cs_6_0", 0, 0, &code, &errors))) {
        fprintf(stderr, "demo: %s: %s\n", entry, errors ? (const char *)ID3D10Blob_GetBufferPointer(errors) : "compile failed");
        exit(1);
    }
    memset(&desc, 0, sizeof(desc));
    desc.pRootSignature = signature;
    desc.CS.pShaderBytecode = ID3D10Blob_GetBufferPointer(code);
    desc.CS.BytecodeLength = ID3D10Blob_GetBufferSize(code);
    CHECK_HR(ID3D12Device_CreateComputePipelineState(device, &desc, &IID_ID3D12PipelineState, (void **)&state));
    ID3D10Blob_Release(code);
    return state;
}

static void run_histogram(ID3D12Device *device, struct stage *stage, ID3D12Resource *data, const uint8_t *source, UINT word_count)
{
    D3D12_ROOT_PARAMETER1 parameters[4];
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC root_desc;
    D3D12_HEAP_PROPERTIES heap = {D3D12_HEAP_TYPE_DEFAULT, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 0, 0};
    D3D12_RESOURCE_DESC desc;
    ID3D12RootSignature *signature;
    ID3D12Resource *bins, *prefix, *readback;
    ID3D12Fence *fence;
    ID3DBlob *blob;
    UINT64 expected[256] = {0}, running = 0;
    uint32_t *results;
    LARGE_INTEGER t0, t1;
    int bad = 0;

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 1;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV;
    parameters[2].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    parameters[3].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    parameters[3].Descriptor.ShaderRegister = 1;
    memset(&root_desc, 0, sizeof(root_desc));
    root_desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    root_desc.Desc_1_1.NumParameters = 4;
    root_desc.Desc_1_1.pParameters = parameters;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&root_desc, &blob, NULL));
    CHECK_HR(ID3D12Device_CreateRootSignature(device, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
            &IID_ID3D12RootSignature, (void **)&signature));
    ID3D10Blob_Release(blob);
    ID3D12PipelineState *histogram = compute_pipeline(device, signature, "histogram");
    ID3D12PipelineState *prefix_sum = compute_pipeline(device, signature, "prefix_sum");

    memset(&desc, 0, sizeof(desc));
    desc.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
    desc.Width = 1024;
    desc.Height = desc.DepthOrArraySize = desc.MipLevels = 1;
    desc.SampleDesc.Count = 1;
    desc.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, NULL,
            &IID_ID3D12Resource, (void **)&bins)); /* committed resources start zeroed */
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, NULL,
            &IID_ID3D12Resource, (void **)&prefix));
    readback = create_buffer(device, D3D12_HEAP_TYPE_READBACK, 2048, D3D12_RESOURCE_STATE_COPY_DEST);

    CHECK_HR(ID3D12CommandAllocator_Reset(stage->allocator));
    CHECK_HR(ID3D12GraphicsCommandList2_Reset(stage->list, stage->allocator, histogram));
    ID3D12GraphicsCommandList2_SetComputeRootSignature(stage->list, signature);
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(stage->list, 0, word_count, 0);
    ID3D12GraphicsCommandList2_SetComputeRootShaderResourceView(stage->list, 1, ID3D12Resource_GetGPUVirtualAddress(data));
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(stage->list, 2, ID3D12Resource_GetGPUVirtualAddress(bins));
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(stage->list, 3, ID3D12Resource_GetGPUVirtualAddress(prefix));
    ID3D12GraphicsCommandList2_Dispatch(stage->list, (word_count + 4095) / 4096, 1, 1);
    D3D12_RESOURCE_BARRIER barrier;
    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
    barrier.UAV.pResource = bins;
    ID3D12GraphicsCommandList2_ResourceBarrier(stage->list, 1, &barrier);
    ID3D12GraphicsCommandList2_SetPipelineState(stage->list, prefix_sum);
    ID3D12GraphicsCommandList2_Dispatch(stage->list, 1, 1, 1);
    barrier.UAV.pResource = NULL;
    ID3D12GraphicsCommandList2_ResourceBarrier(stage->list, 1, &barrier);
    ID3D12GraphicsCommandList2_CopyBufferRegion(stage->list, readback, 0, bins, 0, 1024);
    ID3D12GraphicsCommandList2_CopyBufferRegion(stage->list, readback, 1024, prefix, 0, 1024);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(stage->list));

    CHECK_HR(ID3D12Device_CreateFence(device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&fence));
    ID3D12CommandList *list = (ID3D12CommandList *)stage->list;
    QueryPerformanceCounter(&t0);
    ID3D12CommandQueue_ExecuteCommandLists(stage->queue, 1, &list);
    CHECK_HR(ID3D12CommandQueue_Signal(stage->queue, fence, 1));
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 1, NULL));
    QueryPerformanceCounter(&t1);

    for (size_t i = 0; i < (size_t)word_count * 4; i++)
        expected[source[i]]++;
    CHECK_HR(ID3D12Resource_Map(readback, 0, NULL, (void **)&results));
    for (int i = 0; i < 256; i++) {
        running += expected[i];
        if (results[i] != expected[i] || results[256 + i] != (uint32_t)running)
            bad++;
    }
    ID3D12Resource_Unmap(readback, 0, NULL);
    printf("  hlsl   : %s histogram of %u MiB + prefix sum of 256 bins: %.1f ms, %s\n", stage->name, word_count >> 18,
            (double)(t1.QuadPart - t0.QuadPart) / 1e6, bad ? "MISMATCH" : "verified against the CPU");
    failures += bad != 0;

    ID3D12Fence_Release(fence);
    ID3D12Resource_Release(readback);
    ID3D12Resource_Release(prefix);
    ID3D12Resource_Release(bins);
    ID3D12PipelineState_Release(prefix_sum);
    ID3D12PipelineState_Release(histogram);
    ID3D12RootSignature_Release(signature);
}

int main(void)
{
    struct stage stages[3] = {
        {"COPY", D3D12_COMMAND_LIST_TYPE_COPY, NULL, NULL, NULL, NULL, 0},
        {"COMPUTE", D3D12_COMMAND_LIST_TYPE_COMPUTE, NULL, NULL, NULL, NULL, 0},
        {"DIRECT", D3D12_COMMAND_LIST_TYPE_DIRECT, NULL, NULL, NULL, NULL, 0},
    };
    ID3D12Device *device;
    D3D12XS_DEVICE_INFO info;
    ID3D12Fence *fence;
    LARGE_INTEGER t0, t1, t2;
    uint8_t *source, *mapped;
    UINT64 *times;

    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&device));
    CHECK_HR(D3D12XSGetDeviceInfo(device, &info));
    printf("d3d12xs demo\n");
    printf("  device : %s (%s, %s), Vulkan %u.%u, wave size %u%s\n", info.DeviceName, info.DriverName, info.DriverInfo,
            (info.VulkanApiVersion >> 22) & 0x7f, (info.VulkanApiVersion >> 12) & 0x3ff, info.SubgroupSize,
            info.ValidationLayerEnabled ? ", validation layer on" : "");

    for (int i = 0; i < 3; i++) {
        D3D12XS_QUEUE_MAPPING *map = &info.Queues[stages[i].type];
        create_stage(device, &stages[i]);
        printf("  queue  : %-7s -> Vulkan family %u (%u queue%s%s)\n", stages[i].name, map->VulkanQueueFamily, map->VulkanQueueCount,
                map->VulkanQueueCount == 1 ? "" : "s", map->SharedFamily ? ", shared with another type" : ", its own");
    }

    /* upload -> a (COPY) -> b (COMPUTE) -> readback (DIRECT) */
    ID3D12Resource *upload = create_buffer(device, D3D12_HEAP_TYPE_UPLOAD, DATA_SIZE, D3D12_RESOURCE_STATE_GENERIC_READ);
    ID3D12Resource *a = create_buffer(device, D3D12_HEAP_TYPE_DEFAULT, DATA_SIZE, D3D12_RESOURCE_STATE_COMMON);
    ID3D12Resource *b = create_buffer(device, D3D12_HEAP_TYPE_DEFAULT, DATA_SIZE, D3D12_RESOURCE_STATE_COMMON);
    ID3D12Resource *readback = create_buffer(device, D3D12_HEAP_TYPE_READBACK, DATA_SIZE, D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12Resource *results = create_buffer(device, D3D12_HEAP_TYPE_READBACK, 64, D3D12_RESOURCE_STATE_COPY_DEST);
    CHECK_HR(ID3D12Device_CreateFence(device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&fence));

    source = malloc(DATA_SIZE);
    for (size_t i = 0; i < DATA_SIZE; i++)
        source[i] = (uint8_t)(i * 2654435761u >> 13);
    CHECK_HR(ID3D12Resource_Map(upload, 0, NULL, (void **)&mapped));
    memcpy(mapped, source, DATA_SIZE);
    ID3D12Resource_Unmap(upload, 0, NULL);

    record_copy(&stages[0], a, upload);
    record_copy(&stages[1], b, a);
    record_copy(&stages[2], readback, b);
    /* The last stage resolves every stage's timestamps: a transfer-only COPY queue cannot. */
    for (int i = 0; i < 3; i++)
        if (stages[i].timestamps)
            ID3D12GraphicsCommandList2_ResolveQueryData(stages[2].list, stages[i].timestamps, D3D12_QUERY_TYPE_TIMESTAMP, 0, 2,
                    results, (UINT64)i * 16);
    for (int i = 0; i < 3; i++)
        CHECK_HR(ID3D12GraphicsCommandList2_Close(stages[i].list));

    /* Submitted last stage first: each queue waits on a value no one has signalled yet. */
    QueryPerformanceCounter(&t0);
    for (int i = 2; i >= 0; i--) {
        ID3D12CommandList *list = (ID3D12CommandList *)stages[i].list;
        if (i > 0)
            CHECK_HR(ID3D12CommandQueue_Wait(stages[i].queue, fence, (UINT64)i));
        ID3D12CommandQueue_ExecuteCommandLists(stages[i].queue, 1, &list);
        CHECK_HR(ID3D12CommandQueue_Signal(stages[i].queue, fence, (UINT64)i + 1));
    }
    QueryPerformanceCounter(&t1);
    HANDLE event = CreateEvent(NULL, FALSE, FALSE, NULL);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 3, event));
    if (WaitForSingleObject(event, 60000) != WAIT_OBJECT_0) {
        fprintf(stderr, "demo: the fence did not reach 3 within 60 s (device removed reason 0x%08x)\n",
                (unsigned)ID3D12Device_GetDeviceRemovedReason(device));
        return 1;
    }
    QueryPerformanceCounter(&t2);
    CloseHandle(event);

    CHECK_HR(ID3D12Resource_Map(readback, 0, NULL, (void **)&mapped));
    size_t mismatch = DATA_SIZE;
    for (size_t i = 0; i < DATA_SIZE && mismatch == DATA_SIZE; i++)
        if (mapped[i] != source[i])
            mismatch = i;
    ID3D12Resource_Unmap(readback, 0, NULL);
    if (mismatch != DATA_SIZE) {
        printf("  result : MISMATCH at byte %zu\n", mismatch);
        failures++;
    }

    printf("  data   : %u MiB, upload -> COPY -> COMPUTE -> DIRECT -> readback\n", DATA_SIZE >> 20);
    CHECK_HR(ID3D12Resource_Map(results, 0, NULL, (void **)&times));
    for (int i = 0; i < 3; i++) {
        if (!stages[i].timestamps)
            continue;
        double us = (double)(times[i * 2 + 1] - times[i * 2]) * 1e6 / (double)stages[i].frequency;
        printf("  gpu    : %-7s copy %8.1f us  (%.2f GB/s read+write)\n", stages[i].name, us, 2.0 * DATA_SIZE / (us * 1e3));
    }
    ID3D12Resource_Unmap(results, 0, NULL);
    /* 8 MiB keeps the CPU device quick; a GPU gets all of it. */
    run_histogram(device, &stages[1], a, source, (info.IsSoftwareRasterizer ? 8u << 20 : DATA_SIZE) / 4);
    printf("  cpu    : submit %.1f us, wait %.1f ms\n", (double)(t1.QuadPart - t0.QuadPart) / 1e3, (double)(t2.QuadPart - t1.QuadPart) / 1e6);
    if (!failures)
        printf("  result : verified, %u of %u bytes match\n", DATA_SIZE, DATA_SIZE);

    free(source);
    ID3D12Fence_Release(fence);
    ID3D12Resource_Release(upload);
    ID3D12Resource_Release(a);
    ID3D12Resource_Release(b);
    ID3D12Resource_Release(readback);
    ID3D12Resource_Release(results);
    for (int i = 0; i < 3; i++)
        release_stage(&stages[i]);
    ID3D12Device_Release(device);
    return failures ? 1 : 0;
}
