/* Texture resources (texture.c): a VkImage per TEXTURE1D/2D/3D resource, committed (memory of
 * its own) or placed in an ID3D12Heap. resource.c owns the ID3D12Resource object and calls in
 * here for what differs from a buffer.
 *
 * Layout: every image lives in VK_IMAGE_LAYOUT_GENERAL from its creation to its end. D3D12's
 * states then need only memory dependencies, which the list's one barrier tracker already
 * makes (global VkMemoryBarrier2s cover images), and per-subresource state needs no tracking
 * across lists or queues. GENERAL serves every use on the devices d3d12xs runs on (lavapipe,
 * NVIDIA); attachment layouts come with graphics, where a driver may compress in them. */
#ifndef D3D12XS_TEXTURE_H
#define D3D12XS_TEXTURE_H

#include "device/dxgi_format.h"
#include "memory/resource.h"

/* The rules a texture's creation adds to its description's (d3d12xs_validate_texture_desc): heap type,
 * initial state, clear value. E_INVALIDARG and one line. */
HRESULT d3d12xs_texture_check_creation(struct d3d12_device *device, const char *method, const D3D12_RESOURCE_DESC *desc,
        D3D12_HEAP_TYPE heap_type, D3D12_HEAP_FLAGS heap_flags, const D3D12_CLEAR_VALUE *clear_value);

/* Creates resource->vk_image from resource->desc (which passed the checks) and fills the
 * resource's texture fields; no memory yet. */
HRESULT d3d12xs_texture_create_image(struct d3d12_device *device, struct d3d12_resource *resource, const char *method);
/* A committed texture's memory, of the type the heap properties select. */
HRESULT d3d12xs_texture_bind_committed(struct d3d12_device *device, struct d3d12_resource *resource,
        const D3D12_HEAP_PROPERTIES *properties, const char *method);
/* A placed texture: bound at heap_offset of the heap's memory, after the placement rules. */
HRESULT d3d12xs_texture_bind_placed(struct d3d12_device *device, struct d3d12_resource *resource, struct d3d12_heap *heap,
        uint64_t heap_offset, const char *method);
/* Puts the image in its one layout, and, when zero is set, clears it (committed textures
 * start zeroed in D3D12): one command buffer on the internal engine, which every queue's next
 * work waits for. */
HRESULT d3d12xs_texture_initialize(struct d3d12_device *device, struct d3d12_resource *resource, bool zero, const char *method);
/* Whether the internal engine's family is a graphics one, which Vulkan asks of depth and
 * stencil clears and buffer copies. */
bool d3d12xs_texture_internal_engine_copies_depth(struct d3d12_device *device);
/* Destroys the image and frees the memory of a committed texture (at retirement). */
void d3d12xs_texture_destroy(struct d3d12_device *device, struct d3d12_resource *resource);

/* GetResourceAllocationInfo of a texture: the image's memory requirements, the size a multiple
 * of the D3D12 alignment (64 KiB, 4 MiB for multisampled), which it returns in *alignment. */
HRESULT d3d12xs_texture_allocation_info(struct d3d12_device *device, const D3D12_RESOURCE_DESC *desc, uint64_t *size,
        uint64_t *alignment, const char *method);

/* The D3D12 subresource indices a Vulkan range of the texture reaches, as the span
 * [*first, *first + *count) that covers them (plane, then layer, then mip order). */
void d3d12xs_texture_subresource_span(const struct d3d12_resource *resource, const VkImageSubresourceRange *range, uint32_t *first,
        uint32_t *count);
/* The Vulkan subresource range of D3D12 subresource `index` (one mip, one layer, one plane's aspect). */
VkImageSubresourceLayers d3d12xs_texture_subresource_layers(const struct d3d12_resource *resource, uint32_t index);

/* In a CUSTOM heap with CPU pages (committed, or placed in such a heap): the CPU reaches the
 * texture through Read/WriteToSubresource (texture_cpu_access.c). Textures are never in UPLOAD
 * or READBACK heaps, so this is every CPU-visible heap a texture can be in. */
static inline bool d3d12xs_texture_in_cpu_custom_heap(const struct d3d12_resource *resource)
{
    return resource->heap_properties.Type == D3D12_HEAP_TYPE_CUSTOM
            && resource->heap_properties.CPUPageProperty != D3D12_CPU_PAGE_PROPERTY_NOT_AVAILABLE;
}

/* texture_cpu_access.c: WriteToSubresource / ReadFromSubresource of a texture in a CPU-accessible
 * heap (d3d12xs_texture_in_cpu_custom_heap), through a staging copy the CPU waits for. E_INVALIDARG and one
 * line for a buffer, a texture the CPU cannot access, a NULL pointer, a bad subresource or box. */
HRESULT d3d12xs_texture_write_subresource(struct d3d12_resource *resource, UINT subresource, const D3D12_BOX *box, const void *data,
        UINT row_pitch, UINT depth_pitch, const char *method);
HRESULT d3d12xs_texture_read_subresource(struct d3d12_resource *resource, void *data, UINT row_pitch, UINT depth_pitch, UINT subresource,
        const D3D12_BOX *box, const char *method);

#endif
