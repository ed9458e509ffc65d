/* ExecuteIndirect's own path for signatures that set vertex or index buffer views
 * (spirv_passes.h, docs/indirect.md): without VK_EXT_device_generated_commands Vulkan binds
 * vertex and index buffers only from the CPU, so the variant's vertex shader fetches its inputs
 * itself. Each Input variable at an element's Location becomes a Private variable; at the entry
 * point's start, straight-line code (no blocks: a read out of range loads from the image itself
 * and is then replaced by 0) reads each element through PhysicalStorageBuffer uint loads at
 * 4-byte aligned addresses and decodes its format:
 *
 *   image   = the pushed address (+ DrawIndex * stride for one multi-draw)
 *   vertex  = VertexIndex, or with an index buffer: index[VertexIndex] + BaseVertexLocation
 *   element = slot address + index * stride + offset, index per vertex or per instance
 *             ((InstanceIndex - BaseInstance) / step rate + BaseInstance, Vulkan's divisor rule)
 *
 * The image's views hold device addresses already (the image pass translated them,
 * commands/shaders/indirect_vertex_views.comp) and sizes clamped to their buffer, 0 where the
 * address is in no buffer. */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

#include "spirv/spirv_passes.h"
#include "spirv/spirv_psb.h"
#include "spirv/spirv_push_block.h"

#define DXGI_R16_UINT 57u

struct pull {
    struct d3d12xs_spirv_module *m;
    const struct d3d12xs_spirv_vertex_pulling_args *args;
    uint32_t *code; /* the prologue's instructions, inserted at the end */
    size_t count, capacity;
    bool out_of_memory;
    uint32_t t_bool, t_u32, t_f32, t_u64, t_uvec2, t_vec2, t_psb_u32, glsl;
    uint32_t image; /* u64 */
    char *error;
    size_t error_size;
};

static void emit_words(struct pull *p, const uint32_t *words, uint32_t n)
{
    if (p->count + n > p->capacity) {
        size_t capacity = (p->capacity + n) * 2;
        uint32_t *bigger = realloc(p->code, capacity * sizeof(*bigger));
        if (!bigger) {
            p->out_of_memory = true;
            return;
        }
        p->code = bigger;
        p->capacity = capacity;
    }
    memcpy(p->code + p->count, words, n * sizeof(*words));
    p->count += n;
}

/* An instruction with a result type and id (the operands after them): its id. */
static uint32_t value(struct pull *p, uint32_t op, uint32_t type, const uint32_t *operands, uint32_t n)
{
    uint32_t words[16], id = d3d12xs_spirv_new_id(p->m);
    words[0] = op | (3 + n) << 16;
    words[1] = type;
    words[2] = id;
    memcpy(&words[3], operands, n * sizeof(*operands));
    emit_words(p, words, 3 + n);
    return id;
}
#define V(p, op, type, ...) value(p, op, type, (const uint32_t[]){__VA_ARGS__}, sizeof((const uint32_t[]){__VA_ARGS__}) / 4)

static uint32_t u32c(struct pull *p, uint32_t v) { return d3d12xs_spirv_constant(p->m, p->t_u32, v); }
static uint32_t u64c(struct pull *p, uint64_t v) { return d3d12xs_spirv_constant64(p->m, p->t_u64, v); }
static uint32_t f32c(struct pull *p, float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof(bits));
    return d3d12xs_spirv_constant(p->m, p->t_f32, bits);
}

/* The uint at a 4-aligned device address. */
static uint32_t load_word(struct pull *p, uint32_t address)
{
    uint32_t pointer = V(p, SpvOpConvertUToPtr, p->t_psb_u32, address), id = d3d12xs_spirv_new_id(p->m);
    const uint32_t words[6] = {SpvOpLoad | 6u << 16, p->t_u32, id, pointer, SpvMemoryAccessAlignedMask, 4};
    emit_words(p, words, 6);
    return id;
}

