/* src/frontends/hlsl_rewrite.c: source rewrites D3DCompile applies before glslang. */
#ifndef D3D12XS_FRONTENDS_HLSL_REWRITE_H
#define D3D12XS_FRONTENDS_HLSL_REWRITE_H

#include <stddef.h>

/* A malloc()ed, NUL-terminated copy of the preprocessed translation unit source (length
 * bytes, which may hold NULs) with the rewrites applied; *out_length its length. *serial
 * numbers the renamed function statics. NULL when out of memory. */
char *d3d12xs_hlsl_rewrite(const char *source, size_t length, size_t *out_length, unsigned *serial);

/* The same for one file (or a define's value) before the preprocessor: only the literals
 * glslang's preprocessor would split or refuse. */
char *d3d12xs_hlsl_rewrite_file(const char *source, size_t length, size_t *out_length);

/* The markers the rewrites leave for the SPIR-V passes (D3D12XS_NONUNIFORM_SPEC_ID,
 * D3D12XS_BUFFER_ARRAY_MARKER) are spirv/spirv_passes.h's: the passes read them. */

#endif
