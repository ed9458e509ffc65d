/* View instancing: a pipeline state stream's VIEW_INSTANCING subobject and SV_ViewID draw view i
 * into array slice i of the render target (Vulkan multiview), read back slice by slice;
 * SetViewInstanceMask selects the views of pipelines made with ENABLE_VIEW_INSTANCE_MASKING (none
 * until it is called, none in a bundle that does not call it); CheckFeatureSupport's tier; and
 * D3D12's rules for the description (other locations: test_view_locations.c); and queries open across view-instanced draws (occlusion, BINARY_OCCLUSION, pipeline
 * statistics, SO_STATISTICS), which count every view. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "small_target.h"
#include "commands/command_list_state.h"

#define SLICES 3

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12RootSignature *signature;
    ID3D12Resource *target, *single, *readback;
    ID3D12DescriptorHeap *rtv_heap;
    D3D12_CPU_DESCRIPTOR_HANDLE rtv, single_rtv;
    ID3D10Blob *vs, *ps;
    uint8_t pixels[HEIGHT][WIDTH][4]; /* CHECK_PIXEL's: the slice read last */
    uint8_t slices[SLICES][HEIGHT][WIDTH][4];
};

/* A full-target triangle; the vertex shader passes the view on as red ((view + 1) / 4), the pixel
 * shader reads SV_ViewID itself for green (view 1) and blue (view 2). */
static const char view_source[] =
    "struct V { float4 pos : SV_Position; float red : RED; };\n"
    "V vs(uint id : SV_VertexID, uint view : SV_ViewID)\n"
    "{ V o; float2 uv = float2((id << 1) & 2, id & 2); o.pos = float4(uv * float2(2, -2) + float2(-1, 1), 0, 1);\n"
    "  o.red = (view + 1) * 0.25; return o; }\n"
    "float4 ps(V i, uint view : SV_ViewID) : SV_Target { return float4(i.red, view == 1 ? 1 : 0, view == 2 ? 1 : 0, 1); }\n";

static const float black_f[4] = {0.0f, 0.0f, 0.0f, 1.0f};
static const uint8_t black[4] = {0, 0, 0, 255};
/* What view i writes */
static const uint8_t view_colors[SLICES][4] = {{64, 0, 0, 255}, {128, 255, 0, 255}, {191, 0, 255, 255}};

/* Pipeline state streams: a subobject per part, D3D12's defaults for the rest. */
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

/* A stream drawing view_source into one RGBA8 target with view instancing `vi` (no subobject
 * when NULL). */
static HRESULT create_pipeline(struct env *env, const D3D12_VIEW_INSTANCING_DESC *vi, ID3D12PipelineState **state)
{
    const D3D12_SHADER_BYTECODE vs = {ID3D10Blob_GetBufferPointer(env->vs), ID3D10Blob_GetBufferSize(env->vs)};
    const D3D12_SHADER_BYTECODE ps = {ID3D10Blob_GetBufferPointer(env->ps), ID3D10Blob_GetBufferSize(env->ps)};
    const D3D12_PRIMITIVE_TOPOLOGY_TYPE topology = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
    const D3D12_RT_FORMAT_ARRAY formats = {{DXGI_FORMAT_R8G8B8A8_UNORM}, 1};
    const D3D12_RASTERIZER_DESC2 rasterizer = {D3D12_FILL_MODE_SOLID, D3D12_CULL_MODE_NONE, FALSE, 0.0f, 0.0f, 0.0f, TRUE,
            D3D12_LINE_RASTERIZATION_MODE_ALIASED, 0, D3D12_CONSERVATIVE_RASTERIZATION_MODE_OFF};
    D3D12_DEPTH_STENCIL_DESC depth_stencil;
    struct stream_builder b;
    D3D12_PIPELINE_STATE_STREAM_DESC desc;
    ID3D12Device2 *device2;
    HRESULT hr;

    memset(&depth_stencil, 0, sizeof(depth_stencil));
    memset(&b, 0, sizeof(b));
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_ROOT_SIGNATURE, env->signature);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VS, vs);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PS, ps);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PRIMITIVE_TOPOLOGY, topology);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RENDER_TARGET_FORMATS, formats);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RASTERIZER2, rasterizer);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL, depth_stencil);
    if (vi)
        ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VIEW_INSTANCING, *vi);
    desc = (D3D12_PIPELINE_STATE_STREAM_DESC){b.size, b.bytes};
    *state = NULL;
    CHECK_HR(ID3D12Device_QueryInterface(env->device, &IID_ID3D12Device2, (void **)&device2), S_OK);
    hr = ID3D12Device2_CreatePipelineState(device2, &desc, &IID_ID3D12PipelineState, (void **)state);
    ID3D12Device2_Release(device2);
    return hr;
}

/* The locations multiview renders: view i into slice i through viewport 0. */
static const D3D12_VIEW_INSTANCE_LOCATION identity_locations[D3D12_MAX_VIEW_INSTANCE_COUNT] = {{0, 0}, {0, 1}, {0, 2}, {0, 3}};

static ID3D12PipelineState *view_pipeline(struct env *env, UINT views, D3D12_VIEW_INSTANCING_FLAGS flags)
{
    const D3D12_VIEW_INSTANCING_DESC vi = {views, identity_locations, flags};
    ID3D12PipelineState *state;
    CHECK_HR(create_pipeline(env, &vi, &state), S_OK);
    return state;
}

