/* The conversation between D3DCompile (src/frontends/shader_compile.c) and the HLSL compiler
 * helper process d3d12xs-hlslc (src/frontends/hlslc/hlslc.c).
 *
 * Why a process: glslang's HLSL front end crashes (SIGSEGV, SIGFPE, stack overflow) on a
 * number of inputs, valid and invalid. D3DCompile must never take the application down, so
 * glslang only ever runs in a helper process started with posix_spawn for each compilation:
 * a crash, a hang (killed after a timeout) or an exhausted stack fails that one compilation
 * with E_FAIL and a message. posix_spawn + exec (rather than fork) because the calling
 * process has threads (the Vulkan driver's, the application's): a forked child may inherit
 * locks held by them (malloc's, the sanitizers'), an exec'ed one starts clean.
 *
 * Transport: one AF_UNIX stream socket pair; the helper gets its end as fd 3 (stdin and
 * stdout are /dev/null, stderr is inherited). Every message is
 *     uint32 type, uint32 payload length, payload
 * with integers in native byte order and strings as uint32 length + bytes (no NUL).
 *
 *   parent -> helper  HLSLC_REQUEST  u32 shader kind (shaderc_shader_kind), u32 flags,
 *                                    str source name, str entry point, str source,
 *                                    u32 define count, then per define: str name,
 *                                    u32 has definition, str definition
 *   helper -> parent  HLSLC_INCLUDE  u32 type (shaderc_include_type), str requested,
 *                                    str requesting, u32 depth
 *   parent -> helper  HLSLC_INCLUDE_REPLY  u64 token, str resolved name (empty: error),
 *                                    str content (or the error message)
 *   helper -> parent  HLSLC_RELEASE  u64 token (no reply)
 *   helper -> parent  HLSLC_PREPROCESSED  str preprocessed translation unit (only with
 *                                    HLSLC_REWRITE_PREPROCESSED, when preprocessing succeeded)
 *   parent -> helper  HLSLC_SOURCE   str the source to compile in its place
 *   helper -> parent  HLSLC_RESULT   u32 shaderc status, str messages, str SPIR-V bytes
 *
 * DXBC translations (pipeline creation, src/frontends/dxbc_translate.c) run in a helper too, for
 * the same reason: libvkd3d-shader asserts and crashes on malformed token streams. It is a
 * program of its own, d3d12xs-dxbc (src/frontends/hlslc/dxbc_translator.c), beside
 * d3d12xs-hlslc: without glslang and the C++ runtime it starts several times faster. It stays
 * and serves one translation after another (each HLSLC_DXBC_REQUEST, then its HLSLC_RESULT)
 * until the parent closes the socket; the parent starts a new one after a crash or a timeout.
 *   parent -> helper  HLSLC_DXBC_REQUEST  str DXBC container, u32 binding count, then per
 *                                    binding (struct vkd3d_shader_resource_binding): u32 type,
 *                                    u32 space, u32 register, u32 flags, u32 set, u32 binding,
 *                                    u32 count; then u32 UAV counter count, then per counter
 *                                    (struct vkd3d_shader_uav_counter_binding): u32 space,
 *                                    u32 register, u32 set, u32 binding; then a domain
 *                                    shader's tessellator state (its hull shader's; struct
 *                                    vkd3d_shader_spirv_domain_shader_target_info): u32 output
 *                                    primitive, u32 partitioning (0, 0 for other shaders)
 *   helper -> parent  HLSLC_RESULT   u32 status (0, or libvkd3d-shader's negative error as
 *                                    u32), str messages, str SPIR-V bytes
 * The translator is started with the first device: it translates small built-in shaders of its own (a compute kernel, a vertex
 * and a pixel shader) before it reads the socket, so the first
 * pipeline's translation finds libvkd3d-shader's code paged in and its allocations made (a fresh
 * helper's first translation took 3-4 times a later one's: docs/benchmarks.md).
 *
 * Includes go back to the parent because ID3DInclude is the application's object; the
 * helper never reads files itself. With HLSLC_REWRITE_PREPROCESSED the parent rewrites the
 * whole preprocessed translation unit (src/frontends/hlsl_rewrite.c) between the two steps, in
 * the same helper process (one start per compilation). The preprocessed text keeps the
 * user's files and lines as `#line N "file"` directives (N the number of the next line), so
 * that glslang's messages on the rewritten text still name them. The helper exits after
 * HLSLC_RESULT.
 */
