/* View instancing with locations multiview cannot express (D3D12_VIEW_INSTANCE_LOCATION other
 * than view i into array slice i through viewport 0): views into other slices, through other
 * viewports, with masking, from a bundle; SV_ViewID in the vertex and pixel shaders; a vertex or
 * geometry shader writing SV_RenderTargetArrayIndex itself, which D3D12 adds to the location
 * (0 where the sum is past the target's slices); a domain shader placing them; a pipeline made
 * again from its cached blob; an occlusion query across the views; and the refusals: a pixel shader reading
 * SV_ViewID that the root signature denies root access; ExecuteIndirect draws, once per view.
 * Every slice of a
 * 4-slice target is read back. */
#include <stdio.h>
#include <string.h>

#include "small_target.h"

#define SLICES 4

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12RootSignature *signature;
    ID3D12Resource *target, *readback;
    ID3D12DescriptorHeap *rtv_heap;
    D3D12_CPU_DESCRIPTOR_HANDLE rtv;
    ID3D10Blob *vs, *ps, *vs_layer, *gs_layer, *hs, *ds;
    D3D12_CACHED_PIPELINE_STATE cached; /* create_pipeline's CACHED_PSO where not empty */
    bool tessellate;                    /* create_pipeline's HS and DS, patches */
    uint8_t pixels[HEIGHT][WIDTH][4]; /* CHECK_PIXEL's: the slice checked last */
    uint8_t slices[SLICES][HEIGHT][WIDTH][4];
};

/* A full-target triangle; the vertex shader passes the view on as red ((view + 1) / 4), the pixel
 * shader reads SV_ViewID itself for green (view 1) and blue (view 2). vs_layer writes
 * SV_RenderTargetArrayIndex 1 itself; gs_layer passes the triangle through writing it 1; hs and
 * ds tessellate it into itself (the DS is then the stage that places the views). */
static const char view_source[] =
    "struct V { float4 pos : SV_Position; float red : RED; };\n"
    "struct L { float4 pos : SV_Position; float red : RED; uint slice : SV_RenderTargetArrayIndex; };\n"
    "float4 corner(uint id) { float2 uv = float2((id << 1) & 2, id & 2); return float4(uv * float2(2, -2) + float2(-1, 1), 0, 1); }\n"
    "V vs(uint id : SV_VertexID, uint view : SV_ViewID)\n"
    "{ V o; o.pos = corner(id); o.red = (view + 1) * 0.25; return o; }\n"
    "L vs_layer(uint id : SV_VertexID, uint view : SV_ViewID)\n"
    "{ L o; o.pos = corner(id); o.red = (view + 1) * 0.25; o.slice = 1; return o; }\n"
    "[maxvertexcount(3)] void gs_layer(triangle V input[3], inout TriangleStream<L> stream)\n"
    "{ for (uint k = 0; k < 3; k++) { L o; o.pos = input[k].pos; o.red = input[k].red; o.slice = 1; stream.Append(o); } }\n"
    "struct C { float edges[3] : SV_TessFactor; float inside : SV_InsideTessFactor; };\n"
    "C constants(InputPatch<V, 3> patch) { C c; c.edges[0] = c.edges[1] = c.edges[2] = 1; c.inside = 1; return c; }\n"
    "[domain(\"tri\")] [partitioning(\"integer\")] [outputtopology(\"triangle_cw\")] [outputcontrolpoints(3)]\n"
    "[patchconstantfunc(\"constants\")] V hs(InputPatch<V, 3> patch, uint i : SV_OutputControlPointID) { return patch[i]; }\n"
    "[domain(\"tri\")] V ds(C c, float3 uvw : SV_DomainLocation, const OutputPatch<V, 3> patch)\n"
    "{ V o; o.pos = patch[0].pos * uvw.x + patch[1].pos * uvw.y + patch[2].pos * uvw.z; o.red = patch[0].red; return o; }\n"
    "float4 ps(V i, uint view : SV_ViewID) : SV_Target { return float4(i.red, view == 1 ? 1 : 0, view == 2 ? 1 : 0, 1); }\n";

