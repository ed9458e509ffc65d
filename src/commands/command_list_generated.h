/* ExecuteIndirect of a signature that changes state, as Vulkan's generated commands
 * (command_list_generated.c, VK_EXT_device_generated_commands; docs/indirect.md). */
#ifndef D3D12XS_COMMAND_LIST_GENERATED_H
#define D3D12XS_COMMAND_LIST_GENERATED_H

#include "commands/command_list_state.h"

struct d3d12_command_signature;
struct d3d12_resource;

/* The translation pass's pipeline (shaders/indirect_translate.comp), made with the device where
 * it has generated commands; never fails device creation (signatures that set vertex or index
 * buffers then fail Close with E_NOTIMPL). */
void d3d12_indirect_translate_create(struct d3d12_device *device);
void d3d12_indirect_translate_destroy(struct d3d12_device *device);
/* count commands (at least 1, all inside the argument buffer) of signature->generated; counts:
 * the count buffer or NULL. Records errors as ExecuteIndirect's. */
void d3d12_command_list_execute_generated(struct d3d12_command_list *list, const char *command, const struct d3d12_command_signature *signature,
        uint32_t count, const struct d3d12_resource *arguments, UINT64 argument_offset, const struct d3d12_resource *counts, UINT64 count_offset);

#endif
