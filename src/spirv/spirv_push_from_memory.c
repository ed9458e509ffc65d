/* SPIR-V for ExecuteIndirect's own path (docs/indirect.md, "Without generated commands"): the
 * members of the push-constant block that lie in given byte ranges (the root constants and root
 * view entries a command signature sets) are read from memory instead, through a
 * PhysicalStorageBuffer pointer to the block's own struct whose address is two uint members of
 * the block at address_offset (pushed per command). The memory holds a copy of the block's layout
 * per command (commands/command_list_indirect_image.c writes it), so a member keeps its offset.
 *
 * At the start of each function that reads such a member:
 *
 *   %lo, %hi = OpLoad (OpAccessChain %push %member_lo), (... %member_hi)
 *   %image   = OpBitcast %ptr_PSB_block (OpCompositeConstruct %uvec2 %lo %hi)
 *
 * (with draw_index_stride, in a vertex shader, the pair first advanced by DrawIndex times the
 * stride with a carry: %lo + DrawIndex * stride, %hi + carry) and every access chain on the
 * block variable whose first index is such a member starts from
 * %image instead, with a PhysicalStorageBuffer result type, as does every chain or copy made from
 * one; loads through them get an Aligned operand. The other members stay push constants. A use
 * the rewrite does not handle (a pointer passed to a function, the whole block loaded) is
 * refused with E_INVALIDARG and a reason. */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "spirv/spirv.h"
#include "spirv/spirv_passes.h"
#include "spirv/spirv_psb.h"
#include "spirv/spirv_push_block.h"

struct push_rewrite {
    struct d3d12xs_spirv_module *m;
    const struct d3d12xs_spirv_push_from_memory_args *args;
    uint32_t bound;     /* of the module before the rewrite: pointee covers these ids */
    uint32_t variable;  /* the push-constant block's variable and struct */
    uint32_t block;
    uint32_t *pointee;  /* id -> pointee type of a pointer reached from a moved member, 0 otherwise */
    bool *uses;         /* per function: it reads a moved member */
    size_t function_count;
    char *error;
    size_t error_size;
};

/* E_INVALIDARG with the reason. */
#define fail(r, ...) d3d12xs_write_error(E_INVALIDARG, (r)->error, (r)->error_size, __VA_ARGS__)

static bool tracked(const struct push_rewrite *r, uint32_t id)
{
    return id < r->bound && r->pointee[id];
}

/* The range member index (a constant id) of the block lies in, or UINT32_MAX. */
static uint32_t member_range(const struct push_rewrite *r, uint32_t index_id)
{
    uint32_t type, member, offset;
    if (!d3d12xs_spirv_int32_constant(r->m, index_id, &type, &member)
            || !d3d12xs_spirv_member_decoration(r->m, r->block, member, SpvDecorationOffset, &offset))
        return UINT32_MAX;
    for (uint32_t k = 0; k < r->args->range_count; k++)
        if (offset >= r->args->ranges[k].begin && offset < r->args->ranges[k].end)
            return k;
    return UINT32_MAX;
}

static bool moved_member(const struct push_rewrite *r, uint32_t index_id)
{
    return member_range(r, index_id) != UINT32_MAX;
}

static bool mark(struct push_rewrite *r, uint32_t result, uint32_t pointer_type)
{
    const struct d3d12xs_spirv_inst *def = d3d12xs_spirv_def_op(r->m, pointer_type, SpvOpTypePointer, 4);
    if (!def || result >= r->bound)
        return false;
    r->pointee[result] = def->w[3];
    return true;
}

/* The operands of op from which a pointer may be read, other than the ones handled below. */
static uint32_t first_pointer_operand(uint32_t op)
{
    switch (op) {
    case SpvOpCopyMemory: case SpvOpCopyMemorySized: case SpvOpReturnValue: case SpvOpStore:
        return 1;
    case SpvOpPhi: case SpvOpBitcast: case SpvOpConvertPtrToU: case SpvOpFunctionCall: case SpvOpSelect:
    case SpvOpPtrEqual: case SpvOpPtrNotEqual: case SpvOpPtrDiff: case SpvOpCopyLogical: case SpvOpLoad:
        return 3;
    case SpvOpExtInst:
        return 5;
    default:
        return UINT32_MAX;
    }
}

