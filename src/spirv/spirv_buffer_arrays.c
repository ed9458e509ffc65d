/* Arrays of raw and structured buffers, which the HLSL rewrite hands glslang as one buffer of a
 * marker struct (frontends/hlsl_rewrite_arrays.c): the buffer becomes the array of storage-buffer blocks
 * it stands for, which the remap, heap-table and reflection passes bind like any descriptor
 * array. For a buffer variable %a of block { W data[]; }, W = { T e[N]; uint n[MARKER]; }:
 *
 *   OpAccessChain %a 0 %k 0 %i ...   ->  OpAccessChain %a %i 0 %k ...   (element k of buffer i)
 *   OpLoad (OpAccessChain %a 0 %k 1 %i)  ->  OpArrayLength (OpAccessChain %a %i) 0
 *
 * %a keeps its id and decorations and gets the type array[N] (runtime array for MARKER + 1) of
 * block { T data[] } with T's stride from e (already D3D's structured layout, fix 4) and the
 * block's member decorations (NonWritable...). Runs on D3DCompile's module before the finishing
 * pass, so NonUniformResourceIndex's marker add is the index itself. */
#include <stdarg.h>
#include <stdio.h>

#include <spirv/unified1/spirv.h>

#include "spirv/spirv.h"
#include "spirv/spirv_passes.h"

struct marker_buffer {
    uint32_t variable, storage_class, block;
    uint32_t element_type, element_stride; /* T and D3D's stride of it */
    uint32_t count;                        /* constant id of N; 0 for an unbounded array */
};

static HRESULT fail(char *error, size_t error_size, const char *format, ...) __attribute__((format(printf, 3, 4)));
static HRESULT fail(char *error, size_t error_size, const char *format, ...)
{
    char text[256];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof(text), format, args);
    va_end(args);
    return d3d12xs_write_error(E_INVALIDARG, error, error_size, "%s", text);
}

/* Whether the global OpVariable inst is a marker buffer; *b filled when it is. */
static bool is_marker_buffer(const struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_inst *inst,
        struct marker_buffer *b)
{
    const struct d3d12xs_spirv_inst *pointer, *block, *runtime, *wrapper, *elements, *lengths;
    uint32_t type, length;

    if (d3d12xs_spirv_op(inst) != SpvOpVariable || d3d12xs_spirv_len(inst) < 4
            || (inst->w[3] != SpvStorageClassStorageBuffer && inst->w[3] != SpvStorageClassUniform))
        return false;
    if (!(pointer = d3d12xs_spirv_def_op(m, inst->w[1], SpvOpTypePointer, 4))
            || !(block = d3d12xs_spirv_def_op(m, pointer->w[3], SpvOpTypeStruct, 3)) || d3d12xs_spirv_len(block) != 3
            || !(runtime = d3d12xs_spirv_def_op(m, block->w[2], SpvOpTypeRuntimeArray, 3))
            || !(wrapper = d3d12xs_spirv_def_op(m, runtime->w[2], SpvOpTypeStruct, 4)) || d3d12xs_spirv_len(wrapper) != 4
            || !(elements = d3d12xs_spirv_def_op(m, wrapper->w[2], SpvOpTypeArray, 4))
            || !(lengths = d3d12xs_spirv_def_op(m, wrapper->w[3], SpvOpTypeArray, 4))
            || !d3d12xs_spirv_def_op(m, lengths->w[2], SpvOpTypeInt, 4)
            || !d3d12xs_spirv_int32_constant(m, lengths->w[3], &type, &length)
            || (length != D3D12XS_BUFFER_ARRAY_MARKER && length != D3D12XS_BUFFER_ARRAY_MARKER + 1))
        return false;
    b->variable = inst->w[2];
    b->storage_class = inst->w[3];
    b->block = block->w[1];
    b->element_type = elements->w[2];
    b->element_stride = 0;
    d3d12xs_spirv_decoration(m, elements->w[1], SpvDecorationArrayStride, &b->element_stride);
    b->count = length == D3D12XS_BUFFER_ARRAY_MARKER ? elements->w[3] : 0;
    return true;
}

