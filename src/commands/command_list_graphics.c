/* Draws, and the list state they read: the input assembler (topology, vertex and index buffers),
 * the rasterizer (viewports, scissors) and the output merger (blend factor, stencil reference,
 * depth bounds). The state calls keep values in the list (graphics_bindings.h) and record
 * nothing; a draw flushes the graphics bind point (command_list_flush.c), sets the Vulkan dynamic
 * state the command buffer lacks, waits for its barriers and draws inside a rendering pass over
 * the render targets (command_list_render_pass.c). Only DIRECT lists draw. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command_recording.h"
#include "command_list_flush.h"
#include "commands/command_list_graphics.h"
#include "descriptors/descriptor_buffer.h"
#include "pipelines/graphics_pipeline.h"

#define METHOD(name) "ID3D12GraphicsCommandList::" #name

static bool direct_list(struct d3d12_command_list *list, const char *command)
{
    if (!d3d12_command_list_check_recording_in_pass(list, command))
        return false;
    if (__builtin_expect(list->type != D3D12_COMMAND_LIST_TYPE_DIRECT, 0)) {
        d3d12_command_list_record_error(list, command, "only DIRECT lists draw (this is a %s list)",
                list->type == D3D12_COMMAND_LIST_TYPE_COMPUTE ? "COMPUTE" : list->type == D3D12_COMMAND_LIST_TYPE_COPY ? "COPY" : "BUNDLE");
        return false;
    }
    return true;
}

/* ---- the input assembler ---- */

/* D3D12's topology as Vulkan's, and its topology type; false for a value that is not one. */
static bool vk_topology(D3D_PRIMITIVE_TOPOLOGY topology, VkPrimitiveTopology *out, D3D12_PRIMITIVE_TOPOLOGY_TYPE *type)
{
    switch (topology) {
    case D3D_PRIMITIVE_TOPOLOGY_POINTLIST: *out = VK_PRIMITIVE_TOPOLOGY_POINT_LIST; *type = D3D12_PRIMITIVE_TOPOLOGY_TYPE_POINT; return true;
    case D3D_PRIMITIVE_TOPOLOGY_LINELIST: *out = VK_PRIMITIVE_TOPOLOGY_LINE_LIST; *type = D3D12_PRIMITIVE_TOPOLOGY_TYPE_LINE; return true;
    case D3D_PRIMITIVE_TOPOLOGY_LINESTRIP: *out = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP; *type = D3D12_PRIMITIVE_TOPOLOGY_TYPE_LINE; return true;
    case D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST:
        *out = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
        *type = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
        return true;
    case D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP:
        *out = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
        *type = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
        return true;
    case D3D_PRIMITIVE_TOPOLOGY_LINELIST_ADJ:
        *out = VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY;
        *type = D3D12_PRIMITIVE_TOPOLOGY_TYPE_LINE;
        return true;
    case D3D_PRIMITIVE_TOPOLOGY_LINESTRIP_ADJ:
        *out = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY;
        *type = D3D12_PRIMITIVE_TOPOLOGY_TYPE_LINE;
        return true;
    case D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST_ADJ:
        *out = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY;
        *type = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
        return true;
    case D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP_ADJ:
        *out = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY;
        *type = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
        return true;
    default:
        if (topology >= D3D_PRIMITIVE_TOPOLOGY_1_CONTROL_POINT_PATCHLIST && topology <= D3D_PRIMITIVE_TOPOLOGY_32_CONTROL_POINT_PATCHLIST) {
            *out = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
            *type = D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH;
            return true;
        }
        return false;
    }
}

void STDMETHODCALLTYPE d3d12_command_list_IASetPrimitiveTopology(ID3D12GraphicsCommandList10 *iface, D3D12_PRIMITIVE_TOPOLOGY topology)
{
    static const char command[] = METHOD(IASetPrimitiveTopology);
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    D3D12_PRIMITIVE_TOPOLOGY_TYPE type;
    VkPrimitiveTopology vk;

    if (!direct_list(list, command))
        return;
    if (!vk_topology(topology, &vk, &type)) {
        d3d12_command_list_record_error(list, command, "PrimitiveTopology is %d, not a D3D_PRIMITIVE_TOPOLOGY", (int)topology);
        return;
    }
    if (vk >= VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY && vk <= VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY
            && !list->object.device->graphics.geometry_shader) {
        d3d12_command_list_record_error(list, command, "PrimitiveTopology %d has adjacency, which %s cannot draw (no geometryShader)",
                (int)topology, list->object.device->vk_properties.deviceName);
        return;
    }
    list->bindings.graphics.topology = topology;
    list->bindings.graphics.vk_topology = vk;
    list->bindings.graphics.topology_type = type;
    list->bindings.graphics.dirty |= D3D12_GRAPHICS_DIRTY_TOPOLOGY;
}

/* A buffer view's address as a buffer and offset, with the bytes D3D12 says it spans (within
 * the buffer); false after the error for an address in no live buffer. The view is `argument`,
 * or element `index` of it where index is 0 or more (named only on the error's way). */
static bool resolve_view(struct d3d12_command_list *list, const char *command, const char *argument, int index, D3D12_GPU_VIRTUAL_ADDRESS address,
        UINT size, VkBuffer *buffer, VkDeviceSize *offset, VkDeviceSize *range)
{
    uint64_t remaining;
    if (!d3d12xs_va_lookup_range_hinted(list->object.device, &list->bindings.graphics.view_hint, address, buffer, offset, &remaining)) {
        char element[16] = "";
        if (index >= 0)
            snprintf(element, sizeof(element), "[%d]", index);
        d3d12_command_list_record_error(list, command, "%s%s.BufferLocation 0x%llx is not an address in a live buffer", argument, element,
                (unsigned long long)address);
        return false;
    }
    *range = size < remaining ? size : remaining;
    return true;
}

