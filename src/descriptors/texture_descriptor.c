/* SRVs, UAVs, RTVs and DSVs of textures: a D3D12 view description checked against its resource
 * and made into a cached VkImageView (memory/texture_view.c) that the heap slot's SAMPLED_IMAGE
 * or STORAGE_IMAGE descriptor points at, or that a render-target or depth-stencil clear renders
 * to. */
#include <string.h>

#include "descriptors/descriptor_buffer.h"
#include "descriptors/descriptors.h"
#include "device/dxgi_format.h"
#include "memory/texture.h"
#include "memory/texture_layout.h"

/* What a view description selects, whatever its dimension. */
struct view_shape {
    D3D12_RESOURCE_DIMENSION resource_dimension;
    VkImageViewType type;
    bool multisampled, cube;
    uint32_t first_mip, mip_count;     /* UINT32_MAX: to the last mip */
    uint32_t first_layer, layer_count; /* UINT32_MAX: to the last layer */
    uint32_t plane;
    float min_lod;
};

static bool is_cube_compatible(const struct d3d12_resource *resource)
{
    const D3D12_RESOURCE_DESC *desc = &resource->desc;
    return desc->Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE2D && resource->layers >= 6 && desc->Width == desc->Height
            && desc->SampleDesc.Count == 1;
}

static const char *resource_dimension_name(D3D12_RESOURCE_DIMENSION dimension)
{
    switch (dimension) {
    case D3D12_RESOURCE_DIMENSION_TEXTURE1D: return "TEXTURE1D";
    case D3D12_RESOURCE_DIMENSION_TEXTURE2D: return "TEXTURE2D";
    case D3D12_RESOURCE_DIMENSION_TEXTURE3D: return "TEXTURE3D";
    default: return "BUFFER";
    }
}

/* The view's mips and layers, resolved and checked against the resource. */
static bool resolve_range(const char *method, const struct d3d12_resource *resource, struct view_shape *shape)
{
    uint32_t mips = resource->mip_levels, layers = resource->layers;

    if (shape->resource_dimension != resource->desc.Dimension) {
        d3d12xs_fail(E_INVALIDARG, method, "pDesc->ViewDimension views a %s, but pResource '%s' is a %s", resource_dimension_name(shape->resource_dimension),
                d3d12xs_object_name(&resource->object), resource_dimension_name(resource->desc.Dimension));
        return false;
    }
    if (shape->multisampled != (resource->desc.SampleDesc.Count > 1)) {
        d3d12xs_fail(E_INVALIDARG, method, "pDesc->ViewDimension is %smultisampled and pResource '%s' has %u samples",
                shape->multisampled ? "" : "not ", d3d12xs_object_name(&resource->object), resource->desc.SampleDesc.Count);
        return false;
    }
    if (shape->cube && !is_cube_compatible(resource)) {
        d3d12xs_fail(E_INVALIDARG, method, "a cube view needs a square single-sampled 2D texture of six or more layers; pResource '%s' is %llux%u with %u",
                d3d12xs_object_name(&resource->object), (unsigned long long)resource->desc.Width, resource->desc.Height, layers);
        return false;
    }
    if (shape->first_mip >= mips || (shape->mip_count != UINT32_MAX && (!shape->mip_count || shape->mip_count > mips - shape->first_mip))) {
        d3d12xs_fail(E_INVALIDARG, method, "pDesc's mips %u (+%d) are not within the %u of pResource '%s'", shape->first_mip,
                (int)shape->mip_count, mips, d3d12xs_object_name(&resource->object));
        return false;
    }
    if (shape->mip_count == UINT32_MAX)
        shape->mip_count = mips - shape->first_mip;
    if (shape->first_layer >= layers || (shape->layer_count != UINT32_MAX && (!shape->layer_count || shape->layer_count > layers - shape->first_layer))) {
        d3d12xs_fail(E_INVALIDARG, method, "pDesc's array slices %u (+%d) are not within the %u of pResource '%s'", shape->first_layer,
                (int)shape->layer_count, layers, d3d12xs_object_name(&resource->object));
        return false;
    }
    if (shape->layer_count == UINT32_MAX)
        shape->layer_count = layers - shape->first_layer;
    if (shape->cube && shape->layer_count % 6) {
        d3d12xs_fail(E_INVALIDARG, method, "a cube view takes whole cubes of six faces; pDesc selects %u slices", shape->layer_count);
        return false;
    }
    if (shape->plane >= resource->planes) {
        d3d12xs_fail(E_INVALIDARG, method, "pDesc's PlaneSlice is %u (pResource '%s' has %u planes)", shape->plane,
                d3d12xs_object_name(&resource->object), resource->planes);
        return false;
    }
    return true;
}

static VkComponentSwizzle component(uint32_t source, const VkComponentSwizzle base[4])
{
    if (source < 4)
        return base[source];
    return source == D3D12_SHADER_COMPONENT_MAPPING_FORCE_VALUE_1 ? VK_COMPONENT_SWIZZLE_ONE : VK_COMPONENT_SWIZZLE_ZERO;
}

