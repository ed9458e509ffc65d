/* The compiler helper process (d3d12xs-hlslc; hlslc_protocol.h says why one exists), as pipeline
 * creation uses it: one DXBC translation by libvkd3d-shader per call. */
#ifndef D3D12XS_SHADER_HELPER_H
#define D3D12XS_SHADER_HELPER_H

#include "shaders/hlslc_protocol.h"
#include "common/util.h"

/* Sends request (HLSLC_DXBC_REQUEST's payload) to a new helper and returns its answer: status 0
 * with the SPIR-V, or libvkd3d-shader's error with its messages (both malloc()ed: free them).
 * E_INVALIDARG when libvkd3d-shader crashed, E_FAIL when the helper could not run or did not
 * answer in time (D3D12XS_COMPILE_TIMEOUT_MS); the reason in error. */
HRESULT d3d12xs_helper_translate_dxbc(const struct hlslc_buffer *request, uint32_t *status, char **messages, uint8_t **spirv,
        size_t *spirv_size, char *error, size_t error_size);

#endif
