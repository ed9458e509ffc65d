/* ClearUnorderedAccessViewUint / Float of buffer and texture views. The element D3D12 writes is
 * computed here (uav_clear_value.c), so every UAV format clears to Windows' bits whatever the
 * device would convert: a buffer whose element repeats in 32-bit words at aligned bytes is one
 * vkCmdFillBuffer; a whole texture view whose element the device's clear writes exactly is one
 * vkCmdClearColorImage; everything else (other buffers, rectangles, views through another member
 * of a typeless family, A8 stored as R8, the values a clear colour cannot carry) copies a staging
 * chunk of the repeated element (the allocator's argument memory, 64 KiB) into each box that
 * fits it. */
#include <stdlib.h>
#include <string.h>

#include "command_recording.h"
#include "commands/uav_clear_value.h"
#include "memory/texture_layout.h"

/* A chunk of at most `bytes` host-written bytes holding the element again and again; *bytes is
 * cut to what the chunk holds (a whole number of elements). False after recording the error. */
static bool pattern_chunk(struct d3d12_command_list *list, const char *command, const uint8_t *element, uint32_t element_size,
        VkDeviceSize *bytes, VkBuffer *buffer, VkDeviceSize *offset)
{
    uint8_t *data;
    void *mapped;

    if (*bytes > D3D12XS_ARGUMENT_CHUNK_SIZE)
        *bytes = D3D12XS_ARGUMENT_CHUNK_SIZE; /* a multiple of every element size (1 to 16 bytes) */
    *bytes -= *bytes % element_size; /* whole elements (views are whole elements: this keeps the loop below inside) */
    if (FAILED(d3d12_argument_ring_allocate(list->object.device, &list->allocator->arguments, (uint32_t)*bytes, buffer, offset, &mapped,
            command))) {
        d3d12_command_list_record_error(list, command, "no staging memory for the clear value");
        return false;
    }
    data = mapped;
    for (VkDeviceSize i = 0; i < *bytes; i += element_size)
        memcpy(data + i, element, element_size);
    return true;
}

/* The element of the view's format, or false after the error. */
static bool view_element(struct d3d12_command_list *list, const char *command, DXGI_FORMAT format, const uint32_t values[4],
        bool float_values, uint8_t element[D3D12XS_UAV_CLEAR_MAX_BYTES], uint32_t *element_size)
{
    if (d3d12xs_uav_clear_element(format, values, float_values, element, element_size))
        return true;
    d3d12_command_list_record_error(list, command, "the view's format %d is not a UAV format D3D12 clears", (int)format);
    return false;
}

