/* Stream output: a vertex shader's outputs captured by a StreamOutput declaration (parts of
 * outputs, a gap, two buffers with their own strides, SV_Position) and read back; the filled size
 * at BufferFilledSizeLocation after two draws, and appends going on in a second list and over
 * new targets; an SO_STATISTICS query; a geometry shader's emitted vertices captured; a stream
 * rasterized as it streams out; a vertex shader's point list; each rule of the declaration refused with its line, and
 * SOSetTargets' recording errors and warnings. */
#include <stdio.h>
#include <string.h>

#include "harness.h"

#define SO_SIZE 1024
#define SLOT0 0
#define SLOT1 256
#define COUNTER0 768
#define COUNTER1 776

static const char vs_source[] =
    "struct V { float4 pos : SV_Position; float4 a : TEXCOORD0; uint2 b : TEXCOORD1; };\n"
    "V vs(uint id : SV_VertexID) {\n"
    "    V o;\n"
    "    o.pos = float4(id, id + 0.5, 0.25, 1);\n"
    "    o.a = float4(10 + id, 20 + id, 30 + id, 40 + id);\n"
    "    o.b = uint2(100 + id, 200 + id);\n"
    "    return o;\n"
    "}\n"
    "struct G { float4 pos : SV_Position; float4 v : VALUE; };\n"
    "[maxvertexcount(2)] void gs(point V i[1], inout PointStream<G> s) {\n"
    "    G o; o.pos = i[0].pos; o.v = i[0].a; s.Append(o);\n"
    "    o.v = i[0].a * 2; s.Append(o);\n"
    "}\n";

/* slot 0 (stride 20): a.yz, a gap of one, b.xy; slot 1 (stride 16): SV_Position */
static const D3D12_SO_DECLARATION_ENTRY vs_entries[] = {
    {0, "TEXCOORD", 0, 1, 2, 0},
    {0, NULL, 0, 0, 1, 0},
    {0, "TEXCOORD", 1, 0, 2, 0},
    {0, "SV_Position", 0, 0, 4, 1},
};
static const UINT vs_strides[] = {20, 16};

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12RootSignature *signature;
    ID3D10Blob *vs, *gs;
    ID3D12Resource *so, *statistics;
    ID3D12QueryHeap *query_heap;
};

/* Triangles from the vertex shader, points into the geometry shader. */
static HRESULT create_pipeline(struct env *env, const D3D12_SO_DECLARATION_ENTRY *entries, UINT entry_count, const UINT *strides,
        UINT stride_count, UINT rasterized, bool gs, ID3D12PipelineState **state)
{
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;

    harness_graphics_desc(&desc, env->signature, env->vs, NULL);
    if (gs) {
        desc.GS.pShaderBytecode = ID3D10Blob_GetBufferPointer(env->gs);
        desc.GS.BytecodeLength = ID3D10Blob_GetBufferSize(env->gs);
    }
    desc.PrimitiveTopologyType = gs ? D3D12_PRIMITIVE_TOPOLOGY_TYPE_POINT : D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
    desc.DepthStencilState.DepthEnable = FALSE;
    desc.StreamOutput.pSODeclaration = entries;
    desc.StreamOutput.NumEntries = entry_count;
    desc.StreamOutput.pBufferStrides = strides;
    desc.StreamOutput.NumStrides = stride_count;
    desc.StreamOutput.RasterizedStream = rasterized;
    *state = NULL;
    return ID3D12Device_CreateGraphicsPipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)state);
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

/* A zeroed SO buffer (data and filled sizes) in STREAM_OUT. */
static void reset_so_buffer(struct env *env)
{
    static const uint8_t zeros[SO_SIZE];
    ID3D12Resource *upload = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, SO_SIZE, D3D12_RESOURCE_STATE_GENERIC_READ);
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    void *mapped = NULL;

    if (env->so)
        ID3D12Resource_Release(env->so);
    env->so = harness_create_buffer(env->device, D3D12_HEAP_TYPE_DEFAULT, SO_SIZE, D3D12_RESOURCE_STATE_COPY_DEST);
    CHECK_HR(ID3D12Resource_Map(upload, 0, NULL, &mapped), S_OK);
    if (mapped)
        memcpy(mapped, zeros, SO_SIZE);
    ID3D12Resource_Unmap(upload, 0, NULL);
    ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, env->so, 0, upload, 0, SO_SIZE);
    transition(list.list, env->so, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_STREAM_OUT);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    ID3D12Resource_Release(upload);
}

