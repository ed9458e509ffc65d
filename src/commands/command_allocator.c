/* ID3D12CommandAllocator: a VkCommandPool whose command buffers command lists borrow. */
#include <stdlib.h>
#include <string.h>

#include "commands/command_allocator.h"
#include "generated/d3d12_stubs.h"

#define METHOD(name) "ID3D12CommandAllocator::" #name
/* How long Reset gives the queue's serial to catch up with the work it already handed to
 * Vulkan: an application that waited for a fence signalled after its lists only waits the
 * moment the host needs to see a batch's last signal (on a loaded 2-core machine lavapipe's
 * queue thread took more than 2 ms); one that resets while its lists run fails after it. */
#define ALLOCATOR_GRACE_NS (100ull * 1000 * 1000)

static struct d3d12_command_allocator *impl_from_ID3D12CommandAllocator(ID3D12CommandAllocator *iface)
{
    return D3D12XS_CONTAINING(iface, struct d3d12_command_allocator, ID3D12CommandAllocator_iface);
}

static HRESULT STDMETHODCALLTYPE d3d12_command_allocator_QueryInterface(ID3D12CommandAllocator *iface, REFIID riid, void **object)
{
    static const IID *const iids[] = {&IID_ID3D12CommandAllocator, &IID_ID3D12Pageable, &IID_ID3D12DeviceChild, &IID_ID3D12Object, &IID_IUnknown, NULL};
    return d3d12xs_query_interface(iface, METHOD(QueryInterface), iids, riid, object);
}

D3D12XS_DEVICE_CHILD_METHODS(d3d12_command_allocator, ID3D12CommandAllocator, impl_from_ID3D12CommandAllocator, "ID3D12CommandAllocator")

/* True once the GPU has finished the last submission that used the allocator. */
static bool allocator_is_idle(struct d3d12_command_allocator *allocator)
{
    /* The application's fence value and the serial land together, give or take a moment. */
    return !allocator->last_engine || d3d12_engine_serial_done_soon(allocator->last_engine, allocator->last_serial, ALLOCATOR_GRACE_NS);
}

static void destroy_allocator(struct d3d12_device *device, void *object)
{
    struct d3d12_command_allocator *allocator = object;
    vkDestroyCommandPool(device->vk_device, allocator->vk_pool, NULL);
    vkDestroyCommandPool(device->vk_device, allocator->helper_pool, NULL);
    for (size_t i = 0; i < allocator->timestamp_pool_count; i++)
        vkDestroyQueryPool(device->vk_device, allocator->timestamp_pools[i], NULL);
    free(allocator->timestamp_pools);
    for (size_t kind = 0; kind < sizeof(allocator->query_slots) / sizeof(allocator->query_slots[0]); kind++) {
        for (size_t i = 0; i < allocator->query_slots[kind].pool_count; i++)
            vkDestroyQueryPool(device->vk_device, allocator->query_slots[kind].pools[i], NULL);
        free(allocator->query_slots[kind].pools);
    }
    for (size_t i = 0; i < allocator->scratch_block_count; i++)
        d3d12xs_free_buffer(device, &allocator->scratch_blocks[i].buffer, &allocator->scratch_blocks[i].memory);
    free(allocator->scratch_blocks);
    d3d12_argument_ring_destroy(device, &allocator->arguments);
    d3d12_transient_memory_destroy(device, &allocator->transient);
    free(allocator->command_buffers);
    free(allocator->helper_buffers);
    free(allocator);
}

void d3d12_command_allocator_add_private_ref(struct d3d12_command_allocator *allocator)
{
    d3d12xs_object_add_private_ref(&allocator->object);
}

void d3d12_command_allocator_release_private_ref(struct d3d12_command_allocator *allocator)
{
    if (!d3d12xs_object_release_private_ref(&allocator->object))
        return;
    /* Its command buffers may still be queued or running: the pools go once they are done. */
    if (allocator->last_engine)
        d3d12_engine_release(allocator->last_engine);
    d3d12_scheduler_retire_object(&allocator->object, destroy_allocator, allocator);
}

static ULONG STDMETHODCALLTYPE d3d12_command_allocator_Release(ID3D12CommandAllocator *iface)
{
    struct d3d12_command_allocator *allocator = impl_from_ID3D12CommandAllocator(iface);
    unsigned refcount = d3d12xs_object_release(&allocator->object);
    if (!refcount && !d3d12xs_exit_torn_down())
        d3d12_command_allocator_release_private_ref(allocator);
    return refcount;
}

