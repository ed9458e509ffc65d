/* Building a compute pipeline's VkPipelines: the base one at creation, the DispatchX variants
 * (thread limit, coherent UAVs: spirv/spirv_dispatch_variant.c) on first use. All of them share the
 * wave size choice and the pipeline layout, so switching between them keeps the bound
 * descriptors and push constants. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipelines/pipeline_state.h"
#include "spirv/spirv.h"

/* The subgroup size a wave32 or wave64 pipeline runs with. Where the device lets compute
 * pipelines require a size and the wave size lies in [minSubgroupSize, maxSubgroupSize], that
 * size is required (VK_EXT_subgroup_size_control, core in Vulkan 1.3); else the pipeline gets
 * the device's default subgroup size: lavapipe has only 8, the H200 only 32, so there wave64
 * shaders run with 32-wide subgroups (WaveGetLaneCount() tells them). */
uint32_t d3d12xs_subgroup_size_for_wave(const struct d3d12_device *device, uint32_t wave_size, const uint32_t local_size[3], bool *required)
{
    uint64_t threads = (uint64_t)local_size[0] * local_size[1] * local_size[2];

    *required = device->compute_subgroup_size_control && wave_size >= device->min_subgroup_size
            && wave_size <= device->max_subgroup_size && threads <= (uint64_t)device->max_compute_workgroup_subgroups * wave_size;
    return *required ? wave_size : device->subgroup_size;
}

_Static_assert(D3D12XS_VARIANT_COUNT == sizeof(((struct d3d12_pipeline_state *)0)->variants) / sizeof(VkPipeline),
        "one slot per DispatchX variant");

static HRESULT build_vk_pipeline(struct d3d12_pipeline_state *state, const uint32_t *words, size_t word_count, bool dispatch_base,
        VkPipeline *pipeline, char *error, size_t error_size)
{
    struct d3d12_device *device = state->object.device;
    VkShaderModule module = VK_NULL_HANDLE;
    uint32_t *device_words = d3d12xs_spirv_words_for_device(words, word_count, device->compute_derivatives_khr);
    VkResult vr;

    VkShaderModuleCreateInfo module_info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = word_count * 4,
        .pCode = device_words ? device_words : words,
    };
    vr = vkCreateShaderModule(device->vk_device, &module_info, NULL, &module);
    free(device_words);
    if (vr != VK_SUCCESS) {
        d3d12xs_write_error(E_FAIL, error, error_size, "vkCreateShaderModule failed (VkResult %d)", vr);
        return d3d12xs_hresult_from_vk(device, vr);
    }
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo subgroup_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO,
        .requiredSubgroupSize = state->subgroup_size,
    };
    VkComputePipelineCreateInfo pipeline_info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        /* DispatchX starts SV_GroupID at the list's start group through vkCmdDispatchBase, which
         * needs this flag. Only the variant that does so gets it: the H200's GPU time per
         * dispatch was 0.28 us with the flag on every pipeline, 0.16 without. */
        .flags = (dispatch_base ? VK_PIPELINE_CREATE_DISPATCH_BASE_BIT : 0)
                | (state->root_signature->reads_heaps ? VK_PIPELINE_CREATE_DESCRIPTOR_BUFFER_BIT_EXT : 0),
        .stage = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .pNext = state->required_subgroup_size ? &subgroup_info : NULL,
            .stage = VK_SHADER_STAGE_COMPUTE_BIT,
            .module = module,
            .pName = state->entry_point,
        },
        .layout = state->vk_layout,
    };
    /* No VkPipelineCache: an empty one made the H200's first pipeline of a process 3x slower
     * (1,261 against 387 us; the driver then seems to compile instead of using its own disk cache). */
    vr = vkCreateComputePipelines(device->vk_device, VK_NULL_HANDLE, 1, &pipeline_info, NULL, pipeline);
    vkDestroyShaderModule(device->vk_device, module, NULL);
    if (vr != VK_SUCCESS) {
        d3d12xs_write_error(E_FAIL, error, error_size, "vkCreateComputePipelines failed (VkResult %d)", vr);
        return d3d12xs_hresult_from_vk(device, vr);
    }
    return S_OK;
}

HRESULT d3d12_pipeline_state_build(struct d3d12_pipeline_state *state, uint32_t *spirv, size_t word_count, const char *entry_point,
        const char *method)
{
    char error[256];
    HRESULT hr;

    state->spirv = spirv;
    state->spirv_word_count = word_count;
    snprintf(state->entry_point, sizeof(state->entry_point), "%s", entry_point);
    state->subgroup_size = d3d12xs_subgroup_size_for_wave(state->object.device, state->wave_size, state->local_size, &state->required_subgroup_size);
    if (FAILED(hr = build_vk_pipeline(state, spirv, word_count, false, &state->vk_pipeline, error, sizeof(error))))
        return d3d12xs_fail(hr, method, "%s", error);
    state->variants[0] = state->vk_pipeline;
    return S_OK;
}

VkPipeline d3d12_pipeline_state_variant(struct d3d12_pipeline_state *state, unsigned variant, char *error, size_t error_size)
{
    uint32_t *words = NULL;
    size_t word_count = 0;
    VkPipeline pipeline = VK_NULL_HANDLE;

    if (!variant)
        return state->vk_pipeline;
    if ((variant & D3D12XS_VARIANT_THREAD_LIMIT) && state->thread_limit_offset == UINT32_MAX) {
        d3d12xs_write_error(E_INVALIDARG, error, error_size, "the root signature's constants fill the device's %u bytes of push constants; "
                "the thread limit needs 16 more", state->object.device->vk_properties.limits.maxPushConstantsSize);
        return VK_NULL_HANDLE;
    }
    pthread_mutex_lock(&state->object.lock);
    if (!(pipeline = state->variants[variant])) {
        uint32_t *scalar = NULL;
        size_t scalar_count = 0;
        HRESULT hr = S_OK;
        /* SCALAR starts from its own SPIR-V; the DispatchX bits apply to either */
        if (variant & D3D12XS_VARIANT_SCALAR)
            hr = d3d12_pipeline_state_scalar_spirv(state, &scalar, &scalar_count, error, error_size);
        if (SUCCEEDED(hr) && !(variant & ~D3D12XS_VARIANT_SCALAR))
            words = scalar, word_count = scalar_count, scalar = NULL;
        else if (SUCCEEDED(hr))
            hr = d3d12xs_spirv_dispatch_variant(scalar ? scalar : state->spirv, scalar ? scalar_count : state->spirv_word_count,
                    variant & ~D3D12XS_VARIANT_SCALAR, state->thread_limit_offset, &words, &word_count, error, error_size);
        free(scalar);
        if (SUCCEEDED(hr)
                && (!d3d12xs_config_validates_spirv(&state->object.device->config)
                    || SUCCEEDED(d3d12xs_spirv_validate(words, word_count, true, error, error_size)))
                && SUCCEEDED(build_vk_pipeline(state, words, word_count, variant & D3D12XS_VARIANT_DISPATCH_BASE, &pipeline, error, error_size)))
            state->variants[variant] = pipeline;
    }
    pthread_mutex_unlock(&state->object.lock);
    free(words);
    return pipeline;
}

void d3d12_pipeline_state_destroy_variants(struct d3d12_device *device, struct d3d12_pipeline_state *state)
{
    for (unsigned i = 1; i < D3D12XS_VARIANT_COUNT; i++)
        vkDestroyPipeline(device->vk_device, state->variants[i], NULL);
    free(state->spirv);
    free(state->scalar_source);
}
