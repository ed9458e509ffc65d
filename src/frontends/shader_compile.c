/* D3DCompile: HLSL -> SPIR-V through shaderc's glslang HLSL front end. See spirv/spirv.h for the
 * register encoding, the UAV counter buffers and the wave32 marker the blob carries. */
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <shaderc/shaderc.h>
#include <spirv/unified1/spirv.h>

#include "d3dcompiler.h"
#include "common/blob.h"
#include "common/config.h"
#include "common/log.h"
#include "frontends/hlsl_rewrite.h"
#include "frontends/hlslc_protocol.h"
#include "frontends/shader_helper.h"
#include "spirv/spirv.h"
#include "spirv/spirv_passes.h"
#include "d3d12xs_heap_hlsli.h" /* generated: const char d3d12xs_heap_hlsli[] */


static const char compile_method[] = "D3DCompile";

/* ---- targets ---- */

static bool parse_target(const char *target, shaderc_shader_kind *kind)
{
    static const struct {
        char prefix[3];
        shaderc_shader_kind kind;
    } stages[] = {
        {"cs", shaderc_compute_shader},
        {"vs", shaderc_vertex_shader},
        {"ps", shaderc_fragment_shader},
        {"gs", shaderc_geometry_shader},
        {"hs", shaderc_tess_control_shader},
        {"ds", shaderc_tess_evaluation_shader},
    };
    char major, minor;

    if (strlen(target) != 6 || target[2] != '_' || target[4] != '_')
        return false;
    major = target[3];
    minor = target[5];
    if (!((major == '5' && (minor == '0' || minor == '1')) || (major == '6' && minor >= '0' && minor <= '6')))
        return false;
    for (size_t i = 0; i < sizeof(stages) / sizeof(stages[0]); i++) {
        if (!strncmp(target, stages[i].prefix, 2)) {
            *kind = stages[i].kind;
            return true;
        }
    }
    return false;
}

/* ---- includes ---- */

struct include_record {
    shaderc_include_result result; /* first: shaderc hands this pointer back */
    struct include_record *prev, *next; /* live records, newest last */
    char *name;
    char *owned_text;     /* file contents or an error message, freed on release */
    const void *user_data; /* from ID3DInclude::Open, given back to Close */
    bool user_open;
};

/* One compilation's conversation with the helper: its includes, then the preprocessed
 * translation unit it sends, rewritten once (hlsl_rewrite.c) and sent back to be compiled. */
struct include_context {
    ID3DInclude *include;
    const char *top_name;
    struct include_record *newest;
    char *rewritten;      /* the rewritten translation unit (malloc()ed), once received */
    size_t rewritten_length;
    bool out_of_memory;   /* for the rewrite */
    bool places_constants; /* the preprocessed source uses packoffset / register(cN) */
    bool names_numthreads; /* the preprocessed source spells `numthreads` */
    /* ... and never `globallycoherent`: no volatile access (D3D12XS_SPIRV_NO_VOLATILE_MARKER) */
    bool no_globallycoherent;
};

static bool spells(const char *text, size_t length, const char *word)
{
    size_t word_length = strlen(word);
    for (size_t i = 0; i + word_length <= length; i++)
        if (!memcmp(&text[i], word, word_length))
            return true;
    return false;
}

/* True when the preprocessed text spells `numthreads`. glslang gives a compute shader without
 * the attribute 1x1x1 threads, as if it had [numthreads(1, 1, 1)]. */
static bool names_numthreads(const char *text, size_t length)
{
    return spells(text, length, "numthreads");
}

/* True when the preprocessed text places constants by hand: it has `packoffset`, or a
 * `register(` whose register is not a bN / tN / uN / sN. It decides whether cbuffer layouts are
 * strict (src/spirv_fixup.c, fix 8). */
static bool places_constants(const char *text, size_t length)
{
    static const char packoffset[] = "packoffset", reg[] = "register";
    for (size_t i = 0; i < length; i++) {
        size_t j;
        if (length - i >= sizeof(packoffset) - 1 && !memcmp(&text[i], packoffset, sizeof(packoffset) - 1))
            return true;
        if (length - i < sizeof(reg) - 1 || memcmp(&text[i], reg, sizeof(reg) - 1))
            continue;
        for (j = i + sizeof(reg) - 1; j < length && (isspace((unsigned char)text[j]) || text[j] == '\\'); j++)
            ;
        if (j >= length || text[j] != '(')
            continue;
        for (j++; j < length && (isspace((unsigned char)text[j]) || text[j] == '\\'); j++)
            ;
        if (j + 1 >= length || !strchr("bBtTuUsS", text[j]) || !isdigit((unsigned char)text[j + 1]))
            return true;
    }
    return false;
}