/* The type of the array of blocks b stands for; 0 when out of memory. */
static uint32_t make_array_type(struct d3d12xs_spirv_module *m, const struct marker_buffer *b, uint32_t *block_pointer)
{
    uint32_t runtime = d3d12xs_spirv_new_id(m), block = d3d12xs_spirv_new_id(m), array = d3d12xs_spirv_new_id(m);
    uint32_t block_decoration = d3d12xs_spirv_decoration(m, b->block, SpvDecorationBufferBlock, NULL)
            ? SpvDecorationBufferBlock : SpvDecorationBlock;
    const struct d3d12xs_spirv_inst *inst;
    size_t annotation_count = m->sections[D3D12XS_SPIRV_ANNOTATIONS].count;

    if (!runtime || !block || !array)
        return 0;
    {
        uint32_t runtime_words[3] = {SpvOpTypeRuntimeArray | 3u << 16, runtime, b->element_type};
        uint32_t block_words[3] = {SpvOpTypeStruct | 3u << 16, block, runtime};
        uint32_t array_words[4] = {(b->count ? SpvOpTypeArray : SpvOpTypeRuntimeArray) | (b->count ? 4u : 3u) << 16, array,
                block, b->count};
        uint32_t stride[4] = {SpvOpDecorate | 4u << 16, runtime, SpvDecorationArrayStride, b->element_stride};
        uint32_t decoration[3] = {SpvOpDecorate | 3u << 16, block, block_decoration};
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, runtime_words, 3);
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, block_words, 3);
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, array_words, b->count ? 4 : 3);
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, stride, 4);
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, decoration, 3);
    }
    /* member 0's decorations (Offset 0, NonWritable, Coherent...) as the marker block had them */
    for (size_t i = 0; i < annotation_count; i++) {
        inst = m->sections[D3D12XS_SPIRV_ANNOTATIONS].at[i];
        if (d3d12xs_spirv_op(inst) == SpvOpMemberDecorate && d3d12xs_spirv_len(inst) >= 4 && inst->w[1] == b->block
                && inst->w[2] == 0) {
            uint32_t words[8];
            uint32_t n = d3d12xs_spirv_len(inst) <= 8 ? d3d12xs_spirv_len(inst) : 8;
            for (uint32_t k = 0; k < n; k++)
                words[k] = inst->w[k];
            words[0] = (words[0] & 0xffff) | n << 16;
            words[1] = block;
            d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, words, n);
        }
    }
    *block_pointer = d3d12xs_spirv_type_pointer(m, b->storage_class, block);
    return d3d12xs_spirv_type_pointer(m, b->storage_class, array);
}

/* An instruction that may take the buffer variable as an operand other than through an access
 * chain (its literals are not ids, so only these are checked). */
static bool takes_pointer(uint32_t op)
{
    switch (op) {
    case SpvOpLoad: case SpvOpStore: case SpvOpCopyObject: case SpvOpCopyMemory: case SpvOpCopyMemorySized:
    case SpvOpFunctionCall: case SpvOpArrayLength: case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain:
    case SpvOpPhi: case SpvOpSelect: case SpvOpAtomicLoad: case SpvOpAtomicStore: case SpvOpAtomicExchange:
    case SpvOpAtomicCompareExchange: case SpvOpAtomicIAdd: case SpvOpAtomicIIncrement: case SpvOpAtomicIDecrement:
        return true;
    default:
        return false;
    }
}

