/* Pipeline states: the Vulkan pipeline and how its bindings map to root arguments. Compute
 * pipelines are made here (pipeline_state.c); graphics pipelines (graphics_pipeline.c) are the
 * same object with their stages' bindings merged and the graphics part at `graphics`. */
#ifndef D3D12XS_PIPELINE_STATE_H
#define D3D12XS_PIPELINE_STATE_H

#include "device/device.h"
#include "descriptors/root_signature.h"
#include "d3d12_xs.h"

enum d3d12xs_binding_source {
    D3D12XS_BINDING_ROOT_DESCRIPTOR, /* a root CBV/SRV/UAV: a GPU virtual address */
    D3D12XS_BINDING_TABLE,           /* descriptors of a table, read by the shader from the bound heap's memory */
    D3D12XS_BINDING_STATIC_SAMPLER,  /* an immutable sampler of the set layout */
    D3D12XS_BINDING_ORDERED_APPEND,  /* the ordered-append state of the DispatchX (d3d12xs_ordered_append.hlsli) */
    D3D12XS_BINDING_HEAP_INDEXED,    /* d3d12xs_heap.hlsli's heap: the bound CBV_SRV_UAV heap's memory from its start */
    D3D12XS_BINDING_HEAP_SIZE,       /* d3d12xs_heap.hlsli's heap size: a push constant after the table starts */
    D3D12XS_BINDING_ROOT_ADDRESS,    /* a root CBV/SRV/UAV of the memory-based ABI: its address goes in the argument buffer */
};

/* One push-descriptor binding of a pipeline and where its descriptors come from. */
struct d3d12xs_pipeline_binding {
    enum d3d12xs_binding_source source;
    uint32_t root_index;
    uint32_t table_offset;   /* descriptor index from the table start, for array element 0 */
    uint32_t heap_set;       /* TABLE: D3D12XS_HEAP_SET_RESOURCES, _COUNTERS or _SAMPLERS */
    uint32_t table_extent;   /* TABLE: descriptors it reads from table_offset on (an unbounded array: 1) */
    uint32_t array_size;     /* push descriptors it takes (0 for TABLE, constants and the HEAP_* ones) */
    uint32_t vk_binding;     /* in the root signature's push-descriptor set (root_signature.h) */
    VkDescriptorType vk_type;
    bool counter;            /* the hidden counter buffer of a UAV (IncrementCounter, Append, Consume) */
    uint32_t address_slot;   /* ROOT_ADDRESS: its entry in the argument buffer's address table */
    /* Root SRV/UAV push descriptors: the shader's variable (and the uvec4 alias D3DCompile may
     * read the same raw buffer through), the ArrayStride of its runtime array, and whether the
     * shader adds the view's misalignment (spirv/spirv_view_offsets.c): else the address must be aligned. */
    uint32_t variable_id, alias_variable_id;
    uint32_t view_stride;
    bool view_offsets;
    char register_name[32];  /* "t3, space1", for messages */
};

/* The most shader stages of a pipeline: VS, HS, DS, GS, PS (graphics_link.h's count). */
#define D3D12XS_PIPELINE_MAX_STAGES 5

/* The VkPipelines of a compute pipeline (pipeline_variant.c). */
enum d3d12xs_pipeline_variant {
    D3D12XS_PIPELINE_BASE,     /* Dispatch, and DispatchX when none of the below is needed */
    D3D12XS_PIPELINE_SCALAR,   /* root raw views read as 32-bit words: a root SRV/UAV off a 16-byte boundary */
    /* Every DispatchX that needs a start group (DISPATCH_BASE) or a thread limit: both in one
     * pipeline, with SCALAR's root views where the shader has uvec4 ones (pipeline_variant.c). */
    D3D12XS_PIPELINE_DISPATCHX,
    D3D12XS_PIPELINE_DISPATCHX_COHERENT, /* the same with every storage buffer and image Coherent */
    D3D12XS_PIPELINE_VARIANT_COUNT
};

