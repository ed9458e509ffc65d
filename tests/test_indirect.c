/* ExecuteIndirect and CreateCommandSignature: every creation rule (E_INVALIDARG, E_NOTIMPL for
 * mesh and ray dispatches, one line each); draws, indexed draws and dispatches whose arguments
 * the CPU wrote (UPLOAD buffers) or a compute shader wrote earlier in the list (a barrier from
 * UNORDERED_ACCESS into INDIRECT_ARGUMENT); count buffers below, at and above MaxCommandCount,
 * and zero (dispatches' capped by an internal pass, in batches); INCREMENTING_CONSTANT (each
 * command sees its index); MaxCommandCount 0; argument offsets; a bundle; SetPredication; the recording errors
 * and what is not built yet (E_NOTIMPL at Close). Draws are points counted by additive blending
 * into a 16 x 16 target, each pixel a (vertex, instance) pair, and compared with the same draws
 * made by DrawInstanced / DrawIndexedInstanced; dispatches count their groups in a UAV. */
#include <stdio.h>
#include <string.h>

#include "harness.h"

#define SIZE 16
#define ROW_PITCH 256 /* D3D12_TEXTURE_DATA_PITCH_ALIGNMENT */

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12Resource *target, *readback;
    ID3D12DescriptorHeap *rtv_heap;
    D3D12_CPU_DESCRIPTOR_HANDLE rtv;
    ID3D12RootSignature *graphics_signature, *compute_signature;
    ID3D12PipelineState *points, *counter, *writer;
    ID3D12CommandSignature *draw, *draw_indexed, *dispatch;
    ID3D12Resource *index_buffer, *counts; /* counts: a UAV buffer, the counter shader's */
};

static const char points_source[] =
    "struct O { float4 pos : SV_Position; };\n"
    "O vs(uint v : SV_VertexID, uint i : SV_InstanceID)\n"
    "{ O o; o.pos = float4(((v % 16) + 0.5) / 8.0 - 1.0, 1.0 - ((i % 16) + 0.5) / 8.0, 0, 1); return o; }\n"
    "float4 ps(O i) : SV_Target { return float4(1.0 / 255.0, 0, 0, 0); }\n";
static const char counter_source[] =
    "RWByteAddressBuffer u : register(u0);\n"
    "[numthreads(1, 1, 1)] void main() { uint o; u.InterlockedAdd(0, 1, o); }\n";
static const char writer_source[] =
    "RWByteAddressBuffer u : register(u0);\n"
    "cbuffer c : register(b0) { uint4 a; uint4 b; };\n"
    "[numthreads(1, 1, 1)] void main() { u.Store4(0, a); u.Store4(16, b); }\n";

static ID3D12CommandSignature *command_signature(ID3D12Device *device, D3D12_INDIRECT_ARGUMENT_TYPE type, UINT stride)
{
    D3D12_INDIRECT_ARGUMENT_DESC argument = {.Type = type};
    D3D12_COMMAND_SIGNATURE_DESC desc = {stride, 1, &argument, 0};
    ID3D12CommandSignature *signature = NULL;
    CHECK_HR(ID3D12Device_CreateCommandSignature(device, &desc, NULL, &IID_ID3D12CommandSignature, (void **)&signature), S_OK);
    return signature;
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

static void setup(struct env *env)
{
    D3D12_HEAP_PROPERTIES heap = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    D3D12_RESOURCE_DESC desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8G8B8A8_UNORM, SIZE, SIZE, 1, 1);
    D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    D3D12_ROOT_PARAMETER1 parameters[2];
    D3D12_GRAPHICS_PIPELINE_STATE_DESC pipeline_desc;
    ID3D10Blob *vs, *ps, *cs;
    uint16_t indices[SIZE];

    memset(env, 0, sizeof(*env));
    env->device = harness_create_device();
    env->queue = harness_create_queue(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    CHECK_HR(ID3D12Device_CreateCommittedResource(env->device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_RENDER_TARGET, NULL,
            &IID_ID3D12Resource, (void **)&env->target), S_OK);
    env->readback = harness_create_buffer(env->device, D3D12_HEAP_TYPE_READBACK, SIZE * ROW_PITCH, D3D12_RESOURCE_STATE_COPY_DEST);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&env->rtv_heap), S_OK);
    env->rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(env->rtv_heap);
    ID3D12Device_CreateRenderTargetView(env->device, env->target, NULL, env->rtv);

    env->graphics_signature = harness_root_signature(env->device, NULL, 0, 0);
    vs = harness_compile_stage(points_source, "vs", "vs_5_0");
    ps = harness_compile_stage(points_source, "ps", "ps_5_0");
    harness_graphics_desc(&pipeline_desc, env->graphics_signature, vs, ps);
    pipeline_desc.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_POINT;
    pipeline_desc.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    pipeline_desc.BlendState.RenderTarget[0].BlendEnable = TRUE;
    pipeline_desc.BlendState.RenderTarget[0].SrcBlend = D3D12_BLEND_ONE;
    pipeline_desc.BlendState.RenderTarget[0].DestBlend = D3D12_BLEND_ONE;
    pipeline_desc.BlendState.RenderTarget[0].BlendOp = D3D12_BLEND_OP_ADD;
    pipeline_desc.BlendState.RenderTarget[0].SrcBlendAlpha = D3D12_BLEND_ONE;
    pipeline_desc.BlendState.RenderTarget[0].DestBlendAlpha = D3D12_BLEND_ONE;
    pipeline_desc.BlendState.RenderTarget[0].BlendOpAlpha = D3D12_BLEND_OP_ADD;
    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(env->device, &pipeline_desc, &IID_ID3D12PipelineState, (void **)&env->points), S_OK);
    ID3D10Blob_Release(vs);
    ID3D10Blob_Release(ps);

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[1].Constants.Num32BitValues = 8;
    env->compute_signature = harness_root_signature(env->device, parameters, 2, 0);
    cs = harness_compile(counter_source, 0);
    env->counter = harness_compute_pipeline(env->device, env->compute_signature, cs);
    ID3D10Blob_Release(cs);
    cs = harness_compile(writer_source, 0);
    env->writer = harness_compute_pipeline(env->device, env->compute_signature, cs);
    ID3D10Blob_Release(cs);

    env->draw = command_signature(env->device, D3D12_INDIRECT_ARGUMENT_TYPE_DRAW, 20);
    env->draw_indexed = command_signature(env->device, D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED, 20);
    env->dispatch = command_signature(env->device, D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH, 12);
    for (unsigned i = 0; i < SIZE; i++)
        indices[i] = (uint16_t)(SIZE - 1 - i); /* reversed: the indices, not their positions, choose the pixels */
    env->index_buffer = harness_upload_buffer(env->device, indices, sizeof(indices));
    env->counts = harness_uav_buffer(env->device, 256);
}

