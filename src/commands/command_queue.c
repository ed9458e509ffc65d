/* ID3D12CommandQueue: a VkQueue of the mapped family plus a serial timeline that counts
 * finished operations (for allocator reuse checks and the hang watchdog). */
#include <stdlib.h>
#include <string.h>

#include "commands/command_list_state.h"
#include "sync/scheduler.h"
#include "generated/d3d12_stubs.h"

#define METHOD(name) "ID3D12CommandQueue::" #name

static struct d3d12_command_queue *impl_from_ID3D12CommandQueue(ID3D12CommandQueue *iface)
{
    return D3D12XS_CONTAINING(iface, struct d3d12_command_queue, ID3D12CommandQueue_iface);
}

uint64_t d3d12_command_queue_completed_serial(struct d3d12_command_queue *queue)
{
    uint64_t value = 0;
    if (vkGetSemaphoreCounterValue(queue->object.device->vk_device, queue->serial_semaphore, &value) != VK_SUCCESS)
        return UINT64_MAX;
    return value;
}

static HRESULT STDMETHODCALLTYPE d3d12_command_queue_QueryInterface(ID3D12CommandQueue *iface, REFIID riid, void **object)
{
    static const IID *const iids[] = {&IID_ID3D12CommandQueue, &IID_ID3D12Pageable, &IID_ID3D12DeviceChild, &IID_ID3D12Object, &IID_IUnknown, NULL};
    return d3d12xs_query_interface(iface, METHOD(QueryInterface), iids, riid, object);
}

D3D12XS_DEVICE_CHILD_METHODS(d3d12_command_queue, ID3D12CommandQueue, impl_from_ID3D12CommandQueue, "ID3D12CommandQueue")

static ULONG STDMETHODCALLTYPE d3d12_command_queue_Release(ID3D12CommandQueue *iface)
{
    struct d3d12_command_queue *queue = impl_from_ID3D12CommandQueue(iface);
    unsigned refcount = d3d12xs_object_release(&queue->object);
    if (!refcount) {
        struct d3d12_device *device = queue->object.device;
        if (queue->serial_semaphore) {
            d3d12_device_wait_queues_idle(device, METHOD(Release));
            d3d12_device_unregister_queue(device, queue);
            vkDestroySemaphore(device->vk_device, queue->serial_semaphore, NULL);
        }
        free(queue->held_ops);
        d3d12xs_object_cleanup(&queue->object);
        free(queue);
    }
    return refcount;
}

static const char *list_type_name(D3D12_COMMAND_LIST_TYPE type)
{
    switch (type) {
    case D3D12_COMMAND_LIST_TYPE_DIRECT: return "DIRECT";
    case D3D12_COMMAND_LIST_TYPE_BUNDLE: return "BUNDLE";
    case D3D12_COMMAND_LIST_TYPE_COMPUTE: return "COMPUTE";
    case D3D12_COMMAND_LIST_TYPE_COPY: return "COPY";
    default: return "unknown";
    }
}

