#include <pthread.h>
#include <stdio.h>

#include "common/config.h"
#include "common/log.h"

static pthread_mutex_t log_callback_lock = PTHREAD_MUTEX_INITIALIZER;
static PFN_D3D12XS_LOG_CALLBACK log_callback;
static void *log_callback_user;

/* D3D12XS_LOG, read with the rest of the configuration (common/config.c). */
static void log_va(D3D12XS_LOG_LEVEL level, const char *fmt, va_list args);

static void log_line(D3D12XS_LOG_LEVEL level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void log_line(D3D12XS_LOG_LEVEL level, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    log_va(level, fmt, args);
    va_end(args);
}

void d3d12xs_log_config_warnings(void)
{
    struct d3d12xs_config_warnings warnings;
    if (d3d12xs_config_take_warnings(&warnings))
        for (unsigned i = 0; i < warnings.count; i++)
            log_line(D3D12XS_LOG_LEVEL_WARN, "%s", warnings.lines[i]);
}

int d3d12xs_log_enabled(D3D12XS_LOG_LEVEL level)
{
    d3d12xs_log_config_warnings();
    return (int)level <= d3d12xs_config()->log_level;
}

void D3D12XSSetLogCallback(PFN_D3D12XS_LOG_CALLBACK callback, void *user)
{
    pthread_mutex_lock(&log_callback_lock);
    log_callback = callback;
    log_callback_user = user;
    pthread_mutex_unlock(&log_callback_lock);
}

static void log_va(D3D12XS_LOG_LEVEL level, const char *fmt, va_list args)
{
    static const char *const prefixes[] = {"err", "warn", "info", "trace"};
    char line[2048]; /* a hang's line names every queue's work */
    /* Before the lock: the first read of the configuration may log its own warnings. */
    bool enabled = d3d12xs_log_enabled(level);

    /* The callback sees every line regardless of level: tests count them. */
    pthread_mutex_lock(&log_callback_lock);
    if (!log_callback && !enabled) {
        pthread_mutex_unlock(&log_callback_lock);
        return;
    }
    vsnprintf(line, sizeof(line), fmt, args);
    if (log_callback)
        log_callback(level, line, log_callback_user);
    pthread_mutex_unlock(&log_callback_lock);
    if (enabled)
        fprintf(stderr, "d3d12xs:%s: %s\n", prefixes[level], line);
}

void d3d12xs_log(D3D12XS_LOG_LEVEL level, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    log_va(level, fmt, args);
    va_end(args);
}

HRESULT d3d12xs_fail(HRESULT hr, const char *method, const char *fmt, ...)
{
    char message[768];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof(message), fmt, args);
    va_end(args);
    d3d12xs_log(D3D12XS_LOG_LEVEL_ERROR, "%s: %s", method, message);
    return hr;
}

void d3d12xs_log_not_implemented(int *once, const char *what)
{
    if (!__atomic_exchange_n(once, 1, __ATOMIC_RELAXED))
        d3d12xs_log(D3D12XS_LOG_LEVEL_ERROR, "%s is not implemented (returns E_NOTIMPL or does nothing)", what);
}
