/* Root signature objects (root_signature.c). */
#ifndef D3D12XS_ROOT_SIGNATURE_H
#define D3D12XS_ROOT_SIGNATURE_H

#include <pthread.h>

#include "device/device.h"

#define D3D12XS_MAX_ROOT_PARAMETERS 64 /* D3D12's root cost limit allows at most 64 */
#define D3D12XS_MAX_ROOT_CONSTANT_BYTES 256 /* 64 DWORDs, the root cost limit, with their packing */

/* The bindings of a root signature's push-descriptor set, fixed by the root signature alone so
 * that all its pipelines share one layout: each root CBV/SRV/UAV at its parameter index, then
 * d3d12xs's own bindings, then the static samplers (immutable samplers) in their order. */
#define D3D12XS_PUSH_BINDING_ORDERED_APPEND D3D12XS_MAX_ROOT_PARAMETERS /* DispatchX's ordered-append state */
#define D3D12XS_PUSH_BINDING_ARGUMENTS (D3D12XS_MAX_ROOT_PARAMETERS + 2) /* memory-based ABI: the argument buffer */
#define D3D12XS_PUSH_BINDING_STATIC_SAMPLERS (D3D12XS_MAX_ROOT_PARAMETERS + 3) /* + the static sampler's index */

/* A root signature's pipeline layout of one kind. The root signature holds one reference, each
 * pipeline made with it another, so it outlives the root signature while a retired pipeline may
 * still be in recorded work. */
struct d3d12xs_root_layout {
    atomic_uint refcount;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
};

/* The kinds of pipeline layout a root signature has, indexed like the command list's bind points. */
enum d3d12xs_layout_kind {
    D3D12XS_LAYOUT_COMPUTE,
    D3D12XS_LAYOUT_GRAPHICS,
    D3D12XS_LAYOUT_KIND_COUNT,
};

struct d3d12_root_signature {
    ID3D12RootSignature ID3D12RootSignature_iface;
    struct d3d12xs_object object;
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc; /* converted to 1.2, which holds every version's fields */
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
    uint32_t root_views_offset, root_view_count; /* below: with what every Dispatch reads */
    /* CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED: the bound heap's size is a push constant at this byte
     * offset, after the table starts (else UINT32_MAX). */
    uint32_t heap_size_offset;
    /* Root SRVs and UAVs that are push descriptors start their descriptor at an aligned address
     * up to a few bytes before the argument (docs/descriptors.md); how many is a push constant
     * at root_view_offsets[parameter], from root_views_offset on, after the table starts and the
     * heap size: UINT32_MAX where the push constants have no room (such arguments must then be
     * aligned). */
    uint32_t root_view_offsets[D3D12XS_MAX_ROOT_PARAMETERS];
    /* ExecuteIndirect's root CBV/SRV/UAV arguments (docs/indirect.md): on a device with generated
     * commands and the default ABI, each root view parameter has a 16-byte entry {D3D12 VA low,
     * high, the GPU VA table's device address low, high} at indirect_view_offsets[parameter],
     * after the thread limit, inside every layout's push range; UINT32_MAX where the push
     * constants have no room (or no such device). A pipeline variant reads the views from there. */
    uint32_t indirect_view_offsets[D3D12XS_MAX_ROOT_PARAMETERS];
    /* Without generated commands (ExecuteIndirect's own path, docs/indirect.md): the byte offset
     * of the two uints that hold, per command, the address of the memory the pipeline's variant
     * reads the commands' root constants, entries and vertex and index buffer views from, after
     * the entries (in every root signature where it fits); else UINT32_MAX. */
    uint32_t indirect_image_offset;
    uint32_t indirect_views_end; /* where the entries (and the image address) end (0: none) */
    bool reads_heaps; /* tables or a directly indexed heap: the layout starts with the heap sets */
    /* D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI (or RAYTRACING): root constants reach
     * shaders through a per-dispatch argument buffer instead of push constants. */
    bool memory_abi;
    /* The Vulkan stages that may see root arguments: every stage but those the DENY_* flags
     * name. Pipeline layouts take their stage masks from it, within the device's stages
     * (d3d12_root_signature_layout_stages; compute is never denied). */
    VkShaderStageFlags vk_stages;
    /* The stages of each kind's push-constant range: every vkCmdPushConstants names them all. */
    VkShaderStageFlags vk_push_stages[D3D12XS_LAYOUT_KIND_COUNT];
    VkSampler *static_samplers;
    /* Its pipeline layouts, one per kind (root_signature_layout.c): compute's made with it, the
     * graphics one with its first graphics pipeline; each shared by all its pipelines of that
     * kind. Both have the same bindings, seen by their own stages. A push-descriptor set holds at most the device's push_descriptor_limit
     * descriptors: what did not fit is left out, in this order, and a pipeline whose shader
     * needs it is refused (E_NOTIMPL). The argument buffer (memory-based ABI) comes first,
     * then the root CBV/SRV/UAV, the ordered-append state and the static samplers. */
    _Atomic(struct d3d12xs_root_layout *) layouts[D3D12XS_LAYOUT_KIND_COUNT];
    uint64_t pushed_root_mask;      /* bit per root CBV/SRV/UAV in the layout */
    bool has_ordered_append_binding, has_arguments_binding;
    uint32_t static_sampler_bindings; /* the first this many static samplers are in the layout */
    /* What the command signatures made with it set that needs a pipeline variant
     * (pipelines/pipeline_indirect_ahead.c): its pipelines make those variants ahead of
     * ExecuteIndirect, so recording does not compile. Under indirect_keys_lock. */
    pthread_mutex_t indirect_keys_lock;
    struct d3d12_indirect_key *indirect_keys;
    uint32_t indirect_key_count;
};

