/* What every ID3D12Object shares (object.c) and the COM boilerplate macros. */
#ifndef D3D12XS_OBJECT_H
#define D3D12XS_OBJECT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "d3d12.h"

struct d3d12_device;

/* The device's interface: the first member of struct d3d12_device (device.h checks that), so
 * objects reach it without the device's definition. */
static inline ID3D12Device *d3d12xs_device_iface(struct d3d12_device *device)
{
    return (ID3D12Device *)(void *)device;
}

struct d3d12xs_private_entry {
    GUID guid;
    bool is_interface;
    UINT size;
    void *data; /* bytes, or an IUnknown * when is_interface */
};

/* Refcount, private data and name: what every ID3D12Object has. */
struct d3d12xs_object {
    atomic_uint refcount; /* the application's: what AddRef and Release return */
    /* d3d12xs's own references (a list's allocator, a placed resource's heap, a pipeline's root
     * signature), which D3D12 keeps out of the public count; the public count holds one while
     * it is above zero, and the object goes when this reaches zero. */
    atomic_uint private_refcount;
    pthread_mutex_t lock;
    struct d3d12xs_private_entry *entries;
    size_t entry_count;
    char *name; /* UTF-8 copy of SetName, for log lines */
    struct d3d12_device *device; /* NULL for the device itself */
};

void d3d12xs_object_init(struct d3d12xs_object *object, struct d3d12_device *device);
void d3d12xs_object_cleanup(struct d3d12xs_object *object);
HRESULT d3d12xs_object_get_private_data(struct d3d12xs_object *object, const char *method, REFGUID guid, UINT *size, void *data);
HRESULT d3d12xs_object_set_private_data(struct d3d12xs_object *object, const char *method, REFGUID guid, UINT size, const void *data);
HRESULT d3d12xs_object_set_private_data_interface(struct d3d12xs_object *object, const char *method, REFGUID guid, const IUnknown *data);
HRESULT d3d12xs_object_set_name(struct d3d12xs_object *object, const char *method, LPCWSTR name);
HRESULT d3d12xs_object_get_device(struct d3d12xs_object *object, const char *method, REFIID riid, void **device);
const char *d3d12xs_object_name(const struct d3d12xs_object *object);
/* QueryInterface against a NULL-terminated list of the IIDs an object answers to. */
HRESULT d3d12xs_query_interface(void *iface, const char *method, const IID *const *iids, REFIID riid, void **out);

/* The last step of every Create*: the new object's QueryInterface result, with the one log
 * line a refusal owes when riid names an interface the object does not have. */
HRESULT d3d12xs_hand_out(HRESULT hr, const char *method);

/* The AddRef and ID3D12Object methods every object shares, defined in its file:
 * prefix_AddRef, prefix_GetPrivateData, prefix_SetPrivateData, prefix_SetPrivateDataInterface
 * and prefix_SetName, for a struct with a `struct d3d12xs_object object` member. */
#define D3D12XS_OBJECT_METHODS(prefix, iface_type, impl_from, name) \
static ULONG STDMETHODCALLTYPE prefix##_AddRef(iface_type *iface) \
{ \
    return d3d12xs_object_add_ref(&impl_from(iface)->object); \
} \
static HRESULT STDMETHODCALLTYPE prefix##_GetPrivateData(iface_type *iface, REFGUID guid, UINT *size, void *data) \
{ \
    return d3d12xs_object_get_private_data(&impl_from(iface)->object, name "::GetPrivateData", guid, size, data); \
} \
static HRESULT STDMETHODCALLTYPE prefix##_SetPrivateData(iface_type *iface, REFGUID guid, UINT size, const void *data) \
{ \
    return d3d12xs_object_set_private_data(&impl_from(iface)->object, name "::SetPrivateData", guid, size, data); \
} \
static HRESULT STDMETHODCALLTYPE prefix##_SetPrivateDataInterface(iface_type *iface, REFGUID guid, const IUnknown *data) \
{ \
    return d3d12xs_object_set_private_data_interface(&impl_from(iface)->object, name "::SetPrivateDataInterface", guid, data); \
} \
static HRESULT STDMETHODCALLTYPE prefix##_SetName(iface_type *iface, LPCWSTR object_name) \
{ \
    return d3d12xs_object_set_name(&impl_from(iface)->object, name "::SetName", object_name); \
}

/* The above plus ID3D12DeviceChild::GetDevice. */
#define D3D12XS_DEVICE_CHILD_METHODS(prefix, iface_type, impl_from, name) \
D3D12XS_OBJECT_METHODS(prefix, iface_type, impl_from, name) \
static HRESULT STDMETHODCALLTYPE prefix##_GetDevice(iface_type *iface, REFIID riid, void **device) \
{ \
    return d3d12xs_object_get_device(&impl_from(iface)->object, name "::GetDevice", riid, device); \
}

#define D3D12XS_OBJECT_VTBL_ENTRIES(prefix) \
    .AddRef = prefix##_AddRef, \
    .GetPrivateData = prefix##_GetPrivateData, \
    .SetPrivateData = prefix##_SetPrivateData, \
    .SetPrivateDataInterface = prefix##_SetPrivateDataInterface, \
    .SetName = prefix##_SetName

#define D3D12XS_DEVICE_CHILD_VTBL_ENTRIES(prefix) \
    D3D12XS_OBJECT_VTBL_ENTRIES(prefix), \
    .GetDevice = prefix##_GetDevice

/* Whether the process's exit teardown ran (api/process_exit.c): the devices' Vulkan objects are
 * gone then, so a last Release after it destroys nothing (the process is ending). */
bool d3d12xs_exit_torn_down(void);
void d3d12xs_exit_mark_torn_down(void);

static inline unsigned d3d12xs_object_add_ref(struct d3d12xs_object *object)
{
    return atomic_fetch_add(&object->refcount, 1) + 1;
}
static inline unsigned d3d12xs_object_release(struct d3d12xs_object *object)
{
    return atomic_fetch_sub(&object->refcount, 1) - 1;
}
static inline void d3d12xs_object_add_private_ref(struct d3d12xs_object *object)
{
    atomic_fetch_add(&object->private_refcount, 1);
}
/* True when that was the last reference of either kind: the caller destroys the object (never
 * after the exit teardown). */
static inline bool d3d12xs_object_release_private_ref(struct d3d12xs_object *object)
{
    return atomic_fetch_sub(&object->private_refcount, 1) == 1 && !d3d12xs_exit_torn_down();
}

#endif
