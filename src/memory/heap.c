/* ID3D12Heap: one allocation of the device's allocator that placed resources bind into. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memory/resource.h"
#include "memory/va_map.h"
#include "sync/scheduler.h"
#include "generated/d3d12_stubs.h"

#define METHOD(name) "ID3D12Heap::" #name

static struct d3d12_heap *impl_from_ID3D12Heap(ID3D12Heap *iface)
{
    return D3D12XS_CONTAINING(iface, struct d3d12_heap, ID3D12Heap_iface);
}

/* Every buffer (and a heap's spanning buffer) can serve every use a D3D12 buffer may have. */
VkBufferUsageFlags d3d12xs_buffer_usage(const struct d3d12_device *device)
{
    /* D3D12 buffers may be used any way their state allows, so every usage is declared. */
    return VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT
            | VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT
            | VK_BUFFER_USAGE_INDEX_BUFFER_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT
            | (device->buffer_device_address ? VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT : 0)
            | (device->graphics.transform_feedback ? VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT
                    | VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_COUNTER_BUFFER_BIT_EXT : 0);
}

const void *d3d12xs_buffer_memory_chain(const struct d3d12_device *device, VkMemoryAllocateFlagsInfo *flags, const void *next)
{
    if (!device->buffer_device_address)
        return next;
    *flags = (VkMemoryAllocateFlagsInfo){VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO, next, VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT, 0};
    return flags;
}

static HRESULT STDMETHODCALLTYPE d3d12_heap_QueryInterface(ID3D12Heap *iface, REFIID riid, void **object)
{
    static const IID *const iids[] = {&IID_ID3D12Heap, &IID_ID3D12Pageable, &IID_ID3D12DeviceChild, &IID_ID3D12Object, &IID_IUnknown, NULL};
    return d3d12xs_query_interface(iface, METHOD(QueryInterface), iids, riid, object);
}

D3D12XS_DEVICE_CHILD_METHODS(d3d12_heap, ID3D12Heap, impl_from_ID3D12Heap, "ID3D12Heap")

static void destroy_heap(struct d3d12_device *device, void *object)
{
    struct d3d12_heap *heap = object;
    if (heap->imported) {
        /* the pages stay the application's: only the import goes */
        vkDestroyBuffer(device->vk_device, heap->vk_buffer, NULL);
        vkFreeMemory(device->vk_device, heap->memory.memory, NULL);
    } else {
        d3d12xs_free_buffer(device, &heap->vk_buffer, &heap->memory);
    }
    free(heap);
}

void d3d12_heap_add_private_ref(struct d3d12_heap *heap)
{
    d3d12xs_object_add_private_ref(&heap->object);
}

void d3d12_heap_release_private_ref(struct d3d12_heap *heap)
{
    if (!d3d12xs_object_release_private_ref(&heap->object))
        return;
    /* Its addresses stop resolving now; the memory goes once the GPU is done with it. */
    d3d12xs_va_free(heap->object.device, heap->va);
    d3d12_scheduler_retire_object(&heap->object, destroy_heap, heap);
}

static ULONG STDMETHODCALLTYPE d3d12_heap_Release(ID3D12Heap *iface)
{
    struct d3d12_heap *heap = impl_from_ID3D12Heap(iface);
    unsigned refcount = d3d12xs_object_release(&heap->object);
    if (!refcount && !d3d12xs_exit_torn_down())
        d3d12_heap_release_private_ref(heap);
    return refcount;
}

static D3D12_HEAP_DESC STDMETHODCALLTYPE d3d12_heap_GetDesc(ID3D12Heap *iface)
{
    return impl_from_ID3D12Heap(iface)->desc;
}

#if defined(__clang__)
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Woverride-init"
#endif

static const ID3D12HeapVtbl d3d12_heap_vtbl = {
    D3D12XS_STUB_VTBL_ID3D12Heap,
    .QueryInterface = d3d12_heap_QueryInterface,
    D3D12XS_DEVICE_CHILD_VTBL_ENTRIES(d3d12_heap),
    .Release = d3d12_heap_Release,
    .GetDesc = d3d12_heap_GetDesc,
};

struct d3d12_heap *unsafe_impl_from_ID3D12Heap(ID3D12Heap *iface)
{
    if (!iface || iface->lpVtbl != &d3d12_heap_vtbl)
        return NULL;
    return impl_from_ID3D12Heap(iface);
}

