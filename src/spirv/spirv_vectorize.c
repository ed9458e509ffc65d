/* 16-byte accesses for ByteAddressBuffer Load4 / Store4.
 *
 * glslang lowers a ByteAddressBuffer to a runtime array of uint (ArrayStride 4) and
 * Load4(address) / Store4(address, v) to four scalar OpLoad / OpStore of the words
 * address / 4 + 0..3, interleaved with each other where a Load4 feeds a Store4. A GPU then
 * issues four 4-byte memory operations where the HLSL meant one 16-byte one (NVIDIA: four
 * LDG.32 instead of one LDG.128), which costs bandwidth in memory-bound kernels.
 *
 * This pass over the module, run by D3DCompile after the fix-ups (spirv_fixup.c), finds in each
 * basic block four loads (or four stores) of the same raw buffer variable at word indices
 * base + c + 0..3, where base is provably a multiple of 4 (its known trailing zero bits,
 * through constants, multiplications, shifts, additions, and/or/xor, select and phi) and c a
 * constant multiple of 4, and replaces them with one access through a second variable at the
 * same DescriptorSet / Binding whose block holds a runtime array of uvec4 (ArrayStride 16),
 * element (base + c) >> 2: the same 16 bytes. Vulkan lets several variables share a binding
 * as long as each fits the descriptor type (both are storage buffers); reflection reports the
 * second one as an alias of the first (spirv_reflect.c) and remapping moves both
 * (spirv_remap.c). Where the original variable is still accessed otherwise and is writable,
 * both variables are decorated Aliased, so the driver does not assume the two views of one
 * buffer are distinct memory.
 *
 * Alignment: only indices proven to be multiples of 4 words are merged, so the vector is at
 * a 16-byte offset from the view's start; a Load4 at an address only known to be 4-byte
 * aligned (a root constant, id * 4 + 4, ...) keeps its four scalar loads. The view itself may
 * start 4, 8 or 12 bytes off a 16-byte boundary (D3D12 allows it): pipeline creation then
 * turns the uvec4 accesses back into 32-bit ones (spirv_scalarize.c: always for heap views, in
 * the SCALAR variant for root views; docs/descriptors.md, "Views at any offset").
 *
 * Order: merging moves the later loads of a group up to the first one, and the earlier stores
 * down to the last. That is done only when nothing in between could observe the difference:
 * for loads of a writable buffer, no store to a storage buffer (or to memory of unknown
 * origin), atomic, barrier, image write, copy or function call between them; loads of a
 * read-only buffer (an SRV, NonWritable) may move across anything, because D3D12 does not let
 * a buffer be an SRV and a UAV of the same dispatch at once. For stores, nothing between them
 * may read a writable buffer or a storage image (a typed UAV may view the same buffer), write
 * any storage buffer or be an atomic, barrier, copy or call; reads of read-only buffers may
 * sit between. Loads and stores with memory operands (Volatile, Aligned, ...) are left alone.
 *
 * Not done: Load2 / Load3 (8- and 12-byte accesses need their own alignment proofs and
 * vector types), accesses across basic blocks, and structured buffers, which glslang already
 * declares with their element type (StructuredBuffer<uint4> loads one uvec4). With
 * robustBufferAccess (d3d12xs does not enable it) a partly out-of-bounds 16-byte access could
 * be dropped as a whole where the scalar ones were dropped per word.
 */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "spirv/spirv.h"
#include "spirv/spirv_passes.h"

#define KNOWN_ZEROS_DEPTH 12

enum access_class {
    ACCESS_NONE,
    ACCESS_READ_WRITABLE,   /* a load from a writable storage buffer or from memory of unknown origin */
    ACCESS_WRITE,           /* a store to a storage buffer or to memory of unknown origin */
    ACCESS_FENCE,           /* atomics, barriers, copies, calls, image writes */
};

/* What a variable is, as far as this pass's ordering goes. */
enum variable_kind {
    KIND_PRIVATE,           /* Function, Private, Workgroup, Input, Output, push constants, cbuffers, images */
    KIND_READ_ONLY,         /* a storage buffer whose members are all NonWritable (or the variable is) */
    KIND_WRITABLE,          /* any other storage buffer */
};

