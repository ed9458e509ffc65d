/*
 * d3dcompiler.h - D3DCompile for d3d12xs.
 *
 * Source-compatible with the Windows header for what is implemented: D3DCompile compiles
 * HLSL (through the glslang HLSL front end) and returns a blob of SPIR-V words, which is
 * what d3d12xs pipeline states take. DXBC and DXIL are not produced.
 *
 * HLSL registers are kept in the SPIR-V: DescriptorSet = register space, Binding =
 * (class << 14) | register with b = 0, t = 1, u = 2, s = 3, so that root signatures bind
 * them as in D3D12. Defining __XBOX_ENABLE_WAVE32 to 1 in pDefines builds a wave32 shader
 * (as on the console): the blob records it, and DispatchX's W32 flag must then be set.
 */
#ifndef D3D12XS_D3DCOMPILER_H
#define D3D12XS_D3DCOMPILER_H
#ifndef __D3DCOMPILER_H__
#define __D3DCOMPILER_H__
#endif

#include "d3d12.h"

#ifdef __cplusplus
extern "C" {
#endif

#define D3DCOMPILER_DLL_A "d3dcompiler_47.dll"
#define D3D_COMPILER_VERSION 47

/* ---- D3DCOMPILE flags (Flags1) ---- */
#define D3DCOMPILE_DEBUG                                (1 << 0)
#define D3DCOMPILE_SKIP_VALIDATION                      (1 << 1)
#define D3DCOMPILE_SKIP_OPTIMIZATION                    (1 << 2)
#define D3DCOMPILE_PACK_MATRIX_ROW_MAJOR                (1 << 3)
#define D3DCOMPILE_PACK_MATRIX_COLUMN_MAJOR             (1 << 4)
#define D3DCOMPILE_PARTIAL_PRECISION                    (1 << 5)
#define D3DCOMPILE_FORCE_VS_SOFTWARE_NO_OPT             (1 << 6)
#define D3DCOMPILE_FORCE_PS_SOFTWARE_NO_OPT             (1 << 7)
#define D3DCOMPILE_NO_PRESHADER                         (1 << 8)
#define D3DCOMPILE_AVOID_FLOW_CONTROL                   (1 << 9)
#define D3DCOMPILE_PREFER_FLOW_CONTROL                  (1 << 10)
#define D3DCOMPILE_ENABLE_STRICTNESS                    (1 << 11)
#define D3DCOMPILE_ENABLE_BACKWARDS_COMPATIBILITY       (1 << 12)
#define D3DCOMPILE_IEEE_STRICTNESS                      (1 << 13)
#define D3DCOMPILE_OPTIMIZATION_LEVEL0                  (1 << 14)
#define D3DCOMPILE_OPTIMIZATION_LEVEL1                  0
#define D3DCOMPILE_OPTIMIZATION_LEVEL2                  ((1 << 14) | (1 << 15))
#define D3DCOMPILE_OPTIMIZATION_LEVEL3                  (1 << 15)
#define D3DCOMPILE_RESERVED16                           (1 << 16)
#define D3DCOMPILE_RESERVED17                           (1 << 17)
#define D3DCOMPILE_WARNINGS_ARE_ERRORS                  (1 << 18)
#define D3DCOMPILE_RESOURCES_MAY_ALIAS                  (1 << 19)
#define D3DCOMPILE_ENABLE_UNBOUNDED_DESCRIPTOR_TABLES   (1 << 20)
#define D3DCOMPILE_ALL_RESOURCES_BOUND                  (1 << 21)
#define D3DCOMPILE_DEBUG_NAME_FOR_SOURCE                (1 << 22)
#define D3DCOMPILE_DEBUG_NAME_FOR_BINARY                (1 << 23)

/* ---- Flags2 (effects and root signatures; accepted and ignored) ---- */
#define D3DCOMPILE_EFFECT_CHILD_EFFECT                  (1 << 0)
#define D3DCOMPILE_EFFECT_ALLOW_SLOW_OPS                (1 << 1)
#define D3DCOMPILE_FLAGS2_FORCE_ROOT_SIGNATURE_LATEST   0
#define D3DCOMPILE_FLAGS2_FORCE_ROOT_SIGNATURE_1_0      (1 << 4)
#define D3DCOMPILE_FLAGS2_FORCE_ROOT_SIGNATURE_1_1      (1 << 5)

/* ---- macros and includes (d3dcommon.h on Windows) ---- */
#ifndef D3D12XS_D3D_SHADER_MACRO_DEFINED
#define D3D12XS_D3D_SHADER_MACRO_DEFINED
typedef struct _D3D_SHADER_MACRO {
    LPCSTR Name;
    LPCSTR Definition;
} D3D_SHADER_MACRO, *LPD3D_SHADER_MACRO;
typedef D3D_SHADER_MACRO D3D10_SHADER_MACRO;
typedef D3D10_SHADER_MACRO *LPD3D10_SHADER_MACRO;

typedef enum _D3D_INCLUDE_TYPE {
    D3D_INCLUDE_LOCAL = 0,
    D3D_INCLUDE_SYSTEM = 1,
    D3D10_INCLUDE_LOCAL = D3D_INCLUDE_LOCAL,
    D3D10_INCLUDE_SYSTEM = D3D_INCLUDE_SYSTEM,
    D3D_INCLUDE_FORCE_DWORD = 0x7fffffff
} D3D_INCLUDE_TYPE;

/* ID3DInclude is not a COM interface: no IUnknown methods, just Open and Close. */
#if defined(__cplusplus) && !defined(CINTERFACE)
struct ID3DInclude {
    virtual HRESULT STDMETHODCALLTYPE Open(D3D_INCLUDE_TYPE IncludeType, LPCSTR pFileName, LPCVOID pParentData,
            LPCVOID *ppData, UINT *pBytes) = 0;
    virtual HRESULT STDMETHODCALLTYPE Close(LPCVOID pData) = 0;
};
typedef struct ID3DInclude ID3DInclude;
#else
typedef struct ID3DInclude ID3DInclude;
typedef struct ID3DIncludeVtbl {
    HRESULT (STDMETHODCALLTYPE *Open)(ID3DInclude *This, D3D_INCLUDE_TYPE IncludeType, LPCSTR pFileName,
            LPCVOID pParentData, LPCVOID *ppData, UINT *pBytes);
    HRESULT (STDMETHODCALLTYPE *Close)(ID3DInclude *This, LPCVOID pData);
} ID3DIncludeVtbl;
struct ID3DInclude {
    CONST_VTBL ID3DIncludeVtbl *lpVtbl;
};
#define ID3DInclude_Open(This,IncludeType,pFileName,pParentData,ppData,pBytes) \
    ((This)->lpVtbl->Open(This,IncludeType,pFileName,pParentData,ppData,pBytes))
#define ID3DInclude_Close(This,pData) ((This)->lpVtbl->Close(This,pData))
#endif
typedef ID3DInclude *LPD3DINCLUDE;
typedef ID3DInclude ID3D10Include;
typedef ID3DInclude *LPD3D10INCLUDE;
#endif /* D3D12XS_D3D_SHADER_MACRO_DEFINED */

/* Includes are opened as files, relative to the folder of the file that includes them
 * (the folder of pSourceName for the main source; the current folder without one). */
#define D3D_COMPILE_STANDARD_FILE_INCLUDE ((ID3DInclude *)(UINT_PTR)1)

#if !defined(__cplusplus) || defined(CINTERFACE)
#ifndef ID3DBlob_GetBufferPointer
#define ID3DBlob_QueryInterface(This,riid,ppvObject) ID3D10Blob_QueryInterface(This,riid,ppvObject)
#define ID3DBlob_AddRef(This) ID3D10Blob_AddRef(This)
#define ID3DBlob_Release(This) ID3D10Blob_Release(This)
#define ID3DBlob_GetBufferPointer(This) ID3D10Blob_GetBufferPointer(This)
#define ID3DBlob_GetBufferSize(This) ID3D10Blob_GetBufferSize(This)
#endif
#endif

/* Compiles HLSL for pTarget ("cs_5_0", "cs_5_1", "cs_6_0" .. "cs_6_6"; vs_, ps_, gs_, hs_
 * and ds_ with the same versions) and returns the SPIR-V in *ppCode. Compile errors:
 * E_FAIL with the compiler's messages in *ppErrorMsgs (NUL-terminated text); warnings
 * of a successful compile also go to *ppErrorMsgs. Flags2 is ignored. */
HRESULT WINAPI D3DCompile(LPCVOID pSrcData, SIZE_T SrcDataSize, LPCSTR pSourceName,
        const D3D_SHADER_MACRO *pDefines, ID3DInclude *pInclude, LPCSTR pEntrypoint, LPCSTR pTarget,
        UINT Flags1, UINT Flags2, ID3DBlob **ppCode, ID3DBlob **ppErrorMsgs);

typedef HRESULT (WINAPI *pD3DCompile)(LPCVOID pSrcData, SIZE_T SrcDataSize, LPCSTR pFileName,
        const D3D_SHADER_MACRO *pDefines, ID3DInclude *pInclude, LPCSTR pEntrypoint, LPCSTR pTarget,
        UINT Flags1, UINT Flags2, ID3DBlob **ppCode, ID3DBlob **ppErrorMsgs);

#ifdef __cplusplus
}
#endif

#endif
