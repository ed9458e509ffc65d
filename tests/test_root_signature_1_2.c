/* Root signature version 1.2: static samplers with D3D12_SAMPLER_FLAGS (D3D12_STATIC_SAMPLER_DESC1).
 * Serialized and deserialized at every pair of versions (the conversions D3D12 makes: flags added
 * for 1.0 semantics going up, dropped going down); the bytes of a 1.2 blob; every refusal of the
 * flags' rules, with its line, at serialization, deserialization and creation; CreateSampler2 with
 * the same flags; CheckFeatureSupport(ROOT_SIGNATURE); and dispatches that sample a UINT texture
 * outside [0, 1] with each UINT border colour, and texel centres through non-normalized
 * coordinates (2.5, 1.5 reads texel (2, 1)). */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "descriptors/root_signature_blob.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static uint32_t get32(const void *data, size_t offset)
{
    uint32_t v;
    memcpy(&v, (const uint8_t *)data + offset, 4);
    return v;
}

/* ---- a 1.2 description using flags everywhere ---- */

struct fixture {
    D3D12_DESCRIPTOR_RANGE1 ranges[2];
    D3D12_ROOT_PARAMETER1 params[3];
    D3D12_STATIC_SAMPLER_DESC1 samplers[3];
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc;
};

static D3D12_STATIC_SAMPLER_DESC1 static_sampler(D3D12_FILTER filter, D3D12_TEXTURE_ADDRESS_MODE address, D3D12_STATIC_BORDER_COLOR border,
        UINT shader_register, D3D12_SAMPLER_FLAGS flags)
{
    D3D12_STATIC_SAMPLER_DESC1 s;
    memset(&s, 0, sizeof(s));
    s.Filter = filter;
    s.AddressU = s.AddressV = s.AddressW = address;
    s.ComparisonFunc = D3D12_COMPARISON_FUNC_NEVER;
    s.BorderColor = border;
    s.MaxLOD = flags & D3D12_SAMPLER_FLAG_NON_NORMALIZED_COORDINATES ? 0.0f : FLT_MAX;
    s.ShaderRegister = shader_register;
    s.ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
    s.Flags = flags;
    return s;
}

