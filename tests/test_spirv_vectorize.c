/* D3DCompile's 16-byte ByteAddressBuffer accesses (src/spirv/spirv_vectorize.c): which
 * Load4 / Store4 become one uvec4 access and which stay four 32-bit ones, the uvec4 view's
 * variable (same binding, ArrayStride 16, reported as the binding's alias, remapped with it,
 * Aliased where the buffer is still accessed by words), and D3D12XS_NO_VECTORIZE. What the
 * shaders compute is checked on the device by tests/shaders/raw_load4_store4.shader_test. */
#define SPV_ENABLE_UTILITY_CODE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include <d3dcompiler.h>

#include "harness.h"
#include "spirv/spirv.h"
#include "spirv/spirv_passes.h"

/* the header's inline definition gets its external one here (C99 6.7.4) */
extern void SpvHasResultAndType(SpvOp opcode, bool *hasResult, bool *hasResultType);

static ID3DBlob *compile(const char *source)
{
    ID3DBlob *code = NULL, *errors = NULL;
    HRESULT hr = D3DCompile(source, strlen(source), "test.hlsl", NULL, NULL, "main", "cs_6_0", 0, 0, &code, &errors);
    CHECK_MSG(hr == S_OK && code, "D3DCompile returned 0x%08x: %s", (unsigned)hr,
            errors ? (const char *)ID3D10Blob_GetBufferPointer(errors) : "(no message)");
    if (errors)
        ID3D10Blob_Release(errors);
    return code;
}

struct counts {
    unsigned vector_loads, vector_stores, scalar_loads, scalar_stores; /* of Uniform / StorageBuffer memory */
    unsigned views;           /* runtime arrays of 4 x 32-bit with ArrayStride 16 */
    unsigned aliased;         /* variables decorated Aliased */
};

static struct counts count_module(const uint32_t *w, size_t count)
{
    uint32_t bound = w[3], *type_of = calloc(bound, sizeof(*type_of)), *stride = calloc(bound, sizeof(*stride));
    uint8_t *vec4 = calloc(bound, 1), *int32 = calloc(bound, 1), *buffer_pointer = calloc(bound, 1);
    struct counts c;

    memset(&c, 0, sizeof(c));
    if (!type_of || !stride || !vec4 || !int32 || !buffer_pointer) {
        CHECK_MSG(false, "out of memory");
        goto done;
    }
    for (size_t o = 5; o < count && (w[o] >> 16); o += w[o] >> 16) {
        uint32_t op = w[o] & 0xffff, n = w[o] >> 16;
        bool has_result, has_type;
        if (op == SpvOpDecorate && n >= 4 && w[o + 2] == SpvDecorationArrayStride && w[o + 1] < bound)
            stride[w[o + 1]] = w[o + 3];
        if (op == SpvOpDecorate && n >= 3 && w[o + 2] == SpvDecorationAliased)
            c.aliased++;
        if (op == SpvOpTypeInt && n >= 3 && w[o + 2] == 32 && w[o + 1] < bound)
            int32[w[o + 1]] = 1;
        if (op == SpvOpTypeVector && n >= 4 && w[o + 1] < bound && w[o + 2] < bound && int32[w[o + 2]] && w[o + 3] == 4)
            vec4[w[o + 1]] = 1;
        if (op == SpvOpTypeRuntimeArray && n >= 3 && w[o + 2] < bound && vec4[w[o + 2]] && stride[w[o + 1]] == 16)
            c.views++;
        if (op == SpvOpTypePointer && n >= 4 && w[o + 1] < bound
                && (w[o + 2] == SpvStorageClassUniform || w[o + 2] == SpvStorageClassStorageBuffer))
            buffer_pointer[w[o + 1]] = 1;
        SpvHasResultAndType((SpvOp)op, &has_result, &has_type);
        if (has_result && has_type && n >= 3 && w[o + 2] < bound)
            type_of[w[o + 2]] = w[o + 1];
        if (op == SpvOpLoad && n >= 4 && w[o + 1] < bound && w[o + 3] < bound && buffer_pointer[type_of[w[o + 3]]]) {
            c.vector_loads += vec4[w[o + 1]];
            c.scalar_loads += int32[w[o + 1]];
        }
        if (op == SpvOpStore && n >= 3 && w[o + 1] < bound && w[o + 2] < bound && buffer_pointer[type_of[w[o + 1]]]) {
            c.vector_stores += vec4[type_of[w[o + 2]]];
            c.scalar_stores += int32[type_of[w[o + 2]]];
        }
    }
done:
    free(type_of);
    free(stride);
    free(vec4);
    free(int32);
    free(buffer_pointer);
    return c;
}