static void teardown(struct env *env)
{
    ID3D12Resource_Release(env->counts);
    ID3D12Resource_Release(env->index_buffer);
    ID3D12CommandSignature_Release(env->dispatch);
    ID3D12CommandSignature_Release(env->draw_indexed);
    ID3D12CommandSignature_Release(env->draw);
    ID3D12PipelineState_Release(env->writer);
    ID3D12PipelineState_Release(env->counter);
    ID3D12RootSignature_Release(env->compute_signature);
    ID3D12PipelineState_Release(env->points);
    ID3D12RootSignature_Release(env->graphics_signature);
    ID3D12DescriptorHeap_Release(env->rtv_heap);
    ID3D12Resource_Release(env->readback);
    ID3D12Resource_Release(env->target);
    ID3D12CommandQueue_Release(env->queue);
    harness_release_device(env->device);
}

/* A DIRECT list with the target cleared and the point pipeline's state set. */
static struct harness_list begin_points(struct env *env)
{
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    const D3D12_VIEWPORT viewport = {0.0f, 0.0f, SIZE, SIZE, 0.0f, 1.0f};
    const D3D12_RECT scissor = {0, 0, SIZE, SIZE};
    const float zero[4] = {0};
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, env->rtv, zero, 0, NULL);
    ID3D12GraphicsCommandList2_OMSetRenderTargets(list.list, 1, &env->rtv, TRUE, NULL);
    ID3D12GraphicsCommandList2_RSSetViewports(list.list, 1, &viewport);
    ID3D12GraphicsCommandList2_RSSetScissorRects(list.list, 1, &scissor);
    ID3D12GraphicsCommandList2_IASetPrimitiveTopology(list.list, D3D_PRIMITIVE_TOPOLOGY_POINTLIST);
    ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, env->graphics_signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, env->points);
    return list;
}

/* Runs the list and reads how many points hit each pixel (the red channel). */
static void end_points(struct env *env, struct harness_list *list, uint8_t hits[SIZE][SIZE])
{
    D3D12_TEXTURE_COPY_LOCATION dst, src;
    uint8_t *mapped = NULL;

    transition(list->list, env->target, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_COPY_SOURCE);
    memset(&dst, 0, sizeof(dst));
    dst.pResource = env->readback;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    dst.PlacedFootprint.Footprint = (D3D12_SUBRESOURCE_FOOTPRINT){DXGI_FORMAT_R8G8B8A8_UNORM, SIZE, SIZE, 1, ROW_PITCH};
    memset(&src, 0, sizeof(src));
    src.pResource = env->target;
    src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    ID3D12GraphicsCommandList2_CopyTextureRegion(list->list, &dst, 0, 0, 0, &src, NULL);
    transition(list->list, env->target, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_RENDER_TARGET);
    harness_execute_and_wait(env->device, env->queue, list);
    harness_release_list(list);
    memset(hits, 0xcd, SIZE * SIZE);
    CHECK_HR(ID3D12Resource_Map(env->readback, 0, NULL, (void **)&mapped), S_OK);
    for (unsigned y = 0; mapped && y < SIZE; y++)
        for (unsigned x = 0; x < SIZE; x++)
            hits[y][x] = mapped[y * ROW_PITCH + x * 4];
    ID3D12Resource_Unmap(env->readback, 0, NULL);
}

static unsigned total(uint8_t hits[SIZE][SIZE])
{
    unsigned sum = 0;
    for (unsigned y = 0; y < SIZE; y++)
        for (unsigned x = 0; x < SIZE; x++)
            sum += hits[y][x];
    return sum;
}

/* ---- creation ---- */

