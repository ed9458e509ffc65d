/* ExecuteIndirect with command signatures that change state, on both paths: generated commands
 * (VK_EXT_device_generated_commands, commands/command_list_generated.c) and, in a child run with
 * D3D12XS_NO_GENERATED_COMMANDS=1, d3d12xs's own path (commands/command_list_indirect_image.c):
 * per-command root constants for dispatches (with a count buffer, and the other root constants
 * kept after it; in a list that never sets the constants the signature sets, no debug warning that
 * they were never set), per-command vertex buffers and root constants for draws (arguments from
 * the CPU and copied by the GPU earlier in the list), per-command 16- and 32-bit index buffers
 * with no index buffer set on the list (root CBV/SRV/UAV arguments: test_indirect_root_views.c,
 * test_indirect_root_view_draws.c; more vertex and index buffer views:
 * test_indirect_vertex_views.c); root constants set only by the commands draw no "never set"
 * warning. Values are read back from a UAV buffer and a 32 x 32 render target. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "small_target.h"

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12Resource *target, *readback, *values;
    ID3D12DescriptorHeap *rtv_heap;
    D3D12_CPU_DESCRIPTOR_HANDLE rtv;
    ID3D12RootSignature *compute_root, *graphics_root;
    ID3D12PipelineState *store, *constant_color, *vertex_color, *vertex_constant_color;
    uint8_t pixels[HEIGHT][WIDTH][4];
};

static const char store_source[] =
    "RWByteAddressBuffer u : register(u0);\n"
    "cbuffer c : register(b0) { uint index; uint value; uint unused; uint keep; };\n"
    "[numthreads(1, 1, 1)] void main() { u.Store(index * 4, value + keep); }\n";
static const char constant_color_source[] =
    "cbuffer c : register(b0) { float4 color; };\n"
    "float4 vs(float3 pos : POSITION) : SV_Position { return float4(pos, 1); }\n"
    "float4 ps() : SV_Target { return color; }\n";

/* The colour read by the vertex shader alone: without generated commands, ExecuteIndirect runs
 * such a pipeline's commands as one multi-draw (docs/indirect.md). */
static const char vertex_constant_color_source[] =
    "cbuffer c : register(b0) { float4 color; };\n"
    "void vs(float3 pos : POSITION, out float4 position : SV_Position, out float4 shade : SHADE) { position = float4(pos, 1); shade = color; }\n"
    "float4 ps(float4 position : SV_Position, float4 shade : SHADE) : SV_Target { return shade; }\n";

static ID3D12PipelineState *graphics_pipeline(struct env *env, const char *source, const D3D12_INPUT_ELEMENT_DESC *layout, UINT layout_count)
{
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    ID3D10Blob *vs = harness_compile_stage(source, "vs", "vs_5_0"), *ps = harness_compile_stage(source, "ps", "ps_5_0");
    ID3D12PipelineState *pipeline = NULL;

    harness_graphics_desc(&desc, env->graphics_root, vs, ps);
    desc.InputLayout = (D3D12_INPUT_LAYOUT_DESC){layout, layout_count};
    desc.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&pipeline), S_OK);
    ID3D10Blob_Release(vs);
    ID3D10Blob_Release(ps);
    return pipeline;
}

static void setup(struct env *env)
{
    D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    D3D12_ROOT_PARAMETER1 parameters[2];
    ID3D10Blob *cs;

    memset(env, 0, sizeof(*env));
    env->device = harness_create_device();
    env->queue = harness_create_queue(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    env->target = target_texture(env->device, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET,
            D3D12_RESOURCE_STATE_RENDER_TARGET);
    env->readback = harness_create_buffer(env->device, D3D12_HEAP_TYPE_READBACK, HEIGHT * ROW_PITCH, D3D12_RESOURCE_STATE_COPY_DEST);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&env->rtv_heap), S_OK);
    env->rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(env->rtv_heap);
    ID3D12Device_CreateRenderTargetView(env->device, env->target, NULL, env->rtv);
    env->values = harness_uav_buffer(env->device, 256);

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[1].Constants.Num32BitValues = 4;
    env->compute_root = harness_root_signature(env->device, parameters, 2, 0);
    cs = harness_compile(store_source, 0);
    env->store = harness_compute_pipeline(env->device, env->compute_root, cs);
    ID3D10Blob_Release(cs);

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 4;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_CBV;
    parameters[1].Descriptor.ShaderRegister = 1;
    env->graphics_root = harness_root_signature(env->device, parameters, 2, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT);
    env->constant_color = graphics_pipeline(env, constant_color_source, vertex_layout, 1);
    env->vertex_color = graphics_pipeline(env, color_source, vertex_layout, 2);
    env->vertex_constant_color = graphics_pipeline(env, vertex_constant_color_source, vertex_layout, 1);
}

