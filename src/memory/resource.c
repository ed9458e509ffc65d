/* ID3D12Resource: buffers and textures, committed (own memory) or placed (in an ID3D12Heap).
 * What textures do differently is in texture.c. */
#include <stdlib.h>
#include <string.h>

#include "memory/resource.h"
#include "memory/texture.h"
#include "memory/texture_layout.h"
#include "memory/va_map.h"
#include "sync/scheduler.h"
#include "trace/trace.h"
#include "generated/d3d12_stubs.h"

#define METHOD(name) "ID3D12Resource::" #name

static struct d3d12_resource *impl_from_ID3D12Resource(ID3D12Resource *iface)
{
    return D3D12XS_CONTAINING(iface, struct d3d12_resource, ID3D12Resource_iface);
}

static HRESULT STDMETHODCALLTYPE d3d12_resource_QueryInterface(ID3D12Resource *iface, REFIID riid, void **object)
{
    static const IID *const iids[] = {&IID_ID3D12Resource, &IID_ID3D12Pageable, &IID_ID3D12DeviceChild, &IID_ID3D12Object, &IID_IUnknown, NULL};
    return d3d12xs_query_interface(iface, METHOD(QueryInterface), iids, riid, object);
}

D3D12XS_DEVICE_CHILD_METHODS(d3d12_resource, ID3D12Resource, impl_from_ID3D12Resource, "ID3D12Resource")

static uint32_t subresource_count(const struct d3d12_resource *resource)
{
    return resource->vk_image ? d3d12xs_texture_subresource_count(&resource->desc) : 1;
}

static void destroy_resource(struct d3d12_device *device, void *object)
{
    struct d3d12_resource *resource = object;
    for (size_t i = 0; i < resource->view_count; i++)
        vkDestroyBufferView(device->vk_device, resource->views[i].view, NULL);
    free(resource->views);
    /* Retirement is the moment the GPU is done with the buffer or image, so its memory goes now too. */
    if (resource->vk_image)
        d3d12xs_texture_destroy(device, resource);
    else
        d3d12xs_free_buffer(device, &resource->vk_buffer, &resource->memory);
    free(resource);
}

static ULONG STDMETHODCALLTYPE d3d12_resource_Release(ID3D12Resource *iface)
{
    struct d3d12_resource *resource = impl_from_ID3D12Resource(iface);
    unsigned refcount = d3d12xs_object_release(&resource->object);
    if (!refcount && !d3d12xs_exit_torn_down()) {
        /* D3D12 makes releasing a resource the GPU still uses the application's fault; we
         * keep the Vulkan objects until the work enqueued so far has finished, so nothing
         * crashes. Its address stops resolving now. */
        if (!resource->heap)
            d3d12xs_va_free(resource->object.device, resource->va);
        if (resource->heap)
            d3d12_heap_release_private_ref(resource->heap);
        d3d12_scheduler_retire_object(&resource->object, destroy_resource, resource);
    }
    return refcount;
}

