/* SPIR-V for root descriptors of the memory-based ABI (root signatures with
 * FORCE_MEMORY_BASED_ABI / RAYTRACING): each root CBV, SRV or UAV variable goes; the functions
 * that use it load its D3D12 virtual address from the root argument buffer, translate it
 * through the device's GPU virtual address table (memory/va_map.h) and reach its memory
 * through a PhysicalStorageBuffer pointer instead.
 *
 * The root argument buffer (a uniform buffer at set/binding, written per dispatch by
 * command_list_arguments.c) holds at table_offset one 16-byte entry per root descriptor:
 * VA low, VA high, the address table's device address low, high. The rewrite adds a variable
 * for that table (it aliases the binding of the root constants' block, whose members end
 * before table_offset):
 *
 *   %table = OpVariable %ptr_Uniform_struct{uvec4[count]} Uniform
 *
 * and at the start of each function using root variable %v of slot k:
 *
 *   %entry = OpLoad %uvec4 (OpAccessChain %table 0 k);  va, table = the two 64-bit halves
 *   l2 = u64 at table + ((va >> 32) & 0xffff) * 8
 *   e = l2 ? l2 + ((va >> 16) & 0xffff) * 32 : table + zero_offset
 *   start, size, base = u64 at e, e + 8, e + 16;  off = va - start
 *   %p = OpConvertUToPtr %ptr_PSB_S (off < size ? base + off : table + scratch_offset)
 *   %size = off < size ? min(size - off, 0xffffffff) : 0
 *
 * so an address of no live range (released, in a guard gap, garbage) reaches the scratch
 * area with size 0 instead of faulting; no branch is added, so the function's blocks stay
 * as they were (OpPhi operands and all).
 *
 * Access chains on %v (and on those chains) then start from %p and get PhysicalStorageBuffer
 * result types; loads and stores through them get an Aligned operand (the smallest scalar
 * size in the accessed type, at most 4: scalar layout puts 64-bit members on 4-byte offsets);
 * OpArrayLength %v m becomes (%size - offset of member m) / its array stride. Atomics need
 * nothing more. Any other use of a root variable or of a chain made from it (a pointer
 * passed to a function, copied or selected) is refused: glslang's HLSL output has none.
 *
 * ExecuteIndirect's variant (push_offsets) reads each entry from four uint members of the
 * push-constant block instead (SPIR-V allows one such block per entry point: the module's own
 * is extended) and adds no table variable; the rest is the same. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "spirv/spirv.h"
#include "spirv/spirv_passes.h"
#include "spirv/spirv_psb.h"
#include "spirv/spirv_push_block.h"

#define MAX_ROOT_POINTERS 64

struct array_length {
    uint32_t offset, stride; /* of the runtime array member */
};

struct root_rewrite {
    struct d3d12xs_spirv_module *m;
    uint32_t bound;        /* of the module before the rewrite: the tables below cover these ids */
    uint8_t *slot;         /* id -> slot + 1 of a root variable, 0 otherwise */
    uint32_t *pointee;     /* id -> the pointee type of a root variable or of a chain made from one */
    uint64_t *uses;        /* per function: bit per slot it uses directly */
    size_t function_count;
    struct array_length *lengths; /* per OpArrayLength of a root variable, in module order */
    size_t length_count;
    const uint32_t *variables; /* slot -> root variable */
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

static bool tracked(const struct root_rewrite *r, uint32_t id)
{
    return id < r->bound && r->pointee[id];
}

static uint32_t slot_of(const struct root_rewrite *r, uint32_t id)
{
    return id < r->bound ? r->slot[id] : 0;
}

static HRESULT fail(struct root_rewrite *r, const char *format, ...) __attribute__((format(printf, 2, 3)));

static HRESULT fail(struct root_rewrite *r, const char *format, ...)
{
    char text[256];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof(text), format, args);
    va_end(args);
    return d3d12xs_write_error(E_INVALIDARG, r->error, r->error_size, "%s", text);
}

static bool mark_pointer(struct root_rewrite *r, uint32_t result, uint32_t pointer_type)
{
    const struct d3d12xs_spirv_inst *def = d3d12xs_spirv_def_op(r->m, pointer_type, SpvOpTypePointer, 4);
    if (!def || result >= r->bound)
        return false;
    r->pointee[result] = def->w[3];
    return true;
}

