/* SPIR-V for descriptor tables read from heap memory (descriptors/descriptor_buffer.h): each
 * resource variable of a table goes; a variable of the same type, but a runtime array of it,
 * stands for the whole heap at (set, binding 0), and every use indexes it at
 *
 *     the table's first heap index (a push constant) + the register's index in the table
 *     (+ the array index, for arrays of descriptors).
 *
 * At the start of each function that uses table variables:
 *
 *   %p = OpAccessChain %ptr_PushConstant_uint %push %member    %t = OpLoad %uint %p
 *   %b = OpIAdd %uint %t %register_index
 *   %e = OpAccessChain %ptr_SC_T %heap_T %b                    (a single descriptor)
 *
 * Every use of a single descriptor's variable then takes %e, which has the variable's type. An
 * access chain on an array of descriptors gets %heap_T as base and %b + its first index (an
 * OpIAdd before it, NonUniform when that index is). The push-constant block gets one uint
 * member per table (at the root signature's offset for it), or is made when the module has none.
 * Any other use of an array of descriptors is refused.
 *
 * A table without a push constant (D3D12XS_HEAP_BINDING_NO_PUSH: d3d12xs_heap.hlsli's heap)
 * starts at the heap's first descriptor: its base is the register's index, a constant. A SIZE
 * binding's cbuffer goes too: each access chain to its one uint member becomes one to a
 * push-constant member at the binding's offset.
 *
 * A COUNTER binding (a UAV's counter, HLSL's and DXBC's alike) has no descriptor: the prologue
 * loads the counter's device address from the heap's side table (spirv_side_table.h) at %b and
 * makes a PhysicalStorageBuffer pointer of it:
 *
 *   %lo, %hi = the entry's counter words      %e = OpBitcast %ptr_PSB_T (uvec2 %lo %hi)
 *
 * Access chains from %e get PhysicalStorageBuffer result types, loads and stores through them
 * an Aligned operand; atomics (IncrementCounter, Append, Consume) work as they are. A counter
 * declared as a storage texel buffer (libvkd3d-shader's default for DXBC) is a pointer to its
 * texel type instead, and its OpImageTexelPointer becomes a copy of %e (a counter is one value).
 * A counter passed to a function or copied, and arrays of counters, are refused. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "descriptors/descriptor_buffer.h"
#include "spirv/spirv.h"
#include "spirv/spirv_passes.h"
#include "spirv/spirv_psb.h"
#include "spirv/spirv_push_block.h"
#include "spirv/spirv_side_table.h"

#define MAX_TABLE_MEMBERS 65 /* a table start per root parameter, and the heap size */
#define NO_MEMBER UINT32_MAX

struct heap_variable {
    uint32_t old_variable, heap_variable;
    uint32_t storage_class, element_type, element_pointer;
    bool array;
    bool size;               /* a SIZE binding: no heap variable, reads of the push member */
    bool counter;            /* a COUNTER binding: no heap variable, a pointer from the side table */
    bool texel_counter;      /* ... declared as a storage texel buffer */
    uint32_t member;         /* index into the push members, or NO_MEMBER (the table starts at 0) */
    uint32_t register_index; /* constant id */
};

struct tables {
    struct d3d12xs_spirv_module *m;
    uint32_t bound;          /* of the module before the pass */
    uint32_t *variable_of;   /* old variable id -> index + 1 into variables */
    struct heap_variable *variables;
    uint32_t variable_count;
    uint32_t push_variable, uint_type;
    uint32_t member_offsets[MAX_TABLE_MEMBERS], member_index[MAX_TABLE_MEMBERS], member_count;
    uint8_t *nonuniform;     /* id -> decorated NonUniform (ids of the module as it grows: see mark_nonuniform) */
    size_t nonuniform_size;
    uint32_t nonuniform_kinds; /* bit per heap_variable kind (enum access_kind) indexed non-uniformly */
    struct d3d12xs_spirv_side_table side_table; /* where the module has counters (side_table.variable != 0) */
    uint8_t *by_address;     /* id -> a pointer made from a counter's (PhysicalStorageBuffer) */
    size_t by_address_size;
    char *error;
    size_t error_size;
};

