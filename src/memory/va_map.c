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

struct d3d12xs_va_reservation {
    void *base;
    uint64_t size;
};

struct d3d12xs_va_map {
    pthread_rwlock_t lock;
    struct d3d12xs_va_range *ranges; /* sorted by address */
    size_t range_count, range_capacity;
    uint64_t next, end;    /* the free part of the newest reservation */
    uint64_t allocations;  /* ranges made so far (struct d3d12xs_va_range's allocation) */
    struct d3d12xs_va_reservation *reservations;
    size_t reservation_count, reservation_capacity;
};

HRESULT d3d12xs_va_map_init(struct d3d12_device *device)
{
    struct d3d12xs_va_map *map = calloc(1, sizeof(*map));
    if (!map)
        return E_OUTOFMEMORY;
    pthread_rwlock_init(&map->lock, NULL);
    device->va_map = map;
    return S_OK;
}

/* Gives the reserved address space back: the device is going. */
void d3d12xs_va_map_cleanup(struct d3d12_device *device)
{
    struct d3d12xs_va_map *map = device->va_map;
    if (!map)
        return;
    for (size_t i = 0; i < map->reservation_count; i++)
        munmap(map->reservations[i].base, map->reservations[i].size);
    free(map->reservations);
    free(map->ranges);
    pthread_rwlock_destroy(&map->lock);
    free(map);
    device->va_map = NULL;
}

/* Index of the first range starting after va. */
static size_t upper_bound_locked(struct d3d12xs_va_map *map, uint64_t va)
{
    size_t low = 0, high = map->range_count;
    while (low < high) {
        size_t mid = (low + high) / 2;
        if (map->ranges[mid].va <= va)
            low = mid + 1;
        else
            high = mid;
    }
    return low;
}

#define VA_RESERVATION (64ull << 30)

/* Inserts a range, keeping the array sorted by address. */
static bool insert_locked(struct d3d12xs_va_map *map, const struct d3d12xs_va_range *range)
{
    size_t index;
    if (!d3d12xs_array_reserve((void **)&map->ranges, &map->range_capacity,
            map->range_count + 1, sizeof(*map->ranges)))
        return false;
    index = upper_bound_locked(map, range->va);
    memmove(&map->ranges[index + 1], &map->ranges[index], (map->range_count - index) * sizeof(*map->ranges));
    map->ranges[index] = *range;
    map->range_count++;
    return true;
}

/* Address space for resource addresses, reserved from the process so that nothing else can
 * live there (the device unmaps its reservations when it goes). */
static bool reserve_locked(struct d3d12xs_va_map *map, uint64_t size)
{
    uint64_t bytes = size + VA_ALIGNMENT > VA_RESERVATION ? size + VA_ALIGNMENT : VA_RESERVATION;
    void *base = mmap(NULL, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED)
        return false;
    if (!d3d12xs_array_reserve((void **)&map->reservations, &map->reservation_capacity, map->reservation_count + 1,
            sizeof(*map->reservations))) {
        munmap(base, bytes);
        return false;
    }
    map->reservations[map->reservation_count++] = (struct d3d12xs_va_reservation){base, bytes};
    /* The first address is a multiple of the alignment and never 0. */
    map->next = ((uintptr_t)base + VA_ALIGNMENT) & ~(VA_ALIGNMENT - 1);
    map->end = (uintptr_t)base + bytes;
    return true;
}

uint64_t d3d12xs_va_allocate(struct d3d12_device *device, uint64_t size, VkBuffer buffer, bool upload_heap, void *host)
{
    struct d3d12xs_va_map *map = device->va_map;
    uint64_t va, span = ((size + VA_ALIGNMENT - 1) & ~(VA_ALIGNMENT - 1)) + VA_ALIGNMENT;

    pthread_rwlock_wrlock(&map->lock);
    if (map->next + span > map->end && !reserve_locked(map, span)) {
        pthread_rwlock_unlock(&map->lock);
        return 0;
    }
    va = map->next;
    /* A guard gap after each range makes off-by-one addresses miss every resource. */
    map->next += span;
    if (!insert_locked(map, &(struct d3d12xs_va_range){va, size, buffer, upload_heap, host, false, ++map->allocations})) {
        pthread_rwlock_unlock(&map->lock);
        return 0;
    }
    pthread_rwlock_unlock(&map->lock);
    return va;
}

bool d3d12xs_va_register_host(struct d3d12_device *device, void *host, uint64_t size, VkBuffer buffer, bool gpu_read_only)
{
    struct d3d12xs_va_map *map = device->va_map;
    bool ok;
    pthread_rwlock_wrlock(&map->lock);
    ok = insert_locked(map, &(struct d3d12xs_va_range){(uintptr_t)host, size, buffer, false, host, gpu_read_only, ++map->allocations});
    pthread_rwlock_unlock(&map->lock);
    return ok;
}

