/* D3DCompile (HLSL -> SPIR-V), SPIR-V reflection and remapping (descriptors and root
 * constants as push constants). */
#define INITGUID
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <spirv/unified1/spirv.h>

#include <d3dcompiler.h>

#include "harness.h"
#include "common/config.h"
#include "pipelines/pipeline_state.h" /* d3d12xs_missing_capability_feature */
#include "spirv/spirv.h"

/* ---- helpers ---- */

static ID3DBlob *compile_ex(const char *source, const char *target, const D3D_SHADER_MACRO *defines, UINT flags)
{
    ID3DBlob *code = NULL, *errors = NULL;
    HRESULT hr = D3DCompile(source, strlen(source), "test.hlsl", defines, NULL, "main", target, flags, 0, &code, &errors);
    CHECK_MSG(hr == S_OK && code, "D3DCompile(%s) returned 0x%08x: %s", target, (unsigned)hr,
            errors ? (const char *)ID3D10Blob_GetBufferPointer(errors) : "(no message)");
    if (errors)
        ID3D10Blob_Release(errors);
    return code;
}

static ID3DBlob *compile(const char *source)
{
    return compile_ex(source, "cs_5_1", NULL, 0);
}

static const uint32_t *blob_words(ID3DBlob *blob, size_t *count)
{
    *count = ID3D10Blob_GetBufferSize(blob) / 4;
    return ID3D10Blob_GetBufferPointer(blob);
}

static bool reflect_blob(ID3DBlob *blob, struct d3d12xs_shader_info *info)
{
    char error[256];
    HRESULT hr = d3d12xs_spirv_reflect(ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob), info,
            error, sizeof(error));
    CHECK_MSG(hr == S_OK, "reflect returned 0x%08x: %s", (unsigned)hr, error);
    return hr == S_OK;
}

static const struct d3d12xs_shader_binding *find_binding(const struct d3d12xs_shader_info *info,
        enum d3d12xs_register_class c, uint32_t space, uint32_t reg)
{
    for (uint32_t i = 0; i < info->binding_count; i++)
        if (info->bindings[i].register_class == c && info->bindings[i].space == space
                && info->bindings[i].register_index == reg)
            return &info->bindings[i];
    return NULL;
}

/* Value of `OpDecorate id decoration value` in the module, or ~0u. */
static uint32_t decoration(const uint32_t *w, size_t count, uint32_t id, uint32_t what)
{
    for (size_t o = 5; o < count; o += w[o] >> 16)
        if ((w[o] & 0xffff) == SpvOpDecorate && (w[o] >> 16) >= 4 && w[o + 1] == id && w[o + 2] == what)
            return w[o + 3];
    return ~0u;
}

static bool has_decoration(const uint32_t *w, size_t count, uint32_t id, uint32_t what)
{
    for (size_t o = 5; o < count; o += w[o] >> 16)
        if ((w[o] & 0xffff) == SpvOpDecorate && w[o + 1] == id && w[o + 2] == what)
            return true;
    return false;
}

static uint32_t member_offset(const uint32_t *w, size_t count, uint32_t struct_id, uint32_t member)
{
    for (size_t o = 5; o < count; o += w[o] >> 16)
        if ((w[o] & 0xffff) == SpvOpMemberDecorate && (w[o] >> 16) >= 5 && w[o + 1] == struct_id
                && w[o + 2] == member && w[o + 3] == SpvDecorationOffset)
            return w[o + 4];
    return ~0u;
}

/* Offset of the instruction defining id (types, constants, variables), or 0. */
static size_t find_def(const uint32_t *w, size_t count, uint32_t id)
{
    for (size_t o = 5; o < count; o += w[o] >> 16) {
        uint32_t op = w[o] & 0xffff;
        if (op == SpvOpFunction)
            break;
        if ((op >= SpvOpTypeVoid && op <= SpvOpTypePipe && w[o + 1] == id)
                || ((op == SpvOpVariable || op == SpvOpConstant) && w[o + 2] == id))
            return o;
    }
    return 0;
}

/* The PushConstant variables of a module: count, and the struct of the last one. */
static unsigned push_constant_variables(const uint32_t *w, size_t count, uint32_t *struct_id, uint32_t *variable)
{
    unsigned n = 0;
    for (size_t o = 5; o < count; o += w[o] >> 16) {
        if ((w[o] & 0xffff) == SpvOpVariable && w[o + 3] == SpvStorageClassPushConstant) {
            size_t pointer = find_def(w, count, w[o + 1]);
            n++;
            if (struct_id)
                *struct_id = pointer ? w[pointer + 3] : 0;
            if (variable)
                *variable = w[o + 2];
        }
    }
    return n;
}

static void check_valid(const uint32_t *words, size_t count, const char *what)
{
    char error[1024];
    HRESULT hr = d3d12xs_spirv_validate(words, count, true, error, sizeof(error));
    CHECK_MSG(hr == S_OK, "%s: %s", what, error);
}

/* Remaps and, as pipeline creation does under D3D12XS_DEBUG=1, validates the result. */
static HRESULT remap(ID3DBlob *blob, const struct d3d12xs_shader_info *info,
        const struct d3d12xs_binding_target *targets, uint32_t **words, size_t *count, char *error, size_t size)
{
    HRESULT hr = d3d12xs_spirv_remap(ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob), info, targets,
            words, count, error, size);
    if (SUCCEEDED(hr) && d3d12xs_config_validates_spirv(d3d12xs_config())
            && FAILED(hr = d3d12xs_spirv_validate(*words, *count, true, error, size))) {
        free(*words);
        *words = NULL;
        *count = 0;
    }
    return hr;
}

/* ---- shaders ---- */

static const char all_resources_hlsl[] =
    "cbuffer CB0 : register(b0) { float4 a; uint b; };\n"
    "cbuffer CB1 : register(b2, space1) { uint c; };\n"
    "struct T { float x; uint y; };\n"
    "ConstantBuffer<T> cbt : register(b3, space2);\n"
    "struct S { float x; uint y; };\n"
    "ByteAddressBuffer bab : register(t1);\n"
    "RWByteAddressBuffer rwbab : register(u2);\n"
    "StructuredBuffer<S> sb : register(t4, space3);\n"
    "RWStructuredBuffer<S> rwsb : register(u5);\n"
    "Buffer<uint> tb : register(t6);\n"
    "RWBuffer<float4> rwtb : register(u7);\n"
    "SamplerState samp : register(s8);\n"
    "Texture2D<float4> tex : register(t9);\n"
    "RWTexture2D<float4> rwtex : register(u10);\n"
    "Texture2D<float4> texarr[4] : register(t11);\n"
    "Buffer<uint> unb[] : register(t0, space5);\n"
    "[numthreads(8, 4, 2)]\n"
    "void main(uint3 id : SV_DispatchThreadID)\n"
    "{\n"
    "    uint v = bab.Load(id.x * 4) + (uint)a.x + b + c + cbt.y + sb[id.x].y + tb[id.x] + unb[id.y].Load(id.x);\n"
    "    rwbab.Store(id.x * 4, v);\n"
    "    rwsb[id.x].y = v;\n"
    "    rwtb[id.x] = float4(v, 0, 0, 0) + tex.SampleLevel(samp, float2(0, 0), 0)\n"
    "            + texarr[id.z].SampleLevel(samp, float2(0, 0), 0);\n"
    "    rwtex[id.xy] = float4(1, 1, 1, 1);\n"
    "}\n";

static const char simple_hlsl[] =
    "RWByteAddressBuffer output : register(u0);\n"
    "[numthreads(64, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, WaveGetLaneCount() + WaveActiveSum(id.x)); }\n";

static const char root_constants_hlsl[] =
    "cbuffer Root : register(b0) { uint4 v; uint w; };\n"
    "cbuffer Other : register(b1) { uint2 p; float q; };\n"
    "cbuffer Third : register(b2, space1) { float4 f; };\n"
    "RWByteAddressBuffer output : register(u0);\n"
    "[numthreads(4, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID)\n"
    "{\n"
    "    output.Store(id.x * 4, v[id.x] + w + p.y + (uint)q + (uint)f.z);\n"
    "}\n";

/* ---- tests ---- */

static void test_bad_arguments(void)
{
    ID3DBlob *code = (ID3DBlob *)(uintptr_t)1, *errors = (ID3DBlob *)(uintptr_t)1;
    size_t size = strlen(simple_hlsl);
    LOG_MARK();

    CHECK_HR(D3DCompile(NULL, size, NULL, NULL, NULL, "main", "cs_5_0", 0, 0, &code, &errors), E_INVALIDARG);
    CHECK_LOG("D3DCompile", "pSrcData");
    CHECK(code == NULL && errors == NULL);
    RELOG_MARK();
    CHECK_HR(D3DCompile(simple_hlsl, size, NULL, NULL, NULL, NULL, "cs_5_0", 0, 0, &code, NULL), E_INVALIDARG);
    CHECK_LOG("pEntrypoint");
    RELOG_MARK();
    CHECK_HR(D3DCompile(simple_hlsl, size, NULL, NULL, NULL, "main", NULL, 0, 0, &code, NULL), E_INVALIDARG);
    CHECK_LOG("pTarget", "NULL");
    RELOG_MARK();
    CHECK_HR(D3DCompile(simple_hlsl, size, NULL, NULL, NULL, "main", "cs_9_0", 0, 0, &code, NULL), E_INVALIDARG);
    CHECK_LOG("pTarget", "cs_9_0");
    RELOG_MARK();
    CHECK_HR(D3DCompile(simple_hlsl, size, NULL, NULL, NULL, "main", "xs_5_0", 0, 0, &code, NULL), E_INVALIDARG);
    CHECK_LOG("pTarget", "xs_5_0");
    RELOG_MARK();
    CHECK_HR(D3DCompile(simple_hlsl, size, NULL, NULL, NULL, "main", "cs_6_7", 0, 0, &code, NULL), E_INVALIDARG);
    CHECK_LOG("pTarget");
    RELOG_MARK();
    CHECK_HR(D3DCompile(simple_hlsl, size, NULL, NULL, NULL, "main", "cs_5_0", 0, 0, NULL, NULL), E_INVALIDARG);
    CHECK_LOG("ppCode");
}

static void test_targets(void)
{
    static const char *const targets[] = {"cs_5_0", "cs_5_1", "cs_6_0", "cs_6_1", "cs_6_2", "cs_6_3", "cs_6_4",
            "cs_6_5", "cs_6_6"};
    static const char ps_hlsl[] = "float4 main(float4 p : SV_Position) : SV_Target { return p * 2; }\n";
    struct d3d12xs_shader_info info;
    ID3DBlob *code;
    size_t count;
    LOG_MARK();

    for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
        if (!(code = compile_ex(simple_hlsl, targets[i], NULL, 0)))
            continue;
        const uint32_t *w = blob_words(code, &count);
        CHECK(ID3D10Blob_GetBufferSize(code) % 4 == 0);
        CHECK(w[0] == SpvMagicNumber);
        CHECK_MSG(w[1] == 0x10300, "SPIR-V version 0x%x", w[1]);
        check_valid(w, count, targets[i]);
        if (reflect_blob(code, &info)) {
            CHECK(info.stage == VK_SHADER_STAGE_COMPUTE_BIT);
            CHECK(!strcmp(info.entry_point, "main"));
            CHECK(info.local_size[0] == 64 && info.local_size[1] == 1 && info.local_size[2] == 1);
            CHECK(info.binding_count == 1);
            d3d12xs_shader_info_cleanup(&info);
        }
        ID3D10Blob_Release(code);
    }
    /* no optimization, debug info */
    if ((code = compile_ex(simple_hlsl, "cs_6_0", NULL, D3DCOMPILE_SKIP_OPTIMIZATION | D3DCOMPILE_DEBUG))) {
        const uint32_t *w = blob_words(code, &count);
        check_valid(w, count, "cs_6_0 debug");
        ID3D10Blob_Release(code);
    }
    /* other stages compile (only compute pipelines exist) */
    if ((code = compile_ex(ps_hlsl, "ps_5_0", NULL, 0))) {
        if (reflect_blob(code, &info)) {
            CHECK(info.stage == VK_SHADER_STAGE_FRAGMENT_BIT);
            d3d12xs_shader_info_cleanup(&info);
        }
        ID3D10Blob_Release(code);
    }
    CHECK_NO_LOG();
}

