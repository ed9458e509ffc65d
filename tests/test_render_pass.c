/* D3D12 render passes (BeginRenderPass, EndRenderPass): every beginning access (CLEAR with its
 * value, PRESERVE, DISCARD, NO_ACCESS) and ending access (PRESERVE, RESOLVE of a 4x target into
 * a single-sampled one), depth clears the draws test against, a pass suspended in one list and
 * resumed in the next of one ExecuteCommandLists (the resuming pass does not clear again), a pass
 * whose Vulkan pass ends early (a barrier, a query, a marker) and goes on loading, and
 * the recording errors D3D12 reports at Close: nesting, EndRenderPass without a pass, Close
 * inside one, the calls D3D12 disallows inside a pass, non-DIRECT lists, bad access types, and
 * bundles. Pixels are read back and checked. */
#include <stdio.h>
#include <string.h>

#include "small_target.h"

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12RootSignature *signature;
    ID3D12PipelineState *pipeline, *pipeline_msaa;
    ID3D12Resource *target, *depth, *msaa, *readback;
    ID3D12DescriptorHeap *rtv_heap, *dsv_heap;
    D3D12_CPU_DESCRIPTOR_HANDLE rtv, msaa_rtv, dsv;
    uint8_t pixels[HEIGHT][WIDTH][4];
};

static ID3D12GraphicsCommandList4 *list4(struct harness_list *list)
{
    return (ID3D12GraphicsCommandList4 *)list->list;
}

static ID3D12PipelineState *pipeline(struct env *env, UINT samples)
{
    ID3D10Blob *vs = harness_compile_stage(color_source, "vs", "vs_5_0"), *ps = harness_compile_stage(color_source, "ps", "ps_5_0");
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *state = NULL;

    harness_graphics_desc(&desc, env->signature, vs, ps);
    desc.InputLayout.pInputElementDescs = vertex_layout;
    desc.InputLayout.NumElements = 2;
    desc.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    desc.SampleDesc.Count = samples;
    if (samples == 1)
        desc.DSVFormat = DXGI_FORMAT_D32_FLOAT;
    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&state), S_OK);
    if (vs)
        ID3D10Blob_Release(vs);
    if (ps)
        ID3D10Blob_Release(ps);
    return state;
}

static void setup(struct env *env)
{
    D3D12_DESCRIPTOR_HEAP_DESC rtv_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 2, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    D3D12_DESCRIPTOR_HEAP_DESC dsv_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_DSV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};

    env->device = harness_create_device();
    env->queue = harness_create_queue(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    env->signature = harness_root_signature(env->device, NULL, 0, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT);
    env->pipeline = pipeline(env, 1);
    env->pipeline_msaa = pipeline(env, 4);
    env->target = target_texture(env->device, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET, D3D12_RESOURCE_STATE_RENDER_TARGET);
    env->msaa = target_texture(env->device, 4, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET, D3D12_RESOURCE_STATE_RENDER_TARGET);
    env->depth = target_texture(env->device, 1, DXGI_FORMAT_D32_FLOAT, D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL, D3D12_RESOURCE_STATE_DEPTH_WRITE);
    env->readback = harness_create_buffer(env->device, D3D12_HEAP_TYPE_READBACK, ROW_PITCH * HEIGHT, D3D12_RESOURCE_STATE_COPY_DEST);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &rtv_desc, &IID_ID3D12DescriptorHeap, (void **)&env->rtv_heap), S_OK);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &dsv_desc, &IID_ID3D12DescriptorHeap, (void **)&env->dsv_heap), S_OK);
    env->rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(env->rtv_heap);
    env->msaa_rtv.ptr = env->rtv.ptr + ID3D12Device_GetDescriptorHandleIncrementSize(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_RTV);
    env->dsv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(env->dsv_heap);
    ID3D12Device_CreateRenderTargetView(env->device, env->target, NULL, env->rtv);
    ID3D12Device_CreateRenderTargetView(env->device, env->msaa, NULL, env->msaa_rtv);
    ID3D12Device_CreateDepthStencilView(env->device, env->depth, NULL, env->dsv);
}

