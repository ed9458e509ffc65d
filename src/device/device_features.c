/* ID3D12Device::CheckFeatureSupport: answers describe what d3d12xs implements on this
 * Vulkan device, not what the hardware could do. */
#include <string.h>

#include "device/device.h"
#include "device/dxgi_format.h"

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

/* What buffers of a format can do here: raw and structured buffers (DXGI_FORMAT_UNKNOWN)
 * everything; typed formats what the device's texel-buffer features allow. */
static void buffer_format_support(struct d3d12_device *device, D3D12_FEATURE_DATA_FORMAT_SUPPORT *format)
{
    VkFormatProperties properties;
    VkFormat vk_format;

    format->Support1 = D3D12_FORMAT_SUPPORT1_NONE;
    format->Support2 = D3D12_FORMAT_SUPPORT2_NONE;
    if (format->Format == DXGI_FORMAT_UNKNOWN) {
        format->Support1 = D3D12_FORMAT_SUPPORT1_BUFFER;
        return;
    }
    if ((vk_format = d3d12xs_vk_format_from_dxgi(format->Format, NULL)) == VK_FORMAT_UNDEFINED)
        return;
    vkGetPhysicalDeviceFormatProperties(device->vk_physical_device, vk_format, &properties);
    if (properties.bufferFeatures & VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT)
        format->Support1 |= D3D12_FORMAT_SUPPORT1_BUFFER | D3D12_FORMAT_SUPPORT1_SHADER_LOAD;
    if (properties.bufferFeatures & VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT) {
        format->Support1 |= D3D12_FORMAT_SUPPORT1_BUFFER | D3D12_FORMAT_SUPPORT1_TYPED_UNORDERED_ACCESS_VIEW;
        /* shaderStorageImageReadWithoutFormat / WriteWithoutFormat are enabled where offered */
        format->Support2 |= D3D12_FORMAT_SUPPORT2_UAV_TYPED_STORE | D3D12_FORMAT_SUPPORT2_UAV_TYPED_LOAD;
    }
    if (properties.bufferFeatures & VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_ATOMIC_BIT)
        format->Support2 |= D3D12_FORMAT_SUPPORT2_UAV_ATOMIC_ADD | D3D12_FORMAT_SUPPORT2_UAV_ATOMIC_BITWISE_OPS
                | D3D12_FORMAT_SUPPORT2_UAV_ATOMIC_COMPARE_STORE_OR_COMPARE_EXCHANGE | D3D12_FORMAT_SUPPORT2_UAV_ATOMIC_EXCHANGE
                | D3D12_FORMAT_SUPPORT2_UAV_ATOMIC_SIGNED_MIN_OR_MAX | D3D12_FORMAT_SUPPORT2_UAV_ATOMIC_UNSIGNED_MIN_OR_MAX;
}

/* The depth format whose SRVs a colour format is (R32_FLOAT reads D32_FLOAT...): what
 * comparison sampling of that format needs from the device. UNDEFINED for the others. */
static VkFormat depth_read_format(DXGI_FORMAT format)
{
    switch (format) {
    case DXGI_FORMAT_R32_FLOAT: return VK_FORMAT_D32_SFLOAT;
    case DXGI_FORMAT_R16_UNORM: return VK_FORMAT_D16_UNORM;
    case DXGI_FORMAT_R24_UNORM_X8_TYPELESS: return VK_FORMAT_D24_UNORM_S8_UINT;
    case DXGI_FORMAT_R32_FLOAT_X8X24_TYPELESS: return VK_FORMAT_D32_SFLOAT_S8_UINT;
    default: return VK_FORMAT_UNDEFINED;
    }
}

/* Whether 2D images of the format with this usage may have more than one sample. */
static bool multisampled(struct d3d12_device *device, VkFormat format, VkImageUsageFlags usage)
{
    VkImageFormatProperties properties;
    return vkGetPhysicalDeviceImageFormatProperties(device->vk_physical_device, format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
            usage, 0, &properties) == VK_SUCCESS && (properties.sampleCounts & ~VK_SAMPLE_COUNT_1_BIT);
}

