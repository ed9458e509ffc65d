/* What every part asks of the device: whether it was removed (and marking it so), VkResult
 * to HRESULT, memory types. Kept apart from api/device.c, which creates every
 * object, so that the parts below it never call into it. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "device/device.h"

struct d3d12_device *impl_from_ID3D12Device(ID3D12Device *iface)
{
    return D3D12XS_CONTAINING(iface, struct d3d12_device, ID3D12Device_iface);
}

HRESULT d3d12_device_removed_reason(struct d3d12_device *device)
{
    return atomic_load(&device->removed_reason);
}

void d3d12_device_debug_warn(struct d3d12_device *device, const char *method, const char *fmt, ...)
{
    char why[400];
    va_list args;

    if (device->config.debug != D3D12XS_CONFIG_ON)
        return;
    va_start(args, fmt);
    vsnprintf(why, sizeof(why), fmt, args);
    va_end(args);
    WARN("%s: %s (D3D12 leaves this undefined; its debug layer reports it)", method, why);
}

HRESULT d3d12_device_check_creation(struct d3d12_device *device, const char *method, void **out)
{
    HRESULT reason = d3d12_device_removed_reason(device);
    if (reason == S_OK)
        return S_OK;
    if (out)
        *out = NULL;
    return d3d12xs_fail(DXGI_ERROR_DEVICE_REMOVED, method, "the device was removed (GetDeviceRemovedReason answers 0x%08x): "
            "nothing can be created on it", (unsigned)reason);
}

void d3d12_device_mark_removed(struct d3d12_device *device, HRESULT reason, const char *why)
{
    bool expected = false;
    /* The line first, then the state: a wait that ends on the removal finds its reason logged
     * (on the H200 a host wait returned DEVICE_HUNG before the waiter's line was out). */
    if (atomic_compare_exchange_strong(&device->removal_claimed, &expected, true)) {
        ERR("device removed (%s): %s", reason == DXGI_ERROR_DEVICE_HUNG ? "DXGI_ERROR_DEVICE_HUNG"
                : reason == DXGI_ERROR_INVALID_CALL ? "DXGI_ERROR_INVALID_CALL" : "DXGI_ERROR_DEVICE_REMOVED", why);
        atomic_store(&device->removed_reason, reason);
    }
}

HRESULT d3d12xs_hresult_from_vk(struct d3d12_device *device, VkResult vr)
{
    switch (vr) {
    case VK_SUCCESS:
        return S_OK;
    case VK_ERROR_OUT_OF_HOST_MEMORY:
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
        return E_OUTOFMEMORY;
    case VK_ERROR_DEVICE_LOST:
        d3d12_device_mark_removed(device, DXGI_ERROR_DEVICE_REMOVED, "the Vulkan device was lost");
        return DXGI_ERROR_DEVICE_REMOVED;
    default:
        return E_FAIL;
    }
}

int d3d12xs_find_memory_type(struct d3d12_device *device, uint32_t type_bits, const D3D12_HEAP_PROPERTIES *properties)
{
    const VkPhysicalDeviceMemoryProperties *memory = &device->vk_memory_properties;
    VkMemoryPropertyFlags required = 0, preferred = 0;
    D3D12_CPU_PAGE_PROPERTY page = properties->CPUPageProperty;
    D3D12_MEMORY_POOL pool = properties->MemoryPoolPreference;

    switch (properties->Type) {
    case D3D12_HEAP_TYPE_UPLOAD: page = D3D12_CPU_PAGE_PROPERTY_WRITE_COMBINE; pool = D3D12_MEMORY_POOL_L0; break;
    case D3D12_HEAP_TYPE_READBACK: page = D3D12_CPU_PAGE_PROPERTY_WRITE_BACK; pool = D3D12_MEMORY_POOL_L0; break;
    case D3D12_HEAP_TYPE_DEFAULT: page = D3D12_CPU_PAGE_PROPERTY_NOT_AVAILABLE; pool = D3D12_MEMORY_POOL_L1; break;
    default: break;
    }
    switch (page) {
    case D3D12_CPU_PAGE_PROPERTY_WRITE_COMBINE:
        required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        break;
    case D3D12_CPU_PAGE_PROPERTY_WRITE_BACK:
        required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        preferred = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
        break;
    default:
        break;
    }
    if (pool == D3D12_MEMORY_POOL_L1)
        preferred |= VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;

    /* First pass wants the preferred bits too; the second settles for the required ones. */
    for (int pass = 0; pass < 2; pass++) {
        VkMemoryPropertyFlags wanted = required | (pass ? 0 : preferred);
        for (uint32_t i = 0; i < memory->memoryTypeCount; i++) {
            if (!(type_bits & (1u << i)))
                continue;
            if ((memory->memoryTypes[i].propertyFlags & wanted) == wanted)
                return (int)i;
        }
    }
    return -1;
}
