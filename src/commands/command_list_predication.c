/* SetPredication. D3D12's predicate is a 64-bit value in a buffer; Vulkan's conditional rendering
 * (VK_EXT_conditional_rendering) reads 32 bits. So SetPredication records one internal thread that
 * folds the value into a condition, 1 where it is not zero, in the allocator's argument memory;
 * the predicated calls then run under that condition (EQUAL_ZERO: they run where the value is not
 * zero; NOT_EQUAL_ZERO: inverted). The value is read once, at SetPredication: D3D12 keeps the
 * buffer in the PREDICATION state, where nothing writes it, while the predicate is set.
 * Conditional rendering covers draws, dispatches and vkCmdClearAttachments (render-target and
 * depth-stencil clears go through it while predicated); buffer copies of whole words become a
 * dispatch under the condition (d3d12_command_list_copy_buffer_predicated); texture copies,
 * resolves, UAV clears and buffer copies of partial words are staged around that same dispatch
 * (command_list_predicated_write.c). */
#include <stdlib.h>

#include "command_recording.h"
#include "commands/predication.h"
#include "device/internal_pipeline.h"
#include "predicate_fold_spirv.h"
#include "predicated_copy_spirv.h"

struct d3d12_predicate_fold {
    struct d3d12xs_internal_layout layout; /* predicate, condition; struct fold_indexes (or copy_range) */
    VkPipeline pipeline;
    VkPipeline copy_pipeline;              /* predicated buffer copies (predicated_copy.comp) */
};

/* predicated_copy.comp's push constants. */
struct copy_range {
    uint32_t source_index, destination_index, count;
};

/* The shader's push constants (src/commands/shaders/predicate_fold.comp). */
struct fold_indexes {
    uint32_t predicate_index;
    uint32_t condition_index;
    uint32_t clear_high;
};

void d3d12_predicate_fold_create(struct d3d12_device *device)
{
    struct d3d12_predicate_fold *fold;

    /* BINARY_OCCLUSION queries fold their counts with it on every device. */
    if (!(fold = calloc(1, sizeof(*fold))))
        return;
    if (!d3d12xs_internal_layout_create(device, 2, sizeof(struct fold_indexes), &fold->layout)
            || !d3d12xs_internal_pipeline_create(device, &fold->layout, d3d12_predicate_fold_spirv, sizeof(d3d12_predicate_fold_spirv),
                    &fold->pipeline)
            || !d3d12xs_internal_pipeline_create(device, &fold->layout, d3d12_predicated_copy_spirv, sizeof(d3d12_predicated_copy_spirv),
                    &fold->copy_pipeline)) {
        vkDestroyPipeline(device->vk_device, fold->pipeline, NULL);
        d3d12xs_internal_layout_destroy(device, &fold->layout);
        free(fold);
        return;
    }
    device->predicate_fold = fold;
}

void d3d12_predicate_fold_destroy(struct d3d12_device *device)
{
    struct d3d12_predicate_fold *fold = device->predicate_fold;

    if (!fold)
        return;
    vkDestroyPipeline(device->vk_device, fold->pipeline, NULL);
    vkDestroyPipeline(device->vk_device, fold->copy_pipeline, NULL);
    d3d12xs_internal_layout_destroy(device, &fold->layout);
    free(fold);
    device->predicate_fold = NULL;
}