/* What textures of a format can do here: the dimensions and mip chains of resources d3d12xs
 * makes and copies (memory/texture.c), and what views of them do (descriptors/texture_descriptor.c),
 * each as the device's format features say: loads, gathers and (filtered) samples of SRVs,
 * comparisons where the format reads a depth texture the device compares, typed UAV loads,
 * stores and atomics, render targets and depth buffers (which views and clears exist for),
 * multisampled ones, and casts within a typeless family. Not claimed: blending and resolves,
 * which come with graphics. */
static void texture_format_support(struct d3d12_device *device, D3D12_FEATURE_DATA_FORMAT_SUPPORT *format)
{
    const VkFormatFeatureFlags copyable = VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
    const struct d3d12xs_format *info = d3d12xs_format(format->Format);
    bool depth = info && (info->aspects & (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT));
    VkFormatProperties properties, compared;
    VkFormatFeatureFlags features;
    VkFormat depth_read;

    if (!info || info->vk == VK_FORMAT_UNDEFINED || info->planar || info->block_bytes == 12)
        return;
    vkGetPhysicalDeviceFormatProperties(device->vk_physical_device, info->vk, &properties);
    features = properties.optimalTilingFeatures;
    /* A8 stored as R8 cannot be a storage view (dxgi_format.h): no typed UAVs or atomics */
    if (info->alpha_in_red)
        features &= ~(VkFormatFeatureFlags)(VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT | VK_FORMAT_FEATURE_STORAGE_IMAGE_ATOMIC_BIT);
    if ((features & copyable) != copyable)
        return;
    format->Support1 |= D3D12_FORMAT_SUPPORT1_TEXTURE2D | D3D12_FORMAT_SUPPORT1_TEXTURECUBE | D3D12_FORMAT_SUPPORT1_MIP;
    if (!info->block_compressed)
        format->Support1 |= D3D12_FORMAT_SUPPORT1_TEXTURE1D;
    if (!depth)
        format->Support1 |= D3D12_FORMAT_SUPPORT1_TEXTURE3D;
    if (info->typeless != DXGI_FORMAT_UNKNOWN && !info->typeless_format)
        format->Support1 |= D3D12_FORMAT_SUPPORT1_CAST_WITHIN_BIT_LAYOUT;
    if (info->typeless_format)
        return; /* typeless formats make resources; only their typed members make views */
    if (depth) {
        /* a depth format is a depth buffer; shaders read it through its colour family member */
        if (features & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT) {
            format->Support1 |= D3D12_FORMAT_SUPPORT1_DEPTH_STENCIL;
            if (multisampled(device, info->vk, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT))
                format->Support1 |= D3D12_FORMAT_SUPPORT1_MULTISAMPLE_RENDERTARGET;
        }
        return;
    }
    if (features & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT) {
        format->Support1 |= D3D12_FORMAT_SUPPORT1_SHADER_LOAD | D3D12_FORMAT_SUPPORT1_SHADER_GATHER;
        if (features & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT)
            format->Support1 |= D3D12_FORMAT_SUPPORT1_SHADER_SAMPLE;
        if ((depth_read = depth_read_format(format->Format)) != VK_FORMAT_UNDEFINED) {
            vkGetPhysicalDeviceFormatProperties(device->vk_physical_device, depth_read, &compared);
            if (compared.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT)
                format->Support1 |= D3D12_FORMAT_SUPPORT1_SHADER_SAMPLE_COMPARISON | D3D12_FORMAT_SUPPORT1_SHADER_GATHER_COMPARISON;
        }
    }
    if (features & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT) {
        /* shaderStorageImageReadWithoutFormat / WriteWithoutFormat are enabled where offered */
        format->Support1 |= D3D12_FORMAT_SUPPORT1_TYPED_UNORDERED_ACCESS_VIEW;
        format->Support2 |= D3D12_FORMAT_SUPPORT2_UAV_TYPED_LOAD | D3D12_FORMAT_SUPPORT2_UAV_TYPED_STORE;
    }
    if (features & VK_FORMAT_FEATURE_STORAGE_IMAGE_ATOMIC_BIT)
        format->Support2 |= D3D12_FORMAT_SUPPORT2_UAV_ATOMIC_ADD | D3D12_FORMAT_SUPPORT2_UAV_ATOMIC_BITWISE_OPS
                | D3D12_FORMAT_SUPPORT2_UAV_ATOMIC_COMPARE_STORE_OR_COMPARE_EXCHANGE | D3D12_FORMAT_SUPPORT2_UAV_ATOMIC_EXCHANGE
                | D3D12_FORMAT_SUPPORT2_UAV_ATOMIC_SIGNED_MIN_OR_MAX | D3D12_FORMAT_SUPPORT2_UAV_ATOMIC_UNSIGNED_MIN_OR_MAX;
    if (features & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT) {
        format->Support1 |= D3D12_FORMAT_SUPPORT1_RENDER_TARGET;
        if (multisampled(device, info->vk, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT)) {
            format->Support1 |= D3D12_FORMAT_SUPPORT1_MULTISAMPLE_RENDERTARGET;
            if (features & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT)
                format->Support1 |= D3D12_FORMAT_SUPPORT1_MULTISAMPLE_LOAD;
        }
    }
}

