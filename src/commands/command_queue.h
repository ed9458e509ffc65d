/* ID3D12CommandQueue (command_queue.c): the COM face of a scheduler engine. */
#ifndef D3D12XS_COMMAND_QUEUE_H
#define D3D12XS_COMMAND_QUEUE_H

#include "device/device.h"
#include "sync/scheduler.h"

struct d3d12_command_queue {
    ID3D12CommandQueue ID3D12CommandQueue_iface;
    struct d3d12xs_object object;
    D3D12_COMMAND_QUEUE_DESC desc;
    struct d3d12_engine *engine;
    /* Its open PIX events (BeginEvent), for their spans in the trace file. */
    pthread_mutex_t pix_lock;
    unsigned pix_depth;
    struct d3d12_queue_pix_event {
        uint64_t begin_ns;
        char name[64];
    } pix_events[16];
};

struct d3d12_command_queue *unsafe_impl_from_ID3D12CommandQueue(ID3D12CommandQueue *iface);
/* vk_queue_index as d3d12_engine_create's: CreateCommandQueueX maps (pipe, queue) onto one. */
HRESULT d3d12_command_queue_create(struct d3d12_device *device, const D3D12_COMMAND_QUEUE_DESC *desc, int vk_queue_index, const char *method,
        REFIID riid, void **queue);

#endif
