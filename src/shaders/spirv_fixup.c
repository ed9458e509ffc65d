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
 *  4. Structured buffers (StructuredBuffer<T>, RWStructuredBuffer<T>, Append / Consume) are
 *     tightly packed in D3D12: element stride sizeof(T), every member at the next offset
 *     aligned to its component size, no padding (float3: 12 bytes; struct {float3 a; uint b;
 *     float2 c; int d;}: 28 bytes, c at 16). glslang lays them out with std430 rules (float3
 *     stride 16, float2 aligned to 8, that struct 32 bytes). Vulkan's scalar block layout
 *     (scalarBlockLayout, which the device enables when offered) is exactly D3D12's packing,
 *     so with D3D12XS_FIXUP_SCALAR_LAYOUT the Offset, ArrayStride and MatrixStride
 *     decorations of every type reachable from a structured buffer's block are recomputed with
 *     its rules: a scalar of N bytes and every vector or matrix of it align to N, vectors and
 *     matrices are n * N bytes (float3 = 12, float3x3 = 36, MatrixStride the tight row or
 *     column), arrays have stride = element size rounded up to the element's alignment, a
 *     struct aligns to its largest member alignment and its size is rounded up to it (as in
 *     C: only 64-bit and 16-bit members make a difference). A structured buffer's block is a
 *     Block / BufferBlock struct whose only member is a runtime array; cbuffers, tbuffers,
 *     counters and push constants are not (HLSL gives them no unsized array), so they keep
 *     their layout. ByteAddressBuffers are runtime arrays of uint with stride 4 already.
 *     glslang gives a structured buffer's types their own ids (its std430 types are never
 *     those of a cbuffer's HLSL packing); a type that some other block reaches too and whose
 *     layout would change is refused (E_FAIL) rather than duplicated.
 *
 *  10. min, max and clamp of floats (and saturate) return the other operand when one is NaN
 *     (D3D follows IEEE 754 minNum / maxNum); glslang emits GLSL.std.450 FMin / FMax / FClamp,
 *     whose result Vulkan leaves undefined then: they become NMin / NMax / NClamp, which
 *     define it so.
 *  11. Unsigned x / 0 and x % 0 are 0xFFFFFFFF (D3D); Vulkan leaves them undefined. The
 *     divisor is replaced by 1 where it is 0 and the result by 0xFFFFFFFF there (not for a
 *     constant divisor other than 0).
 *
 * Fixes 1, 2, 4 and 10 rewrite words in place; fix 3 grows the module (new ids past the old
 * bound). Limits: these fix the instructions that reach the module. glslang's front end
 * folds constant expressions before SPIR-V exists, with the same wrong rules
 * (fmod(-2.25, 1.5) with literal operands becomes the constant 0.75), and that cannot be
 * undone here. Operands only known at run time (buffers, constants, thread ids) are right.
 * Likewise GetDimensions' stride output of a structured buffer is folded by glslang to its
 * std430 stride (a struct {float3; uint; float2; int;} reports 32, not 28) as a plain
 * constant, indistinguishable from any other 32 in the module; its element count is right
 * (OpArrayLength divides by the fixed ArrayStride).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.h>
#include <spirv/unified1/GLSL.std.450.h>

#include "shaders/spirv.h"

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
    uint32_t *type_of;         /* type_of[id]: result type of id, 0 if none or unknown */
    uint32_t *def_of;          /* def_of[id]: word offset of the instruction defining id, 0 if none */
    uint32_t refused_matrix;   /* result id of a matrix product of two shapes (fix 5 refuses it) */
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

/* ---- fix 4: structured buffers in D3D12's tight (scalar) layout ---- */

enum layout_mark {
    LAYOUT_STRUCTURED = 1, /* reachable from a structured buffer's block */
    LAYOUT_OTHER = 2,      /* reachable from another explicitly laid out block (cbuffer, counter...) */
};

#define LAYOUT_MAX_DEPTH 64

struct layout {
    uint32_t *w;
    size_t count, globals_end;
    uint32_t bound;
    uint32_t *def;        /* def[id]: word offset of the global defining id (type, constant), 0 if none */
    uint8_t *mark;        /* enum layout_mark bits, per id */
    uint32_t *size, *align; /* scalar layout of type ids (align 0: not computed yet) */
    char *error;
    size_t error_size;
};

static const uint32_t *layout_def(const struct layout *l, uint32_t id)
{
    return id < l->bound && l->def[id] ? &l->w[l->def[id]] : NULL;
}

static uint32_t layout_op(const uint32_t *def)
{
    return def ? def[0] & 0xffff : 0;
}

static uint32_t round_up(uint32_t value, uint32_t alignment)
{
    return (value + alignment - 1) / alignment * alignment;
}

static void mark_reachable(struct layout *l, uint32_t id, uint8_t bit, unsigned depth)
{
    const uint32_t *def = layout_def(l, id);
    uint32_t op = layout_op(def), n = def ? def[0] >> 16 : 0;

    if (!def || depth > LAYOUT_MAX_DEPTH || (l->mark[id] & bit)) /* depth: types only nest forwards, but be safe */
        return;
    if (op == SpvOpTypeStruct) {
        l->mark[id] |= bit;
        for (uint32_t m = 2; m < n; m++)
            mark_reachable(l, def[m], bit, depth + 1);
    } else if ((op == SpvOpTypeArray && n == 4) || (op == SpvOpTypeRuntimeArray && n == 3)) {
        l->mark[id] |= bit;
        mark_reachable(l, def[2], bit, depth + 1);
    }
}

