/* The scheduler's memory-value waits (the console's Wait32/64BitValueX, on graphics memory the
 * CPU writes), the watchdog over them, and the walkable command record (an internal interface). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "commands/command_list_state.h"
#include "commands/command_queue.h"
#include "memory/resource.h"

/* A list whose only command is a memory wait. */
static struct harness_list wait_list(ID3D12Device *device, D3D12_COMMAND_LIST_TYPE type, uint64_t address, uint32_t size,
        D3D12_COMPARISON_FUNC comparison, uint64_t value)
{
    struct harness_list list = harness_create_list(device, type);
    ID3D12GraphicsCommandList *l = (ID3D12GraphicsCommandList *)list.list;
    if (size == 8)
        ID3D12GraphicsCommandList_Wait64BitValueX(l, address, comparison, value, D3D12XBOX_WAIT_FLAG_NONE);
    else
        ID3D12GraphicsCommandList_Wait32BitValueX(l, address, comparison, (UINT)value, D3D12XBOX_WAIT_FLAG_NONE);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), S_OK);
    return list;
}

static bool wait_fence(ID3D12Fence *fence, UINT64 value, DWORD timeout_ms)
{
    HANDLE event = CreateEvent(NULL, FALSE, FALSE, NULL);
    bool ok = ID3D12Fence_SetEventOnCompletion(fence, value, event) == S_OK && WaitForSingleObject(event, timeout_ms) == WAIT_OBJECT_0;
    CloseHandle(event);
    return ok;
}

/* For each comparison: a value that fails it, then one that passes. */
static const struct {
    D3D12_COMPARISON_FUNC comparison;
    uint64_t reference, failing, passing;
} comparisons[] = {
    {D3D12_COMPARISON_FUNC_LESS, 10, 10, 9},
    {D3D12_COMPARISON_FUNC_EQUAL, 10, 11, 10},
    {D3D12_COMPARISON_FUNC_LESS_EQUAL, 10, 11, 10},
    {D3D12_COMPARISON_FUNC_GREATER, 10, 10, 11},
    {D3D12_COMPARISON_FUNC_NOT_EQUAL, 10, 10, 3},
    {D3D12_COMPARISON_FUNC_GREATER_EQUAL, 1ull << 40, (1ull << 40) - 1, 1ull << 40},
    {D3D12_COMPARISON_FUNC_ALWAYS, 10, 10, 10},
};

/* Work behind a memory wait runs once the CPU writes a value that satisfies it, for every
 * comparison and both sizes, and work on another queue is not held up meanwhile. */
