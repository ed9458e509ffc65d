/* ID3D12PipelineState (compute): the shader's registers are matched against the root
 * signature, the SPIR-V is remapped onto the root signature's layout (every pushed descriptor at
 * its fixed binding, root constants in the push-constant block), and its VkPipelines are built
 * (pipeline_variant.c). A description identical to a live pipeline's finds that one in the
 * device's table of live pipelines, and the new COM object shares it. */
#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "pipelines/pipeline_state.h"
#include "pipelines/pipeline_blob.h"
#include "common/blob.h"
#include "common/hash.h"
#include "descriptors/descriptor_buffer.h"
#include "memory/va_map.h"
#include "sync/scheduler.h"
#include "spirv/spirv.h"
#include "spirv/spirv_passes.h"
#include "trace/trace.h"
#include "frontends/dxbc_translate.h"
#include "generated/d3d12_stubs.h"

#define METHOD(name) "ID3D12PipelineState::" #name

static struct d3d12_pipeline_state_object *impl_from_ID3D12PipelineState(ID3D12PipelineState *iface)
{
    return D3D12XS_CONTAINING(iface, struct d3d12_pipeline_state_object, ID3D12PipelineState_iface);
}

static HRESULT STDMETHODCALLTYPE d3d12_pipeline_state_QueryInterface(ID3D12PipelineState *iface, REFIID riid, void **object)
{
    static const IID *const iids[] = {&IID_ID3D12PipelineState, &IID_ID3D12Pageable, &IID_ID3D12DeviceChild, &IID_ID3D12Object, &IID_IUnknown, NULL};
    return d3d12xs_query_interface(iface, METHOD(QueryInterface), iids, riid, object);
}

D3D12XS_DEVICE_CHILD_METHODS(d3d12_pipeline_state, ID3D12PipelineState, impl_from_ID3D12PipelineState, "ID3D12PipelineState")

/* ---- the device's table of live pipelines ----
 * Creating a pipeline of a description identical to a live one's finds that one: a hash of
 * everything the pipeline is made from (the root signature's serialized blob, or the shader's own
 * RTS0 part; the shader bytecode; flags; the CreateComputePipelineStateX limits), then a full
 * compare of the same (struct d3d12_pipeline_key: graphics pipelines too). Entries
 * are the live pipelines themselves, chained per bucket; one lock guards the buckets and every
 * pipeline's share_count, so a pipeline found is never one whose last object is going. */
struct d3d12xs_pipeline_table {
    pthread_mutex_t lock;
    struct d3d12_pipeline_state **buckets;
    size_t bucket_count; /* a power of two */
    size_t count;
    uint64_t vk_pipelines_created, identical_found;
};

void d3d12_pipeline_key_hash(struct d3d12_pipeline_key *key)
{
    /* graphics and compute keys start apart: their bytes mean different things */
    uint64_t hash = d3d12xs_hash_bytes(key->graphics ? 0x13198a2e03707344ull : 0x243f6a8885a308d3ull, key->bytes, key->size);
    if (key->signature)
        hash = d3d12xs_hash_bytes(hash, key->signature->blob, key->signature->blob_size);
    hash = d3d12xs_hash_bytes(hash, &key->flags, sizeof(key->flags));
    if (key->limits)
        hash = d3d12xs_hash_bytes(hash, key->limits, sizeof(*key->limits));
    key->hash = hash;
}

bool d3d12_pipeline_state_matches(const struct d3d12_pipeline_state *state, const struct d3d12_pipeline_key *key)
{
    if (state->key_hash != key->hash || state->bytecode_size != key->size || state->flags != key->flags
            || state->embedded_root_signature != !key->signature || state->has_shader_limits != !!key->limits
            || !!state->graphics != key->graphics)
        return false;
    if (key->limits && memcmp(&state->shader_limits, key->limits, sizeof(*key->limits)))
        return false;
    if (key->signature && state->root_signature != key->signature && (state->root_signature->blob_size != key->signature->blob_size
            || memcmp(state->root_signature->blob, key->signature->blob, key->signature->blob_size)))
        return false;
    return !memcmp(state->bytecode, key->bytes, key->size);
}

HRESULT d3d12_pipeline_state_set_key(struct d3d12_pipeline_state *state, const struct d3d12_pipeline_key *key, const char *method)
{
    if (!(state->bytecode = malloc(key->size ? key->size : 1)))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the pipeline state");
    memcpy(state->bytecode, key->bytes, key->size);
    state->bytecode_size = key->size;
    state->key_hash = key->hash;
    state->embedded_root_signature = !key->signature;
    state->flags = key->flags;
    if ((state->has_shader_limits = key->limits != NULL))
        state->shader_limits = *key->limits;
    return S_OK;
}

HRESULT d3d12xs_pipeline_table_init(struct d3d12_device *device)
{
    struct d3d12xs_pipeline_table *table;

    if (!(table = calloc(1, sizeof(*table))) || !(table->buckets = calloc(64, sizeof(*table->buckets)))) {
        free(table);
        return d3d12xs_fail(E_OUTOFMEMORY, "D3D12CreateDevice", "cannot allocate the table of live pipelines");
    }
    table->bucket_count = 64;
    pthread_mutex_init(&table->lock, NULL);
    device->pipeline_table = table;
    return S_OK;
}

void d3d12xs_pipeline_table_cleanup(struct d3d12_device *device)
{
    struct d3d12xs_pipeline_table *table = device->pipeline_table;

    if (!table)
        return;
    /* Every pipeline state holds the device: none is left. */
    assert(!table->count);
    pthread_mutex_destroy(&table->lock);
    free(table->buckets);
    free(table);
    device->pipeline_table = NULL;
}

void d3d12xs_pipeline_table_statistics(struct d3d12_device *device, D3D12XS_PIPELINE_STATISTICS *statistics)
{
    struct d3d12xs_pipeline_table *table = device->pipeline_table;

    pthread_mutex_lock(&table->lock);
    statistics->VkPipelinesCreated = table->vk_pipelines_created + atomic_load(&device->indirect_variants_created);
    statistics->LivePipelines = table->count;
    statistics->IdenticalPipelinesFound = table->identical_found;
    pthread_mutex_unlock(&table->lock);
}

static struct d3d12_pipeline_state *table_find_locked(struct d3d12xs_pipeline_table *table, const struct d3d12_pipeline_key *key)
{
    for (struct d3d12_pipeline_state *state = table->buckets[key->hash & (table->bucket_count - 1)]; state; state = state->next_in_bucket)
        if (d3d12_pipeline_state_matches(state, key))
            return state;
    return NULL;
}

struct d3d12_pipeline_state *d3d12_pipeline_table_find(struct d3d12_device *device, const struct d3d12_pipeline_key *key)
{
    struct d3d12xs_pipeline_table *table = device->pipeline_table;
    struct d3d12_pipeline_state *state;

    pthread_mutex_lock(&table->lock);
    if ((state = table_find_locked(table, key))) {
        state->share_count++;
        table->identical_found++;
    }
    pthread_mutex_unlock(&table->lock);
    return state;
}

static void table_grow_locked(struct d3d12xs_pipeline_table *table)
{
    size_t count = table->bucket_count * 2;
    struct d3d12_pipeline_state **buckets = calloc(count, sizeof(*buckets));

    if (!buckets)
        return; /* longer chains, still right */
    for (size_t i = 0; i < table->bucket_count; i++)
        for (struct d3d12_pipeline_state *state = table->buckets[i], *next; state; state = next) {
            next = state->next_in_bucket;
            state->next_in_bucket = buckets[state->key_hash & (count - 1)];
            buckets[state->key_hash & (count - 1)] = state;
        }
    free(table->buckets);
    table->buckets = buckets;
    table->bucket_count = count;
}