/* Size and alignment of type id under scalar block layout (see fix 4). */
static HRESULT scalar_layout_of(struct layout *l, uint32_t id, uint32_t *size, uint32_t *align, unsigned depth)
{
    const uint32_t *def = layout_def(l, id), *length;
    uint32_t op = layout_op(def), n = def ? def[0] >> 16 : 0, s, a, elements;
    HRESULT hr;

    if (def && l->align[id]) {
        *size = l->size[id];
        *align = l->align[id];
        return S_OK;
    }
    if (depth > LAYOUT_MAX_DEPTH)
        return d3d12xs_spirv_error(E_FAIL, l->error, l->error_size, "structured buffer types nest deeper than %u",
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
        length = layout_def(l, def[3]);
        if (n != 4 || layout_op(length) != SpvOpConstant || (length[0] >> 16) < 4)
            return d3d12xs_spirv_error(E_FAIL, l->error, l->error_size, "structured buffer array type %u has no "
                    "constant length", id);
        elements = length[3];
        if (FAILED(hr = scalar_layout_of(l, def[2], &s, &a, depth + 1)))
            return hr;
        if ((uint64_t)round_up(s, a) * elements > UINT32_MAX / 2)
            goto unsupported;
        s = round_up(s, a) * elements;
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
        s = round_up((uint32_t)end, a);
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
    return d3d12xs_spirv_error(E_FAIL, l->error, l->error_size, "type %u (opcode %u) has no D3D12 structured "
            "buffer layout", id, op);
}

/* Offset of member `member` of struct `id` under scalar block layout. */
static HRESULT scalar_member_offset(struct layout *l, uint32_t id, uint32_t member, uint32_t *offset)
{
    const uint32_t *def = layout_def(l, id);
    uint32_t n = def[0] >> 16, at = 0, size, align;
    HRESULT hr;

    if (member >= n - 2)
        return d3d12xs_spirv_error(E_FAIL, l->error, l->error_size, "struct %u has no member %u", id, member);
    for (uint32_t m = 0; m <= member; m++) {
        if (FAILED(hr = scalar_layout_of(l, def[2 + m], &size, &align, 0)))
            return hr;
        at = round_up(at, align);
        if (m < member)
            at += size;
    }
    *offset = at;
    return S_OK;
}

static bool has_member_decoration(const struct layout *l, uint32_t id, uint32_t member, uint32_t decoration)
{
    for (size_t o = 5; o < l->globals_end; o += l->w[o] >> 16)
        if ((l->w[o] & 0xffff) == SpvOpMemberDecorate && (l->w[o] >> 16) >= 4 && l->w[o + 1] == id
                && l->w[o + 2] == member && l->w[o + 3] == decoration)
            return true;
    return false;
}

/* MatrixStride of member `member` of struct `id` (a matrix, or arrays of one) in scalar layout:
 * the tight column (ColMajor) or row (RowMajor). */
static HRESULT scalar_matrix_stride(struct layout *l, uint32_t id, uint32_t member, uint32_t *stride)
{
    const uint32_t *def = layout_def(l, id), *type, *column;
    uint32_t size, align;
    HRESULT hr;

    if (member >= (def[0] >> 16) - 2)
        return d3d12xs_spirv_error(E_FAIL, l->error, l->error_size, "struct %u has no member %u", id, member);
    type = layout_def(l, def[2 + member]);
    for (unsigned depth = 0; (layout_op(type) == SpvOpTypeArray || layout_op(type) == SpvOpTypeRuntimeArray)
            && depth < LAYOUT_MAX_DEPTH; depth++)
        type = layout_def(l, type[2]);
    if (layout_op(type) != SpvOpTypeMatrix || (type[0] >> 16) != 4
            || layout_op(column = layout_def(l, type[2])) != SpvOpTypeVector || (column[0] >> 16) != 4)
        return d3d12xs_spirv_error(E_FAIL, l->error, l->error_size, "member %u of struct %u has a MatrixStride "
                "but is no matrix", member, id);
    if (FAILED(hr = scalar_layout_of(l, column[2], &size, &align, 0)))
        return hr;
    /* OpTypeMatrix %vecN M: ColMajor stores M columns of N components, RowMajor N rows of M */
    *stride = size * (has_member_decoration(l, id, member, SpvDecorationRowMajor) ? type[3] : column[3]);
    return S_OK;
}

/* Fix 4, in place on the module words w (the output of fixes 1-3). *changed gets the number of
 * decorations whose value changed. */
static HRESULT structured_scalar_layout(uint32_t *w, size_t count, unsigned *changed, char *error, size_t error_size)
{
    struct layout l;
    bool any = false;
    size_t o, n;
    HRESULT hr = S_OK;

    *changed = 0;
    memset(&l, 0, sizeof(l));
    l.w = w;
    l.bound = w[3];
    l.error = error;
    l.error_size = error_size;
    for (o = 5; o < count; o += n)
        if (!(n = w[o] >> 16) || n > count - o)
            break;
    l.count = o;
    l.globals_end = l.count;
    for (o = 5; o < l.count; o += w[o] >> 16)
        if ((w[o] & 0xffff) == SpvOpFunction) {
            l.globals_end = o;
            break;
        }
    /* nothing to do without a Block / BufferBlock (saves the tables) */
    for (o = 5; o < l.globals_end && !any; o += w[o] >> 16)
        any = (w[o] & 0xffff) == SpvOpDecorate && (w[o] >> 16) >= 3
                && (w[o + 2] == SpvDecorationBlock || w[o + 2] == SpvDecorationBufferBlock);
    if (!any || !l.bound)
        return S_OK;
    if (!(l.def = calloc(l.bound, sizeof(*l.def))) || !(l.mark = calloc(l.bound, 1))
            || !(l.size = calloc(l.bound, sizeof(*l.size))) || !(l.align = calloc(l.bound, sizeof(*l.align)))) {
        hr = E_OUTOFMEMORY;
        goto done;
    }
    for (o = 5; o < l.globals_end; o += n) {
        uint32_t op = w[o] & 0xffff, result = 0;
        n = w[o] >> 16;
        if (op >= SpvOpTypeVoid && op <= SpvOpTypeForwardPointer && op != SpvOpTypeForwardPointer && n >= 2)
            result = w[o + 1];
        else if (op == SpvOpConstant && n >= 3)
            result = w[o + 2];
        if (result && result < l.bound && !l.def[result])
            l.def[result] = (uint32_t)o;
    }
    /* the blocks: structured buffers (one runtime-array member) and the others */
    for (o = 5; o < l.globals_end; o += n) {
        const uint32_t *block;
        n = w[o] >> 16;
        if ((w[o] & 0xffff) != SpvOpDecorate || n < 3
                || (w[o + 2] != SpvDecorationBlock && w[o + 2] != SpvDecorationBufferBlock)
                || layout_op(block = layout_def(&l, w[o + 1])) != SpvOpTypeStruct)
            continue;
        if ((block[0] >> 16) == 3 && layout_op(layout_def(&l, block[2])) == SpvOpTypeRuntimeArray)
            mark_reachable(&l, w[o + 1], LAYOUT_STRUCTURED, 0);
        else
            mark_reachable(&l, w[o + 1], LAYOUT_OTHER, 0);
    }
    /* the decorations of those types */
    for (o = 5; o < l.globals_end; o += n) {
        uint32_t op = w[o] & 0xffff, target, value = 0, size, align, *word = NULL;
        n = w[o] >> 16;
        if (op == SpvOpDecorate && n == 4 && w[o + 2] == SpvDecorationArrayStride) {
            const uint32_t *array;
            target = w[o + 1];
            if (target >= l.bound || !(l.mark[target] & LAYOUT_STRUCTURED))
                continue;
            array = layout_def(&l, target);
            if (FAILED(hr = scalar_layout_of(&l, array[2], &size, &align, 0)))
                goto done;
            value = round_up(size, align);
            word = &w[o + 3];
        } else if (op == SpvOpMemberDecorate && n == 5
                && (w[o + 3] == SpvDecorationOffset || w[o + 3] == SpvDecorationMatrixStride)) {
            target = w[o + 1];
            if (target >= l.bound || !(l.mark[target] & LAYOUT_STRUCTURED))
                continue;
            if (FAILED(hr = w[o + 3] == SpvDecorationOffset ? scalar_member_offset(&l, target, w[o + 2], &value)
                    : scalar_matrix_stride(&l, target, w[o + 2], &value)))
                goto done;
            word = &w[o + 4];
        } else {
            continue;
        }
        if (*word == value)
            continue;
        if (l.mark[target] & LAYOUT_OTHER) {
            hr = d3d12xs_spirv_error(E_FAIL, error, error_size, "type %u is used by a structured buffer and by "
                    "another block (cbuffer, tbuffer or counter), which need different layouts (D3D12 packs "
                    "structured buffers tightly): give the structured buffer a struct of its own", target);
            goto done;
        }
        *word = value;
        ++*changed;
    }

done:
    free(l.def);
    free(l.mark);
    free(l.size);
    free(l.align);
    if (FAILED(hr))
        *changed = 0;
    return hr;
}

/* ---- fixes 5-7: matrix `*`, shift counts, float-to-integer conversions ---- */

/* scalar and component count of a scalar or vector type: the scalar's definition */
static const uint32_t *scalar_of(const struct fixup *f, uint32_t type, uint32_t *components)
{
    const uint32_t *def = type_def(f, type);
    *components = 1;
    if (def && (def[0] & 0xffff) == SpvOpTypeVector && (def[0] >> 16) == 4) {
        *components = def[3];
        def = type_def(f, def[2]);
    }
    return def;
}

/* A constant of `type` (a scalar or vector of the scalar `scalar`) with every component
 * `value` (1 or 2 words); 0 when out of memory. */
static uint32_t get_constant(struct fixup *f, uint32_t type, uint32_t scalar, uint32_t components,
        const uint32_t *value, uint32_t value_words)
{
    uint32_t id = 0, *added;
    for (size_t o = 0; o < f->extra_count; o += f->extra[o] >> 16)
        if ((f->extra[o] & 0xffff) == SpvOpConstant && f->extra[o + 1] == scalar && (f->extra[o] >> 16) == 3 + value_words
                && !memcmp(&f->extra[o + 3], value, value_words * 4)) {
            id = f->extra[o + 2];
            break;
        }
    if (!id) {
        if (!(added = add_extra(f, SpvOpConstant, 3 + value_words)))
            return 0;
        added[1] = scalar;
        id = added[2] = f->bound++;
        memcpy(&added[3], value, value_words * 4);
    }
    if (components == 1)
        return id;
    for (size_t o = 0; o < f->extra_count; o += f->extra[o] >> 16)
        if ((f->extra[o] & 0xffff) == SpvOpConstantComposite && f->extra[o + 1] == type && f->extra[o + 3] == id)
            return f->extra[o + 2];
    if (!(added = add_extra(f, SpvOpConstantComposite, 3 + components)))
        return 0;
    added[1] = type;
    added[2] = f->bound++;
    for (uint32_t c = 0; c < components; c++)
        added[3 + c] = id;
    return added[2];
}

static bool is_int32(const uint32_t *scalar)
{
    return scalar && (scalar[0] & 0xffff) == SpvOpTypeInt && (scalar[0] >> 16) == 4 && scalar[2] == 32;
}

/* Fix 5: a matrix product whose operands and result have one type (only `*` makes those
 * once mul() of matrices goes through the rewrite's helpers): per column FMul. Words it takes,
 * or 0 when it is no such instruction. */
static size_t matrix_words(struct fixup *f, const uint32_t *in, uint32_t *columns)
{
    const uint32_t *def;
    if ((in[0] & 0xffff) != SpvOpMatrixTimesMatrix || (in[0] >> 16) != 5)
        return 0;
    def = type_def(f, in[1]);
    if (!def || (def[0] & 0xffff) != SpvOpTypeMatrix || (def[0] >> 16) != 4 || def[3] < 2 || def[3] > 4
            || in[3] >= f->bound || in[4] >= f->bound)
        return 0;
    if (f->type_of[in[3]] != in[1] || f->type_of[in[4]] != in[1]) {
        /* HLSL `*` of matrices of two shapes, or mul() of shapes the rewrite has no helper for */
        if (!f->refused_matrix)
            f->refused_matrix = in[2];
        return 0;
    }
    *columns = def[3];
    return *columns * 15 + 3 + *columns;
}

/* Fix 6: shifts of 32-bit integers use the low 5 bits of the count. */
struct shift_site {
    uint32_t mask; /* the constant 31 of the result type */
};

static size_t shift_words(struct fixup *f, const uint32_t *in, struct shift_site *site)
{
    uint32_t op = in[0] & 0xffff, components, value = 31;
    const uint32_t *scalar;
    if ((op != SpvOpShiftLeftLogical && op != SpvOpShiftRightLogical && op != SpvOpShiftRightArithmetic)
            || (in[0] >> 16) != 5)
        return 0;
    scalar = scalar_of(f, in[1], &components);
    if (!is_int32(scalar))
        return 0;
    /* a constant count below 32 needs nothing */
    for (size_t o = 5; o < f->globals_end; o += f->w[o] >> 16)
        if ((f->w[o] & 0xffff) == SpvOpConstant && (f->w[o] >> 16) == 4 && f->w[o + 2] == in[4])
            return f->w[o + 3] < 32 ? 0 : 10;
    if (!(site->mask = get_constant(f, in[1], scalar[1], components, &value, 1)))
        return 0;
    return 10;
}

/* Fix 7: float-to-integer conversions (32-bit results from 32- or 64-bit floats) saturate,
 * and NaN converts to 0, as D3D defines them. */
struct convert_site {
    uint32_t float_type, bool_type, zero, low, high, int_low, int_high;
    uint32_t sign_type; /* (uint)sign(x): the signed type to convert through (-1 is 0xffffffff) */
};

#define CONVERT_WORDS (5 + 5 + 4 + 5 + 5 + 6 + 4 + 6 + 6)

static size_t convert_words(struct fixup *f, const uint32_t *in, struct convert_site *site)
{
    uint32_t op = in[0] & 0xffff, components, float_components, operands[2], value[2];
    const uint32_t *scalar, *float_scalar;
    bool is_signed = op == SpvOpConvertFToS;
    if ((op != SpvOpConvertFToS && op != SpvOpConvertFToU) || (in[0] >> 16) != 4 || in[3] >= f->bound)
        return 0;
    scalar = scalar_of(f, in[1], &components);
    if (!is_int32(scalar) || !(site->float_type = f->type_of[in[3]]))
        return 0;
    float_scalar = scalar_of(f, site->float_type, &float_components);
    if (!float_scalar || (float_scalar[0] & 0xffff) != SpvOpTypeFloat || (float_scalar[0] >> 16) != 3
            || float_components != components || (float_scalar[2] != 32 && float_scalar[2] != 64))
        return 0;
    site->sign_type = 0;
    if (!is_signed && f->def_of[in[3]] && (f->w[f->def_of[in[3]]] & 0xffff) == SpvOpExtInst
            && (f->w[f->def_of[in[3]]] >> 16) == 6 && f->w[f->def_of[in[3]] + 4] == 6 /* GLSL.std.450 FSign */) {
        /* HLSL's sign() is an int: glslang converts FSign's -1.0 straight to uint */
        operands[0] = 32;
        operands[1] = 1;
        if (!(site->sign_type = get_type(f, SpvOpTypeInt, operands, 2)))
            return 0;
        if (components > 1) {
            operands[0] = site->sign_type;
            operands[1] = components;
            if (!(site->sign_type = get_type(f, SpvOpTypeVector, operands, 2)))
                return 0;
        }
        return 8;
    }
    if (!(site->bool_type = get_type(f, SpvOpTypeBool, NULL, 0)))
        return 0;
    if (components > 1) {
        operands[0] = site->bool_type;
        operands[1] = components;
        if (!(site->bool_type = get_type(f, SpvOpTypeVector, operands, 2)))
            return 0;
    }
#define FLOAT_CONSTANT(out, number) do { \
        if (float_scalar[2] == 32) { float v32 = (float)(number); memcpy(value, &v32, 4); } \
        else { double v64 = (double)(number); memcpy(value, &v64, 8); } \
        if (!((out) = get_constant(f, site->float_type, float_scalar[1], components, value, float_scalar[2] / 32))) \
            return 0; \
    } while (0)
    FLOAT_CONSTANT(site->zero, 0.0);
    FLOAT_CONSTANT(site->low, is_signed ? -2147483648.0 : 0.0);
    FLOAT_CONSTANT(site->high, is_signed ? 2147483648.0 : 4294967296.0);
#undef FLOAT_CONSTANT
    value[0] = is_signed ? 0x80000000u : 0;
    if (!(site->int_low = get_constant(f, in[1], scalar[1], components, value, 1)))
        return 0;
    value[0] = is_signed ? 0x7fffffffu : 0xffffffffu;
    if (!(site->int_high = get_constant(f, in[1], scalar[1], components, value, 1)))
        return 0;
    return CONVERT_WORDS;
}

