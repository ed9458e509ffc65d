/* Raw and structured views at any offset D3D12 allows (docs/descriptors.md, "Views at any
 * offset"). A storage-buffer descriptor must start at a multiple of the device's
 * minStorageBufferOffsetAlignment (16 bytes on lavapipe and NVIDIA), where D3D12 lets a view
 * start at any element (4 bytes for raw views). So the descriptor of such a view starts a whole
 * number of elements earlier, at an aligned address, and this pass makes the shader skip them:
 * every index into the buffer's runtime array gets
 *
 *     + misalignment / ArrayStride        (misalignment: bytes, a multiple of the element)
 *
 * and every OpArrayLength of it loses as much. The misalignment of
 *   - a view read through the CBV_SRV_UAV heap (tables, d3d12xs_heap.hlsli; after the heap
 *     tables pass, a runtime array of storage-buffer blocks at (heap_set, binding 0)) is the
 *     misalignment word of the heap's side-table entry of the view's slot, a storage buffer at
 *     (offsets_set, binding 0) (descriptors/descriptor_buffer.h, spirv/spirv_side_table.h);
 *   - a root SRV or UAV (push descriptor) is a push constant the dispatch writes.
 *
 * The index is found by following pointers from the variable: each access chain walks down
 * from the heap array (the first index picks the slot), through the block (the member that is
 * the runtime array) to the element, wherever the chain starts or stops on the way. A pointer
 * passed to a function cannot be followed (glslang inlines everything unless
 * D3DCOMPILE_SKIP_OPTIMIZATION): such a variable is reported in args->unfollowed, and its
 * views must then be aligned (the dispatch checks root descriptors; heap views are the
 * application's, documented). */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "common/util.h"
#include "spirv/spirv_passes.h"
#include "descriptors/descriptor_buffer.h"
#include "spirv/spirv_push_block.h"
#include "spirv/spirv_side_table.h"

enum level { LEVEL_HEAP, LEVEL_BLOCK, LEVEL_ARRAY, LEVEL_PAST };

struct view_source {
    uint32_t variable;
    bool heap;                  /* else a root view */
    uint32_t runtime_member;    /* the block's member that is the runtime array */
    uint32_t stride;            /* its ArrayStride */
    struct d3d12xs_spirv_push_member push; /* root views: their misalignment */
    uint32_t root;              /* index into args->roots */
};

struct pointer_info {
    uint16_t source;            /* index + 1 into sources; 0: not followed */
    uint8_t level;
    uint32_t slot;              /* heap views: the id of the heap index, once known */
};

struct offsets {
    struct d3d12xs_spirv_module *m;
    const struct d3d12xs_spirv_view_offsets_args *args;
    struct view_source *sources;
    uint32_t source_count;
    struct pointer_info *pointers; /* by id, up to pointer_count */
    size_t pointer_count;
    uint32_t uint_type, zero;
    struct d3d12xs_spirv_side_table side_table; /* the heap's, where heap views are followed */
    char *error;
    size_t error_size;
};

/* The block a variable of (runtime) array or plain pointer type holds, its runtime-array member
 * and stride; false when it holds no storage buffer ending in one. */
static bool storage_block(const struct d3d12xs_spirv_module *m, uint32_t variable, bool array, uint32_t *member, uint32_t *stride)
{
    const struct d3d12xs_spirv_inst *var = d3d12xs_spirv_def_op(m, variable, SpvOpVariable, 4), *pointer, *type, *last;
    uint32_t block;

    if (!var || !(pointer = d3d12xs_spirv_def_op(m, var->w[1], SpvOpTypePointer, 4)) || !(type = d3d12xs_spirv_def(m, pointer->w[3])))
        return false;
    if (array) {
        if (d3d12xs_spirv_op(type) != SpvOpTypeRuntimeArray && d3d12xs_spirv_op(type) != SpvOpTypeArray)
            return false;
        block = type->w[2];
    } else {
        block = pointer->w[3];
    }
    if (var->w[3] != SpvStorageClassStorageBuffer && !(var->w[3] == SpvStorageClassUniform
            && d3d12xs_spirv_decoration(m, block, SpvDecorationBufferBlock, NULL)))
        return false;
    if (!(type = d3d12xs_spirv_def_op(m, block, SpvOpTypeStruct, 3)))
        return false;
    *member = d3d12xs_spirv_len(type) - 3;
    if (!(last = d3d12xs_spirv_def_op(m, type->w[2 + *member], SpvOpTypeRuntimeArray, 3)))
        return false;
    return d3d12xs_spirv_decoration(m, last->w[1], SpvDecorationArrayStride, stride) && *stride;
}

