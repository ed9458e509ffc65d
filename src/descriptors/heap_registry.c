/* The device's registry of live descriptor heaps: the window their records are placed in and the
 * table from its units to the heaps (heap_registry.h says why this shape). */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common/free_ranges.h"
#include "descriptors/heap_registry.h"

#define UNIT ((uint64_t)1 << D3D12XS_DESCRIPTOR_WINDOW_UNIT_SHIFT)
/* Address space only: pages are backed when records are placed on them. A smaller window is
 * tried where the process may not reserve this much (a limited RLIMIT_AS). */
#define WINDOW_MAX_SIZE ((uint64_t)1 << 36)
#define WINDOW_MIN_SIZE ((uint64_t)1 << 30)

struct d3d12xs_descriptor_heap_registry {
    pthread_mutex_t lock;
    struct d3d12xs_free_ranges free_units; /* of the window: units no heap's records are on */
};

static void *reserve(uint64_t size, int protection)
{
    void *memory = mmap(NULL, size, protection, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return memory == MAP_FAILED ? NULL : memory;
}

HRESULT d3d12xs_descriptor_heap_registry_init(struct d3d12_device *device)
{
    struct d3d12xs_descriptor_window *window = &device->descriptor_window;
    struct d3d12xs_descriptor_heap_registry *registry;
    uint64_t size;
    void *base = NULL;

    if (!(registry = calloc(1, sizeof(*registry))))
        return E_OUTOFMEMORY;
    for (size = WINDOW_MAX_SIZE; size >= WINDOW_MIN_SIZE && !(base = reserve(size, PROT_NONE)); size /= 2)
        ;
    /* The table: 8 bytes a unit (8 MiB for the largest window), zero pages until heaps are stored. */
    if (!base || !(window->heaps = reserve(size / UNIT * sizeof(*window->heaps), PROT_READ | PROT_WRITE))
            || !d3d12xs_free_ranges_init(&registry->free_units, size / UNIT)) {
        if (window->heaps)
            munmap(window->heaps, size / UNIT * sizeof(*window->heaps));
        if (base)
            munmap(base, size);
        window->heaps = NULL;
        free(registry);
        return E_OUTOFMEMORY;
    }
    window->base = (uintptr_t)base;
    window->unit_mask = size / UNIT - 1; /* size and UNIT are powers of two */
    pthread_mutex_init(&registry->lock, NULL);
    device->descriptor_heaps = registry;
    return S_OK;
}

void d3d12xs_descriptor_heap_registry_cleanup(struct d3d12_device *device)
{
    struct d3d12xs_descriptor_window *window = &device->descriptor_window;
    struct d3d12xs_descriptor_heap_registry *registry = device->descriptor_heaps;

    if (!registry)
        return;
    munmap((void *)window->base, (window->unit_mask + 1) * UNIT);
    munmap(window->heaps, (window->unit_mask + 1) * sizeof(*window->heaps));
    memset(window, 0, sizeof(*window));
    pthread_mutex_destroy(&registry->lock);
    d3d12xs_free_ranges_cleanup(&registry->free_units);
    free(registry);
    device->descriptor_heaps = NULL;
}

static uint64_t units_of(size_t count)
{
    return ((uint64_t)count * sizeof(struct d3d12xs_descriptor) + UNIT - 1) / UNIT;
}

/* Takes count units of the window; UINT64_MAX when no free run holds them or the list cannot
 * grow. */
static uint64_t take_units_locked(struct d3d12xs_descriptor_heap_registry *registry, uint64_t count)
{
    if (!d3d12xs_free_ranges_reserve(&registry->free_units, registry->free_units.count + 1))
        return UINT64_MAX;
    return d3d12xs_free_ranges_take(&registry->free_units, count, 1);
}

/* Gives units back; where the list cannot grow they stay lost to the window, which is only
 * address space. */
static void give_units_locked(struct d3d12xs_descriptor_heap_registry *registry, uint64_t first, uint64_t count)
{
    if (d3d12xs_free_ranges_reserve(&registry->free_units, registry->free_units.count + 1))
        d3d12xs_free_ranges_give(&registry->free_units, first, count);
}

struct d3d12xs_descriptor *d3d12xs_descriptor_records_allocate(struct d3d12_device *device, size_t count)
{
    struct d3d12xs_descriptor_heap_registry *registry = device->descriptor_heaps;
    uint64_t units = units_of(count), first;
    void *records;

    if (units > device->descriptor_window.unit_mask + 1)
        return NULL;
    pthread_mutex_lock(&registry->lock);
    first = take_units_locked(registry, units);
    pthread_mutex_unlock(&registry->lock);
    if (first == UINT64_MAX)
        return NULL;
    /* Fresh zero pages over the reserved units. */
    records = mmap((void *)(device->descriptor_window.base + first * UNIT), units * UNIT, PROT_READ | PROT_WRITE,
            MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (records == MAP_FAILED) {
        pthread_mutex_lock(&registry->lock);
        give_units_locked(registry, first, units);
        pthread_mutex_unlock(&registry->lock);
        return NULL;
    }
    return records;
}

void d3d12xs_descriptor_records_free(struct d3d12_device *device, struct d3d12xs_descriptor *records, size_t count)
{
    struct d3d12xs_descriptor_heap_registry *registry = device->descriptor_heaps;
    uint64_t units = units_of(count);

    if (!records)
        return;
    /* Back to reserved address space: the pages go, the units stay the window's. */
    mmap(records, units * UNIT, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
    pthread_mutex_lock(&registry->lock);
    give_units_locked(registry, ((uintptr_t)records - device->descriptor_window.base) / UNIT, units);
    pthread_mutex_unlock(&registry->lock);
}

/* Stores value in the table entries of the units heap's records are on. */
static void store_locked(const struct d3d12_descriptor_heap *heap, struct d3d12_descriptor_heap *value)
{
    const struct d3d12xs_descriptor_window *window = &heap->object.device->descriptor_window;
    uint64_t first = ((uintptr_t)heap->descriptors - window->base) / UNIT, units = units_of(heap->desc.NumDescriptors);

    for (uint64_t unit = first; unit < first + units; unit++)
        atomic_store_explicit(&window->heaps[unit], value, memory_order_release);
}

void d3d12xs_descriptor_heap_register(struct d3d12_descriptor_heap *heap)
{
    struct d3d12xs_descriptor_heap_registry *registry = heap->object.device->descriptor_heaps;
    pthread_mutex_lock(&registry->lock);
    store_locked(heap, heap);
    pthread_mutex_unlock(&registry->lock);
}

void d3d12xs_descriptor_heap_unregister(struct d3d12_descriptor_heap *heap)
{
    struct d3d12xs_descriptor_heap_registry *registry = heap->object.device->descriptor_heaps;
    if (!heap->descriptors)
        return;
    pthread_mutex_lock(&registry->lock);
    store_locked(heap, NULL);
    pthread_mutex_unlock(&registry->lock);
}
