/* D3D's floating-point rules keep NaN and infinities (0/0 is NaN, isnan() sees it, a compare
 * with NaN is false). Vulkan lets a driver assume neither occurs unless the module asks for
 * SignedZeroInfNanPreserve; the H200 did assume it (isnan(0.0 / 0.0) was false). This pass,
 * run at pipeline creation where the device is known, adds that execution mode for each float
 * width the module uses and the device can preserve. */
#include <stdlib.h>
#include <string.h>

#include "shaders/spirv.h"
#include "shaders/spirv_float_controls.h"

#define SPV_OP_CAPABILITY 17
#define SPV_OP_EXTENSION 10
#define SPV_OP_EXT_INST_IMPORT 11
#define SPV_OP_MEMORY_MODEL 14
#define SPV_OP_ENTRY_POINT 15
#define SPV_OP_EXECUTION_MODE 16
#define SPV_OP_TYPE_FLOAT 22
#define SPV_CAPABILITY_SIGNED_ZERO_INF_NAN_PRESERVE 4466
#define SPV_EXECUTION_MODE_SIGNED_ZERO_INF_NAN_PRESERVE 4461

static const char extension_name[] = "SPV_KHR_float_controls"; /* 22 characters: 6 words with its NUL */

HRESULT d3d12xs_spirv_preserve_nan(uint32_t **words, size_t *word_count, bool preserve32, bool preserve64)
{
    const uint32_t *in = *words;
    size_t count = *word_count, at = 5, capabilities_end = 5, entry_points_end = 0, out_count = 0;
    uint32_t entry_points[8], entry_point_count = 0, widths[2], width_count = 0;
    bool has_capability = false, has_extension = false, has32 = false, has64 = false;
    uint32_t *out;

    if (count < 5)
        return E_INVALIDARG;
    while (at < count) {
        uint32_t op = in[at] & 0xffff, length = in[at] >> 16;
        if (!length || at + length > count)
            return E_INVALIDARG;
        if (op == SPV_OP_CAPABILITY) {
            capabilities_end = at + length;
            has_capability |= length > 1 && in[at + 1] == SPV_CAPABILITY_SIGNED_ZERO_INF_NAN_PRESERVE;
        } else if (op == SPV_OP_EXTENSION) {
            const char *name;
            size_t next;
            has_extension |= d3d12xs_spirv_string(in, at + 1, at + length, &name, &next) && !strcmp(name, extension_name);
        } else if (op == SPV_OP_ENTRY_POINT && length > 2) {
            if (entry_point_count < 8)
                entry_points[entry_point_count++] = in[at + 2];
            entry_points_end = at + length;
        } else if (op == SPV_OP_TYPE_FLOAT && length > 2) {
            has32 |= in[at + 2] == 32;
            has64 |= in[at + 2] == 64;
        }
        at += length;
    }
    if (has_capability || !entry_point_count)
        return S_OK; /* already asked for, or nothing to apply it to */
    if (has32 && preserve32)
        widths[width_count++] = 32;
    if (has64 && preserve64)
        widths[width_count++] = 64;
    if (!width_count)
        return S_OK;

    size_t added = 2 + (has_extension ? 0 : 1 + 6) + (size_t)entry_point_count * width_count * 4;
    if (!(out = malloc((count + added) * sizeof(*out))))
        return E_OUTOFMEMORY;
    /* Header and capabilities, then ours; the extension (which must precede OpExtInstImport
     * and OpMemoryModel) goes right after the capabilities too. */
    memcpy(out, in, capabilities_end * sizeof(*out));
    out_count = capabilities_end;
    out[out_count++] = (2u << 16) | SPV_OP_CAPABILITY;
    out[out_count++] = SPV_CAPABILITY_SIGNED_ZERO_INF_NAN_PRESERVE;
    if (!has_extension) {
        out[out_count++] = (7u << 16) | SPV_OP_EXTENSION;
        memset(&out[out_count], 0, 6 * sizeof(*out));
        memcpy(&out[out_count], extension_name, sizeof(extension_name));
        out_count += 6;
    }
    /* Everything up to the last OpEntryPoint, then our execution modes (they follow every
     * entry point), then the rest. */
    memcpy(&out[out_count], &in[capabilities_end], (entry_points_end - capabilities_end) * sizeof(*out));
    out_count += entry_points_end - capabilities_end;
    for (uint32_t e = 0; e < entry_point_count; e++) {
        for (uint32_t w = 0; w < width_count; w++) {
            out[out_count++] = (4u << 16) | SPV_OP_EXECUTION_MODE;
            out[out_count++] = entry_points[e];
            out[out_count++] = SPV_EXECUTION_MODE_SIGNED_ZERO_INF_NAN_PRESERVE;
            out[out_count++] = widths[w];
        }
    }
    memcpy(&out[out_count], &in[entry_points_end], (count - entry_points_end) * sizeof(*out));
    out_count += count - entry_points_end;
    free(*words);
    *words = out;
    *word_count = out_count;
    return S_OK;
}