static uint32_t decoration_value(const struct d3d12xs_spirv_module *m, uint32_t id, uint32_t decoration)
{
    uint32_t value = UINT32_MAX;
    return d3d12xs_spirv_decoration(m, id, decoration, &value) ? value : UINT32_MAX;
}

/* The heap's storage-buffer arrays, then the root views. */
static HRESULT find_sources(struct offsets *o)
{
    struct d3d12xs_spirv_module *m = o->m;
    const struct d3d12xs_spirv_view_offsets_args *args = o->args;
    struct d3d12xs_spirv_inst *inst;
    uint32_t member, stride;
    HRESULT hr;

    size_t count = args->root_count + 1;
    /* at most one source per global variable and per root */
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_GLOBALS, i, inst))
        count += d3d12xs_spirv_op(inst) == SpvOpVariable;
    if (!(o->sources = calloc(count, sizeof(*o->sources))))
        return E_OUTOFMEMORY;
    if (args->heap) {
        for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_GLOBALS, i, inst)) {
            if (d3d12xs_spirv_op(inst) != SpvOpVariable || d3d12xs_spirv_len(inst) < 4
                    || decoration_value(m, inst->w[2], SpvDecorationDescriptorSet) != args->heap_set
                    || decoration_value(m, inst->w[2], SpvDecorationBinding) != 0
                    || !storage_block(m, inst->w[2], true, &member, &stride))
                continue;
            o->sources[o->source_count++] = (struct view_source){inst->w[2], true, member, stride, {0, 0, 0}, 0};
        }
    }
    for (uint32_t k = 0; k < args->root_count; k++) {
        struct view_source *s = &o->sources[o->source_count];
        if (!args->roots[k].variable_id || !storage_block(m, args->roots[k].variable_id, false, &member, &stride))
            continue;
        if (args->root_strides)
            args->root_strides[k] = stride;
        *s = (struct view_source){args->roots[k].variable_id, false, member, stride, {0, 0, 0}, k};
        if (FAILED(hr = d3d12xs_spirv_push_member(m, args->roots[k].push_offset, &s->push, o->error, o->error_size)))
            return hr;
        o->source_count++;
    }
    return S_OK;
}

static struct pointer_info *pointer_of(struct offsets *o, uint32_t id)
{
    if (id >= o->pointer_count) {
        size_t count = o->m->bound + 256;
        struct pointer_info *bigger = realloc(o->pointers, count * sizeof(*bigger));
        if (!bigger) {
            o->m->out_of_memory = true;
            return NULL;
        }
        memset(bigger + o->pointer_count, 0, (count - o->pointer_count) * sizeof(*bigger));
        o->pointers = bigger;
        o->pointer_count = count;
    }
    return &o->pointers[id];
}

/* Inserts at *index of the functions the code that computes, in elements of s, the
 * misalignment of the view (slot: its heap index); returns its id. */
