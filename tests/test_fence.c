/* Fences: creation, CPU Signal, GetCompletedValue, SetEventOnCompletion with and without an
 * event (already reached, reached later from another thread, several registrations, a fence
 * released with a registration pending), the event shims' reset semantics, queue Signal,
 * and the ID3D12Object methods. */
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "harness.h"

/* A thread that CPU-signals a fence with a list of values, a pause before each. */
struct signaller {
    pthread_t thread;
    ID3D12Fence *fence;
    const UINT64 *values;
    size_t count;
    unsigned delay_ms;
    HRESULT hr[8];
};

static void *signaller_main(void *context)
{
    struct signaller *signaller = context;
    for (size_t i = 0; i < signaller->count; i++) {
        harness_sleep_ms(signaller->delay_ms);
        signaller->hr[i] = ID3D12Fence_Signal(signaller->fence, signaller->values[i]);
    }
    return NULL;
}

static void start_signaller(struct signaller *signaller, ID3D12Fence *fence, const UINT64 *values, size_t count, unsigned delay_ms)
{
    memset(signaller, 0, sizeof(*signaller));
    signaller->fence = fence;
    signaller->values = values;
    signaller->count = count;
    signaller->delay_ms = delay_ms;
    CHECK(pthread_create(&signaller->thread, NULL, signaller_main, signaller) == 0);
}

static void join_signaller(struct signaller *signaller)
{
    pthread_join(signaller->thread, NULL);
    for (size_t i = 0; i < signaller->count; i++)
        CHECK_MSG(signaller->hr[i] == S_OK, "Signal(%llu) from another thread returned 0x%08x", (unsigned long long)signaller->values[i],
                (unsigned)signaller->hr[i]);
}

static void test_create(ID3D12Device *device)
{
    ID3D12Fence *fence = NULL;
    LOG_MARK();

    fence = harness_create_fence(device, 0);
    CHECK(ID3D12Fence_GetCompletedValue(fence) == 0);
    ID3D12Fence_Release(fence);
    fence = harness_create_fence(device, 12345678901ull);
    CHECK(ID3D12Fence_GetCompletedValue(fence) == 12345678901ull);
    ID3D12Fence_Release(fence);
    CHECK_HR(ID3D12Device_CreateFence(device, 3, D3D12_FENCE_FLAG_NON_MONITORED, &IID_ID3D12Fence, (void **)&fence), S_OK);
    CHECK(fence && ID3D12Fence_GetCompletedValue(fence) == 3);
    if (fence)
        ID3D12Fence_Release(fence);
    CHECK_NO_LOG();

    fence = (ID3D12Fence *)(uintptr_t)0x1234;
    CHECK_HR(ID3D12Device_CreateFence(device, 0, (D3D12_FENCE_FLAGS)0x100, &IID_ID3D12Fence, (void **)&fence), E_INVALIDARG);
    CHECK_LOG("Flags", "0x100");
    CHECK_MSG(fence == NULL, "ppFence is not cleared on failure");
    RELOG_MARK();
    CHECK_HR(ID3D12Device_CreateFence(device, 0, D3D12_FENCE_FLAG_SHARED, &IID_ID3D12Fence, (void **)&fence), E_NOTIMPL);
    CHECK_LOG("Flags", "shared");
    CHECK(fence == NULL);
    RELOG_MARK();
    CHECK_HR(ID3D12Device_CreateFence(device, 0, D3D12_FENCE_FLAG_SHARED_CROSS_ADAPTER, &IID_ID3D12Fence, (void **)&fence), E_NOTIMPL);
    CHECK_LOG("Flags", "shared");
    RELOG_MARK();
    /* A NULL out pointer is D3D12's capability check: S_FALSE, whatever riid names, and no line. */
    CHECK_HR(ID3D12Device_CreateFence(device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, NULL), S_FALSE);
    CHECK_HR(ID3D12Device_CreateFence(device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Heap, NULL), S_FALSE);
    CHECK_NO_LOG();
    RELOG_MARK();
    CHECK_HR(ID3D12Device_CreateFence(device, 0, D3D12_FENCE_FLAG_NONE, NULL, (void **)&fence), E_INVALIDARG);
    CHECK_LOG("riid");
    RELOG_MARK();
    CHECK_HR(ID3D12Device_CreateFence(device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Resource, (void **)&fence), E_NOINTERFACE);
    CHECK(fence == NULL);
    CHECK_LOG("riid names an interface");
}

