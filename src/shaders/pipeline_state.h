/* Compute pipeline states: the Vulkan pipeline and how its bindings map to root arguments. */
#ifndef D3D12XS_PIPELINE_STATE_H
#define D3D12XS_PIPELINE_STATE_H

#include "device/device.h"
#include "descriptors/root_signature.h"

enum d3d12xs_binding_source {
    D3D12XS_BINDING_ROOT_DESCRIPTOR, /* a root CBV/SRV/UAV: a GPU virtual address */
    D3D12XS_BINDING_TABLE,           /* descriptors from a table in the bound heap */
    D3D12XS_BINDING_STATIC_SAMPLER,  /* an immutable sampler of the set layout */
    D3D12XS_BINDING_HEAP_TABLE,      /* the bound CBV_SRV_UAV heap's address table (d3d12xs_heap.hlsli) */
    D3D12XS_BINDING_HEAP_MEMORY,     /* d3d12xs_heap.hlsli's memory marker: no descriptor, rewritten away */
};

/* One push-descriptor binding of a pipeline and where its descriptors come from. */
struct d3d12xs_pipeline_binding {
    enum d3d12xs_binding_source source;
    uint32_t root_index;
    uint32_t table_offset;   /* descriptor index from the table start, for array element 0 */
    uint32_t array_size;
    VkDescriptorType vk_type;
    bool counter;            /* the hidden counter buffer of a UAV (IncrementCounter, Append, Consume) */
    char register_name[32];  /* "t3, space1", for messages */
};

struct d3d12_pipeline_state {
    ID3D12PipelineState ID3D12PipelineState_iface;
    struct d3d12xs_object object;
    struct d3d12_root_signature *root_signature; /* holds a reference */
    VkPipeline vk_pipeline;
    VkPipelineLayout vk_layout;
    VkDescriptorSetLayout vk_set_layout;
    uint32_t local_size[3];
    uint32_t wave_size;        /* what the shader was built for: 32 or 64 */
    struct d3d12xs_pipeline_binding *bindings;
    uint32_t binding_count;
    uint32_t descriptor_count; /* sum of array sizes */
    uint64_t used_root_mask;
    /* Memory-based ABI (root signature flag): the root constants the shader reads come from a
     * uniform buffer at this binding of the push-descriptor set, written per dispatch. */
    bool memory_abi;
    uint32_t argument_binding;
};

struct d3d12_pipeline_state *unsafe_impl_from_ID3D12PipelineState(ID3D12PipelineState *iface);
HRESULT d3d12_pipeline_state_create_compute(struct d3d12_device *device, const D3D12_COMPUTE_PIPELINE_STATE_DESC *desc, REFIID riid, void **out);

#endif