/* A compute pipeline: its VkPipelines and how its bindings map to root arguments, what a
 * command list binds. Create*PipelineState hands out a COM object of its own per call
 * (pipeline_state.c); objects made from identical descriptions share one of these, found in the
 * device's table of live pipelines. Nothing in it changes after creation, so recording reads it
 * without a lock. */
struct d3d12_pipeline_state {
    struct d3d12_device *device;
    /* The pipeline state objects sharing it; changed under the device's pipeline table lock. */
    unsigned share_count;
    /* Its entry in the device's table of live pipelines (pipeline_state.c): the hash of what
     * made it and the whole of it, compared on a hit. */
    struct d3d12_pipeline_state *next_in_bucket;
    uint64_t key_hash;
    void *bytecode; /* the key's bytes (struct d3d12_pipeline_key) */
    size_t bytecode_size;
    bool embedded_root_signature; /* pRootSignature was NULL: the shader's RTS0 part made it */
    D3D12_PIPELINE_STATE_FLAGS flags;
    struct d3d12_root_signature *root_signature; /* holds a reference */
    VkPipeline vk_pipeline;
    /* The root signature's, shared with all its pipelines; the reference keeps it while recorded
     * lists may use it, after the root signature itself may have gone. */
    struct d3d12xs_root_layout *layout;
    VkPipelineLayout vk_layout;
    uint32_t push_set;         /* the set of its push descriptors (after the heap sets where the root signature has tables) */
    bool reads_heaps;          /* its shader reads descriptor tables or indexes the heap: the list binds the heaps */
    bool indexes_heap;         /* its shader indexes the CBV_SRV_UAV heap directly (d3d12xs_heap.hlsli) */
    bool indexes_sampler_heap; /* ... and the SAMPLER heap */
    uint32_t local_size[3];
    uint32_t wave_size;        /* what the shader was built for: 32 or 64 */
    uint32_t subgroup_size;    /* what it runs with on this device (docs/dispatch.md) */
    bool required_subgroup_size; /* subgroup_size is required of Vulkan, not the device default */
    bool ordered_append;       /* the shader uses d3d12xs_ordered_append.hlsli's state */
    /* All made with the pipeline (pipeline_variant.c); variants identical to another share
     * its VkPipeline, VK_NULL_HANDLE where the shader needs none (SCALAR without uvec4 root views). */
    VkPipeline variants[D3D12XS_PIPELINE_VARIANT_COUNT];
    bool dispatchx_thread_limit; /* the DISPATCHX variants read the thread limit: DispatchX pushes it */
    /* Its source declared nothing globallycoherent (spirv.h's marker): DISABLE_VOLATILE has no
     * access to act on, and DISPATCHX_COHERENT is DISPATCHX. */
    bool no_volatile;
    /* Why a DispatchX needing a thread limit or coherent accesses cannot run (a group barrier,
     * no push-constant room, the Vulkan memory model); NULL where it can. */
    char *thread_limit_error, *coherent_error;
    /* Creation only: where a root raw buffer has a uvec4 alias, the SPIR-V before the view
     * offsets, which SCALAR starts from (pipeline_view_offsets.c). */
    uint32_t *scalar_source;
    size_t scalar_source_word_count;
    char entry_point[64];
    uint32_t thread_limit_offset; /* byte offset of the thread limit in the push constants; UINT32_MAX: no room */
    D3D12XBOX_COMPUTE_SHADER_LIMITS_DESC shader_limits; /* CreateComputePipelineStateX, advisory (docs/dispatch.md) */
    bool has_shader_limits;
    struct d3d12xs_pipeline_binding *bindings;
    uint32_t binding_count;
    uint32_t descriptor_count; /* sum of array sizes */
    uint64_t used_root_mask;
    /* For the record path, made when the pipeline enters the device's table: the tables the
     * shader reads (a bit per root parameter) and, per root parameter, how many descriptors from
     * its table's start it reads (0: none), which the table checks of every draw and dispatch take. */
    uint64_t table_read_mask;
    uint32_t table_reach[D3D12XS_MAX_ROOT_PARAMETERS];
    /* Memory-based ABI (root signature flag): the root constants the shader reads come from a
     * uniform buffer at this binding of the push-descriptor set (D3D12XS_PUSH_BINDING_ARGUMENTS),
     * written per dispatch: the constants (root_signature->push_constant_size bytes), then at
     * address_offset one 16-byte entry per root descriptor (ROOT_ADDRESS bindings),
     * argument_size bytes in all. */
    bool memory_abi;
    uint32_t argument_binding;
    uint32_t address_count, address_offset, argument_size;
    /* Binding a graphics stage: the address table entries earlier stages took, after which
     * this stage's go (0 for compute). */
    uint32_t address_base;
    uint32_t pushed_root_descriptor_count; /* root CBV/SRV/UAV bindings that stay push descriptors */
    /* Graphics pipelines (graphics_pipeline.h): what the list needs to draw with it, freed by
     * destroy_graphics when the pipeline goes; NULL for compute pipelines. */
    struct d3d12_graphics_pipeline *graphics;
    void (*destroy_graphics)(struct d3d12_device *device, struct d3d12_graphics_pipeline *graphics);
    /* What GetCachedBlob hands out (pipeline_blob.c), made with the pipeline. */
    void *cached_blob;
    size_t cached_blob_size;
    /* ExecuteIndirect's root view arguments (pipeline_indirect_variant.c): pipelines whose
     * shaders read root views that the root signature gives push-block entries (and, without
     * generated commands, every graphics pipeline and every pipeline of a root signature with
     * root constants, where the root signature has an indirect_image_offset) keep
     * each stage's final SPIR-V, and the variants made from it, one per set of root parameters a command
     * signature sets, made ahead of need (pipeline_indirect_variant.c; under the lock: lists
     * record on several threads). indirect_refusal: static text, why such a pipeline has none. */
    uint32_t *indirect_sources[D3D12XS_PIPELINE_MAX_STAGES];
    size_t indirect_source_word_counts[D3D12XS_PIPELINE_MAX_STAGES];
    uint32_t indirect_stage_count;
    const char *indirect_refusal;
    pthread_mutex_t indirect_lock;
    struct d3d12_indirect_variant *indirect_variants;
    uint32_t indirect_variant_count;
};

