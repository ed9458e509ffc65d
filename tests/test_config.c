/* The configuration (src/common/config.h): each variable's rule, fed through the parser's
 * lookup; the process reading its environment once; each device's copy, with what the
 * program asked for (EnableDebugLayer) and D3D12XSSetHangTimeout. Cases that need another
 * environment run in a child process of their own (harness_run_self). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <d3dcompiler.h>

#include "harness.h"
#include "common/blob.h"
#include "common/config.h"
#include "device/device.h"
#include "spirv/spirv.h"

/* ---- the parser, fed by a table ---- */

struct table {
    const char *const *pairs; /* name, value, name, value, ..., NULL */
    unsigned lookups;
};

static const char *table_lookup(const char *name, void *context)
{
    struct table *table = context;
    table->lookups++;
    for (size_t i = 0; table->pairs[i]; i += 2)
        if (!strcmp(table->pairs[i], name))
            return table->pairs[i + 1];
    return NULL;
}

static void parse(const char *const *pairs, struct d3d12xs_config *config, struct d3d12xs_config_warnings *warnings)
{
    struct table table = {pairs, 0};
    d3d12xs_config_parse(table_lookup, &table, config, warnings);
    CHECK(table.lookups >= 11); /* every variable was asked for */
}

static void check_defaults(const struct d3d12xs_config *c, const char *what)
{
    CHECK_MSG(!c->device[0] && c->log_level == D3D12XS_LOG_LEVEL_ERROR && c->debug == D3D12XS_CONFIG_UNSET
            && c->hang_timeout_ms == 20000 && !c->split_lists_every && !c->copy_transfer_only && !c->compute_without_graphics && c->gpu_waits == D3D12_GPU_WAITS_AUTO
            && c->console_validation == D3D12XS_CONFIG_UNSET && c->compile_timeout_ms == 60000 && !c->hlslc[0] && !c->no_vectorize
            && c->exit_teardown == D3D12XS_CONFIG_UNSET,
            "%s: not the defaults (log %d, debug %d, hang %u, split %u, copy %d, gpu waits %d, console %d, compile %lld, vectorize %d)",
            what, c->log_level, c->debug, c->hang_timeout_ms, c->split_lists_every, c->copy_transfer_only, c->gpu_waits,
            c->console_validation, (long long)c->compile_timeout_ms, !c->no_vectorize);
}

static void test_defaults(void)
{
    static const char *const nothing[] = {NULL};
    static const char *const empty[] = {
        "D3D12XS_DEVICE", "", "D3D12XS_LOG", "", "D3D12XS_DEBUG", "", "D3D12XS_HANG_TIMEOUT_MS", "", "D3D12XS_SPLIT_LISTS", "",
        "D3D12XS_COPY_TRANSFER_ONLY", "", "D3D12XS_COMPUTE_WITHOUT_GRAPHICS", "", "D3D12XS_GPU_WAITS", "", "D3D12XS_CONSOLE_VALIDATION", "",
        "D3D12XS_COMPILE_TIMEOUT_MS", "", "D3D12XS_HLSLC", "", "D3D12XS_NO_VECTORIZE", "", "D3D12XS_EXIT_TEARDOWN", "", NULL};
    struct d3d12xs_config config;
    struct d3d12xs_config_warnings warnings;

    parse(nothing, &config, &warnings);
    check_defaults(&config, "nothing set");
    CHECK(warnings.count == 0);
    /* An empty value is the same as unset, for every variable. */
    parse(empty, &config, &warnings);
    check_defaults(&config, "everything empty");
    CHECK(warnings.count == 0);
    /* warnings may be NULL */
    d3d12xs_config_parse(table_lookup, &(struct table){empty, 0}, &config, NULL);
    check_defaults(&config, "no warnings asked for");
}

