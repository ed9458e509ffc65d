/* SPIR-V for root signatures with FORCE_MEMORY_BASED_ABI: the push-constant block that the
 * remap made of the root-constant cbuffers becomes a uniform buffer at a given set and
 * binding, with the same members at the same offsets. Only storage classes change (pointer
 * types and the variable); two decorations are added. The block keeps its scalar layout, which
 * the device's scalarBlockLayout allows for uniform buffers too. */
#include <spirv/unified1/spirv.h>

#include "spirv/spirv_passes.h"

HRESULT d3d12xs_spirv_pass_memory_abi(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_memory_abi_args *args,
        char *error, size_t error_size)
{
    struct d3d12xs_spirv_inst *inst;
    uint32_t variable = 0;

    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_GLOBALS, i, inst)) {
        if (d3d12xs_spirv_op(inst) == SpvOpVariable && d3d12xs_spirv_len(inst) >= 4 && inst->w[3] == SpvStorageClassPushConstant) {
            if (variable)
                return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the module has two push-constant variables");
            variable = inst->w[2];
        }
    }
    if (!variable)
        return S_OK;
    {
        uint32_t set[4] = {SpvOpDecorate, variable, SpvDecorationDescriptorSet, args->set};
        uint32_t binding[4] = {SpvOpDecorate, variable, SpvDecorationBinding, args->binding};
        d3d12xs_spirv_insert(m, D3D12XS_SPIRV_ANNOTATIONS, 0, set, 4);
        d3d12xs_spirv_insert(m, D3D12XS_SPIRV_ANNOTATIONS, 1, binding, 4);
    }
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_CAPABILITIES, i, inst)) {
        /* 8- and 16-bit members: the uniform-buffer capabilities replace the push-constant ones */
        if (d3d12xs_spirv_len(inst) != 2)
            continue;
        if (inst->w[1] == SpvCapabilityStoragePushConstant16)
            inst->w[1] = SpvCapabilityStorageUniform16;
        else if (inst->w[1] == SpvCapabilityStoragePushConstant8)
            inst->w[1] = SpvCapabilityUniformAndStorageBuffer8BitAccess;
    }
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_GLOBALS, i, inst)) {
        uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst);
        if (op == SpvOpTypePointer && n == 4 && inst->w[2] == SpvStorageClassPushConstant)
            inst->w[2] = SpvStorageClassUniform;
        else if (op == SpvOpVariable && n >= 4 && inst->w[3] == SpvStorageClassPushConstant)
            inst->w[3] = SpvStorageClassUniform;
    }
    return m->out_of_memory ? E_OUTOFMEMORY : S_OK;
}
