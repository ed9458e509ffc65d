/* D3D12 sampler descriptions as Vulkan samplers: CreateSampler, CreateSampler2 and static
 * samplers all come here, as a D3D12_SAMPLER_DESC2. Samplers are immutable Vulkan objects, so
 * the device keeps one per distinct description (the cache below), shared by every descriptor and
 * root signature that describes it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "descriptors/descriptors.h"
#include "descriptors/sampler_flags.h"

static VkSamplerAddressMode vk_address_mode(D3D12_TEXTURE_ADDRESS_MODE mode)
{
    switch (mode) {
    case D3D12_TEXTURE_ADDRESS_MODE_WRAP: return VK_SAMPLER_ADDRESS_MODE_REPEAT;
    case D3D12_TEXTURE_ADDRESS_MODE_MIRROR: return VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
    case D3D12_TEXTURE_ADDRESS_MODE_CLAMP: return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    case D3D12_TEXTURE_ADDRESS_MODE_BORDER: return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
    case D3D12_TEXTURE_ADDRESS_MODE_MIRROR_ONCE: return VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE;
    default: return VK_SAMPLER_ADDRESS_MODE_MAX_ENUM;
    }
}

void d3d12xs_sampler_desc2_from_desc(const D3D12_SAMPLER_DESC *desc, D3D12_SAMPLER_DESC2 *desc2)
{
    memset(desc2, 0, sizeof(*desc2));
    desc2->Filter = desc->Filter;
    desc2->AddressU = desc->AddressU;
    desc2->AddressV = desc->AddressV;
    desc2->AddressW = desc->AddressW;
    desc2->MipLODBias = desc->MipLODBias;
    desc2->MaxAnisotropy = desc->MaxAnisotropy;
    desc2->ComparisonFunc = desc->ComparisonFunc;
    memcpy(desc2->FloatBorderColor, desc->BorderColor, sizeof(desc2->FloatBorderColor));
    desc2->MinLOD = desc->MinLOD;
    desc2->MaxLOD = desc->MaxLOD;
    desc2->Flags = D3D12_SAMPLER_FLAG_NONE;
}

void d3d12xs_sampler_desc2_from_static(const D3D12_STATIC_SAMPLER_DESC1 *desc, D3D12_SAMPLER_DESC2 *desc2)
{
    static const float float_colors[3][4] = {{0, 0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1, 1}};
    static const UINT uint_colors[2][4] = {{0, 0, 0, 1}, {1, 1, 1, 1}};

    memset(desc2, 0, sizeof(*desc2));
    desc2->Filter = desc->Filter;
    desc2->AddressU = desc->AddressU;
    desc2->AddressV = desc->AddressV;
    desc2->AddressW = desc->AddressW;
    desc2->MipLODBias = desc->MipLODBias;
    desc2->MaxAnisotropy = desc->MaxAnisotropy;
    desc2->ComparisonFunc = desc->ComparisonFunc;
    desc2->MinLOD = desc->MinLOD;
    desc2->MaxLOD = desc->MaxLOD;
    desc2->Flags = desc->Flags;
    /* A UINT colour is an integer border whatever the flags say (the flag only repeats it, in 1.2;
     * 1.0 and 1.1 have no flags and still name UINT colours). */
    if (desc->BorderColor == D3D12_STATIC_BORDER_COLOR_OPAQUE_BLACK_UINT || desc->BorderColor == D3D12_STATIC_BORDER_COLOR_OPAQUE_WHITE_UINT) {
        memcpy(desc2->UintBorderColor, uint_colors[desc->BorderColor - D3D12_STATIC_BORDER_COLOR_OPAQUE_BLACK_UINT], sizeof(desc2->UintBorderColor));
        desc2->Flags |= D3D12_SAMPLER_FLAG_UINT_BORDER_COLOR;
    } else {
        memcpy(desc2->FloatBorderColor, float_colors[desc->BorderColor <= D3D12_STATIC_BORDER_COLOR_OPAQUE_WHITE ? desc->BorderColor : 0],
                sizeof(desc2->FloatBorderColor));
    }
}

/* Vulkan's three fixed border colours where the colour is one of them; others are custom colours
 * where the device has them (VK_EXT_custom_border_color without a format), else rounded to the
 * nearest fixed one. Integer colours (UINT_BORDER_COLOR) take Vulkan's INT colours, which
 * integer textures read as integers. Chains a custom colour into info. */
