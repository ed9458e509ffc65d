/* Internal structures shared by the object files. One D3D12 object per .c file. */
#ifndef D3D12XS_PRIVATE_H
#define D3D12XS_PRIVATE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <vulkan/vulkan.h>

#include "d3d12.h"
#include "d3d12_xs.h"
#include "log.h"

#define D3D12XS_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define D3D12XS_CONTAINING(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

/* ---- common object parts (object.c) ---- */

struct d3d12xs_private_entry {
    GUID guid;
    bool is_interface;
    UINT size;
    void *data; /* bytes, or an IUnknown * when is_interface */
};

/* Refcount, private data and name: what every ID3D12Object has. */
struct d3d12xs_object {
    atomic_uint refcount;
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

static inline unsigned d3d12xs_object_add_ref(struct d3d12xs_object *object)
{
    return atomic_fetch_add(&object->refcount, 1) + 1;
}
static inline unsigned d3d12xs_object_release(struct d3d12xs_object *object)
{
    return atomic_fetch_sub(&object->refcount, 1) - 1;
}

/* ---- device (device.c, device_features.c, instance.c) ---- */

struct d3d12_queue_family_map {
    uint32_t family;
    uint32_t vk_queue_count;
    VkQueue vk_queues[16];
    uint32_t next_vk_queue; /* round-robin assignment of D3D12 queues */
    bool shared;
    bool timestamps;
    bool supports_compute; /* false for transfer-only families */
};

struct d3d12_fence_waiter; /* fence_waiter.c */

struct d3d12_device {
    ID3D12Device ID3D12Device_iface;
    struct d3d12xs_object object;

    VkInstance vk_instance;
    VkDebugUtilsMessengerEXT vk_messenger;
    VkPhysicalDevice vk_physical_device;
    VkDevice vk_device;
    VkPhysicalDeviceProperties vk_properties;
    VkPhysicalDeviceMemoryProperties vk_memory_properties;
    VkPhysicalDeviceDriverProperties vk_driver_properties;
    uint32_t subgroup_size;
    bool validation_enabled;
    bool has_buffer_marker;
    bool has_calibrated_timestamps;
    atomic_ullong validation_message_count;
    PFN_vkCmdWriteBufferMarker2AMD vkCmdWriteBufferMarker2AMD;
    PFN_vkCmdPushDescriptorSetKHR vkCmdPushDescriptorSetKHR;
    uint32_t push_descriptor_limit;
    /* Stands in for null descriptors: reads of a null view see this zeroed buffer. */
    VkBuffer null_buffer;
    VkDeviceMemory null_memory;
    PFN_vkGetCalibratedTimestampsEXT vkGetCalibratedTimestampsEXT;
    PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsEXT vkGetPhysicalDeviceCalibrateableTimeDomainsEXT;

    /* indexed by D3D12_COMMAND_LIST_TYPE; BUNDLE (1) is unused */
    struct d3d12_queue_family_map queue_map[4];

    /* Submission: one lock orders every queue operation of the device (submit.c). */
    pthread_mutex_t submit_lock;
    struct d3d12_command_queue **queues; /* live queues, for flushing held-back work */
    size_t queue_count, queue_capacity;
    unsigned held_queue_count; /* queues with held-back operations */
    /* References that queued operations let go of while submit_lock was held. */
    IUnknown **deferred_releases;
    size_t deferred_release_count, deferred_release_capacity;

    /* GPU virtual addresses (va_map.c) */
    pthread_rwlock_t va_lock;
    struct d3d12xs_va_range *va_ranges;
    size_t va_range_count, va_range_capacity;
    uint64_t va_next;

    atomic_int removed_reason; /* S_OK while alive */
    atomic_uint hang_timeout_ms;
    atomic_bool removed_drain_abandoned; /* work from before a removal did not finish: stop waiting for it */

    struct d3d12_fence_waiter *fence_waiter;