/* IASetVertexBuffers' every way but the short one. */
static void __attribute__((noinline)) set_vertex_buffers(struct d3d12_command_list *list, UINT start, UINT count,
        const D3D12_VERTEX_BUFFER_VIEW *views)
{
    static const char command[] = METHOD(IASetVertexBuffers);
    struct d3d12_graphics_bindings *graphics = &list->bindings.graphics;
    struct d3d12_vertex_buffers *vertex = &graphics->vertex;

    if (!direct_list(list, command))
        return;
    if (start >= D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT || count > D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT - start) {
        d3d12_command_list_record_error(list, command, "StartSlot %u + NumViews %u pass the %u input slots", start, count,
                D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT);
        return;
    }
    /* Each slot written whole, in the form the draw binds. A view refused below makes the list
     * invalid, so what the slots then hold is never read. */
    for (UINT i = 0; i < count; i++) {
        const uint32_t slot = start + i;
        /* address 0: no buffer, reads give 0; D3D12 leaves a stride above the maximum undefined
         * (its debug layer reports it) and Vulkan forbids it: the slot gets no buffer either */
        if (!views || !views[i].BufferLocation || __builtin_expect(views[i].StrideInBytes > D3D12_SO_BUFFER_MAX_STRIDE_IN_BYTES, 0)) {
            d3d12_vertex_slot_clear(vertex, slot, graphics->vertex_none, graphics->vertex_none_size);
            if (views && views[i].StrideInBytes > D3D12_SO_BUFFER_MAX_STRIDE_IN_BYTES)
                d3d12_command_list_debug_warn(list, command, "pViews[%u].StrideInBytes is %u (at most %u): the slot reads 0", i,
                        views[i].StrideInBytes, D3D12_SO_BUFFER_MAX_STRIDE_IN_BYTES);
            continue;
        }
        if (!resolve_view(list, command, "pViews", (int)i, views[i].BufferLocation, views[i].SizeInBytes, &vertex->buffers[slot],
                &vertex->offsets[slot], &vertex->sizes[slot]))
            return;
        vertex->strides[slot] = views[i].StrideInBytes;
        vertex->addresses[slot] = views[i].BufferLocation;
        vertex->view_sizes[slot] = views[i].SizeInBytes;
    }
    /* A settled list (draw_settled_at) draws next with the pipeline set now, whose state its last
     * draw applied: the slots of these that the pipeline reads are bound at once, as that draw
     * would bind them (apply_ready_state), and it keeps its short way with nothing to apply. */
    if (list->draw_settled_at == list->call_count - 1) {
        const uint32_t slots = list->bindings.pipeline->graphics->vertex_slots;
        const uint32_t end = slots ? 32 - (uint32_t)__builtin_clz(slots) : 0;
        if (start < end)
            list->vk.vkCmdBindVertexBuffers2(list->vk_command_buffer, start, (start + count < end ? start + count : end) - start, &vertex->buffers[start],
                    &vertex->offsets[start], &vertex->sizes[start], &vertex->strides[start]);
        list->draw_settled_at = list->call_count;
        return;
    }
    graphics->dirty |= D3D12_GRAPHICS_DIRTY_VERTEX_BUFFERS;
    d3d12_command_list_keep_settled(list);
}

/* The short way, for the common call between settled draws: one view in the buffer range the
 * list's last view was found in (view_hint), on a settled list (a DIRECT list, recording:
 * draw_settled_at). The slot is written and bound at once; false, with nothing done, for any other address, which
 * set_vertex_buffers then looks up in full (and reports where it is in no live buffer). No call
 * but the bind's: the short way needs no registers saved. */
static inline bool set_settled_vertex_buffer(struct d3d12_command_list *list, UINT slot, const D3D12_VERTEX_BUFFER_VIEW *view)
{
    struct d3d12_vertex_buffers *vertex = &list->bindings.graphics.vertex;
    uint64_t remaining;

    if (!d3d12xs_va_hint_lookup(&list->bindings.graphics.view_hint, view->BufferLocation, &vertex->buffers[slot], &vertex->offsets[slot],
            &remaining))
        return false;
    vertex->sizes[slot] = view->SizeInBytes < remaining ? view->SizeInBytes : remaining;
    vertex->strides[slot] = view->StrideInBytes;
    vertex->addresses[slot] = view->BufferLocation;
    vertex->view_sizes[slot] = view->SizeInBytes;
    list->draw_settled_at = ++list->call_count;
    /* bound whether or not the pipeline reads the slot: Vulkan binds any slot, and testing the
     * pipeline's slots costs more than the rare needless bind */
    list->vk.vkCmdBindVertexBuffers2(list->vk_command_buffer, slot, 1, &vertex->buffers[slot], &vertex->offsets[slot], &vertex->sizes[slot],
            &vertex->strides[slot]);
    return true;
}

void STDMETHODCALLTYPE d3d12_command_list_IASetVertexBuffers(ID3D12GraphicsCommandList10 *iface, UINT start, UINT count,
        const D3D12_VERTEX_BUFFER_VIEW *views)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);

    /* a settled list records (stop_recording); address 0 (no buffer) is in no range the hint
     * holds, so it takes the full way */
    if (__builtin_expect(count == 1 && list->draw_settled_at == list->call_count && start < D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT
            && views && views->StrideInBytes <= D3D12_SO_BUFFER_MAX_STRIDE_IN_BYTES, 1) && set_settled_vertex_buffer(list, start, views))
        return;
    set_vertex_buffers(list, start, count, views);
}

