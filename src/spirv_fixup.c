/* Fix-ups of the SPIR-V that glslang's HLSL front end produces (through shaderc), where
 * its translation disagrees with what the HLSL source means under Direct3D 12 (the
 * contract). D3DCompile runs them on shaderc's output, before its own post-processing
 * (counter bindings, the wave32 marker) and before the blob is made. SPIR-V handed to the
 * API directly is never touched: it means what SPIR-V says.
 *
 *  1. Wave prefix operations are exclusive scans. WavePrefixSum, WavePrefixProduct and
 *     WavePrefixCountBits combine the lanes *before* the current one (lane 0 gets the
 *     identity: 0 for sums and counts, 1 for products). glslang emits WavePrefixSum and
 *     WavePrefixProduct as GroupOperation InclusiveScan (WavePrefixCountBits already as
 *     ExclusiveScan). HLSL has no intrinsic with an inclusive scan, so every InclusiveScan
 *     in HLSL-derived SPIR-V comes from a WavePrefix* and becomes ExclusiveScan.
 *  2. fmod(x, y) and float x % y take the sign of the dividend x (HLSL defines fmod as
 *     x - y * trunc(x / y), like C): that is OpFRem; glslang emits OpFMod, whose result
 *     has the sign of y.
 *  3. Signed integer x % y truncates, as in C (-7 % 2 == -1, 7 % -2 == 1): the magnitude is
 *     |x| mod |y| and the sign that of x. glslang emits OpSMod (sign of the divisor). OpSRem
 *     would be the SPIR-V meaning, but Vulkan's SPIR-V environment leaves OpSRem and OpSMod
 *     undefined when either operand is negative (NVIDIA's driver then computes an unsigned
 *     remainder: -7 % 2 == 1, 7 % -2 == 7), so the instruction is replaced by
 *         ca = a < 0;  cb = b < 0;  ua = ca ? -a : a;  ub = cb ? -b : b  (as unsigned)
 *         m = ua umod ub;  result = ca ? -m : m
 *     which only uses OpUMod on unsigned values (-INT_MIN wraps to 0x80000000, its right
 *     magnitude). The unsigned integer / bool types (and vectors of them) and the zero
 *     constant this needs are reused when the module has them, else added before the first
 *     function. Unsigned % (OpUMod) is already right.
 *
 * Fixes 1 and 2 rewrite one word in place; fix 3 grows the module (new ids past the old
 * bound). Limits: these fix the instructions that reach the module. glslang's front end
 * folds constant expressions before SPIR-V exists, with the same wrong rules
 * (fmod(-2.25, 1.5) with literal operands becomes the constant 0.75), and that cannot be
 * undone here. Operands only known at run time (buffers, constants, thread ids) are right.
 */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "spirv.h"

/* Opcodes whose operand 3 (word 4: after result type, result id, scope) is a GroupOperation. */
static bool has_group_operation(uint32_t op)
{
    return (op >= SpvOpGroupIAdd && op <= SpvOpGroupSMax)
            || op == SpvOpGroupNonUniformBallotBitCount
            || (op >= SpvOpGroupNonUniformIAdd && op <= SpvOpGroupNonUniformLogicalXor)
            || (op >= SpvOpGroupIAddNonUniformAMD && op <= SpvOpGroupSMaxNonUniformAMD)
            || (op >= SpvOpGroupIMulKHR && op <= SpvOpGroupLogicalXorKHR);
}

/* Words of the instructions that replace one signed remainder (see fix 3). */
#define REMAINDER_WORDS (2 * 5 + 2 * 4 + 2 * 6 + 2 * 4 + 5 + 4 + 4 + 6)

struct fixup {
    const uint32_t *w;
    size_t count, globals_end; /* globals_end: offset of the first OpFunction (or count) */
    uint32_t bound;
    uint32_t *extra;           /* types and constants to add before the first function */
    size_t extra_count, extra_capacity;
    bool out_of_memory;
};

/* What a signed remainder of result type `type` needs. */
struct remainder_types {
    uint32_t type, unsigned_type, bool_type, zero;
};

static uint32_t *add_extra(struct fixup *f, uint32_t op, uint32_t length)
{
    uint32_t *at;
    if (f->extra_count + length > f->extra_capacity) {
        size_t capacity = f->extra_capacity * 2 + length + 32;
        uint32_t *bigger = realloc(f->extra, capacity * sizeof(*bigger));
        if (!bigger) {
            f->out_of_memory = true;
            return NULL;
        }
        f->extra = bigger;
        f->extra_capacity = capacity;
    }
    at = &f->extra[f->extra_count];
    f->extra_count += length;
    at[0] = (length << 16) | op;
    return at;
}

