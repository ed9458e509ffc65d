/* SetSamplePositions (ID3D12GraphicsCommandList1) and ProgrammableSamplePositionsTier. A white
 * rectangle whose right edge crosses pixel column 16 a quarter of a pixel in is drawn into a 4x
 * target and resolved: with D3D's standard 4x positions one sample of four in that column is
 * covered (a quarter of white), with every sample moved to the pixel's left edge all four are,
 * with every sample at its right end none.
 * Where the device lacks VK_EXT_sample_locations (lavapipe) the tier is NOT_SUPPORTED, a call is
 * one debug-layer warning and dropped (D3D12 drops it, its debug layer reports it), and draws keep
 * the standard positions; the positions' own tests print why they are skipped there. On a device
 * with the extension (NVIDIA) they run: moved samples, the reset, the 2 x 2 grid (tier 2), and
 * D3D12's rules, each a warning and a dropped call. Bundles may not call it (their Close fails).
 * D3D12_CENTER_MULTISAMPLE_PATTERN puts every sample at the centre (none of column 16 covered),
 * refused above one sample where samples cannot be placed. */
#include <stdio.h>
#include <string.h>

#include "small_target.h"

#define EDGE_COLUMN 16

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12RootSignature *signature;
    ID3D12PipelineState *pipeline;
    ID3D12Resource *msaa, *resolved, *readback, *rectangle;
    ID3D12DescriptorHeap *rtv_heap;
    D3D12_CPU_DESCRIPTOR_HANDLE rtv;
    D3D12_VERTEX_BUFFER_VIEW rectangle_view;
    unsigned tier;
    uint8_t pixels[HEIGHT][WIDTH][4];
};

static const float black_f[4] = {0.0f, 0.0f, 0.0f, 1.0f};
static const uint8_t white[4] = {255, 255, 255, 255}, black[4] = {0, 0, 0, 255}, quarter[4] = {64, 64, 64, 255};

/* The tests' pipeline (color_source's rectangle) with SampleDesc (count, quality): S_OK or expected. */
static ID3D12PipelineState *pipeline_with_samples(struct env *env, UINT count, UINT quality, HRESULT expected)
{
    ID3D10Blob *vs = harness_compile_stage(color_source, "vs", "vs_5_0"), *ps = harness_compile_stage(color_source, "ps", "ps_5_0");
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *state = NULL;

    harness_graphics_desc(&desc, env->signature, vs, ps);
    desc.InputLayout.pInputElementDescs = vertex_layout;
    desc.InputLayout.NumElements = 2;
    desc.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    desc.SampleDesc.Count = count;
    desc.SampleDesc.Quality = quality;
    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&state), expected);
    if (vs)
        ID3D10Blob_Release(vs);
    if (ps)
        ID3D10Blob_Release(ps);
    return state;
}

static void setup(struct env *env)
{
    D3D12_DESCRIPTOR_HEAP_DESC rtv_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    const float right = 2.0f * (EDGE_COLUMN + 0.25f) / WIDTH - 1.0f;
    const float corners[6][2] = {{-1.0f, 1.0f}, {right, 1.0f}, {-1.0f, -1.0f}, {-1.0f, -1.0f}, {right, 1.0f}, {right, -1.0f}};
    D3D12_FEATURE_DATA_D3D12_OPTIONS2 options2;
    struct vertex *v = NULL;

    env->device = harness_create_device();
    env->queue = harness_create_queue(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    env->signature = harness_root_signature(env->device, NULL, 0, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT);
    env->msaa = target_texture(env->device, 4, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET,
            D3D12_RESOURCE_STATE_RENDER_TARGET);
    env->resolved = target_texture(env->device, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_RESOLVE_DEST);
    env->readback = harness_create_buffer(env->device, D3D12_HEAP_TYPE_READBACK, ROW_PITCH * HEIGHT, D3D12_RESOURCE_STATE_COPY_DEST);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &rtv_desc, &IID_ID3D12DescriptorHeap, (void **)&env->rtv_heap), S_OK);
    env->rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(env->rtv_heap);
    ID3D12Device_CreateRenderTargetView(env->device, env->msaa, NULL, env->rtv);

    /* the rectangle [0, 16.25) x [0, 32) in pixels, white */
    env->rectangle = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, 6 * sizeof(struct vertex), D3D12_RESOURCE_STATE_GENERIC_READ);
    CHECK_HR(ID3D12Resource_Map(env->rectangle, 0, NULL, (void **)&v), S_OK);
    for (int i = 0; v && i < 6; i++)
        v[i] = (struct vertex){corners[i][0], corners[i][1], 0.5f, {255, 255, 255, 255}};
    ID3D12Resource_Unmap(env->rectangle, 0, NULL);
    env->rectangle_view = (D3D12_VERTEX_BUFFER_VIEW){ID3D12Resource_GetGPUVirtualAddress(env->rectangle), 6 * sizeof(struct vertex),
            sizeof(struct vertex)};

    env->pipeline = pipeline_with_samples(env, 4, 0, S_OK);

    CHECK_HR(ID3D12Device_CheckFeatureSupport(env->device, D3D12_FEATURE_D3D12_OPTIONS2, &options2, sizeof(options2)), S_OK);
    env->tier = options2.ProgrammableSamplePositionsTier;
    CHECK(env->tier <= D3D12_PROGRAMMABLE_SAMPLE_POSITIONS_TIER_2);
    printf("ProgrammableSamplePositionsTier %u\n", env->tier);
}

