/* shader_runner: runs data-driven shader tests (tests/shaders/NAME.shader_test) through the public
 * D3D12 API: D3DCompile -> serialized root signature -> pipeline -> buffers, views and root
 * arguments -> Dispatch -> readback -> compare. docs/shader-tests.md describes the file format.
 * This file reads the files, splits them into tests and runs each.
 * Usage: shader_runner FILE... (exit 77 when every file is a known bug). */
#include "shader_runner.h"

enum file_result { RESULT_PASS, RESULT_FAIL, RESULT_SKIP };

/* The lines of a file. A file is one test, or (with [test NAME] lines) a common part (the
 * lines before the first [test]) and tests: test k is parsed from the file with the lines
 * of every other test blanked, so line numbers stay the file's. */
struct file_lines {
    char **lines;
    size_t count;
    size_t *test_starts; /* line index of each [test] header */
    size_t test_count;
};

static bool read_lines(const char *path, struct file_lines *f)
{
    FILE *file = fopen(path, "r");
    char *line = NULL;
    size_t capacity = 0, line_capacity = 0, test_capacity = 0;
    ssize_t length;

    memset(f, 0, sizeof(*f));
    if (!file) {
        fprintf(stderr, "shader_runner: cannot open %s: %s\n", path, strerror(errno));
        return false;
    }
    while ((length = getline(&line, &capacity, file)) >= 0) {
        if (f->count == line_capacity) {
            line_capacity = line_capacity * 2 + 64;
            f->lines = xrealloc(f->lines, line_capacity * sizeof(*f->lines));
        }
        if (!strncmp(line, "[test ", 6) || !strncmp(line, "[test]", 6)) {
            if (f->test_count == test_capacity) {
                test_capacity = test_capacity * 2 + 16;
                f->test_starts = xrealloc(f->test_starts, test_capacity * sizeof(*f->test_starts));
            }
            f->test_starts[f->test_count++] = f->count;
        }
        f->lines[f->count++] = xstrdup(line);
    }
    free(line);
    fclose(file);
    return true;
}

static void free_lines(struct file_lines *f)
{
    for (size_t i = 0; i < f->count; i++)
        free(f->lines[i]);
    free(f->lines);
    free(f->test_starts);
}

/* Test `index` of the file as a stream (the whole file when it has no [test]). */
static FILE *test_stream(const struct file_lines *f, size_t index, char **text, size_t *size)
{
    FILE *out = open_memstream(text, size);
    size_t begin = f->test_count ? f->test_starts[index] : 0;
    size_t end = f->test_count && index + 1 < f->test_count ? f->test_starts[index + 1] : f->count;
    size_t prefix_end = f->test_count ? f->test_starts[0] : 0;

    for (size_t i = 0; i < f->count; i++)
        fputs(i < prefix_end || (i >= begin && i < end) ? f->lines[i] : "\n", out);
    fclose(out);
    return fmemopen(*text, *size, "r");
}

/* NULL when the device offers what the test requires, else what it lacks. */
static const char *unmet_requirement(struct runner *r, const struct test *t, char *text, size_t size)
{
    D3D12_FEATURE_DATA_D3D12_OPTIONS options;
    D3D12_FEATURE_DATA_D3D12_OPTIONS1 options1;

    memset(&options, 0, sizeof(options));
    memset(&options1, 0, sizeof(options1));
    ID3D12Device_CheckFeatureSupport(r->device, D3D12_FEATURE_D3D12_OPTIONS, &options, sizeof(options));
    ID3D12Device_CheckFeatureSupport(r->device, D3D12_FEATURE_D3D12_OPTIONS1, &options1, sizeof(options1));
    if (t->need_int64 && !options1.Int64ShaderOps)
        return "int64 (Int64ShaderOps)";
    if (t->need_float64 && !options.DoublePrecisionFloatShaderOps)
        return "float64 (DoublePrecisionFloatShaderOps)";
    if (t->need_logic_op && !options.OutputMergerLogicOp)
        return "logic_op (OutputMergerLogicOp)";
    if (t->need_min_lod_clamp || t->need_derivative_quads || t->need_derivative_linear) {
        D3D12XS_DEVICE_INFO info;
        if (FAILED(D3D12XSGetDeviceInfo(r->device, &info)))
            return "D3D12XSGetDeviceInfo";
        if (t->need_min_lod_clamp && !info.ResourceMinLODClampSupported)
            return "min_lod_clamp (D3D12XS_DEVICE_INFO::ResourceMinLODClampSupported: VK_EXT_image_view_min_lod)";
        if (t->need_derivative_quads && !info.ComputeDerivativeQuadsSupported)
            return "derivative_quads (D3D12XS_DEVICE_INFO::ComputeDerivativeQuadsSupported: compute_shader_derivatives)";
        if (t->need_derivative_linear && !info.ComputeDerivativeLinearSupported)
            return "derivative_linear (D3D12XS_DEVICE_INFO::ComputeDerivativeLinearSupported: compute_shader_derivatives)";
    }
    if ((t->min_lanes && r->lanes < t->min_lanes) || (t->max_lanes && r->lanes > t->max_lanes)) {
        snprintf(text, size, "a wave size in [%u, %u] (the device's is %u)", t->min_lanes, t->max_lanes ? t->max_lanes : ~0u,
                r->lanes);
        return text;
    }
    return NULL;
}

