/* Fix 8 of D3DCompile's fix-ups (see spirv_fixup.c): constant-buffer packing.
 *
 * D3D packs a cbuffer's members into 16-byte registers, in declaration order:
 *  - a scalar or vector goes at the next offset aligned to its component size, unless it would
 *    cross a register boundary there; then it starts the next register;
 *  - an array, a struct and a matrix start a register. An array's elements are a register
 *    apart (or more: the element size rounded up to 16) and the last one takes only its own
 *    size; a struct's size is where its last member ends; a matrix is one register per column
 *    (column_major) or row (row_major), the last one holding only its components;
 *  - so the next member may share the last register of an array, struct or matrix
 *    (cbuffer { float a; float b[2]; float c; }: b at 16, c at 36; float3x3 m; float x: x at 44).
 * glslang (with HLSL offsets) starts every member after an array, struct or matrix on a new
 * register, and lays struct array strides out from its own struct sizes. The device enables
 * Vulkan's scalar block layout (fix 4 needs it), under which D3D's offsets are valid Vulkan
 * offsets (members never overlap: an array or matrix ends after its last element, not after
 * its stride), so the Offset, ArrayStride and MatrixStride decorations of every type reached
 * from a cbuffer's or tbuffer's block (a Block or BufferBlock struct of a Uniform variable, not a
 * structured buffer's) are recomputed with these rules (glslang gives tbuffers std430 offsets:
 * float b[2] 4 bytes apart).
 * glslang honours packoffset and register(cN), which this pass cannot see in SPIR-V: when
 * the source has them (explicit_placement), no offset is moved and a block whose offsets
 * differ from D3D's sequential packing is refused, naming the member (an overlap, when its
 * range meets another member's, which D3D refuses as well). Also refused: 16-bit scalars and
 * 64-bit matrices (not laid out here), and a type another kind of block uses whose layout
 * would change. */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "spirv/spirv.h"
#include "spirv/spirv_layout.h"
#include "spirv/spirv_passes.h"

#define CBUFFER_MAX_MEMBERS 65536u

struct cbuffer_pass {
    struct d3d12xs_layout l;
    uint32_t *stride;   /* D3D ArrayStride per array type id, 0 if not reached */
    bool explicit_placement;
    unsigned changed;
    struct d3d12xs_cbuffer_problem *p;
    uint32_t path[D3D12XS_CBUFFER_PATH_MAX];
};

