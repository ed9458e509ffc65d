/* DXBC containers, the declarations of their shaders and their signatures (dxbc.h). Token layouts are those
 * of the D3D10/11 tokenized program format (shader models 4 and 5). */
#include <stdlib.h>
#include <string.h>

#include "frontends/dxbc.h"
#include "common/util.h"
#include "descriptors/root_signature_blob.h" /* d3d12xs_dxbc_checksum */

#define CONTAINER_HEADER_SIZE 32u
#define TAG(a, b, c, d) ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)

/* Opcodes of the declarations read here, and of custom data (whose length is its second token). */
enum {
    OP_CUSTOM_DATA = 0x35,
    OP_DCL_RESOURCE = 0x58,
    OP_DCL_INDEX_RANGE = 0x5b,
    OP_DCL_INPUT = 0x5f,
    OP_DCL_INPUT_SGV = 0x60,
    OP_DCL_INPUT_SIV = 0x61,
    OP_HS_DECLS = 0x71,
    OP_HS_CONTROL_POINT_PHASE = 0x72,
    OP_HS_FORK_PHASE = 0x73,
    OP_HS_JOIN_PHASE = 0x74,
    OP_DCL_INPUT_CONTROL_POINT_COUNT = 0x93,
    OP_DCL_OUTPUT_CONTROL_POINT_COUNT = 0x94,
    OP_DCL_CONSTANT_BUFFER = 0x59,
    OP_DCL_SAMPLER = 0x5a,
    OP_DCL_TEMPS = 0x68,
    OP_DCL_INDEXABLE_TEMP = 0x69,
    OP_DCL_THREAD_GROUP = 0x9b,
    OP_DCL_TGSM_RAW = 0x9f,
    OP_DCL_TGSM_STRUCTURED = 0xa0,
    OP_DCL_UAV_TYPED = 0x9c,
    OP_DCL_UAV_RAW = 0x9d,
    OP_DCL_UAV_STRUCTURED = 0x9e,
    OP_DCL_RESOURCE_RAW = 0xa1,
    OP_DCL_RESOURCE_STRUCTURED = 0xa2,
};
/* Input operands' types: a hull shader's input and output control points (vicp, vocp). */
#define OPERAND_INPUT_CONTROL_POINT 0x19u
#define OPERAND_OUTPUT_CONTROL_POINT 0x1au
#define RESOURCE_DIMENSION_BUFFER 1u
#define RESOURCE_DIMENSION_TEXTURECUBEARRAY 10u
/* D3D11's limits for shader model 5 (D3D11_COMMONSHADER_TEMP_REGISTER_COUNT, the compute shader's
 * thread group and group shared memory): libvkd3d-shader declares what it is told, so a count
 * past them (a malformed shader) would make it build a huge module. */
#define MAX_TEMPS 4096u
#define MAX_GROUP_SHARED_BYTES 32768u
#define UAV_FLAG_COUNTER (1u << 23)
#define UAV_FLAG_GLOBALLY_COHERENT (1u << 16)

struct token_reader {
    const uint8_t *at;      /* the instruction's first token */
    uint32_t length;        /* its tokens */
    uint32_t next;          /* the token read next */
};

static uint32_t le32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4); /* DXBC is little-endian, as every target of d3d12xs is */
    return v;
}

static bool read_token(struct token_reader *r, uint32_t *token)
{
    if (r->next >= r->length)
        return false;
    *token = le32(r->at + 4 * r->next++);
    return true;
}

bool d3d12xs_dxbc_is_container(const void *code, size_t size)
{
    return code && size >= 4 && !memcmp(code, "DXBC", 4);
}

bool d3d12xs_dxbc_has_part(const void *code, size_t size, const char tag[4])
{
    const uint8_t *bytes = code;
    uint32_t total, count;

    if (!d3d12xs_dxbc_is_container(code, size) || size < CONTAINER_HEADER_SIZE)
        return false;
    total = le32(bytes + 24);
    count = le32(bytes + 28);
    if (total > size || (uint64_t)CONTAINER_HEADER_SIZE + 4ull * count > total)
        return false;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t offset = le32(bytes + CONTAINER_HEADER_SIZE + 4 * i);
        if (offset <= total && total - offset >= 8 && !memcmp(bytes + offset, tag, 4))
            return true;
    }
    return false;
}

