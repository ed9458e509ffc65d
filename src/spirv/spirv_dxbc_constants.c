/* Root constants read by DXBC shaders (spirv_passes.h).
 *
 * FXC declares a cbuffer in rows of four values (cb0[1] for two uints) and libvkd3d-shader
 * makes it `struct { vec4 rows[N]; }`. Root constants fill only Num32BitValues of those values,
 * at any 4-byte offset of d3d12xs's push constants (one value is not 16-byte aligned), with
 * other push constants right after them: the rows would overlap them. So such a cbuffer
 * becomes a struct of exactly its root constants, one scalar member each, and its accesses
 * follow: a row's component is that member, a whole row the vector of its members, and what
 * lies past the root constants (undefined in D3D12) reads 0. A row index that is not a
 * constant (dynamic indexing of root constants) is refused. */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "spirv/spirv_passes.h"
#include "common/util.h"

#define BEYOND UINT32_MAX

struct constants {
    struct d3d12xs_spirv_module *m;
    uint32_t *row_of;       /* id -> row + 1 (an access chain to a whole row) */
    uint32_t *member_of;    /* id -> member + 1, or BEYOND (a chain to one value) */
    uint32_t *variable_of;  /* id -> the cbuffer variable its chain starts from */
    char *error;
    size_t error_size;
};

struct cbuffer {
    uint32_t variable, count;      /* its root constants */
    uint32_t scalar_type, vector_type, scalar_pointer, zero;
};

static HRESULT fail(struct constants *c, const char *fmt, uint32_t a, uint32_t b)
{
    return d3d12xs_write_error(E_INVALIDARG, c->error, c->error_size, fmt, a, b);
}

static bool constant_index(struct constants *c, uint32_t id, uint32_t *value)
{
    uint32_t type;
    return d3d12xs_spirv_int32_constant(c->m, id, &type, value);
}

/* Gives the cbuffer's variable a struct of count scalars. */
static HRESULT convert_variable(struct constants *c, struct cbuffer *b)
{
    struct d3d12xs_spirv_module *m = c->m;
    struct d3d12xs_spirv_inst *variable = d3d12xs_spirv_def_op(m, b->variable, SpvOpVariable, 4);
    const struct d3d12xs_spirv_inst *pointer, *block, *array, *vector;
    uint32_t *words, block_id, n;

    if (!variable || !(pointer = d3d12xs_spirv_def_op(m, variable->w[1], SpvOpTypePointer, 4))
            || !(block = d3d12xs_spirv_def_op(m, pointer->w[3], SpvOpTypeStruct, 3)) || d3d12xs_spirv_len(block) != 3
            || !(array = d3d12xs_spirv_def_op(m, block->w[2], SpvOpTypeArray, 4))
            || !(vector = d3d12xs_spirv_def_op(m, array->w[2], SpvOpTypeVector, 4)) || vector->w[3] != 4)
        return fail(c, "cbuffer variable %u is not libvkd3d-shader's array of rows (%u)", b->variable, 0);
    b->vector_type = vector->w[1];
    b->scalar_type = vector->w[2];
    b->scalar_pointer = d3d12xs_spirv_type_pointer(m, SpvStorageClassUniform, b->scalar_type);
    b->zero = d3d12xs_spirv_constant(m, b->scalar_type, 0);
    if (!(block_id = d3d12xs_spirv_new_id(m)) || !(words = malloc((2 + (size_t)b->count) * sizeof(*words))))
        return E_OUTOFMEMORY;
    n = 0;
    words[n++] = SpvOpTypeStruct | (2 + b->count) << 16;
    words[n++] = block_id;
    for (uint32_t i = 0; i < b->count; i++)
        words[n++] = b->scalar_type;
    d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, words, n);
    free(words);
    {
        uint32_t decoration[3] = {SpvOpDecorate | 3u << 16, block_id, SpvDecorationBlock};
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, decoration, 3);
        for (uint32_t i = 0; i < b->count; i++) {
            uint32_t offset[5] = {SpvOpMemberDecorate | 5u << 16, block_id, i, SpvDecorationOffset, 4 * i};
            d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, offset, 5);
        }
    }
    {
        /* the variable moves after its new type */
        uint32_t replacement[4] = {SpvOpVariable | 4u << 16, d3d12xs_spirv_type_pointer(m, SpvStorageClassUniform, block_id),
                b->variable, SpvStorageClassUniform};
        d3d12xs_spirv_remove(m, D3D12XS_SPIRV_GLOBALS, d3d12xs_spirv_index_of(m, variable));
        if (!d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, replacement, 4))
            return E_OUTOFMEMORY;
    }
    return m->out_of_memory ? E_OUTOFMEMORY : S_OK;
}

