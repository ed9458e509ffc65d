/* SNORM vertex inputs clamped to -1 (spirv_passes.h). A driver that divides the most negative
 * SNORM value by 2^(b-1) - 1 without clamping reads -32768 as -1.00003 and -128 as -1.0079; D3D12
 * (and Vulkan) read both as -1. Each load of a float scalar or vector from such an input (the
 * variable, or an access chain into it) keeps its result id for an FMax with -1 placed after it,
 * so every use sees the clamped value; the load itself gets a new id. */
#include <string.h>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

#include "common/util.h"
#include "spirv/spirv_passes.h"

#define MAX_TRACKED 256

/* -1.0 of a 32-bit float scalar or vector type; 0 for any other type. */
static uint32_t minus_one(struct d3d12xs_spirv_module *m, uint32_t type)
{
    const struct d3d12xs_spirv_inst *def = d3d12xs_spirv_def(m, type), *component;
    uint32_t words[3 + 4] = {0}, scalar, count;

    if (!def)
        return 0;
    if (d3d12xs_spirv_op(def) == SpvOpTypeFloat && d3d12xs_spirv_len(def) >= 3 && def->w[2] == 32)
        return d3d12xs_spirv_constant(m, type, 0xbf800000u);
    if (d3d12xs_spirv_op(def) != SpvOpTypeVector || d3d12xs_spirv_len(def) < 4 || def->w[3] > 4
            || !(component = d3d12xs_spirv_def_op(m, def->w[2], SpvOpTypeFloat, 3)) || component->w[2] != 32)
        return 0;
    scalar = d3d12xs_spirv_constant(m, def->w[2], 0xbf800000u);
    count = def->w[3];
    words[0] = SpvOpConstantComposite | (3 + count) << 16;
    words[1] = type;
    for (uint32_t k = 0; k < count; k++)
        words[3 + k] = scalar;
    return d3d12xs_spirv_global(m, words, 3 + count, 2);
}

static bool is_tracked(const uint32_t *tracked, uint32_t count, uint32_t id)
{
    for (uint32_t k = 0; k < count; k++)
        if (tracked[k] == id)
            return true;
    return false;
}

HRESULT d3d12xs_spirv_pass_snorm_inputs(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_snorm_inputs_args *args,
        char *error, size_t error_size)
{
    uint32_t tracked[MAX_TRACKED], count = 0, import = 0;
    const struct d3d12xs_spirv_inst *inst;

    if (!args->locations)
        return S_OK;
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_GLOBALS, i, inst)) {
        uint32_t location;
        if (d3d12xs_spirv_op(inst) == SpvOpVariable && d3d12xs_spirv_len(inst) >= 4 && inst->w[3] == SpvStorageClassInput
                && d3d12xs_spirv_decoration(m, inst->w[2], SpvDecorationLocation, &location) && location < 32
                && (args->locations & (1u << location)) && count < MAX_TRACKED)
            tracked[count++] = inst->w[2];
    }
    for (size_t i = 0; i < m->sections[D3D12XS_SPIRV_FUNCTIONS].count; i++) {
        struct d3d12xs_spirv_inst *load = m->sections[D3D12XS_SPIRV_FUNCTIONS].at[i];
        uint32_t op = d3d12xs_spirv_op(load), constant, loaded;
        if (load->removed)
            continue;
        if ((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain) && d3d12xs_spirv_len(load) >= 4
                && is_tracked(tracked, count, load->w[3])) {
            if (count == MAX_TRACKED)
                return d3d12xs_write_error(E_INVALIDARG, error, error_size, "more than %u access chains into SNORM inputs", MAX_TRACKED);
            tracked[count++] = load->w[2];
            continue;
        }
        if (op != SpvOpLoad || d3d12xs_spirv_len(load) < 4 || !is_tracked(tracked, count, load->w[3])
                || !(constant = minus_one(m, load->w[1])))
            continue;
        if (!import && !(import = d3d12xs_spirv_glsl_import(m)))
            break;
        if (!(loaded = d3d12xs_spirv_new_id(m)))
            break;
        {
            uint32_t result = load->w[2];
            uint32_t words[16];
            uint32_t n = d3d12xs_spirv_len(load);
            if (n > 16)
                continue;
            memcpy(words, load->w, n * 4);
            words[2] = loaded;
            if (!d3d12xs_spirv_rewrite(m, load, words, n))
                break;
            const uint32_t clamp[7] = {SpvOpExtInst | 7u << 16, words[1], result, import, GLSLstd450FMax, loaded, constant};
            d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, ++i, clamp, 7);
        }
    }
    return m->out_of_memory ? d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory") : S_OK;
}
