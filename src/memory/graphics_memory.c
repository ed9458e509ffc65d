/* Graphics memory from the CPU: anonymous memory mapped in the process and imported into the
 * device with VK_EXT_external_memory_host, so that its CPU pointer is also its GPU virtual
 * address (console code casts one to the other). Blocks are kept in one process-wide list,
 * since D3D12XSFreeGraphicsMemory, like the console's VirtualFree, names no device. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "memory/graphics_memory.h"
#include "memory/resource.h"
#include "memory/va_map.h"
#include "sync/scheduler.h"

#define GRAPHICS_ALIGNMENT 0x10000ull

struct graphics_block {
    struct d3d12_device *device;
    void *host;
    uint64_t size;
    VkBuffer buffer;
    VkDeviceMemory memory;
};

static pthread_mutex_t blocks_lock = PTHREAD_MUTEX_INITIALIZER;
static struct graphics_block **blocks;
static size_t block_count, block_capacity;
static struct d3d12_device **devices; /* live devices, oldest first: the default is the first */
static size_t device_count, device_capacity;

void d3d12xs_graphics_memory_add_device(struct d3d12_device *device)
{
    pthread_mutex_lock(&blocks_lock);
    if (d3d12xs_array_reserve((void **)&devices, &device_capacity, device_count + 1, sizeof(*devices)))
        devices[device_count++] = device;
    pthread_mutex_unlock(&blocks_lock);
}

static void destroy_block(struct d3d12_device *device, void *object)
{
    struct graphics_block *block = object;
    vkDestroyBuffer(device->vk_device, block->buffer, NULL);
    vkFreeMemory(device->vk_device, block->memory, NULL);
    munmap(block->host, block->size);
    free(block);
}

void d3d12xs_graphics_memory_remove_device(struct d3d12_device *device)
{
    size_t kept = 0;
    pthread_mutex_lock(&blocks_lock);
    for (size_t i = 0; i < device_count; i++)
        if (devices[i] != device)
            devices[kept++] = devices[i];
    device_count = kept;
    kept = 0;
    /* Blocks the application did not free go with their device (the GPU is idle by now). */
    for (size_t i = 0; i < block_count; i++) {
        if (blocks[i]->device == device)
            destroy_block(device, blocks[i]);
        else
            blocks[kept++] = blocks[i];
    }
    block_count = kept;
    if (!device_count) {
        free(devices), devices = NULL, device_capacity = 0;
        free(blocks), blocks = NULL, block_capacity = 0;
    }
    pthread_mutex_unlock(&blocks_lock);
}

static HRESULT import_block(struct d3d12_device *device, struct graphics_block *block, const char *method)
{
    VkExternalMemoryBufferCreateInfo external_info = {
        .sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
        .handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT,
    };
    VkBufferCreateInfo buffer_info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .pNext = &external_info,
        .size = block->size,
        .usage = d3d12xs_buffer_usage(device),
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    VkMemoryHostPointerPropertiesEXT pointer_properties = {.sType = VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
    VkImportMemoryHostPointerInfoEXT import_info = {
        .sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT,
        .handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT,
        .pHostPointer = block->host,
    };
    VkMemoryAllocateFlagsInfo flags;
    VkMemoryAllocateInfo allocate_info = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
            .pNext = d3d12xs_buffer_memory_chain(device, &flags, &import_info), .allocationSize = block->size};
    VkMemoryRequirements requirements;
    uint32_t types;
    VkResult vr;

    if ((vr = vkCreateBuffer(device->vk_device, &buffer_info, NULL, &block->buffer)) != VK_SUCCESS)
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "vkCreateBuffer for graphics memory failed (VkResult %d)", vr);
    vkGetBufferMemoryRequirements(device->vk_device, block->buffer, &requirements);
    if ((vr = device->vkGetMemoryHostPointerPropertiesEXT(device->vk_device, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT,
            block->host, &pointer_properties)) != VK_SUCCESS)
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "vkGetMemoryHostPointerPropertiesEXT failed (VkResult %d)", vr);
    if (!(types = pointer_properties.memoryTypeBits & requirements.memoryTypeBits))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "no memory type of this device can hold both a buffer and host memory");
    allocate_info.memoryTypeIndex = (uint32_t)__builtin_ctz(types);
    if ((vr = vkAllocateMemory(device->vk_device, &allocate_info, NULL, &block->memory)) != VK_SUCCESS)
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "importing %llu bytes of host memory failed (VkResult %d)",
                (unsigned long long)block->size, vr);
    if ((vr = vkBindBufferMemory(device->vk_device, block->buffer, block->memory, 0)) != VK_SUCCESS)
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "vkBindBufferMemory failed (VkResult %d)", vr);
    return S_OK;
}

