/* Register ranges rewritten for libvkd3d-shader 1.2 (dxbc_ranges.h). Token layouts are those of
 * the D3D10/11/12 tokenized program format; dxbc.c has checked the container and walked every
 * instruction, so lengths are sound here and only operands are read anew. */
#include <stdlib.h>
#include <string.h>

#include "frontends/dxbc_ranges.h"
#include "common/util.h"
#include "descriptors/root_signature_blob.h" /* d3d12xs_dxbc_checksum */

enum {
    OP_CUSTOM_DATA = 0x35,
    OP_MOV = 0x36,
    OP_DCL_RESOURCE = 0x58,
    OP_DCL_CONSTANT_BUFFER = 0x59,
    OP_DCL_SAMPLER = 0x5a,
    OP_DCL_TEMPS = 0x68,
    OP_DCL_LAST_OF_FIRST_GROUP = 0x6a,  /* 0x58..0x6a are declarations */
    OP_INTERFACE_CALL = 0x78,           /* a literal (the function index) before its operands */
    OP_DCL_STREAM = 0x8f,               /* 0x8f..0xa2 are declarations */
    OP_DCL_UAV_TYPED = 0x9c,
    OP_DCL_UAV_RAW = 0x9d,
    OP_DCL_UAV_STRUCTURED = 0x9e,
    OP_DCL_RESOURCE_RAW = 0xa1,
    OP_DCL_RESOURCE_STRUCTURED = 0xa2,
};
enum { OPERAND_TEMP = 0x00, OPERAND_IMMEDIATE32 = 0x04, OPERAND_IMMEDIATE64 = 0x05, OPERAND_SAMPLER = 0x06,
       OPERAND_SRV = 0x07, OPERAND_CONSTANT_BUFFER = 0x08, OPERAND_UAV = 0x1e };
/* index representations (3 bits per index from bit 22) */
enum { INDEX_IMMEDIATE32, INDEX_IMMEDIATE64, INDEX_RELATIVE, INDEX_IMMEDIATE32_PLUS_RELATIVE, INDEX_IMMEDIATE64_PLUS_RELATIVE };
#define EXTENDED_BIT 0x80000000u
#define EXTENDED_OPERAND_MODIFIER 1u
#define EXTENDED_NON_UNIFORM (1u << 17)
#define LENGTH_SHIFT 24
#define LENGTH_MASK (0x7fu << LENGTH_SHIFT)
#define CONSTANT_BUFFER_DYNAMIC_INDEXED (1u << 11)
#define TAG(a, b, c, d) ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)

struct tokens {
    uint32_t *at;
    size_t count, capacity;
    bool failed;
};

static void put(struct tokens *t, uint32_t value)
{
    if (t->count == t->capacity) {
        size_t capacity = t->capacity ? 2 * t->capacity : 256;
        uint32_t *bigger = t->failed ? NULL : realloc(t->at, capacity * sizeof(*bigger));
        if (!bigger) {
            t->failed = true;
            return;
        }
        t->at = bigger;
        t->capacity = capacity;
    }
    t->at[t->count++] = value;
}

static void put_all(struct tokens *t, const uint32_t *values, size_t count)
{
    for (size_t i = 0; i < count; i++)
        put(t, values[i]);
}

struct rewriter {
    const struct d3d12xs_dxbc_shader *shader;
    struct d3d12xs_dxbc_ranges *out;
    const uint32_t **declaration_of;    /* per resource: its declaration's tokens in the original stream */
    uint32_t first_fresh_id;            /* site k's range id is this + 2k, its marker's + 2k + 1 */
    uint32_t extra_temp;                /* the temp register markers are moved into */
    uint32_t site_capacity;
    char *error;
    size_t error_size;
};

static uint32_t le32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4); /* DXBC is little-endian, as every target of d3d12xs is */
    return v;
}

