/* The device's memory allocator: blocks of VkDeviceMemory per memory type and kind, first-fit
 * free lists with coalescing, dedicated memory for large requests (allocator.h says why).
 *
 * The lock guards the pools, the blocks' free lists and the counts. vkAllocateMemory,
 * vkMapMemory and vkFreeMemory run outside it (kernel calls, slow on some drivers): a request
 * that finds no room lets go of the lock, makes a block, and takes the lock again to add the
 * block and carve from it; two threads doing so at once make two blocks, which is harmless.
 * Lock order: the allocator's lock is the last taken (nothing is called under it). */
#include <stdlib.h>
#include <string.h>

#include "common/free_ranges.h"
#include "memory/allocator.h"
#include "sync/scheduler.h"

#define FIRST_BLOCK_SIZE (8ull << 20) /* a pool's first block; each next one doubles, up to D3D12XS_BLOCK_SIZE */

struct d3d12xs_memory_block {
    struct d3d12xs_memory_block *prev, *next; /* in its pool, or in the dedicated list */
    VkDeviceMemory memory;
    VkDeviceSize size;
    uint8_t *mapped;
    uint32_t memory_type;
    unsigned kind;
    bool dedicated; /* one allocation, the whole VkDeviceMemory */
    /* Free ranges (not in dedicated blocks). Their capacity is kept at allocation_count + 1 or
     * more when an allocation is made, so that a free, which can add at most one range, never
     * needs memory. */
    struct d3d12xs_free_ranges free;
    size_t allocation_count;
    /* Every byte below it was handed out at some time: what lies above is as the driver made it. */
    VkDeviceSize high_water;
};

struct block_list {
    struct d3d12xs_memory_block *first, *last;
    unsigned count;
};

struct d3d12xs_allocator {
    pthread_mutex_t lock;
    struct block_list pools[VK_MAX_MEMORY_TYPES][D3D12XS_ALLOCATION_KIND_COUNT];
    struct block_list dedicated;
    struct d3d12xs_allocator_statistics statistics;
};


static void list_append(struct block_list *list, struct d3d12xs_memory_block *block)
{
    block->next = NULL;
    block->prev = list->last;
    if (list->last)
        list->last->next = block;
    else
        list->first = block;
    list->last = block;
    list->count++;
}

static void list_remove(struct block_list *list, struct d3d12xs_memory_block *block)
{
    if (block->prev)
        block->prev->next = block->next;
    else
        list->first = block->next;
    if (block->next)
        block->next->prev = block->prev;
    else
        list->last = block->prev;
    block->prev = block->next = NULL;
    list->count--;
}

HRESULT d3d12xs_allocator_init(struct d3d12_device *device)
{
    struct d3d12xs_allocator *allocator = calloc(1, sizeof(*allocator));
    if (!allocator)
        return d3d12xs_fail(E_OUTOFMEMORY, "D3D12CreateDevice", "cannot allocate the memory allocator");
    pthread_mutex_init(&allocator->lock, NULL);
    device->allocator = allocator;
    return S_OK;
}

static void destroy_block(struct d3d12_device *device, struct d3d12xs_memory_block *block)
{
    /* Freeing mapped memory unmaps it. */
    if (device->vk_device)
        vkFreeMemory(device->vk_device, block->memory, NULL);
    d3d12xs_free_ranges_cleanup(&block->free);
    free(block);
}

static size_t free_list(struct d3d12_device *device, struct block_list *list)
{
    size_t live = 0;
    while (list->first) {
        struct d3d12xs_memory_block *block = list->first;
        live += block->allocation_count;
        list_remove(list, block);
        destroy_block(device, block);
    }
    return live;
}

void d3d12xs_allocator_cleanup(struct d3d12_device *device)
{
    struct d3d12xs_allocator *allocator = device->allocator;
    size_t live = 0;

    if (!allocator)
        return;
    for (uint32_t type = 0; type < VK_MAX_MEMORY_TYPES; type++)
        for (unsigned kind = 0; kind < D3D12XS_ALLOCATION_KIND_COUNT; kind++)
            live += free_list(device, &allocator->pools[type][kind]);
    live += free_list(device, &allocator->dedicated);
    /* Every object that allocates holds a device reference, so anything left is d3d12xs's own leak. */
    if (live)
        ERR("device destruction: %zu memory allocations were never freed (a d3d12xs leak)", live);
    pthread_mutex_destroy(&allocator->lock);
    free(allocator);
    device->allocator = NULL;
}