#ifndef D3D12XS_HLSLC_PROTOCOL_H
#define D3D12XS_HLSLC_PROTOCOL_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <sys/types.h>

#define HLSLC_FD 3
#define HLSLC_EXECUTABLE "d3d12xs-hlslc"
#define HLSLC_TRANSLATOR_EXECUTABLE "d3d12xs-dxbc"
#define HLSLC_MAX_MESSAGE (256u << 20)

enum hlslc_message {
    HLSLC_REQUEST = 0x48530001,
    HLSLC_INCLUDE,
    HLSLC_INCLUDE_REPLY,
    HLSLC_RELEASE,
    HLSLC_RESULT,
    HLSLC_PREPROCESSED,
    HLSLC_SOURCE,
    HLSLC_DXBC_REQUEST,
};

enum hlslc_flags {
    HLSLC_OPTIMIZE_NONE = 1u << 0,
    HLSLC_DEBUG_INFO = 1u << 1,
    HLSLC_WARNINGS_ARE_ERRORS = 1u << 2,
    /* preprocess (defines and includes), send HLSLC_PREPROCESSED, compile the HLSLC_SOURCE
     * answer without the defines; without it the source is compiled as it is */
    HLSLC_REWRITE_PREPROCESSED = 1u << 3,
    /* the target is shader model 6.6 or later: compute shaders may use derivatives, over the
     * quads their numthreads implies (src/frontends/hlslc/glslang_hook.cpp) */
    HLSLC_COMPUTE_DERIVATIVES = 1u << 4,
};

/* A growing message payload. */
struct hlslc_buffer {
    uint8_t *data;
    size_t size, capacity;
    bool failed; /* out of memory */
};

static inline void hlslc_put(struct hlslc_buffer *b, const void *data, size_t size)
{
    if (b->failed)
        return;
    if (b->size + size > b->capacity) {
        size_t capacity = (b->size + size) * 2 + 256;
        uint8_t *bigger = realloc(b->data, capacity);
        if (!bigger) {
            b->failed = true;
            return;
        }
        b->data = bigger;
        b->capacity = capacity;
    }
    if (size)
        memcpy(b->data + b->size, data, size);
    b->size += size;
}

static inline void hlslc_put_u32(struct hlslc_buffer *b, uint32_t v)
{
    hlslc_put(b, &v, sizeof(v));
}

static inline void hlslc_put_u64(struct hlslc_buffer *b, uint64_t v)
{
    hlslc_put(b, &v, sizeof(v));
}

static inline void hlslc_put_str(struct hlslc_buffer *b, const void *s, size_t length)
{
    hlslc_put_u32(b, (uint32_t)length);
    hlslc_put(b, s, length);
}

/* Reading a received payload. */
struct hlslc_reader {
    const uint8_t *data;
    size_t size, at;
    bool failed; /* truncated or malformed */
};

static inline bool hlslc_get_u32(struct hlslc_reader *r, uint32_t *v)
{
    if (r->failed || r->size - r->at < sizeof(*v))
        return !(r->failed = true);
    memcpy(v, r->data + r->at, sizeof(*v));
    r->at += sizeof(*v);
    return true;
}

static inline bool hlslc_get_u64(struct hlslc_reader *r, uint64_t *v)
{
    if (r->failed || r->size - r->at < sizeof(*v))
        return !(r->failed = true);
    memcpy(v, r->data + r->at, sizeof(*v));
    r->at += sizeof(*v);
    return true;
}

