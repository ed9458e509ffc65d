/* UAV counters read by address (src/spirv/spirv_heap_tables.c, COUNTER bindings): a counter
 * declared as a storage texel buffer, as libvkd3d-shader declares DXBC's by default, becomes a
 * PhysicalStorageBuffer pointer from the heap's side table, its OpImageTexelPointer a copy of
 * that pointer, and the module stays valid; any other use of such a counter is refused. HLSL's
 * counters (storage buffers) run on the device in test_descriptor_heaps and test_heap_size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "harness.h"
#include "spirv/spirv.h"
#include "spirv/spirv_passes.h"

#define W(n, op) (((uint32_t)(n) << 16) | (op))

enum {
    ID_VOID = 1, ID_FUNCTION_TYPE, ID_UINT, ID_IMAGE, ID_IMAGE_POINTER, ID_COUNTER, ID_TEXEL_POINTER, ID_ZERO, ID_ONE,
    ID_MAIN, ID_LABEL, ID_TEXEL, ID_OLD, ID_BOUND
};

/* A compute shader that increments its counter, a texel buffer, by OpImageTexelPointer and
 * OpAtomicIAdd; with query_size, it also asks the counter's size (a use that is refused). */
static size_t counter_module(uint32_t *w, bool query_size)
{
    const uint32_t words[] = {
        SpvMagicNumber, 0x00010300, 0, ID_BOUND + 1, 0,
        W(2, SpvOpCapability), SpvCapabilityShader,
        W(2, SpvOpCapability), SpvCapabilityImageBuffer,
        W(2, SpvOpCapability), SpvCapabilityImageQuery,
        W(3, SpvOpMemoryModel), SpvAddressingModelLogical, SpvMemoryModelGLSL450,
        W(5, SpvOpEntryPoint), SpvExecutionModelGLCompute, ID_MAIN, 0x6e69616d /* "main" */, 0,
        W(6, SpvOpExecutionMode), ID_MAIN, SpvExecutionModeLocalSize, 1, 1, 1,
        W(4, SpvOpDecorate), ID_COUNTER, SpvDecorationDescriptorSet, 0,
        W(4, SpvOpDecorate), ID_COUNTER, SpvDecorationBinding, 0,
        W(2, SpvOpTypeVoid), ID_VOID,
        W(3, SpvOpTypeFunction), ID_FUNCTION_TYPE, ID_VOID,
        W(4, SpvOpTypeInt), ID_UINT, 32, 0,
        W(9, SpvOpTypeImage), ID_IMAGE, ID_UINT, SpvDimBuffer, 0, 0, 0, 2, SpvImageFormatR32ui,
        W(4, SpvOpTypePointer), ID_IMAGE_POINTER, SpvStorageClassUniformConstant, ID_IMAGE,
        W(4, SpvOpVariable), ID_IMAGE_POINTER, ID_COUNTER, SpvStorageClassUniformConstant,
        W(4, SpvOpTypePointer), ID_TEXEL_POINTER, SpvStorageClassImage, ID_UINT,
        W(4, SpvOpConstant), ID_UINT, ID_ZERO, 0,
        W(4, SpvOpConstant), ID_UINT, ID_ONE, 1,
        W(5, SpvOpFunction), ID_VOID, ID_MAIN, SpvFunctionControlMaskNone, ID_FUNCTION_TYPE,
        W(2, SpvOpLabel), ID_LABEL,
        W(6, SpvOpImageTexelPointer), ID_TEXEL_POINTER, ID_TEXEL, ID_COUNTER, ID_ZERO, ID_ZERO,
        W(7, SpvOpAtomicIAdd), ID_UINT, ID_OLD, ID_TEXEL, ID_ONE, ID_ZERO, ID_ONE,
    };
    const uint32_t query[] = {
        W(4, SpvOpLoad), ID_IMAGE, ID_BOUND, ID_COUNTER,
    };
    const uint32_t end[] = {
        W(1, SpvOpReturn),
        W(1, SpvOpFunctionEnd),
    };
    size_t n = 0;
    memcpy(w, words, sizeof(words)), n += D3D12XS_ARRAY_SIZE(words);
    if (query_size)
        memcpy(&w[n], query, sizeof(query)), n += D3D12XS_ARRAY_SIZE(query);
    memcpy(&w[n], end, sizeof(end)), n += D3D12XS_ARRAY_SIZE(end);
    return n;
}

