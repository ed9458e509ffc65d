/* Helpers shared by the benchmarks (bench_compute.c, bench_launch.c, bench_copy.c,
 * bench_pipeline.c, bench_binding.c, ...): failure macros, timing and medians, the D3D12 calls
 * every figure needs, child processes and vkd3d peers, and a hand-written raw-Vulkan device on the
 * physical device and queue families d3d12xs uses (docs/benchmarks.md). Everything is static
 * inline so that a benchmark that uses only part of it builds without unused-function warnings. */
#ifndef D3D12XS_BENCH_UTIL_H
#define D3D12XS_BENCH_UTIL_H

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <shaderc/shaderc.h>
#include <vulkan/vulkan.h>

/* BENCH_VKD3D: the program is built against Wine's vkd3d instead (a peer, e.g. bench_pipeline_vkd3d):
 * its D3D12 API with D3D12CreateDevice from vkd3d-utils, and no D3DCompile. */
#ifdef BENCH_VKD3D
#ifndef COBJMACROS
#define COBJMACROS
#endif
#include <vkd3d_utils.h>
#else
#include <d3d12.h>
#include <d3d12_xs.h>
#include <d3dcompiler.h>
#endif

#define BENCH_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define BENCH_MAX_REPS 64
/* The most samples a median or a paired ratio takes (CPU figures take up to a few hundred): more
 * is a benchmark's mistake, and stops the run rather than overrun the scratch arrays. */
#define BENCH_MAX_SAMPLES 1024

/* The start of every benchmark kernel: the same HLSL goes through D3DCompile for d3d12xs and
 * (with RAW_VULKAN defined) through shaderc for raw Vulkan; only the binding annotations
 * differ, since d3d12xs maps registers through the root signature. */
#define BENCH_HLSL_PROLOGUE \
    "#ifdef RAW_VULKAN\n" \
    "#define PUSH_CONSTANTS(name) [[vk::push_constant]] cbuffer name\n" \
    "#define BINDING(n) [[vk::binding(n, 0)]]\n" \
    "#else\n" \
    "#define PUSH_CONSTANTS(name) cbuffer name : register(b0)\n" \
    "#define BINDING(n)\n" \
    "#endif\n"

/* ---- failure, timing, statistics ------------------------------------------------------- */

extern const char *bench_name;