    /* Descriptor heaps, for validating CPU handles (descriptor_heap.c). */
    pthread_mutex_t descriptor_heap_lock;
    struct d3d12_descriptor_heap **descriptor_heaps;
    size_t descriptor_heap_count, descriptor_heap_capacity;
    /* Samplers are immutable Vulkan objects: one per distinct description (descriptor.c). */
    pthread_mutex_t sampler_lock;
    struct d3d12xs_sampler_entry *samplers;
    size_t sampler_count, sampler_capacity;
};

struct d3d12xs_sampler_entry {
    D3D12_SAMPLER_DESC desc;
    VkSampler sampler;
};
void d3d12xs_device_destroy_samplers(struct d3d12_device *device);

struct d3d12_device *impl_from_ID3D12Device(ID3D12Device *iface);
void d3d12_device_mark_removed(struct d3d12_device *device, HRESULT reason, const char *why);
HRESULT d3d12_device_removed_reason(struct d3d12_device *device);
/* Maps a VkResult from a call that creates or submits something onto an HRESULT. */
HRESULT d3d12xs_hresult_from_vk(struct d3d12_device *device, VkResult vr);
uint64_t d3d12xs_now_ns(void);

HRESULT d3d12_device_check_feature_support(struct d3d12_device *device, D3D12_FEATURE feature, void *data, UINT size);
HRESULT d3d12xs_instance_create(struct d3d12_device *device);
HRESULT d3d12xs_instance_select_physical_device(struct d3d12_device *device);
void d3d12xs_instance_destroy(struct d3d12_device *device);

/* Clears fresh host-visible memory, as D3D12 promises zeroed resources (unless CREATE_NOT_ZEROED). */
void d3d12xs_zero_new_memory(struct d3d12_device *device, VkDeviceMemory memory, int memory_type, VkDeviceSize size, D3D12_HEAP_FLAGS flags);
int d3d12xs_find_memory_type(struct d3d12_device *device, uint32_t type_bits, const D3D12_HEAP_PROPERTIES *properties);

/* ---- virtual addresses (va_map.c) ---- */

struct d3d12xs_va_range {
    uint64_t va;
    uint64_t size;
    VkBuffer buffer;  /* the buffer covering the whole range */
    bool upload_heap; /* in an UPLOAD heap: the GPU must not write it */
};

uint64_t d3d12xs_va_allocate(struct d3d12_device *device, uint64_t size, VkBuffer buffer, bool upload_heap);
/* Whether va lies in an UPLOAD-heap range (false when it is in no range). */
bool d3d12xs_va_in_upload_heap(struct d3d12_device *device, uint64_t va);
void d3d12xs_va_free(struct d3d12_device *device, uint64_t va);
/* Finds the buffer holding [va, va + size); returns false when no live resource does. */
bool d3d12xs_va_lookup(struct d3d12_device *device, uint64_t va, uint64_t size, VkBuffer *buffer, uint64_t *offset);
/* Like d3d12xs_va_lookup, also giving the bytes from va to the end of its range. */
bool d3d12xs_va_lookup_range(struct d3d12_device *device, uint64_t va, VkBuffer *buffer, uint64_t *offset, uint64_t *remaining);

/* ---- heaps and resources (heap.c, resource.c) ---- */

struct d3d12_heap {
    ID3D12Heap ID3D12Heap_iface;
    struct d3d12xs_object object;
    D3D12_HEAP_DESC desc;
    VkDeviceMemory vk_memory;
    VkBuffer vk_buffer; /* spans the heap, for address lookups; VK_NULL_HANDLE if buffers are denied */
    uint64_t va;
    void *mapped;
};

struct d3d12_heap *unsafe_impl_from_ID3D12Heap(ID3D12Heap *iface);
HRESULT d3d12xs_validate_heap_properties(struct d3d12_device *device, const char *method, const D3D12_HEAP_PROPERTIES *properties);

struct d3d12_resource {
    ID3D12Resource ID3D12Resource_iface;
    struct d3d12xs_object object;
    D3D12_RESOURCE_DESC desc;
    D3D12_HEAP_PROPERTIES heap_properties;
    D3D12_HEAP_FLAGS heap_flags;
    D3D12_RESOURCE_STATES initial_state;
    VkBuffer vk_buffer;
    VkDeviceMemory vk_memory; /* owned by committed resources only */
    struct d3d12_heap *heap;  /* placed resources hold a reference */
    uint64_t heap_offset;
    uint64_t va;
    void *mapped; /* CPU address of byte 0 when the heap is CPU-visible */
    atomic_uint map_count;
    struct d3d12xs_buffer_view *views; /* under object.lock */
    size_t view_count, view_capacity;
};

struct d3d12_resource *unsafe_impl_from_ID3D12Resource(ID3D12Resource *iface);
HRESULT d3d12_resource_create_committed(struct d3d12_device *device, const D3D12_HEAP_PROPERTIES *heap_properties,
        D3D12_HEAP_FLAGS heap_flags, const D3D12_RESOURCE_DESC *desc, D3D12_RESOURCE_STATES initial_state,
        const D3D12_CLEAR_VALUE *clear_value, REFIID riid, void **resource);
HRESULT d3d12_resource_create_placed(struct d3d12_device *device, ID3D12Heap *heap, UINT64 heap_offset,
        const D3D12_RESOURCE_DESC *desc, D3D12_RESOURCE_STATES initial_state,
        const D3D12_CLEAR_VALUE *clear_value, REFIID riid, void **resource);
HRESULT d3d12xs_validate_buffer_desc(const char *method, const D3D12_RESOURCE_DESC *desc);
VkBufferUsageFlags d3d12xs_buffer_usage(void);

/* A typed view of part of a buffer; cached on the resource so that command buffers that
 * captured the VkBufferView stay valid while the resource lives. */
struct d3d12xs_buffer_view {
    VkFormat format;
    uint64_t offset, range;
    VkBufferView view;
};
/* Returns the resource's VkBufferView for (format, offset, range), creating it once. */
VkBufferView d3d12_resource_get_buffer_view(struct d3d12_resource *resource, VkFormat format, uint64_t offset, uint64_t range);

/* ---- descriptors (descriptor_heap.c, descriptor.c) ---- */

enum d3d12xs_descriptor_kind {
    D3D12XS_DESCRIPTOR_EMPTY = 0, /* never written */
    D3D12XS_DESCRIPTOR_CBV,
    D3D12XS_DESCRIPTOR_SRV,
    D3D12XS_DESCRIPTOR_UAV,
    D3D12XS_DESCRIPTOR_SAMPLER,
};

/* What a CPU descriptor handle points at: the Vulkan pieces a push-descriptor write needs. */
struct d3d12xs_descriptor {
    enum d3d12xs_descriptor_kind kind;
    VkDescriptorType vk_type;
    bool null_view;                   /* written with a NULL resource: reads give 0 */
    VkBuffer buffer;
    VkDeviceSize offset, range;
    VkBufferView view;                /* typed buffer views */
    VkSampler sampler;
    VkBuffer counter_buffer;          /* UAV counter, when given */
    VkDeviceSize counter_offset;
    struct d3d12_resource *resource;  /* not referenced: D3D12 descriptors do not hold resources */
    DXGI_FORMAT format;
    uint32_t structure_stride;
    bool raw;
};

struct d3d12_descriptor_heap {
    ID3D12DescriptorHeap ID3D12DescriptorHeap_iface;
    struct d3d12xs_object object;
    D3D12_DESCRIPTOR_HEAP_DESC desc;
    uint64_t gpu_base; /* unique GPU handle range of shader-visible heaps */
    struct d3d12xs_descriptor *descriptors;
};

struct d3d12_descriptor_heap *unsafe_impl_from_ID3D12DescriptorHeap(ID3D12DescriptorHeap *iface);
HRESULT d3d12_descriptor_heap_create(struct d3d12_device *device, const D3D12_DESCRIPTOR_HEAP_DESC *desc, REFIID riid, void **heap);
/* Validates a CPU handle from the application; NULL (with one log line) when it is not one of ours. */
/* Finds the descriptor a CPU handle names without logging; *reason says why when it fails. */
struct d3d12xs_descriptor *d3d12xs_descriptor_lookup(struct d3d12_device *device, D3D12_CPU_DESCRIPTOR_HANDLE handle,
        UINT count, D3D12_DESCRIPTOR_HEAP_TYPE type, const char **reason);
/* count descriptors from handle must lie in one heap of that type. */
struct d3d12xs_descriptor *d3d12xs_descriptor_from_cpu_handle(struct d3d12_device *device, D3D12_CPU_DESCRIPTOR_HANDLE handle,
        UINT count, D3D12_DESCRIPTOR_HEAP_TYPE type, const char *method, const char *argument);
VkFormat d3d12xs_vk_format_from_dxgi(DXGI_FORMAT format, uint32_t *element_size);
UINT d3d12_device_get_descriptor_increment(struct d3d12_device *device, D3D12_DESCRIPTOR_HEAP_TYPE type);
void d3d12_device_create_constant_buffer_view(struct d3d12_device *device, const D3D12_CONSTANT_BUFFER_VIEW_DESC *desc,
        D3D12_CPU_DESCRIPTOR_HANDLE handle);
void d3d12_device_create_shader_resource_view(struct d3d12_device *device, ID3D12Resource *resource,
        const D3D12_SHADER_RESOURCE_VIEW_DESC *desc, D3D12_CPU_DESCRIPTOR_HANDLE handle);
void d3d12_device_create_unordered_access_view(struct d3d12_device *device, ID3D12Resource *resource, ID3D12Resource *counter,
        const D3D12_UNORDERED_ACCESS_VIEW_DESC *desc, D3D12_CPU_DESCRIPTOR_HANDLE handle);
void d3d12_device_create_sampler(struct d3d12_device *device, const D3D12_SAMPLER_DESC *desc, D3D12_CPU_DESCRIPTOR_HANDLE handle);
VkSampler d3d12xs_device_get_sampler(struct d3d12_device *device, const D3D12_SAMPLER_DESC *desc, const char *method);
void d3d12_device_copy_descriptors(struct d3d12_device *device, UINT dst_range_count, const D3D12_CPU_DESCRIPTOR_HANDLE *dst_starts,
        const UINT *dst_sizes, UINT src_range_count, const D3D12_CPU_DESCRIPTOR_HANDLE *src_starts, const UINT *src_sizes,
        D3D12_DESCRIPTOR_HEAP_TYPE type, const char *method);

/* ---- root signatures and pipelines (root_signature.c, pipeline_state.c) ---- */

#define D3D12XS_MAX_ROOT_PARAMETERS 64 /* D3D12's root cost limit allows at most 64 */

struct d3d12_root_signature {
    ID3D12RootSignature ID3D12RootSignature_iface;
    struct d3d12xs_object object;
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc; /* converted to 1.1 */
    void *blob;                                /* the serialized form: equal blobs mean compatible signatures */
    size_t blob_size;
    uint32_t push_constant_size;               /* root constants, packed in parameter order */
    uint32_t constant_offsets[D3D12XS_MAX_ROOT_PARAMETERS]; /* byte offset of each constants parameter */
    /* Copies of what recording checks per call, so they need no walk through desc. */
    uint32_t parameter_count;
    uint8_t parameter_types[D3D12XS_MAX_ROOT_PARAMETERS];
    uint32_t constant_counts[D3D12XS_MAX_ROOT_PARAMETERS];
    uint64_t constants_mask; /* bit per 32-bit-constants parameter */
    VkSampler *static_samplers;
};

struct d3d12_root_signature *unsafe_impl_from_ID3D12RootSignature(ID3D12RootSignature *iface);
HRESULT d3d12_root_signature_create(struct d3d12_device *device, UINT node_mask, const void *blob, SIZE_T size, REFIID riid, void **out);
bool d3d12_root_signatures_compatible(const struct d3d12_root_signature *a, const struct d3d12_root_signature *b);

enum d3d12xs_binding_source {
    D3D12XS_BINDING_ROOT_DESCRIPTOR, /* a root CBV/SRV/UAV: a GPU virtual address */
    D3D12XS_BINDING_TABLE,           /* descriptors from a table in the bound heap */
    D3D12XS_BINDING_STATIC_SAMPLER,  /* an immutable sampler of the set layout */
};

/* One push-descriptor binding of a pipeline and where its descriptors come from. */
struct d3d12xs_pipeline_binding {
    enum d3d12xs_binding_source source;
    uint32_t root_index;
    uint32_t table_offset;   /* descriptor index from the table start, for array element 0 */
    uint32_t array_size;
    VkDescriptorType vk_type;
    bool counter;            /* the hidden counter buffer of a UAV (IncrementCounter, Append, Consume) */
    char register_name[32];  /* "t3, space1", for messages */
};

struct d3d12_pipeline_state {
    ID3D12PipelineState ID3D12PipelineState_iface;
    struct d3d12xs_object object;
    struct d3d12_root_signature *root_signature; /* holds a reference */
    VkPipeline vk_pipeline;
    VkPipelineLayout vk_layout;
    VkDescriptorSetLayout vk_set_layout;
    uint32_t local_size[3];
    uint32_t wave_size;        /* what the shader was built for: 32 or 64 */
    struct d3d12xs_pipeline_binding *bindings;
    uint32_t binding_count;
    uint32_t descriptor_count; /* sum of array sizes */
    uint64_t used_root_mask;
};

struct d3d12_pipeline_state *unsafe_impl_from_ID3D12PipelineState(ID3D12PipelineState *iface);
HRESULT d3d12_pipeline_state_create_compute(struct d3d12_device *device, const D3D12_COMPUTE_PIPELINE_STATE_DESC *desc, REFIID riid, void **out);

/* ---- fences (fence.c, fence_waiter.c) ---- */

struct d3d12_fence {
    ID3D12Fence ID3D12Fence_iface;
    struct d3d12xs_object object;
    D3D12_FENCE_FLAGS flags;
    VkSemaphore vk_semaphore;
    /* Highest value already handed to Vulkan (by a queue Signal or the CPU), under the
     * device's submit_lock: a queue Wait is held back until this reaches its value. */
    uint64_t submitted_value;
    uint64_t gpu_signal_value; /* highest value a queue signalled (pending or done) */
    bool used_by_queue;        /* a queue Signal or Wait was submitted */
    const struct d3d12_command_queue *last_signal_queue; /* identity only, never dereferenced */
};

struct d3d12_fence *unsafe_impl_from_ID3D12Fence(ID3D12Fence *iface);
uint64_t d3d12_fence_completed_value(struct d3d12_fence *fence);
/* Blocks until the fence reaches value, the device is removed, or the hang timeout passes. */
HRESULT d3d12_fence_wait(struct d3d12_fence *fence, uint64_t value, const char *method);

HRESULT d3d12_fence_waiter_create(struct d3d12_device *device);
void d3d12_fence_waiter_destroy(struct d3d12_device *device);
HRESULT d3d12_fence_waiter_add(struct d3d12_device *device, struct d3d12_fence *fence, uint64_t value, HANDLE event);
/* Drops a dying fence's registrations and destroys its semaphore once no wait uses it. */
void d3d12_fence_waiter_retire_fence(struct d3d12_device *device, struct d3d12_fence *fence);
/* Called after GPU work is submitted, so the hang watchdog looks at it. */
void d3d12_fence_waiter_kick(struct d3d12_device *device);

/* Events (event.c) */
bool d3d12xs_event_is_valid(HANDLE event);
/* A fence registration holds a reference, so that CloseHandle before the event is set
 * does not free it under the fence waiter; release sets the event first when asked. */
void d3d12xs_event_add_ref(HANDLE event);
void d3d12xs_event_release(HANDLE event, bool set);

/* ---- queues and submission (command_queue.c, submit.c) ---- */

enum d3d12_queue_op_type {
    D3D12_QUEUE_OP_EXECUTE,
    D3D12_QUEUE_OP_SIGNAL,
    D3D12_QUEUE_OP_WAIT,
};

struct d3d12_query_reset {
    VkQueryPool pool;
    uint32_t index;
};

struct d3d12_queue_op {
    enum d3d12_queue_op_type type;
    uint64_t serial; /* value of the queue's serial semaphore once this op is done */
    union {
        struct {
            VkCommandBuffer *command_buffers;
            uint32_t count;
            struct d3d12_query_reset *host_query_resets; /* for transfer-only families */
            uint32_t host_query_reset_count;
            /* One reference per list: a held execution keeps the command buffers' pool alive. */
            struct d3d12_command_allocator **allocators;
        } execute;
        struct {
            struct d3d12_fence *fence; /* holds a reference while the op is queued */
            uint64_t value;
        } fence;
    } u;
};

struct d3d12_command_queue {
    ID3D12CommandQueue ID3D12CommandQueue_iface;
    struct d3d12xs_object object;
    D3D12_COMMAND_QUEUE_DESC desc;
    VkQueue vk_queue;
    uint32_t vk_family;
    bool transfer_only;