static HRESULT fail(struct tables *t, const char *format, ...) __attribute__((format(printf, 2, 3)));
static HRESULT fail(struct tables *t, const char *format, ...)
{
    char text[256];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof(text), format, args);
    va_end(args);
    return d3d12xs_write_error(E_INVALIDARG, t->error, t->error_size, "%s", text);
}

static struct heap_variable *table_variable(const struct tables *t, uint32_t id)
{
    return id < t->bound && t->variable_of[id] ? &t->variables[t->variable_of[id] - 1] : NULL;
}

/* The push member holding the table start at byte offset, added on first use. */
static HRESULT push_member(struct tables *t, uint32_t offset, uint32_t *member)
{
    struct d3d12xs_spirv_push_member push;
    HRESULT hr;

    for (uint32_t k = 0; k < t->member_count; k++) {
        if (t->member_offsets[k] == offset) {
            *member = k;
            return S_OK;
        }
    }
    if (t->member_count == MAX_TABLE_MEMBERS)
        return fail(t, "more than %u descriptor tables", MAX_TABLE_MEMBERS);
    if (FAILED(hr = d3d12xs_spirv_push_member(t->m, offset, &push, t->error, t->error_size)))
        return hr;
    t->push_variable = push.variable;
    t->member_index[t->member_count] = push.member;
    t->member_offsets[t->member_count] = offset;
    *member = t->member_count++;
    return S_OK;
}

static bool decoration_moves(uint32_t decoration)
{
    return decoration != SpvDecorationDescriptorSet && decoration != SpvDecorationBinding;
}