static void test_creation_rules(struct env *env)
{
    static const struct {
        const char *what;
        UINT stride, count;
        D3D12_INDIRECT_ARGUMENT_DESC arguments[3];
        bool root_signature;
        UINT node_mask;
        HRESULT hr;
        const char *needle;
    } cases[] = {
        {"draw", 16, 1, {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW}}, false, 0, S_OK, NULL},
        {"draw, node 1", 16, 1, {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW}}, false, 1, S_OK, NULL},
        {"indexed draw", 20, 1, {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED}}, false, 0, S_OK, NULL},
        {"dispatch", 12, 1, {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH}}, false, 0, S_OK, NULL},
        {"vertex and index buffers", 52, 3, {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW, .VertexBuffer = {3}},
                {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_INDEX_BUFFER_VIEW}, {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED}}, false, 0, S_OK, NULL},
        {"constants", 24, 2, {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT, .Constant = {1, 2, 3}},
                {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH}}, true, 0, S_OK, NULL},
        {"root UAV and incrementing constant", 24, 3, {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW, .UnorderedAccessView = {0}},
                {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_INCREMENTING_CONSTANT, .IncrementingConstant = {1, 7}},
                {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH}}, true, 0, S_OK, NULL},
        {"incrementing constant takes no bytes", 12, 2, {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_INCREMENTING_CONSTANT, .IncrementingConstant = {1, 0}},
                {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH}}, true, 0, S_OK, NULL},
        {"stride not 4-aligned", 18, 1, {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW}}, false, 0, E_INVALIDARG, "multiple of 4"},
        {"stride too small", 12, 1, {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW}}, false, 0, E_INVALIDARG, "less than the 16 bytes"},
        {"no draw", 16, 1, {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW}}, false, 0, E_INVALIDARG, "must be a draw or dispatch"},
        {"draw not last", 32, 2, {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW}, {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW}},
                false, 0, E_INVALIDARG, "must be the last argument"},
        {"two draws", 32, 2, {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW}, {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW}},
                false, 0, E_INVALIDARG, "must be the last argument"},
        {"unknown type", 16, 2, {{.Type = 42}, {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW}}, false, 0, E_INVALIDARG, "not a D3D12_INDIRECT_ARGUMENT_TYPE"},
        {"constants without root signature", 24, 2, {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT, .Constant = {1, 0, 1}},
                {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH}}, false, 0, E_INVALIDARG, "pRootSignature is NULL"},
        {"root signature without root arguments", 16, 1, {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW}}, true, 0, E_INVALIDARG, "must be NULL"},
        {"parameter out of range", 24, 2, {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT, .Constant = {5, 0, 1}},
                {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH}}, true, 0, E_INVALIDARG, "RootParameterIndex 5"},
        {"wrong parameter type", 24, 2, {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW, .ConstantBufferView = {0}},
                {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH}}, true, 0, E_INVALIDARG, "is UAV (must be CBV)"},
        {"constants out of range", 48, 2, {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT, .Constant = {1, 6, 3}},
                {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH}}, true, 0, E_INVALIDARG, "8 constants"},
        {"incrementing constant out of range", 16, 2, {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_INCREMENTING_CONSTANT, .IncrementingConstant = {1, 8}},
                {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH}}, true, 0, E_INVALIDARG, "past root parameter 1's 8 constants"},
        {"vertex slot out of range", 32, 2, {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW, .VertexBuffer = {32}},
                {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW}}, false, 0, E_INVALIDARG, "Slot 32"},
        {"vertex buffer with a dispatch", 28, 2, {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW},
                {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH}}, false, 0, E_INVALIDARG, "only draws read them"},
        {"node mask", 16, 1, {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW}}, false, 2, E_INVALIDARG, "NodeMask"},
        {"no arguments", 16, 0, {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW}}, false, 0, E_INVALIDARG, "NumArgumentDescs 0"},
        {"mesh dispatch", 12, 1, {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH_MESH}}, false, 0, E_NOTIMPL, "no mesh shader pipelines"},
        {"ray dispatch", 104, 1, {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH_RAYS}}, false, 0, E_NOTIMPL, "no raytracing pipelines"},
    };
    ID3D12CommandSignature *signature;
    ID3D12Device *device;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        D3D12_COMMAND_SIGNATURE_DESC desc = {cases[i].stride, cases[i].count, cases[i].arguments, cases[i].node_mask};
        ID3D12RootSignature *root = cases[i].root_signature ? env->compute_signature : NULL;
        LOG_MARK();
        signature = NULL;
        HRESULT hr = ID3D12Device_CreateCommandSignature(env->device, &desc, root, &IID_ID3D12CommandSignature, (void **)&signature);
        CHECK_MSG(hr == cases[i].hr, "%s: 0x%08x, expected 0x%08x", cases[i].what, (unsigned)hr, (unsigned)cases[i].hr);
        if (cases[i].needle)
            CHECK_LOG("CreateCommandSignature", cases[i].needle);
        else
            CHECK_NO_LOG();
        CHECK_MSG(!signature == FAILED(cases[i].hr), "%s: signature %p", cases[i].what, (void *)signature);
        if (signature)
            ID3D12CommandSignature_Release(signature);
        /* the capability check: S_FALSE for what would be made */
        RELOG_MARK();
        hr = ID3D12Device_CreateCommandSignature(env->device, &desc, root, &IID_ID3D12CommandSignature, NULL);
        CHECK_MSG(hr == (cases[i].hr == S_OK ? S_FALSE : cases[i].hr), "%s (no out): 0x%08x", cases[i].what, (unsigned)hr);
        if (cases[i].needle)
            CHECK_LOG("CreateCommandSignature", cases[i].needle);
    }
    {
        LOG_MARK();
        CHECK_HR(ID3D12Device_CreateCommandSignature(env->device, NULL, NULL, &IID_ID3D12CommandSignature, (void **)&signature), E_INVALIDARG);
        CHECK_LOG("CreateCommandSignature", "pDesc is NULL");
    }
    /* the object: its interfaces, its device, private data */
    CHECK_HR(ID3D12CommandSignature_QueryInterface(env->draw, &IID_ID3D12Pageable, (void **)&signature), S_OK);
    CHECK(signature == env->draw);
    ID3D12CommandSignature_Release(signature);
    CHECK_HR(ID3D12CommandSignature_GetDevice(env->draw, &IID_ID3D12Device, (void **)&device), S_OK);
    CHECK(device == env->device);
    ID3D12Device_Release(device);
    {
        UINT value = 0x1234, size = sizeof(value), out = 0;
        static const GUID guid = {0x12345678, 0x1, 0x2, {3, 4, 5, 6, 7, 8, 9, 10}};
        CHECK_HR(ID3D12CommandSignature_SetPrivateData(env->draw, &guid, sizeof(value), &value), S_OK);
        CHECK_HR(ID3D12CommandSignature_GetPrivateData(env->draw, &guid, &size, &out), S_OK);
        CHECK(out == 0x1234);
    }
}

