/* DXBC to the one SPIR-V module every shader ends in (dxbc_translate.h).
 *
 * libvkd3d-shader (Wine's D3D shader translator, libvkd3d-shader1) turns the shader-model-5
 * token stream into SPIR-V, in the compiler helper process (it asserts on some malformed
 * streams that the checks of dxbc.c let through); d3d12xs tells it where each declared register goes in d3d12xs's
 * own binding encoding (set = space, binding = class << 14 | register: spirv/spirv.h), so that what
 * follows (reflection, the root-signature remap, the memory ABI, DispatchX variants) is the
 * path D3DCompile's modules take. Its raw and structured views (texel buffers of words) then
 * become storage buffers (spirv/spirv_raw_views.c), which is what d3d12xs's views of those kinds are.
 * Shader model 5.1 register ranges, which libvkd3d-shader 1.2 cannot bind, are rewritten around
 * it (dxbc_ranges.h, spirv/spirv_dxbc_ranges.c); its UAV counters become D3DCompile's kind
 * (spirv/spirv_dxbc_counters.c). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "frontends/dxbc_translate.h"
#include "frontends/dxbc_ranges.h"
#include "frontends/dxbc_hull.h"
#include "spirv/spirv_passes.h"
#include "spirv/spirv_stage_io.h"
#include "frontends/shader_helper.h"
#include "common/util.h"

/* libvkd3d-shader's enum vkd3d_shader_descriptor_type and VKD3D_SHADER_BINDING_FLAG_BUFFER
 * (vkd3d_shader.h; the helper links libvkd3d-shader, the library does not) */
enum { VKD3D_SRV = 0, VKD3D_UAV = 1, VKD3D_CBV = 2, VKD3D_SAMPLER = 3, VKD3D_BINDING_FLAG_BUFFER = 1, VKD3D_BINDING_FLAG_IMAGE = 2 };

static uint32_t descriptor_type(enum d3d12xs_register_class register_class)
{
    switch (register_class) {
    case D3D12XS_REGISTER_CBV: return VKD3D_CBV;
    case D3D12XS_REGISTER_SRV: return VKD3D_SRV;
    case D3D12XS_REGISTER_UAV: return VKD3D_UAV;
    default: return VKD3D_SAMPLER;
    }
}

/* Translations already made, by container checksum and size (the checksum was checked): the
 * same DXBC in another pipeline (another root signature, a re-created PSO) skips the helper
 * process, which costs milliseconds. A few dozen shaders; the oldest entry makes room. */
#define CACHE_ENTRIES 64
static struct cached_translation {
    uint8_t checksum[16];
    size_t size;
    struct d3d12xs_dxbc_tessellator tessellator; /* a domain shader's translation depends on it */
    uint8_t *spirv;
    size_t spirv_size;
} cache[CACHE_ENTRIES];
static unsigned cache_next;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

/* A copy of the cached SPIR-V of this container (malloc()ed), or NULL. */
static uint8_t *cache_find(const uint8_t *container, size_t size, const struct d3d12xs_dxbc_tessellator *tessellator, size_t *spirv_size)
{
    uint8_t *copy = NULL;
    pthread_mutex_lock(&cache_lock);
    for (unsigned i = 0; i < CACHE_ENTRIES && !copy; i++) {
        if (cache[i].spirv && cache[i].size == size && !memcmp(cache[i].checksum, container + 4, 16)
                && cache[i].tessellator.output_primitive == tessellator->output_primitive
                && cache[i].tessellator.partitioning == tessellator->partitioning
                && (copy = malloc(cache[i].spirv_size))) {
            memcpy(copy, cache[i].spirv, cache[i].spirv_size);
            *spirv_size = cache[i].spirv_size;
        }
    }
    pthread_mutex_unlock(&cache_lock);
    return copy;
}

