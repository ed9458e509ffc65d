/* ID3D12Device1 ... ID3D12Device14: the methods the later versions add (device_versions.c,
 * device_fence_wait.c), and the argument checks and queries they share with ID3D12Device's own
 * methods in device.c. The device's vtable (device.c) is an ID3D12Device14Vtbl: every slot of
 * every version, the console table after them all. */
#ifndef D3D12XS_DEVICE_VERSIONS_H
#define D3D12XS_DEVICE_VERSIONS_H

#include "device/device.h"

static inline struct d3d12_device *impl_from_ID3D12Device14(ID3D12Device14 *iface)
{
    return D3D12XS_CONTAINING(iface, struct d3d12_device, ID3D12Device14_iface);
}

/* Creating an object on a removed device fails as on Windows (DXGI_ERROR_DEVICE_REMOVED, the out
 * pointer NULL, one line): the first step of every Create*. */
#define D3D12XS_RETURN_IF_REMOVED(device, method, out) do { \
        HRESULT removed_hr_ = d3d12_device_check_creation((device), (method), (void **)(out)); \
        if (FAILED(removed_hr_)) \
            return removed_hr_; \
    } while (0)

/* Argument checks shared by the Create* methods of every version: one log line when they fail. */
HRESULT d3d12_device_check_node_mask(const char *method, const char *argument, UINT mask);
/* Allocators and lists: DIRECT, BUNDLE, COMPUTE or COPY. */
HRESULT d3d12_device_check_list_type(const char *method, const char *argument, D3D12_COMMAND_LIST_TYPE type);
/* Queues: DIRECT, COMPUTE or COPY. */
HRESULT d3d12_device_check_queue_type(const char *method, const char *argument, D3D12_COMMAND_LIST_TYPE type);

/* ID3D12Device methods whose later versions take more (or wider) arguments. */
D3D12_RESOURCE_ALLOCATION_INFO STDMETHODCALLTYPE d3d12_device_GetResourceAllocationInfo(ID3D12Device14 *iface,
        UINT visible_mask, UINT count, const D3D12_RESOURCE_DESC *descs);
void STDMETHODCALLTYPE d3d12_device_GetCopyableFootprints(ID3D12Device14 *iface, const D3D12_RESOURCE_DESC *desc,
        UINT first_subresource, UINT subresource_count, UINT64 base_offset, D3D12_PLACED_SUBRESOURCE_FOOTPRINT *layouts,
        UINT *row_counts, UINT64 *row_sizes, UINT64 *total_bytes);

/* ID3D12Device1 */
HRESULT STDMETHODCALLTYPE d3d12_device_CreatePipelineLibrary(ID3D12Device14 *iface, const void *blob, SIZE_T size, REFIID riid,
        void **library);
HRESULT STDMETHODCALLTYPE d3d12_device_SetEventOnMultipleFenceCompletion(ID3D12Device14 *iface, ID3D12Fence *const *fences,
        const UINT64 *values, UINT count, D3D12_MULTIPLE_FENCE_WAIT_FLAGS flags, HANDLE event);
HRESULT STDMETHODCALLTYPE d3d12_device_SetResidencyPriority(ID3D12Device14 *iface, UINT count, ID3D12Pageable *const *objects,
        const D3D12_RESIDENCY_PRIORITY *priorities);
/* ID3D12Device2 */
HRESULT STDMETHODCALLTYPE d3d12_device_CreatePipelineState(ID3D12Device14 *iface, const D3D12_PIPELINE_STATE_STREAM_DESC *desc, REFIID riid,
        void **pipeline_state);
/* ID3D12Device3 */
HRESULT STDMETHODCALLTYPE d3d12_device_EnqueueMakeResident(ID3D12Device14 *iface, D3D12_RESIDENCY_FLAGS flags, UINT count,
        ID3D12Pageable *const *objects, ID3D12Fence *fence, UINT64 value);
HRESULT STDMETHODCALLTYPE d3d12_device_OpenExistingHeapFromAddress(ID3D12Device14 *iface, const void *address, REFIID riid, void **heap);
/* ID3D12Device4 */
HRESULT STDMETHODCALLTYPE d3d12_device_CreateCommandList1(ID3D12Device14 *iface, UINT node_mask, D3D12_COMMAND_LIST_TYPE type,
        D3D12_COMMAND_LIST_FLAGS flags, REFIID riid, void **list);
