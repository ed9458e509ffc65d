/* DXBC hull and domain shaders (FXC's shader model 5, written here by tests/dxbc_writer.h):
 * libvkd3d-shader translates them, the domain shader with its hull shader's tessellator state
 * (partitioning, output topology); the stages link by semantic, the patch constants (the
 * tessellation factors and a user TINT) included; root constants reach both stages. Read back:
 * the tessellated patch's pixels and the pipeline statistics of its draw (6 triangles for
 * factors 2, 1 for factors 1, 13 for fractional_odd 2), a patch constant read from the input
 * and the output patch, with a control point phase and without (FXC's pass-through hull shader,
 * rewritten where it reads the output patch), DXBC and HLSL stages mixed both ways, and the
 * refusal of domains that differ. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dxbc_writer.h"
#include "small_target.h"

#define FLOAT_ONE 0x3f800000u
/* vicp[point][register] and vDomain.cccc as sources; cb0[element] as a four-component source */
#define VICP(point_, reg_) {DXBC_INPUT_CONTROL_POINT, DXBC_SWIZZLE, DXBC_SWIZZLE_XYZW, (point_), (reg_), 0, 0, 0, 0, 0, 0}
#define VDOMAIN(c_) DXBC_OPERAND(DXBC_INPUT_DOMAIN_POINT, DXBC_SWIZZLE, (c_) * 0x55u, 0)
#define CB4(element_) {DXBC_CONSTANT_BUFFER, DXBC_SWIZZLE, DXBC_SWIZZLE_XYZW, 0, (element_), 0, 0, 0, 0, 0, 0}
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Root constants at b0: cb0[0] the edge (x) and inside (y) factors, cb0[1] the tint the hull
 * shader passes as a patch constant, cb0[2].x the domain shader's scale of it. */
struct constants {
    float factors[4], tint[4], scale[4];
};

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12RootSignature *signature;
    ID3D12Resource *target, *readback;
    ID3D12DescriptorHeap *rtv_heap;
    D3D12_CPU_DESCRIPTOR_HANDLE rtv;
    uint8_t pixels[HEIGHT][WIDTH][4];
};

/* VS: COLOR at o0 and POS at o1, where the hull shader reads POS at v0 and COLOR at v1 (linked by semantic). */
static const struct dxbc_instruction vs_program[] = {
    {DXBC_OP_DCL_INPUT, 1, {DXBC_DST(DXBC_INPUT, 0, DXBC_X | DXBC_Y | DXBC_Z)}, 0, {0}},
    {DXBC_OP_DCL_INPUT, 1, {DXBC_DST(DXBC_INPUT, 1, 0xf)}, 0, {0}},
    {DXBC_OP_DCL_OUTPUT, 1, {DXBC_DST(DXBC_OUTPUT, 0, 0xf)}, 0, {0}},
    {DXBC_OP_DCL_OUTPUT, 1, {DXBC_DST(DXBC_OUTPUT, 1, 0xf)}, 0, {0}},
    {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_OUTPUT, 0, 0xf), DXBC_SRC4(DXBC_INPUT, 1)}, 0, {0}},
    {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_OUTPUT, 1, DXBC_X | DXBC_Y | DXBC_Z), DXBC_SRC4(DXBC_INPUT, 0)}, 0, {0}},
    {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_OUTPUT, 1, DXBC_W), DXBC_IMM(FLOAT_ONE)}, 0, {0}},
    {DXBC_OP_RET, 0, {{0}}, 0, {0}},
};
static const struct dxbc_signature_element vs_inputs[] = {{"POSITION", 0, 0, 3, 0, 0x7, 0x7}, {"COLOR", 0, 0, 3, 1, 0xf, 0xf}};
static const struct dxbc_signature_element vs_outputs[] = {{"COLOR", 0, 0, 3, 0, 0xf, 0}, {"POS", 0, 0, 3, 1, 0xf, 0}};

/* The hull and domain shaders' control points and patch constants (a triangle's factors, TINT). */
static const struct dxbc_signature_element control_points[] = {{"POS", 0, 0, 3, 0, 0xf, 0xf}, {"COLOR", 0, 0, 3, 1, 0xf, 0xf}};
static const struct dxbc_signature_element patch_constants[] = {
    {"SV_TessFactor", 0, 13, 3, 0, 0x1, 0}, {"SV_TessFactor", 1, 13, 3, 1, 0x1, 0}, {"SV_TessFactor", 2, 13, 3, 2, 0x1, 0},
    {"SV_InsideTessFactor", 0, 14, 3, 3, 0x1, 0}, {"TINT", 0, 0, 3, 4, 0xf, 0}};

/* HS: tri domain, 3 control points passed through (control point phase), the factors and TINT
 * from the root constants (fork phase). Instruction HS_PARTITIONING and HS_FORK_INPUT are
 * changed by the tests. */
