/* GPU virtual addresses through the device's page table (memory/va_map.c, issue 16): root
 * descriptors into the middle of a placed resource and into graphics memory, on both root
 * ABIs (the memory-based one translates addresses on the GPU); released resources' addresses
 * refused; resources created and released from 4 threads while 4 others look addresses up
 * through SetComputeRoot*View + Dispatch and CreateConstantBufferView; a memory-ABI dispatch
 * whose resource goes before it runs reaches nothing and does not fault; a root view between two
 * of the shader's elements is refused where it is a push descriptor. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define CREATORS 4
#define READERS 4
#define CREATIONS 150
#define DISPATCHES 100
#define KEEP 8

static const D3D12_ROOT_SIGNATURE_FLAGS abis[2] = {0, D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI};

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12RootSignature *signatures[2];
    ID3D12PipelineState *store[2], *add[2];
};

/* Root CBV b0 (value), root UAV u0: words 0-3 get value + thread, word 4 the UAV's size. */
static const char store_source[] =
    "cbuffer Root : register(b0) { uint value; };\n"
    "RWByteAddressBuffer output : register(u0);\n"
    "[numthreads(4, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID)\n"
    "{\n"
    "    uint size;\n"
    "    output.GetDimensions(size);\n"
    "    output.Store(id.x * 4, value + id.x);\n"
    "    if (id.x == 0)\n"
    "        output.Store(16, size);\n"
    "}\n";

/* The same arguments; each thread adds value to its word. */
static const char add_source[] =
    "cbuffer Root : register(b0) { uint value; };\n"
    "RWByteAddressBuffer output : register(u0);\n"
    "[numthreads(4, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID)\n"
    "{\n"
    "    uint old;\n"
    "    output.InterlockedAdd(id.x * 4, value, old);\n"
    "}\n";

static void env_init(struct env *env)
{
    D3D12_ROOT_PARAMETER1 parameters[2];
    ID3D10Blob *store = harness_compile(store_source, 0), *add = harness_compile(add_source, 0);

    memset(env, 0, sizeof(*env));
    env->device = harness_create_device();
    env->queue = harness_create_queue(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_CBV;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    for (int a = 0; a < 2; a++) {
        env->signatures[a] = harness_root_signature(env->device, parameters, 2, abis[a]);
        env->store[a] = store ? harness_compute_pipeline(env->device, env->signatures[a], store) : NULL;
        env->add[a] = add ? harness_compute_pipeline(env->device, env->signatures[a], add) : NULL;
    }
    if (store)
        ID3D10Blob_Release(store);
    if (add)
        ID3D10Blob_Release(add);
}

static void env_release(struct env *env)
{
    for (int a = 0; a < 2; a++) {
        if (env->store[a])
            ID3D12PipelineState_Release(env->store[a]);
        if (env->add[a])
            ID3D12PipelineState_Release(env->add[a]);
        if (env->signatures[a])
            ID3D12RootSignature_Release(env->signatures[a]);
    }
    ID3D12CommandQueue_Release(env->queue);
    harness_release_device(env->device);
}

/* An UPLOAD buffer holding value in its first word. */
static ID3D12Resource *constant_buffer(ID3D12Device *device, uint32_t value)
{
    ID3D12Resource *buffer = harness_create_buffer(device, D3D12_HEAP_TYPE_UPLOAD, 256, D3D12_RESOURCE_STATE_GENERIC_READ);
    uint32_t *mapped = NULL;
    if (buffer && SUCCEEDED(ID3D12Resource_Map(buffer, 0, NULL, (void **)&mapped))) {
        mapped[0] = value;
        ID3D12Resource_Unmap(buffer, 0, NULL);
    }
    return buffer;
}

static void record(struct env *env, struct harness_list *list, int abi, ID3D12PipelineState *pipeline, D3D12_GPU_VIRTUAL_ADDRESS cbv,
        D3D12_GPU_VIRTUAL_ADDRESS uav)
{
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list->list, env->signatures[abi]);
    ID3D12GraphicsCommandList2_SetPipelineState(list->list, pipeline);
    ID3D12GraphicsCommandList2_SetComputeRootConstantBufferView(list->list, 0, cbv);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list->list, 1, uav);
    ID3D12GraphicsCommandList2_Dispatch(list->list, 1, 1, 1);
}