void d3d12_command_list_clear_buffer_uav(struct d3d12_command_list *list, const char *command, const struct d3d12xs_descriptor *descriptor,
        const uint32_t values[4], bool float_values)
{
    DXGI_FORMAT format = descriptor->raw || descriptor->structure_stride ? DXGI_FORMAT_R32_TYPELESS : descriptor->format;
    uint8_t element[D3D12XS_UAV_CLEAR_MAX_BYTES];
    uint32_t element_size, pattern;
    VkDeviceSize chunk_bytes = descriptor->range, chunk_offset;
    VkBufferCopy *regions;
    VkBuffer chunk;
    size_t count;

    if (!view_element(list, command, format, values, float_values, element, &element_size))
        return;
    d3d12_barriers_before(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
    if (element_size <= 4 && !(descriptor->offset % 4) && !(descriptor->range % 4)) {
        for (uint32_t i = 0; i < 4; i++)
            ((uint8_t *)&pattern)[i] = element[i % element_size];
        vkCmdFillBuffer(list->vk_command_buffer, descriptor->buffer, descriptor->offset, descriptor->range, pattern);
    } else {
        if (!pattern_chunk(list, command, element, element_size, &chunk_bytes, &chunk, &chunk_offset))
            return;
        count = (size_t)((descriptor->range + chunk_bytes - 1) / chunk_bytes);
        if (!(regions = calloc(count, sizeof(*regions)))) {
            d3d12_command_list_record_error(list, command, "out of memory for %zu copies", count);
            return;
        }
        for (size_t i = 0; i < count; i++) {
            VkDeviceSize start = i * chunk_bytes;
            regions[i] = (VkBufferCopy){chunk_offset, descriptor->offset + start,
                    descriptor->range - start < chunk_bytes ? descriptor->range - start : chunk_bytes};
        }
        vkCmdCopyBuffer(list->vk_command_buffer, chunk, descriptor->buffer, (uint32_t)count, regions);
        free(regions);
    }
    struct d3d12_recorded_range range = {descriptor->buffer, descriptor->offset, descriptor->range, true, VK_NULL_HANDLE};
    d3d12_command_list_note_with_ranges(list, command, D3D12_RECORDED_CLEAR_UAV, &range, 1);
}

struct box_regions {
    VkBufferImageCopy *regions;
    size_t count, capacity;
};

/* Cuts the box (x, y, z) + (width, height, depth) of one layer into copies of at most
 * chunk_texels texels each, all reading the chunk from its start. */
static bool add_box(struct box_regions *boxes, VkDeviceSize chunk_offset, uint32_t chunk_texels, const VkImageSubresourceLayers *layer,
        VkOffset3D origin, VkExtent3D extent)
{
    uint32_t columns = extent.width < chunk_texels ? extent.width : chunk_texels;
    uint32_t rows = extent.height < chunk_texels / columns ? extent.height : chunk_texels / columns;
    uint32_t slices = extent.depth < chunk_texels / (columns * rows) ? extent.depth : chunk_texels / (columns * rows);

    for (uint32_t z = 0; z < extent.depth; z += slices)
        for (uint32_t y = 0; y < extent.height; y += rows)
            for (uint32_t x = 0; x < extent.width; x += columns) {
                if (!d3d12xs_array_reserve((void **)&boxes->regions, &boxes->capacity, boxes->count + 1, sizeof(*boxes->regions)))
                    return false;
                boxes->regions[boxes->count++] = (VkBufferImageCopy){
                    .bufferOffset = chunk_offset,
                    .bufferRowLength = columns,
                    .bufferImageHeight = rows,
                    .imageSubresource = *layer,
                    .imageOffset = {origin.x + (int32_t)x, origin.y + (int32_t)y, origin.z + (int32_t)z},
                    .imageExtent = {extent.width - x < columns ? extent.width - x : columns, extent.height - y < rows ? extent.height - y : rows,
                            extent.depth - z < slices ? extent.depth - z : slices},
                };
            }
    return true;
}

/* Copies the element into each rectangle of each layer of the view, over the depth slices
 * [first_slice, first_slice + slice_count) of a 3D view (1 slice otherwise). */
static void copy_element_to_texture(struct d3d12_command_list *list, const char *command, const struct d3d12xs_descriptor *descriptor,
        const uint8_t *element, uint32_t element_size, const VkRect2D *rects, uint32_t rect_count, uint32_t first_slice, uint32_t slice_count)
{
    struct d3d12_resource *resource = descriptor->resource;
    const VkImageSubresourceRange *range = &descriptor->image_range;
    uint32_t layers = range->layerCount == VK_REMAINING_ARRAY_LAYERS ? resource->layers - range->baseArrayLayer : range->layerCount;
    struct box_regions boxes = {0};
    VkDeviceSize chunk_bytes = 0, chunk_offset;
    VkBuffer chunk;

    for (uint32_t r = 0; r < rect_count; r++) {
        VkDeviceSize bytes = (VkDeviceSize)rects[r].extent.width * rects[r].extent.height * slice_count * element_size;
        if (bytes > chunk_bytes)
            chunk_bytes = bytes;
    }
    if (!pattern_chunk(list, command, element, element_size, &chunk_bytes, &chunk, &chunk_offset))
        return;
    for (uint32_t layer = 0; layer < layers; layer++)
        for (uint32_t r = 0; r < rect_count; r++) {
            VkImageSubresourceLayers subresource = {VK_IMAGE_ASPECT_COLOR_BIT, range->baseMipLevel, range->baseArrayLayer + layer, 1};
            if (!add_box(&boxes, chunk_offset, (uint32_t)(chunk_bytes / element_size), &subresource,
                    (VkOffset3D){rects[r].offset.x, rects[r].offset.y, (int32_t)first_slice},
                    (VkExtent3D){rects[r].extent.width, rects[r].extent.height, slice_count})) {
                d3d12_command_list_record_error(list, command, "out of memory for the copies of the clear");
                free(boxes.regions);
                return;
            }
        }
    d3d12_barriers_transfer_layout(&list->barriers, list->vk_command_buffer, resource->vk_image, range, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    vkCmdCopyBufferToImage(list->vk_command_buffer, chunk, resource->vk_image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, (uint32_t)boxes.count,
            boxes.regions);
    free(boxes.regions);
}

void d3d12_command_list_clear_texture_uav(struct d3d12_command_list *list, const char *command, const struct d3d12xs_descriptor *descriptor,
        const uint32_t values[4], bool float_values, UINT rect_count, const D3D12_RECT *rects)
{
    struct d3d12_resource *resource = descriptor->resource;
    DXGI_FORMAT format = descriptor->format ? descriptor->format : resource->desc.Format;
    const struct d3d12_recorded_range written = d3d12_recorded_texture_range(resource, &descriptor->image_range, true);
    uint8_t element[D3D12XS_UAV_CLEAR_MAX_BYTES];
    uint32_t element_size, width, height, depth, clipped_count, first_slice, slice_count;
    VkClearColorValue color;
    VkExtent2D largest;
    VkRect2D *clipped;

    if (rect_count && !rects) {
        d3d12_command_list_record_error(list, command, "NumRects is %u but pRects is NULL", rect_count);
        return;
    }
    if (!view_element(list, command, format, values, float_values, element, &element_size))
        return;
    d3d12xs_texture_mip_extent(&resource->desc, descriptor->image_range.baseMipLevel, &width, &height, &depth);
    /* a 3D view of some of its mip's depth clears only those slices */
    first_slice = descriptor->w_slice_count ? descriptor->first_w_slice : 0;
    slice_count = descriptor->w_slice_count ? descriptor->w_slice_count : depth;
    d3d12_barriers_before(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
    /* The device clears whole subresources, in the image's own format: the view's, or R8 for A8. */
    if (!rect_count && !descriptor->w_slice_count && descriptor->vk_format == resource->vk_format
            && d3d12xs_uav_clear_color(descriptor->vk_format == VK_FORMAT_R8_UNORM ? DXGI_FORMAT_R8_UNORM : format, element, &color)) {
        d3d12_barriers_transfer_layout(&list->barriers, list->vk_command_buffer, resource->vk_image, &descriptor->image_range,
                VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
        vkCmdClearColorImage(list->vk_command_buffer, resource->vk_image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &color, 1,
                &descriptor->image_range);
        d3d12_command_list_note_with_ranges(list, command, D3D12_RECORDED_CLEAR_UAV, &written, 1);
        return;
    }
    if (!rect_count) {
        VkRect2D whole = {{0, 0}, {width, height}};
        copy_element_to_texture(list, command, descriptor, element, element_size, &whole, 1, first_slice, slice_count);
        d3d12_command_list_note_with_ranges(list, command, D3D12_RECORDED_CLEAR_UAV, &written, 1);
        return;
    }
    /* Rectangles are in the view's mip, clipped to it, on each of a 3D view's W slices. */
    if (!(clipped = malloc(rect_count * sizeof(*clipped)))) {
        d3d12_command_list_record_error(list, command, "out of memory for %u rectangles", rect_count);
        return;
    }
    if ((clipped_count = d3d12_command_list_clip_rects(rects, rect_count, width, height, clipped, &largest))) {
        copy_element_to_texture(list, command, descriptor, element, element_size, clipped, clipped_count, first_slice, slice_count);
        d3d12_command_list_note_with_ranges(list, command, D3D12_RECORDED_CLEAR_UAV, &written, 1);
    }
    free(clipped);
}
