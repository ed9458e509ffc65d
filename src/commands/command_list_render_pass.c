/* Render targets and rendering passes: OMSetRenderTargets reads the views (both descriptor
 * forms), and a draw begins a dynamic-rendering pass over them when none that fits is open. The
 * pass stays open across draws and the calls that only set state, and ends before anything else
 * (d3d12_command_list_check_recording, segment cuts, internal work, Close:
 * d3d12_command_list_end_rendering in command_recording.c). Images stay in GENERAL, which dynamic
 * rendering takes, so passes need no layout transitions; attachments load and store, so what a
 * target holds carries across passes, segment cuts and mid-list waits. D3D12's own render passes
 * (BeginRenderPass, EndRenderPass, at the end of the file) open such a pass with their beginning
 * accesses as load ops and resolve at their end (docs/graphics.md, "Render passes"). */
#include <stdio.h>
#include <string.h>

#include "command_recording.h"
#include "commands/command_list_graphics.h"
#include "memory/texture_layout.h"
#include "pipelines/graphics_pipeline.h"

#define METHOD(name) "ID3D12GraphicsCommandList::" #name

/* A view as the list keeps it: D3D12 reads the descriptor at the call. */
static void bind_target(struct d3d12_bound_target *target, const struct d3d12xs_descriptor *descriptor)
{
    uint32_t width = 0, height = 0, depth = 0;

    memset(target, 0, sizeof(*target));
    if (descriptor->null_view || !descriptor->resource)
        return;
    d3d12xs_texture_mip_extent(&descriptor->resource->desc, descriptor->image_range.baseMipLevel, &width, &height, &depth);
    target->view = descriptor->image_view;
    target->format = descriptor->vk_format;
    target->range = descriptor->image_range;
    target->extent = (VkExtent2D){width, height};
    target->samples = (VkSampleCountFlagBits)(descriptor->resource->desc.SampleDesc.Count ? descriptor->resource->desc.SampleDesc.Count : 1);
    target->resource = descriptor->resource;
    target->dsv_flags = descriptor->dsv_flags;
}

static const struct d3d12xs_descriptor *target_descriptor(struct d3d12_command_list *list, const char *command, D3D12_CPU_DESCRIPTOR_HANDLE handle,
        UINT count, D3D12_DESCRIPTOR_HEAP_TYPE type, const char *argument)
{
    const struct d3d12xs_descriptor *descriptor;
    const char *reason;

    if (!(descriptor = d3d12xs_descriptor_lookup(list->object.device, handle, count, type, &reason, NULL))) {
        d3d12_command_list_record_error(list, command, "%s 0x%zx is %s", argument, (size_t)handle.ptr, reason);
        return NULL;
    }
    return descriptor;
}

