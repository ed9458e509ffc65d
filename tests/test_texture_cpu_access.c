/* Textures in CPU-accessible heaps: WriteToSubresource and ReadFromSubresource round trips of
 * every dimension, boxes, pitches, block-compressed formats and mips; what the CPU writes is
 * what a queue's copy reads, and what a queue writes is what the CPU reads; committed CUSTOM
 * and placed textures; Map's rules for textures; and each bad argument with its line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static const D3D12_HEAP_PROPERTIES write_back = {D3D12_HEAP_TYPE_CUSTOM, D3D12_CPU_PAGE_PROPERTY_WRITE_BACK, D3D12_MEMORY_POOL_L0, 1, 1};
static const D3D12_HEAP_PROPERTIES write_combine = {D3D12_HEAP_TYPE_CUSTOM, D3D12_CPU_PAGE_PROPERTY_WRITE_COMBINE, D3D12_MEMORY_POOL_L0, 1, 1};

static ID3D12Resource *cpu_texture(ID3D12Device *device, const D3D12_HEAP_PROPERTIES *heap, const D3D12_RESOURCE_DESC *desc)
{
    ID3D12Resource *texture = NULL;
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, heap, D3D12_HEAP_FLAG_NONE, desc, D3D12_RESOURCE_STATE_COMMON, NULL,
            &IID_ID3D12Resource, (void **)&texture), S_OK);
    return texture;
}

static uint8_t pattern(uint32_t subresource, uint64_t offset, uint32_t seed)
{
    uint32_t x = (subresource + 1) * 2654435761u ^ (uint32_t)offset * 40503u ^ seed * 97u;
    x ^= x >> 15;
    return (uint8_t)(x * 2246822519u >> 24);
}

/* Rows of `row_bytes` at row_pitch, slices at depth_pitch: pattern bytes in the rows, 0xee in the padding. */
static uint8_t *make_source(uint32_t subresource, uint32_t seed, uint64_t row_bytes, UINT rows, UINT slices, UINT row_pitch,
        UINT depth_pitch)
{
    size_t size = (size_t)depth_pitch * slices;
    uint8_t *data = malloc(size);
    memset(data, 0xee, size);
    for (UINT z = 0; z < slices; z++)
        for (UINT r = 0; r < rows; r++)
            for (uint64_t b = 0; b < row_bytes; b++)
                data[(size_t)z * depth_pitch + (size_t)r * row_pitch + b] = pattern(subresource, (z * rows + r) * 65536 + b, seed);
    return data;
}

/* Compares the rows of two images laid out the same; the padding is left out. */
static unsigned row_differences(const uint8_t *a, const uint8_t *b, uint64_t row_bytes, UINT rows, UINT slices, UINT row_pitch, UINT depth_pitch)
{
    unsigned bad = 0;
    for (UINT z = 0; z < slices; z++)
        for (UINT r = 0; r < rows; r++)
            bad += memcmp(a + (size_t)z * depth_pitch + (size_t)r * row_pitch, b + (size_t)z * depth_pitch + (size_t)r * row_pitch,
                    row_bytes) != 0;
    return bad;
}

struct subresource_shape {
    uint64_t row_bytes;
    UINT rows, slices;
};

/* Through GetCopyableFootprints, so the test states D3D12's sizes, not the library's. */
static struct subresource_shape shape_of(ID3D12Device *device, const D3D12_RESOURCE_DESC *desc, UINT subresource)
{
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT layout;
    struct subresource_shape shape;
    ID3D12Device_GetCopyableFootprints(device, desc, subresource, 1, 0, &layout, &shape.rows, &shape.row_bytes, NULL);
    shape.slices = layout.Footprint.Depth;
    return shape;
}