static void teardown(struct env *env)
{
    ID3D12PipelineState_Release(env->vertex_constant_color);
    ID3D12PipelineState_Release(env->vertex_color);
    ID3D12PipelineState_Release(env->constant_color);
    ID3D12RootSignature_Release(env->graphics_root);
    ID3D12PipelineState_Release(env->store);
    ID3D12RootSignature_Release(env->compute_root);
    ID3D12Resource_Release(env->values);
    ID3D12DescriptorHeap_Release(env->rtv_heap);
    ID3D12Resource_Release(env->readback);
    ID3D12Resource_Release(env->target);
    ID3D12CommandQueue_Release(env->queue);
    harness_release_device(env->device);
}

/* A DIRECT list with the UAV zeroed and the store pipeline bound (keep = 100). */
static struct harness_list begin_store(struct env *env)
{
    static const UINT zeros[8];
    D3D12_RESOURCE_BARRIER barrier = {.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV, .UAV = {env->values}};
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    D3D12_WRITEBUFFERIMMEDIATE_PARAMETER parameters[8];

    for (unsigned i = 0; i < 8; i++)
        parameters[i] = (D3D12_WRITEBUFFERIMMEDIATE_PARAMETER){ID3D12Resource_GetGPUVirtualAddress(env->values) + 4 * i, zeros[i]};
    ID3D12GraphicsCommandList2_WriteBufferImmediate(list.list, 8, parameters, NULL);
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, env->compute_root);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, env->store);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 0, ID3D12Resource_GetGPUVirtualAddress(env->values));
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list.list, 1, 100, 3);
    return list;
}

static void test_constant_dispatches(struct env *env)
{
    /* each command: index, value (root constants 0 and 1 of parameter 1), then 1 x 1 x 1 groups */
    static const UINT commands[4 * 5] = {0, 10, 1, 1, 1, 1, 11, 1, 1, 1, 2, 12, 1, 1, 1, 3, 13, 1, 1, 1};
    static const UINT three = 3, after[2] = {5, 55};
    D3D12_INDIRECT_ARGUMENT_DESC arguments[2] = {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT, .Constant = {1, 0, 2}},
            {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH}};
    ID3D12CommandSignature *signature = harness_command_signature(env->device, arguments, 2, 20, env->compute_root);
    ID3D12Resource *buffer = harness_upload_buffer(env->device, commands, sizeof(commands)), *count = harness_upload_buffer(env->device, &three, sizeof(three));
    D3D12_RESOURCE_BARRIER barrier = {.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV, .UAV = {env->values}};
    struct harness_list list;
    UINT values[8];

    list = begin_store(env);
    ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, signature, 4, buffer, 0, NULL, 0);
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    /* the signature's constants are undefined after it; keep (constant 3) is as it was */
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(list.list, 1, 2, after, 0);
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    harness_read_back(env->device, env->queue, env->values, values, sizeof(values));
    for (unsigned i = 0; i < 4; i++)
        CHECK_MSG(values[i] == 110 + i, "command %u stored %u, expected %u", i, values[i], 110 + i);
    CHECK_MSG(values[5] == 155, "the Dispatch after ExecuteIndirect stored %u, expected 155 (its constants and keep = 100)", values[5]);

    /* a count buffer of 3 runs three of MaxCommandCount 4 */
    list = begin_store(env);
    ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, signature, 4, buffer, 0, count, 0);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    harness_read_back(env->device, env->queue, env->values, values, sizeof(values));
    for (unsigned i = 0; i < 4; i++)
        CHECK_MSG(values[i] == (i < 3 ? 110 + i : 0), "count 3: command %u stored %u", i, values[i]);

    ID3D12Resource_Release(count);
    ID3D12Resource_Release(buffer);
    ID3D12CommandSignature_Release(signature);
}

/* Commands and their count copied by the GPU earlier in the list into one buffer (the count right
 * after the commands), then moved into INDIRECT_ARGUMENT: generated commands read both in their
 * preprocessing, which the barrier must reach (the shape that hung the H100 when only the
 * draw-indirect stage waited: docs/indirect.md). */