static uint32_t image_word(struct pull *p, uint32_t byte_offset)
{
    return load_word(p, V(p, SpvOpIAdd, p->t_u64, p->image, u64c(p, byte_offset)));
}

static uint32_t pair_to_u64(struct pull *p, uint32_t lo, uint32_t hi)
{
    return V(p, SpvOpBitcast, p->t_u64, V(p, SpvOpCompositeConstruct, p->t_uvec2, lo, hi));
}

/* The builtin Input variable only if the module has it (0: none). */
static uint32_t existing_builtin(struct pull *p, uint32_t builtin)
{
    const struct d3d12xs_spirv_inst *inst, *variable;
    for (D3D12XS_SPIRV_EACH(p->m, D3D12XS_SPIRV_ANNOTATIONS, i, inst))
        if (d3d12xs_spirv_op(inst) == SpvOpDecorate && d3d12xs_spirv_len(inst) == 4 && inst->w[2] == SpvDecorationBuiltIn
                && inst->w[3] == builtin && (variable = d3d12xs_spirv_def_op(p->m, inst->w[1], SpvOpVariable, 4))
                && variable->w[3] == SpvStorageClassInput)
            return inst->w[1];
    return 0;
}

/* The Input variable decorated BuiltIn builtin (reuse: the module's own if it has one), else a new
 * uint one in the entry points' interfaces. */
static uint32_t builtin_input(struct pull *p, uint32_t builtin, bool reuse)
{
    struct d3d12xs_spirv_module *m = p->m;
    struct d3d12xs_spirv_inst *inst;
    uint32_t id;

    if (reuse && (id = existing_builtin(p, builtin)))
        return id;
    if (!(id = d3d12xs_spirv_new_id(m)))
        return 0;
    {
        const uint32_t declaration[4] = {SpvOpVariable | 4u << 16, d3d12xs_spirv_type_pointer(m, SpvStorageClassInput, p->t_u32), id,
                SpvStorageClassInput};
        const uint32_t decoration[4] = {SpvOpDecorate | 4u << 16, id, SpvDecorationBuiltIn, builtin};
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, declaration, 4);
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_ANNOTATIONS, decoration, 4);
    }
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ENTRY_POINTS, i, inst))
        d3d12xs_spirv_append_operand(m, inst, id);
    if (builtin == SpvBuiltInBaseInstance || builtin == SpvBuiltInBaseVertex || builtin == SpvBuiltInDrawIndex) {
        d3d12xs_spirv_add_capability(m, SpvCapabilityDrawParameters);
        d3d12xs_spirv_add_extension(m, "SPV_KHR_shader_draw_parameters");
    }
    return id;
}

/* A builtin's value as uint (the shader may declare it int). */
static uint32_t load_builtin(struct pull *p, uint32_t variable)
{
    const struct d3d12xs_spirv_inst *def = d3d12xs_spirv_def(p->m, variable);
    const struct d3d12xs_spirv_inst *pointer = def ? d3d12xs_spirv_def_op(p->m, def->w[1], SpvOpTypePointer, 4) : NULL;
    uint32_t type = pointer ? pointer->w[3] : p->t_u32, loaded = V(p, SpvOpLoad, type, variable);
    return type == p->t_u32 ? loaded : V(p, SpvOpBitcast, p->t_u32, loaded);
}

/* ---- Input variables become Private ---- */

static bool is_listed(uint32_t id, void *context)
{
    const uint32_t *ids = context;
    for (uint32_t k = 1; k <= ids[0]; k++)
        if (ids[k] == id)
            return true;
    return false;
}

/* The variable, its decorations gone, Private (and out of the interface before SPIR-V 1.4, which
 * lists every global); access chains from it made Private pointers. Its pointee type. */
