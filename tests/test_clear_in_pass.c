/* ClearRenderTargetView and ClearDepthStencilView between draws into the same targets: where the
 * view is an attachment of the open rendering pass the clear goes inside it (vkCmdClearAttachments)
 * and the pass goes on; otherwise (another mip, a render area smaller than the view) it ends the
 * pass and renders its own, as before. Each case checks the pixels exactly and counts the Vulkan
 * rendering passes the list recorded: colour (whole view, rectangles, one partly outside the view),
 * depth then a depth test, stencil alone (depth kept) then a stencil test, a multisampled target,
 * an sRGB target (the same bytes as a clear outside a pass), another mip, a smaller depth buffer,
 * and clears under SetPredication. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "small_target.h"
#include "commands/command_list_state.h"

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12RootSignature *signature;
    ID3D12DescriptorHeap *rtv_heap, *dsv_heap;
    UINT rtv_size, dsv_size;
    ID3D12Resource *readback;
    uint8_t pixels[HEIGHT][WIDTH][4];
    bool split_lists; /* D3D12XS_SPLIT_LISTS cuts a segment (and so the pass) after every command */
};

static const float blue_f[4] = {0.0f, 0.0f, 1.0f, 1.0f}, white_f[4] = {1.0f, 1.0f, 1.0f, 1.0f}, black_f[4] = {0.0f, 0.0f, 0.0f, 1.0f};
static const uint8_t blue[4] = {0, 0, 255, 255}, white[4] = {255, 255, 255, 255}, black[4] = {0, 0, 0, 255};
static const uint8_t red[4] = {255, 0, 0, 255}, green[4] = {0, 255, 0, 255};

/* The Vulkan rendering passes the list recorded so far (an internal counter: the list object is
 * d3d12xs's struct, whose first member is the interface). */
static uint64_t passes(struct harness_list *list)
{
    return ((const struct d3d12_command_list *)(void *)list->list)->rendering_pass_count;
}

/* Pass counts hold only where lists are not cut after every command. */
#define CHECK_PASSES(env, list, expected) do { uint64_t n_ = passes(list); \
        if (!(env)->split_lists) CHECK_MSG(n_ == (uint64_t)(expected), "%llu rendering passes, expected %llu", \
                (unsigned long long)n_, (unsigned long long)(expected)); } while (0)

static D3D12_CPU_DESCRIPTOR_HANDLE rtv(struct env *env, UINT slot)
{
    D3D12_CPU_DESCRIPTOR_HANDLE handle = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(env->rtv_heap);
    handle.ptr += slot * env->rtv_size;
    return handle;
}

static D3D12_CPU_DESCRIPTOR_HANDLE dsv(struct env *env, UINT slot)
{
    D3D12_CPU_DESCRIPTOR_HANDLE handle = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(env->dsv_heap);
    handle.ptr += slot * env->dsv_size;
    return handle;
}

/* A texture of size x size with mips and samples, in `state`. */
static ID3D12Resource *texture(struct env *env, DXGI_FORMAT format, UINT size, UINT16 mips, UINT samples, D3D12_RESOURCE_FLAGS flags,
        D3D12_RESOURCE_STATES state)
{
    D3D12_HEAP_PROPERTIES heap = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    D3D12_RESOURCE_DESC desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, format, size, size, 1, mips);
    ID3D12Resource *resource = NULL;
    desc.Flags = flags;
    desc.SampleDesc.Count = samples;
    CHECK_HR(ID3D12Device_CreateCommittedResource(env->device, &heap, D3D12_HEAP_FLAG_NONE, &desc, state, NULL, &IID_ID3D12Resource,
            (void **)&resource), S_OK);
    return resource;
}

/* The colour pipeline of small_target.h for one target of rt_format and a depth-stencil format
 * (UNKNOWN: none); stencil: the test EQUAL against the reference, nothing written. */
