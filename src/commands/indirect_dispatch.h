/* ExecuteIndirect's dispatches with a count buffer (command_list_indirect.c): the internal
 * pipeline that caps the commands on the GPU (shaders/indirect_dispatch_count.comp). */
#ifndef D3D12XS_INDIRECT_DISPATCH_H
#define D3D12XS_INDIRECT_DISPATCH_H

#include "device/device.h"

/* Makes the pipeline; never fails device creation (such dispatches then fail Close with E_NOTIMPL). */
void d3d12_indirect_dispatch_create(struct d3d12_device *device);
void d3d12_indirect_dispatch_destroy(struct d3d12_device *device);

#endif