/* The operand of a declaration: its type and immediate indices (at most 3). */
static HRESULT read_declared_operand(struct token_reader *r, uint32_t *type, uint32_t *indices, uint32_t *index_count,
        uint32_t offset, char *error, size_t error_size)
{
    uint32_t token, extended;

    if (!read_token(r, &token))
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "declaration at token %u has no operand", offset);
    *type = token >> 12 & 0xff;
    *index_count = token >> 20 & 0x3;
    if (token & 0x80000000u && !read_token(r, &extended))
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "declaration at token %u ends inside its operand", offset);
    for (uint32_t i = 0; i < *index_count; i++) {
        if (token >> (22 + 3 * i) & 0x7)
            return d3d12xs_write_error(E_INVALIDARG, error, error_size,
                    "declaration at token %u: index %u of its operand is not an immediate", offset, i);
        if (!read_token(r, &indices[i]))
            return d3d12xs_write_error(E_INVALIDARG, error, error_size, "declaration at token %u ends inside its operand", offset);
    }
    return S_OK;
}

static HRESULT add_resource(struct d3d12xs_dxbc_shader *shader, const struct d3d12xs_dxbc_resource *resource)
{
    struct d3d12xs_dxbc_resource *bigger;
    /* a shader declares a few: one allocation each is cheap */
    if (!(bigger = realloc(shader->resources, ((size_t)shader->resource_count + 1) * sizeof(*bigger))))
        return E_OUTOFMEMORY;
    shader->resources = bigger;
    shader->resources[shader->resource_count++] = *resource;
    return S_OK;
}

