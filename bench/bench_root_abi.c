/* bench_root_abi: CPU cost of recording a Dispatch that changes a root constant, with the
 * root arguments in push constants (the default) and through the per-dispatch argument
 * buffer of D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI. Same shader, same root
 * parameters, same run; the two ABIs alternate which goes first in each repetition. Before
 * timing, one recording of each runs on the GPU and its output is checked (same results).
 * A second figure records SetComputeRootUnorderedAccessView (alternating two buffers) +
 * Dispatch: a root descriptor pushed as a descriptor, or its address written to memory.
 * See docs/benchmarks.md. D3D12XS_BENCH_OUT=<path> also writes the figures as TSV. */
#include <malloc.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <d3d12.h>
#include <d3d12_xs.h>
#include <d3dcompiler.h>

#define DISPATCHES 100000
#define REPS 15
#define THREADS 64

#define HR(expr) do { HRESULT hr_ = (expr); if (FAILED(hr_)) { \
        fprintf(stderr, "bench_root_abi: line %d: %s failed (0x%08x)\n", __LINE__, #expr, (unsigned)hr_); exit(1); } } while (0)

static const char tiny_hlsl[] =
    "cbuffer Constants : register(b0) { uint value; };\n"
    "RWByteAddressBuffer output : register(u0);\n"
    "[numthreads(64, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, value + id.x); }\n";

struct abi {
    const char *name;
    D3D12_ROOT_SIGNATURE_FLAGS flags;
    ID3D12RootSignature *signature;
    ID3D12PipelineState *pipeline;
    ID3D12CommandAllocator *allocator;
    ID3D12GraphicsCommandList2 *list;
    double samples[REPS];
    double uav_samples[REPS]; /* the root UAV changing at every dispatch */
};

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *values, unsigned count)
{
    qsort(values, count, sizeof(*values), compare_doubles);
    return count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
}

static ID3D12Resource *buffer(ID3D12Device *device, D3D12_HEAP_TYPE type, UINT64 size, D3D12_RESOURCE_FLAGS flags,
        D3D12_RESOURCE_STATES state)
{
    D3D12_HEAP_PROPERTIES heap = {type, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 0, 0};
    D3D12_RESOURCE_DESC desc = {D3D12_RESOURCE_DIMENSION_BUFFER, 0, size, 1, 1, 1, DXGI_FORMAT_UNKNOWN, {1, 0},
            D3D12_TEXTURE_LAYOUT_ROW_MAJOR, flags};
    ID3D12Resource *resource = NULL;
    HR(ID3D12Device_CreateCommittedResource(device, &heap, D3D12_HEAP_FLAG_NONE, &desc, state, NULL, &IID_ID3D12Resource,
            (void **)&resource));
    return resource;
}

static void abi_init(ID3D12Device *device, ID3DBlob *code, struct abi *abi)
{
    D3D12_ROOT_PARAMETER1 parameters[2];
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc;
    D3D12_COMPUTE_PIPELINE_STATE_DESC pipeline;
    ID3DBlob *blob = NULL;

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 1;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    memset(&desc, 0, sizeof(desc));
    desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    desc.Desc_1_1.NumParameters = 2;
    desc.Desc_1_1.pParameters = parameters;
    desc.Desc_1_1.Flags = abi->flags;
    HR(D3D12SerializeVersionedRootSignature(&desc, &blob, NULL));
    HR(ID3D12Device_CreateRootSignature(device, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
            &IID_ID3D12RootSignature, (void **)&abi->signature));
    ID3D10Blob_Release(blob);
    memset(&pipeline, 0, sizeof(pipeline));
    pipeline.pRootSignature = abi->signature;
    pipeline.CS.pShaderBytecode = ID3D10Blob_GetBufferPointer(code);
    pipeline.CS.BytecodeLength = ID3D10Blob_GetBufferSize(code);
    HR(ID3D12Device_CreateComputePipelineState(device, &pipeline, &IID_ID3D12PipelineState, (void **)&abi->pipeline));
    HR(ID3D12Device_CreateCommandAllocator(device, D3D12_COMMAND_LIST_TYPE_COMPUTE, &IID_ID3D12CommandAllocator, (void **)&abi->allocator));
    HR(ID3D12Device_CreateCommandList(device, 0, D3D12_COMMAND_LIST_TYPE_COMPUTE, abi->allocator, NULL, &IID_ID3D12GraphicsCommandList2,
            (void **)&abi->list));
    HR(ID3D12GraphicsCommandList2_Close(abi->list));
}

/* Reset, bind, n x (SetComputeRoot32BitConstant + Dispatch), Close; ns per dispatch. */
static double record(struct abi *abi, D3D12_GPU_VIRTUAL_ADDRESS output, unsigned n)
{
    double start = now_ns();
    HR(ID3D12GraphicsCommandList2_Reset(abi->list, abi->allocator, NULL));
    ID3D12GraphicsCommandList2_SetComputeRootSignature(abi->list, abi->signature);
    ID3D12GraphicsCommandList2_SetPipelineState(abi->list, abi->pipeline);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(abi->list, 1, output);
    for (unsigned i = 0; i < n; i++) {
        ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(abi->list, 0, i, 0);
        ID3D12GraphicsCommandList2_Dispatch(abi->list, 1, 1, 1);
    }
    HR(ID3D12GraphicsCommandList2_Close(abi->list));
    return (now_ns() - start) / n;
}