/* table_read_mask and table_reach from the bindings (every creation path ends in the table). */
static void summarize_tables(struct d3d12_pipeline_state *state)
{
    const struct d3d12_root_signature *signature = state->root_signature;

    state->table_read_mask = 0;
    memset(state->table_reach, 0, sizeof(state->table_reach));
    for (uint64_t used = state->used_root_mask; used; used &= used - 1) {
        unsigned i = (unsigned)__builtin_ctzll(used);
        if (signature && i < signature->parameter_count && signature->parameter_types[i] == D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE)
            state->table_read_mask |= 1ull << i;
    }
    for (uint32_t b = 0; b < state->binding_count; b++) {
        const struct d3d12xs_pipeline_binding *binding = &state->bindings[b];
        if (binding->source == D3D12XS_BINDING_TABLE && binding->root_index < D3D12XS_MAX_ROOT_PARAMETERS
                && binding->table_offset + binding->table_extent > state->table_reach[binding->root_index])
            state->table_reach[binding->root_index] = binding->table_offset + binding->table_extent;
    }
}

struct d3d12_pipeline_state *d3d12_pipeline_table_insert(struct d3d12_device *device, struct d3d12_pipeline_state *made,
        const struct d3d12_pipeline_key *key, unsigned vk_pipeline_count)
{
    struct d3d12xs_pipeline_table *table = device->pipeline_table;
    struct d3d12_pipeline_state *state;

    summarize_tables(made);
    pthread_mutex_lock(&table->lock);
    table->vk_pipelines_created += vk_pipeline_count;
    if ((state = table_find_locked(table, key))) {
        state->share_count++;
        table->identical_found++;
    } else {
        if (table->count >= table->bucket_count)
            table_grow_locked(table);
        state = made;
        state->next_in_bucket = table->buckets[key->hash & (table->bucket_count - 1)];
        table->buckets[key->hash & (table->bucket_count - 1)] = state;
        table->count++;
    }
    pthread_mutex_unlock(&table->lock);
    return state;
}

size_t d3d12_pipeline_table_collect(struct d3d12_device *device, const struct d3d12_root_signature *root_signature, bool graphics,
        struct d3d12_pipeline_state ***out)
{
    struct d3d12xs_pipeline_table *table = device->pipeline_table;
    struct d3d12_pipeline_state **found = NULL;
    size_t count = 0, capacity = 0;

    pthread_mutex_lock(&table->lock);
    for (size_t i = 0; i < table->bucket_count; i++)
        for (struct d3d12_pipeline_state *state = table->buckets[i]; state; state = state->next_in_bucket) {
            if ((root_signature && state->root_signature != root_signature) || !state->graphics != !graphics
                    || !d3d12xs_array_reserve((void **)&found, &capacity, count + 1, sizeof(*found)))
                continue;
            state->share_count++;
            found[count++] = state;
        }
    pthread_mutex_unlock(&table->lock);
    *out = found;
    return count;
}

void d3d12_pipeline_state_add_share(struct d3d12_pipeline_state *state)
{
    struct d3d12xs_pipeline_table *table = state->device->pipeline_table;

    pthread_mutex_lock(&table->lock);
    state->share_count++;
    pthread_mutex_unlock(&table->lock);
}

static void destroy_pipeline_state(struct d3d12_device *device, void *object)
{
    struct d3d12_pipeline_state *state = object;
    if (state->graphics)
        state->destroy_graphics(device, state->graphics);
    if (!state->variants[0]) /* a graphics pipeline: its one VkPipeline is vk_pipeline */
        vkDestroyPipeline(device->vk_device, state->vk_pipeline, NULL);
    d3d12_pipeline_state_destroy_variants(device, state);
    d3d12_pipeline_state_destroy_indirect_variants(device, state);
    if (state->layout)
        d3d12xs_root_layout_release(device, state->layout);
    free(state->bindings);
    free(state->bytecode);
    free(state->cached_blob);
    free(state);
}

/* One pipeline state object (or library entry) lets go of the pipeline: the last takes it out of the table. */
void d3d12_pipeline_state_release_share(struct d3d12_pipeline_state *state)
{
    struct d3d12xs_pipeline_table *table = state->device->pipeline_table;
    bool last;

    pthread_mutex_lock(&table->lock);
    if ((last = !--state->share_count)) {
        struct d3d12_pipeline_state **link = &table->buckets[state->key_hash & (table->bucket_count - 1)];
        while (*link && *link != state)
            link = &(*link)->next_in_bucket;
        if (*link) {
            *link = state->next_in_bucket;
            table->count--;
        }
    }
    pthread_mutex_unlock(&table->lock);
    if (!last)
        return;
    d3d12_root_signature_release_private_ref(state->root_signature);
    /* Recorded lists may still run the pipeline: it goes once their work is done. */
    d3d12_scheduler_retire(state->device, destroy_pipeline_state, state);
}

static ULONG STDMETHODCALLTYPE d3d12_pipeline_state_Release(ID3D12PipelineState *iface)
{
    struct d3d12_pipeline_state_object *object = impl_from_ID3D12PipelineState(iface);
    unsigned refcount = d3d12xs_object_release(&object->object);
    if (!refcount && !d3d12xs_exit_torn_down()) {
        /* first: the object's reference keeps the device while the pipeline is retired */
        d3d12_pipeline_state_release_share(object->pipeline);
        d3d12xs_object_cleanup(&object->object);
        free(object);
    }
    return refcount;
}

static HRESULT STDMETHODCALLTYPE d3d12_pipeline_state_GetCachedBlob(ID3D12PipelineState *iface, ID3DBlob **blob)
{
    const struct d3d12_pipeline_state *pipeline = impl_from_ID3D12PipelineState(iface)->pipeline;
    HRESULT hr;

    if (!blob)
        return d3d12xs_fail(E_POINTER, METHOD(GetCachedBlob), "ppBlob is NULL (must receive the blob)");
    *blob = NULL;
    /* made with the pipeline (pipeline_blob.c): a copy of it */
    if (FAILED(hr = d3d12xs_blob_create(pipeline->cached_blob, pipeline->cached_blob_size, blob)))
        return d3d12xs_fail(hr, METHOD(GetCachedBlob), "cannot allocate the blob (%zu bytes)", pipeline->cached_blob_size);
    return S_OK;
}

#if defined(__clang__)
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Woverride-init"
#endif

const ID3D12PipelineStateVtbl d3d12_pipeline_state_vtbl = {
    D3D12XS_STUB_VTBL_ID3D12PipelineState,
    .QueryInterface = d3d12_pipeline_state_QueryInterface,
    D3D12XS_DEVICE_CHILD_VTBL_ENTRIES(d3d12_pipeline_state),
    .Release = d3d12_pipeline_state_Release,
    .GetCachedBlob = d3d12_pipeline_state_GetCachedBlob,
};


static const char register_letters[] = "btusu";

static D3D12_DESCRIPTOR_RANGE_TYPE range_type_of(enum d3d12xs_register_class register_class)
{
    switch (register_class) {
    case D3D12XS_REGISTER_CBV: return D3D12_DESCRIPTOR_RANGE_TYPE_CBV;
    case D3D12XS_REGISTER_SRV: return D3D12_DESCRIPTOR_RANGE_TYPE_SRV;
    case D3D12XS_REGISTER_UAV:
    case D3D12XS_REGISTER_UAV_COUNTER: return D3D12_DESCRIPTOR_RANGE_TYPE_UAV;
    default: return D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER;
    }
}

static D3D12_ROOT_PARAMETER_TYPE root_descriptor_type_of(enum d3d12xs_register_class register_class)
{
    switch (register_class) {
    case D3D12XS_REGISTER_CBV: return D3D12_ROOT_PARAMETER_TYPE_CBV;
    case D3D12XS_REGISTER_SRV: return D3D12_ROOT_PARAMETER_TYPE_SRV;
    default: return D3D12_ROOT_PARAMETER_TYPE_UAV;
    }
}

