/* Draws end to end on a DIRECT list: a triangle from a vertex buffer through an input layout
 * into an RGBA8 render target, read back and checked pixel by pixel against a CPU reference;
 * depth testing and blending; indexed and instanced draws (SV_VertexID and SV_InstanceID count
 * from 0 whatever the draw's bases); root constants read by the vertex and the pixel shader, a
 * root CBV and a descriptor-table SRV read by the pixel shader; pipelines of different vertex
 * inputs in turn; a rendering pass that survives the calls that only set state and ends before
 * clears, copies and dispatches. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

#define WIDTH 64
#define HEIGHT 64

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12Resource *target, *depth, *readback;
    ID3D12DescriptorHeap *rtv_heap, *dsv_heap;
    D3D12_CPU_DESCRIPTOR_HANDLE rtv, dsv;
    uint8_t pixels[HEIGHT][WIDTH][4];
};

struct vertex {
    float x, y, z;
    uint8_t color[4];
};

static const D3D12_INPUT_ELEMENT_DESC vertex_layout[] = {
    {"POSITION", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    {"COLOR", 0, DXGI_FORMAT_R8G8B8A8_UNORM, 0, D3D12_APPEND_ALIGNED_ELEMENT, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
};

static const char color_source[] =
    "struct V { float4 pos : SV_Position; float4 color : COLOR; };\n"
    "V vs(float3 pos : POSITION, float4 color : COLOR) { V o; o.pos = float4(pos, 1); o.color = color; return o; }\n"
    "float4 ps(V i) : SV_Target { return i.color; }\n";

static ID3D12Resource *texture(ID3D12Device *device, DXGI_FORMAT format, UINT width, UINT height, D3D12_RESOURCE_FLAGS flags,
        D3D12_RESOURCE_STATES state)
{
    D3D12_HEAP_PROPERTIES heap = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    D3D12_RESOURCE_DESC desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, format, width, height, 1, 1);
    ID3D12Resource *resource = NULL;
    desc.Flags = flags;
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &heap, D3D12_HEAP_FLAG_NONE, &desc, state, NULL, &IID_ID3D12Resource,
            (void **)&resource), S_OK);
    return resource;
}

static ID3D12DescriptorHeap *descriptor_heap(ID3D12Device *device, D3D12_DESCRIPTOR_HEAP_TYPE type, UINT count, bool shader_visible)
{
    D3D12_DESCRIPTOR_HEAP_DESC desc = {type, count, shader_visible ? D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE : D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    ID3D12DescriptorHeap *heap = NULL;
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(device, &desc, &IID_ID3D12DescriptorHeap, (void **)&heap), S_OK);
    return heap;
}

static void setup(struct env *env)
{
    env->device = harness_create_device();
    env->queue = harness_create_queue(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    env->target = texture(env->device, DXGI_FORMAT_R8G8B8A8_UNORM, WIDTH, HEIGHT, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET,
            D3D12_RESOURCE_STATE_RENDER_TARGET);
    env->depth = texture(env->device, DXGI_FORMAT_D32_FLOAT, WIDTH, HEIGHT, D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL,
            D3D12_RESOURCE_STATE_DEPTH_WRITE);
    env->readback = harness_create_buffer(env->device, D3D12_HEAP_TYPE_READBACK, WIDTH * HEIGHT * 4, D3D12_RESOURCE_STATE_COPY_DEST);
    env->rtv_heap = descriptor_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 2, false);
    env->dsv_heap = descriptor_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_DSV, 1, false);
    env->rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(env->rtv_heap);
    env->dsv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(env->dsv_heap);
    ID3D12Device_CreateRenderTargetView(env->device, env->target, NULL, env->rtv);
    ID3D12Device_CreateDepthStencilView(env->device, env->depth, NULL, env->dsv);
}

static void teardown(struct env *env)
{
    ID3D12DescriptorHeap_Release(env->rtv_heap);
    ID3D12DescriptorHeap_Release(env->dsv_heap);
    ID3D12Resource_Release(env->readback);
    ID3D12Resource_Release(env->depth);
    ID3D12Resource_Release(env->target);
    ID3D12CommandQueue_Release(env->queue);
    harness_release_device(env->device);
}

/* A list drawing into the target and depth buffer: cleared, whole viewport and scissor. */
static struct harness_list begin(struct env *env, const float clear[4])
{
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    const D3D12_VIEWPORT viewport = {0.0f, 0.0f, WIDTH, HEIGHT, 0.0f, 1.0f};
    const D3D12_RECT scissor = {0, 0, WIDTH, HEIGHT};
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, env->rtv, clear, 0, NULL);
    ID3D12GraphicsCommandList2_ClearDepthStencilView(list.list, env->dsv, D3D12_CLEAR_FLAG_DEPTH, 1.0f, 0, 0, NULL);
    ID3D12GraphicsCommandList2_OMSetRenderTargets(list.list, 1, &env->rtv, TRUE, &env->dsv);
    ID3D12GraphicsCommandList2_RSSetViewports(list.list, 1, &viewport);
    ID3D12GraphicsCommandList2_RSSetScissorRects(list.list, 1, &scissor);
    ID3D12GraphicsCommandList2_IASetPrimitiveTopology(list.list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    return list;
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

/* Copies the target to the readback buffer, runs the list, and reads the pixels. */
static void finish(struct env *env, struct harness_list *list)
{
    D3D12_TEXTURE_COPY_LOCATION dst, src;
    void *mapped = NULL;

    transition(list->list, env->target, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_COPY_SOURCE);
    memset(&dst, 0, sizeof(dst));
    dst.pResource = env->readback;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    dst.PlacedFootprint.Footprint = (D3D12_SUBRESOURCE_FOOTPRINT){DXGI_FORMAT_R8G8B8A8_UNORM, WIDTH, HEIGHT, 1, WIDTH * 4};
    memset(&src, 0, sizeof(src));
    src.pResource = env->target;
    src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    ID3D12GraphicsCommandList2_CopyTextureRegion(list->list, &dst, 0, 0, 0, &src, NULL);
    transition(list->list, env->target, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_RENDER_TARGET);
    harness_execute_and_wait(env->device, env->queue, list);
    harness_release_list(list);
    CHECK_HR(ID3D12Resource_Map(env->readback, 0, NULL, &mapped), S_OK);
    if (mapped)
        memcpy(env->pixels, mapped, sizeof(env->pixels));
    ID3D12Resource_Unmap(env->readback, 0, NULL);
}

static ID3D12PipelineState *pipeline(struct env *env, ID3D12RootSignature *signature, const char *source, const D3D12_INPUT_ELEMENT_DESC *layout,
        UINT element_count, void (*adjust)(D3D12_GRAPHICS_PIPELINE_STATE_DESC *))
{
    ID3D10Blob *vs = harness_compile_stage(source, "vs", "vs_5_0"), *ps = harness_compile_stage(source, "ps", "ps_5_0");
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *state = NULL;

    harness_graphics_desc(&desc, signature, vs, ps);
    desc.InputLayout.pInputElementDescs = layout;
    desc.InputLayout.NumElements = element_count;
    desc.DSVFormat = DXGI_FORMAT_D32_FLOAT;
    desc.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    if (adjust)
        adjust(&desc);
    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&state), S_OK);
    if (vs)
        ID3D10Blob_Release(vs);
    if (ps)
        ID3D10Blob_Release(ps);
    return state;
}

