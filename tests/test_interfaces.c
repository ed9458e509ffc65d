/* Interface versions (issue 17): the device answers ID3D12Device1 ... ID3D12Device14 and command
 * lists ID3D12GraphicsCommandList1 ... 10, with one identity; the methods the later versions add
 * that d3d12xs implements (CreateCommandList1, CreateCommittedResource1-3, CreatePlacedResource1-2,
 * CreateHeap1, GetResourceAllocationInfo1-3, SetEventOnMultipleFenceCompletion,
 * EnqueueMakeResident, RemoveDevice, ...), and their refusals. The other new slots are stubs,
 * checked by test_stub_out_pointers. */
#include <string.h>

#include "harness.h"

static const IID *const device_iids[] = {
    &IID_ID3D12Device, &IID_ID3D12Device1, &IID_ID3D12Device2, &IID_ID3D12Device3, &IID_ID3D12Device4,
    &IID_ID3D12Device5, &IID_ID3D12Device6, &IID_ID3D12Device7, &IID_ID3D12Device8, &IID_ID3D12Device9,
    &IID_ID3D12Device10, &IID_ID3D12Device11, &IID_ID3D12Device12, &IID_ID3D12Device13, &IID_ID3D12Device14,
};

static const IID *const list_iids[] = {
    &IID_ID3D12CommandList, &IID_ID3D12GraphicsCommandList, &IID_ID3D12GraphicsCommandList1, &IID_ID3D12GraphicsCommandList2,
    &IID_ID3D12GraphicsCommandList3, &IID_ID3D12GraphicsCommandList4, &IID_ID3D12GraphicsCommandList5,
    &IID_ID3D12GraphicsCommandList6, &IID_ID3D12GraphicsCommandList7, &IID_ID3D12GraphicsCommandList8,
    &IID_ID3D12GraphicsCommandList9, &IID_ID3D12GraphicsCommandList10,
};

/* Every iid answers, with the object's one pointer; IUnknown from each view is the same. */
static void check_versions(IUnknown *object, const IID *const *iids, size_t count)
{
    IUnknown *identity = NULL, *back;
    void *view;

    CHECK_HR(IUnknown_QueryInterface(object, &IID_IUnknown, (void **)&identity), S_OK);
    for (size_t i = 0; i < count; i++) {
        view = NULL;
        CHECK_MSG(SUCCEEDED(IUnknown_QueryInterface(object, iids[i], &view)), "QueryInterface of version %zu failed", i);
        if (!view)
            continue;
        back = NULL;
        CHECK_HR(IUnknown_QueryInterface((IUnknown *)view, &IID_IUnknown, (void **)&back), S_OK);
        CHECK_MSG(back == identity, "version %zu: IUnknown %p, not the object's %p", i, (void *)back, (void *)identity);
        if (back)
            IUnknown_Release(back);
        IUnknown_Release((IUnknown *)view);
    }
    IUnknown_Release(identity);
}

static void test_device_versions(ID3D12Device *device)
{
    ID3D12Device14 *newest = NULL;
    ID3D12Fence *fence = NULL;
    ID3D12CommandQueue *queue = NULL;
    D3D12XBOX_COMMAND_QUEUE_DESC desc_x = {D3D12_COMMAND_LIST_TYPE_COMPUTE, D3D12_COMMAND_QUEUE_FLAG_NONE, 0, 0};
    ULONG before, after;

    check_versions((IUnknown *)device, device_iids, sizeof(device_iids) / sizeof(device_iids[0]));
    CHECK_HR(ID3D12Device_QueryInterface(device, &IID_ID3D12Device14, (void **)&newest), S_OK);
    if (!newest)
        return;
    CHECK(newest == (ID3D12Device14 *)device);
    /* AddRef / Release through the newest view count on the one object. */
    before = ID3D12Device_AddRef(device);
    after = ID3D12Device14_AddRef(newest);
    CHECK(after == before + 1);
    ID3D12Device14_Release(newest);
    ID3D12Device_Release(device);
    /* Methods of the first version and console methods work through the newest interface. */
    CHECK(ID3D12Device14_GetNodeCount(newest) == 1);
    CHECK_HR(ID3D12Device14_CreateFence(newest, 3, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&fence), S_OK);
    if (fence) {
        CHECK(ID3D12Fence_GetCompletedValue(fence) == 3);
        ID3D12Fence_Release(fence);
    }
    CHECK_HR(ID3D12Device14_CreateCommandQueueX(newest, &desc_x, &IID_ID3D12CommandQueue, (void **)&queue), S_OK);
    if (queue)
        ID3D12CommandQueue_Release(queue);
    ID3D12Device14_Release(newest);
}

