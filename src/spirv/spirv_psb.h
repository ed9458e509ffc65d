/* What the SPIR-V rewrites that turn resource accesses into accesses through
 * PhysicalStorageBuffer pointers share (spirv_root_pointers.c: root descriptors of the
 * memory-based ABI; spirv_heap_tables.c: UAV counters of the heap's side table): the capabilities,
 * extension and addressing model such a module declares, and the Aligned memory operand its
 * loads and stores need. */
#ifndef D3D12XS_SPIRV_PSB_H
#define D3D12XS_SPIRV_PSB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spirv/spirv_module.h"

/* Checks that the module's addressing model is Logical (or already PhysicalStorageBuffer64):
 * E_INVALIDARG with a reason otherwise. */
HRESULT d3d12xs_spirv_check_addressing(const struct d3d12xs_spirv_module *m, char *error, size_t error_size);
/* Adds the PhysicalStorageBufferAddresses and Int64 capabilities, the extension and the
 * PhysicalStorageBuffer64 addressing model where the module lacks them. */
void d3d12xs_spirv_use_psb(struct d3d12xs_spirv_module *m);
/* The same without Int64: for pointers made from two 32-bit words (OpBitcast of a uvec2). */
void d3d12xs_spirv_use_psb_addressing(struct d3d12xs_spirv_module *m);
/* Gives an OpLoad (memory operands from word mask_at = 4) or OpStore (mask_at = 3) the Aligned
 * memory operand with alignment (an existing one is kept). */
void d3d12xs_spirv_set_aligned(struct d3d12xs_spirv_module *m, struct d3d12xs_spirv_inst *inst, uint32_t mask_at, uint32_t alignment);
/* The alignment an access of type through a PhysicalStorageBuffer pointer can claim: the
 * smallest scalar size in it, at most 4 (scalar layout puts 64-bit members on 4-byte offsets). */
uint32_t d3d12xs_spirv_psb_alignment(const struct d3d12xs_spirv_module *m, uint32_t type);

#endif
