/* SPIR-V reflection: entry point, numthreads, wave size marker and the resource variables
 * with their HLSL registers (see the encoding in spirv.h). The module comes from the
 * application, so every word read is bounds-checked. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "common/log.h"
#include "spirv/spirv.h"
#include "spirv/spirv_passes.h"

#define MAX_BINDINGS 4096u
#define MAX_TYPE_DEPTH 16
#define MAX_CAPABILITIES 1024u

struct id_entry {
    uint32_t set, binding, array_stride;
    bool has_set, has_binding, has_array_stride, block, buffer_block, workgroup_size;
};

struct reflect {
    const struct d3d12xs_spirv_module *m;
    uint32_t bound;
    struct id_entry *ids;
    unsigned type_visits; /* bounds the work on hostile nested types */
    char *error;
    size_t error_size;
};

static HRESULT reflect_fail(struct reflect *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static HRESULT reflect_fail(struct reflect *r, const char *fmt, ...)
{
    va_list args;
    if (r->error && r->error_size) {
        va_start(args, fmt);
        vsnprintf(r->error, r->error_size, fmt, args);
        va_end(args);
    }
    return E_INVALIDARG;
}

/* Value of a 32-bit integer OpConstant. */
static bool constant_value(const struct reflect *r, uint32_t id, uint32_t *value)
{
    return d3d12xs_spirv_int32_constant(r->m, id, NULL, value);
}

static bool member_decoration(const struct reflect *r, uint32_t struct_id, uint32_t member,
        SpvDecoration decoration, uint32_t *value)
{
    return d3d12xs_spirv_member_decoration(r->m, struct_id, member, decoration, value);
}

static HRESULT type_size(struct reflect *r, uint32_t type_id, uint32_t matrix_stride, bool row_major,
        unsigned depth, uint64_t *size);

static HRESULT struct_size(struct reflect *r, const struct d3d12xs_spirv_inst *def, unsigned depth, uint64_t *size)
{
    uint32_t struct_id = def->w[1], n = d3d12xs_spirv_len(def);
    uint64_t end = 0;

    for (uint32_t m = 0; m + 2 < n; m++) {
        uint32_t offset, stride = 0;
        uint64_t member_size;
        HRESULT hr;
        if (!member_decoration(r, struct_id, m, SpvDecorationOffset, &offset))
            return reflect_fail(r, "member %u of struct %u has no Offset decoration", m, struct_id);
        member_decoration(r, struct_id, m, SpvDecorationMatrixStride, &stride);
        if (FAILED(hr = type_size(r, def->w[2 + m], stride,
                member_decoration(r, struct_id, m, SpvDecorationRowMajor, NULL), depth + 1, &member_size)))
            return hr;
        if (offset + member_size > end)
            end = offset + member_size;
    }
    *size = end;
    return S_OK;
}

static HRESULT type_size(struct reflect *r, uint32_t type_id, uint32_t matrix_stride, bool row_major,
        unsigned depth, uint64_t *size)
{
    const struct d3d12xs_spirv_inst *def = d3d12xs_spirv_def(r->m, type_id);
    uint32_t n, length;
    uint64_t element;
    HRESULT hr;

    if (depth > MAX_TYPE_DEPTH)
        return reflect_fail(r, "types nest deeper than %u levels", MAX_TYPE_DEPTH);
    if (++r->type_visits > 4096)
        return reflect_fail(r, "cbuffer types are too complex");
    if (!def)
        return reflect_fail(r, "type %u is not defined", type_id);
    n = d3d12xs_spirv_len(def);
    switch (d3d12xs_spirv_op(def)) {
    case SpvOpTypeBool:
        *size = 4;
        return S_OK;
    case SpvOpTypeInt:
    case SpvOpTypeFloat:
        if (n < 3 || def->w[2] < 8 || def->w[2] > 64)
            return reflect_fail(r, "malformed scalar type %u", type_id);
        *size = def->w[2] / 8;
        return S_OK;
    case SpvOpTypeVector:
        if (n < 4 || def->w[3] > 16)
            return reflect_fail(r, "malformed vector type %u", type_id);
        if (FAILED(hr = type_size(r, def->w[2], 0, false, depth + 1, &element)))
            return hr;
        *size = element * def->w[3];
        return S_OK;
    case SpvOpTypeMatrix: {
        const struct d3d12xs_spirv_inst *column = d3d12xs_spirv_def(r->m, def->w[2]);
        uint32_t columns, rows;
        uint64_t scalar;
        if (n < 4 || !column || d3d12xs_spirv_op(column) != SpvOpTypeVector || d3d12xs_spirv_len(column) < 4
                || !(columns = def->w[3]) || columns > 16 || !(rows = column->w[3]) || rows > 16)
            return reflect_fail(r, "malformed matrix type %u", type_id);
        if (FAILED(hr = type_size(r, column->w[2], 0, false, depth + 1, &scalar)))
            return hr;
        if (!matrix_stride)
            matrix_stride = (uint32_t)(scalar * rows);
        if (row_major)
            *size = (uint64_t)(rows - 1) * matrix_stride + scalar * columns;
        else
            *size = (uint64_t)(columns - 1) * matrix_stride + scalar * rows;
        return S_OK;
    }
    case SpvOpTypeArray:
        if (n < 4 || !constant_value(r, def->w[3], &length) || !length)
            return reflect_fail(r, "array type %u has no constant length", type_id);
        if (FAILED(hr = type_size(r, def->w[2], matrix_stride, row_major, depth + 1, &element)))
            return hr;
        if (!r->ids[type_id].has_array_stride)
            return reflect_fail(r, "array type %u in a block has no ArrayStride decoration", type_id);
        *size = (uint64_t)(length - 1) * r->ids[type_id].array_stride + element;
        return S_OK;
    case SpvOpTypeStruct:
        return struct_size(r, def, depth, size);
    default:
        return reflect_fail(r, "type %u (opcode %u) cannot be in a cbuffer", type_id, d3d12xs_spirv_op(def));
    }
}

static const char *class_letter(enum d3d12xs_register_class c)
{
    static const char *const letters[] = {"b", "t", "u", "s", "u (counter)"};
    return c <= D3D12XS_REGISTER_UAV_COUNTER ? letters[c] : "?";
}

static const char *descriptor_name(VkDescriptorType type)
{
    switch (type) {
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER: return "cbuffer";
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER: return "raw/structured buffer";
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER: return "typed buffer SRV";
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: return "typed buffer UAV";
    case VK_DESCRIPTOR_TYPE_SAMPLER: return "sampler";
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE: return "texture SRV";
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE: return "texture UAV";
    default: return "resource";
    }
}

static bool class_fits(enum d3d12xs_register_class c, VkDescriptorType type)
{
    switch (type) {
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER: return c == D3D12XS_REGISTER_CBV;
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
        return c == D3D12XS_REGISTER_SRV || c == D3D12XS_REGISTER_UAV || c == D3D12XS_REGISTER_UAV_COUNTER;
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE: return c == D3D12XS_REGISTER_SRV;
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE: return c == D3D12XS_REGISTER_UAV;
    case VK_DESCRIPTOR_TYPE_SAMPLER: return c == D3D12XS_REGISTER_SAMPLER;
    default: return false;
    }
}

/* Describes the resource variable defined at def, or returns S_FALSE for a variable that is
 * not a resource (Input, Workgroup, ...). */
static HRESULT reflect_variable(struct reflect *r, const struct d3d12xs_spirv_inst *def, struct d3d12xs_shader_binding *b)
{
    uint32_t id = def->w[2], storage = def->w[3], pointee, op;
    const struct d3d12xs_spirv_inst *pointer, *pointee_def;
    const struct id_entry *entry;
    HRESULT hr;

    if (d3d12xs_spirv_len(def) < 4)
        return reflect_fail(r, "OpVariable %u is malformed", id);
    if (storage != SpvStorageClassUniformConstant && storage != SpvStorageClassUniform
            && storage != SpvStorageClassStorageBuffer)
        return S_FALSE;
    pointer = d3d12xs_spirv_def(r->m, def->w[1]);
    if (!pointer || d3d12xs_spirv_op(pointer) != SpvOpTypePointer || d3d12xs_spirv_len(pointer) < 4 || pointer->w[2] != storage)
        return reflect_fail(r, "variable %u does not have a pointer type of its storage class", id);
    memset(b, 0, sizeof(*b));
    b->variable_id = id;
    b->array_size = 1;
    pointee = pointer->w[3];
    if (!(pointee_def = d3d12xs_spirv_def(r->m, pointee)))
        return reflect_fail(r, "type %u of variable %u is not defined", pointee, id);
    op = d3d12xs_spirv_op(pointee_def);
    if (op == SpvOpTypeArray) {
        if (d3d12xs_spirv_len(pointee_def) < 4 || !constant_value(r, pointee_def->w[3], &b->array_size) || !b->array_size)
            return reflect_fail(r, "resource array %u needs a constant 32-bit length", id);
    } else if (op == SpvOpTypeRuntimeArray) {
        if (d3d12xs_spirv_len(pointee_def) < 3)
            return reflect_fail(r, "malformed runtime array type %u", pointee);
        b->array_size = 0;
    }
    if (op == SpvOpTypeArray || op == SpvOpTypeRuntimeArray) {
        pointee = pointee_def->w[2];
        if (!(pointee_def = d3d12xs_spirv_def(r->m, pointee)))
            return reflect_fail(r, "element type %u of variable %u is not defined", pointee, id);
        op = d3d12xs_spirv_op(pointee_def);
    }

    switch (op) {
    case SpvOpTypeStruct:
        if (storage == SpvStorageClassUniform && r->ids[pointee].block)
            b->descriptor_type = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
        else if ((storage == SpvStorageClassUniform && r->ids[pointee].buffer_block)
                || (storage == SpvStorageClassStorageBuffer && r->ids[pointee].block))
            b->descriptor_type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        else
            return reflect_fail(r, "buffer variable %u has no Block/BufferBlock decoration fitting its storage class", id);
        break;
    case SpvOpTypeImage:
        if (d3d12xs_spirv_len(pointee_def) < 9 || storage != SpvStorageClassUniformConstant)
            return reflect_fail(r, "malformed image variable %u", id);
        if (pointee_def->w[3] == SpvDimSubpassData)
            return reflect_fail(r, "variable %u is a subpass input, which has no D3D12 register", id);
        if (pointee_def->w[7] != 1 && pointee_def->w[7] != 2)
            return reflect_fail(r, "image variable %u must say whether it is sampled (Sampled 1) or storage (Sampled 2)", id);
        if (pointee_def->w[3] == SpvDimBuffer)
            b->descriptor_type = pointee_def->w[7] == 1 ? VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER
                    : VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
        else
            b->descriptor_type = pointee_def->w[7] == 1 ? VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE
                    : VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
        break;
    case SpvOpTypeSampler:
        if (storage != SpvStorageClassUniformConstant)
            return reflect_fail(r, "malformed sampler variable %u", id);
        b->descriptor_type = VK_DESCRIPTOR_TYPE_SAMPLER;
        break;
    case SpvOpTypeSampledImage:
        return reflect_fail(r, "variable %u is a combined image sampler, which has no D3D12 register: "
                "use separate textures and samplers", id);
    case SpvOpTypeAccelerationStructureKHR:
        return reflect_fail(r, "variable %u is an acceleration structure, which is not supported", id);
    default:
        return reflect_fail(r, "variable %u (storage class %u) has a type (opcode %u) that is no D3D12 resource",
                id, storage, op);
    }

    entry = &r->ids[id];
    if (!entry->has_set || !entry->has_binding)
        return reflect_fail(r, "resource variable %u has no %s decoration", id,
                entry->has_set ? "Binding" : "DescriptorSet");
    b->space = entry->set;
    b->register_class = entry->binding >> D3D12XS_BINDING_CLASS_SHIFT;
    b->register_index = entry->binding & D3D12XS_BINDING_REGISTER_MASK;
    if (entry->binding >> D3D12XS_BINDING_CLASS_SHIFT > D3D12XS_REGISTER_UAV_COUNTER)
        return reflect_fail(r, "resource variable %u has binding %u, which encodes no HLSL register "
                "(expected register class << 14 | register)", id, entry->binding);
    if (!class_fits(b->register_class, b->descriptor_type))
        return reflect_fail(r, "resource variable %u (a %s) has binding %u, which encodes register %s%u: "
                "not a register for that kind of resource (too large a register number?)", id,
                descriptor_name(b->descriptor_type), entry->binding, class_letter(b->register_class), b->register_index);
    if (b->register_class == D3D12XS_REGISTER_UAV_COUNTER && b->array_size != 1)
        return reflect_fail(r, "UAV counter variable %u is an array", id);
    if (b->descriptor_type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER) {
        uint64_t size;
        if (FAILED(hr = struct_size(r, pointee_def, 0, &size)))
            return hr;
        if (size > 65536)
            return reflect_fail(r, "cbuffer variable %u is %llu bytes, more than 65536", id, (unsigned long long)size);
        b->block_size = (uint32_t)size;
    }
    return S_OK;
}

/* Per-id facts from the annotations. */
static HRESULT read_annotations(struct reflect *r)
{
    const struct d3d12xs_spirv_inst *inst;
    for (D3D12XS_SPIRV_EACH(r->m, D3D12XS_SPIRV_ANNOTATIONS, i, inst)) {
        const uint32_t *w = inst->w;
        uint32_t n = d3d12xs_spirv_len(inst), target;
        if (d3d12xs_spirv_op(inst) != SpvOpDecorate)
            continue;
        if (n < 3 || (target = w[1]) >= r->bound)
            return reflect_fail(r, "malformed OpDecorate at word %u", inst->offset);
        switch (w[2]) {
        case SpvDecorationDescriptorSet:
        case SpvDecorationBinding:
        case SpvDecorationArrayStride:
        case SpvDecorationBuiltIn:
            if (n < 4)
                return reflect_fail(r, "malformed OpDecorate at word %u", inst->offset);
            if (w[2] == SpvDecorationDescriptorSet) {
                r->ids[target].has_set = true;
                r->ids[target].set = w[3];
            } else if (w[2] == SpvDecorationBinding) {
                r->ids[target].has_binding = true;
                r->ids[target].binding = w[3];
            } else if (w[2] == SpvDecorationArrayStride) {
                r->ids[target].has_array_stride = true;
                r->ids[target].array_stride = w[3];
            } else if (w[3] == SpvBuiltInWorkgroupSize) {
                r->ids[target].workgroup_size = true;
            }
            break;
        case SpvDecorationBlock:
            r->ids[target].block = true;
            break;
        case SpvDecorationBufferBlock:
            r->ids[target].buffer_block = true;
            break;
        }
    }
    return S_OK;
}

/* The first compute entry point, else the first one; the capabilities; the wave size marker. */
static HRESULT read_preamble(struct reflect *r, struct d3d12xs_shader_info *info, const struct d3d12xs_spirv_inst **entry)
{
    const struct d3d12xs_spirv_inst *inst;
    const char *string;

    for (D3D12XS_SPIRV_EACH(r->m, D3D12XS_SPIRV_CAPABILITIES, i, inst)) {
        uint32_t *capabilities;
        if (d3d12xs_spirv_len(inst) < 2)
            return reflect_fail(r, "malformed OpCapability at word %u", inst->offset);
        if (info->capability_count >= MAX_CAPABILITIES)
            return reflect_fail(r, "more than %u OpCapability instructions", MAX_CAPABILITIES);
        if (!(capabilities = realloc(info->capabilities, (info->capability_count + 1) * sizeof(*capabilities))))
            return E_OUTOFMEMORY;
        info->capabilities = capabilities;
        info->capabilities[info->capability_count++] = inst->w[1];
    }
    *entry = NULL;
    for (D3D12XS_SPIRV_EACH(r->m, D3D12XS_SPIRV_ENTRY_POINTS, i, inst)) {
        if (d3d12xs_spirv_len(inst) < 4 || !d3d12xs_spirv_inst_string(inst, 3, NULL, NULL))
            return reflect_fail(r, "malformed OpEntryPoint at word %u", inst->offset);
        if (!*entry || ((*entry)->w[1] != SpvExecutionModelGLCompute && inst->w[1] == SpvExecutionModelGLCompute))
            *entry = inst;
    }
    for (D3D12XS_SPIRV_EACH(r->m, D3D12XS_SPIRV_DEBUG, i, inst)) {
        if (d3d12xs_spirv_op(inst) != SpvOpModuleProcessed && d3d12xs_spirv_op(inst) != SpvOpSourceExtension)
            continue;
        if (d3d12xs_spirv_len(inst) < 2 || !d3d12xs_spirv_inst_string(inst, 1, &string, NULL))
            return reflect_fail(r, "malformed %s at word %u", d3d12xs_spirv_op(inst) == SpvOpModuleProcessed ? "OpModuleProcessed"
                    : "OpSourceExtension", inst->offset);
        if (!strcmp(string, D3D12XS_SPIRV_WAVE32_MARKER) && d3d12xs_spirv_op(inst) == SpvOpModuleProcessed)
            info->wave_size = 32;
        if (!strcmp(string, D3D12XS_SPIRV_NO_VOLATILE_MARKER))
            info->no_volatile = true;
    }
    return S_OK;
}

static HRESULT add_binding(struct reflect *r, struct d3d12xs_shader_info *info, struct d3d12xs_shader_binding *binding,
        size_t *capacity)
{
    for (uint32_t i = 0; i < info->binding_count; i++) {
        struct d3d12xs_shader_binding *other = &info->bindings[i];
        if (other->register_class != binding->register_class || other->space != binding->space
                || other->register_index != binding->register_index)
            continue;
        /* two views of one storage buffer (spirv_vectorize.c) */
        if (!other->alias_variable_id && other->descriptor_type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
                && binding->descriptor_type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER && other->array_size == binding->array_size) {
            other->alias_variable_id = binding->variable_id;
            return S_OK;
        }
        return reflect_fail(r, "variables %u and %u both use register %s%u, space%u", other->variable_id,
                    binding->variable_id, class_letter(binding->register_class), binding->register_index,
                    binding->space);
    }
    if (info->binding_count >= MAX_BINDINGS)
        return reflect_fail(r, "more than %u resource variables", MAX_BINDINGS);
    if (info->binding_count == *capacity) {
        size_t new_capacity = *capacity ? *capacity * 2 : 8;
        struct d3d12xs_shader_binding *bindings = realloc(info->bindings, new_capacity * sizeof(*bindings));
        if (!bindings)
            return E_OUTOFMEMORY;
        info->bindings = bindings;
        *capacity = new_capacity;
    }
    info->bindings[info->binding_count++] = *binding;
    return S_OK;
}

static bool in_interface(const struct d3d12xs_spirv_inst *entry, uint32_t id)
{
    uint32_t next, n = d3d12xs_spirv_len(entry);
    d3d12xs_spirv_inst_string(entry, 3, NULL, &next);
    for (uint32_t k = next; k < n; k++)
        if (entry->w[k] == id)
            return true;
    return false;
}

static HRESULT reflect_module(struct reflect *r, struct d3d12xs_shader_info *info)
{
    const struct d3d12xs_spirv_inst *entry = NULL, *inst;
    uint32_t entry_id;
    size_t capacity = 0;
    HRESULT hr;

    if (FAILED(hr = read_annotations(r)) || FAILED(hr = read_preamble(r, info, &entry)))
        return hr;
    if (!entry)
        return reflect_fail(r, "the SPIR-V module has no entry point");
    entry_id = entry->w[2];
    {
        const char *name = (const char *)&entry->w[3];
        if (strlen(name) >= sizeof(info->entry_point))
            return reflect_fail(r, "entry point name '%.40s...' is longer than %zu bytes", name,
                    sizeof(info->entry_point) - 1);
        strcpy(info->entry_point, name);
    }
    switch (entry->w[1]) {
    case SpvExecutionModelGLCompute: info->stage = VK_SHADER_STAGE_COMPUTE_BIT; break;
    case SpvExecutionModelVertex: info->stage = VK_SHADER_STAGE_VERTEX_BIT; break;
    case SpvExecutionModelTessellationControl: info->stage = VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT; break;
    case SpvExecutionModelTessellationEvaluation: info->stage = VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT; break;
    case SpvExecutionModelGeometry: info->stage = VK_SHADER_STAGE_GEOMETRY_BIT; break;
    case SpvExecutionModelFragment: info->stage = VK_SHADER_STAGE_FRAGMENT_BIT; break;
    default:
        return reflect_fail(r, "entry point '%s' has execution model %u, which is not supported",
                info->entry_point, entry->w[1]);
    }

    /* numthreads, as LocalSize, LocalSizeId or the WorkgroupSize built-in */
    for (D3D12XS_SPIRV_EACH(r->m, D3D12XS_SPIRV_EXECUTION_MODES, i, inst)) {
        const uint32_t *w = inst->w;
        uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst);
        if (n < 3)
            return reflect_fail(r, "malformed OpExecutionMode at word %u", inst->offset);
        if (w[1] != entry_id)
            continue;
        if (op == SpvOpExecutionMode && w[2] == SpvExecutionModeLocalSize) {
            if (n < 6)
                return reflect_fail(r, "malformed LocalSize at word %u", inst->offset);
            memcpy(info->local_size, &w[3], sizeof(info->local_size));
        } else if (w[2] == SpvExecutionModeLocalSizeId) {
            if (n < 6)
                return reflect_fail(r, "malformed LocalSizeId at word %u", inst->offset);
            for (unsigned k = 0; k < 3; k++)
                if (!constant_value(r, w[3 + k], &info->local_size[k]))
                    return reflect_fail(r, "LocalSizeId operand %u is not a 32-bit integer constant", k);
        }
    }
    for (D3D12XS_SPIRV_EACH(r->m, D3D12XS_SPIRV_GLOBALS, i, inst)) {
        const uint32_t *w = inst->w;
        uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst);
        if ((op == SpvOpConstantComposite || op == SpvOpSpecConstantComposite) && n >= 6 && w[2] < r->bound
                && r->ids[w[2]].workgroup_size) {
            for (unsigned k = 0; k < 3; k++) {
                const struct d3d12xs_spirv_inst *c = d3d12xs_spirv_def(r->m, w[3 + k]);
                if (!c || (d3d12xs_spirv_op(c) != SpvOpConstant && d3d12xs_spirv_op(c) != SpvOpSpecConstant)
                        || d3d12xs_spirv_len(c) != 4)
                    return reflect_fail(r, "WorkgroupSize component %u is not a 32-bit integer constant", k);
                info->local_size[k] = c->w[3];
            }
        } else if (op == SpvOpVariable) {
            struct d3d12xs_shader_binding binding;
            if (n < 4)
                return reflect_fail(r, "malformed OpVariable at word %u", inst->offset);
            /* SPIR-V 1.4: the global variables the entry point uses are in its interface */
            if (r->m->version >= 0x10400u && !in_interface(entry, w[2]))
                continue;
            if ((hr = reflect_variable(r, inst, &binding)) != S_OK) {
                if (FAILED(hr))
                    return hr;
                continue;
            }
            if (FAILED(hr = add_binding(r, info, &binding, &capacity)))
                return hr;
        }
    }
    if (info->stage == VK_SHADER_STAGE_COMPUTE_BIT
            && (!info->local_size[0] || !info->local_size[1] || !info->local_size[2]))
        return reflect_fail(r, "compute entry point '%s' has no (or a zero) thread group size", info->entry_point);
    return S_OK;
}

