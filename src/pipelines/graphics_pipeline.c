/* Graphics pipeline states (graphics_pipeline.h): the description checked, each stage parsed
 * (DXBC translated), the stages linked by semantic and their Locations settled, each stage bound
 * to the root signature's layout by the path compute shaders take (d3d12_pipeline_state_bind_stage,
 * which matches registers against the root parameters visible to the stage), the bindings of
 * all stages merged into the one list a flush pushes, and one VkPipeline built for dynamic
 * rendering with D3D12's list state dynamic. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "pipelines/graphics_pipeline.h"
#include "pipelines/graphics_link.h"
#include "pipelines/graphics_state.h"
#include "frontends/dxbc.h"
#include "frontends/dxbc_translate.h"
#include "spirv/spirv_passes.h"
#include "trace/trace.h"

static const struct {
    VkShaderStageFlagBits stage;
    uint32_t execution_model;
    const char *name;  /* the description's field */
    size_t offset;     /* of its bytecode in struct d3d12_graphics_desc */
    D3D12_ROOT_SIGNATURE_FLAGS deny;
} stage_table[D3D12XS_GRAPHICS_STAGE_COUNT] = {
    {VK_SHADER_STAGE_VERTEX_BIT, SpvExecutionModelVertex, "VS", offsetof(struct d3d12_graphics_desc, vs),
            D3D12_ROOT_SIGNATURE_FLAG_DENY_VERTEX_SHADER_ROOT_ACCESS},
    {VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, SpvExecutionModelTessellationControl, "HS", offsetof(struct d3d12_graphics_desc, hs),
            D3D12_ROOT_SIGNATURE_FLAG_DENY_HULL_SHADER_ROOT_ACCESS},
    {VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, SpvExecutionModelTessellationEvaluation, "DS", offsetof(struct d3d12_graphics_desc, ds),
            D3D12_ROOT_SIGNATURE_FLAG_DENY_DOMAIN_SHADER_ROOT_ACCESS},
    {VK_SHADER_STAGE_GEOMETRY_BIT, SpvExecutionModelGeometry, "GS", offsetof(struct d3d12_graphics_desc, gs),
            D3D12_ROOT_SIGNATURE_FLAG_DENY_GEOMETRY_SHADER_ROOT_ACCESS},
    {VK_SHADER_STAGE_FRAGMENT_BIT, SpvExecutionModelFragment, "PS", offsetof(struct d3d12_graphics_desc, ps),
            D3D12_ROOT_SIGNATURE_FLAG_DENY_PIXEL_SHADER_ROOT_ACCESS},
};

static const char *const model_names[] = {"vertex", "hull", "domain", "geometry", "pixel", "compute"};

static const char *execution_model_name(uint32_t model)
{
    switch (model) {
    case SpvExecutionModelVertex: return model_names[0];
    case SpvExecutionModelTessellationControl: return model_names[1];
    case SpvExecutionModelTessellationEvaluation: return model_names[2];
    case SpvExecutionModelGeometry: return model_names[3];
    case SpvExecutionModelFragment: return model_names[4];
    case SpvExecutionModelGLCompute: return model_names[5];
    default: return "unknown";
    }
}

static void destroy_graphics(struct d3d12_device *device, struct d3d12_graphics_pipeline *graphics)
{
    (void)device;
    free(graphics);
}

/* The root signature: the description's, or the one a stage's DXBC container carries (RTS0),
 * as D3D12 takes it. A reference the caller releases. */