/* Pass 1: the root variables' pointee types, every use of them. */
static HRESULT scan(struct root_rewrite *r)
{
    const struct d3d12xs_spirv_inst *inst;
    size_t function = 0;
    HRESULT hr;

    if (FAILED(hr = d3d12xs_spirv_check_addressing(r->m, r->error, r->error_size)))
        return hr;
    for (D3D12XS_SPIRV_EACH(r->m, D3D12XS_SPIRV_GLOBALS, i, inst)) {
        const uint32_t *in = inst->w;
        if (d3d12xs_spirv_op(inst) == SpvOpVariable && d3d12xs_spirv_len(inst) >= 4 && slot_of(r, in[2])) {
            if (in[3] != SpvStorageClassUniform && in[3] != SpvStorageClassStorageBuffer)
                return fail(r, "root descriptor variable %u has storage class %u", in[2], in[3]);
            if (!mark_pointer(r, in[2], in[1]))
                return fail(r, "root descriptor variable %u has no pointer type (%u)", in[2], in[1]);
        }
    }
    for (D3D12XS_SPIRV_EACH(r->m, D3D12XS_SPIRV_FUNCTIONS, i, inst)) {
        const uint32_t *in = inst->w;
        uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst);
        if (op == SpvOpFunction) {
            function = r->function_count++;
            continue;
        }
        if (op == SpvOpLine || op == SpvOpNoLine)
            continue;
        if ((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain || op == SpvOpPtrAccessChain) && n >= 4 && tracked(r, in[3])) {
            if (slot_of(r, in[3]))
                r->uses[function] |= 1ull << (slot_of(r, in[3]) - 1);
            if (!mark_pointer(r, in[2], in[1]))
                return fail(r, "access chain %u has no pointer type (%u)", in[2], in[1]);
            for (uint32_t k = 4; k < n; k++)
                if (tracked(r, in[k]))
                    return fail(r, "access chain %u indexes with root descriptor pointer %u", in[2], in[k]);
            continue;
        }
        if (op == SpvOpArrayLength && n == 5 && tracked(r, in[3])) {
            uint32_t s = r->pointee[in[3]];
            const struct d3d12xs_spirv_inst *so = d3d12xs_spirv_def_op(r->m, s, SpvOpTypeStruct, 2);
            struct array_length *length;
            if (!slot_of(r, in[3]) || !so || 2 + in[4] >= d3d12xs_spirv_len(so))
                return fail(r, "OpArrayLength %u of root descriptor pointer %u is not of a buffer variable", in[2], in[3]);
            r->uses[function] |= 1ull << (slot_of(r, in[3]) - 1);
            if (!(r->length_count % 16)) {
                struct array_length *bigger = realloc(r->lengths, (r->length_count + 16) * sizeof(*bigger));
                if (!bigger)
                    return E_OUTOFMEMORY;
                r->lengths = bigger;
            }
            length = &r->lengths[r->length_count++];
            if (!d3d12xs_spirv_member_decoration(r->m, s, in[4], SpvDecorationOffset, &length->offset)
                    || !d3d12xs_spirv_decoration(r->m, so->w[2 + in[4]], SpvDecorationArrayStride, &length->stride) || !length->stride)
                return fail(r, "OpArrayLength %u: member %u of the buffer has no offset or array stride", in[2], in[4]);
            continue;
        }
        if ((op == SpvOpLoad && n >= 4) || (is_atomic_on_pointer_at_3(op) && n >= 4)) {
            if (slot_of(r, in[3]))
                r->uses[function] |= 1ull << (slot_of(r, in[3]) - 1);
        } else if ((op == SpvOpStore || op == SpvOpAtomicStore) && n >= 3) {
            if (slot_of(r, in[1]))
                r->uses[function] |= 1ull << (slot_of(r, in[1]) - 1);
            if (op == SpvOpStore && tracked(r, in[2]))
                return fail(r, "root descriptor pointer %u is stored as a value", in[2]);
        } else {
            for (uint32_t k = first_pointer_operand(op); k < n; k++)
                if (tracked(r, in[k]))
                    return fail(r, "root descriptor pointer %u is used by instruction %u, which the memory-based ABI's rewrite "
                            "does not handle", in[k], op);
        }
    }
    if (!r->function_count)
        return fail(r, "the module has no function");
    return S_OK;
}

