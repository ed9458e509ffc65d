/* The DXBC writer (dxbc_writer.h). Token layouts are those of the D3D10/11 tokenized program
 * format; the container checksum is the library's (src/descriptors/dxbc_checksum.c, compiled
 * into the programs that use this writer). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "dxbc_writer.h"
#include "descriptors/root_signature_blob.h"

/* Operand token fields. */
#define OPERAND_COMPONENTS_0 0u             /* bits 0-1: how many components */
#define OPERAND_COMPONENTS_1 1u
#define OPERAND_COMPONENTS_4 2u
#define OPERAND_MODE_MASK (0u << 2)         /* bits 2-3: how they are named */
#define OPERAND_MODE_SWIZZLE (1u << 2)
#define OPERAND_MODE_SELECT_1 (2u << 2)
#define OPERAND_COMPONENT_SHIFT 4           /* bits 4-7: the mask, 4-11: the swizzle, or 4-5: the component */
#define OPERAND_TYPE_SHIFT 12               /* bits 12-19 */
#define OPERAND_INDEX_DIMENSION_SHIFT 20    /* bits 20-21; index representations (bits 22-30)
                                               stay 0: immediate 32-bit indices */
/* Instruction token: opcode in bits 0-10, length in tokens (itself included) in bits 24-30. */
#define INSTRUCTION_LENGTH_SHIFT 24
#define INSTRUCTION_MAX_LENGTH 0x7fu

/* How many register indices each operand type has (0: vThreadID, immediates; 2: cb#[element]). */
static const struct {
    enum dxbc_operand_type type;
    unsigned index_dimension;
} operand_types[] = {
    {DXBC_TEMP, 1},
    {DXBC_IMMEDIATE32, 0},
    {DXBC_SAMPLER, 1},
    {DXBC_RESOURCE_SRV, 1},
    {DXBC_CONSTANT_BUFFER, 2},
    {DXBC_NULL, 0},
    {DXBC_UAV, 1},
    {DXBC_GROUP_SHARED, 1},
    {DXBC_THREAD_ID, 0},
    {DXBC_THREAD_GROUP_ID, 0},
    {DXBC_THREAD_ID_IN_GROUP, 0},
    {DXBC_THREAD_INDEX_IN_GROUP, 0},
    {DXBC_INPUT, 1},
    {DXBC_OUTPUT, 1},
    {DXBC_OUTPUT_CONTROL_POINT_ID, 0},
    {DXBC_INPUT_CONTROL_POINT, 2},
    {DXBC_OUTPUT_CONTROL_POINT, 2},
    {DXBC_INPUT_PATCH_CONSTANT, 1},
    {DXBC_INPUT_DOMAIN_POINT, 0},
};

#define FOURCC(a, b, c, d) ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)