static inline void bench_fail(int line, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
static inline void bench_fail(int line, const char *fmt, ...)
{
    va_list args;
    fprintf(stderr, "%s: line %d: ", bench_name, line);
    va_start(args, fmt);
    vfprintf(stderr, fmt, args);
    va_end(args);
    fputc('\n', stderr);
    exit(1);
}

#define HR(expr) do { HRESULT hr_ = (expr); \
        if (FAILED(hr_)) bench_fail(__LINE__, "%s failed: HRESULT 0x%08x", #expr, (unsigned)hr_); } while (0)
#define VK(expr) do { VkResult vr_ = (expr); \
        if (vr_ != VK_SUCCESS) bench_fail(__LINE__, "%s failed: VkResult %d", #expr, (int)vr_); } while (0)
#define REQUIRE(cond, ...) do { if (!(cond)) bench_fail(__LINE__, __VA_ARGS__); } while (0)

static inline double bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* CPU time of the calling thread: for work that never waits, what the machine's other load
 * does not stretch. */
static inline double bench_thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static inline int bench_compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static inline double bench_median(const double *values, unsigned count)
{
    double sorted[BENCH_MAX_SAMPLES];
    if (!count)
        return 0.0;
    if (count > BENCH_MAX_SAMPLES) {
        fprintf(stderr, "bench_median: %u samples (at most %u)\n", count, BENCH_MAX_SAMPLES);
        abort();
    }
    memcpy(sorted, values, count * sizeof(*values));
    qsort(sorted, count, sizeof(*sorted), bench_compare_doubles);
    return count % 2 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2;
}

/* A figure of many samples: their median and minimum. */
struct bench_figure {
    double median, min;
    unsigned count;
};

/* Sorts the samples in place. */
static inline struct bench_figure bench_figure_of(double *samples, unsigned count)
{
    struct bench_figure f = {0, 0, count};
    if (!count)
        return f;
    qsort(samples, count, sizeof(*samples), bench_compare_doubles);
    f.median = count % 2 ? samples[count / 2] : (samples[count / 2 - 1] + samples[count / 2]) / 2;
    f.min = samples[0];
    return f;
}

/* Rates of the two sides, sampled back to back in each repetition. */
struct bench_rates {
    double d3d12xs, raw;          /* medians */
    double paired;                /* median over repetitions of d3d12xs rate / raw rate */
    double d3d12xs_min, d3d12xs_max, raw_min, raw_max;
};

static inline struct bench_rates bench_rates(const double *d3d, const double *raw, unsigned count)
{
    struct bench_rates r;
    double pairs[BENCH_MAX_SAMPLES];
    r.d3d12xs = bench_median(d3d, count); /* which stops the run for a count past BENCH_MAX_SAMPLES */
    r.raw = bench_median(raw, count);
    r.d3d12xs_min = r.d3d12xs_max = d3d[0];
    r.raw_min = r.raw_max = raw[0];
    for (unsigned i = 0; i < count; i++) {
        pairs[i] = d3d[i] / raw[i];
        r.d3d12xs_min = d3d[i] < r.d3d12xs_min ? d3d[i] : r.d3d12xs_min;
        r.d3d12xs_max = d3d[i] > r.d3d12xs_max ? d3d[i] : r.d3d12xs_max;
        r.raw_min = raw[i] < r.raw_min ? raw[i] : r.raw_min;
        r.raw_max = raw[i] > r.raw_max ? raw[i] : r.raw_max;
    }
    r.paired = bench_median(pairs, count);
    return r;
}

/* One row of a benchmark's table: a figure of d3d12xs next to raw Vulkan's. */
struct bench_row {
    const char *arg;       /* the command-line argument that selects the figure */
    const char *key;       /* TSV name */
    const char *label;
    const char *unit;
    bool higher_is_better; /* a rate (GB/s), whose cost is its inverse */
    double target;         /* ratio at or below which the figure is on target */
    bool measured;
    struct bench_rates rates; /* paired: median over repetitions of (d3d12xs cost / raw cost) of the same repetition */
};

static inline void bench_row_set(struct bench_row *f, const double *d3d_samples, const double *raw_samples, unsigned count)
{
    struct bench_rates s;

    f->measured = true;
    if (!f->higher_is_better) {
        f->rates = bench_rates(d3d_samples, raw_samples, count);
        return;
    }
    /* A rate's cost is its inverse: pair raw / d3d12xs, then put each side back in its place. */
    s = bench_rates(raw_samples, d3d_samples, count);
    f->rates = (struct bench_rates){.d3d12xs = s.raw, .raw = s.d3d12xs, .paired = s.paired, .d3d12xs_min = s.raw_min,
            .d3d12xs_max = s.raw_max, .raw_min = s.d3d12xs_min, .raw_max = s.d3d12xs_max};
}

/* d3d12xs's cost over raw Vulkan's from the medians: above 1 means d3d12xs is slower. */
static inline double bench_row_ratio(const struct bench_row *f)
{
    return f->higher_is_better ? f->rates.raw / f->rates.d3d12xs : f->rates.d3d12xs / f->rates.raw;
}

/* The table of the measured figures, labels label_width wide. */
static inline void bench_rows_print(const struct bench_row *figures, unsigned count, int label_width)
{
    printf("\n%-*s %10s %11s %7s %8s %8s   %s\n", label_width, "figure", "d3d12xs", "raw Vulkan", "ratio", "target", "med/med",
            "range d3d12xs | raw");
    for (unsigned i = 0; i < count; i++) {
        const struct bench_row *f = &figures[i];
        const struct bench_rates *s = &f->rates;
        if (!f->measured)
            continue;
        printf("%-*s %10.3f %11.3f %7.3f %5s%.2f %8.3f   %.3f-%.3f | %.3f-%.3f%s\n", label_width, f->label, s->d3d12xs, s->raw, s->paired,
                "<= ", f->target, bench_row_ratio(f), s->d3d12xs_min, s->d3d12xs_max, s->raw_min, s->raw_max,
                s->paired > f->target ? "   OVER TARGET" : "");
    }
}

/* The TSV rows of the measured figures (after the caller's "#" lines), and their header. */
static inline void bench_rows_tsv(FILE *file, const struct bench_row *figures, unsigned count)
{
    fprintf(file, "# figure\tunit\td3d12xs\traw_vulkan\tratio\ttarget\tratio_of_medians\td3d12xs_min\td3d12xs_max\traw_min\traw_max\n");
    for (unsigned i = 0; i < count; i++) {
        const struct bench_row *g = &figures[i];
        if (g->measured)
            fprintf(file, "%s\t%s\t%.4f\t%.4f\t%.4f\t%.2f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\n", g->key, g->unit, g->rates.d3d12xs, g->rates.raw,
                    g->rates.paired, g->target, bench_row_ratio(g), g->rates.d3d12xs_min, g->rates.d3d12xs_max, g->rates.raw_min,
                    g->rates.raw_max);
    }
}

/* ---- child processes and peers ------------------------------------------------------------ */

struct bench_bytes {
    void *data;
    size_t size;
};

/* All of fd up to its end, followed by a 0 byte (not counted in size): a child's output is read as text. */
static inline struct bench_bytes bench_read_all(int fd)
{
    struct bench_bytes b = {NULL, 0};
    size_t capacity = 0;
    for (;;) {
        if (b.size == capacity) {
            capacity = capacity ? 2 * capacity : 65536;
            REQUIRE((b.data = realloc(b.data, capacity + 1)), "out of memory");
        }
        ssize_t n = read(fd, (char *)b.data + b.size, capacity - b.size);
        if (n < 0 && errno == EINTR)
            continue;
        REQUIRE(n >= 0, "read failed: %s", strerror(errno));
        if (!n)
            break;
        b.size += (size_t)n;
    }
    ((char *)b.data)[b.size] = 0;
    return b;
}

/* Starts `program mode` with `input` on its standard input, puts what it wrote to its standard
 * output (a string) into *output and its wait status into *status; true when it exited with 0.
 * The child must read all its input before it writes much, else both would wait. */
static inline bool bench_run_program(const char *program, const char *mode, const struct bench_bytes *input, struct bench_bytes *output,
        int *status)
{
    int to_child[2], from_child[2];
    pid_t pid;

    REQUIRE(!pipe(to_child) && !pipe(from_child), "pipe failed: %s", strerror(errno));
    fflush(stdout);
    pid = fork();
    REQUIRE(pid >= 0, "fork failed: %s", strerror(errno));
    if (!pid) {
        dup2(to_child[0], STDIN_FILENO);
        dup2(from_child[1], STDOUT_FILENO);
        close(to_child[0]);
        close(to_child[1]);
        close(from_child[0]);
        close(from_child[1]);
        execl(program, program, mode, (char *)NULL);
        fprintf(stderr, "%s: cannot start %s: %s\n", bench_name, program, strerror(errno));
        _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    for (size_t done = 0; done < input->size;) {
        ssize_t n = write(to_child[1], (const char *)input->data + done, input->size - done);
        if (n < 0 && errno == EINTR)
            continue;
        REQUIRE(n > 0, "writing to %s failed: %s", program, strerror(errno));
        done += (size_t)n;
    }
    close(to_child[1]);
    *output = bench_read_all(from_child[0]);
    close(from_child[0]);
    while (waitpid(pid, status, 0) < 0)
        REQUIRE(errno == EINTR, "waitpid failed: %s", strerror(errno));
    return WIFEXITED(*status) && !WEXITSTATUS(*status);
}

/* The number after `key=` in text; fails if it is missing. */
static inline double bench_field(const char *text, const char *key)
{
    char pattern[96];
    const char *at;
    snprintf(pattern, sizeof(pattern), "%s=", key);
    REQUIRE((at = strstr(text, pattern)), "no %s in: %s", pattern, text);
    return strtod(at + strlen(pattern), NULL);
}

static inline void bench_self_path(char path[PATH_MAX])
{
    ssize_t length = readlink("/proc/self/exe", path, PATH_MAX - 1);
    REQUIRE(length > 0, "readlink(/proc/self/exe) failed: %s", strerror(errno));
    path[length] = 0;
}

/* Runs `program peer` from this program's folder (found through /proc/self/exe, so a copied build
 * tree works) and puts its standard output into *out; false, with the reason in `why`, when it
 * was not built or did not run to a clean exit (a copied tree may lack vkd3d's libraries). */
static inline bool bench_run_peer(const char *program_name, struct bench_bytes *out, char *why, size_t why_size)
{
    char self[PATH_MAX], program[PATH_MAX + 64];
    struct bench_bytes none = {NULL, 0};
    int status;

    bench_self_path(self);
    snprintf(program, sizeof(program), "%s/%s", dirname(self), program_name);
    if (access(program, X_OK)) {
        snprintf(why, why_size, "%s was not built: no libvkd3d-dev", program_name);
        return false;
    }
    if (!bench_run_program(program, "peer", &none, out, &status)) {
        snprintf(why, why_size, "%s failed, wait status 0x%x%s", program_name, (unsigned)status,
                WIFEXITED(status) && WEXITSTATUS(status) == 127 ? ": vkd3d's libraries missing here?" : "");
        free(out->data);
        out->data = NULL;
        return false;
    }
    return true;
}

/* The text after `key=` in text, up to the end of its line, into out ("?" when missing). */
static inline void bench_text_field(const char *text, const char *key, char *out, size_t out_size)
{
    char pattern[96];
    const char *at;
    snprintf(pattern, sizeof(pattern), "%s=", key);
    at = strstr(text, pattern);
    if (!at) {
        snprintf(out, out_size, "?");
        return;
    }
    at += strlen(pattern);
    snprintf(out, out_size, "%.*s", (int)strcspn(at, "\n"), at);
}

/* ---- D3D12: d3d12xs (or vkd3d, BENCH_VKD3D) ---------------------------------------------- */

/* A version 1.1 root signature of these parameters and static samplers. */
static inline ID3D12RootSignature *bench_d3d_root_signature_with_samplers(ID3D12Device *device, const D3D12_ROOT_PARAMETER1 *parameters,
        UINT count, const D3D12_STATIC_SAMPLER_DESC *samplers, UINT sampler_count)
{
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc;
    ID3DBlob *blob = NULL, *errors = NULL;
    ID3D12RootSignature *signature = NULL;

    memset(&desc, 0, sizeof(desc));
    desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    desc.Desc_1_1.NumParameters = count;
    desc.Desc_1_1.pParameters = parameters;
    desc.Desc_1_1.NumStaticSamplers = sampler_count;
    desc.Desc_1_1.pStaticSamplers = samplers;
    HR(D3D12SerializeVersionedRootSignature(&desc, &blob, &errors));
    HR(ID3D12Device_CreateRootSignature(device, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
            &IID_ID3D12RootSignature, (void **)&signature));
    ID3D10Blob_Release(blob);
    if (errors)
        ID3D10Blob_Release(errors);
    return signature;
}

static inline ID3D12RootSignature *bench_d3d_root_signature(ID3D12Device *device, const D3D12_ROOT_PARAMETER1 *parameters, UINT count)
{
    return bench_d3d_root_signature_with_samplers(device, parameters, count, NULL, 0);
}

#ifndef BENCH_VKD3D /* D3DCompile is d3d12xs's */

static inline ID3DBlob *bench_d3d_compile(const char *source, const D3D_SHADER_MACRO *defines)
{
    ID3DBlob *code = NULL, *errors = NULL;
    HRESULT hr = D3DCompile(source, strlen(source), "bench.hlsl", defines, NULL, "main", "cs_6_0", 0, 0, &code, &errors);
    if (FAILED(hr))
        bench_fail(__LINE__, "D3DCompile failed (0x%08x): %s", (unsigned)hr,
                errors ? (const char *)ID3D10Blob_GetBufferPointer(errors) : "?");
    if (errors)
        ID3D10Blob_Release(errors);
    return code;
}

static inline ID3D12PipelineState *bench_d3d_pipeline(ID3D12Device *device, ID3D12RootSignature *signature, const char *source,
        const D3D_SHADER_MACRO *defines)
{
    D3D12_COMPUTE_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *state = NULL;
    ID3DBlob *code = bench_d3d_compile(source, defines);

    memset(&desc, 0, sizeof(desc));
    desc.pRootSignature = signature;
    desc.CS.pShaderBytecode = ID3D10Blob_GetBufferPointer(code);
    desc.CS.BytecodeLength = ID3D10Blob_GetBufferSize(code);
    HR(ID3D12Device_CreateComputePipelineState(device, &desc, &IID_ID3D12PipelineState, (void **)&state));
    ID3D10Blob_Release(code);
    return state;
}

#endif /* BENCH_VKD3D */

static inline ID3D12Resource *bench_d3d_buffer(ID3D12Device *device, D3D12_HEAP_TYPE heap_type, UINT64 size, D3D12_RESOURCE_FLAGS flags,
        D3D12_RESOURCE_STATES state)
{
    D3D12_HEAP_PROPERTIES heap;
    D3D12_RESOURCE_DESC desc;
    ID3D12Resource *resource = NULL;

    memset(&heap, 0, sizeof(heap));
    heap.Type = heap_type;
    memset(&desc, 0, sizeof(desc));
    desc.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
    desc.Width = size;
    desc.Height = 1;
    desc.DepthOrArraySize = 1;
    desc.MipLevels = 1;
    desc.Format = DXGI_FORMAT_UNKNOWN;
    desc.SampleDesc.Count = 1;
    desc.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    desc.Flags = flags;
    HR(ID3D12Device_CreateCommittedResource(device, &heap, D3D12_HEAP_FLAG_NONE, &desc, state, NULL, &IID_ID3D12Resource,
            (void **)&resource));
    return resource;
}

static inline D3D12_RESOURCE_BARRIER bench_d3d_transition(ID3D12Resource *resource, D3D12_RESOURCE_STATES before,
        D3D12_RESOURCE_STATES after)
{
    D3D12_RESOURCE_BARRIER barrier;
    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    barrier.Transition.pResource = resource;
    barrier.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    barrier.Transition.StateBefore = before;
    barrier.Transition.StateAfter = after;
    return barrier;
}

/* The heap's first CPU and GPU handles. vkd3d's C interface returns them through a pointer (widl's
 * aggregate-return convention), d3d12xs's by value. */
static inline D3D12_CPU_DESCRIPTOR_HANDLE bench_d3d_heap_cpu_start(ID3D12DescriptorHeap *heap)
{
#ifdef BENCH_VKD3D
    D3D12_CPU_DESCRIPTOR_HANDLE handle;
    return *heap->lpVtbl->GetCPUDescriptorHandleForHeapStart(heap, &handle);
#else
    return ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap);
#endif
}

static inline D3D12_GPU_DESCRIPTOR_HANDLE bench_d3d_heap_gpu_start(ID3D12DescriptorHeap *heap)
{
#ifdef BENCH_VKD3D
    D3D12_GPU_DESCRIPTOR_HANDLE handle;
    return *heap->lpVtbl->GetGPUDescriptorHandleForHeapStart(heap, &handle);
#else
    return ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(heap);
#endif
}

/* A queue of one type with its fence, a list and allocator for untimed work (uploads,
 * read-backs), and a READBACK buffer for resolved timestamps. */
struct bench_d3d_queue {
    D3D12_COMMAND_LIST_TYPE type;
    ID3D12CommandQueue *queue;
    ID3D12Fence *fence;
    UINT64 fence_value, frequency;
};

static inline void bench_d3d_queue_init(ID3D12Device *device, struct bench_d3d_queue *q, D3D12_COMMAND_LIST_TYPE type)
{
    D3D12_COMMAND_QUEUE_DESC desc = {type, 0, D3D12_COMMAND_QUEUE_FLAG_NONE, 0};
    memset(q, 0, sizeof(*q));
    q->type = type;
    HR(ID3D12Device_CreateCommandQueue(device, &desc, &IID_ID3D12CommandQueue, (void **)&q->queue));
    HR(ID3D12Device_CreateFence(device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&q->fence));
    HR(ID3D12CommandQueue_GetTimestampFrequency(q->queue, &q->frequency));
}

static inline void bench_d3d_queue_destroy(struct bench_d3d_queue *q)
{
    ID3D12Fence_Release(q->fence);
    ID3D12CommandQueue_Release(q->queue);
}

static inline void bench_d3d_new_list(ID3D12Device *device, D3D12_COMMAND_LIST_TYPE type, ID3D12CommandAllocator **allocator,
        ID3D12GraphicsCommandList **list)
{
    HR(ID3D12Device_CreateCommandAllocator(device, type, &IID_ID3D12CommandAllocator, (void **)allocator));
    HR(ID3D12Device_CreateCommandList(device, 0, type, *allocator, NULL, &IID_ID3D12GraphicsCommandList, (void **)list));
}

static inline void bench_d3d_execute_and_wait(struct bench_d3d_queue *q, ID3D12GraphicsCommandList *list)
{
    ID3D12CommandList *lists[] = {(ID3D12CommandList *)list};
    ID3D12CommandQueue_ExecuteCommandLists(q->queue, 1, lists);
    HR(ID3D12CommandQueue_Signal(q->queue, q->fence, ++q->fence_value));
    HR(ID3D12Fence_SetEventOnCompletion(q->fence, q->fence_value, NULL));
}

/* Waits for the fence to reach value by polling (vkd3d and d3d12xs differ in what
 * SetEventOnCompletion does with a NULL event); fails after 60 s, naming `what`. */
static inline void bench_d3d_wait_polled(ID3D12Fence *fence, UINT64 value, const char *what)
{
    double start = bench_now_ns();
    while (ID3D12Fence_GetCompletedValue(fence) < value) {
        REQUIRE(bench_now_ns() - start < 60e9, "%s did not finish in 60 s", what);
        sched_yield();
    }
}

/* Copies `size` bytes of a DEFAULT buffer in UNORDERED_ACCESS state into a new READBACK buffer
 * (returned, Release it) on queue q; the buffer is back in UNORDERED_ACCESS afterwards. */
static inline ID3D12Resource *bench_d3d_read_back(ID3D12Device *device, struct bench_d3d_queue *q, ID3D12Resource *buffer, UINT64 size)
{
    ID3D12Resource *readback = bench_d3d_buffer(device, D3D12_HEAP_TYPE_READBACK, size, D3D12_RESOURCE_FLAG_NONE,
            D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12CommandAllocator *allocator;
    ID3D12GraphicsCommandList *list;
    D3D12_RESOURCE_BARRIER barriers[2];

    bench_d3d_new_list(device, q->type, &allocator, &list);
    barriers[0] = bench_d3d_transition(buffer, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
    barriers[1] = bench_d3d_transition(buffer, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    ID3D12GraphicsCommandList_ResourceBarrier(list, 1, &barriers[0]);
    ID3D12GraphicsCommandList_CopyBufferRegion(list, readback, 0, buffer, 0, size);
    ID3D12GraphicsCommandList_ResourceBarrier(list, 1, &barriers[1]);
    HR(ID3D12GraphicsCommandList_Close(list));
    bench_d3d_execute_and_wait(q, list);
    ID3D12GraphicsCommandList_Release(list);
    ID3D12CommandAllocator_Release(allocator);
    return readback;
}

/* ---- raw Vulkan --------------------------------------------------------------------------- */

struct bench_vk_buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
};

/* One queue of a family, with a command pool, a fence and timestamp queries. */
struct bench_vk_queue {
    uint32_t family;
    VkQueue queue;
    VkCommandPool pool;
    VkFence fence;
};

struct bench_vk {
    VkInstance instance;
    VkPhysicalDevice physical_device;
    VkPhysicalDeviceProperties properties;
    VkPhysicalDeviceDriverProperties driver;
    VkPhysicalDeviceVulkan13Properties properties13;
    VkPhysicalDeviceSubgroupProperties subgroup;
    VkPhysicalDeviceIDProperties id;
    VkPhysicalDeviceMemoryProperties memory;
    bool subgroup_size_control; /* compute pipelines can require a subgroup size */
    VkDevice device;
    PFN_vkCmdPushDescriptorSetKHR vkCmdPushDescriptorSetKHR;
};

static inline bool bench_contains_nocase(const char *name, const char *part)
{
    size_t n = strlen(part);
    for (const char *p = name; *p; p++) {
        size_t i = 0;
        while (i < n && p[i] && (p[i] | 0x20) == (part[i] | 0x20))
            i++;
        if (i == n)
            return true;
    }
    return false;
}

static inline int bench_type_rank(VkPhysicalDeviceType type)
{
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
    default: return 4;
    }
}

/* As d3d12xs does: D3D12XS_DEVICE by index or part of the name, else discrete > integrated >
 * virtual > CPU among Vulkan 1.3 devices. */
static inline VkPhysicalDevice bench_vk_pick_device(VkInstance instance)
{
    const char *choice = getenv("D3D12XS_DEVICE");
    VkPhysicalDevice devices[16];
    uint32_t count = BENCH_ARRAY_SIZE(devices);
    int best = -1, best_rank = 100;

    VkResult vr = vkEnumeratePhysicalDevices(instance, &count, devices);
    REQUIRE((vr == VK_SUCCESS || vr == VK_INCOMPLETE) && count, "no Vulkan device");
    for (uint32_t i = 0; i < count; i++) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(devices[i], &p);
        if (choice && *choice) {
            char *end;
            unsigned long index = strtoul(choice, &end, 10);
            if (*end ? bench_contains_nocase(p.deviceName, choice) : index == i) {
                best = (int)i;
                break;
            }
        } else if (p.apiVersion >= VK_API_VERSION_1_3 && bench_type_rank(p.deviceType) < best_rank) {
            best_rank = bench_type_rank(p.deviceType);
            best = (int)i;
        }
    }
    REQUIRE(best >= 0, "no Vulkan device matches (D3D12XS_DEVICE=%s)", choice ? choice : "");
    return devices[best];
}

/* The first half of bench_vk_init: the instance, the physical device and its properties. */
static inline void bench_vk_open(struct bench_vk *v, const char *app_name)
{
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = app_name, .apiVersion = VK_API_VERSION_1_3};
    VkInstanceCreateInfo instance_info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};

    memset(v, 0, sizeof(*v));
    VK(vkCreateInstance(&instance_info, NULL, &v->instance));
    v->physical_device = bench_vk_pick_device(v->instance);
    v->id.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES;
    v->subgroup.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
    v->subgroup.pNext = &v->id;
    v->properties13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES;
    v->properties13.pNext = &v->subgroup;
    v->driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
    v->driver.pNext = &v->properties13;
    VkPhysicalDeviceProperties2 properties2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &v->driver};
    vkGetPhysicalDeviceProperties2(v->physical_device, &properties2);
    v->properties = properties2.properties;
    vkGetPhysicalDeviceMemoryProperties(v->physical_device, &v->memory);

    VkPhysicalDeviceVulkan13Features offered13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceFeatures2 features2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &offered13};
    vkGetPhysicalDeviceFeatures2(v->physical_device, &features2);
    v->subgroup_size_control = offered13.subgroupSizeControl
            && (v->properties13.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT);
}

