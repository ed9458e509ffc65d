/* SPIR-V variants of a compute pipeline for DispatchX (docs/dispatch.md):
 *
 *  - thread limit (USE_THREAD_DIMENSIONS): the push-constant block gets one more member, a
 *    uint3 at limit_offset holding the end of the thread range in GlobalInvocationId terms,
 *    and the entry point starts with `if (any(GlobalInvocationId >= limit)) return;`. Threads
 *    past the count therefore run none of the shader: no memory access, no atomics, no wave
 *    operation sees them (as on the console, which does not launch them). A shader with a
 *    workgroup barrier is refused: the returned threads would never reach it.
 *  - coherent (DISABLE_VOLATILE_*_L1): every storage buffer, storage texel buffer and storage
 *    image gets the Coherent decoration, so its accesses bypass caches that are not coherent
 *    across the device. glslang drops HLSL's `globallycoherent`, so which accesses were volatile
 *    is unknown here: all of them become coherent, which is more than the console does.
 *  - dispatch base (a non-zero start group): the module is unchanged but for one
 *    OpModuleProcessed marker; the pipeline is created with DISPATCH_BASE (pipelines/pipeline_variant.c).
 *
 * Types the thread limit needs (uint, bool, uint3, bool3) go to the start of the globals, the
 * existing ones moved there (a definition moved earlier breaks no reference), so that the
 * push-constant struct, wherever it is defined, may use them. Everything else that is new goes
 * at the end of the globals. Pipeline creation (pipeline_variant.c) runs the pass on the pipeline's
 * emitted SPIR-V parsed again, once for all its variants. */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "spirv/spirv.h"
#include "spirv/spirv_passes.h"

/* What the module already has that the variants use. */
struct module_facts {
    struct d3d12xs_spirv_inst *entry_point, *push_struct_def;
    uint32_t entry_function;
    struct d3d12xs_spirv_inst *uint_def, *bool_def, *uint3_def, *bool3_def; /* NULL: not in the module */
    uint32_t global_id_variable;                           /* BuiltIn GlobalInvocationId */
    uint32_t push_variable, push_struct, push_member_count;
    bool vulkan_memory_model;
    bool workgroup_barrier;
};

static HRESULT read_facts(struct d3d12xs_spirv_module *m, struct module_facts *f, char *error, size_t error_size)
{
    struct d3d12xs_spirv_inst *inst;

    memset(f, 0, sizeof(*f));
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ENTRY_POINTS, i, inst)) {
        if (!f->entry_point && d3d12xs_spirv_len(inst) >= 4 && inst->w[1] == SpvExecutionModelGLCompute) {
            f->entry_point = inst;
            f->entry_function = inst->w[2];
        }
    }
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_MEMORY_MODEL, i, inst))
        f->vulkan_memory_model = d3d12xs_spirv_len(inst) >= 3 && inst->w[2] == SpvMemoryModelVulkan;
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ANNOTATIONS, i, inst))
        if (d3d12xs_spirv_op(inst) == SpvOpDecorate && d3d12xs_spirv_len(inst) >= 4 && inst->w[2] == SpvDecorationBuiltIn
                && inst->w[3] == SpvBuiltInGlobalInvocationId)
            f->global_id_variable = inst->w[1];
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_GLOBALS, i, inst)) {
        const uint32_t *w = inst->w;
        uint32_t n = d3d12xs_spirv_len(inst);
        switch (d3d12xs_spirv_op(inst)) {
        case SpvOpTypeInt:
            if (n >= 4 && w[2] == 32 && w[3] == 0)
                f->uint_def = inst;
            break;
        case SpvOpTypeBool:
            f->bool_def = inst;
            break;
        case SpvOpTypeVector:
            if (n >= 4 && w[3] == 3 && f->uint_def && w[2] == f->uint_def->w[1])
                f->uint3_def = inst;
            if (n >= 4 && w[3] == 3 && f->bool_def && w[2] == f->bool_def->w[1])
                f->bool3_def = inst;
            break;
        case SpvOpVariable:
            if (n >= 4 && w[3] == SpvStorageClassPushConstant) {
                const struct d3d12xs_spirv_inst *pointer = d3d12xs_spirv_def_op(m, w[1], SpvOpTypePointer, 4);
                f->push_variable = w[2];
                f->push_struct = pointer ? pointer->w[3] : 0;
            }
            break;
        default:
            break;
        }
    }
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_FUNCTIONS, i, inst)) {
        uint32_t scope;
        /* Execution scope Workgroup (2): every thread of the group must arrive. */
        if (d3d12xs_spirv_op(inst) == SpvOpControlBarrier && d3d12xs_spirv_len(inst) >= 2
                && (!d3d12xs_spirv_int32_constant(m, inst->w[1], NULL, &scope) || scope != SpvScopeSubgroup))
            f->workgroup_barrier = true;
    }
    if (!f->entry_point || !m->sections[D3D12XS_SPIRV_FUNCTIONS].count)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the module has no compute entry point or no functions");
    if (f->push_struct && (f->push_struct_def = d3d12xs_spirv_def_op(m, f->push_struct, SpvOpTypeStruct, 2)))
        f->push_member_count = d3d12xs_spirv_len(f->push_struct_def) - 2;
    return S_OK;
}