struct globals {
    uint32_t u32, u64, uvec4, c32, array, block, block_ptr, entry_ptr, table;
    uint32_t boolean, psb_u64, c0, c8, c16, c_page, c_max32, c_zero, c_scratch; /* of the translation */
    uint32_t index[MAX_ROOT_POINTERS]; /* u32 constants 0 .. count - 1 */
    /* push_offsets: the push-constant block's variable, its uint pointer type, and per slot the
     * member index constants of the entry's four words */
    uint32_t push_variable, push_pointer, push_members[MAX_ROOT_POINTERS][4];
};

/* The table's types, constants, variable and decorations. Scalar, vector and pointer types
 * are the module's own where it has them (SPIR-V forbids duplicates); the array and the block
 * are new, as they carry the table's own layout. */
static void add_table(struct root_rewrite *r, struct globals *g, const struct d3d12xs_spirv_root_pointers_args *args)
{
    struct d3d12xs_spirv_module *m = r->m;
    uint32_t vector[4] = {SpvOpTypeVector, 0, 0, 4}, length;

    memset(g, 0, sizeof(*g));
    g->u32 = d3d12xs_spirv_type_int(m, 32, 0);
    g->u64 = d3d12xs_spirv_type_int(m, 64, 0);
    vector[2] = g->u32;
    g->uvec4 = d3d12xs_spirv_global(m, vector, 4, 1);
    g->entry_ptr = d3d12xs_spirv_type_pointer(m, SpvStorageClassUniform, g->uvec4);
    for (uint32_t k = 0; k < args->count; k++)
        g->index[k] = d3d12xs_spirv_constant(m, g->u32, k);
    length = d3d12xs_spirv_constant(m, g->u32, args->count);
    g->c32 = d3d12xs_spirv_constant64(m, g->u64, 32);
    {
        uint32_t boolean[2] = {SpvOpTypeBool, 0};
        g->boolean = d3d12xs_spirv_global(m, boolean, 2, 1);
    }
    g->psb_u64 = d3d12xs_spirv_type_pointer(m, SpvStorageClassPhysicalStorageBuffer, g->u64);
    g->c0 = d3d12xs_spirv_constant64(m, g->u64, 0);
    g->c8 = d3d12xs_spirv_constant64(m, g->u64, 8);
    g->c16 = d3d12xs_spirv_constant64(m, g->u64, 16);
    g->c_page = d3d12xs_spirv_constant64(m, g->u64, 0xffff);
    g->c_max32 = d3d12xs_spirv_constant64(m, g->u64, UINT32_MAX);
    g->c_zero = d3d12xs_spirv_constant64(m, g->u64, args->zero_offset);
    g->c_scratch = d3d12xs_spirv_constant64(m, g->u64, args->scratch_offset);
    if (args->push_offsets)
        return;
    g->array = d3d12xs_spirv_new_id(m);
    g->block = d3d12xs_spirv_new_id(m);
    g->table = d3d12xs_spirv_new_id(m);
    {
        uint32_t array[4] = {SpvOpTypeArray, g->array, g->uvec4, length};
        uint32_t block[3] = {SpvOpTypeStruct, g->block, g->array};
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, array, 4);
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, block, 3);
        g->block_ptr = d3d12xs_spirv_type_pointer(m, SpvStorageClassUniform, g->block);
    }
    {
        uint32_t variable[4] = {SpvOpVariable, g->block_ptr, g->table, SpvStorageClassUniform};
        uint32_t d[] = {
            (4u << 16) | SpvOpDecorate, g->array, SpvDecorationArrayStride, 16,
            (5u << 16) | SpvOpMemberDecorate, g->block, 0, SpvDecorationOffset, args->table_offset,
            (3u << 16) | SpvOpDecorate, g->block, SpvDecorationBlock,
            (4u << 16) | SpvOpDecorate, g->table, SpvDecorationDescriptorSet, args->set,
            (4u << 16) | SpvOpDecorate, g->table, SpvDecorationBinding, args->binding,
        };
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, variable, 4);
        for (uint32_t at = 0; at < sizeof(d) / 4; at += d[at] >> 16)
            d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, &d[at], d[at] >> 16);
    }
}

