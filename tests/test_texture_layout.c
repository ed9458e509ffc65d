/* Texture layouts without textures: the DXGI format table (src/device/dxgi_format.c), the
 * texture description rules and GetCopyableFootprints of textures (src/memory/texture_layout.c).
 * Expected footprints are D3D12's: rows padded to 256 bytes (512 for the planar depth-stencil
 * families), each subresource at a multiple of 512 from the first, BC blocks of 4x4, TotalBytes
 * without the base offset. */
#include <string.h>

#include "harness.h"
#include "device/device.h"
#include "device/dxgi_format.h"
#include "memory/texture_layout.h"

#define ASPECT_DS (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT)

static D3D12_RESOURCE_DESC texture_desc(D3D12_RESOURCE_DIMENSION dimension, UINT64 width, UINT height, UINT16 depth_or_array_size,
        UINT16 mip_levels, DXGI_FORMAT format)
{
    D3D12_RESOURCE_DESC desc;
    memset(&desc, 0, sizeof(desc));
    desc.Dimension = dimension;
    desc.Width = width;
    desc.Height = height;
    desc.DepthOrArraySize = depth_or_array_size;
    desc.MipLevels = mip_levels;
    desc.Format = format;
    desc.SampleDesc.Count = 1;
    desc.Layout = D3D12_TEXTURE_LAYOUT_UNKNOWN;
    return desc;
}

static D3D12_RESOURCE_DESC tex2d(UINT64 width, UINT height, UINT16 mip_levels, DXGI_FORMAT format)
{
    return texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, width, height, 1, mip_levels, format);
}

/* ---- the format table ---- */

/* What d3d12xs_vk_format_from_dxgi answered before the table: typed buffer views keep it. */
static const struct { DXGI_FORMAT dxgi; VkFormat vk; uint32_t size; } buffer_formats[] = {
    {DXGI_FORMAT_R32G32B32A32_FLOAT, VK_FORMAT_R32G32B32A32_SFLOAT, 16}, {DXGI_FORMAT_R32G32B32A32_UINT, VK_FORMAT_R32G32B32A32_UINT, 16},
    {DXGI_FORMAT_R32G32B32A32_SINT, VK_FORMAT_R32G32B32A32_SINT, 16}, {DXGI_FORMAT_R32G32B32_FLOAT, VK_FORMAT_R32G32B32_SFLOAT, 12},
    {DXGI_FORMAT_R32G32B32_UINT, VK_FORMAT_R32G32B32_UINT, 12}, {DXGI_FORMAT_R32G32B32_SINT, VK_FORMAT_R32G32B32_SINT, 12},
    {DXGI_FORMAT_R16G16B16A16_FLOAT, VK_FORMAT_R16G16B16A16_SFLOAT, 8}, {DXGI_FORMAT_R16G16B16A16_UNORM, VK_FORMAT_R16G16B16A16_UNORM, 8},
    {DXGI_FORMAT_R16G16B16A16_UINT, VK_FORMAT_R16G16B16A16_UINT, 8}, {DXGI_FORMAT_R16G16B16A16_SNORM, VK_FORMAT_R16G16B16A16_SNORM, 8},
    {DXGI_FORMAT_R16G16B16A16_SINT, VK_FORMAT_R16G16B16A16_SINT, 8}, {DXGI_FORMAT_R32G32_FLOAT, VK_FORMAT_R32G32_SFLOAT, 8},
    {DXGI_FORMAT_R32G32_UINT, VK_FORMAT_R32G32_UINT, 8}, {DXGI_FORMAT_R32G32_SINT, VK_FORMAT_R32G32_SINT, 8},
    {DXGI_FORMAT_R10G10B10A2_UNORM, VK_FORMAT_A2B10G10R10_UNORM_PACK32, 4}, {DXGI_FORMAT_R10G10B10A2_UINT, VK_FORMAT_A2B10G10R10_UINT_PACK32, 4},
    {DXGI_FORMAT_R11G11B10_FLOAT, VK_FORMAT_B10G11R11_UFLOAT_PACK32, 4}, {DXGI_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM, 4},
    {DXGI_FORMAT_R8G8B8A8_UINT, VK_FORMAT_R8G8B8A8_UINT, 4}, {DXGI_FORMAT_R8G8B8A8_SNORM, VK_FORMAT_R8G8B8A8_SNORM, 4},
    {DXGI_FORMAT_R8G8B8A8_SINT, VK_FORMAT_R8G8B8A8_SINT, 4}, {DXGI_FORMAT_R16G16_FLOAT, VK_FORMAT_R16G16_SFLOAT, 4},
    {DXGI_FORMAT_R16G16_UNORM, VK_FORMAT_R16G16_UNORM, 4}, {DXGI_FORMAT_R16G16_UINT, VK_FORMAT_R16G16_UINT, 4},
    {DXGI_FORMAT_R16G16_SNORM, VK_FORMAT_R16G16_SNORM, 4}, {DXGI_FORMAT_R16G16_SINT, VK_FORMAT_R16G16_SINT, 4},
    {DXGI_FORMAT_R32_FLOAT, VK_FORMAT_R32_SFLOAT, 4}, {DXGI_FORMAT_R32_UINT, VK_FORMAT_R32_UINT, 4},
    {DXGI_FORMAT_R32_SINT, VK_FORMAT_R32_SINT, 4}, {DXGI_FORMAT_R8G8_UNORM, VK_FORMAT_R8G8_UNORM, 2},
    {DXGI_FORMAT_R8G8_UINT, VK_FORMAT_R8G8_UINT, 2}, {DXGI_FORMAT_R8G8_SNORM, VK_FORMAT_R8G8_SNORM, 2},
    {DXGI_FORMAT_R8G8_SINT, VK_FORMAT_R8G8_SINT, 2}, {DXGI_FORMAT_R16_FLOAT, VK_FORMAT_R16_SFLOAT, 2},
    {DXGI_FORMAT_R16_UNORM, VK_FORMAT_R16_UNORM, 2}, {DXGI_FORMAT_R16_UINT, VK_FORMAT_R16_UINT, 2},
    {DXGI_FORMAT_R16_SNORM, VK_FORMAT_R16_SNORM, 2}, {DXGI_FORMAT_R16_SINT, VK_FORMAT_R16_SINT, 2},
    {DXGI_FORMAT_R8_UNORM, VK_FORMAT_R8_UNORM, 1}, {DXGI_FORMAT_R8_UINT, VK_FORMAT_R8_UINT, 1},
    {DXGI_FORMAT_R8_SNORM, VK_FORMAT_R8_SNORM, 1}, {DXGI_FORMAT_R8_SINT, VK_FORMAT_R8_SINT, 1},
    {DXGI_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, 4},
};

