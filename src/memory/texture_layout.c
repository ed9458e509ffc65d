/* Texture descriptions (texture_layout.h). Rules from Microsoft's D3D12_RESOURCE_DESC
 * documentation; footprints as D3D12's runtime lays them out (d3dx12's D3DX12GetCopyableFootprints
 * and its format table mirror it). */
#include "memory/texture_layout.h"

#include "common/log.h"
#include "device/dxgi_format.h"

#define MiB (1024u * 1024u)

static const char *dimension_name(D3D12_RESOURCE_DIMENSION dimension)
{
    return dimension == D3D12_RESOURCE_DIMENSION_TEXTURE1D ? "TEXTURE1D"
            : dimension == D3D12_RESOURCE_DIMENSION_TEXTURE2D ? "TEXTURE2D" : "TEXTURE3D";
}

static uint64_t align_up(uint64_t value, uint64_t alignment)
{
    return (value + alignment - 1) / alignment * alignment;
}

/* The full chain's length: floor(log2(largest dimension)) + 1. */
static uint32_t full_mip_chain(const D3D12_RESOURCE_DESC *desc)
{
    uint64_t size = desc->Width;
    uint32_t levels = 1;

    if (desc->Dimension != D3D12_RESOURCE_DIMENSION_TEXTURE1D && desc->Height > size)
        size = desc->Height;
    if (desc->Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE3D && desc->DepthOrArraySize > size)
        size = desc->DepthOrArraySize;
    while (size > 1) {
        size >>= 1;
        levels++;
    }
    return levels;
}

/* Formats a depth-stencil view can be made from: the depth formats and their typeless families. */
static bool depth_stencil_capable(DXGI_FORMAT format)
{
    switch (format) {
    case DXGI_FORMAT_D32_FLOAT: case DXGI_FORMAT_D16_UNORM: case DXGI_FORMAT_D24_UNORM_S8_UINT: case DXGI_FORMAT_D32_FLOAT_S8X24_UINT:
    case DXGI_FORMAT_R32_TYPELESS: case DXGI_FORMAT_R16_TYPELESS: case DXGI_FORMAT_R24G8_TYPELESS: case DXGI_FORMAT_R32G8X24_TYPELESS:
        return true;
    default:
        return false;
    }
}

static bool depth_stencil_family(const struct d3d12xs_format *format)
{
    return format->typeless == DXGI_FORMAT_R24G8_TYPELESS || format->typeless == DXGI_FORMAT_R32G8X24_TYPELESS;
}

static HRESULT check_format(const char *method, const D3D12_RESOURCE_DESC *desc, const struct d3d12xs_format **out)
{
    const struct d3d12xs_format *format = d3d12xs_format(desc->Format);
    const char *dimension = dimension_name(desc->Dimension);

    if (desc->Format == DXGI_FORMAT_UNKNOWN)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Format is DXGI_FORMAT_UNKNOWN (textures must have a format)");
    if (!format)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Format is %d (not a DXGI format)", (int)desc->Format);
    if (format->planar)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Format %d is a planar video format (planar formats are not implemented)",
                (int)desc->Format);
    if (format->video)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Format %d is a video or palette format (not implemented)", (int)desc->Format);
    if (format->vk == VK_FORMAT_UNDEFINED)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Format %d has no Vulkan format to create textures with (not implemented)",
                (int)desc->Format);
    if (desc->Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE3D && (format->aspects & (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT)))
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Format %d is a depth-stencil format (depth-stencil textures are 1D or 2D, "
                "not TEXTURE3D)", (int)desc->Format);
    if (format->block_compressed && desc->Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE1D)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Format %d is block-compressed (BC textures are 2D or 3D, not TEXTURE1D)",
                (int)desc->Format);
    /* The top level is whole blocks (D3D12's format table: "top level dimensions must be a
     * multiple of" the block); smaller mips are padded to a block. */
    if (desc->Width % format->block_width || desc->Height % format->block_height)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Width x Height is %llux%u (a %s of format %d must be a multiple of its %ux%u "
                "blocks)", (unsigned long long)desc->Width, desc->Height, dimension, (int)desc->Format, format->block_width,
                format->block_height);
    *out = format;
    return S_OK;
}