static void teardown(struct env *env)
{
    ID3D12DescriptorHeap_Release(env->rtv_heap);
    ID3D12DescriptorHeap_Release(env->dsv_heap);
    ID3D12Resource_Release(env->readback);
    ID3D12Resource_Release(env->depth);
    ID3D12Resource_Release(env->msaa);
    ID3D12Resource_Release(env->target);
    ID3D12PipelineState_Release(env->pipeline_msaa);
    ID3D12PipelineState_Release(env->pipeline);
    ID3D12RootSignature_Release(env->signature);
    ID3D12CommandQueue_Release(env->queue);
    harness_release_device(env->device);
}

/* The draw state of a pass's draws (targets come from BeginRenderPass). */
static void draw_state(struct env *env, struct harness_list *list, ID3D12PipelineState *state, const D3D12_VERTEX_BUFFER_VIEW *view)
{
    const D3D12_VIEWPORT viewport = {0.0f, 0.0f, WIDTH, HEIGHT, 0.0f, 1.0f};
    const D3D12_RECT scissor = {0, 0, WIDTH, HEIGHT};
    ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list->list, env->signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list->list, state);
    ID3D12GraphicsCommandList2_RSSetViewports(list->list, 1, &viewport);
    ID3D12GraphicsCommandList2_RSSetScissorRects(list->list, 1, &scissor);
    ID3D12GraphicsCommandList2_IASetPrimitiveTopology(list->list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list->list, 0, 1, view);
}

static D3D12_RENDER_PASS_RENDER_TARGET_DESC rt_desc(D3D12_CPU_DESCRIPTOR_HANDLE rtv, D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE beginning,
        const float clear[4], D3D12_RENDER_PASS_ENDING_ACCESS_TYPE ending)
{
    D3D12_RENDER_PASS_RENDER_TARGET_DESC desc;
    memset(&desc, 0, sizeof(desc));
    desc.cpuDescriptor = rtv;
    desc.BeginningAccess.Type = beginning;
    desc.BeginningAccess.Clear.ClearValue.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    if (clear)
        memcpy(desc.BeginningAccess.Clear.ClearValue.Color, clear, 4 * sizeof(float));
    desc.EndingAccess.Type = ending;
    return desc;
}

static const float blue_f[4] = {0.0f, 0.0f, 1.0f, 1.0f}, green_f[4] = {0.0f, 1.0f, 0.0f, 1.0f}, red_f[4] = {1.0f, 0.0f, 0.0f, 1.0f};
static const uint8_t blue[4] = {0, 0, 255, 255}, green[4] = {0, 255, 0, 255}, red[4] = {255, 0, 0, 255}, white[4] = {255, 255, 255, 255};

/* CLEAR happens without any draw; CLEAR then a draw draws over it; PRESERVE keeps what an
 * earlier clear left (around a draw); DISCARD under a draw that covers everything. */
