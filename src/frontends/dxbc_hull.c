/* Pass-through hull shaders rewritten for libvkd3d-shader 1.2 (dxbc_hull.h). Token layouts are
 * those of the D3D10/11 tokenized program format; dxbc.c has checked the container and walked
 * every instruction, so lengths are sound here. */
#include <stdlib.h>
#include <string.h>

#include "frontends/dxbc_hull.h"
#include "frontends/dxbc_ranges.h"
#include "common/util.h"

enum {
    OP_CUSTOM_DATA = 0x35,
    OP_MOV = 0x36,
    OP_RET = 0x3e,
    OP_DCL_INPUT = 0x5f,
    OP_DCL_OUTPUT = 0x65,
    OP_DCL_TEMPS = 0x68,
    OP_HS_CONTROL_POINT_PHASE = 0x72,
    OP_HS_FORK_PHASE = 0x73,
    OP_HS_JOIN_PHASE = 0x74,
};
enum { OPERAND_TEMP = 0x00, OPERAND_INPUT = 0x01, OPERAND_OUTPUT = 0x02, OPERAND_OUTPUT_CONTROL_POINT_ID = 0x16 };
/* operand token fields */
#define TYPE_SHIFT 12
#define DIMENSION_SHIFT 20
#define COMPONENTS_1 1u
#define COMPONENTS_4 2u
#define MODE_SWIZZLE (1u << 2)
#define MODE_SELECT_1 (2u << 2)
#define COMPONENT_SHIFT 4
#define SWIZZLE_XYZW 0xe4u
#define INDEX0_IMMEDIATE32_PLUS_RELATIVE (3u << 22)
#define LENGTH_SHIFT 24
#define MAX_REGISTERS 32 /* a hull shader's control point registers */

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

static uint32_t instruction(uint32_t opcode, uint32_t length)
{
    return opcode | length << LENGTH_SHIFT;
}

bool d3d12xs_dxbc_hull_needs_rewrite(const struct d3d12xs_dxbc_shader *shader)
{
    return shader->program_type == 3 && !shader->control_point_phase
            && (shader->patch_phase_reads_input_points || shader->patch_phase_reads_output_points);
}

/* The control points' registers of the input and output signatures: a mask per register. */
static HRESULT signature_masks(const struct d3d12xs_dxbc_shader *shader, uint8_t inputs[MAX_REGISTERS], uint8_t outputs[MAX_REGISTERS],
        char *error, size_t error_size)
{
    memset(inputs, 0, MAX_REGISTERS);
    memset(outputs, 0, MAX_REGISTERS);
    for (uint32_t i = 0; i < shader->input_count + shader->output_count; i++) {
        const struct d3d12xs_dxbc_signature_element *e = &shader->signature[i];
        if (e->reg >= MAX_REGISTERS)
            return d3d12xs_write_error(E_INVALIDARG, error, error_size, "control point signature element %s%u at register %u (0 to %u)",
                    e->semantic, e->semantic_index, e->reg, MAX_REGISTERS - 1);
        (i < shader->input_count ? inputs : outputs)[e->reg] |= e->mask & 0xf;
    }
    for (uint32_t r = 0; r < MAX_REGISTERS; r++)
        if (outputs[r] & ~inputs[r])
            return d3d12xs_write_error(E_NOTIMPL, error, error_size, "the hull shader has no control point phase, and its output "
                    "control point register %u has components its input register %u lacks: d3d12xs passes control points through "
                    "register by register", r, r);
    return S_OK;
}

