/* Serialized root signatures: D3D12SerializeRootSignature / D3D12SerializeVersionedRootSignature,
 * the two deserializers, the internal parse/convert/validate/serialize API, the DXBC checksum,
 * and malformed blobs. Needs no device. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <d3d12_x.h>

#include "harness.h"
#include "descriptors/root_signature_blob.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define FOURCC(a, b, c, d) ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)
#define TAG_DXBC FOURCC('D', 'X', 'B', 'C')
#define TAG_RTS0 FOURCC('R', 'T', 'S', '0')

static uint32_t get32(const void *data, size_t offset)
{
    uint32_t v;
    memcpy(&v, (const uint8_t *)data + offset, 4);
    return v;
}

static void set32(void *data, size_t offset, uint32_t v)
{
    memcpy((uint8_t *)data + offset, &v, 4);
}

/* ---- an independent DXBC checksum: its own MD5 (constants from sin), the message padded in full ---- */

static void ref_md5_blocks(uint32_t h[4], const uint8_t *message, size_t size)
{
    static uint32_t k[64];
    static const unsigned s[64] = {7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
        5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
        6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21};
    for (unsigned i = 0; i < 64; i++)
        k[i] = (uint32_t)(fabs(sin((double)(i + 1))) * 4294967296.0);
    for (size_t block = 0; block < size; block += 64) {
        uint32_t w[16], a = h[0], b = h[1], c = h[2], d = h[3];
        for (unsigned i = 0; i < 16; i++)
            w[i] = get32(message, block + 4 * i);
        for (unsigned i = 0; i < 64; i++) {
            uint32_t f, g;
            if (i < 16) { f = d ^ (b & (c ^ d)); g = i; }
            else if (i < 32) { f = c ^ (d & (b ^ c)); g = (5 * i + 1) & 15; }
            else if (i < 48) { f = b ^ c ^ d; g = (3 * i + 5) & 15; }
            else { f = c ^ (b | ~d); g = (7 * i) & 15; }
            uint32_t sum = a + f + k[i] + w[g];
            a = d; d = c; c = b;
            b += (sum << s[i]) | (sum >> (32 - s[i]));
        }
        h[0] += a; h[1] += b; h[2] += c; h[3] += d;
    }
}

static void ref_dxbc_checksum(const uint8_t *container, size_t size, uint32_t out[4])
{
    size_t length = size - 20, rest = length % 64, padded;
    uint32_t bits = (uint32_t)length * 8;
    uint8_t *message = calloc(1, length + 128);

    /* Bytes 20.., then: rest < 56: [bits][rest bytes][0x80 0...][bits/4|1] as the final block;
     * else: [rest bytes][0x80 0...] then a block [bits][0...][bits/4|1]. */
    memcpy(message, container + 20, length - rest);
    padded = length - rest;
    if (rest >= 56) {
        memcpy(message + padded, container + 20 + padded, rest);
        message[padded + rest] = 0x80;
        padded += 64;
        set32(message, padded, bits);
    } else {
        set32(message, padded, bits);
        memcpy(message + padded + 4, container + 20 + padded, rest);
        message[padded + 4 + rest] = 0x80;
    }
    set32(message, padded + 60, (bits >> 2) | 1);
    out[0] = 0x67452301; out[1] = 0xefcdab89; out[2] = 0x98badcfe; out[3] = 0x10325476;
    ref_md5_blocks(out, message, padded + 64);
    free(message);
}

static bool checksum_matches(const void *blob, size_t size)
{
    uint32_t expected[4];
    ref_dxbc_checksum(blob, size, expected);
    return !memcmp((const uint8_t *)blob + 4, expected, 16);
}

