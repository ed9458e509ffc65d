/* Linking a graphics pipeline's stages by semantic (graphics_link.c): D3D12 matches each
 * stage's inputs to the previous stage's outputs, and the vertex shader's inputs to the input
 * layout's elements, by semantic name and index; Vulkan matches Locations. Outputs keep the
 * Locations their module has; each input of a known semantic gets the Location its producer
 * gave that semantic, each input layout element the Location of the vertex shader input of its
 * semantic, and with dual-source blending SV_Target1 becomes Location 0, Index 1. Modules
 * without semantics (SPIR-V written for Vulkan) link by their own Locations, and their vertex
 * inputs read element i at Location i. */
#ifndef D3D12XS_GRAPHICS_LINK_H
#define D3D12XS_GRAPHICS_LINK_H

#include <vulkan/vulkan.h>

#include "pipelines/graphics_desc.h"
#include "spirv/spirv_stage_io.h"

#define D3D12XS_GRAPHICS_STAGE_COUNT 5 /* VS, HS, DS, GS, PS: the order data flows */

struct d3d12_graphics_stage {
    VkShaderStageFlagBits stage;
    const char *argument;                /* "pDesc->VS", for log lines */
    const D3D12_SHADER_BYTECODE *bytecode;
    struct d3d12xs_spirv_module *module;
    bool from_dxbc;
    struct d3d12xs_stage_interface iface;
    /* what linking decided: the variables whose Location (and Index) change */
    uint32_t *link_ids, *link_locations, *link_indices;
    uint32_t link_count;
};

/* Links stages[0..count) (present ones, in data-flow order; stages[0] the vertex shader) and the
 * input layout: element_locations[i] gets element i's Location (D3D12XS_NO_LOCATION where the
 * vertex shader does not read it), each stage its link_*. E_INVALIDARG with one line for an
 * input no stage or element provides, or of another type than its producer's; E_OUTOFMEMORY. */
HRESULT d3d12_graphics_link(const struct d3d12_graphics_desc *desc, struct d3d12_graphics_stage *stages, uint32_t count, bool dual_source,
        uint32_t *element_locations, const char *method);
void d3d12_graphics_stage_cleanup(struct d3d12_graphics_stage *stage);

#endif
