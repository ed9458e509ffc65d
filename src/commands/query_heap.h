/* Query heaps. */
#ifndef D3D12XS_QUERY_HEAP_H
#define D3D12XS_QUERY_HEAP_H

#include "device/device.h"

struct d3d12_query_heap {
    ID3D12QueryHeap ID3D12QueryHeap_iface;
    struct d3d12xs_object object;
    D3D12_QUERY_HEAP_DESC desc;
    VkQueryPool vk_pool;
    VkCommandPool init_pool; /* the command buffer that makes every query available once */
};

struct d3d12_query_heap *unsafe_impl_from_ID3D12QueryHeap(ID3D12QueryHeap *iface);
HRESULT d3d12_query_heap_create(struct d3d12_device *device, const D3D12_QUERY_HEAP_DESC *desc, REFIID riid, void **heap);

#endif
