/* Fence values that go down (D3D12 allows it: a Signal sets the value). CPU and queue signals
 * below the current value, waits registered before a raise and a lowering, queue waits released
 * by CPU signals and not by lower ones, host waits across a lowering GPU signal, events, waits
 * across queues with the value going down between, values near UINT64_MAX, a CPU Signal while a
 * queue signal is still pending, and a hang line that names D3D12 values. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

#define MARKER 0x600d0000u

/* Waits (bounded) for a fence to reach a value through an event. */
static bool event_reached(ID3D12Fence *fence, UINT64 value, DWORD timeout_ms)
{
    HANDLE event = CreateEvent(NULL, FALSE, FALSE, NULL);
    bool ok = ID3D12Fence_SetEventOnCompletion(fence, value, event) == S_OK && WaitForSingleObject(event, timeout_ms) == WAIT_OBJECT_0;
    CloseHandle(event);
    return ok;
}

/* Everything queued on the queue so far has finished. */
static void idle(ID3D12Device *device, ID3D12CommandQueue *queue)
{
    ID3D12Fence *done = harness_create_fence(device, 0);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, done, 1), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(done, 1, NULL), S_OK);
    ID3D12Fence_Release(done);
}

/* A readback word that a list executed on queue sets to marker: proves the work after a Wait ran
 * (or, still 0, that it did not). */
struct probe {
    ID3D12Resource *readback;
    struct harness_list list;
};

static void probe_execute(ID3D12Device *device, ID3D12CommandQueue *queue, struct probe *probe, UINT marker)
{
    D3D12_WRITEBUFFERIMMEDIATE_PARAMETER parameter;
    ID3D12CommandList *lists[1];
    uint32_t *data = NULL;

    probe->readback = harness_create_buffer(device, D3D12_HEAP_TYPE_READBACK, 16, D3D12_RESOURCE_STATE_COPY_DEST);
    CHECK_HR(ID3D12Resource_Map(probe->readback, 0, NULL, (void **)&data), S_OK);
    if (data)
        memset(data, 0, 16);
    ID3D12Resource_Unmap(probe->readback, 0, NULL);
    probe->list = harness_create_list(device, ID3D12CommandQueue_GetDesc(queue).Type);
    parameter.Dest = ID3D12Resource_GetGPUVirtualAddress(probe->readback);
    parameter.Value = marker;
    ID3D12GraphicsCommandList2_WriteBufferImmediate(probe->list.list, 1, &parameter, NULL);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(probe->list.list), S_OK);
    lists[0] = (ID3D12CommandList *)probe->list.list;
    ID3D12CommandQueue_ExecuteCommandLists(queue, 1, lists);
}

static uint32_t probe_read(struct probe *probe)
{
    uint32_t *data = NULL, value = 0xdeadbeef;
    if (SUCCEEDED(ID3D12Resource_Map(probe->readback, 0, NULL, (void **)&data)) && data)
        value = data[0];
    ID3D12Resource_Unmap(probe->readback, 0, NULL);
    return value;
}

static void probe_release(struct probe *probe)
{
    harness_release_list(&probe->list);
    ID3D12Resource_Release(probe->readback);
}

