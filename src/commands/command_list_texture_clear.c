/* Clears of render target and depth stencil views (UAV clears are command_list_uav_clear.c's).
 * ClearRenderTargetView and ClearDepthStencilView render: where the view is an attachment of the
 * rendering pass draws left open, vkCmdClearAttachments inside it (no pass break); otherwise one
 * dynamic-rendering pass over the view (in the view's own format, every sample of a multisampled
 * one) that clears it on load, or clears its rectangles as attachments. */
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

/* The stages a target clear touches the view in, which a barrier into RENDER_TARGET or
 * DEPTH_WRITE waits in (commands/resource_states.c): a colour load, clear and store in the colour
 * output stage; a depth-stencil load or clear in the early fragment tests, its store in the late.
 * vkCmdClearAttachments inside a pass writes in the same stages, in rasterization order with the
 * pass's draws, so a draw, a clear and a draw of one attachment need no barrier between them. */
static VkPipelineStageFlags2 clear_stages(bool color)
{
    return color ? VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT
            : VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT;
}

/* Records the clear into the rendering pass open in the command buffer, when the view is one of
 * its attachments (the same VkImageView: views are made once per resource and subresource range
 * and format, so the same image, mip, slices, format and aspects) and the pass reaches the
 * rectangles and the view's slices; false, with nothing recorded, otherwise (the clear then ends
 * the pass and renders its own). A multiview pass (view instancing) clears the slices of its
 * views (each rectangle then names layer 0 of one layer): in one only where they are every slice
 * of the view. Transform feedback may be active in the pass: such a clear renders its own. */
/* Rectangles a clear inside a multiview pass rewrites on the stack (more render their own pass). */
#define MULTIVIEW_CLEAR_RECTS 8

static bool clear_in_open_pass(struct d3d12_command_list *list, const struct d3d12xs_descriptor *descriptor, VkImageAspectFlags aspects,
        const VkClearValue *value, const VkClearRect *rects, uint32_t rect_count)
{
    const struct d3d12_graphics_bindings *graphics = &list->bindings.graphics;
    const struct d3d12_rendering_key *key = &graphics->rendering_key;
    VkClearAttachment attachments[D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT];
    VkClearRect view_rects[MULTIVIEW_CLEAR_RECTS];
    bool color = descriptor->kind == D3D12XS_DESCRIPTOR_RTV;
    uint32_t attachment_count = 0;

    if (!graphics->rendering || graphics->rendering_in != list->vk_command_buffer || graphics->xfb_active || !descriptor->image_view
            || descriptor->image_range.layerCount > key->layers)
        return false;
    if (key->view_mask) {
        /* the views' slices must be the view's (multiview renders view i into its slice i) */
        if (descriptor->image_range.layerCount >= 32 || key->view_mask != (1u << descriptor->image_range.layerCount) - 1
                || rect_count > MULTIVIEW_CLEAR_RECTS)
            return false;
        for (uint32_t i = 0; i < rect_count; i++)
            view_rects[i] = (VkClearRect){rects[i].rect, 0, 1};
        rects = view_rects;
    }
    /* vkCmdClearAttachments clears inside the render area only: a clear that reaches past it (a
     * smaller attachment beside the view) renders its own pass */
    for (uint32_t i = 0; i < rect_count; i++) {
        const VkRect2D *rect = &rects[i].rect;
        if (rect->offset.x < key->area.offset.x || rect->offset.y < key->area.offset.y
                || rect->offset.x + rect->extent.width > key->area.offset.x + key->area.extent.width
                || rect->offset.y + rect->extent.height > key->area.offset.y + key->area.extent.height)
            return false;
    }
    if (color) {
        for (uint32_t i = 0; i < key->color_count; i++) {
            if (key->colors[i] == descriptor->image_view)
                attachments[attachment_count++] = (VkClearAttachment){VK_IMAGE_ASPECT_COLOR_BIT, i, *value};
        }
    } else if (key->depth_stencil == descriptor->image_view && !(aspects & ~key->depth_stencil_aspects)) {
        attachments[attachment_count++] = (VkClearAttachment){aspects, 0, *value};
    }
    /* a barrier cannot stand inside the pass: one the clear waits for ends it first */
    if (!attachment_count || d3d12_barriers_pending(&list->barriers, clear_stages(color)))
        return false;
    d3d12_barriers_before(&list->barriers, list->vk_command_buffer, clear_stages(color));
    d3d12_command_list_begin_predicated(list);
    vkCmdClearAttachments(list->vk_command_buffer, attachment_count, attachments, rect_count, rects);
    d3d12_command_list_end_predicated(list);
    return true;
}

/* Renders the clear in a pass of its own over the view: the aspects in `aspects` (COLOR, or DEPTH
 * and STENCIL) of the whole view cleared on load, or of its rectangles cleared as attachments; the
 * others kept. */