static void test_gpu_written_constant_dispatches(struct env *env)
{
    static const UINT data[4 * 5 + 1] = {0, 20, 1, 1, 1, 1, 21, 1, 1, 1, 2, 22, 1, 1, 1, 3, 23, 1, 1, 1, 3};
    D3D12_INDIRECT_ARGUMENT_DESC arguments[2] = {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT, .Constant = {1, 0, 2}},
            {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH}};
    ID3D12CommandSignature *signature = harness_command_signature(env->device, arguments, 2, 20, env->compute_root);
    ID3D12Resource *source = harness_upload_buffer(env->device, data, sizeof(data));
    ID3D12Resource *commands = harness_create_buffer(env->device, D3D12_HEAP_TYPE_DEFAULT, sizeof(data), D3D12_RESOURCE_STATE_COPY_DEST);
    D3D12_RESOURCE_BARRIER barrier = {.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION,
            .Transition = {commands, D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES, D3D12_RESOURCE_STATE_COPY_DEST,
                    D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT}};
    struct harness_list list;
    UINT values[8];

    list = begin_store(env);
    ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, commands, 0, source, 0, sizeof(data));
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, signature, 4, commands, 0, commands, 4 * 5 * 4);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    harness_read_back(env->device, env->queue, env->values, values, sizeof(values));
    for (unsigned i = 0; i < 4; i++)
        CHECK_MSG(values[i] == (i < 3 ? 120 + i : 0), "GPU-copied commands, count 3: command %u stored %u", i, values[i]);

    ID3D12Resource_Release(commands);
    ID3D12Resource_Release(source);
    ID3D12CommandSignature_Release(signature);
}

/* A list that never sets the root constants a signature sets: the commands give them, so the
 * debug layer's check that the shader reads no parameter never set stays quiet for the
 * ExecuteIndirect, and speaks again for a Dispatch after it (D3D12 leaves the signature's values
 * undefined there; d3d12xs pushes the list's own, never set: zeros). */
static void test_constants_only_from_signature(struct env *env)
{
    static const UINT zeros[8];
    /* each command: index, value, unused, keep (all four constants of parameter 1), 1 x 1 x 1 groups */
    static const UINT commands[2 * 7] = {0, 20, 0, 1, 1, 1, 1, 1, 21, 0, 2, 1, 1, 1};
    D3D12_INDIRECT_ARGUMENT_DESC arguments[2] = {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT, .Constant = {1, 0, 4}},
            {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH}};
    ID3D12CommandSignature *signature = harness_command_signature(env->device, arguments, 2, 28, env->compute_root);
    ID3D12Resource *buffer = harness_upload_buffer(env->device, commands, sizeof(commands));
    D3D12_RESOURCE_BARRIER barrier = {.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV, .UAV = {env->values}};
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    D3D12_WRITEBUFFERIMMEDIATE_PARAMETER parameters[8];
    size_t warnings;
    UINT values[8];

    for (unsigned i = 0; i < 8; i++)
        parameters[i] = (D3D12_WRITEBUFFERIMMEDIATE_PARAMETER){ID3D12Resource_GetGPUVirtualAddress(env->values) + 4 * i, zeros[i]};
    ID3D12GraphicsCommandList2_WriteBufferImmediate(list.list, 8, parameters, NULL);
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, env->compute_root);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, env->store);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 0, ID3D12Resource_GetGPUVirtualAddress(env->values));
    warnings = harness_warning_count();
    ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, signature, 2, buffer, 0, NULL, 0);
    CHECK_DEBUG_WARNINGS(warnings, 0, "");
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    CHECK_DEBUG_WARNINGS(warnings, 1, "root parameter 1 is read by the shader but was never set");
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    harness_read_back(env->device, env->queue, env->values, values, sizeof(values));
    CHECK_MSG(values[1] == 23, "command 1 stored %u, expected 23 (value 21 + keep 2)", values[1]);
    CHECK_MSG(values[0] == 0, "the Dispatch after ExecuteIndirect stored %u at index 0, expected 0 (the list's constants: never set)",
            values[0]);

    ID3D12Resource_Release(buffer);
    ID3D12CommandSignature_Release(signature);
}

static void clear_and_bind(struct env *env, struct harness_list *list, ID3D12PipelineState *pipeline)
{
    static const float black[4] = {0, 0, 0, 1};
    const D3D12_VIEWPORT viewport = {0, 0, WIDTH, HEIGHT, 0, 1};
    const D3D12_RECT scissor = {0, 0, WIDTH, HEIGHT};

    ID3D12GraphicsCommandList2_ClearRenderTargetView(list->list, env->rtv, black, 0, NULL);
    ID3D12GraphicsCommandList2_OMSetRenderTargets(list->list, 1, &env->rtv, FALSE, NULL);
    ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list->list, env->graphics_root);
    ID3D12GraphicsCommandList2_SetPipelineState(list->list, pipeline);
    ID3D12GraphicsCommandList2_IASetPrimitiveTopology(list->list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    ID3D12GraphicsCommandList2_RSSetViewports(list->list, 1, &viewport);
    ID3D12GraphicsCommandList2_RSSetScissorRects(list->list, 1, &scissor);
}