void STDMETHODCALLTYPE d3d12_command_list_IASetIndexBuffer(ID3D12GraphicsCommandList10 *iface, const D3D12_INDEX_BUFFER_VIEW *view)
{
    static const char command[] = METHOD(IASetIndexBuffer);
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    struct d3d12_graphics_bindings *graphics = &list->bindings.graphics;

    if (!direct_list(list, command))
        return;
    graphics->dirty |= D3D12_GRAPHICS_DIRTY_INDEX_BUFFER;
    if (!view || !view->BufferLocation) {
        graphics->index_buffer = VK_NULL_HANDLE;
        d3d12_command_list_keep_settled(list); /* an indexed draw then takes the full way for its warning */
        return;
    }
    if (view->Format != DXGI_FORMAT_R16_UINT && view->Format != DXGI_FORMAT_R32_UINT) {
        d3d12_command_list_record_error(list, command, "pView->Format is %d (R16_UINT or R32_UINT)", (int)view->Format);
        return;
    }
    if (view->BufferLocation % (view->Format == DXGI_FORMAT_R16_UINT ? 2 : 4)) {
        d3d12_command_list_record_error(list, command, "pView->BufferLocation 0x%llx is not aligned to its index size",
                (unsigned long long)view->BufferLocation);
        return;
    }
    if (!resolve_view(list, command, "pView", -1, view->BufferLocation, view->SizeInBytes, &graphics->index_buffer, &graphics->index_offset,
            &graphics->index_size))
        return;
    graphics->index_type = view->Format == DXGI_FORMAT_R16_UINT ? VK_INDEX_TYPE_UINT16 : VK_INDEX_TYPE_UINT32;
    d3d12_command_list_keep_settled(list);
}

/* ---- the rasterizer and the output merger ---- */

void STDMETHODCALLTYPE d3d12_command_list_RSSetViewports(ID3D12GraphicsCommandList10 *iface, UINT count, const D3D12_VIEWPORT *viewports)
{
    static const char command[] = METHOD(RSSetViewports);
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    struct d3d12_graphics_bindings *graphics = &list->bindings.graphics;

    if (!direct_list(list, command))
        return;
    if (count > D3D12_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE || (count && !viewports)) {
        d3d12_command_list_record_error(list, command, "NumViewports is %u with pViewports %s (at most %u)", count, viewports ? "set" : "NULL",
                D3D12_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE);
        return;
    }
    for (UINT i = 0; i < count; i++) {
        const D3D12_VIEWPORT *v = &viewports[i];
        if (!(v->Width >= 0.0f && v->Height >= 0.0f && v->MinDepth >= 0.0f && v->MaxDepth <= 1.0f && v->MinDepth <= v->MaxDepth)) {
            d3d12_command_list_record_error(list, command, "pViewports[%u] is %g x %g, depth %g to %g (sizes at least 0, depths within "
                    "[0, 1] and in order)", i, v->Width, v->Height, v->MinDepth, v->MaxDepth);
            return;
        }
        /* D3D12's y goes down the target: Vulkan's viewport is flipped (a negative height), so
         * clip space maps as in D3D12 and winding is the same on the target. */
        graphics->viewports[i] = (VkViewport){v->TopLeftX, v->TopLeftY + v->Height, v->Width, -v->Height, v->MinDepth, v->MaxDepth};
    }
    graphics->viewport_count = count;
    graphics->dirty |= D3D12_GRAPHICS_DIRTY_VIEWPORTS;
}

void STDMETHODCALLTYPE d3d12_command_list_RSSetScissorRects(ID3D12GraphicsCommandList10 *iface, UINT count, const D3D12_RECT *rects)
{
    static const char command[] = METHOD(RSSetScissorRects);
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    struct d3d12_graphics_bindings *graphics = &list->bindings.graphics;

    if (!direct_list(list, command))
        return;
    if (count > D3D12_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE || (count && !rects)) {
        d3d12_command_list_record_error(list, command, "NumRects is %u with pRects %s (at most %u)", count, rects ? "set" : "NULL",
                D3D12_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE);
        return;
    }
    for (UINT i = 0; i < count; i++) {
        /* Vulkan's scissors start at 0 or more; what lies left of or above the target draws nothing anyway */
        LONG left = rects[i].left < 0 ? 0 : rects[i].left, top = rects[i].top < 0 ? 0 : rects[i].top;
        graphics->scissors[i] = (VkRect2D){{left, top}, {rects[i].right > left ? (uint32_t)(rects[i].right - left) : 0,
                rects[i].bottom > top ? (uint32_t)(rects[i].bottom - top) : 0}};
    }
    graphics->scissor_count = count;
    graphics->dirty |= D3D12_GRAPHICS_DIRTY_VIEWPORTS;
}

void STDMETHODCALLTYPE d3d12_command_list_OMSetBlendFactor(ID3D12GraphicsCommandList10 *iface, const FLOAT *factor)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    struct d3d12_graphics_bindings *graphics = &list->bindings.graphics;
    static const float ones[4] = {1.0f, 1.0f, 1.0f, 1.0f};

    if (!direct_list(list, METHOD(OMSetBlendFactor)))
        return;
    memcpy(graphics->blend_factor, factor ? factor : ones, sizeof(graphics->blend_factor)); /* NULL: D3D12's default, ones */
    graphics->blend_factor_set = true;
    graphics->dirty |= D3D12_GRAPHICS_DIRTY_BLEND_FACTOR;
    d3d12_command_list_keep_settled(list);
}

void STDMETHODCALLTYPE d3d12_command_list_OMSetStencilRef(ID3D12GraphicsCommandList10 *iface, UINT reference)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);

    if (!direct_list(list, METHOD(OMSetStencilRef)))
        return;
    list->bindings.graphics.stencil_ref = list->bindings.graphics.back_stencil_ref = reference;
    list->bindings.graphics.dirty |= D3D12_GRAPHICS_DIRTY_STENCIL_REF;
    d3d12_command_list_keep_settled(list);
}

void STDMETHODCALLTYPE d3d12_command_list_OMSetFrontAndBackStencilRef(ID3D12GraphicsCommandList10 *iface, UINT front, UINT back)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);

    if (!direct_list(list, "ID3D12GraphicsCommandList8::OMSetFrontAndBackStencilRef"))
        return;
    list->bindings.graphics.stencil_ref = front;
    list->bindings.graphics.back_stencil_ref = back;
    list->bindings.graphics.dirty |= D3D12_GRAPHICS_DIRTY_STENCIL_REF;
}

/* D3D12 takes the values whatever the pipeline; they apply to pipelines made with
 * DYNAMIC_DEPTH_BIAS (the others keep their rasterizer state's). */