static void test_checksum(void)
{
    static const struct { const char *text; const char *hex; } vectors[] = {
        {"", "d41d8cd98f00b204e9800998ecf8427e"},
        {"abc", "900150983cd24fb0d6963f7d28e17f72"},
        {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
        {"12345678901234567890123456789012345678901234567890123456789012345678901234567890", "57edf4a22be3c955ac49da2e2107b67a"},
    };
    uint8_t digest[16], buffer[400];
    char hex[33];

    for (size_t i = 0; i < ARRAY_SIZE(vectors); i++) {
        d3d12xs_md5(vectors[i].text, strlen(vectors[i].text), digest);
        for (unsigned j = 0; j < 16; j++)
            snprintf(hex + 2 * j, 3, "%02x", digest[j]);
        CHECK_MSG(!strcmp(hex, vectors[i].hex), "md5(\"%s\") is %s, expected %s", vectors[i].text, hex, vectors[i].hex);
    }
    /* Every tail length, both final-block layouts. */
    for (size_t i = 0; i < sizeof(buffer); i++)
        buffer[i] = (uint8_t)(i * 37 + 11);
    unsigned mismatches = 0;
    for (size_t size = 20; size <= sizeof(buffer); size++) {
        uint32_t expected[4];
        d3d12xs_dxbc_checksum(buffer, size, digest);
        ref_dxbc_checksum(buffer, size, expected);
        mismatches += !!memcmp(digest, expected, 16);
    }
    CHECK_MSG(!mismatches, "%u of %zu DXBC checksums differ from the reference", mismatches, sizeof(buffer) - 19);
}

/* ---- a description using everything ---- */

struct fixture {
    D3D12_DESCRIPTOR_RANGE1 ranges[4];
    D3D12_DESCRIPTOR_RANGE1 sampler_ranges[1];
    D3D12_ROOT_PARAMETER1 params[6];
    D3D12_STATIC_SAMPLER_DESC samplers[2];
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc;
};

static void fixture_init(struct fixture *f)
{
    static const D3D12_DESCRIPTOR_RANGE1 ranges[] = {
        {D3D12_DESCRIPTOR_RANGE_TYPE_CBV, 2, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_DATA_STATIC, D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND},
        {D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 4, 0, 1, D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_VOLATILE | D3D12_DESCRIPTOR_RANGE_FLAG_DATA_STATIC_WHILE_SET_AT_EXECUTE,
                D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND},
        {D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 1, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_DATA_VOLATILE, 10},
        {D3D12_DESCRIPTOR_RANGE_TYPE_SRV, UINT_MAX, 10, 0, D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS, 20},
    };
    static const D3D12_STATIC_SAMPLER_DESC samplers[] = {
        {D3D12_FILTER_ANISOTROPIC, D3D12_TEXTURE_ADDRESS_MODE_WRAP, D3D12_TEXTURE_ADDRESS_MODE_MIRROR, D3D12_TEXTURE_ADDRESS_MODE_BORDER,
                -1.5f, 16, D3D12_COMPARISON_FUNC_LESS_EQUAL, D3D12_STATIC_BORDER_COLOR_OPAQUE_WHITE, 0.0f, FLT_MAX, 4, 0,
                D3D12_SHADER_VISIBILITY_PIXEL},
        {D3D12_FILTER_COMPARISON_MIN_MAG_MIP_LINEAR, D3D12_TEXTURE_ADDRESS_MODE_CLAMP, D3D12_TEXTURE_ADDRESS_MODE_CLAMP,
                D3D12_TEXTURE_ADDRESS_MODE_MIRROR_ONCE, 0.25f, 1, D3D12_COMPARISON_FUNC_LESS, D3D12_STATIC_BORDER_COLOR_OPAQUE_BLACK_UINT,
                1.0f, 8.0f, 0, 3, D3D12_SHADER_VISIBILITY_ALL},
    };

    memset(f, 0, sizeof(*f));
    memcpy(f->ranges, ranges, sizeof(ranges));
    f->sampler_ranges[0] = (D3D12_DESCRIPTOR_RANGE1){D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER, 2, 0, 0,
            D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_VOLATILE, D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND};
    memcpy(f->samplers, samplers, sizeof(samplers));

    f->params[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    f->params[0].DescriptorTable.NumDescriptorRanges = ARRAY_SIZE(f->ranges);
    f->params[0].DescriptorTable.pDescriptorRanges = f->ranges;
    f->params[0].ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
    f->params[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    f->params[1].DescriptorTable.NumDescriptorRanges = 1;
    f->params[1].DescriptorTable.pDescriptorRanges = f->sampler_ranges;
    f->params[1].ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL;
    f->params[2].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    f->params[2].Constants = (D3D12_ROOT_CONSTANTS){4, 0, 4};
    f->params[2].ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
    f->params[3].ParameterType = D3D12_ROOT_PARAMETER_TYPE_CBV;
    f->params[3].Descriptor = (D3D12_ROOT_DESCRIPTOR1){5, 0, D3D12_ROOT_DESCRIPTOR_FLAG_DATA_STATIC};
    f->params[3].ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
    f->params[4].ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV;
    f->params[4].Descriptor = (D3D12_ROOT_DESCRIPTOR1){5, 2, D3D12_ROOT_DESCRIPTOR_FLAG_NONE};
    f->params[4].ShaderVisibility = D3D12_SHADER_VISIBILITY_VERTEX;
    f->params[5].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    f->params[5].Descriptor = (D3D12_ROOT_DESCRIPTOR1){3, 0, D3D12_ROOT_DESCRIPTOR_FLAG_DATA_VOLATILE};
    f->params[5].ShaderVisibility = D3D12_SHADER_VISIBILITY_MESH;

    f->desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    f->desc.Desc_1_1.NumParameters = ARRAY_SIZE(f->params);
    f->desc.Desc_1_1.pParameters = f->params;
    f->desc.Desc_1_1.NumStaticSamplers = ARRAY_SIZE(f->samplers);
    f->desc.Desc_1_1.pStaticSamplers = f->samplers;
    f->desc.Desc_1_1.Flags = D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT
            | D3D12_ROOT_SIGNATURE_FLAG_DENY_HULL_SHADER_ROOT_ACCESS | D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI;
}

/* The same description at 1.0 (what D3D12 gives for it: flags dropped). */
struct fixture_1_0 {
    D3D12_DESCRIPTOR_RANGE ranges[4];
    D3D12_DESCRIPTOR_RANGE sampler_ranges[1];
    D3D12_ROOT_PARAMETER params[6];
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc;
};

static void fixture_1_0_init(struct fixture_1_0 *g, const struct fixture *f)
{
    memset(g, 0, sizeof(*g));
    for (size_t i = 0; i < ARRAY_SIZE(g->ranges); i++)
        g->ranges[i] = (D3D12_DESCRIPTOR_RANGE){f->ranges[i].RangeType, f->ranges[i].NumDescriptors, f->ranges[i].BaseShaderRegister,
                f->ranges[i].RegisterSpace, f->ranges[i].OffsetInDescriptorsFromTableStart};
    g->sampler_ranges[0] = (D3D12_DESCRIPTOR_RANGE){D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER, 2, 0, 0, D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND};
    for (size_t i = 0; i < ARRAY_SIZE(g->params); i++) {
        g->params[i].ParameterType = f->params[i].ParameterType;
        g->params[i].ShaderVisibility = f->params[i].ShaderVisibility;
        if (f->params[i].ParameterType == D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS)
            g->params[i].Constants = f->params[i].Constants;
        else if (f->params[i].ParameterType != D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE)
            g->params[i].Descriptor = (D3D12_ROOT_DESCRIPTOR){f->params[i].Descriptor.ShaderRegister, f->params[i].Descriptor.RegisterSpace};
    }
    g->params[0].DescriptorTable = (D3D12_ROOT_DESCRIPTOR_TABLE){ARRAY_SIZE(g->ranges), g->ranges};
    g->params[1].DescriptorTable = (D3D12_ROOT_DESCRIPTOR_TABLE){1, g->sampler_ranges};
    g->desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_0;
    g->desc.Desc_1_0.NumParameters = ARRAY_SIZE(g->params);
    g->desc.Desc_1_0.pParameters = g->params;
    g->desc.Desc_1_0.NumStaticSamplers = f->desc.Desc_1_1.NumStaticSamplers;
    g->desc.Desc_1_0.pStaticSamplers = f->samplers;
    g->desc.Desc_1_0.Flags = f->desc.Desc_1_1.Flags;
}

static void check_container(ID3DBlob *blob)
{
    const uint8_t *data = ID3D10Blob_GetBufferPointer(blob);
    size_t size = ID3D10Blob_GetBufferSize(blob);

    CHECK(size >= 44);
    if (size < 44)
        return;
    CHECK(!memcmp(data, "DXBC", 4));
    CHECK(get32(data, 20) == 1);
    CHECK_MSG(get32(data, 24) == size, "size field %u, blob %zu bytes", get32(data, 24), size);
    CHECK(get32(data, 28) == 1);
    CHECK(get32(data, 32) == 36);
    CHECK(get32(data, 36) == TAG_RTS0);
    CHECK(get32(data, 40) == size - 44);
    CHECK_MSG(checksum_matches(data, size), "the checksum of the %zu-byte blob differs from an independent recomputation", size);
}

static void test_round_trip(void)
{
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC *parsed = NULL, *converted = NULL;
    const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *at_version, *again;
    ID3D12VersionedRootSignatureDeserializer *versioned = NULL;
    ID3D12RootSignatureDeserializer *deserializer = NULL;
    ID3DBlob *blob = NULL, *error_blob = (ID3DBlob *)(uintptr_t)1;
    struct fixture_1_0 g;
    struct fixture f;
    char error[256];
    LOG_MARK();

    fixture_init(&f);
    fixture_1_0_init(&g, &f);

    /* 1.1 */
    CHECK_HR(D3D12SerializeVersionedRootSignature(&f.desc, &blob, &error_blob), S_OK);
    CHECK(error_blob == NULL);
    if (!blob)
        return;
    check_container(blob);
    CHECK_HR(d3d12xs_root_signature_parse(ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob), &parsed, error, sizeof(error)), S_OK);
    CHECK(parsed && parsed->Version == D3D_ROOT_SIGNATURE_VERSION_1_1);
    CHECK(d3d12xs_root_signature_desc_equal(parsed, &f.desc));
    CHECK(parsed && parsed->Desc_1_1.pParameters[0].DescriptorTable.pDescriptorRanges[3].NumDescriptors == UINT_MAX);
    CHECK(parsed && parsed->Desc_1_1.pStaticSamplers[0].MaxLOD == FLT_MAX && parsed->Desc_1_1.pStaticSamplers[0].MipLODBias == -1.5f);
    d3d12xs_root_signature_desc_free(parsed);

    CHECK_HR(D3D12CreateVersionedRootSignatureDeserializer(ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
            &IID_ID3D12VersionedRootSignatureDeserializer, (void **)&versioned), S_OK);
    if (versioned) {
        const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *unconverted = ID3D12VersionedRootSignatureDeserializer_GetUnconvertedRootSignatureDesc(versioned);
        CHECK(d3d12xs_root_signature_desc_equal(unconverted, &f.desc));
        CHECK_HR(ID3D12VersionedRootSignatureDeserializer_GetRootSignatureDescAtVersion(versioned, D3D_ROOT_SIGNATURE_VERSION_1_1, &at_version), S_OK);
        CHECK(at_version == unconverted);
        CHECK_HR(ID3D12VersionedRootSignatureDeserializer_GetRootSignatureDescAtVersion(versioned, D3D_ROOT_SIGNATURE_VERSION_1_0, &at_version), S_OK);
        CHECK(d3d12xs_root_signature_desc_equal(at_version, &g.desc));
        CHECK_HR(ID3D12VersionedRootSignatureDeserializer_GetRootSignatureDescAtVersion(versioned, D3D_ROOT_SIGNATURE_VERSION_1_0, &again), S_OK);
        CHECK(again == at_version);
        ID3D12VersionedRootSignatureDeserializer_AddRef(versioned);
        CHECK(ID3D12VersionedRootSignatureDeserializer_Release(versioned) == 1);
        CHECK(ID3D12VersionedRootSignatureDeserializer_Release(versioned) == 0);
    }
    /* The 1.0 deserializer takes a 1.1 blob and drops the flags. */
    CHECK_HR(D3D12CreateRootSignatureDeserializer(ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
            &IID_ID3D12RootSignatureDeserializer, (void **)&deserializer), S_OK);
    if (deserializer) {
        D3D12_VERSIONED_ROOT_SIGNATURE_DESC got = {.Version = D3D_ROOT_SIGNATURE_VERSION_1_0};
        got.Desc_1_0 = *ID3D12RootSignatureDeserializer_GetRootSignatureDesc(deserializer);
        CHECK(d3d12xs_root_signature_desc_equal(&got, &g.desc));
        CHECK(ID3D12RootSignatureDeserializer_Release(deserializer) == 0);
    }
    ID3D10Blob_Release(blob);

    /* 1.0, through the 1.0 entry point */
    blob = NULL;
    CHECK_HR(D3D12SerializeRootSignature(&g.desc.Desc_1_0, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, NULL), S_OK);
    if (!blob)
        return;
    check_container(blob);
    CHECK(get32(ID3D10Blob_GetBufferPointer(blob), 44) == 1);
    CHECK_HR(d3d12xs_root_signature_parse(ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob), &parsed, error, sizeof(error)), S_OK);
    CHECK(d3d12xs_root_signature_desc_equal(parsed, &g.desc));
    d3d12xs_root_signature_desc_free(parsed);
    deserializer = NULL;
    CHECK_HR(D3D12CreateRootSignatureDeserializer(ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
            &IID_IUnknown, (void **)&deserializer), S_OK);
    if (deserializer) {
        D3D12_VERSIONED_ROOT_SIGNATURE_DESC got = {.Version = D3D_ROOT_SIGNATURE_VERSION_1_0};
        IUnknown *unknown = NULL;
        got.Desc_1_0 = *ID3D12RootSignatureDeserializer_GetRootSignatureDesc(deserializer);
        CHECK(d3d12xs_root_signature_desc_equal(&got, &g.desc));
        CHECK_HR(ID3D12RootSignatureDeserializer_QueryInterface(deserializer, &IID_IUnknown, (void **)&unknown), S_OK);
        CHECK(unknown == (IUnknown *)deserializer);
        if (unknown)
            IUnknown_Release(unknown);
        ID3D12RootSignatureDeserializer_Release(deserializer);
    }
    /* Its 1.1 view has the flags that mean 1.0 semantics. */
    versioned = NULL;
    CHECK_HR(D3D12CreateVersionedRootSignatureDeserializer(ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
            &IID_ID3D12VersionedRootSignatureDeserializer, (void **)&versioned), S_OK);
    if (versioned) {
        CHECK_HR(ID3D12VersionedRootSignatureDeserializer_GetRootSignatureDescAtVersion(versioned, D3D_ROOT_SIGNATURE_VERSION_1_1, &at_version), S_OK);
        CHECK(at_version && at_version->Version == D3D_ROOT_SIGNATURE_VERSION_1_1);
        if (at_version) {
            const D3D12_ROOT_PARAMETER1 *p = at_version->Desc_1_1.pParameters;
            for (unsigned j = 0; j < 4; j++)
                CHECK(p[0].DescriptorTable.pDescriptorRanges[j].Flags
                        == (D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_VOLATILE | D3D12_DESCRIPTOR_RANGE_FLAG_DATA_VOLATILE));
            CHECK(p[1].DescriptorTable.pDescriptorRanges[0].Flags == D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_VOLATILE);
            CHECK(p[3].Descriptor.Flags == D3D12_ROOT_DESCRIPTOR_FLAG_DATA_VOLATILE);
            CHECK(p[4].Descriptor.Flags == D3D12_ROOT_DESCRIPTOR_FLAG_DATA_VOLATILE);
            CHECK(p[5].Descriptor.Flags == D3D12_ROOT_DESCRIPTOR_FLAG_DATA_VOLATILE);
            CHECK(p[2].Constants.Num32BitValues == 4);
            /* ... and goes back to the same 1.0 description. */
            CHECK_HR(d3d12xs_root_signature_convert(at_version, D3D_ROOT_SIGNATURE_VERSION_1_0, &converted, error, sizeof(error)), S_OK);
            CHECK(d3d12xs_root_signature_desc_equal(converted, &g.desc));
            d3d12xs_root_signature_desc_free(converted);
        }
        ID3D12VersionedRootSignatureDeserializer_Release(versioned);
    }
    ID3D10Blob_Release(blob);

    /* convert: same version is a deep copy; 1.1 -> 1.0 -> 1.1 gives the 1.0-semantics flags */
    CHECK_HR(d3d12xs_root_signature_convert(&f.desc, D3D_ROOT_SIGNATURE_VERSION_1_1, &converted, error, sizeof(error)), S_OK);
    CHECK(d3d12xs_root_signature_desc_equal(converted, &f.desc));
    CHECK(converted && converted->Desc_1_1.pParameters != f.desc.Desc_1_1.pParameters);
    d3d12xs_root_signature_desc_free(converted);
    CHECK_HR(d3d12xs_root_signature_convert(&f.desc, D3D_ROOT_SIGNATURE_VERSION_1_0, &converted, error, sizeof(error)), S_OK);
    CHECK(d3d12xs_root_signature_desc_equal(converted, &g.desc));
    d3d12xs_root_signature_desc_free(converted);
    CHECK_NO_LOG();
}

/* Every flag value, standard and console, survives a round trip (and validates). */
static void test_flags(void)
{
    static const UINT values[] = {
        D3D12_ROOT_SIGNATURE_FLAG_NONE, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT,
        D3D12_ROOT_SIGNATURE_FLAG_DENY_VERTEX_SHADER_ROOT_ACCESS, D3D12_ROOT_SIGNATURE_FLAG_DENY_HULL_SHADER_ROOT_ACCESS,
        D3D12_ROOT_SIGNATURE_FLAG_DENY_DOMAIN_SHADER_ROOT_ACCESS, D3D12_ROOT_SIGNATURE_FLAG_DENY_GEOMETRY_SHADER_ROOT_ACCESS,
        D3D12_ROOT_SIGNATURE_FLAG_DENY_PIXEL_SHADER_ROOT_ACCESS, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_STREAM_OUTPUT,
        D3D12_ROOT_SIGNATURE_FLAG_LOCAL_ROOT_SIGNATURE, D3D12_ROOT_SIGNATURE_FLAG_DENY_AMPLIFICATION_SHADER_ROOT_ACCESS,
        D3D12_ROOT_SIGNATURE_FLAG_DENY_MESH_SHADER_ROOT_ACCESS, D3D12_ROOT_SIGNATURE_FLAG_CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED,
        D3D12_ROOT_SIGNATURE_FLAG_SAMPLER_HEAP_DIRECTLY_INDEXED,
        D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI, D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_COMPUTE_2_SPILL_AREA,
        D3D12XBOX_ROOT_SIGNATURE_FLAG_RAYTRACING, D3D12XBOX_ROOT_SIGNATURE_FLAG_INTERNAL_XDXR,
        0xfff & ~D3D12_ROOT_SIGNATURE_FLAG_LOCAL_ROOT_SIGNATURE,
        (0xfff & ~D3D12_ROOT_SIGNATURE_FLAG_LOCAL_ROOT_SIGNATURE) | D3D12XBOX_ROOT_SIGNATURE_FLAG_INTERNAL_XDXR,
    };
    char error[256];
    LOG_MARK();

    CHECK(D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI == 0x01000000);
    CHECK(D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_COMPUTE_2_SPILL_AREA == 0x02000000);
    CHECK(D3D12XBOX_ROOT_SIGNATURE_FLAG_RAYTRACING == D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI);
    CHECK(D3D12XBOX_ROOT_SIGNATURE_FLAG_INTERNAL_XDXR == 0x03000000);
    for (size_t i = 0; i < ARRAY_SIZE(values); i++) {
        for (unsigned version = D3D_ROOT_SIGNATURE_VERSION_1_0; version <= D3D_ROOT_SIGNATURE_VERSION_1_1; version++) {
            D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc = {.Version = (D3D_ROOT_SIGNATURE_VERSION)version}, *parsed = NULL;
            ID3DBlob *blob = NULL;
            desc.Desc_1_1.Flags = (D3D12_ROOT_SIGNATURE_FLAGS)values[i];
            CHECK_HR(D3D12SerializeVersionedRootSignature(&desc, &blob, NULL), S_OK);
            if (!blob)
                continue;
            check_container(blob);
            CHECK_HR(d3d12xs_root_signature_parse(ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob), &parsed, error, sizeof(error)), S_OK);
            CHECK_MSG(parsed && parsed->Version == desc.Version && parsed->Desc_1_1.Flags == values[i], "flags 0x%x (version %u)", values[i], version);
            d3d12xs_root_signature_desc_free(parsed);
            ID3D10Blob_Release(blob);
        }
    }
    CHECK_NO_LOG(); /* INTERNAL_XDXR only warns */
}

