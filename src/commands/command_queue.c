/* ID3D12CommandQueue: checks its arguments and hands the work to its scheduler engine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/command_bundle.h"
#include "commands/command_list_state.h"
#include "commands/command_queue.h"
#include "sync/fence.h"
#include "sync/waiter.h"
#include "commands/console_validation.h"
#include "commands/console_flags.h"
#include "commands/pix_event.h"
#include "trace/trace.h"
#include "generated/d3d12_stubs.h"

#define METHOD(name) "ID3D12CommandQueue::" #name

static struct d3d12_command_queue *impl_from_ID3D12CommandQueue(ID3D12CommandQueue *iface)
{
    return D3D12XS_CONTAINING(iface, struct d3d12_command_queue, ID3D12CommandQueue_iface);
}

static HRESULT STDMETHODCALLTYPE d3d12_command_queue_QueryInterface(ID3D12CommandQueue *iface, REFIID riid, void **object)
{
    static const IID *const iids[] = {&IID_ID3D12CommandQueue, &IID_ID3D12Pageable, &IID_ID3D12DeviceChild, &IID_ID3D12Object, &IID_IUnknown, NULL};
    return d3d12xs_query_interface(iface, METHOD(QueryInterface), iids, riid, object);
}

D3D12XS_DEVICE_CHILD_METHODS(d3d12_command_queue, ID3D12CommandQueue, impl_from_ID3D12CommandQueue, "ID3D12CommandQueue")

static ULONG STDMETHODCALLTYPE d3d12_command_queue_Release(ID3D12CommandQueue *iface)
{
    struct d3d12_command_queue *queue = impl_from_ID3D12CommandQueue(iface);
    unsigned refcount = d3d12xs_object_release(&queue->object);
    if (!refcount && !d3d12xs_exit_torn_down()) {
        /* Submitted work runs to its end; held work is dropped (nothing can release it now). */
        if (queue->engine)
            d3d12_engine_orphan(queue->engine);
        d3d12_console_validation_forget_queue(queue->object.device, queue->engine);
        d3d12xs_object_cleanup(&queue->object);
        pthread_mutex_destroy(&queue->pix_lock);
        free(queue);
    }
    return refcount;
}

static const char *list_type_name(D3D12_COMMAND_LIST_TYPE type)
{
    switch (type) {
    case D3D12_COMMAND_LIST_TYPE_DIRECT: return "DIRECT";
    case D3D12_COMMAND_LIST_TYPE_BUNDLE: return "BUNDLE";
    case D3D12_COMMAND_LIST_TYPE_COMPUTE: return "COMPUTE";
    case D3D12_COMMAND_LIST_TYPE_COPY: return "COPY";
    default: return "unknown";
    }
}

/* The call index of a segment's last command; below its first_call when it has none (a list
 * that starts with a wait). */
static uint32_t last_call_of(const struct d3d12_command_list *list, size_t segment)
{
    uint32_t end = segment + 1 < list->segment_count ? list->segments[segment + 1].first_call : list->call_count;
    return end > list->segments[segment].first_call ? end - 1 : UINT32_MAX;
}

