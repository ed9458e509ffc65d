/* D3D12SerializeRootSignature, D3D12SerializeVersionedRootSignature and the two root signature
 * deserializers (plain IUnknown objects, not device children). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/device.h"
#include "descriptors/root_signature_blob.h"
#include "generated/d3d12_stubs.h"

#define ERROR_SIZE 512

/* Logs "<method>: <message>", hands the message back in *error_blob when asked, returns hr. */
static HRESULT serialize_fail(HRESULT hr, const char *method, ID3DBlob **error_blob, const char *prefix, const char *message)
{
    char line[ERROR_SIZE + 64];
    snprintf(line, sizeof(line), "%s%s", prefix, message);
    if (error_blob && FAILED(d3d12xs_blob_create(line, strlen(line) + 1, error_blob)))
        *error_blob = NULL;
    return d3d12xs_fail(hr, method, "%s", line);
}

static HRESULT serialize(const char *method, const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc, const char *prefix,
        ID3DBlob **blob, ID3DBlob **error_blob)
{
    char error[ERROR_SIZE];
    size_t size;
    void *data;
    HRESULT hr;

    if (FAILED(hr = d3d12xs_root_signature_validate(desc, error, sizeof(error))))
        return serialize_fail(hr, method, error_blob, prefix, error);
    if (FAILED(hr = d3d12xs_root_signature_serialize(desc, &data, &size, error, sizeof(error))))
        return serialize_fail(hr, method, error_blob, prefix, error);
    hr = d3d12xs_blob_create(data, size, blob);
    free(data);
    if (FAILED(hr))
        return d3d12xs_fail(hr, method, "cannot allocate the %zu-byte blob", size);
    return S_OK;
}

HRESULT WINAPI D3D12SerializeRootSignature(const D3D12_ROOT_SIGNATURE_DESC *desc, D3D_ROOT_SIGNATURE_VERSION version,
        ID3DBlob **blob, ID3DBlob **error_blob)
{
    static const char method[] = "D3D12SerializeRootSignature";
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC versioned;

    if (blob)
        *blob = NULL;
    if (error_blob)
        *error_blob = NULL;
    if (!desc)
        return serialize_fail(E_INVALIDARG, method, error_blob, "", "pRootSignature is NULL (must describe the root signature)");
    if (version != D3D_ROOT_SIGNATURE_VERSION_1_0)
        return serialize_fail(E_INVALIDARG, method, error_blob, "",
                version == D3D_ROOT_SIGNATURE_VERSION_1_1 ? "Version is 1_1 (this function serializes D3D12_ROOT_SIGNATURE_DESC, "
                "version 1_0; use D3D12SerializeVersionedRootSignature for 1_1)"
                : version == D3D_ROOT_SIGNATURE_VERSION_1_2 ? "Version is 1_2 (this function serializes D3D12_ROOT_SIGNATURE_DESC, "
                "version 1_0; use D3D12SerializeVersionedRootSignature for 1_2)"
                : "Version is not 1_0 (this function serializes D3D12_ROOT_SIGNATURE_DESC, version 1_0)");
    if (!blob)
        return d3d12xs_fail(E_POINTER, method, "ppBlob is NULL (must receive the blob)");
    versioned.Version = D3D_ROOT_SIGNATURE_VERSION_1_0;
    versioned.Desc_1_0 = *desc;
    return serialize(method, &versioned, "pRootSignature->", blob, error_blob);
}

HRESULT WINAPI D3D12SerializeVersionedRootSignature(const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc,
        ID3DBlob **blob, ID3DBlob **error_blob)
{
    static const char method[] = "D3D12SerializeVersionedRootSignature";
    const char *prefix;

    if (blob)
        *blob = NULL;
    if (error_blob)
        *error_blob = NULL;
    if (!desc)
        return serialize_fail(E_INVALIDARG, method, error_blob, "", "pRootSignature is NULL (must describe the root signature)");
    if (!blob)
        return d3d12xs_fail(E_POINTER, method, "ppBlob is NULL (must receive the blob)");
    switch (desc->Version) {
    case D3D_ROOT_SIGNATURE_VERSION_1_0: prefix = "pRootSignature->Desc_1_0."; break;
    case D3D_ROOT_SIGNATURE_VERSION_1_1: prefix = "pRootSignature->Desc_1_1."; break;
    case D3D_ROOT_SIGNATURE_VERSION_1_2: prefix = "pRootSignature->Desc_1_2."; break;
    default: prefix = "pRootSignature->"; break;
    }
    return serialize(method, desc, prefix, blob, error_blob);
}

