/* A fix-up of glslang's SPIR-V for D3D's GatherCmp (gather_compare.c), run by the compiler
 * helper on the words glslang generates, before shaderc validates and legalizes them. */
#ifndef D3D12XS_HLSLC_GATHER_COMPARE_H
#define D3D12XS_HLSLC_GATHER_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Rewrites words[0..*word_count) in place; *word_count gets the new length (never longer). */
void hlslc_fix_gather_compare(uint32_t *words, size_t *word_count);

#ifdef __cplusplus
}
#endif

#endif