/* ---- draws ---- */

static void test_draws(struct env *env)
{
    /* three commands of 20 bytes (the last 4 of each padding), after 4 bytes of something else */
    static const UINT arguments[1 + 3 * 5] = {0xdead, 3, 2, 0, 0, 0xbeef, 4, 1, 7, 3, 0xbeef, 2, 3, 1, 5, 0xbeef};
    static const UINT indexed[1 + 2 * 5] = {0xdead, 4, 2, 3, 2, 1, 3, 1, 0, -1, 6};
    uint8_t expected[SIZE][SIZE], hits[SIZE][SIZE];
    ID3D12Resource *buffer = harness_upload_buffer(env->device, arguments, sizeof(arguments));
    ID3D12Resource *indexed_buffer = harness_upload_buffer(env->device, indexed, sizeof(indexed));
    D3D12_INDEX_BUFFER_VIEW view = {ID3D12Resource_GetGPUVirtualAddress(env->index_buffer), SIZE * 2, DXGI_FORMAT_R16_UINT};
    struct harness_list list;

    list = begin_points(env);
    for (unsigned i = 0; i < 3; i++)
        ID3D12GraphicsCommandList2_DrawInstanced(list.list, arguments[1 + 5 * i], arguments[2 + 5 * i], arguments[3 + 5 * i], arguments[4 + 5 * i]);
    end_points(env, &list, expected);
    CHECK_MSG(total(expected) == 3 * 2 + 4 * 1 + 2 * 3, "the direct draws drew %u points", total(expected));
    list = begin_points(env);
    ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, env->draw, 3, buffer, 4, NULL, 0);
    end_points(env, &list, hits);
    CHECK_MSG(!memcmp(hits, expected, sizeof(hits)), "DRAW: %u points, the direct draws' %u, %s", total(hits), total(expected),
            memcmp(hits, expected, sizeof(hits)) ? "elsewhere" : "in the same places");

    /* indexed, with a negative base vertex and a first instance */
    list = begin_points(env);
    ID3D12GraphicsCommandList2_IASetIndexBuffer(list.list, &view);
    for (unsigned i = 0; i < 2; i++)
        ID3D12GraphicsCommandList2_DrawIndexedInstanced(list.list, indexed[1 + 5 * i], indexed[2 + 5 * i], indexed[3 + 5 * i],
                (INT)indexed[4 + 5 * i], indexed[5 + 5 * i]);
    end_points(env, &list, expected);
    CHECK_MSG(total(expected) == 4 * 2 + 3 * 1, "the direct indexed draws drew %u points", total(expected));
    list = begin_points(env);
    ID3D12GraphicsCommandList2_IASetIndexBuffer(list.list, &view);
    ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, env->draw_indexed, 2, indexed_buffer, 4, NULL, 0);
    end_points(env, &list, hits);
    CHECK_MSG(!memcmp(hits, expected, sizeof(hits)), "DRAW_INDEXED: %u points, the direct draws' %u", total(hits), total(expected));

    /* MaxCommandCount 0 records nothing; 1 runs the first command only */
    list = begin_points(env);
    ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, env->draw, 0, buffer, 4, NULL, 0);
    end_points(env, &list, hits);
    CHECK_MSG(total(hits) == 0, "MaxCommandCount 0 drew %u points", total(hits));
    list = begin_points(env);
    ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, env->draw, 1, buffer, 4, NULL, 0);
    end_points(env, &list, hits);
    CHECK_MSG(total(hits) == 6, "MaxCommandCount 1 drew %u points", total(hits));

    ID3D12Resource_Release(indexed_buffer);
    ID3D12Resource_Release(buffer);
}