enum { HS_PARTITIONING = 4, HS_CONTROL_POINT_PHASE = 8, HS_CONTROL_POINT_PHASE_END = 19, HS_FORK_INPUT = 20 };
static const struct dxbc_instruction hs_program[] = {
    {DXBC_OP_HS_DECLS, 0, {{0}}, 0, {0}},
    {DXBC_OP_DCL_INPUT_CONTROL_POINT_COUNT | DXBC_CONTROL_POINTS(3), 0, {{0}}, 0, {0}},
    {DXBC_OP_DCL_OUTPUT_CONTROL_POINT_COUNT | DXBC_CONTROL_POINTS(3), 0, {{0}}, 0, {0}},
    {DXBC_OP_DCL_TESSELLATOR_DOMAIN | DXBC_DOMAIN_TRI, 0, {{0}}, 0, {0}},
    {DXBC_OP_DCL_TESSELLATOR_PARTITIONING | DXBC_PARTITIONING_INTEGER, 0, {{0}}, 0, {0}},
    {DXBC_OP_DCL_TESSELLATOR_OUTPUT_PRIMITIVE | DXBC_OUTPUT_PRIMITIVE_TRIANGLE_CW, 0, {{0}}, 0, {0}},
    {DXBC_OP_DCL_HS_MAX_TESSFACTOR, 0, {{0}}, 1, {0x41800000u}}, /* 16.0 */
    {DXBC_OP_DCL_CONSTANT_BUFFER, 1, {DXBC_CB_DECL(0, 3)}, 0, {0}},
    {DXBC_OP_HS_CONTROL_POINT_PHASE, 0, {{0}}, 0, {0}},
    {DXBC_OP_DCL_INPUT, 1, {DXBC_OPERAND(DXBC_OUTPUT_CONTROL_POINT_ID, DXBC_ONE, 0, 0)}, 0, {0}},
    {DXBC_OP_DCL_INPUT, 1, {{DXBC_INPUT, DXBC_MASK, 0xf, 3, 0, 0, 2, 0, 0, 0, 0}}, 0, {0}},
    {DXBC_OP_DCL_INPUT, 1, {{DXBC_INPUT, DXBC_MASK, 0xf, 3, 1, 0, 2, 0, 0, 0, 0}}, 0, {0}},
    {DXBC_OP_DCL_OUTPUT, 1, {DXBC_DST(DXBC_OUTPUT, 0, 0xf)}, 0, {0}},
    {DXBC_OP_DCL_OUTPUT, 1, {DXBC_DST(DXBC_OUTPUT, 1, 0xf)}, 0, {0}},
    {DXBC_OP_DCL_TEMPS, 0, {{0}}, 1, {1}},
    {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_TEMP, 0, DXBC_X), DXBC_OPERAND(DXBC_OUTPUT_CONTROL_POINT_ID, DXBC_ONE, 0, 0)}, 0, {0}},
    /* o0 = v[r0.x][0], o1 = v[r0.x][1] */
    {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_OUTPUT, 0, 0xf), {DXBC_INPUT, DXBC_SWIZZLE, DXBC_SWIZZLE_XYZW, 0, 0, 0, 2, 0, 1, 0, 0}}, 0, {0}},
    {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_OUTPUT, 1, 0xf), {DXBC_INPUT, DXBC_SWIZZLE, DXBC_SWIZZLE_XYZW, 0, 1, 0, 2, 0, 1, 0, 0}}, 0, {0}},
    {DXBC_OP_RET, 0, {{0}}, 0, {0}},
    {DXBC_OP_HS_FORK_PHASE, 0, {{0}}, 0, {0}},
    {DXBC_OP_DCL_OUTPUT_SIV, 1, {DXBC_DST(DXBC_OUTPUT, 0, DXBC_X)}, 1, {DXBC_NAME_TRI_U_EDGE}},
    {DXBC_OP_DCL_OUTPUT_SIV, 1, {DXBC_DST(DXBC_OUTPUT, 1, DXBC_X)}, 1, {DXBC_NAME_TRI_V_EDGE}},
    {DXBC_OP_DCL_OUTPUT_SIV, 1, {DXBC_DST(DXBC_OUTPUT, 2, DXBC_X)}, 1, {DXBC_NAME_TRI_W_EDGE}},
    {DXBC_OP_DCL_OUTPUT_SIV, 1, {DXBC_DST(DXBC_OUTPUT, 3, DXBC_X)}, 1, {DXBC_NAME_TRI_INSIDE}},
    {DXBC_OP_DCL_OUTPUT, 1, {DXBC_DST(DXBC_OUTPUT, 4, 0xf)}, 0, {0}},
    {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_OUTPUT, 0, DXBC_X), DXBC_CB_SRC(0, 0, 0)}, 0, {0}},
    {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_OUTPUT, 1, DXBC_X), DXBC_CB_SRC(0, 0, 0)}, 0, {0}},
    {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_OUTPUT, 2, DXBC_X), DXBC_CB_SRC(0, 0, 0)}, 0, {0}},
    {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_OUTPUT, 3, DXBC_X), DXBC_CB_SRC(0, 0, 1)}, 0, {0}},
    {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_OUTPUT, 4, 0xf), CB4(1)}, 0, {0}},
    {DXBC_OP_RET, 0, {{0}}, 0, {0}},
};

/* DS: the barycentric position of the control points' POS, the colour TINT * cb0[2].x.
 * Instruction DS_DOMAIN is changed by the tests. */
enum { DS_DOMAIN = 1 };
static const struct dxbc_instruction ds_program[] = {
    {DXBC_OP_DCL_INPUT_CONTROL_POINT_COUNT | DXBC_CONTROL_POINTS(3), 0, {{0}}, 0, {0}},
    {DXBC_OP_DCL_TESSELLATOR_DOMAIN | DXBC_DOMAIN_TRI, 0, {{0}}, 0, {0}},
    {DXBC_OP_DCL_CONSTANT_BUFFER, 1, {DXBC_CB_DECL(0, 3)}, 0, {0}},
    {DXBC_OP_DCL_INPUT, 1, {DXBC_DST(DXBC_INPUT_DOMAIN_POINT, 0, DXBC_X | DXBC_Y | DXBC_Z)}, 0, {0}},
    {DXBC_OP_DCL_INPUT, 1, {{DXBC_INPUT_CONTROL_POINT, DXBC_MASK, 0xf, 3, 0, 0, 0, 0, 0, 0, 0}}, 0, {0}},
    {DXBC_OP_DCL_INPUT, 1, {DXBC_DST(DXBC_INPUT_PATCH_CONSTANT, 4, 0xf)}, 0, {0}},
    {DXBC_OP_DCL_OUTPUT_SIV, 1, {DXBC_DST(DXBC_OUTPUT, 0, 0xf)}, 1, {1}},
    {DXBC_OP_DCL_OUTPUT, 1, {DXBC_DST(DXBC_OUTPUT, 1, 0xf)}, 0, {0}},
    {DXBC_OP_DCL_TEMPS, 0, {{0}}, 1, {1}},
    {DXBC_OP_MUL, 3, {DXBC_DST(DXBC_TEMP, 0, 0xf), VDOMAIN(1), VICP(1, 0)}, 0, {0}},
    {DXBC_OP_MAD, 4, {DXBC_DST(DXBC_TEMP, 0, 0xf), VDOMAIN(0), VICP(0, 0), DXBC_SRC4(DXBC_TEMP, 0)}, 0, {0}},
    {DXBC_OP_MAD, 4, {DXBC_DST(DXBC_OUTPUT, 0, 0xf), VDOMAIN(2), VICP(2, 0), DXBC_SRC4(DXBC_TEMP, 0)}, 0, {0}},
    {DXBC_OP_MUL, 3, {DXBC_DST(DXBC_OUTPUT, 1, 0xf), DXBC_SRC4(DXBC_INPUT_PATCH_CONSTANT, 4), DXBC_CB_SRC(0, 2, 0)}, 0, {0}},
    {DXBC_OP_RET, 0, {{0}}, 0, {0}},
};
static const struct dxbc_signature_element ds_outputs[] = {{"SV_Position", 0, 1, 3, 0, 0xf, 0}, {"COLOR", 0, 0, 3, 1, 0xf, 0}};

