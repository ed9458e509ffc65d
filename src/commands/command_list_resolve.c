/* ResolveSubresource and ResolveSubresourceRegion, and the resolves a render pass ends with
 * (ENDING_ACCESS_RESOLVE, command_list_render_pass.c). AVERAGE of colour formats is Vulkan's
 * vkCmdResolveImage, in the transfer stage where RESOLVE_SOURCE and RESOLVE_DEST barriers wait
 * (resource_states.c); depth and stencil planes resolve at the end of a rendering pass over the
 * source where the device's depth-stencil resolve modes and the region allow; colour MIN and MAX
 * and the depth and stencil resolves those cannot do go through d3d12xs's own resolve pass
 * (resolve_pass.c). DECOMPRESS is a copy (d3d12xs never compresses, so a decompression in place
 * has nothing to do). Sampler feedback is not there: its modes fail Close with E_NOTIMPL. */
#include <string.h>

#include "command_recording.h"
#include "commands/command_list_predicated_write.h"
#include "commands/resolve_pass.h"
#include "memory/texture_layout.h"

#define METHOD(name) "ID3D12GraphicsCommandList::" #name

static struct d3d12_resource *texture_argument(struct d3d12_command_list *list, const char *command, const char *argument, ID3D12Resource *iface)
{
    struct d3d12_resource *resource = unsafe_impl_from_ID3D12Resource(iface);

    if (!resource || resource->object.device != list->object.device) {
        d3d12_command_list_record_error(list, command, "%s is %s", argument, !iface ? "NULL" : !resource ? "not a d3d12xs resource"
                : "a resource of another device");
        return NULL;
    }
    if (!resource->vk_image) {
        d3d12_command_list_record_error(list, command, "%s '%s' is a buffer (resolves take textures)", argument, d3d12xs_object_name(&resource->object));
        return NULL;
    }
    return resource;
}

/* Whether `format` may stand for the resource's format (Windows' rule): a typed resource's own
 * format, any typed member of a typeless resource's family. Format says how the samples are read,
 * so it is never typeless itself. */
static bool format_fits(const struct d3d12_resource *resource, DXGI_FORMAT format)
{
    const struct d3d12xs_format *info = d3d12xs_format(format), *own = d3d12xs_format(resource->desc.Format);

    if (!info || !own || info->typeless_format)
        return false;
    return format == resource->desc.Format || (own->typeless_format && info->typeless == own->typeless);
}

static VkResolveModeFlagBits vk_resolve_mode(D3D12_RESOLVE_MODE mode)
{
    return mode == D3D12_RESOLVE_MODE_MIN ? VK_RESOLVE_MODE_MIN_BIT : mode == D3D12_RESOLVE_MODE_MAX ? VK_RESOLVE_MODE_MAX_BIT
            : VK_RESOLVE_MODE_AVERAGE_BIT;
}

/* Depth and stencil planes resolve at the end of a rendering pass over the source (Vulkan 1.2's
 * depth-stencil resolve) where the device has the mode for the plane, the destination can be a
 * depth-stencil attachment (ALLOW_DEPTH_STENCIL), the region lands where it is in the source (a
 * pass resolves in place), and the other plane of a two-plane format may stay unresolved: NULL
 * then, else why not (d3d12xs's own resolve pass takes the rest). */
static const char *plane_unresolvable_by_rendering(const struct d3d12_device *device, const struct d3d12_pass_resolve *resolve, bool stencil)
{
    VkResolveModeFlags modes = stencil ? device->stencil_resolve_modes : device->depth_resolve_modes;

    if (!(modes & vk_resolve_mode(resolve->mode)))
        return "the device has no such resolve of the plane";
    if (!(resolve->dst->desc.Flags & D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL))
        return "the destination is no depth-stencil attachment (ALLOW_DEPTH_STENCIL)";
    if (resolve->dst->vk_format != resolve->src->vk_format)
        return "the resources' Vulkan formats differ (a pass resolves into an image of its own format)";
    if (resolve->dst_x != (UINT)resolve->src_rect.left || resolve->dst_y != (UINT)resolve->src_rect.top)
        return "the region moves (a pass resolves in place)";
    if ((resolve->src->aspects & VK_IMAGE_ASPECT_DEPTH_BIT) && (resolve->src->aspects & VK_IMAGE_ASPECT_STENCIL_BIT)
            && !device->independent_resolve_none)
        return "the device cannot resolve one plane of two";
    return NULL;
}

