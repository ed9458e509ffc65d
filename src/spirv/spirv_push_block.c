/* The push-constant block's uint members at given byte offsets (spirv_push_block.h). */
#include <stdint.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "common/util.h"
#include "spirv/spirv_push_block.h"

/* The module's push-constant variable and its struct; 0 when it has none. */
static HRESULT find_block(struct d3d12xs_spirv_module *m, uint32_t *variable, uint32_t *block, char *error, size_t error_size)
{
    struct d3d12xs_spirv_inst *inst;
    *variable = *block = 0;
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_GLOBALS, i, inst)) {
        const struct d3d12xs_spirv_inst *pointer;
        if (d3d12xs_spirv_op(inst) != SpvOpVariable || d3d12xs_spirv_len(inst) < 4 || inst->w[3] != SpvStorageClassPushConstant)
            continue;
        if (!(pointer = d3d12xs_spirv_def_op(m, inst->w[1], SpvOpTypePointer, 4))
                || !d3d12xs_spirv_def_op(m, pointer->w[3], SpvOpTypeStruct, 2))
            return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the push-constant block is not a struct");
        *variable = inst->w[2];
        *block = pointer->w[3];
        return S_OK;
    }
    return S_OK;
}

/* The member of block at byte offset, or UINT32_MAX. */
static uint32_t member_at(const struct d3d12xs_spirv_module *m, uint32_t block, uint32_t offset)
{
    struct d3d12xs_spirv_inst *inst;
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ANNOTATIONS, i, inst))
        if (d3d12xs_spirv_op(inst) == SpvOpMemberDecorate && d3d12xs_spirv_len(inst) == 5 && inst->w[1] == block
                && inst->w[3] == SpvDecorationOffset && inst->w[4] == offset)
            return inst->w[2];
    return UINT32_MAX;
}

static HRESULT add_block(struct d3d12xs_spirv_module *m, uint32_t uint_type, uint32_t *variable, uint32_t *block)
{
    struct d3d12xs_spirv_inst *entry;
    *block = d3d12xs_spirv_new_id(m);
    *variable = d3d12xs_spirv_new_id(m);
    if (!*block || !*variable)
        return E_OUTOFMEMORY;
    uint32_t type[3] = {SpvOpTypeStruct, *block, uint_type};
    uint32_t decoration[3] = {(3u << 16) | SpvOpDecorate, *block, SpvDecorationBlock};
    type[0] |= 3u << 16;
    d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, type, 3);
    uint32_t declaration[4] = {(4u << 16) | SpvOpVariable, d3d12xs_spirv_type_pointer(m, SpvStorageClassPushConstant, *block), *variable,
            SpvStorageClassPushConstant};
    d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, declaration, 4);
    d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, decoration, 3);
    if (m->version >= 0x10400)
        for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ENTRY_POINTS, i, entry))
            d3d12xs_spirv_append_operand(m, entry, *variable);
    return S_OK;
}

/* A type the module gained just now sits at the end of the globals: a struct using it must
 * come after it. */
static void declare_before(struct d3d12xs_spirv_module *m, uint32_t type, const struct d3d12xs_spirv_inst *user)
{
    struct d3d12xs_spirv_inst *def = d3d12xs_spirv_def(m, type);
    size_t type_at, user_at;
    uint32_t words[8];

    if (!def || (type_at = d3d12xs_spirv_index_of(m, def)) == SIZE_MAX || (user_at = d3d12xs_spirv_index_of(m, user)) == SIZE_MAX
            || type_at < user_at || d3d12xs_spirv_len(def) > 8)
        return;
    memcpy(words, def->w, d3d12xs_spirv_len(def) * 4);
    d3d12xs_spirv_remove(m, D3D12XS_SPIRV_GLOBALS, type_at);
    d3d12xs_spirv_insert(m, D3D12XS_SPIRV_GLOBALS, user_at, words, words[0] >> 16);
}

HRESULT d3d12xs_spirv_push_member(struct d3d12xs_spirv_module *m, uint32_t offset, struct d3d12xs_spirv_push_member *out,
        char *error, size_t error_size)
{
    uint32_t uint_type = d3d12xs_spirv_type_int(m, 32, 0), variable, block, member;
    struct d3d12xs_spirv_inst *def;
    HRESULT hr;

    if (FAILED(hr = find_block(m, &variable, &block, error, error_size)))
        return hr;
    if (!block) {
        if (FAILED(hr = add_block(m, uint_type, &variable, &block)))
            return hr;
        member = 0;
    } else if ((member = member_at(m, block, offset)) != UINT32_MAX) {
        const struct d3d12xs_spirv_inst *type;
        def = d3d12xs_spirv_def_op(m, block, SpvOpTypeStruct, 2);
        if (!def || member + 2 >= d3d12xs_spirv_len(def) || !(type = d3d12xs_spirv_def_op(m, def->w[2 + member], SpvOpTypeInt, 4))
                || type->w[2] != 32)
            return d3d12xs_write_error(E_INVALIDARG, error, error_size, "push-constant byte %u is not a 32-bit integer member", offset);
        goto found;
    } else {
        def = d3d12xs_spirv_def_op(m, block, SpvOpTypeStruct, 2);
        member = d3d12xs_spirv_len(def) - 2;
        d3d12xs_spirv_append_operand(m, def, uint_type);
        declare_before(m, uint_type, def);
    }
    {
        uint32_t decoration[5] = {(5u << 16) | SpvOpMemberDecorate, block, member, SpvDecorationOffset, offset};
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, decoration, 5);
    }
found:
    out->variable = variable;
    out->member = member;
    out->pointer = d3d12xs_spirv_type_pointer(m, SpvStorageClassPushConstant, uint_type);
    return m->out_of_memory ? E_OUTOFMEMORY : S_OK;
}