static struct counts count_blob(ID3DBlob *blob)
{
    struct counts c;
    memset(&c, 0, sizeof(c));
    if (blob)
        c = count_module(ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob) / 4);
    return c;
}

#define PROLOGUE \
    "cbuffer C : register(b0) { uint base; };\n" \
    "ByteAddressBuffer input : register(t0);\n" \
    "RWByteAddressBuffer output : register(u0);\n" \
    "[numthreads(8, 1, 1)]\n" \
    "void main(uint3 id : SV_DispatchThreadID)\n"

struct expectation {
    const char *name, *body;
    unsigned vector_loads, vector_stores, scalar_stores;
};

static void test_which_merge(void)
{
    static const struct expectation cases[] = {
        {"aligned copy", "{ output.Store4(id.x * 16, input.Load4(id.x * 16)); }", 1, 1, 0},
        {"aligned, constant offset", "{ output.Store4(id.x * 32 + 16, input.Load4(id.x * 64 + 48)); }", 1, 1, 0},
        {"shifted index", "{ output.Store4(id.x << 4, input.Load4((id.x << 5) + 32)); }", 1, 1, 0},
        {"masked constant", "{ uint a = (base & ~15u) + id.x * 16; output.Store4(a, input.Load4(a)); }", 1, 1, 0},
        {"4-byte aligned", "{ output.Store4(id.x * 16 + 8, input.Load4(id.x * 16 + 4)); }", 0, 0, 4},
        {"8-byte aligned", "{ output.Store4(id.x * 8, input.Load4(id.x * 8)); }", 0, 0, 4},
        {"address from a constant", "{ output.Store4(base + id.x * 16, input.Load4(base + id.x * 16)); }", 0, 0, 4},
        {"computed values", "{ output.Store4(id.x * 16, uint4(id.x, 2, 3, id.x * 5)); }", 0, 1, 0},
        /* loads of the writable buffer interleaved with stores to it: neither side may move */
        {"RW to RW, interleaved", "{ output.Store4(id.x * 16, output.Load4(id.x * 16 + 256)); }", 0, 0, 4},
        /* a barrier between the loads of two Load2 keeps them apart */
        {"Load2 + barrier + Load2",
                "{ uint2 a = output.Load2(id.x * 16); DeviceMemoryBarrier(); uint2 b = output.Load2(id.x * 16 + 8);"
                " output.Store(512 + id.x * 4, a.x + a.y + b.x + b.y); }", 0, 0, 1},
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char source[1024];
        ID3DBlob *blob;
        struct counts c;
        snprintf(source, sizeof(source), PROLOGUE "%s\n", cases[i].body);
        blob = compile(source);
        c = count_blob(blob);
        CHECK_MSG(c.vector_loads == cases[i].vector_loads && c.vector_stores == cases[i].vector_stores
                && c.scalar_stores == cases[i].scalar_stores,
                "%s: %u 16-byte loads, %u 16-byte stores, %u word stores; expected %u, %u, %u", cases[i].name, c.vector_loads,
                c.vector_stores, c.scalar_stores, cases[i].vector_loads, cases[i].vector_stores, cases[i].scalar_stores);
        if (blob)
            ID3D10Blob_Release(blob);
    }
}

