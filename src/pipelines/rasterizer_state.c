/* The rasterizer (D3D12_RASTERIZER_DESC2) and multisampling (SampleDesc, SampleMask,
 * ForcedSampleCount, AlphaToCoverageEnable) as Vulkan's rasterization and multisample state.
 *
 * Winding: D3D12's viewport puts y down on the render target, and the list flips Vulkan's
 * viewport (negative height) so that clip space maps the same way; front faces are then
 * clockwise or counter-clockwise on the target alike in both APIs. Depth clip: Vulkan clips
 * unless depth clamp is on; VK_EXT_depth_clip_enable separates the two where offered (D3D12
 * clamps to the viewport's depth range either way). */
#include <string.h>

#include "pipelines/graphics_state.h"

static bool valid_sample_count(UINT count)
{
    return count == 1 || count == 2 || count == 4 || count == 8 || count == 16;
}

HRESULT d3d12_rasterizer_check(struct d3d12_device *device, const struct d3d12_graphics_desc *desc, const char *method)
{
    const D3D12_RASTERIZER_DESC2 *r = &desc->rasterizer;
    const struct d3d12xs_graphics_caps *caps = &device->graphics;
    const char *p = desc->prefix;

    if (r->FillMode != D3D12_FILL_MODE_SOLID && r->FillMode != D3D12_FILL_MODE_WIREFRAME)
        return d3d12xs_fail(E_INVALIDARG, method, "%sRasterizerState.FillMode is %d (WIREFRAME or SOLID)", p, (int)r->FillMode);
    if (r->CullMode < D3D12_CULL_MODE_NONE || r->CullMode > D3D12_CULL_MODE_BACK)
        return d3d12xs_fail(E_INVALIDARG, method, "%sRasterizerState.CullMode is %d (NONE, FRONT or BACK)", p, (int)r->CullMode);
    if ((unsigned)r->LineRasterizationMode > D3D12_LINE_RASTERIZATION_MODE_QUADRILATERAL_NARROW)
        return d3d12xs_fail(E_INVALIDARG, method, "%sRasterizerState.LineRasterizationMode is %d", p, (int)r->LineRasterizationMode);
    if ((unsigned)r->ConservativeRaster > D3D12_CONSERVATIVE_RASTERIZATION_MODE_ON)
        return d3d12xs_fail(E_INVALIDARG, method, "%sRasterizerState.ConservativeRaster is %d (OFF or ON)", p, (int)r->ConservativeRaster);
    if (r->ConservativeRaster == D3D12_CONSERVATIVE_RASTERIZATION_MODE_ON && !caps->conservative_tier)
        return d3d12xs_fail(E_INVALIDARG, method, "%sRasterizerState.ConservativeRaster is ON but ConservativeRasterizationTier is "
                "NOT_SUPPORTED on %s (VK_EXT_conservative_rasterization)", p, device->vk_properties.deviceName);
    if (r->ForcedSampleCount && r->ForcedSampleCount != 1 && r->ForcedSampleCount != 4 && r->ForcedSampleCount != 8
            && r->ForcedSampleCount != 16)
        return d3d12xs_fail(E_INVALIDARG, method, "%sRasterizerState.ForcedSampleCount is %u (0, 1, 4, 8 or 16)", p, r->ForcedSampleCount);
    /* Target-independent rasterization: more samples than the targets have. Vulkan rasterizes at
     * a count of its own only without attachments (UAV-only rendering). */
    if (r->ForcedSampleCount > 1 && (desc->rt_count || desc->dsv_format != DXGI_FORMAT_UNKNOWN))
        return d3d12xs_fail(E_NOTIMPL, method, "%sRasterizerState.ForcedSampleCount is %u with render targets or a depth-stencil format: "
                "target-independent rasterization is supported for UAV-only rendering (no RTVFormats, DSVFormat UNKNOWN)", p,
                r->ForcedSampleCount);
    if (r->ForcedSampleCount > 1 && desc->sample_desc.Count > 1)
        return d3d12xs_fail(E_INVALIDARG, method, "%sRasterizerState.ForcedSampleCount is %u with SampleDesc.Count %u (it needs a count "
                "of 1)", p, r->ForcedSampleCount, desc->sample_desc.Count);
    if (!r->DepthClipEnable && !caps->depth_clip_enable && !caps->depth_clamp)
        return d3d12xs_fail(E_NOTIMPL, method, "%sRasterizerState.DepthClipEnable is FALSE: %s has neither VK_EXT_depth_clip_enable "
                "nor depthClamp", p, device->vk_properties.deviceName);
    if (r->FillMode == D3D12_FILL_MODE_WIREFRAME && !caps->fill_mode_non_solid)
        return d3d12xs_fail(E_NOTIMPL, method, "%sRasterizerState.FillMode is WIREFRAME: %s lacks fillModeNonSolid", p,
                device->vk_properties.deviceName);
    if (r->DepthBiasClamp != 0.0f && !caps->depth_bias_clamp)
        return d3d12xs_fail(E_NOTIMPL, method, "%sRasterizerState.DepthBiasClamp is %g: %s lacks depthBiasClamp", p, r->DepthBiasClamp,
                device->vk_properties.deviceName);
    if (!valid_sample_count(desc->sample_desc.Count))
        return d3d12xs_fail(E_INVALIDARG, method, "%sSampleDesc.Count is %u (1, 2, 4, 8 or 16)", p, desc->sample_desc.Count);
    if (desc->sample_desc.Quality && desc->sample_desc.Quality != D3D12_STANDARD_MULTISAMPLE_PATTERN
            && desc->sample_desc.Quality != D3D12_CENTER_MULTISAMPLE_PATTERN)
        return d3d12xs_fail(E_INVALIDARG, method, "%sSampleDesc.Quality is %u (CheckFeatureSupport's MULTISAMPLE_QUALITY_LEVELS gives 1 "
                "level: 0)", p, desc->sample_desc.Quality);
    /* Every sample at the centre: one sample is there anyway; more need sample locations at the
     * count (graphics_build.c sets them dynamic, the list the centre: command_list_sample_positions.c) */
    if (desc->sample_desc.Quality == D3D12_CENTER_MULTISAMPLE_PATTERN && desc->sample_desc.Count > 1
            && !(caps->sample_positions_tier && (caps->sample_location_counts & desc->sample_desc.Count)))
        return d3d12xs_fail(E_NOTIMPL, method, "%sSampleDesc.Quality is D3D12_CENTER_MULTISAMPLE_PATTERN with %u samples: %s cannot "
                "place samples (it has no VK_EXT_sample_locations locations at that count)", p,
                desc->sample_desc.Count, device->vk_properties.deviceName);
    return S_OK;
}

