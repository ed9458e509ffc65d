/* Command allocators and lists: the Reset/Close lifecycle, allocator reuse rules (including
 * an allocator held busy by a queue Wait nobody has signalled yet, and lists left stale by
 * an allocator Reset), recording into closed lists, invalid commands and what executing an
 * invalid list does, ResourceBarrier and WriteBufferImmediate on every list type. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queues[3]; /* DIRECT, COMPUTE, COPY */
    ID3D12Resource *upload;        /* 64 KiB, word i holds 0x10000 + i */
    ID3D12Resource *readback;      /* 64 KiB */
};

static const D3D12_COMMAND_LIST_TYPE list_types[3] = {D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_LIST_TYPE_COMPUTE, D3D12_COMMAND_LIST_TYPE_COPY};
static const char *const list_type_names[3] = {"DIRECT", "COMPUTE", "COPY"};

static ID3D12CommandQueue *queue_for(struct env *env, D3D12_COMMAND_LIST_TYPE type)
{
    return env->queues[type == D3D12_COMMAND_LIST_TYPE_DIRECT ? 0 : type == D3D12_COMMAND_LIST_TYPE_COMPUTE ? 1 : 2];
}

static void fill_readback(struct env *env, uint8_t value)
{
    void *data = NULL;
    CHECK_HR(ID3D12Resource_Map(env->readback, 0, NULL, &data), S_OK);
    if (data)
        memset(data, value, 65536);
    ID3D12Resource_Unmap(env->readback, 0, NULL);
}

static uint32_t readback_word(struct env *env, size_t index)
{
    uint32_t *data = NULL, word = 0xdeadbeef;
    CHECK_HR(ID3D12Resource_Map(env->readback, 0, NULL, (void **)&data), S_OK);
    if (data)
        word = data[index];
    ID3D12Resource_Unmap(env->readback, 0, NULL);
    return word;
}

/* Signals a fresh fence on the queue and waits for it on the CPU. */
static void wait_queue(struct env *env, ID3D12CommandQueue *queue)
{
    ID3D12Fence *fence = NULL;
    CHECK_HR(ID3D12Device_CreateFence(env->device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&fence), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, 1), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 1, NULL), S_OK);
    ID3D12Fence_Release(fence);
}

static void execute(ID3D12CommandQueue *queue, ID3D12GraphicsCommandList2 *list)
{
    ID3D12CommandList *lists[1] = {(ID3D12CommandList *)list};
    ID3D12CommandQueue_ExecuteCommandLists(queue, 1, lists);
}

static void test_lifecycle(struct env *env)
{
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12CommandQueue *queue = env->queues[0];
    LOG_MARK();

    CHECK(ID3D12GraphicsCommandList2_GetType(list.list) == D3D12_COMMAND_LIST_TYPE_DIRECT);
    CHECK_HR(ID3D12GraphicsCommandList2_SetName(list.list, L"life"), S_OK);

    /* A new list records; Reset while recording fails; allocator Reset while it records fails. */
    CHECK_HR(ID3D12GraphicsCommandList2_Reset(list.list, list.allocator, NULL), E_FAIL);
    CHECK_LOG("Reset", "'life'", "still recording");
    RELOG_MARK();
    CHECK_HR(ID3D12CommandAllocator_Reset(list.allocator), E_FAIL);
    CHECK_LOG("ID3D12CommandAllocator::Reset", "recording");

    fill_readback(env, 0);
    ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, env->readback, 0, env->upload, 0, 16);
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), S_OK);
    CHECK_NO_LOG();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_FAIL);
    CHECK_LOG("Close", "'life'", "not recording");
    execute(queue, list.list);
    wait_queue(env, queue);
    CHECK(readback_word(env, 0) == 0x10000 && readback_word(env, 3) == 0x10003 && readback_word(env, 4) == 0);

    /* Allocator Reset after the GPU finished, then the list Resets and records again. */
    RELOG_MARK();
    CHECK_HR(ID3D12CommandAllocator_Reset(list.allocator), S_OK);
    CHECK_HR(ID3D12GraphicsCommandList2_Reset(list.list, list.allocator, NULL), S_OK);
    ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, env->readback, 64, env->upload, 128, 8);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), S_OK);
    CHECK_NO_LOG();
    execute(queue, list.list);
    wait_queue(env, queue);
    CHECK(readback_word(env, 16) == 0x10020 && readback_word(env, 17) == 0x10021 && readback_word(env, 18) == 0);
    /* Reset without resetting the allocator also works (the allocator just grows). */
    CHECK_HR(ID3D12GraphicsCommandList2_Reset(list.list, list.allocator, NULL), S_OK);
    ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, env->readback, 200, env->upload, 400, 4);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), S_OK);
    execute(queue, list.list);
    wait_queue(env, queue);
    CHECK(readback_word(env, 50) == 0x10064);
    /* A closed list executes again. */
    fill_readback(env, 0);
    execute(queue, list.list);
    wait_queue(env, queue);
    CHECK(readback_word(env, 50) == 0x10064 && readback_word(env, 16) == 0);

    /* Reset with a NULL or wrong-type allocator: the list stays closed. */
    {
        struct harness_list compute = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
        RELOG_MARK();
        CHECK_HR(ID3D12GraphicsCommandList2_Reset(list.list, NULL, NULL), E_INVALIDARG);
        CHECK_LOG("Reset", "pAllocator is NULL");
        RELOG_MARK();
        CHECK_HR(ID3D12GraphicsCommandList2_Reset(list.list, compute.allocator, NULL), E_INVALIDARG);
        CHECK_LOG("Reset", "pAllocator", "must match");
        RELOG_MARK();
        CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_FAIL);
        CHECK_LOG("Close", "not recording");
        CHECK(ID3D12GraphicsCommandList2_GetType(compute.list) == D3D12_COMMAND_LIST_TYPE_COMPUTE);
        CHECK_HR(ID3D12GraphicsCommandList2_Close(compute.list), S_OK);
        harness_release_list(&compute);
    }
    harness_release_list(&list);
}