static HRESULT check_samples(const char *method, const D3D12_RESOURCE_DESC *desc)
{
    const DXGI_SAMPLE_DESC *samples = &desc->SampleDesc;

    if (!samples->Count)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->SampleDesc.Count is 0 (must be at least 1)");
    if (samples->Count == 1) {
        if (samples->Quality)
            return d3d12xs_fail(E_INVALIDARG, method, "pDesc->SampleDesc.Quality is %u (must be 0 with one sample)", samples->Quality);
        return S_OK;
    }
    /* Vulkan's sample counts are powers of two; D3D12 goes to 32. */
    if (samples->Count > 32 || (samples->Count & (samples->Count - 1)))
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->SampleDesc.Count is %u (must be 1, 2, 4, 8, 16 or 32)", samples->Count);
    if (desc->Dimension != D3D12_RESOURCE_DIMENSION_TEXTURE2D)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->SampleDesc.Count is %u for a %s (only TEXTURE2D can be multisampled)",
                samples->Count, dimension_name(desc->Dimension));
    if (d3d12xs_texture_mip_levels(desc) != 1)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->MipLevels is %u with SampleDesc.Count %u (multisampled textures have 1 mip level)",
                desc->MipLevels, samples->Count);
    if (!(desc->Flags & (D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET | D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL)))
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->SampleDesc.Count is %u without ALLOW_RENDER_TARGET or ALLOW_DEPTH_STENCIL "
                "(multisampled textures must be one)", samples->Count);
    if (desc->Flags & (D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS | D3D12_RESOURCE_FLAG_ALLOW_SIMULTANEOUS_ACCESS))
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Flags 0x%x with SampleDesc.Count %u (multisampled textures cannot have "
                "ALLOW_UNORDERED_ACCESS or ALLOW_SIMULTANEOUS_ACCESS)", desc->Flags, samples->Count);
    if (desc->Layout == D3D12_TEXTURE_LAYOUT_64KB_STANDARD_SWIZZLE)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Layout is 64KB_STANDARD_SWIZZLE with SampleDesc.Count %u (multisampled "
                "textures cannot have it)", samples->Count);
    if (samples->Quality && samples->Quality != (UINT)D3D12_STANDARD_MULTISAMPLE_PATTERN
            && samples->Quality != (UINT)D3D12_CENTER_MULTISAMPLE_PATTERN)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->SampleDesc.Quality is %u (must be 0, D3D12_STANDARD_MULTISAMPLE_PATTERN or "
                "D3D12_CENTER_MULTISAMPLE_PATTERN: one quality level per count)", samples->Quality);
    return S_OK;
}

static HRESULT check_flags(const char *method, const D3D12_RESOURCE_DESC *desc, const struct d3d12xs_format *format)
{
    const D3D12_RESOURCE_FLAGS known = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET | D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL
            | D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS | D3D12_RESOURCE_FLAG_DENY_SHADER_RESOURCE
            | D3D12_RESOURCE_FLAG_ALLOW_CROSS_ADAPTER | D3D12_RESOURCE_FLAG_ALLOW_SIMULTANEOUS_ACCESS;
    const D3D12_RESOURCE_FLAGS flags = desc->Flags;

    if (flags & ~known)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Flags 0x%x include 0x%x (video reference, acceleration structure or undefined "
                "bits, which textures here cannot have)", flags, flags & ~known);
    /* Cross-adapter textures live in D3D12_HEAP_FLAG_SHARED_CROSS_ADAPTER heaps: not supported. */
    if (flags & D3D12_RESOURCE_FLAG_ALLOW_CROSS_ADAPTER)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Flags has ALLOW_CROSS_ADAPTER (cross-adapter textures need "
                "D3D12_HEAP_FLAG_SHARED_CROSS_ADAPTER heaps, which d3d12xs does not support)");
    if ((flags & D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET) && (flags & D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL))
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Flags 0x%x have both ALLOW_RENDER_TARGET and ALLOW_DEPTH_STENCIL (exclusive)", flags);
    if (flags & D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL) {
        if (!depth_stencil_capable(format->dxgi))
            return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Flags has ALLOW_DEPTH_STENCIL with Format %d (needs a depth format or "
                    "R32_TYPELESS, R16_TYPELESS, R24G8_TYPELESS, R32G8X24_TYPELESS)", (int)format->dxgi);
        if (desc->Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE3D)
            return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Flags has ALLOW_DEPTH_STENCIL for a TEXTURE3D (depth-stencil textures are 1D or 2D)");
        if (flags & D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS)
            return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Flags 0x%x have ALLOW_UNORDERED_ACCESS with ALLOW_DEPTH_STENCIL (not allowed together)",
                    flags);
        if (flags & D3D12_RESOURCE_FLAG_ALLOW_SIMULTANEOUS_ACCESS)
            return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Flags 0x%x have ALLOW_SIMULTANEOUS_ACCESS with ALLOW_DEPTH_STENCIL (not allowed "
                    "together)", flags);
    } else if (flags & D3D12_RESOURCE_FLAG_DENY_SHADER_RESOURCE) {
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Flags 0x%x have DENY_SHADER_RESOURCE without ALLOW_DEPTH_STENCIL (only "
                "depth-stencil textures may deny it)", flags);
    }
    if ((flags & D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET) && (format->aspects & (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT)))
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Flags has ALLOW_RENDER_TARGET with depth-stencil Format %d (use ALLOW_DEPTH_STENCIL)",
                (int)format->dxgi);
    if (format->block_compressed && (flags & (D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET | D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS)))
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Flags 0x%x ask for render-target or unordered access of block-compressed "
                "Format %d (not possible)", flags, (int)format->dxgi);
    return S_OK;
}