struct raw_variable {
    uint32_t variable, block, element; /* the block struct and the runtime array's 32-bit integer element */
    uint32_t storage;                  /* storage class */
    uint32_t alias;                    /* the uvec4 view's variable, once needed */
    uint32_t alias_array, alias_block, alias_pointer, vector_type, vector_pointer;
    unsigned references;               /* references to it in functions, merged accesses included */
    unsigned merged;                   /* accesses merged */
};

struct access {
    size_t at;                         /* index of the OpLoad / OpStore in the functions */
    uint32_t block;                    /* basic block number */
    uint32_t raw, base, constant;      /* raw: index into raws */
    uint32_t value;                    /* load: the result id; store: the stored object */
    uint32_t zero;                     /* the access chain's first index (the block's member 0) */
    bool store;
    int group;                         /* -1, or the group it belongs to */
};

struct group {
    size_t first, last;                /* indices of its earliest and latest access */
    uint32_t raw, base, constant, zero;
    uint32_t constant_id, two_id;     /* uint constants: `constant` (when not 0) and 2 */
    uint32_t values[4];
    bool store;
    uint32_t vector;                   /* the 16-byte value's id */
    int from_load;                     /* a store of a merged load's four values in order: that group, else -1 */
};

struct vectorize {
    struct d3d12xs_spirv_module *m;
    uint32_t bound;                    /* of the module before the pass: the tables cover these ids */
    uint32_t *root;                    /* pointer id -> the variable it derives from, 0 if unknown */
    uint8_t *kind;                     /* variable id -> enum variable_kind */
    int *raw_of;                       /* variable id -> index into raws + 1 */
    struct raw_variable *raws;
    unsigned raw_count;
    struct access *accesses;
    size_t access_count;
    struct group *groups;
    size_t group_count;
    int *merged_load;                  /* load result id -> group * 4 + component + 1 */
    int *group_at;                     /* function index -> group + 1 at its insertion point, -1 where dropped */
    uint32_t uint_type;
};

static const struct d3d12xs_spirv_inst *function_at(const struct vectorize *v, size_t i)
{
    return v->m->sections[D3D12XS_SPIRV_FUNCTIONS].at[i];
}

static const uint32_t *def_of(const struct vectorize *v, uint32_t id)
{
    const struct d3d12xs_spirv_inst *def = d3d12xs_spirv_def(v->m, id);
    return def ? def->w : NULL;
}

static bool is_int32_type(const struct vectorize *v, uint32_t id)
{
    const uint32_t *type = def_of(v, id);
    return type && (type[0] & 0xffff) == SpvOpTypeInt && (type[0] >> 16) == 4 && type[2] == 32;
}

/* The value of a 32-bit integer constant. */
static bool constant_of(const struct vectorize *v, uint32_t id, uint32_t *value)
{
    return d3d12xs_spirv_int32_constant(v->m, id, NULL, value);
}

static unsigned ctz32(uint32_t x)
{
    unsigned n = 0;
    if (!x)
        return 32;
    for (; !(x & 1); x >>= 1)
        n++;
    return n;
}

static unsigned min_u(unsigned a, unsigned b) { return a < b ? a : b; }

/* How many low bits of the 32-bit integer `id` are known to be zero (arithmetic modulo 2^32
 * keeps them: 2^32 is a multiple of every power of two below it). */