static HRESULT cbuffer_refuse(struct cbuffer_pass *c, unsigned depth, uint32_t d3d_offset, uint32_t offset,
        const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static HRESULT cbuffer_refuse(struct cbuffer_pass *c, unsigned depth, uint32_t d3d_offset, uint32_t offset,
        const char *fmt, ...)
{
    va_list args;
    c->p->depth = depth < D3D12XS_CBUFFER_PATH_MAX ? depth : D3D12XS_CBUFFER_PATH_MAX;
    memcpy(c->p->path, c->path, sizeof(c->path));
    c->p->d3d_offset = d3d_offset;
    c->p->offset = offset;
    va_start(args, fmt);
    vsnprintf(c->p->reason, sizeof(c->p->reason), fmt, args);
    va_end(args);
    return E_FAIL;
}

/* Lays out `type` with D3D's rules, its first byte at d3d_base (glslang's: base, for messages);
 * *size gets its D3D size. depth: members on the path from the block (c->path). */
static HRESULT cbuffer_place(struct cbuffer_pass *c, uint32_t type, bool row_major, uint32_t d3d_base,
        uint32_t base, unsigned depth, uint32_t *size, uint32_t *vk_size, uint32_t *component)
{
    const uint32_t *def = d3d12xs_layout_def(&c->l, type), *length;
    uint32_t op = d3d12xs_layout_op(def), n = def ? def[0] >> 16 : 0, s, vs, comp;
    HRESULT hr;

    *component = 4;
    *vk_size = 0;
    if (depth > LAYOUT_MAX_DEPTH)
        return cbuffer_refuse(c, depth, d3d_base, base, "its types nest deeper than %u", LAYOUT_MAX_DEPTH);
    switch (op) {
    case SpvOpTypeInt:
    case SpvOpTypeFloat:
        if (n < 3 || (def[2] != 32 && def[2] != 64))
            return cbuffer_refuse(c, depth, d3d_base, base, "a %u-bit scalar is not laid out by D3DCompile",
                    n < 3 ? 0 : def[2]);
        *vk_size = *size = *component = def[2] / 8;
        return S_OK;
    case SpvOpTypeBool:
        *vk_size = *size = 4;
        return S_OK;
    case SpvOpTypeVector:
        if (n != 4 || def[3] > 4 || FAILED(hr = cbuffer_place(c, def[2], false, d3d_base, base, depth, &s, &vs,
                &comp)))
            return n != 4 || def[3] > 4 ? cbuffer_refuse(c, depth, d3d_base, base, "malformed vector type") : hr;
        *component = comp;
        *vk_size = *size = s * def[3];
        return S_OK;
    case SpvOpTypeMatrix: {
        const uint32_t *column = d3d12xs_layout_def(&c->l, n == 4 ? def[2] : 0);
        uint32_t vectors, components;
        if (n != 4 || d3d12xs_layout_op(column) != SpvOpTypeVector || (column[0] >> 16) != 4 || def[3] > 4 || column[3] > 4)
            return cbuffer_refuse(c, depth, d3d_base, base, "malformed matrix type");
        if (FAILED(hr = cbuffer_place(c, column[2], false, d3d_base, base, depth, &s, &vs, &comp)))
            return hr;
        if (s != 4)
            return cbuffer_refuse(c, depth, d3d_base, base, "a matrix of %u-bit components is not laid out by "
                    "D3DCompile", s * 8);
        /* OpTypeMatrix %vecN M: ColMajor stores M vectors of N components, RowMajor N of M */
        vectors = row_major ? column[3] : def[3];
        components = row_major ? def[3] : column[3];
        *size = 16 * (vectors - 1) + 4 * components;
        *vk_size = 16 * vectors; /* Vulkan's rules count a matrix's last vector whole */
        return S_OK;
    }
    case SpvOpTypeArray: {
        uint32_t elements, stride;
        length = d3d12xs_layout_def(&c->l, n == 4 ? def[3] : 0);
        if (n != 4 || d3d12xs_layout_op(length) != SpvOpConstant || (length[0] >> 16) != 4 || !length[3])
            return cbuffer_refuse(c, depth, d3d_base, base, "an array without a constant length");
        elements = length[3];
        if (FAILED(hr = cbuffer_place(c, def[2], row_major, d3d_base, base, depth, &s, &vs, &comp)))
            return hr;
        stride = d3d12xs_round_up(s, 16);
        if ((uint64_t)stride * (elements - 1) + s > UINT32_MAX / 4)
            return cbuffer_refuse(c, depth, d3d_base, base, "an array of more than 1 GiB");
        if (c->stride[type] && c->stride[type] != stride)
            return cbuffer_refuse(c, depth, d3d_base, base, "an array type used with two matrix orders");
        c->stride[type] = stride;
        *size = stride * (elements - 1) + s;
        *vk_size = stride * (elements - 1) + vs;
        return S_OK;
    }
    case SpvOpTypeStruct: {
        uint32_t at = 0, end = 0, vk_end = 0, member_vk_size;
        if (n - 2 > CBUFFER_MAX_MEMBERS)
            return cbuffer_refuse(c, depth, d3d_base, base, "a struct of more than %u members", CBUFFER_MAX_MEMBERS);
        for (uint32_t m = 0; m + 2 < n; m++) {
            uint32_t member = def[2 + m], member_op = d3d12xs_layout_op(d3d12xs_layout_def(&c->l, member)), member_size;
            uint32_t *offset_word = d3d12xs_layout_member_decoration_word(&c->l, type, m, SpvDecorationOffset);
            uint32_t *matrix_stride = d3d12xs_layout_member_decoration_word(&c->l, type, m, SpvDecorationMatrixStride);
            uint32_t offset = offset_word ? *offset_word : 0;
            bool member_row_major = d3d12xs_layout_has_member_decoration(&c->l, type, m, SpvDecorationRowMajor);
            bool aggregate = member_op == SpvOpTypeStruct || member_op == SpvOpTypeArray || member_op == SpvOpTypeMatrix;

            if (depth < D3D12XS_CBUFFER_PATH_MAX)
                c->path[depth] = m;
            if (!offset_word)
                return cbuffer_refuse(c, depth + 1, d3d_base + end, base, "a member without an Offset");
            if (aggregate) {
                at = d3d12xs_round_up(end, 16);
                if (FAILED(hr = cbuffer_place(c, member, member_row_major, d3d_base + at, base + offset, depth + 1,
                        &member_size, &member_vk_size, &comp)))
                    return hr;
            } else {
                if (FAILED(hr = cbuffer_place(c, member, false, d3d_base + end, base + offset, depth + 1,
                        &member_size, &member_vk_size, &comp)))
                    return hr;
                at = d3d12xs_round_up(end, comp);
                if (at % 16 + member_size > 16)
                    at = d3d12xs_round_up(at, 16);
            }
            if (matrix_stride && *matrix_stride != 16) {
                if (c->explicit_placement || (c->l.mark[type] & LAYOUT_OTHER))
                    return cbuffer_refuse(c, depth + 1, d3d_base + at, base + offset, "its matrix stride is %u, "
                            "not 16", *matrix_stride);
                *matrix_stride = 16;
                c->changed++;
            }
            if (offset != at) {
                if (c->explicit_placement) {
                    /* glslang placed it where packoffset / register(cN) said, or after such a member */
                    for (uint32_t k = 0; k + 2 < n; k++) {
                        uint32_t *other = d3d12xs_layout_member_decoration_word(&c->l, type, k, SpvDecorationOffset), other_size;
                        const uint32_t *other_def = d3d12xs_layout_def(&c->l, def[2 + k]);
                        uint32_t other_op = d3d12xs_layout_op(other_def);
                        uint32_t other_vk_size;
                        if (k == m || !other)
                            continue;
                        if (other_op == SpvOpTypeStruct || other_op == SpvOpTypeArray || other_op == SpvOpTypeMatrix
                                || FAILED(cbuffer_place(c, def[2 + k], false, 0, 0, depth + 1, &other_size,
                                    &other_vk_size, &comp)))
                            other_size = 16; /* aggregates: at least their first register */
                        if (*other >= offset + member_size || offset >= *other + other_size)
                            continue;
                        c->p->other_member = k;
                        return cbuffer_refuse(c, depth + 1, d3d_base + at, base + offset, "it overlaps member %u "
                                "(at byte %u): packoffset / register(c) ranges must not overlap", k,
                                base + *other);
                    }
                    return cbuffer_refuse(c, depth + 1, d3d_base + at, base + offset, "the shader uses packoffset "
                            "or register(c), which glslang honours, and D3DCompile cannot tell which members "
                            "were placed by hand: give every member of this cbuffer a packoffset at its D3D "
                            "offset, or none");
                }
                if (c->l.mark[type] & LAYOUT_OTHER)
                    return cbuffer_refuse(c, depth + 1, d3d_base + at, base + offset, "its struct is also used by "
                            "a buffer of another kind, which needs another layout");
                *offset_word = at;
                c->changed++;
            }
            if (at < vk_end)
                return cbuffer_refuse(c, depth + 1, d3d_base + at, base + offset, "D3D packs it into the last "
                        "register of the matrix before it (or of the matrix that ends the array or struct before "
                        "it), which Vulkan's layout rules count as a whole register");
            end = at + member_size;
            if (at + member_vk_size > vk_end)
                vk_end = at + member_vk_size;
        }
        *size = end;
        *vk_size = vk_end;
        return S_OK;
    }
    default:
        return cbuffer_refuse(c, depth, d3d_base, base, "a type (opcode %u) with no constant-buffer layout", op);
    }
}

static bool is_block(const struct d3d12xs_spirv_module *m, uint32_t id)
{
    return d3d12xs_spirv_decoration(m, id, SpvDecorationBlock, NULL) || d3d12xs_spirv_decoration(m, id, SpvDecorationBufferBlock, NULL);
}

HRESULT d3d12xs_spirv_pass_cbuffer_layout(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_cbuffer_layout_args *args,
        char *error, size_t error_size)
{
    struct d3d12xs_cbuffer_problem *problem = args->problem;
    const struct d3d12xs_spirv_inst *inst;
    struct cbuffer_pass c;
    HRESULT hr = S_OK;

    (void)error;
    (void)error_size;
    memset(problem, 0, sizeof(*problem));
    *args->changed = 0;
    problem->other_member = UINT32_MAX;
    memset(&c, 0, sizeof(c));
    c.l.m = m;
    c.l.bound = m->bound;
    c.p = problem;
    c.explicit_placement = args->explicit_placement;
    if (!(c.l.mark = calloc(c.l.bound, 1)) || !(c.stride = calloc(c.l.bound, sizeof(*c.stride)))) {
        hr = E_OUTOFMEMORY;
        goto done;
    }
    /* cbuffer and tbuffer blocks: Block or BufferBlock structs that Uniform variables point to,
     * other than a structured or byte-address buffer's (one runtime array member); every other
     * block marks its types LAYOUT_OTHER */
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ANNOTATIONS, i, inst)) {
        const struct d3d12xs_spirv_inst *var;
        const uint32_t *w = inst->w, *block;
        uint32_t target;
        if (d3d12xs_spirv_op(inst) != SpvOpDecorate || d3d12xs_spirv_len(inst) < 3
                || (w[2] != SpvDecorationBlock && w[2] != SpvDecorationBufferBlock))
            continue;
        target = w[1];
        block = d3d12xs_layout_def(&c.l, target);
        if (d3d12xs_layout_op(block) == SpvOpTypeStruct && (block[0] >> 16) == 3
                && d3d12xs_layout_op(d3d12xs_layout_def(&c.l, block[2])) == SpvOpTypeRuntimeArray) {
            d3d12xs_layout_mark_reachable(&c.l, target, LAYOUT_OTHER, 0);
            continue;
        }
        for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_GLOBALS, v, var)) {
            const uint32_t *pointer;
            if (d3d12xs_spirv_op(var) == SpvOpVariable && d3d12xs_spirv_len(var) >= 4
                    && d3d12xs_layout_op(pointer = d3d12xs_layout_def(&c.l, var->w[1])) == SpvOpTypePointer
                    && pointer[3] == target && pointer[2] != SpvStorageClassUniform)
                d3d12xs_layout_mark_reachable(&c.l, target, LAYOUT_OTHER, 0);
        }
    }
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_GLOBALS, i, inst)) {
        const uint32_t *w = inst->w, *pointer, *block;
        uint32_t size, vk_size, component;
        if (FAILED(hr))
            break;
        if (d3d12xs_spirv_op(inst) != SpvOpVariable || d3d12xs_spirv_len(inst) < 4 || w[3] != SpvStorageClassUniform
                || d3d12xs_layout_op(pointer = d3d12xs_layout_def(&c.l, w[1])) != SpvOpTypePointer
                || d3d12xs_layout_op(block = d3d12xs_layout_def(&c.l, pointer[3])) != SpvOpTypeStruct)
            continue;
        if ((block[0] >> 16) == 3 && d3d12xs_layout_op(d3d12xs_layout_def(&c.l, block[2])) == SpvOpTypeRuntimeArray)
            continue;
        if (!is_block(m, pointer[3]))
            continue;
        problem->set = problem->binding = UINT32_MAX;
        d3d12xs_spirv_decoration(m, w[2], SpvDecorationDescriptorSet, &problem->set);
        d3d12xs_spirv_decoration(m, w[2], SpvDecorationBinding, &problem->binding);
        hr = cbuffer_place(&c, pointer[3], false, 0, 0, 0, &size, &vk_size, &component);
    }
    /* array strides */
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ANNOTATIONS, i, inst)) {
        uint32_t *w = inst->w, target;
        if (FAILED(hr))
            break;
        if (d3d12xs_spirv_op(inst) != SpvOpDecorate || d3d12xs_spirv_len(inst) != 4 || w[2] != SpvDecorationArrayStride
                || (target = w[1]) >= c.l.bound || !c.stride[target] || c.stride[target] == w[3])
            continue;
        if (c.explicit_placement || (c.l.mark[target] & LAYOUT_OTHER)) {
            memset(problem->path, 0, sizeof(problem->path));
            problem->depth = 0;
            snprintf(problem->reason, sizeof(problem->reason), "an array of it has stride %u where D3D's is %u "
                    "and its type is shared with %s", w[3], c.stride[target],
                    c.explicit_placement ? "members placed by packoffset / register(c)" : "another kind of buffer");
            hr = E_FAIL;
            break;
        }
        w[3] = c.stride[target];
        c.changed++;
    }