/* A list that streams out: no targets rasterized, point list, slots 0 and 1 bound. */
static struct harness_list begin_list(struct env *env, ID3D12PipelineState *state, D3D_PRIMITIVE_TOPOLOGY topology)
{
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    const D3D12_VIEWPORT viewport = {0.0f, 0.0f, 16.0f, 16.0f, 0.0f, 1.0f};
    const D3D12_RECT scissor = {0, 0, 16, 16};
    D3D12_GPU_VIRTUAL_ADDRESS base = ID3D12Resource_GetGPUVirtualAddress(env->so);
    const D3D12_STREAM_OUTPUT_BUFFER_VIEW views[] = {
        {base + SLOT0, 256, base + COUNTER0},
        {base + SLOT1, 256, base + COUNTER1},
    };

    ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, env->signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_RSSetViewports(list.list, 1, &viewport);
    ID3D12GraphicsCommandList2_RSSetScissorRects(list.list, 1, &scissor);
    ID3D12GraphicsCommandList2_IASetPrimitiveTopology(list.list, topology);
    ID3D12GraphicsCommandList2_SOSetTargets(list.list, 0, 2, views);
    return list;
}

static void read_so(struct env *env, uint32_t *words)
{
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    transition(list.list, env->so, D3D12_RESOURCE_STATE_STREAM_OUT, D3D12_RESOURCE_STATE_COPY_SOURCE);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    harness_read_back(env->device, env->queue, env->so, words, SO_SIZE);
    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    transition(list.list, env->so, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_STREAM_OUT);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
}

static float as_float(uint32_t word)
{
    float f;
    memcpy(&f, &word, sizeof(f));
    return f;
}

/* Vertex `v` (SV_VertexID id) at slot 0 and, with slot1, slot 1 of the buffer. */
static void check_vertex_slots(const uint32_t *words, unsigned v, unsigned id, bool slot1_bound)
{
    const uint32_t *slot0 = &words[(SLOT0 + v * 20) / 4], *slot1 = &words[(SLOT1 + v * 16) / 4];
    CHECK_MSG(as_float(slot0[0]) == 20.0f + id && as_float(slot0[1]) == 30.0f + id, "vertex %u: a.yz %g %g", v, as_float(slot0[0]),
            as_float(slot0[1]));
    CHECK_MSG(slot0[2] == 0, "vertex %u: the gap was written (0x%x)", v, slot0[2]);
    CHECK_MSG(slot0[3] == 100 + id && slot0[4] == 200 + id, "vertex %u: b.xy %u %u", v, slot0[3], slot0[4]);
    if (!slot1_bound)
        return;
    CHECK_MSG(as_float(slot1[0]) == (float)id && as_float(slot1[1]) == id + 0.5f && as_float(slot1[2]) == 0.25f && as_float(slot1[3]) == 1.0f,
            "vertex %u: position %g %g %g %g", v, as_float(slot1[0]), as_float(slot1[1]), as_float(slot1[2]), as_float(slot1[3]));
}

static void check_vertex(const uint32_t *words, unsigned v, unsigned id)
{
    check_vertex_slots(words, v, id, true);
}

