/* libFuzzer target for serialized root signatures: d3d12xs_root_signature_parse on arbitrary
 * bytes. Whatever parses is validated, converted to 1.0, 1.1 and 1.2, serialized and parsed again,
 * and must come back equal; the deserializer objects get the same bytes. Any broken promise aborts.
 * Seeds: tests/fuzz_corpus/root_signature. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "d3d12_xs.h"
#include "descriptors/root_signature_blob.h"

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
    /* Before the first log line: the level is read once. */
    setenv("D3D12XS_LOG", "none", 1);
    D3D12XSSetLogCallback(quiet, NULL);
    return 0;
}

static uint32_t read32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Serializes desc, checks the container, parses it back: the same description. */
static void round_trip(const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc)
{
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC *again = NULL;
    uint8_t checksum[16];
    char error[512];
    void *data = NULL;
    size_t size = 0;

    REQUIRE(d3d12xs_root_signature_serialize(desc, &data, &size, error, sizeof(error)) == S_OK);
    REQUIRE(data && size >= 44);
    REQUIRE(!memcmp(data, "DXBC", 4) && read32((uint8_t *)data + 24) == size);
    d3d12xs_dxbc_checksum(data, size, checksum);
    REQUIRE(!memcmp((uint8_t *)data + 4, checksum, 16));
    REQUIRE(d3d12xs_root_signature_parse(data, size, &again, error, sizeof(error)) == S_OK);
    REQUIRE(d3d12xs_root_signature_desc_equal(desc, again));
    d3d12xs_root_signature_desc_free(again);
    free(data);
}

static void deserializers(const uint8_t *data, size_t size, bool valid)
{
    ID3D12VersionedRootSignatureDeserializer *versioned = NULL;
    ID3D12RootSignatureDeserializer *plain = NULL;
    const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc = NULL;
    HRESULT hr;

    hr = D3D12CreateVersionedRootSignatureDeserializer(data, size, &IID_ID3D12VersionedRootSignatureDeserializer, (void **)&versioned);
    REQUIRE(SUCCEEDED(hr) == valid && !versioned == !valid);
    if (versioned) {
        REQUIRE(ID3D12VersionedRootSignatureDeserializer_GetRootSignatureDescAtVersion(versioned, D3D_ROOT_SIGNATURE_VERSION_1_0, &desc) == S_OK);
        REQUIRE(desc && desc->Version == D3D_ROOT_SIGNATURE_VERSION_1_0);
        REQUIRE(ID3D12VersionedRootSignatureDeserializer_GetRootSignatureDescAtVersion(versioned, D3D_ROOT_SIGNATURE_VERSION_1_1, &desc) == S_OK);
        REQUIRE(desc && desc->Version == D3D_ROOT_SIGNATURE_VERSION_1_1);
        REQUIRE(ID3D12VersionedRootSignatureDeserializer_GetRootSignatureDescAtVersion(versioned, D3D_ROOT_SIGNATURE_VERSION_1_2, &desc) == S_OK);
        REQUIRE(desc && desc->Version == D3D_ROOT_SIGNATURE_VERSION_1_2);
        REQUIRE(ID3D12VersionedRootSignatureDeserializer_Release(versioned) == 0);
    }
    hr = D3D12CreateRootSignatureDeserializer(data, size, &IID_ID3D12RootSignatureDeserializer, (void **)&plain);
    REQUIRE(SUCCEEDED(hr) == valid && !plain == !valid);
    if (plain) {
        REQUIRE(ID3D12RootSignatureDeserializer_GetRootSignatureDesc(plain) != NULL);
        REQUIRE(ID3D12RootSignatureDeserializer_Release(plain) == 0);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc = NULL, *v10 = NULL, *v11 = NULL, *v12 = NULL, *back = NULL, *down = NULL;
    char error[512];
    HRESULT hr;
    bool valid;

    error[0] = 0;
    hr = d3d12xs_root_signature_parse(data, size, &desc, error, sizeof(error));
    REQUIRE(memchr(error, 0, sizeof(error)));
    if (FAILED(hr)) {
        REQUIRE(!desc && hr == E_INVALIDARG && error[0]);
        if (size)
            deserializers(data, size, false);
        return 0;
    }
    REQUIRE(desc && (desc->Version == D3D_ROOT_SIGNATURE_VERSION_1_0 || desc->Version == D3D_ROOT_SIGNATURE_VERSION_1_1
            || desc->Version == D3D_ROOT_SIGNATURE_VERSION_1_2));
    hr = d3d12xs_root_signature_validate(desc, error, sizeof(error));
    REQUIRE(hr == S_OK || hr == E_INVALIDARG);
    valid = hr == S_OK;
    deserializers(data, size, valid);

    round_trip(desc);
    REQUIRE(d3d12xs_root_signature_convert(desc, D3D_ROOT_SIGNATURE_VERSION_1_0, &v10, error, sizeof(error)) == S_OK);
    REQUIRE(d3d12xs_root_signature_convert(desc, D3D_ROOT_SIGNATURE_VERSION_1_1, &v11, error, sizeof(error)) == S_OK);
    REQUIRE(d3d12xs_root_signature_convert(desc, D3D_ROOT_SIGNATURE_VERSION_1_2, &v12, error, sizeof(error)) == S_OK);
    round_trip(v10);
    round_trip(v11);
    round_trip(v12);
    /* Converting keeps a valid description valid (1.0 -> 1.1 or 1.2 adds valid flags, going down
     * drops flags, whose rules then no longer apply). */
    if (valid) {
        REQUIRE(d3d12xs_root_signature_validate(v10, error, sizeof(error)) == S_OK);
        REQUIRE(d3d12xs_root_signature_validate(v11, error, sizeof(error)) == S_OK);
        REQUIRE(d3d12xs_root_signature_validate(v12, error, sizeof(error)) == S_OK);
    }
    /* 1.2 holds all that 1.1 does: whatever the source, 1.2 -> 1.1 is the source at 1.1. */
    REQUIRE(d3d12xs_root_signature_convert(v12, D3D_ROOT_SIGNATURE_VERSION_1_1, &down, error, sizeof(error)) == S_OK);
    REQUIRE(d3d12xs_root_signature_desc_equal(down, v11));
    /* 1.0 -> 1.1 -> 1.0 is lossless; so is 1.1 -> 1.0 -> 1.1 -> 1.0. */
    REQUIRE(d3d12xs_root_signature_convert(v11, D3D_ROOT_SIGNATURE_VERSION_1_0, &back, error, sizeof(error)) == S_OK);
    REQUIRE(d3d12xs_root_signature_desc_equal(back, v10));
    if (desc->Version == D3D_ROOT_SIGNATURE_VERSION_1_0)
        REQUIRE(d3d12xs_root_signature_desc_equal(back, desc));
    else if (desc->Version == D3D_ROOT_SIGNATURE_VERSION_1_1)
        REQUIRE(d3d12xs_root_signature_desc_equal(v11, desc));
    else
        REQUIRE(d3d12xs_root_signature_desc_equal(v12, desc));

    d3d12xs_root_signature_desc_free(down);
    d3d12xs_root_signature_desc_free(v12);
    d3d12xs_root_signature_desc_free(back);
    d3d12xs_root_signature_desc_free(v11);
    d3d12xs_root_signature_desc_free(v10);
    d3d12xs_root_signature_desc_free(desc);
    return 0;
}
