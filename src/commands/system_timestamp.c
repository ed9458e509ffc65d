/* SYSTEM_TIMESTAMP value writes (system_timestamp.h). */
#include <stdlib.h>
#include <string.h>

#include "commands/system_timestamp.h"
#include "system_timestamp_spirv.h"

/* GPU and host clocks drift apart slowly; a pair older than this is taken again. */
#define RECALIBRATE_NS (100ull * 1000 * 1000)

struct d3d12_system_timestamps {
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    pthread_mutex_t lock;
    uint64_t gpu_reference, host_reference, calibrated_at_ns;
    const char *unavailable; /* why SYSTEM_TIMESTAMP cannot be written, or NULL */
};

/* The shader's push constants (src/commands/shaders/system_timestamp.comp). */
struct calibration_constants {
    uint64_t gpu_reference;
    uint64_t host_reference;
    double ns_per_tick;
    uint32_t index;
    uint32_t unused;
};

static bool has_time_domains(struct d3d12_device *device)
{
    VkTimeDomainEXT domains[8];
    uint32_t count = 8;
    bool device_domain = false, monotonic = false;

    if (!device->has_calibrated_timestamps || !device->vkGetPhysicalDeviceCalibrateableTimeDomainsEXT)
        return false;
    if (device->vkGetPhysicalDeviceCalibrateableTimeDomainsEXT(device->vk_physical_device, &count, domains) < 0)
        return false;
    for (uint32_t i = 0; i < count; i++) {
        device_domain |= domains[i] == VK_TIME_DOMAIN_DEVICE_EXT;
        monotonic |= domains[i] == VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT;
    }
    return device_domain && monotonic;
}

static bool create_pipeline(struct d3d12_device *device, struct d3d12_system_timestamps *timestamps)
{
    VkDescriptorSetLayoutBinding bindings[2] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    };
    VkDescriptorSetLayoutCreateInfo set_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR,
        .bindingCount = 2,
        .pBindings = bindings,
    };
    VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(struct calibration_constants)};
    VkPipelineLayoutCreateInfo layout_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1,
        .pSetLayouts = &timestamps->set_layout,
        .pushConstantRangeCount = 1,
        .pPushConstantRanges = &range,
    };
    VkShaderModuleCreateInfo module_info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = sizeof(d3d12_system_timestamp_spirv),
        .pCode = d3d12_system_timestamp_spirv,
    };
    VkShaderModule module;
    bool ok;

    if (vkCreateDescriptorSetLayout(device->vk_device, &set_info, NULL, &timestamps->set_layout) != VK_SUCCESS
            || vkCreatePipelineLayout(device->vk_device, &layout_info, NULL, &timestamps->layout) != VK_SUCCESS
            || vkCreateShaderModule(device->vk_device, &module_info, NULL, &module) != VK_SUCCESS)
        return false;
    VkComputePipelineCreateInfo pipeline_info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = VK_SHADER_STAGE_COMPUTE_BIT,
            .module = module,
            .pName = "main",
        },
        .layout = timestamps->layout,
    };
    ok = vkCreateComputePipelines(device->vk_device, VK_NULL_HANDLE, 1, &pipeline_info, NULL, &timestamps->pipeline) == VK_SUCCESS;
    vkDestroyShaderModule(device->vk_device, module, NULL);
    return ok;
}

void d3d12_system_timestamps_create(struct d3d12_device *device)
{
    struct d3d12_system_timestamps *timestamps = calloc(1, sizeof(*timestamps));

    if (!(device->system_timestamps = timestamps))
        return;
    pthread_mutex_init(&timestamps->lock, NULL);
    if (!has_time_domains(device))
        timestamps->unavailable = "the Vulkan device cannot calibrate its clock against CLOCK_MONOTONIC (VK_EXT_calibrated_timestamps)";
    else if (!device->has_shader_int64 || !device->has_shader_float64)
        timestamps->unavailable = "the Vulkan device lacks shaderInt64 or shaderFloat64, which the clock conversion needs";
    else if (!create_pipeline(device, timestamps))
        timestamps->unavailable = "the clock conversion pipeline could not be created";
}

void d3d12_system_timestamps_destroy(struct d3d12_device *device)
{
    struct d3d12_system_timestamps *timestamps = device->system_timestamps;
    if (!timestamps)
        return;
    vkDestroyPipeline(device->vk_device, timestamps->pipeline, NULL);
    vkDestroyPipelineLayout(device->vk_device, timestamps->layout, NULL);
    vkDestroyDescriptorSetLayout(device->vk_device, timestamps->set_layout, NULL);
    pthread_mutex_destroy(&timestamps->lock);
    free(timestamps);
    device->system_timestamps = NULL;
}

const char *d3d12_system_timestamps_unavailable(const struct d3d12_device *device)
{
    if (!device->system_timestamps)
        return "out of memory when the device was created";
    return device->system_timestamps->unavailable;
}

/* A GPU/host clock pair no older than RECALIBRATE_NS. */
static void calibration(struct d3d12_device *device, uint64_t *gpu_reference, uint64_t *host_reference)
{
    struct d3d12_system_timestamps *timestamps = device->system_timestamps;
    VkCalibratedTimestampInfoEXT infos[2] = {
        {.sType = VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, .timeDomain = VK_TIME_DOMAIN_DEVICE_EXT},
        {.sType = VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, .timeDomain = VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT},
    };
    uint64_t now = d3d12xs_now_ns(), pair[2], deviation;

    pthread_mutex_lock(&timestamps->lock);
    if (!timestamps->calibrated_at_ns || now - timestamps->calibrated_at_ns > RECALIBRATE_NS) {
        if (device->vkGetCalibratedTimestampsEXT(device->vk_device, 2, infos, pair, &deviation) == VK_SUCCESS) {
            timestamps->gpu_reference = pair[0];
            timestamps->host_reference = pair[1];
            timestamps->calibrated_at_ns = now;
        } else {
            WARN("vkGetCalibratedTimestampsEXT failed: SYSTEM_TIMESTAMP values use the previous calibration");
        }
    }
    *gpu_reference = timestamps->gpu_reference;
    *host_reference = timestamps->host_reference;
    pthread_mutex_unlock(&timestamps->lock);
}

void d3d12_system_timestamp_record(struct d3d12_device *device, VkCommandBuffer command_buffer, VkBuffer ticks_buffer, uint64_t ticks_offset,
        VkBuffer destination, uint64_t offset)
{
    struct d3d12_system_timestamps *timestamps = device->system_timestamps;
    uint64_t alignment = device->vk_properties.limits.minStorageBufferOffsetAlignment;
    uint64_t base = alignment > 1 ? offset / alignment * alignment : offset;
    VkDescriptorBufferInfo buffer_infos[2] = {
        {ticks_buffer, ticks_offset, 8},
        {destination, base, offset - base + 8},
    };
    VkWriteDescriptorSet writes[2] = {
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = 0, .descriptorCount = 1,
                .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &buffer_infos[0]},
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = 1, .descriptorCount = 1,
                .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &buffer_infos[1]},
    };
    struct calibration_constants constants = {
        .ns_per_tick = device->vk_properties.limits.timestampPeriod,
        .index = (uint32_t)((offset - base) / 8),
    };

    calibration(device, &constants.gpu_reference, &constants.host_reference);
    vkCmdBindPipeline(command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, timestamps->pipeline);
    device->vkCmdPushDescriptorSetKHR(command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, timestamps->layout, 0, 2, writes);
    vkCmdPushConstants(command_buffer, timestamps->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(constants), &constants);
    vkCmdDispatch(command_buffer, 1, 1, 1);
}
