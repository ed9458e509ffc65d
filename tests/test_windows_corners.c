/* Where Windows' D3D12 accepts a call d3d12xs accepts it, and where Windows fails it d3d12xs
 * fails it the same way (issue 30): capability checks with a NULL out pointer, public reference
 * counts, the device removed by executing a recording list, RTV/DSV descriptor copies, the
 * failure outputs of GetCopyableFootprints and GetResourceAllocationInfo, small-resource
 * placement, and root parameters that D3D12 leaves undefined (a debug-layer warning, never an
 * invalid list). docs/windows-differences.md lists what still differs. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include <d3dcompiler.h>

#include "harness.h"

static ULONG refcount_of(IUnknown *object)
{
    IUnknown_AddRef(object);
    return IUnknown_Release(object);
}
#define REFCOUNT(o) refcount_of((IUnknown *)(o))

/* 1. A NULL out pointer checks the arguments, makes nothing and answers S_FALSE. */
static void test_capability_checks(ID3D12Device *device)
{
    D3D12_HEAP_PROPERTIES properties = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    D3D12_RESOURCE_DESC desc = harness_buffer_desc(1u << 20);
    D3D12_QUERY_HEAP_DESC query_desc = {D3D12_QUERY_HEAP_TYPE_TIMESTAMP, 4, 0};
    D3D12XS_MEMORY_STATISTICS before, after;
    D3D12_HEAP_DESC heap_desc;
    LOG_MARK();

    /* CreateFence answers S_FALSE whatever riid names, even NULL. */
    CHECK_HR(ID3D12Device_CreateFence(device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, NULL), S_FALSE);
    CHECK_HR(ID3D12Device_CreateFence(device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Heap, NULL), S_FALSE);
    CHECK_HR(ID3D12Device_CreateQueryHeap(device, &query_desc, &IID_ID3D12QueryHeap, NULL), S_FALSE);
    /* D3D12CreateDevice with a NULL ppDevice does not look at riid. */
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, NULL, NULL), S_FALSE);
    CHECK_NO_LOG();

    /* A committed buffer asked about is never allocated. */
    CHECK_HR(D3D12XSGetMemoryStatistics(device, &before), S_OK);
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &properties, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON,
            NULL, &IID_ID3D12Resource, NULL), S_FALSE);
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &properties, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON,
            NULL, NULL, NULL), S_FALSE);
    CHECK_HR(D3D12XSGetMemoryStatistics(device, &after), S_OK);
    CHECK(after.AllocationCount == before.AllocationCount && after.AllocatedBytes == before.AllocatedBytes);
    memset(&heap_desc, 0, sizeof(heap_desc));
    heap_desc.SizeInBytes = 1u << 20;
    heap_desc.Properties = properties;
    CHECK_HR(ID3D12Device_CreateHeap(device, &heap_desc, &IID_ID3D12Heap, NULL), S_FALSE);
    CHECK_NO_LOG();

    /* The arguments are still checked. */
    desc.Width = 0;
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &properties, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON,
            NULL, &IID_ID3D12Resource, NULL), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource", "Width is 0");
    RELOG_MARK();
    CHECK_HR(ID3D12Device_CreateFence(device, 0, (D3D12_FENCE_FLAGS)0x80, &IID_ID3D12Fence, NULL), E_INVALIDARG);
    CHECK_LOG("CreateFence", "Flags");
    RELOG_MARK();
    /* QueryInterface with a NULL out pointer stays E_POINTER. */
    CHECK_HR(ID3D12Device_QueryInterface(device, &IID_ID3D12Device, NULL), E_POINTER);
    CHECK_LOG("QueryInterface", "ppvObject");
}

/* 2. What AddRef/Release return is what the application made: d3d12xs's own references (a list
 * on its allocator, a placed resource on its heap, a pipeline on its root signature) are private;
 * every live child adds one to the device's count. */
