/* Building a compute pipeline's VkPipelines, all of them when the pipeline is created, so that
 * recording only looks one up (d3d12_pipeline_state_variant, without a lock):
 *
 *  - BASE: the remapped SPIR-V, for Dispatch and for DispatchX without the flags below;
 *  - SCALAR, only where the shader reads a root raw buffer also as uvec4s (D3DCompile's Load4):
 *    those reads as four 32-bit ones, for a root view 4, 8 or 12 bytes off a 16-byte boundary
 *    (pipeline_view_offsets.c);
 *  - DISPATCHX: created with VK_PIPELINE_CREATE_DISPATCH_BASE_BIT (a start group) and, where the
 *    shader allows it, with the thread limit of USE_THREAD_DIMENSIONS (spirv_dispatch_variant.c),
 *    from SCALAR's SPIR-V where there is one: one VkPipeline serves every DispatchX that needs a
 *    start group, a partial group or both, and any root view alignment;
 *  - DISPATCHX_COHERENT: DISPATCHX with every storage buffer and image Coherent, for the
 *    DISABLE_VOLATILE flags; DISPATCHX's own VkPipeline where the shader has none to decorate
 *    or its source declared nothing globallycoherent (no volatile access: spirv.h).
 *
 * Each distinct one is a driver compile at creation, so the DispatchX flags share variants
 * rather than each combination having its own: a DispatchX with only a partial group also runs
 * with DISPATCH_BASE, and one with only a start group also checks the (unreachable) thread
 * limit (docs/dispatch.md). All are made in one vkCreateComputePipelines call, share the wave
 * size choice and the pipeline layout, so switching between them keeps the bound descriptors and
 * push constants. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipelines/pipeline_state.h"
#include "spirv/spirv.h"
#include "spirv/spirv_passes.h"

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

/* The SPIR-V of each variant; NULL where it has none of its own. */
struct variant_code {
    uint32_t *words[D3D12XS_PIPELINE_VARIANT_COUNT];
    size_t word_counts[D3D12XS_PIPELINE_VARIANT_COUNT];
};

/* Why a DispatchX of this pipeline cannot run, kept for the record path's message. */
static HRESULT keep_reason(char **reason, const char *text)
{
    return (*reason = strdup(text)) ? S_OK : E_OUTOFMEMORY;
}

/* DISPATCHX and DISPATCHX_COHERENT from source (BASE's or SCALAR's SPIR-V), parsed once. */
static HRESULT dispatchx_code(struct d3d12_pipeline_state *state, const uint32_t *source, size_t source_count, struct variant_code *code,
        char *error, size_t error_size)
{
    const uint64_t threads = (uint64_t)state->local_size[0] * state->local_size[1] * state->local_size[2];
    struct d3d12xs_spirv_dispatch_variant_args args = {D3D12XS_VARIANT_DISPATCH_BASE, state->thread_limit_offset};
    struct d3d12xs_spirv_module *module = NULL;
    char reason[320];
    HRESULT hr;

    if (FAILED(hr = d3d12xs_spirv_module_parse(source, source_count * 4, &module, error, error_size)))
        return hr;
    /* Groups of one thread never have a partial group to cut. */
    if (threads > 1 && state->thread_limit_offset == UINT32_MAX) {
        snprintf(reason, sizeof(reason), "the root signature's constants fill the device's %u bytes of push constants; the thread limit "
                "needs 16 more", state->device->vk_properties.limits.maxPushConstantsSize);
        if (FAILED(hr = keep_reason(&state->thread_limit_error, reason)))
            goto done;
    } else if (threads > 1) {
        args.variant |= D3D12XS_VARIANT_THREAD_LIMIT;
        if (SUCCEEDED(hr = d3d12xs_spirv_pass_dispatch_variant(module, &args, reason, sizeof(reason)))) {
            state->dispatchx_thread_limit = true;
        } else if (hr == E_INVALIDARG) {
            /* a group barrier, which a cut group's returned threads would never reach: only
             * dispatches of whole groups run it */
            args.variant &= ~D3D12XS_VARIANT_THREAD_LIMIT;
            d3d12xs_spirv_module_destroy(module);
            module = NULL;
            if (FAILED(hr = keep_reason(&state->thread_limit_error, reason))
                    || FAILED(hr = d3d12xs_spirv_module_parse(source, source_count * 4, &module, error, error_size)))
                goto done;
        } else {
            d3d12xs_write_error(hr, error, error_size, "%s", reason);
            goto done;
        }
    }
    if ((!state->dispatchx_thread_limit && FAILED(hr = d3d12xs_spirv_pass_dispatch_variant(module, &args, error, error_size)))
            || FAILED(hr = d3d12xs_spirv_module_emit(module, &code->words[D3D12XS_PIPELINE_DISPATCHX],
                    &code->word_counts[D3D12XS_PIPELINE_DISPATCHX])))
        goto done;
    if (!state->no_volatile && d3d12xs_spirv_incoherent_storage_count(module)) {
        args.variant = D3D12XS_VARIANT_COHERENT;
        if (SUCCEEDED(hr = d3d12xs_spirv_pass_dispatch_variant(module, &args, reason, sizeof(reason))))
            hr = d3d12xs_spirv_module_emit(module, &code->words[D3D12XS_PIPELINE_DISPATCHX_COHERENT],
                    &code->word_counts[D3D12XS_PIPELINE_DISPATCHX_COHERENT]);
        else if (hr == E_NOTIMPL) /* the Vulkan memory model, which has no Coherent decoration */
            hr = keep_reason(&state->coherent_error, reason);
        else
            d3d12xs_write_error(hr, error, error_size, "%s", reason);
    }
done:
    if (hr == E_OUTOFMEMORY)
        d3d12xs_write_error(hr, error, error_size, "out of memory");
    d3d12xs_spirv_module_destroy(module);
    return hr;
}

