/* <d3dx12_xs.h>: the console's name for the D3D12 helpers. It reaches Microsoft's d3dx12.h
 * (the CD3DX12_* helpers, MIT licensed) from Debian's directx-headers-dev, on top of
 * <d3d12_xs.h>: d3dx12.h's own `#include "d3d12.h"` then adds nothing (the include guards
 * are Microsoft's), and the small <rpc.h>, <rpcndr.h> and <wrl/client.h> of d3d12xs stand in
 * for the Windows SDK headers it names. C++ only, as d3dx12.h is. */
#ifndef D3D12XS_D3DX12_XS_H
#define D3D12XS_D3DX12_XS_H

#include "d3d12_xs.h"

#ifndef COM_NO_WINDOWS_H
#define COM_NO_WINDOWS_H
#endif
#if defined(__has_include)
# if !__has_include(<directx/d3dx12.h>)
#  error "<d3dx12_xs.h> needs Microsoft's d3dx12.h: install directx-headers-dev (scripts/install-deps.sh)"
# endif
#endif
#include <directx/d3dx12.h>

#endif
