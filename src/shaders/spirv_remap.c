/* SPIR-V remapping: moves each resource variable to the set/binding a root signature gives
 * it, and turns root-constant cbuffers into the module's single push-constant block.
 *
 * Push constants, two ways:
 *  - in place: one root-constant cbuffer whose block struct is not shared (or shared but at
 *    push offset 0): its variable becomes PushConstant and moves behind the new pointer
 *    types, its member offsets grow by push_offset;
 *  - merged: otherwise (several root-constant cbuffers, or a shared struct at an offset): a
 *    new Block struct holds every member of those cbuffers sorted by push-constant offset,
 *    one new PushConstant variable replaces their variables, and access chains on the old
 *    variables get the new variable as base and the member's new index as first index.
 * In both, every pointer derived from those variables (access chains, OpCopyObject) gets a
 * PushConstant twin of its Uniform pointer type: glslang shares "OpTypePointer Uniform
 * %uint" among all buffers, so pointer types are added, never edited. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv-tools/libspirv.h>
#include <spirv/unified1/spirv.h>

#include "common/log.h"
#include "shaders/spirv.h"

struct merged_member {
    uint32_t new_offset;
    uint32_t type;
    uint32_t push;   /* index into the push-constant list */
    uint32_t member; /* index in the old struct */
};

struct push_block {
    uint32_t binding;   /* index into info->bindings */
    uint32_t variable;
    uint32_t struct_id;
    uint32_t member_count;
    uint32_t first_new_member; /* merged: new index of each old member is in new_index[] */
    uint32_t *new_index;
};

struct remap {
    uint32_t *w;
    size_t count;
    uint32_t bound, next_id;
    uint32_t *def;       /* global definitions: word offset */
    uint32_t *var_binding; /* variable id -> binding index + 1 */
    uint32_t *twin;      /* pointee type id -> PushConstant pointer id */
    uint8_t *tracked;    /* pointer ids derived from root-constant variables */
    uint32_t *push_of;   /* variable id -> push block index + 1 */
    struct push_block *pushes;
    uint32_t push_count;
    bool merged;
    uint32_t merged_struct, merged_pointer, merged_variable;
    struct merged_member *members;
    uint32_t member_count;
    uint32_t *new_constants; /* (type, id, value) triples */
    size_t new_constant_count, new_constant_capacity;
    uint32_t *twin_list; /* pointee ids in the order their twins were created */
    size_t twin_count, twin_capacity;
    uint32_t *out;
    size_t out_count, out_capacity;
    bool out_of_memory;
    char *error;
    size_t error_size;
};

