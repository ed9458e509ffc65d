/* The 32 x 32 RGBA8 render target that the graphics command tests (test_draw_state,
 * test_predication, test_render_pass, test_resolve) draw into and read back, and what they draw:
 * coloured rectangles from an upload buffer through a position + colour input layout. Each test
 * keeps its own device, root signature and pipelines; these take what they need as arguments. */
#ifndef D3D12XS_TESTS_SMALL_TARGET_H
#define D3D12XS_TESTS_SMALL_TARGET_H

#include <string.h>

#include "harness.h"

#define WIDTH 32
#define HEIGHT 32
#define ROW_PITCH 256 /* D3D12_TEXTURE_DATA_PITCH_ALIGNMENT */

struct vertex {
    float x, y, z;
    uint8_t color[4];
};

static const D3D12_INPUT_ELEMENT_DESC vertex_layout[] = {
    {"POSITION", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    {"COLOR", 0, DXGI_FORMAT_R8G8B8A8_UNORM, 0, D3D12_APPEND_ALIGNED_ELEMENT, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
};

static const char color_source[] =
    "struct V { float4 pos : SV_Position; float4 color : COLOR; };\n"
    "V vs(float3 pos : POSITION, float4 color : COLOR) { V o; o.pos = float4(pos, 1); o.color = color; return o; }\n"
    "float4 ps(V i) : SV_Target { return i.color; }\n";

/* A WIDTH x HEIGHT committed texture in a DEFAULT heap. */
static inline ID3D12Resource *target_texture(ID3D12Device *device, UINT samples, DXGI_FORMAT format, D3D12_RESOURCE_FLAGS flags,
        D3D12_RESOURCE_STATES state)
{
    D3D12_HEAP_PROPERTIES heap = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    D3D12_RESOURCE_DESC desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, format, WIDTH, HEIGHT, 1, 1);
    ID3D12Resource *resource = NULL;
    desc.Flags = flags;
    desc.SampleDesc.Count = samples;
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &heap, D3D12_HEAP_FLAG_NONE, &desc, state, NULL, &IID_ID3D12Resource,
            (void **)&resource), S_OK);
    return resource;
}

static inline void target_transition(ID3D12GraphicsCommandList2 *list, ID3D12Resource *resource, D3D12_RESOURCE_STATES before,
        D3D12_RESOURCE_STATES after)
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

/* An upload buffer holding a rectangle in pixels [x0, x1) x [y0, y1) (two triangles) at depth z. */
static inline ID3D12Resource *target_rectangle(ID3D12Device *device, int x0, int y0, int x1, int y1, float z, const uint8_t color[4],
        D3D12_VERTEX_BUFFER_VIEW *view)
{
    const float l = 2.0f * x0 / WIDTH - 1.0f, r = 2.0f * x1 / WIDTH - 1.0f, t = 1.0f - 2.0f * y0 / HEIGHT, b = 1.0f - 2.0f * y1 / HEIGHT;
    const float corners[6][2] = {{l, t}, {r, t}, {l, b}, {l, b}, {r, t}, {r, b}};
    ID3D12Resource *buffer = harness_create_buffer(device, D3D12_HEAP_TYPE_UPLOAD, 6 * sizeof(struct vertex), D3D12_RESOURCE_STATE_GENERIC_READ);
    struct vertex *v = NULL;

    CHECK_HR(ID3D12Resource_Map(buffer, 0, NULL, (void **)&v), S_OK);
    for (int i = 0; v && i < 6; i++)
        v[i] = (struct vertex){corners[i][0], corners[i][1], z, {color[0], color[1], color[2], color[3]}};
    ID3D12Resource_Unmap(buffer, 0, NULL);
    *view = (D3D12_VERTEX_BUFFER_VIEW){ID3D12Resource_GetGPUVirtualAddress(buffer), 6 * sizeof(struct vertex), sizeof(struct vertex)};
    return buffer;
}

