/*
 * d3d12xs_windows.h - the small subset of Windows base types, macros and COM
 * plumbing that Direct3D 12 code expects, for Linux.
 *
 * Written for d3d12xs.  It deliberately defines no min/max macros and no
 * "interface" macro.
 */
#ifndef D3D12XS_WINDOWS_H
#define D3D12XS_WINDOWS_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#ifdef __cplusplus
#include <type_traits>
#endif

/* ------------------------------------------------------------------------ */
/* Linkage and calling-convention macros                                     */
/* ------------------------------------------------------------------------ */

#ifndef EXTERN_C
# ifdef __cplusplus
#  define EXTERN_C extern "C"
# else
#  define EXTERN_C extern
# endif
#endif

#ifndef WINAPI
# define WINAPI
#endif
#ifndef APIENTRY
# define APIENTRY
#endif
#ifndef CALLBACK
# define CALLBACK
#endif
#ifndef STDMETHODCALLTYPE
# define STDMETHODCALLTYPE
#endif
#ifndef STDAPICALLTYPE
# define STDAPICALLTYPE
#endif
#ifndef DECLSPEC_UUID
# define DECLSPEC_UUID(x)
#endif
#ifndef DECLSPEC_NOVTABLE
# define DECLSPEC_NOVTABLE
#endif
#ifndef DECLSPEC_SELECTANY
# define DECLSPEC_SELECTANY __attribute__((weak))
#endif
#ifndef BEGIN_INTERFACE
# define BEGIN_INTERFACE
#endif
#ifndef END_INTERFACE
# define END_INTERFACE
#endif
#ifndef CONST_VTBL
# define CONST_VTBL const
#endif
#ifndef CONST
# define CONST const
#endif
#ifndef VOID
# define VOID void
#endif

#ifdef __cplusplus
# ifndef MIDL_INTERFACE
#  define MIDL_INTERFACE(x) struct
# endif
# ifndef STDMETHOD
#  define STDMETHOD(method) virtual HRESULT STDMETHODCALLTYPE method
# endif
# ifndef STDMETHOD_
#  define STDMETHOD_(type, method) virtual type STDMETHODCALLTYPE method
# endif
# ifndef PURE
#  define PURE = 0
# endif
# ifndef THIS_
#  define THIS_
# endif
# ifndef THIS
#  define THIS void
# endif
#endif
#ifndef STDMETHODIMP
# define STDMETHODIMP HRESULT STDMETHODCALLTYPE
#endif
#ifndef STDMETHODIMP_
# define STDMETHODIMP_(type) type STDMETHODCALLTYPE
#endif
#ifndef STDAPI
# define STDAPI EXTERN_C HRESULT STDAPICALLTYPE
#endif

/* SAL annotations used in Windows code: all empty. */
#ifndef D3D12XS_NO_SAL
# ifndef _In_
#  define _In_
# endif
# ifndef _In_opt_
#  define _In_opt_
# endif
# ifndef _In_z_
#  define _In_z_
# endif
# ifndef _In_reads_
#  define _In_reads_(x)
# endif
# ifndef _In_reads_opt_
#  define _In_reads_opt_(x)
# endif
# ifndef _In_reads_bytes_
#  define _In_reads_bytes_(x)
# endif
# ifndef _In_reads_bytes_opt_
#  define _In_reads_bytes_opt_(x)
# endif
# ifndef _Out_
#  define _Out_
# endif
# ifndef _Out_opt_
#  define _Out_opt_
# endif
# ifndef _Out_writes_
#  define _Out_writes_(x)
# endif
# ifndef _Out_writes_opt_
#  define _Out_writes_opt_(x)
# endif
# ifndef _Out_writes_bytes_
#  define _Out_writes_bytes_(x)
# endif
# ifndef _Out_writes_bytes_opt_
#  define _Out_writes_bytes_opt_(x)
# endif
# ifndef _Inout_
#  define _Inout_
# endif
# ifndef _Inout_opt_
#  define _Inout_opt_
# endif
# ifndef _Outptr_
#  define _Outptr_
# endif
# ifndef _Outptr_opt_
#  define _Outptr_opt_
# endif
# ifndef _COM_Outptr_
#  define _COM_Outptr_
# endif
# ifndef _COM_Outptr_opt_
#  define _COM_Outptr_opt_
# endif
# ifndef _Check_return_
#  define _Check_return_
# endif
# ifndef _Use_decl_annotations_
#  define _Use_decl_annotations_
# endif
# ifndef _Always_
#  define _Always_(x)
# endif
# ifndef _In_range_
#  define _In_range_(lo, hi)
# endif
# ifndef _Outptr_opt_result_maybenull_
#  define _Outptr_opt_result_maybenull_
# endif
# ifndef __analysis_assume
#  define __analysis_assume(expr)
# endif
#endif /* D3D12XS_NO_SAL */

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Base types                                                                */
/* ------------------------------------------------------------------------ */