static void test_format_entries(void)
{
    static const DXGI_FORMAT extra[] = {DXGI_FORMAT_P208, DXGI_FORMAT_V208, DXGI_FORMAT_V408, DXGI_FORMAT_A4B4G4R4_UNORM};
    static const unsigned unknown[] = {0, 116, 129, 133, 189, 190, 192, 9999, 0xffffffffu};
    unsigned missing = 0, typeless_mismatch = 0;

    for (unsigned v = DXGI_FORMAT_R32G32B32A32_TYPELESS; v <= DXGI_FORMAT_B4G4R4A4_UNORM; v++) {
        const struct d3d12xs_format *entry = d3d12xs_format((DXGI_FORMAT)v);
        if (!entry || entry->dxgi != (DXGI_FORMAT)v) {
            CHECK_MSG(false, "DXGI format %u has no entry of its own", v);
            missing++;
            continue;
        }
        CHECK_MSG(entry->block_width && entry->block_height && entry->block_bytes && entry->plane_count && entry->aspects,
                "DXGI format %u: block %ux%u of %u bytes, %u planes, aspects 0x%x", v, entry->block_width, entry->block_height,
                entry->block_bytes, entry->plane_count, entry->aspects);
        /* A family's head is typeless and names itself. */
        if (entry->typeless != DXGI_FORMAT_UNKNOWN) {
            const struct d3d12xs_format *family = d3d12xs_format(entry->typeless);
            if (!family || !family->typeless_format || family->typeless != entry->typeless)
                typeless_mismatch++;
        }
        if (entry->typeless_format && entry->typeless != entry->dxgi)
            typeless_mismatch++;
    }
    CHECK(missing == 0);
    CHECK(typeless_mismatch == 0);
    for (size_t i = 0; i < sizeof(extra) / sizeof(*extra); i++) {
        const struct d3d12xs_format *entry = d3d12xs_format(extra[i]);
        CHECK_MSG(entry && entry->dxgi == extra[i], "DXGI format %d has no entry", (int)extra[i]);
    }
    for (size_t i = 0; i < sizeof(unknown) / sizeof(*unknown); i++)
        CHECK_MSG(d3d12xs_format((DXGI_FORMAT)unknown[i]) == NULL, "DXGI value %u has an entry", unknown[i]);
}

static void test_buffer_view_set(void)
{
    unsigned buffer_views = 0;

    for (unsigned v = 0; v <= DXGI_FORMAT_A4B4G4R4_UNORM + 1; v++) {
        const struct d3d12xs_format *entry = d3d12xs_format((DXGI_FORMAT)v);
        uint32_t size = 12345;
        VkFormat vk = d3d12xs_vk_format_from_dxgi((DXGI_FORMAT)v, &size);
        size_t k;

        for (k = 0; k < sizeof(buffer_formats) / sizeof(*buffer_formats); k++)
            if (buffer_formats[k].dxgi == (DXGI_FORMAT)v)
                break;
        if (k < sizeof(buffer_formats) / sizeof(*buffer_formats)) {
            CHECK_MSG(entry && entry->buffer_view, "DXGI format %u lost its typed buffer views", v);
            CHECK_MSG(vk == buffer_formats[k].vk && size == buffer_formats[k].size, "DXGI format %u: buffer view %d of %u bytes, "
                    "was %d of %u", v, (int)vk, size, (int)buffer_formats[k].vk, buffer_formats[k].size);
            buffer_views++;
        } else {
            CHECK_MSG(!entry || !entry->buffer_view, "DXGI format %u gained typed buffer views", v);
            CHECK_MSG(vk == VK_FORMAT_UNDEFINED && size == 12345, "DXGI format %u: buffer view format %d", v, (int)vk);
        }
    }
    CHECK(buffer_views == sizeof(buffer_formats) / sizeof(*buffer_formats));
    CHECK(d3d12xs_vk_format_from_dxgi(DXGI_FORMAT_R32_FLOAT, NULL) == VK_FORMAT_R32_SFLOAT);
}

static void test_block_and_srgb(void)
{
    static const DXGI_FORMAT srgb[] = {DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, DXGI_FORMAT_BC1_UNORM_SRGB, DXGI_FORMAT_BC2_UNORM_SRGB,
            DXGI_FORMAT_BC3_UNORM_SRGB, DXGI_FORMAT_B8G8R8A8_UNORM_SRGB, DXGI_FORMAT_B8G8R8X8_UNORM_SRGB, DXGI_FORMAT_BC7_UNORM_SRGB};
    static const VkFormat srgb_vk[] = {VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_BC1_RGBA_SRGB_BLOCK, VK_FORMAT_BC2_SRGB_BLOCK,
            VK_FORMAT_BC3_SRGB_BLOCK, VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_BC7_SRGB_BLOCK};
    unsigned srgb_count = 0, bc_count = 0;

    for (unsigned v = 1; v <= DXGI_FORMAT_A4B4G4R4_UNORM; v++) {
        const struct d3d12xs_format *entry = d3d12xs_format((DXGI_FORMAT)v);
        bool bc = (v >= DXGI_FORMAT_BC1_TYPELESS && v <= DXGI_FORMAT_BC5_SNORM) || (v >= DXGI_FORMAT_BC6H_TYPELESS && v <= DXGI_FORMAT_BC7_UNORM_SRGB);
        bool small_blocks = (v >= DXGI_FORMAT_BC1_TYPELESS && v <= DXGI_FORMAT_BC1_UNORM_SRGB)
                || (v >= DXGI_FORMAT_BC4_TYPELESS && v <= DXGI_FORMAT_BC4_SNORM);
        if (!entry)
            continue;
        CHECK_MSG(entry->block_compressed == bc, "DXGI format %u: block_compressed %d", v, entry->block_compressed);
        if (bc) {
            CHECK_MSG(entry->block_width == 4 && entry->block_height == 4 && entry->block_bytes == (small_blocks ? 8 : 16),
                    "DXGI format %u: BC block %ux%u of %u bytes", v, entry->block_width, entry->block_height, entry->block_bytes);
            bc_count++;
        }
        srgb_count += entry->srgb;
    }
    CHECK(bc_count == 21);
    CHECK(srgb_count == sizeof(srgb) / sizeof(*srgb));
    for (size_t i = 0; i < sizeof(srgb) / sizeof(*srgb); i++) {
        const struct d3d12xs_format *entry = d3d12xs_format(srgb[i]);
        CHECK_MSG(entry && entry->srgb && entry->vk == srgb_vk[i], "DXGI format %d: sRGB %d, Vulkan %d", (int)srgb[i],
                entry ? entry->srgb : -1, entry ? (int)entry->vk : -1);
    }
    /* 2x1 blocks of the packed 4:2:2 formats */
    CHECK(d3d12xs_format(DXGI_FORMAT_R8G8_B8G8_UNORM)->block_width == 2 && d3d12xs_format(DXGI_FORMAT_R8G8_B8G8_UNORM)->block_bytes == 4);
    CHECK(d3d12xs_format(DXGI_FORMAT_G8R8_G8B8_UNORM)->block_width == 2 && d3d12xs_format(DXGI_FORMAT_G8R8_G8B8_UNORM)->block_height == 1);
}