/* Variables whose accesses may go through a device-incoherent cache: storage buffers (and
 * glslang's Uniform BufferBlock ones), storage images and storage texel buffers. Those not yet
 * Coherent are counted, and with apply decorated. */
static unsigned coherent_decorations(struct d3d12xs_spirv_module *m, bool apply)
{
    const struct d3d12xs_spirv_inst *inst;
    unsigned count = 0;
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_GLOBALS, i, inst)) {
        const struct d3d12xs_spirv_inst *pointer, *type;
        uint32_t variable, storage, words[3] = {SpvOpDecorate, 0, SpvDecorationCoherent};
        if (d3d12xs_spirv_op(inst) != SpvOpVariable || d3d12xs_spirv_len(inst) < 4)
            continue;
        variable = inst->w[2];
        storage = inst->w[3];
        if (!(pointer = d3d12xs_spirv_def_op(m, inst->w[1], SpvOpTypePointer, 4))
                || d3d12xs_spirv_decoration(m, variable, SpvDecorationCoherent, NULL))
            continue;
        type = d3d12xs_spirv_def(m, pointer->w[3]);
        if (storage == SpvStorageClassStorageBuffer
                || (storage == SpvStorageClassUniform && d3d12xs_spirv_decoration(m, pointer->w[3], SpvDecorationBufferBlock, NULL))
                || (storage == SpvStorageClassUniformConstant && type && d3d12xs_spirv_op(type) == SpvOpTypeImage
                        && d3d12xs_spirv_len(type) >= 8 && type->w[7] == 2)) {
            count++;
            words[1] = variable;
            if (apply)
                d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, words, 3);
        }
    }
    return count;
}

unsigned d3d12xs_spirv_incoherent_storage_count(struct d3d12xs_spirv_module *m)
{
    return coherent_decorations(m, false);
}

/* The basic type `existing` (or a new one of words) at index of the globals: returns its id. */
static uint32_t basic_type_at(struct d3d12xs_spirv_module *m, size_t index, struct d3d12xs_spirv_inst *existing, uint32_t *words,
        uint32_t n)
{
    if (existing) {
        memcpy(words, existing->w, n * 4);
        d3d12xs_spirv_remove(m, D3D12XS_SPIRV_GLOBALS, d3d12xs_spirv_index_of(m, existing));
    } else if (!(words[1] = d3d12xs_spirv_new_id(m))) {
        m->out_of_memory = true;
        return 0;
    }
    d3d12xs_spirv_insert(m, D3D12XS_SPIRV_GLOBALS, index, words, n);
    return words[1];
}

