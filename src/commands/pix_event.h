/* PIX events and markers (BeginEvent / EndEvent / SetMarker of queues and lists, <pix3.h>):
 * the text they carry, for the trace file's spans (docs/trace.md). */
#ifndef D3D12XS_PIX_EVENT_H
#define D3D12XS_PIX_EVENT_H

#include <stddef.h>

#include "d3d12.h"

/* D3D12's metadata values: 0 a wide string (wchar_t here), 1 an ANSI string, 2 PIX3's encoded
 * event (its format string is what is shown). */
#define D3D12XS_PIX_EVENT_UNICODE 0
#define D3D12XS_PIX_EVENT_ANSI 1
#define D3D12XS_PIX_EVENT_PIX3BLOB 2

/* The event's text in out (ASCII; other characters as '?'); "PIX event" when data is empty or
 * unreadable. Never reads past size bytes. */
void d3d12_pix_event_name(UINT metadata, const void *data, UINT size, char *out, size_t out_size);

#endif