static void fixture_init(struct fixture *f)
{
    memset(f, 0, sizeof(*f));
    f->ranges[0] = (D3D12_DESCRIPTOR_RANGE1){D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 2, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_DATA_STATIC, 0};
    f->ranges[1] = (D3D12_DESCRIPTOR_RANGE1){D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER, 2, 4, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 0};
    f->params[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    f->params[0].DescriptorTable = (D3D12_ROOT_DESCRIPTOR_TABLE1){1, &f->ranges[0]};
    f->params[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    f->params[1].DescriptorTable = (D3D12_ROOT_DESCRIPTOR_TABLE1){1, &f->ranges[1]};
    f->params[2].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    f->params[2].Descriptor = (D3D12_ROOT_DESCRIPTOR1){0, 0, D3D12_ROOT_DESCRIPTOR_FLAG_DATA_VOLATILE};
    f->samplers[0] = static_sampler(D3D12_FILTER_MIN_MAG_MIP_POINT, D3D12_TEXTURE_ADDRESS_MODE_BORDER,
            D3D12_STATIC_BORDER_COLOR_OPAQUE_BLACK_UINT, 0, D3D12_SAMPLER_FLAG_UINT_BORDER_COLOR);
    /* A UINT colour without the flag: the colour alone makes the border an integer one. */
    f->samplers[1] = static_sampler(D3D12_FILTER_MIN_MAG_MIP_POINT, D3D12_TEXTURE_ADDRESS_MODE_BORDER,
            D3D12_STATIC_BORDER_COLOR_OPAQUE_WHITE_UINT, 1, D3D12_SAMPLER_FLAG_NONE);
    f->samplers[2] = static_sampler(D3D12_FILTER_MIN_MAG_MIP_POINT, D3D12_TEXTURE_ADDRESS_MODE_CLAMP,
            D3D12_STATIC_BORDER_COLOR_TRANSPARENT_BLACK, 2, D3D12_SAMPLER_FLAG_NON_NORMALIZED_COORDINATES);
    f->desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_2;
    f->desc.Desc_1_2.NumParameters = ARRAY_SIZE(f->params);
    f->desc.Desc_1_2.pParameters = f->params;
    f->desc.Desc_1_2.NumStaticSamplers = ARRAY_SIZE(f->samplers);
    f->desc.Desc_1_2.pStaticSamplers = f->samplers;
}

static ID3DBlob *serialize(const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc)
{
    ID3DBlob *blob = NULL, *errors = NULL;
    CHECK_HR(D3D12SerializeVersionedRootSignature(desc, &blob, &errors), S_OK);
    CHECK(errors == NULL);
    if (errors)
        ID3D10Blob_Release(errors);
    return blob;
}

/* Static sampler i of a description at any version, as a 1.2 one (Flags 0 before 1.2). */
static D3D12_STATIC_SAMPLER_DESC1 sampler_of(const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc, UINT i)
{
    D3D12_STATIC_SAMPLER_DESC1 s;
    memset(&s, 0, sizeof(s));
    if (desc->Version == D3D_ROOT_SIGNATURE_VERSION_1_2)
        s = desc->Desc_1_2.pStaticSamplers[i];
    else
        memcpy(&s, &(desc->Version == D3D_ROOT_SIGNATURE_VERSION_1_0 ? desc->Desc_1_0.pStaticSamplers : desc->Desc_1_1.pStaticSamplers)[i],
                sizeof(D3D12_STATIC_SAMPLER_DESC));
    return s;
}

/* ---- every version pair: serialize at one, deserialize at each ---- */

static const D3D_ROOT_SIGNATURE_VERSION versions[3] = {D3D_ROOT_SIGNATURE_VERSION_1_0, D3D_ROOT_SIGNATURE_VERSION_1_1,
        D3D_ROOT_SIGNATURE_VERSION_1_2};

/* What D3D12 gives for `from` at version `to`, checked field by field against the fixture. */
static void check_converted(const struct fixture *f, D3D_ROOT_SIGNATURE_VERSION from, const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *at,
        D3D_ROOT_SIGNATURE_VERSION to)
{
    CHECK_MSG(at && at->Version == to, "%d -> %d: version %d", (int)from, (int)to, at ? (int)at->Version : -1);
    if (!at || at->Version != to)
        return;
    CHECK(at->Desc_1_0.NumParameters == 3 && at->Desc_1_0.NumStaticSamplers == 3);
    for (UINT i = 0; i < 3; i++) {
        D3D12_STATIC_SAMPLER_DESC1 got = sampler_of(at, i), expected = f->samplers[i];
        /* The flags exist only at 1.2, and only where the source had them. */
        if (to != D3D_ROOT_SIGNATURE_VERSION_1_2 || from != D3D_ROOT_SIGNATURE_VERSION_1_2)
            expected.Flags = D3D12_SAMPLER_FLAG_NONE;
        CHECK_MSG(!memcmp(&got, &expected, sizeof(got)), "%d -> %d: static sampler %u differs (Flags 0x%x, expected 0x%x)",
                (int)from, (int)to, i, got.Flags, expected.Flags);
    }
    if (to == D3D_ROOT_SIGNATURE_VERSION_1_0)
        return;
    /* Parameters at 1.1 and 1.2 are D3D12_ROOT_PARAMETER1: from 1.0 they take 1.0's semantics. */
    {
        const D3D12_ROOT_PARAMETER1 *p = at->Desc_1_1.pParameters;
        bool from_1_0 = from == D3D_ROOT_SIGNATURE_VERSION_1_0;
        D3D12_DESCRIPTOR_RANGE_FLAGS srv_flags = from_1_0 ? D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_VOLATILE | D3D12_DESCRIPTOR_RANGE_FLAG_DATA_VOLATILE
                : D3D12_DESCRIPTOR_RANGE_FLAG_DATA_STATIC;
        D3D12_DESCRIPTOR_RANGE_FLAGS sampler_flags = from_1_0 ? D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_VOLATILE : D3D12_DESCRIPTOR_RANGE_FLAG_NONE;
        CHECK_MSG(p[0].DescriptorTable.pDescriptorRanges[0].Flags == srv_flags, "%d -> %d: SRV range flags 0x%x", (int)from, (int)to,
                p[0].DescriptorTable.pDescriptorRanges[0].Flags);
        CHECK_MSG(p[1].DescriptorTable.pDescriptorRanges[0].Flags == sampler_flags, "%d -> %d: sampler range flags 0x%x", (int)from, (int)to,
                p[1].DescriptorTable.pDescriptorRanges[0].Flags);
        CHECK(p[2].Descriptor.Flags == D3D12_ROOT_DESCRIPTOR_FLAG_DATA_VOLATILE);
        CHECK(p[0].DescriptorTable.pDescriptorRanges[0].NumDescriptors == 2 && p[1].DescriptorTable.pDescriptorRanges[0].BaseShaderRegister == 4);
    }
}

static void test_version_pairs(void)
{
    struct fixture f;
    char error[512];

    fixture_init(&f);
    for (unsigned from = 0; from < 3; from++) {
        D3D12_VERSIONED_ROOT_SIGNATURE_DESC *source = NULL;
        ID3D12VersionedRootSignatureDeserializer *versioned = NULL;
        ID3D12RootSignatureDeserializer *plain = NULL;
        ID3DBlob *blob;
        LOG_MARK();

        CHECK_HR(d3d12xs_root_signature_convert(&f.desc, versions[from], &source, error, sizeof(error)), S_OK);
        if (!source || !(blob = serialize(source))) {
            d3d12xs_root_signature_desc_free(source);
            continue;
        }
        CHECK(get32(ID3D10Blob_GetBufferPointer(blob), 44) == (uint32_t)versions[from]);
        CHECK_HR(D3D12CreateVersionedRootSignatureDeserializer(ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
                &IID_ID3D12VersionedRootSignatureDeserializer, (void **)&versioned), S_OK);
        if (versioned) {
            void *other = (void *)(uintptr_t)1;
            CHECK(d3d12xs_root_signature_desc_equal(ID3D12VersionedRootSignatureDeserializer_GetUnconvertedRootSignatureDesc(versioned), source));
            for (unsigned to = 0; to < 3; to++) {
                const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *at = NULL, *again = NULL;
                CHECK_HR(ID3D12VersionedRootSignatureDeserializer_GetRootSignatureDescAtVersion(versioned, versions[to], &at), S_OK);
                check_converted(&f, versions[from], at, versions[to]);
                /* Asked again, the same description (made once). */
                CHECK_HR(ID3D12VersionedRootSignatureDeserializer_GetRootSignatureDescAtVersion(versioned, versions[to], &again), S_OK);
                CHECK(again == at);
            }
            /* The versioned deserializer is not the plain one. */
            CHECK_HR(ID3D12VersionedRootSignatureDeserializer_QueryInterface(versioned, &IID_ID3D12RootSignatureDeserializer, &other), E_NOINTERFACE);
            CHECK(other == NULL);
            ID3D12VersionedRootSignatureDeserializer_Release(versioned);
        }
        /* The plain deserializer takes every version and gives 1.0 (flags of every kind dropped). */
        CHECK_HR(D3D12CreateRootSignatureDeserializer(ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
                &IID_ID3D12RootSignatureDeserializer, (void **)&plain), S_OK);
        if (plain) {
            D3D12_VERSIONED_ROOT_SIGNATURE_DESC at = {.Version = D3D_ROOT_SIGNATURE_VERSION_1_0};
            at.Desc_1_0 = *ID3D12RootSignatureDeserializer_GetRootSignatureDesc(plain);
            check_converted(&f, versions[from], &at, D3D_ROOT_SIGNATURE_VERSION_1_0);
            ID3D12RootSignatureDeserializer_Release(plain);
        }
        CHECK_NO_LOG();
        ID3D10Blob_Release(blob);
        d3d12xs_root_signature_desc_free(source);
    }
}

/* ---- the bytes of a 1.2 blob ---- */

static void test_blob_bytes(void)
{
    struct fixture f;
    ID3DBlob *blob, *blob_1_1;
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC *as_1_1 = NULL;
    char error[512];

    fixture_init(&f);
    f.desc.Desc_1_2.NumParameters = 0;
    f.desc.Desc_1_2.pParameters = NULL;
    f.samplers[2].MipLODBias = -1.5f;
    f.samplers[2].RegisterSpace = 7;
    f.samplers[2].ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL;
    f.samplers[2].Flags = D3D12_SAMPLER_FLAG_NON_NORMALIZED_COORDINATES | D3D12_SAMPLER_FLAG_UINT_BORDER_COLOR;
    f.samplers[2].BorderColor = D3D12_STATIC_BORDER_COLOR_OPAQUE_WHITE_UINT;
    if (!(blob = serialize(&f.desc)))
        return;
    {
        const uint8_t *data = ID3D10Blob_GetBufferPointer(blob);
        const size_t part = 44; /* the container header, one part offset, FourCC and size */
        const size_t s2 = part + 24 + 2 * 56;
        float bias;

        CHECK_MSG(ID3D10Blob_GetBufferSize(blob) == part + 24 + 3 * 56, "%zu-byte blob", (size_t)ID3D10Blob_GetBufferSize(blob));
        CHECK(get32(data, 40) == 24 + 3 * 56);                      /* RTS0 size */
        CHECK(get32(data, part) == 3);                              /* Version 1.2 */
        CHECK(get32(data, part + 4) == 0 && get32(data, part + 8) == 24);
        CHECK(get32(data, part + 12) == 3 && get32(data, part + 16) == 24); /* samplers right after the header */
        /* Each sampler is D3D12_STATIC_SAMPLER_DESC1's 14 fields in order, Flags last. */
        CHECK(get32(data, s2) == D3D12_FILTER_MIN_MAG_MIP_POINT);
        CHECK(get32(data, s2 + 4) == D3D12_TEXTURE_ADDRESS_MODE_CLAMP);
        memcpy(&bias, data + s2 + 16, 4);
        CHECK(bias == -1.5f);
        CHECK(get32(data, s2 + 28) == D3D12_STATIC_BORDER_COLOR_OPAQUE_WHITE_UINT);
        CHECK(get32(data, s2 + 40) == 2 && get32(data, s2 + 44) == 7 && get32(data, s2 + 48) == D3D12_SHADER_VISIBILITY_PIXEL);
        CHECK(get32(data, s2 + 52) == (D3D12_SAMPLER_FLAG_NON_NORMALIZED_COORDINATES | D3D12_SAMPLER_FLAG_UINT_BORDER_COLOR));
        CHECK(get32(data, part + 24 + 52) == D3D12_SAMPLER_FLAG_UINT_BORDER_COLOR);
        CHECK(get32(data, part + 24 + 56 + 52) == D3D12_SAMPLER_FLAG_NONE);
    }
    /* The same at 1.1: 13 words a sampler, no Flags. */
    CHECK_HR(d3d12xs_root_signature_convert(&f.desc, D3D_ROOT_SIGNATURE_VERSION_1_1, &as_1_1, error, sizeof(error)), S_OK);
    if (as_1_1 && (blob_1_1 = serialize(as_1_1))) {
        const uint8_t *data = ID3D10Blob_GetBufferPointer(blob_1_1);
        CHECK(ID3D10Blob_GetBufferSize(blob_1_1) == 44 + 24 + 3 * 52);
        CHECK(get32(data, 44) == 2);
        CHECK(!memcmp(data + 44 + 24 + 2 * 52, (const uint8_t *)ID3D10Blob_GetBufferPointer(blob) + 44 + 24 + 2 * 56, 52));
        ID3D10Blob_Release(blob_1_1);
    }
    d3d12xs_root_signature_desc_free(as_1_1);
    ID3D10Blob_Release(blob);
}

/* ---- the refusals ---- */

enum bad_sampler {
    BAD_FLAGS_BIT, BAD_UINT_FLAG_FLOAT_COLOR, BAD_NON_NORMALIZED_MIP_LINEAR, BAD_NON_NORMALIZED_MIN_MAG_DIFFER,
    BAD_NON_NORMALIZED_ANISOTROPIC, BAD_NON_NORMALIZED_COMPARISON, BAD_NON_NORMALIZED_MAX_LOD, BAD_NON_NORMALIZED_MIN_LOD,
    BAD_NON_NORMALIZED_WRAP_U, BAD_NON_NORMALIZED_MIRROR_V, BAD_SAMPLER_COUNT
};

static const char *const bad_sampler_lines[BAD_SAMPLER_COUNT] = {
    [BAD_FLAGS_BIT] = "pStaticSamplers[2].Flags is 0x6: Flags has bits that are not D3D12_SAMPLER_FLAGS",
    [BAD_UINT_FLAG_FLOAT_COLOR] = "pStaticSamplers[0].Flags has UINT_BORDER_COLOR but BorderColor is 2",
    [BAD_NON_NORMALIZED_MIP_LINEAR] = "pStaticSamplers[2].Flags is 0x2: Filter must be MIN_MAG_MIP_POINT or MIN_MAG_LINEAR_MIP_POINT",
    [BAD_NON_NORMALIZED_MIN_MAG_DIFFER] = "pStaticSamplers[2].Flags is 0x2: Filter must be",
    [BAD_NON_NORMALIZED_ANISOTROPIC] = "pStaticSamplers[2].Flags is 0x2: Filter must be",
    [BAD_NON_NORMALIZED_COMPARISON] = "pStaticSamplers[2].Flags is 0x2: Filter must be",
    [BAD_NON_NORMALIZED_MAX_LOD] = "pStaticSamplers[2].Flags is 0x2: MinLOD and MaxLOD must be 0",
    [BAD_NON_NORMALIZED_MIN_LOD] = "pStaticSamplers[2].Flags is 0x2: MinLOD and MaxLOD must be 0",
    [BAD_NON_NORMALIZED_WRAP_U] = "pStaticSamplers[2].Flags is 0x2: AddressU and AddressV must be CLAMP or BORDER",
    [BAD_NON_NORMALIZED_MIRROR_V] = "pStaticSamplers[2].Flags is 0x2: AddressU and AddressV must be CLAMP or BORDER",
};

static void break_sampler(struct fixture *f, enum bad_sampler which)
{
    D3D12_STATIC_SAMPLER_DESC1 *s = &f->samplers[2];
    switch (which) {
    case BAD_FLAGS_BIT: s->Flags = (D3D12_SAMPLER_FLAGS)(D3D12_SAMPLER_FLAG_NON_NORMALIZED_COORDINATES | 4); break;
    case BAD_UINT_FLAG_FLOAT_COLOR: f->samplers[0].BorderColor = D3D12_STATIC_BORDER_COLOR_OPAQUE_WHITE; break;
    case BAD_NON_NORMALIZED_MIP_LINEAR: s->Filter = D3D12_FILTER_MIN_MAG_MIP_LINEAR; break;
    case BAD_NON_NORMALIZED_MIN_MAG_DIFFER: s->Filter = D3D12_FILTER_MIN_POINT_MAG_LINEAR_MIP_POINT; break;
    case BAD_NON_NORMALIZED_ANISOTROPIC: s->Filter = D3D12_FILTER_ANISOTROPIC; s->MaxAnisotropy = 4; break;
    case BAD_NON_NORMALIZED_COMPARISON: s->Filter = D3D12_FILTER_COMPARISON_MIN_MAG_MIP_POINT; s->ComparisonFunc = D3D12_COMPARISON_FUNC_LESS; break;
    case BAD_NON_NORMALIZED_MAX_LOD: s->MaxLOD = 1.0f; break;
    case BAD_NON_NORMALIZED_MIN_LOD: s->MinLOD = -1.0f; break;
    case BAD_NON_NORMALIZED_WRAP_U: s->AddressU = D3D12_TEXTURE_ADDRESS_MODE_WRAP; break;
    case BAD_NON_NORMALIZED_MIRROR_V: s->AddressV = D3D12_TEXTURE_ADDRESS_MODE_MIRROR; break;
    case BAD_SAMPLER_COUNT: break;
    }
}

static void test_refusals(ID3D12Device *device)
{
    struct fixture f;
    ID3DBlob *good;
    char error[512];

    for (int which = 0; which < BAD_SAMPLER_COUNT; which++) {
        ID3DBlob *blob = (ID3DBlob *)(uintptr_t)1, *error_blob = NULL;
        LOG_MARK();
        fixture_init(&f);
        break_sampler(&f, (enum bad_sampler)which);
        CHECK_HR(d3d12xs_root_signature_validate(&f.desc, error, sizeof(error)), E_INVALIDARG);
        CHECK_MSG(strstr(error, bad_sampler_lines[which]) != NULL, "case %d: \"%s\" does not name \"%s\"", which, error, bad_sampler_lines[which]);
        CHECK_HR(D3D12SerializeVersionedRootSignature(&f.desc, &blob, &error_blob), E_INVALIDARG);
        CHECK_LOG("D3D12SerializeVersionedRootSignature", "pRootSignature->Desc_1_2.", bad_sampler_lines[which]);
        CHECK(blob == NULL && error_blob != NULL);
        if (error_blob)
            ID3D10Blob_Release(error_blob);
    }

    /* What the rules allow: the flag with a UINT colour, MINIMUM / MAXIMUM and linear filters,
     * BORDER addressing, any AddressW and MipLODBias. */
    {
        LOG_MARK();
        fixture_init(&f);
        f.samplers[1].Flags = D3D12_SAMPLER_FLAG_UINT_BORDER_COLOR;
        f.samplers[2].Filter = D3D12_FILTER_MINIMUM_MIN_MAG_LINEAR_MIP_POINT;
        f.samplers[2].AddressU = D3D12_TEXTURE_ADDRESS_MODE_BORDER;
        f.samplers[2].AddressW = D3D12_TEXTURE_ADDRESS_MODE_WRAP;
        f.samplers[2].MipLODBias = 2.0f;
        CHECK_HR(d3d12xs_root_signature_validate(&f.desc, error, sizeof(error)), S_OK);
        f.samplers[2].Filter = D3D12_FILTER_MAXIMUM_MIN_MAG_MIP_POINT;
        CHECK_HR(d3d12xs_root_signature_validate(&f.desc, error, sizeof(error)), S_OK);
        CHECK_NO_LOG();
    }

    /* A blob holding a broken sampler (the Flags word changed after serializing) is refused by
     * both deserializers and by CreateRootSignature, each with its line. */
    fixture_init(&f);
    if ((good = serialize(&f.desc))) {
        size_t size = ID3D10Blob_GetBufferSize(good);
        uint8_t *bad = malloc(size);
        ID3D12VersionedRootSignatureDeserializer *versioned = (ID3D12VersionedRootSignatureDeserializer *)(uintptr_t)1;
        ID3D12RootSignatureDeserializer *plain = (ID3D12RootSignatureDeserializer *)(uintptr_t)1;
        ID3D12RootSignature *signature = (ID3D12RootSignature *)(uintptr_t)1;
        const uint32_t broken = 0x40;
        LOG_MARK();

        memcpy(bad, ID3D10Blob_GetBufferPointer(good), size);
        memcpy(bad + size - 4, &broken, 4); /* the last sampler's Flags, the blob's last word */
        CHECK_HR(D3D12CreateVersionedRootSignatureDeserializer(bad, size, &IID_ID3D12VersionedRootSignatureDeserializer, (void **)&versioned),
                E_INVALIDARG);
        CHECK_LOG("D3D12CreateVersionedRootSignatureDeserializer", "pStaticSamplers[2].Flags is 0x40");
        CHECK(versioned == NULL);
        RELOG_MARK();
        CHECK_HR(D3D12CreateRootSignatureDeserializer(bad, size, &IID_ID3D12RootSignatureDeserializer, (void **)&plain), E_INVALIDARG);
        CHECK_LOG("D3D12CreateRootSignatureDeserializer", "pStaticSamplers[2].Flags is 0x40");
        CHECK(plain == NULL);
        RELOG_MARK();
        CHECK_HR(ID3D12Device_CreateRootSignature(device, 0, bad, size, &IID_ID3D12RootSignature, (void **)&signature), E_INVALIDARG);
        CHECK_LOG("CreateRootSignature", "pStaticSamplers[2].Flags is 0x40");
        CHECK(signature == NULL);
        free(bad);
        ID3D10Blob_Release(good);
    }

    /* D3D12SerializeRootSignature serializes 1.0 only. */
    {
        D3D12_ROOT_SIGNATURE_DESC empty = {0, NULL, 0, NULL, D3D12_ROOT_SIGNATURE_FLAG_NONE};
        ID3DBlob *blob = NULL, *error_blob = NULL;
        LOG_MARK();
        CHECK_HR(D3D12SerializeRootSignature(&empty, D3D_ROOT_SIGNATURE_VERSION_1_2, &blob, &error_blob), E_INVALIDARG);
        CHECK_LOG("D3D12SerializeRootSignature", "Version is 1_2");
        CHECK(blob == NULL);
        if (error_blob)
            ID3D10Blob_Release(error_blob);
    }
}

/* ---- CheckFeatureSupport(ROOT_SIGNATURE): the version asked for, up to 1.2; unknown ones refused ---- */

static void test_feature_support(ID3D12Device *device)
{
    D3D12_FEATURE_DATA_ROOT_SIGNATURE root;
    LOG_MARK();

    for (unsigned i = 0; i < 3; i++) {
        root.HighestVersion = versions[i];
        CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_ROOT_SIGNATURE, &root, sizeof(root)), S_OK);
        CHECK_MSG(root.HighestVersion == versions[i], "asked for %d, got %d", (int)versions[i], (int)root.HighestVersion);
    }
    CHECK_NO_LOG();
    root.HighestVersion = (D3D_ROOT_SIGNATURE_VERSION)4;
    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_ROOT_SIGNATURE, &root, sizeof(root)), E_INVALIDARG);
    CHECK_LOG("CheckFeatureSupport", "HighestVersion 0x4");
}

