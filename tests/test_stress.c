/* Many threads on shared queues and fences: 100,000 hops of one fence value around three
 * queues (DIRECT, COMPUTE, COPY) and a CPU thread. Each queue's thread submits its Wait for
 * hop h and its Signal of h + 1 as soon as it likes, usually long before the previous hop's
 * signal exists, so the scheduler holds and releases work all the time; the CPU thread takes
 * every fourth hop with a host wait and a CPU Signal. Every few hundred hops a thread also
 * records a fresh list (a copy) on its own allocators and executes it between its wait and
 * signal. STRESS_HOPS overrides the count. Every wait is bounded by the hang timeout, so a
 * deadlock fails the test instead of hanging it. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define PARTICIPANTS 4 /* three queues and the CPU */
#define LIST_EVERY 512

struct stress {
    ID3D12Device *device;
    ID3D12Fence *fence;
    ID3D12Resource *src, *dst;
    uint64_t hops;
};

struct participant {
    struct stress *stress;
    unsigned index;
    D3D12_COMMAND_LIST_TYPE type;
    unsigned failures;
    unsigned lists;
};

static void *queue_thread(void *context)
{
    struct participant *self = context;
    struct stress *stress = self->stress;
    ID3D12CommandQueue *queue = harness_create_queue(stress->device, self->type);
    ID3D12Fence *done = harness_create_fence(stress->device, 0);
    struct harness_list lists[2] = {harness_create_list(stress->device, self->type), harness_create_list(stress->device, self->type)};
    uint64_t submitted_lists = 0;

    for (int i = 0; i < 2; i++)
        if (FAILED(ID3D12GraphicsCommandList2_Close(lists[i].list)))
            self->failures++;
    for (uint64_t hop = self->index; hop < stress->hops; hop += PARTICIPANTS) {
        if (FAILED(ID3D12CommandQueue_Wait(queue, stress->fence, hop)))
            self->failures++;
        if (hop % LIST_EVERY < PARTICIPANTS) {
            /* A fresh recording: the allocator used two lists ago must be done first. */
            struct harness_list *list = &lists[submitted_lists % 2];
            if (submitted_lists >= 2 && FAILED(ID3D12Fence_SetEventOnCompletion(done, submitted_lists - 1, NULL)))
                self->failures++;
            if (FAILED(ID3D12CommandAllocator_Reset(list->allocator))
                    || FAILED(ID3D12GraphicsCommandList2_Reset(list->list, list->allocator, NULL)))
                self->failures++;
            ID3D12GraphicsCommandList2_CopyBufferRegion(list->list, stress->dst, self->index * 256, stress->src, 0, 256);
            if (FAILED(ID3D12GraphicsCommandList2_Close(list->list)))
                self->failures++;
            ID3D12CommandList *execute[1] = {(ID3D12CommandList *)list->list};
            ID3D12CommandQueue_ExecuteCommandLists(queue, 1, execute);
            if (FAILED(ID3D12CommandQueue_Signal(queue, done, ++submitted_lists)))
                self->failures++;
            self->lists++;
        }
        if (FAILED(ID3D12CommandQueue_Signal(queue, stress->fence, hop + 1)))
            self->failures++;
    }
    if (FAILED(ID3D12Fence_SetEventOnCompletion(stress->fence, stress->hops, NULL)))
        self->failures++;
    if (submitted_lists && FAILED(ID3D12Fence_SetEventOnCompletion(done, submitted_lists, NULL)))
        self->failures++;
    harness_release_list(&lists[0]);
    harness_release_list(&lists[1]);
    ID3D12Fence_Release(done);
    ID3D12CommandQueue_Release(queue);
    return NULL;
}

static void *cpu_thread(void *context)
{
    struct participant *self = context;
    struct stress *stress = self->stress;

    for (uint64_t hop = self->index; hop < stress->hops; hop += PARTICIPANTS) {
        if (FAILED(ID3D12Fence_SetEventOnCompletion(stress->fence, hop, NULL)) || FAILED(ID3D12Fence_Signal(stress->fence, hop + 1))) {
            self->failures++;
            break;
        }
    }
    return NULL;
}

int main(void)
{
    const char *hops_env = getenv("STRESS_HOPS");
    struct stress stress = {.hops = hops_env ? strtoull(hops_env, NULL, 10) : 100000};
    struct participant participants[PARTICIPANTS];
    pthread_t threads[PARTICIPANTS];
    static const D3D12_COMMAND_LIST_TYPE types[] = {D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_LIST_TYPE_COMPUTE, D3D12_COMMAND_LIST_TYPE_COPY};
    uint64_t start;

    harness_init();
    stress.device = harness_create_device();
    stress.fence = harness_create_fence(stress.device, 0);
    stress.src = harness_create_buffer(stress.device, D3D12_HEAP_TYPE_UPLOAD, 256, D3D12_RESOURCE_STATE_GENERIC_READ);
    stress.dst = harness_create_buffer(stress.device, D3D12_HEAP_TYPE_DEFAULT, 256 * PARTICIPANTS, D3D12_RESOURCE_STATE_COPY_DEST);
    LOG_MARK();

    start = harness_now_ms();
    for (unsigned i = 0; i < PARTICIPANTS; i++) {
        participants[i] = (struct participant){.stress = &stress, .index = i, .type = i < 3 ? types[i] : D3D12_COMMAND_LIST_TYPE_DIRECT};
        pthread_create(&threads[i], NULL, i < 3 ? queue_thread : cpu_thread, &participants[i]);
    }
    for (unsigned i = 0; i < PARTICIPANTS; i++) {
        pthread_join(threads[i], NULL);
        CHECK_MSG(participants[i].failures == 0, "participant %u saw %u failures", i, participants[i].failures);
    }
    CHECK_MSG(ID3D12Fence_GetCompletedValue(stress.fence) == stress.hops, "the fence is at %llu after %llu hops",
            (unsigned long long)ID3D12Fence_GetCompletedValue(stress.fence), (unsigned long long)stress.hops);
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(stress.device), S_OK);
    CHECK_NO_LOG();
    printf("%llu hops, %u + %u + %u lists, in %llu ms\n", (unsigned long long)stress.hops, participants[0].lists, participants[1].lists,
            participants[2].lists, (unsigned long long)(harness_now_ms() - start));

    ID3D12Resource_Release(stress.src);
    ID3D12Resource_Release(stress.dst);
    CHECK(ID3D12Fence_Release(stress.fence) == 0);
    harness_release_device(stress.device);
    return harness_finish();
}
