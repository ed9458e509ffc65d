/* Raw and structured views of DXBC shaders as storage buffers (spirv_passes.h).
 *
 * libvkd3d-shader 1.2 declares a ByteAddressBuffer or StructuredBuffer<T> as a uniform texel
 * buffer of 32-bit words, and the RW forms as a storage texel buffer (R32ui): every load and
 * store is a word at a word index, the size query counts words. d3d12xs's views of those kinds
 * are storage-buffer descriptors (what D3DCompile's shaders bind and what descriptor heaps
 * hold), so each such variable becomes a Uniform BufferBlock of `uint[]` (the SPIR-V 1.0 form
 * libvkd3d-shader itself writes) and each access its storage-buffer counterpart:
 *     OpLoad of the image                 -> (gone)
 *     OpImageFetch / OpImageRead  i, c    -> v = load of word c; {v, v, v, v}
 *     OpImageWrite i, c, t                -> store of t.x at word c
 *     OpImageTexelPointer p, c, 0         -> access chain to word c (atomics keep their pointer)
 *     OpImageQuerySize i                  -> OpArrayLength
 * The callers only read component x of a fetch and write one word per write. A view is one
 * variable (libvkd3d-shader 1.2 binds no arrays: a register range reaches here as one variable
 * per access, frontends/dxbc_ranges.h, made an array after this pass by spirv_dxbc_ranges.c). */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "spirv/spirv_passes.h"
#include "common/util.h"

struct raw_views {
    struct d3d12xs_spirv_module *m;
    const struct d3d12xs_spirv_raw_views_args *args;
    uint32_t uint_type, zero, uint_pointer;
    /* per id: which converted variable it is or stands for (+1) */
    uint32_t *variable_of;
    uint8_t *kind;          /* KIND_* */
    char *error;
    size_t error_size;
};

enum { KIND_NONE, KIND_VARIABLE, KIND_IMAGE };

static HRESULT fail(struct raw_views *r, const char *fmt, uint32_t a, uint32_t b)
{
    return d3d12xs_write_error(E_INVALIDARG, r->error, r->error_size, fmt, a, b);
}

static const struct d3d12xs_spirv_raw_view *view_of(struct raw_views *r, uint32_t variable)
{
    uint32_t set, binding;
    if (!d3d12xs_spirv_decoration(r->m, variable, SpvDecorationDescriptorSet, &set)
            || !d3d12xs_spirv_decoration(r->m, variable, SpvDecorationBinding, &binding))
        return NULL;
    for (uint32_t i = 0; i < r->args->count; i++)
        if (r->args->views[i].set == set && r->args->views[i].binding == binding)
            return &r->args->views[i];
    return NULL;
}

static void decorate(struct d3d12xs_spirv_module *m, uint32_t id, uint32_t decoration, int literal)
{
    uint32_t words[4] = {SpvOpDecorate | (literal >= 0 ? 4u : 3u) << 16, id, decoration, (uint32_t)literal};
    d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, words, literal >= 0 ? 4 : 3);
}

static void decorate_member(struct d3d12xs_spirv_module *m, uint32_t id, uint32_t decoration, int literal)
{
    uint32_t words[5] = {SpvOpMemberDecorate | (literal >= 0 ? 5u : 4u) << 16, id, 0, decoration, (uint32_t)literal};
    d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, words, literal >= 0 ? 5 : 4);
}

/* Drops the variable's image-only decorations (NonReadable, NonWritable: they move to the block). */
static void drop_image_decorations(struct d3d12xs_spirv_module *m, uint32_t variable)
{
    struct d3d12xs_spirv_list *annotations = &m->sections[D3D12XS_SPIRV_ANNOTATIONS];
    for (size_t i = annotations->count; i-- > 0;) {
        const struct d3d12xs_spirv_inst *inst = annotations->at[i];
        if (d3d12xs_spirv_op(inst) == SpvOpDecorate && d3d12xs_spirv_len(inst) >= 3 && inst->w[1] == variable
                && (inst->w[2] == SpvDecorationNonReadable || inst->w[2] == SpvDecorationNonWritable))
            d3d12xs_spirv_remove(m, D3D12XS_SPIRV_ANNOTATIONS, i);
    }
}