/* pipeline() with another pixel shader entry point than "ps". */
static ID3D12PipelineState *pipeline_with_ps(struct env *env, ID3D12RootSignature *signature, const char *source, const char *ps_entry,
        const D3D12_INPUT_ELEMENT_DESC *layout, UINT element_count)
{
    ID3D10Blob *vs = harness_compile_stage(source, "vs", "vs_5_0"), *ps = harness_compile_stage(source, ps_entry, "ps_5_0");
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *state = NULL;

    harness_graphics_desc(&desc, signature, vs, ps);
    desc.InputLayout.pInputElementDescs = layout;
    desc.InputLayout.NumElements = element_count;
    desc.DSVFormat = DXGI_FORMAT_D32_FLOAT;
    desc.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&state), S_OK);
    if (vs)
        ID3D10Blob_Release(vs);
    if (ps)
        ID3D10Blob_Release(ps);
    return state;
}

static bool near(int a, int b, int tolerance)
{
    return a - b <= tolerance && b - a <= tolerance;
}

/* Pixel (x, y) against an expected colour (0-255 each), with a tolerance. */
static bool pixel_is(struct env *env, int x, int y, const int expected[4], int tolerance)
{
    const uint8_t *p = env->pixels[y][x];
    return near(p[0], expected[0], tolerance) && near(p[1], expected[1], tolerance) && near(p[2], expected[2], tolerance)
            && near(p[3], expected[3], tolerance);
}

/* NDC to the target's pixel space (y down, as D3D12's viewport maps it). */
static void to_screen(float x, float y, float *sx, float *sy)
{
    *sx = (x + 1.0f) * 0.5f * WIDTH;
    *sy = (1.0f - y) * 0.5f * HEIGHT;
}

/* One triangle with a colour per vertex against a CPU rasterization of it: every pixel centre
 * clearly inside gets the barycentric blend of the colours (1/255 rounding), every one clearly
 * outside keeps the clear colour; centres within a pixel's tenth of an edge are not judged. */
static void test_triangle(struct env *env, ID3D12RootSignature *signature)
{
    static const struct vertex vertices[3] = {
        {-0.8f, -0.7f, 0.5f, {255, 0, 0, 255}},
        {0.1f, 0.9f, 0.5f, {0, 255, 0, 255}},
        {0.85f, -0.4f, 0.5f, {0, 0, 255, 255}},
    };
    static const float clear[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    ID3D12PipelineState *state = pipeline(env, signature, color_source, vertex_layout, 2, NULL);
    ID3D12Resource *vb = harness_upload_buffer(env->device, vertices, sizeof(vertices));
    struct harness_list list = begin(env, clear);
    D3D12_VERTEX_BUFFER_VIEW view = {ID3D12Resource_GetGPUVirtualAddress(vb), sizeof(vertices), sizeof(vertices[0])};
    float sx[3], sy[3], area;
    unsigned inside = 0, outside = 0, wrong = 0;

    ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 1, &view);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 3, 1, 0, 0);
    finish(env, &list);

    for (int i = 0; i < 3; i++)
        to_screen(vertices[i].x, vertices[i].y, &sx[i], &sy[i]);
    area = (sx[1] - sx[0]) * (sy[2] - sy[0]) - (sx[2] - sx[0]) * (sy[1] - sy[0]);
    for (int y = 0; y < HEIGHT; y++) {
        for (int x = 0; x < WIDTH; x++) {
            float px = x + 0.5f, py = y + 0.5f, b[3];
            float edge_margin = 0.1f;
            bool clearly_inside = true, clearly_outside = false;
            for (int e = 0; e < 3; e++) {
                int a = (e + 1) % 3, c = (e + 2) % 3;
                /* barycentric weight of vertex e: the sub-triangle opposite it, over the whole */
                float w = ((sx[c] - sx[a]) * (py - sy[a]) - (px - sx[a]) * (sy[c] - sy[a])) / area;
                float edge_length = sqrtf((sx[c] - sx[a]) * (sx[c] - sx[a]) + (sy[c] - sy[a]) * (sy[c] - sy[a]));
                float distance = w * fabsf(area) / edge_length;
                b[e] = w;
                clearly_inside &= distance > edge_margin;
                clearly_outside |= distance < -edge_margin;
            }
            if (clearly_inside) {
                int expected[4] = {0, 0, 0, 255};
                for (int k = 0; k < 3; k++)
                    expected[k] = (int)lrintf(255.0f * (b[0] * vertices[0].color[k] + b[1] * vertices[1].color[k]
                            + b[2] * vertices[2].color[k]) / 255.0f);
                inside++;
                if (!pixel_is(env, x, y, expected, 2) && wrong++ < 5)
                    CHECK_MSG(false, "inside pixel (%d, %d) is %u %u %u %u, expected %d %d %d %d", x, y, env->pixels[y][x][0],
                            env->pixels[y][x][1], env->pixels[y][x][2], env->pixels[y][x][3], expected[0], expected[1], expected[2], expected[3]);
            } else if (clearly_outside) {
                static const int black[4] = {0, 0, 0, 255};
                outside++;
                if (!pixel_is(env, x, y, black, 0) && wrong++ < 5)
                    CHECK_MSG(false, "outside pixel (%d, %d) is %u %u %u %u", x, y, env->pixels[y][x][0], env->pixels[y][x][1],
                            env->pixels[y][x][2], env->pixels[y][x][3]);
            }
        }
    }
    CHECK_MSG(!wrong, "%u of %u judged pixels differ from the reference", wrong, inside + outside);
    CHECK_MSG(inside > 800 && outside > 1000, "judged %u inside and %u outside", inside, outside);
    ID3D12Resource_Release(vb);
    ID3D12PipelineState_Release(state);
}