static void test_beginning_accesses(struct env *env)
{
    D3D12_VERTEX_BUFFER_VIEW view;
    ID3D12Resource *vb = target_rectangle(env->device, 8, 8, 16, 24, 0.5f, white, &view);
    D3D12_RENDER_PASS_RENDER_TARGET_DESC rt;
    struct harness_list list;
    LOG_MARK();

    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    rt = rt_desc(env->rtv, D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE_CLEAR, blue_f, D3D12_RENDER_PASS_ENDING_ACCESS_TYPE_PRESERVE);
    ID3D12GraphicsCommandList4_BeginRenderPass(list4(&list), 1, &rt, NULL, D3D12_RENDER_PASS_FLAG_NONE);
    ID3D12GraphicsCommandList4_EndRenderPass(list4(&list));
    target_copy_out(env->readback, &list, env->target, D3D12_RESOURCE_STATE_RENDER_TARGET);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    target_read_pixels(env->readback, env->pixels);
    CHECK_PIXEL(env, 0, 0, blue, 0);
    CHECK_PIXEL(env, 31, 31, blue, 0);

    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    rt = rt_desc(env->rtv, D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE_CLEAR, green_f, D3D12_RENDER_PASS_ENDING_ACCESS_TYPE_PRESERVE);
    ID3D12GraphicsCommandList4_BeginRenderPass(list4(&list), 1, &rt, NULL, D3D12_RENDER_PASS_FLAG_NONE);
    draw_state(env, &list, env->pipeline, &view);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0);
    ID3D12GraphicsCommandList4_EndRenderPass(list4(&list));
    target_copy_out(env->readback, &list, env->target, D3D12_RESOURCE_STATE_RENDER_TARGET);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    target_read_pixels(env->readback, env->pixels);
    CHECK_PIXEL(env, 10, 10, white, 0);
    CHECK_PIXEL(env, 15, 23, white, 0);
    CHECK_PIXEL(env, 20, 10, green, 0);
    CHECK_PIXEL(env, 10, 28, green, 0);

    /* PRESERVE: the clear of an earlier ClearRenderTargetView shows around the draw. */
    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, env->rtv, red_f, 0, NULL);
    rt = rt_desc(env->rtv, D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE_PRESERVE, NULL, D3D12_RENDER_PASS_ENDING_ACCESS_TYPE_PRESERVE);
    ID3D12GraphicsCommandList4_BeginRenderPass(list4(&list), 1, &rt, NULL, D3D12_RENDER_PASS_FLAG_NONE);
    draw_state(env, &list, env->pipeline, &view);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0);
    ID3D12GraphicsCommandList4_EndRenderPass(list4(&list));
    target_copy_out(env->readback, &list, env->target, D3D12_RESOURCE_STATE_RENDER_TARGET);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    target_read_pixels(env->readback, env->pixels);
    CHECK_PIXEL(env, 10, 10, white, 0);
    CHECK_PIXEL(env, 20, 10, red, 0);
    CHECK_PIXEL(env, 31, 31, red, 0);
    ID3D12Resource_Release(vb);

    /* DISCARD, and a draw over every pixel: what the draw wrote is there. NO_ACCESS on the
     * depth-stencil view's planes leaves it out. */
    vb = target_rectangle(env->device, 0, 0, WIDTH, HEIGHT, 0.5f, green, &view);
    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    rt = rt_desc(env->rtv, D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE_DISCARD, NULL, D3D12_RENDER_PASS_ENDING_ACCESS_TYPE_PRESERVE);
    ID3D12GraphicsCommandList4_BeginRenderPass(list4(&list), 1, &rt, NULL, D3D12_RENDER_PASS_FLAG_ALLOW_UAV_WRITES);
    draw_state(env, &list, env->pipeline, &view);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0);
    ID3D12GraphicsCommandList4_EndRenderPass(list4(&list));
    target_copy_out(env->readback, &list, env->target, D3D12_RESOURCE_STATE_RENDER_TARGET);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    target_read_pixels(env->readback, env->pixels);
    CHECK_PIXEL(env, 0, 0, green, 0);
    CHECK_PIXEL(env, 31, 31, green, 0);
    ID3D12Resource_Release(vb);
    CHECK_NO_LOG();
}

/* The depth plane's CLEAR value is what draws test against: cleared to 0.25, a rectangle at
 * 0.5 (LESS) is hidden; cleared to 1.0, it shows. */
