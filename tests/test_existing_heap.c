/* ID3D12Device3::OpenExistingHeapFromAddress and ID3D12Device13::OpenExistingHeapFromAddress1: a
 * heap over memory the application mapped. Buffers placed in it are read by the GPU from what the
 * CPU wrote there, and what the GPU writes shows in that memory; the heap's description says
 * CUSTOM / WRITE_BACK / L0; CheckFeatureSupport(EXISTING_HEAPS) agrees; bad arguments are refused
 * with one line each, and releasing the heap leaves the memory to the application. */
#include <string.h>
#include <sys/mman.h>

#include "harness.h"

#define HEAP_SIZE (1u << 20)
#define WORDS 4096u

static ID3D12Resource *placed_buffer(ID3D12Device *device, ID3D12Heap *heap, UINT64 offset, UINT64 size)
{
    D3D12_RESOURCE_DESC desc = harness_buffer_desc(size);
    ID3D12Resource *resource = NULL;
    CHECK_HR(ID3D12Device_CreatePlacedResource(device, heap, offset, &desc, D3D12_RESOURCE_STATE_COMMON, NULL, &IID_ID3D12Resource,
            (void **)&resource), S_OK);
    return resource;
}

static void test_gpu_reads_and_writes(ID3D12Device *device, ID3D12Device13 *device13, ID3D12CommandQueue *queue, uint32_t *memory,
        bool sized)
{
    ID3D12Heap *heap = NULL;
    ID3D12Resource *source, *target, *other;
    struct harness_list list;
    uint32_t data[WORDS];
    bool ok = true;
    LOG_MARK();

    for (uint32_t i = 0; i < WORDS; i++)
        memory[i] = i * 7 + (sized ? 1 : 0);
    if (sized)
        CHECK_HR(ID3D12Device13_OpenExistingHeapFromAddress1(device13, memory, HEAP_SIZE, &IID_ID3D12Heap, (void **)&heap), S_OK);
    else
        CHECK_HR(ID3D12Device3_OpenExistingHeapFromAddress((ID3D12Device3 *)device13, memory, &IID_ID3D12Heap, (void **)&heap), S_OK);
    CHECK_NO_LOG();
    if (!heap)
        return;
    {
        D3D12_HEAP_DESC desc = ID3D12Heap_GetDesc(heap);
        /* sized: exactly that; from the mapping: all of it from the address on (at least the mmap) */
        CHECK_MSG(sized ? desc.SizeInBytes == HEAP_SIZE : desc.SizeInBytes >= HEAP_SIZE, "SizeInBytes %llu",
                (unsigned long long)desc.SizeInBytes);
        CHECK(desc.Properties.Type == D3D12_HEAP_TYPE_CUSTOM);
        CHECK(desc.Properties.CPUPageProperty == D3D12_CPU_PAGE_PROPERTY_WRITE_BACK);
        CHECK(desc.Properties.MemoryPoolPreference == D3D12_MEMORY_POOL_L0);
        CHECK(desc.Alignment == D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT);
    }
    /* the GPU reads what the CPU wrote at offset 0 and writes a copy at offset 64 KiB */
    source = placed_buffer(device, heap, 0, WORDS * 4);
    target = placed_buffer(device, heap, 65536, WORDS * 4);
    other = harness_uav_buffer(device, WORDS * 4);
    list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    if (source && target && other) {
        ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, other, 0, source, 0, WORDS * 4);
        ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, target, 0, source, 0, WORDS * 4);
        harness_execute_and_wait(device, queue, &list);
        harness_read_back(device, queue, other, data, sizeof(data));
        for (uint32_t i = 0; i < WORDS && ok; i++)
            ok = data[i] == i * 7 + (sized ? 1 : 0) && memory[65536 / 4 + i] == data[i];
        CHECK_MSG(ok, "the GPU's copies of the application's memory differ");
        /* a placed resource maps to the application's own pages */
        void *mapped = NULL;
        CHECK_HR(ID3D12Resource_Map(target, 0, NULL, &mapped), S_OK);
        CHECK(mapped == (void *)(memory + 65536 / 4));
        ID3D12Resource_Unmap(target, 0, NULL);
    }
    harness_release_list(&list);
    if (source)
        ID3D12Resource_Release(source);
    if (target)
        ID3D12Resource_Release(target);
    if (other)
        ID3D12Resource_Release(other);
    ID3D12Heap_Release(heap);
    CHECK_NO_LOG();
}