static const float black_f[4] = {0.0f, 0.0f, 0.0f, 1.0f};
static const uint8_t black[4] = {0, 0, 0, 255};
/* What view i writes */
static const uint8_t view_colors[3][4] = {{64, 0, 0, 255}, {128, 255, 0, 255}, {191, 0, 255, 255}};

struct stream_builder {
    _Alignas(void *) unsigned char bytes[1024];
    size_t size;
};

static void add_subobject(struct stream_builder *b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE type, const void *inner, size_t size, size_t align)
{
    size_t offset = (b->size + sizeof(void *) - 1) & ~(sizeof(void *) - 1), at;
    memcpy(b->bytes + offset, &type, sizeof(type));
    at = (offset + sizeof(type) + align - 1) & ~(align - 1);
    memcpy(b->bytes + at, inner, size);
    b->size = (at + size + sizeof(void *) - 1) & ~(sizeof(void *) - 1);
}
#define ADD(b, type, value) add_subobject(b, type, &(value), sizeof(value), _Alignof(__typeof__(value)))

static D3D12_SHADER_BYTECODE code(ID3D10Blob *blob)
{
    return (D3D12_SHADER_BYTECODE){ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob)};
}

/* A stream of vs (and gs where not NULL) and ps into one RGBA8 target with view instancing
 * (views, locations, flags), root signature `signature`. */
static HRESULT create_pipeline(struct env *env, ID3D12RootSignature *signature, ID3D10Blob *vs, ID3D10Blob *gs, UINT views,
        const D3D12_VIEW_INSTANCE_LOCATION *locations, D3D12_VIEW_INSTANCING_FLAGS flags, ID3D12PipelineState **state)
{
    const D3D12_SHADER_BYTECODE vs_code = code(vs), ps_code = code(env->ps);
    const D3D12_PRIMITIVE_TOPOLOGY_TYPE topology = env->tessellate ? D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH
            : D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
    const D3D12_RT_FORMAT_ARRAY formats = {{DXGI_FORMAT_R8G8B8A8_UNORM}, 1};
    const D3D12_RASTERIZER_DESC2 rasterizer = {D3D12_FILL_MODE_SOLID, D3D12_CULL_MODE_NONE, FALSE, 0.0f, 0.0f, 0.0f, TRUE,
            D3D12_LINE_RASTERIZATION_MODE_ALIASED, 0, D3D12_CONSERVATIVE_RASTERIZATION_MODE_OFF};
    const D3D12_VIEW_INSTANCING_DESC vi = {views, locations, flags};
    D3D12_DEPTH_STENCIL_DESC depth_stencil;
    struct stream_builder b;
    D3D12_PIPELINE_STATE_STREAM_DESC desc;
    ID3D12Device2 *device2;
    HRESULT hr;

    memset(&depth_stencil, 0, sizeof(depth_stencil));
    memset(&b, 0, sizeof(b));
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_ROOT_SIGNATURE, signature);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VS, vs_code);
    if (gs) {
        const D3D12_SHADER_BYTECODE gs_code = code(gs);
        ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_GS, gs_code);
    }
    if (env->tessellate) {
        const D3D12_SHADER_BYTECODE hs_code = code(env->hs), ds_code = code(env->ds);
        ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_HS, hs_code);
        ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DS, ds_code);
    }
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PS, ps_code);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PRIMITIVE_TOPOLOGY, topology);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RENDER_TARGET_FORMATS, formats);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RASTERIZER2, rasterizer);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL, depth_stencil);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VIEW_INSTANCING, vi);
    if (env->cached.CachedBlobSizeInBytes)
        ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CACHED_PSO, env->cached);
    desc = (D3D12_PIPELINE_STATE_STREAM_DESC){b.size, b.bytes};
    *state = NULL;
    CHECK_HR(ID3D12Device_QueryInterface(env->device, &IID_ID3D12Device2, (void **)&device2), S_OK);
    hr = ID3D12Device2_CreatePipelineState(device2, &desc, &IID_ID3D12PipelineState, (void **)state);
    ID3D12Device2_Release(device2);
    return hr;
}

