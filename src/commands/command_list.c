/* ID3D12GraphicsCommandList1-10: lifecycle (Reset/Close), COM plumbing and error reporting.
 * Commands are recorded straight into a VkCommandBuffer (command_list_copy.c,
 * command_list_query.c); a bad command marks the list invalid and Close reports it. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/command_recording.h"
#include "commands/command_list_flush.h"
#include "commands/command_list_graphics.h"
#include "generated/d3d12_stubs.h"

#define METHOD(name) "ID3D12GraphicsCommandList::" #name


/* ---- IUnknown, ID3D12Object, ID3D12DeviceChild, ID3D12CommandList ---- */

static HRESULT STDMETHODCALLTYPE d3d12_command_list_QueryInterface(ID3D12GraphicsCommandList10 *iface, REFIID riid, void **object)
{
    /* Every version answers with the one pointer: the vtable is ID3D12GraphicsCommandList10's, whose
     * slots include every earlier version's (the console table follows them all, d3d12_xs.h). */
    static const IID *const iids[] = {&IID_ID3D12GraphicsCommandList10, &IID_ID3D12GraphicsCommandList9, &IID_ID3D12GraphicsCommandList8,
            &IID_ID3D12GraphicsCommandList7, &IID_ID3D12GraphicsCommandList6, &IID_ID3D12GraphicsCommandList5,
            &IID_ID3D12GraphicsCommandList4, &IID_ID3D12GraphicsCommandList3, &IID_ID3D12GraphicsCommandList2,
            &IID_ID3D12GraphicsCommandList1, &IID_ID3D12GraphicsCommandList,
            &IID_ID3D12CommandList, &IID_ID3D12DeviceChild, &IID_ID3D12Object, &IID_IUnknown, NULL};
    return d3d12xs_query_interface(iface, METHOD(QueryInterface), iids, riid, object);
}

D3D12XS_DEVICE_CHILD_METHODS(d3d12_command_list, ID3D12GraphicsCommandList10, impl_from_ID3D12GraphicsCommandList10, "ID3D12GraphicsCommandList")

static void detach_allocator(struct d3d12_command_list *list)
{
    struct d3d12_command_allocator *allocator = list->allocator;
    if (!allocator)
        return;
    pthread_mutex_lock(&allocator->object.lock);
    if (allocator->recording_list == list)
        allocator->recording_list = NULL;
    pthread_mutex_unlock(&allocator->object.lock);
}

static ULONG STDMETHODCALLTYPE d3d12_command_list_Release(ID3D12GraphicsCommandList10 *iface)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    unsigned refcount = d3d12xs_object_release(&list->object);
    if (!refcount && !d3d12xs_exit_torn_down()) {
        /* The command buffer belongs to the allocator, which frees it on its own Reset or Release. */
        if (list->allocator) {
            if (list->state == D3D12_COMMAND_LIST_RECORDING && list->vk_command_buffer) {
                d3d12_command_list_end_rendering(list);
                d3d12_command_list_end_open_queries(list, NULL, true);
                vkEndCommandBuffer(list->vk_command_buffer);
            }
            detach_allocator(list);
            d3d12_command_allocator_release_private_ref(list->allocator);
        }
        d3d12_command_list_pix_release(list);
        free(list->query_resets);
        free(list->open_queries);
        free(list->query_pieces);
        free(list->render_pass.resolves);
        free(list->segments);
        free(list->value_writes);
        d3d12_command_record_cleanup(&list->record);
        d3d12xs_object_cleanup(&list->object);
        free(list);
    }
    return refcount;
}

static D3D12_COMMAND_LIST_TYPE STDMETHODCALLTYPE d3d12_command_list_GetType(ID3D12GraphicsCommandList10 *iface)
{
    return impl_from_ID3D12GraphicsCommandList10(iface)->type;
}

/* ---- lifecycle ---- */