static void setup(struct env *env)
{
    D3D12_DESCRIPTOR_HEAP_DESC rtv_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 2, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    D3D12_HEAP_PROPERTIES heap = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    D3D12_RESOURCE_DESC desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8G8B8A8_UNORM, WIDTH, HEIGHT, SLICES, 1);

    env->device = harness_create_device();
    env->queue = harness_create_queue(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    env->signature = harness_root_signature(env->device, NULL, 0, D3D12_ROOT_SIGNATURE_FLAG_NONE);
    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    CHECK_HR(ID3D12Device_CreateCommittedResource(env->device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_RENDER_TARGET, NULL,
            &IID_ID3D12Resource, (void **)&env->target), S_OK);
    env->single = target_texture(env->device, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET,
            D3D12_RESOURCE_STATE_RENDER_TARGET);
    env->readback = harness_create_buffer(env->device, D3D12_HEAP_TYPE_READBACK, ROW_PITCH * HEIGHT * SLICES, D3D12_RESOURCE_STATE_COPY_DEST);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &rtv_desc, &IID_ID3D12DescriptorHeap, (void **)&env->rtv_heap), S_OK);
    env->rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(env->rtv_heap);
    env->single_rtv.ptr = env->rtv.ptr + ID3D12Device_GetDescriptorHandleIncrementSize(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_RTV);
    ID3D12Device_CreateRenderTargetView(env->device, env->target, NULL, env->rtv);
    ID3D12Device_CreateRenderTargetView(env->device, env->single, NULL, env->single_rtv);
    env->vs = harness_compile_stage(view_source, "vs", "vs_6_1");
    env->ps = harness_compile_stage(view_source, "ps", "ps_6_1");
}

static void teardown(struct env *env)
{
    if (env->vs)
        ID3D10Blob_Release(env->vs);
    if (env->ps)
        ID3D10Blob_Release(env->ps);
    ID3D12DescriptorHeap_Release(env->rtv_heap);
    ID3D12Resource_Release(env->readback);
    ID3D12Resource_Release(env->single);
    ID3D12Resource_Release(env->target);
    ID3D12RootSignature_Release(env->signature);
    ID3D12CommandQueue_Release(env->queue);
    harness_release_device(env->device);
}

/* A list drawing into the array target (every slice cleared black), whole viewport and scissor. */
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

/* Slice `slice` holds `color` at a corner and the centre. */
static void check_slice(struct env *env, UINT slice, const uint8_t color[4])
{
    memcpy(env->pixels, env->slices[slice], sizeof(env->pixels));
    CHECK_PIXEL(env, 0, 0, color, 1);
    CHECK_PIXEL(env, WIDTH / 2, HEIGHT / 2, color, 1);
    CHECK_PIXEL(env, WIDTH - 1, HEIGHT - 1, color, 1);
}

static void test_tier(struct env *env)
{
    D3D12_FEATURE_DATA_D3D12_OPTIONS3 options3;
    CHECK_HR(ID3D12Device_CheckFeatureSupport(env->device, D3D12_FEATURE_D3D12_OPTIONS3, &options3, sizeof(options3)), S_OK);
    /* lavapipe and every Vulkan 1.1 device have multiview */
    CHECK(options3.ViewInstancingTier == D3D12_VIEW_INSTANCING_TIER_1);
}

/* Two views: SV_ViewID 0 into slice 0, 1 into slice 1; slice 2 is untouched. Then three. */
static void test_views(struct env *env)
{
    ID3D12PipelineState *two = view_pipeline(env, 2, D3D12_VIEW_INSTANCING_FLAG_NONE);
    ID3D12PipelineState *three = view_pipeline(env, 3, D3D12_VIEW_INSTANCING_FLAG_NONE);
    struct harness_list list;

    list = begin(env);
    draw(&list, two);
    finish(env, &list);
    check_slice(env, 0, view_colors[0]);
    check_slice(env, 1, view_colors[1]);
    check_slice(env, 2, black);

    /* the mask changes nothing without ENABLE_VIEW_INSTANCE_MASKING */
    list = begin(env);
    ID3D12GraphicsCommandList2_SetViewInstanceMask(list.list, 0x1);
    draw(&list, three);
    finish(env, &list);
    for (UINT slice = 0; slice < SLICES; slice++)
        check_slice(env, slice, view_colors[slice]);
    ID3D12PipelineState_Release(three);
    ID3D12PipelineState_Release(two);
}

/* A clear between two draws of a view-instanced pass clears every slice of its view, the one no
 * view draws too (the clear renders a pass of its own: a multiview pass clears only its views). */
static void test_clear_between_views(struct env *env)
{
    static const float white_f[4] = {1.0f, 1.0f, 1.0f, 1.0f};
    static const uint8_t white[4] = {255, 255, 255, 255};
    ID3D12PipelineState *two = view_pipeline(env, 2, D3D12_VIEW_INSTANCING_FLAG_NONE);
    struct harness_list list = begin(env);

    draw(&list, two);
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, env->rtv, white_f, 0, NULL);
    finish(env, &list);
    for (UINT slice = 0; slice < SLICES; slice++)
        check_slice(env, slice, white);
    list = begin(env);
    draw(&list, two);
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, env->rtv, white_f, 0, NULL);
    draw(&list, two);
    finish(env, &list);
    check_slice(env, 0, view_colors[0]);
    check_slice(env, 1, view_colors[1]);
    check_slice(env, 2, white);
    ID3D12PipelineState_Release(two);
}

/* A clear between two draws of a pass whose views are every slice of the target goes inside the
 * pass (one rendering pass for the three commands) and clears every slice; with rectangles too. */
