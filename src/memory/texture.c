/* Texture resources: the VkImage behind a TEXTURE1D/2D/3D ID3D12Resource (texture.h). */
#include <string.h>

#include "memory/texture.h"
#include "memory/texture_layout.h"
#include "sync/barrier_tracker.h"
#include "sync/scheduler.h"

/* D3D12's placement alignments: 64 KiB, 4 MiB for multisampled textures. */
#define MSAA_PLACEMENT_ALIGNMENT D3D12_DEFAULT_MSAA_RESOURCE_PLACEMENT_ALIGNMENT

static const char *dimension_name(D3D12_RESOURCE_DIMENSION dimension)
{
    switch (dimension) {
    case D3D12_RESOURCE_DIMENSION_TEXTURE1D: return "TEXTURE1D";
    case D3D12_RESOURCE_DIMENSION_TEXTURE2D: return "TEXTURE2D";
    case D3D12_RESOURCE_DIMENSION_TEXTURE3D: return "TEXTURE3D";
    default: return "BUFFER";
    }
}

static bool is_render_target_or_depth(const D3D12_RESOURCE_DESC *desc)
{
    return !!(desc->Flags & (D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET | D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL));
}

/* Bytes of the most detailed mip of one array layer (all its depth slices), in D3D12's
 * footprint terms: what D3D12's small-resource rule measures. */
static uint64_t most_detailed_mip_bytes(const D3D12_RESOURCE_DESC *desc)
{
    uint32_t width, height, depth;
    UINT64 row_size = 0;
    UINT rows = 0;
    if (!d3d12xs_texture_footprints("GetResourceAllocationInfo", desc, 0, 1, 0, NULL, &rows, &row_size, NULL))
        return UINT64_MAX;
    d3d12xs_texture_mip_extent(desc, 0, &width, &height, &depth);
    return (uint64_t)rows * row_size * depth;
}

/* A texture asking for a small placement (4 KiB; 64 KiB when multisampled) gets it when its
 * most detailed mip fits in 64 KiB (4 MiB when multisampled), as D3D12 defines. */
static bool asks_small_placement(const D3D12_RESOURCE_DESC *desc)
{
    return desc->SampleDesc.Count > 1 ? desc->Alignment == D3D12_SMALL_MSAA_RESOURCE_PLACEMENT_ALIGNMENT
            : desc->Alignment == D3D12_SMALL_RESOURCE_PLACEMENT_ALIGNMENT;
}

static uint64_t small_placement_limit(const D3D12_RESOURCE_DESC *desc)
{
    return desc->SampleDesc.Count > 1 ? 4u << 20 : 64u << 10;
}

static uint64_t placement_alignment(const D3D12_RESOURCE_DESC *desc)
{
    if (asks_small_placement(desc) && most_detailed_mip_bytes(desc) <= small_placement_limit(desc))
        return desc->Alignment;
    return desc->SampleDesc.Count > 1 ? MSAA_PLACEMENT_ALIGNMENT : D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT;
}

/* The small placement asked of a texture too large for it: D3D12 refuses (E_INVALIDARG; a
 * UINT64_MAX size from GetResourceAllocationInfo). */
static HRESULT check_small_placement(const D3D12_RESOURCE_DESC *desc, const char *method)
{
    uint64_t bytes;
    if (!asks_small_placement(desc) || (bytes = most_detailed_mip_bytes(desc)) <= small_placement_limit(desc))
        return S_OK;
    return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Alignment is %llu but the most detailed mip holds %llu bytes (at most %llu "
            "for that placement: use 0 or %u)", (unsigned long long)desc->Alignment, (unsigned long long)bytes,
            (unsigned long long)small_placement_limit(desc), desc->SampleDesc.Count > 1 ? MSAA_PLACEMENT_ALIGNMENT
            : D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT);
}