/* Parses and checks a blob for the deserializers; logs one line on failure. */
static HRESULT deserialize(const char *method, const void *data, SIZE_T size, REFIID riid, void **out,
        const IID *iid, D3D12_VERSIONED_ROOT_SIGNATURE_DESC **desc)
{
    char error[ERROR_SIZE];
    HRESULT hr;

    *desc = NULL;
    if (out)
        *out = NULL;
    if (!data)
        return d3d12xs_fail(E_INVALIDARG, method, "pSrcData is NULL (must point at a serialized root signature)");
    if (!size)
        return d3d12xs_fail(E_INVALIDARG, method, "SrcDataSizeInBytes is 0 (must be the size of the serialized root signature)");
    if (!riid)
        return d3d12xs_fail(E_INVALIDARG, method, "pRootSignatureDeserializerInterface is NULL (must name the deserializer interface)");
    if (!out)
        return d3d12xs_fail(E_POINTER, method, "ppRootSignatureDeserializer is NULL (must receive the deserializer)");
    if (memcmp(riid, iid, sizeof(*iid)) && memcmp(riid, &IID_IUnknown, sizeof(*iid)))
        return d3d12xs_fail(E_NOINTERFACE, method, "pRootSignatureDeserializerInterface is {%08x-...} (must be IID_%s or IID_IUnknown)",
                (unsigned)riid->Data1, iid == &IID_ID3D12RootSignatureDeserializer
                ? "ID3D12RootSignatureDeserializer" : "ID3D12VersionedRootSignatureDeserializer");
    if (FAILED(hr = d3d12xs_root_signature_parse(data, size, desc, error, sizeof(error))))
        return d3d12xs_fail(hr, method, "pSrcData is not a valid serialized root signature: %s", error);
    if (FAILED(hr = d3d12xs_root_signature_validate(*desc, error, sizeof(error)))) {
        d3d12xs_root_signature_desc_free(*desc);
        *desc = NULL;
        return d3d12xs_fail(hr, method, "pSrcData holds a root signature that breaks a D3D12 rule: %s", error);
    }
    return S_OK;
}

/* ---- ID3D12RootSignatureDeserializer ---- */

struct d3d12_root_signature_deserializer {
    ID3D12RootSignatureDeserializer ID3D12RootSignatureDeserializer_iface;
    atomic_uint refcount;
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc; /* version 1_0 */
};

static struct d3d12_root_signature_deserializer *impl_from_ID3D12RootSignatureDeserializer(ID3D12RootSignatureDeserializer *iface)
{
    return D3D12XS_CONTAINING(iface, struct d3d12_root_signature_deserializer, ID3D12RootSignatureDeserializer_iface);
}

static HRESULT STDMETHODCALLTYPE d3d12_root_signature_deserializer_QueryInterface(ID3D12RootSignatureDeserializer *iface,
        REFIID riid, void **object)
{
    static const IID *const iids[] = {&IID_ID3D12RootSignatureDeserializer, &IID_IUnknown, NULL};
    return d3d12xs_query_interface(iface, "ID3D12RootSignatureDeserializer::QueryInterface", iids, riid, object);
}

static ULONG STDMETHODCALLTYPE d3d12_root_signature_deserializer_AddRef(ID3D12RootSignatureDeserializer *iface)
{
    return atomic_fetch_add(&impl_from_ID3D12RootSignatureDeserializer(iface)->refcount, 1) + 1;
}

static ULONG STDMETHODCALLTYPE d3d12_root_signature_deserializer_Release(ID3D12RootSignatureDeserializer *iface)
{
    struct d3d12_root_signature_deserializer *deserializer = impl_from_ID3D12RootSignatureDeserializer(iface);
    unsigned refcount = atomic_fetch_sub(&deserializer->refcount, 1) - 1;
    if (!refcount) {
        d3d12xs_root_signature_desc_free(deserializer->desc);
        free(deserializer);
    }
    return refcount;
}

static const D3D12_ROOT_SIGNATURE_DESC *STDMETHODCALLTYPE d3d12_root_signature_deserializer_GetRootSignatureDesc(
        ID3D12RootSignatureDeserializer *iface)
{
    return &impl_from_ID3D12RootSignatureDeserializer(iface)->desc->Desc_1_0;
}