/* Pass 1: the pointers reached from moved members, and which functions read them. */
static HRESULT scan(struct push_rewrite *r)
{
    const struct d3d12xs_spirv_inst *inst;
    size_t function = 0;

    for (D3D12XS_SPIRV_EACH(r->m, D3D12XS_SPIRV_FUNCTIONS, i, inst)) {
        const uint32_t *in = inst->w;
        uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst);
        if (op == SpvOpFunction) {
            function = r->function_count++;
            continue;
        }
        if ((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain) && n >= 5 && in[3] == r->variable) {
            if (moved_member(r, in[4])) {
                r->uses[function] = true;
                if (!mark(r, in[2], in[1]))
                    return fail(r, "access chain %u has no pointer type (%u)", in[2], in[1]);
            }
            continue;
        }
        if ((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain || op == SpvOpPtrAccessChain || op == SpvOpCopyObject)
                && n >= 4 && tracked(r, in[3])) {
            if (!mark(r, in[2], in[1]))
                return fail(r, "instruction %u has no pointer type (%u)", in[2], in[1]);
            continue;
        }
        if (op == SpvOpLoad && n >= 4 && tracked(r, in[3]))
            continue;
        if (op == SpvOpLoad && n >= 4 && in[3] == r->variable)
            return fail(r, "the whole push-constant block is loaded (%u)", in[2]);
        for (uint32_t k = first_pointer_operand(op); k < n; k++)
            if (tracked(r, in[k]) || ((op == SpvOpFunctionCall || op == SpvOpCopyMemory || op == SpvOpCopyMemorySized) && in[k] == r->variable))
                return fail(r, "a pointer into the push-constant block (%u) is used by instruction %u, which ExecuteIndirect's "
                        "rewrite does not handle", in[k], op);
    }
    return S_OK;
}

#define MAX_RANGES 128

struct globals {
    uint32_t u32, uvec2, image_pointer, push_pointer, push_variable, member_lo, member_hi;
    uint32_t draw_index, carry_pair, stride; /* draw_index_stride or range_displacements */
    uint32_t displacement_lo[MAX_RANGES], displacement_hi[MAX_RANGES]; /* range_displacements only */
    uint32_t address_input, address_output, entry_function; /* the address handed between stages */
};

/* The module's DrawIndex input, or a new one (with its capability, extension and interface entry). */
static uint32_t draw_index_variable(struct d3d12xs_spirv_module *m, uint32_t u32)
{
    struct d3d12xs_spirv_inst *inst;
    uint32_t variable;

    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ANNOTATIONS, i, inst))
        if (d3d12xs_spirv_op(inst) == SpvOpDecorate && d3d12xs_spirv_len(inst) == 4 && inst->w[2] == SpvDecorationBuiltIn
                && inst->w[3] == SpvBuiltInDrawIndex)
            return inst->w[1];
    if (!(variable = d3d12xs_spirv_new_id(m)))
        return 0;
    {
        const uint32_t declaration[4] = {(4u << 16) | SpvOpVariable, d3d12xs_spirv_type_pointer(m, SpvStorageClassInput, u32), variable,
                SpvStorageClassInput};
        const uint32_t decoration[4] = {(4u << 16) | SpvOpDecorate, variable, SpvDecorationBuiltIn, SpvBuiltInDrawIndex};
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, declaration, 4);
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, decoration, 4);
    }
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ENTRY_POINTS, i, inst))
        d3d12xs_spirv_append_operand(m, inst, variable);
    d3d12xs_spirv_add_capability(m, SpvCapabilityDrawParameters);
    d3d12xs_spirv_add_extension(m, "SPV_KHR_shader_draw_parameters");
    return variable;
}