static void test_allocator_rules(struct env *env)
{
    ID3D12CommandAllocator *direct = NULL, *copy = NULL;
    ID3D12GraphicsCommandList2 *first = NULL, *second = NULL, *bad = (ID3D12GraphicsCommandList2 *)(uintptr_t)0xdeadbeef;
    LOG_MARK();

    CHECK_HR(ID3D12Device_CreateCommandAllocator(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT, &IID_ID3D12CommandAllocator, (void **)&direct), S_OK);
    CHECK_HR(ID3D12Device_CreateCommandAllocator(env->device, D3D12_COMMAND_LIST_TYPE_COPY, &IID_ID3D12CommandAllocator, (void **)&copy), S_OK);
    CHECK_HR(ID3D12CommandAllocator_SetName(direct, L"shared_alloc"), S_OK);

    /* Type mismatch between the list and its allocator. */
    CHECK_HR(ID3D12Device_CreateCommandList(env->device, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, copy, NULL, &IID_ID3D12GraphicsCommandList2,
            (void **)&bad), E_INVALIDARG);
    CHECK_LOG("CreateCommandList", "pAllocator", "must match");
    CHECK(bad == NULL);
    RELOG_MARK();
    CHECK_HR(ID3D12Device_CreateCommandList(env->device, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, NULL, NULL, &IID_ID3D12GraphicsCommandList2,
            (void **)&bad), E_INVALIDARG);
    CHECK_LOG("CreateCommandList", "pCommandAllocator is NULL");

    /* One recording list per allocator. */
    RELOG_MARK();
    CHECK_HR(ID3D12Device_CreateCommandList(env->device, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, direct, NULL, &IID_ID3D12GraphicsCommandList2,
            (void **)&first), S_OK);
    CHECK_NO_LOG();
    CHECK_HR(ID3D12Device_CreateCommandList(env->device, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, direct, NULL, &IID_ID3D12GraphicsCommandList2,
            (void **)&second), E_INVALIDARG);
    CHECK_LOG("CreateCommandList", "'shared_alloc'", "already has a list recording");
    CHECK(second == NULL);
    /* Once the first is closed, a second list may record into the same allocator, and both run. */
    fill_readback(env, 0);
    ID3D12GraphicsCommandList2_CopyBufferRegion(first, env->readback, 0, env->upload, 0, 4);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(first), S_OK);
    RELOG_MARK();
    CHECK_HR(ID3D12Device_CreateCommandList(env->device, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, direct, NULL, &IID_ID3D12GraphicsCommandList2,
            (void **)&second), S_OK);
    CHECK_NO_LOG();
    /* ... and now the first cannot Reset onto it while the second records. */
    CHECK_HR(ID3D12GraphicsCommandList2_Reset(first, direct, NULL), E_INVALIDARG);
    CHECK_LOG("Reset", "already has a list recording");
    ID3D12GraphicsCommandList2_CopyBufferRegion(second, env->readback, 4, env->upload, 4, 4);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(second), S_OK);
    {
        ID3D12CommandList *lists[2] = {(ID3D12CommandList *)first, (ID3D12CommandList *)second};
        ID3D12CommandQueue_ExecuteCommandLists(env->queues[0], 2, lists);
    }
    wait_queue(env, env->queues[0]);
    CHECK(readback_word(env, 0) == 0x10000 && readback_word(env, 1) == 0x10001 && readback_word(env, 2) == 0);

    /* Allocator Reset while the GPU work is pending: a queue Wait on a fence value nobody has
     * signalled holds the submission back, deterministically. */
    {
        ID3D12Fence *gate = NULL;
        RELOG_MARK();
        CHECK_HR(ID3D12Device_CreateFence(env->device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&gate), S_OK);
        CHECK_HR(ID3D12CommandAllocator_Reset(direct), S_OK);
        CHECK_HR(ID3D12GraphicsCommandList2_Reset(first, direct, NULL), S_OK);
        ID3D12GraphicsCommandList2_CopyBufferRegion(first, env->readback, 8, env->upload, 8, 4);
        CHECK_HR(ID3D12GraphicsCommandList2_Close(first), S_OK);
        CHECK_HR(ID3D12CommandQueue_Wait(env->queues[0], gate, 1), S_OK);
        execute(env->queues[0], first);
        CHECK_NO_LOG();
        CHECK_HR(ID3D12CommandAllocator_Reset(direct), E_FAIL);
        CHECK_LOG("ID3D12CommandAllocator::Reset", "'shared_alloc'", "still in use by the GPU");
        CHECK(readback_word(env, 2) == 0); /* held back: nothing ran */
        RELOG_MARK();
        CHECK_HR(ID3D12Fence_Signal(gate, 1), S_OK);
        wait_queue(env, env->queues[0]);
        CHECK(readback_word(env, 2) == 0x10002);
        CHECK_HR(ID3D12CommandAllocator_Reset(direct), S_OK);
        CHECK_NO_LOG();
        ID3D12Fence_Release(gate);
    }

    ID3D12GraphicsCommandList2_Release(first);
    ID3D12GraphicsCommandList2_Release(second);
    CHECK(ID3D12CommandAllocator_Release(direct) == 0);
    CHECK(ID3D12CommandAllocator_Release(copy) == 0);
}