HRESULT d3d12xs_validate_heap_properties(struct d3d12_device *device, const char *method, const D3D12_HEAP_PROPERTIES *properties)
{
    (void)device;
    if (!properties)
        return d3d12xs_fail(E_INVALIDARG, method, "pHeapProperties is NULL (must describe the heap)");
    switch (properties->Type) {
    case D3D12_HEAP_TYPE_DEFAULT:
    case D3D12_HEAP_TYPE_UPLOAD:
    case D3D12_HEAP_TYPE_READBACK:
        if (properties->CPUPageProperty != D3D12_CPU_PAGE_PROPERTY_UNKNOWN || properties->MemoryPoolPreference != D3D12_MEMORY_POOL_UNKNOWN)
            return d3d12xs_fail(E_INVALIDARG, method,
                    "heap properties: CPUPageProperty/MemoryPoolPreference must be UNKNOWN unless Type is CUSTOM");
        break;
    case D3D12_HEAP_TYPE_CUSTOM:
        if (properties->CPUPageProperty == D3D12_CPU_PAGE_PROPERTY_UNKNOWN || properties->CPUPageProperty > D3D12_CPU_PAGE_PROPERTY_WRITE_BACK)
            return d3d12xs_fail(E_INVALIDARG, method, "heap properties: CUSTOM heaps need CPUPageProperty NOT_AVAILABLE, WRITE_COMBINE or WRITE_BACK (got %d)",
                    (int)properties->CPUPageProperty);
        if (properties->MemoryPoolPreference == D3D12_MEMORY_POOL_UNKNOWN || properties->MemoryPoolPreference > D3D12_MEMORY_POOL_L1)
            return d3d12xs_fail(E_INVALIDARG, method, "heap properties: CUSTOM heaps need MemoryPoolPreference L0 or L1 (got %d)",
                    (int)properties->MemoryPoolPreference);
        if (properties->MemoryPoolPreference == D3D12_MEMORY_POOL_L1 && properties->CPUPageProperty != D3D12_CPU_PAGE_PROPERTY_NOT_AVAILABLE)
            return d3d12xs_fail(E_INVALIDARG, method, "heap properties: pool L1 (video memory) must have CPUPageProperty NOT_AVAILABLE");
        break;
    default:
        return d3d12xs_fail(E_INVALIDARG, method, "heap properties: Type is %d (must be DEFAULT, UPLOAD, READBACK or CUSTOM)", (int)properties->Type);
    }
    if (properties->CreationNodeMask > 1 || properties->VisibleNodeMask > 1)
        return d3d12xs_fail(E_INVALIDARG, method, "heap properties: node masks must be 0 or 1 on a single-node device");
    return S_OK;
}

const void *d3d12xs_host_import_buffer_info(VkExternalMemoryBufferCreateInfo *info, const void *next)
{
    *info = (VkExternalMemoryBufferCreateInfo){VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO, next,
            VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT};
    return info;
}

VkDeviceSize d3d12xs_host_import_alignment(struct d3d12_device *device)
{
    VkPhysicalDeviceExternalMemoryHostPropertiesEXT host = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT};
    VkPhysicalDeviceProperties2 properties = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &host};
    if (!device->vkGetMemoryHostPointerPropertiesEXT)
        return 0;
    vkGetPhysicalDeviceProperties2(device->vk_physical_device, &properties);
    return host.minImportedHostPointerAlignment ? host.minImportedHostPointerAlignment : 4096;
}

