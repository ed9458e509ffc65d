/* Bundles: ID3D12GraphicsCommandList objects of type BUNDLE. A bundle keeps its calls, not a
 * Vulkan command buffer: each allowed call's arguments (with copies of the arrays they point to)
 * become one record of the bundle's stream, and ExecuteBundle replays the records into the
 * calling DIRECT list through the list's own methods. So one path checks and emits every command,
 * and D3D12's rules for bundles hold by construction:
 *   - a bundle inherits everything from the calling list except the pipeline state (it starts
 *     with its own initial state, or must set one before it dispatches);
 *   - what the bundle sets (pipeline, compute and graphics root signatures and root arguments)
 *     stays set in the caller;
 *   - SetDescriptorHeaps in a bundle must name the caller's heaps (checked at ExecuteBundle);
 *   - copies, barriers, queries, clears, ClearState, nested bundles and the console's waits,
 *     value writes and FlushPipelineX cannot be recorded.
 * What a bundle does with each command, and every entry point, record layout and replay case
 * below, comes from D3D12XS_COMMANDS (command_table.h); this file holds the rules that need code.
 * A bad call marks the bundle invalid and its Close fails; a bad ExecuteBundle marks the caller
 * invalid (D3D12 drops the call and the caller's Close returns E_INVALIDARG). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/command_bundle.h"
#include "commands/command_recording.h"
#include "generated/d3d12_stubs.h"

#define METHOD(name) "ID3D12GraphicsCommandList::" #name " (bundle)"

/* One kept command in the bundle's stream: this header, the rest of its struct
 * bundle_args_<Method>, then the arrays its arguments point to, each at a multiple of
 * BUNDLE_ALIGN from the record's start (which is one too). */
struct bundle_record {
    uint32_t op;   /* enum bundle_op */
    uint32_t size; /* bytes to the next record */
};
#define BUNDLE_ALIGN 8

struct d3d12_bundle {
    ID3D12GraphicsCommandList10 ID3D12GraphicsCommandList10_iface;
    struct d3d12xs_object object;
    bool recording;
    bool invalid;
    char error[512];
    struct d3d12_command_allocator *allocator; /* holds a reference */
    uint64_t allocator_generation;             /* its reset_generation when recording began */
    ID3D12PipelineState *initial_state;        /* not referenced, as D3D12 does not */
    bool pipeline_set;                         /* a dispatch may follow: the bundle has its own pipeline */
    bool topology_set;                         /* with pipeline_set, a draw may follow */
    uint8_t *stream;                           /* the records, one after another */
    size_t stream_size, stream_capacity;
};

static const ID3D12GraphicsCommandList10Vtbl d3d12_bundle_vtbl;

static struct d3d12_bundle *impl_from_bundle(ID3D12GraphicsCommandList10 *iface)
{
    return D3D12XS_CONTAINING(iface, struct d3d12_bundle, ID3D12GraphicsCommandList10_iface);
}

static struct d3d12_bundle *unsafe_bundle_from(const void *iface)
{
    const ID3D12GraphicsCommandList10 *list = iface;
    if (!list || list->lpVtbl != &d3d12_bundle_vtbl)
        return NULL;
    return impl_from_bundle((ID3D12GraphicsCommandList10 *)list);
}

bool d3d12_bundle_is_bundle(ID3D12CommandList *iface)
{
    return unsafe_bundle_from(iface) != NULL;
}

