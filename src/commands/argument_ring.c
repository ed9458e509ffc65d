/* Argument memory of command allocators (see argument_ring.h). Chunks are made on first use
 * and kept until the allocator goes, so a list recorded again after Reset allocates nothing. */
#include <stdlib.h>
#include <string.h>

#include "commands/argument_ring.h"

static HRESULT add_chunk(struct d3d12_device *device, struct d3d12_argument_ring *ring, const char *method)
{
    static const D3D12_HEAP_PROPERTIES upload = {D3D12_HEAP_TYPE_UPLOAD, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    struct d3d12_argument_chunk chunk;
    VkBufferCreateInfo buffer_info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = D3D12XS_ARGUMENT_CHUNK_SIZE,
        /* TRANSFER_SRC: UAV clears copy their repeated value from here (command_list_uav_clear.c);
         * STORAGE and CONDITIONAL_RENDERING: SetPredication's conditions (command_list_predication.c);
         * STORAGE and INDIRECT: ExecuteIndirect's capped dispatches (command_list_indirect.c) */
        .usage = VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT
                | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT
                | (device->graphics.conditional_rendering ? VK_BUFFER_USAGE_CONDITIONAL_RENDERING_BIT_EXT : 0),
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    HRESULT hr;

    if (!d3d12xs_array_reserve((void **)&ring->chunks, &ring->chunk_capacity, ring->chunk_count + 1, sizeof(*ring->chunks)))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot grow the root argument memory");
    if (FAILED(hr = d3d12xs_allocate_buffer(device, &buffer_info, &upload, 0, 0, &chunk.buffer, &chunk.memory, method)))
        return hr;
    if (!(chunk.mapped = chunk.memory.mapped)) {
        d3d12xs_free_buffer(device, &chunk.buffer, &chunk.memory);
        return d3d12xs_fail(E_OUTOFMEMORY, method, "no host-visible memory type for root arguments");
    }
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
    for (size_t i = 0; i < ring->chunk_count; i++)
        d3d12xs_free_buffer(device, &ring->chunks[i].buffer, &ring->chunks[i].memory);
    free(ring->chunks);
    memset(ring, 0, sizeof(*ring));
}