static void test_resources(void)
{
    static const struct {
        enum d3d12xs_register_class c;
        uint32_t space, reg, array_size;
        VkDescriptorType type;
        uint32_t block_size;
    } expected[] = {
        {D3D12XS_REGISTER_CBV, 0, 0, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 20},
        {D3D12XS_REGISTER_CBV, 1, 2, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 4},
        {D3D12XS_REGISTER_CBV, 2, 3, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 8},
        {D3D12XS_REGISTER_SRV, 0, 1, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0},
        {D3D12XS_REGISTER_UAV, 0, 2, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0},
        {D3D12XS_REGISTER_SRV, 3, 4, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0},
        {D3D12XS_REGISTER_UAV, 0, 5, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0},
        {D3D12XS_REGISTER_SRV, 0, 6, 1, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 0},
        {D3D12XS_REGISTER_UAV, 0, 7, 1, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 0},
        {D3D12XS_REGISTER_SAMPLER, 0, 8, 1, VK_DESCRIPTOR_TYPE_SAMPLER, 0},
        {D3D12XS_REGISTER_SRV, 0, 9, 1, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 0},
        {D3D12XS_REGISTER_UAV, 0, 10, 1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 0},
        {D3D12XS_REGISTER_SRV, 0, 11, 4, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 0},
        /* glslang 12 gives the unbounded `Buffer<uint> unb[]` an implicit size of 1 (the
         * largest constant index + 1), so it comes out as a 1-element array; see
         * test_runtime_array for a real runtime array */
        {D3D12XS_REGISTER_SRV, 5, 0, 1, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 0},
    };
    struct d3d12xs_shader_info info;
    ID3DBlob *code;
    size_t count;
    LOG_MARK();

    if (!(code = compile(all_resources_hlsl)))
        return;
    const uint32_t *w = blob_words(code, &count);
    check_valid(w, count, "all resources");
    if (reflect_blob(code, &info)) {
        CHECK_MSG(info.binding_count == sizeof(expected) / sizeof(expected[0]), "%u bindings", info.binding_count);
        CHECK(info.local_size[0] == 8 && info.local_size[1] == 4 && info.local_size[2] == 2);
        CHECK(info.wave_size == 64);
        for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
            const struct d3d12xs_shader_binding *b = find_binding(&info, expected[i].c, expected[i].space, expected[i].reg);
            CHECK_MSG(b != NULL, "no binding for class %u space %u register %u", expected[i].c, expected[i].space,
                    expected[i].reg);
            if (!b)
                continue;
            CHECK_MSG(b->descriptor_type == expected[i].type, "register %u: descriptor type %u, expected %u",
                    expected[i].reg, b->descriptor_type, expected[i].type);
            CHECK_MSG(b->array_size == expected[i].array_size, "register %u: array size %u", expected[i].reg,
                    b->array_size);
            CHECK_MSG(b->block_size == expected[i].block_size, "register %u: block size %u", expected[i].reg,
                    b->block_size);
            /* what glslang really emitted */
            CHECK(decoration(w, count, b->variable_id, SpvDecorationDescriptorSet) == expected[i].space);
            CHECK_MSG(decoration(w, count, b->variable_id, SpvDecorationBinding)
                    == (uint32_t)expected[i].c * 16384 + expected[i].reg, "register %u: binding %u", expected[i].reg,
                    decoration(w, count, b->variable_id, SpvDecorationBinding));
        }
        d3d12xs_shader_info_cleanup(&info);
    }
    ID3D10Blob_Release(code);
    CHECK_NO_LOG();
}

/* The module of all_resources_hlsl with unb turned into a runtime array of texel buffers. */
static void test_runtime_array(void)
{
    struct d3d12xs_shader_info info;
    const struct d3d12xs_shader_binding *b;
    uint32_t *words, array_type = 0, unb = 0;
    size_t count, out = 0;
    bool capability_done = false;
    ID3DBlob *code;
    LOG_MARK();

    if (!(code = compile(all_resources_hlsl)))
        return;
    const uint32_t *w = blob_words(code, &count);
    if (reflect_blob(code, &info)) {
        if ((b = find_binding(&info, D3D12XS_REGISTER_SRV, 5, 0))) {
            size_t def = find_def(w, count, b->variable_id);
            size_t pointer = def ? find_def(w, count, w[def + 1]) : 0;
            unb = b->variable_id;
            array_type = pointer ? w[pointer + 3] : 0;
        }
        d3d12xs_shader_info_cleanup(&info);
    }
    CHECK(unb && array_type);
    if (!array_type || !(words = malloc((count + 2) * 4))) {
        ID3D10Blob_Release(code);
        return;
    }
    memcpy(words, w, 5 * 4);
    out = 5;
    for (size_t o = 5; o < count; o += w[o] >> 16) {
        uint32_t op = w[o] & 0xffff, n = w[o] >> 16;
        if (!capability_done && op != SpvOpCapability) {
            words[out++] = (2u << 16) | SpvOpCapability;
            words[out++] = SpvCapabilityRuntimeDescriptorArray;
            capability_done = true;
        }
        if (op == SpvOpTypeArray && w[o + 1] == array_type) {
            words[out++] = (3u << 16) | SpvOpTypeRuntimeArray;
            words[out++] = array_type;
            words[out++] = w[o + 2];
            continue;
        }
        memcpy(&words[out], &w[o], n * 4);
        out += n;
    }
    check_valid(words, out, "runtime array");
    CHECK_HR(d3d12xs_spirv_reflect(words, out * 4, &info, NULL, 0), S_OK);
    b = find_binding(&info, D3D12XS_REGISTER_SRV, 5, 0);
    CHECK(b && b->variable_id == unb && b->array_size == 0 && b->descriptor_type == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER);
    d3d12xs_shader_info_cleanup(&info);
    free(words);
    ID3D10Blob_Release(code);
    CHECK_NO_LOG();
}

