/* ClearUnorderedAccessViewUint / Float on every typed UAV format D3D12 allows, on buffers and
 * textures, with values out of every channel's range: Uint keeps the low bits of each value
 * (float and normalized channels take them as bits), Float saturates and rounds normalized
 * channels, converts to 16-, 11- and 10-bit floats, and truncates and saturates integers. The
 * expected bytes were worked out apart from the library (exact rational arithmetic). Whole
 * views, rectangles, a view into the middle of a buffer (unaligned for 1- and 2-byte elements)
 * and views through another member of a typeless family are all read back byte for byte. A
 * format the device cannot store is skipped, with the line it logs claimed and printed. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "commands/uav_clear_value.h"

#define SIZE 4 /* the textures are SIZE x SIZE */

struct format_case {
    DXGI_FORMAT format;
    UINT bytes;
    uint8_t uint_element[16], float_element[16];
};

static const UINT uint_values[4] = {0x1ff, 0x12345, 0xfffffffe, 0x1ff01};
static const FLOAT float_values[4] = {2.0f, -3.75f, 0.3f, 300.7f};

static const struct format_case cases[] = {
    {DXGI_FORMAT_R32G32B32A32_FLOAT, 16, {0xff, 0x01, 0x00, 0x00, 0x45, 0x23, 0x01, 0x00, 0xfe, 0xff, 0xff, 0xff, 0x01, 0xff, 0x01, 0x00},
            {0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x70, 0xc0, 0x9a, 0x99, 0x99, 0x3e, 0x9a, 0x59, 0x96, 0x43}},
    {DXGI_FORMAT_R32G32B32A32_UINT, 16, {0xff, 0x01, 0x00, 0x00, 0x45, 0x23, 0x01, 0x00, 0xfe, 0xff, 0xff, 0xff, 0x01, 0xff, 0x01, 0x00},
            {0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x2c, 0x01, 0x00, 0x00}},
    {DXGI_FORMAT_R32G32B32A32_SINT, 16, {0xff, 0x01, 0x00, 0x00, 0x45, 0x23, 0x01, 0x00, 0xfe, 0xff, 0xff, 0xff, 0x01, 0xff, 0x01, 0x00},
            {0x02, 0x00, 0x00, 0x00, 0xfd, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0x2c, 0x01, 0x00, 0x00}},
    {DXGI_FORMAT_R16G16B16A16_FLOAT, 8, {0xff, 0x01, 0x45, 0x23, 0xfe, 0xff, 0x01, 0xff}, {0x00, 0x40, 0x80, 0xc3, 0xcd, 0x34, 0xb3, 0x5c}},
    {DXGI_FORMAT_R16G16B16A16_UNORM, 8, {0xff, 0x01, 0x45, 0x23, 0xfe, 0xff, 0x01, 0xff}, {0xff, 0xff, 0x00, 0x00, 0xcd, 0x4c, 0xff, 0xff}},
    {DXGI_FORMAT_R16G16B16A16_UINT, 8, {0xff, 0x01, 0x45, 0x23, 0xfe, 0xff, 0x01, 0xff}, {0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x2c, 0x01}},
    {DXGI_FORMAT_R16G16B16A16_SNORM, 8, {0xff, 0x01, 0x45, 0x23, 0xfe, 0xff, 0x01, 0xff}, {0xff, 0x7f, 0x01, 0x80, 0x66, 0x26, 0xff, 0x7f}},
    {DXGI_FORMAT_R16G16B16A16_SINT, 8, {0xff, 0x01, 0x45, 0x23, 0xfe, 0xff, 0x01, 0xff}, {0x02, 0x00, 0xfd, 0xff, 0x00, 0x00, 0x2c, 0x01}},
    {DXGI_FORMAT_R32G32_FLOAT, 8, {0xff, 0x01, 0x00, 0x00, 0x45, 0x23, 0x01, 0x00}, {0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x70, 0xc0}},
    {DXGI_FORMAT_R32G32_UINT, 8, {0xff, 0x01, 0x00, 0x00, 0x45, 0x23, 0x01, 0x00}, {0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}},
    {DXGI_FORMAT_R32G32_SINT, 8, {0xff, 0x01, 0x00, 0x00, 0x45, 0x23, 0x01, 0x00}, {0x02, 0x00, 0x00, 0x00, 0xfd, 0xff, 0xff, 0xff}},
    {DXGI_FORMAT_R10G10B10A2_UNORM, 4, {0xff, 0x15, 0xed, 0x7f}, {0xff, 0x03, 0x30, 0xd3}},
    {DXGI_FORMAT_R10G10B10A2_UINT, 4, {0xff, 0x15, 0xed, 0x7f}, {0x02, 0x00, 0x00, 0xc0}},
    {DXGI_FORMAT_R11G11B10_FLOAT, 4, {0xff, 0x29, 0x9a, 0xff}, {0x00, 0x04, 0x80, 0x69}},
    {DXGI_FORMAT_R8G8B8A8_UNORM, 4, {0xff, 0x45, 0xfe, 0x01}, {0xff, 0x00, 0x4d, 0xff}},
    {DXGI_FORMAT_R8G8B8A8_UINT, 4, {0xff, 0x45, 0xfe, 0x01}, {0x02, 0x00, 0x00, 0xff}},
    {DXGI_FORMAT_R8G8B8A8_SNORM, 4, {0xff, 0x45, 0xfe, 0x01}, {0x7f, 0x81, 0x26, 0x7f}},
    {DXGI_FORMAT_R8G8B8A8_SINT, 4, {0xff, 0x45, 0xfe, 0x01}, {0x02, 0xfd, 0x00, 0x7f}},
    {DXGI_FORMAT_R16G16_FLOAT, 4, {0xff, 0x01, 0x45, 0x23}, {0x00, 0x40, 0x80, 0xc3}},
    {DXGI_FORMAT_R16G16_UNORM, 4, {0xff, 0x01, 0x45, 0x23}, {0xff, 0xff, 0x00, 0x00}},
    {DXGI_FORMAT_R16G16_UINT, 4, {0xff, 0x01, 0x45, 0x23}, {0x02, 0x00, 0x00, 0x00}},
    {DXGI_FORMAT_R16G16_SNORM, 4, {0xff, 0x01, 0x45, 0x23}, {0xff, 0x7f, 0x01, 0x80}},
    {DXGI_FORMAT_R16G16_SINT, 4, {0xff, 0x01, 0x45, 0x23}, {0x02, 0x00, 0xfd, 0xff}},
    {DXGI_FORMAT_R32_FLOAT, 4, {0xff, 0x01, 0x00, 0x00}, {0x00, 0x00, 0x00, 0x40}},
    {DXGI_FORMAT_R32_UINT, 4, {0xff, 0x01, 0x00, 0x00}, {0x02, 0x00, 0x00, 0x00}},
    {DXGI_FORMAT_R32_SINT, 4, {0xff, 0x01, 0x00, 0x00}, {0x02, 0x00, 0x00, 0x00}},
    {DXGI_FORMAT_R8G8_UNORM, 2, {0xff, 0x45}, {0xff, 0x00}},
    {DXGI_FORMAT_R8G8_UINT, 2, {0xff, 0x45}, {0x02, 0x00}},
    {DXGI_FORMAT_R8G8_SNORM, 2, {0xff, 0x45}, {0x7f, 0x81}},
    {DXGI_FORMAT_R8G8_SINT, 2, {0xff, 0x45}, {0x02, 0xfd}},
    {DXGI_FORMAT_R16_FLOAT, 2, {0xff, 0x01}, {0x00, 0x40}},
    {DXGI_FORMAT_R16_UNORM, 2, {0xff, 0x01}, {0xff, 0xff}},
    {DXGI_FORMAT_R16_UINT, 2, {0xff, 0x01}, {0x02, 0x00}},
    {DXGI_FORMAT_R16_SNORM, 2, {0xff, 0x01}, {0xff, 0x7f}},
    {DXGI_FORMAT_R16_SINT, 2, {0xff, 0x01}, {0x02, 0x00}},
    {DXGI_FORMAT_R8_UNORM, 1, {0xff}, {0xff}},
    {DXGI_FORMAT_R8_UINT, 1, {0xff}, {0x02}},
    {DXGI_FORMAT_R8_SNORM, 1, {0xff}, {0x7f}},
    {DXGI_FORMAT_R8_SINT, 1, {0xff}, {0x02}},
    {DXGI_FORMAT_A8_UNORM, 1, {0x01}, {0xff}}, /* the fourth value: alpha */
    {DXGI_FORMAT_B8G8R8A8_UNORM, 4, {0xfe, 0x45, 0xff, 0x01}, {0x4d, 0x00, 0xff, 0xff}},
    {DXGI_FORMAT_B5G6R5_UNORM, 2, {0xbe, 0xf8}, {0x09, 0xf8}},
    {DXGI_FORMAT_B5G5R5A1_UNORM, 2, {0xbe, 0xfc}, {0x09, 0xfc}},
    {DXGI_FORMAT_B4G4R4A4_UNORM, 2, {0x5e, 0x1f}, {0x05, 0xff}},
};

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12DescriptorHeap *cpu_heap, *gpu_heap; /* slot 0: the view cleared; slot 1: a raw view of a buffer */
    UINT increment;
    unsigned skipped;
};