/* Gives the variable its storage-buffer type. */
static HRESULT convert_variable(struct raw_views *r, struct d3d12xs_spirv_inst *variable, const struct d3d12xs_spirv_raw_view *view)
{
    struct d3d12xs_spirv_module *m = r->m;
    const struct d3d12xs_spirv_inst *pointer = d3d12xs_spirv_def_op(m, variable->w[1], SpvOpTypePointer, 4);
    const struct d3d12xs_spirv_inst *image, *sampled;
    uint32_t runtime, block, words[4], id = variable->w[2];

    if (!pointer)
        return fail(r, "raw or structured view %u has no pointer type (type %u)", variable->w[2], variable->w[1]);
    image = d3d12xs_spirv_def(m, pointer->w[3]);
    if (!image || d3d12xs_spirv_op(image) != SpvOpTypeImage || d3d12xs_spirv_len(image) < 9 || image->w[3] != SpvDimBuffer)
        return fail(r, "raw or structured view %u is not a texel buffer (type %u)", variable->w[2], pointer->w[3]);
    if (!(sampled = d3d12xs_spirv_def_op(m, image->w[2], SpvOpTypeInt, 4)) || sampled->w[2] != 32)
        return fail(r, "raw or structured view %u is not a buffer of 32-bit words (sampled type %u)", variable->w[2], image->w[2]);

    runtime = d3d12xs_spirv_new_id(m);
    block = d3d12xs_spirv_new_id(m);
    if (!runtime || !block)
        return E_OUTOFMEMORY;
    words[0] = SpvOpTypeRuntimeArray | 3u << 16, words[1] = runtime, words[2] = r->uint_type;
    d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, words, 3);
    words[0] = SpvOpTypeStruct | 3u << 16, words[1] = block, words[2] = runtime;
    d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, words, 3);
    decorate(m, runtime, SpvDecorationArrayStride, 4);
    decorate(m, block, SpvDecorationBufferBlock, -1);
    decorate_member(m, block, SpvDecorationOffset, 0);
    if (!view->writable)
        decorate_member(m, block, SpvDecorationNonWritable, -1);
    drop_image_decorations(m, id);
    /* the variable moves after its new types */
    words[0] = SpvOpVariable | 4u << 16;
    words[1] = d3d12xs_spirv_type_pointer(m, SpvStorageClassUniform, block);
    words[2] = id;
    words[3] = SpvStorageClassUniform;
    d3d12xs_spirv_remove(m, D3D12XS_SPIRV_GLOBALS, d3d12xs_spirv_index_of(m, variable));
    if (!d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, words, 4))
        return E_OUTOFMEMORY;
    r->variable_of[id] = id + 1;
    r->kind[id] = KIND_VARIABLE;
    return S_OK;
}

/* The words of an access chain (result id `result`) to word `coordinate` of the view id stands
 * for; returns their count. */
static uint32_t chain_words(const struct raw_views *r, uint32_t result, uint32_t id, uint32_t coordinate, uint32_t words[7])
{
    uint32_t n = 0;
    words[n++] = SpvOpAccessChain;
    words[n++] = r->uint_pointer;
    words[n++] = result;
    words[n++] = r->variable_of[id] - 1;
    words[n++] = r->zero;
    words[n++] = coordinate;
    words[0] |= n << 16;
    return n;
}

/* That access chain, inserted at the function index at: its result id, 0 when out of memory. */
static uint32_t chain_to_word(struct raw_views *r, size_t at, uint32_t id, uint32_t coordinate)
{
    uint32_t result = d3d12xs_spirv_new_id(r->m), words[7], n;
    if (!result)
        return 0;
    n = chain_words(r, result, id, coordinate, words);
    return d3d12xs_spirv_insert(r->m, D3D12XS_SPIRV_FUNCTIONS, at, words, n) ? result : 0;
}

static bool tracked(const struct raw_views *r, uint32_t id)
{
    return id < r->m->bound && r->kind[id] != KIND_NONE;
}