static void cache_add(const uint8_t *container, size_t size, const struct d3d12xs_dxbc_tessellator *tessellator, const uint8_t *spirv,
        size_t spirv_size)
{
    uint8_t *copy = malloc(spirv_size);
    if (!copy)
        return;
    memcpy(copy, spirv, spirv_size);
    pthread_mutex_lock(&cache_lock);
    free(cache[cache_next].spirv);
    memcpy(cache[cache_next].checksum, container + 4, 16);
    cache[cache_next].size = size;
    cache[cache_next].tessellator = *tessellator;
    cache[cache_next].spirv = copy;
    cache[cache_next].spirv_size = spirv_size;
    cache_next = (cache_next + 1) % CACHE_ENTRIES;
    pthread_mutex_unlock(&cache_lock);
}

/* The first line of libvkd3d-shader's messages (they end in a newline), or a placeholder. */
static void first_line(const char *messages, char *line, size_t size)
{
    size_t n = 0;
    if (!messages || !*messages) {
        snprintf(line, size, "no message");
        return;
    }
    while (messages[n] && messages[n] != '\n' && n + 1 < size)
        n++;
    memcpy(line, messages, n);
    line[n] = 0;
}

static void put_binding(struct hlslc_buffer *request, const struct d3d12xs_dxbc_resource *r, uint32_t space, uint32_t reg,
        uint32_t set, uint32_t binding)
{
    hlslc_put_u32(request, descriptor_type(r->register_class));
    hlslc_put_u32(request, space);
    hlslc_put_u32(request, reg);
    hlslc_put_u32(request, r->register_class == D3D12XS_REGISTER_SAMPLER || r->texture ? VKD3D_BINDING_FLAG_IMAGE : VKD3D_BINDING_FLAG_BUFFER);
    hlslc_put_u32(request, set);
    hlslc_put_u32(request, binding);
    hlslc_put_u32(request, 1);
}

static bool is_range(const struct d3d12xs_dxbc_resource *r)
{
    return r->first != r->last;
}

/* HLSLC_DXBC_REQUEST's payload: the container (rewritten where it reads ranges), one binding per
 * single-register declaration at d3d12xs's encoding, one per range access site and marker
 * (dxbc_ranges.h), then the UAV counters, counter k at (D3D12XS_DXBC_COUNTER_SET, k), then a
 * domain shader's tessellator state. */
static void put_request(struct hlslc_buffer *request, const void *code, size_t size, const struct d3d12xs_dxbc_shader *shader,
        const struct d3d12xs_dxbc_ranges *ranges, const struct d3d12xs_dxbc_tessellator *tessellator)
{
    static const struct d3d12xs_dxbc_resource marker = {D3D12XS_REGISTER_CBV, 0, 0, 0, D3D12XS_DXBC_VIEW_TYPED, 0, false, 0, false, false};
    uint32_t count = 0, counters = 0;

    hlslc_put_str(request, code, size);
    for (uint32_t i = 0; i < shader->resource_count; i++)
        count += !is_range(&shader->resources[i]);
    for (uint32_t k = 0; k < ranges->site_count; k++)
        count += ranges->sites[k].dynamic ? 2 : 1;
    hlslc_put_u32(request, count);
    for (uint32_t i = 0; i < shader->resource_count; i++) {
        const struct d3d12xs_dxbc_resource *r = &shader->resources[i];
        if (!is_range(r))
            put_binding(request, r, r->space, r->first, r->space, D3D12XS_ENCODE_BINDING(r->register_class, r->first));
    }
    for (uint32_t k = 0; k < ranges->site_count; k++) {
        put_binding(request, &shader->resources[ranges->sites[k].resource], D3D12XS_DXBC_SITE_SPACE, k, D3D12XS_DXBC_SITE_SET, k);
        if (ranges->sites[k].dynamic)
            put_binding(request, &marker, D3D12XS_DXBC_SITE_SPACE, D3D12XS_DXBC_MARKER_REGISTER + k, D3D12XS_DXBC_MARKER_SET, k);
    }
    for (uint32_t i = 0; i < shader->resource_count; i++)
        counters += shader->resources[i].counter;
    hlslc_put_u32(request, counters);
    for (uint32_t i = 0, k = 0; i < shader->resource_count; i++) {
        const struct d3d12xs_dxbc_resource *r = &shader->resources[i];
        if (!r->counter)
            continue;
        hlslc_put_u32(request, r->space);
        hlslc_put_u32(request, r->first);
        hlslc_put_u32(request, D3D12XS_DXBC_COUNTER_SET);
        hlslc_put_u32(request, k++);
    }
    hlslc_put_u32(request, tessellator->output_primitive);
    hlslc_put_u32(request, tessellator->partitioning);
}

