/* Resources and heaps: committed buffers in every heap type, placed buffers in an ID3D12Heap,
 * Map/Unmap, GPU virtual addresses, descriptions, private data and COM plumbing; and the
 * creation arguments that break the rules. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static const GUID test_guid = {0x6b1c4e2a, 0x93d7, 0x4f51, {0x8a, 0x20, 0x3c, 0x11, 0x5e, 0x7d, 0x90, 0x42}};

static ID3D12Resource *create_committed(ID3D12Device *device, const D3D12_HEAP_PROPERTIES *properties, UINT64 size,
        D3D12_RESOURCE_STATES state)
{
    D3D12_RESOURCE_DESC desc = harness_buffer_desc(size);
    ID3D12Resource *resource = NULL;
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, properties, D3D12_HEAP_FLAG_NONE, &desc, state, NULL,
            &IID_ID3D12Resource, (void **)&resource), S_OK);
    CHECK(resource != NULL);
    return resource;
}

static D3D12_HEAP_PROPERTIES custom_properties(D3D12_CPU_PAGE_PROPERTY page, D3D12_MEMORY_POOL pool)
{
    D3D12_HEAP_PROPERTIES properties = harness_heap_properties(D3D12_HEAP_TYPE_CUSTOM);
    properties.CPUPageProperty = page;
    properties.MemoryPoolPreference = pool;
    return properties;
}

static void fill_words(void *data, size_t size, uint32_t seed)
{
    uint32_t *words = data;
    for (size_t i = 0; i < size / 4; i++)
        words[i] = seed * 0x9e3779b9u + (uint32_t)i * 2654435761u;
}

/* Copies size bytes of src (at src_offset) into a fresh readback buffer and returns its contents (malloc'd). */
static uint8_t *read_back(ID3D12Device *device, ID3D12CommandQueue *queue, ID3D12Resource *src, UINT64 src_offset, UINT64 size)
{
    ID3D12Resource *readback = harness_create_buffer(device, D3D12_HEAP_TYPE_READBACK, size, D3D12_RESOURCE_STATE_COPY_DEST);
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    uint8_t *result = malloc(size), *data = NULL;

    ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, readback, 0, src, src_offset, size);
    harness_execute_and_wait(device, queue, &list);
    CHECK_HR(ID3D12Resource_Map(readback, 0, NULL, (void **)&data), S_OK);
    if (data)
        memcpy(result, data, size);
    else
        memset(result, 0, size);
    ID3D12Resource_Unmap(readback, 0, NULL);
    harness_release_list(&list);
    ID3D12Resource_Release(readback);
    return result;
}

/* Writes a pattern through the mapped src, copies it through the GPU and compares. */
static void check_cpu_to_gpu(ID3D12Device *device, ID3D12CommandQueue *queue, ID3D12Resource *src, UINT64 size, uint32_t seed, const char *what)
{
    uint8_t *expected = malloc(size), *data = NULL, *result;
    fill_words(expected, size, seed);
    CHECK_HR(ID3D12Resource_Map(src, 0, NULL, (void **)&data), S_OK);
    if (data)
        memcpy(data, expected, size);
    ID3D12Resource_Unmap(src, 0, NULL);
    result = read_back(device, queue, src, 0, size);
    CHECK_MSG(!memcmp(result, expected, size), "%s: bytes written through Map did not reach the GPU copy", what);
    free(result);
    free(expected);
}