/* An axis-aligned rectangle in pixels [x0, x1) x [y0, y1) as two triangles (edges on pixel
 * boundaries, so every pixel centre is clearly in or out), at depth z, in one colour. */
static void rectangle(struct vertex *v, int x0, int y0, int x1, int y1, float z, const uint8_t color[4])
{
    const float l = 2.0f * x0 / WIDTH - 1.0f, r = 2.0f * x1 / WIDTH - 1.0f, t = 1.0f - 2.0f * y0 / HEIGHT, b = 1.0f - 2.0f * y1 / HEIGHT;
    const float corners[6][2] = {{l, t}, {r, t}, {l, b}, {l, b}, {r, t}, {r, b}};
    for (int i = 0; i < 6; i++) {
        v[i] = (struct vertex){corners[i][0], corners[i][1], z, {color[0], color[1], color[2], color[3]}};
    }
}

static void blend_alpha(D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc)
{
    D3D12_RENDER_TARGET_BLEND_DESC *rt = &desc->BlendState.RenderTarget[0];
    rt->BlendEnable = TRUE;
    rt->SrcBlend = D3D12_BLEND_SRC_ALPHA;
    rt->DestBlend = D3D12_BLEND_INV_SRC_ALPHA;
    rt->SrcBlendAlpha = D3D12_BLEND_ONE;
    rt->DestBlendAlpha = D3D12_BLEND_ZERO;
}

/* Depth test (LESS) and alpha blending: a red rectangle at depth 0.5; a blue one behind it at
 * 0.7, hidden where they overlap; a half-transparent green one in front at 0.3, blended over both. */
static void test_depth_and_blend(struct env *env, ID3D12RootSignature *signature)
{
    static const uint8_t red[4] = {255, 0, 0, 255}, blue[4] = {0, 0, 255, 255}, green[4] = {0, 255, 0, 128};
    static const float clear[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    struct vertex vertices[18];
    ID3D12PipelineState *opaque = pipeline(env, signature, color_source, vertex_layout, 2, NULL);
    ID3D12PipelineState *blended = pipeline(env, signature, color_source, vertex_layout, 2, blend_alpha);
    ID3D12Resource *vb;
    struct harness_list list;
    D3D12_VERTEX_BUFFER_VIEW view;

    rectangle(&vertices[0], 8, 8, 40, 40, 0.5f, red);
    rectangle(&vertices[6], 24, 24, 56, 56, 0.7f, blue);
    rectangle(&vertices[12], 32, 0, 64, 32, 0.3f, green);
    vb = harness_upload_buffer(env->device, vertices, sizeof(vertices));
    view = (D3D12_VERTEX_BUFFER_VIEW){ID3D12Resource_GetGPUVirtualAddress(vb), sizeof(vertices), sizeof(vertices[0])};
    list = begin(env, clear);
    ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 1, &view);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, opaque);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 12, 1, 0, 0);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, blended);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 12, 0);
    finish(env, &list);

    {
        /* regions: (sample point, expected) */
        static const struct { int x, y; int color[4]; } probes[] = {
            {12, 12, {255, 0, 0, 255}},     /* red alone */
            {30, 30, {255, 0, 0, 255}},     /* red in front of blue */
            {50, 50, {0, 0, 255, 255}},     /* blue alone */
            {2, 60, {0, 0, 0, 255}},        /* nothing */
            {36, 12, {127, 128, 0, 128}},   /* green half over red: 0.5 * (0, 255, 0) + 0.5 * (255, 0, 0); alpha is the source's (ONE, ZERO) */
            {60, 4, {0, 128, 0, 128}},      /* green half over the clear colour */
            {48, 28, {0, 128, 127, 128}},   /* green half over blue */
        };
        for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
            const uint8_t *p = env->pixels[probes[i].y][probes[i].x];
            CHECK_MSG(pixel_is(env, probes[i].x, probes[i].y, probes[i].color, 2), "pixel (%d, %d) is %u %u %u %u, expected %d %d %d %d",
                    probes[i].x, probes[i].y, p[0], p[1], p[2], p[3], probes[i].color[0], probes[i].color[1], probes[i].color[2],
                    probes[i].color[3]);
        }
    }
    ID3D12Resource_Release(vb);
    ID3D12PipelineState_Release(opaque);
    ID3D12PipelineState_Release(blended);
}

/* Indexed and instanced draws. Four instances of a quad, each moved by its per-instance offset
 * (slot 1, from StartInstanceLocation 1 on) and coloured by SV_InstanceID, which counts from 0;
 * the quad's corners come from the vertex buffer past BaseVertexLocation 4, and SV_VertexID is the
 * index (0 to 3), not the index plus the base: the first triangle's provoking vertex (its first,
 * as in D3D12) 0 gives green 0, the second's vertex 2 green 0.5. */
