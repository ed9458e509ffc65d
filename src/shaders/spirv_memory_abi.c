/* SPIR-V for root signatures with FORCE_MEMORY_BASED_ABI: the push-constant block that
 * d3d12xs_spirv_remap() made of the root-constant cbuffers becomes a uniform buffer at a
 * given set and binding, with the same members at the same offsets. Only storage classes
 * change (pointer types and the variable); two decorations are added. The block keeps its
 * scalar layout, which the device's scalarBlockLayout allows for uniform buffers too. */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "shaders/spirv.h"

HRESULT d3d12xs_spirv_push_constants_to_memory(uint32_t **words, size_t *word_count, uint32_t set, uint32_t binding,
        char *error, size_t error_size)
{
    uint32_t *w = *words, *out, variable = 0;
    size_t count = *word_count, insert_at = 0, o;

    if (count < 5)
        return d3d12xs_spirv_error(E_INVALIDARG, error, error_size, "the module is shorter than its header");
    for (o = 5; o < count; o += w[o] >> 16) {
        uint32_t op = w[o] & 0xffff, n = w[o] >> 16;
        if (!n || o + n > count)
            return d3d12xs_spirv_error(E_INVALIDARG, error, error_size, "instruction at word %zu runs past the module", o);
        if (op == SpvOpFunction)
            break;
        if (!insert_at && !d3d12xs_spirv_is_preamble_or_debug(op))
            insert_at = o;
        if (op == SpvOpVariable && n >= 4 && w[o + 3] == SpvStorageClassPushConstant) {
            if (variable)
                return d3d12xs_spirv_error(E_INVALIDARG, error, error_size, "the module has two push-constant variables");
            variable = w[o + 2];
        }
    }
    if (!variable)
        return S_OK;
    if (!insert_at)
        return d3d12xs_spirv_error(E_INVALIDARG, error, error_size, "the module has no annotation or type section");

    if (!(out = malloc((count + 8) * sizeof(*out))))
        return E_OUTOFMEMORY;
    memcpy(out, w, insert_at * sizeof(*out));
    {
        uint32_t decorations[8] = {(4u << 16) | SpvOpDecorate, variable, SpvDecorationDescriptorSet, set,
                (4u << 16) | SpvOpDecorate, variable, SpvDecorationBinding, binding};
        memcpy(out + insert_at, decorations, sizeof(decorations));
    }
    memcpy(out + insert_at + 8, w + insert_at, (count - insert_at) * sizeof(*out));
    for (o = 5; o < count + 8; o += out[o] >> 16) {
        uint32_t op = out[o] & 0xffff, n = out[o] >> 16;
        if (op == SpvOpCapability && n == 2) {
            /* 8- and 16-bit members: the uniform-buffer capabilities replace the push-constant ones */
            if (out[o + 1] == SpvCapabilityStoragePushConstant16)
                out[o + 1] = SpvCapabilityStorageUniform16;
            else if (out[o + 1] == SpvCapabilityStoragePushConstant8)
                out[o + 1] = SpvCapabilityUniformAndStorageBuffer8BitAccess;
        } else if (op == SpvOpTypePointer && n == 4 && out[o + 2] == SpvStorageClassPushConstant) {
            out[o + 2] = SpvStorageClassUniform;
        } else if (op == SpvOpVariable && n >= 4 && out[o + 3] == SpvStorageClassPushConstant) {
            out[o + 3] = SpvStorageClassUniform;
        } else if (op == SpvOpFunction) {
            break;
        }
    }
    free(w);
    *words = out;
    *word_count = count + 8;
    return S_OK;
}