static HRESULT begin_recording(struct d3d12_command_list *list, const char *method, ID3D12CommandAllocator *allocator_iface,
        ID3D12PipelineState *initial_state)
{
    struct d3d12_command_allocator *allocator;
    HRESULT hr = S_OK;

    if (!(allocator = unsafe_impl_from_ID3D12CommandAllocator(allocator_iface)))
        return d3d12xs_fail(E_INVALIDARG, method, "pAllocator is %s (must be an allocator from CreateCommandAllocator)",
                allocator_iface ? "not a d3d12xs allocator" : "NULL");
    if (allocator->type != list->type)
        return d3d12xs_fail(E_INVALIDARG, method, "pAllocator has type %d and the list type %d (they must match)", allocator->type, list->type);
    if (initial_state && !unsafe_impl_from_ID3D12PipelineState(initial_state))
        return d3d12xs_fail(E_INVALIDARG, method, "pInitialState is not a d3d12xs pipeline state");
    if (initial_state && list->type == D3D12_COMMAND_LIST_TYPE_COPY)
        return d3d12xs_fail(E_INVALIDARG, method, "pInitialState must be NULL for COPY lists");
    pthread_mutex_lock(&allocator->object.lock);
    if (allocator->recording_list && allocator->recording_list != list) {
        pthread_mutex_unlock(&allocator->object.lock);
        return d3d12xs_fail(E_INVALIDARG, method, "pAllocator '%s' already has a list recording into it (one at a time)",
                d3d12xs_object_name(&allocator->object));
    }
    allocator->recording_list = list;
    list->allocator_generation = allocator->reset_generation;
    pthread_mutex_unlock(&allocator->object.lock);

    if (list->allocator != allocator) {
        d3d12_command_allocator_add_private_ref(allocator);
        if (list->allocator) {
            detach_allocator(list);
            d3d12_command_allocator_release_private_ref(list->allocator);
        }
        list->allocator = allocator;
    }
    list->segment_count = 0;
    list->value_write_count = 0;
    d3d12_command_record_reset(&list->record); /* before the first segment, which starts at record 0 */
    d3d12_command_list_pix_reset(list);
    if (FAILED(hr = d3d12_command_list_start_segment(list, false, NULL, 0, NULL))) {
        detach_allocator(list);
        list->vk_command_buffer = VK_NULL_HANDLE;
        return d3d12xs_fail(hr, method, "cannot start recording into a Vulkan command buffer");
    }
    list->state = D3D12_COMMAND_LIST_RECORDING;
    list->invalid = false;
    list->error_hr = S_OK;
    list->error[0] = 0;
    list->render_pass.active = list->render_pass.begun = false;
    list->render_pass.begins_resuming = list->render_pass.ends_suspended = false;
    list->render_pass.resolve_count = 0;
    list->predication.active = false; /* D3D12 lists start unpredicated */
    list->query_reset_count = 0;
    list->query_reset_command_buffer = VK_NULL_HANDLE;
    list->open_query_count = 0;
    list->query_piece_count = 0;
    list->queries_in_views_pass = list->view_mask_kept = false;
    list->call_count = 0;
    list->draw_settled_at = list->dispatch_settled_at = UINT32_MAX;
    list->dispatch_counts[0] = list->dispatch_counts[1] = 0;
    list->root_descriptor_counts[0] = list->root_descriptor_counts[1] = 0;
    list->settled_dispatches = 0;
    list->rendering_pass_count = 0;
    memset(&list->generated_memory, 0, sizeof(list->generated_memory));
    d3d12_command_list_reset_bindings(list);
    list->in_internal = false;
    d3d12_barriers_reset(&list->barriers, d3d12_command_list_work_stages(list));
    if (initial_state)
        d3d12_command_list_set_pipeline_state(list, initial_state, method);
    /* D3D12 makes every write visible between ExecuteCommandLists calls. */
    d3d12_barriers_full(&list->barriers, list->vk_command_buffer);
    return S_OK;
}

/* A list that stops recording is settled for no draw or dispatch, so the short ways that test
 * draw_settled_at or dispatch_settled_at need not test the state too. */
static void stop_recording(struct d3d12_command_list *list)
{
    list->state = D3D12_COMMAND_LIST_CLOSED;
    list->draw_settled_at = list->dispatch_settled_at = UINT32_MAX;
}

