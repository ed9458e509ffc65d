/* A small writer of DXBC shader containers, for the tests of d3d12xs's DXBC path and for D3D12
 * peers that take only DXBC (Wine's vkd3d 1.2): no FXC runs here. A program is a table of
 * shader-model-5 instructions, each an opcode (with its control bits), its operands and its
 * literal tokens (dcl_temps' count, dcl_thread_group's sizes, a structure stride); the writer
 * encodes them in the tokenized program format and wraps them in a container with input and
 * output signatures (ISGN, OSGN: empty for a compute shader), a hull or domain shader's
 * patch-constant signature (PCSG), the shader chunk (SHEX), an optional root signature part
 * (RTS0) and the container checksum. It knows the subset the tests use: add opcodes and operand
 * types as shaders need them. */
#ifndef D3D12XS_DXBC_WRITER_H
#define D3D12XS_DXBC_WRITER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Program types of the version token. */
enum dxbc_program_type {
    DXBC_PIXEL_SHADER = 0,
    DXBC_VERTEX_SHADER = 1,
    DXBC_GEOMETRY_SHADER = 2,
    DXBC_HULL_SHADER = 3,
    DXBC_DOMAIN_SHADER = 4,
    DXBC_COMPUTE_SHADER = 5,
};

/* Opcodes (bits 0-10 of an instruction's first token). */
enum dxbc_opcode {
    DXBC_OP_ADD = 0x00,
    DXBC_OP_AND = 0x01,
    DXBC_OP_FTOU = 0x1c,
    DXBC_OP_IADD = 0x1e,
    DXBC_OP_IF = 0x1f,          /* with DXBC_IF_NONZERO in the control bits, or else if zero */
    DXBC_OP_IEQ = 0x20,
    DXBC_OP_IMAD = 0x23,
    DXBC_OP_IMUL = 0x26,        /* two destinations: high and low halves */
    DXBC_OP_ISHL = 0x29,
    DXBC_OP_ITOF = 0x2b,
    DXBC_OP_LD = 0x2d,          /* typed load from a buffer SRV */
    DXBC_OP_MAD = 0x32,
    DXBC_OP_MIN = 0x33,
    DXBC_OP_MAX = 0x34,
    DXBC_OP_MOV = 0x36,
    DXBC_OP_MOVC = 0x37,
    DXBC_OP_MUL = 0x38,
    DXBC_OP_OR = 0x3c,
    DXBC_OP_RET = 0x3e,
    DXBC_OP_ENDIF = 0x15,
    DXBC_OP_UDIV = 0x4e,        /* two destinations: quotient and remainder */
    DXBC_OP_ULT = 0x4f,
    DXBC_OP_USHR = 0x55,
    DXBC_OP_UTOF = 0x56,
    DXBC_OP_XOR = 0x57,
    DXBC_OP_DCL_RESOURCE = 0x58,        /* typed SRV: DXBC_RESOURCE_DIMENSION_BUFFER in the control bits */
    DXBC_OP_DCL_CONSTANT_BUFFER = 0x59, /* immediateIndexed (bit 11 clear) */
    DXBC_OP_DCL_INPUT = 0x5f,
    DXBC_OP_DCL_INPUT_SGV = 0x60,       /* v#, then the system value literal (SV_VertexID 6, SV_InstanceID 8) */
    DXBC_OP_DCL_INPUT_SIV = 0x61,       /* v# or vpc#, then the system value literal (DXBC_NAME_*) */
    DXBC_OP_DCL_INPUT_PS = 0x62,        /* interpolation mode in bits 11-14 (DXBC_INTERPOLATION_*) */
    DXBC_OP_DCL_OUTPUT = 0x65,
    DXBC_OP_DCL_OUTPUT_SIV = 0x67,      /* o#, then the system value literal (SV_Position 1) */
    DXBC_OP_DCL_TEMPS = 0x68,
    DXBC_OP_DCL_THREAD_GROUP = 0x9b,
    /* Hull shaders: the declarations phase, then the control point phase and the fork phases
     * (patch constants), each ending in ret. Domain shaders take the count and domain too. */
    DXBC_OP_HS_DECLS = 0x71,
    DXBC_OP_HS_CONTROL_POINT_PHASE = 0x72,
    DXBC_OP_HS_FORK_PHASE = 0x73,
    DXBC_OP_DCL_INPUT_CONTROL_POINT_COUNT = 0x93,  /* DXBC_CONTROL_POINTS(n) in the control bits */
    DXBC_OP_DCL_OUTPUT_CONTROL_POINT_COUNT = 0x94, /* DXBC_CONTROL_POINTS(n) in the control bits */
    DXBC_OP_DCL_TESSELLATOR_DOMAIN = 0x95,         /* DXBC_DOMAIN_* in the control bits */
    DXBC_OP_DCL_TESSELLATOR_PARTITIONING = 0x96,   /* DXBC_PARTITIONING_* in the control bits */
    DXBC_OP_DCL_TESSELLATOR_OUTPUT_PRIMITIVE = 0x97, /* DXBC_OUTPUT_PRIMITIVE_* in the control bits */
    DXBC_OP_DCL_HS_MAX_TESSFACTOR = 0x98,          /* literal: the float's bits */
    DXBC_OP_DCL_UAV_TYPED = 0x9c,       /* DXBC_RESOURCE_DIMENSION_BUFFER in the control bits */
    DXBC_OP_DCL_UAV_RAW = 0x9d,
    DXBC_OP_DCL_UAV_STRUCTURED = 0x9e,  /* literal: the stride */
    DXBC_OP_DCL_TGSM_RAW = 0x9f,        /* literal: the size in bytes */
    DXBC_OP_DCL_RESOURCE_RAW = 0xa1,
    DXBC_OP_DCL_RESOURCE_STRUCTURED = 0xa2, /* literal: the stride */
    DXBC_OP_LD_UAV_TYPED = 0xa3,
    DXBC_OP_STORE_UAV_TYPED = 0xa4,
    DXBC_OP_LD_RAW = 0xa5,
    DXBC_OP_STORE_RAW = 0xa6,
    DXBC_OP_LD_STRUCTURED = 0xa7,
    DXBC_OP_STORE_STRUCTURED = 0xa8,
    DXBC_OP_ATOMIC_IADD = 0xad,
    DXBC_OP_ATOMIC_UMAX = 0xb0,
    DXBC_OP_IMM_ATOMIC_ALLOC = 0xb2,    /* dst, u# with a counter: the counter before its increment */
    DXBC_OP_IMM_ATOMIC_CONSUME = 0xb3,  /* dst, u# with a counter: the counter after its decrement */
    DXBC_OP_IMM_ATOMIC_IADD = 0xb4,
    DXBC_OP_IMM_ATOMIC_EXCH = 0xb8,
    DXBC_OP_SYNC = 0xbe,                /* DXBC_SYNC_* in the control bits */
    DXBC_OP_BUFINFO = 0x79,
    DXBC_OP_DCL_SAMPLER = 0x5a,         /* DXBC_SAMPLER_MODE_* in the control bits */
    DXBC_OP_SAMPLE_L = 0x48,            /* dst, coordinates, t#, s#, LOD */
    DXBC_OP_RESINFO = 0x3d,             /* dst, mip, t# or u# (width, height, depth or layers, mips) */
};

