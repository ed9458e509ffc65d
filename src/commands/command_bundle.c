/* Bundles: ID3D12GraphicsCommandList objects of type BUNDLE. A bundle records its calls as plain
 * structs, not into a Vulkan command buffer: ExecuteBundle replays them into the calling DIRECT
 * list through the list's own methods. So one path checks and emits every command, and D3D12's
 * rules for bundles hold by construction:
 *   - a bundle inherits everything from the calling list except the pipeline state (it starts
 *     with its own initial state, or must set one before it dispatches);
 *   - what the bundle sets (pipeline, root signature, root arguments) stays set in the caller;
 *   - SetDescriptorHeaps in a bundle must name the caller's heaps (checked at ExecuteBundle);
 *   - copies, barriers, queries, clears, ClearState and nested bundles cannot be recorded.
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

enum bundle_op {
    BUNDLE_SET_PIPELINE,
    BUNDLE_SET_ROOT_SIGNATURE,
    BUNDLE_SET_HEAPS,
    BUNDLE_SET_CONSTANTS,
    BUNDLE_SET_CBV,
    BUNDLE_SET_SRV,
    BUNDLE_SET_UAV,
    BUNDLE_SET_TABLE,
    BUNDLE_DISPATCH,
    BUNDLE_DISPATCH_X,
    BUNDLE_WRITE_IMMEDIATE,
};

struct bundle_command {
    enum bundle_op op;
    uint32_t index;  /* root parameter index, or the count of heaps / immediate writes */
    union {
        ID3D12PipelineState *pipeline;
        ID3D12RootSignature *signature;
        ID3D12DescriptorHeap *heaps[2];
        struct { uint32_t count, offset, first_value; } constants; /* first_value: into bundle->values */
        uint64_t address;                                          /* root CBV/SRV/UAV, table handle */
        struct { uint32_t x, y, z; D3D12XBOX_DISPATCH_FLAGS flags; } dispatch;
        uint32_t first_write;                                      /* into bundle->writes */
    } u;
};

struct bundle_write {
    D3D12_WRITEBUFFERIMMEDIATE_PARAMETER parameter;
    D3D12_WRITEBUFFERIMMEDIATE_MODE mode;
};

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
    struct bundle_command *commands;
    size_t command_count, command_capacity;
    uint32_t *values;                          /* root constants of BUNDLE_SET_CONSTANTS */
    size_t value_count, value_capacity;
    struct bundle_write *writes;               /* of BUNDLE_WRITE_IMMEDIATE */
    size_t write_count, write_capacity;
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

/* The next command slot, or NULL (after the error) when the bundle is closed or out of memory. */
static struct bundle_command *add_command(struct d3d12_bundle *bundle, const char *command, enum bundle_op op, uint32_t index)
{
    struct bundle_command *slot;

    if (!bundle->recording) {
        ERR("%s: the bundle '%s' is closed (Reset it before recording); command ignored", command, d3d12xs_object_name(&bundle->object));
        return NULL;
    }
    if (!d3d12xs_array_reserve((void **)&bundle->commands, &bundle->command_capacity, bundle->command_count + 1, sizeof(*bundle->commands))) {
        bundle_error(bundle, command, "out of memory for the bundle's commands");
        return NULL;
    }
    slot = &bundle->commands[bundle->command_count++];
    memset(slot, 0, sizeof(*slot));
    slot->op = op;
    slot->index = index;
    return slot;
}

