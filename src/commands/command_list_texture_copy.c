/* Texture copies: CopyTextureRegion (buffer footprint <-> texture, texture <-> texture) and
 * CopyResource of textures. Images live in GENERAL (memory/texture.h); a copy asks the barrier
 * tracker for the transfer layouts of what it touches (kept across back-to-back copies), then
 * records one vkCmdCopy*. */
#include <string.h>

#include "command_recording.h"
#include "commands/command_list_predicated_write.h"
#include "memory/texture.h"
#include "memory/texture_layout.h"

#define METHOD(name) "ID3D12GraphicsCommandList::" #name

/* One side of a copy, resolved and checked. */
struct copy_side {
    struct d3d12_resource *resource;
    /* textures: the subresource, its Vulkan layers, the plane's format entry as a copy sees it */
    uint32_t subresource;
    VkImageSubresourceLayers layers;
    /* of the footprint (buffer), or the mip (texture) rounded up to whole blocks as D3D12 sizes
     * them (a 2x2 mip of a BC format copies as one 4x4 block) */
    uint32_t width, height, depth;
    uint32_t texel_width, texel_height;  /* textures: the mip's own size, where Vulkan's extents end */
    uint32_t block_width, block_height, block_bytes;
    /* buffers: the footprint */
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT footprint;
};

static struct d3d12_resource *resource_of(struct d3d12_command_list *list, const char *argument, ID3D12Resource *iface)
{
    struct d3d12_resource *resource = unsafe_impl_from_ID3D12Resource(iface);
    if (!resource)
        d3d12_command_list_record_error(list, METHOD(CopyTextureRegion), "%s->pResource is %s (must be a resource from this device)", argument,
                iface ? "not a d3d12xs resource" : "NULL");
    else if (resource->object.device != list->object.device)
        d3d12_command_list_record_error(list, METHOD(CopyTextureRegion), "%s->pResource belongs to another device", argument), resource = NULL;
    return resource;
}

/* The block shape and bytes of a texture's plane as copies see it. */
static bool plane_blocks(const struct d3d12_resource *texture, uint32_t plane, struct copy_side *side)
{
    VkImageAspectFlagBits aspect;
    DXGI_FORMAT plane_format;
    uint32_t bytes;

    if (!d3d12xs_format_plane(texture->format, plane, &aspect, &bytes, &plane_format))
        return false;
    side->block_width = texture->format->block_width;
    side->block_height = texture->format->block_height;
    side->block_bytes = bytes;
    return true;
}

static bool resolve_texture(struct d3d12_command_list *list, const char *argument, struct d3d12_resource *texture, uint32_t subresource,
        struct copy_side *side)
{
    uint32_t count = d3d12xs_texture_subresource_count(&texture->desc), mip, layer, plane;

    if (!texture->vk_image) {
        d3d12_command_list_record_error(list, METHOD(CopyTextureRegion), "%s is SUBRESOURCE_INDEX but its resource '%s' is a buffer "
                "(buffers are copied through PLACED_FOOTPRINT locations)", argument, d3d12xs_object_name(&texture->object));
        return false;
    }
    if (subresource >= count) {
        d3d12_command_list_record_error(list, METHOD(CopyTextureRegion), "%s->SubresourceIndex is %u (texture '%s' has %u)", argument,
                subresource, d3d12xs_object_name(&texture->object), count);
        return false;
    }
    d3d12xs_texture_subresource(&texture->desc, subresource, &mip, &layer, &plane);
    side->resource = texture;
    side->subresource = subresource;
    side->layers = d3d12xs_texture_subresource_layers(texture, subresource);
    d3d12xs_texture_mip_extent(&texture->desc, mip, &side->texel_width, &side->texel_height, &side->depth);
    plane_blocks(texture, plane, side);
    side->width = (side->texel_width + side->block_width - 1) / side->block_width * side->block_width;
    side->height = (side->texel_height + side->block_height - 1) / side->block_height * side->block_height;
    return true;
}