HRESULT d3d12xs_texture_check_creation(struct d3d12_device *device, const char *method, const D3D12_RESOURCE_DESC *desc,
        D3D12_HEAP_TYPE heap_type, D3D12_HEAP_FLAGS heap_flags, const D3D12_CLEAR_VALUE *clear_value)
{
    HRESULT hr;

    (void)device;
    if (FAILED(hr = d3d12xs_validate_texture_desc(method, desc)) || FAILED(hr = check_small_placement(desc, method)))
        return hr;
    /* Texture support of these formats is optional in D3D12; Vulkan copies their texels only at
     * 12-byte-aligned buffer offsets, which 256-byte-pitched footprints do not keep. */
    if (d3d12xs_format(desc->Format)->block_bytes == 12)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Format %d has 12-byte texels, which d3d12xs does not make textures of "
                "(CheckFeatureSupport D3D12_FEATURE_FORMAT_SUPPORT reports no texture support for it)", (int)desc->Format);
    if (heap_type == D3D12_HEAP_TYPE_UPLOAD || heap_type == D3D12_HEAP_TYPE_READBACK)
        return d3d12xs_fail(E_INVALIDARG, method, "a %s cannot be in %s heaps (textures are uploaded and read back through buffers and CopyTextureRegion)",
                dimension_name(desc->Dimension), heap_type == D3D12_HEAP_TYPE_UPLOAD ? "UPLOAD" : "READBACK");
    if (heap_flags & D3D12_HEAP_FLAG_DENY_RT_DS_TEXTURES && is_render_target_or_depth(desc))
        return d3d12xs_fail(E_INVALIDARG, method, "HeapFlags deny render-target and depth-stencil textures, and pDesc->Flags 0x%x make one", desc->Flags);
    if (heap_flags & D3D12_HEAP_FLAG_DENY_NON_RT_DS_TEXTURES && !is_render_target_or_depth(desc))
        return d3d12xs_fail(E_INVALIDARG, method, "HeapFlags deny textures that are not render targets or depth-stencil, and pDesc->Flags 0x%x make one",
                desc->Flags);
    if (heap_flags & (D3D12_HEAP_FLAG_SHARED | D3D12_HEAP_FLAG_SHARED_CROSS_ADAPTER))
        return d3d12xs_fail(E_INVALIDARG, method, "HeapFlags 0x%x ask for sharing, which d3d12xs does not implement", heap_flags);
    if (clear_value && !is_render_target_or_depth(desc))
        return d3d12xs_fail(E_INVALIDARG, method, "pOptimizedClearValue is given for a texture without ALLOW_RENDER_TARGET or ALLOW_DEPTH_STENCIL (must be NULL)");
    return S_OK;
}

/* The depth format a typeless family is made with when the texture is a depth-stencil target. */
static VkFormat image_format(const D3D12_RESOURCE_DESC *desc, const struct d3d12xs_format *format)
{
    if (desc->Flags & D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL) {
        if (format->dxgi == DXGI_FORMAT_R32_TYPELESS)
            return VK_FORMAT_D32_SFLOAT;
        if (format->dxgi == DXGI_FORMAT_R16_TYPELESS)
            return VK_FORMAT_D16_UNORM;
    }
    return format->vk;
}

/* The queue families that use images: textures are CONCURRENT among them, as D3D12 lets any
 * queue touch a resource without ownership transfers. */
static uint32_t image_families(struct d3d12_device *device, uint32_t families[5])
{
    static const D3D12_COMMAND_LIST_TYPE types[] = {D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_LIST_TYPE_COMPUTE, D3D12_COMMAND_LIST_TYPE_COPY};
    uint32_t count = 0, candidates[4];

    for (size_t i = 0; i < D3D12XS_ARRAY_SIZE(types); i++)
        candidates[i] = device->queue_map[types[i]].family;
    candidates[3] = d3d12_scheduler_internal_family(device);
    for (size_t i = 0; i < D3D12XS_ARRAY_SIZE(candidates); i++) {
        bool seen = false;
        for (uint32_t k = 0; k < count; k++)
            seen |= families[k] == candidates[i];
        if (!seen)
            families[count++] = candidates[i];
    }
    return count;
}

struct image_desc {
    VkImageCreateInfo info; /* its pNext may point at format_list: the struct stays where it is filled */
    uint32_t families[5];
    VkImageFormatListCreateInfo format_list;
    VkFormat view_formats[8];
};