/* Tessellation declarations' control bits. */
#define DXBC_CONTROL_POINTS(n_) ((uint32_t)(n_) << 11)
#define DXBC_DOMAIN_TRI (2u << 11)
#define DXBC_DOMAIN_QUAD (3u << 11)
#define DXBC_PARTITIONING_INTEGER (1u << 11)
#define DXBC_PARTITIONING_POW2 (2u << 11)
#define DXBC_PARTITIONING_FRACTIONAL_ODD (3u << 11)
#define DXBC_PARTITIONING_FRACTIONAL_EVEN (4u << 11)
#define DXBC_OUTPUT_PRIMITIVE_POINT (1u << 11)
#define DXBC_OUTPUT_PRIMITIVE_LINE (2u << 11)
#define DXBC_OUTPUT_PRIMITIVE_TRIANGLE_CW (3u << 11)
#define DXBC_OUTPUT_PRIMITIVE_TRIANGLE_CCW (4u << 11)
/* System values of dcl_input_siv and dcl_output_siv: a quad's and a triangle's edge and inside
 * tessellation factors (the signatures name them D3D_NAME_FINAL_QUAD_EDGE_TESSFACTOR 11,
 * _QUAD_INSIDE_ 12, _TRI_EDGE_ 13 and _TRI_INSIDE_ 14). */