static void test_depth_clear(struct env *env)
{
    static const float depths[2] = {0.25f, 1.0f};
    D3D12_VERTEX_BUFFER_VIEW view;
    ID3D12Resource *vb = target_rectangle(env->device, 8, 8, 24, 24, 0.5f, white, &view);
    LOG_MARK();

    for (int i = 0; i < 2; i++) {
        struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        D3D12_RENDER_PASS_RENDER_TARGET_DESC rt = rt_desc(env->rtv, D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE_CLEAR, blue_f,
                D3D12_RENDER_PASS_ENDING_ACCESS_TYPE_PRESERVE);
        D3D12_RENDER_PASS_DEPTH_STENCIL_DESC ds;
        memset(&ds, 0, sizeof(ds));
        ds.cpuDescriptor = env->dsv;
        ds.DepthBeginningAccess.Type = D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE_CLEAR;
        ds.DepthBeginningAccess.Clear.ClearValue.Format = DXGI_FORMAT_D32_FLOAT;
        ds.DepthBeginningAccess.Clear.ClearValue.DepthStencil.Depth = depths[i];
        ds.DepthEndingAccess.Type = D3D12_RENDER_PASS_ENDING_ACCESS_TYPE_DISCARD;
        ds.StencilBeginningAccess.Type = D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE_NO_ACCESS;
        ds.StencilEndingAccess.Type = D3D12_RENDER_PASS_ENDING_ACCESS_TYPE_NO_ACCESS;
        ID3D12GraphicsCommandList4_BeginRenderPass(list4(&list), 1, &rt, &ds, D3D12_RENDER_PASS_FLAG_NONE);
        draw_state(env, &list, env->pipeline, &view);
        ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0);
        ID3D12GraphicsCommandList4_EndRenderPass(list4(&list));
        target_copy_out(env->readback, &list, env->target, D3D12_RESOURCE_STATE_RENDER_TARGET);
        harness_execute_and_wait(env->device, env->queue, &list);
        harness_release_list(&list);
        target_read_pixels(env->readback, env->pixels);
        CHECK_PIXEL(env, 16, 16, i ? white : blue, 0);
        CHECK_PIXEL(env, 2, 2, blue, 0);
    }
    ID3D12Resource_Release(vb);
    CHECK_NO_LOG();
}

/* ENDING_ACCESS_RESOLVE: a 4x target cleared and drawn into, resolved at EndRenderPass into the
 * single-sampled target (in RESOLVE_DEST); a sub-rectangle resolved to an offset. Inside the
 * rectangle every sample is white, outside every one is blue. By AVERAGE (vkCmdResolveImage) and
 * by MAX (d3d12xs's resolve pass). */
static void test_ending_resolve(struct env *env, D3D12_RESOLVE_MODE mode)
{
    D3D12_VERTEX_BUFFER_VIEW view;
    ID3D12Resource *vb = target_rectangle(env->device, 8, 8, 16, 16, 0.5f, white, &view);
    D3D12_RENDER_PASS_ENDING_ACCESS_RESOLVE_SUBRESOURCE_PARAMETERS subresource = {0, 0, 16, 0, {8, 8, 16, 16}};
    D3D12_RENDER_PASS_RENDER_TARGET_DESC rt = rt_desc(env->msaa_rtv, D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE_CLEAR, blue_f,
            D3D12_RENDER_PASS_ENDING_ACCESS_TYPE_RESOLVE);
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    LOG_MARK();

    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, env->rtv, red_f, 0, NULL);
    target_transition(list.list, env->target, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_RESOLVE_DEST);
    rt.EndingAccess.Resolve.pSrcResource = env->msaa;
    rt.EndingAccess.Resolve.pDstResource = env->target;
    rt.EndingAccess.Resolve.SubresourceCount = 1;
    rt.EndingAccess.Resolve.pSubresourceParameters = &subresource;
    rt.EndingAccess.Resolve.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    rt.EndingAccess.Resolve.ResolveMode = mode;
    ID3D12GraphicsCommandList4_BeginRenderPass(list4(&list), 1, &rt, NULL, D3D12_RENDER_PASS_FLAG_NONE);
    draw_state(env, &list, env->pipeline_msaa, &view);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0);
    ID3D12GraphicsCommandList4_EndRenderPass(list4(&list));
    target_copy_out(env->readback, &list, env->target, D3D12_RESOURCE_STATE_RESOLVE_DEST);
    target_transition(list.list, env->target, D3D12_RESOURCE_STATE_RESOLVE_DEST, D3D12_RESOURCE_STATE_RENDER_TARGET);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    target_read_pixels(env->readback, env->pixels);
    /* source (8..16, 8..16) lands at (16..24, 0..8): white where the rectangle was */
    CHECK_PIXEL(env, 16, 0, white, 0);
    CHECK_PIXEL(env, 23, 7, white, 0);
    /* the rest of the destination keeps its red */
    CHECK_PIXEL(env, 8, 8, red, 0);
    CHECK_PIXEL(env, 24, 0, red, 0);
    CHECK_PIXEL(env, 16, 8, red, 0);
    ID3D12Resource_Release(vb);
    CHECK_NO_LOG();
}