static const char *mode_name(D3D12_RESOLVE_MODE mode)
{
    return mode == D3D12_RESOLVE_MODE_MIN ? "MIN" : mode == D3D12_RESOLVE_MODE_MAX ? "MAX" : "AVERAGE";
}

/* Whether vkCmdResolveImage does the colour AVERAGE: it averages in the images' one format, so
 * both must have it and it must be Format's (a typeless family's resources may differ, and a
 * typeless image's format is one member, which Format need not be). */
static bool vulkan_averages(const struct d3d12_pass_resolve *resolve)
{
    const struct d3d12xs_format *format = d3d12xs_format(resolve->format);

    return resolve->src->vk_format == resolve->dst->vk_format && format && format->vk == resolve->src->vk_format;
}

/* Which way a checked resolve goes: Vulkan's resolves (vkCmdResolveImage for colour AVERAGE, a
 * rendering pass's depth-stencil resolve) where they can, d3d12xs's own pass otherwise; false
 * after the E_NOTIMPL line where neither can. */
static bool choose_resolve_path(struct d3d12_command_list *list, const char *command, struct d3d12_pass_resolve *resolve, uint32_t plane)
{
    bool stencil = plane == 1 || !(resolve->src->aspects & VK_IMAGE_ASPECT_DEPTH_BIT);
    VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT;
    const char *by_rendering = NULL, *by_pass;

    if (resolve->mode == D3D12_RESOLVE_MODE_DECOMPRESS) {
        /* a copy: Vulkan copies between colour formats of one size, not between depth and colour */
        if (resolve->src->vk_format != resolve->dst->vk_format && (resolve->src->aspects | resolve->dst->aspects) != VK_IMAGE_ASPECT_COLOR_BIT) {
            d3d12_command_list_record_unsupported(list, command, "DECOMPRESS between a depth-stencil image and one of another Vulkan format "
                    "(%d and %d): Vulkan copies depth only between images of one format", (int)resolve->src->vk_format, (int)resolve->dst->vk_format);
            return false;
        }
        return true;
    }
    if (resolve->src->aspects & ~VK_IMAGE_ASPECT_COLOR_BIT) {
        aspect = stencil ? VK_IMAGE_ASPECT_STENCIL_BIT : VK_IMAGE_ASPECT_DEPTH_BIT;
        if (!(by_rendering = plane_unresolvable_by_rendering(list->object.device, resolve, stencil)))
            return true;
    } else if (resolve->mode == D3D12_RESOLVE_MODE_AVERAGE && vulkan_averages(resolve)) {
        return true;
    }
    if ((by_pass = d3d12_resolve_pass_unable(resolve, aspect))) {
        if (by_rendering)
            d3d12_command_list_record_unsupported(list, command, "the %s plane's %s resolve: %s; %s", stencil ? "stencil" : "depth",
                    mode_name(resolve->mode), by_rendering, by_pass);
        else
            d3d12_command_list_record_unsupported(list, command, "ResolveMode %s of colour format %d: %s", mode_name(resolve->mode),
                    (int)resolve->format, by_pass);
        return false;
    }
    resolve->pass_aspect = aspect;
    return true;
}

