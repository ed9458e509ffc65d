/* ID3D12PipelineLibrary1 (pipeline_library.h). Each entry is a name and either a live pipeline
 * (StorePipeline, or a load that made one) or, read from a serialized library, a cached blob
 * that the first load of the entry builds from. A load checks the description against the
 * entry's (the live pipeline's key, or the blob's description hash). Serialize writes each
 * entry's cached blob after the library's identity header.
 *
 * Payload after the header: u32 entry count; per entry u32 name length (characters), the name
 * one u32 per character, u64 blob size, the blob.
 *
 * D3D12 makes the library free-threaded (only loads of one name race): one lock here guards all. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "pipelines/pipeline_library.h"
#include "pipelines/pipeline_blob.h"
#include "pipelines/graphics_pipeline.h"
#include "generated/d3d12_stubs.h"

#define METHOD(name) "ID3D12PipelineLibrary::" #name

struct library_entry {
    WCHAR *name;
    size_t name_length;
    bool graphics;
    struct d3d12_pipeline_state *pipeline; /* one share; NULL while only the blob is here */
    void *blob;                            /* serialized entries: their cached blob (a copy) */
    size_t blob_size;
};

struct d3d12_pipeline_library {
    ID3D12PipelineLibrary1 ID3D12PipelineLibrary1_iface;
    struct d3d12xs_object object;
    pthread_mutex_t lock;
    struct library_entry *entries;
    size_t count, capacity;
};

static struct d3d12_pipeline_library *impl_from_ID3D12PipelineLibrary1(ID3D12PipelineLibrary1 *iface)
{
    return D3D12XS_CONTAINING(iface, struct d3d12_pipeline_library, ID3D12PipelineLibrary1_iface);
}

static HRESULT STDMETHODCALLTYPE d3d12_pipeline_library_QueryInterface(ID3D12PipelineLibrary1 *iface, REFIID riid, void **object)
{
    static const IID *const iids[] = {&IID_ID3D12PipelineLibrary1, &IID_ID3D12PipelineLibrary, &IID_ID3D12DeviceChild, &IID_ID3D12Object,
            &IID_IUnknown, NULL};
    return d3d12xs_query_interface(iface, METHOD(QueryInterface), iids, riid, object);
}

D3D12XS_DEVICE_CHILD_METHODS(d3d12_pipeline_library, ID3D12PipelineLibrary1, impl_from_ID3D12PipelineLibrary1, "ID3D12PipelineLibrary")

static void entry_cleanup(struct library_entry *entry)
{
    if (entry->pipeline)
        d3d12_pipeline_state_release_share(entry->pipeline);
    free(entry->name);
    free(entry->blob);
}

static ULONG STDMETHODCALLTYPE d3d12_pipeline_library_Release(ID3D12PipelineLibrary1 *iface)
{
    struct d3d12_pipeline_library *library = impl_from_ID3D12PipelineLibrary1(iface);
    unsigned refcount = d3d12xs_object_release(&library->object);

    if (!refcount && !d3d12xs_exit_torn_down()) {
        /* first: the object's reference keeps the device while the pipelines are retired */
        for (size_t i = 0; i < library->count; i++)
            entry_cleanup(&library->entries[i]);
        free(library->entries);
        pthread_mutex_destroy(&library->lock);
        d3d12xs_object_cleanup(&library->object);
        free(library);
    }
    return refcount;
}

static struct library_entry *find_entry_locked(struct d3d12_pipeline_library *library, const WCHAR *name)
{
    for (size_t i = 0; i < library->count; i++)
        if (!wcscmp(library->entries[i].name, name))
            return &library->entries[i];
    return NULL;
}

/* A new entry named name (copied), NULL when out of memory. */
static struct library_entry *add_entry_locked(struct d3d12_pipeline_library *library, const WCHAR *name, size_t name_length)
{
    struct library_entry *entry;

    if (library->count == library->capacity) {
        size_t capacity = library->capacity ? library->capacity * 2 : 16;
        struct library_entry *entries = realloc(library->entries, capacity * sizeof(*entries));
        if (!entries)
            return NULL;
        library->entries = entries;
        library->capacity = capacity;
    }
    entry = &library->entries[library->count];
    memset(entry, 0, sizeof(*entry));
    if (!(entry->name = malloc((name_length + 1) * sizeof(WCHAR))))
        return NULL;
    memcpy(entry->name, name, name_length * sizeof(WCHAR));
    entry->name[name_length] = 0;
    entry->name_length = name_length;
    library->count++;
    return entry;
}

