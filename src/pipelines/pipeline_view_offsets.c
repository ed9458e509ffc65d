/* Raw and structured views at any offset D3D12 allows, on the pipeline side
 * (docs/descriptors.md, "Views at any offset"): which variables the shader adds a view's
 * misalignment to (spirv/spirv_view_offsets.c), and the SCALAR variant, whose root raw buffers are
 * never read as uvec4s: a 16-byte access would straddle the view's start when the root
 * argument is 4, 8 or 12 bytes past a 16-byte boundary, so the dispatch picks that variant then.
 * Graphics stages have no variants: theirs are scalar from the start. */
#include <stdlib.h>

#include "descriptors/descriptor_buffer.h"
#include "pipelines/pipeline_state.h"
#include "spirv/spirv_passes.h"

/* A root SRV or UAV the shader reads through a push descriptor. */
static bool is_root_view(const struct d3d12_pipeline_state *state, const struct d3d12xs_pipeline_binding *binding)
{
    return binding->source == D3D12XS_BINDING_ROOT_DESCRIPTOR && binding->vk_type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
            && binding->variable_id && state->root_signature->root_view_offsets[binding->root_index] != UINT32_MAX;
}

static HRESULT scalarize_root_views(struct d3d12_pipeline_state *state, struct d3d12xs_spirv_module *module, char *error, size_t error_size)
{
    uint32_t *variables = calloc(2 * (size_t)state->binding_count + 1, sizeof(*variables)), *aliases = variables + state->binding_count, count = 0;
    HRESULT hr;

    if (!variables)
        return E_OUTOFMEMORY;
    for (uint32_t i = 0; i < state->binding_count; i++) {
        const struct d3d12xs_pipeline_binding *binding = &state->bindings[i];
        if (is_root_view(state, binding) && binding->alias_variable_id) {
            variables[count] = binding->variable_id;
            aliases[count++] = binding->alias_variable_id;
        }
    }
    const struct d3d12xs_spirv_scalarize_args args = {variables, aliases, count};
    hr = count ? d3d12xs_spirv_pass_scalarize(module, &args, error, error_size) : S_OK;
    free(variables);
    return hr;
}

HRESULT d3d12_pipeline_state_apply_view_offsets(struct d3d12_pipeline_state *state, struct d3d12xs_spirv_module *module, bool scalar,
        char *error, size_t error_size)
{
    const struct d3d12_root_signature *signature = state->root_signature;
    struct d3d12xs_spirv_view_offset_root *roots = calloc(2 * (size_t)state->binding_count + 1, sizeof(*roots));
    uint32_t *strides = calloc(2 * (size_t)state->binding_count + 1, sizeof(*strides)), count = 0;
    bool *unfollowed = calloc(2 * (size_t)state->binding_count + 2, sizeof(*unfollowed));
    HRESULT hr = E_OUTOFMEMORY;

    if (!roots || !strides || !unfollowed)
        goto done;
    if (scalar && FAILED(hr = scalarize_root_views(state, module, error, error_size)))
        goto done;
    for (uint32_t i = 0; i < state->binding_count; i++) {
        const struct d3d12xs_pipeline_binding *binding = &state->bindings[i];
        if (!is_root_view(state, binding))
            continue;
        roots[count++] = (struct d3d12xs_spirv_view_offset_root){binding->variable_id, signature->root_view_offsets[binding->root_index]};
        if (binding->alias_variable_id && !scalar)
            roots[count++] = (struct d3d12xs_spirv_view_offset_root){binding->alias_variable_id, signature->root_view_offsets[binding->root_index]};
    }
    {
        const struct d3d12xs_spirv_view_offsets_args args = {state->reads_heaps, D3D12XS_HEAP_SET_RESOURCES, D3D12XS_HEAP_SET_COUNTERS,
                roots, count, strides, unfollowed};
        if (FAILED(hr = d3d12xs_spirv_pass_view_offsets(module, &args, error, error_size)))
            goto done;
    }
    if (scalar)
        goto done; /* the base pipeline set the bindings up; a variant runs with them as they are */
    if (unfollowed[count])
        WARN("a pipeline's shader passes a descriptor table's raw or structured buffer to a function that is not inlined "
                "(D3DCOMPILE_SKIP_OPTIMIZATION?): those views must start at multiples of %llu bytes",
                (unsigned long long)state->device->vk_properties.limits.minStorageBufferOffsetAlignment);
    for (uint32_t i = 0, k = 0; i < state->binding_count; i++) {
        struct d3d12xs_pipeline_binding *binding = &state->bindings[i];
        if (!is_root_view(state, binding))
            continue;
        binding->view_stride = strides[k];
        binding->view_offsets = strides[k] && !unfollowed[k];
        k += binding->alias_variable_id ? 2 : 1;
        if (binding->alias_variable_id && unfollowed[k - 1])
            binding->view_offsets = false;
    }
done:
    free(roots);
    free(strides);
    free(unfollowed);
    return hr;
}

HRESULT d3d12_pipeline_state_apply_graphics_view_offsets(struct d3d12_pipeline_state *state, struct d3d12xs_spirv_module *module,
        char *error, size_t error_size)
{
    HRESULT hr;

    if (FAILED(hr = scalarize_root_views(state, module, error, error_size)))
        return hr;
    for (uint32_t i = 0; i < state->binding_count; i++)
        if (is_root_view(state, &state->bindings[i]))
            state->bindings[i].alias_variable_id = 0;
    return d3d12_pipeline_state_apply_view_offsets(state, module, false, error, error_size);
}

HRESULT d3d12_pipeline_state_scalar_spirv(struct d3d12_pipeline_state *state, uint32_t **words, size_t *word_count,
        char *error, size_t error_size)
{
    struct d3d12xs_spirv_module *module = NULL;
    HRESULT hr;

    if (!state->scalar_source)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the pipeline has no root raw buffer read as uvec4s");
    if (SUCCEEDED(hr = d3d12xs_spirv_module_parse(state->scalar_source, state->scalar_source_word_count * 4, &module, error, error_size))
            && SUCCEEDED(hr = d3d12_pipeline_state_apply_view_offsets(state, module, true, error, error_size)))
        hr = d3d12xs_spirv_module_emit(module, words, word_count);
    d3d12xs_spirv_module_destroy(module);
    return hr;
}
