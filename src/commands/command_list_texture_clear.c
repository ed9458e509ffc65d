/* Clears of render target and depth stencil views (UAV clears are command_list_uav_clear.c's).
 * ClearRenderTargetView and ClearDepthStencilView render: one dynamic-rendering pass over the view (in the view's own
 * format, every sample of a multisampled one) that clears it on load, or clears its rectangles
 * as attachments. */
#include <stdlib.h>
#include <string.h>

#include "command_recording.h"
#include "memory/texture_layout.h"

bool d3d12_command_list_integer_format(DXGI_FORMAT format, bool *is_signed)
{
    *is_signed = false;
    switch (format) {
    case DXGI_FORMAT_R32G32B32A32_SINT: case DXGI_FORMAT_R32G32B32_SINT: case DXGI_FORMAT_R16G16B16A16_SINT: case DXGI_FORMAT_R32G32_SINT:
    case DXGI_FORMAT_R8G8B8A8_SINT: case DXGI_FORMAT_R16G16_SINT: case DXGI_FORMAT_R32_SINT: case DXGI_FORMAT_R8G8_SINT:
    case DXGI_FORMAT_R16_SINT: case DXGI_FORMAT_R8_SINT:
        *is_signed = true;
        return true;
    case DXGI_FORMAT_R32G32B32A32_UINT: case DXGI_FORMAT_R32G32B32_UINT: case DXGI_FORMAT_R16G16B16A16_UINT: case DXGI_FORMAT_R32G32_UINT:
    case DXGI_FORMAT_R10G10B10A2_UINT: case DXGI_FORMAT_R8G8B8A8_UINT: case DXGI_FORMAT_R16G16_UINT: case DXGI_FORMAT_R32_UINT:
    case DXGI_FORMAT_R8G8_UINT: case DXGI_FORMAT_R16_UINT: case DXGI_FORMAT_R8_UINT:
        return true;
    default:
        return false;
    }
}

VkClearColorValue d3d12_command_list_clear_color(DXGI_FORMAT format, const float color[4])
{
    VkClearColorValue value;
    bool is_signed;

    memset(&value, 0, sizeof(value));
    /* D3D12 converts the floats to the view's format: integer formats take them as integers */
    if (d3d12_command_list_integer_format(format, &is_signed)) {
        for (int i = 0; i < 4; i++) {
            if (is_signed)
                value.int32[i] = (int32_t)color[i];
            else
                value.uint32[i] = color[i] <= 0.0f ? 0 : (uint32_t)color[i];
        }
    } else {
        memcpy(value.float32, color, sizeof(value.float32));
    }
    /* A8 stored as R8 (dxgi_format.h): the texel takes the colour's alpha */
    if (d3d12xs_format(format) && d3d12xs_format(format)->alpha_in_red)
        value.float32[0] = color[3];
    return value;
}

uint32_t d3d12_command_list_clip_rects(const D3D12_RECT *rects, UINT rect_count, uint32_t width, uint32_t height, VkRect2D *clipped, VkExtent2D *extent)
{
    uint32_t count = 0;

    *extent = (VkExtent2D){0, 0};
    for (UINT i = 0; i < rect_count; i++) {
        LONG left = rects[i].left < 0 ? 0 : rects[i].left, top = rects[i].top < 0 ? 0 : rects[i].top;
        LONG right = rects[i].right > (LONG)width ? (LONG)width : rects[i].right;
        LONG bottom = rects[i].bottom > (LONG)height ? (LONG)height : rects[i].bottom;
        if (left >= right || top >= bottom)
            continue;
        clipped[count] = (VkRect2D){{left, top}, {(uint32_t)(right - left), (uint32_t)(bottom - top)}};
        if (clipped[count].extent.width > extent->width)
            extent->width = clipped[count].extent.width;
        if (clipped[count].extent.height > extent->height)
            extent->height = clipped[count].extent.height;
        count++;
    }
    return count;
}

/* Renders the clear of the RTV or DSV `descriptor`: the aspects in `aspects` (COLOR, or DEPTH and
 * STENCIL) of the whole view cleared on load, or of its rectangles (clipped to the view) cleared
 * as attachments; the others kept. */