static bool resolve_footprint(struct d3d12_command_list *list, const char *argument, struct d3d12_resource *buffer,
        const D3D12_PLACED_SUBRESOURCE_FOOTPRINT *footprint, struct copy_side *side)
{
    const D3D12_SUBRESOURCE_FOOTPRINT *f = &footprint->Footprint;
    const struct d3d12xs_format *format = d3d12xs_format(f->Format);

    if (buffer->vk_image) {
        d3d12_command_list_record_error(list, METHOD(CopyTextureRegion), "%s is PLACED_FOOTPRINT but its resource '%s' is a texture "
                "(textures are copied through SUBRESOURCE_INDEX locations)", argument, d3d12xs_object_name(&buffer->object));
        return false;
    }
    if (!format || format->vk == VK_FORMAT_UNDEFINED || format->planar) {
        d3d12_command_list_record_error(list, METHOD(CopyTextureRegion), "%s->PlacedFootprint.Footprint.Format is %d (not a format textures are copied in)",
                argument, (int)f->Format);
        return false;
    }
    if (footprint->Offset % D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT) {
        d3d12_command_list_record_error(list, METHOD(CopyTextureRegion), "%s->PlacedFootprint.Offset %llu is not a multiple of %u", argument,
                (unsigned long long)footprint->Offset, D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT);
        return false;
    }
    if (!f->RowPitch || f->RowPitch % D3D12_TEXTURE_DATA_PITCH_ALIGNMENT) {
        d3d12_command_list_record_error(list, METHOD(CopyTextureRegion), "%s->PlacedFootprint.Footprint.RowPitch %u is not a non-zero multiple of %u",
                argument, f->RowPitch, D3D12_TEXTURE_DATA_PITCH_ALIGNMENT);
        return false;
    }
    if (!f->Width || !f->Height || !f->Depth || f->Width % format->block_width || f->Height % format->block_height) {
        d3d12_command_list_record_error(list, METHOD(CopyTextureRegion), "%s->PlacedFootprint.Footprint is %ux%ux%u (non-zero, in whole %ux%u blocks of format %d)",
                argument, f->Width, f->Height, f->Depth, format->block_width, format->block_height, (int)f->Format);
        return false;
    }
    side->resource = buffer;
    side->footprint = *footprint;
    side->width = f->Width;
    side->height = f->Height;
    side->depth = f->Depth;
    side->block_width = format->block_width;
    side->block_height = format->block_height;
    side->block_bytes = format->block_bytes;
    if ((uint64_t)(f->Width / format->block_width) * format->block_bytes > f->RowPitch) {
        d3d12_command_list_record_error(list, METHOD(CopyTextureRegion), "%s->PlacedFootprint.Footprint.RowPitch %u is less than a row of %u texels of format %d",
                argument, f->RowPitch, f->Width, (int)f->Format);
        return false;
    }
    return true;
}

static bool resolve_location(struct d3d12_command_list *list, const char *argument, const D3D12_TEXTURE_COPY_LOCATION *location,
        struct copy_side *side)
{
    struct d3d12_resource *resource;

    memset(side, 0, sizeof(*side));
    if (!location) {
        d3d12_command_list_record_error(list, METHOD(CopyTextureRegion), "%s is NULL (must say what to copy)", argument);
        return false;
    }
    if (!(resource = resource_of(list, argument, location->pResource)))
        return false;
    if (location->Type == D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX)
        return resolve_texture(list, argument, resource, location->SubresourceIndex, side);
    if (location->Type == D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT)
        return resolve_footprint(list, argument, resource, &location->PlacedFootprint, side);
    d3d12_command_list_record_error(list, METHOD(CopyTextureRegion), "%s->Type is %d (SUBRESOURCE_INDEX or PLACED_FOOTPRINT)", argument,
            (int)location->Type);
    return false;
}

