/* The D3D12 rules a root signature description must follow (d3d12xs_root_signature_validate):
 * registers that overlap, flags, static samplers, tables, the root cost. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "descriptors/root_signature_blob.h"
#include "descriptors/root_signature_view.h"
#include "descriptors/sampler_flags.h"

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
    char letter = d3d12xs_rs_register_letter(binding->type);

    if (binding->first == binding->last)
        snprintf(registers, sizeof(registers), "%c%u", letter, binding->first);
    else if (binding->last == UINT32_MAX)
        snprintf(registers, sizeof(registers), "%c%u and up", letter, binding->first);
    else
        snprintf(registers, sizeof(registers), "%c%u-%c%u", letter, binding->first, letter, binding->last);
    if (binding->sampler >= 0)
        snprintf(buffer, size, "pStaticSamplers[%d] (%s, visibility %s)", binding->sampler, registers, d3d12xs_rs_visibility_name(binding->visibility));
    else if (binding->range >= 0)
        snprintf(buffer, size, "pParameters[%d].DescriptorTable.pDescriptorRanges[%d] (%s, visibility %s)",
                binding->param, binding->range, registers, d3d12xs_rs_visibility_name(binding->visibility));
    else
        snprintf(buffer, size, "pParameters[%d] (%s, visibility %s)", binding->param, registers, d3d12xs_rs_visibility_name(binding->visibility));
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
            return d3d12xs_write_error(E_INVALIDARG, error, error_size, "%s overlaps %s in space %u (a register may be bound once per stage)",
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

static HRESULT rs_validate_sampler(const D3D12_STATIC_SAMPLER_DESC1 *s, UINT k, char *error, size_t error_size)
{
    const uint32_t addresses[3] = {s->AddressU, s->AddressV, s->AddressW};
    static const char *const address_names[3] = {"AddressU", "AddressV", "AddressW"};
    const char *problem;

    if (!rs_filter_known(s->Filter))
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "pStaticSamplers[%u].Filter is 0x%x (not a D3D12_FILTER)", k, (unsigned)s->Filter);
    for (unsigned a = 0; a < 3; a++)
        if (addresses[a] < D3D12_TEXTURE_ADDRESS_MODE_WRAP || addresses[a] > D3D12_TEXTURE_ADDRESS_MODE_MIRROR_ONCE)
            return d3d12xs_write_error(E_INVALIDARG, error, error_size, "pStaticSamplers[%u].%s is %u (must be WRAP, MIRROR, CLAMP, BORDER or MIRROR_ONCE)",
                    k, address_names[a], addresses[a]);
    if (isnan(s->MipLODBias) || s->MipLODBias < -16.0f || s->MipLODBias > 15.99f)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "pStaticSamplers[%u].MipLODBias is %g (must be in [-16, 15.99])", k, (double)s->MipLODBias);
    if ((s->Filter & 0x40) && (s->MaxAnisotropy < 1 || s->MaxAnisotropy > 16))
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "pStaticSamplers[%u].MaxAnisotropy is %u (an anisotropic filter needs 1 to 16)",
                k, s->MaxAnisotropy);
    if ((uint32_t)s->ComparisonFunc > D3D12_COMPARISON_FUNC_ALWAYS
            || (rs_filter_is_comparison(s->Filter) && s->ComparisonFunc < D3D12_COMPARISON_FUNC_NEVER))
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "pStaticSamplers[%u].ComparisonFunc is %u (must be NEVER..ALWAYS%s)",
                k, (unsigned)s->ComparisonFunc, rs_filter_is_comparison(s->Filter) ? " for a comparison filter" : ", or 0 for other filters");
    if ((uint32_t)s->BorderColor > D3D12_STATIC_BORDER_COLOR_OPAQUE_WHITE_UINT)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "pStaticSamplers[%u].BorderColor is %u (not a D3D12_STATIC_BORDER_COLOR)",
                k, (unsigned)s->BorderColor);
    if (isnan(s->MinLOD) || isnan(s->MaxLOD))
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "pStaticSamplers[%u].%s is NaN", k, isnan(s->MinLOD) ? "MinLOD" : "MaxLOD");
    if (s->ShaderRegister == UINT32_MAX)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "pStaticSamplers[%u].ShaderRegister is 0xffffffff (not a register)", k);
    if (s->RegisterSpace >= RS_RESERVED_SPACE_FIRST)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "pStaticSamplers[%u].RegisterSpace is 0x%x (spaces 0xfffffff0 and up are reserved)",
                k, s->RegisterSpace);
    if ((uint32_t)s->ShaderVisibility > D3D12_SHADER_VISIBILITY_MESH)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "pStaticSamplers[%u].ShaderVisibility is %u (must be ALL..MESH)",
                k, (unsigned)s->ShaderVisibility);
    if ((problem = d3d12xs_sampler_flags_problem(s->Flags, s->Filter, s->AddressU, s->AddressV, s->MinLOD, s->MaxLOD)))
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "pStaticSamplers[%u].Flags is 0x%x: %s", k, (unsigned)s->Flags, problem);
    /* A static sampler's border colour is the enum's: the flag may only repeat what a UINT colour says. */
    if ((s->Flags & D3D12_SAMPLER_FLAG_UINT_BORDER_COLOR) && s->BorderColor != D3D12_STATIC_BORDER_COLOR_OPAQUE_BLACK_UINT
            && s->BorderColor != D3D12_STATIC_BORDER_COLOR_OPAQUE_WHITE_UINT)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "pStaticSamplers[%u].Flags has UINT_BORDER_COLOR but BorderColor is %u "
                "(a float colour; UINT_BORDER_COLOR needs OPAQUE_BLACK_UINT or OPAQUE_WHITE_UINT)", k, (unsigned)s->BorderColor);
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
    return d3d12xs_write_error(E_INVALIDARG, error, error_size, "pParameters[%u].DescriptorTable.pDescriptorRanges[%u].Flags is 0x%x (%s)", i, j, flags, why);
}

