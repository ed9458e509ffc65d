/* Cached pipeline blobs (pipeline_blob.h): written once when a pipeline is made, checked and read
 * back when a description's CachedPSO (or a pipeline library) brings one. Fields are written one
 * by one, so no struct padding or pointer reaches a blob. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipelines/pipeline_blob.h"
#include "common/hash.h"
#include "descriptors/descriptor_buffer.h"
#include "spirv/spirv.h"

#ifndef D3D12XS_VERSION
#define D3D12XS_VERSION "unknown"
#endif

enum blob_kind {
    BLOB_COMPUTE = 1,
    BLOB_GRAPHICS = 2,
};

/* ---- writing ---- */

struct writer {
    unsigned char *data;
    size_t size, capacity;
    bool failed;
};

static void put_bytes(struct writer *w, const void *data, size_t size)
{
    if (w->failed)
        return;
    if (w->size + size > w->capacity) {
        size_t capacity = w->capacity ? w->capacity : 4096;
        unsigned char *grown;
        while (capacity < w->size + size)
            capacity *= 2;
        if (!(grown = realloc(w->data, capacity))) {
            w->failed = true;
            return;
        }
        w->data = grown;
        w->capacity = capacity;
    }
    if (size)
        memcpy(w->data + w->size, data, size);
    w->size += size;
}

static void put_u32(struct writer *w, uint32_t value)
{
    unsigned char bytes[4] = {value, value >> 8, value >> 16, value >> 24};
    put_bytes(w, bytes, 4);
}

static void put_u64(struct writer *w, uint64_t value)
{
    put_u32(w, (uint32_t)value);
    put_u32(w, (uint32_t)(value >> 32));
}

static void put_words(struct writer *w, const uint32_t *words, size_t count)
{
    put_u64(w, count);
    for (size_t i = 0; i < count; i++)
        put_u32(w, words[i]);
}

/* ---- reading ---- */

struct reader {
    const unsigned char *data;
    size_t size, offset;
    bool failed;
};

static const unsigned char *get_bytes(struct reader *r, size_t size)
{
    const unsigned char *bytes;
    if (r->failed || size > r->size - r->offset) {
        r->failed = true;
        return NULL;
    }
    bytes = r->data + r->offset;
    r->offset += size;
    return bytes;
}

