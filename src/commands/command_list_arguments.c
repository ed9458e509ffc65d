/* Root arguments through memory (root signatures with FORCE_MEMORY_BASED_ABI / RAYTRACING):
 * at Dispatch record time the root constants and the root descriptors' D3D12 addresses are
 * copied into the allocator's argument memory and that copy is bound as the uniform buffer the
 * pipeline's shader reads them from (spirv_memory_abi.c, spirv_root_pointers.c); the shader
 * translates the addresses through the device's GPU virtual address table (memory/va_map.c). */
#include <string.h>

#include "command_recording.h"

bool d3d12_command_list_write_memory_arguments(struct d3d12_command_list *list, enum d3d12_bind_point bind_point, const char *command)
{
    static const VkPipelineBindPoint vk_bind_points[D3D12_BIND_POINT_COUNT] = {VK_PIPELINE_BIND_POINT_COMPUTE, VK_PIPELINE_BIND_POINT_GRAPHICS};
    const struct d3d12_bind_point_state *point = &list->bindings.points[bind_point];
    const struct d3d12_pipeline_state *pipeline = list->bindings.pipeline;
    uint32_t size = pipeline->argument_size, constants = point->root_signature->push_constant_size;
    VkDescriptorBufferInfo buffer_info = {VK_NULL_HANDLE, 0, size};
    uint64_t table = d3d12xs_va_table_address(list->object.device);
    uint8_t *data;
    void *slice;

    if (FAILED(d3d12_argument_ring_allocate(list->object.device, &list->allocator->arguments, size, &buffer_info.buffer,
            &buffer_info.offset, &slice, command))) {
        d3d12_command_list_record_error(list, command, "cannot allocate %u bytes of root argument memory", size);
        return false;
    }
    data = slice;
    memcpy(data, point->push_constants, constants < size ? constants : size);
    /* One entry per root descriptor: VA low and high, the address table's device address low
     * and high. The table's address rides in every entry, not in a push or specialisation
     * constant: the prologue loads the entry anyway, so it costs the shader no extra load, the
     * layout needs no new binding, and pipelines stay free of device addresses. */
    for (uint32_t k = 0; k < pipeline->address_count; k++) {
        uint64_t va = point->root_addresses[k];
        uint32_t entry[4] = {(uint32_t)va, (uint32_t)(va >> 32), (uint32_t)table, (uint32_t)(table >> 32)};
        memcpy(data + pipeline->address_offset + 16 * k, entry, sizeof(entry));
    }
    VkWriteDescriptorSet write = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstBinding = pipeline->argument_binding,
        .descriptorCount = 1,
        .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
        .pBufferInfo = &buffer_info,
    };
    list->object.device->vkCmdPushDescriptorSetKHR(list->vk_command_buffer, vk_bind_points[bind_point], pipeline->vk_layout, pipeline->push_set,
            1, &write);
    return true;
}
