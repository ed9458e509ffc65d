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
#include "pipelines/graphics_build.h"
#include "pipelines/graphics_link.h"
#include "pipelines/graphics_state.h"
#include "pipelines/pipeline_blob.h"
#include "pipelines/tessellation_state.h"
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
    /* the pipeline's own (at view_mask) goes with the pipeline state */
    for (uint32_t mask = 1; mask < D3D12XS_ARRAY_SIZE(graphics->view_mask_pipelines); mask++)
        if (mask != graphics->view_mask)
            vkDestroyPipeline(device->vk_device, graphics->view_mask_pipelines[mask], NULL);
    d3d12_graphics_build_destroy(graphics->build);
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

/* Translates the DXBC stages together (one wait for the translator), except a domain shader
 * after a hull shader: its translation takes the hull shader's state, so it comes in the stage
 * loop, after its hull shader's module. */
static HRESULT translate_dxbc_stages(struct d3d12_graphics_stage *stages, uint32_t count, const char *method)
{
    struct d3d12xs_dxbc_source sources[D3D12XS_GRAPHICS_STAGE_COUNT];
    struct d3d12xs_spirv_module *modules[D3D12XS_GRAPHICS_STAGE_COUNT];
    uint32_t of_source[D3D12XS_GRAPHICS_STAGE_COUNT], source_count = 0, failed;
    char error[512];
    HRESULT hr;

    for (uint32_t i = 0; i < count; i++)
        if (stages[i].from_dxbc && !(stages[i].stage == VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT && i
                && stages[i - 1].stage == VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT)) {
            sources[source_count] = (struct d3d12xs_dxbc_source){stages[i].bytecode->pShaderBytecode, stages[i].bytecode->BytecodeLength, NULL};
            of_source[source_count++] = i;
        }
    if (FAILED(hr = d3d12xs_dxbc_translate_all(sources, source_count, modules, &failed, error, sizeof(error))))
        return d3d12xs_fail(hr, method, "%s: %s", stages[of_source[failed]].argument, error);
    for (uint32_t k = 0; k < source_count; k++)
        stages[of_source[k]].module = modules[k];
    return S_OK;
}

/* Parses (DXBC: translates) the present stages and reads their interfaces. */
static HRESULT load_stages(struct d3d12_graphics_stage *stages, uint32_t *count, const struct d3d12_graphics_desc *desc, char (*arguments)[32],
        const char *method)
{
    unsigned table_of[D3D12XS_GRAPHICS_STAGE_COUNT]; /* each present stage's stage_table entry */
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
        table_of[*count] = s;
        stage->from_dxbc = d3d12xs_dxbc_is_container(bytecode->pShaderBytecode, bytecode->BytecodeLength);
        (*count)++;
    }
    if (FAILED(hr = translate_dxbc_stages(stages, *count, method)))
        return hr;
    for (uint32_t i = 0; i < *count; i++) {
        struct d3d12_graphics_stage *stage = &stages[i];
        const unsigned s = table_of[i];
        if (stage->module)
            hr = S_OK;
        else if (stage->from_dxbc) {
            /* a domain shader after a hull shader: the hull shader's tessellator state */
            struct d3d12xs_dxbc_tessellator tessellator = {0, 0};
            const struct d3d12xs_dxbc_source source = {stage->bytecode->pShaderBytecode, stage->bytecode->BytecodeLength, &tessellator};
            uint32_t failed;
            if (FAILED(hr = d3d12_tessellation_dxbc_state(&stages[i - 1], &tessellator, stage->argument, method)))
                return hr;
            hr = d3d12xs_dxbc_translate_all(&source, 1, &stage->module, &failed, error, sizeof(error));
        } else
            hr = d3d12xs_spirv_module_parse(stage->bytecode->pShaderBytecode, stage->bytecode->BytecodeLength, &stage->module, error,
                    sizeof(error));
        if (FAILED(hr))
            return d3d12xs_fail(hr, method, "%s: %s", stage->argument, error);
        if (FAILED(hr = d3d12xs_spirv_stage_interface(stage->module, &stage->iface, error, sizeof(error))))
            return d3d12xs_fail(hr, method, "%s: %s", stage->argument, error);
        if (stage->iface.execution_model != stage_table[s].execution_model)
            return d3d12xs_fail(E_INVALIDARG, method, "%s is a %s shader, not a %s shader", stage->argument,
                    execution_model_name(stage->iface.execution_model), model_names[s]);
        if (stage->stage == VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT && i >= 1
                && stages[i - 1].stage == VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT
                && FAILED(hr = d3d12_tessellation_check(&stages[i - 1], stage, method)))
            return hr;
    }
    return S_OK;
}