/* One declaration of a resource, cbuffer or sampler. */
static HRESULT read_declaration(struct d3d12xs_dxbc_shader *shader, uint32_t opcode_token, struct token_reader *r,
        uint32_t offset, char *error, size_t error_size)
{
    const uint32_t opcode = opcode_token & 0x7ff, dimension = opcode_token >> 11 & 0x1f;
    const bool sm51 = shader->major == 5 && shader->minor >= 1;
    struct d3d12xs_dxbc_resource resource = {0};
    uint32_t type = 0, indices[3] = {0}, index_count = 0, literal = 0;
    static const char letters[] = "btus";
    HRESULT hr;

    if (FAILED(hr = read_declared_operand(r, &type, indices, &index_count, offset, error, error_size)))
        return hr;
    switch (opcode) {
    case OP_DCL_CONSTANT_BUFFER: resource.register_class = D3D12XS_REGISTER_CBV; break;
    case OP_DCL_SAMPLER: resource.register_class = D3D12XS_REGISTER_SAMPLER; break;
    case OP_DCL_RESOURCE: case OP_DCL_RESOURCE_RAW: case OP_DCL_RESOURCE_STRUCTURED:
        resource.register_class = D3D12XS_REGISTER_SRV;
        break;
    default: resource.register_class = D3D12XS_REGISTER_UAV; break;
    }
    resource.view = opcode == OP_DCL_RESOURCE_RAW || opcode == OP_DCL_UAV_RAW ? D3D12XS_DXBC_VIEW_RAW
            : opcode == OP_DCL_RESOURCE_STRUCTURED || opcode == OP_DCL_UAV_STRUCTURED ? D3D12XS_DXBC_VIEW_STRUCTURED
            : D3D12XS_DXBC_VIEW_TYPED;
    if (index_count != (sm51 ? 3u : opcode == OP_DCL_CONSTANT_BUFFER ? 2u : 1u))
        return d3d12xs_write_error(E_INVALIDARG, error, error_size,
                "declaration at token %u: its operand has %u indices (shader model %u.%u declares %u)", offset, index_count,
                shader->major, shader->minor, sm51 ? 3u : opcode == OP_DCL_CONSTANT_BUFFER ? 2u : 1u);
    resource.first = sm51 ? indices[1] : indices[0];
    resource.last = sm51 ? indices[2] : indices[0];
    if (resource.last < resource.first || resource.first > D3D12XS_MAX_REGISTER
            || (resource.last > D3D12XS_MAX_REGISTER && resource.last != UINT32_MAX))
        return d3d12xs_write_error(E_INVALIDARG, error, error_size,
                "declaration at token %u: registers %c%u to %u (registers 0 to %u are supported, last not below first)",
                offset, letters[resource.register_class], resource.first, resource.last, D3D12XS_MAX_REGISTER);
    resource.id = indices[0];
    for (uint32_t i = 0; i < shader->resource_count; i++)
        if (shader->resources[i].register_class == resource.register_class && shader->resources[i].id == resource.id)
            return d3d12xs_write_error(E_INVALIDARG, error, error_size, "declaration at token %u: %c range id %u is declared twice",
                    offset, letters[resource.register_class], resource.id);
    /* What follows the operand: cbuffer size (5.1), stride, return type; then the space (5.1). */
    if ((opcode == OP_DCL_CONSTANT_BUFFER && sm51) || opcode == OP_DCL_RESOURCE_STRUCTURED || opcode == OP_DCL_UAV_STRUCTURED
            || opcode == OP_DCL_RESOURCE || opcode == OP_DCL_UAV_TYPED) {
        if (!read_token(r, &literal))
            return d3d12xs_write_error(E_INVALIDARG, error, error_size, "declaration at token %u ends early", offset);
    }
    if (resource.view == D3D12XS_DXBC_VIEW_STRUCTURED) {
        if (!literal || literal % 4 || literal > 2048)
            return d3d12xs_write_error(E_INVALIDARG, error, error_size,
                    "declaration at token %u: structure stride %u (a multiple of 4 from 4 to 2048)", offset, literal);
        resource.stride = literal;
    }
    if (sm51 && !read_token(r, &resource.space))
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "declaration at token %u has no register space", offset);
    if (sm51 && resource.space >= D3D12XS_HEAP_SPACE)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size,
                "declaration at token %u: space%u (spaces 0 to %u are supported)", offset, resource.space, D3D12XS_HEAP_SPACE - 1);
    /* Typed declarations of another dimension than a buffer are textures (1D to cube arrays, MS). */
    if (opcode == OP_DCL_RESOURCE || opcode == OP_DCL_UAV_TYPED) {
        if (dimension < RESOURCE_DIMENSION_BUFFER || dimension > RESOURCE_DIMENSION_TEXTURECUBEARRAY)
            return d3d12xs_write_error(E_INVALIDARG, error, error_size, "declaration at token %u: resource dimension %u (1 to %u)",
                    offset, dimension, RESOURCE_DIMENSION_TEXTURECUBEARRAY);
        resource.texture = dimension != RESOURCE_DIMENSION_BUFFER;
    }
    resource.counter = (opcode == OP_DCL_UAV_RAW || opcode == OP_DCL_UAV_STRUCTURED || opcode == OP_DCL_UAV_TYPED)
            && opcode_token & UAV_FLAG_COUNTER;
    resource.globally_coherent = resource.register_class == D3D12XS_REGISTER_UAV && opcode_token & UAV_FLAG_GLOBALLY_COHERENT;
    /* HLSL through D3DCompile refuses counters of arrays too (docs/descriptors.md): one counter
     * per descriptor of a range would need the counter's index, which libvkd3d-shader 1.2 drops */
    if (resource.counter && resource.last != resource.first)
        return d3d12xs_write_error(E_NOTIMPL, error, error_size,
                "u%u to u%u, space%u has a counter (IncrementCounter, Append, Consume): UAV counters of a register range are not "
                "supported in DXBC shaders (single UAVs' counters are)", resource.first, resource.last, resource.space);
    if (FAILED(hr = add_resource(shader, &resource)))
        return d3d12xs_write_error(hr, error, error_size, "out of memory");
    return S_OK;
}