static void test_vertex_capture(struct env *env)
{
    static uint32_t words[SO_SIZE / 4];
    ID3D12PipelineState *state;
    struct harness_list list;

    CHECK_HR(create_pipeline(env, vs_entries, 4, vs_strides, 2, D3D12_SO_NO_RASTERIZED_STREAM, false, &state), S_OK);
    if (!state)
        return;
    reset_so_buffer(env);
    /* two draws in one list: the second appends after the first's triangle; an SO_STATISTICS
     * query of stream 0 counts both triangles */
    list = begin_list(env, state, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    ID3D12GraphicsCommandList2_BeginQuery(list.list, env->query_heap, D3D12_QUERY_TYPE_SO_STATISTICS_STREAM0, 1);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 3, 1, 0, 0);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 3, 1, 3, 0);
    ID3D12GraphicsCommandList2_EndQuery(list.list, env->query_heap, D3D12_QUERY_TYPE_SO_STATISTICS_STREAM0, 1);
    ID3D12GraphicsCommandList2_ResolveQueryData(list.list, env->query_heap, D3D12_QUERY_TYPE_SO_STATISTICS_STREAM0, 1, 1, env->statistics, 0);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    {
        D3D12_QUERY_DATA_SO_STATISTICS statistics;
        harness_read_back(env->device, env->queue, env->statistics, &statistics, sizeof(statistics));
        CHECK_MSG(statistics.NumPrimitivesWritten == 2 && statistics.PrimitivesStorageNeeded == 2,
                "SO_STATISTICS_STREAM0 counted %llu primitives written, %llu needed (2, 2)",
                (unsigned long long)statistics.NumPrimitivesWritten, (unsigned long long)statistics.PrimitivesStorageNeeded);
    }
    read_so(env, words);
    CHECK_MSG(words[COUNTER0 / 4] == 6 * 20, "slot 0's filled size after two draws is %u (120)", words[COUNTER0 / 4]);
    CHECK_MSG(words[COUNTER1 / 4] == 6 * 16, "slot 1's filled size after two draws is %u (96)", words[COUNTER1 / 4]);
    /* SV_VertexID counts from 0 whatever StartVertexLocation (docs/graphics.md) */
    for (unsigned v = 0; v < 6; v++)
        check_vertex(words, v, v % 3);

    /* another list goes on where the filled sizes say */
    list = begin_list(env, state, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 3, 1, 7, 0);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    read_so(env, words);
    CHECK_MSG(words[COUNTER0 / 4] == 9 * 20, "slot 0's filled size after the second list is %u (180)", words[COUNTER0 / 4]);
    CHECK_MSG(words[COUNTER1 / 4] == 9 * 16, "slot 1's filled size after the second list is %u (144)", words[COUNTER1 / 4]);
    check_vertex(words, 5, 2);
    for (unsigned v = 6; v < 9; v++)
        check_vertex(words, v, v - 6);
    CHECK_MSG(words[(SLOT0 + 9 * 20) / 4] == 0, "nothing was written after the ninth vertex");

    /* new targets between draws (slot 0 only, 100 bytes on, its own filled size) end
     * transform feedback and begin it over them */
    reset_so_buffer(env);
    list = begin_list(env, state, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 3, 1, 0, 0);
    {
        D3D12_GPU_VIRTUAL_ADDRESS base = ID3D12Resource_GetGPUVirtualAddress(env->so);
        const D3D12_STREAM_OUTPUT_BUFFER_VIEW views[] = {
            {base + SLOT0 + 100, 100, base + COUNTER0 + 16},
            {base + SLOT1 + 128, 128, base + COUNTER1 + 16},
        };
        ID3D12GraphicsCommandList2_SOSetTargets(list.list, 0, 2, views);
    }
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 3, 1, 4, 0);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    read_so(env, words);
    CHECK_MSG(words[COUNTER0 / 4] == 60 && words[COUNTER1 / 4] == 48 && words[(COUNTER0 + 16) / 4] == 60
            && words[(COUNTER1 + 16) / 4] == 48, "filled sizes %u, %u, %u and %u (60, 48, 60, 48)", words[COUNTER0 / 4], words[COUNTER1 / 4],
            words[(COUNTER0 + 16) / 4], words[(COUNTER1 + 16) / 4]);
    for (unsigned v = 0; v < 3; v++)
        check_vertex(words, v, v);
    for (unsigned v = 0; v < 3; v++) {
        const uint32_t *slot1 = &words[(SLOT1 + 128 + v * 16) / 4];
        check_vertex_slots(words, 5 + v, v, false); /* from byte 100 of slot 0 */
        CHECK_MSG(as_float(slot1[0]) == (float)v && as_float(slot1[3]) == 1.0f, "vertex %u at byte 128 of slot 1: %g %g", v,
                as_float(slot1[0]), as_float(slot1[3]));
    }
    CHECK_MSG(words[(SLOT1 + 48) / 4] == 0, "the first targets took no more after SOSetTargets");
    ID3D12PipelineState_Release(state);
}

