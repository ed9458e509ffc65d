/* Root arguments through memory (root signatures with FORCE_MEMORY_BASED_ABI / RAYTRACING):
 * at Dispatch record time the root constants are copied into the allocator's argument memory
 * and that copy is bound as the uniform buffer the pipeline's shader reads them from
 * (spirv_memory_abi.c). */
#include <string.h>

#include "command_recording.h"

bool d3d12_command_list_write_memory_arguments(struct d3d12_command_list *list, const char *command)
{
    const struct d3d12_pipeline_state *pipeline = list->compute.pipeline;
    uint32_t size = list->compute.root_signature->push_constant_size;
    VkDescriptorBufferInfo buffer_info = {VK_NULL_HANDLE, 0, size};
    void *data;

    if (FAILED(d3d12_argument_ring_allocate(list->object.device, &list->allocator->arguments, size, &buffer_info.buffer,
            &buffer_info.offset, &data, command))) {
        d3d12_command_list_record_error(list, command, "cannot allocate %u bytes of root argument memory", size);
        return false;
    }
    memcpy(data, list->compute.push_constants, size);
    VkWriteDescriptorSet write = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstBinding = pipeline->argument_binding,
        .descriptorCount = 1,
        .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
        .pBufferInfo = &buffer_info,
    };
    list->object.device->vkCmdPushDescriptorSetKHR(list->vk_command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline->vk_layout, 0,
            1, &write);
    return true;
}