static HRESULT STDMETHODCALLTYPE d3d12_pipeline_library_StorePipeline(ID3D12PipelineLibrary1 *iface, LPCWSTR name,
        ID3D12PipelineState *pipeline_state)
{
    struct d3d12_pipeline_library *library = impl_from_ID3D12PipelineLibrary1(iface);
    struct d3d12_pipeline_state *pipeline;
    struct library_entry *entry;
    HRESULT hr = S_OK;

    if (!name)
        return d3d12xs_fail(E_INVALIDARG, METHOD(StorePipeline), "pName is NULL (must name the pipeline)");
    if (!(pipeline = unsafe_impl_from_ID3D12PipelineState(pipeline_state)))
        return d3d12xs_fail(E_INVALIDARG, METHOD(StorePipeline), "pPipeline is %s", pipeline_state ? "not a d3d12xs pipeline state" : "NULL");
    pthread_mutex_lock(&library->lock);
    if (find_entry_locked(library, name)) {
        hr = d3d12xs_fail(E_INVALIDARG, METHOD(StorePipeline), "pName \"%ls\" is already in the library (entries are not replaced)", name);
    } else if (!(entry = add_entry_locked(library, name, wcslen(name)))) {
        hr = d3d12xs_fail(E_OUTOFMEMORY, METHOD(StorePipeline), "cannot allocate the library's entry");
    } else {
        entry->graphics = pipeline->graphics != NULL;
        entry->pipeline = pipeline;
        d3d12_pipeline_state_add_share(pipeline);
    }
    pthread_mutex_unlock(&library->lock);
    return hr;
}

/* A load's description: its key, and how to make the pipeline from a cached blob. */
struct load_request {
    struct d3d12_device *device;
    struct d3d12_pipeline_key key;
    D3D12_COMPUTE_PIPELINE_STATE_DESC compute;  /* !key.graphics */
    struct d3d12_graphics_desc graphics;        /* key.graphics */
};

static HRESULT load(struct d3d12_pipeline_library *library, LPCWSTR name, struct load_request *request, const char *method, REFIID riid,
        void **out)
{
    ID3D12PipelineState *made = NULL;
    struct library_entry *entry;
    HRESULT hr;

    pthread_mutex_lock(&library->lock);
    if (!(entry = find_entry_locked(library, name))) {
        hr = d3d12xs_fail(E_INVALIDARG, method, "pName \"%ls\" is not in the library", name);
    } else if (entry->graphics != request->key.graphics) {
        hr = d3d12xs_fail(E_INVALIDARG, method, "pName \"%ls\" is a %s pipeline in the library, pDesc a %s one", name,
                entry->graphics ? "graphics" : "compute", request->key.graphics ? "graphics" : "compute");
    } else if (entry->pipeline) {
        if (!d3d12_pipeline_state_matches(entry->pipeline, &request->key)) {
            hr = d3d12xs_fail(E_INVALIDARG, method, "pDesc does not match the description of \"%ls\" in the library (its root "
                    "signature, shaders or state differ)", name);
        } else {
            d3d12_pipeline_state_add_share(entry->pipeline);
            pthread_mutex_unlock(&library->lock);
            return d3d12_pipeline_state_hand_out(entry->pipeline, method, riid, out);
        }
    } else if (d3d12_pipeline_blob_desc_hash(entry->blob, entry->blob_size) != request->key.hash) {
        hr = d3d12xs_fail(E_INVALIDARG, method, "pDesc does not match the description of \"%ls\" in the library (its root "
                "signature, shaders or state differ)", name);
    } else {
        /* the entry's blob stands for the description's CachedPSO */
        const D3D12_CACHED_PIPELINE_STATE cached = {entry->blob, entry->blob_size};
        if (request->key.graphics) {
            request->graphics.cached_pso = cached;
            hr = d3d12_graphics_pipeline_create(request->device, &request->graphics, method, &IID_ID3D12PipelineState, (void **)&made);
        } else {
            request->compute.CachedPSO = cached;
            hr = d3d12_pipeline_state_create(request->device, &request->compute, NULL, method, &IID_ID3D12PipelineState, (void **)&made);
        }
        if (SUCCEEDED(hr)) {
            /* later loads and Serialize use the live pipeline */
            entry->pipeline = unsafe_impl_from_ID3D12PipelineState(made);
            d3d12_pipeline_state_add_share(entry->pipeline);
            free(entry->blob);
            entry->blob = NULL;
            entry->blob_size = 0;
        }
    }
    pthread_mutex_unlock(&library->lock);
    if (made) {
        hr = d3d12xs_hand_out(ID3D12PipelineState_QueryInterface(made, riid, out), method);
        ID3D12PipelineState_Release(made);
    }
    return hr;
}