static HRESULT resolve_root_signature(struct d3d12_device *device, const struct d3d12_graphics_desc *desc, struct d3d12_root_signature **out,
        const char *method)
{
    ID3D12RootSignature *embedded;
    HRESULT hr;

    if (desc->root_signature) {
        if (!(*out = unsafe_impl_from_ID3D12RootSignature(desc->root_signature)))
            return d3d12xs_fail(E_INVALIDARG, method, "%spRootSignature is not a d3d12xs root signature", desc->prefix);
        ID3D12RootSignature_AddRef(desc->root_signature);
        return S_OK;
    }
    for (unsigned s = 0; s < D3D12XS_GRAPHICS_STAGE_COUNT; s++) {
        const D3D12_SHADER_BYTECODE *bytecode = (const void *)((const char *)desc + stage_table[s].offset);
        if (!bytecode->pShaderBytecode || !d3d12xs_dxbc_has_part(bytecode->pShaderBytecode, bytecode->BytecodeLength, "RTS0"))
            continue;
        if (FAILED(hr = d3d12_root_signature_create(device, 0, bytecode->pShaderBytecode, bytecode->BytecodeLength,
                &IID_ID3D12RootSignature, (void **)&embedded)))
            return d3d12xs_fail(hr, method, "%spRootSignature is NULL and the root signature in %s%s (RTS0) is not usable: the line "
                    "above says why", desc->prefix, desc->prefix, stage_table[s].name);
        *out = unsafe_impl_from_ID3D12RootSignature(embedded);
        return S_OK;
    }
    return d3d12xs_fail(E_INVALIDARG, method, "%spRootSignature is NULL and no shader carries a root signature (a DXBC container's "
            "RTS0 part)", desc->prefix);
}

/* Parses (DXBC: translates) the present stages and reads their interfaces. */
static HRESULT load_stages(struct d3d12_graphics_stage *stages, uint32_t *count, const struct d3d12_graphics_desc *desc, char (*arguments)[32],
        const char *method)
{
    char error[512];
    HRESULT hr;

    *count = 0;
    for (unsigned s = 0; s < D3D12XS_GRAPHICS_STAGE_COUNT; s++) {
        const D3D12_SHADER_BYTECODE *bytecode = (const void *)((const char *)desc + stage_table[s].offset);
        struct d3d12_graphics_stage *stage = &stages[*count];
        if (!bytecode->pShaderBytecode || !bytecode->BytecodeLength)
            continue;
        memset(stage, 0, sizeof(*stage));
        snprintf(arguments[*count], sizeof(arguments[*count]), "%s%s", desc->prefix, stage_table[s].name);
        stage->argument = arguments[*count];
        stage->stage = stage_table[s].stage;
        stage->bytecode = bytecode;
        (*count)++;
        if ((stage->from_dxbc = d3d12xs_dxbc_is_container(bytecode->pShaderBytecode, bytecode->BytecodeLength)))
            hr = d3d12xs_dxbc_translate(bytecode->pShaderBytecode, bytecode->BytecodeLength, &stage->module, error, sizeof(error));
        else
            hr = d3d12xs_spirv_module_parse(bytecode->pShaderBytecode, bytecode->BytecodeLength, &stage->module, error, sizeof(error));
        if (FAILED(hr))
            return d3d12xs_fail(hr, method, "%s: %s", stage->argument, error);
        if (FAILED(hr = d3d12xs_spirv_stage_interface(stage->module, &stage->iface, error, sizeof(error))))
            return d3d12xs_fail(hr, method, "%s: %s", stage->argument, error);
        if (stage->iface.execution_model != stage_table[s].execution_model)
            return d3d12xs_fail(E_INVALIDARG, method, "%s is a %s shader, not a %s shader", stage->argument,
                    execution_model_name(stage->iface.execution_model), model_names[s]);
    }
    return S_OK;
}

/* Whether two bindings of different stages are the same push descriptor or table read. */
static bool same_binding(const struct d3d12xs_pipeline_binding *a, const struct d3d12xs_pipeline_binding *b)
{
    return a->source == b->source && a->root_index == b->root_index && a->vk_binding == b->vk_binding && a->counter == b->counter
            && a->table_offset == b->table_offset && a->heap_set == b->heap_set && a->table_extent == b->table_extent
            && a->array_size == b->array_size;
}