/* What Microsoft's compiler writes for these descriptions (size and checksum of its output):
 * same layout and same checksum means byte-identical output. */
static void test_known_blobs(void)
{
    static const D3D12_DESCRIPTOR_RANGE table_ranges[] = {
        {D3D12_DESCRIPTOR_RANGE_TYPE_CBV, 1, 1, 7, D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND},
        {D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 8, 16, 0, D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND},
        {D3D12_DESCRIPTOR_RANGE_TYPE_UAV, UINT_MAX, 3, 0, 44},
    };
    static const D3D12_ROOT_PARAMETER table_params[] = {
        {D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE, .DescriptorTable = {ARRAY_SIZE(table_ranges), table_ranges},
                .ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL},
    };
    static const D3D12_STATIC_SAMPLER_DESC default_sampler = {D3D12_FILTER_ANISOTROPIC, D3D12_TEXTURE_ADDRESS_MODE_WRAP,
            D3D12_TEXTURE_ADDRESS_MODE_WRAP, D3D12_TEXTURE_ADDRESS_MODE_WRAP, 0.0f, 16, D3D12_COMPARISON_FUNC_LESS_EQUAL,
            D3D12_STATIC_BORDER_COLOR_OPAQUE_WHITE, 0.0f, FLT_MAX, 4, 0, D3D12_SHADER_VISIBILITY_ALL};
    static const D3D12_ROOT_PARAMETER1 descriptor_params[] = {
        {D3D12_ROOT_PARAMETER_TYPE_CBV, .Descriptor = {4, 1, 0}, .ShaderVisibility = D3D12_SHADER_VISIBILITY_VERTEX},
        {D3D12_ROOT_PARAMETER_TYPE_SRV, .Descriptor = {13, 0, D3D12_ROOT_DESCRIPTOR_FLAG_DATA_STATIC}, .ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL},
        {D3D12_ROOT_PARAMETER_TYPE_UAV, .Descriptor = {6, 0, D3D12_ROOT_DESCRIPTOR_FLAG_DATA_STATIC_WHILE_SET_AT_EXECUTE},
                .ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL},
    };
    struct {
        D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc;
        uint32_t size, checksum[4];
    } known[4] = {
        {{.Version = D3D_ROOT_SIGNATURE_VERSION_1_0}, 0x44, {0xd64afc1d, 0x5dc27735, 0x9edacb4a, 0x6bd8a7fa}},
        {{.Version = D3D_ROOT_SIGNATURE_VERSION_1_0}, 0x94, {0x0f92e563, 0x4766993f, 0x2304e283, 0x14f0d8dc}},
        {{.Version = D3D_ROOT_SIGNATURE_VERSION_1_0}, 0x78, {0x2876b8ff, 0x935aaa0d, 0x5d2d344a, 0xe002147c}},
        {{.Version = D3D_ROOT_SIGNATURE_VERSION_1_1}, 0x8c, {0x8ddedbbe, 0xbcfea259, 0x6b35bfbb, 0x23e1de24}},
    };
    char error[256];

    known[1].desc.Desc_1_0.NumParameters = 1;
    known[1].desc.Desc_1_0.pParameters = table_params;
    known[2].desc.Desc_1_0.NumStaticSamplers = 1;
    known[2].desc.Desc_1_0.pStaticSamplers = &default_sampler;
    known[3].desc.Desc_1_1.NumParameters = ARRAY_SIZE(descriptor_params);
    known[3].desc.Desc_1_1.pParameters = descriptor_params;
    for (size_t i = 0; i < ARRAY_SIZE(known); i++) {
        void *data = NULL;
        size_t size = 0;
        CHECK_HR(d3d12xs_root_signature_validate(&known[i].desc, error, sizeof(error)), S_OK);
        CHECK_HR(d3d12xs_root_signature_serialize(&known[i].desc, &data, &size, error, sizeof(error)), S_OK);
        CHECK_MSG(size == known[i].size, "known blob %zu: %zu bytes, expected %u", i, size, known[i].size);
        CHECK_MSG(data && size >= 20 && !memcmp((uint8_t *)data + 4, known[i].checksum, 16), "known blob %zu: checksum differs", i);
        free(data);
    }
}