static void read_target(struct env *env, struct harness_list *list)
{
    target_copy_out(env->readback, list, env->target, D3D12_RESOURCE_STATE_RENDER_TARGET);
    harness_execute_and_wait(env->device, env->queue, list);
    harness_release_list(list);
    target_read_pixels(env->readback, env->pixels);
}

/* per command: a vertex buffer view, a colour (4 root constants), a draw of 6 vertices */
struct vertex_command {
    D3D12_VERTEX_BUFFER_VIEW view;
    float color[4];
    D3D12_DRAW_ARGUMENTS draw;
};

static void test_vertex_buffer_draws(struct env *env, bool gpu_copied)
{
    static const uint8_t white[4] = {255, 255, 255, 255}, red[4] = {255, 0, 0, 255}, green[4] = {0, 255, 0, 255}, black[4] = {0, 0, 0, 255};
    D3D12_INDIRECT_ARGUMENT_DESC arguments[3] = {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW, .VertexBuffer = {0}},
            {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT, .Constant = {0, 0, 4}}, {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW}};
    ID3D12CommandSignature *signature = harness_command_signature(env->device, arguments, 3, sizeof(struct vertex_command), env->graphics_root);
    D3D12_VERTEX_BUFFER_VIEW left_view, right_view;
    ID3D12Resource *left = target_rectangle(env->device, 0, 0, 16, 32, 0.5f, white, &left_view);
    ID3D12Resource *right = target_rectangle(env->device, 16, 0, 32, 32, 0.5f, white, &right_view);
    struct vertex_command commands[2] = {{left_view, {1, 0, 0, 1}, {6, 1, 0, 0}}, {right_view, {0, 1, 0, 1}, {6, 1, 0, 0}}};
    ID3D12Resource *buffer = harness_upload_buffer(env->device, commands, sizeof(commands)), *arguments_buffer = buffer;
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    size_t warnings;

    if (gpu_copied) {
        arguments_buffer = harness_create_buffer(env->device, D3D12_HEAP_TYPE_DEFAULT, sizeof(commands), D3D12_RESOURCE_STATE_COPY_DEST);
        ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, arguments_buffer, 0, buffer, 0, sizeof(commands));
        target_transition(list.list, arguments_buffer, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT);
    }
    clear_and_bind(env, &list, env->constant_color);
    /* the list never sets the colour (root parameter 0): the commands do, so no "never set" warning */
    warnings = harness_warning_count();
    ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, signature, 2, arguments_buffer, 0, NULL, 0);
    CHECK_DEBUG_WARNINGS(warnings, 0, "");
    /* slot 0 is undefined after it: a draw with the list's own vertex buffer needs it set again */
    read_target(env, &list);
    CHECK_PIXEL(env, 4, 16, red, 0);
    CHECK_PIXEL(env, 27, 16, green, 0);
    CHECK_PIXEL(env, 15, 0, red, 0);
    CHECK_PIXEL(env, 16, 31, green, 0);
    (void)black;

    if (!gpu_copied) {
        /* after it the colour is D3D12-undefined again: a draw that reads it, the list never
         * having set it, is warned about */
        list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        clear_and_bind(env, &list, env->constant_color);
        ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, signature, 2, arguments_buffer, 0, NULL, 0);
        ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 1, &left_view);
        warnings = harness_warning_count();
        ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0);
        CHECK_DEBUG_WARNINGS(warnings, 1, "root parameter 0 is read by the shader but was never set");
        harness_execute_and_wait(env->device, env->queue, &list);
        harness_release_list(&list);
    }

    if (arguments_buffer != buffer)
        ID3D12Resource_Release(arguments_buffer);
    ID3D12Resource_Release(buffer);
    ID3D12Resource_Release(right);
    ID3D12Resource_Release(left);
    ID3D12CommandSignature_Release(signature);
}

struct index_command {
    D3D12_INDEX_BUFFER_VIEW view;
    D3D12_DRAW_INDEXED_ARGUMENTS draw;
};