typedef uint8_t BYTE;
typedef uint8_t UINT8;
typedef int8_t INT8;
typedef uint16_t UINT16;
typedef int16_t INT16;
typedef uint16_t WORD;
typedef uint16_t USHORT;
typedef int16_t SHORT;
typedef int32_t INT;
typedef uint32_t UINT;
typedef uint32_t UINT32;
typedef int32_t INT32;
typedef uint64_t UINT64;
typedef int64_t INT64;
typedef int32_t LONG;               /* 32-bit, as on Windows */
typedef uint32_t ULONG;
typedef uint32_t DWORD;
typedef int64_t LONGLONG;
typedef uint64_t ULONGLONG;
typedef int BOOL;
typedef uint8_t BOOLEAN;
typedef char CHAR;
typedef uint8_t UCHAR;
typedef float FLOAT;
typedef size_t SIZE_T;
typedef intptr_t SSIZE_T;
typedef uintptr_t UINT_PTR;
typedef intptr_t INT_PTR;
typedef uintptr_t ULONG_PTR;
typedef intptr_t LONG_PTR;
typedef uintptr_t DWORD_PTR;
typedef int32_t HRESULT;
typedef void *HANDLE;
typedef struct HWND__ *HWND;
typedef void *PVOID;
typedef void *LPVOID;
typedef const void *LPCVOID;
typedef char *LPSTR;
typedef const char *LPCSTR;
typedef wchar_t WCHAR;              /* so L"name" literals work with SetName */
typedef WCHAR *LPWSTR;
typedef const WCHAR *LPCWSTR;
typedef WCHAR *PWSTR;
typedef const WCHAR *PCWSTR;

#ifndef TRUE
# define TRUE 1
#endif
#ifndef FALSE
# define FALSE 0
#endif

typedef struct _GUID {
    uint32_t Data1;
    uint16_t Data2;
    uint16_t Data3;
    uint8_t Data4[8];
} GUID;

typedef GUID IID;
typedef GUID CLSID;
typedef GUID *LPGUID;
typedef IID *LPIID;
typedef CLSID *LPCLSID;

#ifdef __cplusplus
# define REFGUID const GUID &
# define REFIID const IID &
# define REFCLSID const CLSID &
#else
# define REFGUID const GUID *
# define REFIID const IID *
# define REFCLSID const CLSID *
#endif

typedef struct _LUID {
    DWORD LowPart;
    LONG HighPart;
} LUID, *PLUID;

typedef struct tagRECT {
    LONG left;
    LONG top;
    LONG right;
    LONG bottom;
} RECT, *PRECT, *LPRECT;

typedef struct tagPOINT {
    LONG x;
    LONG y;
} POINT, *PPOINT, *LPPOINT;

typedef struct tagSIZE {
    LONG cx;
    LONG cy;
} SIZE, *PSIZE, *LPSIZE;

typedef union _LARGE_INTEGER {
    struct {
        DWORD LowPart;
        LONG HighPart;
    };
    struct {
        DWORD LowPart;
        LONG HighPart;
    } u;
    LONGLONG QuadPart;
} LARGE_INTEGER, *PLARGE_INTEGER;

typedef struct _SECURITY_ATTRIBUTES {
    DWORD nLength;
    LPVOID lpSecurityDescriptor;
    BOOL bInheritHandle;
} SECURITY_ATTRIBUTES, *PSECURITY_ATTRIBUTES, *LPSECURITY_ATTRIBUTES;

/* ------------------------------------------------------------------------ */
/* HRESULT codes                                                             */
/* ------------------------------------------------------------------------ */

#define SUCCEEDED(hr) (((HRESULT)(hr)) >= 0)
#define FAILED(hr) (((HRESULT)(hr)) < 0)