HRESULT d3d12xs_validate_texture_desc(const char *method, const D3D12_RESOURCE_DESC *desc)
{
    const struct d3d12xs_format *format = NULL;
    uint32_t max_size, max_mips;
    const char *dimension;
    HRESULT hr;

    if (!desc)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc is NULL (must describe the resource)");
    if (desc->Dimension < D3D12_RESOURCE_DIMENSION_TEXTURE1D || desc->Dimension > D3D12_RESOURCE_DIMENSION_TEXTURE3D)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Dimension is %d (not TEXTURE1D, TEXTURE2D or TEXTURE3D)", (int)desc->Dimension);
    dimension = dimension_name(desc->Dimension);
    max_size = desc->Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE3D ? D3D12_REQ_TEXTURE3D_U_V_OR_W_DIMENSION : D3D12_REQ_TEXTURE2D_U_OR_V_DIMENSION;

    if (!desc->Width || desc->Width > max_size)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Width is %llu (a %s is 1 to %u texels wide)", (unsigned long long)desc->Width,
                dimension, max_size);
    if (desc->Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE1D && desc->Height != 1)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Height is %u (a TEXTURE1D has Height 1)", desc->Height);
    if (!desc->Height || desc->Height > max_size)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Height is %u (a %s is 1 to %u texels high)", desc->Height, dimension, max_size);
    /* 2048: D3D12_REQ_TEXTURE1D/2D_ARRAY_AXIS_DIMENSION and D3D12_REQ_TEXTURE3D_U_V_OR_W_DIMENSION alike. */
    if (!desc->DepthOrArraySize || desc->DepthOrArraySize > D3D12_REQ_TEXTURE2D_ARRAY_AXIS_DIMENSION)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->DepthOrArraySize is %u (a %s has 1 to 2048 %s)", desc->DepthOrArraySize, dimension,
                desc->Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE3D ? "depth slices" : "array layers");
    if (desc->MipLevels > (max_mips = full_mip_chain(desc)))
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->MipLevels is %u (a %llux%ux%u %s has at most %u; 0 asks for them all)",
                desc->MipLevels, (unsigned long long)desc->Width, desc->Height, desc->DepthOrArraySize, dimension, max_mips);
    if (FAILED(hr = check_format(method, desc, &format)))
        return hr;
    if (FAILED(hr = check_samples(method, desc)))
        return hr;

    /* 4 KiB and 64 KiB (for MSAA) also need the texture to be small: the allocation code checks
     * that, with the real size. */
    switch (desc->Alignment) {
    case 0:
    case D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT:
        break;
    case D3D12_SMALL_RESOURCE_PLACEMENT_ALIGNMENT:
        if (desc->SampleDesc.Count > 1 || desc->Layout != D3D12_TEXTURE_LAYOUT_UNKNOWN
                || (desc->Flags & (D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET | D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL)))
            return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Alignment is 4096 (only for single-sampled UNKNOWN-layout textures without "
                    "ALLOW_RENDER_TARGET or ALLOW_DEPTH_STENCIL)");
        break;
    case D3D12_DEFAULT_MSAA_RESOURCE_PLACEMENT_ALIGNMENT:
        if (desc->SampleDesc.Count > 1)
            break;
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Alignment is 4194304 (only for multisampled textures)");
    default:
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Alignment is %llu (textures need 0, 4096, 65536 or 4194304)",
                (unsigned long long)desc->Alignment);
    }

    switch (desc->Layout) {
    case D3D12_TEXTURE_LAYOUT_UNKNOWN:
    /* 64KB layouts ask for 64 KiB tiles (and, standard swizzle, a known texel order, which only
     * matters to CPU access of the memory): d3d12xs stores them device-optimal, as UNKNOWN. */
    case D3D12_TEXTURE_LAYOUT_64KB_UNDEFINED_SWIZZLE:
    case D3D12_TEXTURE_LAYOUT_64KB_STANDARD_SWIZZLE:
        break;
    case D3D12_TEXTURE_LAYOUT_ROW_MAJOR:
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Layout is ROW_MAJOR (row-major textures need D3D12_HEAP_FLAG_SHARED_CROSS_ADAPTER, "
                "which d3d12xs does not support)");
    default:
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Layout is %d (not a D3D12_TEXTURE_LAYOUT)", (int)desc->Layout);
    }
    return check_flags(method, desc, format);
}