static ID3D12PipelineState *located_pipeline(struct env *env, ID3D10Blob *vs, ID3D10Blob *gs, UINT views,
        const D3D12_VIEW_INSTANCE_LOCATION *locations, D3D12_VIEW_INSTANCING_FLAGS flags)
{
    ID3D12PipelineState *state;
    CHECK_HR(create_pipeline(env, env->signature, vs, gs, views, locations, flags, &state), S_OK);
    return state;
}

static void setup(struct env *env)
{
    D3D12_DESCRIPTOR_HEAP_DESC rtv_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    D3D12_HEAP_PROPERTIES heap = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    D3D12_RESOURCE_DESC desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8G8B8A8_UNORM, WIDTH, HEIGHT, SLICES, 1);

    env->device = harness_create_device();
    env->queue = harness_create_queue(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    env->signature = harness_root_signature(env->device, NULL, 0, D3D12_ROOT_SIGNATURE_FLAG_NONE);
    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    CHECK_HR(ID3D12Device_CreateCommittedResource(env->device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_RENDER_TARGET, NULL,
            &IID_ID3D12Resource, (void **)&env->target), S_OK);
    env->readback = harness_create_buffer(env->device, D3D12_HEAP_TYPE_READBACK, ROW_PITCH * HEIGHT * SLICES, D3D12_RESOURCE_STATE_COPY_DEST);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &rtv_desc, &IID_ID3D12DescriptorHeap, (void **)&env->rtv_heap), S_OK);
    env->rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(env->rtv_heap);
    ID3D12Device_CreateRenderTargetView(env->device, env->target, NULL, env->rtv);
    env->vs = harness_compile_stage(view_source, "vs", "vs_6_1");
    env->ps = harness_compile_stage(view_source, "ps", "ps_6_1");
    env->vs_layer = harness_compile_stage(view_source, "vs_layer", "vs_6_1");
    env->gs_layer = harness_compile_stage(view_source, "gs_layer", "gs_6_1");
    env->hs = harness_compile_stage(view_source, "hs", "hs_6_1");
    env->ds = harness_compile_stage(view_source, "ds", "ds_6_1");
}

static void teardown(struct env *env)
{
    ID3D10Blob *blobs[] = {env->vs, env->ps, env->vs_layer, env->gs_layer, env->hs, env->ds};
    for (size_t i = 0; i < sizeof(blobs) / sizeof(blobs[0]); i++)
        if (blobs[i])
            ID3D10Blob_Release(blobs[i]);
    ID3D12DescriptorHeap_Release(env->rtv_heap);
    ID3D12Resource_Release(env->readback);
    ID3D12Resource_Release(env->target);
    ID3D12RootSignature_Release(env->signature);
    ID3D12CommandQueue_Release(env->queue);
    harness_release_device(env->device);
}

/* A list drawing into the array target (every slice cleared black), one viewport and scissor
 * over the whole target. */
static struct harness_list begin(struct env *env)
{
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    const D3D12_VIEWPORT viewport = {0.0f, 0.0f, WIDTH, HEIGHT, 0.0f, 1.0f};
    const D3D12_RECT scissor = {0, 0, WIDTH, HEIGHT};
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, env->rtv, black_f, 0, NULL);
    ID3D12GraphicsCommandList2_OMSetRenderTargets(list.list, 1, &env->rtv, TRUE, NULL);
    ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, env->signature);
    ID3D12GraphicsCommandList2_RSSetViewports(list.list, 1, &viewport);
    ID3D12GraphicsCommandList2_RSSetScissorRects(list.list, 1, &scissor);
    ID3D12GraphicsCommandList2_IASetPrimitiveTopology(list.list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    return list;
}