HRESULT D3D12XSAllocateGraphicsMemory(ID3D12Device *device_iface, SIZE_T size, BOOL gpu_read_only, void **address)
{
    static const char method[] = "D3D12XSAllocateGraphicsMemory";
    struct d3d12_device *device = NULL;
    struct graphics_block *block;
    HRESULT hr;

    if (!address)
        return d3d12xs_fail(E_POINTER, method, "Address is NULL (must receive the memory)");
    *address = NULL;
    if (!size)
        return d3d12xs_fail(E_INVALIDARG, method, "Size is 0");
    if (size > (SIZE_T)1 << 40)
        return d3d12xs_fail(E_OUTOFMEMORY, method, "Size %zu is more than 1 TiB", (size_t)size);
    pthread_mutex_lock(&blocks_lock);
    if (device_iface) {
        for (size_t i = 0; i < device_count && !device; i++)
            if ((ID3D12Device *)(void *)devices[i] == device_iface)
                device = devices[i];
    } else if (device_count) {
        device = devices[0];
    }
    pthread_mutex_unlock(&blocks_lock);
    if (!device)
        return d3d12xs_fail(E_INVALIDARG, method, "%s", device_iface ? "device is not a live d3d12xs device"
                : "no d3d12xs device exists yet (create one before graphics memory)");
    if (!device->vkGetMemoryHostPointerPropertiesEXT)
        return d3d12xs_fail(E_NOTIMPL, method, "%s lacks VK_EXT_external_memory_host", device->vk_properties.deviceName);
    if (!(block = calloc(1, sizeof(*block))))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "out of memory");
    block->device = device;
    block->size = (size + GRAPHICS_ALIGNMENT - 1) & ~(GRAPHICS_ALIGNMENT - 1);
    /* Over-allocate so the block can start on 64 KiB, then give the ends back. */
    char *raw = mmap(NULL, block->size + GRAPHICS_ALIGNMENT, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) {
        hr = d3d12xs_fail(E_OUTOFMEMORY, method, "cannot map %llu bytes", (unsigned long long)block->size);
        free(block);
        return hr;
    }
    char *aligned = (char *)(((uintptr_t)raw + GRAPHICS_ALIGNMENT - 1) & ~(uintptr_t)(GRAPHICS_ALIGNMENT - 1));
    if (aligned > raw)
        munmap(raw, (size_t)(aligned - raw));
    if (aligned + block->size < raw + block->size + GRAPHICS_ALIGNMENT)
        munmap(aligned + block->size, (size_t)(raw + block->size + GRAPHICS_ALIGNMENT - (aligned + block->size)));
    block->host = aligned;
    if (FAILED(hr = import_block(device, block, method)) || !d3d12xs_va_register_host(device, block->host, block->size, block->buffer, gpu_read_only)) {
        if (SUCCEEDED(hr))
            hr = d3d12xs_fail(E_OUTOFMEMORY, method, "cannot register the memory's addresses");
        destroy_block(device, block);
        return hr;
    }
    pthread_mutex_lock(&blocks_lock);
    if (!d3d12xs_array_reserve((void **)&blocks, &block_capacity, block_count + 1, sizeof(*blocks))) {
        pthread_mutex_unlock(&blocks_lock);
        d3d12xs_va_free(device, (uintptr_t)block->host);
        destroy_block(device, block);
        return d3d12xs_fail(E_OUTOFMEMORY, method, "out of memory");
    }
    blocks[block_count++] = block;
    pthread_mutex_unlock(&blocks_lock);
    *address = block->host;
    return S_OK;
}

BOOL D3D12XSFreeGraphicsMemory(void *address)
{
    struct graphics_block *block = NULL;

    pthread_mutex_lock(&blocks_lock);
    for (size_t i = 0; i < block_count; i++) {
        if (blocks[i]->host == address) {
            block = blocks[i];
            blocks[i] = blocks[--block_count];
            break;
        }
    }
    pthread_mutex_unlock(&blocks_lock);
    if (!block) {
        ERR("VirtualFree: %p is not graphics memory from XMemVirtualAlloc / D3D12XSAllocateGraphicsMemory (or was freed already)", address);
        return FALSE;
    }
    /* Its addresses stop resolving now; the memory goes once queued work no longer needs it. */
    d3d12xs_va_free(block->device, (uintptr_t)block->host);
    d3d12_scheduler_retire(block->device, destroy_block, block);
    return TRUE;
}