/* A pipeline's variant for ExecuteIndirect whose root views of root_view_mask (bit per root
 * parameter) are read from the push block's entries (root_signature.h); from_memory (the own
 * path, without generated commands): those entries and the root constants of
 * memory_constant_mask's parameters are read from the memory whose address is pushed at the root
 * signature's indirect_image_offset; with draw_indexed (graphics pipelines), the vertex shader
 * finds its command's memory at that address plus DrawIndex times the image's bytes, for one
 * multi-draw of all the commands (E_NOTIMPL where a later stage reads them: such pipelines take
 * the per-command variant). The pipeline's own VkPipeline where its shaders read none of them.
 * VK_NULL_HANDLE with *hr and error where it cannot be made. */
VkPipeline d3d12_pipeline_state_indirect_variant(struct d3d12_pipeline_state *state, uint64_t root_view_mask, uint64_t memory_constant_mask,
        bool from_memory, enum d3d12_vertex_pulling pulling, bool draw_indexed, HRESULT *hr, char *error, size_t error_size);
/* The variant whose vertex shader reads the root constants of memory_constant_mask's
 * parameters and the addresses of root_view_mask's root views in the commands themselves, as
 * layout places them: at the address pushed at the root signature's indirect_image_offset plus
 * DrawIndex times the stride (one multi-draw, no images). E_NOTIMPL where a later stage reads them. */
VkPipeline d3d12_pipeline_state_direct_draw_variant(struct d3d12_pipeline_state *state, uint64_t root_view_mask,
        uint64_t memory_constant_mask, const struct d3d12_indirect_layout *layout, HRESULT *hr, char *error, size_t error_size);

/* The own path's image of one command (pipeline_vertex_pulling.c): the push block's layout, then
 * with vertex pulling, per input slot below slot_count a view {address low, high, size, stride}
 * from slot_entries on; with INDEXED, the index buffer's view {address low, high, size, format}
 * at index_entry, the VkDrawIndirectCommand the draw reads at draw_arguments and the
 * BaseVertexLocation at base_vertex (else UINT32_MAX); bytes from one image to the next. */