/* Tokens of one operand into out (NULL: count only); 0 when it cannot be encoded. */
static unsigned encode_operand(const struct dxbc_operand *operand, uint32_t *out)
{
    unsigned dimension = 0, count = 1;
    uint32_t token;
    size_t i;

    for (i = 0; i < sizeof(operand_types) / sizeof(operand_types[0]); i++)
        if (operand_types[i].type == operand->type)
            break;
    if (i == sizeof(operand_types) / sizeof(operand_types[0]))
        return 0;
    dimension = operand->index_count ? operand->index_count : operand_types[i].index_dimension;
    if (dimension > 3)
        return 0;
    token = (uint32_t)operand->type << OPERAND_TYPE_SHIFT | (uint32_t)dimension << OPERAND_INDEX_DIMENSION_SHIFT;
    switch (operand->form) {
    case DXBC_WHOLE:
        token |= OPERAND_COMPONENTS_0;
        break;
    case DXBC_MASK:
        if (!operand->components || operand->components > 0xf)
            return 0;
        token |= OPERAND_COMPONENTS_4 | OPERAND_MODE_MASK | operand->components << OPERAND_COMPONENT_SHIFT;
        break;
    case DXBC_SELECT:
        if (operand->components > 3)
            return 0;
        token |= OPERAND_COMPONENTS_4 | OPERAND_MODE_SELECT_1 | operand->components << OPERAND_COMPONENT_SHIFT;
        break;
    case DXBC_SWIZZLE:
        if (operand->components > 0xff)
            return 0;
        token |= OPERAND_COMPONENTS_4 | OPERAND_MODE_SWIZZLE | operand->components << OPERAND_COMPONENT_SHIFT;
        break;
    case DXBC_SCALAR:
        if (operand->type != DXBC_IMMEDIATE32)
            return 0;
        token |= OPERAND_COMPONENTS_1;
        break;
    case DXBC_VECTOR:
        if (operand->type != DXBC_IMMEDIATE32)
            return 0;
        token |= OPERAND_COMPONENTS_4;
        break;
    case DXBC_ONE:
        if (operand->type == DXBC_IMMEDIATE32)
            return 0;
        token |= OPERAND_COMPONENTS_1;
        break;
    default:
        return 0;
    }
    if (operand->relative_index & DXBC_NONUNIFORM) {
        /* an extended operand token: a modifier (type 1) with the non-uniform bit (17) */
        token |= 1u << 31;
        if (out)
            out[count] = 1u | 1u << 17;
        count++;
    }
    if (out)
        out[0] = token;
    /* The register indices (one token each), or the immediate's values. */
    if (operand->form == DXBC_VECTOR) {
        const uint32_t values[4] = {operand->index, operand->index2, operand->index3, operand->index4};
        for (unsigned k = 0; k < 4; k++, count++)
            if (out)
                out[count] = values[k];
        return count;
    }
    if (operand->form == DXBC_SCALAR)
        dimension = 1;
    if ((operand->relative_index & ~DXBC_NONUNIFORM) > dimension)
        return 0;
    {
        const uint32_t indices[3] = {operand->index, operand->index2, operand->index3};
        for (unsigned k = 0; k < dimension; k++, count++) {
            if (out)
                out[count] = indices[k];
            if ((operand->relative_index & ~DXBC_NONUNIFORM) == k + 1) {
                /* representation "immediate plus relative": the immediate, then r#.c as an operand */
                if (out) {
                    out[0] |= 3u << (22 + 3 * k);
                    out[count + 1] = (uint32_t)DXBC_TEMP << OPERAND_TYPE_SHIFT | 1u << OPERAND_INDEX_DIMENSION_SHIFT
                            | OPERAND_COMPONENTS_4 | OPERAND_MODE_SELECT_1 | (operand->relative_component & 3) << OPERAND_COMPONENT_SHIFT;
                    out[count + 2] = operand->relative_temp;
                }
                count += 2;
            }
        }
    }
    return count;
}

/* Tokens of one instruction into out (NULL: count only); 0 when it cannot be encoded. */
static unsigned encode_instruction(const struct dxbc_instruction *instruction, uint32_t *out)
{
    unsigned length = 1;

    /* bits 24-30 hold the length, bit 31 says extended: the control bits end at 23 */
    if (instruction->operand_count > DXBC_MAX_OPERANDS || instruction->literal_count > DXBC_MAX_LITERALS
            || instruction->opcode > 0xffffffu)
        return 0;
    for (unsigned i = 0; i < instruction->operand_count; i++) {
        unsigned n = encode_operand(&instruction->operands[i], out ? out + length : NULL);
        if (!n)
            return 0;
        length += n;
    }
    for (unsigned i = 0; i < instruction->literal_count; i++, length++)
        if (out)
            out[length] = instruction->literals[i];
    if (length > INSTRUCTION_MAX_LENGTH)
        return 0;
    if (out)
        out[0] = instruction->opcode | (uint32_t)length << INSTRUCTION_LENGTH_SHIFT;
    return length;
}

static void put32(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, 4); /* DXBC is little-endian, as every target of d3d12xs is */
}

/* The RTS0 part of a serialized root signature: its bytes and size, or false. */
static bool find_root_signature_part(const uint8_t *container, size_t size, const uint8_t **part, uint32_t *part_size)
{
    uint32_t count, offset;
    if (size < 32)
        return false;
    memcpy(&count, container + 28, 4);
    for (uint32_t i = 0; i < count && 32 + 4 * (size_t)i + 4 <= size; i++) {
        memcpy(&offset, container + 32 + 4 * i, 4);
        if (offset > size || size - offset < 8)
            return false;
        if (!memcmp(container + offset, "RTS0", 4)) {
            memcpy(part_size, container + offset + 4, 4);
            if (*part_size > size - offset - 8)
                return false;
            *part = container + offset + 8;
            return true;
        }
    }
    return false;
}

