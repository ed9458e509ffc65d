/* The last pass of D3DCompile over glslang's module: strips what SPV_GOOGLE_hlsl_functionality1
 * and its kin added (after using its CounterBuffer links to give UAV counters their binding
 * encoding, spirv.h) and adds the wave32 marker when asked. */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "shaders/spirv.h"
#include "shaders/spirv_passes.h"

static bool is_stripped_extension(const char *name)
{
    return !strcmp(name, "SPV_GOOGLE_hlsl_functionality1") || !strcmp(name, "SPV_GOOGLE_decorate_string")
            || !strcmp(name, "SPV_GOOGLE_user_type");
}

static bool is_google_decoration(uint32_t decoration)
{
    return decoration == SpvDecorationCounterBuffer || decoration == SpvDecorationUserSemantic
            || decoration == SpvDecorationUserTypeGOOGLE;
}

static bool is_stripped(const struct d3d12xs_spirv_inst *inst)
{
    uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst);
    const char *name;
    if (op == SpvOpExtension)
        return d3d12xs_spirv_inst_string(inst, 1, &name, NULL) && is_stripped_extension(name);
    if (op == SpvOpDecorateId || op == SpvOpDecorateString)
        return n >= 3 && is_google_decoration(inst->w[2]);
    return op == SpvOpMemberDecorateString && n >= 4 && is_google_decoration(inst->w[3]);
}

/* Gives each counter buffer the set of its UAV and the binding (UAV_COUNTER << 14) | register. */
static HRESULT bind_counters(struct d3d12xs_spirv_module *m, char *error, size_t error_size)
{
    const struct d3d12xs_spirv_inst *inst;
    uint32_t *counter_of, bound = m->bound; /* counter_of[counter variable] = UAV variable + 1 */
    HRESULT hr = S_OK;

    if (!(counter_of = calloc(bound, sizeof(*counter_of))))
        return d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory");
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ANNOTATIONS, i, inst))
        if (d3d12xs_spirv_op(inst) == SpvOpDecorateId && d3d12xs_spirv_len(inst) == 4 && inst->w[2] == SpvDecorationCounterBuffer
                && inst->w[1] < bound && inst->w[3] < bound)
            counter_of[inst->w[3]] = inst->w[1] + 1;
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ANNOTATIONS, i, inst)) {
        uint32_t *w = inst->w, uav, binding = 0, set = 0;
        if (d3d12xs_spirv_op(inst) != SpvOpDecorate || d3d12xs_spirv_len(inst) != 4 || w[1] >= bound || !counter_of[w[1]]
                || (w[2] != SpvDecorationDescriptorSet && w[2] != SpvDecorationBinding))
            continue;
        uav = counter_of[w[1]] - 1;
        d3d12xs_spirv_decoration(m, uav, SpvDecorationBinding, &binding);
        d3d12xs_spirv_decoration(m, uav, SpvDecorationDescriptorSet, &set);
        if (binding >> D3D12XS_BINDING_CLASS_SHIFT != D3D12XS_REGISTER_UAV) {
            hr = d3d12xs_write_error(E_FAIL, error, error_size, "the UAV (variable %u) of counter buffer %u has binding %u, "
                    "not a u register", uav, w[1], binding);
            break;
        }
        w[3] = w[2] == SpvDecorationDescriptorSet ? set
                : D3D12XS_ENCODE_BINDING(D3D12XS_REGISTER_UAV_COUNTER, binding & D3D12XS_BINDING_REGISTER_MASK);
    }
    free(counter_of);
    return hr;
}

HRESULT d3d12xs_spirv_pass_finish_hlsl(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_finish_hlsl_args *args,
        char *error, size_t error_size)
{
    static const enum d3d12xs_spirv_section sections[] = {D3D12XS_SPIRV_EXTENSIONS, D3D12XS_SPIRV_ANNOTATIONS};
    HRESULT hr;

    if (FAILED(hr = bind_counters(m, error, error_size)))
        return hr;
    for (size_t s = 0; s < sizeof(sections) / sizeof(sections[0]); s++) {
        for (size_t i = 0; i < m->sections[sections[s]].count;) {
            if (is_stripped(m->sections[sections[s]].at[i]))
                d3d12xs_spirv_remove(m, sections[s], i);
            else
                i++;
        }
    }
    if (args->wave32) {
        static const char marker[] = D3D12XS_SPIRV_WAVE32_MARKER;
        uint32_t words[1 + (sizeof(marker) + 3) / 4] = {SpvOpModuleProcessed};
        memcpy(&words[1], marker, sizeof(marker));
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_DEBUG, words, sizeof(words) / 4);
    }
    return m->out_of_memory ? d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory") : S_OK;
}