/* Both ABIs went the way they should: the memory one with its root descriptors by address. */
static void check_counters(struct harness_list *list, int abi, UINT64 dispatches)
{
    D3D12XS_DISPATCH_COUNTERS counters;
    CHECK_HR(D3D12XSGetCommandListDispatchCounters((ID3D12CommandList *)list->list, &counters), S_OK);
    CHECK_MSG(abi ? counters.MemoryAbiDispatches == dispatches && counters.MemoryRootDescriptors == 2 * dispatches
                  : counters.PushConstantAbiDispatches == dispatches && counters.PushedRootDescriptors == 2 * dispatches,
            "abi %d: counters %llu/%llu dispatches, %llu/%llu root descriptors", abi, (unsigned long long)counters.PushConstantAbiDispatches,
            (unsigned long long)counters.MemoryAbiDispatches, (unsigned long long)counters.PushedRootDescriptors,
            (unsigned long long)counters.MemoryRootDescriptors);
}

/* A root UAV 1 KiB into a placed buffer 128 KiB into its heap. */
static void test_placed_middle(struct env *env)
{
    D3D12_HEAP_DESC heap_desc = {4u << 20, harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT), 0, D3D12_HEAP_FLAG_ALLOW_ONLY_BUFFERS};
    D3D12_RESOURCE_DESC desc = harness_buffer_desc(65536);
    ID3D12Heap *heap = NULL;
    ID3D12Resource *placed = NULL, *cbv = constant_buffer(env->device, 500);
    uint32_t words[1024 / 4 + 5];

    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
    CHECK_HR(ID3D12Device_CreateHeap(env->device, &heap_desc, &IID_ID3D12Heap, (void **)&heap), S_OK);
    if (!heap || !cbv)
        goto done;
    CHECK_HR(ID3D12Device_CreatePlacedResource(env->device, heap, 128 << 10, &desc, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, NULL,
            &IID_ID3D12Resource, (void **)&placed), S_OK);
    if (!placed)
        goto done;
    for (int a = 0; a < 2; a++) {
        struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        record(env, &list, a, env->store[a], ID3D12Resource_GetGPUVirtualAddress(cbv), ID3D12Resource_GetGPUVirtualAddress(placed) + 1024);
        check_counters(&list, a, 1);
        harness_execute_and_wait(env->device, env->queue, &list);
        harness_release_list(&list);
        harness_read_back(env->device, env->queue, placed, words, sizeof(words));
        for (int i = 0; i < 4; i++)
            CHECK_MSG(words[256 + i] == 500u + i, "abi %d: placed word %d is %u", a, i, words[256 + i]);
        /* a placed resource resolves through its heap: the reach is to the end of the heap */
        CHECK_MSG(words[256 + 4] == (4u << 20) - (128u << 10) - 1024, "abi %d: GetDimensions gave %u", a, words[256 + 4]);
        CHECK_MSG(words[0] == 0, "abi %d: word 0 of the resource is %u", a, words[0]);
    }

done:
    if (placed)
        ID3D12Resource_Release(placed);
    if (heap)
        ID3D12Heap_Release(heap);
    if (cbv)
        ID3D12Resource_Release(cbv);
}

/* Graphics memory's pointers as root CBV and UAV. */
static void test_graphics_memory(struct env *env)
{
    uint32_t *memory = NULL;
    CHECK_HR(D3D12XSAllocateGraphicsMemory(env->device, 65536, FALSE, (void **)&memory), S_OK);
    if (!memory)
        return;
    for (int a = 0; a < 2; a++) {
        struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        memset(memory, 0, 65536);
        memory[0] = 70 + a;
        record(env, &list, a, env->store[a], (uintptr_t)memory, (uintptr_t)memory + 4096 + 4 * 16);
        check_counters(&list, a, 1);
        harness_execute_and_wait(env->device, env->queue, &list);
        harness_release_list(&list);
        for (int i = 0; i < 4; i++)
            CHECK_MSG(memory[1024 + 16 + i] == 70u + a + i, "abi %d: graphics memory word %d is %u", a, i, memory[1024 + 16 + i]);
        CHECK_MSG(memory[1024 + 16 + 4] == 65536 - 4096 - 64, "abi %d: GetDimensions gave %u", a, memory[1024 + 16 + 4]);
    }
    CHECK(D3D12XSFreeGraphicsMemory(memory));
}

