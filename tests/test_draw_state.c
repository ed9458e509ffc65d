/* The draw state of ID3D12GraphicsCommandList8 and 9 and the smaller pieces of draws, read back:
 * RSSetDepthBias (pipelines with DYNAMIC_DEPTH_BIAS take it, others keep their own),
 * IASetIndexBufferStripCutValue (pipelines with DYNAMIC_INDEX_BUFFER_STRIP_CUT restart strips at
 * the cut), OMSetFrontAndBackStencilRef (front and back faces tested against their own
 * reference), BINARY_OCCLUSION queries (exactly 0 or 1), pipeline statistics of a known draw, and
 * render-target and depth-stencil clears of rectangles between two draws into one target, and
 * back-to-back draws through a settled list's short way (calls that keep it, calls that end it, root
 * arguments and pipelines recorded at once between them). */
#include <stdio.h>
#include <string.h>

#include "small_target.h"

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12RootSignature *signature;
    ID3D12Resource *target, *depth, *stencil, *readback;
    ID3D12DescriptorHeap *rtv_heap, *dsv_heap;
    D3D12_CPU_DESCRIPTOR_HANDLE rtv, dsv, stencil_dsv;
    uint8_t pixels[HEIGHT][WIDTH][4];
};

static const uint8_t black[4] = {0, 0, 0, 255}, green[4] = {0, 255, 0, 255}, red[4] = {255, 0, 0, 255}, blue[4] = {0, 0, 255, 255};
static const float black_f[4] = {0.0f, 0.0f, 0.0f, 1.0f}, blue_f[4] = {0.0f, 0.0f, 1.0f, 1.0f};

/* A pipeline drawing colour_source into the RGBA8 target with `dsv` (adjust changes the rest). */
static ID3D12PipelineState *pipeline(struct env *env, DXGI_FORMAT dsv, void (*adjust)(D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc))
{
    ID3D10Blob *vs = harness_compile_stage(color_source, "vs", "vs_5_0"), *ps = harness_compile_stage(color_source, "ps", "ps_5_0");
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *state = NULL;

    harness_graphics_desc(&desc, env->signature, vs, ps);
    desc.InputLayout.pInputElementDescs = vertex_layout;
    desc.InputLayout.NumElements = 2;
    desc.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    desc.DSVFormat = dsv;
    if (adjust)
        adjust(&desc);
    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&state), S_OK);
    if (vs)
        ID3D10Blob_Release(vs);
    if (ps)
        ID3D10Blob_Release(ps);
    return state;
}

static void setup(struct env *env)
{
    D3D12_DESCRIPTOR_HEAP_DESC rtv_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    D3D12_DESCRIPTOR_HEAP_DESC dsv_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_DSV, 2, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};

    env->device = harness_create_device();
    env->queue = harness_create_queue(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    env->signature = harness_root_signature(env->device, NULL, 0, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT);
    env->target = target_texture(env->device, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET, D3D12_RESOURCE_STATE_RENDER_TARGET);
    env->depth = target_texture(env->device, 1, DXGI_FORMAT_D32_FLOAT, D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL, D3D12_RESOURCE_STATE_DEPTH_WRITE);
    env->stencil = target_texture(env->device, 1, DXGI_FORMAT_D24_UNORM_S8_UINT, D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL, D3D12_RESOURCE_STATE_DEPTH_WRITE);
    env->readback = harness_create_buffer(env->device, D3D12_HEAP_TYPE_READBACK, ROW_PITCH * HEIGHT, D3D12_RESOURCE_STATE_COPY_DEST);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &rtv_desc, &IID_ID3D12DescriptorHeap, (void **)&env->rtv_heap), S_OK);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &dsv_desc, &IID_ID3D12DescriptorHeap, (void **)&env->dsv_heap), S_OK);
    env->rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(env->rtv_heap);
    env->dsv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(env->dsv_heap);
    env->stencil_dsv.ptr = env->dsv.ptr + ID3D12Device_GetDescriptorHandleIncrementSize(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_DSV);
    ID3D12Device_CreateRenderTargetView(env->device, env->target, NULL, env->rtv);
    ID3D12Device_CreateDepthStencilView(env->device, env->depth, NULL, env->dsv);
    ID3D12Device_CreateDepthStencilView(env->device, env->stencil, NULL, env->stencil_dsv);
}

static void teardown(struct env *env)
{
    ID3D12DescriptorHeap_Release(env->rtv_heap);
    ID3D12DescriptorHeap_Release(env->dsv_heap);
    ID3D12Resource_Release(env->readback);
    ID3D12Resource_Release(env->stencil);
    ID3D12Resource_Release(env->depth);
    ID3D12Resource_Release(env->target);
    ID3D12RootSignature_Release(env->signature);
    ID3D12CommandQueue_Release(env->queue);
    harness_release_device(env->device);
}

/* A list drawing into the target (cleared black) with `dsv` (or none), whole viewport and scissor. */
static struct harness_list begin(struct env *env, const D3D12_CPU_DESCRIPTOR_HANDLE *dsv)
{
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    const D3D12_VIEWPORT viewport = {0.0f, 0.0f, WIDTH, HEIGHT, 0.0f, 1.0f};
    const D3D12_RECT scissor = {0, 0, WIDTH, HEIGHT};
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, env->rtv, black_f, 0, NULL);
    ID3D12GraphicsCommandList2_OMSetRenderTargets(list.list, 1, &env->rtv, TRUE, dsv);
    ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, env->signature);
    ID3D12GraphicsCommandList2_RSSetViewports(list.list, 1, &viewport);
    ID3D12GraphicsCommandList2_RSSetScissorRects(list.list, 1, &scissor);
    ID3D12GraphicsCommandList2_IASetPrimitiveTopology(list.list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    return list;
}