/* The heap variable standing for binding b's variable, its types and decorations. */
static HRESULT add_heap_variable(struct tables *t, const struct d3d12xs_spirv_heap_table_binding *b, struct heap_variable *h)
{
    struct d3d12xs_spirv_module *m = t->m;
    const struct d3d12xs_spirv_inst *variable = d3d12xs_spirv_def_op(m, b->variable_id, SpvOpVariable, 4), *pointer, *pointee;
    uint32_t runtime_array, heap_pointer, count;
    HRESULT hr;

    if (!variable || !(pointer = d3d12xs_spirv_def_op(m, variable->w[1], SpvOpTypePointer, 4)) || !(pointee = d3d12xs_spirv_def(m, pointer->w[3])))
        return fail(t, "table variable %u is not a variable", b->variable_id);
    h->old_variable = b->variable_id;
    h->storage_class = variable->w[3];
    if (b->kind == D3D12XS_HEAP_BINDING_SIZE) {
        const struct d3d12xs_spirv_inst *member = d3d12xs_spirv_op(pointee) == SpvOpTypeStruct && d3d12xs_spirv_len(pointee) == 3
                ? d3d12xs_spirv_def_op(m, pointee->w[2], SpvOpTypeInt, 4) : NULL;
        if (!member || member->w[2] != 32 || b->push_offset == D3D12XS_HEAP_BINDING_NO_PUSH)
            return fail(t, "the cbuffer at d3d12xs_heap.hlsli's size register (b16381, space62; variable %u) is not a cbuffer of one uint", b->variable_id);
        h->size = true;
        return push_member(t, b->push_offset, &h->member);
    }
    h->array = d3d12xs_spirv_op(pointee) == SpvOpTypeArray || d3d12xs_spirv_op(pointee) == SpvOpTypeRuntimeArray;
    h->element_type = h->array ? pointee->w[2] : pointer->w[3];
    h->member = NO_MEMBER;
    if (b->push_offset != D3D12XS_HEAP_BINDING_NO_PUSH && FAILED(hr = push_member(t, b->push_offset, &h->member)))
        return hr;
    h->register_index = d3d12xs_spirv_constant(m, t->uint_type, b->table_offset);
    if (b->kind == D3D12XS_HEAP_BINDING_COUNTER) {
        if (h->array)
            return fail(t, "the UAV counters of an array of UAVs (variable %u) are not supported", b->variable_id);
        if (FAILED(hr = d3d12xs_spirv_check_addressing(m, t->error, t->error_size)))
            return hr;
        if (!t->side_table.variable)
            d3d12xs_spirv_side_table(m, b->set, &t->side_table);
        h->counter = true;
        const struct d3d12xs_spirv_inst *image = d3d12xs_spirv_def_op(m, h->element_type, SpvOpTypeImage, 3);
        if ((h->texel_counter = image != NULL))
            h->element_type = image->w[2]; /* the texel's type */
        h->element_pointer = d3d12xs_spirv_type_pointer(m, SpvStorageClassPhysicalStorageBuffer, h->element_type);
        return S_OK;
    }
    /* A new runtime array: the module's own may carry an ArrayStride, which descriptor arrays must not. */
    runtime_array = d3d12xs_spirv_new_id(m);
    h->heap_variable = d3d12xs_spirv_new_id(m);
    if (!runtime_array || !h->heap_variable)
        return E_OUTOFMEMORY;
    {
        uint32_t type[3] = {SpvOpTypeRuntimeArray, runtime_array, h->element_type};
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, type, 3);
    }
    heap_pointer = d3d12xs_spirv_type_pointer(m, h->storage_class, runtime_array);
    h->element_pointer = d3d12xs_spirv_type_pointer(m, h->storage_class, h->element_type);
    {
        uint32_t declaration[4] = {SpvOpVariable, heap_pointer, h->heap_variable, h->storage_class};
        uint32_t set[4] = {SpvOpDecorate, h->heap_variable, SpvDecorationDescriptorSet, b->set};
        uint32_t binding[4] = {SpvOpDecorate, h->heap_variable, SpvDecorationBinding, 0};
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, declaration, 4);
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, set, 4);
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, binding, 4);
    }
    /* NonWritable, Coherent, Restrict, ... stay with the accesses. */
    count = (uint32_t)m->sections[D3D12XS_SPIRV_ANNOTATIONS].count;
    for (uint32_t i = 0; i < count; i++) {
        const struct d3d12xs_spirv_inst *inst = m->sections[D3D12XS_SPIRV_ANNOTATIONS].at[i];
        uint32_t n = d3d12xs_spirv_len(inst), copy[16];
        if (d3d12xs_spirv_op(inst) != SpvOpDecorate || n < 3 || n > 16 || inst->w[1] != b->variable_id || !decoration_moves(inst->w[2]))
            continue;
        memcpy(copy, inst->w, n * 4);
        copy[1] = h->heap_variable;
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, copy, n);
    }
    return S_OK;
}

static bool is_access_chain_op(uint32_t op)
{
    return op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain;
}

enum access_kind { ACCESS_STORAGE_BUFFER, ACCESS_UNIFORM_BUFFER, ACCESS_STORAGE_TEXEL, ACCESS_UNIFORM_TEXEL, ACCESS_SAMPLER };

static enum access_kind kind_of(const struct tables *t, const struct heap_variable *h)
{
    const struct d3d12xs_spirv_inst *type = d3d12xs_spirv_def(t->m, h->element_type);
    uint32_t op = type ? d3d12xs_spirv_op(type) : 0;
    if (op == SpvOpTypeSampler)
        return ACCESS_SAMPLER;
    if (op == SpvOpTypeImage)
        return d3d12xs_spirv_len(type) > 7 && type->w[7] == 2 ? ACCESS_STORAGE_TEXEL : ACCESS_UNIFORM_TEXEL;
    if (h->storage_class == SpvStorageClassUniform && !d3d12xs_spirv_decoration(t->m, h->element_type, SpvDecorationBufferBlock, NULL))
        return ACCESS_UNIFORM_BUFFER;
    return ACCESS_STORAGE_BUFFER;
}

static bool is_nonuniform(const struct tables *t, uint32_t id)
{
    return id < t->nonuniform_size && t->nonuniform[id];
}