/* The instruction defining type id (among the module's globals), or NULL. */
static const uint32_t *type_def(const struct fixup *f, uint32_t id)
{
    for (size_t o = 5; o < f->globals_end; o += f->w[o] >> 16) {
        uint32_t op = f->w[o] & 0xffff;
        if (op >= SpvOpTypeVoid && op <= SpvOpTypeForwardPointer && (f->w[o] >> 16) >= 2 && f->w[o + 1] == id)
            return &f->w[o];
    }
    return NULL;
}

static bool operands_match(const uint32_t *instruction, uint32_t op, const uint32_t *operands, uint32_t operand_count)
{
    return (instruction[0] & 0xffff) == op && (instruction[0] >> 16) == 2 + operand_count
            && (!operand_count || !memcmp(&instruction[2], operands, operand_count * 4));
}

/* A type `op operands...` (result id at word 1): the module's, or a new one. SPIR-V forbids two
 * declarations of one non-aggregate type, hence the search. 0 when out of memory. */
static uint32_t get_type(struct fixup *f, uint32_t op, const uint32_t *operands, uint32_t operand_count)
{
    uint32_t *added;
    size_t o;
    for (o = 5; o < f->globals_end; o += f->w[o] >> 16)
        if (operands_match(&f->w[o], op, operands, operand_count))
            return f->w[o + 1];
    for (o = 0; o < f->extra_count; o += f->extra[o] >> 16)
        if (operands_match(&f->extra[o], op, operands, operand_count))
            return f->extra[o + 1];
    if (!(added = add_extra(f, op, 2 + operand_count)))
        return 0;
    added[1] = f->bound++;
    if (operand_count)
        memcpy(&added[2], operands, operand_count * 4);
    return added[1];
}

/* Finds (adding what is missing) the types and the zero that a signed remainder of result type
 * `type` needs; false when `type` is no signed integer scalar or vector (then the
 * instruction is left alone) or when out of memory. */
static bool remainder_types(struct fixup *f, uint32_t type, struct remainder_types *t)
{
    const uint32_t *def = type_def(f, type), *scalar = def;
    uint32_t components = 0, operands[2], *added;

    if (def && (def[0] & 0xffff) == SpvOpTypeVector && (def[0] >> 16) == 4) {
        components = def[3];
        scalar = type_def(f, def[2]);
    }
    if (!scalar || (scalar[0] & 0xffff) != SpvOpTypeInt || (scalar[0] >> 16) != 4 || scalar[3] != 1)
        return false;
    t->type = type;
    operands[0] = scalar[2]; /* width */
    operands[1] = 0;         /* unsigned */
    if (!(t->unsigned_type = get_type(f, SpvOpTypeInt, operands, 2)))
        return false;
    if (!(t->bool_type = get_type(f, SpvOpTypeBool, NULL, 0)))
        return false;
    if (components) {
        operands[0] = t->unsigned_type;
        operands[1] = components;
        if (!(t->unsigned_type = get_type(f, SpvOpTypeVector, operands, 2)))
            return false;
        operands[0] = t->bool_type;
        if (!(t->bool_type = get_type(f, SpvOpTypeVector, operands, 2)))
            return false;
    }
    /* OpConstantNull %type: zero of any scalar or vector type; duplicates are allowed, but reuse */
    for (size_t o = 0; o < f->extra_count; o += f->extra[o] >> 16)
        if ((f->extra[o] & 0xffff) == SpvOpConstantNull && f->extra[o + 1] == type) {
            t->zero = f->extra[o + 2];
            return true;
        }
    if (!(added = add_extra(f, SpvOpConstantNull, 3)))
        return false;
    added[1] = type;
    t->zero = added[2] = f->bound++;
    return true;
}

static uint32_t *put(uint32_t *o, uint32_t op, uint32_t length, uint32_t a, uint32_t b, uint32_t c, uint32_t d, uint32_t e)
{
    const uint32_t operands[5] = {a, b, c, d, e};
    o[0] = (length << 16) | op;
    memcpy(&o[1], operands, (length - 1) * 4);
    return o + length;
}