static uint32_t get_u32(struct reader *r)
{
    const unsigned char *b = get_bytes(r, 4);
    return b ? (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24 : 0;
}

static uint64_t get_u64(struct reader *r)
{
    uint64_t low = get_u32(r);
    return low | (uint64_t)get_u32(r) << 32;
}

/* malloc()ed words (NULL with *count 0 when there are none). */
static uint32_t *get_words(struct reader *r, size_t *count)
{
    uint64_t n = get_u64(r);
    uint32_t *words;

    *count = 0;
    if (r->failed || !n)
        return NULL;
    if (n > (r->size - r->offset) / 4 || !(words = malloc(n * 4))) {
        r->failed = true;
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        words[i] = get_u32(r);
    *count = n;
    return words;
}

/* ---- the header ---- */

static void store_u32(unsigned char *out, uint32_t value)
{
    out[0] = value, out[1] = value >> 8, out[2] = value >> 16, out[3] = value >> 24;
}

static void store_u64(unsigned char *out, uint64_t value)
{
    store_u32(out, (uint32_t)value);
    store_u32(out + 4, (uint32_t)(value >> 32));
}

static uint32_t load_u32(const unsigned char *in)
{
    return (uint32_t)in[0] | (uint32_t)in[1] << 8 | (uint32_t)in[2] << 16 | (uint32_t)in[3] << 24;
}

static uint64_t load_u64(const unsigned char *in)
{
    return load_u32(in) | (uint64_t)load_u32(in + 4) << 32;
}

static uint64_t payload_hash(const void *payload, size_t size)
{
    return d3d12xs_hash_bytes(D3D12XS_PIPELINE_BLOB_PAYLOAD_HASH_SEED, payload, size);
}

void d3d12_pipeline_blob_write_header(struct d3d12_device *device, const char magic[4], uint64_t desc_hash, const void *payload,
        size_t payload_size, unsigned char header[D3D12XS_PIPELINE_BLOB_HEADER_SIZE])
{
    const VkPhysicalDeviceProperties *properties = &device->vk_properties;

    memset(header, 0, D3D12XS_PIPELINE_BLOB_HEADER_SIZE);
    memcpy(header, magic, 4);
    store_u32(header + 4, D3D12XS_PIPELINE_BLOB_FORMAT);
    strncpy((char *)header + D3D12XS_PIPELINE_BLOB_VERSION_OFFSET, D3D12XS_VERSION, 15);
    store_u32(header + 24, properties->vendorID);
    store_u32(header + D3D12XS_PIPELINE_BLOB_DEVICE_ID_OFFSET, properties->deviceID);
    store_u32(header + 32, properties->driverVersion);
    memcpy(header + D3D12XS_PIPELINE_BLOB_UUID_OFFSET, properties->pipelineCacheUUID, VK_UUID_SIZE);
    store_u64(header + D3D12XS_PIPELINE_BLOB_DESC_HASH_OFFSET, desc_hash);
    store_u64(header + 64, payload_size);
    store_u64(header + D3D12XS_PIPELINE_BLOB_PAYLOAD_HASH_OFFSET, payload_hash(payload, payload_size));
}

HRESULT d3d12_pipeline_blob_check_header(struct d3d12_device *device, const char magic[4], const void *data, size_t size,
        const char *argument, const char *method)
{
    const VkPhysicalDeviceProperties *properties = &device->vk_properties;
    const unsigned char *header = data;
    char version[16] = {0};

    if (!data || size < D3D12XS_PIPELINE_BLOB_HEADER_SIZE || memcmp(header, magic, 4))
        return d3d12xs_fail(E_INVALIDARG, method, "%s is not a d3d12xs %s (%zu bytes, no \"%.4s\" header)", argument,
                magic[3] == 'L' ? "pipeline library" : "cached pipeline blob", size, magic);
    if (load_u32(header + 24) != properties->vendorID || load_u32(header + D3D12XS_PIPELINE_BLOB_DEVICE_ID_OFFSET) != properties->deviceID)
        return d3d12xs_fail(D3D12_ERROR_ADAPTER_NOT_FOUND, method, "%s was made on another adapter (vendor 0x%04x device 0x%04x, this "
                "is 0x%04x 0x%04x)", argument, load_u32(header + 24), load_u32(header + D3D12XS_PIPELINE_BLOB_DEVICE_ID_OFFSET),
                properties->vendorID, properties->deviceID);
    memcpy(version, header + D3D12XS_PIPELINE_BLOB_VERSION_OFFSET, 15);
    if (load_u32(header + 4) != D3D12XS_PIPELINE_BLOB_FORMAT || strcmp(version, D3D12XS_VERSION))
        return d3d12xs_fail(D3D12_ERROR_DRIVER_VERSION_MISMATCH, method, "%s was made by d3d12xs %s (format %u), this is %s (format %u)",
                argument, version, load_u32(header + 4), D3D12XS_VERSION, D3D12XS_PIPELINE_BLOB_FORMAT);
    if (load_u32(header + 32) != properties->driverVersion)
        return d3d12xs_fail(D3D12_ERROR_DRIVER_VERSION_MISMATCH, method, "%s was made with another driver version (driverVersion "
                "0x%x, %s has 0x%x)", argument, load_u32(header + 32), properties->deviceName, properties->driverVersion);
    if (memcmp(header + D3D12XS_PIPELINE_BLOB_UUID_OFFSET, properties->pipelineCacheUUID, VK_UUID_SIZE))
        return d3d12xs_fail(D3D12_ERROR_DRIVER_VERSION_MISMATCH, method, "%s was made with another driver version (its "
                "pipelineCacheUUID is not %s's)", argument, properties->deviceName);
    if (load_u64(header + 64) != size - D3D12XS_PIPELINE_BLOB_HEADER_SIZE
            || load_u64(header + D3D12XS_PIPELINE_BLOB_PAYLOAD_HASH_OFFSET) != payload_hash(header + D3D12XS_PIPELINE_BLOB_HEADER_SIZE, size - D3D12XS_PIPELINE_BLOB_HEADER_SIZE))
        return d3d12xs_fail(E_INVALIDARG, method, "%s is damaged (%zu bytes: its size or contents are not what its header says)",
                argument, size);
    return S_OK;
}

uint64_t d3d12_pipeline_blob_desc_hash(const void *blob, size_t size)
{
    return size >= D3D12XS_PIPELINE_BLOB_HEADER_SIZE ? load_u64((const unsigned char *)blob + D3D12XS_PIPELINE_BLOB_DESC_HASH_OFFSET) : 0;
}

bool d3d12_pipeline_blob_is_graphics(const void *blob, size_t size)
{
    return size >= D3D12XS_PIPELINE_BLOB_HEADER_SIZE + 4 && load_u32((const unsigned char *)blob + D3D12XS_PIPELINE_BLOB_HEADER_SIZE) == BLOB_GRAPHICS;
}

HRESULT d3d12_pipeline_blob_check(struct d3d12_device *device, const void *blob, size_t size, uint64_t key_hash, bool graphics,
        const char *argument, const char *method)
{
    const unsigned char *data = blob;
    HRESULT hr;

    if (FAILED(hr = d3d12_pipeline_blob_check_header(device, D3D12XS_PIPELINE_BLOB_MAGIC, blob, size, argument, method)))
        return hr;
    if (d3d12_pipeline_blob_desc_hash(blob, size) != key_hash || size < D3D12XS_PIPELINE_BLOB_HEADER_SIZE + 4
            || load_u32(data + D3D12XS_PIPELINE_BLOB_HEADER_SIZE) != (graphics ? BLOB_GRAPHICS : BLOB_COMPUTE))
        return d3d12xs_fail(E_INVALIDARG, method, "%s was made from another description (its root signature, shaders or state "
                "differ from this one's)", argument);
    return S_OK;
}

/* ---- the payload ---- */

static void put_binding(struct writer *w, const struct d3d12xs_pipeline_binding *b)
{
    put_u32(w, b->source);
    put_u32(w, b->root_index);
    put_u32(w, b->table_offset);
    put_u32(w, b->heap_set);
    put_u32(w, b->table_extent);
    put_u32(w, b->array_size);
    put_u32(w, b->vk_binding);
    put_u32(w, b->vk_type);
    put_u32(w, b->counter);
    put_u32(w, b->address_slot);
    put_u32(w, b->variable_id);
    put_u32(w, b->alias_variable_id);
    put_u32(w, b->view_stride);
    put_u32(w, b->view_offsets);
    put_bytes(w, b->register_name, sizeof(b->register_name));
}

static void get_binding(struct reader *r, struct d3d12xs_pipeline_binding *b)
{
    const unsigned char *name;
    b->source = get_u32(r);
    b->root_index = get_u32(r);
    b->table_offset = get_u32(r);
    b->heap_set = get_u32(r);
    b->table_extent = get_u32(r);
    b->array_size = get_u32(r);
    b->vk_binding = get_u32(r);
    b->vk_type = get_u32(r);
    b->counter = get_u32(r);
    b->address_slot = get_u32(r);
    b->variable_id = get_u32(r);
    b->alias_variable_id = get_u32(r);
    b->view_stride = get_u32(r);
    b->view_offsets = get_u32(r);
    if ((name = get_bytes(r, sizeof(b->register_name)))) {
        memcpy(b->register_name, name, sizeof(b->register_name));
        b->register_name[sizeof(b->register_name) - 1] = 0;
    }
}

HRESULT d3d12_pipeline_blob_capture(struct d3d12_pipeline_state *state, const struct d3d12_pipeline_blob_stage *stages,
        uint32_t stage_count, const uint32_t *element_locations, uint32_t element_count, const char *method)
{
    static const unsigned char header[D3D12XS_PIPELINE_BLOB_HEADER_SIZE]; /* written last, over this */
    struct writer w = {0};

    put_bytes(&w, header, sizeof(header));
    put_u32(&w, state->graphics ? BLOB_GRAPHICS : BLOB_COMPUTE);
    put_u32(&w, state->push_set);
    put_u32(&w, state->reads_heaps);
    put_u32(&w, state->indexes_heap);
    put_u32(&w, state->indexes_sampler_heap);
    for (unsigned i = 0; i < 3; i++)
        put_u32(&w, state->local_size[i]);
    put_u32(&w, state->wave_size);
    put_u32(&w, state->ordered_append);
    put_u32(&w, state->no_volatile);
    put_u32(&w, state->descriptor_count);
    put_u64(&w, state->used_root_mask);
    put_u32(&w, state->memory_abi);
    put_u32(&w, state->argument_binding);
    put_u32(&w, state->address_count);
    put_u32(&w, state->address_offset);
    put_u32(&w, state->argument_size);
    put_u32(&w, state->pushed_root_descriptor_count);
    put_u32(&w, state->binding_count);
    for (uint32_t i = 0; i < state->binding_count; i++)
        put_binding(&w, &state->bindings[i]);
    put_words(&w, state->scalar_source, state->scalar_source_word_count);
    put_u32(&w, stage_count);
    for (uint32_t s = 0; s < stage_count; s++) {
        put_u32(&w, stages[s].stage);
        put_bytes(&w, stages[s].entry_point, sizeof(stages[s].entry_point));
        put_words(&w, stages[s].words, stages[s].word_count);
    }
    put_words(&w, element_locations, element_count);
    if (w.failed) {
        free(w.data);
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the pipeline's cached blob");
    }
    d3d12_pipeline_blob_write_header(state->device, D3D12XS_PIPELINE_BLOB_MAGIC, state->key_hash, w.data + sizeof(header),
            w.size - sizeof(header), w.data);
    free(state->cached_blob);
    state->cached_blob = w.data;
    state->cached_blob_size = w.size;
    return S_OK;
}

/* A blob's payload hash is no signature: what recording indexes by (root indices, push-descriptor
 * bindings, the argument buffer's size) must fit the root signature as creation would have made
 * it, or a crafted blob would send recording out of its arrays. NULL when it fits, else why not. */
static const char *contents_misfit(struct d3d12_pipeline_state *state)
{
    const struct d3d12_root_signature *signature = state->root_signature;
    const D3D12_ROOT_SIGNATURE_DESC2 *desc = &signature->desc->Desc_1_2;
    uint32_t descriptors = 0, pushed = 0;

    if (!state->graphics && state->wave_size != 32 && state->wave_size != 64)
        return "its wave size is neither 32 nor 64";
    if (state->graphics && (state->memory_abi || state->address_count))
        return "it is a graphics pipeline reading root arguments through memory";
    if (state->address_count > D3D12XS_MAX_ROOT_PARAMETERS)
        return "it has more root addresses than root parameters";
    for (uint32_t i = 0; i < state->binding_count; i++) {
        const struct d3d12xs_pipeline_binding *b = &state->bindings[i];
        uint32_t expected_binding = UINT32_MAX;
        bool fits;
        switch (b->source) {
        case D3D12XS_BINDING_ROOT_DESCRIPTOR:
            fits = b->root_index < desc->NumParameters;
            if (fits && b->array_size) {
                fits = signature->pushed_root_mask & (1ull << b->root_index);
                expected_binding = b->root_index;
            }
            break;
        case D3D12XS_BINDING_TABLE:
        case D3D12XS_BINDING_ROOT_ADDRESS:
            fits = b->root_index < desc->NumParameters && !b->array_size && b->heap_set < D3D12XS_HEAP_SET_COUNT
                    && (b->source != D3D12XS_BINDING_ROOT_ADDRESS || b->address_slot < state->address_count);
            break;
        case D3D12XS_BINDING_STATIC_SAMPLER:
            fits = b->root_index < signature->static_sampler_bindings && b->array_size == 1;
            expected_binding = D3D12XS_PUSH_BINDING_STATIC_SAMPLERS + b->root_index;
            break;
        case D3D12XS_BINDING_ORDERED_APPEND:
            fits = signature->has_ordered_append_binding && b->array_size == 1;
            expected_binding = D3D12XS_PUSH_BINDING_ORDERED_APPEND;
            break;
        case D3D12XS_BINDING_HEAP_INDEXED:
        case D3D12XS_BINDING_HEAP_SIZE:
            fits = !b->array_size && b->heap_set < D3D12XS_HEAP_SET_COUNT;
            break;
        default:
            fits = false;
            break;
        }
        if (!fits || b->array_size > 1 || (b->array_size && b->vk_binding != expected_binding))
            return "a binding does not fit the root signature";
        descriptors += b->array_size;
        pushed += b->source == D3D12XS_BINDING_ROOT_DESCRIPTOR && b->array_size;
    }
    if (desc->NumParameters < 64 && state->used_root_mask >> desc->NumParameters)
        return "it uses root parameters the root signature lacks";
    if (descriptors != state->descriptor_count || pushed != state->pushed_root_descriptor_count)
        return "its binding counts are not its bindings'";
    /* what creation derives from the root signature alone (graphics pipelines have no argument buffer) */
    if (state->push_set != d3d12_root_signature_push_set(state->root_signature))
        return "its push-descriptor set is not the root signature's";
    if (!state->graphics && (state->argument_binding != D3D12XS_PUSH_BINDING_ARGUMENTS
            || state->address_offset != ((signature->push_constant_size + 15) & ~15u)
            || state->argument_size != (state->address_count ? state->address_offset + 16 * state->address_count
                    : signature->push_constant_size)))
        return "its argument layout is not the root signature's";
    return NULL;
}

void d3d12_pipeline_blob_contents_cleanup(struct d3d12_pipeline_blob_contents *contents)
{
    for (uint32_t s = 0; s < D3D12XS_PIPELINE_BLOB_MAX_STAGES; s++) {
        free(contents->stages[s].words);
        contents->stages[s].words = NULL;
    }
}

HRESULT d3d12_pipeline_blob_load(struct d3d12_pipeline_state *state, const void *blob, size_t size,
        struct d3d12_pipeline_blob_contents *contents, const char *argument, const char *method)
{
    struct reader r = {blob, size, D3D12XS_PIPELINE_BLOB_HEADER_SIZE, false};
    const char *misfit;
    uint32_t *locations;
    size_t count;

    memset(contents, 0, sizeof(*contents));
    get_u32(&r); /* the kind, checked by d3d12_pipeline_blob_check */
    state->push_set = get_u32(&r);
    state->reads_heaps = get_u32(&r);
    state->indexes_heap = get_u32(&r);
    state->indexes_sampler_heap = get_u32(&r);
    for (unsigned i = 0; i < 3; i++)
        state->local_size[i] = get_u32(&r);
    state->wave_size = get_u32(&r);
    state->ordered_append = get_u32(&r);
    state->no_volatile = get_u32(&r);
    state->descriptor_count = get_u32(&r);
    state->used_root_mask = get_u64(&r);
    state->memory_abi = get_u32(&r);
    state->argument_binding = get_u32(&r);
    state->address_count = get_u32(&r);
    state->address_offset = get_u32(&r);
    state->argument_size = get_u32(&r);
    state->pushed_root_descriptor_count = get_u32(&r);
    state->binding_count = get_u32(&r);
    if (!r.failed && state->binding_count) {
        if (state->binding_count > (size - r.offset) / 56 || !(state->bindings = calloc(state->binding_count, sizeof(*state->bindings))))
            r.failed = true;
        for (uint32_t i = 0; i < state->binding_count && !r.failed; i++)
            get_binding(&r, &state->bindings[i]);
    }
    state->scalar_source = get_words(&r, &state->scalar_source_word_count);
    contents->stage_count = get_u32(&r);
    if (contents->stage_count > D3D12XS_PIPELINE_BLOB_MAX_STAGES)
        r.failed = true;
    for (uint32_t s = 0; s < contents->stage_count && !r.failed; s++) {
        const unsigned char *entry;
        contents->stages[s].stage = get_u32(&r);
        if ((entry = get_bytes(&r, sizeof(contents->stages[s].entry_point)))) {
            memcpy(contents->stages[s].entry_point, entry, sizeof(contents->stages[s].entry_point));
            contents->stages[s].entry_point[sizeof(contents->stages[s].entry_point) - 1] = 0;
        }
        contents->stages[s].words = get_words(&r, &contents->stages[s].word_count);
        if (!contents->stages[s].word_count)
            r.failed = true;
    }
    locations = get_words(&r, &count);
    if (count > D3D12_IA_VERTEX_INPUT_STRUCTURE_ELEMENT_COUNT)
        r.failed = true;
    else if (count)
        memcpy(contents->element_locations, locations, count * sizeof(*locations));
    contents->element_count = count;
    free(locations);
    if (r.failed || r.offset != size) {
        d3d12_pipeline_blob_contents_cleanup(contents);
        /* the header's hash held: a blob of a d3d12xs that wrote something else under this format */
        return d3d12xs_fail(E_INVALIDARG, method, "%s's contents are not readable (%zu bytes)", argument, size);
    }
    if ((misfit = contents_misfit(state))) {
        d3d12_pipeline_blob_contents_cleanup(contents);
        return d3d12xs_fail(E_INVALIDARG, method, "%s does not fit its description: %s", argument, misfit);
    }
    /* The device's choice (D3D12XS_DEBUG or EnableDebugLayer), as for SPIR-V from the front end. */
    for (uint32_t s = 0; s < contents->stage_count && d3d12xs_config_validates_spirv(&state->device->config); s++) {
        char error[512];
        if (FAILED(d3d12xs_spirv_validate(contents->stages[s].words, contents->stages[s].word_count, true, error, sizeof(error)))) {
            d3d12_pipeline_blob_contents_cleanup(contents);
            return d3d12xs_fail(E_INVALIDARG, method, "%s's SPIR-V of stage 0x%x: %s", argument,
                    contents->stages[s].stage, error);
        }
    }
    if (!(state->cached_blob = malloc(size))) {
        d3d12_pipeline_blob_contents_cleanup(contents);
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the pipeline's cached blob");
    }
    memcpy(state->cached_blob, blob, size);
    state->cached_blob_size = size;
    return S_OK;
}