static void test_cpu_signal(ID3D12Device *device)
{
    ID3D12Fence *fence = harness_create_fence(device, 1);
    LOG_MARK();

    CHECK_HR(ID3D12Fence_Signal(fence, 10), S_OK);
    CHECK(ID3D12Fence_GetCompletedValue(fence) == 10);
    CHECK_HR(ID3D12Fence_Signal(fence, 11), S_OK);
    CHECK(ID3D12Fence_GetCompletedValue(fence) == 11);
    /* Equal: a no-op that succeeds. */
    CHECK_HR(ID3D12Fence_Signal(fence, 11), S_OK);
    CHECK(ID3D12Fence_GetCompletedValue(fence) == 11);
    CHECK_NO_LOG();

    /* Lower: D3D12 sets it (tests/test_fence_values.c has the waits). */
    CHECK_HR(ID3D12Fence_Signal(fence, 3), S_OK);
    CHECK(ID3D12Fence_GetCompletedValue(fence) == 3);
    CHECK_HR(ID3D12Fence_Signal(fence, 0), S_OK);
    CHECK(ID3D12Fence_GetCompletedValue(fence) == 0);

    CHECK_HR(ID3D12Fence_Signal(fence, UINT64_MAX - 1), S_OK);
    CHECK(ID3D12Fence_GetCompletedValue(fence) == UINT64_MAX - 1);
    CHECK_NO_LOG();
    ID3D12Fence_Release(fence);
}

static void test_wait_without_event(ID3D12Device *device)
{
    static const UINT64 rising[] = {7, 9};
    ID3D12Fence *fence = harness_create_fence(device, 5);
    struct signaller signaller;
    uint64_t start;
    LOG_MARK();

    /* Already reached: returns at once. */
    start = harness_now_ms();
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 5, NULL), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 0, NULL), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 3, NULL), S_OK);
    CHECK_MSG(harness_now_ms() - start < 100, "waiting on reached values took %llu ms", (unsigned long long)(harness_now_ms() - start));

    /* Not reached: blocks until another thread's Signal reaches it (7 does not, 9 does). */
    CHECK_HR(ID3D12Fence_Signal(fence, 5), S_OK);
    start = harness_now_ms();
    start_signaller(&signaller, fence, rising, 2, 60);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 8, NULL), S_OK);
    CHECK_MSG(harness_now_ms() - start >= 100, "SetEventOnCompletion(8, NULL) returned after %llu ms, before the signal of 9",
            (unsigned long long)(harness_now_ms() - start));
    CHECK(ID3D12Fence_GetCompletedValue(fence) >= 9);
    join_signaller(&signaller);
    CHECK(ID3D12Fence_GetCompletedValue(fence) == 9);
    CHECK_NO_LOG();
    ID3D12Fence_Release(fence);
}