static uint32_t make_private(struct pull *p, uint32_t variable)
{
    struct d3d12xs_spirv_module *m = p->m;
    struct d3d12xs_spirv_inst *def = d3d12xs_spirv_def(m, variable), *inst;
    const struct d3d12xs_spirv_inst *pointer = d3d12xs_spirv_def_op(m, def->w[1], SpvOpTypePointer, 4);
    uint32_t pointee = pointer->w[3], words[4] = {def->w[0], d3d12xs_spirv_type_pointer(m, SpvStorageClassPrivate, pointee), variable,
            SpvStorageClassPrivate};
    struct d3d12xs_spirv_list *annotations = &m->sections[D3D12XS_SPIRV_ANNOTATIONS];
    uint32_t derived[64] = {1, variable};

    /* again at the globals' end, after its new pointer type */
    d3d12xs_spirv_remove(m, D3D12XS_SPIRV_GLOBALS, d3d12xs_spirv_index_of(m, def));
    d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, words, 4);
    for (size_t i = annotations->count; i-- > 0;) {
        inst = annotations->at[i];
        if (d3d12xs_spirv_op(inst) == SpvOpDecorate && d3d12xs_spirv_len(inst) >= 3 && inst->w[1] == variable)
            d3d12xs_spirv_remove(m, D3D12XS_SPIRV_ANNOTATIONS, i);
    }
    if (m->version < 0x10400) {
        uint32_t one[2] = {1, variable};
        d3d12xs_spirv_filter_interface(m, is_listed, one);
    }
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_FUNCTIONS, i, inst)) {
        uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst), copy[32];
        const struct d3d12xs_spirv_inst *type;
        if ((op != SpvOpAccessChain && op != SpvOpInBoundsAccessChain) || n < 4 || n > 32 || !is_listed(inst->w[3], derived)
                || !(type = d3d12xs_spirv_def_op(m, inst->w[1], SpvOpTypePointer, 4)) || derived[0] + 1 >= 64)
            continue;
        memcpy(copy, inst->w, n * 4);
        copy[1] = d3d12xs_spirv_type_pointer(m, SpvStorageClassPrivate, type->w[3]);
        derived[++derived[0]] = inst->w[2];
        d3d12xs_spirv_rewrite(m, inst, copy, n);
    }
    return pointee;
}

static void store(struct pull *p, uint32_t variable, uint32_t stored)
{
    const uint32_t words[3] = {SpvOpStore | 3u << 16, variable, stored};
    emit_words(p, words, 3);
}

/* ---- elements ---- */

struct format_shape {
    uint32_t bits[4], at[4]; /* per component: width and bit position in the element */
    uint32_t bytes;
    char kind;               /* 'f' float, 'u' unorm, 's' snorm, 'h' half, 'U' uint, 'S' sint */
};

static struct format_shape shape_of(const struct d3d12xs_spirv_vertex_element *e)
{
    struct format_shape s = {{0}, {0}, 0, 'f'};
    uint32_t width = 32;
    switch (e->format) {
    case D3D12XS_VERTEX_FLOAT32: s.kind = 'f'; break;
    case D3D12XS_VERTEX_UINT32: s.kind = 'U'; break;
    case D3D12XS_VERTEX_SINT32: s.kind = 'S'; break;
    case D3D12XS_VERTEX_FLOAT16: s.kind = 'h'; width = 16; break;
    case D3D12XS_VERTEX_UNORM16: s.kind = 'u'; width = 16; break;
    case D3D12XS_VERTEX_SNORM16: s.kind = 's'; width = 16; break;
    case D3D12XS_VERTEX_UINT16: s.kind = 'U'; width = 16; break;
    case D3D12XS_VERTEX_SINT16: s.kind = 'S'; width = 16; break;
    case D3D12XS_VERTEX_UNORM8: s.kind = 'u'; width = 8; break;
    case D3D12XS_VERTEX_SNORM8: s.kind = 's'; width = 8; break;
    case D3D12XS_VERTEX_UINT8: s.kind = 'U'; width = 8; break;
    case D3D12XS_VERTEX_SINT8: s.kind = 'S'; width = 8; break;
    case D3D12XS_VERTEX_B8G8R8A8_UNORM: /* blue in the first byte */
        s = (struct format_shape){{8, 8, 8, 8}, {16, 8, 0, 24}, 4, 'u'};
        return s;
    case D3D12XS_VERTEX_UNORM10_10_10_2:
    case D3D12XS_VERTEX_UINT10_10_10_2:
        s = (struct format_shape){{10, 10, 10, 2}, {0, 10, 20, 30}, 4, e->format == D3D12XS_VERTEX_UINT10_10_10_2 ? 'U' : 'u'};
        return s;
    }
    for (uint32_t c = 0; c < e->components; c++) {
        s.bits[c] = width;
        s.at[c] = c * width;
    }
    s.bytes = e->components * width / 8;
    return s;
}

