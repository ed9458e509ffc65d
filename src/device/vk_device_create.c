/* The VkDevice of a d3d12xs device: its queue families, the properties and limits the device
 * keeps, the features and extensions it turns on, vkCreateDevice and the entry points of those
 * extensions (vk_device_create.h says why in two steps). */
#include <string.h>

#include "device/vk_device_create.h"

/* DIRECT takes a graphics family; COMPUTE and COPY take families of their own where the
 * device has them, since queues of one family wait on each other slowly (SPEC §3). */
static HRESULT map_queue_families(struct d3d12_device *device, VkDeviceQueueCreateInfo *queue_infos, uint32_t *queue_info_count, float *priorities)
{
    VkQueueFamilyProperties families[32];
    uint32_t count = D3D12XS_ARRAY_SIZE(families);
    int direct = -1, compute = -1, copy = -1;

    vkGetPhysicalDeviceQueueFamilyProperties(device->vk_physical_device, &count, families);
    for (uint32_t i = 0; i < count; i++) {
        VkQueueFlags flags = families[i].queueFlags;
        if (direct < 0 && (flags & VK_QUEUE_GRAPHICS_BIT) && (flags & VK_QUEUE_COMPUTE_BIT))
            direct = (int)i;
        if (compute < 0 && (flags & VK_QUEUE_COMPUTE_BIT) && !(flags & VK_QUEUE_GRAPHICS_BIT))
            compute = (int)i;
        if (copy < 0 && (flags & VK_QUEUE_TRANSFER_BIT) && !(flags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)))
            copy = (int)i;
    }
    if (direct < 0)
        return d3d12xs_fail(DXGI_ERROR_UNSUPPORTED, "D3D12CreateDevice", "the Vulkan device has no graphics+compute queue family");
    if (compute < 0)
        compute = direct;
    if (copy < 0)
        copy = compute;

    const int by_type[4] = {direct, -1, compute, copy};
    *queue_info_count = 0;
    for (int type = 0; type < 4; type++) {
        struct d3d12_queue_family_map *map = &device->queue_map[type];
        if (by_type[type] < 0)
            continue;
        map->family = (uint32_t)by_type[type];
        map->vk_queue_count = families[map->family].queueCount;
        if (map->vk_queue_count > D3D12XS_ARRAY_SIZE(map->vk_queues))
            map->vk_queue_count = D3D12XS_ARRAY_SIZE(map->vk_queues);
        map->timestamps = families[map->family].timestampValidBits > 0;
        map->supports_compute = !!(families[map->family].queueFlags & VK_QUEUE_COMPUTE_BIT);
        map->supports_graphics = !!(families[map->family].queueFlags & VK_QUEUE_GRAPHICS_BIT);
        /* D3D12XS_COPY_TRANSFER_ONLY=1 treats COPY lists as a transfer-only family would (query
         * resets by the host, resolves on the internal engine), so that path runs on any device. */
        if (type == D3D12_COMMAND_LIST_TYPE_COPY && device->config.copy_transfer_only)
            map->supports_compute = map->supports_graphics = false;
        /* D3D12XS_COMPUTE_WITHOUT_GRAPHICS=1: COMPUTE lists as on a compute-only family (the
         * H200's), whose pipeline statistics count compute invocations alone. */
        if (type == D3D12_COMMAND_LIST_TYPE_COMPUTE && device->config.compute_without_graphics)
            map->supports_graphics = false;
        bool already = false;
        for (int other = 0; other < type; other++) {
            if (by_type[other] == by_type[type]) {
                map->shared = device->queue_map[other].shared = true;
                already = true;
            }
        }
        if (!already) {
            VkDeviceQueueCreateInfo *info = &queue_infos[(*queue_info_count)++];
            memset(info, 0, sizeof(*info));
            info->sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
            info->queueFamilyIndex = map->family;
            info->queueCount = map->vk_queue_count;
            info->pQueuePriorities = priorities;
        }
    }
    return S_OK;
}

