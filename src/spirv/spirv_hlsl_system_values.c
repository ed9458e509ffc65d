/* D3DCompile's pass for the system values whose D3D meaning differs from the Vulkan built-in
 * glslang maps them to:
 *  - SV_VertexID and SV_InstanceID count from 0: D3D12 does not add StartVertexLocation /
 *    BaseVertexLocation or StartInstanceLocation, Vulkan's VertexIndex and InstanceIndex include
 *    the draw's first vertex (vertex offset) and first instance. Each load subtracts BaseVertex or
 *    BaseInstance (DrawParameters, core in SPIR-V 1.3; the device's shaderDrawParameters).
 *  - SV_Position in a pixel shader holds w, Vulkan's FragCoord 1/w: each load gets 1/FragCoord.w
 *    back in its w (a load of the w component alone, through an access chain, likewise).
 *  - SV_ViewID (view instancing), which glslang's HLSL front end does not know and declares as an
 *    input of that user semantic at a Location: it becomes the ViewIndex built-in (MultiView),
 *    which is 0 outside view instancing, as D3D's is.
 *  - SV_Coverage, which glslang drops as an input, comes as the user semantic
 *    D3D12XS_COVERAGE_SEMANTIC (frontends/hlsl_rewrite.c) on a uint input or output: it becomes
 *    the SampleMask built-in, an array of one uint in Vulkan, whose element 0 each load and
 *    store reaches. Without a Location it links with no stage (spirv_stage_io.c).
 * The blob then means what the HLSL meant, whatever pipeline it goes into. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <spirv/unified1/spirv.h>

#include "spirv/spirv_passes.h"

/* A new Input variable decorated BuiltIn builtin, of pointer type pointer_type, in the entry
 * points' interfaces: its id (0 when out of memory). */
static uint32_t add_builtin_input(struct d3d12xs_spirv_module *m, uint32_t pointer_type, uint32_t builtin)
{
    uint32_t id = d3d12xs_spirv_new_id(m);
    const uint32_t variable[4] = {SpvOpVariable | 4u << 16, pointer_type, id, SpvStorageClassInput};
    const uint32_t decoration[4] = {SpvOpDecorate | 4u << 16, id, SpvDecorationBuiltIn, builtin};
    struct d3d12xs_spirv_inst *inst;

    if (!id || !d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, variable, 4) || !d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, decoration, 4))
        return 0;
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ENTRY_POINTS, i, inst))
        d3d12xs_spirv_append_operand(m, inst, id);
    return id;
}

/* The variable decorated BuiltIn builtin with storage class Input, or 0. */
static uint32_t find_builtin_input(const struct d3d12xs_spirv_module *m, uint32_t builtin)
{
    const struct d3d12xs_spirv_inst *inst, *variable;
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ANNOTATIONS, i, inst))
        if (d3d12xs_spirv_op(inst) == SpvOpDecorate && d3d12xs_spirv_len(inst) == 4 && inst->w[2] == SpvDecorationBuiltIn
                && inst->w[3] == builtin && (variable = d3d12xs_spirv_def_op(m, inst->w[1], SpvOpVariable, 4))
                && variable->w[3] == SpvStorageClassInput)
            return inst->w[1];
    return 0;
}

/* Every load of index_variable (VertexIndex or InstanceIndex) becomes that value minus the
 * draw's base (base_builtin); how many loads changed. */