static void test_vulkan_formats(void)
{
    static const struct { DXGI_FORMAT dxgi; VkFormat vk; } cases[] = {
        {DXGI_FORMAT_B5G6R5_UNORM, VK_FORMAT_R5G6B5_UNORM_PACK16},
        {DXGI_FORMAT_B5G5R5A1_UNORM, VK_FORMAT_A1R5G5B5_UNORM_PACK16},
        {DXGI_FORMAT_B4G4R4A4_UNORM, VK_FORMAT_A4R4G4B4_UNORM_PACK16},
        {DXGI_FORMAT_A4B4G4R4_UNORM, VK_FORMAT_R4G4B4A4_UNORM_PACK16},
        {DXGI_FORMAT_R10G10B10A2_UNORM, VK_FORMAT_A2B10G10R10_UNORM_PACK32},
        {DXGI_FORMAT_R11G11B10_FLOAT, VK_FORMAT_B10G11R11_UFLOAT_PACK32},
        {DXGI_FORMAT_R9G9B9E5_SHAREDEXP, VK_FORMAT_E5B9G9R9_UFLOAT_PACK32},
        {DXGI_FORMAT_B8G8R8X8_UNORM, VK_FORMAT_B8G8R8A8_UNORM},
        {DXGI_FORMAT_BC1_UNORM, VK_FORMAT_BC1_RGBA_UNORM_BLOCK},
        {DXGI_FORMAT_BC4_SNORM, VK_FORMAT_BC4_SNORM_BLOCK},
        {DXGI_FORMAT_BC5_UNORM, VK_FORMAT_BC5_UNORM_BLOCK},
        {DXGI_FORMAT_BC6H_UF16, VK_FORMAT_BC6H_UFLOAT_BLOCK},
        {DXGI_FORMAT_BC6H_SF16, VK_FORMAT_BC6H_SFLOAT_BLOCK},
        {DXGI_FORMAT_BC7_UNORM, VK_FORMAT_BC7_UNORM_BLOCK},
        {DXGI_FORMAT_D32_FLOAT, VK_FORMAT_D32_SFLOAT},
        {DXGI_FORMAT_D16_UNORM, VK_FORMAT_D16_UNORM},
        {DXGI_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D24_UNORM_S8_UINT},
        {DXGI_FORMAT_D32_FLOAT_S8X24_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT},
        {DXGI_FORMAT_R24G8_TYPELESS, VK_FORMAT_D24_UNORM_S8_UINT},
        {DXGI_FORMAT_R32G8X24_TYPELESS, VK_FORMAT_D32_SFLOAT_S8_UINT},
        {DXGI_FORMAT_R24_UNORM_X8_TYPELESS, VK_FORMAT_D24_UNORM_S8_UINT},
        {DXGI_FORMAT_X32_TYPELESS_G8X24_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT},
        {DXGI_FORMAT_R8G8B8A8_TYPELESS, VK_FORMAT_R8G8B8A8_UNORM},
        {DXGI_FORMAT_R32_TYPELESS, VK_FORMAT_R32_UINT},
        {DXGI_FORMAT_R16_TYPELESS, VK_FORMAT_R16_UINT},
        {DXGI_FORMAT_BC3_TYPELESS, VK_FORMAT_BC3_UNORM_BLOCK},
        {DXGI_FORMAT_R1_UNORM, VK_FORMAT_UNDEFINED},
        {DXGI_FORMAT_R10G10B10_XR_BIAS_A2_UNORM, VK_FORMAT_UNDEFINED},
        {DXGI_FORMAT_NV12, VK_FORMAT_UNDEFINED},
    };
    const struct d3d12xs_format *a8 = d3d12xs_format(DXGI_FORMAT_A8_UNORM);

    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        const struct d3d12xs_format *entry = d3d12xs_format(cases[i].dxgi);
        CHECK_MSG(entry && entry->vk == cases[i].vk, "DXGI format %d: Vulkan %d, expected %d", (int)cases[i].dxgi,
                entry ? (int)entry->vk : -1, (int)cases[i].vk);
    }
    /* Alpha-only: stored as R8_UNORM, its one channel (alpha) in R, one byte a texel; the views
     * and clears that read or write it account for the swizzle (test_texture_views). */
    CHECK(a8 && a8->vk == VK_FORMAT_R8_UNORM && a8->alpha_in_red && a8->block_bytes == 1 && a8->plane_count == 1);
    CHECK(!d3d12xs_format(DXGI_FORMAT_R8_UNORM)->alpha_in_red);
    /* Aspects: depth-stencil formats and their single-plane view formats. */
    CHECK(d3d12xs_format(DXGI_FORMAT_D24_UNORM_S8_UINT)->aspects == ASPECT_DS);
    CHECK(d3d12xs_format(DXGI_FORMAT_R24_UNORM_X8_TYPELESS)->aspects == VK_IMAGE_ASPECT_DEPTH_BIT);
    CHECK(d3d12xs_format(DXGI_FORMAT_X24_TYPELESS_G8_UINT)->aspects == VK_IMAGE_ASPECT_STENCIL_BIT);
    CHECK(d3d12xs_format(DXGI_FORMAT_R32_FLOAT_X8X24_TYPELESS)->aspects == VK_IMAGE_ASPECT_DEPTH_BIT);
    CHECK(d3d12xs_format(DXGI_FORMAT_D16_UNORM)->aspects == VK_IMAGE_ASPECT_DEPTH_BIT);
    CHECK(d3d12xs_format(DXGI_FORMAT_R16_TYPELESS)->aspects == VK_IMAGE_ASPECT_COLOR_BIT);
    CHECK(d3d12xs_format(DXGI_FORMAT_D32_FLOAT)->typeless == DXGI_FORMAT_R32_TYPELESS);
    CHECK(d3d12xs_format(DXGI_FORMAT_B8G8R8A8_UNORM)->typeless == DXGI_FORMAT_B8G8R8A8_TYPELESS);
    CHECK(d3d12xs_format(DXGI_FORMAT_R11G11B10_FLOAT)->typeless == DXGI_FORMAT_UNKNOWN);
    /* Video formats are marked and planar ones have their planes. */
    CHECK(d3d12xs_format(DXGI_FORMAT_NV12)->planar && d3d12xs_format(DXGI_FORMAT_NV12)->video
            && d3d12xs_format(DXGI_FORMAT_NV12)->plane_count == 2);
    CHECK(d3d12xs_format(DXGI_FORMAT_V408)->planar && d3d12xs_format(DXGI_FORMAT_V408)->plane_count == 3);
    CHECK(!d3d12xs_format(DXGI_FORMAT_YUY2)->planar && d3d12xs_format(DXGI_FORMAT_YUY2)->video);
    CHECK(!d3d12xs_format(DXGI_FORMAT_D24_UNORM_S8_UINT)->planar && !d3d12xs_format(DXGI_FORMAT_R8G8B8A8_UNORM)->video);
}