void d3d12_command_list_fold_value(struct d3d12_command_list *list, VkCommandBuffer command_buffer, VkBuffer source, uint64_t offset,
        VkBuffer destination, VkDeviceSize destination_offset, bool clear_high)
{
    struct d3d12_device *device = list->object.device;
    const struct d3d12_predicate_fold *fold = device->predicate_fold;
    uint64_t alignment = device->vk_properties.limits.minStorageBufferOffsetAlignment;
    uint64_t base = alignment > 1 ? offset / alignment * alignment : offset;
    struct fold_indexes indexes = {(uint32_t)((offset - base) / 4), 0, clear_high};
    VkDescriptorBufferInfo buffer_infos[2] = {
        {source, base, offset - base + 8},
        d3d12xs_internal_value_range(device, destination, destination_offset, 4, &indexes.condition_index),
    };
    VkWriteDescriptorSet writes[2] = {
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = 0, .descriptorCount = 1,
                .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &buffer_infos[0]},
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = 1, .descriptorCount = 1,
                .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &buffer_infos[1]},
    };

    if (clear_high)
        buffer_infos[1].range += 4;
    device->vk_record.vkCmdBindPipeline(command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, fold->pipeline);
    device->vkCmdPushDescriptorSetKHR(command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, fold->layout.layout, 0, 2, writes);
    device->vk_record.vkCmdPushConstants(command_buffer, fold->layout.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(indexes), &indexes);
    device->vk_record.vkCmdDispatch(command_buffer, 1, 1, 1);
}