/* ---- sampling through the flags ---- */

#define TEXTURE_SIZE 4
#define OUTPUT_BYTES 1024

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12DescriptorHeap *views, *samplers;
    ID3D12Resource *uint_texture, *float_texture, *output;
};

/* A TEXTURE_SIZE square 2D texture of one mip holding texels (4-byte texels times components),
 * ready to be read by shaders. */
static ID3D12Resource *create_texture(struct env *env, DXGI_FORMAT format, const void *texels, UINT texel_bytes)
{
    D3D12_HEAP_PROPERTIES heap = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    D3D12_RESOURCE_DESC desc;
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT layout;
    UINT rows;
    UINT64 row_size, total;
    ID3D12Resource *texture = NULL, *upload;
    struct harness_list list;
    uint8_t *mapped = NULL;

    memset(&desc, 0, sizeof(desc));
    desc.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    desc.Width = desc.Height = TEXTURE_SIZE;
    desc.DepthOrArraySize = desc.MipLevels = 1;
    desc.Format = format;
    desc.SampleDesc.Count = 1;
    CHECK_HR(ID3D12Device_CreateCommittedResource(env->device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COPY_DEST, NULL,
            &IID_ID3D12Resource, (void **)&texture), S_OK);
    if (!texture)
        return NULL;
    ID3D12Device_GetCopyableFootprints(env->device, &desc, 0, 1, 0, &layout, &rows, &row_size, &total);
    upload = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, total, D3D12_RESOURCE_STATE_GENERIC_READ);
    CHECK_HR(ID3D12Resource_Map(upload, 0, NULL, (void **)&mapped), S_OK);
    for (UINT r = 0; r < rows; r++)
        memcpy(mapped + layout.Offset + (UINT64)r * layout.Footprint.RowPitch, (const uint8_t *)texels + r * TEXTURE_SIZE * texel_bytes,
                TEXTURE_SIZE * texel_bytes);
    ID3D12Resource_Unmap(upload, 0, NULL);
    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    {
        D3D12_TEXTURE_COPY_LOCATION dst = {texture, D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX, {.SubresourceIndex = 0}};
        D3D12_TEXTURE_COPY_LOCATION src = {upload, D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT, {.PlacedFootprint = layout}};
        D3D12_RESOURCE_BARRIER barrier = {D3D12_RESOURCE_BARRIER_TYPE_TRANSITION, 0,
                {.Transition = {texture, D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES, D3D12_RESOURCE_STATE_COPY_DEST,
                D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE}}};
        ID3D12GraphicsCommandList2_CopyTextureRegion(list.list, &dst, 0, 0, 0, &src, NULL);
        ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    }
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    ID3D12Resource_Release(upload);
    return texture;
}

