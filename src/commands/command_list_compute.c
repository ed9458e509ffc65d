/* Compute work on a command list: Dispatch (after the compute bind point's flush,
 * command_list_flush.c) and the UAV clears' checks. */
#include <assert.h>
#include <string.h>

#include "command_recording.h"
#include "commands/command_list_predicated_write.h"
#include "command_list_flush.h"

#define METHOD(name) "ID3D12GraphicsCommandList::" #name

static const char *kind_name(enum d3d12xs_descriptor_kind kind)
{
    static const char *const names[] = {"never written", "a CBV", "an SRV", "a UAV", "a sampler", "a render target view", "a depth stencil view"};
    return names[kind];
}

/* Whether the next Dispatch may take the short way (dispatch_settled_at): its flush would do
 * nothing (the compute bind point owns the push constants, has nothing dirty, passed its checks
 * and binds the plain pipeline: constants_only), nothing waits in the barrier tracker for the
 * compute stage, and no predicate, console validation record or cut after each command needs
 * the full way. The calls that keep it (compute root arguments) change none of this but dirty. */
static inline bool dispatch_settled(const struct d3d12_command_list *list)
{
    const struct d3d12_bind_point_state *point = &list->bindings.points[D3D12_BIND_POINT_COMPUTE];

    return !list->predication.active && !list->object.device->console_validation && !list->split_every
            && list->bindings.push_owner == D3D12_BIND_POINT_COMPUTE && point->validated && point->constants_only && !point->dirty
            && !list->bindings.graphics.rendering && !list->barriers.transfer_layout_count
            && !(list->barriers.waiting & d3d12_tracked_stages(VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT));
}

/* Every check, the flush, barriers and predication, then the dispatch; and whether the next
 * one may take the short way. Out of line, so that the short way needs no stack frame. */
static void __attribute__((noinline)) dispatch_full(struct d3d12_command_list *list, UINT x, UINT y, UINT z)
{
    const char *command = METHOD(Dispatch);

    if (!d3d12_command_list_compute_list(list, command) || !d3d12_command_list_outside_render_pass(list, command))
        return;
    if (x > D3D12_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION || y > D3D12_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION
            || z > D3D12_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION) {
        d3d12_command_list_record_error(list, command, "ThreadGroupCount %u x %u x %u exceeds 65535 in a dimension", x, y, z);
        return;
    }
    if (!d3d12_command_list_flush_compute(list, command, 0))
        return;
    if (x && y && z) {
        d3d12_barriers_before(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
        d3d12_command_list_begin_predicated(list);
        list->vk.vkCmdDispatch(list->vk_command_buffer, x, y, z);
        d3d12_command_list_end_predicated(list);
        d3d12_command_list_note(list, D3D12_RECORDED_DISPATCH, list->record.dispatch_first, list->record.dispatch_count);
    }
    if (dispatch_settled(list)) {
        /* the short way's dispatches until the list leaves this state each count as this one */
        d3d12_command_list_fold_settled_dispatches(list);
        list->settled_adds.abi = list->bindings.points[D3D12_BIND_POINT_COMPUTE].root_signature->memory_abi;
        list->settled_adds.pushed = list->bindings.pipeline->pushed_root_descriptor_count;
        list->settled_adds.addresses = list->bindings.pipeline->address_count;
        list->dispatch_settled_at = list->call_count;
    }
}

/* A settled dispatch whose note does not fit the record's inline way. */
static void __attribute__((noinline)) settled_dispatch_noting(struct d3d12_command_list *list, UINT x, UINT y, UINT z)
{
    d3d12_command_list_note(list, D3D12_RECORDED_DISPATCH, list->record.dispatch_first, list->record.dispatch_count);
    list->vk.vkCmdDispatch(list->vk_command_buffer, x, y, z);
}

_Static_assert(D3D12_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION == 0xffff, "the short way tests the limit by the bits above 16");

void STDMETHODCALLTYPE d3d12_command_list_Dispatch(ID3D12GraphicsCommandList10 *iface, UINT x, UINT y, UINT z)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);

    /* the short way: the last dispatch left the list settled and at most compute root arguments
     * that left nothing dirty came since (dispatch_settled); a count past the limit goes the full
     * way for its error */
    if (__builtin_expect(list->dispatch_settled_at == list->call_count /* so recording too (stop_recording) */
            && !list->bindings.points[D3D12_BIND_POINT_COMPUTE].dirty && !((x | y | z) >> 16), 1)) {
        assert(dispatch_settled(list));
        list->dispatch_settled_at = ++list->call_count;
        list->settled_dispatches++; /* counted as the dispatch that settled the list */
        if (!x || !y || !z)
            return;
        if (__builtin_expect(!d3d12_command_list_note_fits(list), 0)) {
            settled_dispatch_noting(list, x, y, z);
            return;
        }
        d3d12_command_list_note(list, D3D12_RECORDED_DISPATCH, list->record.dispatch_first, list->record.dispatch_count);
        list->vk.vkCmdDispatch(list->vk_command_buffer, x, y, z);
        return;
    }
    dispatch_full(list, x, y, z);
}

