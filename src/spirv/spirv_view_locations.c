/* View instancing without multiview (spirv_passes.h): a pipeline whose views go to other render
 * target array slices or viewports than multiview's (view i into slice i through viewport 0)
 * draws each view on its own. The view index is then a push constant: every read of the
 * ViewIndex built-in (SV_ViewID) becomes a load of it; and the last stage before the rasterizer
 * writes Layer and ViewportIndex as D3D12 says (D3D12_VIEW_INSTANCE_LOCATION): the view's
 * location plus what the shader itself writes there (0 when it writes nothing), and 0 where
 * that sum is past the pass's array slices or the viewports set. */
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "common/util.h"
#include "spirv/spirv_passes.h"
#include "spirv/spirv_push_block.h"

struct view_pass {
    struct d3d12xs_spirv_module *m;
    const struct d3d12xs_spirv_view_locations_args *args;
    struct d3d12xs_spirv_push_member view, layers, viewports;
    uint32_t uint_type, bool_type;
};

/* The variable decorated BuiltIn builtin, 0 when none; E_NOTIMPL when it is a block member. */
static HRESULT find_builtin(const struct d3d12xs_spirv_module *m, uint32_t builtin, uint32_t *variable, char *error, size_t error_size)
{
    const struct d3d12xs_spirv_inst *inst;

    *variable = 0;
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ANNOTATIONS, i, inst)) {
        uint32_t op = d3d12xs_spirv_op(inst), len = d3d12xs_spirv_len(inst);
        if (op == SpvOpDecorate && len >= 4 && inst->w[2] == SpvDecorationBuiltIn && inst->w[3] == builtin)
            *variable = inst->w[1];
        else if (op == SpvOpMemberDecorate && len >= 5 && inst->w[3] == SpvDecorationBuiltIn && inst->w[4] == builtin)
            return d3d12xs_write_error(E_NOTIMPL, error, error_size, "built-in %u is a member of a block (view instancing with "
                    "other locations takes it as a variable of its own)", builtin);
    }
    return S_OK;
}

/* The 32-bit integer type variable points to, 0 when it is not one. */
static uint32_t scalar_int_type(const struct d3d12xs_spirv_module *m, uint32_t variable)
{
    const struct d3d12xs_spirv_inst *def = d3d12xs_spirv_def_op(m, variable, SpvOpVariable, 4);
    const struct d3d12xs_spirv_inst *pointer = def ? d3d12xs_spirv_def_op(m, def->w[1], SpvOpTypePointer, 4) : NULL;
    const struct d3d12xs_spirv_inst *type = pointer ? d3d12xs_spirv_def_op(m, pointer->w[3], SpvOpTypeInt, 4) : NULL;
    return type && type->w[2] == 32 ? pointer->w[3] : 0;
}

/* Instructions go in before the one at *at, which moves on with them. */
static uint32_t emit(struct view_pass *p, size_t *at, uint32_t op, uint32_t type, const uint32_t *operands, uint32_t count)
{
    uint32_t words[8], id = d3d12xs_spirv_new_id(p->m), n = 0;

    words[n++] = op | (3u + count) << 16;
    words[n++] = type;
    words[n++] = id;
    for (uint32_t k = 0; k < count; k++)
        words[n++] = operands[k];
    d3d12xs_spirv_insert(p->m, D3D12XS_SPIRV_FUNCTIONS, (*at)++, words, n);
    return id;
}

static uint32_t load_push(struct view_pass *p, size_t *at, const struct d3d12xs_spirv_push_member *member)
{
    const uint32_t chain[2] = {member->variable, d3d12xs_spirv_constant_u32(p->m, member->member)};
    const uint32_t pointer = emit(p, at, SpvOpAccessChain, member->pointer, chain, 2);
    return emit(p, at, SpvOpLoad, p->uint_type, &pointer, 1);
}

/* The pushed words' members, made where a stage first needs them (a stage that neither reads
 * the view nor writes the locations gains no push-constant block). */
static HRESULT push_members(struct view_pass *p, char *error, size_t error_size)
{
    HRESULT hr;

    if (p->view.pointer)
        return S_OK;
    if (FAILED(hr = d3d12xs_spirv_push_member(p->m, p->args->push_offset, &p->view, error, error_size))
            || FAILED(hr = d3d12xs_spirv_push_member(p->m, p->args->push_offset + 4, &p->layers, error, error_size))
            || FAILED(hr = d3d12xs_spirv_push_member(p->m, p->args->push_offset + 8, &p->viewports, error, error_size)))
        return hr;
    return S_OK;
}

/* Every load of the ViewIndex input becomes a load of the pushed view index; the input goes. */
static bool is_view_index(uint32_t id, void *context)
{
    return id == *(const uint32_t *)context;
}