/* Decorates id NonUniform (once) and remembers it, so that what is derived from it is too. */
static void mark_nonuniform(struct tables *t, uint32_t id)
{
    if (is_nonuniform(t, id))
        return;
    if (id >= t->nonuniform_size) {
        size_t size = t->m->bound + 256;
        uint8_t *bigger = realloc(t->nonuniform, size);
        if (!bigger) {
            t->m->out_of_memory = true;
            return;
        }
        memset(bigger + t->nonuniform_size, 0, size - t->nonuniform_size);
        t->nonuniform = bigger;
        t->nonuniform_size = size;
    }
    t->nonuniform[id] = 1;
    uint32_t decoration[3] = {SpvOpDecorate, id, SpvDecorationNonUniform};
    d3d12xs_spirv_append(t->m, D3D12XS_SPIRV_ANNOTATIONS, decoration, 3);
}

static HRESULT find_nonuniform(struct tables *t)
{
    struct d3d12xs_spirv_inst *inst;
    t->nonuniform_size = t->m->bound;
    if (!(t->nonuniform = calloc(t->nonuniform_size, 1)))
        return E_OUTOFMEMORY;
    for (D3D12XS_SPIRV_EACH(t->m, D3D12XS_SPIRV_ANNOTATIONS, i, inst))
        if (d3d12xs_spirv_op(inst) == SpvOpDecorate && d3d12xs_spirv_len(inst) >= 3 && inst->w[2] == SpvDecorationNonUniform
                && inst->w[1] < t->nonuniform_size)
            t->nonuniform[inst->w[1]] = 1;
    return S_OK;
}

/* A descriptor picked with a non-uniform index: every pointer and value made from it is
 * NonUniform too (Vulkan wants the decoration on the access itself). Defined before use
 * within a block, so one walk in module order suffices. */
static void propagate_nonuniform(struct tables *t)
{
    struct d3d12xs_spirv_list *functions = &t->m->sections[D3D12XS_SPIRV_FUNCTIONS];
    for (size_t i = 0; i < functions->count; i++) {
        const struct d3d12xs_spirv_inst *inst = functions->at[i];
        uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst);
        if ((is_access_chain_op(op) || op == SpvOpLoad || op == SpvOpCopyObject || op == SpvOpImageTexelPointer) && n >= 4
                && is_nonuniform(t, inst->w[3]) && !is_nonuniform(t, inst->w[2]))
            mark_nonuniform(t, inst->w[2]);
    }
}


/* The operands of op that may be pointers to a descriptor (each checked against the table
 * variables): from first to the end, or first only when single. */
static bool pointer_operands(uint32_t op, uint32_t n, uint32_t *first, uint32_t *last)
{
    switch (op) {
    case SpvOpLoad: case SpvOpArrayLength: case SpvOpImageTexelPointer: case SpvOpCopyObject:
    case SpvOpAtomicLoad: case SpvOpAtomicExchange: case SpvOpAtomicCompareExchange: case SpvOpAtomicCompareExchangeWeak:
    case SpvOpAtomicIIncrement: case SpvOpAtomicIDecrement: case SpvOpAtomicIAdd: case SpvOpAtomicISub: case SpvOpAtomicSMin:
    case SpvOpAtomicUMin: case SpvOpAtomicSMax: case SpvOpAtomicUMax: case SpvOpAtomicAnd: case SpvOpAtomicOr: case SpvOpAtomicXor:
        *first = *last = 3;
        return n > 3;
    case SpvOpStore: case SpvOpAtomicStore:
        *first = *last = 1;
        return n > 1;
    case SpvOpCopyMemory: case SpvOpCopyMemorySized:
        *first = 1, *last = 2;
        return n > 2;
    case SpvOpFunctionCall:
        *first = 4, *last = n - 1;
        return n > 4;
    default:
        return false;
    }
}