/* A pass suspended at the end of one list and resumed in the next list of the same
 * ExecuteCommandLists: the resuming pass's CLEAR does not clear again, and the resolve is the
 * final EndRenderPass's. */
static void test_suspend_resume(struct env *env)
{
    D3D12_VERTEX_BUFFER_VIEW left_view, right_view;
    ID3D12Resource *left = target_rectangle(env->device, 0, 0, 8, 32, 0.5f, white, &left_view);
    ID3D12Resource *right = target_rectangle(env->device, 24, 0, 32, 32, 0.5f, green, &right_view);
    D3D12_RENDER_PASS_RENDER_TARGET_DESC first = rt_desc(env->rtv, D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE_CLEAR, blue_f,
            D3D12_RENDER_PASS_ENDING_ACCESS_TYPE_PRESERVE);
    D3D12_RENDER_PASS_RENDER_TARGET_DESC second = rt_desc(env->rtv, D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE_CLEAR, red_f,
            D3D12_RENDER_PASS_ENDING_ACCESS_TYPE_PRESERVE);
    struct harness_list a = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    struct harness_list b = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12CommandList *lists[2] = {(ID3D12CommandList *)a.list, (ID3D12CommandList *)b.list};
    struct harness_list copy;
    size_t warnings;
    LOG_MARK();

    ID3D12GraphicsCommandList4_BeginRenderPass(list4(&a), 1, &first, NULL, D3D12_RENDER_PASS_FLAG_SUSPENDING_PASS);
    draw_state(env, &a, env->pipeline, &left_view);
    ID3D12GraphicsCommandList2_DrawInstanced(a.list, 6, 1, 0, 0);
    ID3D12GraphicsCommandList4_EndRenderPass(list4(&a));
    CHECK_HR(ID3D12GraphicsCommandList2_Close(a.list), S_OK);
    ID3D12GraphicsCommandList4_BeginRenderPass(list4(&b), 1, &second, NULL, D3D12_RENDER_PASS_FLAG_RESUMING_PASS);
    draw_state(env, &b, env->pipeline, &right_view);
    ID3D12GraphicsCommandList2_DrawInstanced(b.list, 6, 1, 0, 0);
    ID3D12GraphicsCommandList4_EndRenderPass(list4(&b));
    CHECK_HR(ID3D12GraphicsCommandList2_Close(b.list), S_OK);
    warnings = harness_warning_count();
    ID3D12CommandQueue_ExecuteCommandLists(env->queue, 2, lists);
    CHECK_DEBUG_WARNINGS(warnings, 0, "");

    copy = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    target_copy_out(env->readback, &copy, env->target, D3D12_RESOURCE_STATE_RENDER_TARGET);
    harness_execute_and_wait(env->device, env->queue, &copy);
    harness_release_list(&copy);
    target_read_pixels(env->readback, env->pixels);
    CHECK_PIXEL(env, 2, 16, white, 0);
    CHECK_PIXEL(env, 28, 16, green, 0);
    CHECK_PIXEL(env, 16, 16, blue, 0); /* the first pass's clear, not the resuming one's red */

    /* the suspending list alone: its pass is never resumed (the debug layer's warning; it runs) */
    {
        ID3D12Fence *fence = harness_create_fence(env->device, 0);
        warnings = harness_warning_count();
        ID3D12CommandQueue_ExecuteCommandLists(env->queue, 1, lists);
        CHECK_DEBUG_WARNINGS(warnings, 1, "suspended render pass that no list after it");
        warnings = harness_warning_count();
        ID3D12CommandQueue_ExecuteCommandLists(env->queue, 1, &lists[1]);
        CHECK_DEBUG_WARNINGS(warnings, 1, "no list before it in this call suspended one");
        CHECK_HR(ID3D12CommandQueue_Signal(env->queue, fence, 1), S_OK);
        CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 1, NULL), S_OK);
        ID3D12Fence_Release(fence);
    }
    harness_release_list(&a);
    harness_release_list(&b);
    ID3D12Resource_Release(left);
    ID3D12Resource_Release(right);
    CHECK_NO_LOG();
}

