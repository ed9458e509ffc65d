/* Stream output as Vulkan transform feedback (spirv_passes.h). D3D12's declaration picks
 * components of an output by semantic and writes them at byte offsets of a buffer; Vulkan
 * captures whole output variables decorated with XfbBuffer, XfbStride and Offset. So each
 * captured range gets an output variable of its own, written from the original where the
 * outputs are final: before the entry point returns, and in a geometry shader before each
 * vertex it emits (outputs are undefined after an emit). The original keeps its Location and
 * its consumers; the copies sit at Locations no later stage reads. */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "common/util.h"
#include "spirv/spirv_passes.h"

/* What one capture copies: its source's type and the new variable. */
struct capture_plan {
    uint32_t source, source_type, source_components; /* source_components 1: a scalar */
    uint32_t scalar_type, shadow_type, shadow;
};

static HRESULT plan_capture(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_xfb_capture *capture, struct capture_plan *plan,
        char *error, size_t error_size)
{
    const struct d3d12xs_spirv_inst *variable = d3d12xs_spirv_def_op(m, capture->variable_id, SpvOpVariable, 4), *pointer, *type, *scalar;

    if (!variable || variable->w[3] != SpvStorageClassOutput || !(pointer = d3d12xs_spirv_def_op(m, variable->w[1], SpvOpTypePointer, 4))
            || !(type = d3d12xs_spirv_def(m, pointer->w[3])))
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "variable %u is not an output", capture->variable_id);
    plan->source = capture->variable_id;
    plan->source_type = pointer->w[3];
    plan->source_components = 1;
    scalar = type;
    if (d3d12xs_spirv_op(type) == SpvOpTypeVector && d3d12xs_spirv_len(type) >= 4) {
        plan->source_components = type->w[3];
        scalar = d3d12xs_spirv_def(m, type->w[2]);
    }
    if (!scalar || (d3d12xs_spirv_op(scalar) != SpvOpTypeFloat && d3d12xs_spirv_op(scalar) != SpvOpTypeInt) || scalar->w[2] != 32)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "output variable %u is not a 32-bit scalar or vector",
                capture->variable_id);
    if (!capture->component_count || capture->first_component + capture->component_count > plan->source_components)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "components %u to %u of output variable %u pass its %u",
                capture->first_component, capture->first_component + capture->component_count, capture->variable_id,
                plan->source_components);
    plan->scalar_type = scalar->w[1];
    if (capture->component_count == 1) {
        plan->shadow_type = plan->scalar_type;
    } else {
        const uint32_t vector[4] = {SpvOpTypeVector | 4u << 16, 0, plan->scalar_type, capture->component_count};
        plan->shadow_type = d3d12xs_spirv_global(m, vector, 4, 1);
    }
    const uint32_t pointer_type = d3d12xs_spirv_type_pointer(m, SpvStorageClassOutput, plan->shadow_type);
    if (!(plan->shadow = d3d12xs_spirv_new_id(m)))
        return d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of ids");
    const uint32_t declaration[4] = {SpvOpVariable | 4u << 16, pointer_type, plan->shadow, SpvStorageClassOutput};
    d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, declaration, 4);
    return S_OK;
}

static void decorate(struct d3d12xs_spirv_module *m, uint32_t id, uint32_t decoration, uint32_t value)
{
    const uint32_t words[4] = {SpvOpDecorate | 4u << 16, id, decoration, value};
    d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, words, 4);
}

