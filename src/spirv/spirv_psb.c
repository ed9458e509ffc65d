/* See spirv_psb.h. */
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "spirv/spirv.h"
#include "spirv/spirv_psb.h"

HRESULT d3d12xs_spirv_check_addressing(const struct d3d12xs_spirv_module *m, char *error, size_t error_size)
{
    const struct d3d12xs_spirv_inst *inst;
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_MEMORY_MODEL, i, inst))
        if (d3d12xs_spirv_len(inst) == 3 && inst->w[1] != SpvAddressingModelLogical
                && inst->w[1] != SpvAddressingModelPhysicalStorageBuffer64)
            return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the module's addressing model is %u (Logical expected)",
                    inst->w[1]);
    return S_OK;
}

void d3d12xs_spirv_use_psb(struct d3d12xs_spirv_module *m)
{
    d3d12xs_spirv_add_capability(m, SpvCapabilityInt64);
    d3d12xs_spirv_use_psb_addressing(m);
}

void d3d12xs_spirv_use_psb_addressing(struct d3d12xs_spirv_module *m)
{
    struct d3d12xs_spirv_inst *inst;
    d3d12xs_spirv_add_capability(m, SpvCapabilityPhysicalStorageBufferAddresses);
    d3d12xs_spirv_add_extension(m, "SPV_KHR_physical_storage_buffer");
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_MEMORY_MODEL, i, inst)) {
        uint32_t model[3] = {SpvOpMemoryModel, SpvAddressingModelPhysicalStorageBuffer64,
                d3d12xs_spirv_len(inst) >= 3 ? inst->w[2] : SpvMemoryModelGLSL450};
        d3d12xs_spirv_rewrite(m, inst, model, 3);
    }
}

void d3d12xs_spirv_set_aligned(struct d3d12xs_spirv_module *m, struct d3d12xs_spirv_inst *inst, uint32_t mask_at, uint32_t alignment)
{
    uint32_t copy[16], n = d3d12xs_spirv_len(inst);
    if (n > 14 || n < mask_at)
        return;
    memcpy(copy, inst->w, n * 4);
    if (n == mask_at) {
        copy[n++] = SpvMemoryAccessAlignedMask;
        copy[n++] = alignment;
    } else if (!(copy[mask_at] & SpvMemoryAccessAlignedMask)) {
        /* Aligned's literal comes first: Volatile and Nontemporal, the lower bits, have none */
        copy[mask_at] |= SpvMemoryAccessAlignedMask;
        memmove(&copy[mask_at + 2], &copy[mask_at + 1], (n - mask_at - 1) * 4);
        copy[mask_at + 1] = alignment;
        n++;
    } else {
        return;
    }
    d3d12xs_spirv_rewrite(m, inst, copy, n);
}

static uint32_t alignment_of(const struct d3d12xs_spirv_module *m, uint32_t id, unsigned depth)
{
    const struct d3d12xs_spirv_inst *def = d3d12xs_spirv_def(m, id);
    uint32_t n, best = 4;
    if (!def || depth > 16)
        return 1;
    n = d3d12xs_spirv_len(def);
    switch (d3d12xs_spirv_op(def)) {
    case SpvOpTypeInt:
    case SpvOpTypeFloat:
        return def->w[2] >= 32 ? 4 : def->w[2] / 8;
    case SpvOpTypeVector:
    case SpvOpTypeMatrix:
    case SpvOpTypeArray:
    case SpvOpTypeRuntimeArray:
        return alignment_of(m, def->w[2], depth + 1);
    case SpvOpTypeStruct:
        for (uint32_t k = 2; k < n; k++) {
            uint32_t a = alignment_of(m, def->w[k], depth + 1);
            if (a < best)
                best = a;
        }
        return best;
    default:
        return 1;
    }
}

uint32_t d3d12xs_spirv_psb_alignment(const struct d3d12xs_spirv_module *m, uint32_t type)
{
    return alignment_of(m, type, 0);
}
