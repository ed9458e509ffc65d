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
    return heap->slots + heap->side_table_offset + index * D3D12XS_SIDE_ENTRY_SIZE;
}

/* Copies count descriptors of src from src_index to dst from dst_index (heaps of one type): the
 * records, the slots and the side-table entries, and nothing else. memmove: overlapping ranges
 * of one heap (undefined in D3D12) copy as if through a temporary. One descriptor is inlined
 * moves where its slot is small (NVIDIA's are 16 to 64 bytes). */
static inline void d3d12_descriptor_heap_copy(struct d3d12_descriptor_heap *dst, size_t dst_index,
        const struct d3d12_descriptor_heap *src, size_t src_index, size_t count)
{
    uint8_t *to;
    const uint8_t *from;

    if (count == 1)
        dst->descriptors[dst_index] = src->descriptors[src_index]; /* an exact overlap (onto itself) is a valid assignment */
    else
        memmove(&dst->descriptors[dst_index], &src->descriptors[src_index], count * sizeof(*dst->descriptors));
    if (!dst->slots)
        return;
    to = dst->slots + dst_index * dst->slot_size;
    from = src->slots + src_index * src->slot_size;
    if (count == 1 && dst->slot_size == 16)
        memmove(to, from, 16);
    else if (count == 1 && dst->slot_size == 32)
        memmove(to, from, 32);
    else if (count == 1 && dst->slot_size == 64)
        memmove(to, from, 64);
    else
        memmove(to, from, count * dst->slot_size);
    if (dst->desc.Type != D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV)
        return;
    if (count == 1)
        memmove(d3d12_descriptor_heap_side_entry(dst, dst_index), d3d12_descriptor_heap_side_entry(src, src_index), D3D12XS_SIDE_ENTRY_SIZE);
    else
        memmove(d3d12_descriptor_heap_side_entry(dst, dst_index), d3d12_descriptor_heap_side_entry(src, src_index),
                count * D3D12XS_SIDE_ENTRY_SIZE);
}

#endif