static void test_public_refcounts(void)
{
    static const char source[] =
        "RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(1, 1, 1)] void main() { output.Store(0, 7); }\n";
    ID3D12Device *device = harness_create_device();
    D3D12_ROOT_PARAMETER1 parameter;
    ID3D12CommandAllocator *allocator;
    ID3D12GraphicsCommandList *list;
    ID3D12RootSignature *signature;
    ID3D12PipelineState *pipeline;
    D3D12_RESOURCE_DESC desc = harness_buffer_desc(65536);
    D3D12_HEAP_DESC heap_desc;
    ID3D12Resource *placed;
    ID3D12Heap *heap;
    ID3D10Blob *code;

    CHECK(REFCOUNT(device) == 1);
    CHECK_HR(ID3D12Device_CreateCommandAllocator(device, D3D12_COMMAND_LIST_TYPE_DIRECT, &IID_ID3D12CommandAllocator,
            (void **)&allocator), S_OK);
    CHECK(REFCOUNT(device) == 2);
    CHECK_HR(ID3D12Device_CreateCommandList(device, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, allocator, NULL, &IID_ID3D12GraphicsCommandList,
            (void **)&list), S_OK);
    CHECK(REFCOUNT(device) == 3);
    CHECK_MSG(REFCOUNT(allocator) == 1, "the allocator's count is %u with a list on it (1 on Windows)", (unsigned)REFCOUNT(allocator));
    /* The application lets go of the allocator first: the list still records and closes. The
     * allocator lives on for the list, and with it its one device reference. */
    CHECK(ID3D12CommandAllocator_Release(allocator) == 0);
    CHECK(REFCOUNT(device) == 3);
    CHECK_HR(ID3D12GraphicsCommandList_Close(list), S_OK);
    CHECK(ID3D12GraphicsCommandList_Release(list) == 0);
    CHECK(REFCOUNT(device) == 1);

    memset(&heap_desc, 0, sizeof(heap_desc));
    heap_desc.SizeInBytes = 1u << 20;
    heap_desc.Properties = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    heap_desc.Flags = D3D12_HEAP_FLAG_ALLOW_ONLY_BUFFERS;
    CHECK_HR(ID3D12Device_CreateHeap(device, &heap_desc, &IID_ID3D12Heap, (void **)&heap), S_OK);
    CHECK_HR(ID3D12Device_CreatePlacedResource(device, heap, 0, &desc, D3D12_RESOURCE_STATE_COMMON, NULL, &IID_ID3D12Resource,
            (void **)&placed), S_OK);
    CHECK(REFCOUNT(heap) == 1 && REFCOUNT(device) == 3);
    CHECK(ID3D12Heap_Release(heap) == 0);
    CHECK(ID3D12Resource_GetGPUVirtualAddress(placed) != 0);
    CHECK(REFCOUNT(device) == 3);
    CHECK(ID3D12Resource_Release(placed) == 0);
    CHECK(REFCOUNT(device) == 1);

    memset(&parameter, 0, sizeof(parameter));
    parameter.ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    signature = harness_root_signature(device, &parameter, 1, 0);
    code = harness_compile(source, 0);
    pipeline = harness_compute_pipeline(device, signature, code);
    ID3D10Blob_Release(code);
    CHECK(pipeline && REFCOUNT(signature) == 1 && REFCOUNT(device) == 3);
    CHECK(ID3D12RootSignature_Release(signature) == 0);
    CHECK(REFCOUNT(device) == 3);
    CHECK(ID3D12PipelineState_Release(pipeline) == 0);
    CHECK(REFCOUNT(device) == 1);
    harness_release_device(device);
}

/* 4. ExecuteCommandLists of a list still recording removes the device, as on Windows:
 * GetDeviceRemovedReason answers DXGI_ERROR_INVALID_CALL and nothing can be created since. */