static void test_indexed_instanced(struct env *env, ID3D12RootSignature *signature)
{
    static const char source[] =
        "struct V { float4 pos : SV_Position; nointerpolation float4 color : COLOR; };\n"
        "V vs(float2 pos : POSITION, float2 offset : OFFSET, uint vid : SV_VertexID, uint iid : SV_InstanceID)\n"
        "{ V o; o.pos = float4(pos + offset, 0.5, 1); o.color = float4(0.25 * iid, 0.25 * vid, 1, 1); return o; }\n"
        "float4 ps(V i) : SV_Target { return i.color; }\n";
    static const D3D12_INPUT_ELEMENT_DESC layout[] = {
        {"POSITION", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
        {"OFFSET", 0, DXGI_FORMAT_R32G32_FLOAT, 1, 0, D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA, 1},
    };
    /* 4 corners that must never be read, then the quad of 16 x 16 pixels at the top left */
    static const float corners[8][2] = {{9, 9}, {9, 9}, {9, 9}, {9, 9}, {-1.0f, 1.0f}, {-0.5f, 1.0f}, {-1.0f, 0.5f}, {-0.5f, 0.5f}};
    /* instance 0 is never read (StartInstanceLocation 1): instances move right and down */
    static const float offsets[5][2] = {{9, 9}, {0.0f, 0.0f}, {0.5f, 0.0f}, {0.0f, -0.5f}, {1.0f, -1.0f}};
    static const uint16_t indices[6] = {0, 1, 2, 2, 1, 3};
    static const float clear[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    ID3D12PipelineState *state = pipeline(env, signature, source, layout, 2, NULL);
    ID3D12Resource *vb = harness_upload_buffer(env->device, corners, sizeof(corners)), *instances = harness_upload_buffer(env->device, offsets, sizeof(offsets));
    ID3D12Resource *ib = harness_upload_buffer(env->device, indices, sizeof(indices));
    D3D12_VERTEX_BUFFER_VIEW views[2] = {
        {ID3D12Resource_GetGPUVirtualAddress(vb), sizeof(corners), sizeof(corners[0])},
        {ID3D12Resource_GetGPUVirtualAddress(instances), sizeof(offsets), sizeof(offsets[0])},
    };
    D3D12_INDEX_BUFFER_VIEW index_view = {ID3D12Resource_GetGPUVirtualAddress(ib), sizeof(indices), DXGI_FORMAT_R16_UINT};
    struct harness_list list = begin(env, clear);
    static const int origins[4][2] = {{0, 0}, {16, 0}, {0, 16}, {32, 32}};

    ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 2, views);
    ID3D12GraphicsCommandList2_IASetIndexBuffer(list.list, &index_view);
    ID3D12GraphicsCommandList2_DrawIndexedInstanced(list.list, 6, 4, 0, 4, 1);
    finish(env, &list);

    for (int i = 0; i < 4; i++) {
        /* top-left half (first triangle) and bottom-right half (second) of each quad */
        const int first[4] = {(int)lrintf(255 * 0.25f * i), 0, 255, 255}, second[4] = {(int)lrintf(255 * 0.25f * i), 128, 255, 255};
        int x = origins[i][0], y = origins[i][1];
        CHECK_MSG(pixel_is(env, x + 3, y + 3, first, 1), "instance %d, first triangle: %u %u %u %u", i, env->pixels[y + 3][x + 3][0],
                env->pixels[y + 3][x + 3][1], env->pixels[y + 3][x + 3][2], env->pixels[y + 3][x + 3][3]);
        CHECK_MSG(pixel_is(env, x + 12, y + 12, second, 1), "instance %d, second triangle: %u %u %u %u", i, env->pixels[y + 12][x + 12][0],
                env->pixels[y + 12][x + 12][1], env->pixels[y + 12][x + 12][2], env->pixels[y + 12][x + 12][3]);
    }
    {
        static const int black[4] = {0, 0, 0, 255};
        CHECK(pixel_is(env, 40, 8, black, 0));
        CHECK(pixel_is(env, 8, 40, black, 0));
    }
    ID3D12Resource_Release(vb);
    ID3D12Resource_Release(instances);
    ID3D12Resource_Release(ib);
    ID3D12PipelineState_Release(state);
}

/* Pipelines of different vertex inputs in turn in one pass: one reading slot 0, one reading slots 0
 * and 1, one reading none (its bind leaves the strides undefined), the first again. Each draw
 * after a pipeline change reads the vertex buffers set before it (the strides go again where the
 * last pipeline had none or fewer slots; the validation layer reports a draw without them). */
static void test_pipeline_switches(struct env *env, ID3D12RootSignature *signature)
{
    static const char one_slot[] =
        "float4 vs(float2 pos : POSITION) : SV_Position { return float4(pos, 0.5, 1); }\n"
        "float4 ps() : SV_Target { return float4(0, 0, 1, 1); }\n";
    static const char two_slots[] =
        "float4 vs(float2 pos : POSITION, float2 offset : OFFSET) : SV_Position { return float4(pos + offset, 0.5, 1); }\n"
        "float4 ps() : SV_Target { return float4(1, 0, 0, 1); }\n";
    static const char no_input[] =
        "static const float2 corners[3] = {float2(0.5, -1), float2(1, -1), float2(1, -0.5)};\n"
        "float4 vs(uint id : SV_VertexID) : SV_Position { return float4(corners[id], 0.5, 1); }\n"
        "float4 ps() : SV_Target { return float4(0, 1, 0, 1); }\n";
    static const D3D12_INPUT_ELEMENT_DESC layout[] = {
        {"POSITION", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
        {"OFFSET", 0, DXGI_FORMAT_R32G32_FLOAT, 1, 0, D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA, 1},
    };
    /* two quads of 16 x 16 pixels: at the top left, and 32 pixels to its right */
    static const float quads[12][2] = {
        {-1.0f, 1.0f}, {-0.5f, 1.0f}, {-1.0f, 0.5f}, {-1.0f, 0.5f}, {-0.5f, 1.0f}, {-0.5f, 0.5f},
        {0.0f, 1.0f}, {0.5f, 1.0f}, {0.0f, 0.5f}, {0.0f, 0.5f}, {0.5f, 1.0f}, {0.5f, 0.5f},
    };
    static const float offset[2] = {0.0f, -1.0f}; /* 32 pixels down */
    static const float clear[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    static const int blue[4] = {0, 0, 255, 255}, red[4] = {255, 0, 0, 255}, green[4] = {0, 255, 0, 255}, black[4] = {0, 0, 0, 255};
    ID3D12PipelineState *slot0 = pipeline(env, signature, one_slot, layout, 1, NULL);
    ID3D12PipelineState *slots01 = pipeline(env, signature, two_slots, layout, 2, NULL);
    ID3D12PipelineState *none = pipeline(env, signature, no_input, NULL, 0, NULL);
    ID3D12Resource *vb = harness_upload_buffer(env->device, quads, sizeof(quads)), *instances = harness_upload_buffer(env->device, offset, sizeof(offset));
    D3D12_VERTEX_BUFFER_VIEW views[2] = {
        {ID3D12Resource_GetGPUVirtualAddress(vb), sizeof(quads), sizeof(quads[0])},
        {ID3D12Resource_GetGPUVirtualAddress(instances), sizeof(offset), sizeof(offset)},
    };
    struct harness_list list = begin(env, clear);

    ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 2, views);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, slot0);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0);    /* blue at the top left */
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, slots01);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0);    /* red 32 pixels below it */
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, none);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 3, 1, 0, 0);    /* green at the bottom right */
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, slot0);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 6, 0);    /* blue at the top, right of the first */
    finish(env, &list);

    CHECK_MSG(pixel_is(env, 8, 8, blue, 0), "first quad: %u %u %u", env->pixels[8][8][0], env->pixels[8][8][1], env->pixels[8][8][2]);
    CHECK_MSG(pixel_is(env, 8, 40, red, 0), "offset quad: %u %u %u", env->pixels[40][8][0], env->pixels[40][8][1], env->pixels[40][8][2]);
    CHECK_MSG(pixel_is(env, 60, 60, green, 0), "no-input triangle: %u %u %u", env->pixels[60][60][0], env->pixels[60][60][1],
            env->pixels[60][60][2]);
    CHECK_MSG(pixel_is(env, 40, 8, blue, 0), "second quad: %u %u %u", env->pixels[8][40][0], env->pixels[8][40][1], env->pixels[8][40][2]);
    CHECK(pixel_is(env, 40, 40, black, 0));
    CHECK(pixel_is(env, 24, 8, black, 0));
    ID3D12Resource_Release(vb);
    ID3D12Resource_Release(instances);
    ID3D12PipelineState_Release(none);
    ID3D12PipelineState_Release(slots01);
    ID3D12PipelineState_Release(slot0);
}

