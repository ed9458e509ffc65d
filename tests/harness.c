#include "pin_vulkan_modules.h" /* first: it needs _GNU_SOURCE before any system header */
#include <errno.h>
#include <pthread.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include <d3dcompiler.h>

#include "harness.h"

extern char **environ;

static unsigned passed, failed;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char **error_lines;
static bool *claimed;
static size_t error_count, error_capacity;
static size_t warning_count;
static char last_warning[512];

static void log_callback(D3D12XS_LOG_LEVEL level, const char *line, void *user)
{
    (void)user;
    if (level == D3D12XS_LOG_LEVEL_WARN) {
        pthread_mutex_lock(&lock);
        warning_count++;
        snprintf(last_warning, sizeof(last_warning), "%s", line);
        pthread_mutex_unlock(&lock);
        return;
    }
    if (level != D3D12XS_LOG_LEVEL_ERROR)
        return;
    pthread_mutex_lock(&lock);
    if (error_count == error_capacity) {
        error_capacity = error_capacity ? error_capacity * 2 : 64;
        error_lines = realloc(error_lines, error_capacity * sizeof(*error_lines));
        claimed = realloc(claimed, error_capacity * sizeof(*claimed));
        if (!error_lines || !claimed) {
            fprintf(stderr, "harness: out of memory\n");
            abort();
        }
    }
    error_lines[error_count] = strdup(line);
    claimed[error_count] = false;
    error_count++;
    pthread_mutex_unlock(&lock);
}

void harness_init(void)
{
    D3D12XSSetLogCallback(log_callback, NULL);
}

void harness_check(bool ok, const char *file, int line, const char *fmt, ...)
{
    va_list args;
    pthread_mutex_lock(&lock);
    if (ok) {
        passed++;
    } else {
        failed++;
        fprintf(stderr, "%s:%d: check failed: ", file, line);
        va_start(args, fmt);
        vfprintf(stderr, fmt, args);
        va_end(args);
        fputc('\n', stderr);
    }
    pthread_mutex_unlock(&lock);
}

size_t harness_warning_count(void)
{
    size_t count;
    pthread_mutex_lock(&lock);
    count = warning_count;
    pthread_mutex_unlock(&lock);
    return count;
}

bool harness_last_warning_has(const char *needle)
{
    bool found;
    pthread_mutex_lock(&lock);
    found = strstr(last_warning, needle) != NULL;
    pthread_mutex_unlock(&lock);
    return found;
}

void harness_check_debug_warnings(size_t before, size_t n, const char *needle, const char *file, int line)
{
    const char *debug = getenv("D3D12XS_DEBUG");
    size_t expected = debug && strcmp(debug, "0") ? n : 0, got = harness_warning_count() - before;
    harness_check(got == expected && (!expected || harness_last_warning_has(needle)), file, line,
            "expected %zu debug-layer warning(s) holding \"%s\", got %zu (last: %s)", expected, needle, got, last_warning);
}

size_t harness_log_mark(void)
{
    size_t mark;
    pthread_mutex_lock(&lock);
    mark = error_count;
    pthread_mutex_unlock(&lock);
    return mark;
}

void harness_check_log(size_t mark, const char *file, int line, ...)
{
    size_t count;
    bool ok = true;
    va_list args;
    const char *needle;
    char *text;

    pthread_mutex_lock(&lock);
    count = error_count - mark;
    text = count ? strdup(error_lines[error_count - 1]) : strdup("(none)");
    for (size_t i = mark; i < error_count; i++)
        claimed[i] = true;
    pthread_mutex_unlock(&lock);
    if (count != 1)
        ok = false;
    va_start(args, line);
    while ((needle = va_arg(args, const char *)))
        if (!strstr(text, needle))
            ok = false;
    va_end(args);
    harness_check(ok, file, line, "expected exactly one error line naming the argument and rule; got %zu, last: %s", count, text);
    free(text);
}

