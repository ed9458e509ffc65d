/* ID3D12Device1 ... ID3D12Device14: what the later versions add, mapped onto the code of
 * ID3D12Device's own methods where the extra arguments can be honoured (or are NULL / the
 * default), refused with one line naming the argument where they cannot. The slots not set here
 * keep their generated stubs (E_NOTIMPL, NULL through out-pointers). SetEventOnMultipleFenceCompletion
 * and EnqueueMakeResident are in device_fence_wait.c. */
#include <stdio.h>
#include <string.h>

#include "api/device_versions.h"
#include "memory/resource.h"
#include "memory/texture_layout.h"
#include "memory/texture.h"
#include "descriptors/descriptors.h"
#include "sync/scheduler.h"
#include "sync/waiter.h"
#include "commands/command_list_state.h"
#include "commands/command_bundle.h"
#include "pipelines/graphics_pipeline.h"
#include "pipelines/pipeline_library.h"

/* ---- shared checks ---- */

HRESULT d3d12_device_check_node_mask(const char *method, const char *argument, UINT mask)
{
    if (mask > 1)
        return d3d12xs_fail(E_INVALIDARG, method, "%s is 0x%x (single-node device: must be 0 or 1)", argument, mask);
    return S_OK;
}

HRESULT d3d12_device_check_list_type(const char *method, const char *argument, D3D12_COMMAND_LIST_TYPE type)
{
    if (type == D3D12_COMMAND_LIST_TYPE_DIRECT || type == D3D12_COMMAND_LIST_TYPE_COMPUTE || type == D3D12_COMMAND_LIST_TYPE_COPY
            || type == D3D12_COMMAND_LIST_TYPE_BUNDLE)
        return S_OK;
    return d3d12xs_fail(E_INVALIDARG, method, "%s is %d (must be DIRECT, BUNDLE, COMPUTE or COPY)", argument, (int)type);
}

HRESULT d3d12_device_check_queue_type(const char *method, const char *argument, D3D12_COMMAND_LIST_TYPE type)
{
    if (type == D3D12_COMMAND_LIST_TYPE_DIRECT || type == D3D12_COMMAND_LIST_TYPE_COMPUTE || type == D3D12_COMMAND_LIST_TYPE_COPY)
        return S_OK;
    if (type == D3D12_COMMAND_LIST_TYPE_BUNDLE)
        return d3d12xs_fail(E_INVALIDARG, method, "%s is BUNDLE (no queue runs bundles: DIRECT lists execute them with ExecuteBundle)", argument);
    return d3d12xs_fail(E_INVALIDARG, method, "%s is %d (must be DIRECT, COMPUTE or COPY)", argument, (int)type);
}

/* No protected resource sessions exist here (CreateProtectedResourceSession is a stub), so only
 * NULL can be passed honestly. */
static HRESULT check_no_session(const char *method, ID3D12ProtectedResourceSession *session)
{
    if (session)
        return d3d12xs_fail(E_INVALIDARG, method, "pProtectedSession is not NULL (protected resource sessions are not implemented: "
                "CreateProtectedResourceSession fails, so pass NULL)");
    return S_OK;
}

/* A D3D12_RESOURCE_DESC1 without sampler feedback is a D3D12_RESOURCE_DESC. */
static HRESULT desc_from_desc1(const char *method, const char *argument, const D3D12_RESOURCE_DESC1 *desc1, D3D12_RESOURCE_DESC *desc)
{
    if (!desc1)
        return d3d12xs_fail(E_INVALIDARG, method, "%s is NULL (must describe the resource)", argument);
    if (desc1->SamplerFeedbackMipRegion.Width || desc1->SamplerFeedbackMipRegion.Height || desc1->SamplerFeedbackMipRegion.Depth)
        return d3d12xs_fail(E_INVALIDARG, method, "%s->SamplerFeedbackMipRegion is %ux%ux%u (must be 0x0x0: sampler feedback is not "
                "implemented)", argument, desc1->SamplerFeedbackMipRegion.Width,
                desc1->SamplerFeedbackMipRegion.Height, desc1->SamplerFeedbackMipRegion.Depth);
    desc->Dimension = desc1->Dimension;
    desc->Alignment = desc1->Alignment;
    desc->Width = desc1->Width;
    desc->Height = desc1->Height;
    desc->DepthOrArraySize = desc1->DepthOrArraySize;
    desc->MipLevels = desc1->MipLevels;
    desc->Format = desc1->Format;
    desc->SampleDesc = desc1->SampleDesc;
    desc->Layout = desc1->Layout;
    desc->Flags = desc1->Flags;
    return S_OK;
}

