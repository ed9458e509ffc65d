/* ID3D12Device: creation, queue-family mapping and the factory methods. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/device.h"
#include "device/gpu_clock.h"
#include "device/vk_device_create.h"
#include "memory/allocator.h"
#include "memory/resource.h"
#include "memory/va_map.h"
#include "memory/graphics_memory.h"
#include "descriptors/descriptors.h"
#include "descriptors/descriptor_buffer.h"
#include "descriptors/root_signature.h"
#include "pipelines/pipeline_state.h"
#include "pipelines/graphics_pipeline.h"
#include "sync/fence.h"
#include "sync/gpu_wait.h"
#include "commands/system_timestamp.h"
#include "commands/predication.h"
#include "commands/command_list_generated.h"
#include "commands/resolve_pass.h"
#include "commands/indirect_cap.h"
#include "commands/indirect_image.h"
#include "commands/query_views.h"
#include "commands/console_validation.h"
#include "sync/scheduler.h"
#include "sync/waiter.h"
#include "trace/trace.h"
#include "frontends/shader_helper.h"
#include "commands/command_allocator.h"
#include "commands/command_queue.h"
#include "commands/command_list_state.h"
#include "commands/command_bundle.h"
#include "commands/query_heap.h"
#include "commands/command_signature.h"
#include "generated/d3d12_stubs.h"
#include "api/device_versions.h"
#include "api/process_exit.h"

#define METHOD(name) "ID3D12Device::" #name

/* ---- IUnknown ---- */

/* Every version answers with the one pointer: the vtable is ID3D12Device14's, whose slots include
 * every earlier version's; the console table follows them all (d3d12_xs.h), so no version's slot
 * collides with it and no second interface pointer is needed. */
static HRESULT STDMETHODCALLTYPE d3d12_device_QueryInterface(ID3D12Device14 *iface, REFIID riid, void **object)
{
    static const IID *const iids[] = {&IID_ID3D12Device14, &IID_ID3D12Device13, &IID_ID3D12Device12, &IID_ID3D12Device11,
            &IID_ID3D12Device10, &IID_ID3D12Device9, &IID_ID3D12Device8, &IID_ID3D12Device7, &IID_ID3D12Device6, &IID_ID3D12Device5,
            &IID_ID3D12Device4, &IID_ID3D12Device3, &IID_ID3D12Device2, &IID_ID3D12Device1, &IID_ID3D12Device,
            &IID_ID3D12Object, &IID_IUnknown, NULL};
    return d3d12xs_query_interface(iface, METHOD(QueryInterface), iids, riid, object);
}

D3D12XS_OBJECT_METHODS(d3d12_device, ID3D12Device14, impl_from_ID3D12Device14, "ID3D12Device")

static void d3d12_device_destroy(struct d3d12_device *device)
{
    /* taken down at the process's exit already: its Vulkan objects are gone, the process ends */
    if (!d3d12xs_exit_untrack(device))
        return;
    /* First, so that a concurrent VirtualFree never retires through the scheduler going below. */
    d3d12xs_graphics_memory_remove_device(device);
    d3d12_waiter_destroy(device);
    d3d12_scheduler_destroy(device);
    if (device->vk_device) {
        d3d12xs_sampler_cache_cleanup(device);
        d3d12xs_descriptor_buffers_cleanup(device);
        if (device->null_memory)
            d3d12xs_free_buffer(device, &device->null_buffer, device->null_memory);
    }
    if (device->vk_device) {
        if (d3d12_device_removed_reason(device) == S_OK)
            vkDeviceWaitIdle(device->vk_device);
        d3d12_gpu_waits_destroy(device);
        d3d12_system_timestamps_destroy(device);
        d3d12_predicate_fold_destroy(device);
        d3d12_resolve_pass_destroy(device);
        d3d12_indirect_cap_destroy(device);
        d3d12_indirect_translate_destroy(device);
        d3d12_indirect_image_destroy(device);
        d3d12_query_sum_destroy(device);
        d3d12xs_gpu_clock_destroy(device);
        d3d12_console_validation_destroy(device);
        d3d12xs_va_map_release_gpu(device);
        /* Last before the VkDevice: everything that allocates memory is gone by now. */
        d3d12xs_allocator_cleanup(device);
        vkDestroyDevice(device->vk_device, NULL);
    }
    d3d12xs_instance_destroy(device);
    d3d12xs_allocator_cleanup(device); /* only its memory is left: the VkDevice never came */
    free(device->null_memory);
    d3d12xs_sampler_cache_cleanup(device); /* only its memory is left: the VkDevice never came */
    d3d12xs_pipeline_table_cleanup(device); /* empty: every pipeline state held the device */
    d3d12xs_descriptor_heap_registry_cleanup(device);
    d3d12xs_va_map_cleanup(device);
    d3d12xs_object_cleanup(&device->object);
    free(device);
}

/* At the process's exit with the device alive (api/process_exit.h): its thread stopped, its
 * submitted work finished, and its VkDevice and instance destroyed before the driver's own
 * teardown. Whatever else it holds is left to the process's end. */
static void take_down_at_exit(void *owner)
{
    struct d3d12_device *device = owner;

    if (device->config.debug == D3D12XS_CONFIG_ON)
        WARN("the process exits with device %p alive (never released): its Vulkan device is taken down now", (void *)device);
    d3d12_waiter_destroy(device);
    if (device->vk_device) {
        if (d3d12_device_removed_reason(device) == S_OK)
            vkDeviceWaitIdle(device->vk_device);
        vkDestroyDevice(device->vk_device, NULL);
        device->vk_device = VK_NULL_HANDLE;
    }
    d3d12xs_instance_destroy(device);
}

static ULONG STDMETHODCALLTYPE d3d12_device_Release(ID3D12Device14 *iface)
{
    struct d3d12_device *device = impl_from_ID3D12Device14(iface);
    unsigned refcount = d3d12xs_object_release(&device->object);
    if (!refcount && !d3d12xs_exit_torn_down())
        d3d12_device_destroy(device);
    return refcount;
}

