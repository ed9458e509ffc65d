/* 16-byte accesses for ByteAddressBuffer Load4 / Store4.
 *
 * glslang lowers a ByteAddressBuffer to a runtime array of uint (ArrayStride 4) and
 * Load4(address) / Store4(address, v) to four scalar OpLoad / OpStore of the words
 * address / 4 + 0..3, interleaved with each other where a Load4 feeds a Store4. A GPU then
 * issues four 4-byte memory operations where the HLSL meant one 16-byte one (NVIDIA: four
 * LDG.32 instead of one LDG.128), which costs bandwidth in memory-bound kernels.
 *
 * This pass, run by D3DCompile after the fix-ups (src/shaders/spirv_fixup.c), finds in each
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
 * aligned (a root constant, id * 4 + 4, ...) keeps its four scalar loads. The view's start is
 * the descriptor's offset, which d3d12xs keeps a multiple of minStorageBufferOffsetAlignment
 * (16 on lavapipe and NVIDIA); Vulkan defines the uvec4 access for any valid offset anyway.
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

#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.h>

#include "shaders/spirv.h"

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
    size_t at;                         /* word offset of the OpLoad / OpStore */
    uint32_t block;                    /* basic block number */
    uint32_t raw, base, constant;      /* raw: index into raws */
    uint32_t value;                    /* load: the result id; store: the stored object */
    uint32_t zero;                     /* the access chain's first index (the block's member 0) */
    bool store;
    int group;                         /* -1, or the group it belongs to */
};

struct group {
    size_t first, last;                /* word offsets of its earliest and latest access */
    uint32_t raw, base, constant, zero;
    uint32_t constant_id, two_id;     /* uint constants: `constant` (when not 0) and 2 */
    uint32_t values[4];
    bool store;
    uint32_t vector;                   /* the 16-byte value's id */
    int from_load;                     /* a store of a merged load's four values in order: that group, else -1 */
};

struct vectorize {
    const uint32_t *w;
    size_t count, functions, annotations_end;
    uint32_t bound, next_id, version;
    uint32_t *def;                     /* id -> word offset of its definition */
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
    int *group_at;                     /* word offset -> group + 1 at its insertion point, -1 where dropped */
    uint32_t *globals, *annotations;   /* new instructions */
    size_t global_count, global_capacity, annotation_count, annotation_capacity;
    uint32_t uint_type;
    bool oom;
};

static uint32_t op_at(const struct vectorize *v, size_t o) { return v->w[o] & 0xffff; }
static uint32_t len_at(const struct vectorize *v, size_t o) { return v->w[o] >> 16; }

static const uint32_t *def_of(const struct vectorize *v, uint32_t id)
{
    return id && id < v->bound && v->def[id] ? &v->w[v->def[id]] : NULL;
}

static bool is_int32_type(const struct vectorize *v, uint32_t id)
{
    const uint32_t *type = def_of(v, id);
    return type && (type[0] & 0xffff) == SpvOpTypeInt && (type[0] >> 16) == 4 && type[2] == 32;
}

