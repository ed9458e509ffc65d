/* A graphics pipeline's VkPipelines from its stages' final SPIR-V and the description's fixed
 * state (graphics_build.h). Everything the VkGraphicsPipelineCreateInfo points at lives in one
 * allocation, so that a pipeline whose ExecuteIndirect variants may be needed
 * (pipeline_indirect_variant.c) keeps it, and builds a variant later with other shaders and the
 * same state: the description itself points into the application's memory and is gone by then. */
#include <stdlib.h>
#include <string.h>

#include "pipelines/graphics_build.h"
#include "pipelines/graphics_link.h"
#include "pipelines/graphics_state.h"
#include "spirv/spirv.h"

_Static_assert(D3D12XS_GRAPHICS_STAGE_COUNT == D3D12XS_PIPELINE_MAX_STAGES, "a pipeline keeps a variant source per graphics stage");

struct d3d12_graphics_build {
    struct d3d12_vertex_input input;
    struct d3d12_rasterizer_state rasterizer;
    struct d3d12_output_merger_state output;
    VkPipelineRasterizationStateStreamCreateInfoEXT rasterized_stream;
    VkPipelineInputAssemblyStateCreateInfo input_assembly;
    VkPipelineTessellationStateCreateInfo tessellation;
    VkPipelineViewportStateCreateInfo viewport;
    VkPipelineSampleLocationsStateCreateInfoEXT sample_locations;
    VkDynamicState dynamic_states[16];
    VkPipelineDynamicStateCreateInfo dynamic;
    VkGraphicsPipelineCreateInfo info; /* pStages and the view mask set per pipeline */
    uint32_t stage_count;
    VkShaderStageFlagBits stages[D3D12XS_GRAPHICS_STAGE_COUNT];
    char entry_points[D3D12XS_GRAPHICS_STAGE_COUNT][64];
};

static VkPrimitiveTopology base_topology(D3D12_PRIMITIVE_TOPOLOGY_TYPE type)
{
    switch (type) {
    case D3D12_PRIMITIVE_TOPOLOGY_TYPE_POINT: return VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    case D3D12_PRIMITIVE_TOPOLOGY_TYPE_LINE: return VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
    case D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH: return VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
    default: return VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    }
}