static void teardown(struct env *env)
{
    ID3D12DescriptorHeap_Release(env->rtv_heap);
    ID3D12Resource_Release(env->rectangle);
    ID3D12Resource_Release(env->readback);
    ID3D12Resource_Release(env->resolved);
    ID3D12Resource_Release(env->msaa);
    if (env->pipeline)
        ID3D12PipelineState_Release(env->pipeline);
    ID3D12RootSignature_Release(env->signature);
    ID3D12CommandQueue_Release(env->queue);
    harness_release_device(env->device);
}

/* A list with the 4x target cleared black and bound, the pipeline and the rectangle set. */
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
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, env->pipeline);
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 1, &env->rectangle_view);
    return list;
}

static void draw(struct harness_list *list)
{
    ID3D12GraphicsCommandList2_DrawInstanced(list->list, 6, 1, 0, 0);
}

/* Resolves the target, runs the list and reads the resolved pixels back. */
static void finish(struct env *env, struct harness_list *list)
{
    target_transition(list->list, env->msaa, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_RESOLVE_SOURCE);
    ID3D12GraphicsCommandList2_ResolveSubresource(list->list, env->resolved, 0, env->msaa, 0, DXGI_FORMAT_R8G8B8A8_UNORM);
    target_transition(list->list, env->msaa, D3D12_RESOURCE_STATE_RESOLVE_SOURCE, D3D12_RESOURCE_STATE_RENDER_TARGET);
    target_copy_out(env->readback, list, env->resolved, D3D12_RESOURCE_STATE_RESOLVE_DEST);
    harness_execute_and_wait(env->device, env->queue, list);
    harness_release_list(list);
    target_read_pixels(env->readback, env->pixels);
}

/* Column 16 in rows 0 and 1 is `even_row` and `odd_row`; the columns either side are covered
 * whole and not at all, whatever the positions. */
static void check_edge(struct env *env, const uint8_t even_row[4], const uint8_t odd_row[4])
{
    CHECK_PIXEL(env, EDGE_COLUMN - 1, 0, white, 0);
    CHECK_PIXEL(env, EDGE_COLUMN + 1, 0, black, 0);
    CHECK_PIXEL(env, EDGE_COLUMN, 0, even_row, 2);
    CHECK_PIXEL(env, EDGE_COLUMN, 1, odd_row, 2);
    CHECK_PIXEL(env, EDGE_COLUMN, HEIGHT - 2, even_row, 2);
}

/* Every one of the 4 samples at (x, y) in 1/16 pixel. */
static void all_at(D3D12_SAMPLE_POSITION positions[4], INT8 x, INT8 y)
{
    for (int i = 0; i < 4; i++)
        positions[i] = (D3D12_SAMPLE_POSITION){x, y};
}

/* Without the extension: the tier, a dropped call with its warning, the standard positions. */
static void test_not_supported(struct env *env)
{
    D3D12_SAMPLE_POSITION positions[4];
    struct harness_list list = begin(env);
    size_t before = harness_warning_count();

    CHECK(env->tier == D3D12_PROGRAMMABLE_SAMPLE_POSITIONS_TIER_NOT_SUPPORTED);
    all_at(positions, -8, 0);
    ID3D12GraphicsCommandList2_SetSamplePositions(list.list, 4, 1, positions);
    CHECK_DEBUG_WARNINGS(before, 1, "ProgrammableSamplePositionsTier is NOT_SUPPORTED");
    draw(&list);
    finish(env, &list);
    check_edge(env, quarter, quarter);
}

