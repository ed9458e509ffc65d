/* The D3D12XS_* environment variables (config.h): one rule per variable, applied once. */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/config.h"
#include "d3d12xs.h" /* D3D12XS_LOG_LEVEL */

static void add_warning(struct d3d12xs_config_warnings *warnings, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add_warning(struct d3d12xs_config_warnings *warnings, const char *fmt, ...)
{
    va_list args;
    if (!warnings || warnings->count >= D3D12XS_CONFIG_MAX_WARNINGS)
        return;
    va_start(args, fmt);
    vsnprintf(warnings->lines[warnings->count++], sizeof(warnings->lines[0]), fmt, args);
    va_end(args);
}

/* An empty value counts as unset everywhere, as it always has. */
static const char *lookup_value(d3d12xs_config_lookup lookup, void *context, const char *name)
{
    const char *value = lookup(name, context);
    return value && *value ? value : NULL;
}

static void copy_string(char *dst, size_t size, const char *value)
{
    snprintf(dst, size, "%s", value ? value : "");
}

/* Unset, 0, or anything else (on). */
static enum d3d12xs_config_switch parse_switch(const char *value)
{
    if (!value)
        return D3D12XS_CONFIG_UNSET;
    return strcmp(value, "0") ? D3D12XS_CONFIG_ON : D3D12XS_CONFIG_OFF;
}

static int parse_log_level(const char *value, struct d3d12xs_config_warnings *warnings)
{
    static const char *const names[] = {"error", "warn", "info", "trace"};
    if (!value)
        return D3D12XS_LOG_LEVEL_ERROR;
    if (!strcasecmp(value, "none"))
        return -1;
    for (int i = 0; i < 4; i++)
        if (!strcasecmp(value, names[i]))
            return i;
    add_warning(warnings, "D3D12XS_LOG is '%s' (none, error, warn, info or trace); using error", value);
    return D3D12XS_LOG_LEVEL_ERROR;
}

static unsigned parse_hang_timeout(const char *value, struct d3d12xs_config_warnings *warnings)
{
    unsigned long number;
    char *end;
    if (!value)
        return D3D12XS_CONFIG_DEFAULT_HANG_TIMEOUT_MS;
    number = strtoul(value, &end, 10);
    if (*end || number > UINT32_MAX) {
        add_warning(warnings, "D3D12XS_HANG_TIMEOUT_MS=%s is not a number of milliseconds; using %u", value,
                D3D12XS_CONFIG_DEFAULT_HANG_TIMEOUT_MS);
        return D3D12XS_CONFIG_DEFAULT_HANG_TIMEOUT_MS;
    }
    return (unsigned)number;
}

static uint32_t parse_split_lists(const char *value, struct d3d12xs_config_warnings *warnings)
{
    long number;
    char *end;
    if (!value)
        return 0;
    number = strtol(value, &end, 10);
    if (*end || number < 0 || number > (long)D3D12XS_CONFIG_MAX_SPLIT_LISTS) {
        add_warning(warnings, "D3D12XS_SPLIT_LISTS is '%s' (a number of commands from 1 to %u, or 0); lists are not cut",
                value, D3D12XS_CONFIG_MAX_SPLIT_LISTS);
        return 0;
    }
    return (uint32_t)number;
}

static bool parse_copy_transfer_only(const char *value, struct d3d12xs_config_warnings *warnings)
{
    if (!value || !strcmp(value, "0"))
        return false;
    if (!strcmp(value, "1"))
        return true;
    add_warning(warnings, "D3D12XS_COPY_TRANSFER_ONLY is '%s' (1 or 0); using 0", value);
    return false;
}

static bool parse_compute_without_graphics(const char *value, struct d3d12xs_config_warnings *warnings)
{
    if (!value || !strcmp(value, "0"))
        return false;
    if (!strcmp(value, "1"))
        return true;
    add_warning(warnings, "D3D12XS_COMPUTE_WITHOUT_GRAPHICS is '%s' (1 or 0); using 0", value);
    return false;
}

static enum d3d12_gpu_wait_mode parse_gpu_waits(const char *value, struct d3d12xs_config_warnings *warnings)
{
    static const struct {
        const char *name;
        enum d3d12_gpu_wait_mode mode;
    } modes[] = {
        {"auto", D3D12_GPU_WAITS_AUTO}, {"off", D3D12_GPU_WAITS_OFF}, {"0", D3D12_GPU_WAITS_OFF},
        {"spin", D3D12_GPU_WAITS_SPIN}, {"force", D3D12_GPU_WAITS_FORCE}, {"semaphore", D3D12_GPU_WAITS_SEMAPHORE},
        {"inline", D3D12_GPU_WAITS_INLINE},
    };
    if (!value)
        return D3D12_GPU_WAITS_AUTO;
    for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
        if (!strcmp(value, modes[i].name))
            return modes[i].mode;
    add_warning(warnings, "D3D12XS_GPU_WAITS is '%s' (auto, spin, off, force, semaphore or inline); using auto", value);
    return D3D12_GPU_WAITS_AUTO;
}

static int64_t parse_compile_timeout(const char *value, struct d3d12xs_config_warnings *warnings)
{
    long long number;
    char *end;
    if (!value)
        return D3D12XS_CONFIG_DEFAULT_COMPILE_TIMEOUT_MS;
    number = strtoll(value, &end, 10);
    if (*end || number <= 0) {
        add_warning(warnings, "D3D12XS_COMPILE_TIMEOUT_MS is '%s' (a number of milliseconds above 0); using %d", value,
                D3D12XS_CONFIG_DEFAULT_COMPILE_TIMEOUT_MS);
        return D3D12XS_CONFIG_DEFAULT_COMPILE_TIMEOUT_MS;
    }
    return number;
}

void d3d12xs_config_parse(d3d12xs_config_lookup lookup, void *context, struct d3d12xs_config *config,
        struct d3d12xs_config_warnings *warnings)
{
#define VALUE(name) lookup_value(lookup, context, name)
    memset(config, 0, sizeof(*config));
    if (warnings)
        warnings->count = 0;
    copy_string(config->device, sizeof(config->device), VALUE("D3D12XS_DEVICE"));
    config->log_level = parse_log_level(VALUE("D3D12XS_LOG"), warnings);
    config->debug = parse_switch(VALUE("D3D12XS_DEBUG"));
    config->hang_timeout_ms = parse_hang_timeout(VALUE("D3D12XS_HANG_TIMEOUT_MS"), warnings);
    config->split_lists_every = parse_split_lists(VALUE("D3D12XS_SPLIT_LISTS"), warnings);
    config->copy_transfer_only = parse_copy_transfer_only(VALUE("D3D12XS_COPY_TRANSFER_ONLY"), warnings);
    config->compute_without_graphics = parse_compute_without_graphics(VALUE("D3D12XS_COMPUTE_WITHOUT_GRAPHICS"), warnings);
    config->gpu_waits = parse_gpu_waits(VALUE("D3D12XS_GPU_WAITS"), warnings);
    config->console_validation = parse_switch(VALUE("D3D12XS_CONSOLE_VALIDATION"));
    config->compile_timeout_ms = parse_compile_timeout(VALUE("D3D12XS_COMPILE_TIMEOUT_MS"), warnings);
    copy_string(config->hlslc, sizeof(config->hlslc), VALUE("D3D12XS_HLSLC"));
    config->no_vectorize = parse_switch(VALUE("D3D12XS_NO_VECTORIZE")) == D3D12XS_CONFIG_ON;
    config->no_generated_commands = parse_switch(VALUE("D3D12XS_NO_GENERATED_COMMANDS")) == D3D12XS_CONFIG_ON;
    copy_string(config->trace, sizeof(config->trace), VALUE("D3D12XS_TRACE"));
    config->exit_teardown = parse_switch(VALUE("D3D12XS_EXIT_TEARDOWN"));
#undef VALUE
}

/* ---- the process configuration ---- */

static pthread_once_t process_once = PTHREAD_ONCE_INIT;
static struct d3d12xs_config process_config;
static struct d3d12xs_config_warnings process_warnings;
static atomic_bool process_warnings_pending;

static const char *environment_lookup(const char *name, void *context)
{
    (void)context;
    return getenv(name);
}

static void load_process_config(void)
{
    d3d12xs_config_parse(environment_lookup, NULL, &process_config, &process_warnings);
    atomic_store(&process_warnings_pending, process_warnings.count > 0);
}

const struct d3d12xs_config *d3d12xs_config(void)
{
    pthread_once(&process_once, load_process_config);
    return &process_config;
}

bool d3d12xs_config_take_warnings(struct d3d12xs_config_warnings *warnings)
{
    d3d12xs_config();
    if (!atomic_load(&process_warnings_pending) || !atomic_exchange(&process_warnings_pending, false))
        return false;
    *warnings = process_warnings;
    return true;
}
