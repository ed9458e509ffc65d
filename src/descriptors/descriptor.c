/* Descriptor creation (ID3D12Device::Create*View, CreateSampler); copies are descriptor_copy.c's. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "descriptors/descriptors.h"
#include "memory/va_map.h"

#define METHOD(name) "ID3D12Device::" #name

UINT d3d12_device_get_descriptor_increment(struct d3d12_device *device, D3D12_DESCRIPTOR_HEAP_TYPE type)
{
    (void)device;
    if ((unsigned)type >= D3D12_DESCRIPTOR_HEAP_TYPE_NUM_TYPES) {
        ERR("%s: DescriptorHeapType is %d (CBV_SRV_UAV, SAMPLER, RTV or DSV)", METHOD(GetDescriptorHandleIncrementSize), (int)type);
        return 0;
    }
    return sizeof(struct d3d12xs_descriptor);
}

static void write_descriptor(struct d3d12_descriptor_heap *heap, struct d3d12xs_descriptor *dst, const struct d3d12xs_descriptor *src)
{
    struct d3d12_device *device = heap->object.device;
    struct d3d12xs_descriptor descriptor = *src;

    /* The Vulkan descriptor is made from the view's address (heap_memory.c), which the view's
     * resource or address range usually knows already. */
    if (device->buffer_device_address && d3d12xs_descriptor_is_buffer(&descriptor) && descriptor.buffer && !descriptor.null_view
            && !descriptor.address) {
        VkBufferDeviceAddressInfo info = {VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, NULL, descriptor.buffer};
        descriptor.address = vkGetBufferDeviceAddress(device->vk_device, &info) + descriptor.offset;
    }
    if (descriptor.vk_type == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER || descriptor.vk_type == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER)
        descriptor.vk_format = d3d12xs_vk_format_from_dxgi(descriptor.format, NULL);
    /* Whole-struct stores: a reader never sees a half-written descriptor kind. */
    *dst = descriptor;
    d3d12_descriptor_heap_write_slot(heap, (size_t)(dst - heap->descriptors), dst);
}

/* A buffer resource's device address (kept from its creation where the device gives one). */
static VkDeviceAddress buffer_address(struct d3d12_device *device, const struct d3d12_resource *resource)
{
    VkBufferDeviceAddressInfo info = {VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, NULL, resource->vk_buffer};
    return resource->device_address ? resource->device_address : vkGetBufferDeviceAddress(device->vk_device, &info);
}

/* Checks an offset against a Vulkan buffer-offset alignment and logs the rule when broken. */
static bool offset_aligned(const char *method, const char *what, uint64_t offset, uint64_t alignment)
{
    if (alignment > 1 && offset % alignment) {
        d3d12xs_fail(E_INVALIDARG, method, "%s starts at byte %llu, not a multiple of this device's %llu-byte buffer-view alignment",
                what, (unsigned long long)offset, (unsigned long long)alignment);
        return false;
    }
    return true;
}

/* The offset alignment of a typed buffer view: one texel (one component for three-component
 * formats) where the device says that is enough, as D3D12 allows any FirstElement. */
static uint64_t texel_offset_alignment(const struct d3d12_device *device, bool writable, uint32_t element_size)
{
    uint64_t bytes = device->texel_offset_alignment[writable];
    uint64_t texel = element_size;
    if (!bytes)
        bytes = device->vk_properties.limits.minTexelBufferOffsetAlignment;
    if (!device->texel_offset_single_texel[writable])
        return bytes;
    if (texel % 3 == 0)
        texel /= 3;
    return texel < bytes ? texel : bytes;
}