static void test_clear_inside_views_pass(struct env *env)
{
    static const float white_f[4] = {1.0f, 1.0f, 1.0f, 1.0f};
    static const uint8_t white[4] = {255, 255, 255, 255};
    const D3D12_RECT left = {0, 0, WIDTH / 2, HEIGHT};
    ID3D12PipelineState *three = view_pipeline(env, 3, D3D12_VIEW_INSTANCING_FLAG_NONE);
    struct harness_list list = begin(env);
    uint64_t passes;

    draw(&list, three);
    passes = ((const struct d3d12_command_list *)(void *)list.list)->rendering_pass_count;
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, env->rtv, white_f, 0, NULL);
    CHECK_MSG(((const struct d3d12_command_list *)(void *)list.list)->rendering_pass_count == passes || getenv("D3D12XS_SPLIT_LISTS"),
            "the clear rendered a pass of its own");
    finish(env, &list);
    for (UINT slice = 0; slice < SLICES; slice++)
        check_slice(env, slice, white);

    list = begin(env);
    draw(&list, three);
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, env->rtv, white_f, 1, &left);
    finish(env, &list);
    for (UINT slice = 0; slice < SLICES; slice++) {
        memcpy(env->pixels, env->slices[slice], sizeof(env->pixels));
        CHECK_PIXEL(env, 0, 0, white, 1);
        CHECK_PIXEL(env, WIDTH / 2 - 1, HEIGHT - 1, white, 1);
        CHECK_PIXEL(env, WIDTH / 2, 0, view_colors[slice], 1);
        CHECK_PIXEL(env, WIDTH - 1, HEIGHT - 1, view_colors[slice], 1);
    }
    ID3D12PipelineState_Release(three);
}

/* A target with fewer slices than the views: a debug warning, and no draw. */
static void test_too_few_slices(struct env *env)
{
    ID3D12PipelineState *two = view_pipeline(env, 2, D3D12_VIEW_INSTANCING_FLAG_NONE);
    struct harness_list list = begin(env);
    size_t before = harness_warning_count();

    ID3D12GraphicsCommandList2_OMSetRenderTargets(list.list, 1, &env->single_rtv, TRUE, NULL);
    draw(&list, two);
    CHECK_DEBUG_WARNINGS(before, 1, "array slices: the draw is skipped");
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    ID3D12PipelineState_Release(two);
}

/* ENABLE_VIEW_INSTANCE_MASKING: no view until SetViewInstanceMask; then its views among the
 * pipeline's, each draw with the mask set before it. */
static void test_mask(struct env *env)
{
    ID3D12PipelineState *masked = view_pipeline(env, 3, D3D12_VIEW_INSTANCING_FLAG_ENABLE_VIEW_INSTANCE_MASKING);
    struct harness_list list;

    /* the default mask, 0: nothing */
    list = begin(env);
    draw(&list, masked);
    finish(env, &list);
    for (UINT slice = 0; slice < SLICES; slice++)
        check_slice(env, slice, black);

    /* views 1 and 2 by one draw, then view 0 by another in the same list; bits past the views are ignored */
    list = begin(env);
    ID3D12GraphicsCommandList2_SetViewInstanceMask(list.list, 0x6);
    draw(&list, masked);
    finish(env, &list);
    check_slice(env, 0, black);
    check_slice(env, 1, view_colors[1]);
    check_slice(env, 2, view_colors[2]);

    list = begin(env);
    ID3D12GraphicsCommandList2_SetViewInstanceMask(list.list, 0x4);
    draw(&list, masked);
    ID3D12GraphicsCommandList2_SetViewInstanceMask(list.list, 0xf1);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 3, 1, 0, 0);
    finish(env, &list);
    check_slice(env, 0, view_colors[0]);
    check_slice(env, 1, black);
    check_slice(env, 2, view_colors[2]);
    ID3D12PipelineState_Release(masked);
}

/* A bundle starts with mask 0 whatever its caller's; one it sets stays set in the caller. */
static void test_bundle_mask(struct env *env)
{
    ID3D12PipelineState *masked = view_pipeline(env, 3, D3D12_VIEW_INSTANCING_FLAG_ENABLE_VIEW_INSTANCE_MASKING);
    struct harness_list plain = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_BUNDLE);
    struct harness_list setting = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_BUNDLE);
    struct harness_list list;

    ID3D12GraphicsCommandList2_SetPipelineState(plain.list, masked);
    ID3D12GraphicsCommandList2_IASetPrimitiveTopology(plain.list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    ID3D12GraphicsCommandList2_DrawInstanced(plain.list, 3, 1, 0, 0);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(plain.list), S_OK);
    ID3D12GraphicsCommandList2_SetViewInstanceMask(setting.list, 0x2);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(setting.list), S_OK);

    /* the caller's mask 0x7 does not reach the bundle's draw, and stays the caller's after it */
    list = begin(env);
    ID3D12GraphicsCommandList2_SetViewInstanceMask(list.list, 0x7);
    ID3D12GraphicsCommandList2_ExecuteBundle(list.list, (ID3D12GraphicsCommandList *)plain.list);
    finish(env, &list);
    for (UINT slice = 0; slice < SLICES; slice++)
        check_slice(env, slice, black);

    list = begin(env);
    ID3D12GraphicsCommandList2_SetViewInstanceMask(list.list, 0x4);
    ID3D12GraphicsCommandList2_ExecuteBundle(list.list, (ID3D12GraphicsCommandList *)plain.list);
    draw(&list, masked); /* the caller's 0x4 again */
    ID3D12GraphicsCommandList2_ExecuteBundle(list.list, (ID3D12GraphicsCommandList *)setting.list);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 3, 1, 0, 0); /* the bundle's 0x2 */
    finish(env, &list);
    check_slice(env, 0, black);
    check_slice(env, 1, view_colors[1]);
    check_slice(env, 2, view_colors[2]);
    harness_release_list(&setting);
    harness_release_list(&plain);
    ID3D12PipelineState_Release(masked);
}