/* The fixture's signature, serialized at 1.2 and created, plus s3: non-normalized and linear. */
static ID3D12RootSignature *create_signature(struct env *env)
{
    D3D12_STATIC_SAMPLER_DESC1 samplers[4];
    struct fixture f;
    ID3D12RootSignature *signature = NULL;
    ID3DBlob *blob;

    fixture_init(&f);
    memcpy(samplers, f.samplers, sizeof(f.samplers));
    samplers[3] = static_sampler(D3D12_FILTER_MIN_MAG_LINEAR_MIP_POINT, D3D12_TEXTURE_ADDRESS_MODE_CLAMP,
            D3D12_STATIC_BORDER_COLOR_TRANSPARENT_BLACK, 3, D3D12_SAMPLER_FLAG_NON_NORMALIZED_COORDINATES);
    f.desc.Desc_1_2.NumStaticSamplers = ARRAY_SIZE(samplers);
    f.desc.Desc_1_2.pStaticSamplers = samplers;
    if (!(blob = serialize(&f.desc)))
        return NULL;
    CHECK_HR(ID3D12Device_CreateRootSignature(env->device, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
            &IID_ID3D12RootSignature, (void **)&signature), S_OK);
    ID3D10Blob_Release(blob);
    return signature;
}

/* Heap samplers s4 and s5 through CreateSampler2: an integer border of (1, 1, 1, 1), and
 * non-normalized point sampling. */