/* A released resource's address names nothing, for views and root arguments alike; nor does
 * one spanning past the end of a live buffer. */
static void test_released_refused(struct env *env)
{
    D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    ID3D12Resource *buffer = constant_buffer(env->device, 1), *live = constant_buffer(env->device, 2);
    D3D12_GPU_VIRTUAL_ADDRESS address = ID3D12Resource_GetGPUVirtualAddress(buffer);
    D3D12_CONSTANT_BUFFER_VIEW_DESC cbv = {address, 256};
    ID3D12DescriptorHeap *heap = NULL;

    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&heap), S_OK);
    if (!heap)
        return;
    {
        LOG_MARK();
        ID3D12Device_CreateConstantBufferView(env->device, &cbv, ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap));
        CHECK_NO_LOG();
    }
    ID3D12Resource_Release(buffer);
    {
        LOG_MARK();
        ID3D12Device_CreateConstantBufferView(env->device, &cbv, ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap));
        CHECK_LOG("CreateConstantBufferView", "BufferLocation", "not inside one live buffer");
        cbv.BufferLocation = ID3D12Resource_GetGPUVirtualAddress(live);
        cbv.SizeInBytes = 512; /* past its end, into the guard gap */
        RELOG_MARK();
        ID3D12Device_CreateConstantBufferView(env->device, &cbv, ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap));
        CHECK_LOG("CreateConstantBufferView", "BufferLocation", "not inside one live buffer");
    }
    for (int a = 0; a < 2; a++) {
        struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        LOG_MARK();
        record(env, &list, a, env->store[a], ID3D12Resource_GetGPUVirtualAddress(live), address);
        CHECK_LOG("Dispatch", "root parameter 1", "not an address in a live buffer");
        RELOG_MARK();
        CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
        CHECK_LOG("Close", "Dispatch");
        harness_release_list(&list);
    }
    ID3D12DescriptorHeap_Release(heap);
    ID3D12Resource_Release(live);
}

/* A root UAV of 12-byte structures 4 bytes into its buffer: between two elements, so no
 * aligned descriptor start lies a whole number of elements before it (16-byte storage-buffer
 * alignment): refused with one line at Dispatch on the push-descriptor ABI. The memory-based ABI
 * reaches it by address and needs no such start. */
static void test_root_view_between_elements(struct env *env)
{
    static const char source[] =
        "cbuffer Root : register(b0) { uint value; };\n"
        "struct E { uint a, b, c; };\n"
        "RWStructuredBuffer<E> output : register(u0);\n"
        "[numthreads(1, 1, 1)]\n"
        "void main() { E e; e.a = value; e.b = 2; e.c = 3; output[0] = e; }\n";
    ID3D10Blob *code = harness_compile(source, 0);
    ID3D12Resource *value = constant_buffer(env->device, 7);
    ID3D12Resource *buffer = harness_create_buffer(env->device, D3D12_HEAP_TYPE_DEFAULT, 256, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);

    for (int a = 0; code && value && buffer && a < 2; a++) {
        ID3D12PipelineState *pipeline = harness_compute_pipeline(env->device, env->signatures[a], code);
        struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        D3D12_GPU_VIRTUAL_ADDRESS at = ID3D12Resource_GetGPUVirtualAddress(buffer);
        if (!pipeline)
            break;
        LOG_MARK();
        record(env, &list, a, pipeline, ID3D12Resource_GetGPUVirtualAddress(value), at + 4);
        if (a) {
            CHECK_NO_LOG();
            CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), S_OK);
        } else {
            CHECK_LOG("Dispatch", "root parameter 1", "4 bytes into its buffer", "whole number of the shader's elements");
            RELOG_MARK();
            CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
            CHECK_LOG("Close", "Dispatch");
        }
        /* 12 bytes in is a whole element from the buffer's start: it runs on both ABIs */
        harness_release_list(&list);
        list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        RELOG_MARK();
        record(env, &list, a, pipeline, ID3D12Resource_GetGPUVirtualAddress(value), at + 12);
        CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), S_OK);
        CHECK_NO_LOG();
        harness_release_list(&list);
        ID3D12PipelineState_Release(pipeline);
    }
    if (code)
        ID3D10Blob_Release(code);
    if (value)
        ID3D12Resource_Release(value);
    if (buffer)
        ID3D12Resource_Release(buffer);
}

