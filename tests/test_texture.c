/* Texture resources and copies: committed and placed textures of every dimension, uploaded
 * through their copyable footprints and read back through them on each queue type, checked byte
 * for byte; texture-to-texture regions and CopyResource; zeroed creation; allocation info; and
 * the creation, copy and barrier rules with the line each breach logs. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define MAX_SUBRESOURCES 64

static ID3D12Resource *create_texture(ID3D12Device *device, const D3D12_RESOURCE_DESC *desc, D3D12_RESOURCE_STATES state)
{
    D3D12_HEAP_PROPERTIES heap = {D3D12_HEAP_TYPE_DEFAULT, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    ID3D12Resource *texture = NULL;
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &heap, D3D12_HEAP_FLAG_NONE, desc, state, NULL, &IID_ID3D12Resource,
            (void **)&texture), S_OK);
    return texture;
}

static uint8_t pattern(uint32_t subresource, uint64_t offset, uint32_t seed)
{
    uint32_t x = (subresource + 1) * 2654435761u ^ (uint32_t)offset * 40503u ^ seed * 97u;
    x ^= x >> 15;
    return (uint8_t)(x * 2246822519u >> 24);
}

struct footprints {
    UINT count;
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT layouts[MAX_SUBRESOURCES];
    UINT rows[MAX_SUBRESOURCES];
    UINT64 row_sizes[MAX_SUBRESOURCES];
    UINT64 total;
};

static void get_footprints(ID3D12Device *device, const D3D12_RESOURCE_DESC *desc, UINT count, struct footprints *f)
{
    f->count = count;
    ID3D12Device_GetCopyableFootprints(device, desc, 0, count, 0, f->layouts, f->rows, f->row_sizes, &f->total);
    CHECK_MSG(f->total != UINT64_MAX, "GetCopyableFootprints of a format %d texture failed", (int)desc->Format);
}

/* Every byte of each subresource's rows (not the pitch padding) goes in and comes back. */
static void fill_upload(ID3D12Resource *upload, const struct footprints *f, uint32_t seed)
{
    uint8_t *data = NULL;
    CHECK_HR(ID3D12Resource_Map(upload, 0, NULL, (void **)&data), S_OK);
    for (UINT s = 0; s < f->count; s++) {
        const D3D12_PLACED_SUBRESOURCE_FOOTPRINT *l = &f->layouts[s];
        for (UINT z = 0; z < l->Footprint.Depth; z++)
            for (UINT r = 0; r < f->rows[s]; r++)
                for (UINT64 b = 0; b < f->row_sizes[s]; b++) {
                    UINT64 offset = l->Offset + (UINT64)(z * f->rows[s] + r) * l->Footprint.RowPitch + b;
                    data[offset] = pattern(s, (z * f->rows[s] + r) * 4096 + b, seed);
                }
    }
    ID3D12Resource_Unmap(upload, 0, NULL);
}

static unsigned count_differences(ID3D12Resource *readback, const struct footprints *f, uint32_t seed, UINT first, UINT count,
        bool zero)
{
    uint8_t *data = NULL;
    unsigned bad = 0;
    CHECK_HR(ID3D12Resource_Map(readback, 0, NULL, (void **)&data), S_OK);
    for (UINT s = first; s < first + count; s++) {
        const D3D12_PLACED_SUBRESOURCE_FOOTPRINT *l = &f->layouts[s];
        for (UINT z = 0; z < l->Footprint.Depth; z++)
            for (UINT r = 0; r < f->rows[s]; r++)
                for (UINT64 b = 0; b < f->row_sizes[s]; b++) {
                    UINT64 offset = l->Offset + (UINT64)(z * f->rows[s] + r) * l->Footprint.RowPitch + b;
                    uint8_t expected = zero ? 0 : pattern(s, (z * f->rows[s] + r) * 4096 + b, seed);
                    bad += data[offset] != expected;
                }
    }
    ID3D12Resource_Unmap(readback, 0, NULL);
    return bad;
}

static void copy_location_footprint(D3D12_TEXTURE_COPY_LOCATION *location, ID3D12Resource *buffer, const D3D12_PLACED_SUBRESOURCE_FOOTPRINT *footprint)
{
    memset(location, 0, sizeof(*location));
    location->pResource = buffer;
    location->Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    location->PlacedFootprint = *footprint;
}