/* Where a draw command signature's root arguments lie in its commands, for a vertex shader that
 * reads them there (ExecuteIndirect's one multi-draw without images, command_list_indirect.c):
 * per root parameter the byte offset in a command of the CONSTANT that sets all its constants
 * or of the root view's address, D3D12_INDIRECT_LAYOUT_NONE where the signature sets none;
 * stride 0: no such layout. */
#define D3D12_INDIRECT_LAYOUT_NONE 0xffffu
struct d3d12_indirect_layout {
    uint32_t stride;
    uint16_t offsets[D3D12XS_MAX_ROOT_PARAMETERS];
};

/* The own path's vertex shaders that fetch their inputs from memory (spirv_vertex_pulling.c):
 * for a signature that sets vertex buffer views (VERTICES), or an index buffer view of indexed
 * draws (INDEXED: the draw is not indexed, the shader reads the index). */
enum d3d12_vertex_pulling {
    D3D12_VERTEX_PULLING_NONE,
    D3D12_VERTEX_PULLING_VERTICES,
    D3D12_VERTEX_PULLING_INDEXED,
};

/* One set of root arguments a command signature sets, as a pipeline variant needs it. */
struct d3d12_indirect_key {
    uint64_t root_view_mask, constant_mask; /* bit per root parameter */
    bool from_memory;                       /* the own path (no generated commands) */
    bool graphics;                          /* the signature draws */
    uint8_t pulling;                        /* enum d3d12_vertex_pulling (the own path) */
    struct d3d12_indirect_layout layout;    /* read in the commands themselves (stride not 0) */
};


struct d3d12_root_signature *unsafe_impl_from_ID3D12RootSignature(ID3D12RootSignature *iface);
/* The reference a pipeline holds on its root signature: D3D12 keeps it out of the public count. */
void d3d12_root_signature_add_private_ref(struct d3d12_root_signature *signature);
void d3d12_root_signature_release_private_ref(struct d3d12_root_signature *signature);
HRESULT d3d12_root_signature_create(struct d3d12_device *device, UINT node_mask, const void *blob, SIZE_T size, REFIID riid, void **out);
/* A reference to the root signature's layout of a kind for a pipeline (released with
 * d3d12xs_root_layout_release): it keeps *vk_layout valid after the root signature goes, as a
 * pipeline's retirement needs. Makes the graphics layout the first time (a failure, logged for
 * `method`, if Vulkan refuses it). Thread-safe. */
HRESULT d3d12_root_signature_get_layout(struct d3d12_root_signature *signature, enum d3d12xs_layout_kind kind, const char *method,
        struct d3d12xs_root_layout **layout, VkPipelineLayout *vk_layout);
void d3d12xs_root_layout_release(struct d3d12_device *device, struct d3d12xs_root_layout *layout);
/* At creation: makes the root signature's compute layout. */
HRESULT d3d12_root_signature_make_layout(struct d3d12_root_signature *signature, const char *method);
/* The push-constant bytes of its pipeline layouts: the root constants and table starts, then
 * (where the device has room) 16 bytes for DispatchX's thread limit at *thread_limit_offset
 * (else UINT32_MAX; in graphics layouts the view, slices and viewports that draws of views at
 * other locations push, pipelines/graphics_pipeline.h), then ExecuteIndirect's root view entries (indirect_view_offsets). */
uint32_t d3d12_root_signature_push_constant_range(const struct d3d12_root_signature *signature, uint32_t *thread_limit_offset);
/* The stages its layout serves (push constants, push descriptors, heap sets): compute and the
 * graphics stages the device has that no DENY_* flag takes away. */
VkShaderStageFlags d3d12_root_signature_layout_stages(const struct d3d12_root_signature *signature);
/* The stages of its layout of one kind: compute alone, or the graphics stages of the above. */
VkShaderStageFlags d3d12_root_signature_kind_stages(const struct d3d12_root_signature *signature, enum d3d12xs_layout_kind kind);
/* The set of its pipelines' push descriptors: after the heap sets where it has tables. */
uint32_t d3d12_root_signature_push_set(const struct d3d12_root_signature *signature);
/* The descriptor type of root CBV/SRV/UAV parameter index in the root signature's layout. */
VkDescriptorType d3d12_root_descriptor_vk_type(const struct d3d12_root_signature *signature, uint32_t index);
/* The root signature's own reference, at its destruction. */
void d3d12_root_signature_destroy_layout(struct d3d12_root_signature *signature);
bool d3d12_root_signatures_compatible(const struct d3d12_root_signature *a, const struct d3d12_root_signature *b);

/* ExecuteIndirect's own path: the bytes from one command's image of the push block to the next. */
static inline uint32_t d3d12_root_signature_indirect_image_bytes(const struct d3d12_root_signature *signature)
{
    return (signature->indirect_views_end + 15) & ~15u;
}

#endif