/* The prologue of one function: the base index and element pointer of every table variable. */
static size_t add_prologue(struct tables *t, size_t index, uint32_t *bases, uint32_t *elements)
{
    struct d3d12xs_spirv_module *m = t->m;
    uint32_t starts[MAX_TABLE_MEMBERS] = {0};
    uint32_t uint_pointer = d3d12xs_spirv_type_pointer(m, SpvStorageClassPushConstant, t->uint_type);
    size_t inserted = 0;

    for (uint32_t k = 0; k < t->variable_count; k++) {
        const struct heap_variable *h = &t->variables[k];
        if (h->size)
            continue;
        if (h->member == NO_MEMBER) {
            bases[k] = h->register_index; /* from the heap's first descriptor: a constant */
        } else if (!starts[h->member]) {
            uint32_t chain = d3d12xs_spirv_new_id(m);
            starts[h->member] = d3d12xs_spirv_new_id(m);
            uint32_t code[] = {
                (5u << 16) | SpvOpAccessChain, uint_pointer, chain, t->push_variable,
                        d3d12xs_spirv_constant_u32(m, t->member_index[h->member]),
                (4u << 16) | SpvOpLoad, t->uint_type, starts[h->member], chain,
            };
            for (uint32_t at = 0; at < sizeof(code) / 4; at += code[at] >> 16)
                d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, index + inserted++, &code[at], code[at] >> 16);
        }
        if (h->member != NO_MEMBER) {
            uint32_t add[5] = {(5u << 16) | SpvOpIAdd, t->uint_type, bases[k] = d3d12xs_spirv_new_id(m), starts[h->member], h->register_index};
            d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, index + inserted++, add, 5);
        }
        if (h->counter) {
            size_t at = index + inserted;
            uint32_t low = d3d12xs_spirv_side_table_load(m, &t->side_table, bases[k], D3D12XS_SIDE_ENTRY_COUNTER, &at);
            uint32_t high = d3d12xs_spirv_side_table_load(m, &t->side_table, bases[k], D3D12XS_SIDE_ENTRY_COUNTER + 1, &at);
            uint32_t vector[4] = {SpvOpTypeVector, 0, t->uint_type, 2}, words = d3d12xs_spirv_new_id(m);
            uint32_t uvec2 = d3d12xs_spirv_global(m, vector, 4, 1);
            elements[k] = d3d12xs_spirv_new_id(m);
            uint32_t code[] = {
                (5u << 16) | SpvOpCompositeConstruct, uvec2, words, low, high,
                (4u << 16) | SpvOpBitcast, h->element_pointer, elements[k], words,
            };
            for (uint32_t w = 0; w < sizeof(code) / 4; w += code[w] >> 16)
                d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, at++, &code[w], code[w] >> 16);
            inserted = at - index;
        } else if (!h->array) {
            elements[k] = d3d12xs_spirv_new_id(m);
            uint32_t chain[5] = {(5u << 16) | SpvOpAccessChain, h->element_pointer, elements[k], h->heap_variable, bases[k]};
            d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, index + inserted++, chain, 5);
        }
    }
    return inserted;
}

/* Pointers made from a counter's PhysicalStorageBuffer pointer (see the file comment). */
static bool is_by_address(const struct tables *t, uint32_t id)
{
    return id < t->by_address_size && t->by_address[id];
}

static void mark_by_address(struct tables *t, uint32_t id)
{
    if (id >= t->by_address_size) {
        size_t size = t->m->bound + 256;
        uint8_t *bigger = realloc(t->by_address, size);
        if (!bigger) {
            t->m->out_of_memory = true;
            return;
        }
        memset(bigger + t->by_address_size, 0, size - t->by_address_size);
        t->by_address = bigger;
        t->by_address_size = size;
    }
    t->by_address[id] = 1;
}

/* The PhysicalStorageBuffer pointer type to what pointer type `type` points at. */
static uint32_t psb_pointer_like(struct tables *t, uint32_t type)
{
    const struct d3d12xs_spirv_inst *pointer = d3d12xs_spirv_def_op(t->m, type, SpvOpTypePointer, 4);
    return pointer ? d3d12xs_spirv_type_pointer(t->m, SpvStorageClassPhysicalStorageBuffer, pointer->w[3]) : type;
}

/* An instruction using a counter's pointer (the counter variable or a chain made from it): an
 * access chain takes a PhysicalStorageBuffer result type, a load or store the Aligned operand of
 * the counter's 4 bytes. Returns whether inst was one (*hr: a refused use). */
