/* ExecuteIndirect's VERTEX_BUFFER_VIEW and INDEX_BUFFER_VIEW arguments on both paths: generated
 * commands, and (in a child run with D3D12XS_NO_GENERATED_COMMANDS=1) d3d12xs's own path, where
 * the pipeline's variant fetches its vertex inputs from memory (spirv/spirv_vertex_pulling.c,
 * docs/indirect.md). Checked from the pixels of a 32 x 32 target:
 *  - per-command vertex buffers: slot 0 set by the signature (R16G16_FLOAT positions at byte 4 of
 *    8), slot 1 bound by the list, per instance with step rate 2 (R8G8B8A8_UNORM at byte 4 and
 *    R8_UNORM at byte 3), a StartInstanceLocation, a count buffer under MaxCommandCount, and on the
 *    own path an element past its view's size reading 0;
 *  - per-command 16- and 32-bit index buffers (StartIndexLocation 1, BaseVertexLocation 6 and
 *    -10) with no index buffer on the list, SV_VertexID as in a direct indexed draw, a count
 *    buffer; as one multi-draw and, with a root constant the pixel shader reads, one draw per command;
 *    a direct indexed draw after it with the list's own pipeline and buffers;
 *  - every format the own path decodes (16 elements of one vertex, each stored by the vertex
 *    shader into a UAV), against what D3D12 reads, SNORM's most negative value included;
 *  - that recording creates no VkPipeline (D3D12XSGetPipelineStatistics) for pipelines made before
 *    and after the signature;
 *  - the own path's refusals at Close (E_NOTIMPL and a line): a format it does not decode
 *    (R11G11B10_FLOAT), strips cut at IBStripCutValue with the signature's index buffer. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "small_target.h"

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12Resource *target, *readback;
    ID3D12DescriptorHeap *rtv_heap;
    D3D12_CPU_DESCRIPTOR_HANDLE rtv;
    ID3D12RootSignature *empty_root, *constant_root;
    bool own_path;
    uint8_t pixels[HEIGHT][WIDTH][4];
};

static void setup(struct env *env, bool own_path)
{
    D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    D3D12_ROOT_PARAMETER1 parameter;

    memset(env, 0, sizeof(*env));
    env->own_path = own_path;
    env->device = harness_create_device();
    env->queue = harness_create_queue(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    env->target = target_texture(env->device, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET,
            D3D12_RESOURCE_STATE_RENDER_TARGET);
    env->readback = harness_create_buffer(env->device, D3D12_HEAP_TYPE_READBACK, HEIGHT * ROW_PITCH, D3D12_RESOURCE_STATE_COPY_DEST);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&env->rtv_heap), S_OK);
    env->rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(env->rtv_heap);
    ID3D12Device_CreateRenderTargetView(env->device, env->target, NULL, env->rtv);
    env->empty_root = harness_root_signature(env->device, NULL, 0, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT);
    memset(&parameter, 0, sizeof(parameter));
    parameter.ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameter.Constants.Num32BitValues = 1;
    env->constant_root = harness_root_signature(env->device, &parameter, 1, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT);
}

static void teardown(struct env *env)
{
    ID3D12RootSignature_Release(env->constant_root);
    ID3D12RootSignature_Release(env->empty_root);
    ID3D12DescriptorHeap_Release(env->rtv_heap);
    ID3D12Resource_Release(env->readback);
    ID3D12Resource_Release(env->target);
    ID3D12CommandQueue_Release(env->queue);
    harness_release_device(env->device);
}

/* A pipeline of source's vs and ps; strip_cut: the pipeline's IBStripCutValue. */
static ID3D12PipelineState *make_pipeline(struct env *env, ID3D12RootSignature *root, const char *source,
        const D3D12_INPUT_ELEMENT_DESC *layout, UINT layout_count, D3D12_INDEX_BUFFER_STRIP_CUT_VALUE strip_cut)
{
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    ID3D10Blob *vs = harness_compile_stage(source, "vs", "vs_5_0"), *ps = harness_compile_stage(source, "ps", "ps_5_0");
    ID3D12PipelineState *pipeline = NULL;

    harness_graphics_desc(&desc, root, vs, ps);
    desc.InputLayout = (D3D12_INPUT_LAYOUT_DESC){layout, layout_count};
    desc.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    desc.IBStripCutValue = strip_cut;
    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&pipeline), S_OK);
    ID3D10Blob_Release(vs);
    ID3D10Blob_Release(ps);
    return pipeline;
}