/* Buffers start in the layout UNDEFINED (enhanced barriers); the state D3D12 gives such a
 * buffer in each heap type. */
static HRESULT state_from_layout(const char *method, D3D12_BARRIER_LAYOUT layout, UINT32 castable_format_count,
        const DXGI_FORMAT *castable_formats, D3D12_HEAP_TYPE heap_type, D3D12_RESOURCE_STATES *state)
{
    if (layout != D3D12_BARRIER_LAYOUT_UNDEFINED)
        return d3d12xs_fail(E_INVALIDARG, method, "InitialLayout is %d (only UNDEFINED is implemented: resources created with a layout start in it)",
                (int)layout);
    if (castable_format_count)
        return d3d12xs_fail(E_INVALIDARG, method, "NumCastableFormats is %u (castable format lists are not implemented: must be 0)",
                castable_format_count);
    (void)castable_formats;
    *state = heap_type == D3D12_HEAP_TYPE_UPLOAD ? D3D12_RESOURCE_STATE_GENERIC_READ
            : heap_type == D3D12_HEAP_TYPE_READBACK ? D3D12_RESOURCE_STATE_COPY_DEST : D3D12_RESOURCE_STATE_COMMON;
    return S_OK;
}

/* ---- allocation info and footprints (ID3D12Device, Device4, Device8, Device12) ---- */

/* What Windows answers for a description it refuses: a UINT64_MAX size, at least 64 KiB alignment. */
static D3D12_RESOURCE_ALLOCATION_INFO allocation_failed(D3D12_RESOURCE_ALLOCATION_INFO info)
{
    info.SizeInBytes = UINT64_MAX;
    if (info.Alignment < D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT)
        info.Alignment = D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT;
    return info;
}

/* Either descs or descs1 (one of them NULL). infos, when given, gets each resource's place:
 * each at a multiple of its own alignment, after the one before. */
static D3D12_RESOURCE_ALLOCATION_INFO allocation_info(struct d3d12_device *device, const char *method, UINT visible_mask, UINT count,
        const D3D12_RESOURCE_DESC *descs, const D3D12_RESOURCE_DESC1 *descs1, D3D12_RESOURCE_ALLOCATION_INFO1 *infos)
{
    /* The alignment is the largest of the resources' (64 KiB when there are none or on failure). */
    D3D12_RESOURCE_ALLOCATION_INFO info = {0, count ? 0 : D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT};

    if (d3d12_device_check_node_mask(method, "visibleMask", visible_mask) != S_OK) {
        return allocation_failed(info);
    }
    if (count && !descs && !descs1) {
        ERR("%s: pResourceDescs is NULL with %u descriptions", method, count);
        return allocation_failed(info);
    }
    for (UINT i = 0; i < count; i++) {
        D3D12_RESOURCE_DESC desc = {0}; /* set by desc_from_desc1; zeroed for the optimiser's flow analysis */
        uint64_t offset, size, alignment = D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT;
        char argument[32];
        snprintf(argument, sizeof(argument), "pResourceDescs[%u]", i);
        if (descs)
            desc = descs[i];
        else if (FAILED(desc_from_desc1(method, argument, &descs1[i], &desc))) {
            return allocation_failed(info);
        }
        if (desc.Dimension >= D3D12_RESOURCE_DIMENSION_TEXTURE1D && desc.Dimension <= D3D12_RESOURCE_DIMENSION_TEXTURE3D) {
            if (FAILED(d3d12xs_texture_allocation_info(device, &desc, &size, &alignment, method))) {
                return allocation_failed(info);
            }
        } else if (FAILED(d3d12xs_validate_buffer_desc(method, &desc))) {
            return allocation_failed(info);
        } else {
            size = (desc.Width + alignment - 1) & ~(alignment - 1);
        }
        if (alignment > info.Alignment)
            info.Alignment = alignment;
        offset = (info.SizeInBytes + alignment - 1) & ~(alignment - 1);
        if (infos)
            infos[i] = (D3D12_RESOURCE_ALLOCATION_INFO1){offset, alignment, size};
        info.SizeInBytes = offset + size;
    }
    return info;
}

