/* SPIR-V for root descriptors of the memory-based ABI (root signatures with
 * FORCE_MEMORY_BASED_ABI / RAYTRACING): each root CBV, SRV or UAV variable goes; the functions
 * that use it load its address from the root argument buffer and reach its memory through a
 * PhysicalStorageBuffer pointer instead.
 *
 * The root argument buffer (a uniform buffer at set/binding, written per dispatch by
 * command_list_arguments.c) holds at table_offset one 16-byte entry per root descriptor:
 * address low, address high, bytes from the address to the end of its buffer, 0. The rewrite
 * adds a variable for that table (it aliases the binding of the root constants' block, whose
 * members end before table_offset):
 *
 *   %table = OpVariable %ptr_Uniform_struct{uvec4[count]} Uniform
 *
 * and at the start of each function using root variable %v of slot k:
 *
 *   %e = OpAccessChain %ptr_Uniform_uvec4 %table %c0 %ck    %entry = OpLoad %uvec4 %e
 *   %lo, %hi, %size = OpCompositeExtract %entry 0, 1, 2
 *   %p = OpConvertUToPtr %ptr_PSB_S (hi << 32 | lo)
 *
 * Access chains on %v (and on those chains) then start from %p and get PhysicalStorageBuffer
 * result types; loads and stores through them get an Aligned operand (the smallest scalar
 * size in the accessed type, at most 4: scalar layout puts 64-bit members on 4-byte offsets);
 * OpArrayLength %v m becomes (size - offset of member m) / its array stride. Atomics need
 * nothing more. Any other use of a root variable or of a chain made from it (a pointer
 * passed to a function, copied or selected) is refused: glslang's HLSL output has none. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "shaders/spirv.h"
#include "shaders/spirv_psb.h"

#define MAX_ROOT_POINTERS 64

struct root_rewrite {
    const uint32_t *w;
    size_t count;
    uint32_t bound, next_id;
    uint32_t *def;        /* type id -> word offset of its OpType* instruction */
    uint8_t *slot;        /* id -> slot + 1 of a root variable, 0 otherwise */
    uint32_t *pointee;    /* id -> the pointee type of a root variable or of a chain made from one */
    uint32_t *psb;        /* type id -> the PhysicalStorageBuffer pointer type to it (existing or new) */
    uint32_t *uniform_ptr; /* type id -> an existing Uniform pointer type to it */
    uint32_t *new_psb;    /* pointee types of the PSB pointer types to add */
    size_t new_psb_count;
    uint64_t *uses;       /* per function: bit per slot it uses directly */
    size_t function_count;
    uint32_t *lengths;    /* per OpArrayLength: member offset, array stride, offset constant, stride constant */
    size_t length_count;
    const uint32_t *variables; /* slot -> root variable */
    struct d3d12xs_spirv_writer out;
    char *error;
    size_t error_size;
};

static bool is_atomic_on_pointer_at_3(uint32_t op)
{
    return (op >= SpvOpAtomicLoad && op <= SpvOpAtomicXor && op != SpvOpAtomicStore) || op == SpvOpAtomicFlagTestAndSet;
}

/* The first operand of op that may be a pointer other than the ones the rewrite handles (see
 * scan), UINT32_MAX when op takes none: its other operands may be literals that look like ids. */
static uint32_t first_pointer_operand(uint32_t op)
{
    switch (op) {
    case SpvOpCopyMemory: case SpvOpCopyMemorySized: case SpvOpReturnValue:
        return 1;
    case SpvOpPhi:
        return 3;
    case SpvOpCopyObject: case SpvOpBitcast: case SpvOpConvertPtrToU: case SpvOpFunctionCall: case SpvOpSelect:
    case SpvOpPtrEqual: case SpvOpPtrNotEqual: case SpvOpPtrDiff: case SpvOpCopyLogical:
        return 3;
    case SpvOpExtInst: /* modf, frexp and the like take pointers after the set and the instruction number */
        return 5;
    default:
        return UINT32_MAX;
    }
}

static uint32_t type_def(const struct root_rewrite *r, uint32_t id)
{
    return id < r->bound ? r->def[id] : 0;
}

