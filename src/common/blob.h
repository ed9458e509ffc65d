/* ID3DBlob (blob.c): an immutable copy of some bytes, for serialized root signatures,
 * compiled shaders and error messages. */
#ifndef D3D12XS_BLOB_H
#define D3D12XS_BLOB_H

#include <stddef.h>

#include "d3d12.h"

/* An ID3DBlob holding a copy of size bytes of data (data may be NULL when size is 0). */
HRESULT d3d12xs_blob_create(const void *data, size_t size, ID3DBlob **blob);

#endif