static void test_index_buffer_draws(struct env *env)
{
    static const uint8_t red[4] = {255, 0, 0, 255}, blue[4] = {0, 0, 255, 255}, black[4] = {0, 0, 0, 255};
    static const uint16_t indices16[6] = {0, 1, 2, 3, 4, 5};
    static const uint32_t indices32[6] = {6, 7, 8, 9, 10, 11};
    D3D12_INDIRECT_ARGUMENT_DESC arguments[2] = {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_INDEX_BUFFER_VIEW},
            {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED}};
    ID3D12CommandSignature *signature = harness_command_signature(env->device, arguments, 2, 40, NULL);
    D3D12_VERTEX_BUFFER_VIEW top_view, bottom_view, both_view;
    ID3D12Resource *top = target_rectangle(env->device, 0, 0, 32, 8, 0.5f, red, &top_view);
    ID3D12Resource *bottom = target_rectangle(env->device, 0, 24, 32, 32, 0.5f, blue, &bottom_view);
    ID3D12Resource *both = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, 12 * sizeof(struct vertex), D3D12_RESOURCE_STATE_GENERIC_READ);
    ID3D12Resource *index16 = harness_upload_buffer(env->device, indices16, sizeof(indices16)), *index32 = harness_upload_buffer(env->device, indices32, sizeof(indices32));
    struct index_command commands[2] = {
        {{ID3D12Resource_GetGPUVirtualAddress(index16), sizeof(indices16), DXGI_FORMAT_R16_UINT}, {6, 1, 0, 0, 0}},
        {{ID3D12Resource_GetGPUVirtualAddress(index32), sizeof(indices32), DXGI_FORMAT_R32_UINT}, {6, 1, 0, 0, 0}},
    };
    ID3D12Resource *buffer;
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    void *dst = NULL, *src = NULL;

    /* one vertex buffer of both rectangles: the top one's vertices 0-5, the bottom one's 6-11 */
    CHECK_HR(ID3D12Resource_Map(both, 0, NULL, &dst), S_OK);
    CHECK_HR(ID3D12Resource_Map(top, 0, NULL, &src), S_OK);
    if (dst && src)
        memcpy(dst, src, 6 * sizeof(struct vertex));
    ID3D12Resource_Unmap(top, 0, NULL);
    CHECK_HR(ID3D12Resource_Map(bottom, 0, NULL, &src), S_OK);
    if (dst && src)
        memcpy((char *)dst + 6 * sizeof(struct vertex), src, 6 * sizeof(struct vertex));
    ID3D12Resource_Unmap(bottom, 0, NULL);
    ID3D12Resource_Unmap(both, 0, NULL);
    both_view = (D3D12_VERTEX_BUFFER_VIEW){ID3D12Resource_GetGPUVirtualAddress(both), 12 * sizeof(struct vertex), sizeof(struct vertex)};
    /* 16 + 20 bytes, padded to 40 by the view's 8-byte address: 4 unused bytes between commands */
    CHECK(sizeof(struct index_command) == 40);
    memset((char *)&commands[0] + 36, 0xcd, 4);
    memset((char *)&commands[1] + 36, 0xcd, 4);
    buffer = harness_upload_buffer(env->device, commands, sizeof(commands));

    clear_and_bind(env, &list, env->vertex_color);
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 1, &both_view);
    /* no IASetIndexBuffer: the signature sets it */
    ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, signature, 2, buffer, 0, NULL, 0);
    read_target(env, &list);
    CHECK_PIXEL(env, 5, 3, red, 0);
    CHECK_PIXEL(env, 20, 28, blue, 0);
    CHECK_PIXEL(env, 16, 16, black, 0);

    ID3D12Resource_Release(buffer);
    ID3D12Resource_Release(index32);
    ID3D12Resource_Release(index16);
    ID3D12Resource_Release(both);
    ID3D12Resource_Release(bottom);
    ID3D12Resource_Release(top);
    ID3D12CommandSignature_Release(signature);
}

/* An upload buffer of two rectangles, pixels [0, 16) and [16, 32) across the target's height:
 * vertices 0-5 and 6-11. */
static ID3D12Resource *two_rectangles(ID3D12Device *device, D3D12_VERTEX_BUFFER_VIEW *view)
{
    ID3D12Resource *buffer = harness_create_buffer(device, D3D12_HEAP_TYPE_UPLOAD, 12 * sizeof(struct vertex), D3D12_RESOURCE_STATE_GENERIC_READ);
    struct vertex *v = NULL;

    CHECK_HR(ID3D12Resource_Map(buffer, 0, NULL, (void **)&v), S_OK);
    for (int r = 0; v && r < 2; r++) {
        const float l = 2.0f * 16 * r / WIDTH - 1.0f, right = 2.0f * 16 * (r + 1) / WIDTH - 1.0f;
        const float corners[6][2] = {{l, 1}, {right, 1}, {l, -1}, {l, -1}, {right, 1}, {right, -1}};
        for (int i = 0; i < 6; i++)
            v[6 * r + i] = (struct vertex){corners[i][0], corners[i][1], 0.5f, {255, 255, 255, 255}};
    }
    ID3D12Resource_Unmap(buffer, 0, NULL);
    *view = (D3D12_VERTEX_BUFFER_VIEW){ID3D12Resource_GetGPUVirtualAddress(buffer), 12 * sizeof(struct vertex), sizeof(struct vertex)};
    return buffer;
}

