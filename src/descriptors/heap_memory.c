/* The descriptor bytes of a heap (descriptor_buffer.h): for a shader-visible heap, GPU memory
 * the shaders read when a dispatch runs; for the others, CPU memory that CopyDescriptors copies
 * from. A CBV_SRV_UAV heap holds its N view slots; then set 1's one slot: the storage-buffer
 * descriptor of its side table; then the side table, one entry of D3D12XS_SIDE_ENTRY_WORDS
 * uints per descriptor. A SAMPLER heap holds N sampler slots.
 *
 * The side table holds per descriptor what its Vulkan descriptor cannot:
 *   - the device address of a UAV's counter, which shaders reach through a PhysicalStorageBuffer
 *     pointer (spirv/spirv_heap_tables.c), so counters take no descriptor of their own and no
 *     share of the device's per-stage descriptor limit. A UAV without a counter, and every other
 *     slot, points at the device's scratch area: a counter used where the view has none (undefined
 *     in D3D12) neither faults nor writes anything that matters;
 *   - the view's misalignment, which lets raw and structured views start where D3D12 allows (any
 *     element) on devices whose storage-buffer descriptors must start at a multiple of
 *     minStorageBufferOffsetAlignment: such a view's descriptor starts up to that many bytes
 *     earlier, at an aligned address, and the table says how many; the shader adds them to every
 *     index (spirv/spirv_view_offsets.c). */
#include <stdlib.h>
#include <string.h>

#include "descriptors/heap_memory.h"
#include "memory/va_map.h"

#define SIDE_ENTRY_SIZE D3D12XS_SIDE_ENTRY_SIZE

static VkDeviceSize align_up(VkDeviceSize value, VkDeviceSize alignment)
{
    return alignment > 1 ? (value + alignment - 1) / alignment * alignment : value;
}

/* Sets descriptor index's side entry, in the GPU memory and in its CPU copy alike. */
static void set_side_entry(struct d3d12_descriptor_heap *heap, size_t index, uint32_t misalignment, VkDeviceAddress counter_address)
{
    uint32_t entry[D3D12XS_SIDE_ENTRY_WORDS] = {0};

    entry[D3D12XS_SIDE_ENTRY_MISALIGNMENT] = misalignment;
    entry[D3D12XS_SIDE_ENTRY_COUNTER] = (uint32_t)counter_address;
    entry[D3D12XS_SIDE_ENTRY_COUNTER + 1] = (uint32_t)(counter_address >> 32);
    memcpy(heap->side_entries_cpu + index * SIDE_ENTRY_SIZE, entry, SIDE_ENTRY_SIZE);
    if (heap->side_entries != heap->side_entries_cpu)
        memcpy(heap->side_entries + index * SIDE_ENTRY_SIZE, entry, SIDE_ENTRY_SIZE);
}

/* Where a counter that the view does not have goes (see the file comment). */
static VkDeviceAddress no_counter_address(struct d3d12_device *device)
{
    return d3d12xs_va_table_address(device) + D3D12XS_VA_TABLE_SCRATCH_OFFSET;
}

