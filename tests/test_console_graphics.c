/* The console's synchronisation on the graphics path (SPEC §2.3, §2.4, §2.6, §4): a bottom-of-
 * pipe value write after draws lands only once their pixels are written (another queue waits
 * for it and reads every pixel of the target); FlushPipelineX orders draws before what follows;
 * a mid-list wait between two draws into one target keeps the first draw's pixels; and the
 * console memory-model validation follows a render target written by draws on a DIRECT list
 * and read by a COMPUTE-queue list after a value write without the console's ordering (and a
 * draw on a DIRECT list that loads what a COMPUTE-queue copy wrote). */
#include <stdio.h>
#include <string.h>

#include <d3d12_xs.h>

#include "harness.h"

#define WIDTH 64
#define HEIGHT 48
#define ROW_PITCH 256 /* WIDTH * 4, already D3D12_TEXTURE_DATA_PITCH_ALIGNMENT */
/* The longest any step waits for another queue (test_console_sync's bound). */
#define WAIT_MS 5000

/* A rectangle in pixels ([x0, x1) x [y0, y1)) drawn in one colour by a triangle strip the vertex
 * shader makes from SV_VertexID and root constants: its edges are pixel edges, so coverage is
 * exact (no centre lies on an edge). The pipeline blends by source alpha: an opaque colour
 * replaces what is there, a translucent one shows that the target kept it. */
static const char rect_source[] =
    "cbuffer Rect : register(b0) { float4 rect; float4 color; };\n"
    "float4 vs(uint id : SV_VertexID) : SV_Position\n"
    "{\n"
    "    float2 corner = lerp(rect.xy, rect.zw, float2(id & 1, id >> 1));\n"
    "    return float4(corner.x / 32.0 - 1.0, 1.0 - corner.y / 24.0, 0.5, 1.0);\n"
    "}\n"
    "float4 ps() : SV_Target { return color; }\n";

struct rect {
    float x0, y0, x1, y1;
    float color[4];
};

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *direct, *compute;
    ID3D12RootSignature *signature;
    ID3D12PipelineState *pipeline;
    ID3D12Resource *target, *readback;
    ID3D12DescriptorHeap *rtv_heap;
    D3D12_CPU_DESCRIPTOR_HANDLE rtv;
    ID3D12Fence *fence;
    UINT64 fence_value;
    /* Console graphics memory for the values: its CPU pointer is its GPU address. */
    uint64_t *values;
    D3D12_GPU_VIRTUAL_ADDRESS value_address;
};

