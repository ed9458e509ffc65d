/* ExecuteIndirect's variants of a pipeline (docs/indirect.md, "Root views"): generated commands
 * set no descriptors, so a command signature's root CBV/SRV/UAV arguments reach the shaders
 * through the push block instead. A PUSH_CONSTANT token writes each command's D3D12 address into
 * the parameter's 16-byte entry (root_signature.h: indirect_view_offsets), the list pushes the
 * GPU VA table's address into the entry's other half, and the variant's shaders read the entry
 * and translate the address as the memory-based ABI does (spirv_root_pointers.c with
 * push_offsets). The root views the signature does not set stay push descriptors.
 *
 * A variant starts from each stage's final SPIR-V, kept only by pipelines whose shaders read root
 * views with entries; there a root view is the variable at the push set's binding of its
 * parameter (pipeline_state.c's layout_binding), an alias included. The view offsets pass has
 * run on it and reads each root SRV/UAV's misalignment push constant, which ExecuteIndirect
 * pushes as 0 for the signature's views (a pointer starts at the address itself). Each variant
 * is made ahead of need (with the pipeline, or with a command signature: the root signature's
 * indirect_keys) and kept with the pipeline; it shares the
 * pipeline's layout, so binding it keeps the bound descriptors and push constants. Graphics
 * variants are built from the fixed state the pipeline kept (graphics_build.c).
 *
 * Without generated commands (the own path, docs/indirect.md), a variant reads the root
 * constants a signature sets, and the entries of its root views, from memory that holds a copy
 * of the push block's layout per command, at the address pushed at the root signature's
 * indirect_image_offset (spirv_push_from_memory.c); pipelines of root signatures with that offset
 * (every root signature there) keep their SPIR-V for it. A signature's vertex or index buffer views
 * make the vertex shader fetch its inputs from the views in that memory (the key's pulling:
 * pipeline_vertex_pulling.c), the variant built without vertex input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "pipelines/pipeline_state.h"
#include "pipelines/graphics_build.h"
#include "memory/va_map.h"
#include "spirv/spirv.h"
#include "spirv/spirv_passes.h"

struct d3d12_indirect_variant {
    uint64_t root_view_mask, memory_constant_mask;
    bool from_memory, draw_indexed;
    enum d3d12_vertex_pulling pulling; /* the vertex shader fetches its inputs (pipeline_vertex_pulling.c) */
    VkPipeline pipeline; /* VK_NULL_HANDLE: a draw_indexed variant that cannot be (E_NOTIMPL) */
    struct d3d12_indirect_layout layout; /* stride not 0: read in the commands themselves (draw_indexed) */
};

/* A root view binding of the shader that the root signature gives a push-block entry. */
static bool has_entry(const struct d3d12_pipeline_state *state, const struct d3d12xs_pipeline_binding *binding)
{
    return binding->source == D3D12XS_BINDING_ROOT_DESCRIPTOR && binding->variable_id && binding->root_index < D3D12XS_MAX_ROOT_PARAMETERS
            && state->root_signature->indirect_view_offsets[binding->root_index] != UINT32_MAX;
}

HRESULT d3d12_pipeline_state_keep_indirect_source(struct d3d12_pipeline_state *state, uint32_t *const *words, const size_t *word_counts,
        uint32_t stage_count, const char *method)
{
    bool needed = false;

    /* the own path: root constants read from memory, and for graphics pipelines vertex and index
     * buffer views (every root signature has the image's address there) */
    needed = state->root_signature->indirect_image_offset != UINT32_MAX && (state->graphics || state->root_signature->constants_mask);
    for (uint32_t i = 0; i < state->binding_count && !needed; i++)
        needed = has_entry(state, &state->bindings[i]);
    if (!needed || stage_count > D3D12XS_PIPELINE_MAX_STAGES)
        return S_OK;
    if (state->graphics && state->graphics->view_masking) {
        state->indirect_refusal = "the graphics pipeline renders with view-instance masking, whose pipelines per mask have no variant";
        return S_OK;
    }
    for (uint32_t s = 0; s < stage_count; s++) {
        if (!(state->indirect_sources[s] = malloc(word_counts[s] * 4)))
            return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot keep the SPIR-V of the pipeline's ExecuteIndirect variants");
        memcpy(state->indirect_sources[s], words[s], word_counts[s] * 4);
        state->indirect_source_word_counts[s] = word_counts[s];
    }
    state->indirect_stage_count = stage_count;
    return S_OK;
}