static uint32_t add_element_offset(struct offsets *o, const struct view_source *s, uint32_t slot, size_t *index)
{
    struct d3d12xs_spirv_module *m = o->m;
    uint32_t code[16], n = 0, bytes, elements;

    if (s->heap) {
        bytes = d3d12xs_spirv_side_table_load(m, &o->side_table, slot, D3D12XS_SIDE_ENTRY_MISALIGNMENT, index);
    } else {
        uint32_t pointer = d3d12xs_spirv_new_id(m);
        bytes = d3d12xs_spirv_new_id(m);
        uint32_t chain[5] = {(5u << 16) | SpvOpAccessChain, s->push.pointer, pointer, s->push.variable,
                d3d12xs_spirv_constant_u32(m, s->push.member)};
        uint32_t load[4] = {(4u << 16) | SpvOpLoad, o->uint_type, bytes, pointer};
        memcpy(code, chain, sizeof(chain)), n = 5;
        memcpy(&code[n], load, sizeof(load)), n += 4;
    }
    elements = d3d12xs_spirv_new_id(m);
    {
        /* ArrayStride is a constant: a shift where it is a power of two */
        bool shift = !(s->stride & (s->stride - 1));
        uint32_t divide[5] = {(5u << 16) | (shift ? SpvOpShiftRightLogical : SpvOpUDiv), o->uint_type, elements, bytes,
                d3d12xs_spirv_constant_u32(m, shift ? (uint32_t)__builtin_ctz(s->stride) : s->stride)};
        memcpy(&code[n], divide, sizeof(divide)), n += 5;
    }
    for (uint32_t at = 0; at < n; at += code[at] >> 16)
        d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, (*index)++, &code[at], code[at] >> 16);
    return elements;
}

static HRESULT fail(struct offsets *o, const char *what, uint32_t id)
{
    return d3d12xs_write_error(E_INVALIDARG, o->error, o->error_size, "view offsets: %s (id %u)", what, id);
}

/* An access chain from a followed pointer: the element index gains the view's offset. */
static HRESULT rewrite_chain(struct offsets *o, size_t *index, struct d3d12xs_spirv_inst *inst, const struct pointer_info *base)
{
    struct d3d12xs_spirv_module *m = o->m;
    const struct view_source *s = &o->sources[base->source - 1];
    uint32_t n = d3d12xs_spirv_len(inst), copy[64], level = base->level, slot = base->slot, value;
    struct pointer_info *result;
    bool changed = false;

    if (n > 64)
        return fail(o, "an access chain with too many indices", inst->w[2]);
    memcpy(copy, inst->w, n * 4);
    for (uint32_t k = 4; k < n && level < LEVEL_PAST; k++) {
        if (level == LEVEL_HEAP) {
            slot = copy[k];
            level = LEVEL_BLOCK;
        } else if (level == LEVEL_BLOCK) {
            if (!d3d12xs_spirv_int32_constant(m, copy[k], NULL, &value))
                return fail(o, "a block member picked by a non-constant index", inst->w[2]);
            level = value == s->runtime_member ? LEVEL_ARRAY : LEVEL_PAST;
        } else {
            uint32_t elements = add_element_offset(o, s, slot, index), sum = d3d12xs_spirv_new_id(m);
            uint32_t add[5] = {(5u << 16) | SpvOpIAdd, o->uint_type, sum, copy[k], elements};
            d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, (*index)++, add, 5);
            if (d3d12xs_spirv_decoration(m, copy[k], SpvDecorationNonUniform, NULL)) {
                uint32_t decoration[3] = {SpvOpDecorate, sum, SpvDecorationNonUniform};
                d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, decoration, 3);
            }
            copy[k] = sum;
            changed = true;
            level = LEVEL_PAST;
        }
    }
    if (changed)
        d3d12xs_spirv_rewrite(m, inst, copy, n);
    if (level < LEVEL_PAST && (result = pointer_of(o, inst->w[2])))
        *result = (struct pointer_info){base->source, (uint8_t)level, slot};
    return S_OK;
}

/* OpArrayLength of a followed block: the elements before the view do not count. */
static void rewrite_array_length(struct offsets *o, size_t *index, struct d3d12xs_spirv_inst *inst, const struct pointer_info *base)
{
    struct d3d12xs_spirv_module *m = o->m;
    const struct view_source *s = &o->sources[base->source - 1];
    uint32_t copy[5], length = inst->w[2], whole = d3d12xs_spirv_new_id(m), elements;

    if (base->level != LEVEL_BLOCK || d3d12xs_spirv_len(inst) != 5 || inst->w[4] != s->runtime_member)
        return;
    memcpy(copy, inst->w, sizeof(copy));
    copy[2] = whole;
    d3d12xs_spirv_rewrite(m, inst, copy, 5);
    (*index)++;
    elements = add_element_offset(o, s, base->slot, index);
    uint32_t subtract[5] = {(5u << 16) | SpvOpISub, copy[1], length, whole, elements};
    d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, (*index)++, subtract, 5);
}