/* Whether the physical device offers a device extension. */
static inline bool bench_vk_has_device_extension(VkPhysicalDevice physical_device, const char *name)
{
    VkExtensionProperties *properties;
    uint32_t count = 0;
    bool found = false;

    VK(vkEnumerateDeviceExtensionProperties(physical_device, NULL, &count, NULL));
    properties = calloc(count ? count : 1, sizeof(*properties));
    REQUIRE(properties, "out of memory");
    VK(vkEnumerateDeviceExtensionProperties(physical_device, NULL, &count, properties));
    for (uint32_t i = 0; i < count && !found; i++)
        found = !strcmp(properties[i].extensionName, name);
    free(properties);
    return found;
}

/* bench_vk_create_device with more: `extra_extensions` enabled too, and `features` (a chain of
 * feature structs, NULL for none) after synchronization2's. */
static inline void bench_vk_create_device_with(struct bench_vk *v, const uint32_t *families, uint32_t family_count,
        struct bench_vk_queue *queues, const char *const *extra_extensions, uint32_t extra_count, void *features)
{
    VkDeviceQueueCreateInfo queue_infos[4];
    uint32_t unique = 0;
    float priority = 1.0f;

    REQUIRE(family_count <= BENCH_ARRAY_SIZE(queue_infos), "too many queue families");
    for (uint32_t i = 0; i < family_count; i++) {
        bool seen = false;
        for (uint32_t k = 0; k < unique; k++)
            seen |= queue_infos[k].queueFamilyIndex == families[i];
        if (!seen)
            queue_infos[unique++] = (VkDeviceQueueCreateInfo){.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                    .queueFamilyIndex = families[i], .queueCount = 1, .pQueuePriorities = &priority};
    }
    VkPhysicalDeviceVulkan13Features features13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
            .pNext = features, .synchronization2 = VK_TRUE, .subgroupSizeControl = v->subgroup_size_control};
    const char *extensions[8] = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
    REQUIRE(extra_count < BENCH_ARRAY_SIZE(extensions), "too many device extensions");
    for (uint32_t i = 0; i < extra_count; i++)
        extensions[1 + i] = extra_extensions[i];
    VkDeviceCreateInfo device_info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &features13,
        .queueCreateInfoCount = unique,
        .pQueueCreateInfos = queue_infos,
        .enabledExtensionCount = 1 + extra_count,
        .ppEnabledExtensionNames = extensions,
    };
    VK(vkCreateDevice(v->physical_device, &device_info, NULL, &v->device));
    v->vkCmdPushDescriptorSetKHR = (PFN_vkCmdPushDescriptorSetKHR)vkGetDeviceProcAddr(v->device, "vkCmdPushDescriptorSetKHR");
    REQUIRE(v->vkCmdPushDescriptorSetKHR, "no vkCmdPushDescriptorSetKHR");

    for (uint32_t i = 0; i < family_count; i++) {
        struct bench_vk_queue *q = &queues[i];
        q->family = families[i];
        vkGetDeviceQueue(v->device, q->family, 0, &q->queue);
        VkFenceCreateInfo fence_info = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        VK(vkCreateFence(v->device, &fence_info, NULL, &q->fence));
        VkCommandPoolCreateInfo pool_info = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .queueFamilyIndex = q->family};
        VK(vkCreateCommandPool(v->device, &pool_info, NULL, &q->pool));
    }
}