HRESULT STDMETHODCALLTYPE d3d12_device_CreateCommittedResource1(ID3D12Device14 *iface, const D3D12_HEAP_PROPERTIES *heap_properties,
        D3D12_HEAP_FLAGS heap_flags, const D3D12_RESOURCE_DESC *desc, D3D12_RESOURCE_STATES initial_state,
        const D3D12_CLEAR_VALUE *clear_value, ID3D12ProtectedResourceSession *session, REFIID riid, void **resource);
HRESULT STDMETHODCALLTYPE d3d12_device_CreateReservedResource1(ID3D12Device14 *iface, const D3D12_RESOURCE_DESC *desc,
        D3D12_RESOURCE_STATES initial_state, const D3D12_CLEAR_VALUE *clear_value, ID3D12ProtectedResourceSession *session,
        REFIID riid, void **resource);
HRESULT STDMETHODCALLTYPE d3d12_device_CreateHeap1(ID3D12Device14 *iface, const D3D12_HEAP_DESC *desc,
        ID3D12ProtectedResourceSession *session, REFIID riid, void **heap);
D3D12_RESOURCE_ALLOCATION_INFO STDMETHODCALLTYPE d3d12_device_GetResourceAllocationInfo1(ID3D12Device14 *iface, UINT visible_mask,
        UINT count, const D3D12_RESOURCE_DESC *descs, D3D12_RESOURCE_ALLOCATION_INFO1 *infos);
/* ID3D12Device5 */
void STDMETHODCALLTYPE d3d12_device_RemoveDevice(ID3D12Device14 *iface);
HRESULT STDMETHODCALLTYPE d3d12_device_EnumerateMetaCommands(ID3D12Device14 *iface, UINT *count, D3D12_META_COMMAND_DESC *descs);
D3D12_DRIVER_MATCHING_IDENTIFIER_STATUS STDMETHODCALLTYPE d3d12_device_CheckDriverMatchingIdentifier(ID3D12Device14 *iface,
        D3D12_SERIALIZED_DATA_TYPE type, const D3D12_SERIALIZED_DATA_DRIVER_MATCHING_IDENTIFIER *identifier);
/* ID3D12Device8 */
D3D12_RESOURCE_ALLOCATION_INFO STDMETHODCALLTYPE d3d12_device_GetResourceAllocationInfo2(ID3D12Device14 *iface, UINT visible_mask,
        UINT count, const D3D12_RESOURCE_DESC1 *descs, D3D12_RESOURCE_ALLOCATION_INFO1 *infos);
HRESULT STDMETHODCALLTYPE d3d12_device_CreateCommittedResource2(ID3D12Device14 *iface, const D3D12_HEAP_PROPERTIES *heap_properties,
        D3D12_HEAP_FLAGS heap_flags, const D3D12_RESOURCE_DESC1 *desc, D3D12_RESOURCE_STATES initial_state,
        const D3D12_CLEAR_VALUE *clear_value, ID3D12ProtectedResourceSession *session, REFIID riid, void **resource);
HRESULT STDMETHODCALLTYPE d3d12_device_CreatePlacedResource1(ID3D12Device14 *iface, ID3D12Heap *heap, UINT64 heap_offset,
        const D3D12_RESOURCE_DESC1 *desc, D3D12_RESOURCE_STATES initial_state, const D3D12_CLEAR_VALUE *clear_value,
        REFIID riid, void **resource);
void STDMETHODCALLTYPE d3d12_device_GetCopyableFootprints1(ID3D12Device14 *iface, const D3D12_RESOURCE_DESC1 *desc,
        UINT first_subresource, UINT subresource_count, UINT64 base_offset, D3D12_PLACED_SUBRESOURCE_FOOTPRINT *layouts,
        UINT *row_counts, UINT64 *row_sizes, UINT64 *total_bytes);
/* ID3D12Device9 */
HRESULT STDMETHODCALLTYPE d3d12_device_CreateCommandQueue1(ID3D12Device14 *iface, const D3D12_COMMAND_QUEUE_DESC *desc,
        REFIID creator, REFIID riid, void **queue);
/* ID3D12Device10 */
HRESULT STDMETHODCALLTYPE d3d12_device_CreateCommittedResource3(ID3D12Device14 *iface, const D3D12_HEAP_PROPERTIES *heap_properties,
        D3D12_HEAP_FLAGS heap_flags, const D3D12_RESOURCE_DESC1 *desc, D3D12_BARRIER_LAYOUT initial_layout,
        const D3D12_CLEAR_VALUE *clear_value, ID3D12ProtectedResourceSession *session, UINT32 castable_format_count,
        const DXGI_FORMAT *castable_formats, REFIID riid, void **resource);
