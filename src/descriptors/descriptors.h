/* Descriptor heaps and views (descriptor_heap.c, descriptor.c). */
#ifndef D3D12XS_DESCRIPTORS_H
#define D3D12XS_DESCRIPTORS_H

#include "device/device.h"
#include "memory/resource.h"

enum d3d12xs_descriptor_kind {
    D3D12XS_DESCRIPTOR_EMPTY = 0, /* never written */
    D3D12XS_DESCRIPTOR_CBV,
    D3D12XS_DESCRIPTOR_SRV,
    D3D12XS_DESCRIPTOR_UAV,
    D3D12XS_DESCRIPTOR_SAMPLER,
    D3D12XS_DESCRIPTOR_RTV,       /* in RTV heaps: the view a render-target clear renders to */
    D3D12XS_DESCRIPTOR_DSV,       /* in DSV heaps: the view a depth-stencil clear renders to */
};

/* The vk_type of RTVs and DSVs: render targets and depth buffers have no Vulkan descriptor. */
#define D3D12XS_NO_VK_DESCRIPTOR 0xff

/* The CPU-side record of one descriptor: what a CPU handle points at, 80 bytes. A plain value
 * that owns nothing and references nothing (D3D12 descriptors do not hold their resources), so
 * copying a descriptor copies these bytes (descriptor_copy.c). The union holds the part of the
 * view's kind: d3d12xs_descriptor_is_texture and d3d12xs_descriptor_is_buffer say which. */
struct d3d12xs_descriptor {
    uint8_t kind;                     /* enum d3d12xs_descriptor_kind */
    uint8_t vk_type;                  /* VkDescriptorType of the Vulkan descriptor (a core type: below 256), or D3D12XS_NO_VK_DESCRIPTOR */
    bool null_view;                   /* written with a NULL resource: reads give 0 */
    bool raw;
    DXGI_FORMAT format;
    VkFormat vk_format;               /* of typed views: what the descriptor encodes */
    /* Raw and structured views: the Vulkan descriptor starts this many bytes before the view, at
     * an address the device's storage-buffer alignment allows (heap_memory.c); 0 for the rest. */
    uint32_t view_misalignment;
    struct d3d12_resource *resource;  /* not referenced: D3D12 descriptors do not hold resources */
    union {
        struct { /* CBVs and buffer SRVs and UAVs */
            VkBuffer buffer;
            VkDeviceSize offset, range;
            VkDeviceAddress address;  /* of buffer + offset */
            VkDeviceAddress counter_address; /* of a UAV's counter, 0 without one */
            uint32_t structure_stride;
        };
        struct { /* texture SRVs and UAVs, RTVs and DSVs */
            VkImageView image_view;   /* the resource's (memory/texture_view.c) */
            VkImage image;            /* ... the resource's image, and the D3D12 subresources the range spans */
            VkImageSubresourceRange image_range; /* the mips, layers and aspect the view sees */
            uint32_t first_w_slice, w_slice_count; /* of a 3D UAV, its W slices (count 0: the mip's whole depth) */
            uint32_t first_subresource, subresource_count;
            D3D12_DSV_FLAGS dsv_flags; /* DSVs: the read-only aspects */
        };
        VkSampler sampler;            /* samplers (the device's, sampler.c) */
    };
};

/* What every copy moves per descriptor, besides the Vulkan descriptor: keep it small. */
_Static_assert(sizeof(struct d3d12xs_descriptor) <= 80, "a descriptor record is at most 80 bytes");

/* The index of the record at byte offset `offset` from the first of an array of records, or a
 * number of at least 2^32 (more than any heap holds) where no record starts there: a negative
 * (wrapped) offset or one inside a record. One multiplication: offset * 5^-1 (mod 2^64) rotated
 * right by 4 is offset / 80 when 80 divides the offset; for any other offset the 4 low bits (16
 * does not divide it) or the product (5 does not) make it above 2^60 / 5. CPU handles and GPU
 * handles (from a heap's gpu_base) step by one record. */
static inline uint64_t d3d12xs_descriptor_index_at(uint64_t offset)
{
    _Static_assert(sizeof(struct d3d12xs_descriptor) == 80, "d3d12xs_descriptor_index_at divides by 80");
    uint64_t scaled = offset * 0xcccccccccccccccdull;
    return scaled >> 4 | scaled << 60;
}

static inline bool d3d12xs_descriptor_is_texture(const struct d3d12xs_descriptor *descriptor)
{
    return descriptor->kind == D3D12XS_DESCRIPTOR_RTV || descriptor->kind == D3D12XS_DESCRIPTOR_DSV
            || descriptor->vk_type == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE || descriptor->vk_type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
}