static void test_counters_and_defaults(void)
{
    static const char hlsl[] =
        "struct S { float x; uint y; };\n"
        "RWStructuredBuffer<S> rwsb : register(u5, space1);\n"
        "AppendStructuredBuffer<uint> app : register(u1);\n"
        "RWByteAddressBuffer outb;\n"
        "cbuffer NoReg { uint k; };\n"
        "[numthreads(64, 1, 1)]\n"
        "void main(uint3 id : SV_DispatchThreadID)\n"
        "{\n"
        "    uint c = rwsb.IncrementCounter();\n"
        "    rwsb[c].y = id.x + k;\n"
        "    app.Append(id.x);\n"
        "    outb.Store(0, c);\n"
        "}\n";
    struct d3d12xs_shader_info info;
    const struct d3d12xs_shader_binding *b;
    ID3DBlob *code;
    size_t count;
    LOG_MARK();

    if (!(code = compile(hlsl)))
        return;
    const uint32_t *w = blob_words(code, &count);
    check_valid(w, count, "counters");
    /* the SPV_GOOGLE decorations used to find the counters are gone */
    for (size_t o = 5; o < count; o += w[o] >> 16)
        CHECK((w[o] & 0xffff) != SpvOpDecorateId && (w[o] & 0xffff) != SpvOpDecorateString
                && (w[o] & 0xffff) != SpvOpExtension);
    if (reflect_blob(code, &info)) {
        CHECK_MSG(info.binding_count == 6, "%u bindings", info.binding_count);
        CHECK(find_binding(&info, D3D12XS_REGISTER_UAV, 1, 5) != NULL);
        CHECK(find_binding(&info, D3D12XS_REGISTER_UAV, 0, 1) != NULL);
        b = find_binding(&info, D3D12XS_REGISTER_UAV_COUNTER, 1, 5);
        CHECK(b && b->descriptor_type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER && b->array_size == 1);
        b = find_binding(&info, D3D12XS_REGISTER_UAV_COUNTER, 0, 1);
        CHECK(b && b->descriptor_type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
        /* no register: the next free one of the class */
        b = find_binding(&info, D3D12XS_REGISTER_CBV, 0, 0);
        CHECK(b && b->block_size == 4);
        b = NULL;
        for (uint32_t i = 0; i < info.binding_count; i++)
            if (info.bindings[i].register_class == D3D12XS_REGISTER_UAV && info.bindings[i].space == 0
                    && info.bindings[i].register_index != 1)
                b = &info.bindings[i];
        CHECK(b != NULL);
        d3d12xs_shader_info_cleanup(&info);
    }
    ID3D10Blob_Release(code);
    CHECK_NO_LOG();
}

static void test_wave32(void)
{
    static const D3D_SHADER_MACRO wave32[] = {{"__XBOX_ENABLE_WAVE32", "1"}, {NULL, NULL}};
    static const D3D_SHADER_MACRO wave32_off[] = {{"OTHER", NULL}, {"__XBOX_ENABLE_WAVE32", "0"}, {NULL, NULL}};
    static const char hlsl[] =
        "RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(32, 2, 1)]\n"
        "void main(uint3 id : SV_DispatchThreadID)\n"
        "{\n"
        "#if __XBOX_ENABLE_WAVE32\n"
        "    output.Store(id.x * 4, 32);\n"
        "#else\n"
        "    output.Store(id.x * 4, 64);\n"
        "#endif\n"
        "}\n";
    struct d3d12xs_shader_info info;
    ID3DBlob *code;
    size_t count;
    LOG_MARK();

    if ((code = compile_ex(hlsl, "cs_6_0", wave32, 0))) {
        const uint32_t *w = blob_words(code, &count);
        size_t marker = 0, first_annotation = 0;
        check_valid(w, count, "wave32");
        for (size_t o = 5; o < count; o += w[o] >> 16) {
            if ((w[o] & 0xffff) == SpvOpModuleProcessed && !strcmp((const char *)&w[o + 1], "d3d12xs.wave32"))
                marker = o;
            if ((w[o] & 0xffff) == SpvOpDecorate && !first_annotation)
                first_annotation = o;
        }
        CHECK(marker && first_annotation && marker < first_annotation);
        if (reflect_blob(code, &info)) {
            CHECK(info.wave_size == 32);
            CHECK(info.local_size[0] == 32 && info.local_size[1] == 2 && info.local_size[2] == 1);
            d3d12xs_shader_info_cleanup(&info);
        }
        ID3D10Blob_Release(code);
    }
    if ((code = compile_ex(hlsl, "cs_6_0", wave32_off, 0))) {
        if (reflect_blob(code, &info)) {
            CHECK(info.wave_size == 64);
            d3d12xs_shader_info_cleanup(&info);
        }
        ID3D10Blob_Release(code);
    }
    if ((code = compile_ex(hlsl, "cs_6_0", NULL, 0))) {
        if (reflect_blob(code, &info)) {
            CHECK(info.wave_size == 64);
            d3d12xs_shader_info_cleanup(&info);
        }
        ID3D10Blob_Release(code);
    }
    CHECK_NO_LOG();
}

static void test_compile_errors(void)
{
    static const char bad_hlsl[] =
        "RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(1, 1, 1)]\n"
        "void main() { output.Store(0, undeclared_thing); }\n";
    ID3DBlob *code = (ID3DBlob *)(uintptr_t)1, *errors = NULL;
    LOG_MARK();

    CHECK_HR(D3DCompile(bad_hlsl, strlen(bad_hlsl), "bad.hlsl", NULL, NULL, "main", "cs_5_0", 0, 0, &code, &errors),
            E_FAIL);
    CHECK_LOG("D3DCompile", "bad.hlsl", "undeclared_thing");
    CHECK(code == NULL);
    CHECK(errors != NULL);
    if (errors) {
        const char *text = ID3D10Blob_GetBufferPointer(errors);
        size_t size = ID3D10Blob_GetBufferSize(errors);
        CHECK(size > 1 && text[size - 1] == 0);
        CHECK(strstr(text, "undeclared_thing") != NULL);
        ID3D10Blob_Release(errors);
    }
    /* wrong entry point name */
    RELOG_MARK();
    CHECK_HR(D3DCompile(simple_hlsl, strlen(simple_hlsl), NULL, NULL, NULL, "nope", "cs_5_0", 0, 0, &code, NULL),
            E_FAIL);
    CHECK_LOG("D3DCompile", "nope");
    /* SV_Coverage (the SampleMask built-in) outside a pixel shader, as a float, twice */
    {
        static const char vs_coverage[] = "float4 main(float4 p : POSITION, out uint c : SV_Coverage) : SV_Position { c = 1; return p; }\n";
        static const char float_coverage[] = "float4 main(float c : SV_Coverage) : SV_Target { return c; }\n";
        static const char two_coverages[] = "float4 main(uint c : SV_Coverage, uint d : sv_coverage) : SV_Target { return c + d; }\n";
        RELOG_MARK();
        CHECK_HR(D3DCompile(vs_coverage, strlen(vs_coverage), "vs.hlsl", NULL, NULL, "main", "vs_5_0", 0, 0, &code, NULL), E_FAIL);
        CHECK_LOG("D3DCompile", "vs.hlsl", "SV_Coverage is a pixel shader's system value");
        RELOG_MARK();
        CHECK_HR(D3DCompile(float_coverage, strlen(float_coverage), "float.hlsl", NULL, NULL, "main", "ps_5_0", 0, 0, &code, NULL), E_FAIL);
        CHECK_LOG("D3DCompile", "float.hlsl", "is not a uint");
        RELOG_MARK();
        CHECK_HR(D3DCompile(two_coverages, strlen(two_coverages), "two.hlsl", NULL, NULL, "main", "ps_5_0", 0, 0, &code, NULL), E_FAIL);
        CHECK_LOG("D3DCompile", "two.hlsl", "SV_Coverage is declared twice as an input");
    }
}

/* ---- inputs that crash glslang: E_FAIL with a message, never the process ---- */

static char *repeat_text(const char *head, const char *open, const char *middle, const char *close,
        const char *tail, unsigned n)
{
    size_t size = strlen(head) + n * (strlen(open) + strlen(close)) + strlen(middle) + strlen(tail) + 1;
    char *text = malloc(size), *p = text;
    if (!text)
        return NULL;
    p += sprintf(p, "%s", head);
    for (unsigned i = 0; i < n; i++)
        p += sprintf(p, "%s", open);
    p += sprintf(p, "%s", middle);
    for (unsigned i = 0; i < n; i++)
        p += sprintf(p, "%s", close);
    sprintf(p, "%s", tail);
    return text;
}

/* must_fail: E_FAIL expected; otherwise S_OK or E_FAIL are both acceptable (no crash is the point) */
static void check_survives(const char *source, bool must_fail, const char *what)
{
    ID3DBlob *code = NULL, *errors = NULL;
    size_t mark = harness_log_mark();
    HRESULT hr = D3DCompile(source, strlen(source), "crash.hlsl", NULL, NULL, "main", "cs_6_0", 0, 0, &code, &errors);

    CHECK_MSG(hr == E_FAIL || (!must_fail && hr == S_OK), "%s: D3DCompile returned 0x%08x", what, (unsigned)hr);
    if (hr == E_FAIL) {
        CHECK_MSG(!code, "%s: code blob on failure", what);
        CHECK_MSG(errors && ID3D10Blob_GetBufferSize(errors) > 1, "%s: no message in ppErrorMsgs", what);
        harness_check_log(mark, __FILE__, __LINE__, "D3DCompile", "crash.hlsl", (const char *)NULL);
    } else {
        harness_check_log_count(mark, 0, __FILE__, __LINE__);
    }
    if (code)
        ID3D10Blob_Release(code);
    if (errors)
        ID3D10Blob_Release(errors);
}

static void test_compiler_crashes(void)
{
#define HEAD "RWStructuredBuffer<int> o : register(u0);\n"
    static const struct {
        const char *source;
        bool must_fail;
    } cases[] = {
        {HEAD "[numthreads] void main() { o[0] = 1; }", true},
        {HEAD "static int x = 4; [numthreads(x, 1, 1)] void main() { o[0] = 1; }", true},
        {HEAD "static int x = 4; [numthreads(x++, 1, 1)] void main() { o[0] = 1; }", true},
        {HEAD "static int x = 4; [numthreads((x = 2), 1, 1)] void main() { o[0] = 1; }", true},
        {HEAD "[numthreads(1, 1, 1)] void main() { float4 r = mul(float1(2), float4x4(1, 2, 3, 4, 5, 6, 7, 8, "
                "9, 10, 11, 12, 13, 14, 15, 16)); o[0] = (int)r.x; }", false},
        {HEAD "[numthreads(1, 1, 1)] void main(uint3 i : SV_DispatchThreadID) { int v = 0; "
                "switch (i.x) { case i.y: v = 1; break; } o[0] = v; }", true},
        {HEAD "[numthreads(1, 1, 1)] void main() { o[0] = (-2147483647 - 1) / -1; }", false},
        {HEAD "[numthreads(1, 1, 1)] void main() { o[0] = (-2147483647 - 1) % -1; }", false},
        {HEAD "static const int m = 0x80000000; static const int q = m / -1; "
                "[numthreads(1, 1, 1)] void main() { o[0] = q; }", false},
    };
    char *deep;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char what[32];
        snprintf(what, sizeof(what), "case %zu", i);
        check_survives(cases[i].source, cases[i].must_fail, what);
    }
    if ((deep = repeat_text(HEAD "[numthreads(1, 1, 1)] void main() { o[0] = ", "(", "1", ")", "; }\n", 4000))) {
        check_survives(deep, true, "4000 nested parentheses");
        free(deep);
    }
    if ((deep = repeat_text(HEAD "[numthreads(1, 1, 1)] void main() ", "{", "o[0] = 1;", "}", "\n", 100000))) {
        check_survives(deep, true, "100000 nested blocks");
        free(deep);
    }
    /* the process is still fine: an ordinary compile works */
    {
        ID3DBlob *code = compile(simple_hlsl);
        if (code)
            ID3D10Blob_Release(code);
    }
#undef HEAD
}

/* ---- includes ---- */

struct test_include {
    ID3DInclude ID3DInclude_iface;
    unsigned opens, closes;
    const void *last_parent;
    const char *header_data; /* returned for "header.hlsli" */
    bool parent_ok;
};

static const char header_text[] = "#include \"nested.hlsli\"\n#define FROM_HEADER (NESTED + 2)\n";
static const char nested_text[] = "#define NESTED 40\n";

static HRESULT STDMETHODCALLTYPE test_include_Open(ID3DInclude *iface, D3D_INCLUDE_TYPE type, LPCSTR name,
        LPCVOID parent, LPCVOID *data, UINT *bytes)
{
    struct test_include *include = (struct test_include *)iface;
    include->opens++;
    if (!strcmp(name, "header.hlsli")) {
        include->parent_ok &= parent == NULL && type == D3D_INCLUDE_LOCAL;
        include->header_data = strdup(header_text);
        *data = include->header_data;
        *bytes = (UINT)strlen(header_text);
        return S_OK;
    }
    if (!strcmp(name, "nested.hlsli")) {
        include->parent_ok &= parent == include->header_data;
        *data = strdup(nested_text);
        *bytes = (UINT)strlen(nested_text);
        return S_OK;
    }
    return E_FAIL;
}

static HRESULT STDMETHODCALLTYPE test_include_Close(ID3DInclude *iface, LPCVOID data)
{
    struct test_include *include = (struct test_include *)iface;
    include->closes++;
    free((void *)data);
    return S_OK;
}

static const ID3DIncludeVtbl test_include_vtbl = {test_include_Open, test_include_Close};

static bool stores_constant(ID3DBlob *code, uint32_t value)
{
    size_t count;
    const uint32_t *w = blob_words(code, &count);
    for (size_t o = 5; o < count; o += w[o] >> 16)
        if ((w[o] & 0xffff) == SpvOpConstant && (w[o] >> 16) == 4 && w[o + 3] == value)
            return true;
    return false;
}

