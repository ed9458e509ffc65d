/* Graphics memory belongs to the process, as on the console: XMemVirtualAlloc / XMemAlloc /
 * D3D12XSAllocateGraphicsMemory work before any device exists and with several devices; the
 * memory keeps its contents and stays usable when a device is released; every device,
 * including one created later, reaches it at its CPU pointer as GPU address. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <d3dcompiler.h>
#include <d3d12xs.h>

#include "harness.h"

#define BLOCK_SIZE (64 * 1024)
#define COPY_WORDS 4

static D3D12_GPU_VIRTUAL_ADDRESS gpu_address(const void *pointer)
{
    return (D3D12_GPU_VIRTUAL_ADDRESS)(uintptr_t)pointer;
}

/* What one device needs to have its GPU read and write graphics memory. */
struct gpu {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12RootSignature *signature;
    ID3D12PipelineState *copy;
};

/* Root SRV t0 and root UAV u0: destination[i] = source[i] + 1, for COPY_WORDS words. */
static struct gpu gpu_create(ID3D12Device *device)
{
    static const char source[] =
        "ByteAddressBuffer source : register(t0);\n"
        "RWByteAddressBuffer destination : register(u0);\n"
        "[numthreads(1, 1, 1)]\n"
        "void main()\n"
        "{\n"
        "    for (uint i = 0; i < 4; i++)\n"
        "        destination.Store(i * 4, source.Load(i * 4) + 1);\n"
        "}\n";
    struct gpu gpu = {.device = device};
    D3D12_ROOT_PARAMETER1 parameters[2];
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc;
    ID3DBlob *blob = NULL, *code = NULL, *errors = NULL;
    HRESULT hr;

    gpu.queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    memset(&desc, 0, sizeof(desc));
    desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    desc.Desc_1_1.NumParameters = 2;
    desc.Desc_1_1.pParameters = parameters;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&desc, &blob, NULL), S_OK);
    if (blob) {
        CHECK_HR(ID3D12Device_CreateRootSignature(device, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
                &IID_ID3D12RootSignature, (void **)&gpu.signature), S_OK);
        ID3D10Blob_Release(blob);
    }
    hr = D3DCompile(source, strlen(source), "copy.hlsl", NULL, NULL, "main", "cs_6_0", 0, 0, &code, &errors);
    CHECK_MSG(SUCCEEDED(hr), "D3DCompile failed: %s", errors ? (const char *)ID3D10Blob_GetBufferPointer(errors) : "?");
    if (errors)
        ID3D10Blob_Release(errors);
    if (code && gpu.signature) {
        gpu.copy = harness_compute_pipeline(device, gpu.signature, code);
        ID3D10Blob_Release(code);
    }
    return gpu;
}

static void gpu_release(struct gpu *gpu)
{
    if (gpu->copy)
        CHECK(ID3D12PipelineState_Release(gpu->copy) == 0);
    if (gpu->signature)
        CHECK(ID3D12RootSignature_Release(gpu->signature) == 0);
    CHECK(ID3D12CommandQueue_Release(gpu->queue) == 0);
    harness_release_device(gpu->device);
}

/* The GPU waits for *ready == expected, copies COPY_WORDS words from source to destination
 * (each + 1) and then writes value at *written. */
