/* Transient device-local memory of command allocators (transient_memory.h). */
#include <stdlib.h>
#include <string.h>

#include "commands/transient_memory.h"
#include "device/vk_device_generated_commands.h"

/* Most passes fit a block of this size; a larger request gets a block of its own size. */
#define TRANSIENT_BLOCK_SIZE ((VkDeviceSize)4 << 20)

static HRESULT add_block(struct d3d12_device *device, struct d3d12_transient_memory *memory, VkDeviceSize size, const char *method)
{
    static const D3D12_HEAP_PROPERTIES device_local = {D3D12_HEAP_TYPE_DEFAULT, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 0, 0};
    struct d3d12_transient_block block = {.size = size > TRANSIENT_BLOCK_SIZE ? size : TRANSIENT_BLOCK_SIZE};
    VkBufferCreateInfo buffer_info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = block.size,
        /* INDIRECT and the device address: generated commands read their translated commands and
         * take their preprocess memory by address (command_list_generated.c). */
        .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT
                | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | (device->buffer_device_address ? VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT : 0),
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    /* With generated commands, also their preprocess memory's usage, a VkBufferUsageFlags2 bit
     * (VK_KHR_maintenance5, enabled with them): this structure's usage replaces buffer_info's. */
    VkBufferUsageFlags2CreateInfoKHR usage2 = {.sType = VK_STRUCTURE_TYPE_BUFFER_USAGE_FLAGS_2_CREATE_INFO_KHR};
    HRESULT hr;

    if (device->generated_commands.enabled) {
        usage2.usage = buffer_info.usage | D3D12XS_BUFFER_USAGE_2_PREPROCESS_BUFFER_BIT_EXT;
        buffer_info.pNext = &usage2;
    }
    if (!d3d12xs_array_reserve((void **)&memory->blocks, &memory->block_capacity, memory->block_count + 1, sizeof(*memory->blocks)))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot grow the list's transient memory");
    /* Every byte is written in the list before it is read, so the memory need not be zeroed. */
    if (FAILED(hr = d3d12xs_allocate_buffer(device, &buffer_info, &device_local, 0, 0, &block.buffer, &block.memory, method)))
        return hr;
    if (device->buffer_device_address) {
        VkBufferDeviceAddressInfo info = {VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, NULL, block.buffer};
        block.address = vkGetBufferDeviceAddress(device->vk_device, &info);
    }
    memory->blocks[memory->block_count++] = block;
    return S_OK;
}

HRESULT d3d12_transient_memory_allocate(struct d3d12_device *device, struct d3d12_transient_memory *memory, VkDeviceSize size,
        VkDeviceSize alignment, VkBuffer *buffer, VkDeviceSize *offset, VkDeviceAddress *address, const char *method)
{
    VkDeviceSize start;
    HRESULT hr;

    if (alignment < device->vk_properties.limits.minStorageBufferOffsetAlignment)
        alignment = device->vk_properties.limits.minStorageBufferOffsetAlignment;
    if (alignment < 16)
        alignment = 16;
    for (; memory->current < memory->block_count; memory->current++) {
        struct d3d12_transient_block *block = &memory->blocks[memory->current];
        start = (block->used + alignment - 1) & ~(alignment - 1);
        if (start <= block->size && size <= block->size - start) {
            block->used = start + size;
            *buffer = block->buffer;
            *offset = start;
            if (address)
                *address = block->address + start;
            return S_OK;
        }
    }
    if (FAILED(hr = add_block(device, memory, size, method)))
        return hr;
    memory->current = memory->block_count - 1;
    memory->blocks[memory->current].used = size;
    *buffer = memory->blocks[memory->current].buffer;
    *offset = 0;
    if (address)
        *address = memory->blocks[memory->current].address;
    return S_OK;
}

bool d3d12_transient_memory_last_type_in(const struct d3d12_transient_memory *memory, uint32_t type_bits)
{
    return memory->current < memory->block_count && (type_bits & (1u << memory->blocks[memory->current].memory.memory_type));
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
