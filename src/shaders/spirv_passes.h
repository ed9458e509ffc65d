/* The passes over a d3d12xs_spirv_module (spirv_module.h), one signature for all:
 *     HRESULT d3d12xs_spirv_pass_NAME(struct d3d12xs_spirv_module *m,
 *             const struct d3d12xs_spirv_NAME_args *args, char *error, size_t error_size);
 * On failure error gets the reason (E_INVALIDARG: a module the pass cannot handle) and the module
 * may be half rewritten: the caller drops it. Reflection only reads the module.
 *
 * Who runs what: D3DCompile (shader_compile.c), pipeline creation (pipeline_state.c: reflect,
 * remap, heap pointers, memory ABI, root pointers, float controls) and the DispatchX variants
 * (pipeline_variant.c). */
#ifndef D3D12XS_SPIRV_PASSES_H
#define D3D12XS_SPIRV_PASSES_H

#include "shaders/spirv.h"
#include "shaders/spirv_module.h"

/* spirv_reflect.c: see d3d12xs_spirv_reflect() in spirv.h. On failure info is zeroed. */
HRESULT d3d12xs_spirv_reflect_module(const struct d3d12xs_spirv_module *m, struct d3d12xs_shader_info *info,
        char *error, size_t error_size);

/* spirv_remap.c: see d3d12xs_spirv_remap() in spirv.h (info from reflecting this module). */
struct d3d12xs_spirv_remap_args {
    const struct d3d12xs_shader_info *info;
    const struct d3d12xs_binding_target *targets;
};
HRESULT d3d12xs_spirv_pass_remap(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_remap_args *args,
        char *error, size_t error_size);
/* D3D12XS_DEBUG: modules are checked with the SPIR-V validator once their passes ran. */
bool d3d12xs_spirv_debug_validation(void);

/* spirv_heap.c: turns each access to the heap memory marker variable (include/d3d12xs_heap.hlsli)
 * into a PhysicalStorageBuffer pointer access and removes the variable. E_INVALIDARG with a reason
 * for a use of the marker other than the header's. */
struct d3d12xs_spirv_heap_pointers_args {
    uint32_t marker;
};
HRESULT d3d12xs_spirv_pass_heap_pointers(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_heap_pointers_args *args,
        char *error, size_t error_size);

/* spirv_memory_abi.c: turns the module's push-constant block (from the remap) into a uniform
 * buffer at set/binding, members and offsets unchanged (root signatures with
 * FORCE_MEMORY_BASED_ABI); a module without push constants is left as it is. */
struct d3d12xs_spirv_memory_abi_args {
    uint32_t set, binding;
};
HRESULT d3d12xs_spirv_pass_memory_abi(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_memory_abi_args *args,
        char *error, size_t error_size);

/* spirv_root_pointers.c: root descriptors of the memory-based ABI. variables[k] (k < count, at
 * most 62) is the Uniform or StorageBuffer variable of root descriptor k; each goes, and its
 * accesses go through a PhysicalStorageBuffer pointer loaded from entry k of the table at byte
 * table_offset (a multiple of 16) of the uniform buffer at set/binding: {address low, address
 * high, bytes from the address to the end of its buffer, 0}. E_INVALIDARG with a reason for a
 * use of such a variable the rewrite does not handle. */
struct d3d12xs_spirv_root_pointers_args {
    const uint32_t *variables;
    uint32_t count;
    uint32_t set, binding, table_offset;
};
HRESULT d3d12xs_spirv_pass_root_pointers(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_root_pointers_args *args,
        char *error, size_t error_size);

/* spirv_float_controls.c: adds SignedZeroInfNanPreserve for the 32- and 64-bit floats the module
 * uses, where the device can preserve them. */
struct d3d12xs_spirv_float_controls_args {
    bool preserve32, preserve64;
};
HRESULT d3d12xs_spirv_pass_float_controls(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_float_controls_args *args,
        char *error, size_t error_size);

/* spirv_dispatch_variant.c: see d3d12xs_spirv_dispatch_variant() in spirv.h. */
struct d3d12xs_spirv_dispatch_variant_args {
    unsigned variant;       /* D3D12XS_VARIANT_* bits */
    uint32_t limit_offset;  /* THREAD_LIMIT: byte offset of the uint3 limit in the push constants */
};
HRESULT d3d12xs_spirv_pass_dispatch_variant(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_dispatch_variant_args *args,
        char *error, size_t error_size);

#endif
