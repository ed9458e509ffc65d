/* The output merger: blend (D3D12_BLEND_DESC), depth-stencil (D3D12_DEPTH_STENCIL_DESC2) and the
 * render-target and depth-stencil formats, as Vulkan's colour blend, depth-stencil and
 * dynamic-rendering state. The blend factor, stencil reference and depth bounds are list state
 * in D3D12: dynamic state here. */
#include <string.h>

#include "pipelines/graphics_state.h"
#include "device/dxgi_format.h"

VkFormat d3d12_target_vk_format(DXGI_FORMAT format)
{
    const struct d3d12xs_format *entry = format == DXGI_FORMAT_UNKNOWN ? NULL : d3d12xs_format(format);
    return entry ? entry->vk : VK_FORMAT_UNDEFINED;
}

static bool is_dual_source_factor(D3D12_BLEND blend)
{
    return blend == D3D12_BLEND_SRC1_COLOR || blend == D3D12_BLEND_INV_SRC1_COLOR || blend == D3D12_BLEND_SRC1_ALPHA
            || blend == D3D12_BLEND_INV_SRC1_ALPHA;
}

static bool rt_uses_dual_source(const D3D12_RENDER_TARGET_BLEND_DESC *rt)
{
    return rt->BlendEnable && (is_dual_source_factor(rt->SrcBlend) || is_dual_source_factor(rt->DestBlend)
            || is_dual_source_factor(rt->SrcBlendAlpha) || is_dual_source_factor(rt->DestBlendAlpha));
}

bool d3d12_blend_uses_dual_source(const D3D12_BLEND_DESC *blend)
{
    return rt_uses_dual_source(&blend->RenderTarget[0]);
}

static bool valid_blend(D3D12_BLEND blend)
{
    return (blend >= D3D12_BLEND_ZERO && blend <= D3D12_BLEND_SRC_ALPHA_SAT) || (blend >= D3D12_BLEND_BLEND_FACTOR
            && blend <= D3D12_BLEND_INV_ALPHA_FACTOR);
}

/* D3D12 refuses colour factors for the alpha blend. */
static bool is_color_factor(D3D12_BLEND blend)
{
    return blend == D3D12_BLEND_SRC_COLOR || blend == D3D12_BLEND_INV_SRC_COLOR || blend == D3D12_BLEND_DEST_COLOR
            || blend == D3D12_BLEND_INV_DEST_COLOR || blend == D3D12_BLEND_SRC1_COLOR || blend == D3D12_BLEND_INV_SRC1_COLOR;
}

/* Integer targets: no blending (logic ops only), as in Vulkan. */
static bool is_integer_format(DXGI_FORMAT format)
{
    VkFormat vk = d3d12_target_vk_format(format);
    switch (vk) {
    case VK_FORMAT_R8_UINT: case VK_FORMAT_R8_SINT: case VK_FORMAT_R8G8_UINT: case VK_FORMAT_R8G8_SINT: case VK_FORMAT_R8G8B8A8_UINT:
    case VK_FORMAT_R8G8B8A8_SINT: case VK_FORMAT_A2B10G10R10_UINT_PACK32: case VK_FORMAT_R16_UINT: case VK_FORMAT_R16_SINT:
    case VK_FORMAT_R16G16_UINT: case VK_FORMAT_R16G16_SINT: case VK_FORMAT_R16G16B16A16_UINT: case VK_FORMAT_R16G16B16A16_SINT:
    case VK_FORMAT_R32_UINT: case VK_FORMAT_R32_SINT: case VK_FORMAT_R32G32_UINT: case VK_FORMAT_R32G32_SINT:
    case VK_FORMAT_R32G32B32_UINT: case VK_FORMAT_R32G32B32_SINT: case VK_FORMAT_R32G32B32A32_UINT: case VK_FORMAT_R32G32B32A32_SINT:
        return true;
    default:
        return false;
    }
}

