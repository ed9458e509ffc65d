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
 * The fixes are passes over the parsed module (spirv_module.h): fix 4 is in
 * spirv_structured_layout.c, fix 8 (run separately, it needs the preprocessed source) in
 * spirv_cbuffer_layout.c; new types and constants are the module's interned ones. Limits:
 * these fix the instructions that reach the module. glslang's front end
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

#include <spirv/unified1/spirv.h>
#include <spirv/unified1/GLSL.std.450.h>

#include "spirv/spirv.h"
#include "spirv/spirv_layout.h"
#include "spirv/spirv_passes.h"

/* Opcodes whose operand 3 (word 4: after result type, result id, scope) is a GroupOperation. */
static bool has_group_operation(uint32_t op)
{
    return (op >= SpvOpGroupIAdd && op <= SpvOpGroupSMax)
            || op == SpvOpGroupNonUniformBallotBitCount
            || (op >= SpvOpGroupNonUniformIAdd && op <= SpvOpGroupNonUniformLogicalXor)
            || (op >= SpvOpGroupIAddNonUniformAMD && op <= SpvOpGroupSMaxNonUniformAMD)
            || (op >= SpvOpGroupIMulKHR && op <= SpvOpGroupLogicalXorKHR);
}

#define SITE_MAX_WORDS 96 /* the longest replacement below (a 4-column matrix product: 67 words) */

struct fixup {
    struct d3d12xs_spirv_module *m;
    uint32_t refused_matrix;   /* result id of a matrix product of two shapes (fix 5 refuses it) */
};

/* What a signed remainder of result type `type` needs. */
struct remainder_types {
    uint32_t type, unsigned_type, bool_type, zero;
};

/* The type id defines (among the module's globals), or NULL. */
static const uint32_t *type_def(const struct fixup *f, uint32_t id)
{
    const struct d3d12xs_spirv_inst *def = d3d12xs_spirv_def(f->m, id);
    uint32_t op = def ? d3d12xs_spirv_op(def) : 0;
    return def && def->section == D3D12XS_SPIRV_GLOBALS && op >= SpvOpTypeVoid && op <= SpvOpTypeForwardPointer ? def->w : NULL;
}

/* The result type of id, 0 if none. */
static uint32_t type_of(const struct fixup *f, uint32_t id)
{
    const struct d3d12xs_spirv_inst *def = d3d12xs_spirv_def(f->m, id);
    return def && d3d12xs_spirv_result_type_index(d3d12xs_spirv_op(def)) && d3d12xs_spirv_len(def) >= 3 ? def->w[1] : 0;
}

/* A type `op operands...`: the module's (SPIR-V forbids two declarations of one non-aggregate
 * type), or a new one. 0 when out of memory. */
static uint32_t get_type(struct fixup *f, uint32_t op, const uint32_t *operands, uint32_t operand_count)
{
    uint32_t words[4] = {op};
    if (operand_count)
        memcpy(&words[2], operands, operand_count * 4);
    return d3d12xs_spirv_global(f->m, words, 2 + operand_count, 1);
}

/* Finds (adding what is missing) the types and the zero that a signed remainder of result type
 * `type` needs; false when `type` is no signed integer scalar or vector (then the
 * instruction is left alone) or when out of memory. */
static bool remainder_types(struct fixup *f, uint32_t type, struct remainder_types *t)
{
    const uint32_t *def = type_def(f, type), *scalar = def;
    uint32_t components = 0, operands[2], null[3] = {SpvOpConstantNull, type, 0};

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
    /* OpConstantNull %type: zero of any scalar or vector type */
    return (t->zero = d3d12xs_spirv_global(f->m, null, 3, 2)) != 0;
}

static uint32_t *put(uint32_t *o, uint32_t op, uint32_t length, uint32_t a, uint32_t b, uint32_t c, uint32_t d, uint32_t e)
{
    const uint32_t operands[5] = {a, b, c, d, e};
    o[0] = (length << 16) | op;
    memcpy(&o[1], operands, (length - 1) * 4);
    return o + length;
}

static uint32_t new_id(struct fixup *f)
{
    return d3d12xs_spirv_new_id(f->m);
}

