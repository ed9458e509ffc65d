/* Lifetimes under careless or hostile use: handles that are not events, fences released
 * while events wait on them, queues with held work released (no reference cycle keeps the
 * device), resources and pipelines released while the GPU still uses them, and the argument
 * rules that used to give wrong answers. Each of these failed before the scheduler rework. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* A handle that is not an open event is refused without being read. */
static void test_bad_event_handles(ID3D12Device *device)
{
    ID3D12Fence *fence = harness_create_fence(device, 0);
    HANDLE closed = CreateEvent(NULL, FALSE, FALSE, NULL);
    HANDLE made_up = (HANDLE)(uintptr_t)0x12345678;
    char not_an_event[64];
    LOG_MARK();

    memset(not_an_event, 0x58, sizeof(not_an_event));
    CHECK(CloseHandle(closed));
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 1, made_up), E_INVALIDARG);
    CHECK_LOG("SetEventOnCompletion", "hEvent", "not an open event");
    RELOG_MARK();
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 1, closed), E_INVALIDARG);
    CHECK_LOG("SetEventOnCompletion", "hEvent");
    RELOG_MARK();
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 1, (HANDLE)not_an_event), E_INVALIDARG);
    CHECK_LOG("SetEventOnCompletion", "hEvent");
    RELOG_MARK();
    CHECK(WaitForSingleObject(closed, 0) == WAIT_FAILED);
    CHECK_LOG("WaitForSingleObject", "hHandle");
    RELOG_MARK();
    CHECK(!CloseHandle(closed));
    CHECK_LOG("CloseHandle");
    RELOG_MARK();
    /* A value already reached with a bad handle is still refused, never "set". */
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 0, made_up), E_INVALIDARG);
    CHECK_LOG("SetEventOnCompletion", "hEvent");
    CHECK(ID3D12Fence_Release(fence) == 0);
}

/* The fence goes while an event waits for a value a queue will still signal: the event is set
 * when the queue gets there. */
static void test_fence_released_with_event(ID3D12Device *device)
{
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12Fence *gate = harness_create_fence(device, 0), *fence = harness_create_fence(device, 0);
    HANDLE event = CreateEvent(NULL, TRUE, FALSE, NULL);
    LOG_MARK();

    CHECK_HR(ID3D12CommandQueue_Wait(queue, gate, 1), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, 5), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 5, event), S_OK);
    CHECK(ID3D12Fence_Release(fence) == 0);
    CHECK(WaitForSingleObject(event, 100) == WAIT_TIMEOUT);
    CHECK_HR(ID3D12Fence_Signal(gate, 1), S_OK);
    CHECK_MSG(WaitForSingleObject(event, 5000) == WAIT_OBJECT_0, "the event of a released fence was not set when its queue reached the value");
    CHECK_NO_LOG();
    CloseHandle(event);
    CHECK(ID3D12Fence_Release(gate) == 0);
    CHECK(ID3D12CommandQueue_Release(queue) == 0);
}

/* Held work (a wait nobody signals, then an execution) does not keep the queue, the
 * allocator or the device alive once the application lets go of them. */
static void held_work_then_release(bool hang_first)
{
    ID3D12Device *device = harness_create_device();
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12Fence *never = harness_create_fence(device, 0);
    ID3D12Resource *src = harness_create_buffer(device, D3D12_HEAP_TYPE_UPLOAD, 4096, D3D12_RESOURCE_STATE_GENERIC_READ);
    ID3D12Resource *dst = harness_create_buffer(device, D3D12_HEAP_TYPE_DEFAULT, 4096, D3D12_RESOURCE_STATE_COPY_DEST);
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12CommandList *lists[1] = {(ID3D12CommandList *)list.list};
    LOG_MARK();

    ID3D12GraphicsCommandList2_CopyResource(list.list, dst, src);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), S_OK);
    if (hang_first)
        CHECK_HR(D3D12XSSetHangTimeout(device, 100), S_OK);
    CHECK_HR(ID3D12CommandQueue_Wait(queue, never, 1), S_OK);
    ID3D12CommandQueue_ExecuteCommandLists(queue, 1, lists);
    if (hang_first) {
        uint64_t start = harness_now_ms();
        while (ID3D12Device_GetDeviceRemovedReason(device) == S_OK && harness_now_ms() - start < 10000)
            harness_sleep_ms(10);
        CHECK_HR(ID3D12Device_GetDeviceRemovedReason(device), DXGI_ERROR_DEVICE_HUNG);
        CHECK_LOG("DXGI_ERROR_DEVICE_HUNG", "fence");
    } else {
        CHECK_NO_LOG();
    }
    harness_release_list(&list);
    CHECK(ID3D12CommandQueue_Release(queue) == 0);
    CHECK(ID3D12Fence_Release(never) == 0);
    CHECK(ID3D12Resource_Release(src) == 0);
    CHECK(ID3D12Resource_Release(dst) == 0);
    /* Every reference the held work had is gone: the device's count is exactly the caller's. */
    CHECK(ID3D12Device_AddRef(device) == 2);
    ID3D12Device_Release(device);
    harness_release_device(device);
}