void *dxbc_write_shader(enum dxbc_program_type type, unsigned major, unsigned minor, const struct dxbc_instruction *program,
        size_t instruction_count, size_t *size)
{
    return dxbc_write_shader_with_root_signature(type, major, minor, program, instruction_count, NULL, 0, size);
}

/* A signature chunk's bytes (NULL: count only): the element count, the offset of the elements,
 * 24 bytes per element, then the semantic names. */
static size_t encode_signature(const struct dxbc_signature_element *elements, size_t count, uint8_t *out)
{
    size_t names = 8 + 24 * count, size = names;
    for (size_t i = 0; i < count; i++) {
        if (out) {
            uint8_t *e = out + 8 + 24 * i;
            put32(e, (uint32_t)size);
            put32(e + 4, elements[i].semantic_index);
            put32(e + 8, elements[i].system_value);
            put32(e + 12, elements[i].component_type);
            put32(e + 16, elements[i].reg);
            e[20] = elements[i].mask;
            e[21] = elements[i].used;
            memcpy(out + size, elements[i].semantic, strlen(elements[i].semantic) + 1);
        }
        size += strlen(elements[i].semantic) + 1;
    }
    size = (size + 3) & ~(size_t)3;
    if (out) {
        put32(out, (uint32_t)count);
        put32(out + 4, 8);
    }
    return size;
}

/* What goes into a container besides the program. */
struct container_parts {
    const void *root_signature;
    size_t root_signature_size;
    const struct dxbc_signature_element *inputs, *outputs, *patch_constants;
    size_t input_count, output_count, patch_constant_count;
};

static void *write_container(enum dxbc_program_type type, unsigned major, unsigned minor, const struct dxbc_instruction *program,
        size_t instruction_count, const struct container_parts *parts, size_t *size);

void *dxbc_write_shader_with_signatures(enum dxbc_program_type type, unsigned major, unsigned minor,
        const struct dxbc_instruction *program, size_t instruction_count, const struct dxbc_signature_element *inputs,
        size_t input_count, const struct dxbc_signature_element *outputs, size_t output_count, size_t *size)
{
    const struct container_parts parts = {NULL, 0, inputs, outputs, NULL, input_count, output_count, 0};
    return write_container(type, major, minor, program, instruction_count, &parts, size);
}

void *dxbc_write_shader_with_patch_constants(enum dxbc_program_type type, unsigned major, unsigned minor,
        const struct dxbc_instruction *program, size_t instruction_count, const struct dxbc_signature_element *inputs,
        size_t input_count, const struct dxbc_signature_element *outputs, size_t output_count,
        const struct dxbc_signature_element *patch_constants, size_t patch_constant_count, size_t *size)
{
    const struct container_parts parts = {NULL, 0, inputs, outputs, patch_constants, input_count, output_count, patch_constant_count};
    return write_container(type, major, minor, program, instruction_count, &parts, size);
}

void *dxbc_write_shader_with_root_signature(enum dxbc_program_type type, unsigned major, unsigned minor,
        const struct dxbc_instruction *program, size_t instruction_count, const void *root_signature,
        size_t root_signature_size, size_t *size)
{
    const struct container_parts parts = {root_signature, root_signature_size, NULL, NULL, NULL, 0, 0, 0};
    return write_container(type, major, minor, program, instruction_count, &parts, size);
}

