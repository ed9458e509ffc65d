/* ResolveSubresource and ResolveSubresourceRegion: a triangle drawn into a 4x MSAA render target
 * and resolved (AVERAGE) into a single-sampled texture: pixels wholly inside are the triangle's
 * colour, wholly outside the clear colour, and pixels its edges cross take averages of their
 * samples (values between the two); a region resolved to an offset; colour MIN and MAX (d3d12xs's
 * own resolve pass) of known per-sample values (a pixel shader returning a value of
 * SV_SampleIndex) in formats of each texel layout, into a texture that is no render target, a
 * region moved; a 4x depth buffer resolved by AVERAGE and by MIN; known per-sample depth and
 * stencil values (D32, D24S8, and a depth image of R32_TYPELESS into an R32_FLOAT texture)
 * resolved by MIN, MAX and AVERAGE through the pass into textures that are no depth-stencil
 * targets, regions moved; DECOMPRESS in place; and the refusals: Windows'
 * E_INVALIDARG for a single-sampled source, an integer format's AVERAGE, sizes that differ, a call
 * inside a render pass (resolves between members of a typeless family: test_resolve_typeless);
 * E_NOTIMPL for sampler feedback, which d3d12xs lacks, and for a depth
 * resolve neither Vulkan's resolve nor the pass can do (a source denying shader resources). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resolve_cases.h"

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

static const uint8_t white[4] = {255, 255, 255, 255}, black[4] = {0, 0, 0, 255}, red[4] = {255, 0, 0, 255};
static const float black_f[4] = {0.0f, 0.0f, 0.0f, 1.0f}, red_f[4] = {1.0f, 0.0f, 0.0f, 1.0f};

/* A triangle (x0, y0), (x1, y1), (x2, y2) in pixels, white. */
static ID3D12Resource *triangle(struct env *env, const float corners[3][2], D3D12_VERTEX_BUFFER_VIEW *view)
{
    ID3D12Resource *buffer = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, 3 * sizeof(struct vertex), D3D12_RESOURCE_STATE_GENERIC_READ);
    struct vertex *v = NULL;

    CHECK_HR(ID3D12Resource_Map(buffer, 0, NULL, (void **)&v), S_OK);
    for (int i = 0; v && i < 3; i++)
        v[i] = (struct vertex){2.0f * corners[i][0] / WIDTH - 1.0f, 1.0f - 2.0f * corners[i][1] / HEIGHT, 0.5f, {255, 255, 255, 255}};
    ID3D12Resource_Unmap(buffer, 0, NULL);
    *view = (D3D12_VERTEX_BUFFER_VIEW){ID3D12Resource_GetGPUVirtualAddress(buffer), 3 * sizeof(struct vertex), sizeof(struct vertex)};
    return buffer;
}

/* Draws the triangle into the 4x target (cleared black) and leaves it in RESOLVE_SOURCE, the
 * single-sampled target cleared red and in RESOLVE_DEST. */
static struct harness_list draw_msaa(struct env *env, const D3D12_VERTEX_BUFFER_VIEW *view)
{
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, env->msaa_rtv, black_f, 0, NULL);
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, env->rtv, red_f, 0, NULL);
    ID3D12GraphicsCommandList2_OMSetRenderTargets(list.list, 1, &env->msaa_rtv, TRUE, NULL);
    draw_state(env, &list, env->pipeline_msaa, view);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 3, 1, 0, 0);
    target_transition(list.list, env->msaa, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_RESOLVE_SOURCE);
    target_transition(list.list, env->target, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_RESOLVE_DEST);
    return list;
}

static void finish(struct env *env, struct harness_list *list)
{
    target_transition(list->list, env->msaa, D3D12_RESOURCE_STATE_RESOLVE_SOURCE, D3D12_RESOURCE_STATE_RENDER_TARGET);
    target_copy_out(env->readback, list, env->target, D3D12_RESOURCE_STATE_RESOLVE_DEST);
    target_transition(list->list, env->target, D3D12_RESOURCE_STATE_RESOLVE_DEST, D3D12_RESOURCE_STATE_RENDER_TARGET);
    harness_execute_and_wait(env->device, env->queue, list);
    harness_release_list(list);
    target_read_pixels(env->readback, env->pixels);
}

/* Whether the pixel's square lies wholly on one side of the edge (a, b): 1 inside (left of it,
 * for the clockwise-on-screen triangle below), -1 outside, 0 crossed. */