done:
    free(c.l.mark);
    free(c.stride);
    *args->changed = SUCCEEDED(hr) ? c.changed : 0;
    return hr;
}

/* the name (OpName, or OpMemberName of member) of id, or NULL */
static const char *spirv_name(const struct d3d12xs_spirv_module *m, uint32_t id, uint32_t member, bool of_member)
{
    const struct d3d12xs_spirv_inst *inst;
    const char *name;
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_DEBUG, i, inst)) {
        uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst);
        if (!of_member && op == SpvOpName && n >= 3 && inst->w[1] == id && d3d12xs_spirv_inst_string(inst, 2, &name, NULL))
            return name;
        if (of_member && op == SpvOpMemberName && n >= 4 && inst->w[1] == id && inst->w[2] == member
                && d3d12xs_spirv_inst_string(inst, 3, &name, NULL))
            return name;
    }
    return NULL;
}

static const uint32_t *spirv_type(const struct d3d12xs_spirv_module *m, uint32_t id)
{
    const struct d3d12xs_spirv_inst *def = d3d12xs_spirv_def(m, id);
    uint32_t op = def ? d3d12xs_spirv_op(def) : 0;
    return def && def->section == D3D12XS_SPIRV_GLOBALS && op >= SpvOpTypeVoid && op < SpvOpTypeForwardPointer ? def->w : NULL;
}

