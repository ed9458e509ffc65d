/* SetPredication: draws, dispatches and render-target clears skipped or run by a 64-bit
 * predicate, the usual way (occlusion queries resolved into a buffer: a visible draw's count lets
 * EQUAL_ZERO-predicated work run, a hidden one's 0 skips it, NOT_EQUAL_ZERO the other way round),
 * a value whose low word is 0 and high word is not (it is not zero), NULL turning predication
 * off, buffer copies under a predicate (an internal dispatch under the condition), the commands
 * conditional rendering does not cover (texture copies, CopyResource of textures, copies into
 * buffers from textures, buffer copies of partial words, resolves, UAV clears of textures and
 * buffers: staged) run and skipped under EQUAL_ZERO and NOT_EQUAL_ZERO, values read back, and the
 * refusals: Windows' E_INVALIDARG for a misaligned offset, a COPY list, a bundle. */
#include <stdio.h>
#include <string.h>

#include "small_target.h"

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

static const uint8_t black[4] = {0, 0, 0, 255}, green[4] = {0, 255, 0, 255}, red[4] = {255, 0, 0, 255}, blue[4] = {0, 0, 255, 255};
static const float black_f[4] = {0.0f, 0.0f, 0.0f, 1.0f}, blue_f[4] = {0.0f, 0.0f, 1.0f, 1.0f};

/* A buffer holding four 64-bit predicates: [0] a visible draw's occlusion count, [1] a hidden
 * (scissored-out) draw's, [2] 1 << 32, [3] 0; in the PREDICATION state. */
static ID3D12Resource *predicates(struct env *env)
{
    D3D12_QUERY_HEAP_DESC heap_desc = {D3D12_QUERY_HEAP_TYPE_OCCLUSION, 2, 0};
    ID3D12Resource *buffer = harness_create_buffer(env->device, D3D12_HEAP_TYPE_DEFAULT, 32, D3D12_RESOURCE_STATE_COPY_DEST);
    static const uint64_t fixed[2] = {1ull << 32, 0};
    ID3D12Resource *upload = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, 16, D3D12_RESOURCE_STATE_GENERIC_READ);
    const D3D12_RECT nothing = {0, 0, 0, 0};
    D3D12_VERTEX_BUFFER_VIEW view;
    ID3D12Resource *vb = target_rectangle(env->device, 0, 0, 8, 8, 0.5f, green, &view);
    ID3D12QueryHeap *heap = NULL;
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    uint64_t counts[4] = {0, 0, 0, 0};
    void *mapped = NULL;

    CHECK_HR(ID3D12Resource_Map(upload, 0, NULL, &mapped), S_OK);
    if (mapped)
        memcpy(mapped, fixed, sizeof(fixed));
    ID3D12Resource_Unmap(upload, 0, NULL);
    CHECK_HR(ID3D12Device_CreateQueryHeap(env->device, &heap_desc, &IID_ID3D12QueryHeap, (void **)&heap), S_OK);
    ID3D12GraphicsCommandList2_OMSetRenderTargets(list.list, 1, &env->rtv, TRUE, NULL);
    draw_state(env, &list, env->pipeline, &view);
    ID3D12GraphicsCommandList2_BeginQuery(list.list, heap, D3D12_QUERY_TYPE_OCCLUSION, 0);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0);
    ID3D12GraphicsCommandList2_EndQuery(list.list, heap, D3D12_QUERY_TYPE_OCCLUSION, 0);
    ID3D12GraphicsCommandList2_RSSetScissorRects(list.list, 1, &nothing);
    ID3D12GraphicsCommandList2_BeginQuery(list.list, heap, D3D12_QUERY_TYPE_OCCLUSION, 1);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0);
    ID3D12GraphicsCommandList2_EndQuery(list.list, heap, D3D12_QUERY_TYPE_OCCLUSION, 1);
    ID3D12GraphicsCommandList2_ResolveQueryData(list.list, heap, D3D12_QUERY_TYPE_OCCLUSION, 0, 2, buffer, 0);
    ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, buffer, 16, upload, 0, 16);
    target_transition(list.list, buffer, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_PREDICATION);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    harness_read_back(env->device, env->queue, buffer, counts, sizeof(counts));
    CHECK_MSG(counts[0] == 64 && counts[1] == 0 && counts[2] == 1ull << 32 && counts[3] == 0, "predicates %llu %llu %llu %llu",
            (unsigned long long)counts[0], (unsigned long long)counts[1], (unsigned long long)counts[2], (unsigned long long)counts[3]);
    ID3D12QueryHeap_Release(heap);
    ID3D12Resource_Release(upload);
    ID3D12Resource_Release(vb);
    return buffer;
}