static void test_view_variable(void)
{
    /* the output keeps a word access (Store at 256 + ...) next to the 16-byte store: Aliased */
    static const char source[] = PROLOGUE
            "{ output.Store4(id.x * 16, input.Load4(id.x * 16)); output.Store(512 + id.x * 4, id.x); }\n";
    struct d3d12xs_binding_target targets[3];
    struct d3d12xs_shader_info info;
    uint32_t *words = NULL, srv_alias = 0, uav_alias = 0;
    size_t count = 0;
    char error[512];
    ID3DBlob *blob = compile(source);
    struct counts c = count_blob(blob);
    HRESULT hr;

    if (!blob)
        return;
    CHECK_MSG(c.vector_loads == 1 && c.vector_stores == 1 && c.scalar_stores == 1 && c.views == 2,
            "%u / %u 16-byte loads / stores, %u word stores, %u views", c.vector_loads, c.vector_stores, c.scalar_stores, c.views);
    /* the output buffer's two views are Aliased, the read-only input's are not */
    CHECK_MSG(c.aliased == 2, "%u Aliased decorations", c.aliased);

    hr = d3d12xs_spirv_reflect(ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob), &info, error, sizeof(error));
    CHECK_MSG(hr == S_OK, "reflect: 0x%08x %s", (unsigned)hr, error);
    if (FAILED(hr)) {
        ID3D10Blob_Release(blob);
        return;
    }
    CHECK(info.binding_count == 2); /* the cbuffer is unused */
    for (uint32_t i = 0; i < info.binding_count; i++) {
        const struct d3d12xs_shader_binding *b = &info.bindings[i];
        if (b->register_class == D3D12XS_REGISTER_SRV)
            srv_alias = b->alias_variable_id;
        else if (b->register_class == D3D12XS_REGISTER_UAV)
            uav_alias = b->alias_variable_id;
        else
            CHECK(!b->alias_variable_id);
        targets[i] = (struct d3d12xs_binding_target){false, 0, 3, 10 + i};
    }
    CHECK(srv_alias && uav_alias);

    hr = d3d12xs_spirv_remap(ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob), &info, targets, &words, &count,
            error, sizeof(error));
    CHECK_MSG(hr == S_OK, "remap: 0x%08x %s", (unsigned)hr, error);
    if (SUCCEEDED(hr)) {
        struct d3d12xs_shader_info moved;
        CHECK_MSG(d3d12xs_spirv_validate(words, count, true, error, sizeof(error)) == S_OK, "%s", error);
        /* every variable of the module, views included, is in set 3 now: no binding keeps D3DCompile's encoding */
        for (size_t o = 5; o < count && (words[o] >> 16); o += words[o] >> 16)
            if ((words[o] & 0xffff) == SpvOpDecorate && (words[o] >> 16) >= 4 && words[o + 2] == SpvDecorationDescriptorSet)
                CHECK_MSG(words[o + 3] == 3, "variable %u left in set %u", words[o + 1], words[o + 3]);
        hr = d3d12xs_spirv_reflect(words, count * 4, &moved, error, sizeof(error));
        /* reflection of the remapped module sees set 3 / binding 10 + i, which it reads as registers: only
         * check that the views are still paired with their buffers */
        if (SUCCEEDED(hr)) {
            unsigned aliases = 0;
            for (uint32_t i = 0; i < moved.binding_count; i++)
                aliases += moved.bindings[i].alias_variable_id != 0;
            CHECK(aliases == 2);
            d3d12xs_shader_info_cleanup(&moved);
        }
        free(words);
    }
    d3d12xs_shader_info_cleanup(&info);
    ID3D10Blob_Release(blob);
}

/* The (buffer, uvec4 view) pairs of a parsed module, as pipeline creation finds them. */
static uint32_t view_pairs(struct d3d12xs_spirv_module *m, uint32_t *variables, uint32_t *aliases, uint32_t max)
{
    struct d3d12xs_shader_info info;
    uint32_t count = 0;
    char error[512];
    HRESULT hr = d3d12xs_spirv_reflect_module(m, &info, error, sizeof(error));

    CHECK_MSG(hr == S_OK, "reflect: 0x%08x %s", (unsigned)hr, error);
    if (FAILED(hr))
        return 0;
    for (uint32_t i = 0; i < info.binding_count; i++) {
        if (info.bindings[i].alias_variable_id && count < max) {
            variables[count] = info.bindings[i].variable_id;
            aliases[count++] = info.bindings[i].alias_variable_id;
        }
    }
    d3d12xs_shader_info_cleanup(&info);
    return count;
}

