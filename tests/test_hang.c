/* Waits that can never be met: past the hang timeout (D3D12XSSetHangTimeout) the device
 * reports DXGI_ERROR_DEVICE_HUNG, pending waits end with an error, events are set, fences
 * read UINT64_MAX, and everything can still be released. A fresh device per scenario. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "harness.h"

/* Upper bounds are generous on purpose: a loaded 2-core CI machine runs this beside other
 * tests. They only need to prove the configured timeout, not the 20 s default, ended the wait. */
static void check_elapsed(uint64_t start, unsigned low, unsigned high, const char *what, int line)
{
    uint64_t elapsed = harness_now_ms() - start;
    harness_check(elapsed >= low && elapsed <= high, __FILE__, line, "%s took %llu ms (expected %u..%u)", what,
            (unsigned long long)elapsed, low, high);
}
#define CHECK_ELAPSED(start, low, high, what) check_elapsed(start, low, high, what, __LINE__)

/* What holds after any hang: the reason, fences at UINT64_MAX, calls that fail without
 * noise, waits that end at once, nothing new created (as on Windows). */
static void check_after_hang(ID3D12Device *device, ID3D12CommandQueue *queue, ID3D12Fence *fence, struct harness_list list)
{
    HANDLE event = CreateEvent(NULL, FALSE, FALSE, NULL);
    ID3D12CommandList *lists[1] = {(ID3D12CommandList *)list.list};
    ID3D12CommandAllocator *allocator = (ID3D12CommandAllocator *)(uintptr_t)1;
    uint64_t start;
    LOG_MARK();

    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(device), DXGI_ERROR_DEVICE_HUNG);
    CHECK_MSG(ID3D12Fence_GetCompletedValue(fence) == UINT64_MAX, "completed value %llu after the hang",
            (unsigned long long)ID3D12Fence_GetCompletedValue(fence));
    /* Signals and waits report the removal (it was logged once already). */
    CHECK_HR(ID3D12Fence_Signal(fence, 1000), DXGI_ERROR_DEVICE_HUNG);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, 1000), DXGI_ERROR_DEVICE_HUNG);
    CHECK_HR(ID3D12CommandQueue_Wait(queue, fence, 1000), DXGI_ERROR_DEVICE_HUNG);
    CHECK_NO_LOG();
    /* An event on any value is set at once. */
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 5000, event), S_OK);
    CHECK(WaitForSingleObject(event, 0) == WAIT_OBJECT_0);
    /* A blocking wait ends quickly with the reason. */
    start = harness_now_ms();
    {
        HRESULT hr = ID3D12Fence_SetEventOnCompletion(fence, 5000, NULL);
        CHECK_MSG(hr == DXGI_ERROR_DEVICE_HUNG, "SetEventOnCompletion(NULL) after the hang returned 0x%08x", (unsigned)hr);
    }
    CHECK_ELAPSED(start, 0, 5000, "a blocking wait after the hang");
    CHECK_NO_LOG();
    /* Executing on a removed device: nothing runs, one line says why. */
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), S_OK);
    ID3D12CommandQueue_ExecuteCommandLists(queue, 1, lists);
    CHECK_LOG("ExecuteCommandLists", "removed");
    RELOG_MARK();
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(device), DXGI_ERROR_DEVICE_HUNG);
    CHECK_HR(ID3D12Device_CreateCommandAllocator(device, ID3D12CommandQueue_GetDesc(queue).Type, &IID_ID3D12CommandAllocator,
            (void **)&allocator), DXGI_ERROR_DEVICE_REMOVED);
    CHECK(!allocator);
    CHECK_LOG("CreateCommandAllocator", "device was removed", "0x887a0006");
    harness_release_list(&list);
    CloseHandle(event);
}

/* A queue waits on a value nobody will signal, then signals a second fence; a blocking wait
 * on the second fence ends with DXGI_ERROR_DEVICE_HUNG after the timeout. */