/* The view's Vulkan format, aspect and what each of its components reads, from the view format
 * (UNKNOWN: the resource's) and the resource: the same format, a member of a typeless
 * resource's family, or a depth or stencil plane of a depth texture. */
static bool resolve_format(const char *method, const struct d3d12_resource *resource, DXGI_FORMAT dxgi, uint32_t plane,
        struct d3d12xs_image_view_key *key, VkComponentSwizzle base[4])
{
    const struct d3d12xs_format *resource_format = resource->format, *view;

    base[0] = VK_COMPONENT_SWIZZLE_R, base[1] = VK_COMPONENT_SWIZZLE_G, base[2] = VK_COMPONENT_SWIZZLE_B, base[3] = VK_COMPONENT_SWIZZLE_A;
    if (dxgi == DXGI_FORMAT_UNKNOWN) {
        if (resource_format->typeless_format) {
            d3d12xs_fail(E_INVALIDARG, method, "pDesc->Format is UNKNOWN, but pResource '%s' is typeless (format %d): name the view's format",
                    d3d12xs_object_name(&resource->object), (int)resource_format->dxgi);
            return false;
        }
        dxgi = resource_format->dxgi;
    }
    if (!(view = d3d12xs_format(dxgi))) {
        d3d12xs_fail(E_INVALIDARG, method, "pDesc->Format %d is not a DXGI format", (int)dxgi);
        return false;
    }
    {
        bool depth_image = !!(resource->aspects & (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT));
        bool same_family = view->typeless != DXGI_FORMAT_UNKNOWN && view->typeless == resource_format->typeless;
        /* D32_FLOAT and D16_UNORM resources read as R32_FLOAT and R16_UNORM. */
        bool depth_alias = (resource->vk_format == VK_FORMAT_D32_SFLOAT && dxgi == DXGI_FORMAT_R32_FLOAT)
                || (resource->vk_format == VK_FORMAT_D16_UNORM && dxgi == DXGI_FORMAT_R16_UNORM);
        if (view->dxgi != resource_format->dxgi && !(same_family && (resource_format->typeless_format || depth_image)) && !depth_alias) {
            d3d12xs_fail(E_INVALIDARG, method, "pDesc->Format %d cannot view pResource '%s' of format %d (a view takes the resource's format "
                    "or, of a typeless resource, a member of its family)", (int)dxgi, d3d12xs_object_name(&resource->object),
                    (int)resource_format->dxgi);
            return false;
        }
    }
    if (resource->aspects & (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT)) {
        /* Depth reads come in .r; D3D12's stencil formats put the stencil in .g. */
        bool stencil = (view->aspects & VK_IMAGE_ASPECT_STENCIL_BIT) && !(view->aspects & VK_IMAGE_ASPECT_DEPTH_BIT);
        if (!stencil && (view->aspects & VK_IMAGE_ASPECT_STENCIL_BIT) && view->typeless_format) {
            d3d12xs_fail(E_INVALIDARG, method, "pDesc->Format %d is typeless: a view of a depth-stencil texture names its depth or stencil format",
                    (int)dxgi);
            return false;
        }
        if (stencil != (plane == 1)) {
            d3d12xs_fail(E_INVALIDARG, method, "pDesc->Format %d reads the %s plane, but PlaneSlice is %u", (int)dxgi, stencil ? "stencil" : "depth",
                    plane);
            return false;
        }
        key->format = resource->vk_format;
        key->range.aspectMask = stencil ? VK_IMAGE_ASPECT_STENCIL_BIT : VK_IMAGE_ASPECT_DEPTH_BIT;
        base[0] = stencil ? VK_COMPONENT_SWIZZLE_ZERO : VK_COMPONENT_SWIZZLE_R;
        base[1] = stencil ? VK_COMPONENT_SWIZZLE_R : VK_COMPONENT_SWIZZLE_ZERO;
        base[2] = VK_COMPONENT_SWIZZLE_ZERO;
        base[3] = VK_COMPONENT_SWIZZLE_ONE;
        return true;
    }
    if (view->typeless_format || view->vk == VK_FORMAT_UNDEFINED) {
        d3d12xs_fail(E_INVALIDARG, method, "pDesc->Format %d is %s: a view needs a typed format", (int)dxgi,
                view->typeless_format ? "typeless" : "not one d3d12xs can view");
        return false;
    }
    key->format = view->vk;
    key->range.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    /* X formats have no alpha in memory: it reads 1. */
    if (dxgi == DXGI_FORMAT_B8G8R8X8_UNORM || dxgi == DXGI_FORMAT_B8G8R8X8_UNORM_SRGB)
        base[3] = VK_COMPONENT_SWIZZLE_ONE;
    /* A8 stored as R8: alpha comes from R, the colour is 0 (D3D12 reads A8 as (0, 0, 0, a)). */
    if (view->alpha_in_red) {
        base[0] = base[1] = base[2] = VK_COMPONENT_SWIZZLE_ZERO;
        base[3] = VK_COMPONENT_SWIZZLE_R;
    }
    return true;
}