static HRESULT STDMETHODCALLTYPE d3d12_command_allocator_Reset(ID3D12CommandAllocator *iface)
{
    struct d3d12_command_allocator *allocator = impl_from_ID3D12CommandAllocator(iface);
    struct d3d12_device *device = allocator->object.device;
    VkResult vr;

    pthread_mutex_lock(&allocator->object.lock);
    if (allocator->recording_list || allocator->recording_bundle) {
        pthread_mutex_unlock(&allocator->object.lock);
        return d3d12xs_fail(E_FAIL, METHOD(Reset), "allocator '%s' has a command list recording into it (Close the list first)",
                d3d12xs_object_name(&allocator->object));
    }
    if (!allocator_is_idle(allocator)) {
        pthread_mutex_unlock(&allocator->object.lock);
        return d3d12xs_fail(E_FAIL, METHOD(Reset), "allocator '%s' is still in use by the GPU (wait on a fence signalled after its lists first)",
                d3d12xs_object_name(&allocator->object));
    }
    if (allocator->vk_pool && (vr = vkResetCommandPool(device->vk_device, allocator->vk_pool, 0)) != VK_SUCCESS) {
        pthread_mutex_unlock(&allocator->object.lock);
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), METHOD(Reset), "vkResetCommandPool failed (VkResult %d)", vr);
    }
    if (allocator->helper_pool && (vr = vkResetCommandPool(device->vk_device, allocator->helper_pool, 0)) != VK_SUCCESS) {
        pthread_mutex_unlock(&allocator->object.lock);
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), METHOD(Reset), "vkResetCommandPool failed (VkResult %d)", vr);
    }
    allocator->next_free = allocator->helper_next_free = 0;
    allocator->next_timestamp = 0;
    for (size_t kind = 0; kind < sizeof(allocator->query_slots) / sizeof(allocator->query_slots[0]); kind++)
        allocator->query_slots[kind].next = 0;
    allocator->next_scratch_slice = 0;
    d3d12_argument_ring_reset(&allocator->arguments);
    d3d12_transient_memory_reset(&allocator->transient);
    allocator->reset_generation++;
    pthread_mutex_unlock(&allocator->object.lock);
    return S_OK;
}

#if defined(__clang__)
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Woverride-init"
#endif

static const ID3D12CommandAllocatorVtbl d3d12_command_allocator_vtbl = {
    D3D12XS_STUB_VTBL_ID3D12CommandAllocator,
    .QueryInterface = d3d12_command_allocator_QueryInterface,
    D3D12XS_DEVICE_CHILD_VTBL_ENTRIES(d3d12_command_allocator),
    .Release = d3d12_command_allocator_Release,
    .Reset = d3d12_command_allocator_Reset,
};

struct d3d12_command_allocator *unsafe_impl_from_ID3D12CommandAllocator(ID3D12CommandAllocator *iface)
{
    if (!iface || iface->lpVtbl != &d3d12_command_allocator_vtbl)
        return NULL;
    return impl_from_ID3D12CommandAllocator(iface);
}

static HRESULT next_buffer(struct d3d12_device *device, VkCommandPool pool, VkCommandBuffer **buffers, size_t *count,
        size_t *capacity, size_t *next_free, VkCommandBuffer *command_buffer)
{
    VkResult vr;

    if (*next_free == *count) {
        VkCommandBufferAllocateInfo allocate_info = {
            .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
            .commandPool = pool,
            .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
            .commandBufferCount = 1,
        };
        if (!d3d12xs_array_reserve((void **)buffers, capacity, *count + 1, sizeof(**buffers)))
            return E_OUTOFMEMORY;
        if ((vr = vkAllocateCommandBuffers(device->vk_device, &allocate_info, &(*buffers)[*count])) != VK_SUCCESS)
            return d3d12xs_hresult_from_vk(device, vr);
        (*count)++;
    }
    *command_buffer = (*buffers)[(*next_free)++];
    return S_OK;
}

HRESULT d3d12_command_allocator_get_command_buffer(struct d3d12_command_allocator *allocator, bool helper, VkCommandBuffer *command_buffer)
{
    struct d3d12_device *device = allocator->object.device;
    VkResult vr;

    /* Called with the allocator lock held by the recording list. */
    if (!helper)
        return next_buffer(device, allocator->vk_pool, &allocator->command_buffers, &allocator->command_buffer_count,
                &allocator->command_buffer_capacity, &allocator->next_free, command_buffer);
    if (!allocator->helper_pool) {
        VkCommandPoolCreateInfo pool_info = {
            .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
            .queueFamilyIndex = d3d12_scheduler_internal_family(device),
        };
        if ((vr = vkCreateCommandPool(device->vk_device, &pool_info, NULL, &allocator->helper_pool)) != VK_SUCCESS)
            return d3d12xs_hresult_from_vk(device, vr);
    }
    return next_buffer(device, allocator->helper_pool, &allocator->helper_buffers, &allocator->helper_count,
            &allocator->helper_capacity, &allocator->helper_next_free, command_buffer);
}

