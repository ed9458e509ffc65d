/* ExecuteIndirect's variants of a compute pipeline (docs/indirect.md, "Root views"): generated
 * commands set no descriptors, so a command signature's root CBV/SRV/UAV arguments reach the
 * shader through the push block instead. A PUSH_CONSTANT token writes each command's D3D12
 * address into the parameter's 16-byte entry (root_signature.h: indirect_view_offsets), the list
 * pushes the GPU VA table's address into the entry's other half, and the variant's shader reads
 * the entry and translates the address as the memory-based ABI does (spirv_root_pointers.c with
 * push_offsets). The root views the signature does not set stay push descriptors.
 *
 * The variant starts from BASE's final SPIR-V, kept only by pipelines whose shader reads root
 * views with entries: the view offsets pass has run on it, and reads each root SRV/UAV's
 * misalignment push constant, which ExecuteIndirect pushes as 0 for the signature's views (a
 * pointer starts at the address itself). Each variant is made at the first ExecuteIndirect that
 * needs it and kept with the pipeline; it shares the pipeline's layout, so binding it keeps the
 * bound descriptors and push constants. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipelines/pipeline_state.h"
#include "memory/va_map.h"
#include "spirv/spirv.h"
#include "spirv/spirv_passes.h"

struct d3d12_indirect_variant {
    uint64_t root_view_mask;
    VkPipeline pipeline;
};

/* A root view binding of the shader that the root signature gives a push-block entry. */
static bool has_entry(const struct d3d12_pipeline_state *state, const struct d3d12xs_pipeline_binding *binding)
{
    return binding->source == D3D12XS_BINDING_ROOT_DESCRIPTOR && binding->variable_id && binding->root_index < D3D12XS_MAX_ROOT_PARAMETERS
            && state->root_signature->indirect_view_offsets[binding->root_index] != UINT32_MAX;
}

HRESULT d3d12_pipeline_state_keep_indirect_source(struct d3d12_pipeline_state *state, const uint32_t *words, size_t word_count,
        const char *method)
{
    bool needed = false;

    for (uint32_t i = 0; i < state->binding_count && !needed; i++)
        needed = has_entry(state, &state->bindings[i]);
    if (!needed)
        return S_OK;
    if (!(state->indirect_source = malloc(word_count * 4)))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot keep the SPIR-V of the pipeline's ExecuteIndirect variants");
    memcpy(state->indirect_source, words, word_count * 4);
    state->indirect_source_word_count = word_count;
    return S_OK;
}

/* The variant's SPIR-V: the root views of mask through the push block's entries. *words stays
 * NULL where the shader reads none of them. */
static HRESULT variant_code(const struct d3d12_pipeline_state *state, uint64_t mask, uint32_t **words, size_t *word_count,
        char *error, size_t error_size)
{
    uint32_t variables[2 * D3D12XS_MAX_ROOT_PARAMETERS], offsets[2 * D3D12XS_MAX_ROOT_PARAMETERS], count = 0;
    struct d3d12xs_spirv_module *module = NULL;
    HRESULT hr;

    *words = NULL;
    for (uint32_t i = 0; i < state->binding_count && count + 2 <= 2 * D3D12XS_MAX_ROOT_PARAMETERS; i++) {
        const struct d3d12xs_pipeline_binding *binding = &state->bindings[i];
        if (!has_entry(state, binding) || !(mask >> binding->root_index & 1))
            continue;
        /* D3DCompile's uvec4 view of the same raw buffer reads the same entry */
        offsets[count] = state->root_signature->indirect_view_offsets[binding->root_index];
        variables[count++] = binding->variable_id;
        if (binding->alias_variable_id) {
            offsets[count] = offsets[count - 1];
            variables[count++] = binding->alias_variable_id;
        }
    }
    if (!count)
        return S_OK;
    {
        const struct d3d12xs_spirv_root_pointers_args args = {variables, count, 0, 0, 0, D3D12XS_VA_TABLE_ZERO_OFFSET,
                D3D12XS_VA_TABLE_SCRATCH_OFFSET, offsets};
        if (FAILED(hr = d3d12xs_spirv_module_parse(state->indirect_source, state->indirect_source_word_count * 4, &module, error, error_size)))
            return hr;
        if (SUCCEEDED(hr = d3d12xs_spirv_pass_root_pointers(module, &args, error, error_size))
                && FAILED(hr = d3d12xs_spirv_module_emit(module, words, word_count)))
            d3d12xs_write_error(hr, error, error_size, "cannot write the SPIR-V");
        d3d12xs_spirv_module_destroy(module);
    }
    /* The device's choice (D3D12XS_DEBUG or EnableDebugLayer), as for the pipeline's own. */
    if (SUCCEEDED(hr) && d3d12xs_config_validates_spirv(&state->device->config)
            && FAILED(hr = d3d12xs_spirv_validate(*words, *word_count, true, error, error_size))) {
        free(*words);
        *words = NULL;
    }
    return hr;
}