static void STDMETHODCALLTYPE d3d12_command_queue_ExecuteCommandLists(ID3D12CommandQueue *iface, UINT count, ID3D12CommandList *const *lists)
{
    struct d3d12_command_queue *queue = impl_from_ID3D12CommandQueue(iface);
    struct d3d12_device *device = queue->object.device;
    struct d3d12_queue_op op = {.type = D3D12_QUEUE_OP_EXECUTE};
    struct d3d12_command_list *list;
    uint32_t reset_count = 0;
    uint64_t serial;
    bool stale;

    if (!count)
        return;
    if (!lists) {
        ERR("%s: ppCommandLists is NULL with NumCommandLists %u; nothing executed", METHOD(ExecuteCommandLists), count);
        return;
    }
    /* Every list is checked before any runs: a bad one cancels the whole call. */
    for (UINT i = 0; i < count; i++) {
        if (!(list = unsafe_impl_from_ID3D12CommandList(lists[i]))) {
            ERR("%s: ppCommandLists[%u] is %s; nothing executed", METHOD(ExecuteCommandLists), i, lists[i] ? "not a d3d12xs command list" : "NULL");
            return;
        }
        if (list->type != queue->desc.Type) {
            ERR("%s: ppCommandLists[%u] is a %s list and the queue is %s (types must match); nothing executed", METHOD(ExecuteCommandLists),
                    i, list_type_name(list->type), list_type_name(queue->desc.Type));
            return;
        }
        if (list->state != D3D12_COMMAND_LIST_CLOSED) {
            ERR("%s: ppCommandLists[%u] '%s' is still recording (Close it first); nothing executed", METHOD(ExecuteCommandLists), i,
                    d3d12xs_object_name(&list->object));
            return;
        }
        if (list->invalid) {
            ERR("%s: ppCommandLists[%u] '%s' failed Close (%s); nothing executed", METHOD(ExecuteCommandLists), i,
                    d3d12xs_object_name(&list->object), list->error);
            return;
        }
        pthread_mutex_lock(&list->allocator->object.lock);
        stale = list->allocator_generation != list->allocator->reset_generation;
        pthread_mutex_unlock(&list->allocator->object.lock);
        if (stale) {
            ERR("%s: ppCommandLists[%u] '%s' was recorded before its allocator '%s' was Reset, which freed its commands "
                    "(Reset the list and record again); nothing executed", METHOD(ExecuteCommandLists), i,
                    d3d12xs_object_name(&list->object), d3d12xs_object_name(&list->allocator->object));
            return;
        }
        reset_count += list->host_query_reset_count;
    }
    if (d3d12_device_removed_reason(device) != S_OK) {
        ERR("%s: the device is removed; nothing executed", METHOD(ExecuteCommandLists));
        return;
    }

    op.u.execute.count = count;
    op.u.execute.command_buffers = malloc(count * sizeof(VkCommandBuffer));
    op.u.execute.allocators = malloc(count * sizeof(*op.u.execute.allocators));
    op.u.execute.host_query_resets = reset_count ? malloc(reset_count * sizeof(struct d3d12_query_reset)) : NULL;
    if (!op.u.execute.command_buffers || !op.u.execute.allocators || (reset_count && !op.u.execute.host_query_resets)) {
        ERR("%s: out of memory; nothing executed", METHOD(ExecuteCommandLists));
        free(op.u.execute.allocators);
        free(op.u.execute.command_buffers);
        free(op.u.execute.host_query_resets);
        return;
    }
    for (UINT i = 0; i < count; i++) {
        list = unsafe_impl_from_ID3D12CommandList(lists[i]);
        op.u.execute.command_buffers[i] = list->vk_command_buffer;
        op.u.execute.allocators[i] = list->allocator;
        ID3D12CommandAllocator_AddRef(&list->allocator->ID3D12CommandAllocator_iface);
        if (list->host_query_reset_count) /* both arrays may be NULL when empty */
            memcpy(op.u.execute.host_query_resets + op.u.execute.host_query_reset_count, list->host_query_resets,
                    list->host_query_reset_count * sizeof(*list->host_query_resets));
        op.u.execute.host_query_reset_count += list->host_query_reset_count;
    }
    if (FAILED(d3d12_queue_enqueue(queue, &op, &serial)))
        return;
    for (UINT i = 0; i < count; i++) {
        list = unsafe_impl_from_ID3D12CommandList(lists[i]);
        d3d12_command_allocator_note_submission(list->allocator, queue, serial);
    }
}

static void STDMETHODCALLTYPE d3d12_command_queue_SetMarker(ID3D12CommandQueue *iface, UINT metadata, const void *data, UINT size)
{
    /* PIX markers: nothing to do without a capture tool. */
    (void)iface, (void)metadata, (void)data, (void)size;
}

static void STDMETHODCALLTYPE d3d12_command_queue_BeginEvent(ID3D12CommandQueue *iface, UINT metadata, const void *data, UINT size)
{
    (void)iface, (void)metadata, (void)data, (void)size;
}

