/* Graphics pipelines with and without a geometry shader under one root signature (no DENY_*
 * flags), the list switching between them: root constants, a descriptor table and a root SRV set
 * once stay what each draw reads, with direct draws and through ExecuteIndirect setting a root
 * constant per command. The geometry shader reads a root constant too (it emits only when the
 * constant is 7), so a push that missed its stage draws nothing. The root signature's one graphics
 * layout serves both pipelines (its pushes name every graphics stage): a layout for vertex +
 * pixel pipelines apart was tried and measured no cheaper on the H100 (docs/benchmarks.md,
 * "bench_draw", RAW_LIKE 4). */
#include <stdio.h>
#include <string.h>

#include "small_target.h"

static const char source[] =
    "cbuffer C : register(b0) { uint4 c; };\n"
    "Buffer<uint> table_buffer : register(t0);\n"
    "ByteAddressBuffer root_buffer : register(t1);\n"
    "struct V { float4 pos : SV_Position; };\n"
    "V vs(float3 pos : POSITION) { V o; o.pos = float4(pos, 1); return o; }\n"
    "[maxvertexcount(3)] void gs(triangle V i[3], inout TriangleStream<V> s)\n"
    "{ if (c.y == 7) { s.Append(i[0]); s.Append(i[1]); s.Append(i[2]); } }\n"
    "float4 ps(V i) : SV_Target { return float4(c.x / 255.0, root_buffer.Load(0) / 255.0, table_buffer[0] / 255.0, 1); }\n";

enum { ROOT_VALUE = 50, TABLE_VALUE = 90 };

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12RootSignature *signature;
    ID3D12PipelineState *vertex_pixel, *geometry;
    ID3D12Resource *target, *readback, *root_buffer, *table_buffer, *quads[4];
    D3D12_VERTEX_BUFFER_VIEW quad_views[4];
    ID3D12DescriptorHeap *rtv_heap, *views;
    D3D12_CPU_DESCRIPTOR_HANDLE rtv;
    uint8_t pixels[HEIGHT][WIDTH][4];
};

static ID3D12PipelineState *pipeline(struct env *env, bool with_geometry)
{
    ID3D10Blob *vs = harness_compile_stage(source, "vs", "vs_5_0"), *ps = harness_compile_stage(source, "ps", "ps_5_0");
    ID3D10Blob *gs = with_geometry ? harness_compile_stage(source, "gs", "gs_5_0") : NULL;
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *state = NULL;

    harness_graphics_desc(&desc, env->signature, vs, ps);
    if (gs)
        desc.GS = (D3D12_SHADER_BYTECODE){ID3D10Blob_GetBufferPointer(gs), ID3D10Blob_GetBufferSize(gs)};
    desc.InputLayout.pInputElementDescs = vertex_layout;
    desc.InputLayout.NumElements = 2;
    desc.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&state), S_OK);
    if (vs)
        ID3D10Blob_Release(vs);
    if (ps)
        ID3D10Blob_Release(ps);
    if (gs)
        ID3D10Blob_Release(gs);
    return state;
}

static void setup(struct env *env)
{
    static const uint8_t white[4] = {255, 255, 255, 255};
    D3D12_DESCRIPTOR_HEAP_DESC rtv_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    D3D12_DESCRIPTOR_HEAP_DESC view_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    D3D12_DESCRIPTOR_RANGE1 range = {D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 1, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 0};
    D3D12_ROOT_PARAMETER1 parameters[3];
    D3D12_SHADER_RESOURCE_VIEW_DESC srv;
    const uint32_t root_word = ROOT_VALUE, table_word = TABLE_VALUE;

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 4;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    parameters[1].DescriptorTable.NumDescriptorRanges = 1;
    parameters[1].DescriptorTable.pDescriptorRanges = &range;
    parameters[2].ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV;
    parameters[2].Descriptor.ShaderRegister = 1;
    env->device = harness_create_device();
    env->queue = harness_create_queue(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    env->signature = harness_root_signature(env->device, parameters, 3, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT);
    env->vertex_pixel = pipeline(env, false);
    env->geometry = pipeline(env, true);
    env->target = target_texture(env->device, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET, D3D12_RESOURCE_STATE_RENDER_TARGET);
    env->readback = harness_create_buffer(env->device, D3D12_HEAP_TYPE_READBACK, ROW_PITCH * HEIGHT, D3D12_RESOURCE_STATE_COPY_DEST);
    env->root_buffer = harness_upload_buffer(env->device, &root_word, sizeof(root_word));
    env->table_buffer = harness_upload_buffer(env->device, &table_word, sizeof(table_word));
    for (int q = 0; q < 4; q++)
        env->quads[q] = target_rectangle(env->device, q % 2 * 16, q / 2 * 16, q % 2 * 16 + 16, q / 2 * 16 + 16, 0.5f, white, &env->quad_views[q]);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &rtv_desc, &IID_ID3D12DescriptorHeap, (void **)&env->rtv_heap), S_OK);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &view_desc, &IID_ID3D12DescriptorHeap, (void **)&env->views), S_OK);
    env->rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(env->rtv_heap);
    ID3D12Device_CreateRenderTargetView(env->device, env->target, NULL, env->rtv);
    memset(&srv, 0, sizeof(srv));
    srv.Format = DXGI_FORMAT_R32_UINT;
    srv.ViewDimension = D3D12_SRV_DIMENSION_BUFFER;
    srv.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
    srv.Buffer.NumElements = 1;
    ID3D12Device_CreateShaderResourceView(env->device, env->table_buffer, &srv, ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(env->views));
}