static void test_values(void)
{
    static const char *const set[] = {
        "D3D12XS_DEVICE", "llvmpipe", "D3D12XS_LOG", "TRACE", "D3D12XS_DEBUG", "1", "D3D12XS_HANG_TIMEOUT_MS", "0",
        "D3D12XS_SPLIT_LISTS", "3", "D3D12XS_COPY_TRANSFER_ONLY", "1", "D3D12XS_COMPUTE_WITHOUT_GRAPHICS", "1", "D3D12XS_GPU_WAITS", "semaphore",
        "D3D12XS_CONSOLE_VALIDATION", "0", "D3D12XS_COMPILE_TIMEOUT_MS", "1500", "D3D12XS_HLSLC", "/opt/hlslc",
        "D3D12XS_NO_VECTORIZE", "1", "D3D12XS_EXIT_TEARDOWN", "0", NULL};
    static const struct {
        const char *value;
        enum d3d12_gpu_wait_mode mode;
    } modes[] = {
        {"auto", D3D12_GPU_WAITS_AUTO}, {"off", D3D12_GPU_WAITS_OFF}, {"0", D3D12_GPU_WAITS_OFF}, {"spin", D3D12_GPU_WAITS_SPIN},
        {"force", D3D12_GPU_WAITS_FORCE}, {"semaphore", D3D12_GPU_WAITS_SEMAPHORE}, {"inline", D3D12_GPU_WAITS_INLINE},
    };
    static const char *const levels[] = {"none", "error", "Warn", "info", "trace"};
    struct d3d12xs_config config;
    struct d3d12xs_config_warnings warnings;

    parse(set, &config, &warnings);
    CHECK(warnings.count == 0);
    CHECK(!strcmp(config.device, "llvmpipe"));
    CHECK(config.log_level == D3D12XS_LOG_LEVEL_TRACE);
    CHECK(config.debug == D3D12XS_CONFIG_ON && d3d12xs_config_validates_spirv(&config));
    CHECK(config.hang_timeout_ms == 0); /* 0 = never */
    CHECK(config.split_lists_every == 3);
    CHECK(config.copy_transfer_only);
    CHECK(config.compute_without_graphics);
    CHECK(config.gpu_waits == D3D12_GPU_WAITS_SEMAPHORE);
    CHECK(config.console_validation == D3D12XS_CONFIG_OFF);
    CHECK(config.compile_timeout_ms == 1500);
    CHECK(!strcmp(config.hlslc, "/opt/hlslc"));
    CHECK(config.no_vectorize);
    CHECK(config.exit_teardown == D3D12XS_CONFIG_OFF);

    for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
        const char *const pairs[] = {"D3D12XS_GPU_WAITS", modes[i].value, NULL};
        parse(pairs, &config, &warnings);
        CHECK_MSG(config.gpu_waits == modes[i].mode && !warnings.count, "D3D12XS_GPU_WAITS=%s", modes[i].value);
    }
    for (int i = 0; i < 5; i++) {
        const char *const pairs[] = {"D3D12XS_LOG", levels[i], NULL};
        parse(pairs, &config, &warnings);
        CHECK_MSG(config.log_level == i - 1 && !warnings.count, "D3D12XS_LOG=%s: level %d", levels[i], config.log_level);
    }
    /* D3D12XS_DEBUG, D3D12XS_CONSOLE_VALIDATION and D3D12XS_NO_VECTORIZE: 0 is off, anything else on. */
    {
        const char *const off[] = {"D3D12XS_DEBUG", "0", "D3D12XS_CONSOLE_VALIDATION", "0", "D3D12XS_NO_VECTORIZE", "0", NULL};
        const char *const on[] = {"D3D12XS_DEBUG", "yes", "D3D12XS_CONSOLE_VALIDATION", "2", "D3D12XS_NO_VECTORIZE", "true", NULL};
        parse(off, &config, &warnings);
        CHECK(config.debug == D3D12XS_CONFIG_OFF && !d3d12xs_config_validates_spirv(&config));
        CHECK(config.console_validation == D3D12XS_CONFIG_OFF && !config.no_vectorize && !warnings.count);
        parse(on, &config, &warnings);
        CHECK(config.debug == D3D12XS_CONFIG_ON && config.console_validation == D3D12XS_CONFIG_ON && config.no_vectorize);
        CHECK(!warnings.count);
    }
    /* The largest values each rule takes. */
    {
        const char *const largest[] = {"D3D12XS_HANG_TIMEOUT_MS", "4294967295", "D3D12XS_SPLIT_LISTS", "999999",
            "D3D12XS_COPY_TRANSFER_ONLY", "0", NULL};
        parse(largest, &config, &warnings);
        CHECK(config.hang_timeout_ms == 4294967295u && config.split_lists_every == 999999 && !config.copy_transfer_only);
        CHECK(!warnings.count);
    }
}