static void draw(struct harness_list *list, ID3D12PipelineState *state)
{
    ID3D12GraphicsCommandList2_SetPipelineState(list->list, state);
    ID3D12GraphicsCommandList2_DrawInstanced(list->list, 3, 1, 0, 0);
}

/* Copies every slice out, runs the list and reads the slices back. */
static void finish(struct env *env, struct harness_list *list)
{
    target_read_slices(env->device, env->queue, list, env->target, env->readback, SLICES, env->slices);
}

/* Slice `slice` holds `left` in its left half and `right` in its right half. */
static void check_halves(struct env *env, UINT slice, const uint8_t left[4], const uint8_t right[4])
{
    memcpy(env->pixels, env->slices[slice], sizeof(env->pixels));
    CHECK_PIXEL(env, 0, 0, left, 1);
    CHECK_PIXEL(env, WIDTH / 2 - 1, HEIGHT / 2, left, 1);
    CHECK_PIXEL(env, WIDTH / 2, HEIGHT / 2, right, 1);
    CHECK_PIXEL(env, WIDTH - 1, HEIGHT - 1, right, 1);
}

static void check_slice(struct env *env, UINT slice, const uint8_t color[4])
{
    check_halves(env, slice, color, color);
}

/* View 0 into slice 2, view 1 into slice 0: slices 1 and 3 stay black; the same pipeline made
 * again from its cached blob draws the same. Then three views into slices 3, 1 and 2 by
 * DrawIndexedInstanced. */
static void test_other_slices(struct env *env)
{
    static const D3D12_VIEW_INSTANCE_LOCATION swapped[2] = {{0, 2}, {0, 0}}, spread[3] = {{0, 3}, {0, 1}, {0, 2}};
    ID3D12PipelineState *two = located_pipeline(env, env->vs, NULL, 2, swapped, D3D12_VIEW_INSTANCING_FLAG_NONE);
    ID3D12PipelineState *three = located_pipeline(env, env->vs, NULL, 3, spread, D3D12_VIEW_INSTANCING_FLAG_NONE);
    static const UINT16 indices[3] = {0, 1, 2};
    ID3D12Resource *index_buffer;
    D3D12_INDEX_BUFFER_VIEW ibv;
    struct harness_list list;

    list = begin(env);
    draw(&list, two);
    finish(env, &list);
    check_slice(env, 0, view_colors[1]);
    check_slice(env, 1, black);
    check_slice(env, 2, view_colors[0]);
    check_slice(env, 3, black);

    {
        ID3D12PipelineState *from_blob = NULL;
        ID3D10Blob *blob = NULL;
        CHECK_HR(ID3D12PipelineState_GetCachedBlob(two, &blob), S_OK);
        if (blob) {
            /* the one made from the description goes first: an identical live one would be taken */
            ID3D12PipelineState_Release(two);
            env->cached = (D3D12_CACHED_PIPELINE_STATE){ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob)};
            two = from_blob = located_pipeline(env, env->vs, NULL, 2, swapped, D3D12_VIEW_INSTANCING_FLAG_NONE);
            memset(&env->cached, 0, sizeof(env->cached));
            ID3D10Blob_Release(blob);
        }
        if (from_blob) {
            list = begin(env);
            draw(&list, from_blob);
            finish(env, &list);
            check_slice(env, 0, view_colors[1]);
            check_slice(env, 1, black);
            check_slice(env, 2, view_colors[0]);
        }
    }

    index_buffer = harness_upload_buffer(env->device, indices, sizeof(indices));
    ibv = (D3D12_INDEX_BUFFER_VIEW){ID3D12Resource_GetGPUVirtualAddress(index_buffer), sizeof(indices), DXGI_FORMAT_R16_UINT};
    list = begin(env);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, three);
    ID3D12GraphicsCommandList2_IASetIndexBuffer(list.list, &ibv);
    ID3D12GraphicsCommandList2_DrawIndexedInstanced(list.list, 3, 1, 0, 0, 0);
    finish(env, &list);
    check_slice(env, 0, black);
    check_slice(env, 1, view_colors[1]);
    check_slice(env, 2, view_colors[2]);
    check_slice(env, 3, view_colors[0]);
    ID3D12Resource_Release(index_buffer);
    ID3D12PipelineState_Release(three);
    if (two)
        ID3D12PipelineState_Release(two);
}