static void image_create_info(struct d3d12_device *device, const D3D12_RESOURCE_DESC *desc, const struct d3d12xs_format *format,
        struct image_desc *image)
{
    VkImageCreateInfo *info = &image->info;
    uint32_t family_count = image_families(device, image->families);

    memset(info, 0, sizeof(*info));
    info->sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
    info->imageType = desc->Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE1D ? VK_IMAGE_TYPE_1D
            : desc->Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE2D ? VK_IMAGE_TYPE_2D : VK_IMAGE_TYPE_3D;
    info->format = image_format(desc, format);
    info->extent.width = (uint32_t)desc->Width;
    info->extent.height = desc->Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE1D ? 1 : desc->Height;
    info->extent.depth = desc->Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE3D ? desc->DepthOrArraySize : 1;
    info->mipLevels = d3d12xs_texture_mip_levels(desc);
    info->arrayLayers = d3d12xs_texture_array_size(desc);
    info->samples = (VkSampleCountFlagBits)desc->SampleDesc.Count;
    info->tiling = VK_IMAGE_TILING_OPTIMAL;
    info->usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    if (!(desc->Flags & D3D12_RESOURCE_FLAG_DENY_SHADER_RESOURCE))
        info->usage |= VK_IMAGE_USAGE_SAMPLED_BIT;
    if (desc->Flags & D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS)
        info->usage |= VK_IMAGE_USAGE_STORAGE_BIT;
    if (desc->Flags & D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET)
        info->usage |= VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    if (desc->Flags & D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL)
        info->usage |= VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
    /* Typeless resources are viewed through any member of their family; the usage may then be
     * one only some members support (storage of R8G8B8A8_TYPELESS, which its sRGB member lacks).
     * A colour family's images list those members (the only views texture_descriptor.c makes),
     * so a driver that keeps images compressed need not give that up for every format of the
     * size; a depth image (R32_TYPELESS made D32) is only ever viewed as its depth format. */
    if (format->typeless_format) {
        info->flags |= VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
        if (format->block_compressed)
            info->flags |= VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT;
        else
            info->flags |= VK_IMAGE_CREATE_EXTENDED_USAGE_BIT;
        if (format->aspects == VK_IMAGE_ASPECT_COLOR_BIT && info->format == format->vk) {
            image->format_list = (VkImageFormatListCreateInfo){.sType = VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO,
                    .viewFormatCount = d3d12xs_format_family_views(format->dxgi, image->view_formats,
                            D3D12XS_ARRAY_SIZE(image->view_formats)),
                    .pViewFormats = image->view_formats};
            if (image->format_list.viewFormatCount)
                info->pNext = &image->format_list;
        }
    }
    /* Depth may be rendered with SetSamplePositions' positions (docs/graphics.md, "Sample positions"). */
    if ((info->usage & VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT) && device->graphics.sample_positions_tier
            && (device->graphics.sample_location_counts & info->samples))
        info->flags |= VK_IMAGE_CREATE_SAMPLE_LOCATIONS_COMPATIBLE_DEPTH_BIT_EXT;
    /* D3D12 may view any square 2D array of six or more layers as a cube. */
    if (info->imageType == VK_IMAGE_TYPE_2D && info->arrayLayers >= 6 && info->extent.width == info->extent.height
            && info->samples == VK_SAMPLE_COUNT_1_BIT)
        info->flags |= VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
    if (family_count > 1) {
        info->sharingMode = VK_SHARING_MODE_CONCURRENT;
        info->queueFamilyIndexCount = family_count;
        info->pQueueFamilyIndices = image->families;
    } else {
        info->sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    }
    info->initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
}