/* The Input variable at location (component 0), or 0. */
static uint32_t input_at(const struct d3d12xs_spirv_module *m, uint32_t location)
{
    const struct d3d12xs_spirv_inst *inst, *variable;
    uint32_t value;
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ANNOTATIONS, i, inst))
        if (d3d12xs_spirv_op(inst) == SpvOpDecorate && d3d12xs_spirv_len(inst) == 4 && inst->w[2] == SpvDecorationLocation
                && inst->w[3] == location && (variable = d3d12xs_spirv_def_op(m, inst->w[1], SpvOpVariable, 4))
                && variable->w[3] == SpvStorageClassInput && !(d3d12xs_spirv_decoration(m, inst->w[1], SpvDecorationComponent, &value) && value))
            return inst->w[1];
    return 0;
}

/* The variable's scalar type and component count: 32-bit float or integer scalars and vectors. */
static bool input_type(const struct d3d12xs_spirv_module *m, uint32_t type, uint32_t *scalar, uint32_t *count)
{
    const struct d3d12xs_spirv_inst *def = d3d12xs_spirv_def(m, type);
    *count = 1;
    if (def && d3d12xs_spirv_op(def) == SpvOpTypeVector && d3d12xs_spirv_len(def) == 4) {
        *count = def->w[3];
        def = d3d12xs_spirv_def(m, def->w[2]);
    }
    if (!def || (d3d12xs_spirv_op(def) != SpvOpTypeFloat && d3d12xs_spirv_op(def) != SpvOpTypeInt) || def->w[2] != 32 || *count > 4)
        return false;
    *scalar = def->w[1];
    return true;
}

/* The element's bytes from address (the element's device address, u64) as uints raw[0..words):
 * the 4-aligned words that hold them, shifted into place. Out of range: loads from the image. */
static void element_words(struct pull *p, uint32_t address, uint32_t in_range, uint32_t bytes, uint32_t *raw)
{
    uint32_t words = (bytes + 3) / 4, loaded[5];
    uint32_t safe = V(p, SpvOpSelect, p->t_u64, in_range, address, p->image);
    uint32_t aligned = V(p, SpvOpBitwiseAnd, p->t_u64, safe, u64c(p, ~(uint64_t)3));
    uint32_t last = V(p, SpvOpBitwiseAnd, p->t_u64, V(p, SpvOpIAdd, p->t_u64, safe, u64c(p, bytes - 1)), u64c(p, ~(uint64_t)3));
    uint32_t shift = V(p, SpvOpUConvert, p->t_u32, V(p, SpvOpShiftLeftLogical, p->t_u64,
            V(p, SpvOpBitwiseAnd, p->t_u64, safe, u64c(p, 3)), u64c(p, 3)));
    uint32_t shift64 = V(p, SpvOpUConvert, p->t_u64, shift);

    /* words + 1 loads, the ones past the element's last word reading that word again */
    for (uint32_t k = 0; k <= words; k++) {
        uint32_t at = V(p, SpvOpIAdd, p->t_u64, aligned, u64c(p, 4 * k));
        at = V(p, SpvOpSelect, p->t_u64, V(p, SpvOpULessThan, p->t_bool, at, last), at, last);
        loaded[k] = load_word(p, at);
    }
    for (uint32_t k = 0; k < words; k++) {
        uint32_t pair = pair_to_u64(p, loaded[k], loaded[k + 1]);
        raw[k] = V(p, SpvOpUConvert, p->t_u32, V(p, SpvOpShiftRightLogical, p->t_u64, pair, shift64));
    }
}

