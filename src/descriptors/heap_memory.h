/* A heap's descriptor bytes (heap_memory.c), as far as copies need them inline: a descriptor is
 * its CPU record, its slot (slot_size bytes of Vulkan descriptor, where the heap has slots: not in
 * RTV and DSV heaps) and, in CBV_SRV_UAV heaps, its side-table entry. */
#ifndef D3D12XS_HEAP_MEMORY_H
#define D3D12XS_HEAP_MEMORY_H

#include <string.h>

#include "descriptors/descriptors.h"
#include "descriptors/descriptor_buffer.h"

#define D3D12XS_SIDE_ENTRY_SIZE (D3D12XS_SIDE_ENTRY_WORDS * sizeof(uint32_t))

static inline uint8_t *d3d12_descriptor_heap_side_entry(const struct d3d12_descriptor_heap *heap, size_t index)
{
    return heap->side_entries + index * D3D12XS_SIDE_ENTRY_SIZE;
}

/* One descriptor of src at src_index to dst at dst_index (heaps of one type, each index inside its
 * heap; dst_record and src_record are the two records, as the handles name them): inline moves of
 * fixed sizes for the small slots drivers have (NVIDIA's 16 to 64 bytes); a larger one (lavapipe's
 * 256) is libc's memmove, faster there than inline 16-byte moves. Two different descriptors
 * never overlap; a copy onto itself is allowed (the record's assignment overlaps exactly, the
 * moves are memmoves) and changes nothing, so it needs no test of its own. */
static inline void d3d12_descriptor_heap_copy_one(struct d3d12_descriptor_heap *dst, struct d3d12xs_descriptor *dst_record, size_t dst_index,
        const struct d3d12_descriptor_heap *src, const struct d3d12xs_descriptor *src_record, size_t src_index)
{
    uint8_t *to;
    const uint8_t *from;

    *dst_record = *src_record;
    if (!dst->slots)
        return;
    if (dst->desc.Type == D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV)
        memmove(d3d12_descriptor_heap_side_entry(dst, dst_index), d3d12_descriptor_heap_side_entry(src, src_index), D3D12XS_SIDE_ENTRY_SIZE);
    to = dst->slots + dst_index * dst->slot_size;
    from = src->slots + src_index * src->slot_size;
    switch (dst->slot_size) {
    case 16: memmove(to, from, 16); break;
    case 32: memmove(to, from, 32); break;
    case 64: memmove(to, from, 64); break;
    default: memmove(to, from, dst->slot_size); break; /* last: a tail call */
    }
}

/* Copies count descriptors of src from src_index to dst from dst_index (heaps of one type): the
 * records, the slots and the side-table entries, and nothing else. memmove: overlapping ranges
 * of one heap (undefined in D3D12) copy as if through a temporary. */
static inline void d3d12_descriptor_heap_copy(struct d3d12_descriptor_heap *dst, size_t dst_index,
        const struct d3d12_descriptor_heap *src, size_t src_index, size_t count)
{
    if (count == 1) {
        d3d12_descriptor_heap_copy_one(dst, &dst->descriptors[dst_index], dst_index, src, &src->descriptors[src_index], src_index);
        return;
    }
    memmove(&dst->descriptors[dst_index], &src->descriptors[src_index], count * sizeof(*dst->descriptors));
    if (!dst->slots)
        return;
    memmove(dst->slots + dst_index * dst->slot_size, src->slots + src_index * src->slot_size, count * dst->slot_size);
    if (dst->desc.Type == D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV)
        memmove(d3d12_descriptor_heap_side_entry(dst, dst_index), d3d12_descriptor_heap_side_entry(src, src_index),
                count * D3D12XS_SIDE_ENTRY_SIZE);
}

#endif