/* Whether the device can make this image: the format with this usage, and the sizes. */
static HRESULT check_image_support(struct d3d12_device *device, const D3D12_RESOURCE_DESC *desc, const VkImageCreateInfo *info,
        const char *method)
{
    VkImageFormatProperties properties;
    VkResult vr;

    if (info->format == VK_FORMAT_UNDEFINED)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Format %d has no Vulkan format d3d12xs can make textures of", (int)desc->Format);
    /* A8 stored as R8 has no UAVs (dxgi_format.h), so no UAV flag, as FORMAT_SUPPORT says */
    if ((desc->Flags & D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS) && d3d12xs_format(desc->Format)
            && d3d12xs_format(desc->Format)->alpha_in_red)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Format A8_UNORM with ALLOW_UNORDERED_ACCESS: this device has no A8 UAVs (A8 is "
                "stored as R8_UNORM without VK_KHR_maintenance5's A8 format; CheckFeatureSupport D3D12_FEATURE_FORMAT_SUPPORT says so)");
    vr = vkGetPhysicalDeviceImageFormatProperties(device->vk_physical_device, info->format, info->imageType, info->tiling, info->usage,
            info->flags, &properties);
    if (vr == VK_ERROR_FORMAT_NOT_SUPPORTED)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Format %d (VkFormat %d) with Flags 0x%x cannot be a %s on this device "
                "(CheckFeatureSupport D3D12_FEATURE_FORMAT_SUPPORT says what it can be)", (int)desc->Format, (int)info->format, desc->Flags,
                dimension_name(desc->Dimension));
    if (vr != VK_SUCCESS)
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "vkGetPhysicalDeviceImageFormatProperties failed (VkResult %d)", vr);
    if (info->extent.width > properties.maxExtent.width || info->extent.height > properties.maxExtent.height
            || info->extent.depth > properties.maxExtent.depth)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc's %ux%ux%u texels pass this device's %ux%ux%u for format %d", info->extent.width,
                info->extent.height, info->extent.depth, properties.maxExtent.width, properties.maxExtent.height,
                properties.maxExtent.depth, (int)desc->Format);
    if (info->arrayLayers > properties.maxArrayLayers)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->DepthOrArraySize %u passes this device's %u layers for format %d",
                info->arrayLayers, properties.maxArrayLayers, (int)desc->Format);
    if (!(properties.sampleCounts & info->samples))
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->SampleDesc.Count %u is not a sample count this device has for format %d "
                "(CheckFeatureSupport D3D12_FEATURE_MULTISAMPLE_QUALITY_LEVELS lists them)", desc->SampleDesc.Count, (int)desc->Format);
    return S_OK;
}

static VkImageAspectFlags format_aspects(VkFormat format)
{
    switch (format) {
    case VK_FORMAT_D16_UNORM: case VK_FORMAT_X8_D24_UNORM_PACK32: case VK_FORMAT_D32_SFLOAT:
        return VK_IMAGE_ASPECT_DEPTH_BIT;
    case VK_FORMAT_S8_UINT:
        return VK_IMAGE_ASPECT_STENCIL_BIT;
    case VK_FORMAT_D16_UNORM_S8_UINT: case VK_FORMAT_D24_UNORM_S8_UINT: case VK_FORMAT_D32_SFLOAT_S8_UINT:
        return VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
    default:
        return VK_IMAGE_ASPECT_COLOR_BIT;
    }
}

HRESULT d3d12xs_texture_create_image(struct d3d12_device *device, struct d3d12_resource *resource, const char *method)
{
    const D3D12_RESOURCE_DESC *desc = &resource->desc;
    const struct d3d12xs_format *format = d3d12xs_format(desc->Format);
    struct image_desc image;
    VkResult vr;
    HRESULT hr;

    image_create_info(device, desc, format, &image);
    if (FAILED(hr = check_image_support(device, desc, &image.info, method)))
        return hr;
    if ((vr = vkCreateImage(device->vk_device, &image.info, NULL, &resource->vk_image)) != VK_SUCCESS) {
        resource->vk_image = VK_NULL_HANDLE;
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "vkCreateImage of a %ux%ux%u %s failed (VkResult %d)",
                image.info.extent.width, image.info.extent.height, image.info.extent.depth, dimension_name(desc->Dimension), vr);
    }
    resource->format = format;
    resource->vk_format = image.info.format;
    resource->aspects = format_aspects(image.info.format);
    resource->mip_levels = image.info.mipLevels;
    resource->layers = image.info.arrayLayers;
    resource->planes = format->plane_count ? format->plane_count : 1;
    return S_OK;
}