/* per command: a colour (4 root constants) and a draw of 6 vertices */
struct colour_command {
    float color[4];
    D3D12_DRAW_ARGUMENTS draw;
};

/* CONSTANT and a draw, no buffer views: every device runs it (without generated commands, the
 * own path's images: one multi-draw where only the vertex shader reads the colour, else a draw
 * per command). A third command past the count buffer's 2 draws nothing; the list's own colour,
 * set before, is what a draw after it sees again once set. */
static void test_constant_draws(struct env *env, ID3D12PipelineState *pipeline, bool gpu_copied)
{
    static const uint8_t red[4] = {255, 0, 0, 255}, green[4] = {0, 255, 0, 255}, blue[4] = {0, 0, 255, 255};
    static const UINT count = 2;
    static const float list_colour[4] = {0, 0, 1, 1};
    D3D12_INDIRECT_ARGUMENT_DESC arguments[2] = {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT, .Constant = {0, 0, 4}},
            {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW}};
    ID3D12CommandSignature *signature = harness_command_signature(env->device, arguments, 2, sizeof(struct colour_command), env->graphics_root);
    const struct colour_command commands[3] = {{{1, 0, 0, 1}, {6, 1, 0, 0}}, {{0, 1, 0, 1}, {6, 1, 6, 0}}, {{1, 1, 1, 1}, {12, 1, 0, 0}}};
    ID3D12Resource *buffer = harness_upload_buffer(env->device, commands, sizeof(commands)), *arguments_buffer = buffer;
    ID3D12Resource *counts = harness_upload_buffer(env->device, &count, sizeof(count));
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    D3D12_VERTEX_BUFFER_VIEW view;
    ID3D12Resource *vertices = two_rectangles(env->device, &view);

    if (gpu_copied) {
        arguments_buffer = harness_create_buffer(env->device, D3D12_HEAP_TYPE_DEFAULT, sizeof(commands), D3D12_RESOURCE_STATE_COPY_DEST);
        ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, arguments_buffer, 0, buffer, 0, sizeof(commands));
        target_transition(list.list, arguments_buffer, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT);
    }
    clear_and_bind(env, &list, pipeline);
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 1, &view);
    ID3D12GraphicsCommandList2_SetGraphicsRoot32BitConstants(list.list, 0, 4, list_colour, 0);
    /* the variant either path takes (with generated commands, a vertex-shader reader's commands
     * run as one multi-draw too) was made with the signature: recording compiles nothing */
    D3D12XS_PIPELINE_STATISTICS before = {0}, after = {0};
    CHECK_HR(D3D12XSGetPipelineStatistics(env->device, &before), S_OK);
    ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, signature, 3, arguments_buffer, 0, counts, 0);
    CHECK_HR(D3D12XSGetPipelineStatistics(env->device, &after), S_OK);
    CHECK_MSG(after.VkPipelinesCreated == before.VkPipelinesCreated, "recording ExecuteIndirect created %llu VkPipelines",
            (unsigned long long)(after.VkPipelinesCreated - before.VkPipelinesCreated));
    read_target(env, &list);
    CHECK_PIXEL(env, 4, 16, red, 0);
    CHECK_PIXEL(env, 15, 31, red, 0);
    CHECK_PIXEL(env, 16, 0, green, 0);
    CHECK_PIXEL(env, 27, 16, green, 0);

    /* the constants are D3D12-undefined after it: set again, a plain draw takes the list's */
    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    clear_and_bind(env, &list, pipeline);
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 1, &view);
    ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, signature, 2, arguments_buffer, 0, NULL, 0);
    ID3D12GraphicsCommandList2_SetGraphicsRoot32BitConstants(list.list, 0, 4, list_colour, 0);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 6, 0);
    read_target(env, &list);
    CHECK_PIXEL(env, 4, 16, red, 0);
    CHECK_PIXEL(env, 27, 16, blue, 0);

    ID3D12Resource_Release(vertices);
    ID3D12Resource_Release(counts);
    if (arguments_buffer != buffer)
        ID3D12Resource_Release(arguments_buffer);
    ID3D12Resource_Release(buffer);
    ID3D12CommandSignature_Release(signature);
}

/* A vertex shader that reads a root constant and a root CBV, both set per command, whole: the
 * commands run as one multi-draw whose vertex shader reads them in the commands themselves (no
 * images), generated commands or not; the commands start 8 bytes into the buffer. */