/* A pass whose Vulkan pass ends early (a barrier, an occlusion query around a draw, a PIX event)
 * goes on by loading: the beginning CLEAR stays under the draws after them, and the query counts
 * its draw's 128 samples. */
static void test_pass_interrupted(struct env *env)
{
    D3D12_QUERY_HEAP_DESC heap_desc = {D3D12_QUERY_HEAP_TYPE_OCCLUSION, 1, 0};
    D3D12_VERTEX_BUFFER_VIEW left_view, right_view;
    ID3D12Resource *left = target_rectangle(env->device, 0, 0, 8, 16, 0.5f, white, &left_view);
    ID3D12Resource *right = target_rectangle(env->device, 24, 16, 32, 32, 0.5f, red, &right_view);
    ID3D12Resource *results = harness_create_buffer(env->device, D3D12_HEAP_TYPE_DEFAULT, 8, D3D12_RESOURCE_STATE_COPY_DEST);
    D3D12_RENDER_PASS_RENDER_TARGET_DESC rt = rt_desc(env->rtv, D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE_CLEAR, green_f,
            D3D12_RENDER_PASS_ENDING_ACCESS_TYPE_PRESERVE);
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12QueryHeap *heap = NULL;
    uint64_t count = 0;
    LOG_MARK();

    CHECK_HR(ID3D12Device_CreateQueryHeap(env->device, &heap_desc, &IID_ID3D12QueryHeap, (void **)&heap), S_OK);
    ID3D12GraphicsCommandList4_BeginRenderPass(list4(&list), 1, &rt, NULL, D3D12_RENDER_PASS_FLAG_NONE);
    target_transition(list.list, env->depth, D3D12_RESOURCE_STATE_DEPTH_WRITE, D3D12_RESOURCE_STATE_DEPTH_READ);
    draw_state(env, &list, env->pipeline, &left_view);
    ID3D12GraphicsCommandList2_BeginQuery(list.list, heap, D3D12_QUERY_TYPE_OCCLUSION, 0);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0);
    ID3D12GraphicsCommandList2_EndQuery(list.list, heap, D3D12_QUERY_TYPE_OCCLUSION, 0);
    ID3D12GraphicsCommandList2_SetMarker(list.list, 0, "marker", 7);
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 1, &right_view);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0);
    target_transition(list.list, env->depth, D3D12_RESOURCE_STATE_DEPTH_READ, D3D12_RESOURCE_STATE_DEPTH_WRITE);
    ID3D12GraphicsCommandList4_EndRenderPass(list4(&list));
    ID3D12GraphicsCommandList2_ResolveQueryData(list.list, heap, D3D12_QUERY_TYPE_OCCLUSION, 0, 1, results, 0);
    target_copy_out(env->readback, &list, env->target, D3D12_RESOURCE_STATE_RENDER_TARGET);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    target_read_pixels(env->readback, env->pixels);
    harness_read_back(env->device, env->queue, results, &count, sizeof(count));
    CHECK_PIXEL(env, 4, 8, white, 0);
    CHECK_PIXEL(env, 28, 28, red, 0);
    CHECK_PIXEL(env, 16, 16, green, 0);
    CHECK_PIXEL(env, 4, 28, green, 0);
    CHECK_MSG(count == 128, "the query in the pass counted %llu samples (128 expected)", (unsigned long long)count);
    CHECK_NO_LOG();
    ID3D12QueryHeap_Release(heap);
    ID3D12Resource_Release(results);
    ID3D12Resource_Release(left);
    ID3D12Resource_Release(right);
}

/* One list that records `call` inside a render pass: the call's line names it, Close fails with
 * E_INVALIDARG. */
