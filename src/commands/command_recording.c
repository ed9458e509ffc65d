/* What every recorded command shares: error reporting, internal work inside a list, segments
 * and the command record (barriers are the tracker's: barrier_tracker.c). The command files
 * (command_list_*.c) reach these through the inline helpers of command_recording.h; this file
 * needs only the list's structure. */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/command_list_state.h"
#include "commands/query_heap.h"

static void record_failure(struct d3d12_command_list *list, HRESULT hr, const char *command, const char *fmt, va_list args)
{
    char reason[400];

    vsnprintf(reason, sizeof(reason), fmt, args);
    ERR("%s: %s (the list '%s' is now invalid; Close will fail)", command, reason, d3d12xs_object_name(&list->object));
    if (!list->invalid) {
        list->invalid = true;
        list->error_hr = hr;
        snprintf(list->error, sizeof(list->error), "%s: %s", command, reason);
    }
}

void d3d12_command_list_record_error(struct d3d12_command_list *list, const char *command, const char *fmt, ...)
{
    va_list args;

    va_start(args, fmt);
    record_failure(list, E_INVALIDARG, command, fmt, args);
    va_end(args);
}

void d3d12_command_list_record_unsupported(struct d3d12_command_list *list, const char *command, const char *fmt, ...)
{
    va_list args;

    va_start(args, fmt);
    record_failure(list, E_NOTIMPL, command, fmt, args);
    va_end(args);
}

void d3d12_command_list_debug_warn(struct d3d12_command_list *list, const char *command, const char *fmt, ...)
{
    char reason[400];
    va_list args;

    if (list->object.device->config.debug != D3D12XS_CONFIG_ON)
        return;
    va_start(args, fmt);
    vsnprintf(reason, sizeof(reason), fmt, args);
    va_end(args);
    d3d12_device_debug_warn(list->object.device, command, "%s (list '%s')", reason, d3d12xs_object_name(&list->object));
}

void d3d12_command_list_report_copy_list(struct d3d12_command_list *list, const char *command)
{
    d3d12_command_list_record_error(list, command, "COPY lists cannot bind or run compute work");
}

void d3d12_command_list_report_closed(struct d3d12_command_list *list, const char *command)
{
    ERR("%s: the list '%s' is closed (Reset it before recording); command ignored", command, d3d12xs_object_name(&list->object));
}

/* ---- internal work in the application's command buffer ---- */

/* Nothing the application bound is bound any more, at either bind point: its next dispatch or
 * draw binds the pipeline, pushes the constants, table starts and descriptors, and binds the
 * heaps' offsets again. */
static void bindings_unbound(struct d3d12_command_list *list)
{
    for (int p = 0; p < D3D12_BIND_POINT_COUNT; p++) {
        struct d3d12_bind_point_state *state = &list->bindings.points[p];
        state->dirty = D3D12_DIRTY_PIPELINE | D3D12_DIRTY_CONSTANTS | D3D12_DIRTY_DESCRIPTORS | D3D12_DIRTY_TABLES
                | D3D12_DIRTY_HEAP_OFFSETS | D3D12_DIRTY_ROOT_VIEW_OFFSETS;
        state->bound_vk_pipeline = VK_NULL_HANDLE;
        state->constants_in = state->heap_sets_in = state->table_starts_in = VK_NULL_HANDLE; /* internal work pushed and bound its own */
    }
}

/* Transform feedback ends with the pass (Vulkan ends no pass with it active): each slot's byte
 * count goes to its BufferFilledSizeLocation, which the next draw that streams out reads when it
 * begins again; so that read (and the writes after it) wait for this write. */
static void end_transform_feedback(struct d3d12_command_list *list)
{
    const struct d3d12_graphics_bindings *graphics = &list->bindings.graphics;
    const struct d3d12xs_graphics_caps *caps = &list->object.device->graphics;
    VkBuffer counters[D3D12_SO_BUFFER_SLOT_COUNT];
    VkDeviceSize offsets[D3D12_SO_BUFFER_SLOT_COUNT];

    uint32_t count = graphics->xfb_slots ? 32 - (uint32_t)__builtin_clz(graphics->xfb_slots) : 0;

    for (uint32_t slot = 0; slot < count; slot++) {
        bool written = graphics->xfb_slots & (1u << slot);
        counters[slot] = written ? graphics->xfb_targets[slot].filled_size_buffer : VK_NULL_HANDLE;
        offsets[slot] = written ? graphics->xfb_targets[slot].filled_size_offset : 0;
    }
    caps->vkCmdEndTransformFeedbackEXT(list->vk_command_buffer, 0, count, counters, offsets);
    d3d12_barriers_request(&list->barriers, VK_PIPELINE_STAGE_2_TRANSFORM_FEEDBACK_BIT_EXT,
            VK_ACCESS_2_TRANSFORM_FEEDBACK_WRITE_BIT_EXT | VK_ACCESS_2_TRANSFORM_FEEDBACK_COUNTER_WRITE_BIT_EXT,
            VK_PIPELINE_STAGE_2_TRANSFORM_FEEDBACK_BIT_EXT, VK_ACCESS_2_TRANSFORM_FEEDBACK_WRITE_BIT_EXT
            | VK_ACCESS_2_TRANSFORM_FEEDBACK_COUNTER_READ_BIT_EXT | VK_ACCESS_2_TRANSFORM_FEEDBACK_COUNTER_WRITE_BIT_EXT);
}

