/* Register ranges of DXBC shaders as arrays of descriptors (spirv_passes.h), after
 * libvkd3d-shader translated the stream that frontends/dxbc_ranges.c rewrote (frontends/dxbc_ranges.h says how):
 *
 *   - each marker (a cbuffer at (D3D12XS_DXBC_MARKER_SET, site)) goes: the index of its access
 *     chain is the site's index; the chains go and the load of the value becomes OpUndef (it
 *     was moved into a temp register nothing reads);
 *   - each range gets one variable, an array (a runtime array when unbounded) of its sites'
 *     descriptor type, at (space, the encoded first register): what glslang makes of
 *     `Buffer<uint> t[4] : register(t5, space1)`;
 *   - each use of a site's variable (at (D3D12XS_DXBC_SITE_SET, site)) takes an access chain
 *     into that array at the site's index instead, made just before it; with
 *     NonUniformResourceIndex the index is a NonUniform copy, which the table rewrite
 *     (spirv_heap_tables.c) carries to the access. The sites' variables go.
 *
 * It runs after spirv_raw_views.c, so the sites of raw and structured ranges are storage-buffer
 * blocks already (each site its own block type; the array takes the first site's: they are
 * alike, and what follows an access chain does not name the block type). */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "spirv/spirv_passes.h"
#include "common/util.h"

struct ranges {
    struct d3d12xs_spirv_module *m;
    const struct d3d12xs_spirv_dxbc_ranges_args *args;
    uint32_t *site_variable, *marker_variable, *site_index;  /* per site */
    uint32_t *array_variable, *element_pointer;              /* per range */
    uint32_t *marker_site;      /* per id: the site (+1) whose marker it is or is a chain of */
    uint32_t *site_of;          /* per id: the site (+1) whose variable it is */
    size_t id_count;            /* of marker_site and site_of: ids made by the pass past it are neither */
    char *error;
    size_t error_size;
};

static HRESULT fail(struct ranges *r, const char *fmt, uint32_t a, uint32_t b)
{
    return d3d12xs_write_error(E_FAIL, r->error, r->error_size, fmt, a, b);
}

/* Instructions whose operands are all ids, which could pass a variable or pointer on (others
 * have literals, which may equal any id). */
static bool is_site(const struct ranges *r, uint32_t id)
{
    return id < r->id_count && r->site_of[id];
}

static bool is_marker(const struct ranges *r, uint32_t id)
{
    return id < r->id_count && r->marker_site[id];
}

static bool takes_ids_only(uint32_t op)
{
    return op == SpvOpStore || op == SpvOpCopyObject || op == SpvOpFunctionCall || op == SpvOpPhi || op == SpvOpSelect
            || op == SpvOpPtrAccessChain || op == SpvOpCopyMemory;
}

/* The sites' and markers' variables, by their descriptor set and binding. */
static HRESULT find_variables(struct ranges *r)
{
    struct d3d12xs_spirv_module *m = r->m;
    struct d3d12xs_spirv_inst *inst;
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_GLOBALS, i, inst)) {
        uint32_t set, binding, id;
        if (d3d12xs_spirv_op(inst) != SpvOpVariable || d3d12xs_spirv_len(inst) < 4)
            continue;
        id = inst->w[2];
        if (!d3d12xs_spirv_decoration(m, id, SpvDecorationDescriptorSet, &set)
                || (set != D3D12XS_DXBC_SITE_SET && set != D3D12XS_DXBC_MARKER_SET)
                || !d3d12xs_spirv_decoration(m, id, SpvDecorationBinding, &binding) || binding >= r->args->site_count)
            continue;
        if (set == D3D12XS_DXBC_SITE_SET) {
            r->site_variable[binding] = id;
            r->site_of[id] = binding + 1;
        } else {
            r->marker_variable[binding] = id;
            r->marker_site[id] = binding + 1;
        }
    }
    for (uint32_t k = 0; k < r->args->site_count; k++)
        if (!r->site_variable[k] || (r->args->sites[k].dynamic && !r->marker_variable[k]))
            return fail(r, "the translated DXBC has no variable for register range access %u (marker %u)", k, r->args->sites[k].dynamic);
    return S_OK;
}