static unsigned known_zeros(const struct vectorize *v, uint32_t id, unsigned depth)
{
    const uint32_t *d = def_of(v, id);
    uint32_t value, n;
    unsigned a, b;

    if (constant_of(v, id, &value))
        return ctz32(value);
    if (!d || depth > KNOWN_ZEROS_DEPTH || (n = d[0] >> 16) < 4 || !is_int32_type(v, d[1]))
        return 0;
    switch (d[0] & 0xffff) {
    case SpvOpCopyObject:
    case SpvOpBitcast:
        return known_zeros(v, d[3], depth + 1);
    case SpvOpIMul:
        return n < 5 ? 0 : min_u(32, known_zeros(v, d[3], depth + 1) + known_zeros(v, d[4], depth + 1));
    case SpvOpShiftLeftLogical:
        if (n < 5 || !constant_of(v, d[4], &value) || value >= 32)
            return 0;
        return min_u(32, known_zeros(v, d[3], depth + 1) + value);
    case SpvOpShiftRightLogical:
    case SpvOpShiftRightArithmetic:
        if (n < 5 || !constant_of(v, d[4], &value) || value >= 32)
            return 0;
        a = known_zeros(v, d[3], depth + 1);
        return a >= 32 ? 32 : a > value ? a - value : 0;
    case SpvOpIAdd:
    case SpvOpISub:
    case SpvOpBitwiseOr:
    case SpvOpBitwiseXor:
        return n < 5 ? 0 : min_u(known_zeros(v, d[3], depth + 1), known_zeros(v, d[4], depth + 1));
    case SpvOpBitwiseAnd:
        if (n < 5)
            return 0;
        a = known_zeros(v, d[3], depth + 1);
        b = known_zeros(v, d[4], depth + 1);
        return a > b ? a : b;
    case SpvOpSelect:
        return n < 6 ? 0 : min_u(known_zeros(v, d[4], depth + 1), known_zeros(v, d[5], depth + 1));
    case SpvOpPhi:
        a = 32;
        for (uint32_t k = 3; k + 1 < n; k += 2)
            a = min_u(a, known_zeros(v, d[k], depth + 1));
        return a;
    default:
        return 0;
    }
}

/* Splits a word index into base + constant (modulo 2^32) through additions of constants. */
static void split_index(const struct vectorize *v, uint32_t index, uint32_t *base, uint32_t *constant)
{
    uint32_t value;
    *base = index;
    *constant = 0;
    for (unsigned depth = 0; depth < 4; depth++) {
        const uint32_t *d = def_of(v, *base);
        if (!d || (d[0] >> 16) != 5 || !is_int32_type(v, d[1]))
            return;
        if ((d[0] & 0xffff) == SpvOpIAdd && constant_of(v, d[4], &value))
            *base = d[3];
        else if ((d[0] & 0xffff) == SpvOpIAdd && constant_of(v, d[3], &value))
            *base = d[4];
        else if ((d[0] & 0xffff) == SpvOpISub && constant_of(v, d[4], &value))
            *base = d[3], value = 0u - value;
        else
            return;
        *constant += value;
    }
}

static bool is_atomic(uint32_t op)
{
    return (op >= SpvOpAtomicLoad && op <= SpvOpAtomicXor) || op == SpvOpAtomicFlagTestAndSet || op == SpvOpAtomicFlagClear
            || op == SpvOpAtomicFMinEXT || op == SpvOpAtomicFMaxEXT || op == SpvOpAtomicFAddEXT;
}

/* The kind of memory a pointer points into: a pointer of unknown origin may be anything. */
static enum variable_kind pointer_kind(const struct vectorize *v, uint32_t pointer)
{
    uint32_t root = pointer < v->bound ? v->root[pointer] : 0;
    return root ? (enum variable_kind)v->kind[root] : KIND_WRITABLE;
}

static enum access_class classify(const struct vectorize *v, const uint32_t *w)
{
    uint32_t op = w[0] & 0xffff, n = w[0] >> 16;

    switch (op) {
    case SpvOpLoad:
        return n < 4 || pointer_kind(v, w[3]) == KIND_WRITABLE ? ACCESS_READ_WRITABLE : ACCESS_NONE;
    case SpvOpStore:
        return n < 3 || pointer_kind(v, w[1]) != KIND_PRIVATE ? ACCESS_WRITE : ACCESS_NONE;
    case SpvOpImageRead:
    case SpvOpImageSparseRead:
        return ACCESS_READ_WRITABLE; /* a typed UAV may view the same buffer as a raw one */
    case SpvOpControlBarrier:
    case SpvOpMemoryBarrier:
    case SpvOpFunctionCall:
    case SpvOpCopyMemory:
    case SpvOpCopyMemorySized:
    case SpvOpImageWrite:
    case SpvOpImageTexelPointer:
        return ACCESS_FENCE;
    default:
        return is_atomic(op) ? ACCESS_FENCE : ACCESS_NONE;
    }
}