/* The words replacing instruction `in` when it is a site of fix 5, 6 or 7 (0 when not). With
 * o, writes them there, else only finds what they need. */
/* Fix 11: unsigned division and remainder by zero give 0xFFFFFFFF (D3D; Vulkan leaves them
 * undefined): the divisor 0 becomes 1, and the result is replaced where it was 0. */
struct udiv_site {
    uint32_t bool_type, zero, one, all_ones;
};

#define UDIV_WORDS (5 + 6 + 5 + 6)

static size_t udiv_words(struct fixup *f, const uint32_t *in, struct udiv_site *site)
{
    uint32_t op = in[0] & 0xffff, components, value, operands[2];
    const uint32_t *scalar;
    if ((op != SpvOpUDiv && op != SpvOpUMod) || (in[0] >> 16) != 5)
        return 0;
    scalar = scalar_of(f, in[1], &components);
    if (!is_int32(scalar))
        return 0;
    /* a constant divisor other than 0 needs nothing */
    for (size_t o = 5; o < f->globals_end; o += f->w[o] >> 16)
        if ((f->w[o] & 0xffff) == SpvOpConstant && (f->w[o] >> 16) == 4 && f->w[o + 2] == in[4] && f->w[o + 3])
            return 0;
    if (!(site->bool_type = get_type(f, SpvOpTypeBool, NULL, 0)))
        return 0;
    if (components > 1) {
        operands[0] = site->bool_type;
        operands[1] = components;
        if (!(site->bool_type = get_type(f, SpvOpTypeVector, operands, 2)))
            return 0;
    }
    value = 0;
    if (!(site->zero = get_constant(f, in[1], scalar[1], components, &value, 1)))
        return 0;
    value = 1;
    if (!(site->one = get_constant(f, in[1], scalar[1], components, &value, 1)))
        return 0;
    value = UINT32_MAX;
    if (!(site->all_ones = get_constant(f, in[1], scalar[1], components, &value, 1)))
        return 0;
    return UDIV_WORDS;
}