/* D3D12's rules (E_INVALIDARG), one line each; other locations are made. */
static void test_rules(struct env *env)
{
    static const D3D12_VIEW_INSTANCE_LOCATION viewports[2] = {{0, 0}, {1, 0}}, swapped[2] = {{0, 1}, {0, 0}};
    const D3D12_VIEW_INSTANCING_DESC located[2] = {{2, viewports, D3D12_VIEW_INSTANCING_FLAG_NONE},
            {2, swapped, D3D12_VIEW_INSTANCING_FLAG_NONE}};
    static const D3D12_VIEW_INSTANCE_LOCATION bad_viewport[1] = {{16, 0}}, bad_slice[1] = {{0, 2048}};
    const struct {
        D3D12_VIEW_INSTANCING_DESC desc;
        HRESULT hr;
        const char *line;
    } cases[] = {
        {{5, identity_locations, D3D12_VIEW_INSTANCING_FLAG_NONE}, E_INVALIDARG, "ViewInstanceCount is 5 (at most 4)"},
        {{2, NULL, D3D12_VIEW_INSTANCING_FLAG_NONE}, E_INVALIDARG, "pViewInstanceLocations is NULL with ViewInstanceCount 2"},
        {{2, identity_locations, (D3D12_VIEW_INSTANCING_FLAGS)0x2}, E_INVALIDARG, "ViewInstancing.Flags is 0x2"},
        {{1, bad_viewport, D3D12_VIEW_INSTANCING_FLAG_NONE}, E_INVALIDARG, "pViewInstanceLocations[0].ViewportArrayIndex is 16"},
        {{1, bad_slice, D3D12_VIEW_INSTANCING_FLAG_NONE}, E_INVALIDARG, "pViewInstanceLocations[0].RenderTargetArrayIndex is 2048"},
    };
    const D3D12_VIEW_INSTANCING_DESC none = {0, NULL, D3D12_VIEW_INSTANCING_FLAG_ENABLE_VIEW_INSTANCE_MASKING};
    ID3D12PipelineState *state;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        LOG_MARK();
        CHECK_HR(create_pipeline(env, &cases[i].desc, &state), cases[i].hr);
        CHECK(!state);
        CHECK_LOG(cases[i].line);
    }
    /* other locations than multiview's draw the views one by one (test_view_locations.c) */
    for (size_t i = 0; i < sizeof(located) / sizeof(located[0]); i++) {
        CHECK_HR(create_pipeline(env, &located[i], &state), S_OK);
        CHECK(state != NULL);
        if (state)
            ID3D12PipelineState_Release(state);
    }
    /* no views: no view instancing, whatever the rest says */
    CHECK_HR(create_pipeline(env, &none, &state), S_OK);
    if (state)
        ID3D12PipelineState_Release(state);
    /* pipelines that differ only in view instancing are not one pipeline: with the one without
     * alive, the one with two views still renders both */
    {
        ID3D12PipelineState *plain, *two;
        struct harness_list list;
        CHECK_HR(create_pipeline(env, NULL, &plain), S_OK);
        two = view_pipeline(env, 2, D3D12_VIEW_INSTANCING_FLAG_NONE);
        /* without view instancing SV_ViewID reads 0, and the draw renders slice 0 alone */
        list = begin(env);
        draw(&list, plain);
        finish(env, &list);
        check_slice(env, 0, view_colors[0]);
        check_slice(env, 1, black);
        list = begin(env);
        draw(&list, two);
        finish(env, &list);
        check_slice(env, 0, view_colors[0]);
        check_slice(env, 1, view_colors[1]);
        if (plain)
            ID3D12PipelineState_Release(plain);
        if (two)
            ID3D12PipelineState_Release(two);
    }
}

/* ---- queries open across view-instanced draws ---- */

/* Query draws go into a 4-slice target through a 16 x 8 scissor: each view passes 128 samples. */
#define QUERY_SLICES 4
#define VIEW_SAMPLES (16u * 8u)
static const D3D12_RECT query_scissor = {4, 8, 20, 16};

struct query_env {
    ID3D12Resource *target, *results;
    ID3D12DescriptorHeap *rtv_heap;
    D3D12_CPU_DESCRIPTOR_HANDLE rtv;
    ID3D12PipelineState *plain, *two, *four, *masked;
};

static void query_setup(struct env *env, struct query_env *q)
{
    D3D12_DESCRIPTOR_HEAP_DESC rtv_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    D3D12_HEAP_PROPERTIES heap = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    D3D12_RESOURCE_DESC desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8G8B8A8_UNORM, WIDTH, HEIGHT,
            QUERY_SLICES, 1);

    memset(q, 0, sizeof(*q));
    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    CHECK_HR(ID3D12Device_CreateCommittedResource(env->device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_RENDER_TARGET, NULL,
            &IID_ID3D12Resource, (void **)&q->target), S_OK);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &rtv_desc, &IID_ID3D12DescriptorHeap, (void **)&q->rtv_heap), S_OK);
    q->rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(q->rtv_heap);
    ID3D12Device_CreateRenderTargetView(env->device, q->target, NULL, q->rtv);
    q->results = harness_create_buffer(env->device, D3D12_HEAP_TYPE_DEFAULT, 4096, D3D12_RESOURCE_STATE_COPY_DEST);
    CHECK_HR(create_pipeline(env, NULL, &q->plain), S_OK);
    q->two = view_pipeline(env, 2, D3D12_VIEW_INSTANCING_FLAG_NONE);
    q->four = view_pipeline(env, 4, D3D12_VIEW_INSTANCING_FLAG_NONE);
    q->masked = view_pipeline(env, 4, D3D12_VIEW_INSTANCING_FLAG_ENABLE_VIEW_INSTANCE_MASKING);
}

