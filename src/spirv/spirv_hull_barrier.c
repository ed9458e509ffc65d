/* The barrier between a translated hull shader's phases (spirv_passes.h). libvkd3d-shader 1.2
 * runs the phases of a hull shader one after another in every invocation (the entry point calls
 * the control point phase's function, then the fork and join phases') with no barrier between
 * them, so a patch-constant phase that reads the output control points (vocp, an OutputPatch of
 * the patch-constant function) races with the other invocations writing them. Vulkan orders
 * those writes before the reads with OpControlBarrier at workgroup scope, which glslang also
 * emits for a tessellation control shader's barrier(); it goes in the entry point's first block,
 * where control flow is uniform. */
#include <spirv/unified1/spirv.h>

#include "common/util.h"
#include "spirv/spirv_passes.h"

static bool ends_block(uint32_t op)
{
    switch (op) {
    case SpvOpBranch: case SpvOpBranchConditional: case SpvOpSwitch: case SpvOpReturn: case SpvOpReturnValue: case SpvOpKill:
    case SpvOpUnreachable: case SpvOpLoopMerge: case SpvOpSelectionMerge: case SpvOpFunctionEnd:
        return true;
    default:
        return false;
    }
}

HRESULT d3d12xs_spirv_pass_hull_barrier(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_hull_barrier_args *args,
        char *error, size_t error_size)
{
    const struct d3d12xs_spirv_inst *entry = m->sections[D3D12XS_SPIRV_ENTRY_POINTS].count ? m->sections[D3D12XS_SPIRV_ENTRY_POINTS].at[0] : NULL;
    struct d3d12xs_spirv_list *functions = &m->sections[D3D12XS_SPIRV_FUNCTIONS];
    size_t i = 0;
    uint32_t calls = 0;

    if (!entry || d3d12xs_spirv_len(entry) < 3)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the module has no entry point");
    while (i < functions->count && !(d3d12xs_spirv_op(functions->at[i]) == SpvOpFunction && d3d12xs_spirv_len(functions->at[i]) > 2
            && functions->at[i]->w[2] == entry->w[2]))
        i++;
    /* the entry point's OpFunction, its parameters and its first OpLabel, then the first block */
    while (++i < functions->count && d3d12xs_spirv_op(functions->at[i]) != SpvOpLabel)
        ;
    for (i++; i < functions->count && !ends_block(d3d12xs_spirv_op(functions->at[i])); i++) {
        if (d3d12xs_spirv_op(functions->at[i]) != SpvOpFunctionCall || ++calls != args->phase_calls)
            continue;
        {
            const uint32_t barrier[4] = {SpvOpControlBarrier | 4u << 16, d3d12xs_spirv_constant_u32(m, SpvScopeWorkgroup),
                    d3d12xs_spirv_constant_u32(m, SpvScopeInvocation), d3d12xs_spirv_constant_u32(m, SpvMemorySemanticsMaskNone)};
            d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, i + 1, barrier, 4);
        }
        break;
    }
    return m->out_of_memory ? d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory") : S_OK;
}