/* The entry point returns at once in threads at or past the limit in the push constants. */
static HRESULT add_thread_limit(struct d3d12xs_spirv_module *m, const struct module_facts *f, uint32_t limit_offset,
        char *error, size_t error_size)
{
    struct d3d12xs_spirv_list *functions = &m->sections[D3D12XS_SPIRV_FUNCTIONS];
    uint32_t int_words[4] = {SpvOpTypeInt, 0, 32, 0}, bool_words[2] = {SpvOpTypeBool, 0};
    uint32_t vector_words[4] = {SpvOpTypeVector, 0, 0, 3};
    uint32_t uint_type, bool_type, uint3_type, bool3_type, global_id, push_struct, push_variable, member;
    uint32_t push_pointer, input_pointer, member_constant, first_label, new_entry, return_label;
    struct d3d12xs_spirv_inst *label;
    size_t at, variables_end;

    /* The basic types first, so that every later definition may use them. */
    uint_type = basic_type_at(m, 0, f->uint_def, int_words, 4);
    bool_type = basic_type_at(m, 1, f->bool_def, bool_words, 2);
    vector_words[2] = uint_type;
    uint3_type = basic_type_at(m, 2, f->uint3_def, vector_words, 4);
    vector_words[2] = bool_type;
    bool3_type = basic_type_at(m, 3, f->bool3_def, vector_words, 4);

    global_id = f->global_id_variable ? f->global_id_variable : d3d12xs_spirv_new_id(m);
    push_struct = f->push_variable ? f->push_struct : d3d12xs_spirv_new_id(m);
    push_variable = f->push_variable ? f->push_variable : d3d12xs_spirv_new_id(m);
    member = f->push_variable ? f->push_member_count : 0;
    if (!global_id || !push_struct || !push_variable)
        return E_OUTOFMEMORY;
    {
        uint32_t builtin[4] = {SpvOpDecorate, global_id, SpvDecorationBuiltIn, SpvBuiltInGlobalInvocationId};
        uint32_t block[3] = {SpvOpDecorate, push_struct, SpvDecorationBlock};
        uint32_t offset[5] = {SpvOpMemberDecorate, push_struct, member, SpvDecorationOffset, limit_offset};
        if (!f->global_id_variable)
            d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, builtin, 4);
        if (!f->push_variable)
            d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, block, 3);
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, offset, 5);
    }
    if (f->push_variable) {
        d3d12xs_spirv_append_operand(m, f->push_struct_def, uint3_type);
    } else {
        uint32_t block[3] = {SpvOpTypeStruct, push_struct, uint3_type};
        uint32_t variable[4] = {SpvOpVariable, 0, push_variable, SpvStorageClassPushConstant};
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, block, 3);
        variable[1] = d3d12xs_spirv_type_pointer(m, SpvStorageClassPushConstant, push_struct);
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, variable, 4);
    }
    push_pointer = d3d12xs_spirv_type_pointer(m, SpvStorageClassPushConstant, uint3_type);
    input_pointer = d3d12xs_spirv_type_pointer(m, SpvStorageClassInput, uint3_type);
    if (!f->global_id_variable) {
        uint32_t variable[4] = {SpvOpVariable, input_pointer, global_id, SpvStorageClassInput};
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, variable, 4);
    }
    member_constant = d3d12xs_spirv_constant(m, uint_type, member);
    /* The new Input variable joins the interface (and, from SPIR-V 1.4, the push constants). */
    if (!f->global_id_variable)
        d3d12xs_spirv_append_operand(m, f->entry_point, global_id);
    if (!f->push_variable && m->version >= 0x10400)
        d3d12xs_spirv_append_operand(m, f->entry_point, push_variable);

    /* The entry function's first block goes under a new label: its variables, the range check,
     * then the original label. */
    for (at = 0; at < functions->count; at++)
        if (d3d12xs_spirv_op(functions->at[at]) == SpvOpFunction && d3d12xs_spirv_len(functions->at[at]) >= 3
                && functions->at[at]->w[2] == f->entry_function)
            break;
    while (at < functions->count && d3d12xs_spirv_op(functions->at[at]) != SpvOpLabel)
        at++;
    if (at >= functions->count)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the entry point has no body");
    label = functions->at[at];
    first_label = label->w[1];
    d3d12xs_spirv_remove(m, D3D12XS_SPIRV_FUNCTIONS, at);
    new_entry = d3d12xs_spirv_new_id(m);
    return_label = d3d12xs_spirv_new_id(m);
    uint32_t gid_value = d3d12xs_spirv_new_id(m), limit_pointer = d3d12xs_spirv_new_id(m), limit_value = d3d12xs_spirv_new_id(m);
    uint32_t below = d3d12xs_spirv_new_id(m), inside = d3d12xs_spirv_new_id(m), gid_loaded = d3d12xs_spirv_new_id(m);
    /* the application's GlobalInvocationId may be an int3 (libvkd3d-shader's is): loaded as
     * declared, compared as uint3 */
    uint32_t gid_type = uint3_type;
    if (f->global_id_variable) {
        const struct d3d12xs_spirv_inst *variable = d3d12xs_spirv_def(m, global_id);
        const struct d3d12xs_spirv_inst *pointer = variable && d3d12xs_spirv_len(variable) >= 2
                ? d3d12xs_spirv_def_op(m, variable->w[1], SpvOpTypePointer, 4) : NULL;
        if (pointer)
            gid_type = pointer->w[3];
    }
    if (!gid_loaded)
        return E_OUTOFMEMORY;
    {
        uint32_t entry[2] = {SpvOpLabel, new_entry};
        d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, at, entry, 2);
    }
    for (variables_end = at + 1; variables_end < functions->count; variables_end++) {
        uint32_t op = d3d12xs_spirv_op(functions->at[variables_end]);
        if (op != SpvOpVariable && op != SpvOpLine && op != SpvOpNoLine)
            break;
    }
    {
        uint32_t code[] = {
            (4u << 16) | SpvOpLoad, gid_type, gid_loaded, global_id,
            (4u << 16) | (gid_type == uint3_type ? SpvOpCopyObject : SpvOpBitcast), uint3_type, gid_value, gid_loaded,
            (5u << 16) | SpvOpAccessChain, push_pointer, limit_pointer, push_variable, member_constant,
            (4u << 16) | SpvOpLoad, uint3_type, limit_value, limit_pointer,
            (5u << 16) | SpvOpULessThan, bool3_type, below, gid_value, limit_value,
            (4u << 16) | SpvOpAll, bool_type, inside, below,
            (3u << 16) | SpvOpSelectionMerge, first_label, SpvSelectionControlMaskNone,
            (4u << 16) | SpvOpBranchConditional, inside, first_label, return_label,
            (2u << 16) | SpvOpLabel, return_label,
            (1u << 16) | SpvOpReturn,
            (2u << 16) | SpvOpLabel, first_label,
        };
        for (uint32_t w = 0; w < sizeof(code) / 4; w += code[w] >> 16)
            d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, variables_end++, &code[w], code[w] >> 16);
    }
    return m->out_of_memory ? E_OUTOFMEMORY : S_OK;
}