static void teardown(struct env *env)
{
    for (int q = 0; q < 4; q++)
        ID3D12Resource_Release(env->quads[q]);
    ID3D12DescriptorHeap_Release(env->views);
    ID3D12DescriptorHeap_Release(env->rtv_heap);
    ID3D12Resource_Release(env->table_buffer);
    ID3D12Resource_Release(env->root_buffer);
    ID3D12Resource_Release(env->readback);
    ID3D12Resource_Release(env->target);
    ID3D12PipelineState_Release(env->geometry);
    ID3D12PipelineState_Release(env->vertex_pixel);
    ID3D12RootSignature_Release(env->signature);
    ID3D12CommandQueue_Release(env->queue);
    harness_release_device(env->device);
}

/* A list with every root argument set once (constants x = red, y = 7), ready to draw. */
static struct harness_list begin(struct env *env, uint32_t red)
{
    static const float black[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    const D3D12_VIEWPORT viewport = {0.0f, 0.0f, WIDTH, HEIGHT, 0.0f, 1.0f};
    const D3D12_RECT scissor = {0, 0, WIDTH, HEIGHT};
    const uint32_t constants[4] = {red, 7, 0, 0};

    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, env->rtv, black, 0, NULL);
    ID3D12GraphicsCommandList2_OMSetRenderTargets(list.list, 1, &env->rtv, TRUE, NULL);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &env->views);
    ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, env->signature);
    ID3D12GraphicsCommandList2_SetGraphicsRoot32BitConstants(list.list, 0, 4, constants, 0);
    ID3D12GraphicsCommandList2_SetGraphicsRootDescriptorTable(list.list, 1, ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(env->views));
    ID3D12GraphicsCommandList2_SetGraphicsRootShaderResourceView(list.list, 2, ID3D12Resource_GetGPUVirtualAddress(env->root_buffer));
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

/* Each quadrant q (left to right, top to bottom) holds (reds[q], ROOT_VALUE, TABLE_VALUE). */
static void check_quadrants(struct env *env, const char *name, const uint8_t reds[4])
{
    for (int q = 0; q < 4; q++) {
        const uint8_t *p = env->pixels[q / 2 * 16 + 8][q % 2 * 16 + 8];
        CHECK_MSG(p[0] == reds[q] && p[1] == ROOT_VALUE && p[2] == TABLE_VALUE && p[3] == 255,
                "%s: quadrant %d is (%u, %u, %u, %u), not (%u, %u, %u, 255)", name, q, p[0], p[1], p[2], p[3], reds[q], ROOT_VALUE, TABLE_VALUE);
    }
}

static void draw_quad(struct env *env, struct harness_list *list, ID3D12PipelineState *state, int quad)
{
    ID3D12GraphicsCommandList2_SetPipelineState(list->list, state);
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list->list, 0, 1, &env->quad_views[quad]);
    ID3D12GraphicsCommandList2_DrawInstanced(list->list, 6, 1, 0, 0);
}

/* The arguments set once, then pipelines of the two layouts in turn; a constant changed between. */
static void test_direct_draws(struct env *env)
{
    static const uint8_t reds[4] = {10, 10, 20, 20};
    struct harness_list list = begin(env, 10);

    draw_quad(env, &list, env->vertex_pixel, 0);
    draw_quad(env, &list, env->geometry, 1);
    ID3D12GraphicsCommandList2_SetGraphicsRoot32BitConstant(list.list, 0, 20, 0);
    draw_quad(env, &list, env->vertex_pixel, 2);
    draw_quad(env, &list, env->geometry, 3);
    finish(env, &list);
    check_quadrants(env, "direct draws", reds);
}

/* ExecuteIndirect setting the red constant, under each layout: its signature's generated-commands
 * layouts (or the own path without the extension) push into the pipeline's own. */
static void test_indirect_draws(struct env *env)
{
    static const uint8_t reds[4] = {30, 40, 50, 60};
    D3D12_INDIRECT_ARGUMENT_DESC arguments[2];
    struct command { uint32_t red; D3D12_DRAW_ARGUMENTS draw; } commands[4];
    ID3D12CommandSignature *signature;
    ID3D12Resource *buffer;
    struct harness_list list;

    memset(arguments, 0, sizeof(arguments));
    arguments[0].Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT;
    arguments[0].Constant.RootParameterIndex = 0;
    arguments[0].Constant.Num32BitValuesToSet = 1;
    arguments[1].Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW;
    signature = harness_command_signature(env->device, arguments, 2, sizeof(struct command), env->signature);
    for (int q = 0; q < 4; q++)
        commands[q] = (struct command){reds[q], {6, 1, 0, 0}};
    buffer = harness_upload_buffer(env->device, commands, sizeof(commands));
    list = begin(env, 1);
    for (int q = 0; q < 4; q++) {
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, q % 2 ? env->geometry : env->vertex_pixel);
        ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 1, &env->quad_views[q]);
        ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, signature, 1, buffer, q * sizeof(struct command), NULL, 0);
    }
    finish(env, &list);
    check_quadrants(env, "ExecuteIndirect", reds);
    ID3D12Resource_Release(buffer);
    ID3D12CommandSignature_Release(signature);
}

int main(void)
{
    struct env env;

    harness_init();
    memset(&env, 0, sizeof(env));
    setup(&env);
    test_direct_draws(&env);
    test_indirect_draws(&env);
    teardown(&env);
    return harness_finish();
}
