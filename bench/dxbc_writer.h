/* A small writer of DXBC shader containers, for D3D12 peers that take only DXBC (Wine's vkd3d
 * 1.2; no FXC runs here). A program is a table of shader-model-5 instructions, each an opcode,
 * its operands and its literal tokens (dcl_temps' count, dcl_thread_group's sizes); the writer
 * encodes them in the tokenized program format and wraps them in a container with empty input
 * and output signatures (ISGN, OSGN: a compute shader has none), the shader chunk (SHEX) and
 * the container checksum. It knows only what the benchmarks' shaders use: add opcodes and
 * operand types to the enums (and the operand table in dxbc_writer.c) as shaders need them. */
#ifndef D3D12XS_BENCH_DXBC_WRITER_H
#define D3D12XS_BENCH_DXBC_WRITER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Program types of the version token. */
enum dxbc_program_type {
    DXBC_PIXEL_SHADER = 0,
    DXBC_VERTEX_SHADER = 1,
    DXBC_COMPUTE_SHADER = 5,
};

/* Opcodes (bits 0-10 of an instruction's first token). */
enum dxbc_opcode {
    DXBC_OP_IADD = 0x1e,
    DXBC_OP_ISHL = 0x29,
    DXBC_OP_RET = 0x3e,
    DXBC_OP_DCL_CONSTANT_BUFFER = 0x59, /* immediateIndexed (bit 11 clear) */
    DXBC_OP_DCL_INPUT = 0x5f,
    DXBC_OP_DCL_TEMPS = 0x68,
    DXBC_OP_DCL_THREAD_GROUP = 0x9b,
    DXBC_OP_DCL_UAV_RAW = 0x9d,
    DXBC_OP_STORE_RAW = 0xa6,
};

/* Operand types (bits 12-19 of an operand token). */
enum dxbc_operand_type {
    DXBC_TEMP = 0x00,               /* r# */
    DXBC_IMMEDIATE32 = 0x04,        /* l(...) */
    DXBC_CONSTANT_BUFFER = 0x08,    /* cb#[element]: two indices */
    DXBC_UAV = 0x1e,                /* u# */
    DXBC_THREAD_ID = 0x20,          /* vThreadID: SV_DispatchThreadID */
};

/* How an operand names its components. */
enum dxbc_operand_form {
    DXBC_WHOLE,     /* no components: a declared resource (dcl_uav_raw u0) */
    DXBC_MASK,      /* written or declared components (r0.x as a destination) */
    DXBC_SELECT,    /* one component read (r0.x as a source) */
    DXBC_SWIZZLE,   /* four components in a given order (dcl_constantbuffer cb0[1].xyzw) */
    DXBC_SCALAR,    /* an immediate of one component: `index` holds its value */
};

#define DXBC_X 0x1u
#define DXBC_Y 0x2u
#define DXBC_Z 0x4u
#define DXBC_W 0x8u
#define DXBC_SWIZZLE_XYZW 0xe4u /* 2 bits per component: x=0, y=1, z=2, w=3 */

struct dxbc_operand {
    enum dxbc_operand_type type;
    enum dxbc_operand_form form;
    uint32_t components;    /* DXBC_MASK: DXBC_X | ...; DXBC_SELECT: 0-3 (x-w); DXBC_SWIZZLE: the swizzle */
    uint32_t index;         /* the register number (ignored for types without one), or the immediate */
    uint32_t index2;        /* the second index of two-index types: cb0[index2] (a declaration: its size in vectors) */
};

#define DXBC_MAX_OPERANDS 4
#define DXBC_MAX_LITERALS 3

struct dxbc_instruction {
    enum dxbc_opcode opcode;
    unsigned operand_count;
    struct dxbc_operand operands[DXBC_MAX_OPERANDS];
    unsigned literal_count;  /* tokens after the operands */
    uint32_t literals[DXBC_MAX_LITERALS];
};

/* Builders for the table of a program. */
#define DXBC_OPERAND(type_, form_, components_, index_) {(type_), (form_), (components_), (index_), 0}
#define DXBC_DST(type_, index_, mask_) DXBC_OPERAND(type_, DXBC_MASK, mask_, index_)
#define DXBC_SRC(type_, index_, component_) DXBC_OPERAND(type_, DXBC_SELECT, component_, index_)
#define DXBC_RESOURCE(type_, index_) DXBC_OPERAND(type_, DXBC_WHOLE, 0, index_)
#define DXBC_IMM(value_) DXBC_OPERAND(DXBC_IMMEDIATE32, DXBC_SCALAR, 0, value_)
/* cb<slot>[<element>]: a component of a constant buffer as a source, and its declaration. */
#define DXBC_CB_SRC(slot_, element_, component_) {DXBC_CONSTANT_BUFFER, DXBC_SELECT, (component_), (slot_), (element_)}
#define DXBC_CB_DECL(slot_, vectors_) {DXBC_CONSTANT_BUFFER, DXBC_SWIZZLE, DXBC_SWIZZLE_XYZW, (slot_), (vectors_)}

/* Encodes the program (shader model major.minor of the given type) into a DXBC container. On
 * success returns a malloc()ed container (free() it) and its size in *size; NULL when the table
 * holds something the writer cannot encode (too many operands or literals, an unknown operand
 * type) or memory runs out. */
void *dxbc_write_shader(enum dxbc_program_type type, unsigned major, unsigned minor, const struct dxbc_instruction *program,
        size_t instruction_count, size_t *size);

#ifdef __cplusplus
}
#endif

#endif
