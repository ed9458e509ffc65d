/* The DXGI format table (dxgi_format.h). Facts from Microsoft's format table
 * (DirectX-Headers d3dx12_property_format_table.cpp: families, block alignment, planes) and the
 * Planar Depth Stencil spec (copy formats of depth and stencil planes). */
#include "device/dxgi_format.h"

#include "common/util.h"

enum {
    F_SRGB = 1 << 0,
    F_TYPELESS = 1 << 1,
    F_BC = 1 << 2,
    F_PLANAR = 1 << 3,
    F_BUFFER = 1 << 4, /* typed buffer views (the set d3d12xs_vk_format_from_dxgi always answered) */
    F_VIDEO = 1 << 5,  /* YUV and palette formats: no Vulkan image format backs them here */
    F_ALPHA_IN_RED = 1 << 6, /* A8_UNORM stored as R8_UNORM (d3d12xs_format::alpha_in_red) */
};

#define COLOR_ASPECT VK_IMAGE_ASPECT_COLOR_BIT
#define DEPTH_ASPECT VK_IMAGE_ASPECT_DEPTH_BIT
#define STENCIL_ASPECT VK_IMAGE_ASPECT_STENCIL_BIT
#define DS_ASPECTS (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT)

#define ENTRY(name, vk_format, family, bw, bh, bytes, planes, aspect, flags) \
    [DXGI_FORMAT_##name] = {DXGI_FORMAT_##name, vk_format, DXGI_FORMAT_##family, bw, bh, bytes, planes, aspect, \
            !!((flags) & F_SRGB), !!((flags) & F_TYPELESS), !!((flags) & F_BC), !!((flags) & F_PLANAR), !!((flags) & F_BUFFER), \
            !!((flags) & F_VIDEO), !!((flags) & F_ALPHA_IN_RED)}
/* One texel per block, one colour plane. */
#define COLOR(name, vk_format, family, bytes, flags) ENTRY(name, vk_format, family, 1, 1, bytes, 1, COLOR_ASPECT, flags)
#define BC(name, vk_format, family, bytes, flags) ENTRY(name, vk_format, family, 4, 4, bytes, 1, COLOR_ASPECT, (flags) | F_BC)
#define VIDEO(name, bw, bytes, planes, flags) ENTRY(name, VK_FORMAT_UNDEFINED, UNKNOWN, bw, 1, bytes, planes, COLOR_ASPECT, (flags) | F_VIDEO)

/* Typeless colour families are created as a member that keeps the most usages (UINT where
 * there is one: storage and attachments; R8G8B8A8 as UNORM). Images are MUTABLE_FORMAT, so any
 * member of the family can view them. */