void harness_check_log_count(size_t mark, size_t n, const char *file, int line)
{
    size_t count;
    pthread_mutex_lock(&lock);
    count = error_count - mark;
    for (size_t i = mark; i < error_count; i++)
        claimed[i] = true;
    pthread_mutex_unlock(&lock);
    harness_check(count == n, file, line, "expected %zu error lines, got %zu", n, count);
}

int harness_finish(void)
{
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < error_count; i++) {
        if (!claimed[i]) {
            failed++;
            fprintf(stderr, "unexpected error line: %s\n", error_lines[i]);
        }
        free(error_lines[i]);
    }
    free(error_lines);
    free(claimed);
    error_lines = NULL;
    claimed = NULL;
    error_count = error_capacity = 0;
    printf("%u passed, %u failed\n", passed, failed);
    pthread_mutex_unlock(&lock);
    D3D12XSSetLogCallback(NULL, NULL);
    return failed ? 1 : 0;
}

ID3D12Device *harness_create_device(void)
{
    ID3D12Device *device = NULL;
    HRESULT hr = D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&device);
    if (FAILED(hr) || !device) {
        fprintf(stderr, "D3D12CreateDevice failed: 0x%08x\n", (unsigned)hr);
        exit(1);
    }
    d3d12xs_test_pin_vulkan_modules();
    return device;
}

ID3D12CommandQueue *harness_create_queue(ID3D12Device *device, D3D12_COMMAND_LIST_TYPE type)
{
    D3D12_COMMAND_QUEUE_DESC desc = {type, D3D12_COMMAND_QUEUE_PRIORITY_NORMAL, D3D12_COMMAND_QUEUE_FLAG_NONE, 0};
    ID3D12CommandQueue *queue = NULL;
    HRESULT hr = ID3D12Device_CreateCommandQueue(device, &desc, &IID_ID3D12CommandQueue, (void **)&queue);
    CHECK_MSG(SUCCEEDED(hr) && queue, "CreateCommandQueue(type %d) returned 0x%08x", (int)type, (unsigned)hr);
    return queue;
}

D3D12_RESOURCE_DESC harness_texture_desc(D3D12_RESOURCE_DIMENSION dimension, DXGI_FORMAT format, UINT64 width, UINT height,
        UINT16 depth_or_array, UINT16 mips)
{
    D3D12_RESOURCE_DESC desc;
    memset(&desc, 0, sizeof(desc));
    desc.Dimension = dimension;
    desc.Width = width;
    desc.Height = height;
    desc.DepthOrArraySize = depth_or_array;
    desc.MipLevels = mips;
    desc.Format = format;
    desc.SampleDesc.Count = 1;
    desc.Layout = D3D12_TEXTURE_LAYOUT_UNKNOWN;
    return desc;
}

D3D12_HEAP_PROPERTIES harness_heap_properties(D3D12_HEAP_TYPE type)
{
    D3D12_HEAP_PROPERTIES properties;
    memset(&properties, 0, sizeof(properties));
    properties.Type = type;
    return properties;
}

D3D12_RESOURCE_DESC harness_buffer_desc(UINT64 size)
{
    D3D12_RESOURCE_DESC desc;
    memset(&desc, 0, sizeof(desc));
    desc.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
    desc.Width = size;
    desc.Height = 1;
    desc.DepthOrArraySize = 1;
    desc.MipLevels = 1;
    desc.Format = DXGI_FORMAT_UNKNOWN;
    desc.SampleDesc.Count = 1;
    desc.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    return desc;
}

ID3D12Resource *harness_create_buffer(ID3D12Device *device, D3D12_HEAP_TYPE heap_type, UINT64 size, D3D12_RESOURCE_STATES state)
{
    D3D12_HEAP_PROPERTIES properties = harness_heap_properties(heap_type);
    D3D12_RESOURCE_DESC desc = harness_buffer_desc(size);
    ID3D12Resource *resource = NULL;
    HRESULT hr = ID3D12Device_CreateCommittedResource(device, &properties, D3D12_HEAP_FLAG_NONE, &desc, state, NULL,
            &IID_ID3D12Resource, (void **)&resource);
    CHECK_MSG(SUCCEEDED(hr) && resource, "CreateCommittedResource(heap %d, %llu bytes) returned 0x%08x", (int)heap_type,
            (unsigned long long)size, (unsigned)hr);
    return resource;
}

