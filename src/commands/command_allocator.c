/* ID3D12CommandAllocator: a VkCommandPool whose command buffers command lists borrow. */
#include <stdlib.h>
#include <string.h>

#include "commands/command_allocator.h"
#include "generated/d3d12_stubs.h"

#define METHOD(name) "ID3D12CommandAllocator::" #name

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
    return !allocator->last_queue || d3d12_command_queue_completed_serial(allocator->last_queue) >= allocator->last_serial;
}

static ULONG STDMETHODCALLTYPE d3d12_command_allocator_Release(ID3D12CommandAllocator *iface)
{
    struct d3d12_command_allocator *allocator = impl_from_ID3D12CommandAllocator(iface);
    unsigned refcount = d3d12xs_object_release(&allocator->object);
    if (!refcount) {
        struct d3d12_device *device = allocator->object.device;
        /* Freeing command buffers the GPU still runs is undefined: wait for them. */
        if (!allocator_is_idle(allocator))
            d3d12_device_wait_queues_idle(device, METHOD(Release));
        if (allocator->last_queue)
            ID3D12CommandQueue_Release(&allocator->last_queue->ID3D12CommandQueue_iface);
        vkDestroyCommandPool(device->vk_device, allocator->vk_pool, NULL);
        free(allocator->command_buffers);
        d3d12xs_object_cleanup(&allocator->object);
        free(allocator);
    }
    return refcount;
}

static HRESULT STDMETHODCALLTYPE d3d12_command_allocator_Reset(ID3D12CommandAllocator *iface)
{
    struct d3d12_command_allocator *allocator = impl_from_ID3D12CommandAllocator(iface);
    struct d3d12_device *device = allocator->object.device;
    VkResult vr;

    pthread_mutex_lock(&allocator->object.lock);
    if (allocator->recording_list) {
        pthread_mutex_unlock(&allocator->object.lock);
        return d3d12xs_fail(E_FAIL, METHOD(Reset), "allocator '%s' has a command list recording into it (Close the list first)",
                d3d12xs_object_name(&allocator->object));
    }
    if (!allocator_is_idle(allocator)) {
        pthread_mutex_unlock(&allocator->object.lock);
        return d3d12xs_fail(E_FAIL, METHOD(Reset), "allocator '%s' is still in use by the GPU (wait on a fence signalled after its lists first)",
                d3d12xs_object_name(&allocator->object));
    }
    if ((vr = vkResetCommandPool(device->vk_device, allocator->vk_pool, 0)) != VK_SUCCESS) {
        pthread_mutex_unlock(&allocator->object.lock);
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), METHOD(Reset), "vkResetCommandPool failed (VkResult %d)", vr);
    }
    allocator->next_free = 0;
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

HRESULT d3d12_command_allocator_get_command_buffer(struct d3d12_command_allocator *allocator, VkCommandBuffer *command_buffer)
{
    struct d3d12_device *device = allocator->object.device;
    VkResult vr;

    /* Called with the allocator lock held by the list that starts recording. */
    if (allocator->next_free == allocator->command_buffer_count) {
        VkCommandBufferAllocateInfo allocate_info = {
            .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
            .commandPool = allocator->vk_pool,
            .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
            .commandBufferCount = 1,
        };
        if (!d3d12xs_array_reserve((void **)&allocator->command_buffers, &allocator->command_buffer_capacity,
                allocator->command_buffer_count + 1, sizeof(*allocator->command_buffers)))
            return E_OUTOFMEMORY;
        if ((vr = vkAllocateCommandBuffers(device->vk_device, &allocate_info, &allocator->command_buffers[allocator->command_buffer_count])) != VK_SUCCESS)
            return d3d12xs_hresult_from_vk(device, vr);
        allocator->command_buffer_count++;
    }
    *command_buffer = allocator->command_buffers[allocator->next_free++];
    return S_OK;
}

void d3d12_command_allocator_note_submission(struct d3d12_command_allocator *allocator, struct d3d12_command_queue *queue, uint64_t serial)
{
    struct d3d12_command_queue *previous;

    pthread_mutex_lock(&allocator->object.lock);
    previous = allocator->last_queue;
    if (previous != queue) {
        ID3D12CommandQueue_AddRef(&queue->ID3D12CommandQueue_iface);
        allocator->last_queue = queue;
    }
    allocator->last_serial = serial;
    pthread_mutex_unlock(&allocator->object.lock);
    if (previous && previous != queue)
        ID3D12CommandQueue_Release(&previous->ID3D12CommandQueue_iface);
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
    if ((vr = vkCreateCommandPool(device->vk_device, &pool_info, NULL, &allocator->vk_pool)) != VK_SUCCESS) {
        hr = d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "vkCreateCommandPool failed (VkResult %d)", vr);
        ID3D12CommandAllocator_Release(&allocator->ID3D12CommandAllocator_iface);
        return hr;
    }
    hr = ID3D12CommandAllocator_QueryInterface(&allocator->ID3D12CommandAllocator_iface, riid, out);
    ID3D12CommandAllocator_Release(&allocator->ID3D12CommandAllocator_iface);
    return hr;
}