void STDMETHODCALLTYPE d3d12_command_list_RSSetDepthBias(ID3D12GraphicsCommandList10 *iface, FLOAT bias, FLOAT clamp, FLOAT slope)
{
    static const char command[] = "ID3D12GraphicsCommandList9::RSSetDepthBias";
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    struct d3d12_graphics_bindings *graphics = &list->bindings.graphics;

    if (!direct_list(list, command))
        return;
    if (clamp != 0.0f && !list->object.device->graphics.depth_bias_clamp) {
        d3d12_command_list_record_unsupported(list, command, "DepthBiasClamp is %g: %s lacks depthBiasClamp", clamp,
                list->object.device->vk_properties.deviceName);
        return;
    }
    graphics->depth_bias[0] = bias;
    graphics->depth_bias[1] = clamp;
    graphics->depth_bias[2] = slope;
    graphics->depth_bias_set = true;
    graphics->dirty |= D3D12_GRAPHICS_DIRTY_DEPTH_BIAS;
}

/* Applies to pipelines made with DYNAMIC_INDEX_BUFFER_STRIP_CUT. Vulkan restarts strips at the
 * index of all ones of the bound index type: 0xFFFF pairs with 16-bit indices and 0xFFFFFFFF
 * with 32-bit ones, as the pipelines' IBStripCutValue does. */
void STDMETHODCALLTYPE d3d12_command_list_IASetIndexBufferStripCutValue(ID3D12GraphicsCommandList10 *iface, D3D12_INDEX_BUFFER_STRIP_CUT_VALUE value)
{
    static const char command[] = "ID3D12GraphicsCommandList9::IASetIndexBufferStripCutValue";
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    struct d3d12_graphics_bindings *graphics = &list->bindings.graphics;

    if (!direct_list(list, command))
        return;
    if (value != D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_DISABLED && value != D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_0xFFFF
            && value != D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_0xFFFFFFFF) {
        d3d12_command_list_record_error(list, command, "IBStripCutValue is 0x%x (DISABLED, 0xFFFF or 0xFFFFFFFF)", (unsigned)value);
        return;
    }
    graphics->strip_cut_value = value;
    graphics->strip_cut_set = true;
    graphics->dirty |= D3D12_GRAPHICS_DIRTY_TOPOLOGY;
}

void STDMETHODCALLTYPE d3d12_command_list_OMSetDepthBounds(ID3D12GraphicsCommandList10 *iface, FLOAT min, FLOAT max)
{
    static const char command[] = "ID3D12GraphicsCommandList1::OMSetDepthBounds";
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);

    if (!direct_list(list, command))
        return;
    if (!(min >= 0.0f && max <= 1.0f && min <= max)) {
        d3d12_command_list_record_error(list, command, "Min %g and Max %g (within [0, 1], Min at most Max)", min, max);
        return;
    }
    list->bindings.graphics.depth_bounds[0] = min;
    list->bindings.graphics.depth_bounds[1] = max;
    list->bindings.graphics.depth_bounds_set = true;
    list->bindings.graphics.dirty |= D3D12_GRAPHICS_DIRTY_DEPTH_BOUNDS;
}

/* ---- draws ---- */

/* Dynamic state a draw-ready draw applies itself: changes that prepare_draw checks nothing of
 * (a new topology or viewport count takes the full way). */
#define DRAW_READY_DIRTY (D3D12_GRAPHICS_DIRTY_VERTEX_BUFFERS | D3D12_GRAPHICS_DIRTY_INDEX_BUFFER | D3D12_GRAPHICS_DIRTY_BLEND_FACTOR \
        | D3D12_GRAPHICS_DIRTY_STENCIL_REF)

/* The DRAW_READY_DIRTY state named in `dirty` (the caller clears its bits): what a draw of the
 * pipeline bound and applied in this command buffer applies after calls that changed only those.
 * The vertex buffers go as the list holds them, the slots up to the pipeline's last. */
static inline void apply_ready_state(struct d3d12_command_list *list, const struct d3d12_graphics_bindings *graphics,
        const struct d3d12_graphics_pipeline *g, uint32_t dirty)
{
    const struct d3d12_vertex_buffers *vertex = &graphics->vertex;
    VkCommandBuffer cb = list->vk_command_buffer;
    if ((dirty & D3D12_GRAPHICS_DIRTY_VERTEX_BUFFERS) && g->vertex_slots)
        list->vk.vkCmdBindVertexBuffers2(cb, 0, 32 - (uint32_t)__builtin_clz(g->vertex_slots), vertex->buffers, vertex->offsets, vertex->sizes,
                vertex->strides);
    if (__builtin_expect(dirty & ~(uint32_t)D3D12_GRAPHICS_DIRTY_VERTEX_BUFFERS, 0)) {
        if (dirty & D3D12_GRAPHICS_DIRTY_INDEX_BUFFER)
            list->vk.vkCmdBindIndexBuffer(cb, graphics->index_buffer, graphics->index_offset, graphics->index_type);
        if (dirty & D3D12_GRAPHICS_DIRTY_BLEND_FACTOR) {
            static const float ones[4] = {1.0f, 1.0f, 1.0f, 1.0f};
            vkCmdSetBlendConstants(cb, graphics->blend_factor_set ? graphics->blend_factor : ones);
        }
        if (dirty & D3D12_GRAPHICS_DIRTY_STENCIL_REF) {
            vkCmdSetStencilReference(cb, VK_STENCIL_FACE_FRONT_BIT, graphics->stencil_ref);
            vkCmdSetStencilReference(cb, VK_STENCIL_FACE_BACK_BIT, graphics->back_stencil_ref);
        }
    }
}

/* The list state as the command buffer's dynamic state: all of it in a new command buffer, after
 * a pipeline bind what that bind left undefined or the pipeline reads otherwise, else what
 * changed. */
