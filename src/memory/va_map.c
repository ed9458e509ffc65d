/* GPU virtual addresses: one range per committed resource, heap or block of graphics memory.
 * Ranges never overlap (placed resources resolve through their heap's range), are never
 * reused, and stay fixed for the object's life, as D3D12 promises.
 *
 * Console code uses CPU pointers of graphics memory as GPU addresses, so GPU addresses and
 * host pointers must never collide: resource addresses come from address space reserved
 * in the process (PROT_NONE, nothing committed), which no allocation can ever be given,
 * and graphics memory's addresses are its own pointers.
 *
 * Every range starts on a 64 KiB page, so a page belongs to at most one range, and the map is
 * a two-level page table over the 48-bit address space: level 1 indexed by va >> 32, level 2
 * by (va >> 16) & 0xffff, level-2 pages made on demand and kept until the device goes.
 *
 * CPU side: entries are atomic pointers to range records that never move nor are freed while
 * the device lives (a freed range's record is marked dead), so lookups are a few atomic loads:
 * no lock, no system call. Writers (allocate, register, free) serialise on a mutex.
 *
 * GPU side (where the device has bufferDeviceAddress): the same table in host-visible memory
 * from the device's allocator, which shaders read (the memory-based ABI's root descriptors):
 *   level 1: 65536 device addresses of level-2 pages, 0 where there is none; then one zeroed
 *            level-2 entry (what a shader reads for an absent page) and a scratch area
 *   level 2: 65536 entries of 32 bytes: (range's VA, range's size, device address of the
 *            range's byte 0, 0), all 0 where no live range with a buffer covers the page.
 * A shader translates va with two loads and a bounds check (va_map.h). */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "memory/allocator.h"
#include "memory/va_map.h"

#define VA_ALIGNMENT 0x10000ull /* D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT */
#define VA_PAGE_SHIFT 16
#define L1_SHIFT 32
#define L1_COUNT 0x10000u
#define L2_COUNT 0x10000u
#define VA_LIMIT (1ull << 48)
#define RECORDS_PER_CHUNK 256

struct d3d12xs_va_reservation {
    void *base;
    uint64_t size;
};

/* Stable: published in entries with release stores, never changed afterwards but for live. */
struct va_record {
    struct d3d12xs_va_range range;
    atomic_bool live;
};

struct va_record_chunk {
    struct va_record_chunk *next;
    struct va_record records[RECORDS_PER_CHUNK];
};

struct va_page {
    _Atomic(struct va_record *) entries[L2_COUNT];
    /* the GPU copy (absent without a GPU table) */
    VkBuffer buffer;
    struct d3d12xs_allocation memory;
    uint64_t (*gpu)[4];
};

struct d3d12xs_va_map {
    _Atomic(struct va_page *) pages[L1_COUNT];
    pthread_mutex_t lock; /* writers only */
    uint64_t next, end;   /* the free part of the newest reservation */
    uint64_t allocations; /* ranges made so far (struct d3d12xs_va_range's allocation) */
    struct d3d12xs_va_reservation *reservations;
    size_t reservation_count, reservation_capacity;
    struct va_record_chunk *chunks; /* newest first; records_used of the first are taken */
    size_t records_used;
    /* the GPU table's level 1 (absent before d3d12xs_va_map_init_gpu or without bufferDeviceAddress) */
    VkBuffer buffer;
    struct d3d12xs_allocation memory;
    uint64_t *gpu_l1;
    uint64_t gpu_address;
};

HRESULT d3d12xs_va_map_init(struct d3d12_device *device)
{
    struct d3d12xs_va_map *map = calloc(1, sizeof(*map));
    if (!map)
        return E_OUTOFMEMORY;
    pthread_mutex_init(&map->lock, NULL);
    device->va_map = map;
    return S_OK;
}