/* Draws and clears: each rectangle (x, 0)-(x + 4, 32) drawn under one predicate; pixels of the
 * ones that ran are green, the others black. A clear under a false predicate clears nothing. */
static void test_draws_and_clears(struct env *env, ID3D12Resource *buffer)
{
    static const struct { UINT64 offset; D3D12_PREDICATION_OP op; bool runs; } cases[] = {
        {0, D3D12_PREDICATION_OP_EQUAL_ZERO, true},       /* visible: not zero */
        {8, D3D12_PREDICATION_OP_EQUAL_ZERO, false},      /* hidden: zero */
        {0, D3D12_PREDICATION_OP_NOT_EQUAL_ZERO, false},
        {8, D3D12_PREDICATION_OP_NOT_EQUAL_ZERO, true},
        {16, D3D12_PREDICATION_OP_EQUAL_ZERO, true},      /* the high word alone */
        {16, D3D12_PREDICATION_OP_NOT_EQUAL_ZERO, false},
        {24, D3D12_PREDICATION_OP_EQUAL_ZERO, false},
    };
    ID3D12Resource *vbs[8], *after_clear;
    D3D12_VERTEX_BUFFER_VIEW views[8], after_clear_view;
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    LOG_MARK();

    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, env->rtv, black_f, 0, NULL);
    ID3D12GraphicsCommandList2_OMSetRenderTargets(list.list, 1, &env->rtv, TRUE, NULL);
    for (size_t i = 0; i < 8; i++)
        vbs[i] = target_rectangle(env->device, (int)i * 4, 0, (int)i * 4 + 4, 32, 0.5f, green, &views[i]);
    after_clear = target_rectangle(env->device, 4, 24, 8, 32, 0.5f, green, &after_clear_view);
    draw_state(env, &list, env->pipeline, &views[0]);
    for (size_t i = 0; i < (sizeof(cases) / sizeof(cases[0])); i++) {
        ID3D12GraphicsCommandList2_SetPredication(list.list, buffer, cases[i].offset, cases[i].op);
        ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 1, &views[i]);
        ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0);
    }
    /* NULL: predication off */
    ID3D12GraphicsCommandList2_SetPredication(list.list, NULL, 0, D3D12_PREDICATION_OP_EQUAL_ZERO);
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 1, &views[7]);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0);
    /* ClearState: the new list's state, no predicate (the hidden one set before it skips nothing):
     * the bottom of case 1's column is drawn */
    ID3D12GraphicsCommandList2_SetPredication(list.list, buffer, 8, D3D12_PREDICATION_OP_EQUAL_ZERO);
    ID3D12GraphicsCommandList2_ClearState(list.list, NULL);
    ID3D12GraphicsCommandList2_OMSetRenderTargets(list.list, 1, &env->rtv, TRUE, NULL);
    draw_state(env, &list, env->pipeline, &after_clear_view);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 6, 1, 0, 0);
    target_copy_out(env->readback, &list, env->target, D3D12_RESOURCE_STATE_RENDER_TARGET);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    target_read_pixels(env->readback, env->pixels);
    for (size_t i = 0; i < (sizeof(cases) / sizeof(cases[0])); i++)
        CHECK_PIXEL(env, (int)i * 4 + 2, 16, cases[i].runs ? green : black, 0);
    CHECK_PIXEL(env, 30, 16, green, 0);
    CHECK_PIXEL(env, 6, 28, green, 0);
    for (size_t i = 0; i < 8; i++)
        ID3D12Resource_Release(vbs[i]);
    ID3D12Resource_Release(after_clear);

    /* clears: the hidden draw's predicate skips the first (the view stays red), the visible's runs the second */
    {
        static const float red_f[4] = {1.0f, 0.0f, 0.0f, 1.0f};
        const D3D12_RECT left = {0, 0, 16, 32};
        list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, env->rtv, red_f, 0, NULL);
        ID3D12GraphicsCommandList2_SetPredication(list.list, buffer, 8, D3D12_PREDICATION_OP_EQUAL_ZERO);
        ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, env->rtv, black_f, 0, NULL);
        ID3D12GraphicsCommandList2_SetPredication(list.list, buffer, 0, D3D12_PREDICATION_OP_EQUAL_ZERO);
        ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, env->rtv, blue_f, 1, &left);
        ID3D12GraphicsCommandList2_SetPredication(list.list, NULL, 0, D3D12_PREDICATION_OP_EQUAL_ZERO);
        target_copy_out(env->readback, &list, env->target, D3D12_RESOURCE_STATE_RENDER_TARGET);
        harness_execute_and_wait(env->device, env->queue, &list);
        harness_release_list(&list);
        target_read_pixels(env->readback, env->pixels);
        CHECK_PIXEL(env, 2, 2, blue, 0);
        CHECK_PIXEL(env, 20, 2, red, 0);
    }
    CHECK_NO_LOG();
}