/* ---- ID3D12Object ---- */

/* ---- ID3D12Device ---- */

static UINT STDMETHODCALLTYPE d3d12_device_GetNodeCount(ID3D12Device14 *iface)
{
    (void)iface;
    return 1;
}

static HRESULT STDMETHODCALLTYPE d3d12_device_CreateCommandQueue(ID3D12Device14 *iface, const D3D12_COMMAND_QUEUE_DESC *desc, REFIID riid, void **queue)
{
    HRESULT hr;
    D3D12XS_RETURN_IF_REMOVED(impl_from_ID3D12Device14(iface), METHOD(CreateCommandQueue), queue);
    if (queue)
        *queue = NULL;
    if (!desc)
        return d3d12xs_fail(E_INVALIDARG, METHOD(CreateCommandQueue), "pDesc is NULL (must describe the queue)");
    if (FAILED(hr = d3d12_device_check_queue_type(METHOD(CreateCommandQueue), "pDesc->Type", desc->Type)))
        return hr;
    if (desc->Flags & ~D3D12_COMMAND_QUEUE_FLAG_DISABLE_GPU_TIMEOUT)
        return d3d12xs_fail(E_INVALIDARG, METHOD(CreateCommandQueue), "pDesc->Flags is 0x%x (only DISABLE_GPU_TIMEOUT is defined)", desc->Flags);
    if (desc->Priority != D3D12_COMMAND_QUEUE_PRIORITY_NORMAL && desc->Priority != D3D12_COMMAND_QUEUE_PRIORITY_HIGH
            && desc->Priority != D3D12_COMMAND_QUEUE_PRIORITY_GLOBAL_REALTIME)
        return d3d12xs_fail(E_INVALIDARG, METHOD(CreateCommandQueue), "pDesc->Priority is %d (must be NORMAL, HIGH or GLOBAL_REALTIME)", desc->Priority);
    if (FAILED(hr = d3d12_device_check_node_mask(METHOD(CreateCommandQueue), "pDesc->NodeMask", desc->NodeMask)))
        return hr;
    if (!riid)
        return d3d12xs_fail(E_INVALIDARG, METHOD(CreateCommandQueue), "riid is NULL (must name the queue interface)");
    if (!queue)
        return d3d12xs_fail(E_POINTER, METHOD(CreateCommandQueue), "ppCommandQueue is NULL (must receive the queue)");
    return d3d12_command_queue_create(impl_from_ID3D12Device14(iface), desc, -1, METHOD(CreateCommandQueue), riid, queue);
}

/* The console's queue creation: a type (DMA is COPY), flags, and which engine or pipe and which
 * queue of it. Distinct (pipe, queue) pairs take distinct VkQueues of the family where it has
 * enough; PRIORITY_LOW is accepted (Vulkan queue priorities are fixed at device creation). */
static HRESULT STDMETHODCALLTYPE d3d12_device_CreateCommandQueueX(ID3D12Device *iface, const D3D12XBOX_COMMAND_QUEUE_DESC *desc_x, REFIID riid,
        void **queue)
{
    static const char method[] = "ID3D12Device::CreateCommandQueueX";
    D3D12_COMMAND_QUEUE_DESC desc;
    HRESULT hr;
    D3D12XS_RETURN_IF_REMOVED(impl_from_ID3D12Device(iface), method, queue);

    if (queue)
        *queue = NULL;
    if (!desc_x)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc is NULL (must describe the queue)");
    if (FAILED(hr = d3d12_device_check_queue_type(method, "pDesc->Type", desc_x->Type)))
        return hr;
    if (desc_x->Flags & ~(D3D12_COMMAND_QUEUE_FLAG_DISABLE_GPU_TIMEOUT | D3D12XBOX_COMMAND_QUEUE_FLAG_PRIORITY_LOW))
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Flags is 0x%x (DISABLE_GPU_TIMEOUT and PRIORITY_LOW are defined)", desc_x->Flags);
    if (desc_x->EngineOrPipeIndex > 63 || desc_x->QueueIndex > 63)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->EngineOrPipeIndex %u / QueueIndex %u is out of range (at most 63)",
                desc_x->EngineOrPipeIndex, desc_x->QueueIndex);
    if (!riid)
        return d3d12xs_fail(E_INVALIDARG, method, "riid is NULL (must name the queue interface)");
    if (!queue)
        return d3d12xs_fail(E_POINTER, method, "ppCommandQueue is NULL (must receive the queue)");
    memset(&desc, 0, sizeof(desc));
    desc.Type = desc_x->Type;
    desc.Flags = desc_x->Flags & D3D12_COMMAND_QUEUE_FLAG_DISABLE_GPU_TIMEOUT;
    desc.Priority = D3D12_COMMAND_QUEUE_PRIORITY_NORMAL;
    return d3d12_command_queue_create(impl_from_ID3D12Device(iface), &desc, (int)(desc_x->EngineOrPipeIndex * 8 + desc_x->QueueIndex), method,
            riid, queue);
}

static HRESULT STDMETHODCALLTYPE d3d12_device_CreateComputePipelineStateX(ID3D12Device *iface, const D3D12_COMPUTE_PIPELINE_STATE_DESC *desc,
        UINT extension_count, const D3D12XBOX_EXTENDED_COMPUTE_PIPELINE_STATE_DESC *extensions, REFIID riid, void **pipeline_state)
{
    D3D12XS_RETURN_IF_REMOVED(impl_from_ID3D12Device(iface), "ID3D12Device::CreateComputePipelineStateX", pipeline_state);
    return d3d12_pipeline_state_create_compute_x(impl_from_ID3D12Device(iface), desc, extension_count, extensions, riid, pipeline_state);
}

