/* Query heaps. */
#ifndef D3D12XS_QUERY_HEAP_H
#define D3D12XS_QUERY_HEAP_H

#include "device/device.h"
#include "memory/allocator.h"

/* Timestamp heaps are resolved straight from their VkQueryPool. The other types keep each
 * query's D3D12 result in a buffer (results): EndQuery copies the Vulkan query's result
 * there, in D3D12's layout, and ResolveQueryData copies from it. That one place is what lets
 * two pools feed one query (pipeline statistics on families with and without graphics) and
 * types no Vulkan query counts on the device write their exact zeros. */
struct d3d12_query_heap {
    ID3D12QueryHeap ID3D12QueryHeap_iface;
    struct d3d12xs_object object;
    D3D12_QUERY_HEAP_DESC desc;
    /* TIMESTAMP, COPY_QUEUE_TIMESTAMP: the timestamps. OCCLUSION: an occlusion pool.
     * PIPELINE_STATISTICS(1): the 11 statistics of D3D12_QUERY_DATA_PIPELINE_STATISTICS, for
     * lists on graphics families. SO_STATISTICS: a transform feedback stream pool (the
     * stream is the query type's). VK_NULL_HANDLE where nothing can count (no transform
     * feedback queries, no pipelineStatisticsQuery). */
    VkQueryPool vk_pool;
    VkQueryPool compute_pool; /* PIPELINE_STATISTICS(1): compute invocations only, for compute-only families */
    VkCommandPool init_pool; /* the command buffer that makes every query available once */
    uint32_t result_size;    /* bytes of one query's result in D3D12's layout */
    VkBuffer results;        /* not timestamps: Count results of result_size bytes, zeroed at creation */
    struct d3d12xs_allocation results_memory;
};

/* The bytes one query of the heap type resolves to (D3D12_QUERY_DATA_*); 0 for types d3d12xs
 * does not create. */
uint32_t d3d12_query_result_size(D3D12_QUERY_HEAP_TYPE type);

struct d3d12_query_heap *unsafe_impl_from_ID3D12QueryHeap(ID3D12QueryHeap *iface);
HRESULT d3d12_query_heap_create(struct d3d12_device *device, const D3D12_QUERY_HEAP_DESC *desc, REFIID riid, void **heap);

/* D3D12_QUERY_TYPE's name, for messages. */
static inline const char *d3d12_query_type_name(D3D12_QUERY_TYPE type)
{
    static const char *const names[] = {"OCCLUSION", "BINARY_OCCLUSION", "TIMESTAMP", "PIPELINE_STATISTICS", "SO_STATISTICS_STREAM0",
            "SO_STATISTICS_STREAM1", "SO_STATISTICS_STREAM2", "SO_STATISTICS_STREAM3", "VIDEO_DECODE_STATISTICS", "9", "PIPELINE_STATISTICS1"};
    return (unsigned)type < sizeof(names) / sizeof(names[0]) ? names[type] : "unknown";
}

#endif
