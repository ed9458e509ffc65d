/* Our GPU virtual address space: addresses of committed resources and heaps (va_map.c). */
#ifndef D3D12XS_VA_MAP_H
#define D3D12XS_VA_MAP_H

#include <stdatomic.h>

#include "device/device.h"

struct d3d12xs_va_range {
    uint64_t va;
    uint64_t size;
    VkBuffer buffer;  /* the buffer covering the whole range */
    bool upload_heap; /* in an UPLOAD heap: the GPU must not write it */
    void *host;       /* the CPU's view of byte 0 where the memory is mapped, else NULL */
    bool gpu_read_only; /* graphics memory the GPU only reads: the console drops GPU writes */
    uint64_t allocation; /* unique per allocation: tells memory apart from memory later at the same address */
    uint64_t device_address; /* of buffer, where the device has bufferDeviceAddress (else 0): views need it */
};

/* The map the device holds (device->va_map), made at its creation and freed, with the
 * address space it reserved, when it goes. */
HRESULT d3d12xs_va_map_init(struct d3d12_device *device);
void d3d12xs_va_map_cleanup(struct d3d12_device *device);
/* The GPU copy of the table (see va_map.c), made once the VkDevice exists, before any range is
 * added; nothing where the device lacks bufferDeviceAddress. Released before the allocator. */
HRESULT d3d12xs_va_map_init_gpu(struct d3d12_device *device, const char *method);
void d3d12xs_va_map_release_gpu(struct d3d12_device *device);
/* The device address of the GPU table's level 1, 0 without one. A shader translates va:
 *   l2 = u64 at table + ((va >> 32) & 0xffff) * 8
 *   e  = l2 ? l2 + ((va >> 16) & 0xffff) * 32 : table + D3D12XS_VA_TABLE_ZERO_OFFSET
 *   (start, size, address) = u64 at e, e + 8, e + 16
 *   va - start < size ? address + (va - start) : not mapped (table + D3D12XS_VA_TABLE_SCRATCH_OFFSET) */
uint64_t d3d12xs_va_table_address(struct d3d12_device *device);
#define D3D12XS_VA_TABLE_ZERO_OFFSET (0x10000ull * 8)                   /* one zeroed level-2 entry */
#define D3D12XS_VA_TABLE_SCRATCH_OFFSET (D3D12XS_VA_TABLE_ZERO_OFFSET + 64) /* where accesses through unmapped addresses go */
#define D3D12XS_VA_TABLE_SCRATCH_SIZE 0x10000ull

uint64_t d3d12xs_va_allocate(struct d3d12_device *device, uint64_t size, VkBuffer buffer, bool upload_heap, void *host);
/* Graphics memory: its GPU address is its CPU pointer. */
bool d3d12xs_va_register_host(struct d3d12_device *device, void *host, uint64_t size, VkBuffer buffer, bool gpu_read_only);
bool d3d12xs_va_gpu_read_only(struct d3d12_device *device, uint64_t va);
/* The CPU address of [va, va + size) where its memory is host-visible and mapped, else NULL. */
void *d3d12xs_va_host_pointer(struct d3d12_device *device, uint64_t va, uint64_t size);
/* Whether va lies in an UPLOAD-heap range (false when it is in no range). */
bool d3d12xs_va_in_upload_heap(struct d3d12_device *device, uint64_t va);
void d3d12xs_va_free(struct d3d12_device *device, uint64_t va);
/* Finds the buffer holding [va, va + size); returns false when no live resource does. */
bool d3d12xs_va_lookup(struct d3d12_device *device, uint64_t va, uint64_t size, VkBuffer *buffer, uint64_t *offset);
/* One lookup for what value writes and waits need: a copy of the live range holding
 * [va, va + size) and va's offset in it; false when no live resource or allocation does. */
bool d3d12xs_va_find(struct d3d12_device *device, uint64_t va, uint64_t size, struct d3d12xs_va_range *range, uint64_t *offset);
/* Like d3d12xs_va_lookup, also giving the bytes from va to the end of its range. */
bool d3d12xs_va_lookup_range(struct d3d12_device *device, uint64_t va, VkBuffer *buffer, uint64_t *offset, uint64_t *remaining);

/* A caller's memory of the last range d3d12xs_va_lookup_range_hinted found (zeroed: none). A
 * range's record never moves, changes or is freed while the device lives: it only dies, once,
 * when the range is freed. So a range the hint names that is still live and holds va is the one
 * a full look-up would find, and nothing else need be checked. */
struct d3d12xs_va_hint {
    const struct d3d12xs_va_range *range;
    const atomic_bool *live;
};
/* d3d12xs_va_lookup_range's full look-up, which also sets the hint to a range it finds. */
bool d3d12xs_va_lookup_range_hint(struct d3d12_device *device, struct d3d12xs_va_hint *hint, uint64_t va, VkBuffer *buffer, uint64_t *offset,
        uint64_t *remaining);
/* The hint's range alone: true, with what d3d12xs_va_lookup_range gives, when va lies in the
 * range found last and it is live; false (nothing set) otherwise, for the caller's full look-up. */
static inline bool d3d12xs_va_hint_lookup(const struct d3d12xs_va_hint *hint, uint64_t va, VkBuffer *buffer, uint64_t *offset,
        uint64_t *remaining)
{
    const struct d3d12xs_va_range *range = hint->range;

    if (__builtin_expect(range && va - range->va < range->size && atomic_load_explicit(hint->live, memory_order_acquire), 1)) {
        *buffer = range->buffer;
        *offset = va - range->va;
        *remaining = range->size - *offset;
        return true;
    }
    return false;
}

/* d3d12xs_va_lookup_range through a hint: a few loads when va lies in the range found last. */
static inline bool d3d12xs_va_lookup_range_hinted(struct d3d12_device *device, struct d3d12xs_va_hint *hint, uint64_t va, VkBuffer *buffer,
        uint64_t *offset, uint64_t *remaining)
{
    return d3d12xs_va_hint_lookup(hint, va, buffer, offset, remaining) || d3d12xs_va_lookup_range_hint(device, hint, va, buffer, offset, remaining);
}

#endif