/* Pass 1: decorations, the raw buffer variables and every candidate access. */
static HRESULT collect(struct vectorize *v)
{
    struct d3d12xs_spirv_module *m = v->m;
    const struct d3d12xs_spirv_inst *inst;
    uint8_t *nonwritable_var = NULL, *restrict_var = NULL, *buffer_block = NULL;
    uint32_t *nonwritable_members = NULL, *array_stride = NULL;
    uint32_t block_number = 0, index;
    size_t capacity = 0;
    HRESULT hr = E_OUTOFMEMORY;

    if (!(v->root = calloc(v->bound, sizeof(*v->root)))
            || !(v->kind = calloc(v->bound, 1)) || !(v->raw_of = calloc(v->bound, sizeof(*v->raw_of)))
            || !(v->merged_load = calloc(v->bound, sizeof(*v->merged_load))) || !(nonwritable_var = calloc(v->bound, 1))
            || !(restrict_var = calloc(v->bound, 1)) || !(buffer_block = calloc(v->bound, 1))
            || !(nonwritable_members = calloc(v->bound, sizeof(*nonwritable_members)))
            || !(array_stride = calloc(v->bound, sizeof(*array_stride)))
            || !(v->group_at = calloc(m->sections[D3D12XS_SPIRV_FUNCTIONS].count + 1, sizeof(*v->group_at))))
        goto done;

    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ANNOTATIONS, i, inst)) {
        const uint32_t *w = inst->w;
        uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst);
        if (op == SpvOpDecorate && n >= 3) {
            uint32_t target = w[1] < v->bound ? w[1] : 0;
            if (w[2] == SpvDecorationNonWritable)
                nonwritable_var[target] = 1;
            else if (w[2] == SpvDecorationRestrict)
                restrict_var[target] = 1;
            else if (w[2] == SpvDecorationBufferBlock)
                buffer_block[target] = 1;
            else if (w[2] == SpvDecorationArrayStride && n >= 4)
                array_stride[target] = w[3];
        } else if (op == SpvOpMemberDecorate && n >= 4 && w[3] == SpvDecorationNonWritable && w[1] < v->bound) {
            nonwritable_members[w[1]]++;
        }
    }
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_GLOBALS, i, inst))
        if (d3d12xs_spirv_op(inst) == SpvOpTypeInt && d3d12xs_spirv_len(inst) == 4 && inst->w[2] == 32 && inst->w[3] == 0)
            v->uint_type = inst->w[1];

    /* the storage buffers, and which of them are raw (a block of one runtime array of 32-bit integers, stride 4) */
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_GLOBALS, i, inst)) {
        const uint32_t *w = inst->w, *pointer, *block, *array;
        uint32_t id, storage;
        if (d3d12xs_spirv_op(inst) != SpvOpVariable || d3d12xs_spirv_len(inst) < 4 || (id = w[2]) >= v->bound)
            continue;
        v->root[id] = id;
        storage = w[3];
        if (storage != SpvStorageClassStorageBuffer && storage != SpvStorageClassUniform)
            continue;
        if (!(pointer = def_of(v, w[1])) || (pointer[0] & 0xffff) != SpvOpTypePointer || (pointer[0] >> 16) != 4
                || !(block = def_of(v, pointer[3])) || (block[0] & 0xffff) != SpvOpTypeStruct || pointer[3] >= v->bound)
            continue;
        if (storage == SpvStorageClassUniform && !buffer_block[pointer[3]])
            continue; /* a cbuffer: never written */
        v->kind[id] = nonwritable_var[id] || nonwritable_members[pointer[3]] >= (block[0] >> 16) - 2
                ? KIND_READ_ONLY : KIND_WRITABLE;
        if ((block[0] >> 16) != 3 || restrict_var[id] || !(array = def_of(v, block[2])) || block[2] >= v->bound
                || (array[0] & 0xffff) != SpvOpTypeRuntimeArray || !is_int32_type(v, array[2]) || array_stride[block[2]] != 4)
            continue;
        if (v->raw_count == capacity) {
            struct raw_variable *bigger = realloc(v->raws, (capacity = capacity * 2 + 4) * sizeof(*bigger));
            if (!bigger)
                goto done;
            v->raws = bigger;
        }
        memset(&v->raws[v->raw_count], 0, sizeof(*v->raws));
        v->raws[v->raw_count].variable = id;
        v->raws[v->raw_count].block = pointer[3];
        v->raws[v->raw_count].element = array[2];
        v->raws[v->raw_count].storage = storage;
        v->raw_of[id] = (int)++v->raw_count;
    }

    capacity = 0;
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_FUNCTIONS, o, inst)) {
        const uint32_t *w = inst->w, *chain;
        uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst), pointer = 0;
        struct access a;
        int raw;

        if (op == SpvOpLabel)
            block_number++;
        if ((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain || op == SpvOpPtrAccessChain
                || op == SpvOpInBoundsPtrAccessChain || op == SpvOpCopyObject) && n >= 4 && w[2] < v->bound
                && w[3] < v->bound) {
            v->root[w[2]] = v->root[w[3]];
            continue;
        }
        if (op == SpvOpVariable && n >= 4 && w[2] < v->bound)
            v->root[w[2]] = w[2];
        /* every reference to a raw buffer outside the access chains */
        for (uint32_t k = 1; k < n; k++)
            if (w[k] < v->bound && v->root[w[k]] && (raw = v->raw_of[v->root[w[k]]]))
                v->raws[raw - 1].references++;
        if (op == SpvOpLoad && n == 4)
            pointer = w[3];
        else if (op == SpvOpStore && n == 3)
            pointer = w[1];
        if (!pointer || !(chain = def_of(v, pointer)) || ((chain[0] & 0xffff) != SpvOpAccessChain
                && (chain[0] & 0xffff) != SpvOpInBoundsAccessChain) || (chain[0] >> 16) != 6
                || chain[3] >= v->bound || !(raw = v->raw_of[chain[3]]) || !constant_of(v, chain[4], &index) || index)
            continue;
        memset(&a, 0, sizeof(a));
        a.at = o;
        a.block = block_number;
        a.raw = (uint32_t)raw - 1;
        a.store = op == SpvOpStore;
        a.value = w[2]; /* the load's result, or the stored object */
        a.zero = chain[4];
        a.group = -1;
        if (!a.store && w[1] != v->raws[a.raw].element)
            continue;
        split_index(v, chain[5], &a.base, &a.constant);
        if (v->access_count == capacity) {
            struct access *bigger = realloc(v->accesses, (capacity = capacity * 2 + 16) * sizeof(*bigger));
            if (!bigger)
                goto done;
            v->accesses = bigger;
        }
        v->accesses[v->access_count++] = a;
    }
    hr = S_OK;