/* Fills the key and the descriptor from a resolved shape and format. */
static bool make_view(struct d3d12_device *device, const char *method, struct d3d12_resource *resource, const struct view_shape *shape,
        struct d3d12xs_image_view_key *key, struct d3d12xs_descriptor *descriptor, DXGI_FORMAT format, VkImageUsageFlags usage)
{
    bool writable = usage != VK_IMAGE_USAGE_SAMPLED_BIT;

    key->type = shape->type;
    key->usage = usage;
    key->range.baseMipLevel = shape->first_mip;
    key->range.levelCount = shape->mip_count;
    key->range.baseArrayLayer = shape->first_layer;
    key->range.layerCount = shape->layer_count;
    /* D3D12's LOD clamp of a view is Vulkan's view minLod (VK_EXT_image_view_min_lod), which
     * clamps sampling and fetches alike, as D3D12's does. */
    if (shape->min_lod != 0.0f && !writable && device->has_image_view_min_lod)
        key->min_lod = shape->min_lod;
    else if (shape->min_lod != 0.0f && !writable)
        WARN("%s: pDesc's ResourceMinLODClamp %g is not applied (%s lacks VK_EXT_image_view_min_lod); sampling may read finer mips", method,
                shape->min_lod, device->vk_properties.deviceName);
    if (!(descriptor->image_view = d3d12_resource_get_image_view(resource, key, method)))
        return false;
    descriptor->resource = resource;
    descriptor->image_range = key->range;
    descriptor->first_w_slice = key->first_w_slice;
    descriptor->w_slice_count = key->w_slice_count;
    /* For the console validation, which must not follow the resource pointer of a stale descriptor. */
    descriptor->image = resource->vk_image;
    d3d12xs_texture_subresource_span(resource, &key->range, &descriptor->first_subresource, &descriptor->subresource_count);
    descriptor->format = format;
    descriptor->vk_format = key->format;
    /* render targets and depth buffers are not shader descriptors: their heaps have no Vulkan
     * descriptor bytes */
    descriptor->vk_type = usage == VK_IMAGE_USAGE_STORAGE_BIT ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE
            : usage == VK_IMAGE_USAGE_SAMPLED_BIT ? VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE : D3D12XS_NO_VK_DESCRIPTOR;
    return true;
}

static bool srv_shape(const char *method, const D3D12_SHADER_RESOURCE_VIEW_DESC *desc, struct view_shape *s)
{
    switch (desc->ViewDimension) {
    case D3D12_SRV_DIMENSION_TEXTURE1D:
        *s = (struct view_shape){D3D12_RESOURCE_DIMENSION_TEXTURE1D, VK_IMAGE_VIEW_TYPE_1D, false, false, desc->Texture1D.MostDetailedMip,
                desc->Texture1D.MipLevels, 0, 1, 0, desc->Texture1D.ResourceMinLODClamp};
        return true;
    case D3D12_SRV_DIMENSION_TEXTURE1DARRAY:
        *s = (struct view_shape){D3D12_RESOURCE_DIMENSION_TEXTURE1D, VK_IMAGE_VIEW_TYPE_1D_ARRAY, false, false, desc->Texture1DArray.MostDetailedMip,
                desc->Texture1DArray.MipLevels, desc->Texture1DArray.FirstArraySlice, desc->Texture1DArray.ArraySize, 0,
                desc->Texture1DArray.ResourceMinLODClamp};
        return true;
    case D3D12_SRV_DIMENSION_TEXTURE2D:
        *s = (struct view_shape){D3D12_RESOURCE_DIMENSION_TEXTURE2D, VK_IMAGE_VIEW_TYPE_2D, false, false, desc->Texture2D.MostDetailedMip,
                desc->Texture2D.MipLevels, 0, 1, desc->Texture2D.PlaneSlice, desc->Texture2D.ResourceMinLODClamp};
        return true;
    case D3D12_SRV_DIMENSION_TEXTURE2DARRAY:
        *s = (struct view_shape){D3D12_RESOURCE_DIMENSION_TEXTURE2D, VK_IMAGE_VIEW_TYPE_2D_ARRAY, false, false, desc->Texture2DArray.MostDetailedMip,
                desc->Texture2DArray.MipLevels, desc->Texture2DArray.FirstArraySlice, desc->Texture2DArray.ArraySize,
                desc->Texture2DArray.PlaneSlice, desc->Texture2DArray.ResourceMinLODClamp};
        return true;
    case D3D12_SRV_DIMENSION_TEXTURE2DMS:
        *s = (struct view_shape){D3D12_RESOURCE_DIMENSION_TEXTURE2D, VK_IMAGE_VIEW_TYPE_2D, true, false, 0, 1, 0, 1, 0, 0.0f};
        return true;
    case D3D12_SRV_DIMENSION_TEXTURE2DMSARRAY:
        *s = (struct view_shape){D3D12_RESOURCE_DIMENSION_TEXTURE2D, VK_IMAGE_VIEW_TYPE_2D_ARRAY, true, false, 0, 1,
                desc->Texture2DMSArray.FirstArraySlice, desc->Texture2DMSArray.ArraySize, 0, 0.0f};
        return true;
    case D3D12_SRV_DIMENSION_TEXTURE3D:
        *s = (struct view_shape){D3D12_RESOURCE_DIMENSION_TEXTURE3D, VK_IMAGE_VIEW_TYPE_3D, false, false, desc->Texture3D.MostDetailedMip,
                desc->Texture3D.MipLevels, 0, 1, 0, desc->Texture3D.ResourceMinLODClamp};
        return true;
    case D3D12_SRV_DIMENSION_TEXTURECUBE:
        *s = (struct view_shape){D3D12_RESOURCE_DIMENSION_TEXTURE2D, VK_IMAGE_VIEW_TYPE_CUBE, false, true, desc->TextureCube.MostDetailedMip,
                desc->TextureCube.MipLevels, 0, 6, 0, desc->TextureCube.ResourceMinLODClamp};
        return true;
    case D3D12_SRV_DIMENSION_TEXTURECUBEARRAY:
        *s = (struct view_shape){D3D12_RESOURCE_DIMENSION_TEXTURE2D, VK_IMAGE_VIEW_TYPE_CUBE_ARRAY, false, true,
                desc->TextureCubeArray.MostDetailedMip, desc->TextureCubeArray.MipLevels, desc->TextureCubeArray.First2DArrayFace,
                desc->TextureCubeArray.NumCubes == UINT32_MAX ? UINT32_MAX : desc->TextureCubeArray.NumCubes * 6, 0,
                desc->TextureCubeArray.ResourceMinLODClamp};
        return true;
    default:
        d3d12xs_fail(E_INVALIDARG, method, "pDesc->ViewDimension is %d (BUFFER, or a TEXTURE1D/2D/3D/CUBE dimension; acceleration structures "
                "are not implemented)", (int)desc->ViewDimension);
        return false;
    }
}