/* push_offsets: the push-constant members of each slot's entry. */
static HRESULT add_push_entries(struct root_rewrite *r, struct globals *g, const struct d3d12xs_spirv_root_pointers_args *args)
{
    struct d3d12xs_spirv_push_member member;
    HRESULT hr;

    for (uint32_t k = 0; k < args->count; k++)
        for (uint32_t w = 0; w < 4; w++) {
            if (FAILED(hr = d3d12xs_spirv_push_member(r->m, args->push_offsets[k] + 4 * w, &member, r->error, r->error_size)))
                return hr;
            g->push_variable = member.variable;
            g->push_pointer = member.pointer;
            g->push_members[k][w] = d3d12xs_spirv_constant(r->m, g->u32, member.member);
        }
    return r->m->out_of_memory ? E_OUTOFMEMORY : S_OK;
}

/* Instructions of a prologue being built (one result each but for none here). */
struct code {
    struct d3d12xs_spirv_module *m;
    uint32_t words[512];
    uint32_t length;
};

/* Appends opcode with result type type, a new result id (returned) and count operands. */
static uint32_t emit(struct code *c, uint32_t opcode, uint32_t type, uint32_t count, ...)
{
    uint32_t result = d3d12xs_spirv_new_id(c->m);
    va_list args;
    if (c->length + 3 + count > sizeof(c->words) / 4)
        return result; /* never: a prologue is about 40 instructions of at most 6 words */
    c->words[c->length++] = ((3 + count) << 16) | opcode;
    c->words[c->length++] = type;
    c->words[c->length++] = result;
    va_start(args, count);
    for (uint32_t k = 0; k < count; k++)
        c->words[c->length++] = va_arg(args, uint32_t);
    va_end(args);
    return result;
}

static uint32_t join64(struct code *c, const struct globals *g, uint32_t lo, uint32_t hi)
{
    uint32_t a = emit(c, SpvOpUConvert, g->u64, 1, lo), b = emit(c, SpvOpUConvert, g->u64, 1, hi);
    return emit(c, SpvOpBitwiseOr, g->u64, 2, emit(c, SpvOpShiftLeftLogical, g->u64, 2, b, g->c32), a);
}

static uint32_t load64(struct code *c, const struct globals *g, uint32_t address)
{
    uint32_t pointer = emit(c, SpvOpConvertUToPtr, g->psb_u64, 1, address);
    return emit(c, SpvOpLoad, g->u64, 3, pointer, (uint32_t)SpvMemoryAccessAlignedMask, 8u);
}

/* Inserts at index of the functions the translations of the slots in uses (see the file
 * comment); returns how many instructions it inserted. */
static size_t add_prologue(struct root_rewrite *r, const struct globals *g, size_t index, uint64_t uses, uint32_t *pointers,
        uint32_t *sizes)
{
    struct d3d12xs_spirv_module *m = r->m;
    size_t inserted = 0;

    for (uint32_t k = 0; uses >> k; k++) {
        struct code c = {m, {0}, 0};
        uint32_t e, v, va, table, l2, present, entry, start, size, off, ok, remaining, clamped, psb;
        if (!(uses >> k & 1))
            continue;
        psb = d3d12xs_spirv_type_pointer(m, SpvStorageClassPhysicalStorageBuffer, r->pointee[r->variables[k]]);
        if (g->push_variable) {
            uint32_t words[4];
            for (uint32_t w = 0; w < 4; w++)
                words[w] = emit(&c, SpvOpLoad, g->u32, 1, emit(&c, SpvOpAccessChain, g->push_pointer, 2, g->push_variable, g->push_members[k][w]));
            va = join64(&c, g, words[0], words[1]);
            table = join64(&c, g, words[2], words[3]);
        } else {
            e = emit(&c, SpvOpAccessChain, g->entry_ptr, 3, g->table, g->index[0], g->index[k]);
            v = emit(&c, SpvOpLoad, g->uvec4, 1, e);
            va = join64(&c, g, emit(&c, SpvOpCompositeExtract, g->u32, 2, v, 0u), emit(&c, SpvOpCompositeExtract, g->u32, 2, v, 1u));
            table = join64(&c, g, emit(&c, SpvOpCompositeExtract, g->u32, 2, v, 2u), emit(&c, SpvOpCompositeExtract, g->u32, 2, v, 3u));
        }
        l2 = load64(&c, g, emit(&c, SpvOpIAdd, g->u64, 2, table, emit(&c, SpvOpIMul, g->u64, 2,
                emit(&c, SpvOpBitwiseAnd, g->u64, 2, emit(&c, SpvOpShiftRightLogical, g->u64, 2, va, g->c32), g->c_page), g->c8)));
        present = emit(&c, SpvOpINotEqual, g->boolean, 2, l2, g->c0);
        entry = emit(&c, SpvOpSelect, g->u64, 3, present,
                emit(&c, SpvOpIAdd, g->u64, 2, l2, emit(&c, SpvOpIMul, g->u64, 2,
                        emit(&c, SpvOpBitwiseAnd, g->u64, 2, emit(&c, SpvOpShiftRightLogical, g->u64, 2, va, g->c16), g->c_page), g->c32)),
                emit(&c, SpvOpIAdd, g->u64, 2, table, g->c_zero));
        start = load64(&c, g, entry);
        size = load64(&c, g, emit(&c, SpvOpIAdd, g->u64, 2, entry, g->c8));
        off = emit(&c, SpvOpISub, g->u64, 2, va, start);
        ok = emit(&c, SpvOpULessThan, g->boolean, 2, off, size);
        pointers[k] = emit(&c, SpvOpConvertUToPtr, psb, 1, emit(&c, SpvOpSelect, g->u64, 3, ok,
                emit(&c, SpvOpIAdd, g->u64, 2, load64(&c, g, emit(&c, SpvOpIAdd, g->u64, 2, entry, g->c16)), off),
                emit(&c, SpvOpIAdd, g->u64, 2, table, g->c_scratch)));
        remaining = emit(&c, SpvOpISub, g->u64, 2, size, off);
        clamped = emit(&c, SpvOpSelect, g->u64, 3, emit(&c, SpvOpUGreaterThan, g->boolean, 2, remaining, g->c_max32), g->c_max32, remaining);
        sizes[k] = emit(&c, SpvOpUConvert, g->u32, 1, emit(&c, SpvOpSelect, g->u64, 3, ok, clamped, g->c0));
        for (uint32_t at = 0; at < c.length; at += c.words[at] >> 16)
            d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, index + inserted++, &c.words[at], c.words[at] >> 16);
    }
    return inserted;
}