/* A string of the payload, not NUL-terminated: *s points into the payload. */
static inline bool hlslc_get_str(struct hlslc_reader *r, const char **s, size_t *length)
{
    uint32_t n;
    if (!hlslc_get_u32(r, &n) || r->size - r->at < n)
        return !(r->failed = true);
    *s = (const char *)r->data + r->at;
    *length = n;
    r->at += n;
    return true;
}

/* A copy of a payload string, NUL-terminated (NULL when out of memory or malformed). */
static inline char *hlslc_get_strdup(struct hlslc_reader *r, size_t *length)
{
    const char *s;
    size_t n;
    char *copy;
    if (!hlslc_get_str(r, &s, &n) || !(copy = malloc(n + 1)))
        return NULL;
    memcpy(copy, s, n);
    copy[n] = 0;
    if (length)
        *length = n;
    return copy;
}

/* Writes the header and the payload with as few system calls as the socket takes: the whole
 * message in one sendmsg where it fits the socket's buffer, so that the peer wakes once per
 * message, not once for its header and again for its payload. */
static inline bool hlslc_send(int fd, uint32_t type, const struct hlslc_buffer *payload)
{
    uint32_t header[2] = {type, payload ? (uint32_t)payload->size : 0};
    struct iovec parts[2] = {{header, sizeof(header)}, {payload ? payload->data : NULL, payload ? payload->size : 0}};
    struct msghdr message = {.msg_iov = parts, .msg_iovlen = 2};

    if (payload && payload->failed)
        return false;
    while (message.msg_iovlen) {
        ssize_t n = sendmsg(fd, &message, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        /* a partial write: skip what went */
        while (message.msg_iovlen && (size_t)n >= message.msg_iov->iov_len) {
            n -= (ssize_t)message.msg_iov->iov_len;
            message.msg_iov++;
            message.msg_iovlen--;
        }
        if (message.msg_iovlen) {
            message.msg_iov->iov_base = (uint8_t *)message.msg_iov->iov_base + n;
            message.msg_iov->iov_len -= (size_t)n;
        }
    }
    return true;
}

static inline int64_t hlslc_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Reads exactly size bytes; deadline_ms (hlslc_now_ms clock) < 0 waits forever. Returns
 * 1 when done, 0 at end of stream or on an error, -1 when the deadline passed. */
static inline int hlslc_read_all(int fd, void *data, size_t size, int64_t deadline_ms)
{
    uint8_t *p = data;
    while (size) {
        /* what has arrived is taken at once; poll (with the deadline) only when nothing has */
        ssize_t n = recv(fd, p, size, deadline_ms >= 0 ? MSG_DONTWAIT : 0);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && deadline_ms >= 0) {
            struct pollfd pfd = {.fd = fd, .events = POLLIN};
            int64_t left = deadline_ms - hlslc_now_ms();
            int ready;
            if (left <= 0)
                return -1;
            ready = poll(&pfd, 1, left > 60000 ? 60000 : (int)left);
            if (ready < 0 && errno != EINTR)
                return 0;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return 0;
        p += n;
        size -= (size_t)n;
    }
    return 1;
}

/* Receives one message: *payload is malloc'ed (free it). Same results as hlslc_read_all. */
static inline int hlslc_receive(int fd, uint32_t *type, uint8_t **payload, size_t *size, int64_t deadline_ms)
{
    uint32_t header[2];
    int got;
    *payload = NULL;
    *size = 0;
    if ((got = hlslc_read_all(fd, header, sizeof(header), deadline_ms)) != 1)
        return got;
    if (header[1] > HLSLC_MAX_MESSAGE || !(*payload = malloc(header[1] ? header[1] : 1)))
        return 0;
    if ((got = hlslc_read_all(fd, *payload, header[1], deadline_ms)) != 1) {
        free(*payload);
        *payload = NULL;
        return got;
    }
    *type = header[0];
    *size = header[1];
    return 1;
}

#endif