/* The alignment a PhysicalStorageBuffer access of type id can claim (see the file comment). */
static uint32_t alignment_of(const struct root_rewrite *r, uint32_t id, unsigned depth)
{
    uint32_t o = type_def(r, id), op, n, best = 4;
    if (!o || depth > 16)
        return 1;
    op = r->w[o] & 0xffff;
    n = r->w[o] >> 16;
    switch (op) {
    case SpvOpTypeInt:
    case SpvOpTypeFloat:
        return r->w[o + 2] >= 32 ? 4 : r->w[o + 2] / 8;
    case SpvOpTypeVector:
    case SpvOpTypeMatrix:
    case SpvOpTypeArray:
    case SpvOpTypeRuntimeArray:
        return alignment_of(r, r->w[o + 2], depth + 1);
    case SpvOpTypeStruct:
        for (uint32_t k = 2; k < n; k++) {
            uint32_t a = alignment_of(r, r->w[o + k], depth + 1);
            if (a < best)
                best = a;
        }
        return best;
    default:
        return 1;
    }
}

/* The literal of decoration `decoration` on target (member `member`, or the target itself when
 * member is UINT32_MAX) in the annotations before word end; false when there is none. */
static bool find_decoration(const struct root_rewrite *r, size_t end, uint32_t target, uint32_t member, uint32_t decoration,
        uint32_t *value)
{
    for (size_t o = 5; o < end; o += r->w[o] >> 16) {
        uint32_t op = r->w[o] & 0xffff, n = r->w[o] >> 16;
        if (member == UINT32_MAX && op == SpvOpDecorate && n == 4 && r->w[o + 1] == target && r->w[o + 2] == decoration) {
            *value = r->w[o + 3];
            return true;
        }
        if (member != UINT32_MAX && op == SpvOpMemberDecorate && n == 5 && r->w[o + 1] == target && r->w[o + 2] == member
                && r->w[o + 3] == decoration) {
            *value = r->w[o + 4];
            return true;
        }
    }
    return false;
}

static HRESULT fail(struct root_rewrite *r, const char *format, ...) __attribute__((format(printf, 2, 3)));

static HRESULT fail(struct root_rewrite *r, const char *format, ...)
{
    char text[256];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof(text), format, args);
    va_end(args);
    return d3d12xs_spirv_error(E_INVALIDARG, r->error, r->error_size, "%s", text);
}

static bool mark_pointer(struct root_rewrite *r, uint32_t result, uint32_t pointer_type)
{
    uint32_t o = type_def(r, pointer_type), pointee;
    if (!o || (r->w[o] & 0xffff) != SpvOpTypePointer || result >= r->bound)
        return false;
    pointee = r->w[o + 3];
    r->pointee[result] = pointee;
    if (pointee < r->bound && !r->psb[pointee]) {
        r->psb[pointee] = r->next_id++;
        r->new_psb[r->new_psb_count++] = pointee;
    }
    return true;
}