static void test_format_planes(void)
{
    static const struct {
        DXGI_FORMAT format;
        unsigned plane;
        bool exists;
        VkImageAspectFlagBits aspect;
        uint32_t bytes;
        DXGI_FORMAT plane_format;
    } cases[] = {
        {DXGI_FORMAT_D24_UNORM_S8_UINT, 0, true, VK_IMAGE_ASPECT_DEPTH_BIT, 4, DXGI_FORMAT_R32_TYPELESS},
        {DXGI_FORMAT_D24_UNORM_S8_UINT, 1, true, VK_IMAGE_ASPECT_STENCIL_BIT, 1, DXGI_FORMAT_R8_TYPELESS},
        {DXGI_FORMAT_D24_UNORM_S8_UINT, 2, false, 0, 0, 0},
        {DXGI_FORMAT_R24G8_TYPELESS, 1, true, VK_IMAGE_ASPECT_STENCIL_BIT, 1, DXGI_FORMAT_R8_TYPELESS},
        {DXGI_FORMAT_D32_FLOAT_S8X24_UINT, 0, true, VK_IMAGE_ASPECT_DEPTH_BIT, 4, DXGI_FORMAT_R32_TYPELESS},
        {DXGI_FORMAT_D32_FLOAT_S8X24_UINT, 1, true, VK_IMAGE_ASPECT_STENCIL_BIT, 1, DXGI_FORMAT_R8_TYPELESS},
        {DXGI_FORMAT_D32_FLOAT, 0, true, VK_IMAGE_ASPECT_DEPTH_BIT, 4, DXGI_FORMAT_D32_FLOAT},
        {DXGI_FORMAT_D32_FLOAT, 1, false, 0, 0, 0},
        {DXGI_FORMAT_D16_UNORM, 0, true, VK_IMAGE_ASPECT_DEPTH_BIT, 2, DXGI_FORMAT_D16_UNORM},
        {DXGI_FORMAT_R8G8B8A8_UNORM, 0, true, VK_IMAGE_ASPECT_COLOR_BIT, 4, DXGI_FORMAT_R8G8B8A8_UNORM},
        {DXGI_FORMAT_R8G8B8A8_UNORM, 1, false, 0, 0, 0},
        {DXGI_FORMAT_BC7_UNORM, 0, true, VK_IMAGE_ASPECT_COLOR_BIT, 16, DXGI_FORMAT_BC7_UNORM},
        {DXGI_FORMAT_NV12, 1, true, VK_IMAGE_ASPECT_PLANE_1_BIT, 2, DXGI_FORMAT_R8G8_TYPELESS},
        {DXGI_FORMAT_P010, 0, true, VK_IMAGE_ASPECT_PLANE_0_BIT, 2, DXGI_FORMAT_R16_TYPELESS},
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        VkImageAspectFlagBits aspect = 0;
        uint32_t bytes = 0;
        DXGI_FORMAT plane_format = DXGI_FORMAT_UNKNOWN;
        bool exists = d3d12xs_format_plane(d3d12xs_format(cases[i].format), cases[i].plane, &aspect, &bytes, &plane_format);
        CHECK_MSG(exists == cases[i].exists, "format %d plane %u: exists %d", (int)cases[i].format, cases[i].plane, exists);
        if (cases[i].exists)
            CHECK_MSG(aspect == cases[i].aspect && bytes == cases[i].bytes && plane_format == cases[i].plane_format,
                    "format %d plane %u: aspect 0x%x, %u bytes, format %d", (int)cases[i].format, cases[i].plane, aspect, bytes,
                    (int)plane_format);
    }
    CHECK(!d3d12xs_format_plane(NULL, 0, NULL, NULL, NULL));
}

/* ---- mip, array and subresource numbering ---- */

static void test_subresource_numbering(void)
{
    D3D12_RESOURCE_DESC desc = texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 16, 16, 3, 2, DXGI_FORMAT_D24_UNORM_S8_UINT);
    uint32_t mip, layer, plane, width, height, depth;

    CHECK(d3d12xs_texture_mip_levels(&desc) == 2);
    CHECK(d3d12xs_texture_array_size(&desc) == 3);
    CHECK(d3d12xs_texture_subresource_count(&desc) == 12); /* 2 mips x 3 layers x 2 planes */
    d3d12xs_texture_subresource(&desc, 0, &mip, &layer, &plane);
    CHECK(mip == 0 && layer == 0 && plane == 0);
    d3d12xs_texture_subresource(&desc, 3, &mip, &layer, &plane);
    CHECK(mip == 1 && layer == 1 && plane == 0);
    d3d12xs_texture_subresource(&desc, 11, &mip, &layer, &plane);
    CHECK(mip == 1 && layer == 2 && plane == 1);
    d3d12xs_texture_subresource(&desc, 6, &mip, &layer, &plane);
    CHECK(mip == 0 && layer == 0 && plane == 1);

    desc = texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE3D, 64, 16, 8, 0, DXGI_FORMAT_R32_FLOAT);
    CHECK(d3d12xs_texture_mip_levels(&desc) == 7); /* log2(64) + 1 */
    CHECK(d3d12xs_texture_array_size(&desc) == 1);
    CHECK(d3d12xs_texture_subresource_count(&desc) == 7);
    d3d12xs_texture_mip_extent(&desc, 2, &width, &height, &depth);
    CHECK(width == 16 && height == 4 && depth == 2);
    d3d12xs_texture_mip_extent(&desc, 5, &width, &height, &depth);
    CHECK(width == 2 && height == 1 && depth == 1);

    desc = texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE1D, 1000, 1, 4, 0, DXGI_FORMAT_R8_UNORM);
    CHECK(d3d12xs_texture_mip_levels(&desc) == 10); /* 1000 -> 500 -> ... -> 1 */
    CHECK(d3d12xs_texture_array_size(&desc) == 4);
    d3d12xs_texture_mip_extent(&desc, 3, &width, &height, &depth);
    CHECK(width == 125 && height == 1 && depth == 1);
    desc = texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 3, 300, 1, 0, DXGI_FORMAT_R8_UNORM);
    CHECK(d3d12xs_texture_mip_levels(&desc) == 9); /* the tallest side counts */
}

/* ---- GetCopyableFootprints ---- */

struct footprints {
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT layouts[16];
    UINT rows[16];
    UINT64 row_sizes[16];
    UINT64 total;
};

static void footprints(ID3D12Device *device, const D3D12_RESOURCE_DESC *desc, UINT first, UINT count, UINT64 base, struct footprints *out)
{
    memset(out, 0xcd, sizeof(*out));
    ID3D12Device_GetCopyableFootprints(device, desc, first, count, base, out->layouts, out->rows, out->row_sizes, &out->total);
}

static void check_layout(const struct footprints *f, unsigned i, UINT64 offset, DXGI_FORMAT format, UINT width, UINT height, UINT depth,
        UINT row_pitch, UINT rows, UINT64 row_size, int line)
{
    const D3D12_PLACED_SUBRESOURCE_FOOTPRINT *l = &f->layouts[i];
    harness_check(l->Offset == offset && l->Footprint.Format == format && l->Footprint.Width == width && l->Footprint.Height == height
            && l->Footprint.Depth == depth && l->Footprint.RowPitch == row_pitch && f->rows[i] == rows && f->row_sizes[i] == row_size,
            __FILE__, line, "subresource %u: offset %llu format %d %ux%ux%u pitch %u rows %u row size %llu; expected offset %llu format %d "
            "%ux%ux%u pitch %u rows %u row size %llu", i, (unsigned long long)l->Offset, (int)l->Footprint.Format, l->Footprint.Width,
            l->Footprint.Height, l->Footprint.Depth, l->Footprint.RowPitch, f->rows[i], (unsigned long long)f->row_sizes[i],
            (unsigned long long)offset, (int)format, width, height, depth, row_pitch, rows, (unsigned long long)row_size);
}
#define CHECK_LAYOUT(f, i, offset, format, w, h, d, pitch, rows, row_size) check_layout(f, i, offset, format, w, h, d, pitch, rows, row_size, __LINE__)