/* The description D3D12 uses for a NULL pDesc: the whole resource in its own format. */
static void default_srv(const struct d3d12_resource *resource, D3D12_SHADER_RESOURCE_VIEW_DESC *desc)
{
    memset(desc, 0, sizeof(*desc));
    desc->Format = resource->desc.Format;
    desc->Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
    /* Each dimension's own members: they lie at different places in the union. */
    switch (resource->desc.Dimension) {
    case D3D12_RESOURCE_DIMENSION_TEXTURE1D:
        if (resource->layers > 1) {
            desc->ViewDimension = D3D12_SRV_DIMENSION_TEXTURE1DARRAY;
            desc->Texture1DArray.MipLevels = UINT32_MAX;
            desc->Texture1DArray.ArraySize = resource->layers;
        } else {
            desc->ViewDimension = D3D12_SRV_DIMENSION_TEXTURE1D;
            desc->Texture1D.MipLevels = UINT32_MAX;
        }
        break;
    case D3D12_RESOURCE_DIMENSION_TEXTURE2D:
        if (resource->desc.SampleDesc.Count > 1) {
            desc->ViewDimension = resource->layers > 1 ? D3D12_SRV_DIMENSION_TEXTURE2DMSARRAY : D3D12_SRV_DIMENSION_TEXTURE2DMS;
            if (resource->layers > 1)
                desc->Texture2DMSArray.ArraySize = resource->layers;
        } else if (resource->layers > 1) {
            desc->ViewDimension = D3D12_SRV_DIMENSION_TEXTURE2DARRAY;
            desc->Texture2DArray.MipLevels = UINT32_MAX;
            desc->Texture2DArray.ArraySize = resource->layers;
        } else {
            desc->ViewDimension = D3D12_SRV_DIMENSION_TEXTURE2D;
            desc->Texture2D.MipLevels = UINT32_MAX;
        }
        break;
    default:
        desc->ViewDimension = D3D12_SRV_DIMENSION_TEXTURE3D;
        desc->Texture3D.MipLevels = UINT32_MAX;
        break;
    }
}