/* The quad domain: 4 control points, 4 edge and 2 inside factors (D3D_NAME 11 and 12) and TINT. */
static const struct dxbc_signature_element quad_patch_constants[] = {
    {"SV_TessFactor", 0, 11, 3, 0, 0x1, 0}, {"SV_TessFactor", 1, 11, 3, 1, 0x1, 0}, {"SV_TessFactor", 2, 11, 3, 2, 0x1, 0},
    {"SV_TessFactor", 3, 11, 3, 3, 0x1, 0}, {"SV_InsideTessFactor", 0, 12, 3, 4, 0x1, 0}, {"SV_InsideTessFactor", 1, 12, 3, 5, 0x1, 0},
    {"TINT", 0, 0, 3, 6, 0xf, 0}};
static const struct dxbc_instruction quad_hs_program[] = {
    {DXBC_OP_HS_DECLS, 0, {{0}}, 0, {0}},
    {DXBC_OP_DCL_INPUT_CONTROL_POINT_COUNT | DXBC_CONTROL_POINTS(4), 0, {{0}}, 0, {0}},
    {DXBC_OP_DCL_OUTPUT_CONTROL_POINT_COUNT | DXBC_CONTROL_POINTS(4), 0, {{0}}, 0, {0}},
    {DXBC_OP_DCL_TESSELLATOR_DOMAIN | DXBC_DOMAIN_QUAD, 0, {{0}}, 0, {0}},
    {DXBC_OP_DCL_TESSELLATOR_PARTITIONING | DXBC_PARTITIONING_INTEGER, 0, {{0}}, 0, {0}},
    {DXBC_OP_DCL_TESSELLATOR_OUTPUT_PRIMITIVE | DXBC_OUTPUT_PRIMITIVE_TRIANGLE_CW, 0, {{0}}, 0, {0}},
    {DXBC_OP_DCL_HS_MAX_TESSFACTOR, 0, {{0}}, 1, {0x41800000u}},
    {DXBC_OP_DCL_CONSTANT_BUFFER, 1, {DXBC_CB_DECL(0, 3)}, 0, {0}},
    {DXBC_OP_HS_CONTROL_POINT_PHASE, 0, {{0}}, 0, {0}},
    {DXBC_OP_DCL_INPUT, 1, {DXBC_OPERAND(DXBC_OUTPUT_CONTROL_POINT_ID, DXBC_ONE, 0, 0)}, 0, {0}},
    {DXBC_OP_DCL_INPUT, 1, {{DXBC_INPUT, DXBC_MASK, 0xf, 4, 0, 0, 2, 0, 0, 0, 0}}, 0, {0}},
    {DXBC_OP_DCL_INPUT, 1, {{DXBC_INPUT, DXBC_MASK, 0xf, 4, 1, 0, 2, 0, 0, 0, 0}}, 0, {0}},
    {DXBC_OP_DCL_OUTPUT, 1, {DXBC_DST(DXBC_OUTPUT, 0, 0xf)}, 0, {0}},
    {DXBC_OP_DCL_OUTPUT, 1, {DXBC_DST(DXBC_OUTPUT, 1, 0xf)}, 0, {0}},
    {DXBC_OP_DCL_TEMPS, 0, {{0}}, 1, {1}},
    {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_TEMP, 0, DXBC_X), DXBC_OPERAND(DXBC_OUTPUT_CONTROL_POINT_ID, DXBC_ONE, 0, 0)}, 0, {0}},
    {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_OUTPUT, 0, 0xf), {DXBC_INPUT, DXBC_SWIZZLE, DXBC_SWIZZLE_XYZW, 0, 0, 0, 2, 0, 1, 0, 0}}, 0, {0}},
    {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_OUTPUT, 1, 0xf), {DXBC_INPUT, DXBC_SWIZZLE, DXBC_SWIZZLE_XYZW, 0, 1, 0, 2, 0, 1, 0, 0}}, 0, {0}},
    {DXBC_OP_RET, 0, {{0}}, 0, {0}},
    {DXBC_OP_HS_FORK_PHASE, 0, {{0}}, 0, {0}},
    {DXBC_OP_DCL_OUTPUT_SIV, 1, {DXBC_DST(DXBC_OUTPUT, 0, DXBC_X)}, 1, {DXBC_NAME_QUAD_U0_EDGE}},
    {DXBC_OP_DCL_OUTPUT_SIV, 1, {DXBC_DST(DXBC_OUTPUT, 1, DXBC_X)}, 1, {DXBC_NAME_QUAD_V0_EDGE}},
    {DXBC_OP_DCL_OUTPUT_SIV, 1, {DXBC_DST(DXBC_OUTPUT, 2, DXBC_X)}, 1, {DXBC_NAME_QUAD_U1_EDGE}},
    {DXBC_OP_DCL_OUTPUT_SIV, 1, {DXBC_DST(DXBC_OUTPUT, 3, DXBC_X)}, 1, {DXBC_NAME_QUAD_V1_EDGE}},
    {DXBC_OP_DCL_OUTPUT_SIV, 1, {DXBC_DST(DXBC_OUTPUT, 4, DXBC_X)}, 1, {DXBC_NAME_QUAD_U_INSIDE}},
    {DXBC_OP_DCL_OUTPUT_SIV, 1, {DXBC_DST(DXBC_OUTPUT, 5, DXBC_X)}, 1, {DXBC_NAME_QUAD_V_INSIDE}},
    {DXBC_OP_DCL_OUTPUT, 1, {DXBC_DST(DXBC_OUTPUT, 6, 0xf)}, 0, {0}},
    {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_OUTPUT, 0, DXBC_X), DXBC_CB_SRC(0, 0, 0)}, 0, {0}},
    {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_OUTPUT, 1, DXBC_X), DXBC_CB_SRC(0, 0, 0)}, 0, {0}},
    {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_OUTPUT, 2, DXBC_X), DXBC_CB_SRC(0, 0, 0)}, 0, {0}},
    {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_OUTPUT, 3, DXBC_X), DXBC_CB_SRC(0, 0, 0)}, 0, {0}},
    {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_OUTPUT, 4, DXBC_X), DXBC_CB_SRC(0, 0, 1)}, 0, {0}},
    {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_OUTPUT, 5, DXBC_X), DXBC_CB_SRC(0, 0, 1)}, 0, {0}},
    {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_OUTPUT, 6, 0xf), CB4(1)}, 0, {0}},
    {DXBC_OP_RET, 0, {{0}}, 0, {0}},
};
/* DS: the bilinear position of the 4 control points' POS at vDomain.xy (u, v), the colour
 * TINT * cb0[2].x. */