static void test_footprints_2d(ID3D12Device *device)
{
    static const UINT64 chain_offsets[] = {0, 262144, 327680, 344064, 352256, 356352, 358400, 359424, 359936};
    D3D12_RESOURCE_DESC desc = tex2d(100, 100, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    struct footprints f;
    UINT64 total = 0;
    LOG_MARK();

    /* 400 bytes a row, padded to 512; the last row unpadded. */
    footprints(device, &desc, 0, 1, 0, &f);
    CHECK_LAYOUT(&f, 0, 0, DXGI_FORMAT_R8G8B8A8_UNORM, 100, 100, 1, 512, 100, 400);
    CHECK(f.total == 512 * 99 + 400);
    ID3D12Device_GetCopyableFootprints(device, &desc, 0, 1, 0, NULL, NULL, NULL, &total);
    CHECK(total == 51088);

    /* A base offset is added as given; TotalBytes does not count it. */
    footprints(device, &desc, 0, 1, 1000, &f);
    CHECK(f.layouts[0].Offset == 1000 && f.total == 51088);

    /* The full chain of 256x256: each level at a multiple of 512 after the one before. */
    desc = tex2d(256, 256, 0, DXGI_FORMAT_R8G8B8A8_UNORM);
    footprints(device, &desc, 0, 9, 0, &f);
    for (unsigned i = 0; i < 9; i++) {
        UINT size = 256 >> i, row_size = size * 4;
        CHECK_LAYOUT(&f, i, chain_offsets[i], DXGI_FORMAT_R8G8B8A8_UNORM, size, size, 1, row_size > 256 ? row_size : 256, size, row_size);
        CHECK(f.layouts[i].Offset % D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT == 0);
    }
    CHECK(f.total == 359936 + 4);
    footprints(device, &desc, 0, 9, 256, &f);
    CHECK(f.layouts[0].Offset == 256 && f.layouts[4].Offset == 256 + 352256 && f.total == 359940);

    /* Starting in the middle: offsets count from the first one asked for. */
    footprints(device, &desc, 3, 2, 0, &f);
    CHECK_LAYOUT(&f, 0, 0, DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 256, 32, 128);
    CHECK_LAYOUT(&f, 1, 8192, DXGI_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, 256, 16, 64);
    CHECK(f.total == 8192 + 256 * 15 + 64);

    /* An array: subresource = mip + layer * mips. */
    desc = texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 16, 16, 3, 2, DXGI_FORMAT_R32G32B32A32_FLOAT);
    footprints(device, &desc, 2, 2, 0, &f);
    CHECK_LAYOUT(&f, 0, 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 16, 16, 1, 256, 16, 256);
    CHECK_LAYOUT(&f, 1, 4096, DXGI_FORMAT_R32G32B32A32_FLOAT, 8, 8, 1, 256, 8, 128);
    CHECK(f.total == 4096 + 256 * 7 + 128);

    /* The 64KB layouts are laid out in buffers like any other. */
    desc = tex2d(100, 100, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    desc.Layout = D3D12_TEXTURE_LAYOUT_64KB_UNDEFINED_SWIZZLE;
    footprints(device, &desc, 0, 1, 0, &f);
    CHECK(f.total == 51088);
    desc.Layout = D3D12_TEXTURE_LAYOUT_64KB_STANDARD_SWIZZLE;
    desc.Alignment = D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT;
    footprints(device, &desc, 0, 1, 0, &f);
    CHECK(f.total == 51088);
    desc = tex2d(16, 16, 1, DXGI_FORMAT_R8_UNORM);
    desc.Alignment = D3D12_SMALL_RESOURCE_PLACEMENT_ALIGNMENT;
    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
    footprints(device, &desc, 0, 1, 0, &f);
    CHECK(f.total == 256 * 15 + 16);

    /* No subresources: nothing to copy. */
    footprints(device, &desc, 0, 0, 0, &f);
    CHECK(f.total == 0);
    CHECK_NO_LOG();
}

static void test_footprints_compressed(ID3D12Device *device)
{
    D3D12_RESOURCE_DESC desc = tex2d(256, 256, 1, DXGI_FORMAT_BC1_UNORM);
    struct footprints f;
    LOG_MARK();

    /* 64 blocks of 8 bytes a row, 64 block rows. */
    footprints(device, &desc, 0, 1, 0, &f);
    CHECK_LAYOUT(&f, 0, 0, DXGI_FORMAT_BC1_UNORM, 256, 256, 1, 512, 64, 512);
    CHECK(f.total == 512 * 64);

    /* BC3 8x8, full chain: the 2x2 and 1x1 levels are one whole block. */
    desc = tex2d(8, 8, 0, DXGI_FORMAT_BC3_UNORM);
    footprints(device, &desc, 0, 4, 0, &f);
    CHECK_LAYOUT(&f, 0, 0, DXGI_FORMAT_BC3_UNORM, 8, 8, 1, 256, 2, 32);
    CHECK_LAYOUT(&f, 1, 512, DXGI_FORMAT_BC3_UNORM, 4, 4, 1, 256, 1, 16);
    CHECK_LAYOUT(&f, 2, 1024, DXGI_FORMAT_BC3_UNORM, 4, 4, 1, 256, 1, 16);
    CHECK_LAYOUT(&f, 3, 1536, DXGI_FORMAT_BC3_UNORM, 4, 4, 1, 256, 1, 16);
    CHECK(f.total == 1552);

    /* BC7 12x20 mip 1 (6x10): 2x3 blocks, padded to 8x12 texels. */
    desc = tex2d(12, 20, 2, DXGI_FORMAT_BC7_UNORM_SRGB);
    footprints(device, &desc, 1, 1, 0, &f);
    CHECK_LAYOUT(&f, 0, 0, DXGI_FORMAT_BC7_UNORM_SRGB, 8, 12, 1, 256, 3, 32);

    /* 2x1 blocks of 4 bytes: 6x2 -> 3x1 (padded to 4) -> 1x1 (padded to 2). */
    desc = tex2d(6, 2, 0, DXGI_FORMAT_R8G8_B8G8_UNORM);
    footprints(device, &desc, 0, 3, 0, &f);
    CHECK_LAYOUT(&f, 0, 0, DXGI_FORMAT_R8G8_B8G8_UNORM, 6, 2, 1, 256, 2, 12);
    CHECK_LAYOUT(&f, 1, 512, DXGI_FORMAT_R8G8_B8G8_UNORM, 4, 1, 1, 256, 1, 8);
    CHECK_LAYOUT(&f, 2, 1024, DXGI_FORMAT_R8G8_B8G8_UNORM, 2, 1, 1, 256, 1, 4);
    CHECK(f.total == 1028);
    CHECK_NO_LOG();
}

static void test_footprints_1d_3d(ID3D12Device *device)
{
    static const UINT64 offsets[] = {0, 131072, 163840, 172032, 174080, 175104, 175616};
    D3D12_RESOURCE_DESC desc = texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE3D, 64, 64, 8, 0, DXGI_FORMAT_R32_FLOAT);
    struct footprints f;
    LOG_MARK();

    /* Depth slices follow each other at the row pitch; the depth halves down to 1. */
    footprints(device, &desc, 0, 7, 0, &f);
    for (unsigned i = 0; i < 7; i++) {
        UINT size = 64 >> i, depth = (8 >> i) ? 8 >> i : 1;
        CHECK_LAYOUT(&f, i, offsets[i], DXGI_FORMAT_R32_FLOAT, size, size, depth, 256, size, size * 4);
    }
    CHECK(f.total == 175616 + 4);
    footprints(device, &desc, 0, 1, 0, &f);
    CHECK(f.total == 256 * (64 * 8 - 1) + 256);

    /* A 1D array of 4 layers, 2 mips: subresources go mip by mip within each layer. */
    desc = texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE1D, 64, 1, 4, 2, DXGI_FORMAT_R16G16B16A16_FLOAT);
    footprints(device, &desc, 0, 8, 0, &f);
    for (unsigned i = 0; i < 8; i++) {
        UINT width = i % 2 ? 32 : 64;
        CHECK_LAYOUT(&f, i, 512 * i, DXGI_FORMAT_R16G16B16A16_FLOAT, width, 1, 1, width * 8 > 256 ? width * 8 : 256, 1, width * 8);
    }
    CHECK(f.total == 3584 + 256);
    CHECK_NO_LOG();
}