static void clear_by_rendering(struct d3d12_command_list *list, const char *command, const struct d3d12xs_descriptor *descriptor,
        VkImageAspectFlags aspects, const VkClearValue *value, UINT rect_count, const D3D12_RECT *rects)
{
    bool color = descriptor->kind == D3D12XS_DESCRIPTOR_RTV;
    VkImageAspectFlags view_aspects = descriptor->image_range.aspectMask;
    uint32_t width, height, depth, clipped_count = 0;
    VkClearRect *clear_rects = NULL;
    VkRect2D *clipped = NULL;
    VkExtent2D largest;
    D3D12_RECT whole;

    d3d12xs_texture_mip_extent(&descriptor->resource->desc, descriptor->image_range.baseMipLevel, &width, &height, &depth);
    /* Predicated (SetPredication): conditional rendering covers attachment clears, not load ops. */
    if (list->predication.active && !rect_count) {
        whole = (D3D12_RECT){0, 0, (LONG)width, (LONG)height};
        rect_count = 1;
        rects = &whole;
    }
    if (rect_count) {
        if (!(clipped = malloc(rect_count * sizeof(*clipped))) || !(clear_rects = malloc(rect_count * sizeof(*clear_rects)))) {
            d3d12_command_list_record_error(list, command, "out of memory for %u rectangles", rect_count);
            goto done;
        }
        if (!(clipped_count = d3d12_command_list_clip_rects(rects, rect_count, width, height, clipped, &largest)))
            goto done; /* every rectangle lies outside the view */
        for (uint32_t i = 0; i < clipped_count; i++)
            clear_rects[i] = (VkClearRect){clipped[i], 0, descriptor->image_range.layerCount};
    }

    VkRenderingAttachmentInfo attachments[3];
    for (int i = 0; i < 3; i++) {
        static const VkImageAspectFlags attachment_aspects[3] = {VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_ASPECT_STENCIL_BIT};
        attachments[i] = (VkRenderingAttachmentInfo){
            .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
            .imageView = descriptor->image_view,
            .imageLayout = VK_IMAGE_LAYOUT_GENERAL, /* every image's one layout (docs/textures.md) */
            .loadOp = !rect_count && (aspects & attachment_aspects[i]) ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD,
            .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
            .clearValue = *value,
        };
    }
    VkRenderingInfo rendering = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
        .renderArea = {{0, 0}, {width, height}},
        .layerCount = descriptor->image_range.layerCount,
        .colorAttachmentCount = color ? 1 : 0,
        .pColorAttachments = color ? &attachments[0] : NULL,
        .pDepthAttachment = view_aspects & VK_IMAGE_ASPECT_DEPTH_BIT ? &attachments[1] : NULL,
        .pStencilAttachment = view_aspects & VK_IMAGE_ASPECT_STENCIL_BIT ? &attachments[2] : NULL,
    };
    const struct d3d12_recorded_range written = d3d12_recorded_texture_range(descriptor->resource, &descriptor->image_range, true);
    /* The stages the pass touches the view in, which a barrier into RENDER_TARGET or DEPTH_WRITE
     * waits in (commands/resource_states.c): a colour load, clear and store in the colour output
     * stage; a depth-stencil load or clear in the early fragment tests, its store in the late. */
    d3d12_barriers_before(&list->barriers, list->vk_command_buffer, color ? VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT
            : VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT);
    vkCmdBeginRendering(list->vk_command_buffer, &rendering);
    if (clipped_count) {
        VkClearAttachment clear = {aspects, 0, *value};
        d3d12_command_list_begin_predicated(list);
        vkCmdClearAttachments(list->vk_command_buffer, 1, &clear, clipped_count, clear_rects);
        d3d12_command_list_end_predicated(list);
    }
    vkCmdEndRendering(list->vk_command_buffer);
    d3d12_command_list_note_with_ranges(list, command, D3D12_RECORDED_CLEAR_RENDER_TARGET, &written, 1);
done:
    free(clipped);
    free(clear_rects);
}

/* The view a target clear names: in a heap of `type`, written as `kind`; NULL after the error. */
static const struct d3d12xs_descriptor *target_view(struct d3d12_command_list *list, const char *command, D3D12_CPU_DESCRIPTOR_HANDLE view,
        D3D12_DESCRIPTOR_HEAP_TYPE type, enum d3d12xs_descriptor_kind kind, const char *argument)
{
    const struct d3d12xs_descriptor *descriptor;
    const char *reason;

    if (!(descriptor = d3d12xs_descriptor_lookup(list->object.device, view, 1, type, &reason, NULL))) {
        d3d12_command_list_record_error(list, command, "%s 0x%zx is %s", argument, (size_t)view.ptr, reason);
        return NULL;
    }
    if (descriptor->kind != kind) {
        d3d12_command_list_record_error(list, command, "%s 0x%zx was never written (Create%sView)", argument, (size_t)view.ptr,
                kind == D3D12XS_DESCRIPTOR_RTV ? "RenderTarget" : "DepthStencil");
        return NULL;
    }
    return descriptor;
}