/* What the passes after the translation need: the raw and structured views (single registers
 * and range sites), the ranges and their sites, the counters' UAVs. */
struct pass_inputs {
    struct d3d12xs_spirv_raw_view *raw_views;
    uint32_t raw_count;
    struct d3d12xs_spirv_dxbc_range *ranges;
    uint32_t range_count;
    struct d3d12xs_spirv_dxbc_site *sites;
    struct d3d12xs_spirv_dxbc_counter *counters;
    uint32_t counter_count;
};

static HRESULT make_pass_inputs(const struct d3d12xs_dxbc_shader *shader, const struct d3d12xs_dxbc_ranges *ranges,
        struct pass_inputs *in)
{
    const size_t n = (size_t)shader->resource_count + ranges->site_count + 1;
    uint32_t *range_of_resource;

    memset(in, 0, sizeof(*in));
    in->raw_views = calloc(n, sizeof(*in->raw_views));
    in->ranges = calloc(n, sizeof(*in->ranges));
    in->sites = calloc(n, sizeof(*in->sites));
    in->counters = calloc(n, sizeof(*in->counters));
    range_of_resource = calloc(n, sizeof(*range_of_resource));
    if (!in->raw_views || !in->ranges || !in->sites || !in->counters || !range_of_resource) {
        free(range_of_resource);
        return E_OUTOFMEMORY;
    }
    for (uint32_t i = 0; i < shader->resource_count; i++) {
        const struct d3d12xs_dxbc_resource *r = &shader->resources[i];
        if (r->view != D3D12XS_DXBC_VIEW_TYPED && !is_range(r)) {
            in->raw_views[in->raw_count].set = r->space;
            in->raw_views[in->raw_count].binding = D3D12XS_ENCODE_BINDING(r->register_class, r->first);
            in->raw_views[in->raw_count++].writable = r->register_class == D3D12XS_REGISTER_UAV;
        }
        if (r->counter) {
            in->counters[in->counter_count].uav_set = r->space;
            in->counters[in->counter_count++].uav_binding = D3D12XS_ENCODE_BINDING(r->register_class, r->first);
        }
    }
    for (uint32_t k = 0; k < ranges->site_count; k++) {
        const struct d3d12xs_dxbc_site *site = &ranges->sites[k];
        const struct d3d12xs_dxbc_resource *r = &shader->resources[site->resource];
        if (!range_of_resource[site->resource]) {
            struct d3d12xs_spirv_dxbc_range *range = &in->ranges[in->range_count];
            range->set = r->space;
            range->binding = D3D12XS_ENCODE_BINDING(r->register_class, r->first);
            range->count = r->last == UINT32_MAX ? 0 : r->last - r->first + 1;
            range_of_resource[site->resource] = ++in->range_count;
        }
        in->sites[k].range = range_of_resource[site->resource] - 1;
        in->sites[k].dynamic = site->dynamic;
        in->sites[k].nonuniform = site->nonuniform;
        in->sites[k].constant_index = site->constant_index;
        if (r->view != D3D12XS_DXBC_VIEW_TYPED) {
            in->raw_views[in->raw_count].set = D3D12XS_DXBC_SITE_SET;
            in->raw_views[in->raw_count].binding = k;
            in->raw_views[in->raw_count++].writable = r->register_class == D3D12XS_REGISTER_UAV;
        }
    }
    free(range_of_resource);
    return S_OK;
}

