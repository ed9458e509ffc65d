/* ID3D12Device::CreateComputePipelineStateX (SPEC §2.6): a compute pipeline plus the console's
 * extensions. The one extension is D3D12XBOX_COMPUTE_SHADER_LIMITS_DESC, which tells the
 * console's workload manager how to spread the pipeline's groups over compute units. Vulkan has
 * no control over that: the limits are checked, kept with the pipeline and otherwise advisory
 * (docs/dispatch.md says field by field). */
#include "pipelines/pipeline_state.h"

/* Our bounds (the console's are not public): an RDNA2 compute unit runs at most 16 waves per
 * SIMD and 32 thread groups; walking more than 64 groups per unit before moving on means
 * nothing on a part of 52 units. */
#define MAX_THREADGROUPS_WALKED_PER_CU 64u
#define MAX_WAVES_PER_SIMD 16u
#define MAX_THREADGROUPS_PER_CU 32u

static HRESULT check_shader_limits(const char *method, UINT index, const D3D12XBOX_COMPUTE_SHADER_LIMITS_DESC *limits)
{
    if (limits->NumThreadgroupsWalkedPerCu > MAX_THREADGROUPS_WALKED_PER_CU)
        return d3d12xs_fail(E_INVALIDARG, method, "pExtendedDescs[%u].ComputeShaderLimits.NumThreadgroupsWalkedPerCu is %u (0 for the default, at most %u)",
                index, limits->NumThreadgroupsWalkedPerCu, MAX_THREADGROUPS_WALKED_PER_CU);
    if ((unsigned)limits->SimdWalkAlgorithm > D3D12XBOX_SIMD_WALK_ALGORITHM_ROUND_ROBIN)
        return d3d12xs_fail(E_INVALIDARG, method, "pExtendedDescs[%u].ComputeShaderLimits.SimdWalkAlgorithm is %d (DEFAULT, FILL_SIMD_FIRST or ROUND_ROBIN)",
                index, (int)limits->SimdWalkAlgorithm);
    if (limits->MaxWavesPerSimd > MAX_WAVES_PER_SIMD)
        return d3d12xs_fail(E_INVALIDARG, method, "pExtendedDescs[%u].ComputeShaderLimits.MaxWavesPerSimd is %u (0 for no limit, at most %u)",
                index, limits->MaxWavesPerSimd, MAX_WAVES_PER_SIMD);
    if (limits->MaxThreadgroupsPerCu > MAX_THREADGROUPS_PER_CU)
        return d3d12xs_fail(E_INVALIDARG, method, "pExtendedDescs[%u].ComputeShaderLimits.MaxThreadgroupsPerCu is %u (0 for no limit, at most %u)",
                index, limits->MaxThreadgroupsPerCu, MAX_THREADGROUPS_PER_CU);
    if (!limits->CuMask)
        return d3d12xs_fail(E_INVALIDARG, method, "pExtendedDescs[%u].ComputeShaderLimits.CuMask is 0 (no compute unit could run the pipeline; "
                "D3D12XboxInitializeDefaultComputeShaderLimits sets all of them)", index);
    return S_OK;
}

HRESULT d3d12_pipeline_state_create_compute_x(struct d3d12_device *device, const D3D12_COMPUTE_PIPELINE_STATE_DESC *desc,
        UINT extension_count, const D3D12XBOX_EXTENDED_COMPUTE_PIPELINE_STATE_DESC *extensions, REFIID riid, void **out)
{
    static const char method[] = "ID3D12Device::CreateComputePipelineStateX";
    const D3D12XBOX_COMPUTE_SHADER_LIMITS_DESC *limits = NULL;
    HRESULT hr;

    if (out)
        *out = NULL;
    if (extension_count && !extensions)
        return d3d12xs_fail(E_INVALIDARG, method, "pExtendedDescs is NULL with NumExtendedDescs %u", extension_count);
    if (!extension_count && extensions)
        return d3d12xs_fail(E_INVALIDARG, method, "NumExtendedDescs is 0 with pExtendedDescs set (pass NULL, or the count)");
    for (UINT i = 0; i < extension_count; i++) {
        if (extensions[i].Type != D3D12XBOX_EXTENDED_COMPUTE_PIPELINE_STATE_TYPE_COMPUTE_SHADER_LIMITS)
            return d3d12xs_fail(E_INVALIDARG, method, "pExtendedDescs[%u].Type is %d (only COMPUTE_SHADER_LIMITS is defined)", i,
                    (int)extensions[i].Type);
        if (limits)
            return d3d12xs_fail(E_INVALIDARG, method, "pExtendedDescs[%u] is a second COMPUTE_SHADER_LIMITS extension (at most one)", i);
        if (FAILED(hr = check_shader_limits(method, i, &extensions[i].ComputeShaderLimits)))
            return hr;
        limits = &extensions[i].ComputeShaderLimits;
    }
    return d3d12_pipeline_state_create(device, desc, limits, method, riid, out);
}