void d3d12_device_create_constant_buffer_view(struct d3d12_device *device, const D3D12_CONSTANT_BUFFER_VIEW_DESC *desc,
        D3D12_CPU_DESCRIPTOR_HANDLE handle)
{
    const char *method = METHOD(CreateConstantBufferView);
    struct d3d12xs_descriptor *dst, descriptor;
    struct d3d12_descriptor_heap *heap;
    uint64_t offset;
    struct d3d12xs_va_range range;

    if (!(dst = d3d12xs_descriptor_from_cpu_handle(device, handle, 1, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, method, "DestDescriptor", &heap)))
        return;
    memset(&descriptor, 0, sizeof(descriptor));
    descriptor.kind = D3D12XS_DESCRIPTOR_CBV;
    descriptor.vk_type = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    if (!desc || !desc->BufferLocation) {
        descriptor.null_view = true;
        write_descriptor(heap, dst, &descriptor);
        return;
    }
    if (desc->BufferLocation % D3D12_CONSTANT_BUFFER_DATA_PLACEMENT_ALIGNMENT || desc->SizeInBytes % D3D12_CONSTANT_BUFFER_DATA_PLACEMENT_ALIGNMENT
            || !desc->SizeInBytes || desc->SizeInBytes > D3D12_REQ_CONSTANT_BUFFER_ELEMENT_COUNT * 16) {
        ERR("%s: pDesc {BufferLocation 0x%llx, SizeInBytes %u} must be 256-byte aligned, a positive multiple of 256 and at most 65536 bytes",
                method, (unsigned long long)desc->BufferLocation, desc->SizeInBytes);
        return;
    }
    if (!d3d12xs_va_find(device, desc->BufferLocation, desc->SizeInBytes, &range, &offset)) {
        ERR("%s: pDesc->BufferLocation 0x%llx + SizeInBytes %u is not inside one live buffer", method,
                (unsigned long long)desc->BufferLocation, desc->SizeInBytes);
        return;
    }
    if (!offset_aligned(method, "pDesc->BufferLocation", offset, device->vk_properties.limits.minUniformBufferOffsetAlignment))
        return;
    descriptor.buffer = range.buffer;
    descriptor.offset = offset;
    descriptor.range = desc->SizeInBytes;
    descriptor.address = range.device_address ? range.device_address + offset : 0;
    write_descriptor(heap, dst, &descriptor);
}

/* Fills the buffer part of an SRV or UAV: raw, structured or typed. */
static bool buffer_view(struct d3d12_device *device, const char *method, struct d3d12_resource *resource, DXGI_FORMAT format,
        uint64_t first_element, UINT element_count, UINT stride, bool raw, bool writable, struct d3d12xs_descriptor *descriptor)
{
    const VkPhysicalDeviceLimits *limits = &device->vk_properties.limits;
    uint32_t element_size;
    uint64_t offset, range;
    VkFormat vk_format = VK_FORMAT_UNDEFINED;

    if (raw) {
        if (format != DXGI_FORMAT_R32_TYPELESS || stride) {
            d3d12xs_fail(E_INVALIDARG, method, "pDesc: RAW buffer views need Format R32_TYPELESS and StructureByteStride 0");
            return false;
        }
        element_size = 4;
    } else if (stride) {
        if (format != DXGI_FORMAT_UNKNOWN) {
            d3d12xs_fail(E_INVALIDARG, method, "pDesc: structured buffer views (StructureByteStride %u) need Format UNKNOWN", stride);
            return false;
        }
        element_size = stride;
    } else {
        if ((vk_format = d3d12xs_vk_format_from_dxgi(format, &element_size)) == VK_FORMAT_UNDEFINED) {
            d3d12xs_fail(E_INVALIDARG, method, "pDesc->Format %d is not a typed buffer format d3d12xs supports (or stride/RAW is missing)", (int)format);
            return false;
        }
    }
    if (!element_count || first_element > resource->desc.Width / element_size
            || element_count > resource->desc.Width / element_size - first_element) {
        d3d12xs_fail(E_INVALIDARG, method, "pDesc: FirstElement %llu + NumElements %u of %u bytes pass the end of the %llu-byte buffer",
                (unsigned long long)first_element, element_count, element_size, (unsigned long long)resource->desc.Width);
        return false;
    }
    offset = first_element * element_size;
    range = (uint64_t)element_count * element_size;
    descriptor->resource = resource;
    descriptor->buffer = resource->vk_buffer;
    descriptor->offset = offset;
    descriptor->range = range;
    descriptor->address = resource->device_address ? resource->device_address + offset : 0;
    descriptor->format = format;
    descriptor->structure_stride = stride;
    descriptor->raw = raw;
    if (vk_format == VK_FORMAT_UNDEFINED) {
        descriptor->vk_type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        descriptor->view_misalignment = d3d12xs_view_misalignment(offset, element_size, limits->minStorageBufferOffsetAlignment);
        return true;
    }
    descriptor->vk_type = writable ? VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER : VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
    if (!offset_aligned(method, "pDesc->FirstElement", offset, texel_offset_alignment(device, writable, element_size)))
        return false;
    /* A UAV's format must be one the device stores texel buffers in (Vulkan's rule for the view
     * of a buffer with storage usage): asked before the view is made, not left to the driver. */
    if (writable) {
        VkFormatProperties properties;
        vkGetPhysicalDeviceFormatProperties(device->vk_physical_device, vk_format, &properties);
        if (!(properties.bufferFeatures & VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT)) {
            d3d12xs_fail(E_INVALIDARG, method, "pDesc->Format %d cannot be used for storage texel buffers on this device "
                    "(CheckFeatureSupport D3D12_FEATURE_FORMAT_SUPPORT says which can)", (int)format);
            return false;
        }
    }
    /* The descriptor is made from the address; the view proves the device takes the format. */
    if (!d3d12_resource_get_buffer_view(resource, vk_format, offset, range)) {
        d3d12xs_fail(E_INVALIDARG, method, "pDesc->Format %d cannot be used for %s texel buffers on this device", (int)format,
                writable ? "storage" : "uniform");
        return false;
    }
    return true;
}

