/* SYSTEM_TIMESTAMP value writes (system_timestamp.h). */
#include <stdlib.h>
#include <string.h>

#include "commands/system_timestamp.h"
#include "device/gpu_clock.h"
#include "device/internal_pipeline.h"
#include "system_timestamp_spirv.h"

struct d3d12_system_timestamps {
    struct d3d12xs_internal_layout layout; /* ticks, destination; struct calibration_constants */
    VkPipeline pipeline;
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

static bool create_pipeline(struct d3d12_device *device, struct d3d12_system_timestamps *timestamps)
{
    return d3d12xs_internal_layout_create(device, 2, sizeof(struct calibration_constants), &timestamps->layout)
            && d3d12xs_internal_pipeline_create(device, &timestamps->layout, d3d12_system_timestamp_spirv,
                    sizeof(d3d12_system_timestamp_spirv), &timestamps->pipeline);
}

void d3d12_system_timestamps_create(struct d3d12_device *device)
{
    struct d3d12_system_timestamps *timestamps = calloc(1, sizeof(*timestamps));

    if (!(device->system_timestamps = timestamps))
        return;
    if (!d3d12xs_gpu_clock_available(device))
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
    d3d12xs_internal_layout_destroy(device, &timestamps->layout);
    free(timestamps);
    device->system_timestamps = NULL;
}

const char *d3d12_system_timestamps_unavailable(const struct d3d12_device *device)
{
    if (!device->system_timestamps)
        return "out of memory when the device was created";
    return device->system_timestamps->unavailable;
}

void d3d12_system_timestamp_record(struct d3d12_device *device, VkCommandBuffer command_buffer, VkBuffer ticks_buffer, uint64_t ticks_offset,
        VkBuffer destination, uint64_t offset)
{
    struct d3d12_system_timestamps *timestamps = device->system_timestamps;
    struct calibration_constants constants = {.ns_per_tick = device->vk_properties.limits.timestampPeriod};
    VkDescriptorBufferInfo buffer_infos[2] = {
        {ticks_buffer, ticks_offset, 8},
        d3d12xs_internal_value_range(device, destination, offset, 8, &constants.index),
    };
    VkWriteDescriptorSet writes[2] = {
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = 0, .descriptorCount = 1,
                .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &buffer_infos[0]},
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = 1, .descriptorCount = 1,
                .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &buffer_infos[1]},
    };

    d3d12xs_gpu_clock_calibration(device, &constants.gpu_reference, &constants.host_reference);
    device->vk_record.vkCmdBindPipeline(command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, timestamps->pipeline);
    device->vkCmdPushDescriptorSetKHR(command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, timestamps->layout.layout, 0, 2, writes);
    device->vk_record.vkCmdPushConstants(command_buffer, timestamps->layout.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(constants), &constants);
    device->vk_record.vkCmdDispatch(command_buffer, 1, 1, 1);
}
