/* A graphics pipeline's fixed state in Vulkan's terms, one file per part of D3D12's description:
 * the input layout (input_layout.c), the rasterizer and multisampling (rasterizer_state.c), the
 * output merger: blend, depth-stencil and the render-target formats (output_merger_state.c).
 * Each part checks D3D12's rules for its fields first (E_INVALIDARG, or E_NOTIMPL for what the
 * device cannot do, with one line naming the field), then fills Vulkan's structures. */
#ifndef D3D12XS_GRAPHICS_STATE_H
#define D3D12XS_GRAPHICS_STATE_H

#include "device/device.h"
#include "pipelines/graphics_desc.h"

/* ---- input_layout.c ---- */
struct d3d12_vertex_input {
    VkPipelineVertexInputStateCreateInfo info;
    VkPipelineVertexInputDivisorStateCreateInfoEXT divisor_info;
    VkVertexInputBindingDescription bindings[D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT];
    VkVertexInputAttributeDescription attributes[D3D12_IA_VERTEX_INPUT_STRUCTURE_ELEMENT_COUNT];
    VkVertexInputBindingDivisorDescriptionEXT divisors[D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT];
    uint32_t slots, per_instance_slots; /* bit per input slot read, and those per instance */
    DXGI_FORMAT formats[D3D12_IA_VERTEX_INPUT_STRUCTURE_ELEMENT_COUNT]; /* each attribute's, for vertex pulling */
};
/* D3D12's rules for the input layout; offsets[i] gets element i's byte offset in its slot
 * (D3D12_APPEND_ALIGNED_ELEMENT resolved). */
HRESULT d3d12_input_layout_check(struct d3d12_device *device, const struct d3d12_graphics_desc *desc, uint32_t *offsets, const char *method);
/* The vertex input state: element i feeds Location locations[i] of the vertex shader
 * (D3D12XS_NO_LOCATION: the shader does not read it, no attribute). */
void d3d12_vertex_input_init(const struct d3d12_graphics_desc *desc, const uint32_t *offsets, const uint32_t *locations,
        struct d3d12_vertex_input *input);
/* The vertex format's numeric kind: 'f' (float, UNORM, SNORM), 'u' (UINT) or 's' (SINT). */
char d3d12_vertex_format_kind(DXGI_FORMAT format);
bool d3d12_vertex_format_is_snorm(DXGI_FORMAT format);

/* ---- rasterizer_state.c ---- */
struct d3d12_rasterizer_state {
    VkPipelineRasterizationStateCreateInfo rasterization;
    VkPipelineRasterizationDepthClipStateCreateInfoEXT depth_clip;
    VkPipelineRasterizationLineStateCreateInfoEXT line;
    VkPipelineRasterizationConservativeStateCreateInfoEXT conservative;
    VkPipelineMultisampleStateCreateInfo multisample;
    VkSampleMask sample_mask;
    VkSampleCountFlagBits samples;
};
HRESULT d3d12_rasterizer_check(struct d3d12_device *device, const struct d3d12_graphics_desc *desc, const char *method);
void d3d12_rasterizer_state_init(struct d3d12_device *device, const struct d3d12_graphics_desc *desc, struct d3d12_rasterizer_state *state);

/* ---- output_merger_state.c ---- */
struct d3d12_output_merger_state {
    VkPipelineColorBlendStateCreateInfo blend;
    VkPipelineColorBlendAttachmentState attachments[D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT];
    VkPipelineDepthStencilStateCreateInfo depth_stencil;
    VkPipelineRenderingCreateInfo rendering;
    VkFormat color_formats[D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT];
    bool dual_source;      /* SRC1 blend factors: the pixel shader's SV_Target1 is RT0's second source */
};
HRESULT d3d12_output_merger_check(struct d3d12_device *device, const struct d3d12_graphics_desc *desc, const char *method);
void d3d12_output_merger_state_init(const struct d3d12_graphics_desc *desc, struct d3d12_output_merger_state *state);
/* Whether a blend description uses the second source (SRC1 factors) in render target 0. */
bool d3d12_blend_uses_dual_source(const D3D12_BLEND_DESC *blend);
/* The Vulkan format a render target (or depth-stencil) format renders in (UNDEFINED for UNKNOWN). */
VkFormat d3d12_target_vk_format(DXGI_FORMAT format);

/* ---- stream_output.c ---- */
struct d3d12_graphics_stage;
struct d3d12xs_spirv_xfb_capture;
/* D3D12's rules for StreamOutput that need no shader (entries, strides, slots, streams,
 * RasterizedStream), and what the device lacks for it (E_NOTIMPL). */
HRESULT d3d12_stream_output_check(struct d3d12_device *device, const struct d3d12_graphics_desc *desc, bool has_gs, const char *method);
/* The declaration matched against the outputs of `stage`, the last before the rasterizer: one
 * capture per entry that is not a gap (captures: NumEntries of them), at Locations from
 * *first_location on. E_INVALIDARG for an entry whose semantic the stage does not write or whose
 * components pass the output's; E_NOTIMPL for outputs d3d12xs cannot capture. */
HRESULT d3d12_stream_output_match(struct d3d12_device *device, const struct d3d12_graphics_desc *desc, const struct d3d12_graphics_stage *stage,
        struct d3d12xs_spirv_xfb_capture *captures, uint32_t *count, uint32_t *first_location, const char *method);

#endif
