/* The version-independent view of a root signature description (root_signature_view.h). */
#include <stddef.h>
#include <string.h>

#include "descriptors/root_signature_view.h"

bool d3d12xs_rs_version_known(D3D_ROOT_SIGNATURE_VERSION version)
{
    return version == D3D_ROOT_SIGNATURE_VERSION_1_0 || version == D3D_ROOT_SIGNATURE_VERSION_1_1
            || version == D3D_ROOT_SIGNATURE_VERSION_1_2;
}

HRESULT d3d12xs_rs_version_error(D3D_ROOT_SIGNATURE_VERSION version, const char *field, char *error, size_t error_size)
{
    return d3d12xs_write_error(E_INVALIDARG, error, error_size, "%s is %d (must be 1_0, 1_1 or 1_2)", field, (int)version);
}

const char *d3d12xs_rs_range_type_name(uint32_t type)
{
    static const char *const names[] = {"SRV", "UAV", "CBV", "SAMPLER"};
    return type < 4 ? names[type] : "?";
}

char d3d12xs_rs_register_letter(uint32_t type)
{
    return type < 4 ? "tubs"[type] : '?';
}

const char *d3d12xs_rs_visibility_name(uint32_t visibility)
{
    static const char *const names[] = {"ALL", "VERTEX", "HULL", "DOMAIN", "GEOMETRY", "PIXEL", "AMPLIFICATION", "MESH"};
    return visibility < 8 ? names[visibility] : "?";
}

void d3d12xs_rs_view_init(struct rs_view *view, const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc)
{
    view->version = desc->Version;
    if (desc->Version == D3D_ROOT_SIGNATURE_VERSION_1_0) {
        view->param_count = desc->Desc_1_0.NumParameters;
        view->params = desc->Desc_1_0.pParameters;
        view->sampler_count = desc->Desc_1_0.NumStaticSamplers;
        view->samplers = desc->Desc_1_0.pStaticSamplers;
        view->flags = desc->Desc_1_0.Flags;
    } else if (desc->Version == D3D_ROOT_SIGNATURE_VERSION_1_2) {
        view->param_count = desc->Desc_1_2.NumParameters;
        view->params = desc->Desc_1_2.pParameters;
        view->sampler_count = desc->Desc_1_2.NumStaticSamplers;
        view->samplers = desc->Desc_1_2.pStaticSamplers;
        view->flags = desc->Desc_1_2.Flags;
    } else {
        view->param_count = desc->Desc_1_1.NumParameters;
        view->params = desc->Desc_1_1.pParameters;
        view->sampler_count = desc->Desc_1_1.NumStaticSamplers;
        view->samplers = desc->Desc_1_1.pStaticSamplers;
        view->flags = desc->Desc_1_1.Flags;
    }
}

bool d3d12xs_rs_is_root_descriptor(uint32_t type)
{
    return type == D3D12_ROOT_PARAMETER_TYPE_CBV || type == D3D12_ROOT_PARAMETER_TYPE_SRV
            || type == D3D12_ROOT_PARAMETER_TYPE_UAV;
}

void d3d12xs_rs_get_param(const struct rs_view *view, UINT i, struct rs_param *p)
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
        } else if (d3d12xs_rs_is_root_descriptor(p->type)) {
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
        } else if (d3d12xs_rs_is_root_descriptor(p->type)) {
            p->shader_register = src->Descriptor.ShaderRegister;
            p->register_space = src->Descriptor.RegisterSpace;
            p->flags = src->Descriptor.Flags;
        }
    }
}

_Static_assert(offsetof(D3D12_STATIC_SAMPLER_DESC1, Flags) == sizeof(D3D12_STATIC_SAMPLER_DESC)
        && sizeof(D3D12_STATIC_SAMPLER_DESC1) == RS_SAMPLER1_SIZE, "a 1.2 static sampler is a 1.0 one and its Flags");

void d3d12xs_rs_get_sampler(const struct rs_view *view, UINT i, D3D12_STATIC_SAMPLER_DESC1 *s)
{
    if (view->version == D3D_ROOT_SIGNATURE_VERSION_1_2) {
        *s = ((const D3D12_STATIC_SAMPLER_DESC1 *)view->samplers)[i];
        return;
    }
    /* D3D12_STATIC_SAMPLER_DESC1 is D3D12_STATIC_SAMPLER_DESC with Flags appended. */
    memcpy(s, &((const D3D12_STATIC_SAMPLER_DESC *)view->samplers)[i], sizeof(D3D12_STATIC_SAMPLER_DESC));
    s->Flags = D3D12_SAMPLER_FLAG_NONE;
}

/* Range j of a table as a 1.1 range (flags 0 for 1.0). */
void d3d12xs_rs_get_range(D3D_ROOT_SIGNATURE_VERSION version, const void *ranges, UINT j, D3D12_DESCRIPTOR_RANGE1 *r)
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
HRESULT d3d12xs_rs_check_structure(const struct rs_view *view, size_t *range_total, char *error, size_t error_size)
{
    struct rs_param p;

    *range_total = 0;
    if (view->param_count && !view->params)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "pParameters is NULL (NumParameters is %u)", view->param_count);
    if (view->sampler_count && !view->samplers)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "pStaticSamplers is NULL (NumStaticSamplers is %u)", view->sampler_count);
    for (UINT i = 0; i < view->param_count; i++) {
        d3d12xs_rs_get_param(view, i, &p);
        if (p.type == D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE) {
            if (p.range_count && !p.ranges)
                return d3d12xs_write_error(E_INVALIDARG, error, error_size,
                        "pParameters[%u].DescriptorTable.pDescriptorRanges is NULL (NumDescriptorRanges is %u)", i, p.range_count);
            *range_total += p.range_count;
        } else if (p.type != D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS && !d3d12xs_rs_is_root_descriptor(p.type)) {
            return d3d12xs_write_error(E_INVALIDARG, error, error_size,
                    "pParameters[%u].ParameterType is %u (must be DESCRIPTOR_TABLE, 32BIT_CONSTANTS, CBV, SRV or UAV)", i, p.type);
        }
    }
    return S_OK;
}