/* vkAllocateMemory (mapped when host-visible), outside the allocator's lock. */
static HRESULT create_block(struct d3d12_device *device, VkDeviceSize size, uint32_t memory_type, unsigned kind, bool dedicated,
        const VkMemoryDedicatedAllocateInfo *dedicated_info, struct d3d12xs_memory_block **out, const char *method)
{
    struct d3d12xs_memory_block *block;
    VkMemoryAllocateFlagsInfo flags = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO, dedicated_info, VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT, 0};
    VkMemoryAllocateInfo info = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        /* Any buffer bound to a block may need an address, and the flag costs nothing where none does. */
        .pNext = device->buffer_device_address ? (const void *)&flags : (const void *)dedicated_info,
        .allocationSize = size,
        .memoryTypeIndex = memory_type,
    };
    VkResult vr;
    void *mapped = NULL;

    *out = NULL;
    if (!(block = calloc(1, sizeof(*block))))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate a memory block's description");
    if (!dedicated && !d3d12xs_free_ranges_init(&block->free, size)) {
        free(block);
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate a memory block's free list");
    }
    if ((vr = vkAllocateMemory(device->vk_device, &info, NULL, &block->memory)) != VK_SUCCESS) {
        d3d12xs_free_ranges_cleanup(&block->free);
        free(block);
        return d3d12xs_hresult_from_vk(device, vr);
    }
    if ((device->vk_memory_properties.memoryTypes[memory_type].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)
            && (vr = vkMapMemory(device->vk_device, block->memory, 0, VK_WHOLE_SIZE, 0, &mapped)) != VK_SUCCESS) {
        vkFreeMemory(device->vk_device, block->memory, NULL);
        d3d12xs_free_ranges_cleanup(&block->free);
        free(block);
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "vkMapMemory of a %llu-byte block of memory type %u failed (VkResult %d)",
                (unsigned long long)size, memory_type, vr);
    }
    block->size = size;
    block->mapped = mapped;
    block->memory_type = memory_type;
    block->kind = kind;
    block->dedicated = dedicated;
    *out = block;
    return S_OK;
}

static void fill_allocation(struct d3d12xs_allocation *allocation, struct d3d12xs_memory_block *block, VkDeviceSize offset, VkDeviceSize size,
        bool reused)
{
    allocation->memory = block->memory;
    allocation->offset = offset;
    allocation->size = size;
    allocation->mapped = block->mapped ? block->mapped + offset : NULL;
    allocation->block = block;
    allocation->memory_type = block->memory_type;
    allocation->reused = reused;
}

static void count_memory_locked(struct d3d12xs_allocator *allocator, const struct d3d12xs_memory_block *block, int delta)
{
    struct d3d12xs_allocator_statistics *statistics = &allocator->statistics;
    if (delta > 0) {
        statistics->memory_count++;
        statistics->memory_bytes += block->size;
        if (block->dedicated)
            statistics->dedicated_count++;
        if (statistics->memory_count > statistics->peak_memory_count)
            statistics->peak_memory_count = statistics->memory_count;
    } else {
        statistics->memory_count--;
        statistics->memory_bytes -= block->size;
        if (block->dedicated)
            statistics->dedicated_count--;
    }
}

/* First fit in one block: carves [start, start + size) out of the first free range that holds
 * it aligned. */
static bool carve_locked(struct d3d12xs_memory_block *block, VkDeviceSize size, VkDeviceSize alignment, struct d3d12xs_allocation *allocation)
{
    VkDeviceSize start;

    /* Room for the free ranges a free may add later (struct d3d12xs_memory_block), and for the
     * one a carve from the middle of a range adds now. */
    if (!d3d12xs_free_ranges_reserve(&block->free, block->allocation_count + 3)
            || (start = d3d12xs_free_ranges_take(&block->free, size, alignment)) == UINT64_MAX)
        return false;
    block->allocation_count++;
    fill_allocation(allocation, block, start, size, start < block->high_water);
    if (start + size > block->high_water)
        block->high_water = start + size;
    return true;
}

