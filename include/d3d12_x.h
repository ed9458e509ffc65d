/* The console (Xbox Series) extensions of D3D12 that d3d12xs implements, for code written
 * against the console headers. Include it after (or instead of) d3d12.h; it holds the root
 * signature flags for now and will gather the other console extensions. */
#ifndef D3D12XS_D3D12_X_H
#define D3D12XS_D3D12_X_H

#include "d3d12.h"

/* D3D12_ROOT_SIGNATURE_FLAGS values of the console (seed 002). On the console they are members
 * of the D3D12_ROOT_SIGNATURE_FLAGS enumeration; here they are constants of that type, so
 * `D3D12_ROOT_SIGNATURE_FLAG_DENY_VERTEX_SHADER_ROOT_ACCESS | D3D12XBOX_ROOT_SIGNATURE_FLAG_RAYTRACING`
 * works from C and C++ alike. */
#ifndef D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI
/* Every root argument reaches the shader through memory instead of user-data registers. */
#define D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI ((D3D12_ROOT_SIGNATURE_FLAGS)0x01000000)
/* Compute root arguments that spill use an alternative spill area. */
#define D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_COMPUTE_2_SPILL_AREA ((D3D12_ROOT_SIGNATURE_FLAGS)0x02000000)
/* Required on root signatures used with DispatchRays; the same bit as FORCE_MEMORY_BASED_ABI. */
#define D3D12XBOX_ROOT_SIGNATURE_FLAG_RAYTRACING ((D3D12_ROOT_SIGNATURE_FLAGS)0x01000000)
/* Internal to the console; accepted with a warning. */
#define D3D12XBOX_ROOT_SIGNATURE_FLAG_INTERNAL_XDXR ((D3D12_ROOT_SIGNATURE_FLAGS)0x03000000)
#endif

#endif
