/* Word accesses again where D3DCompile made 16-byte ones (spirv_vectorize.c), at pipeline creation.
 *
 * spirv_vectorize.c reads and writes four words of a raw buffer (a block of uint[], ArrayStride 4)
 * at once through its uvec4 alias, a second variable at the same set and binding (a block of
 * uvec4[], ArrayStride 16). That needs the buffer's view to start at a 16-byte offset; where it
 * may start at any 4-byte one, every access through the alias goes back to the buffer's words:
 *
 *   %c = OpAccessChain %ptr_v4 %alias %zero %k -> %w0 = %k << 2, %wj = %w0 + j (j = 1..3),
 *                                                 %cj = OpAccessChain %ptr_word %variable %zero %wj
 *   %v = OpLoad %v4 %c                         -> four OpLoad of %cj, %v = OpCompositeConstruct
 *   OpStore %c %v                              -> four OpCompositeExtract of %v, four OpStore
 *
 * The word pointers are made once per chain, where it stood, so they dominate its loads and stores
 * as it did; %v keeps its id for its users. NonUniform on %k or %c goes to the new indexes or
 * chains; memory operands go to each word access, Aligned capped at 4 (a word of a 16-byte element
 * is only 4-byte aligned). Any other use of the alias (OpArrayLength, atomics, a call, other
 * indexes) is refused. The alias goes with its names, decorations, interface entries and the
 * block types nothing else uses; the buffer keeps Aliased, harmless once it is alone. */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "spirv/spirv_passes.h"
#include "common/util.h"

struct scalarize {
    struct d3d12xs_spirv_module *m;
    uint32_t variable, alias;
    uint32_t element, element_pointer;  /* the buffer's word type and a pointer to one word */
    uint32_t bound;                     /* at the start of the pair: chain_of covers these ids */
    uint32_t *chain_of;                 /* id of an access chain into the alias -> index into words + 1 */
    uint32_t (*words)[4];               /* the four word pointers that replace each of those chains */
    size_t chain_count;
    char *error;
    size_t error_size;
};

static HRESULT refuse(struct scalarize *s, const struct d3d12xs_spirv_inst *inst, const char *what)
{
    return d3d12xs_write_error(E_INVALIDARG, s->error, s->error_size, "instruction %u (opcode %u) %s the uvec4 view "
            "(variable %u) of raw buffer %u", inst->offset, d3d12xs_spirv_op(inst), what, s->alias, s->variable);
}

static HRESULT malformed(struct scalarize *s)
{
    return d3d12xs_write_error(E_INVALIDARG, s->error, s->error_size, "malformed SPIR-V");
}

static uint32_t new_id(struct scalarize *s)
{
    uint32_t id = d3d12xs_spirv_new_id(s->m);
    s->m->out_of_memory |= !id; /* past Vulkan's id limit: reported like an allocation failure */
    return id;
}

static void emit(struct scalarize *s, size_t *at, const uint32_t *words, uint32_t n)
{
    if (d3d12xs_spirv_insert(s->m, D3D12XS_SPIRV_FUNCTIONS, *at, words, n))
        ++*at;
}

static bool is_alias_chain(const struct scalarize *s, const struct d3d12xs_spirv_inst *inst)
{
    uint32_t op = d3d12xs_spirv_op(inst);
    return (op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain) && d3d12xs_spirv_len(inst) >= 4 && inst->w[3] == s->alias;
}

static bool is_chain(const struct scalarize *s, uint32_t id)
{
    return id < s->bound && s->chain_of[id];
}

static bool is_alias_or_chain(uint32_t id, void *context)
{
    const struct scalarize *s = context;
    return id == s->alias || is_chain(s, id);
}

/* The element type of the runtime array that is the only member of variable's block (0 if none);
 * types gets the pointer, block and array types. */