static void test_execute_recording_list(void)
{
    ID3D12Device *device = harness_create_device();
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12CommandList *lists[1] = {(ID3D12CommandList *)list.list};
    ID3D12CommandQueue *second = (ID3D12CommandQueue *)(uintptr_t)1;
    D3D12_COMMAND_QUEUE_DESC queue_desc = {D3D12_COMMAND_LIST_TYPE_DIRECT, 0, D3D12_COMMAND_QUEUE_FLAG_NONE, 0};
    ID3D12Fence *fence = (ID3D12Fence *)(uintptr_t)1;
    LOG_MARK();

    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(device), S_OK);
    ID3D12CommandQueue_ExecuteCommandLists(queue, 1, lists);
    CHECK_LOG("device removed", "DXGI_ERROR_INVALID_CALL", "ExecuteCommandLists", "still recording");
    RELOG_MARK();
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(device), DXGI_ERROR_INVALID_CALL);
    CHECK_HR(ID3D12Device_CreateCommandQueue(device, &queue_desc, &IID_ID3D12CommandQueue, (void **)&second), DXGI_ERROR_DEVICE_REMOVED);
    CHECK(second == NULL);
    CHECK_LOG("CreateCommandQueue", "device was removed");
    RELOG_MARK();
    CHECK_HR(ID3D12Device_CreateFence(device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&fence), DXGI_ERROR_DEVICE_REMOVED);
    CHECK(fence == NULL);
    CHECK_LOG("CreateFence", "device was removed");
    RELOG_MARK();
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(device), DXGI_ERROR_INVALID_CALL);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), S_OK);
    harness_release_list(&list);
    ID3D12CommandQueue_Release(queue);
    harness_release_device(device);
}

/* Private data and names as Windows keeps them: removing what is not there is S_FALSE, a NULL
 * interface is stored, SetName is WKPDID_D3DDebugObjectNameW data and that data names the object. */
static void test_private_data(ID3D12Device *device)
{
    static const GUID guid = {0xfdb37466, 0x428f, 0x4edf, {0xa3, 0x7f, 0x9b, 0x1d, 0xf4, 0x88, 0xc5, 0xfc}};
    ID3D12Fence *fence = harness_create_fence(device, 0);
    ID3D12Resource *named = harness_create_buffer(device, D3D12_HEAP_TYPE_DEFAULT, 256, D3D12_RESOURCE_STATE_COMMON);
    void *mapped = NULL;
    IUnknown *pointer = (IUnknown *)(uintptr_t)0xdeadbeef;
    WCHAR name[16];
    UINT size;
    LOG_MARK();

    CHECK_HR(ID3D12Fence_SetPrivateData(fence, &guid, 0, NULL), S_FALSE);
    CHECK_HR(ID3D12Fence_SetPrivateDataInterface(fence, &guid, NULL), S_OK);
    size = sizeof(pointer) * 2;
    CHECK_HR(ID3D12Fence_GetPrivateData(fence, &guid, &size, &pointer), S_OK);
    CHECK(pointer == NULL && size == sizeof(IUnknown *));
    CHECK_HR(ID3D12Fence_SetPrivateData(fence, &guid, ~0u, NULL), S_OK); /* removes the entry */
    CHECK_HR(ID3D12Fence_SetPrivateData(fence, &guid, ~0u, NULL), S_FALSE);
    CHECK_NO_LOG();

    CHECK_HR(ID3D12Fence_SetName(fence, L"deadbeef"), S_OK);
    size = 1;
    CHECK_HR(ID3D12Fence_GetPrivateData(fence, &WKPDID_D3DDebugObjectNameW, &size, NULL), S_OK);
    CHECK(size == 9 * sizeof(WCHAR));
    CHECK_HR(ID3D12Fence_GetPrivateData(fence, &WKPDID_D3DDebugObjectNameW, &size, name), S_OK);
    CHECK(!wcscmp(name, L"deadbeef"));
    size = 1;
    CHECK_HR(ID3D12Fence_GetPrivateData(fence, &WKPDID_D3DDebugObjectName, &size, NULL), DXGI_ERROR_NOT_FOUND);
    CHECK(size == 0);
    CHECK_NO_LOG();

    /* A name given as private data names the object in log lines. */
    CHECK_HR(ID3D12Resource_SetPrivateData(named, &WKPDID_D3DDebugObjectName, 4, "Test"), S_OK);
    CHECK_HR(ID3D12Resource_Map(named, 0, NULL, &mapped), E_INVALIDARG);
    CHECK_LOG("'Test'", "CPU cannot access");
    ID3D12Fence_Release(fence);
    ID3D12Resource_Release(named);
}

static ID3D12DescriptorHeap *descriptor_heap(ID3D12Device *device, D3D12_DESCRIPTOR_HEAP_TYPE type, UINT count)
{
    D3D12_DESCRIPTOR_HEAP_DESC desc = {type, count, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    ID3D12DescriptorHeap *heap = NULL;
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(device, &desc, &IID_ID3D12DescriptorHeap, (void **)&heap), S_OK);
    return heap;
}

