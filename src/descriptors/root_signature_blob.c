/* Root signature descriptions and their serialized form: a DXBC container with one RTS0 part.
 *
 * RTS0 layout (little-endian uint32 words; offsets count from the start of the part):
 *   header      Version (1 = 1.0, 2 = 1.1), NumParameters, ParametersOffset,
 *               NumStaticSamplers, StaticSamplersOffset, Flags
 *   parameter   ParameterType, ShaderVisibility, PayloadOffset
 *   payloads    table: NumDescriptorRanges, DescriptorRangesOffset
 *               range 1.0: RangeType, NumDescriptors, BaseShaderRegister, RegisterSpace, Offset
 *               range 1.1: RangeType, NumDescriptors, BaseShaderRegister, RegisterSpace, Flags, Offset
 *               constants: ShaderRegister, RegisterSpace, Num32BitValues
 *               root descriptor: ShaderRegister, RegisterSpace (1.1: Flags)
 *   sampler     the 13 fields of D3D12_STATIC_SAMPLER_DESC in order
 * We write header, parameters, then each parameter's payload in order (a table's ranges right
 * after its header), then the static samplers: the layout Microsoft's compilers produce. */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "d3d12_x.h"
#include "common/log.h"
#include "descriptors/root_signature_blob.h"

#define RS_FOURCC(a, b, c, d) ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)
#define RS_TAG_DXBC RS_FOURCC('D', 'X', 'B', 'C')
#define RS_TAG_RTS0 RS_FOURCC('R', 'T', 'S', '0')

#define RS_CONTAINER_HEADER_SIZE 32u /* magic, checksum, version, size, part count */
#define RS_HEADER_SIZE 24u
#define RS_PARAMETER_SIZE 12u
#define RS_TABLE_SIZE 8u
#define RS_CONSTANTS_SIZE 12u
#define RS_SAMPLER_SIZE 52u
#define RS_MAX_ROOT_COST 64u
#define RS_RESERVED_SPACE_FIRST 0xfffffff0u

#define RS_KNOWN_FLAGS (0xfffu | D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI \
        | D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_COMPUTE_2_SPILL_AREA)
#define RS_RANGE_DATA_FLAGS (D3D12_DESCRIPTOR_RANGE_FLAG_DATA_VOLATILE \
        | D3D12_DESCRIPTOR_RANGE_FLAG_DATA_STATIC_WHILE_SET_AT_EXECUTE | D3D12_DESCRIPTOR_RANGE_FLAG_DATA_STATIC)
#define RS_RANGE_KNOWN_FLAGS (D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_VOLATILE | RS_RANGE_DATA_FLAGS \
        | D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS)
#define RS_ROOT_DESCRIPTOR_KNOWN_FLAGS (D3D12_ROOT_DESCRIPTOR_FLAG_DATA_VOLATILE \
        | D3D12_ROOT_DESCRIPTOR_FLAG_DATA_STATIC_WHILE_SET_AT_EXECUTE | D3D12_ROOT_DESCRIPTOR_FLAG_DATA_STATIC)