static HRESULT check_load_arguments(LPCWSTR name, REFIID riid, void **out, const char *method)
{
    if (out)
        *out = NULL;
    if (!name)
        return d3d12xs_fail(E_INVALIDARG, method, "pName is NULL (must name the pipeline)");
    if (!riid)
        return d3d12xs_fail(E_INVALIDARG, method, "riid is NULL (must name the pipeline state interface)");
    if (!out)
        return d3d12xs_fail(E_POINTER, method, "ppPipelineState is NULL (must receive the pipeline)");
    return S_OK;
}

static HRESULT load_compute(struct d3d12_pipeline_library *library, LPCWSTR name, const D3D12_COMPUTE_PIPELINE_STATE_DESC *desc,
        const char *method, REFIID riid, void **out)
{
    struct load_request request;
    HRESULT hr;

    memset(&request, 0, sizeof(request));
    request.device = library->object.device;
    if (FAILED(hr = d3d12_compute_pipeline_key(desc, NULL, &request.key, method)))
        return hr;
    request.compute = *desc;
    return load(library, name, &request, method, riid, out);
}

static HRESULT load_graphics(struct d3d12_pipeline_library *library, LPCWSTR name, const struct d3d12_graphics_desc *desc,
        const char *method, REFIID riid, void **out)
{
    struct d3d12_root_signature *signature;
    struct load_request request;
    HRESULT hr;

    memset(&request, 0, sizeof(request));
    request.device = library->object.device;
    if (FAILED(hr = d3d12_graphics_pipeline_key(request.device, desc, &request.key, &signature, method)))
        return hr;
    request.graphics = *desc;
    hr = load(library, name, &request, method, riid, out);
    ID3D12RootSignature_Release(&signature->ID3D12RootSignature_iface);
    free((void *)request.key.bytes);
    return hr;
}

static HRESULT STDMETHODCALLTYPE d3d12_pipeline_library_LoadGraphicsPipeline(ID3D12PipelineLibrary1 *iface, LPCWSTR name,
        const D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc, REFIID riid, void **out)
{
    struct d3d12_graphics_desc graphics;
    HRESULT hr;

    if (FAILED(hr = check_load_arguments(name, riid, out, METHOD(LoadGraphicsPipeline))))
        return hr;
    if (!desc)
        return d3d12xs_fail(E_INVALIDARG, METHOD(LoadGraphicsPipeline), "pDesc is NULL (must describe the pipeline)");
    d3d12_graphics_desc_from_desc(desc, &graphics);
    return load_graphics(impl_from_ID3D12PipelineLibrary1(iface), name, &graphics, METHOD(LoadGraphicsPipeline), riid, out);
}

static HRESULT STDMETHODCALLTYPE d3d12_pipeline_library_LoadComputePipeline(ID3D12PipelineLibrary1 *iface, LPCWSTR name,
        const D3D12_COMPUTE_PIPELINE_STATE_DESC *desc, REFIID riid, void **out)
{
    HRESULT hr;

    if (FAILED(hr = check_load_arguments(name, riid, out, METHOD(LoadComputePipeline))))
        return hr;
    return load_compute(impl_from_ID3D12PipelineLibrary1(iface), name, desc, METHOD(LoadComputePipeline), riid, out);
}

static HRESULT STDMETHODCALLTYPE d3d12_pipeline_library_LoadPipeline(ID3D12PipelineLibrary1 *iface, LPCWSTR name,
        const D3D12_PIPELINE_STATE_STREAM_DESC *desc, REFIID riid, void **out)
{
    static const char method[] = "ID3D12PipelineLibrary1::LoadPipeline";
    struct d3d12_pipeline_stream stream;
    HRESULT hr;

    if (FAILED(hr = check_load_arguments(name, riid, out, method)))
        return hr;
    if (!desc)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc is NULL (must describe the pipeline state stream)");
    if (FAILED(hr = d3d12_pipeline_stream_parse(desc, &stream, method)))
        return hr;
    if (stream.has_cs && stream.has_graphics_stage)
        return d3d12xs_fail(E_INVALIDARG, method, "the stream holds a CS and graphics shaders (a pipeline is one or the other)");
    if (stream.has_cs) {
        const D3D12_COMPUTE_PIPELINE_STATE_DESC compute = {stream.graphics.root_signature, stream.cs, stream.graphics.node_mask,
                stream.graphics.cached_pso, stream.graphics.flags};
        return load_compute(impl_from_ID3D12PipelineLibrary1(iface), name, &compute, method, riid, out);
    }
    return load_graphics(impl_from_ID3D12PipelineLibrary1(iface), name, &stream.graphics, method, riid, out);
}