static D3D12_CPU_DESCRIPTOR_HANDLE handle_at(ID3D12Device *device, ID3D12DescriptorHeap *heap, UINT index)
{
    D3D12_CPU_DESCRIPTOR_HANDLE handle = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap);
    handle.ptr += (SIZE_T)index * ID3D12Device_GetDescriptorHandleIncrementSize(device,
            ID3D12DescriptorHeap_GetDesc(heap).Type);
    return handle;
}

/* The first 4 bytes of subresource 0 of a 4x4 texture, through a footprint copy. */
static uint32_t first_texel(ID3D12Device *device, ID3D12CommandQueue *queue, ID3D12Resource *texture, D3D12_RESOURCE_STATES state)
{
    D3D12_RESOURCE_DESC desc = ID3D12Resource_GetDesc(texture);
    ID3D12Resource *readback = harness_create_buffer(device, D3D12_HEAP_TYPE_READBACK, 4096, D3D12_RESOURCE_STATE_COPY_DEST);
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    D3D12_TEXTURE_COPY_LOCATION dst, src;
    D3D12_RESOURCE_BARRIER barrier;
    uint32_t value = 0;
    void *data;

    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    barrier.Transition.pResource = texture;
    barrier.Transition.StateBefore = state;
    barrier.Transition.StateAfter = D3D12_RESOURCE_STATE_COPY_SOURCE;
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    memset(&dst, 0, sizeof(dst));
    dst.pResource = readback;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    ID3D12Device_GetCopyableFootprints(device, &desc, 0, 1, 0, &dst.PlacedFootprint, NULL, NULL, NULL);
    memset(&src, 0, sizeof(src));
    src.pResource = texture;
    src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    ID3D12GraphicsCommandList2_CopyTextureRegion(list.list, &dst, 0, 0, 0, &src, NULL);
    harness_execute_and_wait(device, queue, &list);
    harness_release_list(&list);
    if (SUCCEEDED(ID3D12Resource_Map(readback, 0, NULL, &data))) {
        memcpy(&value, data, 4);
        ID3D12Resource_Unmap(readback, 0, NULL);
    }
    ID3D12Resource_Release(readback);
    return value;
}