HRESULT d3d12xs_vk_device_describe(struct d3d12_device *device, struct d3d12xs_vk_device_plan *plan)
{
    VkPhysicalDevicePushDescriptorPropertiesKHR push_properties = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR};
    VkPhysicalDeviceVulkan11Properties properties11 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES};
    VkPhysicalDeviceVulkan12Properties properties12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
    VkPhysicalDeviceVulkan13Properties properties13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES};
    VkPhysicalDeviceProperties2 properties = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &properties11};
    struct d3d12xs_vk_features supported;
    HRESULT hr;

    memset(plan, 0, sizeof(*plan));
    for (size_t i = 0; i < D3D12XS_ARRAY_SIZE(plan->priorities); i++)
        plan->priorities[i] = 1.0f;
    if (FAILED(hr = map_queue_families(device, plan->queue_infos, &plan->queue_info_count, plan->priorities)))
        return hr;

    device->vk_driver_properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
    properties11.pNext = &device->vk_driver_properties;
    device->vk_driver_properties.pNext = &push_properties;
    push_properties.pNext = &properties12;
    properties12.pNext = &properties13;
    vkGetPhysicalDeviceProperties2(device->vk_physical_device, &properties);
    device->subgroup_size = properties11.subgroupSize;
    device->min_subgroup_size = properties13.minSubgroupSize;
    device->max_subgroup_size = properties13.maxSubgroupSize;
    device->max_compute_workgroup_subgroups = properties13.maxComputeWorkgroupSubgroups;
    device->compute_subgroup_size_control = (properties13.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0;
    device->texel_offset_alignment[0] = properties13.uniformTexelBufferOffsetAlignmentBytes;
    device->texel_offset_alignment[1] = properties13.storageTexelBufferOffsetAlignmentBytes;
    device->texel_offset_single_texel[0] = properties13.uniformTexelBufferOffsetSingleTexelAlignment;
    device->texel_offset_single_texel[1] = properties13.storageTexelBufferOffsetSingleTexelAlignment;
    device->preserves_nan32 = properties12.shaderSignedZeroInfNanPreserveFloat32;
    device->preserves_nan64 = properties12.shaderSignedZeroInfNanPreserveFloat64;
    device->depth_resolve_modes = properties12.supportedDepthResolveModes;
    device->stencil_resolve_modes = properties12.supportedStencilResolveModes;
    device->independent_resolve_none = properties12.independentResolveNone;
    vkGetPhysicalDeviceMemoryProperties(device->vk_physical_device, &device->vk_memory_properties);

    memset(&supported, 0, sizeof(supported));
    supported.core.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    supported.core.pNext = &supported.vulkan11;
    supported.vulkan11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
    supported.vulkan11.pNext = &supported.vulkan12;
    supported.vulkan12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    supported.vulkan12.pNext = &supported.vulkan13;
    supported.vulkan13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
    vkGetPhysicalDeviceFeatures2(device->vk_physical_device, &supported.core);
    /* scalarBlockLayout: D3DCompile lays structured buffers out tightly, as D3D12 does. */
    if (!supported.vulkan12.timelineSemaphore || !supported.vulkan13.synchronization2 || !supported.vulkan12.hostQueryReset
            || !supported.vulkan12.scalarBlockLayout)
        return d3d12xs_fail(DXGI_ERROR_UNSUPPORTED, "D3D12CreateDevice",
                "%s lacks timelineSemaphore, synchronization2, hostQueryReset or scalarBlockLayout (all required)",
                device->vk_properties.deviceName);
    plan->enabled.core.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    plan->enabled.core.pNext = &plan->enabled.vulkan11;
    plan->enabled.vulkan11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
    plan->enabled.vulkan11.pNext = &plan->enabled.vulkan12;
    plan->enabled.vulkan12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    plan->enabled.vulkan12.pNext = &plan->enabled.vulkan13;
    plan->enabled.vulkan13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
    d3d12xs_select_vk_features(&supported, &plan->enabled);
    device->has_shader_int64 = plan->enabled.core.features.shaderInt64;
    device->has_shader_float64 = plan->enabled.core.features.shaderFloat64;
    device->has_pipeline_statistics = plan->enabled.core.features.pipelineStatisticsQuery;
    device->has_precise_occlusion = plan->enabled.core.features.occlusionQueryPrecise;
    device->compute_subgroup_size_control = device->compute_subgroup_size_control && plan->enabled.vulkan13.subgroupSizeControl;

    /* Descriptors reach shaders as push descriptors (docs/descriptors.md explains why). */
    if (!d3d12xs_device_has_extension(device, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME))
        return d3d12xs_fail(DXGI_ERROR_UNSUPPORTED, "D3D12CreateDevice", "%s lacks VK_KHR_push_descriptor (required)", device->vk_properties.deviceName);
    plan->extensions[plan->extension_count++] = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    device->push_descriptor_limit = push_properties.maxPushDescriptors;
    device->buffer_device_address = plan->enabled.vulkan12.bufferDeviceAddress;
    if ((device->has_buffer_marker = d3d12xs_device_has_extension(device, VK_AMD_BUFFER_MARKER_EXTENSION_NAME)))
        plan->extensions[plan->extension_count++] = VK_AMD_BUFFER_MARKER_EXTENSION_NAME;
    plan->has_host_memory = d3d12xs_device_has_extension(device, VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
    if (plan->has_host_memory) /* graphics memory from the CPU */
        plan->extensions[plan->extension_count++] = VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME;
    if ((device->has_calibrated_timestamps = d3d12xs_device_has_extension(device, VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME)))
        plan->extensions[plan->extension_count++] = VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME;

    /* The device clock bounds GPU-side memory waits (sync/gpu_wait.c). */
    plan->clock = (VkPhysicalDeviceShaderClockFeaturesKHR){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR};
    if (d3d12xs_device_has_extension(device, VK_KHR_SHADER_CLOCK_EXTENSION_NAME)) {
        VkPhysicalDeviceFeatures2 query = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &plan->clock};
        vkGetPhysicalDeviceFeatures2(device->vk_physical_device, &query);
        if ((device->has_shader_clock = plan->clock.shaderDeviceClock)) {
            plan->extensions[plan->extension_count++] = VK_KHR_SHADER_CLOCK_EXTENSION_NAME;
            plan->clock = (VkPhysicalDeviceShaderClockFeaturesKHR){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR,
                    .pNext = plan->enabled.vulkan13.pNext, .shaderDeviceClock = VK_TRUE};
            plan->enabled.vulkan13.pNext = &plan->clock;
        }
    }

    /* Samplers' custom border colours (D3D12_SAMPLER_DESC::BorderColor), where offered. */
    plan->border_color = (VkPhysicalDeviceCustomBorderColorFeaturesEXT){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_FEATURES_EXT};
    if (d3d12xs_device_has_extension(device, VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME)) {
        VkPhysicalDeviceFeatures2 query = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &plan->border_color};
        vkGetPhysicalDeviceFeatures2(device->vk_physical_device, &query);
        if ((device->has_custom_border_color = plan->border_color.customBorderColors && plan->border_color.customBorderColorWithoutFormat)) {
            plan->extensions[plan->extension_count++] = VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME;
            plan->border_color = (VkPhysicalDeviceCustomBorderColorFeaturesEXT){
                    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_FEATURES_EXT, .pNext = plan->enabled.vulkan13.pNext,
                    .customBorderColors = VK_TRUE, .customBorderColorWithoutFormat = VK_TRUE};
            plan->enabled.vulkan13.pNext = &plan->border_color;
        }
    }

    /* SRVs' ResourceMinLODClamp, where offered. */
    plan->min_lod = (VkPhysicalDeviceImageViewMinLodFeaturesEXT){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_VIEW_MIN_LOD_FEATURES_EXT};
    if (d3d12xs_device_has_extension(device, VK_EXT_IMAGE_VIEW_MIN_LOD_EXTENSION_NAME)) {
        VkPhysicalDeviceFeatures2 query = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &plan->min_lod};
        vkGetPhysicalDeviceFeatures2(device->vk_physical_device, &query);
        if ((device->has_image_view_min_lod = plan->min_lod.minLod)) {
            plan->extensions[plan->extension_count++] = VK_EXT_IMAGE_VIEW_MIN_LOD_EXTENSION_NAME;
            plan->min_lod = (VkPhysicalDeviceImageViewMinLodFeaturesEXT){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_VIEW_MIN_LOD_FEATURES_EXT,
                    .pNext = plan->enabled.vulkan13.pNext, .minLod = VK_TRUE};
            plan->enabled.vulkan13.pNext = &plan->min_lod;
        }
    }

    /* UAVs of some of a 3D texture's depth slices (D3D12_TEX3D_UAV FirstWSlice / WSize), where
     * offered. A validation layer that predates the extension copies each create-info chain
     * without the structures it does not know, so the driver would never see the slice range:
     * under such a layer the extension stays off (and those UAVs are refused, saying why). */
    plan->sliced_view_of_3d = (VkPhysicalDeviceImageSlicedViewOf3DFeaturesEXT){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_SLICED_VIEW_OF_3D_FEATURES_EXT};
    bool sliced_offered = d3d12xs_device_has_extension(device, VK_EXT_IMAGE_SLICED_VIEW_OF_3D_EXTENSION_NAME);
    device->sliced_view_of_3d_hidden_by_layer = sliced_offered && device->validation_enabled
            && device->validation_layer_version < D3D12XS_LAYER_KNOWS_SLICED_VIEW_OF_3D;
    if (sliced_offered && !device->sliced_view_of_3d_hidden_by_layer) {
        VkPhysicalDeviceFeatures2 query = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &plan->sliced_view_of_3d};
        vkGetPhysicalDeviceFeatures2(device->vk_physical_device, &query);
        if ((device->has_sliced_view_of_3d = plan->sliced_view_of_3d.imageSlicedViewOf3D)) {
            plan->extensions[plan->extension_count++] = VK_EXT_IMAGE_SLICED_VIEW_OF_3D_EXTENSION_NAME;
            plan->sliced_view_of_3d = (VkPhysicalDeviceImageSlicedViewOf3DFeaturesEXT){
                    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_SLICED_VIEW_OF_3D_FEATURES_EXT, .pNext = plan->enabled.vulkan13.pNext,
                    .imageSlicedViewOf3D = VK_TRUE};
            plan->enabled.vulkan13.pNext = &plan->sliced_view_of_3d;
        }
    }

    /* Shader model 6.6 compute derivatives. NV first: the extension and its SPIR-V name that
     * older validation layers know; the KHR one (Vulkan headers 1.3.295, lavapipe) has the same
     * feature structure, sType included. */
    static const char khr_compute_derivatives[] = "VK_KHR_compute_shader_derivatives";
    plan->compute_derivatives = (VkPhysicalDeviceComputeShaderDerivativesFeaturesNV){
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COMPUTE_SHADER_DERIVATIVES_FEATURES_NV};
    const char *derivative_extension = NULL;
    if (d3d12xs_device_has_extension(device, VK_NV_COMPUTE_SHADER_DERIVATIVES_EXTENSION_NAME))
        derivative_extension = VK_NV_COMPUTE_SHADER_DERIVATIVES_EXTENSION_NAME;
    else if (d3d12xs_device_has_extension(device, khr_compute_derivatives))
        derivative_extension = khr_compute_derivatives;
    if (derivative_extension) {
        VkPhysicalDeviceFeatures2 query = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &plan->compute_derivatives};
        vkGetPhysicalDeviceFeatures2(device->vk_physical_device, &query);
        device->compute_derivative_quads = plan->compute_derivatives.computeDerivativeGroupQuads;
        device->compute_derivative_linear = plan->compute_derivatives.computeDerivativeGroupLinear;
        if (device->compute_derivative_quads || device->compute_derivative_linear) {
            plan->extensions[plan->extension_count++] = derivative_extension;
            device->compute_derivatives_khr = derivative_extension == khr_compute_derivatives;
            plan->compute_derivatives.pNext = plan->enabled.vulkan13.pNext;
            plan->enabled.vulkan13.pNext = &plan->compute_derivatives;
        }
    }

    /* Typed buffer views at any element, as D3D12 allows, where one texel's alignment is enough:
     * the texel buffer alignment properties apply only with the feature enabled (the validation
     * layer checks it through VK_EXT_texel_buffer_alignment's struct), else the core limit does. */
    plan->texel_buffer_alignment = (VkPhysicalDeviceTexelBufferAlignmentFeaturesEXT){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXEL_BUFFER_ALIGNMENT_FEATURES_EXT};
    if (d3d12xs_device_has_extension(device, VK_EXT_TEXEL_BUFFER_ALIGNMENT_EXTENSION_NAME)) {
        VkPhysicalDeviceFeatures2 query = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &plan->texel_buffer_alignment};
        vkGetPhysicalDeviceFeatures2(device->vk_physical_device, &query);
    }
    if (plan->texel_buffer_alignment.texelBufferAlignment) {
        plan->extensions[plan->extension_count++] = VK_EXT_TEXEL_BUFFER_ALIGNMENT_EXTENSION_NAME;
        plan->texel_buffer_alignment = (VkPhysicalDeviceTexelBufferAlignmentFeaturesEXT){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXEL_BUFFER_ALIGNMENT_FEATURES_EXT,
                .pNext = plan->enabled.vulkan13.pNext, .texelBufferAlignment = VK_TRUE};
        plan->enabled.vulkan13.pNext = &plan->texel_buffer_alignment;
    } else {
        for (int i = 0; i < 2; i++) {
            device->texel_offset_alignment[i] = device->vk_properties.limits.minTexelBufferOffsetAlignment;
            device->texel_offset_single_texel[i] = false;
        }
    }

    d3d12xs_vk_device_plan_graphics(device, plan);
    d3d12xs_vk_device_plan_generated_commands(device, plan);

    if (!plan->enabled.vulkan12.bufferDeviceAddress || !plan->enabled.vulkan12.runtimeDescriptorArray || !plan->enabled.vulkan12.descriptorBindingVariableDescriptorCount
            || !plan->enabled.core.features.shaderStorageBufferArrayDynamicIndexing || !plan->enabled.core.features.shaderUniformBufferArrayDynamicIndexing
            || !plan->enabled.vulkan12.shaderStorageTexelBufferArrayDynamicIndexing || !plan->enabled.vulkan12.shaderUniformTexelBufferArrayDynamicIndexing
            || !plan->enabled.core.features.shaderSampledImageArrayDynamicIndexing
            || !plan->enabled.vulkan12.shaderStorageBufferArrayNonUniformIndexing || !plan->enabled.vulkan12.shaderUniformBufferArrayNonUniformIndexing
            || !plan->enabled.vulkan12.shaderStorageTexelBufferArrayNonUniformIndexing || !plan->enabled.vulkan12.shaderUniformTexelBufferArrayNonUniformIndexing
            || !plan->enabled.vulkan12.shaderSampledImageArrayNonUniformIndexing)
        return d3d12xs_fail(DXGI_ERROR_UNSUPPORTED, "D3D12CreateDevice", "%s lacks bufferDeviceAddress, runtimeDescriptorArray, "
                "descriptorBindingVariableDescriptorCount or dynamic and non-uniform indexing of buffer and sampler arrays (required: descriptor heaps "
                "are descriptor buffers that shaders index)", device->vk_properties.deviceName);
    return S_OK;
}