static struct include_record *find_live(struct include_context *context, const char *name)
{
    for (struct include_record *r = context->newest; r; r = r->prev)
        if (r->name && !strcmp(r->name, name))
            return r;
    return NULL;
}

static char *dup_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *dup_printf(const char *fmt, ...)
{
    va_list args;
    char *s = NULL;
    va_start(args, fmt);
    if (vasprintf(&s, fmt, args) < 0)
        s = NULL;
    va_end(args);
    return s;
}

static char *read_file(const char *path, size_t *size, int *err)
{
    FILE *f = fopen(path, "rb");
    char *data = NULL;
    size_t capacity = 0, length = 0;

    if (!f) {
        *err = errno;
        return NULL;
    }
    for (;;) {
        size_t n;
        if (length + 4096 + 1 > capacity) {
            char *bigger = realloc(data, capacity = (length + 4096 + 1) * 2);
            if (!bigger) {
                free(data);
                fclose(f);
                *err = ENOMEM;
                return NULL;
            }
            data = bigger;
        }
        n = fread(data + length, 1, capacity - length - 1, f);
        length += n;
        if (!n)
            break;
    }
    if (ferror(f)) {
        *err = errno ? errno : EIO;
        free(data);
        fclose(f);
        return NULL;
    }
    fclose(f);
    data[length] = 0;
    *size = length;
    return data;
}

/* d3d12xs's header folder: the installed one next to the library, else the source tree's.
 * Returns the malloc()ed path of a readable file there, or NULL. */
static char *find_in_header_dirs(const char *requested)
{
    char *candidates[2] = {NULL, NULL};
    Dl_info info;

    if (dladdr((void *)D3DCompile, &info) && info.dli_fname && strchr(info.dli_fname, '/')) {
        const char *slash = strrchr(info.dli_fname, '/');
        candidates[0] = dup_printf("%.*s/%s/%s", (int)(slash - info.dli_fname), info.dli_fname, D3D12XS_LIB_TO_HEADER_DIR, requested);
    }
    candidates[1] = dup_printf("%s/%s", D3D12XS_SOURCE_HEADER_DIR, requested);
    for (int i = 0; i < 2; i++) {
        if (candidates[i] && !access(candidates[i], R_OK)) {
            free(candidates[1 - i]);
            return candidates[i];
        }
    }
    free(candidates[0]);
    free(candidates[1]);
    return NULL;
}