static void STDMETHODCALLTYPE d3d12_command_queue_ExecuteCommandLists(ID3D12CommandQueue *iface, UINT count, ID3D12CommandList *const *lists)
{
    struct d3d12_command_queue *queue = impl_from_ID3D12CommandQueue(iface);
    struct d3d12_device *device = queue->object.device;
    struct d3d12_submit_segment segment_stack[8], *segments = NULL;
    struct d3d12_command_list *list;
    uint32_t segment_count = 0;
    bool memory_waits = false;
    uint64_t serial, begin_ns = d3d12xs_trace_begin();
    bool stale;

    if (!count)
        return;
    if (!lists) {
        ERR("%s: ppCommandLists is NULL with NumCommandLists %u; nothing executed", METHOD(ExecuteCommandLists), count);
        return;
    }
    /* Every list is checked before any runs: a bad one cancels the whole call. */
    for (UINT i = 0; i < count; i++) {
        if (!(list = unsafe_impl_from_ID3D12CommandList(lists[i]))) {
            ERR("%s: ppCommandLists[%u] is %s; nothing executed", METHOD(ExecuteCommandLists), i, !lists[i] ? "NULL"
                    : d3d12_bundle_is_bundle(lists[i]) ? "a bundle (bundles run only through ExecuteBundle of a DIRECT list)"
                    : "not a d3d12xs command list");
            return;
        }
        if (list->type != queue->desc.Type) {
            ERR("%s: ppCommandLists[%u] is a %s list and the queue is %s (types must match); nothing executed", METHOD(ExecuteCommandLists),
                    i, list_type_name(list->type), list_type_name(queue->desc.Type));
            return;
        }
        if (list->state != D3D12_COMMAND_LIST_CLOSED) {
            /* Windows removes the device for this (GetDeviceRemovedReason: DXGI_ERROR_INVALID_CALL). */
            char why[256];
            snprintf(why, sizeof(why), "%s: ppCommandLists[%u] '%s' is still recording (Close it first); nothing executed",
                    METHOD(ExecuteCommandLists), i, d3d12xs_object_name(&list->object));
            d3d12_device_mark_removed(device, DXGI_ERROR_INVALID_CALL, why);
            return;
        }
        if (list->invalid) {
            ERR("%s: ppCommandLists[%u] '%s' failed Close (%s); nothing executed", METHOD(ExecuteCommandLists), i,
                    d3d12xs_object_name(&list->object), list->error);
            return;
        }
        if (!list->allocator) {
            ERR("%s: ppCommandLists[%u] '%s' has recorded nothing (CreateCommandList1 makes a closed, empty list: Reset it "
                    "with an allocator and record first); nothing executed", METHOD(ExecuteCommandLists), i, d3d12xs_object_name(&list->object));
            return;
        }
        pthread_mutex_lock(&list->allocator->object.lock);
        stale = list->allocator_generation != list->allocator->reset_generation;
        pthread_mutex_unlock(&list->allocator->object.lock);
        if (stale) {
            ERR("%s: ppCommandLists[%u] '%s' was recorded before its allocator '%s' was Reset, which freed its commands "
                    "(Reset the list and record again); nothing executed", METHOD(ExecuteCommandLists), i,
                    d3d12xs_object_name(&list->object), d3d12xs_object_name(&list->allocator->object));
            return;
        }
    }
    if (d3d12_device_removed_reason(device) != S_OK) {
        ERR("%s: the device is removed; nothing executed", METHOD(ExecuteCommandLists));
        return;
    }
    /* A render pass suspended at the end of one list resumes at the start of the next of the
     * same call (D3D12's debug layer checks it; d3d12xs renders either way, its passes load). */
    for (UINT i = 0; i < count; i++) {
        const struct d3d12_command_list *next = i + 1 < count ? unsafe_impl_from_ID3D12CommandList(lists[i + 1]) : NULL;
        list = unsafe_impl_from_ID3D12CommandList(lists[i]);
        if (list->render_pass.ends_suspended && (!next || !next->render_pass.begins_resuming))
            d3d12_device_debug_warn(device, METHOD(ExecuteCommandLists), "ppCommandLists[%u] '%s' ends with a suspended render pass that "
                    "no list after it in this call resumes", i, d3d12xs_object_name(&list->object));
        if (next && next->render_pass.begins_resuming && !list->render_pass.ends_suspended)
            d3d12_device_debug_warn(device, METHOD(ExecuteCommandLists), "ppCommandLists[%u] '%s' begins by resuming a render pass that "
                    "ppCommandLists[%u] did not suspend", i + 1, d3d12xs_object_name(&next->object), i);
    }
    if (count && unsafe_impl_from_ID3D12CommandList(lists[0])->render_pass.begins_resuming)
        d3d12_device_debug_warn(device, METHOD(ExecuteCommandLists), "ppCommandLists[0] begins by resuming a render pass, but no list "
                "before it in this call suspended one");

    for (UINT i = 0; i < count; i++) {
        list = unsafe_impl_from_ID3D12CommandList(lists[i]);
        segment_count += list->segment_count + (list->query_reset_command_buffer != VK_NULL_HANDLE);
    }
    segments = segment_count <= D3D12XS_ARRAY_SIZE(segment_stack) ? segment_stack : malloc(segment_count * sizeof(*segments));
    if (!segments) {
        ERR("%s: out of memory; nothing executed", METHOD(ExecuteCommandLists));
        goto done;
    }
    segment_count = 0;
    for (UINT i = 0; i < count; i++) {
        list = unsafe_impl_from_ID3D12CommandList(lists[i]);
        /* A transfer-only list's query resets run first, on the internal engine. */
        if (list->query_reset_command_buffer)
            segments[segment_count++] = (struct d3d12_submit_segment){
                .command_buffer = list->query_reset_command_buffer,
                .on_helper = true,
                .list_name = d3d12xs_object_name(&list->object),
                .cut_by = "the list's query resets",
            };
        for (uint32_t s = 0; s < list->segment_count; s++) {
            const struct d3d12_list_segment *segment = &list->segments[s];
            memory_waits |= segment->has_wait;
            segments[segment_count++] = (struct d3d12_submit_segment){
                .command_buffer = segment->command_buffer,
                .on_helper = segment->on_helper,
                .wait = segment->has_wait ? &segment->wait : NULL,
                .list_name = d3d12xs_object_name(&list->object),
                .index = s,
                .first_call = segment->first_call,
                .last_call = last_call_of(list, s),
                .first_command = segment->first_command,
                .last_command = segment->last_command,
                .first_command_call = segment->first_command_call,
                .last_command_call = segment->last_command_call,
                .cut_by = segment->cut_by,
                .writes = segment->write_count ? list->value_writes + segment->first_write : NULL,
                .write_count = segment->write_count,
                .trace_marks = list->trace_marks,
            };
        }
        d3d12_console_validation_execute(device, list, queue->engine, d3d12xs_object_name(&queue->object));
    }
    if (FAILED(d3d12_scheduler_execute(queue->engine, segments, segment_count, &serial)))
        goto done;
    if (begin_ns) {
        struct d3d12xs_trace_args args = {.length = 0};
        d3d12xs_trace_arg_string(&args, "queue", d3d12xs_object_name(&queue->object));
        d3d12xs_trace_arg_u64(&args, "lists", count);
        d3d12xs_trace_arg_u64(&args, "segments", segment_count);
        d3d12xs_trace_end(begin_ns, "ID3D12CommandQueue::ExecuteCommandLists", &args);
    }
    for (UINT i = 0; i < count; i++) {
        list = unsafe_impl_from_ID3D12CommandList(lists[i]);
        d3d12_command_allocator_note_submission(list->allocator, queue->engine, serial);
    }
    d3d12_waiter_kick(device, memory_waits);
done:
    if (segments != segment_stack)
        free(segments);
}