static void finish(struct env *env, struct harness_list *list)
{
    target_copy_out(env->readback, list, env->target, D3D12_RESOURCE_STATE_RENDER_TARGET);
    harness_execute_and_wait(env->device, env->queue, list);
    harness_release_list(list);
    target_read_pixels(env->readback, env->pixels);
}

static void draw(struct harness_list *list, ID3D12PipelineState *state, const D3D12_VERTEX_BUFFER_VIEW *view)
{
    ID3D12GraphicsCommandList2_SetPipelineState(list->list, state);
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list->list, 0, 1, view);
    ID3D12GraphicsCommandList2_DrawInstanced(list->list, 6, 1, 0, 0);
}

static void dynamic_depth_bias(D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc)
{
    desc->Flags = D3D12_PIPELINE_STATE_FLAG_DYNAMIC_DEPTH_BIAS;
}

/* A red rectangle at depth 0.5 everywhere; then green at 0.5 on the left with a pipeline taking
 * RSSetDepthBias' bias (nearer: it passes LESS) and blue at 0.5 on the right with one that keeps
 * its own (none: it fails LESS). */
static void test_depth_bias(struct env *env)
{
    ID3D12PipelineState *plain = pipeline(env, DXGI_FORMAT_D32_FLOAT, NULL), *biased = pipeline(env, DXGI_FORMAT_D32_FLOAT, dynamic_depth_bias);
    D3D12_VERTEX_BUFFER_VIEW all_view, left_view, right_view;
    ID3D12Resource *all = target_rectangle(env->device, 0, 0, 32, 32, 0.5f, red, &all_view);
    ID3D12Resource *left = target_rectangle(env->device, 0, 0, 16, 32, 0.5f, green, &left_view);
    ID3D12Resource *right = target_rectangle(env->device, 16, 0, 32, 32, 0.5f, blue, &right_view);
    struct harness_list list = begin(env, &env->dsv);
    LOG_MARK();

    ID3D12GraphicsCommandList2_ClearDepthStencilView(list.list, env->dsv, D3D12_CLEAR_FLAG_DEPTH, 1.0f, 0, 0, NULL);
    draw(&list, plain, &all_view);
    /* 2^-24 per unit at depths in [0.5, 1): 100000 units is about 0.006 nearer */
    ID3D12GraphicsCommandList9_RSSetDepthBias((ID3D12GraphicsCommandList9 *)list.list, -100000.0f, 0.0f, 0.0f);
    draw(&list, biased, &left_view);
    draw(&list, plain, &right_view);
    finish(env, &list);
    CHECK_PIXEL(env, 4, 16, green, 0);
    CHECK_PIXEL(env, 28, 16, red, 0);
    CHECK_NO_LOG();
    ID3D12Resource_Release(all);
    ID3D12Resource_Release(left);
    ID3D12Resource_Release(right);
    ID3D12PipelineState_Release(plain);
    ID3D12PipelineState_Release(biased);
}

static void strip_pipeline(D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc)
{
    desc->DepthStencilState.DepthEnable = FALSE;
    desc->IBStripCutValue = D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_DISABLED;
    desc->Flags = D3D12_PIPELINE_STATE_FLAG_DYNAMIC_INDEX_BUFFER_STRIP_CUT;
}

static void plain_strip_pipeline(D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc)
{
    desc->DepthStencilState.DepthEnable = FALSE;
    desc->IBStripCutValue = D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_DISABLED;
}

/* A 16-bit strip 0 1 2 0xFFFF 3 4 5 over 65536 vertices: cut at 0xFFFF, two small triangles;
 * not cut, triangles through vertex 65535 (top right) also cover the top middle. */
static void test_strip_cut(struct env *env)
{
    static const uint16_t indices[7] = {0, 1, 2, 0xffff, 3, 4, 5};
    static const float corners[7][2] = {{2, 2}, {10, 2}, {2, 10}, {22, 22}, {30, 22}, {22, 30}, {30, 2}};
    ID3D12PipelineState *dynamic = pipeline(env, DXGI_FORMAT_UNKNOWN, strip_pipeline), *plain = pipeline(env, DXGI_FORMAT_UNKNOWN, plain_strip_pipeline);
    ID3D12Resource *vb = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, 65536 * sizeof(struct vertex), D3D12_RESOURCE_STATE_GENERIC_READ);
    ID3D12Resource *ib = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, sizeof(indices), D3D12_RESOURCE_STATE_GENERIC_READ);
    D3D12_VERTEX_BUFFER_VIEW view = {ID3D12Resource_GetGPUVirtualAddress(vb), 65536 * sizeof(struct vertex), sizeof(struct vertex)};
    D3D12_INDEX_BUFFER_VIEW index_view = {ID3D12Resource_GetGPUVirtualAddress(ib), sizeof(indices), DXGI_FORMAT_R16_UINT};
    struct vertex *v = NULL;
    void *mapped = NULL;
    LOG_MARK();

    CHECK_HR(ID3D12Resource_Map(vb, 0, NULL, (void **)&v), S_OK);
    for (int i = 0; v && i < 7; i++)
        v[i < 6 ? i : 65535] = (struct vertex){2.0f * corners[i][0] / WIDTH - 1.0f, 1.0f - 2.0f * corners[i][1] / HEIGHT, 0.5f, {0, 255, 0, 255}};
    ID3D12Resource_Unmap(vb, 0, NULL);
    CHECK_HR(ID3D12Resource_Map(ib, 0, NULL, &mapped), S_OK);
    if (mapped)
        memcpy(mapped, indices, sizeof(indices));
    ID3D12Resource_Unmap(ib, 0, NULL);

    for (int pass = 0; pass < 3; pass++) {
        /* 0: the dynamic pipeline, cut set; 1: the dynamic pipeline, cut never set (its own:
         * DISABLED); 2: a pipeline without the flag, cut set (ignored) */
        struct harness_list list = begin(env, NULL);
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, pass == 2 ? plain : dynamic);
        ID3D12GraphicsCommandList2_IASetPrimitiveTopology(list.list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP);
        ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 1, &view);
        ID3D12GraphicsCommandList2_IASetIndexBuffer(list.list, &index_view);
        if (pass != 1)
            ID3D12GraphicsCommandList9_IASetIndexBufferStripCutValue((ID3D12GraphicsCommandList9 *)list.list,
                    D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_0xFFFF);
        ID3D12GraphicsCommandList2_DrawIndexedInstanced(list.list, 7, 1, 0, 0, 0);
        finish(env, &list);
        CHECK_PIXEL(env, 4, 4, green, 0);
        CHECK_PIXEL(env, 24, 24, green, 0);
        CHECK_PIXEL(env, 20, 3, pass ? green : black, 0);
    }
    CHECK_NO_LOG();
    ID3D12Resource_Release(ib);
    ID3D12Resource_Release(vb);
    ID3D12PipelineState_Release(dynamic);
    ID3D12PipelineState_Release(plain);
}