/* D3D12 calls it the application's fault to release what the GPU still uses; we promise no
 * crash: the Vulkan objects stay until the work enqueued before the release has finished. */
static void test_release_while_executing(ID3D12Device *device)
{
    enum { BIG = 32 << 20 };
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12Resource *src = harness_create_buffer(device, D3D12_HEAP_TYPE_DEFAULT, BIG, D3D12_RESOURCE_STATE_COPY_SOURCE);
    ID3D12Resource *dst = harness_create_buffer(device, D3D12_HEAP_TYPE_DEFAULT, BIG, D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12Resource *small = harness_create_buffer(device, D3D12_HEAP_TYPE_DEFAULT, 256, D3D12_RESOURCE_STATE_COPY_DEST);
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12CommandList *lists[1] = {(ID3D12CommandList *)list.list};
    ID3D12Fence *fence = harness_create_fence(device, 0);
    uint32_t words[64];
    LOG_MARK();

    for (int i = 0; i < 4; i++)
        ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, dst, 0, src, 0, BIG);
    ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, small, 0, dst, 0, 256);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), S_OK);
    ID3D12CommandQueue_ExecuteCommandLists(queue, 1, lists);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, 1), S_OK);
    /* Everything the list uses goes at once, the list and its allocator too. */
    CHECK(ID3D12Resource_Release(src) == 0);
    CHECK(ID3D12Resource_Release(dst) == 0);
    harness_release_list(&list);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 1, NULL), S_OK);
    harness_read_back(device, queue, small, words, sizeof(words));
    CHECK_MSG(words[0] == 0 && words[63] == 0, "the copied zeros came back as 0x%x", words[0]);
    CHECK_NO_LOG();
    CHECK(ID3D12Resource_Release(small) == 0);
    CHECK(ID3D12Fence_Release(fence) == 0);
    CHECK(ID3D12CommandQueue_Release(queue) == 0);
}

static void test_argument_rules(ID3D12Device *device)
{
    D3D12_HEAP_PROPERTIES upload = harness_heap_properties(D3D12_HEAP_TYPE_UPLOAD);
    D3D12_HEAP_PROPERTIES readback = harness_heap_properties(D3D12_HEAP_TYPE_READBACK);
    D3D12_RESOURCE_DESC desc = harness_buffer_desc(1024);
    ID3D12Resource *resource = NULL, *mapped_buffer;
    D3D12_RANGE nothing_read = {16, 0};
    void *data = NULL;
    LOG_MARK();

    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &upload, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_GENERIC_READ,
            NULL, &IID_ID3D12Resource, (void **)&resource), E_INVALIDARG);
    CHECK(resource == NULL);
    CHECK_LOG("CreateCommittedResource", "ALLOW_UNORDERED_ACCESS", "UPLOAD");
    RELOG_MARK();
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &readback, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COPY_DEST,
            NULL, &IID_ID3D12Resource, (void **)&resource), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource", "ALLOW_UNORDERED_ACCESS", "READBACK");
    RELOG_MARK();

    mapped_buffer = harness_create_buffer(device, D3D12_HEAP_TYPE_UPLOAD, 1024, D3D12_RESOURCE_STATE_GENERIC_READ);
    CHECK_HR(ID3D12Resource_Map(mapped_buffer, 0, &nothing_read, &data), S_OK);
    CHECK(data != NULL);
    ID3D12Resource_Unmap(mapped_buffer, 0, NULL);
    CHECK_NO_LOG();
    CHECK(ID3D12Resource_Release(mapped_buffer) == 0);

    RELOG_MARK();
    ID3D12CommandAllocator *allocator = (ID3D12CommandAllocator *)(uintptr_t)1;
    CHECK_HR(ID3D12Device_CreateCommandAllocator(device, D3D12_COMMAND_LIST_TYPE_DIRECT, &IID_ID3D12Fence, (void **)&allocator), E_NOINTERFACE);
    CHECK(allocator == NULL);
    CHECK_LOG("CreateCommandAllocator", "riid");
}

int main(void)
{
    ID3D12Device *device;

    harness_init();
    device = harness_create_device();
    test_bad_event_handles(device);
    test_fence_released_with_event(device);
    test_release_while_executing(device);
    test_argument_rules(device);
    harness_release_device(device);
    held_work_then_release(false);
    held_work_then_release(true);
    return harness_finish();
}