/* CPU Signal 10 then 5: the value is 5; an event for 7 waits for a raise to 8 (6 is not enough). */
static void test_cpu_lower(ID3D12Device *device)
{
    ID3D12Fence *fence = harness_create_fence(device, 0);
    HANDLE event = CreateEvent(NULL, FALSE, FALSE, NULL);
    LOG_MARK();

    CHECK_HR(ID3D12Fence_Signal(fence, 10), S_OK);
    CHECK_HR(ID3D12Fence_Signal(fence, 5), S_OK);
    CHECK_MSG(ID3D12Fence_GetCompletedValue(fence) == 5, "completed %llu after Signal(10), Signal(5)",
            (unsigned long long)ID3D12Fence_GetCompletedValue(fence));
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 7, event), S_OK);
    CHECK(WaitForSingleObject(event, 50) == WAIT_TIMEOUT);
    CHECK_HR(ID3D12Fence_Signal(fence, 6), S_OK);
    CHECK_MSG(WaitForSingleObject(event, 50) == WAIT_TIMEOUT, "the event for 7 was set by Signal(6)");
    CHECK_HR(ID3D12Fence_Signal(fence, 8), S_OK);
    CHECK_MSG(WaitForSingleObject(event, 5000) == WAIT_OBJECT_0, "the event for 7 was not set by Signal(8)");
    CHECK(ID3D12Fence_GetCompletedValue(fence) == 8);

    /* Events and blocking waits for values at or below the current one are met at once. */
    CHECK_HR(ID3D12Fence_Signal(fence, 2), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 2, event), S_OK);
    CHECK(WaitForSingleObject(event, 0) == WAIT_OBJECT_0);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 1, NULL), S_OK);

    /* A raise met the wait even if a lower signal follows before the waiter looks: registered
     * at 2, the fence goes 9 then 4; the event is set (9 >= 7), the value stays 4. */
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 7, event), S_OK);
    CHECK_HR(ID3D12Fence_Signal(fence, 9), S_OK);
    CHECK_HR(ID3D12Fence_Signal(fence, 4), S_OK);
    CHECK_MSG(WaitForSingleObject(event, 5000) == WAIT_OBJECT_0, "the event for 7 missed the Signal(9) before Signal(4)");
    CHECK(ID3D12Fence_GetCompletedValue(fence) == 4);
    /* Registered after that: 9 is past, so 7 is not reached. */
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 7, event), S_OK);
    CHECK(WaitForSingleObject(event, 50) == WAIT_TIMEOUT);
    CHECK_HR(ID3D12Fence_Signal(fence, 7), S_OK);
    CHECK(WaitForSingleObject(event, 5000) == WAIT_OBJECT_0);
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(device), S_OK);
    CHECK_NO_LOG();
    CloseHandle(event);
    ID3D12Fence_Release(fence);
}

/* queue Signal 10 then Signal 3: the value is 3 once the queue is idle, events registered before
 * for 10 are set (by the 10) and for 11 are not. */
static void test_queue_lower(ID3D12Device *device)
{
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12CommandQueue *copy = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_COPY);
    ID3D12Fence *fence = harness_create_fence(device, 0);
    HANDLE ten = CreateEvent(NULL, TRUE, FALSE, NULL), eleven = CreateEvent(NULL, TRUE, FALSE, NULL);
    LOG_MARK();

    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 10, ten), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 11, eleven), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, 10), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, 3), S_OK);
    idle(device, queue);
    CHECK_MSG(ID3D12Fence_GetCompletedValue(fence) == 3, "completed %llu after queue Signal(10), Signal(3)",
            (unsigned long long)ID3D12Fence_GetCompletedValue(fence));
    CHECK_MSG(WaitForSingleObject(ten, 5000) == WAIT_OBJECT_0, "the event for 10 was not set by the queue's Signal(10)");
    CHECK_MSG(WaitForSingleObject(eleven, 50) == WAIT_TIMEOUT, "the event for 11 was set");

    /* The same value again, and one below from another queue: submission order decides. */
    CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, 3), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(copy, fence, 1), S_OK);
    idle(device, copy);
    idle(device, queue);
    CHECK(ID3D12Fence_GetCompletedValue(fence) == 1);
    CHECK_HR(ID3D12CommandQueue_Signal(copy, fence, 11), S_OK);
    CHECK_MSG(WaitForSingleObject(eleven, 5000) == WAIT_OBJECT_0, "the event for 11 was not set by Signal(11)");
    idle(device, copy);
    CHECK(ID3D12Fence_GetCompletedValue(fence) == 11);
    /* A CPU signal after the queue's lowers it again. */
    CHECK_HR(ID3D12Fence_Signal(fence, 0), S_OK);
    CHECK(ID3D12Fence_GetCompletedValue(fence) == 0);
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(device), S_OK);
    CHECK_NO_LOG();
    CloseHandle(ten);
    CloseHandle(eleven);
    ID3D12Fence_Release(fence);
    ID3D12CommandQueue_Release(copy);
    ID3D12CommandQueue_Release(queue);
}