static void return_range_locked(struct d3d12xs_memory_block *block, VkDeviceSize offset, VkDeviceSize size)
{
    /* The capacity was reserved when the allocation was made. */
    d3d12xs_free_ranges_give(&block->free, offset, size);
    block->allocation_count--;
}

static HRESULT allocate_dedicated(struct d3d12_device *device, VkDeviceSize size, uint32_t memory_type, unsigned kind,
        const VkMemoryDedicatedAllocateInfo *dedicated_info, struct d3d12xs_allocation *allocation, const char *method)
{
    struct d3d12xs_allocator *allocator = device->allocator;
    struct d3d12xs_memory_block *block;
    HRESULT hr;

    if (FAILED(hr = create_block(device, size, memory_type, kind, true, dedicated_info, &block, method)))
        return hr;
    pthread_mutex_lock(&allocator->lock);
    list_append(&allocator->dedicated, block);
    block->allocation_count = 1;
    block->high_water = size;
    count_memory_locked(allocator, block, 1);
    allocator->statistics.allocation_count++;
    allocator->statistics.allocated_bytes += size;
    pthread_mutex_unlock(&allocator->lock);
    fill_allocation(allocation, block, 0, size, false);
    return S_OK;
}

HRESULT d3d12xs_allocate_memory(struct d3d12_device *device, const VkMemoryRequirements *requirements, VkDeviceSize alignment,
        uint32_t memory_type, enum d3d12xs_allocation_kind kind, uint32_t flags, const VkMemoryDedicatedAllocateInfo *dedicated,
        struct d3d12xs_allocation *allocation, const char *method)
{
    struct d3d12xs_allocator *allocator = device->allocator;
    VkDeviceSize size = requirements->size, block_size;
    struct d3d12xs_memory_block *block;
    struct block_list *pool;
    unsigned block_count;
    HRESULT hr;

    memset(allocation, 0, sizeof(*allocation));
    if (requirements->alignment > alignment)
        alignment = requirements->alignment;
    if (!size || memory_type >= device->vk_memory_properties.memoryTypeCount || !(requirements->memoryTypeBits & (1u << memory_type))
            || (unsigned)kind >= D3D12XS_ALLOCATION_KIND_COUNT)
        return d3d12xs_fail(E_INVALIDARG, method, "memory request of %llu bytes in memory type %u (allowed types 0x%x) is not valid",
                (unsigned long long)size, memory_type, requirements->memoryTypeBits);

    if ((flags & D3D12XS_ALLOCATE_DEDICATED) || size > D3D12XS_DEDICATED_THRESHOLD) {
        if (FAILED(hr = allocate_dedicated(device, size, memory_type, kind, dedicated, allocation, method)))
            return d3d12xs_fail(hr, method, "vkAllocateMemory of %llu bytes of memory type %u failed", (unsigned long long)size, memory_type);
        return S_OK;
    }

    pool = &allocator->pools[memory_type][kind];
    pthread_mutex_lock(&allocator->lock);
    for (block = pool->first; block; block = block->next) {
        if (carve_locked(block, size, alignment, allocation)) {
            allocator->statistics.allocation_count++;
            allocator->statistics.allocated_bytes += size;
            pthread_mutex_unlock(&allocator->lock);
            return S_OK;
        }
    }
    block_count = pool->count;
    pthread_mutex_unlock(&allocator->lock);

    /* Small pools stay small: devices that use little memory (most tests) do not hold 64 MiB
     * per memory type. */
    block_size = FIRST_BLOCK_SIZE << (block_count < 3 ? block_count : 3);
    while (block_size < size + alignment)
        block_size *= 2;
    if (FAILED(hr = create_block(device, block_size, memory_type, kind, false, NULL, &block, method))) {
        if (hr != E_OUTOFMEMORY)
            return d3d12xs_fail(hr, method, "vkAllocateMemory of a %llu-byte block of memory type %u failed", (unsigned long long)block_size, memory_type);
        /* No room for a block: perhaps for the request alone. */
        if (FAILED(hr = allocate_dedicated(device, size, memory_type, kind, NULL, allocation, method)))
            return d3d12xs_fail(hr, method, "vkAllocateMemory of %llu bytes of memory type %u failed (out of memory)", (unsigned long long)size, memory_type);
        return S_OK;
    }
    pthread_mutex_lock(&allocator->lock);
    list_append(pool, block);
    count_memory_locked(allocator, block, 1);
    if (!carve_locked(block, size, alignment, allocation)) { /* only when the free list cannot grow */
        list_remove(pool, block);
        count_memory_locked(allocator, block, -1);
        pthread_mutex_unlock(&allocator->lock);
        destroy_block(device, block);
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate a memory block's free list");
    }
    allocator->statistics.allocation_count++;
    allocator->statistics.allocated_bytes += size;
    pthread_mutex_unlock(&allocator->lock);
    return S_OK;
}

