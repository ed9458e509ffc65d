/* Reserved (tiled) resources: refused with the reason. d3d12xs reports TiledResourcesTier
 * NOT_SUPPORTED (Vulkan sparse residency could back them; not built yet), so no reserved
 * resource exists and the tile methods have nothing to act on. The arguments are checked first,
 * as for any creation, so that a wrong one is named as wrong rather than as unsupported. */
#include "memory/resource.h"
#include "memory/texture_layout.h"

HRESULT d3d12_resource_create_reserved(const char *method, const D3D12_RESOURCE_DESC *desc, const D3D12_CLEAR_VALUE *clear_value,
        REFIID riid, void **out)
{
    HRESULT hr;

    if (out)
        *out = NULL;
    if (!desc)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc is NULL (must describe the resource)");
    if (desc->Dimension == D3D12_RESOURCE_DIMENSION_BUFFER) {
        if (FAILED(hr = d3d12xs_validate_buffer_desc(method, desc)))
            return hr;
        if (clear_value)
            return d3d12xs_fail(E_INVALIDARG, method, "pOptimizedClearValue must be NULL for buffers");
    } else {
        if (FAILED(hr = d3d12xs_validate_texture_desc(method, desc)))
            return hr;
        if (desc->Layout != D3D12_TEXTURE_LAYOUT_64KB_UNDEFINED_SWIZZLE)
            return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Layout is %d: a reserved texture's layout is "
                    "D3D12_TEXTURE_LAYOUT_64KB_UNDEFINED_SWIZZLE", (int)desc->Layout);
    }
    if (out && !riid)
        return d3d12xs_fail(E_INVALIDARG, method, "riid is NULL (must name the resource interface)");
    return d3d12xs_fail(E_NOTIMPL, method, "reserved (tiled) resources are not supported: CheckFeatureSupport(D3D12_OPTIONS) "
            "reports TiledResourcesTier NOT_SUPPORTED; create the resource committed, or placed in a heap");
}
