/* SPIR-V reflection: entry point, numthreads, wave size marker and the resource variables
 * with their HLSL registers (see the encoding in spirv.h). The module comes from the
 * application, so every word read is bounds-checked. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "common/log.h"
#include "shaders/spirv.h"

#define MAX_IDS (1u << 22)
#define MAX_BINDINGS 4096u
#define MAX_TYPE_DEPTH 16
#define MAX_CAPABILITIES 1024u

HRESULT d3d12xs_spirv_error(HRESULT hr, char *error, size_t error_size, const char *fmt, ...)
{
    va_list args;
    if (error && error_size) {
        va_start(args, fmt);
        vsnprintf(error, error_size, fmt, args);
        va_end(args);
    }
    return hr;
}

bool d3d12xs_spirv_is_preamble_or_debug(uint32_t op)
{
    switch (op) {
    case SpvOpCapability: case SpvOpExtension: case SpvOpExtInstImport: case SpvOpMemoryModel:
    case SpvOpEntryPoint: case SpvOpExecutionMode: case SpvOpExecutionModeId:
    case SpvOpString: case SpvOpSource: case SpvOpSourceContinued: case SpvOpSourceExtension:
    case SpvOpName: case SpvOpMemberName: case SpvOpModuleProcessed:
        return true;
    default:
        return false;
    }
}

bool d3d12xs_spirv_is_annotation(uint32_t op)
{
    switch (op) {
    case SpvOpDecorate: case SpvOpMemberDecorate: case SpvOpDecorationGroup: case SpvOpGroupDecorate:
    case SpvOpGroupMemberDecorate: case SpvOpDecorateId: case SpvOpDecorateString: case SpvOpMemberDecorateString:
        return true;
    default:
        return false;
    }
}

bool d3d12xs_spirv_string(const uint32_t *words, size_t at, size_t end, const char **string, size_t *next)
{
    for (size_t i = at; i < end; i++) {
        uint32_t word = words[i];
        /* little-endian packing: the NUL may be in any byte of the last word */
        if (!(word & 0xff) || !(word & 0xff00) || !(word & 0xff0000) || !(word & 0xff000000)) {
            if (string)
                *string = (const char *)&words[at];
            if (next)
                *next = i + 1;
            return true;
        }
    }
    return false;
}

HRESULT d3d12xs_spirv_load(const void *code, size_t size, uint32_t **out_words, size_t *out_count,
        char *error, size_t error_size)
{
    const unsigned char *bytes = code;
    uint32_t *words;
    size_t count, offset;

    *out_words = NULL;
    *out_count = 0;
    if (!code || !size)
        return d3d12xs_spirv_error(E_INVALIDARG, error, error_size, "no bytecode (NULL or 0 bytes)");
    if (size >= 4 && (!memcmp(bytes, "DXBC", 4) || !memcmp(bytes, "DXIL", 4) || !memcmp(bytes, "BC\xc0\xde", 4)))
        return d3d12xs_spirv_error(E_INVALIDARG, error, error_size, "%s", D3D12XS_DXBC_UNSUPPORTED_MESSAGE);
    if (size >= 4) {
        uint32_t magic;
        memcpy(&magic, bytes, 4);
        if (magic == 0x03022307u)
            return d3d12xs_spirv_error(E_INVALIDARG, error, error_size,
                    "big-endian SPIR-V is not supported: pass the module in little-endian words");
        if (magic != SpvMagicNumber)
            return d3d12xs_spirv_error(E_INVALIDARG, error, error_size,
                    "not SPIR-V (magic 0x%08x, expected 0x%08x); %s", magic, SpvMagicNumber,
                    D3D12XS_DXBC_UNSUPPORTED_MESSAGE);
    }
    if (size % 4)
        return d3d12xs_spirv_error(E_INVALIDARG, error, error_size,
                "SPIR-V size %zu is not a multiple of 4 bytes", size);
    if (size < 5 * 4)
        return d3d12xs_spirv_error(E_INVALIDARG, error, error_size,
                "SPIR-V module of %zu bytes is shorter than its 20-byte header", size);
    count = size / 4;
    if (!(words = malloc(size)))
        return E_OUTOFMEMORY;
    memcpy(words, code, size);

    if ((words[1] & 0xff0000ffu) || words[1] < 0x10000u || words[1] > 0x10600u) {
        uint32_t version = words[1];
        free(words);
        return d3d12xs_spirv_error(E_INVALIDARG, error, error_size,
                "unsupported SPIR-V version 0x%08x (1.0 to 1.6 are)", version);
    }
    if (!words[3] || words[3] > MAX_IDS) {
        uint32_t bound = words[3];
        free(words);
        return d3d12xs_spirv_error(E_INVALIDARG, error, error_size,
                "SPIR-V id bound %u is out of range (1 to %u)", bound, MAX_IDS);
    }
    for (offset = 5; offset < count;) {
        uint32_t length = words[offset] >> 16;
        if (!length || length > count - offset) {
            uint32_t opcode = words[offset] & 0xffff;
            free(words);
            return d3d12xs_spirv_error(E_INVALIDARG, error, error_size,
                    "SPIR-V instruction at word %zu (opcode %u) has word count %u, %s", offset, opcode, length,
                    length ? "which runs past the end of the module (truncated?)" : "which is invalid");
        }
        offset += length;
    }
    *out_words = words;
    *out_count = count;
    return S_OK;
}