/* Every variant with code of its own, in one vkCreateComputePipelines call. */
static HRESULT create_vk_pipelines(struct d3d12_pipeline_state *state, const struct variant_code *code, char *error, size_t error_size)
{
    struct d3d12_device *device = state->device;
    VkShaderModule modules[D3D12XS_PIPELINE_VARIANT_COUNT] = {VK_NULL_HANDLE};
    VkComputePipelineCreateInfo infos[D3D12XS_PIPELINE_VARIANT_COUNT];
    VkPipeline pipelines[D3D12XS_PIPELINE_VARIANT_COUNT] = {VK_NULL_HANDLE};
    unsigned variants[D3D12XS_PIPELINE_VARIANT_COUNT], count = 0;
    VkResult vr = VK_SUCCESS;
    HRESULT hr = S_OK;

    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo subgroup_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO,
        .requiredSubgroupSize = state->subgroup_size,
    };
    for (unsigned i = 0; i < D3D12XS_PIPELINE_VARIANT_COUNT && vr == VK_SUCCESS; i++) {
        bool dispatch_base = i == D3D12XS_PIPELINE_DISPATCHX || i == D3D12XS_PIPELINE_DISPATCHX_COHERENT;
        uint32_t *device_words;
        if (!code->words[i])
            continue;
        device_words = d3d12xs_spirv_words_for_device(code->words[i], code->word_counts[i], device->compute_derivatives_khr);
        VkShaderModuleCreateInfo module_info = {
            .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
            .codeSize = code->word_counts[i] * 4,
            .pCode = device_words ? device_words : code->words[i],
        };
        vr = vkCreateShaderModule(device->vk_device, &module_info, NULL, &modules[count]);
        free(device_words);
        if (vr != VK_SUCCESS) {
            d3d12xs_write_error(E_FAIL, error, error_size, "vkCreateShaderModule failed (VkResult %d)", vr);
            break;
        }
        infos[count] = (VkComputePipelineCreateInfo){
            .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
            /* DispatchX starts SV_GroupID at the list's start group through vkCmdDispatchBase,
             * which needs this flag. Only the DispatchX variants get it: the H200's GPU time per
             * dispatch was 0.28 us with the flag on every pipeline, 0.16 without. */
            .flags = (dispatch_base ? VK_PIPELINE_CREATE_DISPATCH_BASE_BIT : 0)
                    | (state->root_signature->reads_heaps ? VK_PIPELINE_CREATE_DESCRIPTOR_BUFFER_BIT_EXT : 0),
            .stage = {
                .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                .pNext = state->required_subgroup_size ? &subgroup_info : NULL,
                .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                .module = modules[count],
                .pName = state->entry_point,
            },
            .layout = state->vk_layout,
        };
        variants[count++] = i;
    }
    /* No VkPipelineCache: an empty one made the H200's first pipeline of a process 3x slower
     * (1,261 against 387 us; the driver then seems to compile instead of using its own disk cache). */
    if (vr == VK_SUCCESS && (vr = vkCreateComputePipelines(device->vk_device, VK_NULL_HANDLE, count, infos, NULL, pipelines)) != VK_SUCCESS)
        d3d12xs_write_error(E_FAIL, error, error_size, "vkCreateComputePipelines failed (VkResult %d)", vr);
    for (unsigned k = 0; k < count; k++) {
        vkDestroyShaderModule(device->vk_device, modules[k], NULL);
        if (vr == VK_SUCCESS)
            state->variants[variants[k]] = pipelines[k];
        else
            vkDestroyPipeline(device->vk_device, pipelines[k], NULL); /* those made before one failed */
    }
    if (vr != VK_SUCCESS && (hr = d3d12xs_hresult_from_vk(device, vr)) == E_FAIL)
        hr = E_INVALIDARG; /* what Windows answers for a shader it cannot build */
    return hr;
}