static void *write_container(enum dxbc_program_type type, unsigned major, unsigned minor, const struct dxbc_instruction *program,
        size_t instruction_count, const struct container_parts *parts, size_t *size)
{
    /* Chunks in the order FXC writes them (less RDEF and STAT, which no runtime needs), the
     * patch-constant signature where there is one, then the root signature where there is one. */
    enum { INPUT_SIGNATURE, OUTPUT_SIGNATURE, PATCH_CONSTANT_SIGNATURE, SHADER, ROOT_SIGNATURE, CHUNK_MAX };
    static const uint32_t tags[CHUNK_MAX] = {FOURCC('I', 'S', 'G', 'N'), FOURCC('O', 'S', 'G', 'N'), FOURCC('P', 'C', 'S', 'G'),
            FOURCC('S', 'H', 'E', 'X'), FOURCC('R', 'T', 'S', '0')};
    const uint8_t *root_part = NULL;
    uint32_t root_part_size = 0;
    const size_t empty_signature_size = 8;
    size_t token_count = 2, chunk_sizes[CHUNK_MAX], offset, header_size;
    bool present[CHUNK_MAX] = {true, true, parts->patch_constant_count > 0, true, parts->root_signature != NULL};
    unsigned chunk_count = 0;
    uint8_t *container;
    uint32_t *tokens;

    if (parts->root_signature && !find_root_signature_part(parts->root_signature, parts->root_signature_size, &root_part, &root_part_size))
        return NULL;
    for (size_t i = 0; i < instruction_count; i++) {
        unsigned n = encode_instruction(&program[i], NULL);
        if (!n)
            return NULL;
        token_count += n;
    }
    chunk_sizes[INPUT_SIGNATURE] = parts->input_count ? encode_signature(parts->inputs, parts->input_count, NULL) : empty_signature_size;
    chunk_sizes[OUTPUT_SIGNATURE] = parts->output_count ? encode_signature(parts->outputs, parts->output_count, NULL) : empty_signature_size;
    chunk_sizes[PATCH_CONSTANT_SIGNATURE] = encode_signature(parts->patch_constants, parts->patch_constant_count, NULL);
    chunk_sizes[SHADER] = 4 * token_count;
    chunk_sizes[ROOT_SIGNATURE] = root_part_size;
    for (unsigned c = 0; c < CHUNK_MAX; c++)
        chunk_count += present[c];
    header_size = 32 + 4 * chunk_count;
    *size = header_size;
    for (unsigned c = 0; c < CHUNK_MAX; c++)
        if (present[c])
            *size += 8 + chunk_sizes[c];
    if (!(container = calloc(1, *size)) || !(tokens = malloc(4 * token_count))) {
        free(container);
        return NULL;
    }

    /* Version token: type in bits 16-31, major in 4-7, minor in 0-3; then the length. */
    tokens[0] = (uint32_t)type << 16 | (major & 0xf) << 4 | (minor & 0xf);
    tokens[1] = (uint32_t)token_count;
    for (size_t i = 0, at = 2; i < instruction_count; i++)
        at += encode_instruction(&program[i], tokens + at);

    memcpy(container, "DXBC", 4);
    put32(container + 20, 1);               /* container version */
    put32(container + 24, (uint32_t)*size);
    put32(container + 28, chunk_count);
    offset = header_size;
    for (unsigned c = 0, k = 0; c < CHUNK_MAX; c++) {
        uint8_t *chunk = container + offset;
        if (!present[c])
            continue;
        put32(container + 32 + 4 * k++, (uint32_t)offset);
        put32(chunk, tags[c]);
        put32(chunk + 4, (uint32_t)chunk_sizes[c]);
        if (c == SHADER)
            for (size_t i = 0; i < token_count; i++)
                put32(chunk + 8 + 4 * i, tokens[i]);
        else if (c == ROOT_SIGNATURE)
            memcpy(chunk + 8, root_part, root_part_size);
        else if (c == INPUT_SIGNATURE && parts->input_count)
            encode_signature(parts->inputs, parts->input_count, chunk + 8);
        else if (c == OUTPUT_SIGNATURE && parts->output_count)
            encode_signature(parts->outputs, parts->output_count, chunk + 8);
        else if (c == PATCH_CONSTANT_SIGNATURE)
            encode_signature(parts->patch_constants, parts->patch_constant_count, chunk + 8);
        else
            put32(chunk + 8 + 4, 8);        /* no elements; they would start 8 bytes in */
        offset += 8 + chunk_sizes[c];
    }
    free(tokens);
    d3d12xs_dxbc_checksum(container, *size, container + 4);
    return container;
}