/* Whether a root parameter or static sampler of visibility reaches stage (compute sees them all). */
static bool visible_to(D3D12_SHADER_VISIBILITY visibility, VkShaderStageFlagBits stage)
{
    static const VkShaderStageFlagBits stages[] = {0, VK_SHADER_STAGE_VERTEX_BIT, VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT,
            VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, VK_SHADER_STAGE_GEOMETRY_BIT, VK_SHADER_STAGE_FRAGMENT_BIT};
    return stage == VK_SHADER_STAGE_COMPUTE_BIT || visibility == D3D12_SHADER_VISIBILITY_ALL
            || ((unsigned)visibility < D3D12XS_ARRAY_SIZE(stages) && stages[visibility] == stage);
}

/* Finds the root-signature entry that feeds one shader register of a stage: among the root
 * parameters and static samplers visible to it (compute ignores visibility). */
static HRESULT match_binding(const struct d3d12_root_signature *signature, const struct d3d12xs_shader_binding *binding,
        VkShaderStageFlagBits stage, struct d3d12xs_pipeline_binding *out, struct d3d12xs_binding_target *target, uint64_t *used_root_mask,
        const char *method)
{
    const D3D12_ROOT_SIGNATURE_DESC2 *desc = &signature->desc->Desc_1_2;
    uint32_t count = binding->array_size ? binding->array_size : 1;
    uint32_t reg = binding->register_index, space = binding->space;

    out->counter = binding->register_class == D3D12XS_REGISTER_UAV_COUNTER;
    snprintf(out->register_name, sizeof(out->register_name), "%c%u%s, space%u", register_letters[binding->register_class], reg,
            out->counter ? " counter" : "", space);
    out->array_size = count;
    out->vk_type = binding->descriptor_type;
    if (binding->register_class == D3D12XS_REGISTER_UAV && space == D3D12XS_ORDERED_APPEND_SPACE && reg == D3D12XS_ORDERED_APPEND_REGISTER) {
        /* d3d12xs_ordered_append.hlsli's state: DispatchX binds it, not the root signature. */
        if (count != 1 || binding->descriptor_type != VK_DESCRIPTOR_TYPE_STORAGE_BUFFER)
            return d3d12xs_fail(E_INVALIDARG, method, "shader register %s is reserved for d3d12xs_ordered_append.hlsli's RWByteAddressBuffer",
                    out->register_name);
        out->source = D3D12XS_BINDING_ORDERED_APPEND;
        return S_OK;
    }

    if (binding->register_class == D3D12XS_REGISTER_SAMPLER) {
        for (UINT i = 0; i < desc->NumStaticSamplers; i++) {
            if (desc->pStaticSamplers[i].ShaderRegister == reg && desc->pStaticSamplers[i].RegisterSpace == space && count == 1
                    && visible_to(desc->pStaticSamplers[i].ShaderVisibility, stage)) {
                out->source = D3D12XS_BINDING_STATIC_SAMPLER;
                out->root_index = i;
                return S_OK;
            }
        }
    }
    for (UINT i = 0; i < desc->NumParameters; i++) {
        const D3D12_ROOT_PARAMETER1 *parameter = &desc->pParameters[i];
        if (!visible_to(parameter->ShaderVisibility, stage))
            continue;
        if (parameter->ParameterType == D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS) {
            if (binding->register_class != D3D12XS_REGISTER_CBV || parameter->Constants.ShaderRegister != reg
                    || parameter->Constants.RegisterSpace != space)
                continue;
            /* DXBC declares whole rows of four values: the root constants may end inside the last */
            if (binding->block_size > (binding->in_rows ? (parameter->Constants.Num32BitValues * 4 + 15) & ~15u
                    : parameter->Constants.Num32BitValues * 4))
                return d3d12xs_fail(E_INVALIDARG, method, "shader cbuffer %s reads %u bytes but root parameter %u holds %u constants",
                        out->register_name, binding->block_size, i, parameter->Constants.Num32BitValues);
            target->push_constant = true;
            target->push_offset = signature->constant_offsets[i];
            out->source = D3D12XS_BINDING_ROOT_DESCRIPTOR; /* unused: constants are not descriptors */
            out->root_index = i;
            out->array_size = 0;
            *used_root_mask |= 1ull << i;
            return S_OK;
        }
        if (parameter->ParameterType == D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE) {
            uint32_t offset = 0;
            for (UINT r = 0; r < parameter->DescriptorTable.NumDescriptorRanges; r++) {
                const D3D12_DESCRIPTOR_RANGE1 *range = &parameter->DescriptorTable.pDescriptorRanges[r];
                if (range->OffsetInDescriptorsFromTableStart != D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND)
                    offset = range->OffsetInDescriptorsFromTableStart;
                /* An unbounded shader array (count 0) may sit in any range holding its first register:
                 * what it reads past the range is the application's to keep inside the heap. */
                if (range->RangeType == range_type_of(binding->register_class) && range->RegisterSpace == space
                        && reg >= range->BaseShaderRegister
                        && (range->NumDescriptors == UINT32_MAX || reg - range->BaseShaderRegister + (uint64_t)(binding->array_size ? count : 1)
                                <= range->NumDescriptors)) {
                    out->source = D3D12XS_BINDING_TABLE;
                    out->root_index = i;
                    out->table_offset = offset + (reg - range->BaseShaderRegister);
                    out->heap_set = binding->register_class == D3D12XS_REGISTER_SAMPLER ? D3D12XS_HEAP_SET_SAMPLERS
                            : out->counter ? D3D12XS_HEAP_SET_COUNTERS : D3D12XS_HEAP_SET_RESOURCES;
                    out->table_extent = binding->array_size ? count : 1;
                    out->array_size = 0; /* no push descriptor: the shader reads the heap */
                    *used_root_mask |= 1ull << i;
                    return S_OK;
                }
                offset += range->NumDescriptors == UINT32_MAX ? 0 : range->NumDescriptors;
            }
            continue;
        }
        if (binding->register_class != D3D12XS_REGISTER_SAMPLER && parameter->ParameterType == root_descriptor_type_of(binding->register_class)
                && parameter->Descriptor.ShaderRegister == reg && parameter->Descriptor.RegisterSpace == space) {
            if (out->counter)
                return d3d12xs_fail(E_INVALIDARG, method, "shader register %s uses the UAV's counter; root UAVs have no counters (use a descriptor table)",
                        out->register_name);
            if (count != 1 || (binding->descriptor_type != VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER && binding->descriptor_type != VK_DESCRIPTOR_TYPE_STORAGE_BUFFER))
                return d3d12xs_fail(E_INVALIDARG, method, "shader register %s is a typed buffer or an array; root descriptors hold only raw, structured or constant buffers",
                        out->register_name);
            out->source = D3D12XS_BINDING_ROOT_DESCRIPTOR;
            out->root_index = i;
            *used_root_mask |= 1ull << i;
            return S_OK;
        }
    }
    if (!binding->array_size)
        return d3d12xs_fail(E_INVALIDARG, method, "shader register %s is an unbounded array outside every descriptor table of the root signature",
                out->register_name);
    return d3d12xs_fail(E_INVALIDARG, method, "shader register %s%s is not in the root signature", out->register_name,
            count > 1 ? " (with its array)" : "");
}

/* The registers of include/d3d12xs_heap.hlsli: the heaps (unbounded arrays of raw buffers,
 * textures, storage images or samplers, read from the bound heap's memory like a table starting
 * at its first descriptor) and the CBV_SRV_UAV heap's size (a cbuffer that becomes the push
 * constant after the table starts). */