static void test_footprints_depth_stencil(ID3D12Device *device)
{
    D3D12_RESOURCE_DESC desc = tex2d(64, 64, 1, DXGI_FORMAT_D32_FLOAT_S8X24_UINT);
    struct footprints f;
    LOG_MARK();

    /* Planar: depth as R32_TYPELESS, stencil as R8_TYPELESS, rows padded to 512. */
    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL | D3D12_RESOURCE_FLAG_DENY_SHADER_RESOURCE;
    footprints(device, &desc, 0, 2, 0, &f);
    CHECK_LAYOUT(&f, 0, 0, DXGI_FORMAT_R32_TYPELESS, 64, 64, 1, 512, 64, 256);
    CHECK_LAYOUT(&f, 1, 32768, DXGI_FORMAT_R8_TYPELESS, 64, 64, 1, 512, 64, 64);
    CHECK(f.total == 32768 + 512 * 63 + 64);

    desc = tex2d(100, 50, 1, DXGI_FORMAT_D24_UNORM_S8_UINT);
    footprints(device, &desc, 0, 2, 0, &f);
    CHECK_LAYOUT(&f, 0, 0, DXGI_FORMAT_R32_TYPELESS, 100, 50, 1, 512, 50, 400);
    CHECK_LAYOUT(&f, 1, 25600, DXGI_FORMAT_R8_TYPELESS, 100, 50, 1, 512, 50, 100);
    CHECK(f.total == 50788);
    /* The stencil plane alone. */
    footprints(device, &desc, 1, 1, 0, &f);
    CHECK_LAYOUT(&f, 0, 0, DXGI_FORMAT_R8_TYPELESS, 100, 50, 1, 512, 50, 100);
    CHECK(f.total == 512 * 49 + 100);

    /* Array of 2 with 2 mips: stencil planes start at subresource 4. */
    desc = texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 8, 8, 2, 2, DXGI_FORMAT_R24G8_TYPELESS);
    footprints(device, &desc, 4, 1, 0, &f);
    CHECK_LAYOUT(&f, 0, 0, DXGI_FORMAT_R8_TYPELESS, 8, 8, 1, 512, 8, 8);
    footprints(device, &desc, 3, 1, 0, &f);
    CHECK_LAYOUT(&f, 0, 0, DXGI_FORMAT_R32_TYPELESS, 4, 4, 1, 512, 4, 16);

    /* Single-plane depth: the format itself, rows padded to 256. */
    desc = tex2d(100, 10, 1, DXGI_FORMAT_D32_FLOAT);
    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL;
    footprints(device, &desc, 0, 1, 0, &f);
    CHECK_LAYOUT(&f, 0, 0, DXGI_FORMAT_D32_FLOAT, 100, 10, 1, 512, 10, 400);
    desc = tex2d(100, 10, 1, DXGI_FORMAT_D16_UNORM);
    footprints(device, &desc, 0, 1, 0, &f);
    CHECK_LAYOUT(&f, 0, 0, DXGI_FORMAT_D16_UNORM, 100, 10, 1, 256, 10, 200);
    desc = tex2d(64, 64, 1, DXGI_FORMAT_R32_TYPELESS);
    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL;
    footprints(device, &desc, 0, 1, 0, &f);
    CHECK(f.total == 256 * 64);
    CHECK_NO_LOG();
}

/* Out-of-range subresources: one error line, TotalBytes UINT64_MAX. */
static void test_footprints_range(ID3D12Device *device)
{
    D3D12_RESOURCE_DESC desc = tex2d(64, 64, 0, DXGI_FORMAT_R8G8B8A8_UNORM); /* 7 subresources */
    struct footprints f;
    LOG_MARK();

    footprints(device, &desc, 7, 1, 0, &f);
    CHECK(f.total == UINT64_MAX);
    CHECK_LOG("GetCopyableFootprints", "FirstSubresource 7");
    RELOG_MARK();
    footprints(device, &desc, 5, 3, 0, &f);
    CHECK(f.total == UINT64_MAX);
    CHECK_LOG("NumSubresources 3", "7 subresources");
    RELOG_MARK();
    footprints(device, &desc, 0, 0xffffffffu, 0, &f);
    CHECK(f.total == UINT64_MAX);
    CHECK_LOG("NumSubresources 4294967295");
    RELOG_MARK();
    desc = tex2d(64, 64, 1, DXGI_FORMAT_D24_UNORM_S8_UINT); /* 2 subresources: the planes */
    footprints(device, &desc, 0, 3, 0, &f);
    CHECK(f.total == UINT64_MAX);
    CHECK_LOG("2 subresources");
    RELOG_MARK();
    footprints(device, &desc, 0, 2, 0, &f);
    CHECK(f.total != UINT64_MAX);
    CHECK_NO_LOG();
}

/* Every rule of the texture description, through GetCopyableFootprints: TotalBytes UINT64_MAX
 * and one line naming the field. */