static size_t fix_site(struct fixup *f, const uint32_t *in, uint32_t *o, struct d3d12xs_fixup_counts *counts)
{
    struct convert_site convert;
    struct udiv_site udiv;
    struct shift_site shift;
    uint32_t columns;
    size_t words;

    if ((words = matrix_words(f, in, &columns))) {
        uint32_t products[4], column_type = type_def(f, in[1])[2];
        if (!o)
            return words;
        for (uint32_t c = 0; c < columns; c++) {
            uint32_t a = f->bound++, b = f->bound++;
            o = put(o, SpvOpCompositeExtract, 5, column_type, a, in[3], c, 0);
            o = put(o, SpvOpCompositeExtract, 5, column_type, b, in[4], c, 0);
            o = put(o, SpvOpFMul, 5, column_type, products[c] = f->bound++, a, b, 0);
        }
        o[0] = ((3 + columns) << 16) | SpvOpCompositeConstruct;
        o[1] = in[1];
        o[2] = in[2];
        memcpy(&o[3], products, columns * 4);
        counts->matrix++;
        return words;
    }
    if ((words = shift_words(f, in, &shift))) {
        uint32_t masked;
        if (!o)
            return words;
        masked = f->bound++;
        o = put(o, SpvOpBitwiseAnd, 5, in[1], masked, in[4], shift.mask, 0);
        put(o, in[0] & 0xffff, 5, in[1], in[2], in[3], masked, 0);
        counts->shift++;
        return words;
    }
    if ((words = udiv_words(f, in, &udiv))) {
        uint32_t is_zero, safe, quotient;
        if (!o)
            return words;
        is_zero = f->bound++, safe = f->bound++, quotient = f->bound++;
        o = put(o, SpvOpIEqual, 5, udiv.bool_type, is_zero, in[4], udiv.zero, 0);
        o = put(o, SpvOpSelect, 6, in[1], safe, is_zero, udiv.one, in[4]);
        o = put(o, in[0] & 0xffff, 5, in[1], quotient, in[3], safe, 0);
        put(o, SpvOpSelect, 6, in[1], in[2], is_zero, udiv.all_ones, quotient);
        counts->udiv++;
        return words;
    }
    if ((words = convert_words(f, in, &convert))) {
        uint32_t low, high, nan, out_of_range, bad, safe, converted, clamped;
        if (!o)
            return words;
        if (convert.sign_type) {
            converted = f->bound++;
            o = put(o, SpvOpConvertFToS, 4, convert.sign_type, converted, in[3], 0, 0);
            put(o, SpvOpBitcast, 4, in[1], in[2], converted, 0, 0);
            counts->conversion++;
            return words;
        }
        low = f->bound++, high = f->bound++, nan = f->bound++, out_of_range = f->bound++, bad = f->bound++;
        safe = f->bound++, converted = f->bound++, clamped = f->bound++;
        o = put(o, SpvOpFOrdLessThan, 5, convert.bool_type, low, in[3], convert.low, 0);
        o = put(o, SpvOpFOrdGreaterThanEqual, 5, convert.bool_type, high, in[3], convert.high, 0);
        o = put(o, SpvOpIsNan, 4, convert.bool_type, nan, in[3], 0, 0);
        o = put(o, SpvOpLogicalOr, 5, convert.bool_type, out_of_range, low, high, 0);
        o = put(o, SpvOpLogicalOr, 5, convert.bool_type, bad, out_of_range, nan, 0);
        o = put(o, SpvOpSelect, 6, convert.float_type, safe, bad, convert.zero, in[3]);
        o = put(o, in[0] & 0xffff, 4, in[1], converted, safe, 0, 0);
        o = put(o, SpvOpSelect, 6, in[1], clamped, low, convert.int_low, converted);
        put(o, SpvOpSelect, 6, in[1], in[2], high, convert.int_high, clamped);
        counts->conversion++;
        return words;
    }
    return 0;
}

