/* Queue Wait / Signal across queues: waits submitted before their signals exist, for every
 * ordered pair of queue types; a CPU Signal releasing a waiting queue; three queues
 * ping-ponging a counter; waits on values already reached; many queues of one type.
 * On lavapipe every D3D12 queue shares one VkQueue, so these prove that held-back waits
 * neither deadlock nor reorder work. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "harness.h"

#define SIZE 256

static const D3D12_COMMAND_LIST_TYPE types[] = {D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_LIST_TYPE_COMPUTE, D3D12_COMMAND_LIST_TYPE_COPY};
static const char *const type_names[] = {"DIRECT", "COMPUTE", "COPY"};

/* Waits (bounded) for a fence value through an event; true when reached. */
static bool wait_fence(ID3D12Fence *fence, UINT64 value, DWORD timeout_ms)
{
    HANDLE event = CreateEvent(NULL, FALSE, FALSE, NULL);
    bool ok = ID3D12Fence_SetEventOnCompletion(fence, value, event) == S_OK && WaitForSingleObject(event, timeout_ms) == WAIT_OBJECT_0;
    CloseHandle(event);
    return ok && ID3D12Fence_GetCompletedValue(fence) >= value;
}

static void fill_words(uint32_t *words, size_t count, uint32_t seed)
{
    for (size_t i = 0; i < count; i++)
        words[i] = seed * 0x9e3779b9u + (uint32_t)i * 7919u + 1;
}

static ID3D12Resource *upload_buffer(ID3D12Device *device, uint32_t seed)
{
    ID3D12Resource *buffer = harness_create_buffer(device, D3D12_HEAP_TYPE_UPLOAD, SIZE, D3D12_RESOURCE_STATE_GENERIC_READ);
    uint32_t *data = NULL;
    CHECK_HR(ID3D12Resource_Map(buffer, 0, NULL, (void **)&data), S_OK);
    if (data)
        fill_words(data, SIZE / 4, seed);
    ID3D12Resource_Unmap(buffer, 0, NULL);
    return buffer;
}

static bool buffer_holds(ID3D12Resource *readback, uint32_t seed)
{
    uint32_t expected[SIZE / 4], *data = NULL;
    bool same;
    fill_words(expected, SIZE / 4, seed);
    if (FAILED(ID3D12Resource_Map(readback, 0, NULL, (void **)&data)) || !data)
        return false;
    same = !memcmp(data, expected, SIZE);
    ID3D12Resource_Unmap(readback, 0, NULL);
    return same;
}

static void execute(ID3D12CommandQueue *queue, struct harness_list *list)
{
    ID3D12CommandList *lists[1] = {(ID3D12CommandList *)list->list};
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list->list), S_OK);
    ID3D12CommandQueue_ExecuteCommandLists(queue, 1, lists);
}

