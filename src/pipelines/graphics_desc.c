/* The newest form of a graphics pipeline's description (graphics_desc.h): older rasterizer and
 * depth-stencil descriptions converted, D3D12's defaults for what a stream leaves out, and the
 * bytes the table of live pipelines and cached blobs compare a description by. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pipelines/graphics_desc.h"

/* D3D12_RASTERIZER_DESC1's line flags as D3D12_RASTERIZER_DESC2's mode (D3D12's table):
 * MultisampleEnable draws quadrilaterals 1.4 pixels wide, AntialiasedLineEnable alone
 * alpha-antialiased lines, neither aliased ones. */
static D3D12_LINE_RASTERIZATION_MODE line_mode(BOOL multisample, BOOL antialiased)
{
    if (multisample)
        return D3D12_LINE_RASTERIZATION_MODE_QUADRILATERAL_WIDE;
    return antialiased ? D3D12_LINE_RASTERIZATION_MODE_ALPHA_ANTIALIASED : D3D12_LINE_RASTERIZATION_MODE_ALIASED;
}

void d3d12_rasterizer_desc2_from_desc1(const D3D12_RASTERIZER_DESC1 *desc, D3D12_RASTERIZER_DESC2 *out)
{
    out->FillMode = desc->FillMode;
    out->CullMode = desc->CullMode;
    out->FrontCounterClockwise = desc->FrontCounterClockwise;
    out->DepthBias = desc->DepthBias;
    out->DepthBiasClamp = desc->DepthBiasClamp;
    out->SlopeScaledDepthBias = desc->SlopeScaledDepthBias;
    out->DepthClipEnable = desc->DepthClipEnable;
    out->LineRasterizationMode = line_mode(desc->MultisampleEnable, desc->AntialiasedLineEnable);
    out->ForcedSampleCount = desc->ForcedSampleCount;
    out->ConservativeRaster = desc->ConservativeRaster;
}

static void rasterizer_desc2_from_desc(const D3D12_RASTERIZER_DESC *desc, D3D12_RASTERIZER_DESC2 *out)
{
    const D3D12_RASTERIZER_DESC1 desc1 = {desc->FillMode, desc->CullMode, desc->FrontCounterClockwise, (FLOAT)desc->DepthBias,
            desc->DepthBiasClamp, desc->SlopeScaledDepthBias, desc->DepthClipEnable, desc->MultisampleEnable, desc->AntialiasedLineEnable,
            desc->ForcedSampleCount, desc->ConservativeRaster};
    d3d12_rasterizer_desc2_from_desc1(&desc1, out);
}

static void stencil_op1(const D3D12_DEPTH_STENCILOP_DESC *op, UINT8 read_mask, UINT8 write_mask, D3D12_DEPTH_STENCILOP_DESC1 *out)
{
    out->StencilFailOp = op->StencilFailOp;
    out->StencilDepthFailOp = op->StencilDepthFailOp;
    out->StencilPassOp = op->StencilPassOp;
    out->StencilFunc = op->StencilFunc;
    out->StencilReadMask = read_mask;
    out->StencilWriteMask = write_mask;
}

void d3d12_depth_stencil_desc2_from_desc1(const D3D12_DEPTH_STENCIL_DESC1 *desc, D3D12_DEPTH_STENCIL_DESC2 *out)
{
    out->DepthEnable = desc->DepthEnable;
    out->DepthWriteMask = desc->DepthWriteMask;
    out->DepthFunc = desc->DepthFunc;
    out->StencilEnable = desc->StencilEnable;
    stencil_op1(&desc->FrontFace, desc->StencilReadMask, desc->StencilWriteMask, &out->FrontFace);
    stencil_op1(&desc->BackFace, desc->StencilReadMask, desc->StencilWriteMask, &out->BackFace);
    out->DepthBoundsTestEnable = desc->DepthBoundsTestEnable;
}