static const struct cbuffer *cbuffer_of(const struct cbuffer *cbuffers, uint32_t count, uint32_t variable)
{
    for (uint32_t i = 0; i < count; i++)
        if (cbuffers[i].variable == variable)
            return &cbuffers[i];
    return NULL;
}

/* The member of value `component` of row `row`, or BEYOND past the root constants. */
static uint32_t member_or_beyond(const struct cbuffer *b, uint32_t row, uint32_t component)
{
    uint64_t member = 4ull * row + component;
    return member < b->count ? (uint32_t)member : BEYOND;
}

static HRESULT rewrite_use(struct constants *c, size_t *i, const struct cbuffer *cbuffers, uint32_t cbuffer_count)
{
    struct d3d12xs_spirv_module *m = c->m;
    struct d3d12xs_spirv_inst *inst = m->sections[D3D12XS_SPIRV_FUNCTIONS].at[*i];
    uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst), *w = inst->w;
    const struct cbuffer *b;

    switch (op) {
    case SpvOpAccessChain:
    case SpvOpInBoundsAccessChain: {
        uint32_t row, component = 0, member, base = n >= 4 ? w[3] : 0, first;
        if (n < 4)
            return S_OK;
        if ((b = cbuffer_of(cbuffers, cbuffer_count, base))) {
            /* cb[0][row] or cb[0][row][component] */
            if (n < 6 || n > 7 || !constant_index(c, w[4], &first) || first
                    || !constant_index(c, w[5], &row) || (n == 7 && !constant_index(c, w[6], &component)))
                return fail(c, "root constants of cbuffer variable %u are indexed by a value known only when the shader runs "
                        "(access chain %u): DXBC shaders read root constants at constant places only here", base, w[2]);
            if (n == 6) {
                c->row_of[w[2]] = row + 1;
                c->variable_of[w[2]] = base;
                d3d12xs_spirv_remove(m, D3D12XS_SPIRV_FUNCTIONS, (*i)--);
                return S_OK;
            }
        } else if (base < m->bound && c->row_of[base]) {
            b = cbuffer_of(cbuffers, cbuffer_count, c->variable_of[base]);
            row = c->row_of[base] - 1;
            if (n != 5 || !constant_index(c, w[4], &component))
                return fail(c, "a row of root constants (access chain %u) is indexed by a value known only when the shader "
                        "runs (%u)", base, w[2]);
        } else {
            return S_OK;
        }
        if ((member = member_or_beyond(b, row, component)) == BEYOND) {
            c->member_of[w[2]] = BEYOND;
            c->variable_of[w[2]] = b->variable;
            d3d12xs_spirv_remove(m, D3D12XS_SPIRV_FUNCTIONS, (*i)--);
            return S_OK;
        }
        {
            uint32_t words[5] = {SpvOpAccessChain | 5u << 16, b->scalar_pointer, w[2], b->variable,
                    d3d12xs_spirv_constant_u32(m, member)};
            return d3d12xs_spirv_rewrite(m, inst, words, 5) ? S_OK : E_OUTOFMEMORY;
        }
    }
    case SpvOpCopyMemory:
    case SpvOpLoad: {
        /* OpCopyMemory target, source (libvkd3d-shader's mov of a whole row) becomes a load
         * of the source and a store of what it loaded */
        const bool copy = op == SpvOpCopyMemory;
        uint32_t pointer = copy ? (n >= 3 ? w[2] : 0) : (n >= 4 ? w[3] : 0), type, result, target = copy ? w[1] : 0, parts[4];
        if (n < (copy ? 3u : 4u) || pointer >= m->bound || (!c->row_of[pointer] && c->member_of[pointer] != BEYOND))
            return S_OK;
        b = cbuffer_of(cbuffers, cbuffer_count, c->variable_of[pointer]);
        type = copy ? (c->row_of[pointer] ? b->vector_type : b->scalar_type) : w[1];
        result = copy ? d3d12xs_spirv_new_id(m) : w[2];
        if (!result)
            return E_OUTOFMEMORY;
        if (copy) {
            /* the store after the value: the value's instructions go before it */
            uint32_t store[3] = {SpvOpStore | 3u << 16, target, result};
            if (!d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, *i + 1, store, 3))
                return E_OUTOFMEMORY;
        }
        if (c->member_of[pointer] == BEYOND) {
            uint32_t words[4] = {SpvOpCopyObject | 4u << 16, type, result, b->zero};
            if (!d3d12xs_spirv_rewrite(m, m->sections[D3D12XS_SPIRV_FUNCTIONS].at[*i], words, 4))
                return E_OUTOFMEMORY;
            *i += copy;
            return S_OK;
        }
        /* a whole row: the vector of its values */
        for (uint32_t k = 0; k < 4; k++) {
            uint32_t member = member_or_beyond(b, c->row_of[pointer] - 1, k), chain, value;
            if (member == BEYOND) {
                parts[k] = b->zero;
                continue;
            }
            if (!(chain = d3d12xs_spirv_new_id(m)) || !(value = d3d12xs_spirv_new_id(m)))
                return E_OUTOFMEMORY;
            uint32_t access[5] = {SpvOpAccessChain | 5u << 16, b->scalar_pointer, chain, b->variable, d3d12xs_spirv_constant_u32(m, member)};
            uint32_t load[4] = {SpvOpLoad | 4u << 16, b->scalar_type, value, chain};
            if (!d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, (*i)++, access, 5)
                    || !d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, (*i)++, load, 4))
                return E_OUTOFMEMORY;
            parts[k] = value;
        }
        {
            uint32_t words[7] = {SpvOpCompositeConstruct | 7u << 16, type, result, parts[0], parts[1], parts[2], parts[3]};
            if (!d3d12xs_spirv_rewrite(m, m->sections[D3D12XS_SPIRV_FUNCTIONS].at[*i], words, 7))
                return E_OUTOFMEMORY;
            *i += copy;
            return S_OK;
        }
    }
    default:
        for (uint32_t k = 1; k < n && op != SpvOpName; k++)
            if ((cbuffer_of(cbuffers, cbuffer_count, w[k]) || (w[k] < m->bound && (c->row_of[w[k]] || c->member_of[w[k]])))
                    && (op == SpvOpStore || op == SpvOpCopyObject || op == SpvOpFunctionCall || op == SpvOpPhi
                            || op == SpvOpSelect || op == SpvOpArrayLength || op == SpvOpCopyMemorySized))
                return fail(c, "root constants (id %u) are used by an instruction of opcode %u, which the rewrite does not "
                        "handle", w[k], op);
        return S_OK;
    }
}