/* A multiview pipeline (identity locations) and one drawing its views one by one, of the same
 * target formats and views, one after the other in one list, both orders: the second must not
 * stay in the first's pass (one has a view mask, the other none). */
static void test_switch_with_multiview(struct env *env)
{
    static const D3D12_VIEW_INSTANCE_LOCATION identity[2] = {{0, 0}, {0, 1}}, swapped[2] = {{0, 2}, {0, 0}};
    ID3D12PipelineState *multiview = located_pipeline(env, env->vs, NULL, 2, identity, D3D12_VIEW_INSTANCING_FLAG_NONE);
    ID3D12PipelineState *apart = located_pipeline(env, env->vs, NULL, 2, swapped, D3D12_VIEW_INSTANCING_FLAG_NONE);
    struct harness_list list;

    list = begin(env);
    draw(&list, multiview);
    draw(&list, apart);
    finish(env, &list);
    check_slice(env, 0, view_colors[1]);
    check_slice(env, 1, view_colors[1]);
    check_slice(env, 2, view_colors[0]);
    check_slice(env, 3, black);

    list = begin(env);
    draw(&list, apart);
    draw(&list, multiview);
    finish(env, &list);
    check_slice(env, 0, view_colors[0]);
    check_slice(env, 1, view_colors[1]);
    check_slice(env, 2, view_colors[0]);
    check_slice(env, 3, black);
    ID3D12PipelineState_Release(apart);
    ID3D12PipelineState_Release(multiview);
}

/* Both views into slice 1, view 0 through viewport 0 (the left half), view 1 through viewport 1
 * (the right half); a third view through viewport 2, which the list does not set, goes through
 * viewport 0 (D3D12: an index past the viewports set is 0) into slice 3. */
static void test_viewports(struct env *env)
{
    static const D3D12_VIEW_INSTANCE_LOCATION locations[3] = {{0, 1}, {1, 1}, {2, 3}};
    const D3D12_VIEWPORT viewports[2] = {{0.0f, 0.0f, WIDTH / 2, HEIGHT, 0.0f, 1.0f}, {WIDTH / 2, 0.0f, WIDTH / 2, HEIGHT, 0.0f, 1.0f}};
    const D3D12_RECT scissors[2] = {{0, 0, WIDTH / 2, HEIGHT}, {WIDTH / 2, 0, WIDTH, HEIGHT}};
    ID3D12PipelineState *state = located_pipeline(env, env->vs, NULL, 3, locations, D3D12_VIEW_INSTANCING_FLAG_NONE);
    struct harness_list list = begin(env);

    ID3D12GraphicsCommandList2_RSSetViewports(list.list, 2, viewports);
    ID3D12GraphicsCommandList2_RSSetScissorRects(list.list, 2, scissors);
    draw(&list, state);
    finish(env, &list);
    check_slice(env, 0, black);
    check_halves(env, 1, view_colors[0], view_colors[1]);
    check_slice(env, 2, black);
    check_halves(env, 3, view_colors[2], black);
    ID3D12PipelineState_Release(state);
}

/* ENABLE_VIEW_INSTANCE_MASKING with views into slices 3, 2, 1: none until the mask is set; then
 * views 0 and 2 alone. A bundle replays such a draw with the mask it sets. */