/* A refused value keeps the default and owes exactly one line, naming the variable and what it takes. */
static void check_refused(const char *name, const char *value, const char *accepted)
{
    const char *const pairs[] = {name, value, NULL};
    struct d3d12xs_config config;
    struct d3d12xs_config_warnings warnings;

    parse(pairs, &config, &warnings);
    CHECK_MSG(warnings.count == 1, "%s=%s: %u warnings", name, value, warnings.count);
    if (warnings.count == 1)
        CHECK_MSG(strstr(warnings.lines[0], name) && strstr(warnings.lines[0], value) && strstr(warnings.lines[0], accepted),
                "%s=%s: warning '%s' should name the variable, the value and '%s'", name, value, warnings.lines[0], accepted);
    check_defaults(&config, name);
}

static void test_refusals(void)
{
    struct d3d12xs_config config;
    struct d3d12xs_config_warnings warnings;
    const char *const all_bad[] = {"D3D12XS_LOG", "loud", "D3D12XS_HANG_TIMEOUT_MS", "5s", "D3D12XS_SPLIT_LISTS", "-1",
        "D3D12XS_COPY_TRANSFER_ONLY", "yes", "D3D12XS_GPU_WAITS", "sometimes", "D3D12XS_COMPILE_TIMEOUT_MS", "0", NULL};

    check_refused("D3D12XS_LOG", "loud", "none, error, warn, info or trace");
    check_refused("D3D12XS_HANG_TIMEOUT_MS", "5s", "milliseconds");
    check_refused("D3D12XS_HANG_TIMEOUT_MS", "4294967296", "milliseconds");
    check_refused("D3D12XS_SPLIT_LISTS", "-1", "from 1 to 999999");
    check_refused("D3D12XS_SPLIT_LISTS", "1000000", "from 1 to 999999");
    check_refused("D3D12XS_SPLIT_LISTS", "2x", "from 1 to 999999");
    check_refused("D3D12XS_COPY_TRANSFER_ONLY", "yes", "1 or 0");
    check_refused("D3D12XS_COMPUTE_WITHOUT_GRAPHICS", "2", "1 or 0");
    check_refused("D3D12XS_GPU_WAITS", "sometimes", "auto, spin, off, force, semaphore or inline");
    check_refused("D3D12XS_COMPILE_TIMEOUT_MS", "0", "above 0");
    check_refused("D3D12XS_COMPILE_TIMEOUT_MS", "ten", "above 0");

    /* One line per refused variable, in one parse. */
    parse(all_bad, &config, &warnings);
    CHECK_MSG(warnings.count == 6, "%u warnings for 6 refused values", warnings.count);
    check_defaults(&config, "all refused");
}

/* ---- the process configuration ---- */