#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
#endif
static const D3D12XS_ID3D12DeviceConsoleVtbl d3d12_device_console_vtbl = {
    D3D12XS_STUB_CONSOLE_VTBL_ID3D12Device,
    .CreateCommandQueueX = d3d12_device_CreateCommandQueueX,
    .CreateComputePipelineStateX = d3d12_device_CreateComputePipelineStateX,
};
#if defined(__clang__)
#pragma clang diagnostic pop
#elif defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

static HRESULT STDMETHODCALLTYPE d3d12_device_CreateCommandAllocator(ID3D12Device14 *iface, D3D12_COMMAND_LIST_TYPE type, REFIID riid, void **allocator)
{
    HRESULT hr;
    D3D12XS_RETURN_IF_REMOVED(impl_from_ID3D12Device14(iface), METHOD(CreateCommandAllocator), allocator);
    if (allocator)
        *allocator = NULL;
    if (FAILED(hr = d3d12_device_check_list_type(METHOD(CreateCommandAllocator), "type", type)))
        return hr;
    if (!riid)
        return d3d12xs_fail(E_INVALIDARG, METHOD(CreateCommandAllocator), "riid is NULL (must name the allocator interface)");
    if (!allocator)
        return d3d12xs_fail(E_POINTER, METHOD(CreateCommandAllocator), "ppCommandAllocator is NULL (must receive the allocator)");
    return d3d12_command_allocator_create(impl_from_ID3D12Device14(iface), type, riid, allocator);
}

static HRESULT STDMETHODCALLTYPE d3d12_device_CreateCommandList(ID3D12Device14 *iface, UINT node_mask, D3D12_COMMAND_LIST_TYPE type,
        ID3D12CommandAllocator *allocator, ID3D12PipelineState *initial_state, REFIID riid, void **list)
{
    HRESULT hr;
    D3D12XS_RETURN_IF_REMOVED(impl_from_ID3D12Device14(iface), METHOD(CreateCommandList), list);
    if (list)
        *list = NULL;
    if (FAILED(hr = d3d12_device_check_node_mask(METHOD(CreateCommandList), "nodeMask", node_mask)))
        return hr;
    if (FAILED(hr = d3d12_device_check_list_type(METHOD(CreateCommandList), "type", type)))
        return hr;
    if (!allocator)
        return d3d12xs_fail(E_INVALIDARG, METHOD(CreateCommandList), "pCommandAllocator is NULL (must be an allocator of the same type)");
    if (!riid)
        return d3d12xs_fail(E_INVALIDARG, METHOD(CreateCommandList), "riid is NULL (must name the command list interface)");
    if (!list)
        return d3d12xs_fail(E_POINTER, METHOD(CreateCommandList), "ppCommandList is NULL (must receive the list)");
    if (type == D3D12_COMMAND_LIST_TYPE_BUNDLE)
        return d3d12_bundle_create(impl_from_ID3D12Device14(iface), allocator, initial_state, riid, list);
    return d3d12_command_list_create(impl_from_ID3D12Device14(iface), type, allocator, initial_state, riid, list);
}

static HRESULT STDMETHODCALLTYPE d3d12_device_CheckFeatureSupport(ID3D12Device14 *iface, D3D12_FEATURE feature, void *data, UINT size)
{
    return d3d12_device_check_feature_support(impl_from_ID3D12Device14(iface), feature, data, size);
}