static HRESULT STDMETHODCALLTYPE d3d12_resource_Map(ID3D12Resource *iface, UINT subresource, const D3D12_RANGE *read_range, void **data)
{
    struct d3d12_resource *resource = impl_from_ID3D12Resource(iface);

    /* A failed Map leaves *ppData as it was, as on Windows (unlike the creation methods). */
    if (subresource >= subresource_count(resource))
        return d3d12xs_fail(E_INVALIDARG, METHOD(Map), "Subresource is %u (resource '%s' has %u)", subresource,
                d3d12xs_object_name(&resource->object), subresource_count(resource));
    if (!resource->mapped && !(resource->vk_image && d3d12xs_texture_in_cpu_custom_heap(resource)))
        return d3d12xs_fail(E_INVALIDARG, METHOD(Map), "resource '%s' is in a heap the CPU cannot access (use UPLOAD, READBACK or a CPU-visible CUSTOM heap)",
                d3d12xs_object_name(&resource->object));
    /* A texture's layout is the device's: D3D12 gives it no address, only Read/WriteToSubresource. */
    if (resource->vk_image && data)
        return d3d12xs_fail(E_INVALIDARG, METHOD(Map), "ppData is not NULL but resource '%s' is a texture of layout UNKNOWN, which has no "
                "CPU address (Map it with ppData NULL and use WriteToSubresource / ReadFromSubresource)", d3d12xs_object_name(&resource->object));
    /* End <= Begin is D3D12's way of saying the CPU reads nothing. A range past the end is the
     * debug layer's to report (MAP_INVALIDRANGE): the whole buffer is mapped anyway. */
    if (!resource->vk_image && read_range && read_range->End > read_range->Begin && read_range->End > resource->desc.Width)
        d3d12_device_debug_warn(resource->object.device, METHOD(Map), "pReadRange [%zu, %zu) is not within the %llu-byte buffer '%s'",
                (size_t)read_range->Begin, (size_t)read_range->End, (unsigned long long)resource->desc.Width,
                d3d12xs_object_name(&resource->object));
    atomic_fetch_add(&resource->map_count, 1);
    /* Reading back is what programs wait for: an instant on the calling thread's track. */
    if (d3d12xs_trace_on() && resource->heap_properties.Type != D3D12_HEAP_TYPE_UPLOAD) {
        struct d3d12xs_trace_args args = {.length = 0};
        d3d12xs_trace_arg_string(&args, "resource", d3d12xs_object_name(&resource->object));
        d3d12xs_trace_arg_u64(&args, "bytes", resource->desc.Width);
        d3d12xs_trace_instant(d3d12xs_trace_cpu_track(), "api", METHOD(Map), d3d12xs_now_ns(), &args);
    }
    /* Memory is host-coherent, so read and written ranges need no flush or invalidate. */
    if (data)
        *data = resource->mapped;
    return S_OK;
}

static void STDMETHODCALLTYPE d3d12_resource_Unmap(ID3D12Resource *iface, UINT subresource, const D3D12_RANGE *written_range)
{
    struct d3d12_resource *resource = impl_from_ID3D12Resource(iface);
    unsigned count;

    /* Unmap cannot fail: its misuse is the debug layer's to report. */
    if (subresource >= subresource_count(resource)) {
        d3d12_device_debug_warn(resource->object.device, METHOD(Unmap), "Subresource is %u (resource '%s' has %u)", subresource,
                d3d12xs_object_name(&resource->object), subresource_count(resource));
        return;
    }
    if (!resource->vk_image && written_range && written_range->End > written_range->Begin && written_range->End > resource->desc.Width)
        d3d12_device_debug_warn(resource->object.device, METHOD(Unmap), "pWrittenRange [%zu, %zu) is not within the %llu-byte buffer '%s'",
                (size_t)written_range->Begin, (size_t)written_range->End, (unsigned long long)resource->desc.Width,
                d3d12xs_object_name(&resource->object));
    count = atomic_load(&resource->map_count);
    while (count && !atomic_compare_exchange_weak(&resource->map_count, &count, count - 1))
        ;
    if (!count)
        d3d12_device_debug_warn(resource->object.device, METHOD(Unmap), "resource '%s' is not mapped (Unmap must follow Map)",
                d3d12xs_object_name(&resource->object));
}

static HRESULT STDMETHODCALLTYPE d3d12_resource_WriteToSubresource(ID3D12Resource *iface, UINT dst_subresource, const D3D12_BOX *dst_box,
        const void *src_data, UINT src_row_pitch, UINT src_depth_pitch)
{
    return d3d12xs_texture_write_subresource(impl_from_ID3D12Resource(iface), dst_subresource, dst_box, src_data, src_row_pitch,
            src_depth_pitch, METHOD(WriteToSubresource));
}