void d3d12xs_free_memory(struct d3d12_device *device, struct d3d12xs_allocation *allocation)
{
    struct d3d12xs_allocator *allocator = device->allocator;
    struct d3d12xs_memory_block *block = allocation->block, *release = NULL;

    if (!block)
        return;
    pthread_mutex_lock(&allocator->lock);
    allocator->statistics.allocation_count--;
    allocator->statistics.allocated_bytes -= allocation->size;
    if (block->dedicated) {
        list_remove(&allocator->dedicated, block);
        release = block;
    } else {
        struct block_list *pool = &allocator->pools[block->memory_type][block->kind];
        return_range_locked(block, allocation->offset, allocation->size);
        /* One empty block per pool is kept, so that a create/release loop does not make and
         * free a VkDeviceMemory each time; a second empty one goes. */
        if (!block->allocation_count) {
            for (struct d3d12xs_memory_block *other = pool->first; other; other = other->next) {
                if (other != block && !other->allocation_count) {
                    list_remove(pool, block);
                    release = block;
                    break;
                }
            }
        }
    }
    if (release)
        count_memory_locked(allocator, release, -1);
    pthread_mutex_unlock(&allocator->lock);
    if (release)
        destroy_block(device, release);
    memset(allocation, 0, sizeof(*allocation));
}

HRESULT d3d12xs_allocate_buffer(struct d3d12_device *device, const VkBufferCreateInfo *info, const D3D12_HEAP_PROPERTIES *properties,
        VkDeviceSize alignment, uint32_t flags, VkBuffer *buffer, struct d3d12xs_allocation *allocation, const char *method)
{
    VkMemoryDedicatedRequirements dedicated_requirements = {.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS};
    VkMemoryRequirements2 requirements = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2, .pNext = &dedicated_requirements};
    VkBufferMemoryRequirementsInfo2 requirements_info = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2};
    VkMemoryDedicatedAllocateInfo dedicated = {.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO};
    VkResult vr;
    HRESULT hr;
    int memory_type;

    memset(allocation, 0, sizeof(*allocation));
    if ((vr = vkCreateBuffer(device->vk_device, info, NULL, buffer)) != VK_SUCCESS) {
        *buffer = VK_NULL_HANDLE;
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "vkCreateBuffer of %llu bytes failed (VkResult %d)",
                (unsigned long long)info->size, vr);
    }
    requirements_info.buffer = *buffer;
    vkGetBufferMemoryRequirements2(device->vk_device, &requirements_info, &requirements);
    if ((memory_type = d3d12xs_find_memory_type(device, requirements.memoryRequirements.memoryTypeBits, properties)) < 0) {
        hr = d3d12xs_fail(E_INVALIDARG, method, "no Vulkan memory type matches these heap properties");
        goto fail;
    }
    /* A driver that must have the buffer alone gets it so; a preference alone is not followed,
     * since honouring it for every buffer would undo the sharing. */
    if (dedicated_requirements.requiresDedicatedAllocation) {
        flags |= D3D12XS_ALLOCATE_DEDICATED;
        dedicated.buffer = *buffer;
    }
    if (FAILED(hr = d3d12xs_allocate_memory(device, &requirements.memoryRequirements, alignment, (uint32_t)memory_type,
            D3D12XS_ALLOCATION_LINEAR, flags, dedicated.buffer ? &dedicated : NULL, allocation, method)))
        goto fail;
    if ((vr = vkBindBufferMemory(device->vk_device, *buffer, allocation->memory, allocation->offset)) != VK_SUCCESS) {
        hr = d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "vkBindBufferMemory at offset %llu failed (VkResult %d)",
                (unsigned long long)allocation->offset, vr);
        goto fail;
    }
    return S_OK;

