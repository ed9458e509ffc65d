/* Logging: one line per event, level chosen by D3D12XS_LOG (error by default). */
#ifndef D3D12XS_LOG_H
#define D3D12XS_LOG_H

#include <stdarg.h>
#include "d3d12xs.h"

void d3d12xs_log(D3D12XS_LOG_LEVEL level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int d3d12xs_log_enabled(D3D12XS_LOG_LEVEL level);
/* Logs the process configuration's warnings (common/config.c), the first time only; every log
 * line and the API's entry points that read the configuration call it. */
void d3d12xs_log_config_warnings(void);
/* Used by the generated stubs: logs "<what> is not implemented" once per method. */
void d3d12xs_log_not_implemented(int *once, const char *what);
/* Logs "<method>: <message>" at error level and returns hr: the shape of every argument check. */
HRESULT d3d12xs_fail(HRESULT hr, const char *method, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#define ERR(...) d3d12xs_log(D3D12XS_LOG_LEVEL_ERROR, __VA_ARGS__)
#define WARN(...) d3d12xs_log(D3D12XS_LOG_LEVEL_WARN, __VA_ARGS__)
#define INFO(...) d3d12xs_log(D3D12XS_LOG_LEVEL_INFO, __VA_ARGS__)
#define TRACE(...) do { if (d3d12xs_log_enabled(D3D12XS_LOG_LEVEL_TRACE)) d3d12xs_log(D3D12XS_LOG_LEVEL_TRACE, __VA_ARGS__); } while (0)

#endif