static HRESULT STDMETHODCALLTYPE d3d12_resource_ReadFromSubresource(ID3D12Resource *iface, void *dst_data, UINT dst_row_pitch,
        UINT dst_depth_pitch, UINT src_subresource, const D3D12_BOX *src_box)
{
    return d3d12xs_texture_read_subresource(impl_from_ID3D12Resource(iface), dst_data, dst_row_pitch, dst_depth_pitch, src_subresource,
            src_box, METHOD(ReadFromSubresource));
}

static D3D12_RESOURCE_DESC STDMETHODCALLTYPE d3d12_resource_GetDesc(ID3D12Resource *iface)
{
    return impl_from_ID3D12Resource(iface)->desc;
}

static D3D12_GPU_VIRTUAL_ADDRESS STDMETHODCALLTYPE d3d12_resource_GetGPUVirtualAddress(ID3D12Resource *iface)
{
    return impl_from_ID3D12Resource(iface)->va;
}

static HRESULT STDMETHODCALLTYPE d3d12_resource_GetHeapProperties(ID3D12Resource *iface, D3D12_HEAP_PROPERTIES *properties, D3D12_HEAP_FLAGS *flags)
{
    struct d3d12_resource *resource = impl_from_ID3D12Resource(iface);
    if (!properties && !flags)
        return d3d12xs_fail(E_INVALIDARG, METHOD(GetHeapProperties), "pHeapProperties and pHeapFlags are both NULL (nothing to return)");
    if (properties)
        *properties = resource->heap_properties;
    if (flags)
        *flags = resource->heap_flags;
    return S_OK;
}

#if defined(__clang__)
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Woverride-init"
#endif

static const ID3D12ResourceVtbl d3d12_resource_vtbl = {
    D3D12XS_STUB_VTBL_ID3D12Resource,
    .QueryInterface = d3d12_resource_QueryInterface,
    D3D12XS_DEVICE_CHILD_VTBL_ENTRIES(d3d12_resource),
    .Release = d3d12_resource_Release,
    .Map = d3d12_resource_Map,
    .Unmap = d3d12_resource_Unmap,
    .WriteToSubresource = d3d12_resource_WriteToSubresource,
    .ReadFromSubresource = d3d12_resource_ReadFromSubresource,
    .GetDesc = d3d12_resource_GetDesc,
    .GetGPUVirtualAddress = d3d12_resource_GetGPUVirtualAddress,
    .GetHeapProperties = d3d12_resource_GetHeapProperties,
};

struct d3d12_resource *unsafe_impl_from_ID3D12Resource(ID3D12Resource *iface)
{
    if (!iface || iface->lpVtbl != &d3d12_resource_vtbl)
        return NULL;
    return impl_from_ID3D12Resource(iface);
}