static D3D12_CPU_DESCRIPTOR_HANDLE cpu_at(struct env *env, ID3D12DescriptorHeap *heap, UINT slot)
{
    D3D12_CPU_DESCRIPTOR_HANDLE handle = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap);
    handle.ptr += (SIZE_T)slot * env->increment;
    return handle;
}

static D3D12_GPU_DESCRIPTOR_HANDLE gpu_at(struct env *env, UINT slot)
{
    D3D12_GPU_DESCRIPTOR_HANDLE handle = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(env->gpu_heap);
    handle.ptr += (UINT64)slot * env->increment;
    return handle;
}

/* Writes the UAV into slot of both heaps; false (the lines claimed, the format named) where the
 * device cannot make it. */
static bool make_view(struct env *env, ID3D12Resource *resource, const D3D12_UNORDERED_ACCESS_VIEW_DESC *desc, UINT slot, const char *what)
{
    size_t mark = harness_log_mark();
    ID3D12Device_CreateUnorderedAccessView(env->device, resource, NULL, desc, cpu_at(env, env->cpu_heap, slot));
    ID3D12Device_CreateUnorderedAccessView(env->device, resource, NULL, desc, cpu_at(env, env->gpu_heap, slot));
    if (harness_log_mark() == mark)
        return true;
    printf("skipped: %s views of format %d (the device cannot store it)\n", what, (int)desc->Format);
    harness_check_log_count(mark, harness_log_mark() - mark, __FILE__, __LINE__);
    env->skipped++;
    return false;
}