/* PIX events of a queue: spans on the calling thread's track of the trace file (docs/trace.md). */
static void STDMETHODCALLTYPE d3d12_command_queue_SetMarker(ID3D12CommandQueue *iface, UINT metadata, const void *data, UINT size)
{
    char name[64];
    (void)iface;
    if (!d3d12xs_trace_on())
        return;
    d3d12_pix_event_name(metadata, data, size, name, sizeof(name));
    d3d12xs_trace_instant(d3d12xs_trace_cpu_track(), "pix", name, d3d12xs_now_ns(), NULL);
}

static void STDMETHODCALLTYPE d3d12_command_queue_BeginEvent(ID3D12CommandQueue *iface, UINT metadata, const void *data, UINT size)
{
    struct d3d12_command_queue *queue = impl_from_ID3D12CommandQueue(iface);
    if (!d3d12xs_trace_on())
        return;
    pthread_mutex_lock(&queue->pix_lock);
    if (queue->pix_depth < D3D12XS_ARRAY_SIZE(queue->pix_events)) {
        struct d3d12_queue_pix_event *event = &queue->pix_events[queue->pix_depth];
        d3d12_pix_event_name(metadata, data, size, event->name, sizeof(event->name));
        event->begin_ns = d3d12xs_now_ns();
    }
    queue->pix_depth++;
    pthread_mutex_unlock(&queue->pix_lock);
}