void STDMETHODCALLTYPE d3d12_command_list_OMSetRenderTargets(ID3D12GraphicsCommandList10 *iface, UINT count,
        const D3D12_CPU_DESCRIPTOR_HANDLE *rtvs, BOOL single_range, const D3D12_CPU_DESCRIPTOR_HANDLE *dsv)
{
    static const char command[] = METHOD(OMSetRenderTargets);
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    struct d3d12_graphics_bindings *graphics = &list->bindings.graphics;
    struct d3d12_bound_target targets[D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT], depth_stencil;
    const struct d3d12xs_descriptor *range = NULL, *descriptor;
    char argument[48];

    if (!d3d12_command_list_check_recording_in_pass(list, command) || !d3d12_command_list_outside_render_pass(list, command))
        return;
    if (list->type != D3D12_COMMAND_LIST_TYPE_DIRECT) {
        d3d12_command_list_record_error(list, command, "only DIRECT lists render (this is a %s list)",
                list->type == D3D12_COMMAND_LIST_TYPE_COMPUTE ? "COMPUTE" : list->type == D3D12_COMMAND_LIST_TYPE_COPY ? "COPY" : "BUNDLE");
        return;
    }
    if (count > D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT) {
        d3d12_command_list_record_error(list, command, "NumRenderTargetDescriptors is %u (at most %u)", count,
                D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT);
        return;
    }
    if (count && !rtvs) {
        d3d12_command_list_record_error(list, command, "pRenderTargetDescriptors is NULL with NumRenderTargetDescriptors %u", count);
        return;
    }
    /* One handle to count consecutive descriptors of one heap, or count handles. */
    if (count && single_range && !(range = target_descriptor(list, command, rtvs[0], count, D3D12_DESCRIPTOR_HEAP_TYPE_RTV,
            "pRenderTargetDescriptors[0] (a range)")))
        return;
    for (UINT i = 0; i < count; i++) {
        snprintf(argument, sizeof(argument), "pRenderTargetDescriptors[%u]", i);
        if (!(descriptor = range ? range + i : target_descriptor(list, command, rtvs[i], 1, D3D12_DESCRIPTOR_HEAP_TYPE_RTV, argument)))
            return;
        if (descriptor->kind != D3D12XS_DESCRIPTOR_RTV) {
            d3d12_command_list_record_error(list, command, "render target %u was never written (CreateRenderTargetView)", i);
            return;
        }
        bind_target(&targets[i], descriptor);
    }
    memset(&depth_stencil, 0, sizeof(depth_stencil));
    if (dsv) {
        if (!(descriptor = target_descriptor(list, command, *dsv, 1, D3D12_DESCRIPTOR_HEAP_TYPE_DSV, "pDepthStencilDescriptor")))
            return;
        if (descriptor->kind != D3D12XS_DESCRIPTOR_DSV) {
            d3d12_command_list_record_error(list, command, "pDepthStencilDescriptor was never written (CreateDepthStencilView)");
            return;
        }
        bind_target(&depth_stencil, descriptor);
    }
    /* The open pass, if any, ends at the next draw when these are not its targets. */
    graphics->rendering_checked_for = NULL;
    graphics->rt_count = count;
    memcpy(graphics->rts, targets, count * sizeof(*targets));
    graphics->has_depth_stencil = dsv != NULL;
    graphics->depth_stencil = depth_stencil;
}

/* Whether a view of `format` and samples may stand where the pipeline renders `pipeline_format`. */
static bool target_fits(const struct d3d12_bound_target *target, VkFormat pipeline_format, VkSampleCountFlagBits samples)
{
    return target->format == pipeline_format && target->samples == samples;
}

/* The pass the pipeline draws into with the list's targets; false (after the debug layer's
 * warning: D3D12 leaves it undefined) where a bound target's format or sample count is not the
 * pipeline's. */
static bool rendering_key(struct d3d12_command_list *list, const struct d3d12_graphics_pipeline *pipeline, const char *command,
        struct d3d12_rendering_key *key)
{
    const struct d3d12_graphics_bindings *graphics = &list->bindings.graphics;
    const VkPhysicalDeviceLimits *limits = &list->object.device->vk_properties.limits;
    uint32_t width = limits->maxFramebufferWidth, height = limits->maxFramebufferHeight, layers = UINT32_MAX;
    bool attached = false;

