/* ResourceBarrier: its checks, and the dependency it asks the barrier tracker for (what the
 * D3D12 states mean in Vulkan: resource_states.h). */
#include "command_recording.h"
#include "commands/resource_states.h"
#include "memory/texture_layout.h"

#define METHOD(name) "ID3D12GraphicsCommandList::" #name

static bool barrier_valid(struct d3d12_command_list *list, UINT index, const D3D12_RESOURCE_BARRIER *barrier)
{
    const char *command = METHOD(ResourceBarrier);

    if (barrier->Flags & ~(D3D12_RESOURCE_BARRIER_FLAG_BEGIN_ONLY | D3D12_RESOURCE_BARRIER_FLAG_END_ONLY)
            || barrier->Flags == (D3D12_RESOURCE_BARRIER_FLAG_BEGIN_ONLY | D3D12_RESOURCE_BARRIER_FLAG_END_ONLY)) {
        d3d12_command_list_record_error(list, command, "pBarriers[%u].Flags is 0x%x (NONE, BEGIN_ONLY or END_ONLY)", index, barrier->Flags);
        return false;
    }
    switch (barrier->Type) {
    case D3D12_RESOURCE_BARRIER_TYPE_TRANSITION: {
        const D3D12_RESOURCE_TRANSITION_BARRIER *transition = &barrier->Transition;
        struct d3d12_resource *resource = unsafe_impl_from_ID3D12Resource(transition->pResource);
        uint32_t subresources;
        if (!resource) {
            d3d12_command_list_record_error(list, command, "pBarriers[%u].Transition.pResource is %s", index,
                    transition->pResource ? "not a d3d12xs resource" : "NULL");
            return false;
        }
        subresources = resource->vk_image ? d3d12xs_texture_subresource_count(&resource->desc) : 1;
        if (transition->Subresource >= subresources && transition->Subresource != D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES) {
            d3d12_command_list_record_error(list, command, "pBarriers[%u].Transition.Subresource is %u (resource '%s' has %u)",
                    index, transition->Subresource, d3d12xs_object_name(&resource->object), subresources);
            return false;
        }
        if (transition->StateBefore == transition->StateAfter) {
            d3d12_command_list_record_error(list, command, "pBarriers[%u] transitions from state 0x%x to the same state", index,
                    transition->StateBefore);
            return false;
        }
        return true;
    }
    case D3D12_RESOURCE_BARRIER_TYPE_ALIASING:
        if ((barrier->Aliasing.pResourceBefore && !unsafe_impl_from_ID3D12Resource(barrier->Aliasing.pResourceBefore))
                || (barrier->Aliasing.pResourceAfter && !unsafe_impl_from_ID3D12Resource(barrier->Aliasing.pResourceAfter))) {
            d3d12_command_list_record_error(list, command, "pBarriers[%u].Aliasing names something that is not a d3d12xs resource", index);
            return false;
        }
        return true;
    case D3D12_RESOURCE_BARRIER_TYPE_UAV:
        if (barrier->UAV.pResource && !unsafe_impl_from_ID3D12Resource(barrier->UAV.pResource)) {
            d3d12_command_list_record_error(list, command, "pBarriers[%u].UAV.pResource is not a d3d12xs resource", index);
            return false;
        }
        return true;
    default:
        d3d12_command_list_record_error(list, command, "pBarriers[%u].Type is %d (TRANSITION, ALIASING or UAV)", index, (int)barrier->Type);
        return false;
    }
}

/* Inside a D3D12 render pass the barriers its specification calls non-conformant (a UAV or
 * aliasing barrier; a bound render target or depth-stencil leaving RENDER_TARGET or DEPTH_WRITE:
 * writes of the pass are not to be read in it) are the debug layer's to report: one warning. */
static void check_render_pass_barrier(struct d3d12_command_list *list, UINT index, const D3D12_RESOURCE_BARRIER *barrier)
{
    const struct d3d12_graphics_bindings *graphics = &list->bindings.graphics;
    const struct d3d12_resource *resource;
    bool bound = false;

    if (barrier->Type != D3D12_RESOURCE_BARRIER_TYPE_TRANSITION) {
        d3d12_command_list_debug_warn(list, METHOD(ResourceBarrier), "pBarriers[%u] is %s barrier inside a render pass, which D3D12's render "
                "passes do not allow", index, barrier->Type == D3D12_RESOURCE_BARRIER_TYPE_UAV ? "a UAV" : "an aliasing");
        return;
    }
    if (!(barrier->Transition.StateBefore & (D3D12_RESOURCE_STATE_RENDER_TARGET | D3D12_RESOURCE_STATE_DEPTH_WRITE)))
        return;
    resource = unsafe_impl_from_ID3D12Resource(barrier->Transition.pResource);
    for (uint32_t i = 0; i < graphics->rt_count; i++)
        bound |= graphics->rts[i].resource == resource;
    bound |= graphics->has_depth_stencil && graphics->depth_stencil.resource == resource;
    if (bound)
        d3d12_command_list_debug_warn(list, METHOD(ResourceBarrier), "pBarriers[%u] moves a target of the open render pass out of state 0x%x "
                "(what the pass writes may not be read before EndRenderPass)", index, barrier->Transition.StateBefore);
}

void STDMETHODCALLTYPE d3d12_command_list_ResourceBarrier(ID3D12GraphicsCommandList10 *iface, UINT count, const D3D12_RESOURCE_BARRIER *barriers)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    VkPipelineStageFlags2 dst_stages = 0;
    VkAccessFlags2 dst_access = 0;

    if (!d3d12_command_list_check_recording(list, METHOD(ResourceBarrier)))
        return;
    if (count && !barriers) {
        d3d12_command_list_record_error(list, METHOD(ResourceBarrier), "pBarriers is NULL with NumBarriers %u", count);
        return;
    }
    for (UINT i = 0; i < count; i++) {
        if (!barrier_valid(list, i, &barriers[i]))
            return;
        if (list->render_pass.active)
            check_render_pass_barrier(list, i, &barriers[i]);
        /* The first half of a split barrier does nothing; the second half synchronises. */
        if (!(barriers[i].Flags & D3D12_RESOURCE_BARRIER_FLAG_BEGIN_ONLY)) {
            struct d3d12_state_sync sync = d3d12_resource_barrier_sync(&barriers[i]);
            dst_stages |= sync.stages;
            dst_access |= sync.access;
        }
    }
    /* Buffers have no layouts and images keep GENERAL (memory/texture.h): all barriers of the
     * call become one memory dependency from the work each destination stage has not waited
     * for yet, emitted before the next command of that stage (d3d12_barriers_before). */
    if (dst_stages)
        d3d12_barriers_request_recorded(&list->barriers, VK_ACCESS_2_MEMORY_WRITE_BIT, dst_stages, dst_access);
    if (count) {
        /* A D3D12 barrier completes earlier writes and makes them visible (console: its cache actions). */
        d3d12_command_list_note(list, D3D12_RECORDED_BARRIER, 0, 0);
        d3d12_command_list_flag_last(list, list->call_count - 1, D3D12_RECORDED_WRITES_BACK
                | (dst_stages & (VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT) ? D3D12_RECORDED_SYNCS_PREFETCH : 0));
    }
}