static bool rewrite_counter_use(struct tables *t, struct d3d12xs_spirv_inst *inst, const uint32_t *elements, HRESULT *hr)
{
    struct d3d12xs_spirv_module *m = t->m;
    uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst), copy[64], first, last;
    struct heap_variable *h;
    bool any = false;

    if (n > 64)
        return false;
    memcpy(copy, inst->w, n * 4);
    if (is_access_chain_op(op) && n >= 4 && (is_by_address(t, copy[3]) || ((h = table_variable(t, copy[3])) && h->counter))) {
        if (!is_by_address(t, copy[3]))
            copy[3] = elements[h - t->variables];
        copy[1] = psb_pointer_like(t, copy[1]);
        mark_by_address(t, copy[2]);
        d3d12xs_spirv_rewrite(m, inst, copy, n);
        return true;
    }
    if (op == SpvOpImageTexelPointer && n >= 4 && (h = table_variable(t, copy[3])) && h->counter) {
        uint32_t same[4] = {SpvOpCopyObject, h->element_pointer, copy[2], elements[h - t->variables]};
        mark_by_address(t, copy[2]);
        d3d12xs_spirv_rewrite(m, inst, same, 4);
        return true;
    }
    if (!pointer_operands(op, n, &first, &last))
        return false;
    for (uint32_t k = first; k <= last; k++) {
        bool variable = (h = table_variable(t, copy[k])) && h->counter;
        if (!variable && !is_by_address(t, copy[k]))
            continue;
        if (variable && h->texel_counter) {
            *hr = fail(t, "a UAV counter declared as a texel buffer (%u) is used by instruction %u, not by OpImageTexelPointer", copy[k], op);
            return true;
        }
        if (op != SpvOpLoad && op != SpvOpStore && !(op >= SpvOpAtomicLoad && op <= SpvOpAtomicXor)) {
            *hr = fail(t, "a UAV counter's pointer (%u) is used by instruction %u, which only loads, stores and atomics may", copy[k], op);
            return true;
        }
        if (variable)
            copy[k] = elements[h - t->variables];
        any = true;
    }
    if (!any)
        return false;
    d3d12xs_spirv_rewrite(m, inst, copy, n);
    if (op == SpvOpLoad)
        d3d12xs_spirv_set_aligned(m, inst, 4, 4);
    else if (op == SpvOpStore)
        d3d12xs_spirv_set_aligned(m, inst, 3, 4);
    return true;
}