static int side(const float a[2], const float b[2], int x, int y)
{
    int sign = 0;
    for (int corner = 0; corner < 4; corner++) {
        float px = (float)(x + (corner & 1)), py = (float)(y + (corner >> 1));
        float cross = (b[0] - a[0]) * (py - a[1]) - (b[1] - a[1]) * (px - a[0]);
        int s = cross > 0.0f ? 1 : cross < 0.0f ? -1 : 0;
        if (!s || (sign && s != sign))
            return 0;
        sign = s;
    }
    return sign;
}

static void test_resolve_average(struct env *env)
{
    static const float corners[3][2] = {{3.0f, 2.0f}, {29.0f, 9.0f}, {7.0f, 30.0f}};
    D3D12_VERTEX_BUFFER_VIEW view;
    ID3D12Resource *vb = triangle(env, corners, &view);
    struct harness_list list = draw_msaa(env, &view);
    unsigned inside = 0, outside = 0, between = 0, wrong = 0;
    int orientation = 0;
    LOG_MARK();

    ID3D12GraphicsCommandList2_ResolveSubresource(list.list, env->target, 0, env->msaa, 0, DXGI_FORMAT_R8G8B8A8_UNORM);
    finish(env, &list);
    /* which side of each edge is inside: the side the third vertex lies on */
    {
        float cross = (corners[1][0] - corners[0][0]) * (corners[2][1] - corners[0][1]) - (corners[1][1] - corners[0][1]) * (corners[2][0] - corners[0][0]);
        orientation = cross > 0.0f ? 1 : -1;
    }
    for (int y = 0; y < HEIGHT; y++) {
        for (int x = 0; x < WIDTH; x++) {
            int in = 0, out = 0;
            for (int e = 0; e < 3; e++) {
                int s = side(corners[e], corners[(e + 1) % 3], x, y) * orientation;
                in += s > 0;
                out |= s < 0;
            }
            if (in == 3) {
                inside++;
                if (!target_pixel_is(env->pixels, x, y, white, 0) && wrong++ < 5)
                    CHECK_PIXEL(env, x, y, white, 0);
            } else if (out) {
                outside++;
                if (!target_pixel_is(env->pixels, x, y, black, 0) && wrong++ < 5)
                    CHECK_PIXEL(env, x, y, black, 0);
            } else if (env->pixels[y][x][0] > 0 && env->pixels[y][x][0] < 255) {
                between++;
                /* an average of 4 samples of 0 or 255 (within rounding) */
                CHECK_MSG(env->pixels[y][x][0] == env->pixels[y][x][1] && env->pixels[y][x][3] == 255, "edge pixel (%d, %d) is %u %u %u %u", x, y,
                        env->pixels[y][x][0], env->pixels[y][x][1], env->pixels[y][x][2], env->pixels[y][x][3]);
            }
        }
    }
    CHECK_MSG(!wrong, "%u of %u whole pixels differ", wrong, inside + outside);
    CHECK_MSG(inside > 150 && outside > 300, "judged %u inside, %u outside", inside, outside);
    CHECK_MSG(between > 20, "only %u edge pixels hold an average", between);
    CHECK_NO_LOG();

    /* A region: source (0, 0)-(8, 8) of a fully covered target to (20, 20). */
    {
        static const float all[3][2] = {{-40.0f, -40.0f}, {120.0f, -40.0f}, {-40.0f, 120.0f}};
        D3D12_RECT rect = {0, 0, 8, 8};
        ID3D12Resource *cover = triangle(env, all, &view);
        list = draw_msaa(env, &view);
        ID3D12GraphicsCommandList2_ResolveSubresourceRegion((ID3D12GraphicsCommandList1 *)list.list, env->target, 0, 20, 20, env->msaa, 0, &rect,
                DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOLVE_MODE_AVERAGE);
        finish(env, &list);
        CHECK_PIXEL(env, 20, 20, white, 0);
        CHECK_PIXEL(env, 27, 27, white, 0);
        CHECK_PIXEL(env, 19, 20, red, 0);
        CHECK_PIXEL(env, 28, 27, red, 0);
        CHECK_PIXEL(env, 0, 0, red, 0);
        ID3D12Resource_Release(cover);
    }
    CHECK_NO_LOG();
    ID3D12Resource_Release(vb);
}

/* ---- colour MIN and MAX (d3d12xs's own resolve pass) ---- */

struct minmax_case {
    DXGI_FORMAT format;
    unsigned texel_bytes;
    const char *type, *base, *step; /* sample s holds base + step * s */
    uint8_t min[16], max[16];       /* the expected texels, as bytes */
    int tolerance;                  /* per byte (sRGB: the shader's encoding against the hardware's) */
};