static const struct d3d12xs_format formats[DXGI_FORMAT_A4B4G4R4_UNORM + 1] = {
    COLOR(R32G32B32A32_TYPELESS, VK_FORMAT_R32G32B32A32_UINT, R32G32B32A32_TYPELESS, 16, F_TYPELESS),
    COLOR(R32G32B32A32_FLOAT, VK_FORMAT_R32G32B32A32_SFLOAT, R32G32B32A32_TYPELESS, 16, F_BUFFER),
    COLOR(R32G32B32A32_UINT, VK_FORMAT_R32G32B32A32_UINT, R32G32B32A32_TYPELESS, 16, F_BUFFER),
    COLOR(R32G32B32A32_SINT, VK_FORMAT_R32G32B32A32_SINT, R32G32B32A32_TYPELESS, 16, F_BUFFER),
    COLOR(R32G32B32_TYPELESS, VK_FORMAT_R32G32B32_UINT, R32G32B32_TYPELESS, 12, F_TYPELESS),
    COLOR(R32G32B32_FLOAT, VK_FORMAT_R32G32B32_SFLOAT, R32G32B32_TYPELESS, 12, F_BUFFER),
    COLOR(R32G32B32_UINT, VK_FORMAT_R32G32B32_UINT, R32G32B32_TYPELESS, 12, F_BUFFER),
    COLOR(R32G32B32_SINT, VK_FORMAT_R32G32B32_SINT, R32G32B32_TYPELESS, 12, F_BUFFER),
    COLOR(R16G16B16A16_TYPELESS, VK_FORMAT_R16G16B16A16_UINT, R16G16B16A16_TYPELESS, 8, F_TYPELESS),
    COLOR(R16G16B16A16_FLOAT, VK_FORMAT_R16G16B16A16_SFLOAT, R16G16B16A16_TYPELESS, 8, F_BUFFER),
    COLOR(R16G16B16A16_UNORM, VK_FORMAT_R16G16B16A16_UNORM, R16G16B16A16_TYPELESS, 8, F_BUFFER),
    COLOR(R16G16B16A16_UINT, VK_FORMAT_R16G16B16A16_UINT, R16G16B16A16_TYPELESS, 8, F_BUFFER),
    COLOR(R16G16B16A16_SNORM, VK_FORMAT_R16G16B16A16_SNORM, R16G16B16A16_TYPELESS, 8, F_BUFFER),
    COLOR(R16G16B16A16_SINT, VK_FORMAT_R16G16B16A16_SINT, R16G16B16A16_TYPELESS, 8, F_BUFFER),
    COLOR(R32G32_TYPELESS, VK_FORMAT_R32G32_UINT, R32G32_TYPELESS, 8, F_TYPELESS),
    COLOR(R32G32_FLOAT, VK_FORMAT_R32G32_SFLOAT, R32G32_TYPELESS, 8, F_BUFFER),
    COLOR(R32G32_UINT, VK_FORMAT_R32G32_UINT, R32G32_TYPELESS, 8, F_BUFFER),
    COLOR(R32G32_SINT, VK_FORMAT_R32G32_SINT, R32G32_TYPELESS, 8, F_BUFFER),
    /* Depth-stencil families: D3D12 numbers depth as plane 0 and stencil as plane 1 for every
     * member (GetPlaneCount goes by the family); block_bytes is the depth plane's copy word. */
    ENTRY(R32G8X24_TYPELESS, VK_FORMAT_D32_SFLOAT_S8_UINT, R32G8X24_TYPELESS, 1, 1, 4, 2, DS_ASPECTS, F_TYPELESS),
    ENTRY(D32_FLOAT_S8X24_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT, R32G8X24_TYPELESS, 1, 1, 4, 2, DS_ASPECTS, 0),
    ENTRY(R32_FLOAT_X8X24_TYPELESS, VK_FORMAT_D32_SFLOAT_S8_UINT, R32G8X24_TYPELESS, 1, 1, 4, 2, DEPTH_ASPECT, 0),
    ENTRY(X32_TYPELESS_G8X24_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT, R32G8X24_TYPELESS, 1, 1, 4, 2, STENCIL_ASPECT, 0),
    COLOR(R10G10B10A2_TYPELESS, VK_FORMAT_A2B10G10R10_UINT_PACK32, R10G10B10A2_TYPELESS, 4, F_TYPELESS),
    COLOR(R10G10B10A2_UNORM, VK_FORMAT_A2B10G10R10_UNORM_PACK32, R10G10B10A2_TYPELESS, 4, F_BUFFER),
    COLOR(R10G10B10A2_UINT, VK_FORMAT_A2B10G10R10_UINT_PACK32, R10G10B10A2_TYPELESS, 4, F_BUFFER),
    COLOR(R11G11B10_FLOAT, VK_FORMAT_B10G11R11_UFLOAT_PACK32, UNKNOWN, 4, F_BUFFER),
    COLOR(R8G8B8A8_TYPELESS, VK_FORMAT_R8G8B8A8_UNORM, R8G8B8A8_TYPELESS, 4, F_TYPELESS),
    COLOR(R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM, R8G8B8A8_TYPELESS, 4, F_BUFFER),
    COLOR(R8G8B8A8_UNORM_SRGB, VK_FORMAT_R8G8B8A8_SRGB, R8G8B8A8_TYPELESS, 4, F_SRGB),
    COLOR(R8G8B8A8_UINT, VK_FORMAT_R8G8B8A8_UINT, R8G8B8A8_TYPELESS, 4, F_BUFFER),
    COLOR(R8G8B8A8_SNORM, VK_FORMAT_R8G8B8A8_SNORM, R8G8B8A8_TYPELESS, 4, F_BUFFER),
    COLOR(R8G8B8A8_SINT, VK_FORMAT_R8G8B8A8_SINT, R8G8B8A8_TYPELESS, 4, F_BUFFER),
    COLOR(R16G16_TYPELESS, VK_FORMAT_R16G16_UINT, R16G16_TYPELESS, 4, F_TYPELESS),
    COLOR(R16G16_FLOAT, VK_FORMAT_R16G16_SFLOAT, R16G16_TYPELESS, 4, F_BUFFER),
    COLOR(R16G16_UNORM, VK_FORMAT_R16G16_UNORM, R16G16_TYPELESS, 4, F_BUFFER),
    COLOR(R16G16_UINT, VK_FORMAT_R16G16_UINT, R16G16_TYPELESS, 4, F_BUFFER),
    COLOR(R16G16_SNORM, VK_FORMAT_R16G16_SNORM, R16G16_TYPELESS, 4, F_BUFFER),
    COLOR(R16G16_SINT, VK_FORMAT_R16G16_SINT, R16G16_TYPELESS, 4, F_BUFFER),
    /* R32_TYPELESS / R16_TYPELESS: colour members; a resource with ALLOW_DEPTH_STENCIL picks
     * the depth format itself. */
    COLOR(R32_TYPELESS, VK_FORMAT_R32_UINT, R32_TYPELESS, 4, F_TYPELESS),
    ENTRY(D32_FLOAT, VK_FORMAT_D32_SFLOAT, R32_TYPELESS, 1, 1, 4, 1, DEPTH_ASPECT, 0),
    COLOR(R32_FLOAT, VK_FORMAT_R32_SFLOAT, R32_TYPELESS, 4, F_BUFFER),
    COLOR(R32_UINT, VK_FORMAT_R32_UINT, R32_TYPELESS, 4, F_BUFFER),
    COLOR(R32_SINT, VK_FORMAT_R32_SINT, R32_TYPELESS, 4, F_BUFFER),
    ENTRY(R24G8_TYPELESS, VK_FORMAT_D24_UNORM_S8_UINT, R24G8_TYPELESS, 1, 1, 4, 2, DS_ASPECTS, F_TYPELESS),
    ENTRY(D24_UNORM_S8_UINT, VK_FORMAT_D24_UNORM_S8_UINT, R24G8_TYPELESS, 1, 1, 4, 2, DS_ASPECTS, 0),
    ENTRY(R24_UNORM_X8_TYPELESS, VK_FORMAT_D24_UNORM_S8_UINT, R24G8_TYPELESS, 1, 1, 4, 2, DEPTH_ASPECT, 0),
    ENTRY(X24_TYPELESS_G8_UINT, VK_FORMAT_D24_UNORM_S8_UINT, R24G8_TYPELESS, 1, 1, 4, 2, STENCIL_ASPECT, 0),
    COLOR(R8G8_TYPELESS, VK_FORMAT_R8G8_UINT, R8G8_TYPELESS, 2, F_TYPELESS),
    COLOR(R8G8_UNORM, VK_FORMAT_R8G8_UNORM, R8G8_TYPELESS, 2, F_BUFFER),
    COLOR(R8G8_UINT, VK_FORMAT_R8G8_UINT, R8G8_TYPELESS, 2, F_BUFFER),
    COLOR(R8G8_SNORM, VK_FORMAT_R8G8_SNORM, R8G8_TYPELESS, 2, F_BUFFER),
    COLOR(R8G8_SINT, VK_FORMAT_R8G8_SINT, R8G8_TYPELESS, 2, F_BUFFER),
    COLOR(R16_TYPELESS, VK_FORMAT_R16_UINT, R16_TYPELESS, 2, F_TYPELESS),
    COLOR(R16_FLOAT, VK_FORMAT_R16_SFLOAT, R16_TYPELESS, 2, F_BUFFER),
    ENTRY(D16_UNORM, VK_FORMAT_D16_UNORM, R16_TYPELESS, 1, 1, 2, 1, DEPTH_ASPECT, 0),
    COLOR(R16_UNORM, VK_FORMAT_R16_UNORM, R16_TYPELESS, 2, F_BUFFER),
    COLOR(R16_UINT, VK_FORMAT_R16_UINT, R16_TYPELESS, 2, F_BUFFER),
    COLOR(R16_SNORM, VK_FORMAT_R16_SNORM, R16_TYPELESS, 2, F_BUFFER),
    COLOR(R16_SINT, VK_FORMAT_R16_SINT, R16_TYPELESS, 2, F_BUFFER),
    COLOR(R8_TYPELESS, VK_FORMAT_R8_UINT, R8_TYPELESS, 1, F_TYPELESS),
    COLOR(R8_UNORM, VK_FORMAT_R8_UNORM, R8_TYPELESS, 1, F_BUFFER),
    COLOR(R8_UINT, VK_FORMAT_R8_UINT, R8_TYPELESS, 1, F_BUFFER),
    COLOR(R8_SNORM, VK_FORMAT_R8_SNORM, R8_TYPELESS, 1, F_BUFFER),
    COLOR(R8_SINT, VK_FORMAT_R8_SINT, R8_TYPELESS, 1, F_BUFFER),
    /* VK_KHR_maintenance5's VK_FORMAT_A8_UNORM_KHR is not in the Vulkan headers (1.3.239) nor known
     * to the validation layer d3d12xs is built and checked with: A8 is R8_UNORM, alpha in R. */
    COLOR(A8_UNORM, VK_FORMAT_R8_UNORM, UNKNOWN, 1, F_ALPHA_IN_RED),
    /* One bit per texel: rows are whole bytes of 8 texels. No Vulkan format. */
    ENTRY(R1_UNORM, VK_FORMAT_UNDEFINED, UNKNOWN, 8, 1, 1, 1, COLOR_ASPECT, 0),
    COLOR(R9G9B9E5_SHAREDEXP, VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, UNKNOWN, 4, 0),
    /* Pairs of texels sharing R and B. Vulkan's 4:2:2 formats have the same byte positions of
     * the shared and the per-texel components, with R and B exchanged: views need an R<->B
     * swizzle (and Vulkan samples these only through a Y'CbCr conversion). */
    ENTRY(R8G8_B8G8_UNORM, VK_FORMAT_B8G8R8G8_422_UNORM, UNKNOWN, 2, 1, 4, 1, COLOR_ASPECT, 0),
    ENTRY(G8R8_G8B8_UNORM, VK_FORMAT_G8B8G8R8_422_UNORM, UNKNOWN, 2, 1, 4, 1, COLOR_ASPECT, 0),
    /* BC1's one-bit alpha makes it Vulkan's RGBA variant. */
    BC(BC1_TYPELESS, VK_FORMAT_BC1_RGBA_UNORM_BLOCK, BC1_TYPELESS, 8, F_TYPELESS),
    BC(BC1_UNORM, VK_FORMAT_BC1_RGBA_UNORM_BLOCK, BC1_TYPELESS, 8, 0),
    BC(BC1_UNORM_SRGB, VK_FORMAT_BC1_RGBA_SRGB_BLOCK, BC1_TYPELESS, 8, F_SRGB),
    BC(BC2_TYPELESS, VK_FORMAT_BC2_UNORM_BLOCK, BC2_TYPELESS, 16, F_TYPELESS),
    BC(BC2_UNORM, VK_FORMAT_BC2_UNORM_BLOCK, BC2_TYPELESS, 16, 0),
    BC(BC2_UNORM_SRGB, VK_FORMAT_BC2_SRGB_BLOCK, BC2_TYPELESS, 16, F_SRGB),
    BC(BC3_TYPELESS, VK_FORMAT_BC3_UNORM_BLOCK, BC3_TYPELESS, 16, F_TYPELESS),
    BC(BC3_UNORM, VK_FORMAT_BC3_UNORM_BLOCK, BC3_TYPELESS, 16, 0),
    BC(BC3_UNORM_SRGB, VK_FORMAT_BC3_SRGB_BLOCK, BC3_TYPELESS, 16, F_SRGB),
    BC(BC4_TYPELESS, VK_FORMAT_BC4_UNORM_BLOCK, BC4_TYPELESS, 8, F_TYPELESS),
    BC(BC4_UNORM, VK_FORMAT_BC4_UNORM_BLOCK, BC4_TYPELESS, 8, 0),
    BC(BC4_SNORM, VK_FORMAT_BC4_SNORM_BLOCK, BC4_TYPELESS, 8, 0),
    BC(BC5_TYPELESS, VK_FORMAT_BC5_UNORM_BLOCK, BC5_TYPELESS, 16, F_TYPELESS),
    BC(BC5_UNORM, VK_FORMAT_BC5_UNORM_BLOCK, BC5_TYPELESS, 16, 0),
    BC(BC5_SNORM, VK_FORMAT_BC5_SNORM_BLOCK, BC5_TYPELESS, 16, 0),
    /* DXGI names packed formats from the least significant bit, Vulkan from the most. */
    COLOR(B5G6R5_UNORM, VK_FORMAT_R5G6B5_UNORM_PACK16, UNKNOWN, 2, 0),
    COLOR(B5G5R5A1_UNORM, VK_FORMAT_A1R5G5B5_UNORM_PACK16, UNKNOWN, 2, 0),
    COLOR(B8G8R8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, B8G8R8A8_TYPELESS, 4, F_BUFFER),
    /* X8: stored as B8G8R8A8; views read alpha as 1 through a swizzle. */
    COLOR(B8G8R8X8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, B8G8R8X8_TYPELESS, 4, 0),
    COLOR(R10G10B10_XR_BIAS_A2_UNORM, VK_FORMAT_UNDEFINED, R10G10B10A2_TYPELESS, 4, 0),
    COLOR(B8G8R8A8_TYPELESS, VK_FORMAT_B8G8R8A8_UNORM, B8G8R8A8_TYPELESS, 4, F_TYPELESS),
    COLOR(B8G8R8A8_UNORM_SRGB, VK_FORMAT_B8G8R8A8_SRGB, B8G8R8A8_TYPELESS, 4, F_SRGB),
    COLOR(B8G8R8X8_TYPELESS, VK_FORMAT_B8G8R8A8_UNORM, B8G8R8X8_TYPELESS, 4, F_TYPELESS),
    COLOR(B8G8R8X8_UNORM_SRGB, VK_FORMAT_B8G8R8A8_SRGB, B8G8R8X8_TYPELESS, 4, F_SRGB),
    BC(BC6H_TYPELESS, VK_FORMAT_BC6H_UFLOAT_BLOCK, BC6H_TYPELESS, 16, F_TYPELESS),
    BC(BC6H_UF16, VK_FORMAT_BC6H_UFLOAT_BLOCK, BC6H_TYPELESS, 16, 0),
    BC(BC6H_SF16, VK_FORMAT_BC6H_SFLOAT_BLOCK, BC6H_TYPELESS, 16, 0),
    BC(BC7_TYPELESS, VK_FORMAT_BC7_UNORM_BLOCK, BC7_TYPELESS, 16, F_TYPELESS),
    BC(BC7_UNORM, VK_FORMAT_BC7_UNORM_BLOCK, BC7_TYPELESS, 16, 0),
    BC(BC7_UNORM_SRGB, VK_FORMAT_BC7_SRGB_BLOCK, BC7_TYPELESS, 16, F_SRGB),
    /* Video and palette formats: refused for now. Planar ones give plane 0's bytes per texel;
     * 4:2:2 packed ones a 2x1 block. */
    VIDEO(AYUV, 1, 4, 1, 0),
    VIDEO(Y410, 1, 4, 1, 0),
    VIDEO(Y416, 1, 8, 1, 0),
    VIDEO(NV12, 1, 1, 2, F_PLANAR),
    VIDEO(P010, 1, 2, 2, F_PLANAR),
    VIDEO(P016, 1, 2, 2, F_PLANAR),
    VIDEO(420_OPAQUE, 1, 1, 1, F_PLANAR), /* opaque: one plane, never copied */
    VIDEO(YUY2, 2, 4, 1, 0),
    VIDEO(Y210, 2, 8, 1, 0),
    VIDEO(Y216, 2, 8, 1, 0),
    VIDEO(NV11, 1, 1, 2, F_PLANAR),
    VIDEO(AI44, 1, 1, 1, 0),
    VIDEO(IA44, 1, 1, 1, 0),
    VIDEO(P8, 1, 1, 1, 0),
    VIDEO(A8P8, 1, 2, 1, 0),
    COLOR(B4G4R4A4_UNORM, VK_FORMAT_A4R4G4B4_UNORM_PACK16, UNKNOWN, 2, 0),
    VIDEO(P208, 1, 1, 2, F_PLANAR),
    VIDEO(V208, 1, 1, 3, F_PLANAR),
    VIDEO(V408, 1, 1, 3, F_PLANAR),
    COLOR(A4B4G4R4_UNORM, VK_FORMAT_R4G4B4A4_UNORM_PACK16, UNKNOWN, 2, 0),
};