bool d3d12xs_texture_srv(struct d3d12_device *device, const char *method, struct d3d12_resource *resource,
        const D3D12_SHADER_RESOURCE_VIEW_DESC *desc, struct d3d12xs_descriptor *descriptor)
{
    D3D12_SHADER_RESOURCE_VIEW_DESC whole;
    struct d3d12xs_image_view_key key;
    VkComponentSwizzle base[4];
    struct view_shape shape;
    uint32_t mapping;

    if (!desc) {
        default_srv(resource, &whole);
        desc = &whole;
    }
    mapping = desc->Shader4ComponentMapping;
    if (!(mapping & D3D12_SHADER_COMPONENT_MAPPING_ALWAYS_SET_BIT_AVOIDING_ZEROMEM_MISTAKES) || mapping >> 13) {
        d3d12xs_fail(E_INVALIDARG, method, "pDesc->Shader4ComponentMapping 0x%x is not a D3D12_ENCODE_SHADER_4_COMPONENT_MAPPING value", mapping);
        return false;
    }
    for (unsigned i = 0; i < 4; i++) {
        if (D3D12_DECODE_SHADER_4_COMPONENT_MAPPING(i, mapping) > D3D12_SHADER_COMPONENT_MAPPING_FORCE_VALUE_1) {
            d3d12xs_fail(E_INVALIDARG, method, "pDesc->Shader4ComponentMapping 0x%x: component %u's source is %u (0-3, or 4 and 5 for 0 and 1)",
                    mapping, i, D3D12_DECODE_SHADER_4_COMPONENT_MAPPING(i, mapping));
            return false;
        }
    }
    if (!srv_shape(method, desc, &shape) || !resolve_range(method, resource, &shape))
        return false;
    memset(&key, 0, sizeof(key));
    if (!resolve_format(method, resource, desc->Format, shape.plane, &key, base))
        return false;
    key.components.r = component(D3D12_DECODE_SHADER_4_COMPONENT_MAPPING(0, mapping), base);
    key.components.g = component(D3D12_DECODE_SHADER_4_COMPONENT_MAPPING(1, mapping), base);
    key.components.b = component(D3D12_DECODE_SHADER_4_COMPONENT_MAPPING(2, mapping), base);
    key.components.a = component(D3D12_DECODE_SHADER_4_COMPONENT_MAPPING(3, mapping), base);
    if (resource->desc.Flags & D3D12_RESOURCE_FLAG_DENY_SHADER_RESOURCE) {
        d3d12xs_fail(E_INVALIDARG, method, "pResource '%s' was created with D3D12_RESOURCE_FLAG_DENY_SHADER_RESOURCE", d3d12xs_object_name(&resource->object));
        return false;
    }
    return make_view(device, method, resource, &shape, &key, descriptor, desc->Format, VK_IMAGE_USAGE_SAMPLED_BIT);
}

/* The shape of a view of one mip of 1D or 2D slices: what UAVs and RTVs of those dimensions
 * select, from members laid out alike in both descriptions. */
static bool one_mip_shape(VkImageViewType type, uint32_t mip, uint32_t first_layer, uint32_t layer_count, uint32_t plane,
        struct view_shape *s)
{
    bool one_d = type == VK_IMAGE_VIEW_TYPE_1D || type == VK_IMAGE_VIEW_TYPE_1D_ARRAY;
    *s = (struct view_shape){one_d ? D3D12_RESOURCE_DIMENSION_TEXTURE1D : D3D12_RESOURCE_DIMENSION_TEXTURE2D, type, false, false, mip, 1,
            first_layer, layer_count, plane, 0.0f};
    return true;
}

/* The shape of a view of multisampled 2D slices (one mip): RTVs and DSVs of them. */
static bool multisampled_shape(VkImageViewType type, uint32_t first_layer, uint32_t layer_count, struct view_shape *s)
{
    *s = (struct view_shape){D3D12_RESOURCE_DIMENSION_TEXTURE2D, type, true, false, 0, 1, first_layer, layer_count, 0, 0.0f};
    return true;
}