static HRESULT rs_error(HRESULT hr, char *error, size_t error_size, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static HRESULT rs_error(HRESULT hr, char *error, size_t error_size, const char *fmt, ...)
{
    va_list args;
    if (error && error_size) {
        va_start(args, fmt);
        vsnprintf(error, error_size, fmt, args);
        va_end(args);
    }
    return hr;
}

static bool rs_version_known(D3D_ROOT_SIGNATURE_VERSION version)
{
    return version == D3D_ROOT_SIGNATURE_VERSION_1_0 || version == D3D_ROOT_SIGNATURE_VERSION_1_1;
}

/* E_NOTIMPL for 1.2, E_INVALIDARG for the rest; field names the version argument. */
static HRESULT rs_version_error(D3D_ROOT_SIGNATURE_VERSION version, const char *field, char *error, size_t error_size)
{
    if (version == D3D_ROOT_SIGNATURE_VERSION_1_2)
        return rs_error(E_NOTIMPL, error, error_size, "%s is 1_2 (root signature 1.2 is not implemented; use 1_0 or 1_1)", field);
    return rs_error(E_INVALIDARG, error, error_size, "%s is %d (must be 1_0 or 1_1)", field, (int)version);
}

static const char *rs_range_type_name(uint32_t type)
{
    static const char *const names[] = {"SRV", "UAV", "CBV", "SAMPLER"};
    return type < 4 ? names[type] : "?";
}

static char rs_register_letter(uint32_t type)
{
    return type < 4 ? "tubs"[type] : '?';
}

static const char *rs_visibility_name(uint32_t visibility)
{
    static const char *const names[] = {"ALL", "VERTEX", "HULL", "DOMAIN", "GEOMETRY", "PIXEL", "AMPLIFICATION", "MESH"};
    return visibility < 8 ? names[visibility] : "?";
}

/* ---- a version-independent view of a description ---- */

struct rs_view {
    D3D_ROOT_SIGNATURE_VERSION version; /* 1_0 or 1_1 */
    UINT param_count;
    const void *params;
    UINT sampler_count;
    const D3D12_STATIC_SAMPLER_DESC *samplers;
    UINT flags;
};

struct rs_param {
    uint32_t type, visibility;
    uint32_t range_count; /* tables */
    const void *ranges;
    uint32_t shader_register, register_space, value_count; /* constants, root descriptors */
    uint32_t flags;       /* root descriptors (1.1) */
};

static void rs_view_init(struct rs_view *view, const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc)
{
    view->version = desc->Version;
    if (desc->Version == D3D_ROOT_SIGNATURE_VERSION_1_0) {
        view->param_count = desc->Desc_1_0.NumParameters;
        view->params = desc->Desc_1_0.pParameters;
        view->sampler_count = desc->Desc_1_0.NumStaticSamplers;
        view->samplers = desc->Desc_1_0.pStaticSamplers;
        view->flags = desc->Desc_1_0.Flags;
    } else {
        view->param_count = desc->Desc_1_1.NumParameters;
        view->params = desc->Desc_1_1.pParameters;
        view->sampler_count = desc->Desc_1_1.NumStaticSamplers;
        view->samplers = desc->Desc_1_1.pStaticSamplers;
        view->flags = desc->Desc_1_1.Flags;
    }
}

static bool rs_is_root_descriptor(uint32_t type)
{
    return type == D3D12_ROOT_PARAMETER_TYPE_CBV || type == D3D12_ROOT_PARAMETER_TYPE_SRV
            || type == D3D12_ROOT_PARAMETER_TYPE_UAV;
}

static void rs_get_param(const struct rs_view *view, UINT i, struct rs_param *p)
{
    memset(p, 0, sizeof(*p));
    if (view->version == D3D_ROOT_SIGNATURE_VERSION_1_0) {
        const D3D12_ROOT_PARAMETER *src = &((const D3D12_ROOT_PARAMETER *)view->params)[i];
        p->type = src->ParameterType;
        p->visibility = src->ShaderVisibility;
        if (p->type == D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE) {
            p->range_count = src->DescriptorTable.NumDescriptorRanges;
            p->ranges = src->DescriptorTable.pDescriptorRanges;
        } else if (p->type == D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS) {
            p->shader_register = src->Constants.ShaderRegister;
            p->register_space = src->Constants.RegisterSpace;
            p->value_count = src->Constants.Num32BitValues;
        } else if (rs_is_root_descriptor(p->type)) {
            p->shader_register = src->Descriptor.ShaderRegister;
            p->register_space = src->Descriptor.RegisterSpace;
        }
    } else {
        const D3D12_ROOT_PARAMETER1 *src = &((const D3D12_ROOT_PARAMETER1 *)view->params)[i];
        p->type = src->ParameterType;
        p->visibility = src->ShaderVisibility;
        if (p->type == D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE) {
            p->range_count = src->DescriptorTable.NumDescriptorRanges;
            p->ranges = src->DescriptorTable.pDescriptorRanges;
        } else if (p->type == D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS) {
            p->shader_register = src->Constants.ShaderRegister;
            p->register_space = src->Constants.RegisterSpace;
            p->value_count = src->Constants.Num32BitValues;
        } else if (rs_is_root_descriptor(p->type)) {
            p->shader_register = src->Descriptor.ShaderRegister;
            p->register_space = src->Descriptor.RegisterSpace;
            p->flags = src->Descriptor.Flags;
        }
    }
}

/* Range j of a table as a 1.1 range (flags 0 for 1.0). */
static void rs_get_range(D3D_ROOT_SIGNATURE_VERSION version, const void *ranges, UINT j, D3D12_DESCRIPTOR_RANGE1 *r)
{
    if (version == D3D_ROOT_SIGNATURE_VERSION_1_0) {
        const D3D12_DESCRIPTOR_RANGE *src = &((const D3D12_DESCRIPTOR_RANGE *)ranges)[j];
        r->RangeType = src->RangeType;
        r->NumDescriptors = src->NumDescriptors;
        r->BaseShaderRegister = src->BaseShaderRegister;
        r->RegisterSpace = src->RegisterSpace;
        r->Flags = D3D12_DESCRIPTOR_RANGE_FLAG_NONE;
        r->OffsetInDescriptorsFromTableStart = src->OffsetInDescriptorsFromTableStart;
    } else {
        *r = ((const D3D12_DESCRIPTOR_RANGE1 *)ranges)[j];
    }
}

/* Arrays present where counts say so, parameter types known; counts the ranges. */
static HRESULT rs_check_structure(const struct rs_view *view, size_t *range_total, char *error, size_t error_size)
{
    struct rs_param p;

    *range_total = 0;
    if (view->param_count && !view->params)
        return rs_error(E_INVALIDARG, error, error_size, "pParameters is NULL (NumParameters is %u)", view->param_count);
    if (view->sampler_count && !view->samplers)
        return rs_error(E_INVALIDARG, error, error_size, "pStaticSamplers is NULL (NumStaticSamplers is %u)", view->sampler_count);
    for (UINT i = 0; i < view->param_count; i++) {
        rs_get_param(view, i, &p);
        if (p.type == D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE) {
            if (p.range_count && !p.ranges)
                return rs_error(E_INVALIDARG, error, error_size,
                        "pParameters[%u].DescriptorTable.pDescriptorRanges is NULL (NumDescriptorRanges is %u)", i, p.range_count);
            *range_total += p.range_count;
        } else if (p.type != D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS && !rs_is_root_descriptor(p.type)) {
            return rs_error(E_INVALIDARG, error, error_size,
                    "pParameters[%u].ParameterType is %u (must be DESCRIPTOR_TABLE, 32BIT_CONSTANTS, CBV, SRV or UAV)", i, p.type);
        }
    }
    return S_OK;
}

/* ---- building a description in one allocation ---- */

struct rs_builder {
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc;
    void *params;
    void *ranges;
    D3D12_STATIC_SAMPLER_DESC *samplers;
    size_t next_range;
};

static size_t rs_align(size_t size)
{
    return (size + 15) & ~(size_t)15;
}

static HRESULT rs_builder_init(struct rs_builder *b, D3D_ROOT_SIGNATURE_VERSION version, size_t param_count,
        size_t range_count, size_t sampler_count, UINT flags, char *error, size_t error_size)
{
    bool v10 = version == D3D_ROOT_SIGNATURE_VERSION_1_0;
    size_t param_size = v10 ? sizeof(D3D12_ROOT_PARAMETER) : sizeof(D3D12_ROOT_PARAMETER1);
    size_t range_size = v10 ? sizeof(D3D12_DESCRIPTOR_RANGE) : sizeof(D3D12_DESCRIPTOR_RANGE1);
    size_t params_at, ranges_at, samplers_at, total;
    char *memory;

    memset(b, 0, sizeof(*b));
    /* Counts are at most UINT_MAX each, so with a 64-bit size_t none of this overflows. */
    if (param_count > SIZE_MAX / 64 || range_count > SIZE_MAX / 64 || sampler_count > SIZE_MAX / 64)
        return rs_error(E_OUTOFMEMORY, error, error_size, "the root signature is too large to hold in memory");
    params_at = rs_align(sizeof(*b->desc));
    ranges_at = params_at + rs_align(param_count * param_size);
    samplers_at = ranges_at + rs_align(range_count * range_size);
    total = samplers_at + sampler_count * sizeof(D3D12_STATIC_SAMPLER_DESC);
    if (total < samplers_at || !(memory = calloc(1, total)))
        return rs_error(E_OUTOFMEMORY, error, error_size, "cannot allocate %zu bytes for the root signature description", total);

    b->desc = (D3D12_VERSIONED_ROOT_SIGNATURE_DESC *)memory;
    b->params = param_count ? memory + params_at : NULL;
    b->ranges = range_count ? memory + ranges_at : NULL;
    b->samplers = sampler_count ? (D3D12_STATIC_SAMPLER_DESC *)(memory + samplers_at) : NULL;
    b->desc->Version = version;
    if (v10) {
        b->desc->Desc_1_0.NumParameters = (UINT)param_count;
        b->desc->Desc_1_0.pParameters = b->params;
        b->desc->Desc_1_0.NumStaticSamplers = (UINT)sampler_count;
        b->desc->Desc_1_0.pStaticSamplers = b->samplers;
        b->desc->Desc_1_0.Flags = (D3D12_ROOT_SIGNATURE_FLAGS)flags;
    } else {
        b->desc->Desc_1_1.NumParameters = (UINT)param_count;
        b->desc->Desc_1_1.pParameters = b->params;
        b->desc->Desc_1_1.NumStaticSamplers = (UINT)sampler_count;
        b->desc->Desc_1_1.pStaticSamplers = b->samplers;
        b->desc->Desc_1_1.Flags = (D3D12_ROOT_SIGNATURE_FLAGS)flags;
    }
    return S_OK;
}

/* Sets parameter i; a table gets the next p->range_count ranges, returned in *first_range. */
static void rs_builder_param(struct rs_builder *b, UINT i, const struct rs_param *p, size_t *first_range)
{
    *first_range = b->next_range;
    if (b->desc->Version == D3D_ROOT_SIGNATURE_VERSION_1_0) {
        D3D12_ROOT_PARAMETER *dst = &((D3D12_ROOT_PARAMETER *)b->params)[i];
        dst->ParameterType = (D3D12_ROOT_PARAMETER_TYPE)p->type;
        dst->ShaderVisibility = (D3D12_SHADER_VISIBILITY)p->visibility;
        if (p->type == D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE) {
            dst->DescriptorTable.NumDescriptorRanges = p->range_count;
            dst->DescriptorTable.pDescriptorRanges = p->range_count ? &((D3D12_DESCRIPTOR_RANGE *)b->ranges)[b->next_range] : NULL;
            b->next_range += p->range_count;
        } else if (p->type == D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS) {
            dst->Constants.ShaderRegister = p->shader_register;
            dst->Constants.RegisterSpace = p->register_space;
            dst->Constants.Num32BitValues = p->value_count;
        } else {
            dst->Descriptor.ShaderRegister = p->shader_register;
            dst->Descriptor.RegisterSpace = p->register_space;
        }
    } else {
        D3D12_ROOT_PARAMETER1 *dst = &((D3D12_ROOT_PARAMETER1 *)b->params)[i];
        dst->ParameterType = (D3D12_ROOT_PARAMETER_TYPE)p->type;
        dst->ShaderVisibility = (D3D12_SHADER_VISIBILITY)p->visibility;
        if (p->type == D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE) {
            dst->DescriptorTable.NumDescriptorRanges = p->range_count;
            dst->DescriptorTable.pDescriptorRanges = p->range_count ? &((D3D12_DESCRIPTOR_RANGE1 *)b->ranges)[b->next_range] : NULL;
            b->next_range += p->range_count;
        } else if (p->type == D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS) {
            dst->Constants.ShaderRegister = p->shader_register;
            dst->Constants.RegisterSpace = p->register_space;
            dst->Constants.Num32BitValues = p->value_count;
        } else {
            dst->Descriptor.ShaderRegister = p->shader_register;
            dst->Descriptor.RegisterSpace = p->register_space;
            dst->Descriptor.Flags = (D3D12_ROOT_DESCRIPTOR_FLAGS)p->flags;
        }
    }
}

static void rs_builder_range(struct rs_builder *b, size_t index, const D3D12_DESCRIPTOR_RANGE1 *r)
{
    if (b->desc->Version == D3D_ROOT_SIGNATURE_VERSION_1_0) {
        D3D12_DESCRIPTOR_RANGE *dst = &((D3D12_DESCRIPTOR_RANGE *)b->ranges)[index];
        dst->RangeType = r->RangeType;
        dst->NumDescriptors = r->NumDescriptors;
        dst->BaseShaderRegister = r->BaseShaderRegister;
        dst->RegisterSpace = r->RegisterSpace;
        dst->OffsetInDescriptorsFromTableStart = r->OffsetInDescriptorsFromTableStart;
    } else {
        ((D3D12_DESCRIPTOR_RANGE1 *)b->ranges)[index] = *r;
    }
}

void d3d12xs_root_signature_desc_free(D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc)
{
    free(desc);
}

/* ---- parsing ---- */

static uint32_t rs_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

struct rs_reader {
    const uint8_t *data;
    size_t size;
};

/* Reads count words at offset; false when any of them lies outside the part. */
static bool rs_read(const struct rs_reader *r, uint64_t offset, uint32_t *words, unsigned count)
{
    if (offset > r->size || (uint64_t)count * 4 > r->size - offset)
        return false;
    for (unsigned i = 0; i < count; i++)
        words[i] = rs_le32(r->data + offset + 4 * i);
    return true;
}

static bool rs_fits(const struct rs_reader *r, uint64_t offset, uint64_t count, uint64_t element_size)
{
    return offset <= r->size && count * element_size <= r->size - offset;
}

/* Walks the parameters: counts the ranges (b NULL), or fills the description. */
static HRESULT rs_parse_params(const struct rs_reader *r, D3D_ROOT_SIGNATURE_VERSION version, uint32_t count, uint32_t offset,
        struct rs_builder *b, size_t *range_total, char *error, size_t error_size)
{
    const unsigned range_words = version == D3D_ROOT_SIGNATURE_VERSION_1_0 ? 5 : 6;
    const unsigned descriptor_words = version == D3D_ROOT_SIGNATURE_VERSION_1_0 ? 2 : 3;
    uint64_t total = 0;

    for (uint32_t i = 0; i < count; i++) {
        uint64_t at = (uint64_t)offset + (uint64_t)i * RS_PARAMETER_SIZE;
        uint32_t header[3], payload[3];
        struct rs_param p = {0};
        size_t first_range;

        if (!rs_read(r, at, header, 3))
            return rs_error(E_INVALIDARG, error, error_size, "pParameters[%u] at offset %llu runs past the end of the %zu-byte RTS0 part",
                    i, (unsigned long long)at, r->size);
        p.type = header[0];
        p.visibility = header[1];
        switch (p.type) {
        case D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE:
            if (!rs_read(r, header[2], payload, 2))
                return rs_error(E_INVALIDARG, error, error_size,
                        "pParameters[%u].DescriptorTable at offset %u runs past the end of the %zu-byte RTS0 part", i, header[2], r->size);
            p.range_count = payload[0];
            if (p.range_count && !rs_fits(r, payload[1], p.range_count, range_words * 4))
                return rs_error(E_INVALIDARG, error, error_size,
                        "pParameters[%u].DescriptorTable: %u ranges at offset %u run past the end of the %zu-byte RTS0 part",
                        i, p.range_count, payload[1], r->size);
            total += p.range_count;
            /* Each table has ranges of its own: refuse tables sharing bytes to claim more ranges
             * than the part holds (which would let a small blob demand a huge allocation). */
            if (total * range_words * 4 > r->size)
                return rs_error(E_INVALIDARG, error, error_size,
                        "the descriptor tables claim %llu ranges in all, more than the %zu-byte RTS0 part holds",
                        (unsigned long long)total, r->size);
            break;
        case D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS:
            if (!rs_read(r, header[2], payload, 3))
                return rs_error(E_INVALIDARG, error, error_size,
                        "pParameters[%u].Constants at offset %u runs past the end of the %zu-byte RTS0 part", i, header[2], r->size);
            p.shader_register = payload[0];
            p.register_space = payload[1];
            p.value_count = payload[2];
            break;
        case D3D12_ROOT_PARAMETER_TYPE_CBV:
        case D3D12_ROOT_PARAMETER_TYPE_SRV:
        case D3D12_ROOT_PARAMETER_TYPE_UAV:
            if (!rs_read(r, header[2], payload, descriptor_words))
                return rs_error(E_INVALIDARG, error, error_size,
                        "pParameters[%u].Descriptor at offset %u runs past the end of the %zu-byte RTS0 part", i, header[2], r->size);
            p.shader_register = payload[0];
            p.register_space = payload[1];
            p.flags = descriptor_words == 3 ? payload[2] : 0;
            break;
        default:
            return rs_error(E_INVALIDARG, error, error_size,
                    "pParameters[%u].ParameterType is %u (not a D3D12_ROOT_PARAMETER_TYPE; its payload cannot be read)", i, p.type);
        }
        if (!b)
            continue;
        rs_builder_param(b, i, &p, &first_range);
        for (uint32_t j = 0; j < p.range_count; j++) {
            uint32_t w[6] = {0};
            D3D12_DESCRIPTOR_RANGE1 range;
            rs_read(r, (uint64_t)payload[1] + (uint64_t)j * range_words * 4, w, range_words); /* checked above */
            range.RangeType = (D3D12_DESCRIPTOR_RANGE_TYPE)w[0];
            range.NumDescriptors = w[1];
            range.BaseShaderRegister = w[2];
            range.RegisterSpace = w[3];
            range.Flags = (D3D12_DESCRIPTOR_RANGE_FLAGS)(range_words == 6 ? w[4] : 0);
            range.OffsetInDescriptorsFromTableStart = w[range_words - 1];
            rs_builder_range(b, first_range + j, &range);
        }
    }
    *range_total = (size_t)total;
    return S_OK;
}

static HRESULT rs_parse_rts0(const struct rs_reader *r, D3D12_VERSIONED_ROOT_SIGNATURE_DESC **desc, char *error, size_t error_size)
{
    uint32_t header[6], version, param_count, param_offset, sampler_count, sampler_offset;
    struct rs_builder b;
    size_t range_total;
    HRESULT hr;

    if (!rs_read(r, 0, header, 6))
        return rs_error(E_INVALIDARG, error, error_size, "the RTS0 part is %zu bytes (its header alone needs %u)", r->size, RS_HEADER_SIZE);
    version = header[0];
    param_count = header[1];
    param_offset = header[2];
    sampler_count = header[3];
    sampler_offset = header[4];
    if (version == D3D_ROOT_SIGNATURE_VERSION_1_2)
        return rs_error(E_NOTIMPL, error, error_size, "the RTS0 part is version 1.2 (not implemented; serialize it as 1.0 or 1.1)");
    if (!rs_version_known((D3D_ROOT_SIGNATURE_VERSION)version))
        return rs_error(E_INVALIDARG, error, error_size, "the RTS0 version is %u (must be 1 for 1.0 or 2 for 1.1)", version);
    if (param_count && !rs_fits(r, param_offset, param_count, RS_PARAMETER_SIZE))
        return rs_error(E_INVALIDARG, error, error_size, "pParameters: %u parameters at offset %u run past the end of the %zu-byte RTS0 part",
                param_count, param_offset, r->size);
    if (sampler_count && !rs_fits(r, sampler_offset, sampler_count, RS_SAMPLER_SIZE))
        return rs_error(E_INVALIDARG, error, error_size, "pStaticSamplers: %u samplers at offset %u run past the end of the %zu-byte RTS0 part",
                sampler_count, sampler_offset, r->size);

    if (FAILED(hr = rs_parse_params(r, (D3D_ROOT_SIGNATURE_VERSION)version, param_count, param_offset, NULL, &range_total, error, error_size)))
        return hr;
    if (FAILED(hr = rs_builder_init(&b, (D3D_ROOT_SIGNATURE_VERSION)version, param_count, range_total, sampler_count, header[5], error, error_size)))
        return hr;
    if (FAILED(hr = rs_parse_params(r, (D3D_ROOT_SIGNATURE_VERSION)version, param_count, param_offset, &b, &range_total, error, error_size))) {
        free(b.desc);
        return hr;
    }
    for (uint32_t i = 0; i < sampler_count; i++) {
        uint32_t w[13] = {0};
        D3D12_STATIC_SAMPLER_DESC *s = &b.samplers[i];
        rs_read(r, (uint64_t)sampler_offset + (uint64_t)i * RS_SAMPLER_SIZE, w, 13); /* checked above */
        s->Filter = (D3D12_FILTER)w[0];
        s->AddressU = (D3D12_TEXTURE_ADDRESS_MODE)w[1];
        s->AddressV = (D3D12_TEXTURE_ADDRESS_MODE)w[2];
        s->AddressW = (D3D12_TEXTURE_ADDRESS_MODE)w[3];
        memcpy(&s->MipLODBias, &w[4], 4);
        s->MaxAnisotropy = w[5];
        s->ComparisonFunc = (D3D12_COMPARISON_FUNC)w[6];
        s->BorderColor = (D3D12_STATIC_BORDER_COLOR)w[7];
        memcpy(&s->MinLOD, &w[8], 4);
        memcpy(&s->MaxLOD, &w[9], 4);
        s->ShaderRegister = w[10];
        s->RegisterSpace = w[11];
        s->ShaderVisibility = (D3D12_SHADER_VISIBILITY)w[12];
    }
    *desc = b.desc;
    return S_OK;
}

HRESULT d3d12xs_root_signature_parse(const void *data, size_t size, D3D12_VERSIONED_ROOT_SIGNATURE_DESC **desc,
        char *error, size_t error_size)
{
    const uint8_t *bytes = data;
    uint32_t total, part_count;
    struct rs_reader part = {NULL, 0};

    if (desc)
        *desc = NULL;
    if (!desc)
        return rs_error(E_INVALIDARG, error, error_size, "no description to fill");
    if (!data)
        return rs_error(E_INVALIDARG, error, error_size, "the blob is NULL");
    if (size < RS_CONTAINER_HEADER_SIZE)
        return rs_error(E_INVALIDARG, error, error_size, "the blob is %zu bytes (a DXBC container header alone is %u)", size, RS_CONTAINER_HEADER_SIZE);
    if (rs_le32(bytes) != RS_TAG_DXBC)
        return rs_error(E_INVALIDARG, error, error_size, "the blob does not start with \"DXBC\" (not a DXBC container)");
    total = rs_le32(bytes + 24);
    part_count = rs_le32(bytes + 28);
    if (total > size)
        return rs_error(E_INVALIDARG, error, error_size, "the DXBC header says %u bytes but the blob is %zu (truncated?)", total, size);
    if (total < RS_CONTAINER_HEADER_SIZE)
        return rs_error(E_INVALIDARG, error, error_size, "the DXBC header says %u bytes (less than the header itself)", total);
    if ((uint64_t)RS_CONTAINER_HEADER_SIZE + (uint64_t)part_count * 4 > total)
        return rs_error(E_INVALIDARG, error, error_size, "the DXBC header lists %u parts, more than its %u bytes hold", part_count, total);
    for (uint32_t i = 0; i < part_count; i++) {
        uint32_t offset = rs_le32(bytes + RS_CONTAINER_HEADER_SIZE + 4 * i), tag, part_size;
        if (offset > total || total - offset < 8)
            return rs_error(E_INVALIDARG, error, error_size, "DXBC part %u at offset %u lies outside the %u-byte container", i, offset, total);
        tag = rs_le32(bytes + offset);
        part_size = rs_le32(bytes + offset + 4);
        if (part_size > total - offset - 8)
            return rs_error(E_INVALIDARG, error, error_size, "DXBC part %u (%u bytes at offset %u) runs past the end of the %u-byte container",
                    i, part_size, offset, total);
        if (tag == RS_TAG_RTS0 && !part.data) {
            part.data = bytes + offset + 8;
            part.size = part_size;
        }
    }
    if (!part.data)
        return rs_error(E_INVALIDARG, error, error_size, "the DXBC container holds no RTS0 (root signature) part");
    return rs_parse_rts0(&part, desc, error, error_size);
}

/* ---- conversion and comparison ---- */

HRESULT d3d12xs_root_signature_convert(const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *src, D3D_ROOT_SIGNATURE_VERSION version,
        D3D12_VERSIONED_ROOT_SIGNATURE_DESC **dst, char *error, size_t error_size)
{
    bool add_flags = version == D3D_ROOT_SIGNATURE_VERSION_1_1;
    struct rs_builder b;
    struct rs_view view;
    size_t range_total;
    HRESULT hr;

    if (dst)
        *dst = NULL;
    if (!src || !dst)
        return rs_error(E_INVALIDARG, error, error_size, "%s is NULL", src ? "the destination" : "the description");
    if (!rs_version_known(src->Version))
        return rs_version_error(src->Version, "Version", error, error_size);
    if (!rs_version_known(version))
        return rs_version_error(version, "the version to convert to", error, error_size);
    rs_view_init(&view, src);
    add_flags = add_flags && view.version == D3D_ROOT_SIGNATURE_VERSION_1_0;
    if (FAILED(hr = rs_check_structure(&view, &range_total, error, error_size)))
        return hr;
    if (FAILED(hr = rs_builder_init(&b, version, view.param_count, range_total, view.sampler_count, view.flags, error, error_size)))
        return hr;
    for (UINT i = 0; i < view.param_count; i++) {
        struct rs_param p;
        size_t first_range;
        rs_get_param(&view, i, &p);
        if (add_flags && rs_is_root_descriptor(p.type))
            p.flags = D3D12_ROOT_DESCRIPTOR_FLAG_DATA_VOLATILE;
        rs_builder_param(&b, i, &p, &first_range);
        for (UINT j = 0; j < p.range_count; j++) {
            D3D12_DESCRIPTOR_RANGE1 range;
            rs_get_range(view.version, p.ranges, j, &range);
            if (add_flags)
                range.Flags = range.RangeType == D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER ? D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_VOLATILE
                        : D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_VOLATILE | D3D12_DESCRIPTOR_RANGE_FLAG_DATA_VOLATILE;
            rs_builder_range(&b, first_range + j, &range);
        }
    }
    if (view.sampler_count)
        memcpy(b.samplers, view.samplers, view.sampler_count * sizeof(*view.samplers));
    *dst = b.desc;
    return S_OK;
}

bool d3d12xs_root_signature_desc_equal(const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *a, const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *b)
{
    struct rs_view va, vb;

    if (!a || !b)
        return a == b;
    if (a->Version != b->Version || !rs_version_known(a->Version))
        return false;
    rs_view_init(&va, a);
    rs_view_init(&vb, b);
    if (va.param_count != vb.param_count || va.sampler_count != vb.sampler_count || va.flags != vb.flags)
        return false;
    for (UINT i = 0; i < va.param_count; i++) {
        struct rs_param pa, pb;
        rs_get_param(&va, i, &pa);
        rs_get_param(&vb, i, &pb);
        if (pa.type != pb.type || pa.visibility != pb.visibility || pa.range_count != pb.range_count
                || pa.shader_register != pb.shader_register || pa.register_space != pb.register_space
                || pa.value_count != pb.value_count || pa.flags != pb.flags)
            return false;
        for (UINT j = 0; j < pa.range_count; j++) {
            D3D12_DESCRIPTOR_RANGE1 ra, rb;
            rs_get_range(va.version, pa.ranges, j, &ra);
            rs_get_range(vb.version, pb.ranges, j, &rb);
            if (ra.RangeType != rb.RangeType || ra.NumDescriptors != rb.NumDescriptors
                    || ra.BaseShaderRegister != rb.BaseShaderRegister || ra.RegisterSpace != rb.RegisterSpace
                    || ra.Flags != rb.Flags || ra.OffsetInDescriptorsFromTableStart != rb.OffsetInDescriptorsFromTableStart)
                return false;
        }
    }
    /* D3D12_STATIC_SAMPLER_DESC is 13 four-byte fields, no padding: compare bits (NaN included). */
    return !va.sampler_count || !memcmp(va.samplers, vb.samplers, va.sampler_count * sizeof(*va.samplers));
}

/* ---- serializing ---- */

static void rs_put(uint8_t *base, size_t *at, uint32_t value)
{
    base[*at] = (uint8_t)value;
    base[*at + 1] = (uint8_t)(value >> 8);
    base[*at + 2] = (uint8_t)(value >> 16);
    base[*at + 3] = (uint8_t)(value >> 24);
    *at += 4;
}

static uint32_t rs_float_bits(float value)
{
    uint32_t bits;
    memcpy(&bits, &value, sizeof(bits));
    return bits;
}

HRESULT d3d12xs_root_signature_serialize(const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc, void **data, size_t *size,
        char *error, size_t error_size)
{
    const size_t part_at = RS_CONTAINER_HEADER_SIZE + 4 + 8; /* one part offset, then FourCC and size */
    uint64_t part_size, payload_at, payload_size = 0;
    size_t range_size, descriptor_size, range_total, total, at, payload_cursor;
    struct rs_view view;
    uint8_t *out;
    HRESULT hr;

    if (data)
        *data = NULL;
    if (size)
        *size = 0;
    if (!desc || !data || !size)
        return rs_error(E_INVALIDARG, error, error_size, "%s is NULL", desc ? "the output" : "the description");
    if (!rs_version_known(desc->Version))
        return rs_version_error(desc->Version, "Version", error, error_size);
    rs_view_init(&view, desc);
    if (FAILED(hr = rs_check_structure(&view, &range_total, error, error_size)))
        return hr;
    range_size = view.version == D3D_ROOT_SIGNATURE_VERSION_1_0 ? 20 : 24;
    descriptor_size = view.version == D3D_ROOT_SIGNATURE_VERSION_1_0 ? 8 : 12;

    for (UINT i = 0; i < view.param_count; i++) {
        struct rs_param p;
        rs_get_param(&view, i, &p);
        if (p.type == D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE)
            payload_size += RS_TABLE_SIZE + (uint64_t)p.range_count * range_size;
        else if (p.type == D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS)
            payload_size += RS_CONSTANTS_SIZE;
        else
            payload_size += descriptor_size;
    }
    payload_at = RS_HEADER_SIZE + (uint64_t)view.param_count * RS_PARAMETER_SIZE;
    part_size = payload_at + payload_size + (uint64_t)view.sampler_count * RS_SAMPLER_SIZE;
    if (part_at + part_size > UINT32_MAX)
        return rs_error(E_INVALIDARG, error, error_size, "the serialized root signature would be %llu bytes (a DXBC container holds at most 4 GiB)",
                (unsigned long long)(part_at + part_size));
    total = part_at + (size_t)part_size;
    if (!(out = calloc(1, total)))
        return rs_error(E_OUTOFMEMORY, error, error_size, "cannot allocate %zu bytes for the serialized root signature", total);

    at = 0;
    rs_put(out, &at, RS_TAG_DXBC);
    at += 16; /* checksum, filled last */
    rs_put(out, &at, 1);
    rs_put(out, &at, (uint32_t)total);
    rs_put(out, &at, 1);
    rs_put(out, &at, (uint32_t)(RS_CONTAINER_HEADER_SIZE + 4));
    rs_put(out, &at, RS_TAG_RTS0);
    rs_put(out, &at, (uint32_t)part_size);

    /* Offsets below are relative to the part's data. */
    uint8_t *part = out + part_at;
    at = 0;
    rs_put(part, &at, view.version);
    rs_put(part, &at, view.param_count);
    rs_put(part, &at, RS_HEADER_SIZE);
    rs_put(part, &at, view.sampler_count);
    rs_put(part, &at, (uint32_t)(payload_at + payload_size));
    rs_put(part, &at, view.flags);

    payload_cursor = (size_t)payload_at;
    for (UINT i = 0; i < view.param_count; i++) {
        struct rs_param p;
        size_t payload = payload_cursor;
        rs_get_param(&view, i, &p);
        rs_put(part, &at, p.type);
        rs_put(part, &at, p.visibility);
        rs_put(part, &at, (uint32_t)payload);
        if (p.type == D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE) {
            rs_put(part, &payload, p.range_count);
            rs_put(part, &payload, (uint32_t)(payload + 4));
            for (UINT j = 0; j < p.range_count; j++) {
                D3D12_DESCRIPTOR_RANGE1 r;
                rs_get_range(view.version, p.ranges, j, &r);
                rs_put(part, &payload, r.RangeType);
                rs_put(part, &payload, r.NumDescriptors);
                rs_put(part, &payload, r.BaseShaderRegister);
                rs_put(part, &payload, r.RegisterSpace);
                if (view.version == D3D_ROOT_SIGNATURE_VERSION_1_1)
                    rs_put(part, &payload, r.Flags);
                rs_put(part, &payload, r.OffsetInDescriptorsFromTableStart);
            }
        } else {
            rs_put(part, &payload, p.shader_register);
            rs_put(part, &payload, p.register_space);
            if (p.type == D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS)
                rs_put(part, &payload, p.value_count);
            else if (view.version == D3D_ROOT_SIGNATURE_VERSION_1_1)
                rs_put(part, &payload, p.flags);
        }
        payload_cursor = payload;
    }
    at = payload_cursor;
    for (UINT i = 0; i < view.sampler_count; i++) {
        const D3D12_STATIC_SAMPLER_DESC *s = &view.samplers[i];
        rs_put(part, &at, s->Filter);
        rs_put(part, &at, s->AddressU);
        rs_put(part, &at, s->AddressV);
        rs_put(part, &at, s->AddressW);
        rs_put(part, &at, rs_float_bits(s->MipLODBias));
        rs_put(part, &at, s->MaxAnisotropy);
        rs_put(part, &at, s->ComparisonFunc);
        rs_put(part, &at, s->BorderColor);
        rs_put(part, &at, rs_float_bits(s->MinLOD));
        rs_put(part, &at, rs_float_bits(s->MaxLOD));
        rs_put(part, &at, s->ShaderRegister);
        rs_put(part, &at, s->RegisterSpace);
        rs_put(part, &at, s->ShaderVisibility);
    }

    d3d12xs_dxbc_checksum(out, total, out + 4);
    *data = out;
    *size = total;
    return S_OK;
}

/* ---- the D3D12 rules ---- */

struct rs_binding {
    uint32_t type; /* D3D12_DESCRIPTOR_RANGE_TYPE: the register letter */
    uint32_t space, first, last, visibility;
    uint32_t order; /* declaration order */
    int param, range, sampler; /* -1 where it does not apply */
};

static int rs_binding_compare(const void *a, const void *b)
{
    const struct rs_binding *x = a, *y = b;
    if (x->type != y->type)
        return x->type < y->type ? -1 : 1;
    if (x->space != y->space)
        return x->space < y->space ? -1 : 1;
    if (x->first != y->first)
        return x->first < y->first ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static void rs_binding_describe(const struct rs_binding *binding, char *buffer, size_t size)
{
    char registers[48];
    char letter = rs_register_letter(binding->type);

    if (binding->first == binding->last)
        snprintf(registers, sizeof(registers), "%c%u", letter, binding->first);
    else if (binding->last == UINT32_MAX)
        snprintf(registers, sizeof(registers), "%c%u and up", letter, binding->first);
    else
        snprintf(registers, sizeof(registers), "%c%u-%c%u", letter, binding->first, letter, binding->last);
    if (binding->sampler >= 0)
        snprintf(buffer, size, "pStaticSamplers[%d] (%s, visibility %s)", binding->sampler, registers, rs_visibility_name(binding->visibility));
    else if (binding->range >= 0)
        snprintf(buffer, size, "pParameters[%d].DescriptorTable.pDescriptorRanges[%d] (%s, visibility %s)",
                binding->param, binding->range, registers, rs_visibility_name(binding->visibility));
    else
        snprintf(buffer, size, "pParameters[%d] (%s, visibility %s)", binding->param, registers, rs_visibility_name(binding->visibility));
}

static HRESULT rs_check_overlaps(struct rs_binding *bindings, size_t count, char *error, size_t error_size)
{
    if (count)
        qsort(bindings, count, sizeof(*bindings), rs_binding_compare);
    for (size_t i = 0; i < count; i++) {
        const struct rs_binding *x = &bindings[i];
        for (size_t j = i + 1; j < count; j++) {
            const struct rs_binding *y = &bindings[j], *later, *earlier;
            char a[160], b[160];
            if (y->type != x->type || y->space != x->space || y->first > x->last)
                break;
            if (x->visibility != D3D12_SHADER_VISIBILITY_ALL && y->visibility != D3D12_SHADER_VISIBILITY_ALL
                    && x->visibility != y->visibility)
                continue;
            later = x->order > y->order ? x : y;
            earlier = later == x ? y : x;
            rs_binding_describe(later, a, sizeof(a));
            rs_binding_describe(earlier, b, sizeof(b));
            return rs_error(E_INVALIDARG, error, error_size, "%s overlaps %s in space %u (a register may be bound once per stage)",
                    a, b, x->space);
        }
    }
    return S_OK;
}

/* D3D12_FILTER bits: mip (0), mag (2) and min (4) POINT or LINEAR, anisotropic (6), reduction (7-8).
 * The anisotropic filters are MIN_MAG_ANISOTROPIC_MIP_POINT/LINEAR: min and mag bits set. */
static bool rs_filter_known(uint32_t filter)
{
    if (filter & ~0x1d5u)
        return false;
    return !(filter & 0x40) || (filter & 0x14) == 0x14;
}

static bool rs_filter_is_comparison(uint32_t filter)
{
    return ((filter >> 7) & 3) == D3D12_FILTER_REDUCTION_TYPE_COMPARISON;
}

static HRESULT rs_validate_sampler(const D3D12_STATIC_SAMPLER_DESC *s, UINT k, char *error, size_t error_size)
{
    const uint32_t addresses[3] = {s->AddressU, s->AddressV, s->AddressW};
    static const char *const address_names[3] = {"AddressU", "AddressV", "AddressW"};

    if (!rs_filter_known(s->Filter))
        return rs_error(E_INVALIDARG, error, error_size, "pStaticSamplers[%u].Filter is 0x%x (not a D3D12_FILTER)", k, (unsigned)s->Filter);
    for (unsigned a = 0; a < 3; a++)
        if (addresses[a] < D3D12_TEXTURE_ADDRESS_MODE_WRAP || addresses[a] > D3D12_TEXTURE_ADDRESS_MODE_MIRROR_ONCE)
            return rs_error(E_INVALIDARG, error, error_size, "pStaticSamplers[%u].%s is %u (must be WRAP, MIRROR, CLAMP, BORDER or MIRROR_ONCE)",
                    k, address_names[a], addresses[a]);
    if (isnan(s->MipLODBias) || s->MipLODBias < -16.0f || s->MipLODBias > 15.99f)
        return rs_error(E_INVALIDARG, error, error_size, "pStaticSamplers[%u].MipLODBias is %g (must be in [-16, 15.99])", k, (double)s->MipLODBias);
    if ((s->Filter & 0x40) && (s->MaxAnisotropy < 1 || s->MaxAnisotropy > 16))
        return rs_error(E_INVALIDARG, error, error_size, "pStaticSamplers[%u].MaxAnisotropy is %u (an anisotropic filter needs 1 to 16)",
                k, s->MaxAnisotropy);
    if ((uint32_t)s->ComparisonFunc > D3D12_COMPARISON_FUNC_ALWAYS
            || (rs_filter_is_comparison(s->Filter) && s->ComparisonFunc < D3D12_COMPARISON_FUNC_NEVER))
        return rs_error(E_INVALIDARG, error, error_size, "pStaticSamplers[%u].ComparisonFunc is %u (must be NEVER..ALWAYS%s)",
                k, (unsigned)s->ComparisonFunc, rs_filter_is_comparison(s->Filter) ? " for a comparison filter" : ", or 0 for other filters");
    if ((uint32_t)s->BorderColor > D3D12_STATIC_BORDER_COLOR_OPAQUE_WHITE_UINT)
        return rs_error(E_INVALIDARG, error, error_size, "pStaticSamplers[%u].BorderColor is %u (not a D3D12_STATIC_BORDER_COLOR)",
                k, (unsigned)s->BorderColor);
    if (isnan(s->MinLOD) || isnan(s->MaxLOD))
        return rs_error(E_INVALIDARG, error, error_size, "pStaticSamplers[%u].%s is NaN", k, isnan(s->MinLOD) ? "MinLOD" : "MaxLOD");
    if (s->ShaderRegister == UINT32_MAX)
        return rs_error(E_INVALIDARG, error, error_size, "pStaticSamplers[%u].ShaderRegister is 0xffffffff (not a register)", k);
    if (s->RegisterSpace >= RS_RESERVED_SPACE_FIRST)
        return rs_error(E_INVALIDARG, error, error_size, "pStaticSamplers[%u].RegisterSpace is 0x%x (spaces 0xfffffff0 and up are reserved)",
                k, s->RegisterSpace);
    if ((uint32_t)s->ShaderVisibility > D3D12_SHADER_VISIBILITY_MESH)
        return rs_error(E_INVALIDARG, error, error_size, "pStaticSamplers[%u].ShaderVisibility is %u (must be ALL..MESH)",
                k, (unsigned)s->ShaderVisibility);
    return S_OK;
}

static HRESULT rs_validate_range_flags(uint32_t flags, uint32_t type, UINT i, UINT j, char *error, size_t error_size)
{
    uint32_t data = flags & RS_RANGE_DATA_FLAGS;
    const char *why = NULL;

    if (flags & ~RS_RANGE_KNOWN_FLAGS)
        why = "unknown bits";
    else if (type == D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER && (flags & ~D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_VOLATILE))
        why = "a SAMPLER range takes only DESCRIPTORS_VOLATILE: samplers point at no data";
    else if (data & (data - 1))
        why = "at most one DATA_* flag";
    else if ((flags & D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_VOLATILE) && (flags & D3D12_DESCRIPTOR_RANGE_FLAG_DATA_STATIC))
        why = "DESCRIPTORS_VOLATILE cannot be combined with DATA_STATIC";
    else if ((flags & D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_VOLATILE)
            && (flags & D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS))
        why = "DESCRIPTORS_VOLATILE cannot be combined with DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS";
    if (!why)
        return S_OK;
    return rs_error(E_INVALIDARG, error, error_size, "pParameters[%u].DescriptorTable.pDescriptorRanges[%u].Flags is 0x%x (%s)", i, j, flags, why);
}

static HRESULT rs_validate_table(const struct rs_view *view, const struct rs_param *p, UINT i,
        struct rs_binding *bindings, size_t *binding_count, char *error, size_t error_size)
{
    uint64_t next_offset = 0;
    bool previous_unbounded = false;
    D3D12_DESCRIPTOR_RANGE1 first;

    if (!p->range_count)
        return rs_error(E_INVALIDARG, error, error_size, "pParameters[%u].DescriptorTable.NumDescriptorRanges is 0 (a table holds at least one range)", i);
    if (!p->ranges)
        return rs_error(E_INVALIDARG, error, error_size, "pParameters[%u].DescriptorTable.pDescriptorRanges is NULL (NumDescriptorRanges is %u)",
                i, p->range_count);
    rs_get_range(view->version, p->ranges, 0, &first);
    for (UINT j = 0; j < p->range_count; j++) {
        D3D12_DESCRIPTOR_RANGE1 r;
        bool unbounded;
        uint64_t offset;
        HRESULT hr;

        rs_get_range(view->version, p->ranges, j, &r);
        unbounded = r.NumDescriptors == UINT32_MAX;
        if ((uint32_t)r.RangeType > D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER)
            return rs_error(E_INVALIDARG, error, error_size,
                    "pParameters[%u].DescriptorTable.pDescriptorRanges[%u].RangeType is %u (must be SRV, UAV, CBV or SAMPLER)",
                    i, j, (unsigned)r.RangeType);
        if (j && (r.RangeType == D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER) != (first.RangeType == D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER))
            return rs_error(E_INVALIDARG, error, error_size,
                    "pParameters[%u].DescriptorTable.pDescriptorRanges[%u].RangeType is %s but pDescriptorRanges[0] is %s "
                    "(a table cannot mix SAMPLER ranges with CBV/SRV/UAV ranges)",
                    i, j, rs_range_type_name(r.RangeType), rs_range_type_name(first.RangeType));
        if (!r.NumDescriptors)
            return rs_error(E_INVALIDARG, error, error_size,
                    "pParameters[%u].DescriptorTable.pDescriptorRanges[%u].NumDescriptors is 0 (must be at least 1, or UINT_MAX for unbounded)", i, j);
        if (!unbounded && (uint64_t)r.BaseShaderRegister + r.NumDescriptors - 1 >= UINT32_MAX)
            return rs_error(E_INVALIDARG, error, error_size,
                    "pParameters[%u].DescriptorTable.pDescriptorRanges[%u]: BaseShaderRegister %u + NumDescriptors %u runs past the last register",
                    i, j, r.BaseShaderRegister, r.NumDescriptors);
        if (r.RegisterSpace >= RS_RESERVED_SPACE_FIRST)
            return rs_error(E_INVALIDARG, error, error_size,
                    "pParameters[%u].DescriptorTable.pDescriptorRanges[%u].RegisterSpace is 0x%x (spaces 0xfffffff0 and up are reserved)",
                    i, j, r.RegisterSpace);
        if (view->version == D3D_ROOT_SIGNATURE_VERSION_1_1 && FAILED(hr = rs_validate_range_flags(r.Flags, r.RangeType, i, j, error, error_size)))
            return hr;
        if (r.OffsetInDescriptorsFromTableStart == D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND) {
            if (previous_unbounded)
                return rs_error(E_INVALIDARG, error, error_size,
                        "pParameters[%u].DescriptorTable.pDescriptorRanges[%u].OffsetInDescriptorsFromTableStart is APPEND after an unbounded range "
                        "(give an explicit offset)", i, j);
            offset = next_offset;
        } else {
            offset = r.OffsetInDescriptorsFromTableStart;
        }
        if (!unbounded && offset + r.NumDescriptors > UINT32_MAX)
            return rs_error(E_INVALIDARG, error, error_size,
                    "pParameters[%u].DescriptorTable.pDescriptorRanges[%u]: descriptors %llu to %llu lie past the largest table offset",
                    i, j, (unsigned long long)offset, (unsigned long long)(offset + r.NumDescriptors - 1));
        next_offset = offset + (unbounded ? 0 : r.NumDescriptors);
        previous_unbounded = unbounded;

        struct rs_binding *binding = &bindings[(*binding_count)++];
        binding->type = r.RangeType;
        binding->space = r.RegisterSpace;
        binding->first = r.BaseShaderRegister;
        binding->last = unbounded ? UINT32_MAX : r.BaseShaderRegister + r.NumDescriptors - 1;
        binding->visibility = p->visibility;
        binding->param = (int)i;
        binding->range = (int)j;
        binding->sampler = -1;
    }
    return S_OK;
}

HRESULT d3d12xs_root_signature_validate(const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc, char *error, size_t error_size)
{
    static const uint32_t range_type_of_parameter[] = {
        [D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS] = D3D12_DESCRIPTOR_RANGE_TYPE_CBV,
        [D3D12_ROOT_PARAMETER_TYPE_CBV] = D3D12_DESCRIPTOR_RANGE_TYPE_CBV,
        [D3D12_ROOT_PARAMETER_TYPE_SRV] = D3D12_DESCRIPTOR_RANGE_TYPE_SRV,
        [D3D12_ROOT_PARAMETER_TYPE_UAV] = D3D12_DESCRIPTOR_RANGE_TYPE_UAV,
    };
    struct rs_binding *bindings = NULL;
    size_t binding_count = 0, range_total;
    uint64_t cost = 0;
    struct rs_view view;
    HRESULT hr;

    if (!desc)
        return rs_error(E_INVALIDARG, error, error_size, "the description is NULL");
    if (!rs_version_known(desc->Version))
        return rs_version_error(desc->Version, "Version", error, error_size);
    rs_view_init(&view, desc);

    if (view.flags & ~RS_KNOWN_FLAGS)
        return rs_error(E_INVALIDARG, error, error_size, "Flags is 0x%x (bits 0x%x are not D3D12_ROOT_SIGNATURE_FLAGS)",
                view.flags, view.flags & ~RS_KNOWN_FLAGS);
    if ((view.flags & D3D12_ROOT_SIGNATURE_FLAG_LOCAL_ROOT_SIGNATURE) && view.flags != D3D12_ROOT_SIGNATURE_FLAG_LOCAL_ROOT_SIGNATURE)
        return rs_error(E_INVALIDARG, error, error_size, "Flags is 0x%x (LOCAL_ROOT_SIGNATURE cannot be combined with other flags)", view.flags);
    if ((view.flags & D3D12XBOX_ROOT_SIGNATURE_FLAG_INTERNAL_XDXR) == D3D12XBOX_ROOT_SIGNATURE_FLAG_INTERNAL_XDXR)
        WARN("root signature Flags 0x%x include D3D12XBOX_ROOT_SIGNATURE_FLAG_INTERNAL_XDXR (internal to the console; accepted)", view.flags);

    if (FAILED(hr = rs_check_structure(&view, &range_total, error, error_size)))
        return hr;
    if (range_total + view.param_count + view.sampler_count
            && !(bindings = calloc(range_total + view.param_count + view.sampler_count, sizeof(*bindings))))
        return rs_error(E_OUTOFMEMORY, error, error_size, "cannot allocate the register overlap check");

    for (UINT i = 0; i < view.param_count; i++) {
        struct rs_param p;
        rs_get_param(&view, i, &p);
        if (p.visibility > D3D12_SHADER_VISIBILITY_MESH) {
            hr = rs_error(E_INVALIDARG, error, error_size, "pParameters[%u].ShaderVisibility is %u (must be ALL..MESH)", i, p.visibility);
            goto done;
        }
        if (p.type == D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE) {
            if (FAILED(hr = rs_validate_table(&view, &p, i, bindings, &binding_count, error, error_size)))
                goto done;
            cost += 1;
            continue;
        }
        if (p.type == D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS) {
            if (!p.value_count) {
                hr = rs_error(E_INVALIDARG, error, error_size, "pParameters[%u].Constants.Num32BitValues is 0 (must be at least 1)", i);
                goto done;
            }
            cost += p.value_count;
        } else {
            if (p.shader_register == UINT32_MAX) {
                hr = rs_error(E_INVALIDARG, error, error_size, "pParameters[%u].Descriptor.ShaderRegister is 0xffffffff (not a register)", i);
                goto done;
            }
            if (view.version == D3D_ROOT_SIGNATURE_VERSION_1_1
                    && ((p.flags & ~RS_ROOT_DESCRIPTOR_KNOWN_FLAGS) || (p.flags & (p.flags - 1)))) {
                hr = rs_error(E_INVALIDARG, error, error_size,
                        "pParameters[%u].Descriptor.Flags is 0x%x (must be NONE or one of DATA_VOLATILE, DATA_STATIC_WHILE_SET_AT_EXECUTE, DATA_STATIC)",
                        i, p.flags);
                goto done;
            }
            cost += 2;
        }
        if (p.register_space >= RS_RESERVED_SPACE_FIRST) {
            hr = rs_error(E_INVALIDARG, error, error_size, "pParameters[%u].%s.RegisterSpace is 0x%x (spaces 0xfffffff0 and up are reserved)",
                    i, p.type == D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS ? "Constants" : "Descriptor", p.register_space);
            goto done;
        }
        struct rs_binding *binding = &bindings[binding_count++];
        binding->type = range_type_of_parameter[p.type];
        binding->space = p.register_space;
        binding->first = binding->last = p.shader_register;
        binding->visibility = p.visibility;
        binding->param = (int)i;
        binding->range = binding->sampler = -1;
    }
    if (cost > RS_MAX_ROOT_COST) {
        hr = rs_error(E_INVALIDARG, error, error_size,
                "pParameters cost %llu DWORDs (at most %u: a table costs 1, a root descriptor 2, constants 1 per value)",
                (unsigned long long)cost, RS_MAX_ROOT_COST);
        goto done;
    }
    for (UINT k = 0; k < view.sampler_count; k++) {
        const D3D12_STATIC_SAMPLER_DESC *s = &view.samplers[k];
        if (FAILED(hr = rs_validate_sampler(s, k, error, error_size)))
            goto done;
        struct rs_binding *binding = &bindings[binding_count++];
        binding->type = D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER;
        binding->space = s->RegisterSpace;
        binding->first = binding->last = s->ShaderRegister;
        binding->visibility = s->ShaderVisibility;
        binding->param = binding->range = -1;
        binding->sampler = (int)k;
    }
    for (size_t n = 0; n < binding_count; n++)
        bindings[n].order = (uint32_t)n;
    hr = rs_check_overlaps(bindings, binding_count, error, error_size);

done:
    free(bindings);
    return hr;
}