/* The value of a 32-bit integer constant. */
static bool constant_of(const struct vectorize *v, uint32_t id, uint32_t *value)
{
    const uint32_t *d = def_of(v, id);
    if (!d || (d[0] & 0xffff) != SpvOpConstant || (d[0] >> 16) != 4 || !is_int32_type(v, d[1]))
        return false;
    *value = d[3];
    return true;
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

static enum access_class classify(const struct vectorize *v, size_t o)
{
    uint32_t op = op_at(v, o), n = len_at(v, o);

    switch (op) {
    case SpvOpLoad:
        return n < 4 || pointer_kind(v, v->w[o + 3]) == KIND_WRITABLE ? ACCESS_READ_WRITABLE : ACCESS_NONE;
    case SpvOpStore:
        return n < 3 || pointer_kind(v, v->w[o + 1]) != KIND_PRIVATE ? ACCESS_WRITE : ACCESS_NONE;
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

static bool defines_result(uint32_t op, uint32_t n, uint32_t *index)
{
    bool has_result, has_type;
    SpvHasResultAndType((SpvOp)op, &has_result, &has_type);
    *index = has_type ? 2 : 1;
    return has_result && n > *index;
}

/* Pass 1: definitions, decorations, the raw buffer variables and every candidate access. */
static HRESULT collect(struct vectorize *v)
{
    uint8_t *nonwritable_var = NULL, *restrict_var = NULL, *buffer_block = NULL;
    uint32_t *nonwritable_members = NULL, *array_stride = NULL;
    uint32_t block_number = 0, index;
    size_t capacity = 0;
    HRESULT hr = E_OUTOFMEMORY;

    if (!(v->def = calloc(v->bound, sizeof(*v->def))) || !(v->root = calloc(v->bound, sizeof(*v->root)))
            || !(v->kind = calloc(v->bound, 1)) || !(v->raw_of = calloc(v->bound, sizeof(*v->raw_of)))
            || !(v->merged_load = calloc(v->bound, sizeof(*v->merged_load))) || !(nonwritable_var = calloc(v->bound, 1))
            || !(restrict_var = calloc(v->bound, 1)) || !(buffer_block = calloc(v->bound, 1))
            || !(nonwritable_members = calloc(v->bound, sizeof(*nonwritable_members)))
            || !(array_stride = calloc(v->bound, sizeof(*array_stride)))
            || !(v->group_at = calloc(v->count, sizeof(*v->group_at))))
        goto done;

    v->functions = v->count;
    for (size_t o = 5; o < v->count; o += len_at(v, o)) {
        uint32_t op = op_at(v, o), n = len_at(v, o);
        if (op == SpvOpFunction && v->functions == v->count)
            v->functions = o;
        if (defines_result(op, n, &index) && v->w[o + index] < v->bound && !v->def[v->w[o + index]])
            v->def[v->w[o + index]] = (uint32_t)o;
        if (o >= v->functions)
            continue;
        if (d3d12xs_spirv_is_annotation(op))
            v->annotations_end = o + n;
        if (op == SpvOpDecorate && n >= 3) {
            uint32_t target = v->w[o + 1] < v->bound ? v->w[o + 1] : 0;
            if (v->w[o + 2] == SpvDecorationNonWritable)
                nonwritable_var[target] = 1;
            else if (v->w[o + 2] == SpvDecorationRestrict)
                restrict_var[target] = 1;
            else if (v->w[o + 2] == SpvDecorationBufferBlock)
                buffer_block[target] = 1;
            else if (v->w[o + 2] == SpvDecorationArrayStride && n >= 4)
                array_stride[target] = v->w[o + 3];
        } else if (op == SpvOpMemberDecorate && n >= 4 && v->w[o + 3] == SpvDecorationNonWritable && v->w[o + 1] < v->bound) {
            nonwritable_members[v->w[o + 1]]++;
        } else if (op == SpvOpTypeInt && n == 4 && v->w[o + 2] == 32 && v->w[o + 3] == 0) {
            v->uint_type = v->w[o + 1];
        }
    }

    /* the storage buffers, and which of them are raw (a block of one runtime array of 32-bit integers, stride 4) */
    for (size_t o = 5; o < v->functions; o += len_at(v, o)) {
        const uint32_t *pointer, *block, *array;
        uint32_t id, storage;
        if (op_at(v, o) != SpvOpVariable || len_at(v, o) < 4 || (id = v->w[o + 2]) >= v->bound)
            continue;
        v->root[id] = id;
        storage = v->w[o + 3];
        if (storage != SpvStorageClassStorageBuffer && storage != SpvStorageClassUniform)
            continue;
        if (!(pointer = def_of(v, v->w[o + 1])) || (pointer[0] & 0xffff) != SpvOpTypePointer || (pointer[0] >> 16) != 4
                || !(block = def_of(v, pointer[3])) || (block[0] & 0xffff) != SpvOpTypeStruct)
            continue;
        if (storage == SpvStorageClassUniform && !buffer_block[pointer[3]])
            continue; /* a cbuffer: never written */
        v->kind[id] = nonwritable_var[id] || nonwritable_members[pointer[3]] >= (block[0] >> 16) - 2
                ? KIND_READ_ONLY : KIND_WRITABLE;
        if ((block[0] >> 16) != 3 || restrict_var[id] || !(array = def_of(v, block[2]))
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
    for (size_t o = v->functions; o < v->count; o += len_at(v, o)) {
        uint32_t op = op_at(v, o), n = len_at(v, o), pointer = 0;
        const uint32_t *chain;
        struct access a;
        int raw;

        if (op == SpvOpLabel)
            block_number++;
        if ((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain || op == SpvOpPtrAccessChain
                || op == SpvOpInBoundsPtrAccessChain || op == SpvOpCopyObject) && n >= 4 && v->w[o + 2] < v->bound
                && v->w[o + 3] < v->bound) {
            v->root[v->w[o + 2]] = v->root[v->w[o + 3]];
            continue;
        }
        if (op == SpvOpVariable && n >= 4 && v->w[o + 2] < v->bound)
            v->root[v->w[o + 2]] = v->w[o + 2];
        /* every reference to a raw buffer outside the access chains */
        for (uint32_t k = 1; k < n; k++)
            if (v->w[o + k] < v->bound && v->root[v->w[o + k]] && (raw = v->raw_of[v->root[v->w[o + k]]]))
                v->raws[raw - 1].references++;
        if (op == SpvOpLoad && n == 4)
            pointer = v->w[o + 3];
        else if (op == SpvOpStore && n == 3)
            pointer = v->w[o + 1];
        if (!pointer || !(chain = def_of(v, pointer)) || ((chain[0] & 0xffff) != SpvOpAccessChain
                && (chain[0] & 0xffff) != SpvOpInBoundsAccessChain) || (chain[0] >> 16) != 6
                || chain[3] >= v->bound || !(raw = v->raw_of[chain[3]]) || !constant_of(v, chain[4], &index) || index)
            continue;
        memset(&a, 0, sizeof(a));
        a.at = o;
        a.block = block_number;
        a.raw = (uint32_t)raw - 1;
        a.store = op == SpvOpStore;
        a.value = v->w[o + 2]; /* the load's result, or the stored object */
        a.zero = chain[4];
        a.group = -1;
        if (!a.store && v->w[o + 1] != v->raws[a.raw].element)
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
    for (size_t o = first; o <= last; o += len_at(v, o)) {
        enum access_class c = classify(v, o);
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

static uint32_t *emit(uint32_t **words, size_t *count, size_t *capacity, bool *oom, uint32_t op, uint32_t length)
{
    uint32_t *at;
    if (*count + length > *capacity) {
        size_t bigger_capacity = *capacity * 2 + length + 64;
        uint32_t *bigger = realloc(*words, bigger_capacity * sizeof(*bigger));
        if (!bigger) {
            *oom = true;
            return NULL;
        }
        *words = bigger;
        *capacity = bigger_capacity;
    }
    at = *words + *count;
    *count += length;
    at[0] = (length << 16) | op;
    return at;
}

#define GLOBAL(op, length) emit(&v->globals, &v->global_count, &v->global_capacity, &v->oom, (op), (length))
#define ANNOTATION(op, length) emit(&v->annotations, &v->annotation_count, &v->annotation_capacity, &v->oom, (op), (length))

/* An existing global instruction of opcode `op` whose words after the result id are `operands`
 * (types: after the opcode word), or a new one. */
static uint32_t find_or_add(struct vectorize *v, uint32_t op, bool has_type, uint32_t type, const uint32_t *operands,
        uint32_t operand_count)
{
    uint32_t length = 1 + (has_type ? 2 : 1) + operand_count, *at;
    const uint32_t *sources[2] = {v->w, v->globals};
    size_t ends[2] = {v->functions, v->global_count};

    for (unsigned s = 0; s < 2; s++) {
        for (size_t o = s ? 0 : 5; o < ends[s]; o += sources[s][o] >> 16) {
            const uint32_t *i = &sources[s][o];
            if ((i[0] & 0xffff) == op && (i[0] >> 16) == length && (!has_type || i[1] == type)
                    && !memcmp(&i[has_type ? 3 : 2], operands, operand_count * sizeof(*operands)))
                return i[has_type ? 2 : 1];
            if (!(i[0] >> 16))
                break;
        }
    }
    if (!(at = GLOBAL(op, length)))
        return 0;
    if (has_type)
        at[1] = type;
    at[has_type ? 2 : 1] = v->next_id;
    memcpy(&at[has_type ? 3 : 2], operands, operand_count * sizeof(*operands));
    return v->next_id++;
}

static uint32_t uint_constant(struct vectorize *v, uint32_t value)
{
    return find_or_add(v, SpvOpConstant, true, v->uint_type, &value, 1);
}

/* The uvec4 view of raw buffer r: types, variable and decorations. */
static void add_view(struct vectorize *v, struct raw_variable *r)
{
    uint32_t operands[2], *at;
    bool aliased = v->kind[r->variable] == KIND_WRITABLE && r->references > r->merged;

    operands[0] = r->element;
    operands[1] = 4;
    uint32_t vector = r->vector_type = find_or_add(v, SpvOpTypeVector, false, 0, operands, 2);
    operands[0] = r->storage;
    operands[1] = vector;
    r->vector_pointer = find_or_add(v, SpvOpTypePointer, false, 0, operands, 2);
    if ((at = GLOBAL(SpvOpTypeRuntimeArray, 3)))
        at[1] = r->alias_array = v->next_id++, at[2] = vector;
    if ((at = GLOBAL(SpvOpTypeStruct, 3)))
        at[1] = r->alias_block = v->next_id++, at[2] = r->alias_array;
    if ((at = GLOBAL(SpvOpTypePointer, 4)))
        at[1] = r->alias_pointer = v->next_id++, at[2] = r->storage, at[3] = r->alias_block;
    if ((at = GLOBAL(SpvOpVariable, 4)))
        at[1] = r->alias_pointer, at[2] = r->alias = v->next_id++, at[3] = r->storage;

    if ((at = ANNOTATION(SpvOpDecorate, 4)))
        at[1] = r->alias_array, at[2] = SpvDecorationArrayStride, at[3] = 16;
    /* the block's and the variable's decorations, member 0's too (Offset 0, NonWritable, ...) */
    for (size_t o = 5; o < v->annotations_end; o += len_at(v, o)) {
        uint32_t op = op_at(v, o), n = len_at(v, o), target = n >= 2 ? v->w[o + 1] : 0;
        if (!((op == SpvOpDecorate && (target == r->block || target == r->variable))
                || (op == SpvOpMemberDecorate && n >= 3 && target == r->block && v->w[o + 2] == 0)))
            continue;
        if (op == SpvOpDecorate && target == r->variable && v->w[o + 2] == SpvDecorationAliased)
            aliased = false; /* there already, and copied */
        if ((at = ANNOTATION(op, n))) {
            memcpy(at + 1, &v->w[o + 1], (n - 1) * sizeof(*at));
            at[1] = target == r->block ? r->alias_block : r->alias;
        }
    }
    if (aliased) {
        if ((at = ANNOTATION(SpvOpDecorate, 3)))
            at[1] = r->alias, at[2] = SpvDecorationAliased;
        if ((at = ANNOTATION(SpvOpDecorate, 3)))
            at[1] = r->variable, at[2] = SpvDecorationAliased;
    }
}

/* The instructions that replace group g at its insertion point. */
static void emit_group(struct vectorize *v, const struct group *g, uint32_t **out, size_t *out_count, size_t *capacity)
{
    const struct raw_variable *r = &v->raws[g->raw];
    uint32_t index = g->base, *at, vector_type = r->vector_type, value;

    if (g->constant && (at = emit(out, out_count, capacity, &v->oom, SpvOpIAdd, 5))) {
        at[1] = v->uint_type, at[2] = v->next_id, at[3] = g->base, at[4] = g->constant_id;
        index = v->next_id++;
    }
    if ((at = emit(out, out_count, capacity, &v->oom, SpvOpShiftRightLogical, 5))) {
        at[1] = v->uint_type, at[2] = v->next_id, at[3] = index, at[4] = g->two_id;
        index = v->next_id++;
    }
    if ((at = emit(out, out_count, capacity, &v->oom, SpvOpAccessChain, 6))) {
        at[1] = r->vector_pointer, at[2] = v->next_id, at[3] = r->alias, at[4] = g->zero, at[5] = index;
        index = v->next_id++;
    }
    if (!g->store) {
        if ((at = emit(out, out_count, capacity, &v->oom, SpvOpLoad, 4)))
            at[1] = vector_type, at[2] = g->vector, at[3] = index;
        for (uint32_t j = 0; j < 4; j++)
            if ((at = emit(out, out_count, capacity, &v->oom, SpvOpCompositeExtract, 5)))
                at[1] = r->element, at[2] = g->values[j], at[3] = g->vector, at[4] = j;
        return;
    }
    if (g->from_load >= 0) {
        value = v->groups[g->from_load].vector;
    } else {
        if ((at = emit(out, out_count, capacity, &v->oom, SpvOpCompositeConstruct, 7))) {
            at[1] = vector_type, at[2] = v->next_id;
            memcpy(&at[3], g->values, sizeof(g->values));
        }
        value = v->next_id++;
    }
    if ((at = emit(out, out_count, capacity, &v->oom, SpvOpStore, 3)))
        at[1] = index, at[2] = value;
}

HRESULT d3d12xs_spirv_vectorize_raw(const uint32_t *words, size_t word_count, uint32_t **out_words, size_t *out_count,
        unsigned *loads, unsigned *stores)
{
    struct vectorize v;
    uint32_t *out = NULL;
    size_t count = 0, capacity = 0;
    HRESULT hr;

    *out_words = NULL;
    *out_count = 0;
    *loads = *stores = 0;
    if (word_count < 5)
        return E_INVALIDARG;
    memset(&v, 0, sizeof(v));
    v.w = words;
    v.count = word_count;
    v.bound = v.next_id = words[3];
    v.version = words[1];
    for (size_t o = 5; o < word_count; o += words[o] >> 16)
        if (!(words[o] >> 16) || o + (words[o] >> 16) > word_count)
            return E_INVALIDARG;

    if (FAILED(hr = collect(&v)) || FAILED(hr = find_groups(&v)))
        goto done;
    if (v.group_count) {
        if (!v.uint_type) {
            uint32_t operands[2] = {32, 0};
            v.uint_type = find_or_add(&v, SpvOpTypeInt, false, 0, operands, 2);
        }
        for (unsigned i = 0; i < v.raw_count; i++)
            if (v.raws[i].merged)
                add_view(&v, &v.raws[i]);
        for (size_t i = 0; i < v.group_count; i++) {
            struct group *g = &v.groups[i];
            g->two_id = uint_constant(&v, 2);
            g->constant_id = g->constant ? uint_constant(&v, g->constant) : 0;
            if (!g->store)
                g->vector = v.next_id++;
        }
    }
    /* header, the globals up to the end of the annotations (entry points list the views from
     * SPIR-V 1.4 on), new annotations, the other globals, new globals, the functions */
    for (size_t o = 0; o < word_count && !v.oom;) {
        uint32_t op = o < 5 ? 0 : words[o] & 0xffff, n = o < 5 ? 5 : words[o] >> 16, *at;
        int group = o < 5 ? 0 : v.group_at[o];
        if (o == v.annotations_end && v.annotation_count
                && (at = emit(&out, &count, &capacity, &v.oom, 0, (uint32_t)v.annotation_count)))
            memcpy(at, v.annotations, v.annotation_count * sizeof(*at));
        if (o == v.functions && v.global_count && (at = emit(&out, &count, &capacity, &v.oom, 0, (uint32_t)v.global_count)))
            memcpy(at, v.globals, v.global_count * sizeof(*at));
        if (group > 0) {
            emit_group(&v, &v.groups[group - 1], &out, &count, &capacity);
            *(v.groups[group - 1].store ? stores : loads) += 1;
        } else if (!group) {
            uint32_t extra = 0;
            size_t first_interface = o + n;
            if (op == SpvOpEntryPoint && v.version >= 0x10400u
                    && d3d12xs_spirv_string(words, o + 3, o + n, NULL, &first_interface))
                for (size_t k = first_interface; k < o + n; k++)
                    extra += words[k] < v.bound && v.raw_of[words[k]] && v.raws[v.raw_of[words[k]] - 1].alias;
            if ((at = emit(&out, &count, &capacity, &v.oom, 0, n + extra))) {
                uint32_t *tail = at + n;
                memcpy(at, &words[o], n * sizeof(*at));
                at[0] += extra << 16;
                for (size_t k = first_interface; extra && k < o + n; k++)
                    if (words[k] < v.bound && v.raw_of[words[k]] && v.raws[v.raw_of[words[k]] - 1].alias)
                        *tail++ = v.raws[v.raw_of[words[k]] - 1].alias;
            }
        }
        o += n;
    }
    hr = v.oom ? E_OUTOFMEMORY : S_OK;
    if (SUCCEEDED(hr)) {
        out[3] = v.next_id;
        *out_words = out;
        *out_count = count;
        out = NULL;
    }

done:
    free(out);
    free(v.def);
    free(v.root);
    free(v.kind);
    free(v.raw_of);
    free(v.raws);
    free(v.accesses);
    free(v.groups);
    free(v.merged_load);
    free(v.group_at);
    free(v.globals);
    free(v.annotations);
    return hr;
}
