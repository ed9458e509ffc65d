/* Barriers between compute, copies and render-target work on a device (the tracker's decisions
 * alone: test_barrier_tracker.c). A dispatch writes a texture, UNORDERED_ACCESS -> RENDER_TARGET,
 * ClearRenderTargetView of a rectangle, -> COPY_SOURCE, and the texture read back holds the
 * clear inside the rectangle and the dispatch's values outside it. Variants: a copy writes the
 * texture instead (COPY_DEST -> RENDER_TARGET); an unrelated dispatch and copy between the
 * barrier and the clear (with which the clear once got no barrier); and a compute pass after
 * the clear (RENDER_TARGET -> UNORDERED_ACCESS) that reads what the clear wrote. Run with the
 * validation layer's synchronisation checks (docs/design.md, "Barriers") it shows each hazard
 * the barriers leave between copies and the clear; it cannot see shaders' accesses through
 * descriptor buffers. */
#include <stdio.h>
#include <string.h>

#include "harness.h"

#define SIZE 16
#define CLEAR_VALUE 7777u
#define AFTER_CLEAR 0x10000u /* what the pass after the clear adds */

/* mode 0 writes each texel's pattern; mode 1 adds AFTER_CLEAR to what is there. */
static const char shader[] =
    "RWTexture2D<uint> target : register(u0);\n"
    "cbuffer constants : register(b0) { uint mode; };\n"
    "[numthreads(8, 8, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID)\n"
    "{\n"
    "    if (mode == 0)\n"
    "        target[id.xy] = 0x1000 + id.y * 16 + id.x;\n"
    "    else\n"
    "        target[id.xy] = target[id.xy] + 0x10000;\n"
    "}\n";

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12RootSignature *signature;
    ID3D12PipelineState *pipeline;
    ID3D12DescriptorHeap *views, *rtvs;
    UINT view_increment;
};

static uint32_t pattern(UINT x, UINT y)
{
    return 0x1000 + y * 16 + x;
}

static D3D12_CPU_DESCRIPTOR_HANDLE view_cpu(struct env *env, UINT index)
{
    D3D12_CPU_DESCRIPTOR_HANDLE handle = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(env->views);
    handle.ptr += (SIZE_T)index * env->view_increment;
    return handle;
}

static D3D12_GPU_DESCRIPTOR_HANDLE view_gpu(struct env *env, UINT index)
{
    D3D12_GPU_DESCRIPTOR_HANDLE handle = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(env->views);
    handle.ptr += (UINT64)index * env->view_increment;
    return handle;
}

static bool create_env(struct env *env)
{
    D3D12_DESCRIPTOR_RANGE1 range = {D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 1, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_VOLATILE, 0};
    D3D12_ROOT_PARAMETER1 parameters[2];
    D3D12_DESCRIPTOR_HEAP_DESC views = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 2, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    D3D12_DESCRIPTOR_HEAP_DESC rtvs = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    ID3D10Blob *code;

    memset(env, 0, sizeof(*env));
    if (!(env->device = harness_create_device()))
        return false;
    env->queue = harness_create_queue(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    parameters[0].DescriptorTable.NumDescriptorRanges = 1;
    parameters[0].DescriptorTable.pDescriptorRanges = &range;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[1].Constants.Num32BitValues = 1;
    env->signature = harness_root_signature(env->device, parameters, 2, D3D12_ROOT_SIGNATURE_FLAG_NONE);
    if ((code = harness_compile(shader, 0))) {
        env->pipeline = env->signature ? harness_compute_pipeline(env->device, env->signature, code) : NULL;
        ID3D10Blob_Release(code);
    }
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &views, &IID_ID3D12DescriptorHeap, (void **)&env->views), S_OK);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &rtvs, &IID_ID3D12DescriptorHeap, (void **)&env->rtvs), S_OK);
    env->view_increment = ID3D12Device_GetDescriptorHandleIncrementSize(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    return env->queue && env->pipeline && env->views && env->rtvs;
}