const struct d3d12xs_format *d3d12xs_format(DXGI_FORMAT format)
{
    /* Values the table leaves out read as all zero: dxgi UNKNOWN. */
    if ((uint32_t)format >= D3D12XS_ARRAY_SIZE(formats) || format == DXGI_FORMAT_UNKNOWN || formats[format].dxgi != format)
        return NULL;
    return &formats[format];
}

uint32_t d3d12xs_format_family_views(DXGI_FORMAT family, VkFormat *view_formats, uint32_t capacity)
{
    uint32_t count = 0;

    for (size_t i = 0; i < D3D12XS_ARRAY_SIZE(formats); i++) {
        const struct d3d12xs_format *member = &formats[i];
        bool known = false;
        if (member->dxgi != (DXGI_FORMAT)i || member->typeless != family || member->typeless_format
                || member->vk == VK_FORMAT_UNDEFINED || member->aspects != VK_IMAGE_ASPECT_COLOR_BIT)
            continue;
        for (uint32_t j = 0; j < count && !known; j++)
            known = view_formats[j] == member->vk;
        if (!known && count < capacity)
            view_formats[count++] = member->vk;
    }
    return count;
}

static bool depth_stencil_family(const struct d3d12xs_format *format)
{
    return format->typeless == DXGI_FORMAT_R24G8_TYPELESS || format->typeless == DXGI_FORMAT_R32G8X24_TYPELESS;
}

