/* ID3D12Device2::CreatePipelineState: a pipeline state stream read into the description it
 * stands for. A stream is a run of subobjects, each a D3D12_PIPELINE_STATE_SUBOBJECT_TYPE and
 * its struct, aligned as a pointer is (d3dx12's CD3DX12_PIPELINE_STATE_STREAM_SUBOBJECT:
 * alignas(void *) { type; inner }). Every subobject D3D12 defines is read; a type given twice
 * (counting the rasterizer's and depth-stencil's versions as one), an unknown one, or a mesh
 * shader's is refused with E_INVALIDARG and a line naming it. A stream with a CS is a compute
 * pipeline, one with a VS a graphics pipeline. */
#include <stdalign.h>
#include <string.h>

#include "pipelines/graphics_pipeline.h"

#define METHOD "ID3D12Device2::CreatePipelineState"

static const char *const subobject_names[] = {
    "ROOT_SIGNATURE", "VS", "PS", "DS", "HS", "GS", "CS", "STREAM_OUTPUT", "BLEND", "SAMPLE_MASK", "RASTERIZER", "DEPTH_STENCIL",
    "INPUT_LAYOUT", "IB_STRIP_CUT_VALUE", "PRIMITIVE_TOPOLOGY", "RENDER_TARGET_FORMATS", "DEPTH_STENCIL_FORMAT", "SAMPLE_DESC",
    "NODE_MASK", "CACHED_PSO", "FLAGS", "DEPTH_STENCIL1", "VIEW_INSTANCING", "(23)", "AS", "MS", "DEPTH_STENCIL2", "RASTERIZER1",
    "RASTERIZER2",
};

/* The inner struct's size and alignment of each subobject type (0: not a type D3D12 defines). */
static const struct { size_t size, align; } inner_layouts[] = {
    [D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_ROOT_SIGNATURE] = {sizeof(ID3D12RootSignature *), alignof(ID3D12RootSignature *)},
    [D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VS] = {sizeof(D3D12_SHADER_BYTECODE), alignof(D3D12_SHADER_BYTECODE)},
    [D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PS] = {sizeof(D3D12_SHADER_BYTECODE), alignof(D3D12_SHADER_BYTECODE)},
    [D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DS] = {sizeof(D3D12_SHADER_BYTECODE), alignof(D3D12_SHADER_BYTECODE)},
    [D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_HS] = {sizeof(D3D12_SHADER_BYTECODE), alignof(D3D12_SHADER_BYTECODE)},
    [D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_GS] = {sizeof(D3D12_SHADER_BYTECODE), alignof(D3D12_SHADER_BYTECODE)},
    [D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CS] = {sizeof(D3D12_SHADER_BYTECODE), alignof(D3D12_SHADER_BYTECODE)},
    [D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_STREAM_OUTPUT] = {sizeof(D3D12_STREAM_OUTPUT_DESC), alignof(D3D12_STREAM_OUTPUT_DESC)},
    [D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_BLEND] = {sizeof(D3D12_BLEND_DESC), alignof(D3D12_BLEND_DESC)},
    [D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_SAMPLE_MASK] = {sizeof(UINT), alignof(UINT)},
    [D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RASTERIZER] = {sizeof(D3D12_RASTERIZER_DESC), alignof(D3D12_RASTERIZER_DESC)},
    [D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL] = {sizeof(D3D12_DEPTH_STENCIL_DESC), alignof(D3D12_DEPTH_STENCIL_DESC)},
    [D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_INPUT_LAYOUT] = {sizeof(D3D12_INPUT_LAYOUT_DESC), alignof(D3D12_INPUT_LAYOUT_DESC)},
    [D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_IB_STRIP_CUT_VALUE] = {sizeof(D3D12_INDEX_BUFFER_STRIP_CUT_VALUE),
            alignof(D3D12_INDEX_BUFFER_STRIP_CUT_VALUE)},
    [D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PRIMITIVE_TOPOLOGY] = {sizeof(D3D12_PRIMITIVE_TOPOLOGY_TYPE), alignof(D3D12_PRIMITIVE_TOPOLOGY_TYPE)},
    [D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RENDER_TARGET_FORMATS] = {sizeof(D3D12_RT_FORMAT_ARRAY), alignof(D3D12_RT_FORMAT_ARRAY)},
    [D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL_FORMAT] = {sizeof(DXGI_FORMAT), alignof(DXGI_FORMAT)},
    [D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_SAMPLE_DESC] = {sizeof(DXGI_SAMPLE_DESC), alignof(DXGI_SAMPLE_DESC)},
    [D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_NODE_MASK] = {sizeof(D3D12_NODE_MASK), alignof(D3D12_NODE_MASK)},
    [D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CACHED_PSO] = {sizeof(D3D12_CACHED_PIPELINE_STATE), alignof(D3D12_CACHED_PIPELINE_STATE)},
    [D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_FLAGS] = {sizeof(D3D12_PIPELINE_STATE_FLAGS), alignof(D3D12_PIPELINE_STATE_FLAGS)},
    [D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL1] = {sizeof(D3D12_DEPTH_STENCIL_DESC1), alignof(D3D12_DEPTH_STENCIL_DESC1)},
    [D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VIEW_INSTANCING] = {sizeof(D3D12_VIEW_INSTANCING_DESC), alignof(D3D12_VIEW_INSTANCING_DESC)},
    [D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_AS] = {sizeof(D3D12_SHADER_BYTECODE), alignof(D3D12_SHADER_BYTECODE)},
    [D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_MS] = {sizeof(D3D12_SHADER_BYTECODE), alignof(D3D12_SHADER_BYTECODE)},
    [D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL2] = {sizeof(D3D12_DEPTH_STENCIL_DESC2), alignof(D3D12_DEPTH_STENCIL_DESC2)},
    [D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RASTERIZER1] = {sizeof(D3D12_RASTERIZER_DESC1), alignof(D3D12_RASTERIZER_DESC1)},
    [D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RASTERIZER2] = {sizeof(D3D12_RASTERIZER_DESC2), alignof(D3D12_RASTERIZER_DESC2)},
};