static void apply_state(struct d3d12_command_list *list, const struct d3d12_pipeline_state *pipeline, VkPrimitiveTopology topology,
        bool indexed, const char *command)
{
    struct d3d12_graphics_bindings *graphics = &list->bindings.graphics;
    const struct d3d12_graphics_pipeline *g = pipeline->graphics;
    struct d3d12_device *device = list->object.device;
    VkCommandBuffer cb = list->vk_command_buffer;

    /* The common case: another draw of the pipeline with no list state changed since the last. */
    if (__builtin_expect(graphics->applied_in == cb && graphics->applied_pipeline == pipeline->vk_pipeline
            && !(graphics->dirty & ~(indexed ? 0u : (uint32_t)D3D12_GRAPHICS_DIRTY_INDEX_BUFFER)), 1))
        return;
    if (graphics->applied_in != cb) {
        graphics->dirty = D3D12_GRAPHICS_DIRTY_ALL;
        graphics->applied_in = cb;
        graphics->applied_pipeline = VK_NULL_HANDLE;
        graphics->applied_sample_locations = 0;
    }
    if (graphics->applied_pipeline != pipeline->vk_pipeline) {
        /* Topology and restart are dynamic in every pipeline, so a bind keeps them; restart's value
         * follows the pipeline's strip cut, and patch control points are dynamic in tessellation
         * pipelines only (another pipeline's bind leaves them undefined). Strides are dynamic only
         * with vertex input, and the last binding covered its pipeline's slots. Depth bounds are
         * dynamic only with the test on; depth bias is dynamic only with DYNAMIC_DEPTH_BIAS, and a
         * dynamic strip cut's value is the list's (applied_strip_cut then matches no pipeline). */
        if (g->tessellation || g->dynamic_strip_cut || g->strip_cut_value != graphics->applied_strip_cut)
            graphics->dirty |= D3D12_GRAPHICS_DIRTY_TOPOLOGY;
        if (g->vertex_slots && (!graphics->applied_vertex_slots || __builtin_clz(g->vertex_slots) < __builtin_clz(graphics->applied_vertex_slots)))
            graphics->dirty |= D3D12_GRAPHICS_DIRTY_VERTEX_BUFFERS;
        graphics->dirty |= D3D12_GRAPHICS_DIRTY_DEPTH_BOUNDS | D3D12_GRAPHICS_DIRTY_DEPTH_BIAS;
        /* sample locations are dynamic only where the device has them at the pipeline's count;
         * those set for that count stay valid across binds of pipelines that have them */
        if (!g->sample_locations)
            graphics->applied_sample_locations = 0;
        else if (d3d12_sample_locations_key(g) != graphics->applied_sample_locations)
            graphics->dirty |= D3D12_GRAPHICS_DIRTY_SAMPLE_LOCATIONS;
        graphics->applied_pipeline = pipeline->vk_pipeline;
        graphics->applied_vertex_slots = g->vertex_slots;
        graphics->applied_strip_cut = g->dynamic_strip_cut ? (D3D12_INDEX_BUFFER_STRIP_CUT_VALUE)~0u : g->strip_cut_value;
    }
    if (graphics->dirty & D3D12_GRAPHICS_DIRTY_VIEWPORTS) {
        VkViewport viewports[D3D12_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE];
        VkRect2D scissors[D3D12_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE];
        /* D3D12 always scissors: a viewport without a scissor rectangle draws nothing, as does an
         * empty viewport (Vulkan's may not be empty: 1 x 1 with nothing let through) */
        for (uint32_t i = 0; i < graphics->viewport_count; i++) {
            viewports[i] = graphics->viewports[i];
            scissors[i] = i < graphics->scissor_count ? graphics->scissors[i] : (VkRect2D){{0, 0}, {0, 0}};
            if (viewports[i].width == 0.0f || viewports[i].height == 0.0f) {
                viewports[i].width = 1.0f;
                viewports[i].height = -1.0f;
                scissors[i] = (VkRect2D){{0, 0}, {0, 0}};
            }
        }
        vkCmdSetViewportWithCount(cb, graphics->viewport_count, viewports);
        vkCmdSetScissorWithCount(cb, graphics->viewport_count, scissors);
    }
    if ((graphics->dirty & D3D12_GRAPHICS_DIRTY_DEPTH_BIAS) && g->dynamic_depth_bias) {
        const float *bias = graphics->depth_bias_set ? graphics->depth_bias : g->depth_bias;
        vkCmdSetDepthBias(cb, bias[0], bias[1], bias[2]);
    }
    if ((graphics->dirty & D3D12_GRAPHICS_DIRTY_DEPTH_BOUNDS) && g->depth_bounds_test)
        vkCmdSetDepthBounds(cb, graphics->depth_bounds_set ? graphics->depth_bounds[0] : 0.0f,
                graphics->depth_bounds_set ? graphics->depth_bounds[1] : 1.0f);
    if (graphics->dirty & D3D12_GRAPHICS_DIRTY_TOPOLOGY) {
        bool strip = topology == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP || topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP
                || topology == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY || topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY;
        vkCmdSetPrimitiveTopology(cb, topology);
        /* IBStripCutValue: strips restart at the index of all ones (D3D12 pairs 0xFFFF with 16-bit
         * indices and 0xFFFFFFFF with 32-bit ones, as Vulkan does) */
        D3D12_INDEX_BUFFER_STRIP_CUT_VALUE cut = g->dynamic_strip_cut && graphics->strip_cut_set ? graphics->strip_cut_value : g->strip_cut_value;
        vkCmdSetPrimitiveRestartEnable(cb, strip && cut != D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_DISABLED);
        if (g->tessellation)
            device->graphics.vkCmdSetPatchControlPointsEXT(cb, graphics->topology - D3D_PRIMITIVE_TOPOLOGY_1_CONTROL_POINT_PATCHLIST + 1);
    }
    if ((graphics->dirty & D3D12_GRAPHICS_DIRTY_SAMPLE_LOCATIONS) && g->sample_locations)
        d3d12_command_list_apply_sample_positions(list, g, command);
    apply_ready_state(list, graphics, g, graphics->dirty & (indexed ? DRAW_READY_DIRTY : DRAW_READY_DIRTY & ~(uint32_t)D3D12_GRAPHICS_DIRTY_INDEX_BUFFER));
    graphics->dirty &= indexed ? 0 : D3D12_GRAPHICS_DIRTY_INDEX_BUFFER;
}