/* ---- ID3D12VersionedRootSignatureDeserializer ---- */

struct d3d12_versioned_root_signature_deserializer {
    ID3D12VersionedRootSignatureDeserializer ID3D12VersionedRootSignatureDeserializer_iface;
    atomic_uint refcount;
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc; /* as serialized */
    pthread_mutex_t lock;
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC *converted[3]; /* 1_0, 1_1, 1_2; made on first request */
};

static struct d3d12_versioned_root_signature_deserializer *impl_from_ID3D12VersionedRootSignatureDeserializer(
        ID3D12VersionedRootSignatureDeserializer *iface)
{
    return D3D12XS_CONTAINING(iface, struct d3d12_versioned_root_signature_deserializer, ID3D12VersionedRootSignatureDeserializer_iface);
}

static HRESULT STDMETHODCALLTYPE d3d12_versioned_root_signature_deserializer_QueryInterface(
        ID3D12VersionedRootSignatureDeserializer *iface, REFIID riid, void **object)
{
    static const IID *const iids[] = {&IID_ID3D12VersionedRootSignatureDeserializer, &IID_IUnknown, NULL};
    return d3d12xs_query_interface(iface, "ID3D12VersionedRootSignatureDeserializer::QueryInterface", iids, riid, object);
}

static ULONG STDMETHODCALLTYPE d3d12_versioned_root_signature_deserializer_AddRef(ID3D12VersionedRootSignatureDeserializer *iface)
{
    return atomic_fetch_add(&impl_from_ID3D12VersionedRootSignatureDeserializer(iface)->refcount, 1) + 1;
}

static ULONG STDMETHODCALLTYPE d3d12_versioned_root_signature_deserializer_Release(ID3D12VersionedRootSignatureDeserializer *iface)
{
    struct d3d12_versioned_root_signature_deserializer *deserializer = impl_from_ID3D12VersionedRootSignatureDeserializer(iface);
    unsigned refcount = atomic_fetch_sub(&deserializer->refcount, 1) - 1;
    if (!refcount) {
        for (size_t i = 0; i < D3D12XS_ARRAY_SIZE(deserializer->converted); i++)
            d3d12xs_root_signature_desc_free(deserializer->converted[i]);
        d3d12xs_root_signature_desc_free(deserializer->desc);
        pthread_mutex_destroy(&deserializer->lock);
        free(deserializer);
    }
    return refcount;
}

static HRESULT STDMETHODCALLTYPE d3d12_versioned_root_signature_deserializer_GetRootSignatureDescAtVersion(
        ID3D12VersionedRootSignatureDeserializer *iface, D3D_ROOT_SIGNATURE_VERSION version,
        const D3D12_VERSIONED_ROOT_SIGNATURE_DESC **desc)
{
    static const char method[] = "ID3D12VersionedRootSignatureDeserializer::GetRootSignatureDescAtVersion";
    struct d3d12_versioned_root_signature_deserializer *deserializer = impl_from_ID3D12VersionedRootSignatureDeserializer(iface);
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC **slot;
    char error[ERROR_SIZE];
    HRESULT hr = S_OK;

    if (!desc)
        return d3d12xs_fail(E_INVALIDARG, method, "ppDesc is NULL (must receive the description)");
    *desc = NULL;
    if (version != D3D_ROOT_SIGNATURE_VERSION_1_0 && version != D3D_ROOT_SIGNATURE_VERSION_1_1 && version != D3D_ROOT_SIGNATURE_VERSION_1_2)
        return d3d12xs_fail(E_INVALIDARG, method, "convertToVersion is %d (must be 1_0, 1_1 or 1_2)", (int)version);
    if (version == deserializer->desc->Version) {
        *desc = deserializer->desc;
        return S_OK;
    }
    slot = &deserializer->converted[version - D3D_ROOT_SIGNATURE_VERSION_1_0];
    pthread_mutex_lock(&deserializer->lock);
    if (!*slot && FAILED(hr = d3d12xs_root_signature_convert(deserializer->desc, version, slot, error, sizeof(error))))
        d3d12xs_fail(hr, method, "cannot convert the root signature: %s", error);
    *desc = *slot;
    pthread_mutex_unlock(&deserializer->lock);
    return hr;
}

