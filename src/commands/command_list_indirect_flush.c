/* See indirect_flush.h. They are D3D12-undefined after ExecuteIndirect, so afterwards the
 * constants and views count as the list left them and the next draw or dispatch is checked again. */
#include "command_list_flush.h"
#include "commands/command_list_graphics.h"
#include "commands/command_signature.h"
#include "commands/indirect_flush.h"

bool d3d12_command_list_flush_for_commands(struct d3d12_command_list *list, const char *command,
        const struct d3d12_command_signature *signature, bool dispatch, bool index_buffer_needed)
{
    struct d3d12_bind_point_state *state = &list->bindings.points[dispatch ? D3D12_BIND_POINT_COMPUTE : D3D12_BIND_POINT_GRAPHICS];
    uint64_t set_by_list = state->constants_set, set_by_commands = signature->root_constant_mask & ~set_by_list;
    const uint64_t views_by_commands = signature->root_view_mask;
    struct d3d12_root_argument list_views[D3D12XS_MAX_ROOT_PARAMETERS];
    bool flushed;

    /* The root views the commands set: the variant reads them from the push block, so the
     * descriptors pushed for them meanwhile are null ones (set, address 0: no "never set"
     * warning, nothing checked of the list's own, which the next flush pushes again). */
    for (uint64_t views = views_by_commands; views; views &= views - 1) {
        unsigned parameter = (unsigned)__builtin_ctzll(views);
        list_views[parameter] = state->arguments[parameter];
        state->arguments[parameter] = (struct d3d12_root_argument){true, 0};
    }
    if (set_by_commands || views_by_commands) {
        state->constants_set |= set_by_commands;
        d3d12_bind_point_unvalidate(state);
        state->dirty |= views_by_commands ? D3D12_DIRTY_DESCRIPTORS : 0;
    }
    flushed = dispatch ? d3d12_command_list_flush_compute(list, command, 0) : d3d12_command_list_prepare_draw(list, command, index_buffer_needed);
    for (uint64_t views = views_by_commands; views; views &= views - 1) {
        unsigned parameter = (unsigned)__builtin_ctzll(views);
        state->arguments[parameter] = list_views[parameter];
    }
    if (set_by_commands || views_by_commands) {
        state->constants_set = set_by_list;
        d3d12_bind_point_unvalidate(state);
        state->dirty |= views_by_commands ? D3D12_DIRTY_DESCRIPTORS : 0;
    }
    return flushed;
}