/* Root arguments of every kind a draw reads: root constants (the vertex shader's offset, the
 * pixel shader's scale, one parameter visible to all), a root CBV (the tint) and a table with an
 * SRV (a 1 x 1 texture) visible to the pixel shader. The constants change between two draws in
 * one rendering pass; then another pipeline of the signature draws with the arguments set before
 * it (the scale, the CBV, the table) and a new offset, and after a heap change, one that reads no
 * table and then the first again, through the new heap. */
static void test_root_arguments(struct env *env)
{
    static const char source[] =
        "cbuffer Root : register(b0) { float2 offset; float scale; float unused; };\n"
        "cbuffer Tint : register(b1) { float4 tint; };\n"
        "Texture2D<float4> tex : register(t0);\n"
        "float4 vs(float3 pos : POSITION) : SV_Position { return float4(pos.xy + offset, pos.z, 1); }\n"
        "float4 ps() : SV_Target { return tint * tex.Load(int3(0, 0, 0)) * scale; }\n"
        "float4 ps_swapped() : SV_Target { return (tint * tex.Load(int3(0, 0, 0)) * scale).bgra; }\n"
        "float4 ps_untextured() : SV_Target { return tint * scale; }\n";
    static const D3D12_INPUT_ELEMENT_DESC layout[] = {{"POSITION", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0,
            D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0}};
    static const float clear[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    static const float tint[4] = {1.0f, 0.5f, 0.25f, 1.0f};
    static const uint8_t texel[256] = {255, 255, 128, 255}; /* one row, pitch 256 */
    static const uint8_t green_texel[256] = {0, 255, 0, 255};
    static const uint8_t white[4] = {255, 255, 255, 255};
    D3D12_DESCRIPTOR_RANGE1 range = {D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 1, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 0};
    D3D12_ROOT_PARAMETER1 parameters[3];
    struct vertex vertices[6];
    ID3D12RootSignature *signature;
    ID3D12PipelineState *state, *swapped, *untextured;
    ID3D12Resource *vb, *cb, *tex, *staging, *green_tex, *green_staging;
    ID3D12DescriptorHeap *heap, *green_heap;
    struct harness_list list;

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 4;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_CBV;
    parameters[1].Descriptor.ShaderRegister = 1;
    parameters[1].ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL;
    parameters[2].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    parameters[2].DescriptorTable.NumDescriptorRanges = 1;
    parameters[2].DescriptorTable.pDescriptorRanges = &range;
    parameters[2].ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL;
    signature = harness_root_signature(env->device, parameters, 3, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT
            | D3D12_ROOT_SIGNATURE_FLAG_DENY_HULL_SHADER_ROOT_ACCESS | D3D12_ROOT_SIGNATURE_FLAG_DENY_DOMAIN_SHADER_ROOT_ACCESS
            | D3D12_ROOT_SIGNATURE_FLAG_DENY_GEOMETRY_SHADER_ROOT_ACCESS);
    state = pipeline(env, signature, source, layout, 1, NULL);
    swapped = pipeline_with_ps(env, signature, source, "ps_swapped", layout, 1);
    untextured = pipeline_with_ps(env, signature, source, "ps_untextured", layout, 1);
    rectangle(vertices, 0, 0, 16, 16, 0.5f, white);
    vb = harness_upload_buffer(env->device, vertices, sizeof(vertices));
    cb = harness_upload_buffer(env->device, tint, sizeof(tint));
    staging = harness_upload_buffer(env->device, texel, sizeof(texel));
    tex = texture(env->device, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_COPY_DEST);
    green_staging = harness_upload_buffer(env->device, green_texel, sizeof(green_texel));
    green_tex = texture(env->device, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_COPY_DEST);
    heap = descriptor_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4, true);
    green_heap = descriptor_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4, true);
    {
        D3D12_CPU_DESCRIPTOR_HANDLE srv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap);
        D3D12_CPU_DESCRIPTOR_HANDLE green_srv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(green_heap);
        srv.ptr += 2 * ID3D12Device_GetDescriptorHandleIncrementSize(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
        green_srv.ptr += 2 * ID3D12Device_GetDescriptorHandleIncrementSize(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
        ID3D12Device_CreateShaderResourceView(env->device, tex, NULL, srv);
        ID3D12Device_CreateShaderResourceView(env->device, green_tex, NULL, green_srv);
    }

    list = begin(env, clear);
    {
        D3D12_TEXTURE_COPY_LOCATION dst = {tex, D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX, {.SubresourceIndex = 0}};
        D3D12_TEXTURE_COPY_LOCATION src = {staging, D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT, {.PlacedFootprint = {0,
                {DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, 1, 256}}}};
        ID3D12GraphicsCommandList2_CopyTextureRegion(list.list, &dst, 0, 0, 0, &src, NULL);
        transition(list.list, tex, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE);
        dst.pResource = green_tex;
        src.pResource = green_staging;
        ID3D12GraphicsCommandList2_CopyTextureRegion(list.list, &dst, 0, 0, 0, &src, NULL);
        transition(list.list, green_tex, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE);
    }
    {
        const float first[4] = {0.0f, 0.0f, 1.0f, 0.0f}, second[3] = {0.5f, -0.5f, 0.5f}, third[2] = {1.0f, -1.0f};
        const float fourth[2] = {1.5f, 0.0f}, fifth[2] = {1.5f, -1.5f};
        D3D12_GPU_DESCRIPTOR_HANDLE table = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(heap);
        D3D12_GPU_DESCRIPTOR_HANDLE green_table = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(green_heap);
        green_table.ptr += 2 * ID3D12Device_GetDescriptorHandleIncrementSize(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
        D3D12_VERTEX_BUFFER_VIEW view = {ID3D12Resource_GetGPUVirtualAddress(vb), sizeof(vertices), sizeof(vertices[0])};
        table.ptr += 2 * ID3D12Device_GetDescriptorHandleIncrementSize(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
        ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &heap);
        ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, signature);
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
        ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 1, &view);
        ID3D12GraphicsCommandList2_SetGraphicsRoot32BitConstants(list.list, 0, 4, first, 0);
        ID3D12GraphicsCommandList2_SetGraphicsRootConstantBufferView(list.list, 1, ID3D12Resource_GetGPUVirtualAddress(cb));
        ID3D12GraphicsCommandList2_SetGraphicsRootDescriptorTable(list.list, 2, table);
        ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0);
        /* the second quad: moved by the vertex shader's constants, half as bright by the pixel shader's */
        ID3D12GraphicsCommandList2_SetGraphicsRoot32BitConstants(list.list, 0, 3, second, 0);
        ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0);
        /* the third: another pipeline of the signature, only the offset set again (the scale stays 0.5) */
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, swapped);
        ID3D12GraphicsCommandList2_SetGraphicsRoot32BitConstants(list.list, 0, 2, third, 0);
        ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0);
        /* another heap, first under a pipeline that reads no table; then the textured pipeline
         * again reads the same slot of the new heap (its sets must move to it) */
        ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &green_heap);
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, untextured);
        ID3D12GraphicsCommandList2_SetGraphicsRoot32BitConstants(list.list, 0, 2, fourth, 0);
        ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0);
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
        ID3D12GraphicsCommandList2_SetGraphicsRootDescriptorTable(list.list, 2, green_table);
        ID3D12GraphicsCommandList2_SetGraphicsRoot32BitConstants(list.list, 0, 2, fifth, 0);
        ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0);
    }
    finish(env, &list);
    {
        /* tint (1, 0.5, 0.25, 1) times the texel (1, 1, 0.5, 1): (255, 128, 32, 255), then half of it */
        static const int full[4] = {255, 128, 32, 255}, half[4] = {128, 64, 16, 128}, swapped_half[4] = {16, 64, 128, 128};
        static const int half_tint[4] = {128, 64, 32, 128}, half_green[4] = {0, 64, 0, 128}, none[4] = {0, 0, 0, 0};
        CHECK_MSG(pixel_is(env, 8, 8, full, 2), "first quad: %u %u %u %u", env->pixels[8][8][0], env->pixels[8][8][1], env->pixels[8][8][2],
                env->pixels[8][8][3]);
        CHECK_MSG(pixel_is(env, 24, 24, half, 2), "second quad: %u %u %u %u", env->pixels[24][24][0], env->pixels[24][24][1],
                env->pixels[24][24][2], env->pixels[24][24][3]);
        CHECK_MSG(pixel_is(env, 40, 40, swapped_half, 2), "third quad (another pipeline): %u %u %u %u", env->pixels[40][40][0],
                env->pixels[40][40][1], env->pixels[40][40][2], env->pixels[40][40][3]);
        CHECK_MSG(pixel_is(env, 56, 8, half_tint, 2), "fourth quad (no table): %u %u %u %u", env->pixels[8][56][0], env->pixels[8][56][1],
                env->pixels[8][56][2], env->pixels[8][56][3]);
        CHECK_MSG(pixel_is(env, 56, 56, half_green, 2), "fifth quad (the other heap): %u %u %u %u", env->pixels[56][56][0],
                env->pixels[56][56][1], env->pixels[56][56][2], env->pixels[56][56][3]);
        CHECK(pixel_is(env, 8, 56, none, 0));
    }
    ID3D12PipelineState_Release(untextured);
    ID3D12PipelineState_Release(swapped);
    ID3D12DescriptorHeap_Release(green_heap);
    ID3D12Resource_Release(green_tex);
    ID3D12Resource_Release(green_staging);
    ID3D12DescriptorHeap_Release(heap);
    ID3D12Resource_Release(tex);
    ID3D12Resource_Release(staging);
    ID3D12Resource_Release(cb);
    ID3D12Resource_Release(vb);
    ID3D12PipelineState_Release(state);
    ID3D12RootSignature_Release(signature);
}