/* A closed list whose allocator was Reset has lost its commands (the allocator may even hand
 * the same memory to another list): executing it is refused. */
static void test_stale_list(struct env *env)
{
    ID3D12CommandQueue *queue = env->queues[0];
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2 *other = NULL;
    LOG_MARK();

    CHECK_HR(ID3D12GraphicsCommandList2_SetName(list.list, L"stale"), S_OK);
    CHECK_HR(ID3D12CommandAllocator_SetName(list.allocator, L"recycled"), S_OK);
    fill_readback(env, 0);
    ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, env->readback, 0, env->upload, 0, 4);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), S_OK);
    CHECK_HR(ID3D12CommandAllocator_Reset(list.allocator), S_OK);
    CHECK_HR(ID3D12Device_CreateCommandList(env->device, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, list.allocator, NULL,
            &IID_ID3D12GraphicsCommandList2, (void **)&other), S_OK);
    ID3D12GraphicsCommandList2_CopyBufferRegion(other, env->readback, 4, env->upload, 4, 4);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(other), S_OK);
    CHECK_NO_LOG();

    execute(queue, list.list);
    CHECK_LOG("ExecuteCommandLists", "'stale'", "'recycled'", "Reset", "nothing executed");
    wait_queue(env, queue);
    CHECK(readback_word(env, 0) == 0 && readback_word(env, 1) == 0);
    /* The list recorded after the Reset runs, and only its own commands. */
    RELOG_MARK();
    execute(queue, other);
    wait_queue(env, queue);
    CHECK_NO_LOG();
    CHECK(readback_word(env, 0) == 0 && readback_word(env, 1) == 0x10001);
    /* Recording the stale list again makes it executable. */
    CHECK_HR(ID3D12GraphicsCommandList2_Reset(list.list, list.allocator, NULL), S_OK);
    ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, env->readback, 8, env->upload, 8, 4);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), S_OK);
    execute(queue, list.list);
    wait_queue(env, queue);
    CHECK_NO_LOG();
    CHECK(readback_word(env, 0) == 0 && readback_word(env, 2) == 0x10002);

    ID3D12GraphicsCommandList2_Release(other);
    harness_release_list(&list);
}

/* Starts a DIRECT list with one valid 4-byte copy (upload word 0 -> readback word 0). */
static struct harness_list list_with_valid_copy(struct env *env)
{
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, env->readback, 0, env->upload, 0, 4);
    return list;
}

/* The list recorded exactly one bad command (checked by the caller); Close must fail naming it. */
static void check_close_fails(struct harness_list *list, const char *command)
{
    LOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list->list), E_INVALIDARG);
    CHECK_LOG("Close", "invalid command", command);
}