D3D12_RESOURCE_ALLOCATION_INFO STDMETHODCALLTYPE d3d12_device_GetResourceAllocationInfo(ID3D12Device14 *iface,
        UINT visible_mask, UINT count, const D3D12_RESOURCE_DESC *descs)
{
    return allocation_info(impl_from_ID3D12Device14(iface), "ID3D12Device::GetResourceAllocationInfo", visible_mask, count, descs, NULL, NULL);
}

D3D12_RESOURCE_ALLOCATION_INFO STDMETHODCALLTYPE d3d12_device_GetResourceAllocationInfo1(ID3D12Device14 *iface, UINT visible_mask,
        UINT count, const D3D12_RESOURCE_DESC *descs, D3D12_RESOURCE_ALLOCATION_INFO1 *infos)
{
    return allocation_info(impl_from_ID3D12Device14(iface), "ID3D12Device4::GetResourceAllocationInfo1", visible_mask, count, descs, NULL, infos);
}

D3D12_RESOURCE_ALLOCATION_INFO STDMETHODCALLTYPE d3d12_device_GetResourceAllocationInfo2(ID3D12Device14 *iface, UINT visible_mask,
        UINT count, const D3D12_RESOURCE_DESC1 *descs, D3D12_RESOURCE_ALLOCATION_INFO1 *infos)
{
    return allocation_info(impl_from_ID3D12Device14(iface), "ID3D12Device8::GetResourceAllocationInfo2", visible_mask, count, NULL, descs, infos);
}

D3D12_RESOURCE_ALLOCATION_INFO STDMETHODCALLTYPE d3d12_device_GetResourceAllocationInfo3(ID3D12Device14 *iface, UINT visible_mask,
        UINT count, const D3D12_RESOURCE_DESC1 *descs, const UINT32 *castable_format_counts, const DXGI_FORMAT *const *castable_formats,
        D3D12_RESOURCE_ALLOCATION_INFO1 *infos)
{
    static const char method[] = "ID3D12Device12::GetResourceAllocationInfo3";
    D3D12_RESOURCE_ALLOCATION_INFO failed = {UINT64_MAX, D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT};
    (void)castable_formats;
    for (UINT i = 0; castable_format_counts && i < count; i++) {
        if (castable_format_counts[i]) {
            ERR("%s: pNumCastableFormats[%u] is %u (castable format lists are not implemented: must be 0)", method, i, castable_format_counts[i]);
            return failed;
        }
    }
    return allocation_info(impl_from_ID3D12Device14(iface), method, visible_mask, count, NULL, descs, infos);
}

/* What Windows writes for a description or range it refuses: every bit set in each of the
 * NumSubresources entries asked for, and a total of UINT64_MAX. A count past the most
 * subresources any resource has (D3D12_REQ_SUBRESOURCES) cannot describe the caller's arrays:
 * then only the total is written. */
static void footprints_failed(UINT subresource_count, D3D12_PLACED_SUBRESOURCE_FOOTPRINT *layouts, UINT *row_counts,
        UINT64 *row_sizes, UINT64 *total_bytes)
{
    if (subresource_count > D3D12_REQ_SUBRESOURCES)
        subresource_count = 0;
    if (layouts)
        memset(layouts, 0xff, sizeof(*layouts) * subresource_count);
    if (row_counts)
        memset(row_counts, 0xff, sizeof(*row_counts) * subresource_count);
    if (row_sizes)
        memset(row_sizes, 0xff, sizeof(*row_sizes) * subresource_count);
    if (total_bytes)
        *total_bytes = UINT64_MAX;
}