/* The pass-through phase: o[r] = v[vOutputControlPointID][r] for each output register r. */
static void put_control_point_phase(struct tokens *t, const struct d3d12xs_dxbc_shader *shader, const uint8_t inputs[MAX_REGISTERS],
        const uint8_t outputs[MAX_REGISTERS])
{
    const uint32_t point_id = OPERAND_OUTPUT_CONTROL_POINT_ID << TYPE_SHIFT | COMPONENTS_1;
    const uint32_t temp_x = OPERAND_TEMP << TYPE_SHIFT | 1u << DIMENSION_SHIFT | COMPONENTS_4 | 1u << COMPONENT_SHIFT;
    const uint32_t temp_x_source = OPERAND_TEMP << TYPE_SHIFT | 1u << DIMENSION_SHIFT | COMPONENTS_4 | MODE_SELECT_1;

    put(t, instruction(OP_HS_CONTROL_POINT_PHASE, 1));
    put(t, instruction(OP_DCL_INPUT, 2));
    put(t, point_id);
    for (uint32_t r = 0; r < MAX_REGISTERS; r++) {
        if (!inputs[r])
            continue;
        put(t, instruction(OP_DCL_INPUT, 4));
        put(t, OPERAND_INPUT << TYPE_SHIFT | 2u << DIMENSION_SHIFT | COMPONENTS_4 | (uint32_t)inputs[r] << COMPONENT_SHIFT);
        put(t, shader->input_control_points);
        put(t, r);
    }
    for (uint32_t r = 0; r < MAX_REGISTERS; r++) {
        if (!outputs[r])
            continue;
        put(t, instruction(OP_DCL_OUTPUT, 3));
        put(t, OPERAND_OUTPUT << TYPE_SHIFT | 1u << DIMENSION_SHIFT | COMPONENTS_4 | (uint32_t)outputs[r] << COMPONENT_SHIFT);
        put(t, r);
    }
    put(t, instruction(OP_DCL_TEMPS, 2));
    put(t, 1);
    /* mov r0.x, vOutputControlPointID */
    put(t, instruction(OP_MOV, 4));
    put(t, temp_x);
    put(t, 0);
    put(t, point_id);
    for (uint32_t r = 0; r < MAX_REGISTERS; r++) {
        if (!outputs[r])
            continue;
        /* mov o[r].mask, v[r0.x + 0][r].xyzw */
        put(t, instruction(OP_MOV, 8));
        put(t, OPERAND_OUTPUT << TYPE_SHIFT | 1u << DIMENSION_SHIFT | COMPONENTS_4 | (uint32_t)outputs[r] << COMPONENT_SHIFT);
        put(t, r);
        put(t, OPERAND_INPUT << TYPE_SHIFT | 2u << DIMENSION_SHIFT | COMPONENTS_4 | MODE_SWIZZLE | SWIZZLE_XYZW << COMPONENT_SHIFT
                | INDEX0_IMMEDIATE32_PLUS_RELATIVE);
        put(t, 0);
        put(t, temp_x_source);
        put(t, 0);
        put(t, r);
    }
    put(t, instruction(OP_RET, 1));
}

HRESULT d3d12xs_dxbc_rewrite_hull(const void *code, const struct d3d12xs_dxbc_shader *shader, uint8_t **container, size_t *size,
        char *error, size_t error_size)
{
    const uint8_t *program = d3d12xs_dxbc_find_program(code);
    uint8_t inputs[MAX_REGISTERS], outputs[MAX_REGISTERS];
    struct tokens t = {0};
    uint32_t *copy = NULL, length;
    bool inserted = false;
    HRESULT hr = S_OK;

    *container = NULL;
    *size = 0;
    if (shader->input_control_points != shader->output_control_points)
        return d3d12xs_write_error(E_NOTIMPL, error, error_size, "the hull shader has no control point phase but takes %u control points "
                "and outputs %u: nothing to pass through", shader->input_control_points, shader->output_control_points);
    if (FAILED(hr = signature_masks(shader, inputs, outputs, error, error_size)))
        return hr;
    if (!program)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the container holds no shader");
    {
        uint32_t part_size;
        memcpy(&part_size, program - 4, 4);
        /* an aligned copy: the application's bytecode may sit at any address */
        if (!(copy = malloc(part_size)))
            return d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory");
        memcpy(copy, program, part_size);
    }
    length = copy[1];
    put(&t, copy[0]);
    put(&t, 0); /* the length, once known */
    /* the phase goes before the first fork or join phase, after the declarations' hs_decls */
    for (uint32_t offset = 2; offset < length;) {
        const uint32_t opcode = copy[offset] & 0x7ff;
        const uint32_t n = opcode == OP_CUSTOM_DATA ? copy[offset + 1] : copy[offset] >> LENGTH_SHIFT & 0x7f;
        if ((opcode == OP_HS_FORK_PHASE || opcode == OP_HS_JOIN_PHASE) && !inserted) {
            put_control_point_phase(&t, shader, inputs, outputs);
            inserted = true;
        }
        for (uint32_t k = 0; k < n; k++)
            put(&t, copy[offset + k]);
        offset += n;
    }
    if (t.failed)
        hr = d3d12xs_write_error(E_OUTOFMEMORY, error, error_size, "out of memory");
    if (SUCCEEDED(hr)) {
        t.at[1] = (uint32_t)t.count;
        if (FAILED(hr = d3d12xs_dxbc_replace_program(code, program, t.at, t.count, container, size)))
            d3d12xs_write_error(hr, error, error_size, "out of memory");
    }
    free(copy);
    free(t.at);
    return hr;
}