/* The second half: the device, with one queue in each of the `family_count` families given,
 * synchronization2, push descriptors and, where the device offers it, subgroup size control
 * (as d3d12xs enables it). */
static inline void bench_vk_create_device(struct bench_vk *v, const uint32_t *families, uint32_t family_count,
        struct bench_vk_queue *queues)
{
    bench_vk_create_device_with(v, families, family_count, queues, NULL, 0, NULL);
}

#ifdef BENCH_VKD3D
/* vkd3d picks its own physical device unless VKD3D_VULKAN_DEVICE gives its index: point it at the
 * raw side's (d3d12xs's rule), unless the user did. Call before D3D12CreateDevice. */
static inline void bench_vkd3d_use_device_of(const struct bench_vk *v)
{
    VkPhysicalDevice devices[16];
    uint32_t count = BENCH_ARRAY_SIZE(devices);
    char index[16];
    vkEnumeratePhysicalDevices(v->instance, &count, devices);
    for (uint32_t i = 0; i < count; i++)
        if (devices[i] == v->physical_device) {
            snprintf(index, sizeof(index), "%u", i);
            setenv("VKD3D_VULKAN_DEVICE", index, 0);
        }
}
#endif

/* The D3D12 side's device: vkd3d's on the raw side's physical device (BENCH_VKD3D), or d3d12xs's,
 * refused with its validation layer on (it would measure itself). Its name goes to `name`,
 * and whether it is a CPU device (lavapipe) to *cpu_device. */