static void copy_location_subresource(D3D12_TEXTURE_COPY_LOCATION *location, ID3D12Resource *texture, UINT subresource)
{
    memset(location, 0, sizeof(*location));
    location->pResource = texture;
    location->Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    location->SubresourceIndex = subresource;
}

static void transition(ID3D12GraphicsCommandList2 *list, ID3D12Resource *resource, UINT subresource, D3D12_RESOURCE_STATES before,
        D3D12_RESOURCE_STATES after)
{
    D3D12_RESOURCE_BARRIER barrier;
    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    barrier.Transition.pResource = resource;
    barrier.Transition.Subresource = subresource;
    barrier.Transition.StateBefore = before;
    barrier.Transition.StateAfter = after;
    ID3D12GraphicsCommandList2_ResourceBarrier(list, 1, &barrier);
}

static UINT subresource_count(const D3D12_RESOURCE_DESC *desc, UINT mips)
{
    return mips * (desc->Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE3D ? 1 : desc->DepthOrArraySize);
}

/* Upload every subresource, read every one back (to a separate buffer), compare. With
 * `texture` given (placed), it is used instead of a committed one. */
static void round_trip(ID3D12Device *device, ID3D12CommandQueue *queue, D3D12_COMMAND_LIST_TYPE type, const D3D12_RESOURCE_DESC *desc,
        ID3D12Resource *texture, uint32_t seed, const char *what)
{
    ID3D12Resource *upload, *readback;
    struct harness_list list = harness_create_list(device, type);
    struct footprints *f = calloc(1, sizeof(*f));
    D3D12_TEXTURE_COPY_LOCATION dst, src;
    D3D12_RESOURCE_DESC actual;
    UINT count;
    unsigned bad;

    if (!texture)
        texture = create_texture(device, desc, D3D12_RESOURCE_STATE_COPY_DEST);
    else
        ID3D12Resource_AddRef(texture);
    if (!texture) {
        free(f);
        harness_release_list(&list);
        return;
    }
    actual = ID3D12Resource_GetDesc(texture);
    count = subresource_count(desc, actual.MipLevels);
    get_footprints(device, desc, count, f);
    upload = harness_create_buffer(device, D3D12_HEAP_TYPE_UPLOAD, f->total, D3D12_RESOURCE_STATE_GENERIC_READ);
    readback = harness_create_buffer(device, D3D12_HEAP_TYPE_READBACK, f->total, D3D12_RESOURCE_STATE_COPY_DEST);
    fill_upload(upload, f, seed);

    for (UINT s = 0; s < count; s++) {
        copy_location_subresource(&dst, texture, s);
        copy_location_footprint(&src, upload, &f->layouts[s]);
        ID3D12GraphicsCommandList2_CopyTextureRegion(list.list, &dst, 0, 0, 0, &src, NULL);
    }
    transition(list.list, texture, D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
    for (UINT s = 0; s < count; s++) {
        copy_location_footprint(&dst, readback, &f->layouts[s]);
        copy_location_subresource(&src, texture, s);
        ID3D12GraphicsCommandList2_CopyTextureRegion(list.list, &dst, 0, 0, 0, &src, NULL);
    }
    harness_execute_and_wait(device, queue, &list);
    bad = count_differences(readback, f, seed, 0, count, false);
    CHECK_MSG(!bad, "%s on list type %d: %u bytes differ after the round trip", what, (int)type, bad);

    ID3D12Resource_Release(upload);
    ID3D12Resource_Release(readback);
    ID3D12Resource_Release(texture);
    harness_release_list(&list);
    free(f);
}

static void test_round_trips(ID3D12Device *device)
{
    static const D3D12_COMMAND_LIST_TYPE types[] = {D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_LIST_TYPE_COMPUTE, D3D12_COMMAND_LIST_TYPE_COPY};
    const struct { D3D12_RESOURCE_DESC desc; const char *what; } cases[] = {
        {harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8G8B8A8_UNORM, 100, 70, 2, 3), "2D RGBA8 100x70, 2 layers, 3 mips"},
        {harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE1D, DXGI_FORMAT_R32_FLOAT, 300, 1, 3, 1), "1D R32_FLOAT 300, 3 layers"},
        {harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE3D, DXGI_FORMAT_R16G16B16A16_FLOAT, 17, 9, 5, 2), "3D RGBA16F 17x9x5, 2 mips"},
        {harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_BC1_UNORM, 64, 32, 1, 0), "2D BC1 64x32, full chain"},
        {harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_BC7_UNORM_SRGB, 16, 16, 2, 0), "2D BC7 sRGB 16x16, 2 layers, full chain"},
        {harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8_TYPELESS, 257, 3, 1, 2), "2D R8_TYPELESS 257x3, 2 mips"},
        {harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_B8G8R8A8_UNORM, 1, 1, 6, 1), "2D BGRA8 1x1, 6 layers"},
    };

    /* Depth and stencil planes: copied on DIRECT lists (a graphics family). */
    D3D12_RESOURCE_DESC depth_cases[] = {
        harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_D32_FLOAT, 30, 20, 2, 2),
        harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R32_TYPELESS, 16, 16, 1, 1),
        harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_D32_FLOAT_S8X24_UINT, 20, 12, 1, 1),
    };
    ID3D12CommandQueue *direct;

    for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
        ID3D12CommandQueue *queue = harness_create_queue(device, types[t]);
        for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
            round_trip(device, queue, types[t], &cases[c].desc, NULL, (uint32_t)(t * 16 + c), cases[c].what);
        ID3D12CommandQueue_Release(queue);
    }
    direct = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    for (size_t c = 0; c < sizeof(depth_cases) / sizeof(depth_cases[0]); c++) {
        depth_cases[c].Flags = D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL;
        round_trip(device, direct, D3D12_COMMAND_LIST_TYPE_DIRECT, &depth_cases[c], NULL, (uint32_t)(100 + c), "depth-stencil");
    }
    ID3D12CommandQueue_Release(direct);
}

