/* A heap's descriptor bytes (heap_memory.c), as far as copies need them inline: a descriptor is
 * its CPU record, its slot (slot_size bytes of Vulkan descriptor, where the heap has slots: not in
 * RTV and DSV heaps) and, in CBV_SRV_UAV heaps, its side-table entry. */
#ifndef D3D12XS_HEAP_MEMORY_H
#define D3D12XS_HEAP_MEMORY_H

#include <string.h>

#include "descriptors/descriptors.h"
#include "descriptors/descriptor_buffer.h"

#define D3D12XS_SIDE_ENTRY_SIZE (D3D12XS_SIDE_ENTRY_WORDS * sizeof(uint32_t))

/* Unaligned 16-byte blocks, for moves of a size known here: compilers call libc for a memmove
 * of more than 16 bytes, a call and a size dispatch that cost more than the move itself. */
typedef uint8_t d3d12xs_16_bytes __attribute__((vector_size(16), aligned(1), may_alias));

/* count (1, 2 or 4) blocks from `from` to `to`, every load before the first store: a memmove. */
static inline void d3d12xs_move_16_byte_blocks(uint8_t *to, const uint8_t *from, unsigned count)
{
    const d3d12xs_16_bytes *source = (const d3d12xs_16_bytes *)from;
    d3d12xs_16_bytes *target = (d3d12xs_16_bytes *)to;
    d3d12xs_16_bytes b0 = source[0], b1, b2, b3;

    if (count == 1) {
        target[0] = b0;
    } else if (count == 2) {
        b1 = source[1];
        target[0] = b0, target[1] = b1;
    } else {
        b1 = source[1], b2 = source[2], b3 = source[3];
        target[0] = b0, target[1] = b1, target[2] = b2, target[3] = b3;
    }
}

/* The side entry of src's descriptor src_index to dst's dst_index (CBV_SRV_UAV heaps). Written
 * into the GPU memory only where it differs from what is there, as the CPU copy says: most
 * entries are alike (no counter, no misalignment), and a write into write-combined memory costs
 * more than the compare (an H100's copy of one descriptor: about 1.8 of 10.7 ns). */
static inline void d3d12_descriptor_heap_copy_side_entry(struct d3d12_descriptor_heap *dst, size_t dst_index,
        const struct d3d12_descriptor_heap *src, size_t src_index)
{
    _Static_assert(D3D12XS_SIDE_ENTRY_SIZE == 2 * sizeof(uint64_t), "a side entry is compared as two 64-bit words");
    uint8_t *kept = dst->side_entries_cpu + dst_index * D3D12XS_SIDE_ENTRY_SIZE;
    uint64_t entry[2], old[2];

    memcpy(entry, src->side_entries_cpu + src_index * D3D12XS_SIDE_ENTRY_SIZE, sizeof(entry));
    memcpy(old, kept, sizeof(old));
    if (entry[0] == old[0] && entry[1] == old[1])
        return;
    memcpy(kept, entry, sizeof(entry));
    memcpy(dst->side_entries + dst_index * D3D12XS_SIDE_ENTRY_SIZE, entry, sizeof(entry));
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
        d3d12_descriptor_heap_copy_side_entry(dst, dst_index, src, src_index);
    to = dst->slots + dst_index * dst->slot_size;
    from = src->slots + src_index * src->slot_size;
    /* tested in this order (a switch lets the compiler pick its own) */
    if (dst->slot_size == 16)
        d3d12xs_move_16_byte_blocks(to, from, 1);
    else if (dst->slot_size == 32)
        d3d12xs_move_16_byte_blocks(to, from, 2);
    else if (dst->slot_size == 64)
        d3d12xs_move_16_byte_blocks(to, from, 4);
    else
        memmove(to, from, dst->slot_size); /* last: a tail call */
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
    if (dst->desc.Type == D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV) {
        size_t offset = dst_index * D3D12XS_SIDE_ENTRY_SIZE, size = count * D3D12XS_SIDE_ENTRY_SIZE;
        memmove(dst->side_entries_cpu + offset, src->side_entries_cpu + src_index * D3D12XS_SIDE_ENTRY_SIZE, size);
        if (dst->side_entries != dst->side_entries_cpu)
            memcpy(dst->side_entries + offset, dst->side_entries_cpu + offset, size);
    }
}

#endif