static shaderc_include_result *include_resolve(void *user, const char *requested, int type,
        const char *requesting, size_t depth)
{
    struct include_context *context = user;
    struct include_record *record, *parent;
    const char *error = NULL;

    (void)depth;
    if (!(record = calloc(1, sizeof(*record))))
        return NULL;
    parent = requesting && strcmp(requesting, context->top_name) ? find_live(context, requesting) : NULL;

    if (!strcmp(requested, D3D12XS_HEAP_INCLUDE)) {
        /* ours, whatever the handler: the header the library was built with */
        if ((record->owned_text = strdup(d3d12xs_heap_hlsli)) && (record->name = strdup(D3D12XS_HEAP_INCLUDE))) {
            record->result.content_length = strlen(record->owned_text);
        } else {
            free(record->owned_text);
            record->owned_text = NULL; /* reported as out of memory below */
        }
    } else if (!context->include) {
        record->owned_text = dup_printf("#include \"%s\": D3DCompile was given no include handler "
                "(pass D3D_COMPILE_STANDARD_FILE_INCLUDE or an ID3DInclude)", requested);
    } else if (context->include == D3D_COMPILE_STANDARD_FILE_INCLUDE) {
        char *path;
        size_t size = 0;
        int err = 0;
        if (requested[0] == '/') {
            path = strdup(requested);
        } else {
            /* relative to the folder of the including file */
            const char *base = parent ? parent->name : context->top_name;
            const char *slash = strrchr(base, '/');
            path = slash ? dup_printf("%.*s/%s", (int)(slash - base), base, requested) : strdup(requested);
        }
        if (path && !(record->owned_text = read_file(path, &size, &err)) && requested[0] != '/') {
            /* Not next to the includer: d3d12xs's own includes (d3d12xs_ordered_append.hlsli). */
            char *fallback = find_in_header_dirs(requested);
            if (fallback) {
                free(path);
                path = fallback;
                record->owned_text = read_file(path, &size, &err);
            }
        }
        if (path && record->owned_text) {
            record->name = path;
            record->result.content_length = size;
        } else {
            record->owned_text = dup_printf("#include \"%s\": cannot open '%s': %s", requested,
                    path ? path : requested, strerror(path ? err : ENOMEM));
            free(path);
        }
    } else {
        LPCVOID data = NULL;
        UINT bytes = 0;
        HRESULT hr = ID3DInclude_Open(context->include,
                type == shaderc_include_type_relative ? D3D_INCLUDE_LOCAL : D3D_INCLUDE_SYSTEM,
                requested, parent ? parent->user_data : NULL, &data, &bytes);
        if (FAILED(hr)) {
            record->owned_text = dup_printf("#include \"%s\": ID3DInclude::Open failed (0x%08x)", requested,
                    (unsigned)hr);
        } else if (!(record->name = strdup(requested))) {
            ID3DInclude_Close(context->include, data);
        } else {
            record->user_open = true;
            record->user_data = data;
            record->result.content = data ? data : "";
            record->result.content_length = data ? bytes : 0;
        }
    }

    if (record->name) {
        record->result.source_name = record->name;
        record->result.source_name_length = strlen(record->name);
        if (!record->user_open)
            record->result.content = record->owned_text;
    } else {
        if (!record->owned_text)
            record->owned_text = dup_printf("#include \"%s\": out of memory", requested);
        error = record->owned_text ? record->owned_text : "out of memory";
        record->result.source_name = "";
        record->result.source_name_length = 0;
        record->result.content = error;
        record->result.content_length = strlen(error);
    }
    record->result.user_data = record;
    record->prev = context->newest;
    if (context->newest)
        context->newest->next = record;
    context->newest = record;
    return &record->result;
}

static void include_release(void *user, shaderc_include_result *result)
{
    struct include_context *context = user;
    struct include_record *record = (struct include_record *)result;

    if (!record)
        return;
    if (record->user_open)
        ID3DInclude_Close(context->include, record->user_data);
    if (record->next)
        record->next->prev = record->prev;
    else
        context->newest = record->prev;
    if (record->prev)
        record->prev->next = record->next;
    free(record->name);
    free(record->owned_text);
    free(record);
}

/* ---- structured buffer layout ---- */

/* D3D12 packs structured buffers tightly; D3DCompile gives them Vulkan's scalar block layout,
 * which is that packing (fix 4, src/spirv/spirv_structured_layout.c). D3D12CreateDevice requires (and enables)
 * the scalarBlockLayout feature, so every device d3d12xs runs on takes these modules. */
static const bool scalar_layout = true;

/* D3D12XS_DEBUG set and not 0: the blob goes through the SPIR-V validator (as the remapped
 * module does at pipeline creation, src/pipelines/pipeline_state.c). No device here: the process's setting. */
static bool debug_validation(void)
{
    return d3d12xs_config_validates_spirv(d3d12xs_config());
}

/* D3D12XS_NO_VECTORIZE set to anything but 0: no 16-byte raw buffer accesses (spirv/spirv_vectorize.c). */
static bool no_vectorize(void)
{
    return d3d12xs_config()->no_vectorize;
}

/* ---- D3DCompile ---- */

static void set_error_blob(ID3DBlob **blob, const char *text)
{
    if (blob && text && *text && FAILED(d3d12xs_blob_create(text, strlen(text) + 1, blob)))
        *blob = NULL;
}

static bool define_is_true(const char *definition)
{
    char *end;
    long value;
    if (!definition || !*definition)
        return false;
    value = strtol(definition, &end, 0);
    while (*end == ' ' || *end == '\t')
        end++;
    return !*end && value != 0;
}

/* ---- the compiler process (src/frontends/hlslc_protocol.h says why; started by shader_helper.c) ---- */

struct helper_result {
    uint32_t status;     /* shaderc_compilation_status */
    char *messages;      /* glslang's errors and warnings */
    uint8_t *spirv;
    size_t spirv_size;
};

