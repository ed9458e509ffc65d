/* Which live descriptor heap of a device a CPU descriptor handle lies in (heap_registry.c).
 *
 * A CPU handle is the address of a descriptor's record (struct d3d12xs_descriptor) in its heap's
 * record array. Each heap's records have pages of their own (d3d12xs_descriptor_records_allocate),
 * so a 4 KiB unit of address space belongs to at most one heap, and the registry is a two-level
 * page table over the 48-bit address space: level 1 indexed by address >> 32, level 2 by
 * (address >> 12) & 0xfffff, each entry the heap whose records cover that unit. Finding a handle's
 * heap is two loads, without a lock, whatever the number of heaps; registering and unregistering
 * a heap store its units' entries under a mutex. Level-2 pages are made on demand and kept until
 * the device goes. */
#ifndef D3D12XS_HEAP_REGISTRY_H
#define D3D12XS_HEAP_REGISTRY_H

#include <stdatomic.h>

#include "descriptors/descriptors.h"

#define D3D12XS_HEAP_REGISTRY_UNIT_SHIFT 12
#define D3D12XS_HEAP_REGISTRY_L1_SHIFT 32
#define D3D12XS_HEAP_REGISTRY_L1_COUNT 0x10000u
#define D3D12XS_HEAP_REGISTRY_L2_COUNT 0x100000u

struct d3d12xs_heap_registry_page {
    _Atomic(struct d3d12_descriptor_heap *) heaps[D3D12XS_HEAP_REGISTRY_L2_COUNT];
};

struct d3d12xs_descriptor_heap_registry {
    pthread_mutex_t lock; /* writers */
    _Atomic(struct d3d12xs_heap_registry_page *) pages[D3D12XS_HEAP_REGISTRY_L1_COUNT];
};

/* Zeroed memory for count records on pages of their own; NULL when there is none. */
struct d3d12xs_descriptor *d3d12xs_descriptor_records_allocate(size_t count);
void d3d12xs_descriptor_records_free(struct d3d12xs_descriptor *records, size_t count);
/* From now on heap's handles resolve to it; false (nothing registered) when out of memory or
 * when its records lie above the 48-bit addresses the table covers. */
bool d3d12xs_descriptor_heap_register(struct d3d12_descriptor_heap *heap);
/* From now on heap's handles resolve to nothing (until another heap's records are given its pages). */
void d3d12xs_descriptor_heap_unregister(struct d3d12_descriptor_heap *heap);

/* The registered heap whose record pages hold address, or NULL. The caller checks that address
 * lies inside its records (a heap's last page may extend past them). Bits above the 48 the table
 * covers are dropped, not checked: an address with any of them set is far outside the records of
 * the heap its low bits find, and the caller's check says so. */
static inline struct d3d12_descriptor_heap *d3d12xs_descriptor_heap_find(struct d3d12xs_descriptor_heap_registry *registry,
        uintptr_t address)
{
    struct d3d12xs_heap_registry_page *page = atomic_load_explicit(
            &registry->pages[((uint64_t)address >> D3D12XS_HEAP_REGISTRY_L1_SHIFT) & (D3D12XS_HEAP_REGISTRY_L1_COUNT - 1)], memory_order_acquire);
    if (!page)
        return NULL;
    return atomic_load_explicit(&page->heaps[((uint64_t)address >> D3D12XS_HEAP_REGISTRY_UNIT_SHIFT) & (D3D12XS_HEAP_REGISTRY_L2_COUNT - 1)],
            memory_order_acquire);
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
    struct d3d12_descriptor_heap *heap = d3d12xs_descriptor_heap_find(device->descriptor_heaps, handle);
    return heap && d3d12xs_descriptor_heap_holds(heap, handle, count, type) ? heap : NULL;
}

#endif