static void test_blocking_wait_hangs(void)
{
    ID3D12Device *device = harness_create_device();
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT); /* before the hang: none after */
    ID3D12Fence *never = harness_create_fence(device, 0), *second = harness_create_fence(device, 0);
    uint64_t start;
    LOG_MARK();

    CHECK_HR(D3D12XSSetHangTimeout(device, 300), S_OK);
    CHECK_HR(ID3D12Fence_SetName(never, L"never"), S_OK);
    CHECK_HR(ID3D12Fence_SetName(second, L"second"), S_OK);
    CHECK_HR(ID3D12CommandQueue_Wait(queue, never, 1), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, second, 1), S_OK);
    /* Nothing is hung before anyone waits. */
    harness_sleep_ms(50);
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(device), S_OK);
    CHECK(ID3D12Fence_GetCompletedValue(second) == 0);
    CHECK_NO_LOG();

    start = harness_now_ms();
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(second, 1, NULL), DXGI_ERROR_DEVICE_HUNG);
    CHECK_ELAPSED(start, 250, 10000, "the blocking wait");
    /* The watchdog names the root cause: the queue's held wait, older than the host wait. */
    CHECK_LOG("DXGI_ERROR_DEVICE_HUNG", "fence 'never' to reach 1", "no queue or CPU signal");
    CHECK(ID3D12Fence_GetCompletedValue(never) == UINT64_MAX);
    CHECK(ID3D12Fence_GetCompletedValue(second) == UINT64_MAX);
    check_after_hang(device, queue, second, list);

    /* Everything can be released; the queue drops its held-back operations. */
    CHECK(ID3D12CommandQueue_Release(queue) == 0);
    CHECK(ID3D12Fence_Release(never) == 0);
    CHECK(ID3D12Fence_Release(second) == 0);
    harness_release_device(device);
}

/* The same hang seen through events: the waiter thread sets them. */
static void test_event_hangs(void)
{
    ID3D12Device *device = harness_create_device();
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_COMPUTE); /* before the hang: none after */
    ID3D12Fence *never = harness_create_fence(device, 0), *second = harness_create_fence(device, 0), *idle = harness_create_fence(device, 7);
    HANDLE event = CreateEvent(NULL, FALSE, FALSE, NULL), manual = CreateEvent(NULL, TRUE, FALSE, NULL);
    uint64_t start;
    LOG_MARK();

    CHECK_HR(D3D12XSSetHangTimeout(device, 300), S_OK);
    CHECK_HR(ID3D12Fence_SetName(never, L"never"), S_OK);
    CHECK_HR(ID3D12CommandQueue_Wait(queue, never, 1), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, second, 1), S_OK);
    start = harness_now_ms();
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(second, 1, event), S_OK);
    /* A fence no queue touches, waited on too: set by the same hang. */
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(idle, 8, manual), S_OK);
    CHECK(WaitForSingleObject(event, 100) == WAIT_TIMEOUT);
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(device), S_OK);
    CHECK(WaitForSingleObject(event, 3000) == WAIT_OBJECT_0);
    CHECK_ELAPSED(start, 250, 10000, "the event");
    CHECK(WaitForSingleObject(manual, 1000) == WAIT_OBJECT_0);
    CHECK(WaitForSingleObject(manual, 0) == WAIT_OBJECT_0);
    CHECK(WaitForSingleObject(event, 0) == WAIT_TIMEOUT);
    CHECK_LOG("DXGI_ERROR_DEVICE_HUNG", "fence 'never'");
    check_after_hang(device, queue, idle, list);

    CloseHandle(event);
    CloseHandle(manual);
    CHECK(ID3D12CommandQueue_Release(queue) == 0);
    CHECK(ID3D12Fence_Release(never) == 0);
    CHECK(ID3D12Fence_Release(second) == 0);
    CHECK(ID3D12Fence_Release(idle) == 0);
    harness_release_device(device);
}