static HRESULT replace_view_index(struct view_pass *p, char *error, size_t error_size)
{
    struct d3d12xs_spirv_list *functions = &p->m->sections[D3D12XS_SPIRV_FUNCTIONS];
    uint32_t variable, type;
    HRESULT hr;

    if (FAILED(hr = find_builtin(p->m, SpvBuiltInViewIndex, &variable, error, error_size)) || !variable)
        return hr;
    if (!p->args->push_visible)
        return d3d12xs_write_error(E_NOTIMPL, error, error_size, "it reads SV_ViewID, which a view-instanced pipeline drawing its views "
                "one by one pushes, but the root signature denies this stage root access (push constants)");
    if (!(type = scalar_int_type(p->m, variable)))
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the ViewIndex input is not a 32-bit integer");
    if (FAILED(hr = push_members(p, error, error_size)))
        return hr;
    for (size_t i = 0; i < functions->count; i++) {
        struct d3d12xs_spirv_inst *inst = functions->at[i];
        if (d3d12xs_spirv_op(inst) != SpvOpLoad || d3d12xs_spirv_len(inst) < 4 || inst->w[3] != variable)
            continue;
        const uint32_t result = inst->w[2];
        const uint32_t value = load_push(p, &i, &p->view);
        /* the load becomes a copy of the pushed value, as the type the shader declared */
        const uint32_t words[4] = {type == p->uint_type ? SpvOpCopyObject : SpvOpBitcast, type, result, value};
        d3d12xs_spirv_rewrite(p->m, functions->at[i], words, 4);
    }
    d3d12xs_spirv_remove_variables(p->m, is_view_index, &variable);
    return S_OK;
}

/* `select[v]` for the pushed view index v: a chain of OpSelect over the views. */
static uint32_t per_view(struct view_pass *p, size_t *at, uint32_t view, const uint32_t *values)
{
    uint32_t result = d3d12xs_spirv_constant_u32(p->m, values[0]);
    for (uint32_t v = 1; v < p->args->view_count; v++) {
        const uint32_t compare[2] = {view, d3d12xs_spirv_constant_u32(p->m, v)};
        const uint32_t is_v = emit(p, at, SpvOpIEqual, p->bool_type, compare, 2);
        const uint32_t select[3] = {is_v, d3d12xs_spirv_constant_u32(p->m, values[v]), result};
        result = emit(p, at, SpvOpSelect, p->uint_type, select, 3);
    }
    return result;
}

/* The output variable of built-in builtin: the shader's (*written true) or a new uint one. */
static HRESULT output_variable(struct view_pass *p, uint32_t builtin, uint32_t *variable, uint32_t *type, bool *written,
        char *error, size_t error_size)
{
    struct d3d12xs_spirv_inst *entry = p->m->sections[D3D12XS_SPIRV_ENTRY_POINTS].at[0];
    HRESULT hr;

    if (FAILED(hr = find_builtin(p->m, builtin, variable, error, error_size)))
        return hr;
    if ((*written = *variable != 0)) {
        if (!(*type = scalar_int_type(p->m, *variable)))
            return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the output of built-in %u is not a 32-bit integer", builtin);
        return S_OK;
    }
    if (!(*variable = d3d12xs_spirv_new_id(p->m)))
        return d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of ids");
    *type = p->uint_type;
    const uint32_t declaration[4] = {SpvOpVariable | 4u << 16, d3d12xs_spirv_type_pointer(p->m, SpvStorageClassOutput, p->uint_type),
            *variable, SpvStorageClassOutput};
    const uint32_t decoration[4] = {SpvOpDecorate | 4u << 16, *variable, SpvDecorationBuiltIn, builtin};
    d3d12xs_spirv_append(p->m, D3D12XS_SPIRV_GLOBALS, declaration, 4);
    d3d12xs_spirv_append(p->m, D3D12XS_SPIRV_ANNOTATIONS, decoration, 4);
    d3d12xs_spirv_append_operand(p->m, entry, *variable);
    return S_OK;
}

/* Before the instruction at *at: variable = location[view] + what the shader wrote there, or 0
 * when that is not below the pushed count. */
static void write_location(struct view_pass *p, size_t *at, uint32_t view, uint32_t variable, uint32_t type, bool written,
        const uint32_t *locations, const struct d3d12xs_spirv_push_member *count_member)
{
    uint32_t value = per_view(p, at, view, locations), count = load_push(p, at, count_member);

    if (written) {
        uint32_t own = emit(p, at, SpvOpLoad, type, &variable, 1);
        if (type != p->uint_type)
            own = emit(p, at, SpvOpBitcast, p->uint_type, &own, 1);
        const uint32_t add[2] = {value, own};
        value = emit(p, at, SpvOpIAdd, p->uint_type, add, 2);
    }
    const uint32_t compare[2] = {value, count};
    const uint32_t inside = emit(p, at, SpvOpULessThan, p->bool_type, compare, 2);
    const uint32_t select[3] = {inside, value, d3d12xs_spirv_constant_u32(p->m, 0)};
    value = emit(p, at, SpvOpSelect, p->uint_type, select, 3);
    if (type != p->uint_type)
        value = emit(p, at, SpvOpBitcast, type, &value, 1);
    const uint32_t store[3] = {SpvOpStore | 3u << 16, variable, value};
    d3d12xs_spirv_insert(p->m, D3D12XS_SPIRV_FUNCTIONS, (*at)++, store, 3);
}

