/* Growable arrays, the monotonic clock, error messages. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "common/util.h"

bool d3d12xs_array_reserve(void **elements, size_t *capacity, size_t count, size_t element_size)
{
    size_t new_capacity;
    void *new_elements;

    if (count <= *capacity)
        return true;
    new_capacity = *capacity ? *capacity * 2 : 8;
    if (new_capacity < count)
        new_capacity = count;
    if (!(new_elements = realloc(*elements, new_capacity * element_size)))
        return false;
    *elements = new_elements;
    *capacity = new_capacity;
    return true;
}

uint64_t d3d12xs_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

HRESULT d3d12xs_write_error(HRESULT hr, char *error, size_t error_size, const char *fmt, ...)
{
    va_list args;
    if (error && error_size) {
        va_start(args, fmt);
        vsnprintf(error, error_size, fmt, args);
        va_end(args);
    }
    return hr;
}

uint32_t d3d12xs_view_misalignment(uint64_t offset, uint32_t element_size, uint64_t alignment)
{
    if (alignment <= 1 || !(offset % alignment))
        return 0;
    if (!element_size)
        return UINT32_MAX;
    /* The candidates are offset mod alignment + j * alignment; they repeat modulo element_size
     * after element_size of them. */
    for (uint64_t j = 0, bytes = offset % alignment; j < element_size && bytes <= offset; j++, bytes += alignment)
        if (!(bytes % element_size))
            return bytes <= UINT32_MAX ? (uint32_t)bytes : UINT32_MAX;
    return UINT32_MAX;
}