static void test_read_once(void)
{
    const struct d3d12xs_config *first = d3d12xs_config();
    const char *previous = getenv("D3D12XS_SPLIT_LISTS");
    char *saved = previous ? strdup(previous) : NULL;
    uint32_t split = first->split_lists_every;
    ID3D12Device *device;

    CHECK(d3d12xs_config() == first);
    /* The environment as it was at the first read: a later change is not seen. */
    setenv("D3D12XS_SPLIT_LISTS", split == 7 ? "8" : "7", 1);
    CHECK(d3d12xs_config()->split_lists_every == split);
    device = harness_create_device();
    CHECK(impl_from_ID3D12Device(device)->config.split_lists_every == split);
    harness_release_device(device);
    if (saved)
        setenv("D3D12XS_SPLIT_LISTS", saved, 1), free(saved);
    else
        unsetenv("D3D12XS_SPLIT_LISTS");
}

/* ---- children: other environments ---- */

static unsigned gpu_waits_warnings, other_warnings;

static void count_warnings(D3D12XS_LOG_LEVEL level, const char *line, void *user)
{
    (void)user;
    if (level == D3D12XS_LOG_LEVEL_WARN && strstr(line, "D3D12XS_GPU_WAITS") && strstr(line, "sometimes"))
        gpu_waits_warnings++;
    else if (level <= D3D12XS_LOG_LEVEL_WARN)
        other_warnings++;
}

/* D3D12XS_GPU_WAITS=sometimes: one warning for the process, however often it is read. */
static void child_bad_value(void)
{
    ID3D12Device *device, *second;

    D3D12XSSetLogCallback(count_warnings, NULL);
    d3d12xs_config();
    d3d12xs_config();
    device = harness_create_device();
    second = harness_create_device();
    D3D12XSSetLogCallback(NULL, NULL);
    harness_init();
    CHECK_MSG(gpu_waits_warnings == 1, "%u warnings about D3D12XS_GPU_WAITS=sometimes", gpu_waits_warnings);
    CHECK_MSG(other_warnings == 0, "%u other warnings or errors", other_warnings);
    CHECK(impl_from_ID3D12Device(device)->config.gpu_waits == D3D12_GPU_WAITS_AUTO);
    CHECK(impl_from_ID3D12Device(device)->gpu_wait_mode == D3D12_GPU_WAITS_AUTO);
    harness_release_device(second);
    harness_release_device(device);
}

/* A compute shader whose SPIR-V names an id that nothing defines: the SPIR-V validator refuses it
 * ("has not been defined"), while reflection and remapping pass it through. */
static ID3D10Blob *invalid_shader(void)
{
    static const char source[] = "RWByteAddressBuffer output : register(u0);\n"
                                 "[numthreads(1, 1, 1)] void main() { output.Store(0, 1); }\n";
    ID3D10Blob *code = NULL, *errors = NULL, *invalid = NULL;
    uint32_t *words, *out;
    size_t count, at = 5;

    CHECK_HR(D3DCompile(source, strlen(source), "invalid.hlsl", NULL, NULL, "main", "cs_6_0", 0, 0, &code, &errors), S_OK);
    if (errors)
        ID3D10Blob_Release(errors);
    if (!code)
        return NULL;
    words = ID3D10Blob_GetBufferPointer(code);
    count = ID3D10Blob_GetBufferSize(code) / 4;
    /* Before the first OpModuleProcessed (d3d12xs's markers), annotation or type: where OpName goes. */
    while (at < count) {
        uint32_t op = words[at] & 0xffff;
        if (op == 330 /* OpModuleProcessed */ || op == 71 /* OpDecorate */ || op == 72 /* OpMemberDecorate */
                || (op >= 19 && op <= 39) /* types */)
            break;
        at += words[at] >> 16;
    }
    CHECK(at < count);
    if ((out = malloc((count + 3) * 4))) {
        memcpy(out, words, at * 4);
        out[3] = words[3] + 1;                    /* the bound grows by the undefined id */
        out[at] = (3u << 16) | 5 /* OpName */;
        out[at + 1] = words[3];
        out[at + 2] = 'x';                        /* "x", NUL-terminated */
        memcpy(out + at + 3, words + at, (count - at) * 4);
        CHECK_HR(d3d12xs_blob_create(out, (count + 3) * 4, &invalid), S_OK);
        free(out);
    }
    ID3D10Blob_Release(code);
    return invalid;
}

