/* D3D12's rules for a graphics pipeline's description, checked before anything is built: the
 * stages and topology type, flags, the cached blob's size, stream output (stream_output.c), view
 * instancing (and the locations multiview cannot express), then each state's own rules
 * (graphics_state.h). One line each. */
#include "pipelines/graphics_pipeline.h"
#include "pipelines/graphics_state.h"

static bool has_code(const D3D12_SHADER_BYTECODE *bytecode)
{
    return bytecode->pShaderBytecode && bytecode->BytecodeLength;
}

static HRESULT check_bytecode(const D3D12_SHADER_BYTECODE *bytecode, const char *p, const char *name, const char *method)
{
    if (!bytecode->pShaderBytecode != !bytecode->BytecodeLength)
        return d3d12xs_fail(E_INVALIDARG, method, "%s%s has %s (both or neither)", p, name,
                bytecode->pShaderBytecode ? "a pointer but BytecodeLength 0" : "BytecodeLength but pShaderBytecode NULL");
    return S_OK;
}

/* D3D12_VIEW_INSTANCING_DESC: D3D12's rules, then what the device needs for them. Multiview
 * renders view i into layer i of each attachment with the one viewport set; other locations
 * draw each view on its own (docs/graphics.md, "View instancing"). */
static HRESULT check_view_instancing(struct d3d12_device *device, const struct d3d12_graphics_desc *desc, const char *method)
{
    const D3D12_VIEW_INSTANCING_DESC *vi = &desc->view_instancing;
    const struct d3d12xs_graphics_caps *caps = &device->graphics;
    const char *p = desc->prefix;

    if (!vi->ViewInstanceCount)
        return S_OK;
    if (vi->Flags & ~D3D12_VIEW_INSTANCING_FLAG_ENABLE_VIEW_INSTANCE_MASKING)
        return d3d12xs_fail(E_INVALIDARG, method, "%sViewInstancing.Flags is 0x%x (NONE or ENABLE_VIEW_INSTANCE_MASKING)", p,
                (unsigned)vi->Flags);
    if (vi->ViewInstanceCount > D3D12_MAX_VIEW_INSTANCE_COUNT)
        return d3d12xs_fail(E_INVALIDARG, method, "%sViewInstancing.ViewInstanceCount is %u (at most %u)", p, vi->ViewInstanceCount,
                D3D12_MAX_VIEW_INSTANCE_COUNT);
    if (!vi->pViewInstanceLocations)
        return d3d12xs_fail(E_INVALIDARG, method, "%sViewInstancing.pViewInstanceLocations is NULL with ViewInstanceCount %u", p,
                vi->ViewInstanceCount);
    for (UINT i = 0; i < vi->ViewInstanceCount; i++) {
        const D3D12_VIEW_INSTANCE_LOCATION *location = &vi->pViewInstanceLocations[i];
        if (location->ViewportArrayIndex >= D3D12_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE)
            return d3d12xs_fail(E_INVALIDARG, method, "%sViewInstancing.pViewInstanceLocations[%u].ViewportArrayIndex is %u (below %u)", p,
                    i, location->ViewportArrayIndex, D3D12_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE);
        if (location->RenderTargetArrayIndex >= D3D12_REQ_TEXTURE2D_ARRAY_AXIS_DIMENSION)
            return d3d12xs_fail(E_INVALIDARG, method, "%sViewInstancing.pViewInstanceLocations[%u].RenderTargetArrayIndex is %u (below %u)",
                    p, i, location->RenderTargetArrayIndex, D3D12_REQ_TEXTURE2D_ARRAY_AXIS_DIMENSION);
    }
    if (!caps->multiview)
        return d3d12xs_fail(E_NOTIMPL, method, "%sViewInstancing has %u views: %s lacks multiview for %u views (ViewInstancingTier is "
                "NOT_SUPPORTED)", p, vi->ViewInstanceCount, device->vk_properties.deviceName, D3D12_MAX_VIEW_INSTANCE_COUNT);
    /* Other locations: each view drawn on its own, its last stage before the rasterizer writing
     * Layer and ViewportIndex, which vertex and domain shaders write with Vulkan 1.2's features */
    if (d3d12_graphics_desc_views_apart(desc)) {
        const bool pre_raster_gs = has_code(&desc->gs);
        if (!pre_raster_gs && (!caps->output_layer || !caps->output_viewport_index))
            return d3d12xs_fail(E_NOTIMPL, method, "%sViewInstancing.pViewInstanceLocations put views elsewhere than view i into array "
                    "slice i through viewport 0, which the %s writes as Layer and ViewportIndex: %s lacks %s", p,
                    has_code(&desc->ds) ? "DS" : "VS", device->vk_properties.deviceName,
                    !caps->output_layer ? "shaderOutputLayer" : "shaderOutputViewportIndex");
        if (!caps->multi_viewport)
            for (UINT i = 0; i < vi->ViewInstanceCount; i++)
                if (vi->pViewInstanceLocations[i].ViewportArrayIndex)
                    return d3d12xs_fail(E_NOTIMPL, method, "%sViewInstancing.pViewInstanceLocations[%u].ViewportArrayIndex is %u: %s lacks "
                            "multiViewport", p, i, vi->pViewInstanceLocations[i].ViewportArrayIndex, device->vk_properties.deviceName);
        /* Vulkan makes no transform feedback active across draws of other layers either way */
        if (desc->stream_output.NumEntries)
            return d3d12xs_fail(E_NOTIMPL, method, "%sViewInstancing with StreamOutput: not implemented", p);
        return S_OK;
    }
    if (has_code(&desc->gs) && !caps->multiview_geometry_shader)
        return d3d12xs_fail(E_NOTIMPL, method, "%sViewInstancing with a GS: %s lacks multiviewGeometryShader", p,
                device->vk_properties.deviceName);
    if (has_code(&desc->hs) && !caps->multiview_tessellation_shader)
        return d3d12xs_fail(E_NOTIMPL, method, "%sViewInstancing with an HS and a DS: %s lacks multiviewTessellationShader", p,
                device->vk_properties.deviceName);
    /* Vulkan makes no transform feedback active in a multiview rendering pass */
    if (desc->stream_output.NumEntries)
        return d3d12xs_fail(E_NOTIMPL, method, "%sViewInstancing with StreamOutput: Vulkan streams out of no multiview pass", p);
    return S_OK;
}

