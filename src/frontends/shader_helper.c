/* The helper processes (hlslc_protocol.h says why they exist): where they are, how long they
 * may take, starting one, and the DXBC translator. D3DCompile (shader_compile.c) runs one
 * d3d12xs-hlslc per compilation; pipeline creation's DXBC translations (dxbc_translate.c) share
 * one d3d12xs-dxbc. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "frontends/shader_helper.h"
#include "common/config.h"

extern char **environ;

static char helper_path_buffer[4096], translator_path_buffer[4096];
static pthread_once_t helper_path_once = PTHREAD_ONCE_INIT;

/* D3D12XS_HLSLC names the HLSL helper; by default it is d3d12xs-hlslc in the folder of this
 * library (the build tree, or the install's library folder). The DXBC translator d3d12xs-dxbc
 * is in the HLSL helper's folder. */
static void find_helper_path(void)
{
    const char *env = d3d12xs_config()->hlslc, *slash;
    Dl_info info;

    if (*env) {
        snprintf(helper_path_buffer, sizeof(helper_path_buffer), "%s", env);
    } else if (dladdr((void *)d3d12xs_helper_spawn, &info) && info.dli_fname && strchr(info.dli_fname, '/')) {
        slash = strrchr(info.dli_fname, '/');
        snprintf(helper_path_buffer, sizeof(helper_path_buffer), "%.*s/%s", (int)(slash - info.dli_fname),
                info.dli_fname, HLSLC_EXECUTABLE);
    } else {
        snprintf(helper_path_buffer, sizeof(helper_path_buffer), "./%s", HLSLC_EXECUTABLE);
    }
    if ((slash = strrchr(helper_path_buffer, '/')))
        snprintf(translator_path_buffer, sizeof(translator_path_buffer), "%.*s/%s", (int)(slash - helper_path_buffer),
                helper_path_buffer, HLSLC_TRANSLATOR_EXECUTABLE);
    else
        snprintf(translator_path_buffer, sizeof(translator_path_buffer), "%s", HLSLC_TRANSLATOR_EXECUTABLE);
}

int64_t d3d12xs_helper_timeout_ms(void)
{
    return d3d12xs_config()->compile_timeout_ms;
}

const char *d3d12xs_helper_signal_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGFPE: return "SIGFPE";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
    case SIGKILL: return "SIGKILL";
    default: return "a fatal signal";
    }
}

const char *d3d12xs_helper_path(void)
{
    pthread_once(&helper_path_once, find_helper_path);
    return helper_path_buffer;
}

/* Starts the helper with its end of a new socket pair as fd 3; *fd gets ours. */
HRESULT d3d12xs_helper_spawn(enum d3d12xs_helper helper, int *fd, pid_t *pid, char *error, size_t error_size)
{
    const char *path = helper == D3D12XS_HELPER_DXBC ? translator_path_buffer : helper_path_buffer;
    const char *const args[] = {helper == D3D12XS_HELPER_DXBC ? HLSLC_TRANSLATOR_EXECUTABLE : HLSLC_EXECUTABLE, NULL};
    posix_spawn_file_actions_t actions;
    int fds[2], spawn_err;

    pthread_once(&helper_path_once, find_helper_path);
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds))
        return d3d12xs_write_error(E_FAIL, error, error_size, "cannot start the shader compiler helper: socketpair: %s",
                strerror(errno));
    if (fds[1] == HLSLC_FD) {
        /* dup2 onto itself would keep close-on-exec */
        int moved = fcntl(fds[1], F_DUPFD_CLOEXEC, HLSLC_FD + 1);
        close(fds[1]);
        fds[1] = moved;
    }
    if (fds[1] < 0 || posix_spawn_file_actions_init(&actions)) {
        close(fds[0]);
        if (fds[1] >= 0)
            close(fds[1]);
        return d3d12xs_write_error(E_FAIL, error, error_size, "cannot start the shader compiler helper: out of descriptors");
    }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, fds[1], HLSLC_FD);
    spawn_err = posix_spawn(pid, path, &actions, NULL, (char *const *)args, environ);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    if (spawn_err) {
        close(fds[0]);
        return d3d12xs_write_error(E_FAIL, error, error_size, "cannot start the shader compiler helper '%s' (%s); %s",
                path, strerror(spawn_err), helper == D3D12XS_HELPER_DXBC ? "it is looked for beside d3d12xs-hlslc, which "
                "D3D12XS_HLSLC may name" : "D3D12XS_HLSLC may name it");
    }
    *fd = fds[0];
    return S_OK;
}

/* ---- the DXBC translator: one helper process serves the process's DXBC translations ---- */

/* Started with the first device (or at the first translation), one request at a time, and started again after one that
 * crashed it or ran past the timeout: a translation costs the request and libvkd3d-shader's
 * work, not a process start (about 10 ms on lavapipe's machine: docs/benchmarks.md). */
static pthread_mutex_t translator_lock = PTHREAD_MUTEX_INITIALIZER;
static int translator_fd = -1;
static pid_t translator_pid;