static void setup(struct env *env)
{
    D3D12_ROOT_PARAMETER1 parameter;
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    D3D12_HEAP_PROPERTIES heap = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    D3D12_RESOURCE_DESC target_desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8G8B8A8_UNORM, WIDTH, HEIGHT, 1, 1);
    D3D12_DESCRIPTOR_HEAP_DESC rtv_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    ID3D10Blob *vs, *ps;

    memset(env, 0, sizeof(*env));
    env->device = harness_create_device();
    env->direct = harness_create_queue(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    env->compute = harness_create_queue(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12CommandQueue_SetName(env->direct, L"gfx");
    ID3D12CommandQueue_SetName(env->compute, L"async");
    memset(&parameter, 0, sizeof(parameter));
    parameter.ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameter.Constants.Num32BitValues = 8;
    env->signature = harness_root_signature(env->device, &parameter, 1, D3D12_ROOT_SIGNATURE_FLAG_NONE);
    vs = harness_compile_stage(rect_source, "vs", "vs_5_0");
    ps = harness_compile_stage(rect_source, "ps", "ps_5_0");
    harness_graphics_desc(&desc, env->signature, vs, ps);
    desc.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    desc.DepthStencilState.DepthEnable = FALSE;
    desc.BlendState.RenderTarget[0].BlendEnable = TRUE;
    desc.BlendState.RenderTarget[0].SrcBlend = D3D12_BLEND_SRC_ALPHA;
    desc.BlendState.RenderTarget[0].DestBlend = D3D12_BLEND_INV_SRC_ALPHA;
    desc.NumRenderTargets = 1;
    desc.RTVFormats[0] = DXGI_FORMAT_R8G8B8A8_UNORM;
    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&env->pipeline), S_OK);
    ID3D10Blob_Release(vs);
    ID3D10Blob_Release(ps);

    /* Simultaneous access: one queue renders into it while another reads it (D3D12's rule for
     * a texture two queues use at once; it decays to COMMON and is promoted on use). */
    target_desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET | D3D12_RESOURCE_FLAG_ALLOW_SIMULTANEOUS_ACCESS;
    CHECK_HR(ID3D12Device_CreateCommittedResource(env->device, &heap, D3D12_HEAP_FLAG_NONE, &target_desc, D3D12_RESOURCE_STATE_COMMON, NULL,
            &IID_ID3D12Resource, (void **)&env->target), S_OK);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &rtv_desc, &IID_ID3D12DescriptorHeap, (void **)&env->rtv_heap), S_OK);
    env->rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(env->rtv_heap);
    ID3D12Device_CreateRenderTargetView(env->device, env->target, NULL, env->rtv);
    env->readback = harness_create_buffer(env->device, D3D12_HEAP_TYPE_READBACK, ROW_PITCH * HEIGHT, D3D12_RESOURCE_STATE_COPY_DEST);
    env->fence = harness_create_fence(env->device, 0);
    env->values = XMemVirtualAlloc(NULL, 64 * 1024, MEM_RESERVE | MEM_COMMIT | MEM_64K_PAGES, XMEM_GRAPHICS,
            PAGE_READWRITE | PAGE_WRITECOMBINE | PAGE_GRAPHICS_READWRITE);
    CHECK(env->values != NULL);
    env->value_address = (D3D12_GPU_VIRTUAL_ADDRESS)(uintptr_t)env->values;
    /* A wait that is never satisfied ends as DEVICE_HUNG instead of holding the test. */
    CHECK_HR(D3D12XSSetHangTimeout(env->device, WAIT_MS), S_OK);
}

static void teardown(struct env *env)
{
    CHECK(VirtualFree(env->values, 0, MEM_RELEASE));
    ID3D12Fence_Release(env->fence);
    ID3D12Resource_Release(env->readback);
    ID3D12DescriptorHeap_Release(env->rtv_heap);
    ID3D12Resource_Release(env->target);
    ID3D12PipelineState_Release(env->pipeline);
    ID3D12RootSignature_Release(env->signature);
    ID3D12CommandQueue_Release(env->compute);
    ID3D12CommandQueue_Release(env->direct);
    harness_release_device(env->device);
}

static ID3D12GraphicsCommandList *console(struct harness_list *list)
{
    return (ID3D12GraphicsCommandList *)list->list;
}

static void execute(ID3D12CommandQueue *queue, struct harness_list *list)
{
    ID3D12CommandList *lists[1] = {(ID3D12CommandList *)list->list};
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list->list), S_OK);
    ID3D12CommandQueue_ExecuteCommandLists(queue, 1, lists);
}

/* Signals the env's fence on queue and waits for it (DEVICE_HUNG after the hang timeout). */
static void finish_queue(struct env *env, ID3D12CommandQueue *queue)
{
    CHECK_HR(ID3D12CommandQueue_Signal(queue, env->fence, ++env->fence_value), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(env->fence, env->fence_value, NULL), S_OK);
}

/* Clears the target (unless clear is NULL) and sets up drawing into it. */
static void begin_drawing(struct env *env, struct harness_list *list, const float clear[4])
{
    const D3D12_VIEWPORT viewport = {0.0f, 0.0f, WIDTH, HEIGHT, 0.0f, 1.0f};
    const D3D12_RECT scissor = {0, 0, WIDTH, HEIGHT};

    if (clear)
        ID3D12GraphicsCommandList2_ClearRenderTargetView(list->list, env->rtv, clear, 0, NULL);
    ID3D12GraphicsCommandList2_OMSetRenderTargets(list->list, 1, &env->rtv, TRUE, NULL);
    ID3D12GraphicsCommandList2_RSSetViewports(list->list, 1, &viewport);
    ID3D12GraphicsCommandList2_RSSetScissorRects(list->list, 1, &scissor);
    ID3D12GraphicsCommandList2_IASetPrimitiveTopology(list->list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP);
    ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list->list, env->signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list->list, env->pipeline);
}