/* A committed texture reads back as zeros before anything writes it. */
static void test_zeroed(ID3D12Device *device, ID3D12CommandQueue *queue)
{
    D3D12_RESOURCE_DESC desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R32G32B32A32_UINT, 64, 64, 1, 2);
    ID3D12Resource *texture = create_texture(device, &desc, D3D12_RESOURCE_STATE_COPY_SOURCE), *readback;
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    struct footprints *f = calloc(1, sizeof(*f));
    D3D12_TEXTURE_COPY_LOCATION dst, src;
    uint8_t *data = NULL;

    get_footprints(device, &desc, 2, f);
    readback = harness_create_buffer(device, D3D12_HEAP_TYPE_READBACK, f->total, D3D12_RESOURCE_STATE_COPY_DEST);
    CHECK_HR(ID3D12Resource_Map(readback, 0, NULL, (void **)&data), S_OK);
    memset(data, 0xcd, f->total);
    ID3D12Resource_Unmap(readback, 0, NULL);
    for (UINT s = 0; s < 2; s++) {
        copy_location_footprint(&dst, readback, &f->layouts[s]);
        copy_location_subresource(&src, texture, s);
        ID3D12GraphicsCommandList2_CopyTextureRegion(list.list, &dst, 0, 0, 0, &src, NULL);
    }
    harness_execute_and_wait(device, queue, &list);
    CHECK_MSG(!count_differences(readback, f, 0, 0, 2, true), "a new committed texture does not read back as zeros");
    ID3D12Resource_Release(readback);
    ID3D12Resource_Release(texture);
    harness_release_list(&list);
    free(f);
}

