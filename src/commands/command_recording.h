/* Inline helpers of the command files (command_list*.c): every recorded command starts with
 * the recording check and ends in the record; their slow paths are in command_recording.c. */
#ifndef D3D12XS_COMMAND_RECORDING_H
#define D3D12XS_COMMAND_RECORDING_H

#include "commands/command_list_state.h"
#include "memory/resource.h"
#include "memory/va_map.h"
#include "commands/query_heap.h"
#include "memory/texture.h"

static inline struct d3d12_command_list *impl_from_ID3D12GraphicsCommandList10(ID3D12GraphicsCommandList10 *iface)
{
    return D3D12XS_CONTAINING(iface, struct d3d12_command_list, ID3D12GraphicsCommandList10_iface);
}

/* The emitter of every command of D3D12XS_COMMANDS (command_table.h), d3d12_command_list_<Method>:
 * it checks the call and records it into the list's command buffer. Each is written by hand in the
 * command_list_*.c file of its kind of work (ClearState with Reset in command_list.c, ExecuteBundle
 * in command_bundle.c); the lists' vtables and the bundles' replay call them. */
#define D3D12XS_DECLARE_EMITTER(Method, table, bundle, parameters) \
    void STDMETHODCALLTYPE d3d12_command_list_##Method(D3D12XS_COMMAND_IFACE_##table iface \
            D3D12XS_COMMAND_PARAMS(D3D12XS_PARAM_DECL, parameters));
D3D12XS_COMMANDS(D3D12XS_DECLARE_EMITTER)
#undef D3D12XS_DECLARE_EMITTER

/* True when commands may be recorded; logs and returns false on a closed list. Inline: every
 * recorded command starts here. For the calls that may stand inside a rendering pass (draws and
 * calls that only set state), which keep the pass draws left open. */
static inline bool d3d12_command_list_check_recording_in_pass(struct d3d12_command_list *list, const char *command)
{
    if (__builtin_expect(list->state == D3D12_COMMAND_LIST_RECORDING, 1)) {
        list->call_count++;
        return true;
    }
    d3d12_command_list_report_closed(list, command);
    return false;
}

/* For the calls that change only what a settled list's next draw applies itself (root
 * arguments, vertex and index buffers, blend factor, stencil reference): called after them, it
 * keeps the list settled if it was before them (draw_settled_at in command_list_state.h). */
static inline void d3d12_command_list_keep_settled(struct d3d12_command_list *list)
{
    if (list->draw_settled_at == list->call_count - 1)
        list->draw_settled_at = list->call_count;
}

/* d3d12_command_list_keep_settled for a root-argument call of a bind point: a compute one also
 * keeps a dispatch's short way (dispatch_settled_at), which checks that the bind point is clean. */
static inline void d3d12_command_list_keep_settled_for(struct d3d12_command_list *list, enum d3d12_bind_point bind_point)
{
    d3d12_command_list_keep_settled(list);
    if (bind_point == D3D12_BIND_POINT_COMPUTE && list->dispatch_settled_at == list->call_count - 1)
        list->dispatch_settled_at = list->call_count;
}

/* The same for every other command: the one place where the rendering pass that draws left
 * open ends before a command that cannot be inside one (copies, barriers, dispatches, queries,
 * console waits and writes, PIX events...). Target clears end it themselves where they cannot
 * go inside it (command_list_texture_clear.c). */
static inline bool d3d12_command_list_check_recording(struct d3d12_command_list *list, const char *command)
{
    if (!d3d12_command_list_check_recording_in_pass(list, command))
        return false;
    if (__builtin_expect(list->bindings.graphics.rendering, 0))
        d3d12_command_list_end_rendering(list);
    return true;
}

/* command_list_texture_copy.c */
/* CopyResource when either side is a texture; false after recording the error. */
bool d3d12_command_list_copy_texture_resource(struct d3d12_command_list *list, struct d3d12_resource *dst, struct d3d12_resource *src);