struct id_entry {
    uint32_t def; /* word offset of the instruction defining the id; 0: none */
    uint32_t set, binding, array_stride;
    bool has_set, has_binding, has_array_stride, block, buffer_block, workgroup_size;
};

struct reflect {
    const uint32_t *w;
    size_t count;
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

/* The defining instruction of id, or 0 when id is out of range or undefined. */
static uint32_t def_of(const struct reflect *r, uint32_t id)
{
    return id < r->bound ? r->ids[id].def : 0;
}

static uint32_t op_of(const struct reflect *r, uint32_t offset)
{
    return r->w[offset] & 0xffff;
}

static uint32_t len_of(const struct reflect *r, uint32_t offset)
{
    return r->w[offset] >> 16;
}

/* Value of a 32-bit integer OpConstant. */
static bool constant_value(const struct reflect *r, uint32_t id, uint32_t *value)
{
    uint32_t def = def_of(r, id), type;
    if (!def || op_of(r, def) != SpvOpConstant || len_of(r, def) != 4)
        return false;
    type = def_of(r, r->w[def + 1]);
    if (!type || op_of(r, type) != SpvOpTypeInt || len_of(r, type) < 4 || r->w[type + 2] != 32)
        return false;
    *value = r->w[def + 3];
    return true;
}

static bool member_decoration(const struct reflect *r, uint32_t struct_id, uint32_t member,
        SpvDecoration decoration, uint32_t *value)
{
    for (size_t o = 5; o < r->count; o += len_of(r, o)) {
        uint32_t op = op_of(r, o), n = len_of(r, o);
        if (op == SpvOpFunction)
            break;
        if (op == SpvOpMemberDecorate && n >= 4 && r->w[o + 1] == struct_id && r->w[o + 2] == member
                && r->w[o + 3] == (uint32_t)decoration) {
            if (value)
                *value = n >= 5 ? r->w[o + 4] : 0;
            return true;
        }
    }
    return false;
}

static HRESULT type_size(struct reflect *r, uint32_t type_id, uint32_t matrix_stride, bool row_major,
        unsigned depth, uint64_t *size);

static HRESULT struct_size(struct reflect *r, uint32_t def, unsigned depth, uint64_t *size)
{
    uint32_t struct_id = r->w[def + 1], n = len_of(r, def);
    uint64_t end = 0;

    for (uint32_t m = 0; m + 2 < n; m++) {
        uint32_t offset, stride = 0;
        uint64_t member_size;
        HRESULT hr;
        if (!member_decoration(r, struct_id, m, SpvDecorationOffset, &offset))
            return reflect_fail(r, "member %u of struct %u has no Offset decoration", m, struct_id);
        member_decoration(r, struct_id, m, SpvDecorationMatrixStride, &stride);
        if (FAILED(hr = type_size(r, r->w[def + 2 + m], stride,
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
    uint32_t def = def_of(r, type_id), n, length;
    uint64_t element;
    HRESULT hr;

    if (depth > MAX_TYPE_DEPTH)
        return reflect_fail(r, "types nest deeper than %u levels", MAX_TYPE_DEPTH);
    if (++r->type_visits > 4096)
        return reflect_fail(r, "cbuffer types are too complex");
    if (!def)
        return reflect_fail(r, "type %u is not defined", type_id);
    n = len_of(r, def);
    switch (op_of(r, def)) {
    case SpvOpTypeBool:
        *size = 4;
        return S_OK;
    case SpvOpTypeInt:
    case SpvOpTypeFloat:
        if (n < 3 || r->w[def + 2] < 8 || r->w[def + 2] > 64)
            return reflect_fail(r, "malformed scalar type %u", type_id);
        *size = r->w[def + 2] / 8;
        return S_OK;
    case SpvOpTypeVector:
        if (n < 4 || r->w[def + 3] > 16)
            return reflect_fail(r, "malformed vector type %u", type_id);
        if (FAILED(hr = type_size(r, r->w[def + 2], 0, false, depth + 1, &element)))
            return hr;
        *size = element * r->w[def + 3];
        return S_OK;
    case SpvOpTypeMatrix: {
        uint32_t column = def_of(r, r->w[def + 2]), columns, rows;
        uint64_t scalar;
        if (n < 4 || !column || op_of(r, column) != SpvOpTypeVector || len_of(r, column) < 4
                || !(columns = r->w[def + 3]) || columns > 16 || !(rows = r->w[column + 3]) || rows > 16)
            return reflect_fail(r, "malformed matrix type %u", type_id);
        if (FAILED(hr = type_size(r, r->w[column + 2], 0, false, depth + 1, &scalar)))
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
        if (n < 4 || !constant_value(r, r->w[def + 3], &length) || !length)
            return reflect_fail(r, "array type %u has no constant length", type_id);
        if (FAILED(hr = type_size(r, r->w[def + 2], matrix_stride, row_major, depth + 1, &element)))
            return hr;
        if (!r->ids[type_id].has_array_stride)
            return reflect_fail(r, "array type %u in a block has no ArrayStride decoration", type_id);
        *size = (uint64_t)(length - 1) * r->ids[type_id].array_stride + element;
        return S_OK;
    case SpvOpTypeStruct:
        return struct_size(r, def, depth, size);
    default:
        return reflect_fail(r, "type %u (opcode %u) cannot be in a cbuffer", type_id, op_of(r, def));
    }
}

static bool defines_id(uint32_t op, uint32_t n, uint32_t *result_index)
{
    switch (op) {
    case SpvOpTypeVoid: case SpvOpTypeBool: case SpvOpTypeInt: case SpvOpTypeFloat: case SpvOpTypeVector:
    case SpvOpTypeMatrix: case SpvOpTypeImage: case SpvOpTypeSampler: case SpvOpTypeSampledImage:
    case SpvOpTypeArray: case SpvOpTypeRuntimeArray: case SpvOpTypeStruct: case SpvOpTypeOpaque:
    case SpvOpTypePointer: case SpvOpTypeFunction: case SpvOpTypeAccelerationStructureKHR:
        *result_index = 1;
        return n >= 2;
    case SpvOpConstantTrue: case SpvOpConstantFalse: case SpvOpConstant: case SpvOpConstantComposite:
    case SpvOpConstantNull: case SpvOpSpecConstantTrue: case SpvOpSpecConstantFalse: case SpvOpSpecConstant:
    case SpvOpSpecConstantComposite: case SpvOpSpecConstantOp: case SpvOpVariable:
        *result_index = 2;
        return n >= 3;
    default:
        return false;
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
static HRESULT reflect_variable(struct reflect *r, uint32_t def, struct d3d12xs_shader_binding *b)
{
    uint32_t id = r->w[def + 2], storage = r->w[def + 3], pointer, pointee, pointee_def, op;
    const struct id_entry *entry;
    HRESULT hr;

    if (len_of(r, def) < 4)
        return reflect_fail(r, "OpVariable %u is malformed", id);
    if (storage != SpvStorageClassUniformConstant && storage != SpvStorageClassUniform
            && storage != SpvStorageClassStorageBuffer)
        return S_FALSE;
    pointer = def_of(r, r->w[def + 1]);
    if (!pointer || op_of(r, pointer) != SpvOpTypePointer || len_of(r, pointer) < 4 || r->w[pointer + 2] != storage)
        return reflect_fail(r, "variable %u does not have a pointer type of its storage class", id);
    memset(b, 0, sizeof(*b));
    b->variable_id = id;
    b->array_size = 1;
    pointee = r->w[pointer + 3];
    if (!(pointee_def = def_of(r, pointee)))
        return reflect_fail(r, "type %u of variable %u is not defined", pointee, id);
    op = op_of(r, pointee_def);
    if (op == SpvOpTypeArray) {
        if (len_of(r, pointee_def) < 4 || !constant_value(r, r->w[pointee_def + 3], &b->array_size) || !b->array_size)
            return reflect_fail(r, "resource array %u needs a constant 32-bit length", id);
    } else if (op == SpvOpTypeRuntimeArray) {
        if (len_of(r, pointee_def) < 3)
            return reflect_fail(r, "malformed runtime array type %u", pointee);
        b->array_size = 0;
    }
    if (op == SpvOpTypeArray || op == SpvOpTypeRuntimeArray) {
        pointee = r->w[pointee_def + 2];
        if (!(pointee_def = def_of(r, pointee)))
            return reflect_fail(r, "element type %u of variable %u is not defined", pointee, id);
        op = op_of(r, pointee_def);
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
        if (len_of(r, pointee_def) < 9 || storage != SpvStorageClassUniformConstant)
            return reflect_fail(r, "malformed image variable %u", id);
        if (r->w[pointee_def + 3] == SpvDimSubpassData)
            return reflect_fail(r, "variable %u is a subpass input, which has no D3D12 register", id);
        if (r->w[pointee_def + 7] != 1 && r->w[pointee_def + 7] != 2)
            return reflect_fail(r, "image variable %u must say whether it is sampled (Sampled 1) or storage (Sampled 2)", id);
        if (r->w[pointee_def + 3] == SpvDimBuffer)
            b->descriptor_type = r->w[pointee_def + 7] == 1 ? VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER
                    : VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
        else
            b->descriptor_type = r->w[pointee_def + 7] == 1 ? VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE
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

static HRESULT reflect_module(struct reflect *r, struct d3d12xs_shader_info *info)
{
    uint32_t entry_offset = 0, entry_id = 0, version = r->w[1];
    size_t capacity = 0, o;
    bool in_functions = false;
    HRESULT hr;

    /* Pass 1: definitions, decorations, the entry point. */
    for (o = 5; o < r->count; o += len_of(r, o)) {
        uint32_t op = op_of(r, o), n = len_of(r, o), result_index, target;

        if (op == SpvOpFunction)
            in_functions = true;
        if (!in_functions && defines_id(op, n, &result_index)) {
            uint32_t id = r->w[o + result_index];
            if (!id || id >= r->bound)
                return reflect_fail(r, "id %u at word %zu is outside the bound %u", id, o, r->bound);
            if (r->ids[id].def)
                return reflect_fail(r, "id %u is defined twice", id);
            r->ids[id].def = (uint32_t)o;
        }
        switch (op) {
        case SpvOpCapability: {
            uint32_t *capabilities;
            if (n < 2)
                return reflect_fail(r, "malformed OpCapability at word %zu", o);
            if (info->capability_count >= MAX_CAPABILITIES)
                return reflect_fail(r, "more than %u OpCapability instructions", MAX_CAPABILITIES);
            if (!(capabilities = realloc(info->capabilities, (info->capability_count + 1) * sizeof(*capabilities))))
                return E_OUTOFMEMORY;
            info->capabilities = capabilities;
            info->capabilities[info->capability_count++] = r->w[o + 1];
            break;
        }
        case SpvOpEntryPoint:
            if (n < 4 || !d3d12xs_spirv_string(r->w, o + 3, o + n, NULL, NULL))
                return reflect_fail(r, "malformed OpEntryPoint at word %zu", o);
            if (!entry_offset || (r->w[entry_offset + 1] != SpvExecutionModelGLCompute
                    && r->w[o + 1] == SpvExecutionModelGLCompute))
                entry_offset = (uint32_t)o;
            break;
        case SpvOpDecorate:
            if (n < 3 || (target = r->w[o + 1]) >= r->bound)
                return reflect_fail(r, "malformed OpDecorate at word %zu", o);
            switch (r->w[o + 2]) {
            case SpvDecorationDescriptorSet:
            case SpvDecorationBinding:
            case SpvDecorationArrayStride:
            case SpvDecorationBuiltIn:
                if (n < 4)
                    return reflect_fail(r, "malformed OpDecorate at word %zu", o);
                if (r->w[o + 2] == SpvDecorationDescriptorSet) {
                    r->ids[target].has_set = true;
                    r->ids[target].set = r->w[o + 3];
                } else if (r->w[o + 2] == SpvDecorationBinding) {
                    r->ids[target].has_binding = true;
                    r->ids[target].binding = r->w[o + 3];
                } else if (r->w[o + 2] == SpvDecorationArrayStride) {
                    r->ids[target].has_array_stride = true;
                    r->ids[target].array_stride = r->w[o + 3];
                } else if (r->w[o + 3] == SpvBuiltInWorkgroupSize) {
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
            break;
        case SpvOpModuleProcessed: {
            const char *string;
            if (n < 2 || !d3d12xs_spirv_string(r->w, o + 1, o + n, &string, NULL))
                return reflect_fail(r, "malformed OpModuleProcessed at word %zu", o);
            if (!strcmp(string, D3D12XS_SPIRV_WAVE32_MARKER))
                info->wave_size = 32;
            break;
        }
        }
    }

    if (!entry_offset)
        return reflect_fail(r, "the SPIR-V module has no entry point");
    entry_id = r->w[entry_offset + 2];
    {
        const char *name = (const char *)&r->w[entry_offset + 3];
        if (strlen(name) >= sizeof(info->entry_point))
            return reflect_fail(r, "entry point name '%.40s...' is longer than %zu bytes", name,
                    sizeof(info->entry_point) - 1);
        strcpy(info->entry_point, name);
    }
    switch (r->w[entry_offset + 1]) {
    case SpvExecutionModelGLCompute: info->stage = VK_SHADER_STAGE_COMPUTE_BIT; break;
    case SpvExecutionModelVertex: info->stage = VK_SHADER_STAGE_VERTEX_BIT; break;
    case SpvExecutionModelTessellationControl: info->stage = VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT; break;
    case SpvExecutionModelTessellationEvaluation: info->stage = VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT; break;
    case SpvExecutionModelGeometry: info->stage = VK_SHADER_STAGE_GEOMETRY_BIT; break;
    case SpvExecutionModelFragment: info->stage = VK_SHADER_STAGE_FRAGMENT_BIT; break;
    default:
        return reflect_fail(r, "entry point '%s' has execution model %u, which is not supported",
                info->entry_point, r->w[entry_offset + 1]);
    }

    /* Pass 2: numthreads, the resource variables. */
    in_functions = false;
    for (o = 5; o < r->count && !in_functions; o += len_of(r, o)) {
        uint32_t op = op_of(r, o), n = len_of(r, o);
        switch (op) {
        case SpvOpFunction:
            in_functions = true;
            break;
        case SpvOpExecutionMode:
        case SpvOpExecutionModeId:
            if (n < 3)
                return reflect_fail(r, "malformed OpExecutionMode at word %zu", o);
            if (r->w[o + 1] != entry_id)
                break;
            if (op == SpvOpExecutionMode && r->w[o + 2] == SpvExecutionModeLocalSize) {
                if (n < 6)
                    return reflect_fail(r, "malformed LocalSize at word %zu", o);
                memcpy(info->local_size, &r->w[o + 3], sizeof(info->local_size));
            } else if (r->w[o + 2] == SpvExecutionModeLocalSizeId) {
                if (n < 6)
                    return reflect_fail(r, "malformed LocalSizeId at word %zu", o);
                for (unsigned i = 0; i < 3; i++)
                    if (!constant_value(r, r->w[o + 3 + i], &info->local_size[i]))
                        return reflect_fail(r, "LocalSizeId operand %u is not a 32-bit integer constant", i);
            }
            break;
        case SpvOpConstantComposite:
        case SpvOpSpecConstantComposite:
            if (n >= 6 && r->w[o + 2] < r->bound && r->ids[r->w[o + 2]].workgroup_size) {
                for (unsigned i = 0; i < 3; i++) {
                    uint32_t c = def_of(r, r->w[o + 3 + i]);
                    if (!c || (op_of(r, c) != SpvOpConstant && op_of(r, c) != SpvOpSpecConstant) || len_of(r, c) != 4)
                        return reflect_fail(r, "WorkgroupSize component %u is not a 32-bit integer constant", i);
                    info->local_size[i] = r->w[c + 3];
                }
            }
            break;
        case SpvOpVariable: {
            struct d3d12xs_shader_binding binding;
            if (n < 4)
                return reflect_fail(r, "malformed OpVariable at word %zu", o);
            if (version >= 0x10400u) {
                /* global variables the entry point uses are in its interface */
                size_t next, en = len_of(r, entry_offset), k;
                d3d12xs_spirv_string(r->w, entry_offset + 3, entry_offset + en, NULL, &next);
                for (k = next; k < entry_offset + en; k++)
                    if (r->w[k] == r->w[o + 2])
                        break;
                if (k == entry_offset + en)
                    break;
            }
            if ((hr = reflect_variable(r, (uint32_t)o, &binding)) != S_OK) {
                if (FAILED(hr))
                    return hr;
                break;
            }
            for (uint32_t i = 0; i < info->binding_count; i++) {
                struct d3d12xs_shader_binding *other = &info->bindings[i];
                if (other->register_class != binding.register_class || other->space != binding.space
                        || other->register_index != binding.register_index)
                    continue;
                /* two views of one storage buffer (spirv_vectorize.c) */
                if (!other->alias_variable_id && other->descriptor_type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
                        && binding.descriptor_type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER && other->array_size == binding.array_size) {
                    other->alias_variable_id = binding.variable_id;
                    binding.variable_id = 0;
                    break;
                }
                return reflect_fail(r, "variables %u and %u both use register %s%u, space%u", other->variable_id,
                            binding.variable_id, class_letter(binding.register_class), binding.register_index,
                            binding.space);
            }
            if (!binding.variable_id)
                break;
            if (info->binding_count >= MAX_BINDINGS)
                return reflect_fail(r, "more than %u resource variables", MAX_BINDINGS);
            if (info->binding_count == capacity) {
                size_t new_capacity = capacity ? capacity * 2 : 8;
                struct d3d12xs_shader_binding *bindings = realloc(info->bindings, new_capacity * sizeof(*bindings));
                if (!bindings)
                    return E_OUTOFMEMORY;
                info->bindings = bindings;
                capacity = new_capacity;
            }
            info->bindings[info->binding_count++] = binding;
            break;
        }
        }
    }
    if (info->stage == VK_SHADER_STAGE_COMPUTE_BIT
            && (!info->local_size[0] || !info->local_size[1] || !info->local_size[2]))
        return reflect_fail(r, "compute entry point '%s' has no (or a zero) thread group size", info->entry_point);
    return S_OK;
}

HRESULT d3d12xs_spirv_reflect(const void *code, size_t size, struct d3d12xs_shader_info *info,
        char *error, size_t error_size)
{
    struct reflect r;
    uint32_t *words;
    size_t count;
    HRESULT hr;

    if (error && error_size)
        error[0] = 0;
    memset(info, 0, sizeof(*info));
    if (FAILED(hr = d3d12xs_spirv_load(code, size, &words, &count, error, error_size)))
        return hr;
    memset(&r, 0, sizeof(r));
    r.w = words;
    r.count = count;
    r.bound = words[3];
    r.error = error;
    r.error_size = error_size;
    if (!(r.ids = calloc(r.bound, sizeof(*r.ids)))) {
        free(words);
        return E_OUTOFMEMORY;
    }
    info->wave_size = 64;
    hr = reflect_module(&r, info);
    free(r.ids);
    free(words);
    if (FAILED(hr)) {
        d3d12xs_shader_info_cleanup(info);
        return hr;
    }
    return S_OK;
}

void d3d12xs_shader_info_cleanup(struct d3d12xs_shader_info *info)
{
    free(info->bindings);
    free(info->capabilities);
    memset(info, 0, sizeof(*info));
}