static void test_count_buffers(struct env *env)
{
    static const UINT arguments[4 * 5] = {3, 2, 0, 0, 0, 4, 1, 7, 3, 0, 2, 3, 1, 5, 0, 5, 1, 0, 9, 0};
    static const unsigned points[4] = {6, 4, 6, 5};
    /* counts at offsets 0, 4, 8, 12; the GPU's count and MaxCommandCount 3: the smaller wins */
    static const UINT counts[4] = {2, 3, 7, 0};
    ID3D12Resource *buffer = harness_upload_buffer(env->device, arguments, sizeof(arguments));
    ID3D12Resource *count_buffer = harness_upload_buffer(env->device, counts, sizeof(counts));
    uint8_t hits[SIZE][SIZE];
    struct harness_list list;

    for (unsigned c = 0; c < 4; c++) {
        unsigned n = counts[c] < 3 ? counts[c] : 3, expected = 0;
        for (unsigned i = 0; i < n; i++)
            expected += points[i];
        list = begin_points(env);
        ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, env->draw, 3, buffer, 0, count_buffer, 4 * c);
        end_points(env, &list, hits);
        CHECK_MSG(total(hits) == expected, "count %u, MaxCommandCount 3: %u points, expected %u", counts[c], total(hits), expected);
    }
    ID3D12Resource_Release(count_buffer);
    ID3D12Resource_Release(buffer);
}

/* A compute shader writes the draw's arguments; a barrier makes them indirect arguments. */
static void test_gpu_written_draw(struct env *env)
{
    static const UINT values[8] = {5, 3, 2, 1, 0, 0, 0, 0}; /* 5 vertices from 2, 3 instances from 1 */
    static const UINT counted[8] = {5, 3, 2, 1, 1, 9, 9, 9};
    ID3D12Resource *arguments = harness_uav_buffer(env->device, 64);
    uint8_t hits[SIZE][SIZE];
    struct harness_list list = begin_points(env);

    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, env->compute_signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, env->writer);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 0, ID3D12Resource_GetGPUVirtualAddress(arguments));
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(list.list, 1, 8, values, 0);
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    transition(list.list, arguments, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, env->points);
    ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, env->draw, 1, arguments, 0, NULL, 0);
    end_points(env, &list, hits);
    CHECK_MSG(total(hits) == 15, "arguments written on the GPU: %u points, expected 15", total(hits));
    for (unsigned y = 0; y < 3; y++)
        for (unsigned x = 0; x < 5; x++)
            CHECK_MSG(hits[y][x] == 1, "pixel (%u, %u) hit %u times (SV_VertexID and SV_InstanceID count from 0)", x, y, hits[y][x]);
    ID3D12Resource_Release(arguments);

    /* the count too: 1 at byte 16, so the two commands of MaxCommandCount 3 that would read it
     * and what follows do not run */
    arguments = harness_uav_buffer(env->device, 64);
    list = begin_points(env);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, env->compute_signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, env->writer);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 0, ID3D12Resource_GetGPUVirtualAddress(arguments));
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(list.list, 1, 8, counted, 0);
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    transition(list.list, arguments, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, env->points);
    ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, env->draw, 3, arguments, 0, arguments, 16);
    end_points(env, &list, hits);
    CHECK_MSG(total(hits) == 15, "arguments and count written on the GPU: %u points, expected 15", total(hits));
    ID3D12Resource_Release(arguments);
}

static void test_bundle(struct env *env)
{
    static const UINT arguments[5] = {3, 2, 0, 0, 0};
    ID3D12Resource *buffer = harness_upload_buffer(env->device, arguments, sizeof(arguments));
    ID3D12CommandAllocator *allocator = NULL;
    ID3D12GraphicsCommandList *bundle = NULL;
    uint8_t hits[SIZE][SIZE];
    struct harness_list list;

    CHECK_HR(ID3D12Device_CreateCommandAllocator(env->device, D3D12_COMMAND_LIST_TYPE_BUNDLE, &IID_ID3D12CommandAllocator, (void **)&allocator), S_OK);
    CHECK_HR(ID3D12Device_CreateCommandList(env->device, 0, D3D12_COMMAND_LIST_TYPE_BUNDLE, allocator, env->points,
            &IID_ID3D12GraphicsCommandList, (void **)&bundle), S_OK);
    ID3D12GraphicsCommandList_IASetPrimitiveTopology(bundle, D3D_PRIMITIVE_TOPOLOGY_POINTLIST);
    ID3D12GraphicsCommandList_ExecuteIndirect(bundle, env->draw, 1, buffer, 0, NULL, 0);
    CHECK_HR(ID3D12GraphicsCommandList_Close(bundle), S_OK);
    list = begin_points(env);
    ID3D12GraphicsCommandList2_ExecuteBundle(list.list, bundle);
    end_points(env, &list, hits);
    CHECK_MSG(total(hits) == 6, "ExecuteIndirect in a bundle drew %u points, expected 6", total(hits));
    ID3D12GraphicsCommandList_Release(bundle);
    ID3D12CommandAllocator_Release(allocator);
    ID3D12Resource_Release(buffer);
}

/* ---- dispatches ---- */

static UINT read_count(struct env *env)
{
    UINT value = 0;
    harness_read_back(env->device, env->queue, env->counts, &value, sizeof(value));
    return value;
}

/* A DIRECT list, the counter zeroed, the counter pipeline bound. */
static struct harness_list begin_counting(struct env *env)
{
    D3D12_RESOURCE_BARRIER barrier = {.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV, .UAV = {env->counts}};
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    D3D12_WRITEBUFFERIMMEDIATE_PARAMETER parameter = {ID3D12Resource_GetGPUVirtualAddress(env->counts), 0};
    ID3D12GraphicsCommandList2_WriteBufferImmediate(list.list, 1, &parameter, NULL);
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, env->compute_signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, env->counter);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 0, ID3D12Resource_GetGPUVirtualAddress(env->counts));
    return list;
}