static void test_memory_waits(ID3D12Device *device)
{
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12CommandQueue *other = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12Fence *fence = harness_create_fence(device, 0), *other_fence = harness_create_fence(device, 0);
    uint64_t *memory = NULL;
    UINT64 value = 0;
    LOG_MARK();

    CHECK_HR(D3D12XSAllocateGraphicsMemory(device, 4096, FALSE, (void **)&memory), S_OK);
    for (unsigned size = 4; size <= 8; size += 4) {
        for (size_t i = 0; i < sizeof(comparisons) / sizeof(comparisons[0]); i++) {
            uint64_t reference = size == 4 ? (uint32_t)comparisons[i].reference : comparisons[i].reference;
            uint64_t failing = size == 4 ? (uint32_t)comparisons[i].failing : comparisons[i].failing;
            uint64_t passing = size == 4 ? (uint32_t)comparisons[i].passing : comparisons[i].passing;
            if (size == 4 && comparisons[i].comparison == D3D12_COMPARISON_FUNC_GREATER_EQUAL)
                continue; /* the 40-bit case is for 64-bit waits */
            if (size == 4)
                __atomic_store_n((uint32_t *)&memory[1], (uint32_t)failing, __ATOMIC_RELEASE);
            else
                __atomic_store_n(&memory[1], failing, __ATOMIC_RELEASE);
            struct harness_list list = wait_list(device, D3D12_COMMAND_LIST_TYPE_COMPUTE, (uint64_t)(uintptr_t)&memory[1], size,
                    comparisons[i].comparison, reference);
            ID3D12CommandList *lists[1] = {(ID3D12CommandList *)list.list};
            ID3D12CommandQueue_ExecuteCommandLists(queue, 1, lists);
            CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, ++value), S_OK);
            CHECK_HR(ID3D12CommandQueue_Signal(other, other_fence, value), S_OK);
            CHECK_MSG(wait_fence(other_fence, value, 5000), "another queue was held up by a memory wait");
            if (comparisons[i].comparison != D3D12_COMPARISON_FUNC_ALWAYS) {
                harness_sleep_ms(20);
                CHECK_MSG(ID3D12Fence_GetCompletedValue(fence) == value - 1, "%u-bit %s wait on %llu ran with %llu in memory", size * 8,
                        d3d12_comparison_name(comparisons[i].comparison), (unsigned long long)comparisons[i].reference,
                        (unsigned long long)failing);
            }
            if (size == 4)
                __atomic_store_n((uint32_t *)&memory[1], (uint32_t)passing, __ATOMIC_RELEASE);
            else
                __atomic_store_n(&memory[1], passing, __ATOMIC_RELEASE);
            CHECK_MSG(wait_fence(fence, value, 5000), "%u-bit %s wait on %llu did not end with %llu in memory", size * 8,
                    d3d12_comparison_name(comparisons[i].comparison), (unsigned long long)comparisons[i].reference,
                    (unsigned long long)passing);
            harness_release_list(&list);
        }
    }
    CHECK_NO_LOG();
    CHECK(D3D12XSFreeGraphicsMemory(memory));
    CHECK(ID3D12Fence_Release(fence) == 0);
    CHECK(ID3D12Fence_Release(other_fence) == 0);
    CHECK(ID3D12CommandQueue_Release(queue) == 0);
    CHECK(ID3D12CommandQueue_Release(other) == 0);
}

/* A memory wait nobody satisfies ends as DEVICE_HUNG, and the line says what hung. */
static void test_memory_wait_hang(void)
{
    ID3D12Device *device = harness_create_device();
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12Fence *fence = harness_create_fence(device, 0);
    uint64_t *memory = NULL;
    char expected_address[32];
    uint64_t start;
    LOG_MARK();

    CHECK_HR(D3D12XSAllocateGraphicsMemory(device, 4096, FALSE, (void **)&memory), S_OK);
    *memory = 3;
    CHECK_HR(D3D12XSSetHangTimeout(device, 200), S_OK);
    CHECK_HR(ID3D12CommandQueue_SetName(queue, L"compute"), S_OK);
    struct harness_list list = wait_list(device, D3D12_COMMAND_LIST_TYPE_COMPUTE, (uint64_t)(uintptr_t)memory, 8, D3D12_COMPARISON_FUNC_EQUAL, 1);
    ID3D12CommandList *lists[1] = {(ID3D12CommandList *)list.list};
    ID3D12CommandQueue_ExecuteCommandLists(queue, 1, lists);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, 1), S_OK);
    start = harness_now_ms();
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 1, NULL), DXGI_ERROR_DEVICE_HUNG);
    CHECK_MSG(harness_now_ms() - start < 10000, "the hang took %llu ms to be declared", (unsigned long long)(harness_now_ms() - start));
    snprintf(expected_address, sizeof(expected_address), "0x%llx", (unsigned long long)(uintptr_t)memory);
    CHECK_LOG("DXGI_ERROR_DEVICE_HUNG", "queue 'compute'", expected_address, "EQUAL 1", "memory holds 3");
    harness_release_list(&list);
    CHECK(D3D12XSFreeGraphicsMemory(memory));
    CHECK(ID3D12Fence_Release(fence) == 0);
    CHECK(ID3D12CommandQueue_Release(queue) == 0);
    harness_release_device(device);
}