static void test_vertex_root_arguments_in_commands(struct env *env)
{
    static const char source[] =
        "cbuffer c : register(b0) { float4 color; };\n"
        "cbuffer d : register(b1) { float4 more; };\n"
        "void vs(float3 pos : POSITION, out float4 position : SV_Position, out float4 shade : SHADE) { position = float4(pos, 1); shade = color + more; }\n"
        "float4 ps(float4 position : SV_Position, float4 shade : SHADE) : SV_Target { return shade; }\n";
    static const D3D12_INPUT_ELEMENT_DESC layout[] = {{"POSITION", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0}};
    static const uint8_t red[4] = {255, 0, 0, 255}, cyan[4] = {0, 255, 255, 255};
    struct command {
        float color[4];
        D3D12_GPU_VIRTUAL_ADDRESS cbv;
        D3D12_DRAW_ARGUMENTS draw;
    } __attribute__((packed)) commands[2];
    D3D12_INDIRECT_ARGUMENT_DESC arguments[3] = {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT, .Constant = {0, 0, 4}},
            {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW, .ConstantBufferView = {1}}, {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW}};
    static const float alpha[4] = {0, 0, 0, 1}, blue_alpha[4] = {0, 0, 1, 1};
    ID3D12Resource *cbvs[2] = {harness_upload_buffer(env->device, alpha, sizeof(alpha)), harness_upload_buffer(env->device, blue_alpha, sizeof(blue_alpha))};
    ID3D12CommandSignature *signature = harness_command_signature(env->device, arguments, 3, sizeof(struct command), env->graphics_root);
    ID3D12PipelineState *pipeline = graphics_pipeline(env, source, layout, 1);
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    D3D12XS_PIPELINE_STATISTICS before = {0}, after = {0};
    uint8_t bytes[8 + sizeof(commands)] = {0};
    D3D12_VERTEX_BUFFER_VIEW view;
    ID3D12Resource *vertices = two_rectangles(env->device, &view), *buffer;

    commands[0] = (struct command){{1, 0, 0, 0}, ID3D12Resource_GetGPUVirtualAddress(cbvs[0]), {6, 1, 0, 0}};
    commands[1] = (struct command){{0, 1, 0, 0}, ID3D12Resource_GetGPUVirtualAddress(cbvs[1]), {6, 1, 6, 0}};
    memcpy(bytes + 8, commands, sizeof(commands));
    buffer = harness_upload_buffer(env->device, bytes, sizeof(bytes));
    clear_and_bind(env, &list, pipeline);
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 1, &view);
    CHECK_HR(D3D12XSGetPipelineStatistics(env->device, &before), S_OK);
    ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, signature, 2, buffer, 8, NULL, 0);
    CHECK_HR(D3D12XSGetPipelineStatistics(env->device, &after), S_OK);
    CHECK_MSG(after.VkPipelinesCreated == before.VkPipelinesCreated, "recording ExecuteIndirect created %llu VkPipelines",
            (unsigned long long)(after.VkPipelinesCreated - before.VkPipelinesCreated));
    read_target(env, &list);
    CHECK_PIXEL(env, 4, 16, red, 0);
    CHECK_PIXEL(env, 27, 16, cyan, 0);

    /* the same from a bundle (the caller's targets, viewport and scissor) */
    {
        static const uint8_t black[4] = {0, 0, 0, 255};
        ID3D12CommandAllocator *allocator = NULL;
        ID3D12GraphicsCommandList *bundle = NULL;
        CHECK_HR(ID3D12Device_CreateCommandAllocator(env->device, D3D12_COMMAND_LIST_TYPE_BUNDLE, &IID_ID3D12CommandAllocator,
                (void **)&allocator), S_OK);
        CHECK_HR(ID3D12Device_CreateCommandList(env->device, 0, D3D12_COMMAND_LIST_TYPE_BUNDLE, allocator, pipeline,
                &IID_ID3D12GraphicsCommandList, (void **)&bundle), S_OK);
        ID3D12GraphicsCommandList_SetGraphicsRootSignature(bundle, env->graphics_root);
        ID3D12GraphicsCommandList_IASetPrimitiveTopology(bundle, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
        ID3D12GraphicsCommandList_IASetVertexBuffers(bundle, 0, 1, &view);
        ID3D12GraphicsCommandList_ExecuteIndirect(bundle, signature, 2, buffer, 8, NULL, 0);
        CHECK_HR(ID3D12GraphicsCommandList_Close(bundle), S_OK);
        list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        clear_and_bind(env, &list, pipeline);
        ID3D12GraphicsCommandList2_ExecuteBundle(list.list, bundle);
        read_target(env, &list);
        CHECK_PIXEL(env, 4, 16, red, 0);
        CHECK_PIXEL(env, 27, 16, cyan, 0);

        /* SetPredication skips the commands where its value is 0 (EQUAL_ZERO) */
        for (UINT64 value = 0; value < 2; value++) {
            ID3D12Resource *predicate = harness_upload_buffer(env->device, &value, sizeof(value));
            list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
            clear_and_bind(env, &list, pipeline);
            ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 1, &view);
            ID3D12GraphicsCommandList2_SetPredication(list.list, predicate, 0, D3D12_PREDICATION_OP_EQUAL_ZERO);
            ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, signature, 2, buffer, 8, NULL, 0);
            ID3D12GraphicsCommandList2_SetPredication(list.list, NULL, 0, D3D12_PREDICATION_OP_EQUAL_ZERO);
            read_target(env, &list);
            CHECK_PIXEL(env, 4, 16, value ? red : black, 0);
            CHECK_PIXEL(env, 27, 16, value ? cyan : black, 0);
            ID3D12Resource_Release(predicate);
        }
        ID3D12GraphicsCommandList_Release(bundle);
        ID3D12CommandAllocator_Release(allocator);
    }

    ID3D12Resource_Release(vertices);
    ID3D12Resource_Release(buffer);
    ID3D12PipelineState_Release(pipeline);
    ID3D12CommandSignature_Release(signature);
    ID3D12Resource_Release(cbvs[1]);
    ID3D12Resource_Release(cbvs[0]);
}

