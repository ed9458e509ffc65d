/* The graphics commands of a list: render targets and rendering passes
 * (command_list_render_pass.c), stream output (command_list_stream_output.c), the input
 * assembler, rasterizer and output merger state and the draws (command_list_graphics.c). */
#ifndef D3D12XS_COMMAND_LIST_GRAPHICS_H
#define D3D12XS_COMMAND_LIST_GRAPHICS_H

#include "commands/command_list_state.h"

struct d3d12_graphics_pipeline;

/* command_list_render_pass.c */
void STDMETHODCALLTYPE d3d12_command_list_OMSetRenderTargets(ID3D12GraphicsCommandList10 *iface, UINT count,
        const D3D12_CPU_DESCRIPTOR_HANDLE *rtvs, BOOL single_range, const D3D12_CPU_DESCRIPTOR_HANDLE *dsv);
/* Before a draw with pipeline: its barriers, then a rendering pass over the list's targets as the
 * pipeline renders them (the open one if it fits). False after the debug layer's warning when a
 * bound target is not of the pipeline's format or sample count (the draw is skipped). */
bool d3d12_command_list_prepare_rendering(struct d3d12_command_list *list, const struct d3d12_graphics_pipeline *pipeline, const char *command);

/* command_list_stream_output.c: in a draw, once its rendering pass is open, transform feedback
 * over the SO targets where the pipeline streams out and it is not active yet. */
struct d3d12_pipeline_state;
void d3d12_command_list_begin_stream_output(struct d3d12_command_list *list, const struct d3d12_pipeline_state *pipeline);

/* command_list_view_instancing.c: the views a draw with pipeline renders (Vulkan's view mask:
 * the pipeline's views, those of them in the list's SetViewInstanceMask with masking, 0 without
 * view instancing), and the bind of the pipeline made for a masked subset of them. */
void STDMETHODCALLTYPE d3d12_command_list_SetViewInstanceMask(ID3D12GraphicsCommandList10 *iface, UINT mask);
uint32_t d3d12_command_list_view_mask(const struct d3d12_command_list *list, const struct d3d12_graphics_pipeline *pipeline);
void d3d12_command_list_bind_view_mask_pipeline(struct d3d12_command_list *list, const struct d3d12_graphics_pipeline *pipeline,
        uint32_t view_mask);
/* ... and, for a pipeline that draws its views one by one (views_apart: locations multiview
 * cannot express), before each view's Vulkan draw its push: the view index, the open pass's
 * array slices, the viewports set. */
void d3d12_command_list_push_view(struct d3d12_command_list *list, uint32_t view);

/* command_list_sample_positions.c: in a draw with a pipeline of dynamic sample locations, the
 * list's SetSamplePositions positions (or the standard ones) as Vulkan's. */
void STDMETHODCALLTYPE d3d12_command_list_SetSamplePositions(ID3D12GraphicsCommandList10 *iface, UINT samples, UINT pixels,
        D3D12_SAMPLE_POSITION *positions);
void d3d12_command_list_apply_sample_positions(struct d3d12_command_list *list, const struct d3d12_graphics_pipeline *pipeline,
        const char *command);

/* command_list_graphics.c */
void STDMETHODCALLTYPE d3d12_command_list_IASetPrimitiveTopology(ID3D12GraphicsCommandList10 *iface, D3D12_PRIMITIVE_TOPOLOGY topology);
void STDMETHODCALLTYPE d3d12_command_list_IASetVertexBuffers(ID3D12GraphicsCommandList10 *iface, UINT start, UINT count,
        const D3D12_VERTEX_BUFFER_VIEW *views);
void STDMETHODCALLTYPE d3d12_command_list_IASetIndexBuffer(ID3D12GraphicsCommandList10 *iface, const D3D12_INDEX_BUFFER_VIEW *view);
void STDMETHODCALLTYPE d3d12_command_list_RSSetViewports(ID3D12GraphicsCommandList10 *iface, UINT count, const D3D12_VIEWPORT *viewports);
void STDMETHODCALLTYPE d3d12_command_list_RSSetScissorRects(ID3D12GraphicsCommandList10 *iface, UINT count, const D3D12_RECT *rects);
void STDMETHODCALLTYPE d3d12_command_list_OMSetBlendFactor(ID3D12GraphicsCommandList10 *iface, const FLOAT *factor);
void STDMETHODCALLTYPE d3d12_command_list_OMSetStencilRef(ID3D12GraphicsCommandList10 *iface, UINT reference);
void STDMETHODCALLTYPE d3d12_command_list_OMSetDepthBounds(ID3D12GraphicsCommandList10 *iface, FLOAT min, FLOAT max);
void STDMETHODCALLTYPE d3d12_command_list_DrawInstanced(ID3D12GraphicsCommandList10 *iface, UINT vertex_count, UINT instance_count,
        UINT first_vertex, UINT first_instance);
void STDMETHODCALLTYPE d3d12_command_list_DrawIndexedInstanced(ID3D12GraphicsCommandList10 *iface, UINT index_count, UINT instance_count,
        UINT first_index, INT base_vertex, UINT first_instance);
/* What every draw (DrawInstanced, DrawIndexedInstanced, ExecuteIndirect's) does before its Vulkan
 * draw: checks, the graphics bind point's flush, the dynamic state, barriers and the rendering
 * pass; false when the draw cannot (or need not) run. */
bool d3d12_command_list_prepare_draw(struct d3d12_command_list *list, const char *command, bool indexed);
/* After it: the draw in the list's record. */
void d3d12_command_list_note_draw(struct d3d12_command_list *list, const char *command);

#endif