static HRESULT remap_fail(struct remap *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static HRESULT remap_fail(struct remap *m, const char *fmt, ...)
{
    va_list args;
    if (m->error && m->error_size) {
        va_start(args, fmt);
        vsnprintf(m->error, m->error_size, fmt, args);
        va_end(args);
    }
    return E_INVALIDARG;
}

static uint32_t op_at(const struct remap *m, size_t o) { return m->w[o] & 0xffff; }
static uint32_t len_at(const struct remap *m, size_t o) { return m->w[o] >> 16; }
static uint32_t def_of(const struct remap *m, uint32_t id) { return id < m->bound ? m->def[id] : 0; }

static void emit(struct remap *m, const uint32_t *words, size_t n)
{
    if (m->out_count + n > m->out_capacity) {
        size_t capacity = (m->out_count + n) * 2;
        uint32_t *out = realloc(m->out, capacity * sizeof(*out));
        if (!out) {
            m->out_of_memory = true;
            return;
        }
        m->out = out;
        m->out_capacity = capacity;
    }
    memcpy(m->out + m->out_count, words, n * sizeof(*words));
    m->out_count += n;
}

static bool push_u32(uint32_t **list, size_t *count, size_t *capacity, uint32_t value)
{
    if (*count == *capacity) {
        size_t new_capacity = *capacity ? *capacity * 2 : 16;
        uint32_t *bigger = realloc(*list, new_capacity * sizeof(*bigger));
        if (!bigger)
            return false;
        *list = bigger;
        *capacity = new_capacity;
    }
    (*list)[(*count)++] = value;
    return true;
}

static HRESULT new_id(struct remap *m, uint32_t *id)
{
    if (m->next_id >= 0x3fffff)
        return remap_fail(m, "the module's id bound would exceed 0x3fffff");
    *id = m->next_id++;
    return S_OK;
}

/* The PushConstant pointer type to pointee (created on first use). */
static HRESULT twin_of(struct remap *m, uint32_t pointee, uint32_t *id)
{
    HRESULT hr;
    if (pointee >= m->next_id)
        return remap_fail(m, "pointee type %u is out of range", pointee);
    if (pointee < m->bound && m->twin[pointee]) {
        *id = m->twin[pointee];
        return S_OK;
    }
    if (pointee >= m->bound) { /* the merged struct */
        *id = m->merged_pointer;
        return S_OK;
    }
    if (FAILED(hr = new_id(m, id)))
        return hr;
    m->twin[pointee] = *id;
    if (!push_u32(&m->twin_list, &m->twin_count, &m->twin_capacity, pointee))
        return E_OUTOFMEMORY;
    return S_OK;
}

/* The twin of the Uniform pointer type `type` (the result type of a derived pointer). */
static HRESULT twin_of_pointer(struct remap *m, uint32_t type, uint32_t *id)
{
    uint32_t def = def_of(m, type);
    if (!def || op_at(m, def) != SpvOpTypePointer || len_at(m, def) < 4 || m->w[def + 2] != SpvStorageClassUniform)
        return remap_fail(m, "type %u of a pointer into a root-constant cbuffer is not a Uniform pointer", type);
    return twin_of(m, m->w[def + 3], id);
}

static bool int32_constant(const struct remap *m, uint32_t id, uint32_t *type, uint32_t *value)
{
    uint32_t def = def_of(m, id), type_def;
    if (!def || op_at(m, def) != SpvOpConstant || len_at(m, def) != 4)
        return false;
    type_def = def_of(m, m->w[def + 1]);
    if (!type_def || op_at(m, type_def) != SpvOpTypeInt || len_at(m, type_def) < 4 || m->w[type_def + 2] != 32)
        return false;
    *type = m->w[def + 1];
    *value = m->w[def + 3];
    return true;
}

/* An OpConstant of type with value: an existing one, or a new one. */
static HRESULT constant_id(struct remap *m, uint32_t type, uint32_t value, uint32_t *id)
{
    HRESULT hr;
    for (size_t o = 5; o < m->count; o += len_at(m, o)) {
        if (op_at(m, o) == SpvOpFunction)
            break;
        if (op_at(m, o) == SpvOpConstant && len_at(m, o) == 4 && m->w[o + 1] == type && m->w[o + 3] == value) {
            *id = m->w[o + 2];
            return S_OK;
        }
    }
    for (size_t i = 0; i < m->new_constant_count; i += 3) {
        if (m->new_constants[i] == type && m->new_constants[i + 2] == value) {
            *id = m->new_constants[i + 1];
            return S_OK;
        }
    }
    if (FAILED(hr = new_id(m, id)))
        return hr;
    if (!push_u32(&m->new_constants, &m->new_constant_count, &m->new_constant_capacity, type)
            || !push_u32(&m->new_constants, &m->new_constant_count, &m->new_constant_capacity, *id)
            || !push_u32(&m->new_constants, &m->new_constant_count, &m->new_constant_capacity, value))
        return E_OUTOFMEMORY;
    return S_OK;
}

static bool member_decoration(const struct remap *m, uint32_t struct_id, uint32_t member, uint32_t decoration,
        uint32_t *value)
{
    for (size_t o = 5; o < m->count; o += len_at(m, o)) {
        uint32_t op = op_at(m, o), n = len_at(m, o);
        if (op == SpvOpFunction)
            break;
        if (op == SpvOpMemberDecorate && n >= 5 && m->w[o + 1] == struct_id && m->w[o + 2] == member
                && m->w[o + 3] == decoration) {
            *value = m->w[o + 4];
            return true;
        }
    }
    return false;
}

static const char *register_name(const struct d3d12xs_shader_binding *b, char *buffer, size_t size)
{
    static const char letters[] = "btus";
    snprintf(buffer, size, "%c%u, space%u", b->register_class < 4 ? letters[b->register_class] : 'u',
            b->register_index, b->space);
    return buffer;
}

/* Push offsets that are not multiples of 16 would break the alignment glslang's layout
 * relied on for anything but scalars and vectors that stay inside a 16-byte slot. */
static HRESULT check_alignment(struct remap *m, const struct d3d12xs_shader_binding *b, uint32_t struct_id,
        uint32_t member, uint32_t type, uint32_t new_offset)
{
    uint32_t def = def_of(m, type), size, scalar;
    char name[48];

    if (!def)
        return remap_fail(m, "member type %u is not defined", type);
    switch (op_at(m, def)) {
    case SpvOpTypeInt:
    case SpvOpTypeFloat:
        scalar = len_at(m, def) >= 3 ? m->w[def + 2] / 8 : 4;
        size = scalar;
        break;
    case SpvOpTypeVector: {
        uint32_t component = len_at(m, def) >= 4 ? def_of(m, m->w[def + 2]) : 0;
        if (!component)
            return remap_fail(m, "malformed vector type %u", type);
        scalar = component && len_at(m, component) >= 3 ? m->w[component + 2] / 8 : 4;
        size = scalar * m->w[def + 3];
        break;
    }
    default:
        if (new_offset % 16)
            return remap_fail(m, "cbuffer %s: member %u of struct %u (a matrix, array or struct) would start at "
                    "push-constant offset %u, which is not 16-byte aligned: place these root constants at a "
                    "multiple of 16 bytes", register_name(b, name, sizeof(name)), member, struct_id, new_offset);
        return S_OK;
    }
    if (!scalar || new_offset % scalar || (size <= 16 && new_offset % 16 + size > 16) || (size > 16 && new_offset % 16))
        return remap_fail(m, "cbuffer %s: member %u of struct %u (%u bytes) would be misaligned at push-constant "
                "offset %u: place these root constants at a multiple of 16 bytes",
                register_name(b, name, sizeof(name)), member, struct_id, size, new_offset);
    return S_OK;
}

static int compare_members(const void *a, const void *b)
{
    const struct merged_member *x = a, *y = b;
    if (x->new_offset != y->new_offset)
        return x->new_offset < y->new_offset ? -1 : 1;
    return x->push != y->push ? (x->push < y->push ? -1 : 1) : (x->member < y->member ? -1 : x->member > y->member);
}

/* Is struct_id used by anything but the variable `variable`? */
static bool struct_shared(const struct remap *m, uint32_t struct_id, uint32_t variable)
{
    for (size_t o = 5; o < m->count; o += len_at(m, o)) {
        uint32_t op = op_at(m, o), n = len_at(m, o);
        if (op == SpvOpFunction)
            break;
        if (op == SpvOpTypeStruct) {
            for (uint32_t k = 2; k < n; k++)
                if (m->w[o + k] == struct_id)
                    return true;
        } else if ((op == SpvOpTypeArray || op == SpvOpTypeRuntimeArray) && n >= 3 && m->w[o + 2] == struct_id) {
            return true;
        } else if (op == SpvOpVariable && n >= 4 && m->w[o + 2] != variable) {
            uint32_t pointer = def_of(m, m->w[o + 1]);
            if (pointer && op_at(m, pointer) == SpvOpTypePointer && len_at(m, pointer) >= 4
                    && m->w[pointer + 3] == struct_id)
                return true;
        }
    }
    return false;
}

static HRESULT plan_push_constants(struct remap *m, const struct d3d12xs_shader_info *info,
        const struct d3d12xs_binding_target *targets)
{
    HRESULT hr;
    char name[48];

    for (uint32_t i = 0; i < info->binding_count; i++) {
        const struct d3d12xs_shader_binding *b = &info->bindings[i];
        struct push_block *p;
        uint32_t var_def, pointer, struct_def;

        if (!targets[i].push_constant)
            continue;
        if (b->descriptor_type != VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER || b->array_size != 1)
            return remap_fail(m, "binding %u (register %s) cannot be root constants: only a single cbuffer can",
                    i, register_name(b, name, sizeof(name)));
        if (targets[i].push_offset % 4)
            return remap_fail(m, "root constants of cbuffer %s: push offset %u is not a multiple of 4",
                    register_name(b, name, sizeof(name)), targets[i].push_offset);
        if ((uint64_t)targets[i].push_offset + b->block_size > 0x10000)
            return remap_fail(m, "root constants of cbuffer %s end past 64 KiB",
                    register_name(b, name, sizeof(name)));
        for (uint32_t k = 0; k < m->push_count; k++) {
            const struct d3d12xs_binding_target *t = &targets[m->pushes[k].binding];
            const struct d3d12xs_shader_binding *other = &info->bindings[m->pushes[k].binding];
            if (targets[i].push_offset < t->push_offset + other->block_size
                    && t->push_offset < targets[i].push_offset + b->block_size)
                return remap_fail(m, "root constants of cbuffers %s (bytes %u..%u) and b%u, space%u (bytes %u..%u) "
                        "overlap in the push-constant range", register_name(b, name, sizeof(name)),
                        targets[i].push_offset, targets[i].push_offset + b->block_size, other->register_index,
                        other->space, t->push_offset, t->push_offset + other->block_size);
        }
        var_def = def_of(m, b->variable_id);
        pointer = var_def ? def_of(m, m->w[var_def + 1]) : 0;
        struct_def = pointer && len_at(m, pointer) >= 4 ? def_of(m, m->w[pointer + 3]) : 0;
        if (!struct_def || op_at(m, struct_def) != SpvOpTypeStruct || m->w[var_def + 3] != SpvStorageClassUniform)
            return remap_fail(m, "cbuffer %s (variable %u) is not a Uniform block in this module",
                    register_name(b, name, sizeof(name)), b->variable_id);
        p = &m->pushes[m->push_count++];
        p->binding = i;
        p->variable = b->variable_id;
        p->struct_id = m->w[struct_def + 1];
        p->member_count = len_at(m, struct_def) - 2;
        m->push_of[b->variable_id] = m->push_count;
        for (uint32_t k = 0; k < p->member_count; k++) {
            uint32_t offset;
            if (!member_decoration(m, p->struct_id, k, SpvDecorationOffset, &offset))
                return remap_fail(m, "member %u of cbuffer struct %u has no Offset", k, p->struct_id);
            if (FAILED(hr = check_alignment(m, b, p->struct_id, k, m->w[struct_def + 2 + k],
                    offset + targets[i].push_offset)))
                return hr;
        }
    }
    if (!m->push_count)
        return S_OK;

    m->merged = m->push_count > 1 || (targets[m->pushes[0].binding].push_offset
            && struct_shared(m, m->pushes[0].struct_id, m->pushes[0].variable));
    if (!m->merged) {
        uint32_t twin;
        return twin_of(m, m->pushes[0].struct_id, &twin); /* for the variable itself */
    }

    /* the merged block */
    for (uint32_t k = 0; k < m->push_count; k++)
        m->member_count += m->pushes[k].member_count;
    if (!(m->members = calloc(m->member_count ? m->member_count : 1, sizeof(*m->members))))
        return E_OUTOFMEMORY;
    m->member_count = 0;
    for (uint32_t k = 0; k < m->push_count; k++) {
        struct push_block *p = &m->pushes[k];
        uint32_t struct_def = def_of(m, p->struct_id);
        if (!(p->new_index = calloc(p->member_count ? p->member_count : 1, sizeof(*p->new_index))))
            return E_OUTOFMEMORY;
        for (uint32_t j = 0; j < p->member_count; j++) {
            struct merged_member *mm = &m->members[m->member_count++];
            member_decoration(m, p->struct_id, j, SpvDecorationOffset, &mm->new_offset);
            mm->new_offset += targets[p->binding].push_offset;
            mm->type = m->w[struct_def + 2 + j];
            mm->push = k;
            mm->member = j;
        }
    }
    qsort(m->members, m->member_count, sizeof(*m->members), compare_members);
    for (uint32_t j = 0; j < m->member_count; j++)
        m->pushes[m->members[j].push].new_index[m->members[j].member] = j;
    if (FAILED(hr = new_id(m, &m->merged_struct)) || FAILED(hr = new_id(m, &m->merged_pointer))
            || FAILED(hr = new_id(m, &m->merged_variable)))
        return hr;
    return S_OK;
}

static bool is_access_chain(uint32_t op)
{
    return op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain || op == SpvOpPtrAccessChain
            || op == SpvOpInBoundsPtrAccessChain;
}

static bool is_atomic(uint32_t op)
{
    return (op >= SpvOpAtomicLoad && op <= SpvOpAtomicXor) || op == SpvOpAtomicFMinEXT || op == SpvOpAtomicFMaxEXT
            || op == SpvOpAtomicFAddEXT || op == SpvOpAtomicFlagTestAndSet || op == SpvOpAtomicFlagClear;
}

/* Operand word range [first, n) of op that may hold pointers we do not know how to retype. */
static bool forbidden_operands(uint32_t op, uint32_t n, uint32_t *first)
{
    switch (op) {
    case SpvOpStore: case SpvOpReturnValue: *first = 1; return true;
    case SpvOpCopyMemorySized: *first = 1; return true;
    case SpvOpPhi: case SpvOpArrayLength: case SpvOpBitcast: case SpvOpConvertPtrToU: case SpvOpImageTexelPointer:
    case SpvOpPtrEqual: case SpvOpPtrNotEqual: case SpvOpPtrDiff: case SpvOpSelect:
        *first = 3; return true;
    case SpvOpFunctionCall: *first = 4; return true;
    case SpvOpExtInst: *first = 5; return true;
    default:
        if (is_atomic(op)) {
            *first = 3;
            return true;
        }
        (void)n;
        return false;
    }
}

/* Marks the pointers derived from root-constant variables and refuses uses we cannot retype. */
static HRESULT track_pointers(struct remap *m)
{
    bool in_function = false;
    HRESULT hr;

    for (uint32_t k = 0; k < m->push_count; k++)
        m->tracked[m->pushes[k].variable] = 1;
    for (size_t o = 5; o < m->count; o += len_at(m, o)) {
        uint32_t op = op_at(m, o), n = len_at(m, o), twin;
        if (op == SpvOpFunction)
            in_function = true;
        if (!in_function)
            continue;
        if ((is_access_chain(op) && n >= 4) || (op == SpvOpCopyObject && n >= 4)) {
            uint32_t base = m->w[o + 3], result = m->w[o + 2];
            if (base >= m->bound || !m->tracked[base])
                continue;
            if (result >= m->bound)
                return remap_fail(m, "id %u is out of bounds", result);
            if (m->merged && m->push_of[base]) {
                if (op != SpvOpAccessChain && op != SpvOpInBoundsAccessChain)
                    return remap_fail(m, "root-constant cbuffer variable %u is used by opcode %u: merged "
                            "push-constant blocks only support member access chains", base, op);
                if (n < 5)
                    return remap_fail(m, "root-constant cbuffer variable %u is used as a whole (access chain "
                            "without index), which cannot be merged into the push-constant block", base);
            }
            m->tracked[result] = 1;
            if (FAILED(hr = twin_of_pointer(m, m->w[o + 1], &twin)))
                return hr;
        }
    }
    /* uses nobody retypes */
    in_function = false;
    for (size_t o = 5; o < m->count; o += len_at(m, o)) {
        uint32_t op = op_at(m, o), n = len_at(m, o), first;
        if (op == SpvOpFunction)
            in_function = true;
        if (!in_function)
            continue;
        if (m->merged && ((op == SpvOpLoad && n >= 4) || (op == SpvOpCopyMemory && n >= 3))) {
            uint32_t pointer = m->w[o + (op == SpvOpLoad ? 3 : 2)];
            if (pointer < m->bound && m->push_of[pointer])
                return remap_fail(m, "root-constant cbuffer variable %u is loaded as a whole, which cannot be "
                        "merged into the push-constant block", pointer);
        }
        if (op == SpvOpCopyMemory && n >= 2 && m->w[o + 1] < m->bound && m->tracked[m->w[o + 1]])
            return remap_fail(m, "a root-constant cbuffer is written to (OpCopyMemory)");
        if (!forbidden_operands(op, n, &first))
            continue;
        for (uint32_t k = first; k < n; k++)
            if (m->w[o + k] < m->bound && m->tracked[m->w[o + k]])
                return remap_fail(m, "pointer %u into a root-constant cbuffer is used by opcode %u, which the "
                        "push-constant remapping does not handle", m->w[o + k], op);
    }
    return S_OK;
}

static void emit_new_annotations(struct remap *m, const struct d3d12xs_binding_target *targets)
{
    uint32_t words[3] = {(3u << 16) | SpvOpDecorate, m->merged_struct, SpvDecorationBlock};

    if (!m->merged)
        return;
    emit(m, words, 3);
    for (uint32_t j = 0; j < m->member_count; j++) {
        const struct merged_member *mm = &m->members[j];
        const struct push_block *p = &m->pushes[mm->push];
        for (size_t o = 5; o < m->count; o += len_at(m, o)) {
            uint32_t op = op_at(m, o), n = len_at(m, o), copy[16];
            if (op == SpvOpFunction)
                break;
            if (op != SpvOpMemberDecorate || n < 4 || n > 16 || m->w[o + 1] != p->struct_id || m->w[o + 2] != mm->member)
                continue;
            memcpy(copy, &m->w[o], n * 4);
            copy[1] = m->merged_struct;
            copy[2] = j;
            if (copy[3] == SpvDecorationOffset && n >= 5)
                copy[4] += targets[p->binding].push_offset;
            emit(m, copy, n);
        }
    }
}

static void emit_new_globals(struct remap *m)
{
    for (size_t i = 0; i < m->new_constant_count; i += 3) {
        uint32_t words[4] = {(4u << 16) | SpvOpConstant, m->new_constants[i], m->new_constants[i + 1],
                m->new_constants[i + 2]};
        emit(m, words, 4);
    }
    if (m->merged) {
        uint32_t head[2] = {((2 + m->member_count) << 16) | SpvOpTypeStruct, m->merged_struct};
        uint32_t pointer[4] = {(4u << 16) | SpvOpTypePointer, m->merged_pointer, SpvStorageClassPushConstant,
                m->merged_struct};
        uint32_t variable[4] = {(4u << 16) | SpvOpVariable, m->merged_pointer, m->merged_variable,
                SpvStorageClassPushConstant};
        emit(m, head, 2);
        for (uint32_t j = 0; j < m->member_count; j++)
            emit(m, &m->members[j].type, 1);
        emit(m, pointer, 4);
        for (size_t i = 0; i < m->twin_count; i++) {
            uint32_t words[4] = {(4u << 16) | SpvOpTypePointer, m->twin[m->twin_list[i]], SpvStorageClassPushConstant,
                    m->twin_list[i]};
            emit(m, words, 4);
        }
        emit(m, variable, 4);
    } else {
        for (size_t i = 0; i < m->twin_count; i++) {
            uint32_t words[4] = {(4u << 16) | SpvOpTypePointer, m->twin[m->twin_list[i]], SpvStorageClassPushConstant,
                    m->twin_list[i]};
            emit(m, words, 4);
        }
        for (uint32_t k = 0; k < m->push_count; k++) {
            /* the in-place variable, moved behind its new pointer type */
            uint32_t var_def = m->def[m->pushes[k].variable], pointer = def_of(m, m->w[var_def + 1]);
            uint32_t words[4] = {(4u << 16) | SpvOpVariable, m->twin[m->w[pointer + 3]], m->pushes[k].variable,
                    SpvStorageClassPushConstant};
            emit(m, words, 4);
        }
    }
}

static HRESULT rewrite(struct remap *m, const struct d3d12xs_binding_target *targets)
{
    bool annotations_done = false, globals_done = false, in_function = false;
    uint32_t version = m->w[1];
    HRESULT hr;

    emit(m, m->w, 5);
    for (size_t o = 5; o < m->count; o += len_at(m, o)) {
        uint32_t op = op_at(m, o), n = len_at(m, o), copy_small[8], *copy = copy_small;
        bool drop = false;

        if (!annotations_done && !d3d12xs_spirv_is_preamble_or_debug(op) && !d3d12xs_spirv_is_annotation(op)) {
            emit_new_annotations(m, targets);
            annotations_done = true;
        }
        if (op == SpvOpFunction && !globals_done) {
            emit_new_globals(m);
            globals_done = true;
            in_function = true;
        }
        if (n > 8 && !(copy = malloc(n * 4)))
            return E_OUTOFMEMORY;
        memcpy(copy, &m->w[o], n * 4);

        switch (op) {
        case SpvOpEntryPoint:
            if (version >= 0x10400u && m->merged) {
                size_t next;
                uint32_t k, out = 0;
                if (!d3d12xs_spirv_string(m->w, o + 3, o + n, NULL, &next))
                    break;
                out = (uint32_t)(next - o);
                for (k = out; k < n; k++)
                    if (!(m->w[o + k] < m->bound && m->push_of[m->w[o + k]]))
                        copy[out++] = m->w[o + k];
                /* the merged variable takes the place of the removed ones (at most n words) */
                if (out < n)
                    copy[out++] = m->merged_variable;
                copy[0] = (out << 16) | op;
                n = out;
            }
            break;
        case SpvOpName:
        case SpvOpDecorate:
        case SpvOpDecorateId:
        case SpvOpDecorateString: {
            uint32_t target = n >= 2 ? m->w[o + 1] : 0;
            if (target >= m->bound)
                break;
            if (m->merged && m->push_of[target]) {
                drop = true;
            } else if (op == SpvOpDecorate && n >= 4 && m->var_binding[target]
                    && (m->w[o + 2] == SpvDecorationDescriptorSet || m->w[o + 2] == SpvDecorationBinding)) {
                const struct d3d12xs_binding_target *t = &targets[m->var_binding[target] - 1];
                if (t->push_constant)
                    drop = true;
                else
                    copy[3] = m->w[o + 2] == SpvDecorationDescriptorSet ? t->set : t->binding;
            }
            break;
        }
        case SpvOpGroupDecorate:
            for (uint32_t k = 2; k < n; k++)
                if (m->w[o + k] < m->bound && m->push_of[m->w[o + k]]) {
                    if (copy != copy_small)
                        free(copy);
                    return remap_fail(m, "root-constant cbuffer variable %u is in a decoration group, "
                            "which the remapping does not handle", m->w[o + k]);
                }
            break;
        case SpvOpMemberDecorate:
            if (!m->merged && n >= 5 && m->w[o + 3] == SpvDecorationOffset) {
                for (uint32_t k = 0; k < m->push_count; k++)
                    if (m->w[o + 1] == m->pushes[k].struct_id)
                        copy[4] += targets[m->pushes[k].binding].push_offset;
            }
            break;
        case SpvOpVariable:
            if (!in_function && n >= 4 && m->w[o + 2] < m->bound && m->push_of[m->w[o + 2]])
                drop = true; /* re-emitted (in place) or replaced (merged) with the new globals */
            break;
        default:
            if (in_function && ((is_access_chain(op) && n >= 4) || (op == SpvOpCopyObject && n >= 4))
                    && m->w[o + 2] < m->bound && m->tracked[m->w[o + 2]]) {
                uint32_t base = m->w[o + 3];
                if (FAILED(hr = twin_of_pointer(m, m->w[o + 1], &copy[1]))) {
                    if (copy != copy_small)
                        free(copy);
                    return hr;
                }
                if (m->merged && base < m->bound && m->push_of[base]) {
                    const struct push_block *p = &m->pushes[m->push_of[base] - 1];
                    uint32_t type, index;
                    copy[3] = m->merged_variable;
                    if (!int32_constant(m, m->w[o + 4], &type, &index) || index >= p->member_count) {
                        if (copy != copy_small)
                            free(copy);
                        return remap_fail(m, "access chain %u into cbuffer variable %u has no valid constant member "
                                "index", m->w[o + 2], base);
                    }
                    if (FAILED(hr = constant_id(m, type, p->new_index[index], &copy[4]))) {
                        if (copy != copy_small)
                            free(copy);
                        return hr;
                    }
                }
            }
            break;
        }
        if (!drop)
            emit(m, copy, n);
        if (copy != copy_small)
            free(copy);
    }
    if (!globals_done)
        return remap_fail(m, "the module has no function");
    return m->out_of_memory ? E_OUTOFMEMORY : S_OK;
}

/* New constants are found while rewriting functions, after the globals were emitted: a
 * first dry run finds them all (constant_id() is idempotent), the second emits. */
static HRESULT run_rewrite(struct remap *m, const struct d3d12xs_binding_target *targets)
{
    HRESULT hr;
    size_t constants;
    do {
        constants = m->new_constant_count;
        m->out_count = 0;
        m->out_of_memory = false;
        if (FAILED(hr = rewrite(m, targets)))
            return hr;
    } while (constants != m->new_constant_count);
    return S_OK;
}

HRESULT d3d12xs_spirv_validate(const uint32_t *words, size_t word_count, bool scalar_block_layout, char *error,
        size_t error_size)
{
    spv_target_env env = SPV_ENV_VULKAN_1_1;
    spv_diagnostic diagnostic = NULL;
    spv_validator_options options;
    spv_const_binary_t binary = {words, word_count};
    spv_context context;
    spv_result_t result;

    if (error && error_size)
        error[0] = 0;
    if (word_count >= 2) {
        if (words[1] >= 0x10600u)
            env = SPV_ENV_VULKAN_1_3;
        else if (words[1] >= 0x10500u)
            env = SPV_ENV_VULKAN_1_2;
        else if (words[1] >= 0x10400u)
            env = SPV_ENV_VULKAN_1_1_SPIRV_1_4;
    }
    if (!(context = spvContextCreate(env)))
        return E_OUTOFMEMORY;
    if (!(options = spvValidatorOptionsCreate())) {
        spvContextDestroy(context);
        return E_OUTOFMEMORY;
    }
    spvValidatorOptionsSetScalarBlockLayout(options, scalar_block_layout);
    result = spvValidateWithOptions(context, options, &binary, &diagnostic);
    spvValidatorOptionsDestroy(options);
    if (result != SPV_SUCCESS)
        d3d12xs_spirv_error(E_FAIL, error, error_size, "SPIR-V validation failed: %s",
                diagnostic && diagnostic->error ? diagnostic->error : "(no message)");
    spvDiagnosticDestroy(diagnostic);
    spvContextDestroy(context);
    return result == SPV_SUCCESS ? S_OK : E_FAIL;
}

HRESULT d3d12xs_spirv_remap(const void *code, size_t size, const struct d3d12xs_shader_info *info,
        const struct d3d12xs_binding_target *targets, uint32_t **out_words, size_t *out_word_count,
        char *error, size_t error_size)
{
    struct remap m;
    bool in_function = false;
    HRESULT hr;

    if (error && error_size)
        error[0] = 0;
    if (out_words)
        *out_words = NULL;
    if (out_word_count)
        *out_word_count = 0;
    if (!info || (!targets && info->binding_count) || !out_words || !out_word_count)
        return d3d12xs_spirv_error(E_INVALIDARG, error, error_size, "NULL argument to the SPIR-V remapping");
    memset(&m, 0, sizeof(m));
    m.error = error;
    m.error_size = error_size;
    if (FAILED(hr = d3d12xs_spirv_load(code, size, &m.w, &m.count, error, error_size)))
        return hr;
    m.bound = m.next_id = m.w[3];
    if (!(m.def = calloc(m.bound, sizeof(*m.def))) || !(m.var_binding = calloc(m.bound, sizeof(*m.var_binding)))
            || !(m.twin = calloc(m.bound, sizeof(*m.twin))) || !(m.tracked = calloc(m.bound, 1))
            || !(m.push_of = calloc(m.bound, sizeof(*m.push_of)))
            || !(m.pushes = calloc(info->binding_count ? info->binding_count : 1, sizeof(*m.pushes)))) {
        hr = E_OUTOFMEMORY;
        goto done;
    }

    for (size_t o = 5; o < m.count && !in_function; o += len_at(&m, o)) {
        uint32_t op = op_at(&m, o), n = len_at(&m, o), result = 0;
        if (op == SpvOpFunction)
            break;
        if ((op >= SpvOpTypeVoid && op <= SpvOpTypePipe) || op == SpvOpTypeAccelerationStructureKHR)
            result = n >= 2 ? m.w[o + 1] : 0;
        else if ((op >= SpvOpConstantTrue && op <= SpvOpSpecConstantOp) || op == SpvOpVariable)
            result = n >= 3 ? m.w[o + 2] : 0;
        if (op == SpvOpTypeForwardPointer)
            result = 0;
        if (result && result < m.bound && !m.def[result])
            m.def[result] = (uint32_t)o;
        if (op == SpvOpVariable && n >= 4 && m.w[o + 3] == SpvStorageClassPushConstant)
            for (uint32_t i = 0; i < info->binding_count; i++)
                if (targets[i].push_constant) {
                    hr = remap_fail(&m, "the module already has a push-constant block, so root-constant "
                            "cbuffers cannot be added to it");
                    goto done;
                }
    }
    for (uint32_t i = 0; i < info->binding_count; i++) {
        uint32_t id = info->bindings[i].variable_id, def = def_of(&m, id);
        if (!def || op_at(&m, def) != SpvOpVariable || m.var_binding[id]) {
            hr = remap_fail(&m, "binding %u names variable %u, which is no (other) resource variable of this "
                    "module: the shader info does not belong to this code", i, id);
            goto done;
        }
        m.var_binding[id] = i + 1;
        if ((id = info->bindings[i].alias_variable_id)) {
            def = def_of(&m, id);
            if (!def || op_at(&m, def) != SpvOpVariable || m.var_binding[id]) {
                hr = remap_fail(&m, "binding %u's alias names variable %u, which is no (other) resource variable of "
                        "this module: the shader info does not belong to this code", i, id);
                goto done;
            }
            m.var_binding[id] = i + 1;
        }
    }

    if (FAILED(hr = plan_push_constants(&m, info, targets)) || FAILED(hr = track_pointers(&m))
            || FAILED(hr = run_rewrite(&m, targets)))
        goto done;
    m.out[3] = m.next_id;

    *out_words = m.out;
    *out_word_count = m.out_count;
    m.out = NULL;
    hr = S_OK;

done:
    for (uint32_t k = 0; k < m.push_count; k++)
        free(m.pushes[k].new_index);
    free(m.pushes);
    free(m.members);
    free(m.new_constants);
    free(m.twin_list);
    free(m.out);
    free(m.def);
    free(m.var_binding);
    free(m.twin);
    free(m.tracked);
    free(m.push_of);
    free(m.w);
    return hr;
}
