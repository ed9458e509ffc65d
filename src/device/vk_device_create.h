/* Creating the VkDevice (vk_device_create.c), in two steps so that parts above device/ add
 * their own extensions and features between them (descriptors/descriptor_buffer.c: descriptor
 * buffers): describe what the physical device offers and what d3d12xs turns on, then create the
 * device from that plan. D3D12CreateDevice (api/device.c) runs them. */
#ifndef D3D12XS_VK_DEVICE_CREATE_H
#define D3D12XS_VK_DEVICE_CREATE_H

#include "device/device.h"
#include "device/vk_sliced_view_of_3d.h" /* VkPhysicalDeviceImageSlicedViewOf3DFeaturesEXT */
#include "device/vk_device_generated_commands.h"

#define D3D12XS_MAX_DEVICE_EXTENSIONS 32

struct d3d12xs_vk_device_plan {
    /* chained from enabled.core; more structures go after enabled.vulkan13 (its pNext) */
    struct d3d12xs_vk_features enabled;
    const char *extensions[D3D12XS_MAX_DEVICE_EXTENSIONS];
    uint32_t extension_count;
    VkDeviceQueueCreateInfo queue_infos[3];
    uint32_t queue_info_count;
    float priorities[16];
    bool has_host_memory;   /* VK_EXT_external_memory_host is enabled */
    /* the extensions' feature structures, in the chain where enabled */
    VkPhysicalDeviceShaderClockFeaturesKHR clock;
    VkPhysicalDeviceCustomBorderColorFeaturesEXT border_color;
    VkPhysicalDeviceImageViewMinLodFeaturesEXT min_lod;
    VkPhysicalDeviceImageSlicedViewOf3DFeaturesEXT sliced_view_of_3d;
    VkPhysicalDeviceComputeShaderDerivativesFeaturesNV compute_derivatives;
    VkPhysicalDeviceTexelBufferAlignmentFeaturesEXT texel_buffer_alignment;
    /* graphics (vk_graphics_features.c) */
    VkPhysicalDeviceDepthClipEnableFeaturesEXT depth_clip;
    VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT vertex_divisor;
    VkPhysicalDeviceLineRasterizationFeaturesEXT line_rasterization;
    VkPhysicalDeviceExtendedDynamicState2FeaturesEXT dynamic_state2;
    VkPhysicalDeviceTransformFeedbackFeaturesEXT transform_feedback;
    VkPhysicalDeviceConditionalRenderingFeaturesEXT conditional_rendering;
    /* ExecuteIndirect (vk_generated_commands.c) */
    VkPhysicalDeviceDeviceGeneratedCommandsFeaturesEXT generated_commands;
    VkPhysicalDeviceMaintenance5FeaturesKHR maintenance5; /* which generated commands require */
};

/* Chooses the queue families (device->queue_map), reads the properties and limits the device
 * keeps, and fills plan with the features and extensions to enable. DXGI_ERROR_UNSUPPORTED with
 * one line naming what the device lacks. plan points into itself: it must stay where it is. */
HRESULT d3d12xs_vk_device_describe(struct d3d12_device *device, struct d3d12xs_vk_device_plan *plan);
/* vk_graphics_features.c, for d3d12xs_vk_device_describe: the graphics extensions d3d12xs uses
 * where the device offers them, into plan, and what graphics can use into device->graphics
 * (after d3d12xs_select_vk_features chose the core features). */
void d3d12xs_vk_device_plan_graphics(struct d3d12_device *device, struct d3d12xs_vk_device_plan *plan);
/* ... and after vkCreateDevice, their entry points. */
void d3d12xs_vk_device_load_graphics(struct d3d12_device *device);
/* vk_generated_commands.c: VK_EXT_device_generated_commands where offered, into plan and
 * device->generated_commands; after vkCreateDevice, its entry points. */
void d3d12xs_vk_device_plan_generated_commands(struct d3d12_device *device, struct d3d12xs_vk_device_plan *plan);
void d3d12xs_vk_device_load_generated_commands(struct d3d12_device *device);
/* vkCreateDevice from plan, then the queues and the extensions' entry points. */
HRESULT d3d12xs_vk_device_create(struct d3d12_device *device, const struct d3d12xs_vk_device_plan *plan);

#endif