static void query_teardown(struct query_env *q)
{
    ID3D12PipelineState *states[] = {q->plain, q->two, q->four, q->masked};
    for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++)
        if (states[i])
            ID3D12PipelineState_Release(states[i]);
    ID3D12Resource_Release(q->results);
    ID3D12DescriptorHeap_Release(q->rtv_heap);
    ID3D12Resource_Release(q->target);
}

/* A list drawing into the 4-slice target (cleared black) through the query scissor. */
static struct harness_list begin_counting(struct env *env, const struct query_env *q)
{
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    const D3D12_VIEWPORT viewport = {0.0f, 0.0f, WIDTH, HEIGHT, 0.0f, 1.0f};
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, q->rtv, black_f, 0, NULL);
    ID3D12GraphicsCommandList2_OMSetRenderTargets(list.list, 1, &q->rtv, TRUE, NULL);
    ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, env->signature);
    ID3D12GraphicsCommandList2_RSSetViewports(list.list, 1, &viewport);
    ID3D12GraphicsCommandList2_RSSetScissorRects(list.list, 1, &query_scissor);
    ID3D12GraphicsCommandList2_IASetPrimitiveTopology(list.list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    return list;
}

/* Resolves count queries of heap from 0 (as type) to the start of q->results, runs the list and
 * reads them back. */
static void resolve_and_read(struct env *env, const struct query_env *q, struct harness_list *list, ID3D12QueryHeap *heap,
        D3D12_QUERY_TYPE type, UINT count, void *data, size_t size)
{
    ID3D12GraphicsCommandList2_ResolveQueryData(list->list, heap, type, 0, count, q->results, 0);
    harness_execute_and_wait(env->device, env->queue, list);
    harness_release_list(list);
    harness_read_back(env->device, env->queue, q->results, data, size);
}

static ID3D12QueryHeap *query_heap(struct env *env, D3D12_QUERY_HEAP_TYPE type, UINT count)
{
    D3D12_QUERY_HEAP_DESC desc = {type, count, 0};
    ID3D12QueryHeap *heap = NULL;
    CHECK_HR(ID3D12Device_CreateQueryHeap(env->device, &desc, &IID_ID3D12QueryHeap, (void **)&heap), S_OK);
    return heap;
}

/* Occlusion counts every view's samples (Vulkan's per-view queries summed): a 2-view and a 4-view
 * draw, a plain + view-instanced + plain draw, two view-instanced passes in one query, and
 * BINARY_OCCLUSION staying 0 or 1. The draws still render every view. */
static void test_occlusion_across_views(struct env *env, struct query_env *q)
{
    static const D3D12_RECT nothing = {0, 0, 0, 0};
    ID3D12QueryHeap *heap = query_heap(env, D3D12_QUERY_HEAP_TYPE_OCCLUSION, 6);
    struct harness_list list = begin_counting(env, q);
    uint64_t counts[6] = {0};

    ID3D12GraphicsCommandList2_BeginQuery(list.list, heap, D3D12_QUERY_TYPE_OCCLUSION, 0);
    draw(&list, q->two);
    ID3D12GraphicsCommandList2_EndQuery(list.list, heap, D3D12_QUERY_TYPE_OCCLUSION, 0);
    ID3D12GraphicsCommandList2_BeginQuery(list.list, heap, D3D12_QUERY_TYPE_OCCLUSION, 1);
    draw(&list, q->four);
    ID3D12GraphicsCommandList2_EndQuery(list.list, heap, D3D12_QUERY_TYPE_OCCLUSION, 1);
    ID3D12GraphicsCommandList2_BeginQuery(list.list, heap, D3D12_QUERY_TYPE_OCCLUSION, 2);
    draw(&list, q->plain);
    draw(&list, q->two);
    draw(&list, q->plain);
    ID3D12GraphicsCommandList2_EndQuery(list.list, heap, D3D12_QUERY_TYPE_OCCLUSION, 2);
    /* two passes of different views, the second with two draws */
    ID3D12GraphicsCommandList2_BeginQuery(list.list, heap, D3D12_QUERY_TYPE_OCCLUSION, 3);
    draw(&list, q->two);
    draw(&list, q->four);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 3, 1, 0, 0);
    ID3D12GraphicsCommandList2_EndQuery(list.list, heap, D3D12_QUERY_TYPE_OCCLUSION, 3);
    ID3D12GraphicsCommandList2_BeginQuery(list.list, heap, D3D12_QUERY_TYPE_BINARY_OCCLUSION, 4);
    draw(&list, q->four);
    ID3D12GraphicsCommandList2_EndQuery(list.list, heap, D3D12_QUERY_TYPE_BINARY_OCCLUSION, 4);
    /* a view-instanced pass that passes no sample */
    ID3D12GraphicsCommandList2_RSSetScissorRects(list.list, 1, &nothing);
    ID3D12GraphicsCommandList2_BeginQuery(list.list, heap, D3D12_QUERY_TYPE_BINARY_OCCLUSION, 5);
    draw(&list, q->two);
    ID3D12GraphicsCommandList2_EndQuery(list.list, heap, D3D12_QUERY_TYPE_BINARY_OCCLUSION, 5);
    ID3D12GraphicsCommandList2_ResolveQueryData(list.list, heap, D3D12_QUERY_TYPE_BINARY_OCCLUSION, 4, 2, q->results, 32);
    resolve_and_read(env, q, &list, heap, D3D12_QUERY_TYPE_OCCLUSION, 4, counts, sizeof(counts));
    {
        static const uint64_t expected[6] = {2 * VIEW_SAMPLES, 4 * VIEW_SAMPLES, 4 * VIEW_SAMPLES, 10 * VIEW_SAMPLES, 1, 0};
        for (int i = 0; i < 6; i++)
            CHECK_MSG(counts[i] == expected[i], "query %d counted %llu, expected %llu", i, (unsigned long long)counts[i],
                    (unsigned long long)expected[i]);
    }
    ID3D12QueryHeap_Release(heap);
}