/* Queue A waits on F = 1 and copies X -> Y; only then does queue B fill X and signal F = 1. */
static void test_wait_before_signal(ID3D12Device *device, size_t a, size_t b)
{
    uint32_t seed_old = (uint32_t)(a * 3 + b) * 2 + 100, seed_new = seed_old + 1;
    ID3D12CommandQueue *queue_a = harness_create_queue(device, types[a]);
    ID3D12CommandQueue *queue_b = harness_create_queue(device, types[b]);
    ID3D12Resource *old_data = upload_buffer(device, seed_old), *new_data = upload_buffer(device, seed_new);
    ID3D12Resource *x = harness_create_buffer(device, D3D12_HEAP_TYPE_DEFAULT, SIZE, D3D12_RESOURCE_STATE_COMMON);
    ID3D12Resource *y = harness_create_buffer(device, D3D12_HEAP_TYPE_READBACK, SIZE, D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12Fence *fence = harness_create_fence(device, 0), *done = harness_create_fence(device, 0);
    struct harness_list init = harness_create_list(device, types[b]);
    struct harness_list list_a = harness_create_list(device, types[a]);
    struct harness_list list_b = harness_create_list(device, types[b]);
    LOG_MARK();

    /* X starts with other data, so a copy made too early shows. */
    ID3D12GraphicsCommandList2_CopyBufferRegion(init.list, x, 0, old_data, 0, SIZE);
    harness_execute_and_wait(device, queue_b, &init);

    CHECK_HR(ID3D12CommandQueue_Wait(queue_a, fence, 1), S_OK);
    ID3D12GraphicsCommandList2_CopyBufferRegion(list_a.list, y, 0, x, 0, SIZE);
    execute(queue_a, &list_a);
    CHECK_HR(ID3D12CommandQueue_Signal(queue_a, done, 1), S_OK);

    harness_sleep_ms(10);
    CHECK_MSG(ID3D12Fence_GetCompletedValue(done) == 0, "%s queue went past its Wait before %s queue signalled", type_names[a], type_names[b]);

    ID3D12GraphicsCommandList2_CopyBufferRegion(list_b.list, x, 0, new_data, 0, SIZE);
    execute(queue_b, &list_b);
    CHECK_HR(ID3D12CommandQueue_Signal(queue_b, fence, 1), S_OK);

    CHECK_MSG(wait_fence(done, 1, 10000), "%s queue waiting on %s queue never finished", type_names[a], type_names[b]);
    CHECK(ID3D12Fence_GetCompletedValue(fence) == 1);
    CHECK_MSG(buffer_holds(y, seed_new), "%s queue waiting on %s queue: the copy did not see the data written before the signal%s",
            type_names[a], type_names[b], buffer_holds(y, seed_old) ? " (it saw the old data)" : "");
    CHECK_NO_LOG();

    harness_release_list(&init);
    harness_release_list(&list_a);
    harness_release_list(&list_b);
    ID3D12Fence_Release(fence);
    ID3D12Fence_Release(done);
    ID3D12Resource_Release(old_data);
    ID3D12Resource_Release(new_data);
    ID3D12Resource_Release(x);
    ID3D12Resource_Release(y);
    ID3D12CommandQueue_Release(queue_a);
    ID3D12CommandQueue_Release(queue_b);
}

/* A queue waits on F = 5; CPU Signals of 3 do not release it, 5 does. */
static void test_cpu_signal_releases_queue(ID3D12Device *device, size_t t)
{
    ID3D12CommandQueue *queue = harness_create_queue(device, types[t]);
    ID3D12Resource *source = upload_buffer(device, 500 + (uint32_t)t);
    ID3D12Resource *readback = harness_create_buffer(device, D3D12_HEAP_TYPE_READBACK, SIZE, D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12Fence *gate = harness_create_fence(device, 0), *done = harness_create_fence(device, 0);
    struct harness_list list = harness_create_list(device, types[t]);
    uint32_t *data = NULL;
    bool untouched = true;
    LOG_MARK();

    /* New memory is not promised to be zero: clear it so that an early copy shows. */
    CHECK_HR(ID3D12Resource_Map(readback, 0, NULL, (void **)&data), S_OK);
    if (data)
        memset(data, 0, SIZE);
    ID3D12Resource_Unmap(readback, 0, NULL);
    data = NULL;

    CHECK_HR(ID3D12CommandQueue_Wait(queue, gate, 5), S_OK);
    ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, readback, 0, source, 0, SIZE);
    execute(queue, &list);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, done, 1), S_OK);

    harness_sleep_ms(50);
    CHECK_HR(ID3D12Fence_Signal(gate, 3), S_OK);
    harness_sleep_ms(30);
    CHECK_MSG(ID3D12Fence_GetCompletedValue(done) == 0, "%s queue went past Wait(5) with the fence at 3", type_names[t]);
    CHECK_HR(ID3D12Resource_Map(readback, 0, NULL, (void **)&data), S_OK);
    for (size_t i = 0; data && i < SIZE / 4; i++)
        untouched &= data[i] == 0;
    ID3D12Resource_Unmap(readback, 0, NULL);
    CHECK_MSG(untouched, "%s queue: the copy after Wait(5) ran with the fence at 3", type_names[t]);

    CHECK_HR(ID3D12Fence_Signal(gate, 5), S_OK);
    CHECK_MSG(wait_fence(done, 1, 10000), "%s queue was not released by the CPU Signal", type_names[t]);
    CHECK(buffer_holds(readback, 500 + (uint32_t)t));
    CHECK(ID3D12Fence_GetCompletedValue(gate) == 5);
    CHECK_NO_LOG();

    harness_release_list(&list);
    ID3D12Fence_Release(gate);
    ID3D12Fence_Release(done);
    ID3D12Resource_Release(source);
    ID3D12Resource_Release(readback);
    ID3D12CommandQueue_Release(queue);
}