/* An event already waiting under the default timeout: lowering the timeout ends it. */
static void test_timeout_lowered_while_waiting(void)
{
    ID3D12Device *device = harness_create_device();
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_COPY);
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_COPY); /* before the hang: none after */
    ID3D12Fence *never = harness_create_fence(device, 0), *second = harness_create_fence(device, 0);
    HANDLE event = CreateEvent(NULL, FALSE, FALSE, NULL);
    uint64_t start;
    LOG_MARK();

    CHECK_HR(ID3D12CommandQueue_Wait(queue, never, 1), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, second, 1), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(second, 1, event), S_OK);
    /* The default timeout (D3D12XS_HANG_TIMEOUT_MS or 20 s) is far away. */
    CHECK(WaitForSingleObject(event, 300) == WAIT_TIMEOUT);
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(device), S_OK);
    CHECK_NO_LOG();

    start = harness_now_ms();
    CHECK_HR(D3D12XSSetHangTimeout(device, 200), S_OK);
    CHECK(WaitForSingleObject(event, 3000) == WAIT_OBJECT_0);
    CHECK_ELAPSED(start, 0, 10000, "the event after lowering the timeout");
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(device), DXGI_ERROR_DEVICE_HUNG);
    CHECK_LOG("DXGI_ERROR_DEVICE_HUNG", "200 ms");
    check_after_hang(device, queue, second, list);

    CloseHandle(event);
    CHECK(ID3D12CommandQueue_Release(queue) == 0);
    CHECK(ID3D12Fence_Release(never) == 0);
    CHECK(ID3D12Fence_Release(second) == 0);
    harness_release_device(device);
}

/* Timeout 0 means never: nothing is declared hung, until a timeout is set again. */
static void test_timeout_zero(void)
{
    ID3D12Device *device = harness_create_device();
    ID3D12Fence *never = harness_create_fence(device, 0);
    HANDLE event = CreateEvent(NULL, FALSE, FALSE, NULL);
    uint64_t start;
    LOG_MARK();

    CHECK_HR(D3D12XSSetHangTimeout(device, 0), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(never, 1, event), S_OK);
    CHECK(WaitForSingleObject(event, 400) == WAIT_TIMEOUT);
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(device), S_OK);
    CHECK(ID3D12Fence_GetCompletedValue(never) == 0);
    CHECK_NO_LOG();
    start = harness_now_ms();
    CHECK_HR(D3D12XSSetHangTimeout(device, 150), S_OK);
    CHECK(WaitForSingleObject(event, 3000) == WAIT_OBJECT_0);
    CHECK_ELAPSED(start, 0, 10000, "the event after setting a timeout");
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(device), DXGI_ERROR_DEVICE_HUNG);
    CHECK_LOG("DXGI_ERROR_DEVICE_HUNG");

    CloseHandle(event);
    CHECK(ID3D12Fence_Release(never) == 0);
    harness_release_device(device);
}

/* Two detectors at once (a blocked thread and the waiter thread): one removal, one line,
 * and the blocked thread's wait ends with the reason. */
struct blocked_wait {
    ID3D12Fence *fence;
    HRESULT hr;
    uint64_t end_ms;
};

static void *blocked_wait_main(void *context)
{
    struct blocked_wait *wait = context;
    wait->hr = ID3D12Fence_SetEventOnCompletion(wait->fence, 1, NULL);
    wait->end_ms = harness_now_ms();
    return NULL;
}

static void test_two_threads_hang(void)
{
    ID3D12Device *device = harness_create_device();
    ID3D12Fence *a = harness_create_fence(device, 0), *b = harness_create_fence(device, 0);
    HANDLE event = CreateEvent(NULL, TRUE, FALSE, NULL);
    struct blocked_wait waits[2] = {{.fence = a}, {.fence = b}};
    pthread_t threads[2];
    LOG_MARK();

    CHECK_HR(D3D12XSSetHangTimeout(device, 400), S_OK);
    /* Times count from the event registration: the first detector may be the waiter thread,
     * whose clock starts here, while a loaded machine starts the threads later. */
    uint64_t start = harness_now_ms();
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(b, 2, event), S_OK);
    for (int i = 0; i < 2; i++)
        CHECK(pthread_create(&threads[i], NULL, blocked_wait_main, &waits[i]) == 0);
    for (int i = 0; i < 2; i++) {
        pthread_join(threads[i], NULL);
        CHECK_MSG(waits[i].hr == DXGI_ERROR_DEVICE_HUNG, "blocked wait %d returned 0x%08x", i, (unsigned)waits[i].hr);
        CHECK_MSG(waits[i].end_ms - start >= 380 && waits[i].end_ms - start <= 10000, "blocked wait %d ended %llu ms after the registration", i,
                (unsigned long long)(waits[i].end_ms - start));
    }
    CHECK(WaitForSingleObject(event, 1000) == WAIT_OBJECT_0);
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(device), DXGI_ERROR_DEVICE_HUNG);
    CHECK_LOG("DXGI_ERROR_DEVICE_HUNG");

    CloseHandle(event);
    ID3D12Fence_Release(a);
    ID3D12Fence_Release(b);
    harness_release_device(device);
}