/* One stage's bindings into the pipeline's: the flush pushes each descriptor once for all stages. */
static HRESULT merge_bindings(struct d3d12_pipeline_state *state, const struct d3d12_pipeline_state *stage_state, const char *method)
{
    struct d3d12xs_pipeline_binding *bindings;

    if (!stage_state->binding_count)
        return S_OK;
    if (!(bindings = realloc(state->bindings, (state->binding_count + stage_state->binding_count) * sizeof(*bindings))))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the pipeline's bindings");
    state->bindings = bindings;
    for (uint32_t i = 0; i < stage_state->binding_count; i++) {
        const struct d3d12xs_pipeline_binding *b = &stage_state->bindings[i];
        bool known = false;
        for (uint32_t j = 0; j < state->binding_count && !known; j++)
            known = same_binding(&state->bindings[j], b);
        if (known)
            continue;
        state->bindings[state->binding_count++] = *b;
        state->descriptor_count += b->array_size;
        state->pushed_root_descriptor_count += b->source == D3D12XS_BINDING_ROOT_DESCRIPTOR && b->array_size;
    }
    state->used_root_mask |= stage_state->used_root_mask;
    state->reads_heaps |= stage_state->reads_heaps;
    state->indexes_heap |= stage_state->indexes_heap;
    state->indexes_sampler_heap |= stage_state->indexes_sampler_heap;
    return S_OK;
}

/* A stage through the bindings' path on a scratch pipeline state, merged into the pipeline's. */
static HRESULT bind_stage(struct d3d12_pipeline_state *state, struct d3d12_graphics_stage *stage, D3D12_ROOT_SIGNATURE_FLAGS deny,
        uint32_t **words, size_t *word_count, char entry_point[64], const char *method)
{
    struct d3d12_pipeline_state scratch;
    HRESULT hr;

    memset(&scratch, 0, sizeof(scratch));
    scratch.device = state->device;
    scratch.root_signature = state->root_signature;
    hr = d3d12_pipeline_state_bind_stage(&scratch, stage->module, stage->from_dxbc, stage->stage, stage->argument, method, words, word_count,
            entry_point);
    if (SUCCEEDED(hr) && scratch.memory_abi)
        hr = d3d12xs_fail(E_NOTIMPL, method, "%s reads root arguments through the memory-based ABI "
                "(D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI), which graphics pipelines do not have yet", stage->argument);
    /* DENY_*_SHADER_ROOT_ACCESS: the stage sees no root arguments, tables or heaps */
    if (SUCCEEDED(hr) && (state->root_signature->desc->Desc_1_2.Flags & deny) && scratch.binding_count)
        hr = d3d12xs_fail(E_INVALIDARG, method, "%s reads register %s, but the root signature denies that stage root access "
                "(D3D12_ROOT_SIGNATURE_FLAG_DENY_*_SHADER_ROOT_ACCESS)", stage->argument, scratch.bindings[0].register_name);
    if (SUCCEEDED(hr))
        hr = merge_bindings(state, &scratch, method);
    free(scratch.bindings);
    if (FAILED(hr)) {
        free(*words);
        *words = NULL;
    }
    return hr;
}

static VkPrimitiveTopology base_topology(D3D12_PRIMITIVE_TOPOLOGY_TYPE type)
{
    switch (type) {
    case D3D12_PRIMITIVE_TOPOLOGY_TYPE_POINT: return VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    case D3D12_PRIMITIVE_TOPOLOGY_TYPE_LINE: return VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
    case D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH: return VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
    default: return VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    }
}