/* A blob as another tool might write it, word by word: samplers first, payloads in reverse order,
 * gaps, a second part before RTS0, a zero checksum. */
static void test_foreign_blob(void)
{
    static const uint32_t words[] = {
        TAG_DXBC, 0, 0, 0, 0, 1, 0 /* size, set below */, 2, 40, 52,
        /* 40: a part we do not know */
        FOURCC('P', 'R', 'I', 'V'), 4, 0xdeadbeef,
        /* 52: RTS0 */
        TAG_RTS0, 0 /* part size, set below */,
        /* 0 */ 2, 3, 76, 1, 24, D3D12_ROOT_SIGNATURE_FLAG_DENY_PIXEL_SHADER_ROOT_ACCESS | 0x02000000,
        /* 24: static sampler */
        D3D12_FILTER_MIN_MAG_MIP_POINT, 3, 3, 3, 0, 0, 0, 0, 0, 0x41200000 /* 10.0f */, 2, 5, D3D12_SHADER_VISIBILITY_PIXEL,
        /* 76: parameters */
        D3D12_ROOT_PARAMETER_TYPE_UAV, D3D12_SHADER_VISIBILITY_ALL, 184,
        D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS, D3D12_SHADER_VISIBILITY_HULL, 172,
        D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE, D3D12_SHADER_VISIBILITY_ALL, 112,
        /* 112: table header, then a gap word */
        2, 124, 0xcccccccc,
        /* 124: two 1.1 ranges */
        D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 3, 8, 1, 0, D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND,
        D3D12_DESCRIPTOR_RANGE_TYPE_CBV, 1, 2, 0, 4 /* DATA_STATIC_WHILE_SET_AT_EXECUTE */, 7,
        /* 172: constants */
        9, 0, 6,
        /* 184: root UAV */
        1, 4, 8 /* DATA_STATIC */,
    };
    uint32_t blob[ARRAY_SIZE(words)];
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc = NULL;
    ID3D12VersionedRootSignatureDeserializer *deserializer = NULL;
    char error[256];
    LOG_MARK();

    memcpy(blob, words, sizeof(words));
    blob[6] = sizeof(blob);
    blob[14] = sizeof(blob) - 60;
    CHECK_HR(d3d12xs_root_signature_parse(blob, sizeof(blob), &desc, error, sizeof(error)), S_OK);
    CHECK(desc != NULL);
    if (desc) {
        const D3D12_ROOT_SIGNATURE_DESC1 *d = &desc->Desc_1_1;
        CHECK(desc->Version == D3D_ROOT_SIGNATURE_VERSION_1_1);
        CHECK(d->Flags == (D3D12_ROOT_SIGNATURE_FLAG_DENY_PIXEL_SHADER_ROOT_ACCESS | D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_COMPUTE_2_SPILL_AREA));
        CHECK(d->NumParameters == 3 && d->NumStaticSamplers == 1);
        CHECK(d->pParameters[0].ParameterType == D3D12_ROOT_PARAMETER_TYPE_UAV && d->pParameters[0].Descriptor.ShaderRegister == 1
                && d->pParameters[0].Descriptor.RegisterSpace == 4 && d->pParameters[0].Descriptor.Flags == D3D12_ROOT_DESCRIPTOR_FLAG_DATA_STATIC);
        CHECK(d->pParameters[1].ShaderVisibility == D3D12_SHADER_VISIBILITY_HULL && d->pParameters[1].Constants.ShaderRegister == 9
                && d->pParameters[1].Constants.Num32BitValues == 6);
        CHECK(d->pParameters[2].DescriptorTable.NumDescriptorRanges == 2);
        CHECK(d->pParameters[2].DescriptorTable.pDescriptorRanges[0].RangeType == D3D12_DESCRIPTOR_RANGE_TYPE_SRV
                && d->pParameters[2].DescriptorTable.pDescriptorRanges[0].NumDescriptors == 3
                && d->pParameters[2].DescriptorTable.pDescriptorRanges[0].BaseShaderRegister == 8
                && d->pParameters[2].DescriptorTable.pDescriptorRanges[0].RegisterSpace == 1
                && d->pParameters[2].DescriptorTable.pDescriptorRanges[0].OffsetInDescriptorsFromTableStart == D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND);
        CHECK(d->pParameters[2].DescriptorTable.pDescriptorRanges[1].Flags == D3D12_DESCRIPTOR_RANGE_FLAG_DATA_STATIC_WHILE_SET_AT_EXECUTE
                && d->pParameters[2].DescriptorTable.pDescriptorRanges[1].OffsetInDescriptorsFromTableStart == 7);
        CHECK(d->pStaticSamplers[0].AddressW == D3D12_TEXTURE_ADDRESS_MODE_CLAMP && d->pStaticSamplers[0].MaxLOD == 10.0f
                && d->pStaticSamplers[0].ShaderRegister == 2 && d->pStaticSamplers[0].RegisterSpace == 5);
        CHECK_HR(d3d12xs_root_signature_validate(desc, error, sizeof(error)), S_OK);

        /* Our serialization of it is canonical and parses back the same. */
        void *data = NULL;
        size_t size = 0;
        D3D12_VERSIONED_ROOT_SIGNATURE_DESC *again = NULL;
        CHECK_HR(d3d12xs_root_signature_serialize(desc, &data, &size, error, sizeof(error)), S_OK);
        CHECK(size == sizeof(blob) - 12 - 4 - 4); /* no PRIV part, no gap word */
        CHECK_HR(d3d12xs_root_signature_parse(data, size, &again, error, sizeof(error)), S_OK);
        CHECK(d3d12xs_root_signature_desc_equal(desc, again));
        d3d12xs_root_signature_desc_free(again);
        free(data);
        d3d12xs_root_signature_desc_free(desc);
    }
    CHECK_HR(D3D12CreateVersionedRootSignatureDeserializer(blob, sizeof(blob), &IID_ID3D12VersionedRootSignatureDeserializer,
            (void **)&deserializer), S_OK);
    if (deserializer)
        ID3D12VersionedRootSignatureDeserializer_Release(deserializer);
    /* A larger buffer than the container is fine: the header's size counts. */
    {
        uint8_t bigger[sizeof(blob) + 16] = {0};
        memcpy(bigger, blob, sizeof(blob));
        CHECK_HR(d3d12xs_root_signature_parse(bigger, sizeof(bigger), &desc, error, sizeof(error)), S_OK);
        d3d12xs_root_signature_desc_free(desc);
    }
    CHECK_NO_LOG();
}