/* A command D3D12 does not allow in bundles. */
static void refuse(ID3D12GraphicsCommandList10 *iface, const char *command)
{
    struct d3d12_bundle *bundle = impl_from_bundle(iface);
    if (!bundle->recording) {
        ERR("%s: the bundle '%s' is closed (Reset it before recording); command ignored", command, d3d12xs_object_name(&bundle->object));
        return;
    }
    bundle_error(bundle, command, "cannot be recorded in a bundle (D3D12 allows only state, root argument, dispatch and "
            "immediate-write calls there; record it in the DIRECT list that executes the bundle)");
}

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
    if (!refcount) {
        /* Nothing of a bundle reaches the GPU but through its callers' command buffers. */
        if (bundle->allocator) {
            detach_allocator(bundle);
            d3d12_command_allocator_release_private_ref(bundle->allocator);
        }
        free(bundle->commands);
        free(bundle->values);
        free(bundle->writes);
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
    bundle->command_count = bundle->value_count = bundle->write_count = 0;
    bundle->initial_state = initial_state;
    bundle->pipeline_set = initial_state != NULL;
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

/* ---- what a bundle records ---- */

static void STDMETHODCALLTYPE d3d12_bundle_SetPipelineState(ID3D12GraphicsCommandList10 *iface, ID3D12PipelineState *state)
{
    struct d3d12_bundle *bundle = impl_from_bundle(iface);
    struct bundle_command *command;

    if (!(command = add_command(bundle, METHOD(SetPipelineState), BUNDLE_SET_PIPELINE, 0)))
        return;
    if (!unsafe_impl_from_ID3D12PipelineState(state)) {
        bundle_error(bundle, METHOD(SetPipelineState), "pPipelineState is %s (must be a pipeline state made by this device)",
                state ? "not a d3d12xs pipeline state" : "NULL");
        return;
    }
    command->u.pipeline = state;
    bundle->pipeline_set = true;
}

static void STDMETHODCALLTYPE d3d12_bundle_SetComputeRootSignature(ID3D12GraphicsCommandList10 *iface, ID3D12RootSignature *signature)
{
    struct bundle_command *command;
    if ((command = add_command(impl_from_bundle(iface), METHOD(SetComputeRootSignature), BUNDLE_SET_ROOT_SIGNATURE, 0)))
        command->u.signature = signature; /* checked where it is replayed, as in the caller */
}

static void STDMETHODCALLTYPE d3d12_bundle_SetDescriptorHeaps(ID3D12GraphicsCommandList10 *iface, UINT count, ID3D12DescriptorHeap *const *heaps)
{
    struct d3d12_bundle *bundle = impl_from_bundle(iface);
    struct bundle_command *command;

    if (!(command = add_command(bundle, METHOD(SetDescriptorHeaps), BUNDLE_SET_HEAPS, count)))
        return;
    if (count > 2) {
        bundle_error(bundle, METHOD(SetDescriptorHeaps), "NumDescriptorHeaps is %u (at most one CBV_SRV_UAV and one SAMPLER heap)", count);
        return;
    }
    if (count && !heaps) {
        bundle_error(bundle, METHOD(SetDescriptorHeaps), "ppDescriptorHeaps is NULL with NumDescriptorHeaps %u", count);
        return;
    }
    for (UINT i = 0; i < count; i++)
        command->u.heaps[i] = heaps[i];
}

static void record_constants(struct d3d12_bundle *bundle, const char *method, UINT index, UINT count, const void *data, UINT offset)
{
    struct bundle_command *command;

    if (!(command = add_command(bundle, method, BUNDLE_SET_CONSTANTS, index)))
        return;
    if (count && !data) {
        bundle_error(bundle, method, "pSrcData is NULL with Num32BitValuesToSet %u", count);
        return;
    }
    if (count > D3D12XS_MAX_ROOT_CONSTANT_BYTES / 4) {
        bundle_error(bundle, method, "Num32BitValuesToSet is %u (a root signature holds at most %u)", count, D3D12XS_MAX_ROOT_CONSTANT_BYTES / 4);
        return;
    }
    if (!d3d12xs_array_reserve((void **)&bundle->values, &bundle->value_capacity, bundle->value_count + count, sizeof(*bundle->values))) {
        bundle_error(bundle, method, "out of memory for the bundle's root constants");
        return;
    }
    command->u.constants.count = count;
    command->u.constants.offset = offset;
    command->u.constants.first_value = (uint32_t)bundle->value_count;
    if (count)
        memcpy(&bundle->values[bundle->value_count], data, count * sizeof(uint32_t));
    bundle->value_count += count;
}

static void STDMETHODCALLTYPE d3d12_bundle_SetComputeRoot32BitConstant(ID3D12GraphicsCommandList10 *iface, UINT index, UINT value, UINT offset)
{
    record_constants(impl_from_bundle(iface), METHOD(SetComputeRoot32BitConstant), index, 1, &value, offset);
}

static void STDMETHODCALLTYPE d3d12_bundle_SetComputeRoot32BitConstants(ID3D12GraphicsCommandList10 *iface, UINT index, UINT count,
        const void *data, UINT offset)
{
    record_constants(impl_from_bundle(iface), METHOD(SetComputeRoot32BitConstants), index, count, data, offset);
}

static void record_address(ID3D12GraphicsCommandList10 *iface, const char *method, enum bundle_op op, UINT index, uint64_t address)
{
    struct bundle_command *command;
    if ((command = add_command(impl_from_bundle(iface), method, op, index)))
        command->u.address = address;
}

static void STDMETHODCALLTYPE d3d12_bundle_SetComputeRootConstantBufferView(ID3D12GraphicsCommandList10 *iface, UINT index,
        D3D12_GPU_VIRTUAL_ADDRESS address)
{
    record_address(iface, METHOD(SetComputeRootConstantBufferView), BUNDLE_SET_CBV, index, address);
}

static void STDMETHODCALLTYPE d3d12_bundle_SetComputeRootShaderResourceView(ID3D12GraphicsCommandList10 *iface, UINT index,
        D3D12_GPU_VIRTUAL_ADDRESS address)
{
    record_address(iface, METHOD(SetComputeRootShaderResourceView), BUNDLE_SET_SRV, index, address);
}

static void STDMETHODCALLTYPE d3d12_bundle_SetComputeRootUnorderedAccessView(ID3D12GraphicsCommandList10 *iface, UINT index,
        D3D12_GPU_VIRTUAL_ADDRESS address)
{
    record_address(iface, METHOD(SetComputeRootUnorderedAccessView), BUNDLE_SET_UAV, index, address);
}

static void STDMETHODCALLTYPE d3d12_bundle_SetComputeRootDescriptorTable(ID3D12GraphicsCommandList10 *iface, UINT index,
        D3D12_GPU_DESCRIPTOR_HANDLE handle)
{
    record_address(iface, METHOD(SetComputeRootDescriptorTable), BUNDLE_SET_TABLE, index, handle.ptr);
}

static void record_dispatch(struct d3d12_bundle *bundle, const char *method, enum bundle_op op, UINT x, UINT y, UINT z,
        D3D12XBOX_DISPATCH_FLAGS flags)
{
    struct bundle_command *command;

    if (!(command = add_command(bundle, method, op, 0)))
        return;
    if (!bundle->pipeline_set) {
        bundle_error(bundle, method, "no pipeline state is set in the bundle (bundles do not inherit the caller's: pass "
                "pInitialState to CreateCommandList or Reset, or call SetPipelineState in the bundle)");
        return;
    }
    command->u.dispatch.x = x;
    command->u.dispatch.y = y;
    command->u.dispatch.z = z;
    command->u.dispatch.flags = flags;
}

static void STDMETHODCALLTYPE d3d12_bundle_Dispatch(ID3D12GraphicsCommandList10 *iface, UINT x, UINT y, UINT z)
{
    record_dispatch(impl_from_bundle(iface), METHOD(Dispatch), BUNDLE_DISPATCH, x, y, z, 0);
}

static void STDMETHODCALLTYPE d3d12_bundle_DispatchX(ID3D12GraphicsCommandList *iface, UINT x, UINT y, UINT z, D3D12XBOX_DISPATCH_FLAGS flags)
{
    record_dispatch(impl_from_bundle((ID3D12GraphicsCommandList10 *)iface), "ID3D12GraphicsCommandList::DispatchX (bundle)",
            BUNDLE_DISPATCH_X, x, y, z, flags);
}

static void STDMETHODCALLTYPE d3d12_bundle_WriteBufferImmediate(ID3D12GraphicsCommandList10 *iface, UINT count,
        const D3D12_WRITEBUFFERIMMEDIATE_PARAMETER *parameters, const D3D12_WRITEBUFFERIMMEDIATE_MODE *modes)
{
    struct d3d12_bundle *bundle = impl_from_bundle(iface);
    struct bundle_command *command;

    if (!(command = add_command(bundle, METHOD(WriteBufferImmediate), BUNDLE_WRITE_IMMEDIATE, count)))
        return;
    if (count && !parameters) {
        bundle_error(bundle, METHOD(WriteBufferImmediate), "pParams is NULL with Count %u", count);
        return;
    }
    if (!d3d12xs_array_reserve((void **)&bundle->writes, &bundle->write_capacity, bundle->write_count + count, sizeof(*bundle->writes))) {
        bundle_error(bundle, METHOD(WriteBufferImmediate), "out of memory for the bundle's writes");
        return;
    }
    command->u.first_write = (uint32_t)bundle->write_count;
    for (UINT i = 0; i < count; i++)
        bundle->writes[bundle->write_count++] = (struct bundle_write){parameters[i], modes ? modes[i] : D3D12_WRITEBUFFERIMMEDIATE_MODE_DEFAULT};
}

/* PIX markers are no-ops in lists too. */
static void STDMETHODCALLTYPE d3d12_bundle_SetMarker(ID3D12GraphicsCommandList10 *iface, UINT metadata, const void *data, UINT size)
{
    (void)iface, (void)metadata, (void)data, (void)size;
}

static void STDMETHODCALLTYPE d3d12_bundle_BeginEvent(ID3D12GraphicsCommandList10 *iface, UINT metadata, const void *data, UINT size)
{
    (void)iface, (void)metadata, (void)data, (void)size;
}

static void STDMETHODCALLTYPE d3d12_bundle_EndEvent(ID3D12GraphicsCommandList10 *iface)
{
    (void)iface;
}

/* ---- what a bundle refuses ---- */

static void STDMETHODCALLTYPE d3d12_bundle_ClearState(ID3D12GraphicsCommandList10 *iface, ID3D12PipelineState *state)
{
    (void)state;
    refuse(iface, METHOD(ClearState));
}

static void STDMETHODCALLTYPE d3d12_bundle_CopyBufferRegion(ID3D12GraphicsCommandList10 *iface, ID3D12Resource *dst, UINT64 dst_offset,
        ID3D12Resource *src, UINT64 src_offset, UINT64 byte_count)
{
    (void)dst, (void)dst_offset, (void)src, (void)src_offset, (void)byte_count;
    refuse(iface, METHOD(CopyBufferRegion));
}

static void STDMETHODCALLTYPE d3d12_bundle_CopyResource(ID3D12GraphicsCommandList10 *iface, ID3D12Resource *dst, ID3D12Resource *src)
{
    (void)dst, (void)src;
    refuse(iface, METHOD(CopyResource));
}

static void STDMETHODCALLTYPE d3d12_bundle_CopyTextureRegion(ID3D12GraphicsCommandList10 *iface, const D3D12_TEXTURE_COPY_LOCATION *dst,
        UINT dst_x, UINT dst_y, UINT dst_z, const D3D12_TEXTURE_COPY_LOCATION *src, const D3D12_BOX *src_box)
{
    (void)dst, (void)dst_x, (void)dst_y, (void)dst_z, (void)src, (void)src_box;
    refuse(iface, METHOD(CopyTextureRegion));
}

static void STDMETHODCALLTYPE d3d12_bundle_ResourceBarrier(ID3D12GraphicsCommandList10 *iface, UINT count, const D3D12_RESOURCE_BARRIER *barriers)
{
    (void)count, (void)barriers;
    refuse(iface, METHOD(ResourceBarrier));
}

static void STDMETHODCALLTYPE d3d12_bundle_BeginQuery(ID3D12GraphicsCommandList10 *iface, ID3D12QueryHeap *heap, D3D12_QUERY_TYPE type, UINT index)
{
    (void)heap, (void)type, (void)index;
    refuse(iface, METHOD(BeginQuery));
}

static void STDMETHODCALLTYPE d3d12_bundle_EndQuery(ID3D12GraphicsCommandList10 *iface, ID3D12QueryHeap *heap, D3D12_QUERY_TYPE type, UINT index)
{
    (void)heap, (void)type, (void)index;
    refuse(iface, METHOD(EndQuery));
}

static void STDMETHODCALLTYPE d3d12_bundle_ResolveQueryData(ID3D12GraphicsCommandList10 *iface, ID3D12QueryHeap *heap, D3D12_QUERY_TYPE type,
        UINT start_index, UINT count, ID3D12Resource *dst, UINT64 dst_offset)
{
    (void)heap, (void)type, (void)start_index, (void)count, (void)dst, (void)dst_offset;
    refuse(iface, METHOD(ResolveQueryData));
}

static void STDMETHODCALLTYPE d3d12_bundle_ClearUnorderedAccessViewUint(ID3D12GraphicsCommandList10 *iface, D3D12_GPU_DESCRIPTOR_HANDLE gpu_handle,
        D3D12_CPU_DESCRIPTOR_HANDLE cpu_handle, ID3D12Resource *resource, const UINT values[4], UINT rect_count, const D3D12_RECT *rects)
{
    (void)gpu_handle, (void)cpu_handle, (void)resource, (void)values, (void)rect_count, (void)rects;
    refuse(iface, METHOD(ClearUnorderedAccessViewUint));
}

static void STDMETHODCALLTYPE d3d12_bundle_ClearRenderTargetView(ID3D12GraphicsCommandList10 *iface, D3D12_CPU_DESCRIPTOR_HANDLE view,
        const FLOAT color[4], UINT rect_count, const D3D12_RECT *rects)
{
    (void)view, (void)color, (void)rect_count, (void)rects;
    refuse(iface, METHOD(ClearRenderTargetView));
}

static void STDMETHODCALLTYPE d3d12_bundle_ClearDepthStencilView(ID3D12GraphicsCommandList10 *iface, D3D12_CPU_DESCRIPTOR_HANDLE view,
        D3D12_CLEAR_FLAGS flags, FLOAT depth, UINT8 stencil, UINT rect_count, const D3D12_RECT *rects)
{
    (void)view, (void)flags, (void)depth, (void)stencil, (void)rect_count, (void)rects;
    refuse(iface, METHOD(ClearDepthStencilView));
}

static void STDMETHODCALLTYPE d3d12_bundle_ClearUnorderedAccessViewFloat(ID3D12GraphicsCommandList10 *iface, D3D12_GPU_DESCRIPTOR_HANDLE gpu_handle,
        D3D12_CPU_DESCRIPTOR_HANDLE cpu_handle, ID3D12Resource *resource, const FLOAT values[4], UINT rect_count, const D3D12_RECT *rects)
{
    (void)gpu_handle, (void)cpu_handle, (void)resource, (void)values, (void)rect_count, (void)rects;
    refuse(iface, METHOD(ClearUnorderedAccessViewFloat));
}

static void STDMETHODCALLTYPE d3d12_bundle_ExecuteBundle(ID3D12GraphicsCommandList10 *iface, ID3D12GraphicsCommandList *bundle)
{
    (void)bundle;
    refuse(iface, METHOD(ExecuteBundle));
}

/* The console's synchronisation commands cut or wait inside a list: they belong to the list
 * that executes the bundle. DispatchX is a dispatch and is recorded. */
/* Their parameters are all ignored: the call only marks the bundle invalid. */
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunused-parameter"
#elif defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#endif
#define REFUSE_CONSOLE(name, ...) \
static void STDMETHODCALLTYPE d3d12_bundle_##name(ID3D12GraphicsCommandList *iface, __VA_ARGS__) \
{ \
    refuse((ID3D12GraphicsCommandList10 *)iface, "ID3D12GraphicsCommandList::" #name " (bundle)"); \
}
REFUSE_CONSOLE(Write32BitValueBottomOfPipe2X, D3D12_GPU_VIRTUAL_ADDRESS a, UINT v, D3D12XBOX_SYNC_FLAGS s, D3D12XBOX_SYNC_CONTROL_FLAGS c,
        D3D12XBOX_WRITE_VALUE_BOP_FLAGS w)
REFUSE_CONSOLE(Write64BitValueBottomOfPipe2X, D3D12_GPU_VIRTUAL_ADDRESS a, UINT64 v, D3D12XBOX_SYNC_FLAGS s, D3D12XBOX_SYNC_CONTROL_FLAGS c,
        D3D12XBOX_WRITE_VALUE_BOP_FLAGS w)
REFUSE_CONSOLE(Write32BitValueBottomOfPipeX, D3D12_GPU_VIRTUAL_ADDRESS a, UINT v, D3D12XBOX_FLUSH f, D3D12XBOX_WRITE_VALUE_BOP_FLAGS w)
REFUSE_CONSOLE(Write64BitValueBottomOfPipeX, D3D12_GPU_VIRTUAL_ADDRESS a, UINT64 v, D3D12XBOX_FLUSH f, D3D12XBOX_WRITE_VALUE_BOP_FLAGS w)
REFUSE_CONSOLE(Write32BitValueTopOfPipeX, D3D12_GPU_VIRTUAL_ADDRESS a, UINT v)
REFUSE_CONSOLE(Write64BitValueTopOfPipeX, D3D12_GPU_VIRTUAL_ADDRESS a, UINT64 v)
REFUSE_CONSOLE(Wait32BitValueX, D3D12_GPU_VIRTUAL_ADDRESS a, D3D12_COMPARISON_FUNC c, UINT v, D3D12XBOX_WAIT_FLAGS f)
REFUSE_CONSOLE(Wait64BitValueX, D3D12_GPU_VIRTUAL_ADDRESS a, D3D12_COMPARISON_FUNC c, UINT64 v, D3D12XBOX_WAIT_FLAGS f)
REFUSE_CONSOLE(FlushPipelineX, D3D12XBOX_FLUSH f, D3D12_GPU_VIRTUAL_ADDRESS a, SIZE_T s)
#if defined(__clang__)
#pragma clang diagnostic pop
#elif defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#if defined(__clang__)
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Woverride-init"
#endif

static const D3D12XS_ID3D12GraphicsCommandListConsoleVtbl d3d12_bundle_console_vtbl = {
    D3D12XS_STUB_CONSOLE_VTBL_ID3D12GraphicsCommandList,
    .DispatchX = d3d12_bundle_DispatchX,
    .Write32BitValueBottomOfPipe2X = d3d12_bundle_Write32BitValueBottomOfPipe2X,
    .Write64BitValueBottomOfPipe2X = d3d12_bundle_Write64BitValueBottomOfPipe2X,
    .Write32BitValueBottomOfPipeX = d3d12_bundle_Write32BitValueBottomOfPipeX,
    .Write64BitValueBottomOfPipeX = d3d12_bundle_Write64BitValueBottomOfPipeX,
    .Write32BitValueTopOfPipeX = d3d12_bundle_Write32BitValueTopOfPipeX,
    .Write64BitValueTopOfPipeX = d3d12_bundle_Write64BitValueTopOfPipeX,
    .Wait32BitValueX = d3d12_bundle_Wait32BitValueX,
    .Wait64BitValueX = d3d12_bundle_Wait64BitValueX,
    .FlushPipelineX = d3d12_bundle_FlushPipelineX,
};

static const ID3D12GraphicsCommandList10Vtbl d3d12_bundle_vtbl = {
    D3D12XS_STUB_VTBL_ID3D12GraphicsCommandList10,
    .QueryInterface = d3d12_bundle_QueryInterface,
    D3D12XS_DEVICE_CHILD_VTBL_ENTRIES(d3d12_bundle),
    .Release = d3d12_bundle_Release,
    .GetType = d3d12_bundle_GetType,
    .Close = d3d12_bundle_Close,
    .Reset = d3d12_bundle_Reset,
    .ClearState = d3d12_bundle_ClearState,
    .CopyBufferRegion = d3d12_bundle_CopyBufferRegion,
    .CopyResource = d3d12_bundle_CopyResource,
    .CopyTextureRegion = d3d12_bundle_CopyTextureRegion,
    .ResourceBarrier = d3d12_bundle_ResourceBarrier,
    .BeginQuery = d3d12_bundle_BeginQuery,
    .EndQuery = d3d12_bundle_EndQuery,
    .ResolveQueryData = d3d12_bundle_ResolveQueryData,
    .ExecuteBundle = d3d12_bundle_ExecuteBundle,
    .SetMarker = d3d12_bundle_SetMarker,
    .BeginEvent = d3d12_bundle_BeginEvent,
    .EndEvent = d3d12_bundle_EndEvent,
    .WriteBufferImmediate = d3d12_bundle_WriteBufferImmediate,
    .SetPipelineState = d3d12_bundle_SetPipelineState,
    .SetComputeRootSignature = d3d12_bundle_SetComputeRootSignature,
    .SetDescriptorHeaps = d3d12_bundle_SetDescriptorHeaps,
    .SetComputeRoot32BitConstant = d3d12_bundle_SetComputeRoot32BitConstant,
    .SetComputeRoot32BitConstants = d3d12_bundle_SetComputeRoot32BitConstants,
    .SetComputeRootConstantBufferView = d3d12_bundle_SetComputeRootConstantBufferView,
    .SetComputeRootShaderResourceView = d3d12_bundle_SetComputeRootShaderResourceView,
    .SetComputeRootUnorderedAccessView = d3d12_bundle_SetComputeRootUnorderedAccessView,
    .SetComputeRootDescriptorTable = d3d12_bundle_SetComputeRootDescriptorTable,
    .Dispatch = d3d12_bundle_Dispatch,
    .ClearUnorderedAccessViewUint = d3d12_bundle_ClearUnorderedAccessViewUint,
    .ClearUnorderedAccessViewFloat = d3d12_bundle_ClearUnorderedAccessViewFloat,
    .ClearRenderTargetView = d3d12_bundle_ClearRenderTargetView,
    .ClearDepthStencilView = d3d12_bundle_ClearDepthStencilView,
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

/* SetDescriptorHeaps in a bundle only names the caller's heaps (D3D12's rule): it binds nothing. */
static bool heaps_match(struct d3d12_command_list *list, const struct bundle_command *command)
{
    for (uint32_t i = 0; i < command->index; i++) {
        struct d3d12_descriptor_heap *heap = unsafe_impl_from_ID3D12DescriptorHeap(command->u.heaps[i]);
        if (!heap || (heap->desc.Type != D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV && heap->desc.Type != D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER)
                || list->bindings.heaps[heap->desc.Type == D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER] != heap)
            return false;
    }
    return true;
}

static void replay(struct d3d12_command_list *list, const struct d3d12_bundle *bundle)
{
    ID3D12GraphicsCommandList10 *iface = &list->ID3D12GraphicsCommandList10_iface;

    /* The pipeline state is the one thing a bundle does not inherit. */
    if (bundle->initial_state)
        d3d12_command_list_SetPipelineState(iface, bundle->initial_state);
    for (size_t i = 0; i < bundle->command_count && !list->invalid; i++) {
        const struct bundle_command *command = &bundle->commands[i];
        switch (command->op) {
        case BUNDLE_SET_PIPELINE:
            d3d12_command_list_SetPipelineState(iface, command->u.pipeline);
            break;
        case BUNDLE_SET_ROOT_SIGNATURE:
            d3d12_command_list_SetComputeRootSignature(iface, command->u.signature);
            break;
        case BUNDLE_SET_HEAPS:
            if (!heaps_match(list, command))
                d3d12_command_list_record_error(list, "ID3D12GraphicsCommandList::ExecuteBundle",
                        "the bundle '%s' sets descriptor heaps other than the ones bound in this list (a bundle's heaps must "
                        "match its caller's)", d3d12xs_object_name(&bundle->object));
            break;
        case BUNDLE_SET_CONSTANTS:
            d3d12_command_list_SetComputeRoot32BitConstants(iface, command->index, command->u.constants.count,
                    &bundle->values[command->u.constants.first_value], command->u.constants.offset);
            break;
        case BUNDLE_SET_CBV:
            d3d12_command_list_SetComputeRootConstantBufferView(iface, command->index, command->u.address);
            break;
        case BUNDLE_SET_SRV:
            d3d12_command_list_SetComputeRootShaderResourceView(iface, command->index, command->u.address);
            break;
        case BUNDLE_SET_UAV:
            d3d12_command_list_SetComputeRootUnorderedAccessView(iface, command->index, command->u.address);
            break;
        case BUNDLE_SET_TABLE:
            d3d12_command_list_SetComputeRootDescriptorTable(iface, command->index, (D3D12_GPU_DESCRIPTOR_HANDLE){command->u.address});
            break;
        case BUNDLE_DISPATCH:
            d3d12_command_list_Dispatch(iface, command->u.dispatch.x, command->u.dispatch.y, command->u.dispatch.z);
            break;
        case BUNDLE_DISPATCH_X:
            /* Through the list's console table, as the application calls it. */
            iface->lpVtbl->d3d12xs_console->DispatchX((ID3D12GraphicsCommandList *)iface, command->u.dispatch.x, command->u.dispatch.y,
                    command->u.dispatch.z, command->u.dispatch.flags);
            break;
        case BUNDLE_WRITE_IMMEDIATE:
            for (uint32_t w = 0; w < command->index; w++)
                d3d12_command_list_WriteBufferImmediate(iface, 1, &bundle->writes[command->u.first_write + w].parameter,
                        &bundle->writes[command->u.first_write + w].mode);
            break;
        }
    }
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