static ID3D12PipelineState *pipeline(struct env *env, DXGI_FORMAT rt_format, UINT samples, DXGI_FORMAT dsv_format, bool stencil)
{
    ID3D10Blob *vs = harness_compile_stage(color_source, "vs", "vs_5_0"), *ps = harness_compile_stage(color_source, "ps", "ps_5_0");
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *state = NULL;

    harness_graphics_desc(&desc, env->signature, vs, ps);
    desc.InputLayout.pInputElementDescs = vertex_layout;
    desc.InputLayout.NumElements = 2;
    desc.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    desc.RTVFormats[0] = rt_format;
    desc.SampleDesc.Count = samples;
    desc.DSVFormat = dsv_format;
    desc.DepthStencilState.DepthEnable = dsv_format != DXGI_FORMAT_UNKNOWN;
    if (stencil) {
        desc.DepthStencilState.StencilEnable = TRUE;
        desc.DepthStencilState.FrontFace.StencilFunc = desc.DepthStencilState.BackFace.StencilFunc = D3D12_COMPARISON_FUNC_EQUAL;
    }
    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&state), S_OK);
    if (vs)
        ID3D10Blob_Release(vs);
    if (ps)
        ID3D10Blob_Release(ps);
    return state;
}

static void draw_state(struct env *env, struct harness_list *list, ID3D12PipelineState *state)
{
    const D3D12_VIEWPORT viewport = {0.0f, 0.0f, WIDTH, HEIGHT, 0.0f, 1.0f};
    const D3D12_RECT scissor = {0, 0, WIDTH, HEIGHT};
    ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list->list, env->signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list->list, state);
    ID3D12GraphicsCommandList2_RSSetViewports(list->list, 1, &viewport);
    ID3D12GraphicsCommandList2_RSSetScissorRects(list->list, 1, &scissor);
    ID3D12GraphicsCommandList2_IASetPrimitiveTopology(list->list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
}

/* Draws a rectangle [x0, x1) x [y0, y1) at depth z; the vertex buffer goes into *keep (released
 * by the caller after the list ran). */
static void draw_rectangle(struct env *env, struct harness_list *list, int x0, int y0, int x1, int y1, float z, const uint8_t color[4],
        ID3D12Resource **keep)
{
    D3D12_VERTEX_BUFFER_VIEW view;
    *keep = target_rectangle(env->device, x0, y0, x1, y1, z, color, &view);
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list->list, 0, 1, &view);
    ID3D12GraphicsCommandList2_DrawInstanced(list->list, 6, 1, 0, 0);
}

/* Copies mip `mip` of an RGBA8 texture (in `state`) into the readback buffer, runs the list and
 * reads the pixels (a mip of size s fills pixels[0..s)[0..s)). */
static void finish(struct env *env, struct harness_list *list, ID3D12Resource *resource, UINT mip, D3D12_RESOURCE_STATES state)
{
    D3D12_RESOURCE_DESC desc = ID3D12Resource_GetDesc(resource);
    D3D12_TEXTURE_COPY_LOCATION dst, src;
    UINT size = (UINT)(desc.Width >> mip);

    target_transition(list->list, resource, state, D3D12_RESOURCE_STATE_COPY_SOURCE);
    memset(&dst, 0, sizeof(dst));
    dst.pResource = env->readback;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    dst.PlacedFootprint.Footprint = (D3D12_SUBRESOURCE_FOOTPRINT){desc.Format, size, size, 1, ROW_PITCH};
    memset(&src, 0, sizeof(src));
    src.pResource = resource;
    src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    src.SubresourceIndex = mip;
    ID3D12GraphicsCommandList2_CopyTextureRegion(list->list, &dst, 0, 0, 0, &src, NULL);
    target_transition(list->list, resource, D3D12_RESOURCE_STATE_COPY_SOURCE, state);
    harness_execute_and_wait(env->device, env->queue, list);
    harness_release_list(list);
    memset(env->pixels, 0xcd, sizeof(env->pixels));
    target_read_pixels(env->readback, env->pixels);
}

/* Every pixel of [x0, x1) x [y0, y1) is `expected`, exactly. */
static void check_region(struct env *env, const char *what, int x0, int y0, int x1, int y1, const uint8_t expected[4])
{
    for (int y = y0; y < y1; y++) {
        for (int x = x0; x < x1; x++) {
            if (!target_pixel_is(env->pixels, x, y, expected, 0)) {
                CHECK_MSG(false, "%s: pixel (%d, %d) is %u %u %u %u, expected %u %u %u %u", what, x, y, env->pixels[y][x][0],
                        env->pixels[y][x][1], env->pixels[y][x][2], env->pixels[y][x][3], expected[0], expected[1], expected[2], expected[3]);
                return;
            }
        }
    }
    CHECK(true);
}