static void test_geometry_capture(struct env *env)
{
    static const D3D12_SO_DECLARATION_ENTRY entries[] = {{0, "VALUE", 0, 0, 4, 0}};
    static const UINT strides[] = {16};
    static uint32_t words[SO_SIZE / 4];
    ID3D12PipelineState *state;
    struct harness_list list;

    if (!env->gs)
        return;
    CHECK_HR(create_pipeline(env, entries, 1, strides, 1, D3D12_SO_NO_RASTERIZED_STREAM, true, &state), S_OK);
    if (!state)
        return;
    reset_so_buffer(env);
    list = begin_list(env, state, D3D_PRIMITIVE_TOPOLOGY_POINTLIST);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 2, 1, 0, 0);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    read_so(env, words);
    CHECK_MSG(words[COUNTER0 / 4] == 4 * 16, "the geometry shader's filled size is %u (64)", words[COUNTER0 / 4]);
    for (unsigned v = 0; v < 4; v++) {
        unsigned id = v / 2, scale = v % 2 + 1;
        for (unsigned c = 0; c < 4; c++)
            CHECK_MSG(as_float(words[v * 4 + c]) == (10.0f * (c + 1) + id) * scale, "emitted vertex %u component %u is %g", v, c,
                    as_float(words[v * 4 + c]));
    }
    ID3D12PipelineState_Release(state);
}

/* A point list from the vertex shader alone (Vulkan wants a point size written there, which
 * pipeline creation adds): each point streams out. */
static void test_vertex_points(struct env *env)
{
    static uint32_t words[SO_SIZE / 4];
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *state = NULL;
    struct harness_list list;

    harness_graphics_desc(&desc, env->signature, env->vs, NULL);
    desc.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_POINT;
    desc.DepthStencilState.DepthEnable = FALSE;
    desc.StreamOutput = (D3D12_STREAM_OUTPUT_DESC){vs_entries, 4, vs_strides, 2, D3D12_SO_NO_RASTERIZED_STREAM};
    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&state), S_OK);
    if (!state)
        return;
    reset_so_buffer(env);
    list = begin_list(env, state, D3D_PRIMITIVE_TOPOLOGY_POINTLIST);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 2, 1, 0, 0);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    read_so(env, words);
    CHECK_MSG(words[COUNTER0 / 4] == 2 * 20 && words[COUNTER1 / 4] == 2 * 16, "two points' filled sizes are %u and %u (40, 32)",
            words[COUNTER0 / 4], words[COUNTER1 / 4]);
    check_vertex(words, 0, 0);
    check_vertex(words, 1, 1);
    ID3D12PipelineState_Release(state);
}