/* A flat uvec2 Input or Output at location, in the entry points' interface. */
static uint32_t address_variable(struct d3d12xs_spirv_module *m, uint32_t uvec2, uint32_t storage, uint32_t location)
{
    struct d3d12xs_spirv_inst *inst;
    uint32_t variable = d3d12xs_spirv_new_id(m);
    const uint32_t declaration[4] = {(4u << 16) | SpvOpVariable, d3d12xs_spirv_type_pointer(m, storage, uvec2), variable, storage};
    const uint32_t at[4] = {(4u << 16) | SpvOpDecorate, variable, SpvDecorationLocation, location};
    const uint32_t flat[3] = {(3u << 16) | SpvOpDecorate, variable, SpvDecorationFlat};

    d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, declaration, 4);
    d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, at, 4);
    d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, flat, 3);
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ENTRY_POINTS, i, inst))
        d3d12xs_spirv_append_operand(m, inst, variable);
    return variable;
}

static HRESULT add_globals(struct push_rewrite *r, struct globals *g)
{
    struct d3d12xs_spirv_push_member lo, hi;
    uint32_t vector[4] = {SpvOpTypeVector, 0, 0, 2};
    HRESULT hr;

    g->u32 = d3d12xs_spirv_type_int(r->m, 32, 0);
    vector[2] = g->u32;
    g->uvec2 = d3d12xs_spirv_global(r->m, vector, 4, 1);
    g->image_pointer = d3d12xs_spirv_type_pointer(r->m, SpvStorageClassPhysicalStorageBuffer, r->block);
    if (r->args->address_input_location != UINT32_MAX) {
        g->address_input = address_variable(r->m, g->uvec2, SpvStorageClassInput, r->args->address_input_location);
    } else {
        if (FAILED(hr = d3d12xs_spirv_push_member(r->m, r->args->address_offset, &lo, r->error, r->error_size))
                || FAILED(hr = d3d12xs_spirv_push_member(r->m, r->args->address_offset + 4, &hi, r->error, r->error_size)))
            return hr;
        g->push_pointer = lo.pointer;
        g->push_variable = lo.variable;
        g->member_lo = d3d12xs_spirv_constant(r->m, g->u32, lo.member);
        g->member_hi = d3d12xs_spirv_constant(r->m, g->u32, hi.member);
    }
    if (r->args->address_output_location != UINT32_MAX)
        g->address_output = address_variable(r->m, g->uvec2, SpvStorageClassOutput, r->args->address_output_location);
    if (r->args->draw_index_stride || r->args->range_displacements) {
        /* a struct of its own (SPIR-V allows several of one shape): OpIAddCarry's result */
        const uint32_t pair[4] = {(4u << 16) | SpvOpTypeStruct, g->carry_pair = d3d12xs_spirv_new_id(r->m), g->u32, g->u32};
        d3d12xs_spirv_append(r->m, D3D12XS_SPIRV_GLOBALS, pair, 4);
    }
    if (r->args->draw_index_stride) {
        g->stride = d3d12xs_spirv_constant(r->m, g->u32, r->args->draw_index_stride);
        g->draw_index = draw_index_variable(r->m, g->u32);
    }
    for (uint32_t k = 0; r->args->range_displacements && k < r->args->range_count; k++) {
        g->displacement_lo[k] = d3d12xs_spirv_constant(r->m, g->u32, (uint32_t)r->args->range_displacements[k]);
        g->displacement_hi[k] = d3d12xs_spirv_constant(r->m, g->u32, (uint32_t)((uint64_t)r->args->range_displacements[k] >> 32));
    }
    return r->m->out_of_memory ? E_OUTOFMEMORY : S_OK;
}

/* The prologue's instructions, built before they are inserted. */
struct prologue {
    uint32_t code[16 + 6 * MAX_RANGES][6];
    size_t count;
};