static void test_committed_heaps(ID3D12Device *device, ID3D12CommandQueue *queue)
{
    D3D12_HEAP_PROPERTIES properties, got;
    D3D12_HEAP_FLAGS flags;
    ID3D12Resource *upload, *readback, *def, *custom_wb, *custom_wc, *custom_l1;
    void *data = NULL;

    /* UPLOAD and READBACK map; DEFAULT does not. */
    properties = harness_heap_properties(D3D12_HEAP_TYPE_UPLOAD);
    upload = create_committed(device, &properties, 65536, D3D12_RESOURCE_STATE_GENERIC_READ);
    properties = harness_heap_properties(D3D12_HEAP_TYPE_READBACK);
    readback = create_committed(device, &properties, 65536, D3D12_RESOURCE_STATE_COPY_DEST);
    properties = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    def = create_committed(device, &properties, 65536, D3D12_RESOURCE_STATE_COMMON);
    check_cpu_to_gpu(device, queue, upload, 65536, 1, "UPLOAD");

    /* upload -> default -> readback, checked through the readback mapping. */
    {
        struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        uint8_t expected[256];
        D3D12_RESOURCE_BARRIER barrier;
        fill_words(expected, sizeof(expected), 1);
        ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, def, 4096, upload, 0, sizeof(expected));
        memset(&barrier, 0, sizeof(barrier));
        barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
        barrier.Transition.pResource = def;
        barrier.Transition.StateBefore = D3D12_RESOURCE_STATE_COPY_DEST;
        barrier.Transition.StateAfter = D3D12_RESOURCE_STATE_COPY_SOURCE;
        ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
        ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, readback, 100 * 4, def, 4096, sizeof(expected));
        harness_execute_and_wait(device, queue, &list);
        harness_release_list(&list);
        CHECK_HR(ID3D12Resource_Map(readback, 0, NULL, &data), S_OK);
        CHECK_MSG(data && !memcmp((uint8_t *)data + 400, expected, sizeof(expected)), "UPLOAD -> DEFAULT -> READBACK bytes differ");
        ID3D12Resource_Unmap(readback, 0, NULL);
    }

    {
        LOG_MARK();
        data = (void *)1;
        CHECK_HR(ID3D12Resource_Map(def, 0, NULL, &data), E_INVALIDARG);
        CHECK_LOG("Map", "CPU cannot access");
        CHECK(data == (void *)1); /* a failed Map leaves *ppData as it was, as on Windows */
    }

    /* GetHeapProperties round-trips the heap type; zero node masks read back as 1. */
    memset(&got, 0xcc, sizeof(got));
    CHECK_HR(ID3D12Resource_GetHeapProperties(def, &got, &flags), S_OK);
    CHECK(got.Type == D3D12_HEAP_TYPE_DEFAULT);
    CHECK(got.CPUPageProperty == D3D12_CPU_PAGE_PROPERTY_UNKNOWN && got.MemoryPoolPreference == D3D12_MEMORY_POOL_UNKNOWN);
    CHECK_MSG(got.CreationNodeMask == 1 && got.VisibleNodeMask == 1, "node masks are %u/%u, expected 1/1",
            got.CreationNodeMask, got.VisibleNodeMask);
    CHECK(flags == D3D12_HEAP_FLAG_NONE);
    CHECK_HR(ID3D12Resource_GetHeapProperties(upload, &got, NULL), S_OK);
    CHECK(got.Type == D3D12_HEAP_TYPE_UPLOAD);
    flags = (D3D12_HEAP_FLAGS)0x1234;
    CHECK_HR(ID3D12Resource_GetHeapProperties(readback, NULL, &flags), S_OK);
    CHECK(flags == D3D12_HEAP_FLAG_NONE);
    {
        LOG_MARK();
        CHECK_HR(ID3D12Resource_GetHeapProperties(readback, NULL, NULL), E_INVALIDARG);
        CHECK_LOG("GetHeapProperties", "pHeapProperties and pHeapFlags");
    }

    /* CUSTOM: WRITE_BACK/WRITE_COMBINE in L0 map, NOT_AVAILABLE in L1 does not. */
    properties = custom_properties(D3D12_CPU_PAGE_PROPERTY_WRITE_BACK, D3D12_MEMORY_POOL_L0);
    custom_wb = create_committed(device, &properties, 8192, D3D12_RESOURCE_STATE_COMMON);
    check_cpu_to_gpu(device, queue, custom_wb, 8192, 2, "CUSTOM WRITE_BACK L0");
    CHECK_HR(ID3D12Resource_GetHeapProperties(custom_wb, &got, NULL), S_OK);
    CHECK(got.Type == D3D12_HEAP_TYPE_CUSTOM && got.CPUPageProperty == D3D12_CPU_PAGE_PROPERTY_WRITE_BACK
            && got.MemoryPoolPreference == D3D12_MEMORY_POOL_L0);
    properties = custom_properties(D3D12_CPU_PAGE_PROPERTY_WRITE_COMBINE, D3D12_MEMORY_POOL_L0);
    custom_wc = create_committed(device, &properties, 4096, D3D12_RESOURCE_STATE_COMMON);
    check_cpu_to_gpu(device, queue, custom_wc, 4096, 3, "CUSTOM WRITE_COMBINE L0");
    properties = custom_properties(D3D12_CPU_PAGE_PROPERTY_NOT_AVAILABLE, D3D12_MEMORY_POOL_L1);
    custom_l1 = create_committed(device, &properties, 4096, D3D12_RESOURCE_STATE_COMMON);
    {
        LOG_MARK();
        CHECK_HR(ID3D12Resource_Map(custom_l1, 0, NULL, &data), E_INVALIDARG);
        CHECK_LOG("Map", "CPU cannot access");
    }
    /* The L1 buffer still works as a GPU copy target. */
    {
        struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        uint8_t expected[4096], *result;
        fill_words(expected, sizeof(expected), 3);
        ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, custom_l1, 0, custom_wc, 0, 4096);
        harness_execute_and_wait(device, queue, &list);
        harness_release_list(&list);
        result = read_back(device, queue, custom_l1, 0, 4096);
        CHECK_MSG(!memcmp(result, expected, 4096), "copy through a CUSTOM NOT_AVAILABLE L1 buffer differs");
        free(result);
    }

    ID3D12Resource_Release(upload);
    ID3D12Resource_Release(readback);
    ID3D12Resource_Release(def);
    ID3D12Resource_Release(custom_wb);
    ID3D12Resource_Release(custom_wc);
    ID3D12Resource_Release(custom_l1);
}

