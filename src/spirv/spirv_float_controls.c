/* D3D's floating-point rules keep NaN and infinities (0/0 is NaN, isnan() sees it, a compare
 * with NaN is false). Vulkan lets a driver assume neither occurs unless the module asks for
 * SignedZeroInfNanPreserve; the H200 did assume it (isnan(0.0 / 0.0) was false). This pass,
 * run at pipeline creation where the device is known, adds that execution mode for each float
 * width the module uses and the device can preserve. */
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "spirv/spirv_passes.h"

HRESULT d3d12xs_spirv_pass_float_controls(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_float_controls_args *args,
        char *error, size_t error_size)
{
    const struct d3d12xs_spirv_inst *inst;
    uint32_t entry_points[8], entry_point_count = 0, widths[2], width_count = 0;
    bool has32 = false, has64 = false;

    (void)error;
    (void)error_size;
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ENTRY_POINTS, i, inst))
        if (d3d12xs_spirv_len(inst) > 2 && entry_point_count < 8)
            entry_points[entry_point_count++] = inst->w[2];
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_GLOBALS, i, inst)) {
        if (d3d12xs_spirv_op(inst) == SpvOpTypeFloat && d3d12xs_spirv_len(inst) > 2) {
            has32 |= inst->w[2] == 32;
            has64 |= inst->w[2] == 64;
        }
    }
    if (d3d12xs_spirv_has_capability(m, SpvCapabilitySignedZeroInfNanPreserve) || !entry_point_count)
        return S_OK; /* already asked for, or nothing to apply it to */
    if (has32 && args->preserve32)
        widths[width_count++] = 32;
    if (has64 && args->preserve64)
        widths[width_count++] = 64;
    if (!width_count)
        return S_OK;
    /* Where the words-based pass put them (the extension first, the modes before the module's
     * own): drivers see the same module as before the move onto spirv_module. */
    d3d12xs_spirv_add_capability(m, SpvCapabilitySignedZeroInfNanPreserve);
    if (!d3d12xs_spirv_has_extension(m, "SPV_KHR_float_controls")) {
        static const char name[] = "SPV_KHR_float_controls";
        uint32_t extension[1 + (sizeof(name) + 3) / 4] = {SpvOpExtension};
        memcpy(&extension[1], name, sizeof(name));
        d3d12xs_spirv_insert(m, D3D12XS_SPIRV_EXTENSIONS, 0, extension, sizeof(extension) / 4);
    }
    for (uint32_t e = 0, at = 0; e < entry_point_count; e++) {
        for (uint32_t w = 0; w < width_count; w++) {
            uint32_t mode[4] = {SpvOpExecutionMode, entry_points[e], SpvExecutionModeSignedZeroInfNanPreserve, widths[w]};
            d3d12xs_spirv_insert(m, D3D12XS_SPIRV_EXECUTION_MODES, at++, mode, 4);
        }
    }
    return m->out_of_memory ? E_OUTOFMEMORY : S_OK;
}