/* The module's root view variables of the parameters in mask that have entries: the variables
 * at the push set's binding of such a parameter, and their entries' offsets. */
static uint32_t root_view_variables(const struct d3d12_pipeline_state *state, const struct d3d12xs_spirv_module *module, uint64_t mask,
        uint32_t *variables, uint32_t *offsets, uint32_t capacity)
{
    const struct d3d12_root_signature *root = state->root_signature;
    const uint32_t push_set = d3d12_root_signature_push_set(root);
    struct d3d12xs_spirv_inst *inst;
    uint32_t count = 0, set, binding;

    for (D3D12XS_SPIRV_EACH(module, D3D12XS_SPIRV_GLOBALS, i, inst)) {
        if (d3d12xs_spirv_op(inst) != SpvOpVariable || d3d12xs_spirv_len(inst) < 4 || count == capacity
                || !d3d12xs_spirv_decoration(module, inst->w[2], SpvDecorationDescriptorSet, &set) || set != push_set
                || !d3d12xs_spirv_decoration(module, inst->w[2], SpvDecorationBinding, &binding)
                || binding >= D3D12XS_MAX_ROOT_PARAMETERS || !(mask >> binding & 1) || root->indirect_view_offsets[binding] == UINT32_MAX)
            continue;
        variables[count] = inst->w[2];
        offsets[count++] = root->indirect_view_offsets[binding];
    }
    return count;
}

/* One stage of the variant: the root views of mask through the push block's entries. *words
 * stays NULL where the stage reads none of them. */
/* The own path's moved byte ranges of the push block: the root constants of constant_mask's
 * parameters and the entries of view_mask's. */
static uint32_t memory_ranges(const struct d3d12_root_signature *root, uint64_t view_mask, uint64_t constant_mask,
        struct d3d12xs_spirv_byte_range *ranges)
{
    uint32_t count = 0;
    for (uint64_t left = constant_mask; left; left &= left - 1) {
        unsigned p = (unsigned)__builtin_ctzll(left);
        ranges[count++] = (struct d3d12xs_spirv_byte_range){root->constant_offsets[p], root->constant_offsets[p] + 4 * root->constant_counts[p]};
    }
    for (uint64_t left = view_mask; left; left &= left - 1) {
        unsigned p = (unsigned)__builtin_ctzll(left);
        if (root->indirect_view_offsets[p] != UINT32_MAX)
            ranges[count++] = (struct d3d12xs_spirv_byte_range){root->indirect_view_offsets[p], root->indirect_view_offsets[p] + 16};
    }
    return count;
}

/* The same read in the commands themselves (layout): the root constants and the entries' address
 * halves (the table halves stay pushed), each displaced to where the command holds it. */
static uint32_t command_ranges(const struct d3d12_root_signature *root, uint64_t view_mask, uint64_t constant_mask,
        const struct d3d12_indirect_layout *layout, struct d3d12xs_spirv_byte_range *ranges, int64_t *displacements)
{
    uint32_t count = 0;
    for (uint64_t left = constant_mask; left; left &= left - 1) {
        unsigned p = (unsigned)__builtin_ctzll(left);
        ranges[count] = (struct d3d12xs_spirv_byte_range){root->constant_offsets[p], root->constant_offsets[p] + 4 * root->constant_counts[p]};
        displacements[count++] = (int64_t)layout->offsets[p] - root->constant_offsets[p];
    }
    for (uint64_t left = view_mask; left; left &= left - 1) {
        unsigned p = (unsigned)__builtin_ctzll(left);
        if (root->indirect_view_offsets[p] == UINT32_MAX)
            continue;
        ranges[count] = (struct d3d12xs_spirv_byte_range){root->indirect_view_offsets[p], root->indirect_view_offsets[p] + 8};
        displacements[count++] = (int64_t)layout->offsets[p] - root->indirect_view_offsets[p];
    }
    return count;
}

/* What a stage's SPIR-V words say of its interface: its execution model, and 1 + the highest
 * Location it decorates (0 where none). */
