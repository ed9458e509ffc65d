/* d3d12xs's own compute pipelines (the GPU-side wait's spin and value write, the
 * SYSTEM_TIMESTAMP conversion): one push-descriptor set of storage buffers, a push-constant
 * block, one shader. Recording one clobbers a list's compute state: its caller marks the
 * list's state dirty where it records into a list. */
#ifndef D3D12XS_INTERNAL_PIPELINE_H
#define D3D12XS_INTERNAL_PIPELINE_H

#include "device/device.h"

struct d3d12xs_internal_layout {
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
};

/* binding_count storage buffers at bindings 0..n-1, push_size bytes of push constants. */
bool d3d12xs_internal_layout_create(struct d3d12_device *device, uint32_t binding_count, uint32_t push_size,
        struct d3d12xs_internal_layout *layout);
void d3d12xs_internal_layout_destroy(struct d3d12_device *device, struct d3d12xs_internal_layout *layout);
bool d3d12xs_internal_pipeline_create(struct d3d12_device *device, const struct d3d12xs_internal_layout *layout, const uint32_t *code,
        size_t code_size, VkPipeline *pipeline);

/* A pass of one pipeline over its own layout (ExecuteIndirect's capping and address translation),
 * made with the device: NULL where it cannot be made (the caller then refuses what needs it). */
struct d3d12xs_internal_pass {
    struct d3d12xs_internal_layout layout;
    VkPipeline pipeline;
};
struct d3d12xs_internal_pass *d3d12xs_internal_pass_create(struct d3d12_device *device, uint32_t binding_count, uint32_t push_size,
        const uint32_t *code, size_t code_size);
/* NULL is nothing to destroy. */
void d3d12xs_internal_pass_destroy(struct d3d12_device *device, struct d3d12xs_internal_pass *pass);

/* The storage-buffer range that holds the size-byte value at offset, starting at the
 * device's storage offset alignment; *index: the value's index in it, in units of size. */
VkDescriptorBufferInfo d3d12xs_internal_value_range(const struct d3d12_device *device, VkBuffer buffer, uint64_t offset, uint32_t size,
        uint32_t *index);

#endif