static void test_bad_arguments(ID3D12Device13 *device13, uint32_t *memory)
{
    ID3D12Heap *heap = (ID3D12Heap *)(uintptr_t)1;
    LOG_MARK();

    CHECK_HR(ID3D12Device3_OpenExistingHeapFromAddress((ID3D12Device3 *)device13, NULL, &IID_ID3D12Heap, (void **)&heap), E_INVALIDARG);
    CHECK(heap == NULL);
    CHECK_LOG("OpenExistingHeapFromAddress", "pAddress is NULL");
    RELOG_MARK();
    heap = (ID3D12Heap *)(uintptr_t)1;
    CHECK_HR(ID3D12Device3_OpenExistingHeapFromAddress((ID3D12Device3 *)device13, (char *)memory + 4, &IID_ID3D12Heap, (void **)&heap),
            E_INVALIDARG);
    CHECK(heap == NULL);
    CHECK_LOG("OpenExistingHeapFromAddress", "pAddress", "multiple");
    RELOG_MARK();
    CHECK_HR(ID3D12Device3_OpenExistingHeapFromAddress((ID3D12Device3 *)device13, memory, NULL, (void **)&heap), E_INVALIDARG);
    CHECK_LOG("OpenExistingHeapFromAddress", "riid");
    RELOG_MARK();
    CHECK_HR(ID3D12Device3_OpenExistingHeapFromAddress((ID3D12Device3 *)device13, memory, &IID_ID3D12Heap, NULL), E_POINTER);
    CHECK_LOG("OpenExistingHeapFromAddress", "ppvHeap");
    RELOG_MARK();
    CHECK_HR(ID3D12Device13_OpenExistingHeapFromAddress1(device13, memory, 0, &IID_ID3D12Heap, (void **)&heap), E_INVALIDARG);
    CHECK_LOG("OpenExistingHeapFromAddress1", "size is 0");
    RELOG_MARK();
    CHECK_HR(ID3D12Device13_OpenExistingHeapFromAddress1(device13, memory, 4096 + 4, &IID_ID3D12Heap, (void **)&heap), E_INVALIDARG);
    CHECK_LOG("OpenExistingHeapFromAddress1", "size", "multiple");
    RELOG_MARK();
    /* more than is mapped there */
    CHECK_HR(ID3D12Device13_OpenExistingHeapFromAddress1(device13, memory, (SIZE_T)HEAP_SIZE * 1024 * 1024, &IID_ID3D12Heap, (void **)&heap),
            E_INVALIDARG);
    CHECK_LOG("OpenExistingHeapFromAddress1", "runs past");
    RELOG_MARK();
    /* the first page of the address space is never mapped */
    CHECK_HR(ID3D12Device3_OpenExistingHeapFromAddress((ID3D12Device3 *)device13, (void *)(uintptr_t)4096, &IID_ID3D12Heap, (void **)&heap),
            E_INVALIDARG);
    CHECK_LOG("OpenExistingHeapFromAddress", "not in memory this process has mapped");
}

int main(void)
{
    D3D12_FEATURE_DATA_EXISTING_HEAPS existing = {FALSE};
    ID3D12Device13 *device13 = NULL;
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    uint32_t *memory;

    harness_init();
    device = harness_create_device();
    queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    CHECK_HR(ID3D12Device_QueryInterface(device, &IID_ID3D12Device13, (void **)&device13), S_OK);
    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_EXISTING_HEAPS, &existing, sizeof(existing)), S_OK);
    /* lavapipe and the H200 both have VK_EXT_external_memory_host */
    CHECK(existing.Supported);
    memory = mmap(NULL, HEAP_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(memory != MAP_FAILED);
    if (device13 && existing.Supported && memory != MAP_FAILED) {
        test_gpu_reads_and_writes(device, device13, queue, memory, false);
        test_gpu_reads_and_writes(device, device13, queue, memory, true);
        test_bad_arguments(device13, memory);
        /* the heaps are gone; the memory is still the application's to use */
        memory[0] = 42;
        CHECK(memory[0] == 42);
    }
    if (memory != MAP_FAILED)
        munmap(memory, HEAP_SIZE);
    if (device13)
        ID3D12Device13_Release(device13);
    ID3D12CommandQueue_Release(queue);
    harness_release_device(device);
    return harness_finish();
}