HRESULT d3d12xs_validate_buffer_desc(const char *method, const D3D12_RESOURCE_DESC *desc)
{
    /* ALLOW_RENDER_TARGET is valid on a buffer (D3D12 has buffer RTVs); a depth buffer is not. */
    const D3D12_RESOURCE_FLAGS buffer_flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS | D3D12_RESOURCE_FLAG_ALLOW_CROSS_ADAPTER
            | D3D12_RESOURCE_FLAG_ALLOW_SIMULTANEOUS_ACCESS | D3D12_RESOURCE_FLAG_DENY_SHADER_RESOURCE
            | D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;

    if (!desc)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc is NULL (must describe the resource)");
    if (desc->Dimension != D3D12_RESOURCE_DIMENSION_BUFFER) {
        if (desc->Dimension >= D3D12_RESOURCE_DIMENSION_TEXTURE1D && desc->Dimension <= D3D12_RESOURCE_DIMENSION_TEXTURE3D)
            return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Dimension is a texture (this takes buffers only)");
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Dimension is %d (not a D3D12_RESOURCE_DIMENSION)", (int)desc->Dimension);
    }
    if (!desc->Width)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Width is 0 (a buffer must have bytes)");
    if (desc->Alignment && desc->Alignment != D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Alignment is %llu (buffers need 0 or 65536)", (unsigned long long)desc->Alignment);
    if (desc->Height != 1 || desc->DepthOrArraySize != 1 || desc->MipLevels != 1)
        return d3d12xs_fail(E_INVALIDARG, method, "buffer Height/DepthOrArraySize/MipLevels are %u/%u/%u (must all be 1)",
                desc->Height, desc->DepthOrArraySize, desc->MipLevels);
    if (desc->Format != DXGI_FORMAT_UNKNOWN)
        return d3d12xs_fail(E_INVALIDARG, method, "buffer Format is %d (must be DXGI_FORMAT_UNKNOWN)", (int)desc->Format);
    if (desc->SampleDesc.Count != 1 || desc->SampleDesc.Quality != 0)
        return d3d12xs_fail(E_INVALIDARG, method, "buffer SampleDesc is {%u, %u} (must be {1, 0})", desc->SampleDesc.Count, desc->SampleDesc.Quality);
    if (desc->Layout != D3D12_TEXTURE_LAYOUT_ROW_MAJOR)
        return d3d12xs_fail(E_INVALIDARG, method, "buffer Layout is %d (must be D3D12_TEXTURE_LAYOUT_ROW_MAJOR)", (int)desc->Layout);
    if (desc->Flags & ~buffer_flags)
        return d3d12xs_fail(E_INVALIDARG, method, "buffer Flags 0x%x include depth-stencil or undefined bits", desc->Flags);
    return S_OK;
}

/* What the heap type allows of the resource: its initial state and unordered access. */
static HRESULT check_heap_usage(const char *method, D3D12_HEAP_TYPE heap_type, D3D12_RESOURCE_STATES state, D3D12_RESOURCE_FLAGS flags)
{
    if ((heap_type == D3D12_HEAP_TYPE_UPLOAD || heap_type == D3D12_HEAP_TYPE_READBACK) && (flags & D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS))
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Flags has ALLOW_UNORDERED_ACCESS, which %s heaps do not allow",
                heap_type == D3D12_HEAP_TYPE_UPLOAD ? "UPLOAD" : "READBACK");
    if (heap_type == D3D12_HEAP_TYPE_UPLOAD && state != D3D12_RESOURCE_STATE_GENERIC_READ)
        return d3d12xs_fail(E_INVALIDARG, method, "InitialResourceState is 0x%x (UPLOAD heap resources must start in GENERIC_READ)", state);
    if (heap_type == D3D12_HEAP_TYPE_READBACK && state != D3D12_RESOURCE_STATE_COPY_DEST)
        return d3d12xs_fail(E_INVALIDARG, method, "InitialResourceState is 0x%x (READBACK heap resources must start in COPY_DEST)", state);
    return S_OK;
}

static VkBufferCreateInfo buffer_info(const struct d3d12_device *device, const D3D12_RESOURCE_DESC *desc)
{
    VkBufferCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = desc->Width,
        .usage = d3d12xs_buffer_usage(device),
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    return info;
}

static void resource_init(struct d3d12_resource *resource, struct d3d12_device *device, const D3D12_RESOURCE_DESC *desc,
        D3D12_RESOURCE_STATES initial_state)
{
    resource->ID3D12Resource_iface.lpVtbl = &d3d12_resource_vtbl;
    d3d12xs_object_init(&resource->object, device);
    resource->desc = *desc;
    if (desc->Dimension == D3D12_RESOURCE_DIMENSION_BUFFER) {
        resource->desc.Alignment = D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT;
    } else {
        /* GetDesc reads back what D3D12 fills in: the full mip count and the alignment. */
        resource->desc.MipLevels = (UINT16)d3d12xs_texture_mip_levels(desc);
        if (!resource->desc.Alignment)
            resource->desc.Alignment = desc->SampleDesc.Count > 1 ? D3D12_DEFAULT_MSAA_RESOURCE_PLACEMENT_ALIGNMENT
                    : D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT;
    }
    resource->initial_state = initial_state;
    atomic_init(&resource->map_count, 0);
}

