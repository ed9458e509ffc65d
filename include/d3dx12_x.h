/* <d3dx12_x.h>: the previous console generation's name for the D3D12 helpers; the same as
 * <d3dx12_xs.h> (Microsoft's d3dx12.h over the console API). */
#ifndef D3D12XS_D3DX12_X_H
#define D3D12XS_D3DX12_X_H

#include "d3d12_x.h"
#include "d3dx12_xs.h"

#endif