static void test_includes(void)
{
    static const char hlsl[] =
        "#include \"header.hlsli\"\n"
        "RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(1, 1, 1)]\n"
        "void main() { output.Store(0, FROM_HEADER); }\n";
    struct test_include include = {{&test_include_vtbl}, 0, 0, NULL, NULL, true};
    char dir[] = "/tmp/d3d12xs_include_XXXXXX", path[256], source_name[256];
    ID3DBlob *code = NULL, *errors = NULL;
    FILE *f;
    LOG_MARK();

    /* a user ID3DInclude, with a nested include */
    CHECK_HR(D3DCompile(hlsl, strlen(hlsl), "main.hlsl", NULL, &include.ID3DInclude_iface, "main", "cs_5_0", 0, 0,
            &code, &errors), S_OK);
    CHECK(include.opens == 2 && include.closes == 2);
    CHECK(include.parent_ok);
    if (code) {
        CHECK(stores_constant(code, 42));
        ID3D10Blob_Release(code);
        code = NULL;
    }
    if (errors)
        ID3D10Blob_Release(errors);
    errors = NULL;

    /* the standard file include: relative to the including file's folder */
    if (!mkdtemp(dir)) {
        CHECK_MSG(0, "mkdtemp failed");
        return;
    }
    snprintf(path, sizeof(path), "%s/sub", dir);
    CHECK(mkdir(path, 0700) == 0);
    snprintf(path, sizeof(path), "%s/header.hlsli", dir);
    if ((f = fopen(path, "w"))) {
        fputs("#include \"sub/nested.hlsli\"\n#define FROM_HEADER (NESTED + 3)\n", f);
        fclose(f);
    }
    snprintf(path, sizeof(path), "%s/sub/nested.hlsli", dir);
    if ((f = fopen(path, "w"))) {
        fputs("#include \"deeper.hlsli\"\n#define NESTED (DEEPER + 1)\n", f);
        fclose(f);
    }
    snprintf(path, sizeof(path), "%s/sub/deeper.hlsli", dir);
    if ((f = fopen(path, "w"))) {
        fputs("#define DEEPER 100\n", f);
        fclose(f);
    }
    snprintf(source_name, sizeof(source_name), "%s/main.hlsl", dir);
    CHECK_HR(D3DCompile(hlsl, strlen(hlsl), source_name, NULL, D3D_COMPILE_STANDARD_FILE_INCLUDE, "main", "cs_5_0",
            0, 0, &code, &errors), S_OK);
    if (code) {
        CHECK(stores_constant(code, 104));
        ID3D10Blob_Release(code);
        code = NULL;
    }
    if (errors) {
        fprintf(stderr, "%s\n", (const char *)ID3D10Blob_GetBufferPointer(errors));
        ID3D10Blob_Release(errors);
        errors = NULL;
    }
    CHECK_NO_LOG();

    /* a missing file */
    CHECK_HR(D3DCompile(hlsl, strlen(hlsl), "/nonexistent/main.hlsl", NULL, D3D_COMPILE_STANDARD_FILE_INCLUDE,
            "main", "cs_5_0", 0, 0, &code, &errors), E_FAIL);
    CHECK_LOG("D3DCompile", "header.hlsli");
    CHECK(errors && strstr(ID3D10Blob_GetBufferPointer(errors), "/nonexistent/header.hlsli"));
    if (errors)
        ID3D10Blob_Release(errors);
    errors = NULL;

    /* no include handler */
    RELOG_MARK();
    CHECK_HR(D3DCompile(hlsl, strlen(hlsl), "main.hlsl", NULL, NULL, "main", "cs_5_0", 0, 0, &code, &errors), E_FAIL);
    CHECK_LOG("D3DCompile", "header.hlsli");
    CHECK(errors && strstr(ID3D10Blob_GetBufferPointer(errors), "no include handler"));
    if (errors)
        ID3D10Blob_Release(errors);
    errors = NULL;

    /* the user handler fails */
    RELOG_MARK();
    {
        static const char missing[] = "#include \"missing.hlsli\"\n[numthreads(1,1,1)] void main() {}\n";
        CHECK_HR(D3DCompile(missing, strlen(missing), "m.hlsl", NULL, &include.ID3DInclude_iface, "main", "cs_5_0", 0,
                0, &code, NULL), E_FAIL);
        CHECK_LOG("D3DCompile", "missing.hlsli");
    }

    snprintf(path, sizeof(path), "%s/sub/deeper.hlsli", dir);
    unlink(path);
    snprintf(path, sizeof(path), "%s/sub/nested.hlsli", dir);
    unlink(path);
    snprintf(path, sizeof(path), "%s/header.hlsli", dir);
    unlink(path);
    snprintf(path, sizeof(path), "%s/sub", dir);
    rmdir(path);
    rmdir(dir);
}

/* ---- the rewrites see the preprocessed translation unit ---- */

/* An ID3DInclude serving files from a NULL-terminated table of {name, text}. */
struct table_include {
    ID3DInclude ID3DInclude_iface;
    const char *const (*files)[2];
};

static HRESULT STDMETHODCALLTYPE table_include_Open(ID3DInclude *iface, D3D_INCLUDE_TYPE type, LPCSTR name,
        LPCVOID parent, LPCVOID *data, UINT *bytes)
{
    struct table_include *include = (struct table_include *)iface;
    (void)type;
    (void)parent;
    for (size_t i = 0; include->files[i][0]; i++)
        if (!strcmp(include->files[i][0], name)) {
            *data = include->files[i][1];
            *bytes = (UINT)strlen(include->files[i][1]);
            return S_OK;
        }
    return E_FAIL;
}

static HRESULT STDMETHODCALLTYPE table_include_Close(ID3DInclude *iface, LPCVOID data)
{
    (void)iface;
    (void)data;
    return S_OK;
}

static const ID3DIncludeVtbl table_include_vtbl = {table_include_Open, table_include_Close};

/* D3DCompile of source (as "main.hlsl") with the table's includes; the blob (or NULL) and, when
 * it fails, the text of ppErrorMsgs in message. */
static ID3DBlob *compile_with_files(const char *source, const char *const (*files)[2], const D3D_SHADER_MACRO *defines,
        HRESULT expected, char *message, size_t message_size)
{
    struct table_include include = {{&table_include_vtbl}, files};
    ID3DBlob *code = NULL, *errors = NULL;
    HRESULT hr = D3DCompile(source, strlen(source), "main.hlsl", defines, &include.ID3DInclude_iface, "main", "cs_5_1",
            0, 0, &code, &errors);

    CHECK_MSG(hr == expected, "D3DCompile returned 0x%08x, expected 0x%08x: %s", (unsigned)hr, (unsigned)expected,
            errors ? (const char *)ID3D10Blob_GetBufferPointer(errors) : "(no message)");
    snprintf(message, message_size, "%s", errors ? (const char *)ID3D10Blob_GetBufferPointer(errors) : "");
    if (errors)
        ID3D10Blob_Release(errors);
    return code;
}

/* message has a line starting with place ("file:line:") that holds what */
static bool message_names(const char *message, const char *place, const char *what)
{
    for (const char *line = message; *line;) {
        size_t length = strcspn(line, "\n");
        const char *found = strstr(line, what);
        if (!strncmp(line, place, strlen(place)) && found && found < line + length)
            return true;
        line += length + (line[length] == '\n');
    }
    return false;
}

static bool has_opcode(ID3DBlob *code, uint32_t opcode)
{
    size_t count;
    const uint32_t *w = blob_words(code, &count);
    for (size_t o = 5; o < count && w[o] >> 16; o += w[o] >> 16)
        if ((w[o] & 0xffff) == opcode)
            return true;
    return false;
}

static bool has_int64_type(ID3DBlob *code)
{
    size_t count;
    const uint32_t *w = blob_words(code, &count);
    for (size_t o = 5; o < count && w[o] >> 16; o += w[o] >> 16)
        if ((w[o] & 0xffff) == SpvOpTypeInt && (w[o] >> 16) == 4 && w[o + 2] == 64)
            return true;
    return false;
}

static void test_preprocessed_rewrites(void)
{
    /* declarations in an include: the same module as with them pasted into the main file */
    static const char declarations[] =
        "RWByteAddressBuffer output : register(u0);\n"
        "ByteAddressBuffer input : register(t0);\n"
        "StructuredBuffer<float3> points : register(t1);\n"
        "uint next() { static uint calls = 10; calls += 1; return calls; }\n"
        "void store_if_zero(uint offset, uint value) { output.InterlockedCompareStore(offset, 0u, value); }\n";
    static const char uses[] =
        "[numthreads(1, 1, 1)]\n"
        "void main()\n"
        "{\n"
        "    uint n, count, stride;\n"
        "    input.GetDimensions(n);\n"
        "    points.GetDimensions(count, stride);\n"
        "    store_if_zero(0, n);\n"
        "    next();\n"
        "    output.Store(4, next());\n"
        "    output.Store(8, stride);\n"
        "    output.Store(12, BIG);\n"
        "}\n";
    static const char *const declaration_files[][2] = {{"declarations.hlsli", declarations}, {NULL, NULL}};
    static const D3D_SHADER_MACRO big[] = {{"BIG", "(uint)(0x500000000ull >> 28)"}, {NULL, NULL}};
    /* errors and refusals: each names the user's file and line */
    static const char nested[] =
        "static const uint from_nested = 1;\n"
        "int2x2 refused_in_nested;\n";
    static const char broken[] =
        "static const uint from_broken = 2;\n"
        "static const uint inside = undeclared_inside;\n"
        "#include \"nested.hlsli\"\n"
        "static const uint after_nested = undeclared_after_nested;\n";
    static const char *const broken_files[][2] = {{"broken.hlsli", broken}, {"nested.hlsli", nested}, {NULL, NULL}};
    static const char broken_main[] =
        "RWByteAddressBuffer output : register(u0);\n"
        "static const uint before = undeclared_before;\n"
        "#include \"broken.hlsli\"\n"
        "\n"
        "static const uint after = undeclared_after + FROM_DEFINE;\n"
        "[numthreads(1, 1, 1)] void main() { output.Store(0, before + after); }\n";
    static const D3D_SHADER_MACRO from_define[] = {{"FROM_DEFINE", "undeclared_from_define"}, {NULL, NULL}};
    static const char macro_main[] =
        "#define MATRIX(n) int##n##x##n\n"
        "RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(1, 1, 1)]\n"
        "void main()\n"
        "{\n"
        "    MATRIX(2) m = 0;\n"
        "    output.Store(0, m[0][0]);\n"
        "}\n";
    char one_file[2048], with_include[2048], message[4096];
    ID3DBlob *single, *split;
    LOG_MARK();

    snprintf(one_file, sizeof(one_file), "%s%s", declarations, uses);
    snprintf(with_include, sizeof(with_include), "#include \"declarations.hlsli\"\n%s", uses);
    single = compile_with_files(one_file, declaration_files, big, S_OK, message, sizeof(message));
    split = compile_with_files(with_include, declaration_files, big, S_OK, message, sizeof(message));
    if (single && split) {
        CHECK_MSG(ID3D10Blob_GetBufferSize(single) == ID3D10Blob_GetBufferSize(split)
                && !memcmp(ID3D10Blob_GetBufferPointer(single), ID3D10Blob_GetBufferPointer(split),
                    ID3D10Blob_GetBufferSize(single)), "declarations in an include compile to another module "
                "(%zu and %zu bytes)", (size_t)ID3D10Blob_GetBufferSize(single), (size_t)ID3D10Blob_GetBufferSize(split));
        /* InterlockedCompareStore of the include rewritten: glslang emitted nothing for it */
        CHECK(has_opcode(split, SpvOpAtomicCompareExchange));
        CHECK(stores_constant(split, 12)); /* the tight stride of float3 (glslang's: 16) */
        /* BIG: 0x500000000ull of pDefines, rewritten as a literal (glslang's preprocessor
         * refuses it: "hexadecimal literal too big"), computed in 64 bits */
        CHECK(has_int64_type(split));
    }
    if (single)
        ID3D10Blob_Release(single);
    if (split)
        ID3D10Blob_Release(split);
    CHECK_NO_LOG();

    /* glslang's errors name the file and line: main file before and after the include, the
     * include before and after its nested include, a define's text at its use */
    compile_with_files(broken_main, broken_files, from_define, E_FAIL, message, sizeof(message));
    CHECK_MSG(message_names(message, "main.hlsl:2:", "undeclared_before"), "%s", message);
    CHECK_MSG(message_names(message, "broken.hlsli:2:", "undeclared_inside"), "%s", message);
    CHECK_MSG(message_names(message, "nested.hlsli:2:", "int2x2"), "%s", message);
    CHECK_MSG(message_names(message, "main.hlsl:5:", "undeclared_after"), "%s", message);
    CHECK_LOG("D3DCompile", "main.hlsl:2:", "undeclared_before");
    RELOG_MARK();

    /* a refusal spelt through token pasting names the construct and the line of its use */
    compile_with_files(macro_main, broken_files, NULL, E_FAIL, message, sizeof(message));
    CHECK_MSG(message_names(message, "main.hlsl:6:", "int2x2"), "%s", message);
    CHECK_LOG("D3DCompile", "main.hlsl:6:", "int2x2", "not supported");
}

/* ---- reflection robustness ---- */