static void test_mask(struct env *env)
{
    static const D3D12_VIEW_INSTANCE_LOCATION reversed[3] = {{0, 3}, {0, 2}, {0, 1}};
    ID3D12PipelineState *masked = located_pipeline(env, env->vs, NULL, 3, reversed, D3D12_VIEW_INSTANCING_FLAG_ENABLE_VIEW_INSTANCE_MASKING);
    struct harness_list bundle = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_BUNDLE);
    struct harness_list list;

    list = begin(env);
    draw(&list, masked);
    finish(env, &list);
    for (UINT slice = 0; slice < SLICES; slice++)
        check_slice(env, slice, black);

    list = begin(env);
    ID3D12GraphicsCommandList2_SetViewInstanceMask(list.list, 0x5);
    draw(&list, masked);
    finish(env, &list);
    check_slice(env, 0, black);
    check_slice(env, 1, view_colors[2]);
    check_slice(env, 2, black);
    check_slice(env, 3, view_colors[0]);

    ID3D12GraphicsCommandList2_SetPipelineState(bundle.list, masked);
    ID3D12GraphicsCommandList2_IASetPrimitiveTopology(bundle.list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    ID3D12GraphicsCommandList2_SetViewInstanceMask(bundle.list, 0x2);
    ID3D12GraphicsCommandList2_DrawInstanced(bundle.list, 3, 1, 0, 0);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(bundle.list), S_OK);
    list = begin(env);
    ID3D12GraphicsCommandList2_ExecuteBundle(list.list, (ID3D12GraphicsCommandList *)bundle.list);
    finish(env, &list);
    check_slice(env, 0, black);
    check_slice(env, 1, black);
    check_slice(env, 2, view_colors[1]);
    check_slice(env, 3, black);
    harness_release_list(&bundle);
    ID3D12PipelineState_Release(masked);
}

/* A vertex or geometry shader writing SV_RenderTargetArrayIndex 1 itself: D3D12 adds the view's
 * location, and a sum past the target's slices renders into slice 0. Views at slices 0 and 3
 * land in slices 1 and 0; at slices 2 and 0 in 3 and 1. */
static void test_shader_writes_slice(struct env *env)
{
    static const D3D12_VIEW_INSTANCE_LOCATION past_end[2] = {{0, 0}, {0, 3}}, swapped[2] = {{0, 2}, {0, 0}};
    ID3D12PipelineState *from_vs = located_pipeline(env, env->vs_layer, NULL, 2, past_end, D3D12_VIEW_INSTANCING_FLAG_NONE);
    ID3D12PipelineState *from_gs = located_pipeline(env, env->vs, env->gs_layer, 2, swapped, D3D12_VIEW_INSTANCING_FLAG_NONE);
    struct harness_list list;

    list = begin(env);
    draw(&list, from_vs);
    finish(env, &list);
    check_slice(env, 0, view_colors[1]);
    check_slice(env, 1, view_colors[0]);
    check_slice(env, 2, black);
    check_slice(env, 3, black);

    list = begin(env);
    draw(&list, from_gs);
    finish(env, &list);
    check_slice(env, 0, black);
    check_slice(env, 1, view_colors[1]);
    check_slice(env, 2, black);
    check_slice(env, 3, view_colors[0]);
    ID3D12PipelineState_Release(from_gs);
    ID3D12PipelineState_Release(from_vs);
}

/* The domain shader as the last stage before the rasterizer: views into slices 2 and 0. */
static void test_tessellation(struct env *env)
{
    static const D3D12_VIEW_INSTANCE_LOCATION swapped[2] = {{0, 2}, {0, 0}};
    ID3D12PipelineState *state;
    struct harness_list list;

    env->tessellate = true;
    state = located_pipeline(env, env->vs, NULL, 2, swapped, D3D12_VIEW_INSTANCING_FLAG_NONE);
    env->tessellate = false;
    if (!state)
        return;
    list = begin(env);
    ID3D12GraphicsCommandList2_IASetPrimitiveTopology(list.list, D3D_PRIMITIVE_TOPOLOGY_3_CONTROL_POINT_PATCHLIST);
    draw(&list, state);
    finish(env, &list);
    check_slice(env, 0, view_colors[1]);
    check_slice(env, 1, black);
    check_slice(env, 2, view_colors[0]);
    check_slice(env, 3, black);
    ID3D12PipelineState_Release(state);
}