static HRESULT STDMETHODCALLTYPE d3d12_command_list_Close(ID3D12GraphicsCommandList10 *iface)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    VkResult vr;

    if (list->state != D3D12_COMMAND_LIST_RECORDING)
        return d3d12xs_fail(E_FAIL, METHOD(Close), "the list '%s' is not recording (Close follows creation or Reset, once)",
                d3d12xs_object_name(&list->object));
    if (!list->vk_command_buffer) {
        stop_recording(list);
        detach_allocator(list);
        return d3d12xs_fail(E_INVALIDARG, METHOD(Close), "the list '%s' recorded an invalid command: %s",
                d3d12xs_object_name(&list->object), list->error);
    }
    /* D3D12 ends every render pass in the list that began it; Close's own line reports it. */
    if (list->render_pass.active && !list->invalid) {
        list->invalid = true;
        list->error_hr = E_INVALIDARG;
        snprintf(list->error, sizeof(list->error), "%s: a render pass is still open (EndRenderPass it before Close)", METHOD(Close));
    }
    list->render_pass.active = false;
    d3d12_command_list_end_rendering(list);
    d3d12_command_list_pix_close(list);
    d3d12_command_list_index_segments(list);
    /* D3D12 ends every query in the list that began it. */
    if (list->open_query_count)
        d3d12_command_list_end_open_queries(list, METHOD(Close), true);
    d3d12_barriers_restore_layouts(&list->barriers, list->vk_command_buffer);
    /* Host reads after a fence wait see the list's writes. */
    d3d12_barriers_emit(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
            VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT | VK_ACCESS_2_HOST_WRITE_BIT);
    vr = vkEndCommandBuffer(list->vk_command_buffer);
    if (list->query_reset_count && !list->invalid)
        d3d12_command_list_record_query_resets(list);
    stop_recording(list);
    detach_allocator(list);
    if (list->invalid)
        return d3d12xs_fail(list->error_hr, METHOD(Close), "the list '%s' recorded an invalid command: %s",
                d3d12xs_object_name(&list->object), list->error);
    if (vr != VK_SUCCESS) {
        list->invalid = true;
        snprintf(list->error, sizeof(list->error), "vkEndCommandBuffer failed (VkResult %d)", vr);
        return d3d12xs_fail(d3d12xs_hresult_from_vk(list->object.device, vr), METHOD(Close), "%s", list->error);
    }
    return S_OK;
}

static HRESULT STDMETHODCALLTYPE d3d12_command_list_Reset(ID3D12GraphicsCommandList10 *iface, ID3D12CommandAllocator *allocator,
        ID3D12PipelineState *initial_state)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);

    if (list->state == D3D12_COMMAND_LIST_RECORDING)
        return d3d12xs_fail(E_FAIL, METHOD(Reset), "the list '%s' is still recording (Close it before Reset)", d3d12xs_object_name(&list->object));
    return begin_recording(list, METHOD(Reset), allocator, initial_state);
}

void STDMETHODCALLTYPE d3d12_command_list_ClearState(ID3D12GraphicsCommandList10 *iface, ID3D12PipelineState *state)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    if (!d3d12_command_list_check_recording(list, METHOD(ClearState)) || !d3d12_command_list_outside_render_pass(list, METHOD(ClearState)))
        return;
    d3d12_command_list_reset_bindings(list);
    list->predication.active = false; /* the state of a new list: no predicate */
    if (state)
        d3d12_command_list_set_pipeline_state(list, state, METHOD(ClearState));
}

#if defined(__clang__)
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Woverride-init"
#endif

/* Each command's slot holds its emitter, d3d12_command_list_<Method> (command_table.h). */
#define LIST_SLOT(Method, table, bundle, parameters) D3D12XS_COMMAND_SLOT(Method, table, LIST, d3d12_command_list_##Method)
#define CONSOLE_SLOT(Method, table, bundle, parameters) D3D12XS_COMMAND_SLOT(Method, table, CONSOLE, d3d12_command_list_##Method)

static const D3D12XS_ID3D12GraphicsCommandListConsoleVtbl d3d12_command_list_console_vtbl = {
    D3D12XS_STUB_CONSOLE_VTBL_ID3D12GraphicsCommandList,
    D3D12XS_COMMANDS(CONSOLE_SLOT)
};

static const ID3D12GraphicsCommandList10Vtbl d3d12_command_list_vtbl = {
    D3D12XS_STUB_VTBL_ID3D12GraphicsCommandList10,
    .QueryInterface = d3d12_command_list_QueryInterface,
    D3D12XS_DEVICE_CHILD_VTBL_ENTRIES(d3d12_command_list),
    .Release = d3d12_command_list_Release,
    .GetType = d3d12_command_list_GetType,
    .Close = d3d12_command_list_Close,
    .Reset = d3d12_command_list_Reset,
    D3D12XS_COMMANDS(LIST_SLOT)
    .d3d12xs_console = &d3d12_command_list_console_vtbl,
};

