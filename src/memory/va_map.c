/* GPU virtual addresses: one range per committed resource, heap or block of graphics memory.
 * Ranges never overlap (placed resources resolve through their heap's range), are never
 * reused, and stay fixed for the object's life, as D3D12 promises.
 *
 * Console code uses CPU pointers of graphics memory as GPU addresses, so GPU addresses and
 * host pointers must never collide: resource addresses come from address space reserved
 * in the process (PROT_NONE, nothing committed), which no allocation can ever be given,
 * and graphics memory's addresses are its own pointers. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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

#define VA_RESERVATION (64ull << 30)

/* Inserts a range, keeping the array sorted by address. */
static bool insert_locked(struct d3d12_device *device, const struct d3d12xs_va_range *range)
{
    size_t index;
    if (!d3d12xs_array_reserve((void **)&device->va_ranges, &device->va_range_capacity,
            device->va_range_count + 1, sizeof(*device->va_ranges)))
        return false;
    index = upper_bound_locked(device, range->va);
    memmove(&device->va_ranges[index + 1], &device->va_ranges[index], (device->va_range_count - index) * sizeof(*device->va_ranges));
    device->va_ranges[index] = *range;
    device->va_range_count++;
    return true;
}

/* Address space for resource addresses, reserved from the process so that nothing else can
 * live there (the device unmaps its reservations when it goes). */
static bool reserve_locked(struct d3d12_device *device, uint64_t size)
{
    uint64_t bytes = size + VA_ALIGNMENT > VA_RESERVATION ? size + VA_ALIGNMENT : VA_RESERVATION;
    void *base = mmap(NULL, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED)
        return false;
    if (!d3d12xs_array_reserve((void **)&device->va_reservations, &device->va_reservation_capacity, device->va_reservation_count + 1,
            sizeof(*device->va_reservations))) {
        munmap(base, bytes);
        return false;
    }
    device->va_reservations[device->va_reservation_count++] = (struct d3d12xs_va_reservation){base, bytes};
    /* The first address is a multiple of the alignment and never 0. */
    device->va_next = ((uintptr_t)base + VA_ALIGNMENT) & ~(VA_ALIGNMENT - 1);
    device->va_end = (uintptr_t)base + bytes;
    return true;
}

uint64_t d3d12xs_va_allocate(struct d3d12_device *device, uint64_t size, VkBuffer buffer, bool upload_heap, void *host)
{
    uint64_t va, span = ((size + VA_ALIGNMENT - 1) & ~(VA_ALIGNMENT - 1)) + VA_ALIGNMENT;

    pthread_rwlock_wrlock(&device->va_lock);
    if (device->va_next + span > device->va_end && !reserve_locked(device, span)) {
        pthread_rwlock_unlock(&device->va_lock);
        return 0;
    }
    va = device->va_next;
    /* A guard gap after each range makes off-by-one addresses miss every resource. */
    device->va_next += span;
    if (!insert_locked(device, &(struct d3d12xs_va_range){va, size, buffer, upload_heap, host, false, ++device->va_allocations})) {
        pthread_rwlock_unlock(&device->va_lock);
        return 0;
    }
    pthread_rwlock_unlock(&device->va_lock);
    return va;
}

bool d3d12xs_va_register_host(struct d3d12_device *device, void *host, uint64_t size, VkBuffer buffer, bool gpu_read_only)
{
    bool ok;
    pthread_rwlock_wrlock(&device->va_lock);
    ok = insert_locked(device, &(struct d3d12xs_va_range){(uintptr_t)host, size, buffer, false, host, gpu_read_only, ++device->va_allocations});
    pthread_rwlock_unlock(&device->va_lock);
    return ok;
}

bool d3d12xs_va_gpu_read_only(struct d3d12_device *device, uint64_t va)
{
    bool read_only = false;
    size_t index;
    pthread_rwlock_rdlock(&device->va_lock);
    index = upper_bound_locked(device, va);
    if (index && va - device->va_ranges[index - 1].va < device->va_ranges[index - 1].size)
        read_only = device->va_ranges[index - 1].gpu_read_only;
    pthread_rwlock_unlock(&device->va_lock);
    return read_only;
}

void d3d12xs_va_release_reservations(struct d3d12_device *device)
{
    for (size_t i = 0; i < device->va_reservation_count; i++)
        munmap(device->va_reservations[i].base, device->va_reservations[i].size);
    free(device->va_reservations);
    device->va_reservations = NULL;
    device->va_reservation_count = device->va_reservation_capacity = 0;
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

bool d3d12xs_va_find(struct d3d12_device *device, uint64_t va, uint64_t size, struct d3d12xs_va_range *range, uint64_t *offset)
{
    bool found = false;
    size_t index;

    pthread_rwlock_rdlock(&device->va_lock);
    index = upper_bound_locked(device, va);
    if (index) {
        const struct d3d12xs_va_range *candidate = &device->va_ranges[index - 1];
        if (candidate->buffer && va - candidate->va <= candidate->size && size <= candidate->size - (va - candidate->va)) {
            *range = *candidate;
            *offset = va - candidate->va;
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