static void test_map_unmap(ID3D12Device *device)
{
    ID3D12Resource *upload = harness_create_buffer(device, D3D12_HEAP_TYPE_UPLOAD, 1000, D3D12_RESOURCE_STATE_GENERIC_READ);
    void *first = NULL, *second = NULL, *third = NULL;
    D3D12_RANGE range;

    CHECK_HR(ID3D12Resource_Map(upload, 0, NULL, &first), S_OK);
    CHECK(first != NULL);
    /* Nested Map gives the same pointer. */
    range.Begin = 0, range.End = 0; /* an empty range: the CPU reads nothing */
    CHECK_HR(ID3D12Resource_Map(upload, 0, &range, &second), S_OK);
    CHECK(second == first);
    memset(first, 0x5a, 1000);
    range.Begin = 0, range.End = 1000;
    ID3D12Resource_Unmap(upload, 0, &range);
    ID3D12Resource_Unmap(upload, 0, NULL);
    /* Mapping again later still gives the same pointer, and the bytes are kept. */
    range.Begin = 10, range.End = 1000;
    CHECK_HR(ID3D12Resource_Map(upload, 0, &range, &third), S_OK);
    CHECK(third == first);
    CHECK(third && ((uint8_t *)third)[999] == 0x5a && ((uint8_t *)third)[0] == 0x5a);
    ID3D12Resource_Unmap(upload, 0, NULL);
    /* ppData NULL is allowed: it only pins the mapping. */
    CHECK_HR(ID3D12Resource_Map(upload, 0, NULL, NULL), S_OK);
    ID3D12Resource_Unmap(upload, 0, NULL);

    {
        LOG_MARK();
        /* A read range past the end is the debug layer's to report: a warning, and the map works. */
        size_t warnings = harness_warning_count();
        range.Begin = 0, range.End = 1001;
        CHECK_HR(ID3D12Resource_Map(upload, 0, &range, &second), S_OK);
        CHECK(second != NULL);
        CHECK_DEBUG_WARNINGS(warnings, 1, "pReadRange");
        ID3D12Resource_Unmap(upload, 0, NULL);
        CHECK_NO_LOG();
        /* End <= Begin is D3D12's "the CPU reads nothing", even past the end. */
        range.Begin = 2000, range.End = 10;
        CHECK_HR(ID3D12Resource_Map(upload, 0, &range, &second), S_OK);
        CHECK(second != NULL);
        ID3D12Resource_Unmap(upload, 0, NULL);
        CHECK_NO_LOG();
        RELOG_MARK();
        CHECK_HR(ID3D12Resource_Map(upload, 1, NULL, &second), E_INVALIDARG);
        CHECK_LOG("Map", "Subresource is 1");
        /* None of the failed Maps counted: Unmap without a Map warns (Unmap cannot fail: its misuse
         * is the debug layer's to report). */
        RELOG_MARK();
        warnings = harness_warning_count();
        ID3D12Resource_Unmap(upload, 0, NULL);
        CHECK_DEBUG_WARNINGS(warnings, 1, "not mapped");
        ID3D12Resource_Unmap(upload, 1, NULL);
        CHECK_DEBUG_WARNINGS(warnings, 2, "Subresource is 1");
        CHECK_HR(ID3D12Resource_Map(upload, 0, NULL, NULL), S_OK);
        range.Begin = 0, range.End = 2000;
        ID3D12Resource_Unmap(upload, 0, &range);
        CHECK_DEBUG_WARNINGS(warnings, 3, "pWrittenRange");
        /* That Unmap still unmapped: another one warns. */
        ID3D12Resource_Unmap(upload, 0, NULL);
        CHECK_DEBUG_WARNINGS(warnings, 4, "not mapped");
        CHECK_NO_LOG();
    }
    ID3D12Resource_Release(upload);
}

static void test_gpu_addresses(ID3D12Device *device)
{
    enum { COUNT = 6 };
    static const D3D12_HEAP_TYPE types[COUNT] = {D3D12_HEAP_TYPE_DEFAULT, D3D12_HEAP_TYPE_UPLOAD, D3D12_HEAP_TYPE_READBACK,
            D3D12_HEAP_TYPE_DEFAULT, D3D12_HEAP_TYPE_UPLOAD, D3D12_HEAP_TYPE_DEFAULT};
    static const UINT64 sizes[COUNT] = {4, 65536, 65537, 3 << 20, 12, 256};
    static const D3D12_RESOURCE_STATES states[] = {D3D12_RESOURCE_STATE_COMMON, D3D12_RESOURCE_STATE_GENERIC_READ, D3D12_RESOURCE_STATE_COPY_DEST};
    ID3D12Resource *resources[COUNT];
    D3D12_GPU_VIRTUAL_ADDRESS va[COUNT];

    for (int i = 0; i < COUNT; i++) {
        resources[i] = harness_create_buffer(device, types[i], sizes[i], states[types[i] - 1]);
        va[i] = ID3D12Resource_GetGPUVirtualAddress(resources[i]);
        CHECK_MSG(va[i] != 0, "resource %d has GPU VA 0", i);
        CHECK_MSG(va[i] % 65536 == 0, "committed resource %d has VA 0x%llx, not 64 KiB aligned", i, (unsigned long long)va[i]);
    }
    for (int i = 0; i < COUNT; i++)
        for (int j = i + 1; j < COUNT; j++)
            CHECK_MSG(va[i] + sizes[i] <= va[j] || va[j] + sizes[j] <= va[i], "resources %d and %d have overlapping VA ranges", i, j);
    /* Releasing one leaves the others' addresses as they were; a new one gets a fresh range. */
    ID3D12Resource_Release(resources[2]);
    resources[2] = harness_create_buffer(device, D3D12_HEAP_TYPE_READBACK, 65537, D3D12_RESOURCE_STATE_COPY_DEST);
    for (int i = 0; i < COUNT; i++)
        if (i != 2)
            CHECK_MSG(ID3D12Resource_GetGPUVirtualAddress(resources[i]) == va[i], "resource %d VA changed", i);
    {
        D3D12_GPU_VIRTUAL_ADDRESS fresh = ID3D12Resource_GetGPUVirtualAddress(resources[2]);
        bool distinct = fresh != 0 && fresh % 65536 == 0;
        for (int i = 0; i < COUNT; i++)
            if (i != 2)
                distinct = distinct && (fresh + sizes[2] <= va[i] || va[i] + sizes[i] <= fresh);
        CHECK_MSG(distinct, "the new resource's VA 0x%llx overlaps a live one", (unsigned long long)fresh);
    }
    for (int i = 0; i < COUNT; i++)
        ID3D12Resource_Release(resources[i]);
}

