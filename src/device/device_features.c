/* ID3D12Device::CheckFeatureSupport: answers describe what d3d12xs implements on this
 * Vulkan device, not what the hardware could do. */
#include <string.h>

#include "device/device.h"

#define METHOD "ID3D12Device::CheckFeatureSupport"

static HRESULT check_size(const char *feature, UINT size, size_t expected)
{
    if (size != expected)
        return d3d12xs_fail(E_INVALIDARG, METHOD, "FeatureSupportDataSize is %u for %s (must be sizeof the struct, %zu)", size, feature, expected);
    return S_OK;
}

#define CHECK_SIZE(feature, type) do { HRESULT hr_ = check_size(feature, size, sizeof(type)); if (FAILED(hr_)) return hr_; } while (0)

static bool is_uma(const struct d3d12_device *device)
{
    return device->vk_properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU
            || device->vk_properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU;
}

HRESULT d3d12_device_check_feature_support(struct d3d12_device *device, D3D12_FEATURE feature, void *data, UINT size)
{
    VkPhysicalDeviceFeatures vk_features;

    if (!data)
        return d3d12xs_fail(E_INVALIDARG, METHOD, "pFeatureSupportData is NULL (must point to the feature's struct)");
    vkGetPhysicalDeviceFeatures(device->vk_physical_device, &vk_features);

    switch (feature) {
    case D3D12_FEATURE_D3D12_OPTIONS: {
        D3D12_FEATURE_DATA_D3D12_OPTIONS *options = data;
        CHECK_SIZE("D3D12_FEATURE_D3D12_OPTIONS", *options);
        memset(options, 0, sizeof(*options));
        options->DoublePrecisionFloatShaderOps = vk_features.shaderFloat64;
        options->MinPrecisionSupport = D3D12_SHADER_MIN_PRECISION_SUPPORT_NONE;
        options->TiledResourcesTier = D3D12_TILED_RESOURCES_TIER_NOT_SUPPORTED;
        /* Tables index heaps in GPU memory with no per-shader limit, unbounded arrays of every
         * view kind, unpopulated slots allowed: tier 3, where heaps reach D3D12's 1,000,000
         * descriptors (lavapipe lets a stage see fewer: tier 2, docs/descriptors.md). */
        options->ResourceBindingTier = device->shader_visible_heap_capacity >= 1000000 ? D3D12_RESOURCE_BINDING_TIER_3
                : D3D12_RESOURCE_BINDING_TIER_2;
        options->ConservativeRasterizationTier = D3D12_CONSERVATIVE_RASTERIZATION_TIER_NOT_SUPPORTED;
        options->MaxGPUVirtualAddressBitsPerResource = 40;
        options->CrossNodeSharingTier = D3D12_CROSS_NODE_SHARING_TIER_NOT_SUPPORTED;
        options->ResourceHeapTier = D3D12_RESOURCE_HEAP_TIER_1;
        return S_OK;
    }
    case D3D12_FEATURE_ARCHITECTURE: {
        D3D12_FEATURE_DATA_ARCHITECTURE *architecture = data;
        CHECK_SIZE("D3D12_FEATURE_ARCHITECTURE", *architecture);
        if (architecture->NodeIndex)
            return d3d12xs_fail(E_INVALIDARG, METHOD, "NodeIndex is %u (single-node device: must be 0)", architecture->NodeIndex);
        architecture->TileBasedRenderer = FALSE;
        architecture->UMA = is_uma(device);
        architecture->CacheCoherentUMA = device->vk_properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
        return S_OK;
    }
    case D3D12_FEATURE_ARCHITECTURE1: {
        D3D12_FEATURE_DATA_ARCHITECTURE1 *architecture = data;
        CHECK_SIZE("D3D12_FEATURE_ARCHITECTURE1", *architecture);
        if (architecture->NodeIndex)
            return d3d12xs_fail(E_INVALIDARG, METHOD, "NodeIndex is %u (single-node device: must be 0)", architecture->NodeIndex);
        architecture->TileBasedRenderer = FALSE;
        architecture->UMA = is_uma(device);
        architecture->CacheCoherentUMA = device->vk_properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
        architecture->IsolatedMMU = TRUE;
        return S_OK;
    }
    case D3D12_FEATURE_FEATURE_LEVELS: {
        D3D12_FEATURE_DATA_FEATURE_LEVELS *levels = data;
        CHECK_SIZE("D3D12_FEATURE_FEATURE_LEVELS", *levels);
        if (!levels->NumFeatureLevels || !levels->pFeatureLevelsRequested)
            return d3d12xs_fail(E_INVALIDARG, METHOD, "FEATURE_LEVELS needs NumFeatureLevels > 0 and pFeatureLevelsRequested");
        levels->MaxSupportedFeatureLevel = (D3D_FEATURE_LEVEL)0;
        for (UINT i = 0; i < levels->NumFeatureLevels; i++)
            if (levels->pFeatureLevelsRequested[i] <= D3D_FEATURE_LEVEL_12_1 && levels->pFeatureLevelsRequested[i] > levels->MaxSupportedFeatureLevel)
                levels->MaxSupportedFeatureLevel = levels->pFeatureLevelsRequested[i];
        return S_OK;
    }
    case D3D12_FEATURE_GPU_VIRTUAL_ADDRESS_SUPPORT: {
        D3D12_FEATURE_DATA_GPU_VIRTUAL_ADDRESS_SUPPORT *va = data;
        CHECK_SIZE("D3D12_FEATURE_GPU_VIRTUAL_ADDRESS_SUPPORT", *va);
        va->MaxGPUVirtualAddressBitsPerResource = 40;
        va->MaxGPUVirtualAddressBitsPerProcess = 47;
        return S_OK;
    }
    case D3D12_FEATURE_SHADER_MODEL: {
        D3D12_FEATURE_DATA_SHADER_MODEL *model = data;
        CHECK_SIZE("D3D12_FEATURE_SHADER_MODEL", *model);
        if (model->HighestShaderModel < D3D_SHADER_MODEL_5_1)
            return d3d12xs_fail(E_INVALIDARG, METHOD, "HighestShaderModel 0x%x is not a D3D_SHADER_MODEL", model->HighestShaderModel);
        if (model->HighestShaderModel > D3D_SHADER_MODEL_6_0)
            model->HighestShaderModel = D3D_SHADER_MODEL_6_0;
        return S_OK;
    }
    case D3D12_FEATURE_ROOT_SIGNATURE: {
        D3D12_FEATURE_DATA_ROOT_SIGNATURE *root = data;
        CHECK_SIZE("D3D12_FEATURE_ROOT_SIGNATURE", *root);
        if (root->HighestVersion < D3D_ROOT_SIGNATURE_VERSION_1_0)
            return d3d12xs_fail(E_INVALIDARG, METHOD, "HighestVersion 0x%x is not a D3D_ROOT_SIGNATURE_VERSION", root->HighestVersion);
        if (root->HighestVersion > D3D_ROOT_SIGNATURE_VERSION_1_1)
            root->HighestVersion = D3D_ROOT_SIGNATURE_VERSION_1_1;
        return S_OK;
    }
    case D3D12_FEATURE_D3D12_OPTIONS1: {
        D3D12_FEATURE_DATA_D3D12_OPTIONS1 *options = data;
        CHECK_SIZE("D3D12_FEATURE_D3D12_OPTIONS1", *options);
        memset(options, 0, sizeof(*options));
        options->WaveOps = TRUE;
        options->WaveLaneCountMin = device->subgroup_size;
        options->WaveLaneCountMax = device->subgroup_size;
        options->TotalLaneCount = device->subgroup_size;
        options->ExpandedComputeResourceStates = TRUE;
        options->Int64ShaderOps = vk_features.shaderInt64;
        return S_OK;
    }
    case D3D12_FEATURE_D3D12_OPTIONS2: {
        D3D12_FEATURE_DATA_D3D12_OPTIONS2 *options = data;
        CHECK_SIZE("D3D12_FEATURE_D3D12_OPTIONS2", *options);
        options->DepthBoundsTestSupported = FALSE;
        options->ProgrammableSamplePositionsTier = D3D12_PROGRAMMABLE_SAMPLE_POSITIONS_TIER_NOT_SUPPORTED;
        return S_OK;
    }
    case D3D12_FEATURE_D3D12_OPTIONS3: {
        D3D12_FEATURE_DATA_D3D12_OPTIONS3 *options = data;
        CHECK_SIZE("D3D12_FEATURE_D3D12_OPTIONS3", *options);
        memset(options, 0, sizeof(*options));
        options->CopyQueueTimestampQueriesSupported = device->queue_map[D3D12_COMMAND_LIST_TYPE_COPY].timestamps;
        options->WriteBufferImmediateSupportFlags = D3D12_COMMAND_LIST_SUPPORT_FLAG_DIRECT | D3D12_COMMAND_LIST_SUPPORT_FLAG_COMPUTE
                | D3D12_COMMAND_LIST_SUPPORT_FLAG_COPY;
        options->ViewInstancingTier = D3D12_VIEW_INSTANCING_TIER_NOT_SUPPORTED;
        return S_OK;
    }
    case D3D12_FEATURE_COMMAND_QUEUE_PRIORITY: {
        D3D12_FEATURE_DATA_COMMAND_QUEUE_PRIORITY *priority = data;
        CHECK_SIZE("D3D12_FEATURE_COMMAND_QUEUE_PRIORITY", *priority);
        /* Priorities are accepted and ignored: every VkQueue runs at one priority. */
        priority->PriorityForTypeIsSupported = (priority->CommandListType == D3D12_COMMAND_LIST_TYPE_DIRECT
                || priority->CommandListType == D3D12_COMMAND_LIST_TYPE_COMPUTE || priority->CommandListType == D3D12_COMMAND_LIST_TYPE_COPY)
                && (priority->Priority == D3D12_COMMAND_QUEUE_PRIORITY_NORMAL || priority->Priority == D3D12_COMMAND_QUEUE_PRIORITY_HIGH);
        return S_OK;
    }
    case D3D12_FEATURE_SHADER_CACHE: {
        D3D12_FEATURE_DATA_SHADER_CACHE *cache = data;
        CHECK_SIZE("D3D12_FEATURE_SHADER_CACHE", *cache);
        cache->SupportFlags = D3D12_SHADER_CACHE_SUPPORT_NONE;
        return S_OK;
    }
    case D3D12_FEATURE_FORMAT_SUPPORT: {
        D3D12_FEATURE_DATA_FORMAT_SUPPORT *format = data;
        CHECK_SIZE("D3D12_FEATURE_FORMAT_SUPPORT", *format);
        /* Only buffers exist so far: structured/raw buffers use DXGI_FORMAT_UNKNOWN. */
        format->Support1 = format->Format == DXGI_FORMAT_UNKNOWN ? D3D12_FORMAT_SUPPORT1_BUFFER : D3D12_FORMAT_SUPPORT1_NONE;
        format->Support2 = D3D12_FORMAT_SUPPORT2_NONE;
        return S_OK;
    }
    default:
        /* E_INVALIDARG is what D3D12 answers for features it does not know, so probes work. */
        return d3d12xs_fail(E_INVALIDARG, METHOD, "Feature %d is not one d3d12xs answers yet", (int)feature);
    }
}