static inline ID3D12Device *bench_d3d_create_device(const struct bench_vk *raw, char name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE], bool *cpu_device)
{
    ID3D12Device *device = NULL;
#ifdef BENCH_VKD3D
    VkPhysicalDeviceProperties properties;
    bench_vkd3d_use_device_of(raw);
    HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&device));
    vkGetPhysicalDeviceProperties(vkd3d_get_vk_physical_device(device), &properties);
    snprintf(name, VK_MAX_PHYSICAL_DEVICE_NAME_SIZE, "%s", properties.deviceName);
    *cpu_device = properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
#else
    D3D12XS_DEVICE_INFO info;
    (void)raw;
    HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&device));
    HR(D3D12XSGetDeviceInfo(device, &info));
    REQUIRE(!info.ValidationLayerEnabled, "the validation layer is on (D3D12XS_DEBUG): the figures would be meaningless");
    snprintf(name, VK_MAX_PHYSICAL_DEVICE_NAME_SIZE, "%s", info.DeviceName);
    *cpu_device = info.IsSoftwareRasterizer;
#endif
    return device;
}

/* Creates the raw device with one queue in each of the `family_count` families given (d3d12xs's
 * families for the queue types measured): bench_vk_open, then bench_vk_create_device. */
static inline void bench_vk_init(struct bench_vk *v, const char *app_name, const uint32_t *families, uint32_t family_count,
        struct bench_vk_queue *queues)
{
    bench_vk_open(v, app_name);
    bench_vk_create_device(v, families, family_count, queues);
}