/* command_list_uav_clear.c: UAV clears of the buffer or texture view `descriptor` (a texture's
 * whole view, or the rectangles of each of its slices) with ClearUnorderedAccessViewUint's values
 * (float_values false) or the bits of ...Float's, converted as D3D12 does (uav_clear_value.h). */
void d3d12_command_list_clear_buffer_uav(struct d3d12_command_list *list, const char *command, const struct d3d12xs_descriptor *descriptor,
        const uint32_t values[4], bool float_values);
void d3d12_command_list_clear_texture_uav(struct d3d12_command_list *list, const char *command, const struct d3d12xs_descriptor *descriptor,
        const uint32_t values[4], bool float_values, UINT rect_count, const D3D12_RECT *rects);
/* command_list_texture_clear.c: render-target clears, and the rectangles of a clear clipped to a
 * width x height mip (D3D12 clears what lies inside it; empty ones dropped): how many are left in
 * clipped, and the largest width and height in *extent. */
uint32_t d3d12_command_list_clip_rects(const D3D12_RECT *rects, UINT rect_count, uint32_t width, uint32_t height, VkRect2D *clipped,
        VkExtent2D *extent);
/* Whether a DXGI format holds integers (render-target clears convert their floats to them);
 * *is_signed tells SINT from UINT. */
bool d3d12_command_list_integer_format(DXGI_FORMAT format, bool *is_signed);
/* The same clear's colour as Vulkan's value for a view of `format`. */
VkClearColorValue d3d12_command_list_clear_color(DXGI_FORMAT format, const float color[4]);

/* command_list_resolve.c: a resolve's arguments checked (ResolveSubresource(Region), a render
 * pass's ENDING_ACCESS_RESOLVE) into *resolve; false after recording the error. */
bool d3d12_command_list_check_resolve(struct d3d12_command_list *list, const char *command, ID3D12Resource *dst, UINT dst_subresource,
        UINT dst_x, UINT dst_y, ID3D12Resource *src, UINT src_subresource, const D3D12_RECT *src_rect, DXGI_FORMAT format,
        D3D12_RESOLVE_MODE mode, struct d3d12_pass_resolve *resolve);
/* Records a checked resolve (outside any rendering pass). */
void d3d12_command_list_resolve(struct d3d12_command_list *list, const char *command, const struct d3d12_pass_resolve *resolve);

/* command_list_predication.c: while SetPredication holds, the Vulkan commands of a predicated
 * call (a draw, a dispatch, an attachment clear) go between these two, under the condition. */
static inline void d3d12_command_list_begin_predicated(struct d3d12_command_list *list)
{
    if (__builtin_expect(!list->predication.active, 1))
        return;
    const VkConditionalRenderingBeginInfoEXT info = {
        .sType = VK_STRUCTURE_TYPE_CONDITIONAL_RENDERING_BEGIN_INFO_EXT,
        .buffer = list->predication.condition,
        .offset = list->predication.offset,
        .flags = list->predication.inverted ? VK_CONDITIONAL_RENDERING_INVERTED_BIT_EXT : 0,
    };
    list->object.device->graphics.vkCmdBeginConditionalRenderingEXT(list->vk_command_buffer, &info);
}
static inline void d3d12_command_list_end_predicated(struct d3d12_command_list *list)
{
    if (__builtin_expect(list->predication.active, 0))
        list->object.device->graphics.vkCmdEndConditionalRenderingEXT(list->vk_command_buffer);
}
/* A buffer copy of whole 32-bit words under the predicate: an internal dispatch under the
 * condition (conditional rendering skips no transfers). False after the E_NOTIMPL line for other
 * sizes and offsets (callers stage those: command_list_predicated_write.h). */
bool d3d12_command_list_copy_buffer_predicated(struct d3d12_command_list *list, const char *command, VkBuffer dst, uint64_t dst_offset,
        VkBuffer src, uint64_t src_offset, uint64_t size);