HRESULT d3d12xs_spirv_pass_dxbc_constants(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_dxbc_constants_args *args,
        char *error, size_t error_size)
{
    struct constants c = {m, NULL, NULL, NULL, error, error_size};
    struct cbuffer *cbuffers;
    HRESULT hr = S_OK;
    size_t ids;

    if (!args->count)
        return S_OK;
    if (!(cbuffers = calloc(args->count, sizeof(*cbuffers))))
        return E_OUTOFMEMORY;
    for (uint32_t i = 0; i < args->count; i++) {
        cbuffers[i].variable = args->variables[i];
        cbuffers[i].count = args->counts[i];
        if (!cbuffers[i].count) {
            hr = fail(&c, "cbuffer variable %u is bound to %u root constants", args->variables[i], 0);
            goto done;
        }
        if (FAILED(hr = convert_variable(&c, &cbuffers[i])))
            goto done;
    }
    /* every id the rewrite makes: two per value of a whole-row load, at most eight per instruction */
    ids = (size_t)m->bound + 8 * m->sections[D3D12XS_SPIRV_FUNCTIONS].count + 64;
    if (!(c.row_of = calloc(ids, sizeof(*c.row_of))) || !(c.member_of = calloc(ids, sizeof(*c.member_of)))
            || !(c.variable_of = calloc(ids, sizeof(*c.variable_of)))) {
        hr = E_OUTOFMEMORY;
        goto done;
    }
    for (size_t i = 0; i < m->sections[D3D12XS_SPIRV_FUNCTIONS].count; i++)
        if (FAILED(hr = rewrite_use(&c, &i, cbuffers, args->count)))
            goto done;
    if (m->out_of_memory)
        hr = E_OUTOFMEMORY;

done:
    free(cbuffers);
    free(c.row_of);
    free(c.member_of);
    free(c.variable_of);
    return hr;
}