#define S_OK                                ((HRESULT)0x00000000)
#define S_FALSE                             ((HRESULT)0x00000001)
#define E_NOTIMPL                           ((HRESULT)0x80004001)
#define E_NOINTERFACE                       ((HRESULT)0x80004002)
#define E_POINTER                           ((HRESULT)0x80004003)
#define E_ABORT                             ((HRESULT)0x80004004)
#define E_FAIL                              ((HRESULT)0x80004005)
#define E_UNEXPECTED                        ((HRESULT)0x8000FFFF)
#define E_ACCESSDENIED                      ((HRESULT)0x80070005)
#define E_HANDLE                            ((HRESULT)0x80070006)
#define E_OUTOFMEMORY                       ((HRESULT)0x8007000E)
#define E_INVALIDARG                        ((HRESULT)0x80070057)
#define CLASS_E_CLASSNOTAVAILABLE           ((HRESULT)0x80040111)
#define DXGI_ERROR_INVALID_CALL             ((HRESULT)0x887A0001)
#define DXGI_ERROR_NOT_FOUND                ((HRESULT)0x887A0002)
#define DXGI_ERROR_MORE_DATA                ((HRESULT)0x887A0003)
#define DXGI_ERROR_UNSUPPORTED              ((HRESULT)0x887A0004)
#define DXGI_ERROR_DEVICE_REMOVED           ((HRESULT)0x887A0005)
#define DXGI_ERROR_DEVICE_HUNG              ((HRESULT)0x887A0006)
#define DXGI_ERROR_DEVICE_RESET             ((HRESULT)0x887A0007)
#define DXGI_ERROR_WAS_STILL_DRAWING        ((HRESULT)0x887A000A)
#define DXGI_ERROR_DRIVER_INTERNAL_ERROR    ((HRESULT)0x887A0020)
#define DXGI_ERROR_WAIT_TIMEOUT             ((HRESULT)0x887A0027)
#define D3D12_ERROR_ADAPTER_NOT_FOUND       ((HRESULT)0x887E0001)
#define D3D12_ERROR_DRIVER_VERSION_MISMATCH ((HRESULT)0x887E0002)

/* ------------------------------------------------------------------------ */
/* GUIDs                                                                     */
/* ------------------------------------------------------------------------ */

#ifdef __cplusplus
inline int IsEqualGUID(REFGUID a, REFGUID b)
{
    return !memcmp(&a, &b, sizeof(GUID));
}
#else
static inline int d3d12xs_is_equal_guid(const GUID *a, const GUID *b)
{
    return !memcmp(a, b, sizeof(GUID));
}
# define IsEqualGUID(a, b) d3d12xs_is_equal_guid((a), (b))
#endif
#define IsEqualIID(a, b) IsEqualGUID(a, b)
#define IsEqualCLSID(a, b) IsEqualGUID(a, b)

#ifdef __cplusplus
} /* extern "C" */
extern "C++" {
inline bool operator==(const GUID &a, const GUID &b)
{
    return !memcmp(&a, &b, sizeof(GUID));
}
inline bool operator!=(const GUID &a, const GUID &b)
{
    return !(a == b);
}
}
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Enum flag operators (C++ only, as on Windows)                             */
/* ------------------------------------------------------------------------ */

/* Enumerator values above INT_MAX: C gets the value itself, as Microsoft's headers give it
 * (GNU C and C23 allow it); with D3D12XS_ISO_C_ENUMS defined, ISO C before C23 (-pedantic)
 * gets the same 32-bit pattern as a (negative) int, as MSVC does. */
#ifndef D3D12XS_ENUM_U32
# if defined(__cplusplus) || !defined(D3D12XS_ISO_C_ENUMS)
#  define D3D12XS_ENUM_U32(x) x
# else
#  define D3D12XS_ENUM_U32(x) ((int)(x))
# endif
#endif

#ifdef __cplusplus
/* Flag enums get int as their underlying type in C++, as MSVC gives every enum: then ~flag
 * and masks built from it stay valid values of the type (UBSan checks that). */
# define D3D12XS_FLAG_ENUM_BASE : int
# define DEFINE_ENUM_FLAG_OPERATORS(ENUMTYPE) \
extern "C++" { \
inline constexpr ENUMTYPE operator|(ENUMTYPE a, ENUMTYPE b) \
{ return ENUMTYPE(((std::underlying_type<ENUMTYPE>::type)a) | ((std::underlying_type<ENUMTYPE>::type)b)); } \
inline ENUMTYPE &operator|=(ENUMTYPE &a, ENUMTYPE b) { a = a | b; return a; } \
inline constexpr ENUMTYPE operator&(ENUMTYPE a, ENUMTYPE b) \
{ return ENUMTYPE(((std::underlying_type<ENUMTYPE>::type)a) & ((std::underlying_type<ENUMTYPE>::type)b)); } \
inline ENUMTYPE &operator&=(ENUMTYPE &a, ENUMTYPE b) { a = a & b; return a; } \
inline ENUMTYPE operator~(ENUMTYPE a) \
{ return ENUMTYPE(~((std::underlying_type<ENUMTYPE>::type)a)); } \
inline constexpr ENUMTYPE operator^(ENUMTYPE a, ENUMTYPE b) \
{ return ENUMTYPE(((std::underlying_type<ENUMTYPE>::type)a) ^ ((std::underlying_type<ENUMTYPE>::type)b)); } \
inline ENUMTYPE &operator^=(ENUMTYPE &a, ENUMTYPE b) { a = a ^ b; return a; } \
}
#else
# define DEFINE_ENUM_FLAG_OPERATORS(ENUMTYPE)
# define D3D12XS_FLAG_ENUM_BASE
#endif