/* Records into command_buffer (between begin_internal and end_internal; the caller orders it) the
 * fold of the 64-bit value at source + offset (8-aligned) into 1 where it is not zero, else 0, as
 * 32 bits at destination + destination_offset (4-aligned), or 64 with clear_high. Only where the
 * device made the fold's pipeline (device->predicate_fold). */
void d3d12_command_list_fold_value(struct d3d12_command_list *list, VkCommandBuffer command_buffer, VkBuffer source, uint64_t offset,
        VkBuffer destination, VkDeviceSize destination_offset, bool clear_high);

/* A D3D12 render pass refuses the calls D3D12 does not allow in one (copies, clears, Dispatch,
 * OMSetRenderTargets, SetDescriptorHeaps...): false after the error. */
static inline bool d3d12_command_list_outside_render_pass(struct d3d12_command_list *list, const char *command)
{
    if (__builtin_expect(!list->render_pass.active, 1))
        return true;
    d3d12_command_list_record_error(list, command, "is not allowed inside a render pass (between BeginRenderPass and EndRenderPass)");
    return false;
}

/* command_list_table_ranges.c: sets the record's dispatch ranges (what the next dispatch reads
 * and writes) to the root descriptors' and what the bound descriptor tables hold; false after
 * recording the error. Called by the flush only while the console validation is on. */
bool d3d12_command_list_note_dispatch_ranges(struct d3d12_command_list *list, enum d3d12_bind_point bind_point, const char *command);

/* command_list_arguments.c: writes the root constants and the root descriptors' addresses
 * (the bind point's root_addresses) into argument memory and binds it (pipelines using the memory-based
 * ABI); false after recording the error. */
bool d3d12_command_list_write_memory_arguments(struct d3d12_command_list *list, enum d3d12_bind_point bind_point, const char *command);

/* command_recording.c: the error of a compute or binding call on a COPY list. */
void d3d12_command_list_report_copy_list(struct d3d12_command_list *list, const char *command);
/* command_list_bindings.c: the pipeline, the heaps and each bind point's root signature and
 * root arguments (SetComputeRoot* and SetGraphicsRoot* are one implementation over a bind point). */
void d3d12_command_list_reset_bindings(struct d3d12_command_list *list);
/* The checks every compute command starts with (a recording list that is not a COPY list).
 * Inline: every binding call and dispatch starts here. */
static inline bool d3d12_command_list_compute_list(struct d3d12_command_list *list, const char *command)
{
    if (!d3d12_command_list_check_recording(list, command))
        return false;
    if (__builtin_expect(list->type == D3D12_COMMAND_LIST_TYPE_COPY, 0)) {
        d3d12_command_list_report_copy_list(list, command);
        return false;
    }
    return true;
}

/* The same for the calls that only bind (SetPipelineState, SetDescriptorHeaps, Set*Root*):
 * they record nothing into the command buffer, so an open rendering pass stays open. */
static inline bool d3d12_command_list_binding_list(struct d3d12_command_list *list, const char *command)
{
    if (!d3d12_command_list_check_recording_in_pass(list, command))
        return false;
    if (__builtin_expect(list->type == D3D12_COMMAND_LIST_TYPE_COPY, 0)) {
        d3d12_command_list_report_copy_list(list, command);
        return false;
    }
    return true;
}
void d3d12_command_list_set_pipeline_state(struct d3d12_command_list *list, ID3D12PipelineState *state, const char *command);
/* A root constant the caller has checked against the bound root signature (ExecuteIndirect's
 * INCREMENTING_CONSTANT): no call counted, no check. */
void d3d12_command_list_set_root_constant(struct d3d12_command_list *list, enum d3d12_bind_point bind_point, UINT index, UINT value,
        UINT offset);


/* command_list_pix.c: PIX events (timestamped into the trace while a capture runs); close ends
 * the events left open, reset drops the recording's timestamps. */
