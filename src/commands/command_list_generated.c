/* ExecuteIndirect of a signature that changes vertex or index buffers or root constants:
 * Vulkan's generated commands over the layout the signature made (command_signature.c). Where the
 * signature sets vertex or index buffers, an internal pass first copies the commands with their
 * views' D3D12 addresses turned into device addresses (shaders/indirect_translate.comp); the
 * generated commands read that copy, else the argument buffer in place. Where it sets root views,
 * the pipeline's variant that reads them from the push block runs the commands. The count buffer is
 * Vulkan's sequence count. After it the bind point's push constants (root constants, table
 * starts) are pushed again at the next draw or dispatch, and the vertex and index buffers the
 * signature set are bound again from the list's own, as D3D12 leaves what the signature changed
 * undefined and everything else as it was. */
#include <stdlib.h>
#include <string.h>

#include "command_recording.h"
#include "command_list_flush.h"
#include "commands/command_list_generated.h"
#include "commands/command_list_graphics.h"
#include "commands/command_signature.h"
#include "commands/generated_layout.h"
#include "commands/indirect_flush.h"
#include "device/internal_pipeline.h"
#include "indirect_translate_spirv.h"
#include "memory/resource.h"
#include "memory/va_map.h"
#include "pipelines/graphics_pipeline.h"
#include "pipelines/pipeline_state.h"

/* indirect_translate.comp's push constants */
struct translate_batch {
    uint32_t argument_index, stride_words, size, command_index, entry_index, entry_count;
    uint64_t table, null_address;
    uint32_t null_size, padding;
};

/* Where generated commands read their inputs (the commands, the count): the draw-indirect stage,
 * as for indirect draws. A barrier that also named the implicit preprocessing's own stage
 * (COMMAND_PREPROCESS) hung the H100 at the first ExecuteIndirect after a write was pending
 * (docs/indirect.md): it is not used. */
#define GENERATED_INPUT_STAGES VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT
#define GENERATED_INPUT_ACCESS VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT

/* The argument bytes one batch binds stay within every device's storage buffer range (at least
 * 2^27 bytes), with room for the offset's alignment; its threads within one dispatch's groups. */
#define TRANSLATE_BATCH_RANGE ((1u << 27) - 4096u)
#define TRANSLATE_BATCH_COMMANDS (65535u * 64u)

/* indirect_translate.comp: the arguments, the commands and the entries; struct translate_batch. */
void d3d12_indirect_translate_create(struct d3d12_device *device)
{
    if (device->generated_commands.enabled && device->has_shader_int64 && d3d12xs_va_table_address(device))
        device->indirect_translate = d3d12xs_internal_pass_create(device, 3, sizeof(struct translate_batch), d3d12_indirect_translate_spirv,
                sizeof(d3d12_indirect_translate_spirv));
}

void d3d12_indirect_translate_destroy(struct d3d12_device *device)
{
    d3d12xs_internal_pass_destroy(device, device->indirect_translate);
    device->indirect_translate = NULL;
}

static VkDeviceAddress buffer_address(const struct d3d12_device *device, const struct d3d12_resource *resource)
{
    VkBufferDeviceAddressInfo info = {VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, NULL, resource->vk_buffer};
    return resource->device_address ? resource->device_address : vkGetBufferDeviceAddress(device->vk_device, &info);
}

/* The translation pass: count commands from the argument buffer into *stream, made visible to
 * the draw-indirect stage. False after the error. */
