/* A graphics pipeline as D3D12 describes it, whichever way it came: a
 * D3D12_GRAPHICS_PIPELINE_STATE_DESC (graphics_pipeline.c) or a pipeline state stream
 * (pipeline_stream.c), with the newest version of each state (the later rasterizer and
 * depth-stencil descriptions hold every earlier one's fields). Creation reads only this. */
#ifndef D3D12XS_GRAPHICS_DESC_H
#define D3D12XS_GRAPHICS_DESC_H

#include "d3d12.h"

struct d3d12_graphics_desc {
    ID3D12RootSignature *root_signature;
    D3D12_SHADER_BYTECODE vs, ps, ds, hs, gs;
    D3D12_STREAM_OUTPUT_DESC stream_output;
    D3D12_BLEND_DESC blend;
    UINT sample_mask;
    D3D12_RASTERIZER_DESC2 rasterizer;
    D3D12_DEPTH_STENCIL_DESC2 depth_stencil;
    D3D12_INPUT_LAYOUT_DESC input_layout;
    D3D12_INDEX_BUFFER_STRIP_CUT_VALUE strip_cut_value;
    D3D12_PRIMITIVE_TOPOLOGY_TYPE topology_type;
    UINT rt_count;
    DXGI_FORMAT rtv_formats[D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT];
    DXGI_FORMAT dsv_format;
    DXGI_SAMPLE_DESC sample_desc;
    UINT node_mask;
    D3D12_CACHED_PIPELINE_STATE cached_pso;
    D3D12_PIPELINE_STATE_FLAGS flags;
    D3D12_VIEW_INSTANCING_DESC view_instancing;
    /* What the log lines call the parts: "pDesc->" for a description, "the stream's " for a stream */
    const char *prefix;
};

/* The description's state in the newest forms (prefix "pDesc->"). */
void d3d12_graphics_desc_from_desc(const D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc, struct d3d12_graphics_desc *out);
/* D3D12's defaults of each part a stream leaves out (prefix "the stream's "). */
void d3d12_graphics_desc_defaults(struct d3d12_graphics_desc *out);
/* The bytes a graphics pipeline is compared by (struct d3d12_pipeline_key): every stage's
 * bytecode and every state the pipeline is made from, field by field (not the root signature,
 * node mask, cached blob or log prefix). malloc()ed; NULL when out of memory. */
void *d3d12_graphics_desc_key_bytes(const struct d3d12_graphics_desc *desc, size_t *size);
/* The newer forms of the older rasterizer and depth-stencil descriptions. */
void d3d12_rasterizer_desc2_from_desc1(const D3D12_RASTERIZER_DESC1 *desc, D3D12_RASTERIZER_DESC2 *out);
void d3d12_depth_stencil_desc2_from_desc1(const D3D12_DEPTH_STENCIL_DESC1 *desc, D3D12_DEPTH_STENCIL_DESC2 *out);

#endif
