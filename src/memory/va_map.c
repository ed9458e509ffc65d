/* GPU virtual addresses: our own address space, one range per committed resource or heap.
 * Ranges never overlap (placed resources resolve through their heap's range), are never
 * reused, and stay fixed for the object's life, as D3D12 promises. */
#include <stdlib.h>
#include <string.h>

#include "memory/va_map.h"

#define VA_ALIGNMENT 0x10000ull /* D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT */

/* Index of the first range starting after va. */
static size_t upper_bound_locked(struct d3d12_device *device, uint64_t va)
{
    size_t low = 0, high = device->va_range_count;
    while (low < high) {
        size_t mid = (low + high) / 2;
        if (device->va_ranges[mid].va <= va)
            low = mid + 1;
        else
            high = mid;
    }
    return low;
}

uint64_t d3d12xs_va_allocate(struct d3d12_device *device, uint64_t size, VkBuffer buffer, bool upload_heap, void *host)
{
    uint64_t va;

    pthread_rwlock_wrlock(&device->va_lock);
    if (!d3d12xs_array_reserve((void **)&device->va_ranges, &device->va_range_capacity,
            device->va_range_count + 1, sizeof(*device->va_ranges))) {
        pthread_rwlock_unlock(&device->va_lock);
        return 0;
    }
    va = device->va_next;
    /* A guard gap after each range makes off-by-one addresses miss every resource. */
    device->va_next += ((size + VA_ALIGNMENT - 1) & ~(VA_ALIGNMENT - 1)) + VA_ALIGNMENT;
    /* Addresses only grow, so the new range goes at the end and the array stays sorted. */
    device->va_ranges[device->va_range_count++] = (struct d3d12xs_va_range){va, size, buffer, upload_heap, host};
    pthread_rwlock_unlock(&device->va_lock);
    return va;
}

void d3d12xs_va_free(struct d3d12_device *device, uint64_t va)
{
    size_t index;

    if (!va)
        return;
    pthread_rwlock_wrlock(&device->va_lock);
    index = upper_bound_locked(device, va);
    if (index && device->va_ranges[index - 1].va == va) {
        memmove(&device->va_ranges[index - 1], &device->va_ranges[index],
                (device->va_range_count - index) * sizeof(*device->va_ranges));
        device->va_range_count--;
    }
    pthread_rwlock_unlock(&device->va_lock);
}

bool d3d12xs_va_lookup(struct d3d12_device *device, uint64_t va, uint64_t size, VkBuffer *buffer, uint64_t *offset)
{
    const struct d3d12xs_va_range *range;
    bool found = false;
    size_t index;

    pthread_rwlock_rdlock(&device->va_lock);
    index = upper_bound_locked(device, va);
    if (index) {
        range = &device->va_ranges[index - 1];
        if (range->buffer && va - range->va <= range->size && size <= range->size - (va - range->va)) {
            *buffer = range->buffer;
            *offset = va - range->va;
            found = true;
        }
    }
    pthread_rwlock_unlock(&device->va_lock);
    return found;
}

bool d3d12xs_va_lookup_range(struct d3d12_device *device, uint64_t va, VkBuffer *buffer, uint64_t *offset, uint64_t *remaining)
{
    const struct d3d12xs_va_range *range;
    bool found = false;
    size_t index;

    pthread_rwlock_rdlock(&device->va_lock);
    index = upper_bound_locked(device, va);
    if (index) {
        range = &device->va_ranges[index - 1];
        if (range->buffer && va - range->va < range->size) {
            *buffer = range->buffer;
            *offset = va - range->va;
            *remaining = range->size - *offset;
            found = true;
        }
    }
    pthread_rwlock_unlock(&device->va_lock);
    return found;
}

bool d3d12xs_va_in_upload_heap(struct d3d12_device *device, uint64_t va)
{
    bool upload = false;
    size_t index;

    pthread_rwlock_rdlock(&device->va_lock);
    index = upper_bound_locked(device, va);
    if (index && va - device->va_ranges[index - 1].va < device->va_ranges[index - 1].size)
        upload = device->va_ranges[index - 1].upload_heap;
    pthread_rwlock_unlock(&device->va_lock);
    return upload;
}

void *d3d12xs_va_host_pointer(struct d3d12_device *device, uint64_t va, uint64_t size)
{
    void *host = NULL;
    size_t index;

    pthread_rwlock_rdlock(&device->va_lock);
    index = upper_bound_locked(device, va);
    if (index) {
        const struct d3d12xs_va_range *range = &device->va_ranges[index - 1];
        if (range->host && va - range->va < range->size && size <= range->size - (va - range->va))
            host = (char *)range->host + (va - range->va);
    }
    pthread_rwlock_unlock(&device->va_lock);
    return host;
}