static unsigned count_nonuniform(const uint32_t *w, size_t count)
{
    unsigned n = 0;
    for (size_t o = 5; o < count && (w[o] >> 16); o += w[o] >> 16)
        n += (w[o] & 0xffff) == SpvOpDecorate && (w[o] >> 16) >= 3 && w[o + 2] == SpvDecorationNonUniform;
    return n;
}

/* Marks the vector index and the result of the first access chain into view NonUniform, as the
 * merge of a NonUniformResourceIndex address would. */
static void mark_nonuniform(struct d3d12xs_spirv_module *m, uint32_t view)
{
    struct d3d12xs_spirv_inst *inst;
    d3d12xs_spirv_add_capability(m, SpvCapabilityShaderNonUniform);
    if (m->version < 0x10500)
        d3d12xs_spirv_add_extension(m, "SPV_EXT_descriptor_indexing");
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_FUNCTIONS, i, inst)) {
        if (d3d12xs_spirv_op(inst) == SpvOpAccessChain && d3d12xs_spirv_len(inst) == 6 && inst->w[3] == view) {
            uint32_t index[3] = {SpvOpDecorate, inst->w[5], SpvDecorationNonUniform};
            uint32_t chain[3] = {SpvOpDecorate, inst->w[2], SpvDecorationNonUniform};
            d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, index, 3);
            d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, chain, 3);
            return;
        }
    }
    CHECK_MSG(false, "no access chain into view %u", view);
}

/* spirv_scalarize.c undoes the merges: every uvec4 access becomes four word accesses, the views go. */
static void test_scalarize(void)
{
    /* two 16-byte loads (one copied, one used component-wise) and two 16-byte stores (the copy, computed
     * values); the word store keeps the output's word variable in use next to its view */
    static const char source[] = PROLOGUE
            "{ output.Store4(id.x * 16, input.Load4(id.x * 16));\n"
            "  uint4 v = input.Load4(id.x * 16 + 256);\n"
            "  output.Store(1024 + id.x * 4, v.x + v.y * v.z - v.w);\n"
            "  output.Store4(2048 + id.x * 16, v * 3); }\n";
    struct d3d12xs_spirv_scalarize_args args;
    struct d3d12xs_spirv_module *m = NULL;
    uint32_t variables[4], aliases[4], *words = NULL;
    size_t count = 0;
    char error[512] = "";
    ID3DBlob *blob = compile(source);
    struct counts c = count_blob(blob);
    unsigned nonuniform;
    HRESULT hr;

    if (!blob)
        return;
    CHECK_MSG(c.vector_loads == 2 && c.vector_stores == 2 && c.scalar_loads == 0 && c.scalar_stores == 1 && c.views == 2,
            "before: %u / %u 16-byte loads / stores, %u / %u word loads / stores, %u views", c.vector_loads, c.vector_stores,
            c.scalar_loads, c.scalar_stores, c.views);
    nonuniform = count_nonuniform(ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob) / 4);
    hr = d3d12xs_spirv_module_parse(ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob), &m, error, sizeof(error));
    CHECK_MSG(hr == S_OK, "parse: 0x%08x %s", (unsigned)hr, error);
    if (SUCCEEDED(hr)) {
        args.variables = variables;
        args.aliases = aliases;
        args.count = view_pairs(m, variables, aliases, 4);
        CHECK_MSG(args.count == 2, "%u views reflected", args.count);
        if (args.count)
            mark_nonuniform(m, aliases[0]);
        hr = d3d12xs_spirv_pass_scalarize(m, &args, error, sizeof(error));
        CHECK_MSG(hr == S_OK, "scalarize: 0x%08x %s", (unsigned)hr, error);
        if (SUCCEEDED(hr))
            CHECK_HR(d3d12xs_spirv_module_emit(m, &words, &count), S_OK);
        d3d12xs_spirv_module_destroy(m);
    }
    if (words) {
        CHECK_MSG(d3d12xs_spirv_validate(words, count, true, error, sizeof(error)) == S_OK, "%s", error);
        c = count_module(words, count);
        CHECK_MSG(!c.vector_loads && !c.vector_stores && c.scalar_loads == 8 && c.scalar_stores == 9 && !c.views,
                "after: %u / %u 16-byte loads / stores, %u / %u word loads / stores, %u views", c.vector_loads,
                c.vector_stores, c.scalar_loads, c.scalar_stores, c.views);
        /* the marked index keeps its NonUniform and gives it to the four word indexes, the marked chain
         * (gone) to its four word chains */
        CHECK_MSG(count_nonuniform(words, count) == nonuniform + 9, "%u NonUniform decorations, %u before marking",
                count_nonuniform(words, count), nonuniform);
        free(words);
    }

    /* a use of a view other than a vector's load or store is refused, naming it */
    if (SUCCEEDED(d3d12xs_spirv_module_parse(ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob), &m, NULL, 0))) {
        struct d3d12xs_spirv_list *functions = &m->sections[D3D12XS_SPIRV_FUNCTIONS];
        args.count = view_pairs(m, variables, aliases, 4);
        for (size_t i = 0; i < functions->count && args.count; i++) {
            if (d3d12xs_spirv_op(functions->at[i]) == SpvOpLoad) {
                uint32_t length[5] = {SpvOpArrayLength, d3d12xs_spirv_type_int(m, 32, 0), d3d12xs_spirv_new_id(m), aliases[0], 0};
                d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, i, length, 5);
                break;
            }
        }
        hr = d3d12xs_spirv_pass_scalarize(m, &args, error, sizeof(error));
        CHECK_MSG(hr == E_INVALIDARG && strstr(error, "opcode 68"), "OpArrayLength of a view: 0x%08x %s", (unsigned)hr, error);
        d3d12xs_spirv_module_destroy(m);
    }
    ID3D10Blob_Release(blob);
}

