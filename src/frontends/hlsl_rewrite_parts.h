/* The rewrites of hlsl_rewrite.c that live in files of their own. Internal to D3DCompile's
 * source rewrites. */
#ifndef D3D12XS_FRONTENDS_HLSL_REWRITE_PARTS_H
#define D3D12XS_FRONTENDS_HLSL_REWRITE_PARTS_H

#include <stdint.h>

#include "frontends/hlsl_tokens.h"

/* hlsl_rewrite_literals.c: constant expressions glslang would fold with its own rules. */
void hlsl_rewrite_literals(struct rewriter *r);
void hlsl_prelude_literals(struct text *b, uint64_t needs);

/* hlsl_rewrite_matrix.c: matrix swizzles and intrinsics on matrices. */
void hlsl_rewrite_matrices(struct rewriter *r);
void hlsl_prelude_matrices(struct text *b, uint64_t needs);

/* hlsl_rewrite_types.c: buffers, matrix and 64-bit integer types (rewritten or refused). */
void hlsl_rewrite_types(struct rewriter *r);
/* The part of them that runs on each file before the preprocessor: literals it would split. */
void hlsl_rewrite_file_literals(struct rewriter *r);
void hlsl_prelude_types(struct text *b, uint64_t needs);
/* D3D's stride of a structured buffer element of type token t, 0 when not known. */
unsigned hlsl_structured_stride(const struct rewriter *r, size_t t);

/* hlsl_rewrite_arrays.c: arrays of (RW)StructuredBuffer and (RW)ByteAddressBuffer, which
 * glslang cannot index, as one buffer of a marker struct (spirv/spirv_buffer_arrays.c undoes it).
 * Runs before the other rewrites, on the translation unit. */
void hlsl_rewrite_buffer_arrays(struct rewriter *r);

#endif
