/* The push-constant block as the pipeline-creation passes extend it: one uint member per value
 * d3d12xs pushes (table starts, the heap size, root view offsets, the words of ExecuteIndirect's
 * root view entries, the view of views drawn one by one), at the byte offset the root signature
 * gave it (descriptors/root_signature.c). */
#ifndef D3D12XS_SPIRV_PUSH_BLOCK_H
#define D3D12XS_SPIRV_PUSH_BLOCK_H

#include "spirv/spirv_module.h"

struct d3d12xs_spirv_push_member {
    uint32_t variable;  /* the module's PushConstant variable */
    uint32_t member;    /* the member's index in its block */
    uint32_t pointer;   /* OpTypePointer PushConstant uint, for access chains to it */
};

/* The uint member at byte offset of the module's push-constant block: the one already there
 * (a 32-bit integer member decorated Offset offset), else a new one; the block and its
 * variable are made (and listed in the entry points from SPIR-V 1.4 on) when the module has
 * none. E_INVALIDARG with a reason when the block is not a struct, E_OUTOFMEMORY. */
HRESULT d3d12xs_spirv_push_member(struct d3d12xs_spirv_module *m, uint32_t offset, struct d3d12xs_spirv_push_member *out,
        char *error, size_t error_size);

#endif