/* ---- fix 9: statics are zero ----
 * D3D zeroes static globals (and function-scope statics, which the source rewrite makes
 * globals) that have no initialiser; glslang leaves their Private variables undefined (it
 * stores an initialiser's value at the start of the entry point instead), and the optimiser
 * then turns a Private variable that one function uses (every one: it inlines everything) into
 * a Function variable of that function. So every Private and Function variable without an
 * initialiser gets an OpConstantNull of its type: arrays and structs too, whatever the spelling
 * (macros included). For locals that is one of the values D3D allows (it leaves them
 * undefined); the cost is the zeroing of locals the shader does not initialise itself. The
 * constants go just before a Private variable, or before the first function. */
static bool zeroed_variable(const uint32_t *w, size_t i, size_t n)
{
    return (w[i] & 0xffff) == SpvOpVariable && n == 4
            && (w[i + 3] == SpvStorageClassPrivate || w[i + 3] == SpvStorageClassFunction);
}

/* A type OpConstantNull can zero here: numbers, bools, and vectors, matrices, arrays and
 * structs of them (not images, samplers or pointers, which a local may hold before
 * legalisation). */
static bool zeroable(const uint32_t *w, size_t globals_end, uint32_t type, unsigned depth)
{
    for (size_t i = 5; i < globals_end && depth <= LAYOUT_MAX_DEPTH; i += w[i] >> 16) {
        uint32_t op = w[i] & 0xffff, n = w[i] >> 16;
        if (op < SpvOpTypeVoid || op >= SpvOpTypeForwardPointer || n < 2 || w[i + 1] != type)
            continue;
        switch (op) {
        case SpvOpTypeBool: case SpvOpTypeInt: case SpvOpTypeFloat:
            return true;
        case SpvOpTypeVector: case SpvOpTypeMatrix: case SpvOpTypeArray:
            return n >= 3 && zeroable(w, globals_end, w[i + 2], depth + 1);
        case SpvOpTypeStruct:
            for (uint32_t m = 2; m < n; m++)
                if (!zeroable(w, globals_end, w[i + m], depth + 1))
                    return false;
            return true;
        default:
            return false;
        }
    }
    return false;
}

static HRESULT zero_private_variables(uint32_t **words, size_t *count, unsigned *changed)
{
    uint32_t *w = *words, *out, *o, *null_of = NULL, *pointee_of = NULL, bound = w[3];
    size_t n, globals_end = *count, end = *count, variables = 0;

    *changed = 0;
    for (size_t i = 5; i < *count; i += n) {
        if (!(n = w[i] >> 16) || n > *count - i) {
            end = i;
            break;
        }
        if ((w[i] & 0xffff) == SpvOpFunction && globals_end == *count)
            globals_end = i;
        if (zeroed_variable(w, i, n))
            variables++;
    }
    if (globals_end > end)
        globals_end = end;
    if (!variables || !bound)
        return S_OK;
    if (!(null_of = calloc(bound, sizeof(*null_of))) || !(pointee_of = calloc(bound, sizeof(*pointee_of)))
            || !(o = out = malloc((*count + 5 * variables) * 4))) {
        free(null_of);
        free(pointee_of);
        return E_OUTOFMEMORY;
    }
    for (size_t i = 5; i < globals_end; i += w[i] >> 16)
        if ((w[i] & 0xffff) == SpvOpTypePointer && (w[i] >> 16) == 4 && w[i + 1] < bound && w[i + 3] < bound
                && (w[i + 2] == SpvStorageClassPrivate || w[i + 2] == SpvStorageClassFunction)
                && zeroable(w, globals_end, w[i + 3], 0))
            pointee_of[w[i + 1]] = w[i + 3];
    memcpy(o, w, 5 * 4);
    o += 5;
    for (size_t i = 5; i < *count; i += n) {
        uint32_t pointee = 0;
        n = i < end ? w[i] >> 16 : *count - i;
        if (i == globals_end) {
            /* the constants of the Function variables */
            for (size_t v = globals_end; v < end; v += w[v] >> 16)
                if (zeroed_variable(w, v, w[v] >> 16) && w[v + 3] == SpvStorageClassFunction && w[v + 1] < bound
                        && (pointee = pointee_of[w[v + 1]]) && !null_of[pointee]) {
                    null_of[pointee] = bound++;
                    o[0] = (3u << 16) | SpvOpConstantNull;
                    o[1] = pointee;
                    o[2] = null_of[pointee];
                    o += 3;
                }
            pointee = 0;
        }
        if (i < end && zeroed_variable(w, i, n) && w[i + 1] < bound)
            pointee = pointee_of[w[i + 1]];
        if (!pointee) {
            memcpy(o, &w[i], n * 4);
            o += n;
            continue;
        }
        if (!null_of[pointee]) { /* a Private variable: before it */
            null_of[pointee] = bound++;
            o[0] = (3u << 16) | SpvOpConstantNull;
            o[1] = pointee;
            o[2] = null_of[pointee];
            o += 3;
        }
        o[0] = (5u << 16) | SpvOpVariable;
        o[1] = w[i + 1];
        o[2] = w[i + 2];
        o[3] = w[i + 3];
        o[4] = null_of[pointee];
        o += 5;
        ++*changed;
    }
    out[3] = bound;
    free(null_of);
    free(pointee_of);
    free(*words);
    *words = out;
    *count = o - out;
    return S_OK;
}