fail:
    d3d12xs_free_buffer(device, buffer, allocation);
    return hr;
}

void d3d12xs_free_buffer(struct d3d12_device *device, VkBuffer *buffer, struct d3d12xs_allocation *allocation)
{
    /* The buffer first: memory goes only once nothing is bound to it. */
    vkDestroyBuffer(device->vk_device, *buffer, NULL);
    *buffer = VK_NULL_HANDLE;
    d3d12xs_free_memory(device, allocation);
}

static void destroy_clear_buffer(struct d3d12_device *device, void *object)
{
    VkBuffer *buffer = object;
    vkDestroyBuffer(device->vk_device, *buffer, NULL);
    free(buffer);
}

static void record_fill(VkCommandBuffer command_buffer, void *context)
{
    vkCmdFillBuffer(command_buffer, *(VkBuffer *)context, 0, VK_WHOLE_SIZE, 0);
}

HRESULT d3d12xs_allocation_zero(struct d3d12_device *device, const struct d3d12xs_allocation *allocation, const char *method)
{
    /* vkCmdFillBuffer writes whole words: every allocation is a multiple of 4 bytes long on the
     * drivers d3d12xs meets (their buffer alignments are), and a partial word is left alone. */
    VkBufferCreateInfo buffer_info = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = allocation->size & ~(VkDeviceSize)3,
            .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT, .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
    struct d3d12xs_allocator *allocator = device->allocator;
    VkMemoryRequirements requirements;
    VkBuffer *buffer;
    VkResult vr;
    HRESULT hr;

    if (!allocation->block)
        return S_OK;
    if (allocation->mapped) {
        memset(allocation->mapped, 0, allocation->size);
        return S_OK;
    }
    if (!allocation->reused || !buffer_info.size)
        return S_OK; /* fresh VkDeviceMemory: drivers zero it (the OS demands it) */

    /* Device-only memory that held another resource: the GPU clears it, through a buffer over
     * the allocation's bytes (so that the clear reaches the padding too), on the internal
     * engine before any queue's next work; the buffer is retired at once, so it goes when that
     * work has finished. */
    if (!(buffer = calloc(1, sizeof(*buffer))))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the clear of reused memory");
    if ((vr = vkCreateBuffer(device->vk_device, &buffer_info, NULL, buffer)) != VK_SUCCESS) {
        free(buffer);
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "vkCreateBuffer for the clear of reused memory failed (VkResult %d)", vr);
    }
    vkGetBufferMemoryRequirements(device->vk_device, *buffer, &requirements);
    if (!(requirements.memoryTypeBits & (1u << allocation->memory_type)) || allocation->offset % requirements.alignment
            || allocation->offset + requirements.size > allocation->block->size) {
        destroy_clear_buffer(device, buffer);
        return d3d12xs_fail(E_FAIL, method, "reused memory at offset %llu of memory type %u cannot be cleared by a transfer buffer",
                (unsigned long long)allocation->offset, allocation->memory_type);
    }
    if ((vr = vkBindBufferMemory(device->vk_device, *buffer, allocation->memory, allocation->offset)) != VK_SUCCESS) {
        destroy_clear_buffer(device, buffer);
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "preparing the clear of reused memory failed (VkResult %d)", vr);
    }
    hr = d3d12_scheduler_record_internal(device, record_fill, buffer, "the clear of reused memory", method);
    d3d12_scheduler_retire(device, destroy_clear_buffer, buffer);
    if (SUCCEEDED(hr)) {
        pthread_mutex_lock(&allocator->lock);
        allocator->statistics.gpu_clears++;
        pthread_mutex_unlock(&allocator->lock);
    }
    return hr;
}

void d3d12xs_allocator_get_statistics(struct d3d12_device *device, struct d3d12xs_allocator_statistics *statistics)
{
    struct d3d12xs_allocator *allocator = device->allocator;
    pthread_mutex_lock(&allocator->lock);
    *statistics = allocator->statistics;
    pthread_mutex_unlock(&allocator->lock);
}
