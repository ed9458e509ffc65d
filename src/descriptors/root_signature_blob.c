/* Root signature descriptions and their serialized form: a DXBC container with one RTS0 part.
 *
 * RTS0 layout (little-endian uint32 words; offsets count from the start of the part):
 *   header      Version (1 = 1.0, 2 = 1.1, 3 = 1.2), NumParameters, ParametersOffset,
 *               NumStaticSamplers, StaticSamplersOffset, Flags
 *   parameter   ParameterType, ShaderVisibility, PayloadOffset
 *   payloads    table: NumDescriptorRanges, DescriptorRangesOffset
 *               range 1.0: RangeType, NumDescriptors, BaseShaderRegister, RegisterSpace, Offset
 *               range 1.1, 1.2: RangeType, NumDescriptors, BaseShaderRegister, RegisterSpace, Flags, Offset
 *               constants: ShaderRegister, RegisterSpace, Num32BitValues
 *               root descriptor: ShaderRegister, RegisterSpace (1.1, 1.2: Flags)
 *   sampler     the 13 fields of D3D12_STATIC_SAMPLER_DESC in order; 1.2 adds Flags after
 *               ShaderVisibility (the 14 fields of D3D12_STATIC_SAMPLER_DESC1)
 * We write header, parameters, then each parameter's payload in order (a table's ranges right
 * after its header), then the static samplers: the layout Microsoft's compilers produce. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "descriptors/root_signature_blob.h"
#include "descriptors/root_signature_view.h"

/* ---- building a description in one allocation ---- */

struct rs_builder {
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc;
    void *params;
    void *ranges;
    void *samplers; /* D3D12_STATIC_SAMPLER_DESC, or D3D12_STATIC_SAMPLER_DESC1 for 1.2 */
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
    size_t sampler_size = version == D3D_ROOT_SIGNATURE_VERSION_1_2 ? sizeof(D3D12_STATIC_SAMPLER_DESC1) : sizeof(D3D12_STATIC_SAMPLER_DESC);
    size_t params_at, ranges_at, samplers_at, total;
    char *memory;