static void scan_interface(const uint32_t *words, size_t count, uint32_t *model, uint32_t *locations)
{
    *model = UINT32_MAX;
    *locations = 0;
    for (size_t i = 5; i < count && words[i] >> 16; i += words[i] >> 16) {
        const uint32_t op = words[i] & 0xffff, n = words[i] >> 16;
        if (op == SpvOpEntryPoint && n >= 2)
            *model = words[i + 1];
        else if (op == SpvOpDecorate && n >= 4 && words[i + 2] == SpvDecorationLocation && words[i + 3] + 1 > *locations)
            *locations = words[i + 3] + 1;
        else if (op == SpvOpMemberDecorate && n >= 5 && words[i + 3] == SpvDecorationLocation && words[i + 4] + 1 > *locations)
            *locations = words[i + 4] + 1;
    }
}

/* For one multi-draw of a vertex and a pixel shader: the Location at which the vertex shader
 * hands the pixel shader its command's address (a flat uvec2 past every location either uses),
 * so that the pixel shader may read the commands' values too; UINT32_MAX where it cannot. */
static uint32_t handed_address_location(const struct d3d12_pipeline_state *state)
{
    const VkPhysicalDeviceLimits *limits = &state->device->vk_properties.limits;
    uint32_t models[2], locations[2], limit;

    if (!state->graphics || state->indirect_stage_count != 2)
        return UINT32_MAX;
    for (uint32_t s = 0; s < 2; s++)
        scan_interface(state->indirect_sources[s], state->indirect_source_word_counts[s], &models[s], &locations[s]);
    limit = (limits->maxVertexOutputComponents < limits->maxFragmentInputComponents
            ? limits->maxVertexOutputComponents : limits->maxFragmentInputComponents) / 4;
    if (models[0] != SpvExecutionModelVertex || models[1] != SpvExecutionModelFragment)
        return UINT32_MAX;
    locations[0] = locations[0] > locations[1] ? locations[0] : locations[1];
    return locations[0] < limit ? locations[0] : UINT32_MAX;
}

static HRESULT variant_code(const struct d3d12_pipeline_state *state, uint32_t stage, const struct d3d12_indirect_variant *key,
        uint32_t address_location, bool *moved_out, uint32_t **words, size_t *word_count, char *error, size_t error_size)
{
    uint32_t variables[2 * D3D12XS_MAX_ROOT_PARAMETERS], offsets[2 * D3D12XS_MAX_ROOT_PARAMETERS], count;
    struct d3d12xs_spirv_byte_range ranges[2 * D3D12XS_MAX_ROOT_PARAMETERS];
    int64_t displacements[2 * D3D12XS_MAX_ROOT_PARAMETERS];
    struct d3d12xs_spirv_module *module = NULL;
    bool changed = false;
    HRESULT hr;

    *words = NULL;
    if (FAILED(hr = d3d12xs_spirv_module_parse(state->indirect_sources[stage], state->indirect_source_word_counts[stage] * 4, &module,
            error, error_size)))
        return hr;
    if ((count = root_view_variables(state, module, key->root_view_mask, variables, offsets, 2 * D3D12XS_MAX_ROOT_PARAMETERS))) {
        const struct d3d12xs_spirv_root_pointers_args args = {variables, count, 0, 0, 0, D3D12XS_VA_TABLE_ZERO_OFFSET,
                D3D12XS_VA_TABLE_SCRATCH_OFFSET, offsets};
        hr = d3d12xs_spirv_pass_root_pointers(module, &args, error, error_size);
        changed = true;
    }
    if (SUCCEEDED(hr) && key->from_memory) {
        /* draw_indexed: the vertex shader (the first stage) finds its command's memory by DrawIndex */
        const bool in_commands = key->layout.stride != 0;
        struct d3d12_indirect_image_layout layout;
        d3d12_pipeline_state_indirect_image_layout(state, key->pulling, &layout);
        const struct d3d12xs_spirv_push_from_memory_args args = {ranges,
                in_commands ? command_ranges(state->root_signature, key->root_view_mask, key->memory_constant_mask, &key->layout,
                        ranges, displacements)
                        : memory_ranges(state->root_signature, key->root_view_mask, key->memory_constant_mask, ranges),
                state->root_signature->indirect_image_offset,
                !key->draw_indexed || stage ? 0 : in_commands ? key->layout.stride : layout.bytes,
                in_commands ? displacements : NULL,
                stage ? UINT32_MAX : address_location, stage && key->draw_indexed ? address_location : UINT32_MAX};
        bool moved;
        hr = d3d12xs_spirv_pass_push_from_memory(module, &args, &moved, error, error_size);
        changed |= moved;
        *moved_out = moved;
        if (SUCCEEDED(hr) && moved && key->draw_indexed && stage && address_location == UINT32_MAX)
            hr = d3d12xs_write_error(E_NOTIMPL, error, error_size, "a stage after the vertex shader reads the commands' root arguments");
        /* the vertex shader fetches its inputs from the views in the image */
        if (SUCCEEDED(hr) && key->pulling && !stage) {
            hr = d3d12_pipeline_state_pull_vertices(state, module, key->pulling, args.draw_index_stride, error, error_size);
            changed = true;
        }
    }
    if (SUCCEEDED(hr) && changed && FAILED(hr = d3d12xs_spirv_module_emit(module, words, word_count)))
        d3d12xs_write_error(hr, error, error_size, "cannot write the SPIR-V");
    d3d12xs_spirv_module_destroy(module);
    /* The device's choice (D3D12XS_DEBUG or EnableDebugLayer), as for the pipeline's own. */
    if (SUCCEEDED(hr) && *words && d3d12xs_config_validates_spirv(&state->device->config)
            && FAILED(hr = d3d12xs_spirv_validate(*words, *word_count, true, error, error_size))) {
        free(*words);
        *words = NULL;
    }
    return hr;
}