#define DXBC_NAME_QUAD_U0_EDGE 11u
#define DXBC_NAME_QUAD_V0_EDGE 12u
#define DXBC_NAME_QUAD_U1_EDGE 13u
#define DXBC_NAME_QUAD_V1_EDGE 14u
#define DXBC_NAME_QUAD_U_INSIDE 15u
#define DXBC_NAME_QUAD_V_INSIDE 16u
#define DXBC_NAME_TRI_U_EDGE 17u
#define DXBC_NAME_TRI_V_EDGE 18u
#define DXBC_NAME_TRI_W_EDGE 19u
#define DXBC_NAME_TRI_INSIDE 20u
/* dcl_input_ps's interpolation modes (control bits) */
#define DXBC_INTERPOLATION_CONSTANT (1u << 11)
#define DXBC_INTERPOLATION_LINEAR (2u << 11)
/* Control bits of an instruction (bits 11-23 of its first token), ORed into `opcode`. */
#define DXBC_IF_NONZERO (1u << 18)
#define DXBC_RESOURCE_DIMENSION_BUFFER (1u << 11)
#define DXBC_RESOURCE_DIMENSION_TEXTURE1D (2u << 11)
#define DXBC_RESOURCE_DIMENSION_TEXTURE2D (3u << 11)
#define DXBC_RESOURCE_DIMENSION_TEXTURE3D (5u << 11)
#define DXBC_RESOURCE_DIMENSION_TEXTURE2DARRAY (8u << 11)
#define DXBC_SAMPLER_MODE_DEFAULT (0u << 11)
#define DXBC_SYNC_THREADS_IN_GROUP (0x1u << 11)
#define DXBC_SYNC_GROUP_SHARED_MEMORY (0x2u << 11)
#define DXBC_SYNC_UAV_GLOBAL (0x8u << 11)
#define DXBC_UAV_GLOBALLY_COHERENT (1u << 16)
#define DXBC_UAV_HAS_COUNTER (1u << 23)
/* The return-type literal of typed declarations: one 4-bit type per component. */
#define DXBC_RETURN_UINT 0x4444u
#define DXBC_RETURN_SINT 0x3333u
#define DXBC_RETURN_FLOAT 0x5555u

/* Operand types (bits 12-19 of an operand token). */
enum dxbc_operand_type {
    DXBC_TEMP = 0x00,               /* r# */
    DXBC_IMMEDIATE32 = 0x04,        /* l(...) */
    DXBC_SAMPLER = 0x06,            /* s# */
    DXBC_RESOURCE_SRV = 0x07,       /* t# */
    DXBC_CONSTANT_BUFFER = 0x08,    /* cb#[element]: two indices (5.1: three) */
    DXBC_NULL = 0x0d,               /* null: an unused destination */
    DXBC_UAV = 0x1e,                /* u# */
    DXBC_GROUP_SHARED = 0x1f,       /* g# */
    DXBC_THREAD_ID = 0x20,          /* vThreadID: SV_DispatchThreadID */
    DXBC_THREAD_GROUP_ID = 0x21,    /* vThreadGroupID: SV_GroupID */
    DXBC_THREAD_ID_IN_GROUP = 0x22, /* vThreadIDInGroup: SV_GroupThreadID */
    DXBC_THREAD_INDEX_IN_GROUP = 0x24, /* vThreadIDInGroupFlattened: SV_GroupIndex */
    DXBC_INPUT = 0x01,              /* v#: an input register of a graphics stage */
    DXBC_OUTPUT = 0x02,             /* o#: an output register */
    DXBC_OUTPUT_CONTROL_POINT_ID = 0x16, /* vOutputControlPointID (DXBC_ONE) */
    DXBC_INPUT_CONTROL_POINT = 0x19, /* vicp[point][register] */
    DXBC_OUTPUT_CONTROL_POINT = 0x1a, /* vocp[point][register] */
    DXBC_INPUT_PATCH_CONSTANT = 0x1b, /* vpc#: a domain shader's patch constant */
    DXBC_INPUT_DOMAIN_POINT = 0x1c, /* vDomain: SV_DomainLocation */
};

