/* Transient device-local memory of command allocators (transient_memory.h). */
#include <stdlib.h>
#include <string.h>

#include "commands/transient_memory.h"

/* Most passes fit a block of this size; a larger request gets a block of its own size. */
#define TRANSIENT_BLOCK_SIZE ((VkDeviceSize)4 << 20)

static HRESULT add_block(struct d3d12_device *device, struct d3d12_transient_memory *memory, VkDeviceSize size, const char *method)
{
    static const D3D12_HEAP_PROPERTIES device_local = {D3D12_HEAP_TYPE_DEFAULT, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 0, 0};
    struct d3d12_transient_block block = {.size = size > TRANSIENT_BLOCK_SIZE ? size : TRANSIENT_BLOCK_SIZE};
    VkBufferCreateInfo buffer_info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = block.size,
        .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    HRESULT hr;

    if (!d3d12xs_array_reserve((void **)&memory->blocks, &memory->block_capacity, memory->block_count + 1, sizeof(*memory->blocks)))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot grow the list's transient memory");
    /* Every byte is written in the list before it is read, so the memory need not be zeroed. */
    if (FAILED(hr = d3d12xs_allocate_buffer(device, &buffer_info, &device_local, 0, 0, &block.buffer, &block.memory, method)))
        return hr;
    memory->blocks[memory->block_count++] = block;
    return S_OK;
}

HRESULT d3d12_transient_memory_allocate(struct d3d12_device *device, struct d3d12_transient_memory *memory, VkDeviceSize size,
        VkBuffer *buffer, VkDeviceSize *offset, const char *method)
{
    VkDeviceSize alignment = device->vk_properties.limits.minStorageBufferOffsetAlignment, start;
    HRESULT hr;

    if (alignment < 16)
        alignment = 16;
    for (; memory->current < memory->block_count; memory->current++) {
        struct d3d12_transient_block *block = &memory->blocks[memory->current];
        start = (block->used + alignment - 1) & ~(alignment - 1);
        if (start <= block->size && size <= block->size - start) {
            block->used = start + size;
            *buffer = block->buffer;
            *offset = start;
            return S_OK;
        }
    }
    if (FAILED(hr = add_block(device, memory, size, method)))
        return hr;
    memory->current = memory->block_count - 1;
    memory->blocks[memory->current].used = size;
    *buffer = memory->blocks[memory->current].buffer;
    *offset = 0;
    return S_OK;
}

void d3d12_transient_memory_reset(struct d3d12_transient_memory *memory)
{
    for (size_t i = 0; i < memory->block_count; i++)
        memory->blocks[i].used = 0;
    memory->current = 0;
}

void d3d12_transient_memory_destroy(struct d3d12_device *device, struct d3d12_transient_memory *memory)
{
    for (size_t i = 0; i < memory->block_count; i++)
        d3d12xs_free_buffer(device, &memory->blocks[i].buffer, &memory->blocks[i].memory);
    free(memory->blocks);
    memset(memory, 0, sizeof(*memory));
}
