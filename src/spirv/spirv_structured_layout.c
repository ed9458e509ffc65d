/* Fix 4 of D3DCompile's fix-ups (see spirv_fixup.c): structured buffers in D3D12's tight
 * packing, which is Vulkan's scalar block layout; and the layout helpers fix 8
 * (spirv_cbuffer_layout.c) shares. */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "spirv/spirv.h"
#include "spirv/spirv_layout.h"

const uint32_t *d3d12xs_layout_def(const struct d3d12xs_layout *l, uint32_t id)
{
    const struct d3d12xs_spirv_inst *def = d3d12xs_spirv_def(l->m, id);
    uint32_t op;
    if (!def || def->section != D3D12XS_SPIRV_GLOBALS || id >= l->bound)
        return NULL;
    op = d3d12xs_spirv_op(def);
    return (op >= SpvOpTypeVoid && op < SpvOpTypeForwardPointer) || op == SpvOpConstant ? def->w : NULL;
}

void d3d12xs_layout_mark_reachable(struct d3d12xs_layout *l, uint32_t id, uint8_t bit, unsigned depth)
{
    const uint32_t *def = d3d12xs_layout_def(l, id);
    uint32_t op = d3d12xs_layout_op(def), n = def ? def[0] >> 16 : 0;

    if (!def || depth > LAYOUT_MAX_DEPTH || (l->mark[id] & bit)) /* depth: types only nest forwards, but be safe */
        return;
    if (op == SpvOpTypeStruct) {
        l->mark[id] |= bit;
        for (uint32_t m = 2; m < n; m++)
            d3d12xs_layout_mark_reachable(l, def[m], bit, depth + 1);
    } else if ((op == SpvOpTypeArray && n == 4) || (op == SpvOpTypeRuntimeArray && n == 3)) {
        l->mark[id] |= bit;
        d3d12xs_layout_mark_reachable(l, def[2], bit, depth + 1);
    }
}

bool d3d12xs_layout_has_member_decoration(const struct d3d12xs_layout *l, uint32_t id, uint32_t member, uint32_t decoration)
{
    return d3d12xs_spirv_member_decoration(l->m, id, member, decoration, NULL);
}

uint32_t *d3d12xs_layout_member_decoration_word(const struct d3d12xs_layout *l, uint32_t id, uint32_t member, uint32_t decoration)
{
    struct d3d12xs_spirv_inst *inst;
    for (D3D12XS_SPIRV_EACH(l->m, D3D12XS_SPIRV_ANNOTATIONS, i, inst))
        if (d3d12xs_spirv_op(inst) == SpvOpMemberDecorate && d3d12xs_spirv_len(inst) == 5 && inst->w[1] == id
                && inst->w[2] == member && inst->w[3] == decoration)
            return &inst->w[4];
    return NULL;
}

bool d3d12xs_layout_has_blocks(const struct d3d12xs_spirv_module *m)
{
    const struct d3d12xs_spirv_inst *inst;
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ANNOTATIONS, i, inst))
        if (d3d12xs_spirv_op(inst) == SpvOpDecorate && d3d12xs_spirv_len(inst) >= 3
                && (inst->w[2] == SpvDecorationBlock || inst->w[2] == SpvDecorationBufferBlock))
            return true;
    return false;
}

