/* ExecuteIndirect's flush of a bind point before commands that set root arguments
 * (command_list_indirect_flush.c), shared by the generated-commands path
 * (command_list_generated.c) and the own path (command_list_indirect.c). */
#ifndef D3D12XS_INDIRECT_FLUSH_H
#define D3D12XS_INDIRECT_FLUSH_H

#include "commands/command_list_state.h"

struct d3d12_command_signature;

/* The flush's draw or dispatch checks (dispatch: the compute bind point's flush; else the draw
 * preparation, index_buffer_needed as DrawIndexedInstanced's), with the root constants and views
 * the commands set counted as set: no "never set" warning for them. The views the commands set are
 * pushed as null descriptors (the variant reads them elsewhere). False after recording the error. */
bool d3d12_command_list_flush_for_commands(struct d3d12_command_list *list, const char *command,
        const struct d3d12_command_signature *signature, bool dispatch, bool index_buffer_needed);

#endif