/* Waits on values already reached (by the CPU or by a queue) pass straight through. */
static void test_wait_already_reached(ID3D12Device *device)
{
    ID3D12CommandQueue *copy = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_COPY);
    ID3D12CommandQueue *compute = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12Fence *cpu = harness_create_fence(device, 10), *gpu = harness_create_fence(device, 0), *done = harness_create_fence(device, 0);
    ID3D12Resource *source = upload_buffer(device, 77);
    ID3D12Resource *readback = harness_create_buffer(device, D3D12_HEAP_TYPE_READBACK, SIZE, D3D12_RESOURCE_STATE_COPY_DEST);
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    LOG_MARK();

    CHECK_HR(ID3D12CommandQueue_Signal(copy, gpu, 4), S_OK);
    CHECK(wait_fence(gpu, 4, 5000));
    CHECK_HR(ID3D12Fence_Signal(cpu, 20), S_OK);
    CHECK_HR(ID3D12CommandQueue_Wait(compute, cpu, 0), S_OK);
    CHECK_HR(ID3D12CommandQueue_Wait(compute, cpu, 10), S_OK);
    CHECK_HR(ID3D12CommandQueue_Wait(compute, cpu, 20), S_OK);
    CHECK_HR(ID3D12CommandQueue_Wait(compute, gpu, 3), S_OK);
    CHECK_HR(ID3D12CommandQueue_Wait(compute, gpu, 4), S_OK);
    ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, readback, 0, source, 0, SIZE);
    execute(compute, &list);
    CHECK_HR(ID3D12CommandQueue_Signal(compute, done, 1), S_OK);
    CHECK_MSG(wait_fence(done, 1, 5000), "waits on reached values held the queue");
    CHECK(buffer_holds(readback, 77));

    /* A wait on a value whose signal was submitted (but maybe not reached yet) is fine too. */
    CHECK_HR(ID3D12CommandQueue_Signal(copy, gpu, 6), S_OK);
    CHECK_HR(ID3D12CommandQueue_Wait(compute, gpu, 6), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(compute, done, 2), S_OK);
    CHECK(wait_fence(done, 2, 5000));
    CHECK(ID3D12Fence_GetCompletedValue(gpu) == 6);
    CHECK_NO_LOG();

    harness_release_list(&list);
    ID3D12Fence_Release(cpu);
    ID3D12Fence_Release(gpu);
    ID3D12Fence_Release(done);
    ID3D12Resource_Release(source);
    ID3D12Resource_Release(readback);
    ID3D12CommandQueue_Release(copy);
    ID3D12CommandQueue_Release(compute);
}

/* ---- three queues ping-ponging a counter ----
 * Round r runs on queue r % 3: it waits for F >= r, copies the counter C into slot r of the
 * log L, overwrites C with r + 1 (WriteBufferImmediate) and signals F = r + 1. Slot r of L
 * equals r only if round r ran after round r - 1 and before round r + 1. */
#define ROUNDS 1000

struct ping_pong {
    ID3D12Device *device;
    ID3D12CommandQueue *queues[3];
    struct harness_list lists[3];
    ID3D12Resource *counter, *log;
    ID3D12Fence *fence;
    unsigned errors[3];
};