/* The C-style signed remainder result = a % b (fix 3), ending with the original result id. */
static uint32_t *put_remainder(uint32_t *o, struct fixup *f, const struct remainder_types *t, uint32_t result,
        uint32_t a, uint32_t b)
{
    uint32_t ca = new_id(f), cb = new_id(f), na = new_id(f), nb = new_id(f), aa = new_id(f), ab = new_id(f);
    uint32_t ua = new_id(f), ub = new_id(f), um = new_id(f), m = new_id(f), nm = new_id(f);

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
    uint32_t words[8] = {SpvOpConstant, scalar, 0}, id;
    memcpy(&words[3], value, value_words * 4);
    if (!(id = d3d12xs_spirv_global(f->m, words, 3 + value_words, 2)) || components == 1)
        return id;
    if (components > 4)
        return 0;
    words[0] = SpvOpConstantComposite;
    words[1] = type;
    for (uint32_t c = 0; c < components; c++)
        words[3 + c] = id;
    return d3d12xs_spirv_global(f->m, words, 3 + components, 2);
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
            || !d3d12xs_spirv_def(f->m, in[3]) || !d3d12xs_spirv_def(f->m, in[4]))
        return 0;
    if (type_of(f, in[3]) != in[1] || type_of(f, in[4]) != in[1]) {
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
    {
        const struct d3d12xs_spirv_inst *count = d3d12xs_spirv_def_op(f->m, in[4], SpvOpConstant, 4);
        if (count && d3d12xs_spirv_len(count) == 4)
            return count->w[3] < 32 ? 0 : 10;
    }
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
    const struct d3d12xs_spirv_inst *operand;
    if ((op != SpvOpConvertFToS && op != SpvOpConvertFToU) || (in[0] >> 16) != 4 || !(operand = d3d12xs_spirv_def(f->m, in[3])))
        return 0;
    scalar = scalar_of(f, in[1], &components);
    if (!is_int32(scalar) || !(site->float_type = type_of(f, in[3])))
        return 0;
    float_scalar = scalar_of(f, site->float_type, &float_components);
    if (!float_scalar || (float_scalar[0] & 0xffff) != SpvOpTypeFloat || (float_scalar[0] >> 16) != 3
            || float_components != components || (float_scalar[2] != 32 && float_scalar[2] != 64))
        return 0;
    site->sign_type = 0;
    if (!is_signed && d3d12xs_spirv_op(operand) == SpvOpExtInst && d3d12xs_spirv_len(operand) == 6
            && operand->w[4] == 6 /* GLSL.std.450 FSign */) {
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
    {
        const struct d3d12xs_spirv_inst *divisor = d3d12xs_spirv_def_op(f->m, in[4], SpvOpConstant, 4);
        if (divisor && d3d12xs_spirv_len(divisor) == 4 && divisor->w[3])
            return 0;
    }
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
            uint32_t a = new_id(f), b = new_id(f);
            o = put(o, SpvOpCompositeExtract, 5, column_type, a, in[3], c, 0);
            o = put(o, SpvOpCompositeExtract, 5, column_type, b, in[4], c, 0);
            o = put(o, SpvOpFMul, 5, column_type, products[c] = new_id(f), a, b, 0);
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
        masked = new_id(f);
        o = put(o, SpvOpBitwiseAnd, 5, in[1], masked, in[4], shift.mask, 0);
        put(o, in[0] & 0xffff, 5, in[1], in[2], in[3], masked, 0);
        counts->shift++;
        return words;
    }
    if ((words = udiv_words(f, in, &udiv))) {
        uint32_t is_zero, safe, quotient;
        if (!o)
            return words;
        is_zero = new_id(f), safe = new_id(f), quotient = new_id(f);
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
            converted = new_id(f);
            o = put(o, SpvOpConvertFToS, 4, convert.sign_type, converted, in[3], 0, 0);
            put(o, SpvOpBitcast, 4, in[1], in[2], converted, 0, 0);
            counts->conversion++;
            return words;
        }
        low = new_id(f), high = new_id(f), nan = new_id(f), out_of_range = new_id(f), bad = new_id(f);
        safe = new_id(f), converted = new_id(f), clamped = new_id(f);
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
 * constants go just before a Private variable, or at the end of the globals. */
static bool zeroed_variable(const struct d3d12xs_spirv_inst *inst)
{
    return d3d12xs_spirv_op(inst) == SpvOpVariable && d3d12xs_spirv_len(inst) == 4
            && (inst->w[3] == SpvStorageClassPrivate || inst->w[3] == SpvStorageClassFunction);
}

/* A type OpConstantNull can zero here: numbers, bools, and vectors, matrices, arrays and
 * structs of them (not images, samplers or pointers, which a local may hold before
 * legalisation). */
static bool zeroable(const struct fixup *f, uint32_t type, unsigned depth)
{
    const uint32_t *def = type_def(f, type);
    uint32_t n = def ? def[0] >> 16 : 0;
    if (!def || depth > LAYOUT_MAX_DEPTH)
        return false;
    switch (def[0] & 0xffff) {
    case SpvOpTypeBool: case SpvOpTypeInt: case SpvOpTypeFloat:
        return true;
    case SpvOpTypeVector: case SpvOpTypeMatrix: case SpvOpTypeArray:
        return n >= 3 && zeroable(f, def[2], depth + 1);
    case SpvOpTypeStruct:
        for (uint32_t m = 2; m < n; m++)
            if (!zeroable(f, def[m], depth + 1))
                return false;
        return true;
    default:
        return false;
    }
}

/* The zeroable pointee of a Private or Function pointer type, else 0. */
static uint32_t zeroed_pointee(const struct fixup *f, uint32_t pointer_type)
{
    const struct d3d12xs_spirv_inst *pointer = d3d12xs_spirv_def_op(f->m, pointer_type, SpvOpTypePointer, 4);
    if (!pointer || d3d12xs_spirv_len(pointer) != 4 || pointer->section != D3D12XS_SPIRV_GLOBALS
            || (pointer->w[2] != SpvStorageClassPrivate && pointer->w[2] != SpvStorageClassFunction)
            || !zeroable(f, pointer->w[3], 0))
        return 0;
    return pointer->w[3];
}

static HRESULT zero_private_variables(struct fixup *f, unsigned *changed)
{
    struct d3d12xs_spirv_module *m = f->m;
    uint32_t *null_of, bound = m->bound; /* null_of: pointee type -> its OpConstantNull, for ids below bound */

    *changed = 0;
    if (!(null_of = calloc(bound, sizeof(*null_of))))
        return E_OUTOFMEMORY;
    for (int pass = 0; pass < 2; pass++) {
        enum d3d12xs_spirv_section section = pass ? D3D12XS_SPIRV_FUNCTIONS : D3D12XS_SPIRV_GLOBALS;
        for (size_t i = 0; i < m->sections[section].count && !m->out_of_memory; i++) {
            struct d3d12xs_spirv_inst *inst = m->sections[section].at[i];
            uint32_t pointee, variable[5];
            if (!zeroed_variable(inst) || !(pointee = zeroed_pointee(f, inst->w[1])) || pointee >= bound)
                continue;
            if (!null_of[pointee]) {
                /* a Private variable: just before it; a Function one: at the end of the globals */
                uint32_t null[3] = {SpvOpConstantNull, pointee, new_id(f)};
                if (!null[2])
                    break;
                d3d12xs_spirv_insert(m, D3D12XS_SPIRV_GLOBALS, pass ? m->sections[D3D12XS_SPIRV_GLOBALS].count : i++, null, 3);
                null_of[pointee] = null[2];
            }
            memcpy(variable, inst->w, 4 * 4);
            variable[4] = null_of[pointee];
            d3d12xs_spirv_rewrite(m, inst, variable, 5);
            ++*changed;
        }
    }
    free(null_of);
    return m->out_of_memory ? E_OUTOFMEMORY : S_OK;
}

/* Replaces the instruction at index of the functions by the `count` words at code, whose last
 * instruction has its result id; returns how many instructions went in before it. */
static size_t replace_instruction(struct d3d12xs_spirv_module *m, size_t index, const uint32_t *code, size_t count)
{
    struct d3d12xs_spirv_inst *inst = m->sections[D3D12XS_SPIRV_FUNCTIONS].at[index];
    size_t inserted = 0, at = 0;
    while (at + (code[at] >> 16) < count) {
        d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, index + inserted++, &code[at], code[at] >> 16);
        at += code[at] >> 16;
    }
    d3d12xs_spirv_rewrite(m, inst, &code[at], code[at] >> 16);
    return inserted;
}