static unsigned subtract_base(struct d3d12xs_spirv_module *m, uint32_t index_variable, uint32_t base_builtin)
{
    struct d3d12xs_spirv_list *functions = &m->sections[D3D12XS_SPIRV_FUNCTIONS];
    const struct d3d12xs_spirv_inst *variable = d3d12xs_spirv_def(m, index_variable);
    uint32_t base_variable = 0;
    unsigned count = 0;

    for (size_t i = 0; i < functions->count; i++) {
        struct d3d12xs_spirv_inst *inst = functions->at[i];
        uint32_t loaded, base, type, result;
        if (d3d12xs_spirv_op(inst) != SpvOpLoad || d3d12xs_spirv_len(inst) < 4 || inst->w[3] != index_variable)
            continue;
        if (!base_variable && !(base_variable = add_builtin_input(m, variable->w[1], base_builtin)))
            return count;
        type = inst->w[1];
        result = inst->w[2];
        if (!(loaded = d3d12xs_spirv_new_id(m)) || !(base = d3d12xs_spirv_new_id(m)))
            return count;
        {
            const uint32_t load_index[4] = {SpvOpLoad | 4u << 16, type, loaded, index_variable};
            const uint32_t load_base[4] = {SpvOpLoad | 4u << 16, type, base, base_variable};
            const uint32_t subtract[5] = {SpvOpISub | 5u << 16, type, result, loaded, base};
            /* the original load becomes the subtraction, after the two loads it needs */
            if (!d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, i, load_index, 4)
                    || !d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, i + 1, load_base, 4)
                    || !d3d12xs_spirv_rewrite(m, inst, subtract, 5))
                return count;
            i += 2;
        }
        count++;
    }
    return count;
}

/* A float 1 / value of type float_type, inserted at *at in the functions (which moves past it). */
static uint32_t reciprocal(struct d3d12xs_spirv_module *m, size_t *at, uint32_t float_type, uint32_t value)
{
    const uint32_t one_bits = 0x3f800000u;
    uint32_t one = d3d12xs_spirv_constant(m, float_type, one_bits), result = d3d12xs_spirv_new_id(m);
    const uint32_t divide[5] = {SpvOpFDiv | 5u << 16, float_type, result, one, value};
    if (!one || !result || !d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, (*at)++, divide, 5))
        return 0;
    return result;
}

/* FragCoord.w as D3D's SV_Position.w: loads of the vector get 1 / w in w, loads of the w
 * component through an access chain with the constant index 3 get 1 / it. */
static unsigned invert_position_w(struct d3d12xs_spirv_module *m, uint32_t frag_coord)
{
    struct d3d12xs_spirv_list *functions = &m->sections[D3D12XS_SPIRV_FUNCTIONS];
    uint32_t *w_chains, chain_count = 0;
    unsigned count = 0;

    if (!(w_chains = calloc(functions->count + 1, sizeof(*w_chains)))) {
        m->out_of_memory = true;
        return 0;
    }
    for (size_t i = 0; i < functions->count; i++) {
        const struct d3d12xs_spirv_inst *inst = functions->at[i];
        uint32_t index;
        if ((d3d12xs_spirv_op(inst) == SpvOpAccessChain || d3d12xs_spirv_op(inst) == SpvOpInBoundsAccessChain) && d3d12xs_spirv_len(inst) == 5
                && inst->w[3] == frag_coord && d3d12xs_spirv_int32_constant(m, inst->w[4], NULL, &index) && index == 3)
            w_chains[chain_count++] = inst->w[2];
    }
    for (size_t i = 0; i < functions->count; i++) {
        struct d3d12xs_spirv_inst *inst = functions->at[i];
        const struct d3d12xs_spirv_inst *vector_type;
        uint32_t type, result, loaded, inverse;
        bool chain = false;
        if (d3d12xs_spirv_op(inst) != SpvOpLoad || d3d12xs_spirv_len(inst) < 4)
            continue;
        for (uint32_t k = 0; k < chain_count && !chain; k++)
            chain = inst->w[3] == w_chains[k];
        if (inst->w[3] != frag_coord && !chain)
            continue;
        type = inst->w[1];
        result = inst->w[2];
        if (!(loaded = d3d12xs_spirv_new_id(m)))
            break;
        {
            const uint32_t load[4] = {SpvOpLoad | 4u << 16, type, loaded, inst->w[3]};
            size_t at = i;
            if (!d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, at++, load, 4))
                break;
            if (chain) {
                /* the component itself: the load becomes 1 / it */
                if (!(inverse = reciprocal(m, &at, type, loaded)))
                    break;
                const uint32_t copy[4] = {SpvOpCopyObject | 4u << 16, type, result, inverse};
                d3d12xs_spirv_rewrite(m, inst, copy, 4);
            } else {
                uint32_t w_value = d3d12xs_spirv_new_id(m);
                if (!w_value || !(vector_type = d3d12xs_spirv_def_op(m, type, SpvOpTypeVector, 4)))
                    break;
                const uint32_t extract[5] = {SpvOpCompositeExtract | 5u << 16, vector_type->w[2], w_value, loaded, 3};
                if (!d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, at++, extract, 5)
                        || !(inverse = reciprocal(m, &at, vector_type->w[2], w_value)))
                    break;
                const uint32_t insert[6] = {SpvOpCompositeInsert | 6u << 16, type, result, inverse, loaded, 3};
                d3d12xs_spirv_rewrite(m, inst, insert, 6);
            }
            i = at;
        }
        count++;
    }
    free(w_chains);
    return count;
}