bool d3d12xs_format_plane(const struct d3d12xs_format *format, unsigned plane, VkImageAspectFlagBits *aspect,
        uint32_t *bytes_per_block, DXGI_FORMAT *plane_format)
{
    VkImageAspectFlagBits plane_aspect;
    uint32_t bytes;
    DXGI_FORMAT copy_format;

    if (!format || plane >= format->plane_count)
        return false;
    if (depth_stencil_family(format)) {
        /* Planar Depth Stencil spec: both families copy depth as R32_TYPELESS words (D24 in the
         * low 24 bits) and stencil as R8_TYPELESS bytes. */
        plane_aspect = plane ? VK_IMAGE_ASPECT_STENCIL_BIT : VK_IMAGE_ASPECT_DEPTH_BIT;
        bytes = plane ? 1 : 4;
        copy_format = plane ? DXGI_FORMAT_R8_TYPELESS : DXGI_FORMAT_R32_TYPELESS;
    } else if (format->planar) {
        static const VkImageAspectFlagBits plane_aspects[] = {
            VK_IMAGE_ASPECT_PLANE_0_BIT, VK_IMAGE_ASPECT_PLANE_1_BIT, VK_IMAGE_ASPECT_PLANE_2_BIT};
        plane_aspect = plane_aspects[plane];
        switch (format->dxgi) {
        case DXGI_FORMAT_NV12: case DXGI_FORMAT_NV11: case DXGI_FORMAT_P208: /* luma R8, interleaved chroma R8G8 */
            bytes = plane ? 2 : 1;
            copy_format = plane ? DXGI_FORMAT_R8G8_TYPELESS : DXGI_FORMAT_R8_TYPELESS;
            break;
        case DXGI_FORMAT_P010: case DXGI_FORMAT_P016:
            bytes = plane ? 4 : 2;
            copy_format = plane ? DXGI_FORMAT_R16G16_TYPELESS : DXGI_FORMAT_R16_TYPELESS;
            break;
        case DXGI_FORMAT_V208: case DXGI_FORMAT_V408:
            bytes = 1;
            copy_format = DXGI_FORMAT_R8_TYPELESS;
            break;
        default: /* 420_OPAQUE has no copyable layout */
            return false;
        }
    } else {
        plane_aspect = (format->aspects & VK_IMAGE_ASPECT_DEPTH_BIT) ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
        bytes = format->block_bytes;
        copy_format = format->dxgi;
    }
    if (aspect)
        *aspect = plane_aspect;
    if (bytes_per_block)
        *bytes_per_block = bytes;
    if (plane_format)
        *plane_format = copy_format;
    return true;
}