#define TEMP_SPLAT(reg_, c_) DXBC_OPERAND(DXBC_TEMP, DXBC_SWIZZLE, (c_) * 0x55u, (reg_))
#define FLOAT_MINUS_ONE 0xbf800000u
static const struct dxbc_instruction quad_ds_program[] = {
    {DXBC_OP_DCL_INPUT_CONTROL_POINT_COUNT | DXBC_CONTROL_POINTS(4), 0, {{0}}, 0, {0}},
    {DXBC_OP_DCL_TESSELLATOR_DOMAIN | DXBC_DOMAIN_QUAD, 0, {{0}}, 0, {0}},
    {DXBC_OP_DCL_CONSTANT_BUFFER, 1, {DXBC_CB_DECL(0, 3)}, 0, {0}},
    {DXBC_OP_DCL_INPUT, 1, {DXBC_DST(DXBC_INPUT_DOMAIN_POINT, 0, DXBC_X | DXBC_Y)}, 0, {0}},
    {DXBC_OP_DCL_INPUT, 1, {{DXBC_INPUT_CONTROL_POINT, DXBC_MASK, 0xf, 4, 0, 0, 0, 0, 0, 0, 0}}, 0, {0}},
    {DXBC_OP_DCL_INPUT, 1, {DXBC_DST(DXBC_INPUT_PATCH_CONSTANT, 6, 0xf)}, 0, {0}},
    {DXBC_OP_DCL_OUTPUT_SIV, 1, {DXBC_DST(DXBC_OUTPUT, 0, 0xf)}, 1, {1}},
    {DXBC_OP_DCL_OUTPUT, 1, {DXBC_DST(DXBC_OUTPUT, 1, 0xf)}, 0, {0}},
    {DXBC_OP_DCL_TEMPS, 0, {{0}}, 1, {4}},
    /* r1.xy = 1 - (u, v) */
    {DXBC_OP_MAD, 4, {DXBC_DST(DXBC_TEMP, 1, DXBC_X | DXBC_Y), DXBC_SRC4(DXBC_INPUT_DOMAIN_POINT, 0), DXBC_IMM(FLOAT_MINUS_ONE),
            DXBC_IMM(FLOAT_ONE)}, 0, {0}},
    /* r2 = p0 (1 - u) + p1 u, r3 = p2 (1 - u) + p3 u */
    {DXBC_OP_MUL, 3, {DXBC_DST(DXBC_TEMP, 2, 0xf), VICP(0, 0), TEMP_SPLAT(1, 0)}, 0, {0}},
    {DXBC_OP_MAD, 4, {DXBC_DST(DXBC_TEMP, 2, 0xf), VICP(1, 0), VDOMAIN(0), DXBC_SRC4(DXBC_TEMP, 2)}, 0, {0}},
    {DXBC_OP_MUL, 3, {DXBC_DST(DXBC_TEMP, 3, 0xf), VICP(2, 0), TEMP_SPLAT(1, 0)}, 0, {0}},
    {DXBC_OP_MAD, 4, {DXBC_DST(DXBC_TEMP, 3, 0xf), VICP(3, 0), VDOMAIN(0), DXBC_SRC4(DXBC_TEMP, 3)}, 0, {0}},
    /* o0 = r2 (1 - v) + r3 v */
    {DXBC_OP_MUL, 3, {DXBC_DST(DXBC_TEMP, 2, 0xf), DXBC_SRC4(DXBC_TEMP, 2), TEMP_SPLAT(1, 1)}, 0, {0}},
    {DXBC_OP_MAD, 4, {DXBC_DST(DXBC_OUTPUT, 0, 0xf), DXBC_SRC4(DXBC_TEMP, 3), VDOMAIN(1), DXBC_SRC4(DXBC_TEMP, 2)}, 0, {0}},
    {DXBC_OP_MUL, 3, {DXBC_DST(DXBC_OUTPUT, 1, 0xf), DXBC_SRC4(DXBC_INPUT_PATCH_CONSTANT, 6), DXBC_CB_SRC(0, 2, 0)}, 0, {0}},
    {DXBC_OP_RET, 0, {{0}}, 0, {0}},
};

static const struct dxbc_instruction ps_program[] = {
    {DXBC_OP_DCL_INPUT_PS | DXBC_INTERPOLATION_LINEAR, 1, {DXBC_DST(DXBC_INPUT, 1, 0xf)}, 0, {0}},
    {DXBC_OP_DCL_OUTPUT, 1, {DXBC_DST(DXBC_OUTPUT, 0, 0xf)}, 0, {0}},
    {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_OUTPUT, 0, 0xf), DXBC_SRC4(DXBC_INPUT, 1)}, 0, {0}},
    {DXBC_OP_RET, 0, {{0}}, 0, {0}},
};
static const struct dxbc_signature_element ps_inputs[] = {{"SV_Position", 0, 1, 3, 0, 0xf, 0}, {"COLOR", 0, 0, 3, 1, 0xf, 0xf}};
static const struct dxbc_signature_element ps_outputs[] = {{"SV_Target", 0, 64, 3, 0, 0xf, 0}};