/* Whether two bindings of different stages are the same push descriptor or table read. */
static bool same_binding(const struct d3d12xs_pipeline_binding *a, const struct d3d12xs_pipeline_binding *b)
{
    return a->source == b->source && a->root_index == b->root_index && a->vk_binding == b->vk_binding && a->counter == b->counter
            && a->table_offset == b->table_offset && a->heap_set == b->heap_set && a->table_extent == b->table_extent
            && a->array_size == b->array_size && (a->source != D3D12XS_BINDING_ROOT_ADDRESS || a->address_slot == b->address_slot);
}

static uint32_t lcm(uint32_t a, uint32_t b)
{
    uint32_t x = a, y = b;
    while (y) {
        uint32_t t = x % y;
        x = y;
        y = t;
    }
    return x ? a / x * b : 0;
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
        for (uint32_t j = 0; j < state->binding_count && !known; j++) {
            if (!(known = same_binding(&state->bindings[j], b)))
                continue;
            /* one descriptor for both stages: it starts off the device's alignment only where
             * every stage that reads it adds the view's offset, and by whole elements of each */
            if (b->view_offsets && state->bindings[j].view_offsets && b->view_stride != state->bindings[j].view_stride)
                state->bindings[j].view_stride = lcm(b->view_stride, state->bindings[j].view_stride);
            state->bindings[j].view_offsets &= b->view_offsets;
        }
        if (known)
            continue;
        state->bindings[state->binding_count++] = *b;
        state->descriptor_count += b->array_size;
        state->pushed_root_descriptor_count += b->source == D3D12XS_BINDING_ROOT_DESCRIPTOR && b->array_size;
    }
    state->used_root_mask |= stage_state->used_root_mask;
    state->memory_abi |= stage_state->memory_abi;
    state->address_count += stage_state->address_count;
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
    /* Memory-based ABI: each stage's root descriptor addresses go after the earlier stages' in
     * the one argument buffer the draw writes (command_list_arguments.c). */
    scratch.address_base = state->address_count;
    hr = d3d12_pipeline_state_bind_stage(&scratch, stage->module, stage->from_dxbc, stage->stage, stage->argument, method, words, word_count,
            entry_point);
    if (SUCCEEDED(hr) && state->address_count + scratch.address_count > D3D12XS_MAX_ROOT_PARAMETERS)
        hr = d3d12xs_fail(E_NOTIMPL, method, "%s: the stages read root descriptors through memory %u times, past the %u entries of the "
                "argument buffer's address table", stage->argument, state->address_count + scratch.address_count, D3D12XS_MAX_ROOT_PARAMETERS);
    for (uint32_t i = 0; SUCCEEDED(hr) && i < scratch.binding_count; i++)
        if (scratch.bindings[i].source == D3D12XS_BINDING_ROOT_ADDRESS)
            scratch.bindings[i].address_slot += scratch.address_base;
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

/* Whether stages[s] is the last stage before the rasterizer (the one whose outputs stream out). */
static bool is_last_before_rasterizer(const struct d3d12_graphics_stage *stages, uint32_t count, uint32_t s)
{
    return stages[s].stage != VK_SHADER_STAGE_FRAGMENT_BIT && (s + 1 == count || stages[s + 1].stage == VK_SHADER_STAGE_FRAGMENT_BIT);
}

/* StreamOutput: the declaration matched against the stage's outputs, and the captures written
 * into its module (spirv/spirv_stream_output.c). */
static HRESULT stream_out_stage(struct d3d12_pipeline_state *state, const struct d3d12_graphics_desc *desc, struct d3d12_graphics_stage *stage,
        const char *method)
{
    struct d3d12xs_spirv_xfb_capture *captures;
    struct d3d12xs_spirv_stream_output_args args;
    char error[512];
    HRESULT hr;

    if (!(captures = calloc(desc->stream_output.NumEntries, sizeof(*captures))))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the stream output's captures");
    args.captures = captures;
    if (SUCCEEDED(hr = d3d12_stream_output_match(state->device, desc, stage, captures, &args.count, &args.first_location, method))
            && FAILED(hr = d3d12xs_spirv_pass_stream_output(stage->module, &args, error, sizeof(error))))
        d3d12xs_fail(hr, method, "%s (stream output): %s", stage->argument, error);
    for (uint32_t k = 0; SUCCEEDED(hr) && k < args.count; k++)
        state->graphics->stream_output_slots |= 1u << captures[k].buffer;
    free(captures);
    return hr;
}