#define TIMESTAMPS_PER_POOL 256u

HRESULT d3d12_command_allocator_get_timestamp(struct d3d12_command_allocator *allocator, VkQueryPool *pool, uint32_t *index)
{
    struct d3d12_device *device = allocator->object.device;
    size_t pool_index;
    VkResult vr;

    pthread_mutex_lock(&allocator->object.lock);
    pool_index = allocator->next_timestamp / TIMESTAMPS_PER_POOL;
    if (pool_index == allocator->timestamp_pool_count) {
        VkQueryPoolCreateInfo info = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, .queryType = VK_QUERY_TYPE_TIMESTAMP,
                .queryCount = TIMESTAMPS_PER_POOL};
        if (!d3d12xs_array_reserve((void **)&allocator->timestamp_pools, &allocator->timestamp_pool_capacity,
                allocator->timestamp_pool_count + 1, sizeof(*allocator->timestamp_pools))) {
            pthread_mutex_unlock(&allocator->object.lock);
            return E_OUTOFMEMORY;
        }
        if ((vr = vkCreateQueryPool(device->vk_device, &info, NULL, &allocator->timestamp_pools[pool_index])) != VK_SUCCESS) {
            pthread_mutex_unlock(&allocator->object.lock);
            return d3d12xs_hresult_from_vk(device, vr);
        }
        allocator->timestamp_pool_count++;
    }
    *pool = allocator->timestamp_pools[pool_index];
    *index = allocator->next_timestamp++ % TIMESTAMPS_PER_POOL;
    pthread_mutex_unlock(&allocator->object.lock);
    return S_OK;
}

#define QUERY_SLOTS_PER_POOL 64u

HRESULT d3d12_command_allocator_get_query_slots(struct d3d12_command_allocator *allocator, enum d3d12_piece_kind kind, uint32_t count,
        VkQueryPool *pool, uint32_t *first)
{
    /* Vulkan's pipeline statistics bits 0-10 are D3D12's eleven statistics (query_heap.c). */
    static const VkQueryPoolCreateInfo infos[] = {
        [D3D12_PIECE_OCCLUSION] = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, .queryType = VK_QUERY_TYPE_OCCLUSION,
                .queryCount = QUERY_SLOTS_PER_POOL},
        [D3D12_PIECE_PIPELINE_STATISTICS] = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, .queryType = VK_QUERY_TYPE_PIPELINE_STATISTICS,
                .queryCount = QUERY_SLOTS_PER_POOL, .pipelineStatistics = 0x7ff},
        [D3D12_PIECE_STREAM] = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, .queryType = VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT,
                .queryCount = QUERY_SLOTS_PER_POOL},
    };
    struct d3d12_device *device = allocator->object.device;
    struct d3d12_query_slots *slots = &allocator->query_slots[kind];
    size_t pool_index;
    VkResult vr;

    pthread_mutex_lock(&allocator->object.lock);
    /* a piece's queries are consecutive: one that does not fit the rest of a pool starts the next */
    if (slots->next % QUERY_SLOTS_PER_POOL + count > QUERY_SLOTS_PER_POOL)
        slots->next += QUERY_SLOTS_PER_POOL - slots->next % QUERY_SLOTS_PER_POOL;
    pool_index = slots->next / QUERY_SLOTS_PER_POOL;
    if (pool_index == slots->pool_count) {
        if (!d3d12xs_array_reserve((void **)&slots->pools, &slots->pool_capacity, slots->pool_count + 1, sizeof(*slots->pools))) {
            pthread_mutex_unlock(&allocator->object.lock);
            return E_OUTOFMEMORY;
        }
        if ((vr = vkCreateQueryPool(device->vk_device, &infos[kind], NULL, &slots->pools[pool_index])) != VK_SUCCESS) {
            pthread_mutex_unlock(&allocator->object.lock);
            return d3d12xs_hresult_from_vk(device, vr);
        }
        slots->pool_count++;
    }
    *pool = slots->pools[pool_index];
    *first = slots->next % QUERY_SLOTS_PER_POOL;
    slots->next += count;
    pthread_mutex_unlock(&allocator->object.lock);
    return S_OK;
}