/* Markers: the first chain's index is the site's; chains go, loads become OpUndef. */
static HRESULT resolve_markers(struct ranges *r)
{
    struct d3d12xs_spirv_module *m = r->m;
    struct d3d12xs_spirv_list *functions = &m->sections[D3D12XS_SPIRV_FUNCTIONS];
    for (size_t i = 0; i < functions->count; i++) {
        struct d3d12xs_spirv_inst *inst = functions->at[i];
        uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst), site;
        if ((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain) && n >= 4 && is_marker(r, inst->w[3])) {
            site = r->marker_site[inst->w[3]];
            if (r->marker_variable[site - 1] == inst->w[3]) {
                /* marker.member0[index]: the index */
                if (n < 6 || r->site_index[site - 1])
                    return fail(r, "marker %u of register range access %u is not read once by its element", inst->w[3], site - 1);
                r->site_index[site - 1] = inst->w[5];
            }
            r->marker_site[inst->w[2]] = site;
            d3d12xs_spirv_remove(m, D3D12XS_SPIRV_FUNCTIONS, i--);
        } else if (op == SpvOpLoad && n >= 4 && is_marker(r, inst->w[3])) {
            uint32_t undef[3] = {SpvOpUndef, inst->w[1], inst->w[2]};
            if (!d3d12xs_spirv_rewrite(m, inst, undef, 3))
                return E_OUTOFMEMORY;
        } else if (takes_ids_only(op)) {
            for (uint32_t k = 1; k < n; k++)
                if (is_marker(r, inst->w[k]))
                    return fail(r, "marker %u of register range access %u is used otherwise", inst->w[k], r->marker_site[inst->w[k]] - 1);
        }
    }
    for (uint32_t k = 0; k < r->args->site_count; k++)
        if (r->args->sites[k].dynamic && !r->site_index[k])
            return fail(r, "register range access %u has no index (marker %u unread)", k, r->marker_variable[k]);
    return S_OK;
}

static void decorate(struct d3d12xs_spirv_module *m, uint32_t id, uint32_t decoration, uint32_t value, bool has_value)
{
    uint32_t words[4] = {SpvOpDecorate | (has_value ? 4u : 3u) << 16, id, decoration, value};
    d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, words, has_value ? 4 : 3);
}

/* One array variable per range, of its first site's descriptor type. */
static HRESULT make_arrays(struct ranges *r)
{
    struct d3d12xs_spirv_module *m = r->m;
    for (uint32_t k = 0; k < r->args->site_count; k++) {
        const uint32_t range = r->args->sites[k].range;
        const struct d3d12xs_spirv_dxbc_range *desc = &r->args->ranges[range];
        const struct d3d12xs_spirv_inst *variable = d3d12xs_spirv_def_op(m, r->site_variable[k], SpvOpVariable, 4), *pointer;
        uint32_t array, words[4], id, storage_class, element;

        if (r->array_variable[range])
            continue;
        if (!variable || !(pointer = d3d12xs_spirv_def_op(m, variable->w[1], SpvOpTypePointer, 4)))
            return fail(r, "register range access %u: variable %u has no pointer type", k, r->site_variable[k]);
        storage_class = pointer->w[2];
        element = pointer->w[3];
        if (desc->count) {
            words[0] = SpvOpTypeArray | 4u << 16, words[1] = 0, words[2] = element, words[3] = d3d12xs_spirv_constant_u32(m, desc->count);
            array = d3d12xs_spirv_global(m, words, 4, 1);
        } else {
            words[0] = SpvOpTypeRuntimeArray | 3u << 16, words[1] = 0, words[2] = element;
            array = d3d12xs_spirv_global(m, words, 3, 1);
            d3d12xs_spirv_add_capability(m, SpvCapabilityRuntimeDescriptorArray);
            if (m->version < 0x10500)
                d3d12xs_spirv_add_extension(m, "SPV_EXT_descriptor_indexing");
        }
        if (!array || !(id = d3d12xs_spirv_new_id(m)))
            return E_OUTOFMEMORY;
        words[0] = SpvOpVariable | 4u << 16;
        words[1] = d3d12xs_spirv_type_pointer(m, storage_class, array);
        words[2] = id;
        words[3] = storage_class;
        if (!d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, words, 4))
            return E_OUTOFMEMORY;
        decorate(m, id, SpvDecorationDescriptorSet, desc->set, true);
        decorate(m, id, SpvDecorationBinding, desc->binding, true);
        r->array_variable[range] = id;
        r->element_pointer[range] = d3d12xs_spirv_type_pointer(m, storage_class, element);
    }
    return m->out_of_memory ? E_OUTOFMEMORY : S_OK;
}

/* Each use of a site's variable (the pointer operand, word 3, of a load, access chain, size
 * query or texel pointer) takes an access chain into its range's array made before it. */