static void test_closed_list_recording(struct env *env)
{
    struct harness_list list = list_with_valid_copy(env);
    D3D12_RESOURCE_BARRIER barrier;
    D3D12_WRITEBUFFERIMMEDIATE_PARAMETER parameter = {ID3D12Resource_GetGPUVirtualAddress(env->readback) + 8, 77};
    LOG_MARK();

    fill_readback(env, 0);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), S_OK);
    /* Each command on the closed list logs once and is ignored. */
    ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, env->readback, 4, env->upload, 4, 4);
    CHECK_LOG("CopyBufferRegion", "closed");
    RELOG_MARK();
    ID3D12GraphicsCommandList2_CopyResource(list.list, env->readback, env->upload);
    CHECK_LOG("CopyResource", "closed");
    RELOG_MARK();
    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    CHECK_LOG("ResourceBarrier", "closed");
    RELOG_MARK();
    ID3D12GraphicsCommandList2_WriteBufferImmediate(list.list, 1, &parameter, NULL);
    CHECK_LOG("WriteBufferImmediate", "closed");
    RELOG_MARK();
    ID3D12GraphicsCommandList2_ClearState(list.list, NULL);
    CHECK_LOG("ClearState", "closed");
    /* The list itself is still good: it executes, and only the copy recorded before Close runs. */
    RELOG_MARK();
    execute(env->queues[0], list.list);
    wait_queue(env, env->queues[0]);
    CHECK_NO_LOG();
    CHECK(readback_word(env, 0) == 0x10000 && readback_word(env, 1) == 0 && readback_word(env, 2) == 0 && readback_word(env, 100) == 0);
    /* And Close reports only that it is not recording, not an invalid command. */
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_FAIL);
    CHECK_LOG("Close", "not recording");
    harness_release_list(&list);
}

static void test_bad_copies(struct env *env)
{
    ID3D12Resource *def = harness_create_buffer(env->device, D3D12_HEAP_TYPE_DEFAULT, 4096, D3D12_RESOURCE_STATE_COMMON);
    ID3D12Resource *upload2 = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, 4096, D3D12_RESOURCE_STATE_GENERIC_READ);
    struct {
        ID3D12Resource *dst;
        UINT64 dst_offset;
        ID3D12Resource *src;
        UINT64 src_offset, size;
        const char *needle;
    } cases[] = {
        {def, 4000, env->upload, 0, 100, "DstOffset 4000 + NumBytes 100"},
        {def, 0, env->upload, 65536 - 8, 16, "SrcOffset"},
        {def, UINT64_MAX - 2, env->upload, 0, 4, "DstOffset"},
        {def, 4, env->upload, 0, UINT64_MAX, "NumBytes"},
        {def, 0, def, 64, 128, "overlap"},
        {def, 100, def, 0, 101, "overlap"},
        {NULL, 0, env->upload, 0, 4, "pDstBuffer is NULL"},
        {def, 0, NULL, 0, 4, "pSrcBuffer is NULL"},
        {upload2, 0, def, 0, 4, "UPLOAD heap"},
        {def, 0, env->readback, 0, 4, "READBACK heap"},
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct harness_list list = list_with_valid_copy(env);
        LOG_MARK();
        ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, cases[i].dst, cases[i].dst_offset, cases[i].src, cases[i].src_offset, cases[i].size);
        CHECK_LOG("CopyBufferRegion", cases[i].needle, "now invalid");
        /* Later valid commands do not clear the error. */
        ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, env->readback, 8, env->upload, 8, 4);
        check_close_fails(&list, cases[i].needle);
        harness_release_list(&list);
    }

    /* Valid edge cases: adjacent ranges in one buffer, a zero-byte copy, the last byte. */
    {
        struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        D3D12_RESOURCE_BARRIER barrier;
        LOG_MARK();
        fill_readback(env, 0);
        ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, def, 0, env->upload, 0, 4096);
        memset(&barrier, 0, sizeof(barrier));
        barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
        barrier.UAV.pResource = def;
        ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
        ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, def, 2048, def, 0, 2048);
        ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
        ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, env->readback, 0, def, 0, 4096);
        ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, env->readback, 65536, env->upload, 0, 0);
        ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, env->readback, 65532, env->upload, 65532, 4);
        harness_execute_and_wait(env->device, env->queues[0], &list);
        CHECK_NO_LOG();
        CHECK(readback_word(env, 0) == 0x10000 && readback_word(env, 511) == 0x101ff);
        CHECK(readback_word(env, 512) == 0x10000 && readback_word(env, 1023) == 0x101ff && readback_word(env, 1024) == 0);
        CHECK(readback_word(env, 16383) == 0x10000 + 16383);
        harness_release_list(&list);
    }

    /* CopyResource with mismatched sizes or the same resource. */
    {
        struct harness_list list = list_with_valid_copy(env);
        LOG_MARK();
        ID3D12GraphicsCommandList2_CopyResource(list.list, def, env->upload);
        CHECK_LOG("CopyResource", "sizes must match");
        check_close_fails(&list, "CopyResource");
        harness_release_list(&list);
        list = list_with_valid_copy(env);
        RELOG_MARK();
        ID3D12GraphicsCommandList2_CopyResource(list.list, def, def);
        CHECK_LOG("CopyResource", "same resource");
        check_close_fails(&list, "same resource");
        harness_release_list(&list);
    }
    ID3D12Resource_Release(def);
    ID3D12Resource_Release(upload2);
}