static ID3D12RootSignature *uav_root_signature(ID3D12Device *device)
{
    D3D12_ROOT_PARAMETER1 parameter = {.ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV};
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc = {.Version = D3D_ROOT_SIGNATURE_VERSION_1_1};
    ID3DBlob *blob = NULL;
    ID3D12RootSignature *signature = NULL;

    desc.Desc_1_1.NumParameters = 1;
    desc.Desc_1_1.pParameters = &parameter;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&desc, &blob, NULL), S_OK);
    if (!blob)
        return NULL;
    CHECK_HR(ID3D12Device_CreateRootSignature(device, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
            &IID_ID3D12RootSignature, (void **)&signature), S_OK);
    ID3D10Blob_Release(blob);
    return signature;
}

static bool validation_layer_on(ID3D12Device *device)
{
    D3D12XS_DEVICE_INFO info;
    CHECK_HR(D3D12XSGetDeviceInfo(device, &info), S_OK);
    return info.ValidationLayerEnabled;
}

static bool khronos_layer_installed(void)
{
    VkLayerProperties layers[64];
    uint32_t count = 64;
    if (vkEnumerateInstanceLayerProperties(&count, layers) < 0)
        return false;
    for (uint32_t i = 0; i < count; i++)
        if (!strcmp(layers[i].layerName, "VK_LAYER_KHRONOS_validation"))
            return true;
    return false;
}

static void enable_debug_layer(void)
{
    ID3D12Debug *debug = NULL;
    CHECK_HR(D3D12GetDebugInterface(&IID_ID3D12Debug, (void **)&debug), S_OK);
    if (debug) {
        ID3D12Debug_EnableDebugLayer(debug);
        ID3D12Debug_Release(debug);
    }
}

/* D3D12XS_DEBUG unset, D3D12XS_HANG_TIMEOUT_MS=1234: the program's EnableDebugLayer decides, for
 * devices made afterwards, and pipeline creation's SPIR-V validation follows it. */
