/* Per-allocator device-local memory for the intermediate data of internal passes (a resolve's
 * encoded texels, a predicated copy's old and new bytes, ExecuteIndirect's translated commands)
 * and for what Vulkan takes by device address (generated commands' preprocess memory): storage,
 * indirect, transfer source and destination, with device addresses where the device has them, handed out linearly while a list records and free again at the allocator's Reset,
 * when the GPU has finished the lists that used it. Blocks are made on first use and kept, so a
 * list recorded again after Reset allocates nothing. Only the list recording into the allocator
 * uses it (no lock). */
#ifndef D3D12XS_TRANSIENT_MEMORY_H
#define D3D12XS_TRANSIENT_MEMORY_H

#include "device/device.h"
#include "memory/allocator.h"

struct d3d12_transient_block {
    VkBuffer buffer;
    VkDeviceAddress address; /* of byte 0, where the device has bufferDeviceAddress (else 0) */
    struct d3d12xs_allocation memory;
    VkDeviceSize size, used;
};

struct d3d12_transient_memory {
    struct d3d12_transient_block *blocks;
    size_t block_count, block_capacity;
    size_t current; /* the block handed out from */
};

/* size bytes at an offset aligned for a storage buffer binding and for any texel copy (16
 * bytes at least), and to alignment (a power of two, or 0); *address (where not NULL) gets its
 * device address. Logs and returns the failure. */
HRESULT d3d12_transient_memory_allocate(struct d3d12_device *device, struct d3d12_transient_memory *memory, VkDeviceSize size,
        VkDeviceSize alignment, VkBuffer *buffer, VkDeviceSize *offset, VkDeviceAddress *address, const char *method);
/* Whether the memory of the block the last allocation came from is of a type in type_bits (a
 * VkMemoryRequirements' memoryTypeBits): generated commands' preprocess memory must be. */
bool d3d12_transient_memory_last_type_in(const struct d3d12_transient_memory *memory, uint32_t type_bits);
void d3d12_transient_memory_reset(struct d3d12_transient_memory *memory);
void d3d12_transient_memory_destroy(struct d3d12_device *device, struct d3d12_transient_memory *memory);

#endif