/* Pass 1: the types, the root variables' pointee types, every use of them, and the ids to add. */
static HRESULT scan(struct root_rewrite *r, size_t *first_function)
{
    size_t function = 0;
    bool in_function = false;

    for (size_t o = 5; o < r->count; o += r->w[o] >> 16) {
        const uint32_t *in = &r->w[o];
        uint32_t op = in[0] & 0xffff, n = in[0] >> 16;
        if (!n || o + n > r->count)
            return fail(r, "instruction at word %zu runs past the module", o);
        if (op == SpvOpFunction) {
            if (!in_function)
                *first_function = o;
            in_function = true;
            function = r->function_count++;
            continue;
        }
        if (!in_function) {
            if (op >= SpvOpTypeVoid && op <= SpvOpTypeForwardPointer && n >= 2 && in[1] < r->bound)
                r->def[in[1]] = (uint32_t)o;
            if (op == SpvOpTypePointer && n == 4 && in[3] < r->bound) {
                if (in[2] == SpvStorageClassPhysicalStorageBuffer)
                    r->psb[in[3]] = in[1];
                else if (in[2] == SpvStorageClassUniform)
                    r->uniform_ptr[in[3]] = in[1];
            }
            if (op == SpvOpVariable && n >= 4 && in[2] < r->bound && r->slot[in[2]]) {
                if (in[3] != SpvStorageClassUniform && in[3] != SpvStorageClassStorageBuffer)
                    return fail(r, "root descriptor variable %u has storage class %u", in[2], in[3]);
                if (!mark_pointer(r, in[2], in[1]))
                    return fail(r, "root descriptor variable %u has no pointer type (%u)", in[2], in[1]);
            }
            if (op == SpvOpMemoryModel && n == 3 && in[1] != SpvAddressingModelLogical
                    && in[1] != SpvAddressingModelPhysicalStorageBuffer64)
                return fail(r, "the module's addressing model is %u (Logical expected)", in[1]);
            continue;
        }
        if (op == SpvOpLine || op == SpvOpNoLine)
            continue;
        if ((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain || op == SpvOpPtrAccessChain) && n >= 4
                && in[3] < r->bound && r->pointee[in[3]]) {
            if (r->slot[in[3]])
                r->uses[function] |= 1ull << (r->slot[in[3]] - 1);
            if (!mark_pointer(r, in[2], in[1]))
                return fail(r, "access chain %u has no pointer type (%u)", in[2], in[1]);
            for (uint32_t k = 4; k < n; k++)
                if (in[k] < r->bound && r->pointee[in[k]])
                    return fail(r, "access chain %u indexes with root descriptor pointer %u", in[2], in[k]);
            continue;
        }
        if (op == SpvOpArrayLength && n == 5 && in[3] < r->bound && r->pointee[in[3]]) {
            uint32_t s = r->pointee[in[3]], so = type_def(r, s), member_type, *length;
            if (!r->slot[in[3]] || !so || (r->w[so] & 0xffff) != SpvOpTypeStruct || 2 + in[4] >= (r->w[so] >> 16))
                return fail(r, "OpArrayLength %u of root descriptor pointer %u is not of a buffer variable", in[2], in[3]);
            r->uses[function] |= 1ull << (r->slot[in[3]] - 1);
            member_type = r->w[so + 2 + in[4]];
            if (!(r->length_count % 16)) {
                uint32_t *bigger = realloc(r->lengths, (r->length_count + 16) * 4 * sizeof(*bigger));
                if (!bigger)
                    return E_OUTOFMEMORY;
                r->lengths = bigger;
            }
            length = &r->lengths[r->length_count++ * 4];
            if (!find_decoration(r, *first_function, s, in[4], SpvDecorationOffset, &length[0])
                    || !find_decoration(r, *first_function, member_type, UINT32_MAX, SpvDecorationArrayStride, &length[1]) || !length[1])
                return fail(r, "OpArrayLength %u: member %u of the buffer has no offset or array stride", in[2], in[4]);
            length[2] = r->next_id++;
            length[3] = r->next_id++;
            continue;
        }
        if ((op == SpvOpLoad && n >= 4) || (is_atomic_on_pointer_at_3(op) && n >= 4)) {
            if (in[3] < r->bound && r->slot[in[3]])
                r->uses[function] |= 1ull << (r->slot[in[3]] - 1);
        } else if ((op == SpvOpStore || op == SpvOpAtomicStore) && n >= 3) {
            if (in[1] < r->bound && r->slot[in[1]])
                r->uses[function] |= 1ull << (r->slot[in[1]] - 1);
            if (op == SpvOpStore && in[2] < r->bound && r->pointee[in[2]])
                return fail(r, "root descriptor pointer %u is stored as a value", in[2]);
        } else {
            for (uint32_t k = first_pointer_operand(op); k < n; k++)
                if (in[k] < r->bound && r->pointee[in[k]])
                    return fail(r, "root descriptor pointer %u is used by instruction %u, which the memory-based ABI's rewrite "
                            "does not handle", in[k], op);
        }
    }
    if (!in_function)
        return fail(r, "the module has no function");
    return S_OK;
}

struct globals {
    uint32_t u32, u64, uvec4, c32, array, block, block_ptr, entry_ptr, table;
    uint32_t index[MAX_ROOT_POINTERS]; /* u32 constants 0 .. count - 1 */
};

