/* What every ID3D12Object shares: private data, names, QueryInterface. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

#include "common/log.h"
#include "common/object.h"

static atomic_bool exit_torn_down;

bool d3d12xs_exit_torn_down(void)
{
    return atomic_load_explicit(&exit_torn_down, memory_order_acquire);
}

void d3d12xs_exit_mark_torn_down(void)
{
    atomic_store_explicit(&exit_torn_down, true, memory_order_release);
}

void d3d12xs_object_init(struct d3d12xs_object *object, struct d3d12_device *device)
{
    memset(object, 0, sizeof(*object));
    atomic_init(&object->refcount, 1);
    atomic_init(&object->private_refcount, 1);
    pthread_mutex_init(&object->lock, NULL);
    object->device = device;
    if (device)
        ID3D12Device_AddRef(d3d12xs_device_iface(device));
}

static void private_entry_clear(struct d3d12xs_private_entry *entry)
{
    if (entry->is_interface) {
        IUnknown *unknown = entry->data;
        if (unknown)
            IUnknown_Release(unknown);
    } else {
        free(entry->data);
    }
    entry->data = NULL;
}

void d3d12xs_object_cleanup(struct d3d12xs_object *object)
{
    struct d3d12_device *device = object->device;
    for (size_t i = 0; i < object->entry_count; i++)
        private_entry_clear(&object->entries[i]);
    free(object->entries);
    free(object->name);
    pthread_mutex_destroy(&object->lock);
    object->device = NULL;
    if (device)
        ID3D12Device_Release(d3d12xs_device_iface(device));
}

static struct d3d12xs_private_entry *find_entry_locked(struct d3d12xs_object *object, REFGUID guid)
{
    for (size_t i = 0; i < object->entry_count; i++)
        if (!memcmp(&object->entries[i].guid, guid, sizeof(GUID)))
            return &object->entries[i];
    return NULL;
}

HRESULT d3d12xs_object_get_private_data(struct d3d12xs_object *object, const char *method, REFGUID guid, UINT *size, void *data)
{
    struct d3d12xs_private_entry *entry;
    HRESULT hr = S_OK;
    UINT needed;

    if (!guid)
        return d3d12xs_fail(E_INVALIDARG, method, "guid is NULL (must name the data to read)");
    if (!size)
        return d3d12xs_fail(E_INVALIDARG, method, "pDataSize is NULL (must point to the size of pData)");
    pthread_mutex_lock(&object->lock);
    if (!(entry = find_entry_locked(object, guid))) {
        *size = 0;
        pthread_mutex_unlock(&object->lock);
        /* DXGI_ERROR_NOT_FOUND is the documented answer for unknown data, not a misuse. */
        return DXGI_ERROR_NOT_FOUND;
    }
    needed = entry->is_interface ? (UINT)sizeof(IUnknown *) : entry->size;
    if (data) {
        if (*size < needed) {
            hr = d3d12xs_fail(DXGI_ERROR_MORE_DATA, method, "*pDataSize is %u (must be at least %u for this data)", *size, needed);
        } else if (entry->is_interface) {
            IUnknown *unknown = entry->data; /* SetPrivateDataInterface may have stored NULL */
            if (unknown)
                IUnknown_AddRef(unknown);
            memcpy(data, &unknown, sizeof(unknown));
        } else {
            memcpy(data, entry->data, entry->size);
        }
    }
    *size = needed;
    pthread_mutex_unlock(&object->lock);
    return hr;
}

/* SetPrivateData with NULL data: S_OK when it removed an entry, S_FALSE when there was none (Windows). */
static HRESULT remove_entry(struct d3d12xs_object *object, REFGUID guid)
{
    struct d3d12xs_private_entry *entry;
    HRESULT hr = S_FALSE;

    pthread_mutex_lock(&object->lock);
    if ((entry = find_entry_locked(object, guid))) {
        private_entry_clear(entry);
        *entry = object->entries[--object->entry_count];
        hr = S_OK;
    }
    pthread_mutex_unlock(&object->lock);
    return hr;
}

/* Stores data (owned from here on) under guid; an interface entry may hold NULL. */
static HRESULT set_entry(struct d3d12xs_object *object, REFGUID guid, bool is_interface, UINT size, void *data)
{
    struct d3d12xs_private_entry *entry;

    pthread_mutex_lock(&object->lock);
    if ((entry = find_entry_locked(object, guid))) {
        private_entry_clear(entry);
    } else {
        size_t capacity = object->entry_count;
        struct d3d12xs_private_entry *entries = realloc(object->entries, (capacity + 1) * sizeof(*entries));
        if (!entries) {
            pthread_mutex_unlock(&object->lock);
            return E_OUTOFMEMORY;
        }
        object->entries = entries;
        entry = &entries[object->entry_count++];
        entry->guid = *guid;
    }
    entry->is_interface = is_interface;
    entry->size = size;
    entry->data = data;
    pthread_mutex_unlock(&object->lock);
    return S_OK;
}

