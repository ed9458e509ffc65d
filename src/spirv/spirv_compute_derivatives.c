/* Compute shaders with derivatives (shader model 6.6; D3DCompile gives them a derivative group,
 * src/frontends/hlslc/glslang_hook.cpp), at pipeline creation where the device is known: a
 * module whose group the device cannot run is refused with the reason. Modules name the NV
 * SPIR-V extension, which SPIRV-Tools and validation layers before 2024 know; where only
 * VK_KHR_compute_shader_derivatives is enabled, the words handed to the driver name the KHR
 * one (same capabilities and modes, same numbers). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "spirv/spirv.h"
#include "spirv/spirv_passes.h"

/* SPIR-V 1.6 headers name these ...KHR; the NV names are what Debian 12's spirv.h has */
#define CAPABILITY_DERIVATIVE_GROUP_QUADS 5288u
#define CAPABILITY_DERIVATIVE_GROUP_LINEAR 5350u

static const char nv_extension[] = "SPV_NV_compute_shader_derivatives";
static const char khr_extension[] = "SPV_KHR_compute_shader_derivatives";

HRESULT d3d12xs_spirv_pass_compute_derivatives(struct d3d12xs_spirv_module *m,
        const struct d3d12xs_spirv_compute_derivatives_args *args, char *error, size_t error_size)
{
    bool quads = d3d12xs_spirv_has_capability(m, CAPABILITY_DERIVATIVE_GROUP_QUADS);
    bool linear = d3d12xs_spirv_has_capability(m, CAPABILITY_DERIVATIVE_GROUP_LINEAR);

    if (!quads && !linear)
        return S_OK;
    if ((quads && !args->quads) || (linear && !args->linear)) {
        snprintf(error, error_size, "the shader takes derivatives over %s (shader model 6.6 compute), which this device "
                "cannot: it lacks VK_KHR_compute_shader_derivatives' %s", quads ? "2x2 quads of threads"
                : "quads of 4 consecutive threads", quads ? "computeDerivativeGroupQuads" : "computeDerivativeGroupLinear");
        return E_INVALIDARG;
    }
    return S_OK;
}

/* The extension's name among the module's first instructions (capabilities, then extensions). */
static size_t nv_extension_at(const uint32_t *words, size_t word_count)
{
    for (size_t i = 5; i < word_count;) {
        uint32_t op = words[i] & 0xffffu, length = words[i] >> 16;
        if (!length || i + length > word_count || (op != SpvOpCapability && op != SpvOpExtension))
            return 0;
        if (op == SpvOpExtension && length == 1 + (sizeof(nv_extension) + 3) / 4
                && !memcmp(&words[i + 1], nv_extension, sizeof(nv_extension)))
            return i;
        i += length;
    }
    return 0;
}

uint32_t *d3d12xs_spirv_words_for_device(const uint32_t *words, size_t word_count, bool khr_compute_derivatives)
{
    size_t at = khr_compute_derivatives ? nv_extension_at(words, word_count) : 0;
    uint32_t *copy;

    /* both names take 9 words: the KHR one replaces the NV one in place */
    _Static_assert((sizeof(nv_extension) + 3) / 4 == (sizeof(khr_extension) + 3) / 4, "same length in words");
    if (!at || !(copy = malloc(word_count * sizeof(*copy))))
        return NULL;
    memcpy(copy, words, word_count * sizeof(*copy));
    memset(&copy[at + 1], 0, (sizeof(khr_extension) + 3) / 4 * 4);
    memcpy(&copy[at + 1], khr_extension, sizeof(khr_extension));
    return copy;
}