static HRESULT rewrite_functions(struct tables *t)
{
    struct d3d12xs_spirv_module *m = t->m;
    struct d3d12xs_spirv_list *functions = &m->sections[D3D12XS_SPIRV_FUNCTIONS];
    uint32_t *bases = calloc(t->variable_count, sizeof(*bases)), *elements = calloc(t->variable_count, sizeof(*elements));
    bool in_function = false, prologue_pending = false;
    HRESULT hr = S_OK;

    if (!bases || !elements) {
        hr = E_OUTOFMEMORY;
        goto done;
    }
    for (size_t i = 0; i < functions->count && !m->out_of_memory; i++) {
        struct d3d12xs_spirv_inst *inst = functions->at[i];
        uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst), first, last, copy[64];
        struct heap_variable *h;

        if (op == SpvOpFunction) {
            in_function = true;
            continue;
        }
        if (op == SpvOpLabel && in_function) {
            /* every function gets the prologue in its first block: cheap, and uses need no scan first */
            in_function = false;
            prologue_pending = true;
            continue;
        }
        if (prologue_pending && op != SpvOpVariable && op != SpvOpLine && op != SpvOpNoLine) {
            i += add_prologue(t, i, bases, elements);
            prologue_pending = false;
            inst = functions->at[i];
        }
        if (t->side_table.variable && rewrite_counter_use(t, inst, elements, &hr)) {
            if (FAILED(hr))
                goto done;
            continue;
        }
        if (n > 64)
            continue;
        memcpy(copy, inst->w, n * 4);
        if (is_access_chain_op(op) && n >= 4 && (h = table_variable(t, copy[3]))) {
            uint32_t k = (uint32_t)(h - t->variables);
            if (h->size) {
                /* the cbuffer's one member: the push constant */
                if (n != 5) {
                    hr = fail(t, "access chain %u into the heap size has %u indices", copy[2], n - 4);
                    goto done;
                }
                uint32_t chain[5] = {(5u << 16) | SpvOpAccessChain, d3d12xs_spirv_type_pointer(m, SpvStorageClassPushConstant, t->uint_type),
                        copy[2], t->push_variable, d3d12xs_spirv_constant_u32(m, t->member_index[h->member])};
                d3d12xs_spirv_rewrite(m, inst, chain, 5);
                continue;
            }
            if (!h->array) {
                copy[3] = elements[k];
            } else {
                uint32_t index, add[5];
                if (n < 5) {
                    hr = fail(t, "access chain %u takes an array of descriptors whole", copy[2]);
                    goto done;
                }
                if (!(index = d3d12xs_spirv_new_id(m)))
                    break;
                add[0] = (5u << 16) | SpvOpIAdd, add[1] = t->uint_type, add[2] = index, add[3] = bases[k], add[4] = copy[4];
                d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, i++, add, 5);
                if (is_nonuniform(t, copy[4])) {
                    mark_nonuniform(t, index);
                    mark_nonuniform(t, copy[2]);
                    t->nonuniform_kinds |= 1u << kind_of(t, h);
                }
                copy[3] = h->heap_variable;
                copy[4] = index;
            }
            d3d12xs_spirv_rewrite(m, inst, copy, n);
            continue;
        }
        if (!pointer_operands(op, n, &first, &last))
            continue;
        bool changed = false;
        for (uint32_t k = first; k <= last; k++) {
            if (!(h = table_variable(t, copy[k])))
                continue;
            if (h->array || h->size) {
                hr = fail(t, "%s (variable %u) is used whole by instruction %u", h->size ? "the heap size block"
                        : "an array of descriptors", copy[k], op);
                goto done;
            }
            copy[k] = elements[h - t->variables];
            changed = true;
        }
        if (changed)
            d3d12xs_spirv_rewrite(m, inst, copy, n);
    }
done:
    free(bases);
    free(elements);
    return m->out_of_memory ? E_OUTOFMEMORY : hr;
}

static bool is_table_variable(uint32_t id, void *context)
{
    return table_variable(context, id) != NULL;
}

/* The old variables, their names and decorations go. */
static void remove_old_variables(struct tables *t)
{
    struct d3d12xs_spirv_module *m = t->m;
    struct d3d12xs_spirv_inst *entry;

    d3d12xs_spirv_remove_variables(m, is_table_variable, t);
    if (m->version >= 0x10400) {
        for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ENTRY_POINTS, i, entry))
            for (uint32_t k = 0; k < t->variable_count; k++)
                if (!t->variables[k].size && !t->variables[k].counter)
                    d3d12xs_spirv_append_operand(m, entry, t->variables[k].heap_variable);
    }
}

/* What indexing a descriptor array with a value from push constants needs: dynamically uniform
 * indexing of each kind and runtime arrays (the device enables them all: descriptor_buffer.c). */
