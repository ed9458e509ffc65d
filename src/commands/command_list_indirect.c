/* ExecuteIndirect: the commands of an argument buffer, laid out by a command signature
 * (command_signature.c). Signatures that only draw or dispatch become Vulkan's indirect
 * commands, reading D3D12's argument structures in place (they are Vulkan's, field for field):
 * DRAW vkCmdDrawIndirect(Count), DRAW_INDEXED vkCmdDrawIndexedIndirect(Count), DISPATCH one
 * vkCmdDispatchIndirect per command. Draws take DrawInstanced's path (flush, dynamic state,
 * rendering pass) and dispatches Dispatch's. What is not built yet fails Close with E_NOTIMPL
 * and a line: signatures that change state, and dispatches with a count buffer
 * (docs/indirect.md). */
#include "command_recording.h"
#include "commands/command_list_graphics.h"
#include "commands/command_signature.h"
#include "descriptors/root_signature.h"

#define METHOD(name) "ID3D12GraphicsCommandList::" #name

/* A buffer argument (the argument or the count buffer) at a 4-aligned offset inside it; false
 * after the error. */
static bool check_buffer(struct d3d12_command_list *list, const char *command, const char *name, struct d3d12_resource *resource,
        ID3D12Resource *iface, UINT64 offset, uint32_t size)
{
    if (!resource || resource->desc.Dimension != D3D12_RESOURCE_DIMENSION_BUFFER || !resource->vk_buffer) {
        d3d12_command_list_record_error(list, command, "p%s is %s (must be a buffer)", name, !iface ? "NULL" : !resource
                ? "not a d3d12xs resource" : "a texture");
        return false;
    }
    if (offset % 4) {
        d3d12_command_list_record_error(list, command, "%sOffset %llu is not a multiple of 4", name, (unsigned long long)offset);
        return false;
    }
    if (offset >= resource->desc.Width || size > resource->desc.Width - offset) {
        d3d12_command_list_record_error(list, command, "%sOffset %llu (and the %u bytes read there) is past the buffer's %llu bytes", name,
                (unsigned long long)offset, size, (unsigned long long)resource->desc.Width);
        return false;
    }
    return true;
}

/* How many of count commands lie whole in the argument buffer: D3D12 leaves reading past its
 * end undefined (its debug layer reports it); Vulkan forbids it, so the rest are dropped. */
static uint32_t commands_in_buffer(struct d3d12_command_list *list, const char *command, const struct d3d12_command_signature *signature,
        const struct d3d12_resource *buffer, UINT64 offset, uint32_t count)
{
    uint64_t room = buffer->desc.Width - offset, fit;
    uint32_t size = signature->action == D3D12_INDIRECT_ARGUMENT_TYPE_DRAW ? sizeof(D3D12_DRAW_ARGUMENTS)
            : signature->action == D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED ? sizeof(D3D12_DRAW_INDEXED_ARGUMENTS)
            : sizeof(D3D12_DISPATCH_ARGUMENTS);
    uint64_t last = signature->action_offset + size; /* bytes the last command needs */

    fit = room < last ? 0 : 1 + (room - last) / signature->byte_stride; /* the stride is at least the arguments' size */
    if (fit >= count)
        return count;
    d3d12_command_list_debug_warn(list, command, "MaxCommandCount %u commands of %u bytes pass the argument buffer's end (%llu bytes "
            "from ArgumentBufferOffset): only the %llu that fit run", count, signature->byte_stride, (unsigned long long)room,
            (unsigned long long)fit);
    return (uint32_t)fit;
}

static void execute_draws(struct d3d12_command_list *list, const char *command, const struct d3d12_command_signature *signature,
        uint32_t count, const struct d3d12_resource *arguments, UINT64 argument_offset, const struct d3d12_resource *counts,
        UINT64 count_offset)
{
    const struct d3d12xs_graphics_caps *caps = &list->object.device->graphics;
    bool indexed = signature->action == D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED;
    VkDeviceSize offset = argument_offset + signature->action_offset;
    uint32_t stride = signature->byte_stride;
    VkCommandBuffer cb;

    if (list->type != D3D12_COMMAND_LIST_TYPE_DIRECT) {
        d3d12_command_list_record_error(list, command, "the signature draws (%s), and only DIRECT lists draw",
                d3d12_indirect_argument_name(signature->action));
        return;
    }
    if (counts && !caps->draw_indirect_count) {
        d3d12_command_list_record_unsupported(list, command, "pCountBuffer is set, and %s lacks drawIndirectCount",
                list->object.device->vk_properties.deviceName);
        return;
    }
    if (!caps->draw_indirect_first_instance) {
        d3d12_command_list_record_unsupported(list, command, "%s lacks drawIndirectFirstInstance (a StartInstanceLocation read from memory)",
                list->object.device->vk_properties.deviceName);
        return;
    }
    /* The arguments are read at the draw-indirect stage: a barrier into it cannot stand inside
     * a rendering pass. */
    if (list->bindings.graphics.rendering && d3d12_barriers_pending(&list->barriers, VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT))
        d3d12_command_list_end_rendering(list);
    d3d12_barriers_before(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT);
    if (!d3d12_command_list_prepare_draw(list, command, indexed))
        return;
    cb = list->vk_command_buffer;
    d3d12_command_list_begin_predicated(list);
    if (counts && indexed)
        vkCmdDrawIndexedIndirectCount(cb, arguments->vk_buffer, offset, counts->vk_buffer, count_offset, count, stride);
    else if (counts)
        vkCmdDrawIndirectCount(cb, arguments->vk_buffer, offset, counts->vk_buffer, count_offset, count, stride);
    else if (caps->multi_draw_indirect && indexed)
        vkCmdDrawIndexedIndirect(cb, arguments->vk_buffer, offset, count, stride);
    else if (caps->multi_draw_indirect)
        vkCmdDrawIndirect(cb, arguments->vk_buffer, offset, count, stride);
    else /* one command per Vulkan call */
        for (uint32_t i = 0; i < count; i++, offset += stride)
            indexed ? vkCmdDrawIndexedIndirect(cb, arguments->vk_buffer, offset, 1, 0) : vkCmdDrawIndirect(cb, arguments->vk_buffer, offset, 1, 0);
    d3d12_command_list_end_predicated(list);
    d3d12_command_list_note_draw(list, command);
}

