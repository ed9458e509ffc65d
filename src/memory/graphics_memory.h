/* Graphics memory from the CPU (graphics_memory.c): which devices can receive it. */
#ifndef D3D12XS_GRAPHICS_MEMORY_H
#define D3D12XS_GRAPHICS_MEMORY_H

#include "device/device.h"

/* A device made by D3D12CreateDevice; the first one alive serves allocations naming none. */
void d3d12xs_graphics_memory_add_device(struct d3d12_device *device);
/* At device destruction, once its queues are idle: frees what the application did not. */
void d3d12xs_graphics_memory_remove_device(struct d3d12_device *device);

#endif