/* Ends the translator (killed unless it already died); its wait status, for the message. */
static int stop_translator_locked(void)
{
    int status = 0;
    close(translator_fd);
    translator_fd = -1;
    kill(translator_pid, SIGKILL);
    while (waitpid(translator_pid, &status, 0) < 0 && errno == EINTR)
        ;
    return status;
}

void d3d12xs_helper_start_translator(void)
{
    char error[256];

    pthread_mutex_lock(&translator_lock);
    if (translator_fd < 0 && FAILED(d3d12xs_helper_spawn(D3D12XS_HELPER_DXBC, &translator_fd, &translator_pid, error, sizeof(error))))
        translator_fd = -1;
    pthread_mutex_unlock(&translator_lock);
}

/* Requests in flight at once stay under this many bytes: the socket's buffer then holds them
 * all, so sending never waits for the translator, which may itself be waiting for this process
 * to read an answer (a request alone may be any size: nothing else is in flight). */
#define IN_FLIGHT_BYTES 65536

/* One answer (HLSLC_RESULT) into *answer; S_OK, or the failure with the translator stopped. */
static HRESULT receive_answer_locked(struct d3d12xs_helper_translation *answer, int64_t deadline, char *error, size_t error_size)
{
    uint32_t type = 0;
    uint8_t *payload = NULL;
    size_t size = 0;
    int got;
    HRESULT hr = S_OK;

    if ((got = hlslc_receive(translator_fd, &type, &payload, &size, deadline)) == 1 && type == HLSLC_RESULT) {
        struct hlslc_reader r = {.data = payload, .size = size};
        const char *words;
        if (hlslc_get_u32(&r, &answer->status) && (answer->messages = hlslc_get_strdup(&r, NULL))
                && hlslc_get_str(&r, &words, &answer->spirv_size) && (answer->spirv = malloc(answer->spirv_size ? answer->spirv_size : 1))) {
            memcpy(answer->spirv, words, answer->spirv_size);
        } else {
            free(answer->messages);
            answer->messages = NULL;
            hr = d3d12xs_write_error(E_FAIL, error, error_size, "the shader compiler helper answered a DXBC translation with "
                    "nonsense");
            stop_translator_locked();
        }
    } else {
        int wait_status = stop_translator_locked();
        if (got < 0)
            hr = d3d12xs_write_error(E_FAIL, error, error_size, "libvkd3d-shader did not translate this DXBC shader within %lld ms "
                    "(D3D12XS_COMPILE_TIMEOUT_MS) and was stopped", (long long)d3d12xs_helper_timeout_ms());
        else if ((WIFSIGNALED(wait_status) && WTERMSIG(wait_status) != SIGKILL)
                || (WIFEXITED(wait_status) && WEXITSTATUS(wait_status) > 128))
            hr = d3d12xs_write_error(E_INVALIDARG, error, error_size, "libvkd3d-shader crashed (%s) translating this DXBC "
                    "shader; it ran in a separate process, so only this pipeline creation failed",
                    d3d12xs_helper_signal_name(WIFSIGNALED(wait_status) ? WTERMSIG(wait_status) : WEXITSTATUS(wait_status) - 128));
        else
            hr = d3d12xs_write_error(E_FAIL, error, error_size, "the DXBC translator '%s' ended without translating "
                    "this DXBC shader", translator_path_buffer);
    }
    free(payload);
    return hr;
}

HRESULT d3d12xs_helper_translate_dxbc(const struct hlslc_buffer *const *requests, uint32_t count, struct d3d12xs_helper_translation *answers,
        uint32_t *failed, char *error, size_t error_size)
{
    int64_t deadline = hlslc_now_ms() + d3d12xs_helper_timeout_ms();
    uint32_t sent = 0, received = 0;
    size_t in_flight = 0;
    HRESULT hr = S_OK;

    *failed = 0;
    memset(answers, 0, count * sizeof(*answers));
    pthread_mutex_lock(&translator_lock);
    if (count && translator_fd < 0
            && FAILED(hr = d3d12xs_helper_spawn(D3D12XS_HELPER_DXBC, &translator_fd, &translator_pid, error, error_size))) {
        translator_fd = -1;
        pthread_mutex_unlock(&translator_lock);
        return hr;
    }
    /* The translator answers in order and reads the next request as soon as it has answered one:
     * with the next request already sent, it goes on without waiting for this process. */
    while (received < count) {
        if (sent < count && (sent == received || in_flight + requests[sent]->size <= IN_FLIGHT_BYTES)) {
            if (!hlslc_send(translator_fd, HLSLC_DXBC_REQUEST, requests[sent])) {
                /* the translator is gone: reading the answer of the first request not answered says why */
                sent = count;
                continue;
            }
            in_flight += requests[sent++]->size;
            continue;
        }
        if (FAILED(hr = receive_answer_locked(&answers[received], deadline, error, error_size)))
            break;
        in_flight -= requests[received++]->size;
        deadline = hlslc_now_ms() + d3d12xs_helper_timeout_ms(); /* each translation has the whole timeout */
    }
    *failed = received;
    pthread_mutex_unlock(&translator_lock);
    return hr;
}