static struct d3d12_resource *view_resource(struct d3d12_device *device, const char *method, const char *argument, ID3D12Resource *iface)
{
    struct d3d12_resource *resource = unsafe_impl_from_ID3D12Resource(iface);
    if (!resource)
        d3d12xs_fail(E_INVALIDARG, method, "%s is not a d3d12xs resource", argument);
    else if (resource->object.device != device)
        d3d12xs_fail(E_INVALIDARG, method, "%s belongs to another device", argument), resource = NULL;
    return resource;
}

/* The part SRVs and UAVs share: a null view (NULL resource), or a checked buffer view,
 * stored into dst only when it is valid. */
static void write_buffer_view(struct d3d12_device *device, const char *method, struct d3d12_descriptor_heap *heap, struct d3d12xs_descriptor *dst,
        struct d3d12xs_descriptor *descriptor, struct d3d12_resource *resource, DXGI_FORMAT format, uint64_t first_element,
        UINT element_count, UINT stride, bool raw, bool writable)
{
    if (!resource) {
        descriptor->null_view = true;
        descriptor->format = format;
        descriptor->vk_type = stride || raw ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
                : writable ? VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER : VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
    } else if (!buffer_view(device, method, resource, format, first_element, element_count, stride, raw, writable, descriptor)) {
        return;
    }
    write_descriptor(heap, dst, descriptor);
}

void d3d12_device_create_shader_resource_view(struct d3d12_device *device, ID3D12Resource *resource_iface,
        const D3D12_SHADER_RESOURCE_VIEW_DESC *desc, D3D12_CPU_DESCRIPTOR_HANDLE handle)
{
    const char *method = METHOD(CreateShaderResourceView);
    struct d3d12xs_descriptor *dst, descriptor;
    struct d3d12_descriptor_heap *heap;
    struct d3d12_resource *resource = NULL;

    if (!(dst = d3d12xs_descriptor_from_cpu_handle(device, handle, 1, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, method, "DestDescriptor", &heap)))
        return;
    if (!resource_iface && !desc) {
        ERR("%s: pResource and pDesc are both NULL (a null view needs pDesc)", method);
        return;
    }
    if (resource_iface && !(resource = view_resource(device, method, "pResource", resource_iface)))
        return;
    memset(&descriptor, 0, sizeof(descriptor));
    descriptor.kind = D3D12XS_DESCRIPTOR_SRV;
    if (resource && resource->vk_image) {
        if (d3d12xs_texture_srv(device, method, resource, desc, &descriptor))
            write_descriptor(heap, dst, &descriptor);
        return;
    }
    if (!desc) {
        ERR("%s: pDesc is NULL (buffer views need a description)", method);
        return;
    }
    if (desc->ViewDimension != D3D12_SRV_DIMENSION_BUFFER) {
        if (resource)
            ERR("%s: pDesc->ViewDimension is %d, but pResource '%s' is a buffer (BUFFER views)", method, (int)desc->ViewDimension,
                    d3d12xs_object_name(&resource->object));
        else if (desc->ViewDimension < D3D12_SRV_DIMENSION_TEXTURE1D || desc->ViewDimension > D3D12_SRV_DIMENSION_TEXTURECUBEARRAY)
            ERR("%s: pDesc->ViewDimension is %d (BUFFER or a texture dimension)", method, (int)desc->ViewDimension);
        else if (d3d12xs_texture_null_view(device, method, false, &descriptor))
            write_descriptor(heap, dst, &descriptor);
        return;
    }
    if (desc->Buffer.Flags & ~D3D12_BUFFER_SRV_FLAG_RAW) {
        ERR("%s: pDesc->Buffer.Flags is 0x%x (only RAW is defined)", method, desc->Buffer.Flags);
        return;
    }
    write_buffer_view(device, method, heap, dst, &descriptor, resource, desc->Format, desc->Buffer.FirstElement, desc->Buffer.NumElements,
            desc->Buffer.StructureByteStride, desc->Buffer.Flags & D3D12_BUFFER_SRV_FLAG_RAW, false);
}