/* The view's shape; a 3D view of some of its mip's depth also sets the key's W slices. */
static bool uav_shape(struct d3d12_device *device, const char *method, const struct d3d12_resource *resource,
        const D3D12_UNORDERED_ACCESS_VIEW_DESC *desc, struct view_shape *s, struct d3d12xs_image_view_key *key)
{
    switch (desc->ViewDimension) {
    case D3D12_UAV_DIMENSION_TEXTURE1D:
        return one_mip_shape(VK_IMAGE_VIEW_TYPE_1D, desc->Texture1D.MipSlice, 0, 1, 0, s);
    case D3D12_UAV_DIMENSION_TEXTURE1DARRAY:
        return one_mip_shape(VK_IMAGE_VIEW_TYPE_1D_ARRAY, desc->Texture1DArray.MipSlice, desc->Texture1DArray.FirstArraySlice,
                desc->Texture1DArray.ArraySize, 0, s);
    case D3D12_UAV_DIMENSION_TEXTURE2D:
        return one_mip_shape(VK_IMAGE_VIEW_TYPE_2D, desc->Texture2D.MipSlice, 0, 1, desc->Texture2D.PlaneSlice, s);
    case D3D12_UAV_DIMENSION_TEXTURE2DARRAY:
        return one_mip_shape(VK_IMAGE_VIEW_TYPE_2D_ARRAY, desc->Texture2DArray.MipSlice, desc->Texture2DArray.FirstArraySlice,
                desc->Texture2DArray.ArraySize, desc->Texture2DArray.PlaneSlice, s);
    case D3D12_UAV_DIMENSION_TEXTURE3D: {
        uint32_t width, height, depth, first = desc->Texture3D.FirstWSlice, count = desc->Texture3D.WSize;
        d3d12xs_texture_mip_extent(&resource->desc, desc->Texture3D.MipSlice < resource->mip_levels ? desc->Texture3D.MipSlice : 0,
                &width, &height, &depth);
        /* WSize -1: every slice from FirstWSlice on */
        if (count == UINT32_MAX && first < depth)
            count = depth - first;
        if (!count || first >= depth || count > depth - first) {
            d3d12xs_fail(E_INVALIDARG, method, "pDesc->Texture3D selects W slices %u (+%d) of a mip %u deep (FirstWSlice + WSize must lie in "
                    "the mip, WSize -1 for the rest)", first, (int)desc->Texture3D.WSize, depth);
            return false;
        }
        *s = (struct view_shape){D3D12_RESOURCE_DIMENSION_TEXTURE3D, VK_IMAGE_VIEW_TYPE_3D, false, false, desc->Texture3D.MipSlice, 1, 0, 1, 0, 0.0f};
        if (count == depth)
            return true;
        /* Part of the mip's depth: a sliced view, the shader's slice 0 at FirstWSlice. */
        if (!device->has_sliced_view_of_3d) {
            d3d12xs_fail(E_INVALIDARG, method, "pDesc->Texture3D selects W slices %u to %u of %u: UAVs of part of a 3D mip need "
                    "VK_EXT_image_sliced_view_of_3d, %s", first, first + count - 1, depth, device->sliced_view_of_3d_hidden_by_layer
                    ? "left off: the validation layer predates it and would drop its slice range (D3D12XS_DEBUG=0 turns the layer off)"
                    : "which this device lacks");
            return false;
        }
        key->first_w_slice = first;
        key->w_slice_count = count;
        return true;
    }
    default:
        d3d12xs_fail(E_INVALIDARG, method, "pDesc->ViewDimension is %d (BUFFER or a TEXTURE1D/2D/3D dimension; multisampled UAVs are not implemented)",
                (int)desc->ViewDimension);
        return false;
    }
}

bool d3d12xs_texture_uav(struct d3d12_device *device, const char *method, struct d3d12_resource *resource,
        const D3D12_UNORDERED_ACCESS_VIEW_DESC *desc, struct d3d12xs_descriptor *descriptor)
{
    D3D12_UNORDERED_ACCESS_VIEW_DESC whole;
    struct d3d12xs_image_view_key key;
    VkComponentSwizzle base[4];
    VkFormatProperties properties;
    struct view_shape shape;

    if (!desc) {
        memset(&whole, 0, sizeof(whole));
        whole.Format = resource->desc.Format;
        whole.ViewDimension = resource->desc.Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE1D
                ? (resource->layers > 1 ? D3D12_UAV_DIMENSION_TEXTURE1DARRAY : D3D12_UAV_DIMENSION_TEXTURE1D)
                : resource->desc.Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE2D
                ? (resource->layers > 1 ? D3D12_UAV_DIMENSION_TEXTURE2DARRAY : D3D12_UAV_DIMENSION_TEXTURE2D) : D3D12_UAV_DIMENSION_TEXTURE3D;
        if (whole.ViewDimension == D3D12_UAV_DIMENSION_TEXTURE3D)
            whole.Texture3D.WSize = UINT32_MAX;
        else if (whole.ViewDimension == D3D12_UAV_DIMENSION_TEXTURE2DARRAY)
            whole.Texture2DArray.ArraySize = resource->layers;
        else if (whole.ViewDimension == D3D12_UAV_DIMENSION_TEXTURE1DARRAY)
            whole.Texture1DArray.ArraySize = resource->layers;
        desc = &whole;
    }
    memset(&key, 0, sizeof(key));
    if (!uav_shape(device, method, resource, desc, &shape, &key) || !resolve_range(method, resource, &shape))
        return false;
    if (!resolve_format(method, resource, desc->Format, shape.plane, &key, base))
        return false;
    key.components = (VkComponentMapping){VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY,
            VK_COMPONENT_SWIZZLE_IDENTITY};
    vkGetPhysicalDeviceFormatProperties(device->vk_physical_device, key.format, &properties);
    if (!(properties.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT)) {
        d3d12xs_fail(E_INVALIDARG, method, "pDesc->Format %d cannot be a typed UAV of a texture on this device (CheckFeatureSupport "
                "D3D12_FEATURE_FORMAT_SUPPORT says which can)", (int)(desc->Format ? desc->Format : resource->desc.Format));
        return false;
    }
    return make_view(device, method, resource, &shape, &key, descriptor, desc->Format, VK_IMAGE_USAGE_STORAGE_BIT);
}