static HRESULT match_heap_binding(struct d3d12_pipeline_state *state, const struct d3d12xs_shader_binding *binding,
        struct d3d12xs_pipeline_binding *out, const char *method)
{
    const D3D12_ROOT_SIGNATURE_FLAGS flags = state->root_signature->desc->Desc_1_2.Flags;
    const bool sampler = binding->register_class == D3D12XS_REGISTER_SAMPLER;
    /* The raw heap is an unbounded array; texture and sampler arrays may have any size, since
     * glslang sizes an unbounded array indexed only by constants to those constants. */
    const bool heap_view = (binding->register_class == D3D12XS_REGISTER_UAV && binding->descriptor_type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
                    && binding->array_size == 0)
            || (binding->register_class == D3D12XS_REGISTER_UAV && binding->descriptor_type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE)
            || (binding->register_class == D3D12XS_REGISTER_SRV && binding->descriptor_type == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE)
            || (sampler && binding->descriptor_type == VK_DESCRIPTOR_TYPE_SAMPLER);

    snprintf(out->register_name, sizeof(out->register_name), "%c%u, space%u", register_letters[binding->register_class],
            binding->register_index, binding->space);
    out->vk_type = binding->descriptor_type;
    out->array_size = 0; /* no push descriptor */
    if (sampler && !(flags & D3D12_ROOT_SIGNATURE_FLAG_SAMPLER_HEAP_DIRECTLY_INDEXED))
        return d3d12xs_fail(E_INVALIDARG, method, "the shader indexes the sampler heap directly (" D3D12XS_HEAP_INCLUDE ", register %s) "
                "but the root signature lacks D3D12_ROOT_SIGNATURE_FLAG_SAMPLER_HEAP_DIRECTLY_INDEXED", out->register_name);
    if (!sampler && !(flags & D3D12_ROOT_SIGNATURE_FLAG_CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED))
        return d3d12xs_fail(E_INVALIDARG, method, "the shader indexes the descriptor heap directly (" D3D12XS_HEAP_INCLUDE ", register %s) "
                "but the root signature lacks D3D12_ROOT_SIGNATURE_FLAG_CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED", out->register_name);
    if (heap_view) {
        out->source = D3D12XS_BINDING_HEAP_INDEXED;
        out->heap_set = sampler ? D3D12XS_HEAP_SET_SAMPLERS : D3D12XS_HEAP_SET_RESOURCES;
        return S_OK;
    }
    if (binding->register_class == D3D12XS_REGISTER_CBV && binding->descriptor_type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
            && binding->array_size == 1 && binding->register_index == D3D12XS_HEAP_REGISTER) {
        out->source = D3D12XS_BINDING_HEAP_SIZE;
        return S_OK;
    }
    return d3d12xs_fail(E_INVALIDARG, method, "shader register %s is reserved for " D3D12XS_HEAP_INCLUDE " and declared otherwise here",
            out->register_name);
}

/* SPIR-V capabilities that Vulkan only allows with a device feature (the SPIR-V environment
 * appendix of the Vulkan spec): dynamic and non-uniform indexing of descriptor arrays. A module
 * declaring one without the feature is invalid (VUID-VkShaderModuleCreateInfo-pCode-01091), so
 * such a pipeline is refused with E_NOTIMPL. HLSL makes these from arrays of resources indexed
 * with a non-constant (e.g. RWBuffer<uint> outputs[4]; outputs[which][i] = ...). */
struct capability_feature {
    uint32_t capability;
    const char *capability_name, *feature_name;
    bool vulkan12;   /* member of VkPhysicalDeviceVulkan12Features, else VkPhysicalDeviceFeatures */
    size_t offset;   /* of the VkBool32 in that struct */
};

