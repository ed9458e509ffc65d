/* Device memory with device addresses for command allocators (see address_ring.h). Chunks are
 * made on first need and kept until the allocator goes; one too small for a request is passed
 * over for a new one of the request's size. */
#include <stdlib.h>
#include <string.h>

#include "commands/address_ring.h"

#define ADDRESS_CHUNK_SIZE (1u << 20)

static HRESULT add_chunk(struct d3d12_device *device, struct d3d12_address_ring *ring, VkDeviceSize size, const char *method)
{
    static const D3D12_HEAP_PROPERTIES default_heap = {D3D12_HEAP_TYPE_DEFAULT, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    VkBufferCreateInfo buffer_info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size,
        /* STORAGE: the translation pass writes the commands; INDIRECT: generated commands read
         * them. The preprocess usage is VK_BUFFER_USAGE_2_PREPROCESS_BUFFER_BIT_EXT, a bit of
         * VkBufferUsageFlags2 (VK_KHR_maintenance5), which d3d12xs does not enable. */
        .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    struct d3d12_address_chunk chunk = {.size = size};
    VkBufferDeviceAddressInfo address_info = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
    HRESULT hr;

    if (!d3d12xs_array_reserve((void **)&ring->chunks, &ring->chunk_capacity, ring->chunk_count + 1, sizeof(*ring->chunks)))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot grow the command scratch memory");
    if (FAILED(hr = d3d12xs_allocate_buffer(device, &buffer_info, &default_heap, 256, 0, &chunk.buffer, &chunk.memory, method)))
        return hr;
    address_info.buffer = chunk.buffer;
    chunk.address = vkGetBufferDeviceAddress(device->vk_device, &address_info);
    /* keep the order: the new chunk goes where the ring hands out next */
    memmove(&ring->chunks[ring->current + 1], &ring->chunks[ring->current], (ring->chunk_count - ring->current) * sizeof(*ring->chunks));
    ring->chunks[ring->current] = chunk;
    ring->chunk_count++;
    return S_OK;
}

HRESULT d3d12_address_ring_allocate(struct d3d12_device *device, struct d3d12_address_ring *ring, VkDeviceSize size,
        VkDeviceSize alignment, VkBuffer *buffer, VkDeviceSize *offset, VkDeviceAddress *address, const char *method)
{
    VkDeviceSize start = 0;
    HRESULT hr;

    if (alignment < 16)
        alignment = 16;
    if (!size)
        size = 16;
    if (ring->current < ring->chunk_count) {
        start = (ring->offset + alignment - 1) & ~(alignment - 1);
        if (start + size > ring->chunks[ring->current].size) {
            ring->current++;
            start = 0;
        }
    }
    /* a chunk further on (kept from before a Reset) that is too small is skipped */
    while (ring->current < ring->chunk_count && size > ring->chunks[ring->current].size)
        ring->current++;
    if (ring->current >= ring->chunk_count
            && FAILED(hr = add_chunk(device, ring, size > ADDRESS_CHUNK_SIZE ? (size + 0xffff) & ~(VkDeviceSize)0xffff : ADDRESS_CHUNK_SIZE, method)))
        return hr;
    ring->offset = start + size;
    *buffer = ring->chunks[ring->current].buffer;
    *offset = start;
    *address = ring->chunks[ring->current].address + start;
    return S_OK;
}

void d3d12_address_ring_reset(struct d3d12_address_ring *ring)
{
    ring->current = 0;
    ring->offset = 0;
}

void d3d12_address_ring_destroy(struct d3d12_device *device, struct d3d12_address_ring *ring)
{
    for (size_t i = 0; i < ring->chunk_count; i++)
        d3d12xs_free_buffer(device, &ring->chunks[i].buffer, &ring->chunks[i].memory);
    free(ring->chunks);
    memset(ring, 0, sizeof(*ring));
}