void d3d12_graphics_desc_from_desc(const D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc, struct d3d12_graphics_desc *out)
{
    const D3D12_DEPTH_STENCIL_DESC *ds = &desc->DepthStencilState;
    const D3D12_DEPTH_STENCIL_DESC1 ds1 = {ds->DepthEnable, ds->DepthWriteMask, ds->DepthFunc, ds->StencilEnable, ds->StencilReadMask,
            ds->StencilWriteMask, ds->FrontFace, ds->BackFace, FALSE};

    memset(out, 0, sizeof(*out));
    out->prefix = "pDesc->";
    out->root_signature = desc->pRootSignature;
    out->vs = desc->VS;
    out->ps = desc->PS;
    out->ds = desc->DS;
    out->hs = desc->HS;
    out->gs = desc->GS;
    out->stream_output = desc->StreamOutput;
    out->blend = desc->BlendState;
    out->sample_mask = desc->SampleMask;
    rasterizer_desc2_from_desc(&desc->RasterizerState, &out->rasterizer);
    d3d12_depth_stencil_desc2_from_desc1(&ds1, &out->depth_stencil);
    out->input_layout = desc->InputLayout;
    out->strip_cut_value = desc->IBStripCutValue;
    out->topology_type = desc->PrimitiveTopologyType;
    out->rt_count = desc->NumRenderTargets;
    memcpy(out->rtv_formats, desc->RTVFormats, sizeof(out->rtv_formats));
    out->dsv_format = desc->DSVFormat;
    out->sample_desc = desc->SampleDesc;
    out->node_mask = desc->NodeMask;
    out->cached_pso = desc->CachedPSO;
    out->flags = desc->Flags;
}

void d3d12_graphics_desc_defaults(struct d3d12_graphics_desc *out)
{
    static const D3D12_DEPTH_STENCILOP_DESC1 keep = {D3D12_STENCIL_OP_KEEP, D3D12_STENCIL_OP_KEEP, D3D12_STENCIL_OP_KEEP,
            D3D12_COMPARISON_FUNC_ALWAYS, D3D12_DEFAULT_STENCIL_READ_MASK, D3D12_DEFAULT_STENCIL_WRITE_MASK};

    memset(out, 0, sizeof(*out));
    out->prefix = "the stream's ";
    for (unsigned i = 0; i < D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT; i++) {
        D3D12_RENDER_TARGET_BLEND_DESC *rt = &out->blend.RenderTarget[i];
        rt->SrcBlend = rt->SrcBlendAlpha = D3D12_BLEND_ONE;
        rt->DestBlend = rt->DestBlendAlpha = D3D12_BLEND_ZERO;
        rt->BlendOp = rt->BlendOpAlpha = D3D12_BLEND_OP_ADD;
        rt->LogicOp = D3D12_LOGIC_OP_NOOP;
        rt->RenderTargetWriteMask = D3D12_COLOR_WRITE_ENABLE_ALL;
    }
    out->sample_mask = UINT32_MAX;
    out->rasterizer = (D3D12_RASTERIZER_DESC2){D3D12_FILL_MODE_SOLID, D3D12_CULL_MODE_BACK, FALSE, 0.0f, 0.0f, 0.0f, TRUE,
            D3D12_LINE_RASTERIZATION_MODE_ALIASED, 0, D3D12_CONSERVATIVE_RASTERIZATION_MODE_OFF};
    out->depth_stencil = (D3D12_DEPTH_STENCIL_DESC2){TRUE, D3D12_DEPTH_WRITE_MASK_ALL, D3D12_COMPARISON_FUNC_LESS, FALSE, keep, keep, FALSE};
    out->sample_desc.Count = 1;
}

/* ---- the bytes the table of live pipelines compares (graphics_desc.h) ---- */

struct key_writer {
    unsigned char *data;
    size_t size; /* with data NULL: only counted */
};

static void key_put(struct key_writer *w, const void *bytes, size_t size)
{
    if (w->data && size)
        memcpy(w->data + w->size, bytes, size);
    w->size += size;
}

static void key_put_u32(struct key_writer *w, uint32_t value)
{
    key_put(w, &value, sizeof(value));
}

static void key_put_stencil_op(struct key_writer *w, const D3D12_DEPTH_STENCILOP_DESC1 *op)
{
    key_put_u32(w, op->StencilFailOp);
    key_put_u32(w, op->StencilDepthFailOp);
    key_put_u32(w, op->StencilPassOp);
    key_put_u32(w, op->StencilFunc);
    key_put_u32(w, op->StencilReadMask);
    key_put_u32(w, op->StencilWriteMask);
}