/* The same hull and domain shaders in HLSL (D3DCompile), to mix with the DXBC ones. */
static const char hlsl_source[] =
    "struct CP { float4 pos : POS; float4 color : COLOR; };\n"
    "cbuffer constants : register(b0) { float4 factors; float4 tint; float4 scale; };\n"
    "struct PC { float edges[3] : SV_TessFactor; float inside : SV_InsideTessFactor; float4 tint : TINT; };\n"
    "PC patch_constants(InputPatch<CP, 3> p)\n"
    "{ PC c; c.edges[0] = c.edges[1] = c.edges[2] = factors.x; c.inside = factors.y; c.tint = tint; return c; }\n"
    "[domain(\"tri\")] [partitioning(\"integer\")] [outputtopology(\"triangle_cw\")] [outputcontrolpoints(3)]\n"
    "[patchconstantfunc(\"patch_constants\")] CP hs(InputPatch<CP, 3> p, uint i : SV_OutputControlPointID) { return p[i]; }\n"
    "struct O { float4 pos : SV_Position; float4 color : COLOR; };\n"
    "[domain(\"tri\")] O ds(PC c, float3 uvw : SV_DomainLocation, const OutputPatch<CP, 3> p)\n"
    "{ O o; o.pos = p[0].pos * uvw.x + p[1].pos * uvw.y + p[2].pos * uvw.z; o.color = c.tint * scale.x; return o; }\n";

static const uint8_t black[4] = {0, 0, 0, 255}, green[4] = {0, 255, 0, 255}, red[4] = {255, 0, 0, 255};

struct shader {
    void *code;
    size_t size;
};

static struct shader write_shader(enum dxbc_program_type type, const struct dxbc_instruction *program, size_t count,
        const struct dxbc_signature_element *inputs, size_t input_count, const struct dxbc_signature_element *outputs, size_t output_count,
        const struct dxbc_signature_element *patch, size_t patch_count)
{
    struct shader shader;
    shader.code = dxbc_write_shader_with_patch_constants(type, 5, 0, program, count, inputs, input_count, outputs, output_count, patch,
            patch_count, &shader.size);
    CHECK(shader.code != NULL);
    return shader;
}

/* Where the hull shader's TINT comes from: the root constants, or the first control point's
 * COLOR of the input patch (vicp) or of the output patch (vocp). */
enum tint { TINT_CONSTANTS, TINT_INPUT_PATCH = DXBC_INPUT_CONTROL_POINT, TINT_OUTPUT_PATCH = DXBC_OUTPUT_CONTROL_POINT };

/* With control_point_phase false, the hull shader passes its control points through without
 * that phase, as FXC writes such a hull shader. */
static struct shader write_hs(uint32_t partitioning, enum tint tint, bool control_point_phase)
{
    struct dxbc_instruction program[COUNT(hs_program) + 1];
    const struct dxbc_instruction declaration = {DXBC_OP_DCL_INPUT, 1, {{(enum dxbc_operand_type)tint, DXBC_MASK, 0xf, 3, 1, 0, 0, 0, 0, 0,
            0}}, 0, {0}};
    size_t count = COUNT(hs_program);

    memcpy(program, hs_program, sizeof(hs_program));
    program[HS_PARTITIONING].opcode = DXBC_OP_DCL_TESSELLATOR_PARTITIONING | partitioning;
    if (tint != TINT_CONSTANTS) {
        /* dcl_input vicp[3][1] (or vocp) in the fork phase, and TINT = vicp[0][1] (vocp[0][1]) */
        memmove(&program[HS_FORK_INPUT + 1], &program[HS_FORK_INPUT], (count - HS_FORK_INPUT) * sizeof(program[0]));
        program[HS_FORK_INPUT] = declaration;
        count++;
        program[count - 2].operands[1] = (struct dxbc_operand)VICP(0, 1);
        program[count - 2].operands[1].type = (enum dxbc_operand_type)tint;
    }
    if (!control_point_phase) {
        memmove(&program[HS_CONTROL_POINT_PHASE], &program[HS_CONTROL_POINT_PHASE_END], (count - HS_CONTROL_POINT_PHASE_END) * sizeof(program[0]));
        count -= HS_CONTROL_POINT_PHASE_END - HS_CONTROL_POINT_PHASE;
    }
    return write_shader(DXBC_HULL_SHADER, program, count, control_points, 2, control_points, 2, patch_constants, 5);
}

static struct shader write_ds(uint32_t domain)
{
    struct dxbc_instruction program[COUNT(ds_program)];
    memcpy(program, ds_program, sizeof(ds_program));
    program[DS_DOMAIN].opcode = DXBC_OP_DCL_TESSELLATOR_DOMAIN | domain;
    return write_shader(DXBC_DOMAIN_SHADER, program, COUNT(program), control_points, 2, ds_outputs, 2, patch_constants, 5);
}

static D3D12_SHADER_BYTECODE bytecode_of(const struct shader *shader)
{
    return (D3D12_SHADER_BYTECODE){shader->code, shader->size};
}

static D3D12_SHADER_BYTECODE bytecode_of_blob(ID3D10Blob *blob)
{
    return (D3D12_SHADER_BYTECODE){blob ? ID3D10Blob_GetBufferPointer(blob) : NULL, blob ? ID3D10Blob_GetBufferSize(blob) : 0};
}

/* The description of a DXBC VS and PS around the given HS and DS. */
static void describe(struct env *env, D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc, const struct shader *vs, const struct shader *ps,
        D3D12_SHADER_BYTECODE hs, D3D12_SHADER_BYTECODE ds)
{
    harness_graphics_desc(desc, env->signature, NULL, NULL);
    desc->VS = bytecode_of(vs);
    desc->PS = bytecode_of(ps);
    desc->HS = hs;
    desc->DS = ds;
    desc->InputLayout.pInputElementDescs = vertex_layout;
    desc->InputLayout.NumElements = 2;
    desc->RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    desc->PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH;
}