/* Pipeline statistics of a 2-view and a 4-view draw of one triangle against the same draw
 * without views: every view's work is counted. */
static void test_statistics_across_views(struct env *env, struct query_env *q)
{
    ID3D12QueryHeap *heap = query_heap(env, D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS, 3);
    struct harness_list list = begin_counting(env, q);
    D3D12_QUERY_DATA_PIPELINE_STATISTICS stats[3];
    ID3D12PipelineState *states[3] = {q->plain, q->two, q->four};

    memset(stats, 0, sizeof(stats));
    for (UINT i = 0; i < 3; i++) {
        ID3D12GraphicsCommandList2_BeginQuery(list.list, heap, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, i);
        draw(&list, states[i]);
        ID3D12GraphicsCommandList2_EndQuery(list.list, heap, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, i);
    }
    resolve_and_read(env, q, &list, heap, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 3, stats, sizeof(stats));
    /* every view's pixels are shaded; the vertex work of the views may be shared (D3D12's tiers
     * let hardware do so), but not less than one view's is counted: lavapipe, which draws each
     * view in turn, counts views times the plain draw's everywhere */
    CHECK(stats[0].IAVertices == 3 && stats[0].IAPrimitives == 1 && stats[0].VSInvocations == 3 && stats[0].PSInvocations == VIEW_SAMPLES);
    for (UINT i = 1; i < 3; i++) {
        uint64_t views = 2 * i;
        CHECK_MSG(stats[i].PSInvocations == views * VIEW_SAMPLES, "%llu views: PSInvocations %llu", (unsigned long long)views,
                (unsigned long long)stats[i].PSInvocations);
        CHECK(stats[i].IAVertices >= 3 && stats[i].IAVertices <= views * 3);
        CHECK(stats[i].IAPrimitives >= 1 && stats[i].IAPrimitives <= views);
        CHECK(stats[i].VSInvocations >= 3 && stats[i].VSInvocations <= views * 3);
        CHECK(stats[i].CInvocations >= 1 && stats[i].CInvocations <= views);
        CHECK(stats[i].GSInvocations == 0 && stats[i].HSInvocations == 0 && stats[i].DSInvocations == 0 && stats[i].CSInvocations == 0);
    }
    ID3D12QueryHeap_Release(heap);
}

/* A query begun after a view-instanced draw (none open across it) in a heap of one query: lavapipe,
 * which keeps the pass's view mask after it, would begin four queries there without d3d12xs's
 * empty pass of no views first. */
static void test_query_after_views(struct env *env, struct query_env *q)
{
    ID3D12QueryHeap *heap = query_heap(env, D3D12_QUERY_HEAP_TYPE_OCCLUSION, 1);
    struct harness_list list = begin_counting(env, q);
    uint64_t count = 0;

    draw(&list, q->four);
    ID3D12GraphicsCommandList2_BeginQuery(list.list, heap, D3D12_QUERY_TYPE_OCCLUSION, 0);
    draw(&list, q->plain);
    ID3D12GraphicsCommandList2_EndQuery(list.list, heap, D3D12_QUERY_TYPE_OCCLUSION, 0);
    resolve_and_read(env, q, &list, heap, D3D12_QUERY_TYPE_OCCLUSION, 1, &count, sizeof(count));
    CHECK_MSG(count == VIEW_SAMPLES, "counted %llu", (unsigned long long)count);
    ID3D12QueryHeap_Release(heap);
}

/* Queries of two types open together across a view-instanced draw: each counts every view, and
 * the statistics query, still open at the occlusion query's EndQuery, counts none of the work
 * that sums the occlusion query's views. */
static void test_concurrent_queries_across_views(struct env *env, struct query_env *q)
{
    ID3D12QueryHeap *occlusion = query_heap(env, D3D12_QUERY_HEAP_TYPE_OCCLUSION, 1);
    ID3D12QueryHeap *statistics = query_heap(env, D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS, 1);
    struct harness_list list = begin_counting(env, q);
    struct {
        uint64_t count;
        D3D12_QUERY_DATA_PIPELINE_STATISTICS stats;
    } results;

    ID3D12GraphicsCommandList2_BeginQuery(list.list, statistics, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0);
    ID3D12GraphicsCommandList2_BeginQuery(list.list, occlusion, D3D12_QUERY_TYPE_OCCLUSION, 0);
    draw(&list, q->two);
    ID3D12GraphicsCommandList2_EndQuery(list.list, occlusion, D3D12_QUERY_TYPE_OCCLUSION, 0);
    draw(&list, q->plain);
    ID3D12GraphicsCommandList2_EndQuery(list.list, statistics, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0);
    ID3D12GraphicsCommandList2_ResolveQueryData(list.list, statistics, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0, 1, q->results, 8);
    resolve_and_read(env, q, &list, occlusion, D3D12_QUERY_TYPE_OCCLUSION, 1, &results, sizeof(results));
    CHECK_MSG(results.count == 2 * VIEW_SAMPLES, "occlusion counted %llu", (unsigned long long)results.count);
    CHECK_MSG(results.stats.PSInvocations == 3 * VIEW_SAMPLES, "PSInvocations %llu", (unsigned long long)results.stats.PSInvocations);
    CHECK_MSG(results.stats.CSInvocations == 0, "CSInvocations %llu", (unsigned long long)results.stats.CSInvocations);
    ID3D12QueryHeap_Release(statistics);
    ID3D12QueryHeap_Release(occlusion);
}

