/* Command allocators. */
#ifndef D3D12XS_COMMAND_ALLOCATOR_H
#define D3D12XS_COMMAND_ALLOCATOR_H

#include "device/device.h"
#include "sync/scheduler.h"
#include "commands/argument_ring.h"
#include "commands/transient_memory.h"

struct d3d12_bundle;

struct d3d12_command_allocator {
    ID3D12CommandAllocator ID3D12CommandAllocator_iface;
    struct d3d12xs_object object;
    D3D12_COMMAND_LIST_TYPE type;
    VkCommandPool vk_pool;
    VkCommandBuffer *command_buffers;
    size_t command_buffer_count, command_buffer_capacity, next_free;
    /* Segments that need a compute-capable queue (the scheduler's internal engine) when the
     * list's own family is transfer-only: a second pool, made on first use. */
    VkCommandPool helper_pool;
    VkCommandBuffer *helper_buffers;
    size_t helper_count, helper_capacity, helper_next_free;
    /* Timestamp queries for value writes with GPU_TIMESTAMP, handed out like command buffers. */
    VkQueryPool *timestamp_pools;
    size_t timestamp_pool_count, timestamp_pool_capacity;
    uint32_t next_timestamp;
    /* Queries of split queries' pieces (commands/command_list_query_views.c), by kind (enum
     * d3d12_piece_kind), handed out like timestamps; a piece's slots lie in one pool. */
    struct d3d12_query_slots {
        VkQueryPool *pools;
        size_t pool_count, pool_capacity;
        uint32_t next;
    } query_slots[3];
    /* Small device-local slices for DispatchX's ordered-append state, one per dispatch. */
    struct d3d12_scratch_block *scratch_blocks;
    size_t scratch_block_count, scratch_block_capacity;
    uint32_t next_scratch_slice;
    /* Root arguments of dispatches using the memory-based ABI, written while lists record. */
    struct d3d12_argument_ring arguments;
    /* Intermediate data of internal passes (resolves, predicated copies, ExecuteIndirect's
     * translated commands) and generated commands' preprocess memory, device-local. */
    struct d3d12_transient_memory transient;
    struct d3d12_command_list *recording_list; /* the list recording into it, if any */
    struct d3d12_bundle *recording_bundle;     /* or the bundle (a BUNDLE allocator has no Vulkan pool) */
    /* last submission using it, to refuse a Reset while the GPU still runs it */
    struct d3d12_engine *last_engine; /* holds an engine reference, not the queue's */
    uint64_t last_serial;
    uint64_t reset_generation; /* counts Resets: lists recorded before one have lost their commands */
};

struct d3d12_command_allocator *unsafe_impl_from_ID3D12CommandAllocator(ID3D12CommandAllocator *iface);
/* The references lists and bundles hold on their allocator: D3D12 keeps them out of the
 * allocator's public count. */
void d3d12_command_allocator_add_private_ref(struct d3d12_command_allocator *allocator);
void d3d12_command_allocator_release_private_ref(struct d3d12_command_allocator *allocator);
HRESULT d3d12_command_allocator_create(struct d3d12_device *device, D3D12_COMMAND_LIST_TYPE type, REFIID riid, void **allocator);
/* A command buffer for the next segment of a list; helper: one for the internal engine. */
HRESULT d3d12_command_allocator_get_command_buffer(struct d3d12_command_allocator *allocator, bool helper, VkCommandBuffer *command_buffer);
/* A timestamp query for the recording list (reset by the list before it writes it). */
HRESULT d3d12_command_allocator_get_timestamp(struct d3d12_command_allocator *allocator, VkQueryPool *pool, uint32_t *index);
/* The kinds of Vulkan query a split query's pieces count in. */
enum d3d12_piece_kind {
    D3D12_PIECE_OCCLUSION,
    D3D12_PIECE_PIPELINE_STATISTICS, /* all eleven statistics, as a heap's pool */
    D3D12_PIECE_STREAM,              /* transform feedback stream queries */
};
/* count consecutive queries of one pool of that kind for the recording list (reset by the list
 * before it begins them), valid until the allocator's Reset or Release; count is at most
 * D3D12_MAX_VIEW_INSTANCE_COUNT. */
HRESULT d3d12_command_allocator_get_query_slots(struct d3d12_command_allocator *allocator, enum d3d12_piece_kind kind, uint32_t count,
        VkQueryPool *pool, uint32_t *first);
struct d3d12_scratch_block {
    VkBuffer buffer;
    struct d3d12xs_allocation memory;
};
#define D3D12XS_SCRATCH_SLICE_SIZE 256u
/* A D3D12XS_SCRATCH_SLICE_SIZE-byte slice of device-local storage (STORAGE and TRANSFER_DST)
 * for the recording list, valid until the allocator's Reset or Release. */
HRESULT d3d12_command_allocator_get_scratch(struct d3d12_command_allocator *allocator, VkBuffer *buffer, VkDeviceSize *offset);
void d3d12_command_allocator_note_submission(struct d3d12_command_allocator *allocator, struct d3d12_engine *engine, uint64_t serial);

#endif