HRESULT d3d12_descriptor_heap_create_memory(struct d3d12_descriptor_heap *heap, const char *method)
{
    static const D3D12_HEAP_PROPERTIES upload = {D3D12_HEAP_TYPE_UPLOAD, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    struct d3d12_device *device = heap->object.device;
    const struct d3d12xs_descriptor_buffers *buffers = device->descriptor_buffers;
    bool samplers = heap->desc.Type == D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER;
    bool shader_visible = heap->desc.Flags & D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE;
    VkDeviceSize size, side_alignment = device->vk_properties.limits.minStorageBufferOffsetAlignment;

    if (heap->desc.Type != D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV && !samplers)
        return S_OK; /* RTV and DSV heaps: no shader reads them */
    heap->slot_size = buffers->slot_size[samplers ? D3D12XS_HEAP_SET_SAMPLERS : D3D12XS_HEAP_SET_RESOURCES];
    heap->side_set_offset = align_up((VkDeviceSize)heap->desc.NumDescriptors * heap->slot_size, buffers->offset_alignment);
    size = heap->side_set_offset;
    if (!samplers) {
        size += buffers->slot_size[D3D12XS_HEAP_SET_COUNTERS];
        heap->side_table_offset = size = align_up(size, side_alignment > SIDE_ENTRY_SIZE ? side_alignment : SIDE_ENTRY_SIZE);
        size += (VkDeviceSize)heap->desc.NumDescriptors * SIDE_ENTRY_SIZE;
    }
    heap->memory_size = size;
    if (!shader_visible) {
        if (!(heap->slots = calloc(1, size)))
            return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate %llu bytes of descriptors", (unsigned long long)size);
    } else {
        VkBufferCreateInfo buffer_info = {
            .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
            .size = size,
            .usage = (samplers ? VK_BUFFER_USAGE_SAMPLER_DESCRIPTOR_BUFFER_BIT_EXT
                            : VK_BUFFER_USAGE_RESOURCE_DESCRIPTOR_BUFFER_BIT_EXT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT) /* the side table */
                    | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
            .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
        };
        HRESULT hr;

        /* Aligned for vkCmdBindDescriptorBuffersEXT, which takes the heap's address. */
        if (FAILED(hr = d3d12xs_allocate_buffer(device, &buffer_info, &upload, buffers->offset_alignment, 0, &heap->memory_buffer, &heap->memory,
                method)))
            return hr;
        if (!heap->memory.mapped)
            return d3d12xs_fail(E_OUTOFMEMORY, method, "no host-visible memory type for the heap's descriptors");
        /* Zero: a never-written slot is undefined in D3D12; zeros are the least surprising. */
        memset(heap->memory.mapped, 0, size);
        heap->slots = heap->memory.mapped;
        VkBufferDeviceAddressInfo address_info = {VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, NULL, heap->memory_buffer};
        heap->memory_address = vkGetBufferDeviceAddress(device->vk_device, &address_info);
        if (!samplers)
            d3d12xs_write_buffer_descriptor(device, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, heap->memory_address + heap->side_table_offset,
                    (VkDeviceSize)heap->desc.NumDescriptors * SIDE_ENTRY_SIZE, VK_FORMAT_UNDEFINED, heap->slots + heap->side_set_offset);
    }
    if (!samplers) {
        VkDeviceAddress none = no_counter_address(device);
        heap->side_entries = heap->side_entries_cpu = heap->slots + heap->side_table_offset;
        if (shader_visible && !(heap->side_entries_cpu = malloc((size_t)heap->desc.NumDescriptors * SIDE_ENTRY_SIZE)))
            return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the CPU copy of %u side-table entries", heap->desc.NumDescriptors);
        for (size_t i = 0; i < heap->desc.NumDescriptors; i++)
            set_side_entry(heap, i, 0, none);
    }
    return S_OK;
}

void d3d12_descriptor_heap_destroy_memory(struct d3d12_descriptor_heap *heap)
{
    struct d3d12_device *device = heap->object.device;
    if (heap->memory_buffer)
        d3d12xs_free_buffer(device, &heap->memory_buffer, &heap->memory);
    else
        free(heap->slots);
    if (heap->side_entries_cpu != heap->side_entries)
        free(heap->side_entries_cpu);
    heap->slots = heap->side_entries = heap->side_entries_cpu = NULL;
}

void d3d12_descriptor_heap_write_slot(struct d3d12_descriptor_heap *heap, size_t index, const struct d3d12xs_descriptor *descriptor)
{
    struct d3d12_device *device = heap->object.device;
    uint8_t *slot;
    VkFormat format = descriptor->vk_format;

    if (!heap->slots)
        return;
    slot = heap->slots + index * heap->slot_size;
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
    /* Only a UAV's counter is ever read (IncrementCounter, Append, Consume). */
    set_side_entry(heap, index, descriptor->view_misalignment, descriptor->kind == D3D12XS_DESCRIPTOR_UAV && d3d12xs_descriptor_is_buffer(descriptor)
            && descriptor->counter_address ? descriptor->counter_address : no_counter_address(device));
}