/* A queue Wait(8) registered at 3: a CPU Signal 4 does not release it, a CPU Signal 9 does; the
 * work after it runs only then. Lowered to 2 afterwards, a Wait(5) needs a new raise. */
static void test_queue_wait_cpu_release(ID3D12Device *device)
{
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12CommandQueue *other = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12Fence *fence = harness_create_fence(device, 3), *done = harness_create_fence(device, 0);
    struct probe first, second;
    LOG_MARK();

    CHECK_HR(ID3D12CommandQueue_Wait(queue, fence, 8), S_OK);
    probe_execute(device, queue, &first, MARKER + 1);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, done, 1), S_OK);
    CHECK_HR(ID3D12Fence_Signal(fence, 4), S_OK);
    harness_sleep_ms(50);
    CHECK_MSG(ID3D12Fence_GetCompletedValue(done) == 0 && probe_read(&first) == 0, "the queue went past Wait(8) with the fence at 4");
    CHECK_HR(ID3D12Fence_Signal(fence, 9), S_OK);
    CHECK_MSG(event_reached(done, 1, 10000), "Wait(8) was not released by the CPU Signal(9)");
    CHECK(probe_read(&first) == MARKER + 1);

    CHECK_HR(ID3D12Fence_Signal(fence, 2), S_OK);
    CHECK(ID3D12Fence_GetCompletedValue(fence) == 2);
    CHECK_HR(ID3D12CommandQueue_Wait(queue, fence, 5), S_OK);
    probe_execute(device, queue, &second, MARKER + 2);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, done, 2), S_OK);
    harness_sleep_ms(50);
    CHECK_MSG(ID3D12Fence_GetCompletedValue(done) == 1 && probe_read(&second) == 0, "the queue went past Wait(5) with the fence at 2");
    /* Another queue's raise releases it. */
    CHECK_HR(ID3D12CommandQueue_Signal(other, fence, 6), S_OK);
    CHECK_MSG(event_reached(done, 2, 10000), "Wait(5) was not released by the other queue's Signal(6)");
    CHECK(probe_read(&second) == MARKER + 2);
    CHECK(ID3D12Fence_GetCompletedValue(fence) == 6);
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(device), S_OK);
    CHECK_NO_LOG();
    probe_release(&first);
    probe_release(&second);
    ID3D12Fence_Release(fence);
    ID3D12Fence_Release(done);
    ID3D12CommandQueue_Release(other);
    ID3D12CommandQueue_Release(queue);
}

/* A blocking SetEventOnCompletion(20) in another thread. */
struct host_wait {
    pthread_t thread;
    ID3D12Fence *fence;
    UINT64 value;
    HRESULT hr;
    _Atomic bool returned;
};

static void *host_wait_main(void *context)
{
    struct host_wait *wait = context;
    wait->hr = ID3D12Fence_SetEventOnCompletion(wait->fence, wait->value, NULL);
    atomic_store(&wait->returned, true);
    return NULL;
}

/* Host waits for 20 while a queue lowers the value to 3: they return only at a raise to 25. An
 * event registered before a queue's 30-then-2 is set, though the value ends at 2. */