HRESULT d3d12xs_spirv_pass_dispatch_variant(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_dispatch_variant_args *args,
        char *error, size_t error_size)
{
    struct module_facts f;
    bool limit = args->variant & D3D12XS_VARIANT_THREAD_LIMIT;
    HRESULT hr;

    if (FAILED(hr = read_facts(m, &f, error, error_size)))
        return hr;
    if ((args->variant & D3D12XS_VARIANT_COHERENT) && f.vulkan_memory_model)
        return d3d12xs_write_error(E_NOTIMPL, error, error_size, "the module uses the Vulkan memory model, which has no Coherent decoration");
    if (limit && f.workgroup_barrier)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the shader has a group barrier (GroupMemoryBarrierWithGroupSync "
                "or similar): threads past the count would never reach it, so a partial group cannot be run exactly");
    if (limit && f.push_variable && !f.push_struct_def)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the push-constant block is not a struct");
    if (args->variant & D3D12XS_VARIANT_DISPATCH_BASE) {
        /* The NVIDIA driver (580) handed a DISPATCH_BASE pipeline the code it had compiled
         * for the same module without the flag: SV_GroupID then ignored the start group.
         * A marker of no semantic effect makes the module differ. */
        d3d12xs_spirv_add_marker(m, "d3d12xs.dispatch_base");
    }
    if (args->variant & D3D12XS_VARIANT_COHERENT)
        coherent_decorations(m, true);
    if (limit && FAILED(hr = add_thread_limit(m, &f, args->limit_offset, error, error_size)))
        return hr;
    return m->out_of_memory ? d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory") : S_OK;
}

HRESULT d3d12xs_spirv_dispatch_variant(const uint32_t *words, size_t word_count, unsigned variant, uint32_t limit_offset,
        uint32_t **out_words, size_t *out_count, char *error, size_t error_size)
{
    const struct d3d12xs_spirv_dispatch_variant_args args = {variant, limit_offset};
    struct d3d12xs_spirv_module *m;
    HRESULT hr;

    *out_words = NULL;
    *out_count = 0;
    if (FAILED(hr = d3d12xs_spirv_module_parse(words, word_count * 4, &m, error, error_size)))
        return hr;
    if (SUCCEEDED(hr = d3d12xs_spirv_pass_dispatch_variant(m, &args, error, error_size))
            && FAILED(hr = d3d12xs_spirv_module_emit(m, out_words, out_count)))
        d3d12xs_write_error(hr, error, error_size, "out of memory");
    d3d12xs_spirv_module_destroy(m);
    return hr;
}