void d3d12_device_create_unordered_access_view(struct d3d12_device *device, ID3D12Resource *resource_iface, ID3D12Resource *counter_iface,
        const D3D12_UNORDERED_ACCESS_VIEW_DESC *desc, D3D12_CPU_DESCRIPTOR_HANDLE handle)
{
    const char *method = METHOD(CreateUnorderedAccessView);
    struct d3d12_resource *resource = NULL, *counter = NULL;
    struct d3d12xs_descriptor *dst, descriptor;
    struct d3d12_descriptor_heap *heap;

    if (!(dst = d3d12xs_descriptor_from_cpu_handle(device, handle, 1, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, method, "DestDescriptor", &heap)))
        return;
    if (!resource_iface && !desc) {
        ERR("%s: pResource and pDesc are both NULL (a null view needs pDesc)", method);
        return;
    }
    if (resource_iface && !(resource = view_resource(device, method, "pResource", resource_iface)))
        return;
    if (counter_iface && !(counter = view_resource(device, method, "pCounterResource", counter_iface)))
        return;
    memset(&descriptor, 0, sizeof(descriptor));
    descriptor.kind = D3D12XS_DESCRIPTOR_UAV;
    if (resource && resource->vk_image) {
        if (counter)
            ERR("%s: pCounterResource is given for a texture UAV (counters belong to structured buffer views)", method);
        else if (!(resource->desc.Flags & D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS))
            ERR("%s: pResource '%s' was created without D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS", method, d3d12xs_object_name(&resource->object));
        else if (d3d12xs_texture_uav(device, method, resource, desc, &descriptor))
            write_descriptor(heap, dst, &descriptor);
        return;
    }
    if (!desc) {
        ERR("%s: pDesc is NULL (buffer views need a description)", method);
        return;
    }
    if (desc->ViewDimension != D3D12_UAV_DIMENSION_BUFFER) {
        if (resource)
            ERR("%s: pDesc->ViewDimension is %d, but pResource '%s' is a buffer (BUFFER views)", method, (int)desc->ViewDimension,
                    d3d12xs_object_name(&resource->object));
        else if (counter)
            ERR("%s: pCounterResource is given for a null texture UAV", method);
        else if (desc->ViewDimension < D3D12_UAV_DIMENSION_TEXTURE1D || desc->ViewDimension > D3D12_UAV_DIMENSION_TEXTURE3D)
            ERR("%s: pDesc->ViewDimension is %d (BUFFER or a texture dimension)", method, (int)desc->ViewDimension);
        else if (d3d12xs_texture_null_view(device, method, true, &descriptor))
            write_descriptor(heap, dst, &descriptor);
        return;
    }
    if (desc->Buffer.Flags & ~D3D12_BUFFER_UAV_FLAG_RAW) {
        ERR("%s: pDesc->Buffer.Flags is 0x%x (only RAW is defined)", method, desc->Buffer.Flags);
        return;
    }
    if (resource && !(resource->desc.Flags & D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS)) {
        ERR("%s: pResource '%s' was created without D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS", method, d3d12xs_object_name(&resource->object));
        return;
    }
    if (counter) {
        if (!desc->Buffer.StructureByteStride || !resource) {
            ERR("%s: pCounterResource is only allowed with a structured buffer view", method);
            return;
        }
        if (desc->Buffer.CounterOffsetInBytes % D3D12_UAV_COUNTER_PLACEMENT_ALIGNMENT
                || desc->Buffer.CounterOffsetInBytes > counter->desc.Width - 4) {
            ERR("%s: pDesc->Buffer.CounterOffsetInBytes %llu must be a multiple of 4096 inside pCounterResource", method,
                    (unsigned long long)desc->Buffer.CounterOffsetInBytes);
            return;
        }
        descriptor.counter_address = buffer_address(device, counter) + desc->Buffer.CounterOffsetInBytes;
    } else if (desc->Buffer.CounterOffsetInBytes) {
        ERR("%s: pDesc->Buffer.CounterOffsetInBytes is %llu without pCounterResource (must be 0)", method,
                (unsigned long long)desc->Buffer.CounterOffsetInBytes);
        return;
    }
    write_buffer_view(device, method, heap, dst, &descriptor, resource, desc->Format, desc->Buffer.FirstElement, desc->Buffer.NumElements,
            desc->Buffer.StructureByteStride, desc->Buffer.Flags & D3D12_BUFFER_UAV_FLAG_RAW, true);
}

/* CreateSampler and CreateSampler2: one path, D3D12_SAMPLER_DESC2 (a D3D12_SAMPLER_DESC is one
 * without flags). */