static void stencil_equal(D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc)
{
    desc->DepthStencilState.DepthEnable = FALSE;
    desc->DepthStencilState.StencilEnable = TRUE;
    desc->DepthStencilState.FrontFace.StencilFunc = D3D12_COMPARISON_FUNC_EQUAL;
    desc->DepthStencilState.BackFace.StencilFunc = D3D12_COMPARISON_FUNC_EQUAL;
}

/* A rectangle's two triangles in the other winding: back-facing. */
static void reverse(ID3D12Resource *buffer)
{
    struct vertex *v = NULL, t;
    CHECK_HR(ID3D12Resource_Map(buffer, 0, NULL, (void **)&v), S_OK);
    for (int i = 0; v && i < 6; i += 3)
        t = v[i + 1], v[i + 1] = v[i + 2], v[i + 2] = t;
    ID3D12Resource_Unmap(buffer, 0, NULL);
}

/* Stencil cleared to 5, EQUAL on both faces: front reference 5 and back 7 let the front-facing
 * rectangle through and stop the back-facing one; 7 and 5 the other way round. */
static void test_front_and_back_stencil_ref(struct env *env)
{
    ID3D12PipelineState *state = pipeline(env, DXGI_FORMAT_D24_UNORM_S8_UINT, stencil_equal);
    D3D12_VERTEX_BUFFER_VIEW views[4];
    ID3D12Resource *quads[4] = {
        target_rectangle(env->device, 0, 0, 16, 16, 0.5f, green, &views[0]), target_rectangle(env->device, 16, 0, 32, 16, 0.5f, green, &views[1]),
        target_rectangle(env->device, 0, 16, 16, 32, 0.5f, blue, &views[2]), target_rectangle(env->device, 16, 16, 32, 32, 0.5f, blue, &views[3]),
    };
    struct harness_list list = begin(env, &env->stencil_dsv);
    LOG_MARK();

    reverse(quads[1]);
    reverse(quads[3]);
    ID3D12GraphicsCommandList2_ClearDepthStencilView(list.list, env->stencil_dsv, D3D12_CLEAR_FLAG_DEPTH | D3D12_CLEAR_FLAG_STENCIL, 1.0f, 5, 0, NULL);
    ID3D12GraphicsCommandList8_OMSetFrontAndBackStencilRef((ID3D12GraphicsCommandList8 *)list.list, 5, 7);
    draw(&list, state, &views[0]);
    draw(&list, state, &views[1]);
    ID3D12GraphicsCommandList8_OMSetFrontAndBackStencilRef((ID3D12GraphicsCommandList8 *)list.list, 7, 5);
    draw(&list, state, &views[2]);
    draw(&list, state, &views[3]);
    finish(env, &list);
    CHECK_PIXEL(env, 8, 8, green, 0);   /* front, 5 = 5 */
    CHECK_PIXEL(env, 24, 8, black, 0);  /* back, 7 != 5 */
    CHECK_PIXEL(env, 8, 24, black, 0);  /* front, 7 != 5 */
    CHECK_PIXEL(env, 24, 24, blue, 0);  /* back, 5 = 5 */
    CHECK_NO_LOG();
    for (int i = 0; i < 4; i++)
        ID3D12Resource_Release(quads[i]);
    ID3D12PipelineState_Release(state);
}

/* BINARY_OCCLUSION resolves to exactly 1 for a draw passing 256 samples and 0 for one passing
 * none, where OCCLUSION counts the 256. Pipeline statistics of one draw of two triangles
 * covering 16 x 16 pixels. */
