/* DXBC to the one SPIR-V module every shader ends in (dxbc_translate.h).
 *
 * libvkd3d-shader (Wine's D3D shader translator, libvkd3d-shader1) turns the shader-model-5
 * token stream into SPIR-V, in the compiler helper process (it asserts on some malformed
 * streams that the checks of dxbc.c let through); d3d12xs tells it where each declared register goes in d3d12xs's
 * own binding encoding (set = space, binding = class << 14 | register: spirv.h), so that what
 * follows (reflection, the root-signature remap, the memory ABI, DispatchX variants) is the
 * path D3DCompile's modules take. Its raw and structured views (texel buffers of words) then
 * become storage buffers (spirv_raw_views.c), which is what d3d12xs's views of those kinds are. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "shaders/dxbc_translate.h"
#include "shaders/spirv_passes.h"
#include "shaders/shader_helper.h"
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
    uint8_t *spirv;
    size_t spirv_size;
} cache[CACHE_ENTRIES];
static unsigned cache_next;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

/* A copy of the cached SPIR-V of this container (malloc()ed), or NULL. */
static uint8_t *cache_find(const uint8_t *container, size_t size, size_t *spirv_size)
{
    uint8_t *copy = NULL;
    pthread_mutex_lock(&cache_lock);
    for (unsigned i = 0; i < CACHE_ENTRIES && !copy; i++) {
        if (cache[i].spirv && cache[i].size == size && !memcmp(cache[i].checksum, container + 4, 16)
                && (copy = malloc(cache[i].spirv_size))) {
            memcpy(copy, cache[i].spirv, cache[i].spirv_size);
            *spirv_size = cache[i].spirv_size;
        }
    }
    pthread_mutex_unlock(&cache_lock);
    return copy;
}

static void cache_add(const uint8_t *container, size_t size, const uint8_t *spirv, size_t spirv_size)
{
    uint8_t *copy = malloc(spirv_size);
    if (!copy)
        return;
    memcpy(copy, spirv, spirv_size);
    pthread_mutex_lock(&cache_lock);
    free(cache[cache_next].spirv);
    memcpy(cache[cache_next].checksum, container + 4, 16);
    cache[cache_next].size = size;
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

/* HLSLC_DXBC_REQUEST's payload: the container and one binding per declaration (dxbc.c lets
 * through single registers only: libvkd3d-shader 1.2 binds no ranges). */
static void put_request(struct hlslc_buffer *request, const void *code, size_t size, const struct d3d12xs_dxbc_shader *shader)
{
    hlslc_put_str(request, code, size);
    hlslc_put_u32(request, shader->resource_count);
    for (uint32_t i = 0; i < shader->resource_count; i++) {
        const struct d3d12xs_dxbc_resource *r = &shader->resources[i];
        hlslc_put_u32(request, descriptor_type(r->register_class));
        hlslc_put_u32(request, r->space);
        hlslc_put_u32(request, r->first);
        hlslc_put_u32(request, r->register_class == D3D12XS_REGISTER_SAMPLER || r->texture ? VKD3D_BINDING_FLAG_IMAGE : VKD3D_BINDING_FLAG_BUFFER);
        hlslc_put_u32(request, r->space);
        hlslc_put_u32(request, D3D12XS_ENCODE_BINDING(r->register_class, r->first));
        hlslc_put_u32(request, 1);
    }
}

HRESULT d3d12xs_dxbc_translate(const void *code, size_t size, struct d3d12xs_spirv_module **module, char *error, size_t error_size)
{
    struct d3d12xs_dxbc_shader shader;
    struct d3d12xs_spirv_raw_view *raw_views = NULL;
    struct hlslc_buffer request = {0};
    uint32_t raw_count = 0, status = 0;
    uint8_t *spirv = NULL;
    size_t spirv_size = 0;
    char *messages = NULL, line[256];
    HRESULT hr;

    *module = NULL;
    if (FAILED(hr = d3d12xs_dxbc_parse(code, size, &shader, error, error_size)))
        return hr;
    if (shader.resource_count && !(raw_views = calloc(shader.resource_count, sizeof(*raw_views)))) {
        hr = d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < shader.resource_count; i++) {
        const struct d3d12xs_dxbc_resource *r = &shader.resources[i];
        if (r->view != D3D12XS_DXBC_VIEW_TYPED) {
            raw_views[raw_count].set = r->space;
            raw_views[raw_count].binding = D3D12XS_ENCODE_BINDING(r->register_class, r->first);
            raw_views[raw_count++].writable = r->register_class == D3D12XS_REGISTER_UAV;
        }
    }
    /* a translation kept: no request, no helper */
    if (!(spirv = cache_find(code, size, &spirv_size))) {
        put_request(&request, code, size, &shader);
        if (request.failed) {
            hr = d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory");
            goto done;
        }
        if (FAILED(hr = d3d12xs_helper_translate_dxbc(&request, &status, &messages, &spirv, &spirv_size, error, error_size)))
            goto done;
        if (status) {
            first_line(messages, line, sizeof(line));
            hr = d3d12xs_write_error(E_INVALIDARG, error, error_size, "libvkd3d-shader cannot translate the DXBC shader (error %d: %s)",
                    (int)status, line);
            goto done;
        }
        cache_add(code, size, spirv, spirv_size);
    }
    if (FAILED(hr = d3d12xs_spirv_module_parse(spirv, spirv_size, module, error, error_size)))
        goto done;
    {
        const struct d3d12xs_spirv_raw_views_args args = {raw_views, raw_count};
        char reason[384];
        if (FAILED(hr = d3d12xs_spirv_pass_raw_views(*module, &args, reason, sizeof(reason)))) {
            d3d12xs_write_error(hr, error, error_size, "raw and structured views of the translated DXBC: %s", reason);
            d3d12xs_spirv_module_destroy(*module);
            *module = NULL;
        }
    }

done:
    free(request.data);
    free(messages);
    free(spirv);
    free(raw_views);
    d3d12xs_dxbc_shader_cleanup(&shader);
    return hr;
}