/* Tokens of the operand at t (at most avail), nested relative operands included; 0 if malformed. */
static uint32_t operand_length(const uint32_t *t, uint32_t avail, unsigned depth)
{
    uint32_t token, n = 1, type, dimension;

    if (!avail || depth > 4)
        return 0;
    token = t[0];
    type = token >> 12 & 0xff;
    dimension = token >> 20 & 0x3;
    if (token & EXTENDED_BIT) {
        while (n < avail && t[n] & EXTENDED_BIT)
            n++;
        n++;
    }
    if (type == OPERAND_IMMEDIATE32 || type == OPERAND_IMMEDIATE64) {
        /* component count: 0 (none), 1 (one), 2 (four); 64-bit immediates take two tokens each */
        uint32_t components = (token & 3) == 1 ? 1 : (token & 3) == 2 ? 4 : 0;
        n += components * (type == OPERAND_IMMEDIATE64 ? 2 : 1);
    }
    for (uint32_t i = 0; i < dimension && n <= avail; i++) {
        uint32_t representation = token >> (22 + 3 * i) & 0x7, nested;
        switch (representation) {
        case INDEX_IMMEDIATE32: n += 1; break;
        case INDEX_IMMEDIATE64: n += 2; break;
        case INDEX_RELATIVE: case INDEX_IMMEDIATE32_PLUS_RELATIVE: case INDEX_IMMEDIATE64_PLUS_RELATIVE:
            n += representation == INDEX_RELATIVE ? 0 : representation == INDEX_IMMEDIATE32_PLUS_RELATIVE ? 1 : 2;
            if (n >= avail || !(nested = operand_length(t + n, avail - n, depth + 1)))
                return 0;
            n += nested;
            break;
        default:
            return 0;
        }
    }
    return n <= avail ? n : 0;
}

static bool register_class_of(uint32_t operand_type, enum d3d12xs_register_class *c)
{
    switch (operand_type) {
    case OPERAND_SRV: *c = D3D12XS_REGISTER_SRV; return true;
    case OPERAND_UAV: *c = D3D12XS_REGISTER_UAV; return true;
    case OPERAND_SAMPLER: *c = D3D12XS_REGISTER_SAMPLER; return true;
    case OPERAND_CONSTANT_BUFFER: *c = D3D12XS_REGISTER_CBV; return true;
    default: return false;
    }
}

/* The declaration of range id in class c with more than one register, or -1. */
static int range_of(const struct d3d12xs_dxbc_shader *shader, enum d3d12xs_register_class c, uint32_t id)
{
    for (uint32_t i = 0; i < shader->resource_count; i++)
        if (shader->resources[i].register_class == c && shader->resources[i].id == id
                && shader->resources[i].first != shader->resources[i].last)
            return (int)i;
    return -1;
}

static bool is_resource_declaration(uint32_t opcode)
{
    return opcode == OP_DCL_RESOURCE || opcode == OP_DCL_CONSTANT_BUFFER || opcode == OP_DCL_SAMPLER || opcode == OP_DCL_UAV_TYPED
            || opcode == OP_DCL_UAV_RAW || opcode == OP_DCL_UAV_STRUCTURED || opcode == OP_DCL_RESOURCE_RAW
            || opcode == OP_DCL_RESOURCE_STRUCTURED;
}

static bool is_declaration(uint32_t opcode)
{
    return (opcode >= OP_DCL_RESOURCE && opcode <= OP_DCL_LAST_OF_FIRST_GROUP)
            || (opcode >= OP_DCL_STREAM && opcode <= OP_DCL_RESOURCE_STRUCTURED) || opcode == OP_CUSTOM_DATA;
}

static HRESULT add_site(struct rewriter *w, const struct d3d12xs_dxbc_site *site, uint32_t *k)
{
    struct d3d12xs_dxbc_ranges *out = w->out;
    if (out->site_count >= D3D12XS_DXBC_MARKER_REGISTER / 2)
        return d3d12xs_write_error(E_INVALIDARG, w->error, w->error_size, "the shader accesses register ranges more than %u times",
                D3D12XS_DXBC_MARKER_REGISTER / 2);
    if (out->site_count == w->site_capacity) {
        uint32_t capacity = w->site_capacity ? 2 * w->site_capacity : 16;
        struct d3d12xs_dxbc_site *bigger = realloc(out->sites, capacity * sizeof(*bigger));
        if (!bigger)
            return d3d12xs_write_error(E_OUTOFMEMORY, w->error, w->error_size, "out of memory");
        out->sites = bigger;
        w->site_capacity = capacity;
    }
    *k = out->site_count;
    out->sites[out->site_count++] = *site;
    return S_OK;
}

