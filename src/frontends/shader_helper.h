/* The helper processes (d3d12xs-hlslc, d3d12xs-dxbc; hlslc_protocol.h says why they exist):
 * shader_helper.c. D3DCompile starts one per compilation; DXBC translations share one. */
#ifndef D3D12XS_SHADER_HELPER_H
#define D3D12XS_SHADER_HELPER_H

#include "frontends/hlslc_protocol.h"
#include "common/util.h"

#include <sys/types.h>

/* The HLSL helper's path: D3D12XS_HLSLC, else d3d12xs-hlslc beside this library. */
const char *d3d12xs_helper_path(void);
/* How long a compilation or translation may take (D3D12XS_COMPILE_TIMEOUT_MS). */
int64_t d3d12xs_helper_timeout_ms(void);
/* A fatal signal's name, for messages. */
const char *d3d12xs_helper_signal_name(int sig);
enum d3d12xs_helper {
    D3D12XS_HELPER_HLSL, /* d3d12xs-hlslc: one D3DCompile call */
    D3D12XS_HELPER_DXBC, /* d3d12xs-dxbc: the DXBC translator (it warms libvkd3d-shader up before its first request) */
};

/* Starts a helper with its end of a new socket pair as fd 3; *fd gets ours (close-on-exec).
 * E_FAIL with the reason when it cannot start. */
HRESULT d3d12xs_helper_spawn(enum d3d12xs_helper helper, int *fd, pid_t *pid, char *error, size_t error_size);

/* Starts the DXBC translator's process where none runs, without waiting for it to be ready;
 * a failure is left for the first translation to report. D3D12CreateDevice calls it, so that a
 * process's first DXBC pipeline does not wait for the process to start (about 3 ms on the H100). */
void d3d12xs_helper_start_translator(void);
/* One translation's answer: status 0 with the SPIR-V, or libvkd3d-shader's error with its
 * messages (both malloc()ed: free them). */
struct d3d12xs_helper_translation {
    uint32_t status;
    char *messages;
    uint8_t *spirv;
    size_t spirv_size;
};
/* Sends the requests (HLSLC_DXBC_REQUEST payloads) to the translator, several at a time, and
 * returns their answers in order: the translator works on the next request while this process
 * reads the last answer, so a pipeline's stages cost one wait for the translator, not one each.
 * S_OK when every answer came; otherwise the first that did not is *failed (the answers before
 * it are the caller's to free) and the reason is in error: E_INVALIDARG when libvkd3d-shader
 * crashed on it, E_FAIL when the helper could not run or did not answer in time
 * (D3D12XS_COMPILE_TIMEOUT_MS, for each translation). */
HRESULT d3d12xs_helper_translate_dxbc(const struct hlslc_buffer *const *requests, uint32_t count, struct d3d12xs_helper_translation *answers,
        uint32_t *failed, char *error, size_t error_size);

#endif