#define SCRATCH_SLICES_PER_BLOCK 256u

static HRESULT create_scratch_block(struct d3d12_device *device, struct d3d12_scratch_block *block)
{
    static const D3D12_HEAP_PROPERTIES device_local = {D3D12_HEAP_TYPE_DEFAULT, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 0, 0};
    VkBufferCreateInfo buffer_info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = (VkDeviceSize)SCRATCH_SLICES_PER_BLOCK * D3D12XS_SCRATCH_SLICE_SIZE,
        .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
    };

    /* Every slice is cleared in the list before use, so the memory need not be zeroed. */
    return d3d12xs_allocate_buffer(device, &buffer_info, &device_local, 0, 0, &block->buffer, &block->memory,
            "ID3D12CommandAllocator (scratch memory of the recording list)");
}

HRESULT d3d12_command_allocator_get_scratch(struct d3d12_command_allocator *allocator, VkBuffer *buffer, VkDeviceSize *offset)
{
    size_t block_index;
    HRESULT hr;

    pthread_mutex_lock(&allocator->object.lock);
    block_index = allocator->next_scratch_slice / SCRATCH_SLICES_PER_BLOCK;
    if (block_index == allocator->scratch_block_count) {
        if (!d3d12xs_array_reserve((void **)&allocator->scratch_blocks, &allocator->scratch_block_capacity,
                allocator->scratch_block_count + 1, sizeof(*allocator->scratch_blocks))) {
            pthread_mutex_unlock(&allocator->object.lock);
            return E_OUTOFMEMORY;
        }
        memset(&allocator->scratch_blocks[block_index], 0, sizeof(allocator->scratch_blocks[block_index]));
        if (FAILED(hr = create_scratch_block(allocator->object.device, &allocator->scratch_blocks[block_index]))) {
            pthread_mutex_unlock(&allocator->object.lock);
            return hr;
        }
        allocator->scratch_block_count++;
    }
    *buffer = allocator->scratch_blocks[block_index].buffer;
    *offset = (VkDeviceSize)(allocator->next_scratch_slice++ % SCRATCH_SLICES_PER_BLOCK) * D3D12XS_SCRATCH_SLICE_SIZE;
    pthread_mutex_unlock(&allocator->object.lock);
    return S_OK;
}

void d3d12_command_allocator_note_submission(struct d3d12_command_allocator *allocator, struct d3d12_engine *engine, uint64_t serial)
{
    struct d3d12_engine *previous;

    pthread_mutex_lock(&allocator->object.lock);
    previous = allocator->last_engine;
    if (previous != engine) {
        d3d12_engine_add_ref(engine);
        allocator->last_engine = engine;
    }
    allocator->last_serial = serial;
    pthread_mutex_unlock(&allocator->object.lock);
    if (previous && previous != engine)
        d3d12_engine_release(previous);
}

HRESULT d3d12_command_allocator_create(struct d3d12_device *device, D3D12_COMMAND_LIST_TYPE type, REFIID riid, void **out)
{
    static const char method[] = "ID3D12Device::CreateCommandAllocator";
    struct d3d12_command_allocator *allocator;
    VkCommandPoolCreateInfo pool_info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .queueFamilyIndex = device->queue_map[type].family,
    };
    VkResult vr;
    HRESULT hr;

    if (!(allocator = calloc(1, sizeof(*allocator))))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the allocator");
    allocator->ID3D12CommandAllocator_iface.lpVtbl = &d3d12_command_allocator_vtbl;
    d3d12xs_object_init(&allocator->object, device);
    allocator->type = type;
    /* Bundles record plain structs that their callers replay (command_bundle.c): no pool. */
    if (type != D3D12_COMMAND_LIST_TYPE_BUNDLE && (vr = vkCreateCommandPool(device->vk_device, &pool_info, NULL, &allocator->vk_pool)) != VK_SUCCESS) {
        hr = d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "vkCreateCommandPool failed (VkResult %d)", vr);
        ID3D12CommandAllocator_Release(&allocator->ID3D12CommandAllocator_iface);
        return hr;
    }
    hr = d3d12xs_hand_out(ID3D12CommandAllocator_QueryInterface(&allocator->ID3D12CommandAllocator_iface, riid, out), method);
    ID3D12CommandAllocator_Release(&allocator->ID3D12CommandAllocator_iface);
    return hr;
}