static inline void bench_vk_queue_destroy(struct bench_vk *v, struct bench_vk_queue *q)
{
    vkDestroyCommandPool(v->device, q->pool, NULL);
    vkDestroyFence(v->device, q->fence, NULL);
}

static inline void bench_vk_destroy(struct bench_vk *v)
{
    vkDestroyDevice(v->device, NULL);
    vkDestroyInstance(v->instance, NULL);
}

/* The raw side picks its compute family itself (bench_vk_init takes d3d12xs's), so that the
 * printed families check d3d12xs's choice: compute-only where there is one (as D3D12 COMPUTE
 * queues get), else any compute family; it must have timestamps. */
static inline uint32_t bench_vk_compute_family(VkPhysicalDevice physical_device)
{
    VkQueueFamilyProperties families[16];
    uint32_t family_count = BENCH_ARRAY_SIZE(families), family;
    int compute_only = -1, any_compute = -1;

    vkGetPhysicalDeviceQueueFamilyProperties(physical_device, &family_count, families);
    for (uint32_t i = 0; i < family_count; i++) {
        if (!(families[i].queueFlags & VK_QUEUE_COMPUTE_BIT))
            continue;
        if (any_compute < 0)
            any_compute = (int)i;
        if (compute_only < 0 && !(families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT))
            compute_only = (int)i;
    }
    REQUIRE(any_compute >= 0, "the device has no compute queue");
    family = (uint32_t)(compute_only >= 0 ? compute_only : any_compute);
    REQUIRE(families[family].timestampValidBits, "queue family %u has no timestamps", family);
    return family;
}

/* The subgroup size a pipeline of `wave_size` lanes and `threads` threads per group gets, by
 * d3d12xs's rule (src/pipelines/pipeline_variant.c): required where the device can require it
 * and the size is in range, else the device's default. */
static inline uint32_t bench_vk_subgroup_size(const struct bench_vk *v, uint32_t wave_size, uint32_t threads, bool *required)
{
    *required = v->subgroup_size_control && wave_size >= v->properties13.minSubgroupSize
            && wave_size <= v->properties13.maxSubgroupSize
            && threads <= (uint64_t)v->properties13.maxComputeWorkgroupSubgroups * wave_size;
    return *required ? wave_size : v->subgroup.subgroupSize;
}

static inline uint32_t bench_vk_memory_type(const struct bench_vk *v, uint32_t bits, VkMemoryPropertyFlags required,
        VkMemoryPropertyFlags preferred)
{
    for (int pass = 0; pass < 2; pass++) {
        VkMemoryPropertyFlags wanted = required | (pass ? 0 : preferred);
        for (uint32_t i = 0; i < v->memory.memoryTypeCount; i++)
            if ((bits & (1u << i)) && (v->memory.memoryTypes[i].propertyFlags & wanted) == wanted)
                return i;
    }
    bench_fail(__LINE__, "no memory type with flags 0x%x", (unsigned)required);
}

/* bench_vk_buffer with VkMemoryAllocateFlags (VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT for a buffer
 * whose address shaders or descriptors take). */
static inline struct bench_vk_buffer bench_vk_buffer_with_flags(const struct bench_vk *v, VkDeviceSize size, VkBufferUsageFlags usage,
        VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred, VkMemoryAllocateFlags allocate_flags)
{
    VkMemoryAllocateFlagsInfo flags_info = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO, NULL, allocate_flags, 0};
    VkBufferCreateInfo info = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size, .usage = usage,
            .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
    VkMemoryRequirements requirements;
    struct bench_vk_buffer b;

    VK(vkCreateBuffer(v->device, &info, NULL, &b.buffer));
    vkGetBufferMemoryRequirements(v->device, b.buffer, &requirements);
    VkMemoryAllocateInfo allocate = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .pNext = allocate_flags ? &flags_info : NULL,
        .allocationSize = requirements.size,
        .memoryTypeIndex = bench_vk_memory_type(v, requirements.memoryTypeBits, required, preferred),
    };
    VK(vkAllocateMemory(v->device, &allocate, NULL, &b.memory));
    VK(vkBindBufferMemory(v->device, b.buffer, b.memory, 0));
    return b;
}

