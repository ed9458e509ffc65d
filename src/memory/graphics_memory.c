/* Graphics memory from the CPU, owned by the process as on the console: anonymous memory
 * mapped in the process, then imported into every live device with
 * VK_EXT_external_memory_host, so that its CPU pointer is also its GPU virtual address on each
 * (console code casts one to the other). A block exists before any device, outlives every
 * device, and is imported into a device created later when that device registers.
 *
 * A block is unmapped when its last reference goes: the application's (dropped by
 * D3D12XSFreeGraphicsMemory) and one per import (dropped when the import is destroyed, which
 * retirement may do later, on another thread). Import destruction therefore takes no lock of
 * this file: the count is atomic.
 *
 * Lock order: graphics_lock, then a device's VA-map lock, or graphics_lock, then the
 * scheduler's locks (d3d12_scheduler_retire). Nothing here blocks on the GPU while holding it,
 * and nothing the scheduler calls takes it. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "memory/graphics_memory.h"
#include "memory/resource.h"
#include "memory/va_map.h"
#include "sync/scheduler.h"

#define GRAPHICS_ALIGNMENT 0x10000ull

struct graphics_block {
    void *host;
    uint64_t size;
    bool gpu_read_only;
    atomic_uint references; /* the application's until it frees the block, plus one per import */
};

/* A block as one device sees it: a buffer over the imported host memory. */
struct block_import {
    struct graphics_block *block;
    VkBuffer buffer;
    VkDeviceMemory memory;
};

struct device_imports {
    struct d3d12_device *device;
    bool can_import; /* has VK_EXT_external_memory_host */
    struct block_import **imports;
    size_t import_count, import_capacity;
};

static pthread_mutex_t graphics_lock = PTHREAD_MUTEX_INITIALIZER;
static struct graphics_block **blocks; /* blocks the application has not freed */
static size_t block_count, block_capacity;
static struct device_imports *devices; /* live devices */
static size_t device_count, device_capacity;
static atomic_bool told_no_host_memory;

static void release_block(struct graphics_block *block)
{
    if (atomic_fetch_sub(&block->references, 1) == 1) {
        munmap(block->host, block->size);
        free(block);
    }
}

/* Anonymous memory starting on 64 KiB (zeroed, as mmap gives it), with one reference. */
static struct graphics_block *map_block(uint64_t size, bool gpu_read_only)
{
    struct graphics_block *block = calloc(1, sizeof(*block));
    if (!block)
        return NULL;
    block->size = (size + GRAPHICS_ALIGNMENT - 1) & ~(GRAPHICS_ALIGNMENT - 1);
    block->gpu_read_only = gpu_read_only;
    atomic_init(&block->references, 1);
    /* Over-allocate so the block can start on 64 KiB, then give the ends back. */
    char *raw = mmap(NULL, block->size + GRAPHICS_ALIGNMENT, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) {
        free(block);
        return NULL;
    }
    char *aligned = (char *)(((uintptr_t)raw + GRAPHICS_ALIGNMENT - 1) & ~(uintptr_t)(GRAPHICS_ALIGNMENT - 1));
    if (aligned > raw)
        munmap(raw, (size_t)(aligned - raw));
    if (aligned + block->size < raw + block->size + GRAPHICS_ALIGNMENT)
        munmap(aligned + block->size, (size_t)(raw + block->size + GRAPHICS_ALIGNMENT - (aligned + block->size)));
    block->host = aligned;
    return block;
}

/* A d3d12_retire_fn: the device's GPU no longer uses the import. */
static void destroy_import(struct d3d12_device *device, void *object)
{
    struct block_import *import = object;
    vkDestroyBuffer(device->vk_device, import->buffer, NULL);
    vkFreeMemory(device->vk_device, import->memory, NULL);
    release_block(import->block);
    free(import);
}