ID3D12Resource *harness_upload_buffer(ID3D12Device *device, const void *data, size_t size)
{
    ID3D12Resource *buffer = harness_create_buffer(device, D3D12_HEAP_TYPE_UPLOAD, size, D3D12_RESOURCE_STATE_GENERIC_READ);
    void *mapped = NULL;
    if (!buffer)
        return NULL;
    CHECK_HR(ID3D12Resource_Map(buffer, 0, NULL, &mapped), S_OK);
    if (mapped)
        memcpy(mapped, data, size);
    ID3D12Resource_Unmap(buffer, 0, NULL);
    return buffer;
}

ID3D12CommandSignature *harness_command_signature(ID3D12Device *device, const D3D12_INDIRECT_ARGUMENT_DESC *arguments, UINT count,
        UINT stride, ID3D12RootSignature *root)
{
    D3D12_COMMAND_SIGNATURE_DESC desc = {stride, count, arguments, 0};
    ID3D12CommandSignature *signature = NULL;
    CHECK_HR(ID3D12Device_CreateCommandSignature(device, &desc, root, &IID_ID3D12CommandSignature, (void **)&signature), S_OK);
    return signature;
}

struct harness_list harness_create_list(ID3D12Device *device, D3D12_COMMAND_LIST_TYPE type)
{
    struct harness_list list = {NULL, NULL};
    HRESULT hr = ID3D12Device_CreateCommandAllocator(device, type, &IID_ID3D12CommandAllocator, (void **)&list.allocator);
    CHECK_MSG(SUCCEEDED(hr), "CreateCommandAllocator returned 0x%08x", (unsigned)hr);
    hr = ID3D12Device_CreateCommandList(device, 0, type, list.allocator, NULL, &IID_ID3D12GraphicsCommandList2, (void **)&list.list);
    CHECK_MSG(SUCCEEDED(hr), "CreateCommandList returned 0x%08x", (unsigned)hr);
    return list;
}

void harness_release_list(struct harness_list *list)
{
    if (list->list)
        ID3D12GraphicsCommandList2_Release(list->list);
    if (list->allocator)
        ID3D12CommandAllocator_Release(list->allocator);
    list->list = NULL;
    list->allocator = NULL;
}

void harness_execute_and_wait(ID3D12Device *device, ID3D12CommandQueue *queue, struct harness_list *list)
{
    ID3D12Fence *fence = NULL;
    ID3D12CommandList *lists[1];

    CHECK_HR(ID3D12GraphicsCommandList2_Close(list->list), S_OK);
    lists[0] = (ID3D12CommandList *)list->list;
    ID3D12CommandQueue_ExecuteCommandLists(queue, 1, lists);
    CHECK_HR(ID3D12Device_CreateFence(device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&fence), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, 1), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 1, NULL), S_OK);
    ID3D12Fence_Release(fence);
}

void harness_release_device(ID3D12Device *device)
{
    CHECK_MSG(D3D12XSGetValidationMessageCount(device) == 0, "the validation layer reported %llu messages",
            (unsigned long long)D3D12XSGetValidationMessageCount(device));
    ULONG refcount = ID3D12Device_Release(device);
    CHECK_MSG(refcount == 0, "device refcount is %u after the last Release (a child object leaked)", (unsigned)refcount);
}

ID3D12Fence *harness_create_fence(ID3D12Device *device, UINT64 initial_value)
{
    ID3D12Fence *fence = NULL;
    CHECK_HR(ID3D12Device_CreateFence(device, initial_value, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&fence), S_OK);
    return fence;
}

uint64_t harness_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