/* Every subresource written whole from the CPU, read back whole, at a pitch wider than the row. */
static void round_trip(ID3D12Device *device, const D3D12_HEAP_PROPERTIES *heap, const D3D12_RESOURCE_DESC *desc, uint32_t seed, const char *what)
{
    ID3D12Resource *texture = cpu_texture(device, heap, desc);
    D3D12_RESOURCE_DESC actual;
    UINT count;

    if (!texture)
        return;
    actual = ID3D12Resource_GetDesc(texture);
    count = actual.MipLevels * (actual.Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE3D ? 1 : actual.DepthOrArraySize);
    CHECK_HR(ID3D12Resource_Map(texture, 0, NULL, NULL), S_OK);
    for (UINT s = 0; s < count; s++) {
        struct subresource_shape shape = shape_of(device, desc, s);
        UINT row_pitch = (UINT)shape.row_bytes + 13, depth_pitch = row_pitch * shape.rows + 7;
        uint8_t *source = make_source(s, seed, shape.row_bytes, shape.rows, shape.slices, row_pitch, depth_pitch);
        uint8_t *result = malloc((size_t)depth_pitch * shape.slices);
        memset(result, 0x11, (size_t)depth_pitch * shape.slices);
        CHECK_HR(ID3D12Resource_WriteToSubresource(texture, s, NULL, source, row_pitch, depth_pitch), S_OK);
        CHECK_HR(ID3D12Resource_ReadFromSubresource(texture, result, row_pitch, depth_pitch, s, NULL), S_OK);
        CHECK_MSG(!row_differences(source, result, shape.row_bytes, shape.rows, shape.slices, row_pitch, depth_pitch),
                "%s: subresource %u does not read back what was written", what, s);
        /* The padding between rows is the caller's: a read leaves it alone. */
        if (shape.rows > 1)
            CHECK_MSG(result[shape.row_bytes] == 0x11, "%s: subresource %u: the read wrote into the row padding", what, s);
        free(source);
        free(result);
    }
    ID3D12Resource_Unmap(texture, 0, NULL);
    ID3D12Resource_Release(texture);
}

static void test_round_trips(ID3D12Device *device)
{
    const struct { D3D12_RESOURCE_DESC desc; const char *what; } cases[] = {
        {harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8G8B8A8_UNORM, 100, 70, 2, 3), "2D RGBA8 100x70, 2 layers, 3 mips"},
        {harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE1D, DXGI_FORMAT_R32_FLOAT, 300, 1, 3, 1), "1D R32_FLOAT 300, 3 layers"},
        {harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE3D, DXGI_FORMAT_R16G16B16A16_FLOAT, 17, 9, 5, 2), "3D RGBA16F 17x9x5, 2 mips"},
        {harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_BC1_UNORM, 64, 32, 1, 0), "2D BC1 64x32, full chain"},
        {harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_BC7_UNORM_SRGB, 20, 12, 1, 3), "2D BC7 sRGB 20x12, 3 mips"},
        {harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8_TYPELESS, 257, 3, 1, 2), "2D R8_TYPELESS 257x3, 2 mips"},
        {harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R32G32B32A32_UINT, 8, 8, 6, 1), "2D RGBA32UI 8x8, 6 layers (cube-able)"},
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
        round_trip(device, c % 2 ? &write_combine : &write_back, &cases[c].desc, (uint32_t)c, cases[c].what);
}