static void test_execute_invalid(struct env *env)
{
    ID3D12CommandQueue *queue = env->queues[0];
    struct harness_list bad = list_with_valid_copy(env), good;
    LOG_MARK();

    fill_readback(env, 0xee);
    CHECK_HR(ID3D12GraphicsCommandList2_SetName(bad.list, L"broken"), S_OK);
    ID3D12GraphicsCommandList2_CopyBufferRegion(bad.list, env->readback, 0, NULL, 0, 4);
    CHECK_LOG("CopyBufferRegion", "pSrcBuffer is NULL");
    check_close_fails(&bad, "pSrcBuffer is NULL");

    /* Executing it logs once and runs nothing: its valid copy (word 0) does not happen. */
    RELOG_MARK();
    execute(queue, bad.list);
    CHECK_LOG("ExecuteCommandLists", "'broken'", "failed Close", "nothing executed");
    wait_queue(env, queue);
    CHECK(readback_word(env, 0) == 0xeeeeeeee);

    /* A still-recording list removes the device, as on Windows: test_windows_corners.c. */

    /* One bad list among good ones cancels the whole call. */
    good = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_CopyBufferRegion(good.list, env->readback, 4, env->upload, 4, 4);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(good.list), S_OK);
    {
        ID3D12CommandList *lists[2] = {(ID3D12CommandList *)good.list, (ID3D12CommandList *)bad.list};
        RELOG_MARK();
        ID3D12CommandQueue_ExecuteCommandLists(queue, 2, lists);
        CHECK_LOG("ExecuteCommandLists", "ppCommandLists[1]", "failed Close");
        wait_queue(env, queue);
        CHECK(readback_word(env, 1) == 0xeeeeeeee);
    }
    /* A list of the wrong type, and NULL. */
    {
        struct harness_list copy = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_COPY);
        ID3D12CommandList *lists[2] = {(ID3D12CommandList *)good.list, NULL};
        CHECK_HR(ID3D12GraphicsCommandList2_Close(copy.list), S_OK);
        RELOG_MARK();
        execute(queue, copy.list);
        CHECK_LOG("ExecuteCommandLists", "COPY list", "DIRECT");
        RELOG_MARK();
        ID3D12CommandQueue_ExecuteCommandLists(queue, 2, lists);
        CHECK_LOG("ExecuteCommandLists", "ppCommandLists[1] is NULL");
        RELOG_MARK();
        ID3D12CommandQueue_ExecuteCommandLists(queue, 1, NULL);
        CHECK_LOG("ExecuteCommandLists", "ppCommandLists is NULL");
        harness_release_list(&copy);
    }
    wait_queue(env, queue);
    CHECK(readback_word(env, 1) == 0xeeeeeeee);

    /* The queue still works afterwards. */
    RELOG_MARK();
    execute(queue, good.list);
    wait_queue(env, queue);
    CHECK_NO_LOG();
    CHECK(readback_word(env, 1) == 0x10001 && readback_word(env, 0) == 0xeeeeeeee);

    /* Reset clears the invalid state: the broken list records and runs again. */
    CHECK_HR(ID3D12CommandAllocator_Reset(bad.allocator), S_OK);
    CHECK_HR(ID3D12GraphicsCommandList2_Reset(bad.list, bad.allocator, NULL), S_OK);
    ID3D12GraphicsCommandList2_CopyBufferRegion(bad.list, env->readback, 0, env->upload, 0, 4);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(bad.list), S_OK);
    execute(queue, bad.list);
    wait_queue(env, queue);
    CHECK_NO_LOG();
    CHECK(readback_word(env, 0) == 0x10000);

    harness_release_list(&good);
    harness_release_list(&bad);
}

static D3D12_RESOURCE_BARRIER transition(ID3D12Resource *resource, D3D12_RESOURCE_STATES before, D3D12_RESOURCE_STATES after)
{
    D3D12_RESOURCE_BARRIER barrier;
    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    barrier.Transition.pResource = resource;
    barrier.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    barrier.Transition.StateBefore = before;
    barrier.Transition.StateAfter = after;
    return barrier;
}