static void copyable_footprints(const char *method, const D3D12_RESOURCE_DESC *desc, UINT first_subresource, UINT subresource_count,
        UINT64 base_offset, D3D12_PLACED_SUBRESOURCE_FOOTPRINT *layouts, UINT *row_counts, UINT64 *row_sizes, UINT64 *total_bytes)
{
    if (total_bytes)
        *total_bytes = UINT64_MAX;
    if (!desc) {
        ERR("%s: pResourceDesc is NULL (must describe the resource)", method);
        footprints_failed(subresource_count, layouts, row_counts, row_sizes, total_bytes);
        return;
    }
    if (desc->Dimension >= D3D12_RESOURCE_DIMENSION_TEXTURE1D && desc->Dimension <= D3D12_RESOURCE_DIMENSION_TEXTURE3D) {
        if (FAILED(d3d12xs_validate_texture_desc(method, desc)) || !d3d12xs_texture_footprints(method, desc, first_subresource,
                subresource_count, base_offset, layouts, row_counts, row_sizes, total_bytes))
            footprints_failed(subresource_count, layouts, row_counts, row_sizes, total_bytes);
        return;
    }
    if (desc->Dimension != D3D12_RESOURCE_DIMENSION_BUFFER) {
        ERR("%s: pResourceDesc->Dimension is %d (not a D3D12_RESOURCE_DIMENSION)", method, (int)desc->Dimension);
        footprints_failed(subresource_count, layouts, row_counts, row_sizes, total_bytes);
        return;
    }
    if (FAILED(d3d12xs_validate_buffer_desc(method, desc))) {
        footprints_failed(subresource_count, layouts, row_counts, row_sizes, total_bytes);
        return;
    }
    if (first_subresource != 0 || subresource_count > 1) {
        ERR("%s: FirstSubresource %u / NumSubresources %u (a buffer has only subresource 0)", method, first_subresource, subresource_count);
        footprints_failed(subresource_count, layouts, row_counts, row_sizes, total_bytes);
        return;
    }
    if (subresource_count) {
        if (layouts) {
            layouts->Offset = base_offset;
            layouts->Footprint.Format = DXGI_FORMAT_UNKNOWN;
            layouts->Footprint.Width = (UINT)desc->Width;
            layouts->Footprint.Height = 1;
            layouts->Footprint.Depth = 1;
            layouts->Footprint.RowPitch = (UINT)((desc->Width + D3D12_TEXTURE_DATA_PITCH_ALIGNMENT - 1) & ~(UINT64)(D3D12_TEXTURE_DATA_PITCH_ALIGNMENT - 1));
        }
        if (row_counts)
            *row_counts = 1;
        if (row_sizes)
            *row_sizes = desc->Width;
    }
    if (total_bytes)
        *total_bytes = subresource_count ? desc->Width : 0;
}

void STDMETHODCALLTYPE d3d12_device_GetCopyableFootprints(ID3D12Device14 *iface, const D3D12_RESOURCE_DESC *desc,
        UINT first_subresource, UINT subresource_count, UINT64 base_offset, D3D12_PLACED_SUBRESOURCE_FOOTPRINT *layouts,
        UINT *row_counts, UINT64 *row_sizes, UINT64 *total_bytes)
{
    (void)iface;
    copyable_footprints("ID3D12Device::GetCopyableFootprints", desc, first_subresource, subresource_count, base_offset, layouts,
            row_counts, row_sizes, total_bytes);
}

void STDMETHODCALLTYPE d3d12_device_GetCopyableFootprints1(ID3D12Device14 *iface, const D3D12_RESOURCE_DESC1 *desc1,
        UINT first_subresource, UINT subresource_count, UINT64 base_offset, D3D12_PLACED_SUBRESOURCE_FOOTPRINT *layouts,
        UINT *row_counts, UINT64 *row_sizes, UINT64 *total_bytes)
{
    static const char method[] = "ID3D12Device8::GetCopyableFootprints1";
    D3D12_RESOURCE_DESC desc = {0}; /* set by desc_from_desc1; zeroed for the optimiser's flow analysis */
    (void)iface;
    if (desc1 && FAILED(desc_from_desc1(method, "pResourceDesc", desc1, &desc))) {
        footprints_failed(subresource_count, layouts, row_counts, row_sizes, total_bytes);
        return;
    }
    copyable_footprints(method, desc1 ? &desc : NULL, first_subresource, subresource_count, base_offset, layouts, row_counts,
            row_sizes, total_bytes);
}

/* ---- ID3D12Device1 ---- */