static const void *entry_blob(const struct library_entry *entry, size_t *size)
{
    *size = entry->pipeline ? entry->pipeline->cached_blob_size : entry->blob_size;
    return entry->pipeline ? entry->pipeline->cached_blob : entry->blob;
}

static size_t serialized_size_locked(const struct d3d12_pipeline_library *library)
{
    size_t size = D3D12XS_PIPELINE_BLOB_HEADER_SIZE + 4, blob_size;
    for (size_t i = 0; i < library->count; i++) {
        entry_blob(&library->entries[i], &blob_size);
        size += 4 + 4 * library->entries[i].name_length + 8 + blob_size;
    }
    return size;
}

static SIZE_T STDMETHODCALLTYPE d3d12_pipeline_library_GetSerializedSize(ID3D12PipelineLibrary1 *iface)
{
    struct d3d12_pipeline_library *library = impl_from_ID3D12PipelineLibrary1(iface);
    size_t size;

    pthread_mutex_lock(&library->lock);
    size = serialized_size_locked(library);
    pthread_mutex_unlock(&library->lock);
    return size;
}

static unsigned char *store_u32(unsigned char *out, uint32_t value)
{
    out[0] = value, out[1] = value >> 8, out[2] = value >> 16, out[3] = value >> 24;
    return out + 4;
}

static HRESULT STDMETHODCALLTYPE d3d12_pipeline_library_Serialize(ID3D12PipelineLibrary1 *iface, void *data, SIZE_T data_size)
{
    struct d3d12_pipeline_library *library = impl_from_ID3D12PipelineLibrary1(iface);
    unsigned char *out = data, *payload = out + D3D12XS_PIPELINE_BLOB_HEADER_SIZE;
    size_t size, blob_size;
    HRESULT hr = S_OK;

    pthread_mutex_lock(&library->lock);
    size = serialized_size_locked(library);
    if (!data) {
        hr = d3d12xs_fail(E_INVALIDARG, METHOD(Serialize), "pData is NULL (must receive GetSerializedSize's %zu bytes)", size);
    } else if (data_size < size) {
        hr = d3d12xs_fail(E_INVALIDARG, METHOD(Serialize), "DataSizeInBytes is %zu, less than GetSerializedSize's %zu",
                (size_t)data_size, size);
    } else {
        unsigned char *at = store_u32(payload, (uint32_t)library->count);
        for (size_t i = 0; i < library->count; i++) {
            const struct library_entry *entry = &library->entries[i];
            const void *blob = entry_blob(entry, &blob_size);
            at = store_u32(at, (uint32_t)entry->name_length);
            for (size_t c = 0; c < entry->name_length; c++)
                at = store_u32(at, (uint32_t)entry->name[c]);
            at = store_u32(at, (uint32_t)blob_size);
            at = store_u32(at, (uint32_t)((uint64_t)blob_size >> 32));
            memcpy(at, blob, blob_size);
            at += blob_size;
        }
        d3d12_pipeline_blob_write_header(library->object.device, D3D12XS_PIPELINE_LIBRARY_MAGIC, 0, payload,
                size - D3D12XS_PIPELINE_BLOB_HEADER_SIZE, out);
    }
    pthread_mutex_unlock(&library->lock);
    return hr;
}

#if defined(__clang__)
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Woverride-init"
#endif

static const ID3D12PipelineLibrary1Vtbl d3d12_pipeline_library_vtbl = {
    D3D12XS_STUB_VTBL_ID3D12PipelineLibrary1,
    .QueryInterface = d3d12_pipeline_library_QueryInterface,
    D3D12XS_DEVICE_CHILD_VTBL_ENTRIES(d3d12_pipeline_library),
    .Release = d3d12_pipeline_library_Release,
    .StorePipeline = d3d12_pipeline_library_StorePipeline,
    .LoadGraphicsPipeline = d3d12_pipeline_library_LoadGraphicsPipeline,
    .LoadComputePipeline = d3d12_pipeline_library_LoadComputePipeline,
    .GetSerializedSize = d3d12_pipeline_library_GetSerializedSize,
    .Serialize = d3d12_pipeline_library_Serialize,
    .LoadPipeline = d3d12_pipeline_library_LoadPipeline,
};

static uint32_t load_u32(const unsigned char *in)
{
    return (uint32_t)in[0] | (uint32_t)in[1] << 8 | (uint32_t)in[2] << 16 | (uint32_t)in[3] << 24;
}