static void uav_barrier(ID3D12GraphicsCommandList2 *list, ID3D12Resource *resource)
{
    D3D12_RESOURCE_BARRIER barrier = {D3D12_RESOURCE_BARRIER_TYPE_UAV, 0, {.UAV = {resource}}};
    ID3D12GraphicsCommandList2_ResourceBarrier(list, 1, &barrier);
}

static void clear(struct env *env, struct harness_list *list, ID3D12Resource *resource, UINT slot, bool use_float, UINT rect_count,
        const D3D12_RECT *rects)
{
    if (use_float)
        ID3D12GraphicsCommandList2_ClearUnorderedAccessViewFloat(list->list, gpu_at(env, slot), cpu_at(env, env->cpu_heap, slot), resource,
                float_values, rect_count, rects);
    else
        ID3D12GraphicsCommandList2_ClearUnorderedAccessViewUint(list->list, gpu_at(env, slot), cpu_at(env, env->cpu_heap, slot), resource,
                uint_values, rect_count, rects);
}

/* Elements 1 to 6 of an 8-element buffer (first filled with 0xaa bytes) cleared; the two at the
 * ends kept. */
static void test_buffer(struct env *env, const struct format_case *c, bool use_float)
{
    ID3D12Resource *buffer = harness_uav_buffer(env->device, 256);
    const uint8_t *expected = use_float ? c->float_element : c->uint_element;
    D3D12_UNORDERED_ACCESS_VIEW_DESC raw = {DXGI_FORMAT_R32_TYPELESS, D3D12_UAV_DIMENSION_BUFFER, .Buffer = {0, 64, 0, 0, D3D12_BUFFER_UAV_FLAG_RAW}};
    D3D12_UNORDERED_ACCESS_VIEW_DESC typed = {c->format, D3D12_UAV_DIMENSION_BUFFER, .Buffer = {1, 6, 0, 0, D3D12_BUFFER_UAV_FLAG_NONE}};
    static const UINT fill[4] = {0xaaaaaaaa, 0, 0, 0};
    struct harness_list list;
    uint8_t out[128];
    unsigned bad = 0;

    if (!buffer)
        return;
    if (!make_view(env, buffer, &typed, 0, "buffer")) {
        ID3D12Resource_Release(buffer);
        return;
    }
    make_view(env, buffer, &raw, 1, "raw buffer");
    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &env->gpu_heap);
    ID3D12GraphicsCommandList2_ClearUnorderedAccessViewUint(list.list, gpu_at(env, 1), cpu_at(env, env->cpu_heap, 1), buffer, fill, 0, NULL);
    uav_barrier(list.list, buffer);
    clear(env, &list, buffer, 0, use_float, 0, NULL);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    harness_read_back(env->device, env->queue, buffer, out, 8 * c->bytes);
    for (UINT e = 0; e < 8; e++)
        for (UINT b = 0; b < c->bytes; b++)
            bad += out[e * c->bytes + b] != (e >= 1 && e <= 6 ? expected[b] : 0xaa);
    CHECK_MSG(!bad, "%s clear of a buffer view of format %d: %u bytes wrong (element 1 starts %02x %02x, expected %02x %02x)",
            use_float ? "Float" : "Uint", (int)c->format, bad, out[c->bytes], out[c->bytes + (c->bytes > 1)], expected[0],
            expected[c->bytes > 1]);
    ID3D12Resource_Release(buffer);
}