/* The checks both target clears start with: a DIRECT list that records, rectangles given. */
static bool target_clear_list(struct d3d12_command_list *list, const char *command, UINT rect_count, const D3D12_RECT *rects)
{
    if (!d3d12_command_list_check_recording(list, command) || !d3d12_command_list_outside_render_pass(list, command))
        return false;
    if (list->type != D3D12_COMMAND_LIST_TYPE_DIRECT) {
        d3d12_command_list_record_error(list, command, "only DIRECT lists clear render targets and depth buffers");
        return false;
    }
    if (rect_count && !rects) {
        d3d12_command_list_record_error(list, command, "NumRects is %u but pRects is NULL", rect_count);
        return false;
    }
    return true;
}

void STDMETHODCALLTYPE d3d12_command_list_ClearRenderTargetView(ID3D12GraphicsCommandList10 *iface, D3D12_CPU_DESCRIPTOR_HANDLE view,
        const FLOAT color[4], UINT rect_count, const D3D12_RECT *rects)
{
    static const char command[] = "ID3D12GraphicsCommandList::ClearRenderTargetView";
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    const struct d3d12xs_descriptor *descriptor;
    VkClearValue value = {0};

    if (!target_clear_list(list, command, rect_count, rects))
        return;
    if (!color) {
        d3d12_command_list_record_error(list, command, "ColorRGBA is NULL");
        return;
    }
    if (!(descriptor = target_view(list, command, view, D3D12_DESCRIPTOR_HEAP_TYPE_RTV, D3D12XS_DESCRIPTOR_RTV, "RenderTargetView")))
        return;
    value.color = d3d12_command_list_clear_color(descriptor->format ? descriptor->format : descriptor->resource->desc.Format, color);
    clear_by_rendering(list, command, descriptor, VK_IMAGE_ASPECT_COLOR_BIT, &value, rect_count, rects);
}

void STDMETHODCALLTYPE d3d12_command_list_ClearDepthStencilView(ID3D12GraphicsCommandList10 *iface, D3D12_CPU_DESCRIPTOR_HANDLE view,
        D3D12_CLEAR_FLAGS flags, FLOAT depth, UINT8 stencil, UINT rect_count, const D3D12_RECT *rects)
{
    static const char command[] = "ID3D12GraphicsCommandList::ClearDepthStencilView";
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    const struct d3d12xs_descriptor *descriptor;
    VkImageAspectFlags aspects = 0;
    VkClearValue value = {.depthStencil = {depth, stencil}};

    if (!target_clear_list(list, command, rect_count, rects))
        return;
    if (!flags || (flags & ~(D3D12_CLEAR_FLAG_DEPTH | D3D12_CLEAR_FLAG_STENCIL))) {
        d3d12_command_list_record_error(list, command, "ClearFlags is 0x%x (DEPTH, STENCIL or both)", flags);
        return;
    }
    if ((flags & D3D12_CLEAR_FLAG_DEPTH) && !(depth >= 0.0f && depth <= 1.0f)) {
        d3d12_command_list_record_error(list, command, "Depth is %g (must be within [0, 1])", depth);
        return;
    }
    if (!(descriptor = target_view(list, command, view, D3D12_DESCRIPTOR_HEAP_TYPE_DSV, D3D12XS_DESCRIPTOR_DSV, "DepthStencilView")))
        return;
    if (flags & D3D12_CLEAR_FLAG_DEPTH)
        aspects |= VK_IMAGE_ASPECT_DEPTH_BIT;
    if (flags & D3D12_CLEAR_FLAG_STENCIL)
        aspects |= VK_IMAGE_ASPECT_STENCIL_BIT;
    if (aspects & ~descriptor->image_range.aspectMask) {
        d3d12_command_list_record_error(list, command, "ClearFlags asks for STENCIL, but the view's format %d has no stencil", (int)descriptor->format);
        return;
    }
    if (((flags & D3D12_CLEAR_FLAG_DEPTH) && (descriptor->dsv_flags & D3D12_DSV_FLAG_READ_ONLY_DEPTH))
            || ((flags & D3D12_CLEAR_FLAG_STENCIL) && (descriptor->dsv_flags & D3D12_DSV_FLAG_READ_ONLY_STENCIL))) {
        d3d12_command_list_record_error(list, command, "ClearFlags 0x%x clears a plane the view made read-only (its Flags 0x%x)", flags,
                descriptor->dsv_flags);
        return;
    }
    clear_by_rendering(list, command, descriptor, aspects, &value, rect_count, rects);
}