/* One quality level where the device makes 2D textures of the format with that many samples
 * (render targets or depth buffers, as D3D12 requires of multisampled textures), else none. */
static UINT multisample_quality_levels(struct d3d12_device *device, const D3D12_FEATURE_DATA_MULTISAMPLE_QUALITY_LEVELS *levels)
{
    const struct d3d12xs_format *info = d3d12xs_format(levels->Format);
    VkImageFormatProperties properties;
    VkImageUsageFlags usage;

    if (levels->SampleCount == 1)
        return 1;
    if (!info || info->vk == VK_FORMAT_UNDEFINED || info->planar || info->block_compressed || levels->SampleCount > 64
            || (levels->SampleCount & (levels->SampleCount - 1)) || (levels->Flags & D3D12_MULTISAMPLE_QUALITY_LEVELS_FLAG_TILED_RESOURCE))
        return 0;
    usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT
            | (info->aspects & (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT) ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT
            : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
    if (vkGetPhysicalDeviceImageFormatProperties(device->vk_physical_device, info->vk, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL, usage,
            info->typeless_format ? VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT : 0, &properties) != VK_SUCCESS)
        return 0;
    return (properties.sampleCounts & levels->SampleCount) ? 1 : 0;
}

/* The planes of a format (depth-stencil formats have two), 0 for one d3d12xs does not know. */
static UINT8 plane_count(DXGI_FORMAT format)
{
    switch (format) {
    case DXGI_FORMAT_D24_UNORM_S8_UINT: case DXGI_FORMAT_R24G8_TYPELESS: case DXGI_FORMAT_R24_UNORM_X8_TYPELESS:
    case DXGI_FORMAT_X24_TYPELESS_G8_UINT: case DXGI_FORMAT_D32_FLOAT_S8X24_UINT: case DXGI_FORMAT_R32G8X24_TYPELESS:
    case DXGI_FORMAT_R32_FLOAT_X8X24_TYPELESS: case DXGI_FORMAT_X32_TYPELESS_G8X24_UINT:
        return 2;
    case DXGI_FORMAT_NV12: case DXGI_FORMAT_P010: case DXGI_FORMAT_P016: case DXGI_FORMAT_NV11:
        return 2;
    case DXGI_FORMAT_UNKNOWN:
        return 1; /* buffers */
    default:
        return format > DXGI_FORMAT_UNKNOWN && format <= DXGI_FORMAT_B4G4R4A4_UNORM ? 1 : 0;
    }
}

/* Features of the later Agility SDKs and the smaller ones: what d3d12xs has of each (most are
 * graphics, texture, raytracing or mesh features it lacks, answered as not supported, which is
 * how a D3D12 program finds out it must not use them). */
static HRESULT check_newer_feature(struct d3d12_device *device, D3D12_FEATURE feature, void *data, UINT size)
{
    switch (feature) {
    case D3D12_FEATURE_FORMAT_INFO: {
        D3D12_FEATURE_DATA_FORMAT_INFO *info = data;
        CHECK_SIZE("D3D12_FEATURE_FORMAT_INFO", *info);
        if (!(info->PlaneCount = plane_count(info->Format)))
            return d3d12xs_fail(E_INVALIDARG, METHOD, "FORMAT_INFO: Format %d is not a DXGI_FORMAT", (int)info->Format);
        return S_OK;
    }
    case D3D12_FEATURE_MULTISAMPLE_QUALITY_LEVELS: {
        D3D12_FEATURE_DATA_MULTISAMPLE_QUALITY_LEVELS *levels = data;
        CHECK_SIZE("D3D12_FEATURE_MULTISAMPLE_QUALITY_LEVELS", *levels);
        levels->NumQualityLevels = multisample_quality_levels(device, levels);
        return S_OK;
    }
    case D3D12_FEATURE_PROTECTED_RESOURCE_SESSION_SUPPORT: {
        D3D12_FEATURE_DATA_PROTECTED_RESOURCE_SESSION_SUPPORT *session = data;
        CHECK_SIZE("D3D12_FEATURE_PROTECTED_RESOURCE_SESSION_SUPPORT", *session);
        if (session->NodeIndex)
            return d3d12xs_fail(E_INVALIDARG, METHOD, "NodeIndex is %u (single-node device: must be 0)", session->NodeIndex);
        session->Support = D3D12_PROTECTED_RESOURCE_SESSION_SUPPORT_FLAG_NONE;
        return S_OK;
    }
    case D3D12_FEATURE_EXISTING_HEAPS: {
        D3D12_FEATURE_DATA_EXISTING_HEAPS *heaps = data;
        CHECK_SIZE("D3D12_FEATURE_EXISTING_HEAPS", *heaps);
        /* OpenExistingHeapFromAddress imports the application's pages */
        heaps->Supported = device->vkGetMemoryHostPointerPropertiesEXT != NULL;
        return S_OK;
    }
    case D3D12_FEATURE_SERIALIZATION: {
        D3D12_FEATURE_DATA_SERIALIZATION *serialization = data;
        CHECK_SIZE("D3D12_FEATURE_SERIALIZATION", *serialization);
        if (serialization->NodeIndex)
            return d3d12xs_fail(E_INVALIDARG, METHOD, "NodeIndex is %u (single-node device: must be 0)", serialization->NodeIndex);
        serialization->HeapSerializationTier = D3D12_HEAP_SERIALIZATION_TIER_0;
        return S_OK;
    }
    case D3D12_FEATURE_CROSS_NODE: {
        D3D12_FEATURE_DATA_CROSS_NODE *cross = data;
        CHECK_SIZE("D3D12_FEATURE_CROSS_NODE", *cross);
        cross->SharingTier = D3D12_CROSS_NODE_SHARING_TIER_NOT_SUPPORTED;
        cross->AtomicShaderInstructions = FALSE;
        return S_OK;
    }
    case D3D12_FEATURE_DISPLAYABLE: {
        D3D12_FEATURE_DATA_DISPLAYABLE *displayable = data;
        CHECK_SIZE("D3D12_FEATURE_DISPLAYABLE", *displayable);
        displayable->DisplayableTexture = FALSE;
        displayable->SharedResourceCompatibilityTier = D3D12_SHARED_RESOURCE_COMPATIBILITY_TIER_0;
        return S_OK;
    }
    case D3D12_FEATURE_PROTECTED_RESOURCE_SESSION_TYPE_COUNT: {
        D3D12_FEATURE_DATA_PROTECTED_RESOURCE_SESSION_TYPE_COUNT *count = data;
        CHECK_SIZE("D3D12_FEATURE_PROTECTED_RESOURCE_SESSION_TYPE_COUNT", *count);
        if (count->NodeIndex)
            return d3d12xs_fail(E_INVALIDARG, METHOD, "NodeIndex is %u (single-node device: must be 0)", count->NodeIndex);
        count->Count = 0;
        return S_OK;
    }
    case D3D12_FEATURE_PROTECTED_RESOURCE_SESSION_TYPES: {
        D3D12_FEATURE_DATA_PROTECTED_RESOURCE_SESSION_TYPES *types = data;
        CHECK_SIZE("D3D12_FEATURE_PROTECTED_RESOURCE_SESSION_TYPES", *types);
        if (types->NodeIndex || types->Count)
            return d3d12xs_fail(E_INVALIDARG, METHOD, "PROTECTED_RESOURCE_SESSION_TYPES: NodeIndex %u, Count %u (there are 0 session types "
                    "on the only node)", types->NodeIndex, types->Count);
        return S_OK;
    }
    case D3D12_FEATURE_PLACED_RESOURCE_SUPPORT_INFO: {
        D3D12_FEATURE_DATA_PLACED_RESOURCE_SUPPORT_INFO *placed = data;
        CHECK_SIZE("D3D12_FEATURE_PLACED_RESOURCE_SUPPORT_INFO", *placed);
        /* Placed buffers exist; placed textures come with textures. */
        placed->Supported = placed->Dimension == D3D12_RESOURCE_DIMENSION_BUFFER && placed->Format == DXGI_FORMAT_UNKNOWN;
        return S_OK;
    }
    case D3D12_FEATURE_HARDWARE_COPY: {
        D3D12_FEATURE_DATA_HARDWARE_COPY *copy = data;
        CHECK_SIZE("D3D12_FEATURE_HARDWARE_COPY", *copy);
        copy->Supported = FALSE; /* no copy-engine-only paths are promised (docs/sync.md: COPY queues) */
        return S_OK;
    }
    case D3D12_FEATURE_QUERY_META_COMMAND:
        /* What Windows answers for a command it does not know: there are no meta commands here. */
        return d3d12xs_fail(E_INVALIDARG, METHOD, "QUERY_META_COMMAND: no meta commands exist here (EnumerateMetaCommands reports 0)");
    case D3D12_FEATURE_PREDICATION: {
        D3D12_FEATURE_DATA_PREDICATION *predication = data;
        CHECK_SIZE("D3D12_FEATURE_PREDICATION", *predication);
        predication->Supported = FALSE;
        return S_OK;
    }
#define NOT_SUPPORTED(name, type) \
    case D3D12_FEATURE_##name: \
        CHECK_SIZE("D3D12_FEATURE_" #name, type); \
        memset(data, 0, sizeof(type)); \
        return S_OK;
    /* All zero: every BOOL false and every tier NOT_SUPPORTED (or TIER_0). */
    NOT_SUPPORTED(D3D12_OPTIONS4, D3D12_FEATURE_DATA_D3D12_OPTIONS4)
    NOT_SUPPORTED(D3D12_OPTIONS5, D3D12_FEATURE_DATA_D3D12_OPTIONS5)
    NOT_SUPPORTED(D3D12_OPTIONS6, D3D12_FEATURE_DATA_D3D12_OPTIONS6)
    NOT_SUPPORTED(D3D12_OPTIONS7, D3D12_FEATURE_DATA_D3D12_OPTIONS7)
    NOT_SUPPORTED(D3D12_OPTIONS8, D3D12_FEATURE_DATA_D3D12_OPTIONS8)
    NOT_SUPPORTED(D3D12_OPTIONS9, D3D12_FEATURE_DATA_D3D12_OPTIONS9) /* 64-bit atomics there need SM 6.6; d3d12xs has 6.0 */
    NOT_SUPPORTED(D3D12_OPTIONS10, D3D12_FEATURE_DATA_D3D12_OPTIONS10)
    NOT_SUPPORTED(D3D12_OPTIONS11, D3D12_FEATURE_DATA_D3D12_OPTIONS11)
    NOT_SUPPORTED(D3D12_OPTIONS13, D3D12_FEATURE_DATA_D3D12_OPTIONS13)
    NOT_SUPPORTED(D3D12_OPTIONS14, D3D12_FEATURE_DATA_D3D12_OPTIONS14)
    NOT_SUPPORTED(D3D12_OPTIONS17, D3D12_FEATURE_DATA_D3D12_OPTIONS17)
    NOT_SUPPORTED(D3D12_OPTIONS18, D3D12_FEATURE_DATA_D3D12_OPTIONS18)
    NOT_SUPPORTED(D3D12_OPTIONS20, D3D12_FEATURE_DATA_D3D12_OPTIONS20)
#undef NOT_SUPPORTED
    case D3D12_FEATURE_D3D12_OPTIONS12: {
        D3D12_FEATURE_DATA_D3D12_OPTIONS12 *options = data;
        CHECK_SIZE("D3D12_FEATURE_D3D12_OPTIONS12", *options);
        options->MSPrimitivesPipelineStatisticIncludesCulledPrimitives = D3D12_TRI_STATE_UNKNOWN; /* no mesh shaders */
        options->EnhancedBarriersSupported = FALSE;
        options->RelaxedFormatCastingSupported = FALSE;
        return S_OK;
    }
    case D3D12_FEATURE_D3D12_OPTIONS15: {
        D3D12_FEATURE_DATA_D3D12_OPTIONS15 *options = data;
        CHECK_SIZE("D3D12_FEATURE_D3D12_OPTIONS15", *options);
        memset(options, 0, sizeof(*options));
        options->DynamicIndexBufferStripCutSupported = TRUE; /* IASetIndexBufferStripCutValue: primitive restart is dynamic state */
        return S_OK;
    }
    case D3D12_FEATURE_D3D12_OPTIONS16: {
        D3D12_FEATURE_DATA_D3D12_OPTIONS16 *options = data;
        CHECK_SIZE("D3D12_FEATURE_D3D12_OPTIONS16", *options);
        memset(options, 0, sizeof(*options));
        options->DynamicDepthBiasSupported = TRUE; /* RSSetDepthBias: Vulkan's depth bias is core dynamic state */
        return S_OK;
    }
    case D3D12_FEATURE_D3D12_OPTIONS19: {
        D3D12_FEATURE_DATA_D3D12_OPTIONS19 *options = data;
        CHECK_SIZE("D3D12_FEATURE_D3D12_OPTIONS19", *options);
        memset(options, 0, sizeof(*options));
        options->MaxSamplerDescriptorHeapSize = D3D12_MAX_SHADER_VISIBLE_SAMPLER_HEAP_SIZE;
        options->MaxSamplerDescriptorHeapSizeWithStaticSamplers = D3D12_MAX_SHADER_VISIBLE_SAMPLER_HEAP_SIZE;
        /* what CreateDescriptorHeap takes on every device; shaders may address fewer (docs/descriptors.md) */
        options->MaxViewDescriptorHeapSize = D3D12_MAX_SHADER_VISIBLE_DESCRIPTOR_HEAP_SIZE_TIER_2;
        return S_OK;
    }
    case D3D12_FEATURE_D3D12_OPTIONS21: {
        D3D12_FEATURE_DATA_D3D12_OPTIONS21 *options = data;
        CHECK_SIZE("D3D12_FEATURE_D3D12_OPTIONS21", *options);
        memset(options, 0, sizeof(*options));
        options->WorkGraphsTier = D3D12_WORK_GRAPHS_TIER_NOT_SUPPORTED;
        /* ExecuteIndirect runs signatures that draw or dispatch with INCREMENTING_CONSTANTs (1.1's
         * addition) everywhere; vertex and index buffers, root constants and root CBV/SRV/UAV
         * arguments (1.0's) through generated commands, with the address translation that needs
         * (commands/command_list_generated.c: made where the device has generated commands,
         * shaderInt64 and the VA table's device address), or without them through the own path's
         * images, whose views are translated the same way and whose vertex buffers the vertex
         * shaders fetch (shaderDrawParameters: commands/command_list_indirect_image.c). There every
         * argument type runs: 1.1. Elsewhere 1.0, as the enum has no "none" (docs/indirect.md). */
        options->ExecuteIndirectTier = device->indirect_translate || (device->indirect_vertex_views && device->graphics.draw_parameters)
                ? D3D12_EXECUTE_INDIRECT_TIER_1_1 : D3D12_EXECUTE_INDIRECT_TIER_1_0;
        return S_OK;
    }
    default:
        /* E_INVALIDARG is what D3D12 answers for features it does not know, so probes work. */
        return d3d12xs_fail(E_INVALIDARG, METHOD, "Feature %d is not one d3d12xs answers yet", (int)feature);
    }
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
        /* What graphics pipelines can ask for here (device->graphics, device/vk_graphics_features.c). */
        options->OutputMergerLogicOp = device->graphics.logic_op;
        options->PSSpecifiedStencilRefSupported = device->graphics.stencil_export;
        options->VPAndRTArrayIndexFromAnyShaderFeedingRasterizerSupportedWithoutGSEmulation = device->graphics.output_layer
                && device->graphics.output_viewport_index;
        options->MinPrecisionSupport = D3D12_SHADER_MIN_PRECISION_SUPPORT_NONE;
        options->TiledResourcesTier = D3D12_TILED_RESOURCES_TIER_NOT_SUPPORTED;
        /* Tables index heaps in GPU memory with no per-shader limit, unbounded arrays of every
         * view kind, unpopulated slots allowed: tier 3, where shaders can address all of D3D12's
         * 1,000,000 descriptors of a heap (lavapipe lets a stage see fewer: tier 2, with heaps of
         * 1,000,000 all the same, docs/descriptors.md). */
        options->ResourceBindingTier = device->shader_visible_heap_capacity >= 1000000 ? D3D12_RESOURCE_BINDING_TIER_3
                : D3D12_RESOURCE_BINDING_TIER_2;
        options->ConservativeRasterizationTier = (D3D12_CONSERVATIVE_RASTERIZATION_TIER)device->graphics.conservative_tier;
        options->MaxGPUVirtualAddressBitsPerResource = 40;
        options->CrossNodeSharingTier = D3D12_CROSS_NODE_SHARING_TIER_NOT_SUPPORTED;
        /* A heap holds buffers and textures together where Vulkan's granularity between linear
         * and optimal resources is within D3D12's 64 KiB placement alignment. */
        options->ResourceHeapTier = device->vk_properties.limits.bufferImageGranularity <= D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT
                ? D3D12_RESOURCE_HEAP_TIER_2 : D3D12_RESOURCE_HEAP_TIER_1;
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
        /* A version the runtime does not know is refused, which is how applications (d3dx12's
         * CD3DX12FeatureSupport) find the highest one: they ask again one version lower. */
        if (root->HighestVersion < D3D_ROOT_SIGNATURE_VERSION_1_0 || root->HighestVersion > D3D_ROOT_SIGNATURE_VERSION_1_2)
            return d3d12xs_fail(E_INVALIDARG, METHOD, "HighestVersion 0x%x is not a D3D_ROOT_SIGNATURE_VERSION (1_0, 1_1 or 1_2)",
                    root->HighestVersion);
        /* Every version is supported (1.2: static samplers with flags), so the answer is the
         * version asked for: the lower of what the application and the device know, as on Windows. */
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
        options->DepthBoundsTestSupported = device->graphics.depth_bounds;
        options->ProgrammableSamplePositionsTier = (D3D12_PROGRAMMABLE_SAMPLE_POSITIONS_TIER)device->graphics.sample_positions_tier;
        return S_OK;
    }
    case D3D12_FEATURE_D3D12_OPTIONS3: {
        D3D12_FEATURE_DATA_D3D12_OPTIONS3 *options = data;
        CHECK_SIZE("D3D12_FEATURE_D3D12_OPTIONS3", *options);
        memset(options, 0, sizeof(*options));
        options->CopyQueueTimestampQueriesSupported = device->queue_map[D3D12_COMMAND_LIST_TYPE_COPY].timestamps;
        options->WriteBufferImmediateSupportFlags = D3D12_COMMAND_LIST_SUPPORT_FLAG_DIRECT | D3D12_COMMAND_LIST_SUPPORT_FLAG_COMPUTE
                | D3D12_COMMAND_LIST_SUPPORT_FLAG_COPY;
        /* Tier 1 (draw-call looping at worst): the tiers differ only in how much work the views
         * share, which multiview leaves to the driver (docs/graphics.md, "View instancing"). */
        options->ViewInstancingTier = device->graphics.multiview ? D3D12_VIEW_INSTANCING_TIER_1 : D3D12_VIEW_INSTANCING_TIER_NOT_SUPPORTED;
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
        /* cached blobs and pipeline libraries (pipelines/pipeline_blob.c, pipeline_library.c) */
        cache->SupportFlags = D3D12_SHADER_CACHE_SUPPORT_SINGLE_PSO | D3D12_SHADER_CACHE_SUPPORT_LIBRARY;
        return S_OK;
    }
    case D3D12_FEATURE_FORMAT_SUPPORT: {
        D3D12_FEATURE_DATA_FORMAT_SUPPORT *format = data;
        CHECK_SIZE("D3D12_FEATURE_FORMAT_SUPPORT", *format);
        buffer_format_support(device, format);
        texture_format_support(device, format);
        return S_OK;
    }
    default:
        return check_newer_feature(device, feature, data, size);
    }
}
