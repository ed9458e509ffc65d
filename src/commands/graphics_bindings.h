/* What a command list binds for draws, list-wide as in D3D12 (struct d3d12_list_bindings'
 * `graphics`): render targets and the rendering pass open in the command buffer
 * (command_list_render_pass.c), and the input assembler, rasterizer and output merger state the
 * list sets (command_list_graphics.c), which is Vulkan dynamic state. Reset and ClearState
 * zero it with the rest of the bindings. */
#ifndef D3D12XS_GRAPHICS_BINDINGS_H
#define D3D12XS_GRAPHICS_BINDINGS_H

#include <stdbool.h>
#include <stdint.h>

#include <vulkan/vulkan.h>

#include "d3d12.h"
#include "memory/va_map.h"

struct d3d12_resource;

/* A render target or depth-stencil view as OMSetRenderTargets read it (D3D12 reads the
 * descriptors at the call: the heap slots may be rewritten after). */
struct d3d12_bound_target {
    VkImageView view;              /* VK_NULL_HANDLE: a null view (nothing written) */
    VkFormat format;
    VkImageSubresourceRange range;
    VkExtent2D extent;             /* of the view's mip */
    VkSampleCountFlagBits samples;
    struct d3d12_resource *resource; /* not referenced, as D3D12 descriptors are not */
    D3D12_DSV_FLAGS dsv_flags;
};

/* What the open rendering pass renders into: a draw whose pipeline and targets need another
 * pass ends it and begins one. */
struct d3d12_rendering_key {
    uint32_t color_count;
    VkImageView colors[D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT];
    VkImageView depth_stencil;
    VkImageAspectFlags depth_stencil_aspects;
    VkRect2D area;
    uint32_t layers;
    uint32_t view_mask;            /* multiview's (view instancing), 0 without */
};

/* The list state a draw applies as dynamic state: what changed since it was set in the
 * current command buffer. */
enum d3d12_graphics_dirty {
    D3D12_GRAPHICS_DIRTY_VIEWPORTS = 0x1,      /* viewports and scissors (one count) */
    D3D12_GRAPHICS_DIRTY_BLEND_FACTOR = 0x2,
    D3D12_GRAPHICS_DIRTY_STENCIL_REF = 0x4,
    D3D12_GRAPHICS_DIRTY_DEPTH_BOUNDS = 0x8,
    D3D12_GRAPHICS_DIRTY_TOPOLOGY = 0x10,      /* topology, primitive restart, patch control points */
    D3D12_GRAPHICS_DIRTY_VERTEX_BUFFERS = 0x20,
    D3D12_GRAPHICS_DIRTY_INDEX_BUFFER = 0x40,
    D3D12_GRAPHICS_DIRTY_DEPTH_BIAS = 0x80,
    D3D12_GRAPHICS_DIRTY_SAMPLE_LOCATIONS = 0x100,
    D3D12_GRAPHICS_DIRTY_ALL = 0x1ff,
};

/* The vertex buffer slots as vkCmdBindVertexBuffers2 takes them, so that a draw binds them with
 * one call and no copy: a slot without a buffer holds the device's form of none (a null buffer,
 * or its zeroed one), which reads 0; d3d12_command_list_reset_bindings fills every slot so. */
struct d3d12_vertex_buffers {
    VkBuffer buffers[D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT];
    VkDeviceSize offsets[D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT];
    VkDeviceSize sizes[D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT];
    VkDeviceSize strides[D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT];
    /* the views as given (0: none), for ExecuteIndirect's own path (its images hold D3D12 views) */
    D3D12_GPU_VIRTUAL_ADDRESS addresses[D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT];
    UINT view_sizes[D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT];
};

/* A stream output target as SOSetTargets read it: the buffer range written and the 4 bytes at
 * BufferFilledSizeLocation, the byte count written so far, which transform feedback reads as its
 * counter when it begins and writes when it ends (so appends go on across draws and lists). */
struct d3d12_stream_output_target {
    VkBuffer buffer;               /* VK_NULL_HANDLE: no target in the slot */
    VkDeviceSize offset, size;
    VkBuffer filled_size_buffer;
    VkDeviceSize filled_size_offset;
};

/* Slot `slot` without a buffer: its reads give 0. */
static inline void d3d12_vertex_slot_clear(struct d3d12_vertex_buffers *vertex, uint32_t slot, VkBuffer none, VkDeviceSize none_size)
{
    vertex->buffers[slot] = none;
    vertex->offsets[slot] = vertex->strides[slot] = 0;
    vertex->sizes[slot] = none_size;
    vertex->addresses[slot] = 0;
    vertex->view_sizes[slot] = 0;
}