static bool serve_include(int fd, struct include_context *context, const uint8_t *payload, size_t size)
{
    struct hlslc_reader r = {.data = payload, .size = size};
    struct hlslc_buffer reply = {0};
    shaderc_include_result *included;
    char *requested, *requesting;
    uint32_t type, depth;
    bool ok;

    if (!hlslc_get_u32(&r, &type) || !(requested = hlslc_get_strdup(&r, NULL)))
        return false;
    if (!(requesting = hlslc_get_strdup(&r, NULL)) || !hlslc_get_u32(&r, &depth)) {
        free(requested);
        free(requesting);
        return false;
    }
    included = include_resolve(context, requested, (int)type, requesting, depth);
    free(requested);
    free(requesting);
    if (!included)
        return false;
    hlslc_put_u64(&reply, (uint64_t)(uintptr_t)included);
    hlslc_put_str(&reply, included->source_name, included->source_name_length);
    if (included->source_name_length) {
        /* a file: only its literals here (d3d12xs_hlsl_rewrite_file); the other rewrites see
         * the whole preprocessed translation unit (serve_preprocessed) */
        size_t rewritten_length;
        char *rewritten = d3d12xs_hlsl_rewrite_file(included->content, included->content_length, &rewritten_length);
        if (!rewritten) {
            context->out_of_memory = true;
            free(reply.data);
            return false;
        }
        hlslc_put_str(&reply, rewritten, rewritten_length);
        free(rewritten);
    } else {
        hlslc_put_str(&reply, included->content, included->content_length);
    }
    ok = hlslc_send(fd, HLSLC_INCLUDE_REPLY, &reply);
    free(reply.data);
    return ok;
}

/* The preprocessed translation unit (every include in place, macros expanded, `#line`
 * directives naming the user's files): rewritten once and sent back to be compiled. */
static bool serve_preprocessed(int fd, struct include_context *context, const uint8_t *payload, size_t size)
{
    struct hlslc_reader r = {.data = payload, .size = size};
    struct hlslc_buffer reply = {0};
    const char *text;
    size_t length;
    unsigned serial = 0; /* of the renamed function statics */
    bool ok;

    if (context->rewritten || !hlslc_get_str(&r, &text, &length))
        return false;
    context->places_constants = places_constants(text, length);
    context->names_numthreads = names_numthreads(text, length);
    context->no_globallycoherent = !spells(text, length, "globallycoherent");
    if (!(context->rewritten = d3d12xs_hlsl_rewrite(text, length, &context->rewritten_length, &serial))
            || context->rewritten_length > HLSLC_MAX_MESSAGE / 2) {
        context->out_of_memory = true;
        return false;
    }
    hlslc_put_str(&reply, context->rewritten, context->rewritten_length);
    ok = hlslc_send(fd, HLSLC_SOURCE, &reply);
    free(reply.data);
    return ok;
}

static void serve_release(struct include_context *context, const uint8_t *payload, size_t size)
{
    struct hlslc_reader r = {.data = payload, .size = size};
    uint64_t token;
    if (!hlslc_get_u64(&r, &token))
        return;
    for (struct include_record *record = context->newest; record; record = record->prev)
        if ((uint64_t)(uintptr_t)&record->result == token) {
            include_release(context, &record->result);
            return;
        }
}

/* Runs the helper on one compilation. Fails (E_FAIL, reason in error[]) when the helper
 * cannot be started, crashes, hangs past the timeout or answers nonsense. */
static HRESULT run_helper(const struct hlslc_buffer *request, struct include_context *context,
        struct helper_result *out, char *error, size_t error_size)
{
    int64_t deadline = hlslc_now_ms() + d3d12xs_helper_timeout_ms();
    int fds[1], status = 0, got = 0;
    bool answered = false, protocol_error = false, timed_out = false;
    pid_t pid;
    HRESULT hr;

    memset(out, 0, sizeof(*out));
    if (FAILED(hr = d3d12xs_helper_spawn(D3D12XS_HELPER_HLSL, &fds[0], &pid, error, error_size)))
        return hr;

