/* <d3d12_x.h>: the previous console generation's name for the console D3D12 header. Code
 * written for it includes this instead of <d3d12.h>; d3d12xs gives it the same API as
 * <d3d12_xs.h> (the Xbox Series one), which includes <d3d12.h>, the console additions
 * (DispatchX, WaitX, the bottom-of-pipe writes, the console root signature flags, ...)
 * and d3d12xs's own calls (<d3d12xs.h>). */
#ifndef D3D12XS_D3D12_X_H
#define D3D12XS_D3D12_X_H

#include "d3d12_xs.h"

#endif
