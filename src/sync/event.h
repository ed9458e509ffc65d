/* The portable events behind the Win32 event shims (event.c), as fence registrations use them. */
#ifndef D3D12XS_EVENT_H
#define D3D12XS_EVENT_H

#include <stdbool.h>

#include "d3d12.h"
#include "common/log.h"
#include "common/util.h"

struct d3d12xs_event;

/* A reference on the event behind a handle; NULL when the handle is not an open event. The
 * handle itself is never dereferenced, so made-up and closed handles are safe to pass. */
struct d3d12xs_event *d3d12xs_event_acquire(HANDLE handle);
/* Drops a reference, setting the event first when asked. */
void d3d12xs_event_release(struct d3d12xs_event *event, bool set);

#endif