/* The texels of a SIZE x SIZE 2D texture (in UNORDERED_ACCESS), packed. */
static void read_texture(struct env *env, ID3D12Resource *texture, UINT bytes, uint8_t *out)
{
    D3D12_RESOURCE_DESC desc = ID3D12Resource_GetDesc(texture);
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT layout;
    UINT64 total;
    ID3D12Resource *readback;
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    D3D12_RESOURCE_BARRIER barrier = {D3D12_RESOURCE_BARRIER_TYPE_TRANSITION, 0,
            .Transition = {texture, 0, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE}};
    uint8_t *mapped = NULL;

    ID3D12Device_GetCopyableFootprints(env->device, &desc, 0, 1, 0, &layout, NULL, NULL, &total);
    readback = harness_create_buffer(env->device, D3D12_HEAP_TYPE_READBACK, total, D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    {
        D3D12_TEXTURE_COPY_LOCATION dst = {readback, D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT, {.PlacedFootprint = layout}};
        D3D12_TEXTURE_COPY_LOCATION src = {texture, D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX, {.SubresourceIndex = 0}};
        ID3D12GraphicsCommandList2_CopyTextureRegion(list.list, &dst, 0, 0, 0, &src, NULL);
    }
    barrier.Transition.StateBefore = D3D12_RESOURCE_STATE_COPY_SOURCE;
    barrier.Transition.StateAfter = D3D12_RESOURCE_STATE_UNORDERED_ACCESS;
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    harness_execute_and_wait(env->device, env->queue, &list);
    CHECK_HR(ID3D12Resource_Map(readback, 0, NULL, (void **)&mapped), S_OK);
    for (UINT r = 0; mapped && r < SIZE; r++)
        memcpy(out + r * SIZE * bytes, mapped + (size_t)r * layout.Footprint.RowPitch, (size_t)SIZE * bytes);
    ID3D12Resource_Unmap(readback, 0, NULL);
    ID3D12Resource_Release(readback);
    harness_release_list(&list);
}

/* A texture of resource_format viewed as c->format: the whole view cleared one way, then a
 * rectangle the other way; every texel checked. */
static void test_texture(struct env *env, const struct format_case *c, DXGI_FORMAT resource_format, bool whole_float)
{
    D3D12_HEAP_PROPERTIES heap = {D3D12_HEAP_TYPE_DEFAULT, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    D3D12_RESOURCE_DESC desc = {D3D12_RESOURCE_DIMENSION_TEXTURE2D, 0, SIZE, SIZE, 1, 1, resource_format, {1, 0},
            D3D12_TEXTURE_LAYOUT_UNKNOWN, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS};
    D3D12_UNORDERED_ACCESS_VIEW_DESC view = {c->format, D3D12_UAV_DIMENSION_TEXTURE2D, .Texture2D = {0, 0}};
    const D3D12_RECT rect = {1, 1, 3, 4};
    const uint8_t *whole = whole_float ? c->float_element : c->uint_element, *inside = whole_float ? c->uint_element : c->float_element;
    ID3D12Resource *texture = NULL;
    struct harness_list list;
    uint8_t out[SIZE * SIZE * 16];
    unsigned bad = 0;
    size_t mark = harness_log_mark();

    if (FAILED(ID3D12Device_CreateCommittedResource(env->device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_UNORDERED_ACCESS,
            NULL, &IID_ID3D12Resource, (void **)&texture))) {
        printf("skipped: textures of format %d (the device cannot back them with storage)\n", (int)resource_format);
        harness_check_log_count(mark, harness_log_mark() - mark, __FILE__, __LINE__);
        env->skipped++;
        return;
    }
    if (!make_view(env, texture, &view, 0, "texture")) {
        ID3D12Resource_Release(texture);
        return;
    }
    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &env->gpu_heap);
    clear(env, &list, texture, 0, whole_float, 0, NULL);
    uav_barrier(list.list, texture);
    clear(env, &list, texture, 0, !whole_float, 1, &rect);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    read_texture(env, texture, c->bytes, out);
    for (UINT y = 0; y < SIZE; y++)
        for (UINT x = 0; x < SIZE; x++) {
            bool in = x >= (UINT)rect.left && x < (UINT)rect.right && y >= (UINT)rect.top && y < (UINT)rect.bottom;
            bad += memcmp(out + (y * SIZE + x) * c->bytes, in ? inside : whole, c->bytes) != 0;
        }
    CHECK_MSG(!bad, "texture of format %d viewed as %d, %s clear then a %s rectangle: %u texels wrong (texel 0 starts %02x, expected %02x)",
            (int)resource_format, (int)c->format, whole_float ? "Float" : "Uint", whole_float ? "Uint" : "Float", bad, out[0], whole[0]);
    ID3D12Resource_Release(texture);
}

/* The element d3d12xs_uav_clear_element computes, for every format, without a device. */
static void test_elements(void)
{
    static const UINT raw[4] = {0xdeadbeef, 1, 2, 3};
    uint8_t element[16];
    uint32_t float_bits[4], size = 0;

    memcpy(float_bits, float_values, sizeof(float_bits));
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        for (int use_float = 0; use_float < 2; use_float++) {
            bool made = d3d12xs_uav_clear_element(cases[i].format, use_float ? float_bits : uint_values, use_float, element, &size);
            CHECK_MSG(made && size == cases[i].bytes && !memcmp(element, use_float ? cases[i].float_element : cases[i].uint_element, size),
                    "%s element of format %d: %u bytes, first %02x", use_float ? "Float" : "Uint", (int)cases[i].format, size, element[0]);
        }
    }
    /* raw and structured views: 32-bit words of the first value, Float's bits unconverted */
    CHECK(d3d12xs_uav_clear_element(DXGI_FORMAT_R32_TYPELESS, raw, false, element, &size) && size == 4 && !memcmp(element, raw, 4));
    CHECK(d3d12xs_uav_clear_element(DXGI_FORMAT_R32_TYPELESS, float_bits, true, element, &size) && size == 4
            && !memcmp(element, float_bits, 4));
    /* formats with no UAVs */
    CHECK(!d3d12xs_uav_clear_element(DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, raw, false, element, &size));
    CHECK(!d3d12xs_uav_clear_element(DXGI_FORMAT_BC1_UNORM, raw, false, element, &size));
}