static void test_bad_descs(ID3D12Device *device)
{
    static const struct {
        D3D12_RESOURCE_DIMENSION dimension;
        UINT64 width;
        UINT height;
        UINT16 depth_or_array_size, mip_levels;
        DXGI_FORMAT format;
        UINT sample_count, quality;
        UINT64 alignment;
        D3D12_TEXTURE_LAYOUT layout;
        D3D12_RESOURCE_FLAGS flags;
        const char *needle, *rule;
    } cases[] = {
#define T2D D3D12_RESOURCE_DIMENSION_TEXTURE2D
#define RGBA8 DXGI_FORMAT_R8G8B8A8_UNORM
#define UNKNOWN_LAYOUT D3D12_TEXTURE_LAYOUT_UNKNOWN
        {T2D, 0, 16, 1, 1, RGBA8, 1, 0, 0, UNKNOWN_LAYOUT, 0, "Width is 0", "1 to 16384"},
        {T2D, 16385, 16, 1, 1, RGBA8, 1, 0, 0, UNKNOWN_LAYOUT, 0, "Width is 16385", "1 to 16384"},
        {D3D12_RESOURCE_DIMENSION_TEXTURE3D, 4096, 16, 1, 1, RGBA8, 1, 0, 0, UNKNOWN_LAYOUT, 0, "Width is 4096", "1 to 2048"},
        {T2D, 16, 0, 1, 1, RGBA8, 1, 0, 0, UNKNOWN_LAYOUT, 0, "Height is 0", "TEXTURE2D"},
        {D3D12_RESOURCE_DIMENSION_TEXTURE1D, 16, 2, 1, 1, RGBA8, 1, 0, 0, UNKNOWN_LAYOUT, 0, "Height is 2", "Height 1"},
        {T2D, 16, 16, 0, 1, RGBA8, 1, 0, 0, UNKNOWN_LAYOUT, 0, "DepthOrArraySize is 0", "array layers"},
        {T2D, 16, 16, 2049, 1, RGBA8, 1, 0, 0, UNKNOWN_LAYOUT, 0, "DepthOrArraySize is 2049", "1 to 2048"},
        {T2D, 64, 64, 1, 8, RGBA8, 1, 0, 0, UNKNOWN_LAYOUT, 0, "MipLevels is 8", "at most 7"},
        {D3D12_RESOURCE_DIMENSION_TEXTURE3D, 16, 16, 64, 8, RGBA8, 1, 0, 0, UNKNOWN_LAYOUT, 0, "MipLevels is 8", "at most 7"},
        {T2D, 16, 16, 1, 1, DXGI_FORMAT_UNKNOWN, 1, 0, 0, UNKNOWN_LAYOUT, 0, "Format is DXGI_FORMAT_UNKNOWN", "must have a format"},
        {T2D, 16, 16, 1, 1, (DXGI_FORMAT)9999, 1, 0, 0, UNKNOWN_LAYOUT, 0, "Format is 9999", "not a DXGI format"},
        {T2D, 16, 16, 1, 1, DXGI_FORMAT_NV12, 1, 0, 0, UNKNOWN_LAYOUT, 0, "Format 103", "planar formats are not implemented"},
        {T2D, 16, 16, 1, 1, DXGI_FORMAT_YUY2, 1, 0, 0, UNKNOWN_LAYOUT, 0, "Format 107", "not implemented"},
        {T2D, 16, 16, 1, 1, DXGI_FORMAT_R1_UNORM, 1, 0, 0, UNKNOWN_LAYOUT, 0, "Format 66", "no Vulkan format"},
        {T2D, 18, 16, 1, 1, DXGI_FORMAT_BC1_UNORM, 1, 0, 0, UNKNOWN_LAYOUT, 0, "18x16", "multiple of its 4x4 blocks"},
        {T2D, 16, 6, 1, 1, DXGI_FORMAT_BC7_UNORM, 1, 0, 0, UNKNOWN_LAYOUT, 0, "16x6", "multiple of its 4x4 blocks"},
        {T2D, 5, 1, 1, 1, DXGI_FORMAT_G8R8_G8B8_UNORM, 1, 0, 0, UNKNOWN_LAYOUT, 0, "5x1", "2x1 blocks"},
        {D3D12_RESOURCE_DIMENSION_TEXTURE1D, 16, 1, 1, 1, DXGI_FORMAT_BC4_UNORM, 1, 0, 0, UNKNOWN_LAYOUT, 0, "block-compressed", "not TEXTURE1D"},
        {D3D12_RESOURCE_DIMENSION_TEXTURE3D, 16, 16, 4, 1, DXGI_FORMAT_D32_FLOAT, 1, 0, 0, UNKNOWN_LAYOUT, 0, "Format 40", "not TEXTURE3D"},
        {T2D, 16, 16, 1, 1, RGBA8, 0, 0, 0, UNKNOWN_LAYOUT, 0, "SampleDesc.Count is 0", "at least 1"},
        {T2D, 16, 16, 1, 1, RGBA8, 1, 1, 0, UNKNOWN_LAYOUT, 0, "SampleDesc.Quality is 1", "one sample"},
        {T2D, 16, 16, 1, 1, RGBA8, 3, 0, 0, UNKNOWN_LAYOUT, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET, "SampleDesc.Count is 3", "1, 2, 4"},
        {D3D12_RESOURCE_DIMENSION_TEXTURE3D, 16, 16, 4, 1, RGBA8, 4, 0, 0, UNKNOWN_LAYOUT, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET,
                "SampleDesc.Count is 4 for a TEXTURE3D", "only TEXTURE2D"},
        {T2D, 16, 16, 1, 2, RGBA8, 4, 0, 0, UNKNOWN_LAYOUT, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET, "MipLevels is 2", "1 mip level"},
        {T2D, 16, 16, 1, 0, RGBA8, 4, 0, 0, UNKNOWN_LAYOUT, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET, "MipLevels is 0", "1 mip level"},
        {T2D, 16, 16, 1, 1, RGBA8, 4, 0, 0, UNKNOWN_LAYOUT, 0, "SampleDesc.Count is 4 without ALLOW_RENDER_TARGET", "multisampled"},
        {T2D, 16, 16, 1, 1, RGBA8, 4, 0, 0, UNKNOWN_LAYOUT, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET | D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS,
                "Flags 0x5", "ALLOW_UNORDERED_ACCESS"},
        {T2D, 16, 16, 1, 1, RGBA8, 4, 7, 0, UNKNOWN_LAYOUT, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET, "Quality is 7", "STANDARD_MULTISAMPLE"},
        {T2D, 16, 16, 1, 1, RGBA8, 1, 0, 12345, UNKNOWN_LAYOUT, 0, "Alignment is 12345", "0, 4096, 65536 or 4194304"},
        {T2D, 16, 16, 1, 1, RGBA8, 1, 0, D3D12_DEFAULT_MSAA_RESOURCE_PLACEMENT_ALIGNMENT, UNKNOWN_LAYOUT, 0, "Alignment is 4194304",
                "multisampled"},
        {T2D, 16, 16, 1, 1, RGBA8, 1, 0, D3D12_SMALL_RESOURCE_PLACEMENT_ALIGNMENT, UNKNOWN_LAYOUT, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET,
                "Alignment is 4096", "without ALLOW_RENDER_TARGET"},
        {T2D, 16, 16, 1, 1, RGBA8, 1, 0, 0, D3D12_TEXTURE_LAYOUT_ROW_MAJOR, 0, "Layout is ROW_MAJOR", "D3D12_HEAP_FLAG_SHARED_CROSS_ADAPTER"},
        {T2D, 16, 16, 1, 1, RGBA8, 1, 0, 0, (D3D12_TEXTURE_LAYOUT)9, 0, "Layout is 9", "not a D3D12_TEXTURE_LAYOUT"},
        {T2D, 16, 16, 1, 1, RGBA8, 1, 0, 0, UNKNOWN_LAYOUT, D3D12_RESOURCE_FLAG_RAYTRACING_ACCELERATION_STRUCTURE, "Flags 0x100", "include 0x100"},
        {T2D, 16, 16, 1, 1, RGBA8, 1, 0, 0, UNKNOWN_LAYOUT, D3D12_RESOURCE_FLAG_ALLOW_CROSS_ADAPTER, "ALLOW_CROSS_ADAPTER",
                "D3D12_HEAP_FLAG_SHARED_CROSS_ADAPTER"},
        {T2D, 16, 16, 1, 1, DXGI_FORMAT_D32_FLOAT, 1, 0, 0, UNKNOWN_LAYOUT,
                D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET | D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL, "Flags 0x3", "exclusive"},
        {T2D, 16, 16, 1, 1, RGBA8, 1, 0, 0, UNKNOWN_LAYOUT, D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL, "ALLOW_DEPTH_STENCIL with Format 28",
                "needs a depth format"},
        {D3D12_RESOURCE_DIMENSION_TEXTURE3D, 16, 16, 4, 1, DXGI_FORMAT_R32_TYPELESS, 1, 0, 0, UNKNOWN_LAYOUT,
                D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL, "ALLOW_DEPTH_STENCIL for a TEXTURE3D", "1D or 2D"},
        {T2D, 16, 16, 1, 1, DXGI_FORMAT_D24_UNORM_S8_UINT, 1, 0, 0, UNKNOWN_LAYOUT,
                D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL | D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS, "Flags 0x6",
                "ALLOW_UNORDERED_ACCESS with ALLOW_DEPTH_STENCIL"},
        {T2D, 16, 16, 1, 1, DXGI_FORMAT_D32_FLOAT, 1, 0, 0, UNKNOWN_LAYOUT,
                D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL | D3D12_RESOURCE_FLAG_ALLOW_SIMULTANEOUS_ACCESS, "Flags 0x22",
                "ALLOW_SIMULTANEOUS_ACCESS with ALLOW_DEPTH_STENCIL"},
        {T2D, 16, 16, 1, 1, RGBA8, 1, 0, 0, UNKNOWN_LAYOUT, D3D12_RESOURCE_FLAG_DENY_SHADER_RESOURCE, "Flags 0x8",
                "DENY_SHADER_RESOURCE without ALLOW_DEPTH_STENCIL"},
        {T2D, 16, 16, 1, 1, DXGI_FORMAT_D16_UNORM, 1, 0, 0, UNKNOWN_LAYOUT, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET,
                "ALLOW_RENDER_TARGET with depth-stencil Format 55", "ALLOW_DEPTH_STENCIL"},
        {T2D, 16, 16, 1, 1, DXGI_FORMAT_BC2_UNORM, 1, 0, 0, UNKNOWN_LAYOUT, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS, "Flags 0x4",
                "block-compressed"},
        {(D3D12_RESOURCE_DIMENSION)9, 16, 16, 1, 1, RGBA8, 1, 0, 0, UNKNOWN_LAYOUT, 0, "Dimension is 9", "not a D3D12_RESOURCE_DIMENSION"},
#undef T2D
#undef RGBA8
#undef UNKNOWN_LAYOUT
    };
    struct footprints f;
    LOG_MARK();

    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        D3D12_RESOURCE_DESC desc = texture_desc(cases[i].dimension, cases[i].width, cases[i].height, cases[i].depth_or_array_size,
                cases[i].mip_levels, cases[i].format);
        desc.SampleDesc.Count = cases[i].sample_count;
        desc.SampleDesc.Quality = cases[i].quality;
        desc.Alignment = cases[i].alignment;
        desc.Layout = cases[i].layout;
        desc.Flags = cases[i].flags;
        RELOG_MARK();
        footprints(device, &desc, 0, 1, 0, &f);
        CHECK_MSG(f.total == UINT64_MAX, "case %zu (%s): TotalBytes %llu", i, cases[i].needle, (unsigned long long)f.total);
        /* The entry asked for is all ones, as Windows writes it; the next is untouched. */
        CHECK_MSG(f.rows[0] == ~0u && f.row_sizes[0] == UINT64_MAX && f.layouts[0].Offset == UINT64_MAX,
                "case %zu (%s): NumRows %u", i, cases[i].needle, f.rows[0]);
        CHECK_MSG(f.rows[1] == 0xcdcdcdcdu, "case %zu (%s): NumRows[1] written", i, cases[i].needle);
        CHECK_LOG("GetCopyableFootprints", cases[i].needle, cases[i].rule);
    }
    /* ... and through ID3D12Device8::GetCopyableFootprints1. */
    {
        ID3D12Device8 *device8 = NULL;
        D3D12_RESOURCE_DESC1 desc1;
        UINT64 total = 0;
        if (SUCCEEDED(ID3D12Device_QueryInterface(device, &IID_ID3D12Device8, (void **)&device8))) {
            memset(&desc1, 0, sizeof(desc1));
            desc1.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
            desc1.Width = 100, desc1.Height = 100, desc1.DepthOrArraySize = 1, desc1.MipLevels = 1;
            desc1.Format = DXGI_FORMAT_R8G8B8A8_UNORM, desc1.SampleDesc.Count = 1;
            RELOG_MARK();
            ID3D12Device8_GetCopyableFootprints1(device8, &desc1, 0, 1, 0, NULL, NULL, NULL, &total);
            CHECK(total == 51088);
            CHECK_NO_LOG();
            desc1.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
            ID3D12Device8_GetCopyableFootprints1(device8, &desc1, 0, 1, 0, NULL, NULL, NULL, &total);
            CHECK(total == UINT64_MAX);
            CHECK_LOG("GetCopyableFootprints1", "ROW_MAJOR");
            ID3D12Device8_Release(device8);
        } else {
            CHECK_MSG(false, "no ID3D12Device8");
        }
    }
}