#define CORE_FEATURE(cap, feature) \
    {SpvCapability##cap, #cap, #feature, false, offsetof(VkPhysicalDeviceFeatures, feature)}
#define V12_FEATURE(cap, feature) \
    {SpvCapability##cap, #cap, #feature, true, offsetof(VkPhysicalDeviceVulkan12Features, feature)}
static const struct capability_feature capability_features[] = {
    CORE_FEATURE(UniformBufferArrayDynamicIndexing, shaderUniformBufferArrayDynamicIndexing),
    CORE_FEATURE(SampledImageArrayDynamicIndexing, shaderSampledImageArrayDynamicIndexing),
    CORE_FEATURE(StorageBufferArrayDynamicIndexing, shaderStorageBufferArrayDynamicIndexing),
    CORE_FEATURE(StorageImageArrayDynamicIndexing, shaderStorageImageArrayDynamicIndexing),
    V12_FEATURE(InputAttachmentArrayDynamicIndexing, shaderInputAttachmentArrayDynamicIndexing),
    V12_FEATURE(UniformTexelBufferArrayDynamicIndexing, shaderUniformTexelBufferArrayDynamicIndexing),
    V12_FEATURE(StorageTexelBufferArrayDynamicIndexing, shaderStorageTexelBufferArrayDynamicIndexing),
    V12_FEATURE(UniformBufferArrayNonUniformIndexing, shaderUniformBufferArrayNonUniformIndexing),
    V12_FEATURE(SampledImageArrayNonUniformIndexing, shaderSampledImageArrayNonUniformIndexing),
    V12_FEATURE(StorageBufferArrayNonUniformIndexing, shaderStorageBufferArrayNonUniformIndexing),
    V12_FEATURE(StorageImageArrayNonUniformIndexing, shaderStorageImageArrayNonUniformIndexing),
    V12_FEATURE(InputAttachmentArrayNonUniformIndexing, shaderInputAttachmentArrayNonUniformIndexing),
    V12_FEATURE(UniformTexelBufferArrayNonUniformIndexing, shaderUniformTexelBufferArrayNonUniformIndexing),
    V12_FEATURE(StorageTexelBufferArrayNonUniformIndexing, shaderStorageTexelBufferArrayNonUniformIndexing),
};
#undef CORE_FEATURE
#undef V12_FEATURE

static const struct capability_feature *find_capability_feature(uint32_t capability)
{
    for (size_t i = 0; i < D3D12XS_ARRAY_SIZE(capability_features); i++)
        if (capability_features[i].capability == capability)
            return &capability_features[i];
    return NULL;
}

/* The device enables every feature it offers (device/vk_device_create.c, device/vk_features.c), so offered = enabled here. */
const char *d3d12xs_missing_capability_feature(struct d3d12_device *device, const struct d3d12xs_shader_info *info,
        const char **capability_name)
{
    VkPhysicalDeviceVulkan12Features features12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceFeatures2 features = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &features12};
    bool queried = false;

    for (uint32_t i = 0; i < info->capability_count; i++) {
        const struct capability_feature *entry = find_capability_feature(info->capabilities[i]);
        VkBool32 offered;
        if (!entry)
            continue;
        if (!queried) {
            vkGetPhysicalDeviceFeatures2(device->vk_physical_device, &features);
            queried = true;
        }
        memcpy(&offered, (const char *)(entry->vulkan12 ? (const void *)&features12 : (const void *)&features.features)
                + entry->offset, sizeof(offered));
        if (!offered) {
            if (capability_name)
                *capability_name = entry->capability_name;
            return entry->feature_name;
        }
    }
    return NULL;
}

/* Variables outside the layout (tables, root constants and addresses, the heap's memory marker)
 * are rewritten away by later passes; their binding numbers need only differ from the layout's. */
#define REWRITTEN_BINDING 4096u

/* The binding of a shader register in the root signature's layout (root_signature.h), or
 * E_NOTIMPL where the layout had no room for it. */
static HRESULT layout_binding(const struct d3d12_pipeline_state *state, struct d3d12xs_pipeline_binding *binding, uint32_t index,
        const char *method)
{
    const struct d3d12_root_signature *signature = state->root_signature;
    bool fits = true;

    binding->vk_binding = REWRITTEN_BINDING + index;
    if (!binding->array_size)
        return S_OK;
    switch (binding->source) {
    case D3D12XS_BINDING_ROOT_DESCRIPTOR:
        fits = signature->pushed_root_mask & (1ull << binding->root_index);
        binding->vk_binding = binding->root_index;
        break;
    case D3D12XS_BINDING_STATIC_SAMPLER:
        fits = binding->root_index < signature->static_sampler_bindings;
        binding->vk_binding = D3D12XS_PUSH_BINDING_STATIC_SAMPLERS + binding->root_index;
        break;
    case D3D12XS_BINDING_ORDERED_APPEND:
        fits = signature->has_ordered_append_binding;
        binding->vk_binding = D3D12XS_PUSH_BINDING_ORDERED_APPEND;
        break;
    default:
        break;
    }
    if (!fits)
        return d3d12xs_fail(E_NOTIMPL, method, "shader register %s: pDesc->pRootSignature's layout has no room for it "
                "(its push descriptors hold %u on this device, filled in the order of docs/descriptors.md)",
                binding->register_name, state->device->push_descriptor_limit);
    return S_OK;
}

/* The memory-based ABI routes root descriptors through memory where the device can reach
 * buffers by address; elsewhere they stay push descriptors (docs/descriptors.md). */
static bool root_descriptors_through_memory(const struct d3d12_pipeline_state *state)
{
    return state->root_signature->memory_abi && state->device->buffer_device_address
            && state->device->has_shader_int64;
}

/* The passes of pipeline creation over the shader's module, in order: bindings to where the
 * root signature puts them, then the memory-based rewrites, then what the device needs. */
static HRESULT run_pipeline_passes(struct d3d12_pipeline_state *state, struct d3d12xs_spirv_module *module,
        const struct d3d12xs_shader_info *info, const struct d3d12xs_binding_target *targets, const uint32_t *root_variables,
        const char *argument, const char *method)
{
    struct d3d12_device *device = state->device;
    const struct d3d12xs_spirv_remap_args remap = {info, targets};
    const struct d3d12xs_spirv_memory_abi_args memory_abi = {state->push_set, state->argument_binding};
    const struct d3d12xs_spirv_root_pointers_args root_pointers = {root_variables, state->address_count, state->push_set, state->argument_binding,
            state->address_offset, D3D12XS_VA_TABLE_ZERO_OFFSET, D3D12XS_VA_TABLE_SCRATCH_OFFSET, NULL};
    const struct d3d12xs_spirv_float_controls_args float_controls = {device->preserves_nan32, device->preserves_nan64};
    const struct d3d12xs_spirv_compute_derivatives_args derivatives = {device->compute_derivative_quads,
            device->compute_derivative_linear};
    char error[512];
    HRESULT hr;

    if (FAILED(hr = d3d12xs_spirv_pass_remap(module, &remap, error, sizeof(error))))
        return d3d12xs_fail(hr, method, "%s: %s", argument, error);
    if (state->memory_abi && FAILED(hr = d3d12xs_spirv_pass_memory_abi(module, &memory_abi, error, sizeof(error))))
        return d3d12xs_fail(hr, method, "%s: root constants through memory: %s", argument, error);
    if (state->address_count && FAILED(hr = d3d12xs_spirv_pass_root_pointers(module, &root_pointers, error, sizeof(error))))
        return d3d12xs_fail(hr, method, "%s: root descriptors through memory: %s", argument, error);
    if (FAILED(hr = d3d12xs_spirv_pass_float_controls(module, &float_controls, error, sizeof(error))))
        return d3d12xs_fail(hr, method, "%s: cannot add NaN preservation to the SPIR-V", argument);
    if (info->stage == VK_SHADER_STAGE_COMPUTE_BIT && FAILED(hr = d3d12xs_spirv_pass_compute_derivatives(module, &derivatives, error, sizeof(error))))
        return d3d12xs_fail(hr, method, "%s: %s", argument, error);
    return S_OK;
}

/* A root raw buffer that D3DCompile also reads as uvec4s, with room for its view offset: the
 * SCALAR variant will start from the SPIR-V as it is before the view offsets. */
static HRESULT keep_scalar_source(struct d3d12_pipeline_state *state, const struct d3d12xs_spirv_module *module, const char *argument,
        const char *method)
{
    HRESULT hr;
    for (uint32_t i = 0; i < state->binding_count; i++) {
        const struct d3d12xs_pipeline_binding *binding = &state->bindings[i];
        if (binding->source != D3D12XS_BINDING_ROOT_DESCRIPTOR || !binding->alias_variable_id
                || state->root_signature->root_view_offsets[binding->root_index] == UINT32_MAX)
            continue;
        if (FAILED(hr = d3d12xs_spirv_module_emit(module, &state->scalar_source, &state->scalar_source_word_count)))
            return d3d12xs_fail(hr, method, "%s: cannot keep the SPIR-V of the scalar variant", argument);
        return S_OK;
    }
    return S_OK;
}

/* DXBC cbuffers bound to root constants: exactly their root constants, not FXC's whole rows
 * (which would overlap the push constants after them). */
static HRESULT dxbc_root_constants(struct d3d12_pipeline_state *state, struct d3d12xs_spirv_module *module,
        struct d3d12xs_shader_info *info, const struct d3d12xs_binding_target *targets, const char *argument, const char *method)
{
    uint32_t *variables, *counts, count = 0;
    char error[512];
    HRESULT hr;

    if (!(variables = calloc(info->binding_count + 1, sizeof(*variables))) || !(counts = calloc(info->binding_count + 1, sizeof(*counts)))) {
        free(variables);
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the root constants' list");
    }
    for (uint32_t i = 0; i < info->binding_count; i++) {
        if (!targets[i].push_constant)
            continue;
        variables[count] = info->bindings[i].variable_id;
        counts[count++] = state->root_signature->constant_counts[state->bindings[i].root_index];
        info->bindings[i].block_size = 4 * state->root_signature->constant_counts[state->bindings[i].root_index];
    }
    {
        const struct d3d12xs_spirv_dxbc_constants_args args = {variables, counts, count};
        if (FAILED(hr = d3d12xs_spirv_pass_dxbc_constants(module, &args, error, sizeof(error))))
            d3d12xs_fail(hr, method, "%s: root constants: %s", argument, error);
    }
    free(variables);
    free(counts);
    return hr;
}

static const char *stage_name(VkShaderStageFlagBits stage)
{
    switch (stage) {
    case VK_SHADER_STAGE_VERTEX_BIT: return "vertex";
    case VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT: return "hull";
    case VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT: return "domain";
    case VK_SHADER_STAGE_GEOMETRY_BIT: return "geometry";
    case VK_SHADER_STAGE_FRAGMENT_BIT: return "pixel";
    default: return "compute";
    }
}

HRESULT d3d12_pipeline_state_bind_stage(struct d3d12_pipeline_state *state, struct d3d12xs_spirv_module *module, bool from_dxbc,
        VkShaderStageFlagBits stage, const char *argument, const char *method, uint32_t **out_words, size_t *out_word_count,
        char entry_point[64])
{
    struct d3d12_device *device = state->device;
    struct d3d12xs_shader_info info;
    struct d3d12xs_binding_target *targets = NULL;
    struct d3d12xs_spirv_heap_table_binding *heap_bindings = NULL;
    uint32_t heap_count = 0, *table_raws = NULL, *table_aliases, table_alias_count = 0;
    uint32_t *words = NULL, root_variables[D3D12XS_MAX_ROOT_PARAMETERS];
    bool root_addresses = root_descriptors_through_memory(state);
    size_t word_count = 0;
    char error[512];
    HRESULT hr;

    *out_words = NULL;
    *out_word_count = 0;
    memset(&info, 0, sizeof(info));
    if (FAILED(hr = d3d12xs_spirv_reflect_module(module, &info, error, sizeof(error))))
        return d3d12xs_fail(hr, method, "%s: %s", argument, error);
    if (info.stage != stage) {
        hr = d3d12xs_fail(E_INVALIDARG, method, "%s is a %s shader, not a %s shader", argument, stage_name(info.stage), stage_name(stage));
        goto done;
    }
    {
        const char *capability = NULL, *feature = d3d12xs_missing_capability_feature(device, &info, &capability);
        if (feature) {
            hr = d3d12xs_fail(E_NOTIMPL, method, "%s declares the SPIR-V capability %s, which needs the Vulkan feature %s; "
                    "%s does not offer it (dynamic or non-uniform indexing of that kind of resource array is not supported here)",
                    argument, capability, feature, device->vk_properties.deviceName);
            goto done;
        }
    }
    for (uint32_t i = 0; i < info.binding_count; i++)
        info.bindings[i].in_rows = from_dxbc && info.bindings[i].register_class == D3D12XS_REGISTER_CBV;
    memcpy(state->local_size, info.local_size, sizeof(state->local_size));
    state->no_volatile = info.no_volatile;
    state->push_set = d3d12_root_signature_push_set(state->root_signature);
    state->wave_size = info.wave_size;
    state->binding_count = info.binding_count;
    if ((info.binding_count && !(state->bindings = calloc(info.binding_count, sizeof(*state->bindings))))
            || (info.binding_count && !(targets = calloc(info.binding_count, sizeof(*targets))))
            || (info.binding_count && !(heap_bindings = calloc(info.binding_count, sizeof(*heap_bindings))))
            || (info.binding_count && !(table_raws = calloc(2 * info.binding_count, sizeof(*table_raws))))) {
        hr = d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate bindings");
        goto done;
    }
    table_aliases = table_raws ? table_raws + info.binding_count : NULL;
    for (uint32_t i = 0; i < info.binding_count; i++) {
        if (info.bindings[i].space == D3D12XS_HEAP_SPACE && info.bindings[i].register_index >= D3D12XS_HEAP_REGISTER_FIRST
                && info.bindings[i].register_index <= D3D12XS_HEAP_REGISTER) {
            if (FAILED(hr = match_heap_binding(state, &info.bindings[i], &state->bindings[i], method)))
                goto done;
        } else if (FAILED(hr = match_binding(state->root_signature, &info.bindings[i], stage, &state->bindings[i], &targets[i],
                &state->used_root_mask, method))) {
            goto done;
        }
        targets[i].set = state->push_set;
        if (state->bindings[i].source == D3D12XS_BINDING_ROOT_DESCRIPTOR && !targets[i].push_constant && root_addresses
                && !info.bindings[i].alias_variable_id) {
            /* memory-based ABI: the root descriptor's address travels in the argument buffer (not
             * for a buffer D3DCompile also reads as uint4s through an alias variable: that one
             * stays a push descriptor) */
            state->bindings[i].source = D3D12XS_BINDING_ROOT_ADDRESS;
            state->bindings[i].address_slot = state->address_count;
            state->bindings[i].array_size = 0;
            root_variables[state->address_count++] = info.bindings[i].variable_id;
            state->memory_abi = true;
        }
        if (state->bindings[i].source == D3D12XS_BINDING_ROOT_DESCRIPTOR && !targets[i].push_constant) {
            state->pushed_root_descriptor_count++;
            state->bindings[i].variable_id = info.bindings[i].variable_id;
            state->bindings[i].alias_variable_id = info.bindings[i].alias_variable_id;
        }
        if (state->bindings[i].source == D3D12XS_BINDING_TABLE || state->bindings[i].source == D3D12XS_BINDING_HEAP_INDEXED
                || state->bindings[i].source == D3D12XS_BINDING_HEAP_SIZE) {
            const struct d3d12xs_pipeline_binding *b = &state->bindings[i];
            /* What the heap tables pass makes of it: a table at its start's push constant, the
             * header's heap from the heap's first descriptor, or the header's heap size. */
            struct d3d12xs_spirv_heap_table_binding heap_binding = {
                .kind = b->source == D3D12XS_BINDING_HEAP_SIZE ? D3D12XS_HEAP_BINDING_SIZE
                        : b->heap_set == D3D12XS_HEAP_SET_COUNTERS ? D3D12XS_HEAP_BINDING_COUNTER : D3D12XS_HEAP_BINDING_TABLE,
                .set = b->source == D3D12XS_BINDING_HEAP_SIZE ? D3D12XS_HEAP_SET_RESOURCES : b->heap_set,
                .push_offset = b->source == D3D12XS_BINDING_TABLE ? state->root_signature->table_push_offsets[b->root_index]
                        : b->source == D3D12XS_BINDING_HEAP_SIZE ? state->root_signature->heap_size_offset : D3D12XS_HEAP_BINDING_NO_PUSH,
                /* a counter is the side-table entry of its UAV's descriptor (descriptor_buffer.h) */
                .table_offset = b->source == D3D12XS_BINDING_TABLE ? b->table_offset : 0,
            };
            /* D3DCompile's uvec4 view of a raw buffer (alias_variable_id) goes first: a heap view
             * may start at any 4 bytes (spirv/spirv_view_offsets.c) */
            heap_binding.variable_id = info.bindings[i].variable_id;
            heap_bindings[heap_count++] = heap_binding;
            if (info.bindings[i].alias_variable_id) {
                table_aliases[table_alias_count] = info.bindings[i].alias_variable_id;
                table_raws[table_alias_count++] = info.bindings[i].variable_id;
                info.bindings[i].alias_variable_id = 0;
            }
            state->reads_heaps = true;
            state->indexes_heap |= b->source != D3D12XS_BINDING_TABLE && b->heap_set != D3D12XS_HEAP_SET_SAMPLERS;
            state->indexes_sampler_heap |= b->source == D3D12XS_BINDING_HEAP_INDEXED && b->heap_set == D3D12XS_HEAP_SET_SAMPLERS;
        }
        state->descriptor_count += state->bindings[i].array_size;
        state->ordered_append |= state->bindings[i].source == D3D12XS_BINDING_ORDERED_APPEND;
        if (targets[i].push_constant && state->root_signature->memory_abi)
            state->memory_abi = true;
    }
    if (table_alias_count) {
        const struct d3d12xs_spirv_scalarize_args scalarize = {table_raws, table_aliases, table_alias_count};
        if (FAILED(hr = d3d12xs_spirv_pass_scalarize(module, &scalarize, error, sizeof(error)))) {
            d3d12xs_fail(hr, method, "%s: %s", argument, error);
            goto done;
        }
    }
    if (state->ordered_append && stage != VK_SHADER_STAGE_COMPUTE_BIT) {
        hr = d3d12xs_fail(E_INVALIDARG, method, "%s uses d3d12xs_ordered_append.hlsli's counters, which only DispatchX binds", argument);
        goto done;
    }
    for (uint32_t i = 0; i < info.binding_count; i++) {
        if (FAILED(hr = layout_binding(state, &state->bindings[i], i, method)))
            goto done;
        targets[i].binding = state->bindings[i].vk_binding;
    }
    if (state->memory_abi && !state->root_signature->has_arguments_binding) {
        hr = d3d12xs_fail(E_NOTIMPL, method, "pDesc->pRootSignature's layout has no room for the root argument buffer the shader "
                "reads (its push descriptors hold %u on this device)", device->push_descriptor_limit);
        goto done;
    }
    if (from_dxbc && FAILED(hr = dxbc_root_constants(state, module, &info, targets, argument, method)))
        goto done;
    state->argument_binding = D3D12XS_PUSH_BINDING_ARGUMENTS;
    state->address_offset = ((state->root_signature->push_constant_size + 15) & ~15u) + 16 * state->address_base;
    state->argument_size = state->address_count ? state->address_offset + 16 * state->address_count
            : state->root_signature->push_constant_size;
    if (FAILED(hr = run_pipeline_passes(state, module, &info, targets, root_variables, argument, method)))
        goto done;
    {
        /* lavapipe answers a non-uniformly indexed OpArrayLength with one thread's size */
        const struct d3d12xs_spirv_heap_tables_args tables = {heap_bindings, heap_count,
                device->vk_driver_properties.driverID == VK_DRIVER_ID_MESA_LLVMPIPE};
        if (FAILED(hr = d3d12xs_spirv_pass_heap_tables(module, &tables, error, sizeof(error)))) {
            d3d12xs_fail(hr, method, "%s: descriptor tables: %s", argument, error);
            goto done;
        }
    }
    /* Raw and structured views at any element; the SCALAR variant for root raw buffers read as
     * uvec4s is compute's (a graphics stage reads them as scalars from the start). */
    if (stage == VK_SHADER_STAGE_COMPUTE_BIT) {
        if (FAILED(hr = keep_scalar_source(state, module, argument, method)))
            goto done;
        if (FAILED(hr = d3d12_pipeline_state_apply_view_offsets(state, module, false, error, sizeof(error)))) {
            d3d12xs_fail(hr, method, "%s: %s", argument, error);
            goto done;
        }
    } else if (FAILED(hr = d3d12_pipeline_state_apply_graphics_view_offsets(state, module, error, sizeof(error)))) {
        d3d12xs_fail(hr, method, "%s: %s", argument, error);
        goto done;
    }
    if (FAILED(hr = d3d12xs_spirv_module_emit(module, &words, &word_count))) {
        d3d12xs_fail(hr, method, "%s: cannot write the SPIR-V", argument);
        goto done;
    }
    /* The device's choice (D3D12XS_DEBUG or EnableDebugLayer), not the pass's. */
    if (d3d12xs_config_validates_spirv(&device->config)
            && FAILED(hr = d3d12xs_spirv_validate(words, word_count, true, error, sizeof(error)))) {
        hr = d3d12xs_fail(E_INVALIDARG, method, "%s: %s", argument, error); /* Windows' answer for a shader it cannot build */
        goto done;
    }
    snprintf(entry_point, 64, "%s", info.entry_point);
    *out_words = words;
    *out_word_count = word_count;
    words = NULL;

done:
    free(words);
    free(targets);
    free(heap_bindings);
    free(table_raws);
    d3d12xs_shader_info_cleanup(&info);
    return hr;
}

static HRESULT create_pipeline(struct d3d12_pipeline_state *state, const D3D12_SHADER_BYTECODE *bytecode, const char *method)
{
    struct d3d12xs_spirv_module *module = NULL;
    uint32_t *words;
    size_t word_count;
    char error[512], entry_point[64];
    bool from_dxbc;
    HRESULT hr;

    /* The module is parsed once (DXBC: translated once); reflection reads it, the passes rewrite
     * it, it is emitted once. */
    if ((from_dxbc = d3d12xs_dxbc_is_container(bytecode->pShaderBytecode, bytecode->BytecodeLength)))
        hr = d3d12xs_dxbc_translate(bytecode->pShaderBytecode, bytecode->BytecodeLength, &module, error, sizeof(error));
    else
        hr = d3d12xs_spirv_module_parse(bytecode->pShaderBytecode, bytecode->BytecodeLength, &module, error, sizeof(error));
    if (FAILED(hr))
        return d3d12xs_fail(hr, method, "pDesc->CS: %s", error);
    hr = d3d12_pipeline_state_bind_stage(state, module, from_dxbc, VK_SHADER_STAGE_COMPUTE_BIT, "pDesc->CS", method, &words, &word_count,
            entry_point);
    d3d12xs_spirv_module_destroy(module);
    if (FAILED(hr))
        return hr;
    {
        /* before the build, which takes the words and the SCALAR source */
        struct d3d12_pipeline_blob_stage stage = {VK_SHADER_STAGE_COMPUTE_BIT, words, word_count, {0}};
        memcpy(stage.entry_point, entry_point, sizeof(stage.entry_point));
        if (FAILED(hr = d3d12_pipeline_blob_capture(state, &stage, 1, NULL, 0, method))) {
            free(words);
            return hr;
        }
    }
    /* The root signature's layout, shared: the pipeline's reference keeps it while recorded
     * lists may use the pipeline, after the root signature itself may have gone. */
    d3d12_root_signature_push_constant_range(state->root_signature, &state->thread_limit_offset);
    if (FAILED(hr = d3d12_root_signature_get_layout(state->root_signature, D3D12XS_LAYOUT_COMPUTE, method, &state->layout, &state->vk_layout))) {
        free(words);
        return hr;
    }
    if (FAILED(hr = d3d12_pipeline_state_keep_indirect_source(state, &words, &word_count, 1, method))) {
        free(words);
        return hr;
    }
    /* the pipeline keeps the words for its DispatchX variants */
    return d3d12_pipeline_state_build(state, words, word_count, entry_point, method);
}

/* From a checked cached blob: the final SPIR-V and the bindings it was matched to, straight to
 * the driver (no translation, reflection or passes). */
static HRESULT create_pipeline_from_blob(struct d3d12_pipeline_state *state, const D3D12_CACHED_PIPELINE_STATE *cached, const char *method)
{
    struct d3d12_pipeline_blob_contents contents;
    HRESULT hr;

    if (FAILED(hr = d3d12_pipeline_blob_load(state, cached->pCachedBlob, cached->CachedBlobSizeInBytes, &contents, "pDesc->CachedPSO",
            method)))
        return hr;
    if (contents.stage_count != 1 || contents.stages[0].stage != VK_SHADER_STAGE_COMPUTE_BIT) {
        d3d12_pipeline_blob_contents_cleanup(&contents);
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->CachedPSO holds no compute shader");
    }
    d3d12_root_signature_push_constant_range(state->root_signature, &state->thread_limit_offset);
    if (FAILED(hr = d3d12_root_signature_get_layout(state->root_signature, D3D12XS_LAYOUT_COMPUTE, method, &state->layout, &state->vk_layout))) {
        d3d12_pipeline_blob_contents_cleanup(&contents);
        return hr;
    }
    if (FAILED(hr = d3d12_pipeline_state_keep_indirect_source(state, &contents.stages[0].words, &contents.stages[0].word_count, 1,
            method))) {
        d3d12_pipeline_blob_contents_cleanup(&contents);
        return hr;
    }
    hr = d3d12_pipeline_state_build(state, contents.stages[0].words, contents.stages[0].word_count, contents.stages[0].entry_point, method);
    contents.stages[0].words = NULL; /* the build took them */
    d3d12_pipeline_blob_contents_cleanup(&contents);
    return hr;
}

struct d3d12_pipeline_state *d3d12_pipeline_state_new(struct d3d12_device *device, struct d3d12_root_signature *signature)
{
    struct d3d12_pipeline_state *state;

    if (!(state = calloc(1, sizeof(*state))))
        return NULL;
    state->device = device;
    state->share_count = 1;
    pthread_mutex_init(&state->indirect_lock, NULL);
    d3d12_root_signature_add_private_ref(signature);
    state->root_signature = signature;
    return state;
}

HRESULT d3d12_pipeline_state_create_compute(struct d3d12_device *device, const D3D12_COMPUTE_PIPELINE_STATE_DESC *desc, REFIID riid, void **out)
{
    return d3d12_pipeline_state_create(device, desc, NULL, "ID3D12Device::CreateComputePipelineState", riid, out);
}

/* A distinct VkPipeline is counted once. */
static unsigned vk_pipeline_count(const struct d3d12_pipeline_state *state)
{
    unsigned count = 0;
    for (unsigned i = 0; i < D3D12XS_PIPELINE_VARIANT_COUNT; i++) {
        bool seen = !state->variants[i];
        for (unsigned k = 0; k < i && !seen; k++)
            seen = state->variants[k] == state->variants[i];
        count += !seen;
    }
    return count;
}

/* A pipeline no list has seen: destroyed at once. */
void d3d12_pipeline_state_discard(struct d3d12_pipeline_state *state)
{
    if (state->root_signature)
        d3d12_root_signature_release_private_ref(state->root_signature);
    destroy_pipeline_state(state->device, state);
}

/* Makes the pipeline of key's description and enters it in the table (or, where another thread
 * entered an identical one first, takes that one instead). */
static HRESULT make_pipeline(struct d3d12_device *device, const D3D12_COMPUTE_PIPELINE_STATE_DESC *desc,
        const struct d3d12_pipeline_key *key, const char *method, struct d3d12_pipeline_state **out)
{
    struct d3d12_root_signature *signature = key->signature;
    struct d3d12_pipeline_state *state, *entered;
    HRESULT hr;

    if (!signature) {
        /* The shader's own root signature (a DXBC container's RTS0 part), as D3D12 takes it. */
        ID3D12RootSignature *embedded;
        if (FAILED(hr = d3d12_root_signature_create(device, 0, desc->CS.pShaderBytecode, desc->CS.BytecodeLength,
                &IID_ID3D12RootSignature, (void **)&embedded)))
            return d3d12xs_fail(hr, method, "pDesc->pRootSignature is NULL and the root signature in pDesc->CS (RTS0) is not "
                    "usable: the line above says why");
        signature = unsafe_impl_from_ID3D12RootSignature(embedded);
        /* the pipeline keeps it alive privately, as it does an application's signature */
        state = d3d12_pipeline_state_new(device, signature);
        ID3D12RootSignature_Release(embedded);
    } else {
        state = d3d12_pipeline_state_new(device, signature);
    }
    if (!state)
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the pipeline state");
    if (FAILED(hr = d3d12_pipeline_state_set_key(state, key, method))
            || FAILED(hr = desc->CachedPSO.CachedBlobSizeInBytes ? create_pipeline_from_blob(state, &desc->CachedPSO, method)
                    : create_pipeline(state, &desc->CS, method))) {
        d3d12_pipeline_state_discard(state);
        return hr;
    }
    if ((entered = d3d12_pipeline_table_insert(device, state, key, vk_pipeline_count(state))) != state)
        d3d12_pipeline_state_discard(state);
    else
        d3d12_pipeline_state_make_indirect_variants(state);
    *out = entered;
    return S_OK;
}

HRESULT d3d12_compute_pipeline_key(const D3D12_COMPUTE_PIPELINE_STATE_DESC *desc, const D3D12XBOX_COMPUTE_SHADER_LIMITS_DESC *limits,
        struct d3d12_pipeline_key *key, const char *method)
{
    struct d3d12_root_signature *signature = NULL;

    if (!desc)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc is NULL (must describe the pipeline)");
    if (desc->pRootSignature && !(signature = unsafe_impl_from_ID3D12RootSignature(desc->pRootSignature)))
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->pRootSignature is not a d3d12xs root signature");
    if (!desc->CS.pShaderBytecode || !desc->CS.BytecodeLength)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->CS is empty (must hold DXBC or SPIR-V, e.g. from D3DCompile)");
    if (desc->NodeMask > 1)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->NodeMask is 0x%x (must be 0 or 1)", desc->NodeMask);
    if (desc->Flags != D3D12_PIPELINE_STATE_FLAG_NONE)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->Flags is 0x%x (must be NONE)", desc->Flags);
    if (!desc->CachedPSO.pCachedBlob && desc->CachedPSO.CachedBlobSizeInBytes)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->CachedPSO has CachedBlobSizeInBytes %zu but pCachedBlob NULL",
                (size_t)desc->CachedPSO.CachedBlobSizeInBytes);
    if (!signature && !d3d12xs_dxbc_has_part(desc->CS.pShaderBytecode, desc->CS.BytecodeLength, "RTS0"))
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->pRootSignature is NULL and pDesc->CS carries no root signature (a "
                "DXBC container's RTS0 part)");
    *key = (struct d3d12_pipeline_key){signature, desc->CS.pShaderBytecode, desc->CS.BytecodeLength, desc->Flags, limits, false, 0};
    d3d12_pipeline_key_hash(key);
    return S_OK;
}