/* ENABLE_VIEW_INSTANCE_MASKING inside one query: the mask changes the pass's views between
 * draws (each a pass of its own), and a draw with no view counts nothing. */
static void test_masked_views_in_query(struct env *env, struct query_env *q)
{
    ID3D12QueryHeap *heap = query_heap(env, D3D12_QUERY_HEAP_TYPE_OCCLUSION, 1);
    struct harness_list list = begin_counting(env, q);
    uint64_t count = 0;

    ID3D12GraphicsCommandList2_BeginQuery(list.list, heap, D3D12_QUERY_TYPE_OCCLUSION, 0);
    ID3D12GraphicsCommandList2_SetViewInstanceMask(list.list, 0x5);
    draw(&list, q->masked);
    ID3D12GraphicsCommandList2_SetViewInstanceMask(list.list, 0x0);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 3, 1, 0, 0);
    ID3D12GraphicsCommandList2_SetViewInstanceMask(list.list, 0xe);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 3, 1, 0, 0);
    ID3D12GraphicsCommandList2_EndQuery(list.list, heap, D3D12_QUERY_TYPE_OCCLUSION, 0);
    resolve_and_read(env, q, &list, heap, D3D12_QUERY_TYPE_OCCLUSION, 1, &count, sizeof(count));
    CHECK(count == 5 * VIEW_SAMPLES);
    ID3D12QueryHeap_Release(heap);
}

/* A bundle's view-instanced draw counts every view in its caller's query (bundles take no
 * queries of their own). */
static void test_bundle_in_query(struct env *env, struct query_env *q)
{
    ID3D12QueryHeap *heap = query_heap(env, D3D12_QUERY_HEAP_TYPE_OCCLUSION, 1);
    struct harness_list bundle = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_BUNDLE);
    struct harness_list list;
    uint64_t count = 0;

    ID3D12GraphicsCommandList2_SetPipelineState(bundle.list, q->four);
    ID3D12GraphicsCommandList2_IASetPrimitiveTopology(bundle.list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    ID3D12GraphicsCommandList2_DrawInstanced(bundle.list, 3, 1, 0, 0);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(bundle.list), S_OK);
    list = begin_counting(env, q);
    ID3D12GraphicsCommandList2_BeginQuery(list.list, heap, D3D12_QUERY_TYPE_OCCLUSION, 0);
    ID3D12GraphicsCommandList2_ExecuteBundle(list.list, (ID3D12GraphicsCommandList *)bundle.list);
    ID3D12GraphicsCommandList2_EndQuery(list.list, heap, D3D12_QUERY_TYPE_OCCLUSION, 0);
    resolve_and_read(env, q, &list, heap, D3D12_QUERY_TYPE_OCCLUSION, 1, &count, sizeof(count));
    CHECK_MSG(count == 4 * VIEW_SAMPLES, "counted %llu", (unsigned long long)count);
    harness_release_list(&bundle);
    ID3D12QueryHeap_Release(heap);
}

/* SetPredication reads a split query's resolved result: BINARY_OCCLUSION across a
 * view-instanced draw that passes samples (1) lets a predicated copy run, one across such a draw
 * that passes none (0) skips it. */
static void test_predication_on_views(struct env *env, struct query_env *q)
{
    static const D3D12_RECT nothing = {0, 0, 0, 0};
    static const uint64_t marker = 0x5151515151515151ull;
    ID3D12QueryHeap *heap = query_heap(env, D3D12_QUERY_HEAP_TYPE_OCCLUSION, 2);
    ID3D12Resource *predicate = harness_create_buffer(env->device, D3D12_HEAP_TYPE_DEFAULT, 16, D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12Resource *upload = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, 8, D3D12_RESOURCE_STATE_GENERIC_READ);
    ID3D12Resource *copies = harness_create_buffer(env->device, D3D12_HEAP_TYPE_DEFAULT, 16, D3D12_RESOURCE_STATE_COPY_DEST);
    struct harness_list list = begin_counting(env, q);
    uint64_t values[2] = {0};
    void *mapped = NULL;

    CHECK_HR(ID3D12Resource_Map(upload, 0, NULL, &mapped), S_OK);
    if (mapped)
        memcpy(mapped, &marker, sizeof(marker));
    ID3D12Resource_Unmap(upload, 0, NULL);
    ID3D12GraphicsCommandList2_BeginQuery(list.list, heap, D3D12_QUERY_TYPE_BINARY_OCCLUSION, 0);
    draw(&list, q->two);
    ID3D12GraphicsCommandList2_EndQuery(list.list, heap, D3D12_QUERY_TYPE_BINARY_OCCLUSION, 0);
    ID3D12GraphicsCommandList2_RSSetScissorRects(list.list, 1, &nothing);
    ID3D12GraphicsCommandList2_BeginQuery(list.list, heap, D3D12_QUERY_TYPE_BINARY_OCCLUSION, 1);
    draw(&list, q->two);
    ID3D12GraphicsCommandList2_EndQuery(list.list, heap, D3D12_QUERY_TYPE_BINARY_OCCLUSION, 1);
    ID3D12GraphicsCommandList2_ResolveQueryData(list.list, heap, D3D12_QUERY_TYPE_BINARY_OCCLUSION, 0, 2, predicate, 0);
    target_transition(list.list, predicate, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_PREDICATION);
    /* EQUAL_ZERO: the predicated call is skipped where the value is 0 */
    ID3D12GraphicsCommandList2_SetPredication(list.list, predicate, 0, D3D12_PREDICATION_OP_EQUAL_ZERO);
    ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, copies, 0, upload, 0, 8);
    ID3D12GraphicsCommandList2_SetPredication(list.list, predicate, 8, D3D12_PREDICATION_OP_EQUAL_ZERO);
    ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, copies, 8, upload, 0, 8);
    ID3D12GraphicsCommandList2_SetPredication(list.list, NULL, 0, D3D12_PREDICATION_OP_EQUAL_ZERO);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    harness_read_back(env->device, env->queue, copies, values, sizeof(values));
    CHECK_MSG(values[0] == marker, "the copy predicated on a count of 1 wrote 0x%llx", (unsigned long long)values[0]);
    CHECK_MSG(values[1] == 0, "the copy predicated on a count of 0 wrote 0x%llx", (unsigned long long)values[1]);
    ID3D12Resource_Release(copies);
    ID3D12Resource_Release(upload);
    ID3D12Resource_Release(predicate);
    ID3D12QueryHeap_Release(heap);
}