static void emit(struct prologue *p, const uint32_t *inst)
{
    memcpy(p->code[p->count++], inst, (inst[0] >> 16) * 4);
}

/* lo, hi += add_lo, add_hi (64-bit, with the carry); the new pair's ids. */
static void add_64(struct d3d12xs_spirv_module *m, const struct globals *g, struct prologue *p, uint32_t *lo, uint32_t *hi,
        uint32_t add_lo, uint32_t add_hi)
{
    uint32_t sum = d3d12xs_spirv_new_id(m), new_lo = d3d12xs_spirv_new_id(m), carry = d3d12xs_spirv_new_id(m);
    uint32_t high = d3d12xs_spirv_new_id(m), new_hi = add_hi ? d3d12xs_spirv_new_id(m) : high;
    const uint32_t code[][6] = {
        {(5u << 16) | SpvOpIAddCarry, g->carry_pair, sum, *lo, add_lo},
        {(5u << 16) | SpvOpCompositeExtract, g->u32, new_lo, sum, 0},
        {(5u << 16) | SpvOpCompositeExtract, g->u32, carry, sum, 1},
        {(5u << 16) | SpvOpIAdd, g->u32, high, *hi, carry},
        {(5u << 16) | SpvOpIAdd, g->u32, new_hi, high, add_hi},
    };
    for (size_t k = 0; k < (add_hi ? 5u : 4u); k++)
        emit(p, code[k]);
    *lo = new_lo;
    *hi = new_hi;
}

/* lo, hi as a pointer to the block: its id. */
static uint32_t block_pointer(struct d3d12xs_spirv_module *m, const struct globals *g, struct prologue *p, uint32_t lo, uint32_t hi)
{
    uint32_t pair = d3d12xs_spirv_new_id(m), pointer = d3d12xs_spirv_new_id(m);
    const uint32_t construct[5] = {(5u << 16) | SpvOpCompositeConstruct, g->uvec2, pair, lo, hi};
    const uint32_t cast[4] = {(4u << 16) | SpvOpBitcast, g->image_pointer, pointer, pair};
    emit(p, construct);
    emit(p, cast);
    return pointer;
}

/* Inserts the image pointer's prologue at index (with range_displacements, one pointer per
 * range in images[]; in the entry point, the address handed on); returns how many instructions. */
static size_t add_prologue(struct push_rewrite *r, const struct globals *g, size_t index, uint32_t *images, bool entry)
{
    struct d3d12xs_spirv_module *m = r->m;
    struct prologue *p = calloc(1, sizeof(*p));
    uint32_t lo = d3d12xs_spirv_new_id(m), hi = d3d12xs_spirv_new_id(m);
    size_t count;

    if (!p) {
        m->out_of_memory = true;
        return 0;
    }
    if (g->address_input) { /* the vertex shader's, handed on */
        uint32_t pair = d3d12xs_spirv_new_id(m);
        const uint32_t code[][5] = {
            {(4u << 16) | SpvOpLoad, g->uvec2, pair, g->address_input},
            {(5u << 16) | SpvOpCompositeExtract, g->u32, lo, pair, 0},
            {(5u << 16) | SpvOpCompositeExtract, g->u32, hi, pair, 1},
        };
        for (size_t k = 0; k < 3; k++)
            emit(p, code[k]);
    } else {
        uint32_t chain_lo = d3d12xs_spirv_new_id(m), chain_hi = d3d12xs_spirv_new_id(m);
        const uint32_t code[][5] = {
            {(5u << 16) | SpvOpAccessChain, g->push_pointer, chain_lo, g->push_variable, g->member_lo},
            {(5u << 16) | SpvOpAccessChain, g->push_pointer, chain_hi, g->push_variable, g->member_hi},
            {(4u << 16) | SpvOpLoad, g->u32, lo, chain_lo},
            {(4u << 16) | SpvOpLoad, g->u32, hi, chain_hi},
        };
        for (size_t k = 0; k < 4; k++)
            emit(p, code[k]);
    }
    if (g->draw_index) { /* lo, hi += DrawIndex * stride */
        uint32_t index_value = d3d12xs_spirv_new_id(m), offset = d3d12xs_spirv_new_id(m);
        const uint32_t load[4] = {(4u << 16) | SpvOpLoad, g->u32, index_value, g->draw_index};
        const uint32_t multiply[5] = {(5u << 16) | SpvOpIMul, g->u32, offset, index_value, g->stride};
        emit(p, load);
        emit(p, multiply);
        add_64(m, g, p, &lo, &hi, offset, 0);
    }
    if (g->address_output && entry) {
        uint32_t pair = d3d12xs_spirv_new_id(m);
        const uint32_t construct[5] = {(5u << 16) | SpvOpCompositeConstruct, g->uvec2, pair, lo, hi};
        const uint32_t store[3] = {(3u << 16) | SpvOpStore, g->address_output, pair};
        emit(p, construct);
        emit(p, store);
    }
    if (r->args->range_displacements) {
        for (uint32_t k = 0; k < r->args->range_count; k++) {
            uint32_t range_lo = lo, range_hi = hi;
            add_64(m, g, p, &range_lo, &range_hi, g->displacement_lo[k], g->displacement_hi[k]);
            images[k] = block_pointer(m, g, p, range_lo, range_hi);
        }
    } else {
        images[0] = block_pointer(m, g, p, lo, hi);
    }
    for (size_t k = 0; k < p->count; k++)
        d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, index + k, p->code[k], p->code[k][0] >> 16);
    count = p->count;
    free(p);
    return count;
}