/* A new resource object (no Vulkan object yet): committed resources pass their heap properties,
 * placed ones NULL (they take their heap's). */
static HRESULT new_resource(struct d3d12_device *device, const D3D12_RESOURCE_DESC *desc, D3D12_RESOURCE_STATES initial_state,
        const D3D12_HEAP_PROPERTIES *heap_properties, D3D12_HEAP_FLAGS heap_flags, const char *method, struct d3d12_resource **out)
{
    struct d3d12_resource *resource = NULL;

    if (!(resource = calloc(1, sizeof(*resource))))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the resource");
    resource_init(resource, device, desc, initial_state);
    if (heap_properties) {
        resource->heap_properties = *heap_properties;
        resource->heap_properties.CreationNodeMask = resource->heap_properties.VisibleNodeMask = 1; /* 0 reads back as 1, as in D3D12 */
        resource->heap_flags = heap_flags;
    }
    *out = resource;
    return S_OK;
}

static HRESULT resource_return(struct d3d12_resource *resource, const char *method, REFIID riid, void **out)
{
    struct d3d12_device *device = resource->object.device;
    HRESULT hr = S_OK;
    /* Asked once here rather than at every view of the resource (descriptors are made from it). */
    if (device->buffer_device_address && resource->vk_buffer) {
        VkBufferDeviceAddressInfo info = {VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, NULL, resource->vk_buffer};
        resource->device_address = vkGetBufferDeviceAddress(device->vk_device, &info);
    }
    if (out)
        hr = d3d12xs_hand_out(ID3D12Resource_QueryInterface(&resource->ID3D12Resource_iface, riid, out), method);
    ID3D12Resource_Release(&resource->ID3D12Resource_iface);
    return out ? hr : S_FALSE; /* a NULL out pointer only checks the arguments, as in D3D12 */
}

static bool is_texture(const D3D12_RESOURCE_DESC *desc)
{
    return desc && desc->Dimension >= D3D12_RESOURCE_DIMENSION_TEXTURE1D && desc->Dimension <= D3D12_RESOURCE_DIMENSION_TEXTURE3D;
}

