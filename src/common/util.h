/* Small helpers every part uses: array sizes, container-of, growable arrays, the clock. */
#ifndef D3D12XS_UTIL_H
#define D3D12XS_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "d3d12.h"

#define D3D12XS_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define D3D12XS_CONTAINING(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

/* Growable-array helper: ensures room for count elements. */
bool d3d12xs_array_reserve(void **elements, size_t *capacity, size_t count, size_t element_size);
/* Writes a reason into error (which may be NULL) and returns hr: the parts that explain a
 * failure to their caller, who logs it once under its own method name. */
HRESULT d3d12xs_write_error(HRESULT hr, char *error, size_t error_size, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* How many bytes before a buffer view its Vulkan storage-buffer descriptor starts: the view
 * starts offset bytes into its buffer (whose start is aligned) and has elements of element_size
 * bytes; the descriptor must start at a multiple of alignment and a whole number of elements
 * before the view, so that the shader can add them to its index (docs/descriptors.md). 0 for an
 * aligned view; UINT32_MAX where no such start exists inside the buffer. */
uint32_t d3d12xs_view_misalignment(uint64_t offset, uint32_t element_size, uint64_t alignment);
/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t d3d12xs_now_ns(void);

#endif
