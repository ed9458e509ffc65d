/* D3D12XSStartTrace / D3D12XSStopTrace (<d3d12xs.h>): the capture around a region of the
 * program; trace/trace.c writes the file. And the CPU's own PIX events (<pix3.h>). */
#include <stdio.h>

#include "common/util.h"
#include "d3d12xs.h"
#include "trace/trace.h"

/* The calling thread's open CPU events (PIXBeginEvent without a queue or list). */
#define MAX_CPU_EVENTS 32
static _Thread_local struct {
    uint64_t begin_ns;
    char name[64];
} cpu_events[MAX_CPU_EVENTS];
static _Thread_local unsigned cpu_event_depth;

HRESULT D3D12XSStartTrace(const char *file_name)
{
    return d3d12xs_trace_start(file_name, "D3D12XSStartTrace");
}

HRESULT D3D12XSStopTrace(void)
{
    if (!d3d12xs_trace_on())
        return S_FALSE;
    d3d12xs_trace_stop();
    return S_OK;
}

void D3D12XSBeginCpuEvent(const char *name)
{
    if (cpu_event_depth < MAX_CPU_EVENTS) {
        cpu_events[cpu_event_depth].begin_ns = d3d12xs_trace_on() ? d3d12xs_now_ns() : 0;
        snprintf(cpu_events[cpu_event_depth].name, sizeof(cpu_events[0].name), "%s", name ? name : "PIX event");
    }
    cpu_event_depth++;
}

void D3D12XSEndCpuEvent(void)
{
    if (!cpu_event_depth)
        return;
    if (--cpu_event_depth < MAX_CPU_EVENTS && cpu_events[cpu_event_depth].begin_ns)
        d3d12xs_trace_span(d3d12xs_trace_cpu_track(), "pix", cpu_events[cpu_event_depth].name, cpu_events[cpu_event_depth].begin_ns,
                d3d12xs_now_ns(), NULL);
}

void D3D12XSSetCpuMarker(const char *name)
{
    if (d3d12xs_trace_on())
        d3d12xs_trace_instant(d3d12xs_trace_cpu_track(), "pix", name ? name : "PIX marker", d3d12xs_now_ns(), NULL);
}