static void release_all(ID3D12Resource **resources, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        if (resources[i])
            ID3D12Resource_Release(resources[i]);
    }
}

/* Colour: a draw, the whole view cleared, a draw, rectangles cleared (one partly outside the
 * view, one wholly outside), a draw: one rendering pass in all. */
static void test_color(struct env *env)
{
    ID3D12Resource *target = texture(env, DXGI_FORMAT_R8G8B8A8_UNORM, WIDTH, 1, 1, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET,
            D3D12_RESOURCE_STATE_RENDER_TARGET);
    ID3D12PipelineState *state = pipeline(env, DXGI_FORMAT_R8G8B8A8_UNORM, 1, DXGI_FORMAT_UNKNOWN, false);
    const D3D12_RECT rects[3] = {{20, 20, 40, 40}, {24, 0, 28, 4}, {40, 0, 50, 10}};
    ID3D12Resource *vbs[3] = {NULL, NULL, NULL};
    D3D12_CPU_DESCRIPTOR_HANDLE view = rtv(env, 0);
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    LOG_MARK();

    ID3D12Device_CreateRenderTargetView(env->device, target, NULL, view);
    ID3D12GraphicsCommandList2_OMSetRenderTargets(list.list, 1, &view, TRUE, NULL);
    draw_state(env, &list, state);
    draw_rectangle(env, &list, 0, 0, WIDTH, HEIGHT, 0.5f, red, &vbs[0]);
    CHECK_PASSES(env, &list, 1);
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, view, blue_f, 0, NULL);
    draw_rectangle(env, &list, 0, 0, 16, 16, 0.5f, green, &vbs[1]);
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, view, white_f, 3, rects);
    draw_rectangle(env, &list, 0, 28, 4, 32, 0.5f, red, &vbs[2]);
    CHECK_PASSES(env, &list, 1);
    finish(env, &list, target, 0, D3D12_RESOURCE_STATE_RENDER_TARGET);
    CHECK_NO_LOG();
    check_region(env, "drawn after the whole clear", 0, 0, 16, 16, green);
    check_region(env, "rectangle partly outside the view", 20, 20, 32, 32, white);
    check_region(env, "second rectangle", 24, 0, 28, 4, white);
    check_region(env, "drawn after the rectangles", 0, 28, 4, 32, red);
    check_region(env, "whole clear (right of the draw)", 16, 0, 24, 20, blue);
    check_region(env, "whole clear (below the draw)", 4, 16, 20, 32, blue);
    check_region(env, "whole clear (right of the rectangle)", 28, 0, 32, 20, blue);
    release_all(vbs, 3);
    ID3D12PipelineState_Release(state);
    ID3D12Resource_Release(target);
}

/* Depth: cleared before the targets are bound (a pass of its own), then inside the pass to 0.25
 * over the left half, where a draw at 0.4 fails the LESS test and passes on the right; then the
 * whole view to 1.0, where a draw at 0.9 passes. */