struct walk {
    enum d3d12_recorded_kind kinds[16];
    uint32_t calls[16], segments[16], range_counts[16];
    struct d3d12_recorded_range first_ranges[16];
    unsigned count;
};

static void visit(const struct d3d12_recorded_command *command, const struct d3d12_recorded_range *ranges, void *context)
{
    struct walk *walk = context;
    if (walk->count >= 16)
        return;
    walk->kinds[walk->count] = command->kind;
    walk->calls[walk->count] = command->call_index;
    walk->segments[walk->count] = command->segment;
    walk->range_counts[walk->count] = command->range_count;
    if (command->range_count)
        walk->first_ranges[walk->count] = ranges[command->range_count - 1];
    walk->count++;
}

/* The record names each command, its call index, its segment and its buffer ranges. */
static void test_record(ID3D12Device *device, bool split)
{
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12Resource *a = harness_create_buffer(device, D3D12_HEAP_TYPE_UPLOAD, 4096, D3D12_RESOURCE_STATE_GENERIC_READ);
    ID3D12Resource *b = harness_create_buffer(device, D3D12_HEAP_TYPE_DEFAULT, 4096, D3D12_RESOURCE_STATE_COPY_DEST);
    struct harness_list list;
    D3D12_RESOURCE_BARRIER barrier = {.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV};
    D3D12_WRITEBUFFERIMMEDIATE_PARAMETER write = {ID3D12Resource_GetGPUVirtualAddress(b) + 64, 7};
    struct walk walk = {.count = 0};
    struct d3d12_command_list *impl;
    LOG_MARK();

    /* As D3D12XS_SPLIT_LISTS=1 would, for this one list: lists read the device's configuration. */
    struct d3d12xs_config *config = &impl_from_ID3D12Device(device)->config;
    uint32_t split_every = config->split_lists_every;
    if (split)
        config->split_lists_every = 1;
    list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    config->split_lists_every = split_every;
    impl = unsafe_impl_from_ID3D12CommandList((ID3D12CommandList *)list.list);
    ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, b, 256, a, 128, 512);   /* call 0 */
    ID3D12GraphicsCommandList2_SetMarker(list.list, 0, NULL, 0);                    /* not a recording call */
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);             /* call 1 */
    ID3D12GraphicsCommandList2_WriteBufferImmediate(list.list, 1, &write, NULL);    /* call 2 */
    d3d12_command_list_walk(impl, visit, &walk);
    CHECK(walk.count == 3);
    CHECK(walk.kinds[0] == D3D12_RECORDED_COPY && walk.calls[0] == 0 && walk.range_counts[0] == 2);
    CHECK(walk.first_ranges[0].buffer == unsafe_impl_from_ID3D12Resource(b)->vk_buffer && walk.first_ranges[0].offset == 256
            && walk.first_ranges[0].size == 512 && walk.first_ranges[0].write);
    CHECK(walk.kinds[1] == D3D12_RECORDED_BARRIER && walk.calls[1] == 1 && walk.range_counts[1] == 0);
    CHECK(walk.kinds[2] == D3D12_RECORDED_WRITE_IMMEDIATE && walk.calls[2] == 2 && walk.first_ranges[2].offset == 64);
    CHECK_MSG(split ? walk.segments[0] == 0 && walk.segments[1] == 1 && walk.segments[2] == 2
                    : walk.segments[0] == 0 && walk.segments[2] == 0, "segments %u %u %u", walk.segments[0], walk.segments[1], walk.segments[2]);
    CHECK(impl->segment_count == (split ? 4u : 1u));
    harness_execute_and_wait(device, queue, &list);
    CHECK_NO_LOG();
    harness_release_list(&list);
    ID3D12Resource_Release(a);
    ID3D12Resource_Release(b);
    ID3D12CommandQueue_Release(queue);
}

int main(void)
{
    ID3D12Device *device;

    harness_init();
    device = harness_create_device();
    test_memory_waits(device);
    test_record(device, false);
    test_record(device, true);
    harness_release_device(device);
    test_memory_wait_hang();
    return harness_finish();
}