/* Moved samples, the positions kept across draws until reset (0, 0, NULL). */
static void test_positions(struct env *env)
{
    D3D12_SAMPLE_POSITION left[4], right[4];
    struct harness_list list;
    size_t before = harness_warning_count();

    all_at(left, -8, 0);
    all_at(right, 7, 0);
    list = begin(env);
    draw(&list);
    finish(env, &list);
    check_edge(env, quarter, quarter);

    list = begin(env);
    ID3D12GraphicsCommandList2_SetSamplePositions(list.list, 4, 1, left);
    draw(&list);
    finish(env, &list);
    check_edge(env, white, white);

    list = begin(env);
    ID3D12GraphicsCommandList2_SetSamplePositions(list.list, 4, 1, right);
    draw(&list);
    finish(env, &list);
    check_edge(env, black, black);

    list = begin(env);
    ID3D12GraphicsCommandList2_SetSamplePositions(list.list, 4, 1, left);
    ID3D12GraphicsCommandList2_SetSamplePositions(list.list, 0, 0, NULL);
    draw(&list);
    finish(env, &list);
    check_edge(env, quarter, quarter);
    CHECK_DEBUG_WARNINGS(before, 0, "SetSamplePositions");
}

/* D3D12_CENTER_MULTISAMPLE_PATTERN: one sample is at the centre anyway (every device); four at
 * the centre cover column 16 not at all (its centre is past the edge), and SetSamplePositions
 * still moves them. Without sample locations four cannot be placed: E_NOTIMPL and a line. */
static void test_center_pattern(struct env *env)
{
    ID3D12PipelineState *one = pipeline_with_samples(env, 1, D3D12_CENTER_MULTISAMPLE_PATTERN, S_OK), *center;
    const D3D12_RECT corner = {0, 0, 1, 1}, whole = {0, 0, WIDTH, HEIGHT};
    D3D12_SAMPLE_POSITION left[4];
    struct harness_list list;

    if (one)
        ID3D12PipelineState_Release(one);
    if (env->tier == D3D12_PROGRAMMABLE_SAMPLE_POSITIONS_TIER_NOT_SUPPORTED) {
        LOG_MARK();
        CHECK(!pipeline_with_samples(env, 4, D3D12_CENTER_MULTISAMPLE_PATTERN, E_NOTIMPL));
        CHECK_LOG("SampleDesc.Quality is D3D12_CENTER_MULTISAMPLE_PATTERN with 4 samples", "cannot place samples");
        return;
    }
    if (!(center = pipeline_with_samples(env, 4, D3D12_CENTER_MULTISAMPLE_PATTERN, S_OK)))
        return;
    list = begin(env);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, center);
    draw(&list);
    finish(env, &list);
    check_edge(env, black, black);

    /* after a draw of a standard pipeline of the same count (scissored to pixel 0, 0), which
     * set the standard positions: the centre pipeline's draw sets its own */
    all_at(left, -8, 0);
    list = begin(env);
    ID3D12GraphicsCommandList2_RSSetScissorRects(list.list, 1, &corner);
    draw(&list);
    ID3D12GraphicsCommandList2_RSSetScissorRects(list.list, 1, &whole);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, center);
    draw(&list);
    finish(env, &list);
    check_edge(env, black, black);

    list = begin(env);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, center);
    ID3D12GraphicsCommandList2_SetSamplePositions(list.list, 4, 1, left);
    draw(&list);
    finish(env, &list);
    check_edge(env, white, white);
    ID3D12PipelineState_Release(center);
}

/* Tier 2: a 2 x 2 grid of patterns, top-left first, aligned on even pixels. */
static void test_grid(struct env *env)
{
    D3D12_SAMPLE_POSITION grid[16];
    struct harness_list list = begin(env);

    all_at(&grid[0], -8, 0);  /* even column, even row */
    all_at(&grid[4], 7, 0);   /* odd column, even row */
    all_at(&grid[8], 7, 0);   /* even column, odd row */
    all_at(&grid[12], -8, 0); /* odd column, odd row */
    ID3D12GraphicsCommandList2_SetSamplePositions(list.list, 4, 4, grid);
    draw(&list);
    finish(env, &list);
    check_edge(env, white, black);
}