static void STDMETHODCALLTYPE d3d12_command_queue_EndEvent(ID3D12CommandQueue *iface)
{
    struct d3d12_command_queue *queue = impl_from_ID3D12CommandQueue(iface);
    struct d3d12_queue_pix_event event = {0, ""};
    pthread_mutex_lock(&queue->pix_lock);
    if (queue->pix_depth && --queue->pix_depth < D3D12XS_ARRAY_SIZE(queue->pix_events))
        event = queue->pix_events[queue->pix_depth];
    pthread_mutex_unlock(&queue->pix_lock);
    if (event.begin_ns)
        d3d12xs_trace_span(d3d12xs_trace_cpu_track(), "pix", event.name, event.begin_ns, d3d12xs_now_ns(), NULL);
}

static HRESULT fence_argument(struct d3d12_command_queue *queue, const char *method, ID3D12Fence *fence_iface, struct d3d12_fence **fence)
{
    struct d3d12_device *device = queue->object.device;

    if (!(*fence = unsafe_impl_from_ID3D12Fence(fence_iface)))
        return d3d12xs_fail(E_INVALIDARG, method, "pFence is %s (must be a fence from CreateFence)", fence_iface ? "not a d3d12xs fence" : "NULL");
    if ((*fence)->object.device != device)
        return d3d12xs_fail(E_INVALIDARG, method, "pFence belongs to another device");
    return d3d12_device_removed_reason(device);
}

static HRESULT STDMETHODCALLTYPE d3d12_command_queue_Signal(ID3D12CommandQueue *iface, ID3D12Fence *fence_iface, UINT64 value)
{
    struct d3d12_command_queue *queue = impl_from_ID3D12CommandQueue(iface);
    struct d3d12_fence *fence;
    HRESULT hr;

    uint64_t begin_ns = d3d12xs_trace_begin();
    if ((hr = fence_argument(queue, METHOD(Signal), fence_iface, &fence)) != S_OK)
        return hr;
    hr = d3d12_scheduler_signal(queue->engine, fence->timeline, value);
    if (SUCCEEDED(hr))
        d3d12_console_validation_queue_signal(queue->object.device, queue->engine, queue->desc.Type, fence->timeline,
                d3d12xs_object_name(&fence->object), value);
    d3d12_waiter_kick(queue->object.device, false);
    d3d12_fence_trace_call(begin_ns, "ID3D12CommandQueue::Signal", fence, value);
    return hr;
}

/* The Vulkan stages a queue wait holds back (SPEC §2.2). The console's graphics command
 * processor has a prefetch parser that reads indirect arguments (and predicates) ahead; a plain
 * Wait holds it, a WaitX only with TOP_SELECT_ENGINE_PFP or _CE. Without either, a DIRECT
 * queue's wait leaves out the stages D3D12's INDIRECT_ARGUMENT state reads in (draw-indirect,
 * conditional rendering) and holds every other stage its lists run in. COMPUTE and COPY queues
 * have no prefetch parser: their waits hold everything. */
static VkPipelineStageFlags2 wait_stages(const struct d3d12_command_queue *queue, bool holds_prefetch)
{
    if (holds_prefetch || queue->desc.Type != D3D12_COMMAND_LIST_TYPE_DIRECT)
        return VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    return VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT | VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT
            | VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT | d3d12_draw_stages(queue->object.device);
}