static void test_queries(struct env *env)
{
    D3D12_QUERY_HEAP_DESC occlusion_desc = {D3D12_QUERY_HEAP_TYPE_OCCLUSION, 3, 0};
    D3D12_QUERY_HEAP_DESC statistics_desc = {D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS, 1, 0};
    ID3D12PipelineState *state = pipeline(env, DXGI_FORMAT_UNKNOWN, plain_strip_pipeline);
    D3D12_VERTEX_BUFFER_VIEW view;
    ID3D12Resource *quad = target_rectangle(env->device, 8, 8, 24, 24, 0.5f, green, &view);
    ID3D12Resource *results = harness_create_buffer(env->device, D3D12_HEAP_TYPE_DEFAULT, 3 * 8 + sizeof(D3D12_QUERY_DATA_PIPELINE_STATISTICS),
            D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12QueryHeap *occlusion = NULL, *statistics = NULL;
    const D3D12_RECT nothing = {0, 0, 0, 0};
    struct harness_list list = begin(env, NULL);
    uint64_t data[3 + sizeof(D3D12_QUERY_DATA_PIPELINE_STATISTICS) / 8];
    D3D12_QUERY_DATA_PIPELINE_STATISTICS stats;
    LOG_MARK();

    CHECK_HR(ID3D12Device_CreateQueryHeap(env->device, &occlusion_desc, &IID_ID3D12QueryHeap, (void **)&occlusion), S_OK);
    CHECK_HR(ID3D12Device_CreateQueryHeap(env->device, &statistics_desc, &IID_ID3D12QueryHeap, (void **)&statistics), S_OK);
    ID3D12GraphicsCommandList2_BeginQuery(list.list, occlusion, D3D12_QUERY_TYPE_BINARY_OCCLUSION, 0);
    draw(&list, state, &view);
    ID3D12GraphicsCommandList2_EndQuery(list.list, occlusion, D3D12_QUERY_TYPE_BINARY_OCCLUSION, 0);
    ID3D12GraphicsCommandList2_BeginQuery(list.list, occlusion, D3D12_QUERY_TYPE_OCCLUSION, 1);
    draw(&list, state, &view);
    ID3D12GraphicsCommandList2_EndQuery(list.list, occlusion, D3D12_QUERY_TYPE_OCCLUSION, 1);
    ID3D12GraphicsCommandList2_BeginQuery(list.list, statistics, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0);
    draw(&list, state, &view);
    ID3D12GraphicsCommandList2_EndQuery(list.list, statistics, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0);
    ID3D12GraphicsCommandList2_RSSetScissorRects(list.list, 1, &nothing);
    ID3D12GraphicsCommandList2_BeginQuery(list.list, occlusion, D3D12_QUERY_TYPE_BINARY_OCCLUSION, 2);
    draw(&list, state, &view);
    ID3D12GraphicsCommandList2_EndQuery(list.list, occlusion, D3D12_QUERY_TYPE_BINARY_OCCLUSION, 2);
    ID3D12GraphicsCommandList2_ResolveQueryData(list.list, occlusion, D3D12_QUERY_TYPE_BINARY_OCCLUSION, 0, 1, results, 0);
    ID3D12GraphicsCommandList2_ResolveQueryData(list.list, occlusion, D3D12_QUERY_TYPE_OCCLUSION, 1, 1, results, 8);
    ID3D12GraphicsCommandList2_ResolveQueryData(list.list, occlusion, D3D12_QUERY_TYPE_BINARY_OCCLUSION, 2, 1, results, 16);
    ID3D12GraphicsCommandList2_ResolveQueryData(list.list, statistics, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0, 1, results, 24);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    harness_read_back(env->device, env->queue, results, data, sizeof(data));
    CHECK_MSG(data[0] == 1, "BINARY_OCCLUSION of a visible draw is %llu (1 expected)", (unsigned long long)data[0]);
    CHECK_MSG(data[1] == 256, "OCCLUSION of the same draw is %llu (256 expected)", (unsigned long long)data[1]);
    CHECK_MSG(data[2] == 0, "BINARY_OCCLUSION of a hidden draw is %llu (0 expected)", (unsigned long long)data[2]);
    memcpy(&stats, &data[3], sizeof(stats));
    printf("pipeline statistics of 6 vertices, 2 triangles, 256 pixels: IAVertices %llu IAPrimitives %llu VSInvocations %llu GSInvocations %llu "
            "GSPrimitives %llu CInvocations %llu CPrimitives %llu PSInvocations %llu HSInvocations %llu DSInvocations %llu CSInvocations %llu\n",
            (unsigned long long)stats.IAVertices, (unsigned long long)stats.IAPrimitives, (unsigned long long)stats.VSInvocations,
            (unsigned long long)stats.GSInvocations, (unsigned long long)stats.GSPrimitives, (unsigned long long)stats.CInvocations,
            (unsigned long long)stats.CPrimitives, (unsigned long long)stats.PSInvocations, (unsigned long long)stats.HSInvocations,
            (unsigned long long)stats.DSInvocations, (unsigned long long)stats.CSInvocations);
    /* exact on every device: what the input assembler reads and the clipper gets */
    CHECK(stats.IAVertices == 6);
    CHECK(stats.IAPrimitives == 2);
    CHECK(stats.CInvocations == 2);
    /* what leaves the clipper: lavapipe counts only primitives it had to clip (0 here) */
    CHECK_MSG(stats.CPrimitives <= 2, "CPrimitives %llu", (unsigned long long)stats.CPrimitives);
    CHECK(stats.GSInvocations == 0 && stats.GSPrimitives == 0 && stats.HSInvocations == 0 && stats.DSInvocations == 0 && stats.CSInvocations == 0);
    /* at least one invocation per vertex and per covered pixel (implementations may shade more) */
    CHECK_MSG(stats.VSInvocations >= 4 && stats.VSInvocations <= 6, "VSInvocations %llu", (unsigned long long)stats.VSInvocations);
    CHECK_MSG(stats.PSInvocations >= 256, "PSInvocations %llu", (unsigned long long)stats.PSInvocations);
    CHECK_NO_LOG();
    ID3D12QueryHeap_Release(occlusion);
    ID3D12QueryHeap_Release(statistics);
    ID3D12Resource_Release(results);
    ID3D12Resource_Release(quad);
    ID3D12PipelineState_Release(state);
}

/* Two draws into one target around clears of rectangles: a red rectangle at depth 0.5 over
 * everything; the left half's depth cleared to 1.0 and the top right quarter's colour to blue;
 * then green at 0.7 over everything (LESS): it lands where the depth is 1.0 again. */
static void test_clear_rects_between_draws(struct env *env)
{
    ID3D12PipelineState *state = pipeline(env, DXGI_FORMAT_D32_FLOAT, NULL);
    D3D12_VERTEX_BUFFER_VIEW red_view, green_view;
    ID3D12Resource *red_quad = target_rectangle(env->device, 0, 0, 32, 32, 0.5f, red, &red_view);
    ID3D12Resource *green_quad = target_rectangle(env->device, 0, 0, 32, 32, 0.7f, green, &green_view);
    const D3D12_RECT left = {0, 0, 16, 32}, top_right = {16, 0, 32, 16};
    struct harness_list list = begin(env, &env->dsv);
    LOG_MARK();

    ID3D12GraphicsCommandList2_ClearDepthStencilView(list.list, env->dsv, D3D12_CLEAR_FLAG_DEPTH, 1.0f, 0, 0, NULL);
    draw(&list, state, &red_view);
    ID3D12GraphicsCommandList2_ClearDepthStencilView(list.list, env->dsv, D3D12_CLEAR_FLAG_DEPTH, 1.0f, 0, 1, &left);
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, env->rtv, blue_f, 1, &top_right);
    draw(&list, state, &green_view);
    finish(env, &list);
    CHECK_PIXEL(env, 4, 4, green, 0);
    CHECK_PIXEL(env, 12, 28, green, 0);
    CHECK_PIXEL(env, 20, 4, blue, 0);
    CHECK_PIXEL(env, 31, 15, blue, 0);
    CHECK_PIXEL(env, 20, 20, red, 0);
    CHECK_PIXEL(env, 16, 16, red, 0);
    CHECK_NO_LOG();
    ID3D12Resource_Release(red_quad);
    ID3D12Resource_Release(green_quad);
    ID3D12PipelineState_Release(state);
}