/* Turns every access to b into one of the array; the lengths' loads become OpArrayLength. */
static HRESULT rewrite_accesses(struct d3d12xs_spirv_module *m, const struct marker_buffer *b, uint32_t block_pointer,
        char *error, size_t error_size)
{
    struct d3d12xs_spirv_list *functions = &m->sections[D3D12XS_SPIRV_FUNCTIONS];

    for (size_t i = 0; i < functions->count; i++) {
        struct d3d12xs_spirv_inst *inst = functions->at[i];
        uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst), member, type;
        if ((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain) && n >= 4 && inst->w[3] == b->variable) {
            uint32_t *w = inst->w;
            if (n < 8 || !d3d12xs_spirv_int32_constant(m, w[6], &type, &member) || member > 1)
                return fail(error, error_size, "access chain %u takes a buffer of the array of buffers (variable %u) "
                        "whole, which D3DCompile cannot turn into an array access", w[2], b->variable);
            if (member == 0) {
                /* (0, k, 0, i, rest) -> (i, 0, k, rest): w[4] and w[6] are both the constant 0 */
                uint32_t k = w[5], index = w[7];
                w[4] = index;
                w[5] = w[6];
                w[6] = k;
                for (uint32_t r = 8; r < n; r++)
                    w[r - 1] = w[r];
                w[0] = op | (n - 1) << 16;
                continue;
            }
            if (n != 8)
                return fail(error, error_size, "access chain %u indexes into the length of a buffer of the array of "
                        "buffers (variable %u)", w[2], b->variable);
            {
                uint32_t chain = w[2], index = w[7];
                uint32_t words[5] = {op | 5u << 16, block_pointer, chain, b->variable, index};
                if (!d3d12xs_spirv_rewrite(m, inst, words, 5))
                    break;
                for (size_t j = i + 1; j < functions->count; j++) {
                    struct d3d12xs_spirv_inst *use = functions->at[j];
                    if (d3d12xs_spirv_op(use) == SpvOpLoad && d3d12xs_spirv_len(use) >= 4 && use->w[3] == chain) {
                        uint32_t length[5] = {SpvOpArrayLength | 5u << 16, use->w[1], use->w[2], chain, 0};
                        if (!d3d12xs_spirv_rewrite(m, use, length, 5))
                            break;
                    }
                }
            }
            continue;
        }
        for (uint32_t k = 1; takes_pointer(op) && k < n; k++)
            if (inst->w[k] == b->variable)
                return fail(error, error_size, "instruction %u (opcode %u) uses the array of buffers (variable %u) other "
                        "than through an access chain", inst->offset, op, b->variable);
    }
    return S_OK;
}

HRESULT d3d12xs_spirv_pass_buffer_arrays(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_buffer_arrays_args *args,
        char *error, size_t error_size)
{
    struct d3d12xs_spirv_list *globals = &m->sections[D3D12XS_SPIRV_GLOBALS];
    bool runtime = false;
    HRESULT hr;

    (void)args;
    for (size_t i = 0; i < globals->count;) {
        struct d3d12xs_spirv_inst *inst = globals->at[i];
        uint32_t pointer, block_pointer = 0, words[4];
        struct marker_buffer b;
        if (!is_marker_buffer(m, inst, &b)) {
            i++;
            continue;
        }
        if (!b.element_stride)
            return fail(error, error_size, "the array of buffers (variable %u) has no element stride", b.variable);
        if (!(pointer = make_array_type(m, &b, &block_pointer)) || !block_pointer)
            break;
        /* the variable moves after its new type, keeping its id (decorations, interfaces) */
        words[0] = inst->w[0] & 0xffff;
        words[0] |= 4u << 16;
        words[1] = pointer;
        words[2] = b.variable;
        words[3] = b.storage_class;
        d3d12xs_spirv_remove(m, D3D12XS_SPIRV_GLOBALS, i);
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, words, 4);
        runtime |= !b.count;
        if (FAILED(hr = rewrite_accesses(m, &b, block_pointer, error, error_size)))
            return hr;
    }
    if (runtime) {
        d3d12xs_spirv_add_capability(m, SpvCapabilityRuntimeDescriptorArray);
        if (m->version < 0x10500)
            d3d12xs_spirv_add_extension(m, "SPV_EXT_descriptor_indexing");
    }
    return m->out_of_memory ? d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory") : S_OK;
}