bool d3d12_command_list_check_resolve(struct d3d12_command_list *list, const char *command, ID3D12Resource *dst_iface, UINT dst_subresource,
        UINT dst_x, UINT dst_y, ID3D12Resource *src_iface, UINT src_subresource, const D3D12_RECT *src_rect, DXGI_FORMAT format,
        D3D12_RESOLVE_MODE mode, struct d3d12_pass_resolve *resolve)
{
    struct d3d12_resource *dst, *src;
    uint32_t src_width, src_height, dst_width, dst_height, depth, mip, layer, plane;
    D3D12_RECT rect;
    bool is_signed;

    if (list->type != D3D12_COMMAND_LIST_TYPE_DIRECT) {
        d3d12_command_list_record_error(list, command, "only DIRECT lists resolve");
        return false;
    }
    if (mode > D3D12_RESOLVE_MODE_DECODE_SAMPLER_FEEDBACK) {
        d3d12_command_list_record_error(list, command, "ResolveMode %d is not a D3D12_RESOLVE_MODE", (int)mode);
        return false;
    }
    if (!(dst = texture_argument(list, command, "pDstResource", dst_iface)) || !(src = texture_argument(list, command, "pSrcResource", src_iface)))
        return false;
    if (mode == D3D12_RESOLVE_MODE_ENCODE_SAMPLER_FEEDBACK || mode == D3D12_RESOLVE_MODE_DECODE_SAMPLER_FEEDBACK) {
        d3d12_command_list_record_unsupported(list, command, "ResolveMode %s: d3d12xs has no sampler feedback",
                mode == D3D12_RESOLVE_MODE_ENCODE_SAMPLER_FEEDBACK ? "ENCODE_SAMPLER_FEEDBACK" : "DECODE_SAMPLER_FEEDBACK");
        return false;
    }
    if (dst_subresource >= d3d12xs_texture_subresource_count(&dst->desc) || src_subresource >= d3d12xs_texture_subresource_count(&src->desc)) {
        d3d12_command_list_record_error(list, command, "DstSubresource %u or SrcSubresource %u is past its resource's %u or %u subresources",
                dst_subresource, src_subresource, d3d12xs_texture_subresource_count(&dst->desc), d3d12xs_texture_subresource_count(&src->desc));
        return false;
    }
    if (mode == D3D12_RESOLVE_MODE_DECOMPRESS ? dst->desc.SampleDesc.Count != src->desc.SampleDesc.Count
            : src->desc.SampleDesc.Count <= 1 || dst->desc.SampleDesc.Count != 1) {
        d3d12_command_list_record_error(list, command, "pSrcResource has %u samples and pDstResource %u (%s)", src->desc.SampleDesc.Count,
                dst->desc.SampleDesc.Count, mode == D3D12_RESOLVE_MODE_DECOMPRESS ? "DECOMPRESS keeps the sample count"
                : "the source is multisampled, the destination single-sampled");
        return false;
    }
    if (!format_fits(src, format) || !format_fits(dst, format)) {
        d3d12_command_list_record_error(list, command, "Format %d does not fit both resources (formats %d and %d): it must be a typed "
                "resource's own format and a typed member of a typeless resource's family", (int)format, (int)src->desc.Format, (int)dst->desc.Format);
        return false;
    }
    d3d12xs_texture_subresource(&src->desc, src_subresource, &mip, &layer, &plane);
    d3d12xs_texture_mip_extent(&src->desc, mip, &src_width, &src_height, &depth);
    /* the stencil plane (plane 1) holds integers too */
    if (mode == D3D12_RESOLVE_MODE_AVERAGE && (d3d12_command_list_integer_format(format, &is_signed)
            || ((src->aspects & VK_IMAGE_ASPECT_STENCIL_BIT) && plane == 1))) {
        d3d12_command_list_record_error(list, command, "Format %d (plane %u) holds integers, which AVERAGE does not resolve (MIN or MAX do)",
                (int)format, plane);
        return false;
    }
    d3d12xs_texture_subresource(&dst->desc, dst_subresource, &mip, &layer, &plane);
    d3d12xs_texture_mip_extent(&dst->desc, mip, &dst_width, &dst_height, &depth);
    rect = src_rect ? *src_rect : (D3D12_RECT){0, 0, (LONG)src_width, (LONG)src_height};
    if (rect.left < 0 || rect.top < 0 || rect.left >= rect.right || rect.top >= rect.bottom || (uint32_t)rect.right > src_width
            || (uint32_t)rect.bottom > src_height) {
        d3d12_command_list_record_error(list, command, "pSrcRect (%ld, %ld)-(%ld, %ld) is not a rectangle within the %ux%u source", (long)rect.left,
                (long)rect.top, (long)rect.right, (long)rect.bottom, src_width, src_height);
        return false;
    }
    if (dst_x > dst_width || (uint32_t)(rect.right - rect.left) > dst_width - dst_x || dst_y > dst_height
            || (uint32_t)(rect.bottom - rect.top) > dst_height - dst_y) {
        d3d12_command_list_record_error(list, command, "the %ldx%ld region at (%u, %u) is not within the %ux%u destination",
                (long)(rect.right - rect.left), (long)(rect.bottom - rect.top), dst_x, dst_y, dst_width, dst_height);
        return false;
    }
    *resolve = (struct d3d12_pass_resolve){src, dst, src_subresource, dst_subresource, dst_x, dst_y, rect, format, mode, 0};
    d3d12xs_texture_subresource(&src->desc, src_subresource, &mip, &layer, &plane);
    return choose_resolve_path(list, command, resolve, plane);
}