/* A list created recording, seen through every version; one command and Close through the newest. */
static void test_list_versions(ID3D12Device *device, ID3D12CommandQueue *queue)
{
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList10 *newest = NULL;
    ID3D12Resource *buffer = harness_create_buffer(device, D3D12_HEAP_TYPE_DEFAULT, 256, D3D12_RESOURCE_STATE_COMMON);
    D3D12_WRITEBUFFERIMMEDIATE_PARAMETER parameter = {ID3D12Resource_GetGPUVirtualAddress(buffer), 0x1234};
    uint32_t value = 0;

    check_versions((IUnknown *)list.list, list_iids, sizeof(list_iids) / sizeof(list_iids[0]));
    CHECK_HR(ID3D12GraphicsCommandList2_QueryInterface(list.list, &IID_ID3D12GraphicsCommandList10, (void **)&newest), S_OK);
    if (newest) {
        CHECK(ID3D12GraphicsCommandList10_GetType(newest) == D3D12_COMMAND_LIST_TYPE_DIRECT);
        ID3D12GraphicsCommandList10_WriteBufferImmediate(newest, 1, &parameter, NULL);
        ID3D12GraphicsCommandList10_Release(newest);
    }
    harness_execute_and_wait(device, queue, &list);
    harness_read_back(device, queue, buffer, &value, sizeof(value));
    CHECK(value == 0x1234);
    ID3D12Resource_Release(buffer);
    harness_release_list(&list);
}

static void test_create_command_list1(ID3D12Device *device, ID3D12CommandQueue *queue)
{
    ID3D12Device4 *device4 = (ID3D12Device4 *)device;
    ID3D12GraphicsCommandList10 *list = NULL;
    ID3D12CommandAllocator *allocator = NULL;
    ID3D12CommandList *lists[1];
    void *out;
    LOG_MARK();

    CHECK_HR(ID3D12Device4_CreateCommandList1(device4, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_LIST_FLAG_NONE,
            &IID_ID3D12GraphicsCommandList10, (void **)&list), S_OK);
    CHECK_NO_LOG();
    if (!list)
        return;
    lists[0] = (ID3D12CommandList *)list;
    /* Created closed: Close has nothing to close, and there is nothing to execute. */
    CHECK_HR(ID3D12GraphicsCommandList10_Close(list), E_FAIL);
    CHECK_LOG("Close", "not recording");
    RELOG_MARK();
    ID3D12CommandQueue_ExecuteCommandLists(queue, 1, lists);
    CHECK_LOG("ExecuteCommandLists", "recorded nothing", "CreateCommandList1");
    /* Reset gives it an allocator; then it records and runs as any list. */
    CHECK_HR(ID3D12Device_CreateCommandAllocator(device, D3D12_COMMAND_LIST_TYPE_DIRECT, &IID_ID3D12CommandAllocator,
            (void **)&allocator), S_OK);
    CHECK_HR(ID3D12GraphicsCommandList10_Reset(list, allocator, NULL), S_OK);
    CHECK_HR(ID3D12GraphicsCommandList10_Close(list), S_OK);
    {
        ID3D12Fence *fence = harness_create_fence(device, 0);
        ID3D12CommandQueue_ExecuteCommandLists(queue, 1, lists);
        CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, 1), S_OK);
        CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 1, NULL), S_OK);
        ID3D12Fence_Release(fence);
    }
    ID3D12GraphicsCommandList10_Release(list);
    ID3D12CommandAllocator_Release(allocator);

    RELOG_MARK();
    out = (void *)1;
    CHECK_HR(ID3D12Device4_CreateCommandList1(device4, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, (D3D12_COMMAND_LIST_FLAGS)1,
            &IID_ID3D12GraphicsCommandList, &out), E_INVALIDARG);
    CHECK_LOG("CreateCommandList1", "flags");
    CHECK(out == NULL);
    RELOG_MARK();
    CHECK_HR(ID3D12Device4_CreateCommandList1(device4, 2, D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_LIST_FLAG_NONE,
            &IID_ID3D12GraphicsCommandList, &out), E_INVALIDARG);
    CHECK_LOG("CreateCommandList1", "nodeMask");
    RELOG_MARK();
    CHECK_HR(ID3D12Device4_CreateCommandList1(device4, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_LIST_FLAG_NONE,
            &IID_ID3D12GraphicsCommandList, NULL), E_POINTER);
    CHECK_LOG("CreateCommandList1", "ppCommandList");
}