static void test_depth(struct env *env)
{
    ID3D12Resource *target = texture(env, DXGI_FORMAT_R8G8B8A8_UNORM, WIDTH, 1, 1, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET,
            D3D12_RESOURCE_STATE_RENDER_TARGET);
    ID3D12Resource *depth = texture(env, DXGI_FORMAT_D32_FLOAT, WIDTH, 1, 1, D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL,
            D3D12_RESOURCE_STATE_DEPTH_WRITE);
    ID3D12PipelineState *state = pipeline(env, DXGI_FORMAT_R8G8B8A8_UNORM, 1, DXGI_FORMAT_D32_FLOAT, false);
    const D3D12_RECT left = {0, 0, 16, 32};
    ID3D12Resource *vbs[3] = {NULL, NULL, NULL};
    D3D12_CPU_DESCRIPTOR_HANDLE view = rtv(env, 0), depth_view = dsv(env, 0);
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    LOG_MARK();

    ID3D12Device_CreateRenderTargetView(env->device, target, NULL, view);
    ID3D12Device_CreateDepthStencilView(env->device, depth, NULL, depth_view);
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, view, black_f, 0, NULL);
    ID3D12GraphicsCommandList2_ClearDepthStencilView(list.list, depth_view, D3D12_CLEAR_FLAG_DEPTH, 1.0f, 0, 0, NULL);
    CHECK_PASSES(env, &list, 2);
    ID3D12GraphicsCommandList2_OMSetRenderTargets(list.list, 1, &view, TRUE, &depth_view);
    draw_state(env, &list, state);
    draw_rectangle(env, &list, 0, 0, WIDTH, HEIGHT, 0.5f, red, &vbs[0]);
    ID3D12GraphicsCommandList2_ClearDepthStencilView(list.list, depth_view, D3D12_CLEAR_FLAG_DEPTH, 0.25f, 0, 1, &left);
    draw_rectangle(env, &list, 0, 0, WIDTH, HEIGHT, 0.4f, green, &vbs[1]);
    ID3D12GraphicsCommandList2_ClearDepthStencilView(list.list, depth_view, D3D12_CLEAR_FLAG_DEPTH, 1.0f, 0, 0, NULL);
    draw_rectangle(env, &list, 0, 0, 8, 8, 0.9f, blue, &vbs[2]);
    CHECK_PASSES(env, &list, 3);
    finish(env, &list, target, 0, D3D12_RESOURCE_STATE_RENDER_TARGET);
    CHECK_NO_LOG();
    check_region(env, "drawn after the whole depth clear", 0, 0, 8, 8, blue);
    check_region(env, "cleared to 0.25: the draw at 0.4 failed", 8, 0, 16, 32, red);
    check_region(env, "cleared to 0.25 (below)", 0, 8, 8, 32, red);
    check_region(env, "kept at 0.5: the draw at 0.4 passed", 16, 0, 32, 32, green);
    release_all(vbs, 3);
    ID3D12PipelineState_Release(state);
    ID3D12Resource_Release(depth);
    ID3D12Resource_Release(target);
}

/* Stencil alone: depth 0.5 and stencil 0 cleared first; a draw that the stencil test (EQUAL 1)
 * fails everywhere opens the pass; stencil 1 cleared over the top-left quarter inside it (the
 * depth value given, 0, is not written); a draw at 0.2 passes there only. */
static void test_stencil(struct env *env)
{
    ID3D12Resource *target = texture(env, DXGI_FORMAT_R8G8B8A8_UNORM, WIDTH, 1, 1, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET,
            D3D12_RESOURCE_STATE_RENDER_TARGET);
    ID3D12Resource *depth = texture(env, DXGI_FORMAT_D32_FLOAT_S8X24_UINT, WIDTH, 1, 1, D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL,
            D3D12_RESOURCE_STATE_DEPTH_WRITE);
    ID3D12PipelineState *state = pipeline(env, DXGI_FORMAT_R8G8B8A8_UNORM, 1, DXGI_FORMAT_D32_FLOAT_S8X24_UINT, true);
    const D3D12_RECT quarter = {0, 0, 16, 16};
    ID3D12Resource *vbs[2] = {NULL, NULL};
    D3D12_CPU_DESCRIPTOR_HANDLE view = rtv(env, 0), depth_view = dsv(env, 0);
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    LOG_MARK();

    ID3D12Device_CreateRenderTargetView(env->device, target, NULL, view);
    ID3D12Device_CreateDepthStencilView(env->device, depth, NULL, depth_view);
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, view, black_f, 0, NULL);
    ID3D12GraphicsCommandList2_ClearDepthStencilView(list.list, depth_view, D3D12_CLEAR_FLAG_DEPTH | D3D12_CLEAR_FLAG_STENCIL, 0.5f, 0, 0, NULL);
    ID3D12GraphicsCommandList2_OMSetRenderTargets(list.list, 1, &view, TRUE, &depth_view);
    draw_state(env, &list, state);
    ID3D12GraphicsCommandList2_OMSetStencilRef(list.list, 1);
    draw_rectangle(env, &list, 0, 0, WIDTH, HEIGHT, 0.2f, red, &vbs[0]);
    ID3D12GraphicsCommandList2_ClearDepthStencilView(list.list, depth_view, D3D12_CLEAR_FLAG_STENCIL, 0.0f, 1, 1, &quarter);
    draw_rectangle(env, &list, 0, 0, WIDTH, HEIGHT, 0.2f, green, &vbs[1]);
    CHECK_PASSES(env, &list, 3);
    finish(env, &list, target, 0, D3D12_RESOURCE_STATE_RENDER_TARGET);
    CHECK_NO_LOG();
    check_region(env, "stencil 1, depth 0.5 kept: drawn", 0, 0, 16, 16, green);
    check_region(env, "stencil 0 (right)", 16, 0, 32, 32, black);
    check_region(env, "stencil 0 (below)", 0, 16, 16, 32, black);
    release_all(vbs, 2);
    ID3D12PipelineState_Release(state);
    ID3D12Resource_Release(depth);
    ID3D12Resource_Release(target);
}