static void bundle_error(struct d3d12_bundle *bundle, const char *command, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void bundle_error(struct d3d12_bundle *bundle, const char *command, const char *fmt, ...)
{
    char reason[400];
    va_list args;

    va_start(args, fmt);
    vsnprintf(reason, sizeof(reason), fmt, args);
    va_end(args);
    ERR("%s: %s (the bundle '%s' is now invalid; Close will fail)", command, reason, d3d12xs_object_name(&bundle->object));
    if (!bundle->invalid) {
        bundle->invalid = true;
        snprintf(bundle->error, sizeof(bundle->error), "%s: %s", command, reason);
    }
}

/* True while the bundle records; a closed bundle logs and ignores the call. */
static bool bundle_recording(struct d3d12_bundle *bundle, const char *command)
{
    if (__builtin_expect(bundle->recording, 1))
        return true;
    ERR("%s: the bundle '%s' is closed (Reset it before recording); command ignored", command, d3d12xs_object_name(&bundle->object));
    return false;
}

/* A command D3D12 does not allow in bundles. */
static void refuse(struct d3d12_bundle *bundle, const char *command)
{
    if (bundle_recording(bundle, command))
        bundle_error(bundle, command, "cannot be recorded in a bundle (D3D12 allows only state, root argument, draw, dispatch "
                "and immediate-write calls there; record it in the DIRECT list that executes the bundle)");
}

static size_t bundle_align(size_t size)
{
    return (size + BUNDLE_ALIGN - 1) & ~(size_t)(BUNDLE_ALIGN - 1);
}

/* Adds what an array argument of count elements takes to a record's *size; false (after the
 * error) for a NULL array with elements that D3D12 requires, or one too large to keep. */
static bool bundle_array_size(struct d3d12_bundle *bundle, const char *command, const char *name, const char *count_name, const void *array,
        size_t count, size_t element_size, bool optional, size_t *size)
{
    if (!array) {
        if (!count || optional)
            return true;
        bundle_error(bundle, command, "%s is NULL with %s %zu", name, count_name, count);
        return false;
    }
    *size = bundle_align(*size) + count * element_size;
    if (*size > UINT32_MAX) {
        bundle_error(bundle, command, "%s holds %zu elements, more than a bundle keeps in one call", name, count);
        return false;
    }
    return true;
}

/* Copies an array argument after the record's first *size bytes, as bundle_array_size counted
 * it; returns its offset from the record's start (0 for NULL, which no array is at). */
static uint32_t bundle_store_array(void *record, size_t *size, const void *array, size_t bytes)
{
    size_t offset;

    if (!array)
        return 0;
    offset = bundle_align(*size);
    if (bytes)
        memcpy((uint8_t *)record + offset, array, bytes);
    *size = offset + bytes;
    return (uint32_t)offset;
}

/* An array argument of a kept record, as bundle_store_array kept it. */
static const void *bundle_array(const void *record, uint32_t offset)
{
    return offset ? (const uint8_t *)record + offset : NULL;
}

/* A new record of size bytes at the end of the stream, or NULL (after the error). */
static void *bundle_add_record(struct d3d12_bundle *bundle, const char *command, uint32_t op, size_t size)
{
    struct bundle_record *record;

    size = bundle_align(size);
    if (!d3d12xs_array_reserve((void **)&bundle->stream, &bundle->stream_capacity, bundle->stream_size + size, 1)) {
        bundle_error(bundle, command, "out of memory for the bundle's commands");
        return NULL;
    }
    record = (struct bundle_record *)(bundle->stream + bundle->stream_size);
    record->op = op;
    record->size = (uint32_t)size;
    bundle->stream_size += size;
    return record;
}

/* ---- the rules of bundles that need code (command_table.h's CHECK and MATCH) ---- */

static bool bundle_check_SetPipelineState(struct d3d12_bundle *bundle, const char *command, ID3D12PipelineState *state)
{
    if (!unsafe_impl_from_ID3D12PipelineState(state)) {
        bundle_error(bundle, command, "pPipelineState is %s (must be a pipeline state made by this device)",
                state ? "not a d3d12xs pipeline state" : "NULL");
        return false;
    }
    bundle->pipeline_set = true;
    return true;
}

/* A bundle dispatches with its own pipeline state, never the caller's. */
static bool bundle_has_pipeline(struct d3d12_bundle *bundle, const char *command)
{
    if (bundle->pipeline_set)
        return true;
    bundle_error(bundle, command, "no pipeline state is set in the bundle (bundles do not inherit the caller's: pass "
            "pInitialState to CreateCommandList or Reset, or call SetPipelineState in the bundle)");
    return false;
}

static bool bundle_check_Dispatch(struct d3d12_bundle *bundle, const char *command, UINT x, UINT y, UINT z)
{
    (void)x, (void)y, (void)z;
    return bundle_has_pipeline(bundle, command);
}

/* A bundle draws with its own pipeline state and primitive topology, never the caller's. */
static bool bundle_can_draw(struct d3d12_bundle *bundle, const char *command)
{
    if (!bundle_has_pipeline(bundle, command))
        return false;
    if (bundle->topology_set)
        return true;
    bundle_error(bundle, command, "no primitive topology is set in the bundle (bundles do not inherit the caller's: call "
            "IASetPrimitiveTopology in the bundle)");
    return false;
}

static bool bundle_check_DrawInstanced(struct d3d12_bundle *bundle, const char *command, UINT vertex_count, UINT instance_count,
        UINT first_vertex, UINT first_instance)
{
    (void)vertex_count, (void)instance_count, (void)first_vertex, (void)first_instance;
    return bundle_can_draw(bundle, command);
}

static bool bundle_check_DrawIndexedInstanced(struct d3d12_bundle *bundle, const char *command, UINT index_count, UINT instance_count,
        UINT first_index, INT base_vertex, UINT first_instance)
{
    (void)index_count, (void)instance_count, (void)first_index, (void)base_vertex, (void)first_instance;
    return bundle_can_draw(bundle, command);
}

static bool bundle_check_IASetPrimitiveTopology(struct d3d12_bundle *bundle, const char *command, D3D12_PRIMITIVE_TOPOLOGY topology)
{
    (void)command, (void)topology;
    bundle->topology_set = true;
    return true;
}

static bool bundle_check_DispatchX(struct d3d12_bundle *bundle, const char *command, UINT x, UINT y, UINT z, D3D12XBOX_DISPATCH_FLAGS flags)
{
    (void)x, (void)y, (void)z, (void)flags;
    return bundle_has_pipeline(bundle, command);
}

/* More constants than any root signature holds would be read past the caller's array. */
static bool root_constant_count_valid(struct d3d12_bundle *bundle, const char *command, UINT count)
{
    if (count <= D3D12XS_MAX_ROOT_CONSTANT_BYTES / 4)
        return true;
    bundle_error(bundle, command, "Num32BitValuesToSet is %u (a root signature holds at most %u)", count, D3D12XS_MAX_ROOT_CONSTANT_BYTES / 4);
    return false;
}

static bool bundle_check_SetComputeRoot32BitConstants(struct d3d12_bundle *bundle, const char *command, UINT index, UINT count,
        const void *data, UINT offset)
{
    (void)index, (void)data, (void)offset;
    return root_constant_count_valid(bundle, command, count);
}

static bool bundle_check_SetGraphicsRoot32BitConstants(struct d3d12_bundle *bundle, const char *command, UINT index, UINT count,
        const void *data, UINT offset)
{
    (void)index, (void)data, (void)offset;
    return root_constant_count_valid(bundle, command, count);
}

static bool bundle_check_SetDescriptorHeaps(struct d3d12_bundle *bundle, const char *command, UINT count, ID3D12DescriptorHeap *const *heaps)
{
    (void)heaps;
    if (count <= 2)
        return true;
    bundle_error(bundle, command, "NumDescriptorHeaps is %u (at most one CBV_SRV_UAV and one SAMPLER heap)", count);
    return false;
}

/* SetDescriptorHeaps in a bundle only names the caller's heaps (D3D12's rule): it binds nothing. */
static void bundle_match_SetDescriptorHeaps(struct d3d12_command_list *list, const struct d3d12_bundle *bundle, UINT count,
        ID3D12DescriptorHeap *const *heaps)
{
    for (UINT i = 0; i < count; i++) {
        struct d3d12_descriptor_heap *heap = unsafe_impl_from_ID3D12DescriptorHeap(heaps[i]);
        if (!heap || (heap->desc.Type != D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV && heap->desc.Type != D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER)
                || list->bindings.heaps[heap->desc.Type == D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER] != heap) {
            d3d12_command_list_record_error(list, "ID3D12GraphicsCommandList::ExecuteBundle",
                    "the bundle '%s' sets descriptor heaps other than the ones bound in this list (a bundle's heaps must "
                    "match its caller's)", d3d12xs_object_name(&bundle->object));
            return;
        }
    }
}

/* ---- what a bundle keeps and refuses, from command_table.h ---- */

/* BUNDLE_<Method>: the commands a bundle keeps (RECORD, CHECK and MATCH). */
#define BUNDLE_OP(Method, table, rule, parameters) BUNDLE_OP_##rule(Method)
#define BUNDLE_OP_RECORD(Method) BUNDLE_##Method,
#define BUNDLE_OP_CHECK BUNDLE_OP_RECORD
#define BUNDLE_OP_MATCH BUNDLE_OP_RECORD
#define BUNDLE_OP_REFUSE(Method)
enum bundle_op {
    D3D12XS_COMMANDS(BUNDLE_OP)
};

/* struct bundle_args_<Method>: a kept command's record; an ARG is kept as it was passed, an
 * array as its offset (bundle_store_array). */
#define BUNDLE_ARGS(Method, table, rule, parameters) BUNDLE_ARGS_##rule(Method, parameters)
#define BUNDLE_ARGS_RECORD(Method, parameters) \
    struct bundle_args_##Method { \
        struct bundle_record record; \
        D3D12XS_COMMAND_PARAMS(BUNDLE_MEMBER, parameters) \
    }; \
    _Static_assert(_Alignof(struct bundle_args_##Method) <= BUNDLE_ALIGN, #Method "'s record needs a wider alignment");
#define BUNDLE_ARGS_CHECK BUNDLE_ARGS_RECORD
#define BUNDLE_ARGS_MATCH BUNDLE_ARGS_RECORD
#define BUNDLE_ARGS_REFUSE(Method, parameters)
#define BUNDLE_MEMBER(parameter) BUNDLE_MEMBER_##parameter
#define BUNDLE_MEMBER_ARG(type, name) type name;
#define BUNDLE_MEMBER_ARRAY(type, name, element, count) \
    uint32_t name; \
    _Static_assert(_Alignof(element) <= BUNDLE_ALIGN, #name "'s elements need a wider alignment");
#define BUNDLE_MEMBER_OPTIONAL_ARRAY BUNDLE_MEMBER_ARRAY
#define BUNDLE_MEMBER_
D3D12XS_COMMANDS(BUNDLE_ARGS)

/* d3d12_bundle_<Method>: a kept command's entry point (after bundle_check_<Method> for CHECK
 * and MATCH) sizes its record, then fills it; a refused one's marks the bundle invalid. */
#define BUNDLE_ENTRY(Method, table, rule, parameters) BUNDLE_ENTRY_##rule(Method, table, parameters)
#define BUNDLE_ENTRY_RECORD(Method, table, parameters) BUNDLE_KEEP(Method, table, parameters, true)
#define BUNDLE_ENTRY_CHECK(Method, table, parameters) \
    BUNDLE_KEEP(Method, table, parameters, bundle_check_##Method(bundle, command D3D12XS_COMMAND_PARAMS(BUNDLE_NAME, parameters)))
#define BUNDLE_ENTRY_MATCH BUNDLE_ENTRY_CHECK
#define BUNDLE_KEEP(Method, table, parameters, accepted) \
    static void STDMETHODCALLTYPE d3d12_bundle_##Method(D3D12XS_COMMAND_IFACE_##table iface \
            D3D12XS_COMMAND_PARAMS(D3D12XS_PARAM_DECL, parameters)) \
    { \
        static const char command[] = METHOD(Method); \
        struct d3d12_bundle *bundle = impl_from_bundle((ID3D12GraphicsCommandList10 *)iface); \
        struct bundle_args_##Method *args; \
        size_t size = sizeof(*args); \
        if (!bundle_recording(bundle, command) || !(accepted)) \
            return; \
        D3D12XS_COMMAND_PARAMS(BUNDLE_SIZE, parameters) \
        if (!(args = bundle_add_record(bundle, command, BUNDLE_##Method, size))) \
            return; \
        size = sizeof(*args); \
        D3D12XS_COMMAND_PARAMS(BUNDLE_STORE, parameters) \
    }
#define BUNDLE_ENTRY_REFUSE(Method, table, parameters) \
    static void STDMETHODCALLTYPE d3d12_bundle_##Method(D3D12XS_COMMAND_IFACE_##table iface \
            D3D12XS_COMMAND_PARAMS(BUNDLE_UNUSED_DECL, parameters)) \
    { \
        refuse(impl_from_bundle((ID3D12GraphicsCommandList10 *)iface), METHOD(Method)); \
    }
#define BUNDLE_NAME(parameter) BUNDLE_NAME_##parameter
#define BUNDLE_NAME_ARG(type, name) , name
#define BUNDLE_NAME_ARRAY(type, name, element, count) , name
#define BUNDLE_NAME_OPTIONAL_ARRAY BUNDLE_NAME_ARRAY
#define BUNDLE_NAME_
#define BUNDLE_SIZE(parameter) BUNDLE_SIZE_##parameter
#define BUNDLE_SIZE_ARG(type, name)
#define BUNDLE_SIZE_ARRAY(type, name, element, count) BUNDLE_SIZE_OF(name, element, count, false)
#define BUNDLE_SIZE_OPTIONAL_ARRAY(type, name, element, count) BUNDLE_SIZE_OF(name, element, count, true)
#define BUNDLE_SIZE_OF(name, element, count, optional) \
    if (!bundle_array_size(bundle, command, #name, #count, name, count, sizeof(element), optional, &size)) \
        return;
#define BUNDLE_SIZE_
#define BUNDLE_STORE(parameter) BUNDLE_STORE_##parameter
#define BUNDLE_STORE_ARG(type, name) args->name = name;
#define BUNDLE_STORE_ARRAY(type, name, element, count) args->name = bundle_store_array(args, &size, name, (size_t)(count) * sizeof(element));
#define BUNDLE_STORE_OPTIONAL_ARRAY BUNDLE_STORE_ARRAY
#define BUNDLE_STORE_
#define BUNDLE_UNUSED_DECL(parameter) BUNDLE_UNUSED_DECL_##parameter
#define BUNDLE_UNUSED_DECL_ARG(type, name) , type name __attribute__((unused))
#define BUNDLE_UNUSED_DECL_ARRAY(type, name, element, count) BUNDLE_UNUSED_DECL_ARG(type, name)
#define BUNDLE_UNUSED_DECL_OPTIONAL_ARRAY BUNDLE_UNUSED_DECL_ARRAY
#define BUNDLE_UNUSED_DECL_
D3D12XS_COMMANDS(BUNDLE_ENTRY)

/* ---- IUnknown, ID3D12Object, ID3D12DeviceChild, ID3D12CommandList ---- */

static HRESULT STDMETHODCALLTYPE d3d12_bundle_QueryInterface(ID3D12GraphicsCommandList10 *iface, REFIID riid, void **object)
{
    static const IID *const iids[] = {&IID_ID3D12GraphicsCommandList10, &IID_ID3D12GraphicsCommandList9, &IID_ID3D12GraphicsCommandList8,
            &IID_ID3D12GraphicsCommandList7, &IID_ID3D12GraphicsCommandList6, &IID_ID3D12GraphicsCommandList5,
            &IID_ID3D12GraphicsCommandList4, &IID_ID3D12GraphicsCommandList3, &IID_ID3D12GraphicsCommandList2,
            &IID_ID3D12GraphicsCommandList1, &IID_ID3D12GraphicsCommandList,
            &IID_ID3D12CommandList, &IID_ID3D12DeviceChild, &IID_ID3D12Object, &IID_IUnknown, NULL};
    return d3d12xs_query_interface(iface, "ID3D12GraphicsCommandList::QueryInterface", iids, riid, object);
}

D3D12XS_DEVICE_CHILD_METHODS(d3d12_bundle, ID3D12GraphicsCommandList10, impl_from_bundle, "ID3D12GraphicsCommandList")

static void detach_allocator(struct d3d12_bundle *bundle)
{
    struct d3d12_command_allocator *allocator = bundle->allocator;
    if (!allocator)
        return;
    pthread_mutex_lock(&allocator->object.lock);
    if (allocator->recording_bundle == bundle)
        allocator->recording_bundle = NULL;
    pthread_mutex_unlock(&allocator->object.lock);
}

static ULONG STDMETHODCALLTYPE d3d12_bundle_Release(ID3D12GraphicsCommandList10 *iface)
{
    struct d3d12_bundle *bundle = impl_from_bundle(iface);
    unsigned refcount = d3d12xs_object_release(&bundle->object);
    if (!refcount && !d3d12xs_exit_torn_down()) {
        /* Nothing of a bundle reaches the GPU but through its callers' command buffers. */
        if (bundle->allocator) {
            detach_allocator(bundle);
            d3d12_command_allocator_release_private_ref(bundle->allocator);
        }
        free(bundle->stream);
        d3d12xs_object_cleanup(&bundle->object);
        free(bundle);
    }
    return refcount;
}

static D3D12_COMMAND_LIST_TYPE STDMETHODCALLTYPE d3d12_bundle_GetType(ID3D12GraphicsCommandList10 *iface)
{
    (void)iface;
    return D3D12_COMMAND_LIST_TYPE_BUNDLE;
}

/* ---- lifecycle ---- */

static HRESULT begin_recording(struct d3d12_bundle *bundle, const char *method, ID3D12CommandAllocator *allocator_iface,
        ID3D12PipelineState *initial_state)
{
    struct d3d12_command_allocator *allocator;

    if (!(allocator = unsafe_impl_from_ID3D12CommandAllocator(allocator_iface)))
        return d3d12xs_fail(E_INVALIDARG, method, "pAllocator is %s (must be an allocator from CreateCommandAllocator)",
                allocator_iface ? "not a d3d12xs allocator" : "NULL");
    if (allocator->type != D3D12_COMMAND_LIST_TYPE_BUNDLE)
        return d3d12xs_fail(E_INVALIDARG, method, "pAllocator has type %d and the list type BUNDLE (they must match)", allocator->type);
    if (initial_state && !unsafe_impl_from_ID3D12PipelineState(initial_state))
        return d3d12xs_fail(E_INVALIDARG, method, "pInitialState is not a d3d12xs pipeline state");
    pthread_mutex_lock(&allocator->object.lock);
    if (allocator->recording_bundle && allocator->recording_bundle != bundle) {
        pthread_mutex_unlock(&allocator->object.lock);
        return d3d12xs_fail(E_INVALIDARG, method, "pAllocator '%s' already has a bundle recording into it (one at a time)",
                d3d12xs_object_name(&allocator->object));
    }
    allocator->recording_bundle = bundle;
    bundle->allocator_generation = allocator->reset_generation;
    pthread_mutex_unlock(&allocator->object.lock);

    if (bundle->allocator != allocator) {
        d3d12_command_allocator_add_private_ref(allocator);
        if (bundle->allocator) {
            detach_allocator(bundle);
            d3d12_command_allocator_release_private_ref(bundle->allocator);
        }
        bundle->allocator = allocator;
    }
    bundle->recording = true;
    bundle->invalid = false;
    bundle->error[0] = 0;
    bundle->stream_size = 0;
    bundle->initial_state = initial_state;
    bundle->pipeline_set = initial_state != NULL;
    bundle->topology_set = false;
    return S_OK;
}

static HRESULT STDMETHODCALLTYPE d3d12_bundle_Close(ID3D12GraphicsCommandList10 *iface)
{
    struct d3d12_bundle *bundle = impl_from_bundle(iface);

    if (!bundle->recording)
        return d3d12xs_fail(E_FAIL, METHOD(Close), "the bundle '%s' is not recording (Close follows creation or Reset, once)",
                d3d12xs_object_name(&bundle->object));
    bundle->recording = false;
    detach_allocator(bundle);
    if (bundle->invalid)
        return d3d12xs_fail(E_INVALIDARG, METHOD(Close), "the bundle '%s' recorded an invalid command: %s",
                d3d12xs_object_name(&bundle->object), bundle->error);
    return S_OK;
}

static HRESULT STDMETHODCALLTYPE d3d12_bundle_Reset(ID3D12GraphicsCommandList10 *iface, ID3D12CommandAllocator *allocator,
        ID3D12PipelineState *initial_state)
{
    struct d3d12_bundle *bundle = impl_from_bundle(iface);

    if (bundle->recording)
        return d3d12xs_fail(E_FAIL, METHOD(Reset), "the bundle '%s' is still recording (Close it before Reset)", d3d12xs_object_name(&bundle->object));
    return begin_recording(bundle, METHOD(Reset), allocator, initial_state);
}

#if defined(__clang__)
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Woverride-init"
#endif

/* Each command's slot holds its generated entry point, d3d12_bundle_<Method>. */
#define BUNDLE_LIST_SLOT(Method, table, rule, parameters) D3D12XS_COMMAND_SLOT(Method, table, LIST, d3d12_bundle_##Method)
#define BUNDLE_CONSOLE_SLOT(Method, table, rule, parameters) D3D12XS_COMMAND_SLOT(Method, table, CONSOLE, d3d12_bundle_##Method)

static const D3D12XS_ID3D12GraphicsCommandListConsoleVtbl d3d12_bundle_console_vtbl = {
    D3D12XS_STUB_CONSOLE_VTBL_ID3D12GraphicsCommandList,
    D3D12XS_COMMANDS(BUNDLE_CONSOLE_SLOT)
};

static const ID3D12GraphicsCommandList10Vtbl d3d12_bundle_vtbl = {
    D3D12XS_STUB_VTBL_ID3D12GraphicsCommandList10,
    .QueryInterface = d3d12_bundle_QueryInterface,
    D3D12XS_DEVICE_CHILD_VTBL_ENTRIES(d3d12_bundle),
    .Release = d3d12_bundle_Release,
    .GetType = d3d12_bundle_GetType,
    .Close = d3d12_bundle_Close,
    .Reset = d3d12_bundle_Reset,
    D3D12XS_COMMANDS(BUNDLE_LIST_SLOT)
    .d3d12xs_console = &d3d12_bundle_console_vtbl,
};

/* ---- creation ---- */

static struct d3d12_bundle *bundle_alloc(struct d3d12_device *device)
{
    struct d3d12_bundle *bundle;
    if (!(bundle = calloc(1, sizeof(*bundle))))
        return NULL;
    bundle->ID3D12GraphicsCommandList10_iface.lpVtbl = &d3d12_bundle_vtbl;
    d3d12xs_object_init(&bundle->object, device);
    return bundle;
}

HRESULT d3d12_bundle_create(struct d3d12_device *device, ID3D12CommandAllocator *allocator, ID3D12PipelineState *initial_state,
        REFIID riid, void **out)
{
    static const char method[] = "ID3D12Device::CreateCommandList";
    struct d3d12_bundle *bundle;
    HRESULT hr;

    if (!(bundle = bundle_alloc(device)))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the bundle");
    if (FAILED(hr = begin_recording(bundle, method, allocator, initial_state))) {
        ID3D12GraphicsCommandList10_Release(&bundle->ID3D12GraphicsCommandList10_iface);
        return hr;
    }
    hr = d3d12xs_hand_out(ID3D12GraphicsCommandList10_QueryInterface(&bundle->ID3D12GraphicsCommandList10_iface, riid, out), method);
    ID3D12GraphicsCommandList10_Release(&bundle->ID3D12GraphicsCommandList10_iface);
    return hr;
}

HRESULT d3d12_bundle_create_closed(struct d3d12_device *device, REFIID riid, void **out)
{
    static const char method[] = "ID3D12Device4::CreateCommandList1";
    struct d3d12_bundle *bundle;
    HRESULT hr;

    if (!(bundle = bundle_alloc(device)))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the bundle");
    /* Never recorded: ExecuteBundle refuses it as not closed after a recording. */
    bundle->invalid = true;
    snprintf(bundle->error, sizeof(bundle->error), "it was made by CreateCommandList1 and never recorded (Reset it first)");
    hr = d3d12xs_hand_out(ID3D12GraphicsCommandList10_QueryInterface(&bundle->ID3D12GraphicsCommandList10_iface, riid, out), method);
    ID3D12GraphicsCommandList10_Release(&bundle->ID3D12GraphicsCommandList10_iface);
    return hr;
}

/* ---- ExecuteBundle: the replay into the calling list ---- */

/* A kept command's case of the replay: the caller's emitter with the kept arguments, or for
 * MATCH the comparison with the caller's state. */
#define BUNDLE_REPLAY(Method, table, rule, parameters) BUNDLE_REPLAY_##rule(Method, table, parameters)
#define BUNDLE_REPLAY_RECORD(Method, table, parameters) \
    BUNDLE_REPLAY_CASE(Method, d3d12_command_list_##Method(BUNDLE_CALLER_##table D3D12XS_COMMAND_PARAMS(BUNDLE_KEPT, parameters)))
#define BUNDLE_REPLAY_CHECK BUNDLE_REPLAY_RECORD
#define BUNDLE_REPLAY_MATCH(Method, table, parameters) \
    BUNDLE_REPLAY_CASE(Method, bundle_match_##Method(list, bundle D3D12XS_COMMAND_PARAMS(BUNDLE_KEPT, parameters)))
#define BUNDLE_REPLAY_REFUSE(Method, table, parameters)
#define BUNDLE_REPLAY_CASE(Method, call) \
    case BUNDLE_##Method: { \
        const struct bundle_args_##Method *args = (const void *)record; \
        (void)args; \
        call; \
        break; \
    }
#define BUNDLE_CALLER_LIST iface
#define BUNDLE_CALLER_CONSOLE (ID3D12GraphicsCommandList *)iface
#define BUNDLE_KEPT(parameter) BUNDLE_KEPT_##parameter
#define BUNDLE_KEPT_ARG(type, name) , args->name
#define BUNDLE_KEPT_ARRAY(type, name, element, count) , (type)bundle_array(args, args->name)
#define BUNDLE_KEPT_OPTIONAL_ARRAY BUNDLE_KEPT_ARRAY
#define BUNDLE_KEPT_

static void replay(struct d3d12_command_list *list, const struct d3d12_bundle *bundle)
{
    ID3D12GraphicsCommandList10 *iface = &list->ID3D12GraphicsCommandList10_iface;
    const struct bundle_record *record;

    struct d3d12_graphics_bindings *graphics = &list->bindings.graphics;
    const uint32_t caller_view_instance_mask = graphics->view_instance_mask;
    const bool caller_view_instance_mask_set = graphics->view_instance_mask_set;

    /* The pipeline state is not inherited, nor the view instance mask: a bundle's starts at 0
     * (and one it sets stays set in the caller, as its pipeline does). */
    if (bundle->initial_state)
        d3d12_command_list_SetPipelineState(iface, bundle->initial_state);
    d3d12_command_list_SetViewInstanceMask(iface, 0);
    graphics->view_instance_mask_set = false;
    for (size_t offset = 0; offset < bundle->stream_size && !list->invalid; offset += record->size) {
        record = (const struct bundle_record *)(bundle->stream + offset);
        switch ((enum bundle_op)record->op) {
        D3D12XS_COMMANDS(BUNDLE_REPLAY)
        }
    }
    if (!graphics->view_instance_mask_set)
        d3d12_command_list_SetViewInstanceMask(iface, caller_view_instance_mask);
    graphics->view_instance_mask_set = caller_view_instance_mask_set || graphics->view_instance_mask_set;
    list->draw_settled_at = list->dispatch_settled_at = UINT32_MAX; /* the caller's next draw or dispatch checks everything */
}

void STDMETHODCALLTYPE d3d12_command_list_ExecuteBundle(ID3D12GraphicsCommandList10 *iface, ID3D12GraphicsCommandList *bundle_iface)
{
    static const char command[] = "ID3D12GraphicsCommandList::ExecuteBundle";
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    struct d3d12_bundle *bundle;
    uint64_t generation;

    if (!d3d12_command_list_check_recording(list, command))
        return;
    if (list->type != D3D12_COMMAND_LIST_TYPE_DIRECT) {
        d3d12_command_list_record_error(list, command, "only DIRECT lists execute bundles (this list is %s)",
                list->type == D3D12_COMMAND_LIST_TYPE_COMPUTE ? "COMPUTE" : list->type == D3D12_COMMAND_LIST_TYPE_COPY ? "COPY" : "not DIRECT");
        return;
    }
    if (!(bundle = unsafe_bundle_from(bundle_iface))) {
        d3d12_command_list_record_error(list, command, "pCommandList is %s (must be a closed BUNDLE list)",
                !bundle_iface ? "NULL" : "not a bundle");
        return;
    }
    if (bundle->recording) {
        d3d12_command_list_record_error(list, command, "the bundle '%s' is still recording (Close it first)", d3d12xs_object_name(&bundle->object));
        return;
    }
    if (bundle->invalid) {
        d3d12_command_list_record_error(list, command, "the bundle '%s' is invalid: %s", d3d12xs_object_name(&bundle->object), bundle->error);
        return;
    }
    pthread_mutex_lock(&bundle->allocator->object.lock);
    generation = bundle->allocator->reset_generation;
    pthread_mutex_unlock(&bundle->allocator->object.lock);
    if (generation != bundle->allocator_generation) {
        d3d12_command_list_record_error(list, command, "the allocator of the bundle '%s' was Reset after the bundle was recorded "
                "(its commands are gone: record the bundle again)", d3d12xs_object_name(&bundle->object));
        return;
    }
    replay(list, bundle);
}