static void destroy_env(struct env *env)
{
    if (env->rtvs)
        ID3D12DescriptorHeap_Release(env->rtvs);
    if (env->views)
        ID3D12DescriptorHeap_Release(env->views);
    if (env->pipeline)
        ID3D12PipelineState_Release(env->pipeline);
    if (env->signature)
        ID3D12RootSignature_Release(env->signature);
    if (env->queue)
        ID3D12CommandQueue_Release(env->queue);
    if (env->device)
        harness_release_device(env->device);
}

/* An R32_UINT texture a shader writes and a clear renders to, in UNORDERED_ACCESS. */
static ID3D12Resource *create_target(struct env *env)
{
    D3D12_RESOURCE_DESC desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R32_UINT, SIZE, SIZE, 1, 1);
    D3D12_HEAP_PROPERTIES heap = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    ID3D12Resource *texture = NULL;

    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS | D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    CHECK_HR(ID3D12Device_CreateCommittedResource(env->device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, NULL,
            &IID_ID3D12Resource, (void **)&texture), S_OK);
    return texture;
}

static void transition(ID3D12GraphicsCommandList2 *list, ID3D12Resource *resource, D3D12_RESOURCE_STATES before, D3D12_RESOURCE_STATES after)
{
    D3D12_RESOURCE_BARRIER barrier;

    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    barrier.Transition.pResource = resource;
    barrier.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    barrier.Transition.StateBefore = before;
    barrier.Transition.StateAfter = after;
    ID3D12GraphicsCommandList2_ResourceBarrier(list, 1, &barrier);
}

/* The pipeline over the texture whose UAV is at heap index `view`, in `mode`. */
static void dispatch(struct env *env, ID3D12GraphicsCommandList2 *list, UINT view, UINT mode)
{
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list, 0, view_gpu(env, view));
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list, 1, mode, 0);
    ID3D12GraphicsCommandList2_Dispatch(list, SIZE / 8, SIZE / 8, 1);
}

/* Copies each texel's pattern into target (in COPY_DEST) from an upload buffer. */
static ID3D12Resource *copy_pattern(struct env *env, ID3D12GraphicsCommandList2 *list, ID3D12Resource *target,
        const D3D12_PLACED_SUBRESOURCE_FOOTPRINT *layout, UINT64 total)
{
    ID3D12Resource *upload = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, total, D3D12_RESOURCE_STATE_GENERIC_READ);
    uint8_t *mapped = NULL;

    CHECK_HR(ID3D12Resource_Map(upload, 0, NULL, (void **)&mapped), S_OK);
    for (UINT y = 0; mapped && y < SIZE; y++)
        for (UINT x = 0; x < SIZE; x++) {
            uint32_t texel = pattern(x, y);
            memcpy(mapped + layout->Offset + (size_t)y * layout->Footprint.RowPitch + x * 4, &texel, 4);
        }
    ID3D12Resource_Unmap(upload, 0, NULL);
    {
        D3D12_TEXTURE_COPY_LOCATION dst = {target, D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX, {.SubresourceIndex = 0}};
        D3D12_TEXTURE_COPY_LOCATION src = {upload, D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT, {.PlacedFootprint = *layout}};
        ID3D12GraphicsCommandList2_CopyTextureRegion(list, &dst, 0, 0, 0, &src, NULL);
    }
    return upload;
}

/* The sequence, then the texture read back against what each step wrote. copied: a copy writes
 * the pattern, not a dispatch; busy: a dispatch to another texture and a buffer copy between
 * the barrier and the clear; after: the pass after the clear. */