/* The entries of a serialized library whose header was checked; library NULL: only checked. */
static HRESULT read_entries(struct d3d12_device *device, struct d3d12_pipeline_library *library, const unsigned char *data, size_t size,
        const char *method)
{
    const unsigned char *at = data + D3D12XS_PIPELINE_BLOB_HEADER_SIZE, *end = data + size;
    uint32_t count;
    HRESULT hr;

    if (end - at < 4)
        return d3d12xs_fail(E_INVALIDARG, method, "pLibraryBlob ends before its entry count");
    count = load_u32(at);
    at += 4;
    for (uint32_t i = 0; i < count; i++) {
        WCHAR *name;
        uint32_t name_length;
        uint64_t blob_size;
        struct library_entry *entry;

        if (end - at < 4 || (name_length = load_u32(at)) > (size_t)(end - at - 4) / 4 || end - at - 4 - 4 * (size_t)name_length < 8)
            return d3d12xs_fail(E_INVALIDARG, method, "pLibraryBlob's entry %u is cut short", i);
        at += 4;
        if (!(name = malloc((name_length + 1) * sizeof(*name))))
            return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the library's entries");
        for (uint32_t c = 0; c < name_length; c++, at += 4)
            name[c] = (WCHAR)load_u32(at);
        name[name_length] = 0;
        blob_size = load_u32(at) | (uint64_t)load_u32(at + 4) << 32;
        at += 8;
        if (blob_size > (uint64_t)(end - at)) {
            free(name);
            return d3d12xs_fail(E_INVALIDARG, method, "pLibraryBlob's entry %u is cut short", i);
        }
        if (FAILED(hr = d3d12_pipeline_blob_check_header(device, D3D12XS_PIPELINE_BLOB_MAGIC, at, blob_size, "an entry of pLibraryBlob",
                method))) {
            free(name);
            return hr;
        }
        if (library) {
            if (find_entry_locked(library, name)) {
                hr = d3d12xs_fail(E_INVALIDARG, method, "pLibraryBlob names \"%ls\" twice", name);
            } else if (!(entry = add_entry_locked(library, name, name_length)) || !(entry->blob = malloc(blob_size ? blob_size : 1))) {
                hr = d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the library's entries");
            } else {
                memcpy(entry->blob, at, blob_size);
                entry->blob_size = blob_size;
                entry->graphics = d3d12_pipeline_blob_is_graphics(at, blob_size);
            }
            if (FAILED(hr)) {
                free(name);
                return hr;
            }
        }
        free(name);
        at += blob_size;
    }
    if (at != end)
        return d3d12xs_fail(E_INVALIDARG, method, "pLibraryBlob has %zu bytes after its last entry", (size_t)(end - at));
    return S_OK;
}

HRESULT d3d12_pipeline_library_create(struct d3d12_device *device, const void *blob, size_t size, REFIID riid, void **out)
{
    static const char method[] = "ID3D12Device1::CreatePipelineLibrary";
    struct d3d12_pipeline_library *library;
    HRESULT hr;

    if (out)
        *out = NULL;
    if (!blob && size)
        return d3d12xs_fail(E_INVALIDARG, method, "pLibraryBlob is NULL with BlobLength %zu", size);
    if (size && FAILED(hr = d3d12_pipeline_blob_check_header(device, D3D12XS_PIPELINE_LIBRARY_MAGIC, blob, size, "pLibraryBlob", method)))
        return hr;
    if (!out) {
        /* D3D12: the blob is checked, nothing is made, S_FALSE */
        if (size && FAILED(hr = read_entries(device, NULL, blob, size, method)))
            return hr;
        return S_FALSE;
    }
    if (!riid)
        return d3d12xs_fail(E_INVALIDARG, method, "riid is NULL (must name the pipeline library interface)");
    if (!(library = calloc(1, sizeof(*library))))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the pipeline library");
    library->ID3D12PipelineLibrary1_iface.lpVtbl = &d3d12_pipeline_library_vtbl;
    d3d12xs_object_init(&library->object, device);
    pthread_mutex_init(&library->lock, NULL);
    /* the entries are copied: the application's blob may go (D3D12 asks it to stay; nothing here needs it) */
    if (size && FAILED(hr = read_entries(device, library, blob, size, method))) {
        ID3D12PipelineLibrary1_Release(&library->ID3D12PipelineLibrary1_iface);
        return hr;
    }
    hr = d3d12xs_hand_out(ID3D12PipelineLibrary1_QueryInterface(&library->ID3D12PipelineLibrary1_iface, riid, out), method);
    ID3D12PipelineLibrary1_Release(&library->ID3D12PipelineLibrary1_iface);
    return hr;
}