/* The import's addresses stop resolving now; it goes once the device's enqueued work is done. */
static void retire_import(struct d3d12_device *device, struct block_import *import)
{
    d3d12xs_va_free(device, (uintptr_t)import->block->host);
    d3d12_scheduler_retire(device, destroy_import, import);
}

/* For an import no work can have used yet (undoing a failed allocation or registration). */
static void undo_import(struct d3d12_device *device, struct block_import *import)
{
    d3d12xs_va_free(device, (uintptr_t)import->block->host);
    destroy_import(device, import);
}

static HRESULT import_vk_memory(struct d3d12_device *device, struct block_import *import, const char *method)
{
    uint32_t memory_type;
    return d3d12xs_import_host_memory(device, import->block->host, import->block->size, &import->buffer, &import->memory,
            &memory_type, method);
}

/* Imports block into entry's device and registers its addresses there. */
static HRESULT import_block_locked(struct device_imports *entry, struct graphics_block *block, const char *method)
{
    struct d3d12_device *device = entry->device;
    struct block_import *import;
    HRESULT hr;

    if (!d3d12xs_array_reserve((void **)&entry->imports, &entry->import_capacity, entry->import_count + 1, sizeof(*entry->imports))
            || !(import = calloc(1, sizeof(*import))))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "out of memory");
    import->block = block;
    atomic_fetch_add(&block->references, 1);
    if (FAILED(hr = import_vk_memory(device, import, method))) {
        destroy_import(device, import);
        return hr;
    }
    if (!d3d12xs_va_register_host(device, block->host, block->size, import->buffer, block->gpu_read_only)) {
        destroy_import(device, import);
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot register the memory's addresses on %s", device->vk_properties.deviceName);
    }
    entry->imports[entry->import_count++] = import;
    return S_OK;
}

/* Takes block's import out of entry: NULL when the device has none. */
static struct block_import *take_import_locked(struct device_imports *entry, const struct graphics_block *block)
{
    for (size_t i = 0; i < entry->import_count; i++) {
        struct block_import *import = entry->imports[i];
        if (import->block == block) {
            entry->imports[i] = entry->imports[--entry->import_count];
            return import;
        }
    }
    return NULL;
}

static void free_empty_lists_locked(void)
{
    if (!block_count)
        free(blocks), blocks = NULL, block_capacity = 0;
    if (!device_count)
        free(devices), devices = NULL, device_capacity = 0;
}

HRESULT d3d12xs_graphics_memory_add_device(struct d3d12_device *device)
{
    static const char method[] = "D3D12CreateDevice";
    struct device_imports entry = {.device = device, .can_import = device->vkGetMemoryHostPointerPropertiesEXT != NULL};
    HRESULT hr = S_OK;

    if (!entry.can_import && !atomic_exchange(&told_no_host_memory, true))
        WARN("device %s lacks VK_EXT_external_memory_host: graphics memory (XMemVirtualAlloc, XMemAlloc, "
                "D3D12XSAllocateGraphicsMemory) has no GPU address on it (said once)", device->vk_properties.deviceName);
    pthread_mutex_lock(&graphics_lock);
    if (!d3d12xs_array_reserve((void **)&devices, &device_capacity, device_count + 1, sizeof(*devices)))
        hr = d3d12xs_fail(E_OUTOFMEMORY, method, "out of memory");
    for (size_t i = 0; SUCCEEDED(hr) && entry.can_import && i < block_count; i++)
        hr = import_block_locked(&entry, blocks[i], method);
    if (SUCCEEDED(hr)) {
        devices[device_count++] = entry;
    } else {
        while (entry.import_count)
            undo_import(device, entry.imports[--entry.import_count]);
        free(entry.imports);
        free_empty_lists_locked();
    }
    pthread_mutex_unlock(&graphics_lock);
    return hr;
}