static VkImageSubresourceLayers subresource_layers(const struct d3d12_resource *resource, UINT subresource)
{
    uint32_t mip, layer, plane;

    d3d12xs_texture_subresource(&resource->desc, subresource, &mip, &layer, &plane);
    return (VkImageSubresourceLayers){VK_IMAGE_ASPECT_COLOR_BIT, mip, layer, 1};
}

/* A depth or stencil plane's resolve (chosen by plane_unresolvable_by_rendering): a rendering pass over the
 * source plane, loaded, with the destination as its resolve attachment. Resolves happen in the
 * colour output stage; the barriers around it are this command's own (the application's
 * RESOLVE_SOURCE and RESOLVE_DEST name the transfer stage). */
static void resolve_plane(struct d3d12_command_list *list, const char *command, const struct d3d12_pass_resolve *resolve)
{
    const VkPipelineStageFlags2 stages = VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT
            | VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
    uint32_t mip, layer, plane, dst_mip, dst_layer, dst_plane;
    struct d3d12xs_image_view_key key;
    VkImageView src_view, dst_view;
    VkImageAspectFlags aspect;

    d3d12xs_texture_subresource(&resolve->src->desc, resolve->src_subresource, &mip, &layer, &plane);
    d3d12xs_texture_subresource(&resolve->dst->desc, resolve->dst_subresource, &dst_mip, &dst_layer, &dst_plane);
    aspect = plane == 1 || !(resolve->src->aspects & VK_IMAGE_ASPECT_DEPTH_BIT) ? VK_IMAGE_ASPECT_STENCIL_BIT : VK_IMAGE_ASPECT_DEPTH_BIT;
    memset(&key, 0, sizeof(key));
    key.type = VK_IMAGE_VIEW_TYPE_2D;
    key.format = resolve->src->vk_format;
    key.usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
    key.range = (VkImageSubresourceRange){aspect, mip, 1, layer, 1};
    src_view = d3d12_resource_get_image_view(resolve->src, &key, command);
    key.range = (VkImageSubresourceRange){aspect, dst_mip, 1, dst_layer, 1};
    dst_view = d3d12_resource_get_image_view(resolve->dst, &key, command);
    if (!src_view || !dst_view) {
        d3d12_command_list_record_error(list, command, "no view of the %s plane for its resolve", src_view ? "destination" : "source");
        return;
    }

    const VkRenderingAttachmentInfo attachment = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageView = src_view,
        .imageLayout = VK_IMAGE_LAYOUT_GENERAL, /* every image's one layout (docs/textures.md) */
        .resolveMode = vk_resolve_mode(resolve->mode),
        .resolveImageView = dst_view,
        .resolveImageLayout = VK_IMAGE_LAYOUT_GENERAL,
        .loadOp = VK_ATTACHMENT_LOAD_OP_LOAD,
        .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
    };
    const VkRenderingInfo info = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
        .renderArea = {{resolve->src_rect.left, resolve->src_rect.top},
                {(uint32_t)(resolve->src_rect.right - resolve->src_rect.left), (uint32_t)(resolve->src_rect.bottom - resolve->src_rect.top)}},
        .layerCount = 1,
        .pDepthAttachment = aspect == VK_IMAGE_ASPECT_DEPTH_BIT ? &attachment : NULL,
        .pStencilAttachment = aspect == VK_IMAGE_ASPECT_STENCIL_BIT ? &attachment : NULL,
    };
    const VkImageSubresourceRange src_range = {aspect, mip, 1, layer, 1}, dst_range = {aspect, dst_mip, 1, dst_layer, 1};
    struct d3d12_recorded_range ranges[2] = {
        d3d12_recorded_texture_range(resolve->src, &src_range, false),
        d3d12_recorded_texture_range(resolve->dst, &dst_range, true),
    };

    d3d12_barriers_before(&list->barriers, list->vk_command_buffer, stages | VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
    d3d12_barriers_after_unordered(&list->barriers, list->vk_command_buffer, VK_ACCESS_2_MEMORY_WRITE_BIT, stages,
            VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    vkCmdBeginRendering(list->vk_command_buffer, &info);
    list->rendering_pass_count++;
    vkCmdEndRendering(list->vk_command_buffer);
    /* What reads the destination next (after a barrier naming the transfer stage) sees the resolve. */
    d3d12_barriers_emit(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
            VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, d3d12_command_list_work_stages(list),
            VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
    d3d12_command_list_note_with_ranges(list, command, D3D12_RECORDED_COPY, ranges, 2);
}

void d3d12_command_list_resolve(struct d3d12_command_list *list, const char *command, const struct d3d12_pass_resolve *resolve)
{
    const VkImageSubresourceLayers src_layers = subresource_layers(resolve->src, resolve->src_subresource);
    const VkImageSubresourceLayers dst_layers = subresource_layers(resolve->dst, resolve->dst_subresource);
    const VkOffset3D src_offset = {resolve->src_rect.left, resolve->src_rect.top, 0}, dst_offset = {(int32_t)resolve->dst_x, (int32_t)resolve->dst_y, 0};
    const VkExtent3D extent = {(uint32_t)(resolve->src_rect.right - resolve->src_rect.left), (uint32_t)(resolve->src_rect.bottom - resolve->src_rect.top), 1};
    const VkImageSubresourceRange src_range = {VK_IMAGE_ASPECT_COLOR_BIT, src_layers.mipLevel, 1, src_layers.baseArrayLayer, 1};
    const VkImageSubresourceRange dst_range = {VK_IMAGE_ASPECT_COLOR_BIT, dst_layers.mipLevel, 1, dst_layers.baseArrayLayer, 1};
    struct d3d12_transfer_layout layouts[2] = {
        {resolve->src->vk_image, src_range, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL},
        {resolve->dst->vk_image, dst_range, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL},
    };
    struct d3d12_recorded_range ranges[2] = {
        d3d12_recorded_texture_range(resolve->src, &src_range, false),
        d3d12_recorded_texture_range(resolve->dst, &dst_range, true),
    };

    /* A decompression in place: nothing is compressed. */
    if (resolve->src == resolve->dst && resolve->src_subresource == resolve->dst_subresource)
        return;
    if (resolve->pass_aspect) {
        d3d12_command_list_resolve_by_pass(list, command, resolve, resolve->pass_aspect);
        return;
    }
    if ((resolve->src->aspects & ~VK_IMAGE_ASPECT_COLOR_BIT) && resolve->mode != D3D12_RESOLVE_MODE_DECOMPRESS) {
        resolve_plane(list, command, resolve);
        return;
    }
    d3d12_barriers_before(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
    d3d12_barriers_transfer_layouts(&list->barriers, list->vk_command_buffer, layouts, 2);
    if (resolve->mode == D3D12_RESOLVE_MODE_DECOMPRESS) {
        const VkImageCopy region = {src_layers, src_offset, dst_layers, dst_offset, extent};
        vkCmdCopyImage(list->vk_command_buffer, resolve->src->vk_image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, resolve->dst->vk_image,
                VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    } else {
        const VkImageResolve region = {src_layers, src_offset, dst_layers, dst_offset, extent};
        vkCmdResolveImage(list->vk_command_buffer, resolve->src->vk_image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, resolve->dst->vk_image,
                VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    }
    d3d12_command_list_note_with_ranges(list, command, D3D12_RECORDED_COPY, ranges, 2);
}

/* A resolve under SetPredication's predicate is staged (d3d12_command_list_begin_predicated_write):
 * the destination subresource's plane. Without one, the resolve alone. */
static void resolve_predicated(struct d3d12_command_list *list, const char *command, const struct d3d12_pass_resolve *resolve)
{
    uint32_t mip, layer, plane;
    struct d3d12_predicated_write write;
    VkImageSubresourceRange range;

    /* the destination's plane: a depth plane may resolve into a colour image of its family */
    d3d12xs_texture_subresource(&resolve->dst->desc, resolve->dst_subresource, &mip, &layer, &plane);
    range = (VkImageSubresourceRange){d3d12_resolve_destination_aspect(resolve), mip, 1, layer, 1};
    write = d3d12_predicated_texture_write(resolve->dst, &range);
    if (!d3d12_command_list_begin_predicated_write(list, command, &write))
        return;
    d3d12_command_list_resolve(list, command, resolve);
    d3d12_command_list_end_predicated_write(list, command, &write);
}

void STDMETHODCALLTYPE d3d12_command_list_ResolveSubresource(ID3D12GraphicsCommandList10 *iface, ID3D12Resource *dst, UINT dst_subresource,
        ID3D12Resource *src, UINT src_subresource, DXGI_FORMAT format)
{
    static const char command[] = METHOD(ResolveSubresource);
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    struct d3d12_pass_resolve resolve;
    uint32_t dst_width, dst_height, depth, mip, layer, plane;

    if (!d3d12_command_list_check_recording(list, command) || !d3d12_command_list_outside_render_pass(list, command))
        return;
    /* The whole source subresource into the whole destination one: their sizes match, or the
     * region's check (within the destination) refuses it. */
    if (!d3d12_command_list_check_resolve(list, command, dst, dst_subresource, 0, 0, src, src_subresource, NULL, format,
            D3D12_RESOLVE_MODE_AVERAGE, &resolve))
        return;
    d3d12xs_texture_subresource(&resolve.dst->desc, dst_subresource, &mip, &layer, &plane);
    d3d12xs_texture_mip_extent(&resolve.dst->desc, mip, &dst_width, &dst_height, &depth);
    if ((uint32_t)resolve.src_rect.right != dst_width || (uint32_t)resolve.src_rect.bottom != dst_height) {
        d3d12_command_list_record_error(list, command, "the source subresource is %ldx%ld and the destination %ux%u (they must match)",
                (long)resolve.src_rect.right, (long)resolve.src_rect.bottom, dst_width, dst_height);
        return;
    }
    resolve_predicated(list, command, &resolve);
}

void STDMETHODCALLTYPE d3d12_command_list_ResolveSubresourceRegion(ID3D12GraphicsCommandList10 *iface, ID3D12Resource *dst, UINT dst_subresource,
        UINT dst_x, UINT dst_y, ID3D12Resource *src, UINT src_subresource, D3D12_RECT *src_rect, DXGI_FORMAT format, D3D12_RESOLVE_MODE mode)
{
    static const char command[] = "ID3D12GraphicsCommandList1::ResolveSubresourceRegion";
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    struct d3d12_pass_resolve resolve;

    if (!d3d12_command_list_check_recording(list, command) || !d3d12_command_list_outside_render_pass(list, command))
        return;
    if (d3d12_command_list_check_resolve(list, command, dst, dst_subresource, dst_x, dst_y, src, src_subresource, src_rect, format, mode,
            &resolve))
        resolve_predicated(list, command, &resolve);
}