/* Root constants through memory (FORCE_MEMORY_BASED_ABI): neither path writes them, so
 * ExecuteIndirect of a CONSTANT signature fails Close with E_NOTIMPL and a line naming the flag. */
static void test_memory_abi_refused(struct env *env)
{
    static const UINT command[5] = {0, 10, 1, 1, 1};
    D3D12_INDIRECT_ARGUMENT_DESC arguments[2] = {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT, .Constant = {1, 0, 2}},
            {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH}};
    D3D12_ROOT_PARAMETER1 parameters[2];
    ID3D12RootSignature *root;
    ID3D12PipelineState *pipeline;
    ID3D12CommandSignature *signature;
    ID3D12Resource *buffer = harness_upload_buffer(env->device, command, sizeof(command));
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D10Blob *cs = harness_compile(store_source, 0);

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[1].Constants.Num32BitValues = 4;
    root = harness_root_signature(env->device, parameters, 2, D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI);
    pipeline = harness_compute_pipeline(env->device, root, cs);
    signature = harness_command_signature(env->device, arguments, 2, sizeof(command), root);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, root);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, pipeline);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 0, ID3D12Resource_GetGPUVirtualAddress(env->values));
    {
        LOG_MARK();
        ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, signature, 1, buffer, 0, NULL, 0);
        CHECK_LOG("ExecuteIndirect", "changes state (CONSTANT)", "FORCE_MEMORY_BASED_ABI");
    }
    {
        LOG_MARK();
        CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_NOTIMPL);
        CHECK_LOG("Close", "changes state (CONSTANT)");
    }
    harness_release_list(&list);
    ID3D12CommandSignature_Release(signature);
    ID3D12PipelineState_Release(pipeline);
    ID3D12RootSignature_Release(root);
    ID3D10Blob_Release(cs);
    ID3D12Resource_Release(buffer);
}

int main(int argc, char **argv)
{
    static const char *const without[] = {"D3D12XS_NO_GENERATED_COMMANDS=1", NULL};
    struct env env;

    harness_init();
    setup(&env);
    /* root constants run on both paths: generated commands, and the own path without them */
    test_constant_dispatches(&env);
    test_gpu_written_constant_dispatches(&env);
    test_constants_only_from_signature(&env);
    test_constant_draws(&env, env.constant_color, false);
    test_constant_draws(&env, env.constant_color, true);
    test_constant_draws(&env, env.vertex_constant_color, false);
    test_constant_draws(&env, env.vertex_constant_color, true);
    test_vertex_root_arguments_in_commands(&env);
    test_memory_abi_refused(&env);
    /* vertex and index buffer views too: without generated commands, vertex shaders that fetch
     * their inputs (test_indirect_vertex_views.c has the rest) */
    test_vertex_buffer_draws(&env, false);
    test_vertex_buffer_draws(&env, true);
    test_index_buffer_draws(&env);
    if (argc <= 1 || strcmp(argv[1], "without"))
        CHECK_MSG(harness_run_self("without", without), "the D3D12XS_NO_GENERATED_COMMANDS=1 case failed (its lines above say why)");
    teardown(&env);
    return harness_finish();
}