/* The operand at p (n tokens) of an instruction at token offset: copied into inst, or, when it
 * names a range, rewritten to its site (and the marker of a dynamic index put into markers). */
static HRESULT rewrite_operand(struct rewriter *w, const uint32_t *p, uint32_t n, uint32_t offset, struct tokens *inst,
        struct tokens *markers)
{
    const uint32_t token = p[0], dimension = token >> 20 & 0x3;
    struct d3d12xs_dxbc_site site = {0};
    const struct d3d12xs_dxbc_resource *range;
    enum d3d12xs_register_class c;
    uint32_t at = 1, extended_first, representation, k = 0, immediate = 0, relative_at = 0, relative_length = 0;
    int index;
    HRESULT hr;

    if (!register_class_of(token >> 12 & 0xff, &c) || dimension < 2 || (token >> 22 & 0x7) != INDEX_IMMEDIATE32) {
        put_all(inst, p, n);
        return S_OK;
    }
    extended_first = at;
    if (token & EXTENDED_BIT) {
        while (p[at] & EXTENDED_BIT)
            at++;
        at++;
    }
    if ((index = range_of(w->shader, c, p[at])) < 0) {
        put_all(inst, p, n);
        return S_OK;
    }
    range = &w->shader->resources[index];
    site.resource = (uint32_t)index;
    for (uint32_t e = extended_first; e < at; e++)
        site.nonuniform |= (p[e] & 0x3f) == EXTENDED_OPERAND_MODIFIER && (p[e] & EXTENDED_NON_UNIFORM);
    at++;
    representation = token >> 25 & 0x7;
    if (representation == INDEX_IMMEDIATE32) {
        uint32_t reg = p[at++];
        if (reg < range->first || reg > range->last)
            return d3d12xs_write_error(E_INVALIDARG, w->error, w->error_size, "instruction at token %u reads register %u of a range "
                    "of registers %u to %u", offset, reg, range->first, range->last);
        site.constant_index = reg - range->first;
    } else if (representation == INDEX_RELATIVE || representation == INDEX_IMMEDIATE32_PLUS_RELATIVE) {
        site.dynamic = true;
        if (representation == INDEX_IMMEDIATE32_PLUS_RELATIVE)
            immediate = p[at++];
        relative_at = at;
        relative_length = operand_length(p + at, n - at, 0);
        at += relative_length;
    } else {
        return d3d12xs_write_error(E_INVALIDARG, w->error, w->error_size, "instruction at token %u indexes a register range with a "
                "64-bit index", offset);
    }
    if (FAILED(hr = add_site(w, &site, &k)))
        return hr;
    /* the site: its own id, register k; the non-uniform mark goes (the SPIR-V pass keeps it),
     * and with it an extended token left saying nothing (libvkd3d-shader warns of those) */
    {
        uint32_t kept[0x80], kept_count = 0, e = extended_first;
        if (token & EXTENDED_BIT) {
            do {
                uint32_t value = p[e] & ~(EXTENDED_BIT | EXTENDED_NON_UNIFORM);
                if (value != EXTENDED_OPERAND_MODIFIER && kept_count < 0x80)
                    kept[kept_count++] = value;
            } while (p[e++] & EXTENDED_BIT);
        }
        put(inst, (token & ~(0x3fu << 22) & ~EXTENDED_BIT) | (kept_count ? EXTENDED_BIT : 0));
        for (uint32_t i = 0; i < kept_count; i++)
            put(inst, kept[i] | (i + 1 < kept_count ? EXTENDED_BIT : 0));
    }
    put(inst, w->first_fresh_id + 2 * k);
    put(inst, k);
    /* what follows (a cbuffer's element index), as it was */
    put_all(inst, p + at, n - at);
    if (site.dynamic) {
        /* mov r<extra>.x, marker[<id>][<register>][immediate - first + relative].x */
        const uint32_t start = (uint32_t)markers->count;
        put(markers, OP_MOV);
        put(markers, (uint32_t)OPERAND_TEMP << 12 | 1u << 20 | 2u | 1u << 4); /* r#.x: four components, mask x */
        put(markers, w->extra_temp);
        put(markers, (uint32_t)OPERAND_CONSTANT_BUFFER << 12 | 3u << 20 | 2u | 2u << 2 /* select one: x */
                | (uint32_t)INDEX_IMMEDIATE32_PLUS_RELATIVE << 28);
        put(markers, w->first_fresh_id + 2 * k + 1);
        put(markers, D3D12XS_DXBC_MARKER_REGISTER + k);
        put(markers, immediate - range->first);
        put_all(markers, p + relative_at, relative_length);
        if (markers->count - start > 0x7f)
            return d3d12xs_write_error(E_INVALIDARG, w->error, w->error_size, "instruction at token %u: the index of its register "
                    "range is too long to copy (%u tokens)", offset, relative_length);
        if (!markers->failed)
            markers->at[start] |= (uint32_t)(markers->count - start) << LENGTH_SHIFT;
    }
    return S_OK;
}