/* The VkPipeline from the bound stages' SPIR-V and the description's fixed state. */
static HRESULT build_pipeline(struct d3d12_pipeline_state *state, const struct d3d12_graphics_desc *desc, struct d3d12_graphics_stage *stages,
        uint32_t stage_count, uint32_t *const *words, const size_t *word_counts, char (*entry_points)[64], const uint32_t *offsets,
        const uint32_t *element_locations, const char *method)
{
    struct d3d12_device *device = state->device;
    VkPipelineShaderStageCreateInfo stage_infos[D3D12XS_GRAPHICS_STAGE_COUNT];
    VkShaderModule modules[D3D12XS_GRAPHICS_STAGE_COUNT] = {0};
    struct d3d12_vertex_input *input = NULL;
    struct d3d12_rasterizer_state *rasterizer = NULL;
    struct d3d12_output_merger_state *output = NULL;
    VkDynamicState dynamic_states[16];
    uint32_t dynamic_count = 0;
    VkResult vr = VK_SUCCESS;
    HRESULT hr = S_OK;

    if (!(input = malloc(sizeof(*input))) || !(rasterizer = malloc(sizeof(*rasterizer))) || !(output = malloc(sizeof(*output)))) {
        hr = d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the pipeline's state");
        goto done;
    }
    for (uint32_t s = 0; s < stage_count; s++) {
        uint32_t *device_words = d3d12xs_spirv_words_for_device(words[s], word_counts[s], device->compute_derivatives_khr);
        const VkShaderModuleCreateInfo module_info = {
            .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
            .codeSize = word_counts[s] * 4,
            .pCode = device_words ? device_words : words[s],
        };
        vr = vkCreateShaderModule(device->vk_device, &module_info, NULL, &modules[s]);
        free(device_words);
        if (vr != VK_SUCCESS) {
            hr = d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "%s: vkCreateShaderModule failed (VkResult %d)",
                    stages[s].argument, vr);
            goto done;
        }
        stage_infos[s] = (VkPipelineShaderStageCreateInfo){
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = stages[s].stage,
            .module = modules[s],
            .pName = entry_points[s],
        };
    }
    d3d12_vertex_input_init(desc, offsets, element_locations, input);
    d3d12_rasterizer_state_init(device, desc, rasterizer);
    d3d12_output_merger_state_init(desc, output);

    const VkPipelineInputAssemblyStateCreateInfo input_assembly = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
        .topology = base_topology(desc->topology_type), /* dynamic, within the type's class */
    };
    const VkPipelineTessellationStateCreateInfo tessellation = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO,
        .patchControlPoints = 1, /* dynamic: IASetPrimitiveTopology's N control points */
    };
    const VkPipelineViewportStateCreateInfo viewport = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    /* What D3D12 sets on the list (RSSetViewports, RSSetScissorRects, OMSetBlendFactor,
     * OMSetStencilRef, OMSetDepthBounds, IASetPrimitiveTopology, IASetVertexBuffers' strides, the
     * index buffer's strip cut): dynamic, so list state never makes pipelines. */
    dynamic_states[dynamic_count++] = VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT;
    dynamic_states[dynamic_count++] = VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT;
    dynamic_states[dynamic_count++] = VK_DYNAMIC_STATE_BLEND_CONSTANTS;
    dynamic_states[dynamic_count++] = VK_DYNAMIC_STATE_STENCIL_REFERENCE;
    dynamic_states[dynamic_count++] = VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY;
    dynamic_states[dynamic_count++] = VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE;
    if (input->slots)
        dynamic_states[dynamic_count++] = VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE;
    if (output->depth_stencil.depthBoundsTestEnable)
        dynamic_states[dynamic_count++] = VK_DYNAMIC_STATE_DEPTH_BOUNDS;
    if (desc->flags & D3D12_PIPELINE_STATE_FLAG_DYNAMIC_DEPTH_BIAS)
        dynamic_states[dynamic_count++] = VK_DYNAMIC_STATE_DEPTH_BIAS;
    if (desc->topology_type == D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH)
        dynamic_states[dynamic_count++] = VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT;
    const VkPipelineDynamicStateCreateInfo dynamic = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
        .dynamicStateCount = dynamic_count,
        .pDynamicStates = dynamic_states,
    };
    const VkGraphicsPipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
        .pNext = &output->rendering,
        /* the layout's heap sets are descriptor buffers */
        .flags = state->root_signature->reads_heaps ? VK_PIPELINE_CREATE_DESCRIPTOR_BUFFER_BIT_EXT : 0,
        .stageCount = stage_count,
        .pStages = stage_infos,
        .pVertexInputState = &input->info,
        .pInputAssemblyState = &input_assembly,
        .pTessellationState = desc->topology_type == D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH ? &tessellation : NULL,
        .pViewportState = &viewport,
        .pRasterizationState = &rasterizer->rasterization,
        .pMultisampleState = &rasterizer->multisample,
        .pDepthStencilState = &output->depth_stencil,
        .pColorBlendState = &output->blend,
        .pDynamicState = &dynamic,
        .layout = state->vk_layout,
    };
    if ((vr = vkCreateGraphicsPipelines(device->vk_device, VK_NULL_HANDLE, 1, &info, NULL, &state->vk_pipeline)) != VK_SUCCESS) {
        hr = d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "vkCreateGraphicsPipelines failed (VkResult %d)", vr);
        state->vk_pipeline = VK_NULL_HANDLE;
        goto done;
    }
    state->variants[0] = state->vk_pipeline;
    state->graphics->vertex_slots = input->slots;
    state->graphics->per_instance_slots = input->per_instance_slots;
    state->graphics->samples = rasterizer->samples;
    state->graphics->depth_bounds_test = output->depth_stencil.depthBoundsTestEnable;
    state->graphics->depth_stencil_format = output->rendering.depthAttachmentFormat ? output->rendering.depthAttachmentFormat
            : output->rendering.stencilAttachmentFormat;
    memcpy(state->graphics->rt_formats, output->color_formats, sizeof(output->color_formats));