/* CBVs and buffer SRVs and UAVs, null views included (their buffer is VK_NULL_HANDLE). */
static inline bool d3d12xs_descriptor_is_buffer(const struct d3d12xs_descriptor *descriptor)
{
    return (descriptor->kind == D3D12XS_DESCRIPTOR_CBV || descriptor->kind == D3D12XS_DESCRIPTOR_SRV
            || descriptor->kind == D3D12XS_DESCRIPTOR_UAV) && !d3d12xs_descriptor_is_texture(descriptor);
}

struct d3d12_descriptor_heap {
    ID3D12DescriptorHeap ID3D12DescriptorHeap_iface;
    struct d3d12xs_object object;
    D3D12_DESCRIPTOR_HEAP_DESC desc;
    uint64_t gpu_base; /* unique GPU handle range of shader-visible heaps */
    struct d3d12xs_descriptor *descriptors;
    /* The descriptor bytes (heap_memory.c): mapped GPU memory of a shader-visible heap, CPU
     * memory otherwise; view slots of slot_size bytes, then (CBV_SRV_UAV) from side_set_offset
     * set 1's slot (the side table's descriptor), from side_table_offset the side table (UAV
     * counter addresses and view offsets). */
    uint8_t *slots;
    uint8_t *side_entries; /* slots + side_table_offset (CBV_SRV_UAV heaps): what the shaders read */
    /* The same entries in cached CPU memory, where copies read and compare them (side_entries
     * itself where that is CPU memory): never a read of the GPU memory's write-combined pages. */
    uint8_t *side_entries_cpu;
    VkDeviceSize slot_size, side_set_offset, side_table_offset, memory_size;
    VkBuffer memory_buffer;
    struct d3d12xs_allocation memory; /* of shader-visible heaps (memory.block is NULL otherwise) */
    VkDeviceAddress memory_address;
};

/* texture_descriptor.c: the texture part of an SRV or UAV (pDesc NULL: the whole resource, as
 * D3D12 defines it): checked against the resource, made into descriptor; false after one line. */
bool d3d12xs_texture_srv(struct d3d12_device *device, const char *method, struct d3d12_resource *resource,
        const D3D12_SHADER_RESOURCE_VIEW_DESC *desc, struct d3d12xs_descriptor *descriptor);
bool d3d12xs_texture_uav(struct d3d12_device *device, const char *method, struct d3d12_resource *resource,
        const D3D12_UNORDERED_ACCESS_VIEW_DESC *desc, struct d3d12xs_descriptor *descriptor);
/* texture_descriptor.c: a render target view (pDesc NULL: mip 0 of every slice), the same way. */
bool d3d12xs_texture_rtv(struct d3d12_device *device, const char *method, struct d3d12_resource *resource,
        const D3D12_RENDER_TARGET_VIEW_DESC *desc, struct d3d12xs_descriptor *descriptor);
/* texture_descriptor.c: a depth stencil view (pDesc NULL: mip 0 of every slice), the same way. */
bool d3d12xs_texture_dsv(struct d3d12_device *device, const char *method, struct d3d12_resource *resource,
        const D3D12_DEPTH_STENCIL_VIEW_DESC *desc, struct d3d12xs_descriptor *descriptor);
/* A null texture view (pResource NULL): reads 0, writes dropped; false (one line) on devices
 * without null descriptors. */
bool d3d12xs_texture_null_view(struct d3d12_device *device, const char *method, bool writable, struct d3d12xs_descriptor *descriptor);

/* The device's registry of live heaps (device->descriptor_heaps, heap_registry.c) and its
 * sampler cache (device->samplers), made at device creation and freed when it goes (api/device.c). */
HRESULT d3d12xs_descriptor_heap_registry_init(struct d3d12_device *device);
void d3d12xs_descriptor_heap_registry_cleanup(struct d3d12_device *device);
HRESULT d3d12xs_sampler_cache_init(struct d3d12_device *device);
/* Destroys the cached VkSamplers: needs the VkDevice still alive. */
void d3d12xs_sampler_cache_cleanup(struct d3d12_device *device);

struct d3d12_descriptor_heap *unsafe_impl_from_ID3D12DescriptorHeap(ID3D12DescriptorHeap *iface);
HRESULT d3d12_descriptor_heap_create(struct d3d12_device *device, const D3D12_DESCRIPTOR_HEAP_DESC *desc, REFIID riid, void **heap);
/* Finds the descriptor a CPU handle names without logging (one registry look-up, then range
 * checks); *reason says why when it fails. *heap is set where the handle is inside a live heap. */
struct d3d12xs_descriptor *d3d12xs_descriptor_lookup(struct d3d12_device *device, D3D12_CPU_DESCRIPTOR_HANDLE handle,
        UINT count, D3D12_DESCRIPTOR_HEAP_TYPE type, const char **reason, struct d3d12_descriptor_heap **heap);