HRESULT d3d12xs_vk_device_create(struct d3d12_device *device, const struct d3d12xs_vk_device_plan *plan)
{
    VkDeviceCreateInfo create_info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &plan->enabled.core,
        .queueCreateInfoCount = plan->queue_info_count,
        .pQueueCreateInfos = plan->queue_infos,
        .enabledExtensionCount = plan->extension_count,
        .ppEnabledExtensionNames = plan->extensions,
    };
    VkResult vr;

    if ((vr = vkCreateDevice(device->vk_physical_device, &create_info, NULL, &device->vk_device)) != VK_SUCCESS)
        return d3d12xs_fail(E_FAIL, "D3D12CreateDevice", "vkCreateDevice failed (VkResult %d)", vr);

    for (int type = 0; type < 4; type++) {
        struct d3d12_queue_family_map *map = &device->queue_map[type];
        if (type == D3D12_COMMAND_LIST_TYPE_BUNDLE)
            continue;
        for (uint32_t i = 0; i < map->vk_queue_count; i++)
            vkGetDeviceQueue(device->vk_device, map->family, i, &map->vk_queues[i]);
    }
    if (!d3d12xs_vk_record_commands_load(device->vk_device, &device->vk_record))
        return d3d12xs_fail(E_FAIL, "D3D12CreateDevice", "the device lacks a core Vulkan 1.3 command entry point");
    device->vkCmdPushDescriptorSetKHR = (PFN_vkCmdPushDescriptorSetKHR)vkGetDeviceProcAddr(device->vk_device, "vkCmdPushDescriptorSetKHR");
    d3d12xs_vk_device_load_graphics(device);
    d3d12xs_vk_device_load_generated_commands(device);
    if (plan->has_host_memory)
        device->vkGetMemoryHostPointerPropertiesEXT = (PFN_vkGetMemoryHostPointerPropertiesEXT)vkGetDeviceProcAddr(device->vk_device,
                "vkGetMemoryHostPointerPropertiesEXT");
    if (device->has_buffer_marker)
        device->vkCmdWriteBufferMarker2AMD = (PFN_vkCmdWriteBufferMarker2AMD)vkGetDeviceProcAddr(device->vk_device, "vkCmdWriteBufferMarker2AMD");
    if (!device->vkCmdWriteBufferMarker2AMD)
        device->has_buffer_marker = false;
    if (device->has_calibrated_timestamps) {
        device->vkGetCalibratedTimestampsEXT = (PFN_vkGetCalibratedTimestampsEXT)vkGetDeviceProcAddr(device->vk_device, "vkGetCalibratedTimestampsEXT");
        device->vkGetPhysicalDeviceCalibrateableTimeDomainsEXT = (PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsEXT)
                vkGetInstanceProcAddr(device->vk_instance, "vkGetPhysicalDeviceCalibrateableTimeDomainsEXT");
        if (!device->vkGetCalibratedTimestampsEXT)
            device->has_calibrated_timestamps = false;
    }
    return S_OK;
}