/* A first-fit list of free ranges (free_ranges.h). */
#include <stdlib.h>
#include <string.h>

#include "common/free_ranges.h"
#include "common/util.h"

bool d3d12xs_free_ranges_init(struct d3d12xs_free_ranges *list, uint64_t size)
{
    list->count = list->capacity = 0;
    if (!(list->ranges = malloc(4 * sizeof(*list->ranges))))
        return false;
    list->capacity = 4;
    list->ranges[0] = (struct d3d12xs_free_range){0, size};
    list->count = 1;
    return true;
}

void d3d12xs_free_ranges_cleanup(struct d3d12xs_free_ranges *list)
{
    free(list->ranges);
    list->ranges = NULL;
    list->count = list->capacity = 0;
}

bool d3d12xs_free_ranges_reserve(struct d3d12xs_free_ranges *list, size_t count)
{
    return d3d12xs_array_reserve((void **)&list->ranges, &list->capacity, count, sizeof(*list->ranges));
}

uint64_t d3d12xs_free_ranges_take(struct d3d12xs_free_ranges *list, uint64_t size, uint64_t alignment)
{
    for (size_t i = 0; i < list->count; i++) {
        struct d3d12xs_free_range range = list->ranges[i];
        uint64_t start = alignment > 1 ? (range.offset + alignment - 1) / alignment * alignment : range.offset;
        uint64_t end = range.offset + range.size, tail;
        if (start >= end || end - start < size)
            continue;
        tail = end - (start + size);
        if (start > range.offset) {
            list->ranges[i].size = start - range.offset;
            if (tail) {
                memmove(&list->ranges[i + 2], &list->ranges[i + 1], (list->count - i - 1) * sizeof(*list->ranges));
                list->ranges[i + 1] = (struct d3d12xs_free_range){start + size, tail};
                list->count++;
            }
        } else if (tail) {
            list->ranges[i] = (struct d3d12xs_free_range){start + size, tail};
        } else {
            memmove(&list->ranges[i], &list->ranges[i + 1], (list->count - i - 1) * sizeof(*list->ranges));
            list->count--;
        }
        return start;
    }
    return UINT64_MAX;
}

void d3d12xs_free_ranges_give(struct d3d12xs_free_ranges *list, uint64_t offset, uint64_t size)
{
    size_t low = 0, high = list->count;
    bool with_previous, with_next;

    while (low < high) { /* the first range after offset */
        size_t middle = (low + high) / 2;
        if (list->ranges[middle].offset > offset)
            high = middle;
        else
            low = middle + 1;
    }
    with_previous = low > 0 && list->ranges[low - 1].offset + list->ranges[low - 1].size == offset;
    with_next = low < list->count && offset + size == list->ranges[low].offset;
    if (with_previous && with_next) {
        list->ranges[low - 1].size += size + list->ranges[low].size;
        memmove(&list->ranges[low], &list->ranges[low + 1], (list->count - low - 1) * sizeof(*list->ranges));
        list->count--;
    } else if (with_previous) {
        list->ranges[low - 1].size += size;
    } else if (with_next) {
        list->ranges[low].offset = offset;
        list->ranges[low].size += size;
    } else {
        memmove(&list->ranges[low + 1], &list->ranges[low], (list->count - low) * sizeof(*list->ranges));
        list->ranges[low] = (struct d3d12xs_free_range){offset, size};
        list->count++;
    }
}
