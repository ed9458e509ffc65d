/* The rules of D3D12_SAMPLER_FLAGS (sampler_flags.h). Microsoft states them in the D3D12 spec of
 * non-normalized sampling: they let such a sampler be a Vulkan sampler with
 * unnormalizedCoordinates, whose own rules are the same (VkSamplerCreateInfo). */
#include <stdbool.h>

#include "descriptors/sampler_flags.h"

/* D3D12_FILTER bits: mip LINEAR 0x1, mag LINEAR 0x4, min LINEAR 0x10, anisotropic 0x40,
 * reduction (standard, comparison, minimum, maximum) in bits 7-8. */
static bool filter_allows_non_normalized(D3D12_FILTER filter)
{
    unsigned reduction = ((unsigned)filter >> 7) & 3;
    unsigned min_mag_mip = (unsigned)filter & 0x7f;
    return reduction != D3D12_FILTER_REDUCTION_TYPE_COMPARISON && (min_mag_mip == 0 || min_mag_mip == 0x14);
}

static bool address_allows_non_normalized(D3D12_TEXTURE_ADDRESS_MODE mode)
{
    return mode == D3D12_TEXTURE_ADDRESS_MODE_CLAMP || mode == D3D12_TEXTURE_ADDRESS_MODE_BORDER;
}

const char *d3d12xs_sampler_flags_problem(D3D12_SAMPLER_FLAGS flags, D3D12_FILTER filter, D3D12_TEXTURE_ADDRESS_MODE address_u,
        D3D12_TEXTURE_ADDRESS_MODE address_v, float min_lod, float max_lod)
{
    if ((unsigned)flags & ~(unsigned)D3D12XS_SAMPLER_KNOWN_FLAGS)
        return "Flags has bits that are not D3D12_SAMPLER_FLAGS (UINT_BORDER_COLOR 0x1, NON_NORMALIZED_COORDINATES 0x2)";
    if (!(flags & D3D12_SAMPLER_FLAG_NON_NORMALIZED_COORDINATES))
        return NULL;
    if (!filter_allows_non_normalized(filter))
        return "Filter must be MIN_MAG_MIP_POINT or MIN_MAG_LINEAR_MIP_POINT (or their MINIMUM_ / MAXIMUM_ forms) with "
               "NON_NORMALIZED_COORDINATES: min and mag alike, mip POINT, no anisotropy, no comparison";
    if (min_lod != 0.0f || max_lod != 0.0f)
        return "MinLOD and MaxLOD must be 0 with NON_NORMALIZED_COORDINATES";
    if (!address_allows_non_normalized(address_u) || !address_allows_non_normalized(address_v))
        return "AddressU and AddressV must be CLAMP or BORDER with NON_NORMALIZED_COORDINATES";
    return NULL;
}
