/* ID3DBlob (ID3D10Blob): an immutable copy of some bytes; serialized root signatures and
 * error messages (NUL-terminated text) come back in one. */
#include <stdlib.h>
#include <string.h>

#include "common/blob.h"
#include "common/object.h"
#include "common/util.h"
#include "common/log.h"
#include "generated/d3d12_stubs.h"

#define METHOD(name) "ID3D10Blob::" #name

struct d3d12xs_blob {
    ID3D10Blob ID3D10Blob_iface;
    atomic_uint refcount;
    size_t size;
    unsigned char data[];
};

static struct d3d12xs_blob *impl_from_ID3D10Blob(ID3D10Blob *iface)
{
    return D3D12XS_CONTAINING(iface, struct d3d12xs_blob, ID3D10Blob_iface);
}

static HRESULT STDMETHODCALLTYPE d3d12xs_blob_QueryInterface(ID3D10Blob *iface, REFIID riid, void **object)
{
    static const IID *const iids[] = {&IID_ID3D10Blob, &IID_IUnknown, NULL};
    return d3d12xs_query_interface(iface, METHOD(QueryInterface), iids, riid, object);
}

static ULONG STDMETHODCALLTYPE d3d12xs_blob_AddRef(ID3D10Blob *iface)
{
    return atomic_fetch_add(&impl_from_ID3D10Blob(iface)->refcount, 1) + 1;
}

static ULONG STDMETHODCALLTYPE d3d12xs_blob_Release(ID3D10Blob *iface)
{
    struct d3d12xs_blob *blob = impl_from_ID3D10Blob(iface);
    unsigned refcount = atomic_fetch_sub(&blob->refcount, 1) - 1;
    if (!refcount)
        free(blob);
    return refcount;
}

static LPVOID STDMETHODCALLTYPE d3d12xs_blob_GetBufferPointer(ID3D10Blob *iface)
{
    return impl_from_ID3D10Blob(iface)->data;
}

static SIZE_T STDMETHODCALLTYPE d3d12xs_blob_GetBufferSize(ID3D10Blob *iface)
{
    return impl_from_ID3D10Blob(iface)->size;
}

#if defined(__clang__)
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Woverride-init"
#endif

static const ID3D10BlobVtbl d3d12xs_blob_vtbl = {
    D3D12XS_STUB_VTBL_ID3D10Blob,
    .QueryInterface = d3d12xs_blob_QueryInterface,
    .AddRef = d3d12xs_blob_AddRef,
    .Release = d3d12xs_blob_Release,
    .GetBufferPointer = d3d12xs_blob_GetBufferPointer,
    .GetBufferSize = d3d12xs_blob_GetBufferSize,
};

HRESULT d3d12xs_blob_create(const void *data, size_t size, ID3DBlob **out)
{
    struct d3d12xs_blob *blob;

    *out = NULL;
    if (size > SIZE_MAX - sizeof(*blob) || !(blob = malloc(sizeof(*blob) + size)))
        return E_OUTOFMEMORY;
    blob->ID3D10Blob_iface.lpVtbl = &d3d12xs_blob_vtbl;
    atomic_init(&blob->refcount, 1);
    blob->size = size;
    if (size)
        memcpy(blob->data, data, size);
    *out = &blob->ID3D10Blob_iface;
    return S_OK;
}
