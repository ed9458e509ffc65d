/* The inputs and outputs of a graphics stage's module (spirv_stage_io.c): what D3D12 links
 * stages by. D3D12 matches a stage's inputs to the previous stage's outputs, and a vertex
 * shader's inputs to the input layout's elements, by semantic name and index; Vulkan matches by
 * Location. D3DCompile's modules keep each located input and output's semantic as a
 * UserSemantic decoration (SPV_GOOGLE_hlsl_functionality1: spirv_finish_hlsl.c), so pipeline
 * creation can give the variables of one semantic the same Location in every stage
 * (pipelines/graphics_link.c) and then drop the decorations (d3d12xs_spirv_pass_locations).
 * Modules without semantics (SPIR-V written for Vulkan) keep the Locations they have. */
#ifndef D3D12XS_SPIRV_STAGE_IO_H
#define D3D12XS_SPIRV_STAGE_IO_H

#include "spirv/spirv_module.h"

#define D3D12XS_SEMANTIC_NAME_SIZE 64
#define D3D12XS_NO_LOCATION UINT32_MAX

/* One input or output variable of the entry point's interface. */
struct d3d12xs_stage_variable {
    uint32_t variable_id;
    bool output;
    bool patch;                 /* a per-patch variable of a hull or domain shader */
    uint32_t builtin;           /* its SpvBuiltIn, or UINT32_MAX */
    uint32_t location;          /* D3D12XS_NO_LOCATION for built-ins */
    uint32_t location_count;    /* Locations it takes: 1, or more for arrays and matrices */
    /* Its semantic, upper case, without the index ("TEXCOORD" of "texcoord3"): "" when the
     * module does not say; semantic_index: the index of its first Location's semantic. */
    char semantic[D3D12XS_SEMANTIC_NAME_SIZE];
    uint32_t semantic_index;
    /* Of one Location: the scalar type (SpvOpTypeFloat, SpvOpTypeInt; signedness for Int), its
     * width, and the number of components (1 to 4). */
    uint32_t scalar_op, scalar_signed, scalar_width, components;
};

struct d3d12xs_stage_interface {
    uint32_t execution_model;   /* SpvExecutionModel of the entry point */
    struct d3d12xs_stage_variable *variables;
    uint32_t count;
};

/* Reads the interface of the module's first entry point. E_INVALIDARG with a reason for a
 * variable whose type or decorations it cannot follow; E_OUTOFMEMORY. */
HRESULT d3d12xs_spirv_stage_interface(const struct d3d12xs_spirv_module *m, struct d3d12xs_stage_interface *iface,
        char *error, size_t error_size);
void d3d12xs_stage_interface_cleanup(struct d3d12xs_stage_interface *iface);

/* Splits a D3D semantic ("TEXCOORD3") into its upper-case name and index (3; 0 when it has no
 * digits). false when it does not fit name_size. */
bool d3d12xs_split_semantic(const char *semantic, char *name, size_t name_size, uint32_t *index);

/* The semantics of a module made from DXBC (frontends/dxbc_translate.c): each input and output
 * variable at Location L gets the semantic of the one signature element of its direction with
 * register L and no system value (where several share a register, none: it links by Location).
 * Per-patch variables (Patch decoration) take the patch constants' elements, at Location
 * reg + patch_location_base. */
struct d3d12xs_spirv_semantic {
    bool output;
    uint32_t reg;
    const char *name;
    uint32_t index;
    bool patch;
};
struct d3d12xs_spirv_semantics_args {
    const struct d3d12xs_spirv_semantic *semantics;
    uint32_t count;
    uint32_t patch_location_base;
};
HRESULT d3d12xs_spirv_pass_semantics(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_semantics_args *args,
        char *error, size_t error_size);

/* The pass that settles Locations (pipeline creation, after linking): variable_ids[k] gets
 * Location locations[k] (and, where indices[k] is not UINT32_MAX, Index indices[k]: dual-source
 * blending's second output). Then every UserSemantic decoration goes, and with the last of them
 * the GOOGLE extensions that D3DCompile kept for them: what is left is plain Vulkan SPIR-V. */
struct d3d12xs_spirv_locations_args {
    const uint32_t *variable_ids, *locations, *indices;
    uint32_t count;
};
HRESULT d3d12xs_spirv_pass_locations(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_locations_args *args,
        char *error, size_t error_size);

#endif