static void test_bad_bytecode(void)
{
    static const unsigned char dxbc[] = {'D', 'X', 'B', 'C', 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
            1, 0, 0, 0, 32, 0, 0, 0};
    static const unsigned char dxil[] = {'D', 'X', 'I', 'L', 0, 0, 0, 0};
    struct d3d12xs_shader_info info;
    char error[256];
    ID3DBlob *code;
    size_t size;
    LOG_MARK();

    CHECK_HR(d3d12xs_spirv_reflect(dxbc, sizeof(dxbc), &info, error, sizeof(error)), E_INVALIDARG);
    CHECK(strstr(error, "DXBC/DXIL bytecode is not SPIR-V") && strstr(error, "pipeline creation translates DXBC")
            && strstr(error, "D3DCompile"));
    CHECK_HR(d3d12xs_spirv_reflect(dxil, sizeof(dxil), &info, error, sizeof(error)), E_INVALIDARG);
    CHECK(strstr(error, "DXBC/DXIL bytecode is not SPIR-V") != NULL);
    CHECK_HR(d3d12xs_spirv_reflect(NULL, 0, &info, error, sizeof(error)), E_INVALIDARG);
    CHECK_HR(d3d12xs_spirv_reflect("abc", 3, &info, NULL, 0), E_INVALIDARG);

    if (!(code = compile(all_resources_hlsl)))
        return;
    const unsigned char *bytes = ID3D10Blob_GetBufferPointer(code);
    size = ID3D10Blob_GetBufferSize(code);
    /* every truncation */
    unsigned failures = 0;
    for (size_t length = 0; length < size; length++) {
        error[0] = 0;
        HRESULT hr = d3d12xs_spirv_reflect(bytes, length, &info, error, sizeof(error));
        if (FAILED(hr)) {
            failures++;
            CHECK_MSG(hr == E_INVALIDARG && error[0], "length %zu: 0x%08x '%s'", length, (unsigned)hr, error);
        } else {
            d3d12xs_shader_info_cleanup(&info);
        }
    }
    CHECK_MSG(failures >= size - size / 4 / 2, "%u of %zu truncations failed", failures, size);

    /* garbage: random words over a real module; reflect and remap must not crash */
    unsigned char *copy = malloc(size + 1);
    struct d3d12xs_shader_info real;
    struct d3d12xs_binding_target *targets;
    uint32_t seed = 12345;
    if (copy && reflect_blob(code, &real)) {
        targets = calloc(real.binding_count, sizeof(*targets));
        for (uint32_t i = 0; i < real.binding_count; i++) {
            targets[i].set = i;
            targets[i].binding = i;
            targets[i].push_constant = real.bindings[i].descriptor_type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
            targets[i].push_offset = 32 * i;
        }
        for (unsigned round = 0; round < 3000; round++) {
            uint32_t *words = (uint32_t *)(void *)copy, *out = NULL;
            size_t out_count;
            memcpy(copy, bytes, size);
            for (unsigned k = 0; k < 1 + round % 8; k++) {
                seed = seed * 1103515245u + 12345u;
                size_t index = 5 + (seed >> 8) % (size / 4 - 5);
                seed = seed * 1103515245u + 12345u;
                words[index] = round % 3 == 0 ? seed : round % 3 == 1 ? (words[index] ^ (1u << (seed % 32)))
                        : (seed % 64);
            }
            if (SUCCEEDED(d3d12xs_spirv_reflect(copy, size, &info, error, sizeof(error))))
                d3d12xs_shader_info_cleanup(&info);
            if (SUCCEEDED(d3d12xs_spirv_remap(copy, size, &real, targets, &out, &out_count, error, sizeof(error))))
                free(out);
        }
        free(targets);
        d3d12xs_shader_info_cleanup(&real);
    }
    free(copy);
    ID3D10Blob_Release(code);
    CHECK_NO_LOG();
}

/* ---- remapping ---- */

static void test_remap_descriptors(void)
{
    struct d3d12xs_shader_info info, again;
    struct d3d12xs_binding_target targets[32];
    uint32_t *words = NULL;
    size_t count;
    char error[1024];
    ID3DBlob *code;
    LOG_MARK();

    if (!(code = compile(all_resources_hlsl)))
        return;
    if (!reflect_blob(code, &info)) {
        ID3D10Blob_Release(code);
        return;
    }
    /* new places that still follow the encoding, so the result can be reflected again */
    memset(targets, 0, sizeof(targets));
    for (uint32_t i = 0; i < info.binding_count; i++) {
        targets[i].set = info.bindings[i].space + 7;
        targets[i].binding = D3D12XS_ENCODE_BINDING(info.bindings[i].register_class, info.bindings[i].register_index + 100);
    }
    CHECK_HR(remap(code, &info, targets, &words, &count, error, sizeof(error)), S_OK);
    if (words) {
        check_valid(words, count, "remapped descriptors");
        CHECK_HR(d3d12xs_spirv_reflect(words, count * 4, &again, error, sizeof(error)), S_OK);
        CHECK(again.binding_count == info.binding_count);
        for (uint32_t i = 0; i < info.binding_count && i < again.binding_count; i++) {
            const struct d3d12xs_shader_binding *b = find_binding(&again, info.bindings[i].register_class,
                    info.bindings[i].space + 7, info.bindings[i].register_index + 100);
            CHECK(b && b->variable_id == info.bindings[i].variable_id
                    && b->descriptor_type == info.bindings[i].descriptor_type
                    && b->array_size == info.bindings[i].array_size);
        }
        CHECK(again.local_size[0] == 8);
        d3d12xs_shader_info_cleanup(&again);
        free(words);
        words = NULL;
    }
    /* arbitrary places */
    for (uint32_t i = 0; i < info.binding_count; i++) {
        targets[i].set = i % 3;
        targets[i].binding = i;
    }
    CHECK_HR(remap(code, &info, targets, &words, &count, error, sizeof(error)), S_OK);
    if (words) {
        check_valid(words, count, "remapped descriptors 2");
        for (uint32_t i = 0; i < info.binding_count; i++) {
            CHECK(decoration(words, count, info.bindings[i].variable_id, SpvDecorationDescriptorSet) == i % 3);
            CHECK(decoration(words, count, info.bindings[i].variable_id, SpvDecorationBinding) == i);
        }
        free(words);
        words = NULL;
    }
    /* info of another module */
    info.bindings[0].variable_id = 1;
    CHECK_HR(remap(code, &info, targets, &words, &count, error, sizeof(error)), E_INVALIDARG);
    CHECK(strstr(error, "does not belong") != NULL);
    d3d12xs_shader_info_cleanup(&info);
    ID3D10Blob_Release(code);
    CHECK_NO_LOG();
}

static const struct d3d12xs_shader_binding *find_cbv(const struct d3d12xs_shader_info *info, uint32_t space, uint32_t reg,
        uint32_t *index)
{
    for (uint32_t i = 0; i < info->binding_count; i++)
        if (info->bindings[i].register_class == D3D12XS_REGISTER_CBV && info->bindings[i].space == space
                && info->bindings[i].register_index == reg) {
            *index = i;
            return &info->bindings[i];
        }
    return NULL;
}

static void test_remap_push_constants(void)
{
    struct d3d12xs_shader_info info;
    struct d3d12xs_binding_target targets[8];
    const struct d3d12xs_shader_binding *root, *other, *third;
    uint32_t root_index = 0, other_index = 0, third_index = 0, struct_id = 0, variable = 0;
    uint32_t *words = NULL;
    size_t count, in_count;
    char error[1024];
    ID3DBlob *code;
    LOG_MARK();

    if (!(code = compile(root_constants_hlsl)))
        return;
    const uint32_t *in = blob_words(code, &in_count);
    if (!reflect_blob(code, &info)) {
        ID3D10Blob_Release(code);
        return;
    }
    root = find_cbv(&info, 0, 0, &root_index);
    other = find_cbv(&info, 0, 1, &other_index);
    third = find_cbv(&info, 1, 2, &third_index);
    CHECK(root && other && third);
    if (!root || !other || !third)
        goto done;
    CHECK(root->block_size == 20 && other->block_size == 12 && third->block_size == 16);

    for (uint32_t offset = 0; offset <= 16; offset += 16) {
        memset(targets, 0, sizeof(targets));
        for (uint32_t i = 0; i < info.binding_count; i++)
            targets[i].binding = i;
        targets[root_index].push_constant = true;
        targets[root_index].push_offset = offset;
        CHECK_HR(remap(code, &info, targets, &words, &count, error, sizeof(error)), S_OK);
        if (!words)
            continue;
        check_valid(words, count, offset ? "one cbuffer at 16" : "one cbuffer at 0");
        CHECK(push_constant_variables(words, count, &struct_id, &variable) == 1);
        CHECK(variable == root->variable_id);
        CHECK(member_offset(words, count, struct_id, 0) == offset);
        CHECK(member_offset(words, count, struct_id, 1) == offset + 16);
        CHECK(!has_decoration(words, count, variable, SpvDecorationDescriptorSet));
        CHECK(!has_decoration(words, count, variable, SpvDecorationBinding));
        CHECK(decoration(words, count, other->variable_id, SpvDecorationBinding) == other_index);
        /* the other cbuffers are untouched uniform buffers */
        {
            size_t def = find_def(words, count, other->variable_id);
            CHECK(def && words[def + 3] == SpvStorageClassUniform);
        }
        /* the original module is unchanged */
        CHECK(push_constant_variables(in, in_count, NULL, NULL) == 0);
        free(words);
        words = NULL;
    }

    /* two and three cbuffers merged into one block */
    memset(targets, 0, sizeof(targets));
    for (uint32_t i = 0; i < info.binding_count; i++)
        targets[i].binding = i;
    targets[root_index].push_constant = true;
    targets[root_index].push_offset = 32;
    targets[other_index].push_constant = true;
    targets[other_index].push_offset = 0;
    CHECK_HR(remap(code, &info, targets, &words, &count, error, sizeof(error)), S_OK);
    if (words) {
        check_valid(words, count, "two cbuffers merged");
        CHECK(push_constant_variables(words, count, &struct_id, &variable) == 1);
        /* Other's p, q then Root's v, w */
        CHECK(member_offset(words, count, struct_id, 0) == 0);
        CHECK(member_offset(words, count, struct_id, 1) == 8);
        CHECK(member_offset(words, count, struct_id, 2) == 32);
        CHECK(member_offset(words, count, struct_id, 3) == 48);
        CHECK(find_def(words, count, root->variable_id) == 0);
        CHECK(find_def(words, count, other->variable_id) == 0);
        free(words);
        words = NULL;
    }
    targets[third_index].push_constant = true;
    targets[third_index].push_offset = 64;
    CHECK_HR(remap(code, &info, targets, &words, &count, error, sizeof(error)), S_OK);
    if (words) {
        check_valid(words, count, "three cbuffers merged");
        CHECK(push_constant_variables(words, count, &struct_id, NULL) == 1);
        CHECK(member_offset(words, count, struct_id, 4) == 64);
        free(words);
        words = NULL;
    }

    /* refusals */
    memset(targets, 0, sizeof(targets));
    targets[root_index].push_constant = true;
    targets[root_index].push_offset = 4; /* uint4 would straddle */
    CHECK_HR(remap(code, &info, targets, &words, &count, error, sizeof(error)), E_INVALIDARG);
    CHECK_MSG(strstr(error, "misaligned") != NULL, "%s", error);
    targets[root_index].push_offset = 2;
    CHECK_HR(remap(code, &info, targets, &words, &count, error, sizeof(error)), E_INVALIDARG);
    CHECK(strstr(error, "multiple of 4") != NULL);
    targets[root_index].push_offset = 0;
    targets[other_index].push_constant = true;
    targets[other_index].push_offset = 16; /* overlaps Root's 20 bytes */
    CHECK_HR(remap(code, &info, targets, &words, &count, error, sizeof(error)), E_INVALIDARG);
    CHECK(strstr(error, "overlap") != NULL);
    memset(targets, 0, sizeof(targets));
    for (uint32_t i = 0; i < info.binding_count; i++)
        if (info.bindings[i].descriptor_type != VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER)
            targets[i].push_constant = true;
    CHECK_HR(remap(code, &info, targets, &words, &count, error, sizeof(error)), E_INVALIDARG);
    CHECK(strstr(error, "only a single cbuffer") != NULL);

done:
    d3d12xs_shader_info_cleanup(&info);
    ID3D10Blob_Release(code);
    CHECK_NO_LOG();
}