static void test_event_basics(ID3D12Device *device)
{
    ID3D12Fence *fence = harness_create_fence(device, 2);
    HANDLE event = CreateEvent(NULL, FALSE, FALSE, NULL);
    struct signaller signaller;
    static const UINT64 values[] = {5, 20};
    uint64_t start;
    LOG_MARK();

    CHECK(event != NULL);
    CHECK(WaitForSingleObject(event, 0) == WAIT_TIMEOUT);

    /* Reached already: the event is set before the call returns. */
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 2, event), S_OK);
    CHECK(WaitForSingleObject(event, 0) == WAIT_OBJECT_0);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 1, event), S_OK);
    CHECK(WaitForSingleObject(event, 0) == WAIT_OBJECT_0);

    /* Not reached: not set until another thread signals 20 (5 is not enough). */
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 20, event), S_OK);
    CHECK(WaitForSingleObject(event, 50) == WAIT_TIMEOUT);
    start = harness_now_ms();
    start_signaller(&signaller, fence, values, 2, 100);
    CHECK(WaitForSingleObject(event, 5000) == WAIT_OBJECT_0);
    CHECK_MSG(harness_now_ms() - start >= 150, "the event was set %llu ms after the thread started, before the signal of 20",
            (unsigned long long)(harness_now_ms() - start));
    CHECK(ID3D12Fence_GetCompletedValue(fence) == 20);
    join_signaller(&signaller);
    /* Auto-reset: one wait consumed it. */
    CHECK(WaitForSingleObject(event, 0) == WAIT_TIMEOUT);

    /* The wait on the event ends as soon as the value is reached, not after a poll period. */
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 21, event), S_OK);
    CHECK(WaitForSingleObject(event, 20) == WAIT_TIMEOUT);
    CHECK_HR(ID3D12Fence_Signal(fence, 21), S_OK);
    start = harness_now_ms();
    CHECK(WaitForSingleObject(event, 5000) == WAIT_OBJECT_0);
    CHECK_MSG(harness_now_ms() - start < 1000, "event set %llu ms after Signal", (unsigned long long)(harness_now_ms() - start));

    CHECK(CloseHandle(event));
    CHECK_NO_LOG();
    ID3D12Fence_Release(fence);
}

static void test_event_reset_modes(ID3D12Device *device)
{
    ID3D12Fence *fence = harness_create_fence(device, 0);
    HANDLE manual = CreateEvent(NULL, TRUE, FALSE, NULL);
    HANDLE automatic = CreateEvent(NULL, FALSE, FALSE, NULL);
    HANDLE initially_set = CreateEvent(NULL, FALSE, TRUE, NULL);
    HANDLE ex_manual = CreateEventEx(NULL, NULL, CREATE_EVENT_MANUAL_RESET | CREATE_EVENT_INITIAL_SET, EVENT_ALL_ACCESS);
    LOG_MARK();

    CHECK(manual && automatic && initially_set && ex_manual);
    CHECK(WaitForSingleObject(initially_set, 0) == WAIT_OBJECT_0);
    CHECK(WaitForSingleObject(initially_set, 0) == WAIT_TIMEOUT);
    CHECK(WaitForSingleObject(ex_manual, 0) == WAIT_OBJECT_0);
    CHECK(WaitForSingleObject(ex_manual, 0) == WAIT_OBJECT_0);
    CHECK(ResetEvent(ex_manual));
    CHECK(WaitForSingleObject(ex_manual, 0) == WAIT_TIMEOUT);

    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 1, manual), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 1, automatic), S_OK);
    CHECK(WaitForSingleObject(manual, 0) == WAIT_TIMEOUT);
    CHECK(WaitForSingleObject(automatic, 0) == WAIT_TIMEOUT);
    CHECK_HR(ID3D12Fence_Signal(fence, 1), S_OK);
    /* Manual reset: stays set for every waiter until ResetEvent. */
    CHECK(WaitForSingleObject(manual, 5000) == WAIT_OBJECT_0);
    CHECK(WaitForSingleObject(manual, 0) == WAIT_OBJECT_0);
    CHECK(WaitForSingleObject(manual, 0) == WAIT_OBJECT_0);
    CHECK(ResetEvent(manual));
    CHECK(WaitForSingleObject(manual, 0) == WAIT_TIMEOUT);
    /* Auto reset: exactly one wait succeeds. */
    CHECK(WaitForSingleObject(automatic, 5000) == WAIT_OBJECT_0);
    CHECK(WaitForSingleObject(automatic, 0) == WAIT_TIMEOUT);
    /* SetEvent / ResetEvent by hand. */
    CHECK(SetEvent(automatic));
    CHECK(WaitForSingleObject(automatic, 0) == WAIT_OBJECT_0);
    CHECK(WaitForSingleObject(automatic, 0) == WAIT_TIMEOUT);
    CHECK_NO_LOG();

    CHECK(CloseHandle(manual));
    CHECK(CloseHandle(automatic));
    CHECK(CloseHandle(initially_set));
    CHECK(CloseHandle(ex_manual));
    ID3D12Fence_Release(fence);
}