/* RasterizedStream 0: the triangle streams out and is drawn too. */
static void test_rasterized(struct env *env)
{
    static const char source[] =
        "struct V { float4 pos : SV_Position; float4 color : COLOR; };\n"
        "V vs(uint id : SV_VertexID) {\n"
        "    V o;\n"
        "    float2 p = float2((id << 1) & 2, id & 2);\n"
        "    o.pos = float4(p * float2(2, -2) + float2(-1, 1), 0, 1);\n"
        "    o.color = float4(0.25, 0.5, 1, 1);\n"
        "    return o;\n"
        "}\n"
        "float4 ps(V i) : SV_Target { return i.color; }\n";
    static const D3D12_SO_DECLARATION_ENTRY entries[] = {{0, "COLOR", 0, 0, 4, 0}};
    static const UINT strides[] = {16};
    static const float clear[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    static uint32_t words[SO_SIZE / 4];
    ID3D10Blob *vs = harness_compile_stage(source, "vs", "vs_5_0"), *ps = harness_compile_stage(source, "ps", "ps_5_0");
    D3D12_HEAP_PROPERTIES heap = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    D3D12_RESOURCE_DESC target_desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, 1);
    const D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    ID3D12Resource *target = NULL, *readback = harness_create_buffer(env->device, D3D12_HEAP_TYPE_READBACK, 256 * 16,
            D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12DescriptorHeap *rtv_heap = NULL;
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    D3D12_CPU_DESCRIPTOR_HANDLE rtv;
    D3D12_TEXTURE_COPY_LOCATION dst, src;
    ID3D12PipelineState *state = NULL;
    struct harness_list list;
    uint8_t *mapped = NULL;

    if (!vs || !ps)
        return;
    harness_graphics_desc(&desc, env->signature, vs, ps);
    desc.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    desc.DepthStencilState.DepthEnable = FALSE;
    desc.StreamOutput = (D3D12_STREAM_OUTPUT_DESC){entries, 1, strides, 1, 0};
    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&state), S_OK);
    target_desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    CHECK_HR(ID3D12Device_CreateCommittedResource(env->device, &heap, D3D12_HEAP_FLAG_NONE, &target_desc, D3D12_RESOURCE_STATE_RENDER_TARGET,
            NULL, &IID_ID3D12Resource, (void **)&target), S_OK);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&rtv_heap), S_OK);
    if (state && target && rtv_heap) {
        rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(rtv_heap);
        ID3D12Device_CreateRenderTargetView(env->device, target, NULL, rtv);
        reset_so_buffer(env);
        list = begin_list(env, state, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
        ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, rtv, clear, 0, NULL);
        ID3D12GraphicsCommandList2_OMSetRenderTargets(list.list, 1, &rtv, TRUE, NULL);
        ID3D12GraphicsCommandList2_DrawInstanced(list.list, 3, 1, 0, 0);
        transition(list.list, target, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_COPY_SOURCE);
        memset(&dst, 0, sizeof(dst));
        dst.pResource = readback;
        dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
        dst.PlacedFootprint.Footprint = (D3D12_SUBRESOURCE_FOOTPRINT){DXGI_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, 256};
        memset(&src, 0, sizeof(src));
        src.pResource = target;
        src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
        ID3D12GraphicsCommandList2_CopyTextureRegion(list.list, &dst, 0, 0, 0, &src, NULL);
        harness_execute_and_wait(env->device, env->queue, &list);
        harness_release_list(&list);
        read_so(env, words);
        CHECK_MSG(words[COUNTER0 / 4] == 3 * 16, "the rasterized stream's filled size is %u (48)", words[COUNTER0 / 4]);
        for (unsigned v = 0; v < 3; v++)
            CHECK_MSG(as_float(words[v * 4]) == 0.25f && as_float(words[v * 4 + 1]) == 0.5f && as_float(words[v * 4 + 2]) == 1.0f,
                    "vertex %u's colour streamed out as %g %g %g", v, as_float(words[v * 4]), as_float(words[v * 4 + 1]),
                    as_float(words[v * 4 + 2]));
        CHECK_HR(ID3D12Resource_Map(readback, 0, NULL, (void **)&mapped), S_OK);
        if (mapped) {
            const uint8_t *pixel = mapped + 256 * 8 + 4 * 8;
            CHECK_MSG(pixel[0] >= 63 && pixel[0] <= 65 && pixel[1] >= 127 && pixel[1] <= 129 && pixel[2] == 255 && pixel[3] == 255,
                    "the triangle drew %u %u %u %u (64 128 255 255)", pixel[0], pixel[1], pixel[2], pixel[3]);
        }
        ID3D12Resource_Unmap(readback, 0, NULL);
    }
    if (state)
        ID3D12PipelineState_Release(state);
    if (rtv_heap)
        ID3D12DescriptorHeap_Release(rtv_heap);
    if (target)
        ID3D12Resource_Release(target);
    ID3D12Resource_Release(readback);
    ID3D10Blob_Release(vs);
    ID3D10Blob_Release(ps);
}