static HRESULT rs_validate_table(const struct rs_view *view, const struct rs_param *p, UINT i,
        struct rs_binding *bindings, size_t *binding_count, char *error, size_t error_size)
{
    uint64_t next_offset = 0;
    bool previous_unbounded = false;
    D3D12_DESCRIPTOR_RANGE1 first;

    if (!p->range_count)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "pParameters[%u].DescriptorTable.NumDescriptorRanges is 0 (a table holds at least one range)", i);
    if (!p->ranges)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "pParameters[%u].DescriptorTable.pDescriptorRanges is NULL (NumDescriptorRanges is %u)",
                i, p->range_count);
    d3d12xs_rs_get_range(view->version, p->ranges, 0, &first);
    for (UINT j = 0; j < p->range_count; j++) {
        D3D12_DESCRIPTOR_RANGE1 r;
        bool unbounded;
        uint64_t offset;
        HRESULT hr;

        d3d12xs_rs_get_range(view->version, p->ranges, j, &r);
        unbounded = r.NumDescriptors == UINT32_MAX;
        if ((uint32_t)r.RangeType > D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER)
            return d3d12xs_write_error(E_INVALIDARG, error, error_size,
                    "pParameters[%u].DescriptorTable.pDescriptorRanges[%u].RangeType is %u (must be SRV, UAV, CBV or SAMPLER)",
                    i, j, (unsigned)r.RangeType);
        if (j && (r.RangeType == D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER) != (first.RangeType == D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER))
            return d3d12xs_write_error(E_INVALIDARG, error, error_size,
                    "pParameters[%u].DescriptorTable.pDescriptorRanges[%u].RangeType is %s but pDescriptorRanges[0] is %s "
                    "(a table cannot mix SAMPLER ranges with CBV/SRV/UAV ranges)",
                    i, j, d3d12xs_rs_range_type_name(r.RangeType), d3d12xs_rs_range_type_name(first.RangeType));
        if (!r.NumDescriptors)
            return d3d12xs_write_error(E_INVALIDARG, error, error_size,
                    "pParameters[%u].DescriptorTable.pDescriptorRanges[%u].NumDescriptors is 0 (must be at least 1, or UINT_MAX for unbounded)", i, j);
        if (!unbounded && (uint64_t)r.BaseShaderRegister + r.NumDescriptors - 1 >= UINT32_MAX)
            return d3d12xs_write_error(E_INVALIDARG, error, error_size,
                    "pParameters[%u].DescriptorTable.pDescriptorRanges[%u]: BaseShaderRegister %u + NumDescriptors %u runs past the last register",
                    i, j, r.BaseShaderRegister, r.NumDescriptors);
        if (r.RegisterSpace >= RS_RESERVED_SPACE_FIRST)
            return d3d12xs_write_error(E_INVALIDARG, error, error_size,
                    "pParameters[%u].DescriptorTable.pDescriptorRanges[%u].RegisterSpace is 0x%x (spaces 0xfffffff0 and up are reserved)",
                    i, j, r.RegisterSpace);
        if (view->version != D3D_ROOT_SIGNATURE_VERSION_1_0 && FAILED(hr = rs_validate_range_flags(r.Flags, r.RangeType, i, j, error, error_size)))
            return hr;
        if (r.OffsetInDescriptorsFromTableStart == D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND) {
            if (previous_unbounded)
                return d3d12xs_write_error(E_INVALIDARG, error, error_size,
                        "pParameters[%u].DescriptorTable.pDescriptorRanges[%u].OffsetInDescriptorsFromTableStart is APPEND after an unbounded range "
                        "(give an explicit offset)", i, j);
            offset = next_offset;
        } else {
            offset = r.OffsetInDescriptorsFromTableStart;
        }
        if (!unbounded && offset + r.NumDescriptors > UINT32_MAX)
            return d3d12xs_write_error(E_INVALIDARG, error, error_size,
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
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the description is NULL");
    if (!d3d12xs_rs_version_known(desc->Version))
        return d3d12xs_rs_version_error(desc->Version, "Version", error, error_size);
    d3d12xs_rs_view_init(&view, desc);

    if (view.flags & ~RS_KNOWN_FLAGS)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "Flags is 0x%x (bits 0x%x are not D3D12_ROOT_SIGNATURE_FLAGS)",
                view.flags, view.flags & ~RS_KNOWN_FLAGS);
    if ((view.flags & D3D12_ROOT_SIGNATURE_FLAG_LOCAL_ROOT_SIGNATURE) && view.flags != D3D12_ROOT_SIGNATURE_FLAG_LOCAL_ROOT_SIGNATURE)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "Flags is 0x%x (LOCAL_ROOT_SIGNATURE cannot be combined with other flags)", view.flags);
    if ((view.flags & D3D12XBOX_ROOT_SIGNATURE_FLAG_INTERNAL_XDXR) == D3D12XBOX_ROOT_SIGNATURE_FLAG_INTERNAL_XDXR)
        WARN("root signature Flags 0x%x include D3D12XBOX_ROOT_SIGNATURE_FLAG_INTERNAL_XDXR (internal to the console; accepted)", view.flags);

    if (FAILED(hr = d3d12xs_rs_check_structure(&view, &range_total, error, error_size)))
        return hr;
    if (range_total + view.param_count + view.sampler_count
            && !(bindings = calloc(range_total + view.param_count + view.sampler_count, sizeof(*bindings))))
        return d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "cannot allocate the register overlap check");

    for (UINT i = 0; i < view.param_count; i++) {
        struct rs_param p;
        d3d12xs_rs_get_param(&view, i, &p);
        if (p.visibility > D3D12_SHADER_VISIBILITY_MESH) {
            hr = d3d12xs_write_error(E_INVALIDARG, error, error_size, "pParameters[%u].ShaderVisibility is %u (must be ALL..MESH)", i, p.visibility);
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
                hr = d3d12xs_write_error(E_INVALIDARG, error, error_size, "pParameters[%u].Constants.Num32BitValues is 0 (must be at least 1)", i);
                goto done;
            }
            cost += p.value_count;
        } else {
            if (p.shader_register == UINT32_MAX) {
                hr = d3d12xs_write_error(E_INVALIDARG, error, error_size, "pParameters[%u].Descriptor.ShaderRegister is 0xffffffff (not a register)", i);
                goto done;
            }
            if (view.version != D3D_ROOT_SIGNATURE_VERSION_1_0
                    && ((p.flags & ~RS_ROOT_DESCRIPTOR_KNOWN_FLAGS) || (p.flags & (p.flags - 1)))) {
                hr = d3d12xs_write_error(E_INVALIDARG, error, error_size,
                        "pParameters[%u].Descriptor.Flags is 0x%x (must be NONE or one of DATA_VOLATILE, DATA_STATIC_WHILE_SET_AT_EXECUTE, DATA_STATIC)",
                        i, p.flags);
                goto done;
            }
            cost += 2;
        }
        if (p.register_space >= RS_RESERVED_SPACE_FIRST) {
            hr = d3d12xs_write_error(E_INVALIDARG, error, error_size, "pParameters[%u].%s.RegisterSpace is 0x%x (spaces 0xfffffff0 and up are reserved)",
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
        hr = d3d12xs_write_error(E_INVALIDARG, error, error_size,
                "pParameters cost %llu DWORDs (at most %u: a table costs 1, a root descriptor 2, constants 1 per value)",
                (unsigned long long)cost, RS_MAX_ROOT_COST);
        goto done;
    }
    for (UINT k = 0; k < view.sampler_count; k++) {
        D3D12_STATIC_SAMPLER_DESC1 sampler, *s = &sampler;
        d3d12xs_rs_get_sampler(&view, k, s);
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
