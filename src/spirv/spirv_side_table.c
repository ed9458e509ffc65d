/* See spirv_side_table.h. */
#include <spirv/unified1/spirv.h>

#include "descriptors/descriptor_buffer.h"
#include "spirv/spirv_side_table.h"

static bool decorated(const struct d3d12xs_spirv_module *m, uint32_t id, uint32_t decoration, uint32_t value)
{
    uint32_t found;
    return d3d12xs_spirv_decoration(m, id, decoration, &found) && found == value;
}

void d3d12xs_spirv_side_table(struct d3d12xs_spirv_module *m, uint32_t set, struct d3d12xs_spirv_side_table *table)
{
    bool storage_buffer = m->version >= 0x10300;
    uint32_t storage = storage_buffer ? SpvStorageClassStorageBuffer : SpvStorageClassUniform;
    struct d3d12xs_spirv_inst *inst;

    table->uint_type = d3d12xs_spirv_type_int(m, 32, 0);
    table->uint_pointer = d3d12xs_spirv_type_pointer(m, storage, table->uint_type);
    table->zero = d3d12xs_spirv_constant_u32(m, 0);
    /* Binding 0 of the side-table set is the table: no other variable is ever placed there. */
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_GLOBALS, i, inst)) {
        if (d3d12xs_spirv_op(inst) == SpvOpVariable && d3d12xs_spirv_len(inst) >= 4 && decorated(m, inst->w[2], SpvDecorationDescriptorSet, set)
                && decorated(m, inst->w[2], SpvDecorationBinding, 0)) {
            table->variable = inst->w[2];
            return;
        }
    }
    uint32_t words = d3d12xs_spirv_new_id(m), block = d3d12xs_spirv_new_id(m);
    table->variable = d3d12xs_spirv_new_id(m);
    {
        uint32_t array[3] = {SpvOpTypeRuntimeArray, words, table->uint_type};
        uint32_t type[3] = {SpvOpTypeStruct, block, words};
        uint32_t variable[4] = {SpvOpVariable, 0, table->variable, storage};
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, array, 3);
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, type, 3);
        variable[1] = d3d12xs_spirv_type_pointer(m, storage, block);
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, variable, 4);
    }
    {
        uint32_t decorations[] = {
            (4u << 16) | SpvOpDecorate, words, SpvDecorationArrayStride, 4,
            (3u << 16) | SpvOpDecorate, block, storage_buffer ? SpvDecorationBlock : SpvDecorationBufferBlock,
            (5u << 16) | SpvOpMemberDecorate, block, 0, SpvDecorationOffset, 0,
            (4u << 16) | SpvOpMemberDecorate, block, 0, SpvDecorationNonWritable,
            (4u << 16) | SpvOpDecorate, table->variable, SpvDecorationDescriptorSet, set,
            (4u << 16) | SpvOpDecorate, table->variable, SpvDecorationBinding, 0,
        };
        for (uint32_t at = 0; at < sizeof(decorations) / 4; at += decorations[at] >> 16)
            d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, &decorations[at], decorations[at] >> 16);
    }
    if (m->version >= 0x10400) {
        for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ENTRY_POINTS, i, inst))
            d3d12xs_spirv_append_operand(m, inst, table->variable);
    }
}

uint32_t d3d12xs_spirv_side_table_load(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_side_table *table, uint32_t slot,
        uint32_t word, size_t *index)
{
    uint32_t first = d3d12xs_spirv_new_id(m), at = d3d12xs_spirv_new_id(m), pointer = d3d12xs_spirv_new_id(m), value = d3d12xs_spirv_new_id(m);
    _Static_assert(D3D12XS_SIDE_ENTRY_WORDS == 4, "entries are 1 << 2 words");
    uint32_t code[] = {
        (5u << 16) | SpvOpShiftLeftLogical, table->uint_type, first, slot, d3d12xs_spirv_constant_u32(m, 2),
        (5u << 16) | SpvOpIAdd, table->uint_type, at, first, d3d12xs_spirv_constant_u32(m, word),
        (6u << 16) | SpvOpAccessChain, table->uint_pointer, pointer, table->variable, table->zero, at,
        (4u << 16) | SpvOpLoad, table->uint_type, value, pointer,
    };
    for (uint32_t k = 0; k < sizeof(code) / 4; k += code[k] >> 16)
        d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, (*index)++, &code[k], code[k] >> 16);
    return value;
}
