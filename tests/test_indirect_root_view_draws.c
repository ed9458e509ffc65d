/* ExecuteIndirect with root CBV and SRV arguments of draws (VK_EXT_device_generated_commands; the
 * graphics pipeline's variant that reads the views the signature sets from the push block, built
 * from the fixed state the pipeline kept: pipelines/pipeline_indirect_variant.c,
 * pipelines/graphics_build.c): each command's rectangle from a root SRV its vertex and pixel
 * shaders both read (4 bytes past a 16-byte boundary), its colour from a root CBV, then a draw
 * with the list's own views (pixels read back); a graphics pipeline with view-instance masking,
 * which has no variant (E_NOTIMPL at Close, one line). Dispatches: test_indirect_root_views.c. */
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
    ID3D12RootSignature *graphics_root;
    ID3D12PipelineState *rectangle; /* its rectangle from the root SRV, its colour from the root CBV and SRV */
    uint8_t pixels[HEIGHT][WIDTH][4];
};

/* graphics parameters: 0 root CBV b0 (the colour), 1 root SRV t0 (x0, x1, green as floats);
 * the vertex shader and the pixel shader both read the SRV */
static const char rectangle_source[] =
    "ByteAddressBuffer t : register(t0);\n"
    "cbuffer cb : register(b0) { float4 color; };\n"
    "float4 vs(uint id : SV_VertexID) : SV_Position\n"
    "{\n"
    "    uint c = id % 6;\n"
    "    float x = (c == 1 || c == 4 || c == 5) ? asfloat(t.Load(4)) : asfloat(t.Load(0));\n"
    "    float y = (c == 2 || c == 3 || c == 5) ? -1.0 : 1.0;\n"
    "    return float4(x, y, 0.5, 1);\n"
    "}\n"
    "float4 ps() : SV_Target { return float4(color.r, asfloat(t.Load(8)), color.b, 1); }\n";

static D3D12_GPU_VIRTUAL_ADDRESS va(ID3D12Resource *resource)
{
    return ID3D12Resource_GetGPUVirtualAddress(resource);
}

static void setup(struct env *env)
{
    D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    D3D12_ROOT_PARAMETER1 parameters[2];
    ID3D10Blob *vs, *ps;

    memset(env, 0, sizeof(*env));
    env->device = harness_create_device();
    env->queue = harness_create_queue(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    vs = harness_compile_stage(rectangle_source, "vs", "vs_5_0");
    ps = harness_compile_stage(rectangle_source, "ps", "ps_5_0");
    env->target = target_texture(env->device, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET,
            D3D12_RESOURCE_STATE_RENDER_TARGET);
    env->readback = harness_create_buffer(env->device, D3D12_HEAP_TYPE_READBACK, HEIGHT * ROW_PITCH, D3D12_RESOURCE_STATE_COPY_DEST);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&env->rtv_heap), S_OK);
    env->rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(env->rtv_heap);
    ID3D12Device_CreateRenderTargetView(env->device, env->target, NULL, env->rtv);
    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_CBV;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV;
    env->graphics_root = harness_root_signature(env->device, parameters, 2, 0);
    harness_graphics_desc(&desc, env->graphics_root, vs, ps);
    desc.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&env->rectangle), S_OK);
    ID3D10Blob_Release(vs);
    ID3D10Blob_Release(ps);
}

static void teardown(struct env *env)
{
    ID3D12PipelineState_Release(env->rectangle);
    ID3D12RootSignature_Release(env->graphics_root);
    ID3D12DescriptorHeap_Release(env->rtv_heap);
    ID3D12Resource_Release(env->readback);
    ID3D12Resource_Release(env->target);
    ID3D12CommandQueue_Release(env->queue);
    harness_release_device(env->device);
}

/* Draws: each command's rectangle (vertex shader) and green (pixel shader) from its root SRV,
 * at 4 bytes past a 16-byte boundary, its red and blue from its root CBV; then a draw with the
 * list's own views. */