static void test_turned_off(void)
{
    static const char source[] = PROLOGUE "{ output.Store4(id.x * 16, input.Load4(id.x * 16)); }\n";
    ID3DBlob *blob;
    struct counts c;

    blob = compile(source); /* in a process started with D3D12XS_NO_VECTORIZE=1 (main) */
    c = count_blob(blob);
    CHECK_MSG(!c.vector_loads && !c.vector_stores && c.scalar_loads == 4 && c.scalar_stores == 4 && !c.views,
            "D3D12XS_NO_VECTORIZE=1: %u / %u 16-byte loads / stores, %u / %u word loads / stores, %u views", c.vector_loads,
            c.vector_stores, c.scalar_loads, c.scalar_stores, c.views);
    if (blob)
        ID3D10Blob_Release(blob);
}

static void test_malformed(void)
{
    uint32_t header[5] = {SpvMagicNumber, 0x10300, 0, 10, 0}, bad[7] = {SpvMagicNumber, 0x10300, 0, 10, 0, (5u << 16) | 1, 0};
    uint32_t *out = NULL;
    size_t count = 0;
    unsigned loads = 1, stores = 1;

    CHECK_HR(d3d12xs_spirv_vectorize_raw(header, 4, &out, &count, &loads, &stores), E_INVALIDARG);
    CHECK_HR(d3d12xs_spirv_vectorize_raw(bad, 7, &out, &count, &loads, &stores), E_INVALIDARG);
    CHECK(!out && !count && !loads && !stores);
    CHECK_HR(d3d12xs_spirv_vectorize_raw(header, 5, &out, &count, &loads, &stores), S_OK);
    CHECK(out && count == 5 && !memcmp(out, header, sizeof(header)));
    free(out);
}

int main(int argc, char **argv)
{
    static const char *const no_vectorize[] = {"D3D12XS_NO_VECTORIZE=1", NULL};

    harness_init();
    /* D3DCompile reads D3D12XS_NO_VECTORIZE once per process: this case runs in a process of its own. */
    if (argc > 1 && !strcmp(argv[1], "turned_off")) {
        test_turned_off();
        return harness_finish();
    }
    test_which_merge();
    test_view_variable();
    test_scalarize();
    CHECK_MSG(harness_run_self("turned_off", no_vectorize), "the D3D12XS_NO_VECTORIZE=1 case failed (its lines above say why)");
    test_malformed();
    return harness_finish();
}