static bool is_glsl_set(const struct d3d12xs_spirv_module *m, uint32_t id)
{
    const struct d3d12xs_spirv_inst *def = d3d12xs_spirv_def_op(m, id, SpvOpExtInstImport, 3);
    const char *name;
    return def && d3d12xs_spirv_inst_string(def, 2, &name, NULL) && !strcmp(name, "GLSL.std.450");
}

HRESULT d3d12xs_spirv_pass_fixup(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_fixup_args *args,
        char *error, size_t error_size)
{
    struct d3d12xs_spirv_list *functions = &m->sections[D3D12XS_SPIRV_FUNCTIONS];
    struct d3d12xs_fixup_counts local = {0};
    struct remainder_types types;
    struct fixup f;
    HRESULT hr;

    if (error && error_size)
        error[0] = 0;
    if (args->counts)
        memset(args->counts, 0, sizeof(*args->counts));
    memset(&f, 0, sizeof(f));
    f.m = m;
    /* fix 5 refuses a product of matrices of two shapes before anything changes */
    for (size_t i = 0; i < functions->count && !f.refused_matrix; i++) {
        uint32_t columns;
        matrix_words(&f, functions->at[i]->w, &columns);
    }
    if (f.refused_matrix)
        return d3d12xs_write_error(E_FAIL, error, error_size, "a product of matrices of different shapes "
                "(result id %u): HLSL's `*` of two matrices is per component and needs one shape; mul() of "
                "matrices is supported for float and double matrices of 2 to 4 rows and columns",
                f.refused_matrix);
    for (size_t i = 0; i < functions->count && !m->out_of_memory; i++) {
        struct d3d12xs_spirv_inst *inst = functions->at[i];
        uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst), code[SITE_MAX_WORDS], *w = inst->w;
        size_t words;

        if (is_signed_remainder(op, n) && remainder_types(&f, w[1], &types)) {
            words = put_remainder(code, &f, &types, w[2], w[3], w[4]) - code;
            i += replace_instruction(m, i, code, words);
            local.smod++;
        } else if ((words = fix_site(&f, w, NULL, &local))) {
            fix_site(&f, w, code, &local);
            i += replace_instruction(m, i, code, words);
        } else if (op == SpvOpFMod) {
            w[0] = (w[0] & 0xffff0000u) | SpvOpFRem;
            local.fmod++;
        } else if (has_group_operation(op) && n >= 5 && w[4] == SpvGroupOperationInclusiveScan) {
            w[4] = SpvGroupOperationExclusiveScan;
            local.inclusive_scan++;
        } else if (op == SpvOpExtInst && n >= 5 && is_glsl_set(m, w[3])
                && (w[4] == GLSLstd450FMin || w[4] == GLSLstd450FMax || w[4] == GLSLstd450FClamp)) {
            w[4] = w[4] == GLSLstd450FMin ? GLSLstd450NMin : w[4] == GLSLstd450FMax ? GLSLstd450NMax : GLSLstd450NClamp;
            local.nan_min_max++;
        }
    }
    if (m->out_of_memory)
        return d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory");
    if ((args->flags & D3D12XS_FIXUP_SCALAR_LAYOUT)
            && FAILED(hr = d3d12xs_spirv_structured_scalar_layout(m, &local.layout, error, error_size))) {
        if (hr == E_OUTOFMEMORY)
            d3d12xs_write_error(hr, error, error_size, "out of memory");
        return hr;
    }
    if (FAILED(hr = zero_private_variables(&f, &local.statics)))
        return d3d12xs_write_error(hr, error, error_size, "out of memory");
    if (args->counts)
        *args->counts = local;
    return S_OK;
}