/* lavapipe reads the most negative SNORM vertex value below -1 (-32768 as -1.00003): there the
 * vertex shader clamps what it loads from SNORM elements (spirv/spirv_snorm_inputs.c). Other
 * drivers clamp as Vulkan says and get no extra instruction. */
static HRESULT clamp_snorm_inputs(const struct d3d12_device *device, const struct d3d12_graphics_desc *desc, struct d3d12_graphics_stage *vs,
        const uint32_t *element_locations, const char *method)
{
    struct d3d12xs_spirv_snorm_inputs_args args = {0};
    char error[256];
    HRESULT hr;

    if (device->vk_driver_properties.driverID != VK_DRIVER_ID_MESA_LLVMPIPE || !desc->input_layout.pInputElementDescs)
        return S_OK;
    for (UINT i = 0; i < desc->input_layout.NumElements; i++)
        if (element_locations[i] < 32 && d3d12_vertex_format_is_snorm(desc->input_layout.pInputElementDescs[i].Format))
            args.locations |= 1u << element_locations[i];
    if (FAILED(hr = d3d12xs_spirv_pass_snorm_inputs(vs->module, &args, error, sizeof(error))))
        return d3d12xs_fail(hr, method, "%s (SNORM inputs): %s", vs->argument, error);
    return S_OK;
}

/* What the list needs of the pipeline, from the description. */
static HRESULT init_graphics(struct d3d12_pipeline_state *state, const struct d3d12_graphics_desc *desc, const char *method)
{
    struct d3d12_device *device = state->device;

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
    state->graphics->view_mask = (1u << desc->view_instancing.ViewInstanceCount) - 1;
    state->graphics->view_masking = desc->view_instancing.ViewInstanceCount
            && (desc->view_instancing.Flags & D3D12_VIEW_INSTANCING_FLAG_ENABLE_VIEW_INSTANCE_MASKING);
    if ((state->graphics->views_apart = d3d12_graphics_desc_views_apart(desc))) {
        /* the push constants' 16 bytes after the root arguments, which only DispatchX uses in compute */
        d3d12_root_signature_push_constant_range(state->root_signature, &state->graphics->view_push_offset);
        if (state->graphics->view_push_offset == UINT32_MAX)
            return d3d12xs_fail(E_NOTIMPL, method, "%sViewInstancing.pViewInstanceLocations put views elsewhere than view i into array "
                    "slice i through viewport 0, which pushes each view to the shaders, but the root signature's root arguments leave "
                    "no room in %s's push constants", desc->prefix, device->vk_properties.deviceName);
    }
    if (state->graphics->tessellation && !device->graphics.patch_control_points)
        return d3d12xs_fail(E_NOTIMPL, method, "%sHS and %sDS: %s lacks extended dynamic state 2's patch control points, which "
                "IASetPrimitiveTopology's patch lists need here", desc->prefix, desc->prefix, device->vk_properties.deviceName);
    return S_OK;
}

/* View instancing with other locations (views_apart): the bound stage reads the pushed view
 * index for SV_ViewID, and the last before the rasterizer places each view (Layer,
 * ViewportIndex; spirv/spirv_view_locations.c). Its words are written anew. */