/* 7. CopyDescriptors(Simple) of RTV and DSV descriptors: the copy views what the original does. */
static void test_copy_target_descriptors(ID3D12Device *device, ID3D12CommandQueue *queue)
{
    D3D12_HEAP_PROPERTIES properties = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    D3D12_RESOURCE_DESC colour_desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8G8B8A8_UNORM, 4, 4, 1, 1);
    D3D12_RESOURCE_DESC depth_desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_D32_FLOAT, 4, 4, 1, 1);
    ID3D12DescriptorHeap *rtvs = descriptor_heap(device, D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 2);
    ID3D12DescriptorHeap *rtv_copies = descriptor_heap(device, D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 4);
    ID3D12DescriptorHeap *dsvs = descriptor_heap(device, D3D12_DESCRIPTOR_HEAP_TYPE_DSV, 1);
    ID3D12DescriptorHeap *dsv_copies = descriptor_heap(device, D3D12_DESCRIPTOR_HEAP_TYPE_DSV, 2);
    static const float red[4] = {1.0f, 0.0f, 0.0f, 1.0f};
    ID3D12Resource *colour = NULL, *depth = NULL;
    D3D12_CPU_DESCRIPTOR_HANDLE dst_starts[1], src_starts[1];
    UINT sizes[1] = {1};
    struct harness_list list;
    uint32_t texel;
    float depth_value;
    LOG_MARK();

    colour_desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    depth_desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL;
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &properties, D3D12_HEAP_FLAG_NONE, &colour_desc,
            D3D12_RESOURCE_STATE_RENDER_TARGET, NULL, &IID_ID3D12Resource, (void **)&colour), S_OK);
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &properties, D3D12_HEAP_FLAG_NONE, &depth_desc,
            D3D12_RESOURCE_STATE_DEPTH_WRITE, NULL, &IID_ID3D12Resource, (void **)&depth), S_OK);
    ID3D12Device_CreateRenderTargetView(device, colour, NULL, handle_at(device, rtvs, 1));
    ID3D12Device_CreateDepthStencilView(device, depth, NULL, handle_at(device, dsvs, 0));
    ID3D12Device_CopyDescriptorsSimple(device, 1, handle_at(device, rtv_copies, 3), handle_at(device, rtvs, 1),
            D3D12_DESCRIPTOR_HEAP_TYPE_RTV);
    dst_starts[0] = handle_at(device, dsv_copies, 1);
    src_starts[0] = handle_at(device, dsvs, 0);
    ID3D12Device_CopyDescriptors(device, 1, dst_starts, sizes, 1, src_starts, sizes, D3D12_DESCRIPTOR_HEAP_TYPE_DSV);
    CHECK_NO_LOG();
    /* The originals go: the copies stand alone. */
    ID3D12DescriptorHeap_Release(rtvs);
    ID3D12DescriptorHeap_Release(dsvs);

    list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, handle_at(device, rtv_copies, 3), red, 0, NULL);
    ID3D12GraphicsCommandList2_ClearDepthStencilView(list.list, handle_at(device, dsv_copies, 1), D3D12_CLEAR_FLAG_DEPTH, 0.25f, 0, 0, NULL);
    harness_execute_and_wait(device, queue, &list);
    harness_release_list(&list);
    CHECK_NO_LOG();
    texel = first_texel(device, queue, colour, D3D12_RESOURCE_STATE_RENDER_TARGET);
    CHECK_MSG(texel == 0xff0000ff, "the copied RTV cleared the texel to 0x%08x (expected 0xff0000ff)", texel);
    texel = first_texel(device, queue, depth, D3D12_RESOURCE_STATE_DEPTH_WRITE);
    memcpy(&depth_value, &texel, 4);
    CHECK_MSG(depth_value == 0.25f, "the copied DSV cleared depth to %f", depth_value);

    /* A copy between heaps of different types is still refused. */
    ID3D12Device_CopyDescriptorsSimple(device, 1, handle_at(device, rtv_copies, 0), handle_at(device, dsv_copies, 1),
            D3D12_DESCRIPTOR_HEAP_TYPE_RTV);
    CHECK_LOG("CopyDescriptorsSimple", "another type");
    ID3D12DescriptorHeap_Release(rtv_copies);
    ID3D12DescriptorHeap_Release(dsv_copies);
    ID3D12Resource_Release(colour);
    ID3D12Resource_Release(depth);
}

/* 11. A buffer may carry ALLOW_RENDER_TARGET (D3D12 has buffer RTVs); ALLOW_DEPTH_STENCIL stays refused. */
static void test_render_target_buffer(ID3D12Device *device)
{
    D3D12_HEAP_PROPERTIES properties = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    D3D12_RESOURCE_DESC desc = harness_buffer_desc(4096), got;
    ID3D12Resource *buffer = NULL;
    LOG_MARK();

    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET | D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &properties, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON,
            NULL, &IID_ID3D12Resource, (void **)&buffer), S_OK);
    if (buffer) {
        got = ID3D12Resource_GetDesc(buffer);
        CHECK(got.Flags == desc.Flags);
        CHECK(ID3D12Resource_GetGPUVirtualAddress(buffer) != 0);
        ID3D12Resource_Release(buffer);
    }
    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL;
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &properties, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON,
            NULL, &IID_ID3D12Resource, (void **)&buffer), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource", "depth-stencil");
}

static bool footprint_all_ones(const D3D12_PLACED_SUBRESOURCE_FOOTPRINT *layout)
{
    return layout->Offset == UINT64_MAX && layout->Footprint.Format == (DXGI_FORMAT)~0u && layout->Footprint.Width == ~0u
            && layout->Footprint.Height == ~0u && layout->Footprint.Depth == ~0u && layout->Footprint.RowPitch == ~0u;
}

/* 12. Descriptions or ranges GetCopyableFootprints refuses: every field of each entry asked for
 * all ones, the total UINT64_MAX; GetResourceAllocationInfo: a UINT64_MAX size. */