/* MAX into the whole texture, MIN of the moved region, all in the case's one format. */
static void check_minmax(struct env *env, const struct minmax_case *c)
{
    char what[32];
    struct resolve_case resolves = {what, c->format, c->format, c->format, c->format, c->texel_bytes, c->type, c->base, c->step,
            D3D12_RESOLVE_MODE_MAX, D3D12_RESOLVE_MODE_MIN, {0}, {0}, c->tolerance};

    snprintf(what, sizeof(what), "format %d", (int)c->format);
    memcpy(resolves.whole, c->max, sizeof(resolves.whole));
    memcpy(resolves.region, c->min, sizeof(resolves.region));
    check_resolves(env->device, env->queue, env->signature, &resolves);
}

static void test_resolve_min_max(struct env *env)
{
    static const struct minmax_case cases[] = {
        /* samples R 10, 30, 50, 70; G 200, 170, 140, 110; B 0, 5, 10, 15 (of 255) */
        {DXGI_FORMAT_R8G8B8A8_UNORM, 4, "float4", "10.0 / 255, 200.0 / 255, 0, 1", "20.0 / 255, -30.0 / 255, 5.0 / 255, 0", {10, 110, 0, 255}, {70, 200, 15, 255}, 0},
        {DXGI_FORMAT_B8G8R8A8_UNORM, 4, "float4", "0.2, 0.4, 0.6, 1", "0.2, 0.1, -0.2, 0", {0, 102, 51, 255}, {153, 178, 204, 255}, 1},
        /* linear 0.05, 0.15, 0.25, 0.35 is sRGB 63, 108, 137, 160 */
        {DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, 4, "float4", "0.05, 0.35, 0, 1", "0.1, -0.1, 0, 0", {63, 63, 0, 255}, {160, 160, 0, 255}, 1},
        /* R -0.5 .. -1.25, G 2 .. -2.5, B 0.25 .. 0.625 */
        {DXGI_FORMAT_R16G16B16A16_FLOAT, 8, "float4", "-0.5, 2, 0.25, 1", "-0.25, -1.5, 0.125, 0",
                {LE16(0xbd00), LE16(0xc100), LE16(0x3400), LE16(0x3c00)}, {LE16(0xb800), LE16(0x4000), LE16(0x3900), LE16(0x3c00)}, 0},
        {DXGI_FORMAT_R16G16B16A16_SINT, 8, "int4", "-4, 7, 300, -1", "3, -100, -200, 0",
                {LE16(-4), LE16(-293), LE16(-300), LE16(-1)}, {LE16(5), LE16(7), LE16(300), LE16(-1)}, 0},
        {DXGI_FORMAT_R32_FLOAT, 4, "float", "100.5", "-70.25", {LE32(0xc2dc8000)}, {LE32(0x42c90000)}, 0},
        /* 1-byte texels: the 7-texel region's rows end inside a word */
        {DXGI_FORMAT_R8_UINT, 1, "uint", "200", "-50", {50}, {200}, 0},
        {DXGI_FORMAT_R16_UNORM, 2, "float", "0.25", "0.125", {LE16(16384)}, {LE16(40959)}, 1},
        /* R 1.5 .. 3, G 0.25 .. 1, B 3 .. 0: 11, 11 and 10-bit floats */
        {DXGI_FORMAT_R11G11B10_FLOAT, 4, "float3", "1.5, 0.25, 3", "0.5, 0.25, -1",
                {LE32(992u | (832u << 11) | (0u << 22))}, {LE32(1056u | (960u << 11) | (528u << 22))}, 0},
        /* R 100, 150, 200, 250 of 1023; A 3, 2, 1, 0 of 3 */
        {DXGI_FORMAT_R10G10B10A2_UNORM, 4, "float4", "100.0 / 1023, 1, 0, 1", "50.0 / 1023, 0, 0, -1.0 / 3",
                {LE32(100u | (1023u << 10) | (0u << 20) | (0u << 30))}, {LE32(250u | (1023u << 10) | (0u << 20) | (3u << 30))}, 0},
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        check_minmax(env, &cases[i]);
}

/* Reads back a D32_FLOAT resource (in `state`) into floats. */
static void read_depth(struct env *env, ID3D12Resource *resource, D3D12_RESOURCE_STATES state, float values[HEIGHT][WIDTH])
{
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    D3D12_TEXTURE_COPY_LOCATION dst, src;
    void *mapped = NULL;

    target_transition(list.list, resource, state, D3D12_RESOURCE_STATE_COPY_SOURCE);
    memset(&dst, 0, sizeof(dst));
    dst.pResource = env->readback;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    dst.PlacedFootprint.Footprint = (D3D12_SUBRESOURCE_FOOTPRINT){DXGI_FORMAT_R32_FLOAT, WIDTH, HEIGHT, 1, ROW_PITCH};
    memset(&src, 0, sizeof(src));
    src.pResource = resource;
    src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    ID3D12GraphicsCommandList2_CopyTextureRegion(list.list, &dst, 0, 0, 0, &src, NULL);
    target_transition(list.list, resource, D3D12_RESOURCE_STATE_COPY_SOURCE, state);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    CHECK_HR(ID3D12Resource_Map(env->readback, 0, NULL, &mapped), S_OK);
    for (int y = 0; mapped && y < HEIGHT; y++)
        memcpy(values[y], (const uint8_t *)mapped + y * ROW_PITCH, sizeof(values[y]));
    ID3D12Resource_Unmap(env->readback, 0, NULL);
}

/* A 4x depth buffer cleared to 1.0 with a triangle at 0.5 drawn into it, resolved into a
 * single-sampled depth buffer by AVERAGE: 0.5 inside, 1.0 outside, and where an edge crosses a
 * pixel the mean of its samples (0.625, 0.75 or 0.875) or one of them. By MIN (the nearer sample) where the
 * device resolves depth so, else Close fails with E_NOTIMPL naming it (lavapipe: AVERAGE only). */
static void test_depth_resolve(struct env *env)
{
    static const float corners[3][2] = {{3.0f, 2.0f}, {29.0f, 9.0f}, {7.0f, 30.0f}};
    static float depths[HEIGHT][WIDTH];
    ID3D12Resource *msaa_depth = target_texture(env->device, 4, DXGI_FORMAT_D32_FLOAT, D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL,
            D3D12_RESOURCE_STATE_DEPTH_WRITE);
    ID3D12Resource *resolved = target_texture(env->device, 1, DXGI_FORMAT_D32_FLOAT, D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL, D3D12_RESOURCE_STATE_RESOLVE_DEST);
    D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_DSV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    ID3D10Blob *vs = harness_compile_stage(color_source, "vs", "vs_5_0"), *ps = harness_compile_stage(color_source, "ps", "ps_5_0");
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *state = NULL;
    ID3D12DescriptorHeap *dsv_heap = NULL;
    D3D12_CPU_DESCRIPTOR_HANDLE dsv;
    D3D12_VERTEX_BUFFER_VIEW view;
    ID3D12Resource *vb = triangle(env, corners, &view);
    LOG_MARK();

    harness_graphics_desc(&desc, env->signature, vs, ps);
    desc.InputLayout.pInputElementDescs = vertex_layout;
    desc.InputLayout.NumElements = 2;
    desc.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    desc.SampleDesc.Count = 4;
    desc.DSVFormat = DXGI_FORMAT_D32_FLOAT;
    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&state), S_OK);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&dsv_heap), S_OK);
    dsv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(dsv_heap);
    ID3D12Device_CreateDepthStencilView(env->device, msaa_depth, NULL, dsv);

    for (int pass = 0; pass < 2; pass++) {
        D3D12_RESOLVE_MODE mode = pass ? D3D12_RESOLVE_MODE_MIN : D3D12_RESOLVE_MODE_AVERAGE;
        struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        unsigned inside = 0, edges = 0, wrong = 0;
        HRESULT hr;

        ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, env->msaa_rtv, black_f, 0, NULL);
        ID3D12GraphicsCommandList2_ClearDepthStencilView(list.list, dsv, D3D12_CLEAR_FLAG_DEPTH, 1.0f, 0, 0, NULL);
        ID3D12GraphicsCommandList2_OMSetRenderTargets(list.list, 1, &env->msaa_rtv, TRUE, &dsv);
        draw_state(env, &list, state, &view);
        ID3D12GraphicsCommandList2_DrawInstanced(list.list, 3, 1, 0, 0);
        target_transition(list.list, msaa_depth, D3D12_RESOURCE_STATE_DEPTH_WRITE, D3D12_RESOURCE_STATE_RESOLVE_SOURCE);
        RELOG_MARK();
        ID3D12GraphicsCommandList2_ResolveSubresourceRegion((ID3D12GraphicsCommandList1 *)list.list, resolved, 0, 0, 0, msaa_depth, 0, NULL,
                DXGI_FORMAT_D32_FLOAT, mode);
        target_transition(list.list, msaa_depth, D3D12_RESOURCE_STATE_RESOLVE_SOURCE, D3D12_RESOURCE_STATE_DEPTH_WRITE);
        if (pass && harness_log_mark() != log_mark_) {
            /* the device has no MIN resolve of depth */
            CHECK_LOG("ResolveSubresourceRegion", "depth plane's MIN resolve", "no such resolve");
            RELOG_MARK();
            CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_NOTIMPL);
            CHECK_LOG("Close", "MIN");
            harness_release_list(&list);
            continue;
        }
        hr = ID3D12GraphicsCommandList2_Close(list.list);
        CHECK_HR(hr, S_OK);
        if (SUCCEEDED(hr)) {
            ID3D12CommandList *lists[1] = {(ID3D12CommandList *)list.list};
            ID3D12Fence *fence = harness_create_fence(env->device, 0);
            ID3D12CommandQueue_ExecuteCommandLists(env->queue, 1, lists);
            CHECK_HR(ID3D12CommandQueue_Signal(env->queue, fence, 1), S_OK);
            CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 1, NULL), S_OK);
            ID3D12Fence_Release(fence);
        }
        harness_release_list(&list);
        read_depth(env, resolved, D3D12_RESOURCE_STATE_RESOLVE_DEST, depths);
        for (int y = 0; y < HEIGHT; y++) {
            for (int x = 0; x < WIDTH; x++) {
                float d = depths[y][x];
                bool edge = pass ? false : d == 0.625f || d == 0.75f || d == 0.875f;
                if (d != 0.5f && d != 1.0f && !edge && wrong++ < 5)
                    CHECK_MSG(false, "%s: pixel (%d, %d) is %g", pass ? "MIN" : "AVERAGE", x, y, d);
                inside += d == 0.5f;
                edges += edge;
            }
        }
        CHECK_MSG(!wrong, "%u pixels wrong", wrong);
        /* lavapipe's depth AVERAGE gives one sample's value on edges (no pixel averaged): only
         * which values may appear is held here */
        CHECK_MSG(inside > 150, "%u pixels at 0.5, %u averaged", inside, edges);
        printf("depth %s resolve: %u pixels at 0.5, %u averaged\n", pass ? "MIN" : "AVERAGE", inside, edges);
        CHECK(depths[0][0] == 1.0f && depths[12][12] == 0.5f);
        CHECK_NO_LOG();
    }

    ID3D12Resource_Release(vb);
    ID3D12DescriptorHeap_Release(dsv_heap);
    ID3D12PipelineState_Release(state);
    ID3D12Resource_Release(resolved);
    ID3D12Resource_Release(msaa_depth);
    if (vs)
        ID3D10Blob_Release(vs);
    if (ps)
        ID3D10Blob_Release(ps);
}