static void test_dispatches(struct env *env)
{
    static const UINT arguments[1 + 3 * 3] = {0xdead, 2, 3, 1, 1, 1, 4, 5, 1, 1};
    static const UINT values[8] = {3, 2, 2, 0, 0, 0, 0, 0};
    ID3D12Resource *buffer = harness_upload_buffer(env->device, arguments, sizeof(arguments));
    ID3D12Resource *written = harness_uav_buffer(env->device, 64);
    ID3D12Resource *predicate;
    struct harness_list list;
    UINT64 zero = 0, one = 1;

    list = begin_counting(env);
    ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, env->dispatch, 3, buffer, 4, NULL, 0);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    CHECK_MSG(read_count(env) == 6 + 4 + 5, "three dispatches ran %u groups, expected 15", read_count(env));

    /* arguments from a compute shader earlier in the list */
    list = begin_counting(env);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, env->writer);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 0, ID3D12Resource_GetGPUVirtualAddress(written));
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(list.list, 1, 8, values, 0);
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    transition(list.list, written, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, env->counter);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 0, ID3D12Resource_GetGPUVirtualAddress(env->counts));
    ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, env->dispatch, 1, written, 0, NULL, 0);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    CHECK_MSG(read_count(env) == 12, "arguments written on the GPU: %u groups, expected 12", read_count(env));

    /* the count written on the GPU too: 1 at byte 12, where a second command would start */
    {
        static const UINT counted[8] = {2, 2, 1, 1, 7, 7, 0, 0};
        list = begin_counting(env);
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, env->writer);
        ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 0, ID3D12Resource_GetGPUVirtualAddress(written));
        ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(list.list, 1, 8, counted, 0);
        transition(list.list, written, D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
        ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
        transition(list.list, written, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT);
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, env->counter);
        ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 0, ID3D12Resource_GetGPUVirtualAddress(env->counts));
        ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, env->dispatch, 2, written, 0, written, 12);
        harness_execute_and_wait(env->device, env->queue, &list);
        harness_release_list(&list);
        CHECK_MSG(read_count(env) == 4, "arguments and count written on the GPU: %u groups, expected 4", read_count(env));
    }

    /* SetPredication skips ExecuteIndirect as it skips Dispatch */
    for (unsigned skip = 0; skip < 2; skip++) {
        predicate = harness_upload_buffer(env->device, skip ? &zero : &one, sizeof(UINT64));
        list = begin_counting(env);
        ID3D12GraphicsCommandList2_SetPredication(list.list, predicate, 0, D3D12_PREDICATION_OP_EQUAL_ZERO);
        ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, env->dispatch, 1, buffer, 4, NULL, 0);
        ID3D12GraphicsCommandList2_SetPredication(list.list, NULL, 0, D3D12_PREDICATION_OP_EQUAL_ZERO);
        harness_execute_and_wait(env->device, env->queue, &list);
        harness_release_list(&list);
        CHECK_MSG(read_count(env) == (skip ? 0u : 6u), "predicate %u: %u groups", !skip, read_count(env));
        ID3D12Resource_Release(predicate);
    }
    ID3D12Resource_Release(written);
    ID3D12Resource_Release(buffer);
}

/* Dispatches with a count buffer: the GPU's count, capped by MaxCommandCount, and batches of
 * the capping pass (more than 4096 commands). */
static void test_dispatch_counts(struct env *env)
{
    static const UINT arguments[3 * 3] = {2, 3, 1, 1, 1, 1, 4, 5, 1};
    static const unsigned groups[3] = {6, 1, 20};
    static const UINT counts[4] = {1, 2, 9, 0};
    enum { MANY = 5000 };
    ID3D12Resource *buffer = harness_upload_buffer(env->device, arguments, sizeof(arguments));
    ID3D12Resource *count_buffer = harness_upload_buffer(env->device, counts, sizeof(counts));
    ID3D12Resource *many_buffer, *many_count;
    static UINT ones[MANY * 3];
    struct harness_list list;
    UINT many = 4500;

    for (unsigned c = 0; c < 4; c++) {
        unsigned n = counts[c] < 2 ? counts[c] : 2, expected = 0;
        for (unsigned i = 0; i < n; i++)
            expected += groups[i];
        list = begin_counting(env);
        ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, env->dispatch, 2, buffer, 0, count_buffer, 4 * c);
        harness_execute_and_wait(env->device, env->queue, &list);
        harness_release_list(&list);
        CHECK_MSG(read_count(env) == expected, "count %u, MaxCommandCount 2: %u groups, expected %u", counts[c], read_count(env), expected);
    }
    /* the count equal to MaxCommandCount, all three */
    list = begin_counting(env);
    ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, env->dispatch, 3, buffer, 0, count_buffer, 8);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    CHECK_MSG(read_count(env) == 27, "count 9, MaxCommandCount 3: %u groups, expected 27", read_count(env));

    for (unsigned i = 0; i < MANY * 3; i++)
        ones[i] = 1;
    many_buffer = harness_upload_buffer(env->device, ones, sizeof(ones));
    many_count = harness_upload_buffer(env->device, &many, sizeof(many));
    list = begin_counting(env);
    ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, env->dispatch, MANY, many_buffer, 0, many_count, 0);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    CHECK_MSG(read_count(env) == 4500, "count 4500 of %u commands: %u groups", MANY, read_count(env));

    ID3D12Resource_Release(many_count);
    ID3D12Resource_Release(many_buffer);
    ID3D12Resource_Release(count_buffer);
    ID3D12Resource_Release(buffer);
}