HRESULT d3d12_pipeline_state_build(struct d3d12_pipeline_state *state, uint32_t *spirv, size_t word_count, const char *entry_point,
        const char *method)
{
    struct d3d12_device *device = state->device;
    static const char *const names[D3D12XS_PIPELINE_VARIANT_COUNT] = {"the pipeline",
            "its variant for root views off 16-byte boundaries", "its DispatchX variant", "its coherent DispatchX variant"};
    struct variant_code code = {{spirv}, {word_count}};
    unsigned failed = D3D12XS_PIPELINE_BASE, source = D3D12XS_PIPELINE_BASE;
    char error[512];
    HRESULT hr = S_OK;

    snprintf(state->entry_point, sizeof(state->entry_point), "%s", entry_point);
    state->subgroup_size = d3d12xs_subgroup_size_for_wave(device, state->wave_size, state->local_size, &state->required_subgroup_size);
    if (state->scalar_source) {
        source = D3D12XS_PIPELINE_SCALAR;
        if (FAILED(hr = d3d12_pipeline_state_scalar_spirv(state, &code.words[source], &code.word_counts[source], error, sizeof(error)))) {
            failed = source;
            goto done;
        }
    }
    if (FAILED(hr = dispatchx_code(state, code.words[source], code.word_counts[source], &code, error, sizeof(error)))) {
        failed = D3D12XS_PIPELINE_DISPATCHX;
        goto done;
    }
    /* The device's choice (D3D12XS_DEBUG or EnableDebugLayer); BASE's SPIR-V was validated. */
    for (unsigned i = 1; i < D3D12XS_PIPELINE_VARIANT_COUNT && d3d12xs_config_validates_spirv(&device->config); i++)
        if (code.words[i] && FAILED(hr = d3d12xs_spirv_validate(code.words[i], code.word_counts[i], true, error, sizeof(error)))) {
            failed = i;
            goto done;
        }
    if (FAILED(hr = create_vk_pipelines(state, &code, error, sizeof(error))))
        goto done;
    state->vk_pipeline = state->variants[D3D12XS_PIPELINE_BASE];
    if (!code.words[D3D12XS_PIPELINE_DISPATCHX_COHERENT] && !state->coherent_error)
        state->variants[D3D12XS_PIPELINE_DISPATCHX_COHERENT] = state->variants[D3D12XS_PIPELINE_DISPATCHX];

done:
    for (unsigned i = 0; i < D3D12XS_PIPELINE_VARIANT_COUNT; i++)
        free(code.words[i]);
    free(state->scalar_source);
    state->scalar_source = NULL;
    if (FAILED(hr)) {
        /* a shader the passes or the driver refuse is a bad shader (E_INVALIDARG), as on Windows */
        if (hr != E_OUTOFMEMORY && hr != DXGI_ERROR_DEVICE_REMOVED)
            hr = E_INVALIDARG;
        return d3d12xs_fail(hr, method, "pDesc->CS: cannot build %s: %s", names[failed], error);
    }
    return S_OK;
}

VkPipeline d3d12_pipeline_state_variant(const struct d3d12_pipeline_state *state, unsigned variant, char *error, size_t error_size)
{
    const unsigned dispatchx_bits = D3D12XS_VARIANT_THREAD_LIMIT | D3D12XS_VARIANT_COHERENT | D3D12XS_VARIANT_DISPATCH_BASE;
    VkPipeline pipeline;

    if ((variant & D3D12XS_VARIANT_THREAD_LIMIT) && state->thread_limit_error) {
        d3d12xs_write_error(E_INVALIDARG, error, error_size, "%s", state->thread_limit_error);
        return VK_NULL_HANDLE;
    }
    if ((variant & D3D12XS_VARIANT_COHERENT) && state->coherent_error) {
        d3d12xs_write_error(E_NOTIMPL, error, error_size, "%s", state->coherent_error);
        return VK_NULL_HANDLE;
    }
    if (variant & dispatchx_bits) {
        assert(!(variant & D3D12XS_VARIANT_THREAD_LIMIT) || state->dispatchx_thread_limit);
        pipeline = state->variants[variant & D3D12XS_VARIANT_COHERENT ? D3D12XS_PIPELINE_DISPATCHX_COHERENT : D3D12XS_PIPELINE_DISPATCHX];
    } else if (variant & D3D12XS_VARIANT_SCALAR) {
        if (!(pipeline = state->variants[D3D12XS_PIPELINE_SCALAR]))
            d3d12xs_write_error(E_INVALIDARG, error, error_size, "the pipeline has no root raw buffer read as uvec4s");
        return pipeline;
    } else {
        pipeline = state->vk_pipeline;
    }
    /* Made with the pipeline: recording never builds one. */
    assert(pipeline != VK_NULL_HANDLE);
    return pipeline;
}

void d3d12_pipeline_state_destroy_variants(struct d3d12_device *device, struct d3d12_pipeline_state *state)
{
    for (unsigned i = 0; i < D3D12XS_PIPELINE_VARIANT_COUNT; i++) {
        bool shared = false;
        for (unsigned k = 0; k < i && !shared; k++)
            shared = state->variants[k] == state->variants[i];
        if (!shared)
            vkDestroyPipeline(device->vk_device, state->variants[i], NULL);
    }
    free(state->thread_limit_error);
    free(state->coherent_error);
    free(state->scalar_source);
}
