/* A graphics stage's inputs and outputs, with the semantics D3DCompile kept (spirv_stage_io.h),
 * and the pass that gives them the Locations linking chose. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "spirv/spirv_stage_io.h"
#include "common/util.h"

bool d3d12xs_split_semantic(const char *semantic, char *name, size_t name_size, uint32_t *index)
{
    size_t length = strlen(semantic), digits = length;

    while (digits && isdigit((unsigned char)semantic[digits - 1]))
        digits--;
    /* a name that is all digits is not one; at most 9 digits of index */
    if (!digits || length - digits > 9 || digits >= name_size)
        return false;
    for (size_t i = 0; i < digits; i++)
        name[i] = (char)toupper((unsigned char)semantic[i]);
    name[digits] = 0;
    *index = digits < length ? (uint32_t)strtoul(semantic + digits, NULL, 10) : 0;
    return true;
}

/* Whether the entry point's inputs (output: its outputs) are per-vertex arrays: a geometry
 * shader's inputs, a hull shader's inputs and outputs, a domain shader's inputs (patch
 * variables aside). */
static bool per_vertex_arrays(uint32_t model, bool output)
{
    switch (model) {
    case SpvExecutionModelGeometry:
    case SpvExecutionModelTessellationEvaluation:
        return !output;
    case SpvExecutionModelTessellationControl:
        return true;
    default:
        return false;
    }
}

/* Locations of a type, and the scalar and width of one of them (the innermost scalar). */
static bool type_locations(const struct d3d12xs_spirv_module *m, uint32_t type, struct d3d12xs_stage_variable *v, uint32_t *count)
{
    const struct d3d12xs_spirv_inst *inst = d3d12xs_spirv_def(m, type);
    uint32_t length, element;

    if (!inst)
        return false;
    switch (d3d12xs_spirv_op(inst)) {
    case SpvOpTypeFloat:
    case SpvOpTypeInt:
    case SpvOpTypeBool:
        v->scalar_op = d3d12xs_spirv_op(inst);
        v->scalar_width = d3d12xs_spirv_op(inst) == SpvOpTypeBool ? 32 : inst->w[2];
        v->scalar_signed = d3d12xs_spirv_op(inst) == SpvOpTypeInt ? inst->w[3] : 0;
        v->components = 1;
        *count = 1;
        return true;
    case SpvOpTypeVector:
        if (!type_locations(m, inst->w[2], v, count))
            return false;
        v->components = inst->w[3];
        /* 64-bit vectors of three or four components take two Locations */
        *count = v->scalar_width == 64 && inst->w[3] > 2 ? 2 : 1;
        return true;
    case SpvOpTypeMatrix:
        if (!type_locations(m, inst->w[2], v, count))
            return false;
        *count *= inst->w[3];
        return true;
    case SpvOpTypeArray:
        if (!d3d12xs_spirv_int32_constant(m, inst->w[3], NULL, &length) || !type_locations(m, inst->w[2], v, &element))
            return false;
        *count = element * length;
        return true;
    default:
        return false; /* structs: glslang gives each member a variable of its own */
    }
}

/* glslang flattens an array member of an input or output struct into one variable per element,
 * at consecutive Locations, each with the member's semantic unchanged ("VALUES" for both halves
 * of `float4 values[2] : VALUES`). D3D gives element k the semantic index base + its Locations
 * before it, so variables of one direction that share a semantic and index take their index from
 * their Location relative to the group's first (D3D12 allows no other repeated semantic). */
static bool number_array_elements(struct d3d12xs_stage_interface *iface)
{
    uint32_t *first = malloc((iface->count + 1) * sizeof(*first));

    if (!first)
        return false;
    for (uint32_t k = 0; k < iface->count; k++) {
        const struct d3d12xs_stage_variable *v = &iface->variables[k];
        first[k] = v->location;
        for (uint32_t j = 0; j < iface->count && v->semantic[0] && v->location != D3D12XS_NO_LOCATION; j++) {
            const struct d3d12xs_stage_variable *o = &iface->variables[j];
            if (o->output == v->output && o->patch == v->patch && o->semantic_index == v->semantic_index
                    && o->location < first[k] && !strcmp(o->semantic, v->semantic))
                first[k] = o->location;
        }
    }
    for (uint32_t k = 0; k < iface->count; k++)
        if (iface->variables[k].location != D3D12XS_NO_LOCATION)
            iface->variables[k].semantic_index += iface->variables[k].location - first[k];
    free(first);
    return true;
}

