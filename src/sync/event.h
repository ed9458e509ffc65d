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
/* An event handle (a forwarder, for fence registrations) that sets target once, when it has
 * itself been set count times (at least 1), and never again; it holds a reference on target.
 * Registrations keep it alive, so it can be closed (D3D12XSCloseEvent) as soon as it is handed
 * to them. ID3D12Device1::SetEventOnMultipleFenceCompletion: all = the number of fences, any = 1. */
HANDLE d3d12xs_event_create_forwarder(struct d3d12xs_event *target, unsigned count);
/* A forwarder that has set its target: its fence registrations can go (the waiter drops them,
 * so the fences an ANY wait no longer needs do not count as hung). False for other events. */
bool d3d12xs_event_spent(struct d3d12xs_event *event);

#endif