static void test_bad_event(ID3D12Device *device)
{
    struct { uint32_t words[8]; } not_an_event;
    ID3D12Fence *fence = harness_create_fence(device, 0);
    LOG_MARK();

    memset(&not_an_event, 0x5a, sizeof(not_an_event));
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 1, (HANDLE)&not_an_event), E_INVALIDARG);
    CHECK_LOG("hEvent", "CreateEvent");
    RELOG_MARK();
    /* Even on a value already reached, the handle is checked first. */
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 0, (HANDLE)&not_an_event), E_INVALIDARG);
    CHECK_LOG("hEvent");
    RELOG_MARK();
    /* The shims refuse it too, with one line each. */
    CHECK(WaitForSingleObject((HANDLE)&not_an_event, 0) == WAIT_FAILED);
    CHECK_LOG("hHandle");
    RELOG_MARK();
    CHECK(!SetEvent((HANDLE)&not_an_event));
    CHECK_LOG("hEvent");
    RELOG_MARK();
    CHECK(!CloseHandle((HANDLE)&not_an_event));
    CHECK_LOG("hObject");
    RELOG_MARK();
    /* Nothing was registered: a later signal sets nothing and the device stays healthy. */
    CHECK_HR(ID3D12Fence_Signal(fence, 1), S_OK);
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(device), S_OK);
    CHECK_NO_LOG();
    ID3D12Fence_Release(fence);
}

static void test_several_registrations(ID3D12Device *device)
{
    enum { COUNT = 5 };
    ID3D12Fence *fence = harness_create_fence(device, 0), *other = harness_create_fence(device, 0);
    HANDLE events[COUNT], shared = CreateEvent(NULL, TRUE, FALSE, NULL), other_event = CreateEvent(NULL, TRUE, FALSE, NULL);
    LOG_MARK();

    /* Registered out of order: values 5, 3, 1, 4, 2 (event i waits for value i + 1). */
    static const int order[COUNT] = {4, 2, 0, 3, 1};
    for (int i = 0; i < COUNT; i++)
        events[i] = CreateEvent(NULL, FALSE, FALSE, NULL);
    for (int i = 0; i < COUNT; i++)
        CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, (UINT64)order[i] + 1, events[order[i]]), S_OK);
    /* One event registered at several values, and one on another fence. */
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 3, shared), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 5, shared), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(other, 1, other_event), S_OK);

    for (int value = 1; value <= COUNT; value++) {
        CHECK_HR(ID3D12Fence_Signal(fence, (UINT64)value), S_OK);
        /* Each event up to the value fires once; none beyond it. */
        CHECK_MSG(WaitForSingleObject(events[value - 1], 5000) == WAIT_OBJECT_0, "event for value %d not set after Signal(%d)", value, value);
        harness_sleep_ms(20);
        for (int i = 0; i < COUNT; i++)
            CHECK_MSG(WaitForSingleObject(events[i], 0) == WAIT_TIMEOUT, "event for value %d is set (again) after Signal(%d)", i + 1, value);
        if (value < 3)
            CHECK(WaitForSingleObject(shared, 0) == WAIT_TIMEOUT);
        if (value == 3) {
            CHECK(WaitForSingleObject(shared, 5000) == WAIT_OBJECT_0);
            CHECK(ResetEvent(shared));
        }
        if (value == 4)
            CHECK(WaitForSingleObject(shared, 0) == WAIT_TIMEOUT);
    }
    CHECK(WaitForSingleObject(shared, 5000) == WAIT_OBJECT_0);
    CHECK(WaitForSingleObject(other_event, 0) == WAIT_TIMEOUT);
    CHECK_HR(ID3D12Fence_Signal(other, 1), S_OK);
    CHECK(WaitForSingleObject(other_event, 5000) == WAIT_OBJECT_0);

    /* One signal that jumps past many registrations sets all of them. */
    for (int i = 0; i < COUNT; i++)
        CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 10 + (UINT64)i, events[i]), S_OK);
    CHECK_HR(ID3D12Fence_Signal(fence, 100), S_OK);
    for (int i = 0; i < COUNT; i++)
        CHECK(WaitForSingleObject(events[i], 5000) == WAIT_OBJECT_0);
    CHECK_NO_LOG();

    for (int i = 0; i < COUNT; i++)
        CloseHandle(events[i]);
    CloseHandle(shared);
    CloseHandle(other_event);
    ID3D12Fence_Release(fence);
    ID3D12Fence_Release(other);
}