/* The rendering pass ends before what cannot be inside one and the targets keep their contents:
 * a draw, a clear of part of the target, a dispatch and a copy, another draw. */
static void test_pass_boundaries(struct env *env, ID3D12RootSignature *signature)
{
    static const uint8_t red[4] = {255, 0, 0, 255}, green[4] = {0, 255, 0, 255};
    static const float clear[4] = {0.0f, 0.0f, 0.0f, 1.0f}, blue[4] = {0.0f, 0.0f, 1.0f, 1.0f};
    struct vertex vertices[12];
    ID3D12PipelineState *state = pipeline(env, signature, color_source, vertex_layout, 2, NULL);
    ID3D10Blob *empty = harness_compile("[numthreads(1, 1, 1)] void main() {}", 0);
    ID3D12PipelineState *compute = harness_compute_pipeline(env->device, signature, empty);
    ID3D12Resource *vb, *scratch = harness_create_buffer(env->device, D3D12_HEAP_TYPE_DEFAULT, 256, D3D12_RESOURCE_STATE_COMMON);
    ID3D12Resource *scratch2 = harness_create_buffer(env->device, D3D12_HEAP_TYPE_DEFAULT, 256, D3D12_RESOURCE_STATE_COMMON);
    struct harness_list list;
    D3D12_VERTEX_BUFFER_VIEW view;
    const D3D12_RECT clear_rect = {32, 0, 64, 32};

    rectangle(&vertices[0], 0, 0, 32, 32, 0.5f, red);
    rectangle(&vertices[6], 0, 32, 32, 64, 0.5f, green);
    vb = harness_upload_buffer(env->device, vertices, sizeof(vertices));
    view = (D3D12_VERTEX_BUFFER_VIEW){ID3D12Resource_GetGPUVirtualAddress(vb), sizeof(vertices), sizeof(vertices[0])};
    list = begin(env, clear);
    ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 1, &view);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0);
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, env->rtv, blue, 1, &clear_rect);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, compute);
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, scratch2, 0, scratch, 0, 16);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 6, 0);
    finish(env, &list);
    {
        static const int r[4] = {255, 0, 0, 255}, g[4] = {0, 255, 0, 255}, b[4] = {0, 0, 255, 255}, k[4] = {0, 0, 0, 255};
        CHECK(pixel_is(env, 8, 8, r, 0));
        CHECK(pixel_is(env, 8, 40, g, 0));
        CHECK(pixel_is(env, 40, 8, b, 0));
        CHECK(pixel_is(env, 40, 40, k, 0));
    }
    ID3D12Resource_Release(vb);
    ID3D12Resource_Release(scratch);
    ID3D12Resource_Release(scratch2);
    ID3D12PipelineState_Release(compute);
    ID3D12PipelineState_Release(state);
    ID3D10Blob_Release(empty);
}

