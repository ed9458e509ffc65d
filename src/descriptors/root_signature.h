/* Root signature objects (root_signature.c). */
#ifndef D3D12XS_ROOT_SIGNATURE_H
#define D3D12XS_ROOT_SIGNATURE_H

#include "device/device.h"

#define D3D12XS_MAX_ROOT_PARAMETERS 64 /* D3D12's root cost limit allows at most 64 */
#define D3D12XS_MAX_ROOT_CONSTANT_BYTES 256 /* 64 DWORDs, the root cost limit, with their packing */

/* One push-descriptor binding of a pipeline layout, as a key: padding-free, compared bytewise. */
struct d3d12xs_root_layout_binding {
    uint32_t binding;
    VkDescriptorType type;
    uint32_t count;
    uint32_t reserved; /* zero: keeps the sampler 8-byte aligned without padding */
    VkSampler immutable_sampler; /* a static sampler, or VK_NULL_HANDLE */
};

struct d3d12_root_signature {
    ID3D12RootSignature ID3D12RootSignature_iface;
    struct d3d12xs_object object;
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc; /* converted to 1.1 */
    void *blob;                                /* the serialized form: equal blobs mean compatible signatures */
    size_t blob_size;
    uint32_t push_constant_size;               /* root constants, packed in parameter order */
    uint32_t constant_offsets[D3D12XS_MAX_ROOT_PARAMETERS]; /* byte offset of each constants parameter */
    /* Copies of what recording checks per call, so they need no walk through desc. */
    uint32_t parameter_count;
    uint8_t parameter_types[D3D12XS_MAX_ROOT_PARAMETERS];
    uint32_t constant_counts[D3D12XS_MAX_ROOT_PARAMETERS];
    uint64_t constants_mask; /* bit per 32-bit-constants parameter */
    /* Descriptor tables are offsets into the heaps (descriptor_buffer.h): each table's first
     * heap index is a 32-bit push constant at table_push_offsets[parameter], after the root
     * constants (from 0 under the memory-based ABI, whose constants travel in memory).
     * push_bytes: where the push constants of root arguments end. */
    uint32_t table_count;
    uint64_t sampler_table_mask; /* bit per table parameter of SAMPLER ranges */
    uint32_t table_push_offsets[D3D12XS_MAX_ROOT_PARAMETERS];
    uint32_t tables_offset, push_bytes;
    /* D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI (or RAYTRACING): root constants reach
     * shaders through a per-dispatch argument buffer instead of push constants. */
    bool memory_abi;
    /* The Vulkan stages that may see root arguments: every stage but those the DENY_* flags
     * name. Pipeline layouts take their stage masks from it (compute is never denied). */
    VkShaderStageFlags vk_stages;
    VkSampler *static_samplers;
    /* The pipeline layouts made for its pipelines, one per binding shape (root_signature_layout.c),
     * under object.lock. */
    struct d3d12xs_root_layout *layouts;
    /* Its own layout, made with it where its root constants travel as push constants: the heap
     * sets where it has tables, every root CBV/SRV/UAV a push descriptor at its parameter index.
     * Pipelines whose shaders bind only root descriptors and tables use it. */
    bool has_root_layout;
    struct d3d12xs_root_layout_binding root_layout_bindings[D3D12XS_MAX_ROOT_PARAMETERS];
    uint32_t root_layout_binding_count;
};


struct d3d12_root_signature *unsafe_impl_from_ID3D12RootSignature(ID3D12RootSignature *iface);
HRESULT d3d12_root_signature_create(struct d3d12_device *device, UINT node_mask, const void *blob, SIZE_T size, REFIID riid, void **out);
/* The root signature's pipeline layout for a push-descriptor set of these bindings and
 * push_constant_size bytes of push constants: made on first request, shared afterwards. The
 * caller gets a reference (*layout, released with d3d12xs_root_layout_release) that keeps
 * *vk_layout valid after the root signature goes, as a pipeline's retirement needs. Thread-safe. */
HRESULT d3d12_root_signature_get_layout(struct d3d12_root_signature *signature, const struct d3d12xs_root_layout_binding *bindings,
        uint32_t binding_count, uint32_t push_constant_size, struct d3d12xs_root_layout **layout, VkPipelineLayout *vk_layout,
        const char *method);
void d3d12xs_root_layout_release(struct d3d12_device *device, struct d3d12xs_root_layout *layout);
/* At creation: makes the root signature's own layout where it can have one (has_root_layout). */
HRESULT d3d12_root_signature_make_root_layout(struct d3d12_root_signature *signature, const char *method);
/* The push-constant bytes of its pipeline layouts: the root constants and table starts, then
 * (where the device has room) 16 bytes for DispatchX's thread limit at *thread_limit_offset
 * (else UINT32_MAX). */
uint32_t d3d12_root_signature_push_constant_range(const struct d3d12_root_signature *signature, uint32_t *thread_limit_offset);
/* The set of its pipelines' push descriptors: after the heap sets where it has tables. */
uint32_t d3d12_root_signature_push_set(const struct d3d12_root_signature *signature);
/* The descriptor type of root CBV/SRV/UAV parameter index in the root signature's own layout. */
VkDescriptorType d3d12_root_descriptor_vk_type(const struct d3d12_root_signature *signature, uint32_t index);
/* The root signature's own references, at its destruction. */
void d3d12_root_signature_destroy_layouts(struct d3d12_root_signature *signature);
bool d3d12_root_signatures_compatible(const struct d3d12_root_signature *a, const struct d3d12_root_signature *b);

#endif
