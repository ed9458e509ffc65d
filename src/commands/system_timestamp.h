/* SYSTEM_TIMESTAMP value writes (SPEC §2.3, §2.6): a 64-bit timestamp in the host clock's
 * domain (QueryPerformanceCounter: CLOCK_MONOTONIC nanoseconds), written at the bottom of
 * the pipe. A timestamp query gives the GPU clock; one shader thread converts it with a
 * calibration pair (VK_EXT_calibrated_timestamps) and stores the result in one write. */
#ifndef D3D12XS_SYSTEM_TIMESTAMP_H
#define D3D12XS_SYSTEM_TIMESTAMP_H

#include "device/device.h"

/* Makes the conversion pipeline where the device can run it; never fails device creation. */
void d3d12_system_timestamps_create(struct d3d12_device *device);
void d3d12_system_timestamps_destroy(struct d3d12_device *device);
/* NULL when SYSTEM_TIMESTAMP writes work on this device, else why not (for the log line). */
const char *d3d12_system_timestamps_unavailable(const struct d3d12_device *device);

/* Records the conversion of the GPU ticks at ticks_buffer+ticks_offset (written earlier in
 * the command buffer, made visible to compute reads) into destination+offset. Binds its own
 * pipeline and descriptors: the caller binds the list's compute state again after it. */
void d3d12_system_timestamp_record(struct d3d12_device *device, VkCommandBuffer command_buffer, VkBuffer ticks_buffer, uint64_t ticks_offset,
        VkBuffer destination, uint64_t offset);

#endif