static void clear_by_rendering(struct d3d12_command_list *list, const struct d3d12xs_descriptor *descriptor, VkImageAspectFlags aspects,
        const VkClearValue *value, bool whole, const VkClearRect *rects, uint32_t rect_count, VkExtent2D extent)
{
    bool color = descriptor->kind == D3D12XS_DESCRIPTOR_RTV;
    VkImageAspectFlags view_aspects = descriptor->image_range.aspectMask;
    /* Predicated (SetPredication): conditional rendering covers attachment clears, not load ops. */
    bool on_load = whole && !list->predication.active;

    VkRenderingAttachmentInfo attachments[3];
    for (int i = 0; i < 3; i++) {
        static const VkImageAspectFlags attachment_aspects[3] = {VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_ASPECT_STENCIL_BIT};
        attachments[i] = (VkRenderingAttachmentInfo){
            .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
            .imageView = descriptor->image_view,
            .imageLayout = VK_IMAGE_LAYOUT_GENERAL, /* every image's one layout (docs/textures.md) */
            .loadOp = on_load && (aspects & attachment_aspects[i]) ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD,
            .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
            .clearValue = *value,
        };
    }
    VkRenderingInfo rendering = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
        .renderArea = {{0, 0}, extent},
        .layerCount = descriptor->image_range.layerCount,
        .colorAttachmentCount = color ? 1 : 0,
        .pColorAttachments = color ? &attachments[0] : NULL,
        .pDepthAttachment = view_aspects & VK_IMAGE_ASPECT_DEPTH_BIT ? &attachments[1] : NULL,
        .pStencilAttachment = view_aspects & VK_IMAGE_ASPECT_STENCIL_BIT ? &attachments[2] : NULL,
    };
    d3d12_command_list_end_rendering(list);
    d3d12_barriers_before(&list->barriers, list->vk_command_buffer, clear_stages(color));
    vkCmdBeginRendering(list->vk_command_buffer, &rendering);
    list->rendering_pass_count++;
    if (!on_load) {
        VkClearAttachment clear = {aspects, 0, *value};
        d3d12_command_list_begin_predicated(list);
        vkCmdClearAttachments(list->vk_command_buffer, 1, &clear, rect_count, rects);
        d3d12_command_list_end_predicated(list);
    }
    vkCmdEndRendering(list->vk_command_buffer);
}

/* The clear of the RTV or DSV `descriptor`: its whole view (rect_count 0) or its rectangles
 * clipped to the view, inside the open rendering pass where the view is its attachment, else in a
 * pass of its own. */
static void clear_target(struct d3d12_command_list *list, const char *command, const struct d3d12xs_descriptor *descriptor,
        VkImageAspectFlags aspects, const VkClearValue *value, UINT rect_count, const D3D12_RECT *rects)
{
    VkRect2D stack_clipped[8], *clipped = stack_clipped;
    VkClearRect stack_clear_rects[8], *clear_rects = stack_clear_rects;
    uint32_t width, height, depth, clipped_count;
    VkExtent2D largest;

    d3d12xs_texture_mip_extent(&descriptor->resource->desc, descriptor->image_range.baseMipLevel, &width, &height, &depth);
    if (!rect_count) {
        clipped[0] = (VkRect2D){{0, 0}, {width, height}};
        clipped_count = 1;
    } else {
        if (rect_count > 8 && (!(clipped = malloc(rect_count * sizeof(*clipped))) || !(clear_rects = malloc(rect_count * sizeof(*clear_rects))))) {
            d3d12_command_list_record_error(list, command, "out of memory for %u rectangles", rect_count);
            goto done;
        }
        clipped_count = d3d12_command_list_clip_rects(rects, rect_count, width, height, clipped, &largest);
    }
    /* every rectangle lies outside the view: nothing to clear or note */
    if (!clipped_count)
        goto done;
    for (uint32_t i = 0; i < clipped_count; i++)
        clear_rects[i] = (VkClearRect){clipped[i], 0, descriptor->image_range.layerCount};

    if (!clear_in_open_pass(list, descriptor, aspects, value, clear_rects, clipped_count))
        clear_by_rendering(list, descriptor, aspects, value, !rect_count, clear_rects, clipped_count, (VkExtent2D){width, height});
    const struct d3d12_recorded_range written = d3d12_recorded_texture_range(descriptor->resource, &descriptor->image_range, true);
    d3d12_command_list_note_with_ranges(list, command, D3D12_RECORDED_CLEAR_RENDER_TARGET, &written, 1);
done:
    if (clipped != stack_clipped)
        free(clipped);
    if (clear_rects != stack_clear_rects)
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
    /* The open rendering pass stays open: the clear may go inside it (clear_target) */
    if (!d3d12_command_list_check_recording_in_pass(list, command) || !d3d12_command_list_outside_render_pass(list, command))
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
    clear_target(list, command, descriptor, VK_IMAGE_ASPECT_COLOR_BIT, &value, rect_count, rects);
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
    clear_target(list, command, descriptor, aspects, &value, rect_count, rects);
}