/* A box in the middle of a subresource changes those texels only; a box read returns them. */
static void test_boxes(ID3D12Device *device)
{
    D3D12_RESOURCE_DESC desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE3D, DXGI_FORMAT_R8G8B8A8_UINT, 16, 12, 6, 1);
    D3D12_BOX box = {3, 2, 1, 11, 9, 4};
    const UINT row_pitch = 16 * 4, depth_pitch = row_pitch * 12;
    ID3D12Resource *texture = cpu_texture(device, &write_back, &desc);
    uint8_t *whole, *patch, *read, *expected;
    unsigned bad = 0;

    if (!texture)
        return;
    whole = make_source(0, 5, row_pitch, 12, 6, row_pitch, depth_pitch);
    patch = make_source(1, 6, (box.right - box.left) * 4, box.bottom - box.top, box.back - box.front, 40, 40 * 7);
    read = calloc(1, (size_t)depth_pitch * 6);
    expected = malloc((size_t)depth_pitch * 6);
    CHECK_HR(ID3D12Resource_WriteToSubresource(texture, 0, NULL, whole, row_pitch, depth_pitch), S_OK);
    CHECK_HR(ID3D12Resource_WriteToSubresource(texture, 0, &box, patch, 40, 40 * 7), S_OK);
    memcpy(expected, whole, (size_t)depth_pitch * 6);
    for (UINT z = box.front; z < box.back; z++)
        for (UINT y = box.top; y < box.bottom; y++)
            memcpy(expected + z * depth_pitch + y * row_pitch + box.left * 4, patch + (z - box.front) * 280 + (y - box.top) * 40,
                    (box.right - box.left) * 4);
    CHECK_HR(ID3D12Resource_ReadFromSubresource(texture, read, row_pitch, depth_pitch, 0, NULL), S_OK);
    CHECK_MSG(!memcmp(read, expected, (size_t)depth_pitch * 6), "a box write changed texels outside the box or missed some inside it");

    /* The box read: the patch comes back at its own pitches. */
    memset(read, 0, (size_t)depth_pitch * 6);
    CHECK_HR(ID3D12Resource_ReadFromSubresource(texture, read, 40, 280, 0, &box), S_OK);
    bad = row_differences(read, patch, (box.right - box.left) * 4, box.bottom - box.top, box.back - box.front, 40, 280);
    CHECK_MSG(!bad, "a box read returned %u wrong rows", bad);

    /* An empty box writes nothing and succeeds, as D3D12 documents. */
    box = (D3D12_BOX){4, 4, 0, 4, 8, 1};
    CHECK_HR(ID3D12Resource_WriteToSubresource(texture, 0, &box, patch, 40, 280), S_OK);
    CHECK_HR(ID3D12Resource_ReadFromSubresource(texture, read, row_pitch, depth_pitch, 0, NULL), S_OK);
    CHECK_MSG(!memcmp(read, expected, (size_t)depth_pitch * 6), "an empty box changed the texture");

    /* Compressed boxes in whole blocks: block (1, 1) of an 8x8 BC1 texture. */
    {
        D3D12_RESOURCE_DESC bc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_BC1_UNORM, 8, 8, 1, 1);
        ID3D12Resource *compressed = cpu_texture(device, &write_combine, &bc);
        uint8_t blocks[32], block[8], back[32];
        D3D12_BOX bc_box = {4, 4, 0, 8, 8, 1};
        for (unsigned i = 0; i < 32; i++)
            blocks[i] = (uint8_t)i;
        for (unsigned i = 0; i < 8; i++)
            block[i] = (uint8_t)(0xa0 + i);
        if (compressed) {
            CHECK_HR(ID3D12Resource_WriteToSubresource(compressed, 0, NULL, blocks, 16, 32), S_OK);
            CHECK_HR(ID3D12Resource_WriteToSubresource(compressed, 0, &bc_box, block, 8, 8), S_OK);
            CHECK_HR(ID3D12Resource_ReadFromSubresource(compressed, back, 16, 32, 0, NULL), S_OK);
            memcpy(blocks + 24, block, 8);
            CHECK_MSG(!memcmp(back, blocks, 32), "a BC1 block box landed elsewhere");
            ID3D12Resource_Release(compressed);
        }
    }
    free(whole);
    free(patch);
    free(read);
    free(expected);
    ID3D12Resource_Release(texture);
}

