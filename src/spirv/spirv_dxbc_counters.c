/* UAV counters of DXBC shaders (spirv_passes.h). libvkd3d-shader 1.2 declares counter k as a
 * storage texel buffer (R32ui) at the binding it was given, (D3D12XS_DXBC_COUNTER_SET, k), and
 * reaches it as OpImageTexelPointer at texel 0 followed by OpAtomicIIncrement (alloc: the value
 * before) or OpAtomicIDecrement and a subtraction (consume: the value after). d3d12xs's counters
 * are storage buffers of one uint (a heap's counter slot, docs/descriptors.md), which is what
 * glslang declares for an HLSL counter; so the variable gets that type, each texel pointer
 * becomes an access chain to the uint (the atomics keep their pointer), and the counter is
 * linked to its UAV as glslang links them (CounterBuffer) for d3d12xs_spirv_bind_counters, the
 * one place where counters of both languages get their binding. The link goes after (a
 * SPIR-V 1.0 module has no OpDecorateId). */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "spirv/spirv_passes.h"
#include "common/util.h"

static HRESULT fail(char *error, size_t error_size, const char *fmt, uint32_t a, uint32_t b)
{
    return d3d12xs_write_error(E_FAIL, error, error_size, fmt, a, b);
}

/* The variable with this set and binding, or 0. */
static uint32_t variable_at(const struct d3d12xs_spirv_module *m, uint32_t set, uint32_t binding)
{
    struct d3d12xs_spirv_inst *inst;
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_GLOBALS, i, inst)) {
        uint32_t s, b;
        if (d3d12xs_spirv_op(inst) == SpvOpVariable && d3d12xs_spirv_len(inst) >= 4
                && d3d12xs_spirv_decoration(m, inst->w[2], SpvDecorationDescriptorSet, &s) && s == set
                && d3d12xs_spirv_decoration(m, inst->w[2], SpvDecorationBinding, &b) && b == binding)
            return inst->w[2];
    }
    return 0;
}

/* The counter variable becomes a Uniform BufferBlock { uint } (the SPIR-V 1.0 form of a
 * storage buffer, as spirv_raw_views.c makes its views). */
static HRESULT convert_variable(struct d3d12xs_spirv_module *m, uint32_t id, uint32_t uint_type)
{
    struct d3d12xs_spirv_inst *variable = d3d12xs_spirv_def_op(m, id, SpvOpVariable, 4);
    uint32_t block = d3d12xs_spirv_new_id(m), words[5];
    struct d3d12xs_spirv_list *annotations = &m->sections[D3D12XS_SPIRV_ANNOTATIONS];

    if (!variable || !block)
        return E_OUTOFMEMORY;
    words[0] = SpvOpTypeStruct | 3u << 16, words[1] = block, words[2] = uint_type;
    d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, words, 3);
    words[0] = SpvOpDecorate | 3u << 16, words[1] = block, words[2] = SpvDecorationBufferBlock;
    d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, words, 3);
    words[0] = SpvOpMemberDecorate | 5u << 16, words[1] = block, words[2] = 0, words[3] = SpvDecorationOffset, words[4] = 0;
    d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, words, 5);
    /* image-only decorations go */
    for (size_t i = annotations->count; i-- > 0;) {
        const struct d3d12xs_spirv_inst *inst = annotations->at[i];
        if (d3d12xs_spirv_op(inst) == SpvOpDecorate && d3d12xs_spirv_len(inst) >= 3 && inst->w[1] == id
                && (inst->w[2] == SpvDecorationNonReadable || inst->w[2] == SpvDecorationNonWritable))
            d3d12xs_spirv_remove(m, D3D12XS_SPIRV_ANNOTATIONS, i);
    }
    /* the variable moves after its new type */
    words[0] = SpvOpVariable | 4u << 16;
    words[1] = d3d12xs_spirv_type_pointer(m, SpvStorageClassUniform, block);
    words[2] = id;
    words[3] = SpvStorageClassUniform;
    d3d12xs_spirv_remove(m, D3D12XS_SPIRV_GLOBALS, d3d12xs_spirv_index_of(m, variable));
    return d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, words, 4) ? S_OK : E_OUTOFMEMORY;
}

HRESULT d3d12xs_spirv_pass_dxbc_counters(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_dxbc_counters_args *args,
        char *error, size_t error_size)
{
    struct d3d12xs_spirv_list *functions = &m->sections[D3D12XS_SPIRV_FUNCTIONS];
    uint32_t *counters, uint_type, zero, uint_pointer;
    HRESULT hr = S_OK;

    if (!args->count)
        return S_OK;
    if (!(counters = calloc(args->count, sizeof(*counters))))
        return d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory");
    uint_type = d3d12xs_spirv_type_int(m, 32, 0);
    zero = d3d12xs_spirv_constant_u32(m, 0);
    uint_pointer = d3d12xs_spirv_type_pointer(m, SpvStorageClassUniform, uint_type);
    for (uint32_t k = 0; k < args->count && SUCCEEDED(hr); k++) {
        uint32_t uav = variable_at(m, args->counters[k].uav_set, args->counters[k].uav_binding), link[4];
        /* a counter the shader never uses is not declared */
        if (!(counters[k] = variable_at(m, D3D12XS_DXBC_COUNTER_SET, k)))
            continue;
        if (!uav) {
            hr = fail(error, error_size, "UAV counter %u (variable %u) has no UAV variable", k, counters[k]);
            break;
        }
        hr = convert_variable(m, counters[k], uint_type);
        link[0] = SpvOpDecorateId | 4u << 16, link[1] = uav, link[2] = SpvDecorationCounterBuffer, link[3] = counters[k];
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, link, 4);
    }
    /* texel pointers of a counter: access chains to its uint */
    for (size_t i = 0; i < functions->count && SUCCEEDED(hr); i++) {
        struct d3d12xs_spirv_inst *inst = functions->at[i];
        uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst);
        for (uint32_t k = 0; k < args->count; k++) {
            if (!counters[k] || n < 4 || inst->w[3] != counters[k] || (op != SpvOpImageTexelPointer && op != SpvOpLoad))
                continue;
            if (op == SpvOpLoad) {
                hr = fail(error, error_size, "UAV counter %u (variable %u) is loaded as an image", k, counters[k]);
                break;
            }
            {
                uint32_t chain[5] = {SpvOpAccessChain, uint_pointer, inst->w[2], counters[k], zero};
                if (!d3d12xs_spirv_rewrite(m, inst, chain, 5))
                    hr = E_OUTOFMEMORY;
            }
        }
    }
    if (SUCCEEDED(hr) && m->out_of_memory)
        hr = E_OUTOFMEMORY;
    if (SUCCEEDED(hr))
        hr = d3d12xs_spirv_bind_counters(m, error, error_size);
    /* the links go: bind_counters has used them */
    if (SUCCEEDED(hr)) {
        struct d3d12xs_spirv_list *annotations = &m->sections[D3D12XS_SPIRV_ANNOTATIONS];
        for (size_t i = annotations->count; i-- > 0;)
            if (d3d12xs_spirv_op(annotations->at[i]) == SpvOpDecorateId && d3d12xs_spirv_len(annotations->at[i]) >= 3
                    && annotations->at[i]->w[2] == SpvDecorationCounterBuffer)
                d3d12xs_spirv_remove(m, D3D12XS_SPIRV_ANNOTATIONS, i);
    }
    if (hr == E_OUTOFMEMORY)
        d3d12xs_write_error(hr, error, error_size, "out of memory");
    free(counters);
    return hr;
}