static HRESULT place_views(struct d3d12_pipeline_state *state, const struct d3d12_graphics_desc *desc, struct d3d12_graphics_stage *stage,
        bool last_before_rasterizer, uint32_t **words, size_t *word_count, const char *method)
{
    const D3D12_VIEW_INSTANCING_DESC *vi = &desc->view_instancing;
    struct d3d12xs_spirv_view_locations_args args = {
        .push_offset = state->graphics->view_push_offset,
        .view_count = vi->ViewInstanceCount,
        .write_locations = last_before_rasterizer,
        .push_visible = (state->root_signature->vk_push_stages[D3D12XS_LAYOUT_GRAPHICS] & stage->stage) != 0,
    };
    char error[512];
    HRESULT hr;

    for (UINT i = 0; i < vi->ViewInstanceCount; i++) {
        args.layers[i] = vi->pViewInstanceLocations[i].RenderTargetArrayIndex;
        args.viewports[i] = vi->pViewInstanceLocations[i].ViewportArrayIndex;
        args.write_viewport |= args.viewports[i] != 0;
    }
    if (FAILED(hr = d3d12xs_spirv_pass_view_locations(stage->module, &args, error, sizeof(error))))
        return d3d12xs_fail(hr, method, "%s (view instancing): %s", stage->argument, error);
    free(*words);
    *words = NULL;
    if (FAILED(hr = d3d12xs_spirv_module_emit(stage->module, words, word_count)))
        return d3d12xs_fail(hr, method, "%s: cannot write the SPIR-V", stage->argument);
    if (d3d12xs_config_validates_spirv(&state->device->config)
            && FAILED(hr = d3d12xs_spirv_validate(*words, *word_count, true, error, sizeof(error))))
        return d3d12xs_fail(E_INVALIDARG, method, "%s (view instancing): %s", stage->argument, error);
    return S_OK;
}

/* The cached blob of the bound stages, before the build. */
static HRESULT capture_blob(struct d3d12_pipeline_state *state, const struct d3d12_graphics_desc *desc, const struct d3d12_graphics_stage *stages,
        uint32_t stage_count, uint32_t *const *words, const size_t *word_counts, char (*entry_points)[64], const uint32_t *element_locations,
        const char *method)
{
    struct d3d12_pipeline_blob_stage blob_stages[D3D12XS_GRAPHICS_STAGE_COUNT];

    for (uint32_t s = 0; s < stage_count; s++) {
        blob_stages[s] = (struct d3d12_pipeline_blob_stage){stages[s].stage, words[s], word_counts[s], {0}};
        memcpy(blob_stages[s].entry_point, entry_points[s], sizeof(blob_stages[s].entry_point));
    }
    return d3d12_pipeline_blob_capture(state, blob_stages, stage_count, element_locations,
            desc->input_layout.pInputElementDescs ? desc->input_layout.NumElements : 0, method);
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

    memset(stages, 0, sizeof(stages));
    if (FAILED(hr = init_graphics(state, desc, method)))
        goto done;
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
        if (desc->stream_output.NumEntries && is_last_before_rasterizer(stages, stage_count, s)
                && FAILED(hr = stream_out_stage(state, desc, &stages[s], method)))
            goto done;
        if (desc->topology_type == D3D12_PRIMITIVE_TOPOLOGY_TYPE_POINT && stages[s].stage == VK_SHADER_STAGE_VERTEX_BIT
                && is_last_before_rasterizer(stages, stage_count, s)) {
            const struct d3d12xs_spirv_point_size_args point_size = {1.0f};
            if (FAILED(hr = d3d12xs_spirv_pass_point_size(stages[s].module, &point_size, error, sizeof(error)))) {
                d3d12xs_fail(hr, method, "%s: %s", stages[s].argument, error);
                goto done;
            }
        }
        if (stages[s].stage == VK_SHADER_STAGE_VERTEX_BIT && FAILED(hr = clamp_snorm_inputs(device, desc, &stages[s], element_locations, method)))
            goto done;
        if (FAILED(hr = bind_stage(state, &stages[s], deny, &words[s], &word_counts[s], entry_points[s], method)))
            goto done;
        if (state->graphics->views_apart && FAILED(hr = place_views(state, desc, &stages[s], is_last_before_rasterizer(stages, stage_count, s),
                &words[s], &word_counts[s], method)))
            goto done;
    }
    /* The argument buffer of the memory-based ABI, as the stages read it: the root constants,
     * then every stage's root descriptor addresses. */
    state->argument_binding = D3D12XS_PUSH_BINDING_ARGUMENTS;
    state->address_offset = (state->root_signature->push_constant_size + 15) & ~15u;
    state->argument_size = state->address_count ? state->address_offset + 16 * state->address_count
            : state->root_signature->push_constant_size;
    /* The root signature's layout, shared: the pipeline's reference keeps it while recorded lists
     * may use the pipeline, after the root signature itself may have gone. */
    if (FAILED(hr = d3d12_root_signature_get_layout(state->root_signature, D3D12XS_LAYOUT_GRAPHICS, method, &state->layout, &state->vk_layout)))
        goto done;
    state->thread_limit_offset = UINT32_MAX;
    if (SUCCEEDED(hr = capture_blob(state, desc, stages, stage_count, words, word_counts, entry_points, element_locations, method))
            && SUCCEEDED(hr = d3d12_pipeline_state_keep_indirect_source(state, words, word_counts, stage_count, method)))
        hr = d3d12_graphics_pipeline_build(state, desc, stages, stage_count, words, word_counts, entry_points, offsets, element_locations,
                state->indirect_stage_count != 0, method);