static void test_gpu_lower_host_wait(ID3D12Device *device)
{
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12Fence *fence = harness_create_fence(device, 5), *gate = harness_create_fence(device, 0);
    HANDLE event = CreateEvent(NULL, TRUE, FALSE, NULL);
    struct host_wait wait = {.fence = fence, .value = 20};
    LOG_MARK();

    CHECK(pthread_create(&wait.thread, NULL, host_wait_main, &wait) == 0);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 20, event), S_OK);
    harness_sleep_ms(20);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, 3), S_OK);
    idle(device, queue);
    CHECK(ID3D12Fence_GetCompletedValue(fence) == 3);
    harness_sleep_ms(50);
    CHECK_MSG(!atomic_load(&wait.returned), "SetEventOnCompletion(20, NULL) returned with the fence lowered to 3");
    CHECK_MSG(WaitForSingleObject(event, 0) == WAIT_TIMEOUT, "the event for 20 was set with the fence lowered to 3");
    CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, 25), S_OK);
    pthread_join(wait.thread, NULL);
    CHECK_HR(wait.hr, S_OK);
    CHECK(WaitForSingleObject(event, 5000) == WAIT_OBJECT_0);
    CHECK(ID3D12Fence_GetCompletedValue(fence) >= 25);

    /* Queue signals 30 then 2 held behind a gate; the event registered before them (value 25
     * then, reached: so lower the fence first). */
    CHECK_HR(ID3D12Fence_Signal(fence, 1), S_OK);
    CHECK(ResetEvent(event));
    CHECK_HR(ID3D12CommandQueue_Wait(queue, gate, 1), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, 30), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, 2), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 20, event), S_OK);
    CHECK(WaitForSingleObject(event, 50) == WAIT_TIMEOUT);
    CHECK_HR(ID3D12Fence_Signal(gate, 1), S_OK);
    CHECK_MSG(WaitForSingleObject(event, 5000) == WAIT_OBJECT_0, "the event for 20 missed the queue's Signal(30) before Signal(2)");
    idle(device, queue);
    CHECK(ID3D12Fence_GetCompletedValue(fence) == 2);
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(device), S_OK);
    CHECK_NO_LOG();
    CloseHandle(event);
    ID3D12Fence_Release(gate);
    ID3D12Fence_Release(fence);
    ID3D12CommandQueue_Release(queue);
}

/* Queue B waits for 8 (registered at 0); queue A signals 3 (not enough), then 10 and 1 at once:
 * the 10 releases B though the value ends at 1. Then B waits for 5: A's 4 is not enough (10 is
 * past), a CPU 6 is. */
static void test_cross_queue_lower(ID3D12Device *device)
{
    ID3D12CommandQueue *a = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12CommandQueue *b = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12Fence *fence = harness_create_fence(device, 0), *done = harness_create_fence(device, 0);
    struct probe first, second;
    LOG_MARK();

    CHECK_HR(ID3D12CommandQueue_Wait(b, fence, 8), S_OK);
    probe_execute(device, b, &first, MARKER + 3);
    CHECK_HR(ID3D12CommandQueue_Signal(b, done, 1), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(a, fence, 3), S_OK);
    idle(device, a);
    harness_sleep_ms(30);
    CHECK_MSG(ID3D12Fence_GetCompletedValue(done) == 0 && probe_read(&first) == 0, "queue B went past Wait(8) with the fence at 3");
    CHECK_HR(ID3D12CommandQueue_Signal(a, fence, 10), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(a, fence, 1), S_OK);
    CHECK_MSG(event_reached(done, 1, 10000), "queue B's Wait(8) was not released by queue A's Signal(10)");
    CHECK(probe_read(&first) == MARKER + 3);
    idle(device, a);
    CHECK(ID3D12Fence_GetCompletedValue(fence) == 1);

    CHECK_HR(ID3D12CommandQueue_Wait(b, fence, 5), S_OK);
    probe_execute(device, b, &second, MARKER + 4);
    CHECK_HR(ID3D12CommandQueue_Signal(b, done, 2), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(a, fence, 4), S_OK);
    idle(device, a);
    harness_sleep_ms(30);
    CHECK_MSG(ID3D12Fence_GetCompletedValue(done) == 1 && probe_read(&second) == 0, "queue B went past Wait(5) with the fence at 4");
    CHECK_HR(ID3D12Fence_Signal(fence, 6), S_OK);
    CHECK_MSG(event_reached(done, 2, 10000), "queue B's Wait(5) was not released by the CPU Signal(6)");
    CHECK(probe_read(&second) == MARKER + 4);
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(device), S_OK);
    CHECK_NO_LOG();
    probe_release(&first);
    probe_release(&second);
    ID3D12Fence_Release(fence);
    ID3D12Fence_Release(done);
    ID3D12CommandQueue_Release(b);
    ID3D12CommandQueue_Release(a);
}