void d3d12_command_list_pix_close(struct d3d12_command_list *list);
void d3d12_command_list_pix_reset(struct d3d12_command_list *list);
void d3d12_command_list_pix_release(struct d3d12_command_list *list);

/* Internal work recorded into the application's command buffer (a clock conversion, a
 * shader-stored value write, an inline spin) binds its own pipeline, descriptors and push
 * constants: it goes between these two, which return the command buffer to record into and
 * then leave the application's compute state to be bound again at its next Dispatch (the
 * console's FORCE_COMPUTE_2_SPILL_AREA guarantee, docs/design.md). Its barriers still go
 * through list->barriers. */
VkCommandBuffer d3d12_command_list_begin_internal(struct d3d12_command_list *list);
void d3d12_command_list_end_internal(struct d3d12_command_list *list);

/* Whether d3d12_command_list_note takes its inline way (room in the record, no cut after each
 * command): a caller can keep its own way frameless by sending the other case out of line. */
static inline bool d3d12_command_list_note_fits(const struct d3d12_command_list *list)
{
    return list->record.command_count < list->record.command_capacity && !list->split_every;
}

/* Adds the command just recorded to the list's record (and cuts the segment when testing
 * with D3D12XS_SPLIT_LISTS). Inline: every command ends here. */
static inline void d3d12_command_list_note(struct d3d12_command_list *list, enum d3d12_recorded_kind kind, uint32_t first_range,
        uint32_t range_count)
{
    struct d3d12_command_record *record = &list->record;
    if (__builtin_expect(d3d12_command_list_note_fits(list), 1)) {
        record->commands[record->command_count++] = (struct d3d12_recorded_command){kind, list->call_count - 1,
                (uint32_t)list->segment_count - 1, first_range, range_count, 0};
        return;
    }
    d3d12_command_list_note_slow(list, kind, first_range, range_count);
}

/* At Close: each segment's first and last recorded command, from the record. */
void d3d12_command_list_index_segments(struct d3d12_command_list *list);

/* Adds flags (enum d3d12_recorded_flags) to the command just noted, if it was. */
static inline void d3d12_command_list_flag_last(struct d3d12_command_list *list, uint32_t call_index, uint32_t flags)
{
    struct d3d12_command_record *record = &list->record;
    if (record->command_count && record->commands[record->command_count - 1].call_index == call_index)
        record->commands[record->command_count - 1].flags |= flags;
}

/* Records buffer ranges a command uses; returns the first index (UINT32_MAX after a failure,
 * which marks the list invalid). */
static inline uint32_t d3d12_command_list_note_ranges(struct d3d12_command_list *list, const char *command,
        const struct d3d12_recorded_range *ranges, uint32_t count)
{
    uint32_t first = d3d12_command_record_add_ranges(&list->record, ranges, count);
    if (first == UINT32_MAX)
        d3d12_command_list_record_error(list, command, "out of memory for the command record");
    return first;
}

/* The recorded range of the subresources of resource (a texture) that a Vulkan range reaches. */
static inline struct d3d12_recorded_range d3d12_recorded_texture_range(const struct d3d12_resource *resource,
        const VkImageSubresourceRange *range, bool write)
{
    uint32_t first, count;
    d3d12xs_texture_subresource_span(resource, range, &first, &count);
    return (struct d3d12_recorded_range){VK_NULL_HANDLE, first, count, write, resource->vk_image};
}

/* Notes a command with the ranges it uses (none when noting them failed, which marks the list invalid). */
static inline void d3d12_command_list_note_with_ranges(struct d3d12_command_list *list, const char *command, enum d3d12_recorded_kind kind,
        const struct d3d12_recorded_range *ranges, uint32_t count)
{
    uint32_t first = d3d12_command_list_note_ranges(list, command, ranges, count);
    if (first != UINT32_MAX)
        d3d12_command_list_note(list, kind, first, count);
}

#endif
