/* DXGI formats as Vulkan formats for typed buffer views (descriptors/) and the format answers of
 * CheckFeatureSupport (device_features.c): the formats of the DXGI table (dxgi_format.c) marked
 * buffer_view. */
#include "device/device.h"
#include "device/dxgi_format.h"

VkFormat d3d12xs_vk_format_from_dxgi(DXGI_FORMAT format, uint32_t *element_size)
{
    const struct d3d12xs_format *entry = d3d12xs_format(format);

    if (!entry || !entry->buffer_view)
        return VK_FORMAT_UNDEFINED;
    if (element_size)
        *element_size = entry->block_bytes;
    return entry->vk;
}