/* Runs the heap tables pass with the counter as a COUNTER binding of a table at push offset 0. */
static HRESULT rewrite(const uint32_t *in, size_t count, uint32_t **out, size_t *out_count, char *error, size_t error_size)
{
    const struct d3d12xs_spirv_heap_table_binding binding = {ID_COUNTER, D3D12XS_HEAP_BINDING_COUNTER, 1, 0, 3};
    const struct d3d12xs_spirv_heap_tables_args args = {&binding, 1, false};
    struct d3d12xs_spirv_module *m = NULL;
    HRESULT hr;

    *out = NULL;
    if (FAILED(hr = d3d12xs_spirv_module_parse(in, count * 4, &m, error, error_size)))
        return hr;
    if (SUCCEEDED(hr = d3d12xs_spirv_pass_heap_tables(m, &args, error, error_size)))
        hr = d3d12xs_spirv_module_emit(m, out, out_count);
    d3d12xs_spirv_module_destroy(m);
    return hr;
}

static void test_texel_buffer_counter(void)
{
    uint32_t module[128], *words = NULL, psb_pointers[8], psb_count = 0;
    unsigned texel_pointers = 0, bitcasts = 0, atomics_through_copy = 0, copies[ID_BOUND + 64] = {0};
    size_t count = counter_module(module, false), out_count = 0;
    char error[512] = "";
    HRESULT hr = rewrite(module, count, &words, &out_count, error, sizeof(error));

    CHECK_MSG(hr == S_OK, "texel-buffer counter: 0x%08x %s", (unsigned)hr, error);
    if (!words)
        return;
    CHECK_MSG(d3d12xs_spirv_validate(words, out_count, true, error, sizeof(error)) == S_OK, "%s", error);
    for (size_t o = 5; o < out_count && (words[o] >> 16); o += words[o] >> 16) {
        uint32_t op = words[o] & 0xffff, n = words[o] >> 16;
        if (op == SpvOpTypePointer && n == 4 && words[o + 2] == SpvStorageClassPhysicalStorageBuffer && psb_count < 8)
            psb_pointers[psb_count++] = words[o + 1];
        if (op == SpvOpImageTexelPointer)
            texel_pointers++;
        for (uint32_t k = 0; k < psb_count; k++)
            if (op == SpvOpBitcast && n == 4 && words[o + 1] == psb_pointers[k])
                bitcasts++;
        if (op == SpvOpCopyObject && n == 4 && words[o + 2] < D3D12XS_ARRAY_SIZE(copies))
            copies[words[o + 2]] = 1;
        if (op == SpvOpAtomicIAdd && n == 7 && words[o + 3] < D3D12XS_ARRAY_SIZE(copies) && copies[words[o + 3]])
            atomics_through_copy++;
    }
    CHECK_MSG(!texel_pointers && bitcasts == 1 && atomics_through_copy == 1,
            "texel-buffer counter: %u OpImageTexelPointer left, %u pointers from the side table, %u atomics through them",
            texel_pointers, bitcasts, atomics_through_copy);
    free(words);
}

static void test_texel_buffer_counter_other_use(void)
{
    uint32_t module[128], *words = NULL;
    size_t count = counter_module(module, true), out_count = 0;
    char error[512] = "";
    HRESULT hr = rewrite(module, count, &words, &out_count, error, sizeof(error));

    CHECK_MSG(hr == E_INVALIDARG && strstr(error, "texel buffer") && strstr(error, "OpImageTexelPointer"),
            "a texel-buffer counter loaded whole: 0x%08x %s", (unsigned)hr, error);
    free(words);
}

int main(void)
{
    harness_init();
    test_texel_buffer_counter();
    test_texel_buffer_counter_other_use();
    return harness_finish();
}
