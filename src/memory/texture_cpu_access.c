/* WriteToSubresource and ReadFromSubresource of textures in CPU-accessible heaps.
 *
 * A texture's layout is the device's (D3D12_TEXTURE_LAYOUT_UNKNOWN), so D3D12 never hands its
 * address to the application: the CPU reaches the texels only through these two methods. That
 * lets the image live in optimal tiling and device memory like any other texture; each call
 * moves the texels through a staging buffer with one copy on the scheduler's internal engine
 * and waits for it on the CPU. Every queue's next work waits for the internal engine, so a
 * write is seen by the lists executed after it, as D3D12 promises. */
#include <stdlib.h>
#include <string.h>

#include "memory/texture.h"
#include "memory/texture_layout.h"
#include "sync/barrier_tracker.h"
#include "sync/scheduler.h"

/* The part of one subresource a call reaches, in texels and in blocks of its plane. */
struct cpu_region {
    VkImageSubresourceLayers layers;
    VkOffset3D offset;
    VkExtent3D extent;
    uint32_t blocks_wide, blocks_high;
    uint32_t block_bytes;
    uint64_t row_bytes, slice_bytes, size;
};

/* Resolves (subresource, box) against the texture; the box rules are CopyTextureRegion's. A box
 * that is empty (D3D12: left >= right, top >= bottom or front >= back) leaves *empty set. */
static HRESULT resolve_region(struct d3d12_resource *resource, UINT subresource, const char *subresource_name, const D3D12_BOX *box,
        const char *box_name, struct cpu_region *region, bool *empty, const char *method)
{
    const struct d3d12xs_format *format = resource->format;
    uint32_t mip, layer, plane, width, height, depth;
    VkImageAspectFlagBits aspect = VK_IMAGE_ASPECT_COLOR_BIT;
    DXGI_FORMAT plane_format;
    D3D12_BOX whole;

    *empty = false;
    if (subresource >= d3d12xs_texture_subresource_count(&resource->desc))
        return d3d12xs_fail(E_INVALIDARG, method, "%s is %u (the texture has %u subresources)", subresource_name, subresource,
                d3d12xs_texture_subresource_count(&resource->desc));
    if (resource->desc.SampleDesc.Count > 1)
        return d3d12xs_fail(E_INVALIDARG, method, "the texture is multisampled (SampleDesc.Count %u): the CPU cannot reach its samples",
                resource->desc.SampleDesc.Count);
    d3d12xs_texture_subresource(&resource->desc, subresource, &mip, &layer, &plane);
    d3d12xs_texture_mip_extent(&resource->desc, mip, &width, &height, &depth);
    whole = (D3D12_BOX){0, 0, 0, width, height, depth};
    if (!box)
        box = &whole;
    if (box->left >= box->right || box->top >= box->bottom || box->front >= box->back) {
        *empty = true;
        return S_OK;
    }
    if (box->right > width || box->bottom > height || box->back > depth)
        return d3d12xs_fail(E_INVALIDARG, method, "%s (%u, %u, %u)-(%u, %u, %u) passes the end of subresource %u (%u x %u x %u texels)",
                box_name, box->left, box->top, box->front, box->right, box->bottom, box->back, subresource, width, height, depth);
    /* Compressed texels move in whole blocks; a block may stop short only at the mip's edge. */
    if (box->left % format->block_width || box->top % format->block_height
            || (box->right % format->block_width && box->right != width) || (box->bottom % format->block_height && box->bottom != height))
        return d3d12xs_fail(E_INVALIDARG, method, "%s (%u, %u)-(%u, %u) does not fall on the format's %u x %u blocks", box_name,
                box->left, box->top, box->right, box->bottom, format->block_width, format->block_height);
    region->layers = d3d12xs_texture_subresource_layers(resource, subresource);
    region->block_bytes = format->block_bytes;
    if (resource->aspects != VK_IMAGE_ASPECT_COLOR_BIT) {
        if (!d3d12xs_format_plane(format, plane, &aspect, &region->block_bytes, &plane_format))
            region->block_bytes = format->block_bytes;
        if (!d3d12xs_texture_internal_engine_copies_depth(resource->object.device))
            return d3d12xs_fail(E_NOTIMPL, method, "the texture's format %d has depth or stencil, which this device copies only on a "
                    "graphics queue (the internal engine's family has none)", (int)resource->desc.Format);
    }
    region->offset = (VkOffset3D){(int32_t)box->left, (int32_t)box->top, (int32_t)box->front};
    region->extent = (VkExtent3D){box->right - box->left, box->bottom - box->top, box->back - box->front};
    region->blocks_wide = (region->extent.width + format->block_width - 1) / format->block_width;
    region->blocks_high = (region->extent.height + format->block_height - 1) / format->block_height;
    region->row_bytes = (uint64_t)region->blocks_wide * region->block_bytes;
    region->slice_bytes = region->row_bytes * region->blocks_high;
    region->size = region->slice_bytes * region->extent.depth;
    return S_OK;
}