struct d3d12_command_list *unsafe_impl_from_ID3D12CommandList(ID3D12CommandList *iface)
{
    if (!iface || iface->lpVtbl != (const void *)&d3d12_command_list_vtbl)
        return NULL;
    return D3D12XS_CONTAINING(iface, struct d3d12_command_list, ID3D12GraphicsCommandList10_iface);
}

/* Dispatches per root-argument ABI since creation or Reset (d3d12_command_list_count_dispatch counts them). */
HRESULT D3D12XSGetCommandListDispatchCounters(ID3D12CommandList *iface, D3D12XS_DISPATCH_COUNTERS *counters)
{
    static const char method[] = "D3D12XSGetCommandListDispatchCounters";
    struct d3d12_command_list *list = unsafe_impl_from_ID3D12CommandList(iface);

    if (!list)
        return d3d12xs_fail(E_INVALIDARG, method, "list is %s (must be a command list made by a d3d12xs device)", iface ? "not a d3d12xs command list" : "NULL");
    if (!counters)
        return d3d12xs_fail(E_INVALIDARG, method, "counters is NULL (must receive the counts)");
    d3d12_command_list_fold_settled_dispatches(list);
    counters->PushConstantAbiDispatches = list->dispatch_counts[0];
    counters->MemoryAbiDispatches = list->dispatch_counts[1];
    counters->PushedRootDescriptors = list->root_descriptor_counts[0];
    counters->MemoryRootDescriptors = list->root_descriptor_counts[1];
    return S_OK;
}

static struct d3d12_command_list *command_list_alloc(struct d3d12_device *device, D3D12_COMMAND_LIST_TYPE type)
{
    struct d3d12_command_list *list;

    if (!(list = calloc(1, sizeof(*list))))
        return NULL;
    list->ID3D12GraphicsCommandList10_iface.lpVtbl = &d3d12_command_list_vtbl;
    d3d12xs_object_init(&list->object, device);
    list->type = type;
    list->vk = device->vk_record;
    stop_recording(list);
    list->transfer_only = !device->queue_map[type].supports_compute;
    /* D3D12XS_SPLIT_LISTS=N cuts lists into a new segment after every N commands: tests run
     * with it to show that segments behave as one list. */
    list->split_every = device->config.split_lists_every;
    return list;
}

HRESULT d3d12_command_list_create(struct d3d12_device *device, D3D12_COMMAND_LIST_TYPE type,
        ID3D12CommandAllocator *allocator, ID3D12PipelineState *initial_state, REFIID riid, void **out)
{
    static const char method[] = "ID3D12Device::CreateCommandList";
    struct d3d12_command_list *list;
    HRESULT hr;

    if (!(list = command_list_alloc(device, type)))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the command list");
    /* D3D12 hands out new lists already recording. */
    if (FAILED(hr = begin_recording(list, method, allocator, initial_state))) {
        ID3D12GraphicsCommandList10_Release(&list->ID3D12GraphicsCommandList10_iface);
        return hr;
    }
    hr = d3d12xs_hand_out(ID3D12GraphicsCommandList10_QueryInterface(&list->ID3D12GraphicsCommandList10_iface, riid, out), method);
    ID3D12GraphicsCommandList10_Release(&list->ID3D12GraphicsCommandList10_iface);
    return hr;
}

/* ID3D12Device4::CreateCommandList1: a closed list with no allocator and nothing recorded; its
 * first Reset gives it an allocator. ExecuteCommandLists refuses it until then. */
HRESULT d3d12_command_list_create_closed(struct d3d12_device *device, D3D12_COMMAND_LIST_TYPE type, REFIID riid, void **out)
{
    static const char method[] = "ID3D12Device4::CreateCommandList1";
    struct d3d12_command_list *list;
    HRESULT hr;

    if (!(list = command_list_alloc(device, type)))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the command list");
    hr = d3d12xs_hand_out(ID3D12GraphicsCommandList10_QueryInterface(&list->ID3D12GraphicsCommandList10_iface, riid, out), method);
    ID3D12GraphicsCommandList10_Release(&list->ID3D12GraphicsCommandList10_iface);
    return hr;
}