static void refuse(struct env *env, const D3D12_SO_DECLARATION_ENTRY *entries, UINT entry_count, const UINT *strides, UINT stride_count,
        UINT rasterized, const char *line)
{
    ID3D12PipelineState *state;
    LOG_MARK();
    CHECK_HR(create_pipeline(env, entries, entry_count, strides, stride_count, rasterized, false, &state), E_INVALIDARG);
    CHECK(!state);
    CHECK_LOG(line);
}

static void test_refusals(struct env *env)
{
    static const UINT strides[] = {16, 16, 16, 16, 16};
    static const UINT odd_stride[] = {18};
    static const UINT large_stride[] = {2052};
    const D3D12_SO_DECLARATION_ENTRY unknown[] = {{0, "NORMAL", 0, 0, 4, 0}};
    const D3D12_SO_DECLARATION_ENTRY wrong_index[] = {{0, "TEXCOORD", 2, 0, 1, 0}};
    const D3D12_SO_DECLARATION_ENTRY past_output[] = {{0, "TEXCOORD", 1, 1, 2, 0}};
    const D3D12_SO_DECLARATION_ENTRY past_w[] = {{0, "TEXCOORD", 0, 2, 3, 0}};
    const D3D12_SO_DECLARATION_ENTRY no_components[] = {{0, "TEXCOORD", 0, 0, 0, 0}};
    const D3D12_SO_DECLARATION_ENTRY slot4[] = {{0, "TEXCOORD", 0, 0, 4, 4}};
    const D3D12_SO_DECLARATION_ENTRY slot1[] = {{0, "TEXCOORD", 0, 0, 4, 1}};
    const D3D12_SO_DECLARATION_ENTRY past_stride[] = {{0, "TEXCOORD", 0, 0, 4, 0}, {0, "TEXCOORD", 1, 0, 1, 0}};
    const D3D12_SO_DECLARATION_ENTRY stream1[] = {{1, "TEXCOORD", 0, 0, 4, 0}};
    const D3D12_SO_DECLARATION_ENTRY fine[] = {{0, "TEXCOORD", 0, 0, 4, 0}};

    refuse(env, unknown, 1, strides, 1, 0, "names NORMAL0, which pDesc->VS does not output");
    refuse(env, wrong_index, 1, strides, 1, 0, "names TEXCOORD2, which pDesc->VS does not output");
    refuse(env, past_output, 1, strides, 1, 0, "takes components 1 to 2 of TEXCOORD1, which has 2");
    refuse(env, past_w, 1, strides, 1, 0, "has StartComponent 2 and ComponentCount 3");
    refuse(env, no_components, 1, strides, 1, 0, "has StartComponent 0 and ComponentCount 0");
    refuse(env, slot4, 1, strides, 4, 0, "OutputSlot is 4 (0 to 3)");
    refuse(env, slot1, 1, strides, 1, 0, "OutputSlot 1 has no stride (NumStrides is 1)");
    refuse(env, past_stride, 2, strides, 1, 0, "ends at byte 20 of OutputSlot 0, past its stride pBufferStrides[0] 16");
    refuse(env, fine, 1, odd_stride, 1, 0, "pBufferStrides[0] is 18 (a multiple of 4");
    refuse(env, fine, 1, large_stride, 1, 0, "pBufferStrides[0] is 2052");
    refuse(env, fine, 1, strides, 5, 0, "NumStrides is 5");
    refuse(env, fine, 1, strides, 0, 0, "NumStrides is 0");
    refuse(env, fine, 1, NULL, 1, 0, "pBufferStrides is NULL with NumStrides 1");
    refuse(env, NULL, 1, strides, 1, 0, "pSODeclaration is NULL with NumEntries 1");
    refuse(env, fine, 1, strides, 1, 4, "RasterizedStream is 4");
    refuse(env, fine, 1, strides, 1, 1, "RasterizedStream is 1 without a geometry shader");
    refuse(env, stream1, 1, strides, 1, 0, "Stream is 1 (0 without a geometry shader)");
}