static size_t align_up(size_t value, size_t alignment)
{
    return (value + alignment - 1) & ~(alignment - 1);
}

/* The subobjects that describe one state in several versions share a slot: one of them at most. */
static unsigned state_slot(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE type)
{
    switch (type) {
    case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL1:
    case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL2:
        return D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL;
    case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RASTERIZER1:
    case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RASTERIZER2:
        return D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RASTERIZER;
    default:
        return type;
    }
}

HRESULT d3d12_pipeline_stream_parse(const D3D12_PIPELINE_STATE_STREAM_DESC *desc, struct d3d12_pipeline_stream *out, const char *method)
{
    const uint8_t *stream = desc->pPipelineStateSubobjectStream;
    uint32_t seen = 0;
    size_t offset = 0;

    memset(out, 0, sizeof(*out));
    d3d12_graphics_desc_defaults(&out->graphics);
    if (!stream || !desc->SizeInBytes)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->%s (the stream must hold subobjects)",
                !stream ? "pPipelineStateSubobjectStream is NULL" : "SizeInBytes is 0");
    if ((uintptr_t)stream % alignof(void *))
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->pPipelineStateSubobjectStream is not aligned as a pointer (subobjects are "
                "alignas(void *))");
    while (offset < desc->SizeInBytes) {
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE type;
        size_t inner, end;
        const void *data;
        unsigned slot;

        if (desc->SizeInBytes - offset < sizeof(type))
            return d3d12xs_fail(E_INVALIDARG, method, "the stream ends %zu bytes into a subobject's type at byte %zu",
                    desc->SizeInBytes - offset, offset);
        memcpy(&type, stream + offset, sizeof(type));
        if ((unsigned)type >= D3D12XS_ARRAY_SIZE(inner_layouts) || !inner_layouts[type].size)
            return d3d12xs_fail(E_INVALIDARG, method, "the stream's subobject at byte %zu has type %u, which is not a "
                    "D3D12_PIPELINE_STATE_SUBOBJECT_TYPE", offset, (unsigned)type);
        inner = align_up(offset + sizeof(type), inner_layouts[type].align);
        end = align_up(inner + inner_layouts[type].size, alignof(void *));
        if (inner + inner_layouts[type].size > desc->SizeInBytes)
            return d3d12xs_fail(E_INVALIDARG, method, "the stream's %s subobject at byte %zu runs past SizeInBytes %zu",
                    subobject_names[type], offset, (size_t)desc->SizeInBytes);
        slot = state_slot(type);
        if (seen & (1u << slot))
            return d3d12xs_fail(E_INVALIDARG, method, "the stream holds a second %s subobject (at byte %zu; each state once)",
                    subobject_names[type], offset);
        seen |= 1u << slot;
        data = stream + inner;
        switch (type) {
        case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_ROOT_SIGNATURE:
            memcpy(&out->graphics.root_signature, data, sizeof(out->graphics.root_signature));
            break;
        case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VS: memcpy(&out->graphics.vs, data, sizeof(out->graphics.vs)); break;
        case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PS: memcpy(&out->graphics.ps, data, sizeof(out->graphics.ps)); break;
        case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DS: memcpy(&out->graphics.ds, data, sizeof(out->graphics.ds)); break;
        case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_HS: memcpy(&out->graphics.hs, data, sizeof(out->graphics.hs)); break;
        case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_GS: memcpy(&out->graphics.gs, data, sizeof(out->graphics.gs)); break;
        case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CS: memcpy(&out->cs, data, sizeof(out->cs)); break;
        case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_STREAM_OUTPUT:
            memcpy(&out->graphics.stream_output, data, sizeof(out->graphics.stream_output));
            break;
        case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_BLEND: memcpy(&out->graphics.blend, data, sizeof(out->graphics.blend)); break;
        case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_SAMPLE_MASK:
            memcpy(&out->graphics.sample_mask, data, sizeof(out->graphics.sample_mask));
            break;
        case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RASTERIZER: {
            D3D12_RASTERIZER_DESC r;
            memcpy(&r, data, sizeof(r));
            const D3D12_RASTERIZER_DESC1 r1 = {r.FillMode, r.CullMode, r.FrontCounterClockwise, (FLOAT)r.DepthBias, r.DepthBiasClamp,
                    r.SlopeScaledDepthBias, r.DepthClipEnable, r.MultisampleEnable, r.AntialiasedLineEnable, r.ForcedSampleCount,
                    r.ConservativeRaster};
            d3d12_rasterizer_desc2_from_desc1(&r1, &out->graphics.rasterizer);
            break;
        }
        case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RASTERIZER1: {
            D3D12_RASTERIZER_DESC1 r1;
            memcpy(&r1, data, sizeof(r1));
            d3d12_rasterizer_desc2_from_desc1(&r1, &out->graphics.rasterizer);
            break;
        }
        case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RASTERIZER2:
            memcpy(&out->graphics.rasterizer, data, sizeof(out->graphics.rasterizer));
            break;
        case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL: {
            D3D12_DEPTH_STENCIL_DESC d;
            memcpy(&d, data, sizeof(d));
            const D3D12_DEPTH_STENCIL_DESC1 d1 = {d.DepthEnable, d.DepthWriteMask, d.DepthFunc, d.StencilEnable, d.StencilReadMask,
                    d.StencilWriteMask, d.FrontFace, d.BackFace, FALSE};
            d3d12_depth_stencil_desc2_from_desc1(&d1, &out->graphics.depth_stencil);
            break;
        }
        case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL1: {
            D3D12_DEPTH_STENCIL_DESC1 d1;
            memcpy(&d1, data, sizeof(d1));
            d3d12_depth_stencil_desc2_from_desc1(&d1, &out->graphics.depth_stencil);
            break;
        }
        case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL2:
            memcpy(&out->graphics.depth_stencil, data, sizeof(out->graphics.depth_stencil));
            break;
        case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_INPUT_LAYOUT:
            memcpy(&out->graphics.input_layout, data, sizeof(out->graphics.input_layout));
            break;
        case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_IB_STRIP_CUT_VALUE:
            memcpy(&out->graphics.strip_cut_value, data, sizeof(out->graphics.strip_cut_value));
            break;
        case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PRIMITIVE_TOPOLOGY:
            memcpy(&out->graphics.topology_type, data, sizeof(out->graphics.topology_type));
            break;
        case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RENDER_TARGET_FORMATS: {
            D3D12_RT_FORMAT_ARRAY formats;
            memcpy(&formats, data, sizeof(formats));
            out->graphics.rt_count = formats.NumRenderTargets;
            memcpy(out->graphics.rtv_formats, formats.RTFormats, sizeof(out->graphics.rtv_formats));
            break;
        }
        case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL_FORMAT:
            memcpy(&out->graphics.dsv_format, data, sizeof(out->graphics.dsv_format));
            break;
        case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_SAMPLE_DESC:
            memcpy(&out->graphics.sample_desc, data, sizeof(out->graphics.sample_desc));
            break;
        case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_NODE_MASK:
            memcpy(&out->graphics.node_mask, data, sizeof(out->graphics.node_mask));
            break;
        case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CACHED_PSO:
            memcpy(&out->graphics.cached_pso, data, sizeof(out->graphics.cached_pso));
            break;
        case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_FLAGS: memcpy(&out->graphics.flags, data, sizeof(out->graphics.flags)); break;
        case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VIEW_INSTANCING:
            memcpy(&out->graphics.view_instancing, data, sizeof(out->graphics.view_instancing));
            break;
        case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_AS:
        case D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_MS:
            return d3d12xs_fail(E_INVALIDARG, method, "the stream holds an %s subobject: mesh and amplification shaders are not "
                    "supported (MeshShaderTier is NOT_SUPPORTED)", subobject_names[type]);
        default:
            return d3d12xs_fail(E_INVALIDARG, method, "the stream's subobject at byte %zu has type %u, which is not a "
                    "D3D12_PIPELINE_STATE_SUBOBJECT_TYPE", offset, (unsigned)type);
        }
        offset = end;
    }
    out->has_cs = seen & (1u << D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CS);
    out->has_graphics_stage = seen & (1u << D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VS | 1u << D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PS
            | 1u << D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DS | 1u << D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_HS
            | 1u << D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_GS);
    return S_OK;
}