static void execute_dispatches(struct d3d12_command_list *list, const char *command, const struct d3d12_command_signature *signature,
        uint32_t count, const struct d3d12_resource *arguments, UINT64 argument_offset, const struct d3d12_resource *counts)
{
    VkDeviceSize offset = argument_offset + signature->action_offset;

    if (!d3d12_command_list_outside_render_pass(list, command))
        return;
    if (counts) {
        /* vkCmdDispatchIndirect has no count form: capping the commands on the GPU needs a pass
         * of d3d12xs's own, which is not built yet. */
        d3d12_command_list_record_unsupported(list, command, "pCountBuffer is set with a DISPATCH signature: dispatches with a GPU count "
                "are not built yet");
        return;
    }
    if (!d3d12_command_list_flush_compute(list, command, 0))
        return;
    d3d12_barriers_before(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT);
    d3d12_command_list_begin_predicated(list);
    for (uint32_t i = 0; i < count; i++, offset += signature->byte_stride)
        vkCmdDispatchIndirect(list->vk_command_buffer, arguments->vk_buffer, offset);
    d3d12_command_list_end_predicated(list);
    d3d12_command_list_note(list, D3D12_RECORDED_DISPATCH, list->record.dispatch_first, list->record.dispatch_count);
}

void STDMETHODCALLTYPE d3d12_command_list_ExecuteIndirect(ID3D12GraphicsCommandList10 *iface, ID3D12CommandSignature *signature_iface,
        UINT max_count, ID3D12Resource *argument_iface, UINT64 argument_offset, ID3D12Resource *count_iface, UINT64 count_offset)
{
    static const char command[] = METHOD(ExecuteIndirect);
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    struct d3d12_command_signature *signature = unsafe_impl_from_ID3D12CommandSignature(signature_iface);
    struct d3d12_resource *arguments = unsafe_impl_from_ID3D12Resource(argument_iface);
    struct d3d12_resource *counts = count_iface ? unsafe_impl_from_ID3D12Resource(count_iface) : NULL;
    bool dispatch;
    enum d3d12_bind_point bind_point;

    /* Draws may stand inside the rendering pass that earlier draws left open. */
    if (!d3d12_command_list_check_recording_in_pass(list, command))
        return;
    if (list->type == D3D12_COMMAND_LIST_TYPE_COPY) {
        d3d12_command_list_report_copy_list(list, command);
        return;
    }
    if (!signature) {
        d3d12_command_list_record_error(list, command, "pCommandSignature is %s (must be a command signature from CreateCommandSignature)",
                signature_iface ? "not a d3d12xs command signature" : "NULL");
        return;
    }
    if (!check_buffer(list, command, "ArgumentBuffer", arguments, argument_iface, argument_offset, 4)
            || (count_iface && !check_buffer(list, command, "CountBuffer", counts, count_iface, count_offset, sizeof(UINT32))))
        return;
    dispatch = signature->action == D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH;
    bind_point = dispatch ? D3D12_BIND_POINT_COMPUTE : D3D12_BIND_POINT_GRAPHICS;
    if (signature->root_signature && list->bindings.points[bind_point].root_signature != signature->root_signature
            && !(list->bindings.points[bind_point].root_signature
                    && d3d12_root_signatures_compatible(list->bindings.points[bind_point].root_signature, signature->root_signature))) {
        d3d12_command_list_record_error(list, command, "the command signature was made with a root signature that is not the %s one set",
                dispatch ? "compute" : "graphics");
        return;
    }
    if (signature->first_state_change != signature->action) {
        d3d12_command_list_record_unsupported(list, command, "the command signature changes state (%s): only signatures that just draw or "
                "dispatch run yet", d3d12_indirect_argument_name(signature->first_state_change));
        return;
    }
    if (!max_count || !(max_count = commands_in_buffer(list, command, signature, arguments, argument_offset, max_count)))
        return; /* nothing to run */
    if (dispatch) {
        if (list->bindings.graphics.rendering)
            d3d12_command_list_end_rendering(list);
        execute_dispatches(list, command, signature, max_count, arguments, argument_offset, counts);
    } else {
        execute_draws(list, command, signature, max_count, arguments, argument_offset, counts, count_offset);
    }
}
