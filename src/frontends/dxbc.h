/* DXBC shader containers (FXC's output, shader model 5.0 and 5.1): the container is checked
 * whole (size, checksum, every part inside it) and the shader's token stream walked once
 * (every instruction inside the stream) before libvkd3d-shader sees it, and the resource
 * declarations are read out, which is what the translation (dxbc_translate.c) needs beyond
 * what libvkd3d-shader's scan reports: whether a buffer view is raw, structured or typed.
 *
 * None of these functions logs: the reason goes into error, and the caller logs it once. */
#ifndef D3D12XS_DXBC_H
#define D3D12XS_DXBC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "d3d12.h"
#include "spirv/spirv.h"

#define D3D12XS_DXIL_UNSUPPORTED_MESSAGE \
    "DXIL (shader model 6, DXC's output) is not supported: no DXIL translator is packaged for this platform; " \
    "pass DXBC (FXC, shader model 5.0 or 5.1), HLSL compiled with D3DCompile, or SPIR-V"

enum d3d12xs_dxbc_view {
    D3D12XS_DXBC_VIEW_TYPED,        /* Buffer<T>, RWBuffer<T>; cbuffers and samplers too */
    D3D12XS_DXBC_VIEW_RAW,          /* (RW)ByteAddressBuffer */
    D3D12XS_DXBC_VIEW_STRUCTURED,   /* (RW)StructuredBuffer<T> */
};

/* One declared resource: registers first..last of a class in a space (shader model 5.0: one
 * register in space 0; 5.1: a range, last UINT32_MAX when unbounded). */
struct d3d12xs_dxbc_resource {
    enum d3d12xs_register_class register_class;
    uint32_t space, first, last;
    enum d3d12xs_dxbc_view view;
    uint32_t stride;                /* structured views */
    bool texture;                   /* a typed SRV or UAV of a texture dimension (an image in SPIR-V) */
    uint32_t id;                    /* what instructions name it by: 5.1 its range id, 5.0 its register */
    bool counter;                   /* a UAV with a counter (IncrementCounter, Append, Consume) */
    bool globally_coherent;         /* a UAV declared globallycoherent (_glc): its accesses are volatile */
};

/* One element of an input, output or patch-constant signature (ISGN/OSGN/PCSG and their
 * 5.0 and 5.1 forms): the semantic a register's components hold. */
struct d3d12xs_dxbc_signature_element {
    char semantic[64];
    uint32_t semantic_index;
    uint32_t system_value;          /* D3D_NAME */
    uint32_t reg;
    uint8_t mask;
};

struct d3d12xs_dxbc_shader {
    uint32_t program_type;          /* 0 pixel, 1 vertex, 2 geometry, 3 hull, 4 domain, 5 compute */
    uint32_t major, minor;
    uint32_t thread_group[3];
    struct d3d12xs_dxbc_resource *resources;
    uint32_t resource_count;
    bool has_root_signature;        /* an RTS0 part */
    /* Graphics stages: the signatures (inputs, outputs, then the patch constants of hull and
     * domain shaders), what their registers are linked by. */
    struct d3d12xs_dxbc_signature_element *signature;
    uint32_t input_count, output_count, patch_count;
    /* Hull shaders: whether the shader has a control point phase of its own (FXC leaves it out
     * of one that passes its control points through), whether a fork or join phase declares
     * vicp (input control points) or vocp (output control points, which other invocations
     * wrote: dxbc_translate.c puts a barrier before that phase; dxbc_hull.h), the control point
     * counts. */
    bool control_point_phase;
    bool patch_phase_reads_input_points, patch_phase_reads_output_points;
    uint32_t input_control_points, output_control_points;
};

/* The tessellator state a hull shader sets and libvkd3d-shader's translation of a domain shader
 * takes (its vkd3d_shader_spirv_domain_shader_target_info: D3D's declarations and their values,
 * dcl_tessellator_output_primitive 1 point to 4 triangle_ccw, dcl_tessellator_partitioning 1
 * integer to 4 fractional_even); 0 where not known. */
struct d3d12xs_dxbc_tessellator {
    uint32_t output_primitive;
    uint32_t partitioning;
};

/* True when code starts like a DXBC container (it may still be malformed, or hold DXIL). */
bool d3d12xs_dxbc_is_container(const void *code, size_t size);
/* True when the container's header and part table are sound and it has a part with tag (e.g.
 * "RTS0"); nothing else is checked. */
bool d3d12xs_dxbc_has_part(const void *code, size_t size, const char tag[4]);

/* Checks the container and the shader in it and reads its declarations and signatures.
 * E_INVALIDARG with a reason for anything malformed, DXIL, a shader that is not of model 5.x;
 * E_NOTIMPL for what d3d12xs's translation does not take (a UAV counter on a register range);
 * E_OUTOFMEMORY. On failure shader is zeroed. */
HRESULT d3d12xs_dxbc_parse(const void *code, size_t size, struct d3d12xs_dxbc_shader *shader, char *error, size_t error_size);
void d3d12xs_dxbc_shader_cleanup(struct d3d12xs_dxbc_shader *shader);

#endif
