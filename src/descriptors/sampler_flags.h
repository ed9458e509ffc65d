/* D3D12_SAMPLER_FLAGS: the rules a sampler with flags must follow, shared by static samplers
 * (root signature 1.2, root_signature_rules.c) and CreateSampler2 (descriptor.c), so that both
 * refuse the same descriptions with the same words. */
#ifndef D3D12XS_SAMPLER_FLAGS_H
#define D3D12XS_SAMPLER_FLAGS_H

#include <stddef.h>

#include "d3d12.h"

#define D3D12XS_SAMPLER_KNOWN_FLAGS (D3D12_SAMPLER_FLAG_UINT_BORDER_COLOR | D3D12_SAMPLER_FLAG_NON_NORMALIZED_COORDINATES)

/* NULL when the fields suit flags; else why not, as a sentence naming the field (without the
 * structure's name, which the caller prefixes: "pStaticSamplers[2]." or "pDesc->"). Unknown bits,
 * and NON_NORMALIZED_COORDINATES's rules (D3D12's, which are Vulkan's unnormalizedCoordinates
 * rules): a POINT or MIN_MAG_LINEAR_MIP_POINT filter, standard, MINIMUM or MAXIMUM (min and mag
 * alike, mip POINT, no anisotropy, no comparison), MinLOD and MaxLOD 0, AddressU and AddressV
 * CLAMP or BORDER. */
const char *d3d12xs_sampler_flags_problem(D3D12_SAMPLER_FLAGS flags, D3D12_FILTER filter, D3D12_TEXTURE_ADDRESS_MODE address_u,
        D3D12_TEXTURE_ADDRESS_MODE address_v, float min_lod, float max_lod);

#endif