static D3D12_RESOURCE_DESC1 buffer_desc1(UINT64 size)
{
    D3D12_RESOURCE_DESC desc = harness_buffer_desc(size);
    D3D12_RESOURCE_DESC1 desc1;
    memset(&desc1, 0, sizeof(desc1));
    desc1.Dimension = desc.Dimension;
    desc1.Width = desc.Width;
    desc1.Height = desc.Height;
    desc1.DepthOrArraySize = desc.DepthOrArraySize;
    desc1.MipLevels = desc.MipLevels;
    desc1.Format = desc.Format;
    desc1.SampleDesc = desc.SampleDesc;
    desc1.Layout = desc.Layout;
    desc1.Flags = desc.Flags;
    return desc1;
}

static void check_mapped(ID3D12Resource *resource)
{
    void *data = NULL;
    CHECK_HR(ID3D12Resource_Map(resource, 0, NULL, &data), S_OK);
    CHECK(data != NULL);
    if (data)
        ID3D12Resource_Unmap(resource, 0, NULL);
    CHECK(ID3D12Resource_GetGPUVirtualAddress(resource) != 0);
    ID3D12Resource_Release(resource);
}

static void test_resources(ID3D12Device *device)
{
    ID3D12Device14 *d = (ID3D12Device14 *)device;
    D3D12_HEAP_PROPERTIES upload = harness_heap_properties(D3D12_HEAP_TYPE_UPLOAD);
    D3D12_HEAP_PROPERTIES readback = harness_heap_properties(D3D12_HEAP_TYPE_READBACK);
    D3D12_RESOURCE_DESC desc = harness_buffer_desc(4096);
    D3D12_RESOURCE_DESC1 desc1 = buffer_desc1(4096), feedback = buffer_desc1(4096);
    D3D12_HEAP_DESC heap_desc;
    D3D12_RESOURCE_ALLOCATION_INFO info;
    D3D12_RESOURCE_ALLOCATION_INFO1 infos[2];
    D3D12_RESOURCE_DESC1 two[2];
    UINT32 castable_counts[2] = {0, 0};
    DXGI_FORMAT format = DXGI_FORMAT_R32_UINT;
    ID3D12Resource *resource;
    ID3D12Heap *heap = NULL;
    UINT64 total = 0;
    void *out;
    LOG_MARK();

    resource = NULL;
    CHECK_HR(ID3D12Device14_CreateCommittedResource1(d, &upload, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_GENERIC_READ, NULL,
            NULL, &IID_ID3D12Resource, (void **)&resource), S_OK);
    if (resource)
        check_mapped(resource);
    resource = NULL;
    CHECK_HR(ID3D12Device14_CreateCommittedResource2(d, &upload, D3D12_HEAP_FLAG_NONE, &desc1, D3D12_RESOURCE_STATE_GENERIC_READ, NULL,
            NULL, &IID_ID3D12Resource, (void **)&resource), S_OK);
    if (resource)
        check_mapped(resource);
    resource = NULL;
    CHECK_HR(ID3D12Device14_CreateCommittedResource3(d, &readback, D3D12_HEAP_FLAG_NONE, &desc1, D3D12_BARRIER_LAYOUT_UNDEFINED, NULL,
            NULL, 0, NULL, &IID_ID3D12Resource, (void **)&resource), S_OK);
    if (resource)
        check_mapped(resource);

    memset(&heap_desc, 0, sizeof(heap_desc));
    heap_desc.SizeInBytes = 1 << 17;
    heap_desc.Properties = upload;
    heap_desc.Flags = D3D12_HEAP_FLAG_ALLOW_ONLY_BUFFERS;
    CHECK_HR(ID3D12Device14_CreateHeap1(d, &heap_desc, NULL, &IID_ID3D12Heap, (void **)&heap), S_OK);
    if (heap) {
        resource = NULL;
        CHECK_HR(ID3D12Device14_CreatePlacedResource1(d, heap, 0, &desc1, D3D12_RESOURCE_STATE_GENERIC_READ, NULL,
                &IID_ID3D12Resource, (void **)&resource), S_OK);
        if (resource)
            check_mapped(resource);
        resource = NULL;
        CHECK_HR(ID3D12Device14_CreatePlacedResource2(d, heap, 65536, &desc1, D3D12_BARRIER_LAYOUT_UNDEFINED, NULL, 0, NULL,
                &IID_ID3D12Resource, (void **)&resource), S_OK);
        if (resource)
            check_mapped(resource);
    }
    CHECK_NO_LOG();

    /* Refusals: the extra arguments that cannot be honoured, with NULL through the out-pointer. */
    out = (void *)1;
    CHECK_HR(ID3D12Device14_CreateCommittedResource1(d, &upload, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_GENERIC_READ, NULL,
            (ID3D12ProtectedResourceSession *)heap, &IID_ID3D12Resource, &out), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource1", "pProtectedSession");
    CHECK(out == NULL);
    RELOG_MARK();
    CHECK_HR(ID3D12Device14_CreateHeap1(d, &heap_desc, (ID3D12ProtectedResourceSession *)heap, &IID_ID3D12Heap, &out), E_INVALIDARG);
    CHECK_LOG("CreateHeap1", "pProtectedSession");
    RELOG_MARK();
    feedback.SamplerFeedbackMipRegion.Width = 4;
    out = (void *)1;
    CHECK_HR(ID3D12Device14_CreateCommittedResource2(d, &upload, D3D12_HEAP_FLAG_NONE, &feedback, D3D12_RESOURCE_STATE_GENERIC_READ,
            NULL, NULL, &IID_ID3D12Resource, &out), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource2", "SamplerFeedbackMipRegion");
    CHECK(out == NULL);
    RELOG_MARK();
    CHECK_HR(ID3D12Device14_CreateCommittedResource3(d, &upload, D3D12_HEAP_FLAG_NONE, &desc1, D3D12_BARRIER_LAYOUT_COMMON, NULL,
            NULL, 0, NULL, &IID_ID3D12Resource, &out), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource3", "InitialLayout");
    RELOG_MARK();
    CHECK_HR(ID3D12Device14_CreateCommittedResource3(d, &upload, D3D12_HEAP_FLAG_NONE, &desc1, D3D12_BARRIER_LAYOUT_UNDEFINED, NULL,
            NULL, 1, &format, &IID_ID3D12Resource, &out), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource3", "NumCastableFormats");
    RELOG_MARK();
    CHECK_HR(ID3D12Device14_CreatePlacedResource2(d, NULL, 0, &desc1, D3D12_BARRIER_LAYOUT_UNDEFINED, NULL, 0, NULL,
            &IID_ID3D12Resource, &out), E_INVALIDARG);
    CHECK_LOG("CreatePlacedResource2", "pHeap");
    RELOG_MARK();
    CHECK_HR(ID3D12Device14_CreatePlacedResource1(d, heap, 0, NULL, D3D12_RESOURCE_STATE_GENERIC_READ, NULL,
            &IID_ID3D12Resource, &out), E_INVALIDARG);
    CHECK_LOG("CreatePlacedResource1", "pDesc");

    /* Allocation info: each resource's place within the total. */
    RELOG_MARK();
    two[0] = buffer_desc1(100);
    two[1] = buffer_desc1(70000);
    info = ID3D12Device14_GetResourceAllocationInfo2(d, 0, 2, two, infos);
    CHECK(info.SizeInBytes == 65536 + 131072 && info.Alignment == 65536);
    CHECK(infos[0].Offset == 0 && infos[0].SizeInBytes == 65536 && infos[0].Alignment == 65536);
    CHECK(infos[1].Offset == 65536 && infos[1].SizeInBytes == 131072);
    info = ID3D12Device14_GetResourceAllocationInfo1(d, 0, 1, &desc, infos);
    CHECK(info.SizeInBytes == 65536 && infos[0].Offset == 0);
    info = ID3D12Device14_GetResourceAllocationInfo3(d, 0, 2, two, castable_counts, NULL, infos);
    CHECK(info.SizeInBytes == 65536 + 131072 && infos[1].Offset == 65536);
    CHECK_NO_LOG();
    castable_counts[1] = 1;
    info = ID3D12Device14_GetResourceAllocationInfo3(d, 0, 2, two, castable_counts, NULL, infos);
    CHECK(info.SizeInBytes == UINT64_MAX);
    CHECK_LOG("GetResourceAllocationInfo3", "pNumCastableFormats[1]");
    RELOG_MARK();
    two[1].SamplerFeedbackMipRegion.Height = 1;
    info = ID3D12Device14_GetResourceAllocationInfo2(d, 0, 2, two, infos);
    CHECK(info.SizeInBytes == UINT64_MAX);
    CHECK_LOG("GetResourceAllocationInfo2", "pResourceDescs[1]", "SamplerFeedbackMipRegion");
    RELOG_MARK();
    ID3D12Device14_GetCopyableFootprints1(d, &desc1, 0, 1, 0, NULL, NULL, NULL, &total);
    CHECK(total == 4096);
    CHECK_NO_LOG();
    if (heap)
        ID3D12Heap_Release(heap);
}

static void test_small_methods(ID3D12Device *device)
{
    ID3D12Device14 *d = (ID3D12Device14 *)device;
    D3D12_COMMAND_QUEUE_DESC queue_desc = {D3D12_COMMAND_LIST_TYPE_DIRECT, 0, 0, 0};
    ID3D12CommandQueue *queue = NULL;
    D3D12_RESIDENCY_PRIORITY priority = D3D12_RESIDENCY_PRIORITY_HIGH;
    ID3D12Pageable *pageable;
    ID3D12Fence *fence = harness_create_fence(device, 0);
    D3D12_SAMPLER_DESC2 sampler;
    UINT count = 7;
    void *out;
    LOG_MARK();

    CHECK_HR(ID3D12Device14_CreateCommandQueue1(d, &queue_desc, &IID_ID3D12Device, &IID_ID3D12CommandQueue, (void **)&queue), S_OK);
    if (queue)
        ID3D12CommandQueue_Release(queue);
    out = (void *)1;
    CHECK_HR(ID3D12Device14_CreateCommandQueue1(d, &queue_desc, NULL, &IID_ID3D12CommandQueue, &out), E_INVALIDARG);
    CHECK_LOG("CreateCommandQueue1", "CreatorID");
    CHECK(out == NULL);

    RELOG_MARK();
    CHECK_HR(ID3D12Device14_EnumerateMetaCommands(d, &count, NULL), S_OK);
    CHECK(count == 0);
    CHECK(ID3D12Device14_CheckDriverMatchingIdentifier(d, D3D12_SERIALIZED_DATA_RAYTRACING_ACCELERATION_STRUCTURE, NULL)
            == D3D12_DRIVER_MATCHING_IDENTIFIER_UNSUPPORTED_TYPE);
    pageable = (ID3D12Pageable *)fence;
    CHECK_HR(ID3D12Device14_SetResidencyPriority(d, 1, &pageable, &priority), S_OK);
    CHECK_NO_LOG();
    CHECK_HR(ID3D12Device14_SetResidencyPriority(d, 1, &pageable, NULL), E_INVALIDARG);
    CHECK_LOG("SetResidencyPriority", "pPriorities");
    RELOG_MARK();
    CHECK_HR(ID3D12Device14_EnumerateMetaCommands(d, NULL, NULL), E_INVALIDARG);
    CHECK_LOG("EnumerateMetaCommands", "pNumMetaCommands");

    /* EnqueueMakeResident: residency is immediate, so the fence is signalled at once. */
    RELOG_MARK();
    CHECK_HR(ID3D12Device14_EnqueueMakeResident(d, D3D12_RESIDENCY_FLAG_NONE, 1, &pageable, fence, 5), S_OK);
    CHECK(ID3D12Fence_GetCompletedValue(fence) == 5);
    CHECK_HR(ID3D12Device14_EnqueueMakeResident(d, D3D12_RESIDENCY_FLAG_DENY_OVERBUDGET, 0, NULL, fence, 6), S_OK);
    CHECK(ID3D12Fence_GetCompletedValue(fence) == 6);
    CHECK_NO_LOG();
    CHECK_HR(ID3D12Device14_EnqueueMakeResident(d, D3D12_RESIDENCY_FLAG_NONE, 1, &pageable, NULL, 7), E_INVALIDARG);
    CHECK_LOG("EnqueueMakeResident", "pFenceToSignal");
    RELOG_MARK();
    CHECK_HR(ID3D12Device14_EnqueueMakeResident(d, (D3D12_RESIDENCY_FLAGS)4, 1, &pageable, fence, 7), E_INVALIDARG);
    CHECK_LOG("EnqueueMakeResident", "Flags");
    RELOG_MARK();
    CHECK_HR(ID3D12Device14_EnqueueMakeResident(d, D3D12_RESIDENCY_FLAG_NONE, 2, NULL, fence, 7), E_INVALIDARG);
    CHECK_LOG("EnqueueMakeResident", "ppObjects");
    CHECK(ID3D12Fence_GetCompletedValue(fence) == 6);

    /* CreateSampler2 without flags is CreateSampler; its flags (test_root_signature_1_2 samples
     * through them) are accepted, bits that are not flags refused. */
    RELOG_MARK();
    memset(&sampler, 0, sizeof(sampler));
    sampler.Filter = D3D12_FILTER_MIN_MAG_MIP_POINT;
    sampler.AddressU = sampler.AddressV = sampler.AddressW = D3D12_TEXTURE_ADDRESS_MODE_CLAMP;
    sampler.Flags = (D3D12_SAMPLER_FLAGS)4;
    {
        D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
        ID3D12DescriptorHeap *heap = NULL;
        CHECK_HR(ID3D12Device_CreateDescriptorHeap(device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&heap), S_OK);
        if (heap) {
            D3D12_CPU_DESCRIPTOR_HANDLE handle = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap);
            ID3D12Device14_CreateSampler2(d, &sampler, handle);
            CHECK_LOG("CreateSampler2", "Flags is 0x4");
            RELOG_MARK();
            sampler.Flags = D3D12_SAMPLER_FLAG_NONE;
            ID3D12Device14_CreateSampler2(d, &sampler, handle);
            sampler.Flags = D3D12_SAMPLER_FLAG_UINT_BORDER_COLOR;
            ID3D12Device14_CreateSampler2(d, &sampler, handle);
            CHECK_NO_LOG();
            ID3D12DescriptorHeap_Release(heap);
        }
    }
    ID3D12Fence_Release(fence);
}

static bool event_set_within(HANDLE event, DWORD ms)
{
    return WaitForSingleObject(event, ms) == WAIT_OBJECT_0;
}

static void test_multiple_fence_wait(ID3D12Device *device, ID3D12CommandQueue *queue)
{
    ID3D12Device1 *d = (ID3D12Device1 *)device;
    ID3D12Fence *fences[2] = {harness_create_fence(device, 0), harness_create_fence(device, 0)};
    UINT64 values[2] = {1, 1};
    HANDLE event = CreateEvent(NULL, FALSE, FALSE, NULL);
    ID3D12Device *other = harness_create_device();
    ID3D12Fence *foreign = harness_create_fence(other, 0);
    ID3D12Fence *bad[2];
    LOG_MARK();

    /* All: set once both have reached their values, not before. */
    CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d, fences, values, 2, D3D12_MULTIPLE_FENCE_WAIT_FLAG_NONE, event), S_OK);
    CHECK_HR(ID3D12Fence_Signal(fences[0], 1), S_OK);
    CHECK(!event_set_within(event, 100));
    CHECK_HR(ID3D12CommandQueue_Signal(queue, fences[1], 1), S_OK);
    CHECK(event_set_within(event, 5000));

    /* Any: set at the first, once only (the second completion does not set it again). */
    values[0] = values[1] = 2;
    CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d, fences, values, 2, D3D12_MULTIPLE_FENCE_WAIT_FLAG_ANY, event), S_OK);
    CHECK(!event_set_within(event, 50));
    CHECK_HR(ID3D12CommandQueue_Signal(queue, fences[1], 2), S_OK);
    CHECK(event_set_within(event, 5000));
    CHECK_HR(ID3D12Fence_Signal(fences[0], 2), S_OK);
    CHECK(!event_set_within(event, 100));

    /* Already reached: set at once, both ways; all of no fences too. */
    CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d, fences, values, 2, D3D12_MULTIPLE_FENCE_WAIT_FLAG_NONE, event), S_OK);
    CHECK(event_set_within(event, 0));
    CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d, fences, values, 2, D3D12_MULTIPLE_FENCE_WAIT_FLAG_ANY, event), S_OK);
    CHECK(event_set_within(event, 0));
    CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d, NULL, NULL, 0, D3D12_MULTIPLE_FENCE_WAIT_FLAG_NONE, event), S_OK);
    CHECK(event_set_within(event, 0));

    /* No event: the call blocks until all / any have their values (queue signals reach them). */
    values[0] = values[1] = 3;
    CHECK_HR(ID3D12CommandQueue_Signal(queue, fences[0], 3), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, fences[1], 3), S_OK);
    CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d, fences, values, 2, D3D12_MULTIPLE_FENCE_WAIT_FLAG_NONE, NULL), S_OK);
    CHECK(ID3D12Fence_GetCompletedValue(fences[0]) >= 3 && ID3D12Fence_GetCompletedValue(fences[1]) >= 3);
    values[0] = 100; /* never reached */
    values[1] = 4;
    CHECK_HR(ID3D12CommandQueue_Signal(queue, fences[1], 4), S_OK);
    CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d, fences, values, 2, D3D12_MULTIPLE_FENCE_WAIT_FLAG_ANY, NULL), S_OK);
    CHECK(ID3D12Fence_GetCompletedValue(fences[1]) >= 4);
    CHECK_NO_LOG();

    /* Bad arguments: one line each, naming the argument. */
    CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d, NULL, values, 2, D3D12_MULTIPLE_FENCE_WAIT_FLAG_NONE, event), E_INVALIDARG);
    CHECK_LOG("SetEventOnMultipleFenceCompletion", "ppFences is NULL");
    RELOG_MARK();
    CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d, fences, NULL, 2, D3D12_MULTIPLE_FENCE_WAIT_FLAG_NONE, event), E_INVALIDARG);
    CHECK_LOG("SetEventOnMultipleFenceCompletion", "pFenceValues");
    RELOG_MARK();
    CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d, fences, values, 2, (D3D12_MULTIPLE_FENCE_WAIT_FLAGS)2, event), E_INVALIDARG);
    CHECK_LOG("SetEventOnMultipleFenceCompletion", "Flags");
    RELOG_MARK();
    bad[0] = fences[0];
    bad[1] = (ID3D12Fence *)queue; /* not a fence */
    CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d, bad, values, 2, D3D12_MULTIPLE_FENCE_WAIT_FLAG_NONE, event), E_INVALIDARG);
    CHECK_LOG("SetEventOnMultipleFenceCompletion", "ppFences[1]", "not a d3d12xs fence");
    RELOG_MARK();
    bad[1] = NULL;
    CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d, bad, values, 2, D3D12_MULTIPLE_FENCE_WAIT_FLAG_ANY, event), E_INVALIDARG);
    CHECK_LOG("SetEventOnMultipleFenceCompletion", "ppFences[1]", "NULL");
    RELOG_MARK();
    bad[1] = foreign;
    CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d, bad, values, 2, D3D12_MULTIPLE_FENCE_WAIT_FLAG_NONE, event), E_INVALIDARG);
    CHECK_LOG("SetEventOnMultipleFenceCompletion", "ppFences[1]", "another device");
    RELOG_MARK();
    CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d, fences, values, 2, D3D12_MULTIPLE_FENCE_WAIT_FLAG_NONE,
            (HANDLE)(uintptr_t)0x1234), E_INVALIDARG);
    CHECK_LOG("SetEventOnMultipleFenceCompletion", "hEvent");
    RELOG_MARK();
    CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d, NULL, NULL, 0, D3D12_MULTIPLE_FENCE_WAIT_FLAG_ANY, event), E_INVALIDARG);
    CHECK_LOG("SetEventOnMultipleFenceCompletion", "NumFences is 0");
    CHECK(!event_set_within(event, 0));

    /* An event waiting for all is set when the fences are released with the values out of
     * reach (as on Windows), and closing the event first is safe. */
    RELOG_MARK();
    values[0] = values[1] = 50;
    CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d, fences, values, 2, D3D12_MULTIPLE_FENCE_WAIT_FLAG_NONE, event), S_OK);
    ID3D12Fence_Release(fences[0]);
    CHECK(!event_set_within(event, 50));
    ID3D12Fence_Release(fences[1]);
    CHECK(event_set_within(event, 5000));
    CHECK_NO_LOG();

    CloseHandle(event);
    ID3D12Fence_Release(foreign);
    harness_release_device(other);
}