/* Component c of the element, as a float or as the integer's bits. */
static uint32_t component(struct pull *p, const struct format_shape *s, const uint32_t *raw, uint32_t c)
{
    uint32_t word = raw[s->at[c] / 32], bits = s->bits[c], x, max;
    if (bits == 32)
        x = word;
    else
        x = V(p, s->kind == 's' || s->kind == 'S' ? SpvOpBitFieldSExtract : SpvOpBitFieldUExtract, p->t_u32, word, u32c(p, s->at[c] % 32),
                u32c(p, bits));
    switch (s->kind) {
    case 'f':
        return V(p, SpvOpBitcast, p->t_f32, x);
    case 'h':
        return V(p, SpvOpCompositeExtract, p->t_f32, V(p, SpvOpExtInst, p->t_vec2, p->glsl, GLSLstd450UnpackHalf2x16, x), 0);
    case 'u':
        max = (uint32_t)((1ull << bits) - 1);
        return V(p, SpvOpFDiv, p->t_f32, V(p, SpvOpConvertUToF, p->t_f32, x), f32c(p, (float)max));
    case 's': /* the most negative value is -1 too */
        max = (1u << (bits - 1)) - 1;
        return V(p, SpvOpExtInst, p->t_f32, p->glsl, GLSLstd450FMax, V(p, SpvOpFDiv, p->t_f32,
                V(p, SpvOpConvertSToF, p->t_f32, V(p, SpvOpBitcast, d3d12xs_spirv_type_int(p->m, 32, 1), x)), f32c(p, (float)max)), f32c(p, -1.0f));
    default:
        return x;
    }
}

/* Fills variable from element e of its slot's view (entry words lo, hi, size, stride) at index. */
static HRESULT fetch_element(struct pull *p, const struct d3d12xs_spirv_vertex_element *e, uint32_t variable, const uint32_t *slot_view,
        uint32_t index)
{
    struct format_shape s = shape_of(e);
    bool is_float = s.kind != 'U' && s.kind != 'S';
    uint32_t scalar, count, pointee, values[4], raw[4], out[4];
    uint32_t element_type = is_float ? p->t_f32 : p->t_u32, zero = is_float ? f32c(p, 0.0f) : u32c(p, 0);
    uint32_t one = is_float ? f32c(p, 1.0f) : u32c(p, 1);
    uint32_t offset, in_range, address;

    pointee = make_private(p, variable);
    if (!input_type(p->m, pointee, &scalar, &count))
        return d3d12xs_write_error(E_NOTIMPL, p->error, p->error_size, "the vertex shader's input at Location %u is not a 32-bit scalar "
                "or vector, which the own path cannot fetch from memory", e->location);
    offset = V(p, SpvOpIAdd, p->t_u64, V(p, SpvOpIMul, p->t_u64, V(p, SpvOpUConvert, p->t_u64, index),
            V(p, SpvOpUConvert, p->t_u64, slot_view[3])), u64c(p, e->offset));
    in_range = V(p, SpvOpULessThanEqual, p->t_bool, V(p, SpvOpIAdd, p->t_u64, offset, u64c(p, s.bytes)),
            V(p, SpvOpUConvert, p->t_u64, slot_view[2]));
    address = V(p, SpvOpIAdd, p->t_u64, pair_to_u64(p, slot_view[0], slot_view[1]), offset);
    element_words(p, address, in_range, s.bytes, raw);
    for (uint32_t c = 0; c < 4; c++) /* D3D's defaults for what the format lacks; 0 out of range */
        values[c] = c < e->components ? V(p, SpvOpSelect, element_type, in_range, component(p, &s, raw, c), zero) : c == 3 ? one : zero;
    for (uint32_t c = 0; c < count; c++)
        out[c] = scalar == element_type ? values[c] : V(p, SpvOpBitcast, scalar, values[c]);
    if (count == 1) {
        store(p, variable, out[0]);
    } else {
        uint32_t words[7] = {SpvOpCompositeConstruct | (3 + count) << 16, pointee, d3d12xs_spirv_new_id(p->m)};
        memcpy(&words[3], out, count * 4);
        emit_words(p, words, 3 + count);
        store(p, variable, words[2]);
    }
    return S_OK;
}

