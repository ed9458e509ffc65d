/* Per-allocator memory for root arguments that travel through memory (root signatures with
 * D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI): host-visible, coherent uniform
 * buffers handed out linearly while lists record, reused after the allocator's Reset. UAV clears
 * take their staging values from it too (transfer sources). */
#ifndef D3D12XS_ARGUMENT_RING_H
#define D3D12XS_ARGUMENT_RING_H

#include "device/device.h"
#include "memory/allocator.h"

#define D3D12XS_ARGUMENT_CHUNK_SIZE (64u << 10)

struct d3d12_argument_chunk {
    VkBuffer buffer;
    struct d3d12xs_allocation memory;
    uint8_t *mapped;
};

struct d3d12_argument_ring {
    struct d3d12_argument_chunk *chunks;
    size_t chunk_count, chunk_capacity;
    size_t current;      /* chunk handed out from */
    VkDeviceSize offset; /* next free byte in it */
};

/* size bytes (at most D3D12XS_ARGUMENT_CHUNK_SIZE) at an offset aligned for a uniform buffer
 * binding; *data is where the CPU writes them. Logs and returns the failure. */
HRESULT d3d12_argument_ring_allocate(struct d3d12_device *device, struct d3d12_argument_ring *ring, uint32_t size,
        VkBuffer *buffer, VkDeviceSize *offset, void **data, const char *method);
/* Everything handed out is free again (the GPU work that read it has finished). */
void d3d12_argument_ring_reset(struct d3d12_argument_ring *ring);
void d3d12_argument_ring_destroy(struct d3d12_device *device, struct d3d12_argument_ring *ring);

#endif
