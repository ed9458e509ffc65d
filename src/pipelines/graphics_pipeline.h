/* Graphics pipeline states (graphics_pipeline.c): D3D12's description checked (graphics_rules.c),
 * its stages linked by semantic (graphics_link.c) and bound to the root signature's one layout as
 * compute shaders are (pipeline_state.c), its fixed state turned into Vulkan's (input_layout.c,
 * rasterizer_state.c, output_merger_state.c) and one VkPipeline built for dynamic rendering.
 * What D3D12 sets on a list (viewports, scissors, blend factor, stencil reference, depth bounds,
 * topology within its type, vertex strides, primitive restart, patch control points) is dynamic
 * state, so list state never multiplies pipelines. */
#ifndef D3D12XS_GRAPHICS_PIPELINE_H
#define D3D12XS_GRAPHICS_PIPELINE_H

#include "pipelines/pipeline_state.h"
#include "pipelines/graphics_desc.h"

/* What a command list needs of a graphics pipeline to draw with it (the pipeline state's
 * `graphics`). */
struct d3d12_graphics_pipeline {
    D3D12_PRIMITIVE_TOPOLOGY_TYPE topology_type;
    D3D12_INDEX_BUFFER_STRIP_CUT_VALUE strip_cut_value;
    /* The rendering it draws into (VkPipelineRenderingCreateInfo): colour attachments 0 to
     * rt_count - 1 (UNDEFINED where RTVFormats is UNKNOWN), the depth-stencil format, samples. */
    uint32_t rt_count;
    VkFormat rt_formats[D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT];
    DXGI_FORMAT rtv_formats[D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT];
    VkFormat depth_stencil_format;
    DXGI_FORMAT dsv_format;
    VkSampleCountFlagBits samples;
    uint32_t vertex_slots;          /* bit per input slot its input layout reads */
    uint32_t per_instance_slots;    /* ... of which per-instance */
    bool depth_bounds_test;         /* DepthBoundsTestEnable: OMSetDepthBounds' values apply */
    bool tessellation;              /* patch lists: the list's N control points are dynamic */
    uint32_t stream_output_slots;   /* bit per SO buffer slot its StreamOutput writes (0: none) */
    /* DYNAMIC_INDEX_BUFFER_STRIP_CUT: IASetIndexBufferStripCutValue's value applies, not strip_cut_value */
    bool dynamic_strip_cut;
    /* DYNAMIC_DEPTH_BIAS: RSSetDepthBias' values apply; until the list sets them, these (the
     * rasterizer state's DepthBias, DepthBiasClamp, SlopeScaledDepthBias) */
    bool dynamic_depth_bias;
    float depth_bias[3];
    /* View instancing: the views it renders (Vulkan's view mask, bit i for view i; 0 without
     * view instancing). With ENABLE_VIEW_INSTANCE_MASKING (view_masking) a draw renders the views
     * of view_mask & the list's SetViewInstanceMask, with the pipeline made for that mask, all of
     * them made with the pipeline (view_mask_pipelines[mask]; [view_mask] is the pipeline's own). */
    uint32_t view_mask;
    bool view_masking;
    /* Views whose locations multiview cannot express (pViewInstanceLocations other than view i
     * into slice i through viewport 0): the VkPipeline has no view mask and a draw runs once per
     * view, the view index, the pass's array slices and the viewports' count pushed at
     * view_push_offset before each (spirv/spirv_view_locations.c); view_mask_pipelines[] holds
     * only the pipeline's own. */
    bool views_apart;
    uint32_t view_push_offset;
    /* Dynamic sample locations (VK_EXT_sample_locations at its sample count): a draw sets
     * SetSamplePositions' positions, or the standard ones (command_list_sample_positions.c) */
    bool sample_locations;
    /* SampleDesc.Quality D3D12_CENTER_MULTISAMPLE_PATTERN above one sample: its standard
     * positions are every sample at the pixel's centre (sample_locations holds then) */
    bool center_samples;
    VkPipeline view_mask_pipelines[1u << D3D12_MAX_VIEW_INSTANCE_COUNT];
    /* The fixed state of its VkPipeline, kept where ExecuteIndirect may need a variant with other
     * shaders (graphics_build.c); NULL elsewhere. */
    struct d3d12_graphics_build *build;
    /* What d3d12_graphics_pipelines_draw_alike compares, packed at creation (graphics_build.c):
     * its layout, the rendering it draws into (render target and depth-stencil formats, samples,
     * views) and the state a bind keeps or a settled draw does not set (topology type, strip cut,
     * last vertex slot, sample locations). All zero for a pipeline that is alike to none. */
    uint64_t alike_key[4];
};