/* The fixed state of the description, for state's pipeline (which it may mark). */
static void prepare(struct d3d12_pipeline_state *state, const struct d3d12_graphics_desc *desc, const uint32_t *offsets,
        const uint32_t *element_locations, struct d3d12_graphics_build *b)
{
    struct d3d12_device *device = state->device;
    uint32_t dynamic_count = 0;

    d3d12_vertex_input_init(desc, offsets, element_locations, &b->input);
    d3d12_rasterizer_state_init(device, desc, &b->rasterizer);
    /* StreamOutput.RasterizedStream: none discards every primitive after streaming out; another
     * stream than 0 is rasterized in its place (a geometry shader's). */
    b->rasterized_stream = (VkPipelineRasterizationStateStreamCreateInfoEXT){
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_STREAM_CREATE_INFO_EXT,
        .pNext = b->rasterizer.rasterization.pNext,
        .rasterizationStream = desc->stream_output.RasterizedStream,
    };
    if (desc->stream_output.NumEntries && desc->stream_output.RasterizedStream == D3D12_SO_NO_RASTERIZED_STREAM)
        b->rasterizer.rasterization.rasterizerDiscardEnable = VK_TRUE;
    else if (desc->stream_output.NumEntries && desc->stream_output.RasterizedStream)
        b->rasterizer.rasterization.pNext = &b->rasterized_stream;
    d3d12_output_merger_state_init(desc, &b->output);

    b->input_assembly = (VkPipelineInputAssemblyStateCreateInfo){
        .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
        .topology = base_topology(desc->topology_type), /* dynamic, within the type's class */
    };
    b->tessellation = (VkPipelineTessellationStateCreateInfo){
        .sType = VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO,
        .patchControlPoints = 1, /* dynamic: IASetPrimitiveTopology's N control points */
    };
    b->viewport = (VkPipelineViewportStateCreateInfo){.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    /* What D3D12 sets on the list (RSSetViewports, RSSetScissorRects, OMSetBlendFactor,
     * OMSetStencilRef, OMSetDepthBounds, IASetPrimitiveTopology, IASetVertexBuffers' strides, the
     * index buffer's strip cut): dynamic, so list state never makes pipelines. */
    b->dynamic_states[dynamic_count++] = VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT;
    b->dynamic_states[dynamic_count++] = VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT;
    b->dynamic_states[dynamic_count++] = VK_DYNAMIC_STATE_BLEND_CONSTANTS;
    b->dynamic_states[dynamic_count++] = VK_DYNAMIC_STATE_STENCIL_REFERENCE;
    b->dynamic_states[dynamic_count++] = VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY;
    b->dynamic_states[dynamic_count++] = VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE;
    if (b->input.slots)
        b->dynamic_states[dynamic_count++] = VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE;
    if (b->output.depth_stencil.depthBoundsTestEnable)
        b->dynamic_states[dynamic_count++] = VK_DYNAMIC_STATE_DEPTH_BOUNDS;
    if (desc->flags & D3D12_PIPELINE_STATE_FLAG_DYNAMIC_DEPTH_BIAS)
        b->dynamic_states[dynamic_count++] = VK_DYNAMIC_STATE_DEPTH_BIAS;
    if (desc->topology_type == D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH)
        b->dynamic_states[dynamic_count++] = VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT;
    /* SetSamplePositions: sample locations on and dynamic wherever the device has them at the
     * pipeline's count (D3D12 pipelines do not say whether a list will set positions); a draw
     * sets the list's positions or the standard ones, which Vulkan's are too. Not where nothing
     * is rasterized (stream output alone): Vulkan ignores such a pipeline's multisample state */
    b->sample_locations = (VkPipelineSampleLocationsStateCreateInfoEXT){
        .sType = VK_STRUCTURE_TYPE_PIPELINE_SAMPLE_LOCATIONS_STATE_CREATE_INFO_EXT,
        .pNext = b->rasterizer.multisample.pNext,
        .sampleLocationsEnable = VK_TRUE,
        .sampleLocationsInfo = {.sType = VK_STRUCTURE_TYPE_SAMPLE_LOCATIONS_INFO_EXT, .sampleLocationsPerPixel = b->rasterizer.samples,
                .sampleLocationGridSize = {1, 1}},
    };
    if (device->graphics.sample_positions_tier && (device->graphics.sample_location_counts & b->rasterizer.samples)
            && b->rasterizer.samples <= VK_SAMPLE_COUNT_16_BIT && !b->rasterizer.rasterization.rasterizerDiscardEnable) {
        b->rasterizer.multisample.pNext = &b->sample_locations;
        b->dynamic_states[dynamic_count++] = VK_DYNAMIC_STATE_SAMPLE_LOCATIONS_EXT;
        state->graphics->sample_locations = true;
        state->graphics->center_samples = desc->sample_desc.Quality == D3D12_CENTER_MULTISAMPLE_PATTERN && b->rasterizer.samples > 1;
    }
    b->dynamic = (VkPipelineDynamicStateCreateInfo){
        .sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
        .dynamicStateCount = dynamic_count,
        .pDynamicStates = b->dynamic_states,
    };
    b->info = (VkGraphicsPipelineCreateInfo){
        .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
        .pNext = &b->output.rendering,
        /* the layout's heap sets are descriptor buffers */
        .flags = state->root_signature->reads_heaps ? VK_PIPELINE_CREATE_DESCRIPTOR_BUFFER_BIT_EXT : 0,
        .pVertexInputState = &b->input.info,
        .pInputAssemblyState = &b->input_assembly,
        .pTessellationState = desc->topology_type == D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH ? &b->tessellation : NULL,
        .pViewportState = &b->viewport,
        .pRasterizationState = &b->rasterizer.rasterization,
        .pMultisampleState = &b->rasterizer.multisample,
        .pDepthStencilState = &b->output.depth_stencil,
        .pColorBlendState = &b->output.blend,
        .pDynamicState = &b->dynamic,
        .layout = state->vk_layout,
    };
}

/* The shader modules of the stages' SPIR-V and their stage infos; on an error, *failed names
 * the stage (the modules made before it are in modules[], the rest VK_NULL_HANDLE). */
static VkResult create_modules(struct d3d12_device *device, const struct d3d12_graphics_build *b, uint32_t *const *words,
        const size_t *word_counts, VkShaderModule *modules, VkPipelineShaderStageCreateInfo *stage_infos, uint32_t *failed)
{
    VkResult vr = VK_SUCCESS;

    for (uint32_t s = 0; s < b->stage_count && vr == VK_SUCCESS; s++) {
        uint32_t *device_words = d3d12xs_spirv_words_for_device(words[s], word_counts[s], device->compute_derivatives_khr);
        const VkShaderModuleCreateInfo module_info = {
            .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
            .codeSize = word_counts[s] * 4,
            .pCode = device_words ? device_words : words[s],
        };
        if ((vr = vkCreateShaderModule(device->vk_device, &module_info, NULL, &modules[s])) != VK_SUCCESS)
            *failed = s;
        free(device_words);
        stage_infos[s] = (VkPipelineShaderStageCreateInfo){
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = b->stages[s],
            .module = modules[s],
            .pName = b->entry_points[s],
        };
    }
    return vr;
}

/* d3d12_graphics_pipelines_draw_alike's key, once the pipeline is made. Formats are DXGI's (one
 * byte each; a pipeline with a larger value is alike to none, as are those with per-draw state). */
static void key_alike(struct d3d12_pipeline_state *state)
{
    struct d3d12_graphics_pipeline *g = state->graphics;
    uint64_t formats = 0;

    memset(g->alike_key, 0, sizeof(g->alike_key));
    if (g->tessellation || g->view_masking || g->views_apart || g->stream_output_slots || g->dynamic_depth_bias || g->depth_bounds_test
            || g->dynamic_strip_cut || g->dsv_format > 0xff || g->samples > 0xff || g->rt_count > D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT
            || (uint32_t)g->strip_cut_value > 0xff || (uint32_t)g->topology_type > 0xff || !state->vk_layout)
        return;
    for (uint32_t i = 0; i < g->rt_count; i++) {
        if (g->rtv_formats[i] > 0xff)
            return;
        formats |= (uint64_t)g->rtv_formats[i] << (8 * i);
    }
    g->alike_key[0] = (uint64_t)state->vk_layout;
    g->alike_key[1] = formats;
    g->alike_key[2] = g->view_mask | (uint64_t)g->dsv_format << 32 | (uint64_t)g->samples << 40 | (uint64_t)g->rt_count << 48
            | (uint64_t)g->topology_type << 56;
    g->alike_key[3] = (uint64_t)g->strip_cut_value | (uint64_t)(g->vertex_slots ? 32 - __builtin_clz(g->vertex_slots) : 0) << 8
            | (uint64_t)g->sample_locations << 16 | (uint64_t)g->center_samples << 24;
}

HRESULT d3d12_graphics_pipeline_build(struct d3d12_pipeline_state *state, const struct d3d12_graphics_desc *desc,
        const struct d3d12_graphics_stage *stages, uint32_t stage_count, uint32_t *const *words, const size_t *word_counts,
        char (*entry_points)[64], const uint32_t *offsets, const uint32_t *element_locations, bool keep, const char *method)
{
    struct d3d12_device *device = state->device;
    VkPipelineShaderStageCreateInfo stage_infos[D3D12XS_GRAPHICS_STAGE_COUNT];
    VkShaderModule modules[D3D12XS_GRAPHICS_STAGE_COUNT] = {0};
    struct d3d12_graphics_build *b;
    uint32_t failed = 0;
    VkResult vr;
    HRESULT hr = S_OK;

    if (!(b = calloc(1, sizeof(*b))))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the pipeline's state");
    b->stage_count = stage_count;
    for (uint32_t s = 0; s < stage_count; s++) {
        b->stages[s] = stages[s].stage;
        memcpy(b->entry_points[s], entry_points[s], sizeof(b->entry_points[s]));
    }
    if ((vr = create_modules(device, b, words, word_counts, modules, stage_infos, &failed)) != VK_SUCCESS) {
        hr = d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "%s: vkCreateShaderModule failed (VkResult %d)",
                stages[failed].argument, vr);
        goto done;
    }
    prepare(state, desc, offsets, element_locations, b);
    b->info.stageCount = stage_count;
    b->info.pStages = stage_infos;
    /* View instancing: every view; with masking, one more pipeline per other non-empty subset of
     * them, made now so that recording never compiles (a draw takes the one of its mask). Views
     * drawn one by one (views_apart) need no view mask and no other pipeline. */
    b->output.rendering.viewMask = state->graphics->views_apart ? 0 : state->graphics->view_mask;
    if ((vr = vkCreateGraphicsPipelines(device->vk_device, VK_NULL_HANDLE, 1, &b->info, NULL, &state->vk_pipeline)) != VK_SUCCESS) {
        hr = d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "vkCreateGraphicsPipelines failed (VkResult %d)", vr);
        state->vk_pipeline = VK_NULL_HANDLE;
        goto done;
    }
    state->variants[0] = state->vk_pipeline;
    state->graphics->view_mask_pipelines[state->graphics->view_mask] = state->vk_pipeline;
    for (uint32_t mask = 1; state->graphics->view_masking && !state->graphics->views_apart && mask < state->graphics->view_mask; mask++) {
        if ((mask & state->graphics->view_mask) != mask)
            continue;
        b->output.rendering.viewMask = mask;
        if ((vr = vkCreateGraphicsPipelines(device->vk_device, VK_NULL_HANDLE, 1, &b->info, NULL,
                &state->graphics->view_mask_pipelines[mask])) != VK_SUCCESS) {
            state->graphics->view_mask_pipelines[mask] = VK_NULL_HANDLE;
            hr = d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "vkCreateGraphicsPipelines failed for view mask 0x%x "
                    "(VkResult %d)", mask, vr);
            goto done;
        }
    }
    state->graphics->vertex_slots = b->input.slots;
    state->graphics->per_instance_slots = b->input.per_instance_slots;
    state->graphics->samples = b->rasterizer.samples;
    state->graphics->depth_bounds_test = b->output.depth_stencil.depthBoundsTestEnable;
    state->graphics->depth_stencil_format = b->output.rendering.depthAttachmentFormat ? b->output.rendering.depthAttachmentFormat
            : b->output.rendering.stencilAttachmentFormat;
    memcpy(state->graphics->rt_formats, b->output.color_formats, sizeof(b->output.color_formats));
    key_alike(state);

