/* The address table of a shader-visible CBV_SRV_UAV heap, which shaders of root signatures
 * with CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED read (include/d3d12xs_heap.hlsli, docs/descriptors.md).
 *
 * One host-visible buffer of 16-byte entries:
 *   entry 0          (descriptor count, 0, scratch address low, scratch address high)
 *   entry i + 1      (buffer address low, high, view size in bytes, 0) of descriptor i
 *   entry count + 1  zero, read for indices past the heap
 *   then 16 bytes of scratch: where accesses outside every view go.
 * Entries are written by the CPU when descriptors are (created or copied) and read by the GPU
 * when a dispatch runs, as D3D12 reads its heaps. */
#include <string.h>

#include "descriptors/descriptors.h"

#define SCRATCH_SIZE 16

HRESULT d3d12_descriptor_heap_create_address_table(struct d3d12_descriptor_heap *heap, const char *method)
{
    static const D3D12_HEAP_PROPERTIES upload = {D3D12_HEAP_TYPE_UPLOAD, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    struct d3d12_device *device = heap->object.device;
    VkDeviceSize size = ((VkDeviceSize)heap->desc.NumDescriptors + 2) * 16 + SCRATCH_SIZE;
    VkBufferCreateInfo buffer_info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size,
        .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    VkBufferDeviceAddressInfo address_info = {VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, NULL, VK_NULL_HANDLE};
    VkDeviceAddress scratch;
    void *mapped;
    HRESULT hr;

    if (!device->buffer_device_address || heap->desc.Type != D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV
            || !(heap->desc.Flags & D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE))
        return S_OK;
    if (FAILED(hr = d3d12xs_allocate_buffer(device, &buffer_info, &upload, 0, 0, &heap->table_buffer, &heap->table_memory, method)))
        return hr;
    if (!(mapped = heap->table_memory.mapped))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "no host-visible memory type for the heap's address table");
    memset(mapped, 0, size);
    heap->table = mapped;
    heap->table_size = size;
    address_info.buffer = heap->table_buffer;
    scratch = vkGetBufferDeviceAddress(device->vk_device, &address_info) + size - SCRATCH_SIZE;
    heap->table[0][0] = heap->desc.NumDescriptors;
    heap->table[0][2] = (uint32_t)scratch;
    heap->table[0][3] = (uint32_t)(scratch >> 32);
    return S_OK;
}

void d3d12_descriptor_heap_destroy_address_table(struct d3d12_descriptor_heap *heap)
{
    struct d3d12_device *device = heap->object.device;
    d3d12xs_free_buffer(device, &heap->table_buffer, &heap->table_memory);
    heap->table = NULL;
}

void d3d12_descriptor_heap_update_address_table(struct d3d12_descriptor_heap *heap, const struct d3d12xs_descriptor *descriptor, UINT count)
{
    size_t first = (size_t)(descriptor - heap->descriptors);

    for (UINT i = 0; i < count; i++, descriptor++) {
        uint32_t entry[4] = {0, 0, 0, 0};
        /* raw, structured and constant buffer views; typed, null and sampler ones stay size 0 */
        if ((descriptor->kind == D3D12XS_DESCRIPTOR_CBV || descriptor->kind == D3D12XS_DESCRIPTOR_SRV
                || descriptor->kind == D3D12XS_DESCRIPTOR_UAV) && !descriptor->null_view && descriptor->buffer
                && (descriptor->vk_type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER || descriptor->vk_type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER)
                && descriptor->address) {
            entry[0] = (uint32_t)descriptor->address;
            entry[1] = (uint32_t)(descriptor->address >> 32);
            entry[2] = descriptor->range > UINT32_MAX ? UINT32_MAX & ~3u : (uint32_t)descriptor->range; /* 4 GiB: the shader's reach */
        }
        memcpy(heap->table[first + i + 1], entry, sizeof(entry));
    }
}