/* Wait and WaitX: how names the call in the console validation's reports. */
static HRESULT queue_wait(struct d3d12_command_queue *queue, const char *method, ID3D12Fence *fence_iface, UINT64 value, VkPipelineStageFlags2 stages,
        bool holds_prefetch, const char *how)
{
    struct d3d12_fence *fence;
    bool parked = false;
    HRESULT hr;

    uint64_t begin_ns = d3d12xs_trace_begin();
    if ((hr = fence_argument(queue, method, fence_iface, &fence)) != S_OK)
        return hr;
    hr = d3d12_scheduler_wait_fence(queue->engine, fence->timeline, value, stages, &parked);
    if (SUCCEEDED(hr))
        d3d12_console_validation_queue_wait(queue->object.device, queue->engine, queue->desc.Type, fence->timeline, value, holds_prefetch, how);
    /* A parked wait is submitted by the waiter if nothing follows it soon: wake it from a long
     * slice then (a host call), else only nudge it. */
    d3d12_waiter_kick(queue->object.device, parked);
    d3d12_fence_trace_call(begin_ns, "ID3D12CommandQueue::Wait", fence, value);
    return hr;
}

static HRESULT STDMETHODCALLTYPE d3d12_command_queue_Wait(ID3D12CommandQueue *iface, ID3D12Fence *fence_iface, UINT64 value)
{
    struct d3d12_command_queue *queue = impl_from_ID3D12CommandQueue(iface);
    return queue_wait(queue, METHOD(Wait), fence_iface, value, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, true, "Wait");
}

static HRESULT STDMETHODCALLTYPE d3d12_command_queue_set_name(ID3D12CommandQueue *iface, LPCWSTR name)
{
    struct d3d12_command_queue *queue = impl_from_ID3D12CommandQueue(iface);
    HRESULT hr = d3d12xs_object_set_name(&queue->object, METHOD(SetName), name);
    if (SUCCEEDED(hr))
        d3d12_engine_set_name(queue->engine, d3d12xs_object_name(&queue->object));
    return hr;
}

static HRESULT STDMETHODCALLTYPE d3d12_command_queue_GetTimestampFrequency(ID3D12CommandQueue *iface, UINT64 *frequency)
{
    struct d3d12_command_queue *queue = impl_from_ID3D12CommandQueue(iface);
    struct d3d12_device *device = queue->object.device;

    if (!frequency)
        return d3d12xs_fail(E_INVALIDARG, METHOD(GetTimestampFrequency), "pFrequency is NULL (must receive ticks per second)");
    if (!device->queue_map[queue->desc.Type].timestamps)
        return d3d12xs_fail(E_FAIL, METHOD(GetTimestampFrequency), "the Vulkan queue family of this %s queue has no timestamps",
                list_type_name(queue->desc.Type));
    *frequency = (UINT64)(1e9 / device->vk_properties.limits.timestampPeriod + 0.5);
    return S_OK;
}

static HRESULT STDMETHODCALLTYPE d3d12_command_queue_GetClockCalibration(ID3D12CommandQueue *iface, UINT64 *gpu_timestamp, UINT64 *cpu_timestamp)
{
    struct d3d12_command_queue *queue = impl_from_ID3D12CommandQueue(iface);
    struct d3d12_device *device = queue->object.device;
    VkCalibratedTimestampInfoEXT infos[2] = {
        {.sType = VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, .timeDomain = VK_TIME_DOMAIN_DEVICE_EXT},
        {.sType = VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, .timeDomain = VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT},
    };
    uint64_t timestamps[2], deviation;
    VkResult vr;

    if (!gpu_timestamp || !cpu_timestamp)
        return d3d12xs_fail(E_INVALIDARG, METHOD(GetClockCalibration), "%s is NULL (both timestamps must be received)",
                gpu_timestamp ? "pCpuTimestamp" : "pGpuTimestamp");
    if (!device->has_calibrated_timestamps)
        return d3d12xs_fail(E_FAIL, METHOD(GetClockCalibration), "the Vulkan device lacks VK_EXT_calibrated_timestamps");
    if ((vr = device->vkGetCalibratedTimestampsEXT(device->vk_device, 2, infos, timestamps, &deviation)) != VK_SUCCESS)
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), METHOD(GetClockCalibration), "vkGetCalibratedTimestampsEXT failed (VkResult %d)", vr);
    /* The CPU side is in QueryPerformanceCounter units: CLOCK_MONOTONIC nanoseconds. */
    *gpu_timestamp = timestamps[0];
    *cpu_timestamp = timestamps[1];
    return S_OK;
}