/* A vertex buffer stride above D3D12's 2048 is undefined there (its debug layer reports it):
 * one debug-layer warning, the list stays valid and the slot reads 0, so the rectangle's
 * corners all sit at the origin and nothing is drawn. */
static void test_stride_too_large(struct env *env)
{
    ID3D12PipelineState *state = pipeline(env, DXGI_FORMAT_D32_FLOAT, NULL);
    D3D12_VERTEX_BUFFER_VIEW view;
    ID3D12Resource *quad = target_rectangle(env->device, 0, 0, 32, 32, 0.5f, red, &view);
    struct harness_list list = begin(env, &env->dsv);
    size_t warnings = harness_warning_count();
    LOG_MARK();

    view.StrideInBytes = 4096;
    ID3D12GraphicsCommandList2_ClearDepthStencilView(list.list, env->dsv, D3D12_CLEAR_FLAG_DEPTH, 1.0f, 0, 0, NULL);
    draw(&list, state, &view);
    CHECK_DEBUG_WARNINGS(warnings, 1, "StrideInBytes is 4096");
    finish(env, &list);
    CHECK_NO_LOG();
    CHECK_PIXEL(env, 16, 16, black, 0);
    ID3D12Resource_Release(quad);
    ID3D12PipelineState_Release(state);
}

/* Back-to-back draws take a settled list's short way (command_list_graphics.c, draw_settled):
 * vertex and index buffers set between them keep it, any other call (here a scissor) ends it,
 * and each call between them still takes effect. Depths fall from draw to draw (LESS). The
 * short way is taken without the console validation (the debug layer turns it on): ctest's
 * draw_state/no_console_validation. */
static void test_settled_draws(struct env *env)
{
    static const uint8_t white[4] = {255, 255, 255, 255};
    static const uint16_t indices[6] = {0, 1, 2, 3, 4, 5};
    ID3D12PipelineState *state = pipeline(env, DXGI_FORMAT_D32_FLOAT, NULL);
    D3D12_VERTEX_BUFFER_VIEW red_view, green_view, blue_view, white_view;
    ID3D12Resource *red_quad = target_rectangle(env->device, 0, 0, 32, 32, 0.9f, red, &red_view);
    ID3D12Resource *green_quad = target_rectangle(env->device, 0, 0, 16, 32, 0.7f, green, &green_view);
    ID3D12Resource *blue_quad = target_rectangle(env->device, 0, 0, 32, 32, 0.5f, blue, &blue_view);
    ID3D12Resource *white_quad = target_rectangle(env->device, 16, 0, 32, 32, 0.3f, white, &white_view);
    ID3D12Resource *index_buffer = harness_upload_buffer(env->device, indices, sizeof(indices));
    const D3D12_INDEX_BUFFER_VIEW index_view = {ID3D12Resource_GetGPUVirtualAddress(index_buffer), sizeof(indices), DXGI_FORMAT_R16_UINT};
    const D3D12_RECT bottom = {0, 16, 32, 32};
    struct harness_list list = begin(env, &env->dsv);
    size_t warnings = harness_warning_count();
    LOG_MARK();

    ID3D12GraphicsCommandList2_ClearDepthStencilView(list.list, env->dsv, D3D12_CLEAR_FLAG_DEPTH, 1.0f, 0, 0, NULL);
    draw(&list, state, &red_view);
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 1, &green_view);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 0, 1, 0, 0);
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 1, &blue_view);
    ID3D12GraphicsCommandList2_RSSetScissorRects(list.list, 1, &bottom);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0);
    ID3D12GraphicsCommandList2_IASetIndexBuffer(list.list, NULL);
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 1, &white_view);
    ID3D12GraphicsCommandList2_DrawIndexedInstanced(list.list, 6, 1, 0, 0, 0);
    CHECK_DEBUG_WARNINGS(warnings, 1, "no index buffer is set");
    ID3D12GraphicsCommandList2_IASetIndexBuffer(list.list, &index_view);
    ID3D12GraphicsCommandList2_DrawIndexedInstanced(list.list, 6, 1, 0, 0, 0);
    finish(env, &list);
    CHECK_NO_LOG();
    CHECK_PIXEL(env, 8, 4, green, 0);
    CHECK_PIXEL(env, 24, 4, red, 0);
    CHECK_PIXEL(env, 8, 24, blue, 0);
    CHECK_PIXEL(env, 24, 24, white, 0);
    ID3D12Resource_Release(index_buffer);
    ID3D12Resource_Release(white_quad);
    ID3D12Resource_Release(blue_quad);
    ID3D12Resource_Release(green_quad);
    ID3D12Resource_Release(red_quad);
    ID3D12PipelineState_Release(state);
}