/* An occlusion query across a draw of two views counts both (each view is a draw of its own). */
static void test_query(struct env *env)
{
    static const D3D12_VIEW_INSTANCE_LOCATION swapped[2] = {{0, 2}, {0, 0}};
    const D3D12_QUERY_HEAP_DESC heap_desc = {D3D12_QUERY_HEAP_TYPE_OCCLUSION, 1, 0};
    ID3D12PipelineState *two = located_pipeline(env, env->vs, NULL, 2, swapped, D3D12_VIEW_INSTANCING_FLAG_NONE);
    ID3D12Resource *results = harness_create_buffer(env->device, D3D12_HEAP_TYPE_DEFAULT, sizeof(UINT64), D3D12_RESOURCE_STATE_COPY_DEST);
    struct harness_list list = begin(env);
    ID3D12QueryHeap *heap;
    UINT64 samples = 0;

    CHECK_HR(ID3D12Device_CreateQueryHeap(env->device, &heap_desc, &IID_ID3D12QueryHeap, (void **)&heap), S_OK);
    ID3D12GraphicsCommandList2_BeginQuery(list.list, heap, D3D12_QUERY_TYPE_OCCLUSION, 0);
    draw(&list, two);
    ID3D12GraphicsCommandList2_EndQuery(list.list, heap, D3D12_QUERY_TYPE_OCCLUSION, 0);
    ID3D12GraphicsCommandList2_ResolveQueryData(list.list, heap, D3D12_QUERY_TYPE_OCCLUSION, 0, 1, results, 0);
    finish(env, &list);
    check_slice(env, 0, view_colors[1]);
    check_slice(env, 2, view_colors[0]);
    harness_read_back(env->device, env->queue, results, &samples, sizeof(samples));
    CHECK_MSG(samples == 2u * WIDTH * HEIGHT, "%llu samples, expected %u", (unsigned long long)samples, 2u * WIDTH * HEIGHT);
    ID3D12QueryHeap_Release(heap);
    ID3D12Resource_Release(results);
    ID3D12PipelineState_Release(two);
}

/* What d3d12xs refuses: a pixel shader reading SV_ViewID where the root signature denies the
 * pixel shader root access (the view index is a push constant there). And ExecuteIndirect of such
 * a pipeline, which runs its commands once per view: a draw-only signature (with and without a
 * count buffer) and one that sets a root constant (generated commands on lavapipe). */