    memset(key, 0, sizeof(*key));
    key->color_count = pipeline->rt_count;
    for (uint32_t i = 0; i < pipeline->rt_count; i++) {
        const struct d3d12_bound_target *target = i < graphics->rt_count ? &graphics->rts[i] : NULL;
        /* UNKNOWN in the pipeline, or no view bound: nothing is written there */
        if (!pipeline->rt_formats[i] || !target || !target->view)
            continue;
        if (!target_fits(target, pipeline->rt_formats[i], pipeline->samples)) {
            d3d12_command_list_debug_warn(list, command, "render target %u (Vulkan format %d, %u samples) is not what the pipeline renders "
                    "(RTVFormats[%u] %d, %u samples): the draw is skipped", i, (int)target->format, (unsigned)target->samples, i,
                    (int)pipeline->rtv_formats[i], (unsigned)pipeline->samples);
            return false;
        }
        key->colors[i] = target->view;
        width = target->extent.width < width ? target->extent.width : width;
        height = target->extent.height < height ? target->extent.height : height;
        layers = target->range.layerCount < layers ? target->range.layerCount : layers;
        attached = true;
    }
    if (pipeline->depth_stencil_format && graphics->has_depth_stencil && graphics->depth_stencil.view) {
        const struct d3d12_bound_target *target = &graphics->depth_stencil;
        if (!target_fits(target, pipeline->depth_stencil_format, pipeline->samples)) {
            d3d12_command_list_debug_warn(list, command, "the depth-stencil view (Vulkan format %d, %u samples) is not what the pipeline "
                    "renders (DSVFormat %d, %u samples): the draw is skipped", (int)target->format, (unsigned)target->samples,
                    (int)pipeline->dsv_format, (unsigned)pipeline->samples);
            return false;
        }
        key->depth_stencil = target->view;
        key->depth_stencil_aspects = target->range.aspectMask;
        width = target->extent.width < width ? target->extent.width : width;
        height = target->extent.height < height ? target->extent.height : height;
        layers = target->range.layerCount < layers ? target->range.layerCount : layers;
        attached = true;
    }
    /* Without attachments (UAV-only rendering) the viewports and scissors bound the draw. */
    key->area = (VkRect2D){{0, 0}, {width, height}};
    key->layers = attached ? layers : 1;
    /* View instancing as multiview: view i renders into array slice i of each target, which must
     * have it. Views drawn one by one write Layer themselves (0 where past the pass's slices, as
     * D3D12 says): a layered pass without a view mask. */
    key->view_mask = pipeline->views_apart ? 0 : d3d12_command_list_view_mask(list, pipeline);
    if (key->view_mask && attached && layers < 32u - (uint32_t)__builtin_clz(key->view_mask)) {
        d3d12_command_list_debug_warn(list, command, "the pipeline renders views up to %u (view instancing), but a bound target has %u "
                "array slices: the draw is skipped", 31u - (uint32_t)__builtin_clz(key->view_mask), layers);
        return false;
    }
    return true;
}

static void begin_rendering(struct d3d12_command_list *list, const struct d3d12_rendering_key *key, const char *command)
{
    struct d3d12_graphics_bindings *graphics = &list->bindings.graphics;
    VkRenderingAttachmentInfo colors[D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT], depth, stencil;
    const VkRenderingAttachmentInfo attachment = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageLayout = VK_IMAGE_LAYOUT_GENERAL, /* every image's one layout (docs/textures.md) */
        .loadOp = VK_ATTACHMENT_LOAD_OP_LOAD,
        .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
    };

    for (uint32_t i = 0; i < key->color_count; i++) {
        colors[i] = attachment;
        colors[i].imageView = key->colors[i];
    }
    depth = stencil = attachment;
    depth.imageView = stencil.imageView = key->depth_stencil;
    const VkRenderingInfo info = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
        .renderArea = key->area,
        .layerCount = key->layers, /* with a view mask, multiview's views stand for layers */
        .viewMask = key->view_mask,
        .colorAttachmentCount = key->color_count,
        .pColorAttachments = colors,
        .pDepthAttachment = key->depth_stencil_aspects & VK_IMAGE_ASPECT_DEPTH_BIT ? &depth : NULL,
        .pStencilAttachment = key->depth_stencil_aspects & VK_IMAGE_ASPECT_STENCIL_BIT ? &stencil : NULL,
    };
    /* Vulkan counts a multiview pass in per-view queries begun inside it: the open queries
     * go on in those (command_list_query_views.c). */
    if (key->view_mask && list->open_query_count)
        d3d12_command_list_queries_before_views_pass(list, key->view_mask, command);
    vkCmdBeginRendering(list->vk_command_buffer, &info);
    list->view_mask_kept = false;
    if (list->queries_in_views_pass)
        d3d12_command_list_queries_begin_in_views_pass(list);
    list->rendering_pass_count++;
    graphics->rendering = true;
    graphics->rendering_in = list->vk_command_buffer;
    graphics->rendering_key = *key;
}

/* Whether pipeline renders what the last checked one did: the same attachment formats, samples
 * and views (view-instance masking takes its views from the list, and views drawn one by one
 * render without a view mask whatever their views: never the same). */