HRESULT STDMETHODCALLTYPE d3d12_device_SetResidencyPriority(ID3D12Device14 *iface, UINT count, ID3D12Pageable *const *objects,
        const D3D12_RESIDENCY_PRIORITY *priorities)
{
    static const char method[] = "ID3D12Device1::SetResidencyPriority";
    (void)iface;
    if (count && !objects)
        return d3d12xs_fail(E_INVALIDARG, method, "ppObjects is NULL with NumObjects %u", count);
    if (count && !priorities)
        return d3d12xs_fail(E_INVALIDARG, method, "pPriorities is NULL with NumObjects %u", count);
    for (UINT i = 0; i < count; i++)
        if (!objects[i])
            return d3d12xs_fail(E_INVALIDARG, method, "ppObjects[%u] is NULL", i);
    return S_OK; /* Vulkan memory is always resident: priorities change nothing. */
}

HRESULT STDMETHODCALLTYPE d3d12_device_CreatePipelineLibrary(ID3D12Device14 *iface, const void *blob, SIZE_T size, REFIID riid,
        void **library)
{
    D3D12XS_RETURN_IF_REMOVED(impl_from_ID3D12Device14(iface), "ID3D12Device1::CreatePipelineLibrary", library);
    return d3d12_pipeline_library_create(impl_from_ID3D12Device14(iface), blob, size, riid, library);
}

/* ---- ID3D12Device2 ---- */

HRESULT STDMETHODCALLTYPE d3d12_device_CreatePipelineState(ID3D12Device14 *iface, const D3D12_PIPELINE_STATE_STREAM_DESC *desc, REFIID riid,
        void **pipeline_state)
{
    D3D12XS_RETURN_IF_REMOVED(impl_from_ID3D12Device14(iface), "ID3D12Device2::CreatePipelineState", pipeline_state);
    return d3d12_pipeline_state_create_from_stream(impl_from_ID3D12Device14(iface), desc, riid, pipeline_state);
}

/* ---- ID3D12Device4 ---- */

HRESULT STDMETHODCALLTYPE d3d12_device_CreateCommandList1(ID3D12Device14 *iface, UINT node_mask, D3D12_COMMAND_LIST_TYPE type,
        D3D12_COMMAND_LIST_FLAGS flags, REFIID riid, void **list)
{
    static const char method[] = "ID3D12Device4::CreateCommandList1";
    HRESULT hr;
    D3D12XS_RETURN_IF_REMOVED(impl_from_ID3D12Device14(iface), method, list);
    if (list)
        *list = NULL;
    if (FAILED(hr = d3d12_device_check_node_mask(method, "nodeMask", node_mask)))
        return hr;
    if (FAILED(hr = d3d12_device_check_list_type(method, "type", type)))
        return hr;
    if (flags != D3D12_COMMAND_LIST_FLAG_NONE)
        return d3d12xs_fail(E_INVALIDARG, method, "flags is 0x%x (only D3D12_COMMAND_LIST_FLAG_NONE is defined)", flags);
    if (!riid)
        return d3d12xs_fail(E_INVALIDARG, method, "riid is NULL (must name the command list interface)");
    if (!list)
        return d3d12xs_fail(E_POINTER, method, "ppCommandList is NULL (must receive the list)");
    if (type == D3D12_COMMAND_LIST_TYPE_BUNDLE)
        return d3d12_bundle_create_closed(impl_from_ID3D12Device14(iface), riid, list);
    return d3d12_command_list_create_closed(impl_from_ID3D12Device14(iface), type, riid, list);
}

HRESULT STDMETHODCALLTYPE d3d12_device_CreateCommittedResource1(ID3D12Device14 *iface, const D3D12_HEAP_PROPERTIES *heap_properties,
        D3D12_HEAP_FLAGS heap_flags, const D3D12_RESOURCE_DESC *desc, D3D12_RESOURCE_STATES initial_state,
        const D3D12_CLEAR_VALUE *clear_value, ID3D12ProtectedResourceSession *session, REFIID riid, void **resource)
{
    HRESULT hr;
    D3D12XS_RETURN_IF_REMOVED(impl_from_ID3D12Device14(iface), "ID3D12Device4::CreateCommittedResource1", resource);
    if (resource)
        *resource = NULL;
    if (FAILED(hr = check_no_session("ID3D12Device4::CreateCommittedResource1", session)))
        return hr;
    return d3d12_resource_create_committed(impl_from_ID3D12Device14(iface), heap_properties, heap_flags, desc, initial_state,
            clear_value, riid, resource);
}