HRESULT d3d12xs_spirv_fixup_hlsl(const uint32_t *w, size_t count, unsigned flags, uint32_t **out_words,
        size_t *out_count, struct d3d12xs_fixup_counts *counts, char *error, size_t error_size)
{
    struct d3d12xs_fixup_counts local = {0};
    struct remainder_types types;
    struct fixup f;
    uint8_t *glsl_set;
    size_t i, n, sites = 0, site_words = 0;
    uint32_t *out, *o;
    HRESULT hr;

    if (error && error_size)
        error[0] = 0;
    *out_words = NULL;
    *out_count = 0;
    if (counts)
        memset(counts, 0, sizeof(*counts));
    if (count < 5)
        return d3d12xs_spirv_error(E_INVALIDARG, error, error_size, "%zu words are no SPIR-V module", count);
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
    if (!(f.type_of = calloc(f.bound ? f.bound : 1, sizeof(*f.type_of)))
            || !(f.def_of = calloc(f.bound ? f.bound : 1, sizeof(*f.def_of)))) {
        free(f.type_of);
        free(f.def_of);
        return d3d12xs_spirv_error(E_OUTOFMEMORY, error, error_size, "out of memory");
    }
    for (i = 5; i < count; i += w[i] >> 16) {
        bool has_result, has_type;
        SpvHasResultAndType((SpvOp)(w[i] & 0xffff), &has_result, &has_type);
        if (has_result && has_type && (w[i] >> 16) >= 3 && w[i + 2] < f.bound) {
            f.type_of[w[i + 2]] = w[i + 1];
            f.def_of[w[i + 2]] = (uint32_t)i;
        }
    }
    /* The types the remainders need, first: they go before the first function. */
    for (i = f.globals_end; i < count; i += w[i] >> 16) {
        if (is_signed_remainder(w[i] & 0xffff, w[i] >> 16) && remainder_types(&f, w[i + 1], &types))
            sites++;
        else
            site_words += fix_site(&f, &w[i], NULL, &local);
        if (f.out_of_memory) {
            free(f.type_of);
            free(f.def_of);
            free(f.extra);
            return d3d12xs_spirv_error(E_OUTOFMEMORY, error, error_size, "out of memory");
        }
    }

    if (f.refused_matrix) {
        free(f.type_of);
        free(f.def_of);
        free(f.extra);
        return d3d12xs_spirv_error(E_FAIL, error, error_size, "a product of matrices of different shapes "
                "(result id %u): HLSL's `*` of two matrices is per component and needs one shape; mul() of "
                "matrices is supported for float and double matrices of 2 to 4 rows and columns",
                f.refused_matrix);
    }
    if (!(o = out = malloc((f.count + f.extra_count + sites * REMAINDER_WORDS + site_words) * 4))) {
        free(f.type_of);
        free(f.def_of);
        free(f.extra);
        return d3d12xs_spirv_error(E_OUTOFMEMORY, error, error_size, "out of memory");
    }
    /* fix 10: the GLSL.std.450 imports */
    if (!(glsl_set = calloc(f.bound ? f.bound : 1, 1))) {
        free(out);
        free(f.type_of);
        free(f.def_of);
        free(f.extra);
        return d3d12xs_spirv_error(E_OUTOFMEMORY, error, error_size, "out of memory");
    }
    for (i = 5; i < f.globals_end; i += w[i] >> 16) {
        const char *set_name;
        if ((w[i] & 0xffff) == SpvOpExtInstImport && (w[i] >> 16) >= 3 && w[i + 1] < f.bound
                && d3d12xs_spirv_string(w, i + 2, i + (w[i] >> 16), &set_name, NULL)
                && !strcmp(set_name, "GLSL.std.450"))
            glsl_set[w[i + 1]] = 1;
    }
    memcpy(o, w, 5 * 4);
    o += 5;
    for (i = 5; i < count; i += n) {
        uint32_t op = w[i] & 0xffff;
        size_t n_fixed;
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
        if (i >= f.globals_end && (n_fixed = fix_site(&f, &w[i], o, &local))) {
            o += n_fixed;
            continue;
        }
        memcpy(o, &w[i], n * 4);
        if (op == SpvOpFMod) {
            o[0] = (o[0] & 0xffff0000u) | SpvOpFRem;
            local.fmod++;
        } else if (has_group_operation(op) && n >= 5 && o[4] == SpvGroupOperationInclusiveScan) {
            o[4] = SpvGroupOperationExclusiveScan;
            local.inclusive_scan++;
        } else if (op == SpvOpExtInst && n >= 5 && o[3] < f.bound && glsl_set[o[3]]
                && (o[4] == GLSLstd450FMin || o[4] == GLSLstd450FMax || o[4] == GLSLstd450FClamp)) {
            o[4] = o[4] == GLSLstd450FMin ? GLSLstd450NMin : o[4] == GLSLstd450FMax ? GLSLstd450NMax : GLSLstd450NClamp;
            local.nan_min_max++;
        }
        o += n;
    }
    /* the unwalkable tail of a malformed module, unchanged */
    memcpy(o, &w[count], (f.count - count) * 4);
    o += f.count - count;
    out[3] = f.bound;
    free(glsl_set);
    free(f.extra);
    free(f.type_of);
    free(f.def_of);
    if ((flags & D3D12XS_FIXUP_SCALAR_LAYOUT)
            && FAILED(hr = structured_scalar_layout(out, o - out, &local.layout, error, error_size))) {
        free(out);
        if (hr == E_OUTOFMEMORY)
            d3d12xs_spirv_error(hr, error, error_size, "out of memory");
        return hr;
    }
    *out_count = o - out;
    if (FAILED(hr = zero_private_variables(&out, out_count, &local.statics))) {
        free(out);
        *out_count = 0;
        return d3d12xs_spirv_error(hr, error, error_size, "out of memory");
    }
    *out_words = out;
    if (counts)
        *counts = local;
    return S_OK;
}