/* Scalars may sit at any 4-byte push offset; structs shared with another cbuffer get cloned. */
static void test_remap_push_constants_more(void)
{
    static const char scalars_hlsl[] =
        "cbuffer Root : register(b0) { uint a; uint b; float c; };\n"
        "RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(1, 1, 1)]\n"
        "void main() { output.Store(0, a + b + (uint)c); }\n";
    static const char shared_hlsl[] =
        "struct P { uint4 v; uint k; };\n"
        "ConstantBuffer<P> first : register(b0);\n"
        "ConstantBuffer<P> second : register(b1);\n"
        "RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(1, 1, 1)]\n"
        "void main() { output.Store(0, first.v.y + first.k + second.v.z + second.k); }\n";
    static const char *const flags_names[] = {"optimized", "unoptimized"};
    static const UINT flags[] = {0, D3DCOMPILE_SKIP_OPTIMIZATION};
    struct d3d12xs_binding_target targets[4];
    struct d3d12xs_shader_info info;
    uint32_t *words = NULL, index, struct_id;
    size_t count;
    char error[1024];
    ID3DBlob *code;
    LOG_MARK();

    for (unsigned f = 0; f < 2; f++) {
        if ((code = compile_ex(scalars_hlsl, "cs_5_0", NULL, flags[f]))) {
            if (reflect_blob(code, &info) && find_cbv(&info, 0, 0, &index)) {
                memset(targets, 0, sizeof(targets));
                targets[index].push_constant = true;
                targets[index].push_offset = 4;
                CHECK_HR(remap(code, &info, targets, &words, &count, error, sizeof(error)), S_OK);
                if (words) {
                    check_valid(words, count, flags_names[f]);
                    CHECK(push_constant_variables(words, count, &struct_id, NULL) == 1);
                    CHECK(member_offset(words, count, struct_id, 2) == 12);
                    free(words);
                    words = NULL;
                }
                d3d12xs_shader_info_cleanup(&info);
            }
            ID3D10Blob_Release(code);
        }
        if ((code = compile_ex(shared_hlsl, "cs_5_1", NULL, flags[f]))) {
            uint32_t second;
            if (reflect_blob(code, &info) && find_cbv(&info, 0, 1, &second) && find_cbv(&info, 0, 0, &index)) {
                const uint32_t *in;
                size_t in_count;
                in = blob_words(code, &in_count);
                /* one of the two at offset 16: the shared struct must not change for the other */
                memset(targets, 0, sizeof(targets));
                targets[index].push_constant = true;
                targets[index].push_offset = 16;
                targets[second].binding = 5;
                CHECK_HR(remap(code, &info, targets, &words, &count, error, sizeof(error)), S_OK);
                if (words) {
                    check_valid(words, count, "shared struct");
                    CHECK(push_constant_variables(words, count, &struct_id, NULL) == 1);
                    CHECK(member_offset(words, count, struct_id, 0) == 16);
                    size_t def = find_def(words, count, info.bindings[second].variable_id);
                    size_t pointer = def ? find_def(words, count, words[def + 1]) : 0;
                    CHECK(pointer && member_offset(words, count, words[pointer + 3], 0) == 0);
                    (void)in;
                    (void)in_count;
                    free(words);
                    words = NULL;
                }
                /* both */
                targets[second].push_constant = true;
                targets[second].push_offset = 64;
                CHECK_HR(remap(code, &info, targets, &words, &count, error, sizeof(error)), S_OK);
                if (words) {
                    check_valid(words, count, "shared struct, both");
                    CHECK(push_constant_variables(words, count, &struct_id, NULL) == 1);
                    CHECK(member_offset(words, count, struct_id, 3) == 80);
                    free(words);
                    words = NULL;
                }
                d3d12xs_shader_info_cleanup(&info);
            }
            ID3D10Blob_Release(code);
        }
    }
    CHECK_NO_LOG();
}

/* Every resource kind remapped at once with root constants, then validated. */
static void test_remap_everything(void)
{
    struct d3d12xs_binding_target targets[32];
    struct d3d12xs_shader_info info;
    uint32_t *words = NULL;
    size_t count;
    char error[1024];
    ID3DBlob *code;
    LOG_MARK();

    for (unsigned f = 0; f < 2; f++) {
        if (!(code = compile_ex(all_resources_hlsl, "cs_5_1", NULL, f ? D3DCOMPILE_SKIP_OPTIMIZATION : 0)))
            continue;
        if (reflect_blob(code, &info)) {
            uint32_t offset = 0;
            memset(targets, 0, sizeof(targets));
            for (uint32_t i = 0; i < info.binding_count; i++) {
                targets[i].set = 1;
                targets[i].binding = 100 + i;
                if (info.bindings[i].descriptor_type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER) {
                    targets[i].push_constant = true;
                    targets[i].push_offset = offset;
                    offset += (info.bindings[i].block_size + 15) & ~15u;
                }
            }
            CHECK_HR(remap(code, &info, targets, &words, &count, error, sizeof(error)), S_OK);
            if (words) {
                check_valid(words, count, f ? "everything, unoptimized" : "everything");
                CHECK(push_constant_variables(words, count, NULL, NULL) == 1);
                free(words);
                words = NULL;
            } else {
                fprintf(stderr, "%s\n", error);
            }
            d3d12xs_shader_info_cleanup(&info);
        }
        ID3D10Blob_Release(code);
    }
    CHECK_NO_LOG();
}

/* ---- HLSL semantics fixed after glslang (src/spirv_fixup.c) ---- */

static bool takes_group_operation(uint32_t op)
{
    return (op >= SpvOpGroupIAdd && op <= SpvOpGroupSMax) || op == SpvOpGroupNonUniformBallotBitCount
            || (op >= SpvOpGroupNonUniformIAdd && op <= SpvOpGroupNonUniformLogicalXor);
}

static void test_hlsl_fixups(void)
{
    static const char hlsl[] =
        "cbuffer C : register(b0) { float fa; float fb; int ia; int ib; uint ua; uint ub; };\n"
        "RWStructuredBuffer<float> f : register(u0);\n"
        "RWStructuredBuffer<int> i : register(u1);\n"
        "RWStructuredBuffer<uint> u : register(u2);\n"
        "[numthreads(64, 1, 1)]\n"
        "void main(uint3 id : SV_DispatchThreadID)\n"
        "{\n"
        "    f[id.x] = fmod(fa, fb) + fb % fa + (float)WavePrefixSum(id.x) + WavePrefixSum(fa)\n"
        "            + fmod(float2(fa, fb), float2(fb, fa)).y;\n"
        "    i[id.x] = ia % ib + WavePrefixProduct(ia) + WavePrefixSum(int2(ia, ib)).y + (int2(ia, ib) % int2(ib, 3)).x;\n"
        "    u[id.x] = ua % ub + WavePrefixCountBits(id.x % 3 == 0) + WaveActiveSum(ua) + WavePrefixProduct(ub);\n"
        "}\n";
    static const UINT flags[] = {0, D3DCOMPILE_SKIP_OPTIMIZATION};
    ID3DBlob *code;
    size_t count;
    LOG_MARK();

    for (unsigned f = 0; f < 2; f++) {
        unsigned frem = 0, umod = 0, exclusive = 0, reduce = 0, bitcount = 0;
        if (!(code = compile_ex(hlsl, "cs_6_0", NULL, flags[f])))
            continue;
        const uint32_t *w = blob_words(code, &count);
        check_valid(w, count, f ? "fix-ups, unoptimized" : "fix-ups");
        for (size_t o = 5; o < count; o += w[o] >> 16) {
            uint32_t op = w[o] & 0xffff, n = w[o] >> 16;
            /* HLSL fmod / float % take the sign of the dividend, int % truncates */
            CHECK_MSG(op != SpvOpFMod, "OpFMod at word %zu", o);
            /* OpSRem / OpSMod are undefined for negative operands in Vulkan: the remainder is
             * computed on magnitudes with OpUMod */
            CHECK_MSG(op != SpvOpSMod && op != SpvOpSRem, "OpSMod / OpSRem at word %zu", o);
            frem += op == SpvOpFRem;
            umod += op == SpvOpUMod;
            if (takes_group_operation(op)) {
                CHECK(n >= 5);
                /* every WavePrefix* is an exclusive scan; reductions stay reductions */
                CHECK_MSG(w[o + 4] != SpvGroupOperationInclusiveScan, "InclusiveScan at word %zu (opcode %u)", o, op);
                exclusive += w[o + 4] == SpvGroupOperationExclusiveScan;
                reduce += w[o + 4] == SpvGroupOperationReduce;
                bitcount += op == SpvOpGroupNonUniformBallotBitCount && w[o + 4] == SpvGroupOperationExclusiveScan;
            }
        }
        CHECK_MSG(frem >= 3, "%u OpFRem", frem);
        CHECK_MSG(umod >= 3, "%u OpUMod (int %%, int2 %%, and uint %%, which is already right)", umod);
        CHECK_MSG(exclusive >= 6, "%u exclusive scans", exclusive);
        CHECK_MSG(reduce >= 1, "%u reductions", reduce);
        CHECK_MSG(bitcount == 1, "%u exclusive bit counts", bitcount);
        ID3D10Blob_Release(code);
    }

    /* the pass itself, on a hand-made module */
    {
        static const uint32_t module[] = {
            SpvMagicNumber, 0x10300, 0, 19, 0,
            (2u << 16) | SpvOpCapability, SpvCapabilityShader,
            (2u << 16) | SpvOpCapability, SpvCapabilityGroupNonUniform,
            (2u << 16) | SpvOpCapability, SpvCapabilityGroupNonUniformArithmetic,
            (3u << 16) | SpvOpMemoryModel, SpvAddressingModelLogical, SpvMemoryModelGLSL450,
            (5u << 16) | SpvOpEntryPoint, SpvExecutionModelGLCompute, 1, 0x6e69616d /* "main" */, 0,
            (6u << 16) | SpvOpExecutionMode, 1, SpvExecutionModeLocalSize, 1, 1, 1,
            (2u << 16) | SpvOpTypeVoid, 2,
            (3u << 16) | SpvOpTypeFunction, 3, 2,
            (4u << 16) | SpvOpTypeInt, 4, 32, 1,
            (3u << 16) | SpvOpTypeFloat, 5, 32,
            (4u << 16) | SpvOpConstant, 4, 6, (uint32_t)-7,
            (4u << 16) | SpvOpConstant, 4, 7, 2,
            (4u << 16) | SpvOpConstant, 5, 8, 0x3fc00000 /* 1.5f */,
            (4u << 16) | SpvOpTypeVector, 9, 4, 2,
            (5u << 16) | SpvOpConstantComposite, 9, 10, 6, 7,
            (4u << 16) | SpvOpTypeInt, 11, 32, 0,
            (4u << 16) | SpvOpConstant, 11, 12, SpvScopeSubgroup,
            (5u << 16) | SpvOpFunction, 2, 1, SpvFunctionControlMaskNone, 3,
            (2u << 16) | SpvOpLabel, 13,
            (5u << 16) | SpvOpSMod, 4, 14, 6, 7,
            (5u << 16) | SpvOpFMod, 5, 15, 8, 8,
            (5u << 16) | SpvOpSRem, 9, 16, 10, 10,
            (6u << 16) | SpvOpGroupNonUniformIAdd, 4, 17, 12, SpvGroupOperationInclusiveScan, 6,
            (6u << 16) | SpvOpGroupNonUniformIAdd, 4, 18, 12, SpvGroupOperationReduce, 6,
            (1u << 16) | SpvOpReturn,
            (1u << 16) | SpvOpFunctionEnd,
        };
        const size_t module_count = sizeof(module) / sizeof(module[0]);
        unsigned umod = 0, uint32_types = 0, bools = 0, bool2 = 0, uint2 = 0, selects = 0;
        struct d3d12xs_fixup_counts counts;
        uint32_t *out = NULL, *copy;
        size_t out_count = 0;

        CHECK_HR(d3d12xs_spirv_fixup_hlsl(module, module_count, D3D12XS_FIXUP_SCALAR_LAYOUT, &out, &out_count, &counts, NULL, 0), S_OK);
        if (out) {
            check_valid(module, module_count, "fix-up input");
            check_valid(out, out_count, "fix-up output");
            CHECK(counts.fmod == 1 && counts.smod == 2 && counts.inclusive_scan == 1);
            CHECK_MSG(out[3] == 19 + 2 * 11 + 3 + 2, "bound %u", out[3]); /* 11 ids per remainder, 3 types, 2 zeros */
            for (size_t o = 5; o < out_count; o += out[o] >> 16) {
                uint32_t op = out[o] & 0xffff;
                CHECK(op != SpvOpSMod && op != SpvOpSRem && op != SpvOpFMod);
                umod += op == SpvOpUMod;
                uint32_types += op == SpvOpTypeInt && out[o + 2] == 32 && out[o + 3] == 0;
                bools += op == SpvOpTypeBool;
                bool2 += op == SpvOpTypeVector && out[o + 3] == 2 && out[o + 2] != 4 && out[o + 2] != 11;
                uint2 += op == SpvOpTypeVector && out[o + 2] == 11 && out[o + 3] == 2;
                /* the remainders keep their result ids, now defined by the final OpSelect */
                if (op == SpvOpSelect && (out[o + 2] == 14 || out[o + 2] == 16))
                    selects++;
                if (op == SpvOpGroupNonUniformIAdd)
                    CHECK(out[o + 4] == (out[o + 2] == 17 ? SpvGroupOperationExclusiveScan : SpvGroupOperationReduce));
                if (op == SpvOpFRem)
                    CHECK(out[o + 2] == 15 && out[o + 3] == 8);
            }
            /* the module's uint is reused (a second OpTypeInt 32 0 is invalid); bool, bool2, uint2 added once */
            CHECK(umod == 2 && uint32_types == 1 && bools == 1 && bool2 == 1 && uint2 == 1 && selects == 2);
            free(out);
        }
        /* a malformed module (an instruction running past the end) comes back with its tail unchanged */
        if ((copy = malloc(sizeof(module)))) {
            memcpy(copy, module, sizeof(module));
            copy[module_count - 2] = (9u << 16) | SpvOpReturn;
            CHECK_HR(d3d12xs_spirv_fixup_hlsl(copy, module_count, D3D12XS_FIXUP_SCALAR_LAYOUT, &out, &out_count, NULL, NULL, 0), S_OK);
            CHECK(out && out_count > module_count && out[out_count - 2] == copy[module_count - 2]
                    && out[out_count - 1] == copy[module_count - 1]);
            free(out);
            CHECK_HR(d3d12xs_spirv_fixup_hlsl(copy, 4, 0, &out, &out_count, NULL, NULL, 0), E_INVALIDARG);
            CHECK(!out);
            free(copy);
        }
    }
    CHECK_NO_LOG();
}

