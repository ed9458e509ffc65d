/* Stages linked by semantic (graphics_link.h). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <spirv/unified1/spirv.h>

#include "pipelines/graphics_link.h"
#include "pipelines/graphics_state.h"

static const char *stage_noun(VkShaderStageFlagBits stage)
{
    switch (stage) {
    case VK_SHADER_STAGE_VERTEX_BIT: return "vertex shader";
    case VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT: return "hull shader";
    case VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT: return "domain shader";
    case VK_SHADER_STAGE_GEOMETRY_BIT: return "geometry shader";
    default: return "pixel shader";
    }
}

static bool add_link(struct d3d12_graphics_stage *stage, uint32_t id, uint32_t location, uint32_t index)
{
    uint32_t n = stage->link_count;
    if (!(n % 8)) {
        uint32_t *ids = realloc(stage->link_ids, (n + 8) * sizeof(*ids)), *locations, *indices;
        if (!ids)
            return false;
        stage->link_ids = ids;
        if (!(locations = realloc(stage->link_locations, (n + 8) * sizeof(*locations))))
            return false;
        stage->link_locations = locations;
        if (!(indices = realloc(stage->link_indices, (n + 8) * sizeof(*indices))))
            return false;
        stage->link_indices = indices;
    }
    stage->link_ids[n] = id;
    stage->link_locations[n] = location;
    stage->link_indices[n] = index;
    stage->link_count++;
    return true;
}

static const char *type_name(const struct d3d12xs_stage_variable *v)
{
    if (v->scalar_op == SpvOpTypeFloat)
        return v->scalar_width == 64 ? "double" : v->scalar_width == 16 ? "half" : "float";
    if (v->scalar_op == SpvOpTypeBool)
        return "bool";
    return v->scalar_signed ? "int" : "uint";
}

/* The vertex shader's inputs against the input layout: which element feeds which Location. */
static HRESULT link_vertex_inputs(const struct d3d12_graphics_desc *desc, const struct d3d12_graphics_stage *vs, uint32_t *element_locations,
        const char *method)
{
    const D3D12_INPUT_LAYOUT_DESC *layout = &desc->input_layout;

    for (UINT i = 0; i < layout->NumElements; i++)
        element_locations[i] = D3D12XS_NO_LOCATION;
    for (uint32_t k = 0; k < vs->iface.count; k++) {
        const struct d3d12xs_stage_variable *v = &vs->iface.variables[k];
        if (v->output || v->location == D3D12XS_NO_LOCATION)
            continue;
        for (uint32_t l = 0; l < v->location_count; l++) {
            const D3D12_INPUT_ELEMENT_DESC *found = NULL;
            UINT element = 0;
            for (UINT i = 0; i < layout->NumElements && !found; i++) {
                const D3D12_INPUT_ELEMENT_DESC *e = &layout->pInputElementDescs[i];
                if (v->semantic[0] ? !strcasecmp(e->SemanticName, v->semantic) && e->SemanticIndex == v->semantic_index + l
                        : i == v->location + l) {
                    found = e;
                    element = i;
                }
            }
            if (!found) {
                if (v->semantic[0])
                    return d3d12xs_fail(E_INVALIDARG, method, "%s reads %s%u, which %sInputLayout does not provide", vs->argument, v->semantic,
                            v->semantic_index + l, desc->prefix);
                return d3d12xs_fail(E_INVALIDARG, method, "%s reads Location %u and carries no semantics: %sInputLayout has no element "
                        "%u to feed it", vs->argument, v->location + l, desc->prefix, v->location + l);
            }
            char kind = d3d12_vertex_format_kind(found->Format);
            char wanted = v->scalar_op == SpvOpTypeInt ? (v->scalar_signed ? 's' : 'u') : 'f';
            if (kind != wanted)
                return d3d12xs_fail(E_INVALIDARG, method, "%s reads %s%u as %s, but %sInputLayout.pInputElementDescs[%u].Format %d is %s",
                        vs->argument, found->SemanticName, found->SemanticIndex, type_name(v), desc->prefix, element, (int)found->Format,
                        kind == 'f' ? "a float format" : kind == 'u' ? "a UINT format" : "a SINT format");
            element_locations[element] = v->location + l;
        }
    }
    return S_OK;
}

/* The producer's output that holds semantic index `index` of `semantic`, or NULL. */
static const struct d3d12xs_stage_variable *find_output(const struct d3d12_graphics_stage *producer, const struct d3d12xs_stage_variable *input,
        uint32_t index)
{
    for (uint32_t j = 0; j < producer->iface.count; j++) {
        const struct d3d12xs_stage_variable *o = &producer->iface.variables[j];
        if (o->output && o->location != D3D12XS_NO_LOCATION && o->patch == input->patch && !strcmp(o->semantic, input->semantic)
                && o->semantic_index <= index && index < o->semantic_index + o->location_count)
            return o;
    }
    return NULL;
}

/* One stage's inputs against its producer's outputs. An input array or matrix may span several
 * outputs (a struct's array member, which glslang writes as one variable per element): each of
 * its Locations is checked against the output holding that semantic index, and those outputs
 * must sit at consecutive Locations, as the input's do. */