static void choose_border_color(const struct d3d12_device *device, const D3D12_SAMPLER_DESC2 *desc, VkSamplerCreateInfo *info,
        VkSamplerCustomBorderColorCreateInfoEXT *custom)
{
    bool uses_border = desc->AddressU == D3D12_TEXTURE_ADDRESS_MODE_BORDER || desc->AddressV == D3D12_TEXTURE_ADDRESS_MODE_BORDER
            || desc->AddressW == D3D12_TEXTURE_ADDRESS_MODE_BORDER;
    bool fixed;

    if (desc->Flags & D3D12_SAMPLER_FLAG_UINT_BORDER_COLOR) {
        const UINT *c = desc->UintBorderColor;
        bool transparent_black = !c[0] && !c[1] && !c[2] && !c[3], opaque_black = !c[0] && !c[1] && !c[2] && c[3] == 1;
        bool opaque_white = c[0] == 1 && c[1] == 1 && c[2] == 1 && c[3] == 1;
        info->borderColor = !c[3] ? VK_BORDER_COLOR_INT_TRANSPARENT_BLACK : !c[0] ? VK_BORDER_COLOR_INT_OPAQUE_BLACK : VK_BORDER_COLOR_INT_OPAQUE_WHITE;
        fixed = transparent_black || opaque_black || opaque_white;
        memcpy(custom->customBorderColor.uint32, c, sizeof(custom->customBorderColor.uint32));
    } else {
        const float *c = desc->FloatBorderColor;
        bool transparent_black = !c[0] && !c[1] && !c[2] && !c[3], opaque_black = !c[0] && !c[1] && !c[2] && c[3] == 1.0f;
        bool opaque_white = c[0] == 1.0f && c[1] == 1.0f && c[2] == 1.0f && c[3] == 1.0f;
        info->borderColor = c[3] < 0.5f ? VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK
                : c[0] < 0.5f ? VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK : VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
        fixed = transparent_black || opaque_black || opaque_white;
        memcpy(custom->customBorderColor.float32, c, sizeof(custom->customBorderColor.float32));
    }
    if (uses_border && !fixed && device->has_custom_border_color) {
        custom->pNext = info->pNext;
        info->pNext = custom;
        info->borderColor = (desc->Flags & D3D12_SAMPLER_FLAG_UINT_BORDER_COLOR) ? VK_BORDER_COLOR_INT_CUSTOM_EXT : VK_BORDER_COLOR_FLOAT_CUSTOM_EXT;
    }
}

struct sampler_entry {
    D3D12_SAMPLER_DESC2 desc;
    VkSampler sampler;
};

struct d3d12xs_sampler_cache {
    pthread_mutex_t lock;
    struct sampler_entry *entries;
    size_t count, capacity;
};