static void ping_pong_round(struct ping_pong *pp, unsigned round)
{
    size_t q = round % 3;
    struct harness_list *list = &pp->lists[q];
    D3D12_WRITEBUFFERIMMEDIATE_PARAMETER parameter = {ID3D12Resource_GetGPUVirtualAddress(pp->counter), round + 1};
    D3D12_RESOURCE_BARRIER barrier;
    ID3D12CommandList *lists[1] = {(ID3D12CommandList *)list->list};

    if (round >= 3 && FAILED(ID3D12GraphicsCommandList2_Reset(list->list, list->allocator, NULL)))
        pp->errors[q]++;
    ID3D12GraphicsCommandList2_CopyBufferRegion(list->list, pp->log, (UINT64)round * 4, pp->counter, 0, 4);
    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    barrier.Transition.pResource = pp->counter;
    barrier.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    barrier.Transition.StateBefore = D3D12_RESOURCE_STATE_COPY_SOURCE;
    barrier.Transition.StateAfter = D3D12_RESOURCE_STATE_COPY_DEST;
    ID3D12GraphicsCommandList2_ResourceBarrier(list->list, 1, &barrier);
    ID3D12GraphicsCommandList2_WriteBufferImmediate(list->list, 1, &parameter, NULL);
    if (FAILED(ID3D12GraphicsCommandList2_Close(list->list)))
        pp->errors[q]++;
    if (FAILED(ID3D12CommandQueue_Wait(pp->queues[q], pp->fence, round)))
        pp->errors[q]++;
    ID3D12CommandQueue_ExecuteCommandLists(pp->queues[q], 1, lists);
    if (FAILED(ID3D12CommandQueue_Signal(pp->queues[q], pp->fence, (UINT64)round + 1)))
        pp->errors[q]++;
}

static void *ping_pong_thread(void *context)
{
    struct ping_pong *pp = ((struct ping_pong **)context)[0];
    size_t q = (size_t)(uintptr_t)((void **)context)[1];
    for (unsigned round = (unsigned)q; round < ROUNDS; round += 3)
        ping_pong_round(pp, round);
    return NULL;
}

enum ping_pong_order { IN_ORDER, QUEUES_REVERSED, THREADS };