/* Field by field (no struct padding), strings by value; one pass counts, the next writes. */
static void write_key(const struct d3d12_graphics_desc *desc, struct key_writer *w)
{
    const D3D12_SHADER_BYTECODE *shaders[] = {&desc->vs, &desc->ps, &desc->ds, &desc->hs, &desc->gs};
    const D3D12_DEPTH_STENCIL_DESC2 *ds = &desc->depth_stencil;
    const D3D12_RASTERIZER_DESC2 *rs = &desc->rasterizer;

    for (size_t i = 0; i < sizeof(shaders) / sizeof(shaders[0]); i++) {
        size_t length = shaders[i]->pShaderBytecode ? shaders[i]->BytecodeLength : 0;
        key_put(w, &length, sizeof(length));
        key_put(w, shaders[i]->pShaderBytecode, length);
    }
    key_put_u32(w, desc->blend.AlphaToCoverageEnable);
    key_put_u32(w, desc->blend.IndependentBlendEnable);
    for (unsigned i = 0; i < D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT; i++) {
        const D3D12_RENDER_TARGET_BLEND_DESC *rt = &desc->blend.RenderTarget[i];
        const uint32_t fields[] = {rt->BlendEnable, rt->LogicOpEnable, rt->SrcBlend, rt->DestBlend, rt->BlendOp, rt->SrcBlendAlpha,
                rt->DestBlendAlpha, rt->BlendOpAlpha, rt->LogicOp, rt->RenderTargetWriteMask};
        key_put(w, fields, sizeof(fields));
    }
    key_put_u32(w, desc->sample_mask);
    {
        uint32_t fields[10];
        const uint32_t integers[] = {rs->FillMode, rs->CullMode, rs->FrontCounterClockwise, rs->DepthClipEnable,
                rs->LineRasterizationMode, rs->ForcedSampleCount, rs->ConservativeRaster};
        memcpy(fields, integers, sizeof(integers));
        memcpy(&fields[7], &rs->DepthBias, 4);
        memcpy(&fields[8], &rs->DepthBiasClamp, 4);
        memcpy(&fields[9], &rs->SlopeScaledDepthBias, 4);
        key_put(w, fields, sizeof(fields));
    }
    key_put_u32(w, ds->DepthEnable);
    key_put_u32(w, ds->DepthWriteMask);
    key_put_u32(w, ds->DepthFunc);
    key_put_u32(w, ds->StencilEnable);
    key_put_stencil_op(w, &ds->FrontFace);
    key_put_stencil_op(w, &ds->BackFace);
    key_put_u32(w, ds->DepthBoundsTestEnable);
    key_put_u32(w, desc->input_layout.pInputElementDescs ? desc->input_layout.NumElements : 0);
    for (UINT i = 0; desc->input_layout.pInputElementDescs && i < desc->input_layout.NumElements; i++) {
        const D3D12_INPUT_ELEMENT_DESC *e = &desc->input_layout.pInputElementDescs[i];
        const char *name = e->SemanticName ? e->SemanticName : "";
        key_put(w, name, strlen(name) + 1);
        key_put_u32(w, e->SemanticIndex);
        key_put_u32(w, e->Format);
        key_put_u32(w, e->InputSlot);
        key_put_u32(w, e->AlignedByteOffset);
        key_put_u32(w, e->InputSlotClass);
        key_put_u32(w, e->InstanceDataStepRate);
    }
    key_put_u32(w, desc->strip_cut_value);
    key_put_u32(w, desc->topology_type);
    key_put_u32(w, desc->rt_count);
    for (unsigned i = 0; i < D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT; i++)
        key_put_u32(w, desc->rtv_formats[i]);
    key_put_u32(w, desc->dsv_format);
    key_put_u32(w, desc->sample_desc.Count);
    key_put_u32(w, desc->sample_desc.Quality);
    key_put_u32(w, desc->view_instancing.ViewInstanceCount);
    key_put_u32(w, desc->view_instancing.Flags);
    for (UINT i = 0; desc->view_instancing.pViewInstanceLocations && i < desc->view_instancing.ViewInstanceCount; i++) {
        key_put_u32(w, desc->view_instancing.pViewInstanceLocations[i].ViewportArrayIndex);
        key_put_u32(w, desc->view_instancing.pViewInstanceLocations[i].RenderTargetArrayIndex);
    }
}

void *d3d12_graphics_desc_key_bytes(const struct d3d12_graphics_desc *desc, size_t *size)
{
    struct key_writer w = {NULL, 0};

    write_key(desc, &w);
    if (!(w.data = malloc(w.size)))
        return NULL;
    *size = w.size;
    w.size = 0;
    write_key(desc, &w);
    return w.data;
}