void d3d12_command_list_end_rendering(struct d3d12_command_list *list)
{
    struct d3d12_graphics_bindings *graphics = &list->bindings.graphics;
    HRESULT hr;
    if (!graphics->rendering)
        return;
    if (graphics->rendering_in == list->vk_command_buffer && list->vk_command_buffer) {
        if (graphics->xfb_active)
            end_transform_feedback(list);
        if (list->queries_in_views_pass)
            d3d12_command_list_queries_end_in_views_pass(list);
        vkCmdEndRendering(list->vk_command_buffer);
        graphics->rendering = false;
        if (graphics->rendering_key.view_mask && list->object.device->vk_driver_properties.driverID == VK_DRIVER_ID_MESA_LLVMPIPE)
            list->view_mask_kept = true;
        if (list->queries_in_views_pass && FAILED(hr = d3d12_command_list_queries_after_views_pass(list)))
            d3d12_command_list_record_error(list, "the end of a view-instanced pass", "cannot make the Vulkan queries that count the "
                    "queries open across it (HRESULT 0x%08x)", (unsigned)hr);
    }
    list->queries_in_views_pass = false;
    graphics->xfb_active = false;
    graphics->rendering = false;
}

VkCommandBuffer d3d12_command_list_begin_internal(struct d3d12_command_list *list)
{
    assert(!list->in_internal);
    d3d12_command_list_end_rendering(list);
    list->in_internal = true;
    return list->vk_command_buffer;
}

void d3d12_command_list_end_internal(struct d3d12_command_list *list)
{
    assert(list->in_internal);
    list->in_internal = false;
    bindings_unbound(list);
}

/* ---- segments and the command record ---- */

HRESULT d3d12_command_list_begin_command_buffer(struct d3d12_command_list *list, bool helper, VkCommandBuffer *command_buffer)
{
    struct d3d12_command_allocator *allocator = list->allocator;
    VkCommandBufferBeginInfo begin_info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        /* A closed list may be executed again while a previous execution still runs. */
        .flags = VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT,
    };
    VkResult vr;
    HRESULT hr;

    pthread_mutex_lock(&allocator->object.lock);
    hr = d3d12_command_allocator_get_command_buffer(allocator, helper, command_buffer);
    pthread_mutex_unlock(&allocator->object.lock);
    if (FAILED(hr))
        return hr;
    if ((vr = vkBeginCommandBuffer(*command_buffer, &begin_info)) != VK_SUCCESS)
        return d3d12xs_hresult_from_vk(list->object.device, vr);
    return S_OK;
}

HRESULT d3d12_command_list_start_segment(struct d3d12_command_list *list, bool helper, const struct d3d12_memory_wait *wait, uint32_t first_call,
        const char *cut_by)
{
    VkCommandBuffer command_buffer;
    HRESULT hr;

    if (!d3d12xs_array_reserve((void **)&list->segments, &list->segment_capacity, list->segment_count + 1, sizeof(*list->segments)))
        return E_OUTOFMEMORY;
    if (FAILED(hr = d3d12_command_list_begin_command_buffer(list, helper, &command_buffer)))
        return hr;
    list->segments[list->segment_count++] = (struct d3d12_list_segment){
        .command_buffer = command_buffer,
        .on_helper = helper,
        .has_wait = wait != NULL,
        .wait = wait ? *wait : (struct d3d12_memory_wait){0},
        .first_call = first_call,
        .cut_by = cut_by,
        .first_write = (uint32_t)list->value_write_count,
        .first_record = list->record.command_count,
    };
    list->vk_command_buffer = command_buffer;
    list->on_helper = helper;
    list->commands_in_segment = 0;
    return S_OK;
}