static void add_capabilities(struct tables *t)
{
    struct d3d12xs_spirv_module *m = t->m;
    d3d12xs_spirv_add_capability(m, SpvCapabilityRuntimeDescriptorArray);
    for (uint32_t k = 0; k < t->variable_count; k++) {
        if (t->variables[k].size || t->variables[k].counter)
            continue;
        static const uint32_t capabilities[] = {
            [ACCESS_STORAGE_BUFFER] = SpvCapabilityStorageBufferArrayDynamicIndexing,
            [ACCESS_UNIFORM_BUFFER] = SpvCapabilityUniformBufferArrayDynamicIndexing,
            [ACCESS_STORAGE_TEXEL] = SpvCapabilityStorageTexelBufferArrayDynamicIndexing,
            [ACCESS_UNIFORM_TEXEL] = SpvCapabilityUniformTexelBufferArrayDynamicIndexing,
            [ACCESS_SAMPLER] = SpvCapabilitySampledImageArrayDynamicIndexing,
        };
        d3d12xs_spirv_add_capability(m, capabilities[kind_of(t, &t->variables[k])]);
    }
    if (t->nonuniform_kinds) {
        static const uint32_t capabilities[] = {
            [ACCESS_STORAGE_BUFFER] = SpvCapabilityStorageBufferArrayNonUniformIndexing,
            [ACCESS_UNIFORM_BUFFER] = SpvCapabilityUniformBufferArrayNonUniformIndexing,
            [ACCESS_STORAGE_TEXEL] = SpvCapabilityStorageTexelBufferArrayNonUniformIndexing,
            [ACCESS_UNIFORM_TEXEL] = SpvCapabilityUniformTexelBufferArrayNonUniformIndexing,
            [ACCESS_SAMPLER] = SpvCapabilitySampledImageArrayNonUniformIndexing,
        };
        d3d12xs_spirv_add_capability(m, SpvCapabilityShaderNonUniform);
        for (uint32_t k = 0; k < D3D12XS_ARRAY_SIZE(capabilities); k++)
            if (t->nonuniform_kinds >> k & 1)
                d3d12xs_spirv_add_capability(m, capabilities[k]);
    }
    if (m->version < 0x10500)
        d3d12xs_spirv_add_extension(m, "SPV_EXT_descriptor_indexing");
}

/* The default of d3d12xs_heap.hlsli's size-query switch, where the module has it. */
static void set_heap_size_by_index(struct d3d12xs_spirv_module *m)
{
    struct d3d12xs_spirv_inst *inst, *constant;
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ANNOTATIONS, i, inst))
        if (d3d12xs_spirv_op(inst) == SpvOpDecorate && d3d12xs_spirv_len(inst) == 4 && inst->w[2] == SpvDecorationSpecId
                && inst->w[3] == D3D12XS_HEAP_SIZE_BY_INDEX_SPEC_ID
                && (constant = d3d12xs_spirv_def_op(m, inst->w[1], SpvOpSpecConstant, 4))) {
            uint32_t words[4] = {constant->w[0], constant->w[1], constant->w[2], 1};
            d3d12xs_spirv_rewrite(m, constant, words, 4);
        }
}

HRESULT d3d12xs_spirv_pass_heap_tables(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_heap_tables_args *args,
        char *error, size_t error_size)
{
    struct tables t;
    HRESULT hr = S_OK;

    if (!args->count)
        return S_OK;
    memset(&t, 0, sizeof(t));
    t.m = m;
    t.bound = m->bound;
    t.error = error;
    t.error_size = error_size;
    if (!(t.variable_of = calloc(t.bound, sizeof(*t.variable_of))) || !(t.variables = calloc(args->count, sizeof(*t.variables)))) {
        hr = E_OUTOFMEMORY;
        goto done;
    }
    t.uint_type = d3d12xs_spirv_type_int(m, 32, 0);
    if (FAILED(hr = find_nonuniform(&t)))
        goto done;
    for (uint32_t k = 0; k < args->count; k++) {
        const struct d3d12xs_spirv_heap_table_binding *b = &args->bindings[k];
        if (b->variable_id >= t.bound || t.variable_of[b->variable_id]) {
            hr = fail(&t, "table variable %u is not in the module or given twice", b->variable_id);
            goto done;
        }
        if (FAILED(hr = add_heap_variable(&t, b, &t.variables[t.variable_count])))
            goto done;
        t.variable_of[b->variable_id] = ++t.variable_count;
    }
    if (FAILED(hr = rewrite_functions(&t)))
        goto done;
    if (t.nonuniform_kinds)
        propagate_nonuniform(&t);
    remove_old_variables(&t);
    add_capabilities(&t);
    if (t.side_table.variable)
        d3d12xs_spirv_use_psb_addressing(m);
    if (args->heap_size_by_index)
        set_heap_size_by_index(m);
    if (m->out_of_memory)
        hr = E_OUTOFMEMORY;
done:
    free(t.variable_of);
    free(t.variables);
    free(t.nonuniform);
    free(t.by_address);
    return hr;
}