static uint32_t block_element(const struct d3d12xs_spirv_module *m, uint32_t variable, uint32_t types[3])
{
    const struct d3d12xs_spirv_inst *var, *pointer, *block, *array;
    if (!(var = d3d12xs_spirv_def_op(m, variable, SpvOpVariable, 4))
            || !(pointer = d3d12xs_spirv_def_op(m, var->w[1], SpvOpTypePointer, 4))
            || !(block = d3d12xs_spirv_def_op(m, pointer->w[3], SpvOpTypeStruct, 3)) || d3d12xs_spirv_len(block) != 3
            || !(array = d3d12xs_spirv_def_op(m, block->w[2], SpvOpTypeRuntimeArray, 3)))
        return 0;
    types[0] = var->w[1], types[1] = pointer->w[3], types[2] = block->w[2];
    return array->w[2];
}

/* Instructions that may take a pointer operand; operands from *end on are memory operands (literals). */
static bool takes_pointer(const struct d3d12xs_spirv_inst *inst, uint32_t *end)
{
    uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst);
    *end = op == SpvOpLoad || op == SpvOpCopyMemorySized ? 4 : op == SpvOpStore || op == SpvOpCopyMemory ? 3 : n;
    *end = *end < n ? *end : n;
    switch (op) {
    case SpvOpLoad: case SpvOpStore: case SpvOpCopyMemory: case SpvOpCopyMemorySized: case SpvOpCopyObject:
    case SpvOpFunctionCall: case SpvOpArrayLength: case SpvOpAccessChain: case SpvOpInBoundsAccessChain:
    case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain: case SpvOpPhi: case SpvOpSelect: case SpvOpPtrEqual:
    case SpvOpPtrNotEqual: case SpvOpPtrDiff: case SpvOpConvertPtrToU: case SpvOpBitcast: case SpvOpReturnValue:
    case SpvOpAtomicFlagTestAndSet: case SpvOpAtomicFlagClear: case SpvOpAtomicFAddEXT: case SpvOpAtomicFMinEXT:
    case SpvOpAtomicFMaxEXT: return true;
    default: return op >= SpvOpAtomicLoad && op <= SpvOpAtomicXor;
    }
}

/* Finds the access chains into the alias, and refuses every other use of the alias or of them. */
static HRESULT find_chains(struct scalarize *s)
{
    struct d3d12xs_spirv_inst *inst;
    uint32_t member, end;

    for (D3D12XS_SPIRV_EACH(s->m, D3D12XS_SPIRV_FUNCTIONS, i, inst)) {
        if (!is_alias_chain(s, inst))
            continue;
        if (d3d12xs_spirv_len(inst) != 6 || !d3d12xs_spirv_int32_constant(s->m, inst->w[4], NULL, &member) || member)
            return refuse(s, inst, "indexes other than (0, vector index) into");
        if (inst->w[2] >= s->bound)
            return malformed(s);
        s->chain_of[inst->w[2]] = (uint32_t)++s->chain_count;
    }
    /* a second walk: a use may come before its chain (an OpPhi of a back edge) */
    for (D3D12XS_SPIRV_EACH(s->m, D3D12XS_SPIRV_FUNCTIONS, i, inst)) {
        uint32_t op = d3d12xs_spirv_op(inst);
        for (uint32_t k = 1; !is_alias_chain(s, inst) && takes_pointer(inst, &end) && k < end; k++)
            if (inst->w[k] == s->alias || (is_chain(s, inst->w[k]) && !(op == SpvOpLoad && k == 3)
                    && !(op == SpvOpStore && k == 1)))
                return refuse(s, inst, "uses");
    }
    if (s->chain_count && !(s->words = calloc(s->chain_count, sizeof(*s->words))))
        return d3d12xs_write_error(E_OUTOFMEMORY, s->error, s->error_size, "out of memory");
    return S_OK;
}