static ID3D12PipelineState *create(struct env *env, const D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc)
{
    ID3D12PipelineState *state = NULL;
    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(env->device, desc, &IID_ID3D12PipelineState, (void **)&state), S_OK);
    return state;
}

static void setup(struct env *env)
{
    D3D12_DESCRIPTOR_HEAP_DESC rtv_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    D3D12_ROOT_PARAMETER1 constants;

    memset(&constants, 0, sizeof(constants));
    constants.ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    constants.Constants.Num32BitValues = sizeof(struct constants) / 4;
    constants.ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
    env->device = harness_create_device();
    env->queue = harness_create_queue(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    env->signature = harness_root_signature(env->device, &constants, 1, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT);
    env->target = target_texture(env->device, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET, D3D12_RESOURCE_STATE_RENDER_TARGET);
    env->readback = harness_create_buffer(env->device, D3D12_HEAP_TYPE_READBACK, ROW_PITCH * HEIGHT, D3D12_RESOURCE_STATE_COPY_DEST);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &rtv_desc, &IID_ID3D12DescriptorHeap, (void **)&env->rtv_heap), S_OK);
    env->rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(env->rtv_heap);
    ID3D12Device_CreateRenderTargetView(env->device, env->target, NULL, env->rtv);
}

static void teardown(struct env *env)
{
    ID3D12DescriptorHeap_Release(env->rtv_heap);
    ID3D12Resource_Release(env->readback);
    ID3D12Resource_Release(env->target);
    ID3D12RootSignature_Release(env->signature);
    ID3D12CommandQueue_Release(env->queue);
    harness_release_device(env->device);
}

/* The patches drawn: a triangle over the top-left half of the target (above its diagonal from
 * top right to bottom left), and a quad over its left half. Red control points. */
static const struct vertex triangle_patch[3] = {{-1.0f, 1.0f, 0.5f, {255, 0, 0, 255}}, {1.0f, 1.0f, 0.5f, {255, 0, 0, 255}},
        {-1.0f, -1.0f, 0.5f, {255, 0, 0, 255}}};
static const struct vertex quad_patch[4] = {{-1.0f, 1.0f, 0.5f, {255, 0, 0, 255}}, {0.0f, 1.0f, 0.5f, {255, 0, 0, 255}},
        {-1.0f, -1.0f, 0.5f, {255, 0, 0, 255}}, {0.0f, -1.0f, 0.5f, {255, 0, 0, 255}}};

static ID3D12Resource *patch_buffer(struct env *env, const struct vertex *vertices, UINT count, D3D12_VERTEX_BUFFER_VIEW *view)
{
    const UINT size = count * sizeof(*vertices);
    ID3D12Resource *buffer = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, size, D3D12_RESOURCE_STATE_GENERIC_READ);
    void *mapped = NULL;

    CHECK_HR(ID3D12Resource_Map(buffer, 0, NULL, &mapped), S_OK);
    if (mapped)
        memcpy(mapped, vertices, size);
    ID3D12Resource_Unmap(buffer, 0, NULL);
    *view = (D3D12_VERTEX_BUFFER_VIEW){ID3D12Resource_GetGPUVirtualAddress(buffer), size, sizeof(struct vertex)};
    return buffer;
}

/* Draws the patch (count control points) with state and these factors (tint green, scale 1) into
 * the cleared target, under a pipeline statistics query; reads back the pixels and the statistics. */
static void draw_patch_of(struct env *env, ID3D12PipelineState *state, float factor, const struct vertex *patch, UINT count,
        D3D12_QUERY_DATA_PIPELINE_STATISTICS *stats)
{
    const struct constants constants = {{factor, factor, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f, 1.0f}, {1.0f, 0.0f, 0.0f, 0.0f}};
    D3D12_QUERY_HEAP_DESC heap_desc = {D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS, 1, 0};
    const D3D12_VIEWPORT viewport = {0.0f, 0.0f, WIDTH, HEIGHT, 0.0f, 1.0f};
    const D3D12_RECT scissor = {0, 0, WIDTH, HEIGHT};
    const float clear[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12Resource *results = harness_create_buffer(env->device, D3D12_HEAP_TYPE_DEFAULT, sizeof(*stats), D3D12_RESOURCE_STATE_COPY_DEST);
    D3D12_VERTEX_BUFFER_VIEW view;
    ID3D12Resource *vertices = patch_buffer(env, patch, count, &view);
    ID3D12QueryHeap *heap = NULL;

    CHECK_HR(ID3D12Device_CreateQueryHeap(env->device, &heap_desc, &IID_ID3D12QueryHeap, (void **)&heap), S_OK);
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, env->rtv, clear, 0, NULL);
    ID3D12GraphicsCommandList2_OMSetRenderTargets(list.list, 1, &env->rtv, TRUE, NULL);
    ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, env->signature);
    ID3D12GraphicsCommandList2_SetGraphicsRoot32BitConstants(list.list, 0, sizeof(constants) / 4, &constants, 0);
    ID3D12GraphicsCommandList2_RSSetViewports(list.list, 1, &viewport);
    ID3D12GraphicsCommandList2_RSSetScissorRects(list.list, 1, &scissor);
    ID3D12GraphicsCommandList2_IASetPrimitiveTopology(list.list, D3D_PRIMITIVE_TOPOLOGY_1_CONTROL_POINT_PATCHLIST + count - 1);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 1, &view);
    ID3D12GraphicsCommandList2_BeginQuery(list.list, heap, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, count, 1, 0, 0);
    ID3D12GraphicsCommandList2_EndQuery(list.list, heap, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0);
    ID3D12GraphicsCommandList2_ResolveQueryData(list.list, heap, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0, 1, results, 0);
    target_copy_out(env->readback, &list, env->target, D3D12_RESOURCE_STATE_RENDER_TARGET);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    target_read_pixels(env->readback, env->pixels);
    harness_read_back(env->device, env->queue, results, stats, sizeof(*stats));
    printf("factor %.0f: IAPrimitives %llu HSInvocations %llu DSInvocations %llu CInvocations %llu\n", factor,
            (unsigned long long)stats->IAPrimitives, (unsigned long long)stats->HSInvocations, (unsigned long long)stats->DSInvocations,
            (unsigned long long)stats->CInvocations);
    ID3D12QueryHeap_Release(heap);
    ID3D12Resource_Release(vertices);
    ID3D12Resource_Release(results);
}

