/* Per-allocator device memory with device addresses, handed out while lists record and reused
 * after the allocator's Reset (address_ring.c): ExecuteIndirect's translated commands and the
 * generated commands' preprocess memory (command_list_generated.c), which Vulkan takes by
 * address. Chunks grow to the largest request. */
#ifndef D3D12XS_ADDRESS_RING_H
#define D3D12XS_ADDRESS_RING_H

#include "device/device.h"
#include "memory/allocator.h"

struct d3d12_address_chunk {
    VkBuffer buffer;
    struct d3d12xs_allocation memory;
    VkDeviceAddress address;
    VkDeviceSize size;
};

struct d3d12_address_ring {
    struct d3d12_address_chunk *chunks;
    size_t chunk_count, chunk_capacity;
    size_t current;      /* chunk handed out from */
    VkDeviceSize offset; /* next free byte in it */
};

/* size bytes of DEFAULT-heap memory at an offset aligned to alignment (a power of two). Logs and
 * returns the failure. */
HRESULT d3d12_address_ring_allocate(struct d3d12_device *device, struct d3d12_address_ring *ring, VkDeviceSize size,
        VkDeviceSize alignment, VkBuffer *buffer, VkDeviceSize *offset, VkDeviceAddress *address, const char *method);
void d3d12_address_ring_reset(struct d3d12_address_ring *ring);
void d3d12_address_ring_destroy(struct d3d12_device *device, struct d3d12_address_ring *ring);

#endif