void harness_sleep_ms(unsigned ms)
{
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

ID3D12Resource *harness_uav_buffer(ID3D12Device *device, UINT64 size)
{
    D3D12_HEAP_PROPERTIES heap = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    D3D12_RESOURCE_DESC desc = harness_buffer_desc(size);
    ID3D12Resource *resource = NULL;
    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_UNORDERED_ACCESS,
            NULL, &IID_ID3D12Resource, (void **)&resource), S_OK);
    return resource;
}

ID3D12PipelineState *harness_compute_pipeline(ID3D12Device *device, ID3D12RootSignature *signature, ID3D10Blob *code)
{
    D3D12_COMPUTE_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *state = NULL;
    memset(&desc, 0, sizeof(desc));
    desc.pRootSignature = signature;
    desc.CS.pShaderBytecode = ID3D10Blob_GetBufferPointer(code);
    desc.CS.BytecodeLength = ID3D10Blob_GetBufferSize(code);
    CHECK_HR(ID3D12Device_CreateComputePipelineState(device, &desc, &IID_ID3D12PipelineState, (void **)&state), S_OK);
    return state;
}

ID3D10Blob *harness_compile(const char *source, UINT flags)
{
    ID3D10Blob *code = NULL, *errors = NULL;
    HRESULT hr = D3DCompile(source, strlen(source), "test.hlsl", NULL, D3D_COMPILE_STANDARD_FILE_INCLUDE, "main", "cs_6_0", flags, 0,
            &code, &errors);
    CHECK_MSG(SUCCEEDED(hr), "D3DCompile failed: %s", errors ? (const char *)ID3D10Blob_GetBufferPointer(errors) : "?");
    if (errors)
        ID3D10Blob_Release(errors);
    return code;
}

ID3D10Blob *harness_compile_stage(const char *source, const char *entry, const char *target)
{
    ID3D10Blob *code = NULL, *errors = NULL;
    HRESULT hr = D3DCompile(source, strlen(source), "stage.hlsl", NULL, D3D_COMPILE_STANDARD_FILE_INCLUDE, entry, target, 0, 0, &code,
            &errors);
    CHECK_MSG(SUCCEEDED(hr), "D3DCompile(%s, %s) failed: %s", entry, target, errors ? (const char *)ID3D10Blob_GetBufferPointer(errors) : "?");
    if (errors)
        ID3D10Blob_Release(errors);
    return code;
}

void harness_graphics_desc(D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc, ID3D12RootSignature *signature, ID3D10Blob *vs, ID3D10Blob *ps)
{
    memset(desc, 0, sizeof(*desc));
    desc->pRootSignature = signature;
    if (vs) {
        desc->VS.pShaderBytecode = ID3D10Blob_GetBufferPointer(vs);
        desc->VS.BytecodeLength = ID3D10Blob_GetBufferSize(vs);
    }
    if (ps) {
        desc->PS.pShaderBytecode = ID3D10Blob_GetBufferPointer(ps);
        desc->PS.BytecodeLength = ID3D10Blob_GetBufferSize(ps);
    }
    for (int i = 0; i < D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT; i++) {
        D3D12_RENDER_TARGET_BLEND_DESC *rt = &desc->BlendState.RenderTarget[i];
        rt->SrcBlend = rt->SrcBlendAlpha = D3D12_BLEND_ONE;
        rt->DestBlend = rt->DestBlendAlpha = D3D12_BLEND_ZERO;
        rt->BlendOp = rt->BlendOpAlpha = D3D12_BLEND_OP_ADD;
        rt->LogicOp = D3D12_LOGIC_OP_NOOP;
        rt->RenderTargetWriteMask = D3D12_COLOR_WRITE_ENABLE_ALL;
    }
    desc->SampleMask = UINT32_MAX;
    desc->RasterizerState.FillMode = D3D12_FILL_MODE_SOLID;
    desc->RasterizerState.CullMode = D3D12_CULL_MODE_BACK;
    desc->RasterizerState.DepthClipEnable = TRUE;
    desc->DepthStencilState.DepthEnable = TRUE;
    desc->DepthStencilState.DepthWriteMask = D3D12_DEPTH_WRITE_MASK_ALL;
    desc->DepthStencilState.DepthFunc = D3D12_COMPARISON_FUNC_LESS;
    desc->DepthStencilState.StencilReadMask = desc->DepthStencilState.StencilWriteMask = 0xff;
    desc->DepthStencilState.FrontFace = desc->DepthStencilState.BackFace = (D3D12_DEPTH_STENCILOP_DESC){D3D12_STENCIL_OP_KEEP,
            D3D12_STENCIL_OP_KEEP, D3D12_STENCIL_OP_KEEP, D3D12_COMPARISON_FUNC_ALWAYS};
    desc->PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
    desc->NumRenderTargets = 1;
    desc->RTVFormats[0] = DXGI_FORMAT_R8G8B8A8_UNORM;
    desc->SampleDesc.Count = 1;
}

