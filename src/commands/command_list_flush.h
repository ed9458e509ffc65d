/* The one flush of a bind point (command_list_flush.c), and its common case inline: every
 * dispatch and draw starts here. Its own header, not command_recording.h, so that the flush's
 * callers (dispatches, draws) depend on it without the recording checks depending on the flush. */
#ifndef D3D12XS_COMMAND_LIST_FLUSH_H
#define D3D12XS_COMMAND_LIST_FLUSH_H

#include "commands/command_list_state.h"

/* command_list_flush.c: brings a bind point's Vulkan state up to date for a dispatch or a draw
 * of the bound pipeline state's variant (DispatchX's D3D12XS_VARIANT_* bits, 0 otherwise; SCALAR
 * is added where root views need it). False (after recording the error) when it cannot run.
 * flush_compute is the compute bind point's, which also counts the dispatch. */
bool d3d12_command_list_flush_full(struct d3d12_command_list *list, enum d3d12_bind_point bind_point, const char *command, unsigned variant);
/* The flush's part for tables alone (same pipeline, signature and heaps): the changed tables'
 * starts, checked and pushed; false after recording the error. */
bool d3d12_command_list_flush_tables(struct d3d12_command_list *list, enum d3d12_bind_point bind_point, const char *command);
/* A table set (its value stored, the call counted, the list kept settled) on a bind point whose
 * arguments apply now (command_list_bindings.c, applies_now): its start checked and pushed at
 * once, as the next flush would push it. A failed check leaves the table to that flush, which
 * reports it. */
void d3d12_command_list_apply_graphics_table(struct d3d12_command_list *list, unsigned index);
void d3d12_command_list_apply_compute_table(struct d3d12_command_list *list, unsigned index);
/* A settled list's change to a graphics pipeline that draws alike (command_list_bindings.c,
 * SetPipelineState, after storing it): bound at once, with what the next draw's flush would
 * record for it, where that is the bind alone, else left to that flush; either way the list
 * stays settled. */
void d3d12_command_list_change_settled_pipeline(struct d3d12_command_list *list);
/* Inline, the way a stream of dispatches or draws takes when at most root constants and tables
 * changed: one push of the constants, the tables' starts, or nothing; anything else goes through
 * flush_full. */
static inline bool d3d12_command_list_flush(struct d3d12_command_list *list, enum d3d12_bind_point bind_point, const char *command,
        unsigned variant)
{
    struct d3d12_bind_point_state *state = &list->bindings.points[bind_point];
    const uint32_t dirty = state->dirty;

    if (__builtin_expect(list->bindings.push_owner == bind_point && !(dirty & ~(D3D12_DIRTY_CONSTANTS | D3D12_DIRTY_TABLES))
            && state->validated && state->constants_only && !variant, 1)) {
        if ((dirty & D3D12_DIRTY_TABLES) && !d3d12_command_list_flush_tables(list, bind_point, command))
            return false;
        if (dirty & D3D12_DIRTY_CONSTANTS) {
            list->vk.vkCmdPushConstants(list->vk_command_buffer, list->bindings.pipeline->vk_layout, state->root_signature->vk_push_stages[bind_point],
                    4 * state->constants_dirty_first, 4 * (state->constants_dirty_end - state->constants_dirty_first),
                    &state->push_constants[state->constants_dirty_first]);
        }
        state->dirty = 0;
        list->record.dispatch_first = list->record.bound_first;
        list->record.dispatch_count = list->record.bound_count;
        return true;
    }
    return d3d12_command_list_flush_full(list, bind_point, command, variant);
}
/* Counts a dispatch of the bound compute pipeline (D3D12XSGetCommandListDispatchCounters). */
static inline void d3d12_command_list_count_dispatch(struct d3d12_command_list *list)
{
    const struct d3d12_pipeline_state *pipeline = list->bindings.pipeline;

    list->dispatch_counts[list->bindings.points[D3D12_BIND_POINT_COMPUTE].root_signature->memory_abi]++;
    list->root_descriptor_counts[0] += pipeline->pushed_root_descriptor_count;
    list->root_descriptor_counts[1] += pipeline->address_count;
}

/* Adds the short way's dispatches (settled_dispatches) to the counts, each as settled_adds says. */
static inline void d3d12_command_list_fold_settled_dispatches(struct d3d12_command_list *list)
{
    list->dispatch_counts[list->settled_adds.abi] += list->settled_dispatches;
    list->root_descriptor_counts[0] += list->settled_dispatches * list->settled_adds.pushed;
    list->root_descriptor_counts[1] += list->settled_dispatches * list->settled_adds.addresses;
    list->settled_dispatches = 0;
}

static inline bool d3d12_command_list_flush_compute(struct d3d12_command_list *list, const char *command, unsigned variant)
{
    if (!d3d12_command_list_flush(list, D3D12_BIND_POINT_COMPUTE, command, variant))
        return false;
    d3d12_command_list_count_dispatch(list);
    return true;
}

#endif