/* D3D12's rules: each broken one a debug-layer warning, and the call dropped (the positions set
 * before stay); positions for another sample count than the pipeline's draw standard ones. */
static void test_rules(struct env *env)
{
    D3D12_SAMPLE_POSITION left[4], far[16], two[2] = {{-8, 0}, {-8, 0}};
    struct harness_list list = begin(env);
    size_t before;

    all_at(left, -8, 0);
    for (int i = 0; i < 16; i++)
        far[i] = (D3D12_SAMPLE_POSITION){8, 0};
    ID3D12GraphicsCommandList2_SetSamplePositions(list.list, 4, 1, left);
    before = harness_warning_count();
    ID3D12GraphicsCommandList2_SetSamplePositions(list.list, 3, 1, left);
    CHECK_DEBUG_WARNINGS(before, 1, "NumSamplesPerPixel is 3");
    before = harness_warning_count();
    ID3D12GraphicsCommandList2_SetSamplePositions(list.list, 4, 2, left);
    CHECK_DEBUG_WARNINGS(before, 1, "NumPixels is 2");
    before = harness_warning_count();
    ID3D12GraphicsCommandList2_SetSamplePositions(list.list, 8, 4, far);
    CHECK_DEBUG_WARNINGS(before, 1, "above 16");
    before = harness_warning_count();
    ID3D12GraphicsCommandList2_SetSamplePositions(list.list, 4, 1, NULL);
    CHECK_DEBUG_WARNINGS(before, 1, "pSamplePositions is NULL");
    before = harness_warning_count();
    ID3D12GraphicsCommandList2_SetSamplePositions(list.list, 4, 1, far);
    CHECK_DEBUG_WARNINGS(before, 1, "outside -8 to 7");
    if (env->tier < D3D12_PROGRAMMABLE_SAMPLE_POSITIONS_TIER_2) {
        before = harness_warning_count();
        ID3D12GraphicsCommandList2_SetSamplePositions(list.list, 4, 4, far);
        CHECK_DEBUG_WARNINGS(before, 1, "takes ProgrammableSamplePositionsTier 2");
    }
    draw(&list);
    finish(env, &list);
    check_edge(env, white, white); /* every call after the first was dropped */

    list = begin(env);
    ID3D12GraphicsCommandList2_SetSamplePositions(list.list, 2, 1, two);
    before = harness_warning_count();
    draw(&list);
    CHECK_DEBUG_WARNINGS(before, 1, "the pipeline renders 4: it draws with the standard positions");
    finish(env, &list);
    check_edge(env, quarter, quarter);
}

/* Bundles may not call it: the bundle's Close fails (on any device). */
static void test_bundle(struct env *env)
{
    D3D12_SAMPLE_POSITION left[4];
    struct harness_list bundle = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_BUNDLE);

    all_at(left, -8, 0);
    LOG_MARK();
    ID3D12GraphicsCommandList2_SetSamplePositions(bundle.list, 4, 1, left);
    CHECK_LOG("SetSamplePositions (bundle): cannot be recorded in a bundle");
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(bundle.list), E_INVALIDARG);
    CHECK_LOG("recorded an invalid command", "SetSamplePositions");
    harness_release_list(&bundle);
}

int main(void)
{
    struct env env;

    harness_init();
    memset(&env, 0, sizeof(env));
    setup(&env);
    if (env.pipeline) {
        test_bundle(&env);
        test_center_pattern(&env);
        if (env.tier == D3D12_PROGRAMMABLE_SAMPLE_POSITIONS_TIER_NOT_SUPPORTED) {
            test_not_supported(&env);
            printf("skipped: moved sample positions, the 2 x 2 grid and the rules (the device has no VK_EXT_sample_locations with "
                    "variable locations: ProgrammableSamplePositionsTier NOT_SUPPORTED)\n");
        } else {
            test_positions(&env);
            test_rules(&env);
            if (env.tier >= D3D12_PROGRAMMABLE_SAMPLE_POSITIONS_TIER_2)
                test_grid(&env);
            else
                printf("skipped: the 2 x 2 grid (ProgrammableSamplePositionsTier 1)\n");
        }
    }
    teardown(&env);
    return harness_finish();
}