/* The source box: pSrcBox, or the whole source. */
static bool source_box(struct d3d12_command_list *list, const struct copy_side *src, const D3D12_BOX *box, D3D12_BOX *out)
{
    if (!box) {
        *out = (D3D12_BOX){0, 0, 0, src->width, src->height, src->depth};
        return true;
    }
    if (box->left >= box->right || box->top >= box->bottom || box->front >= box->back || box->right > src->width
            || box->bottom > src->height || box->back > src->depth) {
        d3d12_command_list_record_error(list, METHOD(CopyTextureRegion), "pSrcBox [%u,%u)x[%u,%u)x[%u,%u) is empty or not within the source's %ux%ux%u",
                box->left, box->right, box->top, box->bottom, box->front, box->back, src->width, src->height, src->depth);
        return false;
    }
    *out = *box;
    return true;
}

/* Whether the region [x, x + w) x [y, y + h) lies in whole blocks of the side (a region may
 * end at the edge of a mip that is not a whole number of blocks). */
static bool block_aligned(const struct copy_side *side, uint32_t x, uint32_t y, uint32_t w, uint32_t h)
{
    return !(x % side->block_width) && !(y % side->block_height) && (!(w % side->block_width) || x + w == side->width)
            && (!(h % side->block_height) || y + h == side->height);
}

/* A region's extent where it meets a texture: up to the mip's own edge. */
static VkExtent3D clamp_extent(const struct copy_side *texture, uint32_t x, uint32_t y, uint32_t width, uint32_t height, uint32_t depth)
{
    VkExtent3D extent = {width, height, depth};
    if (texture->resource->vk_image) {
        if (x + width > texture->texel_width)
            extent.width = texture->texel_width - x;
        if (y + height > texture->texel_height)
            extent.height = texture->texel_height - y;
    }
    return extent;
}

/* The buffer <-> image copy region of the footprint's box. Vulkan measures the buffer's rows
 * in texels: every footprint pitch is a whole number of blocks, as textures of 12-byte texels
 * are not made (texture.c). */
static VkBufferImageCopy buffer_image_region(const struct copy_side *buffer, const struct copy_side *texture, const D3D12_BOX *buffer_box,
        uint32_t image_x, uint32_t image_y, uint32_t image_z)
{
    const D3D12_SUBRESOURCE_FOOTPRINT *f = &buffer->footprint.Footprint;
    uint64_t slice_pitch = (uint64_t)f->RowPitch * (f->Height / buffer->block_height);

    return (VkBufferImageCopy){
        .bufferOffset = buffer->footprint.Offset + buffer_box->front * slice_pitch + (uint64_t)(buffer_box->top / buffer->block_height) * f->RowPitch
                + (uint64_t)(buffer_box->left / buffer->block_width) * buffer->block_bytes,
        .bufferRowLength = f->RowPitch / buffer->block_bytes * buffer->block_width,
        .bufferImageHeight = f->Height,
        .imageSubresource = texture->layers,
        .imageOffset = {(int32_t)image_x, (int32_t)image_y, (int32_t)image_z},
        .imageExtent = clamp_extent(texture, image_x, image_y, buffer_box->right - buffer_box->left, buffer_box->bottom - buffer_box->top,
                buffer_box->back - buffer_box->front),
    };
}

/* The bytes of the footprint a box reads or writes, from its first to its last. */
static void footprint_range(const struct copy_side *buffer, const D3D12_BOX *box, uint64_t *offset, uint64_t *size)
{
    const D3D12_SUBRESOURCE_FOOTPRINT *f = &buffer->footprint.Footprint;
    uint64_t slice_pitch = (uint64_t)f->RowPitch * (f->Height / buffer->block_height);
    uint32_t rows = (box->bottom - box->top + buffer->block_height - 1) / buffer->block_height;
    uint64_t row_bytes = (uint64_t)((box->right - box->left + buffer->block_width - 1) / buffer->block_width) * buffer->block_bytes;

    *offset = buffer->footprint.Offset + box->front * slice_pitch + (uint64_t)(box->top / buffer->block_height) * f->RowPitch
            + (uint64_t)(box->left / buffer->block_width) * buffer->block_bytes;
    *size = (uint64_t)(box->back - box->front - 1) * slice_pitch + (uint64_t)(rows - 1) * f->RowPitch + row_bytes;
}