static HRESULT create_vk_pipeline(const struct d3d12_pipeline_state *state, const uint32_t *words, size_t word_count, VkPipeline *pipeline,
        char *error, size_t error_size)
{
    struct d3d12_device *device = state->device;
    uint32_t *device_words = d3d12xs_spirv_words_for_device(words, word_count, device->compute_derivatives_khr);
    VkShaderModuleCreateInfo module_info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = word_count * 4,
        .pCode = device_words ? device_words : words,
    };
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo subgroup_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO,
        .requiredSubgroupSize = state->subgroup_size,
    };
    VkShaderModule module;
    VkResult vr;

    vr = vkCreateShaderModule(device->vk_device, &module_info, NULL, &module);
    free(device_words);
    if (vr != VK_SUCCESS)
        return d3d12xs_write_error(d3d12xs_hresult_from_vk(device, vr), error, error_size, "vkCreateShaderModule failed (VkResult %d)", vr);
    VkComputePipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .flags = state->root_signature->reads_heaps ? VK_PIPELINE_CREATE_DESCRIPTOR_BUFFER_BIT_EXT : 0,
        .stage = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .pNext = state->required_subgroup_size ? &subgroup_info : NULL,
            .stage = VK_SHADER_STAGE_COMPUTE_BIT,
            .module = module,
            .pName = state->entry_point,
        },
        .layout = state->vk_layout,
    };
    vr = vkCreateComputePipelines(device->vk_device, VK_NULL_HANDLE, 1, &info, NULL, pipeline);
    vkDestroyShaderModule(device->vk_device, module, NULL);
    if (vr != VK_SUCCESS)
        return d3d12xs_write_error(d3d12xs_hresult_from_vk(device, vr), error, error_size, "vkCreateComputePipelines failed (VkResult %d)", vr);
    return S_OK;
}

/* Every stage of the variant (the kept source where a stage reads none of the views), and its
 * VkPipeline; *pipeline stays VK_NULL_HANDLE where no stage reads them. */
