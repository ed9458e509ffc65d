/* Hull and domain shaders' tessellator state (tessellation_state.h). */
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "pipelines/tessellation_state.h"
#include "common/log.h"

/* D3D's values of the declarations (d3d11tokenizedprogramformat: partitioning 1 integer, 2 pow2,
 * 3 fractional_odd, 4 fractional_even; output primitive 1 point, 2 line, 3 triangle_cw, 4
 * triangle_ccw), which libvkd3d-shader's enums repeat. */
enum { PARTITIONING_INTEGER = 1, PARTITIONING_FRACTIONAL_ODD = 3, PARTITIONING_FRACTIONAL_EVEN = 4 };
enum { OUTPUT_POINT = 1, OUTPUT_LINE = 2, OUTPUT_TRIANGLE_CW = 3, OUTPUT_TRIANGLE_CCW = 4 };

/* The tessellation execution modes of a module's entry point: 0 for each it does not declare. */
struct tessellation_modes {
    uint32_t domain;        /* SpvExecutionModeTriangles, Quads, Isolines */
    uint32_t spacing;       /* SpvExecutionModeSpacingEqual, FractionalOdd, FractionalEven */
    uint32_t vertex_order;  /* SpvExecutionModeVertexOrderCw, Ccw */
    bool point_mode;
};

static void read_modes(const struct d3d12xs_spirv_module *m, struct tessellation_modes *modes)
{
    const struct d3d12xs_spirv_inst *inst;

    memset(modes, 0, sizeof(*modes));
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_EXECUTION_MODES, i, inst)) {
        if (d3d12xs_spirv_op(inst) != SpvOpExecutionMode || d3d12xs_spirv_len(inst) < 3)
            continue;
        switch (inst->w[2]) {
        case SpvExecutionModeTriangles: case SpvExecutionModeQuads: case SpvExecutionModeIsolines:
            modes->domain = inst->w[2];
            break;
        case SpvExecutionModeSpacingEqual: case SpvExecutionModeSpacingFractionalOdd: case SpvExecutionModeSpacingFractionalEven:
            modes->spacing = inst->w[2];
            break;
        case SpvExecutionModeVertexOrderCw: case SpvExecutionModeVertexOrderCcw:
            modes->vertex_order = inst->w[2];
            break;
        case SpvExecutionModePointMode:
            modes->point_mode = true;
            break;
        default:
            break;
        }
    }
}

static const char *domain_name(uint32_t domain)
{
    switch (domain) {
    case SpvExecutionModeTriangles: return "tri";
    case SpvExecutionModeQuads: return "quad";
    default: return "isoline";
    }
}

HRESULT d3d12_tessellation_dxbc_state(const struct d3d12_graphics_stage *hs, struct d3d12xs_dxbc_tessellator *tessellator,
        const char *ds_argument, const char *method)
{
    struct tessellation_modes modes;

    tessellator->output_primitive = tessellator->partitioning = 0;
    if (hs->stage != VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT || !hs->module)
        return S_OK; /* the rules refused a domain shader without a hull shader already */
    read_modes(hs->module, &modes);
    switch (modes.spacing) {
    case SpvExecutionModeSpacingEqual: tessellator->partitioning = PARTITIONING_INTEGER; break; /* pow2 too */
    case SpvExecutionModeSpacingFractionalOdd: tessellator->partitioning = PARTITIONING_FRACTIONAL_ODD; break;
    case SpvExecutionModeSpacingFractionalEven: tessellator->partitioning = PARTITIONING_FRACTIONAL_EVEN; break;
    default: break;
    }
    if (modes.point_mode)
        tessellator->output_primitive = OUTPUT_POINT;
    else if (modes.domain == SpvExecutionModeIsolines)
        tessellator->output_primitive = OUTPUT_LINE;
    else if (modes.vertex_order)
        tessellator->output_primitive = modes.vertex_order == SpvExecutionModeVertexOrderCw ? OUTPUT_TRIANGLE_CW : OUTPUT_TRIANGLE_CCW;
    if (!tessellator->partitioning || !tessellator->output_primitive)
        return d3d12xs_fail(E_INVALIDARG, method, "%s declares no %s, which the DXBC domain shader %s takes from it (a hull shader "
                "declares its partitioning and output topology)", hs->argument, tessellator->partitioning ? "output primitive (vertex order, "
                "point mode)" : "partitioning (spacing)", ds_argument);
    return S_OK;
}

HRESULT d3d12_tessellation_check(const struct d3d12_graphics_stage *hs, const struct d3d12_graphics_stage *ds, const char *method)
{
    struct tessellation_modes h, d;

    read_modes(hs->module, &h);
    read_modes(ds->module, &d);
    if (h.domain && d.domain && h.domain != d.domain)
        return d3d12xs_fail(E_INVALIDARG, method, "%s's domain is %s but %s's is %s (they must be the same)", ds->argument,
                domain_name(d.domain), hs->argument, domain_name(h.domain));
    if ((h.spacing && d.spacing && h.spacing != d.spacing) || (h.vertex_order && d.vertex_order && h.vertex_order != d.vertex_order))
        return d3d12xs_fail(E_INVALIDARG, method, "%s declares another %s than %s (Vulkan takes the one state of both stages)",
                ds->argument, h.spacing != d.spacing ? "partitioning" : "output topology", hs->argument);
    return S_OK;
}