static bool translate_commands(struct d3d12_command_list *list, const char *command, const struct d3d12_command_signature *signature,
        uint32_t count, const struct d3d12_resource *arguments, UINT64 argument_offset, VkDeviceAddress *stream)
{
    struct d3d12_device *device = list->object.device;
    const struct d3d12_generated_layout *layout = signature->generated;
    const struct d3d12xs_internal_pass *pass = device->indirect_translate;
    uint64_t alignment = device->vk_properties.limits.minStorageBufferOffsetAlignment;
    uint32_t stride = signature->byte_stride, batch_size;
    VkBufferDeviceAddressInfo null_info = {VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, NULL, device->null_buffer};
    VkBuffer output, entries;
    VkDeviceSize output_offset, entries_offset;
    void *mapped;
    VkCommandBuffer cb;

    if (!pass) {
        d3d12_command_list_record_unsupported(list, command, "the command signature sets vertex or index buffers, and the pass that "
                "translates their addresses could not be made on %s (it needs shaderInt64 and bufferDeviceAddress)",
                device->vk_properties.deviceName);
        return false;
    }
    if (FAILED(d3d12_transient_memory_allocate(device, &list->allocator->transient, (VkDeviceSize)count * stride, alignment, &output,
            &output_offset, stream, command))
            || FAILED(d3d12_argument_ring_allocate(device, &list->allocator->arguments, layout->entry_count * 4, &entries, &entries_offset,
                    &mapped, command))) {
        d3d12_command_list_record_error(list, command, "out of memory for the translated commands");
        return false;
    }
    memcpy(mapped, layout->entries, layout->entry_count * 4);
    batch_size = TRANSLATE_BATCH_RANGE / stride < TRANSLATE_BATCH_COMMANDS ? TRANSLATE_BATCH_RANGE / stride : TRANSLATE_BATCH_COMMANDS;

    if (list->bindings.graphics.rendering)
        d3d12_command_list_end_rendering(list);
    cb = d3d12_command_list_begin_internal(list);
    /* The application's barrier into INDIRECT_ARGUMENT waits in the draw-indirect stage; this
     * pass reads in a shader: it waits for the writes no barrier has ordered before compute yet. */
    d3d12_barriers_before(&list->barriers, cb, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
    d3d12_barriers_after_unordered(&list->barriers, cb, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
            VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    device->vk_record.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pass->pipeline);
    for (uint32_t first = 0; first < count; first += batch_size) {
        uint32_t size = count - first < batch_size ? count - first : batch_size;
        uint64_t start = argument_offset + (uint64_t)first * stride, base = alignment > 1 ? start / alignment * alignment : start;
        uint64_t out = output_offset + (uint64_t)first * stride, out_base = alignment > 1 ? out / alignment * alignment : out;
        struct translate_batch batch = {(uint32_t)((start - base) / 4), stride / 4, size, (uint32_t)((out - out_base) / 4), 0,
                layout->entry_count, d3d12xs_va_table_address(device), vkGetBufferDeviceAddress(device->vk_device, &null_info),
                D3D12XS_NULL_BUFFER_SIZE, 0};
        VkDescriptorBufferInfo infos[3] = {
            {arguments->vk_buffer, base, start - base + (uint64_t)size * stride},
            {output, out_base, out - out_base + (uint64_t)size * stride},
            d3d12xs_internal_value_range(device, entries, entries_offset, 4, &batch.entry_index),
        };
        VkWriteDescriptorSet writes[3];
        /* the last command may end before the stride does: bind only what the buffer has */
        if (infos[0].offset + infos[0].range > arguments->desc.Width)
            infos[0].range = arguments->desc.Width - infos[0].offset;
        infos[2].range = entries_offset - infos[2].offset + layout->entry_count * 4;
        for (uint32_t i = 0; i < 3; i++)
            writes[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = i, .descriptorCount = 1,
                    .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &infos[i]};
        device->vkCmdPushDescriptorSetKHR(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pass->layout.layout, 0, 3, writes);
        device->vk_record.vkCmdPushConstants(cb, pass->layout.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(batch), &batch);
        device->vk_record.vkCmdDispatch(cb, (size + 63) / 64, 1, 1);
    }
    d3d12_barriers_emit(&list->barriers, cb, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
            GENERATED_INPUT_STAGES, GENERATED_INPUT_ACCESS);
    d3d12_command_list_end_internal(list);
    return true;
}

/* The root views the commands set: the pipeline's variant that reads them from the push block's
 * entries (pipelines/pipeline_indirect_variant.c; made at its first use). Looked up before the
 * flush, so that a pipeline without one fails the list with its own line. VK_NULL_HANDLE after
 * the error. */
static VkPipeline root_view_variant(struct d3d12_command_list *list, const char *command, const struct d3d12_command_signature *signature)
{
    struct d3d12_device *device = list->object.device;
    VkPipeline variant;
    char error[512];
    HRESULT hr;

    if (!d3d12xs_va_table_address(device)) {
        d3d12_command_list_record_unsupported(list, command, "the command signature sets root views, which need the GPU virtual "
                "address table's device address (bufferDeviceAddress) on %s", device->vk_properties.deviceName);
        return VK_NULL_HANDLE;
    }
    if (!(variant = d3d12_pipeline_state_indirect_variant(list->bindings.pipeline, signature->root_view_mask, 0, false,
            D3D12_VERTEX_PULLING_NONE, false, &hr, error, sizeof(error)))) {
        if (hr == E_NOTIMPL)
            d3d12_command_list_record_unsupported(list, command, "the command signature sets root views, and %s", error);
        else
            d3d12_command_list_record_error(list, command, "the pipeline's variant for the command signature's root views cannot be "
                    "made: %s", error);
    }
    return variant;
}

/* After the flush: the variant bound for the generated commands (which use the bound pipeline),
 * each entry's table half pushed and each view's misalignment pushed as 0 (a pointer starts at the
 * address itself). The next flush binds the list's pipeline again and pushes all of the bind
 * point's values. */
static void bind_root_view_variant(struct d3d12_command_list *list, enum d3d12_bind_point bind_point, const struct d3d12_command_signature *signature,
        VkPipeline variant)
{
    struct d3d12_bind_point_state *state = &list->bindings.points[bind_point];
    const struct d3d12_pipeline_state *pipeline = list->bindings.pipeline;
    const struct d3d12_root_signature *root = pipeline->root_signature;
    const VkShaderStageFlags stages = root->vk_push_stages[bind_point];
    const uint64_t table = d3d12xs_va_table_address(list->object.device);
    static const uint32_t aligned = 0;

    if (variant != state->bound_vk_pipeline) {
        list->vk.vkCmdBindPipeline(list->vk_command_buffer, bind_point == D3D12_BIND_POINT_COMPUTE ? VK_PIPELINE_BIND_POINT_COMPUTE
                : VK_PIPELINE_BIND_POINT_GRAPHICS, variant);
        state->bound_vk_pipeline = variant;
    }
    for (uint64_t views = signature->root_view_mask; views; views &= views - 1) {
        unsigned parameter = (unsigned)__builtin_ctzll(views);
        list->vk.vkCmdPushConstants(list->vk_command_buffer, pipeline->vk_layout, stages, root->indirect_view_offsets[parameter] + 8, sizeof(table),
                &table);
        if (root->root_view_offsets[parameter] != UINT32_MAX)
            list->vk.vkCmdPushConstants(list->vk_command_buffer, pipeline->vk_layout, stages, root->root_view_offsets[parameter], sizeof(aligned),
                    &aligned);
    }
}

/* One vkCmdExecuteGeneratedCommandsEXT of info with pipeline, its preprocess memory from the
 * allocator's transient memory (the requirement kept per list for a repeat). False after the error. */
static bool execute(struct d3d12_command_list *list, const char *command, const struct d3d12_generated_layout *layout, VkPipeline pipeline,
        uint32_t count, VkGeneratedCommandsInfoEXT *info)
{
    struct d3d12_device *device = list->object.device;
    const struct d3d12xs_generated_commands_caps *caps = &device->generated_commands;
    VkGeneratedCommandsPipelineInfoEXT *pipeline_info = (VkGeneratedCommandsPipelineInfoEXT *)info->pNext;
    VkGeneratedCommandsMemoryRequirementsInfoEXT requirements_info = {
        .sType = VK_STRUCTURE_TYPE_GENERATED_COMMANDS_MEMORY_REQUIREMENTS_INFO_EXT, .pNext = pipeline_info,
        .indirectCommandsLayout = layout->vk_layout, .maxSequenceCount = count,
    };
    VkMemoryRequirements2 requirements = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
    VkBuffer preprocess;
    VkDeviceSize preprocess_offset;

    pipeline_info->pipeline = pipeline;
    if (list->generated_memory.layout == layout && list->generated_memory.pipeline == pipeline
            && list->generated_memory.count == count) {
        requirements.memoryRequirements = list->generated_memory.requirements;
    } else {
        ((PFN_vkGetGeneratedCommandsMemoryRequirementsEXT)caps->vkGetGeneratedCommandsMemoryRequirementsEXT)(device->vk_device,
                &requirements_info, &requirements);
        list->generated_memory.layout = layout;
        list->generated_memory.pipeline = pipeline;
        list->generated_memory.count = count;
        list->generated_memory.requirements = requirements.memoryRequirements;
    }
    if (requirements.memoryRequirements.size) {
        if (FAILED(d3d12_transient_memory_allocate(device, &list->allocator->transient, requirements.memoryRequirements.size,
                requirements.memoryRequirements.alignment, &preprocess, &preprocess_offset, &info->preprocessAddress, command))) {
            d3d12_command_list_record_error(list, command, "out of memory for the generated commands' preprocessing");
            return false;
        }
        if (!d3d12_transient_memory_last_type_in(&list->allocator->transient, requirements.memoryRequirements.memoryTypeBits)) {
            d3d12_command_list_record_unsupported(list, command, "%s wants the generated commands' preprocess memory of types 0x%x,"
                    " and the list's device-local memory is of none of them", device->vk_properties.deviceName,
                    requirements.memoryRequirements.memoryTypeBits);
            return false;
        }
        info->preprocessSize = requirements.memoryRequirements.size;
    }
    d3d12_command_list_begin_predicated(list);
    ((PFN_vkCmdExecuteGeneratedCommandsEXT)caps->vkCmdExecuteGeneratedCommandsEXT)(list->vk_command_buffer, VK_FALSE, info);
    d3d12_command_list_end_predicated(list);

    return true;
}

void d3d12_command_list_execute_generated(struct d3d12_command_list *list, const char *command, const struct d3d12_command_signature *signature,
        uint32_t count, const struct d3d12_resource *arguments, UINT64 argument_offset, const struct d3d12_resource *counts, UINT64 count_offset)
{
    struct d3d12_device *device = list->object.device;
    const struct d3d12xs_generated_commands_caps *caps = &device->generated_commands;
    const struct d3d12_generated_layout *layout = signature->generated;
    bool dispatch = signature->action == D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH;
    bool indexed = signature->action == D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED;
    enum d3d12_bind_point bind_point = dispatch ? D3D12_BIND_POINT_COMPUTE : D3D12_BIND_POINT_GRAPHICS;
    VkGeneratedCommandsPipelineInfoEXT pipeline_info = {.sType = VK_STRUCTURE_TYPE_GENERATED_COMMANDS_PIPELINE_INFO_EXT};
    VkGeneratedCommandsInfoEXT info = {
        .sType = VK_STRUCTURE_TYPE_GENERATED_COMMANDS_INFO_EXT, .pNext = &pipeline_info, .shaderStages = layout->stages,
        .indirectCommandsLayout = layout->vk_layout, .maxSequenceCount = count,
    };
    struct d3d12_bind_point_state *state = &list->bindings.points[bind_point];
    VkPipeline variant = VK_NULL_HANDLE;
    uint32_t rounds;

    if (!dispatch && list->type != D3D12_COMMAND_LIST_TYPE_DIRECT) {
        d3d12_command_list_record_error(list, command, "the signature draws (%s), and only DIRECT lists draw",
                d3d12_indirect_argument_name(signature->action));
        return;
    }
    /* a pipeline of the bind point: the flush below reports any other */
    if (signature->root_view_mask && list->bindings.pipeline && d3d12_pipeline_bind_point(list->bindings.pipeline) == bind_point
            && !(variant = root_view_variant(list, command, signature)))
        return;
    if (count > caps->max_sequence_count) {
        d3d12_command_list_record_unsupported(list, command, "MaxCommandCount %u passes the %u generated commands %s runs at once", count,
                caps->max_sequence_count, device->vk_properties.deviceName);
        return;
    }
    if (layout->entry_count) {
        if (!translate_commands(list, command, signature, count, arguments, argument_offset, &info.indirectAddress))
            return;
        info.indirectAddressSize = (VkDeviceSize)count * signature->byte_stride;
    } else {
        info.indirectAddress = buffer_address(device, arguments) + argument_offset;
        info.indirectAddressSize = arguments->desc.Width - argument_offset;
    }
    if (counts)
        info.sequenceCountAddress = buffer_address(device, counts) + count_offset;

    /* The arguments are read at the draw-indirect stage: a barrier into it cannot stand inside a
     * rendering pass. */
    if (dispatch) {
        if (list->bindings.graphics.rendering)
            d3d12_command_list_end_rendering(list);
        if (!d3d12_command_list_flush_for_commands(list, command, signature, true, false))
            return;
        if (variant)
            bind_root_view_variant(list, bind_point, signature, variant);
        d3d12_barriers_before(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT);
    } else {
        if (list->bindings.graphics.rendering && d3d12_barriers_pending(&list->barriers, VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT))
            d3d12_command_list_end_rendering(list);
        d3d12_barriers_before(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT);
        /* a signature that sets the index buffer needs none set on the list */
        if (!d3d12_command_list_flush_for_commands(list, command, signature, false, indexed && !layout->sets_index_buffer))
            return;
        if (variant)
            bind_root_view_variant(list, bind_point, signature, variant);
    }
    /* a pipeline drawing its views one by one (view instancing at other locations) runs the
     * commands once per view, the view pushed first; the commands leave the push constants
     * undefined, so each round flushes again */
    rounds = !dispatch && list->bindings.pipeline->graphics->views_apart
            ? d3d12_command_list_view_mask(list, list->bindings.pipeline->graphics) : 1u;
    for (bool first = true; rounds; rounds &= rounds - 1, first = false) {
        if (!first) {
            list->bindings.push_owner = D3D12_BIND_POINT_COUNT;
            state->dirty |= D3D12_DIRTY_HEAP_OFFSETS;
            if (!d3d12_command_list_flush_for_commands(list, command, signature, false, indexed && !layout->sets_index_buffer))
                return;
            if (variant)
                bind_root_view_variant(list, bind_point, signature, variant);
        }
        if (!dispatch && list->bindings.pipeline->graphics->views_apart)
            d3d12_command_list_push_view(list, (uint32_t)__builtin_ctz(rounds));
        if (!execute(list, command, layout, state->bound_vk_pipeline, count, &info))
            return;
    }

    /* The generated commands leave the push constants undefined (the pipeline and descriptors
     * stay bound): as after the other bind point pushed, the next flush claims the block and
     * pushes all of the bind point's values again (command_list_flush.c), the table starts and
     * heap size whole. */
    list->bindings.push_owner = D3D12_BIND_POINT_COUNT;
    state->dirty |= D3D12_DIRTY_HEAP_OFFSETS;
    if (!dispatch) {
        list->bindings.graphics.dirty |= D3D12_GRAPHICS_DIRTY_VERTEX_BUFFERS | (layout->sets_index_buffer ? D3D12_GRAPHICS_DIRTY_INDEX_BUFFER : 0);
        d3d12_command_list_note_draw(list, command);
    } else {
        d3d12_command_list_note(list, D3D12_RECORDED_DISPATCH, list->record.dispatch_first, list->record.dispatch_count);
    }
}