static void emit_prologue(struct root_rewrite *r, const struct globals *g, uint64_t uses, uint32_t *pointers, uint32_t *sizes)
{
    for (uint32_t k = 0; uses >> k; k++) {
        uint32_t e, v, lo, hi, a, b, c, d;
        if (!(uses >> k & 1))
            continue;
        e = r->next_id++, v = r->next_id++, lo = r->next_id++, hi = r->next_id++;
        a = r->next_id++, b = r->next_id++, c = r->next_id++, d = r->next_id++;
        pointers[k] = r->next_id++;
        sizes[k] = r->next_id++;
        uint32_t code[] = {
            (6u << 16) | SpvOpAccessChain, g->entry_ptr, e, g->table, g->index[0], g->index[k],
            (4u << 16) | SpvOpLoad, g->uvec4, v, e,
            (5u << 16) | SpvOpCompositeExtract, g->u32, lo, v, 0,
            (5u << 16) | SpvOpCompositeExtract, g->u32, hi, v, 1,
            (5u << 16) | SpvOpCompositeExtract, g->u32, sizes[k], v, 2,
            (4u << 16) | SpvOpUConvert, g->u64, a, lo,
            (4u << 16) | SpvOpUConvert, g->u64, b, hi,
            (5u << 16) | SpvOpShiftLeftLogical, g->u64, c, b, g->c32,
            (5u << 16) | SpvOpBitwiseOr, g->u64, d, c, a,
            (4u << 16) | SpvOpConvertUToPtr, r->psb[r->pointee[r->variables[k]]], pointers[k], d,
        };
        d3d12xs_spirv_emit(&r->out, code, sizeof(code) / 4);
    }
}

/* The ids of the table's types, constants and variable: existing types where the module has
 * them (SPIR-V forbids duplicate scalar, vector and pointer types), new ids otherwise. */
static void find_globals(struct root_rewrite *r, struct globals *g)
{
    memset(g, 0, sizeof(*g));
    for (size_t o = 5; o < r->count; o += r->w[o] >> 16) {
        const uint32_t *in = &r->w[o];
        uint32_t op = in[0] & 0xffff, n = in[0] >> 16;
        if (op == SpvOpFunction)
            break;
        if (op == SpvOpTypeInt && n == 4 && !in[3] && in[2] == 32)
            g->u32 = in[1];
        else if (op == SpvOpTypeInt && n == 4 && !in[3] && in[2] == 64)
            g->u64 = in[1];
    }
    if (g->u32) {
        for (size_t o = 5; o < r->count; o += r->w[o] >> 16) {
            const uint32_t *in = &r->w[o];
            uint32_t op = in[0] & 0xffff, n = in[0] >> 16;
            if (op == SpvOpFunction)
                break;
            if (op == SpvOpTypeVector && n == 4 && in[2] == g->u32 && in[3] == 4)
                g->uvec4 = in[1];
        }
    }
    if (g->uvec4)
        g->entry_ptr = r->uniform_ptr[g->uvec4];
}

/* Emits what find_globals did not find, the table's types, constants and variable, and the
 * PhysicalStorageBuffer pointer types (before the first function). */