done:
    free(nonwritable_var);
    free(restrict_var);
    free(buffer_block);
    free(nonwritable_members);
    free(array_stride);
    return hr;
}

/* Whether the group's accesses may become one at its first (loads) or last (stores) access. */
static bool may_merge(const struct vectorize *v, const struct access *const members[4], bool store)
{
    size_t first = members[0]->at, last = members[0]->at;
    for (unsigned j = 1; j < 4; j++) {
        first = members[j]->at < first ? members[j]->at : first;
        last = members[j]->at > last ? members[j]->at : last;
    }
    if (!store && v->kind[v->raws[members[0]->raw].variable] == KIND_READ_ONLY)
        return true;
    for (size_t o = first; o <= last; o++) {
        enum access_class c = classify(v, function_at(v, o)->w);
        bool own = false;
        for (unsigned j = 0; j < 4; j++)
            own |= members[j]->at == o;
        if (own || c == ACCESS_NONE)
            continue;
        if (c == ACCESS_FENCE || (store ? true : c == ACCESS_WRITE))
            return false;
    }
    return true;
}

/* Pass 2: groups of four accesses of words 4k .. 4k + 3 of one raw buffer in one block. */
static HRESULT find_groups(struct vectorize *v)
{
    size_t capacity = 0, block_start = 0, block_end = 0;
    for (size_t i = 0; i < v->access_count; i++) {
        struct access *a = &v->accesses[i];
        const struct access *members[4] = {a};
        struct group g;
        unsigned found = 1;

        /* accesses are in program order: those of a's block are [block_start, block_end) */
        if (i >= block_end) {
            block_start = i;
            for (block_end = i + 1; block_end < v->access_count && v->accesses[block_end].block == a->block; block_end++)
                ;
        }

        if (a->group >= 0 || a->constant % 4 || known_zeros(v, a->base, 0) < 2)
            continue;
        for (unsigned j = 1; j < 4; j++) {
            members[j] = NULL;
            for (size_t k = block_start; k < block_end && !members[j]; k++) {
                const struct access *b = &v->accesses[k];
                if (b != a && b->group < 0 && b->raw == a->raw && b->store == a->store
                        && b->base == a->base && b->constant == a->constant + j)
                    members[j] = b;
            }
            found += members[j] != NULL;
        }
        if (found < 4 || !may_merge(v, members, a->store))
            continue;
        memset(&g, 0, sizeof(g));
        g.first = g.last = a->at;
        g.raw = a->raw;
        g.base = a->base;
        g.constant = a->constant;
        g.zero = a->zero;
        g.store = a->store;
        g.from_load = -1;
        for (unsigned j = 0; j < 4; j++) {
            g.values[j] = members[j]->value;
            g.first = members[j]->at < g.first ? members[j]->at : g.first;
            g.last = members[j]->at > g.last ? members[j]->at : g.last;
        }
        if (v->group_count == capacity) {
            struct group *bigger = realloc(v->groups, (capacity = capacity * 2 + 8) * sizeof(*bigger));
            if (!bigger)
                return E_OUTOFMEMORY;
            v->groups = bigger;
        }
        for (unsigned j = 0; j < 4; j++) {
            ((struct access *)members[j])->group = (int)v->group_count;
            v->group_at[members[j]->at] = -1;
            if (!g.store && g.values[j] < v->bound)
                v->merged_load[g.values[j]] = (int)v->group_count * 4 + (int)j + 1;
        }
        v->group_at[g.store ? g.last : g.first] = (int)v->group_count + 1;
        v->raws[g.raw].merged += 4;
        v->groups[v->group_count++] = g;
    }
    /* stores of a merged load's four values, in order, store that vector */
    for (size_t i = 0; i < v->group_count; i++) {
        struct group *g = &v->groups[i];
        int from = g->store && g->values[0] < v->bound ? v->merged_load[g->values[0]] : 0;
        if (!from || (from - 1) % 4)
            continue;
        for (unsigned j = 1; j < 4 && from; j++)
            if (g->values[j] >= v->bound || v->merged_load[g->values[j]] != from + (int)j)
                from = 0;
        if (from)
            g->from_load = (from - 1) / 4;
    }
    return S_OK;
}