static HRESULT create_committed_texture(struct d3d12_device *device, const D3D12_HEAP_PROPERTIES *heap_properties,
        D3D12_HEAP_FLAGS heap_flags, const D3D12_RESOURCE_DESC *desc, D3D12_RESOURCE_STATES initial_state,
        const D3D12_CLEAR_VALUE *clear_value, REFIID riid, void **out, const char *method)
{
    static const D3D12_HEAP_PROPERTIES device_local = {D3D12_HEAP_TYPE_DEFAULT, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    struct d3d12_resource *resource = NULL;
    HRESULT hr;

    if (FAILED(hr = d3d12xs_texture_check_creation(device, method, desc, heap_properties->Type, heap_flags, clear_value)))
        return hr;
    if (out && !riid)
        return d3d12xs_fail(E_INVALIDARG, method, "riid is NULL (must name the resource interface)");

    if (FAILED(hr = new_resource(device, desc, initial_state, heap_properties, heap_flags, method, &resource)))
        return hr;
    /* The CPU reaches a texture only through Read/WriteToSubresource (texture_cpu_access.c), never
     * by address: its image can live where the GPU reads it fastest whatever the page property. */
    if (FAILED(hr = d3d12xs_texture_create_image(device, resource, method))
            || FAILED(hr = d3d12xs_texture_bind_committed(device, resource, d3d12xs_texture_in_cpu_custom_heap(resource) ? &device_local : heap_properties, method))
            || FAILED(hr = d3d12xs_texture_initialize(device, resource, !(heap_flags & D3D12_HEAP_FLAG_CREATE_NOT_ZEROED), method))) {
        ID3D12Resource_Release(&resource->ID3D12Resource_iface);
        return hr;
    }
    return resource_return(resource, method, riid, out);
}

static HRESULT create_placed_texture(struct d3d12_device *device, struct d3d12_heap *heap, UINT64 heap_offset,
        const D3D12_RESOURCE_DESC *desc, D3D12_RESOURCE_STATES initial_state, const D3D12_CLEAR_VALUE *clear_value, REFIID riid,
        void **out, const char *method)
{
    struct d3d12_resource *resource = NULL;
    HRESULT hr;

    if (FAILED(hr = d3d12xs_texture_check_creation(device, method, desc, heap->desc.Properties.Type, heap->desc.Flags, clear_value)))
        return hr;
    if (out && !riid)
        return d3d12xs_fail(E_INVALIDARG, method, "riid is NULL (must name the resource interface)");

    if (FAILED(hr = new_resource(device, desc, initial_state, NULL, 0, method, &resource)))
        return hr;
    resource->heap = heap;
    d3d12_heap_add_private_ref(heap);
    resource->heap_offset = heap_offset;
    resource->heap_properties = heap->desc.Properties;
    resource->heap_flags = heap->desc.Flags;
    /* A placed texture starts with what the heap holds: D3D12 asks for a discard or clear
     * first, so the layout change alone (no zeroing) is right. */
    if (FAILED(hr = d3d12xs_texture_create_image(device, resource, method))
            || FAILED(hr = d3d12xs_texture_bind_placed(device, resource, heap, heap_offset, method))
            || FAILED(hr = d3d12xs_texture_initialize(device, resource, false, method))) {
        ID3D12Resource_Release(&resource->ID3D12Resource_iface);
        return hr;
    }
    return resource_return(resource, method, riid, out);
}

HRESULT d3d12_resource_create_committed(struct d3d12_device *device, const D3D12_HEAP_PROPERTIES *heap_properties,
        D3D12_HEAP_FLAGS heap_flags, const D3D12_RESOURCE_DESC *desc, D3D12_RESOURCE_STATES initial_state,
        const D3D12_CLEAR_VALUE *clear_value, REFIID riid, void **out)
{
    static const char method[] = "ID3D12Device::CreateCommittedResource";
    struct d3d12_resource *resource = NULL;
    VkBufferCreateInfo info;
    HRESULT hr;

    if (out)
        *out = NULL;
    if (FAILED(hr = d3d12xs_validate_heap_properties(device, method, heap_properties)))
        return hr;
    if (is_texture(desc))
        return create_committed_texture(device, heap_properties, heap_flags, desc, initial_state, clear_value, riid, out, method);
    if (FAILED(hr = d3d12xs_validate_buffer_desc(method, desc)))
        return hr;
    if (heap_flags & (D3D12_HEAP_FLAG_DENY_BUFFERS | D3D12_HEAP_FLAG_SHARED | D3D12_HEAP_FLAG_SHARED_CROSS_ADAPTER))
        return d3d12xs_fail(E_INVALIDARG, method, "HeapFlags 0x%x deny buffers or ask for sharing (not possible for this buffer)", heap_flags);
    if (FAILED(hr = check_heap_usage(method, heap_properties->Type, initial_state, desc->Flags)))
        return hr;
    if (clear_value)
        return d3d12xs_fail(E_INVALIDARG, method, "pOptimizedClearValue must be NULL for buffers");
    if (!out)
        return S_FALSE; /* D3D12's capability check: the arguments are valid, nothing is made */
    if (!riid)
        return d3d12xs_fail(E_INVALIDARG, method, "riid is NULL (must name the resource interface)");

    if (FAILED(hr = new_resource(device, desc, initial_state, heap_properties, heap_flags, method, &resource)))
        return hr;

    info = buffer_info(device, desc);
    if (FAILED(hr = d3d12xs_allocate_buffer(device, &info, heap_properties, 0, 0, &resource->vk_buffer, &resource->memory, method)))
        goto fail;
    /* Committed resources start zeroed in D3D12; suballocated memory may have held another one. */
    if (!(heap_flags & D3D12_HEAP_FLAG_CREATE_NOT_ZEROED) && FAILED(hr = d3d12xs_allocation_zero(device, &resource->memory, method)))
        goto fail;
    if (heap_properties->Type == D3D12_HEAP_TYPE_UPLOAD || heap_properties->Type == D3D12_HEAP_TYPE_READBACK
            || (heap_properties->Type == D3D12_HEAP_TYPE_CUSTOM && heap_properties->CPUPageProperty != D3D12_CPU_PAGE_PROPERTY_NOT_AVAILABLE)) {
        if (!(resource->mapped = resource->memory.mapped)) {
            hr = d3d12xs_fail(E_INVALIDARG, method, "the memory type chosen for these heap properties is not host-visible");
            goto fail;
        }
    }
    if (!(resource->va = d3d12xs_va_allocate(device, desc->Width, resource->vk_buffer, heap_properties->Type == D3D12_HEAP_TYPE_UPLOAD, resource->mapped))) {
        hr = d3d12xs_fail(E_OUTOFMEMORY, method, "cannot reserve GPU virtual addresses");
        goto fail;
    }
    return resource_return(resource, method, riid, out);

fail:
    ID3D12Resource_Release(&resource->ID3D12Resource_iface);
    return hr;
}

HRESULT d3d12_resource_create_placed(struct d3d12_device *device, ID3D12Heap *heap_iface, UINT64 heap_offset,
        const D3D12_RESOURCE_DESC *desc, D3D12_RESOURCE_STATES initial_state,
        const D3D12_CLEAR_VALUE *clear_value, REFIID riid, void **out)
{
    static const char method[] = "ID3D12Device::CreatePlacedResource";
    struct d3d12_resource *resource = NULL;
    struct d3d12_heap *heap;
    VkMemoryRequirements requirements;
    VkBufferCreateInfo info;
    VkResult vr;
    HRESULT hr;

    if (out)
        *out = NULL;
    if (!(heap = unsafe_impl_from_ID3D12Heap(heap_iface)))
        return d3d12xs_fail(E_INVALIDARG, method, "pHeap is %s (must be a heap from CreateHeap)", heap_iface ? "not a d3d12xs heap" : "NULL");
    if (is_texture(desc))
        return create_placed_texture(device, heap, heap_offset, desc, initial_state, clear_value, riid, out, method);
    if (FAILED(hr = d3d12xs_validate_buffer_desc(method, desc)))
        return hr;
    if (heap->desc.Flags & D3D12_HEAP_FLAG_DENY_BUFFERS)
        return d3d12xs_fail(E_INVALIDARG, method, "pHeap was made with D3D12_HEAP_FLAG_DENY_BUFFERS");
    if (heap_offset % D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT)
        return d3d12xs_fail(E_INVALIDARG, method, "HeapOffset %llu is not a multiple of 65536", (unsigned long long)heap_offset);
    if (heap_offset > heap->desc.SizeInBytes || desc->Width > heap->desc.SizeInBytes - heap_offset)
        return d3d12xs_fail(E_INVALIDARG, method, "HeapOffset %llu + Width %llu passes the end of the %llu-byte heap",
                (unsigned long long)heap_offset, (unsigned long long)desc->Width, (unsigned long long)heap->desc.SizeInBytes);
    if (FAILED(hr = check_heap_usage(method, heap->desc.Properties.Type, initial_state, desc->Flags)))
        return hr;
    if (clear_value)
        return d3d12xs_fail(E_INVALIDARG, method, "pOptimizedClearValue must be NULL for buffers");
    if (out && !riid)
        return d3d12xs_fail(E_INVALIDARG, method, "riid is NULL (must name the resource interface)");

    if (FAILED(hr = new_resource(device, desc, initial_state, NULL, 0, method, &resource)))
        return hr;
    info = buffer_info(device, desc);
    if (heap->imported) {
        /* a heap over the application's memory: its buffers must say so (external host memory) */
        VkExternalMemoryBufferCreateInfo external;
        info.pNext = d3d12xs_host_import_buffer_info(&external, info.pNext);
        vr = vkCreateBuffer(device->vk_device, &info, NULL, &resource->vk_buffer);
    } else {
        vr = vkCreateBuffer(device->vk_device, &info, NULL, &resource->vk_buffer);
    }
    if (vr != VK_SUCCESS) {
        hr = d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "vkCreateBuffer of %llu bytes failed (VkResult %d)",
                (unsigned long long)desc->Width, vr);
        goto fail;
    }
    resource->heap = heap;
    d3d12_heap_add_private_ref(heap);
    resource->heap_offset = heap_offset;
    resource->heap_properties = heap->desc.Properties;
    resource->heap_flags = heap->desc.Flags;
    vkGetBufferMemoryRequirements(device->vk_device, resource->vk_buffer, &requirements);
    /* The heap's allocation starts at a multiple of its D3D12 alignment, so an aligned
     * HeapOffset is an aligned offset in the VkDeviceMemory too. */
    if ((heap->memory.offset + heap_offset) % requirements.alignment) {
        hr = d3d12xs_fail(E_INVALIDARG, method, "HeapOffset %llu does not meet the device's %llu-byte buffer alignment",
                (unsigned long long)heap_offset, (unsigned long long)requirements.alignment);
        goto fail;
    }
    if (!(requirements.memoryTypeBits & (1u << heap->memory.memory_type))) {
        hr = d3d12xs_fail(E_INVALIDARG, method, "the heap's Vulkan memory type %u cannot hold this buffer", heap->memory.memory_type);
        goto fail;
    }
    if ((vr = vkBindBufferMemory(device->vk_device, resource->vk_buffer, heap->memory.memory, heap->memory.offset + heap_offset)) != VK_SUCCESS) {
        hr = d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "vkBindBufferMemory failed (VkResult %d)", vr);
        goto fail;
    }
    if (heap->mapped)
        resource->mapped = (char *)heap->mapped + heap_offset;
    resource->va = heap->va + heap_offset;
    return resource_return(resource, method, riid, out);