/* GPU work that runs far longer than the timeout without finishing an operation counts as
 * hung (like a TDR); the work in flight must still not be torn down under the GPU. */
static void test_slow_gpu_work(void)
{
    enum { BIG = 64 << 20, COPIES = 24 };
    ID3D12Device *device = harness_create_device();
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12Resource *a = harness_create_buffer(device, D3D12_HEAP_TYPE_DEFAULT, BIG, D3D12_RESOURCE_STATE_COMMON);
    ID3D12Resource *b = harness_create_buffer(device, D3D12_HEAP_TYPE_DEFAULT, BIG, D3D12_RESOURCE_STATE_COMMON);
    ID3D12Fence *done = harness_create_fence(device, 0);
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12CommandList *lists[1] = {(ID3D12CommandList *)list.list};
    D3D12_RESOURCE_BARRIER barrier;
    HRESULT hr;
    uint64_t start;
    LOG_MARK();

    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
    for (int i = 0; i < COPIES; i++) {
        ID3D12GraphicsCommandList2_CopyResource(list.list, (i & 1) ? a : b, (i & 1) ? b : a);
        ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    }
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), S_OK);
    CHECK_HR(D3D12XSSetHangTimeout(device, 60), S_OK);
    start = harness_now_ms();
    ID3D12CommandQueue_ExecuteCommandLists(queue, 1, lists);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, done, 1), S_OK);
    hr = ID3D12Fence_SetEventOnCompletion(done, 1, NULL);
    if (hr == S_OK) {
        /* The machine copied 1.5 GiB faster than the timeout: nothing to check. */
        printf("slow GPU work finished in %llu ms; hang not provoked\n", (unsigned long long)(harness_now_ms() - start));
        CHECK_NO_LOG();
    } else {
        CHECK_HR(hr, DXGI_ERROR_DEVICE_HUNG);
        CHECK_LOG("DXGI_ERROR_DEVICE_HUNG");
        CHECK_HR(ID3D12Device_GetDeviceRemovedReason(device), DXGI_ERROR_DEVICE_HUNG);
        printf("slow GPU work declared hung after %llu ms\n", (unsigned long long)(harness_now_ms() - start));
    }
    /* Released while the copies may still run: the buffers they use first. */
    CHECK(ID3D12Resource_Release(a) == 0);
    CHECK(ID3D12Resource_Release(b) == 0);
    harness_release_list(&list);
    ID3D12Fence_Release(done);
    ID3D12CommandQueue_Release(queue);
    harness_release_device(device);
}

static void test_bad_arguments(void)
{
    void *not_a_device[4] = {NULL, NULL, NULL, NULL};
    LOG_MARK();
    CHECK_HR(D3D12XSSetHangTimeout(NULL, 100), E_INVALIDARG);
    CHECK_LOG("D3D12XSSetHangTimeout", "device", "NULL");
    RELOG_MARK();
    CHECK_HR(D3D12XSSetHangTimeout((ID3D12Device *)not_a_device, 100), E_INVALIDARG);
    CHECK_LOG("D3D12XSSetHangTimeout", "device");
    (void)not_a_device;
}

int main(void)
{
    uint64_t start = harness_now_ms();
    harness_init();
    test_bad_arguments();
    test_blocking_wait_hangs();
    test_event_hangs();
    test_timeout_lowered_while_waiting();
    test_timeout_zero();
    test_two_threads_hang();
    test_slow_gpu_work();
    printf("total %llu ms\n", (unsigned long long)(harness_now_ms() - start));
    return harness_finish();
}
