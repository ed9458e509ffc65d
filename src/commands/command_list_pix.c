/* PIX events and markers of command lists (BeginEvent, EndEvent, SetMarker; <pix3.h>). While a
 * capture runs (docs/trace.md), each writes a GPU timestamp into the list's query pool where it
 * stands in the list, so the trace shows it on its queue's track, nested in the segments, at the
 * time the GPU reached it; otherwise they cost nothing. Lists of a family that cannot reset
 * queries in a command buffer (transfer-only COPY) record none. */
#include "commands/command_recording.h"
#include "commands/pix_event.h"
#include "trace/trace.h"

#define MARK_QUERIES 256u /* timestamps per recording; later events are left out of the trace */

/* The list's pool, made (and reset in its command buffer, ahead of every write of this
 * recording) by the first event of a recording. */
static struct d3d12_trace_marks *marks_for_recording(struct d3d12_command_list *list)
{
    struct d3d12_device *device = list->object.device;
    const struct d3d12_queue_family_map *map = &device->queue_map[list->type];

    if (!d3d12xs_trace_on() || !list->vk_command_buffer || !map->timestamps || !map->supports_compute
            || list->type == D3D12_COMMAND_LIST_TYPE_BUNDLE)
        return NULL;
    if (!list->trace_marks && !(list->trace_marks = d3d12_trace_marks_create(device, MARK_QUERIES)))
        return NULL;
    if (!list->trace_marks->reset_recorded) {
        vkCmdResetQueryPool(list->vk_command_buffer, list->trace_marks->pool, 0, MARK_QUERIES);
        list->trace_marks->reset_recorded = true;
    }
    return list->trace_marks->queries_used < list->trace_marks->query_count ? list->trace_marks : NULL;
}

static uint32_t write_timestamp(struct d3d12_command_list *list, struct d3d12_trace_marks *marks)
{
    uint32_t query = marks->queries_used++;
    /* after what the list recorded before it: where the event stands in the list */
    vkCmdWriteTimestamp2(list->vk_command_buffer, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, marks->pool, query);
    return query;
}

static struct d3d12_trace_mark *add_mark(struct d3d12_trace_marks *marks)
{
    if (!d3d12xs_array_reserve((void **)&marks->marks, &marks->capacity, marks->count + 1, sizeof(*marks->marks)))
        return NULL;
    return &marks->marks[marks->count++];
}

void STDMETHODCALLTYPE d3d12_command_list_BeginEvent(ID3D12GraphicsCommandList10 *iface, UINT metadata, const void *data, UINT size)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    struct d3d12_trace_marks *marks;
    struct d3d12_trace_mark *mark;

    /* every BeginEvent counts, so that EndEvent pairs right even when one is not timed */
    if (list->state != D3D12_COMMAND_LIST_RECORDING)
        return;
    if (list->pix_depth < D3D12XS_ARRAY_SIZE(list->pix_open))
        list->pix_open[list->pix_depth] = UINT32_MAX;
    list->pix_depth++;
    if (list->pix_depth > D3D12XS_ARRAY_SIZE(list->pix_open) || !(marks = marks_for_recording(list)) || !(mark = add_mark(marks)))
        return;
    d3d12_pix_event_name(metadata, data, size, mark->name, sizeof(mark->name));
    mark->marker = false;
    mark->begin_query = write_timestamp(list, marks);
    mark->end_query = UINT32_MAX;
    list->pix_open[list->pix_depth - 1] = marks->count - 1;
}

static void end_event(struct d3d12_command_list *list)
{
    uint32_t open;
    list->pix_depth--;
    if (list->pix_depth >= D3D12XS_ARRAY_SIZE(list->pix_open) || (open = list->pix_open[list->pix_depth]) == UINT32_MAX
            || !list->trace_marks)
        return;
    if (list->trace_marks->queries_used < list->trace_marks->query_count) {
        list->trace_marks->marks[open].end_query = write_timestamp(list, list->trace_marks);
        list->trace_marks->marks[open].end_segment = (uint32_t)list->segment_count - 1;
    }
}

void STDMETHODCALLTYPE d3d12_command_list_EndEvent(ID3D12GraphicsCommandList10 *iface)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    if (list->state != D3D12_COMMAND_LIST_RECORDING || !list->pix_depth)
        return;
    end_event(list);
}

void STDMETHODCALLTYPE d3d12_command_list_SetMarker(ID3D12GraphicsCommandList10 *iface, UINT metadata, const void *data, UINT size)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    struct d3d12_trace_marks *marks;
    struct d3d12_trace_mark *mark;

    if (list->state != D3D12_COMMAND_LIST_RECORDING || !(marks = marks_for_recording(list)) || !(mark = add_mark(marks)))
        return;
    d3d12_pix_event_name(metadata, data, size, mark->name, sizeof(mark->name));
    mark->marker = true;
    mark->begin_query = mark->end_query = write_timestamp(list, marks);
    mark->end_segment = (uint32_t)list->segment_count - 1;
}

void d3d12_command_list_pix_close(struct d3d12_command_list *list)
{
    /* events left open end with the list */
    while (list->pix_depth)
        end_event(list);
}

void d3d12_command_list_pix_reset(struct d3d12_command_list *list)
{
    struct d3d12_trace_marks *marks = list->trace_marks;
    list->pix_depth = 0;
    if (!marks)
        return;
    /* No traced execution holds it any more: the next recording writes it again (its first
     * event resets the queries in the command buffer), rather than make a pool per recording. */
    if (atomic_load(&marks->refcount) == 1) {
        marks->count = 0;
        marks->queries_used = 0;
        marks->reset_recorded = false;
        return;
    }
    d3d12_trace_marks_release(marks);
    list->trace_marks = NULL;
}

void d3d12_command_list_pix_release(struct d3d12_command_list *list)
{
    if (list->trace_marks)
        d3d12_trace_marks_release(list->trace_marks);
    list->trace_marks = NULL;
}