/* ---- the prologue ---- */

static uint32_t type_of(struct pull *p, const uint32_t *words, uint32_t n)
{
    return d3d12xs_spirv_global(p->m, words, n, 1);
}

static HRESULT add_types(struct pull *p)
{
    const uint32_t t_bool[2] = {SpvOpTypeBool | 2u << 16, 0}, t_f32[3] = {SpvOpTypeFloat | 3u << 16, 0, 32};
    uint32_t vector[4] = {SpvOpTypeVector | 4u << 16, 0, 0, 2};

    p->t_bool = type_of(p, t_bool, 2);
    p->t_u32 = d3d12xs_spirv_type_int(p->m, 32, 0);
    p->t_u64 = d3d12xs_spirv_type_int(p->m, 64, 0);
    p->t_f32 = type_of(p, t_f32, 3);
    vector[2] = p->t_u32;
    p->t_uvec2 = type_of(p, vector, 4);
    vector[2] = p->t_f32;
    p->t_vec2 = type_of(p, vector, 4);
    p->t_psb_u32 = d3d12xs_spirv_type_pointer(p->m, SpvStorageClassPhysicalStorageBuffer, p->t_u32);
    p->glsl = d3d12xs_spirv_glsl_import(p->m);
    return p->m->out_of_memory ? E_OUTOFMEMORY : S_OK;
}

/* image = the pushed address, advanced by DrawIndex * stride (with the carry) for one multi-draw. */
static HRESULT image_address(struct pull *p)
{
    struct d3d12xs_spirv_push_member lo, hi;
    uint32_t lo_value, hi_value;
    HRESULT hr;

    if (FAILED(hr = d3d12xs_spirv_push_member(p->m, p->args->address_offset, &lo, p->error, p->error_size))
            || FAILED(hr = d3d12xs_spirv_push_member(p->m, p->args->address_offset + 4, &hi, p->error, p->error_size)))
        return hr;
    lo_value = V(p, SpvOpLoad, p->t_u32, V(p, SpvOpAccessChain, lo.pointer, lo.variable, u32c(p, lo.member)));
    hi_value = V(p, SpvOpLoad, p->t_u32, V(p, SpvOpAccessChain, hi.pointer, hi.variable, u32c(p, hi.member)));
    p->image = pair_to_u64(p, lo_value, hi_value);
    if (p->args->draw_index_stride) {
        uint32_t draw = V(p, SpvOpUConvert, p->t_u64, load_builtin(p, builtin_input(p, SpvBuiltInDrawIndex, true)));
        p->image = V(p, SpvOpIAdd, p->t_u64, p->image, V(p, SpvOpIMul, p->t_u64, draw, u64c(p, p->args->draw_index_stride)));
    }
    return S_OK;
}

/* The vertex fetched from: with an index buffer, its index at VertexIndex plus BaseVertexLocation,
 * and the shader's VertexIndex and BaseVertex made what an indexed draw gives them. */
