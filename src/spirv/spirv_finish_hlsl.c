/* The last pass of D3DCompile over glslang's module: strips what SPV_GOOGLE_hlsl_functionality1
 * and its kin added (after using its CounterBuffer links to give UAV counters their binding
 * encoding, spirv.h), but for the semantics of located inputs and outputs, which graphics
 * pipelines link stages by (spirv_stage_io.h); gives typed UAVs the view's format, and adds the
 * wave32 marker when asked. */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "spirv/spirv.h"
#include "spirv/spirv_passes.h"

static bool is_stripped_extension(const char *name)
{
    return !strcmp(name, "SPV_GOOGLE_hlsl_functionality1") || !strcmp(name, "SPV_GOOGLE_decorate_string")
            || !strcmp(name, "SPV_GOOGLE_user_type");
}

static bool is_google_decoration(uint32_t decoration)
{
    return decoration == SpvDecorationCounterBuffer || decoration == SpvDecorationUserSemantic
            || decoration == SpvDecorationUserTypeGOOGLE;
}

/* The semantic of an input or output with a Location: what D3D12 links it by. Built-ins are
 * known by their BuiltIn decoration, everything else by the semantic alone. */
static bool is_linked_semantic(const struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_inst *inst)
{
    const struct d3d12xs_spirv_inst *variable;
    if (d3d12xs_spirv_op(inst) != SpvOpDecorateString || d3d12xs_spirv_len(inst) < 4 || inst->w[2] != SpvDecorationUserSemantic)
        return false;
    variable = d3d12xs_spirv_def_op(m, inst->w[1], SpvOpVariable, 4);
    return variable && (variable->w[3] == SpvStorageClassInput || variable->w[3] == SpvStorageClassOutput)
            && d3d12xs_spirv_decoration(m, inst->w[1], SpvDecorationLocation, NULL);
}

static bool is_stripped(const struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_inst *inst, bool keeps_semantics)
{
    uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst);
    const char *name;
    if (op == SpvOpExtension)
        return d3d12xs_spirv_inst_string(inst, 1, &name, NULL) && is_stripped_extension(name)
                && !(keeps_semantics && (!strcmp(name, "SPV_GOOGLE_hlsl_functionality1") || !strcmp(name, "SPV_GOOGLE_decorate_string")));
    if (op == SpvOpDecorateId || op == SpvOpDecorateString)
        return n >= 3 && is_google_decoration(inst->w[2]) && !is_linked_semantic(m, inst);
    return op == SpvOpMemberDecorateString && n >= 4 && is_google_decoration(inst->w[3]);
}

/* Gives each counter buffer the set of its UAV and the binding (UAV_COUNTER << 14) | register
 * (DXBC's counters come here too: spirv_dxbc_counters.c). */
HRESULT d3d12xs_spirv_bind_counters(struct d3d12xs_spirv_module *m, char *error, size_t error_size)
{
    const struct d3d12xs_spirv_inst *inst;
    uint32_t *counter_of, bound = m->bound; /* counter_of[counter variable] = UAV variable + 1 */
    HRESULT hr = S_OK;

    if (!(counter_of = calloc(bound, sizeof(*counter_of))))
        return d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory");
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ANNOTATIONS, i, inst))
        if (d3d12xs_spirv_op(inst) == SpvOpDecorateId && d3d12xs_spirv_len(inst) == 4 && inst->w[2] == SpvDecorationCounterBuffer
                && inst->w[1] < bound && inst->w[3] < bound)
            counter_of[inst->w[3]] = inst->w[1] + 1;
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ANNOTATIONS, i, inst)) {
        uint32_t *w = inst->w, uav, binding = 0, set = 0;
        if (d3d12xs_spirv_op(inst) != SpvOpDecorate || d3d12xs_spirv_len(inst) != 4 || w[1] >= bound || !counter_of[w[1]]
                || (w[2] != SpvDecorationDescriptorSet && w[2] != SpvDecorationBinding))
            continue;
        uav = counter_of[w[1]] - 1;
        d3d12xs_spirv_decoration(m, uav, SpvDecorationBinding, &binding);
        d3d12xs_spirv_decoration(m, uav, SpvDecorationDescriptorSet, &set);
        if (binding >> D3D12XS_BINDING_CLASS_SHIFT != D3D12XS_REGISTER_UAV) {
            hr = d3d12xs_write_error(E_FAIL, error, error_size, "the UAV (variable %u) of counter buffer %u has binding %u, "
                    "not a u register", uav, w[1], binding);
            break;
        }
        w[3] = w[2] == SpvDecorationDescriptorSet ? set
                : D3D12XS_ENCODE_BINDING(D3D12XS_REGISTER_UAV_COUNTER, binding & D3D12XS_BINDING_REGISTER_MASK);
    }
    free(counter_of);
    return hr;
}

