/* Point size (spirv_passes.h): D3D12 draws every point one pixel wide and its shaders have no
 * point size to write, while Vulkan wants the vertex shader of a point-list pipeline without
 * tessellation or geometry shader to write PointSize. The pass gives such a vertex shader a
 * PointSize output written with the size before each return of its entry point. */
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "common/util.h"
#include "spirv/spirv_passes.h"

/* Whether the module already has a PointSize output (a variable, or a member of a block). */
static bool writes_point_size(const struct d3d12xs_spirv_module *m)
{
    const struct d3d12xs_spirv_inst *inst;

    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ANNOTATIONS, i, inst)) {
        uint32_t op = d3d12xs_spirv_op(inst), len = d3d12xs_spirv_len(inst);
        if ((op == SpvOpDecorate && len >= 4 && inst->w[2] == SpvDecorationBuiltIn && inst->w[3] == SpvBuiltInPointSize)
                || (op == SpvOpMemberDecorate && len >= 5 && inst->w[3] == SpvDecorationBuiltIn && inst->w[4] == SpvBuiltInPointSize))
            return true;
    }
    return false;
}

HRESULT d3d12xs_spirv_pass_point_size(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_point_size_args *args,
        char *error, size_t error_size)
{
    struct d3d12xs_spirv_inst *entry = m->sections[D3D12XS_SPIRV_ENTRY_POINTS].count ? m->sections[D3D12XS_SPIRV_ENTRY_POINTS].at[0] : NULL;
    const uint32_t float_words[3] = {SpvOpTypeFloat | 3u << 16, 0, 32};
    struct d3d12xs_spirv_inst *inst;
    uint32_t float_type, pointer_type, variable, size, function = 0, bits;

    if (!entry || d3d12xs_spirv_len(entry) < 3)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the module has no entry point");
    if (entry->w[1] != SpvExecutionModelVertex || writes_point_size(m))
        return S_OK;
    float_type = d3d12xs_spirv_global(m, float_words, 3, 1);
    pointer_type = d3d12xs_spirv_type_pointer(m, SpvStorageClassOutput, float_type);
    memcpy(&bits, &args->size, sizeof(bits));
    size = d3d12xs_spirv_constant(m, float_type, bits);
    if (!(variable = d3d12xs_spirv_new_id(m)))
        return d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of ids");
    const uint32_t declaration[4] = {SpvOpVariable | 4u << 16, pointer_type, variable, SpvStorageClassOutput};
    const uint32_t decoration[4] = {SpvOpDecorate | 4u << 16, variable, SpvDecorationBuiltIn, SpvBuiltInPointSize};
    const uint32_t store[3] = {SpvOpStore | 3u << 16, variable, size};
    d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, declaration, 4);
    d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, decoration, 4);
    d3d12xs_spirv_append_operand(m, entry, variable);
    for (size_t i = 0; i < m->sections[D3D12XS_SPIRV_FUNCTIONS].count; i++) {
        inst = m->sections[D3D12XS_SPIRV_FUNCTIONS].at[i];
        if (d3d12xs_spirv_op(inst) == SpvOpFunction && d3d12xs_spirv_len(inst) > 2)
            function = inst->w[2];
        else if (d3d12xs_spirv_op(inst) == SpvOpReturn && function == entry->w[2])
            d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, i++, store, 3); /* before the return, which moves on */
    }
    return m->out_of_memory ? d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory") : S_OK;
}