static void draw_rect(struct harness_list *list, const struct rect *rect)
{
    ID3D12GraphicsCommandList2_SetGraphicsRoot32BitConstants(list->list, 0, 8, rect, 0);
    ID3D12GraphicsCommandList2_DrawInstanced(list->list, 4, 1, 0, 0);
}

/* The target's only subresource into the readback buffer, on any list type. */
static void copy_target(struct env *env, struct harness_list *list)
{
    D3D12_TEXTURE_COPY_LOCATION dst, src;

    memset(&dst, 0, sizeof(dst));
    dst.pResource = env->readback;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    dst.PlacedFootprint.Footprint = (D3D12_SUBRESOURCE_FOOTPRINT){DXGI_FORMAT_R8G8B8A8_UNORM, WIDTH, HEIGHT, 1, ROW_PITCH};
    memset(&src, 0, sizeof(src));
    src.pResource = env->target;
    src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    ID3D12GraphicsCommandList2_CopyTextureRegion(list->list, &dst, 0, 0, 0, &src, NULL);
}

static uint8_t unorm8(float value)
{
    return (uint8_t)(value * 255.0f + 0.5f);
}

/* What the blend writes where each rectangle in turn covers the pixel (8-bit target). */
static void expected_pixel(const float clear[4], const struct rect *rects, unsigned count, unsigned x, unsigned y, uint8_t out[4])
{
    float color[4];
    memcpy(color, clear, sizeof(color));
    for (unsigned r = 0; r < count; r++) {
        const struct rect *rect = &rects[r];
        if (x + 0.5f < rect->x0 || x + 0.5f > rect->x1 || y + 0.5f < rect->y0 || y + 0.5f > rect->y1)
            continue;
        /* What lands is 8-bit: blend from the stored value; alpha is the source's (ONE, ZERO). */
        for (int c = 0; c < 3; c++)
            color[c] = rect->color[c] * rect->color[3] + unorm8(color[c]) / 255.0f * (1.0f - rect->color[3]);
        color[3] = rect->color[3];
    }
    for (int c = 0; c < 4; c++)
        out[c] = unorm8(color[c]);
}

/* Every pixel of the readback against the rectangles; the count of pixels off by more than 1. */
static unsigned check_pixels(struct env *env, const char *what, const float clear[4], const struct rect *rects, unsigned count)
{
    const uint8_t *pixels = NULL;
    unsigned bad = 0;

    CHECK_HR(ID3D12Resource_Map(env->readback, 0, NULL, (void **)&pixels), S_OK);
    for (unsigned y = 0; pixels && y < HEIGHT; y++) {
        for (unsigned x = 0; x < WIDTH; x++) {
            const uint8_t *got = pixels + y * ROW_PITCH + x * 4;
            uint8_t want[4];
            expected_pixel(clear, rects, count, x, y, want);
            bool off = false;
            for (int c = 0; c < 4; c++)
                off |= got[c] > want[c] + 1 || got[c] + 1 < want[c];
            if (off && !bad++)
                CHECK_MSG(false, "%s: pixel (%u, %u) is %u %u %u %u, expected %u %u %u %u", what, x, y, got[0], got[1], got[2], got[3],
                        want[0], want[1], want[2], want[3]);
        }
    }
    ID3D12Resource_Unmap(env->readback, 0, NULL);
    CHECK_MSG(!bad, "%s: %u of %u pixels wrong", what, bad, WIDTH * HEIGHT);
    return bad;
}

static const float clear_color[4] = {0.0f, 0.0f, 1.0f, 1.0f};
static const struct rect scene[] = {
    {4, 4, 40, 30, {1.0f, 0.0f, 0.0f, 1.0f}},
    {20, 10, 60, 44, {0.0f, 1.0f, 0.0f, 0.5f}},
    {0, 36, 64, 48, {1.0f, 1.0f, 1.0f, 0.25f}},
};
#define SCENE_RECTS (sizeof(scene) / sizeof(scene[0]))