/* What an RTV or DSV without a description views: mip 0 of every slice (D3D12's rule). */
static bool whole_target_shape(const char *method, const struct d3d12_resource *resource, struct view_shape *s)
{
    bool array = resource->layers > 1;

    if (resource->desc.Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE1D)
        return one_mip_shape(array ? VK_IMAGE_VIEW_TYPE_1D_ARRAY : VK_IMAGE_VIEW_TYPE_1D, 0, 0, resource->layers, 0, s);
    if (resource->desc.Dimension != D3D12_RESOURCE_DIMENSION_TEXTURE2D) {
        d3d12xs_fail(E_INVALIDARG, method, "pResource '%s' is a 3D texture (3D render targets are not implemented)",
                d3d12xs_object_name(&resource->object));
        return false;
    }
    if (resource->desc.SampleDesc.Count > 1)
        return multisampled_shape(array ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D, 0, resource->layers, s);
    return one_mip_shape(array ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D, 0, 0, resource->layers, 0, s);
}

static bool rtv_shape(const char *method, const D3D12_RENDER_TARGET_VIEW_DESC *desc, struct view_shape *s)
{
    switch (desc->ViewDimension) {
    case D3D12_RTV_DIMENSION_TEXTURE1D:
        return one_mip_shape(VK_IMAGE_VIEW_TYPE_1D, desc->Texture1D.MipSlice, 0, 1, 0, s);
    case D3D12_RTV_DIMENSION_TEXTURE1DARRAY:
        return one_mip_shape(VK_IMAGE_VIEW_TYPE_1D_ARRAY, desc->Texture1DArray.MipSlice, desc->Texture1DArray.FirstArraySlice,
                desc->Texture1DArray.ArraySize, 0, s);
    case D3D12_RTV_DIMENSION_TEXTURE2D:
        return one_mip_shape(VK_IMAGE_VIEW_TYPE_2D, desc->Texture2D.MipSlice, 0, 1, desc->Texture2D.PlaneSlice, s);
    case D3D12_RTV_DIMENSION_TEXTURE2DARRAY:
        return one_mip_shape(VK_IMAGE_VIEW_TYPE_2D_ARRAY, desc->Texture2DArray.MipSlice, desc->Texture2DArray.FirstArraySlice,
                desc->Texture2DArray.ArraySize, desc->Texture2DArray.PlaneSlice, s);
    case D3D12_RTV_DIMENSION_TEXTURE2DMS:
        return multisampled_shape(VK_IMAGE_VIEW_TYPE_2D, 0, 1, s);
    case D3D12_RTV_DIMENSION_TEXTURE2DMSARRAY:
        return multisampled_shape(VK_IMAGE_VIEW_TYPE_2D_ARRAY, desc->Texture2DMSArray.FirstArraySlice, desc->Texture2DMSArray.ArraySize, s);
    default:
        /* a 3D texture's slices are attachments through 2D-array views of the 3D image, which
         * needs VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT on every render-target 3D texture */
        d3d12xs_fail(E_INVALIDARG, method, "pDesc->ViewDimension is %d (TEXTURE1D(ARRAY), TEXTURE2D(ARRAY), TEXTURE2DMS(ARRAY); buffer "
                "and 3D render targets are not implemented)", (int)desc->ViewDimension);
        return false;
    }
}

