/* The texel a ClearUnorderedAccessViewUint / Float writes (uav_clear_value.c): D3D12's four
 * values turned into the bytes of one element of the view's format, so that every UAV format
 * clears to exactly what Windows writes, whatever conversions the device would make. */
#ifndef D3D12XS_UAV_CLEAR_VALUE_H
#define D3D12XS_UAV_CLEAR_VALUE_H

#include <stdbool.h>
#include <stdint.h>

#include <vulkan/vulkan.h>

#include "d3d12.h"

#define D3D12XS_UAV_CLEAR_MAX_BYTES 16

/* The element of `format` (a typed UAV format; R32_TYPELESS for raw and structured views, which
 * D3D12 clears as 32-bit words of the first value) that the clear writes: `values` are the four
 * UINTs of ...Uint (float_values false) or the bits of the four FLOATs of ...Float. Uint keeps
 * the low bits of each value for its channel, whatever the channel's type (a float channel takes
 * them as its bits); Float converts: UNORM and SNORM saturate and round to nearest even, 16-, 11-
 * and 10-bit floats round to nearest even (11 and 10 bits have no sign: negatives become 0),
 * 32-bit floats flush denormals to 0, integers truncate toward zero and saturate to the channel
 * (NaN is 0 for every non-float channel). False for a format UAVs cannot have. */
bool d3d12xs_uav_clear_element(DXGI_FORMAT format, const uint32_t values[4], bool float_values, uint8_t element[D3D12XS_UAV_CLEAR_MAX_BYTES],
        uint32_t *element_size);

/* The VkClearColorValue with which vkCmdClearColorImage of an image of `format` writes exactly
 * `element`; false where no value is certain to (a NaN, an infinity, an SNORM channel's most
 * negative value), and the bytes must be copied instead. */
bool d3d12xs_uav_clear_color(DXGI_FORMAT format, const uint8_t element[D3D12XS_UAV_CLEAR_MAX_BYTES], VkClearColorValue *color);

#endif