/* ---- fix 8: constant-buffer packing (d3d12xs_spirv_cbuffer_layout) ----
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

#define CBUFFER_MAX_MEMBERS 65536u

struct cbuffer_pass {
    struct layout l;
    uint32_t *stride;   /* D3D ArrayStride per array type id, 0 if not reached */
    bool explicit_placement;
    unsigned changed;
    struct d3d12xs_cbuffer_problem *p;
    uint32_t path[D3D12XS_CBUFFER_PATH_MAX];
};

static uint32_t *member_decoration_word(const struct layout *l, uint32_t id, uint32_t member, uint32_t decoration)
{
    for (size_t o = 5; o < l->globals_end; o += l->w[o] >> 16)
        if ((l->w[o] & 0xffff) == SpvOpMemberDecorate && (l->w[o] >> 16) == 5 && l->w[o + 1] == id
                && l->w[o + 2] == member && l->w[o + 3] == decoration)
            return &l->w[o + 4];
    return NULL;
}

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
    const uint32_t *def = layout_def(&c->l, type), *length;
    uint32_t op = layout_op(def), n = def ? def[0] >> 16 : 0, s, vs, comp;
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
        const uint32_t *column = layout_def(&c->l, n == 4 ? def[2] : 0);
        uint32_t vectors, components;
        if (n != 4 || layout_op(column) != SpvOpTypeVector || (column[0] >> 16) != 4 || def[3] > 4 || column[3] > 4)
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
        length = layout_def(&c->l, n == 4 ? def[3] : 0);
        if (n != 4 || layout_op(length) != SpvOpConstant || (length[0] >> 16) != 4 || !length[3])
            return cbuffer_refuse(c, depth, d3d_base, base, "an array without a constant length");
        elements = length[3];
        if (FAILED(hr = cbuffer_place(c, def[2], row_major, d3d_base, base, depth, &s, &vs, &comp)))
            return hr;
        stride = round_up(s, 16);
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
            uint32_t member = def[2 + m], member_op = layout_op(layout_def(&c->l, member)), member_size;
            uint32_t *offset_word = member_decoration_word(&c->l, type, m, SpvDecorationOffset);
            uint32_t *matrix_stride = member_decoration_word(&c->l, type, m, SpvDecorationMatrixStride);
            uint32_t offset = offset_word ? *offset_word : 0;
            bool member_row_major = has_member_decoration(&c->l, type, m, SpvDecorationRowMajor);
            bool aggregate = member_op == SpvOpTypeStruct || member_op == SpvOpTypeArray || member_op == SpvOpTypeMatrix;

            if (depth < D3D12XS_CBUFFER_PATH_MAX)
                c->path[depth] = m;
            if (!offset_word)
                return cbuffer_refuse(c, depth + 1, d3d_base + end, base, "a member without an Offset");
            if (aggregate) {
                at = round_up(end, 16);
                if (FAILED(hr = cbuffer_place(c, member, member_row_major, d3d_base + at, base + offset, depth + 1,
                        &member_size, &member_vk_size, &comp)))
                    return hr;
            } else {
                if (FAILED(hr = cbuffer_place(c, member, false, d3d_base + end, base + offset, depth + 1,
                        &member_size, &member_vk_size, &comp)))
                    return hr;
                at = round_up(end, comp);
                if (at % 16 + member_size > 16)
                    at = round_up(at, 16);
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
                        uint32_t *other = member_decoration_word(&c->l, type, k, SpvDecorationOffset), other_size;
                        const uint32_t *other_def = layout_def(&c->l, def[2 + k]);
                        uint32_t other_op = layout_op(other_def);
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

HRESULT d3d12xs_spirv_cbuffer_layout(uint32_t *w, size_t count, bool explicit_placement, unsigned *changed,
        struct d3d12xs_cbuffer_problem *problem)
{
    struct cbuffer_pass c;
    size_t o, n;
    HRESULT hr = S_OK;

    memset(problem, 0, sizeof(*problem));
    *changed = 0;
    problem->other_member = UINT32_MAX;
    if (count < 5)
        return E_INVALIDARG;
    memset(&c, 0, sizeof(c));
    c.l.w = w;
    c.l.bound = w[3];
    c.p = problem;
    c.explicit_placement = explicit_placement;
    for (o = 5; o < count; o += n)
        if (!(n = w[o] >> 16) || n > count - o)
            break;
    c.l.count = o;
    c.l.globals_end = o;
    for (o = 5; o < c.l.count; o += w[o] >> 16)
        if ((w[o] & 0xffff) == SpvOpFunction) {
            c.l.globals_end = o;
            break;
        }
    if (!c.l.bound)
        return S_OK;
    if (!(c.l.def = calloc(c.l.bound, sizeof(*c.l.def))) || !(c.l.mark = calloc(c.l.bound, 1))
            || !(c.stride = calloc(c.l.bound, sizeof(*c.stride)))) {
        hr = E_OUTOFMEMORY;
        goto done;
    }
    for (o = 5; o < c.l.globals_end; o += n) {
        uint32_t op = w[o] & 0xffff, result = 0;
        n = w[o] >> 16;
        if (op >= SpvOpTypeVoid && op < SpvOpTypeForwardPointer && n >= 2)
            result = w[o + 1];
        else if (op == SpvOpConstant && n >= 3)
            result = w[o + 2];
        if (result && result < c.l.bound && !c.l.def[result])
            c.l.def[result] = (uint32_t)o;
    }
    /* cbuffer and tbuffer blocks: Block or BufferBlock structs that Uniform variables point to,
     * other than a structured or byte-address buffer's (one runtime array member); every other
     * block marks its types LAYOUT_OTHER */
    for (o = 5; o < c.l.globals_end; o += n) {
        const uint32_t *block;
        uint32_t target;
        n = w[o] >> 16;
        if ((w[o] & 0xffff) != SpvOpDecorate || n < 3
                || (w[o + 2] != SpvDecorationBlock && w[o + 2] != SpvDecorationBufferBlock))
            continue;
        target = w[o + 1];
        block = layout_def(&c.l, target);
        if (layout_op(block) == SpvOpTypeStruct && (block[0] >> 16) == 3
                && layout_op(layout_def(&c.l, block[2])) == SpvOpTypeRuntimeArray)
            mark_reachable(&c.l, target, LAYOUT_OTHER, 0);
        else
            for (size_t v = 5; v < c.l.globals_end; v += w[v] >> 16) {
                const uint32_t *pointer;
                if ((w[v] & 0xffff) == SpvOpVariable && (w[v] >> 16) >= 4
                        && layout_op(pointer = layout_def(&c.l, w[v + 1])) == SpvOpTypePointer
                        && pointer[3] == target && pointer[2] != SpvStorageClassUniform)
                    mark_reachable(&c.l, target, LAYOUT_OTHER, 0);
            }
    }
    for (o = 5; o < c.l.globals_end && SUCCEEDED(hr); o += n) {
        const uint32_t *pointer, *block;
        uint32_t size, vk_size, component;
        bool is_block = false;
        n = w[o] >> 16;
        if ((w[o] & 0xffff) != SpvOpVariable || n < 4 || w[o + 3] != SpvStorageClassUniform
                || layout_op(pointer = layout_def(&c.l, w[o + 1])) != SpvOpTypePointer
                || layout_op(block = layout_def(&c.l, pointer[3])) != SpvOpTypeStruct)
            continue;
        if ((block[0] >> 16) == 3 && layout_op(layout_def(&c.l, block[2])) == SpvOpTypeRuntimeArray)
            continue;
        for (size_t d = 5; d < c.l.globals_end; d += w[d] >> 16)
            if ((w[d] & 0xffff) == SpvOpDecorate && (w[d] >> 16) == 3 && w[d + 1] == pointer[3]
                    && (w[d + 2] == SpvDecorationBlock || w[d + 2] == SpvDecorationBufferBlock))
                is_block = true;
        if (!is_block)
            continue;
        problem->set = problem->binding = UINT32_MAX;
        for (size_t d = 5; d < c.l.globals_end; d += w[d] >> 16)
            if ((w[d] & 0xffff) == SpvOpDecorate && (w[d] >> 16) == 4 && w[d + 1] == w[o + 2]) {
                if (w[d + 2] == SpvDecorationDescriptorSet)
                    problem->set = w[d + 3];
                else if (w[d + 2] == SpvDecorationBinding)
                    problem->binding = w[d + 3];
            }
        hr = cbuffer_place(&c, pointer[3], false, 0, 0, 0, &size, &vk_size, &component);
    }
    /* array strides */
    for (o = 5; o < c.l.globals_end && SUCCEEDED(hr); o += n) {
        uint32_t target;
        n = w[o] >> 16;
        if ((w[o] & 0xffff) != SpvOpDecorate || n != 4 || w[o + 2] != SpvDecorationArrayStride
                || (target = w[o + 1]) >= c.l.bound || !c.stride[target] || c.stride[target] == w[o + 3])
            continue;
        if (c.explicit_placement || (c.l.mark[target] & LAYOUT_OTHER)) {
            memset(problem->path, 0, sizeof(problem->path));
            problem->depth = 0;
            snprintf(problem->reason, sizeof(problem->reason), "an array of it has stride %u where D3D's is %u "
                    "and its type is shared with %s", w[o + 3], c.stride[target],
                    c.explicit_placement ? "members placed by packoffset / register(c)" : "another kind of buffer");
            hr = E_FAIL;
            break;
        }
        w[o + 3] = c.stride[target];
        c.changed++;
    }

done:
    free(c.l.def);
    free(c.l.mark);
    free(c.stride);
    *changed = SUCCEEDED(hr) ? c.changed : 0;
    return hr;
}

/* the name (OpName, or OpMemberName of member) of id in words, or NULL */
static const char *spirv_name(const uint32_t *w, size_t count, uint32_t id, uint32_t member, bool of_member)
{
    const char *name;
    for (size_t o = 5, n; o < count; o += n) {
        uint32_t op = w[o] & 0xffff;
        if (!(n = w[o] >> 16) || n > count - o)
            break;
        if (!of_member && op == SpvOpName && n >= 3 && w[o + 1] == id && d3d12xs_spirv_string(w, o + 2, o + n, &name, NULL))
            return name;
        if (of_member && op == SpvOpMemberName && n >= 4 && w[o + 1] == id && w[o + 2] == member
                && d3d12xs_spirv_string(w, o + 3, o + n, &name, NULL))
            return name;
        if (op == SpvOpFunction)
            break;
    }
    return NULL;
}

static const uint32_t *spirv_type(const uint32_t *w, size_t count, uint32_t id)
{
    for (size_t o = 5, n; o < count; o += n) {
        uint32_t op = w[o] & 0xffff;
        if (!(n = w[o] >> 16) || n > count - o || op == SpvOpFunction)
            break;
        if (op >= SpvOpTypeVoid && op < SpvOpTypeForwardPointer && n >= 2 && w[o + 1] == id)
            return &w[o];
    }
    return NULL;
}

bool d3d12xs_spirv_cbuffer_member_name(const uint32_t *w, size_t count, const struct d3d12xs_cbuffer_problem *p,
        char *name, size_t name_size)
{
    uint32_t variable = 0, set = UINT32_MAX, binding = UINT32_MAX, type = 0;
    const uint32_t *def;
    const char *part;
    size_t used;

    if (!name_size)
        return false;
    name[0] = 0;
    /* the Uniform variable with the problem's set and binding */
    for (size_t o = 5, n; o < count && !type; o += n) {
        if (!(n = w[o] >> 16) || n > count - o || (w[o] & 0xffff) == SpvOpFunction)
            break;
        if ((w[o] & 0xffff) != SpvOpVariable || n < 4 || w[o + 3] != SpvStorageClassUniform)
            continue;
        variable = w[o + 2];
        set = binding = UINT32_MAX;
        for (size_t d = 5, m; d < count; d += m) {
            if (!(m = w[d] >> 16) || m > count - d || (w[d] & 0xffff) == SpvOpFunction)
                break;
            if ((w[d] & 0xffff) == SpvOpDecorate && m == 4 && w[d + 1] == variable) {
                if (w[d + 2] == SpvDecorationDescriptorSet)
                    set = w[d + 3];
                else if (w[d + 2] == SpvDecorationBinding)
                    binding = w[d + 3];
            }
        }
        if (set == p->set && binding == p->binding && (def = spirv_type(w, count, w[o + 1]))
                && (def[0] & 0xffff) == SpvOpTypePointer && (def[0] >> 16) == 4)
            type = def[3];
    }
    if (!type)
        return false;
    part = spirv_name(w, count, type, 0, false);
    snprintf(name, name_size, "%s", part && *part ? part : "(unnamed)");
    for (uint32_t i = 0; i < p->depth; i++) {
        /* through arrays to the struct */
        while ((def = spirv_type(w, count, type)) && (def[0] & 0xffff) == SpvOpTypeArray && (def[0] >> 16) == 4)
            type = def[2];
        if (!def || (def[0] & 0xffff) != SpvOpTypeStruct || p->path[i] + 2 >= (def[0] >> 16))
            return false;
        part = spirv_name(w, count, type, p->path[i], true);
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
