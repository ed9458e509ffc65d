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

#include <spirv/unified1/spirv.h>

#include "common/log.h"
#include "spirv/spirv.h"
#include "spirv/spirv_passes.h"

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
    uint32_t *new_index; /* merged: new index of each old member */
};

struct remap {
    struct d3d12xs_spirv_module *m;
    uint32_t bound;        /* of the module before the remap: the tables below cover these ids */
    uint32_t *var_binding; /* variable id -> binding index + 1 */
    uint8_t *tracked;      /* pointer ids derived from root-constant variables */
    uint32_t *push_of;     /* variable id -> push block index + 1 */
    struct push_block *pushes;
    uint32_t push_count;
    bool merged;
    uint32_t merged_struct, merged_pointer, merged_variable;
    struct merged_member *members;
    uint32_t member_count;
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

static bool is_tracked(const struct remap *m, uint32_t id) { return id < m->bound && m->tracked[id]; }
static uint32_t push_of(const struct remap *m, uint32_t id) { return id < m->bound ? m->push_of[id] : 0; }

static HRESULT new_id(struct remap *m, uint32_t *id)
{
    if (!(*id = d3d12xs_spirv_new_id(m->m)))
        return m->m->out_of_memory ? E_OUTOFMEMORY : remap_fail(m, "the module's id bound would exceed 0x3fffff");
    return S_OK;
}

/* The PushConstant pointer type to pointee (the module's, or a new one). */
static HRESULT twin_of(struct remap *m, uint32_t pointee, uint32_t *id)
{
    if (!d3d12xs_spirv_def(m->m, pointee))
        return remap_fail(m, "pointee type %u is out of range", pointee);
    if (!(*id = d3d12xs_spirv_type_pointer(m->m, SpvStorageClassPushConstant, pointee)))
        return E_OUTOFMEMORY;
    return S_OK;
}

/* The twin of the Uniform pointer type `type` (the result type of a derived pointer). */
static HRESULT twin_of_pointer(struct remap *m, uint32_t type, uint32_t *id)
{
    const struct d3d12xs_spirv_inst *def = d3d12xs_spirv_def_op(m->m, type, SpvOpTypePointer, 4);
    if (!def || def->w[2] != SpvStorageClassUniform)
        return remap_fail(m, "type %u of a pointer into a root-constant cbuffer is not a Uniform pointer", type);
    return twin_of(m, def->w[3], id);
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
    const struct d3d12xs_spirv_inst *def = d3d12xs_spirv_def(m->m, type);
    uint32_t size, scalar;
    char name[48];

    if (!def)
        return remap_fail(m, "member type %u is not defined", type);
    switch (d3d12xs_spirv_op(def)) {
    case SpvOpTypeInt:
    case SpvOpTypeFloat:
        scalar = d3d12xs_spirv_len(def) >= 3 ? def->w[2] / 8 : 4;
        size = scalar;
        break;
    case SpvOpTypeVector: {
        const struct d3d12xs_spirv_inst *component = d3d12xs_spirv_len(def) >= 4 ? d3d12xs_spirv_def(m->m, def->w[2]) : NULL;
        if (!component)
            return remap_fail(m, "malformed vector type %u", type);
        scalar = d3d12xs_spirv_len(component) >= 3 ? component->w[2] / 8 : 4;
        size = scalar * def->w[3];
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
    const struct d3d12xs_spirv_inst *inst;
    for (D3D12XS_SPIRV_EACH(m->m, D3D12XS_SPIRV_GLOBALS, i, inst)) {
        const uint32_t *w = inst->w;
        uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst);
        if (op == SpvOpTypeStruct) {
            for (uint32_t k = 2; k < n; k++)
                if (w[k] == struct_id)
                    return true;
        } else if ((op == SpvOpTypeArray || op == SpvOpTypeRuntimeArray) && n >= 3 && w[2] == struct_id) {
            return true;
        } else if (op == SpvOpVariable && n >= 4 && w[2] != variable) {
            const struct d3d12xs_spirv_inst *pointer = d3d12xs_spirv_def_op(m->m, w[1], SpvOpTypePointer, 4);
            if (pointer && pointer->w[3] == struct_id)
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
        const struct d3d12xs_spirv_inst *var_def, *pointer, *struct_def;
        struct push_block *p;

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
        var_def = d3d12xs_spirv_def(m->m, b->variable_id);
        pointer = var_def ? d3d12xs_spirv_def_op(m->m, var_def->w[1], SpvOpTypePointer, 4) : NULL;
        struct_def = pointer ? d3d12xs_spirv_def_op(m->m, pointer->w[3], SpvOpTypeStruct, 2) : NULL;
        if (!struct_def || var_def->w[3] != SpvStorageClassUniform)
            return remap_fail(m, "cbuffer %s (variable %u) is not a Uniform block in this module",
                    register_name(b, name, sizeof(name)), b->variable_id);
        p = &m->pushes[m->push_count++];
        p->binding = i;
        p->variable = b->variable_id;
        p->struct_id = struct_def->w[1];
        p->member_count = d3d12xs_spirv_len(struct_def) - 2;
        m->push_of[b->variable_id] = m->push_count;
        for (uint32_t k = 0; k < p->member_count; k++) {
            uint32_t offset;
            if (!d3d12xs_spirv_member_decoration(m->m, p->struct_id, k, SpvDecorationOffset, &offset))
                return remap_fail(m, "member %u of cbuffer struct %u has no Offset", k, p->struct_id);
            if (FAILED(hr = check_alignment(m, b, p->struct_id, k, struct_def->w[2 + k],
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
        const struct d3d12xs_spirv_inst *struct_def = d3d12xs_spirv_def(m->m, p->struct_id);
        if (!(p->new_index = calloc(p->member_count ? p->member_count : 1, sizeof(*p->new_index))))
            return E_OUTOFMEMORY;
        for (uint32_t j = 0; j < p->member_count; j++) {
            struct merged_member *mm = &m->members[m->member_count++];
            d3d12xs_spirv_member_decoration(m->m, p->struct_id, j, SpvDecorationOffset, &mm->new_offset);
            mm->new_offset += targets[p->binding].push_offset;
            mm->type = struct_def->w[2 + j];
            mm->push = k;
            mm->member = j;
        }
    }
    qsort(m->members, m->member_count, sizeof(*m->members), compare_members);
    for (uint32_t j = 0; j < m->member_count; j++)
        m->pushes[m->members[j].push].new_index[m->members[j].member] = j;
    if (FAILED(hr = new_id(m, &m->merged_struct)) || FAILED(hr = new_id(m, &m->merged_variable)))
        return hr;
    {
        /* the new block's type (its members are the module's types) and pointer type */
        uint32_t *words = malloc((2 + m->member_count) * sizeof(*words));
        if (!words)
            return E_OUTOFMEMORY;
        words[0] = SpvOpTypeStruct;
        words[1] = m->merged_struct;
        for (uint32_t j = 0; j < m->member_count; j++)
            words[2 + j] = m->members[j].type;
        d3d12xs_spirv_append(m->m, D3D12XS_SPIRV_GLOBALS, words, 2 + m->member_count);
        free(words);
    }
    if (!(m->merged_pointer = d3d12xs_spirv_type_pointer(m->m, SpvStorageClassPushConstant, m->merged_struct)))
        return E_OUTOFMEMORY;
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
    const struct d3d12xs_spirv_inst *inst;
    HRESULT hr;

    for (uint32_t k = 0; k < m->push_count; k++)
        m->tracked[m->pushes[k].variable] = 1;
    for (D3D12XS_SPIRV_EACH(m->m, D3D12XS_SPIRV_FUNCTIONS, i, inst)) {
        const uint32_t *w = inst->w;
        uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst), twin;
        if ((is_access_chain(op) && n >= 4) || (op == SpvOpCopyObject && n >= 4)) {
            uint32_t base = w[3], result = w[2];
            if (!is_tracked(m, base))
                continue;
            if (result >= m->bound)
                return remap_fail(m, "id %u is out of bounds", result);
            if (m->merged && push_of(m, base)) {
                if (op != SpvOpAccessChain && op != SpvOpInBoundsAccessChain)
                    return remap_fail(m, "root-constant cbuffer variable %u is used by opcode %u: merged "
                            "push-constant blocks only support member access chains", base, op);
                if (n < 5)
                    return remap_fail(m, "root-constant cbuffer variable %u is used as a whole (access chain "
                            "without index), which cannot be merged into the push-constant block", base);
            }
            m->tracked[result] = 1;
            if (FAILED(hr = twin_of_pointer(m, w[1], &twin)))
                return hr;
        }
    }
    /* uses nobody retypes */
    for (D3D12XS_SPIRV_EACH(m->m, D3D12XS_SPIRV_FUNCTIONS, i, inst)) {
        const uint32_t *w = inst->w;
        uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst), first;
        if (m->merged && ((op == SpvOpLoad && n >= 4) || (op == SpvOpCopyMemory && n >= 3))) {
            uint32_t pointer = w[op == SpvOpLoad ? 3 : 2];
            if (push_of(m, pointer))
                return remap_fail(m, "root-constant cbuffer variable %u is loaded as a whole, which cannot be "
                        "merged into the push-constant block", pointer);
        }
        if (op == SpvOpCopyMemory && n >= 2 && is_tracked(m, w[1]))
            return remap_fail(m, "a root-constant cbuffer is written to (OpCopyMemory)");
        if (!forbidden_operands(op, n, &first))
            continue;
        for (uint32_t k = first; k < n; k++)
            if (is_tracked(m, w[k]))
                return remap_fail(m, "pointer %u into a root-constant cbuffer is used by opcode %u, which the "
                        "push-constant remapping does not handle", w[k], op);
    }
    return S_OK;
}

static bool is_push_variable(uint32_t id, void *context)
{
    return push_of(context, id) != 0;
}

/* Entry points (SPIR-V 1.4: the merged variable replaces the ones it merges), names and
 * decorations of the variables. */
static HRESULT rewrite_declarations(struct remap *m, const struct d3d12xs_binding_target *targets)
{
    struct d3d12xs_spirv_module *mod = m->m;
    struct d3d12xs_spirv_inst *inst;

    if (mod->version >= 0x10400u && m->merged) {
        for (D3D12XS_SPIRV_EACH(mod, D3D12XS_SPIRV_ENTRY_POINTS, i, inst))
            if (d3d12xs_spirv_filter_entry_point(inst, is_push_variable, m))
                /* the merged variable takes the place of the removed ones */
                d3d12xs_spirv_append_operand(mod, inst, m->merged_variable);
    }
    for (size_t i = 0; i < mod->sections[D3D12XS_SPIRV_DEBUG].count;) {
        inst = mod->sections[D3D12XS_SPIRV_DEBUG].at[i];
        if (m->merged && d3d12xs_spirv_op(inst) == SpvOpName && d3d12xs_spirv_len(inst) >= 2 && push_of(m, inst->w[1]))
            d3d12xs_spirv_remove(mod, D3D12XS_SPIRV_DEBUG, i);
        else
            i++;
    }
    for (size_t i = 0; i < mod->sections[D3D12XS_SPIRV_ANNOTATIONS].count;) {
        uint32_t op, n, target;
        bool drop = false;
        inst = mod->sections[D3D12XS_SPIRV_ANNOTATIONS].at[i];
        op = d3d12xs_spirv_op(inst);
        n = d3d12xs_spirv_len(inst);
        target = n >= 2 ? inst->w[1] : 0;
        switch (op) {
        case SpvOpDecorate:
        case SpvOpDecorateId:
        case SpvOpDecorateString:
            if (target >= m->bound)
                break;
            if (m->merged && m->push_of[target]) {
                drop = true;
            } else if (op == SpvOpDecorate && n >= 4 && m->var_binding[target]
                    && (inst->w[2] == SpvDecorationDescriptorSet || inst->w[2] == SpvDecorationBinding)) {
                const struct d3d12xs_binding_target *t = &targets[m->var_binding[target] - 1];
                if (t->push_constant)
                    drop = true;
                else
                    inst->w[3] = inst->w[2] == SpvDecorationDescriptorSet ? t->set : t->binding;
            }
            break;
        case SpvOpGroupDecorate:
            for (uint32_t k = 2; k < n; k++)
                if (push_of(m, inst->w[k]))
                    return remap_fail(m, "root-constant cbuffer variable %u is in a decoration group, "
                            "which the remapping does not handle", inst->w[k]);
            break;
        case SpvOpMemberDecorate:
            if (!m->merged && n >= 5 && inst->w[3] == SpvDecorationOffset) {
                for (uint32_t k = 0; k < m->push_count; k++)
                    if (inst->w[1] == m->pushes[k].struct_id)
                        inst->w[4] += targets[m->pushes[k].binding].push_offset;
            }
            break;
        }
        if (drop)
            d3d12xs_spirv_remove(mod, D3D12XS_SPIRV_ANNOTATIONS, i);
        else
            i++;
    }
    return S_OK;
}

/* The merged block's decorations: Block, and each member's decorations from its cbuffer. */
static void add_merged_annotations(struct remap *m, const struct d3d12xs_binding_target *targets)
{
    struct d3d12xs_spirv_module *mod = m->m;
    uint32_t block[3] = {SpvOpDecorate, m->merged_struct, SpvDecorationBlock};
    size_t count = mod->sections[D3D12XS_SPIRV_ANNOTATIONS].count;

    d3d12xs_spirv_append(mod, D3D12XS_SPIRV_ANNOTATIONS, block, 3);
    for (uint32_t j = 0; j < m->member_count; j++) {
        const struct merged_member *mm = &m->members[j];
        const struct push_block *p = &m->pushes[mm->push];
        for (size_t i = 0; i < count; i++) {
            const struct d3d12xs_spirv_inst *inst = mod->sections[D3D12XS_SPIRV_ANNOTATIONS].at[i];
            uint32_t n = d3d12xs_spirv_len(inst), copy[16];
            if (d3d12xs_spirv_op(inst) != SpvOpMemberDecorate || n < 4 || n > 16 || inst->w[1] != p->struct_id
                    || inst->w[2] != mm->member)
                continue;
            memcpy(copy, inst->w, n * 4);
            copy[1] = m->merged_struct;
            copy[2] = j;
            if (copy[3] == SpvDecorationOffset && n >= 5)
                copy[4] += targets[p->binding].push_offset;
            d3d12xs_spirv_append(mod, D3D12XS_SPIRV_ANNOTATIONS, copy, n);
        }
    }
}

/* The root-constant variables go; the in-place one comes back behind its new pointer type, the
 * merged one replaces them all. */
static void replace_variables(struct remap *m)
{
    struct d3d12xs_spirv_module *mod = m->m;
    struct d3d12xs_spirv_list *globals = &mod->sections[D3D12XS_SPIRV_GLOBALS];

    for (size_t i = 0; i < globals->count;) {
        const struct d3d12xs_spirv_inst *inst = globals->at[i];
        if (d3d12xs_spirv_op(inst) == SpvOpVariable && d3d12xs_spirv_len(inst) >= 4 && push_of(m, inst->w[2]))
            d3d12xs_spirv_remove(mod, D3D12XS_SPIRV_GLOBALS, i);
        else
            i++;
    }
    if (m->merged) {
        uint32_t variable[4] = {SpvOpVariable, m->merged_pointer, m->merged_variable, SpvStorageClassPushConstant};
        d3d12xs_spirv_append(mod, D3D12XS_SPIRV_GLOBALS, variable, 4);
        return;
    }
    for (uint32_t k = 0; k < m->push_count; k++) {
        uint32_t variable[4] = {SpvOpVariable, d3d12xs_spirv_type_pointer(mod, SpvStorageClassPushConstant, m->pushes[k].struct_id),
                m->pushes[k].variable, SpvStorageClassPushConstant};
        d3d12xs_spirv_append(mod, D3D12XS_SPIRV_GLOBALS, variable, 4);
    }
}

static HRESULT rewrite_functions(struct remap *m)
{
    struct d3d12xs_spirv_module *mod = m->m;
    struct d3d12xs_spirv_inst *inst;
    HRESULT hr;

    for (D3D12XS_SPIRV_EACH(mod, D3D12XS_SPIRV_FUNCTIONS, i, inst)) {
        uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst), *w;
        uint32_t base;
        if (!((is_access_chain(op) && n >= 4) || (op == SpvOpCopyObject && n >= 4)) || !is_tracked(m, inst->w[2]))
            continue;
        /* the words are the module's own: changed in place (the result id stays) */
        w = inst->w;
        base = w[3];
        if (FAILED(hr = twin_of_pointer(m, w[1], &w[1])))
            return hr;
        if (m->merged && push_of(m, base)) {
            const struct push_block *p = &m->pushes[push_of(m, base) - 1];
            uint32_t type, index;
            w[3] = m->merged_variable;
            if (!d3d12xs_spirv_int32_constant(mod, w[4], &type, &index) || index >= p->member_count)
                return remap_fail(m, "access chain %u into cbuffer variable %u has no valid constant member "
                        "index", w[2], base);
            if (!(w[4] = d3d12xs_spirv_constant(mod, type, p->new_index[index])))
                return E_OUTOFMEMORY;
        }
    }
    return S_OK;
}

HRESULT d3d12xs_spirv_pass_remap(struct d3d12xs_spirv_module *module, const struct d3d12xs_spirv_remap_args *args,
        char *error, size_t error_size)
{
    const struct d3d12xs_shader_info *info = args->info;
    const struct d3d12xs_binding_target *targets = args->targets;
    const struct d3d12xs_spirv_inst *inst;
    struct remap m;
    HRESULT hr;

    if (error && error_size)
        error[0] = 0;
    if (!info || (!targets && info->binding_count))
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "NULL argument to the SPIR-V remapping");
    memset(&m, 0, sizeof(m));
    m.m = module;
    m.bound = module->bound;
    m.error = error;
    m.error_size = error_size;
    if (!(m.var_binding = calloc(m.bound, sizeof(*m.var_binding))) || !(m.tracked = calloc(m.bound, 1))
            || !(m.push_of = calloc(m.bound, sizeof(*m.push_of)))
            || !(m.pushes = calloc(info->binding_count ? info->binding_count : 1, sizeof(*m.pushes)))) {
        hr = E_OUTOFMEMORY;
        goto done;
    }
    for (D3D12XS_SPIRV_EACH(module, D3D12XS_SPIRV_GLOBALS, i, inst)) {
        if (d3d12xs_spirv_op(inst) == SpvOpVariable && d3d12xs_spirv_len(inst) >= 4 && inst->w[3] == SpvStorageClassPushConstant)
            for (uint32_t b = 0; b < info->binding_count; b++)
                if (targets[b].push_constant) {
                    hr = remap_fail(&m, "the module already has a push-constant block, so root-constant "
                            "cbuffers cannot be added to it");
                    goto done;
                }
    }
    for (uint32_t i = 0; i < info->binding_count; i++) {
        uint32_t id = info->bindings[i].variable_id;
        const struct d3d12xs_spirv_inst *def = d3d12xs_spirv_def(module, id);
        if (!def || def->section != D3D12XS_SPIRV_GLOBALS || d3d12xs_spirv_op(def) != SpvOpVariable || d3d12xs_spirv_len(def) < 4
                || m.var_binding[id]) {
            hr = remap_fail(&m, "binding %u names variable %u, which is no (other) resource variable of this "
                    "module: the shader info does not belong to this code", i, id);
            goto done;
        }
        m.var_binding[id] = i + 1;
        if ((id = info->bindings[i].alias_variable_id)) {
            def = d3d12xs_spirv_def(module, id);
            if (!def || def->section != D3D12XS_SPIRV_GLOBALS || d3d12xs_spirv_op(def) != SpvOpVariable || m.var_binding[id]) {
                hr = remap_fail(&m, "binding %u's alias names variable %u, which is no (other) resource variable of "
                        "this module: the shader info does not belong to this code", i, id);
                goto done;
            }
            m.var_binding[id] = i + 1;
        }
    }
    if (!module->sections[D3D12XS_SPIRV_FUNCTIONS].count) {
        hr = remap_fail(&m, "the module has no function");
        goto done;
    }
    if (FAILED(hr = plan_push_constants(&m, info, targets)) || FAILED(hr = track_pointers(&m))
            || FAILED(hr = rewrite_declarations(&m, targets)) || FAILED(hr = rewrite_functions(&m)))
        goto done;
    if (m.merged)
        add_merged_annotations(&m, targets);
    replace_variables(&m);
    hr = module->out_of_memory ? E_OUTOFMEMORY : S_OK;

done:
    for (uint32_t k = 0; k < m.push_count; k++)
        free(m.pushes[k].new_index);
    free(m.pushes);
    free(m.members);
    free(m.var_binding);
    free(m.tracked);
    free(m.push_of);
    return hr;
}

HRESULT d3d12xs_spirv_remap(const void *code, size_t size, const struct d3d12xs_shader_info *info,
        const struct d3d12xs_binding_target *targets, uint32_t **out_words, size_t *out_word_count,
        char *error, size_t error_size)
{
    struct d3d12xs_spirv_remap_args args = {info, targets};
    struct d3d12xs_spirv_module *module;
    HRESULT hr;

    if (out_words)
        *out_words = NULL;
    if (out_word_count)
        *out_word_count = 0;
    if (!info || (!targets && info->binding_count) || !out_words || !out_word_count)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "NULL argument to the SPIR-V remapping");
    if (FAILED(hr = d3d12xs_spirv_module_parse(code, size, &module, error, error_size)))
        return hr;
    if (SUCCEEDED(hr = d3d12xs_spirv_pass_remap(module, &args, error, error_size)))
        hr = d3d12xs_spirv_module_emit(module, out_words, out_word_count);
    d3d12xs_spirv_module_destroy(module);
    return hr;
}