/* The C-style signed remainder result = a % b (fix 3), ending with the original result id. */
static uint32_t *put_remainder(uint32_t *o, struct fixup *f, const struct remainder_types *t, uint32_t result,
        uint32_t a, uint32_t b)
{
    uint32_t ca = f->bound++, cb = f->bound++, na = f->bound++, nb = f->bound++, aa = f->bound++, ab = f->bound++;
    uint32_t ua = f->bound++, ub = f->bound++, um = f->bound++, m = f->bound++, nm = f->bound++;

    o = put(o, SpvOpSLessThan, 5, t->bool_type, ca, a, t->zero, 0);
    o = put(o, SpvOpSLessThan, 5, t->bool_type, cb, b, t->zero, 0);
    o = put(o, SpvOpSNegate, 4, t->type, na, a, 0, 0);
    o = put(o, SpvOpSNegate, 4, t->type, nb, b, 0, 0);
    o = put(o, SpvOpSelect, 6, t->type, aa, ca, na, a);
    o = put(o, SpvOpSelect, 6, t->type, ab, cb, nb, b);
    o = put(o, SpvOpBitcast, 4, t->unsigned_type, ua, aa, 0, 0);
    o = put(o, SpvOpBitcast, 4, t->unsigned_type, ub, ab, 0, 0);
    o = put(o, SpvOpUMod, 5, t->unsigned_type, um, ua, ub, 0);
    o = put(o, SpvOpBitcast, 4, t->type, m, um, 0, 0);
    o = put(o, SpvOpSNegate, 4, t->type, nm, m, 0, 0);
    return put(o, SpvOpSelect, 6, t->type, result, ca, nm, m);
}

static bool is_signed_remainder(uint32_t op, uint32_t length)
{
    return (op == SpvOpSMod || op == SpvOpSRem) && length == 5;
}

HRESULT d3d12xs_spirv_fixup_hlsl(const uint32_t *w, size_t count, uint32_t **out_words, size_t *out_count,
        struct d3d12xs_fixup_counts *counts)
{
    struct d3d12xs_fixup_counts local = {0};
    struct remainder_types types;
    struct fixup f;
    size_t i, n, sites = 0;
    uint32_t *out, *o;

    *out_words = NULL;
    *out_count = 0;
    if (counts)
        memset(counts, 0, sizeof(*counts));
    if (count < 5)
        return E_INVALIDARG;
    memset(&f, 0, sizeof(f));
    f.w = w;
    f.count = count;
    f.bound = w[3];
    /* A malformed module (length 0 or past the end) is only walked up to the bad instruction;
     * it is copied unchanged from there, for reflection to refuse. */
    for (i = 5; i < count; i += n) {
        if (!(n = w[i] >> 16) || n > count - i) {
            count = i;
            break;
        }
    }
    f.globals_end = count;
    for (i = 5; i < count; i += w[i] >> 16)
        if ((w[i] & 0xffff) == SpvOpFunction) {
            f.globals_end = i;
            break;
        }
    /* The types the remainders need, first: they go before the first function. */
    for (i = f.globals_end; i < count; i += w[i] >> 16) {
        if (is_signed_remainder(w[i] & 0xffff, w[i] >> 16) && remainder_types(&f, w[i + 1], &types))
            sites++;
        if (f.out_of_memory) {
            free(f.extra);
            return E_OUTOFMEMORY;
        }
    }

    if (!(o = out = malloc((f.count + f.extra_count + sites * REMAINDER_WORDS) * 4))) {
        free(f.extra);
        return E_OUTOFMEMORY;
    }
    memcpy(o, w, 5 * 4);
    o += 5;
    for (i = 5; i < count; i += n) {
        uint32_t op = w[i] & 0xffff;
        n = w[i] >> 16;
        if (i == f.globals_end && f.extra_count) {
            memcpy(o, f.extra, f.extra_count * 4);
            o += f.extra_count;
        }
        if (is_signed_remainder(op, n) && remainder_types(&f, w[i + 1], &types)) {
            /* found, not added: every type was added by the first walk */
            o = put_remainder(o, &f, &types, w[i + 2], w[i + 3], w[i + 4]);
            local.smod++;
            continue;
        }
        memcpy(o, &w[i], n * 4);
        if (op == SpvOpFMod) {
            o[0] = (o[0] & 0xffff0000u) | SpvOpFRem;
            local.fmod++;
        } else if (has_group_operation(op) && n >= 5 && o[4] == SpvGroupOperationInclusiveScan) {
            o[4] = SpvGroupOperationExclusiveScan;
            local.inclusive_scan++;
        }
        o += n;
    }
    /* the unwalkable tail of a malformed module, unchanged */
    memcpy(o, &w[count], (f.count - count) * 4);
    o += f.count - count;
    out[3] = f.bound;
    free(f.extra);
    *out_words = out;
    *out_count = o - out;
    if (counts)
        *counts = local;
    return S_OK;
}