static inline struct bench_vk_buffer bench_vk_buffer(const struct bench_vk *v, VkDeviceSize size, VkBufferUsageFlags usage,
        VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred)
{
    return bench_vk_buffer_with_flags(v, size, usage, required, preferred, 0);
}

static inline void bench_vk_free_buffer(const struct bench_vk *v, struct bench_vk_buffer *b)
{
    vkDestroyBuffer(v->device, b->buffer, NULL);
    vkFreeMemory(v->device, b->memory, NULL);
    memset(b, 0, sizeof(*b));
}

/* A square RGBA8_UNORM 2D image of device-local memory (its own allocation where the driver
 * prefers one), in UNDEFINED layout: the raw side of the texture benchmarks. */
struct bench_vk_image {
    VkImage image;
    VkDeviceMemory memory;
};

static inline struct bench_vk_image bench_vk_rgba8_image(const struct bench_vk *v, uint32_t size, uint32_t mips, VkImageUsageFlags usage)
{
    struct bench_vk_image t;
    VkImageCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = VK_FORMAT_R8G8B8A8_UNORM,
        .extent = {size, size, 1},
        .mipLevels = mips,
        .arrayLayers = 1,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = usage,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    VkMemoryDedicatedRequirements dedicated_requirements = {.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS};
    VkMemoryRequirements2 requirements = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2, .pNext = &dedicated_requirements};

    VK(vkCreateImage(v->device, &info, NULL, &t.image));
    VkImageMemoryRequirementsInfo2 requirements_info = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_REQUIREMENTS_INFO_2, .image = t.image};
    vkGetImageMemoryRequirements2(v->device, &requirements_info, &requirements);
    VkMemoryDedicatedAllocateInfo dedicated = {.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO, .image = t.image};
    VkMemoryAllocateInfo allocate = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .pNext = dedicated_requirements.prefersDedicatedAllocation || dedicated_requirements.requiresDedicatedAllocation ? &dedicated : NULL,
        .allocationSize = requirements.memoryRequirements.size,
        .memoryTypeIndex = bench_vk_memory_type(v, requirements.memoryRequirements.memoryTypeBits, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT),
    };
    VK(vkAllocateMemory(v->device, &allocate, NULL, &t.memory));
    VK(vkBindImageMemory(v->device, t.image, t.memory, 0));
    return t;
}

static inline void bench_vk_free_image(const struct bench_vk *v, struct bench_vk_image *t)
{
    vkDestroyImage(v->device, t->image, NULL);
    vkFreeMemory(v->device, t->memory, NULL);
    memset(t, 0, sizeof(*t));
}

/* SPIR-V from shaderc with the options D3DCompile uses (Vulkan 1.1 environment, SPIR-V 1.3,
 * performance optimisation), from HLSL (with RAW_VULKAN defined) or GLSL; macros are
 * NULL-terminated name/value pairs. The words are shaderc_result_get_bytes(result), length
 * shaderc_result_get_length(result); shaderc_result_release it. */
static inline shaderc_compilation_result_t bench_spirv(const char *source, bool glsl, const char *const *macros)
{
    shaderc_compiler_t compiler = shaderc_compiler_initialize();
    shaderc_compile_options_t options = shaderc_compile_options_initialize();
    shaderc_compilation_result_t result;

    REQUIRE(compiler && options, "cannot create the shaderc compiler");
    shaderc_compile_options_set_source_language(options, glsl ? shaderc_source_language_glsl : shaderc_source_language_hlsl);
    shaderc_compile_options_set_target_env(options, shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_1);
    shaderc_compile_options_set_target_spirv(options, shaderc_spirv_version_1_3);
    shaderc_compile_options_set_optimization_level(options, shaderc_optimization_level_performance);
    if (!glsl) {
        shaderc_compile_options_set_hlsl_offsets(options, true);
        shaderc_compile_options_add_macro_definition(options, "RAW_VULKAN", 10, "1", 1);
    }
    for (const char *const *m = macros; m && *m; m += 2)
        shaderc_compile_options_add_macro_definition(options, m[0], strlen(m[0]), m[1], strlen(m[1]));
    result = shaderc_compile_into_spv(compiler, source, strlen(source), shaderc_compute_shader, glsl ? "bench.comp" : "bench.hlsl",
            "main", options);
    if (shaderc_result_get_compilation_status(result) != shaderc_compilation_status_success)
        bench_fail(__LINE__, "shaderc: %s", shaderc_result_get_error_message(result));
    shaderc_compile_options_release(options);
    shaderc_compiler_release(compiler);
    return result;
}

/* A shader module of bench_spirv's SPIR-V. */
static inline VkShaderModule bench_vk_shader(const struct bench_vk *v, const char *source, bool glsl, const char *const *macros)
{
    shaderc_compilation_result_t result = bench_spirv(source, glsl, macros);
    VkShaderModule module;

    VkShaderModuleCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = shaderc_result_get_length(result),
        .pCode = (const uint32_t *)shaderc_result_get_bytes(result),
    };
    VK(vkCreateShaderModule(v->device, &info, NULL, &module));
    shaderc_result_release(result);
    return module;
}

struct bench_vk_kernel {
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipeline;
};

/* A compute pipeline with `buffers` storage buffers (bindings 0..) in one push-descriptor set
 * and `push_bytes` of push constants; required_subgroup_size 0: the device's choice. */
