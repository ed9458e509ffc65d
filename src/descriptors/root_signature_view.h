/* What the root signature code shares (root_signature_blob.c, root_signature_rules.c): the
 * RTS0 constants, a version-independent view of a description, and the error helper. */
#ifndef D3D12XS_ROOT_SIGNATURE_VIEW_H
#define D3D12XS_ROOT_SIGNATURE_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "d3d12_x.h"
#include "common/util.h"

#define RS_FOURCC(a, b, c, d) ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)
#define RS_TAG_DXBC RS_FOURCC('D', 'X', 'B', 'C')
#define RS_TAG_RTS0 RS_FOURCC('R', 'T', 'S', '0')

#define RS_CONTAINER_HEADER_SIZE 32u /* magic, checksum, version, size, part count */
#define RS_HEADER_SIZE 24u
#define RS_PARAMETER_SIZE 12u
#define RS_TABLE_SIZE 8u
#define RS_CONSTANTS_SIZE 12u
#define RS_SAMPLER_SIZE 52u   /* 1.0 and 1.1: the 13 fields of D3D12_STATIC_SAMPLER_DESC */
#define RS_SAMPLER1_SIZE 56u  /* 1.2: the same, then D3D12_STATIC_SAMPLER_DESC1's Flags */
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

/* ---- a version-independent view of a description ---- */

struct rs_view {
    D3D_ROOT_SIGNATURE_VERSION version; /* 1_0, 1_1 or 1_2 */
    UINT param_count;
    const void *params;   /* D3D12_ROOT_PARAMETER (1.0) or D3D12_ROOT_PARAMETER1 (1.1, 1.2) */
    UINT sampler_count;
    const void *samplers; /* D3D12_STATIC_SAMPLER_DESC (1.0, 1.1) or D3D12_STATIC_SAMPLER_DESC1 (1.2) */
    UINT flags;
};

struct rs_param {
    uint32_t type, visibility;
    uint32_t range_count; /* tables */
    const void *ranges;
    uint32_t shader_register, register_space, value_count; /* constants, root descriptors */
    uint32_t flags;       /* root descriptors (1.1, 1.2) */
};

bool d3d12xs_rs_version_known(D3D_ROOT_SIGNATURE_VERSION version);
/* E_INVALIDARG naming the version argument (field). */
HRESULT d3d12xs_rs_version_error(D3D_ROOT_SIGNATURE_VERSION version, const char *field, char *error, size_t error_size);
const char *d3d12xs_rs_range_type_name(uint32_t type);
char d3d12xs_rs_register_letter(uint32_t type);
const char *d3d12xs_rs_visibility_name(uint32_t visibility);
void d3d12xs_rs_view_init(struct rs_view *view, const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc);
bool d3d12xs_rs_is_root_descriptor(uint32_t type);
void d3d12xs_rs_get_param(const struct rs_view *view, UINT i, struct rs_param *p);
/* Static sampler i as a 1.2 sampler (Flags 0 for 1.0 and 1.1). */
void d3d12xs_rs_get_sampler(const struct rs_view *view, UINT i, D3D12_STATIC_SAMPLER_DESC1 *s);
/* Range j of a table as a 1.1 range (flags 0 for 1.0). */
void d3d12xs_rs_get_range(D3D_ROOT_SIGNATURE_VERSION version, const void *ranges, UINT j, D3D12_DESCRIPTOR_RANGE1 *r);
/* Arrays present where counts say so, parameter types known; counts the ranges. */
HRESULT d3d12xs_rs_check_structure(const struct rs_view *view, size_t *range_total, char *error, size_t error_size);

#endif