/* ---- depth and stencil planes through the resolve pass ---- */

/* A depth-only pipeline drawing a full-screen triangle at depth z into sample `sample` alone
 * (SampleMask), writing the stencil reference where `stencil`. */
static ID3D12PipelineState *sample_depth_pipeline(struct env *env, DXGI_FORMAT format, float z, unsigned sample, bool stencil)
{
    char vs_source[256];
    ID3D10Blob *vs;
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *state = NULL;

    snprintf(vs_source, sizeof(vs_source), "float4 vs(uint id : SV_VertexID) : SV_Position\n"
            "{ float2 p = float2((id << 1) & 2, id & 2); return float4(p * float2(2, -2) + float2(-1, 1), %.9g, 1); }\n", z);
    vs = harness_compile_stage(vs_source, "vs", "vs_5_0");
    harness_graphics_desc(&desc, env->signature, vs, NULL);
    desc.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    desc.DepthStencilState.DepthFunc = D3D12_COMPARISON_FUNC_ALWAYS;
    desc.DepthStencilState.StencilEnable = stencil;
    desc.DepthStencilState.FrontFace.StencilPassOp = desc.DepthStencilState.BackFace.StencilPassOp = D3D12_STENCIL_OP_REPLACE;
    desc.DSVFormat = format;
    desc.SampleDesc.Count = 4;
    desc.SampleMask = 1u << sample;
    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&state), S_OK);
    if (vs)
        ID3D10Blob_Release(vs);
    return state;
}