static bool is_root_variable(uint32_t id, void *context)
{
    const struct root_rewrite *r = context;
    return slot_of(r, id) != 0;
}

/* The root variables, their names and decorations go; the table joins the interface. */
static void remove_variables(struct root_rewrite *r, const struct globals *g)
{
    struct d3d12xs_spirv_module *m = r->m;
    struct d3d12xs_spirv_inst *inst;

    d3d12xs_spirv_remove_variables(m, is_root_variable, r);
    if (m->version >= 0x10400 && g->table) {
        /* SPIR-V 1.4 and later list every global variable an entry point uses */
        for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ENTRY_POINTS, i, inst))
            d3d12xs_spirv_append_operand(m, inst, g->table);
    }
}

/* Pass 2. */
static void rewrite(struct root_rewrite *r, const struct globals *g)
{
    struct d3d12xs_spirv_module *m = r->m;
    struct d3d12xs_spirv_list *functions = &m->sections[D3D12XS_SPIRV_FUNCTIONS];
    uint32_t pointers[MAX_ROOT_POINTERS] = {0}, sizes[MAX_ROOT_POINTERS] = {0};
    bool prologue_pending = false, prologue_done = false;
    size_t function = 0, length = 0;

    for (size_t i = 0; i < functions->count && !m->out_of_memory; i++) {
        struct d3d12xs_spirv_inst *inst = functions->at[i];
        uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst), copy[64];
        const uint32_t *in = inst->w;

        if (op == SpvOpFunction) {
            memset(pointers, 0, sizeof(pointers));
            prologue_pending = prologue_done = false;
            function++;
            continue;
        }
        if (op == SpvOpLabel && r->uses[function - 1] && !prologue_done) {
            prologue_pending = prologue_done = true;
            continue;
        }
        if (prologue_pending && op != SpvOpVariable && op != SpvOpLine && op != SpvOpNoLine) {
            i += add_prologue(r, g, i, r->uses[function - 1], pointers, sizes);
            prologue_pending = false;
        }
        if (n > 64)
            continue;
        memcpy(copy, in, n * 4);
        switch (op) {
        case SpvOpAccessChain:
        case SpvOpInBoundsAccessChain:
        case SpvOpPtrAccessChain:
            if (n >= 4 && tracked(r, in[3])) {
                copy[1] = d3d12xs_spirv_type_pointer(m, SpvStorageClassPhysicalStorageBuffer, r->pointee[in[2]]);
                if (slot_of(r, in[3]))
                    copy[3] = pointers[slot_of(r, in[3]) - 1];
                d3d12xs_spirv_rewrite(m, inst, copy, n);
            }
            break;
        case SpvOpLoad:
            if (n >= 4 && n <= 14 && tracked(r, in[3])) {
                uint32_t alignment = d3d12xs_spirv_psb_alignment(r->m, in[1]);
                if (slot_of(r, in[3]))
                    copy[3] = pointers[slot_of(r, in[3]) - 1];
                d3d12xs_spirv_rewrite(m, inst, copy, n);
                d3d12xs_spirv_set_aligned(m, inst, 4, alignment);
            }
            break;
        case SpvOpStore:
            if (n >= 3 && n <= 14 && tracked(r, in[1])) {
                uint32_t alignment = d3d12xs_spirv_psb_alignment(r->m, r->pointee[in[1]]);
                if (slot_of(r, in[1]))
                    copy[1] = pointers[slot_of(r, in[1]) - 1];
                d3d12xs_spirv_rewrite(m, inst, copy, n);
                d3d12xs_spirv_set_aligned(m, inst, 3, alignment);
            }
            break;
        case SpvOpArrayLength:
            if (n == 5 && slot_of(r, in[3])) {
                const struct array_length *l = &r->lengths[length++];
                uint32_t t = d3d12xs_spirv_new_id(m);
                uint32_t sub[5] = {SpvOpISub, in[1], t, sizes[slot_of(r, in[3]) - 1], d3d12xs_spirv_constant(m, g->u32, l->offset)};
                uint32_t div[5] = {SpvOpUDiv, in[1], in[2], t, d3d12xs_spirv_constant(m, g->u32, l->stride)};
                d3d12xs_spirv_rewrite(m, inst, div, 5);
                d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, i++, sub, 5);
            }
            break;
        default:
            if (is_atomic_on_pointer_at_3(op) || op == SpvOpAtomicStore) {
                uint32_t at = op == SpvOpAtomicStore ? 1 : 3;
                if (n > at && n <= 16 && slot_of(r, in[at])) {
                    copy[at] = pointers[slot_of(r, in[at]) - 1];
                    d3d12xs_spirv_rewrite(m, inst, copy, n);
                }
            }
            break;
        }
    }
}