/* NonUniformResourceIndex: every add of the rewrite's marker (frontends/hlsl_rewrite.h) becomes a copy
 * of the index decorated NonUniform; the marker goes when nothing else uses it. The pipeline's
 * passes carry the decoration to the descriptor accesses (spirv_heap_tables.c). */
static void resolve_nonuniform(struct d3d12xs_spirv_module *m)
{
    struct d3d12xs_spirv_list *functions = &m->sections[D3D12XS_SPIRV_FUNCTIONS];
    struct d3d12xs_spirv_inst *inst;
    uint32_t marker = 0, adds = 0;
    bool used_otherwise = false;

    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ANNOTATIONS, i, inst))
        if (d3d12xs_spirv_op(inst) == SpvOpDecorate && d3d12xs_spirv_len(inst) == 4 && inst->w[2] == SpvDecorationSpecId
                && inst->w[3] == D3D12XS_NONUNIFORM_SPEC_ID && d3d12xs_spirv_def_op(m, inst->w[1], SpvOpSpecConstant, 4))
            marker = inst->w[1];
    if (!marker)
        return;
    for (size_t i = 0; i < functions->count; i++) {
        inst = functions->at[i];
        uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst);
        if (op == SpvOpIAdd && n == 5 && (inst->w[3] == marker || inst->w[4] == marker)) {
            uint32_t copy[4] = {SpvOpCopyObject, inst->w[1], inst->w[2], inst->w[3] == marker ? inst->w[4] : inst->w[3]};
            uint32_t decoration[3] = {SpvOpDecorate, inst->w[2], SpvDecorationNonUniform};
            d3d12xs_spirv_rewrite(m, inst, copy, 4);
            d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, decoration, 3);
            adds++;
            continue;
        }
        for (uint32_t k = 1; k < n; k++)
            used_otherwise |= inst->w[k] == marker;
    }
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_GLOBALS, i, inst))
        if (d3d12xs_spirv_op(inst) == SpvOpSpecConstantOp)
            for (uint32_t k = 3; k < d3d12xs_spirv_len(inst); k++)
                used_otherwise |= inst->w[k] == marker;
    if (!used_otherwise) {
        static const enum d3d12xs_spirv_section sections[] = {D3D12XS_SPIRV_DEBUG, D3D12XS_SPIRV_ANNOTATIONS, D3D12XS_SPIRV_GLOBALS};
        for (size_t s = 0; s < D3D12XS_ARRAY_SIZE(sections); s++) {
            uint32_t at = sections[s] == D3D12XS_SPIRV_GLOBALS ? 2 : 1;
            for (size_t i = 0; i < m->sections[sections[s]].count;) {
                inst = m->sections[sections[s]].at[i];
                if (d3d12xs_spirv_len(inst) > at && inst->w[at] == marker)
                    d3d12xs_spirv_remove(m, sections[s], i);
                else
                    i++;
            }
        }
    }
    if (adds) {
        d3d12xs_spirv_add_capability(m, SpvCapabilityShaderNonUniform);
        if (m->version < 0x10500)
            d3d12xs_spirv_add_extension(m, "SPV_EXT_descriptor_indexing");
    }
}