static HRESULT write_locations(struct view_pass *p, uint32_t model, char *error, size_t error_size)
{
    struct d3d12xs_spirv_list *functions = &p->m->sections[D3D12XS_SPIRV_FUNCTIONS];
    const uint32_t entry_function = p->m->sections[D3D12XS_SPIRV_ENTRY_POINTS].at[0]->w[2];
    uint32_t layer, layer_type, viewport = 0, viewport_type = 0, function = 0;
    bool layer_written, viewport_written = false;
    HRESULT hr;

    if (!p->args->push_visible)
        return d3d12xs_write_error(E_NOTIMPL, error, error_size, "a view-instanced pipeline drawing its views one by one pushes the view "
                "to this stage, but the root signature denies it root access (push constants)");
    if (FAILED(hr = push_members(p, error, error_size)))
        return hr;
    if (FAILED(hr = output_variable(p, SpvBuiltInLayer, &layer, &layer_type, &layer_written, error, error_size)))
        return hr;
    if (p->args->write_viewport || (SUCCEEDED(hr = find_builtin(p->m, SpvBuiltInViewportIndex, &viewport, error, error_size)) && viewport)) {
        if (FAILED(hr = output_variable(p, SpvBuiltInViewportIndex, &viewport, &viewport_type, &viewport_written, error, error_size)))
            return hr;
    } else if (FAILED(hr)) {
        return hr;
    }
    /* Layer and ViewportIndex before the rasterizer: a geometry shader's capability covers
     * Layer; vertex and domain shaders take the extension's, which Vulkan 1.2's
     * shaderOutputLayer and shaderOutputViewportIndex enable. */
    if (model == SpvExecutionModelGeometry) {
        if (viewport)
            d3d12xs_spirv_add_capability(p->m, SpvCapabilityMultiViewport);
    } else {
        d3d12xs_spirv_add_capability(p->m, SpvCapabilityShaderViewportIndexLayerEXT);
        d3d12xs_spirv_add_extension(p->m, "SPV_EXT_shader_viewport_index_layer");
    }
    for (size_t i = 0; i < functions->count; i++) {
        const struct d3d12xs_spirv_inst *inst = functions->at[i];
        const uint32_t op = d3d12xs_spirv_op(inst);
        if (op == SpvOpFunction && d3d12xs_spirv_len(inst) > 2)
            function = inst->w[2];
        /* a geometry shader's vertex takes the outputs as they are when it is emitted; the other
         * stages' at the entry point's return */
        if (model == SpvExecutionModelGeometry ? op != SpvOpEmitVertex && op != SpvOpEmitStreamVertex
                : op != SpvOpReturn || function != entry_function)
            continue;
        uint32_t view = load_push(p, &i, &p->view);
        write_location(p, &i, view, layer, layer_type, layer_written, p->args->layers, &p->layers);
        if (viewport)
            write_location(p, &i, view, viewport, viewport_type, viewport_written, p->args->viewports, &p->viewports);
    }
    return S_OK;
}

HRESULT d3d12xs_spirv_pass_view_locations(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_view_locations_args *args,
        char *error, size_t error_size)
{
    const uint32_t bool_words[2] = {SpvOpTypeBool | 2u << 16, 0};
    struct d3d12xs_spirv_inst *entry = m->sections[D3D12XS_SPIRV_ENTRY_POINTS].count ? m->sections[D3D12XS_SPIRV_ENTRY_POINTS].at[0] : NULL;
    struct view_pass p = {m, args, {0}, {0}, {0}, 0, 0};
    HRESULT hr;

    if (!entry || d3d12xs_spirv_len(entry) < 3)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the module has no entry point");
    if (!args->view_count || args->view_count > D3D12XS_ARRAY_SIZE(args->layers))
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "%u views", args->view_count);
    p.uint_type = d3d12xs_spirv_type_int(m, 32, 0);
    p.bool_type = d3d12xs_spirv_global(m, bool_words, 2, 1);
    if (FAILED(hr = replace_view_index(&p, error, error_size)))
        return hr;
    if (args->write_locations && FAILED(hr = write_locations(&p, entry->w[1], error, error_size)))
        return hr;
    return m->out_of_memory ? d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory") : S_OK;
}