void d3d12xs_graphics_memory_remove_device(struct d3d12_device *device)
{
    pthread_mutex_lock(&graphics_lock);
    for (size_t i = 0; i < device_count; i++) {
        struct device_imports entry = devices[i];
        if (entry.device != device)
            continue;
        devices[i] = devices[--device_count];
        /* Only the device's view goes: the blocks stay mapped for the process and other devices. */
        for (size_t j = 0; j < entry.import_count; j++)
            retire_import(device, entry.imports[j]);
        free(entry.imports);
        break;
    }
    free_empty_lists_locked();
    pthread_mutex_unlock(&graphics_lock);
}

HRESULT D3D12XSAllocateGraphicsMemory(ID3D12Device *device_iface, SIZE_T size, BOOL gpu_read_only, void **address)
{
    static const char method[] = "D3D12XSAllocateGraphicsMemory";
    struct graphics_block *block;
    size_t imported = 0;
    HRESULT hr = S_OK;

    if (!address)
        return d3d12xs_fail(E_POINTER, method, "Address is NULL (must receive the memory)");
    *address = NULL;
    if (!size)
        return d3d12xs_fail(E_INVALIDARG, method, "Size is 0");
    if (size > (SIZE_T)1 << 40)
        return d3d12xs_fail(E_OUTOFMEMORY, method, "Size %zu is more than 1 TiB", (size_t)size);
    if (!(block = map_block(size, gpu_read_only)))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot map %zu bytes", (size_t)size);

    pthread_mutex_lock(&graphics_lock);
    if (device_iface) {
        /* Compared, not dereferenced: a released device's pointer matches no live device. */
        const struct device_imports *named = NULL;
        for (size_t i = 0; i < device_count && !named; i++)
            if (&devices[i].device->ID3D12Device_iface == device_iface)
                named = &devices[i];
        if (!named)
            hr = d3d12xs_fail(E_INVALIDARG, method, "device %p is not a live d3d12xs device (pass one, or NULL for every device)",
                    (void *)device_iface);
        else if (!named->can_import)
            hr = d3d12xs_fail(E_NOTIMPL, method, "%s lacks VK_EXT_external_memory_host", named->device->vk_properties.deviceName);
    }
    /* Whatever device is named, the memory is the process's: every live device imports it. */
    for (; SUCCEEDED(hr) && imported < device_count; imported++)
        if (devices[imported].can_import)
            hr = import_block_locked(&devices[imported], block, method);
    if (SUCCEEDED(hr) && !d3d12xs_array_reserve((void **)&blocks, &block_capacity, block_count + 1, sizeof(*blocks)))
        hr = d3d12xs_fail(E_OUTOFMEMORY, method, "out of memory");
    if (SUCCEEDED(hr)) {
        blocks[block_count++] = block;
        *address = block->host;
    } else {
        for (size_t i = 0; i < imported; i++) {
            struct block_import *import = take_import_locked(&devices[i], block);
            if (import)
                undo_import(devices[i].device, import);
        }
        release_block(block);
    }
    pthread_mutex_unlock(&graphics_lock);
    return hr;
}

BOOL D3D12XSFreeGraphicsMemory(void *address)
{
    struct graphics_block *block = NULL;

    pthread_mutex_lock(&graphics_lock);
    for (size_t i = 0; i < block_count; i++) {
        if (blocks[i]->host == address) {
            block = blocks[i];
            blocks[i] = blocks[--block_count];
            break;
        }
    }
    if (!block) {
        pthread_mutex_unlock(&graphics_lock);
        ERR("VirtualFree: %p is not graphics memory from XMemVirtualAlloc / D3D12XSAllocateGraphicsMemory (or was freed already)", address);
        return FALSE;
    }
    /* Its addresses stop resolving on every device now; the memory goes once no device's
     * enqueued work can still use it (at once when no device has it). */
    for (size_t i = 0; i < device_count; i++) {
        struct block_import *import = take_import_locked(&devices[i], block);
        if (import)
            retire_import(devices[i].device, import);
    }
    release_block(block);
    free_empty_lists_locked();
    pthread_mutex_unlock(&graphics_lock);
    return TRUE;
}