/* An Input variable with the user semantic SV_ViewID (index 0, any case), or 0. */
static uint32_t find_view_id_input(const struct d3d12xs_spirv_module *m)
{
    const struct d3d12xs_spirv_inst *inst, *variable;
    const char *semantic;

    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ANNOTATIONS, i, inst))
        if (d3d12xs_spirv_op(inst) == SpvOpDecorateString && d3d12xs_spirv_len(inst) >= 4 && inst->w[2] == SpvDecorationUserSemantic
                && d3d12xs_spirv_inst_string(inst, 3, &semantic, NULL)
                && (!strcasecmp(semantic, "SV_ViewID") || !strcasecmp(semantic, "SV_ViewID0"))
                && (variable = d3d12xs_spirv_def_op(m, inst->w[1], SpvOpVariable, 4)) && variable->w[3] == SpvStorageClassInput)
            return inst->w[1];
    return 0;
}

/* SV_ViewID's input as the ViewIndex built-in: its Location, Component and semantic go, a
 * BuiltIn decoration comes (Flat stays: a pixel shader's integer inputs need it, built-ins too);
 * only a 32-bit integer scalar (ViewIndex's type). How many changed. */
static unsigned view_id_as_view_index(struct d3d12xs_spirv_module *m, uint32_t variable)
{
    const struct d3d12xs_spirv_inst *pointer = d3d12xs_spirv_def_op(m, d3d12xs_spirv_def(m, variable)->w[1], SpvOpTypePointer, 4);
    const struct d3d12xs_spirv_inst *type = pointer ? d3d12xs_spirv_def_op(m, pointer->w[3], SpvOpTypeInt, 4) : NULL;
    struct d3d12xs_spirv_list *annotations = &m->sections[D3D12XS_SPIRV_ANNOTATIONS];
    const uint32_t builtin[4] = {SpvOpDecorate | 4u << 16, variable, SpvDecorationBuiltIn, SpvBuiltInViewIndex};

    if (!type || type->w[2] != 32)
        return 0;
    for (size_t i = annotations->count; i-- > 0;) {
        const struct d3d12xs_spirv_inst *inst = annotations->at[i];
        uint32_t op = d3d12xs_spirv_op(inst);
        if (d3d12xs_spirv_len(inst) >= 3 && inst->w[1] == variable && ((op == SpvOpDecorate && (inst->w[2] == SpvDecorationLocation
                || inst->w[2] == SpvDecorationComponent))
                || (op == SpvOpDecorateString && inst->w[2] == SpvDecorationUserSemantic)))
            d3d12xs_spirv_remove(m, D3D12XS_SPIRV_ANNOTATIONS, i);
    }
    if (!d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, builtin, 4))
        return 0;
    d3d12xs_spirv_add_capability(m, SpvCapabilityMultiView);
    d3d12xs_spirv_add_extension(m, "SPV_KHR_multiview");
    return 1;
}

/* Whether inst gives its target the semantic of SV_Coverage. */
static bool is_coverage_semantic(const struct d3d12xs_spirv_inst *inst)
{
    const char *semantic;
    return d3d12xs_spirv_op(inst) == SpvOpDecorateString && d3d12xs_spirv_len(inst) >= 4 && inst->w[2] == SpvDecorationUserSemantic
            && d3d12xs_spirv_inst_string(inst, 3, &semantic, NULL) && !strcasecmp(semantic, D3D12XS_COVERAGE_SEMANTIC);
}

/* Each load and store of variable (now an array of one) reaches element 0 through an access
 * chain of type element_pointer; E_FAIL for another use, which glslang's entry-point variables
 * do not have. */