/* A list that stops recording is settled for nothing (command_list.c, stop_recording): calls
 * after Close, on a list whose last draw left it settled and with a view in the range found
 * last, and calls on a list created closed (CreateCommandList1) are each reported as made on a
 * closed list and recorded nowhere (a draw into the ended command buffer would be a validation
 * error). */
static void test_settled_then_closed(struct env *env)
{
    ID3D12PipelineState *state = pipeline(env, DXGI_FORMAT_D32_FLOAT, NULL);
    D3D12_VERTEX_BUFFER_VIEW red_view;
    ID3D12Resource *red_quad = target_rectangle(env->device, 0, 0, 32, 32, 0.9f, red, &red_view);
    struct harness_list list = begin(env, &env->dsv);
    ID3D12GraphicsCommandList2 *created_closed = NULL;
    ID3D12Device4 *device4 = NULL;
    LOG_MARK();

    draw(&list, state, &red_view);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), S_OK);
    CHECK_NO_LOG();
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 1, &red_view);
    CHECK_LOG("IASetVertexBuffers", "closed");
    RELOG_MARK();
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0);
    CHECK_LOG("DrawInstanced", "closed");
    RELOG_MARK();
    ID3D12GraphicsCommandList2_DrawIndexedInstanced(list.list, 6, 1, 0, 0, 0);
    CHECK_LOG("DrawIndexedInstanced", "closed");
    harness_release_list(&list);

    CHECK_HR(ID3D12Device_QueryInterface(env->device, &IID_ID3D12Device4, (void **)&device4), S_OK);
    CHECK_HR(ID3D12Device4_CreateCommandList1(device4, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_LIST_FLAG_NONE,
            &IID_ID3D12GraphicsCommandList2, (void **)&created_closed), S_OK);
    RELOG_MARK();
    ID3D12GraphicsCommandList2_IASetVertexBuffers(created_closed, 0, 1, &red_view);
    CHECK_LOG("IASetVertexBuffers", "closed");
    RELOG_MARK();
    ID3D12GraphicsCommandList2_DrawInstanced(created_closed, 6, 1, 0, 0);
    CHECK_LOG("DrawInstanced", "closed");
    RELOG_MARK();
    ID3D12GraphicsCommandList2_Dispatch(created_closed, 1, 1, 1);
    CHECK_LOG("Dispatch", "closed");
    ID3D12GraphicsCommandList2_Release(created_closed);
    ID3D12Device4_Release(device4);
    ID3D12Resource_Release(red_quad);
    ID3D12PipelineState_Release(state);
}

static void red_writes_only(D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc)
{
    desc->BlendState.RenderTarget[0].RenderTargetWriteMask = D3D12_COLOR_WRITE_ENABLE_RED;
}

/* SetPipelineState between settled draws, to a pipeline that draws alike (same formats, same
 * dynamic state: only what a pipeline bind changes differs, here the colour write mask) keeps the
 * list settled, and each draw must still bind its own pipeline: a red rectangle, then blue on the
 * left with a pipeline that writes only red (the left turns black), then white on the right with
 * the first one again (all of it written), then a switch to one that does not draw alike
 * (dynamic depth bias) and back. */
static void test_settled_pipeline_switch(struct env *env)
{
    static const uint8_t white[4] = {255, 255, 255, 255};
    ID3D12PipelineState *plain = pipeline(env, DXGI_FORMAT_D32_FLOAT, NULL), *red_only = pipeline(env, DXGI_FORMAT_D32_FLOAT, red_writes_only);
    ID3D12PipelineState *biased = pipeline(env, DXGI_FORMAT_D32_FLOAT, dynamic_depth_bias);
    D3D12_VERTEX_BUFFER_VIEW red_view, blue_view, white_view, green_view;
    ID3D12Resource *red_quad = target_rectangle(env->device, 0, 0, 32, 32, 0.9f, red, &red_view);
    ID3D12Resource *blue_quad = target_rectangle(env->device, 0, 0, 16, 32, 0.7f, blue, &blue_view);
    ID3D12Resource *white_quad = target_rectangle(env->device, 16, 0, 32, 16, 0.5f, white, &white_view);
    ID3D12Resource *green_quad = target_rectangle(env->device, 16, 16, 32, 32, 0.5f, green, &green_view);
    struct harness_list list = begin(env, &env->dsv);
    LOG_MARK();

    ID3D12GraphicsCommandList2_ClearDepthStencilView(list.list, env->dsv, D3D12_CLEAR_FLAG_DEPTH, 1.0f, 0, 0, NULL);
    draw(&list, plain, &red_view);
    draw(&list, red_only, &blue_view);
    draw(&list, plain, &white_view);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, biased);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, red_only);
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 1, &green_view);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0);
    finish(env, &list);
    CHECK_NO_LOG();
    CHECK_PIXEL(env, 8, 8, black, 0);     /* red, then only blue's red (0) written */
    CHECK_PIXEL(env, 24, 8, white, 0);    /* the first pipeline again */
    CHECK_PIXEL(env, 24, 24, black, 0);   /* green through the red-only pipeline: red 0 */
    ID3D12Resource_Release(green_quad);
    ID3D12Resource_Release(white_quad);
    ID3D12Resource_Release(blue_quad);
    ID3D12Resource_Release(red_quad);
    ID3D12PipelineState_Release(biased);
    ID3D12PipelineState_Release(red_only);
    ID3D12PipelineState_Release(plain);
}

/* A list settled by one draw of `state` with `view`, root constant 255 and `table`: where
 * test_settled_root_arguments' refusals start. */