/* A box of one texture into another at an offset, and CopyResource of a whole texture. */
static void test_texture_to_texture(ID3D12Device *device, ID3D12CommandQueue *queue)
{
    D3D12_RESOURCE_DESC desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8G8B8A8_UNORM, 32, 16, 1, 1);
    D3D12_RESOURCE_DESC uint_desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R32_UINT, 32, 16, 1, 1);
    ID3D12Resource *a = create_texture(device, &desc, D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12Resource *b = create_texture(device, &uint_desc, D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12Resource *c = create_texture(device, &desc, D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12Resource *upload, *readback;
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT footprint;
    D3D12_TEXTURE_COPY_LOCATION dst, src;
    const D3D12_BOX box = {4, 2, 0, 12, 7, 1}; /* 8 x 5 texels */
    uint32_t *texels = NULL, *read = NULL;
    UINT64 total;
    unsigned bad = 0;

    ID3D12Device_GetCopyableFootprints(device, &desc, 0, 1, 0, &footprint, NULL, NULL, &total);
    CHECK(footprint.Footprint.RowPitch == 256 && total == 256 * 15 + 128);
    upload = harness_create_buffer(device, D3D12_HEAP_TYPE_UPLOAD, total, D3D12_RESOURCE_STATE_GENERIC_READ);
    readback = harness_create_buffer(device, D3D12_HEAP_TYPE_READBACK, 256 * 16 + total, D3D12_RESOURCE_STATE_COPY_DEST);
    CHECK_HR(ID3D12Resource_Map(upload, 0, NULL, (void **)&texels), S_OK);
    for (UINT y = 0; y < 16; y++)
        for (UINT x = 0; x < 32; x++)
            texels[y * 64 + x] = (y << 8) | x | 0xab000000u;
    ID3D12Resource_Unmap(upload, 0, NULL);

    copy_location_subresource(&dst, a, 0);
    copy_location_footprint(&src, upload, &footprint);
    ID3D12GraphicsCommandList2_CopyTextureRegion(list.list, &dst, 0, 0, 0, &src, NULL);
    transition(list.list, a, 0, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
    /* RGBA8 and R32_UINT are copy-compatible (4-byte texels): the box lands at (20, 9). */
    copy_location_subresource(&dst, b, 0);
    copy_location_subresource(&src, a, 0);
    ID3D12GraphicsCommandList2_CopyTextureRegion(list.list, &dst, 20, 9, 0, &src, &box);
    ID3D12GraphicsCommandList2_CopyResource(list.list, c, a);
    transition(list.list, b, 0, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
    transition(list.list, c, 0, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
    footprint.Footprint.Format = DXGI_FORMAT_R32_UINT;
    copy_location_footprint(&dst, readback, &footprint);
    copy_location_subresource(&src, b, 0);
    ID3D12GraphicsCommandList2_CopyTextureRegion(list.list, &dst, 0, 0, 0, &src, NULL);
    footprint.Footprint.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    footprint.Offset = 256 * 16;
    copy_location_footprint(&dst, readback, &footprint);
    copy_location_subresource(&src, c, 0);
    ID3D12GraphicsCommandList2_CopyTextureRegion(list.list, &dst, 0, 0, 0, &src, NULL);
    harness_execute_and_wait(device, queue, &list);

    CHECK_HR(ID3D12Resource_Map(readback, 0, NULL, (void **)&read), S_OK);
    for (UINT y = 0; y < 16; y++)
        for (UINT x = 0; x < 32; x++) {
            bool inside = x >= 20 && x < 28 && y >= 9 && y < 14;
            uint32_t expected = inside ? (((y - 9 + 2) << 8) | (x - 20 + 4) | 0xab000000u) : 0;
            bad += read[y * 64 + x] != expected;
            bad += read[1024 + y * 64 + x] != ((y << 8) | x | 0xab000000u);
        }
    ID3D12Resource_Unmap(readback, 0, NULL);
    CHECK_MSG(!bad, "texture-to-texture box copy and CopyResource: %u texels differ", bad);

    ID3D12Resource_Release(upload);
    ID3D12Resource_Release(readback);
    ID3D12Resource_Release(a);
    ID3D12Resource_Release(b);
    ID3D12Resource_Release(c);
    harness_release_list(&list);
}

static void test_desc_and_allocation_info(ID3D12Device *device)
{
    D3D12_RESOURCE_DESC desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8G8B8A8_UNORM, 256, 128, 1, 0);
    D3D12_RESOURCE_DESC descs[2];
    D3D12_RESOURCE_ALLOCATION_INFO1 infos[2];
    D3D12_RESOURCE_ALLOCATION_INFO info;
    ID3D12Resource *texture = create_texture(device, &desc, D3D12_RESOURCE_STATE_COMMON);
    D3D12_RESOURCE_DESC got;
    ID3D12Device4 *device4 = NULL;

    if (!texture)
        return;
    got = ID3D12Resource_GetDesc(texture);
    CHECK_MSG(got.MipLevels == 9 && got.Alignment == 65536 && got.Width == 256 && got.Height == 128,
            "GetDesc of a 256x128 full chain: %u mips, alignment %llu", got.MipLevels, (unsigned long long)got.Alignment);
    CHECK(ID3D12Resource_GetGPUVirtualAddress(texture) == 0);
    ID3D12Resource_Release(texture);

    info = ID3D12Device_GetResourceAllocationInfo(device, 0, 1, &desc);
    CHECK_MSG(info.Alignment == 65536 && info.SizeInBytes >= 256 * 128 * 4 && info.SizeInBytes % 65536 == 0,
            "allocation info of a 256x128 RGBA8 chain: %llu bytes, alignment %llu", (unsigned long long)info.SizeInBytes,
            (unsigned long long)info.Alignment);

    descs[0] = harness_texture_desc(D3D12_RESOURCE_DIMENSION_BUFFER, DXGI_FORMAT_UNKNOWN, 1000, 1, 1, 1);
    descs[0].Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    descs[1] = desc;
    CHECK_HR(ID3D12Device_QueryInterface(device, &IID_ID3D12Device4, (void **)&device4), S_OK);
    if (device4) {
        info = ID3D12Device4_GetResourceAllocationInfo1(device4, 0, 2, descs, infos);
        CHECK(infos[0].Offset == 0 && infos[0].SizeInBytes == 65536);
        CHECK(infos[1].Offset == 65536 && infos[1].SizeInBytes % 65536 == 0 && info.SizeInBytes == 65536 + infos[1].SizeInBytes);
        ID3D12Device4_Release(device4);
    }

    {
        LOG_MARK();
        desc.Width = 0;
        info = ID3D12Device_GetResourceAllocationInfo(device, 0, 1, &desc);
        CHECK(info.SizeInBytes == UINT64_MAX);
        CHECK_LOG("GetResourceAllocationInfo", "Width");
    }
}

static void test_placed(ID3D12Device *device, ID3D12CommandQueue *queue)
{
    D3D12_RESOURCE_DESC desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R16G16_UINT, 40, 30, 1, 2);
    D3D12_RESOURCE_ALLOCATION_INFO info = ID3D12Device_GetResourceAllocationInfo(device, 0, 1, &desc);
    D3D12_HEAP_DESC heap_desc;
    ID3D12Heap *heap = NULL;
    ID3D12Resource *texture = NULL;

    memset(&heap_desc, 0, sizeof(heap_desc));
    heap_desc.SizeInBytes = info.SizeInBytes + 65536;
    heap_desc.Properties.Type = D3D12_HEAP_TYPE_DEFAULT;
    heap_desc.Flags = D3D12_HEAP_FLAG_ALLOW_ONLY_NON_RT_DS_TEXTURES;
    CHECK_HR(ID3D12Device_CreateHeap(device, &heap_desc, &IID_ID3D12Heap, (void **)&heap), S_OK);
    if (!heap)
        return;
    CHECK_HR(ID3D12Device_CreatePlacedResource(device, heap, 65536, &desc, D3D12_RESOURCE_STATE_COPY_DEST, NULL, &IID_ID3D12Resource,
            (void **)&texture), S_OK);
    if (texture) {
        round_trip(device, queue, D3D12_COMMAND_LIST_TYPE_DIRECT, &desc, texture, 7, "placed 2D R16G16_UINT 40x30, 2 mips");
        ID3D12Resource_Release(texture);
    }
    {
        LOG_MARK();
        CHECK_HR(ID3D12Device_CreatePlacedResource(device, heap, 4096, &desc, D3D12_RESOURCE_STATE_COMMON, NULL, &IID_ID3D12Resource,
                (void **)&texture), E_INVALIDARG);
        CHECK_LOG("CreatePlacedResource", "HeapOffset 4096", "65536");
        RELOG_MARK();
        CHECK_HR(ID3D12Device_CreatePlacedResource(device, heap, 2 * 65536 + (info.SizeInBytes & ~(UINT64)65535), &desc,
                D3D12_RESOURCE_STATE_COMMON, NULL, &IID_ID3D12Resource, (void **)&texture), E_INVALIDARG);
        CHECK_LOG("CreatePlacedResource", "pass the end");
        RELOG_MARK();
        desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
        CHECK_HR(ID3D12Device_CreatePlacedResource(device, heap, 0, &desc, D3D12_RESOURCE_STATE_COMMON, NULL, &IID_ID3D12Resource,
                (void **)&texture), E_INVALIDARG);
        CHECK_LOG("CreatePlacedResource", "HeapFlags deny render-target");
    }
    ID3D12Heap_Release(heap);
}

/* A multisampled render target is made where CheckFeatureSupport says it can be, and its GetDesc
 * keeps the sample count; without ALLOW_RENDER_TARGET it is refused. */
static void test_multisampled(ID3D12Device *device)
{
    D3D12_FEATURE_DATA_MULTISAMPLE_QUALITY_LEVELS quality = {DXGI_FORMAT_R8G8B8A8_UNORM, 4, D3D12_MULTISAMPLE_QUALITY_LEVELS_FLAG_NONE, 0};
    D3D12_RESOURCE_DESC desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8G8B8A8_UNORM, 64, 64, 1, 1);
    D3D12_HEAP_PROPERTIES heap = {D3D12_HEAP_TYPE_DEFAULT, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    D3D12_RESOURCE_ALLOCATION_INFO info;
    ID3D12Resource *texture = NULL;
    LOG_MARK();

    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_MULTISAMPLE_QUALITY_LEVELS, &quality, sizeof(quality)), S_OK);
    if (!quality.NumQualityLevels)
        return;
    desc.SampleDesc.Count = 4;
    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    info = ID3D12Device_GetResourceAllocationInfo(device, 0, 1, &desc);
    CHECK_MSG(info.Alignment == D3D12_DEFAULT_MSAA_RESOURCE_PLACEMENT_ALIGNMENT, "a 4x texture's alignment is %llu", (unsigned long long)info.Alignment);
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_RENDER_TARGET, NULL,
            &IID_ID3D12Resource, (void **)&texture), S_OK);
    if (texture) {
        D3D12_RESOURCE_DESC got = ID3D12Resource_GetDesc(texture);
        CHECK(got.SampleDesc.Count == 4 && got.Alignment == D3D12_DEFAULT_MSAA_RESOURCE_PLACEMENT_ALIGNMENT);
        ID3D12Resource_Release(texture);
    }
    CHECK_NO_LOG();
    desc.Flags = D3D12_RESOURCE_FLAG_NONE;
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON, NULL,
            &IID_ID3D12Resource, (void **)&texture), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource", "SampleDesc");
}