static void test_refusals(struct env *env)
{
    static const D3D12_VIEW_INSTANCE_LOCATION swapped[2] = {{0, 1}, {0, 0}};
    D3D12_INDIRECT_ARGUMENT_DESC argument;
    const D3D12_COMMAND_SIGNATURE_DESC signature_desc = {sizeof(D3D12_DRAW_ARGUMENTS), 1, &argument, 0};
    /* with a root constant before the draw: 4 bytes over the draw's arguments' size, the draw after it */
    D3D12_INDIRECT_ARGUMENT_DESC constant_arguments[2] = {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT, .Constant = {0, 0, 1}},
            {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW}};
    const D3D12_COMMAND_SIGNATURE_DESC constants_desc = {sizeof(D3D12_DRAW_ARGUMENTS) + 4, 2, constant_arguments, 0};
    const D3D12_DRAW_ARGUMENTS arguments = {3, 1, 0, 0};
    static const UINT one = 1;
    ID3D12RootSignature *denying = harness_root_signature(env->device, NULL, 0, D3D12_ROOT_SIGNATURE_FLAG_DENY_PIXEL_SHADER_ROOT_ACCESS);
    ID3D12RootSignature *constants_root;
    D3D12_ROOT_PARAMETER1 constants_parameter;
    ID3D12PipelineState *state = NULL;
    ID3D12CommandSignature *command_signature;
    ID3D12Resource *buffer, *counts;
    struct harness_list list;

    memset(&constants_parameter, 0, sizeof(constants_parameter));
    constants_parameter.ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    constants_parameter.Constants.Num32BitValues = 1;
    constants_root = harness_root_signature(env->device, &constants_parameter, 1, 0);

    memset(&argument, 0, sizeof(argument));
    argument.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW;
    LOG_MARK();
    CHECK_HR(create_pipeline(env, denying, env->vs, NULL, 2, swapped, D3D12_VIEW_INSTANCING_FLAG_NONE, &state), E_NOTIMPL);
    CHECK(!state);
    CHECK_LOG("reads SV_ViewID");
    ID3D12RootSignature_Release(denying);

    /* ExecuteIndirect of a draw signature: each view runs the commands (view 0 into slice 1,
     * view 1 into slice 0), with and without a count buffer */
    state = located_pipeline(env, env->vs, NULL, 2, swapped, D3D12_VIEW_INSTANCING_FLAG_NONE);
    CHECK_HR(ID3D12Device_CreateCommandSignature(env->device, &signature_desc, NULL, &IID_ID3D12CommandSignature,
            (void **)&command_signature), S_OK);
    buffer = harness_upload_buffer(env->device, &arguments, sizeof(arguments));
    counts = harness_upload_buffer(env->device, &one, sizeof(one));
    for (int with_count = 0; with_count < 2; with_count++) {
        list = begin(env);
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
        ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, command_signature, 1, buffer, 0, with_count ? counts : NULL, 0);
        finish(env, &list);
        check_slice(env, 0, view_colors[1]);
        check_slice(env, 1, view_colors[0]);
        check_slice(env, 2, black);
    }

    /* a signature that changes state (a root constant no shader reads, then the draw): as
     * generated commands where the device has them, each view's round flushed and pushed again */
    {
        const struct { UINT constant; D3D12_DRAW_ARGUMENTS draw; } constant_command = {7, {3, 1, 0, 0}};
        ID3D12Resource *constant_buffer = harness_upload_buffer(env->device, &constant_command, sizeof(constant_command));
        ID3D12PipelineState *constants_state = NULL;
        ID3D12CommandSignature *constants_signature;
        CHECK_HR(create_pipeline(env, constants_root, env->vs, NULL, 2, swapped, D3D12_VIEW_INSTANCING_FLAG_NONE, &constants_state), S_OK);
        CHECK_HR(ID3D12Device_CreateCommandSignature(env->device, &constants_desc, constants_root, &IID_ID3D12CommandSignature,
                (void **)&constants_signature), S_OK);
        list = begin(env);
        ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, constants_root);
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, constants_state);
        ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, constants_signature, 1, constant_buffer, 0, NULL, 0);
        finish(env, &list);
        check_slice(env, 0, view_colors[1]);
        check_slice(env, 1, view_colors[0]);
        check_slice(env, 2, black);
        ID3D12CommandSignature_Release(constants_signature);
        ID3D12PipelineState_Release(constants_state);
        ID3D12Resource_Release(constant_buffer);
    }
    ID3D12RootSignature_Release(constants_root);
    ID3D12Resource_Release(counts);
    ID3D12Resource_Release(buffer);
    ID3D12CommandSignature_Release(command_signature);
    ID3D12PipelineState_Release(state);
}

int main(void)
{
    struct env env;

    harness_init();
    memset(&env, 0, sizeof(env));
    setup(&env);
    if (env.vs && env.ps && env.vs_layer && env.gs_layer && env.hs && env.ds) {
        test_other_slices(&env);
    test_switch_with_multiview(&env);
        test_viewports(&env);
        test_mask(&env);
        test_shader_writes_slice(&env);
        test_tessellation(&env);
        test_query(&env);
        test_refusals(&env);
    }
    teardown(&env);
    return harness_finish();
}