/* A 4x target: a draw, a rectangle cleared inside the pass (every sample), a draw, then resolved. */
static void test_multisampled(struct env *env)
{
    ID3D12Resource *msaa = texture(env, DXGI_FORMAT_R8G8B8A8_UNORM, WIDTH, 1, 4, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET,
            D3D12_RESOURCE_STATE_RENDER_TARGET);
    ID3D12Resource *target = texture(env, DXGI_FORMAT_R8G8B8A8_UNORM, WIDTH, 1, 1, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET,
            D3D12_RESOURCE_STATE_RESOLVE_DEST);
    ID3D12PipelineState *state = pipeline(env, DXGI_FORMAT_R8G8B8A8_UNORM, 4, DXGI_FORMAT_UNKNOWN, false);
    const D3D12_RECT middle = {8, 8, 24, 24};
    ID3D12Resource *vbs[2] = {NULL, NULL};
    D3D12_CPU_DESCRIPTOR_HANDLE view = rtv(env, 0);
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    LOG_MARK();

    ID3D12Device_CreateRenderTargetView(env->device, msaa, NULL, view);
    ID3D12GraphicsCommandList2_OMSetRenderTargets(list.list, 1, &view, TRUE, NULL);
    draw_state(env, &list, state);
    draw_rectangle(env, &list, 0, 0, WIDTH, HEIGHT, 0.5f, red, &vbs[0]);
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, view, blue_f, 1, &middle);
    draw_rectangle(env, &list, 0, 0, 12, 12, 0.5f, green, &vbs[1]);
    CHECK_PASSES(env, &list, 1);
    target_transition(list.list, msaa, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_RESOLVE_SOURCE);
    ID3D12GraphicsCommandList2_ResolveSubresource(list.list, target, 0, msaa, 0, DXGI_FORMAT_R8G8B8A8_UNORM);
    target_transition(list.list, msaa, D3D12_RESOURCE_STATE_RESOLVE_SOURCE, D3D12_RESOURCE_STATE_RENDER_TARGET);
    finish(env, &list, target, 0, D3D12_RESOURCE_STATE_RESOLVE_DEST);
    CHECK_NO_LOG();
    /* every sample of a pixel holds one value, so the resolve gives it exactly */
    check_region(env, "drawn after the clear", 0, 0, 12, 12, green);
    check_region(env, "cleared (right of the draw)", 12, 8, 24, 24, blue);
    check_region(env, "cleared (below the draw)", 8, 12, 12, 24, blue);
    check_region(env, "first draw (right)", 24, 0, 32, 32, red);
    check_region(env, "first draw (below)", 0, 24, 24, 32, red);
    release_all(vbs, 2);
    ID3D12PipelineState_Release(state);
    ID3D12Resource_Release(target);
    ID3D12Resource_Release(msaa);
}

/* sRGB: the whole view cleared inside a pass gives the same bytes as the clear of its own pass
 * (the load op), the colour encoded as sRGB. */
