/* GPU-side memory waits: a console Wait32/64BitValueX that the GPU itself waits out, with
 * one shader thread reading the value, instead of the host holding the rest of the list
 * until it sees the value (docs/sync.md, "Two ways to wait on memory").
 *
 * The command buffer is recorded here, next to the list's segments; whether it runs is the
 * scheduler's choice at submission (wait_resolver.c, gpu_waitable_locked): only when a write
 * that satisfies the wait was already handed to Vulkan on a queue of another family, so
 * that the spin cannot hold up its own writer. */
#ifndef D3D12XS_GPU_WAIT_H
#define D3D12XS_GPU_WAIT_H

#include "device/device.h"

/* Reads D3D12XS_GPU_WAITS (auto, off, force) and makes the spin pipeline where it can be
 * used; never fails device creation (GPU waits are then off). */
void d3d12_gpu_waits_create(struct d3d12_device *device);
void d3d12_gpu_waits_destroy(struct d3d12_device *device);

/* Whether lists of this type may carry GPU-side waits on this device. */
bool d3d12_gpu_waits_possible(const struct d3d12_device *device, D3D12_COMMAND_LIST_TYPE type, bool transfer_only);

/* Records the spin: it ends when the size-byte value at buffer+offset compares true with
 * value, or after a bound longer than the hang timeout. */
void d3d12_gpu_wait_record(struct d3d12_device *device, VkCommandBuffer command_buffer, VkBuffer buffer, uint64_t offset, uint32_t size,
        D3D12_COMPARISON_FUNC comparison, uint64_t value);

/* The value write a spin on another queue can rely on seeing: one shader thread stores it
 * through the GPU's L2. On the H200 a copy-engine write (vkCmdUpdateBuffer) to host memory
 * was never seen by a spin that had read the old value (docs/sync.md). Binds its own
 * pipeline and descriptors: the caller binds the list's state again after it. */
void d3d12_gpu_value_write_record(struct d3d12_device *device, VkCommandBuffer command_buffer, VkBuffer buffer, uint64_t offset,
        uint32_t size, uint64_t value);

#endif