static D3D12_COMMAND_QUEUE_DESC STDMETHODCALLTYPE d3d12_command_queue_GetDesc(ID3D12CommandQueue *iface)
{
    return impl_from_ID3D12CommandQueue(iface)->desc;
}

/* ---- the console's queue methods (SPEC §2.2, §2.6) ---- */


/* Wait with control over what takes part: the prefetch parser (PFP) or constant engine (CE)
 * selected, the indirect-argument fetch waits too (wait_stages). Each list starts with a full
 * barrier, so the cache actions are already done when the next list runs (docs/sync.md). */
static HRESULT STDMETHODCALLTYPE queue_WaitX(ID3D12CommandQueue *iface, ID3D12Fence *fence, UINT64 value, D3D12XBOX_SYNC_PARAMS *params)
{
    struct d3d12_command_queue *queue = impl_from_ID3D12CommandQueue(iface);
    const D3D12XBOX_SYNC_CONTROL_FLAGS engines = D3D12XBOX_SYNC_CONTROL_FLAG_TOP_SELECT_ENGINE_PFP | D3D12XBOX_SYNC_CONTROL_FLAG_TOP_SELECT_ENGINE_CE;
    char how[64];

    if (params && (params->SyncFlags & ~D3D12XS_KNOWN_SYNC_FLAGS))
        return d3d12xs_fail(E_INVALIDARG, "ID3D12CommandQueue::WaitX", "pSyncTopOfPipeParams->SyncFlags 0x%x has unknown bits",
                (unsigned)params->SyncFlags);
    if (params && (params->ControlFlags & ~D3D12XS_KNOWN_CONTROL_FLAGS))
        return d3d12xs_fail(E_INVALIDARG, "ID3D12CommandQueue::WaitX", "pSyncTopOfPipeParams->ControlFlags 0x%x has unknown bits",
                (unsigned)params->ControlFlags);
    if (params && (params->ControlFlags & D3D12XBOX_SYNC_CONTROL_FLAG_GCR_SEQUENCE_FORWARD)
            && (params->ControlFlags & D3D12XBOX_SYNC_CONTROL_FLAG_GCR_SEQUENCE_REVERSE))
        return d3d12xs_fail(E_INVALIDARG, "ID3D12CommandQueue::WaitX", "pSyncTopOfPipeParams->ControlFlags has both GCR sequences (at most one)");
    if (params)
        snprintf(how, sizeof(how), "WaitX with ControlFlags 0x%x", (unsigned)params->ControlFlags);
    else
        snprintf(how, sizeof(how), "WaitX with NULL pSyncTopOfPipeParams");
    /* The validation follows the console: only PFP holds the parser, CE alone does not (SPEC §2.2). */
    return queue_wait(queue, "ID3D12CommandQueue::WaitX", fence, value, wait_stages(queue, params && (params->ControlFlags & engines)),
            params && (params->ControlFlags & D3D12XBOX_SYNC_CONTROL_FLAG_TOP_SELECT_ENGINE_PFP), how);
}

/* Signal with cache flushes: a queue signal already waits for all earlier work and makes its
 * writes available (a Vulkan semaphore signal is a full memory dependency). */