static bool is_access_chain(uint32_t op)
{
    return op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain;
}

/* The followed pointer id is, or NULL. */
static const struct pointer_info *followed(struct offsets *o, uint32_t id)
{
    return id < o->pointer_count && o->pointers[id].source ? &o->pointers[id] : NULL;
}

static HRESULT rewrite_functions(struct offsets *o)
{
    struct d3d12xs_spirv_list *functions = &o->m->sections[D3D12XS_SPIRV_FUNCTIONS];
    HRESULT hr;

    for (size_t i = 0; i < functions->count && !o->m->out_of_memory; i++) {
        struct d3d12xs_spirv_inst *inst = functions->at[i];
        uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst);
        const struct pointer_info *base;
        struct pointer_info copy;

        if (is_access_chain(op) && n >= 4 && (base = followed(o, inst->w[3]))) {
            copy = *base; /* the table may grow */
            size_t at = i;
            if (FAILED(hr = rewrite_chain(o, &at, inst, &copy)))
                return hr;
            i = at; /* inserted code went before the chain, which is now at index at */
        } else if (op == SpvOpArrayLength && n == 5 && (base = followed(o, inst->w[3]))) {
            copy = *base;
            size_t at = i;
            rewrite_array_length(o, &at, inst, &copy);
            i = at - 1;
        } else if (op == SpvOpCopyObject && n == 4 && (base = followed(o, inst->w[3]))) {
            struct pointer_info *result;
            copy = *base;
            if ((result = pointer_of(o, inst->w[2])))
                *result = copy;
        } else if (op == SpvOpFunctionCall) {
            for (uint32_t k = 4; k < n; k++)
                if ((base = followed(o, inst->w[k])))
                    o->args->unfollowed[o->sources[base->source - 1].heap ? o->args->root_count
                            : o->sources[base->source - 1].root] = true;
        } else if ((op == SpvOpPhi || op == SpvOpSelect || op == SpvOpPtrAccessChain) && n >= 4) {
            for (uint32_t k = 3; k < n; k++)
                if (followed(o, inst->w[k]))
                    return fail(o, "a view's pointer is selected or offset as a pointer", inst->w[2]);
        }
    }
    return o->m->out_of_memory ? E_OUTOFMEMORY : S_OK;
}

HRESULT d3d12xs_spirv_pass_view_offsets(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_view_offsets_args *args,
        char *error, size_t error_size)
{
    struct offsets o;
    bool any_heap = false;
    HRESULT hr;

    memset(&o, 0, sizeof(o));
    o.m = m;
    o.args = args;
    o.error = error;
    o.error_size = error_size;
    o.uint_type = d3d12xs_spirv_type_int(m, 32, 0);
    o.zero = d3d12xs_spirv_constant_u32(m, 0);
    if (FAILED(hr = find_sources(&o)))
        goto done;
    for (uint32_t k = 0; k < o.source_count; k++) {
        struct pointer_info *info = pointer_of(&o, o.sources[k].variable);
        if (!info)
            break;
        *info = (struct pointer_info){(uint16_t)(k + 1), o.sources[k].heap ? LEVEL_HEAP : LEVEL_BLOCK, 0};
        any_heap |= o.sources[k].heap;
    }
    if (any_heap)
        d3d12xs_spirv_side_table(m, args->offsets_set, &o.side_table);
    if (o.source_count)
        hr = rewrite_functions(&o);
    if (SUCCEEDED(hr) && m->out_of_memory)
        hr = E_OUTOFMEMORY;
done:
    free(o.sources);
    free(o.pointers);
    return hr;
}