/* For the console memory-model validation: the subresource a texture side reads or writes. */
static struct d3d12_recorded_range texture_side_range(const struct copy_side *texture, bool write)
{
    return (struct d3d12_recorded_range){VK_NULL_HANDLE, texture->subresource, 1, write, texture->resource->vk_image};
}

static void note_buffer_copy(struct d3d12_command_list *list, const struct copy_side *buffer, const struct copy_side *texture,
        const D3D12_BOX *box, bool upload)
{
    struct d3d12_recorded_range ranges[2] = {{buffer->resource->vk_buffer, 0, 0, !upload, VK_NULL_HANDLE}, texture_side_range(texture, upload)};

    footprint_range(buffer, box, &ranges[0].offset, &ranges[0].size);
    d3d12_command_list_note_with_ranges(list, METHOD(CopyTextureRegion), D3D12_RECORDED_COPY, ranges, 2);
}

/* Copies between formats need the same block shape and size (D3D12's copy-compatible formats,
 * as Vulkan's size-compatible ones). */
static bool copy_compatible(struct d3d12_command_list *list, const struct copy_side *dst, const struct copy_side *src)
{
    if (dst->block_bytes != src->block_bytes || dst->block_width != src->block_width || dst->block_height != src->block_height) {
        d3d12_command_list_record_error(list, METHOD(CopyTextureRegion), "the source's %ux%u blocks of %u bytes and the destination's %ux%u of %u "
                "are not copy-compatible", src->block_width, src->block_height, src->block_bytes, dst->block_width, dst->block_height,
                dst->block_bytes);
        return false;
    }
    return true;
}

/* The range a copy moves to a transfer layout: the whole image (both aspects of a depth-stencil
 * one, whose planes change layout together), so that copies of one subresource after another,
 * a mip chain's upload, need one barrier in all. A copy within one image moves only its two
 * subresources, which sit in different layouts. */
static VkImageSubresourceRange layout_range(const struct d3d12_resource *texture, const VkImageSubresourceLayers *layers, bool whole)
{
    if (whole)
        return (VkImageSubresourceRange){texture->aspects, 0, texture->mip_levels, 0, texture->layers};
    return (VkImageSubresourceRange){texture->aspects, layers->mipLevel, 1, layers->baseArrayLayer, layers->layerCount};
}

/* Transfer layouts for the images of one copy, in one barrier (src and dst may be NULL). */
static void transfer_layouts(struct d3d12_command_list *list, const struct d3d12_resource *src, const VkImageSubresourceLayers *src_layers,
        const struct d3d12_resource *dst, const VkImageSubresourceLayers *dst_layers)
{
    struct d3d12_transfer_layout requests[2];
    bool whole = src != dst;
    uint32_t count = 0;

    if (src)
        requests[count++] = (struct d3d12_transfer_layout){src->vk_image, layout_range(src, src_layers, whole), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL};
    if (dst)
        requests[count++] = (struct d3d12_transfer_layout){dst->vk_image, layout_range(dst, dst_layers, whole), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL};
    d3d12_barriers_transfer_layouts(&list->barriers, list->vk_command_buffer, requests, count);
}

