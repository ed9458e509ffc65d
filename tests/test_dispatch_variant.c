/* The coherent variant of DispatchX's DISABLE_VOLATILE_*_L1 flags (src/spirv/spirv_dispatch_variant.c):
 * every UAV (storage buffer) variable of the module is decorated Coherent, including the ones
 * glslang left incoherent, and the result is valid SPIR-V. lavapipe has no caches to show the
 * difference at run time (tests/test_dispatchx.c runs the flags), so this looks at the words. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include <d3dcompiler.h>

#include "harness.h"
#include "spirv/spirv.h"

static const char source[] =
    "RWByteAddressBuffer raw : register(u0);\n"
    "RWStructuredBuffer<float> structured : register(u1);\n"
    "globallycoherent RWStructuredBuffer<uint2> flags : register(u2);\n"
    "[numthreads(8, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID)\n"
    "{\n"
    "    structured[id.x] = asfloat(raw.Load(id.x * 4));\n"
    "    flags[id.x] = uint2(id.x, 1);\n"
    "}\n";

struct coherence {
    unsigned buffers;  /* storage buffer variables (UAVs) */
    unsigned coherent; /* of those: Coherent on the variable, or on a member of its block */
};

/* Storage buffers as glslang declares them (Uniform + BufferBlock, or StorageBuffer), and
 * whether each is Coherent through its variable or its block type's members. */
static struct coherence count_coherence(const uint32_t *w, size_t count)
{
    uint32_t bound = w[3];
    uint8_t *buffer_block = calloc(bound, 1), *coherent_id = calloc(bound, 1);
    uint32_t *pointee = calloc(bound, sizeof(uint32_t)), *pointer_class = calloc(bound, sizeof(uint32_t));
    struct coherence c = {0, 0};

    if (!buffer_block || !coherent_id || !pointee || !pointer_class) {
        CHECK_MSG(false, "out of memory");
        goto done;
    }
    for (size_t o = 5; o < count && (w[o] >> 16); o += w[o] >> 16) {
        uint32_t op = w[o] & 0xffff, n = w[o] >> 16;
        if (op == SpvOpDecorate && n >= 3 && w[o + 1] < bound) {
            if (w[o + 2] == SpvDecorationBufferBlock)
                buffer_block[w[o + 1]] = 1;
            if (w[o + 2] == SpvDecorationCoherent)
                coherent_id[w[o + 1]] = 1;
        }
        if (op == SpvOpMemberDecorate && n >= 4 && w[o + 3] == SpvDecorationCoherent && w[o + 1] < bound)
            coherent_id[w[o + 1]] = 1; /* the block type: its member is coherent */
        if (op == SpvOpTypePointer && n >= 4 && w[o + 1] < bound) {
            pointer_class[w[o + 1]] = w[o + 2];
            pointee[w[o + 1]] = w[o + 3];
        }
        if (op == SpvOpVariable && n >= 4 && w[o + 1] < bound && w[o + 2] < bound) {
            uint32_t type = w[o + 1], variable = w[o + 2], block = pointee[type];
            bool storage = w[o + 3] == SpvStorageClassStorageBuffer
                    || (w[o + 3] == SpvStorageClassUniform && block < bound && buffer_block[block]);
            if (!storage)
                continue;
            c.buffers++;
            c.coherent += coherent_id[variable] || (block < bound && coherent_id[block]);
        }
    }
done:
    free(buffer_block);
    free(coherent_id);
    free(pointee);
    free(pointer_class);
    return c;
}

int main(void)
{
    ID3DBlob *code = NULL, *errors = NULL;
    uint32_t *words = NULL;
    size_t word_count = 0;
    char error[512] = "";

    harness_init();
    HRESULT hr = D3DCompile(source, strlen(source), "variant.hlsl", NULL, NULL, "main", "cs_6_0", 0, 0, &code, &errors);
    CHECK_MSG(hr == S_OK && code, "D3DCompile returned 0x%08x: %s", (unsigned)hr,
            errors ? (const char *)ID3D10Blob_GetBufferPointer(errors) : "(no message)");
    if (errors)
        ID3D10Blob_Release(errors);
    if (code) {
        const uint32_t *base = ID3D10Blob_GetBufferPointer(code);
        size_t base_count = ID3D10Blob_GetBufferSize(code) / 4;
        struct coherence before = count_coherence(base, base_count), after;

        /* glslang keeps globallycoherent; its optimiser may merge same-typed buffers, but the
         * raw buffer and the float buffer are of other types than the flags. */
        CHECK_MSG(before.buffers == 3, "%u storage buffers in the compiled shader (3 expected)", before.buffers);
        CHECK_MSG(before.coherent >= 1 && before.coherent < before.buffers,
                "before the variant %u of %u UAVs are coherent (the globallycoherent one, and not all)", before.coherent,
                before.buffers);

        CHECK_HR(d3d12xs_spirv_dispatch_variant(base, base_count, D3D12XS_VARIANT_COHERENT, 0, &words, &word_count, error,
                sizeof(error)), S_OK);
        if (words) {
            after = count_coherence(words, word_count);
            CHECK_MSG(after.buffers == 3 && after.coherent == 3, "the coherent variant has %u of %u UAVs coherent (all expected)",
                    after.coherent, after.buffers);
            CHECK_MSG(d3d12xs_spirv_validate(words, word_count, true, error, sizeof(error)) == S_OK,
                    "the coherent variant is not valid SPIR-V: %s", error);
            free(words);
            words = NULL;
        }
        /* The plain variant (a start group only) changes no decoration. */
        CHECK_HR(d3d12xs_spirv_dispatch_variant(base, base_count, D3D12XS_VARIANT_DISPATCH_BASE, 0, &words, &word_count, error,
                sizeof(error)), S_OK);
        if (words) {
            after = count_coherence(words, word_count);
            CHECK_MSG(after.coherent == before.coherent, "the DISPATCH_BASE variant changed coherence (%u, was %u)", after.coherent,
                    before.coherent);
            free(words);
        }
        ID3D10Blob_Release(code);
    }
    return harness_finish();
}