ID3D12RootSignature *harness_root_signature(ID3D12Device *device, const D3D12_ROOT_PARAMETER1 *parameters, UINT count,
        D3D12_ROOT_SIGNATURE_FLAGS flags)
{
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc;
    ID3D10Blob *blob = NULL, *errors = NULL;
    ID3D12RootSignature *signature = NULL;

    memset(&desc, 0, sizeof(desc));
    desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    desc.Desc_1_1.NumParameters = count;
    desc.Desc_1_1.pParameters = parameters;
    desc.Desc_1_1.Flags = flags;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&desc, &blob, &errors), S_OK);
    if (errors)
        ID3D10Blob_Release(errors);
    if (!blob)
        return NULL;
    CHECK_HR(ID3D12Device_CreateRootSignature(device, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
            &IID_ID3D12RootSignature, (void **)&signature), S_OK);
    ID3D10Blob_Release(blob);
    return signature;
}

void harness_read_back(ID3D12Device *device, ID3D12CommandQueue *queue, ID3D12Resource *buffer, void *data, size_t size)
{
    ID3D12Resource *readback = harness_create_buffer(device, D3D12_HEAP_TYPE_READBACK, size, D3D12_RESOURCE_STATE_COPY_DEST);
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    void *mapped = NULL;
    memset(data, 0xcd, size);
    ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, readback, 0, buffer, 0, size);
    harness_execute_and_wait(device, queue, &list);
    CHECK_HR(ID3D12Resource_Map(readback, 0, NULL, &mapped), S_OK);
    if (mapped)
        memcpy(data, mapped, size);
    ID3D12Resource_Unmap(readback, 0, NULL);
    harness_release_list(&list);
    ID3D12Resource_Release(readback);
}

/* NAME=value replaces or adds NAME; a bare NAME removes it. */
static bool changes_variable(const char *const *changes, const char *entry)
{
    size_t length = strcspn(entry, "=");
    for (size_t i = 0; changes[i]; i++)
        if (strcspn(changes[i], "=") == length && !strncmp(changes[i], entry, length))
            return true;
    return false;
}

bool harness_run_self(const char *argument, const char *const *environment_changes)
{
    size_t count = 0, changes = 0, n = 0;
    char *argv[] = {(char *)"/proc/self/exe", (char *)argument, NULL};
    char **envp;
    pid_t pid;
    int status = 0;

    while (environ[count])
        count++;
    while (environment_changes[changes])
        changes++;
    if (!(envp = calloc(count + changes + 1, sizeof(*envp))))
        return false;
    for (size_t i = 0; i < count; i++)
        if (!changes_variable(environment_changes, environ[i]))
            envp[n++] = environ[i];
    for (size_t i = 0; i < changes; i++)
        if (strchr(environment_changes[i], '='))
            envp[n++] = (char *)environment_changes[i];
    fflush(NULL);
    status = posix_spawn(&pid, "/proc/self/exe", NULL, NULL, argv, envp);
    free(envp);
    if (status) {
        fprintf(stderr, "harness: cannot run this test again (%s): %s\n", argument, strerror(status));
        return false;
    }
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR)
            return false;
    }
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}
