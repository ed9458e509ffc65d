/* Graphics memory from the CPU (graphics_memory.c): the devices that import it. */
#ifndef D3D12XS_GRAPHICS_MEMORY_H
#define D3D12XS_GRAPHICS_MEMORY_H

#include "device/device.h"

/* At the end of D3D12CreateDevice (its scheduler exists): imports every block not yet freed,
 * so that each has its CPU pointer as GPU address here too. On failure (logged) the device
 * holds no import and is not registered. */
HRESULT d3d12xs_graphics_memory_add_device(struct d3d12_device *device);
/* First thing at device destruction, while its scheduler still takes retirements: the device
 * stops receiving blocks and retires its imports, which the scheduler's destruction then
 * destroys. The blocks stay mapped, with their contents, for the process and other devices. */
void d3d12xs_graphics_memory_remove_device(struct d3d12_device *device);

#endif