HRESULT d3d12_pipeline_state_create_from_stream(struct d3d12_device *device, const D3D12_PIPELINE_STATE_STREAM_DESC *desc, REFIID riid,
        void **out)
{
    struct d3d12_pipeline_stream stream;
    HRESULT hr;

    if (out)
        *out = NULL;
    if (!desc)
        return d3d12xs_fail(E_INVALIDARG, METHOD, "pDesc is NULL (must describe the pipeline state stream)");
    if (FAILED(hr = d3d12_pipeline_stream_parse(desc, &stream, METHOD)))
        return hr;
    if (stream.has_cs && stream.has_graphics_stage)
        return d3d12xs_fail(E_INVALIDARG, METHOD, "the stream holds a CS and graphics shaders (a pipeline is one or the other)");
    if (stream.has_cs) {
        /* The graphics state a compute stream may also hold (blend, rasterizer...) is ignored, as D3D12 does. */
        const D3D12_COMPUTE_PIPELINE_STATE_DESC compute = {stream.graphics.root_signature, stream.cs, stream.graphics.node_mask,
                stream.graphics.cached_pso, stream.graphics.flags};
        return d3d12_pipeline_state_create(device, &compute, NULL, METHOD, riid, out);
    }
    return d3d12_graphics_pipeline_create(device, &stream.graphics, METHOD, riid, out);
}