static HRESULT create_vk_pipeline(const struct d3d12_pipeline_state *state, const uint32_t *words, size_t word_count, VkPipeline *pipeline,
        char *error, size_t error_size)
{
    struct d3d12_device *device = state->device;
    uint32_t *device_words = d3d12xs_spirv_words_for_device(words, word_count, device->compute_derivatives_khr);
    VkShaderModuleCreateInfo module_info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = word_count * 4,
        .pCode = device_words ? device_words : words,
    };
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo subgroup_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO,
        .requiredSubgroupSize = state->subgroup_size,
    };
    VkShaderModule module;
    VkResult vr;

    vr = vkCreateShaderModule(device->vk_device, &module_info, NULL, &module);
    free(device_words);
    if (vr != VK_SUCCESS)
        return d3d12xs_write_error(d3d12xs_hresult_from_vk(device, vr), error, error_size, "vkCreateShaderModule failed (VkResult %d)", vr);
    VkComputePipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .flags = state->root_signature->reads_heaps ? VK_PIPELINE_CREATE_DESCRIPTOR_BUFFER_BIT_EXT : 0,
        .stage = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .pNext = state->required_subgroup_size ? &subgroup_info : NULL,
            .stage = VK_SHADER_STAGE_COMPUTE_BIT,
            .module = module,
            .pName = state->entry_point,
        },
        .layout = state->vk_layout,
    };
    vr = vkCreateComputePipelines(device->vk_device, VK_NULL_HANDLE, 1, &info, NULL, pipeline);
    vkDestroyShaderModule(device->vk_device, module, NULL);
    if (vr != VK_SUCCESS)
        return d3d12xs_write_error(d3d12xs_hresult_from_vk(device, vr), error, error_size, "vkCreateComputePipelines failed (VkResult %d)", vr);
    return S_OK;
}

VkPipeline d3d12_pipeline_state_indirect_variant(struct d3d12_pipeline_state *state, uint64_t root_view_mask, HRESULT *hr,
        char *error, size_t error_size)
{
    struct d3d12_indirect_variant *bigger;
    VkPipeline pipeline = VK_NULL_HANDLE;
    uint32_t *words = NULL;
    size_t word_count = 0;

    *hr = S_OK;
    if (!state->indirect_source)
        return state->vk_pipeline;
    pthread_mutex_lock(&state->indirect_lock);
    for (uint32_t i = 0; i < state->indirect_variant_count; i++)
        if (state->indirect_variants[i].root_view_mask == root_view_mask) {
            pipeline = state->indirect_variants[i].pipeline;
            goto done;
        }
    if (FAILED(*hr = variant_code(state, root_view_mask, &words, &word_count, error, error_size)))
        goto done;
    if (!words) {
        pipeline = state->vk_pipeline;
        goto done;
    }
    if (!(bigger = realloc(state->indirect_variants, (state->indirect_variant_count + 1) * sizeof(*bigger)))) {
        *hr = d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory");
        goto done;
    }
    state->indirect_variants = bigger;
    if (FAILED(*hr = create_vk_pipeline(state, words, word_count, &pipeline, error, error_size)))
        goto done;
    state->indirect_variants[state->indirect_variant_count++] = (struct d3d12_indirect_variant){root_view_mask, pipeline};

done:
    pthread_mutex_unlock(&state->indirect_lock);
    free(words);
    return pipeline;
}

void d3d12_pipeline_state_destroy_indirect_variants(struct d3d12_device *device, struct d3d12_pipeline_state *state)
{
    for (uint32_t i = 0; i < state->indirect_variant_count; i++)
        vkDestroyPipeline(device->vk_device, state->indirect_variants[i].pipeline, NULL);
    free(state->indirect_variants);
    free(state->indirect_source);
    pthread_mutex_destroy(&state->indirect_lock);
}
