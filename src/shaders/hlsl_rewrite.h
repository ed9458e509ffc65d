/* src/shaders/hlsl_rewrite.c: source rewrites D3DCompile applies before glslang. */
#ifndef D3D12XS_SHADERS_HLSL_REWRITE_H
#define D3D12XS_SHADERS_HLSL_REWRITE_H

#include <stddef.h>

/* A malloc()ed, NUL-terminated copy of the preprocessed translation unit source (length
 * bytes, which may hold NULs) with the rewrites applied; *out_length its length. *serial
 * numbers the renamed function statics. NULL when out of memory. */
char *d3d12xs_hlsl_rewrite(const char *source, size_t length, size_t *out_length, unsigned *serial);

/* The same for one file (or a define's value) before the preprocessor: only the literals
 * glslang's preprocessor would split or refuse. */
char *d3d12xs_hlsl_rewrite_file(const char *source, size_t length, size_t *out_length);

/* NonUniformResourceIndex(i), which glslang's HLSL lacks, becomes i + a specialization constant
 * of this SpecId (0; it survives the optimiser, a function would be inlined); spirv_finish_hlsl.c
 * turns each such add into a NonUniform-decorated copy of i. */
#define D3D12XS_NONUNIFORM_SPEC_ID 2000

/* An array of (RW)StructuredBuffer<T> / (RW)ByteAddressBuffer (hlsl_rewrite_arrays.c) is one
 * buffer of struct { T e[N]; uint n[D3D12XS_BUFFER_ARRAY_MARKER]; } (n[MARKER + 1]: unbounded,
 * declared as e[65536]); spirv_buffer_arrays.c recognises it by that length. */
#define D3D12XS_BUFFER_ARRAY_MARKER 0xD3D12u

#endif