static HRESULT build_variant(struct d3d12_pipeline_state *state, const struct d3d12_indirect_variant *key, VkPipeline *pipeline,
        char *error, size_t error_size)
{
    uint32_t *words[D3D12XS_PIPELINE_MAX_STAGES] = {0}, *stage_words[D3D12XS_PIPELINE_MAX_STAGES];
    size_t word_counts[D3D12XS_PIPELINE_MAX_STAGES] = {0}, stage_counts[D3D12XS_PIPELINE_MAX_STAGES];
    bool changed = false;
    HRESULT hr = S_OK;

    /* one multi-draw: the pixel shader first, reading its command's address where the vertex
     * shader hands it on (which it then does) */
    const uint32_t handed = key->draw_indexed ? handed_address_location(state) : UINT32_MAX;
    bool pixel_reads = false, moved;

    *pipeline = VK_NULL_HANDLE;
    if (handed != UINT32_MAX)
        hr = variant_code(state, 1, key, handed, &pixel_reads, &words[1], &word_counts[1], error, error_size);
    for (uint32_t s = 0; s < state->indirect_stage_count && SUCCEEDED(hr); s++) {
        if (handed == UINT32_MAX || s != 1)
            hr = variant_code(state, s, key, !s && pixel_reads ? handed : UINT32_MAX, &moved, &words[s], &word_counts[s], error, error_size);
        changed |= words[s] != NULL;
        stage_words[s] = words[s] ? words[s] : state->indirect_sources[s];
        stage_counts[s] = words[s] ? word_counts[s] : state->indirect_source_word_counts[s];
    }
    if (SUCCEEDED(hr) && changed && SUCCEEDED(hr = state->graphics
            ? d3d12_graphics_pipeline_build_variant(state, stage_words, stage_counts, key->pulling != D3D12_VERTEX_PULLING_NONE, pipeline,
                    error, error_size)
            : create_vk_pipeline(state, stage_words[0], stage_counts[0], pipeline, error, error_size)))
        atomic_fetch_add(&state->device->indirect_variants_created, 1);
    for (uint32_t s = 0; s < D3D12XS_PIPELINE_MAX_STAGES; s++)
        free(words[s]);
    return hr;
}

static VkPipeline find_or_build(struct d3d12_pipeline_state *state, const struct d3d12_indirect_variant key, HRESULT *hr, char *error,
        size_t error_size);

VkPipeline d3d12_pipeline_state_indirect_variant(struct d3d12_pipeline_state *state, uint64_t root_view_mask, uint64_t memory_constant_mask,
        bool from_memory, enum d3d12_vertex_pulling pulling, bool draw_indexed, HRESULT *hr, char *error, size_t error_size)
{
    const struct d3d12_indirect_variant key = {root_view_mask, from_memory ? memory_constant_mask : 0, from_memory,
            from_memory && draw_indexed && state->graphics, from_memory && state->graphics ? pulling : D3D12_VERTEX_PULLING_NONE,
            VK_NULL_HANDLE, {0, {0}}};
    return find_or_build(state, key, hr, error, error_size);
}

VkPipeline d3d12_pipeline_state_direct_draw_variant(struct d3d12_pipeline_state *state, uint64_t root_view_mask,
        uint64_t memory_constant_mask, const struct d3d12_indirect_layout *layout, HRESULT *hr, char *error, size_t error_size)
{
    struct d3d12_indirect_variant key = {root_view_mask, memory_constant_mask, true, true, D3D12_VERTEX_PULLING_NONE, VK_NULL_HANDLE, *layout};
    if (!state->graphics) {
        *hr = d3d12xs_write_error(E_NOTIMPL, error, error_size, "a compute pipeline draws nothing");
        return VK_NULL_HANDLE;
    }
    return find_or_build(state, key, hr, error, error_size);
}

static VkPipeline find_or_build(struct d3d12_pipeline_state *state, const struct d3d12_indirect_variant key, HRESULT *hr, char *error,
        size_t error_size)
{
    const uint64_t root_view_mask = key.root_view_mask;
    const bool from_memory = key.from_memory;
    struct d3d12_indirect_variant *bigger;
    VkPipeline pipeline = VK_NULL_HANDLE;

    *hr = S_OK;
    if (state->indirect_refusal) {
        if (from_memory) {
            *hr = d3d12xs_write_error(E_NOTIMPL, error, error_size, "%s", state->indirect_refusal);
            return VK_NULL_HANDLE;
        }
        for (uint32_t i = 0; i < state->binding_count; i++)
            if (has_entry(state, &state->bindings[i]) && (root_view_mask >> state->bindings[i].root_index & 1)) {
                *hr = d3d12xs_write_error(E_NOTIMPL, error, error_size, "%s", state->indirect_refusal);
                return VK_NULL_HANDLE;
            }
        return state->vk_pipeline;
    }
    if (!state->indirect_stage_count)
        return state->vk_pipeline;
    pthread_mutex_lock(&state->indirect_lock);
    for (uint32_t i = 0; i < state->indirect_variant_count; i++)
        if (state->indirect_variants[i].root_view_mask == key.root_view_mask
                && state->indirect_variants[i].memory_constant_mask == key.memory_constant_mask
                && state->indirect_variants[i].from_memory == key.from_memory
                && state->indirect_variants[i].draw_indexed == key.draw_indexed
                && state->indirect_variants[i].pulling == key.pulling
                && !memcmp(&state->indirect_variants[i].layout, &key.layout, sizeof(key.layout))) {
            if (!(pipeline = state->indirect_variants[i].pipeline))
                *hr = d3d12xs_write_error(E_NOTIMPL, error, error_size, "a stage after the vertex shader reads the commands' root arguments");
            goto done;
        }
    if (!(bigger = realloc(state->indirect_variants, (state->indirect_variant_count + 1) * sizeof(*bigger)))) {
        *hr = d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory");
        goto done;
    }
    state->indirect_variants = bigger;
    if (FAILED(*hr = build_variant(state, &key, &pipeline, error, error_size))) {
        /* remembered, so that later calls take the per-command variant without trying again */
        if (*hr == E_NOTIMPL && key.draw_indexed)
            state->indirect_variants[state->indirect_variant_count++] = key;
        goto done;
    }
    /* none of the stages reads what the commands set: the pipeline itself, remembered as such */
    state->indirect_variants[state->indirect_variant_count] = key;
    state->indirect_variants[state->indirect_variant_count++].pipeline = pipeline ? pipeline : state->vk_pipeline;
    if (!pipeline)
        pipeline = state->vk_pipeline;

done:
    pthread_mutex_unlock(&state->indirect_lock);
    return pipeline;
}