/* The copies of every capture, inserted before the instruction at *index (which moves on). */
static void insert_copies(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_stream_output_args *args, const struct capture_plan *plans,
        size_t *index)
{
    for (uint32_t k = 0; k < args->count; k++) {
        const struct d3d12xs_spirv_xfb_capture *capture = &args->captures[k];
        const struct capture_plan *plan = &plans[k];
        uint32_t loaded = d3d12xs_spirv_new_id(m), value = loaded, words[8];

        words[0] = SpvOpLoad | 4u << 16;
        words[1] = plan->source_type;
        words[2] = loaded;
        words[3] = plan->source;
        d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, (*index)++, words, 4);
        if (plan->source_components > 1 && capture->component_count == 1) {
            value = d3d12xs_spirv_new_id(m);
            const uint32_t extract[5] = {SpvOpCompositeExtract | 5u << 16, plan->scalar_type, value, loaded, capture->first_component};
            d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, (*index)++, extract, 5);
        } else if (plan->source_components > 1 && capture->component_count < plan->source_components) {
            uint32_t n = 5 + capture->component_count;
            value = d3d12xs_spirv_new_id(m);
            words[0] = SpvOpVectorShuffle | n << 16;
            words[1] = plan->shadow_type;
            words[2] = value;
            words[3] = words[4] = loaded;
            for (uint32_t c = 0; c < capture->component_count; c++)
                words[5 + c] = capture->first_component + c;
            d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, (*index)++, words, n);
        }
        const uint32_t store[3] = {SpvOpStore | 3u << 16, plan->shadow, value};
        d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, (*index)++, store, 3);
    }
}

HRESULT d3d12xs_spirv_pass_stream_output(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_stream_output_args *args,
        char *error, size_t error_size)
{
    struct d3d12xs_spirv_inst *entry = m->sections[D3D12XS_SPIRV_ENTRY_POINTS].count ? m->sections[D3D12XS_SPIRV_ENTRY_POINTS].at[0] : NULL;
    struct d3d12xs_spirv_inst **sites = NULL, *inst;
    struct capture_plan *plans = NULL;
    uint32_t function = 0, entry_function, model;
    size_t site_count = 0;
    bool streams = false;
    HRESULT hr = S_OK;

    if (!args->count)
        return S_OK;
    if (!entry || d3d12xs_spirv_len(entry) < 3)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the module has no entry point");
    model = entry->w[1];
    entry_function = entry->w[2];
    if (!(plans = calloc(args->count, sizeof(*plans)))
            || !(sites = calloc(m->sections[D3D12XS_SPIRV_FUNCTIONS].count + 1, sizeof(*sites)))) {
        hr = d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory");
        goto done;
    }
    for (uint32_t k = 0; k < args->count; k++) {
        const struct d3d12xs_spirv_xfb_capture *capture = &args->captures[k];
        if (FAILED(hr = plan_capture(m, capture, &plans[k], error, error_size)))
            goto done;
        decorate(m, plans[k].shadow, SpvDecorationLocation, args->first_location + k);
        decorate(m, plans[k].shadow, SpvDecorationXfbBuffer, capture->buffer);
        decorate(m, plans[k].shadow, SpvDecorationXfbStride, capture->stride);
        decorate(m, plans[k].shadow, SpvDecorationOffset, capture->offset);
        if (capture->stream) {
            decorate(m, plans[k].shadow, SpvDecorationStream, capture->stream);
            streams = true;
        }
        d3d12xs_spirv_append_operand(m, entry, plans[k].shadow);
    }
    /* Where the outputs are final: the entry point's returns; a geometry shader's emits. */
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_FUNCTIONS, i, inst)) {
        uint32_t op = d3d12xs_spirv_op(inst);
        if (op == SpvOpFunction && d3d12xs_spirv_len(inst) > 2)
            function = inst->w[2];
        else if (model == SpvExecutionModelGeometry ? op == SpvOpEmitVertex || op == SpvOpEmitStreamVertex
                : op == SpvOpReturn && function == entry_function)
            sites[site_count++] = inst;
    }
    for (size_t s = 0; s < site_count; s++) {
        size_t index = d3d12xs_spirv_index_of(m, sites[s]);
        if (index != SIZE_MAX)
            insert_copies(m, args, plans, &index);
    }
    d3d12xs_spirv_add_capability(m, SpvCapabilityTransformFeedback);
    if (streams)
        d3d12xs_spirv_add_capability(m, SpvCapabilityGeometryStreams);
    const uint32_t mode[3] = {SpvOpExecutionMode | 3u << 16, entry_function, SpvExecutionModeXfb};
    d3d12xs_spirv_append(m, D3D12XS_SPIRV_EXECUTION_MODES, mode, 3);
    if (m->out_of_memory)
        hr = d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory");

done:
    free(plans);
    free(sites);
    return hr;
}