static void emit_globals(struct root_rewrite *r, const struct globals *g, uint32_t count, const bool new_flags[4])
{
    uint32_t words[8];

    if (new_flags[0]) {
        uint32_t t[] = {(4u << 16) | SpvOpTypeInt, g->u32, 32, 0};
        d3d12xs_spirv_emit(&r->out, t, 4);
    }
    if (new_flags[1]) {
        uint32_t t[] = {(4u << 16) | SpvOpTypeInt, g->u64, 64, 0};
        d3d12xs_spirv_emit(&r->out, t, 4);
    }
    if (new_flags[2]) {
        uint32_t t[] = {(4u << 16) | SpvOpTypeVector, g->uvec4, g->u32, 4};
        d3d12xs_spirv_emit(&r->out, t, 4);
    }
    for (uint32_t k = 0; k < count; k++) {
        uint32_t c[] = {(4u << 16) | SpvOpConstant, g->u32, g->index[k], k};
        d3d12xs_spirv_emit(&r->out, c, 4);
    }
    {
        uint32_t c[] = {(4u << 16) | SpvOpConstant, g->u32, g->index[MAX_ROOT_POINTERS - 1], count,
                (5u << 16) | SpvOpConstant, g->u64, g->c32, 32, 0,
                (4u << 16) | SpvOpTypeArray, g->array, g->uvec4, g->index[MAX_ROOT_POINTERS - 1],
                (3u << 16) | SpvOpTypeStruct, g->block, g->array,
                (4u << 16) | SpvOpTypePointer, g->block_ptr, SpvStorageClassUniform, g->block};
        d3d12xs_spirv_emit(&r->out, c, sizeof(c) / 4);
    }
    if (new_flags[3]) {
        uint32_t t[] = {(4u << 16) | SpvOpTypePointer, g->entry_ptr, SpvStorageClassUniform, g->uvec4};
        d3d12xs_spirv_emit(&r->out, t, 4);
    }
    words[0] = (4u << 16) | SpvOpVariable, words[1] = g->block_ptr, words[2] = g->table, words[3] = SpvStorageClassUniform;
    d3d12xs_spirv_emit(&r->out, words, 4);
    for (size_t i = 0; i < r->new_psb_count; i++) {
        uint32_t t[] = {(4u << 16) | SpvOpTypePointer, r->psb[r->new_psb[i]], SpvStorageClassPhysicalStorageBuffer, r->new_psb[i]};
        d3d12xs_spirv_emit(&r->out, t, 4);
    }
    for (size_t i = 0; i < r->length_count; i++) {
        uint32_t c[] = {(4u << 16) | SpvOpConstant, g->u32, r->lengths[i * 4 + 2], r->lengths[i * 4],
                (4u << 16) | SpvOpConstant, g->u32, r->lengths[i * 4 + 3], r->lengths[i * 4 + 1]};
        d3d12xs_spirv_emit(&r->out, c, 8);
    }
}

static void emit_entry_point(struct root_rewrite *r, const uint32_t *in, uint32_t n, size_t o, uint32_t table)
{
    uint32_t copy_small[64], *copy = n < 64 ? copy_small : malloc((n + 1) * 4), m = 0;
    size_t next;

    if (!copy) {
        r->out.out_of_memory = true;
        return;
    }
    memcpy(copy, in, n * 4);
    if (d3d12xs_spirv_string(r->w, o + 3, o + n, NULL, &next)) {
        m = (uint32_t)(next - o);
        for (uint32_t k = m; k < n; k++)
            if (in[k] >= r->bound || !r->slot[in[k]])
                copy[m++] = in[k];
        /* SPIR-V 1.4 and later list every global variable an entry point uses */
        if (r->w[1] >= 0x10400)
            copy[m++] = table;
        copy[0] = (m << 16) | SpvOpEntryPoint;
    } else {
        m = n;
    }
    d3d12xs_spirv_emit(&r->out, copy, m);
    if (copy != copy_small)
        free(copy);
}

