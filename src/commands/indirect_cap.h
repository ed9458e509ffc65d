/* ExecuteIndirect's dispatches with a count buffer (command_list_indirect.c): the internal
 * pipeline that caps the commands on the GPU (shaders/indirect_cap.comp). */
#ifndef D3D12XS_INDIRECT_CAP_H
#define D3D12XS_INDIRECT_CAP_H

#include "device/device.h"

/* Makes the pipeline; never fails device creation (such dispatches then fail Close with E_NOTIMPL). */
void d3d12_indirect_cap_create(struct d3d12_device *device);
void d3d12_indirect_cap_destroy(struct d3d12_device *device);

#endif
