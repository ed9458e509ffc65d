/* The descriptor bytes of a heap (descriptor_buffer.h): for a shader-visible heap, GPU memory
 * the shaders read when a dispatch runs; for the others, CPU memory that CopyDescriptors copies
 * from. A CBV_SRV_UAV heap holds its N view slots; then set 1's N + 1 slots: the descriptor of
 * its view-offset table, then the UAV counter of each descriptor (if it has one); then the
 * view-offset table, one uint per descriptor. A SAMPLER heap holds N sampler slots.
 *
 * The view-offset table is what lets raw and structured views start where D3D12 allows (any
 * element) on devices whose storage-buffer descriptors must start at a multiple of
 * minStorageBufferOffsetAlignment: such a view's descriptor starts up to that many bytes
 * earlier, at an aligned address, and the table says how many; the shader adds them to every
 * index (shaders/spirv_view_offsets.c). */
#include <stdlib.h>
#include <string.h>

#include "descriptors/descriptors.h"
#include "descriptors/descriptor_buffer.h"

static VkDeviceSize align_up(VkDeviceSize value, VkDeviceSize alignment)
{
    return alignment > 1 ? (value + alignment - 1) / alignment * alignment : value;
}

HRESULT d3d12_descriptor_heap_create_memory(struct d3d12_descriptor_heap *heap, const char *method)
{
    static const D3D12_HEAP_PROPERTIES upload = {D3D12_HEAP_TYPE_UPLOAD, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    struct d3d12_device *device = heap->object.device;
    const struct d3d12xs_descriptor_buffers *buffers = device->descriptor_buffers;
    bool samplers = heap->desc.Type == D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER;
    bool shader_visible = heap->desc.Flags & D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE;
    VkDeviceSize size;

    if (heap->desc.Type != D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV && !samplers)
        return S_OK; /* RTV and DSV heaps: no shader reads them */
    heap->slot_size = buffers->slot_size[samplers ? D3D12XS_HEAP_SET_SAMPLERS : D3D12XS_HEAP_SET_RESOURCES];
    heap->counter_slot_size = samplers ? 0 : buffers->slot_size[D3D12XS_HEAP_SET_COUNTERS];
    heap->counters_offset = align_up((VkDeviceSize)heap->desc.NumDescriptors * heap->slot_size, buffers->offset_alignment);
    size = heap->counters_offset;
    if (!samplers) {
        size += ((VkDeviceSize)heap->desc.NumDescriptors + D3D12XS_COUNTER_SET_FIRST_COUNTER) * heap->counter_slot_size;
        heap->view_offsets_offset = size = align_up(size, device->vk_properties.limits.minStorageBufferOffsetAlignment);
        size += (VkDeviceSize)heap->desc.NumDescriptors * sizeof(uint32_t);
    }
    heap->memory_size = size;
    if (shader_visible && heap->desc.NumDescriptors > buffers->capacity[samplers ? D3D12XS_HEAP_SET_SAMPLERS : D3D12XS_HEAP_SET_RESOURCES])
        return d3d12xs_fail(E_INVALIDARG, method, "pDescriptorHeapDesc->NumDescriptors is %u; shaders on %s see at most %u descriptors of a heap",
                heap->desc.NumDescriptors, device->vk_properties.deviceName,
                buffers->capacity[samplers ? D3D12XS_HEAP_SET_SAMPLERS : D3D12XS_HEAP_SET_RESOURCES]);
    if (!shader_visible) {
        if (!(heap->slots = calloc(1, size)))
            return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate %llu bytes of descriptors", (unsigned long long)size);
        return S_OK;
    }

    VkBufferCreateInfo buffer_info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size,
        .usage = (samplers ? VK_BUFFER_USAGE_SAMPLER_DESCRIPTOR_BUFFER_BIT_EXT
                        : VK_BUFFER_USAGE_RESOURCE_DESCRIPTOR_BUFFER_BIT_EXT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT) /* the view offsets */
                | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    HRESULT hr;

    /* Aligned for vkCmdBindDescriptorBuffersEXT, which takes the heap's address. */
    if (FAILED(hr = d3d12xs_allocate_buffer(device, &buffer_info, &upload, buffers->offset_alignment, 0, &heap->memory_buffer, &heap->memory,
            method)))
        return hr;
    void *mapped = heap->memory.mapped;
    if (!mapped)
        return d3d12xs_fail(E_OUTOFMEMORY, method, "no host-visible memory type for the heap's descriptors");
    /* Zero: a never-written slot is undefined in D3D12; zeros are the least surprising. */
    memset(mapped, 0, size);
    heap->slots = mapped;
    VkBufferDeviceAddressInfo address_info = {VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, NULL, heap->memory_buffer};
    heap->memory_address = vkGetBufferDeviceAddress(device->vk_device, &address_info);
    if (!samplers)
        d3d12xs_write_buffer_descriptor(device, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, heap->memory_address + heap->view_offsets_offset,
                (VkDeviceSize)heap->desc.NumDescriptors * sizeof(uint32_t), VK_FORMAT_UNDEFINED,
                heap->slots + heap->counters_offset + D3D12XS_COUNTER_SET_OFFSETS_SLOT * heap->counter_slot_size);
    return S_OK;
}

void d3d12_descriptor_heap_destroy_memory(struct d3d12_descriptor_heap *heap)
{
    struct d3d12_device *device = heap->object.device;
    if (heap->memory_buffer)
        d3d12xs_free_buffer(device, &heap->memory_buffer, &heap->memory);
    else
        free(heap->slots);
    heap->slots = NULL;
}

static VkDeviceAddress address_of(struct d3d12_device *device, VkBuffer buffer, VkDeviceSize offset)
{
    VkBufferDeviceAddressInfo info = {VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, NULL, buffer};
    return vkGetBufferDeviceAddress(device->vk_device, &info) + offset;
}

void d3d12_descriptor_heap_write_slot(struct d3d12_descriptor_heap *heap, size_t index, const struct d3d12xs_descriptor *descriptor)
{
    struct d3d12_device *device = heap->object.device;
    uint8_t *slot, *counter;
    VkFormat format = descriptor->vk_format;

    if (!heap->slots)
        return;
    slot = heap->slots + index * heap->slot_size;
    counter = heap->counter_slot_size
            ? heap->slots + heap->counters_offset + (index + D3D12XS_COUNTER_SET_FIRST_COUNTER) * heap->counter_slot_size : NULL;
    if (descriptor->kind == D3D12XS_DESCRIPTOR_SAMPLER) {
        d3d12xs_write_sampler_descriptor(device, descriptor->sampler, slot);
        return;
    }
    if (descriptor->kind == D3D12XS_DESCRIPTOR_EMPTY)
        memset(slot, 0, heap->slot_size);
    else if (descriptor->vk_type == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE || descriptor->vk_type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE)
        d3d12xs_write_image_descriptor(device, descriptor->vk_type, descriptor->null_view ? VK_NULL_HANDLE : descriptor->image_view, slot);
    else if (descriptor->null_view)
        d3d12xs_write_buffer_descriptor(device, descriptor->vk_type, 0, 0, format == VK_FORMAT_UNDEFINED ? VK_FORMAT_R32_UINT : format, slot);
    else
        d3d12xs_write_buffer_descriptor(device, descriptor->vk_type, descriptor->address - descriptor->view_misalignment,
                descriptor->range + descriptor->view_misalignment, format == VK_FORMAT_UNDEFINED ? VK_FORMAT_R32_UINT : format, slot);
    memcpy(heap->slots + heap->view_offsets_offset + index * sizeof(uint32_t), &descriptor->view_misalignment, sizeof(uint32_t));
    /* Only a UAV's counter slot is ever read (IncrementCounter, Append, Consume). */
    if (counter && descriptor->kind == D3D12XS_DESCRIPTOR_UAV) {
        if (descriptor->counter_buffer)
            d3d12xs_write_buffer_descriptor(device, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                    address_of(device, descriptor->counter_buffer, descriptor->counter_offset), 4, VK_FORMAT_UNDEFINED, counter);
        else
            d3d12xs_write_buffer_descriptor(device, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0, 0, VK_FORMAT_UNDEFINED, counter);
    }
}

void d3d12_descriptor_heap_copy_slots(struct d3d12_descriptor_heap *dst, size_t dst_index, const struct d3d12_descriptor_heap *src,
        size_t src_index, size_t count)
{
    if (!dst->slots || !src->slots)
        return;
    memmove(dst->slots + dst_index * dst->slot_size, src->slots + src_index * src->slot_size, count * dst->slot_size);
    if (dst->counter_slot_size) {
        memmove(dst->slots + dst->counters_offset + (dst_index + D3D12XS_COUNTER_SET_FIRST_COUNTER) * dst->counter_slot_size,
                src->slots + src->counters_offset + (src_index + D3D12XS_COUNTER_SET_FIRST_COUNTER) * src->counter_slot_size,
                count * dst->counter_slot_size);
        memmove(dst->slots + dst->view_offsets_offset + dst_index * sizeof(uint32_t),
                src->slots + src->view_offsets_offset + src_index * sizeof(uint32_t), count * sizeof(uint32_t));
    }
}