/* The CPU's write is what the next list's copy reads; a list's write is what the CPU then reads. */
static void test_queue_sees_cpu(ID3D12Device *device, ID3D12CommandQueue *queue)
{
    D3D12_RESOURCE_DESC desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R32_UINT, 64, 16, 1, 1);
    ID3D12Resource *texture = cpu_texture(device, &write_back, &desc), *readback, *upload;
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    D3D12_TEXTURE_COPY_LOCATION buffer_location, texture_location;
    uint32_t texels[64 * 16], *mapped = NULL;
    unsigned bad = 0;

    if (!texture)
        return;
    readback = harness_create_buffer(device, D3D12_HEAP_TYPE_READBACK, 256 * 16, D3D12_RESOURCE_STATE_COPY_DEST);
    upload = harness_create_buffer(device, D3D12_HEAP_TYPE_UPLOAD, 256 * 16, D3D12_RESOURCE_STATE_GENERIC_READ);
    for (unsigned i = 0; i < 64 * 16; i++)
        texels[i] = 0x51000000u + i;
    CHECK_HR(ID3D12Resource_WriteToSubresource(texture, 0, NULL, texels, 256, 256 * 16), S_OK);

    memset(&buffer_location, 0, sizeof(buffer_location));
    buffer_location.pResource = readback;
    buffer_location.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    buffer_location.PlacedFootprint.Footprint = (D3D12_SUBRESOURCE_FOOTPRINT){DXGI_FORMAT_R32_UINT, 64, 16, 1, 256};
    memset(&texture_location, 0, sizeof(texture_location));
    texture_location.pResource = texture;
    texture_location.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    ID3D12GraphicsCommandList2_CopyTextureRegion(list.list, &buffer_location, 0, 0, 0, &texture_location, NULL);
    harness_execute_and_wait(device, queue, &list);
    CHECK_HR(ID3D12Resource_Map(readback, 0, NULL, (void **)&mapped), S_OK);
    for (unsigned i = 0; mapped && i < 64 * 16; i++)
        bad += mapped[i] != texels[i];
    ID3D12Resource_Unmap(readback, 0, NULL);
    CHECK_MSG(!bad, "a copy on the queue read %u texels other than WriteToSubresource wrote", bad);

    /* Now the queue writes and the CPU reads. */
    CHECK_HR(ID3D12Resource_Map(upload, 0, NULL, (void **)&mapped), S_OK);
    for (unsigned i = 0; mapped && i < 64 * 16; i++)
        mapped[i] = 0x7e000000u ^ (i * 7919u);
    ID3D12Resource_Unmap(upload, 0, NULL);
    CHECK_HR(ID3D12CommandAllocator_Reset(list.allocator), S_OK);
    CHECK_HR(ID3D12GraphicsCommandList2_Reset(list.list, list.allocator, NULL), S_OK);
    buffer_location.pResource = upload;
    ID3D12GraphicsCommandList2_CopyTextureRegion(list.list, &texture_location, 0, 0, 0, &buffer_location, NULL);
    harness_execute_and_wait(device, queue, &list);
    memset(texels, 0, sizeof(texels));
    CHECK_HR(ID3D12Resource_ReadFromSubresource(texture, texels, 256, 256 * 16, 0, NULL), S_OK);
    bad = 0;
    for (unsigned i = 0; i < 64 * 16; i++)
        bad += texels[i] != (0x7e000000u ^ (i * 7919u));
    CHECK_MSG(!bad, "ReadFromSubresource returned %u texels other than the queue's copy wrote", bad);

    ID3D12Resource_Release(upload);
    ID3D12Resource_Release(readback);
    ID3D12Resource_Release(texture);
    harness_release_list(&list);
}