/* What the sample locations a draw of the pipeline sets without SetSamplePositions depend on:
 * its count, and the centre pattern (graphics_bindings.h's applied_sample_locations). */
static inline uint32_t d3d12_sample_locations_key(const struct d3d12_graphics_pipeline *pipeline)
{
    return (uint32_t)pipeline->samples | (pipeline->center_samples ? 0x100u : 0);
}

/* Whether a draw with b, right after draws with a, finds the rendering pass open for it and the
 * dynamic state as a's draws left it but the pipeline bound: the same layout, render target and
 * depth-stencil formats, samples and views, topology type, strip cut, last vertex slot and sample
 * locations, and neither has state a bind leaves undefined or a draw handles per draw
 * (tessellation, view-instance masking or views drawn one by one, stream output, dynamic depth
 * bias, depth bounds test: alike to none). A settled list stays settled across a SetPipelineState
 * between such pipelines; it binds b at once where nothing else is needed, else its next draw
 * binds b in the flush (command_list_bindings.c, command_list_graphics.c). */
static inline bool d3d12_graphics_pipelines_draw_alike(const struct d3d12_graphics_pipeline *a, const struct d3d12_graphics_pipeline *b)
{
    return a->alike_key[0] && a->alike_key[0] == b->alike_key[0] && a->alike_key[1] == b->alike_key[1] && a->alike_key[2] == b->alike_key[2]
            && a->alike_key[3] == b->alike_key[3];
}

/* A parsed pipeline state stream (pipeline_stream.c). */
struct d3d12_pipeline_stream {
    struct d3d12_graphics_desc graphics; /* with D3D12's defaults for what the stream leaves out */
    D3D12_SHADER_BYTECODE cs;
    bool has_cs, has_graphics_stage;
};

/* ID3D12Device::CreateGraphicsPipelineState. */
HRESULT d3d12_graphics_pipeline_create_from_desc(struct d3d12_device *device, const D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc, REFIID riid,
        void **out);
/* The shared path of both ways of describing one; method names the entry point in log lines. */
HRESULT d3d12_graphics_pipeline_create(struct d3d12_device *device, const struct d3d12_graphics_desc *desc, const char *method, REFIID riid,
        void **out);
/* The key a description is compared by (struct d3d12_pipeline_key) after D3D12's rules for it,
 * and its root signature (the description's or a shader's RTS0 part), a reference the caller
 * releases; key->bytes is malloc()ed, the caller's to free. */
HRESULT d3d12_graphics_pipeline_key(struct d3d12_device *device, const struct d3d12_graphics_desc *desc, struct d3d12_pipeline_key *key,
        struct d3d12_root_signature **signature, const char *method);
/* pipeline_stream.c: ID3D12Device2::CreatePipelineState (compute or graphics). */
HRESULT d3d12_pipeline_state_create_from_stream(struct d3d12_device *device, const D3D12_PIPELINE_STATE_STREAM_DESC *desc, REFIID riid,
        void **out);
HRESULT d3d12_pipeline_stream_parse(const D3D12_PIPELINE_STATE_STREAM_DESC *desc, struct d3d12_pipeline_stream *out, const char *method);

/* graphics_rules.c: D3D12's rules for a graphics description, before anything is built:
 * E_INVALIDARG (or E_NOTIMPL for what d3d12xs does not do) with one line naming the field. */
HRESULT d3d12_graphics_desc_check(struct d3d12_device *device, const struct d3d12_graphics_desc *desc, const char *method);
/* Whether its view instancing puts a view elsewhere than multiview does (view i into array
 * slice i through viewport 0), which then draws the views one by one (views_apart above). */
bool d3d12_graphics_desc_views_apart(const struct d3d12_graphics_desc *desc);

#endif