/* Reads subresource `subresource` of `resource` (in COPY_SOURCE) into values, a texel of
 * `bytes` bytes each, WIDTH x HEIGHT. */
static void read_plane(struct env *env, ID3D12Resource *resource, UINT subresource, unsigned bytes, uint8_t *values)
{
    D3D12_RESOURCE_DESC desc = ID3D12Resource_GetDesc(resource);
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT footprint;
    UINT64 total = 0;
    ID3D12Resource *readback;
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    D3D12_TEXTURE_COPY_LOCATION dst, src;
    uint8_t *mapped = NULL;

    ID3D12Device_GetCopyableFootprints(env->device, &desc, subresource, 1, 0, &footprint, NULL, NULL, &total);
    readback = harness_create_buffer(env->device, D3D12_HEAP_TYPE_READBACK, total, D3D12_RESOURCE_STATE_COPY_DEST);
    memset(&dst, 0, sizeof(dst));
    dst.pResource = readback;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    dst.PlacedFootprint = footprint;
    memset(&src, 0, sizeof(src));
    src.pResource = resource;
    src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    src.SubresourceIndex = subresource;
    ID3D12GraphicsCommandList2_CopyTextureRegion(list.list, &dst, 0, 0, 0, &src, NULL);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    CHECK_HR(ID3D12Resource_Map(readback, 0, NULL, (void **)&mapped), S_OK);
    for (int y = 0; mapped && y < HEIGHT; y++)
        memcpy(values + y * WIDTH * bytes, mapped + footprint.Offset + y * footprint.Footprint.RowPitch, WIDTH * bytes);
    ID3D12Resource_Unmap(readback, 0, NULL);
    ID3D12Resource_Release(readback);
}