static void test_draws(struct env *env)
{
    static const float black[4] = {0, 0, 0, 1};
    static const uint8_t red[4] = {255, 0, 0, 255}, cyan[4] = {0, 255, 255, 255}, blue[4] = {0, 0, 255, 255};
    /* records of x0, x1, green at 16 * k + 4; colours at 256 * k */
    static const float records[12] = {0, -1, 0, 0, /* record 0 at 4 */ 0, 0, 1, 1, /* record 1 at 20 */ 0, -0.25f, 0.25f, 0 /* record 2 at 36 */};
    static const float colors[3 * 64] = {[0] = 1, 0, 0, 0, [64] = 0, 0, 1, 0, [128] = 0, 0, 1, 0};
    struct command {
        D3D12_GPU_VIRTUAL_ADDRESS srv, cbv;
        D3D12_DRAW_ARGUMENTS draw;
    } commands[2];
    D3D12_INDIRECT_ARGUMENT_DESC arguments[3] = {
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW, .ShaderResourceView = {1}},
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW, .ConstantBufferView = {0}},
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW},
    };
    ID3D12CommandSignature *signature = harness_command_signature(env->device, arguments, 3, sizeof(struct command), env->graphics_root);
    ID3D12Resource *record_buffer = harness_upload_buffer(env->device, records, sizeof(records)), *color_buffer = harness_upload_buffer(env->device, colors, sizeof(colors));
    ID3D12Resource *buffer;
    const D3D12_VIEWPORT viewport = {0, 0, WIDTH, HEIGHT, 0, 1};
    const D3D12_RECT scissor = {0, 0, WIDTH, HEIGHT};
    struct harness_list list;
    size_t warnings;

    _Static_assert(sizeof(struct command) == 32, "D3D12's arguments without padding");
    /* record 0: x in [-1, 0), green 0; record 1: [0, 1), green 1 */
    commands[0] = (struct command){va(record_buffer) + 4, va(color_buffer), {6, 1, 0, 0}};
    commands[1] = (struct command){va(record_buffer) + 20, va(color_buffer) + 256, {6, 1, 0, 0}};
    buffer = harness_upload_buffer(env->device, commands, sizeof(commands));

    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, env->rtv, black, 0, NULL);
    ID3D12GraphicsCommandList2_OMSetRenderTargets(list.list, 1, &env->rtv, FALSE, NULL);
    ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, env->graphics_root);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, env->rectangle);
    ID3D12GraphicsCommandList2_IASetPrimitiveTopology(list.list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    ID3D12GraphicsCommandList2_RSSetViewports(list.list, 1, &viewport);
    ID3D12GraphicsCommandList2_RSSetScissorRects(list.list, 1, &scissor);
    /* the list never sets the views before it: the commands do, so no "never set" warning */
    warnings = harness_warning_count();
    ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, signature, 2, buffer, 0, NULL, 0);
    CHECK_DEBUG_WARNINGS(warnings, 0, "");
    /* the list's own views: record 2 ([-0.25, 0.25), green 0) and colour 2 (blue) */
    ID3D12GraphicsCommandList2_SetGraphicsRootShaderResourceView(list.list, 1, va(record_buffer) + 36);
    ID3D12GraphicsCommandList2_SetGraphicsRootConstantBufferView(list.list, 0, va(color_buffer) + 512);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0);
    target_copy_out(env->readback, &list, env->target, D3D12_RESOURCE_STATE_RENDER_TARGET);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    target_read_pixels(env->readback, env->pixels);
    CHECK_PIXEL(env, 4, 16, red, 0);
    CHECK_PIXEL(env, 0, 0, red, 0);
    CHECK_PIXEL(env, 27, 16, cyan, 0);
    CHECK_PIXEL(env, 31, 31, cyan, 0);
    CHECK_PIXEL(env, 16, 16, blue, 0);
    CHECK_PIXEL(env, 13, 5, blue, 0);
    CHECK_PIXEL(env, 11, 5, red, 0);
    CHECK_PIXEL(env, 20, 5, cyan, 0);

    ID3D12Resource_Release(buffer);
    ID3D12Resource_Release(color_buffer);
    ID3D12Resource_Release(record_buffer);
    ID3D12CommandSignature_Release(signature);
}

/* Pipeline state streams, for view instancing: a subobject per part, D3D12's defaults for the rest. */
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

/* A graphics pipeline with view-instance masking (a VkPipeline per mask) has no variant: a
 * signature setting the views it reads fails Close with E_NOTIMPL. */