/* ---- structured buffers in D3D12's tight layout (src/spirv_fixup.c, fix 4) ---- */

/* The type of member `member` of struct `id`, or 0. */
static uint32_t member_type(const uint32_t *w, size_t count, uint32_t id, uint32_t member)
{
    size_t o = find_def(w, count, id);
    return o && (w[o] & 0xffff) == SpvOpTypeStruct && member + 2 < (w[o] >> 16) ? w[o + 2 + member] : 0;
}

/* The struct a resource variable points at (through arrays of it), or 0. */
static uint32_t variable_struct(const uint32_t *w, size_t count, uint32_t variable)
{
    size_t o = find_def(w, count, variable), pointer = o ? find_def(w, count, w[o + 1]) : 0;
    return pointer ? w[pointer + 3] : 0;
}

static uint32_t member_decoration(const uint32_t *w, size_t count, uint32_t id, uint32_t member, uint32_t what)
{
    for (size_t o = 5; o < count; o += w[o] >> 16)
        if ((w[o] & 0xffff) == SpvOpMemberDecorate && (w[o] >> 16) >= 5 && w[o + 1] == id && w[o + 2] == member
                && w[o + 3] == what)
            return w[o + 4];
    return ~0u;
}

static void test_structured_layout(void)
{
    static const char hlsl[] =
        "struct Particle { float3 position; uint id; float2 velocity; int charge; };\n" /* 28 bytes */
        "struct Pair { float3 a; float2 b; };\n"                                       /* 20 bytes */
        "struct Nested { float3 p; Pair s[2]; float2 q; };\n"                          /* 60 bytes */
        "cbuffer C : register(b0) { Pair pc; float3 arr[2]; };\n"                      /* HLSL packing */
        "StructuredBuffer<float3> positions : register(t0);\n"
        "StructuredBuffer<Particle> particles : register(t1);\n"
        "StructuredBuffer<Nested> nested : register(t2);\n"
        "RWStructuredBuffer<float3x3> matrices : register(u1);\n"
        "RWByteAddressBuffer raw : register(u2);\n"
        "RWStructuredBuffer<float> output : register(u0);\n"
        "[numthreads(1, 1, 1)]\n"
        "void main(uint3 id : SV_DispatchThreadID)\n"
        "{\n"
        "    output[id.x] = positions[id.x].y + particles[id.x].velocity.x + nested[id.x].s[1].b.y + nested[id.x].q.x\n"
        "            + pc.b.x + arr[1].z + matrices[id.x][1][2];\n"
        "    matrices[id.x + 1] = matrices[id.x];\n"
        "    raw.Store(0, 1);\n"
        "}\n";
    struct d3d12xs_shader_info info;
    const struct d3d12xs_shader_binding *b;
    uint32_t block, array, element, pair, cbuffer;
    char error[512];
    ID3DBlob *code;
    size_t count;
    LOG_MARK();

    if (!(code = compile_ex(hlsl, "cs_6_0", NULL, 0)))
        return;
    const uint32_t *w = blob_words(code, &count);
    check_valid(w, count, "scalar layout");
    /* the std430 rules refuse it: the module really uses the scalar layout */
    CHECK_HR(d3d12xs_spirv_validate(w, count, false, error, sizeof(error)), E_FAIL);
    if (!reflect_blob(code, &info)) {
        ID3D10Blob_Release(code);
        return;
    }
    /* StructuredBuffer<float3>: stride 12 (std430: 16) */
    if ((b = find_binding(&info, D3D12XS_REGISTER_SRV, 0, 0))) {
        block = variable_struct(w, count, b->variable_id);
        array = member_type(w, count, block, 0);
        CHECK_MSG(decoration(w, count, array, SpvDecorationArrayStride) == 12, "float3 stride %u",
                decoration(w, count, array, SpvDecorationArrayStride));
        CHECK(member_offset(w, count, block, 0) == 0);
    } else {
        CHECK_MSG(0, "no t0");
    }
    /* the 28-byte struct: 0 12 16 24, stride 28 (std430: float2 at 16 too, stride 32) */
    if ((b = find_binding(&info, D3D12XS_REGISTER_SRV, 0, 1))) {
        array = member_type(w, count, variable_struct(w, count, b->variable_id), 0);
        element = find_def(w, count, array) ? w[find_def(w, count, array) + 2] : 0;
        CHECK_MSG(decoration(w, count, array, SpvDecorationArrayStride) == 28, "Particle stride %u",
                decoration(w, count, array, SpvDecorationArrayStride));
        CHECK(member_offset(w, count, element, 0) == 0 && member_offset(w, count, element, 1) == 12
                && member_offset(w, count, element, 2) == 16 && member_offset(w, count, element, 3) == 24);
    } else {
        CHECK_MSG(0, "no t1");
    }
    /* nested: Pair 20 bytes (b at 12, std430 16) in an array of stride 20 at 12; q at 52; 60 in all */
    if ((b = find_binding(&info, D3D12XS_REGISTER_SRV, 0, 2))) {
        array = member_type(w, count, variable_struct(w, count, b->variable_id), 0);
        element = find_def(w, count, array) ? w[find_def(w, count, array) + 2] : 0;
        CHECK_MSG(decoration(w, count, array, SpvDecorationArrayStride) == 60, "Nested stride %u",
                decoration(w, count, array, SpvDecorationArrayStride));
        CHECK(member_offset(w, count, element, 0) == 0 && member_offset(w, count, element, 1) == 12
                && member_offset(w, count, element, 2) == 52);
        pair = member_type(w, count, element, 1);
        CHECK(decoration(w, count, pair, SpvDecorationArrayStride) == 20);
        pair = find_def(w, count, pair) ? w[find_def(w, count, pair) + 2] : 0;
        CHECK(member_offset(w, count, pair, 0) == 0 && member_offset(w, count, pair, 1) == 12);
    } else {
        CHECK_MSG(0, "no t2");
    }
    /* float3x3: 36 bytes, a tight 12-byte MatrixStride (std430: 48 and 16) */
    if ((b = find_binding(&info, D3D12XS_REGISTER_UAV, 0, 1))) {
        block = variable_struct(w, count, b->variable_id);
        array = member_type(w, count, block, 0);
        CHECK(decoration(w, count, array, SpvDecorationArrayStride) == 36);
        CHECK(member_decoration(w, count, block, 0, SpvDecorationMatrixStride) == 12);
    } else {
        CHECK_MSG(0, "no u1");
    }
    /* ByteAddressBuffer: uint[] of stride 4, as before */
    if ((b = find_binding(&info, D3D12XS_REGISTER_UAV, 0, 2)))
        CHECK(decoration(w, count, member_type(w, count, variable_struct(w, count, b->variable_id), 0),
                SpvDecorationArrayStride) == 4);
    /* the cbuffer keeps HLSL's packing: its own Pair with b at 16 (a new register), float3 arr[2] at 32
     * with stride 16 */
    if ((b = find_binding(&info, D3D12XS_REGISTER_CBV, 0, 0))) {
        cbuffer = variable_struct(w, count, b->variable_id);
        pair = member_type(w, count, cbuffer, 0);
        CHECK(member_offset(w, count, pair, 0) == 0 && member_offset(w, count, pair, 1) == 16);
        CHECK(member_offset(w, count, cbuffer, 1) == 32);
        CHECK(decoration(w, count, member_type(w, count, cbuffer, 1), SpvDecorationArrayStride) == 16);
    } else {
        CHECK_MSG(0, "no b0");
    }
    d3d12xs_shader_info_cleanup(&info);
    ID3D10Blob_Release(code);

    /* glslang shares a struct between a tbuffer (std430 here) and a structured buffer: it cannot
     * have both layouts, so D3DCompile refuses it, saying why */
    {
        static const char shared[] =
            "struct S { float3 a; float2 b; };\n"
            "tbuffer T : register(t3) { S ts; };\n"
            "StructuredBuffer<S> sb : register(t0);\n"
            "RWStructuredBuffer<float> o : register(u0);\n"
            "[numthreads(1, 1, 1)]\n"
            "void main(uint3 id : SV_DispatchThreadID) { o[id.x] = ts.b.y + sb[id.x].b.x; }\n";
        ID3DBlob *errors = NULL;
        code = NULL;
        CHECK_HR(D3DCompile(shared, strlen(shared), "shared.hlsl", NULL, NULL, "main", "cs_6_0", 0, 0, &code, &errors),
                E_FAIL);
        CHECK(!code);
        CHECK(errors && strstr(ID3D10Blob_GetBufferPointer(errors), "give the structured buffer a struct of its own"));
        CHECK_LOG("D3DCompile", "shared.hlsl", "used by a structured buffer and by another block");
        RELOG_MARK();
        if (errors)
            ID3D10Blob_Release(errors);
    }

    /* the pass on a hand-made module: S {float3; float2} in a structured buffer (std430: 0 16,
     * stride 32) and a cbuffer {float3; float2} (0 16) */
    {
        uint32_t module[] = {
            SpvMagicNumber, 0x10300, 0, 16, 0,
            (2u << 16) | SpvOpCapability, SpvCapabilityShader,
            (3u << 16) | SpvOpMemoryModel, SpvAddressingModelLogical, SpvMemoryModelGLSL450,
            (5u << 16) | SpvOpEntryPoint, SpvExecutionModelGLCompute, 1, 0x6e69616d /* "main" */, 0,
            (6u << 16) | SpvOpExecutionMode, 1, SpvExecutionModeLocalSize, 1, 1, 1,
            (5u << 16) | SpvOpMemberDecorate, 7, 0, SpvDecorationOffset, 0,
            (5u << 16) | SpvOpMemberDecorate, 7, 1, SpvDecorationOffset, 16,
            (4u << 16) | SpvOpDecorate, 8, SpvDecorationArrayStride, 32,
            (5u << 16) | SpvOpMemberDecorate, 9, 0, SpvDecorationOffset, 0,
            (3u << 16) | SpvOpDecorate, 9, SpvDecorationBufferBlock,
            (4u << 16) | SpvOpDecorate, 11, SpvDecorationDescriptorSet, 0,
            (4u << 16) | SpvOpDecorate, 11, SpvDecorationBinding, 0,
            (5u << 16) | SpvOpMemberDecorate, 12, 0, SpvDecorationOffset, 0,
            (5u << 16) | SpvOpMemberDecorate, 12, 1, SpvDecorationOffset, 16,
            (3u << 16) | SpvOpDecorate, 12, SpvDecorationBlock,
            (4u << 16) | SpvOpDecorate, 14, SpvDecorationDescriptorSet, 0,
            (4u << 16) | SpvOpDecorate, 14, SpvDecorationBinding, 1,
            (2u << 16) | SpvOpTypeVoid, 2,
            (3u << 16) | SpvOpTypeFunction, 3, 2,
            (3u << 16) | SpvOpTypeFloat, 4, 32,
            (4u << 16) | SpvOpTypeVector, 5, 4, 3,
            (4u << 16) | SpvOpTypeVector, 6, 4, 2,
            (4u << 16) | SpvOpTypeStruct, 7, 5, 6,
            (3u << 16) | SpvOpTypeRuntimeArray, 8, 7,
            (3u << 16) | SpvOpTypeStruct, 9, 8,
            (4u << 16) | SpvOpTypePointer, 10, SpvStorageClassUniform, 9,
            (4u << 16) | SpvOpVariable, 10, 11, SpvStorageClassUniform,
            (4u << 16) | SpvOpTypeStruct, 12, 5, 6, /* the cbuffer's; word 'cbuffer_member' below */
            (4u << 16) | SpvOpTypePointer, 13, SpvStorageClassUniform, 12,
            (4u << 16) | SpvOpVariable, 13, 14, SpvStorageClassUniform,
            (5u << 16) | SpvOpFunction, 2, 1, SpvFunctionControlMaskNone, 3,
            (2u << 16) | SpvOpLabel, 15,
            (1u << 16) | SpvOpReturn,
            (1u << 16) | SpvOpFunctionEnd,
        };
        const size_t module_count = sizeof(module) / sizeof(module[0]);
        struct d3d12xs_fixup_counts counts;
        uint32_t *out = NULL;
        size_t out_count = 0, cbuffer_member = 0;

        for (size_t o = 5; o < module_count; o += module[o] >> 16)
            if ((module[o] & 0xffff) == SpvOpTypeStruct && module[o + 1] == 12)
                cbuffer_member = o + 2;
        check_valid(module, module_count, "layout fix-up input");
        /* without the flag (a device without scalarBlockLayout): std430 stays */
        CHECK_HR(d3d12xs_spirv_fixup_hlsl(module, module_count, 0, &out, &out_count, &counts, NULL, 0), S_OK);
        CHECK(out && out_count == module_count && !memcmp(out, module, sizeof(module)) && !counts.layout);
        free(out);
        CHECK_HR(d3d12xs_spirv_fixup_hlsl(module, module_count, D3D12XS_FIXUP_SCALAR_LAYOUT, &out, &out_count,
                &counts, error, sizeof(error)), S_OK);
        if (out) {
            check_valid(out, out_count, "layout fix-up output");
            CHECK_MSG(counts.layout == 2, "%u layout decorations", counts.layout);
            CHECK(member_offset(out, out_count, 7, 1) == 12 && decoration(out, out_count, 8, SpvDecorationArrayStride) == 20);
            CHECK(member_offset(out, out_count, 12, 0) == 0 && member_offset(out, out_count, 12, 1) == 16);
            free(out);
        }
        /* S shared with the cbuffer (a struct glslang never shares): refused, not laid out twice */
        module[cbuffer_member] = 7;
        out = NULL;
        CHECK_HR(d3d12xs_spirv_fixup_hlsl(module, module_count, D3D12XS_FIXUP_SCALAR_LAYOUT, &out, &out_count,
                &counts, error, sizeof(error)), E_FAIL);
        CHECK(!out);
        CHECK_MSG(strstr(error, "type 7 is used by a structured buffer and by another block"), "%s", error);
    }
    CHECK_NO_LOG();
}