/* Size and alignment of type id under scalar block layout (see fix 4). */
static HRESULT scalar_layout_of(struct d3d12xs_layout *l, uint32_t id, uint32_t *size, uint32_t *align, unsigned depth)
{
    const uint32_t *def = d3d12xs_layout_def(l, id), *length;
    uint32_t op = d3d12xs_layout_op(def), n = def ? def[0] >> 16 : 0, s, a, elements;
    HRESULT hr;

    if (def && l->align[id]) {
        *size = l->size[id];
        *align = l->align[id];
        return S_OK;
    }
    if (depth > LAYOUT_MAX_DEPTH)
        return d3d12xs_write_error(E_FAIL, l->error, l->error_size, "structured buffer types nest deeper than %u",
                LAYOUT_MAX_DEPTH);
    switch (op) {
    case SpvOpTypeInt:
    case SpvOpTypeFloat:
        if (n < 3 || !def[2] || def[2] % 8 || def[2] > 64)
            goto unsupported;
        s = a = def[2] / 8;
        break;
    case SpvOpTypeVector:
    case SpvOpTypeMatrix: /* a matrix: columns of its column vector type, tightly packed */
        if (n != 4 || !def[3] || def[3] > 64)
            goto unsupported;
        if (FAILED(hr = scalar_layout_of(l, def[2], &s, &a, depth + 1)))
            return hr;
        s *= def[3];
        break;
    case SpvOpTypeArray:
        length = d3d12xs_layout_def(l, def[3]);
        if (n != 4 || d3d12xs_layout_op(length) != SpvOpConstant || (length[0] >> 16) < 4)
            return d3d12xs_write_error(E_FAIL, l->error, l->error_size, "structured buffer array type %u has no "
                    "constant length", id);
        elements = length[3];
        if (FAILED(hr = scalar_layout_of(l, def[2], &s, &a, depth + 1)))
            return hr;
        if ((uint64_t)d3d12xs_round_up(s, a) * elements > UINT32_MAX / 2)
            goto unsupported;
        s = d3d12xs_round_up(s, a) * elements;
        break;
    case SpvOpTypeRuntimeArray: /* only ever the last member of a block: its size does not matter */
        if (n != 3)
            goto unsupported;
        if (FAILED(hr = scalar_layout_of(l, def[2], &s, &a, depth + 1)))
            return hr;
        s = 0;
        break;
    case SpvOpTypeStruct: {
        uint64_t end = 0;
        a = 1;
        for (uint32_t m = 2; m < n; m++) {
            uint32_t member_size, member_align;
            if (FAILED(hr = scalar_layout_of(l, def[m], &member_size, &member_align, depth + 1)))
                return hr;
            end = (end + member_align - 1) / member_align * member_align + member_size;
            if (member_align > a)
                a = member_align;
            if (end > UINT32_MAX / 2)
                goto unsupported;
        }
        s = d3d12xs_round_up((uint32_t)end, a);
        break;
    }
    default:
        goto unsupported;
    }
    l->size[id] = s;
    l->align[id] = a;
    *size = s;
    *align = a;
    return S_OK;

unsupported:
    return d3d12xs_write_error(E_FAIL, l->error, l->error_size, "type %u (opcode %u) has no D3D12 structured "
            "buffer layout", id, op);
}

/* Offset of member `member` of struct `id` under scalar block layout. */
static HRESULT scalar_member_offset(struct d3d12xs_layout *l, uint32_t id, uint32_t member, uint32_t *offset)
{
    const uint32_t *def = d3d12xs_layout_def(l, id);
    uint32_t n = def[0] >> 16, at = 0, size, align;
    HRESULT hr;

    if (member >= n - 2)
        return d3d12xs_write_error(E_FAIL, l->error, l->error_size, "struct %u has no member %u", id, member);
    for (uint32_t m = 0; m <= member; m++) {
        if (FAILED(hr = scalar_layout_of(l, def[2 + m], &size, &align, 0)))
            return hr;
        at = d3d12xs_round_up(at, align);
        if (m < member)
            at += size;
    }
    *offset = at;
    return S_OK;
}

/* MatrixStride of member `member` of struct `id` (a matrix, or arrays of one) in scalar layout:
 * the tight column (ColMajor) or row (RowMajor). */
static HRESULT scalar_matrix_stride(struct d3d12xs_layout *l, uint32_t id, uint32_t member, uint32_t *stride)
{
    const uint32_t *def = d3d12xs_layout_def(l, id), *type, *column;
    uint32_t size, align;
    HRESULT hr;

    if (member >= (def[0] >> 16) - 2)
        return d3d12xs_write_error(E_FAIL, l->error, l->error_size, "struct %u has no member %u", id, member);
    type = d3d12xs_layout_def(l, def[2 + member]);
    for (unsigned depth = 0; (d3d12xs_layout_op(type) == SpvOpTypeArray || d3d12xs_layout_op(type) == SpvOpTypeRuntimeArray)
            && depth < LAYOUT_MAX_DEPTH; depth++)
        type = d3d12xs_layout_def(l, type[2]);
    if (d3d12xs_layout_op(type) != SpvOpTypeMatrix || (type[0] >> 16) != 4
            || d3d12xs_layout_op(column = d3d12xs_layout_def(l, type[2])) != SpvOpTypeVector || (column[0] >> 16) != 4)
        return d3d12xs_write_error(E_FAIL, l->error, l->error_size, "member %u of struct %u has a MatrixStride "
                "but is no matrix", member, id);
    if (FAILED(hr = scalar_layout_of(l, column[2], &size, &align, 0)))
        return hr;
    /* OpTypeMatrix %vecN M: ColMajor stores M columns of N components, RowMajor N rows of M */
    *stride = size * (d3d12xs_layout_has_member_decoration(l, id, member, SpvDecorationRowMajor) ? type[3] : column[3]);
    return S_OK;
}