static void test_desc_round_trip(ID3D12Device *device)
{
    D3D12_HEAP_PROPERTIES properties = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    D3D12_RESOURCE_DESC desc = harness_buffer_desc(12345), got;
    ID3D12Resource *resource = NULL;

    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &properties, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_UNORDERED_ACCESS,
            NULL, &IID_ID3D12Resource, (void **)&resource), S_OK);
    got = ID3D12Resource_GetDesc(resource);
    CHECK(got.Dimension == D3D12_RESOURCE_DIMENSION_BUFFER);
    CHECK(got.Width == 12345 && got.Height == 1 && got.DepthOrArraySize == 1 && got.MipLevels == 1);
    CHECK(got.Format == DXGI_FORMAT_UNKNOWN && got.SampleDesc.Count == 1 && got.SampleDesc.Quality == 0);
    CHECK(got.Layout == D3D12_TEXTURE_LAYOUT_ROW_MAJOR && got.Flags == D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS);
    /* Alignment 0 means "the default": buffers report 64 KiB. */
    CHECK(got.Alignment == D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT);
    ID3D12Resource_Release(resource);

    desc = harness_buffer_desc(64);
    desc.Alignment = D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT;
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &properties, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON,
            NULL, &IID_ID3D12Resource, (void **)&resource), S_OK);
    got = ID3D12Resource_GetDesc(resource);
    CHECK(!memcmp(&got, &desc, sizeof(desc)));
    ID3D12Resource_Release(resource);
}

static void test_placed(ID3D12Device *device, ID3D12CommandQueue *queue)
{
    D3D12_HEAP_DESC heap_desc, got_heap_desc;
    D3D12_RESOURCE_DESC desc = harness_buffer_desc(65536);
    D3D12_HEAP_PROPERTIES properties;
    ID3D12Heap *upload_heap = NULL, *default_heap = NULL;
    ID3D12Resource *a = NULL, *b = NULL, *c = NULL, *d = NULL;
    D3D12_GPU_VIRTUAL_ADDRESS heap_va_a, va_b, va_d;
    uint8_t *map_a = NULL, *map_b = NULL, *result;
    uint8_t expected_a[65536], expected_b[1000];
    D3D12_HEAP_FLAGS flags;

    memset(&heap_desc, 0, sizeof(heap_desc));
    heap_desc.SizeInBytes = 4 * 65536;
    heap_desc.Properties = harness_heap_properties(D3D12_HEAP_TYPE_UPLOAD);
    heap_desc.Flags = D3D12_HEAP_FLAG_ALLOW_ONLY_BUFFERS;
    CHECK_HR(ID3D12Device_CreateHeap(device, &heap_desc, &IID_ID3D12Heap, (void **)&upload_heap), S_OK);
    got_heap_desc = ID3D12Heap_GetDesc(upload_heap);
    CHECK(got_heap_desc.SizeInBytes == heap_desc.SizeInBytes && got_heap_desc.Properties.Type == D3D12_HEAP_TYPE_UPLOAD);
    CHECK(got_heap_desc.Alignment == D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT && got_heap_desc.Flags == heap_desc.Flags);
    CHECK_MSG(got_heap_desc.Properties.CreationNodeMask == 1 && got_heap_desc.Properties.VisibleNodeMask == 1,
            "heap node masks are %u/%u, expected 1/1", got_heap_desc.Properties.CreationNodeMask, got_heap_desc.Properties.VisibleNodeMask);

    /* Two placed buffers at different 64 KiB offsets. */
    CHECK_HR(ID3D12Device_CreatePlacedResource(device, upload_heap, 65536, &desc, D3D12_RESOURCE_STATE_GENERIC_READ, NULL,
            &IID_ID3D12Resource, (void **)&a), S_OK);
    desc.Width = 1000;
    CHECK_HR(ID3D12Device_CreatePlacedResource(device, upload_heap, 3 * 65536, &desc, D3D12_RESOURCE_STATE_GENERIC_READ, NULL,
            &IID_ID3D12Resource, (void **)&b), S_OK);
    CHECK(a && b);
    /* Placed VAs are heap-relative: one heap address plus the offset. */
    heap_va_a = ID3D12Resource_GetGPUVirtualAddress(a) - 65536;
    va_b = ID3D12Resource_GetGPUVirtualAddress(b);
    CHECK_MSG(ID3D12Resource_GetGPUVirtualAddress(a) != 0 && va_b == heap_va_a + 3 * 65536,
            "placed VAs 0x%llx and 0x%llx are not one heap base plus offsets", (unsigned long long)ID3D12Resource_GetGPUVirtualAddress(a),
            (unsigned long long)va_b);
    CHECK_HR(ID3D12Resource_GetHeapProperties(b, &properties, &flags), S_OK);
    CHECK(properties.Type == D3D12_HEAP_TYPE_UPLOAD && flags == D3D12_HEAP_FLAG_ALLOW_ONLY_BUFFERS);
    CHECK(ID3D12Resource_GetDesc(b).Width == 1000);

    /* Both map, to memory 128 KiB apart; writes through each reach the GPU through its own buffer. */
    CHECK_HR(ID3D12Resource_Map(a, 0, NULL, (void **)&map_a), S_OK);
    CHECK_HR(ID3D12Resource_Map(b, 0, NULL, (void **)&map_b), S_OK);
    CHECK_MSG(map_a && map_b && map_b - map_a == 2 * 65536, "placed mappings are %p and %p, expected 128 KiB apart", (void *)map_a, (void *)map_b);
    fill_words(expected_a, sizeof(expected_a), 10);
    fill_words(expected_b, sizeof(expected_b), 11);
    if (map_a && map_b) {
        memcpy(map_a, expected_a, sizeof(expected_a));
        memcpy(map_b, expected_b, sizeof(expected_b));
    }
    ID3D12Resource_Unmap(a, 0, NULL);
    ID3D12Resource_Unmap(b, 0, NULL);
    result = read_back(device, queue, a, 0, sizeof(expected_a));
    CHECK_MSG(!memcmp(result, expected_a, sizeof(expected_a)), "placed buffer A: GPU copy differs from what was written");
    free(result);
    result = read_back(device, queue, b, 0, sizeof(expected_b));
    CHECK_MSG(!memcmp(result, expected_b, sizeof(expected_b)), "placed buffer B: GPU copy differs from what was written");
    free(result);

    /* A placed buffer in a DEFAULT heap: copy into it, out of it, and WriteBufferImmediate by its VA. */
    heap_desc.Properties = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    heap_desc.Flags = D3D12_HEAP_FLAG_NONE;
    CHECK_HR(ID3D12Device_CreateHeap(device, &heap_desc, &IID_ID3D12Heap, (void **)&default_heap), S_OK);
    desc.Width = 4096;
    CHECK_HR(ID3D12Device_CreatePlacedResource(device, default_heap, 2 * 65536, &desc, D3D12_RESOURCE_STATE_COPY_DEST, NULL,
            &IID_ID3D12Resource, (void **)&d), S_OK);
    CHECK_HR(ID3D12Device_CreatePlacedResource(device, default_heap, 0, &desc, D3D12_RESOURCE_STATE_COMMON, NULL,
            &IID_ID3D12Resource, (void **)&c), S_OK);
    va_d = ID3D12Resource_GetGPUVirtualAddress(d);
    CHECK(ID3D12Resource_GetGPUVirtualAddress(c) + 2 * 65536 == va_d);
    {
        struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        D3D12_WRITEBUFFERIMMEDIATE_PARAMETER parameter = {va_d + 4000, 0xfeedf00d};
        D3D12_RESOURCE_BARRIER barrier;
        uint32_t word;
        ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, d, 0, a, 0, 4096);
        memset(&barrier, 0, sizeof(barrier));
        barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
        ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
        ID3D12GraphicsCommandList2_WriteBufferImmediate(list.list, 1, &parameter, NULL);
        harness_execute_and_wait(device, queue, &list);
        harness_release_list(&list);
        result = read_back(device, queue, d, 0, 4096);
        memcpy(&word, result + 4000, 4);
        CHECK_MSG(!memcmp(result, expected_a, 4000) && word == 0xfeedf00d && !memcmp(result + 4004, expected_a + 4004, 92),
                "placed DEFAULT buffer: copy plus WriteBufferImmediate by its VA gave wrong bytes");
        free(result);
    }

    /* Placed resources keep their heap alive privately: its public count stays the application's,
     * as in D3D12, and the resources work after the application lets go of the heap. */
    CHECK(ID3D12Heap_AddRef(upload_heap) == 2);
    CHECK(ID3D12Heap_Release(upload_heap) == 1);
    CHECK(ID3D12Heap_Release(upload_heap) == 0);
    CHECK(map_a && map_a[0] == expected_a[0] && ID3D12Resource_GetGPUVirtualAddress(a) != 0);

    ID3D12Resource_Release(a);
    ID3D12Resource_Release(b);
    ID3D12Resource_Release(c);
    ID3D12Resource_Release(d);
    CHECK(ID3D12Heap_Release(default_heap) == 0);
}