HRESULT d3d12xs_spirv_stage_interface(const struct d3d12xs_spirv_module *m, struct d3d12xs_stage_interface *iface,
        char *error, size_t error_size)
{
    const struct d3d12xs_spirv_inst *entry = NULL, *inst;
    uint32_t next;

    memset(iface, 0, sizeof(*iface));
    if (m->sections[D3D12XS_SPIRV_ENTRY_POINTS].count)
        entry = m->sections[D3D12XS_SPIRV_ENTRY_POINTS].at[0];
    if (!entry || d3d12xs_spirv_len(entry) < 4 || !d3d12xs_spirv_inst_string(entry, 3, NULL, &next))
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the module has no entry point");
    iface->execution_model = entry->w[1];
    if (!(iface->variables = calloc(d3d12xs_spirv_len(entry) - next + 1, sizeof(*iface->variables))))
        return d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory");
    for (uint32_t k = next; k < d3d12xs_spirv_len(entry); k++) {
        struct d3d12xs_stage_variable *v = &iface->variables[iface->count];
        const struct d3d12xs_spirv_inst *variable = d3d12xs_spirv_def_op(m, entry->w[k], SpvOpVariable, 4), *pointer;
        uint32_t type;

        if (!variable || (variable->w[3] != SpvStorageClassInput && variable->w[3] != SpvStorageClassOutput))
            continue; /* SPIR-V 1.4 lists every global; only inputs and outputs link */
        memset(v, 0, sizeof(*v));
        v->variable_id = variable->w[2];
        v->output = variable->w[3] == SpvStorageClassOutput;
        v->builtin = UINT32_MAX;
        v->location = D3D12XS_NO_LOCATION;
        if (!(pointer = d3d12xs_spirv_def_op(m, variable->w[1], SpvOpTypePointer, 4)))
            return d3d12xs_write_error(E_INVALIDARG, error, error_size, "interface variable %u has no pointer type", v->variable_id);
        type = pointer->w[3];
        v->patch = d3d12xs_spirv_decoration(m, v->variable_id, SpvDecorationPatch, NULL);
        if (!d3d12xs_spirv_decoration(m, v->variable_id, SpvDecorationBuiltIn, &v->builtin))
            v->builtin = UINT32_MAX;
        /* a struct of built-ins (gl_PerVertex) is one built-in block: nothing to link */
        if (v->builtin == UINT32_MAX && !d3d12xs_spirv_decoration(m, v->variable_id, SpvDecorationLocation, &v->location)) {
            v->location = D3D12XS_NO_LOCATION;
            continue;
        }
        if (v->builtin == UINT32_MAX) {
            const struct d3d12xs_spirv_inst *array;
            if (!v->patch && per_vertex_arrays(iface->execution_model, v->output)) {
                if (!(array = d3d12xs_spirv_def(m, type)) || (d3d12xs_spirv_op(array) != SpvOpTypeArray
                        && d3d12xs_spirv_op(array) != SpvOpTypeRuntimeArray))
                    return d3d12xs_write_error(E_INVALIDARG, error, error_size, "per-vertex variable %u is not an array", v->variable_id);
                type = array->w[2];
            }
            if (!type_locations(m, type, v, &v->location_count))
                return d3d12xs_write_error(E_INVALIDARG, error, error_size, "%s variable %u at Location %u has a type that does not "
                        "link by Location (a struct?)", v->output ? "output" : "input", v->variable_id, v->location);
        }
        for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ANNOTATIONS, i, inst)) {
            const char *semantic;
            if (d3d12xs_spirv_op(inst) == SpvOpDecorateString && d3d12xs_spirv_len(inst) >= 4 && inst->w[1] == v->variable_id
                    && inst->w[2] == SpvDecorationUserSemantic && d3d12xs_spirv_inst_string(inst, 3, &semantic, NULL)
                    && !d3d12xs_split_semantic(semantic, v->semantic, sizeof(v->semantic), &v->semantic_index))
                return d3d12xs_write_error(E_INVALIDARG, error, error_size, "semantic '%.64s' of variable %u is not a D3D semantic",
                        semantic, v->variable_id);
        }
        iface->count++;
    }
    if (!number_array_elements(iface))
        return d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory");
    return S_OK;
}

void d3d12xs_stage_interface_cleanup(struct d3d12xs_stage_interface *iface)
{
    free(iface->variables);
    memset(iface, 0, sizeof(*iface));
}

static bool is_semantic_extension(const struct d3d12xs_spirv_inst *inst)
{
    const char *name;
    return d3d12xs_spirv_inst_string(inst, 1, &name, NULL)
            && (!strcmp(name, "SPV_GOOGLE_hlsl_functionality1") || !strcmp(name, "SPV_GOOGLE_decorate_string"));
}