static void create_heap_samplers(struct env *env)
{
    D3D12_CPU_DESCRIPTOR_HANDLE handle = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(env->samplers);
    UINT increment = ID3D12Device_GetDescriptorHandleIncrementSize(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
    D3D12_SAMPLER_DESC2 desc;
    ID3D12Device14 *device14 = NULL;
    LOG_MARK();

    CHECK_HR(ID3D12Device_QueryInterface(env->device, &IID_ID3D12Device14, (void **)&device14), S_OK);
    if (!device14)
        return;
    memset(&desc, 0, sizeof(desc));
    desc.Filter = D3D12_FILTER_MIN_MAG_MIP_POINT;
    desc.AddressU = desc.AddressV = desc.AddressW = D3D12_TEXTURE_ADDRESS_MODE_BORDER;
    desc.UintBorderColor[0] = desc.UintBorderColor[1] = desc.UintBorderColor[2] = desc.UintBorderColor[3] = 1;
    desc.MaxLOD = FLT_MAX;
    desc.Flags = D3D12_SAMPLER_FLAG_UINT_BORDER_COLOR;
    ID3D12Device14_CreateSampler2(device14, &desc, handle);
    memset(&desc, 0, sizeof(desc));
    desc.Filter = D3D12_FILTER_MIN_MAG_MIP_POINT;
    desc.AddressU = desc.AddressV = desc.AddressW = D3D12_TEXTURE_ADDRESS_MODE_CLAMP;
    desc.Flags = D3D12_SAMPLER_FLAG_NON_NORMALIZED_COORDINATES;
    handle.ptr += increment;
    ID3D12Device14_CreateSampler2(device14, &desc, handle);
    CHECK_NO_LOG();

    /* CreateSampler2 keeps the static samplers' rules: each breach writes nothing and logs it. */
    desc.MaxLOD = 3.0f;
    ID3D12Device14_CreateSampler2(device14, &desc, handle);
    CHECK_LOG("CreateSampler2", "pDesc->Flags is 0x2: MinLOD and MaxLOD must be 0");
    RELOG_MARK();
    desc.MaxLOD = 0.0f;
    desc.Filter = D3D12_FILTER_MIN_MAG_MIP_LINEAR;
    ID3D12Device14_CreateSampler2(device14, &desc, handle);
    CHECK_LOG("CreateSampler2", "pDesc->Flags is 0x2: Filter must be");
    RELOG_MARK();
    desc.Filter = D3D12_FILTER_MIN_MAG_MIP_POINT;
    desc.AddressV = D3D12_TEXTURE_ADDRESS_MODE_WRAP;
    ID3D12Device14_CreateSampler2(device14, &desc, handle);
    CHECK_LOG("CreateSampler2", "pDesc->Flags is 0x2: AddressU and AddressV must be CLAMP or BORDER");
    ID3D12Device14_Release(device14);
}

static void run(struct env *env, ID3D12RootSignature *signature, void *out)
{
    static const char source[] =
        "Texture2D<uint4> numbers : register(t0);\n"
        "Texture2D<float> values : register(t1);\n"
        "SamplerState black_uint : register(s0);\n"
        "SamplerState white_uint : register(s1);\n"
        "SamplerState unnormalized : register(s2);\n"
        "SamplerState unnormalized_linear : register(s3);\n"
        "SamplerState heap_white_uint : register(s4);\n"
        "SamplerState heap_unnormalized : register(s5);\n"
        "RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(1, 1, 1)] void main()\n"
        "{\n"
        "    output.Store4(0, numbers.SampleLevel(black_uint, float2(-0.5, 0.5), 0));\n"
        "    output.Store4(16, numbers.SampleLevel(black_uint, float2(0.625, 0.375), 0));\n"
        "    output.Store4(32, numbers.SampleLevel(white_uint, float2(1.5, 0.5), 0));\n"
        "    output.Store4(48, numbers.SampleLevel(white_uint, float2(0.375, 0.125), 0));\n"
        "    output.Store4(64, numbers.SampleLevel(heap_white_uint, float2(0.5, -2.0), 0));\n"
        "    output.Store4(80, numbers.SampleLevel(unnormalized, float2(2.5, 1.5), 0));\n"
        "    output.Store4(96, numbers.SampleLevel(unnormalized, float2(0.5, 3.5), 0));\n"
        "    output.Store4(112, numbers.SampleLevel(heap_unnormalized, float2(3.5, 2.5), 0));\n"
        "    output.Store(128, asuint(values.SampleLevel(unnormalized_linear, float2(1.0, 0.5), 0)));\n"
        "    output.Store(132, asuint(values.SampleLevel(unnormalized_linear, float2(2.5, 3.5), 0)));\n"
        "}\n";
    ID3D10Blob *code = harness_compile(source, 0);
    ID3D12PipelineState *state = code ? harness_compute_pipeline(env->device, signature, code) : NULL;
    ID3D12DescriptorHeap *heaps[2] = {env->views, env->samplers};
    struct harness_list list;

    if (code)
        ID3D10Blob_Release(code);
    if (!state)
        return;
    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 2, heaps);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 0, ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(env->views));
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 1, ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(env->samplers));
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 2, ID3D12Resource_GetGPUVirtualAddress(env->output));
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    ID3D12PipelineState_Release(state);
    harness_read_back(env->device, env->queue, env->output, out, OUTPUT_BYTES);
}