    if (hlslc_send(fds[0], HLSLC_REQUEST, request)) {
        for (;;) {
            uint32_t type = 0;
            uint8_t *payload;
            size_t size;
            if ((got = hlslc_receive(fds[0], &type, &payload, &size, deadline)) != 1)
                break;
            if (type == HLSLC_INCLUDE) {
                if (!serve_include(fds[0], context, payload, size))
                    protocol_error = true;
            } else if (type == HLSLC_RELEASE) {
                serve_release(context, payload, size);
            } else if (type == HLSLC_PREPROCESSED) {
                if (!serve_preprocessed(fds[0], context, payload, size))
                    protocol_error = true;
            } else if (type == HLSLC_RESULT) {
                struct hlslc_reader r = {.data = payload, .size = size};
                const char *spirv;
                if (hlslc_get_u32(&r, &out->status) && (out->messages = hlslc_get_strdup(&r, NULL))
                        && hlslc_get_str(&r, &spirv, &out->spirv_size)
                        && (out->spirv = malloc(out->spirv_size ? out->spirv_size : 1))) {
                    memcpy(out->spirv, spirv, out->spirv_size);
                    answered = true;
                } else {
                    protocol_error = true;
                }
            } else {
                protocol_error = true;
            }
            free(payload);
            if (answered || protocol_error)
                break;
        }
    }
    timed_out = got < 0;
    close(fds[0]);
    if (!answered)
        kill(pid, SIGKILL); /* no answer: it crashed, hangs, or is killed now */
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    /* includes still open when the helper died */
    while (context->newest)
        include_release(context, &context->newest->result);
    if (answered)
        return S_OK;
    free(out->messages);
    free(out->spirv);
    memset(out, 0, sizeof(*out));
    if (context->out_of_memory)
        return d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory for the rewritten source");
    if (timed_out)
        return d3d12xs_write_error(E_FAIL, error, error_size, "the HLSL compiler did not finish within %lld ms "
                "(D3D12XS_COMPILE_TIMEOUT_MS) and was stopped", (long long)d3d12xs_helper_timeout_ms());
    if ((WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL) || (WIFEXITED(status) && WEXITSTATUS(status) > 128)) {
        int sig = WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status) - 128;
        return d3d12xs_write_error(E_FAIL, error, error_size, "glslang's HLSL front end crashed (%s) on this "
                "source; D3DCompile ran it in a separate process, so only this compilation failed. Constructs "
                "known to crash it: [numthreads] without constant arguments, mul() of a 1-component vector and "
                "a matrix, non-constant case labels, very deep nesting", d3d12xs_helper_signal_name(sig));
    }
    return d3d12xs_write_error(E_FAIL, error, error_size, "the HLSL compiler '%s' ended without an answer "
            "(%s %d)", d3d12xs_helper_path(), WIFEXITED(status) ? "exit status" : "signal",
            WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? WTERMSIG(status) : -1);
}

/* The request of one compilation (src/frontends/hlslc_protocol.h), the defines' values with their
 * literals rewritten as a file's are; request->failed when out of memory. */
static void put_request(struct hlslc_buffer *request, shaderc_shader_kind kind, uint32_t flags, const char *source_name,
        const char *entry, const char *source, size_t length, const D3D_SHADER_MACRO *defines)
{
    uint32_t define_count = 0;

    for (const D3D_SHADER_MACRO *m = defines; m && m->Name; m++)
        define_count++;
    hlslc_put_u32(request, (uint32_t)kind);
    hlslc_put_u32(request, flags);
    hlslc_put_str(request, source_name, strlen(source_name));
    hlslc_put_str(request, entry, strlen(entry));
    hlslc_put_str(request, source, length);
    hlslc_put_u32(request, define_count);
    for (const D3D_SHADER_MACRO *m = defines; m && m->Name; m++) {
        size_t value_length = 0;
        char *value = m->Definition ? d3d12xs_hlsl_rewrite_file(m->Definition, strlen(m->Definition), &value_length)
                : NULL;
        hlslc_put_str(request, m->Name, strlen(m->Name));
        hlslc_put_u32(request, m->Definition != NULL);
        if (m->Definition && !value)
            request->failed = true;
        hlslc_put_str(request, value ? value : "", value_length);
        free(value);
    }
}

/* The message for a cbuffer layout D3DCompile cannot honour. The optimised module has no
 * names: the rewritten translation unit is compiled once more without optimisation to name
 * the member. */