static void test_failure_outputs(ID3D12Device *device)
{
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT layouts[2];
    D3D12_RESOURCE_ALLOCATION_INFO info;
    UINT64 row_sizes[2], total;
    UINT row_counts[2];
    D3D12_RESOURCE_DESC desc;
    LOG_MARK();

    /* A buffer of height 2. */
    desc = harness_buffer_desc(3);
    desc.Height = 2;
    memset(layouts, 0, sizeof(layouts)), memset(row_counts, 0, sizeof(row_counts)), memset(row_sizes, 0, sizeof(row_sizes)), total = 0;
    ID3D12Device_GetCopyableFootprints(device, &desc, 0, 1, 0, layouts, row_counts, row_sizes, &total);
    CHECK_LOG("GetCopyableFootprints", "Height");
    RELOG_MARK();
    CHECK(footprint_all_ones(&layouts[0]) && row_counts[0] == ~0u && row_sizes[0] == UINT64_MAX && total == UINT64_MAX);
    CHECK(layouts[1].Offset == 0 && row_counts[1] == 0); /* only the entries asked for */

    /* Two subresources of a one-subresource texture: both entries. */
    desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R32_UINT, 4, 4, 1, 1);
    memset(layouts, 0, sizeof(layouts)), memset(row_counts, 0, sizeof(row_counts)), memset(row_sizes, 0, sizeof(row_sizes)), total = 0;
    ID3D12Device_GetCopyableFootprints(device, &desc, 0, 2, 0, layouts, row_counts, row_sizes, &total);
    CHECK_LOG("GetCopyableFootprints");
    RELOG_MARK();
    CHECK(footprint_all_ones(&layouts[0]) && footprint_all_ones(&layouts[1]) && row_counts[1] == ~0u && row_sizes[1] == UINT64_MAX
            && total == UINT64_MAX);

    /* A block-compressed texture whose width is not whole blocks. */
    desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_BC1_UNORM, 3, 1, 1, 1);
    memset(layouts, 0, sizeof(layouts)), total = 0;
    ID3D12Device_GetCopyableFootprints(device, &desc, 0, 1, 0, layouts, NULL, NULL, &total);
    CHECK_LOG("GetCopyableFootprints");
    RELOG_MARK();
    CHECK(footprint_all_ones(&layouts[0]) && total == UINT64_MAX);

    /* GetResourceAllocationInfo: a buffer with a 4 KiB alignment. */
    desc = harness_buffer_desc(256);
    desc.Alignment = D3D12_SMALL_RESOURCE_PLACEMENT_ALIGNMENT;
    info = ID3D12Device_GetResourceAllocationInfo(device, 0, 1, &desc);
    CHECK_LOG("GetResourceAllocationInfo", "Alignment");
    RELOG_MARK();
    CHECK(info.SizeInBytes == UINT64_MAX && info.Alignment == D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT);
}

