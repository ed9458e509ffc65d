/* bench_draw's graphics pipeline creation figures (included by bench_draw.c): the CPU figures'
 * pipeline (VS + PS, one RGBA8 target, the input layout of one float2, root constant + table),
 * created and released.
 *
 *   new_hlsl    d3d12xs: D3DCompile's blobs (vs_6_0, ps_6_0), new bytes in both stages at every
 *               creation (another AND mask in the VS, another green in the PS), compiled beforehand
 *   new_dxbc    the same shaders as DXBC from tests/dxbc_writer.c, new bytes at every creation
 *               (d3d12xs and vkd3d)
 *   new_dxbc_draw  the same, with SetPipelineState + DrawInstanced of the new pipeline recorded in
 *               the timing (into a list set up beforehand): vkd3d 1.2 makes a graphics pipeline's
 *               VkPipeline at its first draw, d3d12xs at creation
 *   identical   CPU time of a creation while a pipeline of the same description (DXBC on both D3D12
 *               sides) is alive, in batches of 20: d3d12xs finds the live one
 *   first       the first pipeline of a fresh process (this program started again with an argument,
 *               the two stages on its standard input), from HLSL and from DXBC
 *
 * Raw Vulkan: vkCreateShaderModule x 2 + vkCreateGraphicsPipelines of the same state from shaderc's
 * SPIR-V of the GLSL twin (new bytes each; the same bytes with a twin alive; a fresh process's
 * first), its layout made beforehand; then everything destroyed. */
#ifndef BENCH_DRAW_CREATE_H
#define BENCH_DRAW_CREATE_H

enum create_figure { CREATE_NEW_HLSL, CREATE_NEW_DXBC, CREATE_NEW_DXBC_DRAW, CREATE_IDENTICAL, CREATE_FIRST_HLSL, CREATE_FIRST_DXBC,
    CREATE_COUNT };
static const char *const create_names[CREATE_COUNT] = {"create_new_hlsl", "create_new_dxbc", "create_new_dxbc_draw", "create_identical",
        "create_first_hlsl", "create_first_dxbc"};
#define IDENTICAL_BATCH 20
/* The variants of the creation figures start here (0 and 1 are the CPU figures' pipelines). */
#define CREATE_VARIANT_BASE 1000u

/* Variant k: VS mask 1 | k << 1 (the same result for the values drawn), PS green k. */
static uint32_t create_vs_mask(unsigned k) { return 1u | (CREATE_VARIANT_BASE + k) << 1; }
static float create_green(unsigned k) { return (float)(CREATE_VARIANT_BASE + k) / 4096.0f; }

/* Two stages as one blob for a child's standard input: the VS's size, the VS, the PS. */
static struct bench_bytes create_pack(const struct bench_bytes *vs, const struct bench_bytes *ps)
{
    struct bench_bytes b = {malloc(4 + vs->size + ps->size), 4 + vs->size + ps->size};
    uint32_t vs_size = (uint32_t)vs->size;
    REQUIRE(b.data, "out of memory");
    memcpy(b.data, &vs_size, 4);
    memcpy((uint8_t *)b.data + 4, vs->data, vs->size);
    memcpy((uint8_t *)b.data + 4 + vs->size, ps->data, ps->size);
    return b;
}

static void create_unpack(const struct bench_bytes *b, struct bench_bytes *vs, struct bench_bytes *ps)
{
    uint32_t vs_size;
    REQUIRE(b->size >= 4, "no shaders on standard input");
    memcpy(&vs_size, b->data, 4);
    REQUIRE(4 + (size_t)vs_size <= b->size, "bad shaders on standard input");
    *vs = (struct bench_bytes){(uint8_t *)b->data + 4, vs_size};
    *ps = (struct bench_bytes){(uint8_t *)b->data + 4 + vs_size, b->size - 4 - vs_size};
}

/* ---- the D3D12 side ---- */

/* us of CreateGraphicsPipelineState + Release. */
static double d3d_create_sample(ID3D12Device *device, ID3D12RootSignature *signature, const struct bench_bytes *vs, const struct bench_bytes *ps)
{
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc = d3d_graphics_desc(signature, vs, ps, DXGI_FORMAT_R8G8B8A8_UNORM, false, &position_element, 1);
    double start = bench_now_ns();
    /* not ID3D12PipelineState_Release(d3d_create_graphics(...)): the COM macro names its argument twice */
    ID3D12PipelineState *state = d3d_create_graphics(device, &desc);
    ID3D12PipelineState_Release(state);
    return (bench_now_ns() - start) / 1e3;
}

/* us of CreateGraphicsPipelineState, SetPipelineState and DrawInstanced of the new pipeline into
 * the CPU figures' list set up beforehand; Close and Release untimed. */