HRESULT d3d12xs_spirv_reflect_module(const struct d3d12xs_spirv_module *m, struct d3d12xs_shader_info *info,
        char *error, size_t error_size)
{
    struct reflect r;
    HRESULT hr;

    if (error && error_size)
        error[0] = 0;
    memset(info, 0, sizeof(*info));
    memset(&r, 0, sizeof(r));
    r.m = m;
    r.bound = m->bound;
    r.error = error;
    r.error_size = error_size;
    if (!(r.ids = calloc(r.bound, sizeof(*r.ids))))
        return E_OUTOFMEMORY;
    info->wave_size = 64;
    hr = reflect_module(&r, info);
    free(r.ids);
    if (FAILED(hr)) {
        d3d12xs_shader_info_cleanup(info);
        return hr;
    }
    return S_OK;
}

HRESULT d3d12xs_spirv_reflect(const void *code, size_t size, struct d3d12xs_shader_info *info,
        char *error, size_t error_size)
{
    struct d3d12xs_spirv_module *m;
    HRESULT hr;

    memset(info, 0, sizeof(*info));
    if (FAILED(hr = d3d12xs_spirv_module_parse(code, size, &m, error, error_size)))
        return hr;
    hr = d3d12xs_spirv_reflect_module(m, info, error, error_size);
    d3d12xs_spirv_module_destroy(m);
    return hr;
}

void d3d12xs_shader_info_cleanup(struct d3d12xs_shader_info *info)
{
    free(info->bindings);
    free(info->capabilities);
    memset(info, 0, sizeof(*info));
}