/* w: the removed %c = OpAccessChain %ptr_v4 %alias %zero %k. */
static HRESULT split_chain(struct scalarize *s, size_t *at, const uint32_t *w)
{
    const struct d3d12xs_spirv_inst *index = d3d12xs_spirv_def(s->m, w[5]), *type;
    uint32_t result_type = index ? d3d12xs_spirv_result_type_index(d3d12xs_spirv_op(index)) : 0;
    uint32_t *pointers = s->words[s->chain_of[w[2]] - 1], word_index[4] = {0};
    bool nonuniform[2] = {d3d12xs_spirv_decoration(s->m, w[5], SpvDecorationNonUniform, NULL),
            d3d12xs_spirv_decoration(s->m, w[2], SpvDecorationNonUniform, NULL)};

    if (!result_type || !(type = d3d12xs_spirv_def_op(s->m, index->w[result_type], SpvOpTypeInt, 4)))
        return malformed(s);
    for (uint32_t j = 0; j < 4; j++) {
        /* constants of the index's own type: OpIAdd takes one type throughout */
        uint32_t constant = j ? j : 2, value = type->w[2] == 64 ? d3d12xs_spirv_constant64(s->m, type->w[1], constant)
                : d3d12xs_spirv_constant(s->m, type->w[1], constant);
        uint32_t words[5] = {j ? SpvOpIAdd : SpvOpShiftLeftLogical, type->w[1], new_id(s), j ? word_index[0] : w[5], value};
        emit(s, at, words, 5);
        word_index[j] = words[2];
    }
    for (uint32_t j = 0; j < 4; j++) {
        uint32_t chain[6] = {w[0] & 0xffff, s->element_pointer, pointers[j] = new_id(s), s->variable, w[4], word_index[j]};
        emit(s, at, chain, 6);
        for (unsigned d = 0; d < 2; d++) {
            uint32_t decorate[3] = {SpvOpDecorate, d ? pointers[j] : word_index[j], SpvDecorationNonUniform};
            if (nonuniform[d])
                d3d12xs_spirv_append(s->m, D3D12XS_SPIRV_ANNOTATIONS, decorate, 3);
        }
    }
    return S_OK;
}

/* w: the removed OpLoad %v4 %v %c or OpStore %c %v, n words. */
static HRESULT split_access(struct scalarize *s, size_t *at, const uint32_t *w, uint32_t n)
{
    bool store = (w[0] & 0xffff) == SpvOpStore;
    const uint32_t *pointers = s->words[s->chain_of[store ? w[1] : w[3]] - 1];
    uint32_t construct[7] = {SpvOpCompositeConstruct, w[1], w[2]}, words[8], memory = store ? 3 : 4;

    if (!pointers[0]) /* used before its chain: the chain does not dominate it */
        return malformed(s);
    /* the memory operands, at the same place in each word access; Aligned's literal follows the mask */
    memcpy(&words[memory], &w[memory], (n - memory) * sizeof(*words));
    if (n - memory >= 2 && (words[memory] & SpvMemoryAccessAlignedMask) && words[memory + 1] > 4)
        words[memory + 1] = 4;
    for (uint32_t j = 0; j < 4; j++) {
        if (store) {
            uint32_t extract[5] = {SpvOpCompositeExtract, s->element, new_id(s), w[2], j};
            emit(s, at, extract, 5);
            words[0] = SpvOpStore, words[1] = pointers[j], words[2] = extract[2];
        } else {
            words[0] = SpvOpLoad, words[1] = s->element, words[2] = construct[3 + j] = new_id(s), words[3] = pointers[j];
        }
        emit(s, at, words, n);
    }
    if (!store)
        emit(s, at, construct, 7);
    return S_OK;
}

/* Removes the type id with its names and decorations where no global or function names it (a
 * literal taken for an id only keeps a type that could have gone). */
static void remove_unused_type(struct d3d12xs_spirv_module *m, uint32_t id)
{
    static const enum d3d12xs_spirv_section users[] = {D3D12XS_SPIRV_GLOBALS, D3D12XS_SPIRV_FUNCTIONS},
            about[] = {D3D12XS_SPIRV_DEBUG, D3D12XS_SPIRV_ANNOTATIONS};
    struct d3d12xs_spirv_inst *def = d3d12xs_spirv_def(m, id), *inst;

    for (size_t p = 0; p < 2; p++) {
        for (D3D12XS_SPIRV_EACH(m, users[p], i, inst)) {
            uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst), first = d3d12xs_spirv_result_type_index(op);
            uint32_t last = first;
            if (op >= SpvOpTypeVector && op <= SpvOpTypeFunction) /* element, member, pointee, parameter types */
                first = op == SpvOpTypePointer ? 3 : 2, last = n - 1;
            for (uint32_t k = first; k && k <= last && k < n; k++)
                if (inst->w[k] == id)
                    return;
        }
    }
    if (!def || def->section != D3D12XS_SPIRV_GLOBALS)
        return;
    d3d12xs_spirv_remove(m, D3D12XS_SPIRV_GLOBALS, d3d12xs_spirv_index_of(m, def));
    for (size_t p = 0; p < 2; p++) {
        struct d3d12xs_spirv_list *list = &m->sections[about[p]];
        for (size_t i = list->count; i-- > 0;) {
            uint32_t op = d3d12xs_spirv_op(list->at[i]);
            if ((op == SpvOpName || op == SpvOpMemberName || op == SpvOpDecorate || op == SpvOpMemberDecorate)
                    && d3d12xs_spirv_len(list->at[i]) >= 2 && list->at[i]->w[1] == id)
                d3d12xs_spirv_remove(m, about[p], i);
        }
    }
}