static bool renders_as_checked(const struct d3d12_graphics_bindings *graphics, const struct d3d12_graphics_pipeline *pipeline)
{
    const __typeof__(graphics->rendering_checked_formats) *checked = &graphics->rendering_checked_formats;
    return graphics->rendering_checked_for && !pipeline->view_masking && !pipeline->views_apart && checked->rt_count == pipeline->rt_count
            && checked->view_mask == pipeline->view_mask && checked->depth_stencil_format == pipeline->depth_stencil_format
            && checked->samples == pipeline->samples && !memcmp(checked->rt_formats, pipeline->rt_formats, sizeof(checked->rt_formats));
}

static void note_checked(struct d3d12_graphics_bindings *graphics, const struct d3d12_graphics_pipeline *pipeline)
{
    graphics->rendering_checked_for = pipeline;
    graphics->rendering_checked_formats.rt_count = pipeline->view_masking || pipeline->views_apart ? UINT32_MAX : pipeline->rt_count;
    graphics->rendering_checked_formats.view_mask = pipeline->view_mask;
    graphics->rendering_checked_formats.depth_stencil_format = pipeline->depth_stencil_format;
    graphics->rendering_checked_formats.samples = pipeline->samples;
    memcpy(graphics->rendering_checked_formats.rt_formats, pipeline->rt_formats, sizeof(pipeline->rt_formats));
}

bool d3d12_command_list_prepare_rendering(struct d3d12_command_list *list, const struct d3d12_graphics_pipeline *pipeline, const char *command)
{
    struct d3d12_graphics_bindings *graphics = &list->bindings.graphics;
    const VkPipelineStageFlags2 stages = graphics->draw_stages;
    struct d3d12_rendering_key key;

    /* The common case: another draw with the pipeline into the open pass, no barrier waiting. */
    if (__builtin_expect(graphics->rendering && graphics->rendering_checked_for == pipeline && graphics->rendering_in == list->vk_command_buffer
            && d3d12_barriers_before_nothing_waits(&list->barriers, stages, graphics->draw_tracked_stages), 1))
        return true;
    /* A pipeline change within the pass to one that renders the same attachments */
    if (graphics->rendering && graphics->rendering_in == list->vk_command_buffer && renders_as_checked(graphics, pipeline)
            && d3d12_barriers_before_nothing_waits(&list->barriers, stages, graphics->draw_tracked_stages)) {
        graphics->rendering_checked_for = pipeline;
        return true;
    }
    if (!rendering_key(list, pipeline, command, &key))
        return false;
    if (graphics->rendering && (graphics->rendering_in != list->vk_command_buffer || memcmp(&key, &graphics->rendering_key, sizeof(key))))
        d3d12_command_list_end_rendering(list);
    /* A barrier cannot stand inside the pass: one the draw waits for ends it first. */
    if (graphics->rendering && d3d12_barriers_pending(&list->barriers, stages))
        d3d12_command_list_end_rendering(list);
    d3d12_barriers_before(&list->barriers, list->vk_command_buffer, stages);
    if (!graphics->rendering)
        begin_rendering(list, &key, command);
    note_checked(graphics, pipeline);
    return true;
}

/* ---- D3D12 render passes: BeginRenderPass, EndRenderPass ---- */

/* The beginning access as a Vulkan load op: CLEAR clears, DISCARD need not load, the rest load
 * (PRESERVE and the PRESERVE_LOCAL_* kinds keep what is there; NO_ACCESS touches nothing, and
 * loading and storing it again keeps it so). A resuming pass continues the suspended one: it
 * loads whatever its accesses say, and neither clears nor discards again. */
static VkAttachmentLoadOp load_op(const D3D12_RENDER_PASS_BEGINNING_ACCESS *access, D3D12_RENDER_PASS_FLAGS flags)
{
    if (flags & D3D12_RENDER_PASS_FLAG_RESUMING_PASS)
        return VK_ATTACHMENT_LOAD_OP_LOAD;
    if (access->Type == D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE_CLEAR)
        return VK_ATTACHMENT_LOAD_OP_CLEAR;
    if (access->Type == D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE_DISCARD)
        return VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    return VK_ATTACHMENT_LOAD_OP_LOAD;
}

