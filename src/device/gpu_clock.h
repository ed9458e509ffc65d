/* The GPU's timestamp clock against CLOCK_MONOTONIC (VK_EXT_calibrated_timestamps): the one
 * calibration that SYSTEM_TIMESTAMP writes (commands/system_timestamp.c) and the trace's queue
 * timelines (sync/queue_trace.c) convert ticks with. */
#ifndef D3D12XS_GPU_CLOCK_H
#define D3D12XS_GPU_CLOCK_H

#include "device/device.h"

/* After vkCreateDevice; never fails device creation (the clock is then unavailable). */
void d3d12xs_gpu_clock_create(struct d3d12_device *device);
void d3d12xs_gpu_clock_destroy(struct d3d12_device *device);
/* Whether the device can calibrate its clock against CLOCK_MONOTONIC. */
bool d3d12xs_gpu_clock_available(const struct d3d12_device *device);
/* A GPU/host clock pair no older than 100 ms (the clocks drift apart slowly). */
void d3d12xs_gpu_clock_calibration(struct d3d12_device *device, uint64_t *gpu_reference, uint64_t *host_reference);
/* CLOCK_MONOTONIC nanoseconds of a GPU timestamp of this device. */
uint64_t d3d12xs_gpu_clock_host_ns(struct d3d12_device *device, uint64_t ticks);

#endif