/* Occlusion queries count what draws pass: a 16 x 16 rectangle, then one hidden behind it. The
 * query's begin and end stand outside rendering passes (each ends the open one). */
static void test_occlusion(struct env *env, ID3D12RootSignature *signature)
{
    static const uint8_t red[4] = {255, 0, 0, 255};
    static const float clear[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    D3D12_QUERY_HEAP_DESC heap_desc = {D3D12_QUERY_HEAP_TYPE_OCCLUSION, 2, 0};
    struct vertex vertices[12];
    ID3D12PipelineState *state = pipeline(env, signature, color_source, vertex_layout, 2, NULL);
    ID3D12Resource *vb, *results = harness_create_buffer(env->device, D3D12_HEAP_TYPE_DEFAULT, 16, D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12QueryHeap *heap = NULL;
    struct harness_list list;
    D3D12_VERTEX_BUFFER_VIEW view;
    uint64_t counts[2] = {0, 0};

    CHECK_HR(ID3D12Device_CreateQueryHeap(env->device, &heap_desc, &IID_ID3D12QueryHeap, (void **)&heap), S_OK);
    rectangle(&vertices[0], 8, 8, 24, 24, 0.5f, red);
    rectangle(&vertices[6], 8, 8, 24, 24, 0.9f, red);
    vb = harness_upload_buffer(env->device, vertices, sizeof(vertices));
    view = (D3D12_VERTEX_BUFFER_VIEW){ID3D12Resource_GetGPUVirtualAddress(vb), sizeof(vertices), sizeof(vertices[0])};
    list = begin(env, clear);
    ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 1, &view);
    ID3D12GraphicsCommandList2_BeginQuery(list.list, heap, D3D12_QUERY_TYPE_OCCLUSION, 0);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0);
    ID3D12GraphicsCommandList2_EndQuery(list.list, heap, D3D12_QUERY_TYPE_OCCLUSION, 0);
    ID3D12GraphicsCommandList2_BeginQuery(list.list, heap, D3D12_QUERY_TYPE_OCCLUSION, 1);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 6, 0);
    ID3D12GraphicsCommandList2_EndQuery(list.list, heap, D3D12_QUERY_TYPE_OCCLUSION, 1);
    ID3D12GraphicsCommandList2_ResolveQueryData(list.list, heap, D3D12_QUERY_TYPE_OCCLUSION, 0, 2, results, 0);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    harness_read_back(env->device, env->queue, results, counts, sizeof(counts));
    CHECK_MSG(counts[0] == 256, "the visible rectangle passed %llu samples (256 expected)", (unsigned long long)counts[0]);
    CHECK_MSG(counts[1] == 0, "the hidden rectangle passed %llu samples", (unsigned long long)counts[1]);
    ID3D12QueryHeap_Release(heap);
    ID3D12Resource_Release(results);
    ID3D12Resource_Release(vb);
    ID3D12PipelineState_Release(state);
}

/* Draws whose state D3D12 leaves undefined are skipped with a debug-layer warning; wrong
 * arguments make the list invalid. */
