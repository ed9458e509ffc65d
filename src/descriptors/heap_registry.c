/* The device's registry of live descriptor heaps: a page table from the addresses of their
 * records to the heaps (heap_registry.h says why this shape). */
#include <stdlib.h>
#include <sys/mman.h>

#include "descriptors/heap_registry.h"

#define UNIT ((uintptr_t)1 << D3D12XS_HEAP_REGISTRY_UNIT_SHIFT)

HRESULT d3d12xs_descriptor_heap_registry_init(struct d3d12_device *device)
{
    /* 512 KiB of level 1, mostly never touched (calloc gives fresh zero pages at this size). */
    struct d3d12xs_descriptor_heap_registry *registry = calloc(1, sizeof(*registry));
    if (!registry)
        return E_OUTOFMEMORY;
    pthread_mutex_init(&registry->lock, NULL);
    device->descriptor_heaps = registry;
    return S_OK;
}

void d3d12xs_descriptor_heap_registry_cleanup(struct d3d12_device *device)
{
    struct d3d12xs_descriptor_heap_registry *registry = device->descriptor_heaps;
    if (!registry)
        return;
    for (size_t i = 0; i < D3D12XS_HEAP_REGISTRY_L1_COUNT; i++) {
        struct d3d12xs_heap_registry_page *page = atomic_load_explicit(&registry->pages[i], memory_order_relaxed);
        if (page)
            munmap(page, sizeof(*page));
    }
    pthread_mutex_destroy(&registry->lock);
    free(registry);
    device->descriptor_heaps = NULL;
}

static size_t records_size(size_t count)
{
    return (count * sizeof(struct d3d12xs_descriptor) + UNIT - 1) & ~(UNIT - 1);
}

struct d3d12xs_descriptor *d3d12xs_descriptor_records_allocate(size_t count)
{
    /* mmap, not malloc: pages no other allocation shares, whatever the system's page size. */
    void *records = mmap(NULL, records_size(count), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return records == MAP_FAILED ? NULL : records;
}

void d3d12xs_descriptor_records_free(struct d3d12xs_descriptor *records, size_t count)
{
    if (records)
        munmap(records, records_size(count));
}

/* The level-2 page of address, made when missing (level-2 pages are 8 MiB of entries, zero
 * pages until a heap's units are stored in them). */
static struct d3d12xs_heap_registry_page *page_locked(struct d3d12xs_descriptor_heap_registry *registry, uintptr_t address)
{
    _Atomic(struct d3d12xs_heap_registry_page *) *slot = &registry->pages[(uint64_t)address >> D3D12XS_HEAP_REGISTRY_L1_SHIFT];
    struct d3d12xs_heap_registry_page *page = atomic_load_explicit(slot, memory_order_relaxed);
    void *memory;

    if (page)
        return page;
    memory = mmap(NULL, sizeof(*page), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (memory == MAP_FAILED)
        return NULL;
    page = memory;
    atomic_store_explicit(slot, page, memory_order_release);
    return page;
}

/* Stores heap (or NULL) in the entries of the units its records cover; false when a level-2
 * page cannot be made (the entries stored so far stay: the caller unregisters). */
static bool store_locked(struct d3d12xs_descriptor_heap_registry *registry, const struct d3d12_descriptor_heap *heap,
        struct d3d12_descriptor_heap *value)
{
    uintptr_t first = (uintptr_t)heap->descriptors, last = first + heap->desc.NumDescriptors * sizeof(*heap->descriptors) - 1;

    for (uintptr_t unit = first & ~(UNIT - 1); unit <= last; unit += UNIT) {
        struct d3d12xs_heap_registry_page *page = value ? page_locked(registry, unit)
                : atomic_load_explicit(&registry->pages[(uint64_t)unit >> D3D12XS_HEAP_REGISTRY_L1_SHIFT], memory_order_relaxed);
        if (!page)
            return !value;
        atomic_store_explicit(&page->heaps[((uint64_t)unit >> D3D12XS_HEAP_REGISTRY_UNIT_SHIFT) & (D3D12XS_HEAP_REGISTRY_L2_COUNT - 1)],
                value, memory_order_release);
    }
    return true;
}

bool d3d12xs_descriptor_heap_register(struct d3d12_descriptor_heap *heap)
{
    struct d3d12xs_descriptor_heap_registry *registry = heap->object.device->descriptor_heaps;
    uint64_t end = (uint64_t)(uintptr_t)heap->descriptors + heap->desc.NumDescriptors * sizeof(*heap->descriptors);
    bool registered;

    if ((end - 1) >> D3D12XS_HEAP_REGISTRY_L1_SHIFT >= D3D12XS_HEAP_REGISTRY_L1_COUNT)
        return false;
    pthread_mutex_lock(&registry->lock);
    if (!(registered = store_locked(registry, heap, heap)))
        store_locked(registry, heap, NULL);
    pthread_mutex_unlock(&registry->lock);
    return registered;
}

void d3d12xs_descriptor_heap_unregister(struct d3d12_descriptor_heap *heap)
{
    struct d3d12xs_descriptor_heap_registry *registry = heap->object.device->descriptor_heaps;
    if (!heap->descriptors)
        return;
    pthread_mutex_lock(&registry->lock);
    store_locked(registry, heap, NULL);
    pthread_mutex_unlock(&registry->lock);
}