static uint32_t uint_constant(struct vectorize *v, uint32_t value)
{
    return d3d12xs_spirv_constant(v->m, v->uint_type, value);
}

static uint32_t new_id(struct vectorize *v)
{
    return d3d12xs_spirv_new_id(v->m);
}

static void annotate(struct vectorize *v, const uint32_t *words, uint32_t n)
{
    d3d12xs_spirv_append(v->m, D3D12XS_SPIRV_ANNOTATIONS, words, n);
}

/* The uvec4 view of raw buffer r: types, variable and decorations. */
static void add_view(struct vectorize *v, struct raw_variable *r)
{
    struct d3d12xs_spirv_module *m = v->m;
    const struct d3d12xs_spirv_list *annotations = &m->sections[D3D12XS_SPIRV_ANNOTATIONS];
    size_t annotation_count = annotations->count;
    bool aliased = v->kind[r->variable] == KIND_WRITABLE && r->references > r->merged;
    uint32_t vector[4] = {SpvOpTypeVector, 0, r->element, 4};

    r->vector_type = d3d12xs_spirv_global(m, vector, 4, 1);
    r->vector_pointer = d3d12xs_spirv_type_pointer(m, r->storage, r->vector_type);
    r->alias_array = new_id(v);
    r->alias_block = new_id(v);
    r->alias_pointer = new_id(v);
    r->alias = new_id(v);
    {
        uint32_t array[3] = {SpvOpTypeRuntimeArray, r->alias_array, r->vector_type};
        uint32_t block[3] = {SpvOpTypeStruct, r->alias_block, r->alias_array};
        uint32_t pointer[4] = {SpvOpTypePointer, r->alias_pointer, r->storage, r->alias_block};
        uint32_t variable[4] = {SpvOpVariable, r->alias_pointer, r->alias, r->storage};
        uint32_t stride[4] = {SpvOpDecorate, r->alias_array, SpvDecorationArrayStride, 16};
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, array, 3);
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, block, 3);
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, pointer, 4);
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, variable, 4);
        annotate(v, stride, 4);
    }
    /* the block's and the variable's decorations, member 0's too (Offset 0, NonWritable, ...) */
    for (size_t i = 0; i < annotation_count; i++) {
        const struct d3d12xs_spirv_inst *inst = annotations->at[i];
        uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst), target = n >= 2 ? inst->w[1] : 0, copy[16];
        if (!((op == SpvOpDecorate && (target == r->block || target == r->variable))
                || (op == SpvOpMemberDecorate && n >= 3 && target == r->block && inst->w[2] == 0)) || n > 16)
            continue;
        if (op == SpvOpDecorate && target == r->variable && n >= 3 && inst->w[2] == SpvDecorationAliased)
            aliased = false; /* there already, and copied */
        memcpy(copy, inst->w, n * 4);
        copy[1] = target == r->block ? r->alias_block : r->alias;
        annotate(v, copy, n);
    }
    if (aliased) {
        uint32_t alias[3] = {SpvOpDecorate, r->alias, SpvDecorationAliased};
        uint32_t original[3] = {SpvOpDecorate, r->variable, SpvDecorationAliased};
        annotate(v, alias, 3);
        annotate(v, original, 3);
    }
}