/* A plane's value at a texel: depth as a float (D32, or D24 in a word's low bits), stencil. */
static double plane_value(const uint8_t *values, unsigned bytes, bool d24, int x, int y)
{
    const uint8_t *texel = values + (y * WIDTH + x) * bytes;
    uint32_t word;
    float f;

    if (bytes == 1)
        return texel[0];
    memcpy(&word, texel, 4);
    if (d24)
        return (word & 0xffffff) / 16777215.0;
    memcpy(&f, &word, 4);
    return f;
}

/* Checks a resolved plane: `inside` in the moved region (21, 2)-(28, 6), `outside` elsewhere. */
static void check_plane(const char *what, const uint8_t *values, unsigned bytes, bool d24, double inside, double outside, double tolerance)
{
    unsigned wrong = 0;

    for (int y = 0; y < HEIGHT; y++) {
        for (int x = 0; x < WIDTH; x++) {
            bool in_region = x >= 21 && x < 28 && y >= 2 && y < 6;
            double v = plane_value(values, bytes, d24, x, y), expected = in_region ? inside : outside;
            if ((v < expected - tolerance || v > expected + tolerance) && wrong++ < 3)
                CHECK_MSG(false, "%s at (%d, %d): %.9g, expected %.9g", what, x, y, v, expected);
        }
    }
    CHECK_MSG(!wrong, "%s: %u texels wrong", what, wrong);
}

/* Each of a 4x depth-stencil target's samples s holds depth 0.1 + 0.2 s and stencil 10 + 20 s
 * (four draws, one sample each). Resolved into textures with no depth-stencil usage, so
 * Vulkan's rendering resolve cannot take them: D32 by MAX, then AVERAGE of a moved region; D24S8's
 * depth by MIN then MAX of a moved region, its stencil by MAX then MIN of a moved region. */