static uint32_t vertex_index(struct pull *p)
{
    const struct d3d12xs_spirv_vertex_pulling_args *args = p->args;
    uint32_t shader_vertex, shader_base, real_vertex, lo, hi, size, format, is16, index_bytes, byte, end, in_range;
    uint32_t address, aligned, word, shift, index, base_vertex, vertex;

    if (args->index_entry == UINT32_MAX)
        return load_builtin(p, builtin_input(p, SpvBuiltInVertexIndex, true));
    shader_vertex = existing_builtin(p, SpvBuiltInVertexIndex);
    shader_base = existing_builtin(p, SpvBuiltInBaseVertex);
    real_vertex = load_builtin(p, builtin_input(p, SpvBuiltInVertexIndex, false));
    lo = image_word(p, args->index_entry);
    hi = image_word(p, args->index_entry + 4);
    size = image_word(p, args->index_entry + 8);
    format = image_word(p, args->index_entry + 12);
    is16 = V(p, SpvOpIEqual, p->t_bool, format, u32c(p, DXGI_R16_UINT));
    index_bytes = V(p, SpvOpSelect, p->t_u64, is16, u64c(p, 2), u64c(p, 4));
    byte = V(p, SpvOpIMul, p->t_u64, V(p, SpvOpUConvert, p->t_u64, real_vertex), index_bytes);
    end = V(p, SpvOpIAdd, p->t_u64, byte, index_bytes);
    in_range = V(p, SpvOpULessThanEqual, p->t_bool, end, V(p, SpvOpUConvert, p->t_u64, size));
    address = V(p, SpvOpSelect, p->t_u64, in_range, V(p, SpvOpIAdd, p->t_u64, pair_to_u64(p, lo, hi), byte), p->image);
    aligned = V(p, SpvOpBitwiseAnd, p->t_u64, address, u64c(p, ~(uint64_t)3));
    word = load_word(p, aligned);
    shift = V(p, SpvOpUConvert, p->t_u32, V(p, SpvOpShiftLeftLogical, p->t_u64, V(p, SpvOpBitwiseAnd, p->t_u64, address, u64c(p, 2)),
            u64c(p, 3)));
    index = V(p, SpvOpSelect, p->t_u32, is16, V(p, SpvOpBitFieldUExtract, p->t_u32, word, shift, u32c(p, 16)), word);
    index = V(p, SpvOpSelect, p->t_u32, in_range, index, u32c(p, 0));
    base_vertex = image_word(p, args->base_vertex);
    vertex = V(p, SpvOpIAdd, p->t_u32, index, base_vertex);
    /* the shader's own: VertexIndex - BaseVertex is the index, as in an indexed draw */
    if (shader_vertex) {
        uint32_t type = make_private(p, shader_vertex);
        store(p, shader_vertex, type == p->t_u32 ? vertex : V(p, SpvOpBitcast, type, vertex));
    }
    if (shader_base) {
        uint32_t type = make_private(p, shader_base);
        store(p, shader_base, type == p->t_u32 ? base_vertex : V(p, SpvOpBitcast, type, base_vertex));
    }
    return vertex;
}