static void free_pass_inputs(struct pass_inputs *in)
{
    free(in->raw_views);
    free(in->ranges);
    free(in->sites);
    free(in->counters);
}

/* The passes over libvkd3d-shader's module: raw views first (the sites of raw ranges are then
 * storage buffers like any), then ranges, then counters (their UAVs are storage buffers too). */
static HRESULT run_passes(struct d3d12xs_spirv_module *module, const struct pass_inputs *in, uint32_t site_count, char *error,
        size_t error_size)
{
    const struct d3d12xs_spirv_raw_views_args raw_args = {in->raw_views, in->raw_count};
    const struct d3d12xs_spirv_dxbc_ranges_args range_args = {in->ranges, in->range_count, in->sites, site_count};
    const struct d3d12xs_spirv_dxbc_counters_args counter_args = {in->counters, in->counter_count};
    char reason[384];
    HRESULT hr;

    if (FAILED(hr = d3d12xs_spirv_pass_raw_views(module, &raw_args, reason, sizeof(reason))))
        return d3d12xs_write_error(hr, error, error_size, "raw and structured views of the translated DXBC: %s", reason);
    if (FAILED(hr = d3d12xs_spirv_pass_dxbc_ranges(module, &range_args, reason, sizeof(reason))))
        return d3d12xs_write_error(hr, error, error_size, "register ranges of the translated DXBC: %s", reason);
    if (FAILED(hr = d3d12xs_spirv_pass_dxbc_counters(module, &counter_args, reason, sizeof(reason))))
        return d3d12xs_write_error(hr, error, error_size, "UAV counters of the translated DXBC: %s", reason);
    return S_OK;
}

/* A graphics stage's signatures as the semantics of its module's inputs and outputs, which
 * graphics pipelines link stages by (spirv/spirv_stage_io.h). System values are built-ins. The
 * patch constants (PCSG) are a hull shader's per-patch outputs and a domain shader's per-patch
 * inputs; libvkd3d-shader 1.2 puts patch constant register r at Location r + the number of
 * elements of the stage's control-point signature (the hull shader's outputs, the domain
 * shader's inputs), past the control points' Locations. */
static HRESULT add_semantics(struct d3d12xs_spirv_module *module, const struct d3d12xs_dxbc_shader *shader, char *error, size_t error_size)
{
    const uint32_t total = shader->input_count + shader->output_count + shader->patch_count;
    const bool hull = shader->program_type == 3;
    struct d3d12xs_spirv_semantic semantics[384];
    uint32_t count = 0;

    for (uint32_t i = 0; i < total && count < D3D12XS_ARRAY_SIZE(semantics); i++) {
        const struct d3d12xs_dxbc_signature_element *e = &shader->signature[i];
        const bool patch = i >= shader->input_count + shader->output_count;
        if (e->system_value)
            continue;
        semantics[count++] = (struct d3d12xs_spirv_semantic){patch ? hull : i >= shader->input_count, e->reg, e->semantic,
                e->semantic_index, patch};
    }
    {
        const struct d3d12xs_spirv_semantics_args args = {semantics, count, hull ? shader->output_count : shader->input_count};
        return d3d12xs_spirv_pass_semantics(module, &args, error, error_size);
    }
}

/* A hull shader whose patch-constant phases read the output control points: a barrier after its
 * control point phase (the entry point's first call; spirv/spirv_hull_barrier.c says why). */
static HRESULT hull_barrier(struct d3d12xs_spirv_module *module, char *error, size_t error_size)
{
    const struct d3d12xs_spirv_hull_barrier_args args = {1};
    char reason[256];
    HRESULT hr;

    if (FAILED(hr = d3d12xs_spirv_pass_hull_barrier(module, &args, reason, sizeof(reason))))
        return d3d12xs_write_error(hr, error, error_size, "the barrier between the translated hull shader's phases: %s", reason);
    return S_OK;
}

/* One shader's way through: begin checks it and makes its request (or finds its translation
 * kept), the translator answers a batch of them, finish runs the passes over the answer. */