static HRESULT STDMETHODCALLTYPE queue_SignalX(ID3D12CommandQueue *iface, ID3D12Fence *fence, UINT64 value, D3D12XBOX_FLUSH flush)
{
    if (flush & ~D3D12XS_KNOWN_FLUSH_FLAGS)
        return d3d12xs_fail(E_INVALIDARG, "ID3D12CommandQueue::SignalX", "Flush 0x%x has unknown bits 0x%x", (unsigned)flush,
                (unsigned)(flush & ~D3D12XS_KNOWN_FLUSH_FLAGS));
    return d3d12_command_queue_Signal(iface, fence, value);
}

/* Work is handed to the GPU as soon as its waits allow; there is nothing left to kick off. */
static HRESULT STDMETHODCALLTYPE queue_KickoffX(ID3D12CommandQueue *iface)
{
    (void)iface;
    return S_OK;
}

const D3D12XS_ID3D12CommandQueueConsoleVtbl d3d12_command_queue_console_vtbl = {
    D3D12XS_STUB_CONSOLE_VTBL_ID3D12CommandQueue,
    .WaitX = queue_WaitX,
    .SignalX = queue_SignalX,
    .KickoffX = queue_KickoffX,
};

#if defined(__clang__)
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Woverride-init"
#endif

static const ID3D12CommandQueueVtbl d3d12_command_queue_vtbl = {
    D3D12XS_STUB_VTBL_ID3D12CommandQueue,
    .QueryInterface = d3d12_command_queue_QueryInterface,
    D3D12XS_DEVICE_CHILD_VTBL_ENTRIES(d3d12_command_queue),
    .Release = d3d12_command_queue_Release,
    .ExecuteCommandLists = d3d12_command_queue_ExecuteCommandLists,
    .SetMarker = d3d12_command_queue_SetMarker,
    .BeginEvent = d3d12_command_queue_BeginEvent,
    .EndEvent = d3d12_command_queue_EndEvent,
    .SetName = d3d12_command_queue_set_name,
    .Signal = d3d12_command_queue_Signal,
    .Wait = d3d12_command_queue_Wait,
    .GetTimestampFrequency = d3d12_command_queue_GetTimestampFrequency,
    .GetClockCalibration = d3d12_command_queue_GetClockCalibration,
    .GetDesc = d3d12_command_queue_GetDesc,
    .d3d12xs_console = &d3d12_command_queue_console_vtbl,
};

struct d3d12_command_queue *unsafe_impl_from_ID3D12CommandQueue(ID3D12CommandQueue *iface)
{
    if (!iface || iface->lpVtbl != &d3d12_command_queue_vtbl)
        return NULL;
    return impl_from_ID3D12CommandQueue(iface);
}

HRESULT d3d12_command_queue_create(struct d3d12_device *device, const D3D12_COMMAND_QUEUE_DESC *desc, int vk_queue_index, const char *method,
        REFIID riid, void **out)
{
    struct d3d12_command_queue *queue;
    HRESULT hr;

    if (!(queue = calloc(1, sizeof(*queue))))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the queue");
    queue->ID3D12CommandQueue_iface.lpVtbl = &d3d12_command_queue_vtbl;
    d3d12xs_object_init(&queue->object, device);
    pthread_mutex_init(&queue->pix_lock, NULL);
    queue->desc = *desc;
    if (!queue->desc.NodeMask)
        queue->desc.NodeMask = 1;
    if (!(queue->engine = d3d12_engine_create(device, desc->Type, vk_queue_index, method))) {
        ID3D12CommandQueue_Release(&queue->ID3D12CommandQueue_iface);
        return E_OUTOFMEMORY;
    }
    hr = d3d12xs_hand_out(ID3D12CommandQueue_QueryInterface(&queue->ID3D12CommandQueue_iface, riid, out), method);
    ID3D12CommandQueue_Release(&queue->ID3D12CommandQueue_iface);
    return hr;
}