/* How an operand names its components. */
enum dxbc_operand_form {
    DXBC_WHOLE,     /* no components: a declared resource (dcl_uav_raw u0) */
    DXBC_MASK,      /* written or declared components (r0.x as a destination) */
    DXBC_SELECT,    /* one component read (r0.x as a source) */
    DXBC_SWIZZLE,   /* four components in a given order (dcl_constantbuffer cb0[1].xyzw) */
    DXBC_SCALAR,    /* an immediate of one component: `index` holds its value */
    DXBC_VECTOR,    /* an immediate of four components: index, index2, index3, index4 */
    DXBC_ONE,       /* a register of one component (vOutputControlPointID) */
};

#define DXBC_X 0x1u
#define DXBC_Y 0x2u
#define DXBC_Z 0x4u
#define DXBC_W 0x8u
#define DXBC_SWIZZLE_XYZW 0xe4u /* 2 bits per component: x=0, y=1, z=2, w=3 */
#define DXBC_SWIZZLE_XXXX 0x00u

struct dxbc_operand {
    enum dxbc_operand_type type;
    enum dxbc_operand_form form;
    uint32_t components;    /* DXBC_MASK: DXBC_X | ...; DXBC_SELECT: 0-3 (x-w); DXBC_SWIZZLE: the swizzle */
    uint32_t index;         /* the register number (ignored for types without one), or the immediate */
    uint32_t index2;        /* the second index of two-index types: cb0[index2] (a declaration: its size in vectors) */
    uint32_t index3;        /* the third index (shader model 5.1: cb#[register][element], a range's upper bound) */
    uint32_t index_count;   /* 0: the type's own count in shader model 5.0; else 1-3 (5.1's ranges) */
    uint32_t index4;        /* DXBC_VECTOR: the fourth component */
    /* Relative addressing: index number relative_index (1-based; 0: none) is its immediate plus
     * component relative_component of temp register r<relative_temp> (5.1: t[5 + r0.x]). */
    uint32_t relative_index, relative_temp, relative_component;
};
/* ORed into relative_index: the operand is marked NonUniformResourceIndex (shader model 5.1: an
 * extended operand token with the non-uniform bit). */
#define DXBC_NONUNIFORM 0x100u

#define DXBC_MAX_OPERANDS 5
#define DXBC_MAX_LITERALS 3

struct dxbc_instruction {
    uint32_t opcode;        /* enum dxbc_opcode, ORed with control bits */
    unsigned operand_count;
    struct dxbc_operand operands[DXBC_MAX_OPERANDS];
    unsigned literal_count;  /* tokens after the operands */
    uint32_t literals[DXBC_MAX_LITERALS];
};

/* Builders for the table of a program. */
#define DXBC_OPERAND(type_, form_, components_, index_) {(type_), (form_), (components_), (index_), 0, 0, 0, 0, 0, 0, 0}
#define DXBC_DST(type_, index_, mask_) DXBC_OPERAND(type_, DXBC_MASK, mask_, index_)
#define DXBC_SRC(type_, index_, component_) DXBC_OPERAND(type_, DXBC_SELECT, component_, index_)
#define DXBC_SRC4(type_, index_) DXBC_OPERAND(type_, DXBC_SWIZZLE, DXBC_SWIZZLE_XYZW, index_)
#define DXBC_RESOURCE(type_, index_) DXBC_OPERAND(type_, DXBC_WHOLE, 0, index_)
#define DXBC_IMM(value_) DXBC_OPERAND(DXBC_IMMEDIATE32, DXBC_SCALAR, 0, value_)
#define DXBC_IMM4(x_, y_, z_, w_) {DXBC_IMMEDIATE32, DXBC_VECTOR, 0, (x_), (y_), (z_), 0, (w_), 0, 0, 0}
/* A resource read by an instruction: ld_raw's t0 / u0 (a swizzle of xyzw). */
#define DXBC_READ(type_, index_) DXBC_OPERAND(type_, DXBC_SWIZZLE, DXBC_SWIZZLE_XYZW, index_)
/* cb<slot>[<element>]: a component of a constant buffer as a source, and its declaration. */
#define DXBC_CB_SRC(slot_, element_, component_) {DXBC_CONSTANT_BUFFER, DXBC_SELECT, (component_), (slot_), (element_), 0, 0, 0, 0, 0, 0}
#define DXBC_CB_DECL(slot_, vectors_) {DXBC_CONSTANT_BUFFER, DXBC_SWIZZLE, DXBC_SWIZZLE_XYZW, (slot_), (vectors_), 0, 0, 0, 0, 0, 0}
/* Shader model 5.1: a declaration names a range (id, first, last register) and a space literal
 * follows it; an instruction names (id, register) and, for constant buffers, the element. */