/* Descriptions the rules accept, checked directly (no footprints asked). */
static void test_good_descs(void)
{
    D3D12_RESOURCE_DESC desc = tex2d(16384, 16384, 0, DXGI_FORMAT_R8G8B8A8_UNORM_SRGB);
    LOG_MARK();

    CHECK_HR(d3d12xs_validate_texture_desc("test", &desc), S_OK);
    desc = tex2d(64, 64, 1, DXGI_FORMAT_R16G16B16A16_FLOAT);
    desc.SampleDesc.Count = 4;
    desc.SampleDesc.Quality = (UINT)D3D12_STANDARD_MULTISAMPLE_PATTERN;
    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    desc.Alignment = D3D12_DEFAULT_MSAA_RESOURCE_PLACEMENT_ALIGNMENT;
    CHECK_HR(d3d12xs_validate_texture_desc("test", &desc), S_OK);
    desc = tex2d(64, 64, 1, DXGI_FORMAT_D24_UNORM_S8_UINT);
    desc.SampleDesc.Count = 8;
    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL | D3D12_RESOURCE_FLAG_DENY_SHADER_RESOURCE;
    CHECK_HR(d3d12xs_validate_texture_desc("test", &desc), S_OK);
    desc = texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE3D, 2048, 2048, 2048, 0, DXGI_FORMAT_BC6H_UF16);
    CHECK_HR(d3d12xs_validate_texture_desc("test", &desc), S_OK);
    desc = texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE1D, 16384, 1, 2048, 15, DXGI_FORMAT_R32_UINT);
    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS | D3D12_RESOURCE_FLAG_ALLOW_SIMULTANEOUS_ACCESS;
    CHECK_HR(d3d12xs_validate_texture_desc("test", &desc), S_OK);
    desc = tex2d(8, 8, 1, DXGI_FORMAT_R16_TYPELESS);
    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL;
    CHECK_HR(d3d12xs_validate_texture_desc("test", &desc), S_OK);
    CHECK_NO_LOG();
    CHECK_HR(d3d12xs_validate_texture_desc("test", NULL), E_INVALIDARG);
    CHECK_LOG("test", "pDesc is NULL");
}

int main(void)
{
    harness_init();
    ID3D12Device *device = harness_create_device();

    test_format_entries();
    test_buffer_view_set();
    test_block_and_srgb();
    test_vulkan_formats();
    test_format_planes();
    test_subresource_numbering();
    test_good_descs();
    test_footprints_2d(device);
    test_footprints_compressed(device);
    test_footprints_1d_3d(device);
    test_footprints_depth_stencil(device);
    test_footprints_range(device);
    test_bad_descs(device);

    harness_release_device(device);
    return harness_finish();
}