struct translation {
    const void *code;                 /* the application's container */
    size_t size;
    const struct d3d12xs_dxbc_tessellator *tessellator;
    uint8_t *hull;                    /* a hull shader's rewrite, when translated in its place */
    struct d3d12xs_dxbc_shader shader;
    bool parsed;
    struct d3d12xs_dxbc_ranges ranges;
    struct pass_inputs inputs;
    struct hlslc_buffer request;      /* empty when the translation was kept */
    uint8_t *spirv;                   /* the kept translation (malloc()ed), or NULL */
    size_t spirv_size;
};

static HRESULT translation_begin(struct translation *t, const struct d3d12xs_dxbc_source *source, char *error, size_t error_size)
{
    static const struct d3d12xs_dxbc_tessellator no_tessellator = {0, 0};
    const void *translated = source->code;  /* what is translated: the container, or its rewrite */
    size_t translated_size = source->size;
    HRESULT hr;

    memset(t, 0, sizeof(*t));
    t->code = source->code;
    t->size = source->size;
    if (FAILED(hr = d3d12xs_dxbc_parse(source->code, source->size, &t->shader, error, error_size)))
        return hr;
    t->parsed = true;
    /* a pass-through hull shader whose patch constants read the control points: what
     * libvkd3d-shader 1.2 translates in its place (dxbc_hull.h; the cache keeps the original's
     * checksum) */
    if (d3d12xs_dxbc_hull_needs_rewrite(&t->shader)) {
        hr = d3d12xs_dxbc_rewrite_hull(source->code, &t->shader, &t->hull, &translated_size, error, error_size);
        d3d12xs_dxbc_shader_cleanup(&t->shader);
        t->parsed = false;
        if (FAILED(hr) || FAILED(hr = d3d12xs_dxbc_parse(t->hull, translated_size, &t->shader, error, error_size)))
            return hr;
        t->parsed = true;
        translated = t->hull;
    }
    /* only a domain shader's translation takes it */
    t->tessellator = source->tessellator && t->shader.program_type == 4 ? source->tessellator : &no_tessellator;
    if (FAILED(hr = d3d12xs_dxbc_rewrite_ranges(translated, &t->shader, &t->ranges, error, error_size)))
        return hr;
    if (FAILED(make_pass_inputs(&t->shader, &t->ranges, &t->inputs)))
        return d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory");
    /* a translation kept: no request, no helper */
    if ((t->spirv = cache_find(source->code, source->size, t->tessellator, &t->spirv_size)))
        return S_OK;
    if (t->ranges.container)
        put_request(&t->request, t->ranges.container, t->ranges.size, &t->shader, &t->ranges, t->tessellator);
    else
        put_request(&t->request, translated, translated_size, &t->shader, &t->ranges, t->tessellator);
    if (t->request.failed)
        return d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory");
    return S_OK;
}

/* The module of the translation's SPIR-V (t->spirv), with the passes run. */
static HRESULT translation_finish(struct translation *t, struct d3d12xs_spirv_module **module, char *error, size_t error_size)
{
    HRESULT hr;

    if (FAILED(hr = d3d12xs_spirv_module_parse(t->spirv, t->spirv_size, module, error, error_size)))
        return hr;
    if (FAILED(hr = run_passes(*module, &t->inputs, t->ranges.site_count, error, error_size))
            || (t->shader.program_type != 5 && FAILED(hr = add_semantics(*module, &t->shader, error, error_size)))
            || (t->shader.patch_phase_reads_output_points && FAILED(hr = hull_barrier(*module, error, error_size)))) {
        d3d12xs_spirv_module_destroy(*module);
        *module = NULL;
        return hr;
    }
    {
        /* no UAV declared globallycoherent: no volatile access (spirv.h) */
        bool volatile_access = false;
        for (uint32_t i = 0; i < t->shader.resource_count; i++)
            volatile_access |= t->shader.resources[i].globally_coherent;
        if (!volatile_access)
            d3d12xs_spirv_add_marker(*module, D3D12XS_SPIRV_NO_VOLATILE_MARKER);
    }
    return S_OK;
}