/* Many threads waiting and registering while one thread signals. */
struct waiter_thread {
    pthread_t thread;
    ID3D12Fence *fence;
    int index;
    unsigned failures;
};

#define STRESS_VALUES 200

static void *waiter_main(void *context)
{
    struct waiter_thread *waiter = context;
    HANDLE event = CreateEvent(NULL, FALSE, FALSE, NULL);
    for (UINT64 value = (UINT64)waiter->index + 1; value <= STRESS_VALUES; value += 4) {
        if (waiter->index & 1) {
            if (ID3D12Fence_SetEventOnCompletion(waiter->fence, value, NULL) != S_OK)
                waiter->failures++;
        } else {
            if (ID3D12Fence_SetEventOnCompletion(waiter->fence, value, event) != S_OK || WaitForSingleObject(event, 10000) != WAIT_OBJECT_0)
                waiter->failures++;
        }
        if (ID3D12Fence_GetCompletedValue(waiter->fence) < value)
            waiter->failures++;
    }
    CloseHandle(event);
    return NULL;
}

static void test_threads(ID3D12Device *device)
{
    ID3D12Fence *fence = harness_create_fence(device, 0);
    struct waiter_thread waiters[4];
    LOG_MARK();

    for (int i = 0; i < 4; i++) {
        waiters[i] = (struct waiter_thread){.fence = fence, .index = i};
        CHECK(pthread_create(&waiters[i].thread, NULL, waiter_main, &waiters[i]) == 0);
    }
    for (UINT64 value = 1; value <= STRESS_VALUES; value++) {
        CHECK_HR(ID3D12Fence_Signal(fence, value), S_OK);
        if (!(value % 16))
            harness_sleep_ms(1);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(waiters[i].thread, NULL);
        CHECK_MSG(waiters[i].failures == 0, "waiter thread %d saw %u failures", i, waiters[i].failures);
    }
    CHECK(ID3D12Fence_GetCompletedValue(fence) == STRESS_VALUES);
    CHECK_NO_LOG();
    ID3D12Fence_Release(fence);
}

/* Windows' behaviour when a fence is destroyed while a queue waits on it for a value never
 * signalled (UINT64_MAX) and an event waits on it: the queue goes on (its later work runs and
 * its fences complete) and the event is set. Queue Signal and Wait take no public references:
 * the application's Release is the fence's last. */
