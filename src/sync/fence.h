/* ID3D12Fence (fence.c): a COM object around the scheduler's timeline. */
#ifndef D3D12XS_FENCE_H
#define D3D12XS_FENCE_H

#include "device/device.h"
#include "sync/scheduler.h"

struct d3d12_fence {
    ID3D12Fence ID3D12Fence_iface;
    struct d3d12xs_object object;
    D3D12_FENCE_FLAGS flags;
    struct d3d12_timeline *timeline; /* outlives the fence while queued work or events use it */
};

struct d3d12_fence *unsafe_impl_from_ID3D12Fence(ID3D12Fence *iface);
HRESULT d3d12_fence_create(struct d3d12_device *device, UINT64 initial_value, D3D12_FENCE_FLAGS flags, REFIID riid, void **fence);
/* The span of an API call on a fence in the trace file (docs/trace.md), from begin_ns
 * (d3d12xs_trace_begin: 0 when no capture runs, and then nothing is written). */
void d3d12_fence_trace_call(uint64_t begin_ns, const char *name, struct d3d12_fence *fence, uint64_t value);

#endif