/* A texture placed in a CPU-visible CUSTOM heap is reached the same way. */
static void test_placed(ID3D12Device *device)
{
    D3D12_RESOURCE_DESC desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R16G16_UNORM, 40, 40, 1, 1);
    D3D12_RESOURCE_ALLOCATION_INFO info = ID3D12Device_GetResourceAllocationInfo(device, 0, 1, &desc);
    D3D12_HEAP_DESC heap_desc = {info.SizeInBytes * 2, write_back, info.Alignment, D3D12_HEAP_FLAG_ALLOW_ONLY_NON_RT_DS_TEXTURES};
    ID3D12Resource *texture = NULL;
    ID3D12Heap *heap = NULL;
    uint8_t *source, result[160 * 40];

    HRESULT hr;
    LOG_MARK();

    CHECK_HR(ID3D12Device_CreateHeap(device, &heap_desc, &IID_ID3D12Heap, (void **)&heap), S_OK);
    if (!heap)
        return;
    /* A device may keep optimal images out of CPU-visible memory (the H200 does): then the
     * placement is refused with its line, and the committed textures above are the way. */
    hr = ID3D12Device_CreatePlacedResource(device, heap, info.SizeInBytes, &desc, D3D12_RESOURCE_STATE_COMMON, NULL,
            &IID_ID3D12Resource, (void **)&texture);
    if (hr == E_INVALIDARG) {
        CHECK_LOG("CreatePlacedResource", "cannot hold this texture on this device", "create the texture committed");
        CHECK(!texture);
        printf("placed texture in a CPU-visible heap: refused by this device (its memory type cannot hold the image)\n");
    } else {
        CHECK_HR(hr, S_OK);
    }
    if (texture) {
        source = make_source(0, 9, 160, 40, 1, 160, 160 * 40);
        CHECK_HR(ID3D12Resource_WriteToSubresource(texture, 0, NULL, source, 160, 160 * 40), S_OK);
        CHECK_HR(ID3D12Resource_ReadFromSubresource(texture, result, 160, 160 * 40, 0, NULL), S_OK);
        CHECK_MSG(!memcmp(source, result, sizeof(result)), "a placed texture in a CUSTOM heap does not read back what was written");
        free(source);
        ID3D12Resource_Release(texture);
    }
    ID3D12Heap_Release(heap);
}