VkSampler d3d12xs_device_get_sampler(struct d3d12_device *device, const D3D12_SAMPLER_DESC2 *desc, const char *method)
{
    struct d3d12xs_sampler_cache *cache = device->samplers;
    VkSamplerCreateInfo info = {.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    VkSampler sampler = VK_NULL_HANDLE;
    unsigned filter = desc->Filter;
    unsigned reduction = (filter >> 7) & 3;
    const char *problem;

    VkSamplerReductionModeCreateInfo reduction_info = {.sType = VK_STRUCTURE_TYPE_SAMPLER_REDUCTION_MODE_CREATE_INFO};
    VkSamplerCustomBorderColorCreateInfoEXT border_info = {.sType = VK_STRUCTURE_TYPE_SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT,
            .format = VK_FORMAT_UNDEFINED};

    /* D3D12_FILTER packs (reduction << 7) | anisotropic 0x40 | (min << 4) | (mag << 2) | mip. */
    if (filter & ~0x1d5u || (filter & 0x40 && (filter & 0x14) != 0x14)) {
        d3d12xs_fail(E_INVALIDARG, method, "pDesc->Filter 0x%x is not a D3D12_FILTER", filter);
        return VK_NULL_HANDLE;
    }
    info.magFilter = (filter & 0x04) ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
    info.minFilter = (filter & 0x10) ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
    info.mipmapMode = (filter & 0x01) ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST;
    info.addressModeU = vk_address_mode(desc->AddressU);
    info.addressModeV = vk_address_mode(desc->AddressV);
    info.addressModeW = vk_address_mode(desc->AddressW);
    if (info.addressModeU == VK_SAMPLER_ADDRESS_MODE_MAX_ENUM || info.addressModeV == VK_SAMPLER_ADDRESS_MODE_MAX_ENUM
            || info.addressModeW == VK_SAMPLER_ADDRESS_MODE_MAX_ENUM) {
        d3d12xs_fail(E_INVALIDARG, method, "pDesc->AddressU/V/W must be WRAP, MIRROR, CLAMP, BORDER or MIRROR_ONCE");
        return VK_NULL_HANDLE;
    }
    info.mipLodBias = desc->MipLODBias;
    if (filter & 0x40) {
        if (desc->MaxAnisotropy < 1 || desc->MaxAnisotropy > 16) {
            d3d12xs_fail(E_INVALIDARG, method, "pDesc->MaxAnisotropy is %u (anisotropic filters need 1..16)", desc->MaxAnisotropy);
            return VK_NULL_HANDLE;
        }
        info.anisotropyEnable = VK_TRUE;
        info.maxAnisotropy = fminf((float)desc->MaxAnisotropy, device->vk_properties.limits.maxSamplerAnisotropy);
    }
    if (reduction == 1) {
        if (desc->ComparisonFunc < D3D12_COMPARISON_FUNC_NEVER || desc->ComparisonFunc > D3D12_COMPARISON_FUNC_ALWAYS) {
            d3d12xs_fail(E_INVALIDARG, method, "pDesc->ComparisonFunc is %d (a comparison filter needs NEVER..ALWAYS)", (int)desc->ComparisonFunc);
            return VK_NULL_HANDLE;
        }
        info.compareEnable = VK_TRUE;
        info.compareOp = (VkCompareOp)(desc->ComparisonFunc - 1);
    }
    if (reduction >= 2) {
        reduction_info.reductionMode = reduction == 2 ? VK_SAMPLER_REDUCTION_MODE_MIN : VK_SAMPLER_REDUCTION_MODE_MAX;
        info.pNext = &reduction_info;
    }
    info.minLod = desc->MinLOD;
    info.maxLod = desc->MaxLOD;
    if (!(info.minLod <= info.maxLod)) {
        d3d12xs_fail(E_INVALIDARG, method, "pDesc->MinLOD %g is above MaxLOD %g", desc->MinLOD, desc->MaxLOD);
        return VK_NULL_HANDLE;
    }
    /* D3D12's rules for the flags are Vulkan's for unnormalizedCoordinates: what passes is valid. */
    if ((problem = d3d12xs_sampler_flags_problem(desc->Flags, desc->Filter, desc->AddressU, desc->AddressV, desc->MinLOD, desc->MaxLOD))) {
        d3d12xs_fail(E_INVALIDARG, method, "pDesc->Flags is 0x%x: %s", (unsigned)desc->Flags, problem);
        return VK_NULL_HANDLE;
    }
    info.unnormalizedCoordinates = (desc->Flags & D3D12_SAMPLER_FLAG_NON_NORMALIZED_COORDINATES) ? VK_TRUE : VK_FALSE;
    choose_border_color(device, desc, &info, &border_info);

    pthread_mutex_lock(&cache->lock);
    for (size_t i = 0; i < cache->count; i++) {
        if (!memcmp(&cache->entries[i].desc, desc, sizeof(*desc))) {
            sampler = cache->entries[i].sampler;
            break;
        }
    }
    if (!sampler && d3d12xs_array_reserve((void **)&cache->entries, &cache->capacity, cache->count + 1, sizeof(*cache->entries))) {
        if (vkCreateSampler(device->vk_device, &info, NULL, &sampler) == VK_SUCCESS)
            cache->entries[cache->count++] = (struct sampler_entry){*desc, sampler};
        else
            d3d12xs_fail(E_OUTOFMEMORY, method, "vkCreateSampler failed");
    }
    pthread_mutex_unlock(&cache->lock);
    return sampler;
}

HRESULT d3d12xs_sampler_cache_init(struct d3d12_device *device)
{
    struct d3d12xs_sampler_cache *cache = calloc(1, sizeof(*cache));
    if (!cache)
        return E_OUTOFMEMORY;
    pthread_mutex_init(&cache->lock, NULL);
    device->samplers = cache;
    return S_OK;
}

void d3d12xs_sampler_cache_cleanup(struct d3d12_device *device)
{
    struct d3d12xs_sampler_cache *cache = device->samplers;
    if (!cache)
        return;
    for (size_t i = 0; i < cache->count; i++)
        vkDestroySampler(device->vk_device, cache->entries[i].sampler, NULL);
    free(cache->entries);
    pthread_mutex_destroy(&cache->lock);
    free(cache);
    device->samplers = NULL;
}