HRESULT d3d12xs_spirv_pass_locations(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_locations_args *args,
        char *error, size_t error_size)
{
    struct d3d12xs_spirv_list *annotations = &m->sections[D3D12XS_SPIRV_ANNOTATIONS];
    bool other_google = false;

    for (size_t i = 0; i < annotations->count;) {
        struct d3d12xs_spirv_inst *inst = annotations->at[i];
        uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst);
        if (op == SpvOpDecorateString && n >= 3 && inst->w[2] == SpvDecorationUserSemantic) {
            d3d12xs_spirv_remove(m, D3D12XS_SPIRV_ANNOTATIONS, i);
            continue;
        }
        if (op == SpvOpMemberDecorateString || op == SpvOpDecorateString || op == SpvOpDecorateId)
            other_google = true;
        /* a new Location replaces the old one; an Index is added below */
        if (op == SpvOpDecorate && n == 4 && (inst->w[2] == SpvDecorationLocation || inst->w[2] == SpvDecorationIndex)) {
            bool replaced = false;
            for (uint32_t k = 0; k < args->count && !replaced; k++)
                replaced = args->variable_ids[k] == inst->w[1];
            if (replaced) {
                d3d12xs_spirv_remove(m, D3D12XS_SPIRV_ANNOTATIONS, i);
                continue;
            }
        }
        i++;
    }
    for (uint32_t k = 0; k < args->count; k++) {
        const uint32_t location[4] = {SpvOpDecorate | 4u << 16, args->variable_ids[k], SpvDecorationLocation, args->locations[k]};
        const uint32_t index[4] = {SpvOpDecorate | 4u << 16, args->variable_ids[k], SpvDecorationIndex,
                args->indices ? args->indices[k] : 0};
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, location, 4);
        if (args->indices && args->indices[k] != UINT32_MAX)
            d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, index, 4);
    }
    /* The extensions go once nothing of theirs is left (a string decoration of another kind
     * keeps them: such a module was not D3DCompile's). */
    if (!other_google) {
        struct d3d12xs_spirv_list *extensions = &m->sections[D3D12XS_SPIRV_EXTENSIONS];
        for (size_t i = 0; i < extensions->count;) {
            if (is_semantic_extension(extensions->at[i]))
                d3d12xs_spirv_remove(m, D3D12XS_SPIRV_EXTENSIONS, i);
            else
                i++;
        }
    }
    return m->out_of_memory ? d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory") : S_OK;
}

HRESULT d3d12xs_spirv_pass_semantics(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_semantics_args *args,
        char *error, size_t error_size)
{
    const struct d3d12xs_spirv_inst *inst;
    bool added = false;

    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_GLOBALS, i, inst)) {
        const struct d3d12xs_spirv_semantic *found = NULL;
        uint32_t location, matches = 0, words[2 + 4 + 64 / 4 + 1] = {0};
        char semantic[80];
        size_t length;
        bool output, patch;
        if (d3d12xs_spirv_op(inst) != SpvOpVariable || d3d12xs_spirv_len(inst) < 4
                || (inst->w[3] != SpvStorageClassInput && inst->w[3] != SpvStorageClassOutput)
                || !d3d12xs_spirv_decoration(m, inst->w[2], SpvDecorationLocation, &location))
            continue;
        output = inst->w[3] == SpvStorageClassOutput;
        patch = d3d12xs_spirv_decoration(m, inst->w[2], SpvDecorationPatch, NULL);
        for (uint32_t k = 0; k < args->count; k++) {
            const struct d3d12xs_spirv_semantic *s = &args->semantics[k];
            if (s->output == output && s->patch == patch && s->reg + (patch ? args->patch_location_base : 0) == location && matches++ == 0)
                found = s;
        }
        if (matches != 1)
            continue;
        length = (size_t)snprintf(semantic, sizeof(semantic), "%s%u", found->name, found->index);
        if (length >= 64)
            continue;
        words[0] = SpvOpDecorateString | (uint32_t)(3 + (length + 4) / 4) << 16;
        words[1] = inst->w[2];
        words[2] = SpvDecorationUserSemantic;
        memcpy(&words[3], semantic, length);
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, words, 3 + (uint32_t)(length + 4) / 4);
        added = true;
    }
    if (added) {
        d3d12xs_spirv_add_extension(m, "SPV_GOOGLE_hlsl_functionality1");
        d3d12xs_spirv_add_extension(m, "SPV_GOOGLE_decorate_string");
    }
    return m->out_of_memory ? d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory") : S_OK;
}