static void test_ping_pong(ID3D12Device *device, enum ping_pong_order order)
{
    static const char *const order_names[] = {"in order", "queues submitted last-first", "one thread per queue"};
    struct ping_pong pp = {.device = device};
    uint32_t *data = NULL;
    unsigned wrong = 0, first_wrong = 0;
    uint64_t start = harness_now_ms();
    LOG_MARK();

    for (size_t q = 0; q < 3; q++) {
        pp.queues[q] = harness_create_queue(device, types[q]);
        pp.lists[q] = harness_create_list(device, types[q]);
    }
    pp.counter = harness_create_buffer(device, D3D12_HEAP_TYPE_DEFAULT, 4, D3D12_RESOURCE_STATE_COMMON);
    pp.log = harness_create_buffer(device, D3D12_HEAP_TYPE_READBACK, ROUNDS * 4, D3D12_RESOURCE_STATE_COPY_DEST);
    pp.fence = harness_create_fence(device, 0);
    {
        /* The counter starts at 0 and the log at 0xffffffff. */
        uint32_t *log_data = NULL;
        D3D12_WRITEBUFFERIMMEDIATE_PARAMETER parameter = {ID3D12Resource_GetGPUVirtualAddress(pp.counter), 0};
        struct harness_list init = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        CHECK_HR(ID3D12Resource_Map(pp.log, 0, NULL, (void **)&log_data), S_OK);
        if (log_data)
            memset(log_data, 0xff, ROUNDS * 4);
        ID3D12Resource_Unmap(pp.log, 0, NULL);
        ID3D12GraphicsCommandList2_WriteBufferImmediate(init.list, 1, &parameter, NULL);
        harness_execute_and_wait(device, pp.queues[0], &init);
        harness_release_list(&init);
    }

    switch (order) {
    case IN_ORDER:
        for (unsigned round = 0; round < ROUNDS; round++)
            ping_pong_round(&pp, round);
        break;
    case QUEUES_REVERSED:
        /* Queues 2 and 1 are all held back behind their first waits until queue 0's first
         * signal; then everything is released in one cascade. */
        for (size_t q = 3; q-- > 0;) {
            for (unsigned round = (unsigned)q; round < ROUNDS; round += 3)
                ping_pong_round(&pp, round);
            if (q) {
                harness_sleep_ms(10);
                CHECK_MSG(ID3D12Fence_GetCompletedValue(pp.fence) == 0, "queue %zu ran before the round it waits for was submitted", q);
            }
        }
        break;
    case THREADS: {
        pthread_t threads[3];
        void *contexts[3][2];
        for (size_t q = 0; q < 3; q++) {
            contexts[q][0] = &pp;
            contexts[q][1] = (void *)(uintptr_t)q;
            CHECK(pthread_create(&threads[q], NULL, ping_pong_thread, contexts[q]) == 0);
        }
        for (size_t q = 0; q < 3; q++)
            pthread_join(threads[q], NULL);
        break;
    }
    }

    CHECK_MSG(wait_fence(pp.fence, ROUNDS, 20000), "ping-pong (%s) stopped at round %llu", order_names[order],
            (unsigned long long)ID3D12Fence_GetCompletedValue(pp.fence));
    CHECK(ID3D12Fence_GetCompletedValue(pp.fence) == ROUNDS);
    for (size_t q = 0; q < 3; q++)
        CHECK_MSG(pp.errors[q] == 0, "ping-pong (%s): %u calls failed on queue %zu", order_names[order], pp.errors[q], q);
    CHECK_HR(ID3D12Resource_Map(pp.log, 0, NULL, (void **)&data), S_OK);
    for (unsigned round = 0; data && round < ROUNDS; round++) {
        if (data[round] != round) {
            if (!wrong++)
                first_wrong = round;
        }
    }
    CHECK_MSG(data && wrong == 0, "ping-pong (%s): %u rounds saw the counter out of order; round %u saw %u", order_names[order], wrong,
            first_wrong, data ? data[first_wrong] : 0);
    ID3D12Resource_Unmap(pp.log, 0, NULL);
    CHECK_NO_LOG();
    printf("ping-pong %s: %u rounds in %llu ms\n", order_names[order], ROUNDS, (unsigned long long)(harness_now_ms() - start));

    for (size_t q = 0; q < 3; q++) {
        harness_release_list(&pp.lists[q]);
        ID3D12CommandQueue_Release(pp.queues[q]);
    }
    ID3D12Resource_Release(pp.counter);
    ID3D12Resource_Release(pp.log);
    ID3D12Fence_Release(pp.fence);
}

/* Four COMPUTE queues: each waits for the next one's signal (a chain submitted backwards),
 * then copies its own data; all finish, in chain order. */