/* 12-byte texels are no D3D12 UAV format: where the device cannot store them in texel buffers
 * (lavapipe) the UAV is refused with its line before Vulkan sees it; where it can, the view is
 * made and its clear is refused with the line naming the format, and Close fails. */
static void test_refused(struct env *env)
{
    ID3D12Resource *buffer = harness_uav_buffer(env->device, 256);
    D3D12_UNORDERED_ACCESS_VIEW_DESC typed = {DXGI_FORMAT_R32G32B32_FLOAT, D3D12_UAV_DIMENSION_BUFFER, .Buffer = {0, 4, 0, 0, D3D12_BUFFER_UAV_FLAG_NONE}};
    struct harness_list list;
    LOG_MARK();

    if (!buffer || !make_view(env, buffer, &typed, 0, "12-byte buffer")) {
        if (buffer)
            ID3D12Resource_Release(buffer);
        return;
    }
    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &env->gpu_heap);
    clear(env, &list, buffer, 0, true, 0, NULL);
    CHECK_LOG("ClearUnorderedAccessViewFloat", "format 6", "not a UAV format D3D12 clears");
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
    CHECK_LOG("Close", "ClearUnorderedAccessViewFloat");
    harness_release_list(&list);
    ID3D12Resource_Release(buffer);
}

