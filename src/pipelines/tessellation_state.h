/* The tessellator state of a graphics pipeline's hull and domain shaders (tessellation_state.c).
 * D3D declares the domain, the partitioning and the output primitive in the hull shader (the
 * domain shader repeats the domain); Vulkan takes them as execution modes of either tessellation
 * stage, equal where both declare them. libvkd3d-shader's translation of a DXBC domain shader
 * takes the hull shader's partitioning and output primitive, which are read from the hull
 * shader's module once it is loaded (DXBC, HLSL and SPIR-V alike). */
#ifndef D3D12XS_TESSELLATION_STATE_H
#define D3D12XS_TESSELLATION_STATE_H

#include "frontends/dxbc.h"
#include "pipelines/graphics_link.h"

/* The tessellator state for the DXBC domain shader named ds_argument, from hs (the pipeline's hull
 * shader, loaded). E_INVALIDARG with one line when hs declares no partitioning or no output
 * primitive (a SPIR-V hull shader that leaves them to its domain shader). */
HRESULT d3d12_tessellation_dxbc_state(const struct d3d12_graphics_stage *hs, struct d3d12xs_dxbc_tessellator *tessellator,
        const char *ds_argument, const char *method);

/* E_INVALIDARG with one line when the hull and domain shaders declare different domains (tri,
 * quad, isoline), partitionings or vertex orders (where both declare one). */
HRESULT d3d12_tessellation_check(const struct d3d12_graphics_stage *hs, const struct d3d12_graphics_stage *ds, const char *method);

#endif