/* One instruction that is not a declaration, its operands rewritten, after its markers. */
static HRESULT rewrite_instruction(struct rewriter *w, const uint32_t *p, uint32_t length, uint32_t offset, struct tokens *body)
{
    struct tokens inst = {0}, markers = {0};
    uint32_t at = 1;
    HRESULT hr = S_OK;

    if (p[0] & EXTENDED_BIT) {
        while (at < length && p[at] & EXTENDED_BIT)
            at++;
        at++;
    }
    if ((p[0] & 0x7ff) == OP_INTERFACE_CALL)
        at++;
    put_all(&inst, p, at < length ? at : length);
    while (at < length) {
        uint32_t n = operand_length(p + at, length - at, 0);
        if (!n) {
            hr = d3d12xs_write_error(E_INVALIDARG, w->error, w->error_size, "instruction at token %u: operand at token %u cannot be "
                    "read", offset, offset + at);
            goto done;
        }
        if (FAILED(hr = rewrite_operand(w, p + at, n, offset, &inst, &markers)))
            goto done;
        at += n;
    }
    if (inst.failed || markers.failed) {
        hr = d3d12xs_write_error(E_OUTOFMEMORY, w->error, w->error_size, "out of memory");
        goto done;
    }
    if (inst.count > 0x7f) {
        hr = d3d12xs_write_error(E_INVALIDARG, w->error, w->error_size, "instruction at token %u is too long once its ranges are "
                "rewritten", offset);
        goto done;
    }
    inst.at[0] = (inst.at[0] & ~LENGTH_MASK) | (uint32_t)inst.count << LENGTH_SHIFT;
    put_all(body, markers.at, markers.count);
    put_all(body, inst.at, inst.count);
done:
    free(inst.at);
    free(markers.at);
    return hr;
}

/* The declarations of the sites and their markers, put where the first range was declared. */
static HRESULT put_site_declarations(struct rewriter *w, struct tokens *t, bool add_temps)
{
    const struct d3d12xs_dxbc_ranges *out = w->out;
    if (add_temps) {
        put(t, OP_DCL_TEMPS | 2u << LENGTH_SHIFT);
        put(t, 1);
    }
    for (uint32_t k = 0; k < out->site_count; k++) {
        const uint32_t *d = w->declaration_of[out->sites[k].resource];
        const uint32_t length = d[0] >> LENGTH_SHIFT & 0x7f;
        uint32_t at = 2, start = (uint32_t)t->count;
        /* a copy of the range's declaration: indices (id, first, last) = (site id, k, k), space SITE_SPACE */
        if (d[1] & EXTENDED_BIT) {
            while (at < length && d[at] & EXTENDED_BIT)
                at++;
            at++;
        }
        if (at + 3 >= length)
            return d3d12xs_write_error(E_INVALIDARG, w->error, w->error_size, "the declaration of a register range is %u tokens long, "
                    "too short for its operand and space", length);
        put_all(t, d, length);
        if (t->failed)
            return d3d12xs_write_error(E_OUTOFMEMORY, w->error, w->error_size, "out of memory");
        t->at[start + at] = w->first_fresh_id + 2 * k;
        t->at[start + at + 1] = k;
        t->at[start + at + 2] = k;
        t->at[start + length - 1] = D3D12XS_DXBC_SITE_SPACE;
        if (out->sites[k].dynamic) {
            /* dcl_constantbuffer CB<marker id>[marker register:marker register][1], dynamicIndexed, space SITE_SPACE */
            put(t, OP_DCL_CONSTANT_BUFFER | CONSTANT_BUFFER_DYNAMIC_INDEXED | 7u << LENGTH_SHIFT);
            put(t, (uint32_t)OPERAND_CONSTANT_BUFFER << 12 | 3u << 20 | 2u | 1u << 2 | 0xe4u << 4);
            put(t, w->first_fresh_id + 2 * k + 1);
            put(t, D3D12XS_DXBC_MARKER_REGISTER + k);
            put(t, D3D12XS_DXBC_MARKER_REGISTER + k);
            put(t, 1);
            put(t, D3D12XS_DXBC_SITE_SPACE);
        }
    }
    return S_OK;
}