done:
    for (uint32_t s = 0; s < D3D12XS_GRAPHICS_STAGE_COUNT; s++) {
        free(words[s]);
        d3d12xs_spirv_module_destroy(stages[s].module);
        d3d12_graphics_stage_cleanup(&stages[s]);
    }
    return hr;
}

/* From a checked cached blob: each stage's final SPIR-V, the bindings they were matched to and
 * the input elements' Locations, straight to the driver (no translation, linking or passes). */
static HRESULT create_graphics_from_blob(struct d3d12_pipeline_state *state, const struct d3d12_graphics_desc *desc, const char *method)
{
    struct d3d12_graphics_stage stages[D3D12XS_GRAPHICS_STAGE_COUNT];
    struct d3d12_pipeline_blob_contents contents;
    char arguments[D3D12XS_GRAPHICS_STAGE_COUNT][32], entry_points[D3D12XS_GRAPHICS_STAGE_COUNT][64];
    uint32_t *words[D3D12XS_GRAPHICS_STAGE_COUNT];
    size_t word_counts[D3D12XS_GRAPHICS_STAGE_COUNT];
    uint32_t offsets[D3D12_IA_VERTEX_INPUT_STRUCTURE_ELEMENT_COUNT];
    HRESULT hr;

    if (FAILED(hr = init_graphics(state, desc, method)) || FAILED(hr = d3d12_input_layout_check(state->device, desc, offsets, method)))
        return hr;
    snprintf(arguments[0], sizeof(arguments[0]), "%sCachedPSO", desc->prefix);
    if (FAILED(hr = d3d12_pipeline_blob_load(state, desc->cached_pso.pCachedBlob, desc->cached_pso.CachedBlobSizeInBytes, &contents,
            arguments[0], method)))
        return hr;
    memset(stages, 0, sizeof(stages));
    for (uint32_t s = 0; s < contents.stage_count; s++) {
        const char *name = "?";
        for (unsigned t = 0; t < D3D12XS_GRAPHICS_STAGE_COUNT; t++)
            if (stage_table[t].stage == contents.stages[s].stage)
                name = stage_table[t].name;
        snprintf(arguments[s], sizeof(arguments[s]), "%sCachedPSO's %s", desc->prefix, name);
        stages[s].argument = arguments[s];
        stages[s].stage = contents.stages[s].stage;
        words[s] = contents.stages[s].words;
        word_counts[s] = contents.stages[s].word_count;
        memcpy(entry_points[s], contents.stages[s].entry_point, sizeof(entry_points[s]));
    }
    if (contents.element_count != (desc->input_layout.pInputElementDescs ? desc->input_layout.NumElements : 0)) {
        hr = d3d12xs_fail(E_INVALIDARG, method, "%sCachedPSO links %u input elements, the description has %u", desc->prefix,
                contents.element_count, desc->input_layout.NumElements);
    } else if (SUCCEEDED(hr = d3d12_root_signature_get_layout(state->root_signature, D3D12XS_LAYOUT_GRAPHICS, method, &state->layout,
            &state->vk_layout))) {
        state->thread_limit_offset = UINT32_MAX;
        if (SUCCEEDED(hr = d3d12_pipeline_state_keep_indirect_source(state, words, word_counts, contents.stage_count, method)))
            hr = d3d12_graphics_pipeline_build(state, desc, stages, contents.stage_count, words, word_counts, entry_points, offsets,
                    contents.element_locations, state->indirect_stage_count != 0, method);
    }
    d3d12_pipeline_blob_contents_cleanup(&contents);
    return hr;
}

/* Makes the pipeline of key's description and enters it in the table of live pipelines (or,
 * where another thread entered an identical one first, takes that one instead). */