static void test_depth_stencil_pass(struct env *env)
{
    static const struct {
        DXGI_FORMAT format;                          /* of the depth-stencil view */
        DXGI_FORMAT source, destination, resolve_format;
        bool stencil;
        D3D12_RESOLVE_MODE depth_whole, depth_region;
        double depth_whole_value, depth_region_value, tolerance;
    } cases[] = {
        {DXGI_FORMAT_D32_FLOAT, DXGI_FORMAT_D32_FLOAT, DXGI_FORMAT_D32_FLOAT, DXGI_FORMAT_D32_FLOAT, false, D3D12_RESOLVE_MODE_MAX,
                D3D12_RESOLVE_MODE_AVERAGE, 0.7, 0.4, 1e-6},
        {DXGI_FORMAT_D24_UNORM_S8_UINT, DXGI_FORMAT_D24_UNORM_S8_UINT, DXGI_FORMAT_D24_UNORM_S8_UINT, DXGI_FORMAT_D24_UNORM_S8_UINT, true,
                D3D12_RESOLVE_MODE_MIN, D3D12_RESOLVE_MODE_MAX, 0.1, 0.7, 2.0 / 16777215},
        /* a depth image of the R32_TYPELESS family into a colour texture of it */
        {DXGI_FORMAT_D32_FLOAT, DXGI_FORMAT_R32_TYPELESS, DXGI_FORMAT_R32_FLOAT, DXGI_FORMAT_R32_FLOAT, false, D3D12_RESOLVE_MODE_MAX,
                D3D12_RESOLVE_MODE_AVERAGE, 0.7, 0.4, 1e-6},
    };
    const D3D12_VIEWPORT viewport = {0.0f, 0.0f, WIDTH, HEIGHT, 0.0f, 1.0f};
    const D3D12_RECT scissor = {0, 0, WIDTH, HEIGHT};
    D3D12_RECT region = {3, 5, 10, 9};
    static uint8_t values[HEIGHT * WIDTH * 4];

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        DXGI_FORMAT format = cases[i].format;
        ID3D12Resource *msaa = target_texture(env->device, 4, cases[i].source, D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL,
                D3D12_RESOURCE_STATE_DEPTH_WRITE);
        ID3D12Resource *dst = target_texture(env->device, 1, cases[i].destination, D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_RESOLVE_DEST);
        D3D12_DEPTH_STENCIL_VIEW_DESC dsv_desc = {format, D3D12_DSV_DIMENSION_TEXTURE2DMS, D3D12_DSV_FLAG_NONE, {{0}}};
        D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_DSV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
        struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        ID3D12PipelineState *states[4];
        ID3D12DescriptorHeap *heap = NULL;
        D3D12_CPU_DESCRIPTOR_HANDLE dsv;
        ID3D12GraphicsCommandList1 *list1 = (ID3D12GraphicsCommandList1 *)list.list;
        LOG_MARK();

        CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&heap), S_OK);
        dsv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap);
        ID3D12Device_CreateDepthStencilView(env->device, msaa, &dsv_desc, dsv);
        ID3D12GraphicsCommandList2_ClearDepthStencilView(list.list, dsv, D3D12_CLEAR_FLAG_DEPTH | (cases[i].stencil ? D3D12_CLEAR_FLAG_STENCIL : 0),
                1.0f, 0, 0, NULL);
        ID3D12GraphicsCommandList2_OMSetRenderTargets(list.list, 0, NULL, FALSE, &dsv);
        ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, env->signature);
        ID3D12GraphicsCommandList2_RSSetViewports(list.list, 1, &viewport);
        ID3D12GraphicsCommandList2_RSSetScissorRects(list.list, 1, &scissor);
        ID3D12GraphicsCommandList2_IASetPrimitiveTopology(list.list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
        for (unsigned s = 0; s < 4; s++) {
            states[s] = sample_depth_pipeline(env, format, 0.1f + 0.2f * s, s, cases[i].stencil);
            ID3D12GraphicsCommandList2_SetPipelineState(list.list, states[s]);
            ID3D12GraphicsCommandList2_OMSetStencilRef(list.list, 10 + 20 * s);
            ID3D12GraphicsCommandList2_DrawInstanced(list.list, 3, 1, 0, 0);
        }
        target_transition(list.list, msaa, D3D12_RESOURCE_STATE_DEPTH_WRITE, D3D12_RESOURCE_STATE_RESOLVE_SOURCE);
        ID3D12GraphicsCommandList1_ResolveSubresourceRegion(list1, dst, 0, 0, 0, msaa, 0, NULL, cases[i].resolve_format, cases[i].depth_whole);
        ID3D12GraphicsCommandList1_ResolveSubresourceRegion(list1, dst, 0, 21, 2, msaa, 0, &region, cases[i].resolve_format,
                cases[i].depth_region);
        if (cases[i].stencil) {
            ID3D12GraphicsCommandList1_ResolveSubresourceRegion(list1, dst, 1, 0, 0, msaa, 1, NULL, format, D3D12_RESOLVE_MODE_MAX);
            ID3D12GraphicsCommandList1_ResolveSubresourceRegion(list1, dst, 1, 21, 2, msaa, 1, &region, format, D3D12_RESOLVE_MODE_MIN);
        }
        target_transition(list.list, dst, D3D12_RESOURCE_STATE_RESOLVE_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
        harness_execute_and_wait(env->device, env->queue, &list);
        harness_release_list(&list);

        read_plane(env, dst, 0, 4, values);
        check_plane(cases[i].destination == DXGI_FORMAT_R32_FLOAT ? "D32 depth into R32_FLOAT" : format == DXGI_FORMAT_D32_FLOAT ? "D32 depth"
                : "D24 depth", values, 4, format != DXGI_FORMAT_D32_FLOAT,
                cases[i].depth_region_value, cases[i].depth_whole_value, cases[i].tolerance);
        if (cases[i].stencil) {
            read_plane(env, dst, 1, 1, values);
            check_plane("stencil", values, 1, false, 10, 70, 0);
        }
        CHECK_NO_LOG();
        for (unsigned s = 0; s < 4; s++)
            ID3D12PipelineState_Release(states[s]);
        ID3D12DescriptorHeap_Release(heap);
        ID3D12Resource_Release(dst);
        ID3D12Resource_Release(msaa);
    }
}