HRESULT STDMETHODCALLTYPE d3d12_device_CreateReservedResource1(ID3D12Device14 *iface, const D3D12_RESOURCE_DESC *desc,
        D3D12_RESOURCE_STATES initial_state, const D3D12_CLEAR_VALUE *clear_value, ID3D12ProtectedResourceSession *session,
        REFIID riid, void **resource)
{
    static const char method[] = "ID3D12Device4::CreateReservedResource1";
    HRESULT hr;
    (void)iface;
    (void)initial_state;
    if (resource)
        *resource = NULL;
    if (FAILED(hr = check_no_session(method, session)))
        return hr;
    return d3d12_resource_create_reserved(method, desc, clear_value, riid, resource);
}

HRESULT STDMETHODCALLTYPE d3d12_device_CreateHeap1(ID3D12Device14 *iface, const D3D12_HEAP_DESC *desc,
        ID3D12ProtectedResourceSession *session, REFIID riid, void **heap)
{
    HRESULT hr;
    D3D12XS_RETURN_IF_REMOVED(impl_from_ID3D12Device14(iface), "ID3D12Device4::CreateHeap1", heap);
    if (heap)
        *heap = NULL;
    if (FAILED(hr = check_no_session("ID3D12Device4::CreateHeap1", session)))
        return hr;
    return d3d12_heap_create(impl_from_ID3D12Device14(iface), desc, riid, heap);
}

/* ---- ID3D12Device3 and 13: heaps over the application's memory ---- */

HRESULT STDMETHODCALLTYPE d3d12_device_OpenExistingHeapFromAddress(ID3D12Device14 *iface, const void *address, REFIID riid, void **heap)
{
    D3D12XS_RETURN_IF_REMOVED(impl_from_ID3D12Device14(iface), "ID3D12Device3::OpenExistingHeapFromAddress", heap);
    return d3d12_heap_open_existing(impl_from_ID3D12Device14(iface), address, 0, riid, heap,
            "ID3D12Device3::OpenExistingHeapFromAddress");
}

HRESULT STDMETHODCALLTYPE d3d12_device_OpenExistingHeapFromAddress1(ID3D12Device14 *iface, const void *address, SIZE_T size,
        REFIID riid, void **heap)
{
    D3D12XS_RETURN_IF_REMOVED(impl_from_ID3D12Device14(iface), "ID3D12Device13::OpenExistingHeapFromAddress1", heap);
    if (!size) {
        if (heap)
            *heap = NULL;
        return d3d12xs_fail(E_INVALIDARG, "ID3D12Device13::OpenExistingHeapFromAddress1", "size is 0 (must be the size of the memory at pAddress)");
    }
    return d3d12_heap_open_existing(impl_from_ID3D12Device14(iface), address, size, riid, heap,
            "ID3D12Device13::OpenExistingHeapFromAddress1");
}

/* ---- ID3D12Device5 ---- */

/* The device is removed as by a lost GPU: later calls return DXGI_ERROR_DEVICE_REMOVED
 * (GetDeviceRemovedReason too), fences read UINT64_MAX, events waiting on them are set and
 * held queue work is dropped. */
void STDMETHODCALLTYPE d3d12_device_RemoveDevice(ID3D12Device14 *iface)
{
    struct d3d12_device *device = impl_from_ID3D12Device14(iface);
    d3d12_device_mark_removed(device, DXGI_ERROR_DEVICE_REMOVED, "ID3D12Device5::RemoveDevice was called");
    d3d12_scheduler_drop_held(device, "the device is removed");
    d3d12_waiter_kick(device, false);
}

HRESULT STDMETHODCALLTYPE d3d12_device_EnumerateMetaCommands(ID3D12Device14 *iface, UINT *count, D3D12_META_COMMAND_DESC *descs)
{
    (void)iface;
    (void)descs;
    if (!count)
        return d3d12xs_fail(E_INVALIDARG, "ID3D12Device5::EnumerateMetaCommands", "pNumMetaCommands is NULL (must receive the count)");
    *count = 0; /* no meta commands: descs is not written */
    return S_OK;
}

