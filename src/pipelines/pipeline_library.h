/* ID3D12PipelineLibrary and ID3D12PipelineLibrary1 (pipeline_library.c): named pipelines, stored
 * live or read back from a serialized library, whose entries are cached pipeline blobs
 * (pipeline_blob.h) after the same identity header. */
#ifndef D3D12XS_PIPELINE_LIBRARY_H
#define D3D12XS_PIPELINE_LIBRARY_H

#include "device/device.h"

/* ID3D12Device1::CreatePipelineLibrary: an empty library from an empty blob, else the serialized
 * library's entries (copied); out NULL checks the blob only (S_FALSE where it would be made). */
HRESULT d3d12_pipeline_library_create(struct d3d12_device *device, const void *blob, size_t size, REFIID riid, void **out);

#endif