/* Records the copy of `resource` (single-sampled RGBA8, in `state`) into `readback`. */
static inline void target_copy_out(ID3D12Resource *readback, struct harness_list *list, ID3D12Resource *resource, D3D12_RESOURCE_STATES state)
{
    D3D12_TEXTURE_COPY_LOCATION dst, src;

    target_transition(list->list, resource, state, D3D12_RESOURCE_STATE_COPY_SOURCE);
    memset(&dst, 0, sizeof(dst));
    dst.pResource = readback;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    dst.PlacedFootprint.Footprint = (D3D12_SUBRESOURCE_FOOTPRINT){DXGI_FORMAT_R8G8B8A8_UNORM, WIDTH, HEIGHT, 1, ROW_PITCH};
    memset(&src, 0, sizeof(src));
    src.pResource = resource;
    src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    ID3D12GraphicsCommandList2_CopyTextureRegion(list->list, &dst, 0, 0, 0, &src, NULL);
    target_transition(list->list, resource, D3D12_RESOURCE_STATE_COPY_SOURCE, state);
}

static inline void target_read_pixels(ID3D12Resource *readback, uint8_t pixels[HEIGHT][WIDTH][4])
{
    void *mapped = NULL;
    CHECK_HR(ID3D12Resource_Map(readback, 0, NULL, &mapped), S_OK);
    for (int y = 0; mapped && y < HEIGHT; y++)
        memcpy(pixels[y], (const uint8_t *)mapped + y * ROW_PITCH, WIDTH * 4);
    ID3D12Resource_Unmap(readback, 0, NULL);
}

/* Copies slices 0 .. count - 1 of the array target `resource` (single-sampled RGBA8, in
 * RENDER_TARGET, left so) into `readback` (count slices' footprints one after another), runs the
 * list, releases it and reads the slices into pixels[slice]. */
static inline void target_read_slices(ID3D12Device *device, ID3D12CommandQueue *queue, struct harness_list *list, ID3D12Resource *resource,
        ID3D12Resource *readback, UINT count, uint8_t (*pixels)[HEIGHT][WIDTH][4])
{
    void *mapped = NULL;

    target_transition(list->list, resource, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_COPY_SOURCE);
    for (UINT slice = 0; slice < count; slice++) {
        D3D12_TEXTURE_COPY_LOCATION dst, src;
        memset(&dst, 0, sizeof(dst));
        dst.pResource = readback;
        dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
        dst.PlacedFootprint.Offset = (UINT64)slice * ROW_PITCH * HEIGHT;
        dst.PlacedFootprint.Footprint = (D3D12_SUBRESOURCE_FOOTPRINT){DXGI_FORMAT_R8G8B8A8_UNORM, WIDTH, HEIGHT, 1, ROW_PITCH};
        memset(&src, 0, sizeof(src));
        src.pResource = resource;
        src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
        src.SubresourceIndex = slice;
        ID3D12GraphicsCommandList2_CopyTextureRegion(list->list, &dst, 0, 0, 0, &src, NULL);
    }
    target_transition(list->list, resource, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_RENDER_TARGET);
    harness_execute_and_wait(device, queue, list);
    harness_release_list(list);
    CHECK_HR(ID3D12Resource_Map(readback, 0, NULL, &mapped), S_OK);
    for (UINT slice = 0; mapped && slice < count; slice++)
        for (int y = 0; y < HEIGHT; y++)
            memcpy(pixels[slice][y], (const uint8_t *)mapped + (slice * HEIGHT + y) * ROW_PITCH, WIDTH * 4);
    ID3D12Resource_Unmap(readback, 0, NULL);
}

static inline bool target_pixel_is(uint8_t pixels[HEIGHT][WIDTH][4], int x, int y, const uint8_t expected[4], int tolerance)
{
    for (int c = 0; c < 4; c++) {
        int d = pixels[y][x][c] - expected[c];
        if (d > tolerance || d < -tolerance)
            return false;
    }
    return true;
}

/* env: a test's state with the pixels read back (uint8_t pixels[HEIGHT][WIDTH][4]). */
#define CHECK_PIXEL(env, x, y, expected, tolerance) CHECK_MSG(target_pixel_is((env)->pixels, x, y, expected, tolerance), \
        "pixel (%d, %d) is %u %u %u %u, expected %u %u %u %u", x, y, (env)->pixels[y][x][0], (env)->pixels[y][x][1], \
        (env)->pixels[y][x][2], (env)->pixels[y][x][3], (expected)[0], (expected)[1], (expected)[2], (expected)[3])

#endif