static struct harness_list begin_settled(struct env *env, ID3D12RootSignature *signature, ID3D12DescriptorHeap *heap,
        D3D12_GPU_DESCRIPTOR_HANDLE table, ID3D12PipelineState *state, const D3D12_VERTEX_BUFFER_VIEW *view)
{
    struct harness_list list = begin(env, NULL);

    ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &heap);
    ID3D12GraphicsCommandList2_SetGraphicsRoot32BitConstant(list.list, 0, 255, 0);
    ID3D12GraphicsCommandList2_SetGraphicsRootDescriptorTable(list.list, 1, table);
    draw(&list, state, view);
    return list;
}

/* Root constants, tables and pipelines set between settled draws are recorded at once (the
 * list's next draw then has nothing to apply: command_list_bindings.c, applies_now, and
 * SetPipelineState's bind of a pipeline that draws alike). Each quarter is drawn with what was set
 * just before it: a colour from a table times a root constant, through a pipeline that swizzles
 * it or not. A table set off the heap between settled draws is still refused at the draw. */
static void test_settled_root_arguments(struct env *env)
{
    static const char source[] =
        "struct V { float4 pos : SV_Position; float4 color : COLOR; };\n"
        "cbuffer Scale : register(b0) { uint scale; };\n"
        "Buffer<float4> colors : register(t0);\n"
        "V vs(float3 pos : POSITION, float4 color : COLOR) { V o; o.pos = float4(pos, 1); o.color = color; return o; }\n"
        "float4 ps(V i) : SV_Target { return colors[0] * (scale / 255.0); }\n"
        "float4 ps_swizzled(V i) : SV_Target { return colors[0].bgra * (scale / 255.0); }\n";
    static const float palette[3][4] = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}};
    static const uint8_t half_blue[4] = {0, 0, 128, 128};
    D3D12_DESCRIPTOR_RANGE1 srv = {D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 1, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 0};
    D3D12_ROOT_PARAMETER1 parameters[2];
    D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 3, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    ID3D12DescriptorHeap *heap = NULL;
    ID3D12Resource *colors = harness_upload_buffer(env->device, palette, sizeof(palette));
    ID3D10Blob *vs = harness_compile_stage(source, "vs", "vs_5_0"), *ps = harness_compile_stage(source, "ps", "ps_5_0");
    ID3D10Blob *ps_swizzled = harness_compile_stage(source, "ps_swizzled", "ps_5_0");
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *plain = NULL, *swizzled = NULL;
    D3D12_VERTEX_BUFFER_VIEW views[4];
    ID3D12Resource *quads[4];
    D3D12_GPU_DESCRIPTOR_HANDLE tables[3], off_heap;
    UINT increment = ID3D12Device_GetDescriptorHandleIncrementSize(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    ID3D12RootSignature *signature;
    struct harness_list list;
    LOG_MARK();

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 1;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    parameters[1].DescriptorTable.NumDescriptorRanges = 1;
    parameters[1].DescriptorTable.pDescriptorRanges = &srv;
    signature = harness_root_signature(env->device, parameters, 2, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&heap), S_OK);
    for (UINT i = 0; i < 3; i++) {
        D3D12_SHADER_RESOURCE_VIEW_DESC view;
        D3D12_CPU_DESCRIPTOR_HANDLE cpu = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap);
        memset(&view, 0, sizeof(view));
        view.Format = DXGI_FORMAT_R32G32B32A32_FLOAT;
        view.ViewDimension = D3D12_SRV_DIMENSION_BUFFER;
        view.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
        view.Buffer.FirstElement = i;
        view.Buffer.NumElements = 1;
        cpu.ptr += (SIZE_T)i * increment;
        ID3D12Device_CreateShaderResourceView(env->device, colors, &view, cpu);
        tables[i] = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(heap);
        tables[i].ptr += (UINT64)i * increment;
    }
    off_heap = tables[2];
    off_heap.ptr += 5 * (UINT64)increment;
    harness_graphics_desc(&desc, signature, vs, ps);
    desc.InputLayout.pInputElementDescs = vertex_layout;
    desc.InputLayout.NumElements = 2;
    desc.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&plain), S_OK);
    desc.PS.pShaderBytecode = ID3D10Blob_GetBufferPointer(ps_swizzled);
    desc.PS.BytecodeLength = ID3D10Blob_GetBufferSize(ps_swizzled);
    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&swizzled), S_OK);
    for (int q = 0; q < 4; q++)
        quads[q] = target_rectangle(env->device, q & 1 ? 16 : 0, q & 2 ? 16 : 0, q & 1 ? 32 : 16, q & 2 ? 32 : 16, 0.5f, black, &views[q]);

    list = begin(env, NULL);
    ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &heap);
    ID3D12GraphicsCommandList2_SetGraphicsRoot32BitConstant(list.list, 0, 255, 0);
    ID3D12GraphicsCommandList2_SetGraphicsRootDescriptorTable(list.list, 1, tables[0]);
    draw(&list, plain, &views[0]);                                   /* red */
    /* a pipeline that never drew: bound by the next draw's flush, which checks it */
    draw(&list, swizzled, &views[1]);                                /* red swizzled: blue */
    /* both have drawn: each change below is recorded at once */
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, plain);
    ID3D12GraphicsCommandList2_SetGraphicsRootDescriptorTable(list.list, 1, tables[2]);
    ID3D12GraphicsCommandList2_SetGraphicsRoot32BitConstant(list.list, 0, 128, 0);
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 1, &views[2]);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0); /* blue at 128 */
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, swizzled);
    ID3D12GraphicsCommandList2_SetGraphicsRoot32BitConstant(list.list, 0, 255, 0);
    ID3D12GraphicsCommandList2_SetGraphicsRootDescriptorTable(list.list, 1, tables[0]);
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 1, &views[3]);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0); /* red swizzled: blue */
    finish(env, &list);
    CHECK_NO_LOG();
    CHECK_PIXEL(env, 8, 8, red, 0);
    CHECK_PIXEL(env, 24, 8, blue, 0);
    CHECK_PIXEL(env, 8, 24, half_blue, 1);  /* red: the old pipeline or table; full: the old constant */
    CHECK_PIXEL(env, 24, 24, blue, 0);      /* red: the old pipeline or table */

    /* two views into one buffer between settled draws: the second lies in the range the first
     * was found in (view_hint), so the short way binds it without a look-up */
    {
        static const uint8_t half_red[4] = {128, 0, 0, 128};
        ID3D12Resource *shared = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, 12 * sizeof(struct vertex),
                D3D12_RESOURCE_STATE_GENERIC_READ);
        struct vertex *shared_vertices = NULL, *quad_vertices = NULL;
        D3D12_VERTEX_BUFFER_VIEW halves[2];
        CHECK_HR(ID3D12Resource_Map(shared, 0, NULL, (void **)&shared_vertices), S_OK);
        for (int h = 0; h < 2 && shared_vertices; h++) { /* quads 0 (top left) and 3 (bottom right) */
            CHECK_HR(ID3D12Resource_Map(quads[3 * h], 0, NULL, (void **)&quad_vertices), S_OK);
            if (quad_vertices)
                memcpy(shared_vertices + 6 * h, quad_vertices, 6 * sizeof(struct vertex));
            ID3D12Resource_Unmap(quads[3 * h], 0, NULL);
            halves[h] = (D3D12_VERTEX_BUFFER_VIEW){ID3D12Resource_GetGPUVirtualAddress(shared) + 6 * h * sizeof(struct vertex),
                    6 * sizeof(struct vertex), sizeof(struct vertex)};
        }
        ID3D12Resource_Unmap(shared, 0, NULL);
        list = begin_settled(env, signature, heap, tables[0], plain, &halves[0]); /* red */
        ID3D12GraphicsCommandList2_SetGraphicsRoot32BitConstant(list.list, 0, 128, 0);
        ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 1, &halves[1]);
        ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0); /* red at 128 */
        finish(env, &list);
        CHECK_NO_LOG();
        CHECK_PIXEL(env, 8, 8, red, 0);       /* half red: the second draw read the first view */
        CHECK_PIXEL(env, 24, 24, half_red, 1); /* black: the same */
        CHECK_PIXEL(env, 24, 8, black, 0);
        ID3D12Resource_Release(shared);
    }

    /* tables past the heap, inside a descriptor and before the heap, set between settled draws:
     * the short way leaves each to the flush, which refuses it at the draw */
    for (int bad = 0; bad < 3; bad++) {
        D3D12_GPU_DESCRIPTOR_HANDLE table = off_heap;
        if (bad == 1)
            table.ptr = tables[1].ptr + 8;
        else if (bad == 2)
            table.ptr = tables[0].ptr - increment;
        list = begin_settled(env, signature, heap, tables[0], plain, &views[0]);
        ID3D12GraphicsCommandList2_SetGraphicsRootDescriptorTable(list.list, 1, table);
        ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0);
        CHECK_LOG("DrawInstanced", "root parameter 1's table", "does not lie inside the bound CBV_SRV_UAV heap");
        RELOG_MARK();
        CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
        CHECK_LOG("Close", "recorded an invalid command");
        RELOG_MARK();
        harness_release_list(&list);
    }

    /* a vertex buffer view in no live buffer between settled draws: the short way leaves it to
     * the full one, which refuses it */
    list = begin_settled(env, signature, heap, tables[0], plain, &views[0]);
    /* the list remembers the range a view was found in (view_hint): a view into a buffer released
     * since is refused, however recently the range was found (slot 5, which the pipeline does
     * not read: nothing of the released buffer is bound) */
    ID3D12Resource *released = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, 256, D3D12_RESOURCE_STATE_GENERIC_READ);
    D3D12_VERTEX_BUFFER_VIEW gone = {ID3D12Resource_GetGPUVirtualAddress(released) + 16, 64, 16};
    RELOG_MARK();
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 5, 1, &gone);
    CHECK_NO_LOG();
    ID3D12Resource_Release(released);
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 5, 1, &gone);
    CHECK_LOG("IASetVertexBuffers", "pViews[0].BufferLocation", "not an address in a live buffer");
    RELOG_MARK();
    D3D12_VERTEX_BUFFER_VIEW stray = views[1];
    stray.BufferLocation = 0x1234;
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 1, &stray);
    CHECK_LOG("IASetVertexBuffers", "pViews[0].BufferLocation 0x1234", "not an address in a live buffer");
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
    CHECK_LOG("Close", "recorded an invalid command");
    harness_release_list(&list);

    for (int q = 0; q < 4; q++)
        ID3D12Resource_Release(quads[q]);
    ID3D12PipelineState_Release(swizzled);
    ID3D12PipelineState_Release(plain);
    ID3D10Blob_Release(ps_swizzled);
    ID3D10Blob_Release(ps);
    ID3D10Blob_Release(vs);
    ID3D12Resource_Release(colors);
    ID3D12DescriptorHeap_Release(heap);
    ID3D12RootSignature_Release(signature);
}

int main(void)
{
    struct env env;

    harness_init();
    memset(&env, 0, sizeof(env));
    setup(&env);
    test_depth_bias(&env);
    test_strip_cut(&env);
    test_front_and_back_stencil_ref(&env);
    test_queries(&env);
    test_clear_rects_between_draws(&env);
    test_stride_too_large(&env);
    test_settled_draws(&env);
    test_settled_then_closed(&env);
    test_settled_pipeline_switch(&env);
    test_settled_root_arguments(&env);
    teardown(&env);
    return harness_finish();
}