/* Fix 4, in place on the module (the output of fixes 1-3). */
HRESULT d3d12xs_spirv_structured_scalar_layout(struct d3d12xs_spirv_module *m, unsigned *changed, char *error, size_t error_size)
{
    struct d3d12xs_layout l;
    const struct d3d12xs_spirv_inst *inst;
    HRESULT hr = S_OK;

    *changed = 0;
    memset(&l, 0, sizeof(l));
    l.m = m;
    l.bound = m->bound;
    l.error = error;
    l.error_size = error_size;
    /* nothing to do without a Block / BufferBlock (saves the tables) */
    if (!d3d12xs_layout_has_blocks(m))
        return S_OK;
    if (!(l.mark = calloc(l.bound, 1)) || !(l.size = calloc(l.bound, sizeof(*l.size)))
            || !(l.align = calloc(l.bound, sizeof(*l.align)))) {
        hr = E_OUTOFMEMORY;
        goto done;
    }
    /* the blocks: structured buffers (one runtime-array member) and the others */
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ANNOTATIONS, i, inst)) {
        const uint32_t *w = inst->w, *block;
        if (d3d12xs_spirv_op(inst) != SpvOpDecorate || d3d12xs_spirv_len(inst) < 3
                || (w[2] != SpvDecorationBlock && w[2] != SpvDecorationBufferBlock)
                || d3d12xs_layout_op(block = d3d12xs_layout_def(&l, w[1])) != SpvOpTypeStruct)
            continue;
        if ((block[0] >> 16) == 3 && d3d12xs_layout_op(d3d12xs_layout_def(&l, block[2])) == SpvOpTypeRuntimeArray)
            d3d12xs_layout_mark_reachable(&l, w[1], LAYOUT_STRUCTURED, 0);
        else
            d3d12xs_layout_mark_reachable(&l, w[1], LAYOUT_OTHER, 0);
    }
    /* the decorations of those types */
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ANNOTATIONS, i, inst)) {
        uint32_t *w = inst->w, op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst), target, value = 0, size, align, *word;
        if (op == SpvOpDecorate && n == 4 && w[2] == SpvDecorationArrayStride) {
            const uint32_t *array;
            target = w[1];
            if (target >= l.bound || !(l.mark[target] & LAYOUT_STRUCTURED))
                continue;
            array = d3d12xs_layout_def(&l, target);
            if (FAILED(hr = scalar_layout_of(&l, array[2], &size, &align, 0)))
                goto done;
            value = d3d12xs_round_up(size, align);
            word = &w[3];
        } else if (op == SpvOpMemberDecorate && n == 5
                && (w[3] == SpvDecorationOffset || w[3] == SpvDecorationMatrixStride)) {
            target = w[1];
            if (target >= l.bound || !(l.mark[target] & LAYOUT_STRUCTURED))
                continue;
            if (FAILED(hr = w[3] == SpvDecorationOffset ? scalar_member_offset(&l, target, w[2], &value)
                    : scalar_matrix_stride(&l, target, w[2], &value)))
                goto done;
            word = &w[4];
        } else {
            continue;
        }
        if (*word == value)
            continue;
        if (l.mark[target] & LAYOUT_OTHER) {
            hr = d3d12xs_write_error(E_FAIL, error, error_size, "type %u is used by a structured buffer and by "
                    "another block (cbuffer, tbuffer or counter), which need different layouts (D3D12 packs "
                    "structured buffers tightly): give the structured buffer a struct of its own", target);
            goto done;
        }
        *word = value;
        ++*changed;
    }

done:
    free(l.mark);
    free(l.size);
    free(l.align);
    if (FAILED(hr))
        *changed = 0;
    return hr;
}