static HRESULT check_stencil_face(const D3D12_DEPTH_STENCILOP_DESC1 *face, const char *p, const char *name, const char *method)
{
    if (face->StencilFailOp < D3D12_STENCIL_OP_KEEP || face->StencilFailOp > D3D12_STENCIL_OP_DECR
            || face->StencilDepthFailOp < D3D12_STENCIL_OP_KEEP || face->StencilDepthFailOp > D3D12_STENCIL_OP_DECR
            || face->StencilPassOp < D3D12_STENCIL_OP_KEEP || face->StencilPassOp > D3D12_STENCIL_OP_DECR)
        return d3d12xs_fail(E_INVALIDARG, method, "%sDepthStencilState.%s has a stencil op outside KEEP to DECR (%d, %d, %d)", p, name,
                (int)face->StencilFailOp, (int)face->StencilDepthFailOp, (int)face->StencilPassOp);
    if (face->StencilFunc < D3D12_COMPARISON_FUNC_NEVER || face->StencilFunc > D3D12_COMPARISON_FUNC_ALWAYS)
        return d3d12xs_fail(E_INVALIDARG, method, "%sDepthStencilState.%s.StencilFunc is %d (NEVER to ALWAYS)", p, name, (int)face->StencilFunc);
    return S_OK;
}