/* RemoveDevice: the device reports itself removed, fences read UINT64_MAX and a pending
 * multiple-fence wait is released. */
static void test_remove_device(void)
{
    ID3D12Device *device = harness_create_device();
    ID3D12Fence *fences[2] = {harness_create_fence(device, 0), harness_create_fence(device, 0)};
    UINT64 values[2] = {10, 10};
    HANDLE event = CreateEvent(NULL, TRUE, FALSE, NULL);
    LOG_MARK();

    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(device), S_OK);
    CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion((ID3D12Device1 *)device, fences, values, 2,
            D3D12_MULTIPLE_FENCE_WAIT_FLAG_NONE, event), S_OK);
    ID3D12Device5_RemoveDevice((ID3D12Device5 *)device);
    CHECK_LOG("device removed", "DXGI_ERROR_DEVICE_REMOVED", "RemoveDevice");
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(device), DXGI_ERROR_DEVICE_REMOVED);
    CHECK(ID3D12Fence_GetCompletedValue(fences[0]) == UINT64_MAX);
    CHECK(event_set_within(event, 5000));
    RELOG_MARK();
    CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion((ID3D12Device1 *)device, fences, values, 2,
            D3D12_MULTIPLE_FENCE_WAIT_FLAG_ANY, NULL), DXGI_ERROR_DEVICE_REMOVED);
    CHECK_NO_LOG();
    CloseHandle(event);
    ID3D12Fence_Release(fences[0]);
    ID3D12Fence_Release(fences[1]);
    harness_release_device(device);
}

int main(void)
{
    ID3D12Device *device;
    ID3D12CommandQueue *queue;

    harness_init();
    device = harness_create_device();
    queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    test_device_versions(device);
    test_list_versions(device, queue);
    test_create_command_list1(device, queue);
    test_resources(device);
    test_small_methods(device);
    test_multiple_fence_wait(device, queue);
    test_remove_device();
    ID3D12CommandQueue_Release(queue);
    harness_release_device(device);
    return harness_finish();
}