/* ---- recording errors, and what is not built yet ---- */

static void expect_close(struct env *env, struct harness_list *list, HRESULT hr, const char *needle)
{
    LOG_MARK();
    (void)env;
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list->list), hr);
    CHECK_LOG("ExecuteIndirect", needle);
    harness_release_list(list);
}

static void test_errors(struct env *env)
{
    static const UINT arguments[8] = {1, 1, 0, 0, 1, 1, 1, 1};
    ID3D12Resource *buffer = harness_upload_buffer(env->device, arguments, sizeof(arguments));
    D3D12_HEAP_PROPERTIES heap = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    D3D12_RESOURCE_DESC desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8G8B8A8_UNORM, 4, 4, 1, 1);
    D3D12_INDIRECT_ARGUMENT_DESC state_arguments[2] = {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW, .UnorderedAccessView = {0}},
            {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH}};
    D3D12_COMMAND_SIGNATURE_DESC state_desc = {20, 2, state_arguments, 0};
    ID3D12CommandSignature *state_signature = NULL;
    ID3D12Resource *texture = NULL;
    struct harness_list list;

    CHECK_HR(ID3D12Device_CreateCommittedResource(env->device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON, NULL,
            &IID_ID3D12Resource, (void **)&texture), S_OK);
    CHECK_HR(ID3D12Device_CreateCommandSignature(env->device, &state_desc, env->compute_signature, &IID_ID3D12CommandSignature,
            (void **)&state_signature), S_OK);

    list = begin_counting(env);
    {
        LOG_MARK();
        ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, env->dispatch, 1, buffer, 2, NULL, 0);
        CHECK_LOG("ExecuteIndirect", "not a multiple of 4");
    }
    expect_close(env, &list, E_INVALIDARG, "not a multiple of 4");
    list = begin_counting(env);
    {
        LOG_MARK();
        ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, env->dispatch, 1, buffer, 36, NULL, 0);
        CHECK_LOG("ExecuteIndirect", "past the buffer's 32 bytes");
    }
    expect_close(env, &list, E_INVALIDARG, "past the buffer's 32 bytes");
    list = begin_counting(env);
    {
        LOG_MARK();
        ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, env->dispatch, 1, texture, 0, NULL, 0);
        CHECK_LOG("ExecuteIndirect", "a texture");
    }
    expect_close(env, &list, E_INVALIDARG, "a texture");
    list = begin_counting(env);
    {
        LOG_MARK();
        ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, env->dispatch, 1, buffer, 0, buffer, 30);
        CHECK_LOG("ExecuteIndirect", "CountBufferOffset 30");
    }
    expect_close(env, &list, E_INVALIDARG, "CountBufferOffset 30");
    list = begin_counting(env);
    {
        LOG_MARK();
        ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, NULL, 1, buffer, 0, NULL, 0);
        CHECK_LOG("ExecuteIndirect", "pCommandSignature is NULL");
    }
    expect_close(env, &list, E_INVALIDARG, "pCommandSignature is NULL");
    /* a draw signature on a COMPUTE list */
    {
        ID3D12CommandQueue *compute_queue = harness_create_queue(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
        list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
        LOG_MARK();
        ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, env->draw, 1, buffer, 0, NULL, 0);
        CHECK_LOG("ExecuteIndirect", "only DIRECT lists draw");
        expect_close(env, &list, E_INVALIDARG, "only DIRECT lists draw");
        ID3D12CommandQueue_Release(compute_queue);
    }
    /* root views as arguments (state_signature is made above): test_indirect_root_views (dispatches, and the
     * refusals) and test_indirect_root_view_draws (draws) */
    ID3D12CommandSignature_Release(state_signature);
    ID3D12Resource_Release(texture);
    ID3D12Resource_Release(buffer);
}

/* INCREMENTING_CONSTANT: command i sees i in its root constant, for draws (each point at x = i)
 * and dispatches (each adds i + 1), with and without a count buffer. */
static const char indexed_points_source[] =
    "cbuffer c : register(b0) { uint k; };\n"
    "struct O { float4 pos : SV_Position; };\n"
    "O vs(uint v : SV_VertexID) { O o; o.pos = float4((k + v + 0.5) / 8.0 - 1.0, 1.0 - 0.5 / 8.0, 0, 1); return o; }\n"
    "float4 ps(O i) : SV_Target { return float4(1.0 / 255.0, 0, 0, 0); }\n";
static const char index_counter_source[] =
    "RWByteAddressBuffer u : register(u0);\n"
    "cbuffer c : register(b0) { uint4 a; uint4 b; };\n"
    "[numthreads(1, 1, 1)] void main() { uint o; u.InterlockedAdd(0, a.y + 1, o); }\n";