static void test_release_releases_waiters(ID3D12Device *device)
{
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12Fence *fence = harness_create_fence(device, 0), *done = harness_create_fence(device, 0);
    HANDLE event = CreateEvent(NULL, TRUE, FALSE, NULL);
    LOG_MARK();

    CHECK_HR(ID3D12CommandQueue_Wait(queue, fence, UINT64_MAX), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, done, 1), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, 5), S_OK); /* behind the wait: never runs before it */
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, UINT64_MAX, event), S_OK);
    CHECK(ID3D12Fence_AddRef(fence) == 2);
    CHECK(ID3D12Fence_Release(fence) == 1);
    CHECK(ID3D12Fence_AddRef(done) == 2);
    CHECK(ID3D12Fence_Release(done) == 1);
    harness_sleep_ms(20);
    CHECK(ID3D12Fence_GetCompletedValue(done) == 0);
    CHECK(WaitForSingleObject(event, 0) == WAIT_TIMEOUT);
    CHECK(ID3D12Fence_Release(fence) == 0);
    CHECK(WaitForSingleObject(event, 5000) == WAIT_OBJECT_0);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(done, 1, NULL), S_OK);
    /* Later work on the queue runs too. */
    CHECK_HR(ID3D12CommandQueue_Signal(queue, done, 2), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(done, 2, NULL), S_OK);
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(device), S_OK);
    CHECK_NO_LOG();
    CloseHandle(event);
    CHECK(ID3D12Fence_Release(done) == 0);
    CHECK(ID3D12CommandQueue_Release(queue) == 0);
}

static void test_release_with_pending_registration(ID3D12Device *device)
{
    ID3D12Fence *fence = harness_create_fence(device, 0), *keeper = harness_create_fence(device, 0);
    HANDLE event = CreateEvent(NULL, TRUE, FALSE, NULL), keeper_event = CreateEvent(NULL, TRUE, FALSE, NULL);
    LOG_MARK();

    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 100, event), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 200, event), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(keeper, 1, keeper_event), S_OK);
    harness_sleep_ms(20); /* let the waiter thread enter its wait on the fence's semaphore */
    CHECK(ID3D12Fence_Release(fence) == 0);
    /* As on Windows, destroying the fence sets the events waiting for values it will never reach. */
    CHECK(WaitForSingleObject(event, 5000) == WAIT_OBJECT_0);
    ResetEvent(event);
    /* The other fence's registration survives and still works. */
    CHECK(WaitForSingleObject(keeper_event, 0) == WAIT_TIMEOUT);
    CHECK_HR(ID3D12Fence_Signal(keeper, 1), S_OK);
    CHECK(WaitForSingleObject(keeper_event, 5000) == WAIT_OBJECT_0);
    /* Released fences and new ones in quick succession, each with a pending registration. */
    for (int i = 0; i < 20; i++) {
        ID3D12Fence *temporary = harness_create_fence(device, 0);
        CHECK_HR(ID3D12Fence_SetEventOnCompletion(temporary, 1 + (UINT64)i, event), S_OK);
        if (i & 1)
            harness_sleep_ms(1);
        ID3D12Fence_Release(temporary);
    }
    CHECK(WaitForSingleObject(event, 5000) == WAIT_OBJECT_0);
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(device), S_OK);
    CHECK_NO_LOG();
    CloseHandle(event);
    CloseHandle(keeper_event);
    ID3D12Fence_Release(keeper);
}

/* CloseHandle while registrations on the event are pending: the handle is dead for the
 * application at once, and the library neither touches freed memory nor leaks the event. */