D3D12_DRIVER_MATCHING_IDENTIFIER_STATUS STDMETHODCALLTYPE d3d12_device_CheckDriverMatchingIdentifier(ID3D12Device14 *iface,
        D3D12_SERIALIZED_DATA_TYPE type, const D3D12_SERIALIZED_DATA_DRIVER_MATCHING_IDENTIFIER *identifier)
{
    (void)iface, (void)type, (void)identifier;
    /* The only serialized data type is a raytracing acceleration structure; raytracing is not
     * implemented, so no data of it can be loaded here. */
    return D3D12_DRIVER_MATCHING_IDENTIFIER_UNSUPPORTED_TYPE;
}

/* ---- ID3D12Device8 ---- */

HRESULT STDMETHODCALLTYPE d3d12_device_CreateCommittedResource2(ID3D12Device14 *iface, const D3D12_HEAP_PROPERTIES *heap_properties,
        D3D12_HEAP_FLAGS heap_flags, const D3D12_RESOURCE_DESC1 *desc1, D3D12_RESOURCE_STATES initial_state,
        const D3D12_CLEAR_VALUE *clear_value, ID3D12ProtectedResourceSession *session, REFIID riid, void **resource)
{
    static const char method[] = "ID3D12Device8::CreateCommittedResource2";
    D3D12XS_RETURN_IF_REMOVED(impl_from_ID3D12Device14(iface), method, resource);
    D3D12_RESOURCE_DESC desc = {0}; /* set by desc_from_desc1; zeroed for the optimiser's flow analysis */
    HRESULT hr;
    if (resource)
        *resource = NULL;
    if (FAILED(hr = check_no_session(method, session)) || FAILED(hr = desc_from_desc1(method, "pDesc", desc1, &desc)))
        return hr;
    return d3d12_resource_create_committed(impl_from_ID3D12Device14(iface), heap_properties, heap_flags, &desc, initial_state,
            clear_value, riid, resource);
}

HRESULT STDMETHODCALLTYPE d3d12_device_CreatePlacedResource1(ID3D12Device14 *iface, ID3D12Heap *heap, UINT64 heap_offset,
        const D3D12_RESOURCE_DESC1 *desc1, D3D12_RESOURCE_STATES initial_state, const D3D12_CLEAR_VALUE *clear_value,
        REFIID riid, void **resource)
{
    D3D12XS_RETURN_IF_REMOVED(impl_from_ID3D12Device14(iface), "ID3D12Device8::CreatePlacedResource1", resource);
    D3D12_RESOURCE_DESC desc = {0}; /* set by desc_from_desc1; zeroed for the optimiser's flow analysis */
    HRESULT hr;
    if (resource)
        *resource = NULL;
    if (FAILED(hr = desc_from_desc1("ID3D12Device8::CreatePlacedResource1", "pDesc", desc1, &desc)))
        return hr;
    return d3d12_resource_create_placed(impl_from_ID3D12Device14(iface), heap, heap_offset, &desc, initial_state, clear_value,
            riid, resource);
}

/* ---- ID3D12Device9 ---- */

HRESULT STDMETHODCALLTYPE d3d12_device_CreateCommandQueue1(ID3D12Device14 *iface, const D3D12_COMMAND_QUEUE_DESC *desc,
        REFIID creator, REFIID riid, void **queue)
{
    if (queue)
        *queue = NULL;
    if (!creator)
        return d3d12xs_fail(E_INVALIDARG, "ID3D12Device9::CreateCommandQueue1", "CreatorID is NULL (must name the queue's creator)");
    /* The creator only groups queues for Windows' scheduling; here every queue is the same. */
    return iface->lpVtbl->CreateCommandQueue(iface, desc, riid, queue);
}

/* ---- ID3D12Device10 ---- */