/* SOSetTargets' recording errors (Close fails) and its refusal in bundles. */
static void test_set_targets_errors(struct env *env)
{
    D3D12_GPU_VIRTUAL_ADDRESS base = ID3D12Resource_GetGPUVirtualAddress(env->so);
    const D3D12_STREAM_OUTPUT_BUFFER_VIEW view = {base, 16, base + COUNTER0};
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12CommandAllocator *allocator;
    ID3D12GraphicsCommandList2 *bundle;
    LOG_MARK();

    {
        /* an address off 4 bytes: undefined in D3D12, a debug-layer warning here, nothing bound */
        const D3D12_STREAM_OUTPUT_BUFFER_VIEW misaligned = {base + 2, 16, base + COUNTER0};
        size_t warnings = harness_warning_count();
        ID3D12GraphicsCommandList2_SOSetTargets(list.list, 0, 1, &misaligned);
        CHECK_DEBUG_WARNINGS(warnings, 1, "pViews[0] has BufferLocation");
    }
    ID3D12GraphicsCommandList2_SOSetTargets(list.list, 3, 2, NULL);
    CHECK_LOG("StartSlot 3 + NumViews 2 pass the 4 stream output slots");
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
    CHECK_LOG("recorded an invalid command");
    harness_release_list(&list);

    RELOG_MARK();
    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    {
        const D3D12_STREAM_OUTPUT_BUFFER_VIEW dangling = {0x10, 16, base + COUNTER0};
        ID3D12GraphicsCommandList2_SOSetTargets(list.list, 0, 1, &dangling);
    }
    CHECK_LOG("pViews[0].BufferLocation 0x10 is not an address in a live buffer");
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
    CHECK_LOG("recorded an invalid command");
    harness_release_list(&list);

    RELOG_MARK();
    CHECK_HR(ID3D12Device_CreateCommandAllocator(env->device, D3D12_COMMAND_LIST_TYPE_BUNDLE, &IID_ID3D12CommandAllocator, (void **)&allocator),
            S_OK);
    CHECK_HR(ID3D12Device_CreateCommandList(env->device, 0, D3D12_COMMAND_LIST_TYPE_BUNDLE, allocator, NULL, &IID_ID3D12GraphicsCommandList2,
            (void **)&bundle), S_OK);
    ID3D12GraphicsCommandList2_SOSetTargets(bundle, 0, 1, &view);
    CHECK_LOG("SOSetTargets (bundle): cannot be recorded in a bundle");
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(bundle), E_INVALIDARG);
    CHECK_LOG("recorded an invalid command");
    ID3D12GraphicsCommandList2_Release(bundle);
    ID3D12CommandAllocator_Release(allocator);
}

int main(void)
{
    struct env env;

    harness_init();
    memset(&env, 0, sizeof(env));
    env.device = harness_create_device();
    env.queue = harness_create_queue(env.device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    env.signature = harness_root_signature(env.device, NULL, 0, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_STREAM_OUTPUT);
    env.vs = harness_compile_stage(vs_source, "vs", "vs_5_0");
    env.gs = harness_compile_stage(vs_source, "gs", "gs_5_0");
    {
        const D3D12_QUERY_HEAP_DESC heap_desc = {D3D12_QUERY_HEAP_TYPE_SO_STATISTICS, 2, 0};
        CHECK_HR(ID3D12Device_CreateQueryHeap(env.device, &heap_desc, &IID_ID3D12QueryHeap, (void **)&env.query_heap), S_OK);
        env.statistics = harness_create_buffer(env.device, D3D12_HEAP_TYPE_DEFAULT, 256, D3D12_RESOURCE_STATE_COPY_DEST);
    }
    if (env.vs && env.signature) {
        test_vertex_capture(&env);
        test_geometry_capture(&env);
        test_rasterized(&env);
        test_vertex_points(&env);
        test_refusals(&env);
        test_set_targets_errors(&env);
    }
    if (env.so)
        ID3D12Resource_Release(env.so);
    ID3D12Resource_Release(env.statistics);
    ID3D12QueryHeap_Release(env.query_heap);
    if (env.vs)
        ID3D10Blob_Release(env.vs);
    if (env.gs)
        ID3D10Blob_Release(env.gs);
    if (env.signature)
        ID3D12RootSignature_Release(env.signature);
    ID3D12CommandQueue_Release(env.queue);
    harness_release_device(env.device);
    return harness_finish();
}