static void gpu_read_and_write(struct gpu *gpu, const uint64_t *ready, uint64_t expected, const uint32_t *source, uint32_t *destination,
        uint64_t *written, uint64_t value)
{
    struct harness_list list = harness_create_list(gpu->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12GraphicsCommandList *l = (ID3D12GraphicsCommandList *)list.list;

    ID3D12GraphicsCommandList_Wait64BitValueX(l, gpu_address(ready), D3D12_COMPARISON_FUNC_EQUAL, expected, D3D12XBOX_WAIT_FLAG_NONE);
    if (gpu->copy) {
        ID3D12GraphicsCommandList_SetComputeRootSignature(l, gpu->signature);
        ID3D12GraphicsCommandList_SetPipelineState(l, gpu->copy);
        ID3D12GraphicsCommandList_SetComputeRootShaderResourceView(l, 0, gpu_address(source));
        ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(l, 1, gpu_address(destination));
        ID3D12GraphicsCommandList_Dispatch(l, 1, 1, 1);
    }
    ID3D12GraphicsCommandList_Write64BitValueBottomOfPipeX(l, gpu_address(written), value, D3D12XBOX_FLUSH_NONE,
            D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
    harness_execute_and_wait(gpu->device, gpu->queue, &list);
    harness_release_list(&list);
}

static void write_value(struct gpu *gpu, uint64_t *at, uint64_t value)
{
    struct harness_list list = harness_create_list(gpu->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12GraphicsCommandList_Write64BitValueBottomOfPipeX((ID3D12GraphicsCommandList *)list.list, gpu_address(at), value,
            D3D12XBOX_FLUSH_NONE, D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
    harness_execute_and_wait(gpu->device, gpu->queue, &list);
    harness_release_list(&list);
}

static void check_copied(const uint32_t *source, const uint32_t *destination, const char *what)
{
    for (unsigned i = 0; i < COPY_WORDS; i++)
        CHECK_MSG(destination[i] == source[i] + 1, "%s: word %u is 0x%x, expected 0x%x", what, i, destination[i], source[i] + 1);
}

static bool all_zero(const void *memory, size_t size)
{
    const unsigned char *bytes = memory;
    for (size_t i = 0; i < size; i++)
        if (bytes[i])
            return false;
    return true;
}

/* Memory from both console calls before any device: zeroed, 64 KiB aligned, written by the
 * CPU; a device made afterwards reads it (a wait and a root SRV) and writes it (a root UAV
 * and a value write); the CPU sees it all, and still after the device is gone. */
static void test_before_any_device(void)
{
    uint64_t *values = XMemVirtualAlloc(NULL, BLOCK_SIZE, MEM_RESERVE | MEM_COMMIT | MEM_64K_PAGES, XMEM_GRAPHICS,
            PAGE_READWRITE | PAGE_GRAPHICS_READWRITE);
    uint32_t *data = XMemAlloc(4096, XALLOC_MEMTYPE_GRAPHICS_WRITECOMBINE);
    LOG_MARK();

    CHECK(values && data);
    if (!values || !data)
        return;
    CHECK((uintptr_t)values % BLOCK_SIZE == 0 && (uintptr_t)data % BLOCK_SIZE == 0);
    CHECK(all_zero(values, BLOCK_SIZE) && all_zero(data, BLOCK_SIZE)); /* XMemAlloc's 4096 bytes are rounded up to 64 KiB */
    values[0] = 0x5eed;
    for (unsigned i = 0; i < COPY_WORDS; i++)
        data[i] = 0xa0000000u + i;

    struct gpu gpu = gpu_create(harness_create_device());
    gpu_read_and_write(&gpu, &values[0], 0x5eed, data, &data[1024], &values[1], 42);
    CHECK_MSG(values[1] == 42, "the value write left %llu", (unsigned long long)values[1]);
    check_copied(data, &data[1024], "copy by a device made after the memory");
    CHECK_NO_LOG();
    gpu_release(&gpu);

    /* No device now: the memory is still the process's, contents and all. */
    CHECK(values[0] == 0x5eed && values[1] == 42 && data[1024] == 0xa0000001u);
    values[2] = 7;
    data[2048] = 8;
    CHECK(values[2] == 7 && data[2048] == 8);
    CHECK(VirtualFree(values, 0, MEM_RELEASE));
    XMemFree(data, XALLOC_MEMTYPE_GRAPHICS_WRITECOMBINE);
    CHECK_NO_LOG();
}

/* Two devices at once use the same blocks, whichever device (or none) the allocation named:
 * each writes at its own offset and waits on the other's value; then one goes and the other
 * still uses the memory. */
static void test_two_devices(void)
{
    struct gpu first = gpu_create(harness_create_device());
    struct gpu second = gpu_create(harness_create_device());
    uint64_t *shared = NULL, *named = NULL;
    LOG_MARK();

    CHECK_HR(D3D12XSAllocateGraphicsMemory(NULL, BLOCK_SIZE, FALSE, (void **)&shared), S_OK);
    CHECK_HR(D3D12XSAllocateGraphicsMemory(second.device, BLOCK_SIZE, FALSE, (void **)&named), S_OK);
    if (!shared || !named)
        goto done;
    write_value(&first, &shared[0], 100);
    write_value(&second, &shared[1], 200);
    CHECK_MSG(shared[0] == 100 && shared[1] == 200, "the devices' writes left %llu and %llu", (unsigned long long)shared[0],
            (unsigned long long)shared[1]);
    /* Memory named for the second device serves the first too. */
    uint32_t *words = (uint32_t *)&named[512];
    for (unsigned i = 0; i < COPY_WORDS; i++)
        words[i] = 0xb0000000u + i;
    gpu_read_and_write(&first, &shared[1], 200, words, (uint32_t *)&named[1024], &named[0], 300);
    gpu_read_and_write(&second, &named[0], 300, (uint32_t *)&named[1024], (uint32_t *)&named[1536], &shared[2], 400);
    CHECK(named[0] == 300 && shared[2] == 400);
    check_copied(words, (uint32_t *)&named[1024], "copy by the first device");
    check_copied((uint32_t *)&named[1024], (uint32_t *)&named[1536], "copy by the second device");

    /* The first device goes; the second still reaches both blocks, and they keep their contents. */
    gpu_release(&first);
    first.device = NULL;
    CHECK(shared[0] == 100 && named[0] == 300);
    write_value(&second, &shared[3], 500);
    write_value(&second, &named[3], 600);
    CHECK(shared[3] == 500 && named[3] == 600);
    CHECK_NO_LOG();
done:
    if (first.device)
        gpu_release(&first);
    gpu_release(&second);
    CHECK(!shared || VirtualFree(shared, 0, MEM_RELEASE));
    CHECK(!named || D3D12XSFreeGraphicsMemory(named));
}

/* Memory allocated with a device outlives it: contents kept, writable by the CPU, usable by
 * a device made later; VirtualFree afterwards succeeds. A block freed while a device holds
 * work that used it goes away cleanly too. */
static void test_device_released(void)
{
    struct gpu gpu = gpu_create(harness_create_device());
    uint64_t *memory = NULL, *freed_early = NULL;
    LOG_MARK();

    CHECK_HR(D3D12XSAllocateGraphicsMemory(gpu.device, BLOCK_SIZE, FALSE, (void **)&memory), S_OK);
    CHECK_HR(D3D12XSAllocateGraphicsMemory(gpu.device, BLOCK_SIZE, FALSE, (void **)&freed_early), S_OK);
    if (!memory || !freed_early) {
        gpu_release(&gpu);
        return;
    }
    write_value(&gpu, &memory[0], 11);
    write_value(&gpu, &freed_early[0], 12);
    CHECK(freed_early[0] == 12);
    CHECK(D3D12XSFreeGraphicsMemory(freed_early));
    gpu_release(&gpu);

    CHECK_MSG(memory[0] == 11, "after the device went the memory holds %llu", (unsigned long long)memory[0]);
    uint32_t *words = (uint32_t *)&memory[256];
    for (unsigned i = 0; i < COPY_WORDS; i++)
        words[i] = 0xc0000000u + i;
    memory[1] = 13;

    struct gpu later = gpu_create(harness_create_device());
    gpu_read_and_write(&later, &memory[1], 13, words, (uint32_t *)&memory[512], &memory[2], 14);
    CHECK(memory[2] == 14);
    check_copied(words, (uint32_t *)&memory[512], "copy by a device made after the memory's device went");
    gpu_release(&later);

    CHECK(memory[0] == 11 && memory[2] == 14);
    CHECK(VirtualFree(memory, 0, MEM_RELEASE));
    CHECK_NO_LOG();
}

/* Freed twice, never allocated, a device that is not (or no longer) a live d3d12xs device:
 * refused with one log line each. */
static void test_bad_input(void)
{
    ID3D12Device *device = harness_create_device();
    void *memory = NULL, *gone_device;
    uint64_t not_graphics[4] = {0};
    LOG_MARK();

    CHECK_HR(D3D12XSAllocateGraphicsMemory(device, 100, TRUE, &memory), S_OK);
    CHECK(memory && VirtualFree(memory, 0, MEM_RELEASE));
    CHECK_NO_LOG();
    CHECK(!VirtualFree(memory, 0, MEM_RELEASE));
    CHECK_LOG("VirtualFree", "not graphics memory");
    RELOG_MARK();
    CHECK(!D3D12XSFreeGraphicsMemory(not_graphics));
    CHECK_LOG("VirtualFree", "not graphics memory");
    RELOG_MARK();
    CHECK(!D3D12XSFreeGraphicsMemory(NULL));
    CHECK_LOG("VirtualFree", "not graphics memory");
    RELOG_MARK();
    memory = &memory;
    CHECK_HR(D3D12XSAllocateGraphicsMemory((ID3D12Device *)(void *)not_graphics, 4096, FALSE, &memory), E_INVALIDARG);
    CHECK_LOG("D3D12XSAllocateGraphicsMemory", "not a live d3d12xs device");
    CHECK(memory == NULL);
    gone_device = device;
    harness_release_device(device);
    RELOG_MARK();
    CHECK_HR(D3D12XSAllocateGraphicsMemory((ID3D12Device *)gone_device, 4096, FALSE, &memory), E_INVALIDARG);
    CHECK_LOG("D3D12XSAllocateGraphicsMemory", "not a live d3d12xs device");
    CHECK(memory == NULL);
}

/* Allocation and free on other threads while devices come and go: no crash, no leak, every
 * block the CPU can still use. */
#define RACE_THREADS 2
#define RACE_DEVICES 3

static atomic_bool race_done;

static void *allocate_and_free(void *argument)
{
    unsigned *rounds = argument;
    while (!atomic_load(&race_done) || *rounds < 8) {
        uint64_t *memory = XMemVirtualAlloc(NULL, BLOCK_SIZE, MEM_COMMIT, XMEM_GRAPHICS, PAGE_READWRITE | PAGE_GRAPHICS_READWRITE);
        if (!memory)
            break;
        memory[0] = *rounds;
        if (memory[0] != *rounds || !VirtualFree(memory, 0, MEM_RELEASE))
            break;
        ++*rounds;
    }
    return NULL;
}

static void test_races(void)
{
    pthread_t threads[RACE_THREADS];
    unsigned rounds[RACE_THREADS] = {0};
    uint64_t *kept = XMemVirtualAlloc(NULL, BLOCK_SIZE, MEM_COMMIT, XMEM_GRAPHICS, PAGE_READWRITE | PAGE_GRAPHICS_READWRITE);
    LOG_MARK();

    CHECK(kept != NULL);
    atomic_store(&race_done, false);
    for (unsigned i = 0; i < RACE_THREADS; i++)
        CHECK(pthread_create(&threads[i], NULL, allocate_and_free, &rounds[i]) == 0);
    for (unsigned i = 0; i < RACE_DEVICES; i++) {
        struct gpu gpu = {.device = harness_create_device()};
        gpu.queue = harness_create_queue(gpu.device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
        if (kept)
            write_value(&gpu, &kept[i], i + 1);
        gpu_release(&gpu);
    }
    atomic_store(&race_done, true);
    for (unsigned i = 0; i < RACE_THREADS; i++) {
        pthread_join(threads[i], NULL);
        CHECK_MSG(rounds[i] >= 8, "thread %u stopped after %u rounds", i, rounds[i]);
    }
    for (unsigned i = 0; kept && i < RACE_DEVICES; i++)
        CHECK_MSG(kept[i] == i + 1, "device %u's write left %llu", i, (unsigned long long)kept[i]);
    CHECK(kept && VirtualFree(kept, 0, MEM_RELEASE));
    CHECK_NO_LOG();
}

int main(void)
{
    harness_init();
    test_before_any_device();
    test_two_devices();
    test_device_released();
    test_bad_input();
    test_races();
    return harness_finish();
}