/* Inserts at index of the functions the instructions that replace group g; returns how many. */
static size_t add_group(struct vectorize *v, const struct group *g, size_t index)
{
    const struct raw_variable *r = &v->raws[g->raw];
    uint32_t code[40], *o = code, at, chain = g->base, value;

    if (g->constant) {
        uint32_t sum[5] = {(5u << 16) | SpvOpIAdd, v->uint_type, new_id(v), g->base, g->constant_id};
        memcpy(o, sum, sizeof(sum)), o += 5;
        chain = sum[2];
    }
    {
        uint32_t shift[5] = {(5u << 16) | SpvOpShiftRightLogical, v->uint_type, new_id(v), chain, g->two_id};
        uint32_t access[6] = {(6u << 16) | SpvOpAccessChain, r->vector_pointer, new_id(v), r->alias, g->zero, shift[2]};
        memcpy(o, shift, sizeof(shift)), o += 5;
        memcpy(o, access, sizeof(access)), o += 6;
        chain = access[2];
    }
    if (!g->store) {
        uint32_t load[4] = {(4u << 16) | SpvOpLoad, r->vector_type, g->vector, chain};
        memcpy(o, load, sizeof(load)), o += 4;
        for (uint32_t j = 0; j < 4; j++) {
            uint32_t extract[5] = {(5u << 16) | SpvOpCompositeExtract, r->element, g->values[j], g->vector, j};
            memcpy(o, extract, sizeof(extract)), o += 5;
        }
    } else {
        if (g->from_load >= 0) {
            value = v->groups[g->from_load].vector;
        } else {
            uint32_t construct[7] = {(7u << 16) | SpvOpCompositeConstruct, r->vector_type, new_id(v)};
            memcpy(&construct[3], g->values, sizeof(g->values));
            memcpy(o, construct, sizeof(construct)), o += 7;
            value = construct[2];
        }
        {
            uint32_t store[3] = {(3u << 16) | SpvOpStore, chain, value};
            memcpy(o, store, sizeof(store)), o += 3;
        }
    }
    at = 0;
    for (size_t w = 0, count = 0; w < (size_t)(o - code); w += code[w] >> 16, count++, at++)
        d3d12xs_spirv_insert(v->m, D3D12XS_SPIRV_FUNCTIONS, index + count, &code[w], code[w] >> 16);
    return at;
}