/* Values near UINT64_MAX, up and down, from the CPU and from queues. */
static void test_large_values(ID3D12Device *device)
{
    ID3D12CommandQueue *a = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12CommandQueue *b = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12Fence *fence = harness_create_fence(device, UINT64_MAX - 1), *done = harness_create_fence(device, 0);
    HANDLE event = CreateEvent(NULL, FALSE, FALSE, NULL);
    LOG_MARK();

    CHECK(ID3D12Fence_GetCompletedValue(fence) == UINT64_MAX - 1);
    CHECK_HR(ID3D12Fence_Signal(fence, 0), S_OK);
    CHECK(ID3D12Fence_GetCompletedValue(fence) == 0);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, UINT64_MAX, event), S_OK);
    CHECK_HR(ID3D12CommandQueue_Wait(b, fence, UINT64_MAX - 1), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(b, done, 1), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(a, fence, UINT64_MAX - 2), S_OK);
    idle(device, a);
    harness_sleep_ms(30);
    CHECK(ID3D12Fence_GetCompletedValue(fence) == UINT64_MAX - 2);
    CHECK_MSG(ID3D12Fence_GetCompletedValue(done) == 0, "Wait(UINT64_MAX - 1) was released by UINT64_MAX - 2");
    CHECK_HR(ID3D12CommandQueue_Signal(a, fence, UINT64_MAX - 1), S_OK);
    CHECK(event_reached(done, 1, 10000));
    CHECK(WaitForSingleObject(event, 0) == WAIT_TIMEOUT);
    CHECK_HR(ID3D12CommandQueue_Signal(a, fence, UINT64_MAX), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(a, fence, 1), S_OK);
    CHECK(WaitForSingleObject(event, 5000) == WAIT_OBJECT_0);
    idle(device, a);
    CHECK(ID3D12Fence_GetCompletedValue(fence) == 1);
    CHECK_HR(ID3D12Fence_Signal(fence, UINT64_MAX), S_OK);
    CHECK(ID3D12Fence_GetCompletedValue(fence) == UINT64_MAX);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, UINT64_MAX, NULL), S_OK);
    /* Many signals, alternating high and low: each one is a new semaphore value. */
    for (UINT64 i = 0; i < 200; i++)
        CHECK_HR(ID3D12CommandQueue_Signal(a, fence, (i & 1) ? UINT64_MAX - i : i), S_OK);
    idle(device, a);
    CHECK(ID3D12Fence_GetCompletedValue(fence) == UINT64_MAX - 199);
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(device), S_OK);
    CHECK_NO_LOG();
    CloseHandle(event);
    ID3D12Fence_Release(fence);
    ID3D12Fence_Release(done);
    ID3D12CommandQueue_Release(b);
    ID3D12CommandQueue_Release(a);
}

/* A CPU Signal while a queue signal is still pending on the GPU (behind slow copies): it sets the
 * value at once; the queue's signal sets its own value when it executes; waits see both. */