static bool check_accesses(struct d3d12_command_list *list, const char *command, const char *argument,
        const D3D12_RENDER_PASS_BEGINNING_ACCESS *beginning, const D3D12_RENDER_PASS_ENDING_ACCESS *ending)
{
    if ((unsigned)beginning->Type > D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE_PRESERVE_LOCAL_UAV
            || (unsigned)ending->Type > D3D12_RENDER_PASS_ENDING_ACCESS_TYPE_PRESERVE_LOCAL_UAV) {
        d3d12_command_list_record_error(list, command, "%s's BeginningAccess.Type %d or EndingAccess.Type %d is not an access type", argument,
                (int)beginning->Type, (int)ending->Type);
        return false;
    }
    /* NO_ACCESS pairs with NO_ACCESS (D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE) */
    if ((beginning->Type == D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE_NO_ACCESS) != (ending->Type == D3D12_RENDER_PASS_ENDING_ACCESS_TYPE_NO_ACCESS)) {
        d3d12_command_list_record_error(list, command, "%s: a NO_ACCESS beginning pairs with a NO_ACCESS ending (they are %d and %d)", argument,
                (int)beginning->Type, (int)ending->Type);
        return false;
    }
    return true;
}

/* An ending RESOLVE's subresources as resolves kept for EndRenderPass. */
static bool keep_resolves(struct d3d12_command_list *list, const char *command, const char *argument, const D3D12_RENDER_PASS_ENDING_ACCESS *ending)
{
    const D3D12_RENDER_PASS_ENDING_ACCESS_RESOLVE_PARAMETERS *resolve = &ending->Resolve;
    struct d3d12_render_pass *pass = &list->render_pass;

    if (ending->Type != D3D12_RENDER_PASS_ENDING_ACCESS_TYPE_RESOLVE)
        return true;
    if (resolve->SubresourceCount && !resolve->pSubresourceParameters) {
        d3d12_command_list_record_error(list, command, "%s's EndingAccess.Resolve.pSubresourceParameters is NULL with SubresourceCount %u",
                argument, resolve->SubresourceCount);
        return false;
    }
    if (!d3d12xs_array_reserve((void **)&pass->resolves, &pass->resolve_capacity, pass->resolve_count + resolve->SubresourceCount,
            sizeof(*pass->resolves))) {
        d3d12_command_list_record_error(list, command, "out of memory for %u resolves", resolve->SubresourceCount);
        return false;
    }
    for (UINT i = 0; i < resolve->SubresourceCount; i++) {
        const D3D12_RENDER_PASS_ENDING_ACCESS_RESOLVE_SUBRESOURCE_PARAMETERS *p = &resolve->pSubresourceParameters[i];
        /* an empty rectangle resolves nothing */
        if (p->SrcRect.right == p->SrcRect.left || p->SrcRect.bottom == p->SrcRect.top)
            continue;
        if (!d3d12_command_list_check_resolve(list, command, resolve->pDstResource, p->DstSubresource, p->DstX, p->DstY, resolve->pSrcResource,
                p->SrcSubresource, &p->SrcRect, resolve->Format, resolve->ResolveMode, &pass->resolves[pass->resolve_count]))
            return false;
        pass->resolve_count++;
    }
    return true;
}

