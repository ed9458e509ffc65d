/* Command-list internals shared by the command_list*.c files. */
#ifndef D3D12XS_COMMAND_LIST_H
#define D3D12XS_COMMAND_LIST_H

#include "private.h"

struct d3d12_command_list *impl_from_ID3D12GraphicsCommandList2(ID3D12GraphicsCommandList2 *iface);
void d3d12_command_list_emit_global_barrier(struct d3d12_command_list *list, VkPipelineStageFlags2 src_stages,
        VkPipelineStageFlags2 dst_stages, VkAccessFlags2 dst_access);

/* command_list_copy.c */
void STDMETHODCALLTYPE d3d12_command_list_CopyBufferRegion(ID3D12GraphicsCommandList2 *iface, ID3D12Resource *dst, UINT64 dst_offset,
        ID3D12Resource *src, UINT64 src_offset, UINT64 byte_count);
void STDMETHODCALLTYPE d3d12_command_list_CopyResource(ID3D12GraphicsCommandList2 *iface, ID3D12Resource *dst, ID3D12Resource *src);
void STDMETHODCALLTYPE d3d12_command_list_ResourceBarrier(ID3D12GraphicsCommandList2 *iface, UINT count, const D3D12_RESOURCE_BARRIER *barriers);
void STDMETHODCALLTYPE d3d12_command_list_WriteBufferImmediate(ID3D12GraphicsCommandList2 *iface, UINT count,
        const D3D12_WRITEBUFFERIMMEDIATE_PARAMETER *parameters, const D3D12_WRITEBUFFERIMMEDIATE_MODE *modes);

/* command_list_query.c */
void STDMETHODCALLTYPE d3d12_command_list_BeginQuery(ID3D12GraphicsCommandList2 *iface, ID3D12QueryHeap *heap, D3D12_QUERY_TYPE type, UINT index);
void STDMETHODCALLTYPE d3d12_command_list_EndQuery(ID3D12GraphicsCommandList2 *iface, ID3D12QueryHeap *heap, D3D12_QUERY_TYPE type, UINT index);
void STDMETHODCALLTYPE d3d12_command_list_ResolveQueryData(ID3D12GraphicsCommandList2 *iface, ID3D12QueryHeap *heap, D3D12_QUERY_TYPE type,
        UINT start_index, UINT count, ID3D12Resource *dst, UINT64 dst_offset);

#endif