/* Dispatches: each writes its marker into its own word of a UAV buffer; only those that ran do. */
static void test_dispatches(struct env *env, ID3D12Resource *buffer)
{
    static const char source[] =
        "cbuffer Constants : register(b0) { uint slot; };\n"
        "RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(1, 1, 1)]\n"
        "void main() { output.Store(slot * 4, slot + 100); }\n";
    D3D12_ROOT_PARAMETER1 parameters[2];
    ID3D12RootSignature *signature;
    ID3D10Blob *code = harness_compile(source, 0);
    ID3D12PipelineState *state;
    ID3D12Resource *output = harness_uav_buffer(env->device, 16);
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12CommandQueue *queue = harness_create_queue(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    uint32_t data[4] = {1, 1, 1, 1};
    LOG_MARK();

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 1;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    signature = harness_root_signature(env->device, parameters, 2, D3D12_ROOT_SIGNATURE_FLAG_NONE);
    state = harness_compute_pipeline(env->device, signature, code);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 1, ID3D12Resource_GetGPUVirtualAddress(output));
    for (UINT slot = 0; slot < 4; slot++) {
        /* 0: visible (runs), 1: hidden (skipped), 2: high word (runs), 3: zero (skipped) */
        ID3D12GraphicsCommandList2_SetPredication(list.list, buffer, slot * 8, D3D12_PREDICATION_OP_EQUAL_ZERO);
        ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list.list, 0, slot, 0);
        ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    }
    harness_execute_and_wait(env->device, queue, &list);
    harness_read_back(env->device, env->queue, output, data, sizeof(data));
    CHECK_MSG(data[0] == 100 && data[1] == 0 && data[2] == 102 && data[3] == 0, "dispatch markers %u %u %u %u", data[0], data[1], data[2],
            data[3]);
    CHECK_NO_LOG();
    harness_release_list(&list);
    ID3D12CommandQueue_Release(queue);
    ID3D12Resource_Release(output);
    ID3D12PipelineState_Release(state);
    ID3D12RootSignature_Release(signature);
    if (code)
        ID3D10Blob_Release(code);
}

/* Buffer copies under a predicate (an internal dispatch under the condition): CopyBufferRegion
 * and CopyResource run where the predicate lets them and leave the destination alone where not. */