HRESULT d3d12xs_dxbc_replace_program(const uint8_t *code, const uint8_t *program, const uint32_t *tokens, size_t count,
        uint8_t **out, size_t *out_size)
{
    const uint32_t part_count = le32(code + 28), header = 32 + 4 * part_count;
    size_t total = header, offset = header;
    uint8_t *container;

    /* each part starts 4-byte aligned, as dxbc.c wants: a part of odd size gets padding */
    for (uint32_t i = 0; i < part_count; i++) {
        const uint8_t *part = code + le32(code + 32 + 4 * i);
        total += (8 + (part + 8 == program ? 4 * count : le32(part + 4)) + 3) & ~(size_t)3;
    }
    if (total > UINT32_MAX || !(container = calloc(1, total)))
        return E_OUTOFMEMORY;
    memcpy(container, code, 32);
    {
        uint32_t v = (uint32_t)total;
        memcpy(container + 24, &v, 4);
    }
    for (uint32_t i = 0; i < part_count; i++) {
        const uint8_t *part = code + le32(code + 32 + 4 * i);
        uint32_t part_size = part + 8 == program ? (uint32_t)(4 * count) : le32(part + 4), o = (uint32_t)offset;
        memcpy(container + 32 + 4 * i, &o, 4);
        memcpy(container + offset, part, 4);
        memcpy(container + offset + 4, &part_size, 4);
        if (part + 8 == program)
            memcpy(container + offset + 8, tokens, part_size);
        else
            memcpy(container + offset + 8, part + 8, part_size);
        offset += (8 + (size_t)part_size + 3) & ~(size_t)3;
    }
    d3d12xs_dxbc_checksum(container, total, container + 4);
    *out = container;
    *out_size = total;
    return S_OK;
}

/* The container with its shader part's tokens replaced, and a new checksum. */
static HRESULT build_container(struct rewriter *w, const uint8_t *code, const uint8_t *program, const struct tokens *t)
{
    if (FAILED(d3d12xs_dxbc_replace_program(code, program, t->at, t->count, &w->out->container, &w->out->size)))
        return d3d12xs_write_error(E_OUTOFMEMORY, w->error, w->error_size, "out of memory");
    return S_OK;
}

const uint8_t *d3d12xs_dxbc_find_program(const uint8_t *code)
{
    const uint32_t part_count = le32(code + 28);
    for (uint32_t i = 0; i < part_count; i++) {
        const uint8_t *part = code + le32(code + 32 + 4 * i);
        uint32_t tag = le32(part);
        if (tag == TAG('S', 'H', 'E', 'X') || tag == TAG('S', 'H', 'D', 'R'))
            return part + 8;
    }
    return NULL;
}