static void check_refused_in_pass(struct env *env, void (*call)(struct env *env, struct harness_list *list), const char *method)
{
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    D3D12_RENDER_PASS_RENDER_TARGET_DESC rt = rt_desc(env->rtv, D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE_PRESERVE, NULL,
            D3D12_RENDER_PASS_ENDING_ACCESS_TYPE_PRESERVE);
    LOG_MARK();

    ID3D12GraphicsCommandList4_BeginRenderPass(list4(&list), 1, &rt, NULL, D3D12_RENDER_PASS_FLAG_NONE);
    call(env, &list);
    CHECK_LOG(method, "not allowed inside a render pass");
    ID3D12GraphicsCommandList4_EndRenderPass(list4(&list));
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
    CHECK_LOG("Close", method);
    harness_release_list(&list);
}

static void call_copy(struct env *env, struct harness_list *list)
{
    ID3D12GraphicsCommandList2_CopyBufferRegion(list->list, env->readback, 0, env->readback, 1024, 16);
}

static void call_om_set_render_targets(struct env *env, struct harness_list *list)
{
    ID3D12GraphicsCommandList2_OMSetRenderTargets(list->list, 1, &env->rtv, TRUE, NULL);
}

static void call_clear(struct env *env, struct harness_list *list)
{
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list->list, env->rtv, red_f, 0, NULL);
}

static void call_dispatch(struct env *env, struct harness_list *list)
{
    (void)env;
    ID3D12GraphicsCommandList2_Dispatch(list->list, 1, 1, 1);
}

static void call_begin(struct env *env, struct harness_list *list)
{
    D3D12_RENDER_PASS_RENDER_TARGET_DESC rt = rt_desc(env->rtv, D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE_PRESERVE, NULL,
            D3D12_RENDER_PASS_ENDING_ACCESS_TYPE_PRESERVE);
    ID3D12GraphicsCommandList4_BeginRenderPass(list4(list), 1, &rt, NULL, D3D12_RENDER_PASS_FLAG_NONE);
}