/* ------------------------------------------------------------------------ */
/* Win32 event / timer shims (implemented in the library)                    */
/* ------------------------------------------------------------------------ */

#define INFINITE      0xFFFFFFFFu
#define WAIT_OBJECT_0 0x00000000u
#define WAIT_TIMEOUT  0x00000102u
#define WAIT_FAILED   0xFFFFFFFFu

#define CREATE_EVENT_MANUAL_RESET 0x00000001u
#define CREATE_EVENT_INITIAL_SET  0x00000002u
#define EVENT_ALL_ACCESS          0x001F0003u
#define EVENT_MODIFY_STATE        0x00000002u
#define SYNCHRONIZE               0x00100000u
#define GENERIC_ALL               0x10000000u

EXTERN_C HANDLE D3D12XSCreateEvent(BOOL manual_reset, BOOL initial_state);
EXTERN_C DWORD D3D12XSWaitForEvent(HANDLE event, DWORD milliseconds);
EXTERN_C BOOL D3D12XSSetEvent(HANDLE event);
EXTERN_C BOOL D3D12XSResetEvent(HANDLE event);
EXTERN_C BOOL D3D12XSCloseEvent(HANDLE event);
EXTERN_C BOOL D3D12XSQueryPerformanceCounter(LARGE_INTEGER *count);
EXTERN_C BOOL D3D12XSQueryPerformanceFrequency(LARGE_INTEGER *freq);

#ifndef D3D12XS_NO_WIN32_SHIMS
static inline HANDLE CreateEventW(LPVOID attributes, BOOL manual_reset, BOOL initial_state, LPCWSTR name)
{
    (void)attributes;
    (void)name;
    return D3D12XSCreateEvent(manual_reset, initial_state);
}

static inline HANDLE CreateEventA(LPVOID attributes, BOOL manual_reset, BOOL initial_state, LPCSTR name)
{
    (void)attributes;
    (void)name;
    return D3D12XSCreateEvent(manual_reset, initial_state);
}

static inline HANDLE CreateEventExW(LPVOID attributes, LPCWSTR name, DWORD flags, DWORD desired_access)
{
    (void)attributes;
    (void)name;
    (void)desired_access;
    return D3D12XSCreateEvent(!!(flags & CREATE_EVENT_MANUAL_RESET), !!(flags & CREATE_EVENT_INITIAL_SET));
}

static inline HANDLE CreateEventExA(LPVOID attributes, LPCSTR name, DWORD flags, DWORD desired_access)
{
    (void)attributes;
    (void)name;
    (void)desired_access;
    return D3D12XSCreateEvent(!!(flags & CREATE_EVENT_MANUAL_RESET), !!(flags & CREATE_EVENT_INITIAL_SET));
}

#define CreateEvent CreateEventW
#define CreateEventEx CreateEventExW

static inline DWORD WaitForSingleObject(HANDLE handle, DWORD milliseconds)
{
    return D3D12XSWaitForEvent(handle, milliseconds);
}

static inline BOOL SetEvent(HANDLE event)
{
    return D3D12XSSetEvent(event);
}

static inline BOOL ResetEvent(HANDLE event)
{
    return D3D12XSResetEvent(event);
}

static inline BOOL CloseHandle(HANDLE handle)
{
    return D3D12XSCloseEvent(handle);
}

static inline BOOL QueryPerformanceCounter(LARGE_INTEGER *count)
{
    return D3D12XSQueryPerformanceCounter(count);
}

static inline BOOL QueryPerformanceFrequency(LARGE_INTEGER *freq)
{
    return D3D12XSQueryPerformanceFrequency(freq);
}

/* The process heap (d3dx12.h allocates from it): malloc and free. */
#ifndef HEAP_ZERO_MEMORY
#define HEAP_ZERO_MEMORY 0x00000008
#endif
static inline HANDLE GetProcessHeap(void)
{
    return (HANDLE)(UINT_PTR)1;
}

