/* The D3D12XS_* environment variables, parsed in one place (config.c) with one rule each.
 *
 * The process reads its configuration once, at first use (d3d12xs_config). Each device
 * copies it at D3D12CreateDevice and adds what the program asked for (EnableDebugLayer,
 * device/debug.c): code that runs for a device reads device->config; code without a
 * device (D3DCompile, the log level) reads the process configuration. */
#ifndef D3D12XS_CONFIG_H
#define D3D12XS_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

/* D3D12XS_DEBUG and D3D12XS_CONSOLE_VALIDATION: unset leaves the choice to the program
 * (EnableDebugLayer) or to the default; 0 forces off, anything else forces on. */
enum d3d12xs_config_switch {
    D3D12XS_CONFIG_UNSET,
    D3D12XS_CONFIG_OFF,
    D3D12XS_CONFIG_ON,
};

/* Whether console memory waits may be waited out by the GPU (D3D12XS_GPU_WAITS, sync/gpu_wait.h). */
enum d3d12_gpu_wait_mode {
    D3D12_GPU_WAITS_OFF,
    D3D12_GPU_WAITS_AUTO,      /* queue order (the writer is already submitted to the same VkQueue), or the
                                * writer queue's serial semaphore when the writer is on another family */
    D3D12_GPU_WAITS_SPIN,      /* spins instead of semaphores across families where a spin is safe */
    D3D12_GPU_WAITS_FORCE,     /* spins whenever the writer is already submitted (tests, one-queue devices) */
    D3D12_GPU_WAITS_SEMAPHORE, /* semaphores whenever the writer is already submitted (tests, one-queue devices) */
    D3D12_GPU_WAITS_INLINE,    /* experiment: waits on graphics memory spin inside the list's command buffer
                                * (no cut; a value the CPU writes is never seen on the H200) */
};

#define D3D12XS_CONFIG_DEFAULT_HANG_TIMEOUT_MS 20000u
#define D3D12XS_CONFIG_DEFAULT_COMPILE_TIMEOUT_MS 60000
#define D3D12XS_CONFIG_MAX_SPLIT_LISTS 999999u

struct d3d12xs_config {
    char device[256];                    /* D3D12XS_DEVICE: an index or part of a name; "" = the best device */
    int log_level;                       /* D3D12XS_LOG: a D3D12XS_LOG_LEVEL, or -1 for none */
    enum d3d12xs_config_switch debug;    /* D3D12XS_DEBUG: validation layer and SPIR-V validation */
    unsigned hang_timeout_ms;            /* D3D12XS_HANG_TIMEOUT_MS (0 = never) */
    uint32_t split_lists_every;          /* D3D12XS_SPLIT_LISTS (0 = lists are not cut) */
    bool copy_transfer_only;             /* D3D12XS_COPY_TRANSFER_ONLY */
    bool compute_without_graphics;       /* D3D12XS_COMPUTE_WITHOUT_GRAPHICS */
    enum d3d12_gpu_wait_mode gpu_waits;  /* D3D12XS_GPU_WAITS */
    enum d3d12xs_config_switch console_validation; /* D3D12XS_CONSOLE_VALIDATION (unset: with the validation layer) */
    int64_t compile_timeout_ms;          /* D3D12XS_COMPILE_TIMEOUT_MS */
    char hlslc[4096];                    /* D3D12XS_HLSLC: the compiler helper; "" = next to the library */
    bool no_vectorize;                   /* D3D12XS_NO_VECTORIZE */
    bool no_generated_commands;          /* D3D12XS_NO_GENERATED_COMMANDS: VK_EXT_device_generated_commands stays off */
    char trace[4096];                    /* D3D12XS_TRACE: the trace file written from the first device on; "" = none */
    /* D3D12XS_EXIT_TEARDOWN: devices alive at exit taken down first (api/process_exit.h); unset:
     * where the driver needs it (NVIDIA's) */
    enum d3d12xs_config_switch exit_teardown;
};

/* The values a variable has, or NULL where it is unset (getenv, or a test's table). */
typedef const char *(*d3d12xs_config_lookup)(const char *name, void *context);

/* The lines owed for values a rule refuses (one per variable at most). */
#define D3D12XS_CONFIG_MAX_WARNINGS 16
struct d3d12xs_config_warnings {
    unsigned count;
    char lines[D3D12XS_CONFIG_MAX_WARNINGS][320];
};

/* Applies every variable's rule to what lookup gives; a refused value keeps the default and
 * adds one line to warnings (which may be NULL). Logs nothing itself. */
void d3d12xs_config_parse(d3d12xs_config_lookup lookup, void *context, struct d3d12xs_config *config,
        struct d3d12xs_config_warnings *warnings);

/* The process configuration: the environment as it was at the first call (pthread_once).
 * Logs nothing: common/log.c, which reads the level from it, logs its warnings. */
const struct d3d12xs_config *d3d12xs_config(void);
/* The process configuration's warnings, once: true and *warnings filled for the first caller
 * after the first read, false afterwards. */
bool d3d12xs_config_take_warnings(struct d3d12xs_config_warnings *warnings);

/* Whether the SPIR-V validator checks the modules made under this configuration. */
static inline bool d3d12xs_config_validates_spirv(const struct d3d12xs_config *config)
{
    return config->debug == D3D12XS_CONFIG_ON;
}

#endif
