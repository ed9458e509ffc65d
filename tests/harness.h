/* A small test harness: checks count as passed/failed, every error line the library logs
 * must be claimed by a CHECK_LOG (so validation-layer messages and stray errors fail the
 * test), and helpers for the usual device/queue/buffer chores. */
#ifndef D3D12XS_TEST_HARNESS_H
#define D3D12XS_TEST_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <d3d12.h>
#include <d3d12_xs.h>

#ifdef __cplusplus
extern "C" {
#endif

void harness_check(bool ok, const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Number of error lines logged so far: a mark for harness_check_log. */
size_t harness_log_mark(void);
/* Warning lines (debug-layer warnings: never a failed call) logged so far, and whether the
 * latest contains needle. */
size_t harness_warning_count(void);
bool harness_last_warning_has(const char *needle);
/* Debug-layer warnings come only with the debug layer on (D3D12XS_DEBUG set and not 0): exactly
 * n warning lines since the count `before`, the latest holding needle; none with it off. */
void harness_check_debug_warnings(size_t before, size_t n, const char *needle, const char *file, int line);
#define CHECK_DEBUG_WARNINGS(before, n, needle) harness_check_debug_warnings(before, n, needle, __FILE__, __LINE__)
/* Exactly one error line since mark, and it contains every NULL-terminated needle. */
void harness_check_log(size_t mark, const char *file, int line, ...);
/* Exactly n error lines since mark (claims them). */
void harness_check_log_count(size_t mark, size_t n, const char *file, int line);
/* Prints "N passed, M failed" and returns the exit status. */
int harness_finish(void);
void harness_init(void);

#define CHECK(cond) harness_check(!!(cond), __FILE__, __LINE__, "%s", #cond)
#define CHECK_MSG(cond, ...) harness_check(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define CHECK_HR(expr, expected) do { HRESULT hr_ = (expr); harness_check(hr_ == (HRESULT)(expected), __FILE__, __LINE__, \
        "%s returned 0x%08x, expected 0x%08x", #expr, (unsigned)hr_, (unsigned)(expected)); } while (0)
#define LOG_MARK() size_t log_mark_ = harness_log_mark()
#define RELOG_MARK() (log_mark_ = harness_log_mark())
#define CHECK_LOG(...) harness_check_log(log_mark_, __FILE__, __LINE__, __VA_ARGS__, (const char *)NULL)
#define CHECK_NO_LOG() harness_check_log_count(log_mark_, 0, __FILE__, __LINE__)

/* ---- D3D12 chores ---- */
ID3D12Device *harness_create_device(void);
ID3D12CommandQueue *harness_create_queue(ID3D12Device *device, D3D12_COMMAND_LIST_TYPE type);
ID3D12Resource *harness_create_buffer(ID3D12Device *device, D3D12_HEAP_TYPE heap_type, UINT64 size, D3D12_RESOURCE_STATES state);
/* An UPLOAD buffer (GENERIC_READ) holding size bytes of data. */
ID3D12Resource *harness_upload_buffer(ID3D12Device *device, const void *data, size_t size);
/* A command signature of count arguments, stride bytes a command, root signature root (or NULL). */
ID3D12CommandSignature *harness_command_signature(ID3D12Device *device, const D3D12_INDIRECT_ARGUMENT_DESC *arguments, UINT count,
        UINT stride, ID3D12RootSignature *root);
D3D12_RESOURCE_DESC harness_buffer_desc(UINT64 size);
D3D12_HEAP_PROPERTIES harness_heap_properties(D3D12_HEAP_TYPE type);
/* A single-sampled texture of layout UNKNOWN without flags. */
D3D12_RESOURCE_DESC harness_texture_desc(D3D12_RESOURCE_DIMENSION dimension, DXGI_FORMAT format, UINT64 width, UINT height,
        UINT16 depth_or_array, UINT16 mips);

struct harness_list {
    ID3D12CommandAllocator *allocator;
    ID3D12GraphicsCommandList2 *list;
};
struct harness_list harness_create_list(ID3D12Device *device, D3D12_COMMAND_LIST_TYPE type);
void harness_release_list(struct harness_list *list);
/* Closes the list, executes it on queue and waits for it with a fence; checks each step. */
void harness_execute_and_wait(ID3D12Device *device, ID3D12CommandQueue *queue, struct harness_list *list);
ID3D12Fence *harness_create_fence(ID3D12Device *device, UINT64 initial_value);
/* A DEFAULT-heap buffer with ALLOW_UNORDERED_ACCESS, in the UNORDERED_ACCESS state. */
ID3D12Resource *harness_uav_buffer(ID3D12Device *device, UINT64 size);
/* A compute pipeline from SPIR-V in a blob (e.g. D3DCompile's). */
ID3D12PipelineState *harness_compute_pipeline(ID3D12Device *device, ID3D12RootSignature *signature, ID3D10Blob *code);
/* HLSL through D3DCompile (entry "main", cs_6_0, the standard include handler, D3DCOMPILE_*
 * flags); NULL after a failed check. */
ID3D10Blob *harness_compile(const char *source, UINT flags);
/* HLSL through D3DCompile for any stage (entry, target such as "vs_5_0"); NULL after a failed check. */
ID3D10Blob *harness_compile_stage(const char *source, const char *entry, const char *target);
/* A graphics pipeline description with D3D12's defaults (d3dx12's D3D12_DEFAULT blend,
 * rasterizer and depth-stencil states, SampleMask UINT_MAX, one sample, triangles), the given
 * root signature and shaders (ps may be NULL), one RGBA8 render target and no depth format. */
void harness_graphics_desc(D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc, ID3D12RootSignature *signature, ID3D10Blob *vs, ID3D10Blob *ps);
/* A version 1.1 root signature of these parameters, serialized and created. */
ID3D12RootSignature *harness_root_signature(ID3D12Device *device, const D3D12_ROOT_PARAMETER1 *parameters, UINT count,
        D3D12_ROOT_SIGNATURE_FLAGS flags);
/* Copies size bytes of buffer into data through a READBACK buffer on queue (a DIRECT queue). */
void harness_read_back(ID3D12Device *device, ID3D12CommandQueue *queue, ID3D12Resource *buffer, void *data, size_t size);
uint64_t harness_now_ms(void);
void harness_sleep_ms(unsigned ms);
/* Releases the device and checks that nothing leaked a reference to it. */
void harness_release_device(ID3D12Device *device);
/* Runs this test program again with argument as its only argument, in an environment changed
 * by environment_changes (NULL-terminated; "NAME=value" sets, "NAME" removes): how a test sees
 * a configuration other than its own, which the library reads once per process. True when the
 * child passed (exit status 0); its checks print in its own "N passed, M failed" line. */
bool harness_run_self(const char *argument, const char *const *environment_changes);

#ifdef __cplusplus
}
#endif

#endif
