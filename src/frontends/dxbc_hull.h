/* Pass-through hull shaders for libvkd3d-shader 1.2 (dxbc_hull.c). FXC leaves the control point
 * phase out of a hull shader whose control points pass through unchanged; libvkd3d-shader 1.2
 * then copies them in its entry point itself, but reads the input control points (vicp) of the
 * patch-constant (fork and join) phases as undefined values, and its inline copy leaves no call
 * for the barrier before those phases' reads of the output ones (vocp) to follow. Where such
 * phases read control points, the token stream is rewritten before the translation: the
 * pass-through phase is written out (each output control point register a copy of the same
 * input register, as D3D defines the missing phase), and the fork and join phases read vocp where
 * they read vicp, the same values, which libvkd3d-shader translates, after the barrier of
 * spirv/spirv_hull_barrier.c. */
#ifndef D3D12XS_DXBC_HULL_H
#define D3D12XS_DXBC_HULL_H

#include "frontends/dxbc.h"

/* Whether the parsed shader is such a hull shader. */
bool d3d12xs_dxbc_hull_needs_rewrite(const struct d3d12xs_dxbc_shader *shader);

/* The rewrite of the checked container code (d3d12xs_dxbc_parse gave shader): *container is
 * malloc()ed. E_NOTIMPL with a reason where the pass-through is not D3D's identity (control
 * point counts that differ, an output register the inputs lack), E_INVALIDARG for an operand it
 * cannot read, E_OUTOFMEMORY. */
HRESULT d3d12xs_dxbc_rewrite_hull(const void *code, const struct d3d12xs_dxbc_shader *shader, uint8_t **container, size_t *size,
        char *error, size_t error_size);

#endif