static double d3d_create_draw_sample(struct d3d *d, const struct bench_bytes *vs, const struct bench_bytes *ps)
{
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc = d3d_graphics_desc(d->signature, vs, ps, DXGI_FORMAT_R8G8B8A8_UNORM, false, &position_element, 1);
    ID3D12PipelineState *state;
    double start, end;

    HR(ID3D12CommandAllocator_Reset(d->allocator));
    HR(ID3D12GraphicsCommandList_Reset(d->list, d->allocator, NULL));
    d3d_cpu_setup(d, d->list);
    start = bench_now_ns();
    state = d3d_create_graphics(d->device, &desc);
    ID3D12GraphicsCommandList_SetPipelineState(d->list, state);
    ID3D12GraphicsCommandList_DrawInstanced(d->list, 3, 1, 0, 0);
    end = bench_now_ns();
    HR(ID3D12GraphicsCommandList_Close(d->list));
    ID3D12PipelineState_Release(state);
    return (end - start) / 1e3;
}

/* Steady creations from new bytes each (with_draw: and its first draw): n->create_warmup, then
 * n->create_samples; the shaders of every creation are made before the first. */
static struct bench_figure d3d_measure_new(struct d3d *d, bool dxbc, bool with_draw, const struct sizes *n)
{
    static double samples[MAX_SAMPLES];
    unsigned total = n->create_warmup + n->create_samples;
    struct bench_bytes *stages = malloc(2 * total * sizeof(*stages));

    REQUIRE(stages, "out of memory");
    /* with_draw: other variants than the figure without, so that no translation is found again */
    for (unsigned k = 0; k < total; k++)
        d3d_cpu_stages(dxbc, create_vs_mask(k + with_draw * total), create_green(k + with_draw * total), &stages[2 * k], &stages[2 * k + 1]);
    for (unsigned k = 0; k < total; k++) {
        double us = with_draw ? d3d_create_draw_sample(d, &stages[2 * k], &stages[2 * k + 1])
                : d3d_create_sample(d->device, d->signature, &stages[2 * k], &stages[2 * k + 1]);
        if (k >= n->create_warmup)
            samples[k - n->create_warmup] = us;
        free(stages[2 * k].data);
        free(stages[2 * k + 1].data);
    }
    free(stages);
    return bench_figure_of(samples, n->create_samples);
}

/* CPU us per creation while one of the same description (DXBC variant 0) lives, in batches. */
static struct bench_figure d3d_measure_identical(struct d3d *d, const struct sizes *n)
{
    static double samples[MAX_SAMPLES];
    struct bench_bytes vs, ps;
    d3d_cpu_stages(true, create_vs_mask(0), create_green(0), &vs, &ps);
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc = d3d_graphics_desc(d->signature, &vs, &ps, DXGI_FORMAT_R8G8B8A8_UNORM, false, &position_element, 1);
    ID3D12PipelineState *live = d3d_create_graphics(d->device, &desc);

    for (unsigned i = 0; i < n->create_warmup + n->create_samples; i++) {
        double start = bench_thread_cpu_ns();
        for (unsigned b = 0; b < IDENTICAL_BATCH; b++) {
            ID3D12PipelineState *state = d3d_create_graphics(d->device, &desc);
            ID3D12PipelineState_Release(state);
        }
        if (i >= n->create_warmup)
            samples[i - n->create_warmup] = (bench_thread_cpu_ns() - start) / 1e3 / IDENTICAL_BATCH;
    }
    ID3D12PipelineState_Release(live);
    free(vs.data);
    free(ps.data);
    return bench_figure_of(samples, n->create_samples);
}

/* ---- raw Vulkan ---- */

#ifndef BENCH_VKD3D
static void raw_create_stages(unsigned k, struct bench_bytes *vs, struct bench_bytes *ps)
{
    char mask_text[16], green_text[32];
    snprintf(mask_text, sizeof(mask_text), "%uu", create_vs_mask(k));
    snprintf(green_text, sizeof(green_text), "%.9g", create_green(k));
    const char *const macros[] = {"VS_MASK", mask_text, "GREEN", green_text, NULL};
    *vs = raw_spirv(cpu_vs_glsl, true, shaderc_vertex_shader, "main", macros);
    *ps = raw_spirv(cpu_ps_glsl, true, shaderc_fragment_shader, "main", macros);
}

/* us of two vkCreateShaderModule + vkCreateGraphicsPipelines, then destroying all three. */
static double raw_create_sample(const struct raw *r, const struct bench_bytes *vs_code, const struct bench_bytes *ps_code)
{
    double start = bench_now_ns();
    VkShaderModule vs = raw_module(r, vs_code), ps = raw_module(r, ps_code);
    VkPipeline pipeline = raw_graphics_pipeline(r, r->layout, vs, ps, VK_FORMAT_R8G8B8A8_UNORM, false, 2 * sizeof(float), &raw_position_attribute, 1);
    vkDestroyShaderModule(r->vk.device, vs, NULL);
    vkDestroyShaderModule(r->vk.device, ps, NULL);
    vkDestroyPipeline(r->vk.device, pipeline, NULL);
    return (bench_now_ns() - start) / 1e3;
}