HRESULT d3d12_output_merger_check(struct d3d12_device *device, const struct d3d12_graphics_desc *desc, const char *method)
{
    const struct d3d12xs_graphics_caps *caps = &device->graphics;
    const D3D12_BLEND_DESC *blend = &desc->blend;
    const D3D12_DEPTH_STENCIL_DESC2 *ds = &desc->depth_stencil;
    const char *p = desc->prefix;
    bool logic = blend->RenderTarget[0].LogicOpEnable;
    HRESULT hr;

    if (desc->rt_count > D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT)
        return d3d12xs_fail(E_INVALIDARG, method, "%sNumRenderTargets is %u (at most %u)", p, desc->rt_count, D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT);
    for (unsigned i = 0; i < D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT; i++) {
        const struct d3d12xs_format *format = d3d12xs_format(desc->rtv_formats[i]);
        VkFormatProperties properties;
        if (i >= desc->rt_count) {
            if (desc->rtv_formats[i] != DXGI_FORMAT_UNKNOWN)
                return d3d12xs_fail(E_INVALIDARG, method, "%sRTVFormats[%u] is %d past NumRenderTargets %u (must be UNKNOWN)", p, i,
                        (int)desc->rtv_formats[i], desc->rt_count);
            continue;
        }
        if (desc->rtv_formats[i] == DXGI_FORMAT_UNKNOWN)
            continue;
        if (!format || format->vk == VK_FORMAT_UNDEFINED || format->typeless_format || format->aspects != VK_IMAGE_ASPECT_COLOR_BIT
                || format->block_compressed || format->video)
            return d3d12xs_fail(E_INVALIDARG, method, "%sRTVFormats[%u] is %d, not a render target format", p, i, (int)desc->rtv_formats[i]);
        vkGetPhysicalDeviceFormatProperties(device->vk_physical_device, format->vk, &properties);
        if (!(properties.optimalTilingFeatures & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT))
            return d3d12xs_fail(E_INVALIDARG, method, "%sRTVFormats[%u] is %d, which %s cannot render to", p, i, (int)desc->rtv_formats[i],
                    device->vk_properties.deviceName);
    }
    if (desc->dsv_format != DXGI_FORMAT_UNKNOWN) {
        const struct d3d12xs_format *format = d3d12xs_format(desc->dsv_format);
        if (!format || format->typeless_format || !(format->aspects & VK_IMAGE_ASPECT_DEPTH_BIT) || format->aspects != (format->plane_count > 1
                ? (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT) : VK_IMAGE_ASPECT_DEPTH_BIT))
            return d3d12xs_fail(E_INVALIDARG, method, "%sDSVFormat is %d, not a depth-stencil format (D32_FLOAT, D24_UNORM_S8_UINT, "
                    "D16_UNORM, D32_FLOAT_S8X24_UINT)", p, (int)desc->dsv_format);
    }

    /* blend */
    if (blend->IndependentBlendEnable && !caps->independent_blend)
        return d3d12xs_fail(E_NOTIMPL, method, "%sBlendState.IndependentBlendEnable is TRUE: %s lacks independentBlend", p,
                device->vk_properties.deviceName);
    for (unsigned i = 0; i < D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT; i++) {
        const D3D12_RENDER_TARGET_BLEND_DESC *rt = &blend->RenderTarget[blend->IndependentBlendEnable ? i : 0];
        if (!blend->IndependentBlendEnable && i)
            break;
        if (rt->BlendEnable && rt->LogicOpEnable)
            return d3d12xs_fail(E_INVALIDARG, method, "%sBlendState.RenderTarget[%u] enables both blending and a logic op", p, i);
        if (rt->BlendEnable && (!valid_blend(rt->SrcBlend) || !valid_blend(rt->DestBlend) || !valid_blend(rt->SrcBlendAlpha)
                || !valid_blend(rt->DestBlendAlpha)))
            return d3d12xs_fail(E_INVALIDARG, method, "%sBlendState.RenderTarget[%u] has a blend factor outside D3D12_BLEND (%d, %d, %d, %d)",
                    p, i, (int)rt->SrcBlend, (int)rt->DestBlend, (int)rt->SrcBlendAlpha, (int)rt->DestBlendAlpha);
        if (rt->BlendEnable && (is_color_factor(rt->SrcBlendAlpha) || is_color_factor(rt->DestBlendAlpha)))
            return d3d12xs_fail(E_INVALIDARG, method, "%sBlendState.RenderTarget[%u] blends alpha with a colour factor (SrcBlendAlpha %d, "
                    "DestBlendAlpha %d)", p, i, (int)rt->SrcBlendAlpha, (int)rt->DestBlendAlpha);
        if (rt->BlendEnable && (rt->BlendOp < D3D12_BLEND_OP_ADD || rt->BlendOp > D3D12_BLEND_OP_MAX
                || rt->BlendOpAlpha < D3D12_BLEND_OP_ADD || rt->BlendOpAlpha > D3D12_BLEND_OP_MAX))
            return d3d12xs_fail(E_INVALIDARG, method, "%sBlendState.RenderTarget[%u].BlendOp %d / BlendOpAlpha %d (ADD to MAX)", p, i,
                    (int)rt->BlendOp, (int)rt->BlendOpAlpha);
        if (rt->LogicOpEnable && (rt->LogicOp < D3D12_LOGIC_OP_CLEAR || rt->LogicOp > D3D12_LOGIC_OP_OR_INVERTED))
            return d3d12xs_fail(E_INVALIDARG, method, "%sBlendState.RenderTarget[%u].LogicOp is %d", p, i, (int)rt->LogicOp);
        if (rt->RenderTargetWriteMask > D3D12_COLOR_WRITE_ENABLE_ALL)
            return d3d12xs_fail(E_INVALIDARG, method, "%sBlendState.RenderTarget[%u].RenderTargetWriteMask is 0x%x (at most 0xf)", p, i,
                    rt->RenderTargetWriteMask);
        /* Vulkan has one logic op for all attachments */
        if (!!rt->LogicOpEnable != logic || (logic && rt->LogicOp != blend->RenderTarget[0].LogicOp))
            return d3d12xs_fail(E_INVALIDARG, method, "%sBlendState.RenderTarget[%u] has another logic op than RenderTarget[0] (one for "
                    "every render target)", p, i);
        if (i && rt_uses_dual_source(rt))
            return d3d12xs_fail(E_INVALIDARG, method, "%sBlendState.RenderTarget[%u] uses SRC1 factors: dual-source blending is for "
                    "render target 0 alone", p, i);
        if (i < desc->rt_count && desc->rtv_formats[i] != DXGI_FORMAT_UNKNOWN && rt->BlendEnable && is_integer_format(desc->rtv_formats[i]))
            return d3d12xs_fail(E_INVALIDARG, method, "%sBlendState.RenderTarget[%u] blends into RTVFormats[%u] %d, an integer format "
                    "(integer targets take logic ops, not blending)", p, i, i, (int)desc->rtv_formats[i]);
        if (i < desc->rt_count && desc->rtv_formats[i] != DXGI_FORMAT_UNKNOWN && rt->LogicOpEnable && !is_integer_format(desc->rtv_formats[i]))
            return d3d12xs_fail(E_INVALIDARG, method, "%sBlendState.RenderTarget[%u] has a logic op on RTVFormats[%u] %d (logic ops are "
                    "for UINT and SINT formats)", p, i, i, (int)desc->rtv_formats[i]);
    }
    if (logic && !caps->logic_op)
        return d3d12xs_fail(E_NOTIMPL, method, "%sBlendState.RenderTarget[0].LogicOpEnable is TRUE: %s lacks logicOp "
                "(OutputMergerLogicOp is FALSE)", p, device->vk_properties.deviceName);
    if (d3d12_blend_uses_dual_source(blend)) {
        if (!caps->dual_source_blend)
            return d3d12xs_fail(E_NOTIMPL, method, "%sBlendState.RenderTarget[0] uses SRC1 factors: %s lacks dualSrcBlend", p,
                    device->vk_properties.deviceName);
        for (unsigned i = 1; i < desc->rt_count; i++)
            if (desc->rtv_formats[i] != DXGI_FORMAT_UNKNOWN)
                return d3d12xs_fail(E_INVALIDARG, method, "%sBlendState uses SRC1 factors with RTVFormats[%u] %d: dual-source blending "
                        "writes render target 0 alone", p, i, (int)desc->rtv_formats[i]);
    }

    /* depth-stencil */
    if ((unsigned)ds->DepthWriteMask > D3D12_DEPTH_WRITE_MASK_ALL)
        return d3d12xs_fail(E_INVALIDARG, method, "%sDepthStencilState.DepthWriteMask is %d (ZERO or ALL)", p, (int)ds->DepthWriteMask);
    if (ds->DepthEnable && (ds->DepthFunc < D3D12_COMPARISON_FUNC_NEVER || ds->DepthFunc > D3D12_COMPARISON_FUNC_ALWAYS))
        return d3d12xs_fail(E_INVALIDARG, method, "%sDepthStencilState.DepthFunc is %d (NEVER to ALWAYS)", p, (int)ds->DepthFunc);
    if (ds->StencilEnable && (FAILED(hr = check_stencil_face(&ds->FrontFace, p, "FrontFace", method))
            || FAILED(hr = check_stencil_face(&ds->BackFace, p, "BackFace", method))))
        return hr;
    if (ds->DepthBoundsTestEnable && !caps->depth_bounds)
        return d3d12xs_fail(E_INVALIDARG, method, "%sDepthStencilState.DepthBoundsTestEnable is TRUE but DepthBoundsTestSupported is "
                "FALSE on %s", p, device->vk_properties.deviceName);
    return S_OK;
}