/* Walks the token stream of the SHEX/SHDR part: every instruction inside it; declarations read. */
static HRESULT read_program(struct d3d12xs_dxbc_shader *shader, const uint8_t *part, uint32_t part_size,
        char *error, size_t error_size)
{
    uint32_t version, length, offset, temps = 0;
    uint64_t shared_bytes = 0;
    bool patch_phase = false;   /* inside a hull shader's fork or join phase */
    HRESULT hr;

    if (part_size < 8 || part_size % 4)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the shader part is %u bytes (at least 8, a multiple of 4)", part_size);
    version = le32(part);
    length = le32(part + 4);
    shader->program_type = version >> 16;
    shader->major = version >> 4 & 0xf;
    shader->minor = version & 0xf;
    if (shader->program_type > 5)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the DXBC shader's program type is %u (0 to 5)", shader->program_type);
    if (shader->major != 5 || shader->minor > 1)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the DXBC shader is shader model %u.%u (5.0 and 5.1 are supported)",
                shader->major, shader->minor);
    if (length < 2 || length > part_size / 4)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the shader's token count %u does not fit its %u-byte part", length, part_size);
    for (offset = 2; offset < length;) {
        uint32_t token = le32(part + 4 * offset), opcode = token & 0x7ff, instruction_length = token >> 24 & 0x7f, declared;
        struct token_reader r;
        if (opcode == OP_CUSTOM_DATA) {
            if (offset + 1 >= length)
                return d3d12xs_write_error(E_INVALIDARG, error, error_size, "custom data at token %u has no length", offset);
            instruction_length = le32(part + 4 * (offset + 1));
            if (instruction_length < 2)
                return d3d12xs_write_error(E_INVALIDARG, error, error_size, "custom data at token %u is %u tokens long", offset,
                        instruction_length);
        }
        if (!instruction_length || instruction_length > length - offset)
            return d3d12xs_write_error(E_INVALIDARG, error, error_size,
                    "instruction at token %u (opcode 0x%x) is %u tokens long, %s", offset, opcode, instruction_length,
                    instruction_length ? "past the end of the shader" : "which is invalid");
        r.at = part + 4 * offset;
        r.length = instruction_length;
        r.next = 1;
        if (opcode >= OP_HS_DECLS && opcode <= OP_HS_JOIN_PHASE)
            patch_phase = opcode == OP_HS_FORK_PHASE || opcode == OP_HS_JOIN_PHASE;
        shader->control_point_phase |= opcode == OP_HS_CONTROL_POINT_PHASE;
        if (opcode == OP_DCL_INPUT_CONTROL_POINT_COUNT)
            shader->input_control_points = token >> 11 & 0x3f;
        if (opcode == OP_DCL_OUTPUT_CONTROL_POINT_COUNT)
            shader->output_control_points = token >> 11 & 0x3f;
        /* which control points the patch-constant phases read (FXC declares each input a phase
         * reads): what the rewrite of dxbc_hull.h and the barrier of dxbc_translate.c go by */
        declared = patch_phase && shader->program_type == 3 && instruction_length >= 2
                && (opcode == OP_DCL_INPUT || opcode == OP_DCL_INPUT_SGV || opcode == OP_DCL_INPUT_SIV || opcode == OP_DCL_INDEX_RANGE)
                ? le32(part + 4 * (offset + 1)) >> 12 & 0xff : 0;
        shader->patch_phase_reads_input_points |= declared == OPERAND_INPUT_CONTROL_POINT;
        shader->patch_phase_reads_output_points |= declared == OPERAND_OUTPUT_CONTROL_POINT;
        switch (opcode) {
        case OP_DCL_CONSTANT_BUFFER: case OP_DCL_SAMPLER: case OP_DCL_RESOURCE: case OP_DCL_RESOURCE_RAW:
        case OP_DCL_RESOURCE_STRUCTURED: case OP_DCL_UAV_TYPED: case OP_DCL_UAV_RAW: case OP_DCL_UAV_STRUCTURED:
            if (FAILED(hr = read_declaration(shader, token, &r, offset, error, error_size)))
                return hr;
            break;
        case OP_DCL_THREAD_GROUP: {
            const uint32_t *g = shader->thread_group;
            for (unsigned i = 0; i < 3; i++)
                if (!read_token(&r, &shader->thread_group[i]))
                    return d3d12xs_write_error(E_INVALIDARG, error, error_size, "dcl_thread_group at token %u ends early", offset);
            if (!g[0] || !g[1] || !g[2] || g[0] > 1024 || g[1] > 1024 || g[2] > 64 || (uint64_t)g[0] * g[1] * g[2] > 1024)
                return d3d12xs_write_error(E_INVALIDARG, error, error_size, "dcl_thread_group %u, %u, %u (x and y at most 1024, z at "
                        "most 64, at most 1024 threads)", g[0], g[1], g[2]);
            break;
        }
        case OP_DCL_TEMPS:
        case OP_DCL_INDEXABLE_TEMP: {
            uint32_t count = 0, registers = 0;
            if (opcode == OP_DCL_INDEXABLE_TEMP && !read_token(&r, &registers))
                return d3d12xs_write_error(E_INVALIDARG, error, error_size, "dcl_indexableTemp at token %u ends early", offset);
            if (!read_token(&r, &count))
                return d3d12xs_write_error(E_INVALIDARG, error, error_size, "declaration at token %u ends early", offset);
            temps += count;
            if (count > MAX_TEMPS || temps > MAX_TEMPS || registers > MAX_TEMPS)
                return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the shader declares more than %u temporary registers "
                        "(at token %u)", MAX_TEMPS, offset);
            break;
        }
        case OP_DCL_TGSM_RAW:
        case OP_DCL_TGSM_STRUCTURED: {
            uint32_t operand_token, index, a = 0, b = 1;
            if (!read_token(&r, &operand_token) || !read_token(&r, &index) || !read_token(&r, &a)
                    || (opcode == OP_DCL_TGSM_STRUCTURED && !read_token(&r, &b)))
                return d3d12xs_write_error(E_INVALIDARG, error, error_size, "dcl_tgsm at token %u ends early", offset);
            shared_bytes += (uint64_t)a * b;
            if (shared_bytes > MAX_GROUP_SHARED_BYTES)
                return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the shader declares more than %u bytes of group shared "
                        "memory (at token %u)", MAX_GROUP_SHARED_BYTES, offset);
            break;
        }
        default:
            break;
        }
        offset += instruction_length;
    }
    if (shader->program_type == 5 && (!shader->thread_group[0] || !shader->thread_group[1] || !shader->thread_group[2]))
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the compute shader declares no thread group size (dcl_thread_group)");
    return S_OK;
}