/* A shader declaring a capability whose Vulkan feature the device lacks is refused (E_NOTIMPL,
 * one log line) by CreateComputePipelineState instead of making a module Vulkan forbids.
 * tests/shaders/typed_array_dynamic_index.shader_test runs the shader where it is offered. */
struct d3d12_device *impl_from_ID3D12Device(ID3D12Device *iface);

static void test_capability_features(ID3D12Device *device)
{
    static const char hlsl[] =
        "RWBuffer<uint> outputs[4] : register(u0);\n"
        "cbuffer Select : register(b0) { uint which; };\n"
        "[numthreads(16, 1, 1)]\n"
        "void main(uint3 id : SV_DispatchThreadID) { outputs[which][id.x] = id.x + 100; }\n";
    D3D12_DESCRIPTOR_RANGE1 range = {D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 4, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 0};
    D3D12_ROOT_PARAMETER1 parameters[2];
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc;
    D3D12_COMPUTE_PIPELINE_STATE_DESC pipeline_desc;
    ID3D12RootSignature *signature = NULL;
    ID3D12PipelineState *state = NULL;
    struct d3d12xs_shader_info info;
    const char *capability = NULL, *feature;
    ID3DBlob *code, *blob = NULL;
    bool declared = false;
    uint32_t other = SpvCapabilityShader;
    LOG_MARK();

    if (!(code = compile_ex(hlsl, "cs_5_1", NULL, 0)))
        return;
    if (!reflect_blob(code, &info)) {
        ID3D10Blob_Release(code);
        return;
    }
    for (uint32_t i = 0; i < info.capability_count; i++)
        declared |= info.capabilities[i] == SpvCapabilityStorageTexelBufferArrayDynamicIndexing;
    CHECK_MSG(declared, "the module does not declare StorageTexelBufferArrayDynamicIndexing (%u capabilities)",
            info.capability_count);
    feature = d3d12xs_missing_capability_feature(impl_from_ID3D12Device(device), &info, &capability);
    CHECK(!feature || (!strcmp(feature, "shaderStorageTexelBufferArrayDynamicIndexing")
            && !strcmp(capability, "StorageTexelBufferArrayDynamicIndexing")));

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 1;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    parameters[1].DescriptorTable.NumDescriptorRanges = 1;
    parameters[1].DescriptorTable.pDescriptorRanges = &range;
    memset(&desc, 0, sizeof(desc));
    desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    desc.Desc_1_1.NumParameters = 2;
    desc.Desc_1_1.pParameters = parameters;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&desc, &blob, NULL), S_OK);
    if (blob) {
        CHECK_HR(ID3D12Device_CreateRootSignature(device, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
                &IID_ID3D12RootSignature, (void **)&signature), S_OK);
        ID3D10Blob_Release(blob);
    }
    if (signature) {
        memset(&pipeline_desc, 0, sizeof(pipeline_desc));
        pipeline_desc.pRootSignature = signature;
        pipeline_desc.CS.pShaderBytecode = ID3D10Blob_GetBufferPointer(code);
        pipeline_desc.CS.BytecodeLength = ID3D10Blob_GetBufferSize(code);
        if (feature) {
            CHECK_HR(ID3D12Device_CreateComputePipelineState(device, &pipeline_desc, &IID_ID3D12PipelineState, (void **)&state),
                    E_NOTIMPL);
            CHECK(!state);
            CHECK_LOG("CreateComputePipelineState", "StorageTexelBufferArrayDynamicIndexing",
                    "shaderStorageTexelBufferArrayDynamicIndexing");
            RELOG_MARK();
        } else {
            CHECK_HR(ID3D12Device_CreateComputePipelineState(device, &pipeline_desc, &IID_ID3D12PipelineState, (void **)&state),
                    S_OK);
        }
        if (state)
            ID3D12PipelineState_Release(state);
        ID3D12RootSignature_Release(signature);
    }
    d3d12xs_shader_info_cleanup(&info);

    /* capabilities that need no feature are never reported */
    memset(&info, 0, sizeof(info));
    info.capabilities = &other;
    info.capability_count = 1;
    CHECK(!d3d12xs_missing_capability_feature(impl_from_ID3D12Device(device), &info, NULL));
    ID3D10Blob_Release(code);
    CHECK_NO_LOG();
}

int main(void)
{
    harness_init();
    test_bad_arguments();
    test_targets();
    test_resources();
    test_runtime_array();
    test_counters_and_defaults();
    test_wave32();
    test_compile_errors();
    test_compiler_crashes();
    test_includes();
    test_preprocessed_rewrites();
    test_bad_bytecode();
    test_remap_descriptors();
    test_remap_push_constants();
    test_remap_push_constants_more();
    test_remap_everything();
    test_hlsl_fixups();
    test_structured_layout();
    ID3D12Device *device = harness_create_device();
    if (device)
        test_capability_features(device);
    harness_release_device(device);
    return harness_finish();
}
