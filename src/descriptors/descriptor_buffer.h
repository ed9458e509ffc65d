/* The device's descriptor-buffer model (descriptor_buffer.c): shader-visible descriptor heaps are
 * GPU memory holding Vulkan descriptors (VK_EXT_descriptor_buffer), one slot per D3D12
 * descriptor, each slot able to hold any buffer view (VK_EXT_mutable_descriptor_type). Pipelines
 * of root signatures with descriptor tables see the bound heaps as three descriptor sets:
 *
 *   set 0  the CBV_SRV_UAV heap: one array of mutable descriptors, slot i = heap descriptor i;
 *   set 1  one storage-buffer descriptor: the same heap's side table, one entry per heap
 *          descriptor (below): the device address of its UAV counter and how many bytes before
 *          the view its Vulkan descriptor starts (so that views may start at any offset D3D12
 *          allows). Shaders reach counters through the address (PhysicalStorageBuffer), so the
 *          set counts one descriptor against the device's per-stage limit, not one per heap
 *          descriptor: set 0 gets the rest of that limit;
 *   set 2  the SAMPLER heap: one array of samplers;
 *   set 3  the push descriptors (root CBV/SRV/UAV and d3d12xs's own bindings).
 *
 * A table is an offset: the shader adds the table's first index, pushed as a root constant by
 * SetComputeRootDescriptorTable, to the register's place in the table (docs/descriptors.md). */
#ifndef D3D12XS_DESCRIPTOR_BUFFER_H
#define D3D12XS_DESCRIPTOR_BUFFER_H

#include "device/device.h"

enum {
    D3D12XS_HEAP_SET_RESOURCES = 0,
    D3D12XS_HEAP_SET_COUNTERS = 1,
    D3D12XS_HEAP_SET_SAMPLERS = 2,
    D3D12XS_HEAP_SET_PUSH = 3,   /* push descriptors of pipelines that also read heaps */
    D3D12XS_HEAP_SET_COUNT = 3,  /* sets that are heap memory */
};

/* Set 1's side table: entry i (D3D12XS_SIDE_ENTRY_WORDS uints) belongs to heap descriptor i. */
#define D3D12XS_SIDE_ENTRY_WORDS 4
#define D3D12XS_SIDE_ENTRY_COUNTER 0      /* words 0-1: the UAV counter's device address (low, high) */
#define D3D12XS_SIDE_ENTRY_MISALIGNMENT 2 /* word 2: the view's misalignment in bytes; word 3 unused */

/* The feature structs D3D12CreateDevice chains into VkDeviceCreateInfo. */
struct d3d12xs_descriptor_buffer_features {
    VkPhysicalDeviceDescriptorBufferFeaturesEXT buffer;
    VkPhysicalDeviceMutableDescriptorTypeFeaturesEXT mutable_type;
    VkPhysicalDeviceRobustness2FeaturesEXT robustness2;
};

struct d3d12xs_descriptor_buffers {
    PFN_vkGetDescriptorEXT vkGetDescriptorEXT;
    PFN_vkCmdBindDescriptorBuffersEXT vkCmdBindDescriptorBuffersEXT;
    PFN_vkCmdSetDescriptorBufferOffsetsEXT vkCmdSetDescriptorBufferOffsetsEXT;
    VkDescriptorSetLayout set_layouts[D3D12XS_HEAP_SET_COUNT]; /* seen by every stage of the device (graphics.stages) */
    /* The same sets seen by fewer stages, for root signatures with DENY_* flags, made on first
     * request (d3d12xs_descriptor_buffers_heap_layouts) and kept until the device goes. */
    pthread_mutex_t stage_layouts_lock;
    struct d3d12xs_heap_stage_layouts {
        VkShaderStageFlags stages;
        VkDescriptorSetLayout set_layouts[D3D12XS_HEAP_SET_COUNT];
    } stage_layouts[32];
    uint32_t stage_layout_count;
    uint32_t resource_slots, sampler_slots; /* what each heap set layout declares */
    VkDeviceSize slot_size[D3D12XS_HEAP_SET_COUNT];  /* bytes per slot in each set's memory */
    /* slots each set layout declares: of sets 0 and 2, how many descriptors of a heap shaders can
     * address (heaps may hold more: D3D12's sizes are created on every device) */
    uint32_t capacity[D3D12XS_HEAP_SET_COUNT];
    size_t uniform_buffer_size, storage_buffer_size, uniform_texel_size, storage_texel_size, sampler_size;
    size_t sampled_image_size, storage_image_size;
    VkDeviceSize offset_alignment;                   /* descriptorBufferOffsetAlignment */
    bool null_descriptor;                            /* robustness2's nullDescriptor: null views read 0, drop writes */
    bool push_descriptors_need_buffer;               /* !bufferlessPushDescriptors: not handled, refused */
};

/* Before vkCreateDevice: checks the extensions and features (DXGI_ERROR_UNSUPPORTED with one
 * line naming what is missing), adds the extension names and chains the features after *chain. */
HRESULT d3d12xs_descriptor_buffers_select(struct d3d12_device *device, struct d3d12xs_descriptor_buffer_features *features,
        void **chain, const char **extensions, uint32_t *extension_count);
/* After vkCreateDevice: the function pointers, the descriptor sizes and the heap set layouts. */
HRESULT d3d12xs_descriptor_buffers_init(struct d3d12_device *device, const struct d3d12xs_descriptor_buffer_features *features);
void d3d12xs_descriptor_buffers_cleanup(struct d3d12_device *device);
/* The heap sets' layouts as `stages` (a subset of device->graphics.stages) see them: a root
 * signature's pipeline layout gives its heap sets the stages its DENY_* flags leave. Thread-safe. */
HRESULT d3d12xs_descriptor_buffers_heap_layouts(struct d3d12_device *device, VkShaderStageFlags stages,
        VkDescriptorSetLayout layouts[D3D12XS_HEAP_SET_COUNT]);

/* The Vulkan descriptor of a buffer view (type: uniform/storage buffer or texel buffer; format
 * for texel buffers) at address with range bytes, written to out (slot_size bytes); address 0
 * writes a null descriptor. */
void d3d12xs_write_buffer_descriptor(struct d3d12_device *device, VkDescriptorType type, VkDeviceAddress address,
        VkDeviceSize range, VkFormat format, void *out);
void d3d12xs_write_sampler_descriptor(struct d3d12_device *device, VkSampler sampler, void *out);
/* A SAMPLED_IMAGE or STORAGE_IMAGE descriptor of view (in GENERAL, images' one layout), written to
 * out; VK_NULL_HANDLE writes a null descriptor (devices with nullDescriptor). */
void d3d12xs_write_image_descriptor(struct d3d12_device *device, VkDescriptorType type, VkImageView view, void *out);

#endif