static void test_bad_creation(ID3D12Device *device)
{
    D3D12_RESOURCE_DESC desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, 1);
    D3D12_HEAP_PROPERTIES upload = {D3D12_HEAP_TYPE_UPLOAD, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    D3D12_HEAP_PROPERTIES def = {D3D12_HEAP_TYPE_DEFAULT, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    D3D12_CLEAR_VALUE clear;
    ID3D12Resource *texture = NULL;
    void *data;
    LOG_MARK();

    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &upload, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_GENERIC_READ, NULL,
            &IID_ID3D12Resource, (void **)&texture), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource", "UPLOAD");
    RELOG_MARK();
    memset(&clear, 0, sizeof(clear));
    clear.Format = desc.Format;
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &def, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON, &clear,
            &IID_ID3D12Resource, (void **)&texture), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource", "pOptimizedClearValue");
    RELOG_MARK();
    desc.Format = DXGI_FORMAT_R32G32B32_FLOAT;
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &def, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON, NULL,
            &IID_ID3D12Resource, (void **)&texture), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource", "12-byte texels");
    RELOG_MARK();
    desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    desc.Width = 0;
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &def, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON, NULL,
            &IID_ID3D12Resource, (void **)&texture), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource", "Width");
    CHECK(!texture);

    RELOG_MARK();
    desc.Width = 16;
    texture = create_texture(device, &desc, D3D12_RESOURCE_STATE_COMMON);
    if (texture) {
        CHECK_HR(ID3D12Resource_Map(texture, 0, NULL, &data), E_INVALIDARG);
        CHECK_LOG("Map", "CPU cannot access");
        RELOG_MARK();
        CHECK_HR(ID3D12Resource_Map(texture, 1, NULL, &data), E_INVALIDARG);
        CHECK_LOG("Map", "Subresource is 1", "has 1");
        ID3D12Resource_Release(texture);
    }
}

