/* src/shaders/hlsl_rewrite.c: source rewrites D3DCompile applies before glslang. */
#ifndef D3D12XS_SHADERS_HLSL_REWRITE_H
#define D3D12XS_SHADERS_HLSL_REWRITE_H

#include <stddef.h>

/* A malloc()ed, NUL-terminated copy of source (length bytes, which may hold NULs) with the
 * rewrites applied; *out_length its length. *serial numbers the renamed function statics of
 * one compilation (shared by its files). NULL when out of memory. */
char *d3d12xs_hlsl_rewrite(const char *source, size_t length, size_t *out_length, unsigned *serial);

#endif