HRESULT d3d12xs_import_host_memory(struct d3d12_device *device, void *host, VkDeviceSize size, VkBuffer *buffer,
        VkDeviceMemory *memory, uint32_t *memory_type, const char *method)
{
    VkExternalMemoryBufferCreateInfo external_info;
    VkBufferCreateInfo buffer_info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .pNext = d3d12xs_host_import_buffer_info(&external_info, NULL),
        .size = size,
        .usage = d3d12xs_buffer_usage(device),
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    VkMemoryHostPointerPropertiesEXT pointer_properties = {.sType = VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
    VkImportMemoryHostPointerInfoEXT import_info = {
        .sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT,
        .handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT,
        .pHostPointer = host,
    };
    VkMemoryAllocateFlagsInfo flags;
    VkMemoryAllocateInfo allocate_info = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
            .pNext = d3d12xs_buffer_memory_chain(device, &flags, &import_info), .allocationSize = size};
    const char *name = device->vk_properties.deviceName;
    VkMemoryRequirements requirements;
    uint32_t types;
    VkResult vr;

    *buffer = VK_NULL_HANDLE;
    *memory = VK_NULL_HANDLE;
    if (!device->vkGetMemoryHostPointerPropertiesEXT)
        return d3d12xs_fail(E_NOTIMPL, method, "%s lacks VK_EXT_external_memory_host", name);
    if ((vr = vkCreateBuffer(device->vk_device, &buffer_info, NULL, buffer)) != VK_SUCCESS)
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "%s: vkCreateBuffer over host memory failed (VkResult %d)", name, vr);
    vkGetBufferMemoryRequirements(device->vk_device, *buffer, &requirements);
    if ((vr = device->vkGetMemoryHostPointerPropertiesEXT(device->vk_device, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT,
            host, &pointer_properties)) != VK_SUCCESS) {
        vkDestroyBuffer(device->vk_device, *buffer, NULL);
        *buffer = VK_NULL_HANDLE;
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "%s: vkGetMemoryHostPointerPropertiesEXT failed (VkResult %d)", name, vr);
    }
    if (!(types = pointer_properties.memoryTypeBits & requirements.memoryTypeBits)) {
        vkDestroyBuffer(device->vk_device, *buffer, NULL);
        *buffer = VK_NULL_HANDLE;
        return d3d12xs_fail(E_OUTOFMEMORY, method, "%s: no memory type can hold both a buffer and host memory", name);
    }
    allocate_info.memoryTypeIndex = *memory_type = (uint32_t)__builtin_ctz(types);
    if ((vr = vkAllocateMemory(device->vk_device, &allocate_info, NULL, memory)) != VK_SUCCESS) {
        vkDestroyBuffer(device->vk_device, *buffer, NULL);
        *buffer = VK_NULL_HANDLE;
        *memory = VK_NULL_HANDLE;
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "%s: importing %llu bytes of host memory failed (VkResult %d)",
                name, (unsigned long long)size, vr);
    }
    if ((vr = vkBindBufferMemory(device->vk_device, *buffer, *memory, 0)) != VK_SUCCESS)
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "%s: vkBindBufferMemory failed (VkResult %d)", name, vr);
    return S_OK;
}

/* The last step of making a heap (its memory bound): its GPU virtual addresses, then the
 * interface asked for; the creation reference goes either way. */
static HRESULT hand_out_heap(struct d3d12_heap *heap, VkBuffer addressable, bool upload, REFIID riid, void **out, const char *method)
{
    HRESULT hr;
    if (!(heap->va = d3d12xs_va_allocate(heap->object.device, heap->desc.SizeInBytes, addressable, upload, heap->mapped)))
        hr = d3d12xs_fail(E_OUTOFMEMORY, method, "cannot reserve GPU virtual addresses");
    else
        hr = d3d12xs_hand_out(ID3D12Heap_QueryInterface(&heap->ID3D12Heap_iface, riid, out), method);
    ID3D12Heap_Release(&heap->ID3D12Heap_iface);
    return hr;
}

/* The end of the mapping of this process that holds address (/proc/self/maps), or 0. */
static uintptr_t mapping_end(uintptr_t address)
{
    unsigned long start, end;
    char line[512];
    uintptr_t found = 0;
    FILE *maps = fopen("/proc/self/maps", "r");

    if (!maps)
        return 0;
    while (!found && fgets(line, sizeof(line), maps)) {
        if (sscanf(line, "%lx-%lx", &start, &end) == 2 && address >= start && address < end)
            found = end;
        /* a line longer than the buffer: skip its rest */
        while (!strchr(line, '\n') && fgets(line, sizeof(line), maps))
            ;
    }
    fclose(maps);
    return found;
}