static const struct format_case *find_case(DXGI_FORMAT format)
{
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        if (cases[i].format == format)
            return &cases[i];
    return NULL;
}

int main(void)
{
    /* Typeless textures viewed through a member other than the one their image is made as. */
    static const DXGI_FORMAT typeless[][2] = {
        {DXGI_FORMAT_R8G8B8A8_TYPELESS, DXGI_FORMAT_R8G8B8A8_UINT}, {DXGI_FORMAT_R8G8B8A8_TYPELESS, DXGI_FORMAT_R8G8B8A8_SNORM},
        {DXGI_FORMAT_R32_TYPELESS, DXGI_FORMAT_R32_FLOAT}, {DXGI_FORMAT_R16G16_TYPELESS, DXGI_FORMAT_R16G16_FLOAT},
    };
    D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 2, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    struct env env;

    harness_init();
    memset(&env, 0, sizeof(env));
    env.device = harness_create_device();
    env.queue = harness_create_queue(env.device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    env.increment = ID3D12Device_GetDescriptorHandleIncrementSize(env.device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env.device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&env.cpu_heap), S_OK);
    heap_desc.Flags = D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE;
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env.device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&env.gpu_heap), S_OK);

    test_elements();
    if (env.cpu_heap && env.gpu_heap) {
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
            /* D3D12 has typed buffer views of the formats with a typed buffer SRV (not A8 or the 16-bit BGR ones) */
            bool buffer_format = cases[i].format != DXGI_FORMAT_A8_UNORM && cases[i].format != DXGI_FORMAT_B5G6R5_UNORM
                    && cases[i].format != DXGI_FORMAT_B5G5R5A1_UNORM && cases[i].format != DXGI_FORMAT_B4G4R4A4_UNORM;
            for (int use_float = 0; use_float < 2; use_float++) {
                if (buffer_format)
                    test_buffer(&env, &cases[i], use_float);
                test_texture(&env, &cases[i], cases[i].format, use_float);
            }
        }
        for (size_t i = 0; i < sizeof(typeless) / sizeof(typeless[0]); i++)
            for (int use_float = 0; use_float < 2; use_float++)
                test_texture(&env, find_case(typeless[i][1]), typeless[i][0], use_float);
        test_refused(&env);
        printf("%u format cases skipped\n", env.skipped);
    }

    if (env.cpu_heap)
        ID3D12DescriptorHeap_Release(env.cpu_heap);
    if (env.gpu_heap)
        ID3D12DescriptorHeap_Release(env.gpu_heap);
    if (env.queue)
        ID3D12CommandQueue_Release(env.queue);
    harness_release_device(env.device);
    return harness_finish();
}