enum value_write {
    WRITE64_BOP_X,        /* Write64BitValueBottomOfPipeX, FLUSH_BOP_TEXTURE_L2_WRITEBACK */
    WRITE32_BOP_2X,       /* Write32BitValueBottomOfPipe2X, GL2_WRITEBACK */
    WRITE64_BOP_2X,       /* Write64BitValueBottomOfPipe2X, GL2_WRITEBACK */
    FLUSH_THEN_WRITE64,   /* FlushPipelineX(IDLE | BOP_TEXTURE_L2_WRITEBACK), then Write64BitValueBottomOfPipeX without flush */
};

/* The COMPUTE queue's list waits mid-list for the value, then copies the target out; it is
 * executed first, so its wait is real. The DIRECT list then draws the scene and publishes the
 * value after the draws. Every pixel must be the scene's: the write (or FlushPipelineX before
 * it) waited for the draws' fragment work and colour writes, and the rendering pass ended. */
static void test_value_after_draws(struct env *env, enum value_write kind)
{
    static const char *const names[] = {"Write64BitValueBottomOfPipeX", "Write32BitValueBottomOfPipe2X", "Write64BitValueBottomOfPipe2X",
            "FlushPipelineX + Write64BitValueBottomOfPipeX"};
    struct harness_list reader = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    struct harness_list writer = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    const UINT64 value = 100 + kind;
    LOG_MARK();

    env->values[0] = 0;
    if (kind == WRITE32_BOP_2X)
        ID3D12GraphicsCommandList_Wait32BitValueX(console(&reader), env->value_address, D3D12_COMPARISON_FUNC_EQUAL, (UINT)value,
                D3D12XBOX_WAIT_FLAG_NONE);
    else
        ID3D12GraphicsCommandList_Wait64BitValueX(console(&reader), env->value_address, D3D12_COMPARISON_FUNC_GREATER_EQUAL, value,
                D3D12XBOX_WAIT_FLAG_NONE);
    copy_target(env, &reader);
    execute(env->compute, &reader);

    begin_drawing(env, &writer, clear_color);
    for (unsigned r = 0; r < SCENE_RECTS; r++)
        draw_rect(&writer, &scene[r]);
    switch (kind) {
    case WRITE64_BOP_X:
        ID3D12GraphicsCommandList_Write64BitValueBottomOfPipeX(console(&writer), env->value_address, value,
                D3D12XBOX_FLUSH_BOP_TEXTURE_L2_WRITEBACK, D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
        break;
    case WRITE32_BOP_2X:
        ID3D12GraphicsCommandList_Write32BitValueBottomOfPipe2X(console(&writer), env->value_address, (UINT)value,
                D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK, D3D12XBOX_SYNC_CONTROL_FLAG_NONE, D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
        break;
    case WRITE64_BOP_2X:
        ID3D12GraphicsCommandList_Write64BitValueBottomOfPipe2X(console(&writer), env->value_address, value,
                D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK, D3D12XBOX_SYNC_CONTROL_FLAG_NONE, D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
        break;
    case FLUSH_THEN_WRITE64:
        ID3D12GraphicsCommandList_FlushPipelineX(console(&writer), D3D12XBOX_FLUSH_IDLE | D3D12XBOX_FLUSH_BOP_TEXTURE_L2_WRITEBACK, 0,
                D3D12XBOX_FLUSH_RANGE_ALL);
        ID3D12GraphicsCommandList_Write64BitValueBottomOfPipeX(console(&writer), env->value_address, value, D3D12XBOX_FLUSH_NONE,
                D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
        break;
    }
    execute(env->direct, &writer);
    finish_queue(env, env->compute);
    finish_queue(env, env->direct);
    CHECK_MSG(env->values[0] == value, "%s: memory holds %llu, expected %llu", names[kind], (unsigned long long)env->values[0],
            (unsigned long long)value);
    check_pixels(env, names[kind], clear_color, scene, SCENE_RECTS);
    /* Ordered the console's way: the memory-model validation has nothing to say. */
    CHECK_NO_LOG();
    harness_release_list(&reader);
    harness_release_list(&writer);
}

/* One DIRECT list: a draw, a mid-list wait, a translucent draw over part of the first, then a
 * copy of the target. The value comes from a COMPUTE-queue list executed afterwards; until
 * then the list must not get past its wait, and after it the target still holds the first
 * draw's pixels under the second (the rendering pass ended at the cut and loads again). */
static void test_wait_between_draws(struct env *env, bool wait64)
{
    const struct rect rects[2] = {
        {8, 8, 40, 40, {1.0f, 0.0f, 0.0f, 1.0f}},
        {24, 16, 56, 32, {0.0f, 1.0f, 0.0f, 0.5f}},
    };
    struct harness_list direct = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    struct harness_list writer = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    const char *what = wait64 ? "Wait64BitValueX between draws" : "Wait32BitValueX between draws";
    UINT64 done;
    LOG_MARK();

    env->values[1] = 0;
    begin_drawing(env, &direct, clear_color);
    draw_rect(&direct, &rects[0]);
    if (wait64)
        ID3D12GraphicsCommandList_Wait64BitValueX(console(&direct), env->value_address + 8, D3D12_COMPARISON_FUNC_EQUAL, 7,
                D3D12XBOX_WAIT_FLAG_NONE);
    else
        ID3D12GraphicsCommandList_Wait32BitValueX(console(&direct), env->value_address + 8, D3D12_COMPARISON_FUNC_EQUAL, 7,
                D3D12XBOX_WAIT_FLAG_NONE);
    draw_rect(&direct, &rects[1]);
    copy_target(env, &direct);
    execute(env->direct, &direct);
    CHECK_HR(ID3D12CommandQueue_Signal(env->direct, env->fence, done = ++env->fence_value), S_OK);

    /* The list stays at its wait while nothing writes the value. */
    harness_sleep_ms(50);
    CHECK_MSG(ID3D12Fence_GetCompletedValue(env->fence) < done, "%s: the list ran past its wait before the value was written", what);

    if (wait64)
        ID3D12GraphicsCommandList_Write64BitValueBottomOfPipeX(console(&writer), env->value_address + 8, 7, D3D12XBOX_FLUSH_NONE,
                D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
    else
        ID3D12GraphicsCommandList_Write32BitValueBottomOfPipe2X(console(&writer), env->value_address + 8, 7, D3D12XBOX_SYNC_FLAG_NONE,
                D3D12XBOX_SYNC_CONTROL_FLAG_NONE, D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
    execute(env->compute, &writer);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(env->fence, done, NULL), S_OK);
    check_pixels(env, what, clear_color, rects, 2);
    CHECK_NO_LOG();
    harness_release_list(&direct);
    harness_release_list(&writer);
}

/* SPEC §4 over a render target: a DIRECT list draws into the target and publishes a value; a
 * COMPUTE-queue list waits for it and a dispatch reads the target through a table SRV. Without
 * a write-back or barrier between the draws and the value write, the console could hand the
 * dispatch stale pixels (Vulkan reads the right ones either way): one line naming both lists,
 * the texture and the draw. `settle`: 0 none, 1 GL2_WRITEBACK, 2 a transition barrier. */
static void memory_model_case(struct env *env, ID3D12PipelineState *load, ID3D12RootSignature *load_signature,
        ID3D12DescriptorHeap *heap, ID3D12Resource *output, int settle)
{
    /* Only draws write the target here (no clear, which the validation follows already). */
    const struct rect rects[2] = {
        {0, 0, WIDTH, HEIGHT, {0.0f, 0.0f, 1.0f, 1.0f}},
        {0, 0, 32, 48, {1.0f, 0.0f, 0.0f, 1.0f}},
    };
    struct harness_list reader = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    struct harness_list writer = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    const UINT64 value = 200 + settle;
    uint32_t loaded[2];
    LOG_MARK();

    ID3D12GraphicsCommandList2_SetName(reader.list, L"grade");
    ID3D12GraphicsCommandList2_SetName(writer.list, L"scene");
    ID3D12GraphicsCommandList_Wait64BitValueX(console(&reader), env->value_address + 16, D3D12_COMPARISON_FUNC_GREATER_EQUAL, value,
            D3D12XBOX_WAIT_FLAG_NONE);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(reader.list, 1, &heap);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(reader.list, load_signature);
    ID3D12GraphicsCommandList2_SetPipelineState(reader.list, load);
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(reader.list, 0, ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(heap));
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(reader.list, 1, ID3D12Resource_GetGPUVirtualAddress(output));
    ID3D12GraphicsCommandList2_Dispatch(reader.list, 1, 1, 1);
    execute(env->compute, &reader);

    begin_drawing(env, &writer, NULL);
    draw_rect(&writer, &rects[0]);
    draw_rect(&writer, &rects[1]);
    if (settle == 2) {
        D3D12_RESOURCE_BARRIER barrier;
        memset(&barrier, 0, sizeof(barrier));
        barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
        barrier.Transition.pResource = env->target;
        barrier.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
        barrier.Transition.StateBefore = D3D12_RESOURCE_STATE_RENDER_TARGET;
        barrier.Transition.StateAfter = D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE;
        ID3D12GraphicsCommandList2_ResourceBarrier(writer.list, 1, &barrier);
    }
    ID3D12GraphicsCommandList_Write64BitValueBottomOfPipe2X(console(&writer), env->value_address + 16, value,
            settle == 1 ? D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK : D3D12XBOX_SYNC_FLAG_NONE, D3D12XBOX_SYNC_CONTROL_FLAG_NONE,
            D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
    execute(env->direct, &writer);
    finish_queue(env, env->compute);
    finish_queue(env, env->direct);

    /* Right on Vulkan either way: the red half, then the clear colour. */
    harness_read_back(env->device, env->direct, output, loaded, sizeof(loaded));
    CHECK_MSG(loaded[0] == 0xff0000ffu && loaded[1] == 0xffff0000u, "settle %d: the dispatch read 0x%08x 0x%08x", settle, loaded[0], loaded[1]);
    if (!settle)
        CHECK_LOG("console memory model", "list 'grade' on queue 'async'", "(Dispatch) reads subresources [0, +1) of texture",
                "list 'scene' on queue 'gfx'", "(draw) wrote", "no write-back", "stale");
    else
        CHECK_NO_LOG();
    harness_release_list(&reader);
    harness_release_list(&writer);
}

/* The other direction: a COMPUTE list uploads the target with a copy and publishes a value;
 * a DIRECT list waits for it and blends a draw over the target, which loads what the copy
 * wrote. Without a write-back the draw is the stale read reported. */
static void draw_reader_case(struct env *env, ID3D12Resource *upload, bool write_back)
{
    const float uploaded[4] = {40 / 255.0f, 80 / 255.0f, 120 / 255.0f, 1.0f};
    const struct rect rect = {8, 8, 56, 40, {1.0f, 1.0f, 0.0f, 0.5f}};
    struct harness_list writer = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    struct harness_list reader = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    D3D12_TEXTURE_COPY_LOCATION dst, src;
    const UINT64 value = 300 + write_back;
    LOG_MARK();

    ID3D12GraphicsCommandList2_SetName(writer.list, L"upload");
    ID3D12GraphicsCommandList2_SetName(reader.list, L"blend");
    ID3D12GraphicsCommandList_Wait64BitValueX(console(&reader), env->value_address + 24, D3D12_COMPARISON_FUNC_GREATER_EQUAL, value,
            D3D12XBOX_WAIT_FLAG_NONE);
    begin_drawing(env, &reader, NULL);
    draw_rect(&reader, &rect);
    copy_target(env, &reader);
    execute(env->direct, &reader);

    memset(&dst, 0, sizeof(dst));
    dst.pResource = env->target;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    memset(&src, 0, sizeof(src));
    src.pResource = upload;
    src.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    src.PlacedFootprint.Footprint = (D3D12_SUBRESOURCE_FOOTPRINT){DXGI_FORMAT_R8G8B8A8_UNORM, WIDTH, HEIGHT, 1, ROW_PITCH};
    ID3D12GraphicsCommandList2_CopyTextureRegion(writer.list, &dst, 0, 0, 0, &src, NULL);
    ID3D12GraphicsCommandList_Write64BitValueBottomOfPipe2X(console(&writer), env->value_address + 24, value,
            write_back ? D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK : D3D12XBOX_SYNC_FLAG_NONE, D3D12XBOX_SYNC_CONTROL_FLAG_NONE,
            D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
    execute(env->compute, &writer);
    finish_queue(env, env->compute);
    finish_queue(env, env->direct);
    check_pixels(env, write_back ? "a draw over an upload, write-back" : "a draw over an upload", uploaded, &rect, 1);
    if (!write_back)
        CHECK_LOG("console memory model", "list 'blend' on queue 'gfx'", "(draw) reads subresources [0, +1) of texture",
                "list 'upload' on queue 'async'", "(copy) wrote", "no write-back", "stale");
    else
        CHECK_NO_LOG();
    harness_release_list(&writer);
    harness_release_list(&reader);
}

/* Runs in a process started with D3D12XS_CONSOLE_VALIDATION=1 (main). */
static void test_memory_model(void)
{
    static const char load_source[] =
        "Texture2D<float4> target : register(t0);\n"
        "RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(1, 1, 1)] void main()\n"
        "{\n"
        "    output.Store(0, (uint)(target.Load(int3(5, 5, 0)).r * 255.0) | 0xff000000u);\n"
        "    output.Store(4, (uint)(target.Load(int3(50, 5, 0)).b * 255.0) << 16 | 0xff000000u);\n"
        "}\n";
    D3D12_DESCRIPTOR_RANGE1 range = {D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 1, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 0};
    D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    D3D12_ROOT_PARAMETER1 parameters[2];
    ID3D12DescriptorHeap *heap = NULL;
    ID3D12RootSignature *signature;
    ID3D12PipelineState *pipeline;
    ID3D12Resource *output;
    ID3D10Blob *code;
    struct env env;

    setup(&env);
    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    parameters[0].DescriptorTable.NumDescriptorRanges = 1;
    parameters[0].DescriptorTable.pDescriptorRanges = &range;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    signature = harness_root_signature(env.device, parameters, 2, D3D12_ROOT_SIGNATURE_FLAG_NONE);
    code = harness_compile(load_source, 0);
    pipeline = harness_compute_pipeline(env.device, signature, code);
    ID3D10Blob_Release(code);
    output = harness_uav_buffer(env.device, 256);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env.device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&heap), S_OK);
    ID3D12Device_CreateShaderResourceView(env.device, env.target, NULL, ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap));

    memory_model_case(&env, pipeline, signature, heap, output, 0); /* no write-back: reported */
    memory_model_case(&env, pipeline, signature, heap, output, 1); /* GL2_WRITEBACK */
    memory_model_case(&env, pipeline, signature, heap, output, 2); /* a barrier after the draws */
    {
        uint8_t *texels = NULL;
        ID3D12Resource *upload = harness_create_buffer(env.device, D3D12_HEAP_TYPE_UPLOAD, ROW_PITCH * HEIGHT, D3D12_RESOURCE_STATE_GENERIC_READ);
        CHECK_HR(ID3D12Resource_Map(upload, 0, NULL, (void **)&texels), S_OK);
        for (unsigned i = 0; texels && i < WIDTH * HEIGHT; i++)
            texels[i * 4] = 40, texels[i * 4 + 1] = 80, texels[i * 4 + 2] = 120, texels[i * 4 + 3] = 255;
        ID3D12Resource_Unmap(upload, 0, NULL);
        draw_reader_case(&env, upload, false); /* reported: the draw loads what the copy wrote */
        draw_reader_case(&env, upload, true);
        ID3D12Resource_Release(upload);
    }

    ID3D12DescriptorHeap_Release(heap);
    ID3D12Resource_Release(output);
    ID3D12PipelineState_Release(pipeline);
    ID3D12RootSignature_Release(signature);
    teardown(&env);
}

int main(int argc, char **argv)
{
    static const char *const console_validation[] = {"D3D12XS_CONSOLE_VALIDATION=1", NULL};
    struct env env;

    harness_init();
    /* The library reads D3D12XS_CONSOLE_VALIDATION once per process: this case has its own. */
    if (argc > 1 && !strcmp(argv[1], "memory_model")) {
        test_memory_model();
        return harness_finish();
    }
    setup(&env);
    test_value_after_draws(&env, WRITE64_BOP_X);
    test_value_after_draws(&env, WRITE32_BOP_2X);
    test_value_after_draws(&env, WRITE64_BOP_2X);
    test_value_after_draws(&env, FLUSH_THEN_WRITE64);
    test_wait_between_draws(&env, true);
    test_wait_between_draws(&env, false);
    teardown(&env);
    CHECK_MSG(harness_run_self("memory_model", console_validation), "the memory-model case failed (its lines above say why)");
    return harness_finish();
}