HRESULT d3d12xs_texture_bind_committed(struct d3d12_device *device, struct d3d12_resource *resource,
        const D3D12_HEAP_PROPERTIES *properties, const char *method)
{
    VkMemoryDedicatedRequirements dedicated_requirements = {.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS};
    VkMemoryRequirements2 requirements = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2, .pNext = &dedicated_requirements};
    VkImageMemoryRequirementsInfo2 requirements_info = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_REQUIREMENTS_INFO_2,
            .image = resource->vk_image};
    VkMemoryDedicatedAllocateInfo dedicated = {.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO};
    uint32_t flags = 0;
    int memory_type;
    VkResult vr;
    HRESULT hr;

    vkGetImageMemoryRequirements2(device->vk_device, &requirements_info, &requirements);
    if ((memory_type = d3d12xs_find_memory_type(device, requirements.memoryRequirements.memoryTypeBits, properties)) < 0)
        return d3d12xs_fail(E_INVALIDARG, method, "no Vulkan memory type for this texture matches these heap properties");
    /* Images the driver would rather have alone get it: unlike buffers, there are few of them,
     * and a dedicated image may be compressed or laid out better. */
    if (dedicated_requirements.requiresDedicatedAllocation || dedicated_requirements.prefersDedicatedAllocation) {
        flags |= D3D12XS_ALLOCATE_DEDICATED;
        dedicated.image = resource->vk_image;
    }
    if (FAILED(hr = d3d12xs_allocate_memory(device, &requirements.memoryRequirements, placement_alignment(&resource->desc),
            (uint32_t)memory_type, D3D12XS_ALLOCATION_OPTIMAL, flags, dedicated.image ? &dedicated : NULL, &resource->memory, method)))
        return hr;
    if ((vr = vkBindImageMemory(device->vk_device, resource->vk_image, resource->memory.memory, resource->memory.offset)) != VK_SUCCESS)
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "vkBindImageMemory at offset %llu failed (VkResult %d)",
                (unsigned long long)resource->memory.offset, vr);
    return S_OK;
}

HRESULT d3d12xs_texture_bind_placed(struct d3d12_device *device, struct d3d12_resource *resource, struct d3d12_heap *heap,
        uint64_t heap_offset, const char *method)
{
    const uint64_t alignment = placement_alignment(&resource->desc);
    VkMemoryRequirements requirements;
    VkResult vr;

    if (heap->imported)
        return d3d12xs_fail(E_INVALIDARG, method, "pHeap was opened from an address (OpenExistingHeapFromAddress): such heaps hold buffers only");
    if (heap_offset % alignment)
        return d3d12xs_fail(E_INVALIDARG, method, "HeapOffset %llu is not a multiple of %llu (this texture's placement alignment)",
                (unsigned long long)heap_offset, (unsigned long long)alignment);
    vkGetImageMemoryRequirements(device->vk_device, resource->vk_image, &requirements);
    if (heap_offset > heap->desc.SizeInBytes || requirements.size > heap->desc.SizeInBytes - heap_offset)
        return d3d12xs_fail(E_INVALIDARG, method, "HeapOffset %llu + the texture's %llu bytes (GetResourceAllocationInfo) pass the end of the %llu-byte heap",
                (unsigned long long)heap_offset, (unsigned long long)requirements.size, (unsigned long long)heap->desc.SizeInBytes);
    /* Drivers may keep optimally tiled images out of CPU-visible memory (NVIDIA does, of its
     * cached types): a committed texture of the same heap properties still works there. */
    if (!(requirements.memoryTypeBits & (1u << heap->memory.memory_type)))
        return d3d12xs_fail(E_INVALIDARG, method, "the heap's Vulkan memory type %u cannot hold this texture on this device%s",
                heap->memory.memory_type, heap->mapped ? " (a CPU-visible heap: create the texture committed, or place it in a heap "
                "without CPU pages)" : "");
    /* The heap's memory starts at a multiple of its D3D12 alignment, so an aligned HeapOffset
     * is as aligned in the VkDeviceMemory; a driver asking more is told here. */
    if ((heap->memory.offset + heap_offset) % requirements.alignment)
        return d3d12xs_fail(E_INVALIDARG, method, "HeapOffset %llu does not meet the device's %llu-byte alignment for this texture",
                (unsigned long long)heap_offset, (unsigned long long)requirements.alignment);
    if ((vr = vkBindImageMemory(device->vk_device, resource->vk_image, heap->memory.memory, heap->memory.offset + heap_offset)) != VK_SUCCESS)
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "vkBindImageMemory failed (VkResult %d)", vr);
    return S_OK;
}