static void draw_patch(struct env *env, ID3D12PipelineState *state, float factor, D3D12_QUERY_DATA_PIPELINE_STATISTICS *stats)
{
    draw_patch_of(env, state, factor, triangle_patch, 3, stats);
}

/* The patch's pixels: tinted green inside (above the diagonal), black outside. */
static void check_patch_pixels(struct env *env)
{
    CHECK_PIXEL(env, 2, 2, green, 1);
    CHECK_PIXEL(env, 20, 4, green, 1);
    CHECK_PIXEL(env, 4, 20, green, 1);
    CHECK_PIXEL(env, 29, 29, black, 0);
    CHECK_PIXEL(env, 20, 20, black, 0);
}

/* Every stage DXBC: factors 2 make 6 triangles of the one patch, factors 1 one triangle; the
 * tint travels from the root constants through the hull shader's patch constant to the pixels. */
static void test_dxbc_stages(struct env *env)
{
    struct shader vs = write_shader(DXBC_VERTEX_SHADER, vs_program, COUNT(vs_program), vs_inputs, 2, vs_outputs, 2, NULL, 0);
    struct shader ps = write_shader(DXBC_PIXEL_SHADER, ps_program, COUNT(ps_program), ps_inputs, 2, ps_outputs, 1, NULL, 0);
    struct shader hs = write_hs(DXBC_PARTITIONING_INTEGER, TINT_CONSTANTS, true), ds = write_ds(DXBC_DOMAIN_TRI);
    struct shader hs_odd = write_hs(DXBC_PARTITIONING_FRACTIONAL_ODD, TINT_CONSTANTS, true);
    struct shader hs_patch_readers[4] = {write_hs(DXBC_PARTITIONING_INTEGER, TINT_INPUT_PATCH, true),
            write_hs(DXBC_PARTITIONING_INTEGER, TINT_OUTPUT_PATCH, true), write_hs(DXBC_PARTITIONING_INTEGER, TINT_INPUT_PATCH, false),
            write_hs(DXBC_PARTITIONING_INTEGER, TINT_OUTPUT_PATCH, false)};
    D3D12_QUERY_DATA_PIPELINE_STATISTICS stats;
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *state;
    LOG_MARK();

    describe(env, &desc, &vs, &ps, bytecode_of(&hs), bytecode_of(&ds));
    if ((state = create(env, &desc))) {
        draw_patch(env, state, 2.0f, &stats);
        check_patch_pixels(env);
        CHECK_MSG(stats.IAPrimitives == 1, "IAPrimitives %llu", (unsigned long long)stats.IAPrimitives);
        /* integer partitioning of a triangle with every factor 2: 6 triangles over 7 domain points */
        CHECK_MSG(stats.CInvocations == 6, "CInvocations %llu (6 expected)", (unsigned long long)stats.CInvocations);
        CHECK_MSG(stats.DSInvocations >= 7, "DSInvocations %llu (at least 7)", (unsigned long long)stats.DSInvocations);
        CHECK_MSG(stats.HSInvocations >= 1, "HSInvocations %llu", (unsigned long long)stats.HSInvocations);
        draw_patch(env, state, 1.0f, &stats);
        check_patch_pixels(env);
        CHECK_MSG(stats.CInvocations == 1, "CInvocations %llu (1 expected)", (unsigned long long)stats.CInvocations);
        CHECK_MSG(stats.DSInvocations >= 3, "DSInvocations %llu (at least 3)", (unsigned long long)stats.DSInvocations);
        ID3D12PipelineState_Release(state);
    }
    /* TINT from the control points' red, read in the patch-constant phase from the input patch
     * (vicp) and from the output patch (vocp, after a barrier behind the control point phase,
     * which libvkd3d-shader 1.2 leaves out), by a hull shader with a control point phase and by
     * FXC's pass-through one without (whose vocp 1.2 reads as undefined values: its phase is
     * written out, frontends/dxbc_hull.h) */
    for (unsigned i = 0; i < 4; i++) {
        desc.HS = bytecode_of(&hs_patch_readers[i]);
        if ((state = create(env, &desc))) {
            draw_patch(env, state, 2.0f, &stats);
            CHECK_MSG(target_pixel_is(env->pixels, 2, 2, red, 1) && target_pixel_is(env->pixels, 20, 4, red, 1)
                    && target_pixel_is(env->pixels, 29, 29, black, 0), "hull shader %u reading the control points in its "
                    "patch-constant phase: pixels %u %u %u %u, %u %u %u %u, %u %u %u %u", i, env->pixels[2][2][0], env->pixels[2][2][1],
                    env->pixels[2][2][2], env->pixels[2][2][3], env->pixels[4][20][0], env->pixels[4][20][1], env->pixels[4][20][2],
                    env->pixels[4][20][3], env->pixels[29][29][0], env->pixels[29][29][1], env->pixels[29][29][2], env->pixels[29][29][3]);
            CHECK_MSG(stats.CInvocations == 6, "hull shader %u: CInvocations %llu (6 expected)", i, (unsigned long long)stats.CInvocations);
            ID3D12PipelineState_Release(state);
        }
    }
    /* the same domain shader after another hull shader: fractional_odd rounds factors 2 up to 3,
     * which makes 13 triangles (the domain shader's translation is not the integer one's) */
    desc.HS = bytecode_of(&hs_odd);
    if ((state = create(env, &desc))) {
        draw_patch(env, state, 2.0f, &stats);
        check_patch_pixels(env);
        CHECK_MSG(stats.CInvocations >= 7, "CInvocations %llu (fractional_odd: more than integer's 6)", (unsigned long long)stats.CInvocations);
        ID3D12PipelineState_Release(state);
    }
    CHECK_NO_LOG();
    free(vs.code);
    free(ps.code);
    free(hs.code);
    free(hs_odd.code);
    for (unsigned i = 0; i < 4; i++)
        free(hs_patch_readers[i].code);
    free(ds.code);
}