    memset(b, 0, sizeof(*b));
    /* Counts are at most UINT_MAX each, so with a 64-bit size_t none of this overflows. */
    if (param_count > SIZE_MAX / 64 || range_count > SIZE_MAX / 64 || sampler_count > SIZE_MAX / 64)
        return d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "the root signature is too large to hold in memory");
    params_at = rs_align(sizeof(*b->desc));
    ranges_at = params_at + rs_align(param_count * param_size);
    samplers_at = ranges_at + rs_align(range_count * range_size);
    total = samplers_at + sampler_count * sampler_size;
    if (total < samplers_at || !(memory = calloc(1, total)))
        return d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "cannot allocate %zu bytes for the root signature description", total);

    b->desc = (D3D12_VERSIONED_ROOT_SIGNATURE_DESC *)memory;
    b->params = param_count ? memory + params_at : NULL;
    b->ranges = range_count ? memory + ranges_at : NULL;
    b->samplers = sampler_count ? memory + samplers_at : NULL;
    b->desc->Version = version;
    if (v10) {
        b->desc->Desc_1_0.NumParameters = (UINT)param_count;
        b->desc->Desc_1_0.pParameters = b->params;
        b->desc->Desc_1_0.NumStaticSamplers = (UINT)sampler_count;
        b->desc->Desc_1_0.pStaticSamplers = b->samplers;
        b->desc->Desc_1_0.Flags = (D3D12_ROOT_SIGNATURE_FLAGS)flags;
    } else if (version == D3D_ROOT_SIGNATURE_VERSION_1_2) {
        b->desc->Desc_1_2.NumParameters = (UINT)param_count;
        b->desc->Desc_1_2.pParameters = b->params;
        b->desc->Desc_1_2.NumStaticSamplers = (UINT)sampler_count;
        b->desc->Desc_1_2.pStaticSamplers = b->samplers;
        b->desc->Desc_1_2.Flags = (D3D12_ROOT_SIGNATURE_FLAGS)flags;
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

/* Sets static sampler i; versions before 1.2 have no Flags to keep. */
static void rs_builder_sampler(struct rs_builder *b, UINT i, const D3D12_STATIC_SAMPLER_DESC1 *s)
{
    if (b->desc->Version == D3D_ROOT_SIGNATURE_VERSION_1_2)
        ((D3D12_STATIC_SAMPLER_DESC1 *)b->samplers)[i] = *s;
    else
        memcpy(&((D3D12_STATIC_SAMPLER_DESC *)b->samplers)[i], s, sizeof(D3D12_STATIC_SAMPLER_DESC));
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
            return d3d12xs_write_error(E_INVALIDARG, error, error_size, "pParameters[%u] at offset %llu runs past the end of the %zu-byte RTS0 part",
                    i, (unsigned long long)at, r->size);
        p.type = header[0];
        p.visibility = header[1];
        switch (p.type) {
        case D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE:
            if (!rs_read(r, header[2], payload, 2))
                return d3d12xs_write_error(E_INVALIDARG, error, error_size,
                        "pParameters[%u].DescriptorTable at offset %u runs past the end of the %zu-byte RTS0 part", i, header[2], r->size);
            p.range_count = payload[0];
            if (p.range_count && !rs_fits(r, payload[1], p.range_count, range_words * 4))
                return d3d12xs_write_error(E_INVALIDARG, error, error_size,
                        "pParameters[%u].DescriptorTable: %u ranges at offset %u run past the end of the %zu-byte RTS0 part",
                        i, p.range_count, payload[1], r->size);
            total += p.range_count;
            /* Each table has ranges of its own: refuse tables sharing bytes to claim more ranges
             * than the part holds (which would let a small blob demand a huge allocation). */
            if (total * range_words * 4 > r->size)
                return d3d12xs_write_error(E_INVALIDARG, error, error_size,
                        "the descriptor tables claim %llu ranges in all, more than the %zu-byte RTS0 part holds",
                        (unsigned long long)total, r->size);
            break;
        case D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS:
            if (!rs_read(r, header[2], payload, 3))
                return d3d12xs_write_error(E_INVALIDARG, error, error_size,
                        "pParameters[%u].Constants at offset %u runs past the end of the %zu-byte RTS0 part", i, header[2], r->size);
            p.shader_register = payload[0];
            p.register_space = payload[1];
            p.value_count = payload[2];
            break;
        case D3D12_ROOT_PARAMETER_TYPE_CBV:
        case D3D12_ROOT_PARAMETER_TYPE_SRV:
        case D3D12_ROOT_PARAMETER_TYPE_UAV:
            if (!rs_read(r, header[2], payload, descriptor_words))
                return d3d12xs_write_error(E_INVALIDARG, error, error_size,
                        "pParameters[%u].Descriptor at offset %u runs past the end of the %zu-byte RTS0 part", i, header[2], r->size);
            p.shader_register = payload[0];
            p.register_space = payload[1];
            p.flags = descriptor_words == 3 ? payload[2] : 0;
            break;
        default:
            return d3d12xs_write_error(E_INVALIDARG, error, error_size,
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
    uint32_t header[6], version, param_count, param_offset, sampler_count, sampler_offset, sampler_size;
    struct rs_builder b;
    size_t range_total;
    HRESULT hr;

    if (!rs_read(r, 0, header, 6))
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the RTS0 part is %zu bytes (its header alone needs %u)", r->size, RS_HEADER_SIZE);
    version = header[0];
    param_count = header[1];
    param_offset = header[2];
    sampler_count = header[3];
    sampler_offset = header[4];
    if (!d3d12xs_rs_version_known((D3D_ROOT_SIGNATURE_VERSION)version))
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the RTS0 version is %u (must be 1 for 1.0, 2 for 1.1 or 3 for 1.2)", version);
    sampler_size = version == D3D_ROOT_SIGNATURE_VERSION_1_2 ? RS_SAMPLER1_SIZE : RS_SAMPLER_SIZE;
    if (param_count && !rs_fits(r, param_offset, param_count, RS_PARAMETER_SIZE))
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "pParameters: %u parameters at offset %u run past the end of the %zu-byte RTS0 part",
                param_count, param_offset, r->size);
    if (sampler_count && !rs_fits(r, sampler_offset, sampler_count, sampler_size))
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "pStaticSamplers: %u samplers at offset %u run past the end of the %zu-byte RTS0 part",
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
        uint32_t w[14] = {0};
        D3D12_STATIC_SAMPLER_DESC1 sampler, *s = &sampler;
        rs_read(r, (uint64_t)sampler_offset + (uint64_t)i * sampler_size, w, sampler_size / 4); /* checked above */
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
        s->Flags = (D3D12_SAMPLER_FLAGS)w[13];
        rs_builder_sampler(&b, i, s);
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
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "no description to fill");
    if (!data)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the blob is NULL");
    if (size < RS_CONTAINER_HEADER_SIZE)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the blob is %zu bytes (a DXBC container header alone is %u)", size, RS_CONTAINER_HEADER_SIZE);
    if (rs_le32(bytes) != RS_TAG_DXBC)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the blob does not start with \"DXBC\" (not a DXBC container)");
    total = rs_le32(bytes + 24);
    part_count = rs_le32(bytes + 28);
    if (total > size)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the DXBC header says %u bytes but the blob is %zu (truncated?)", total, size);
    if (total < RS_CONTAINER_HEADER_SIZE)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the DXBC header says %u bytes (less than the header itself)", total);
    if ((uint64_t)RS_CONTAINER_HEADER_SIZE + (uint64_t)part_count * 4 > total)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the DXBC header lists %u parts, more than its %u bytes hold", part_count, total);
    for (uint32_t i = 0; i < part_count; i++) {
        uint32_t offset = rs_le32(bytes + RS_CONTAINER_HEADER_SIZE + 4 * i), tag, part_size;
        if (offset > total || total - offset < 8)
            return d3d12xs_write_error(E_INVALIDARG, error, error_size, "DXBC part %u at offset %u lies outside the %u-byte container", i, offset, total);
        tag = rs_le32(bytes + offset);
        part_size = rs_le32(bytes + offset + 4);
        if (part_size > total - offset - 8)
            return d3d12xs_write_error(E_INVALIDARG, error, error_size, "DXBC part %u (%u bytes at offset %u) runs past the end of the %u-byte container",
                    i, part_size, offset, total);
        if (tag == RS_TAG_RTS0 && !part.data) {
            part.data = bytes + offset + 8;
            part.size = part_size;
        }
    }
    if (!part.data)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the DXBC container holds no RTS0 (root signature) part");
    return rs_parse_rts0(&part, desc, error, error_size);
}

