/* Texture descriptions as D3D12 defines them (texture_layout.c): the validation rules, mip and
 * subresource counts, and the copyable footprints of upload and readback buffers. Pure
 * functions of the description: no device. */
#ifndef D3D12XS_TEXTURE_LAYOUT_H
#define D3D12XS_TEXTURE_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#include "d3d12.h"

/* Checks a TEXTURE1D/2D/3D description against D3D12's rules (dimensions, mip levels, array
 * size, format, sample count, layout, flags). E_INVALIDARG with one log line naming the field
 * and the rule (method is the entry point's name). */
HRESULT d3d12xs_validate_texture_desc(const char *method, const D3D12_RESOURCE_DESC *desc);

/* Mip levels of the description (MipLevels, or the full chain when 0). */
uint32_t d3d12xs_texture_mip_levels(const D3D12_RESOURCE_DESC *desc);
/* Array layers (DepthOrArraySize; 1 for 3D textures). */
uint32_t d3d12xs_texture_array_size(const D3D12_RESOURCE_DESC *desc);
/* Subresources: mips x array layers x planes. */
uint32_t d3d12xs_texture_subresource_count(const D3D12_RESOURCE_DESC *desc);
/* Splits a subresource index into (mip, layer, plane), D3D12's numbering. */
void d3d12xs_texture_subresource(const D3D12_RESOURCE_DESC *desc, uint32_t index, uint32_t *mip, uint32_t *layer, uint32_t *plane);
/* The size in texels of mip `mip` (never below 1). */
void d3d12xs_texture_mip_extent(const D3D12_RESOURCE_DESC *desc, uint32_t mip, uint32_t *width, uint32_t *height, uint32_t *depth);

/* GetCopyableFootprints for a texture that passed d3d12xs_validate_texture_desc: D3D12's
 * rules (row pitch a multiple of 256, each subresource placed at a multiple of 512, block rows
 * for compressed formats, planes as their own subresources). Any output may be NULL. False
 * (with one line naming the argument) for a range outside the resource. */
bool d3d12xs_texture_footprints(const char *method, const D3D12_RESOURCE_DESC *desc, UINT first_subresource, UINT subresource_count,
        UINT64 base_offset, D3D12_PLACED_SUBRESOURCE_FOOTPRINT *layouts, UINT *row_counts, UINT64 *row_sizes, UINT64 *total_bytes);

#endif