static void translation_cleanup(struct translation *t)
{
    free(t->hull);
    free(t->request.data);
    free(t->spirv);
    free_pass_inputs(&t->inputs);
    d3d12xs_dxbc_ranges_cleanup(&t->ranges);
    if (t->parsed)
        d3d12xs_dxbc_shader_cleanup(&t->shader);
}

/* The translator's answers to the requests made, into each translation's spirv (kept for the
 * next time the same container comes); *failed names the shader of a failure. */
static HRESULT ask_translator(struct translation *t, uint32_t count, uint32_t *failed, char *error, size_t error_size)
{
    const struct hlslc_buffer *requests[D3D12XS_DXBC_MAX_SOURCES];
    struct d3d12xs_helper_translation answers[D3D12XS_DXBC_MAX_SOURCES];
    uint32_t asked[D3D12XS_DXBC_MAX_SOURCES], ask_count = 0, answered;
    char line[256];
    HRESULT hr;

    for (uint32_t i = 0; i < count; i++)
        if (!t[i].spirv) {
            asked[ask_count] = i;
            requests[ask_count++] = &t[i].request;
        }
    if (!ask_count)
        return S_OK;
    hr = d3d12xs_helper_translate_dxbc(requests, ask_count, answers, &answered, error, error_size);
    if (FAILED(hr))
        *failed = asked[answered];
    /* answered in order: a refusal among them comes before the helper's failure */
    for (uint32_t k = answered; k-- > 0;) {
        struct translation *u = &t[asked[k]];
        if (answers[k].status) {
            first_line(answers[k].messages, line, sizeof(line));
            hr = d3d12xs_write_error(E_INVALIDARG, error, error_size, "libvkd3d-shader cannot translate the DXBC shader (error %d: %s)",
                    (int)answers[k].status, line);
            *failed = asked[k];
            free(answers[k].spirv);
        } else {
            cache_add(u->code, u->size, u->tessellator, answers[k].spirv, answers[k].spirv_size);
            u->spirv = answers[k].spirv;
            u->spirv_size = answers[k].spirv_size;
        }
        free(answers[k].messages);
    }
    return hr;
}

HRESULT d3d12xs_dxbc_translate_all(const struct d3d12xs_dxbc_source *sources, uint32_t count, struct d3d12xs_spirv_module **modules,
        uint32_t *failed, char *error, size_t error_size)
{
    struct translation t[D3D12XS_DXBC_MAX_SOURCES];
    uint32_t begun = 0;
    HRESULT hr = S_OK;

    *failed = 0;
    memset(modules, 0, count * sizeof(*modules));
    if (count > D3D12XS_DXBC_MAX_SOURCES)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "more than %u shaders to translate at once", D3D12XS_DXBC_MAX_SOURCES);
    for (; begun < count && SUCCEEDED(hr); begun++)
        if (FAILED(hr = translation_begin(&t[begun], &sources[begun], error, error_size)))
            *failed = begun;
    if (SUCCEEDED(hr))
        hr = ask_translator(t, count, failed, error, error_size);
    for (uint32_t i = 0; i < count && SUCCEEDED(hr); i++)
        if (FAILED(hr = translation_finish(&t[i], &modules[i], error, error_size)))
            *failed = i;
    for (uint32_t i = 0; i < begun; i++)
        translation_cleanup(&t[i]);
    if (FAILED(hr))
        for (uint32_t i = 0; i < count; i++) {
            d3d12xs_spirv_module_destroy(modules[i]);
            modules[i] = NULL;
        }
    return hr;
}

HRESULT d3d12xs_dxbc_translate(const void *code, size_t size, struct d3d12xs_spirv_module **module, char *error, size_t error_size)
{
    const struct d3d12xs_dxbc_source source = {code, size, NULL};
    uint32_t failed;
    return d3d12xs_dxbc_translate_all(&source, 1, module, &failed, error, error_size);
}