static VkBlendFactor blend_factor(D3D12_BLEND blend, bool alpha)
{
    switch (blend) {
    case D3D12_BLEND_ZERO: return VK_BLEND_FACTOR_ZERO;
    case D3D12_BLEND_ONE: return VK_BLEND_FACTOR_ONE;
    case D3D12_BLEND_SRC_COLOR: return VK_BLEND_FACTOR_SRC_COLOR;
    case D3D12_BLEND_INV_SRC_COLOR: return VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR;
    case D3D12_BLEND_SRC_ALPHA: return VK_BLEND_FACTOR_SRC_ALPHA;
    case D3D12_BLEND_INV_SRC_ALPHA: return VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
    case D3D12_BLEND_DEST_ALPHA: return VK_BLEND_FACTOR_DST_ALPHA;
    case D3D12_BLEND_INV_DEST_ALPHA: return VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA;
    case D3D12_BLEND_DEST_COLOR: return VK_BLEND_FACTOR_DST_COLOR;
    case D3D12_BLEND_INV_DEST_COLOR: return VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR;
    case D3D12_BLEND_SRC_ALPHA_SAT: return VK_BLEND_FACTOR_SRC_ALPHA_SATURATE;
    /* the blend factor's own channel: its alpha for the alpha blend */
    case D3D12_BLEND_BLEND_FACTOR: return alpha ? VK_BLEND_FACTOR_CONSTANT_ALPHA : VK_BLEND_FACTOR_CONSTANT_COLOR;
    case D3D12_BLEND_INV_BLEND_FACTOR: return alpha ? VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA : VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR;
    case D3D12_BLEND_SRC1_COLOR: return VK_BLEND_FACTOR_SRC1_COLOR;
    case D3D12_BLEND_INV_SRC1_COLOR: return VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR;
    case D3D12_BLEND_SRC1_ALPHA: return VK_BLEND_FACTOR_SRC1_ALPHA;
    case D3D12_BLEND_INV_SRC1_ALPHA: return VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA;
    case D3D12_BLEND_ALPHA_FACTOR: return VK_BLEND_FACTOR_CONSTANT_ALPHA;
    case D3D12_BLEND_INV_ALPHA_FACTOR: return VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA;
    default: return VK_BLEND_FACTOR_ZERO;
    }
}

