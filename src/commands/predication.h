/* SetPredication's fold (command_list_predication.c): the internal pipeline that turns D3D12's
 * 64-bit predicate into the 32-bit condition Vulkan's conditional rendering reads. */
#ifndef D3D12XS_PREDICATION_H
#define D3D12XS_PREDICATION_H

#include "device/device.h"

/* Makes the fold's pipeline where the device has VK_EXT_conditional_rendering; never fails
 * device creation (SetPredication then fails Close with E_NOTIMPL). */
void d3d12_predicate_fold_create(struct d3d12_device *device);
void d3d12_predicate_fold_destroy(struct d3d12_device *device);

#endif