HRESULT d3d12xs_spirv_fixup_hlsl(const uint32_t *w, size_t count, unsigned flags, uint32_t **out_words,
        size_t *out_count, struct d3d12xs_fixup_counts *counts, char *error, size_t error_size)
{
    const struct d3d12xs_spirv_fixup_args args = {flags, counts};
    struct d3d12xs_spirv_module *m;
    uint32_t *words;
    size_t walkable, n, emitted;
    HRESULT hr;

    if (error && error_size)
        error[0] = 0;
    *out_words = NULL;
    *out_count = 0;
    if (counts)
        memset(counts, 0, sizeof(*counts));
    if (count < 5)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "%zu words are no SPIR-V module", count);
    /* A malformed module (length 0 or past the end) is only fixed up to the bad instruction;
     * it is copied unchanged from there, for reflection to refuse. */
    for (walkable = 5; walkable < count; walkable += n)
        if (!(n = w[walkable] >> 16) || n > count - walkable)
            break;
    if (FAILED(hr = d3d12xs_spirv_module_parse(w, walkable * 4, &m, error, error_size)))
        return hr == E_OUTOFMEMORY ? hr : E_INVALIDARG;
    if (SUCCEEDED(hr = d3d12xs_spirv_pass_fixup(m, &args, error, error_size))
            && FAILED(hr = d3d12xs_spirv_module_emit(m, &words, &emitted)))
        d3d12xs_write_error(hr, error, error_size, "out of memory");
    d3d12xs_spirv_module_destroy(m);
    if (FAILED(hr))
        return hr;
    if (walkable < count) {
        uint32_t *bigger = realloc(words, (emitted + count - walkable) * sizeof(*bigger));
        if (!bigger) {
            free(words);
            return d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory");
        }
        words = bigger;
        memcpy(&words[emitted], &w[walkable], (count - walkable) * sizeof(*words));
        emitted += count - walkable;
    }
    *out_words = words;
    *out_count = emitted;
    return S_OK;
}