bool d3d12_graphics_desc_views_apart(const struct d3d12_graphics_desc *desc)
{
    const D3D12_VIEW_INSTANCING_DESC *vi = &desc->view_instancing;

    for (UINT i = 0; i < vi->ViewInstanceCount && vi->pViewInstanceLocations; i++)
        if (vi->pViewInstanceLocations[i].RenderTargetArrayIndex != i || vi->pViewInstanceLocations[i].ViewportArrayIndex)
            return true;
    return false;
}

HRESULT d3d12_graphics_desc_check(struct d3d12_device *device, const struct d3d12_graphics_desc *desc, const char *method)
{
    static const char *const names[] = {"VS", "PS", "DS", "HS", "GS"};
    const D3D12_SHADER_BYTECODE *shaders[] = {&desc->vs, &desc->ps, &desc->ds, &desc->hs, &desc->gs};
    const struct d3d12xs_graphics_caps *caps = &device->graphics;
    const char *p = desc->prefix;
    uint32_t offsets[D3D12_IA_VERTEX_INPUT_STRUCTURE_ELEMENT_COUNT];
    HRESULT hr;

    for (unsigned i = 0; i < D3D12XS_ARRAY_SIZE(shaders); i++)
        if (FAILED(hr = check_bytecode(shaders[i], p, names[i], method)))
            return hr;
    if (!has_code(&desc->vs))
        return d3d12xs_fail(E_INVALIDARG, method, "%sVS is empty (a graphics pipeline starts with a vertex shader)", p);
    if (has_code(&desc->hs) != has_code(&desc->ds))
        return d3d12xs_fail(E_INVALIDARG, method, "%s%s is empty but %s%s is not (tessellation takes both)", p,
                has_code(&desc->hs) ? "DS" : "HS", p, has_code(&desc->hs) ? "HS" : "DS");
    if (has_code(&desc->hs) && !caps->tessellation_shader)
        return d3d12xs_fail(E_NOTIMPL, method, "%sHS and %sDS: %s lacks tessellationShader", p, p, device->vk_properties.deviceName);
    if (has_code(&desc->gs) && !caps->geometry_shader)
        return d3d12xs_fail(E_NOTIMPL, method, "%sGS: %s lacks geometryShader", p, device->vk_properties.deviceName);
    if (desc->topology_type < D3D12_PRIMITIVE_TOPOLOGY_TYPE_POINT || desc->topology_type > D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH)
        return d3d12xs_fail(E_INVALIDARG, method, "%sPrimitiveTopologyType is %d (POINT, LINE, TRIANGLE or PATCH)", p, (int)desc->topology_type);
    if ((desc->topology_type == D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH) != has_code(&desc->hs))
        return d3d12xs_fail(E_INVALIDARG, method, "%sPrimitiveTopologyType is %s%s (PATCH goes with a hull and a domain shader, and "
                "only with them)", p, desc->topology_type == D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH ? "PATCH" : "not PATCH",
                has_code(&desc->hs) ? " with an HS" : " without an HS");
    if (desc->strip_cut_value != D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_DISABLED && desc->strip_cut_value != D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_0xFFFF
            && desc->strip_cut_value != D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_0xFFFFFFFF)
        return d3d12xs_fail(E_INVALIDARG, method, "%sIBStripCutValue is 0x%x (DISABLED, 0xFFFF or 0xFFFFFFFF)", p, (unsigned)desc->strip_cut_value);
    if (desc->node_mask > 1)
        return d3d12xs_fail(E_INVALIDARG, method, "%sNodeMask is 0x%x (must be 0 or 1)", p, desc->node_mask);
    if (desc->flags & ~(D3D12_PIPELINE_STATE_FLAG_TOOL_DEBUG | D3D12_PIPELINE_STATE_FLAG_DYNAMIC_DEPTH_BIAS
            | D3D12_PIPELINE_STATE_FLAG_DYNAMIC_INDEX_BUFFER_STRIP_CUT))
        return d3d12xs_fail(E_INVALIDARG, method, "%sFlags is 0x%x (TOOL_DEBUG, DYNAMIC_DEPTH_BIAS, DYNAMIC_INDEX_BUFFER_STRIP_CUT)", p,
                (unsigned)desc->flags);
    if (!desc->cached_pso.pCachedBlob && desc->cached_pso.CachedBlobSizeInBytes)
        return d3d12xs_fail(E_INVALIDARG, method, "%sCachedPSO has CachedBlobSizeInBytes %zu but pCachedBlob NULL", p,
                (size_t)desc->cached_pso.CachedBlobSizeInBytes);
    if (FAILED(hr = d3d12_stream_output_check(device, desc, has_code(&desc->gs), method)))
        return hr;
    if (FAILED(hr = check_view_instancing(device, desc, method)))
        return hr;
    if (FAILED(hr = d3d12_input_layout_check(device, desc, offsets, method)) || FAILED(hr = d3d12_rasterizer_check(device, desc, method))
            || FAILED(hr = d3d12_output_merger_check(device, desc, method)))
        return hr;
    return S_OK;
}
