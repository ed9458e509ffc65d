/* VK_EXT_image_sliced_view_of_3d (storage views of some of a 3D image's depth slices: D3D12's
 * Texture3D UAVs with FirstWSlice / WSize), defined here where the Vulkan headers d3d12xs builds
 * with (1.3.239) predate it. The values are the registry's: extension 419, its feature structure
 * and the VkImageViewCreateInfo chain structure, laid out as the specification does. */
#ifndef D3D12XS_VK_SLICED_VIEW_OF_3D_H
#define D3D12XS_VK_SLICED_VIEW_OF_3D_H

#include <vulkan/vulkan.h>

/* Validation layers from 1.3.250 on know the extension (it was registered early in 2023, in the
 * 1.3.24x headers; a layer in between only leaves it off needlessly). Older ones (Debian 12's is
 * 1.3.239) drop its structures from the chains they pass on. */
#define D3D12XS_LAYER_KNOWS_SLICED_VIEW_OF_3D VK_MAKE_API_VERSION(0, 1, 3, 250)

#ifndef VK_EXT_image_sliced_view_of_3d
#define VK_EXT_image_sliced_view_of_3d 1
#define VK_EXT_IMAGE_SLICED_VIEW_OF_3D_EXTENSION_NAME "VK_EXT_image_sliced_view_of_3d"
#define VK_REMAINING_3D_SLICES_EXT (~0U)
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_SLICED_VIEW_OF_3D_FEATURES_EXT ((VkStructureType)1000418000)
#define VK_STRUCTURE_TYPE_IMAGE_VIEW_SLICED_CREATE_INFO_EXT ((VkStructureType)1000418001)
typedef struct VkPhysicalDeviceImageSlicedViewOf3DFeaturesEXT {
    VkStructureType sType;
    void *pNext;
    VkBool32 imageSlicedViewOf3D;
} VkPhysicalDeviceImageSlicedViewOf3DFeaturesEXT;
typedef struct VkImageViewSlicedCreateInfoEXT {
    VkStructureType sType;
    const void *pNext;
    uint32_t sliceOffset;
    uint32_t sliceCount;
} VkImageViewSlicedCreateInfoEXT;
#endif

#endif