/* The common case of a draw: the pipeline of the last draw, which left everything ready (its
 * dynamic state applied in this command buffer, at most vertex or index buffers, blend factor or
 * stencil reference changed since, the rendering pass it checked still open, no barrier waiting
 * for the draw stages) and needs nothing per draw (no view-instance masking, no stream output).
 * Then prepare_draw would only repeat its checks: the draw needs the bind point's flush and
 * those changes alone (draw_prepared). Everything that changes what the checks saw sets another
 * dirty bit, ends the pass or clears rendering_checked_for. */
static inline bool draw_ready(struct d3d12_command_list *list, const struct d3d12_pipeline_state *pipeline)
{
    struct d3d12_graphics_bindings *graphics = &list->bindings.graphics;
    const struct d3d12_graphics_pipeline *g;
    const VkCommandBuffer cb = list->vk_command_buffer;

    if (!pipeline || !(g = pipeline->graphics))
        return false;
    return graphics->rendering && graphics->rendering_checked_for == g && graphics->rendering_in == cb && graphics->applied_in == cb
            && graphics->applied_pipeline == pipeline->vk_pipeline && !(graphics->dirty & ~(uint32_t)DRAW_READY_DIRTY)
            && !g->view_masking && !g->stream_output_slots && !graphics->xfb_active
            && d3d12_barriers_before_nothing_waits(&list->barriers, graphics->draw_stages, graphics->draw_tracked_stages);
}

/* prepare_draw's short way (draw_ready): the flush, and the dynamic state that changed. */
static inline bool draw_prepared(struct d3d12_command_list *list, const char *command, bool indexed)
{
    const struct d3d12_pipeline_state *pipeline = list->bindings.pipeline;
    struct d3d12_graphics_bindings *graphics = &list->bindings.graphics;
    uint32_t dirty;

    if (indexed && !graphics->index_buffer)
        return d3d12_command_list_prepare_draw(list, command, indexed); /* its warning */
    if (!d3d12_command_list_flush(list, D3D12_BIND_POINT_GRAPHICS, command, 0))
        return false;
    /* A settled list's pipeline changed to one that draws alike (SetPipelineState): the flush
     * bound it, and what the last draw applied and checked holds for it too. */
    if (__builtin_expect(graphics->applied_pipeline != pipeline->vk_pipeline, 0)) {
        graphics->applied_pipeline = pipeline->vk_pipeline;
        graphics->applied_vertex_slots = pipeline->graphics->vertex_slots;
        graphics->rendering_checked_for = pipeline->graphics;
    }
    /* draw_ready held: the pipeline's state is applied in this command buffer but for these */
    if ((dirty = graphics->dirty & (indexed ? DRAW_READY_DIRTY : DRAW_READY_DIRTY & ~(uint32_t)D3D12_GRAPHICS_DIRTY_INDEX_BUFFER))) {
        apply_ready_state(list, graphics, pipeline->graphics, dirty);
        graphics->dirty &= ~dirty;
    }
    return true;
}

/* After a draw: whether the next one may take the short way of a settled list (draw_settled_at
 * in command_list_state.h), checking only what changed since: the draw-ready checks hold, and
 * nothing is per draw (no predication, no views drawn one by one, no console validation record,
 * no cuts between commands), and the graphics bind point owns the push constants with arguments
 * checked and nothing but constants to push (so a flush with nothing dirty does nothing). The
 * barrier tracker then holds the draw stages as recorded (draw_ready notes them) until the next
 * barrier, which only a call that unsettles the list can bring: the settled draws need not. */
static inline bool draw_settled(struct d3d12_command_list *list)
{
    const struct d3d12_pipeline_state *pipeline = list->bindings.pipeline;
    const struct d3d12_bind_point_state *state = &list->bindings.points[D3D12_BIND_POINT_GRAPHICS];

    return !list->predication.active && !pipeline->graphics->views_apart && !list->object.device->console_validation && !list->split_every
            && list->bindings.push_owner == D3D12_BIND_POINT_GRAPHICS && state->validated && state->constants_only
            && draw_ready(list, pipeline);
}

/* Whether a settled list's draw has nothing to apply: the calls since it settled made nothing
 * dirty that the flush or the draw's dynamic state would apply (else draw_prepared applies it). */
static inline bool settled_draw_clean(const struct d3d12_command_list *list, bool indexed)
{
    const uint32_t graphics_dirty = indexed ? DRAW_READY_DIRTY : DRAW_READY_DIRTY & ~(uint32_t)D3D12_GRAPHICS_DIRTY_INDEX_BUFFER;

    return !list->bindings.points[D3D12_BIND_POINT_GRAPHICS].dirty && !(list->bindings.graphics.dirty & graphics_dirty)
            && (!indexed || list->bindings.graphics.index_buffer);
}

/* What every draw does before its Vulkan draw: checks, the graphics bind point's flush, the
 * dynamic state, barriers and the rendering pass. false when the draw cannot (or need not) run. */