done:
    for (uint32_t s = 0; s < stage_count; s++)
        vkDestroyShaderModule(device->vk_device, modules[s], NULL);
    b->info.pStages = NULL;
    if (SUCCEEDED(hr) && keep)
        state->graphics->build = b;
    else
        free(b);
    return hr;
}

HRESULT d3d12_graphics_pipeline_build_variant(struct d3d12_pipeline_state *state, uint32_t *const *words, const size_t *word_counts,
        bool without_vertex_input, VkPipeline *pipeline, char *error, size_t error_size)
{
    /* the strides stay dynamic state (the list's pipeline sets them), with no binding to use them */
    static const VkPipelineVertexInputStateCreateInfo no_vertex_input = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    struct d3d12_device *device = state->device;
    struct d3d12_graphics_build *b = state->graphics->build;
    VkPipelineShaderStageCreateInfo stage_infos[D3D12XS_GRAPHICS_STAGE_COUNT];
    VkShaderModule modules[D3D12XS_GRAPHICS_STAGE_COUNT] = {0};
    VkGraphicsPipelineCreateInfo info;
    uint32_t failed = 0;
    VkResult vr;

    *pipeline = VK_NULL_HANDLE;
    if (!b)
        return d3d12xs_write_error(E_NOTIMPL, error, error_size, "the graphics pipeline kept no state to build a variant from");
    if ((vr = create_modules(device, b, words, word_counts, modules, stage_infos, &failed)) == VK_SUCCESS) {
        info = b->info;
        info.stageCount = b->stage_count;
        info.pStages = stage_infos;
        if (without_vertex_input)
            info.pVertexInputState = &no_vertex_input;
        b->output.rendering.viewMask = state->graphics->views_apart ? 0 : state->graphics->view_mask;
        if ((vr = vkCreateGraphicsPipelines(device->vk_device, VK_NULL_HANDLE, 1, &info, NULL, pipeline)) != VK_SUCCESS)
            *pipeline = VK_NULL_HANDLE;
    }
    for (uint32_t s = 0; s < b->stage_count; s++)
        vkDestroyShaderModule(device->vk_device, modules[s], NULL);
    if (vr != VK_SUCCESS)
        return d3d12xs_write_error(d3d12xs_hresult_from_vk(device, vr), error, error_size, "creating the graphics variant failed (VkResult %d)", vr);
    return S_OK;
}

const struct d3d12_vertex_input *d3d12_graphics_build_vertex_input(const struct d3d12_graphics_build *build)
{
    return build ? &build->input : NULL;
}

void d3d12_graphics_build_destroy(struct d3d12_graphics_build *build)
{
    free(build);
}