static void test_resolve_errors(struct env *env)
{
    ID3D12Resource *msaa_uint = target_texture(env->device, 4, DXGI_FORMAT_R8G8B8A8_UINT, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET,
            D3D12_RESOURCE_STATE_RESOLVE_SOURCE);
    ID3D12Resource *plain_uint = target_texture(env->device, 1, DXGI_FORMAT_R8G8B8A8_UINT, D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_RESOLVE_DEST);
    D3D12_HEAP_PROPERTIES heap = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    D3D12_RESOURCE_DESC desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8G8B8A8_UNORM, WIDTH / 2, HEIGHT, 1, 1);
    ID3D12Resource *narrow = NULL;
    struct harness_list list;
    LOG_MARK();

    CHECK_HR(ID3D12Device_CreateCommittedResource(env->device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_RESOLVE_DEST, NULL,
            &IID_ID3D12Resource, (void **)&narrow), S_OK);
    check_refused(env->device, env->target, env->target, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOLVE_MODE_AVERAGE, false, E_INVALIDARG, "1 samples");
    check_refused(env->device, plain_uint, msaa_uint, DXGI_FORMAT_R8G8B8A8_UINT, D3D12_RESOLVE_MODE_AVERAGE, false, E_INVALIDARG, "holds integers");
    check_refused(env->device, narrow, env->msaa, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOLVE_MODE_AVERAGE, false, E_INVALIDARG, "not within the 16x32 destination");
    check_refused(env->device, env->target, env->msaa, DXGI_FORMAT_R8G8B8A8_UINT, D3D12_RESOLVE_MODE_AVERAGE, false, E_INVALIDARG, "Format");
    check_refused(env->device, env->target, env->msaa, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOLVE_MODE_DECOMPRESS, true, E_INVALIDARG, "keeps the sample count");
    check_refused(env->device, env->target, env->msaa, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOLVE_MODE_ENCODE_SAMPLER_FEEDBACK, true, E_NOTIMPL,
            "sampler feedback");
    /* a depth resolve neither way can do: the destination is no depth-stencil attachment, and the
     * source, which the resolve pass reads as a shader resource, denies that */
    {
        ID3D12Resource *denying = target_texture(env->device, 4, DXGI_FORMAT_D32_FLOAT, D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL
                | D3D12_RESOURCE_FLAG_DENY_SHADER_RESOURCE, D3D12_RESOURCE_STATE_RESOLVE_SOURCE);
        ID3D12Resource *plain_depth = target_texture(env->device, 1, DXGI_FORMAT_D32_FLOAT, D3D12_RESOURCE_FLAG_NONE,
                D3D12_RESOURCE_STATE_RESOLVE_DEST);
        check_refused(env->device, plain_depth, denying, DXGI_FORMAT_D32_FLOAT, D3D12_RESOLVE_MODE_MAX, true, E_NOTIMPL, "DENY_SHADER_RESOURCE");
        ID3D12Resource_Release(plain_depth);
        ID3D12Resource_Release(denying);
    }

    /* DECOMPRESS in place: nothing compressed, nothing to do, and accepted */
    RELOG_MARK();
    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_ResolveSubresourceRegion((ID3D12GraphicsCommandList1 *)list.list, env->msaa, 0, 0, 0, env->msaa, 0, NULL,
            DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOLVE_MODE_DECOMPRESS);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), S_OK);
    harness_release_list(&list);
    CHECK_NO_LOG();

    /* inside a render pass */
    {
        D3D12_RENDER_PASS_RENDER_TARGET_DESC rt;
        memset(&rt, 0, sizeof(rt));
        rt.cpuDescriptor = env->rtv;
        rt.BeginningAccess.Type = D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE_PRESERVE;
        rt.EndingAccess.Type = D3D12_RENDER_PASS_ENDING_ACCESS_TYPE_PRESERVE;
        list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        ID3D12GraphicsCommandList4_BeginRenderPass(list4(&list), 1, &rt, NULL, D3D12_RENDER_PASS_FLAG_NONE);
        RELOG_MARK();
        ID3D12GraphicsCommandList2_ResolveSubresource(list.list, narrow, 0, env->msaa, 0, DXGI_FORMAT_R8G8B8A8_UNORM);
        CHECK_LOG("ResolveSubresource", "not allowed inside a render pass");
        ID3D12GraphicsCommandList4_EndRenderPass(list4(&list));
        RELOG_MARK();
        CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
        CHECK_LOG("Close", "ResolveSubresource");
        harness_release_list(&list);
    }
    ID3D12Resource_Release(narrow);
    ID3D12Resource_Release(plain_uint);
    ID3D12Resource_Release(msaa_uint);
}

int main(void)
{
    struct env env;

    harness_init();
    memset(&env, 0, sizeof(env));
    setup(&env);
    test_resolve_average(&env);
    test_resolve_min_max(&env);
    test_depth_resolve(&env);
    test_depth_stencil_pass(&env);
    test_resolve_errors(&env);
    teardown(&env);
    return harness_finish();
}