/* ---- validation: one bad field at a time ---- */

enum bad_case {
    BAD_VERSION, BAD_FLAGS_BIT, BAD_FLAGS_CONSOLE_BIT, BAD_FLAGS_LOCAL, BAD_PARAMETERS_NULL, BAD_PARAMETER_TYPE,
    BAD_VISIBILITY, BAD_TABLE_EMPTY, BAD_TABLE_NULL, BAD_RANGE_TYPE, BAD_RANGE_COUNT, BAD_RANGE_REGISTERS, BAD_RANGE_SPACE,
    BAD_APPEND_AFTER_UNBOUNDED, BAD_RANGE_OFFSET, BAD_MIXED_TABLE, BAD_RANGE_FLAGS_UNKNOWN, BAD_RANGE_FLAGS_SAMPLER_DATA,
    BAD_RANGE_FLAGS_TWO_DATA, BAD_RANGE_FLAGS_VOLATILE_STATIC, BAD_RANGE_FLAGS_VOLATILE_BOUNDS, BAD_DESCRIPTOR_FLAGS,
    BAD_DESCRIPTOR_FLAGS_TWO, BAD_DESCRIPTOR_REGISTER, BAD_DESCRIPTOR_SPACE, BAD_CONSTANTS_ZERO, BAD_ROOT_COST,
    BAD_SAMPLERS_NULL, BAD_SAMPLER_FILTER, BAD_SAMPLER_ADDRESS, BAD_SAMPLER_LOD_BIAS, BAD_SAMPLER_ANISOTROPY,
    BAD_SAMPLER_COMPARISON, BAD_SAMPLER_BORDER, BAD_SAMPLER_LOD_NAN, BAD_SAMPLER_REGISTER, BAD_SAMPLER_SPACE,
    BAD_SAMPLER_VISIBILITY, BAD_OVERLAP_ROOT, BAD_OVERLAP_UNBOUNDED, BAD_OVERLAP_STATIC_SAMPLER, BAD_OVERLAP_RANGES,
    BAD_CASE_COUNT
};

static const struct {
    HRESULT hr;
    const char *field; /* what the log line must name */
} bad_cases[BAD_CASE_COUNT] = {
    [BAD_VERSION] = {E_INVALIDARG, "Version is 7"},
    [BAD_FLAGS_BIT] = {E_INVALIDARG, "Flags is 0x1000"},
    [BAD_FLAGS_CONSOLE_BIT] = {E_INVALIDARG, "Flags is 0x4000000"},
    [BAD_FLAGS_LOCAL] = {E_INVALIDARG, "LOCAL_ROOT_SIGNATURE cannot be combined"},
    [BAD_PARAMETERS_NULL] = {E_INVALIDARG, "pParameters is NULL"},
    [BAD_PARAMETER_TYPE] = {E_INVALIDARG, "pParameters[2].ParameterType is 5"},
    [BAD_VISIBILITY] = {E_INVALIDARG, "pParameters[4].ShaderVisibility is 8"},
    [BAD_TABLE_EMPTY] = {E_INVALIDARG, "pParameters[0].DescriptorTable.NumDescriptorRanges is 0"},
    [BAD_TABLE_NULL] = {E_INVALIDARG, "pParameters[0].DescriptorTable.pDescriptorRanges is NULL"},
    [BAD_RANGE_TYPE] = {E_INVALIDARG, "pParameters[0].DescriptorTable.pDescriptorRanges[1].RangeType is 7 (must be SRV, UAV, CBV or SAMPLER)"},
    [BAD_RANGE_COUNT] = {E_INVALIDARG, "pParameters[0].DescriptorTable.pDescriptorRanges[1].NumDescriptors is 0"},
    [BAD_RANGE_REGISTERS] = {E_INVALIDARG, "pParameters[0].DescriptorTable.pDescriptorRanges[1]: BaseShaderRegister"},
    [BAD_RANGE_SPACE] = {E_INVALIDARG, "pParameters[0].DescriptorTable.pDescriptorRanges[0].RegisterSpace is 0xfffffff0"},
    [BAD_APPEND_AFTER_UNBOUNDED] = {E_INVALIDARG, "pParameters[0].DescriptorTable.pDescriptorRanges[3].OffsetInDescriptorsFromTableStart is APPEND after an unbounded"},
    [BAD_RANGE_OFFSET] = {E_INVALIDARG, "pParameters[0].DescriptorTable.pDescriptorRanges[2]: descriptors"},
    [BAD_MIXED_TABLE] = {E_INVALIDARG, "pParameters[0].DescriptorTable.pDescriptorRanges[1].RangeType is SAMPLER"},
    [BAD_RANGE_FLAGS_UNKNOWN] = {E_INVALIDARG, "pParameters[0].DescriptorTable.pDescriptorRanges[0].Flags is 0x20"},
    [BAD_RANGE_FLAGS_SAMPLER_DATA] = {E_INVALIDARG, "pParameters[1].DescriptorTable.pDescriptorRanges[0].Flags is 0x8"},
    [BAD_RANGE_FLAGS_TWO_DATA] = {E_INVALIDARG, "pParameters[0].DescriptorTable.pDescriptorRanges[0].Flags is 0xa"},
    [BAD_RANGE_FLAGS_VOLATILE_STATIC] = {E_INVALIDARG, "pParameters[0].DescriptorTable.pDescriptorRanges[0].Flags is 0x9"},
    [BAD_RANGE_FLAGS_VOLATILE_BOUNDS] = {E_INVALIDARG, "pParameters[0].DescriptorTable.pDescriptorRanges[3].Flags is 0x10001"},
    [BAD_DESCRIPTOR_FLAGS] = {E_INVALIDARG, "pParameters[3].Descriptor.Flags is 0x1"},
    [BAD_DESCRIPTOR_FLAGS_TWO] = {E_INVALIDARG, "pParameters[5].Descriptor.Flags is 0x6"},
    [BAD_DESCRIPTOR_REGISTER] = {E_INVALIDARG, "pParameters[4].Descriptor.ShaderRegister is 0xffffffff"},
    [BAD_DESCRIPTOR_SPACE] = {E_INVALIDARG, "pParameters[4].Descriptor.RegisterSpace is 0xffffffff"},
    [BAD_CONSTANTS_ZERO] = {E_INVALIDARG, "pParameters[2].Constants.Num32BitValues is 0"},
    [BAD_ROOT_COST] = {E_INVALIDARG, "pParameters cost 65 DWORDs"},
    [BAD_SAMPLERS_NULL] = {E_INVALIDARG, "pStaticSamplers is NULL"},
    [BAD_SAMPLER_FILTER] = {E_INVALIDARG, "pStaticSamplers[0].Filter is 0x3"},
    [BAD_SAMPLER_ADDRESS] = {E_INVALIDARG, "pStaticSamplers[1].AddressV is 0"},
    [BAD_SAMPLER_LOD_BIAS] = {E_INVALIDARG, "pStaticSamplers[0].MipLODBias is 16"},
    [BAD_SAMPLER_ANISOTROPY] = {E_INVALIDARG, "pStaticSamplers[0].MaxAnisotropy is 17"},
    [BAD_SAMPLER_COMPARISON] = {E_INVALIDARG, "pStaticSamplers[1].ComparisonFunc is 0"},
    [BAD_SAMPLER_BORDER] = {E_INVALIDARG, "pStaticSamplers[0].BorderColor is 5"},
    [BAD_SAMPLER_LOD_NAN] = {E_INVALIDARG, "pStaticSamplers[1].MinLOD is NaN"},
    [BAD_SAMPLER_REGISTER] = {E_INVALIDARG, "pStaticSamplers[1].ShaderRegister is 0xffffffff"},
    [BAD_SAMPLER_SPACE] = {E_INVALIDARG, "pStaticSamplers[0].RegisterSpace is 0xfffffff5"},
    [BAD_SAMPLER_VISIBILITY] = {E_INVALIDARG, "pStaticSamplers[0].ShaderVisibility is 9"},
    [BAD_OVERLAP_ROOT] = {E_INVALIDARG, "pParameters[3] (b4, visibility ALL) overlaps pParameters[2] (b4, visibility ALL)"},
    [BAD_OVERLAP_UNBOUNDED] = {E_INVALIDARG, "pParameters[4] (t12, visibility VERTEX) overlaps pParameters[0].DescriptorTable.pDescriptorRanges[3] (t10 and up"},
    [BAD_OVERLAP_STATIC_SAMPLER] = {E_INVALIDARG, "pStaticSamplers[0] (s1, visibility PIXEL) overlaps pParameters[1].DescriptorTable.pDescriptorRanges[0] (s0-s1"},
    [BAD_OVERLAP_RANGES] = {E_INVALIDARG, "pParameters[5] (u1, visibility ALL) overlaps pParameters[0].DescriptorTable.pDescriptorRanges[2] (u0-u1"},
};