static void test_incrementing_constant(struct env *env)
{
    static const UINT draws[5 * 4] = {1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0};
    static const UINT dispatches[4 * 3] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    static const UINT count = 3;
    D3D12_INDIRECT_ARGUMENT_DESC draw_arguments[2] = {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_INCREMENTING_CONSTANT, .IncrementingConstant = {0, 0}},
            {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW}};
    D3D12_INDIRECT_ARGUMENT_DESC dispatch_arguments[2] = {{.Type = D3D12_INDIRECT_ARGUMENT_TYPE_INCREMENTING_CONSTANT,
            .IncrementingConstant = {1, 1}}, {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH}};
    D3D12_COMMAND_SIGNATURE_DESC draw_desc = {16, 2, draw_arguments, 0}, dispatch_desc = {12, 2, dispatch_arguments, 0};
    ID3D12Resource *draw_buffer = harness_upload_buffer(env->device, draws, sizeof(draws));
    ID3D12Resource *dispatch_buffer = harness_upload_buffer(env->device, dispatches, sizeof(dispatches));
    ID3D12Resource *count_buffer = harness_upload_buffer(env->device, &count, sizeof(count));
    ID3D12CommandSignature *draw_signature = NULL, *dispatch_signature = NULL;
    ID3D12PipelineState *points = NULL, *counter;
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    ID3D12RootSignature *graphics_root;
    D3D12_ROOT_PARAMETER1 parameter;
    uint8_t hits[SIZE][SIZE];
    struct harness_list list;
    ID3D10Blob *vs, *ps, *cs;

    memset(&parameter, 0, sizeof(parameter));
    parameter.ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameter.Constants.Num32BitValues = 1;
    graphics_root = harness_root_signature(env->device, &parameter, 1, 0);
    vs = harness_compile_stage(indexed_points_source, "vs", "vs_5_0");
    ps = harness_compile_stage(indexed_points_source, "ps", "ps_5_0");
    harness_graphics_desc(&desc, graphics_root, vs, ps);
    desc.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_POINT;
    desc.BlendState.RenderTarget[0].BlendEnable = TRUE;
    desc.BlendState.RenderTarget[0].SrcBlend = desc.BlendState.RenderTarget[0].DestBlend = D3D12_BLEND_ONE;
    desc.BlendState.RenderTarget[0].SrcBlendAlpha = desc.BlendState.RenderTarget[0].DestBlendAlpha = D3D12_BLEND_ONE;
    desc.BlendState.RenderTarget[0].BlendOp = desc.BlendState.RenderTarget[0].BlendOpAlpha = D3D12_BLEND_OP_ADD;
    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&points), S_OK);
    ID3D10Blob_Release(vs);
    ID3D10Blob_Release(ps);
    cs = harness_compile(index_counter_source, 0);
    counter = harness_compute_pipeline(env->device, env->compute_signature, cs);
    ID3D10Blob_Release(cs);
    CHECK_HR(ID3D12Device_CreateCommandSignature(env->device, &draw_desc, graphics_root, &IID_ID3D12CommandSignature,
            (void **)&draw_signature), S_OK);
    CHECK_HR(ID3D12Device_CreateCommandSignature(env->device, &dispatch_desc, env->compute_signature, &IID_ID3D12CommandSignature,
            (void **)&dispatch_signature), S_OK);

    for (unsigned counted = 0; counted < 2; counted++) {
        unsigned n = counted ? count : 5;
        list = begin_points(env);
        ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, graphics_root);
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, points);
        ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, draw_signature, 5, draw_buffer, 0, counted ? count_buffer : NULL, 0);
        end_points(env, &list, hits);
        CHECK_MSG(total(hits) == n, "%s: %u points, expected %u", counted ? "count 3" : "no count", total(hits), n);
        for (unsigned x = 0; x < 5; x++)
            CHECK_MSG(hits[0][x] == (x < n), "command %u's point (x = its index) hit %u times", x, hits[0][x]);

        list = begin_counting(env);
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, counter);
        ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, dispatch_signature, 4, dispatch_buffer, 0, counted ? count_buffer : NULL, 0);
        harness_execute_and_wait(env->device, env->queue, &list);
        harness_release_list(&list);
        CHECK_MSG(read_count(env) == (counted ? 1 + 2 + 3u : 1 + 2 + 3 + 4u), "%s: dispatches added %u", counted ? "count 3" : "no count",
                read_count(env));
    }

    ID3D12CommandSignature_Release(dispatch_signature);
    ID3D12CommandSignature_Release(draw_signature);
    ID3D12PipelineState_Release(counter);
    ID3D12PipelineState_Release(points);
    ID3D12RootSignature_Release(graphics_root);
    ID3D12Resource_Release(count_buffer);
    ID3D12Resource_Release(dispatch_buffer);
    ID3D12Resource_Release(draw_buffer);
}

static void test_feature_tier(struct env *env)
{
    D3D12_FEATURE_DATA_D3D12_OPTIONS21 options;
    memset(&options, 0xcd, sizeof(options));
    CHECK_HR(ID3D12Device_CheckFeatureSupport(env->device, D3D12_FEATURE_D3D12_OPTIONS21, &options, sizeof(options)), S_OK);
    /* 1.1 with generated commands (every argument type runs), 1.0 without: test_indirect_root_views.c tells which */
    CHECK(options.ExecuteIndirectTier == D3D12_EXECUTE_INDIRECT_TIER_1_0 || options.ExecuteIndirectTier == D3D12_EXECUTE_INDIRECT_TIER_1_1);
}

int main(void)
{
    struct env env;

    harness_init();
    setup(&env);
    test_creation_rules(&env);
    test_draws(&env);
    test_count_buffers(&env);
    test_gpu_written_draw(&env);
    test_bundle(&env);
    test_dispatches(&env);
    test_dispatch_counts(&env);
    test_incrementing_constant(&env);
    test_errors(&env);
    test_feature_tier(&env);
    teardown(&env);
    return harness_finish();
}