static struct harness_list begin_list(struct env *env, ID3D12RootSignature *root, ID3D12PipelineState *pipeline)
{
    static const float black[4] = {0, 0, 0, 1};
    const D3D12_VIEWPORT viewport = {0, 0, WIDTH, HEIGHT, 0, 1};
    const D3D12_RECT scissor = {0, 0, WIDTH, HEIGHT};
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);

    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, env->rtv, black, 0, NULL);
    ID3D12GraphicsCommandList2_OMSetRenderTargets(list.list, 1, &env->rtv, FALSE, NULL);
    ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, root);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, pipeline);
    ID3D12GraphicsCommandList2_IASetPrimitiveTopology(list.list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    ID3D12GraphicsCommandList2_RSSetViewports(list.list, 1, &viewport);
    ID3D12GraphicsCommandList2_RSSetScissorRects(list.list, 1, &scissor);
    return list;
}

static void read_target(struct env *env, struct harness_list *list)
{
    target_copy_out(env->readback, list, env->target, D3D12_RESOURCE_STATE_RENDER_TARGET);
    harness_execute_and_wait(env->device, env->queue, list);
    harness_release_list(list);
    target_read_pixels(env->readback, env->pixels);
}

static D3D12_GPU_VIRTUAL_ADDRESS va(ID3D12Resource *resource)
{
    return ID3D12Resource_GetGPUVirtualAddress(resource);
}

/* ---- per-command vertex buffers, per-instance data ---- */

/* Slot 0: {4 unused bytes, R16G16_FLOAT position}; slot 1, per instance, every 2 instances:
 * {3 unused bytes, R8_UNORM blue, R8G8B8A8_UNORM colour}. Instance i draws 8 pixels right of i - 1. */
static const D3D12_INPUT_ELEMENT_DESC instanced_layout[] = {
    {"POSITION", 0, DXGI_FORMAT_R16G16_FLOAT, 0, 4, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    {"COLOR", 0, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 4, D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA, 2},
    {"BLUE", 0, DXGI_FORMAT_R8_UNORM, 1, 3, D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA, 2},
};
static const char instanced_source[] =
    "struct V { float4 pos : SV_Position; float4 color : COLOR; };\n"
    "V vs(float2 pos : POSITION, float4 color : COLOR, float blue : BLUE, uint instance : SV_InstanceID) {\n"
    "    V o; o.pos = float4(pos.x + 0.5 * instance, pos.y, 0.5, 1); o.color = float4(color.rg, blue, color.a); return o; }\n"
    "float4 ps(V i) : SV_Target { return i.color; }\n";

struct half_vertex {
    uint32_t unused;
    uint16_t xy[2];
};

struct instance_data {
    uint8_t unused[3], blue, color[4];
};

/* A rectangle 8 pixels wide at x 0 from y_top to y_bottom (NDC, as halves: 1, 0 or -1). */
static ID3D12Resource *half_rectangle(ID3D12Device *device, uint16_t top, uint16_t bottom, D3D12_VERTEX_BUFFER_VIEW *view)
{
    enum { LEFT = 0xbc00 /* -1 */, RIGHT = 0xb800 /* -0.5 */ };
    const struct half_vertex vertices[6] = {{0, {LEFT, top}}, {0, {RIGHT, top}}, {0, {LEFT, bottom}}, {0, {LEFT, bottom}},
            {0, {RIGHT, top}}, {0, {RIGHT, bottom}}};
    ID3D12Resource *buffer = harness_upload_buffer(device, vertices, sizeof(vertices));
    *view = (D3D12_VERTEX_BUFFER_VIEW){va(buffer), sizeof(vertices), sizeof(vertices[0])};
    return buffer;
}

struct vertex_command {
    D3D12_VERTEX_BUFFER_VIEW view;
    D3D12_DRAW_ARGUMENTS draw;
};

static void test_instanced_vertex_buffers(struct env *env)
{
    static const uint8_t red[4] = {255, 0, 0, 255}, green[4] = {0, 255, 128, 255}, blue[4] = {0, 0, 255, 255}, zero[4] = {0, 0, 0, 0};
    static const struct instance_data instances[3] = {{{0}, 0, {255, 0, 0, 255}}, {{0}, 128, {0, 255, 0, 255}}, {{0}, 255, {0, 0, 0, 255}}};
    static const UINT count = 2;
    D3D12_INDIRECT_ARGUMENT_DESC arguments[2] = {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW, .VertexBuffer = {0}},
            {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW}};
    ID3D12CommandSignature *signature = harness_command_signature(env->device, arguments, 2, sizeof(struct vertex_command), NULL);
    ID3D12PipelineState *pipeline = make_pipeline(env, env->empty_root, instanced_source, instanced_layout, 3,
            D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_DISABLED);
    D3D12_VERTEX_BUFFER_VIEW top_view, bottom_view, whole_view, instance_view;
    ID3D12Resource *top = half_rectangle(env->device, 0x3c00, 0, &top_view), *bottom = half_rectangle(env->device, 0, 0xbc00, &bottom_view);
    ID3D12Resource *whole = half_rectangle(env->device, 0x3c00, 0xbc00, &whole_view);
    ID3D12Resource *instance_buffer = harness_upload_buffer(env->device, instances, sizeof(instances));
    /* top: instances 0, 1 read element 0, 2 and 3 element 1; bottom, from instance 1: elements 1 and 2;
     * the third command, past the count, would paint the first column red */
    const struct vertex_command commands[3] = {{top_view, {6, 4, 0, 0}}, {bottom_view, {6, 4, 0, 1}}, {whole_view, {6, 1, 0, 0}}};
    ID3D12Resource *buffer = harness_upload_buffer(env->device, commands, sizeof(commands));
    ID3D12Resource *counts = harness_upload_buffer(env->device, &count, sizeof(count));
    struct harness_list list = begin_list(env, env->empty_root, pipeline);

    /* the own path reads element 2 past the view's 16 bytes as 0 (D3D12's robust vertex fetch);
     * Vulkan's vertex input promises nothing there without robustness, so generated commands see
     * a view that holds it */
    instance_view = (D3D12_VERTEX_BUFFER_VIEW){va(instance_buffer), env->own_path ? 16 : sizeof(instances), sizeof(instances[0])};
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 1, 1, &instance_view);
    ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, signature, 3, buffer, 0, counts, 0);
    read_target(env, &list);
    for (int column = 0; column < 4; column++) {
        CHECK_PIXEL(env, 8 * column + 4, 8, column < 2 ? red : green, 1);
        CHECK_PIXEL(env, 8 * column + 4, 24, column < 2 ? green : env->own_path ? zero : blue, 1);
    }

    ID3D12Resource_Release(counts);
    ID3D12Resource_Release(buffer);
    ID3D12Resource_Release(instance_buffer);
    ID3D12Resource_Release(whole);
    ID3D12Resource_Release(bottom);
    ID3D12Resource_Release(top);
    ID3D12PipelineState_Release(pipeline);
    ID3D12CommandSignature_Release(signature);
}