static D3D12_HEAP_PROPERTIES STDMETHODCALLTYPE d3d12_device_GetCustomHeapProperties(ID3D12Device14 *iface, UINT node_mask, D3D12_HEAP_TYPE type)
{
    struct d3d12_device *device = impl_from_ID3D12Device14(iface);
    D3D12_HEAP_PROPERTIES properties = {D3D12_HEAP_TYPE_CUSTOM, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    bool uma = device->vk_properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU
            || device->vk_properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU;

    (void)node_mask;
    switch (type) {
    case D3D12_HEAP_TYPE_DEFAULT:
        properties.CPUPageProperty = D3D12_CPU_PAGE_PROPERTY_NOT_AVAILABLE;
        properties.MemoryPoolPreference = uma ? D3D12_MEMORY_POOL_L0 : D3D12_MEMORY_POOL_L1;
        break;
    case D3D12_HEAP_TYPE_UPLOAD:
        properties.CPUPageProperty = uma ? D3D12_CPU_PAGE_PROPERTY_WRITE_BACK : D3D12_CPU_PAGE_PROPERTY_WRITE_COMBINE;
        properties.MemoryPoolPreference = D3D12_MEMORY_POOL_L0;
        break;
    case D3D12_HEAP_TYPE_READBACK:
        properties.CPUPageProperty = D3D12_CPU_PAGE_PROPERTY_WRITE_BACK;
        properties.MemoryPoolPreference = D3D12_MEMORY_POOL_L0;
        break;
    default:
        ERR("%s: heapType is %d (must be DEFAULT, UPLOAD or READBACK)", METHOD(GetCustomHeapProperties), (int)type);
        break;
    }
    return properties;
}

static HRESULT STDMETHODCALLTYPE d3d12_device_CreateCommittedResource(ID3D12Device14 *iface, const D3D12_HEAP_PROPERTIES *heap_properties,
        D3D12_HEAP_FLAGS heap_flags, const D3D12_RESOURCE_DESC *desc, D3D12_RESOURCE_STATES initial_state,
        const D3D12_CLEAR_VALUE *optimized_clear_value, REFIID riid, void **resource)
{
    D3D12XS_RETURN_IF_REMOVED(impl_from_ID3D12Device14(iface), METHOD(CreateCommittedResource), resource);
    return d3d12_resource_create_committed(impl_from_ID3D12Device14(iface), heap_properties, heap_flags, desc, initial_state,
            optimized_clear_value, riid, resource);
}



static HRESULT STDMETHODCALLTYPE d3d12_device_CreateHeap(ID3D12Device14 *iface, const D3D12_HEAP_DESC *desc, REFIID riid, void **heap)
{
    D3D12XS_RETURN_IF_REMOVED(impl_from_ID3D12Device14(iface), METHOD(CreateHeap), heap);
    return d3d12_heap_create(impl_from_ID3D12Device14(iface), desc, riid, heap);
}

static HRESULT STDMETHODCALLTYPE d3d12_device_CreatePlacedResource(ID3D12Device14 *iface, ID3D12Heap *heap, UINT64 heap_offset,
        const D3D12_RESOURCE_DESC *desc, D3D12_RESOURCE_STATES initial_state, const D3D12_CLEAR_VALUE *optimized_clear_value,
        REFIID riid, void **resource)
{
    D3D12XS_RETURN_IF_REMOVED(impl_from_ID3D12Device14(iface), METHOD(CreatePlacedResource), resource);
    return d3d12_resource_create_placed(impl_from_ID3D12Device14(iface), heap, heap_offset, desc, initial_state,
            optimized_clear_value, riid, resource);
}

static HRESULT STDMETHODCALLTYPE d3d12_device_CreateReservedResource(ID3D12Device14 *iface, const D3D12_RESOURCE_DESC *desc,
        D3D12_RESOURCE_STATES initial_state, const D3D12_CLEAR_VALUE *optimized_clear_value, REFIID riid, void **resource)
{
    (void)iface;
    (void)initial_state;
    return d3d12_resource_create_reserved(METHOD(CreateReservedResource), desc, optimized_clear_value, riid, resource);
}

static HRESULT STDMETHODCALLTYPE d3d12_device_MakeResident(ID3D12Device14 *iface, UINT count, ID3D12Pageable *const *objects)
{
    (void)iface;
    if (count && !objects)
        return d3d12xs_fail(E_INVALIDARG, METHOD(MakeResident), "ppObjects is NULL with NumObjects %u", count);
    return S_OK; /* Vulkan memory is always resident. */
}

static HRESULT STDMETHODCALLTYPE d3d12_device_Evict(ID3D12Device14 *iface, UINT count, ID3D12Pageable *const *objects)
{
    (void)iface;
    if (count && !objects)
        return d3d12xs_fail(E_INVALIDARG, METHOD(Evict), "ppObjects is NULL with NumObjects %u", count);
    return S_OK;
}


static HRESULT STDMETHODCALLTYPE d3d12_device_CreateFence(ID3D12Device14 *iface, UINT64 initial_value, D3D12_FENCE_FLAGS flags, REFIID riid, void **fence)
{
    D3D12XS_RETURN_IF_REMOVED(impl_from_ID3D12Device14(iface), METHOD(CreateFence), fence);
    if (fence)
        *fence = NULL;
    if (flags & ~(D3D12_FENCE_FLAG_SHARED | D3D12_FENCE_FLAG_SHARED_CROSS_ADAPTER | D3D12_FENCE_FLAG_NON_MONITORED))
        return d3d12xs_fail(E_INVALIDARG, METHOD(CreateFence), "Flags is 0x%x (only SHARED, SHARED_CROSS_ADAPTER, NON_MONITORED are defined)", flags);
    if (flags & (D3D12_FENCE_FLAG_SHARED | D3D12_FENCE_FLAG_SHARED_CROSS_ADAPTER))
        return d3d12xs_fail(E_NOTIMPL, METHOD(CreateFence), "Flags 0x%x asks for a shared fence (sharing is not implemented)", flags);
    if (!fence)
        return S_FALSE; /* D3D12's capability check, whatever riid names: the arguments are valid, nothing is made */
    if (!riid)
        return d3d12xs_fail(E_INVALIDARG, METHOD(CreateFence), "riid is NULL (must name the fence interface)");
    return d3d12_fence_create(impl_from_ID3D12Device14(iface), initial_value, flags, riid, fence);
}

static HRESULT STDMETHODCALLTYPE d3d12_device_CreateDescriptorHeap(ID3D12Device14 *iface, const D3D12_DESCRIPTOR_HEAP_DESC *desc, REFIID riid, void **heap)
{
    D3D12XS_RETURN_IF_REMOVED(impl_from_ID3D12Device14(iface), METHOD(CreateDescriptorHeap), heap);
    return d3d12_descriptor_heap_create(impl_from_ID3D12Device14(iface), desc, riid, heap);
}

static UINT STDMETHODCALLTYPE d3d12_device_GetDescriptorHandleIncrementSize(ID3D12Device14 *iface, D3D12_DESCRIPTOR_HEAP_TYPE type)
{
    return d3d12_device_get_descriptor_increment(impl_from_ID3D12Device14(iface), type);
}

static void STDMETHODCALLTYPE d3d12_device_CreateConstantBufferView(ID3D12Device14 *iface, const D3D12_CONSTANT_BUFFER_VIEW_DESC *desc,
        D3D12_CPU_DESCRIPTOR_HANDLE handle)
{
    d3d12_device_create_constant_buffer_view(impl_from_ID3D12Device14(iface), desc, handle);
}

static void STDMETHODCALLTYPE d3d12_device_CreateShaderResourceView(ID3D12Device14 *iface, ID3D12Resource *resource,
        const D3D12_SHADER_RESOURCE_VIEW_DESC *desc, D3D12_CPU_DESCRIPTOR_HANDLE handle)
{
    d3d12_device_create_shader_resource_view(impl_from_ID3D12Device14(iface), resource, desc, handle);
}

static void STDMETHODCALLTYPE d3d12_device_CreateRenderTargetView(ID3D12Device14 *iface, ID3D12Resource *resource,
        const D3D12_RENDER_TARGET_VIEW_DESC *desc, D3D12_CPU_DESCRIPTOR_HANDLE handle)
{
    d3d12_device_create_render_target_view(impl_from_ID3D12Device14(iface), resource, desc, handle);
}

static void STDMETHODCALLTYPE d3d12_device_CreateDepthStencilView(ID3D12Device14 *iface, ID3D12Resource *resource,
        const D3D12_DEPTH_STENCIL_VIEW_DESC *desc, D3D12_CPU_DESCRIPTOR_HANDLE handle)
{
    d3d12_device_create_depth_stencil_view(impl_from_ID3D12Device14(iface), resource, desc, handle);
}

static void STDMETHODCALLTYPE d3d12_device_CreateUnorderedAccessView(ID3D12Device14 *iface, ID3D12Resource *resource,
        ID3D12Resource *counter, const D3D12_UNORDERED_ACCESS_VIEW_DESC *desc, D3D12_CPU_DESCRIPTOR_HANDLE handle)
{
    d3d12_device_create_unordered_access_view(impl_from_ID3D12Device14(iface), resource, counter, desc, handle);
}

static void STDMETHODCALLTYPE d3d12_device_CreateSampler(ID3D12Device14 *iface, const D3D12_SAMPLER_DESC *desc, D3D12_CPU_DESCRIPTOR_HANDLE handle)
{
    d3d12_device_create_sampler(impl_from_ID3D12Device14(iface), desc, handle);
}

static void STDMETHODCALLTYPE d3d12_device_CopyDescriptors(ID3D12Device14 *iface, UINT dst_range_count,
        const D3D12_CPU_DESCRIPTOR_HANDLE *dst_starts, const UINT *dst_sizes, UINT src_range_count,
        const D3D12_CPU_DESCRIPTOR_HANDLE *src_starts, const UINT *src_sizes, D3D12_DESCRIPTOR_HEAP_TYPE type)
{
    d3d12_device_copy_descriptors(impl_from_ID3D12Device14(iface), dst_range_count, dst_starts, dst_sizes, src_range_count,
            src_starts, src_sizes, type);
}

static void STDMETHODCALLTYPE d3d12_device_CopyDescriptorsSimple(ID3D12Device14 *iface, UINT count,
        D3D12_CPU_DESCRIPTOR_HANDLE dst, D3D12_CPU_DESCRIPTOR_HANDLE src, D3D12_DESCRIPTOR_HEAP_TYPE type)
{
    d3d12_device_copy_descriptors_simple(impl_from_ID3D12Device14(iface), count, dst, src, type);
}

static HRESULT STDMETHODCALLTYPE d3d12_device_CreateRootSignature(ID3D12Device14 *iface, UINT node_mask, const void *blob, SIZE_T size,
        REFIID riid, void **root_signature)
{
    D3D12XS_RETURN_IF_REMOVED(impl_from_ID3D12Device14(iface), METHOD(CreateRootSignature), root_signature);
    return d3d12_root_signature_create(impl_from_ID3D12Device14(iface), node_mask, blob, size, riid, root_signature);
}

static HRESULT STDMETHODCALLTYPE d3d12_device_CreateComputePipelineState(ID3D12Device14 *iface, const D3D12_COMPUTE_PIPELINE_STATE_DESC *desc,
        REFIID riid, void **pipeline_state)
{
    D3D12XS_RETURN_IF_REMOVED(impl_from_ID3D12Device14(iface), METHOD(CreateComputePipelineState), pipeline_state);
    return d3d12_pipeline_state_create_compute(impl_from_ID3D12Device14(iface), desc, riid, pipeline_state);
}

static HRESULT STDMETHODCALLTYPE d3d12_device_CreateGraphicsPipelineState(ID3D12Device14 *iface, const D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc,
        REFIID riid, void **pipeline_state)
{
    D3D12XS_RETURN_IF_REMOVED(impl_from_ID3D12Device14(iface), METHOD(CreateGraphicsPipelineState), pipeline_state);
    return d3d12_graphics_pipeline_create_from_desc(impl_from_ID3D12Device14(iface), desc, riid, pipeline_state);
}

static HRESULT STDMETHODCALLTYPE d3d12_device_GetDeviceRemovedReason(ID3D12Device14 *iface)
{
    return d3d12_device_removed_reason(impl_from_ID3D12Device14(iface));
}

static HRESULT STDMETHODCALLTYPE d3d12_device_CreateQueryHeap(ID3D12Device14 *iface, const D3D12_QUERY_HEAP_DESC *desc, REFIID riid, void **heap)
{
    D3D12XS_RETURN_IF_REMOVED(impl_from_ID3D12Device14(iface), METHOD(CreateQueryHeap), heap);
    return d3d12_query_heap_create(impl_from_ID3D12Device14(iface), desc, riid, heap);
}

static HRESULT STDMETHODCALLTYPE d3d12_device_CreateCommandSignature(ID3D12Device14 *iface, const D3D12_COMMAND_SIGNATURE_DESC *desc,
        ID3D12RootSignature *root_signature, REFIID riid, void **signature)
{
    D3D12XS_RETURN_IF_REMOVED(impl_from_ID3D12Device14(iface), METHOD(CreateCommandSignature), signature);
    return d3d12_command_signature_create(impl_from_ID3D12Device14(iface), desc, root_signature, riid, signature);
}

static HRESULT STDMETHODCALLTYPE d3d12_device_SetStablePowerState(ID3D12Device14 *iface, BOOL enable)
{
    (void)iface;
    INFO("%s(%d): Vulkan has no stable power state; clocks are left as they are", METHOD(SetStablePowerState), enable);
    return S_OK;
}

static LUID STDMETHODCALLTYPE d3d12_device_GetAdapterLuid(ID3D12Device14 *iface)
{
    struct d3d12_device *device = impl_from_ID3D12Device14(iface);
    LUID luid;
    /* No DXGI here: the luid is derived from the Vulkan vendor and device ids. */
    luid.LowPart = device->vk_properties.deviceID;
    luid.HighPart = (LONG)device->vk_properties.vendorID;
    return luid;
}

#if defined(__clang__)
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Woverride-init"
#endif

static const ID3D12Device14Vtbl d3d12_device_vtbl = {
    D3D12XS_STUB_VTBL_ID3D12Device14,
    .QueryInterface = d3d12_device_QueryInterface,
    D3D12XS_OBJECT_VTBL_ENTRIES(d3d12_device),
    .Release = d3d12_device_Release,
    .GetNodeCount = d3d12_device_GetNodeCount,
    .CreateCommandQueue = d3d12_device_CreateCommandQueue,
    .CreateCommandAllocator = d3d12_device_CreateCommandAllocator,
    .CreateCommandList = d3d12_device_CreateCommandList,
    .CheckFeatureSupport = d3d12_device_CheckFeatureSupport,
    .GetResourceAllocationInfo = d3d12_device_GetResourceAllocationInfo,
    .GetCustomHeapProperties = d3d12_device_GetCustomHeapProperties,
    .CreateCommittedResource = d3d12_device_CreateCommittedResource,
    .CreateHeap = d3d12_device_CreateHeap,
    .CreatePlacedResource = d3d12_device_CreatePlacedResource,
    .CreateReservedResource = d3d12_device_CreateReservedResource,
    .MakeResident = d3d12_device_MakeResident,
    .Evict = d3d12_device_Evict,
    .CreateFence = d3d12_device_CreateFence,
    .GetDeviceRemovedReason = d3d12_device_GetDeviceRemovedReason,
    .CreateRootSignature = d3d12_device_CreateRootSignature,
    .CreateGraphicsPipelineState = d3d12_device_CreateGraphicsPipelineState,
    .CreateComputePipelineState = d3d12_device_CreateComputePipelineState,
    .CreateDescriptorHeap = d3d12_device_CreateDescriptorHeap,
    .GetDescriptorHandleIncrementSize = d3d12_device_GetDescriptorHandleIncrementSize,
    .CreateConstantBufferView = d3d12_device_CreateConstantBufferView,
    .CreateShaderResourceView = d3d12_device_CreateShaderResourceView,
    .CreateUnorderedAccessView = d3d12_device_CreateUnorderedAccessView,
    .CreateRenderTargetView = d3d12_device_CreateRenderTargetView,
    .CreateDepthStencilView = d3d12_device_CreateDepthStencilView,
    .CreateSampler = d3d12_device_CreateSampler,
    .CopyDescriptors = d3d12_device_CopyDescriptors,
    .CopyDescriptorsSimple = d3d12_device_CopyDescriptorsSimple,
    .GetCopyableFootprints = d3d12_device_GetCopyableFootprints,
    .CreateQueryHeap = d3d12_device_CreateQueryHeap,
    .CreateCommandSignature = d3d12_device_CreateCommandSignature,
    .SetStablePowerState = d3d12_device_SetStablePowerState,
    .GetAdapterLuid = d3d12_device_GetAdapterLuid,
    D3D12XS_DEVICE_VERSION_VTBL_ENTRIES,
    .d3d12xs_console = &d3d12_device_console_vtbl,
};

/* ---- creation ---- */

/* A zeroed, host-visible buffer that null descriptors point at, so their reads give 0. */
static HRESULT create_null_buffer(struct d3d12_device *device)
{
    D3D12_HEAP_PROPERTIES properties = {D3D12_HEAP_TYPE_UPLOAD, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    VkBufferCreateInfo buffer_info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = D3D12XS_NULL_BUFFER_SIZE,
        .usage = d3d12xs_buffer_usage(device),
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    HRESULT hr;

    if (!(device->null_memory = calloc(1, sizeof(*device->null_memory))))
        return d3d12xs_fail(E_OUTOFMEMORY, "D3D12CreateDevice", "cannot allocate the null-descriptor buffer");
    if (FAILED(hr = d3d12xs_allocate_buffer(device, &buffer_info, &properties, 0, 0, &device->null_buffer, device->null_memory, "D3D12CreateDevice")))
        return hr;
    return d3d12xs_allocation_zero(device, device->null_memory, "D3D12CreateDevice");
}

/* The VkDevice (device/vk_device_create.c), with the descriptor buffers' extensions and
 * features, then what needs the device: the descriptor buffers' state and the null buffer. */
static HRESULT create_vk_device(struct d3d12_device *device)
{
    struct d3d12xs_vk_device_plan plan;
    struct d3d12xs_descriptor_buffer_features descriptor_buffer_features;
    HRESULT hr;

    if (FAILED(hr = d3d12xs_vk_device_describe(device, &plan))
            || FAILED(hr = d3d12xs_descriptor_buffers_select(device, &descriptor_buffer_features, &plan.enabled.vulkan13.pNext,
                    plan.extensions, &plan.extension_count))
            || FAILED(hr = d3d12xs_vk_device_create(device, &plan))
            || FAILED(hr = d3d12xs_descriptor_buffers_init(device, &descriptor_buffer_features)))
        return hr;
    return create_null_buffer(device);
}

static bool is_known_feature_level(D3D_FEATURE_LEVEL level)
{
    switch (level) {
    case D3D_FEATURE_LEVEL_9_1: case D3D_FEATURE_LEVEL_9_2: case D3D_FEATURE_LEVEL_9_3:
    case D3D_FEATURE_LEVEL_10_0: case D3D_FEATURE_LEVEL_10_1: case D3D_FEATURE_LEVEL_11_0:
    case D3D_FEATURE_LEVEL_11_1: case D3D_FEATURE_LEVEL_12_0: case D3D_FEATURE_LEVEL_12_1:
    case D3D_FEATURE_LEVEL_12_2:
        return true;
    default:
        return false;
    }
}

HRESULT WINAPI D3D12CreateDevice(IUnknown *adapter, D3D_FEATURE_LEVEL minimum_feature_level, REFIID riid, void **out)
{
    static const char method[] = "D3D12CreateDevice";
    struct d3d12_device *device;
    HRESULT hr;

    d3d12xs_log_config_warnings(); /* a refused D3D12XS_* value is news at the first device */
    d3d12xs_trace_start_from_config();
    if (out)
        *out = NULL;
    if (adapter)
        return d3d12xs_fail(E_INVALIDARG, method, "pAdapter is not NULL (DXGI adapters are not implemented: pass NULL, choose with D3D12XS_DEVICE)");
    if (!is_known_feature_level(minimum_feature_level))
        return d3d12xs_fail(E_INVALIDARG, method, "MinimumFeatureLevel is 0x%x (not a D3D_FEATURE_LEVEL)", minimum_feature_level);
    if (minimum_feature_level > D3D_FEATURE_LEVEL_12_1)
        return d3d12xs_fail(DXGI_ERROR_UNSUPPORTED, method, "MinimumFeatureLevel is 0x%x (d3d12xs offers up to 12_1)", minimum_feature_level);
    if (out && !riid) /* a NULL ppDevice asks only whether a device could be made: riid is not read */
        return d3d12xs_fail(E_INVALIDARG, method, "riid is NULL (must be IID_ID3D12Device)");

    if (!(device = calloc(1, sizeof(*device))))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the device");
    device->ID3D12Device14_iface.lpVtbl = &d3d12_device_vtbl;
    d3d12xs_object_init(&device->object, NULL);
    d3d12xs_device_config_init(&device->config);
    atomic_init(&device->removed_reason, S_OK);
    atomic_init(&device->hang_timeout_ms, device->config.hang_timeout_ms);
    atomic_init(&device->validation_message_count, 0);
    atomic_init(&device->outdated_layer_reported, false);
    atomic_init(&device->outdated_generated_commands_reported, false);
    /* The DXBC translator's process starts now, while the device is made, rather than at the
     * first DXBC pipeline (frontends/shader_helper.c). */
    d3d12xs_helper_start_translator();

    if (FAILED(hr = d3d12xs_va_map_init(device))
            || FAILED(hr = d3d12xs_allocator_init(device))
            || FAILED(hr = d3d12xs_descriptor_heap_registry_init(device))
            || FAILED(hr = d3d12xs_sampler_cache_init(device))
            || FAILED(hr = d3d12xs_pipeline_table_init(device))
            || FAILED(hr = d3d12xs_instance_create(device))
            || FAILED(hr = d3d12xs_instance_select_physical_device(device))
            || FAILED(hr = create_vk_device(device))
            || FAILED(hr = d3d12_scheduler_create(device))
            || FAILED(hr = d3d12_waiter_create(device))
            || FAILED(hr = d3d12xs_va_map_init_gpu(device, method))) {
        d3d12_device_destroy(device);
        return hr;
    }
    d3d12_gpu_waits_create(device);
    d3d12xs_gpu_clock_create(device);
    d3d12_system_timestamps_create(device);
    d3d12_predicate_fold_create(device);
    d3d12_resolve_pass_create(device);
    d3d12_indirect_cap_create(device);
    d3d12_indirect_translate_create(device);
    d3d12_indirect_image_create(device);
    d3d12_query_sum_create(device);
    d3d12_console_validation_create(device);
    if (FAILED(hr = d3d12xs_graphics_memory_add_device(device))) {
        d3d12_device_destroy(device);
        return hr;
    }
    /* NVIDIA's driver crashes in its teardown with a device alive (process_exit.h); elsewhere a
     * program that exits while a thread of its own still records keeps its devices as they are */
    if (device->config.exit_teardown == D3D12XS_CONFIG_ON || (device->config.exit_teardown == D3D12XS_CONFIG_UNSET
            && device->vk_driver_properties.driverID == VK_DRIVER_ID_NVIDIA_PROPRIETARY))
        d3d12xs_exit_track(device, take_down_at_exit);
    INFO("device %s: DIRECT family %u, COMPUTE family %u, COPY family %u", device->vk_properties.deviceName,
            device->queue_map[0].family, device->queue_map[2].family, device->queue_map[3].family);

    if (!out) {
        /* D3D12 answers S_FALSE when asked only whether a device could be made. */
        d3d12_device_destroy(device);
        return S_FALSE;
    }
    hr = ID3D12Device14_QueryInterface(&device->ID3D12Device14_iface, riid, out);
    ID3D12Device14_Release(&device->ID3D12Device14_iface);
    if (FAILED(hr))
        d3d12xs_fail(hr, method, "riid names an interface the device does not have (use IID_ID3D12Device ... IID_ID3D12Device14)");
    return hr;
}

/* ---- extensions (d3d12_xs.h) ---- */

static struct d3d12_device *device_from_extension_arg(ID3D12Device *iface, const char *method)
{
    if (!iface || (const void *)iface->lpVtbl != (const void *)&d3d12_device_vtbl) {
        d3d12xs_fail(E_INVALIDARG, method, "device is %s (must be a device made by D3D12CreateDevice)", iface ? "not a d3d12xs device" : "NULL");
        return NULL;
    }
    return impl_from_ID3D12Device(iface);
}

HRESULT D3D12XSGetSyncStatistics(ID3D12Device *iface, D3D12XS_SYNC_STATISTICS *statistics)
{
    struct d3d12_device *device = device_from_extension_arg(iface, "D3D12XSGetSyncStatistics");
    uint64_t on_host, on_gpu;
    if (!device)
        return E_INVALIDARG;
    if (!statistics)
        return d3d12xs_fail(E_INVALIDARG, "D3D12XSGetSyncStatistics", "statistics is NULL (must receive the counts)");
    d3d12_scheduler_memory_wait_counts(device, &on_host, &on_gpu);
    /* Spins exist, DIRECT and COMPUTE queues share one VkQueue (queue order), or they are on
     * different families (the writer queue's serial semaphore). */
    const struct d3d12_queue_family_map *direct = &device->queue_map[D3D12_COMMAND_LIST_TYPE_DIRECT];
    const struct d3d12_queue_family_map *compute = &device->queue_map[D3D12_COMMAND_LIST_TYPE_COMPUTE];
    statistics->GpuMemoryWaitsEnabled = device->gpu_wait_mode != D3D12_GPU_WAITS_OFF
            && (device->gpu_waits || direct->family != compute->family || direct->vk_queue_count == 1);
    statistics->MemoryWaitsOnHost = on_host;
    statistics->MemoryWaitsOnGpu = on_gpu;
    return S_OK;
}

HRESULT D3D12XSGetMemoryStatistics(ID3D12Device *iface, D3D12XS_MEMORY_STATISTICS *statistics)
{
    struct d3d12_device *device = device_from_extension_arg(iface, "D3D12XSGetMemoryStatistics");
    struct d3d12xs_allocator_statistics counts;
    if (!device)
        return E_INVALIDARG;
    if (!statistics)
        return d3d12xs_fail(E_INVALIDARG, "D3D12XSGetMemoryStatistics", "statistics is NULL (must receive the counts)");
    d3d12xs_allocator_get_statistics(device, &counts);
    statistics->DeviceMemoryCount = counts.memory_count;
    statistics->DedicatedMemoryCount = counts.dedicated_count;
    statistics->PeakDeviceMemoryCount = counts.peak_memory_count;
    statistics->AllocationCount = counts.allocation_count;
    statistics->DeviceMemoryBytes = counts.memory_bytes;
    statistics->AllocatedBytes = counts.allocated_bytes;
    statistics->GpuClears = counts.gpu_clears;
    return S_OK;
}

HRESULT D3D12XSGetPipelineLayoutCount(ID3D12Device *iface, UINT64 *count)
{
    struct d3d12_device *device = device_from_extension_arg(iface, "D3D12XSGetPipelineLayoutCount");
    if (!device)
        return E_INVALIDARG;
    if (!count)
        return d3d12xs_fail(E_INVALIDARG, "D3D12XSGetPipelineLayoutCount", "count is NULL (must receive the count)");
    *count = atomic_load(&device->pipeline_layout_count);
    return S_OK;
}

HRESULT D3D12XSGetPipelineStatistics(ID3D12Device *iface, D3D12XS_PIPELINE_STATISTICS *statistics)
{
    struct d3d12_device *device = device_from_extension_arg(iface, "D3D12XSGetPipelineStatistics");
    if (!device)
        return E_INVALIDARG;
    if (!statistics)
        return d3d12xs_fail(E_INVALIDARG, "D3D12XSGetPipelineStatistics", "statistics is NULL (must receive the counts)");
    d3d12xs_pipeline_table_statistics(device, statistics);
    return S_OK;
}

HRESULT D3D12XSGetDeviceInfo(ID3D12Device *iface, D3D12XS_DEVICE_INFO *info)
{
    struct d3d12_device *device = device_from_extension_arg(iface, "D3D12XSGetDeviceInfo");
    static const uint32_t one_thread[3] = {1, 1, 1};
    bool required;
    if (!device)
        return E_INVALIDARG;
    if (!info)
        return d3d12xs_fail(E_INVALIDARG, "D3D12XSGetDeviceInfo", "info is NULL (must receive the description)");
    memset(info, 0, sizeof(*info));
    snprintf(info->DeviceName, sizeof(info->DeviceName), "%s", device->vk_properties.deviceName);
    snprintf(info->DriverName, sizeof(info->DriverName), "%s", device->vk_driver_properties.driverName);
    snprintf(info->DriverInfo, sizeof(info->DriverInfo), "%s", device->vk_driver_properties.driverInfo);
    info->VendorId = device->vk_properties.vendorID;
    info->DeviceId = device->vk_properties.deviceID;
    info->VulkanApiVersion = device->vk_properties.apiVersion;
    info->IsSoftwareRasterizer = device->vk_properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    info->SubgroupSize = device->subgroup_size;
    info->TimestampFrequency = (UINT64)(1e9 / device->vk_properties.limits.timestampPeriod);
    info->ValidationLayerEnabled = device->validation_enabled;
    info->Wave32SubgroupSize = d3d12xs_subgroup_size_for_wave(device, 32, one_thread, &required);
    info->Wave64SubgroupSize = d3d12xs_subgroup_size_for_wave(device, 64, one_thread, &required);
    info->MinSubgroupSize = device->min_subgroup_size;
    info->MaxSubgroupSize = device->max_subgroup_size;
    info->ResourceMinLODClampSupported = device->has_image_view_min_lod;
    info->SlicedUAVsOf3DSupported = device->has_sliced_view_of_3d;
    info->ComputeDerivativeQuadsSupported = device->compute_derivative_quads;
    info->ComputeDerivativeLinearSupported = device->compute_derivative_linear;
    info->ShaderAddressableViewDescriptors = device->descriptor_buffers->capacity[D3D12XS_HEAP_SET_RESOURCES];
    info->ShaderAddressableSamplerDescriptors = device->descriptor_buffers->capacity[D3D12XS_HEAP_SET_SAMPLERS];
    for (int type = 0; type < 4; type++) {
        if (type == D3D12_COMMAND_LIST_TYPE_BUNDLE)
            continue;
        info->Queues[type].VulkanQueueFamily = device->queue_map[type].family;
        info->Queues[type].VulkanQueueCount = device->queue_map[type].vk_queue_count;
        info->Queues[type].SharedFamily = device->queue_map[type].shared;
        info->Queues[type].TimestampsSupported = device->queue_map[type].timestamps;
        info->Queues[type].TransferOnly = !device->queue_map[type].supports_compute;
    }
    return S_OK;
}

HRESULT D3D12XSSetHangTimeout(ID3D12Device *iface, UINT milliseconds)
{
    struct d3d12_device *device = device_from_extension_arg(iface, "D3D12XSSetHangTimeout");
    if (!device)
        return E_INVALIDARG;
    atomic_store(&device->hang_timeout_ms, milliseconds);
    d3d12_waiter_kick(device, false);
    return S_OK;
}

UINT64 D3D12XSGetValidationMessageCount(ID3D12Device *iface)
{
    struct d3d12_device *device = device_from_extension_arg(iface, "D3D12XSGetValidationMessageCount");
    return device ? atomic_load(&device->validation_message_count) : 0;
}
