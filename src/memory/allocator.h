/* The device's memory allocator (allocator.c): every VkDeviceMemory d3d12xs binds buffers to
 * comes from it, except graphics memory's imports of host pointers (graphics_memory.c).
 *
 * Drivers limit how many VkDeviceMemory objects may exist (maxMemoryAllocationCount, 4096 on
 * many) and each one is a kernel call, so small requests share blocks: one list of blocks per
 * Vulkan memory type and kind of resource (linear or optimally tiled, kept apart so that
 * bufferImageGranularity never matters), each block a VkDeviceMemory with a first-fit free
 * list. Requests above D3D12XS_DEDICATED_THRESHOLD, and those the driver wants alone, get a
 * VkDeviceMemory of their own. Every block is made with VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT
 * (the device always has bufferDeviceAddress) and is mapped for its whole life when its type
 * is host-visible. One lock, the allocator's, guards the lists; no Vulkan call runs under it. */
#ifndef D3D12XS_ALLOCATOR_H
#define D3D12XS_ALLOCATOR_H

#include "device/device.h"

#define D3D12XS_BLOCK_SIZE (64ull << 20)          /* the largest block; a pool's first ones are smaller */
#define D3D12XS_DEDICATED_THRESHOLD (32ull << 20) /* larger requests get their own VkDeviceMemory */

struct d3d12xs_memory_block;

/* A range of a VkDeviceMemory. Zeroed (block NULL) means no allocation. */
struct d3d12xs_allocation {
    VkDeviceMemory memory;
    VkDeviceSize offset, size;
    void *mapped;                       /* the CPU's view of byte offset when the type is host-visible, else NULL */
    struct d3d12xs_memory_block *block; /* what free returns it to */
    uint32_t memory_type;
    /* Part of the range was handed out before: the driver's zeroing of fresh memory does not
     * cover it (d3d12xs_allocation_zero clears it on the GPU where the CPU cannot). */
    bool reused;
};

enum d3d12xs_allocation_kind {
    D3D12XS_ALLOCATION_LINEAR = 0, /* buffers (and linear images) */
    D3D12XS_ALLOCATION_OPTIMAL,    /* optimally tiled images: blocks of their own */
    D3D12XS_ALLOCATION_KIND_COUNT,
};

/* flags of d3d12xs_allocate_memory / _buffer */
#define D3D12XS_ALLOCATE_DEDICATED 0x1u /* a VkDeviceMemory of its own, whatever the size */

/* device->allocator, made in D3D12CreateDevice before the VkDevice (it reads the device's
 * memory properties when it first allocates) and freed after everything that allocates. */
HRESULT d3d12xs_allocator_init(struct d3d12_device *device);
/* Frees every block left (needs the VkDevice when one exists) and the allocator. */
void d3d12xs_allocator_cleanup(struct d3d12_device *device);

/* requirements->size bytes of memory_type aligned to the larger of requirements->alignment and
 * alignment. dedicated (or NULL) is chained when the allocation is dedicated, for memory bound
 * to that one object. Logs one line under method and returns the failure. */
HRESULT d3d12xs_allocate_memory(struct d3d12_device *device, const VkMemoryRequirements *requirements, VkDeviceSize alignment,
        uint32_t memory_type, enum d3d12xs_allocation_kind kind, uint32_t flags, const VkMemoryDedicatedAllocateInfo *dedicated,
        struct d3d12xs_allocation *allocation, const char *method);
/* Returns the range (nothing for a zeroed allocation) and zeroes *allocation. Call it where the
 * memory's last user is destroyed: for retired objects, in their retirement. */
void d3d12xs_free_memory(struct d3d12_device *device, struct d3d12xs_allocation *allocation);

/* The usual pairing: vkCreateBuffer(info), memory of the type properties select (as
 * d3d12xs_find_memory_type), vkBindBufferMemory at the allocation's offset. On failure nothing
 * is left (*buffer VK_NULL_HANDLE, *allocation zeroed) and one line is logged under method. */
HRESULT d3d12xs_allocate_buffer(struct d3d12_device *device, const VkBufferCreateInfo *info, const D3D12_HEAP_PROPERTIES *properties,
        VkDeviceSize alignment, uint32_t flags, VkBuffer *buffer, struct d3d12xs_allocation *allocation, const char *method);
/* vkDestroyBuffer, then d3d12xs_free_memory; both may be empty. */
void d3d12xs_free_buffer(struct d3d12_device *device, VkBuffer *buffer, struct d3d12xs_allocation *allocation);

/* Makes the allocation read zero, as D3D12 promises of committed resources and heaps:
 * host-visible memory is cleared through its mapping, reused device-only memory by a
 * vkCmdFillBuffer on the scheduler's internal engine, which every queue's next work waits
 * for; fresh device-only memory is zero already. */
HRESULT d3d12xs_allocation_zero(struct d3d12_device *device, const struct d3d12xs_allocation *allocation, const char *method);

/* The counts of D3D12XSGetMemoryStatistics. */
struct d3d12xs_allocator_statistics {
    uint64_t memory_count, dedicated_count, peak_memory_count, allocation_count;
    uint64_t memory_bytes, allocated_bytes, gpu_clears;
};
void d3d12xs_allocator_get_statistics(struct d3d12_device *device, struct d3d12xs_allocator_statistics *statistics);

#endif
