/* Microsoft's side of the conformance test: their C headers from directx-headers-dev
 * (with their Linux adapter), and their GUIDs from libDirectX-Guids.a. Built without
 * d3d12xs's include folder. */
#include <wsl/winadapter.h>
#include <directx/d3d12.h>
#include <directx/d3d12sdklayers.h>

/* GUIDs the library lacks read as NULL (reported, not compared) instead of failing the link. */
#define CONF_ENUM(n)
#define CONF_CONST(n)
#define CONF_FCONST(n)
#define CONF_STRUCT(t)
#define CONF_MEMBER(t, m)
#define CONF_SLOT(i, m)
#define CONF_SGUID(n)
#define CONF_GUID(n) extern const GUID n __attribute__((weak));
#include "conformance_list.h"
#undef CONF_ENUM
#undef CONF_CONST
#undef CONF_FCONST
#undef CONF_STRUCT
#undef CONF_MEMBER
#undef CONF_SLOT
#undef CONF_SGUID
#undef CONF_GUID

#define CONF_SIDE ms
#include "tables.h"