static HRESULT reach_element_zero(struct d3d12xs_spirv_module *m, uint32_t variable, uint32_t element_pointer, char *error,
        size_t error_size)
{
    struct d3d12xs_spirv_list *functions = &m->sections[D3D12XS_SPIRV_FUNCTIONS];
    uint32_t zero = d3d12xs_spirv_constant_u32(m, 0);

    for (size_t i = 0; i < functions->count && zero; i++) {
        struct d3d12xs_spirv_inst *inst = functions->at[i];
        uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst), pointer_operand = 0, chain;
        if (op == SpvOpLoad && n >= 4 && inst->w[3] == variable)
            pointer_operand = 3;
        else if (op == SpvOpStore && n >= 3 && inst->w[1] == variable)
            pointer_operand = 1;
        else if (((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain || op == SpvOpPtrAccessChain || op == SpvOpCopyObject)
                        && n >= 4 && inst->w[3] == variable)
                || (op == SpvOpCopyMemory && n >= 3 && (inst->w[1] == variable || inst->w[2] == variable)))
            return d3d12xs_write_error(E_FAIL, error, error_size, "SV_Coverage (variable %u) is used by opcode %u, which only "
                    "loads and stores of it can be", variable, op);
        else if (op == SpvOpFunctionCall)
            for (uint32_t k = 4; k < n; k++)
                if (inst->w[k] == variable)
                    return d3d12xs_write_error(E_FAIL, error, error_size, "SV_Coverage (variable %u) is passed to a function, "
                            "which only loads and stores of it can be", variable);
        if (!pointer_operand)
            continue;
        if (!(chain = d3d12xs_spirv_new_id(m)))
            break;
        {
            const uint32_t access[5] = {SpvOpAccessChain | 5u << 16, element_pointer, chain, variable, zero};
            if (!d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, i, access, 5))
                break;
        }
        /* inst moved to i + 1 */
        inst->w[pointer_operand] = chain;
        i++;
    }
    return m->out_of_memory || !zero ? d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory") : S_OK;
}

/* SV_Coverage's variable as the SampleMask built-in: an array of one of its 32-bit integer, in
 * place of the integer (the same id, declared again after its new type), its Location, Component
 * and semantic gone (Flat stays on the input: Vulkan wants it on a pixel shader's integer
 * inputs, built-ins too). */
static HRESULT coverage_as_sample_mask(struct d3d12xs_spirv_module *m, uint32_t variable, char *error, size_t error_size)
{
    struct d3d12xs_spirv_list *annotations = &m->sections[D3D12XS_SPIRV_ANNOTATIONS];
    const struct d3d12xs_spirv_inst *declaration = d3d12xs_spirv_def(m, variable);
    const struct d3d12xs_spirv_inst *pointer = d3d12xs_spirv_def_op(m, declaration->w[1], SpvOpTypePointer, 4);
    const struct d3d12xs_spirv_inst *type = pointer ? d3d12xs_spirv_def_op(m, pointer->w[3], SpvOpTypeInt, 4) : NULL;
    uint32_t storage = declaration->w[3], element, length, array, array_pointer, element_pointer;

    if (!type || type->w[2] != 32)
        return d3d12xs_write_error(E_FAIL, error, error_size, "SV_Coverage (variable %u) is not a uint: the sample coverage is "
                "a 32-bit integer", variable);
    if (d3d12xs_spirv_len(declaration) != 4)
        return d3d12xs_write_error(E_FAIL, error, error_size, "SV_Coverage (variable %u) has an initialiser", variable);
    element = pointer->w[3];
    /* a new array type, never one a buffer's layout decorated */
    if (!(length = d3d12xs_spirv_constant_u32(m, 1)) || !(array = d3d12xs_spirv_new_id(m)))
        return d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory");
    {
        const uint32_t array_type[4] = {SpvOpTypeArray | 4u << 16, array, element, length};
        if (!d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, array_type, 4)
                || !(array_pointer = d3d12xs_spirv_type_pointer(m, storage, array))
                || !(element_pointer = d3d12xs_spirv_type_pointer(m, storage, element)))
            return d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory");
    }
    {
        const uint32_t array_variable[4] = {SpvOpVariable | 4u << 16, array_pointer, variable, storage};
        const uint32_t builtin[4] = {SpvOpDecorate | 4u << 16, variable, SpvDecorationBuiltIn, SpvBuiltInSampleMask};
        d3d12xs_spirv_remove(m, D3D12XS_SPIRV_GLOBALS, d3d12xs_spirv_index_of(m, declaration));
        if (!d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, array_variable, 4))
            return d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory");
        for (size_t i = annotations->count; i-- > 0;) {
            const struct d3d12xs_spirv_inst *inst = annotations->at[i];
            if ((d3d12xs_spirv_op(inst) == SpvOpDecorate && d3d12xs_spirv_len(inst) >= 3 && inst->w[1] == variable
                        && (inst->w[2] == SpvDecorationLocation || inst->w[2] == SpvDecorationComponent))
                    || (is_coverage_semantic(inst) && inst->w[1] == variable))
                d3d12xs_spirv_remove(m, D3D12XS_SPIRV_ANNOTATIONS, i);
        }
        if (!d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, builtin, 4))
            return d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory");
    }
    return reach_element_zero(m, variable, element_pointer, error, error_size);
}