/* A signature part: its elements appended to shader->signature. ISGN, OSGN and PCSG have 24
 * bytes per element, OSG5 a leading stream word (28), ISG1/OSG1/PSG1 a stream word and a
 * minimum precision (32). */
static HRESULT read_signature(struct d3d12xs_dxbc_shader *shader, uint32_t tag, const uint8_t *part, uint32_t part_size, uint32_t *count,
        char *error, size_t error_size)
{
    const uint32_t stride = tag == TAG('O', 'S', 'G', '5') ? 28 : (tag == TAG('I', 'S', 'G', '1') || tag == TAG('O', 'S', 'G', '1')
            || tag == TAG('P', 'S', 'G', '1')) ? 32 : 24;
    const uint32_t skip = stride == 24 ? 0 : 4; /* the stream word */
    uint32_t element_count, first, total = shader->input_count + shader->output_count + shader->patch_count;
    struct d3d12xs_dxbc_signature_element *elements;

    if (part_size < 8)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "a signature part is %u bytes (at least 8)", part_size);
    element_count = le32(part);
    first = le32(part + 4);
    if (element_count > 128 || first > part_size || (uint64_t)element_count * stride > part_size - first)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "a signature part lists %u elements its %u bytes cannot hold",
                element_count, part_size);
    if (!(elements = realloc(shader->signature, (total + element_count + 1) * sizeof(*elements))))
        return d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory");
    shader->signature = elements;
    for (uint32_t i = 0; i < element_count; i++) {
        const uint8_t *e = part + first + i * stride + skip;
        struct d3d12xs_dxbc_signature_element *out = &elements[total + i];
        uint32_t name = le32(e), length;
        if (name >= part_size || !(length = (uint32_t)strnlen((const char *)part + name, part_size - name)) || name + length >= part_size
                || length >= sizeof(out->semantic))
            return d3d12xs_write_error(E_INVALIDARG, error, error_size, "signature element %u's semantic name lies outside its part", i);
        memcpy(out->semantic, part + name, length + 1);
        out->semantic_index = le32(e + 4);
        out->system_value = le32(e + 8);
        out->reg = le32(e + 16);
        out->mask = e[20];
    }
    *count += element_count;
    return S_OK;
}

/* Signature parts must come in the order their elements are stored: inputs, outputs, patch
 * constants. */