static VkLineRasterizationModeEXT line_mode(D3D12_LINE_RASTERIZATION_MODE mode)
{
    switch (mode) {
    case D3D12_LINE_RASTERIZATION_MODE_ALPHA_ANTIALIASED: return VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT;
    case D3D12_LINE_RASTERIZATION_MODE_QUADRILATERAL_WIDE:
    case D3D12_LINE_RASTERIZATION_MODE_QUADRILATERAL_NARROW: return VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT;
    default: return VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT; /* D3D12's aliased lines: the diamond-exit rule */
    }
}

static bool line_mode_supported(const struct d3d12xs_graphics_caps *caps, VkLineRasterizationModeEXT mode)
{
    switch (mode) {
    case VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT: return caps->line_smooth;
    case VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT: return caps->line_rectangular;
    default: return caps->line_bresenham;
    }
}

void d3d12_rasterizer_state_init(struct d3d12_device *device, const struct d3d12_graphics_desc *desc, struct d3d12_rasterizer_state *state)
{
    const D3D12_RASTERIZER_DESC2 *r = &desc->rasterizer;
    const struct d3d12xs_graphics_caps *caps = &device->graphics;
    const void **chain;

    memset(state, 0, sizeof(*state));
    state->rasterization = (VkPipelineRasterizationStateCreateInfo){
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
        .depthClampEnable = !r->DepthClipEnable,
        .polygonMode = r->FillMode == D3D12_FILL_MODE_WIREFRAME ? VK_POLYGON_MODE_LINE : VK_POLYGON_MODE_FILL,
        .cullMode = r->CullMode == D3D12_CULL_MODE_FRONT ? VK_CULL_MODE_FRONT_BIT : r->CullMode == D3D12_CULL_MODE_BACK ? VK_CULL_MODE_BACK_BIT
                : VK_CULL_MODE_NONE,
        .frontFace = r->FrontCounterClockwise ? VK_FRONT_FACE_COUNTER_CLOCKWISE : VK_FRONT_FACE_CLOCKWISE,
        .depthBiasEnable = r->DepthBias != 0.0f || r->SlopeScaledDepthBias != 0.0f || (desc->flags & D3D12_PIPELINE_STATE_FLAG_DYNAMIC_DEPTH_BIAS),
        .depthBiasConstantFactor = r->DepthBias,
        .depthBiasClamp = r->DepthBiasClamp,
        .depthBiasSlopeFactor = r->SlopeScaledDepthBias,
        .lineWidth = 1.0f,
    };
    chain = &state->rasterization.pNext;
    if (caps->depth_clip_enable) {
        /* clip as D3D12 says; clamp only where it does not clip (outside it clamping changes nothing) */
        state->depth_clip = (VkPipelineRasterizationDepthClipStateCreateInfoEXT){
            .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_DEPTH_CLIP_STATE_CREATE_INFO_EXT,
            .depthClipEnable = r->DepthClipEnable,
        };
        *chain = &state->depth_clip;
        chain = &state->depth_clip.pNext;
    }
    state->rasterization.depthClampEnable = !r->DepthClipEnable && caps->depth_clamp;
    /* Line modes matter where lines are drawn: line topologies, and triangles' edges in wireframe. */
    if ((desc->topology_type == D3D12_PRIMITIVE_TOPOLOGY_TYPE_LINE || r->FillMode == D3D12_FILL_MODE_WIREFRAME)
            && line_mode_supported(caps, line_mode(r->LineRasterizationMode))) {
        state->line = (VkPipelineRasterizationLineStateCreateInfoEXT){
            .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT,
            .lineRasterizationMode = line_mode(r->LineRasterizationMode),
        };
        *chain = &state->line;
        chain = &state->line.pNext;
    }
    if (r->ConservativeRaster == D3D12_CONSERVATIVE_RASTERIZATION_MODE_ON) {
        state->conservative = (VkPipelineRasterizationConservativeStateCreateInfoEXT){
            .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_CONSERVATIVE_STATE_CREATE_INFO_EXT,
            .conservativeRasterizationMode = VK_CONSERVATIVE_RASTERIZATION_MODE_OVERESTIMATE_EXT,
        };
        *chain = &state->conservative;
    }

    state->samples = (VkSampleCountFlagBits)(r->ForcedSampleCount > 1 ? r->ForcedSampleCount : desc->sample_desc.Count);
    state->sample_mask = desc->sample_mask;
    state->multisample = (VkPipelineMultisampleStateCreateInfo){
        .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
        .rasterizationSamples = state->samples,
        .pSampleMask = &state->sample_mask,
        .alphaToCoverageEnable = desc->blend.AlphaToCoverageEnable,
    };
}
