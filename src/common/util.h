/* Small helpers every part uses: array sizes, container-of, growable arrays, the clock. */
#ifndef D3D12XS_UTIL_H
#define D3D12XS_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define D3D12XS_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define D3D12XS_CONTAINING(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

/* Growable-array helper: ensures room for count elements. */
bool d3d12xs_array_reserve(void **elements, size_t *capacity, size_t count, size_t element_size);
/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t d3d12xs_now_ns(void);

#endif