static void check_texel(const uint32_t *got, const uint32_t *expected, const char *what)
{
    CHECK_MSG(!memcmp(got, expected, 16), "%s: (%u, %u, %u, %u), expected (%u, %u, %u, %u)", what, got[0], got[1], got[2], got[3],
            expected[0], expected[1], expected[2], expected[3]);
}

static void test_sampling(ID3D12Device *device)
{
    static const uint32_t black[4] = {0, 0, 0, 1}, white[4] = {1, 1, 1, 1};
    uint32_t numbers[TEXTURE_SIZE * TEXTURE_SIZE][4];
    float values[TEXTURE_SIZE * TEXTURE_SIZE];
    struct env env = {.device = device};
    ID3D12RootSignature *signature;
    uint32_t out[OUTPUT_BYTES / 4];
    D3D12_DESCRIPTOR_HEAP_DESC view_heap = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 2, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    D3D12_DESCRIPTOR_HEAP_DESC sampler_heap = {D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, 2, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};

    /* Texel (x, y) holds 100 + 10y + x and its three neighbours' numbers: no texel equals a border. */
    for (unsigned i = 0; i < TEXTURE_SIZE * TEXTURE_SIZE; i++) {
        for (unsigned c = 0; c < 4; c++)
            numbers[i][c] = 100 + 10 * (i / TEXTURE_SIZE) + i % TEXTURE_SIZE + 1000 * c;
        values[i] = (float)(i * 4);
    }
    env.queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(device, &view_heap, &IID_ID3D12DescriptorHeap, (void **)&env.views), S_OK);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(device, &sampler_heap, &IID_ID3D12DescriptorHeap, (void **)&env.samplers), S_OK);
    env.uint_texture = create_texture(&env, DXGI_FORMAT_R32G32B32A32_UINT, numbers, 16);
    env.float_texture = create_texture(&env, DXGI_FORMAT_R32_FLOAT, values, 4);
    env.output = harness_uav_buffer(device, OUTPUT_BYTES);
    signature = create_signature(&env);
    if (env.queue && env.views && env.samplers && env.uint_texture && env.float_texture && env.output && signature) {
        D3D12_CPU_DESCRIPTOR_HANDLE view = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(env.views);
        LOG_MARK();
        ID3D12Device_CreateShaderResourceView(device, env.uint_texture, NULL, view);
        view.ptr += ID3D12Device_GetDescriptorHandleIncrementSize(device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
        ID3D12Device_CreateShaderResourceView(device, env.float_texture, NULL, view);
        CHECK_NO_LOG();
        create_heap_samplers(&env);
        memset(out, 0xcd, sizeof(out));
        run(&env, signature, out);
        check_texel(&out[0], black, "OPAQUE_BLACK_UINT outside the texture");
        check_texel(&out[4], numbers[1 * 4 + 2], "OPAQUE_BLACK_UINT's sampler inside, texel (2, 1)");
        check_texel(&out[8], white, "OPAQUE_WHITE_UINT (without the flag) outside the texture");
        check_texel(&out[12], numbers[0 * 4 + 1], "OPAQUE_WHITE_UINT's sampler inside, texel (1, 0)");
        check_texel(&out[16], white, "CreateSampler2's UINT border (1, 1, 1, 1) outside the texture");
        check_texel(&out[20], numbers[1 * 4 + 2], "non-normalized (2.5, 1.5): texel (2, 1)");
        check_texel(&out[24], numbers[3 * 4 + 0], "non-normalized (0.5, 3.5): texel (0, 3)");
        check_texel(&out[28], numbers[2 * 4 + 3], "CreateSampler2's non-normalized (3.5, 2.5): texel (3, 2)");
        {
            float halfway, corner;
            memcpy(&halfway, &out[32], 4);
            memcpy(&corner, &out[33], 4);
            /* (1.0, 0.5) lies between the centres of texels (0, 0) and (1, 0): their mean. */
            CHECK_MSG(halfway == (values[0] + values[1]) / 2, "non-normalized linear at (1.0, 0.5): %g, expected %g", halfway,
                    (values[0] + values[1]) / 2);
            CHECK_MSG(corner == values[3 * 4 + 2], "non-normalized linear at the centre of texel (2, 3): %g, expected %g", corner,
                    values[3 * 4 + 2]);
        }
    }
    if (signature)
        ID3D12RootSignature_Release(signature);
    if (env.output)
        ID3D12Resource_Release(env.output);
    if (env.float_texture)
        ID3D12Resource_Release(env.float_texture);
    if (env.uint_texture)
        ID3D12Resource_Release(env.uint_texture);
    if (env.samplers)
        ID3D12DescriptorHeap_Release(env.samplers);
    if (env.views)
        ID3D12DescriptorHeap_Release(env.views);
    if (env.queue)
        ID3D12CommandQueue_Release(env.queue);
}

int main(void)
{
    ID3D12Device *device;

    harness_init();
    test_version_pairs();
    test_blob_bytes();
    if ((device = harness_create_device())) {
        test_refusals(device);
        test_feature_support(device);
        test_sampling(device);
        harness_release_device(device);
    }
    return harness_finish();
}