/* The quad domain: factors 2 make 8 triangles (a 2 x 2 grid of quads), factors 1 two; the
 * patch covers the left half of the target. */
static void test_quad_domain(struct env *env)
{
    struct shader vs = write_shader(DXBC_VERTEX_SHADER, vs_program, COUNT(vs_program), vs_inputs, 2, vs_outputs, 2, NULL, 0);
    struct shader ps = write_shader(DXBC_PIXEL_SHADER, ps_program, COUNT(ps_program), ps_inputs, 2, ps_outputs, 1, NULL, 0);
    struct shader hs = write_shader(DXBC_HULL_SHADER, quad_hs_program, COUNT(quad_hs_program), control_points, 2, control_points, 2,
            quad_patch_constants, COUNT(quad_patch_constants));
    struct shader ds = write_shader(DXBC_DOMAIN_SHADER, quad_ds_program, COUNT(quad_ds_program), control_points, 2, ds_outputs, 2,
            quad_patch_constants, COUNT(quad_patch_constants));
    D3D12_QUERY_DATA_PIPELINE_STATISTICS stats;
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *state;
    LOG_MARK();

    describe(env, &desc, &vs, &ps, bytecode_of(&hs), bytecode_of(&ds));
    if ((state = create(env, &desc))) {
        for (unsigned factor = 1; factor <= 2; factor++) {
            draw_patch_of(env, state, (float)factor, quad_patch, 4, &stats);
            CHECK_PIXEL(env, 2, 2, green, 1);
            CHECK_PIXEL(env, 13, 29, green, 1);
            CHECK_PIXEL(env, 18, 2, black, 0);
            CHECK_PIXEL(env, 29, 29, black, 0);
            CHECK_MSG(stats.CInvocations == (factor == 1 ? 2 : 8), "quad domain, factors %u: CInvocations %llu", factor,
                    (unsigned long long)stats.CInvocations);
            CHECK_MSG(stats.DSInvocations >= (factor == 1 ? 4 : 9), "quad domain, factors %u: DSInvocations %llu", factor,
                    (unsigned long long)stats.DSInvocations);
        }
        ID3D12PipelineState_Release(state);
    }
    CHECK_NO_LOG();
    free(vs.code);
    free(ps.code);
    free(hs.code);
    free(ds.code);
}

/* DXBC and HLSL tessellation stages together: the patch constants link by semantic both ways,
 * and the DXBC domain shader takes the HLSL hull shader's tessellator state. */
static void test_mixed_stages(struct env *env)
{
    struct shader vs = write_shader(DXBC_VERTEX_SHADER, vs_program, COUNT(vs_program), vs_inputs, 2, vs_outputs, 2, NULL, 0);
    struct shader ps = write_shader(DXBC_PIXEL_SHADER, ps_program, COUNT(ps_program), ps_inputs, 2, ps_outputs, 1, NULL, 0);
    struct shader hs = write_hs(DXBC_PARTITIONING_INTEGER, TINT_CONSTANTS, true), ds = write_ds(DXBC_DOMAIN_TRI);
    ID3D10Blob *hlsl_hs = harness_compile_stage(hlsl_source, "hs", "hs_5_0"), *hlsl_ds = harness_compile_stage(hlsl_source, "ds", "ds_5_0");
    D3D12_QUERY_DATA_PIPELINE_STATISTICS stats;
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *state;
    LOG_MARK();

    describe(env, &desc, &vs, &ps, bytecode_of(&hs), bytecode_of_blob(hlsl_ds));
    if ((state = create(env, &desc))) {
        draw_patch(env, state, 2.0f, &stats);
        check_patch_pixels(env);
        CHECK_MSG(stats.CInvocations == 6, "DXBC HS, HLSL DS: CInvocations %llu (6 expected)", (unsigned long long)stats.CInvocations);
        ID3D12PipelineState_Release(state);
    }
    describe(env, &desc, &vs, &ps, bytecode_of_blob(hlsl_hs), bytecode_of(&ds));
    if ((state = create(env, &desc))) {
        draw_patch(env, state, 2.0f, &stats);
        check_patch_pixels(env);
        CHECK_MSG(stats.CInvocations == 6, "HLSL HS, DXBC DS: CInvocations %llu (6 expected)", (unsigned long long)stats.CInvocations);
        ID3D12PipelineState_Release(state);
    }
    CHECK_NO_LOG();
    if (hlsl_hs)
        ID3D10Blob_Release(hlsl_hs);
    if (hlsl_ds)
        ID3D10Blob_Release(hlsl_ds);
    free(vs.code);
    free(ps.code);
    free(hs.code);
    free(ds.code);
}

/* What is refused, with one line: a domain shader of another domain than its hull shader's. */
static void test_refusals(struct env *env)
{
    struct shader vs = write_shader(DXBC_VERTEX_SHADER, vs_program, COUNT(vs_program), vs_inputs, 2, vs_outputs, 2, NULL, 0);
    struct shader ps = write_shader(DXBC_PIXEL_SHADER, ps_program, COUNT(ps_program), ps_inputs, 2, ps_outputs, 1, NULL, 0);
    struct shader hs = write_hs(DXBC_PARTITIONING_INTEGER, TINT_CONSTANTS, true), ds = write_ds(DXBC_DOMAIN_TRI);
    struct shader ds_quad = write_ds(DXBC_DOMAIN_QUAD);

    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *state = NULL;
    LOG_MARK();

    describe(env, &desc, &vs, &ps, bytecode_of(&hs), bytecode_of(&ds_quad));
    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&state), E_INVALIDARG);
    CHECK_LOG("pDesc->DS's domain is quad but pDesc->HS's is tri");
    CHECK(!state);
    free(vs.code);
    free(ps.code);
    free(hs.code);
    free(ds.code);
    free(ds_quad.code);
}

int main(void)
{
    struct env env;

    harness_init();
    memset(&env, 0, sizeof(env));
    setup(&env);
    test_dxbc_stages(&env);
    test_quad_domain(&env);
    test_mixed_stages(&env);
    test_refusals(&env);
    teardown(&env);
    return harness_finish();
}