static HRESULT allocate_gpu_memory(struct d3d12_device *device, VkDeviceSize size, VkBuffer *buffer, struct d3d12xs_allocation *memory,
        void **mapped, const char *method)
{
    static const D3D12_HEAP_PROPERTIES upload = {D3D12_HEAP_TYPE_UPLOAD, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    VkBufferCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size,
        .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    HRESULT hr;
    if (FAILED(hr = d3d12xs_allocate_buffer(device, &info, &upload, 0, 0, buffer, memory, method)))
        return hr;
    if (!(*mapped = memory->mapped)) {
        d3d12xs_free_buffer(device, buffer, memory);
        return d3d12xs_fail(E_OUTOFMEMORY, method, "no host-visible memory type for the GPU virtual address table");
    }
    /* reused memory may hold old entries; fresh memory costs a clear of what shaders will read */
    memset(*mapped, 0, size);
    return S_OK;
}

static uint64_t buffer_address(struct d3d12_device *device, VkBuffer buffer)
{
    VkBufferDeviceAddressInfo info = {VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, NULL, buffer};
    return vkGetBufferDeviceAddress(device->vk_device, &info);
}

static bool reserve_region_locked(struct d3d12_device *device);

HRESULT d3d12xs_va_map_init_gpu(struct d3d12_device *device, const char *method)
{
    struct d3d12xs_va_map *map = device->va_map;
    void *mapped;
    HRESULT hr;

    if (!device->buffer_device_address)
        return S_OK;
    if (FAILED(hr = allocate_gpu_memory(device, D3D12XS_VA_TABLE_SCRATCH_OFFSET + D3D12XS_VA_TABLE_SCRATCH_SIZE, &map->buffer,
            &map->memory, &mapped, method)))
        return hr;
    map->gpu_l1 = mapped;
    map->gpu_address = buffer_address(device, map->buffer);
    /* the first region and its page now, not at the application's first resource */
    pthread_mutex_lock(&map->lock);
    if (!reserve_region_locked(device))
        hr = d3d12xs_fail(E_OUTOFMEMORY, method, "cannot reserve GPU virtual addresses");
    pthread_mutex_unlock(&map->lock);
    return hr;
}

void d3d12xs_va_map_release_gpu(struct d3d12_device *device)
{
    struct d3d12xs_va_map *map = device->va_map;
    if (!map)
        return;
    for (uint32_t i = 0; i < L1_COUNT; i++) {
        struct va_page *page = atomic_load_explicit(&map->pages[i], memory_order_relaxed);
        if (page && page->gpu) {
            d3d12xs_free_buffer(device, &page->buffer, &page->memory);
            page->gpu = NULL;
        }
    }
    if (map->gpu_l1)
        d3d12xs_free_buffer(device, &map->buffer, &map->memory);
    map->gpu_l1 = NULL;
    map->gpu_address = 0;
}

uint64_t d3d12xs_va_table_address(struct d3d12_device *device)
{
    return device->va_map->gpu_address;
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
    for (uint32_t i = 0; i < L1_COUNT; i++)
        free(atomic_load_explicit(&map->pages[i], memory_order_relaxed));
    while (map->chunks) {
        struct va_record_chunk *next = map->chunks->next;
        free(map->chunks);
        map->chunks = next;
    }
    pthread_mutex_destroy(&map->lock);
    free(map);
    device->va_map = NULL;
}

/* ---- lookups: atomics only ---- */

/* The live record whose pages hold va, or NULL. */
static struct va_record *record_at(struct d3d12xs_va_map *map, uint64_t va)
{
    struct va_page *page;
    struct va_record *record;
    if (va >= VA_LIMIT)
        return NULL;
    if (!(page = atomic_load_explicit(&map->pages[va >> L1_SHIFT], memory_order_acquire)))
        return NULL;
    record = atomic_load_explicit(&page->entries[(va >> VA_PAGE_SHIFT) & (L2_COUNT - 1)], memory_order_acquire);
    if (!record || !atomic_load_explicit(&record->live, memory_order_acquire))
        return NULL;
    return record;
}

/* The live range holding [va, va + size), va's own end included for size 0 (it lies on the
 * next page when the range ends on a page boundary). */
static const struct d3d12xs_va_range *range_holding(struct d3d12xs_va_map *map, uint64_t va, uint64_t size)
{
    struct va_record *record = record_at(map, va);
    if (!record && !size && va)
        record = record_at(map, va - 1);
    if (!record || va - record->range.va > record->range.size || size > record->range.size - (va - record->range.va))
        return NULL;
    return &record->range;
}

/* The live range in which va is (its end excluded). */
static const struct d3d12xs_va_range *range_containing(struct d3d12xs_va_map *map, uint64_t va)
{
    struct va_record *record = record_at(map, va);
    if (!record || va - record->range.va >= record->range.size)
        return NULL;
    return &record->range;
}

bool d3d12xs_va_gpu_read_only(struct d3d12_device *device, uint64_t va)
{
    const struct d3d12xs_va_range *range = range_containing(device->va_map, va);
    return range && range->gpu_read_only;
}

bool d3d12xs_va_in_upload_heap(struct d3d12_device *device, uint64_t va)
{
    const struct d3d12xs_va_range *range = range_containing(device->va_map, va);
    return range && range->upload_heap;
}

void *d3d12xs_va_host_pointer(struct d3d12_device *device, uint64_t va, uint64_t size)
{
    const struct d3d12xs_va_range *range = range_containing(device->va_map, va);
    if (!range || !range->host || size > range->size - (va - range->va))
        return NULL;
    return (char *)range->host + (va - range->va);
}

bool d3d12xs_va_lookup(struct d3d12_device *device, uint64_t va, uint64_t size, VkBuffer *buffer, uint64_t *offset)
{
    const struct d3d12xs_va_range *range = range_holding(device->va_map, va, size);
    if (!range || !range->buffer)
        return false;
    *buffer = range->buffer;
    *offset = va - range->va;
    return true;
}

bool d3d12xs_va_find(struct d3d12_device *device, uint64_t va, uint64_t size, struct d3d12xs_va_range *range, uint64_t *offset)
{
    const struct d3d12xs_va_range *found = range_holding(device->va_map, va, size);
    if (!found || !found->buffer)
        return false;
    *range = *found;
    *offset = va - found->va;
    return true;
}

bool d3d12xs_va_lookup_range(struct d3d12_device *device, uint64_t va, VkBuffer *buffer, uint64_t *offset, uint64_t *remaining)
{
    const struct d3d12xs_va_range *range = range_containing(device->va_map, va);
    if (!range || !range->buffer)
        return false;
    *buffer = range->buffer;
    *offset = va - range->va;
    *remaining = range->size - *offset;
    return true;
}

bool d3d12xs_va_lookup_range_hint(struct d3d12_device *device, struct d3d12xs_va_hint *hint, uint64_t va, VkBuffer *buffer, uint64_t *offset,
        uint64_t *remaining)
{
    struct va_record *record = record_at(device->va_map, va);
    if (!record || va - record->range.va >= record->range.size || !record->range.buffer)
        return false;
    hint->range = &record->range;
    hint->live = &record->live;
    *buffer = record->range.buffer;
    *offset = va - record->range.va;
    *remaining = record->range.size - *offset;
    return true;
}

/* ---- writers: under the map's mutex ---- */

/* Resource addresses come in regions of 4 GiB aligned to 4 GiB: one level-2 page each, made
 * with the region, so that a device's first page is there from its creation and a new one
 * comes only when 4 GiB of addresses are spent (not in the middle of an application's frame).
 * Larger resources get address space of their own. */
#define VA_REGION (1ull << L1_SHIFT)

static bool add_reservation_locked(struct d3d12xs_va_map *map, void *base, uint64_t bytes)
{
    if (!d3d12xs_array_reserve((void **)&map->reservations, &map->reservation_capacity, map->reservation_count + 1,
            sizeof(*map->reservations))) {
        munmap(base, bytes);
        return false;
    }
    map->reservations[map->reservation_count++] = (struct d3d12xs_va_reservation){base, bytes};
    return true;
}

static struct va_page *page_locked(struct d3d12_device *device, uint64_t va);

/* A new region for resource addresses, reserved from the process so that nothing else can
 * live there (the device unmaps its reservations when it goes). */
static bool reserve_region_locked(struct d3d12_device *device)
{
    struct d3d12xs_va_map *map = device->va_map;
    char *base = mmap(NULL, 2 * VA_REGION, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    char *region;
    if (base == MAP_FAILED)
        return false;
    region = (char *)(((uintptr_t)base + VA_REGION - 1) & ~(VA_REGION - 1));
    if (region > base)
        munmap(base, region - base);
    if (region + VA_REGION < base + 2 * VA_REGION)
        munmap(region + VA_REGION, base + 2 * VA_REGION - (region + VA_REGION));
    if (!add_reservation_locked(map, region, VA_REGION))
        return false;
    /* The first 64 KiB stay unused: a guard below the first range, as after every range. */
    map->next = (uintptr_t)region + VA_ALIGNMENT;
    map->end = (uintptr_t)region + VA_REGION;
    return page_locked(device, (uintptr_t)region) != NULL;
}

/* span bytes of addresses (64 KiB aligned, guard gap included), 0 when none can be had. */
static uint64_t take_addresses_locked(struct d3d12_device *device, uint64_t span)
{
    struct d3d12xs_va_map *map = device->va_map;
    uint64_t va;
    if (span > VA_REGION - VA_ALIGNMENT) {
        void *base = mmap(NULL, span + VA_ALIGNMENT, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (base == MAP_FAILED || !add_reservation_locked(map, base, span + VA_ALIGNMENT))
            return 0;
        return ((uintptr_t)base + VA_ALIGNMENT) & ~(VA_ALIGNMENT - 1);
    }
    if (map->next + span > map->end && !reserve_region_locked(device))
        return 0;
    va = map->next;
    map->next += span;
    return va;
}

static uint64_t last_page(const struct d3d12xs_va_range *range)
{
    return (range->va + (range->size ? range->size - 1 : 0)) >> VA_PAGE_SHIFT;
}

/* The level-2 page of va, made (with its GPU copy) when missing. */
static struct va_page *page_locked(struct d3d12_device *device, uint64_t va)
{
    struct d3d12xs_va_map *map = device->va_map;
    struct va_page *page = atomic_load_explicit(&map->pages[va >> L1_SHIFT], memory_order_relaxed);
    void *mapped;

    if (page)
        return page;
    if (!(page = calloc(1, sizeof(*page))))
        return NULL;
    if (map->gpu_l1) {
        if (FAILED(allocate_gpu_memory(device, sizeof(*page->gpu) * L2_COUNT, &page->buffer, &page->memory, &mapped,
                "GPU virtual address table"))) {
            free(page);
            return NULL;
        }
        page->gpu = mapped;
        map->gpu_l1[va >> L1_SHIFT] = buffer_address(device, page->buffer);
    }
    atomic_store_explicit(&map->pages[va >> L1_SHIFT], page, memory_order_release);
    return page;
}

static struct va_record *new_record_locked(struct d3d12xs_va_map *map)
{
    if (!map->chunks || map->records_used == RECORDS_PER_CHUNK) {
        struct va_record_chunk *chunk = calloc(1, sizeof(*chunk));
        if (!chunk)
            return NULL;
        chunk->next = map->chunks;
        map->chunks = chunk;
        map->records_used = 0;
    }
    return &map->chunks->records[map->records_used++];
}

/* Publishes range in every page it covers; false (and nothing published) when a page is
 * already another live range's or cannot be made. */
static bool insert_locked(struct d3d12_device *device, const struct d3d12xs_va_range *range)
{
    struct d3d12xs_va_map *map = device->va_map;
    uint64_t first = range->va >> VA_PAGE_SHIFT, last = last_page(range), device_address = 0;
    struct va_record *record;

    if (range->va >= VA_LIMIT || last >= VA_LIMIT >> VA_PAGE_SHIFT)
        return false;
    for (uint64_t p = first; p <= last; p++) {
        struct va_page *page = page_locked(device, p << VA_PAGE_SHIFT);
        struct va_record *old;
        if (!page)
            return false;
        old = atomic_load_explicit(&page->entries[p & (L2_COUNT - 1)], memory_order_relaxed);
        if (old && atomic_load_explicit(&old->live, memory_order_relaxed))
            return false; /* ranges never share a page: they start on pages of their own */
    }
    if (!(record = new_record_locked(map)))
        return false;
    record->range = *range;
    record->range.allocation = ++map->allocations;
    atomic_init(&record->live, true);
    if (device->buffer_device_address && range->buffer)
        device_address = buffer_address(device, range->buffer);
    record->range.device_address = device_address;
    for (uint64_t p = first; p <= last; p++) {
        struct va_page *page = atomic_load_explicit(&map->pages[p >> (L1_SHIFT - VA_PAGE_SHIFT)], memory_order_relaxed);
        atomic_store_explicit(&page->entries[p & (L2_COUNT - 1)], record, memory_order_release);
        if (page->gpu && device_address) {
            uint64_t *entry = page->gpu[p & (L2_COUNT - 1)];
            entry[0] = range->va;
            entry[1] = range->size;
            entry[2] = device_address;
            entry[3] = 0;
        }
    }
    return true;
}

uint64_t d3d12xs_va_allocate(struct d3d12_device *device, uint64_t size, VkBuffer buffer, bool upload_heap, void *host)
{
    struct d3d12xs_va_map *map = device->va_map;
    /* A guard gap after each range makes off-by-one addresses miss every resource. */
    uint64_t va, span = ((size + VA_ALIGNMENT - 1) & ~(VA_ALIGNMENT - 1)) + VA_ALIGNMENT;

    pthread_mutex_lock(&map->lock);
    if ((va = take_addresses_locked(device, span))
            && !insert_locked(device, &(struct d3d12xs_va_range){va, size, buffer, upload_heap, host, false, 0, 0}))
        va = 0;
    pthread_mutex_unlock(&map->lock);
    return va;
}

bool d3d12xs_va_register_host(struct d3d12_device *device, void *host, uint64_t size, VkBuffer buffer, bool gpu_read_only)
{
    struct d3d12xs_va_map *map = device->va_map;
    bool ok;
    pthread_mutex_lock(&map->lock);
    ok = insert_locked(device, &(struct d3d12xs_va_range){(uintptr_t)host, size, buffer, false, host, gpu_read_only, 0, 0});
    pthread_mutex_unlock(&map->lock);
    return ok;
}

/* The range stops resolving at once, on the CPU and on the GPU (work still using it is an
 * application error in D3D12). Its record stays, dead: a lookup may be reading it. */
void d3d12xs_va_free(struct d3d12_device *device, uint64_t va)
{
    struct d3d12xs_va_map *map = device->va_map;
    struct va_record *record;

    if (!va)
        return;
    pthread_mutex_lock(&map->lock);
    if ((record = record_at(map, va)) && record->range.va == va) {
        atomic_store_explicit(&record->live, false, memory_order_release);
        for (uint64_t p = va >> VA_PAGE_SHIFT, last = last_page(&record->range); p <= last; p++) {
            struct va_page *page = atomic_load_explicit(&map->pages[p >> (L1_SHIFT - VA_PAGE_SHIFT)], memory_order_relaxed);
            struct va_record *expected = record;
            atomic_compare_exchange_strong_explicit(&page->entries[p & (L2_COUNT - 1)], &expected, NULL, memory_order_release,
                    memory_order_relaxed);
            if (page->gpu)
                memset(page->gpu[p & (L2_COUNT - 1)], 0, sizeof(page->gpu[0]));
        }
    }
    pthread_mutex_unlock(&map->lock);
}
