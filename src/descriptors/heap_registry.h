/* Which live descriptor heap of a device a CPU descriptor handle lies in (heap_registry.c).
 *
 * A CPU handle is the address of a descriptor's record (struct d3d12xs_descriptor) in its heap's
 * record array. The device reserves one window of address space (up to 64 GiB, never backed
 * until used) and every heap's records are placed in it, each heap on 64 KiB units of its own.
 * So a unit belongs to at most one heap, and finding a handle's heap is one subtraction, one
 * mask and one load from the device's per-unit table (device->descriptor_window),
 * without a lock, whatever the number of heaps. Placing and freeing records and registering a
 * heap take the registry's mutex. */
#ifndef D3D12XS_HEAP_REGISTRY_H
#define D3D12XS_HEAP_REGISTRY_H

#include <stdatomic.h>

#include "descriptors/descriptors.h"

#define D3D12XS_DESCRIPTOR_WINDOW_UNIT_SHIFT 16

/* Zeroed memory for count records in device's window, on units of their own; NULL when the
 * window has no room or there is no memory. */
struct d3d12xs_descriptor *d3d12xs_descriptor_records_allocate(struct d3d12_device *device, size_t count);
void d3d12xs_descriptor_records_free(struct d3d12_device *device, struct d3d12xs_descriptor *records, size_t count);
/* From now on heap's handles resolve to it. */
void d3d12xs_descriptor_heap_register(struct d3d12_descriptor_heap *heap);
/* From now on heap's handles resolve to nothing (until another heap's records are given its units). */
void d3d12xs_descriptor_heap_unregister(struct d3d12_descriptor_heap *heap);

/* The registered heap whose record units hold address, or NULL where address is in the window;
 * an address outside it wraps onto some unit (a mask, not a bounds check). So the caller checks
 * that address lies inside the heap's records, as it must anyway (a heap's last unit may extend
 * past them): an address outside the window never does. */
static inline struct d3d12_descriptor_heap *d3d12xs_descriptor_heap_find(const struct d3d12xs_descriptor_window *window, uintptr_t address)
{
    uint64_t unit = (((uint64_t)address - window->base) >> D3D12XS_DESCRIPTOR_WINDOW_UNIT_SHIFT) & window->unit_mask;
    return atomic_load_explicit(&window->heaps[unit], memory_order_acquire);
}

/* The index of the record handle points at in heap's records, or a number of at least 2^32 where
 * it points at none: before them, inside one, or anywhere past them (d3d12xs_descriptor_index_at). */
static inline uint64_t d3d12xs_descriptor_heap_index(const struct d3d12_descriptor_heap *heap, SIZE_T handle)
{
    return d3d12xs_descriptor_index_at((uint64_t)handle - (uint64_t)(uintptr_t)heap->descriptors);
}

/* Whether heap holds count descriptors of type from handle: the handle on a descriptor of its
 * records, of that type and count descriptors from its end at most. */
static inline bool d3d12xs_descriptor_heap_holds(const struct d3d12_descriptor_heap *heap, SIZE_T handle, UINT count,
        D3D12_DESCRIPTOR_HEAP_TYPE type)
{
    uint64_t index = d3d12xs_descriptor_heap_index(heap, handle);
    return index < heap->desc.NumDescriptors && heap->desc.Type == type && count <= heap->desc.NumDescriptors - index;
}

/* The registered heap of the device that holds count descriptors of type from handle, or NULL
 * (d3d12xs_descriptor_lookup says which check failed). Inline: copies check their ranges with it. */
static inline struct d3d12_descriptor_heap *d3d12xs_descriptor_heap_of_range(struct d3d12_device *device, SIZE_T handle, UINT count,
        D3D12_DESCRIPTOR_HEAP_TYPE type)
{
    struct d3d12_descriptor_heap *heap = d3d12xs_descriptor_heap_find(&device->descriptor_window, handle);
    return heap && d3d12xs_descriptor_heap_holds(heap, handle, count, type) ? heap : NULL;
}

#endif