uint32_t d3d12xs_texture_mip_levels(const D3D12_RESOURCE_DESC *desc)
{
    return desc->MipLevels ? desc->MipLevels : full_mip_chain(desc);
}

uint32_t d3d12xs_texture_array_size(const D3D12_RESOURCE_DESC *desc)
{
    return desc->Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE3D ? 1 : desc->DepthOrArraySize;
}

static uint32_t plane_count(const D3D12_RESOURCE_DESC *desc)
{
    const struct d3d12xs_format *format = d3d12xs_format(desc->Format);
    return format && format->plane_count ? format->plane_count : 1;
}

uint32_t d3d12xs_texture_subresource_count(const D3D12_RESOURCE_DESC *desc)
{
    return d3d12xs_texture_mip_levels(desc) * d3d12xs_texture_array_size(desc) * plane_count(desc);
}

void d3d12xs_texture_subresource(const D3D12_RESOURCE_DESC *desc, uint32_t index, uint32_t *mip, uint32_t *layer, uint32_t *plane)
{
    uint32_t mips = d3d12xs_texture_mip_levels(desc), layers = d3d12xs_texture_array_size(desc);

    *mip = index % mips;
    *layer = index / mips % layers;
    *plane = index / (mips * layers);
}

void d3d12xs_texture_mip_extent(const D3D12_RESOURCE_DESC *desc, uint32_t mip, uint32_t *width, uint32_t *height, uint32_t *depth)
{
    const uint32_t shift = mip < 31 ? mip : 31; /* past any chain every dimension is 1 */
    uint64_t w = desc->Width >> shift;
    uint32_t h = desc->Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE1D ? 1 : desc->Height >> shift;
    uint32_t d = desc->Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE3D ? (uint32_t)desc->DepthOrArraySize >> shift : 1;

    *width = w ? (uint32_t)w : 1;
    *height = h ? h : 1;
    *depth = d ? d : 1;
}

bool d3d12xs_texture_footprints(const char *method, const D3D12_RESOURCE_DESC *desc, UINT first_subresource, UINT subresource_count,
        UINT64 base_offset, D3D12_PLACED_SUBRESOURCE_FOOTPRINT *layouts, UINT *row_counts, UINT64 *row_sizes, UINT64 *total_bytes)
{
    const struct d3d12xs_format *format = d3d12xs_format(desc->Format);
    uint32_t count = d3d12xs_texture_subresource_count(desc), pitch_alignment;
    uint64_t end = 0;

    if (!format) {
        ERR("%s: pDesc->Format %d is not a DXGI format", method, (int)desc->Format);
        if (total_bytes)
            *total_bytes = UINT64_MAX;
        return false;
    }
    if (first_subresource >= count || subresource_count > count - first_subresource) {
        ERR("%s: FirstSubresource %u and NumSubresources %u reach outside the resource's %u subresources", method, first_subresource,
                subresource_count, count);
        if (total_bytes)
            *total_bytes = UINT64_MAX;
        return false;
    }
    /* D3D12 counts the depth-stencil families as planar: their rows are aligned to the placement
     * alignment, so that each plane starts right after the one before. */
    pitch_alignment = depth_stencil_family(format) ? D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT : D3D12_TEXTURE_DATA_PITCH_ALIGNMENT;
    for (UINT i = 0; i < subresource_count; i++) {
        uint32_t mip, layer, plane, width, height, depth, bytes, rows;
        uint32_t block_width = format->block_width, block_height = format->block_height;
        uint64_t offset, row_size, row_pitch;
        DXGI_FORMAT plane_format;

        d3d12xs_texture_subresource(desc, first_subresource + i, &mip, &layer, &plane);
        d3d12xs_texture_mip_extent(desc, mip, &width, &height, &depth);
        d3d12xs_format_plane(format, plane, NULL, &bytes, &plane_format);
        width = (uint32_t)align_up(width, block_width);
        height = (uint32_t)align_up(height, block_height);
        rows = height / block_height;
        row_size = (uint64_t)(width / block_width) * bytes;
        row_pitch = align_up(row_size, pitch_alignment);
        /* Offsets count from the first subresource; base_offset is added as given. */
        offset = i ? align_up(end, D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT) : 0;
        end = offset + row_pitch * ((uint64_t)rows * depth - 1) + row_size;
        if (layouts) {
            layouts[i].Offset = base_offset + offset;
            layouts[i].Footprint.Format = plane_format;
            layouts[i].Footprint.Width = width;
            layouts[i].Footprint.Height = height;
            layouts[i].Footprint.Depth = depth;
            layouts[i].Footprint.RowPitch = (UINT)row_pitch;
        }
        if (row_counts)
            row_counts[i] = rows;
        if (row_sizes)
            row_sizes[i] = row_size;
    }
    if (total_bytes)
        *total_bytes = end;
    return true;
}