HRESULT d3d12_heap_open_existing(struct d3d12_device *device, const void *address, SIZE_T size, REFIID riid, void **out,
        const char *method)
{
    VkDeviceSize alignment = d3d12xs_host_import_alignment(device);
    struct d3d12_heap *heap;
    uint32_t memory_type;
    HRESULT hr;

    if (out)
        *out = NULL;
    if (!address)
        return d3d12xs_fail(E_INVALIDARG, method, "pAddress is NULL (must be memory the application allocated)");
    if (!riid)
        return d3d12xs_fail(E_INVALIDARG, method, "riid is NULL (must name the heap interface)");
    if (!out)
        return d3d12xs_fail(E_POINTER, method, "ppvHeap is NULL (must receive the heap)");
    if (!alignment)
        return d3d12xs_fail(E_NOTIMPL, method, "%s lacks VK_EXT_external_memory_host (CheckFeatureSupport EXISTING_HEAPS says so)",
                device->vk_properties.deviceName);
    if ((uintptr_t)address % alignment)
        return d3d12xs_fail(E_INVALIDARG, method, "pAddress %p is not a multiple of %llu bytes (the start of an allocation the "
                "device can import)", address, (unsigned long long)alignment);
    if (!size) {
        uintptr_t end = mapping_end((uintptr_t)address);
        if (!end)
            return d3d12xs_fail(E_INVALIDARG, method, "pAddress %p is not in memory this process has mapped", address);
        size = end - (uintptr_t)address;
    } else if (size % alignment) {
        return d3d12xs_fail(E_INVALIDARG, method, "size %llu is not a multiple of %llu bytes", (unsigned long long)size,
                (unsigned long long)alignment);
    } else if (mapping_end((uintptr_t)address) < (uintptr_t)address + size) {
        return d3d12xs_fail(E_INVALIDARG, method, "pAddress %p + size %llu runs past the memory mapped there", address,
                (unsigned long long)size);
    }

    if (!(heap = calloc(1, sizeof(*heap))))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the heap");
    heap->ID3D12Heap_iface.lpVtbl = &d3d12_heap_vtbl;
    d3d12xs_object_init(&heap->object, device);
    heap->imported = true;
    /* system memory the CPU reaches, as Windows makes such a heap */
    heap->desc.SizeInBytes = size;
    heap->desc.Properties.Type = D3D12_HEAP_TYPE_CUSTOM;
    heap->desc.Properties.CPUPageProperty = D3D12_CPU_PAGE_PROPERTY_WRITE_BACK;
    heap->desc.Properties.MemoryPoolPreference = D3D12_MEMORY_POOL_L0;
    heap->desc.Properties.CreationNodeMask = heap->desc.Properties.VisibleNodeMask = 1;
    heap->desc.Alignment = D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT;
    heap->desc.Flags = D3D12_HEAP_FLAG_SHARED | D3D12_HEAP_FLAG_SHARED_CROSS_ADAPTER;
    if (FAILED(hr = d3d12xs_import_host_memory(device, (void *)address, size, &heap->vk_buffer, &heap->memory.memory, &memory_type,
            method)))
        goto fail;
    heap->memory.size = size;
    heap->memory.memory_type = memory_type;
    heap->memory.mapped = heap->mapped = (void *)address;
    return hand_out_heap(heap, heap->vk_buffer, false, riid, out, method);

fail:
    ID3D12Heap_Release(&heap->ID3D12Heap_iface);
    return hr;
}