static HRESULT scalarize_pair(struct scalarize *s)
{
    struct d3d12xs_spirv_module *m = s->m;
    struct d3d12xs_spirv_list *functions = &m->sections[D3D12XS_SPIRV_FUNCTIONS];
    const struct d3d12xs_spirv_inst *variable = d3d12xs_spirv_def_op(m, s->variable, SpvOpVariable, 4), *vector;
    uint32_t alias_types[3], types[3], k;
    HRESULT hr;

    vector = d3d12xs_spirv_def_op(m, block_element(m, s->alias, alias_types), SpvOpTypeVector, 4);
    s->element = block_element(m, s->variable, types);
    if (!variable || !d3d12xs_spirv_def_op(m, s->element, SpvOpTypeInt, 4) || !vector || vector->w[2] != s->element
            || vector->w[3] != 4)
        return d3d12xs_write_error(E_INVALIDARG, s->error, s->error_size, "variable %u is not a raw buffer with a uvec4 "
                "view (variable %u) of its words", s->variable, s->alias);
    s->element_pointer = d3d12xs_spirv_type_pointer(m, variable->w[3], s->element);
    s->bound = m->bound;
    if (!(s->chain_of = calloc(s->bound, sizeof(*s->chain_of))))
        return d3d12xs_write_error(E_OUTOFMEMORY, s->error, s->error_size, "out of memory");
    if (FAILED(hr = find_chains(s)))
        return hr;

    /* each replacement goes where its instruction was, and i moves past it */
    for (size_t i = 0; i < functions->count && !m->out_of_memory;) {
        const struct d3d12xs_spirv_inst *inst = functions->at[i];
        uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst), words[8];
        bool chain = is_alias_chain(s, inst), load = op == SpvOpLoad && n >= 4 && is_chain(s, inst->w[3]);

        if (!chain && !load && !(op == SpvOpStore && n >= 3 && is_chain(s, inst->w[1]))) {
            i++;
            continue;
        }
        if (n > 8) /* more memory operands than an access has */
            return malformed(s);
        memcpy(words, inst->w, n * sizeof(*words));
        d3d12xs_spirv_remove(m, D3D12XS_SPIRV_FUNCTIONS, i);
        if (FAILED(hr = chain ? split_chain(s, &i, words) : split_access(s, &i, words, n)))
            return hr;
    }
    d3d12xs_spirv_remove_variables(m, is_alias_or_chain, s); /* names, decorations, interfaces too */
    for (k = 0; k < 3; k++) /* pointer, block, array: each uses the next */
        remove_unused_type(m, alias_types[k]);
    return S_OK;
}

HRESULT d3d12xs_spirv_pass_scalarize(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_scalarize_args *args,
        char *error, size_t error_size)
{
    HRESULT hr = S_OK;

    for (uint32_t p = 0; p < args->count && SUCCEEDED(hr) && !m->out_of_memory; p++) {
        struct scalarize s = {.m = m, .variable = args->variables[p], .alias = args->aliases[p],
                .error = error, .error_size = error_size};
        if (!s.alias || !d3d12xs_spirv_def_op(m, s.alias, SpvOpVariable, 4))
            continue; /* no view: nothing to undo */
        hr = scalarize_pair(&s);
        free(s.chain_of);
        free(s.words);
    }
    if (SUCCEEDED(hr) && m->out_of_memory)
        hr = d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory");
    return hr;
}