/* 15. Small resources: 4 KiB placement when asked for and the most detailed mip fits in 64 KiB. */
static void test_small_resources(ID3D12Device *device)
{
    static const struct {
        UINT width, height;
        UINT16 array_size, mips;
        DXGI_FORMAT format;
        bool small;
    } tests[] = {
        {4, 4, 1, 1, DXGI_FORMAT_R8_UINT, true},
        {16, 16, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, true},
        {16, 16, 1024, 1, DXGI_FORMAT_R8G8B8A8_UNORM, true}, /* per layer */
        {128, 128, 1, 8, DXGI_FORMAT_R8G8B8A8_UNORM, true},  /* exactly 64 KiB */
        {256, 512, 1, 10, DXGI_FORMAT_BC1_UNORM, true},
        {1024, 1024, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, false},
        {260, 512, 1, 1, DXGI_FORMAT_BC1_UNORM, false},
    };
    D3D12_HEAP_PROPERTIES properties = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    D3D12_RESOURCE_ALLOCATION_INFO info;
    D3D12_HEAP_DESC heap_desc;
    ID3D12Resource *textures[2] = {NULL, NULL};
    ID3D12Heap *heap = NULL;
    LOG_MARK();

    for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
        D3D12_RESOURCE_DESC desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, tests[i].format, tests[i].width,
                tests[i].height, tests[i].array_size, tests[i].mips);
        desc.Alignment = D3D12_SMALL_RESOURCE_PLACEMENT_ALIGNMENT;
        info = ID3D12Device_GetResourceAllocationInfo(device, 0, 1, &desc);
        if (tests[i].small) {
            CHECK_MSG(info.Alignment == D3D12_SMALL_RESOURCE_PLACEMENT_ALIGNMENT && info.SizeInBytes % info.Alignment == 0,
                    "texture %zu: alignment %llu, size %llu", i, (unsigned long long)info.Alignment, (unsigned long long)info.SizeInBytes);
            CHECK_NO_LOG();
        } else {
            CHECK_MSG(info.SizeInBytes == UINT64_MAX && info.Alignment >= D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT,
                    "texture %zu: size %llu", i, (unsigned long long)info.SizeInBytes);
            CHECK_LOG("GetResourceAllocationInfo", "Alignment is 4096", "most detailed mip");
            RELOG_MARK();
        }
        /* Without the small alignment every texture keeps the default one. */
        desc.Alignment = 0;
        info = ID3D12Device_GetResourceAllocationInfo(device, 0, 1, &desc);
        CHECK(info.Alignment >= D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT && info.SizeInBytes != UINT64_MAX);
    }

    /* Two small textures 4 KiB apart in one heap, both usable. */
    {
        D3D12_RESOURCE_DESC desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, 1);
        desc.Alignment = D3D12_SMALL_RESOURCE_PLACEMENT_ALIGNMENT;
        memset(&heap_desc, 0, sizeof(heap_desc));
        heap_desc.SizeInBytes = 65536;
        heap_desc.Properties = properties;
        heap_desc.Flags = D3D12_HEAP_FLAG_ALLOW_ONLY_NON_RT_DS_TEXTURES;
        CHECK_HR(ID3D12Device_CreateHeap(device, &heap_desc, &IID_ID3D12Heap, (void **)&heap), S_OK);
        CHECK_HR(ID3D12Device_CreatePlacedResource(device, heap, 0, &desc, D3D12_RESOURCE_STATE_COMMON, NULL, &IID_ID3D12Resource,
                (void **)&textures[0]), S_OK);
        CHECK_HR(ID3D12Device_CreatePlacedResource(device, heap, 4096, &desc, D3D12_RESOURCE_STATE_COMMON, NULL, &IID_ID3D12Resource,
                (void **)&textures[1]), S_OK);
        CHECK(textures[1] && ID3D12Resource_GetDesc(textures[1]).Alignment == D3D12_SMALL_RESOURCE_PLACEMENT_ALIGNMENT);
        CHECK_NO_LOG();
        /* A large one asking for 4 KiB is refused. */
        desc.Width = desc.Height = 1024;
        CHECK_HR(ID3D12Device_CreateCommittedResource(device, &properties, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON,
                NULL, &IID_ID3D12Resource, NULL), E_INVALIDARG);
        CHECK_LOG("CreateCommittedResource", "most detailed mip");
        for (int i = 0; i < 2; i++)
            if (textures[i])
                ID3D12Resource_Release(textures[i]);
        if (heap)
            ID3D12Heap_Release(heap);
    }
}

static ID3D12RootSignature *signature_of_version(ID3D12Device *device, D3D_ROOT_SIGNATURE_VERSION version)
{
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc;
    D3D12_ROOT_PARAMETER1 parameters1[3];
    D3D12_ROOT_PARAMETER parameters[3];
    ID3DBlob *blob = NULL, *errors = NULL;
    ID3D12RootSignature *signature = NULL;

    memset(&desc, 0, sizeof(desc));
    memset(parameters, 0, sizeof(parameters));
    memset(parameters1, 0, sizeof(parameters1));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[1].Constants.Num32BitValues = 2;
    parameters[2].ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV;
    for (int i = 0; i < 3; i++) {
        parameters1[i].ParameterType = parameters[i].ParameterType;
        parameters1[i].Constants = parameters[i].Constants;
    }
    parameters1[0].Descriptor.Flags = D3D12_ROOT_DESCRIPTOR_FLAG_DATA_VOLATILE;
    desc.Version = version;
    if (version == D3D_ROOT_SIGNATURE_VERSION_1_0) {
        desc.Desc_1_0.NumParameters = 3;
        desc.Desc_1_0.pParameters = parameters;
    } else {
        desc.Desc_1_1.NumParameters = 3;
        desc.Desc_1_1.pParameters = parameters1;
    }
    CHECK_HR(D3D12SerializeVersionedRootSignature(&desc, &blob, &errors), S_OK);
    if (blob) {
        CHECK_HR(ID3D12Device_CreateRootSignature(device, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
                &IID_ID3D12RootSignature, (void **)&signature), S_OK);
        ID3D10Blob_Release(blob);
    }
    return signature;
}