struct d3d12_indirect_image_layout {
    uint32_t slot_entries, slot_count, index_entry, draw_arguments, base_vertex, bytes;
};
void d3d12_pipeline_state_indirect_image_layout(const struct d3d12_pipeline_state *state, enum d3d12_vertex_pulling pulling,
        struct d3d12_indirect_image_layout *layout);
struct d3d12xs_spirv_module;
/* The vertex pulling pass over the variant's vertex shader, with the input layout the pipeline kept. */
HRESULT d3d12_pipeline_state_pull_vertices(const struct d3d12_pipeline_state *state, struct d3d12xs_spirv_module *module,
        enum d3d12_vertex_pulling pulling, uint32_t draw_index_stride, char *error, size_t error_size);
/* ExecuteIndirect's variants made ahead of need, so that recording does not compile: for a new
 * pipeline, those of the command signatures made with its root signature
 * (root_signature->indirect_keys); for a new command signature, key's for a live pipeline
 * (command_signature.c walks them). Failures are left for ExecuteIndirect to report. */
void d3d12_pipeline_state_make_indirect_variants(struct d3d12_pipeline_state *state);
void d3d12_pipeline_state_make_indirect_variant(struct d3d12_pipeline_state *state, const struct d3d12_indirect_key *key);
/* At creation, before the build takes the words of each stage (graphics: in the build's order):
 * keeps them where a variant may be needed. */
HRESULT d3d12_pipeline_state_keep_indirect_source(struct d3d12_pipeline_state *state, uint32_t *const *words, const size_t *word_counts,
        uint32_t stage_count, const char *method);
void d3d12_pipeline_state_destroy_indirect_variants(struct d3d12_device *device, struct d3d12_pipeline_state *state);

/* What the device's table of live pipelines, cached blobs and pipeline libraries compare a
 * description by: the root signature's serialized blob (NULL: a shader carries it in its RTS0
 * part), the description's bytes (compute: the CS bytecode; graphics: graphics_desc.c's bytes of
 * every stage and state), flags and CreateComputePipelineStateX's limits. Node masks 0 and 1 name
 * the one node, and the cached blob is not part of it. */
struct d3d12_pipeline_key {
    struct d3d12_root_signature *signature;
    const void *bytes;
    size_t size;
    D3D12_PIPELINE_STATE_FLAGS flags;
    const D3D12XBOX_COMPUTE_SHADER_LIMITS_DESC *limits; /* NULL: not CreateComputePipelineStateX */
    bool graphics;
    uint64_t hash; /* d3d12_pipeline_key_hash */
};
void d3d12_pipeline_key_hash(struct d3d12_pipeline_key *key);
/* Whether state was made from key's description. */
bool d3d12_pipeline_state_matches(const struct d3d12_pipeline_state *state, const struct d3d12_pipeline_key *key);
/* The live pipelines of root_signature (NULL: of any) (graphics or compute), each with one more share (let go
 * with d3d12_pipeline_state_release_share), in a malloc()ed array; their count. */
size_t d3d12_pipeline_table_collect(struct d3d12_device *device, const struct d3d12_root_signature *root_signature, bool graphics,
        struct d3d12_pipeline_state ***out);
/* The table of live pipelines: a live pipeline of key's description with one more share, or NULL. */
struct d3d12_pipeline_state *d3d12_pipeline_table_find(struct d3d12_device *device, const struct d3d12_pipeline_key *key);
/* Enters made (share_count 1, key_hash, bytecode and flags set from key) and returns it; where
 * another thread entered an identical one meanwhile, returns that one with one more share and
 * made is the caller's to discard. */
struct d3d12_pipeline_state *d3d12_pipeline_table_insert(struct d3d12_device *device, struct d3d12_pipeline_state *made,
        const struct d3d12_pipeline_key *key, unsigned vk_pipeline_count);