void STDMETHODCALLTYPE d3d12_command_list_BeginRenderPass(ID3D12GraphicsCommandList10 *iface, UINT count,
        const D3D12_RENDER_PASS_RENDER_TARGET_DESC *rts, const D3D12_RENDER_PASS_DEPTH_STENCIL_DESC *ds, D3D12_RENDER_PASS_FLAGS flags)
{
    static const char command[] = "ID3D12GraphicsCommandList4::BeginRenderPass";
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    struct d3d12_graphics_bindings *graphics = &list->bindings.graphics;
    const VkPhysicalDeviceLimits *limits = &list->object.device->vk_properties.limits;
    VkRenderingAttachmentInfo colors[D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT], depth, stencil;
    struct d3d12_bound_target targets[D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT], depth_stencil;
    const struct d3d12xs_descriptor *descriptor;
    struct d3d12_rendering_key key;
    uint32_t width = limits->maxFramebufferWidth, height = limits->maxFramebufferHeight, layers = UINT32_MAX;
    char argument[32];

    if (!d3d12_command_list_check_recording(list, command))
        return;
    if (list->render_pass.active) {
        d3d12_command_list_record_error(list, command, "a render pass is already open (render passes do not nest: EndRenderPass first)");
        return;
    }
    if (list->type != D3D12_COMMAND_LIST_TYPE_DIRECT) {
        d3d12_command_list_record_error(list, command, "only DIRECT lists have render passes");
        return;
    }
    if (count > D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT || (count && !rts)) {
        d3d12_command_list_record_error(list, command, "NumRenderTargets is %u with pRenderTargets %s (at most %u)", count, rts ? "set" : "NULL",
                D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT);
        return;
    }
    if (flags & ~(D3D12_RENDER_PASS_FLAG_ALLOW_UAV_WRITES | D3D12_RENDER_PASS_FLAG_SUSPENDING_PASS | D3D12_RENDER_PASS_FLAG_RESUMING_PASS
            | D3D12_RENDER_PASS_FLAG_BIND_READ_ONLY_DEPTH | D3D12_RENDER_PASS_FLAG_BIND_READ_ONLY_STENCIL)) {
        d3d12_command_list_record_error(list, command, "Flags 0x%x has bits that are not D3D12_RENDER_PASS_FLAGS", (unsigned)flags);
        return;
    }
    list->render_pass.resolve_count = 0;
    memset(&key, 0, sizeof(key));
    memset(&depth_stencil, 0, sizeof(depth_stencil));
    for (UINT i = 0; i < count; i++) {
        snprintf(argument, sizeof(argument), "pRenderTargets[%u]", i);
        if (!check_accesses(list, command, argument, &rts[i].BeginningAccess, &rts[i].EndingAccess)
                || !(descriptor = target_descriptor(list, command, rts[i].cpuDescriptor, 1, D3D12_DESCRIPTOR_HEAP_TYPE_RTV, argument)))
            return;
        if (descriptor->kind != D3D12XS_DESCRIPTOR_RTV) {
            d3d12_command_list_record_error(list, command, "%s.cpuDescriptor was never written (CreateRenderTargetView)", argument);
            return;
        }
        bind_target(&targets[i], descriptor);
        if (!keep_resolves(list, command, argument, &rts[i].EndingAccess))
            return;
        colors[i] = (VkRenderingAttachmentInfo){
            .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
            .imageView = targets[i].view,
            .imageLayout = VK_IMAGE_LAYOUT_GENERAL, /* every image's one layout (docs/textures.md) */
            .loadOp = load_op(&rts[i].BeginningAccess, flags),
            .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
        };
        if (colors[i].loadOp == VK_ATTACHMENT_LOAD_OP_CLEAR)
            colors[i].clearValue.color = d3d12_command_list_clear_color(descriptor->format, rts[i].BeginningAccess.Clear.ClearValue.Color);
        key.colors[i] = targets[i].view;
        if (targets[i].view) {
            width = targets[i].extent.width < width ? targets[i].extent.width : width;
            height = targets[i].extent.height < height ? targets[i].extent.height : height;
            layers = targets[i].range.layerCount < layers ? targets[i].range.layerCount : layers;
        }
    }
    if (ds) {
        if (!check_accesses(list, command, "pDepthStencil (depth)", &ds->DepthBeginningAccess, &ds->DepthEndingAccess)
                || !check_accesses(list, command, "pDepthStencil (stencil)", &ds->StencilBeginningAccess, &ds->StencilEndingAccess)
                || !(descriptor = target_descriptor(list, command, ds->cpuDescriptor, 1, D3D12_DESCRIPTOR_HEAP_TYPE_DSV, "pDepthStencil->cpuDescriptor")))
            return;
        if (descriptor->kind != D3D12XS_DESCRIPTOR_DSV) {
            d3d12_command_list_record_error(list, command, "pDepthStencil->cpuDescriptor was never written (CreateDepthStencilView)");
            return;
        }
        bind_target(&depth_stencil, descriptor);
        if (!keep_resolves(list, command, "pDepthStencil (depth)", &ds->DepthEndingAccess)
                || !keep_resolves(list, command, "pDepthStencil (stencil)", &ds->StencilEndingAccess))
            return;
        depth = stencil = (VkRenderingAttachmentInfo){
            .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
            .imageView = depth_stencil.view,
            .imageLayout = VK_IMAGE_LAYOUT_GENERAL,
            .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
        };
        depth.loadOp = load_op(&ds->DepthBeginningAccess, flags);
        depth.clearValue.depthStencil.depth = ds->DepthBeginningAccess.Clear.ClearValue.DepthStencil.Depth;
        stencil.loadOp = load_op(&ds->StencilBeginningAccess, flags);
        stencil.clearValue.depthStencil.stencil = ds->StencilBeginningAccess.Clear.ClearValue.DepthStencil.Stencil;
        key.depth_stencil = depth_stencil.view;
        key.depth_stencil_aspects = depth_stencil.view ? depth_stencil.range.aspectMask : 0;
        if (depth_stencil.view) {
            width = depth_stencil.extent.width < width ? depth_stencil.extent.width : width;
            height = depth_stencil.extent.height < height ? depth_stencil.extent.height : height;
            layers = depth_stencil.range.layerCount < layers ? depth_stencil.range.layerCount : layers;
        }
    }

    /* The targets bound for the pass's draws, as OMSetRenderTargets binds them. */
    graphics->rendering_checked_for = NULL;
    graphics->rt_count = count;
    memcpy(graphics->rts, targets, count * sizeof(*targets));
    graphics->has_depth_stencil = ds != NULL;
    graphics->depth_stencil = depth_stencil;
    list->render_pass.active = true;
    list->render_pass.flags = flags;
    if (!list->render_pass.begun)
        list->render_pass.begins_resuming = flags & D3D12_RENDER_PASS_FLAG_RESUMING_PASS;
    list->render_pass.begun = true;
    list->render_pass.ends_suspended = false;

    /* The beginning accesses happen now, whether or not anything draws: a Vulkan rendering pass
     * over the targets with their load ops, which the pass's draws go on in when their pipeline
     * renders these targets (the key is the one a draw computes for them). Where one ends early (a
     * draw of other targets, a barrier, a query), the next begins by loading, as all do. */
    key.color_count = count;
    key.area = (VkRect2D){{0, 0}, {width, height}};
    key.layers = layers == UINT32_MAX ? 1 : layers;
    d3d12_barriers_before(&list->barriers, list->vk_command_buffer, d3d12_draw_stages(list->object.device));
    const VkRenderingInfo info = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
        .renderArea = key.area,
        .layerCount = key.layers,
        .colorAttachmentCount = count,
        .pColorAttachments = colors,
        .pDepthAttachment = key.depth_stencil_aspects & VK_IMAGE_ASPECT_DEPTH_BIT ? &depth : NULL,
        .pStencilAttachment = key.depth_stencil_aspects & VK_IMAGE_ASPECT_STENCIL_BIT ? &stencil : NULL,
    };
    vkCmdBeginRendering(list->vk_command_buffer, &info);
    list->rendering_pass_count++;
    graphics->rendering = true;
    graphics->rendering_in = list->vk_command_buffer;
    graphics->rendering_key = key;
}

void STDMETHODCALLTYPE d3d12_command_list_EndRenderPass(ID3D12GraphicsCommandList10 *iface)
{
    static const char command[] = "ID3D12GraphicsCommandList4::EndRenderPass";
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    struct d3d12_render_pass *pass = &list->render_pass;

    if (!d3d12_command_list_check_recording(list, command))
        return;
    if (!pass->active) {
        d3d12_command_list_record_error(list, command, "no render pass is open (BeginRenderPass first)");
        return;
    }
    pass->active = false;
    pass->ends_suspended = pass->flags & D3D12_RENDER_PASS_FLAG_SUSPENDING_PASS;
    /* Every attachment was stored (a DISCARD ending leaves the contents undefined: as they are
     * will do); the resolves run now, unless the pass suspends and a later pass ends it. */
    if (pass->flags & D3D12_RENDER_PASS_FLAG_SUSPENDING_PASS)
        return;
    for (uint32_t i = 0; i < pass->resolve_count; i++)
        d3d12_command_list_resolve(list, command, &pass->resolves[i]);
    pass->resolve_count = 0;
}