static HRESULT build_prologue(struct pull *p)
{
    const struct d3d12xs_spirv_vertex_pulling_args *args = p->args;
    uint32_t variables[D3D12_IA_VERTEX_INPUT_STRUCTURE_ELEMENT_COUNT] = {0}, views[D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT][4];
    uint32_t indexes[D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT], slots = 0, vertex = 0, instance = 0, base_instance = 0;
    HRESULT hr;

    if (FAILED(hr = image_address(p)))
        return hr;
    /* the variables first: the index buffer's rewrite adds builtins, never at a Location */
    for (uint32_t i = 0; i < args->element_count && i < D3D12_IA_VERTEX_INPUT_STRUCTURE_ELEMENT_COUNT; i++)
        variables[i] = input_at(p->m, args->elements[i].location);
    /* with an index buffer, the shader's VertexIndex is made even where no element reads the vertex */
    if (args->index_entry != UINT32_MAX)
        vertex = vertex_index(p);
    for (uint32_t i = 0; i < args->element_count && SUCCEEDED(hr); i++) {
        const struct d3d12xs_spirv_vertex_element *e = &args->elements[i];
        if (!variables[i] || e->slot >= D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT)
            continue;
        if (!(slots & 1u << e->slot)) {
            slots |= 1u << e->slot;
            for (uint32_t w = 0; w < 4; w++)
                views[e->slot][w] = image_word(p, args->slot_entries + 16 * e->slot + 4 * w);
            if (!e->per_instance) {
                if (!vertex)
                    vertex = vertex_index(p);
                indexes[e->slot] = vertex;
            } else {
                if (!instance) {
                    instance = load_builtin(p, builtin_input(p, SpvBuiltInInstanceIndex, true));
                    base_instance = load_builtin(p, builtin_input(p, SpvBuiltInBaseInstance, true));
                }
                /* Vulkan's divisor rule, as the pipeline's own vertex input fetches */
                indexes[e->slot] = e->step_rate == 1 ? instance : !e->step_rate ? base_instance
                        : V(p, SpvOpIAdd, p->t_u32, V(p, SpvOpUDiv, p->t_u32, V(p, SpvOpISub, p->t_u32, instance, base_instance),
                                u32c(p, e->step_rate)), base_instance);
            }
        }
        hr = fetch_element(p, e, variables[i], views[e->slot], indexes[e->slot]);
    }
    return hr;
}

/* Where the entry point's first block's instructions start (after its OpVariables). */
static size_t prologue_index(const struct d3d12xs_spirv_module *m)
{
    const struct d3d12xs_spirv_list *functions = &m->sections[D3D12XS_SPIRV_FUNCTIONS];
    const struct d3d12xs_spirv_inst *entry = m->sections[D3D12XS_SPIRV_ENTRY_POINTS].at[0];
    size_t i = 0;

    while (i < functions->count && !(d3d12xs_spirv_op(functions->at[i]) == SpvOpFunction && functions->at[i]->w[2] == entry->w[2]))
        i++;
    while (i < functions->count && d3d12xs_spirv_op(functions->at[i]) != SpvOpLabel)
        i++;
    for (i++; i < functions->count; i++) {
        uint32_t op = d3d12xs_spirv_op(functions->at[i]);
        if (op != SpvOpVariable && op != SpvOpLine && op != SpvOpNoLine)
            break;
    }
    return i;
}

HRESULT d3d12xs_spirv_pass_vertex_pulling(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_vertex_pulling_args *args,
        char *error, size_t error_size)
{
    struct pull p = {.m = m, .args = args, .error = error, .error_size = error_size};
    const struct d3d12xs_spirv_list *entries = &m->sections[D3D12XS_SPIRV_ENTRY_POINTS];
    size_t at;
    HRESULT hr;

    if (entries->count != 1 || entries->at[0]->w[1] != SpvExecutionModelVertex)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "vertex pulling needs a module of one vertex shader entry point");
    if (FAILED(hr = d3d12xs_spirv_check_addressing(m, error, error_size)) || FAILED(hr = add_types(&p)))
        return hr;
    if (SUCCEEDED(hr = build_prologue(&p)) && (p.out_of_memory || m->out_of_memory))
        hr = E_OUTOFMEMORY;
    if (SUCCEEDED(hr)) {
        at = prologue_index(m);
        for (size_t k = 0; k < p.count && !m->out_of_memory; k += p.code[k] >> 16)
            d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, at++, &p.code[k], p.code[k] >> 16);
        d3d12xs_spirv_use_psb(m);
        hr = m->out_of_memory ? E_OUTOFMEMORY : S_OK;
    }
    if (hr == E_OUTOFMEMORY)
        d3d12xs_write_error(hr, error, error_size, "out of memory");
    free(p.code);
    return hr;
}
