/* Heaps and resources (heap.c, resource.c; textures' own parts in texture.c). */
#ifndef D3D12XS_RESOURCE_H
#define D3D12XS_RESOURCE_H

#include "device/device.h"
#include "device/dxgi_format.h"
#include "memory/allocator.h"

struct d3d12_heap {
    ID3D12Heap ID3D12Heap_iface;
    struct d3d12xs_object object;
    D3D12_HEAP_DESC desc;
    struct d3d12xs_allocation memory; /* one allocation of the device's allocator; placed resources bind into it */
    VkBuffer vk_buffer; /* spans the heap, for address lookups; VK_NULL_HANDLE if buffers are denied */
    uint64_t va;
    void *mapped;
    bool imported; /* opened from an address: memory.memory is the application's pages, not the allocator's */
};

/* Host memory (size bytes at host, both multiples of the device's imported-pointer alignment) as
 * device memory through VK_EXT_external_memory_host, with a buffer spanning it: graphics memory
 * and heaps opened from an address. *memory_type gets the type chosen. Buffers bound to such
 * memory later must chain d3d12xs_host_import_buffer_info. One line naming what failed. */
HRESULT d3d12xs_import_host_memory(struct d3d12_device *device, void *host, VkDeviceSize size, VkBuffer *buffer,
        VkDeviceMemory *memory, uint32_t *memory_type, const char *method);
/* The VkExternalMemoryBufferCreateInfo a buffer bound to imported host memory needs. */
const void *d3d12xs_host_import_buffer_info(VkExternalMemoryBufferCreateInfo *info, const void *next);
/* The alignment VK_EXT_external_memory_host asks of imported pointers and sizes (0: no import). */
VkDeviceSize d3d12xs_host_import_alignment(struct d3d12_device *device);

struct d3d12_heap *unsafe_impl_from_ID3D12Heap(ID3D12Heap *iface);
/* The reference a placed resource holds on its heap: D3D12 keeps it out of the heap's public count. */
void d3d12_heap_add_private_ref(struct d3d12_heap *heap);
void d3d12_heap_release_private_ref(struct d3d12_heap *heap);
HRESULT d3d12_heap_create(struct d3d12_device *device, const D3D12_HEAP_DESC *desc, REFIID riid, void **heap);
/* OpenExistingHeapFromAddress(1): a heap over the application's memory at address (size 0: to
 * the end of the mapping that holds it, as Windows wraps the whole VirtualAlloc region). */
HRESULT d3d12_heap_open_existing(struct d3d12_device *device, const void *address, SIZE_T size, REFIID riid, void **heap,
        const char *method);
HRESULT d3d12xs_validate_heap_properties(struct d3d12_device *device, const char *method, const D3D12_HEAP_PROPERTIES *properties);

struct d3d12_resource {
    ID3D12Resource ID3D12Resource_iface;
    struct d3d12xs_object object;
    D3D12_RESOURCE_DESC desc;
    D3D12_HEAP_PROPERTIES heap_properties;
    D3D12_HEAP_FLAGS heap_flags;
    D3D12_RESOURCE_STATES initial_state;
    VkBuffer vk_buffer;
    struct d3d12xs_allocation memory; /* committed resources only (placed ones bind into their heap's) */
    struct d3d12_heap *heap;  /* placed resources hold a reference */
    uint64_t heap_offset;
    uint64_t va;
    VkDeviceAddress device_address; /* of vk_buffer, where the device has bufferDeviceAddress (else 0) */
    void *mapped; /* CPU address of byte 0 when the heap is CPU-visible */
    atomic_uint map_count;
    struct d3d12xs_buffer_view *views; /* under object.lock */
    size_t view_count, view_capacity;
    /* Textures (texture.c; vk_buffer, va and mapped stay empty): the image, its format's
     * entry, the Vulkan format it was made with, and its shape. */
    VkImage vk_image;
    const struct d3d12xs_format *format;
    VkFormat vk_format;
    VkImageAspectFlags aspects; /* of vk_format: COLOR, or DEPTH and/or STENCIL */
    uint32_t mip_levels, layers, planes;
    struct d3d12xs_image_view *image_views; /* under object.lock (texture_view.c) */
    size_t image_view_count, image_view_capacity;
};

struct d3d12_resource *unsafe_impl_from_ID3D12Resource(ID3D12Resource *iface);
HRESULT d3d12_resource_create_committed(struct d3d12_device *device, const D3D12_HEAP_PROPERTIES *heap_properties,
        D3D12_HEAP_FLAGS heap_flags, const D3D12_RESOURCE_DESC *desc, D3D12_RESOURCE_STATES initial_state,
        const D3D12_CLEAR_VALUE *clear_value, REFIID riid, void **resource);
HRESULT d3d12_resource_create_placed(struct d3d12_device *device, ID3D12Heap *heap, UINT64 heap_offset,
        const D3D12_RESOURCE_DESC *desc, D3D12_RESOURCE_STATES initial_state,
        const D3D12_CLEAR_VALUE *clear_value, REFIID riid, void **resource);
/* resource_reserved.c: CreateReservedResource(1, 2) check their arguments, then refuse. */
HRESULT d3d12_resource_create_reserved(const char *method, const D3D12_RESOURCE_DESC *desc, const D3D12_CLEAR_VALUE *clear_value,
        REFIID riid, void **resource);
HRESULT d3d12xs_validate_buffer_desc(const char *method, const D3D12_RESOURCE_DESC *desc);
VkBufferUsageFlags d3d12xs_buffer_usage(const struct d3d12_device *device);
/* Memory that buffers of d3d12xs_buffer_usage() are bound to: *flags chained before next when
 * the device gives buffers addresses; returns the pNext to use. */
const void *d3d12xs_buffer_memory_chain(const struct d3d12_device *device, VkMemoryAllocateFlagsInfo *flags, const void *next);

/* A typed view of part of a buffer; cached on the resource so that command buffers that
 * captured the VkBufferView stay valid while the resource lives. */
struct d3d12xs_buffer_view {
    VkFormat format;
    uint64_t offset, range;
    VkBufferView view;
};
/* Returns the resource's VkBufferView for (format, offset, range), creating it once. */
VkBufferView d3d12_resource_get_buffer_view(struct d3d12_resource *resource, VkFormat format, uint64_t offset, uint64_t range);

/* A view of part of a texture (texture_view.c), cached on the resource as buffer views are:
 * descriptors hold the VkImageView while the resource lives. */
struct d3d12xs_image_view_key {
    VkImageViewType type;
    VkFormat format;
    VkImageUsageFlags usage;            /* SAMPLED (SRV) or STORAGE (UAV): what the view format must support */
    VkComponentMapping components;
    VkImageSubresourceRange range;
    float min_lod;                      /* ResourceMinLODClamp (VK_EXT_image_view_min_lod; 0 without it) */
    /* 3D UAVs of some of a mip's depth (VK_EXT_image_sliced_view_of_3d): the first W slice and
     * how many; a count of 0 is every slice, no sliced view */
    uint32_t first_w_slice, w_slice_count;
};
struct d3d12xs_image_view {
    struct d3d12xs_image_view_key key;
    VkImageView view;
};
/* The texture's VkImageView for key, created once; VK_NULL_HANDLE (after one line under method)
 * when Vulkan refuses it. */
VkImageView d3d12_resource_get_image_view(struct d3d12_resource *resource, const struct d3d12xs_image_view_key *key, const char *method);
/* Destroys the texture's views (its retirement). */
void d3d12xs_texture_destroy_views(struct d3d12_device *device, struct d3d12_resource *resource);

#endif