/* One more share of a live pipeline, for another object (d3d12_pipeline_state_hand_out takes it over). */
void d3d12_pipeline_state_add_share(struct d3d12_pipeline_state *state);
/* Lets go of one share: the last takes the pipeline out of the table and retires it. */
void d3d12_pipeline_state_release_share(struct d3d12_pipeline_state *state);
/* D3D12's rules for a compute description, then the key it is compared by (borrowing desc's
 * root signature and bytecode; limits may be NULL). */
HRESULT d3d12_compute_pipeline_key(const D3D12_COMPUTE_PIPELINE_STATE_DESC *desc, const D3D12XBOX_COMPUTE_SHADER_LIMITS_DESC *limits,
        struct d3d12_pipeline_key *key, const char *method);
/* Copies key's description into state (the table compares by it) and takes its hash. */
HRESULT d3d12_pipeline_state_set_key(struct d3d12_pipeline_state *state, const struct d3d12_pipeline_key *key, const char *method);

/* The pipeline an ID3D12PipelineState of this library stands for, or NULL. */
/* What Create*PipelineState hands out: a COM object of its own per call (its own refcount, name
 * and private data, as Windows gives), standing for a pipeline that objects made from identical
 * descriptions share. */
struct d3d12_pipeline_state_object {
    ID3D12PipelineState ID3D12PipelineState_iface;
    struct d3d12xs_object object;
    struct d3d12_pipeline_state *pipeline; /* one of its share_count */
};
/* hidden: a SetPipelineState between settled draws compares against its address, which a
 * hidden symbol gives without a load through the GOT */
extern const ID3D12PipelineStateVtbl d3d12_pipeline_state_vtbl __attribute__((visibility("hidden")));
/* The pipeline behind an interface pointer, or NULL for NULL or an object d3d12xs did not make.
 * Inline: SetPipelineState between draws calls it. */
static inline struct d3d12_pipeline_state *unsafe_impl_from_ID3D12PipelineState(ID3D12PipelineState *iface)
{
    if (!iface || iface->lpVtbl != &d3d12_pipeline_state_vtbl)
        return NULL;
    return D3D12XS_CONTAINING(iface, struct d3d12_pipeline_state_object, ID3D12PipelineState_iface)->pipeline;
}
/* The record path's look-up: the ready VkPipeline of DispatchX variant `variant`
 * (D3D12XS_VARIANT_* bits); VK_NULL_HANDLE with the reason in error when the shader cannot run
 * that way. Never builds anything and takes no lock. */
VkPipeline d3d12_pipeline_state_variant(const struct d3d12_pipeline_state *state, unsigned variant, char *error, size_t error_size);
/* pipeline_variant.c, for pipeline_state.c: decides the subgroup size and the push-constant room
 * of the thread limit, then builds every VkPipeline the shader can need from the remapped SPIR-V
 * (taken over and freed). E_INVALIDARG (OOM: E_OUTOFMEMORY) with one line naming method where
 * one cannot be built. */
HRESULT d3d12_pipeline_state_build(struct d3d12_pipeline_state *state, uint32_t *spirv, size_t word_count, const char *entry_point,
        const char *method);
/* The subgroup size a pipeline of wave_size (32 or 64) and local_size runs with on device;
 * *required: Vulkan is asked for it (else it is the device's default). */
uint32_t d3d12xs_subgroup_size_for_wave(const struct d3d12_device *device, uint32_t wave_size, const uint32_t local_size[3], bool *required);
void d3d12_pipeline_state_destroy_variants(struct d3d12_device *device, struct d3d12_pipeline_state *state);
struct d3d12xs_spirv_module;
/* pipeline_view_offsets.c: the last pass of pipeline creation over module (after the heap
 * tables): raw and structured views at any element (spirv/spirv_view_offsets.c); sets the root
 * bindings' view_stride and view_offsets. With scalar, the root raw buffers' uvec4 aliases
 * become 32-bit accesses first. */
HRESULT d3d12_pipeline_state_apply_view_offsets(struct d3d12_pipeline_state *state, struct d3d12xs_spirv_module *module, bool scalar,
        char *error, size_t error_size);
/* The same for a graphics stage, which has no variants: its root raw buffers' uvec4 aliases
 * become 32-bit accesses for good (their bindings lose the alias), so a root view 4, 8 or 12
 * bytes past a 16-byte boundary needs no SCALAR variant. */