static const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *STDMETHODCALLTYPE d3d12_versioned_root_signature_deserializer_GetUnconvertedRootSignatureDesc(
        ID3D12VersionedRootSignatureDeserializer *iface)
{
    return impl_from_ID3D12VersionedRootSignatureDeserializer(iface)->desc;
}

#if defined(__clang__)
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Woverride-init"
#endif

static const ID3D12RootSignatureDeserializerVtbl d3d12_root_signature_deserializer_vtbl = {
    D3D12XS_STUB_VTBL_ID3D12RootSignatureDeserializer,
    .QueryInterface = d3d12_root_signature_deserializer_QueryInterface,
    .AddRef = d3d12_root_signature_deserializer_AddRef,
    .Release = d3d12_root_signature_deserializer_Release,
    .GetRootSignatureDesc = d3d12_root_signature_deserializer_GetRootSignatureDesc,
};

static const ID3D12VersionedRootSignatureDeserializerVtbl d3d12_versioned_root_signature_deserializer_vtbl = {
    D3D12XS_STUB_VTBL_ID3D12VersionedRootSignatureDeserializer,
    .QueryInterface = d3d12_versioned_root_signature_deserializer_QueryInterface,
    .AddRef = d3d12_versioned_root_signature_deserializer_AddRef,
    .Release = d3d12_versioned_root_signature_deserializer_Release,
    .GetRootSignatureDescAtVersion = d3d12_versioned_root_signature_deserializer_GetRootSignatureDescAtVersion,
    .GetUnconvertedRootSignatureDesc = d3d12_versioned_root_signature_deserializer_GetUnconvertedRootSignatureDesc,
};

HRESULT WINAPI D3D12CreateRootSignatureDeserializer(LPCVOID data, SIZE_T size, REFIID riid, void **out)
{
    static const char method[] = "D3D12CreateRootSignatureDeserializer";
    struct d3d12_root_signature_deserializer *deserializer;
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc, *desc_1_0;
    char error[ERROR_SIZE];
    HRESULT hr;

    if (FAILED(hr = deserialize(method, data, size, riid, out, &IID_ID3D12RootSignatureDeserializer, &desc)))
        return hr;
    /* A 1.1 or 1.2 blob comes back as 1.0: D3D12 drops the range and root descriptor flags and
     * the static samplers' flags. */
    if (desc->Version != D3D_ROOT_SIGNATURE_VERSION_1_0) {
        hr = d3d12xs_root_signature_convert(desc, D3D_ROOT_SIGNATURE_VERSION_1_0, &desc_1_0, error, sizeof(error));
        d3d12xs_root_signature_desc_free(desc);
        if (FAILED(hr))
            return d3d12xs_fail(hr, method, "cannot convert the root signature to 1.0: %s", error);
        desc = desc_1_0;
    }
    if (!(deserializer = calloc(1, sizeof(*deserializer)))) {
        d3d12xs_root_signature_desc_free(desc);
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the deserializer");
    }
    deserializer->ID3D12RootSignatureDeserializer_iface.lpVtbl = &d3d12_root_signature_deserializer_vtbl;
    atomic_init(&deserializer->refcount, 1);
    deserializer->desc = desc;
    *out = &deserializer->ID3D12RootSignatureDeserializer_iface;
    return S_OK;
}

HRESULT WINAPI D3D12CreateVersionedRootSignatureDeserializer(LPCVOID data, SIZE_T size, REFIID riid, void **out)
{
    static const char method[] = "D3D12CreateVersionedRootSignatureDeserializer";
    struct d3d12_versioned_root_signature_deserializer *deserializer;
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc;
    HRESULT hr;

    if (FAILED(hr = deserialize(method, data, size, riid, out, &IID_ID3D12VersionedRootSignatureDeserializer, &desc)))
        return hr;
    if (!(deserializer = calloc(1, sizeof(*deserializer)))) {
        d3d12xs_root_signature_desc_free(desc);
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the deserializer");
    }
    deserializer->ID3D12VersionedRootSignatureDeserializer_iface.lpVtbl = &d3d12_versioned_root_signature_deserializer_vtbl;
    atomic_init(&deserializer->refcount, 1);
    deserializer->desc = desc;
    pthread_mutex_init(&deserializer->lock, NULL);
    *out = &deserializer->ID3D12VersionedRootSignatureDeserializer_iface;
    return S_OK;
}