/* The UAV clears' checks; the clear itself is command_list_uav_clear.c's. */
static void clear_uav(struct d3d12_command_list *list, const char *command, D3D12_CPU_DESCRIPTOR_HANDLE cpu_handle,
        ID3D12Resource *resource_iface, const uint32_t values[4], bool float_values, UINT rect_count, const D3D12_RECT *rects)
{
    struct d3d12xs_descriptor *descriptor;
    struct d3d12_predicated_write write;
    const char *reason;

    if (!d3d12_command_list_compute_list(list, command) || !d3d12_command_list_outside_render_pass(list, command))
        return;
    if (!(descriptor = d3d12xs_descriptor_lookup(list->object.device, cpu_handle, 1, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, &reason, NULL))) {
        d3d12_command_list_record_error(list, command, "ViewCPUHandle 0x%zx is %s", (size_t)cpu_handle.ptr, reason);
        return;
    }
    if (descriptor->kind != D3D12XS_DESCRIPTOR_UAV || descriptor->null_view) {
        d3d12_command_list_record_error(list, command, "ViewCPUHandle holds %s, not a UAV of a buffer", descriptor->null_view ? "a null view" : kind_name(descriptor->kind));
        return;
    }
    if (!resource_iface || unsafe_impl_from_ID3D12Resource(resource_iface) != descriptor->resource) {
        d3d12_command_list_record_error(list, command, "pResource is not the resource the view describes");
        return;
    }
    /* Under a predicate the clear is staged (d3d12_command_list_begin_predicated_write): the view's
     * subresources or bytes. */
    if (d3d12xs_descriptor_is_texture(descriptor)) {
        write = d3d12_predicated_texture_write(descriptor->resource, &descriptor->image_range);
        if (!d3d12_command_list_begin_predicated_write(list, command, &write))
            return;
        d3d12_command_list_clear_texture_uav(list, command, descriptor, values, float_values, rect_count, rects);
        d3d12_command_list_end_predicated_write(list, command, &write);
        return;
    }
    if (rect_count) {
        d3d12_command_list_record_error(list, command, "NumRects is %u (buffer views take no rectangles)", rect_count);
        return;
    }
    write = d3d12_predicated_buffer_write(descriptor->buffer, descriptor->offset, descriptor->range);
    if (!d3d12_command_list_begin_predicated_write(list, command, &write))
        return;
    d3d12_command_list_clear_buffer_uav(list, command, descriptor, values, float_values);
    d3d12_command_list_end_predicated_write(list, command, &write);
}

void STDMETHODCALLTYPE d3d12_command_list_ClearUnorderedAccessViewUint(ID3D12GraphicsCommandList10 *iface, D3D12_GPU_DESCRIPTOR_HANDLE gpu_handle,
        D3D12_CPU_DESCRIPTOR_HANDLE cpu_handle, ID3D12Resource *resource, const UINT values[4], UINT rect_count, const D3D12_RECT *rects)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    (void)gpu_handle;
    if (!values) {
        if (d3d12_command_list_compute_list(list, METHOD(ClearUnorderedAccessViewUint)))
            d3d12_command_list_record_error(list, METHOD(ClearUnorderedAccessViewUint), "Values is NULL");
        return;
    }
    clear_uav(list, METHOD(ClearUnorderedAccessViewUint), cpu_handle, resource, values, false, rect_count, rects);
}

void STDMETHODCALLTYPE d3d12_command_list_ClearUnorderedAccessViewFloat(ID3D12GraphicsCommandList10 *iface, D3D12_GPU_DESCRIPTOR_HANDLE gpu_handle,
        D3D12_CPU_DESCRIPTOR_HANDLE cpu_handle, ID3D12Resource *resource, const FLOAT values[4], UINT rect_count, const D3D12_RECT *rects)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    uint32_t bits[4];
    (void)gpu_handle;
    if (!values) {
        if (d3d12_command_list_compute_list(list, METHOD(ClearUnorderedAccessViewFloat)))
            d3d12_command_list_record_error(list, METHOD(ClearUnorderedAccessViewFloat), "Values is NULL");
        return;
    }
    memcpy(bits, values, sizeof(bits));
    clear_uav(list, METHOD(ClearUnorderedAccessViewFloat), cpu_handle, resource, bits, true, rect_count, rects);
}
