/* GatherCmp and GatherCmpRed/Green/Blue/Alpha without an offset argument (glslang 12, Debian
 * 12's): glslang's HLSL front end takes the compare value for a bias as well, and emits
 *     OpImageDrefGather %type %sampled %coord %dref Bias %dref
 * with the ImageGatherBiasLodAMD capability and SPV_AMD_texture_gather_bias_lod, which the
 * SPIR-V validator rejects (Bias needs an implicit-LOD opcode), so the shader did not compile.
 * D3D's form without an offset is a plain depth-compare gather: the Bias operand goes, and so
 * do the capability and extension once nothing else uses them. One fix for every texture type
 * (TextureCube(Array) has no offset form a source rewrite could add). */
#include <stdbool.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "frontends/hlslc/gather_compare.h"

static const char amd_gather_bias_extension[] = "SPV_AMD_texture_gather_bias_lod";

/* Whether an image-operand mask with Bias sits on a gather or a sample other than the ones fixed. */
static bool uses_bias(const uint32_t *inst, uint32_t length)
{
    uint32_t op = inst[0] & 0xffffu, mask_at;
    switch (op) {
    case SpvOpImageGather: case SpvOpImageDrefGather:
    case SpvOpImageSparseGather: case SpvOpImageSparseDrefGather:
        mask_at = 6;
        break;
    default:
        return false;
    }
    return length > mask_at && (inst[mask_at] & SpvImageOperandsBiasMask);
}

void hlslc_fix_gather_compare(uint32_t *words, size_t *word_count)
{
    size_t count = *word_count, out = 5;
    bool fixed = false, bias_left = false;

    /* the depth-compare gathers whose only operand is a Bias equal to their Dref */
    for (size_t i = 5; i < count;) {
        uint32_t length = words[i] >> 16;
        if (!length || i + length > count)
            return; /* not glslang's words: leave them to the validator */
        if ((words[i] & 0xffffu) == SpvOpImageDrefGather && length == 8 && words[i + 6] == SpvImageOperandsBiasMask
                && words[i + 7] == words[i + 5]) {
            words[i] = SpvOpImageDrefGather | 6u << 16;
            memmove(&words[out], &words[i], 6 * sizeof(*words));
            out += 6;
            fixed = true;
        } else {
            bias_left |= uses_bias(&words[i], length);
            memmove(&words[out], &words[i], length * sizeof(*words));
            out += length;
        }
        i += length;
    }
    count = out;
    if (fixed && !bias_left) {
        /* the capability and extension glslang added for the bias */
        out = 5;
        for (size_t i = 5; i < count;) {
            uint32_t op = words[i] & 0xffffu, length = words[i] >> 16;
            bool drop = (op == SpvOpCapability && length == 2 && words[i + 1] == SpvCapabilityImageGatherBiasLodAMD)
                    || (op == SpvOpExtension && (length - 1) * 4 >= sizeof(amd_gather_bias_extension)
                    && !memcmp(&words[i + 1], amd_gather_bias_extension, sizeof(amd_gather_bias_extension)));
            if (!drop) {
                memmove(&words[out], &words[i], length * sizeof(*words));
                out += length;
            }
            i += length;
        }
        count = out;
    }
    *word_count = count;
}