/* ---- the first layout, and zero ---- */

bool d3d12xs_texture_internal_engine_copies_depth(struct d3d12_device *device)
{
    uint32_t family = d3d12_scheduler_internal_family(device), count = 0;
    VkQueueFamilyProperties properties[16];

    vkGetPhysicalDeviceQueueFamilyProperties(device->vk_physical_device, &count, NULL);
    if (count > D3D12XS_ARRAY_SIZE(properties))
        count = D3D12XS_ARRAY_SIZE(properties);
    vkGetPhysicalDeviceQueueFamilyProperties(device->vk_physical_device, &count, properties);
    return family < count && (properties[family].queueFlags & VK_QUEUE_GRAPHICS_BIT);
}

static void record_initialize(struct d3d12_device *device, struct d3d12_resource *resource, bool zero, VkCommandBuffer command_buffer)
{
    VkImageSubresourceRange range = {resource->aspects, 0, VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS};
    /* Compressed images cannot be cleared by Vulkan: fresh memory reads as zero blocks there. */
    bool clear = zero && !resource->format->block_compressed
            && (range.aspectMask == VK_IMAGE_ASPECT_COLOR_BIT || d3d12xs_texture_internal_engine_copies_depth(device));
    struct d3d12_barrier_tracker barriers;

    /* The first users are the clear, or any later work of any queue: ALL_COMMANDS, so that the
     * next list's first barrier (from ALL_COMMANDS) orders its commands after the move, where the
     * queues share this engine's VkQueue. */
    d3d12_barriers_reset(&barriers, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
    d3d12_barriers_first_layout(&barriers, command_buffer, resource->vk_image, &range,
            clear ? VK_PIPELINE_STAGE_2_CLEAR_BIT : VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
    if (!clear)
        return;
    d3d12_barriers_before(&barriers, command_buffer, VK_PIPELINE_STAGE_2_CLEAR_BIT);
    if (range.aspectMask == VK_IMAGE_ASPECT_COLOR_BIT) {
        VkClearColorValue color;
        memset(&color, 0, sizeof(color));
        vkCmdClearColorImage(command_buffer, resource->vk_image, VK_IMAGE_LAYOUT_GENERAL, &color, 1, &range);
    } else {
        VkClearDepthStencilValue depth = {0.0f, 0};
        vkCmdClearDepthStencilImage(command_buffer, resource->vk_image, VK_IMAGE_LAYOUT_GENERAL, &depth, 1, &range);
    }
    /* The zeros reach whatever uses the image next, on any queue (as the move above). */
    d3d12_barriers_emit(&barriers, command_buffer, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
            VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
}

struct image_init {
    struct d3d12_device *device;
    struct d3d12_resource *resource;
    bool zero;
};

static void record_image_init(VkCommandBuffer command_buffer, void *context)
{
    struct image_init *init = context;
    record_initialize(init->device, init->resource, init->zero, command_buffer);
}

HRESULT d3d12xs_texture_initialize(struct d3d12_device *device, struct d3d12_resource *resource, bool zero, const char *method)
{
    struct image_init init = {device, resource, zero};
    /* Every queue's next submission waits for the internal engine's: no list can touch the
     * image before it is in its layout. */
    return d3d12_scheduler_record_internal(device, record_image_init, &init, "the texture's initialisation", method);
}

void d3d12xs_texture_destroy(struct d3d12_device *device, struct d3d12_resource *resource)
{
    d3d12xs_texture_destroy_views(device, resource);
    /* The image first: memory goes only once nothing is bound to it. */
    vkDestroyImage(device->vk_device, resource->vk_image, NULL);
    resource->vk_image = VK_NULL_HANDLE;
    d3d12xs_free_memory(device, &resource->memory);
}

HRESULT d3d12xs_texture_allocation_info(struct d3d12_device *device, const D3D12_RESOURCE_DESC *desc, uint64_t *size,
        uint64_t *alignment, const char *method)
{
    VkMemoryRequirements2 requirements = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
    VkDeviceImageMemoryRequirements requirements_info = {.sType = VK_STRUCTURE_TYPE_DEVICE_IMAGE_MEMORY_REQUIREMENTS};
    struct image_desc image;
    uint64_t d3d12_alignment;
    HRESULT hr;

    if (FAILED(hr = d3d12xs_validate_texture_desc(method, desc)) || FAILED(hr = check_small_placement(desc, method)))
        return hr;
    image_create_info(device, desc, d3d12xs_format(desc->Format), &image);
    if (FAILED(hr = check_image_support(device, desc, &image.info, method)))
        return hr;
    requirements_info.pCreateInfo = &image.info;
    vkGetDeviceImageMemoryRequirements(device->vk_device, &requirements_info, &requirements);
    d3d12_alignment = placement_alignment(desc);
    /* A driver asking more than D3D12's alignment gets it (placed textures check it too). */
    while (d3d12_alignment < requirements.memoryRequirements.alignment)
        d3d12_alignment *= 2;
    *alignment = d3d12_alignment;
    *size = (requirements.memoryRequirements.size + d3d12_alignment - 1) & ~(d3d12_alignment - 1);
    return S_OK;
}

void d3d12xs_texture_subresource_span(const struct d3d12_resource *resource, const VkImageSubresourceRange *range, uint32_t *first,
        uint32_t *count)
{
    uint32_t mips = resource->mip_levels, layers = resource->layers;
    uint32_t level_count = range->levelCount == VK_REMAINING_MIP_LEVELS ? mips - range->baseMipLevel : range->levelCount;
    uint32_t layer_count = range->layerCount == VK_REMAINING_ARRAY_LAYERS ? layers - range->baseArrayLayer : range->layerCount;
    /* Depth-stencil images: stencil is plane 1, after all of depth's subresources. */
    uint32_t first_plane = resource->aspects != VK_IMAGE_ASPECT_COLOR_BIT && !(range->aspectMask & VK_IMAGE_ASPECT_DEPTH_BIT) ? 1 : 0;
    uint32_t last_plane = resource->planes > 1 && (range->aspectMask & VK_IMAGE_ASPECT_STENCIL_BIT) ? 1 : first_plane;
    uint32_t plane_size = mips * layers;

    *first = first_plane * plane_size + range->baseArrayLayer * mips + range->baseMipLevel;
    *count = last_plane * plane_size + (range->baseArrayLayer + layer_count - 1) * mips + range->baseMipLevel + level_count - *first;
}

VkImageSubresourceLayers d3d12xs_texture_subresource_layers(const struct d3d12_resource *resource, uint32_t index)
{
    VkImageSubresourceLayers layers = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    uint32_t mip, layer, plane;
    VkImageAspectFlagBits aspect;
    uint32_t bytes;
    DXGI_FORMAT plane_format;

    d3d12xs_texture_subresource(&resource->desc, index, &mip, &layer, &plane);
    /* A colour typeless family made a depth image (R32_TYPELESS with ALLOW_DEPTH_STENCIL) has
     * one plane, its depth. */
    if (resource->aspects == VK_IMAGE_ASPECT_COLOR_BIT || !d3d12xs_format_plane(resource->format, plane, &aspect, &bytes, &plane_format)
            || aspect == VK_IMAGE_ASPECT_COLOR_BIT)
        layers.aspectMask = resource->aspects == VK_IMAGE_ASPECT_COLOR_BIT ? VK_IMAGE_ASPECT_COLOR_BIT : VK_IMAGE_ASPECT_DEPTH_BIT;
    else
        layers.aspectMask = aspect;
    layers.mipLevel = mip;
    layers.baseArrayLayer = layer;
    return layers;
}