    /* all below under device->submit_lock */
    VkSemaphore serial_semaphore; /* counts finished operations */
    uint64_t next_serial;
    uint64_t submitted_serial;    /* last serial handed to Vulkan */
    struct d3d12_queue_op *held_ops; /* waiting for a signal nobody has submitted yet */
    size_t held_count, held_capacity;
    /* hang watchdog (fence_waiter.c), under device->submit_lock too */
    uint64_t watch_completed;
    uint64_t watch_since_ns;
};

struct d3d12_command_queue *unsafe_impl_from_ID3D12CommandQueue(ID3D12CommandQueue *iface);
HRESULT d3d12_command_queue_create(struct d3d12_device *device, const D3D12_COMMAND_QUEUE_DESC *desc, REFIID riid, void **queue);
uint64_t d3d12_command_queue_completed_serial(struct d3d12_command_queue *queue);

/* Queues an operation; submits it (and anything it unblocks) when its waits can be met.
 * Takes ownership of op's allocations and fence reference. */
HRESULT d3d12_queue_enqueue(struct d3d12_command_queue *queue, struct d3d12_queue_op *op, uint64_t *serial);
/* Drops submit_lock, then releases the fences that operations let go of meanwhile. */
void d3d12_device_unlock_submit(struct d3d12_device *device);
/* Submits held-back operations of every queue that a new signal unblocked; submit_lock held. */
void d3d12_device_flush_held_ops_locked(struct d3d12_device *device);
/* Waits (up to the hang timeout) until every queue has finished what was submitted so far. */
void d3d12_device_wait_queues_idle(struct d3d12_device *device, const char *method);
void d3d12_device_register_queue(struct d3d12_device *device, struct d3d12_command_queue *queue);
void d3d12_device_unregister_queue(struct d3d12_device *device, struct d3d12_command_queue *queue);

/* ---- allocators and command lists (command_allocator.c, command_list*.c) ---- */

struct d3d12_command_allocator {
    ID3D12CommandAllocator ID3D12CommandAllocator_iface;
    struct d3d12xs_object object;
    D3D12_COMMAND_LIST_TYPE type;
    VkCommandPool vk_pool;
    VkCommandBuffer *command_buffers;
    size_t command_buffer_count, command_buffer_capacity, next_free;
    struct d3d12_command_list *recording_list; /* the list recording into it, if any */
    /* last submission using it, to refuse a Reset while the GPU still runs it */
    struct d3d12_command_queue *last_queue; /* holds a reference */
    uint64_t last_serial;
    uint64_t reset_generation; /* counts Resets: lists recorded before one have lost their commands */
};

struct d3d12_command_allocator *unsafe_impl_from_ID3D12CommandAllocator(ID3D12CommandAllocator *iface);
HRESULT d3d12_command_allocator_create(struct d3d12_device *device, D3D12_COMMAND_LIST_TYPE type, REFIID riid, void **allocator);
HRESULT d3d12_command_allocator_get_command_buffer(struct d3d12_command_allocator *allocator, VkCommandBuffer *command_buffer);
void d3d12_command_allocator_note_submission(struct d3d12_command_allocator *allocator,
        struct d3d12_command_queue *queue, uint64_t serial);

/* One root argument as last set on a command list. */
struct d3d12_root_argument {
    bool set;
    uint64_t value; /* GPU virtual address of a root descriptor, or GPU handle of a table */
};

/* Compute bindings of a command list; what Dispatch turns into Vulkan state. */
struct d3d12_compute_state {
    struct d3d12_root_signature *root_signature; /* not referenced, as in D3D12 */
    struct d3d12_pipeline_state *pipeline;
    struct d3d12_descriptor_heap *heaps[2];      /* CBV_SRV_UAV, SAMPLER */
    uint32_t push_constants[64];
    struct d3d12_root_argument arguments[D3D12XS_MAX_ROOT_PARAMETERS];
    uint64_t constants_set;                      /* bit per constants parameter that has values */
    bool pipeline_dirty, constants_dirty, descriptors_dirty;
    bool validated; /* the bound pipeline, signature and set arguments passed Dispatch's checks */
};

enum d3d12_command_list_state {
    D3D12_COMMAND_LIST_RECORDING,
    D3D12_COMMAND_LIST_CLOSED,
};

struct d3d12_command_list {
    ID3D12GraphicsCommandList2 ID3D12GraphicsCommandList2_iface;
    struct d3d12xs_object object;
    D3D12_COMMAND_LIST_TYPE type;
    enum d3d12_command_list_state state;
    bool invalid;         /* a recording error happened; Close fails */
    char error[512];      /* the first recording error, repeated by Close */
    struct d3d12_command_allocator *allocator; /* holds a reference */
    VkCommandBuffer vk_command_buffer;
    uint64_t allocator_generation; /* allocator->reset_generation when recording began */
    bool transfer_only;   /* recorded for a transfer-only queue family */
    /* Barriers are emitted lazily: ResourceBarrier records which stages must finish
     * (barrier_src), and the next command of each stage gets one Vulkan barrier from those to
     * its own stage, as a hand-written Vulkan barrier would be. */
    VkPipelineStageFlags2 pending_stages; /* stages of commands recorded since the last barrier */
    VkPipelineStageFlags2 barrier_src;    /* stages a barrier still has to wait for */
    VkPipelineStageFlags2 barrier_synced; /* stages already ordered after barrier_src */
    struct d3d12_query_reset *host_query_resets;
    uint32_t host_query_reset_count;
    size_t host_query_reset_capacity;
    struct d3d12_compute_state compute;
};

struct d3d12_command_list *unsafe_impl_from_ID3D12CommandList(ID3D12CommandList *iface);
HRESULT d3d12_command_list_create(struct d3d12_device *device, D3D12_COMMAND_LIST_TYPE type,
        ID3D12CommandAllocator *allocator, ID3D12PipelineState *initial_state, REFIID riid, void **list);
/* Marks the list invalid: logs "<command>: <why>" and keeps the first error for Close. */
void d3d12_command_list_record_error(struct d3d12_command_list *list, const char *command, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
void d3d12_command_list_report_closed(struct d3d12_command_list *list, const char *command);
/* True when commands may be recorded; logs and returns false on a closed list. Inline: every
 * recorded command starts here. */
static inline bool d3d12_command_list_check_recording(struct d3d12_command_list *list, const char *command)
{
    if (__builtin_expect(list->state == D3D12_COMMAND_LIST_RECORDING, 1))
        return true;
    d3d12_command_list_report_closed(list, command);
    return false;
}

/* ---- query heaps (query_heap.c) ---- */

struct d3d12_query_heap {
    ID3D12QueryHeap ID3D12QueryHeap_iface;
    struct d3d12xs_object object;
    D3D12_QUERY_HEAP_DESC desc;
    VkQueryPool vk_pool;
};

struct d3d12_query_heap *unsafe_impl_from_ID3D12QueryHeap(ID3D12QueryHeap *iface);
HRESULT d3d12_query_heap_create(struct d3d12_device *device, const D3D12_QUERY_HEAP_DESC *desc, REFIID riid, void **heap);

/* ---- debug interface (debug.c) ---- */
bool d3d12xs_debug_layer_requested(void);

/* Small growable-array helper: ensures room for count elements. */
bool d3d12xs_array_reserve(void **elements, size_t *capacity, size_t count, size_t element_size);

#endif