static VkBlendOp blend_op(D3D12_BLEND_OP op)
{
    static const VkBlendOp ops[] = {VK_BLEND_OP_ADD, VK_BLEND_OP_ADD, VK_BLEND_OP_SUBTRACT, VK_BLEND_OP_REVERSE_SUBTRACT, VK_BLEND_OP_MIN,
            VK_BLEND_OP_MAX};
    return (unsigned)op < D3D12XS_ARRAY_SIZE(ops) ? ops[op] : VK_BLEND_OP_ADD;
}

static VkLogicOp logic_op(D3D12_LOGIC_OP op)
{
    static const VkLogicOp ops[] = {
        [D3D12_LOGIC_OP_CLEAR] = VK_LOGIC_OP_CLEAR, [D3D12_LOGIC_OP_SET] = VK_LOGIC_OP_SET, [D3D12_LOGIC_OP_COPY] = VK_LOGIC_OP_COPY,
        [D3D12_LOGIC_OP_COPY_INVERTED] = VK_LOGIC_OP_COPY_INVERTED, [D3D12_LOGIC_OP_NOOP] = VK_LOGIC_OP_NO_OP,
        [D3D12_LOGIC_OP_INVERT] = VK_LOGIC_OP_INVERT, [D3D12_LOGIC_OP_AND] = VK_LOGIC_OP_AND, [D3D12_LOGIC_OP_NAND] = VK_LOGIC_OP_NAND,
        [D3D12_LOGIC_OP_OR] = VK_LOGIC_OP_OR, [D3D12_LOGIC_OP_NOR] = VK_LOGIC_OP_NOR, [D3D12_LOGIC_OP_XOR] = VK_LOGIC_OP_XOR,
        [D3D12_LOGIC_OP_EQUIV] = VK_LOGIC_OP_EQUIVALENT, [D3D12_LOGIC_OP_AND_REVERSE] = VK_LOGIC_OP_AND_REVERSE,
        [D3D12_LOGIC_OP_AND_INVERTED] = VK_LOGIC_OP_AND_INVERTED, [D3D12_LOGIC_OP_OR_REVERSE] = VK_LOGIC_OP_OR_REVERSE,
        [D3D12_LOGIC_OP_OR_INVERTED] = VK_LOGIC_OP_OR_INVERTED,
    };
    return (unsigned)op < D3D12XS_ARRAY_SIZE(ops) ? ops[op] : VK_LOGIC_OP_NO_OP;
}

/* D3D12's comparison and stencil op enums are Vulkan's plus one. */
static VkCompareOp compare_op(D3D12_COMPARISON_FUNC func)
{
    return func >= D3D12_COMPARISON_FUNC_NEVER && func <= D3D12_COMPARISON_FUNC_ALWAYS ? (VkCompareOp)(func - 1) : VK_COMPARE_OP_ALWAYS;
}