/* Pass 2. */
static void rewrite(struct root_rewrite *r, const struct globals *g, uint32_t count, uint32_t set, uint32_t binding, uint32_t table_offset,
        const bool new_flags[4])
{
    struct d3d12xs_psb_preamble preamble;
    uint32_t pointers[MAX_ROOT_POINTERS] = {0}, sizes[MAX_ROOT_POINTERS] = {0};
    bool decorations_done = false, globals_done = false, in_function = false, prologue_pending = false;
    size_t function = 0, length = 0;

    memset(&preamble, 0, sizeof(preamble));
    for (size_t o = 5; o < r->count && (r->w[o] & 0xffff) != SpvOpFunction; o += r->w[o] >> 16)
        d3d12xs_psb_preamble_scan(&preamble, r->w, o);
    d3d12xs_spirv_emit(&r->out, r->w, 5);
    for (size_t o = 5; o < r->count; o += r->w[o] >> 16) {
        const uint32_t *in = &r->w[o];
        uint32_t op = in[0] & 0xffff, n = in[0] >> 16;

        if (!decorations_done && !d3d12xs_spirv_is_preamble_or_debug(op) && !d3d12xs_spirv_is_annotation(op)) {
            uint32_t d[] = {
                (4u << 16) | SpvOpDecorate, g->array, SpvDecorationArrayStride, 16,
                (5u << 16) | SpvOpMemberDecorate, g->block, 0, SpvDecorationOffset, table_offset,
                (3u << 16) | SpvOpDecorate, g->block, SpvDecorationBlock,
                (4u << 16) | SpvOpDecorate, g->table, SpvDecorationDescriptorSet, set,
                (4u << 16) | SpvOpDecorate, g->table, SpvDecorationBinding, binding,
            };
            d3d12xs_spirv_emit(&r->out, d, sizeof(d) / 4);
            decorations_done = true;
        }
        if (op == SpvOpFunction) {
            if (!globals_done)
                emit_globals(r, g, count, new_flags);
            globals_done = in_function = true;
            memset(pointers, 0, sizeof(pointers));
            prologue_pending = false;
            d3d12xs_spirv_emit(&r->out, in, n);
            function++;
            continue;
        }
        if (in_function && op == SpvOpLabel && r->uses[function - 1] && !pointers[__builtin_ctzll(r->uses[function - 1])]) {
            d3d12xs_spirv_emit(&r->out, in, n);
            prologue_pending = true;
            continue;
        }
        if (prologue_pending && op != SpvOpVariable && op != SpvOpLine && op != SpvOpNoLine) {
            emit_prologue(r, g, r->uses[function - 1], pointers, sizes);
            prologue_pending = false;
        }
        switch (op) {
        case SpvOpMemoryModel:
            d3d12xs_psb_emit_memory_model(&r->out, in, n);
            break;
        case SpvOpEntryPoint:
            emit_entry_point(r, in, n, o, g->table);
            break;
        case SpvOpName:
        case SpvOpDecorate:
        case SpvOpDecorateId:
        case SpvOpDecorateString:
            if (!(n >= 2 && in[1] < r->bound && r->slot[in[1]]))
                d3d12xs_spirv_emit(&r->out, in, n);
            break;
        case SpvOpVariable:
            if (!(n >= 3 && in[2] < r->bound && r->slot[in[2]]))
                d3d12xs_spirv_emit(&r->out, in, n);
            break;
        case SpvOpAccessChain:
        case SpvOpInBoundsAccessChain:
        case SpvOpPtrAccessChain:
            if (in_function && n >= 4 && in[3] < r->bound && r->pointee[in[3]] && n <= 64) {
                uint32_t copy[64];
                memcpy(copy, in, n * 4);
                copy[1] = r->psb[r->pointee[in[2]]];
                if (r->slot[in[3]])
                    copy[3] = pointers[r->slot[in[3]] - 1];
                d3d12xs_spirv_emit(&r->out, copy, n);
            } else {
                d3d12xs_spirv_emit(&r->out, in, n);
            }
            break;
        case SpvOpLoad:
            if (in_function && n >= 4 && n <= 14 && in[3] < r->bound && r->pointee[in[3]]) {
                uint32_t copy[14];
                memcpy(copy, in, n * 4);
                if (r->slot[in[3]])
                    copy[3] = pointers[r->slot[in[3]] - 1];
                d3d12xs_spirv_emit_aligned(&r->out, copy, n, 4, alignment_of(r, in[1], 0));
            } else {
                d3d12xs_spirv_emit(&r->out, in, n);
            }
            break;
        case SpvOpStore:
            if (in_function && n >= 3 && n <= 14 && in[1] < r->bound && r->pointee[in[1]]) {
                uint32_t copy[14];
                memcpy(copy, in, n * 4);
                if (r->slot[in[1]])
                    copy[1] = pointers[r->slot[in[1]] - 1];
                d3d12xs_spirv_emit_aligned(&r->out, copy, n, 3, alignment_of(r, r->pointee[in[1]], 0));
            } else {
                d3d12xs_spirv_emit(&r->out, in, n);
            }
            break;
        case SpvOpArrayLength:
            if (in_function && n == 5 && in[3] < r->bound && r->slot[in[3]]) {
                const uint32_t *l = &r->lengths[length++ * 4];
                uint32_t t = r->next_id++;
                uint32_t code[] = {
                    (5u << 16) | SpvOpISub, in[1], t, sizes[r->slot[in[3]] - 1], l[2],
                    (5u << 16) | SpvOpUDiv, in[1], in[2], t, l[3],
                };
                d3d12xs_spirv_emit(&r->out, code, 10);
            } else {
                d3d12xs_spirv_emit(&r->out, in, n);
            }
            break;
        default:
            if (in_function && (is_atomic_on_pointer_at_3(op) || op == SpvOpAtomicStore)) {
                uint32_t at = op == SpvOpAtomicStore ? 1 : 3, copy[16];
                if (n > at && n <= 16 && in[at] < r->bound && r->slot[in[at]]) {
                    memcpy(copy, in, n * 4);
                    copy[at] = pointers[r->slot[in[at]] - 1];
                    d3d12xs_spirv_emit(&r->out, copy, n);
                    break;
                }
            }
            d3d12xs_spirv_emit(&r->out, in, n);
            break;
        }
        if (!in_function)
            d3d12xs_psb_preamble_emit_after(&r->out, &preamble, o);
    }
}