struct d3d12_graphics_bindings {
    /* OMSetRenderTargets */
    uint32_t rt_count;
    struct d3d12_bound_target rts[D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT];
    bool has_depth_stencil;
    struct d3d12_bound_target depth_stencil;
    /* The rendering pass open in `rendering_in` (command_list_render_pass.c) */
    bool rendering;
    VkCommandBuffer rendering_in;
    struct d3d12_rendering_key rendering_key;
    /* The pipeline whose draws the open pass was last found to fit: the next draw with it skips
     * the comparison (OMSetRenderTargets clears it). */
    const void *rendering_checked_for;
    /* What of that pipeline the check read (its attachment formats, samples, views): another
     * pipeline that renders the same passes nothing more to check (command_list_render_pass.c). */
    struct {
        uint32_t rt_count, view_mask;
        VkFormat rt_formats[D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT], depth_stencil_format;
        VkSampleCountFlagBits samples;
    } rendering_checked_formats;
    /* The stages a draw runs in on the device (d3d12_draw_stages) and the barrier tracker's slots
     * of them, worked out once per list for the draws' common case. */
    VkPipelineStageFlags2 draw_stages, draw_tracked_stages;
    /* The list's state (command_list_graphics.c) and what the command buffer lacks of it */
    uint32_t dirty;                /* enum d3d12_graphics_dirty */
    VkCommandBuffer applied_in;    /* the command buffer it was last applied in */
    VkPipeline applied_pipeline;   /* the graphics pipeline bound when it was applied */
    /* Of that pipeline: what decides which dynamic state the next pipeline's bind leaves valid */
    uint32_t applied_vertex_slots;
    D3D12_INDEX_BUFFER_STRIP_CUT_VALUE applied_strip_cut;
    /* what the command buffer's dynamic sample locations were set for (d3d12_sample_locations_key:
     * the count and the centre pattern), 0 where none are (or a pipeline without them was bound
     * since: its bind leaves them undefined) */
    uint32_t applied_sample_locations;
    uint32_t viewport_count, scissor_count;
    VkViewport viewports[D3D12_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE];
    VkRect2D scissors[D3D12_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE];
    bool blend_factor_set;
    float blend_factor[4];
    uint32_t stencil_ref, back_stencil_ref; /* OMSetStencilRef sets both; OMSetFrontAndBackStencilRef each */
    bool strip_cut_set;            /* IASetIndexBufferStripCutValue (pipelines with DYNAMIC_INDEX_BUFFER_STRIP_CUT) */
    D3D12_INDEX_BUFFER_STRIP_CUT_VALUE strip_cut_value;
    bool depth_bias_set;           /* RSSetDepthBias (pipelines with DYNAMIC_DEPTH_BIAS) */
    float depth_bias[3];           /* DepthBias, DepthBiasClamp, SlopeScaledDepthBias */
    bool depth_bounds_set;
    float depth_bounds[2];
    D3D_PRIMITIVE_TOPOLOGY topology;
    /* It as Vulkan's and its type, worked out when it is set (UNDEFINED, 0, until then: no
     * pipeline is of that type), so a draw need not translate it again. */
    VkPrimitiveTopology vk_topology;
    D3D12_PRIMITIVE_TOPOLOGY_TYPE topology_type;
    struct d3d12_vertex_buffers vertex;  /* IASetVertexBuffers */
    /* The range the last vertex or index buffer view was found in: views move within a buffer far
     * more often than between buffers (a game's vertex data sub-allocated from one). */
    struct d3d12xs_va_hint view_hint;
    VkBuffer vertex_none;          /* a slot's buffer, and its size, where it has none (reset_bindings) */
    VkDeviceSize vertex_none_size;
    VkBuffer index_buffer;         /* VK_NULL_HANDLE: none */
    VkDeviceSize index_offset, index_size;
    VkIndexType index_type;
    /* SetViewInstanceMask (command_list_view_instancing.c): the views pipelines with
     * ENABLE_VIEW_INSTANCE_MASKING render, 0 (none) until set; view_instance_mask_set notes a
     * call, so that a bundle that makes none leaves its caller's mask */
    uint32_t view_instance_mask;
    bool view_instance_mask_set;
    /* SetSamplePositions (command_list_sample_positions.c): samples per pixel (0: the standard
     * positions), pixels (1, or 4 for a 2 x 2 grid) and the positions as Vulkan's */
    uint32_t sample_positions_samples, sample_positions_pixels;
    VkSampleLocationEXT sample_positions[16]; /* D3D12 allows 16 in all */
    /* SOSetTargets (command_list_stream_output.c) */
    struct d3d12_stream_output_target so_targets[D3D12_SO_BUFFER_SLOT_COUNT];
    /* Transform feedback active in the open rendering pass: begun by a draw with stream output,
     * for xfb_pipeline and the targets as they were then, xfb_targets (SOSetTargets ends it at
     * the next draw); the pass's end ends it, writing the counters of slots xfb_slots. */
    bool xfb_active, so_targets_changed;
    VkPipeline xfb_pipeline;
    uint32_t xfb_slots;
    struct d3d12_stream_output_target xfb_targets[D3D12_SO_BUFFER_SLOT_COUNT];
};

#endif
