/* Argument memory of command allocators (see argument_ring.h). Chunks are made on first use
 * and kept until the allocator goes, so a list recorded again after Reset allocates nothing. */
#include <stdlib.h>
#include <string.h>

#include "commands/argument_ring.h"

static HRESULT add_chunk(struct d3d12_device *device, struct d3d12_argument_ring *ring, const char *method)
{
    static const D3D12_HEAP_PROPERTIES upload = {D3D12_HEAP_TYPE_UPLOAD, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    struct d3d12_argument_chunk chunk = {VK_NULL_HANDLE, VK_NULL_HANDLE, NULL};
    VkBufferCreateInfo buffer_info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = D3D12XS_ARGUMENT_CHUNK_SIZE,
        .usage = VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    VkMemoryRequirements requirements;
    void *mapped;
    int memory_type;
    VkResult vr;

    if (!d3d12xs_array_reserve((void **)&ring->chunks, &ring->chunk_capacity, ring->chunk_count + 1, sizeof(*ring->chunks)))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot grow the root argument memory");
    if ((vr = vkCreateBuffer(device->vk_device, &buffer_info, NULL, &chunk.buffer)) != VK_SUCCESS)
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "vkCreateBuffer for root arguments failed (VkResult %d)", vr);
    vkGetBufferMemoryRequirements(device->vk_device, chunk.buffer, &requirements);
    if ((memory_type = d3d12xs_find_memory_type(device, requirements.memoryTypeBits, &upload)) < 0) {
        vkDestroyBuffer(device->vk_device, chunk.buffer, NULL);
        return d3d12xs_fail(E_OUTOFMEMORY, method, "no host-visible memory type for root arguments");
    }
    VkMemoryAllocateInfo allocate_info = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = requirements.size,
        .memoryTypeIndex = (uint32_t)memory_type,
    };
    if ((vr = vkAllocateMemory(device->vk_device, &allocate_info, NULL, &chunk.memory)) != VK_SUCCESS
            || (vr = vkBindBufferMemory(device->vk_device, chunk.buffer, chunk.memory, 0)) != VK_SUCCESS
            || (vr = vkMapMemory(device->vk_device, chunk.memory, 0, VK_WHOLE_SIZE, 0, &mapped)) != VK_SUCCESS) {
        vkDestroyBuffer(device->vk_device, chunk.buffer, NULL);
        vkFreeMemory(device->vk_device, chunk.memory, NULL);
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "cannot make %u bytes of root argument memory (VkResult %d)",
                D3D12XS_ARGUMENT_CHUNK_SIZE, vr);
    }
    chunk.mapped = mapped;
    ring->chunks[ring->chunk_count++] = chunk;
    return S_OK;
}

HRESULT d3d12_argument_ring_allocate(struct d3d12_device *device, struct d3d12_argument_ring *ring, uint32_t size,
        VkBuffer *buffer, VkDeviceSize *offset, void **data, const char *method)
{
    VkDeviceSize alignment = device->vk_properties.limits.minUniformBufferOffsetAlignment, start;
    HRESULT hr;

    if (alignment < 16)
        alignment = 16;
    if (!size || size > D3D12XS_ARGUMENT_CHUNK_SIZE)
        return d3d12xs_fail(E_INVALIDARG, method, "%u bytes of root arguments (1 to %u fit)", size, D3D12XS_ARGUMENT_CHUNK_SIZE);
    start = (ring->offset + alignment - 1) & ~(alignment - 1);
    if (ring->current >= ring->chunk_count || start + size > D3D12XS_ARGUMENT_CHUNK_SIZE) {
        if (ring->current < ring->chunk_count)
            ring->current++;
        if (ring->current >= ring->chunk_count && FAILED(hr = add_chunk(device, ring, method)))
            return hr;
        start = 0;
    }
    ring->offset = start + size;
    *buffer = ring->chunks[ring->current].buffer;
    *offset = start;
    *data = ring->chunks[ring->current].mapped + start;
    return S_OK;
}

void d3d12_argument_ring_reset(struct d3d12_argument_ring *ring)
{
    ring->current = 0;
    ring->offset = 0;
}

void d3d12_argument_ring_destroy(struct d3d12_device *device, struct d3d12_argument_ring *ring)
{
    for (size_t i = 0; i < ring->chunk_count; i++) {
        vkDestroyBuffer(device->vk_device, ring->chunks[i].buffer, NULL);
        vkFreeMemory(device->vk_device, ring->chunks[i].memory, NULL);
    }
    free(ring->chunks);
    memset(ring, 0, sizeof(*ring));
}
