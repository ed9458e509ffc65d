/* A first-fit list of free ranges [offset, offset + size), sorted by offset and never adjacent
 * (giving a range back merges it with the ones it touches). The memory allocator's blocks and
 * the descriptor heaps' record window (descriptors/heap_registry.c) place their pieces with it.
 * Not locked: each owner holds its own lock around it. */
#ifndef D3D12XS_FREE_RANGES_H
#define D3D12XS_FREE_RANGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct d3d12xs_free_range {
    uint64_t offset, size;
};

struct d3d12xs_free_ranges {
    struct d3d12xs_free_range *ranges;
    size_t count, capacity;
};

/* One free range [0, size); false when out of memory. */
bool d3d12xs_free_ranges_init(struct d3d12xs_free_ranges *list, uint64_t size);
void d3d12xs_free_ranges_cleanup(struct d3d12xs_free_ranges *list);
/* Room for count ranges: take and give add at most one each, so an owner that reserves ahead
 * never needs memory in them. False when out of memory. */
bool d3d12xs_free_ranges_reserve(struct d3d12xs_free_ranges *list, size_t count);
/* The first place where size bytes start at a multiple of alignment (0 or 1 for none), taken out of the list; UINT64_MAX when none holds them. Needs room for one more
 * range (a take from the middle of one splits it). */
uint64_t d3d12xs_free_ranges_take(struct d3d12xs_free_ranges *list, uint64_t size, uint64_t alignment);
/* Gives [offset, offset + size) back, merged with the free ranges it touches. Needs room for one
 * more range. */
void d3d12xs_free_ranges_give(struct d3d12xs_free_ranges *list, uint64_t offset, uint64_t size);

#endif