static VkStencilOpState stencil_face(const D3D12_DEPTH_STENCILOP_DESC1 *face)
{
    return (VkStencilOpState){(VkStencilOp)(face->StencilFailOp - 1), (VkStencilOp)(face->StencilPassOp - 1),
            (VkStencilOp)(face->StencilDepthFailOp - 1), compare_op(face->StencilFunc), face->StencilReadMask, face->StencilWriteMask, 0};
}

void d3d12_output_merger_state_init(const struct d3d12_graphics_desc *desc, struct d3d12_output_merger_state *state)
{
    const D3D12_BLEND_DESC *blend = &desc->blend;
    const D3D12_DEPTH_STENCIL_DESC2 *ds = &desc->depth_stencil;
    const struct d3d12xs_format *dsv = desc->dsv_format ? d3d12xs_format(desc->dsv_format) : NULL;
    bool depth = dsv && (dsv->aspects & VK_IMAGE_ASPECT_DEPTH_BIT), stencil = dsv && (dsv->aspects & VK_IMAGE_ASPECT_STENCIL_BIT);

    memset(state, 0, sizeof(*state));
    for (uint32_t i = 0; i < desc->rt_count; i++) {
        const D3D12_RENDER_TARGET_BLEND_DESC *rt = &blend->RenderTarget[blend->IndependentBlendEnable ? i : 0];
        state->color_formats[i] = d3d12_target_vk_format(desc->rtv_formats[i]);
        state->attachments[i] = (VkPipelineColorBlendAttachmentState){
            .blendEnable = rt->BlendEnable,
            .srcColorBlendFactor = blend_factor(rt->SrcBlend, false),
            .dstColorBlendFactor = blend_factor(rt->DestBlend, false),
            .colorBlendOp = blend_op(rt->BlendOp),
            .srcAlphaBlendFactor = blend_factor(rt->SrcBlendAlpha, true),
            .dstAlphaBlendFactor = blend_factor(rt->DestBlendAlpha, true),
            .alphaBlendOp = blend_op(rt->BlendOpAlpha),
            .colorWriteMask = rt->RenderTargetWriteMask & 0xf, /* D3D12's RGBA bits are Vulkan's */
        };
        if (!rt->BlendEnable) {
            state->attachments[i].srcColorBlendFactor = state->attachments[i].srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
            state->attachments[i].dstColorBlendFactor = state->attachments[i].dstAlphaBlendFactor = VK_BLEND_FACTOR_ZERO;
        }
    }
    state->dual_source = d3d12_blend_uses_dual_source(blend);
    state->blend = (VkPipelineColorBlendStateCreateInfo){
        .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
        .logicOpEnable = blend->RenderTarget[0].LogicOpEnable,
        .logicOp = logic_op(blend->RenderTarget[0].LogicOp),
        .attachmentCount = desc->rt_count,
        .pAttachments = state->attachments,
    };
    state->depth_stencil = (VkPipelineDepthStencilStateCreateInfo){
        .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
        .depthTestEnable = depth && ds->DepthEnable,
        .depthWriteEnable = depth && ds->DepthEnable && ds->DepthWriteMask == D3D12_DEPTH_WRITE_MASK_ALL,
        .depthCompareOp = compare_op(ds->DepthFunc),
        .depthBoundsTestEnable = depth && ds->DepthBoundsTestEnable,
        .stencilTestEnable = stencil && ds->StencilEnable,
        .front = stencil_face(&ds->FrontFace),
        .back = stencil_face(&ds->BackFace),
        .minDepthBounds = 0.0f,
        .maxDepthBounds = 1.0f,
    };
    if (!state->depth_stencil.stencilTestEnable)
        state->depth_stencil.front = state->depth_stencil.back = (VkStencilOpState){VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP,
                VK_COMPARE_OP_ALWAYS, 0, 0, 0};
    state->rendering = (VkPipelineRenderingCreateInfo){
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
        .colorAttachmentCount = desc->rt_count,
        .pColorAttachmentFormats = state->color_formats,
        .depthAttachmentFormat = depth ? dsv->vk : VK_FORMAT_UNDEFINED,
        .stencilAttachmentFormat = stencil ? dsv->vk : VK_FORMAT_UNDEFINED,
    };
}