void d3d12_pipeline_state_destroy_indirect_variants(struct d3d12_device *device, struct d3d12_pipeline_state *state)
{
    for (uint32_t i = 0; i < state->indirect_variant_count; i++)
        if (state->indirect_variants[i].pipeline && state->indirect_variants[i].pipeline != state->vk_pipeline)
            vkDestroyPipeline(device->vk_device, state->indirect_variants[i].pipeline, NULL);
    free(state->indirect_variants);
    for (uint32_t s = 0; s < D3D12XS_PIPELINE_MAX_STAGES; s++)
        free(state->indirect_sources[s]);
    pthread_mutex_destroy(&state->indirect_lock);
}

void d3d12_pipeline_state_make_indirect_variant(struct d3d12_pipeline_state *state, const struct d3d12_indirect_key *key)
{
    const struct d3d12xs_graphics_caps *caps = &state->device->graphics;
    char error[256];
    HRESULT hr;

    if (!state->graphics != !key->graphics || (!state->indirect_stage_count && !state->indirect_refusal))
        return; /* no variant: ExecuteIndirect takes the pipeline itself */
    if (key->layout.stride) {
        if (caps->multi_draw_indirect && caps->draw_parameters)
            d3d12_pipeline_state_direct_draw_variant(state, key->root_view_mask, key->constant_mask, &key->layout, &hr, error, sizeof(error));
        return;
    }
    /* the own path's draws try one multi-draw first (command_list_indirect.c); with generated
     * commands the own path takes nothing else */
    if (key->from_memory && key->graphics && caps->multi_draw_indirect && caps->draw_parameters
            && (d3d12_pipeline_state_indirect_variant(state, key->root_view_mask, key->constant_mask, true, key->pulling, true, &hr, error,
                    sizeof(error)) || state->device->generated_commands.enabled))
        return;
    d3d12_pipeline_state_indirect_variant(state, key->root_view_mask, key->constant_mask, key->from_memory, key->pulling, false, &hr, error,
            sizeof(error));
}

void d3d12_pipeline_state_make_indirect_variants(struct d3d12_pipeline_state *state)
{
    struct d3d12_root_signature *root = state->root_signature;
    struct d3d12_indirect_key *keys = NULL;
    uint32_t count;

    pthread_mutex_lock(&root->indirect_keys_lock);
    if ((count = root->indirect_key_count) && (keys = malloc(count * sizeof(*keys))))
        memcpy(keys, root->indirect_keys, count * sizeof(*keys));
    pthread_mutex_unlock(&root->indirect_keys_lock);
    for (uint32_t i = 0; keys && i < count; i++)
        d3d12_pipeline_state_make_indirect_variant(state, &keys[i]);
    free(keys);
    /* vertex pulling for the command signatures that have no root signature */
    for (unsigned kinds = atomic_load(&state->device->indirect_pulling_kinds); kinds; kinds &= kinds - 1) {
        const struct d3d12_indirect_key key = {0, 0, true, true, (uint8_t)__builtin_ctz(kinds), {0, {0}}};
        d3d12_pipeline_state_make_indirect_variant(state, &key);
    }
}