static HRESULT check_access(struct d3d12_resource *resource, const void *data, const char *data_name, const char *method)
{
    if (!resource->vk_image)
        return d3d12xs_fail(E_INVALIDARG, method, "resource '%s' is a buffer (Map it and use its address)",
                d3d12xs_object_name(&resource->object));
    if (!d3d12xs_texture_in_cpu_custom_heap(resource))
        return d3d12xs_fail(E_INVALIDARG, method, "texture '%s' is in a heap the CPU cannot access (use a CUSTOM heap with "
                "CPU_PAGE_PROPERTY_WRITE_COMBINE or WRITE_BACK)", d3d12xs_object_name(&resource->object));
    if (!data)
        return d3d12xs_fail(E_INVALIDARG, method, "%s is NULL", data_name);
    return S_OK;
}

struct staging_copy {
    VkBuffer buffer;
    VkImage image;
    VkBufferImageCopy region;
    bool to_image;
};

static void record_staging_copy(VkCommandBuffer command_buffer, void *context)
{
    const struct staging_copy *copy = context;
    const VkImageLayout transfer_layout = copy->to_image ? VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL : VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    const VkImageSubresourceLayers *layers = &copy->region.imageSubresource;
    VkImageSubresourceRange range = {layers->aspectMask, layers->mipLevel, 1, layers->baseArrayLayer, layers->layerCount};
    struct d3d12_barrier_tracker barriers;

    /* Into the transfer layout and back to the image's one layout (texture.h), for this
     * subresource only. Before: writes of work that finished before this call (the application
     * waited for it, as D3D12 asks: earlier work of every stage) become visible to the copy.
     * After: a write reaches the queues' next work (which waits for this engine); a read
     * reaches the host. */
    d3d12_barriers_reset(&barriers, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
    d3d12_barriers_note(&barriers, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
    d3d12_barriers_before(&barriers, command_buffer, VK_PIPELINE_STAGE_2_COPY_BIT);
    d3d12_barriers_transfer_layout(&barriers, command_buffer, copy->image, &range, transfer_layout);
    if (copy->to_image)
        vkCmdCopyBufferToImage(command_buffer, copy->buffer, copy->image, transfer_layout, 1, &copy->region);
    else
        vkCmdCopyImageToBuffer(command_buffer, copy->image, transfer_layout, copy->buffer, 1, &copy->region);
    d3d12_barriers_restore_layouts(&barriers, command_buffer);
    if (!copy->to_image)
        d3d12_barriers_emit(&barriers, command_buffer, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                VK_ACCESS_2_HOST_READ_BIT);
}

struct retired_staging {
    VkBuffer buffer;
    struct d3d12xs_allocation allocation;
};

static void destroy_staging(struct d3d12_device *device, void *object)
{
    struct retired_staging *staging = object;
    d3d12xs_free_buffer(device, &staging->buffer, &staging->allocation);
    free(staging);
}

/* Moves the region between host memory (rows row_pitch apart, slices depth_pitch apart) and
 * the image through a staging buffer; the CPU waits for the copy. */
static HRESULT copy_through_staging(struct d3d12_device *device, struct d3d12_resource *resource, const struct cpu_region *region,
        bool to_image, uint8_t *host, uint64_t row_pitch, uint64_t depth_pitch, const char *method)
{
    /* UPLOAD memory is write-combined, READBACK memory cached: each suits its direction. */
    const D3D12_HEAP_PROPERTIES properties = {to_image ? D3D12_HEAP_TYPE_UPLOAD : D3D12_HEAP_TYPE_READBACK,
            D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    VkBufferCreateInfo info = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = region->size,
            .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
    struct staging_copy copy = {.image = resource->vk_image, .to_image = to_image};
    struct d3d12xs_allocation allocation;
    uint8_t *staging;
    HRESULT hr;

    if (FAILED(hr = d3d12xs_allocate_buffer(device, &info, &properties, 16, 0, &copy.buffer, &allocation, method)))
        return hr;
    staging = allocation.mapped;
    if (to_image)
        for (uint32_t z = 0; z < region->extent.depth; z++)
            for (uint32_t row = 0; row < region->blocks_high; row++)
                memcpy(staging + z * region->slice_bytes + row * region->row_bytes, host + z * depth_pitch + row * row_pitch,
                        region->row_bytes);
    /* Tightly packed rows and slices (0: the extent's). */
    copy.region = (VkBufferImageCopy){0, 0, 0, region->layers, region->offset, region->extent};
    if (SUCCEEDED(hr = d3d12_scheduler_record_internal(device, record_staging_copy, &copy, "the texture's CPU copy", method))
            && SUCCEEDED(hr = d3d12_scheduler_finish_internal(device, "the texture's CPU copy", method)) && !to_image)
        for (uint32_t z = 0; z < region->extent.depth; z++)
            for (uint32_t row = 0; row < region->blocks_high; row++)
                memcpy(host + z * depth_pitch + row * row_pitch, staging + z * region->slice_bytes + row * region->row_bytes,
                        region->row_bytes);
    /* A failed wait (device removed) may leave the copy running: then the buffer retires with the
     * work enqueued so far (at once if it cannot be held). */
    if (FAILED(hr)) {
        struct retired_staging *retired = malloc(sizeof(*retired));
        if (retired) {
            *retired = (struct retired_staging){copy.buffer, allocation};
            d3d12_scheduler_retire(device, destroy_staging, retired);
            return hr;
        }
    }
    d3d12xs_free_buffer(device, &copy.buffer, &allocation);
    return hr;
}

HRESULT d3d12xs_texture_write_subresource(struct d3d12_resource *resource, UINT subresource, const D3D12_BOX *box, const void *data,
        UINT row_pitch, UINT depth_pitch, const char *method)
{
    struct cpu_region region;
    bool empty;
    HRESULT hr;

    if (FAILED(hr = check_access(resource, data, "pSrcData", method))
            || FAILED(hr = resolve_region(resource, subresource, "DstSubresource", box, "pDstBox", &region, &empty, method)) || empty)
        return hr;
    return copy_through_staging(resource->object.device, resource, &region, true, (uint8_t *)(uintptr_t)data, row_pitch, depth_pitch,
            method);
}

HRESULT d3d12xs_texture_read_subresource(struct d3d12_resource *resource, void *data, UINT row_pitch, UINT depth_pitch, UINT subresource,
        const D3D12_BOX *box, const char *method)
{
    struct cpu_region region;
    bool empty;
    HRESULT hr;

    if (FAILED(hr = check_access(resource, data, "pDstData", method))
            || FAILED(hr = resolve_region(resource, subresource, "SrcSubresource", box, "pSrcBox", &region, &empty, method)) || empty)
        return hr;
    return copy_through_staging(resource->object.device, resource, &region, false, data, row_pitch, depth_pitch, method);
}
