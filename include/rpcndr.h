/* <rpcndr.h> for d3d12xs: Microsoft's MIDL-generated headers check this version macro. */
#ifndef D3D12XS_RPCNDR_H
#define D3D12XS_RPCNDR_H
#include "d3d12xs_windows.h"
#ifndef __RPCNDR_H_VERSION__
#define __RPCNDR_H_VERSION__ 500
#endif
#endif