bool d3d12xs_texture_rtv(struct d3d12_device *device, const char *method, struct d3d12_resource *resource,
        const D3D12_RENDER_TARGET_VIEW_DESC *desc, struct d3d12xs_descriptor *descriptor)
{
    struct d3d12xs_image_view_key key;
    DXGI_FORMAT format;
    VkComponentSwizzle base[4];
    VkFormatProperties properties;
    struct view_shape shape;

    if (!(resource->desc.Flags & D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET)) {
        d3d12xs_fail(E_INVALIDARG, method, "pResource '%s' was created without D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET",
                d3d12xs_object_name(&resource->object));
        return false;
    }
    if (desc ? !rtv_shape(method, desc, &shape) : !whole_target_shape(method, resource, &shape))
        return false;
    if (!resolve_range(method, resource, &shape))
        return false;
    format = desc && desc->Format ? desc->Format : resource->desc.Format;
    memset(&key, 0, sizeof(key));
    if (!resolve_format(method, resource, format, shape.plane, &key, base))
        return false;
    key.components = (VkComponentMapping){VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY,
            VK_COMPONENT_SWIZZLE_IDENTITY};
    vkGetPhysicalDeviceFormatProperties(device->vk_physical_device, key.format, &properties);
    if (key.range.aspectMask != VK_IMAGE_ASPECT_COLOR_BIT || !(properties.optimalTilingFeatures & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT)) {
        d3d12xs_fail(E_INVALIDARG, method, "pDesc->Format %d cannot be a render target on this device (CheckFeatureSupport "
                "D3D12_FEATURE_FORMAT_SUPPORT says which can)", (int)format);
        return false;
    }
    return make_view(device, method, resource, &shape, &key, descriptor, format, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
}

static bool dsv_shape(const char *method, const D3D12_DEPTH_STENCIL_VIEW_DESC *desc, struct view_shape *s)
{
    switch (desc->ViewDimension) {
    case D3D12_DSV_DIMENSION_TEXTURE1D:
        return one_mip_shape(VK_IMAGE_VIEW_TYPE_1D, desc->Texture1D.MipSlice, 0, 1, 0, s);
    case D3D12_DSV_DIMENSION_TEXTURE1DARRAY:
        return one_mip_shape(VK_IMAGE_VIEW_TYPE_1D_ARRAY, desc->Texture1DArray.MipSlice, desc->Texture1DArray.FirstArraySlice,
                desc->Texture1DArray.ArraySize, 0, s);
    case D3D12_DSV_DIMENSION_TEXTURE2D:
        return one_mip_shape(VK_IMAGE_VIEW_TYPE_2D, desc->Texture2D.MipSlice, 0, 1, 0, s);
    case D3D12_DSV_DIMENSION_TEXTURE2DARRAY:
        return one_mip_shape(VK_IMAGE_VIEW_TYPE_2D_ARRAY, desc->Texture2DArray.MipSlice, desc->Texture2DArray.FirstArraySlice,
                desc->Texture2DArray.ArraySize, 0, s);
    case D3D12_DSV_DIMENSION_TEXTURE2DMS:
        return multisampled_shape(VK_IMAGE_VIEW_TYPE_2D, 0, 1, s);
    case D3D12_DSV_DIMENSION_TEXTURE2DMSARRAY:
        return multisampled_shape(VK_IMAGE_VIEW_TYPE_2D_ARRAY, desc->Texture2DMSArray.FirstArraySlice, desc->Texture2DMSArray.ArraySize, s);
    default:
        d3d12xs_fail(E_INVALIDARG, method, "pDesc->ViewDimension is %d (TEXTURE1D(ARRAY), TEXTURE2D(ARRAY), TEXTURE2DMS(ARRAY))",
                (int)desc->ViewDimension);
        return false;
    }
}

bool d3d12xs_texture_dsv(struct d3d12_device *device, const char *method, struct d3d12_resource *resource,
        const D3D12_DEPTH_STENCIL_VIEW_DESC *desc, struct d3d12xs_descriptor *descriptor)
{
    const struct d3d12xs_format *format;
    struct d3d12xs_image_view_key key;
    VkComponentSwizzle base[4];
    struct view_shape shape;

    if (!(resource->desc.Flags & D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL)) {
        d3d12xs_fail(E_INVALIDARG, method, "pResource '%s' was created without D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL",
                d3d12xs_object_name(&resource->object));
        return false;
    }
    if (desc && (desc->Flags & ~(D3D12_DSV_FLAG_READ_ONLY_DEPTH | D3D12_DSV_FLAG_READ_ONLY_STENCIL))) {
        d3d12xs_fail(E_INVALIDARG, method, "pDesc->Flags is 0x%x (READ_ONLY_DEPTH and READ_ONLY_STENCIL are defined)", desc->Flags);
        return false;
    }
    if (!(format = d3d12xs_format(desc && desc->Format ? desc->Format : resource->desc.Format))
            || !(format->aspects & (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT))) {
        d3d12xs_fail(E_INVALIDARG, method, "pDesc->Format %d is not a depth-stencil format (D32_FLOAT, D24_UNORM_S8_UINT, D16_UNORM, "
                "D32_FLOAT_S8X24_UINT)", (int)(desc && desc->Format ? desc->Format : resource->desc.Format));
        return false;
    }
    if (desc ? !dsv_shape(method, desc, &shape) : !whole_target_shape(method, resource, &shape))
        return false;
    if (!resolve_range(method, resource, &shape))
        return false;
    memset(&key, 0, sizeof(key));
    if (!resolve_format(method, resource, format->dxgi, 0, &key, base))
        return false;
    /* the view is the whole depth-stencil attachment: every aspect the image has */
    key.range.aspectMask = resource->aspects & (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT);
    key.components = (VkComponentMapping){VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY,
            VK_COMPONENT_SWIZZLE_IDENTITY};
    if (!make_view(device, method, resource, &shape, &key, descriptor, format->dxgi, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT))
        return false;
    descriptor->dsv_flags = desc ? desc->Flags : D3D12_DSV_FLAG_NONE;
    return true;
}

bool d3d12xs_texture_null_view(struct d3d12_device *device, const char *method, bool writable, struct d3d12xs_descriptor *descriptor)
{
    if (!device->descriptor_buffers->null_descriptor) {
        d3d12xs_fail(E_INVALIDARG, method, "null texture views need the Vulkan nullDescriptor feature, which %s lacks",
                device->vk_properties.deviceName);
        return false;
    }
    descriptor->null_view = true;
    descriptor->vk_type = writable ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE : VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
    return true;
}