bool d3d12_command_list_prepare_draw(struct d3d12_command_list *list, const char *command, bool indexed)
{
    struct d3d12_graphics_bindings *graphics = &list->bindings.graphics;
    const struct d3d12_pipeline_state *pipeline = list->bindings.pipeline;

    if (!pipeline || !pipeline->graphics) {
        d3d12_command_list_record_error(list, command, "%s", !pipeline ? "no pipeline state is set (SetPipelineState)"
                : "the pipeline state set is a compute pipeline (SetPipelineState)");
        return false;
    }
    /* What D3D12 leaves undefined and its debug layer reports: a warning, and no draw. */
    if (graphics->topology_type != pipeline->graphics->topology_type) {
        d3d12_command_list_debug_warn(list, command, "the primitive topology %d (IASetPrimitiveTopology) is not of the pipeline's type %d: "
                "the draw is skipped", (int)graphics->topology, (int)pipeline->graphics->topology_type);
        return false;
    }
    if (!graphics->viewport_count) {
        d3d12_command_list_debug_warn(list, command, "no viewport is set (RSSetViewports): the draw is skipped");
        return false;
    }
    if (indexed && !graphics->index_buffer) {
        d3d12_command_list_debug_warn(list, command, "no index buffer is set (IASetIndexBuffer): the draw is skipped");
        return false;
    }
    /* Vulkan binds no pipeline and no stream output targets while transform feedback is active:
     * another pipeline, or new targets, end it with the pass. */
    if (graphics->xfb_active && (graphics->so_targets_changed || graphics->xfb_pipeline != pipeline->vk_pipeline))
        d3d12_command_list_end_rendering(list);
    /* ENABLE_VIEW_INSTANCE_MASKING with no view of the pipeline's in SetViewInstanceMask: D3D12
     * runs nothing of the draw */
    if (__builtin_expect(pipeline->graphics->view_masking, 0) && !d3d12_command_list_view_mask(list, pipeline->graphics))
        return false;
    if (!d3d12_command_list_flush(list, D3D12_BIND_POINT_GRAPHICS, command, 0))
        return false;
    /* the pipeline made for the masked views (the flush binds it when it binds; a new mask does not flush) */
    if (__builtin_expect(pipeline->graphics->view_masking && !pipeline->graphics->views_apart, 0))
        d3d12_command_list_bind_view_mask_pipeline(list, pipeline->graphics, d3d12_command_list_view_mask(list, pipeline->graphics));
    apply_state(list, pipeline, graphics->vk_topology, indexed, command);
    if (!d3d12_command_list_prepare_rendering(list, pipeline->graphics, command))
        return false;
    if (pipeline->graphics->stream_output_slots)
        d3d12_command_list_begin_stream_output(list, pipeline);
    return true;
}

/* Notes the draw in the record: what its tables and root views use (the flush left them as the
 * dispatch ranges) and, with the console validation on, the attachments of its rendering pass,
 * which it writes (a depth-stencil view read-only in both aspects it only reads): another queue
 * reading them after a value write is what that validation follows (console_validation.h). */
void d3d12_command_list_note_draw(struct d3d12_command_list *list, const char *command)
{
    const struct d3d12_graphics_bindings *graphics = &list->bindings.graphics;
    const struct d3d12_rendering_key *key = &graphics->rendering_key;
    const D3D12_DSV_FLAGS read_only = D3D12_DSV_FLAG_READ_ONLY_DEPTH | D3D12_DSV_FLAG_READ_ONLY_STENCIL;
    struct d3d12_command_record *record = &list->record;
    struct d3d12_recorded_range *ranges;
    uint32_t count, first;

    if (__builtin_expect(!list->object.device->console_validation, 1)) {
        d3d12_command_list_note(list, D3D12_RECORDED_DRAW, record->dispatch_first, record->dispatch_count);
        return;
    }
    /* One run in the record: the tables' ranges (copied: they may be older entries) and the
     * attachments after them. */
    if (!(ranges = malloc((record->dispatch_count + D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT + 1) * sizeof(*ranges)))) {
        d3d12_command_list_record_error(list, command, "out of memory for the console validation's record");
        return;
    }
    if ((count = record->dispatch_count)) /* the record's array may not exist yet */
        memcpy(ranges, record->ranges + record->dispatch_first, count * sizeof(*ranges));
    for (uint32_t i = 0; i < key->color_count && i < graphics->rt_count; i++)
        if (key->colors[i] && graphics->rts[i].resource)
            ranges[count++] = d3d12_recorded_texture_range(graphics->rts[i].resource, &graphics->rts[i].range, true);
    if (key->depth_stencil && graphics->depth_stencil.resource)
        ranges[count++] = d3d12_recorded_texture_range(graphics->depth_stencil.resource, &graphics->depth_stencil.range,
                (graphics->depth_stencil.dsv_flags & read_only) != read_only);
    if (count && (first = d3d12_command_list_note_ranges(list, command, ranges, count)) != UINT32_MAX)
        d3d12_command_list_note(list, D3D12_RECORDED_DRAW, first, count);
    else if (!count)
        d3d12_command_list_note(list, D3D12_RECORDED_DRAW, 0, 0);
    free(ranges);
}

/* note_draw's common case inline, for the two direct draws. */
static inline void note_direct_draw(struct d3d12_command_list *list, const char *command)
{
    if (__builtin_expect(!list->object.device->console_validation, 1))
        d3d12_command_list_note(list, D3D12_RECORDED_DRAW, list->record.dispatch_first, list->record.dispatch_count);
    else
        d3d12_command_list_note_draw(list, command);
}

/* A settled list's draw (draw_settled) that has something to apply (not settled_draw_clean): the
 * flush and the dynamic state, the draw, and whether the list stays settled after it, which only
 * the flush can change (root views set for the first time take its full way, which may leave more
 * than constants to push); its short way leaves it so. Out of line, as draw_full. */
static void __attribute__((noinline)) settled_draw_applying(struct d3d12_command_list *list, const char *command, bool indexed,
        uint32_t count, uint32_t instance_count, uint32_t first, int32_t base_vertex, uint32_t first_instance)
{
    if (!draw_prepared(list, command, indexed))
        return;
    if (indexed)
        list->vk.vkCmdDrawIndexed(list->vk_command_buffer, count, instance_count, first, base_vertex, first_instance);
    else
        list->vk.vkCmdDraw(list->vk_command_buffer, count, instance_count, first, first_instance);
    if (__builtin_expect(list->bindings.points[D3D12_BIND_POINT_GRAPHICS].constants_only, 1)) {
        assert(draw_settled(list));
        list->draw_settled_at = list->call_count;
    }
    d3d12_command_list_note(list, D3D12_RECORDED_DRAW, list->record.dispatch_first, list->record.dispatch_count);
}

/* The draws' way when the list is not settled: every check, then the draw (per view where the
 * pipeline draws its views one by one), and whether the next draw may take the short way. Out of
 * line, one function per draw (draw_instanced_full, draw_indexed_full), so that the short way
 * stays small and each full way knows its kind of draw. */