/* An SO_STATISTICS query pauses across a view-instanced pass (no transform feedback runs in one)
 * and goes on after it: the triangles streamed out before and after the view-instanced draw
 * are counted, that draw nothing. */
static void test_stream_output_across_views(struct env *env, struct query_env *q)
{
    static const D3D12_SO_DECLARATION_ENTRY entry = {0, "RED", 0, 0, 1, 0};
    static const UINT stride = 4;
    ID3D12RootSignature *signature = harness_root_signature(env->device, NULL, 0, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_STREAM_OUTPUT);
    ID3D12Resource *so = harness_create_buffer(env->device, D3D12_HEAP_TYPE_DEFAULT, 256, D3D12_RESOURCE_STATE_STREAM_OUT);
    ID3D12QueryHeap *heap = query_heap(env, D3D12_QUERY_HEAP_TYPE_SO_STATISTICS, 1);
    D3D12_QUERY_DATA_SO_STATISTICS statistics = {0};
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    D3D12_STREAM_OUTPUT_BUFFER_VIEW view;
    ID3D12PipelineState *streaming = NULL;
    struct harness_list list;
    HRESULT hr;

    harness_graphics_desc(&desc, signature, env->vs, env->ps);
    desc.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    desc.DepthStencilState.DepthEnable = FALSE;
    desc.StreamOutput = (D3D12_STREAM_OUTPUT_DESC){&entry, 1, &stride, 1, 0};
    hr = ID3D12Device_CreateGraphicsPipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&streaming);
    if (hr == E_NOTIMPL) {
        printf("# no transform feedback on this device: SO_STATISTICS across views untested\n");
    } else {
        CHECK_HR(hr, S_OK);
        view = (D3D12_STREAM_OUTPUT_BUFFER_VIEW){ID3D12Resource_GetGPUVirtualAddress(so) + 16, 240, ID3D12Resource_GetGPUVirtualAddress(so)};
        list = begin_counting(env, q);
        ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, signature);
        ID3D12GraphicsCommandList2_SOSetTargets(list.list, 0, 1, &view);
        ID3D12GraphicsCommandList2_BeginQuery(list.list, heap, D3D12_QUERY_TYPE_SO_STATISTICS_STREAM0, 0);
        draw(&list, streaming);
        ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, env->signature);
        draw(&list, q->two);
        ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, signature);
        draw(&list, streaming);
        ID3D12GraphicsCommandList2_EndQuery(list.list, heap, D3D12_QUERY_TYPE_SO_STATISTICS_STREAM0, 0);
        resolve_and_read(env, q, &list, heap, D3D12_QUERY_TYPE_SO_STATISTICS_STREAM0, 1, &statistics, sizeof(statistics));
        CHECK_MSG(statistics.NumPrimitivesWritten == 2 && statistics.PrimitivesStorageNeeded == 2, "SO statistics {%llu, %llu}",
                (unsigned long long)statistics.NumPrimitivesWritten, (unsigned long long)statistics.PrimitivesStorageNeeded);
        ID3D12PipelineState_Release(streaming);
    }
    ID3D12QueryHeap_Release(heap);
    ID3D12Resource_Release(so);
    ID3D12RootSignature_Release(signature);
}

int main(void)
{
    struct query_env queries;
    struct env env;

    harness_init();
    memset(&env, 0, sizeof(env));
    setup(&env);
    if (env.vs && env.ps) {
        test_tier(&env);
        test_views(&env);
        test_clear_between_views(&env);
        test_clear_inside_views_pass(&env);
        test_too_few_slices(&env);
        test_mask(&env);
        test_bundle_mask(&env);
        test_rules(&env);
        query_setup(&env, &queries);
        test_occlusion_across_views(&env, &queries);
        test_statistics_across_views(&env, &queries);
        test_query_after_views(&env, &queries);
        test_concurrent_queries_across_views(&env, &queries);
        test_masked_views_in_query(&env, &queries);
        test_bundle_in_query(&env, &queries);
        test_predication_on_views(&env, &queries);
        test_stream_output_across_views(&env, &queries);
        query_teardown(&queries);
    }
    teardown(&env);
    return harness_finish();
}
