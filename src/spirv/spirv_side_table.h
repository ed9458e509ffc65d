/* The heap's side table (descriptors/descriptor_buffer.h: one storage-buffer descriptor in
 * set 1, D3D12XS_SIDE_ENTRY_WORDS uints per heap descriptor) as SPIR-V, shared by the passes
 * that read it: the heap tables pass (UAV counter addresses) and the view offsets pass (view
 * misalignments). Both find the one variable, whichever runs first declares it. */
#ifndef D3D12XS_SPIRV_SIDE_TABLE_H
#define D3D12XS_SPIRV_SIDE_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "spirv/spirv_module.h"

struct d3d12xs_spirv_side_table {
    uint32_t variable;      /* a block of one runtime array of uints at (set, binding 0) */
    uint32_t uint_type, uint_pointer, zero;
};

/* Finds the side-table variable of set, or declares it (joining the entry points' interfaces
 * where SPIR-V 1.4 wants every global listed). */
void d3d12xs_spirv_side_table(struct d3d12xs_spirv_module *m, uint32_t set, struct d3d12xs_spirv_side_table *table);
/* Inserts at *index of the functions the load of word `word` of the entry of heap index `slot`
 * (a uint id); returns the loaded value's id. */
uint32_t d3d12xs_spirv_side_table_load(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_side_table *table, uint32_t slot,
        uint32_t word, size_t *index);

#endif