HRESULT STDMETHODCALLTYPE d3d12_device_CreateCommittedResource3(ID3D12Device14 *iface, const D3D12_HEAP_PROPERTIES *heap_properties,
        D3D12_HEAP_FLAGS heap_flags, const D3D12_RESOURCE_DESC1 *desc1, D3D12_BARRIER_LAYOUT initial_layout,
        const D3D12_CLEAR_VALUE *clear_value, ID3D12ProtectedResourceSession *session, UINT32 castable_format_count,
        const DXGI_FORMAT *castable_formats, REFIID riid, void **resource)
{
    static const char method[] = "ID3D12Device10::CreateCommittedResource3";
    D3D12_RESOURCE_STATES state = D3D12_RESOURCE_STATE_COMMON;
    D3D12XS_RETURN_IF_REMOVED(impl_from_ID3D12Device14(iface), method, resource);
    D3D12_RESOURCE_DESC desc = {0}; /* set by desc_from_desc1; zeroed for the optimiser's flow analysis */
    HRESULT hr;
    if (resource)
        *resource = NULL;
    if (!heap_properties)
        return d3d12xs_fail(E_INVALIDARG, method, "pHeapProperties is NULL (must describe the heap)");
    if (FAILED(hr = check_no_session(method, session)) || FAILED(hr = desc_from_desc1(method, "pDesc", desc1, &desc))
            || FAILED(hr = state_from_layout(method, initial_layout, castable_format_count, castable_formats, heap_properties->Type, &state)))
        return hr;
    return d3d12_resource_create_committed(impl_from_ID3D12Device14(iface), heap_properties, heap_flags, &desc, state,
            clear_value, riid, resource);
}

HRESULT STDMETHODCALLTYPE d3d12_device_CreatePlacedResource2(ID3D12Device14 *iface, ID3D12Heap *heap_iface, UINT64 heap_offset,
        const D3D12_RESOURCE_DESC1 *desc1, D3D12_BARRIER_LAYOUT initial_layout, const D3D12_CLEAR_VALUE *clear_value,
        UINT32 castable_format_count, const DXGI_FORMAT *castable_formats, REFIID riid, void **resource)
{
    static const char method[] = "ID3D12Device10::CreatePlacedResource2";
    struct d3d12_heap *heap = unsafe_impl_from_ID3D12Heap(heap_iface);
    D3D12_RESOURCE_STATES state = D3D12_RESOURCE_STATE_COMMON;
    D3D12XS_RETURN_IF_REMOVED(impl_from_ID3D12Device14(iface), method, resource);
    D3D12_RESOURCE_DESC desc = {0}; /* set by desc_from_desc1; zeroed for the optimiser's flow analysis */
    HRESULT hr;
    if (resource)
        *resource = NULL;
    if (!heap)
        return d3d12xs_fail(E_INVALIDARG, method, "pHeap is %s (must be a heap from CreateHeap)", heap_iface ? "not a d3d12xs heap" : "NULL");
    if (FAILED(hr = desc_from_desc1(method, "pDesc", desc1, &desc))
            || FAILED(hr = state_from_layout(method, initial_layout, castable_format_count, castable_formats, heap->desc.Properties.Type, &state)))
        return hr;
    return d3d12_resource_create_placed(impl_from_ID3D12Device14(iface), heap_iface, heap_offset, &desc, state, clear_value, riid, resource);
}

HRESULT STDMETHODCALLTYPE d3d12_device_CreateReservedResource2(ID3D12Device14 *iface, const D3D12_RESOURCE_DESC *desc,
        D3D12_BARRIER_LAYOUT initial_layout, const D3D12_CLEAR_VALUE *clear_value, ID3D12ProtectedResourceSession *session,
        UINT32 castable_format_count, const DXGI_FORMAT *castable_formats, REFIID riid, void **resource)
{
    static const char method[] = "ID3D12Device10::CreateReservedResource2";
    D3D12_RESOURCE_STATES state;
    HRESULT hr;
    (void)iface;
    if (resource)
        *resource = NULL;
    if (FAILED(hr = check_no_session(method, session))
            || FAILED(hr = state_from_layout(method, initial_layout, castable_format_count, castable_formats, D3D12_HEAP_TYPE_DEFAULT, &state)))
        return hr;
    return d3d12_resource_create_reserved(method, desc, clear_value, riid, resource);
}

/* ---- ID3D12Device11 ---- */

void STDMETHODCALLTYPE d3d12_device_CreateSampler2(ID3D12Device14 *iface, const D3D12_SAMPLER_DESC2 *desc, D3D12_CPU_DESCRIPTOR_HANDLE handle)
{
    if (!desc) {
        ERR("ID3D12Device11::CreateSampler2: pDesc is NULL (must describe the sampler); no descriptor written");
        return;
    }
    /* Flags (UINT_BORDER_COLOR, NON_NORMALIZED_COORDINATES) and their rules: sampler.c. */
    d3d12_device_create_sampler2(impl_from_ID3D12Device14(iface), desc, handle);
}