static void test_close_event_with_pending_registration(ID3D12Device *device)
{
    ID3D12Fence *fence = harness_create_fence(device, 0), *other = harness_create_fence(device, 0);
    HANDLE a = CreateEvent(NULL, FALSE, FALSE, NULL), b = CreateEvent(NULL, TRUE, FALSE, NULL), c = CreateEvent(NULL, FALSE, FALSE, NULL);
    LOG_MARK();

    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 1, a), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 2, a), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 5, b), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(other, 1, c), S_OK);
    CHECK(CloseHandle(a));
    CHECK(CloseHandle(b));
    CHECK_NO_LOG();
    /* Closed handles are refused (checked while the registrations still hold the memory). */
    CHECK(!CloseHandle(a));
    CHECK_LOG("hObject");
    RELOG_MARK();
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 3, a), E_INVALIDARG);
    CHECK_LOG("hEvent");
    RELOG_MARK();
    /* The fence reaches the values of a's registrations: nothing to set any more, no crash. */
    CHECK_HR(ID3D12Fence_Signal(fence, 1), S_OK);
    harness_sleep_ms(20);
    CHECK_HR(ID3D12Fence_Signal(fence, 2), S_OK);
    harness_sleep_ms(20);
    /* b's registration goes with its fence. */
    CHECK(ID3D12Fence_Release(fence) == 0);
    /* Unaffected events still work. */
    CHECK_HR(ID3D12Fence_Signal(other, 1), S_OK);
    CHECK(WaitForSingleObject(c, 5000) == WAIT_OBJECT_0);
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(device), S_OK);
    CHECK_NO_LOG();
    CloseHandle(c);
    ID3D12Fence_Release(other);
}

static void test_queue_signal(ID3D12Device *device)
{
    static const D3D12_COMMAND_LIST_TYPE types[] = {D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_LIST_TYPE_COMPUTE, D3D12_COMMAND_LIST_TYPE_COPY};
    HANDLE event = CreateEvent(NULL, FALSE, FALSE, NULL);
    LOG_MARK();

    for (size_t t = 0; t < 3; t++) {
        ID3D12CommandQueue *queue = harness_create_queue(device, types[t]);
        ID3D12Fence *fence = harness_create_fence(device, 3);
        ID3D12Resource *readback = harness_create_buffer(device, D3D12_HEAP_TYPE_READBACK, 16, D3D12_RESOURCE_STATE_COPY_DEST);
        struct harness_list list = harness_create_list(device, types[t]);
        D3D12_WRITEBUFFERIMMEDIATE_PARAMETER parameter = {ID3D12Resource_GetGPUVirtualAddress(readback) + 4, 0xf00d0000u + (UINT)t};
        ID3D12CommandList *lists[1] = {(ID3D12CommandList *)list.list};
        uint32_t *data = NULL;

        ID3D12GraphicsCommandList2_WriteBufferImmediate(list.list, 1, &parameter, NULL);
        CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), S_OK);
        ID3D12CommandQueue_ExecuteCommandLists(queue, 1, lists);
        CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, 7), S_OK);
        CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 7, event), S_OK);
        CHECK(WaitForSingleObject(event, 5000) == WAIT_OBJECT_0);
        CHECK_MSG(ID3D12Fence_GetCompletedValue(fence) == 7, "queue type %d: completed value %llu after the queue signalled 7", (int)types[t],
                (unsigned long long)ID3D12Fence_GetCompletedValue(fence));
        /* The signal came after the work: its write is visible. */
        CHECK_HR(ID3D12Resource_Map(readback, 0, NULL, (void **)&data), S_OK);
        CHECK_MSG(data && data[1] == 0xf00d0000u + (UINT)t, "queue type %d: value 0x%08x before the fence signal", (int)types[t],
                data ? data[1] : 0);
        ID3D12Resource_Unmap(readback, 0, NULL);

        /* Several queue signals in a row; a NULL-event wait on the last. */
        CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, 8), S_OK);
        CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, 9), S_OK);
        CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, 1000), S_OK);
        CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 1000, NULL), S_OK);
        CHECK(ID3D12Fence_GetCompletedValue(fence) == 1000);
        /* A CPU signal after the queue's reached value moves it further. */
        CHECK_HR(ID3D12Fence_Signal(fence, 1001), S_OK);
        CHECK(ID3D12Fence_GetCompletedValue(fence) == 1001);

        /* Bad fences for the queue. */
        RELOG_MARK();
        CHECK_HR(ID3D12CommandQueue_Signal(queue, NULL, 1), E_INVALIDARG);
        CHECK_LOG("pFence", "NULL");
        RELOG_MARK();
        CHECK_HR(ID3D12CommandQueue_Wait(queue, NULL, 1), E_INVALIDARG);
        CHECK_LOG("pFence", "NULL");
        RELOG_MARK();
        CHECK_HR(ID3D12CommandQueue_Signal(queue, (ID3D12Fence *)readback, 1), E_INVALIDARG);
        CHECK_LOG("pFence", "not a d3d12xs fence");
        RELOG_MARK();

        harness_release_list(&list);
        ID3D12Resource_Release(readback);
        ID3D12Fence_Release(fence);
        ID3D12CommandQueue_Release(queue);
    }
    CloseHandle(event);
    CHECK_NO_LOG();
}