static void test_srgb(struct env *env)
{
    static const float color[4] = {0.5f, 0.25f, 0.75f, 1.0f};
    static const uint8_t encoded[4] = {188, 137, 225, 255}; /* the sRGB codes nearest 0.5, 0.25, 0.75 */
    ID3D12Resource *target = texture(env, DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, WIDTH, 1, 1, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET,
            D3D12_RESOURCE_STATE_RENDER_TARGET);
    ID3D12PipelineState *state = pipeline(env, DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, 1, DXGI_FORMAT_UNKNOWN, false);
    ID3D12Resource *vb = NULL;
    D3D12_CPU_DESCRIPTOR_HANDLE view = rtv(env, 0);
    uint8_t outside[4];
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    LOG_MARK();

    ID3D12Device_CreateRenderTargetView(env->device, target, NULL, view);
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, view, color, 0, NULL);
    CHECK_PASSES(env, &list, 1);
    finish(env, &list, target, 0, D3D12_RESOURCE_STATE_RENDER_TARGET);
    memcpy(outside, env->pixels[5][5], 4);
    check_region(env, "cleared outside a pass", 0, 0, WIDTH, HEIGHT, outside);
    CHECK_MSG(target_pixel_is(env->pixels, 5, 5, encoded, 1), "sRGB clear gave %u %u %u %u", outside[0], outside[1], outside[2], outside[3]);

    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_OMSetRenderTargets(list.list, 1, &view, TRUE, NULL);
    draw_state(env, &list, state);
    draw_rectangle(env, &list, 0, 0, WIDTH, HEIGHT, 0.5f, red, &vb);
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, view, color, 0, NULL);
    CHECK_PASSES(env, &list, 1);
    finish(env, &list, target, 0, D3D12_RESOURCE_STATE_RENDER_TARGET);
    CHECK_NO_LOG();
    check_region(env, "cleared inside the pass: the same bytes", 0, 0, WIDTH, HEIGHT, outside);
    ID3D12Resource_Release(vb);
    ID3D12PipelineState_Release(state);
    ID3D12Resource_Release(target);
}

/* Mip 0 bound, mip 1 cleared: not an attachment of the pass, so the pass ends, the clear renders
 * its own, and the next draw begins a third. */
static void test_other_mip(struct env *env)
{
    ID3D12Resource *target = texture(env, DXGI_FORMAT_R8G8B8A8_UNORM, WIDTH, 2, 1, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET,
            D3D12_RESOURCE_STATE_RENDER_TARGET);
    ID3D12PipelineState *state = pipeline(env, DXGI_FORMAT_R8G8B8A8_UNORM, 1, DXGI_FORMAT_UNKNOWN, false);
    D3D12_RENDER_TARGET_VIEW_DESC desc;
    ID3D12Resource *vbs[2] = {NULL, NULL};
    D3D12_CPU_DESCRIPTOR_HANDLE mip0 = rtv(env, 0), mip1 = rtv(env, 1);
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    LOG_MARK();

    memset(&desc, 0, sizeof(desc));
    desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    desc.ViewDimension = D3D12_RTV_DIMENSION_TEXTURE2D;
    ID3D12Device_CreateRenderTargetView(env->device, target, &desc, mip0);
    desc.Texture2D.MipSlice = 1;
    ID3D12Device_CreateRenderTargetView(env->device, target, &desc, mip1);
    ID3D12GraphicsCommandList2_OMSetRenderTargets(list.list, 1, &mip0, TRUE, NULL);
    draw_state(env, &list, state);
    draw_rectangle(env, &list, 0, 0, WIDTH, HEIGHT, 0.5f, red, &vbs[0]);
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, mip1, blue_f, 0, NULL);
    CHECK_PASSES(env, &list, 2);
    draw_rectangle(env, &list, 0, 0, 8, 8, 0.5f, green, &vbs[1]);
    CHECK_PASSES(env, &list, 3);
    finish(env, &list, target, 0, D3D12_RESOURCE_STATE_RENDER_TARGET);
    check_region(env, "mip 0: the second draw", 0, 0, 8, 8, green);
    check_region(env, "mip 0: the first draw (right)", 8, 0, 32, 32, red);
    check_region(env, "mip 0: the first draw (below)", 0, 8, 8, 32, red);
    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    finish(env, &list, target, 1, D3D12_RESOURCE_STATE_RENDER_TARGET);
    CHECK_NO_LOG();
    check_region(env, "mip 1: cleared", 0, 0, 16, 16, blue);
    release_all(vbs, 2);
    ID3D12PipelineState_Release(state);
    ID3D12Resource_Release(target);
}

/* A 16 x 16 depth buffer beside the 32 x 32 target: the pass renders 16 x 16, so the target's
 * whole clear reaches past it and renders its own pass; a rectangle inside it goes in the pass. */