/* ---- creators and readers at once ---- */

struct creator {
    struct env *env;
    int index;
    D3D12_GPU_VIRTUAL_ADDRESS addresses[CREATIONS];
    size_t address_count;
};

static void *creator_main(void *context)
{
    struct creator *c = context;
    ID3D12Device *device = c->env->device;
    ID3D12Resource *kept[KEEP] = {NULL};
    ID3D12Heap *heap = NULL;
    void *memory = NULL;

    for (int i = 0; i < CREATIONS; i++) {
        ID3D12Resource **slot = &kept[i % KEEP];
        if (*slot)
            ID3D12Resource_Release(*slot);
        *slot = harness_create_buffer(device, i & 1 ? D3D12_HEAP_TYPE_UPLOAD : D3D12_HEAP_TYPE_DEFAULT, 256 + (uint64_t)(i * 4099 % 300000),
                i & 1 ? D3D12_RESOURCE_STATE_GENERIC_READ : D3D12_RESOURCE_STATE_COMMON);
        if (*slot)
            c->addresses[c->address_count++] = ID3D12Resource_GetGPUVirtualAddress(*slot);
        if (i % 16 == c->index) {
            /* a heap and a block of graphics memory come and go too */
            D3D12_HEAP_DESC desc = {1u << 20, harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT), 0, D3D12_HEAP_FLAG_ALLOW_ONLY_BUFFERS};
            if (heap)
                ID3D12Heap_Release(heap);
            heap = NULL;
            CHECK_HR(ID3D12Device_CreateHeap(device, &desc, &IID_ID3D12Heap, (void **)&heap), S_OK);
            if (memory)
                CHECK(D3D12XSFreeGraphicsMemory(memory));
            memory = NULL;
            CHECK_HR(D3D12XSAllocateGraphicsMemory(device, 65536, FALSE, &memory), S_OK);
        }
    }
    for (int i = 0; i < KEEP; i++)
        if (kept[i])
            ID3D12Resource_Release(kept[i]);
    if (heap)
        ID3D12Heap_Release(heap);
    if (memory)
        CHECK(D3D12XSFreeGraphicsMemory(memory));
    return NULL;
}

struct reader {
    struct env *env;
    int abi;
    ID3D12Resource *output, *cbvs[2];
    ID3D12DescriptorHeap *heap;
    struct harness_list list;
};

static void *reader_main(void *context)
{
    struct reader *r = context;
    D3D12_GPU_VIRTUAL_ADDRESS output = ID3D12Resource_GetGPUVirtualAddress(r->output);
    D3D12_CPU_DESCRIPTOR_HANDLE at = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(r->heap);

    for (int i = 0; i < DISPATCHES; i++) {
        D3D12_CONSTANT_BUFFER_VIEW_DESC cbv = {ID3D12Resource_GetGPUVirtualAddress(r->cbvs[i & 1]), 256};
        /* two outputs a page apart: the addresses change every dispatch */
        record(r->env, &r->list, r->abi, r->env->add[r->abi], cbv.BufferLocation, output + (i & 1) * 65536);
        ID3D12Device_CreateConstantBufferView(r->env->device, &cbv, at);
    }
    return NULL;
}