/* Reserved (tiled) resources are refused, after their arguments: E_NOTIMPL with the feature tier
 * named, E_INVALIDARG with the argument named, from each version's method. */
static void test_reserved_refused(ID3D12Device *device)
{
    D3D12_RESOURCE_DESC desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8G8B8A8_UNORM, 256, 256, 1, 1);
    D3D12_FEATURE_DATA_D3D12_OPTIONS options;
    ID3D12Resource *resource = (ID3D12Resource *)(uintptr_t)1;
    ID3D12Device4 *device4 = NULL;
    ID3D12Device10 *device10 = NULL;
    LOG_MARK();

    memset(&options, 0xff, sizeof(options));
    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_D3D12_OPTIONS, &options, sizeof(options)), S_OK);
    CHECK(options.TiledResourcesTier == D3D12_TILED_RESOURCES_TIER_NOT_SUPPORTED);

    desc.Layout = D3D12_TEXTURE_LAYOUT_64KB_UNDEFINED_SWIZZLE;
    CHECK_HR(ID3D12Device_CreateReservedResource(device, &desc, D3D12_RESOURCE_STATE_COMMON, NULL, &IID_ID3D12Resource,
            (void **)&resource), E_NOTIMPL);
    CHECK(!resource);
    CHECK_LOG("CreateReservedResource", "TiledResourcesTier NOT_SUPPORTED");
    RELOG_MARK();
    desc.Layout = D3D12_TEXTURE_LAYOUT_UNKNOWN;
    CHECK_HR(ID3D12Device_CreateReservedResource(device, &desc, D3D12_RESOURCE_STATE_COMMON, NULL, &IID_ID3D12Resource,
            (void **)&resource), E_INVALIDARG);
    CHECK_LOG("CreateReservedResource", "pDesc->Layout", "64KB_UNDEFINED_SWIZZLE");
    RELOG_MARK();
    CHECK_HR(ID3D12Device_CreateReservedResource(device, NULL, D3D12_RESOURCE_STATE_COMMON, NULL, &IID_ID3D12Resource,
            (void **)&resource), E_INVALIDARG);
    CHECK_LOG("CreateReservedResource", "pDesc is NULL");
    RELOG_MARK();
    desc.Layout = D3D12_TEXTURE_LAYOUT_64KB_UNDEFINED_SWIZZLE;
    desc.Width = 0;
    CHECK_HR(ID3D12Device_CreateReservedResource(device, &desc, D3D12_RESOURCE_STATE_COMMON, NULL, &IID_ID3D12Resource,
            (void **)&resource), E_INVALIDARG);
    CHECK_LOG("CreateReservedResource", "Width");
    RELOG_MARK();
    desc = (D3D12_RESOURCE_DESC){.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER, .Width = 1 << 20, .Height = 1, .DepthOrArraySize = 1,
            .MipLevels = 1, .SampleDesc = {1, 0}, .Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR};
    CHECK_HR(ID3D12Device_CreateReservedResource(device, &desc, D3D12_RESOURCE_STATE_COMMON, NULL, &IID_ID3D12Resource,
            (void **)&resource), E_NOTIMPL);
    CHECK_LOG("CreateReservedResource", "TiledResourcesTier NOT_SUPPORTED");

    CHECK_HR(ID3D12Device_QueryInterface(device, &IID_ID3D12Device4, (void **)&device4), S_OK);
    if (device4) {
        RELOG_MARK();
        CHECK_HR(ID3D12Device4_CreateReservedResource1(device4, &desc, D3D12_RESOURCE_STATE_COMMON, NULL, NULL, &IID_ID3D12Resource,
                (void **)&resource), E_NOTIMPL);
        CHECK_LOG("CreateReservedResource1", "TiledResourcesTier NOT_SUPPORTED");
        ID3D12Device4_Release(device4);
    }
    CHECK_HR(ID3D12Device_QueryInterface(device, &IID_ID3D12Device10, (void **)&device10), S_OK);
    if (device10) {
        RELOG_MARK();
        CHECK_HR(ID3D12Device10_CreateReservedResource2(device10, &desc, D3D12_BARRIER_LAYOUT_UNDEFINED, NULL, NULL, 0, NULL,
                &IID_ID3D12Resource, (void **)&resource), E_NOTIMPL);
        CHECK_LOG("CreateReservedResource2", "TiledResourcesTier NOT_SUPPORTED");
        ID3D12Device10_Release(device10);
    }
    CHECK(!resource);
}

