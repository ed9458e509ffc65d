/* Stream output on a list: SOSetTargets keeps the targets (graphics_bindings.h), and a draw whose
 * pipeline streams out begins Vulkan transform feedback in the rendering pass, over the targets,
 * reading each slot's BufferFilledSizeLocation as its counter: the byte offset at which capture
 * goes on. Transform feedback stays active across the draws of that pipeline and those targets
 * and ends with the pass (command_recording.c), writing the counters back; a draw with another
 * pipeline, or after SOSetTargets, ends the pass first (Vulkan binds neither pipelines nor
 * transform feedback buffers while it is active). */
#include <stdio.h>
#include <string.h>

#include "command_recording.h"
#include "commands/command_list_graphics.h"
#include "pipelines/graphics_pipeline.h"

#define METHOD(name) "ID3D12GraphicsCommandList::" #name

void STDMETHODCALLTYPE d3d12_command_list_SOSetTargets(ID3D12GraphicsCommandList10 *iface, UINT start, UINT count,
        const D3D12_STREAM_OUTPUT_BUFFER_VIEW *views)
{
    static const char command[] = METHOD(SOSetTargets);
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    struct d3d12_graphics_bindings *graphics = &list->bindings.graphics;
    struct d3d12_stream_output_target targets[D3D12_SO_BUFFER_SLOT_COUNT];
    uint64_t remaining;

    if (!d3d12_command_list_check_recording_in_pass(list, command))
        return;
    if (list->type != D3D12_COMMAND_LIST_TYPE_DIRECT) {
        d3d12_command_list_record_error(list, command, "only DIRECT lists stream out (this is a %s list)",
                list->type == D3D12_COMMAND_LIST_TYPE_COMPUTE ? "COMPUTE" : list->type == D3D12_COMMAND_LIST_TYPE_COPY ? "COPY" : "BUNDLE");
        return;
    }
    if (start >= D3D12_SO_BUFFER_SLOT_COUNT || count > D3D12_SO_BUFFER_SLOT_COUNT - start) {
        d3d12_command_list_record_error(list, command, "StartSlot %u + NumViews %u pass the %u stream output slots", start, count,
                D3D12_SO_BUFFER_SLOT_COUNT);
        return;
    }
    memset(targets, 0, sizeof(targets));
    for (UINT i = 0; views && i < count; i++) {
        const D3D12_STREAM_OUTPUT_BUFFER_VIEW *view = &views[i];
        struct d3d12_stream_output_target *target = &targets[i];
        /* SizeInBytes 0: no target, and D3D12 reads neither address */
        if (!view->SizeInBytes)
            continue;
        if (!d3d12xs_va_lookup_range(list->object.device, view->BufferLocation, &target->buffer, &target->offset, &remaining)) {
            d3d12_command_list_record_error(list, command, "pViews[%u].BufferLocation 0x%llx is not an address in a live buffer", i,
                    (unsigned long long)view->BufferLocation);
            return;
        }
        target->size = view->SizeInBytes < remaining ? view->SizeInBytes : remaining;
        if (!d3d12xs_va_lookup_range(list->object.device, view->BufferFilledSizeLocation, &target->filled_size_buffer,
                &target->filled_size_offset, &remaining) || remaining < 4) {
            d3d12_command_list_record_error(list, command, "pViews[%u].BufferFilledSizeLocation 0x%llx is not 4 bytes in a live buffer", i,
                    (unsigned long long)view->BufferFilledSizeLocation);
            return;
        }
        /* What D3D12 leaves undefined (its debug layer reports it): the slot streams nothing. */
        if (view->BufferLocation % 4 || view->BufferFilledSizeLocation % 4) {
            d3d12_command_list_debug_warn(list, command, "pViews[%u] has BufferLocation 0x%llx and BufferFilledSizeLocation 0x%llx (both must "
                    "be 4-byte aligned): the slot streams nothing", i, (unsigned long long)view->BufferLocation,
                    (unsigned long long)view->BufferFilledSizeLocation);
            memset(target, 0, sizeof(*target));
        }
    }
    memcpy(&graphics->so_targets[start], targets, count * sizeof(*targets));
    graphics->so_targets_changed = true;
}

void d3d12_command_list_begin_stream_output(struct d3d12_command_list *list, const struct d3d12_pipeline_state *pipeline)
{
    struct d3d12_graphics_bindings *graphics = &list->bindings.graphics;
    const struct d3d12xs_graphics_caps *caps = &list->object.device->graphics;
    VkBuffer buffers[D3D12_SO_BUFFER_SLOT_COUNT], counters[D3D12_SO_BUFFER_SLOT_COUNT];
    VkDeviceSize offsets[D3D12_SO_BUFFER_SLOT_COUNT], sizes[D3D12_SO_BUFFER_SLOT_COUNT], counter_offsets[D3D12_SO_BUFFER_SLOT_COUNT];
    uint32_t slots = 0, count;

    if (graphics->xfb_active || !pipeline->graphics->stream_output_slots)
        return;
    for (uint32_t slot = 0; slot < D3D12_SO_BUFFER_SLOT_COUNT; slot++)
        if ((pipeline->graphics->stream_output_slots & (1u << slot)) && graphics->so_targets[slot].buffer)
            slots |= 1u << slot;
    graphics->so_targets_changed = false;
    if (!slots)
        return; /* nothing bound where it writes: D3D12 streams nothing */
    /* Every slot the pipeline writes gets a buffer: one without a target (D3D12 drops what
     * goes there) the device's null buffer with no bytes to fill, so nothing is written. */
    count = 32 - (uint32_t)__builtin_clz(pipeline->graphics->stream_output_slots);
    for (uint32_t slot = 0; slot < count; slot++) {
        const struct d3d12_stream_output_target *target = &graphics->so_targets[slot];
        bool bound = slots & (1u << slot);
        buffers[slot] = bound ? target->buffer : list->object.device->null_buffer;
        offsets[slot] = bound ? target->offset : 0;
        sizes[slot] = bound ? target->size : 0;
    }
    caps->vkCmdBindTransformFeedbackBuffersEXT(list->vk_command_buffer, 0, count, buffers, offsets, sizes);
    count = 32 - (uint32_t)__builtin_clz(slots);
    for (uint32_t slot = 0; slot < count; slot++) {
        bool bound = slots & (1u << slot);
        counters[slot] = bound ? graphics->so_targets[slot].filled_size_buffer : VK_NULL_HANDLE;
        counter_offsets[slot] = bound ? graphics->so_targets[slot].filled_size_offset : 0;
    }
    caps->vkCmdBeginTransformFeedbackEXT(list->vk_command_buffer, 0, count, counters, counter_offsets);
    graphics->xfb_active = true;
    graphics->xfb_pipeline = pipeline->vk_pipeline;
    graphics->xfb_slots = slots;
    memcpy(graphics->xfb_targets, graphics->so_targets, sizeof(graphics->xfb_targets));
}