/* The log lines' name of the object, from up to count units of a string that need not end in NUL. */
static void set_log_name(struct d3d12xs_object *object, const WCHAR *wide, const char *narrow, size_t count)
{
    char *utf8;
    size_t length = 0;

    while (length < count && (wide ? wide[length] : narrow[length]))
        length++;
    if (!(utf8 = malloc(length + 1)))
        return; /* the name is for log lines only: the old one stays */
    /* anything outside ASCII becomes '?' */
    for (size_t i = 0; i < length; i++) {
        unsigned c = wide ? (unsigned)wide[i] : (unsigned char)narrow[i];
        utf8[i] = c > 0 && c < 0x80 ? (char)c : '?';
    }
    utf8[length] = 0;
    pthread_mutex_lock(&object->lock);
    free(object->name);
    object->name = utf8;
    pthread_mutex_unlock(&object->lock);
}

HRESULT d3d12xs_object_set_private_data(struct d3d12xs_object *object, const char *method, REFGUID guid, UINT size, const void *data)
{
    void *copy = NULL;
    HRESULT hr;

    if (!guid)
        return d3d12xs_fail(E_INVALIDARG, method, "guid is NULL (must name the data to store)");
    if (!data)
        return remove_entry(object, guid);
    if (!size)
        return d3d12xs_fail(E_INVALIDARG, method, "DataSize is 0 with non-NULL pData (pass NULL to remove the data)");
    if (!(copy = malloc(size)))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate %u bytes of private data", size);
    memcpy(copy, data, size);
    if (FAILED(hr = set_entry(object, guid, false, size, copy))) {
        free(copy);
        return hr;
    }
    /* The debug names Windows' tools read are the object's name too. */
    if (!memcmp(guid, &WKPDID_D3DDebugObjectNameW, sizeof(GUID)))
        set_log_name(object, data, NULL, size / sizeof(WCHAR));
    else if (!memcmp(guid, &WKPDID_D3DDebugObjectName, sizeof(GUID)))
        set_log_name(object, NULL, data, size);
    return S_OK;
}

HRESULT d3d12xs_object_set_private_data_interface(struct d3d12xs_object *object, const char *method, REFGUID guid, const IUnknown *data)
{
    IUnknown *unknown = (IUnknown *)data;
    HRESULT hr;

    if (!guid)
        return d3d12xs_fail(E_INVALIDARG, method, "guid is NULL (must name the interface to store)");
    /* NULL is stored too (GetPrivateData then hands out NULL), as on Windows. */
    if (unknown)
        IUnknown_AddRef(unknown);
    if (FAILED(hr = set_entry(object, guid, true, sizeof(IUnknown *), unknown)) && unknown)
        IUnknown_Release(unknown);
    return hr;
}

/* SetName is SetPrivateData of WKPDID_D3DDebugObjectNameW with the string and its NUL, as on
 * Windows: GetPrivateData reads it back, and it names the object in log lines. */
HRESULT d3d12xs_object_set_name(struct d3d12xs_object *object, const char *method, LPCWSTR name)
{
    if (!name)
        return d3d12xs_fail(E_INVALIDARG, method, "Name is NULL (must be a NUL-terminated wide string)");
    return d3d12xs_object_set_private_data(object, method, &WKPDID_D3DDebugObjectNameW, (UINT)((wcslen(name) + 1) * sizeof(WCHAR)), name);
}

const char *d3d12xs_object_name(const struct d3d12xs_object *object)
{
    return object->name ? object->name : "(unnamed)";
}

HRESULT d3d12xs_object_get_device(struct d3d12xs_object *object, const char *method, REFIID riid, void **device)
{
    if (!device)
        return d3d12xs_fail(E_POINTER, method, "ppvDevice is NULL (must receive the device)");
    *device = NULL;
    if (!riid)
        return d3d12xs_fail(E_INVALIDARG, method, "riid is NULL (must name the device interface)");
    return ID3D12Device_QueryInterface(d3d12xs_device_iface(object->device), riid, device);
}

HRESULT d3d12xs_query_interface(void *iface, const char *method, const IID *const *iids, REFIID riid, void **out)
{
    if (!out)
        return d3d12xs_fail(E_POINTER, method, "ppvObject is NULL (must receive the interface)");
    *out = NULL;
    if (!riid)
        return d3d12xs_fail(E_INVALIDARG, method, "riid is NULL (must name an interface)");
    for (size_t i = 0; iids[i]; i++) {
        if (!memcmp(iids[i], riid, sizeof(IID))) {
            IUnknown_AddRef((IUnknown *)iface);
            *out = iface;
            return S_OK;
        }
    }
    TRACE("%s: interface {%08x-...} not supported", method, riid->Data1);
    return E_NOINTERFACE;
}

HRESULT d3d12xs_hand_out(HRESULT hr, const char *method)
{
    if (hr == E_NOINTERFACE)
        return d3d12xs_fail(hr, method, "riid names an interface the new object does not implement");
    return hr;
}