/* Pass 2. */
static void rewrite(struct push_rewrite *r, const struct globals *g)
{
    struct d3d12xs_spirv_module *m = r->m;
    struct d3d12xs_spirv_list *functions = &m->sections[D3D12XS_SPIRV_FUNCTIONS];
    bool prologue_pending = false, prologue_done = false, entry = false;
    size_t function = 0;
    uint32_t images[MAX_RANGES] = {0};

    for (size_t i = 0; i < functions->count && !m->out_of_memory; i++) {
        struct d3d12xs_spirv_inst *inst = functions->at[i];
        uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst), copy[64];
        const uint32_t *in = inst->w;

        if (op == SpvOpFunction) {
            prologue_pending = prologue_done = false;
            memset(images, 0, sizeof(images));
            entry = n >= 3 && in[2] == g->entry_function;
            function++;
            continue;
        }
        if (op == SpvOpLabel && r->uses[function - 1] && !prologue_done) {
            prologue_pending = prologue_done = true;
            continue;
        }
        if (prologue_pending && op != SpvOpVariable && op != SpvOpLine && op != SpvOpNoLine) {
            i += add_prologue(r, g, i, images, entry);
            prologue_pending = false;
            inst = functions->at[i];
            in = inst->w;
        }
        if (n > 64)
            continue;
        memcpy(copy, in, n * 4);
        switch (op) {
        case SpvOpAccessChain:
        case SpvOpInBoundsAccessChain:
        case SpvOpPtrAccessChain:
        case SpvOpCopyObject:
            if (n >= 4 && tracked(r, in[2])) {
                copy[1] = d3d12xs_spirv_type_pointer(m, SpvStorageClassPhysicalStorageBuffer, r->pointee[in[2]]);
                if (in[3] == r->variable)
                    copy[3] = images[r->args->range_displacements ? member_range(r, in[4]) : 0];
                d3d12xs_spirv_rewrite(m, inst, copy, n);
            }
            break;
        case SpvOpLoad:
            if (n >= 4 && n <= 14 && tracked(r, in[3]))
                d3d12xs_spirv_set_aligned(m, inst, 4, d3d12xs_spirv_psb_alignment(m, in[1]));
            break;
        default:
            break;
        }
    }
}