HRESULT d3d12_pipeline_state_apply_graphics_view_offsets(struct d3d12_pipeline_state *state, struct d3d12xs_spirv_module *module,
        char *error, size_t error_size);
/* The SPIR-V of the SCALAR variant (from scalar_source), malloc()ed. */
HRESULT d3d12_pipeline_state_scalar_spirv(struct d3d12_pipeline_state *state, uint32_t **words, size_t *word_count,
        char *error, size_t error_size);
/* The first capability of info (from d3d12xs_spirv_reflect) that needs a Vulkan feature the
 * device does not offer: returns the feature's name (e.g.
 * "shaderStorageTexelBufferArrayDynamicIndexing") and its capability's in *capability_name;
 * NULL when the device offers all of them. Exported for the tests. */
struct d3d12xs_shader_info;
const char *d3d12xs_missing_capability_feature(struct d3d12_device *device, const struct d3d12xs_shader_info *info,
        const char **capability_name);
/* pipeline_state_x.c: ID3D12Device::CreateComputePipelineStateX. */
HRESULT d3d12_pipeline_state_create_compute_x(struct d3d12_device *device, const D3D12_COMPUTE_PIPELINE_STATE_DESC *desc,
        UINT extension_count, const D3D12XBOX_EXTENDED_COMPUTE_PIPELINE_STATE_DESC *extensions, REFIID riid, void **out);
/* The shared creation path; limits may be NULL. */
HRESULT d3d12_pipeline_state_create(struct d3d12_device *device, const D3D12_COMPUTE_PIPELINE_STATE_DESC *desc,
        const D3D12XBOX_COMPUTE_SHADER_LIMITS_DESC *limits, const char *method, REFIID riid, void **out);
HRESULT d3d12_pipeline_state_create_compute(struct d3d12_device *device, const D3D12_COMPUTE_PIPELINE_STATE_DESC *desc, REFIID riid, void **out);
/* pipeline_state.c: the device's table of live pipelines, made and freed with the device
 * (api/device.c), and what it counted (D3D12XSGetPipelineStatistics). */
HRESULT d3d12xs_pipeline_table_init(struct d3d12_device *device);
void d3d12xs_pipeline_table_cleanup(struct d3d12_device *device);
void d3d12xs_pipeline_table_statistics(struct d3d12_device *device, D3D12XS_PIPELINE_STATISTICS *statistics);
/* A pipeline with nothing built yet and outside the table of live pipelines, holding a private
 * reference on signature (taken here), for graphics_pipeline.c; NULL when out of memory.
 * d3d12_pipeline_state_discard destroys it while no list has seen it; d3d12_pipeline_state_hand_out
 * gives the application an object of it (the object's last release lets it go). */
struct d3d12_pipeline_state *d3d12_pipeline_state_new(struct d3d12_device *device, struct d3d12_root_signature *signature);
void d3d12_pipeline_state_discard(struct d3d12_pipeline_state *state);
HRESULT d3d12_pipeline_state_hand_out(struct d3d12_pipeline_state *pipeline, const char *method, REFIID riid, void **out);
/* One stage's module (parsed or translated: from_dxbc) bound to the root signature's layout:
 * reflected (it must be a `stage` shader), its registers matched against the root parameters
 * and static samplers visible to the stage, remapped, the memory-based ABI's, float-control and
 * heap-table passes run (compute: also derivatives, view offsets and the SCALAR source), emitted
 * and validated where the device asks. Fills state's bindings and their summary (used_root_mask,
 * descriptor_count, reads_heaps...), *out_words (malloc()ed) and entry_point. argument names the
 * shader in log lines ("pDesc->VS"). The module stays the caller's. */
struct d3d12xs_spirv_module;
HRESULT d3d12_pipeline_state_bind_stage(struct d3d12_pipeline_state *state, struct d3d12xs_spirv_module *module, bool from_dxbc,
        VkShaderStageFlagBits stage, const char *argument, const char *method, uint32_t **out_words, size_t *out_word_count,
        char entry_point[64]);

#endif