/* ---- per-command index buffers ---- */

static const D3D12_INPUT_ELEMENT_DESC indexed_layout[] = {
    {"POSITION", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    {"COLOR", 0, DXGI_FORMAT_R8G8B8A8_UNORM, 0, 8, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
};
/* green: 16 x SV_VertexID of the triangle's first vertex */
static const char indexed_source[] =
    "struct V { float4 pos : SV_Position; nointerpolation float4 color : COLOR; };\n"
    "V vs(float2 pos : POSITION, float4 color : COLOR, uint id : SV_VertexID) {\n"
    "    V o; o.pos = float4(pos, 0.5, 1); o.color = float4(color.r, id * 16 / 255.0, color.b, 1); return o; }\n"
    "float4 ps(V i) : SV_Target { return i.color; }\n";
/* the same, the alpha a root constant the pixel shader reads: one draw per command on the own path */
static const char indexed_alpha_source[] =
    "cbuffer c : register(b0) { float alpha; };\n"
    "struct V { float4 pos : SV_Position; nointerpolation float4 color : COLOR; };\n"
    "V vs(float2 pos : POSITION, float4 color : COLOR, uint id : SV_VertexID) {\n"
    "    V o; o.pos = float4(pos, 0.5, 1); o.color = float4(color.r, id * 16 / 255.0, color.b, 1); return o; }\n"
    "float4 ps(V i) : SV_Target { return float4(i.color.rgb, alpha); }\n";

struct position_colour {
    float x, y;
    uint8_t color[4];
};

/* Vertices 0-5: the left half, red; 6-11: the right half, blue. */
static ID3D12Resource *two_halves(ID3D12Device *device, D3D12_VERTEX_BUFFER_VIEW *view)
{
    struct position_colour vertices[12];
    for (int h = 0; h < 2; h++) {
        const float l = h ? 0.0f : -1.0f, r = h ? 1.0f : 0.0f;
        const float corners[6][2] = {{l, 1}, {r, 1}, {l, -1}, {l, -1}, {r, 1}, {r, -1}};
        for (int i = 0; i < 6; i++)
            vertices[6 * h + i] = (struct position_colour){corners[i][0], corners[i][1], {h ? 0 : 255, 0, h ? 255 : 0, 255}};
    }
    ID3D12Resource *buffer = harness_upload_buffer(device, vertices, sizeof(vertices));
    *view = (D3D12_VERTEX_BUFFER_VIEW){va(buffer), sizeof(vertices), sizeof(vertices[0])};
    return buffer;
}

struct alpha_index_command {
    float alpha;
    D3D12_INDEX_BUFFER_VIEW view;
    D3D12_DRAW_INDEXED_ARGUMENTS draw;
} __attribute__((packed));

/* with_alpha: the signature also sets the root constant the pixel shader reads. */
static void test_index_buffers(struct env *env, bool with_alpha)
{
    static const uint16_t indices16[7] = {99, 0, 1, 2, 3, 4, 5};
    static const uint32_t indices32[7] = {7, 10, 11, 12, 13, 14, 15};
    static const UINT count = 2;
    D3D12_INDIRECT_ARGUMENT_DESC arguments[3] = {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT, .Constant = {0, 0, 1}},
            {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_INDEX_BUFFER_VIEW}, {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED}};
    const uint32_t stride = with_alpha ? sizeof(struct alpha_index_command) : sizeof(struct alpha_index_command) - 4;
    ID3D12RootSignature *root = with_alpha ? env->constant_root : env->empty_root;
    ID3D12CommandSignature *signature = harness_command_signature(env->device, arguments + !with_alpha, 3 - !with_alpha, stride,
            with_alpha ? root : NULL);
    ID3D12PipelineState *pipeline = make_pipeline(env, root, with_alpha ? indexed_alpha_source : indexed_source, indexed_layout, 2,
            D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_DISABLED);
    ID3D12Resource *index16 = harness_upload_buffer(env->device, indices16, sizeof(indices16));
    ID3D12Resource *index32 = harness_upload_buffer(env->device, indices32, sizeof(indices32));
    /* right half from 16-bit indices 0-5 + 6, left half from 32-bit indices 10-15 - 10; the third,
     * past the count, would draw the left half with vertex IDs 0-5 */
    const struct alpha_index_command commands[3] = {
        {1.0f, {va(index16), sizeof(indices16), DXGI_FORMAT_R16_UINT}, {6, 1, 1, 6, 0}},
        {0.5f, {va(index32), sizeof(indices32), DXGI_FORMAT_R32_UINT}, {6, 1, 1, -10, 0}},
        {1.0f, {va(index16), sizeof(indices16), DXGI_FORMAT_R16_UINT}, {6, 1, 1, 0, 0}},
    };
    uint8_t bytes[3 * sizeof(struct alpha_index_command)];
    ID3D12Resource *buffer, *counts = harness_upload_buffer(env->device, &count, sizeof(count)), *vertices;
    D3D12_VERTEX_BUFFER_VIEW view;
    struct harness_list list;
    const uint8_t alpha_right = 255, alpha_left = with_alpha ? 128 : 255;
    const uint8_t right_first[4] = {0, 0, 255, alpha_right}, right_second[4] = {0, 48, 255, alpha_right};
    const uint8_t left_first[4] = {255, 160, 0, alpha_left}, left_second[4] = {255, 208, 0, alpha_left};

    for (int c = 0; c < 3; c++) /* without the constant, each command starts at its view */
        memcpy(bytes + c * stride, (const uint8_t *)&commands[c] + (with_alpha ? 0 : 4), stride);
    buffer = harness_upload_buffer(env->device, bytes, 3 * stride);
    vertices = two_halves(env->device, &view);
    list = begin_list(env, root, pipeline);
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 1, &view);
    /* no IASetIndexBuffer: the signature sets it */
    ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, signature, 3, buffer, 0, counts, 0);
    read_target(env, &list);
    /* each half's first triangle (top left) and second (bottom right): the flat colour is the
     * first vertex's, whose SV_VertexID is the index itself (BaseVertexLocation not added) */
    CHECK_PIXEL(env, 17, 1, right_first, 1);
    CHECK_PIXEL(env, 30, 30, right_second, 1);
    CHECK_PIXEL(env, 1, 1, left_first, 1);
    CHECK_PIXEL(env, 14, 30, left_second, 1);

    if (!with_alpha) {
        /* after it, a direct indexed draw takes the list's pipeline, vertex and index buffers again:
         * the first command alone from ExecuteIndirect, the left half from DrawIndexedInstanced */
        const D3D12_INDEX_BUFFER_VIEW index_view = {va(index32), sizeof(indices32), DXGI_FORMAT_R32_UINT};
        list = begin_list(env, root, pipeline);
        ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 1, &view);
        ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, signature, 1, buffer, 0, NULL, 0);
        ID3D12GraphicsCommandList2_IASetIndexBuffer(list.list, &index_view);
        ID3D12GraphicsCommandList2_DrawIndexedInstanced(list.list, 6, 1, 1, -10, 0);
        read_target(env, &list);
        CHECK_PIXEL(env, 17, 1, right_first, 1);
        CHECK_PIXEL(env, 30, 30, right_second, 1);
        CHECK_PIXEL(env, 1, 1, left_first, 1);
        CHECK_PIXEL(env, 14, 30, left_second, 1);
    }

    ID3D12Resource_Release(vertices);
    ID3D12Resource_Release(counts);
    ID3D12Resource_Release(buffer);
    ID3D12Resource_Release(index32);
    ID3D12Resource_Release(index16);
    ID3D12PipelineState_Release(pipeline);
    ID3D12CommandSignature_Release(signature);
}