static void test_copies(struct env *env, ID3D12Resource *buffer)
{
    ID3D12Resource *source = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, 256, D3D12_RESOURCE_STATE_GENERIC_READ);
    ID3D12Resource *region = harness_create_buffer(env->device, D3D12_HEAP_TYPE_DEFAULT, 256, D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12Resource *whole_run = harness_create_buffer(env->device, D3D12_HEAP_TYPE_DEFAULT, 256, D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12Resource *whole_skip = harness_create_buffer(env->device, D3D12_HEAP_TYPE_DEFAULT, 256, D3D12_RESOURCE_STATE_COPY_DEST);
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    uint32_t words[64], got[64];
    bool ok = true;
    void *mapped = NULL;
    LOG_MARK();

    for (uint32_t i = 0; i < 64; i++)
        words[i] = 0x1000 + i;
    CHECK_HR(ID3D12Resource_Map(source, 0, NULL, &mapped), S_OK);
    if (mapped)
        memcpy(mapped, words, sizeof(words));
    ID3D12Resource_Unmap(source, 0, NULL);
    /* visible: runs (bytes 0-63 of source to 16-79); hidden: skipped (to 128-191) */
    ID3D12GraphicsCommandList2_SetPredication(list.list, buffer, 0, D3D12_PREDICATION_OP_EQUAL_ZERO);
    ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, region, 16, source, 0, 64);
    ID3D12GraphicsCommandList2_CopyResource(list.list, whole_run, source);
    ID3D12GraphicsCommandList2_SetPredication(list.list, buffer, 8, D3D12_PREDICATION_OP_EQUAL_ZERO);
    ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, region, 128, source, 0, 64);
    ID3D12GraphicsCommandList2_CopyResource(list.list, whole_skip, source);
    ID3D12GraphicsCommandList2_SetPredication(list.list, NULL, 0, D3D12_PREDICATION_OP_EQUAL_ZERO);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);

    harness_read_back(env->device, env->queue, region, got, sizeof(got));
    for (uint32_t i = 0; i < 64; i++)
        ok &= got[i] == (i >= 4 && i < 20 ? 0x1000 + i - 4 : 0);
    CHECK_MSG(ok, "predicated CopyBufferRegion: words %#x %#x %#x %#x %#x", got[3], got[4], got[19], got[20], got[32]);
    harness_read_back(env->device, env->queue, whole_run, got, sizeof(got));
    CHECK_MSG(!memcmp(got, words, sizeof(words)), "predicated CopyResource that runs: word 0 %#x, word 63 %#x", got[0], got[63]);
    harness_read_back(env->device, env->queue, whole_skip, got, sizeof(got));
    ok = true;
    for (uint32_t i = 0; i < 64; i++)
        ok &= !got[i];
    CHECK_MSG(ok, "predicated CopyResource that is skipped wrote word 0 %#x", got[0]);
    CHECK_NO_LOG();
    ID3D12Resource_Release(source);
    ID3D12Resource_Release(region);
    ID3D12Resource_Release(whole_run);
    ID3D12Resource_Release(whole_skip);
}

/* ---- the commands conditional rendering does not cover, staged ---- */

/* One predicate setting: the value at `offset` of the predicates buffer with `op`, and whether
 * D3D12 then runs the commands. */
struct setting {
    UINT64 offset;
    D3D12_PREDICATION_OP op;
    bool runs;
    const char *name;
};

static const uint8_t yellow[4] = {255, 255, 0, 255}, white[4] = {255, 255, 255, 255};

/* The pixel at (x, y) of a WIDTH-wide RGBA8 readback at ROW_PITCH is `expected`. */
static bool pixel_is(const uint8_t *mapped, int x, int y, const uint8_t expected[4])
{
    return !memcmp(mapped + y * ROW_PITCH + x * 4, expected, 4);
}

/* Under each setting, one list with a texture copy from a buffer and from a texture, a texture's
 * CopyResource, a copy from a texture into a buffer, a buffer copy of partial words, resolves by
 * AVERAGE (vkCmdResolveImage) and MAX (the resolve pass) to moved regions, and UAV clears of a
 * texture's rectangle and of a buffer view, into destinations whose every byte was set before:
 * each holds the new values where the predicate lets the commands run, the old ones elsewhere. */