static inline LPVOID HeapAlloc(HANDLE heap, DWORD flags, SIZE_T bytes)
{
    (void)heap;
    return (flags & HEAP_ZERO_MEMORY) ? calloc(1, bytes ? bytes : 1) : malloc(bytes ? bytes : 1);
}

static inline BOOL HeapFree(HANDLE heap, DWORD flags, LPVOID memory)
{
    (void)heap;
    (void)flags;
    free(memory);
    return TRUE;
}
#endif /* D3D12XS_NO_WIN32_SHIMS */

#ifdef __cplusplus
} /* extern "C" */
#endif

/* ------------------------------------------------------------------------ */
/* IID_PPV_ARGS support (C++): headers specialise d3d12xs_iid_traits<T>      */
/* for each interface they declare.                                          */
/* ------------------------------------------------------------------------ */

#ifdef __cplusplus
extern "C++" {
template<typename T> struct d3d12xs_iid_traits;

template<typename T> inline const IID &d3d12xs_iid_of_pp(T **)
{
    return d3d12xs_iid_traits<typename std::remove_cv<T>::type>::iid();
}

template<typename T> inline void **d3d12xs_ppv_of_pp(T **pp)
{
    return reinterpret_cast<void **>(const_cast<typename std::remove_cv<T>::type **>(pp));
}
}
# ifndef IID_PPV_ARGS
#  define IID_PPV_ARGS(ppType) d3d12xs_iid_of_pp(ppType), d3d12xs_ppv_of_pp(ppType)
# endif
#endif

#endif /* D3D12XS_WINDOWS_H */

/* ------------------------------------------------------------------------ */
/* DEFINE_GUID: outside the include guard, like <guiddef.h>, so that it      */
/* follows INITGUID.  With INITGUID the GUID is defined (weak, the           */
/* equivalent of selectany), otherwise only declared.                        */
/* ------------------------------------------------------------------------ */

#undef DEFINE_GUID
#ifdef INITGUID
# ifdef __cplusplus
#  define DEFINE_GUID(name, l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8) \
    EXTERN_C const GUID name __attribute__((weak)) \
        = { l, w1, w2, { b1, b2, b3, b4, b5, b6, b7, b8 } }
# else
#  define DEFINE_GUID(name, l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8) \
    const GUID name __attribute__((weak)) \
        = { l, w1, w2, { b1, b2, b3, b4, b5, b6, b7, b8 } }
# endif
#else
# define DEFINE_GUID(name, l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8) \
    EXTERN_C const GUID name
#endif

/* ------------------------------------------------------------------------ */
/* IUnknown (after DEFINE_GUID, under its own guard)                         */
/* ------------------------------------------------------------------------ */

#ifndef D3D12XS_IUNKNOWN_DEFINED
#define D3D12XS_IUNKNOWN_DEFINED

#ifdef __cplusplus
struct IUnknown;
#else
typedef struct IUnknown IUnknown;
#endif

DEFINE_GUID(IID_IUnknown, 0x00000000, 0x0000, 0x0000, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46);

#if defined(__cplusplus) && !defined(CINTERFACE)
struct IUnknown {
    virtual HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void **ppvObject) = 0;
    virtual ULONG STDMETHODCALLTYPE AddRef(void) = 0;
    virtual ULONG STDMETHODCALLTYPE Release(void) = 0;
};
#else
typedef struct IUnknownVtbl {
    BEGIN_INTERFACE
    HRESULT (STDMETHODCALLTYPE *QueryInterface)(IUnknown *This, REFIID riid, void **ppvObject);
    ULONG (STDMETHODCALLTYPE *AddRef)(IUnknown *This);
    ULONG (STDMETHODCALLTYPE *Release)(IUnknown *This);
    END_INTERFACE
} IUnknownVtbl;
struct IUnknown {
    CONST_VTBL IUnknownVtbl *lpVtbl;
};
#define IUnknown_QueryInterface(This,riid,ppvObject) ((This)->lpVtbl->QueryInterface(This,riid,ppvObject))
#define IUnknown_AddRef(This) ((This)->lpVtbl->AddRef(This))
#define IUnknown_Release(This) ((This)->lpVtbl->Release(This))
#endif

typedef IUnknown *LPUNKNOWN;

#ifdef __cplusplus
extern "C++" {
template<> struct d3d12xs_iid_traits<IUnknown> { static const IID &iid() { return IID_IUnknown; } };
}
#endif

#endif /* D3D12XS_IUNKNOWN_DEFINED */