/* Reset, bind, n x (SetComputeRootUnorderedAccessView, alternating two addresses, + Dispatch),
 * Close; ns per dispatch. */
static double record_uav(struct abi *abi, const D3D12_GPU_VIRTUAL_ADDRESS outputs[2], unsigned n)
{
    double start = now_ns();
    HR(ID3D12GraphicsCommandList2_Reset(abi->list, abi->allocator, NULL));
    ID3D12GraphicsCommandList2_SetComputeRootSignature(abi->list, abi->signature);
    ID3D12GraphicsCommandList2_SetPipelineState(abi->list, abi->pipeline);
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(abi->list, 0, 1, 0);
    for (unsigned i = 0; i < n; i++) {
        ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(abi->list, 1, outputs[i & 1]);
        ID3D12GraphicsCommandList2_Dispatch(abi->list, 1, 1, 1);
    }
    HR(ID3D12GraphicsCommandList2_Close(abi->list));
    return (now_ns() - start) / n;
}

int main(void)
{
    struct abi abis[2] = {{.name = "push constants"}, {.name = "memory (FORCE_MEMORY_BASED_ABI)",
            .flags = D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI}};
    D3D12_COMMAND_QUEUE_DESC queue_desc = {D3D12_COMMAND_LIST_TYPE_COMPUTE, 0, D3D12_COMMAND_QUEUE_FLAG_NONE, 0};
    const char *out = getenv("D3D12XS_BENCH_OUT");
    ID3D12Device *device = NULL;
    ID3D12CommandQueue *queue = NULL;
    ID3D12Fence *fence = NULL;
    ID3DBlob *code = NULL, *errors = NULL;
    D3D12XS_DEVICE_INFO info;
    double medians[2], uav_medians[2];

    setenv("D3D12XS_DEBUG", "0", 1); /* the validation layer would measure itself */
    mallopt(M_TRIM_THRESHOLD, 1 << 30); /* as bench_compute: no page faults from lavapipe's freed commands */
    HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&device));
    HR(D3D12XSGetDeviceInfo(device, &info));
    HR(ID3D12Device_CreateCommandQueue(device, &queue_desc, &IID_ID3D12CommandQueue, (void **)&queue));
    HR(ID3D12Device_CreateFence(device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&fence));
    HR(D3DCompile(tiny_hlsl, strlen(tiny_hlsl), "bench.hlsl", NULL, NULL, "main", "cs_6_0", 0, 0, &code, &errors));
    for (unsigned a = 0; a < 2; a++)
        abi_init(device, code, &abis[a]);

    /* Same results: each ABI's recording runs once; the last dispatch leaves value n - 1. */
    for (unsigned a = 0; a < 2; a++) {
        ID3D12Resource *output = buffer(device, D3D12_HEAP_TYPE_DEFAULT, THREADS * 4, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS,
                D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
        ID3D12Resource *readback = buffer(device, D3D12_HEAP_TYPE_READBACK, THREADS * 4, D3D12_RESOURCE_FLAG_NONE,
                D3D12_RESOURCE_STATE_COPY_DEST);
        D3D12_RESOURCE_BARRIER barrier = {D3D12_RESOURCE_BARRIER_TYPE_TRANSITION, D3D12_RESOURCE_BARRIER_FLAG_NONE,
                .Transition = {output, D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES, D3D12_RESOURCE_STATE_UNORDERED_ACCESS,
                        D3D12_RESOURCE_STATE_COPY_SOURCE}};
        ID3D12CommandList *lists[] = {(ID3D12CommandList *)abis[a].list};
        D3D12XS_DISPATCH_COUNTERS counters;
        uint32_t *words;

        record(&abis[a], ID3D12Resource_GetGPUVirtualAddress(output), 1000);
        HR(D3D12XSGetCommandListDispatchCounters(lists[0], &counters));
        if ((a ? counters.MemoryAbiDispatches : counters.PushConstantAbiDispatches) != 1000
                || (a ? counters.MemoryRootDescriptors : counters.PushedRootDescriptors) != 1000) {
            fprintf(stderr, "bench_root_abi: %s: the dispatches took the other ABI\n", abis[a].name);
            return 1;
        }
        HR(ID3D12GraphicsCommandList2_Reset(abis[a].list, abis[a].allocator, NULL));
        ID3D12GraphicsCommandList2_SetComputeRootSignature(abis[a].list, abis[a].signature);
        ID3D12GraphicsCommandList2_SetPipelineState(abis[a].list, abis[a].pipeline);
        ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(abis[a].list, 1, ID3D12Resource_GetGPUVirtualAddress(output));
        for (unsigned i = 0; i < 1000; i++) {
            /* Every dispatch writes the same words: only a UAV barrier orders them (the H200
             * overlaps dispatches, and the last to land need not be the last recorded). */
            if (i)
                ID3D12GraphicsCommandList2_ResourceBarrier(abis[a].list, 1, &barrier);
            ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(abis[a].list, 0, i, 0);
            ID3D12GraphicsCommandList2_Dispatch(abis[a].list, 1, 1, 1);
        }
        ID3D12GraphicsCommandList2_ResourceBarrier(abis[a].list, 1, &barrier);
        ID3D12GraphicsCommandList2_CopyResource(abis[a].list, readback, output);
        HR(ID3D12GraphicsCommandList2_Close(abis[a].list));
        ID3D12CommandQueue_ExecuteCommandLists(queue, 1, lists);
        HR(ID3D12CommandQueue_Signal(queue, fence, a + 1));
        HR(ID3D12Fence_SetEventOnCompletion(fence, a + 1, NULL));
        HR(ID3D12Resource_Map(readback, 0, NULL, (void **)&words));
        for (unsigned t = 0; t < THREADS; t++) {
            if (words[t] != 999 + t) {
                fprintf(stderr, "bench_root_abi: %s: thread %u wrote %u, expected %u\n", abis[a].name, t, words[t], 999 + t);
                return 1;
            }
        }
        ID3D12Resource_Unmap(readback, 0, NULL);
        ID3D12Resource_Release(readback);
        ID3D12Resource_Release(output);
        HR(ID3D12CommandAllocator_Reset(abis[a].allocator));
    }

    {
        ID3D12Resource *output = buffer(device, D3D12_HEAP_TYPE_DEFAULT, THREADS * 4, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS,
                D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
        ID3D12Resource *second = buffer(device, D3D12_HEAP_TYPE_DEFAULT, THREADS * 4, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS,
                D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
        D3D12_GPU_VIRTUAL_ADDRESS address = ID3D12Resource_GetGPUVirtualAddress(output);
        D3D12_GPU_VIRTUAL_ADDRESS addresses[2] = {address, ID3D12Resource_GetGPUVirtualAddress(second)};
        for (unsigned i = 0; i <= REPS; i++) { /* a warm-up, then alternating order */
            for (unsigned k = 0; k < 2; k++) {
                unsigned a = (i + k) % 2;
                HR(ID3D12CommandAllocator_Reset(abis[a].allocator));
                abis[a].samples[i ? i - 1 : 0] = record(&abis[a], address, DISPATCHES);
                HR(ID3D12CommandAllocator_Reset(abis[a].allocator));
                abis[a].uav_samples[i ? i - 1 : 0] = record_uav(&abis[a], addresses, DISPATCHES);
            }
        }
        ID3D12Resource_Release(second);
        ID3D12Resource_Release(output);
    }

    printf("device: %s (%s)\nCPU ns per SetComputeRoot32BitConstant + Dispatch, %u dispatches x %u reps, medians:\n",
            info.DeviceName, info.DriverName, DISPATCHES, REPS);
    for (unsigned a = 0; a < 2; a++) {
        medians[a] = median(abis[a].samples, REPS);
        printf("  %-34s %8.1f ns   (range %.1f-%.1f)\n", abis[a].name, medians[a], abis[a].samples[0], abis[a].samples[REPS - 1]);
    }
    printf("  memory / push constants: %.3f\n", medians[1] / medians[0]);
    printf("CPU ns per SetComputeRootUnorderedAccessView + Dispatch (root UAV: push descriptor vs address in memory), medians:\n");
    for (unsigned a = 0; a < 2; a++) {
        uav_medians[a] = median(abis[a].uav_samples, REPS);
        printf("  %-34s %8.1f ns   (range %.1f-%.1f)\n", abis[a].name, uav_medians[a], abis[a].uav_samples[0],
                abis[a].uav_samples[REPS - 1]);
    }
    printf("  memory / push descriptor: %.3f\n", uav_medians[1] / uav_medians[0]);
    if (out && *out) {
        FILE *f = fopen(out, "w");
        if (f) {
            fprintf(f, "# bench_root_abi\tdevice=%s\tdispatches=%u\treps=%u\n# abi\tns_per_dispatch\n", info.DeviceName, DISPATCHES, REPS);
            fprintf(f, "push_constants\t%.2f\nmemory_based\t%.2f\n", medians[0], medians[1]);
            fprintf(f, "root_uav_push_descriptor\t%.2f\nroot_uav_memory_based\t%.2f\n", uav_medians[0], uav_medians[1]);
            fclose(f);
        }
    }

    for (unsigned a = 0; a < 2; a++) {
        ID3D12GraphicsCommandList2_Release(abis[a].list);
        ID3D12CommandAllocator_Release(abis[a].allocator);
        ID3D12PipelineState_Release(abis[a].pipeline);
        ID3D12RootSignature_Release(abis[a].signature);
    }
    ID3D10Blob_Release(code);
    if (errors)
        ID3D10Blob_Release(errors);
    ID3D12Fence_Release(fence);
    ID3D12CommandQueue_Release(queue);
    ID3D12Device_Release(device);
    return 0;
}
