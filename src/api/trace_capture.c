/* D3D12XSStartTrace / D3D12XSStopTrace (<d3d12xs.h>): the capture around a region of the
 * program; trace/trace.c writes the file. */
#include "d3d12xs.h"
#include "trace/trace.h"

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
