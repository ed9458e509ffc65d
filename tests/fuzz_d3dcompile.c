/* libFuzzer target for D3DCompile: the input is HLSL source, compiled for cs_6_0 (and, when
 * its first byte is odd, with optimisation off and a define). Whatever the source, D3DCompile
 * must return S_OK with a SPIR-V blob that reflects, or E_FAIL / E_OUTOFMEMORY with a message
 * in ppErrorMsgs; a crash or hang of glslang must stay in the compiler process
 * (src/frontends/hlslc_protocol.h). Seeds: tests/fuzz_corpus/d3dcompile. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <d3dcompiler.h>

#include "d3d12xs.h"
#include "spirv/spirv.h"

#define REQUIRE(cond) do { if (!(cond)) abort(); } while (0)

static void quiet(D3D12XS_LOG_LEVEL level, const char *line, void *user)
{
    (void)level;
    (void)line;
    (void)user;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    setenv("D3D12XS_LOG", "none", 1);
    setenv("D3D12XS_COMPILE_TIMEOUT_MS", "20000", 1);
    D3D12XSSetLogCallback(quiet, NULL);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const D3D_SHADER_MACRO defines[] = {{"FUZZ", "1"}, {"__XBOX_ENABLE_WAVE32", "1"}, {NULL, NULL}};
    ID3DBlob *code = NULL, *errors = NULL;
    bool variant = size && (data[0] & 1);
    HRESULT hr;

    hr = D3DCompile(data, size, "fuzz.hlsl", variant ? defines : NULL, NULL, "main", "cs_6_0",
            variant ? D3DCOMPILE_SKIP_OPTIMIZATION : 0, 0, &code, &errors);
    REQUIRE(hr == S_OK || hr == E_FAIL || hr == E_OUTOFMEMORY);
    if (hr == S_OK) {
        struct d3d12xs_shader_info info;
        char error[256];
        REQUIRE(code && ID3D10Blob_GetBufferSize(code) >= 20 && ID3D10Blob_GetBufferSize(code) % 4 == 0);
        REQUIRE(d3d12xs_spirv_reflect(ID3D10Blob_GetBufferPointer(code), ID3D10Blob_GetBufferSize(code), &info,
                error, sizeof(error)) == S_OK);
        REQUIRE(info.stage == VK_SHADER_STAGE_COMPUTE_BIT);
        d3d12xs_shader_info_cleanup(&info);
    } else {
        REQUIRE(!code);
        REQUIRE(hr == E_OUTOFMEMORY || (errors && ID3D10Blob_GetBufferSize(errors) > 1));
    }
    if (code)
        ID3D10Blob_Release(code);
    if (errors)
        ID3D10Blob_Release(errors);
    return 0;
}