static HRESULT read_signatures(struct d3d12xs_dxbc_shader *shader, const uint8_t *bytes, uint32_t part_count, char *error,
        size_t error_size)
{
    static const uint32_t kinds[3][3] = {
        {TAG('I', 'S', 'G', 'N'), TAG('I', 'S', 'G', '1'), 0},
        {TAG('O', 'S', 'G', 'N'), TAG('O', 'S', 'G', '5'), TAG('O', 'S', 'G', '1')},
        {TAG('P', 'C', 'S', 'G'), TAG('P', 'S', 'G', '1'), 0},
    };
    uint32_t *counts[3] = {&shader->input_count, &shader->output_count, &shader->patch_count};
    HRESULT hr;

    for (unsigned kind = 0; kind < 3; kind++) {
        for (uint32_t i = 0; i < part_count; i++) {
            uint32_t offset = le32(bytes + CONTAINER_HEADER_SIZE + 4 * i), tag = le32(bytes + offset);
            if (tag != kinds[kind][0] && tag != kinds[kind][1] && (!kinds[kind][2] || tag != kinds[kind][2]))
                continue;
            if (FAILED(hr = read_signature(shader, tag, bytes + offset + 8, le32(bytes + offset + 4), counts[kind], error, error_size)))
                return hr;
            break;
        }
    }
    return S_OK;
}

HRESULT d3d12xs_dxbc_parse(const void *code, size_t size, struct d3d12xs_dxbc_shader *shader, char *error, size_t error_size)
{
    const uint8_t *bytes = code, *program = NULL;
    uint32_t total, part_count, program_size = 0;
    uint8_t checksum[16];
    HRESULT hr;

    memset(shader, 0, sizeof(*shader));
    if (!d3d12xs_dxbc_is_container(code, size) || size < CONTAINER_HEADER_SIZE)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "not a DXBC container (%zu bytes)", size);
    total = le32(bytes + 24);
    part_count = le32(bytes + 28);
    if (total > size || total < CONTAINER_HEADER_SIZE)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the DXBC header says %u bytes but the bytecode is %zu", total, size);
    if (le32(bytes + 20) != 1)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "DXBC container version %u (1 is)", le32(bytes + 20));
    /* Windows refuses a container whose checksum does not match: it was changed after FXC. */
    d3d12xs_dxbc_checksum(bytes, total, checksum);
    if (memcmp(checksum, bytes + 4, 16))
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the DXBC checksum does not match the container's contents "
                "(it was changed after it was compiled, or is truncated)");
    if ((uint64_t)CONTAINER_HEADER_SIZE + 4ull * part_count > total)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the DXBC header lists %u parts, more than its %u bytes hold", part_count, total);
    for (uint32_t i = 0; i < part_count; i++) {
        uint32_t offset = le32(bytes + CONTAINER_HEADER_SIZE + 4 * i), tag, part_size;
        if (offset > total || total - offset < 8 || offset % 4)
            return d3d12xs_write_error(E_INVALIDARG, error, error_size, "DXBC part %u at offset %u lies outside the %u-byte container "
                    "or is not 4-byte aligned", i, offset, total);
        tag = le32(bytes + offset);
        part_size = le32(bytes + offset + 4);
        if (part_size > total - offset - 8)
            return d3d12xs_write_error(E_INVALIDARG, error, error_size, "DXBC part %u (%u bytes at offset %u) runs past the end of the "
                    "%u-byte container", i, part_size, offset, total);
        if (tag == TAG('D', 'X', 'I', 'L'))
            return d3d12xs_write_error(E_INVALIDARG, error, error_size, "%s", D3D12XS_DXIL_UNSUPPORTED_MESSAGE);
        if ((tag == TAG('S', 'H', 'E', 'X') || tag == TAG('S', 'H', 'D', 'R')) && !program) {
            program = bytes + offset + 8;
            program_size = part_size;
        }
        shader->has_root_signature |= tag == TAG('R', 'T', 'S', '0');
    }
    if (!program)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the DXBC container holds no shader (no SHEX or SHDR part)");
    if (FAILED(hr = read_program(shader, program, program_size, error, error_size))
            || (shader->program_type != 5 && FAILED(hr = read_signatures(shader, bytes, part_count, error, error_size)))) {
        d3d12xs_dxbc_shader_cleanup(shader);
        return hr;
    }
    return S_OK;
}

void d3d12xs_dxbc_shader_cleanup(struct d3d12xs_dxbc_shader *shader)
{
    free(shader->resources);
    free(shader->signature);
    memset(shader, 0, sizeof(*shader));
}