static void test_staged_commands(struct env *env, ID3D12Resource *predicates_buffer)
{
    static const struct setting settings[] = {
        {0, D3D12_PREDICATION_OP_EQUAL_ZERO, true, "EQUAL_ZERO of a visible count"},
        {8, D3D12_PREDICATION_OP_EQUAL_ZERO, false, "EQUAL_ZERO of 0"},
        {8, D3D12_PREDICATION_OP_NOT_EQUAL_ZERO, true, "NOT_EQUAL_ZERO of 0"},
        {16, D3D12_PREDICATION_OP_NOT_EQUAL_ZERO, false, "NOT_EQUAL_ZERO of 1 << 32"},
    };
    static const float white_f[4] = {1.0f, 1.0f, 1.0f, 1.0f}, red_f[4] = {1.0f, 0.0f, 0.0f, 1.0f}, yellow_f[4] = {1.0f, 1.0f, 0.0f, 1.0f};
    static const uint8_t partial[7] = {1, 2, 3, 4, 5, 6, 7};
    const UINT uav_values[4] = {0x55667788, 0, 0, 0};
    D3D12_HEAP_PROPERTIES default_heap = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    D3D12_DESCRIPTOR_HEAP_DESC rtv_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 4, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    D3D12_DESCRIPTOR_HEAP_DESC gpu_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 2, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    D3D12_DESCRIPTOR_HEAP_DESC cpu_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 2, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    ID3D12Resource *upload = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, 4096, D3D12_RESOURCE_STATE_GENERIC_READ);
    ID3D12Resource *readback = harness_create_buffer(env->device, D3D12_HEAP_TYPE_READBACK, 3 * ROW_PITCH * HEIGHT, D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12DescriptorHeap *rtv_heap = NULL, *gpu_heap = NULL, *cpu_heap = NULL;
    UINT rtv_size = ID3D12Device_GetDescriptorHandleIncrementSize(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_RTV);
    UINT view_size = ID3D12Device_GetDescriptorHandleIncrementSize(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    uint8_t *mapped = NULL;
    LOG_MARK();

    /* upload: green 8x8 texels at pitch 256 from 0, the partial bytes at 2048, 0xab from 3072 */
    CHECK_HR(ID3D12Resource_Map(upload, 0, NULL, (void **)&mapped), S_OK);
    for (int y = 0; mapped && y < 8; y++)
        for (int x = 0; x < 8; x++)
            memcpy(mapped + y * ROW_PITCH + x * 4, green, 4);
    if (mapped) {
        memcpy(mapped + 2048, partial, sizeof(partial));
        memset(mapped + 3072, 0xab, 1024);
    }
    ID3D12Resource_Unmap(upload, 0, NULL);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &rtv_desc, &IID_ID3D12DescriptorHeap, (void **)&rtv_heap), S_OK);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &gpu_desc, &IID_ID3D12DescriptorHeap, (void **)&gpu_heap), S_OK);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &cpu_desc, &IID_ID3D12DescriptorHeap, (void **)&cpu_heap), S_OK);

    for (size_t i = 0; i < sizeof(settings) / sizeof(settings[0]); i++) {
        const struct setting *setting = &settings[i];
        ID3D12Resource *texture = target_texture(env->device, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET
                | D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_RENDER_TARGET);
        ID3D12Resource *whole = target_texture(env->device, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET,
                D3D12_RESOURCE_STATE_RENDER_TARGET);
        ID3D12Resource *source = target_texture(env->device, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET,
                D3D12_RESOURCE_STATE_RENDER_TARGET);
        D3D12_RESOURCE_DESC buffer_desc = harness_buffer_desc(256);
        D3D12_CPU_DESCRIPTOR_HANDLE rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(rtv_heap);
        D3D12_CPU_DESCRIPTOR_HANDLE whole_rtv = {rtv.ptr + rtv_size}, source_rtv = {rtv.ptr + 2 * rtv_size}, msaa_rtv = {rtv.ptr + 3 * rtv_size};
        D3D12_CPU_DESCRIPTOR_HANDLE cpu = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(cpu_heap);
        D3D12_CPU_DESCRIPTOR_HANDLE gpu_cpu = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(gpu_heap);
        D3D12_GPU_DESCRIPTOR_HANDLE gpu = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(gpu_heap);
        D3D12_CPU_DESCRIPTOR_HANDLE buffer_cpu = {cpu.ptr + view_size}, buffer_gpu_cpu = {gpu_cpu.ptr + view_size};
        D3D12_GPU_DESCRIPTOR_HANDLE buffer_gpu = {gpu.ptr + view_size};
        D3D12_UNORDERED_ACCESS_VIEW_DESC buffer_view;
        D3D12_TEXTURE_COPY_LOCATION dst, src;
        const D3D12_BOX box = {0, 0, 0, 8, 8, 1}, row = {0, 0, 0, 8, 1, 1};
        const D3D12_RECT resolve_rect = {0, 0, 8, 8}, uav_rect = {0, 8, 8, 16};
        struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        ID3D12Resource *buffer = NULL;
        unsigned wrong = 0;

        buffer_desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
        CHECK_HR(ID3D12Device_CreateCommittedResource(env->device, &default_heap, D3D12_HEAP_FLAG_NONE, &buffer_desc,
                D3D12_RESOURCE_STATE_COPY_DEST, NULL, &IID_ID3D12Resource, (void **)&buffer), S_OK);
        ID3D12Device_CreateRenderTargetView(env->device, texture, NULL, rtv);
        ID3D12Device_CreateRenderTargetView(env->device, whole, NULL, whole_rtv);
        ID3D12Device_CreateRenderTargetView(env->device, source, NULL, source_rtv);
        ID3D12Device_CreateRenderTargetView(env->device, env->msaa, NULL, msaa_rtv);
        ID3D12Device_CreateUnorderedAccessView(env->device, texture, NULL, NULL, cpu);
        ID3D12Device_CreateUnorderedAccessView(env->device, texture, NULL, NULL, gpu_cpu);
        memset(&buffer_view, 0, sizeof(buffer_view));
        buffer_view.Format = DXGI_FORMAT_R32_UINT;
        buffer_view.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
        buffer_view.Buffer.FirstElement = 32;
        buffer_view.Buffer.NumElements = 8;
        ID3D12Device_CreateUnorderedAccessView(env->device, buffer, NULL, &buffer_view, buffer_cpu);
        ID3D12Device_CreateUnorderedAccessView(env->device, buffer, NULL, &buffer_view, buffer_gpu_cpu);

        /* every destination byte set, unpredicated */
        ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, rtv, blue_f, 0, NULL);
        ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, whole_rtv, blue_f, 0, NULL);
        ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, source_rtv, red_f, 0, NULL);
        ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, msaa_rtv, white_f, 0, NULL);
        ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, buffer, 0, upload, 3072, 256);
        target_transition(list.list, texture, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_COPY_DEST);
        target_transition(list.list, whole, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_COPY_DEST);
        target_transition(list.list, source, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_COPY_SOURCE);
        target_transition(list.list, env->msaa, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_RESOLVE_SOURCE);

        ID3D12GraphicsCommandList2_SetPredication(list.list, predicates_buffer, setting->offset, setting->op);
        memset(&dst, 0, sizeof(dst));
        memset(&src, 0, sizeof(src));
        /* green from the buffer to (0, 0), red from the texture to (8, 0) */
        dst.pResource = texture;
        dst.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
        src.pResource = upload;
        src.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
        src.PlacedFootprint.Footprint = (D3D12_SUBRESOURCE_FOOTPRINT){DXGI_FORMAT_R8G8B8A8_UNORM, 8, 8, 1, ROW_PITCH};
        ID3D12GraphicsCommandList2_CopyTextureRegion(list.list, &dst, 0, 0, 0, &src, NULL);
        src.pResource = source;
        src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
        ID3D12GraphicsCommandList2_CopyTextureRegion(list.list, &dst, 8, 0, 0, &src, &box);
        ID3D12GraphicsCommandList2_CopyResource(list.list, whole, source);
        /* a red row into the buffer's bytes 0-31; 7 bytes to 66-72 */
        dst.pResource = buffer;
        dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
        dst.PlacedFootprint.Footprint = (D3D12_SUBRESOURCE_FOOTPRINT){DXGI_FORMAT_R8G8B8A8_UNORM, 8, 1, 1, ROW_PITCH};
        ID3D12GraphicsCommandList2_CopyTextureRegion(list.list, &dst, 0, 0, 0, &src, &row);
        ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, buffer, 66, upload, 2048, sizeof(partial));
        /* white resolved to (16, 0) by AVERAGE, (24, 0) by MAX */
        target_transition(list.list, texture, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_RESOLVE_DEST);
        ID3D12GraphicsCommandList1_ResolveSubresourceRegion((ID3D12GraphicsCommandList1 *)list.list, texture, 0, 16, 0, env->msaa, 0,
                (D3D12_RECT *)&resolve_rect, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOLVE_MODE_AVERAGE);
        ID3D12GraphicsCommandList1_ResolveSubresourceRegion((ID3D12GraphicsCommandList1 *)list.list, texture, 0, 24, 0, env->msaa, 0,
                (D3D12_RECT *)&resolve_rect, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOLVE_MODE_MAX);
        /* yellow into the texture's (0, 8)-(8, 16), 0x55667788 into the buffer's words 32-39 */
        target_transition(list.list, texture, D3D12_RESOURCE_STATE_RESOLVE_DEST, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
        target_transition(list.list, buffer, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
        ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &gpu_heap);
        ID3D12GraphicsCommandList2_ClearUnorderedAccessViewFloat(list.list, gpu, cpu, texture, yellow_f, 1, &uav_rect);
        ID3D12GraphicsCommandList2_ClearUnorderedAccessViewUint(list.list, buffer_gpu, buffer_cpu, buffer, uav_values, 0, NULL);
        ID3D12GraphicsCommandList2_SetPredication(list.list, NULL, 0, D3D12_PREDICATION_OP_EQUAL_ZERO);

        /* read back: the texture at 0, the CopyResource destination at ROW_PITCH * HEIGHT, the buffer after */
        target_transition(list.list, texture, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
        target_transition(list.list, whole, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
        target_transition(list.list, buffer, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
        target_transition(list.list, env->msaa, D3D12_RESOURCE_STATE_RESOLVE_SOURCE, D3D12_RESOURCE_STATE_RENDER_TARGET);
        dst.pResource = readback;
        dst.PlacedFootprint.Footprint = (D3D12_SUBRESOURCE_FOOTPRINT){DXGI_FORMAT_R8G8B8A8_UNORM, WIDTH, HEIGHT, 1, ROW_PITCH};
        src.pResource = texture;
        ID3D12GraphicsCommandList2_CopyTextureRegion(list.list, &dst, 0, 0, 0, &src, NULL);
        dst.PlacedFootprint.Offset = ROW_PITCH * HEIGHT;
        src.pResource = whole;
        ID3D12GraphicsCommandList2_CopyTextureRegion(list.list, &dst, 0, 0, 0, &src, NULL);
        ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, readback, 2 * ROW_PITCH * HEIGHT, buffer, 0, 256);
        harness_execute_and_wait(env->device, env->queue, &list);
        harness_release_list(&list);

        CHECK_HR(ID3D12Resource_Map(readback, 0, NULL, (void **)&mapped), S_OK);
        for (int y = 0; mapped && y < HEIGHT; y++) {
            for (int x = 0; x < WIDTH; x++) {
                const uint8_t *expected = blue;
                if (setting->runs && y < 8)
                    expected = x < 8 ? green : x < 16 ? red : white;
                else if (setting->runs && x < 8 && y < 16)
                    expected = yellow;
                if (!pixel_is(mapped, x, y, expected) && wrong++ < 3)
                    CHECK_MSG(false, "%s: texture pixel (%d, %d) is %02x%02x%02x%02x", setting->name, x, y, mapped[y * ROW_PITCH + x * 4],
                            mapped[y * ROW_PITCH + x * 4 + 1], mapped[y * ROW_PITCH + x * 4 + 2], mapped[y * ROW_PITCH + x * 4 + 3]);
                if (!pixel_is(mapped + ROW_PITCH * HEIGHT, x, y, setting->runs ? red : blue) && wrong++ < 3)
                    CHECK_MSG(false, "%s: CopyResource pixel (%d, %d) wrong", setting->name, x, y);
            }
        }
        for (int b = 0; mapped && b < 256; b++) {
            const uint8_t *bytes = mapped + 2 * ROW_PITCH * HEIGHT;
            uint8_t expected = 0xab;
            if (setting->runs && b < 32)
                expected = red[b % 4];
            else if (setting->runs && b >= 66 && b < 73)
                expected = partial[b - 66];
            else if (setting->runs && b >= 128 && b < 160)
                expected = (uint8_t)(uav_values[0] >> (8 * (b % 4)));
            if (bytes[b] != expected && wrong++ < 3)
                CHECK_MSG(false, "%s: buffer byte %d is %#x, expected %#x", setting->name, b, bytes[b], expected);
        }
        ID3D12Resource_Unmap(readback, 0, NULL);
        CHECK_MSG(!wrong, "%s: %u values wrong", setting->name, wrong);
        CHECK_NO_LOG();
        ID3D12Resource_Release(buffer);
        ID3D12Resource_Release(source);
        ID3D12Resource_Release(whole);
        ID3D12Resource_Release(texture);
    }
    ID3D12DescriptorHeap_Release(cpu_heap);
    ID3D12DescriptorHeap_Release(gpu_heap);
    ID3D12DescriptorHeap_Release(rtv_heap);
    ID3D12Resource_Release(readback);
    ID3D12Resource_Release(upload);
}

static void test_errors(struct env *env, ID3D12Resource *buffer)
{
    struct harness_list list;
    LOG_MARK();

    /* a misaligned offset, and one past the end */
    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_SetPredication(list.list, buffer, 4, D3D12_PREDICATION_OP_EQUAL_ZERO);
    CHECK_LOG("SetPredication", "AlignedBufferOffset 4");
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
    CHECK_LOG("Close", "SetPredication");
    harness_release_list(&list);
    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    RELOG_MARK();
    ID3D12GraphicsCommandList2_SetPredication(list.list, buffer, 32, D3D12_PREDICATION_OP_EQUAL_ZERO);
    CHECK_LOG("SetPredication", "AlignedBufferOffset 32");
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
    CHECK_LOG("Close");
    harness_release_list(&list);

    /* a COPY list */
    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_COPY);
    RELOG_MARK();
    ID3D12GraphicsCommandList2_SetPredication(list.list, buffer, 0, D3D12_PREDICATION_OP_EQUAL_ZERO);
    CHECK_LOG("SetPredication", "COPY");
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
    CHECK_LOG("Close");
    harness_release_list(&list);

    /* bundles inherit predication and may not set it */
    {
        ID3D12CommandAllocator *allocator;
        ID3D12GraphicsCommandList2 *bundle;
        CHECK_HR(ID3D12Device_CreateCommandAllocator(env->device, D3D12_COMMAND_LIST_TYPE_BUNDLE, &IID_ID3D12CommandAllocator,
                (void **)&allocator), S_OK);
        CHECK_HR(ID3D12Device_CreateCommandList(env->device, 0, D3D12_COMMAND_LIST_TYPE_BUNDLE, allocator, NULL,
                &IID_ID3D12GraphicsCommandList2, (void **)&bundle), S_OK);
        RELOG_MARK();
        ID3D12GraphicsCommandList2_SetPredication(bundle, buffer, 0, D3D12_PREDICATION_OP_EQUAL_ZERO);
        CHECK_LOG("SetPredication", "bundle");
        RELOG_MARK();
        CHECK_HR(ID3D12GraphicsCommandList2_Close(bundle), E_INVALIDARG);
        CHECK_LOG("Close", "SetPredication");
        ID3D12GraphicsCommandList2_Release(bundle);
        ID3D12CommandAllocator_Release(allocator);
    }
}

int main(void)
{
    struct env env;
    ID3D12Resource *buffer;

    harness_init();
    memset(&env, 0, sizeof(env));
    setup(&env);
    buffer = predicates(&env);
    test_draws_and_clears(&env, buffer);
    test_dispatches(&env, buffer);
    test_copies(&env, buffer);
    test_staged_commands(&env, buffer);
    test_errors(&env, buffer);
    ID3D12Resource_Release(buffer);
    teardown(&env);
    return harness_finish();
}
