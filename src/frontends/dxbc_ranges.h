/* Shader model 5.1 register ranges for libvkd3d-shader 1.2, which binds one register per
 * declaration and drops an operand's index into a range (t[5 + r0.x] reads t5). Before it
 * translates, the token stream is rewritten so that every access to a range is an access to a
 * declaration of its own (a "site"), and the index the access uses survives in the SPIR-V:
 *
 *   - each operand that names a range gets a fresh range id, declared as one register of a
 *     space no shader uses (D3D12XS_DXBC_SITE_SPACE, register = the site's number), so that its
 *     SPIR-V variable is found by binding (D3D12XS_DXBC_SITE_SET, site);
 *   - an index known only when the shader runs is copied, before the instruction, into the
 *     element index of a one-vector cbuffer of its own (the site's marker, binding
 *     (D3D12XS_DXBC_MARKER_SET, site)), `mov r<extra>.x, marker[index - first].x`, which
 *     libvkd3d-shader does translate into an access chain whose index is that value;
 *   - the range's own declaration goes (nothing reads it any more).
 *
 * spirv/spirv_dxbc_ranges.c then makes one array variable per range and turns each site's variable
 * into an access chain into it at the marker's index (or the constant one), which is the shape
 * glslang gives D3DCompile's arrays of descriptors; from there the root-signature path binds it. */
#ifndef D3D12XS_DXBC_RANGES_H
#define D3D12XS_DXBC_RANGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "frontends/dxbc.h"

#define D3D12XS_DXBC_SITE_SPACE 0x7ffffff0u      /* the register space of sites and markers in the rewritten DXBC */
#define D3D12XS_DXBC_MARKER_REGISTER 0x40000000u /* + site: a marker's register (sites use 0..) */
/* The SPIR-V sets of the sites' and markers' variables, D3D12XS_DXBC_SITE_SET and
 * D3D12XS_DXBC_MARKER_SET, are spirv/spirv_passes.h's. */

/* One access to a range: which declaration (index into the shader's resources) and where in it. */
struct d3d12xs_dxbc_site {
    uint32_t resource;
    bool dynamic;                   /* the index is the marker's; else constant_index */
    uint32_t constant_index;        /* from the range's first register */
    bool nonuniform;                /* the operand is marked NonUniformResourceIndex */
};

struct d3d12xs_dxbc_ranges {
    uint8_t *container;             /* the rewritten container (malloc()ed), NULL when no range is used */
    size_t size;
    struct d3d12xs_dxbc_site *sites;
    uint32_t site_count;
};

/* The rewrite above for the checked container code (d3d12xs_dxbc_parse gave shader). A shader
 * that accesses no range (or declares none) gets no container. E_INVALIDARG with a reason for an
 * operand this rewrite cannot read, E_OUTOFMEMORY. */
HRESULT d3d12xs_dxbc_rewrite_ranges(const void *code, const struct d3d12xs_dxbc_shader *shader,
        struct d3d12xs_dxbc_ranges *out, char *error, size_t error_size);
void d3d12xs_dxbc_ranges_cleanup(struct d3d12xs_dxbc_ranges *ranges);

/* What the other rewrite of a checked container's token stream shares (dxbc_hull.c). */
/* The shader part's tokens (SHEX or SHDR: the first, as dxbc.c reads it). */
const uint8_t *d3d12xs_dxbc_find_program(const uint8_t *code);
/* The container code with its shader part (at program) replaced by tokens[0..count) and a new
 * checksum: *container is malloc()ed. E_OUTOFMEMORY. */
HRESULT d3d12xs_dxbc_replace_program(const uint8_t *code, const uint8_t *program, const uint32_t *tokens, size_t count,
        uint8_t **container, size_t *size);

#endif