/* Every SV_Coverage variable (one input, one output at most) of a pixel shader as SampleMask;
 * *count grows by how many. */
static HRESULT coverage_variables(struct d3d12xs_spirv_module *m, uint32_t model, unsigned *count, char *error, size_t error_size)
{
    uint32_t variables[2] = {0, 0}; /* input, output */
    const struct d3d12xs_spirv_inst *inst, *variable;
    HRESULT hr;

    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ANNOTATIONS, i, inst)) {
        uint32_t *slot;
        if (!is_coverage_semantic(inst) || !(variable = d3d12xs_spirv_def_op(m, inst->w[1], SpvOpVariable, 4))
                || (variable->w[3] != SpvStorageClassInput && variable->w[3] != SpvStorageClassOutput))
            continue;
        if (model != SpvExecutionModelFragment)
            return d3d12xs_write_error(E_FAIL, error, error_size, "SV_Coverage is a pixel shader's system value");
        slot = &variables[variable->w[3] == SpvStorageClassOutput];
        if (*slot && *slot != inst->w[1])
            return d3d12xs_write_error(E_FAIL, error, error_size, "SV_Coverage is declared twice as %s",
                    slot == variables ? "an input" : "an output");
        *slot = inst->w[1];
    }
    for (unsigned k = 0; k < 2; k++) {
        if (!variables[k])
            continue;
        if (FAILED(hr = coverage_as_sample_mask(m, variables[k], error, error_size)))
            return hr;
        (*count)++;
    }
    return S_OK;
}

HRESULT d3d12xs_spirv_pass_system_values(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_system_values_args *args,
        char *error, size_t error_size)
{
    const struct d3d12xs_spirv_inst *entry = m->sections[D3D12XS_SPIRV_ENTRY_POINTS].count
            ? m->sections[D3D12XS_SPIRV_ENTRY_POINTS].at[0] : NULL;
    unsigned count = 0;
    uint32_t variable;
    HRESULT hr;

    if (!entry || d3d12xs_spirv_len(entry) < 3)
        return S_OK;
    if (entry->w[1] == SpvExecutionModelVertex) {
        unsigned fixed = 0;
        if ((variable = find_builtin_input(m, SpvBuiltInVertexIndex)))
            fixed += subtract_base(m, variable, SpvBuiltInBaseVertex);
        if ((variable = find_builtin_input(m, SpvBuiltInInstanceIndex)))
            fixed += subtract_base(m, variable, SpvBuiltInBaseInstance);
        if (fixed)
            d3d12xs_spirv_add_capability(m, SpvCapabilityDrawParameters);
        count += fixed;
    } else if (entry->w[1] == SpvExecutionModelFragment && (variable = find_builtin_input(m, SpvBuiltInFragCoord))) {
        count += invert_position_w(m, variable);
    }
    if (entry->w[1] != SpvExecutionModelGLCompute && (variable = find_view_id_input(m)))
        count += view_id_as_view_index(m, variable);
    if (FAILED(hr = coverage_variables(m, entry->w[1], &count, error, error_size)))
        return hr;
    if (args && args->fixed)
        *args->fixed = count;
    return m->out_of_memory ? d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory") : S_OK;
}