static void test_barriers(struct env *env)
{
    ID3D12Resource *a = harness_create_buffer(env->device, D3D12_HEAP_TYPE_DEFAULT, 4096, D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12Resource *b = harness_create_buffer(env->device, D3D12_HEAP_TYPE_DEFAULT, 4096, D3D12_RESOURCE_STATE_COPY_DEST);
    D3D12_RESOURCE_BARRIER barriers[3];
    LOG_MARK();

    /* Valid: transition, UAV (with and without a resource), aliasing, a split BEGIN/END pair,
     * all between dependent copies upload -> a -> b -> readback. */
    for (int t = 0; t < 3; t++) {
        struct harness_list list = harness_create_list(env->device, list_types[t]);
        fill_readback(env, 0);
        RELOG_MARK();
        ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, a, 0, env->upload, 256, 4096);
        barriers[0] = transition(a, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
        barriers[0].Flags = D3D12_RESOURCE_BARRIER_FLAG_BEGIN_ONLY;
        ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, barriers);
        barriers[0].Flags = D3D12_RESOURCE_BARRIER_FLAG_END_ONLY;
        ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, barriers);
        ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, b, 0, a, 0, 4096);
        memset(barriers, 0, sizeof(barriers));
        barriers[0].Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
        barriers[0].UAV.pResource = b;
        barriers[1].Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
        barriers[2].Type = D3D12_RESOURCE_BARRIER_TYPE_ALIASING;
        barriers[2].Aliasing.pResourceBefore = a;
        barriers[2].Aliasing.pResourceAfter = NULL;
        ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 3, barriers);
        barriers[0] = transition(b, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
        barriers[0].Transition.Subresource = 0;
        barriers[1] = transition(a, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_COPY_DEST);
        ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 2, barriers);
        ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, env->readback, 0, b, 0, 4096);
        ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 0, NULL);
        barriers[0] = transition(b, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_COPY_DEST);
        ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, barriers);
        harness_execute_and_wait(env->device, queue_for(env, list_types[t]), &list);
        CHECK_NO_LOG();
        CHECK_MSG(readback_word(env, 0) == 0x10040 && readback_word(env, 1023) == 0x1043f && readback_word(env, 1024) == 0,
                "copies chained through barriers on a %s list gave wrong data", list_type_names[t]);
        harness_release_list(&list);
    }

    /* Invalid barriers. */
    {
        struct {
            D3D12_RESOURCE_BARRIER barrier;
            const char *needle;
        } cases[7];
        size_t n = 0;
        cases[n].barrier = transition(a, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_DEST), cases[n++].needle = "same state";
        cases[n].barrier = transition(NULL, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE),
                cases[n++].needle = "Transition.pResource is NULL";
        cases[n].barrier = transition(a, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
        cases[n].barrier.Transition.Subresource = 1, cases[n++].needle = "Subresource is 1";
        cases[n].barrier = transition(a, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
        cases[n].barrier.Type = (D3D12_RESOURCE_BARRIER_TYPE)7, cases[n++].needle = "Type is 7";
        cases[n].barrier = transition(a, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
        cases[n].barrier.Flags = D3D12_RESOURCE_BARRIER_FLAG_BEGIN_ONLY | D3D12_RESOURCE_BARRIER_FLAG_END_ONLY, cases[n++].needle = "Flags is 0x3";
        cases[n].barrier = transition(a, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
        cases[n].barrier.Flags = (D3D12_RESOURCE_BARRIER_FLAGS)0x10, cases[n++].needle = "Flags is 0x10";
        memset(&cases[n].barrier, 0, sizeof(cases[n].barrier));
        cases[n].barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
        cases[n].barrier.UAV.pResource = (ID3D12Resource *)env->queues[0];
        cases[n++].needle = "UAV.pResource is not a d3d12xs resource";

        for (size_t i = 0; i < n; i++) {
            struct harness_list list = list_with_valid_copy(env);
            D3D12_RESOURCE_BARRIER pair[2];
            pair[0] = transition(b, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE); /* valid, before the bad one */
            pair[1] = cases[i].barrier;
            RELOG_MARK();
            ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 2, pair);
            CHECK_LOG("ResourceBarrier", "pBarriers[1]", cases[i].needle);
            check_close_fails(&list, cases[i].needle);
            harness_release_list(&list);
        }
        {
            struct harness_list list = list_with_valid_copy(env);
            RELOG_MARK();
            ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 2, NULL);
            CHECK_LOG("ResourceBarrier", "pBarriers is NULL");
            check_close_fails(&list, "pBarriers is NULL");
            harness_release_list(&list);
        }
    }
    ID3D12Resource_Release(a);
    ID3D12Resource_Release(b);
}

static void test_write_buffer_immediate(struct env *env)
{
    ID3D12Resource *def = harness_create_buffer(env->device, D3D12_HEAP_TYPE_DEFAULT, 256, D3D12_RESOURCE_STATE_COPY_DEST);
    D3D12_GPU_VIRTUAL_ADDRESS rb = ID3D12Resource_GetGPUVirtualAddress(env->readback);
    D3D12_GPU_VIRTUAL_ADDRESS dva = ID3D12Resource_GetGPUVirtualAddress(def);
    LOG_MARK();

    for (int t = 0; t < 3; t++) {
        struct harness_list list = harness_create_list(env->device, list_types[t]);
        D3D12_WRITEBUFFERIMMEDIATE_PARAMETER parameters[4];
        D3D12_WRITEBUFFERIMMEDIATE_MODE modes[4] = {D3D12_WRITEBUFFERIMMEDIATE_MODE_DEFAULT, D3D12_WRITEBUFFERIMMEDIATE_MODE_MARKER_IN,
                D3D12_WRITEBUFFERIMMEDIATE_MODE_MARKER_OUT, D3D12_WRITEBUFFERIMMEDIATE_MODE_MARKER_OUT};
        D3D12_RESOURCE_BARRIER barrier;
        uint32_t base = 0xa0000000u + (uint32_t)t * 0x100;

        fill_readback(env, 0);
        RELOG_MARK();
        /* Through a DEFAULT buffer then a copy ... */
        for (int i = 0; i < 4; i++)
            parameters[i] = (D3D12_WRITEBUFFERIMMEDIATE_PARAMETER){dva + 4 * (UINT64)i, base + (uint32_t)i};
        parameters[3].Dest = dva + 252; /* the last word */
        ID3D12GraphicsCommandList2_WriteBufferImmediate(list.list, 4, parameters, modes);
        barrier = transition(def, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
        ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
        ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, env->readback, 0, def, 0, 256);
        barrier = transition(def, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_COPY_DEST);
        ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
        /* ... and straight into the readback buffer, with pModes NULL (all DEFAULT). */
        parameters[0] = (D3D12_WRITEBUFFERIMMEDIATE_PARAMETER){rb + 1024, base + 0x10};
        parameters[1] = (D3D12_WRITEBUFFERIMMEDIATE_PARAMETER){rb + 65532, base + 0x11};
        ID3D12GraphicsCommandList2_WriteBufferImmediate(list.list, 2, parameters, NULL);
        /* Count 0 with NULL arrays is a no-op. */
        ID3D12GraphicsCommandList2_WriteBufferImmediate(list.list, 0, NULL, NULL);
        /* Each mode alone, writing the readback buffer directly. */
        for (int m = 0; m < 3; m++) {
            parameters[0] = (D3D12_WRITEBUFFERIMMEDIATE_PARAMETER){rb + 2048 + 4 * (UINT64)m, base + 0x20 + (uint32_t)m};
            ID3D12GraphicsCommandList2_WriteBufferImmediate(list.list, 1, parameters, &modes[m]);
        }
        harness_execute_and_wait(env->device, queue_for(env, list_types[t]), &list);
        CHECK_NO_LOG();
        CHECK_MSG(readback_word(env, 0) == base && readback_word(env, 1) == base + 1 && readback_word(env, 2) == base + 2
                && readback_word(env, 63) == base + 3,
                "WriteBufferImmediate DEFAULT/MARKER_IN/MARKER_OUT on a %s list wrote the wrong words", list_type_names[t]);
        CHECK_MSG(readback_word(env, 256) == base + 0x10 && readback_word(env, 16383) == base + 0x11 && readback_word(env, 257) == 0,
                "WriteBufferImmediate with pModes NULL on a %s list wrote the wrong words", list_type_names[t]);
        CHECK_MSG(readback_word(env, 512) == base + 0x20 && readback_word(env, 513) == base + 0x21 && readback_word(env, 514) == base + 0x22
                && readback_word(env, 515) == 0, "single-mode WriteBufferImmediate on a %s list wrote the wrong words", list_type_names[t]);
        harness_release_list(&list);
    }

    /* Bad writes. A released buffer's range is no longer valid. */
    {
        ID3D12Resource *gone = harness_create_buffer(env->device, D3D12_HEAP_TYPE_DEFAULT, 256, D3D12_RESOURCE_STATE_COMMON);
        D3D12_GPU_VIRTUAL_ADDRESS gone_va = ID3D12Resource_GetGPUVirtualAddress(gone);
        ID3D12Resource *upload = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, 256, D3D12_RESOURCE_STATE_GENERIC_READ);
        struct {
            D3D12_GPU_VIRTUAL_ADDRESS dest;
            D3D12_WRITEBUFFERIMMEDIATE_MODE mode;
            const char *needle;
        } cases[] = {
            {rb + 2, D3D12_WRITEBUFFERIMMEDIATE_MODE_DEFAULT, "not 4-byte aligned"},
            {rb + 65536, D3D12_WRITEBUFFERIMMEDIATE_MODE_DEFAULT, "not inside a live buffer"},
            {dva + 256, D3D12_WRITEBUFFERIMMEDIATE_MODE_MARKER_IN, "not inside a live buffer"},
            {0, D3D12_WRITEBUFFERIMMEDIATE_MODE_DEFAULT, "not inside a live buffer"},
            {0x1000, D3D12_WRITEBUFFERIMMEDIATE_MODE_MARKER_OUT, "not inside a live buffer"},
            {gone_va, D3D12_WRITEBUFFERIMMEDIATE_MODE_DEFAULT, "not inside a live buffer"},
            {rb, (D3D12_WRITEBUFFERIMMEDIATE_MODE)3, "pModes[1] is 3"},
            {ID3D12Resource_GetGPUVirtualAddress(upload) + 4, D3D12_WRITEBUFFERIMMEDIATE_MODE_DEFAULT, "UPLOAD heap"},
        };
        ID3D12Resource_Release(gone);
        for (int t = 0; t < 3; t++) {
            for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                struct harness_list list = harness_create_list(env->device, list_types[t]);
                D3D12_WRITEBUFFERIMMEDIATE_PARAMETER parameters[2] = {{rb + 8, 1}, {cases[i].dest, 2}};
                D3D12_WRITEBUFFERIMMEDIATE_MODE modes[2] = {D3D12_WRITEBUFFERIMMEDIATE_MODE_DEFAULT, cases[i].mode};
                RELOG_MARK();
                ID3D12GraphicsCommandList2_WriteBufferImmediate(list.list, 2, parameters, modes);
                CHECK_LOG("WriteBufferImmediate", "[1]", cases[i].needle);
                check_close_fails(&list, cases[i].needle);
                harness_release_list(&list);
            }
        }
        {
            struct harness_list list = list_with_valid_copy(env);
            RELOG_MARK();
            ID3D12GraphicsCommandList2_WriteBufferImmediate(list.list, 1, NULL, NULL);
            CHECK_LOG("WriteBufferImmediate", "pParams is NULL");
            check_close_fails(&list, "pParams is NULL");
            harness_release_list(&list);
        }
        ID3D12Resource_Release(upload);
    }
    ID3D12Resource_Release(def);
}