HRESULT d3d12xs_spirv_root_pointers(uint32_t **words, size_t *word_count, const uint32_t *variables, uint32_t count, uint32_t set,
        uint32_t binding, uint32_t table_offset, char *error, size_t error_size)
{
    struct root_rewrite r;
    struct globals g;
    bool new_flags[4];
    size_t first_function = 0;
    HRESULT hr;

    memset(&r, 0, sizeof(r));
    r.w = *words;
    r.count = *word_count;
    r.error = error;
    r.error_size = error_size;
    r.variables = variables;
    if (!count)
        return S_OK;
    if (r.count < 5 || count > MAX_ROOT_POINTERS - 1 || table_offset % 16)
        return d3d12xs_spirv_error(E_INVALIDARG, error, error_size, "the module or the root descriptor table is invalid");
    r.bound = r.next_id = r.w[3];
    if (!(r.def = calloc(r.bound, sizeof(*r.def))) || !(r.slot = calloc(r.bound, 1)) || !(r.pointee = calloc(r.bound, sizeof(*r.pointee)))
            || !(r.psb = calloc(r.bound, sizeof(*r.psb))) || !(r.uniform_ptr = calloc(r.bound, sizeof(*r.uniform_ptr)))
            || !(r.new_psb = calloc(r.bound, sizeof(*r.new_psb))) || !(r.uses = calloc(r.count, sizeof(*r.uses)))) {
        hr = E_OUTOFMEMORY;
        goto done;
    }
    for (uint32_t k = 0; k < count; k++) {
        if (variables[k] >= r.bound || r.slot[variables[k]]) {
            hr = d3d12xs_spirv_error(E_INVALIDARG, error, error_size, "root descriptor variable %u is invalid", variables[k]);
            goto done;
        }
        r.slot[variables[k]] = (uint8_t)(k + 1);
    }
    if (FAILED(hr = scan(&r, &first_function)))
        goto done;
    for (uint32_t k = 0; k < count; k++)
        if (!r.pointee[variables[k]]) {
            hr = d3d12xs_spirv_error(E_INVALIDARG, error, error_size, "root descriptor variable %u is not declared", variables[k]);
            goto done;
        }
    find_globals(&r, &g);
    new_flags[0] = !g.u32;
    new_flags[1] = !g.u64;
    new_flags[2] = !g.uvec4;
    new_flags[3] = !g.entry_ptr;
    if (new_flags[0])
        g.u32 = r.next_id++;
    if (new_flags[1])
        g.u64 = r.next_id++;
    if (new_flags[2])
        g.uvec4 = r.next_id++;
    if (new_flags[3])
        g.entry_ptr = r.next_id++;
    for (uint32_t k = 0; k < count; k++)
        g.index[k] = r.next_id++;
    g.index[MAX_ROOT_POINTERS - 1] = r.next_id++; /* the table's length */
    g.c32 = r.next_id++;
    g.array = r.next_id++;
    g.block = r.next_id++;
    g.block_ptr = r.next_id++;
    g.table = r.next_id++;

    rewrite(&r, &g, count, set, binding, table_offset, new_flags);
    if (r.out.out_of_memory) {
        hr = E_OUTOFMEMORY;
        goto done;
    }
    r.out.out[3] = r.next_id;
    free(*words);
    *words = r.out.out;
    *word_count = r.out.count;
    r.out.out = NULL;
    hr = S_OK;

done:
    free(r.out.out);
    free(r.def);
    free(r.slot);
    free(r.pointee);
    free(r.psb);
    free(r.uniform_ptr);
    free(r.new_psb);
    free(r.uses);
    free(r.lengths);
    return hr;
}