static bool member_name(const struct d3d12xs_spirv_module *m, const struct d3d12xs_cbuffer_problem *p, char *name, size_t name_size)
{
    const struct d3d12xs_spirv_inst *inst;
    uint32_t type = 0;
    const uint32_t *def;
    const char *part;
    size_t used;

    /* the Uniform variable with the problem's set and binding */
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_GLOBALS, i, inst)) {
        uint32_t set = UINT32_MAX, binding = UINT32_MAX;
        if (d3d12xs_spirv_op(inst) != SpvOpVariable || d3d12xs_spirv_len(inst) < 4 || inst->w[3] != SpvStorageClassUniform)
            continue;
        d3d12xs_spirv_decoration(m, inst->w[2], SpvDecorationDescriptorSet, &set);
        d3d12xs_spirv_decoration(m, inst->w[2], SpvDecorationBinding, &binding);
        if (set == p->set && binding == p->binding && (def = spirv_type(m, inst->w[1]))
                && (def[0] & 0xffff) == SpvOpTypePointer && (def[0] >> 16) == 4) {
            type = def[3];
            break;
        }
    }
    if (!type)
        return false;
    part = spirv_name(m, type, 0, false);
    snprintf(name, name_size, "%s", part && *part ? part : "(unnamed)");
    for (uint32_t i = 0; i < p->depth; i++) {
        /* through arrays to the struct */
        while ((def = spirv_type(m, type)) && (def[0] & 0xffff) == SpvOpTypeArray && (def[0] >> 16) == 4)
            type = def[2];
        if (!def || (def[0] & 0xffff) != SpvOpTypeStruct || p->path[i] + 2 >= (def[0] >> 16))
            return false;
        part = spirv_name(m, type, p->path[i], true);
        used = strlen(name);
        if (used + 1 < name_size) {
            if (part && *part)
                snprintf(name + used, name_size - used, ".%s", part);
            else
                snprintf(name + used, name_size - used, ".(member %u)", p->path[i]);
        }
        type = def[2 + p->path[i]];
    }
    return true;
}

bool d3d12xs_spirv_cbuffer_member_name(const uint32_t *w, size_t count, const struct d3d12xs_cbuffer_problem *p,
        char *name, size_t name_size)
{
    struct d3d12xs_spirv_module *m;
    bool found;

    if (!name_size)
        return false;
    name[0] = 0;
    if (FAILED(d3d12xs_spirv_module_parse(w, count * 4, &m, NULL, 0)))
        return false;
    found = member_name(m, p, name, name_size);
    d3d12xs_spirv_module_destroy(m);
    return found;
}
