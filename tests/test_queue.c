/* Command queues: creation, description, clocks, and ExecuteCommandLists argument checks. */
#include <string.h>

#include "harness.h"

static void test_create(ID3D12Device *device)
{
    D3D12_COMMAND_QUEUE_DESC desc = {D3D12_COMMAND_LIST_TYPE_COMPUTE, D3D12_COMMAND_QUEUE_PRIORITY_HIGH, D3D12_COMMAND_QUEUE_FLAG_NONE, 0};
    ID3D12CommandQueue *queue = NULL;
    D3D12_COMMAND_QUEUE_DESC got;
    LOG_MARK();

    CHECK_HR(ID3D12Device_CreateCommandQueue(device, &desc, &IID_ID3D12CommandQueue, (void **)&queue), S_OK);
    got = ID3D12CommandQueue_GetDesc(queue);
    CHECK(got.Type == D3D12_COMMAND_LIST_TYPE_COMPUTE && got.Priority == D3D12_COMMAND_QUEUE_PRIORITY_HIGH && got.NodeMask == 1);
    ID3D12CommandQueue_Release(queue);
    CHECK_NO_LOG();

    CHECK_HR(ID3D12Device_CreateCommandQueue(device, NULL, &IID_ID3D12CommandQueue, (void **)&queue), E_INVALIDARG);
    CHECK_LOG("pDesc");
    RELOG_MARK();
    desc.Type = D3D12_COMMAND_LIST_TYPE_BUNDLE;
    CHECK_HR(ID3D12Device_CreateCommandQueue(device, &desc, &IID_ID3D12CommandQueue, (void **)&queue), E_INVALIDARG);
    CHECK_LOG("pDesc->Type", "BUNDLE");
    RELOG_MARK();
    desc.Type = (D3D12_COMMAND_LIST_TYPE)42;
    CHECK_HR(ID3D12Device_CreateCommandQueue(device, &desc, &IID_ID3D12CommandQueue, (void **)&queue), E_INVALIDARG);
    CHECK_LOG("pDesc->Type");
    RELOG_MARK();
    desc.Type = D3D12_COMMAND_LIST_TYPE_DIRECT;
    desc.Flags = (D3D12_COMMAND_QUEUE_FLAGS)0x10;
    CHECK_HR(ID3D12Device_CreateCommandQueue(device, &desc, &IID_ID3D12CommandQueue, (void **)&queue), E_INVALIDARG);
    CHECK_LOG("pDesc->Flags");
    RELOG_MARK();
    desc.Flags = D3D12_COMMAND_QUEUE_FLAG_NONE;
    desc.Priority = 7;
    CHECK_HR(ID3D12Device_CreateCommandQueue(device, &desc, &IID_ID3D12CommandQueue, (void **)&queue), E_INVALIDARG);
    CHECK_LOG("pDesc->Priority");
    RELOG_MARK();
    desc.Priority = D3D12_COMMAND_QUEUE_PRIORITY_NORMAL;
    desc.NodeMask = 2;
    CHECK_HR(ID3D12Device_CreateCommandQueue(device, &desc, &IID_ID3D12CommandQueue, (void **)&queue), E_INVALIDARG);
    CHECK_LOG("NodeMask");
    RELOG_MARK();
    desc.NodeMask = 0;
    CHECK_HR(ID3D12Device_CreateCommandQueue(device, &desc, &IID_ID3D12CommandQueue, NULL), E_POINTER);
    CHECK_LOG("ppCommandQueue");
    RELOG_MARK();
    CHECK_HR(ID3D12Device_CreateCommandQueue(device, &desc, &IID_ID3D12Fence, (void **)&queue), E_NOINTERFACE);
    CHECK(queue == NULL);
    CHECK_LOG("CreateCommandQueue", "riid names an interface");
}

static void test_clocks(ID3D12Device *device, D3D12_COMMAND_LIST_TYPE type)
{
    ID3D12CommandQueue *queue = harness_create_queue(device, type);
    UINT64 frequency = 0, gpu = 0, cpu = 0, gpu2 = 0, cpu2 = 0;
    LARGE_INTEGER qpc_frequency, qpc;
    LOG_MARK();

    CHECK_HR(ID3D12CommandQueue_GetTimestampFrequency(queue, &frequency), S_OK);
    CHECK(frequency >= 1000000);
    CHECK_HR(ID3D12CommandQueue_GetClockCalibration(queue, &gpu, &cpu), S_OK);
    CHECK(QueryPerformanceFrequency(&qpc_frequency) && qpc_frequency.QuadPart == 1000000000);
    CHECK(QueryPerformanceCounter(&qpc) && (UINT64)qpc.QuadPart >= cpu);
    CHECK_HR(ID3D12CommandQueue_GetClockCalibration(queue, &gpu2, &cpu2), S_OK);
    CHECK(gpu2 >= gpu && cpu2 >= cpu);
    CHECK_NO_LOG();
    CHECK_HR(ID3D12CommandQueue_GetTimestampFrequency(queue, NULL), E_INVALIDARG);
    CHECK_LOG("pFrequency");
    RELOG_MARK();
    CHECK_HR(ID3D12CommandQueue_GetClockCalibration(queue, &gpu, NULL), E_INVALIDARG);
    CHECK_LOG("pCpuTimestamp");
    ID3D12CommandQueue_Release(queue);
}