#define DXBC51_DECL(type_, id_, first_, last_) {(type_), DXBC_WHOLE, 0, (id_), (first_), (last_), 3, 0, 0, 0, 0}
#define DXBC51_CB_DECL(id_, first_, last_) {DXBC_CONSTANT_BUFFER, DXBC_SWIZZLE, DXBC_SWIZZLE_XYZW, (id_), (first_), (last_), 3, 0, 0, 0, 0}
#define DXBC51_RESOURCE(type_, id_, register_) {(type_), DXBC_WHOLE, 0, (id_), (register_), 0, 2, 0, 0, 0, 0}
#define DXBC51_READ(type_, id_, register_) {(type_), DXBC_SWIZZLE, DXBC_SWIZZLE_XYZW, (id_), (register_), 0, 2, 0, 0, 0, 0}
/* t<register_ + r<temp_>.<component_>> of range id_ (shader model 5.1, a swizzle of xyzw) */
#define DXBC51_READ_DYNAMIC(type_, id_, register_, temp_, component_) \
    {(type_), DXBC_SWIZZLE, DXBC_SWIZZLE_XYZW, (id_), (register_), 0, 2, 0, 2, (temp_), (component_)}
#define DXBC51_CB_SRC(id_, register_, element_, component_) \
    {DXBC_CONSTANT_BUFFER, DXBC_SELECT, (component_), (id_), (register_), (element_), 3, 0, 0, 0, 0}

/* Encodes the program (shader model major.minor of the given type) into a DXBC container. On
 * success returns a malloc()ed container (free() it) and its size in *size; NULL when the table
 * holds something the writer cannot encode (too many operands or literals, an unknown operand
 * type) or memory runs out. */
void *dxbc_write_shader(enum dxbc_program_type type, unsigned major, unsigned minor, const struct dxbc_instruction *program,
        size_t instruction_count, size_t *size);

/* The same, with a root signature part: root_signature is a serialized root signature (a DXBC
 * container, as D3D12SerializeRootSignature makes), whose RTS0 part is copied in. */
void *dxbc_write_shader_with_root_signature(enum dxbc_program_type type, unsigned major, unsigned minor,
        const struct dxbc_instruction *program, size_t instruction_count, const void *root_signature,
        size_t root_signature_size, size_t *size);

/* One element of an input or output signature (ISGN, OSGN): what a register holds. */
struct dxbc_signature_element {
    const char *semantic;
    uint32_t semantic_index;
    uint32_t system_value;   /* D3D_NAME: 0 none, 1 SV_Position, 6 SV_VertexID, 8 SV_InstanceID, 64 SV_Target, 13 and 14 a
                                triangle's SV_TessFactor and SV_InsideTessFactor */
    uint32_t component_type; /* 1 uint, 2 int, 3 float */
    uint32_t reg;
    uint8_t mask, used;      /* components it has; components read (inputs) or never written (outputs) */
};

/* A graphics stage's shader with its input and output signatures. */
void *dxbc_write_shader_with_signatures(enum dxbc_program_type type, unsigned major, unsigned minor,
        const struct dxbc_instruction *program, size_t instruction_count, const struct dxbc_signature_element *inputs,
        size_t input_count, const struct dxbc_signature_element *outputs, size_t output_count, size_t *size);

/* A hull or domain shader's: the patch-constant signature (PCSG) besides the input and output ones. */
void *dxbc_write_shader_with_patch_constants(enum dxbc_program_type type, unsigned major, unsigned minor,
        const struct dxbc_instruction *program, size_t instruction_count, const struct dxbc_signature_element *inputs,
        size_t input_count, const struct dxbc_signature_element *outputs, size_t output_count,
        const struct dxbc_signature_element *patch_constants, size_t patch_constant_count, size_t *size);

#ifdef __cplusplus
}
#endif

#endif