HRESULT d3d12xs_dxbc_rewrite_ranges(const void *code, const struct d3d12xs_dxbc_shader *shader,
        struct d3d12xs_dxbc_ranges *out, char *error, size_t error_size)
{
    struct rewriter w = {shader, out, NULL, 0, 0, 0, error, error_size};
    struct tokens body = {0}, final = {0};
    const uint8_t *program;
    const uint32_t *tokens;
    uint32_t *copy, length, resource = 0, temps = 0, max_id = 0;
    size_t site_declarations_at = SIZE_MAX, temps_at = SIZE_MAX;
    bool any_range = false, any_dynamic = false;
    HRESULT hr = S_OK;

    memset(out, 0, sizeof(*out));
    for (uint32_t i = 0; i < shader->resource_count; i++) {
        any_range |= shader->resources[i].first != shader->resources[i].last;
        max_id = shader->resources[i].id > max_id ? shader->resources[i].id : max_id;
    }
    if (!any_range)
        return S_OK;
    if (max_id >= UINT32_MAX / 2)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "register range id %u (ids below %u are supported)", max_id,
                UINT32_MAX / 2);
    w.first_fresh_id = max_id + 1;
    if (!(program = d3d12xs_dxbc_find_program(code)) || !(w.declaration_of = calloc(shader->resource_count, sizeof(*w.declaration_of))))
        return d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory");
    /* an aligned copy: the application's bytecode may sit at any address */
    if (!(copy = malloc(le32(program - 4)))) {
        free(w.declaration_of);
        return d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory");
    }
    memcpy(copy, program, le32(program - 4));
    tokens = copy;
    length = tokens[1];
    for (uint32_t offset = 2; offset < length;) {
        const uint32_t opcode = tokens[offset] & 0x7ff;
        const uint32_t n = opcode == OP_CUSTOM_DATA ? tokens[offset + 1] : tokens[offset] >> LENGTH_SHIFT & 0x7f;
        if (opcode == OP_DCL_TEMPS)
            temps = tokens[offset + 1];
        offset += n;
    }
    w.extra_temp = temps;
    put(&body, tokens[0]);
    put(&body, 0); /* the length, once known */
    for (uint32_t offset = 2; offset < length;) {
        const uint32_t opcode = tokens[offset] & 0x7ff;
        const uint32_t n = opcode == OP_CUSTOM_DATA ? tokens[offset + 1] : tokens[offset] >> LENGTH_SHIFT & 0x7f;
        if (is_resource_declaration(opcode)) {
            const struct d3d12xs_dxbc_resource *r = &shader->resources[resource];
            w.declaration_of[resource++] = tokens + offset;
            if (r->first != r->last) {
                if (site_declarations_at == SIZE_MAX)
                    site_declarations_at = body.count;
            } else {
                put_all(&body, tokens + offset, n);
            }
        } else if (is_declaration(opcode)) {
            if (opcode == OP_DCL_TEMPS)
                temps_at = body.count;
            put_all(&body, tokens + offset, n);
        } else if (FAILED(hr = rewrite_instruction(&w, tokens + offset, n, offset, &body))) {
            goto done;
        }
        offset += n;
    }
    if (body.failed) {
        hr = d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory");
        goto done;
    }
    if (!out->site_count)
        goto done; /* ranges declared, never read: the shader stays as it is */
    for (uint32_t k = 0; k < out->site_count; k++)
        any_dynamic |= out->sites[k].dynamic;
    if (any_dynamic && temps_at != SIZE_MAX)
        body.at[temps_at + 1]++;
    put_all(&final, body.at, site_declarations_at);
    if (FAILED(hr = put_site_declarations(&w, &final, any_dynamic && temps_at == SIZE_MAX)))
        goto done;
    put_all(&final, body.at + site_declarations_at, body.count - site_declarations_at);
    if (final.failed) {
        hr = d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory");
        goto done;
    }
    final.at[1] = (uint32_t)final.count;
    hr = build_container(&w, code, program, &final);

done:
    free(body.at);
    free(final.at);
    free(w.declaration_of);
    free(copy);
    if (FAILED(hr))
        d3d12xs_dxbc_ranges_cleanup(out);
    return hr;
}

void d3d12xs_dxbc_ranges_cleanup(struct d3d12xs_dxbc_ranges *ranges)
{
    free(ranges->container);
    free(ranges->sites);
    memset(ranges, 0, sizeof(*ranges));
}