static void test_object_methods(ID3D12Device *device)
{
    ID3D12Fence *fence = harness_create_fence(device, 0);
    ID3D12Device *got_device = NULL;
    ID3D12Pageable *pageable = NULL;
    ID3D12Resource *resource = NULL;
    ID3D12Object *object = NULL;
    IUnknown *unknown = NULL;
    LOG_MARK();

    CHECK_HR(ID3D12Fence_GetDevice(fence, &IID_ID3D12Device, (void **)&got_device), S_OK);
    CHECK(got_device == device);
    if (got_device)
        ID3D12Device_Release(got_device);
    CHECK_HR(ID3D12Fence_SetName(fence, L"frame fence"), S_OK);
    CHECK_HR(ID3D12Fence_QueryInterface(fence, &IID_ID3D12Pageable, (void **)&pageable), S_OK);
    CHECK(pageable == (ID3D12Pageable *)fence);
    CHECK_HR(ID3D12Fence_QueryInterface(fence, &IID_ID3D12Object, (void **)&object), S_OK);
    CHECK_HR(ID3D12Fence_QueryInterface(fence, &IID_IUnknown, (void **)&unknown), S_OK);
    CHECK(object == (ID3D12Object *)fence && unknown == (IUnknown *)fence);
    resource = (ID3D12Resource *)(uintptr_t)0x1234;
    CHECK_HR(ID3D12Fence_QueryInterface(fence, &IID_ID3D12Resource, (void **)&resource), E_NOINTERFACE);
    CHECK(resource == NULL);
    CHECK_NO_LOG();
    /* AddRef/Release count the interfaces handed out above. */
    CHECK(ID3D12Fence_AddRef(fence) == 5);
    CHECK(ID3D12Fence_Release(fence) == 4);
    ID3D12Pageable_Release(pageable);
    ID3D12Object_Release(object);
    IUnknown_Release(unknown);

    CHECK_HR(ID3D12Fence_QueryInterface(fence, &IID_ID3D12Fence, NULL), E_POINTER);
    CHECK_LOG("ppvObject");
    RELOG_MARK();
    CHECK_HR(ID3D12Fence_GetDevice(fence, &IID_ID3D12Device, NULL), E_POINTER);
    CHECK_LOG("ppvDevice");
    RELOG_MARK();
    CHECK_HR(ID3D12Fence_SetName(fence, NULL), E_INVALIDARG);
    CHECK_LOG("Name");
    RELOG_MARK();
    CHECK(ID3D12Fence_Release(fence) == 0);
}

int main(void)
{
    harness_init();
    ID3D12Device *device = harness_create_device();

    test_create(device);
    test_cpu_signal(device);
    test_wait_without_event(device);
    test_event_basics(device);
    test_event_reset_modes(device);
    test_bad_event(device);
    test_several_registrations(device);
    test_threads(device);
    test_release_with_pending_registration(device);
    test_release_releases_waiters(device);
    test_close_event_with_pending_registration(device);
    test_queue_signal(device);
    test_object_methods(device);

    harness_release_device(device);
    return harness_finish();
}