/* HLSL's typed UAVs (RWTexture2D<float4>, RWBuffer<uint>) read and write in whatever format
 * their view has; glslang names a format from the element type (Rgba32f, R32ui). Storage
 * images become format Unknown (StorageImageRead/WriteWithoutFormat), except those atomics
 * reach through OpImageTexelPointer, which Vulkan wants in their 32-bit format (the view's). */
static void unknown_storage_formats(struct d3d12xs_spirv_module *m)
{
    const struct d3d12xs_spirv_inst *inst;
    uint8_t *atomic;
    bool changed = false;

    if (!(atomic = calloc(m->bound, 1))) {
        m->out_of_memory = true;
        return;
    }
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_FUNCTIONS, i, inst)) {
        const struct d3d12xs_spirv_inst *pointer, *pointer_type;
        if (d3d12xs_spirv_op(inst) != SpvOpImageTexelPointer || d3d12xs_spirv_len(inst) < 4)
            continue;
        if ((pointer = d3d12xs_spirv_def(m, inst->w[3])) && d3d12xs_spirv_len(pointer) > 1
                && (pointer_type = d3d12xs_spirv_def(m, pointer->w[1])) && d3d12xs_spirv_op(pointer_type) == SpvOpTypePointer
                && pointer_type->w[3] < m->bound)
            atomic[pointer_type->w[3]] = 1;
    }
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_GLOBALS, i, inst)) {
        uint32_t *w = inst->w;
        if (d3d12xs_spirv_op(inst) != SpvOpTypeImage || d3d12xs_spirv_len(inst) < 9 || w[7] != 2 || w[3] == SpvDimSubpassData
                || w[8] == SpvImageFormatUnknown || atomic[w[1]])
            continue;
        w[8] = SpvImageFormatUnknown;
        changed = true;
    }
    free(atomic);
    if (changed) {
        d3d12xs_spirv_add_capability(m, SpvCapabilityStorageImageReadWithoutFormat);
        d3d12xs_spirv_add_capability(m, SpvCapabilityStorageImageWriteWithoutFormat);
    }
}

HRESULT d3d12xs_spirv_pass_finish_hlsl(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_finish_hlsl_args *args,
        char *error, size_t error_size)
{
    static const enum d3d12xs_spirv_section sections[] = {D3D12XS_SPIRV_ANNOTATIONS, D3D12XS_SPIRV_EXTENSIONS};
    const struct d3d12xs_spirv_inst *inst;
    bool keeps_semantics = false;
    HRESULT hr;

    if (FAILED(hr = d3d12xs_spirv_bind_counters(m, error, error_size)))
        return hr;
    resolve_nonuniform(m);
    unknown_storage_formats(m);
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ANNOTATIONS, i, inst))
        keeps_semantics |= is_linked_semantic(m, inst);
    for (size_t s = 0; s < sizeof(sections) / sizeof(sections[0]); s++) {
        for (size_t i = 0; i < m->sections[sections[s]].count;) {
            if (is_stripped(m, m->sections[sections[s]].at[i], keeps_semantics))
                d3d12xs_spirv_remove(m, sections[s], i);
            else
                i++;
        }
    }
    if (args->wave32) {
        static const char marker[] = D3D12XS_SPIRV_WAVE32_MARKER;
        uint32_t words[1 + (sizeof(marker) + 3) / 4] = {SpvOpModuleProcessed};
        memcpy(&words[1], marker, sizeof(marker));
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_DEBUG, words, sizeof(words) / 4);
    }
    if (args->no_volatile)
        d3d12xs_spirv_add_marker(m, D3D12XS_SPIRV_NO_VOLATILE_MARKER);
    return m->out_of_memory ? d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory") : S_OK;
}