static void test_smaller_render_area(struct env *env)
{
    ID3D12Resource *target = texture(env, DXGI_FORMAT_R8G8B8A8_UNORM, WIDTH, 1, 1, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET,
            D3D12_RESOURCE_STATE_RENDER_TARGET);
    ID3D12Resource *depth = texture(env, DXGI_FORMAT_D32_FLOAT, 16, 1, 1, D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL,
            D3D12_RESOURCE_STATE_DEPTH_WRITE);
    ID3D12PipelineState *state = pipeline(env, DXGI_FORMAT_R8G8B8A8_UNORM, 1, DXGI_FORMAT_D32_FLOAT, false);
    const D3D12_RECT inside = {8, 8, 12, 12}, reaching = {12, 12, 20, 20};
    ID3D12Resource *vbs[2] = {NULL, NULL};
    D3D12_CPU_DESCRIPTOR_HANDLE view = rtv(env, 0), depth_view = dsv(env, 0);
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    LOG_MARK();

    ID3D12Device_CreateRenderTargetView(env->device, target, NULL, view);
    ID3D12Device_CreateDepthStencilView(env->device, depth, NULL, depth_view);
    ID3D12GraphicsCommandList2_ClearDepthStencilView(list.list, depth_view, D3D12_CLEAR_FLAG_DEPTH, 1.0f, 0, 0, NULL);
    ID3D12GraphicsCommandList2_OMSetRenderTargets(list.list, 1, &view, TRUE, &depth_view);
    draw_state(env, &list, state);
    draw_rectangle(env, &list, 0, 0, 16, 16, 0.5f, red, &vbs[0]);
    CHECK_PASSES(env, &list, 2);
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, view, blue_f, 0, NULL);
    CHECK_PASSES(env, &list, 3);
    draw_rectangle(env, &list, 0, 0, 8, 8, 0.4f, green, &vbs[1]);
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, view, white_f, 1, &inside);
    CHECK_PASSES(env, &list, 4);
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, view, black_f, 1, &reaching);
    CHECK_PASSES(env, &list, 5);
    finish(env, &list, target, 0, D3D12_RESOURCE_STATE_RENDER_TARGET);
    CHECK_NO_LOG();
    check_region(env, "drawn after the whole clear", 0, 0, 8, 8, green);
    check_region(env, "the rectangle inside the render area", 8, 8, 12, 12, white);
    check_region(env, "the rectangle reaching past it", 12, 12, 20, 20, black);
    check_region(env, "whole clear, outside the render area", 20, 0, 32, 32, blue);
    check_region(env, "whole clear, over the first draw", 8, 0, 16, 8, blue);
    release_all(vbs, 2);
    ID3D12PipelineState_Release(state);
    ID3D12Resource_Release(depth);
    ID3D12Resource_Release(target);
}

/* Under SetPredication a clear inside the pass is skipped or runs as the predicate says (its
 * vkCmdClearAttachments is under conditional rendering, as a draw's is). */