static void test_cpu_signal_while_pending(ID3D12Device *device)
{
    enum { BIG = 32 << 20, COPIES = 16 };
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12Resource *x = harness_create_buffer(device, D3D12_HEAP_TYPE_DEFAULT, BIG, D3D12_RESOURCE_STATE_COMMON);
    ID3D12Resource *y = harness_create_buffer(device, D3D12_HEAP_TYPE_DEFAULT, BIG, D3D12_RESOURCE_STATE_COMMON);
    ID3D12Fence *fence = harness_create_fence(device, 0), *done = harness_create_fence(device, 0);
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12CommandList *lists[1] = {(ID3D12CommandList *)list.list};
    HANDLE seven = CreateEvent(NULL, TRUE, FALSE, NULL), ten = CreateEvent(NULL, TRUE, FALSE, NULL);
    struct host_wait wait = {.fence = fence, .value = 7};
    D3D12_RESOURCE_BARRIER barrier;
    UINT64 before, after;
    LOG_MARK();

    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
    for (int i = 0; i < COPIES; i++) {
        ID3D12GraphicsCommandList2_CopyResource(list.list, (i & 1) ? x : y, (i & 1) ? y : x);
        ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    }
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), S_OK);
    /* Waits registered before anything: 7 (met by the CPU's 7 at once) and 10 (by the queue). */
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 7, seven), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 10, ten), S_OK);
    CHECK(pthread_create(&wait.thread, NULL, host_wait_main, &wait) == 0);
    harness_sleep_ms(20);
    ID3D12CommandQueue_ExecuteCommandLists(queue, 1, lists);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, 10), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, done, 1), S_OK);
    before = ID3D12Fence_GetCompletedValue(fence);
    CHECK_HR(ID3D12Fence_Signal(fence, 7), S_OK);
    after = ID3D12Fence_GetCompletedValue(fence);
    CHECK_MSG(after == 7 || after == 10, "completed %llu just after the CPU Signal(7)", (unsigned long long)after);
    /* The CPU's 7 meets the waits for 7 at once, whether or not the queue's 10 came yet. */
    CHECK_MSG(WaitForSingleObject(seven, 5000) == WAIT_OBJECT_0, "the event for 7 was not set by the CPU Signal(7)");
    pthread_join(wait.thread, NULL);
    CHECK_HR(wait.hr, S_OK);
    CHECK(event_reached(done, 1, 60000));
    CHECK(WaitForSingleObject(ten, 5000) == WAIT_OBJECT_0);
    if (before == 0 && after == 7) {
        /* The queue's signal was pending at the CPU's: it executes later and sets 10. */
        CHECK_MSG(ID3D12Fence_GetCompletedValue(fence) == 10, "completed %llu after the pending queue Signal(10)",
                (unsigned long long)ID3D12Fence_GetCompletedValue(fence));
    } else {
        printf("the copies finished before the CPU signal (before %llu, after %llu): pending case not provoked\n",
                (unsigned long long)before, (unsigned long long)after);
    }
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(device), S_OK);
    CHECK_NO_LOG();
    CloseHandle(seven);
    CloseHandle(ten);
    harness_release_list(&list);
    ID3D12Resource_Release(x);
    ID3D12Resource_Release(y);
    ID3D12Fence_Release(fence);
    ID3D12Fence_Release(done);
    ID3D12CommandQueue_Release(queue);
}

/* The hang line names D3D12 values: a queue waits for 50 on a fence that went 100 then 2. */
static void test_hang_names_values(void)
{
    ID3D12Device *device = harness_create_device();
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12Fence *fence = harness_create_fence(device, 0), *done = harness_create_fence(device, 0);
    LOG_MARK();

    CHECK_HR(D3D12XSSetHangTimeout(device, 300), S_OK);
    CHECK_HR(ID3D12Fence_SetName(fence, L"down"), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, 100), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, 2), S_OK);
    idle(device, queue);
    CHECK_HR(ID3D12CommandQueue_Wait(queue, fence, 50), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, done, 1), S_OK);
    CHECK_NO_LOG();
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(done, 1, NULL), DXGI_ERROR_DEVICE_HUNG);
    CHECK_LOG("DXGI_ERROR_DEVICE_HUNG", "fence 'down' to reach 50", "it is at 2;");
    CHECK(ID3D12Fence_GetCompletedValue(fence) == UINT64_MAX);
    CHECK(ID3D12CommandQueue_Release(queue) == 0);
    CHECK(ID3D12Fence_Release(fence) == 0);
    CHECK(ID3D12Fence_Release(done) == 0);
    harness_release_device(device);
}

int main(void)
{
    harness_init();
    ID3D12Device *device = harness_create_device();

    test_cpu_lower(device);
    test_queue_lower(device);
    test_queue_wait_cpu_release(device);
    test_gpu_lower_host_wait(device);
    test_cross_queue_lower(device);
    test_large_values(device);
    test_cpu_signal_while_pending(device);

    harness_release_device(device);
    test_hang_names_values();
    return harness_finish();
}