void STDMETHODCALLTYPE d3d12_command_list_CopyTextureRegion(ID3D12GraphicsCommandList10 *iface, const D3D12_TEXTURE_COPY_LOCATION *dst_location,
        UINT dst_x, UINT dst_y, UINT dst_z, const D3D12_TEXTURE_COPY_LOCATION *src_location, const D3D12_BOX *src_box)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    struct copy_side dst, src;
    struct d3d12_predicated_write write;
    D3D12_BOX box;
    uint32_t width, height, depth;

    if (!d3d12_command_list_check_recording(list, METHOD(CopyTextureRegion))
            || !d3d12_command_list_outside_render_pass(list, METHOD(CopyTextureRegion)))
        return;
    if (!resolve_location(list, "pDst", dst_location, &dst) || !resolve_location(list, "pSrc", src_location, &src))
        return;
    if (!dst.resource->vk_image && !src.resource->vk_image) {
        d3d12_command_list_record_error(list, METHOD(CopyTextureRegion), "pDst and pSrc are both buffers (CopyBufferRegion copies buffers)");
        return;
    }
    if (!copy_compatible(list, &dst, &src) || !source_box(list, &src, src_box, &box))
        return;
    width = box.right - box.left, height = box.bottom - box.top, depth = box.back - box.front;
    if (dst_x > dst.width || width > dst.width - dst_x || dst_y > dst.height || height > dst.height - dst_y || dst_z > dst.depth
            || depth > dst.depth - dst_z) {
        d3d12_command_list_record_error(list, METHOD(CopyTextureRegion), "the %ux%ux%u region at (%u, %u, %u) is not within the destination's %ux%ux%u",
                width, height, depth, dst_x, dst_y, dst_z, dst.width, dst.height, dst.depth);
        return;
    }
    if (!block_aligned(&src, box.left, box.top, width, height) || !block_aligned(&dst, dst_x, dst_y, width, height)) {
        d3d12_command_list_record_error(list, METHOD(CopyTextureRegion), "the region is not in whole %ux%u blocks of the format",
                src.block_width, src.block_height);
        return;
    }
    if ((dst.resource->vk_image && dst.resource->desc.SampleDesc.Count > 1) || (src.resource->vk_image && src.resource->desc.SampleDesc.Count > 1)) {
        if (!dst.resource->vk_image || !src.resource->vk_image || dst.resource->desc.SampleDesc.Count != src.resource->desc.SampleDesc.Count) {
            d3d12_command_list_record_error(list, METHOD(CopyTextureRegion), "multisampled textures copy only to textures of the same sample count");
            return;
        }
    }
    if (((dst.resource->vk_image && dst.layers.aspectMask != VK_IMAGE_ASPECT_COLOR_BIT)
            || (src.resource->vk_image && src.layers.aspectMask != VK_IMAGE_ASPECT_COLOR_BIT))
            && !list->object.device->queue_map[list->type].supports_graphics) {
        /* Vulkan copies depth and stencil on graphics queues only. */
        d3d12_command_list_record_error(list, METHOD(CopyTextureRegion), "depth and stencil planes are copied on lists of a queue family with "
                "graphics (DIRECT lists here), not on this %s list", list->type == D3D12_COMMAND_LIST_TYPE_COPY ? "COPY" : "COMPUTE");
        return;
    }
    if (!dst.resource->vk_image && dst.resource->heap_properties.Type == D3D12_HEAP_TYPE_UPLOAD) {
        d3d12_command_list_record_error(list, METHOD(CopyTextureRegion), "pDst's buffer '%s' is in an UPLOAD heap (the GPU cannot write those)",
                d3d12xs_object_name(&dst.resource->object));
        return;
    }

    d3d12_barriers_before(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
    if (dst.resource->vk_image && src.resource->vk_image) {
        VkImageCopy region = {
            .srcSubresource = src.layers,
            .srcOffset = {(int32_t)box.left, (int32_t)box.top, (int32_t)box.front},
            .dstSubresource = dst.layers,
            .dstOffset = {(int32_t)dst_x, (int32_t)dst_y, (int32_t)dst_z},
            .extent = clamp_extent(&src, box.left, box.top, width, height, depth),
        };
        VkExtent3D dst_extent = clamp_extent(&dst, dst_x, dst_y, width, height, depth);
        if (dst_extent.width < region.extent.width)
            region.extent.width = dst_extent.width;
        if (dst_extent.height < region.extent.height)
            region.extent.height = dst_extent.height;
        VkImageSubresourceRange dst_range = {dst.layers.aspectMask, dst.layers.mipLevel, 1, dst.layers.baseArrayLayer, dst.layers.layerCount};
        if (dst.resource == src.resource && dst.subresource == src.subresource) {
            d3d12_command_list_record_error(list, METHOD(CopyTextureRegion), "pDst and pSrc are the same subresource");
            return;
        }
        /* under a predicate, staged (d3d12_command_list_begin_predicated_write) */
        write = d3d12_predicated_texture_write(dst.resource, &dst_range);
        if (!d3d12_command_list_begin_predicated_write(list, METHOD(CopyTextureRegion), &write))
            return;
        transfer_layouts(list, src.resource, &src.layers, dst.resource, &dst.layers);
        vkCmdCopyImage(list->vk_command_buffer, src.resource->vk_image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst.resource->vk_image,
                VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
        d3d12_command_list_end_predicated_write(list, METHOD(CopyTextureRegion), &write);
        {
            struct d3d12_recorded_range ranges[2] = {texture_side_range(&src, false), texture_side_range(&dst, true)};
            d3d12_command_list_note_with_ranges(list, METHOD(CopyTextureRegion), D3D12_RECORDED_COPY, ranges, 2);
        }
    } else {
        VkBufferImageCopy region;
        bool upload = !!dst.resource->vk_image;
        const struct copy_side *buffer = upload ? &src : &dst, *texture = upload ? &dst : &src;
        /* The buffer's box: the source box when the buffer is the source, else the region at
         * (dst_x, dst_y, dst_z) of the destination footprint. */
        D3D12_BOX buffer_box = upload ? box : (D3D12_BOX){dst_x, dst_y, dst_z, dst_x + width, dst_y + height, dst_z + depth};
        uint32_t image_x = upload ? dst_x : box.left, image_y = upload ? dst_y : box.top, image_z = upload ? dst_z : box.front;
        uint64_t offset, size;

        footprint_range(buffer, &buffer_box, &offset, &size);
        if (offset > buffer->resource->desc.Width || size > buffer->resource->desc.Width - offset) {
            d3d12_command_list_record_error(list, METHOD(CopyTextureRegion), "the footprint's bytes [%llu, %llu) pass the end of the %llu-byte buffer '%s'",
                    (unsigned long long)offset, (unsigned long long)(offset + size), (unsigned long long)buffer->resource->desc.Width,
                    d3d12xs_object_name(&buffer->resource->object));
            return;
        }
        region = buffer_image_region(buffer, texture, &buffer_box, image_x, image_y, image_z);
        /* under a predicate, staged: the destination subresource, or the footprint's bytes */
        if (upload) {
            VkImageSubresourceRange dst_range = {dst.layers.aspectMask, dst.layers.mipLevel, 1, dst.layers.baseArrayLayer, dst.layers.layerCount};
            write = d3d12_predicated_texture_write(dst.resource, &dst_range);
        } else {
            write = d3d12_predicated_buffer_write(dst.resource->vk_buffer, offset, size);
        }
        if (!d3d12_command_list_begin_predicated_write(list, METHOD(CopyTextureRegion), &write))
            return;
        transfer_layouts(list, upload ? NULL : texture->resource, &texture->layers, upload ? texture->resource : NULL, &texture->layers);
        if (upload)
            vkCmdCopyBufferToImage(list->vk_command_buffer, buffer->resource->vk_buffer, texture->resource->vk_image,
                    VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
        else
            vkCmdCopyImageToBuffer(list->vk_command_buffer, texture->resource->vk_image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                    buffer->resource->vk_buffer, 1, &region);
        d3d12_command_list_end_predicated_write(list, METHOD(CopyTextureRegion), &write);
        note_buffer_copy(list, buffer, texture, &buffer_box, upload);
    }
}

bool d3d12_command_list_copy_texture_resource(struct d3d12_command_list *list, struct d3d12_resource *dst, struct d3d12_resource *src)
{
    const D3D12_RESOURCE_DESC *d = &dst->desc, *s = &src->desc;
    const char *command = METHOD(CopyResource);
    VkImageCopy regions[D3D12_REQ_MIP_LEVELS * 2];
    struct d3d12_predicated_write write;
    uint32_t count = 0;

    if (!dst->vk_image || !src->vk_image) {
        d3d12_command_list_record_error(list, command, "pDstResource is a %s and pSrcResource a %s (both buffers or both textures)",
                dst->vk_image ? "texture" : "buffer", src->vk_image ? "texture" : "buffer");
        return false;
    }
    if (d->Dimension != s->Dimension || d->Width != s->Width || d->Height != s->Height || d->DepthOrArraySize != s->DepthOrArraySize
            || dst->mip_levels != src->mip_levels || d->SampleDesc.Count != s->SampleDesc.Count) {
        d3d12_command_list_record_error(list, command, "pDstResource and pSrcResource differ in dimension, size, mips, layers or samples");
        return false;
    }
    if (dst->format->typeless != src->format->typeless || dst->format->typeless == DXGI_FORMAT_UNKNOWN) {
        if (dst->format->dxgi != src->format->dxgi) {
            d3d12_command_list_record_error(list, command, "pDstResource's format %d and pSrcResource's %d are not of one typeless family",
                    (int)d->Format, (int)s->Format);
            return false;
        }
    }
    if (dst->aspects != VK_IMAGE_ASPECT_COLOR_BIT && !list->object.device->queue_map[list->type].supports_graphics) {
        d3d12_command_list_record_error(list, command, "depth-stencil textures are copied on lists of a queue family with graphics "
                "(DIRECT lists here), not on this %s list", list->type == D3D12_COMMAND_LIST_TYPE_COPY ? "COPY" : "COMPUTE");
        return false;
    }
    /* One region per mip and plane, all layers at once. */
    for (uint32_t plane = 0; plane < dst->planes; plane++) {
        for (uint32_t mip = 0; mip < dst->mip_levels; mip++) {
            uint32_t index = mip + plane * dst->mip_levels * dst->layers, width, height, depth;
            VkImageSubresourceLayers layers = d3d12xs_texture_subresource_layers(dst, index);
            layers.layerCount = dst->layers;
            d3d12xs_texture_mip_extent(d, mip, &width, &height, &depth);
            regions[count++] = (VkImageCopy){layers, {0, 0, 0}, layers, {0, 0, 0}, {width, height, depth}};
        }
    }
    /* under a predicate, staged (d3d12_command_list_begin_predicated_write): the whole destination */
    {
        const VkImageSubresourceRange whole = {dst->aspects, 0, dst->mip_levels, 0, dst->layers};
        write = d3d12_predicated_texture_write(dst, &whole);
    }
    if (!d3d12_command_list_begin_predicated_write(list, command, &write))
        return false;
    d3d12_barriers_before(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
    transfer_layouts(list, src, NULL, dst, NULL);
    vkCmdCopyImage(list->vk_command_buffer, src->vk_image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst->vk_image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
            count, regions);
    d3d12_command_list_end_predicated_write(list, command, &write);
    {
        uint32_t subresources = d3d12xs_texture_subresource_count(d);
        struct d3d12_recorded_range ranges[2] = {{VK_NULL_HANDLE, 0, subresources, false, src->vk_image},
                {VK_NULL_HANDLE, 0, subresources, true, dst->vk_image}};
        d3d12_command_list_note_with_ranges(list, command, D3D12_RECORDED_COPY, ranges, 2);
    }
    return true;
}