static inline __attribute__((always_inline)) void draw_full(struct d3d12_command_list *list, const char *command, bool indexed, uint32_t count,
        uint32_t instance_count, uint32_t first, int32_t base_vertex, uint32_t first_instance)
{
    const struct d3d12_graphics_pipeline *pipeline;

    if (!direct_list(list, command) || !count || !instance_count)
        return;
    if (!(__builtin_expect(draw_ready(list, list->bindings.pipeline), 1) ? draw_prepared(list, command, indexed)
            : d3d12_command_list_prepare_draw(list, command, indexed)))
        return;
    pipeline = list->bindings.pipeline->graphics;
    d3d12_command_list_begin_predicated(list);
    for (uint32_t views = pipeline->views_apart ? d3d12_command_list_view_mask(list, pipeline) : 1; views; views &= views - 1) {
        /* views at other locations: one draw per view, the view pushed before it */
        if (pipeline->views_apart)
            d3d12_command_list_push_view(list, (uint32_t)__builtin_ctz(views));
        if (indexed)
            list->vk.vkCmdDrawIndexed(list->vk_command_buffer, count, instance_count, first, base_vertex, first_instance);
        else
            list->vk.vkCmdDraw(list->vk_command_buffer, count, instance_count, first, first_instance);
    }
    d3d12_command_list_end_predicated(list);
    note_direct_draw(list, command);
    if (draw_settled(list))
        list->draw_settled_at = list->call_count;
}

/* settled_draw_applying for each kind of draw, with the draw's own arguments only (no stack
 * arguments: the short ways that call them need no stack frame). */
static void __attribute__((noinline)) settled_draw_instanced_applying(struct d3d12_command_list *list, UINT vertex_count, UINT instance_count,
        UINT first_vertex, UINT first_instance)
{
    settled_draw_applying(list, METHOD(DrawInstanced), false, vertex_count, instance_count, first_vertex, 0, first_instance);
}

static void __attribute__((noinline)) settled_draw_indexed_applying(struct d3d12_command_list *list, UINT index_count, UINT instance_count,
        UINT first_index, INT base_vertex, UINT first_instance)
{
    settled_draw_applying(list, METHOD(DrawIndexedInstanced), true, index_count, instance_count, first_index, base_vertex, first_instance);
}

/* A clean settled draw (settled_draw_clean) whose note does not fit the record's inline way. */
static void __attribute__((noinline)) settled_draw_noting(struct d3d12_command_list *list, bool indexed, UINT count, UINT instance_count,
        UINT first, INT base_vertex, UINT first_instance)
{
    d3d12_command_list_note(list, D3D12_RECORDED_DRAW, list->record.dispatch_first, list->record.dispatch_count);
    if (indexed)
        list->vk.vkCmdDrawIndexed(list->vk_command_buffer, count, instance_count, first, base_vertex, first_instance);
    else
        list->vk.vkCmdDraw(list->vk_command_buffer, count, instance_count, first, first_instance);
}

static void __attribute__((noinline)) draw_instanced_full(struct d3d12_command_list *list, UINT vertex_count, UINT instance_count,
        UINT first_vertex, UINT first_instance)
{
    draw_full(list, METHOD(DrawInstanced), false, vertex_count, instance_count, first_vertex, 0, first_instance);
}

static void __attribute__((noinline)) draw_indexed_full(struct d3d12_command_list *list, UINT index_count, UINT instance_count,
        UINT first_index, INT base_vertex, UINT first_instance)
{
    draw_full(list, METHOD(DrawIndexedInstanced), true, index_count, instance_count, first_index, base_vertex, first_instance);
}

/* The draws' short way: the list settled at the last draw and only root arguments and the like
 * changed since (draw_settled). True when it took the call. Inline in each draw with `indexed`
 * a constant, so that each short way needs no stack frame. */
static inline __attribute__((always_inline)) bool settled_draw(struct d3d12_command_list *list, bool indexed, UINT count,
        UINT instance_count, UINT first, INT base_vertex, UINT first_instance)
{
    if (!__builtin_expect(list->draw_settled_at == list->call_count, 1)) /* settled: recording too (stop_recording) */
        return false;
    list->call_count++;
    if (!count || !instance_count)
        return true;
    if (__builtin_expect(!settled_draw_clean(list, indexed), 0)) {
        if (indexed)
            settled_draw_indexed_applying(list, count, instance_count, first, base_vertex, first_instance);
        else
            settled_draw_instanced_applying(list, count, instance_count, first, first_instance);
        return true;
    }
    /* noted first, so that the draw is the last call (nothing of the list is needed after it);
     * a note that does not fit goes out of line, so that this way needs no stack frame */
    list->draw_settled_at = list->call_count;
    if (__builtin_expect(!d3d12_command_list_note_fits(list), 0)) {
        settled_draw_noting(list, indexed, count, instance_count, first, base_vertex, first_instance);
        return true;
    }
    d3d12_command_list_note(list, D3D12_RECORDED_DRAW, list->record.dispatch_first, list->record.dispatch_count);
    if (indexed)
        list->vk.vkCmdDrawIndexed(list->vk_command_buffer, count, instance_count, first, base_vertex, first_instance);
    else
        list->vk.vkCmdDraw(list->vk_command_buffer, count, instance_count, first, first_instance);
    return true;
}

void STDMETHODCALLTYPE d3d12_command_list_DrawInstanced(ID3D12GraphicsCommandList10 *iface, UINT vertex_count, UINT instance_count,
        UINT first_vertex, UINT first_instance)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);

    if (!settled_draw(list, false, vertex_count, instance_count, first_vertex, 0, first_instance))
        draw_instanced_full(list, vertex_count, instance_count, first_vertex, first_instance);
}

void STDMETHODCALLTYPE d3d12_command_list_DrawIndexedInstanced(ID3D12GraphicsCommandList10 *iface, UINT index_count, UINT instance_count,
        UINT first_index, INT base_vertex, UINT first_instance)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);

    if (!settled_draw(list, true, index_count, instance_count, first_index, base_vertex, first_instance))
        draw_indexed_full(list, index_count, instance_count, first_index, base_vertex, first_instance);
}