HRESULT STDMETHODCALLTYPE d3d12_device_CreatePlacedResource2(ID3D12Device14 *iface, ID3D12Heap *heap, UINT64 heap_offset,
        const D3D12_RESOURCE_DESC1 *desc, D3D12_BARRIER_LAYOUT initial_layout, const D3D12_CLEAR_VALUE *clear_value,
        UINT32 castable_format_count, const DXGI_FORMAT *castable_formats, REFIID riid, void **resource);
HRESULT STDMETHODCALLTYPE d3d12_device_CreateReservedResource2(ID3D12Device14 *iface, const D3D12_RESOURCE_DESC *desc,
        D3D12_BARRIER_LAYOUT initial_layout, const D3D12_CLEAR_VALUE *clear_value, ID3D12ProtectedResourceSession *session,
        UINT32 castable_format_count, const DXGI_FORMAT *castable_formats, REFIID riid, void **resource);
/* ID3D12Device11 */
void STDMETHODCALLTYPE d3d12_device_CreateSampler2(ID3D12Device14 *iface, const D3D12_SAMPLER_DESC2 *desc, D3D12_CPU_DESCRIPTOR_HANDLE handle);
/* ID3D12Device12 */
D3D12_RESOURCE_ALLOCATION_INFO STDMETHODCALLTYPE d3d12_device_GetResourceAllocationInfo3(ID3D12Device14 *iface, UINT visible_mask,
        UINT count, const D3D12_RESOURCE_DESC1 *descs, const UINT32 *castable_format_counts, const DXGI_FORMAT *const *castable_formats,
        D3D12_RESOURCE_ALLOCATION_INFO1 *infos);

/* ID3D12Device13 */
HRESULT STDMETHODCALLTYPE d3d12_device_OpenExistingHeapFromAddress1(ID3D12Device14 *iface, const void *address, SIZE_T size,
        REFIID riid, void **heap);

/* The implemented slots of ID3D12Device1-14 (the others keep their generated stubs). */
#define D3D12XS_DEVICE_VERSION_VTBL_ENTRIES \
    .SetEventOnMultipleFenceCompletion = d3d12_device_SetEventOnMultipleFenceCompletion, \
    .SetResidencyPriority = d3d12_device_SetResidencyPriority, \
    .CreatePipelineLibrary = d3d12_device_CreatePipelineLibrary, \
    .CreatePipelineState = d3d12_device_CreatePipelineState, \
    .EnqueueMakeResident = d3d12_device_EnqueueMakeResident, \
    .OpenExistingHeapFromAddress = d3d12_device_OpenExistingHeapFromAddress, \
    .OpenExistingHeapFromAddress1 = d3d12_device_OpenExistingHeapFromAddress1, \
    .CreateCommandList1 = d3d12_device_CreateCommandList1, \
    .CreateCommittedResource1 = d3d12_device_CreateCommittedResource1, \
    .CreateHeap1 = d3d12_device_CreateHeap1, \
    .CreateReservedResource1 = d3d12_device_CreateReservedResource1, \
    .GetResourceAllocationInfo1 = d3d12_device_GetResourceAllocationInfo1, \
    .RemoveDevice = d3d12_device_RemoveDevice, \
    .EnumerateMetaCommands = d3d12_device_EnumerateMetaCommands, \
    .CheckDriverMatchingIdentifier = d3d12_device_CheckDriverMatchingIdentifier, \
    .GetResourceAllocationInfo2 = d3d12_device_GetResourceAllocationInfo2, \
    .CreateCommittedResource2 = d3d12_device_CreateCommittedResource2, \
    .CreatePlacedResource1 = d3d12_device_CreatePlacedResource1, \
    .GetCopyableFootprints1 = d3d12_device_GetCopyableFootprints1, \
    .CreateCommandQueue1 = d3d12_device_CreateCommandQueue1, \
    .CreateCommittedResource3 = d3d12_device_CreateCommittedResource3, \
    .CreatePlacedResource2 = d3d12_device_CreatePlacedResource2, \
    .CreateReservedResource2 = d3d12_device_CreateReservedResource2, \
    .CreateSampler2 = d3d12_device_CreateSampler2, \
    .GetResourceAllocationInfo3 = d3d12_device_GetResourceAllocationInfo3

#endif
