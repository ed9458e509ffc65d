/* Serialized root signatures: the DXBC container with one RTS0 part (versions 1.0, 1.1 and 1.2),
 * and the D3D12 rules a root signature description must follow.
 *
 * None of these functions logs an error: they write the reason (naming the field, e.g.
 * "pParameters[2].DescriptorTable.pDescriptorRanges[0].RangeType is 7 (...)") into error,
 * and the caller logs it once under its own method name. error may be NULL. */
#ifndef D3D12XS_ROOT_SIGNATURE_BLOB_H
#define D3D12XS_ROOT_SIGNATURE_BLOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "d3d12.h"
#include "common/blob.h" /* the ID3DBlob that serialized root signatures come back in */

/* Parses a DXBC container holding an RTS0 part (version 1.0, 1.1 or 1.2). On success *desc is
 * one heap allocation (free with d3d12xs_root_signature_desc_free) in its ORIGINAL version. Never
 * reads out of bounds; the checksum is not checked (blobs from other tools must load). A
 * malformed blob gives E_INVALIDARG. Does not check the D3D12 rules: call
 * d3d12xs_root_signature_validate on the result. */
HRESULT d3d12xs_root_signature_parse(const void *data, size_t size, D3D12_VERSIONED_ROOT_SIGNATURE_DESC **desc,
        char *error, size_t error_size);

/* Copies src into *dst (one allocation) at version 1_0, 1_1 or 1_2. 1.0 -> 1.1 or 1.2 adds the
 * flags that mean 1.0 semantics (CBV/SRV/UAV ranges DESCRIPTORS_VOLATILE | DATA_VOLATILE, sampler
 * ranges DESCRIPTORS_VOLATILE, root descriptors DATA_VOLATILE); 1.1 or 1.2 -> 1.0 drops range and
 * root descriptor flags, as D3D12 documents; 1.2 -> 1.0 or 1.1 drops the static samplers' Flags
 * (as D3D12 does, without an error) and 1.0 or 1.1 -> 1.2 gives them NONE. Needs src to be
 * structurally sound (arrays present, known parameter types), not otherwise valid. */
HRESULT d3d12xs_root_signature_convert(const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *src, D3D_ROOT_SIGNATURE_VERSION version,
        D3D12_VERSIONED_ROOT_SIGNATURE_DESC **dst, char *error, size_t error_size);

/* Checks the D3D12 rules; E_INVALIDARG and a reason naming the field on failure. Logs a warning (not an error) for the console's internal-only INTERNAL_XDXR flags. */
HRESULT d3d12xs_root_signature_validate(const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc, char *error, size_t error_size);

/* Serializes to the standard container (DXBC header with the DXBC checksum, one RTS0 part), laid
 * out as Microsoft's compilers lay it out. *data is malloc()ed: free() it. Does not validate; fails
 * only on structurally unsound descriptions (E_INVALIDARG) or out of memory. */
HRESULT d3d12xs_root_signature_serialize(const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc, void **data, size_t *size,
        char *error, size_t error_size);

void d3d12xs_root_signature_desc_free(D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc);

/* Deep comparison (same version, same values, float fields bit for bit); for tests and fuzzing. */
bool d3d12xs_root_signature_desc_equal(const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *a, const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *b);

/* ---- helpers (dxbc_checksum.c) ---- */

/* Plain MD5 (RFC 1321) of size bytes. */
void d3d12xs_md5(const void *data, size_t size, uint8_t digest[16]);
/* The DXBC container checksum: MD5's compression over bytes 20..size of the container with the
 * container's own final-block layout. size is the whole container (at least 20 bytes). */
void d3d12xs_dxbc_checksum(const void *container, size_t size, uint8_t checksum[16]);

#endif