/* ---- conversion and comparison ---- */

HRESULT d3d12xs_root_signature_convert(const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *src, D3D_ROOT_SIGNATURE_VERSION version,
        D3D12_VERSIONED_ROOT_SIGNATURE_DESC **dst, char *error, size_t error_size)
{
    bool add_flags = version != D3D_ROOT_SIGNATURE_VERSION_1_0;
    struct rs_builder b;
    struct rs_view view;
    size_t range_total;
    HRESULT hr;

    if (dst)
        *dst = NULL;
    if (!src || !dst)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "%s is NULL", src ? "the destination" : "the description");
    if (!d3d12xs_rs_version_known(src->Version))
        return d3d12xs_rs_version_error(src->Version, "Version", error, error_size);
    if (!d3d12xs_rs_version_known(version))
        return d3d12xs_rs_version_error(version, "the version to convert to", error, error_size);
    d3d12xs_rs_view_init(&view, src);
    add_flags = add_flags && view.version == D3D_ROOT_SIGNATURE_VERSION_1_0;
    if (FAILED(hr = d3d12xs_rs_check_structure(&view, &range_total, error, error_size)))
        return hr;
    if (FAILED(hr = rs_builder_init(&b, version, view.param_count, range_total, view.sampler_count, view.flags, error, error_size)))
        return hr;
    for (UINT i = 0; i < view.param_count; i++) {
        struct rs_param p;
        size_t first_range;
        d3d12xs_rs_get_param(&view, i, &p);
        if (add_flags && d3d12xs_rs_is_root_descriptor(p.type))
            p.flags = D3D12_ROOT_DESCRIPTOR_FLAG_DATA_VOLATILE;
        rs_builder_param(&b, i, &p, &first_range);
        for (UINT j = 0; j < p.range_count; j++) {
            D3D12_DESCRIPTOR_RANGE1 range;
            d3d12xs_rs_get_range(view.version, p.ranges, j, &range);
            if (add_flags)
                range.Flags = range.RangeType == D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER ? D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_VOLATILE
                        : D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_VOLATILE | D3D12_DESCRIPTOR_RANGE_FLAG_DATA_VOLATILE;
            rs_builder_range(&b, first_range + j, &range);
        }
    }
    /* Down to 1.0 or 1.1 the samplers' Flags go, as D3D12 drops them (not an error); up to 1.2
     * they are NONE. */
    for (UINT i = 0; i < view.sampler_count; i++) {
        D3D12_STATIC_SAMPLER_DESC1 sampler;
        d3d12xs_rs_get_sampler(&view, i, &sampler);
        rs_builder_sampler(&b, i, &sampler);
    }
    *dst = b.desc;
    return S_OK;
}