static void test_clear_between(struct env *env, bool copied, bool busy, bool after)
{
    static const D3D12_RECT rect = {4, 4, 12, 10};
    const float color[4] = {(float)CLEAR_VALUE, 0, 0, 0}; /* an integer view takes the floats as integers */
    ID3D12Resource *target = create_target(env), *other = create_target(env), *readback, *scratch[2], *upload = NULL;
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT layout;
    D3D12_RESOURCE_DESC desc;
    D3D12_CPU_DESCRIPTOR_HANDLE rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(env->rtvs);
    struct harness_list list;
    const uint8_t *mapped = NULL;
    UINT rows, wrong = 0;
    UINT64 total;

    if (!target || !other)
        return;
    desc = ID3D12Resource_GetDesc(target);
    ID3D12Device_GetCopyableFootprints(env->device, &desc, 0, 1, 0, &layout, &rows, NULL, &total);
    readback = harness_create_buffer(env->device, D3D12_HEAP_TYPE_READBACK, total, D3D12_RESOURCE_STATE_COPY_DEST);
    scratch[0] = harness_create_buffer(env->device, D3D12_HEAP_TYPE_DEFAULT, 4096, D3D12_RESOURCE_STATE_COPY_DEST);
    scratch[1] = harness_create_buffer(env->device, D3D12_HEAP_TYPE_DEFAULT, 4096, D3D12_RESOURCE_STATE_COPY_SOURCE);
    ID3D12Device_CreateUnorderedAccessView(env->device, target, NULL, NULL, view_cpu(env, 0));
    ID3D12Device_CreateUnorderedAccessView(env->device, other, NULL, NULL, view_cpu(env, 1));
    ID3D12Device_CreateRenderTargetView(env->device, target, NULL, rtv);

    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &env->views);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, env->signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, env->pipeline);
    if (copied) {
        transition(list.list, target, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_DEST);
        upload = copy_pattern(env, list.list, target, &layout, total);
        transition(list.list, target, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_RENDER_TARGET);
    } else {
        dispatch(env, list.list, 0, 0);
        transition(list.list, target, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_RENDER_TARGET);
    }
    if (busy) {
        /* The compute and transfer stages wait for the barrier here; the clear's must still. */
        dispatch(env, list.list, 1, 0);
        ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, scratch[0], 0, scratch[1], 0, 4096);
    }
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, rtv, color, 1, &rect);
    if (after) {
        transition(list.list, target, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
        dispatch(env, list.list, 0, 1);
        transition(list.list, target, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
    } else {
        transition(list.list, target, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_COPY_SOURCE);
    }
    {
        D3D12_TEXTURE_COPY_LOCATION dst = {readback, D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT, {.PlacedFootprint = layout}};
        D3D12_TEXTURE_COPY_LOCATION src = {target, D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX, {.SubresourceIndex = 0}};
        ID3D12GraphicsCommandList2_CopyTextureRegion(list.list, &dst, 0, 0, 0, &src, NULL);
    }
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);

    CHECK_HR(ID3D12Resource_Map(readback, 0, NULL, (void **)&mapped), S_OK);
    for (UINT y = 0; mapped && y < SIZE; y++)
        for (UINT x = 0; x < SIZE; x++) {
            bool cleared = x >= (UINT)rect.left && x < (UINT)rect.right && y >= (UINT)rect.top && y < (UINT)rect.bottom;
            uint32_t expected = (cleared ? CLEAR_VALUE : pattern(x, y)) + (after ? AFTER_CLEAR : 0), texel;
            memcpy(&texel, mapped + (size_t)y * layout.Footprint.RowPitch + x * 4, 4);
            if (texel != expected && !wrong++)
                CHECK_MSG(false, "copied %d, busy %d, after %d: texel (%u, %u) is 0x%x, expected 0x%x", copied, busy, after, x, y, texel,
                        expected);
        }
    CHECK_MSG(!wrong, "copied %d, busy %d, after %d: %u texels wrong", copied, busy, after, wrong);
    if (mapped)
        ID3D12Resource_Unmap(readback, 0, NULL);
    if (upload)
        ID3D12Resource_Release(upload);
    ID3D12Resource_Release(scratch[1]);
    ID3D12Resource_Release(scratch[0]);
    ID3D12Resource_Release(readback);
    ID3D12Resource_Release(other);
    ID3D12Resource_Release(target);
}

int main(void)
{
    struct env env;

    harness_init();
    if (create_env(&env)) {
        for (int copied = 0; copied < 2; copied++)
            for (int busy = 0; busy < 2; busy++)
                for (int after = 0; after < 2; after++)
                    test_clear_between(&env, copied, busy, after);
    } else {
        CHECK_MSG(false, "cannot create the device, queue, pipeline or heaps");
    }
    destroy_env(&env);
    return harness_finish();
}