static bool has_alias(uint32_t id, void *context)
{
    const struct vectorize *v = context;
    return id < v->bound && v->raw_of[id] && v->raws[v->raw_of[id] - 1].alias;
}

HRESULT d3d12xs_spirv_pass_vectorize(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_vectorize_args *args,
        char *error, size_t error_size)
{
    struct vectorize v;
    struct d3d12xs_spirv_inst *inst;
    HRESULT hr;

    *args->loads = *args->stores = 0;
    memset(&v, 0, sizeof(v));
    v.m = m;
    v.bound = m->bound;
    if (FAILED(hr = collect(&v)) || FAILED(hr = find_groups(&v)))
        goto done;
    if (v.group_count) {
        if (!v.uint_type)
            v.uint_type = d3d12xs_spirv_type_int(m, 32, 0);
        for (unsigned i = 0; i < v.raw_count; i++)
            if (v.raws[i].merged)
                add_view(&v, &v.raws[i]);
        for (size_t i = 0; i < v.group_count; i++) {
            struct group *g = &v.groups[i];
            g->two_id = uint_constant(&v, 2);
            g->constant_id = g->constant ? uint_constant(&v, g->constant) : 0;
            if (!g->store)
                g->vector = new_id(&v);
        }
        /* SPIR-V 1.4 on: the entry points list the views after their buffers */
        if (m->version >= 0x10400u) {
            for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ENTRY_POINTS, i, inst)) {
                uint32_t n = d3d12xs_spirv_len(inst), first;
                if (d3d12xs_spirv_op(inst) != SpvOpEntryPoint || !d3d12xs_spirv_inst_string(inst, 3, NULL, &first))
                    continue;
                for (uint32_t k = first; k < n; k++)
                    if (has_alias(inst->w[k], &v))
                        d3d12xs_spirv_append_operand(m, inst, v.raws[v.raw_of[inst->w[k]] - 1].alias);
            }
        }
        /* from the last instruction back, so the indices of those before stay true */
        for (size_t i = m->sections[D3D12XS_SPIRV_FUNCTIONS].count; i-- > 0;) {
            int group = v.group_at[i];
            if (!group)
                continue;
            d3d12xs_spirv_remove(m, D3D12XS_SPIRV_FUNCTIONS, i);
            if (group > 0) {
                add_group(&v, &v.groups[group - 1], i);
                *(v.groups[group - 1].store ? args->stores : args->loads) += 1;
            }
        }
    }
    hr = m->out_of_memory ? E_OUTOFMEMORY : S_OK;

done:
    if (FAILED(hr))
        d3d12xs_write_error(hr, error, error_size, "%s", hr == E_OUTOFMEMORY ? "out of memory" : "malformed SPIR-V");
    free(v.root);
    free(v.kind);
    free(v.raw_of);
    free(v.raws);
    free(v.accesses);
    free(v.groups);
    free(v.merged_load);
    free(v.group_at);
    return hr;
}

HRESULT d3d12xs_spirv_vectorize_raw(const uint32_t *words, size_t word_count, uint32_t **out_words, size_t *out_count,
        unsigned *loads, unsigned *stores)
{
    const struct d3d12xs_spirv_vectorize_args args = {loads, stores};
    struct d3d12xs_spirv_module *m;
    HRESULT hr;

    *out_words = NULL;
    *out_count = 0;
    *loads = *stores = 0;
    if (FAILED(hr = d3d12xs_spirv_module_parse(words, word_count * 4, &m, NULL, 0)))
        return hr == E_OUTOFMEMORY ? hr : E_INVALIDARG;
    if (SUCCEEDED(hr = d3d12xs_spirv_pass_vectorize(m, &args, NULL, 0)))
        hr = d3d12xs_spirv_module_emit(m, out_words, out_count);
    d3d12xs_spirv_module_destroy(m);
    if (FAILED(hr))
        *loads = *stores = 0;
    return hr;
}