static void test_bad_creation(ID3D12Device *device)
{
    D3D12_HEAP_PROPERTIES properties = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    D3D12_RESOURCE_DESC desc = harness_buffer_desc(256);
    D3D12_HEAP_DESC heap_desc;
    ID3D12Resource *resource = (ID3D12Resource *)(uintptr_t)0xdeadbeef;
    ID3D12Heap *heap = NULL, *deny_heap = NULL, *bad_heap = (ID3D12Heap *)(uintptr_t)0xdeadbeef;
    LOG_MARK();

#define COMMITTED(props, flags, d, state) ID3D12Device_CreateCommittedResource(device, props, flags, d, state, NULL, &IID_ID3D12Resource, (void **)&resource)

    CHECK_HR(COMMITTED(&properties, D3D12_HEAP_FLAG_NONE, NULL, D3D12_RESOURCE_STATE_COMMON), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource", "pDesc is NULL");
    CHECK(resource == NULL);
    RELOG_MARK();
    CHECK_HR(COMMITTED(NULL, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource", "pHeapProperties is NULL");
    RELOG_MARK();
    desc.Width = 0;
    CHECK_HR(COMMITTED(&properties, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource", "Width is 0");
    desc.Width = 256;
    RELOG_MARK();
    {
        D3D12_RESOURCE_DESC texture = desc;
        texture.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
        /* Textures (test_texture.c): one described with a buffer's ROW_MAJOR layout is refused. */
        texture.Width = 64, texture.Height = 64, texture.Format = DXGI_FORMAT_R8G8B8A8_UNORM, texture.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
        CHECK_HR(COMMITTED(&properties, D3D12_HEAP_FLAG_NONE, &texture, D3D12_RESOURCE_STATE_COMMON), E_INVALIDARG);
        CHECK_LOG("CreateCommittedResource", "ROW_MAJOR");
        RELOG_MARK();
        texture.Dimension = (D3D12_RESOURCE_DIMENSION)77;
        CHECK_HR(COMMITTED(&properties, D3D12_HEAP_FLAG_NONE, &texture, D3D12_RESOURCE_STATE_COMMON), E_INVALIDARG);
        CHECK_LOG("CreateCommittedResource", "Dimension is 77");
    }
    RELOG_MARK();
    desc.Alignment = 4096;
    CHECK_HR(COMMITTED(&properties, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource", "Alignment is 4096");
    desc.Alignment = 0;
    RELOG_MARK();
    desc.Format = DXGI_FORMAT_R32_FLOAT;
    CHECK_HR(COMMITTED(&properties, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource", "Format");
    desc.Format = DXGI_FORMAT_UNKNOWN;
    RELOG_MARK();
    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL; /* buffers may be render targets (buffer RTVs), never depth buffers */
    CHECK_HR(COMMITTED(&properties, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource", "Flags", "depth-stencil");
    desc.Flags = D3D12_RESOURCE_FLAG_NONE;

    /* Initial states the heap type does not allow. */
    RELOG_MARK();
    properties = harness_heap_properties(D3D12_HEAP_TYPE_UPLOAD);
    CHECK_HR(COMMITTED(&properties, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COPY_DEST), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource", "InitialResourceState", "GENERIC_READ");
    RELOG_MARK();
    properties = harness_heap_properties(D3D12_HEAP_TYPE_READBACK);
    CHECK_HR(COMMITTED(&properties, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_GENERIC_READ), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource", "InitialResourceState", "COPY_DEST");

    /* Heap properties. */
    RELOG_MARK();
    properties = custom_properties(D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_L0);
    CHECK_HR(COMMITTED(&properties, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource", "CPUPageProperty");
    RELOG_MARK();
    properties = custom_properties(D3D12_CPU_PAGE_PROPERTY_WRITE_BACK, D3D12_MEMORY_POOL_UNKNOWN);
    CHECK_HR(COMMITTED(&properties, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource", "MemoryPoolPreference");
    RELOG_MARK();
    properties = custom_properties(D3D12_CPU_PAGE_PROPERTY_WRITE_BACK, D3D12_MEMORY_POOL_L1);
    CHECK_HR(COMMITTED(&properties, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource", "L1", "NOT_AVAILABLE");
    RELOG_MARK();
    properties = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    properties.CPUPageProperty = D3D12_CPU_PAGE_PROPERTY_WRITE_BACK;
    CHECK_HR(COMMITTED(&properties, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource", "CPUPageProperty", "CUSTOM");
    RELOG_MARK();
    properties = harness_heap_properties((D3D12_HEAP_TYPE)9);
    CHECK_HR(COMMITTED(&properties, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource", "Type is 9");
    RELOG_MARK();
    properties = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    properties.VisibleNodeMask = 2;
    CHECK_HR(COMMITTED(&properties, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource", "node mask");
    RELOG_MARK();
    properties = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    CHECK_HR(COMMITTED(&properties, D3D12_HEAP_FLAG_DENY_BUFFERS, &desc, D3D12_RESOURCE_STATE_COMMON), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource", "HeapFlags", "deny buffers");
    RELOG_MARK();
    {
        D3D12_CLEAR_VALUE clear;
        memset(&clear, 0, sizeof(clear));
        CHECK_HR(ID3D12Device_CreateCommittedResource(device, &properties, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON,
                &clear, &IID_ID3D12Resource, (void **)&resource), E_INVALIDARG);
        CHECK_LOG("CreateCommittedResource", "pOptimizedClearValue");
    }
    RELOG_MARK();
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &properties, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON,
            NULL, NULL, (void **)&resource), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource", "riid is NULL");
    CHECK(resource == NULL);

    /* A NULL out pointer only checks the arguments. */
    RELOG_MARK();
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &properties, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON,
            NULL, &IID_ID3D12Resource, NULL), S_FALSE);
    CHECK_NO_LOG();
    RELOG_MARK();
    desc.Width = 0;
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &properties, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON,
            NULL, &IID_ID3D12Resource, NULL), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource", "Width is 0");
    desc.Width = 256;
    /* An interface a resource does not have. */
    RELOG_MARK();
    resource = (ID3D12Resource *)(uintptr_t)0xdeadbeef;
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &properties, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON,
            NULL, &IID_ID3D12Fence, (void **)&resource), E_NOINTERFACE);
    CHECK(resource == NULL);
    CHECK_LOG("riid names an interface");

    /* Heaps. */
    memset(&heap_desc, 0, sizeof(heap_desc));
    heap_desc.SizeInBytes = 2 * 65536;
    heap_desc.Properties = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    RELOG_MARK();
    CHECK_HR(ID3D12Device_CreateHeap(device, NULL, &IID_ID3D12Heap, (void **)&bad_heap), E_INVALIDARG);
    CHECK_LOG("CreateHeap", "pDesc is NULL");
    CHECK(bad_heap == NULL);
    RELOG_MARK();
    heap_desc.SizeInBytes = 0;
    CHECK_HR(ID3D12Device_CreateHeap(device, &heap_desc, &IID_ID3D12Heap, (void **)&bad_heap), E_INVALIDARG);
    CHECK_LOG("CreateHeap", "SizeInBytes is 0");
    heap_desc.SizeInBytes = 2 * 65536;
    RELOG_MARK();
    heap_desc.Alignment = 4096;
    CHECK_HR(ID3D12Device_CreateHeap(device, &heap_desc, &IID_ID3D12Heap, (void **)&bad_heap), E_INVALIDARG);
    CHECK_LOG("CreateHeap", "Alignment is 4096");
    RELOG_MARK();
    heap_desc.Alignment = 3 * 65536;
    CHECK_HR(ID3D12Device_CreateHeap(device, &heap_desc, &IID_ID3D12Heap, (void **)&bad_heap), E_INVALIDARG);
    CHECK_LOG("CreateHeap", "Alignment");
    heap_desc.Alignment = 0;
    RELOG_MARK();
    heap_desc.Properties = custom_properties(D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_L0);
    CHECK_HR(ID3D12Device_CreateHeap(device, &heap_desc, &IID_ID3D12Heap, (void **)&bad_heap), E_INVALIDARG);
    CHECK_LOG("CreateHeap", "CPUPageProperty");
    heap_desc.Properties = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    RELOG_MARK();
    heap_desc.Flags = (D3D12_HEAP_FLAGS)0x80000;
    CHECK_HR(ID3D12Device_CreateHeap(device, &heap_desc, &IID_ID3D12Heap, (void **)&bad_heap), E_INVALIDARG);
    CHECK_LOG("CreateHeap", "Flags");
    heap_desc.Flags = D3D12_HEAP_FLAG_NONE;
    /* 4 MiB alignment is allowed. */
    RELOG_MARK();
    heap_desc.Alignment = D3D12_DEFAULT_MSAA_RESOURCE_PLACEMENT_ALIGNMENT;
    CHECK_HR(ID3D12Device_CreateHeap(device, &heap_desc, &IID_ID3D12Heap, (void **)&heap), S_OK);
    CHECK(heap && ID3D12Heap_GetDesc(heap).Alignment == D3D12_DEFAULT_MSAA_RESOURCE_PLACEMENT_ALIGNMENT);
    heap_desc.Alignment = 0;
    heap_desc.Flags = D3D12_HEAP_FLAG_DENY_BUFFERS;
    CHECK_HR(ID3D12Device_CreateHeap(device, &heap_desc, &IID_ID3D12Heap, (void **)&deny_heap), S_OK);
    CHECK_NO_LOG();

#define PLACED(h, offset, d, state) ID3D12Device_CreatePlacedResource(device, h, offset, d, state, NULL, &IID_ID3D12Resource, (void **)&resource)
    RELOG_MARK();
    CHECK_HR(PLACED(NULL, 0, &desc, D3D12_RESOURCE_STATE_COMMON), E_INVALIDARG);
    CHECK_LOG("CreatePlacedResource", "pHeap is NULL");
    RELOG_MARK();
    CHECK_HR(PLACED(heap, 4096, &desc, D3D12_RESOURCE_STATE_COMMON), E_INVALIDARG);
    CHECK_LOG("CreatePlacedResource", "HeapOffset 4096", "65536");
    RELOG_MARK();
    CHECK_HR(PLACED(heap, 2 * 65536, &desc, D3D12_RESOURCE_STATE_COMMON), E_INVALIDARG);
    CHECK_LOG("CreatePlacedResource", "passes the end");
    RELOG_MARK();
    desc.Width = 65537;
    CHECK_HR(PLACED(heap, 65536, &desc, D3D12_RESOURCE_STATE_COMMON), E_INVALIDARG);
    CHECK_LOG("CreatePlacedResource", "passes the end");
    RELOG_MARK();
    CHECK_HR(PLACED(heap, UINT64_MAX - 65535, &desc, D3D12_RESOURCE_STATE_COMMON), E_INVALIDARG);
    CHECK_LOG("CreatePlacedResource", "passes the end");
    desc.Width = 256;
    RELOG_MARK();
    CHECK_HR(PLACED(deny_heap, 0, &desc, D3D12_RESOURCE_STATE_COMMON), E_INVALIDARG);
    CHECK_LOG("CreatePlacedResource", "DENY_BUFFERS");
    RELOG_MARK();
    CHECK_HR(PLACED(heap, 0, NULL, D3D12_RESOURCE_STATE_COMMON), E_INVALIDARG);
    CHECK_LOG("CreatePlacedResource", "pDesc is NULL");
    RELOG_MARK();
    desc.Width = 0;
    CHECK_HR(PLACED(heap, 0, &desc, D3D12_RESOURCE_STATE_COMMON), E_INVALIDARG);
    CHECK_LOG("CreatePlacedResource", "Width is 0");
    desc.Width = 256;
    /* The last byte of the heap is fine; NULL out pointer checks only. */
    RELOG_MARK();
    desc.Width = 65536;
    CHECK_HR(ID3D12Device_CreatePlacedResource(device, heap, 65536, &desc, D3D12_RESOURCE_STATE_COMMON, NULL, &IID_ID3D12Resource, NULL), S_FALSE);
    CHECK_HR(PLACED(heap, 65536, &desc, D3D12_RESOURCE_STATE_COMMON), S_OK);
    CHECK_NO_LOG();
    if (resource)
        ID3D12Resource_Release(resource);
    desc.Width = 256;
#undef PLACED
#undef COMMITTED

    ID3D12Heap_Release(heap);
    ID3D12Heap_Release(deny_heap);
}

static void test_placed_initial_state(ID3D12Device *device)
{
    D3D12_HEAP_DESC heap_desc;
    D3D12_RESOURCE_DESC desc = harness_buffer_desc(256);
    ID3D12Heap *heap = NULL;
    ID3D12Resource *resource = NULL;
    LOG_MARK();

    memset(&heap_desc, 0, sizeof(heap_desc));
    heap_desc.SizeInBytes = 65536;
    heap_desc.Properties = harness_heap_properties(D3D12_HEAP_TYPE_READBACK);
    CHECK_HR(ID3D12Device_CreateHeap(device, &heap_desc, &IID_ID3D12Heap, (void **)&heap), S_OK);
    CHECK_HR(ID3D12Device_CreatePlacedResource(device, heap, 0, &desc, D3D12_RESOURCE_STATE_COMMON, NULL, &IID_ID3D12Resource,
            (void **)&resource), E_INVALIDARG);
    CHECK_LOG("CreatePlacedResource", "InitialResourceState", "COPY_DEST");
    CHECK(resource == NULL);
    ID3D12Heap_Release(heap);
}

static void test_object_plumbing(ID3D12Device *device)
{
    ID3D12Resource *resource = harness_create_buffer(device, D3D12_HEAP_TYPE_DEFAULT, 256, D3D12_RESOURCE_STATE_COMMON);
    ID3D12Pageable *pageable = NULL;
    ID3D12Object *object = NULL;
    ID3D12DeviceChild *child = NULL;
    ID3D12Device *parent = NULL;
    ID3D12Fence *fence = (ID3D12Fence *)(uintptr_t)0xdeadbeef;
    uint32_t data[3] = {1, 2, 3}, got[4] = {0};
    UINT size;
    void *mapped;
    LOG_MARK();

    CHECK_HR(ID3D12Resource_QueryInterface(resource, &IID_ID3D12Pageable, (void **)&pageable), S_OK);
    CHECK((void *)pageable == (void *)resource);
    CHECK_HR(ID3D12Resource_QueryInterface(resource, &IID_ID3D12Object, (void **)&object), S_OK);
    CHECK((void *)object == (void *)resource);
    CHECK_HR(ID3D12Resource_QueryInterface(resource, &IID_ID3D12DeviceChild, (void **)&child), S_OK);
    CHECK_HR(ID3D12Resource_QueryInterface(resource, &IID_ID3D12Fence, (void **)&fence), E_NOINTERFACE);
    CHECK(fence == NULL);
    CHECK_NO_LOG();
    /* Each successful QueryInterface took a reference: three plus the creator's. */
    ID3D12Resource_AddRef(resource);
    CHECK(ID3D12Resource_Release(resource) == 4);
    ID3D12Pageable_Release(pageable);
    ID3D12Object_Release(object);
    ID3D12DeviceChild_Release(child);

    CHECK_HR(ID3D12Resource_GetDevice(resource, &IID_ID3D12Device, (void **)&parent), S_OK);
    CHECK(parent == device);
    if (parent)
        ID3D12Device_Release(parent);

    /* Private data round trip, size query, too-small buffer, unknown GUID, removal. */
    CHECK_HR(ID3D12Resource_SetPrivateData(resource, &test_guid, sizeof(data), data), S_OK);
    size = 0;
    CHECK_HR(ID3D12Resource_GetPrivateData(resource, &test_guid, &size, NULL), S_OK);
    CHECK(size == sizeof(data));
    size = sizeof(got);
    CHECK_HR(ID3D12Resource_GetPrivateData(resource, &test_guid, &size, got), S_OK);
    CHECK(size == sizeof(data) && got[0] == 1 && got[1] == 2 && got[2] == 3 && got[3] == 0);
    CHECK_NO_LOG();
    size = 4;
    CHECK_HR(ID3D12Resource_GetPrivateData(resource, &test_guid, &size, got), DXGI_ERROR_MORE_DATA);
    CHECK_LOG("GetPrivateData", "pDataSize");
    RELOG_MARK();
    size = sizeof(got);
    CHECK_HR(ID3D12Resource_GetPrivateData(resource, &IID_ID3D12Fence, &size, got), DXGI_ERROR_NOT_FOUND);
    CHECK(size == 0);
    CHECK_NO_LOG();
    CHECK_HR(ID3D12Resource_GetPrivateData(resource, &test_guid, NULL, got), E_INVALIDARG);
    CHECK_LOG("GetPrivateData", "pDataSize is NULL");
    RELOG_MARK();
    CHECK_HR(ID3D12Resource_SetPrivateData(resource, &test_guid, 0, NULL), S_OK);
    size = sizeof(got);
    CHECK_HR(ID3D12Resource_GetPrivateData(resource, &test_guid, &size, got), DXGI_ERROR_NOT_FOUND);
    CHECK_NO_LOG();

    /* SetName: the name shows up in the resource's error lines. */
    CHECK_HR(ID3D12Resource_SetName(resource, L"vertex_pool"), S_OK);
    CHECK_HR(ID3D12Resource_Map(resource, 0, NULL, &mapped), E_INVALIDARG);
    CHECK_LOG("Map", "'vertex_pool'");
    RELOG_MARK();
    CHECK_HR(ID3D12Resource_SetName(resource, NULL), E_INVALIDARG);
    CHECK_LOG("SetName", "Name is NULL");

    CHECK(ID3D12Resource_Release(resource) == 0);
}

int main(void)
{
    harness_init();
    ID3D12Device *device = harness_create_device();
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);

    test_committed_heaps(device, queue);
    test_map_unmap(device);
    test_gpu_addresses(device);
    test_desc_round_trip(device);
    test_placed(device, queue);
    test_bad_creation(device);
    test_placed_initial_state(device);
    test_object_plumbing(device);

    ID3D12CommandQueue_Release(queue);
    harness_release_device(device);
    return harness_finish();
}
