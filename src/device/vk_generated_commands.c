/* VK_EXT_device_generated_commands, where the device offers it with bufferDeviceAddress and
 * VK_KHR_maintenance5 (which it requires, and whose buffer usage flags give the preprocess memory
 * its usage: commands/transient_memory.c):
 * ExecuteIndirect's command signatures that change vertex or index buffers or root constants run
 * as Vulkan's generated commands (commands/command_list_generated.c). D3D12XS_NO_GENERATED_COMMANDS=1
 * leaves it off, as on a device without it (such signatures then fail Close with E_NOTIMPL). */
#include <string.h>

#include "device/vk_device_create.h"

void d3d12xs_vk_device_plan_generated_commands(struct d3d12_device *device, struct d3d12xs_vk_device_plan *plan)
{
    struct d3d12xs_generated_commands_caps *caps = &device->generated_commands;
    VkPhysicalDeviceDeviceGeneratedCommandsPropertiesEXT properties = {
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEVICE_GENERATED_COMMANDS_PROPERTIES_EXT};
    VkPhysicalDeviceProperties2 query_properties = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &properties};
    VkPhysicalDeviceFeatures2 query_features = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &plan->generated_commands};

    memset(caps, 0, sizeof(*caps));
    plan->generated_commands = (VkPhysicalDeviceDeviceGeneratedCommandsFeaturesEXT){
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEVICE_GENERATED_COMMANDS_FEATURES_EXT};
    if (device->config.no_generated_commands || !plan->enabled.vulkan12.bufferDeviceAddress
            || !d3d12xs_device_has_extension(device, D3D12XS_VK_DEVICE_GENERATED_COMMANDS_EXTENSION_NAME)
            || !d3d12xs_device_has_extension(device, D3D12XS_VK_MAINTENANCE_5_EXTENSION_NAME))
        return;
    plan->maintenance5 = (VkPhysicalDeviceMaintenance5FeaturesKHR){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_5_FEATURES_KHR};
    plan->generated_commands.pNext = &plan->maintenance5;
    vkGetPhysicalDeviceFeatures2(device->vk_physical_device, &query_features);
    if (!plan->generated_commands.deviceGeneratedCommands || !plan->maintenance5.maintenance5)
        return;
    vkGetPhysicalDeviceProperties2(device->vk_physical_device, &query_properties);
    caps->enabled = true;
    caps->max_sequence_count = properties.maxIndirectSequenceCount;
    caps->max_token_count = properties.maxIndirectCommandsTokenCount;
    caps->max_token_offset = properties.maxIndirectCommandsTokenOffset;
    caps->max_stride = properties.maxIndirectCommandsIndirectStride;
    caps->stages = properties.supportedIndirectCommandsShaderStages;
    caps->transform_feedback = properties.deviceGeneratedCommandsTransformFeedback;
    plan->extensions[plan->extension_count++] = D3D12XS_VK_DEVICE_GENERATED_COMMANDS_EXTENSION_NAME;
    plan->maintenance5 = (VkPhysicalDeviceMaintenance5FeaturesKHR){
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_5_FEATURES_KHR, .pNext = plan->enabled.vulkan13.pNext,
            .maintenance5 = VK_TRUE};
    /* by name: d3d12xs asks for Vulkan 1.3, where maintenance5 is an extension */
    plan->extensions[plan->extension_count++] = D3D12XS_VK_MAINTENANCE_5_EXTENSION_NAME;
    plan->generated_commands = (VkPhysicalDeviceDeviceGeneratedCommandsFeaturesEXT){
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEVICE_GENERATED_COMMANDS_FEATURES_EXT, .pNext = &plan->maintenance5,
            .deviceGeneratedCommands = VK_TRUE};
    plan->enabled.vulkan13.pNext = &plan->generated_commands;
}

void d3d12xs_vk_device_load_generated_commands(struct d3d12_device *device)
{
    struct d3d12xs_generated_commands_caps *caps = &device->generated_commands;

    if (!caps->enabled)
        return;
    caps->vkGetGeneratedCommandsMemoryRequirementsEXT = (void *)vkGetDeviceProcAddr(device->vk_device,
            "vkGetGeneratedCommandsMemoryRequirementsEXT");
    caps->vkCmdExecuteGeneratedCommandsEXT = (void *)vkGetDeviceProcAddr(device->vk_device, "vkCmdExecuteGeneratedCommandsEXT");
    caps->vkCreateIndirectCommandsLayoutEXT = (void *)vkGetDeviceProcAddr(device->vk_device, "vkCreateIndirectCommandsLayoutEXT");
    caps->vkDestroyIndirectCommandsLayoutEXT = (void *)vkGetDeviceProcAddr(device->vk_device, "vkDestroyIndirectCommandsLayoutEXT");
    if (!caps->vkGetGeneratedCommandsMemoryRequirementsEXT || !caps->vkCmdExecuteGeneratedCommandsEXT
            || !caps->vkCreateIndirectCommandsLayoutEXT || !caps->vkDestroyIndirectCommandsLayoutEXT)
        caps->enabled = false;
}