HRESULT d3d12_heap_create(struct d3d12_device *device, const D3D12_HEAP_DESC *desc, REFIID riid, void **out)
{
    static const char method[] = "ID3D12Device::CreateHeap";
    const D3D12_HEAP_FLAGS known_flags = D3D12_HEAP_FLAG_SHARED | D3D12_HEAP_FLAG_DENY_BUFFERS | D3D12_HEAP_FLAG_ALLOW_DISPLAY
            | D3D12_HEAP_FLAG_SHARED_CROSS_ADAPTER | D3D12_HEAP_FLAG_DENY_RT_DS_TEXTURES | D3D12_HEAP_FLAG_DENY_NON_RT_DS_TEXTURES
            | D3D12_HEAP_FLAG_HARDWARE_PROTECTED | D3D12_HEAP_FLAG_ALLOW_WRITE_WATCH | D3D12_HEAP_FLAG_ALLOW_SHADER_ATOMICS
            | D3D12_HEAP_FLAG_CREATE_NOT_RESIDENT | D3D12_HEAP_FLAG_CREATE_NOT_ZEROED;
    struct d3d12_heap *heap;
    VkMemoryRequirements requirements;
    VkResult vr;
    HRESULT hr;
    int memory_type;

    if (out)
        *out = NULL;
    if (!desc)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc is NULL (must describe the heap)");
    if (!desc->SizeInBytes)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->SizeInBytes is 0 (must be positive)");
    if (desc->Alignment && desc->Alignment != D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT
            && desc->Alignment != D3D12_DEFAULT_MSAA_RESOURCE_PLACEMENT_ALIGNMENT)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Alignment is %llu (must be 0, 64 KiB or 4 MiB)", (unsigned long long)desc->Alignment);
    if (desc->Flags & ~known_flags)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Flags is 0x%x (has undefined bits)", desc->Flags);
    if (desc->Flags & (D3D12_HEAP_FLAG_SHARED | D3D12_HEAP_FLAG_SHARED_CROSS_ADAPTER | D3D12_HEAP_FLAG_HARDWARE_PROTECTED | D3D12_HEAP_FLAG_ALLOW_WRITE_WATCH))
        return d3d12xs_fail(E_NOTIMPL, method, "pDesc->Flags 0x%x asks for sharing, protection or write watch (not implemented)", desc->Flags);
    if (FAILED(hr = d3d12xs_validate_heap_properties(device, method, &desc->Properties)))
        return hr;
    if (!riid)
        return d3d12xs_fail(E_INVALIDARG, method, "riid is NULL (must name the heap interface)");
    if (!out)
        return S_FALSE; /* D3D12's capability check: the arguments are valid, nothing is made */

    if (!(heap = calloc(1, sizeof(*heap))))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the heap");
    heap->ID3D12Heap_iface.lpVtbl = &d3d12_heap_vtbl;
    d3d12xs_object_init(&heap->object, device);
    heap->desc = *desc;
    if (!heap->desc.Alignment)
        heap->desc.Alignment = D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT;
    /* A zero node mask means node 0 on a single-node device, and reads back as 1 (as in D3D12). */
    heap->desc.Properties.CreationNodeMask = 1;
    heap->desc.Properties.VisibleNodeMask = 1;

    /* A buffer spanning the heap gives the memory type bits and lets GPU addresses resolve. */
    VkBufferCreateInfo buffer_info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = desc->SizeInBytes,
        .usage = d3d12xs_buffer_usage(device),
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    if ((vr = vkCreateBuffer(device->vk_device, &buffer_info, NULL, &heap->vk_buffer)) != VK_SUCCESS) {
        hr = d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "vkCreateBuffer of %llu bytes failed (VkResult %d)",
                (unsigned long long)desc->SizeInBytes, vr);
        goto fail;
    }
    vkGetBufferMemoryRequirements(device->vk_device, heap->vk_buffer, &requirements);
    if ((memory_type = d3d12xs_find_memory_type(device, requirements.memoryTypeBits, &desc->Properties)) < 0) {
        hr = d3d12xs_fail(E_INVALIDARG, method, "no Vulkan memory type matches these heap properties");
        goto fail;
    }
    if (requirements.size < desc->SizeInBytes)
        requirements.size = desc->SizeInBytes;
    /* Aligned as D3D12 aligns the heap, so that placed resources' offsets (multiples of 64 KiB)
     * stay as aligned in the VkDeviceMemory. Never dedicated by the driver's wish: the memory is
     * bound to every placed resource too. Buffers only for now: textures will choose the kind. */
    if (FAILED(hr = d3d12xs_allocate_memory(device, &requirements, heap->desc.Alignment, (uint32_t)memory_type, D3D12XS_ALLOCATION_LINEAR,
            0, NULL, &heap->memory, method)))
        goto fail;
    if ((vr = vkBindBufferMemory(device->vk_device, heap->vk_buffer, heap->memory.memory, heap->memory.offset)) != VK_SUCCESS) {
        hr = d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "vkBindBufferMemory failed (VkResult %d)", vr);
        goto fail;
    }
    /* Heaps start zeroed in D3D12 (placed resources then see what the heap holds). */
    if (!(desc->Flags & D3D12_HEAP_FLAG_CREATE_NOT_ZEROED) && FAILED(hr = d3d12xs_allocation_zero(device, &heap->memory, method)))
        goto fail;
    if (desc->Properties.Type == D3D12_HEAP_TYPE_UPLOAD || desc->Properties.Type == D3D12_HEAP_TYPE_READBACK
            || (desc->Properties.Type == D3D12_HEAP_TYPE_CUSTOM && desc->Properties.CPUPageProperty != D3D12_CPU_PAGE_PROPERTY_NOT_AVAILABLE))
        heap->mapped = heap->memory.mapped;
    return hand_out_heap(heap, (desc->Flags & D3D12_HEAP_FLAG_DENY_BUFFERS) ? VK_NULL_HANDLE : heap->vk_buffer,
            desc->Properties.Type == D3D12_HEAP_TYPE_UPLOAD, riid, out, method);

fail:
    ID3D12Heap_Release(&heap->ID3D12Heap_iface);
    return hr;
}
