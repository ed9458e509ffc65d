/* <rpc.h> for d3d12xs: Microsoft's MIDL-generated headers (d3d12.h, reached from d3dx12.h)
 * include it before their include guard; d3d12xs_windows.h holds what they need. */
#ifndef D3D12XS_RPC_H
#define D3D12XS_RPC_H
#include "d3d12xs_windows.h"
#endif
