/* Pass-through hull shaders for libvkd3d-shader 1.2 (dxbc_hull.c). FXC leaves the control point
 * phase out of a hull shader whose control points pass through unchanged; libvkd3d-shader 1.2
 * then copies them inline in its entry point, and where the patch-constant (fork and join) phases
 * read control points it goes wrong: their reads of the output control points (vocp, an
 * OutputPatch) come out as undefined values (its messages say: an unrecognized register), with
 * no call after which the barrier before them (spirv/spirv_hull_barrier.c) could go either, and
 * their input control points (vicp, an InputPatch) become a second input variable at the
 * Locations of its copy's (SPIR-V that does not validate). Such a shader gets the pass-through
 * phase written out before the translation, each output control point register a copy of the
 * same input register, as D3D defines the missing phase: what 1.2 translates well. */
#ifndef D3D12XS_DXBC_HULL_H
#define D3D12XS_DXBC_HULL_H

#include "frontends/dxbc.h"

/* Whether the parsed shader is such a hull shader. */
bool d3d12xs_dxbc_hull_needs_rewrite(const struct d3d12xs_dxbc_shader *shader);

/* The rewrite of the checked container code (d3d12xs_dxbc_parse gave shader): *container is
 * malloc()ed. E_NOTIMPL with a reason where the missing phase is not D3D's identity (control
 * point counts that differ, an output register the inputs lack), E_OUTOFMEMORY. */
HRESULT d3d12xs_dxbc_rewrite_hull(const void *code, const struct d3d12xs_dxbc_shader *shader, uint8_t **container, size_t *size,
        char *error, size_t error_size);

#endif