static void STDMETHODCALLTYPE d3d12_command_queue_EndEvent(ID3D12CommandQueue *iface)
{
    (void)iface;
}

static HRESULT enqueue_fence_op(struct d3d12_command_queue *queue, const char *method, enum d3d12_queue_op_type type,
        ID3D12Fence *fence_iface, UINT64 value)
{
    struct d3d12_device *device = queue->object.device;
    struct d3d12_queue_op op = {.type = type};
    struct d3d12_fence *fence;
    HRESULT hr;

    if (!(fence = unsafe_impl_from_ID3D12Fence(fence_iface)))
        return d3d12xs_fail(E_INVALIDARG, method, "pFence is %s (must be a fence from CreateFence)", fence_iface ? "not a d3d12xs fence" : "NULL");
    if (fence->object.device != device)
        return d3d12xs_fail(E_INVALIDARG, method, "pFence belongs to another device");
    if ((hr = d3d12_device_removed_reason(device)) != S_OK)
        return hr;
    ID3D12Fence_AddRef(fence_iface);
    op.u.fence.fence = fence;
    op.u.fence.value = value;
    return d3d12_queue_enqueue(queue, &op, NULL);
}

static HRESULT STDMETHODCALLTYPE d3d12_command_queue_Signal(ID3D12CommandQueue *iface, ID3D12Fence *fence, UINT64 value)
{
    return enqueue_fence_op(impl_from_ID3D12CommandQueue(iface), METHOD(Signal), D3D12_QUEUE_OP_SIGNAL, fence, value);
}

static HRESULT STDMETHODCALLTYPE d3d12_command_queue_Wait(ID3D12CommandQueue *iface, ID3D12Fence *fence, UINT64 value)
{
    return enqueue_fence_op(impl_from_ID3D12CommandQueue(iface), METHOD(Wait), D3D12_QUEUE_OP_WAIT, fence, value);
}

static HRESULT STDMETHODCALLTYPE d3d12_command_queue_GetTimestampFrequency(ID3D12CommandQueue *iface, UINT64 *frequency)
{
    struct d3d12_command_queue *queue = impl_from_ID3D12CommandQueue(iface);
    struct d3d12_device *device = queue->object.device;

    if (!frequency)
        return d3d12xs_fail(E_INVALIDARG, METHOD(GetTimestampFrequency), "pFrequency is NULL (must receive ticks per second)");
    if (!device->queue_map[queue->desc.Type].timestamps)
        return d3d12xs_fail(E_FAIL, METHOD(GetTimestampFrequency), "the Vulkan queue family of this %s queue has no timestamps",
                list_type_name(queue->desc.Type));
    *frequency = (UINT64)(1e9 / device->vk_properties.limits.timestampPeriod + 0.5);
    return S_OK;
}

static HRESULT STDMETHODCALLTYPE d3d12_command_queue_GetClockCalibration(ID3D12CommandQueue *iface, UINT64 *gpu_timestamp, UINT64 *cpu_timestamp)
{
    struct d3d12_command_queue *queue = impl_from_ID3D12CommandQueue(iface);
    struct d3d12_device *device = queue->object.device;
    VkCalibratedTimestampInfoEXT infos[2] = {
        {.sType = VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, .timeDomain = VK_TIME_DOMAIN_DEVICE_EXT},
        {.sType = VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, .timeDomain = VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT},
    };
    uint64_t timestamps[2], deviation;
    VkResult vr;

    if (!gpu_timestamp || !cpu_timestamp)
        return d3d12xs_fail(E_INVALIDARG, METHOD(GetClockCalibration), "%s is NULL (both timestamps must be received)",
                gpu_timestamp ? "pCpuTimestamp" : "pGpuTimestamp");
    if (!device->has_calibrated_timestamps)
        return d3d12xs_fail(E_FAIL, METHOD(GetClockCalibration), "the Vulkan device lacks VK_EXT_calibrated_timestamps");
    if ((vr = device->vkGetCalibratedTimestampsEXT(device->vk_device, 2, infos, timestamps, &deviation)) != VK_SUCCESS)
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), METHOD(GetClockCalibration), "vkGetCalibratedTimestampsEXT failed (VkResult %d)", vr);
    /* The CPU side is in QueryPerformanceCounter units: CLOCK_MONOTONIC nanoseconds. */
    *gpu_timestamp = timestamps[0];
    *cpu_timestamp = timestamps[1];
    return S_OK;
}