bool d3d12xs_root_signature_desc_equal(const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *a, const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *b)
{
    struct rs_view va, vb;

    if (!a || !b)
        return a == b;
    if (a->Version != b->Version || !d3d12xs_rs_version_known(a->Version))
        return false;
    d3d12xs_rs_view_init(&va, a);
    d3d12xs_rs_view_init(&vb, b);
    if (va.param_count != vb.param_count || va.sampler_count != vb.sampler_count || va.flags != vb.flags)
        return false;
    for (UINT i = 0; i < va.param_count; i++) {
        struct rs_param pa, pb;
        d3d12xs_rs_get_param(&va, i, &pa);
        d3d12xs_rs_get_param(&vb, i, &pb);
        if (pa.type != pb.type || pa.visibility != pb.visibility || pa.range_count != pb.range_count
                || pa.shader_register != pb.shader_register || pa.register_space != pb.register_space
                || pa.value_count != pb.value_count || pa.flags != pb.flags)
            return false;
        for (UINT j = 0; j < pa.range_count; j++) {
            D3D12_DESCRIPTOR_RANGE1 ra, rb;
            d3d12xs_rs_get_range(va.version, pa.ranges, j, &ra);
            d3d12xs_rs_get_range(vb.version, pb.ranges, j, &rb);
            if (ra.RangeType != rb.RangeType || ra.NumDescriptors != rb.NumDescriptors
                    || ra.BaseShaderRegister != rb.BaseShaderRegister || ra.RegisterSpace != rb.RegisterSpace
                    || ra.Flags != rb.Flags || ra.OffsetInDescriptorsFromTableStart != rb.OffsetInDescriptorsFromTableStart)
                return false;
        }
    }
    /* D3D12_STATIC_SAMPLER_DESC1 is 14 four-byte fields, no padding: compare bits (NaN included). */
    for (UINT i = 0; i < va.sampler_count; i++) {
        D3D12_STATIC_SAMPLER_DESC1 sa, sb;
        d3d12xs_rs_get_sampler(&va, i, &sa);
        d3d12xs_rs_get_sampler(&vb, i, &sb);
        if (memcmp(&sa, &sb, sizeof(sa)))
            return false;
    }
    return true;
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
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "%s is NULL", desc ? "the output" : "the description");
    if (!d3d12xs_rs_version_known(desc->Version))
        return d3d12xs_rs_version_error(desc->Version, "Version", error, error_size);
    d3d12xs_rs_view_init(&view, desc);
    if (FAILED(hr = d3d12xs_rs_check_structure(&view, &range_total, error, error_size)))
        return hr;
    range_size = view.version == D3D_ROOT_SIGNATURE_VERSION_1_0 ? 20 : 24;
    descriptor_size = view.version == D3D_ROOT_SIGNATURE_VERSION_1_0 ? 8 : 12;

    for (UINT i = 0; i < view.param_count; i++) {
        struct rs_param p;
        d3d12xs_rs_get_param(&view, i, &p);
        if (p.type == D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE)
            payload_size += RS_TABLE_SIZE + (uint64_t)p.range_count * range_size;
        else if (p.type == D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS)
            payload_size += RS_CONSTANTS_SIZE;
        else
            payload_size += descriptor_size;
    }
    payload_at = RS_HEADER_SIZE + (uint64_t)view.param_count * RS_PARAMETER_SIZE;
    part_size = payload_at + payload_size
            + (uint64_t)view.sampler_count * (view.version == D3D_ROOT_SIGNATURE_VERSION_1_2 ? RS_SAMPLER1_SIZE : RS_SAMPLER_SIZE);
    if (part_at + part_size > UINT32_MAX)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the serialized root signature would be %llu bytes (a DXBC container holds at most 4 GiB)",
                (unsigned long long)(part_at + part_size));
    total = part_at + (size_t)part_size;
    if (!(out = calloc(1, total)))
        return d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "cannot allocate %zu bytes for the serialized root signature", total);

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
        d3d12xs_rs_get_param(&view, i, &p);
        rs_put(part, &at, p.type);
        rs_put(part, &at, p.visibility);
        rs_put(part, &at, (uint32_t)payload);
        if (p.type == D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE) {
            rs_put(part, &payload, p.range_count);
            rs_put(part, &payload, (uint32_t)(payload + 4));
            for (UINT j = 0; j < p.range_count; j++) {
                D3D12_DESCRIPTOR_RANGE1 r;
                d3d12xs_rs_get_range(view.version, p.ranges, j, &r);
                rs_put(part, &payload, r.RangeType);
                rs_put(part, &payload, r.NumDescriptors);
                rs_put(part, &payload, r.BaseShaderRegister);
                rs_put(part, &payload, r.RegisterSpace);
                if (view.version != D3D_ROOT_SIGNATURE_VERSION_1_0)
                    rs_put(part, &payload, r.Flags);
                rs_put(part, &payload, r.OffsetInDescriptorsFromTableStart);
            }
        } else {
            rs_put(part, &payload, p.shader_register);
            rs_put(part, &payload, p.register_space);
            if (p.type == D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS)
                rs_put(part, &payload, p.value_count);
            else if (view.version != D3D_ROOT_SIGNATURE_VERSION_1_0)
                rs_put(part, &payload, p.flags);
        }
        payload_cursor = payload;
    }
    at = payload_cursor;
    for (UINT i = 0; i < view.sampler_count; i++) {
        D3D12_STATIC_SAMPLER_DESC1 sampler, *s = &sampler;
        d3d12xs_rs_get_sampler(&view, i, s);
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
        if (view.version == D3D_ROOT_SIGNATURE_VERSION_1_2)
            rs_put(part, &at, s->Flags);
    }

    d3d12xs_dxbc_checksum(out, total, out + 4);
    *data = out;
    *size = total;
    return S_OK;
}