static void test_many_queues(ID3D12Device *device)
{
    enum { QUEUES = 4 };
    ID3D12CommandQueue *queues[QUEUES];
    struct harness_list lists[QUEUES];
    ID3D12Resource *sources[QUEUES], *readbacks[QUEUES];
    ID3D12Fence *chain = harness_create_fence(device, 0), *done = harness_create_fence(device, 0);
    ID3D12Resource *order = harness_create_buffer(device, D3D12_HEAP_TYPE_READBACK, 16, D3D12_RESOURCE_STATE_COPY_DEST);
    uint32_t *data = NULL;
    LOG_MARK();

    for (int i = 0; i < QUEUES; i++) {
        queues[i] = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
        lists[i] = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
        sources[i] = upload_buffer(device, 900 + (uint32_t)i);
        readbacks[i] = harness_create_buffer(device, D3D12_HEAP_TYPE_READBACK, SIZE, D3D12_RESOURCE_STATE_COPY_DEST);
    }
    /* Queue i runs step QUEUES - 1 - i: it waits for chain >= step, records the step in
     * order[step], signals chain = step + 1. Queue 0 is submitted first but runs last. */
    for (int i = 0; i < QUEUES; i++) {
        UINT step = QUEUES - 1 - (UINT)i;
        D3D12_WRITEBUFFERIMMEDIATE_PARAMETER parameter = {ID3D12Resource_GetGPUVirtualAddress(order) + step * 4, 0x100 + step};
        ID3D12GraphicsCommandList2_CopyBufferRegion(lists[i].list, readbacks[i], 0, sources[i], 0, SIZE);
        ID3D12GraphicsCommandList2_WriteBufferImmediate(lists[i].list, 1, &parameter, NULL);
        CHECK_HR(ID3D12CommandQueue_Wait(queues[i], chain, step), S_OK);
        execute(queues[i], &lists[i]);
        CHECK_HR(ID3D12CommandQueue_Signal(queues[i], chain, step + 1), S_OK);
    }
    CHECK_MSG(wait_fence(chain, QUEUES, 10000), "the chain of %d COMPUTE queues stopped at %llu", QUEUES,
            (unsigned long long)ID3D12Fence_GetCompletedValue(chain));
    for (int i = 0; i < QUEUES; i++)
        CHECK_MSG(buffer_holds(readbacks[i], 900 + (uint32_t)i), "COMPUTE queue %d's copy is wrong", i);
    CHECK_HR(ID3D12Resource_Map(order, 0, NULL, (void **)&data), S_OK);
    for (UINT step = 0; data && step < QUEUES; step++)
        CHECK_MSG(data[step] == 0x100 + step, "step %u wrote 0x%x", step, data[step]);
    ID3D12Resource_Unmap(order, 0, NULL);

    /* Then all four at once, independent, 50 submissions each, one shared done fence per queue. */
    for (int i = 0; i < QUEUES; i++)
        CHECK_HR(ID3D12GraphicsCommandList2_Reset(lists[i].list, lists[i].allocator, NULL), S_OK);
    for (int i = 0; i < QUEUES; i++) {
        ID3D12GraphicsCommandList2_CopyBufferRegion(lists[i].list, readbacks[i], 0, sources[(i + 1) % QUEUES], 0, SIZE);
        CHECK_HR(ID3D12GraphicsCommandList2_Close(lists[i].list), S_OK);
    }
    for (int n = 0; n < 50; n++) {
        for (int i = 0; i < QUEUES; i++) {
            ID3D12CommandList *one[1] = {(ID3D12CommandList *)lists[i].list};
            ID3D12CommandQueue_ExecuteCommandLists(queues[i], 1, one);
        }
    }
    for (int i = 0; i < QUEUES; i++)
        CHECK_HR(ID3D12CommandQueue_Signal(queues[i], done, (UINT64)i + 1), S_OK);
    CHECK(wait_fence(done, QUEUES, 10000));
    for (int i = 0; i < QUEUES; i++)
        CHECK_MSG(buffer_holds(readbacks[i], 900 + (uint32_t)((i + 1) % QUEUES)), "COMPUTE queue %d's second copy is wrong", i);
    CHECK_NO_LOG();

    for (int i = 0; i < QUEUES; i++) {
        harness_release_list(&lists[i]);
        ID3D12Resource_Release(sources[i]);
        ID3D12Resource_Release(readbacks[i]);
        ID3D12CommandQueue_Release(queues[i]);
    }
    ID3D12Resource_Release(order);
    ID3D12Fence_Release(chain);
    ID3D12Fence_Release(done);
}

/* A queue released while its operations are still held back behind a wait: they still run
 * once the wait is met (D3D12 keeps a released queue's work going), here when the gate is
 * signalled by the CPU 50 ms later, and a host wait for their signal ends normally, never as
 * a hang. The list, its allocator and the queue are all released before the gate opens. */