done:
    for (uint32_t s = 0; s < stage_count; s++)
        vkDestroyShaderModule(device->vk_device, modules[s], NULL);
    free(input);
    free(rasterizer);
    free(output);
    return hr;
}

static HRESULT create_graphics(struct d3d12_pipeline_state *state, const struct d3d12_graphics_desc *desc, const char *method)
{
    struct d3d12_device *device = state->device;
    struct d3d12_graphics_stage stages[D3D12XS_GRAPHICS_STAGE_COUNT];
    char arguments[D3D12XS_GRAPHICS_STAGE_COUNT][32], entry_points[D3D12XS_GRAPHICS_STAGE_COUNT][64], error[512];
    uint32_t *words[D3D12XS_GRAPHICS_STAGE_COUNT] = {0}, stage_count = 0;
    size_t word_counts[D3D12XS_GRAPHICS_STAGE_COUNT] = {0};
    uint32_t offsets[D3D12_IA_VERTEX_INPUT_STRUCTURE_ELEMENT_COUNT], element_locations[D3D12_IA_VERTEX_INPUT_STRUCTURE_ELEMENT_COUNT];
    HRESULT hr;

    if (!(state->graphics = calloc(1, sizeof(*state->graphics))))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the graphics pipeline");
    state->destroy_graphics = destroy_graphics;
    state->graphics->topology_type = desc->topology_type;
    state->graphics->strip_cut_value = desc->strip_cut_value;
    state->graphics->dynamic_strip_cut = desc->flags & D3D12_PIPELINE_STATE_FLAG_DYNAMIC_INDEX_BUFFER_STRIP_CUT;
    state->graphics->dynamic_depth_bias = desc->flags & D3D12_PIPELINE_STATE_FLAG_DYNAMIC_DEPTH_BIAS;
    state->graphics->depth_bias[0] = desc->rasterizer.DepthBias;
    state->graphics->depth_bias[1] = desc->rasterizer.DepthBiasClamp;
    state->graphics->depth_bias[2] = desc->rasterizer.SlopeScaledDepthBias;
    state->graphics->rt_count = desc->rt_count;
    memcpy(state->graphics->rtv_formats, desc->rtv_formats, sizeof(desc->rtv_formats));
    state->graphics->dsv_format = desc->dsv_format;
    state->graphics->tessellation = desc->topology_type == D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH;
    if (state->graphics->tessellation && !device->graphics.patch_control_points) {
        hr = d3d12xs_fail(E_NOTIMPL, method, "%sHS and %sDS: %s lacks extended dynamic state 2's patch control points, which "
                "IASetPrimitiveTopology's patch lists need here", desc->prefix, desc->prefix, device->vk_properties.deviceName);
        goto done;
    }

    memset(stages, 0, sizeof(stages));
    if (FAILED(hr = load_stages(stages, &stage_count, desc, arguments, method)))
        goto done;
    if (FAILED(hr = d3d12_input_layout_check(device, desc, offsets, method))
            || FAILED(hr = d3d12_graphics_link(desc, stages, stage_count, d3d12_blend_uses_dual_source(&desc->blend), element_locations, method)))
        goto done;
    state->push_set = d3d12_root_signature_push_set(state->root_signature);
    for (uint32_t s = 0; s < stage_count; s++) {
        const struct d3d12xs_spirv_locations_args locations = {stages[s].link_ids, stages[s].link_locations, stages[s].link_indices,
                stages[s].link_count};
        D3D12_ROOT_SIGNATURE_FLAGS deny = 0;
        for (unsigned t = 0; t < D3D12XS_GRAPHICS_STAGE_COUNT; t++)
            if (stage_table[t].stage == stages[s].stage)
                deny = stage_table[t].deny;
        if (FAILED(hr = d3d12xs_spirv_pass_locations(stages[s].module, &locations, error, sizeof(error)))) {
            d3d12xs_fail(hr, method, "%s: %s", stages[s].argument, error);
            goto done;
        }
        if (FAILED(hr = bind_stage(state, &stages[s], deny, &words[s], &word_counts[s], entry_points[s], method)))
            goto done;
    }
    /* The root signature's layout, shared: the pipeline's reference keeps it while recorded lists
     * may use the pipeline, after the root signature itself may have gone. */
    state->layout = d3d12_root_signature_get_layout(state->root_signature, &state->vk_layout);
    state->thread_limit_offset = UINT32_MAX;
    hr = build_pipeline(state, desc, stages, stage_count, words, word_counts, entry_points, offsets, element_locations, method);

done:
    for (uint32_t s = 0; s < D3D12XS_GRAPHICS_STAGE_COUNT; s++) {
        free(words[s]);
        d3d12xs_spirv_module_destroy(stages[s].module);
        d3d12_graphics_stage_cleanup(&stages[s]);
    }
    return hr;
}