static void test_errors(struct env *env)
{
    D3D12_RENDER_PASS_RENDER_TARGET_DESC rt = rt_desc(env->rtv, D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE_PRESERVE, NULL,
            D3D12_RENDER_PASS_ENDING_ACCESS_TYPE_PRESERVE);
    struct harness_list list;
    LOG_MARK();

    check_refused_in_pass(env, call_copy, "CopyBufferRegion");
    check_refused_in_pass(env, call_om_set_render_targets, "OMSetRenderTargets");
    check_refused_in_pass(env, call_clear, "ClearRenderTargetView");
    check_refused_in_pass(env, call_dispatch, "Dispatch");
    {
        /* nesting: its own message */
        list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        ID3D12GraphicsCommandList4_BeginRenderPass(list4(&list), 1, &rt, NULL, D3D12_RENDER_PASS_FLAG_NONE);
        RELOG_MARK();
        call_begin(env, &list);
        CHECK_LOG("BeginRenderPass", "do not nest");
        ID3D12GraphicsCommandList4_EndRenderPass(list4(&list));
        RELOG_MARK();
        CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
        CHECK_LOG("Close", "do not nest");
        harness_release_list(&list);
    }

    /* Barriers are allowed inside a pass; the ones D3D12's render passes call non-conformant (a
     * UAV barrier, a bound target leaving RENDER_TARGET) are a debug-layer warning each. */
    {
        D3D12_RESOURCE_BARRIER uav;
        size_t warnings = harness_warning_count();
        memset(&uav, 0, sizeof(uav));
        uav.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
        list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        ID3D12GraphicsCommandList4_BeginRenderPass(list4(&list), 1, &rt, NULL, D3D12_RENDER_PASS_FLAG_NONE);
        target_transition(list.list, env->depth, D3D12_RESOURCE_STATE_DEPTH_WRITE, D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE);
        target_transition(list.list, env->depth, D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE, D3D12_RESOURCE_STATE_DEPTH_WRITE);
        CHECK_DEBUG_WARNINGS(warnings, 0, "");
        ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &uav);
        CHECK_DEBUG_WARNINGS(warnings, 1, "a UAV barrier inside a render pass");
        warnings = harness_warning_count();
        target_transition(list.list, env->target, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE);
        CHECK_DEBUG_WARNINGS(warnings, 1, "a target of the open render pass");
        target_transition(list.list, env->target, D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE, D3D12_RESOURCE_STATE_RENDER_TARGET);
        ID3D12GraphicsCommandList4_EndRenderPass(list4(&list));
        RELOG_MARK();
        CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), S_OK);
        CHECK_NO_LOG();
        harness_release_list(&list);
    }

    /* EndRenderPass without a pass */
    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    RELOG_MARK();
    ID3D12GraphicsCommandList4_EndRenderPass(list4(&list));
    CHECK_LOG("EndRenderPass", "no render pass is open");
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
    CHECK_LOG("Close", "no render pass is open");
    harness_release_list(&list);

    /* Close inside a pass: Close's one line says so */
    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList4_BeginRenderPass(list4(&list), 1, &rt, NULL, D3D12_RENDER_PASS_FLAG_NONE);
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
    CHECK_LOG("Close", "render pass is still open");
    harness_release_list(&list);

    /* a COMPUTE list */
    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    RELOG_MARK();
    ID3D12GraphicsCommandList4_BeginRenderPass(list4(&list), 1, &rt, NULL, D3D12_RENDER_PASS_FLAG_NONE);
    CHECK_LOG("BeginRenderPass", "only DIRECT lists");
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
    CHECK_LOG("Close", "only DIRECT lists");
    harness_release_list(&list);

    /* a bad access type, and NO_ACCESS paired with PRESERVE */
    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    rt.BeginningAccess.Type = (D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE)42;
    RELOG_MARK();
    ID3D12GraphicsCommandList4_BeginRenderPass(list4(&list), 1, &rt, NULL, D3D12_RENDER_PASS_FLAG_NONE);
    CHECK_LOG("BeginRenderPass", "pRenderTargets[0]", "not an access type");
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
    CHECK_LOG("Close");
    harness_release_list(&list);
    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    rt.BeginningAccess.Type = D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE_NO_ACCESS;
    RELOG_MARK();
    ID3D12GraphicsCommandList4_BeginRenderPass(list4(&list), 1, &rt, NULL, D3D12_RENDER_PASS_FLAG_NONE);
    CHECK_LOG("BeginRenderPass", "NO_ACCESS");
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
    CHECK_LOG("Close");
    harness_release_list(&list);

    /* bundles refuse render passes */
    {
        ID3D12CommandAllocator *allocator;
        ID3D12GraphicsCommandList4 *bundle;
        rt.BeginningAccess.Type = D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE_PRESERVE;
        CHECK_HR(ID3D12Device_CreateCommandAllocator(env->device, D3D12_COMMAND_LIST_TYPE_BUNDLE, &IID_ID3D12CommandAllocator,
                (void **)&allocator), S_OK);
        CHECK_HR(ID3D12Device_CreateCommandList(env->device, 0, D3D12_COMMAND_LIST_TYPE_BUNDLE, allocator, NULL,
                &IID_ID3D12GraphicsCommandList4, (void **)&bundle), S_OK);
        RELOG_MARK();
        ID3D12GraphicsCommandList4_BeginRenderPass(bundle, 1, &rt, NULL, D3D12_RENDER_PASS_FLAG_NONE);
        CHECK_LOG("BeginRenderPass", "bundle");
        RELOG_MARK();
        CHECK_HR(ID3D12GraphicsCommandList4_Close(bundle), E_INVALIDARG);
        CHECK_LOG("Close", "BeginRenderPass");
        ID3D12GraphicsCommandList4_Release(bundle);
        ID3D12CommandAllocator_Release(allocator);
    }
}

int main(void)
{
    struct env env;

    harness_init();
    memset(&env, 0, sizeof(env));
    setup(&env);
    test_beginning_accesses(&env);
    test_depth_clear(&env);
    test_ending_resolve(&env, D3D12_RESOLVE_MODE_AVERAGE);
    test_ending_resolve(&env, D3D12_RESOLVE_MODE_MAX);
    test_suspend_resume(&env);
    test_pass_interrupted(&env);
    test_errors(&env);
    teardown(&env);
    return harness_finish();
}