static void test_view_masking_refused(struct env *env)
{
    static const D3D12_VIEW_INSTANCE_LOCATION locations[2] = {{0, 0}, {0, 1}};
    const D3D12_VIEW_INSTANCING_DESC view_instancing = {2, locations, D3D12_VIEW_INSTANCING_FLAG_ENABLE_VIEW_INSTANCE_MASKING};
    const D3D12_PRIMITIVE_TOPOLOGY_TYPE topology = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
    const D3D12_RT_FORMAT_ARRAY formats = {{DXGI_FORMAT_R8G8B8A8_UNORM}, 1};
    struct {
        D3D12_GPU_VIRTUAL_ADDRESS cbv;
        D3D12_DRAW_ARGUMENTS draw;
    } __attribute__((packed)) command = {0, {6, 1, 0, 0}};
    D3D12_INDIRECT_ARGUMENT_DESC arguments[2] = {
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW, .ConstantBufferView = {0}},
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW},
    };
    ID3D10Blob *vs = harness_compile_stage(rectangle_source, "vs", "vs_5_0"), *ps = harness_compile_stage(rectangle_source, "ps", "ps_5_0");
    const D3D12_SHADER_BYTECODE vs_code = {ID3D10Blob_GetBufferPointer(vs), ID3D10Blob_GetBufferSize(vs)};
    const D3D12_SHADER_BYTECODE ps_code = {ID3D10Blob_GetBufferPointer(ps), ID3D10Blob_GetBufferSize(ps)};
    ID3D12CommandSignature *signature = harness_command_signature(env->device, arguments, 2, sizeof(command), env->graphics_root);
    ID3D12Resource *buffer = harness_upload_buffer(env->device, &command, sizeof(command));
    ID3D12PipelineState *pipeline = NULL;
    D3D12_PIPELINE_STATE_STREAM_DESC desc;
    struct stream_builder b;
    struct harness_list list;
    ID3D12Device2 *device2;
    HRESULT hr;

    memset(&b, 0, sizeof(b));
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_ROOT_SIGNATURE, env->graphics_root);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VS, vs_code);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PS, ps_code);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PRIMITIVE_TOPOLOGY, topology);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RENDER_TARGET_FORMATS, formats);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VIEW_INSTANCING, view_instancing);
    desc = (D3D12_PIPELINE_STATE_STREAM_DESC){b.size, b.bytes};
    CHECK_HR(ID3D12Device_QueryInterface(env->device, &IID_ID3D12Device2, (void **)&device2), S_OK);
    hr = ID3D12Device2_CreatePipelineState(device2, &desc, &IID_ID3D12PipelineState, (void **)&pipeline);
    ID3D12Device2_Release(device2);
    /* a device without view instancing refuses the pipeline: nothing to check then */
    CHECK_MSG(hr == S_OK || hr == E_NOTIMPL, "CreatePipelineState with view instancing returned 0x%08x", (unsigned)hr);
    if (hr == S_OK) {
        list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, env->graphics_root);
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, pipeline);
        {
            LOG_MARK();
            ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, signature, 1, buffer, 0, NULL, 0);
            CHECK_LOG("ExecuteIndirect", "view-instance masking");
        }
        {
            LOG_MARK();
            CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_NOTIMPL);
            CHECK_LOG("Close");
        }
        harness_release_list(&list);
        ID3D12PipelineState_Release(pipeline);
    }
    ID3D12Resource_Release(buffer);
    ID3D12CommandSignature_Release(signature);
    ID3D10Blob_Release(ps);
    ID3D10Blob_Release(vs);
}

int main(int argc, char **argv)
{
    static const char *const without[] = {"D3D12XS_NO_GENERATED_COMMANDS=1", NULL};
    struct env env;

    harness_init();
    setup(&env);
    /* both paths: generated commands here, the own path's images in the child run */
    test_draws(&env);
    test_view_masking_refused(&env);
    if (argc < 2 || strcmp(argv[1], "without"))
        CHECK_MSG(harness_run_self("without", without), "the D3D12XS_NO_GENERATED_COMMANDS=1 case failed (its lines above say why)");
    teardown(&env);
    return harness_finish();
}