static HRESULT make_graphics(struct d3d12_device *device, const struct d3d12_graphics_desc *desc, struct d3d12_root_signature *signature,
        const struct d3d12_pipeline_key *key, const char *method, struct d3d12_pipeline_state **out)
{
    struct d3d12_pipeline_state *state, *entered;
    HRESULT hr;

    if (!(state = d3d12_pipeline_state_new(device, signature)))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the pipeline state");
    if (FAILED(hr = d3d12_pipeline_state_set_key(state, key, method))
            || FAILED(hr = desc->cached_pso.CachedBlobSizeInBytes ? create_graphics_from_blob(state, desc, method)
                    : create_graphics(state, desc, method))) {
        d3d12_pipeline_state_discard(state);
        return hr;
    }
    if ((entered = d3d12_pipeline_table_insert(device, state, key, 1)) != state)
        d3d12_pipeline_state_discard(state);
    else
        d3d12_pipeline_state_make_indirect_variants(state);
    *out = entered;
    return S_OK;
}

HRESULT d3d12_graphics_pipeline_key(struct d3d12_device *device, const struct d3d12_graphics_desc *desc, struct d3d12_pipeline_key *key,
        struct d3d12_root_signature **signature, const char *method)
{
    HRESULT hr;

    memset(key, 0, sizeof(*key));
    *signature = NULL;
    if (FAILED(hr = d3d12_graphics_desc_check(device, desc, method)) || FAILED(hr = resolve_root_signature(device, desc, signature, method)))
        return hr;
    if (!(key->bytes = d3d12_graphics_desc_key_bytes(desc, &key->size))) {
        ID3D12RootSignature_Release(&(*signature)->ID3D12RootSignature_iface);
        *signature = NULL;
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the pipeline's description");
    }
    /* a shader's RTS0 part is in the stages' bytes */
    key->signature = desc->root_signature ? *signature : NULL;
    key->flags = desc->flags;
    key->graphics = true;
    d3d12_pipeline_key_hash(key);
    return S_OK;
}

HRESULT d3d12_graphics_pipeline_create(struct d3d12_device *device, const struct d3d12_graphics_desc *desc, const char *method, REFIID riid,
        void **out)
{
    struct d3d12_root_signature *signature;
    struct d3d12_pipeline_state *pipeline;
    struct d3d12_pipeline_key key;
    uint64_t begin_ns;
    bool found = false;
    HRESULT hr;

    if (out)
        *out = NULL;
    if (!riid)
        return d3d12xs_fail(E_INVALIDARG, method, "riid is NULL (must name the pipeline state interface)");
    if (!out)
        return d3d12xs_fail(E_POINTER, method, "ppPipelineState is NULL (must receive the pipeline)");
    if (FAILED(hr = d3d12_graphics_pipeline_key(device, desc, &key, &signature, method)))
        return hr;
    /* checked even where a live pipeline is found: the answer does not depend on what is alive */
    if (desc->cached_pso.CachedBlobSizeInBytes) {
        char argument[40];
        snprintf(argument, sizeof(argument), "%sCachedPSO", desc->prefix);
        hr = d3d12_pipeline_blob_check(device, desc->cached_pso.pCachedBlob, desc->cached_pso.CachedBlobSizeInBytes, key.hash, true,
                argument, method);
    }
    begin_ns = d3d12xs_trace_begin();
    if (SUCCEEDED(hr) && !(found = (pipeline = d3d12_pipeline_table_find(device, &key)) != NULL))
        hr = make_graphics(device, desc, signature, &key, method, &pipeline);
    ID3D12RootSignature_Release(&signature->ID3D12RootSignature_iface);
    free((void *)key.bytes);
    if (FAILED(hr))
        return hr;
    if (begin_ns) {
        /* the translation, linking, passes and driver compile: a pipeline made mid-frame shows */
        struct d3d12xs_trace_args args = {.length = 0};
        d3d12xs_trace_arg_u64(&args, "compile_us", found ? 0 : (d3d12xs_now_ns() - begin_ns) / 1000);
        d3d12xs_trace_arg_string(&args, "kind", "graphics");
        if (desc->cached_pso.CachedBlobSizeInBytes)
            d3d12xs_trace_arg_string(&args, "bytecode", "cached blob");
        if (found)
            d3d12xs_trace_arg_string(&args, "found", "a live identical pipeline");
        d3d12xs_trace_end(begin_ns, method, &args);
    }
    return d3d12_pipeline_state_hand_out(pipeline, method, riid, out);
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