static void test_predicated(struct env *env)
{
    static const uint64_t values[2] = {0, 1};
    ID3D12Resource *target = texture(env, DXGI_FORMAT_R8G8B8A8_UNORM, WIDTH, 1, 1, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET,
            D3D12_RESOURCE_STATE_RENDER_TARGET);
    ID3D12PipelineState *state = pipeline(env, DXGI_FORMAT_R8G8B8A8_UNORM, 1, DXGI_FORMAT_UNKNOWN, false);
    ID3D12Resource *upload = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, 16, D3D12_RESOURCE_STATE_GENERIC_READ);
    ID3D12Resource *predicate = harness_create_buffer(env->device, D3D12_HEAP_TYPE_DEFAULT, 16, D3D12_RESOURCE_STATE_COPY_DEST);
    const D3D12_RECT right = {16, 0, 32, 32}, bottom_left = {0, 16, 16, 32};
    ID3D12Resource *vbs[3] = {NULL, NULL, NULL};
    D3D12_CPU_DESCRIPTOR_HANDLE view = rtv(env, 0);
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    D3D12_RESOURCE_BARRIER barrier;
    void *mapped = NULL;
    uint64_t before;
    LOG_MARK();

    CHECK_HR(ID3D12Resource_Map(upload, 0, NULL, &mapped), S_OK);
    if (mapped)
        memcpy(mapped, values, sizeof(values));
    ID3D12Resource_Unmap(upload, 0, NULL);
    ID3D12Device_CreateRenderTargetView(env->device, target, NULL, view);
    ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, predicate, 0, upload, 0, 16);
    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    barrier.Transition.pResource = predicate;
    barrier.Transition.StateBefore = D3D12_RESOURCE_STATE_COPY_DEST;
    barrier.Transition.StateAfter = D3D12_RESOURCE_STATE_PREDICATION;
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    ID3D12GraphicsCommandList2_OMSetRenderTargets(list.list, 1, &view, TRUE, NULL);
    draw_state(env, &list, state);
    draw_rectangle(env, &list, 0, 0, WIDTH, HEIGHT, 0.5f, red, &vbs[0]);
    /* the value 1 with EQUAL_ZERO: predicated commands run */
    ID3D12GraphicsCommandList2_SetPredication(list.list, predicate, 8, D3D12_PREDICATION_OP_EQUAL_ZERO);
    draw_rectangle(env, &list, 8, 8, 12, 12, 0.5f, green, &vbs[1]);
    before = passes(&list);
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, view, white_f, 1, &bottom_left);
    /* the value 0 with EQUAL_ZERO: skipped */
    ID3D12GraphicsCommandList2_SetPredication(list.list, predicate, 0, D3D12_PREDICATION_OP_EQUAL_ZERO);
    draw_rectangle(env, &list, 0, 0, 4, 4, 0.5f, blue, &vbs[2]);
    CHECK_PASSES(env, &list, before + 1);
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, view, blue_f, 1, &right);
    CHECK_PASSES(env, &list, before + 1);
    ID3D12GraphicsCommandList2_SetPredication(list.list, NULL, 0, D3D12_PREDICATION_OP_EQUAL_ZERO);
    finish(env, &list, target, 0, D3D12_RESOURCE_STATE_RENDER_TARGET);
    CHECK_NO_LOG();
    check_region(env, "the predicated draw that ran", 8, 8, 12, 12, green);
    check_region(env, "the predicated clear that ran", 0, 16, 16, 32, white);
    check_region(env, "the skipped draw", 0, 0, 4, 4, red);
    check_region(env, "the skipped clear", 16, 0, 32, 32, red);
    release_all(vbs, 3);
    ID3D12Resource_Release(predicate);
    ID3D12Resource_Release(upload);
    ID3D12PipelineState_Release(state);
    ID3D12Resource_Release(target);
}

int main(void)
{
    D3D12_DESCRIPTOR_HEAP_DESC rtv_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 4, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    D3D12_DESCRIPTOR_HEAP_DESC dsv_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_DSV, 2, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    struct env env;
    const char *split = getenv("D3D12XS_SPLIT_LISTS");

    harness_init();
    memset(&env, 0, sizeof(env));
    env.split_lists = split && *split && strcmp(split, "0");
    env.device = harness_create_device();
    env.queue = harness_create_queue(env.device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    env.signature = harness_root_signature(env.device, NULL, 0, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT);
    env.readback = harness_create_buffer(env.device, D3D12_HEAP_TYPE_READBACK, ROW_PITCH * HEIGHT, D3D12_RESOURCE_STATE_COPY_DEST);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env.device, &rtv_desc, &IID_ID3D12DescriptorHeap, (void **)&env.rtv_heap), S_OK);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env.device, &dsv_desc, &IID_ID3D12DescriptorHeap, (void **)&env.dsv_heap), S_OK);
    env.rtv_size = ID3D12Device_GetDescriptorHandleIncrementSize(env.device, D3D12_DESCRIPTOR_HEAP_TYPE_RTV);
    env.dsv_size = ID3D12Device_GetDescriptorHandleIncrementSize(env.device, D3D12_DESCRIPTOR_HEAP_TYPE_DSV);

    test_color(&env);
    test_depth(&env);
    test_stencil(&env);
    test_multisampled(&env);
    test_srgb(&env);
    test_other_mip(&env);
    test_smaller_render_area(&env);
    test_predicated(&env);

    ID3D12DescriptorHeap_Release(env.dsv_heap);
    ID3D12DescriptorHeap_Release(env.rtv_heap);
    ID3D12Resource_Release(env.readback);
    ID3D12RootSignature_Release(env.signature);
    ID3D12CommandQueue_Release(env.queue);
    harness_release_device(env.device);
    return harness_finish();
}