static D3D12_COMMAND_QUEUE_DESC STDMETHODCALLTYPE d3d12_command_queue_GetDesc(ID3D12CommandQueue *iface)
{
    return impl_from_ID3D12CommandQueue(iface)->desc;
}

#if defined(__clang__)
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Woverride-init"
#endif

static const ID3D12CommandQueueVtbl d3d12_command_queue_vtbl = {
    D3D12XS_STUB_VTBL_ID3D12CommandQueue,
    .QueryInterface = d3d12_command_queue_QueryInterface,
    D3D12XS_DEVICE_CHILD_VTBL_ENTRIES(d3d12_command_queue),
    .Release = d3d12_command_queue_Release,
    .ExecuteCommandLists = d3d12_command_queue_ExecuteCommandLists,
    .SetMarker = d3d12_command_queue_SetMarker,
    .BeginEvent = d3d12_command_queue_BeginEvent,
    .EndEvent = d3d12_command_queue_EndEvent,
    .Signal = d3d12_command_queue_Signal,
    .Wait = d3d12_command_queue_Wait,
    .GetTimestampFrequency = d3d12_command_queue_GetTimestampFrequency,
    .GetClockCalibration = d3d12_command_queue_GetClockCalibration,
    .GetDesc = d3d12_command_queue_GetDesc,
};

struct d3d12_command_queue *unsafe_impl_from_ID3D12CommandQueue(ID3D12CommandQueue *iface)
{
    if (!iface || iface->lpVtbl != &d3d12_command_queue_vtbl)
        return NULL;
    return impl_from_ID3D12CommandQueue(iface);
}

HRESULT d3d12_command_queue_create(struct d3d12_device *device, const D3D12_COMMAND_QUEUE_DESC *desc, REFIID riid, void **out)
{
    static const char method[] = "ID3D12Device::CreateCommandQueue";
    struct d3d12_queue_family_map *map = &device->queue_map[desc->Type];
    struct d3d12_command_queue *queue;
    VkSemaphoreTypeCreateInfo type_info = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
        .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
    };
    VkSemaphoreCreateInfo create_info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type_info};
    VkResult vr;
    HRESULT hr;

    if (!(queue = calloc(1, sizeof(*queue))))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the queue");
    queue->ID3D12CommandQueue_iface.lpVtbl = &d3d12_command_queue_vtbl;
    d3d12xs_object_init(&queue->object, device);
    queue->desc = *desc;
    if (!queue->desc.NodeMask)
        queue->desc.NodeMask = 1;
    queue->vk_family = map->family;
    queue->transfer_only = !map->supports_compute;
    if ((vr = vkCreateSemaphore(device->vk_device, &create_info, NULL, &queue->serial_semaphore)) != VK_SUCCESS) {
        hr = d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "vkCreateSemaphore failed (VkResult %d)", vr);
        ID3D12CommandQueue_Release(&queue->ID3D12CommandQueue_iface);
        return hr;
    }
    pthread_mutex_lock(&device->submit_lock);
    /* D3D12 queues beyond the family's VkQueue count share VkQueues, round-robin. */
    queue->vk_queue = map->vk_queues[map->next_vk_queue++ % map->vk_queue_count];
    pthread_mutex_unlock(&device->submit_lock);
    d3d12_device_register_queue(device, queue);

    hr = ID3D12CommandQueue_QueryInterface(&queue->ID3D12CommandQueue_iface, riid, out);
    ID3D12CommandQueue_Release(&queue->ID3D12CommandQueue_iface);
    return hr;
}