/* Releasing the list and its allocator right after ExecuteCommandLists, while a queue Wait on a
 * fence nobody has signalled yet still holds the submission back: the commands must stay alive
 * and run once the fence is signalled. (Run last: a library that frees them crashes here.) */
static void test_release_while_held(struct env *env)
{
    ID3D12CommandQueue *queue = env->queues[0];
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12Fence *gate = NULL;
    LOG_MARK();

    fill_readback(env, 0);
    ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, env->readback, 12, env->upload, 12, 4);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), S_OK);
    CHECK_HR(ID3D12Device_CreateFence(env->device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&gate), S_OK);
    CHECK_HR(ID3D12CommandQueue_Wait(queue, gate, 1), S_OK);
    execute(queue, list.list);
    harness_release_list(&list);
    CHECK(readback_word(env, 3) == 0);
    CHECK_HR(ID3D12Fence_Signal(gate, 1), S_OK);
    wait_queue(env, queue);
    CHECK_NO_LOG();
    CHECK_MSG(readback_word(env, 3) == 0x10003, "a submission held by a queue Wait did not run after its list and allocator were released");
    ID3D12Fence_Release(gate);
}

int main(void)
{
    struct env env;
    uint32_t *words = NULL;

    harness_init();
    env.device = harness_create_device();
    for (int t = 0; t < 3; t++)
        env.queues[t] = harness_create_queue(env.device, list_types[t]);
    env.upload = harness_create_buffer(env.device, D3D12_HEAP_TYPE_UPLOAD, 65536, D3D12_RESOURCE_STATE_GENERIC_READ);
    env.readback = harness_create_buffer(env.device, D3D12_HEAP_TYPE_READBACK, 65536, D3D12_RESOURCE_STATE_COPY_DEST);
    CHECK_HR(ID3D12Resource_Map(env.upload, 0, NULL, (void **)&words), S_OK);
    for (uint32_t i = 0; words && i < 16384; i++)
        words[i] = 0x10000 + i;
    ID3D12Resource_Unmap(env.upload, 0, NULL);

    test_lifecycle(&env);
    test_allocator_rules(&env);
    test_stale_list(&env);
    test_closed_list_recording(&env);
    test_bad_copies(&env);
    test_execute_invalid(&env);
    test_barriers(&env);
    test_write_buffer_immediate(&env);
    test_release_while_held(&env);

    ID3D12Resource_Release(env.upload);
    ID3D12Resource_Release(env.readback);
    for (int t = 0; t < 3; t++)
        ID3D12CommandQueue_Release(env.queues[t]);
    harness_release_device(env.device);
    return harness_finish();
}