/* 13. What D3D12 leaves undefined does not invalidate the list: root parameters never set read
 * 0 (constants) or a null view (root SRV), and a pipeline runs with another root signature object
 * of the same layout; each is a warning line with the debug layer on. */
static void test_undefined_root_arguments(ID3D12Device *device, ID3D12CommandQueue *queue)
{
    static const char source[] =
        "RWByteAddressBuffer output : register(u0);\n"
        "cbuffer Constants : register(b0) { uint a; uint b; };\n"
        "ByteAddressBuffer input : register(t0);\n"
        "[numthreads(1, 1, 1)] void main() { output.Store2(0, uint2(a + b + 1, input.Load(0) + 2)); }\n";
    ID3D12RootSignature *signature_1_1 = signature_of_version(device, D3D_ROOT_SIGNATURE_VERSION_1_1);
    ID3D12RootSignature *signature_1_0 = signature_of_version(device, D3D_ROOT_SIGNATURE_VERSION_1_0);
    ID3D12Resource *output = harness_uav_buffer(device, 256);
    ID3D10Blob *code = harness_compile(source, 0);
    ID3D12PipelineState *pipeline = harness_compute_pipeline(device, signature_1_1, code);
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12CommandQueue *compute = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    size_t warnings = harness_warning_count();
    uint32_t result[2] = {0, 0};
    LOG_MARK();

    ID3D10Blob_Release(code);
    /* The pipeline was made with the 1.1 signature; the list sets the 1.0 one of the same layout.
     * Constants (parameter 1) and the SRV (parameter 2) are never set. */
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, pipeline);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature_1_0);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 0, ID3D12Resource_GetGPUVirtualAddress(output));
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    CHECK_NO_LOG();
    CHECK_DEBUG_WARNINGS(warnings, 2, "never set");
    harness_execute_and_wait(device, compute, &list);
    harness_read_back(device, queue, output, result, sizeof(result));
    CHECK_MSG(result[0] == 1 && result[1] == 2, "unset constants and SRV read %u, %u (expected 1, 2: zeros)", result[0], result[1]);

    /* Another layout: warned, and the dispatch is skipped (never run with the wrong layout). */
    {
        D3D12_ROOT_PARAMETER1 other;
        ID3D12RootSignature *different;
        memset(&other, 0, sizeof(other));
        other.ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV;
        different = harness_root_signature(device, &other, 1, 0);
        CHECK_HR(ID3D12GraphicsCommandList2_Reset(list.list, list.allocator, pipeline), S_OK);
        warnings = harness_warning_count();
        ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, different);
        ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
        CHECK_NO_LOG();
        CHECK_DEBUG_WARNINGS(warnings, 1, "another layout");
        CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), S_OK);
        ID3D12RootSignature_Release(different);
    }
    harness_release_list(&list);
    ID3D12CommandQueue_Release(compute);
    ID3D12PipelineState_Release(pipeline);
    ID3D12RootSignature_Release(signature_1_0);
    ID3D12RootSignature_Release(signature_1_1);
    ID3D12Resource_Release(output);
}

int main(void)
{
    ID3D12Device *device;
    ID3D12CommandQueue *queue;

    harness_init();
    device = harness_create_device();
    queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    test_capability_checks(device);
    test_private_data(device);
    test_public_refcounts();
    test_execute_recording_list();
    test_copy_target_descriptors(device, queue);
    test_render_target_buffer(device);
    test_failure_outputs(device);
    test_small_resources(device);
    test_undefined_root_arguments(device, queue);
    ID3D12CommandQueue_Release(queue);
    harness_release_device(device);
    return harness_finish();
}