static void test_release_held_queue(ID3D12Device *device, size_t t)
{
    D3D12_COMMAND_LIST_TYPE type = types[t];
    ID3D12CommandQueue *queue = harness_create_queue(device, type);
    ID3D12Fence *gate = harness_create_fence(device, 0), *done = harness_create_fence(device, 0);
    ID3D12Resource *upload = harness_create_buffer(device, D3D12_HEAP_TYPE_UPLOAD, 256, D3D12_RESOURCE_STATE_GENERIC_READ);
    ID3D12Resource *readback = harness_create_buffer(device, D3D12_HEAP_TYPE_READBACK, 256, D3D12_RESOURCE_STATE_COPY_DEST);
    struct harness_list list = harness_create_list(device, type);
    ID3D12CommandList *lists[1] = {(ID3D12CommandList *)list.list};
    uint32_t *words = NULL;
    LOG_MARK();

    CHECK_HR(ID3D12Resource_Map(upload, 0, NULL, (void **)&words), S_OK);
    words[0] = 0x5eed0000u + (uint32_t)type;
    ID3D12Resource_Unmap(upload, 0, NULL);
    ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, readback, 0, upload, 0, 4);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), S_OK);
    CHECK_HR(ID3D12CommandQueue_Wait(queue, gate, 1), S_OK);
    ID3D12CommandQueue_ExecuteCommandLists(queue, 1, lists);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, done, 1), S_OK);
    harness_release_list(&list);
    CHECK(ID3D12CommandQueue_Release(queue) == 0);
    harness_sleep_ms(50);
    CHECK(ID3D12Fence_GetCompletedValue(done) == 0);
    CHECK_HR(ID3D12Fence_Signal(gate, 1), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(done, 1, NULL), S_OK);
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(device), S_OK);
    CHECK_HR(ID3D12Resource_Map(readback, 0, NULL, (void **)&words), S_OK);
    CHECK_MSG(words[0] == 0x5eed0000u + (uint32_t)type, "%s: the released queue's held list did not run (0x%x)", type_names[t], words[0]);
    ID3D12Resource_Unmap(readback, 0, NULL);
    CHECK(ID3D12Resource_Release(upload) == 0);
    CHECK(ID3D12Resource_Release(readback) == 0);
    CHECK(ID3D12Fence_Release(gate) == 0);
    CHECK(ID3D12Fence_Release(done) == 0);
    CHECK_NO_LOG();
}

/* A released queue whose held work waits for a fence that is released too, with no signal
 * of that value enqueued anywhere: as on Windows, the fence's release releases the wait, the
 * held work runs, and the device reports no hang. */
static void test_release_held_queue_and_gate(ID3D12Device *device)
{
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12Fence *gate = harness_create_fence(device, 0), *done = harness_create_fence(device, 0);
    LOG_MARK();

    CHECK_HR(ID3D12CommandQueue_Wait(queue, gate, 1), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, done, 1), S_OK);
    CHECK(ID3D12CommandQueue_Release(queue) == 0);
    CHECK(ID3D12Fence_Release(gate) == 0);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(done, 1, NULL), S_OK);
    CHECK(ID3D12Fence_GetCompletedValue(done) == 1);
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(device), S_OK);
    CHECK(ID3D12Fence_Release(done) == 0);
    CHECK_NO_LOG();
}

int main(void)
{
    harness_init();
    ID3D12Device *device = harness_create_device();
    uint64_t start = harness_now_ms();

    for (size_t a = 0; a < 3; a++)
        for (size_t b = 0; b < 3; b++)
            test_wait_before_signal(device, a, b);
    for (size_t t = 0; t < 3; t++)
        test_cpu_signal_releases_queue(device, t);
    test_wait_already_reached(device);
    test_many_queues(device);
    for (size_t t = 0; t < 3; t++)
        test_release_held_queue(device, t);
    test_release_held_queue_and_gate(device);
    test_ping_pong(device, IN_ORDER);
    test_ping_pong(device, QUEUES_REVERSED);
    test_ping_pong(device, THREADS);
    printf("total %llu ms\n", (unsigned long long)(harness_now_ms() - start));

    harness_release_device(device);
    return harness_finish();
}