static void cbuffer_problem_message(shaderc_shader_kind kind, uint32_t flags, const char *source_name,
        const char *entry, struct include_context *context, const struct d3d12xs_cbuffer_problem *problem,
        char *error, size_t error_size)
{
    struct hlslc_buffer request = {0};
    struct helper_result named = {0};
    char name[256], other[256] = "", ignored[256];

    snprintf(name, sizeof(name), "member %u", problem->depth ? problem->path[problem->depth - 1] : 0);
    put_request(&request, kind, (flags & ~HLSLC_REWRITE_PREPROCESSED) | HLSLC_OPTIMIZE_NONE, source_name, entry,
            context->rewritten, context->rewritten_length, NULL);
    if (!request.failed && SUCCEEDED(run_helper(&request, context, &named, ignored, sizeof(ignored)))
            && named.status == shaderc_compilation_status_success && named.spirv_size >= 20 && !(named.spirv_size % 4)) {
        if (!d3d12xs_spirv_cbuffer_member_name((const uint32_t *)named.spirv, named.spirv_size / 4, problem, name,
                sizeof(name)))
            snprintf(name, sizeof(name), "member %u", problem->depth ? problem->path[problem->depth - 1] : 0);
        if (problem->other_member != UINT32_MAX && problem->depth) {
            struct d3d12xs_cbuffer_problem overlapped = *problem;
            char other_name[200];
            overlapped.path[overlapped.depth - 1] = problem->other_member;
            if (d3d12xs_spirv_cbuffer_member_name((const uint32_t *)named.spirv, named.spirv_size / 4, &overlapped,
                    other_name, sizeof(other_name)))
                snprintf(other, sizeof(other), " (member %u is %s)", problem->other_member, other_name);
        }
    }
    free(named.messages);
    free(named.spirv);
    free(request.data);
    d3d12xs_write_error(E_FAIL, error, error_size, "cbuffer layout: %s (space %u) is at byte %u in D3D's packing "
            "and at byte %u in glslang's, and D3DCompile cannot honour D3D's: %s%s", name, problem->set,
            problem->d3d_offset, problem->offset, problem->reason, other);
}