/* The same for a CPU handle from the application, with one log line naming argument when it fails:
 * count descriptors from handle must lie in one heap of that type. */
struct d3d12xs_descriptor *d3d12xs_descriptor_from_cpu_handle(struct d3d12_device *device, D3D12_CPU_DESCRIPTOR_HANDLE handle,
        UINT count, D3D12_DESCRIPTOR_HEAP_TYPE type, const char *method, const char *argument, struct d3d12_descriptor_heap **heap);

/* heap_memory.c: the heap's descriptor bytes; write_slot encodes descriptor into slot index
 * (and its side-table entry); copies are heap_memory.h's. */
HRESULT d3d12_descriptor_heap_create_memory(struct d3d12_descriptor_heap *heap, const char *method);
void d3d12_descriptor_heap_destroy_memory(struct d3d12_descriptor_heap *heap);
void d3d12_descriptor_heap_write_slot(struct d3d12_descriptor_heap *heap, size_t index, const struct d3d12xs_descriptor *descriptor);
UINT d3d12_device_get_descriptor_increment(struct d3d12_device *device, D3D12_DESCRIPTOR_HEAP_TYPE type);
void d3d12_device_create_constant_buffer_view(struct d3d12_device *device, const D3D12_CONSTANT_BUFFER_VIEW_DESC *desc,
        D3D12_CPU_DESCRIPTOR_HANDLE handle);
void d3d12_device_create_shader_resource_view(struct d3d12_device *device, ID3D12Resource *resource,
        const D3D12_SHADER_RESOURCE_VIEW_DESC *desc, D3D12_CPU_DESCRIPTOR_HANDLE handle);
void d3d12_device_create_unordered_access_view(struct d3d12_device *device, ID3D12Resource *resource, ID3D12Resource *counter,
        const D3D12_UNORDERED_ACCESS_VIEW_DESC *desc, D3D12_CPU_DESCRIPTOR_HANDLE handle);
void d3d12_device_create_sampler(struct d3d12_device *device, const D3D12_SAMPLER_DESC *desc, D3D12_CPU_DESCRIPTOR_HANDLE handle);
void d3d12_device_create_sampler2(struct d3d12_device *device, const D3D12_SAMPLER_DESC2 *desc, D3D12_CPU_DESCRIPTOR_HANDLE handle);
void d3d12_device_create_render_target_view(struct d3d12_device *device, ID3D12Resource *resource,
        const D3D12_RENDER_TARGET_VIEW_DESC *desc, D3D12_CPU_DESCRIPTOR_HANDLE handle);
void d3d12_device_create_depth_stencil_view(struct d3d12_device *device, ID3D12Resource *resource,
        const D3D12_DEPTH_STENCIL_VIEW_DESC *desc, D3D12_CPU_DESCRIPTOR_HANDLE handle);
/* sampler.c: the device's Vulkan sampler for desc, made once per distinct description and owned
 * by the device; VK_NULL_HANDLE (one line logged under method) for a description D3D12 refuses. */
VkSampler d3d12xs_device_get_sampler(struct d3d12_device *device, const D3D12_SAMPLER_DESC2 *desc, const char *method);
/* The D3D12_SAMPLER_DESC2 of a D3D12_SAMPLER_DESC: float border colour, no flags. */
void d3d12xs_sampler_desc2_from_desc(const D3D12_SAMPLER_DESC *desc, D3D12_SAMPLER_DESC2 *desc2);
/* The D3D12_SAMPLER_DESC2 of a static sampler: the border colour the enum names (UINT colours
 * with UINT_BORDER_COLOR), the sampler's flags. */
void d3d12xs_sampler_desc2_from_static(const D3D12_STATIC_SAMPLER_DESC1 *desc, D3D12_SAMPLER_DESC2 *desc2);
/* descriptor_copy.c: CopyDescriptors and CopyDescriptorsSimple. */
void d3d12_device_copy_descriptors(struct d3d12_device *device, UINT dst_range_count, const D3D12_CPU_DESCRIPTOR_HANDLE *dst_starts,
        const UINT *dst_sizes, UINT src_range_count, const D3D12_CPU_DESCRIPTOR_HANDLE *src_starts, const UINT *src_sizes,
        D3D12_DESCRIPTOR_HEAP_TYPE type);
void d3d12_device_copy_descriptors_simple(struct d3d12_device *device, UINT count, D3D12_CPU_DESCRIPTOR_HANDLE dst_start,
        D3D12_CPU_DESCRIPTOR_HANDLE src_start, D3D12_DESCRIPTOR_HEAP_TYPE type);

#endif