HRESULT d3d12_pipeline_state_create(struct d3d12_device *device, const D3D12_COMPUTE_PIPELINE_STATE_DESC *desc,
        const D3D12XBOX_COMPUTE_SHADER_LIMITS_DESC *limits, const char *method, REFIID riid, void **out)
{
    struct d3d12_pipeline_state *pipeline;
    struct d3d12_pipeline_key key;
    uint64_t begin_ns;
    bool found;
    HRESULT hr;

    if (out)
        *out = NULL;
    if (FAILED(hr = d3d12_compute_pipeline_key(desc, limits, &key, method)))
        return hr;
    if (!riid)
        return d3d12xs_fail(E_INVALIDARG, method, "riid is NULL (must name the pipeline state interface)");
    if (!out)
        return d3d12xs_fail(E_POINTER, method, "ppPipelineState is NULL (must receive the pipeline)");
    /* checked even where a live pipeline is found: the answer does not depend on what is alive */
    if (desc->CachedPSO.CachedBlobSizeInBytes && FAILED(hr = d3d12_pipeline_blob_check(device, desc->CachedPSO.pCachedBlob,
            desc->CachedPSO.CachedBlobSizeInBytes, key.hash, false, "pDesc->CachedPSO", method)))
        return hr;
    begin_ns = d3d12xs_trace_begin();
    if (!(found = (pipeline = d3d12_pipeline_table_find(device, &key)) != NULL)
            && FAILED(hr = make_pipeline(device, desc, &key, method, &pipeline)))
        return hr;
    if (begin_ns) {
        /* the translation, passes and driver compiles: a pipeline made mid-frame shows */
        struct d3d12xs_trace_args args = {.length = 0};
        d3d12xs_trace_arg_u64(&args, "compile_us", found ? 0 : (d3d12xs_now_ns() - begin_ns) / 1000);
        d3d12xs_trace_arg_string(&args, "bytecode", desc->CachedPSO.CachedBlobSizeInBytes ? "cached blob"
                : d3d12xs_dxbc_is_container(desc->CS.pShaderBytecode, desc->CS.BytecodeLength) ? "DXBC" : "SPIR-V");
        if (found)
            d3d12xs_trace_arg_string(&args, "found", "a live identical pipeline");
        d3d12xs_trace_end(begin_ns, method, &args);
    }
    return d3d12_pipeline_state_hand_out(pipeline, method, riid, out);
}

/* Each creation's own object over the (possibly shared) pipeline, as Windows gives a new object per call. */
HRESULT d3d12_pipeline_state_hand_out(struct d3d12_pipeline_state *pipeline, const char *method, REFIID riid, void **out)
{
    struct d3d12_pipeline_state_object *object;
    HRESULT hr;

    if (!(object = calloc(1, sizeof(*object)))) {
        d3d12_pipeline_state_release_share(pipeline);
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the pipeline state");
    }
    object->ID3D12PipelineState_iface.lpVtbl = &d3d12_pipeline_state_vtbl;
    d3d12xs_object_init(&object->object, pipeline->device);
    object->pipeline = pipeline;
    hr = d3d12xs_hand_out(ID3D12PipelineState_QueryInterface(&object->ID3D12PipelineState_iface, riid, out), method);
    ID3D12PipelineState_Release(&object->ID3D12PipelineState_iface);
    return hr;
}