HRESULT d3d12_graphics_pipeline_create(struct d3d12_device *device, const struct d3d12_graphics_desc *desc, const char *method, REFIID riid,
        void **out)
{
    struct d3d12_root_signature *signature;
    struct d3d12_pipeline_state *state;
    HRESULT hr;

    if (out)
        *out = NULL;
    if (!riid)
        return d3d12xs_fail(E_INVALIDARG, method, "riid is NULL (must name the pipeline state interface)");
    if (!out)
        return d3d12xs_fail(E_POINTER, method, "ppPipelineState is NULL (must receive the pipeline)");
    if (FAILED(hr = d3d12_graphics_desc_check(device, desc, method)) || FAILED(hr = resolve_root_signature(device, desc, &signature, method)))
        return hr;
    state = d3d12_pipeline_state_new(device, signature);
    ID3D12RootSignature_Release(&signature->ID3D12RootSignature_iface);
    if (!state)
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the pipeline state");
    uint64_t begin_ns = d3d12xs_trace_begin();
    if (FAILED(hr = create_graphics(state, desc, method))) {
        d3d12_pipeline_state_discard(state);
        return hr;
    }
    if (begin_ns) {
        /* the translation, linking, passes and driver compile: a pipeline made mid-frame shows */
        struct d3d12xs_trace_args args = {.length = 0};
        d3d12xs_trace_arg_u64(&args, "compile_us", (d3d12xs_now_ns() - begin_ns) / 1000);
        d3d12xs_trace_arg_string(&args, "kind", "graphics");
        d3d12xs_trace_end(begin_ns, method, &args);
    }
    return d3d12_pipeline_state_hand_out(state, method, riid, out);
}

HRESULT d3d12_graphics_pipeline_create_from_desc(struct d3d12_device *device, const D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc, REFIID riid,
        void **out)
{
    static const char method[] = "ID3D12Device::CreateGraphicsPipelineState";
    struct d3d12_graphics_desc graphics;

    if (out)
        *out = NULL;
    if (!desc)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc is NULL (must describe the pipeline)");
    d3d12_graphics_desc_from_desc(desc, &graphics);
    return d3d12_graphics_pipeline_create(device, &graphics, method, riid, out);
}