static void child_debug_layer(void)
{
    D3D12_COMPUTE_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *state = (ID3D12PipelineState *)(uintptr_t)1;
    ID3D12RootSignature *signature;
    ID3D12Device *before, *after;
    ID3D10Blob *invalid = invalid_shader();
    struct d3d12_device *impl;
    char error[512];
    LOG_MARK();

    before = harness_create_device();
    impl = impl_from_ID3D12Device(before);
    CHECK(d3d12xs_config()->debug == D3D12XS_CONFIG_UNSET);
    CHECK(impl->config.debug == D3D12XS_CONFIG_UNSET && !d3d12xs_config_validates_spirv(&impl->config));
    CHECK(!impl->validation_enabled && !validation_layer_on(before));
    /* without the layer, console validation is off by default */
    CHECK(!impl->console_validation);
    /* the hang timeout: the environment's, then the program's */
    CHECK(impl->config.hang_timeout_ms == 1234 && atomic_load(&impl->hang_timeout_ms) == 1234);
    CHECK_HR(D3D12XSSetHangTimeout(before, 50), S_OK);
    CHECK(atomic_load(&impl->hang_timeout_ms) == 50);

    enable_debug_layer();
    /* The process configuration (D3DCompile's) is the environment's alone. */
    CHECK(d3d12xs_config()->debug == D3D12XS_CONFIG_UNSET);
    /* A device made before keeps its configuration. */
    CHECK(impl->config.debug == D3D12XS_CONFIG_UNSET);

    after = harness_create_device();
    impl = impl_from_ID3D12Device(after);
    CHECK(impl->config.debug == D3D12XS_CONFIG_ON && d3d12xs_config_validates_spirv(&impl->config));
    /* The Khronos layer comes on where it is installed (CI installs it; the GPU machine has
     * none, and the device then says so with a warning); console validation follows it. */
    bool installed = khronos_layer_installed();
    CHECK_MSG(impl->validation_enabled == installed && validation_layer_on(after) == installed,
            "validation layer on: %d, installed: %d", (int)impl->validation_enabled, (int)installed);
    CHECK((impl->console_validation != NULL) == installed);
    CHECK(atomic_load(&impl->hang_timeout_ms) == 1234); /* SetHangTimeout was the other device's */

    /* The shader validation follows EnableDebugLayer: the module is refused before Vulkan sees it. */
    CHECK_MSG(invalid && d3d12xs_spirv_validate(ID3D10Blob_GetBufferPointer(invalid), ID3D10Blob_GetBufferSize(invalid) / 4, true,
            error, sizeof(error)) == E_FAIL && strstr(error, "not been defined"),
            "the crafted module should be invalid SPIR-V: %s", error);
    signature = uav_root_signature(after);
    if (invalid && signature) {
        memset(&desc, 0, sizeof(desc));
        desc.pRootSignature = signature;
        desc.CS.pShaderBytecode = ID3D10Blob_GetBufferPointer(invalid);
        desc.CS.BytecodeLength = ID3D10Blob_GetBufferSize(invalid);
        RELOG_MARK();
        CHECK_HR(ID3D12Device_CreateComputePipelineState(after, &desc, &IID_ID3D12PipelineState, (void **)&state), E_INVALIDARG);
        CHECK_LOG("CreateComputePipelineState", "SPIR-V validation failed", "not been defined");
        RELOG_MARK();
        CHECK(state == NULL);
        ID3D12RootSignature_Release(signature);
    }
    if (invalid)
        ID3D10Blob_Release(invalid);
    CHECK(D3D12XSGetValidationMessageCount(after) == 0);
    harness_release_device(after);
    harness_release_device(before);
    CHECK_NO_LOG();
}

/* D3D12XS_DEBUG=0: off even though the program asks. */
static void child_debug_off(void)
{
    ID3D12Device *device;
    struct d3d12_device *impl;

    enable_debug_layer();
    device = harness_create_device();
    impl = impl_from_ID3D12Device(device);
    CHECK(impl->config.debug == D3D12XS_CONFIG_OFF && !d3d12xs_config_validates_spirv(&impl->config));
    CHECK(!impl->validation_enabled && !validation_layer_on(device));
    CHECK(!impl->console_validation);
    harness_release_device(device);
}

int main(int argc, char **argv)
{
    static const char *const bad_value[] = {"D3D12XS_GPU_WAITS=sometimes", NULL};
    static const char *const debug_unset[] = {"D3D12XS_DEBUG", "D3D12XS_CONSOLE_VALIDATION", "D3D12XS_HANG_TIMEOUT_MS=1234", NULL};
    static const char *const debug_off[] = {"D3D12XS_DEBUG=0", "D3D12XS_CONSOLE_VALIDATION", NULL};

    harness_init();
    if (argc > 1) {
        if (!strcmp(argv[1], "bad_value"))
            child_bad_value();
        else if (!strcmp(argv[1], "debug_layer"))
            child_debug_layer();
        else if (!strcmp(argv[1], "debug_off"))
            child_debug_off();
        else
            CHECK_MSG(false, "unknown case %s", argv[1]);
        return harness_finish();
    }
    test_defaults();
    test_values();
    test_refusals();
    test_read_once();
    CHECK_MSG(harness_run_self("bad_value", bad_value), "the D3D12XS_GPU_WAITS=sometimes case failed (its lines above say why)");
    CHECK_MSG(harness_run_self("debug_layer", debug_unset), "the EnableDebugLayer case failed (its lines above say why)");
    CHECK_MSG(harness_run_self("debug_off", debug_off), "the D3D12XS_DEBUG=0 case failed (its lines above say why)");
    return harness_finish();
}
