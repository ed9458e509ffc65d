/* What d3d12xs knows of each DXGI format (dxgi_format.c): its Vulkan format, block shape and
 * size, typeless family, aspects and planes. One table serves resources, views, copies,
 * footprints and CheckFeatureSupport. */
#ifndef D3D12XS_DXGI_FORMAT_H
#define D3D12XS_DXGI_FORMAT_H

#include <stdbool.h>
#include <stdint.h>

#include <vulkan/vulkan.h>

#include "d3d12.h"

struct d3d12xs_format {
    DXGI_FORMAT dxgi;
    /* The Vulkan format of views and copies. Typeless formats: the format their images are
     * created with (MUTABLE_FORMAT, every member of the family castable); depth typeless
     * families: the depth format. VK_FORMAT_UNDEFINED: d3d12xs cannot back it. */
    VkFormat vk;
    DXGI_FORMAT typeless;           /* the family (itself for a typeless format; UNKNOWN: none) */
    uint8_t block_width, block_height; /* 1 x 1 texels, 4 x 4 for BC1-BC7, 2 x 1 for packed 4:2:2 */
    uint8_t block_bytes;            /* bytes per block (per texel when uncompressed), plane 0's for planar */
    uint8_t plane_count;            /* 2 for depth-stencil families, 2 or 3 for planar video formats */
    VkImageAspectFlags aspects;     /* COLOR, or DEPTH and/or STENCIL */
    bool srgb, typeless_format, block_compressed, planar, buffer_view; /* buffer_view: typed buffer views may use it */
    bool video;                     /* YUV or palette format (planar: the multi-plane ones); refused for now */
    /* A8_UNORM: stored as R8_UNORM (the Vulkan headers d3d12xs builds with predate
     * VK_KHR_maintenance5's A8 format), its one channel, alpha, in R. Sampled views swizzle it to
     * (0, 0, 0, R); render-target clears write the alpha value into R; storage views cannot
     * swizzle, so such textures have no UAVs. */
    bool alpha_in_red;
};

/* The format's entry, or NULL for a value that is not a DXGI format d3d12xs knows. */
const struct d3d12xs_format *d3d12xs_format(DXGI_FORMAT format);

/* The Vulkan formats of the typed colour members of a typeless family (R8G8B8A8_TYPELESS: UNORM,
 * UNORM_SRGB, UINT, SNORM, SINT), each once, at most capacity: what views of a typeless colour
 * image may use (its VkImageFormatListCreateInfo). */
uint32_t d3d12xs_format_family_views(DXGI_FORMAT family, VkFormat *view_formats, uint32_t capacity);

/* Plane `plane` of a format as a copy sees it: its Vulkan aspect, bytes per texel (per block for
 * a colour format) and the footprint's DXGI format. Depth-stencil families copy depth as
 * R32_TYPELESS words (D24 in the low 24 bits) and stencil as R8_TYPELESS (D3D12's planar depth
 * stencil); other formats have plane 0 only, as themselves. False when there is no such plane. */
bool d3d12xs_format_plane(const struct d3d12xs_format *format, unsigned plane, VkImageAspectFlagBits *aspect,
        uint32_t *bytes_per_block, DXGI_FORMAT *plane_format);

#endif