static void test_bad_arguments(ID3D12Device *device)
{
    D3D12_RESOURCE_DESC desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, 2);
    D3D12_HEAP_PROPERTIES default_heap = {D3D12_HEAP_TYPE_DEFAULT, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    ID3D12Resource *texture = cpu_texture(device, &write_back, &desc), *gpu_only = NULL, *buffer;
    D3D12_HEAP_PROPERTIES properties;
    D3D12_HEAP_FLAGS flags;
    uint8_t data[16 * 16 * 4];
    void *address = (void *)data;
    D3D12_BOX box;
    LOG_MARK();

    if (!texture)
        return;
    memset(data, 0, sizeof(data));
    /* The application's heap properties come back as given, whatever memory backs the image. */
    CHECK_HR(ID3D12Resource_GetHeapProperties(texture, &properties, &flags), S_OK);
    CHECK(properties.Type == D3D12_HEAP_TYPE_CUSTOM && properties.CPUPageProperty == D3D12_CPU_PAGE_PROPERTY_WRITE_BACK
            && properties.MemoryPoolPreference == D3D12_MEMORY_POOL_L0);

    CHECK_HR(ID3D12Resource_Map(texture, 0, NULL, &address), E_INVALIDARG);
    CHECK_LOG("Map", "ppData", "UNKNOWN");
    CHECK(address == (void *)data); /* a failed Map leaves *ppData as it was */
    RELOG_MARK();
    CHECK_HR(ID3D12Resource_Map(texture, 2, NULL, NULL), E_INVALIDARG);
    CHECK_LOG("Map", "Subresource is 2");
    RELOG_MARK();
    CHECK_HR(ID3D12Resource_WriteToSubresource(texture, 0, NULL, NULL, 64, 1024), E_INVALIDARG);
    CHECK_LOG("WriteToSubresource", "pSrcData is NULL");
    RELOG_MARK();
    CHECK_HR(ID3D12Resource_ReadFromSubresource(texture, NULL, 64, 1024, 0, NULL), E_INVALIDARG);
    CHECK_LOG("ReadFromSubresource", "pDstData is NULL");
    RELOG_MARK();
    CHECK_HR(ID3D12Resource_WriteToSubresource(texture, 2, NULL, data, 64, 1024), E_INVALIDARG);
    CHECK_LOG("WriteToSubresource", "DstSubresource is 2");
    RELOG_MARK();
    box = (D3D12_BOX){0, 0, 0, 9, 8, 1}; /* mip 1 is 8x8 */
    CHECK_HR(ID3D12Resource_ReadFromSubresource(texture, data, 64, 1024, 1, &box), E_INVALIDARG);
    CHECK_LOG("ReadFromSubresource", "pSrcBox", "passes the end of subresource 1");
    RELOG_MARK();
    box = (D3D12_BOX){0, 0, 0, 4, 4, 2};
    CHECK_HR(ID3D12Resource_WriteToSubresource(texture, 0, &box, data, 64, 1024), E_INVALIDARG);
    CHECK_LOG("WriteToSubresource", "pDstBox");
    RELOG_MARK();

    /* Block-compressed boxes must fall on blocks. */
    {
        D3D12_RESOURCE_DESC bc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_BC3_UNORM, 16, 16, 1, 1);
        ID3D12Resource *compressed = cpu_texture(device, &write_back, &bc);
        box = (D3D12_BOX){2, 0, 0, 6, 4, 1};
        if (compressed) {
            CHECK_HR(ID3D12Resource_WriteToSubresource(compressed, 0, &box, data, 64, 1024), E_INVALIDARG);
            CHECK_LOG("WriteToSubresource", "blocks");
            ID3D12Resource_Release(compressed);
        }
        RELOG_MARK();
    }

    /* Multisampled: no sample of it is reachable from the CPU. */
    {
        D3D12_RESOURCE_DESC ms = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, 1);
        ID3D12Resource *multisampled = NULL;
        ms.SampleDesc.Count = 4;
        ms.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
        CHECK_HR(ID3D12Device_CreateCommittedResource(device, &write_back, D3D12_HEAP_FLAG_NONE, &ms, D3D12_RESOURCE_STATE_COMMON, NULL,
                &IID_ID3D12Resource, (void **)&multisampled), S_OK);
        if (multisampled) {
            CHECK_HR(ID3D12Resource_ReadFromSubresource(multisampled, data, 64, 1024, 0, NULL), E_INVALIDARG);
            CHECK_LOG("ReadFromSubresource", "multisampled", "SampleDesc.Count 4");
            ID3D12Resource_Release(multisampled);
        }
        RELOG_MARK();
    }

    /* A texture the CPU cannot reach, and a buffer. */
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &default_heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON, NULL,
            &IID_ID3D12Resource, (void **)&gpu_only), S_OK);
    if (gpu_only) {
        CHECK_HR(ID3D12Resource_WriteToSubresource(gpu_only, 0, NULL, data, 64, 1024), E_INVALIDARG);
        CHECK_LOG("WriteToSubresource", "CPU cannot access");
        RELOG_MARK();
        CHECK_HR(ID3D12Resource_Map(gpu_only, 0, NULL, NULL), E_INVALIDARG);
        CHECK_LOG("Map", "CPU cannot access");
        RELOG_MARK();
        ID3D12Resource_Release(gpu_only);
    }
    buffer = harness_create_buffer(device, D3D12_HEAP_TYPE_UPLOAD, 1024, D3D12_RESOURCE_STATE_GENERIC_READ);
    CHECK_HR(ID3D12Resource_ReadFromSubresource(buffer, data, 64, 1024, 0, NULL), E_INVALIDARG);
    CHECK_LOG("ReadFromSubresource", "is a buffer");
    ID3D12Resource_Release(buffer);

    /* Map with ppData NULL is how D3D12 code prepares the CPU access; Unmap balances it. */
    CHECK_HR(ID3D12Resource_Map(texture, 1, NULL, NULL), S_OK);
    ID3D12Resource_Unmap(texture, 1, NULL);
    ID3D12Resource_Release(texture);
}

int main(void)
{
    harness_init();
    ID3D12Device *device = harness_create_device();
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);

    test_round_trips(device);
    test_boxes(device);
    test_queue_sees_cpu(device, queue);
    test_placed(device);
    test_bad_arguments(device);

    ID3D12CommandQueue_Release(queue);
    harness_release_device(device);
    return harness_finish();
}