static struct bench_figure raw_measure_new(struct raw *r, const struct sizes *n)
{
    static double samples[MAX_SAMPLES];
    unsigned total = n->create_warmup + n->create_samples;
    struct bench_bytes *stages = malloc(2 * total * sizeof(*stages));

    REQUIRE(stages, "out of memory");
    for (unsigned k = 0; k < total; k++)
        raw_create_stages(k, &stages[2 * k], &stages[2 * k + 1]);
    for (unsigned k = 0; k < total; k++) {
        double us = raw_create_sample(r, &stages[2 * k], &stages[2 * k + 1]);
        if (k >= n->create_warmup)
            samples[k - n->create_warmup] = us;
        free(stages[2 * k].data);
        free(stages[2 * k + 1].data);
    }
    free(stages);
    return bench_figure_of(samples, n->create_samples);
}

/* CPU us per creation of the same modules' pipeline while a twin of it lives (a driver may find it). */
static struct bench_figure raw_measure_identical(struct raw *r, const struct sizes *n)
{
    static double samples[MAX_SAMPLES];
    struct bench_bytes vs_code, ps_code;
    raw_create_stages(0, &vs_code, &ps_code);
    VkShaderModule vs = raw_module(r, &vs_code), ps = raw_module(r, &ps_code);
    VkPipeline live = raw_graphics_pipeline(r, r->layout, vs, ps, VK_FORMAT_R8G8B8A8_UNORM, false, 2 * sizeof(float), &raw_position_attribute, 1);

    for (unsigned i = 0; i < n->create_warmup + n->create_samples; i++) {
        double start = bench_thread_cpu_ns();
        for (unsigned b = 0; b < IDENTICAL_BATCH; b++)
            raw_create_sample(r, &vs_code, &ps_code);
        if (i >= n->create_warmup)
            samples[i - n->create_warmup] = (bench_thread_cpu_ns() - start) / 1e3 / IDENTICAL_BATCH;
    }
    vkDestroyPipeline(r->vk.device, live, NULL);
    vkDestroyShaderModule(r->vk.device, vs, NULL);
    vkDestroyShaderModule(r->vk.device, ps, NULL);
    free(vs_code.data);
    free(ps_code.data);
    return bench_figure_of(samples, n->create_samples);
}
#endif

/* ---- first pipelines: children ---- */

/* A child's one timing: `mode` first-d3d12 (the D3D12 side, the stages on standard input) or
 * first-vulkan; the device and the root signature or layout are made untimed. */
static int create_child(bool d3d)
{
    struct bench_bytes packed = bench_read_all(STDIN_FILENO), vs, ps;
    struct raw r;
    double us = 0;

    create_unpack(&packed, &vs, &ps);
    memset(&r, 0, sizeof(r));
    bench_vk_open(&r.vk, "bench_draw (first pipeline)");
    if (d3d) {
        char name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
        bool cpu_device;
        ID3D12Device *device = bench_d3d_create_device(&r.vk, name, &cpu_device);
        ID3D12RootSignature *signature = d3d_cpu_signature(device);
        us = d3d_create_sample(device, signature, &vs, &ps);
        ID3D12RootSignature_Release(signature);
        ID3D12Device_Release(device);
        vkDestroyInstance(r.vk.instance, NULL);
    } else {
#ifndef BENCH_VKD3D
        raw_create_device(&r);
        raw_create_layouts(&r);
        us = raw_create_sample(&r, &vs, &ps);
        raw_destroy(&r);
#endif
    }
    printf("first_us=%.3f\n", us);
    free(packed.data);
    return 0;
}

/* The first pipelines of n->children fresh processes per kind of stages given (NULL: not measured),
 * the kinds taking turns. */
static void measure_first(const struct bench_bytes *d3d_hlsl, const struct bench_bytes *d3d_dxbc, const struct bench_bytes *raw_spirv_pair,
        const struct sizes *n, struct bench_figure *hlsl_out, struct bench_figure *dxbc_out, struct bench_figure *raw_out)
{
    static double samples[3][MAX_CHILDREN];
    const struct bench_bytes *inputs[3] = {d3d_hlsl, d3d_dxbc, raw_spirv_pair};
    struct bench_figure *outputs[3] = {hlsl_out, dxbc_out, raw_out};
    char self[PATH_MAX];

    bench_self_path(self);
    for (unsigned i = 0; i < n->children; i++)
        for (unsigned k = 0; k < 3; k++) {
            unsigned kind = (i + k) % 3;
            struct bench_bytes out;
            int status;
            if (!inputs[kind])
                continue;
            REQUIRE(bench_run_program(self, kind == 2 ? "first-vulkan" : "first-d3d12", inputs[kind], &out, &status),
                    "%s's first-pipeline child failed (wait status 0x%x)", self, (unsigned)status);
            samples[kind][i] = bench_field(out.data, "first_us");
            free(out.data);
        }
    for (unsigned kind = 0; kind < 3; kind++)
        if (inputs[kind])
            *outputs[kind] = bench_figure_of(samples[kind], n->children);
}

#endif