static void test_execute_arguments(ID3D12Device *device)
{
    ID3D12CommandQueue *direct = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    struct harness_list compute = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12CommandList *lists[2] = {NULL, NULL};
    ID3D12Fence *fence = NULL;
    LOG_MARK();

    ID3D12CommandQueue_ExecuteCommandLists(direct, 0, NULL);
    CHECK_NO_LOG();
    ID3D12CommandQueue_ExecuteCommandLists(direct, 1, NULL);
    CHECK_LOG("ppCommandLists");
    RELOG_MARK();
    ID3D12CommandQueue_ExecuteCommandLists(direct, 2, lists);
    CHECK_LOG("ppCommandLists[0]", "NULL");
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(compute.list), S_OK);
    lists[0] = (ID3D12CommandList *)compute.list;
    ID3D12CommandQueue_ExecuteCommandLists(direct, 1, lists);
    CHECK_LOG("COMPUTE", "DIRECT");
    RELOG_MARK();

    CHECK_HR(ID3D12CommandQueue_Signal(direct, NULL, 1), E_INVALIDARG);
    CHECK_LOG("pFence");
    RELOG_MARK();
    CHECK_HR(ID3D12CommandQueue_Wait(direct, (ID3D12Fence *)compute.list, 1), E_INVALIDARG);
    CHECK_LOG("pFence");
    RELOG_MARK();

    /* The queue still works after refusing bad calls. */
    CHECK_HR(ID3D12Device_CreateFence(device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&fence), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(direct, fence, 3), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 3, NULL), S_OK);
    CHECK(ID3D12Fence_GetCompletedValue(fence) == 3);
    CHECK_NO_LOG();

    ID3D12Fence_Release(fence);
    harness_release_list(&compute);
    ID3D12CommandQueue_Release(direct);
}

/* Several lists in one call run in order: the second copies what the first wrote. */
static void test_execute_order(ID3D12Device *device)
{
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    struct harness_list first = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    struct harness_list second = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12Resource *middle = harness_create_buffer(device, D3D12_HEAP_TYPE_DEFAULT, 256, D3D12_RESOURCE_STATE_COMMON);
    ID3D12Resource *readback = harness_create_buffer(device, D3D12_HEAP_TYPE_READBACK, 256, D3D12_RESOURCE_STATE_COPY_DEST);
    D3D12_WRITEBUFFERIMMEDIATE_PARAMETER parameter = {ID3D12Resource_GetGPUVirtualAddress(middle) + 16, 0x600dcafe};
    ID3D12CommandList *lists[2];
    ID3D12Fence *fence = NULL;
    uint32_t *data = NULL;

    ID3D12GraphicsCommandList2_WriteBufferImmediate(first.list, 1, &parameter, NULL);
    ID3D12GraphicsCommandList2_CopyBufferRegion(second.list, readback, 0, middle, 16, 4);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(first.list), S_OK);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(second.list), S_OK);
    lists[0] = (ID3D12CommandList *)first.list;
    lists[1] = (ID3D12CommandList *)second.list;
    ID3D12CommandQueue_ExecuteCommandLists(queue, 2, lists);
    CHECK_HR(ID3D12Device_CreateFence(device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&fence), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, 1), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 1, NULL), S_OK);
    CHECK_HR(ID3D12Resource_Map(readback, 0, NULL, (void **)&data), S_OK);
    CHECK(data && data[0] == 0x600dcafe);
    ID3D12Resource_Unmap(readback, 0, NULL);

    ID3D12Fence_Release(fence);
    ID3D12Resource_Release(middle);
    ID3D12Resource_Release(readback);
    harness_release_list(&first);
    harness_release_list(&second);
    ID3D12CommandQueue_Release(queue);
}

int main(void)
{
    harness_init();
    ID3D12Device *device = harness_create_device();
    test_create(device);
    test_clocks(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    test_clocks(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    test_clocks(device, D3D12_COMMAND_LIST_TYPE_COPY);
    test_execute_arguments(device);
    test_execute_order(device);
    harness_release_device(device);
    return harness_finish();
}
