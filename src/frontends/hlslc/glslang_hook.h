/* The compiler helper's hook on glslang's SPIR-V generation (glslang_hook.cpp): derivative
 * groups for shader model 6.6 compute shaders, turned on for a compilation whose target allows
 * them. */
#ifndef D3D12XS_HLSLC_GLSLANG_HOOK_H
#define D3D12XS_HLSLC_GLSLANG_HOOK_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Compute shaders compiled from now on get the derivative group their numthreads implies
 * (D3D12's shader model 6.6 rules) when they use derivatives: implicit-LOD sampling,
 * CalculateLevelOfDetail, ddx/ddy/fwidth. */
void hlslc_derivative_groups_enable(bool enable);

/* NULL, or why the last compute shader's derivatives cannot have a group (its numthreads). */
const char *hlslc_derivative_group_error(void);

#ifdef __cplusplus
}
#endif

#endif