static HRESULT rewrite_uses(struct ranges *r)
{
    struct d3d12xs_spirv_module *m = r->m;
    struct d3d12xs_spirv_list *functions = &m->sections[D3D12XS_SPIRV_FUNCTIONS];
    for (size_t i = 0; i < functions->count; i++) {
        struct d3d12xs_spirv_inst *inst = functions->at[i];
        uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst), site, index, chain, words[5];
        const struct d3d12xs_spirv_dxbc_site *s;
        bool pointer_use = op == SpvOpLoad || op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain || op == SpvOpArrayLength
                || op == SpvOpImageTexelPointer;

        for (uint32_t k = 1; k < n && !pointer_use && takes_ids_only(op); k++)
            if (is_site(r, inst->w[k]))
                return fail(r, "register range access %u: its variable is used by an instruction of opcode %u, which the rewrite to "
                        "an array does not handle", r->site_of[inst->w[k]] - 1, op);
        if (!pointer_use || n < 4 || !is_site(r, inst->w[3]))
            continue;
        site = r->site_of[inst->w[3]];
        s = &r->args->sites[site - 1];
        index = s->dynamic ? r->site_index[site - 1] : d3d12xs_spirv_constant_u32(m, s->constant_index);
        if (s->nonuniform) {
            /* a NonUniform copy of the index: the table rewrite decorates what is made from it */
            const struct d3d12xs_spirv_inst *def = d3d12xs_spirv_def(m, index);
            uint32_t type = def && d3d12xs_spirv_result_type_index(d3d12xs_spirv_op(def)) ? def->w[d3d12xs_spirv_result_type_index(d3d12xs_spirv_op(def))]
                    : d3d12xs_spirv_type_int(m, 32, 0), copy = d3d12xs_spirv_new_id(m);
            if (!copy)
                return E_OUTOFMEMORY;
            words[0] = SpvOpCopyObject | 4u << 16, words[1] = type, words[2] = copy, words[3] = index;
            if (!d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, i++, words, 4))
                return E_OUTOFMEMORY;
            decorate(m, copy, SpvDecorationNonUniform, 0, false);
            d3d12xs_spirv_add_capability(m, SpvCapabilityShaderNonUniform);
            if (m->version < 0x10500)
                d3d12xs_spirv_add_extension(m, "SPV_EXT_descriptor_indexing");
            index = copy;
        }
        if (!(chain = d3d12xs_spirv_new_id(m)))
            return E_OUTOFMEMORY;
        words[0] = SpvOpAccessChain | 5u << 16;
        words[1] = r->element_pointer[s->range];
        words[2] = chain;
        words[3] = r->array_variable[s->range];
        words[4] = index;
        if (!d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, i++, words, 5))
            return E_OUTOFMEMORY;
        inst = functions->at[i];
        inst->w[3] = chain;
    }
    return S_OK;
}

static bool is_site_or_marker(uint32_t id, void *context)
{
    const struct ranges *r = context;
    return is_site(r, id) || is_marker(r, id);
}

HRESULT d3d12xs_spirv_pass_dxbc_ranges(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_dxbc_ranges_args *args,
        char *error, size_t error_size)
{
    struct ranges r = {m, args, NULL, NULL, NULL, NULL, NULL, NULL, NULL, m->bound, error, error_size};
    HRESULT hr;

    if (!args->site_count)
        return S_OK;
    r.site_variable = calloc(args->site_count, sizeof(uint32_t));
    r.marker_variable = calloc(args->site_count, sizeof(uint32_t));
    r.site_index = calloc(args->site_count, sizeof(uint32_t));
    r.array_variable = calloc(args->range_count + 1, sizeof(uint32_t));
    r.element_pointer = calloc(args->range_count + 1, sizeof(uint32_t));
    /* ids made here are never sites or markers (nor chains of markers, which libvkd3d-shader made) */
    r.marker_site = calloc(r.id_count, sizeof(uint32_t));
    r.site_of = calloc(r.id_count, sizeof(uint32_t));
    if (!r.site_variable || !r.marker_variable || !r.site_index || !r.array_variable || !r.element_pointer || !r.marker_site || !r.site_of)
        hr = E_OUTOFMEMORY;
    else if (SUCCEEDED(hr = find_variables(&r)) && SUCCEEDED(hr = resolve_markers(&r)) && SUCCEEDED(hr = make_arrays(&r))
            && SUCCEEDED(hr = rewrite_uses(&r))) {
        d3d12xs_spirv_remove_variables(m, is_site_or_marker, &r);
        if (m->out_of_memory)
            hr = E_OUTOFMEMORY;
    }
    if (hr == E_OUTOFMEMORY)
        d3d12xs_write_error(hr, error, error_size, "out of memory");
    free(r.site_variable);
    free(r.marker_variable);
    free(r.site_index);
    free(r.array_variable);
    free(r.element_pointer);
    free(r.marker_site);
    free(r.site_of);
    return hr;
}