/* One bad CopyTextureRegion (or barrier) per case: the line names the rule, Close refuses the list. */
struct bad_copy {
    const char *needle;
    D3D12_TEXTURE_COPY_LOCATION dst, src;
    UINT x, y;
    const D3D12_BOX *box;
};

static void check_bad_copy(ID3D12Device *device, const struct bad_copy *bad)
{
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    LOG_MARK();
    ID3D12GraphicsCommandList2_CopyTextureRegion(list.list, &bad->dst, bad->x, bad->y, 0, &bad->src, bad->box);
    CHECK_LOG("CopyTextureRegion", bad->needle);
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
    CHECK_LOG("Close", "CopyTextureRegion", bad->needle);
    harness_release_list(&list);
}

static void test_bad_copies(ID3D12Device *device)
{
    D3D12_RESOURCE_DESC desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, 2);
    D3D12_RESOURCE_DESC r16 = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R16_UINT, 16, 16, 1, 1);
    ID3D12Resource *texture = create_texture(device, &desc, D3D12_RESOURCE_STATE_COMMON);
    ID3D12Resource *narrow = create_texture(device, &r16, D3D12_RESOURCE_STATE_COMMON);
    ID3D12Resource *buffer = harness_create_buffer(device, D3D12_HEAP_TYPE_READBACK, 65536, D3D12_RESOURCE_STATE_COPY_DEST);
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT footprint = {0, {DXGI_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, 256}};
    const D3D12_BOX outside = {0, 0, 0, 17, 1, 1};
    struct bad_copy bad;
    struct harness_list list;

    memset(&bad, 0, sizeof(bad));
    copy_location_subresource(&bad.src, texture, 0);
    copy_location_footprint(&bad.dst, buffer, &footprint);
    bad.dst.PlacedFootprint.Offset = 100;
    bad.needle = "multiple of 512";
    check_bad_copy(device, &bad);

    bad.dst.PlacedFootprint.Offset = 0;
    bad.dst.PlacedFootprint.Footprint.RowPitch = 100;
    bad.needle = "RowPitch 100";
    check_bad_copy(device, &bad);

    bad.dst.PlacedFootprint.Footprint.RowPitch = 256;
    copy_location_subresource(&bad.src, texture, 2);
    bad.needle = "SubresourceIndex is 2";
    check_bad_copy(device, &bad);

    copy_location_subresource(&bad.src, texture, 0);
    bad.box = &outside;
    bad.needle = "pSrcBox";
    check_bad_copy(device, &bad);

    bad.box = NULL;
    bad.x = 8;
    bad.needle = "not within the destination";
    check_bad_copy(device, &bad);

    bad.x = 0;
    copy_location_footprint(&bad.src, buffer, &footprint);
    bad.needle = "both buffers";
    check_bad_copy(device, &bad);

    copy_location_subresource(&bad.src, texture, 0);
    copy_location_subresource(&bad.dst, narrow, 0);
    bad.needle = "not copy-compatible";
    check_bad_copy(device, &bad);

    copy_location_subresource(&bad.dst, buffer, 0);
    bad.needle = "is a buffer";
    check_bad_copy(device, &bad);

    copy_location_footprint(&bad.dst, texture, &footprint);
    bad.needle = "is a texture";
    check_bad_copy(device, &bad);

    /* DiscardResource: any subresources the texture has, nothing else. */
    list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    {
        D3D12_DISCARD_REGION region = {0, NULL, 1, 1};
        LOG_MARK();
        ID3D12GraphicsCommandList2_DiscardResource(list.list, texture, NULL);
        ID3D12GraphicsCommandList2_DiscardResource(list.list, texture, &region);
        CHECK_NO_LOG();
        region.NumSubresources = 2;
        ID3D12GraphicsCommandList2_DiscardResource(list.list, texture, &region);
        CHECK_LOG("DiscardResource", "subresources 1 (+2)");
        RELOG_MARK();
        CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
        CHECK_LOG("Close", "DiscardResource");
    }
    harness_release_list(&list);

    /* Barriers name subresources the texture has. */
    list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    {
        LOG_MARK();
        transition(list.list, texture, 1, D3D12_RESOURCE_STATE_COMMON, D3D12_RESOURCE_STATE_COPY_SOURCE);
        CHECK_NO_LOG();
        transition(list.list, texture, 2, D3D12_RESOURCE_STATE_COMMON, D3D12_RESOURCE_STATE_COPY_SOURCE);
        CHECK_LOG("ResourceBarrier", "Subresource is 2", "has 2");
        RELOG_MARK();
        CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
        CHECK_LOG("Close", "ResourceBarrier");
    }
    harness_release_list(&list);

    ID3D12Resource_Release(texture);
    ID3D12Resource_Release(narrow);
    ID3D12Resource_Release(buffer);
}

int main(void)
{
    harness_init();
    ID3D12Device *device = harness_create_device();
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);

    test_desc_and_allocation_info(device);
    test_round_trips(device);
    test_zeroed(device, queue);
    test_texture_to_texture(device, queue);
    test_placed(device, queue);
    test_multisampled(device);
    test_bad_creation(device);
    test_reserved_refused(device);
    test_bad_copies(device);

    ID3D12CommandQueue_Release(queue);
    harness_release_device(device);
    return harness_finish();
}