/* The storage capabilities the moved members' small types need through memory. */
static void storage_capabilities(struct d3d12xs_spirv_module *m)
{
    if (d3d12xs_spirv_has_capability(m, SpvCapabilityStoragePushConstant16))
        d3d12xs_spirv_add_capability(m, SpvCapabilityStorageBuffer16BitAccess);
    if (d3d12xs_spirv_has_capability(m, SpvCapabilityStoragePushConstant8))
        d3d12xs_spirv_add_capability(m, SpvCapabilityStorageBuffer8BitAccess);
}

HRESULT d3d12xs_spirv_pass_push_from_memory(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_push_from_memory_args *args,
        bool *changed, char *error, size_t error_size)
{
    const struct d3d12xs_spirv_inst *inst, *pointer;
    struct push_rewrite r;
    struct globals g = {0};
    bool any = false;
    HRESULT hr;

    *changed = false;
    memset(&r, 0, sizeof(r));
    r.m = m;
    r.args = args;
    r.error = error;
    r.error_size = error_size;
    /* a vertex shader that hands the address on reads it from the push constants, its own block or not */
    if (args->address_output_location != UINT32_MAX) {
        struct d3d12xs_spirv_push_member member;
        if (FAILED(hr = d3d12xs_spirv_push_member(m, args->address_offset, &member, error, error_size)))
            return hr;
    }
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_GLOBALS, i, inst))
        if (d3d12xs_spirv_op(inst) == SpvOpVariable && d3d12xs_spirv_len(inst) >= 4 && inst->w[3] == SpvStorageClassPushConstant) {
            if (!(pointer = d3d12xs_spirv_def_op(m, inst->w[1], SpvOpTypePointer, 4))
                    || !d3d12xs_spirv_def_op(m, pointer->w[3], SpvOpTypeStruct, 2))
                return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the push-constant block is not a struct");
            r.variable = inst->w[2];
            r.block = pointer->w[3];
        }
    if (!r.variable || (!args->range_count && args->address_output_location == UINT32_MAX))
        return S_OK; /* nothing of the block is read */
    if (args->range_count > MAX_RANGES)
        return d3d12xs_write_error(E_NOTIMPL, error, error_size, "more than %u ranges of the push-constant block from memory", MAX_RANGES);
    if (args->draw_index_stride)
        for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ENTRY_POINTS, i, inst))
            if (inst->w[1] != SpvExecutionModelVertex)
                return d3d12xs_write_error(E_NOTIMPL, error, error_size, "DrawIndex addresses the commands' memory in vertex shaders only");
    if (FAILED(hr = d3d12xs_spirv_check_addressing(m, error, error_size)))
        return hr;
    r.bound = m->bound;
    if (!(r.pointee = calloc(r.bound, sizeof(*r.pointee))) || !(r.uses = calloc(m->sections[D3D12XS_SPIRV_FUNCTIONS].count + 1, sizeof(*r.uses)))) {
        hr = E_OUTOFMEMORY;
        goto done;
    }
    if (FAILED(hr = scan(&r)))
        goto done;
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ENTRY_POINTS, i, inst))
        g.entry_function = inst->w[2];
    /* a vertex shader that hands the address on computes it whatever it reads itself */
    if (args->address_output_location != UINT32_MAX) {
        size_t f = 0;
        for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_FUNCTIONS, i, inst))
            if (d3d12xs_spirv_op(inst) == SpvOpFunction && f++ < r.function_count && inst->w[2] == g.entry_function)
                r.uses[f - 1] = true;
    }
    for (size_t f = 0; f < r.function_count; f++)
        any |= r.uses[f];
    if (!any)
        goto done;
    if (FAILED(hr = add_globals(&r, &g)))
        goto done;
    rewrite(&r, &g);
    d3d12xs_spirv_use_psb_addressing(m);
    storage_capabilities(m);
    *changed = true;
    hr = m->out_of_memory ? E_OUTOFMEMORY : S_OK;

done:
    free(r.pointee);
    free(r.uses);
    return hr;
}