static void test_draw_errors(struct env *env, ID3D12RootSignature *signature)
{
    static const float clear[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    ID3D12PipelineState *state = pipeline(env, signature, color_source, vertex_layout, 2, NULL);
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    size_t warnings = harness_warning_count();
    D3D12_VIEWPORT viewport = {0.0f, 0.0f, -1.0f, 4.0f, 0.0f, 1.0f};

    (void)clear;
    ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_OMSetRenderTargets(list.list, 1, &env->rtv, FALSE, NULL);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 3, 1, 0, 0); /* no topology */
    CHECK_DEBUG_WARNINGS(warnings, 1, "is not of the pipeline's type");
    warnings = harness_warning_count();
    ID3D12GraphicsCommandList2_IASetPrimitiveTopology(list.list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 3, 1, 0, 0); /* no viewport */
    CHECK_DEBUG_WARNINGS(warnings, 1, "no viewport is set");
    {
        LOG_MARK();
        ID3D12GraphicsCommandList2_RSSetViewports(list.list, 1, &viewport);
        CHECK_LOG("pViewports[0] is -1 x 4");
        RELOG_MARK();
        CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
        CHECK_LOG("recorded an invalid command");
    }
    harness_release_list(&list);
    {
        struct harness_list compute = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
        LOG_MARK();
        ID3D12GraphicsCommandList2_DrawInstanced(compute.list, 3, 1, 0, 0);
        CHECK_LOG("only DIRECT lists draw");
        RELOG_MARK();
        CHECK_HR(ID3D12GraphicsCommandList2_Close(compute.list), E_INVALIDARG);
        CHECK_LOG("recorded an invalid command");
        harness_release_list(&compute);
    }
    ID3D12PipelineState_Release(state);
}

/* Bundles draw: their own pipeline and topology (never inherited), the caller's render targets,
 * viewport and graphics root signature; a draw in a bundle without either is refused there. */
static void test_bundle_draws(struct env *env, ID3D12RootSignature *signature)
{
    static const uint8_t red[4] = {255, 0, 0, 255};
    static const float clear[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    static const int expect_red[4] = {255, 0, 0, 255}, expect_black[4] = {0, 0, 0, 255};
    struct vertex vertices[6];
    ID3D12PipelineState *state = pipeline(env, signature, color_source, vertex_layout, 2, NULL);
    ID3D12Resource *vb;
    ID3D12CommandAllocator *allocator;
    ID3D12GraphicsCommandList2 *bundle;
    struct harness_list list;
    D3D12_VERTEX_BUFFER_VIEW view;
    LOG_MARK();

    rectangle(vertices, 8, 8, 24, 40, 0.5f, red);
    vb = harness_upload_buffer(env->device, vertices, sizeof(vertices));
    view = (D3D12_VERTEX_BUFFER_VIEW){ID3D12Resource_GetGPUVirtualAddress(vb), sizeof(vertices), sizeof(vertices[0])};
    CHECK_HR(ID3D12Device_CreateCommandAllocator(env->device, D3D12_COMMAND_LIST_TYPE_BUNDLE, &IID_ID3D12CommandAllocator,
            (void **)&allocator), S_OK);
    CHECK_HR(ID3D12Device_CreateCommandList(env->device, 0, D3D12_COMMAND_LIST_TYPE_BUNDLE, allocator, state, &IID_ID3D12GraphicsCommandList2,
            (void **)&bundle), S_OK);
    ID3D12GraphicsCommandList2_IASetPrimitiveTopology(bundle, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    ID3D12GraphicsCommandList2_IASetVertexBuffers(bundle, 0, 1, &view);
    ID3D12GraphicsCommandList2_DrawInstanced(bundle, 6, 1, 0, 0);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(bundle), S_OK);

    list = begin(env, clear);
    ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_ExecuteBundle(list.list, (ID3D12GraphicsCommandList *)bundle);
    finish(env, &list);
    CHECK_NO_LOG();
    CHECK(pixel_is(env, 10, 10, expect_red, 0));
    CHECK(pixel_is(env, 22, 38, expect_red, 0));
    CHECK(pixel_is(env, 30, 10, expect_black, 0));
    CHECK(pixel_is(env, 10, 45, expect_black, 0));

    /* No topology of its own: the draw is refused in the bundle, which then fails to close. */
    CHECK_HR(ID3D12CommandAllocator_Reset(allocator), S_OK);
    CHECK_HR(ID3D12GraphicsCommandList2_Reset(bundle, allocator, state), S_OK);
    ID3D12GraphicsCommandList2_DrawInstanced(bundle, 6, 1, 0, 0);
    CHECK_LOG("DrawInstanced", "no primitive topology is set in the bundle");
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(bundle), E_INVALIDARG);
    CHECK_LOG("Close", "no primitive topology");
    /* Render targets are the caller's alone. */
    CHECK_HR(ID3D12CommandAllocator_Reset(allocator), S_OK);
    CHECK_HR(ID3D12GraphicsCommandList2_Reset(bundle, allocator, state), S_OK);
    RELOG_MARK();
    ID3D12GraphicsCommandList2_OMSetRenderTargets(bundle, 1, &env->rtv, TRUE, NULL);
    CHECK_LOG("OMSetRenderTargets", "bundle");
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(bundle), E_INVALIDARG);
    CHECK_LOG("Close", "OMSetRenderTargets");

    ID3D12GraphicsCommandList2_Release(bundle);
    ID3D12CommandAllocator_Release(allocator);
    ID3D12Resource_Release(vb);
    ID3D12PipelineState_Release(state);
}

int main(void)
{
    struct env env;
    ID3D12RootSignature *signature;

    harness_init();
    memset(&env, 0, sizeof(env));
    setup(&env);
    signature = harness_root_signature(env.device, NULL, 0, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT);

    test_triangle(&env, signature);
    test_depth_and_blend(&env, signature);
    test_indexed_instanced(&env, signature);
    test_pipeline_switches(&env, signature);
    test_root_arguments(&env);
    test_pass_boundaries(&env, signature);
    test_occlusion(&env, signature);
    test_draw_errors(&env, signature);
    test_bundle_draws(&env, signature);

    ID3D12RootSignature_Release(signature);
    teardown(&env);
    return harness_finish();
}