static inline struct bench_vk_kernel bench_vk_kernel(const struct bench_vk *v, VkShaderModule module, uint32_t buffers,
        uint32_t push_bytes, uint32_t required_subgroup_size)
{
    VkDescriptorSetLayoutBinding bindings[4];
    struct bench_vk_kernel k;

    REQUIRE(buffers <= BENCH_ARRAY_SIZE(bindings), "too many buffers");
    for (uint32_t i = 0; i < buffers; i++)
        bindings[i] = (VkDescriptorSetLayoutBinding){i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    VkDescriptorSetLayoutCreateInfo set_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR,
        .bindingCount = buffers,
        .pBindings = bindings,
    };
    VK(vkCreateDescriptorSetLayout(v->device, &set_info, NULL, &k.set_layout));
    VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes};
    VkPipelineLayoutCreateInfo layout_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1,
        .pSetLayouts = &k.set_layout,
        .pushConstantRangeCount = push_bytes ? 1 : 0,
        .pPushConstantRanges = &range,
    };
    VK(vkCreatePipelineLayout(v->device, &layout_info, NULL, &k.layout));
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo subgroup_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO,
        .requiredSubgroupSize = required_subgroup_size,
    };
    VkComputePipelineCreateInfo pipeline_info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .pNext = required_subgroup_size ? &subgroup_info : NULL,
            .stage = VK_SHADER_STAGE_COMPUTE_BIT,
            .module = module,
            .pName = "main",
        },
        .layout = k.layout,
    };
    VK(vkCreateComputePipelines(v->device, VK_NULL_HANDLE, 1, &pipeline_info, NULL, &k.pipeline));
    vkDestroyShaderModule(v->device, module, NULL);
    return k;
}

static inline void bench_vk_destroy_kernel(const struct bench_vk *v, struct bench_vk_kernel *k)
{
    vkDestroyPipeline(v->device, k->pipeline, NULL);
    vkDestroyPipelineLayout(v->device, k->layout, NULL);
    vkDestroyDescriptorSetLayout(v->device, k->set_layout, NULL);
}

static inline void bench_vk_push_buffers(const struct bench_vk *v, VkCommandBuffer cmd, const struct bench_vk_kernel *k,
        const VkBuffer *buffers, uint32_t count)
{
    VkDescriptorBufferInfo infos[4];
    VkWriteDescriptorSet writes[4];
    for (uint32_t i = 0; i < count && i < 4; i++) {
        infos[i] = (VkDescriptorBufferInfo){buffers[i], 0, VK_WHOLE_SIZE};
        writes[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = i, .descriptorCount = 1,
                .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &infos[i]};
    }
    v->vkCmdPushDescriptorSetKHR(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k->layout, 0, count, writes);
}

static inline VkCommandBuffer bench_vk_begin(const struct bench_vk *v, const struct bench_vk_queue *q)
{
    VkCommandBufferAllocateInfo info = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = q->pool,
            .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1};
    VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    VkCommandBuffer cmd;
    VK(vkAllocateCommandBuffers(v->device, &info, &cmd));
    VK(vkBeginCommandBuffer(cmd, &begin));
    return cmd;
}

static inline void bench_vk_barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
        VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access)
{
    VkMemoryBarrier2 barrier = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2, .srcStageMask = src_stage, .srcAccessMask = src_access,
            .dstStageMask = dst_stage, .dstAccessMask = dst_access};
    VkDependencyInfo dependency = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .memoryBarrierCount = 1, .pMemoryBarriers = &barrier};
    vkCmdPipelineBarrier2(cmd, &dependency);
}

static inline void bench_vk_submit_and_wait(const struct bench_vk *v, const struct bench_vk_queue *q, VkCommandBuffer cmd)
{
    VkSubmitInfo submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd};
    VK(vkQueueSubmit(q->queue, 1, &submit, q->fence));
    VK(vkWaitForFences(v->device, 1, &q->fence, VK_TRUE, UINT64_MAX));
    VK(vkResetFences(v->device, 1, &q->fence));
}

/* Copies `size` bytes of a device buffer into a host-visible one (bench_vk_free_buffer it) and
 * maps it into *mapped. */
static inline struct bench_vk_buffer bench_vk_read_back(const struct bench_vk *v, const struct bench_vk_queue *q, VkBuffer buffer,
        VkDeviceSize size, void **mapped)
{
    struct bench_vk_buffer staging = bench_vk_buffer(v, size, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
            VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
    VkCommandBuffer cmd = bench_vk_begin(v, q);
    VkBufferCopy region = {0, 0, size};

    bench_vk_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
            VK_ACCESS_2_TRANSFER_READ_BIT);
    vkCmdCopyBuffer(cmd, buffer, staging.buffer, 1, &region);
    bench_vk_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
            VK_ACCESS_2_HOST_READ_BIT);
    VK(vkEndCommandBuffer(cmd));
    bench_vk_submit_and_wait(v, q, cmd);
    vkFreeCommandBuffers(v->device, q->pool, 1, &cmd);
    VK(vkMapMemory(v->device, staging.memory, 0, VK_WHOLE_SIZE, 0, mapped));
    return staging;
}

/* ---- the GPU clock ------------------------------------------------------------------------- */

/* The SM clock in MHz of the device with this Vulkan deviceUUID (NVIDIA's driver reports the
 * GPU's UUID there), read with nvidia-smi while the GPU works: bench_clock_start() starts the
 * query (popen does not wait), bench_clock_finish() reads its answer. 0 when it cannot be read
 * (no nvidia-smi, another vendor, no matching GPU). */
static inline FILE *bench_clock_start(void)
{
    return popen("nvidia-smi --query-gpu=uuid,clocks.sm --format=csv,noheader,nounits 2>/dev/null", "r");
}

static inline double bench_clock_finish(FILE *pipe, const uint8_t uuid[VK_UUID_SIZE])
{
    char line[256], want[64];
    double mhz = 0, only = 0;
    unsigned lines = 0;
    int n = 0;

    if (!pipe)
        return 0;
    n += snprintf(want + n, sizeof(want) - n, "GPU-");
    for (unsigned i = 0; i < VK_UUID_SIZE; i++)
        n += snprintf(want + n, sizeof(want) - n, "%s%02x", i == 4 || i == 6 || i == 8 || i == 10 ? "-" : "", uuid[i]);
    while (fgets(line, sizeof(line), pipe)) {
        char *comma = strchr(line, ',');
        double value;
        if (!comma || (value = strtod(comma + 1, NULL)) <= 0)
            continue;
        lines++;
        only = value;
        if (!strncmp(line, want, strlen(want)))
            mhz = value;
    }
    if (pclose(pipe) != 0)
        return 0;
    return mhz ? mhz : lines == 1 ? only : 0;
}

#endif