bool d3d12xs_va_gpu_read_only(struct d3d12_device *device, uint64_t va)
{
    struct d3d12xs_va_map *map = device->va_map;
    bool read_only = false;
    size_t index;
    pthread_rwlock_rdlock(&map->lock);
    index = upper_bound_locked(map, va);
    if (index && va - map->ranges[index - 1].va < map->ranges[index - 1].size)
        read_only = map->ranges[index - 1].gpu_read_only;
    pthread_rwlock_unlock(&map->lock);
    return read_only;
}

void d3d12xs_va_free(struct d3d12_device *device, uint64_t va)
{
    struct d3d12xs_va_map *map = device->va_map;
    size_t index;

    if (!va)
        return;
    pthread_rwlock_wrlock(&map->lock);
    index = upper_bound_locked(map, va);
    if (index && map->ranges[index - 1].va == va) {
        memmove(&map->ranges[index - 1], &map->ranges[index],
                (map->range_count - index) * sizeof(*map->ranges));
        map->range_count--;
    }
    pthread_rwlock_unlock(&map->lock);
}

bool d3d12xs_va_lookup(struct d3d12_device *device, uint64_t va, uint64_t size, VkBuffer *buffer, uint64_t *offset)
{
    struct d3d12xs_va_map *map = device->va_map;
    const struct d3d12xs_va_range *range;
    bool found = false;
    size_t index;

    pthread_rwlock_rdlock(&map->lock);
    index = upper_bound_locked(map, va);
    if (index) {
        range = &map->ranges[index - 1];
        if (range->buffer && va - range->va <= range->size && size <= range->size - (va - range->va)) {
            *buffer = range->buffer;
            *offset = va - range->va;
            found = true;
        }
    }
    pthread_rwlock_unlock(&map->lock);
    return found;
}

bool d3d12xs_va_find(struct d3d12_device *device, uint64_t va, uint64_t size, struct d3d12xs_va_range *range, uint64_t *offset)
{
    struct d3d12xs_va_map *map = device->va_map;
    bool found = false;
    size_t index;

    pthread_rwlock_rdlock(&map->lock);
    index = upper_bound_locked(map, va);
    if (index) {
        const struct d3d12xs_va_range *candidate = &map->ranges[index - 1];
        if (candidate->buffer && va - candidate->va <= candidate->size && size <= candidate->size - (va - candidate->va)) {
            *range = *candidate;
            *offset = va - candidate->va;
            found = true;
        }
    }
    pthread_rwlock_unlock(&map->lock);
    return found;
}

bool d3d12xs_va_lookup_range(struct d3d12_device *device, uint64_t va, VkBuffer *buffer, uint64_t *offset, uint64_t *remaining)
{
    struct d3d12xs_va_map *map = device->va_map;
    const struct d3d12xs_va_range *range;
    bool found = false;
    size_t index;

    pthread_rwlock_rdlock(&map->lock);
    index = upper_bound_locked(map, va);
    if (index) {
        range = &map->ranges[index - 1];
        if (range->buffer && va - range->va < range->size) {
            *buffer = range->buffer;
            *offset = va - range->va;
            *remaining = range->size - *offset;
            found = true;
        }
    }
    pthread_rwlock_unlock(&map->lock);
    return found;
}

bool d3d12xs_va_in_upload_heap(struct d3d12_device *device, uint64_t va)
{
    struct d3d12xs_va_map *map = device->va_map;
    bool upload = false;
    size_t index;

    pthread_rwlock_rdlock(&map->lock);
    index = upper_bound_locked(map, va);
    if (index && va - map->ranges[index - 1].va < map->ranges[index - 1].size)
        upload = map->ranges[index - 1].upload_heap;
    pthread_rwlock_unlock(&map->lock);
    return upload;
}

void *d3d12xs_va_host_pointer(struct d3d12_device *device, uint64_t va, uint64_t size)
{
    struct d3d12xs_va_map *map = device->va_map;
    void *host = NULL;
    size_t index;

    pthread_rwlock_rdlock(&map->lock);
    index = upper_bound_locked(map, va);
    if (index) {
        const struct d3d12xs_va_range *range = &map->ranges[index - 1];
        if (range->host && va - range->va < range->size && size <= range->size - (va - range->va))
            host = (char *)range->host + (va - range->va);
    }
    pthread_rwlock_unlock(&map->lock);
    return host;
}