static enum file_result run_file(const char *path, bool run_known_bugs)
{
    struct runner r;
    D3D12_FEATURE_DATA_D3D12_OPTIONS1 options1;
    D3D12XS_DEVICE_INFO info;
    struct file_lines f;
    unsigned passed = 0, failed = 0, skipped = 0;
    size_t tests;

    current_file = path;
    if (!read_lines(path, &f)) {
        FAIL_AT(0, "cannot read the file");
        return RESULT_FAIL;
    }
    tests = f.test_count ? f.test_count : 1;

    memset(&r, 0, sizeof(r));
    r.device = harness_create_device();
    memset(&options1, 0, sizeof(options1));
    CHECK_HR(ID3D12Device_CheckFeatureSupport(r.device, D3D12_FEATURE_D3D12_OPTIONS1, &options1, sizeof(options1)), S_OK);
    r.lanes = options1.WaveLaneCountMin;
    CHECK_MSG(r.lanes >= 4, "WaveLaneCountMin is %u", r.lanes);
    memset(&info, 0, sizeof(info));
    CHECK_HR(D3D12XSGetDeviceInfo(r.device, &info), S_OK);

    for (size_t k = 0; k < tests; k++) {
        struct test *t = xcalloc(1, sizeof(*t));
        char *text = NULL, why[128];
        const char *unmet;
        size_t text_size = 0;
        FILE *stream = test_stream(&f, k, &text, &text_size);

        file_errors = 0;
        for (unsigned i = 0; i < let_count; i++)
            free(lets[i].text);
        let_count = 0; /* each test has its own lets */
        parse_file(t, stream, path);
        fclose(stream);
        free(text);
        if (t->has_known_bug && !run_known_bugs && (!t->known_bug_on_lavapipe || info.IsSoftwareRasterizer)) {
            printf("%s%s%s: SKIPPED: known bug %s\n", current_file, *t->name ? " " : "", t->name, t->known_bug);
            skipped++;
        } else if (!file_errors && (unmet = unmet_requirement(&r, t, why, sizeof(why)))) {
            printf("%s%s%s: SKIPPED: the device lacks %s\n", current_file, *t->name ? " " : "", t->name, unmet);
            skipped++;
        } else {
            if (!file_errors) {
                r.queue = harness_create_queue(r.device, t->queue_type);
                if (r.queue)
                    run_test(&r, t);
                if (r.queue)
                    ID3D12CommandQueue_Release(r.queue);
                r.queue = NULL;
            }
            if (file_errors)
                failed++;
            else
                passed++;
            printf("%s%s%s: %s (wave lanes %u)%s\n", current_file, *t->name ? " " : "", t->name,
                    file_errors ? "FAILED" : "done", r.lanes, t->has_known_bug && (!t->known_bug_on_lavapipe || info.IsSoftwareRasterizer)
                    ? " [known bug, run anyway]" : "");
        }
        free_test(t);
        free(t);
    }
    harness_release_device(r.device);
    free_lines(&f);
    if (tests > 1)
        printf("%s: %u tests passed, %u failed, %u skipped\n", current_file, passed, failed, skipped);
    file_errors = failed;
    return failed ? RESULT_FAIL : passed ? RESULT_PASS : RESULT_SKIP;
}

int main(int argc, char **argv)
{
    unsigned passed = 0, failed = 0, skipped = 0, files = 0;
    bool run_known_bugs = getenv("D3D12XS_RUN_KNOWN_BUGS") && !strcmp(getenv("D3D12XS_RUN_KNOWN_BUGS"), "1");
    int status;

    harness_init();
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--run-known-bugs")) {
            run_known_bugs = true;
            continue;
        }
        files++;
        switch (run_file(argv[i], run_known_bugs)) {
        case RESULT_PASS: passed++; break;
        case RESULT_FAIL: failed++; break;
        case RESULT_SKIP: skipped++; break;
        }
    }
    if (!files) {
        fprintf(stderr, "usage: %s [--run-known-bugs] FILE.shader_test...\n", argv[0]);
        return 2;
    }
    printf("shader files: %u run, %u skipped (known bugs), %u with errors\n", passed + failed, skipped, failed);
    status = harness_finish();
    if (!status && skipped && !passed && !failed)
        return SKIP_EXIT_CODE;
    return status;
}