/* Rewrites the instruction at index i of the functions; *i ends at its last replacement. */
static HRESULT rewrite_use(struct raw_views *r, size_t *i)
{
    struct d3d12xs_spirv_module *m = r->m;
    struct d3d12xs_spirv_inst *inst = m->sections[D3D12XS_SPIRV_FUNCTIONS].at[*i];
    uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst), *w = inst->w, chain, value;

    switch (op) {
    case SpvOpAccessChain:
    case SpvOpInBoundsAccessChain:
        if (n < 4 || !tracked(r, w[3]))
            return S_OK;
        return fail(r, "access chain %u into raw or structured view %u (an array of views, which libvkd3d-shader 1.2 does not "
                "make)", w[2], w[3]);
    case SpvOpLoad:
        if (n < 4 || !tracked(r, w[3]))
            return S_OK;
        r->variable_of[w[2]] = r->variable_of[w[3]];
        r->kind[w[2]] = KIND_IMAGE;
        d3d12xs_spirv_remove(m, D3D12XS_SPIRV_FUNCTIONS, (*i)--);
        return S_OK;
    case SpvOpImageFetch:
    case SpvOpImageRead: {
        uint32_t result_type = w[1], result = w[2], image = w[3], coordinate = w[4], construct[7];
        if (n < 5 || !tracked(r, image))
            return S_OK;
        if (!(chain = chain_to_word(r, *i, image, coordinate)) || !(value = d3d12xs_spirv_new_id(m)))
            return E_OUTOFMEMORY;
        {
            uint32_t load[4] = {SpvOpLoad | 4u << 16, r->uint_type, value, chain};
            if (!d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, *i + 1, load, 4))
                return E_OUTOFMEMORY;
        }
        construct[0] = SpvOpCompositeConstruct | 7u << 16, construct[1] = result_type, construct[2] = result;
        construct[3] = construct[4] = construct[5] = construct[6] = value;
        *i += 2;
        if (!d3d12xs_spirv_rewrite(m, m->sections[D3D12XS_SPIRV_FUNCTIONS].at[*i], construct, 7))
            return E_OUTOFMEMORY;
        return S_OK;
    }
    case SpvOpImageWrite: {
        uint32_t image = w[1], coordinate = w[2], texel = w[3], extracted, extract[5], store[3];
        if (n < 4 || !tracked(r, image))
            return S_OK;
        if (!(extracted = d3d12xs_spirv_new_id(m)))
            return E_OUTOFMEMORY;
        extract[0] = SpvOpCompositeExtract | 5u << 16, extract[1] = r->uint_type, extract[2] = extracted, extract[3] = texel;
        extract[4] = 0;
        if (!d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, *i, extract, 5) || !(chain = chain_to_word(r, *i + 1, image, coordinate)))
            return E_OUTOFMEMORY;
        store[0] = SpvOpStore | 3u << 16, store[1] = chain, store[2] = extracted;
        *i += 2;
        if (!d3d12xs_spirv_rewrite(m, m->sections[D3D12XS_SPIRV_FUNCTIONS].at[*i], store, 3))
            return E_OUTOFMEMORY;
        return S_OK;
    }
    case SpvOpImageTexelPointer: {
        uint32_t words[7], k;
        if (n < 6 || !tracked(r, w[3]))
            return S_OK;
        k = chain_words(r, w[2], w[3], w[4], words);
        return d3d12xs_spirv_rewrite(m, inst, words, k) ? S_OK : E_OUTOFMEMORY;
    }
    case SpvOpImageQuerySize: {
        uint32_t length[5];
        if (n < 4 || !tracked(r, w[3]))
            return S_OK;
        length[0] = SpvOpArrayLength | 5u << 16, length[1] = w[1], length[2] = w[2], length[3] = r->variable_of[w[3]] - 1, length[4] = 0;
        return d3d12xs_spirv_rewrite(m, inst, length, 5) ? S_OK : E_OUTOFMEMORY;
    }
    case SpvOpStore: case SpvOpCopyObject: case SpvOpFunctionCall: case SpvOpPhi: case SpvOpSelect:
    case SpvOpImageQuerySizeLod: case SpvOpImageQueryLevels: case SpvOpImageQuerySamples: case SpvOpImageSparseFetch:
    case SpvOpImageSparseRead: case SpvOpSampledImage:
        for (uint32_t k = 1; k < n; k++)
            if (tracked(r, w[k]))
                return fail(r, "raw or structured view %u is used by an instruction of opcode %u, which the rewrite to a "
                        "storage buffer does not handle", r->variable_of[w[k]] - 1, op);
        return S_OK;
    default:
        return S_OK;
    }
}

HRESULT d3d12xs_spirv_pass_raw_views(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_raw_views_args *args,
        char *error, size_t error_size)
{
    struct raw_views r = {m, args, 0, 0, 0, NULL, NULL, error, error_size};
    struct d3d12xs_spirv_inst **found = NULL;
    uint32_t view_count = 0;
    struct d3d12xs_spirv_inst *inst;
    HRESULT hr = S_OK;

    if (!args->count)
        return S_OK;
    r.uint_type = d3d12xs_spirv_type_int(m, 32, 0);
    r.zero = d3d12xs_spirv_constant_u32(m, 0);
    r.uint_pointer = d3d12xs_spirv_type_pointer(m, SpvStorageClassUniform, r.uint_type);
    if (!(found = calloc(args->count, sizeof(*found))))
        return E_OUTOFMEMORY;
    {
        /* One table size for every id the pass makes: a view's types (under 16 ids) and at most
         * three ids per instruction of the functions. */
        size_t ids = (size_t)m->bound + 16 * (size_t)args->count + 3 * m->sections[D3D12XS_SPIRV_FUNCTIONS].count + 64;
        if (!(r.variable_of = calloc(ids, sizeof(*r.variable_of))) || !(r.kind = calloc(ids, 1))) {
            hr = E_OUTOFMEMORY;
            goto done;
        }
    }
    /* the variables first (found, then converted: each moves to the end of the globals) */
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_GLOBALS, i, inst)) {
        if (d3d12xs_spirv_op(inst) != SpvOpVariable || d3d12xs_spirv_len(inst) < 4 || inst->w[3] != SpvStorageClassUniformConstant
                || !view_of(&r, inst->w[2]))
            continue;
        if (view_count == args->count) {
            hr = fail(&r, "two variables have the binding of raw or structured view %u (binding %u)", inst->w[2], 0);
            goto done;
        }
        found[view_count++] = inst;
    }
    for (uint32_t k = 0; k < view_count; k++)
        if (FAILED(hr = convert_variable(&r, found[k], view_of(&r, found[k]->w[2]))))
            goto done;
    for (size_t i = 0; i < m->sections[D3D12XS_SPIRV_FUNCTIONS].count; i++)
        if (FAILED(hr = rewrite_use(&r, &i)))
            goto done;
    if (m->out_of_memory)
        hr = E_OUTOFMEMORY;

done:
    free(found);
    free(r.variable_of);
    free(r.kind);
    return hr;
}