static void create_sampler(struct d3d12_device *device, const char *method, const D3D12_SAMPLER_DESC2 *desc, D3D12_CPU_DESCRIPTOR_HANDLE handle)
{
    struct d3d12xs_descriptor *dst, descriptor;
    struct d3d12_descriptor_heap *heap;

    if (!(dst = d3d12xs_descriptor_from_cpu_handle(device, handle, 1, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, method, "DestDescriptor", &heap)))
        return;
    if (!desc) {
        ERR("%s: pDesc is NULL (must describe the sampler)", method);
        return;
    }
    memset(&descriptor, 0, sizeof(descriptor));
    descriptor.kind = D3D12XS_DESCRIPTOR_SAMPLER;
    descriptor.vk_type = VK_DESCRIPTOR_TYPE_SAMPLER;
    if (!(descriptor.sampler = d3d12xs_device_get_sampler(device, desc, method)))
        return;
    write_descriptor(heap, dst, &descriptor);
}

void d3d12_device_create_sampler(struct d3d12_device *device, const D3D12_SAMPLER_DESC *desc, D3D12_CPU_DESCRIPTOR_HANDLE handle)
{
    D3D12_SAMPLER_DESC2 desc2;

    if (desc)
        d3d12xs_sampler_desc2_from_desc(desc, &desc2);
    create_sampler(device, METHOD(CreateSampler), desc ? &desc2 : NULL, handle);
}

void d3d12_device_create_sampler2(struct d3d12_device *device, const D3D12_SAMPLER_DESC2 *desc, D3D12_CPU_DESCRIPTOR_HANDLE handle)
{
    create_sampler(device, "ID3D12Device11::CreateSampler2", desc, handle);
}

/* The part RTVs and DSVs share: the handle in a heap of its type and a texture to view. */
static struct d3d12_resource *target_view_resource(struct d3d12_device *device, const char *method, ID3D12Resource *resource_iface,
        D3D12_CPU_DESCRIPTOR_HANDLE handle, D3D12_DESCRIPTOR_HEAP_TYPE type, struct d3d12xs_descriptor **dst, struct d3d12_descriptor_heap **heap)
{
    struct d3d12_resource *resource;

    if (!(*dst = d3d12xs_descriptor_from_cpu_handle(device, handle, 1, type, method, "DestDescriptor", heap)))
        return NULL;
    if (!resource_iface) {
        ERR("%s: pResource is NULL (null views of render targets and depth buffers come with graphics, which is not implemented)", method);
        return NULL;
    }
    if (!(resource = view_resource(device, method, "pResource", resource_iface)))
        return NULL;
    if (!resource->vk_image) {
        ERR("%s: pResource '%s' is a buffer (views of textures only)", method, d3d12xs_object_name(&resource->object));
        return NULL;
    }
    return resource;
}

void d3d12_device_create_render_target_view(struct d3d12_device *device, ID3D12Resource *resource_iface,
        const D3D12_RENDER_TARGET_VIEW_DESC *desc, D3D12_CPU_DESCRIPTOR_HANDLE handle)
{
    const char *method = METHOD(CreateRenderTargetView);
    struct d3d12xs_descriptor *dst, descriptor;
    struct d3d12_descriptor_heap *heap;
    struct d3d12_resource *resource;

    if (!(resource = target_view_resource(device, method, resource_iface, handle, D3D12_DESCRIPTOR_HEAP_TYPE_RTV, &dst, &heap)))
        return;
    memset(&descriptor, 0, sizeof(descriptor));
    descriptor.kind = D3D12XS_DESCRIPTOR_RTV;
    if (d3d12xs_texture_rtv(device, method, resource, desc, &descriptor))
        write_descriptor(heap, dst, &descriptor);
}

void d3d12_device_create_depth_stencil_view(struct d3d12_device *device, ID3D12Resource *resource_iface,
        const D3D12_DEPTH_STENCIL_VIEW_DESC *desc, D3D12_CPU_DESCRIPTOR_HANDLE handle)
{
    const char *method = METHOD(CreateDepthStencilView);
    struct d3d12xs_descriptor *dst, descriptor;
    struct d3d12_descriptor_heap *heap;
    struct d3d12_resource *resource;

    if (!(resource = target_view_resource(device, method, resource_iface, handle, D3D12_DESCRIPTOR_HEAP_TYPE_DSV, &dst, &heap)))
        return;
    memset(&descriptor, 0, sizeof(descriptor));
    descriptor.kind = D3D12XS_DESCRIPTOR_DSV;
    if (d3d12xs_texture_dsv(device, method, resource, desc, &descriptor))
        write_descriptor(heap, dst, &descriptor);
}