static void break_fixture(struct fixture *f, enum bad_case which)
{
    D3D12_ROOT_SIGNATURE_DESC1 *d = &f->desc.Desc_1_1;
    switch (which) {
    case BAD_VERSION: f->desc.Version = (D3D_ROOT_SIGNATURE_VERSION)7; break;
    case BAD_FLAGS_BIT: d->Flags = (D3D12_ROOT_SIGNATURE_FLAGS)0x1000; break;
    case BAD_FLAGS_CONSOLE_BIT: d->Flags = (D3D12_ROOT_SIGNATURE_FLAGS)0x04000000; break;
    case BAD_FLAGS_LOCAL: d->Flags = D3D12_ROOT_SIGNATURE_FLAG_LOCAL_ROOT_SIGNATURE | D3D12XBOX_ROOT_SIGNATURE_FLAG_RAYTRACING; break;
    case BAD_PARAMETERS_NULL: d->pParameters = NULL; break;
    case BAD_PARAMETER_TYPE: f->params[2].ParameterType = (D3D12_ROOT_PARAMETER_TYPE)5; break;
    case BAD_VISIBILITY: f->params[4].ShaderVisibility = (D3D12_SHADER_VISIBILITY)8; break;
    case BAD_TABLE_EMPTY: f->params[0].DescriptorTable.NumDescriptorRanges = 0; break;
    case BAD_TABLE_NULL: f->params[0].DescriptorTable.pDescriptorRanges = NULL; break;
    case BAD_RANGE_TYPE: f->ranges[1].RangeType = (D3D12_DESCRIPTOR_RANGE_TYPE)7; break;
    case BAD_RANGE_COUNT: f->ranges[1].NumDescriptors = 0; break;
    case BAD_RANGE_REGISTERS: f->ranges[1].BaseShaderRegister = 0xfffffff0; f->ranges[1].NumDescriptors = 100; break;
    case BAD_RANGE_SPACE: f->ranges[0].RegisterSpace = 0xfffffff0; break;
    case BAD_APPEND_AFTER_UNBOUNDED:
        f->ranges[2].NumDescriptors = UINT_MAX;
        f->ranges[3].OffsetInDescriptorsFromTableStart = D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND;
        break;
    case BAD_RANGE_OFFSET: f->ranges[2].OffsetInDescriptorsFromTableStart = 0xfffffffe; f->ranges[2].NumDescriptors = 2; break;
    case BAD_MIXED_TABLE: f->ranges[1].RangeType = D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER; f->ranges[1].Flags = 0; break;
    case BAD_RANGE_FLAGS_UNKNOWN: f->ranges[0].Flags = (D3D12_DESCRIPTOR_RANGE_FLAGS)0x20; break;
    case BAD_RANGE_FLAGS_SAMPLER_DATA: f->sampler_ranges[0].Flags = D3D12_DESCRIPTOR_RANGE_FLAG_DATA_STATIC; break;
    case BAD_RANGE_FLAGS_TWO_DATA:
        f->ranges[0].Flags = D3D12_DESCRIPTOR_RANGE_FLAG_DATA_VOLATILE | D3D12_DESCRIPTOR_RANGE_FLAG_DATA_STATIC;
        break;
    case BAD_RANGE_FLAGS_VOLATILE_STATIC:
        f->ranges[0].Flags = D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_VOLATILE | D3D12_DESCRIPTOR_RANGE_FLAG_DATA_STATIC;
        break;
    case BAD_RANGE_FLAGS_VOLATILE_BOUNDS:
        f->ranges[3].Flags = D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_VOLATILE | D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS;
        break;
    case BAD_DESCRIPTOR_FLAGS: f->params[3].Descriptor.Flags = (D3D12_ROOT_DESCRIPTOR_FLAGS)1; break;
    case BAD_DESCRIPTOR_FLAGS_TWO:
        f->params[5].Descriptor.Flags = D3D12_ROOT_DESCRIPTOR_FLAG_DATA_VOLATILE | D3D12_ROOT_DESCRIPTOR_FLAG_DATA_STATIC_WHILE_SET_AT_EXECUTE;
        break;
    case BAD_DESCRIPTOR_REGISTER: f->params[4].Descriptor.ShaderRegister = UINT_MAX; break;
    case BAD_DESCRIPTOR_SPACE: f->params[4].Descriptor.RegisterSpace = UINT_MAX; break;
    case BAD_CONSTANTS_ZERO: f->params[2].Constants.Num32BitValues = 0; break;
    case BAD_ROOT_COST: f->params[2].Constants.Num32BitValues = 57; break; /* 1 + 1 + 57 + 3 * 2 */
    case BAD_SAMPLERS_NULL: d->pStaticSamplers = NULL; break;
    case BAD_SAMPLER_FILTER: f->samplers[0].Filter = (D3D12_FILTER)3; break;
    case BAD_SAMPLER_ADDRESS: f->samplers[1].AddressV = (D3D12_TEXTURE_ADDRESS_MODE)0; break;
    case BAD_SAMPLER_LOD_BIAS: f->samplers[0].MipLODBias = 16.0f; break;
    case BAD_SAMPLER_ANISOTROPY: f->samplers[0].MaxAnisotropy = 17; break;
    case BAD_SAMPLER_COMPARISON: f->samplers[1].ComparisonFunc = (D3D12_COMPARISON_FUNC)0; break;
    case BAD_SAMPLER_BORDER: f->samplers[0].BorderColor = (D3D12_STATIC_BORDER_COLOR)5; break;
    case BAD_SAMPLER_LOD_NAN: f->samplers[1].MinLOD = NAN; break;
    case BAD_SAMPLER_REGISTER: f->samplers[1].ShaderRegister = UINT_MAX; break;
    case BAD_SAMPLER_SPACE: f->samplers[0].RegisterSpace = 0xfffffff5; break;
    case BAD_SAMPLER_VISIBILITY: f->samplers[0].ShaderVisibility = (D3D12_SHADER_VISIBILITY)9; break;
    case BAD_OVERLAP_ROOT: f->params[3].Descriptor.ShaderRegister = 4; break;
    case BAD_OVERLAP_UNBOUNDED: f->params[4].Descriptor.RegisterSpace = 0; f->params[4].Descriptor.ShaderRegister = 12; break;
    case BAD_OVERLAP_STATIC_SAMPLER: f->samplers[0].ShaderRegister = 1; break;
    case BAD_OVERLAP_RANGES: f->ranges[2].NumDescriptors = 2; f->params[5].Descriptor.ShaderRegister = 1; f->params[5].ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL; break;
    case BAD_CASE_COUNT: break;
    }
}

static void test_validation(void)
{
    struct fixture f;
    char error[512];

    for (int which = 0; which < BAD_CASE_COUNT; which++) {
        ID3DBlob *blob = (ID3DBlob *)(uintptr_t)1, *error_blob = NULL;
        LOG_MARK();
        fixture_init(&f);
        break_fixture(&f, (enum bad_case)which);
        CHECK_HR(d3d12xs_root_signature_validate(&f.desc, error, sizeof(error)), bad_cases[which].hr);
        CHECK_MSG(strstr(error, bad_cases[which].field) != NULL, "case %d: \"%s\" does not name \"%s\"", which, error, bad_cases[which].field);
        CHECK_NO_LOG();
        CHECK_HR(D3D12SerializeVersionedRootSignature(&f.desc, &blob, &error_blob), bad_cases[which].hr);
        CHECK_LOG("D3D12SerializeVersionedRootSignature", "pRootSignature->", bad_cases[which].field);
        CHECK(blob == NULL);
        CHECK(error_blob != NULL);
        if (error_blob) {
            const char *text = ID3D10Blob_GetBufferPointer(error_blob);
            size_t size = ID3D10Blob_GetBufferSize(error_blob);
            CHECK_MSG(size && !text[size - 1] && strstr(text, bad_cases[which].field), "case %d: error blob \"%.*s\"", which, (int)size, text);
            ID3D10Blob_Release(error_blob);
        }
    }

    /* Allowed: the same register in different stages, different spaces, an unbounded range last. */
    {
        LOG_MARK();
        fixture_init(&f);
        f.params[4].Descriptor.RegisterSpace = 0;
        f.params[4].Descriptor.ShaderRegister = 4;             /* t4 VERTEX: below the unbounded t10.. */
        f.samplers[0].ShaderVisibility = D3D12_SHADER_VISIBILITY_VERTEX;
        f.samplers[0].ShaderRegister = 0;                      /* s0 VERTEX vs s0-s1 PIXEL */
        f.params[5].Descriptor.ShaderRegister = 0;             /* u0 MESH vs u0 ALL in the table: overlaps */
        CHECK_HR(d3d12xs_root_signature_validate(&f.desc, error, sizeof(error)), E_INVALIDARG);
        f.params[5].Descriptor.RegisterSpace = 9;              /* ...not in another space */
        CHECK_HR(d3d12xs_root_signature_validate(&f.desc, error, sizeof(error)), S_OK);
        f.params[2].Constants.Num32BitValues = 56;             /* exactly 64 DWORDs */
        CHECK_HR(d3d12xs_root_signature_validate(&f.desc, error, sizeof(error)), S_OK);
        f.desc.Desc_1_1.Flags = D3D12_ROOT_SIGNATURE_FLAG_LOCAL_ROOT_SIGNATURE;
        CHECK_HR(d3d12xs_root_signature_validate(&f.desc, error, sizeof(error)), S_OK);
        CHECK_NO_LOG();
    }

    /* The 1.0 entry point names fields from pRootSignature. */
    {
        struct fixture_1_0 g;
        ID3DBlob *blob = NULL, *error_blob = NULL;
        LOG_MARK();
        fixture_init(&f);
        fixture_1_0_init(&g, &f);
        g.ranges[1].RangeType = (D3D12_DESCRIPTOR_RANGE_TYPE)7;
        CHECK_HR(D3D12SerializeRootSignature(&g.desc.Desc_1_0, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, &error_blob), E_INVALIDARG);
        CHECK_LOG("D3D12SerializeRootSignature", "pRootSignature->pParameters[0].DescriptorTable.pDescriptorRanges[1].RangeType is 7");
        CHECK(!blob && error_blob);
        if (error_blob)
            ID3D10Blob_Release(error_blob);
    }
}