HRESULT d3d12xs_spirv_pass_root_pointers(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_root_pointers_args *args,
        char *error, size_t error_size)
{
    struct root_rewrite r;
    struct globals g;
    HRESULT hr;

    memset(&r, 0, sizeof(r));
    r.m = m;
    r.error = error;
    r.error_size = error_size;
    r.variables = args->variables;
    if (!args->count)
        return S_OK;
    if (args->count > MAX_ROOT_POINTERS - 1 || (!args->push_offsets && args->table_offset % 16))
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the module or the root descriptor table is invalid");
    r.bound = m->bound;
    if (!(r.slot = calloc(r.bound, 1)) || !(r.pointee = calloc(r.bound, sizeof(*r.pointee)))
            || !(r.uses = calloc(m->sections[D3D12XS_SPIRV_FUNCTIONS].count + 1, sizeof(*r.uses)))) {
        hr = E_OUTOFMEMORY;
        goto done;
    }
    for (uint32_t k = 0; k < args->count; k++) {
        if (args->variables[k] >= r.bound || r.slot[args->variables[k]]) {
            hr = d3d12xs_write_error(E_INVALIDARG, error, error_size, "root descriptor variable %u is invalid", args->variables[k]);
            goto done;
        }
        r.slot[args->variables[k]] = (uint8_t)(k + 1);
    }
    if (FAILED(hr = scan(&r)))
        goto done;
    for (uint32_t k = 0; k < args->count; k++)
        if (!r.pointee[args->variables[k]]) {
            hr = d3d12xs_write_error(E_INVALIDARG, error, error_size, "root descriptor variable %u is not declared", args->variables[k]);
            goto done;
        }
    add_table(&r, &g, args);
    if (args->push_offsets && FAILED(hr = add_push_entries(&r, &g, args)))
        goto done;
    remove_variables(&r, &g);
    rewrite(&r, &g);
    d3d12xs_spirv_use_psb(m);
    hr = m->out_of_memory ? E_OUTOFMEMORY : S_OK;

done:
    free(r.slot);
    free(r.pointee);
    free(r.uses);
    free(r.lengths);
    return hr;
}