/* ---- every decoded format ---- */

/* One vertex of 16 elements, one per format the own path decodes (a few per kind), at offsets
 * D3D12 allows; the vertex shader stores what it reads into a UAV, 16 bytes per element. */
static const D3D12_INPUT_ELEMENT_DESC format_layout[] = {
    {"A", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    {"B", 0, DXGI_FORMAT_R32G32B32_UINT, 0, 16, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    {"C", 0, DXGI_FORMAT_R32_SINT, 0, 28, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    {"D", 0, DXGI_FORMAT_R16G16B16A16_SNORM, 0, 32, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    {"E", 0, DXGI_FORMAT_R16G16_UINT, 0, 40, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    {"F", 0, DXGI_FORMAT_R16_SINT, 0, 44, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    {"G", 0, DXGI_FORMAT_R8_SINT, 0, 46, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    {"H", 0, DXGI_FORMAT_R16G16B16A16_UNORM, 0, 48, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    {"I", 0, DXGI_FORMAT_R8G8B8A8_SNORM, 0, 56, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    {"J", 0, DXGI_FORMAT_R8G8_UINT, 0, 60, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    {"K", 0, DXGI_FORMAT_R16_FLOAT, 0, 62, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    {"L", 0, DXGI_FORMAT_B8G8R8A8_UNORM, 0, 64, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    {"M", 0, DXGI_FORMAT_R10G10B10A2_UNORM, 0, 68, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    {"N", 0, DXGI_FORMAT_R10G10B10A2_UINT, 0, 72, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    {"O", 0, DXGI_FORMAT_R16G16B16A16_FLOAT, 0, 76, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    {"P", 0, DXGI_FORMAT_R8G8B8A8_UNORM, 0, 84, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
};
#define FORMAT_STRIDE 88
static const char format_source[] =
    "RWByteAddressBuffer u : register(u0);\n"
    "float4 vs(float4 a : A, uint4 b : B, int4 c : C, float4 d : D, uint4 e : E, int4 f : F, int4 g : G, float4 h : H,\n"
    "        float4 i : I, uint4 j : J, float4 k : K, float4 l : L, float4 m : M, uint4 n : N, float4 o : O, float4 p : P,\n"
    "        uint id : SV_VertexID) : SV_Position {\n"
    "    uint at = id * 256;\n"
    "    u.Store4(at, asuint(a)); u.Store4(at + 16, b); u.Store4(at + 32, asuint(c)); u.Store4(at + 48, asuint(d));\n"
    "    u.Store4(at + 64, e); u.Store4(at + 80, asuint(f)); u.Store4(at + 96, asuint(g)); u.Store4(at + 112, asuint(h));\n"
    "    u.Store4(at + 128, asuint(i)); u.Store4(at + 144, j); u.Store4(at + 160, asuint(k)); u.Store4(at + 176, asuint(l));\n"
    "    u.Store4(at + 192, asuint(m)); u.Store4(at + 208, n); u.Store4(at + 224, asuint(o)); u.Store4(at + 240, asuint(p));\n"
    "    return float4(0, 0, 0, 1);\n"
    "}\n"
    "float4 ps() : SV_Target { return 0; }\n";

static float half_to_float(uint16_t h)
{
    int exponent = h >> 10 & 0x1f;
    float value = exponent ? (1.0f + (h & 0x3ff) / 1024.0f) * ldexpf(1.0f, exponent - 15) : (h & 0x3ff) / 1024.0f * ldexpf(1.0f, -14);
    return h & 0x8000 ? -value : value;
}

static float unorm(uint32_t v, unsigned bits) { return (float)v / (float)((1u << bits) - 1); }
static float snorm(int32_t v, unsigned bits)
{
    float f = (float)v / (float)((1 << (bits - 1)) - 1);
    return f < -1.0f ? -1.0f : f;
}
static uint32_t bits_of(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t get32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

/* What D3D12 reads from element e of vertex v: 4 values, floats as their bits; *is_float. */
static void expected_element(const uint8_t *v, unsigned e, uint32_t out[4], bool *is_float)
{
    const uint8_t *p = v + format_layout[e].AlignedByteOffset;
    float f[4] = {0, 0, 0, 1};
    uint32_t u[4] = {0, 0, 0, 1};
    *is_float = true;
    switch (e) {
    case 0: memcpy(f, p, sizeof(f)); break;
    case 1: for (int c = 0; c < 3; c++) u[c] = get32(p + 4 * c); *is_float = false; break;
    case 2: u[0] = get32(p); *is_float = false; break;
    case 3: for (int c = 0; c < 4; c++) f[c] = snorm((int16_t)get16(p + 2 * c), 16); break;
    case 4: for (int c = 0; c < 2; c++) u[c] = get16(p + 2 * c); *is_float = false; break;
    case 5: u[0] = (uint32_t)(int32_t)(int16_t)get16(p); *is_float = false; break;
    case 6: u[0] = (uint32_t)(int32_t)(int8_t)p[0]; *is_float = false; break;
    case 7: for (int c = 0; c < 4; c++) f[c] = unorm(get16(p + 2 * c), 16); break;
    case 8: for (int c = 0; c < 4; c++) f[c] = snorm((int8_t)p[c], 8); break;
    case 9: for (int c = 0; c < 2; c++) u[c] = p[c]; *is_float = false; break;
    case 10: f[0] = half_to_float(get16(p)); break;
    case 11: f[0] = unorm(p[2], 8); f[1] = unorm(p[1], 8); f[2] = unorm(p[0], 8); f[3] = unorm(p[3], 8); break;
    case 12: for (int c = 0; c < 4; c++) f[c] = unorm(get32(p) >> (10 * c) & (c < 3 ? 0x3ff : 3), c < 3 ? 10 : 2); break;
    case 13: for (int c = 0; c < 4; c++) u[c] = get32(p) >> (10 * c) & (c < 3 ? 0x3ff : 3); *is_float = false; break;
    case 14: for (int c = 0; c < 4; c++) f[c] = half_to_float(get16(p + 2 * c)); break;
    default: for (int c = 0; c < 4; c++) f[c] = unorm(p[c], 8); break;
    }
    for (int c = 0; c < 4; c++)
        out[c] = *is_float ? bits_of(f[c]) : u[c];
}

static void test_formats(struct env *env)
{
    static const uint16_t halves[6] = {0x3c00, 0xb555, 0x4248, 0x0400, 0xfbff, 0x3800};
    D3D12_INDIRECT_ARGUMENT_DESC arguments[2] = {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW, .VertexBuffer = {0}},
            {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW}};
    ID3D12CommandSignature *signature = harness_command_signature(env->device, arguments, 2, sizeof(struct vertex_command), NULL);
    D3D12_ROOT_PARAMETER1 parameter;
    ID3D12RootSignature *root;
    ID3D12PipelineState *pipeline;
    ID3D12Resource *vertices, *buffer, *out = harness_uav_buffer(env->device, 3 * 256);
    uint8_t data[3][FORMAT_STRIDE];
    uint32_t got[3][64], seed = 12345;
    struct vertex_command command;
    struct harness_list list;

    memset(&parameter, 0, sizeof(parameter));
    parameter.ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    root = harness_root_signature(env->device, &parameter, 1, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT);
    pipeline = make_pipeline(env, root, format_source, format_layout, 16, D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_DISABLED);
    /* random bytes (every integer and normalized value is one), floats and halves chosen */
    for (unsigned v = 0; v < 3; v++) {
        const float floats[4] = {v + 0.5f, -1.25f - v, 1000.0f, -0.0f};
        for (unsigned b = 0; b < FORMAT_STRIDE; b++) {
            seed = seed * 1103515245u + 12345u;
            data[v][b] = (uint8_t)(seed >> 16);
        }
        memcpy(data[v], floats, sizeof(floats));
        memcpy(data[v] + 62, &halves[v], 2);
        for (unsigned c = 0; c < 4; c++)
            memcpy(data[v] + 76 + 2 * c, &halves[(v + c) % 6], 2);
    }
    data[0][32] = 0x00; data[0][33] = 0x80; /* SNORM's most negative values read -1 */
    data[0][56] = 0x80;
    vertices = harness_upload_buffer(env->device, data, sizeof(data));
    command = (struct vertex_command){{va(vertices), sizeof(data), FORMAT_STRIDE}, {3, 1, 0, 0}};
    buffer = harness_upload_buffer(env->device, &command, sizeof(command));
    list = begin_list(env, root, pipeline);
    ID3D12GraphicsCommandList2_SetGraphicsRootUnorderedAccessView(list.list, 0, va(out));
    ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, signature, 1, buffer, 0, NULL, 0);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    harness_read_back(env->device, env->queue, out, got, sizeof(got));
    for (unsigned v = 0; v < 3; v++)
        for (unsigned e = 0; e < 16; e++) {
            uint32_t expected[4];
            bool is_float;
            expected_element(data[v], e, expected, &is_float);
            for (unsigned c = 0; c < 4; c++) {
                float a, b;
                memcpy(&a, &got[v][4 * e + c], 4);
                memcpy(&b, &expected[c], 4);
                /* normalized values within a float's rounding of the division */
                CHECK_MSG(is_float ? (got[v][4 * e + c] == expected[c] || fabsf(a - b) <= 1e-6f) : got[v][4 * e + c] == expected[c],
                        "vertex %u, element %s (%d), component %u: 0x%08x (%g), expected 0x%08x (%g)", v, format_layout[e].SemanticName,
                        (int)format_layout[e].Format, c, got[v][4 * e + c], is_float ? a : 0.0f, expected[c], is_float ? b : 0.0f);
            }
        }

    ID3D12Resource_Release(buffer);
    ID3D12Resource_Release(vertices);
    ID3D12Resource_Release(out);
    ID3D12PipelineState_Release(pipeline);
    ID3D12RootSignature_Release(root);
    ID3D12CommandSignature_Release(signature);
}

/* ---- no compile while recording ---- */

/* Vertex pulling variants are made ahead of need: with the signature for a pipeline made before
 * it, with the pipeline for one made after. Runs first, on a fresh device: no signature of
 * vertex buffers exists before it. */
static void test_no_compile_while_recording(struct env *env)
{
    static const uint8_t white[4] = {255, 255, 255, 255};
    D3D12_INDIRECT_ARGUMENT_DESC arguments[2] = {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW, .VertexBuffer = {0}},
            {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW}};
    ID3D12CommandSignature *signature = NULL;
    ID3D12PipelineState *pipelines[2];
    D3D12_VERTEX_BUFFER_VIEW view;
    ID3D12Resource *rectangle = target_rectangle(env->device, 0, 0, 32, 32, 0.5f, white, &view);
    struct vertex_command command = {view, {6, 1, 0, 0}};
    ID3D12Resource *buffer = harness_upload_buffer(env->device, &command, sizeof(command));
    char source[sizeof(color_source) + 32];

    for (unsigned p = 0; p < 2; p++) {
        D3D12XS_PIPELINE_STATISTICS before, after;
        struct harness_list list;
        if (p == 1)
            signature = harness_command_signature(env->device, arguments, 2, sizeof(command), NULL);
        /* a shader of its own (+ p), so that no live pipeline is found instead */
        snprintf(source, sizeof(source), "%s// %u\n", color_source, p);
        pipelines[p] = make_pipeline(env, env->empty_root, source, vertex_layout, 2, D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_DISABLED);
        if (p == 0)
            continue;
        for (unsigned q = 0; q < 2; q++) {
            list = begin_list(env, env->empty_root, pipelines[q]);
            memset(&before, 0, sizeof(before));
            memset(&after, 0, sizeof(after));
            CHECK_HR(D3D12XSGetPipelineStatistics(env->device, &before), S_OK);
            ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, signature, 1, buffer, 0, NULL, 0);
            CHECK_HR(D3D12XSGetPipelineStatistics(env->device, &after), S_OK);
            CHECK_MSG(after.VkPipelinesCreated == before.VkPipelinesCreated, "the pipeline made %s the signature: recording created %llu "
                    "VkPipelines", q ? "after" : "before", (unsigned long long)(after.VkPipelinesCreated - before.VkPipelinesCreated));
            read_target(env, &list);
            CHECK_PIXEL(env, 16, 16, white, 0);
        }
    }
    ID3D12PipelineState_Release(pipelines[1]);
    ID3D12PipelineState_Release(pipelines[0]);
    ID3D12CommandSignature_Release(signature);
    ID3D12Resource_Release(buffer);
    ID3D12Resource_Release(rectangle);
}

/* ---- the own path's refusals ---- */

static void check_refused(struct harness_list *list, ID3D12CommandSignature *signature, ID3D12Resource *buffer,
        const char *why)
{
    {
        LOG_MARK();
        ID3D12GraphicsCommandList2_ExecuteIndirect(list->list, signature, 1, buffer, 0, NULL, 0);
        CHECK_LOG("ExecuteIndirect", why);
    }
    {
        LOG_MARK();
        CHECK_HR(ID3D12GraphicsCommandList2_Close(list->list), E_NOTIMPL);
        CHECK_LOG("Close", why);
    }
    harness_release_list(list);
}

/* A format the vertex shader does not decode, and strips that would restart at the cut value. */
static void test_refusals(struct env *env)
{
    static const D3D12_INPUT_ELEMENT_DESC packed_layout[] = {
        {"POSITION", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
        {"COLOR", 0, DXGI_FORMAT_R11G11B10_FLOAT, 0, 8, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    };
    static const char packed_source[] =
        "struct V { float4 pos : SV_Position; float4 color : COLOR; };\n"
        "V vs(float2 pos : POSITION, float3 color : COLOR) { V o; o.pos = float4(pos, 0.5, 1); o.color = float4(color, 1); return o; }\n"
        "float4 ps(V i) : SV_Target { return i.color; }\n";
    static const uint16_t indices[4] = {0, 1, 2, 0xffff};
    D3D12_INDIRECT_ARGUMENT_DESC vertex_arguments[2] = {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW, .VertexBuffer = {0}},
            {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW}};
    D3D12_INDIRECT_ARGUMENT_DESC index_arguments[2] = {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_INDEX_BUFFER_VIEW},
            {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED}};
    ID3D12CommandSignature *vertex_signature = harness_command_signature(env->device, vertex_arguments, 2, sizeof(struct vertex_command), NULL);
    ID3D12CommandSignature *index_signature = harness_command_signature(env->device, index_arguments, 2, 40, NULL);
    ID3D12PipelineState *packed = make_pipeline(env, env->empty_root, packed_source, packed_layout, 2, D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_DISABLED);
    ID3D12PipelineState *strips = make_pipeline(env, env->empty_root, indexed_source, indexed_layout, 2,
            D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_0xFFFF);
    D3D12_VERTEX_BUFFER_VIEW view;
    ID3D12Resource *vertices = two_halves(env->device, &view), *index_buffer = harness_upload_buffer(env->device, indices, sizeof(indices));
    struct vertex_command vertex_command = {view, {3, 1, 0, 0}};
    struct {
        D3D12_INDEX_BUFFER_VIEW view;
        D3D12_DRAW_INDEXED_ARGUMENTS draw;
        UINT unused;
    } index_command = {{va(index_buffer), sizeof(indices), DXGI_FORMAT_R16_UINT}, {4, 1, 0, 0, 0}, 0};
    ID3D12Resource *vertex_buffer = harness_upload_buffer(env->device, &vertex_command, sizeof(vertex_command));
    ID3D12Resource *index_command_buffer = harness_upload_buffer(env->device, &index_command, sizeof(index_command));
    struct harness_list list;

    list = begin_list(env, env->empty_root, packed);
    check_refused(&list, vertex_signature, vertex_buffer, "Format 26 (DXGI_FORMAT)");

    list = begin_list(env, env->empty_root, strips);
    ID3D12GraphicsCommandList2_IASetPrimitiveTopology(list.list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP);
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 1, &view);
    check_refused(&list, index_signature, index_command_buffer, "IBStripCutValue 0xFFFF");

    ID3D12Resource_Release(index_command_buffer);
    ID3D12Resource_Release(vertex_buffer);
    ID3D12Resource_Release(index_buffer);
    ID3D12Resource_Release(vertices);
    ID3D12PipelineState_Release(strips);
    ID3D12PipelineState_Release(packed);
    ID3D12CommandSignature_Release(index_signature);
    ID3D12CommandSignature_Release(vertex_signature);
}

int main(int argc, char **argv)
{
    static const char *const without[] = {"D3D12XS_NO_GENERATED_COMMANDS=1", NULL};
    const bool child = argc > 1 && !strcmp(argv[1], "without");
    struct env env;

    harness_init();
    setup(&env, child);
    test_no_compile_while_recording(&env);
    test_instanced_vertex_buffers(&env);
    test_index_buffers(&env, false);
    test_index_buffers(&env, true);
    test_formats(&env);
    if (child)
        test_refusals(&env);
    else
        CHECK_MSG(harness_run_self("without", without), "the D3D12XS_NO_GENERATED_COMMANDS=1 case failed (its lines above say why)");
    teardown(&env);
    return harness_finish();
}