static void test_arguments(void)
{
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc = {.Version = D3D_ROOT_SIGNATURE_VERSION_1_0};
    ID3D12VersionedRootSignatureDeserializer *versioned = NULL;
    ID3D12RootSignatureDeserializer *deserializer = (ID3D12RootSignatureDeserializer *)(uintptr_t)1;
    const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *at_version;
    ID3DBlob *blob = NULL, *error_blob = NULL;
    IUnknown *unknown;
    LOG_MARK();

    CHECK_HR(D3D12SerializeRootSignature(NULL, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, &error_blob), E_INVALIDARG);
    CHECK_LOG("D3D12SerializeRootSignature", "pRootSignature is NULL");
    CHECK(error_blob != NULL);
    if (error_blob)
        ID3D10Blob_Release(error_blob);
    RELOG_MARK();
    CHECK_HR(D3D12SerializeRootSignature(&desc.Desc_1_0, D3D_ROOT_SIGNATURE_VERSION_1_1, &blob, NULL), E_INVALIDARG);
    CHECK_LOG("D3D12SerializeRootSignature", "Version is 1_1");
    RELOG_MARK();
    CHECK_HR(D3D12SerializeRootSignature(&desc.Desc_1_0, D3D_ROOT_SIGNATURE_VERSION_1_0, NULL, NULL), E_POINTER);
    CHECK_LOG("ppBlob");
    RELOG_MARK();
    CHECK_HR(D3D12SerializeVersionedRootSignature(NULL, &blob, NULL), E_INVALIDARG);
    CHECK_LOG("D3D12SerializeVersionedRootSignature", "pRootSignature is NULL");
    RELOG_MARK();
    CHECK_HR(D3D12SerializeVersionedRootSignature(&desc, NULL, NULL), E_POINTER);
    CHECK_LOG("ppBlob");
    CHECK(blob == NULL);

    CHECK_HR(D3D12SerializeVersionedRootSignature(&desc, &blob, NULL), S_OK);
    if (!blob)
        return;
    /* the blob object */
    CHECK_HR(ID3D10Blob_QueryInterface(blob, &IID_ID3DBlob, (void **)&unknown), S_OK);
    CHECK(unknown == (IUnknown *)blob);
    if (unknown)
        IUnknown_Release(unknown);
    CHECK_HR(ID3D10Blob_QueryInterface(blob, &IID_ID3D12RootSignatureDeserializer, (void **)&unknown), E_NOINTERFACE);
    CHECK(ID3D10Blob_GetBufferSize(blob) == 0x44);

    const void *data = ID3D10Blob_GetBufferPointer(blob);
    size_t size = ID3D10Blob_GetBufferSize(blob);
    RELOG_MARK();
    CHECK_HR(D3D12CreateRootSignatureDeserializer(NULL, size, &IID_ID3D12RootSignatureDeserializer, (void **)&deserializer), E_INVALIDARG);
    CHECK_LOG("D3D12CreateRootSignatureDeserializer", "pSrcData is NULL");
    CHECK(deserializer == NULL);
    RELOG_MARK();
    CHECK_HR(D3D12CreateRootSignatureDeserializer(data, 0, &IID_ID3D12RootSignatureDeserializer, (void **)&deserializer), E_INVALIDARG);
    CHECK_LOG("SrcDataSizeInBytes is 0");
    RELOG_MARK();
    CHECK_HR(D3D12CreateRootSignatureDeserializer(data, size, &IID_ID3D12RootSignatureDeserializer, NULL), E_POINTER);
    CHECK_LOG("ppRootSignatureDeserializer is NULL");
    RELOG_MARK();
    CHECK_HR(D3D12CreateRootSignatureDeserializer(data, size, NULL, (void **)&deserializer), E_INVALIDARG);
    CHECK_LOG("pRootSignatureDeserializerInterface is NULL");
    RELOG_MARK();
    CHECK_HR(D3D12CreateRootSignatureDeserializer(data, size, &IID_ID3D12VersionedRootSignatureDeserializer, (void **)&deserializer), E_NOINTERFACE);
    CHECK_LOG("pRootSignatureDeserializerInterface");
    CHECK(deserializer == NULL);
    RELOG_MARK();
    CHECK_HR(D3D12CreateVersionedRootSignatureDeserializer(data, size, &IID_ID3D12RootSignatureDeserializer, (void **)&versioned), E_NOINTERFACE);
    CHECK_LOG("D3D12CreateVersionedRootSignatureDeserializer", "pRootSignatureDeserializerInterface");
    RELOG_MARK();
    CHECK_HR(D3D12CreateVersionedRootSignatureDeserializer(NULL, size, &IID_ID3D12VersionedRootSignatureDeserializer, (void **)&versioned), E_INVALIDARG);
    CHECK_LOG("D3D12CreateVersionedRootSignatureDeserializer", "pSrcData is NULL");
    RELOG_MARK();
    CHECK_HR(D3D12CreateVersionedRootSignatureDeserializer(data, size, &IID_ID3D12VersionedRootSignatureDeserializer, NULL), E_POINTER);
    CHECK_LOG("ppRootSignatureDeserializer is NULL");

    CHECK_HR(D3D12CreateVersionedRootSignatureDeserializer(data, size, &IID_ID3D12VersionedRootSignatureDeserializer, (void **)&versioned), S_OK);
    if (versioned) {
        RELOG_MARK();
        CHECK_HR(ID3D12VersionedRootSignatureDeserializer_GetRootSignatureDescAtVersion(versioned, D3D_ROOT_SIGNATURE_VERSION_1_1, NULL), E_INVALIDARG);
        CHECK_LOG("GetRootSignatureDescAtVersion", "ppDesc is NULL");
        RELOG_MARK();
        CHECK_HR(ID3D12VersionedRootSignatureDeserializer_GetRootSignatureDescAtVersion(versioned, (D3D_ROOT_SIGNATURE_VERSION)9, &at_version), E_INVALIDARG);
        CHECK_LOG("GetRootSignatureDescAtVersion", "convertToVersion is 9");
        CHECK(at_version == NULL);
        RELOG_MARK();
        CHECK_HR(ID3D12VersionedRootSignatureDeserializer_GetRootSignatureDescAtVersion(versioned, (D3D_ROOT_SIGNATURE_VERSION)4, &at_version), E_INVALIDARG);
        CHECK_LOG("GetRootSignatureDescAtVersion", "convertToVersion is 4");
        ID3D12VersionedRootSignatureDeserializer_Release(versioned);
    }
    ID3D10Blob_Release(blob);
}

/* ---- malformed blobs ---- */

static void expect_bad_blob(const void *data, size_t size, HRESULT expected, const char *what, const char *needle)
{
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc = (D3D12_VERSIONED_ROOT_SIGNATURE_DESC *)(uintptr_t)1;
    ID3D12VersionedRootSignatureDeserializer *deserializer = (ID3D12VersionedRootSignatureDeserializer *)(uintptr_t)1;
    char error[256] = "";
    HRESULT hr = d3d12xs_root_signature_parse(data, size, &desc, error, sizeof(error));
    LOG_MARK();

    CHECK_MSG(hr == expected, "%s: parse returned 0x%08x, expected 0x%08x", what, (unsigned)hr, (unsigned)expected);
    CHECK_MSG(desc == NULL, "%s: desc not cleared", what);
    if (SUCCEEDED(hr))
        d3d12xs_root_signature_desc_free(desc);
    CHECK_MSG(!needle || strstr(error, needle), "%s: \"%s\" does not mention \"%s\"", what, error, needle);
    CHECK_HR(D3D12CreateVersionedRootSignatureDeserializer(data, size, &IID_ID3D12VersionedRootSignatureDeserializer, (void **)&deserializer), expected);
    CHECK_LOG("D3D12CreateVersionedRootSignatureDeserializer", "pSrcData");
    CHECK(deserializer == NULL);
}