bool d3d12_command_list_cut_segment(struct d3d12_command_list *list, const char *command, bool helper, const struct d3d12_memory_wait *wait)
{
    VkResult vr;
    HRESULT hr;

    assert(!list->in_internal);
    d3d12_command_list_end_rendering(list);
    if (d3d12_command_list_has_active_queries(list))
        d3d12_command_list_end_open_queries(list, command, false);
    /* Other queues may run between segments: images go back to their one layout. */
    d3d12_barriers_restore_layouts(&list->barriers, list->vk_command_buffer);
    if ((vr = vkEndCommandBuffer(list->vk_command_buffer)) != VK_SUCCESS) {
        d3d12_command_list_record_error(list, command, "vkEndCommandBuffer failed (VkResult %d)", vr);
        return false;
    }
    if (FAILED(hr = d3d12_command_list_start_segment(list, helper, wait, list->call_count ? list->call_count - 1 : 0, command))) {
        /* The list cannot record any further: keep a valid command buffer for Close to end. */
        list->vk_command_buffer = VK_NULL_HANDLE;
        d3d12_command_list_record_error(list, command, "cannot start a new segment (HRESULT 0x%08x)", (unsigned)hr);
        return false;
    }
    /* Vulkan state does not carry across command buffers: bind everything again. */
    bindings_unbound(list);
    return true;
}

void d3d12_command_list_note_value_write(struct d3d12_command_list *list, const char *command, uint64_t gpu_address, uint64_t value,
        uint32_t size)
{
    if (!d3d12xs_array_reserve((void **)&list->value_writes, &list->value_write_capacity, list->value_write_count + 1,
            sizeof(*list->value_writes))) {
        d3d12_command_list_record_error(list, command, "out of memory for the list's value writes");
        return;
    }
    list->value_writes[list->value_write_count++] = (struct d3d12_value_write){gpu_address, value, size};
    list->segments[list->segment_count - 1].write_count++;
}

void d3d12_command_list_index_segments(struct d3d12_command_list *list)
{
    /* A command is noted in the segment open at its call (segment_count - 1), so each segment's
     * commands are the run from its first_record to the next one's: two look-ups a segment, not
     * a walk over every command at each Close. */
    const struct d3d12_command_record *record = &list->record;
    for (size_t s = 0; s < list->segment_count; s++) {
        struct d3d12_list_segment *segment = &list->segments[s];
        size_t end = s + 1 < list->segment_count ? list->segments[s + 1].first_record : record->command_count;
        segment->first_command = segment->last_command = NULL;
        if (segment->first_record < end && end <= record->command_count) {
            const struct d3d12_recorded_command *first = &record->commands[segment->first_record], *last = &record->commands[end - 1];
            segment->first_command = d3d12_recorded_kind_name(first->kind);
            segment->first_command_call = first->call_index;
            segment->last_command = d3d12_recorded_kind_name(last->kind);
            segment->last_command_call = last->call_index;
        }
    }
}

void d3d12_command_list_note_slow(struct d3d12_command_list *list, enum d3d12_recorded_kind kind, uint32_t first_range, uint32_t range_count)
{
    if (!d3d12_command_record_add(&list->record, kind, list->call_count - 1, (uint32_t)list->segment_count - 1, first_range, range_count))
        d3d12_command_list_record_error(list, d3d12_recorded_kind_name(kind), "out of memory for the command record");
    /* Not under an active Vulkan query, which cannot span command buffers: the cut waits for its EndQuery. */
    if (list->split_every && ++list->commands_in_segment >= list->split_every && !list->invalid && !d3d12_command_list_has_active_queries(list))
        d3d12_command_list_cut_segment(list, d3d12_recorded_kind_name(kind), list->on_helper, NULL);
}

void d3d12_command_list_walk(const struct d3d12_command_list *list,
        void (*visit)(const struct d3d12_recorded_command *command, const struct d3d12_recorded_range *ranges, void *context), void *context)
{
    for (size_t i = 0; i < list->record.command_count; i++)
        visit(&list->record.commands[i], list->record.ranges + list->record.commands[i].first_range, context);
}

/* Ends the list's open Vulkan queries: at Close (an error D3D12 defines: Close's own line
 * reports it), or where a new command buffer starts under one (d3d12xs cannot split a query). */
void d3d12_command_list_end_open_queries(struct d3d12_command_list *list, const char *command, bool close)
{
    bool reported = !command;

    for (uint32_t i = 0; i < list->open_query_count; i++) {
        struct d3d12_open_query *open = &list->open_queries[i];
        if (!reported && close) {
            /* Close's own line reports it: one line for the one call. */
            if (!list->invalid) {
                list->invalid = true;
                list->error_hr = E_INVALIDARG;
                snprintf(list->error, sizeof(list->error), "%s: query %u (%s) is still open (EndQuery it in the list that began it)",
                        command, open->index, d3d12_query_type_name(open->type));
            }
            reported = true;
        } else if (!reported && open->vk_pool) {
            d3d12_command_list_record_error(list, command, "query %u (%s) is open across this command, which starts a new Vulkan "
                    "command buffer (d3d12xs cannot split a query: EndQuery it before)", open->index, d3d12_query_type_name(open->type));
            reported = true;
        }
        if (list->vk_command_buffer)
            d3d12_command_list_end_vulkan_query(list, open);
        open->vk_pool = open->active_pool = VK_NULL_HANDLE;
    }
}