/* Records the fold of the predicate at predicate + offset into condition + condition_offset. */
static void record_fold(struct d3d12_command_list *list, VkBuffer predicate, uint64_t offset, VkBuffer condition, VkDeviceSize condition_offset)
{
    VkCommandBuffer command_buffer = d3d12_command_list_begin_internal(list);

    /* The application's barrier into PREDICATION waits in the indirect-argument stage; this read
     * is a shader's: it waits for the writes no barrier has ordered before compute yet. */
    d3d12_barriers_before(&list->barriers, command_buffer, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
    d3d12_barriers_after_unordered(&list->barriers, command_buffer, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
            VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    d3d12_command_list_fold_value(list, command_buffer, predicate, offset, condition, condition_offset, false);
    /* the condition, before the commands that read it */
    d3d12_barriers_emit(&list->barriers, command_buffer, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
            VK_PIPELINE_STAGE_2_CONDITIONAL_RENDERING_BIT_EXT, VK_ACCESS_2_CONDITIONAL_RENDERING_READ_BIT_EXT);
    d3d12_command_list_end_internal(list);
}

void STDMETHODCALLTYPE d3d12_command_list_SetPredication(ID3D12GraphicsCommandList10 *iface, ID3D12Resource *buffer_iface, UINT64 offset,
        D3D12_PREDICATION_OP operation)
{
    static const char command[] = "ID3D12GraphicsCommandList::SetPredication";
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    struct d3d12_resource *buffer;
    VkBuffer condition;
    VkDeviceSize condition_offset;
    void *mapped;

    if (!d3d12_command_list_check_recording(list, command))
        return;
    if (list->type != D3D12_COMMAND_LIST_TYPE_DIRECT && list->type != D3D12_COMMAND_LIST_TYPE_COMPUTE) {
        d3d12_command_list_record_error(list, command, "only DIRECT and COMPUTE lists predicate (this is a COPY list)");
        return;
    }
    if (!buffer_iface) {
        list->predication.active = false;
        return;
    }
    if (operation != D3D12_PREDICATION_OP_EQUAL_ZERO && operation != D3D12_PREDICATION_OP_NOT_EQUAL_ZERO) {
        d3d12_command_list_record_error(list, command, "Operation %d is not a D3D12_PREDICATION_OP", (int)operation);
        return;
    }
    if (!(buffer = unsafe_impl_from_ID3D12Resource(buffer_iface)) || buffer->object.device != list->object.device || buffer->vk_image) {
        d3d12_command_list_record_error(list, command, "pBuffer is %s", !buffer ? "not a d3d12xs resource"
                : buffer->vk_image ? "a texture (the predicate is a 64-bit value in a buffer)" : "a resource of another device");
        return;
    }
    if (offset % 8 || offset > buffer->desc.Width || buffer->desc.Width - offset < 8) {
        d3d12_command_list_record_error(list, command, "AlignedBufferOffset %llu is not a multiple of 8 with the 64-bit value within the "
                "%llu-byte pBuffer", (unsigned long long)offset, (unsigned long long)buffer->desc.Width);
        return;
    }
    if (!list->object.device->graphics.conditional_rendering || !list->object.device->predicate_fold) {
        d3d12_command_list_record_unsupported(list, command, "%s has no conditional rendering (VK_EXT_conditional_rendering), which "
                "predication needs", list->object.device->vk_properties.deviceName);
        return;
    }
    if (FAILED(d3d12_argument_ring_allocate(list->object.device, &list->allocator->arguments, 4, &condition, &condition_offset, &mapped,
            command))) {
        d3d12_command_list_record_error(list, command, "out of memory for the predicate's condition");
        return;
    }
    record_fold(list, buffer->vk_buffer, offset, condition, condition_offset);
    list->predication = (struct d3d12_predication){true, operation == D3D12_PREDICATION_OP_NOT_EQUAL_ZERO, condition, condition_offset};
}

/* The storage-buffer range from offset's aligned base for size bytes; *index: offset's word in it. */
static VkDescriptorBufferInfo word_range(const struct d3d12_device *device, VkBuffer buffer, uint64_t offset, uint64_t size, uint32_t *index)
{
    uint64_t alignment = device->vk_properties.limits.minStorageBufferOffsetAlignment;
    uint64_t base = alignment > 1 ? offset / alignment * alignment : offset;
    *index = (uint32_t)((offset - base) / 4);
    return (VkDescriptorBufferInfo){buffer, base, offset - base + size};
}

bool d3d12_command_list_copy_buffer_predicated(struct d3d12_command_list *list, const char *command, VkBuffer dst, uint64_t dst_offset,
        VkBuffer src, uint64_t src_offset, uint64_t size)
{
    /* 2^21 words a dispatch: 32768 groups of 64, within every device's group count and range limits */
    const uint64_t chunk = (uint64_t)1 << 23;
    struct d3d12_device *device = list->object.device;
    const struct d3d12_predicate_fold *fold = device->predicate_fold;
    VkCommandBuffer command_buffer;

    if ((dst_offset | src_offset | size) % 4) {
        d3d12_command_list_record_unsupported(list, command, "is predicated (SetPredication), and d3d12xs copies under a predicate only "
                "whole 32-bit words (offsets %llu and %llu, %llu bytes)", (unsigned long long)dst_offset, (unsigned long long)src_offset,
                (unsigned long long)size);
        return false;
    }
    command_buffer = d3d12_command_list_begin_internal(list);
    /* The application's barriers into COPY_SOURCE and COPY_DEST wait in the transfer stage; this
     * copy is a shader's: it waits for the writes no barrier has ordered before compute yet. Later
     * barriers out of COPY_DEST wait for the compute stage it is recorded in. */
    d3d12_barriers_before(&list->barriers, command_buffer, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
    d3d12_barriers_after_unordered(&list->barriers, command_buffer, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
            VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    device->vk_record.vkCmdBindPipeline(command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, fold->copy_pipeline);
    for (uint64_t done = 0; done < size; done += chunk) {
        uint64_t bytes = size - done < chunk ? size - done : chunk;
        struct copy_range range = {0, 0, (uint32_t)(bytes / 4)};
        VkDescriptorBufferInfo buffer_infos[2] = {
            word_range(device, src, src_offset + done, bytes, &range.source_index),
            word_range(device, dst, dst_offset + done, bytes, &range.destination_index),
        };
        VkWriteDescriptorSet writes[2] = {
            {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = 0, .descriptorCount = 1,
                    .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &buffer_infos[0]},
            {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = 1, .descriptorCount = 1,
                    .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &buffer_infos[1]},
        };
        device->vkCmdPushDescriptorSetKHR(command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, fold->layout.layout, 0, 2, writes);
        device->vk_record.vkCmdPushConstants(command_buffer, fold->layout.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(range), &range);
        d3d12_command_list_begin_predicated(list);
        device->vk_record.vkCmdDispatch(command_buffer, (range.count + 63) / 64, 1, 1);
        d3d12_command_list_end_predicated(list);
    }
    d3d12_command_list_end_internal(list);
    return true;
}