static void test_malformed(void)
{
    struct fixture f;
    void *good;
    size_t size;
    uint8_t *copy;
    char error[256];

    fixture_init(&f);
    CHECK_HR(d3d12xs_root_signature_serialize(&f.desc, &good, &size, error, sizeof(error)), S_OK);
    if (!good)
        return;
    copy = malloc(size + 64);

    /* Every truncation: as given (header size larger than the data), with the header fixed up to
     * the new size, and with the RTS0 part size fixed up as well. */
    for (size_t length = 0; length < size; length++) {
        D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc = NULL;
        /* exact-size heap copies so ASan sees any over-read */
        uint8_t *cut = malloc(length ? length : 1);
        memcpy(cut, good, length);
        if (length)
            expect_bad_blob(cut, length, E_INVALIDARG, "truncated", NULL);
        CHECK_HR(d3d12xs_root_signature_parse(cut, length, &desc, error, sizeof(error)), E_INVALIDARG);
        if (length >= 32) {
            set32(cut, 24, (uint32_t)length);
            if (d3d12xs_root_signature_parse(cut, length, &desc, error, sizeof(error)) != E_INVALIDARG)
                CHECK_MSG(false, "truncated to %zu with the header size fixed: parsed", length);
        }
        if (length >= 44) {
            set32(cut, 40, (uint32_t)(length - 44));
            if (d3d12xs_root_signature_parse(cut, length, &desc, error, sizeof(error)) != E_INVALIDARG)
                CHECK_MSG(false, "truncated to %zu with the part size fixed: parsed", length);
        }
        free(cut);
    }

#define MUTATE(offset, value, expected, needle) do { \
        memcpy(copy, good, size); \
        set32(copy, (offset), (value)); \
        expect_bad_blob(copy, size, (expected), #offset " = " #value, (needle)); \
    } while (0)
    /* container */
    MUTATE(0, FOURCC('D', 'X', 'B', 'D'), E_INVALIDARG, "DXBC");
    MUTATE(24, (uint32_t)size + 1, E_INVALIDARG, "truncated");
    MUTATE(24, 12, E_INVALIDARG, "less than the header");
    MUTATE(28, 0, E_INVALIDARG, "no RTS0");
    MUTATE(28, 0xffffffff, E_INVALIDARG, "parts");
    MUTATE(28, 2, E_INVALIDARG, "part 1");              /* the second offset is the FourCC */
    MUTATE(32, (uint32_t)size - 4, E_INVALIDARG, "outside");
    MUTATE(32, 0xfffffffc, E_INVALIDARG, "outside");
    MUTATE(36, FOURCC('R', 'T', 'S', '1'), E_INVALIDARG, "no RTS0");
    MUTATE(40, (uint32_t)size - 43, E_INVALIDARG, "runs past");
    MUTATE(40, 0xfffffff8, E_INVALIDARG, "runs past");
    /* RTS0 header (the part starts at 44) */
    MUTATE(44, 0, E_INVALIDARG, "version is 0");
    /* As 1.2, the same bytes lack the samplers' Flags words. */
    MUTATE(44, 3, E_INVALIDARG, "pStaticSamplers: 2 samplers");
    MUTATE(44, 4, E_INVALIDARG, "version is 4");
    MUTATE(44, 0x7fffffff, E_INVALIDARG, "version");
    MUTATE(48, 0xffffffff, E_INVALIDARG, "pParameters");
    MUTATE(48, 0x00100000, E_INVALIDARG, "pParameters");
    MUTATE(52, (uint32_t)size, E_INVALIDARG, "pParameters");
    MUTATE(52, 0xfffffff0, E_INVALIDARG, "pParameters");
    MUTATE(56, 0xffffffff, E_INVALIDARG, "pStaticSamplers");
    MUTATE(60, (uint32_t)size - 44 - 51, E_INVALIDARG, "pStaticSamplers");
    MUTATE(60, 0xffffffff, E_INVALIDARG, "pStaticSamplers");
    /* parameter 0 (a table) at part offset 24 */
    MUTATE(44 + 24, 9, E_INVALIDARG, "pParameters[0].ParameterType is 9");
    MUTATE(44 + 24 + 8, 0xffffff00, E_INVALIDARG, "pParameters[0].DescriptorTable");
    MUTATE(44 + 24 + 8, (uint32_t)size - 44 - 4, E_INVALIDARG, "pParameters[0].DescriptorTable");
    /* parameter 2 (constants), 3 (CBV) payload offsets */
    MUTATE(44 + 24 + 2 * 12 + 8, (uint32_t)size - 44 - 8, E_INVALIDARG, "pParameters[2].Constants");
    MUTATE(44 + 24 + 3 * 12 + 8, 0x80000000, E_INVALIDARG, "pParameters[3].Descriptor");
    /* table 0's header: its payload follows the 6 parameter headers */
    MUTATE(44 + 24 + 6 * 12, 0x7fffffff, E_INVALIDARG, "pParameters[0].DescriptorTable: 2147483647 ranges");
    MUTATE(44 + 24 + 6 * 12 + 4, (uint32_t)size, E_INVALIDARG, "pParameters[0].DescriptorTable");
    MUTATE(44 + 24 + 6 * 12 + 4, 0xffffffec, E_INVALIDARG, "pParameters[0].DescriptorTable");
#undef MUTATE
    /* A range that breaks a rule parses, but does not validate, so the deserializers refuse it. */
    {
        D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc = NULL;
        ID3D12RootSignatureDeserializer *deserializer = NULL;
        LOG_MARK();
        memcpy(copy, good, size);
        set32(copy, 44 + 24 + 6 * 12 + 8, 7);
        CHECK_HR(d3d12xs_root_signature_parse(copy, size, &desc, error, sizeof(error)), S_OK);
        CHECK_HR(d3d12xs_root_signature_validate(desc, error, sizeof(error)), E_INVALIDARG);
        CHECK(strstr(error, "pParameters[0].DescriptorTable.pDescriptorRanges[0].RangeType is 7") != NULL);
        d3d12xs_root_signature_desc_free(desc);
        CHECK_HR(D3D12CreateRootSignatureDeserializer(copy, size, &IID_ID3D12RootSignatureDeserializer, (void **)&deserializer), E_INVALIDARG);
        CHECK_LOG("D3D12CreateRootSignatureDeserializer", "pParameters[0].DescriptorTable.pDescriptorRanges[0].RangeType is 7");
        CHECK(deserializer == NULL);
    }

    /* Many tables sharing one range array may not claim more ranges than the part holds. */
    {
        enum { TABLES = 40 };
        uint32_t words[11 + 6 + 3 * TABLES + 2 + 6];
        size_t n = 0;
        words[n++] = TAG_DXBC; n += 4; words[n++] = 1; words[n++] = sizeof(words); words[n++] = 1; words[n++] = 36;
        words[n++] = TAG_RTS0; words[n++] = sizeof(words) - 44;
        words[n++] = 2; words[n++] = TABLES; words[n++] = 24; words[n++] = 0; words[n++] = 0; words[n++] = 0;
        for (unsigned i = 0; i < TABLES; i++) {
            words[n++] = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
            words[n++] = 0;
            words[n++] = 24 + 12 * TABLES;
        }
        words[n++] = 1;
        words[n++] = 24 + 12 * TABLES + 8;
        words[n++] = D3D12_DESCRIPTOR_RANGE_TYPE_SRV; words[n++] = 1; words[n++] = 0; words[n++] = 0; words[n++] = 0; words[n++] = 0;
        memset(words + 1, 0, 16);
        CHECK(n == ARRAY_SIZE(words));
        expect_bad_blob(words, sizeof(words), E_INVALIDARG, "shared range arrays", "claim");
        /* sharing a little is allowed (it still fits), though the description then breaks the overlap rule */
        D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc = NULL;
        words[11 + 1] = 2;
        CHECK_HR(d3d12xs_root_signature_parse(words, sizeof(words), &desc, error, sizeof(error)), S_OK);
        CHECK_HR(d3d12xs_root_signature_validate(desc, error, sizeof(error)), E_INVALIDARG);
        CHECK(strstr(error, "overlaps") != NULL);
        d3d12xs_root_signature_desc_free(desc);
    }
    free(copy);
    free(good);
}

int main(void)
{
    harness_init();
    test_checksum();
    test_round_trip();
    test_flags();
    test_known_blobs();
    test_foreign_blob();
    test_validation();
    test_arguments();
    test_malformed();
    return harness_finish();
}