fail:
    ID3D12Resource_Release(&resource->ID3D12Resource_iface);
    return hr;
}

VkBufferView d3d12_resource_get_buffer_view(struct d3d12_resource *resource, VkFormat format, uint64_t offset, uint64_t range)
{
    struct d3d12_device *device = resource->object.device;
    VkBufferView view = VK_NULL_HANDLE;

    pthread_mutex_lock(&resource->object.lock);
    for (size_t i = 0; i < resource->view_count; i++) {
        if (resource->views[i].format == format && resource->views[i].offset == offset && resource->views[i].range == range) {
            view = resource->views[i].view;
            break;
        }
    }
    if (!view && d3d12xs_array_reserve((void **)&resource->views, &resource->view_capacity, resource->view_count + 1, sizeof(*resource->views))) {
        VkBufferViewCreateInfo info = {
            .sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO,
            .buffer = resource->vk_buffer,
            .format = format,
            .offset = offset,
            .range = range,
        };
        if (vkCreateBufferView(device->vk_device, &info, NULL, &view) == VK_SUCCESS)
            resource->views[resource->view_count++] = (struct d3d12xs_buffer_view){format, offset, range, view};
        else
            view = VK_NULL_HANDLE;
    }
    pthread_mutex_unlock(&resource->object.lock);
    return view;
}