HRESULT WINAPI D3DCompile(LPCVOID pSrcData, SIZE_T SrcDataSize, LPCSTR pSourceName,
        const D3D_SHADER_MACRO *pDefines, ID3DInclude *pInclude, LPCSTR pEntrypoint, LPCSTR pTarget,
        UINT Flags1, UINT Flags2, ID3DBlob **ppCode, ID3DBlob **ppErrorMsgs)
{
    struct include_context include_context;
    struct hlslc_buffer request = {0};
    struct helper_result result = {0};
    uint32_t flags;
    struct d3d12xs_shader_info info;
    shaderc_shader_kind kind;
    const char *source_name = pSourceName && *pSourceName ? pSourceName : "shader.hlsl";
    struct d3d12xs_fixup_counts fixups;
    struct d3d12xs_cbuffer_problem problem;
    struct d3d12xs_spirv_module *module = NULL;
    struct d3d12xs_spirv_fixup_args fixup_args = {scalar_layout ? D3D12XS_FIXUP_SCALAR_LAYOUT : 0, &fixups};
    struct d3d12xs_spirv_cbuffer_layout_args cbuffer_args = {false, &fixups.cbuffer, &problem};
    unsigned vector_loads = 0, vector_stores = 0;
    struct d3d12xs_spirv_vectorize_args vectorize_args = {&vector_loads, &vector_stores};
    struct d3d12xs_spirv_finish_hlsl_args finish_args = {false};
    struct d3d12xs_spirv_buffer_arrays_args buffer_arrays_args = {0};
    uint32_t *words = NULL;
    size_t word_count = 0, source_length = 0;
    char error[1024], *source = NULL;
    bool wave32 = false;
    HRESULT hr;

    (void)Flags2;
    d3d12xs_log_config_warnings();
    if (ppCode)
        *ppCode = NULL;
    if (ppErrorMsgs)
        *ppErrorMsgs = NULL;
    if (!pSrcData)
        return d3d12xs_fail(E_INVALIDARG, compile_method, "pSrcData is NULL");
    if (!pEntrypoint || !*pEntrypoint)
        return d3d12xs_fail(E_INVALIDARG, compile_method, "pEntrypoint is %s", pEntrypoint ? "empty" : "NULL");
    if (!pTarget)
        return d3d12xs_fail(E_INVALIDARG, compile_method, "pTarget is NULL");
    if (!parse_target(pTarget, &kind))
        return d3d12xs_fail(E_INVALIDARG, compile_method, "pTarget '%.32s' is not supported "
                "(cs_5_0, cs_5_1, cs_6_0 to cs_6_6; vs_, ps_, gs_, hs_, ds_ likewise)", pTarget);
    if (!ppCode)
        return d3d12xs_fail(E_INVALIDARG, compile_method, "ppCode is NULL");
    if (Flags1 & D3DCOMPILE_PACK_MATRIX_ROW_MAJOR)
        WARN("%s: D3DCOMPILE_PACK_MATRIX_ROW_MAJOR is not supported; use row_major in the source", compile_method);

    flags = HLSLC_REWRITE_PREPROCESSED;
    if (Flags1 & (D3DCOMPILE_SKIP_OPTIMIZATION | D3DCOMPILE_OPTIMIZATION_LEVEL0))
        flags |= HLSLC_OPTIMIZE_NONE;
    if (Flags1 & D3DCOMPILE_DEBUG)
        flags |= HLSLC_DEBUG_INFO;
    if (Flags1 & D3DCOMPILE_WARNINGS_ARE_ERRORS)
        flags |= HLSLC_WARNINGS_ARE_ERRORS;
    /* shader model 6.6 gives compute shaders derivatives; earlier ones sample at LOD 0 */
    if (pTarget[3] == '6' && pTarget[5] >= '6')
        flags |= HLSLC_COMPUTE_DERIVATIVES;
    memset(&include_context, 0, sizeof(include_context));
    /* the rewrites run once, on the preprocessed translation unit, in serve_preprocessed */
    if (!(source = d3d12xs_hlsl_rewrite_file(pSrcData, SrcDataSize, &source_length)))
        request.failed = true;
    else
        put_request(&request, kind, flags, source_name, pEntrypoint, source, source_length, pDefines);
    for (const D3D_SHADER_MACRO *m = pDefines; m && m->Name; m++)
        if (!strcmp(m->Name, D3D12XS_WAVE32_DEFINE))
            wave32 = define_is_true(m->Definition);
    if (request.failed || source_length > HLSLC_MAX_MESSAGE / 2) {
        hr = d3d12xs_fail(E_OUTOFMEMORY, compile_method, "out of memory for a source of %zu bytes",
                (size_t)SrcDataSize);
        goto done;
    }
    include_context.include = pInclude;
    include_context.top_name = source_name;

    if (FAILED(hr = run_helper(&request, &include_context, &result, error, sizeof(error)))) {
        set_error_blob(ppErrorMsgs, error);
        d3d12xs_fail(hr, compile_method, "compiling '%s' (entry '%s', %s) failed: %s", source_name, pEntrypoint,
                pTarget, error);
        goto done;
    }
    if (result.status != shaderc_compilation_status_success || result.spirv_size < 20 || result.spirv_size % 4) {
        const char *message = result.messages;
        size_t line_length;
        if (!message || !*message)
            message = "compilation failed (no message)";
        line_length = strcspn(message, "\n");
        set_error_blob(ppErrorMsgs, message);
        hr = d3d12xs_fail(E_FAIL, compile_method, "compiling '%s' (entry '%s', %s) failed: %.*s%s", source_name,
                pEntrypoint, pTarget, (int)(line_length > 400 ? 400 : line_length), message,
                message[line_length] && message[line_length + 1] ? " (more in ppErrorMsgs)" : "");
        goto done;
    }

    /* One module from glslang's words to the blob: the fix-ups where glslang departs from HLSL
     * semantics (src/spirv/spirv_fixup.c), D3D's cbuffer packing, 16-byte raw accesses, the
     * counter bindings and markers; then one validation (D3D12XS_DEBUG) and reflection. */
    if (FAILED(hr = d3d12xs_spirv_module_parse(result.spirv, result.spirv_size, &module, error, sizeof(error)))
            || FAILED(hr = d3d12xs_spirv_pass_fixup(module, &fixup_args, error, sizeof(error)))) {
        if (hr != E_OUTOFMEMORY)
            hr = E_FAIL;
        set_error_blob(ppErrorMsgs, error);
        d3d12xs_fail(hr, compile_method, "compiling '%s' (entry '%s', %s): %s", source_name, pEntrypoint, pTarget,
                error);
        goto done;
    }
    /* D3D's cbuffer packing (fix 8, src/spirv/spirv_cbuffer_layout.c), or a refusal naming the
     * member; packoffset / register(cN) were looked for in the preprocessed source */
    cbuffer_args.explicit_placement = include_context.places_constants;
    if (FAILED(hr = d3d12xs_spirv_pass_cbuffer_layout(module, &cbuffer_args, error, sizeof(error)))) {
        if (hr == E_FAIL)
            cbuffer_problem_message(kind, flags, source_name, pEntrypoint, &include_context, &problem, error,
                    sizeof(error));
        else
            d3d12xs_write_error(hr, error, sizeof(error), "out of memory");
        set_error_blob(ppErrorMsgs, error);
        d3d12xs_fail(hr, compile_method, "compiling '%s' (entry '%s', %s): %s", source_name, pEntrypoint, pTarget,
                error);
        goto done;
    }
    /* ByteAddressBuffer Load4 / Store4 as 16-byte accesses (src/spirv/spirv_vectorize.c;
     * D3D12XS_NO_VECTORIZE=1 keeps glslang's four 32-bit ones, for measurements), then arrays of
     * raw and structured buffers as arrays of blocks (src/spirv/spirv_buffer_arrays.c) */
    finish_args.wave32 = wave32;
    finish_args.no_volatile = include_context.no_globallycoherent;
    if ((!no_vectorize() && FAILED(hr = d3d12xs_spirv_pass_vectorize(module, &vectorize_args, error, sizeof(error))))
            || FAILED(hr = d3d12xs_spirv_pass_buffer_arrays(module, &buffer_arrays_args, error, sizeof(error)))
            || FAILED(hr = d3d12xs_spirv_pass_finish_hlsl(module, &finish_args, error, sizeof(error)))
            || FAILED(hr = d3d12xs_spirv_pass_system_values(module, NULL, error, sizeof(error)))
            || FAILED(hr = d3d12xs_spirv_module_emit(module, &words, &word_count))
            /* with D3D12XS_DEBUG=1, the blob is checked by the SPIR-V validator with the layout
             * rules it was made for */
            || (debug_validation()
                && FAILED(hr = d3d12xs_spirv_validate(words, word_count, scalar_layout, error, sizeof(error))))
            || FAILED(hr = d3d12xs_spirv_reflect_module(module, &info, error, sizeof(error)))) {
        if (hr != E_OUTOFMEMORY)
            hr = E_FAIL;
        set_error_blob(ppErrorMsgs, error);
        d3d12xs_fail(hr, compile_method, "compiling '%s' (entry '%s', %s): %s", source_name, pEntrypoint, pTarget,
                hr == E_OUTOFMEMORY ? "out of memory" : error);
        goto done;
    }
    /* D3D's limits on [numthreads], which glslang does not check (nor the attribute's absence) */
    if (kind == shaderc_compute_shader) {
        const uint32_t *size = info.local_size;
        if (!include_context.names_numthreads)
            hr = d3d12xs_write_error(E_FAIL, error, sizeof(error), "the compute shader '%s' has no "
                    "[numthreads(x, y, z)] attribute", pEntrypoint);
        else if (!size[0] || !size[1] || !size[2] || size[0] > 1024 || size[1] > 1024 || size[2] > 64
                || (uint64_t)size[0] * size[1] * size[2] > 1024)
            hr = d3d12xs_write_error(E_FAIL, error, sizeof(error), "[numthreads(%u, %u, %u)] is outside D3D's "
                    "limits (x and y at most 1024, z at most 64, x * y * z at most 1024, none 0)", size[0], size[1],
                    size[2]);
        if (FAILED(hr)) {
            d3d12xs_shader_info_cleanup(&info);
            set_error_blob(ppErrorMsgs, error);
            d3d12xs_fail(hr, compile_method, "compiling '%s' (entry '%s', %s): %s", source_name, pEntrypoint,
                    pTarget, error);
            goto done;
        }
    }
    d3d12xs_shader_info_cleanup(&info);
    if (FAILED(hr = d3d12xs_blob_create(words, word_count * 4, ppCode))) {
        d3d12xs_fail(hr, compile_method, "cannot create the code blob");
        goto done;
    }
    /* warnings of a successful compile */
    set_error_blob(ppErrorMsgs, result.messages);
    TRACE("%s: compiled '%s' (entry '%s', %s): %zu SPIR-V words%s; HLSL fix-ups: %u exclusive scans, "
            "%u OpFRem, %u signed remainders, %u structured buffer layout decorations, %u matrix `*`, %u shifts, "
            "%u float-to-integer conversions, %u cbuffer layout decorations; %u 16-byte loads and %u 16-byte stores "
            "of raw buffers", compile_method, source_name, pEntrypoint, pTarget, word_count, wave32 ? ", wave32" : "",
            fixups.inclusive_scan, fixups.fmod, fixups.smod, fixups.layout, fixups.matrix, fixups.shift, fixups.conversion,
            fixups.cbuffer, vector_loads, vector_stores);
    hr = S_OK;

done:
    d3d12xs_spirv_module_destroy(module);
    free(source);
    free(include_context.rewritten);
    free(words);
    free(result.messages);
    free(result.spirv);
    free(request.data);
    return hr;
}