static HRESULT link_inputs(struct d3d12_graphics_stage *producer, struct d3d12_graphics_stage *consumer, const char *method)
{
    for (uint32_t k = 0; k < consumer->iface.count; k++) {
        const struct d3d12xs_stage_variable *v = &consumer->iface.variables[k], *found;
        uint32_t location;
        if (v->output || v->location == D3D12XS_NO_LOCATION || !v->semantic[0])
            continue;
        if (!(found = find_output(producer, v, v->semantic_index)))
            return d3d12xs_fail(E_INVALIDARG, method, "%s reads %s%u, which the %s (%s) does not write", consumer->argument, v->semantic,
                    v->semantic_index, stage_noun(producer->stage), producer->argument);
        location = found->location + (v->semantic_index - found->semantic_index);
        for (uint32_t l = 0; l < v->location_count; l++) {
            const struct d3d12xs_stage_variable *o = l ? find_output(producer, v, v->semantic_index + l) : found;
            if (!o)
                return d3d12xs_fail(E_INVALIDARG, method, "%s reads %s%u, which the %s (%s) does not write", consumer->argument,
                        v->semantic, v->semantic_index + l, stage_noun(producer->stage), producer->argument);
            if (o->location + (v->semantic_index + l - o->semantic_index) != location + l)
                return d3d12xs_fail(E_INVALIDARG, method, "%s reads %s%u to %s%u as one variable, which the %s writes at Locations that "
                        "do not follow each other (not supported)", consumer->argument, v->semantic, v->semantic_index, v->semantic,
                        v->semantic_index + v->location_count - 1, stage_noun(producer->stage));
            if (v->scalar_op != o->scalar_op || v->scalar_width != o->scalar_width)
                return d3d12xs_fail(E_INVALIDARG, method, "%s reads %s%u as %s, the %s writes it as %s", consumer->argument, v->semantic,
                        v->semantic_index + l, type_name(v), stage_noun(producer->stage), type_name(o));
            if (v->components > o->components)
                return d3d12xs_fail(E_INVALIDARG, method, "%s reads %u components of %s%u, the %s writes %u", consumer->argument,
                        v->components, v->semantic, v->semantic_index + l, stage_noun(producer->stage), o->components);
        }
        if (v->location != location && !add_link(consumer, v->variable_id, location, UINT32_MAX))
            return d3d12xs_fail(E_OUTOFMEMORY, method, "out of memory linking %s", consumer->argument);
    }
    return S_OK;
}

/* The pixel shader's outputs: SV_TargetN is Location N (glslang's own); each against its
 * render target's format, and SV_Target1 as RT0's second source with dual-source blending. */
static HRESULT link_targets(const struct d3d12_graphics_desc *desc, struct d3d12_graphics_stage *ps, bool dual_source, const char *method)
{
    for (uint32_t k = 0; k < ps->iface.count; k++) {
        const struct d3d12xs_stage_variable *v = &ps->iface.variables[k];
        uint32_t target = v->location;
        if (!v->output || v->location == D3D12XS_NO_LOCATION)
            continue;
        if (dual_source && target == 1) {
            if (!add_link(ps, v->variable_id, 0, 1))
                return d3d12xs_fail(E_OUTOFMEMORY, method, "out of memory linking %s", ps->argument);
            target = 0;
        }
        if (target < desc->rt_count && desc->rtv_formats[target] != DXGI_FORMAT_UNKNOWN) {
            char kind = d3d12_vertex_format_kind(desc->rtv_formats[target]);
            char written = v->scalar_op == SpvOpTypeInt ? (v->scalar_signed ? 's' : 'u') : 'f';
            if ((kind == 'f') != (written == 'f'))
                return d3d12xs_fail(E_INVALIDARG, method, "%s writes SV_Target%u as %s, but %sRTVFormats[%u] %d is %s", ps->argument,
                        v->location, type_name(v), desc->prefix, target, (int)desc->rtv_formats[target],
                        kind == 'f' ? "not an integer format" : "an integer format");
        }
    }
    return S_OK;
}

HRESULT d3d12_graphics_link(const struct d3d12_graphics_desc *desc, struct d3d12_graphics_stage *stages, uint32_t count, bool dual_source,
        uint32_t *element_locations, const char *method)
{
    HRESULT hr;

    if (FAILED(hr = link_vertex_inputs(desc, &stages[0], element_locations, method)))
        return hr;
    for (uint32_t s = 1; s < count; s++)
        if (FAILED(hr = link_inputs(&stages[s - 1], &stages[s], method)))
            return hr;
    if (stages[count - 1].stage == VK_SHADER_STAGE_FRAGMENT_BIT)
        return link_targets(desc, &stages[count - 1], dual_source, method);
    return S_OK;
}

void d3d12_graphics_stage_cleanup(struct d3d12_graphics_stage *stage)
{
    free(stage->link_ids);
    free(stage->link_locations);
    free(stage->link_indices);
    d3d12xs_stage_interface_cleanup(&stage->iface);
    stage->link_ids = stage->link_locations = stage->link_indices = NULL;
    stage->link_count = 0;
}