static void test_threads(struct env *env)
{
    D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    struct creator *creators = calloc(CREATORS, sizeof(*creators));
    struct reader readers[READERS];
    pthread_t threads[CREATORS + READERS];
    D3D12_GPU_VIRTUAL_ADDRESS *all;
    size_t count = 0;
    LOG_MARK();

    memset(readers, 0, sizeof(readers));
    for (int i = 0; i < READERS; i++) {
        struct reader *r = &readers[i];
        r->env = env;
        r->abi = i & 1;
        r->output = harness_uav_buffer(env->device, 65536 + 16);
        r->cbvs[0] = constant_buffer(env->device, 1);
        r->cbvs[1] = constant_buffer(env->device, 1000);
        CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&r->heap), S_OK);
        r->list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    }
    for (int i = 0; i < CREATORS; i++) {
        creators[i].env = env;
        creators[i].index = i;
        pthread_create(&threads[i], NULL, creator_main, &creators[i]);
    }
    for (int i = 0; i < READERS; i++)
        pthread_create(&threads[CREATORS + i], NULL, reader_main, &readers[i]);
    for (int i = 0; i < CREATORS + READERS; i++)
        pthread_join(threads[i], NULL);
    CHECK_NO_LOG();

    for (int i = 0; i < READERS; i++) {
        struct reader *r = &readers[i];
        uint32_t words[65536 / 4 + 4];
        check_counters(&r->list, r->abi, DISPATCHES);
        harness_execute_and_wait(env->device, env->queue, &r->list);
        harness_read_back(env->device, env->queue, r->output, words, sizeof(words));
        /* even dispatches add 1 to the first output, odd ones 1000 to the second */
        for (int k = 0; k < 4; k++) {
            CHECK_MSG(words[k] == DISPATCHES / 2, "reader %d (abi %d): first output word %d is %u", i, r->abi, k, words[k]);
            CHECK_MSG(words[16384 + k] == DISPATCHES / 2 * 1000, "reader %d (abi %d): second output word %d is %u", i, r->abi, k,
                    words[16384 + k]);
        }
        harness_release_list(&r->list);
        ID3D12DescriptorHeap_Release(r->heap);
        ID3D12Resource_Release(r->cbvs[0]);
        ID3D12Resource_Release(r->cbvs[1]);
        ID3D12Resource_Release(r->output);
    }

    /* Addresses are never reused, whichever thread got them. */
    all = calloc(CREATORS * CREATIONS, sizeof(*all));
    for (int i = 0; i < CREATORS; i++) {
        CHECK_MSG(creators[i].address_count == CREATIONS, "creator %d made %zu resources", i, creators[i].address_count);
        memcpy(all + count, creators[i].addresses, creators[i].address_count * sizeof(*all));
        count += creators[i].address_count;
    }
    for (size_t i = 0; i < count; i++)
        for (size_t j = i + 1; j < count; j++)
            if (all[i] == all[j])
                CHECK_MSG(false, "address 0x%llx was given twice", (unsigned long long)all[i]);
    free(all);
    free(creators);
}

/* Memory ABI: the UAV's resource goes after the dispatch is recorded and before it runs (an
 * application error in D3D12): the GPU finds no range there and the write goes to the table's
 * scratch area; nothing faults, and the next dispatch still works. */
static void test_released_before_execution(struct env *env)
{
    ID3D12Resource *cbv = constant_buffer(env->device, 9), *gone = harness_uav_buffer(env->device, 256);
    ID3D12Resource *output = harness_uav_buffer(env->device, 256);
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    uint32_t words[5];

    record(env, &list, 1, env->store[1], ID3D12Resource_GetGPUVirtualAddress(cbv), ID3D12Resource_GetGPUVirtualAddress(gone));
    record(env, &list, 1, env->store[1], ID3D12Resource_GetGPUVirtualAddress(cbv), ID3D12Resource_GetGPUVirtualAddress(output));
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), S_OK);
    ID3D12Resource_Release(gone);
    ID3D12CommandQueue_ExecuteCommandLists(env->queue, 1, (ID3D12CommandList **)&list.list);
    {
        ID3D12Fence *fence = harness_create_fence(env->device, 0);
        CHECK_HR(ID3D12CommandQueue_Signal(env->queue, fence, 1), S_OK);
        CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 1, NULL), S_OK);
        ID3D12Fence_Release(fence);
    }
    harness_release_list(&list);
    harness_read_back(env->device, env->queue, output, words, sizeof(words));
    for (int i = 0; i < 4; i++)
        CHECK_MSG(words[i] == 9u + i, "word %d is %u", i, words[i]);
    CHECK_MSG(words[4] == 256, "GetDimensions gave %u", words[4]);
    ID3D12Resource_Release(output);
    ID3D12Resource_Release(cbv);
}

int main(void)
{
    struct env env;
    harness_init();
    env_init(&env);
    if (env.store[0] && env.store[1] && env.add[0] && env.add[1]) {
        test_placed_middle(&env);
        test_graphics_memory(&env);
        test_released_refused(&env);
        test_root_view_between_elements(&env);
        test_threads(&env);
        test_released_before_execution(&env);
    }
    env_release(&env);
    return harness_finish();
}
