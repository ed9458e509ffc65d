/* shader_runner: what a graphics test draws with: its pipelines, its render targets' and depth
 * buffer's views, and the state and draws it records on a DIRECT list. */
#include "shader_runner.h"

static D3D12_SHADER_BYTECODE bytecode(const struct test *t, int shader)
{
    D3D12_SHADER_BYTECODE code = {NULL, 0};
    if (shader >= 0 && t->shaders[shader].code) {
        code.pShaderBytecode = ID3D10Blob_GetBufferPointer(t->shaders[shader].code);
        code.BytecodeLength = ID3D10Blob_GetBufferSize(t->shaders[shader].code);
    }
    return code;
}

/* One CreateGraphicsPipelineState per [pipeline]; with [fail pipeline], the last one must fail. */
bool create_graphics_pipelines(struct runner *r, struct test *t, ID3D12RootSignature *signature)
{
    struct graphics_def *g = &t->graphics;
    for (unsigned i = 0; i < g->pipeline_count; i++) {
        struct pipeline_def *p = &g->pipelines[i];
        D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
        HRESULT hr;
        LOG_MARK();
        memset(&desc, 0, sizeof(desc));
        desc.pRootSignature = signature;
        desc.VS = bytecode(t, p->shaders[STAGE_VERTEX]);
        desc.HS = bytecode(t, p->shaders[STAGE_HULL]);
        desc.DS = bytecode(t, p->shaders[STAGE_DOMAIN]);
        desc.GS = bytecode(t, p->shaders[STAGE_GEOMETRY]);
        desc.PS = bytecode(t, p->shaders[STAGE_PIXEL]);
        desc.BlendState = p->blend;
        desc.SampleMask = p->sample_mask;
        desc.RasterizerState = p->rasterizer;
        desc.DepthStencilState = p->depth_stencil;
        desc.InputLayout.pInputElementDescs = g->element_count ? g->elements : NULL;
        desc.InputLayout.NumElements = g->element_count;
        desc.PrimitiveTopologyType = p->topology;
        for (unsigned rt = 0; rt < MAX_RENDER_TARGETS; rt++)
            if (g->render_targets[rt] >= 0) {
                desc.RTVFormats[rt] = t->textures[g->render_targets[rt]].format->format;
                desc.NumRenderTargets = rt + 1;
            }
        if (g->depth_stencil >= 0)
            desc.DSVFormat = t->textures[g->depth_stencil].format->format;
        /* The targets' sample count (they all have the same one, as D3D12 wants). */
        desc.SampleDesc.Count = 1;
        for (unsigned rt = 0; rt < MAX_RENDER_TARGETS; rt++)
            if (g->render_targets[rt] >= 0 && t->textures[g->render_targets[rt]].samples > 1)
                desc.SampleDesc.Count = t->textures[g->render_targets[rt]].samples;
        if (g->depth_stencil >= 0 && t->textures[g->depth_stencil].samples > 1)
            desc.SampleDesc.Count = t->textures[g->depth_stencil].samples;
        hr = ID3D12Device_CreateGraphicsPipelineState(r->device, &desc, &IID_ID3D12PipelineState, (void **)&p->state);
        if (t->fail == FAIL_PIPELINE && i == g->pipeline_count - 1) {
            if (t->fail_has_hr && hr != t->fail_hr)
                FAIL_AT(t->fail_line, "CreateGraphicsPipelineState returned 0x%08x, expected 0x%08x", (unsigned)hr, (unsigned)t->fail_hr);
            if (SUCCEEDED(hr))
                FAIL_AT(t->fail_line, "CreateGraphicsPipelineState succeeded; the test expects it to fail");
            harness_check_log(log_mark_, current_file, t->fail_line, t->fail_needle_count > 0 ? t->fail_needles[0] : "",
                    t->fail_needle_count > 1 ? t->fail_needles[1] : "", t->fail_needle_count > 2 ? t->fail_needles[2] : "",
                    t->fail_needle_count > 3 ? t->fail_needles[3] : "", (const char *)NULL);
            return false;
        }
        if (FAILED(hr)) {
            FAIL_AT(p->line, "CreateGraphicsPipelineState(%s) returned 0x%08x", *p->name ? p->name : "the default pipeline", (unsigned)hr);
            return false;
        }
    }
    return true;
}

static bool has_stencil(DXGI_FORMAT format)
{
    return format == DXGI_FORMAT_D24_UNORM_S8_UINT || format == DXGI_FORMAT_D32_FLOAT_S8X24_UINT;
}

/* The RTV and DSV heaps of the test's targets. */
bool create_target_views(struct runner *r, struct test *t, struct target_views *views)
{
    struct graphics_def *g = &t->graphics;
    D3D12_DESCRIPTOR_HEAP_DESC desc;
    memset(views, 0, sizeof(*views));
    memset(&desc, 0, sizeof(desc));
    desc.Type = D3D12_DESCRIPTOR_HEAP_TYPE_RTV;
    desc.NumDescriptors = MAX_RENDER_TARGETS;
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(r->device, &desc, &IID_ID3D12DescriptorHeap, (void **)&views->rtv_heap), S_OK);
    desc.Type = D3D12_DESCRIPTOR_HEAP_TYPE_DSV;
    desc.NumDescriptors = 1;
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(r->device, &desc, &IID_ID3D12DescriptorHeap, (void **)&views->dsv_heap), S_OK);
    if (!views->rtv_heap || !views->dsv_heap)
        return false;
    D3D12_CPU_DESCRIPTOR_HANDLE rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(views->rtv_heap);
    UINT increment = ID3D12Device_GetDescriptorHandleIncrementSize(r->device, D3D12_DESCRIPTOR_HEAP_TYPE_RTV);
    for (unsigned i = 0; i < MAX_RENDER_TARGETS; i++) {
        views->rtvs[i] = rtv;
        views->rtvs[i].ptr += i * increment;
        if (g->render_targets[i] >= 0) {
            ID3D12Device_CreateRenderTargetView(r->device, t->textures[g->render_targets[i]].resource, NULL, views->rtvs[i]);
            views->rtv_count = i + 1;
        }
    }
    views->dsv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(views->dsv_heap);
    if (g->depth_stencil >= 0)
        ID3D12Device_CreateDepthStencilView(r->device, t->textures[g->depth_stencil].resource, NULL, views->dsv);
    return true;
}

void release_target_views(struct target_views *views)
{
    if (views->rtv_heap)
        ID3D12DescriptorHeap_Release(views->rtv_heap);
    if (views->dsv_heap)
        ID3D12DescriptorHeap_Release(views->dsv_heap);
}

static void clear_depth_stencil(ID3D12GraphicsCommandList2 *list, const struct test *t, const struct target_views *views, float depth,
        UINT8 stencil)
{
    D3D12_CLEAR_FLAGS flags = D3D12_CLEAR_FLAG_DEPTH;
    if (has_stencil(t->textures[t->graphics.depth_stencil].format->format))
        flags |= D3D12_CLEAR_FLAG_STENCIL;
    ID3D12GraphicsCommandList2_ClearDepthStencilView(list, views->dsv, flags, depth, stencil, 0, NULL);
}

/* Before the [run] commands: the targets cleared and bound, a viewport and scissor of the first
 * target's size, the vertex and index buffers and the first pipeline. */
void record_graphics_setup(struct test *t, ID3D12GraphicsCommandList2 *list, const struct target_views *views)
{
    struct graphics_def *g = &t->graphics;
    const struct texture_def *first = NULL;
    D3D12_VERTEX_BUFFER_VIEW vbvs[MAX_VERTEX_SLOTS];
    D3D12_VIEWPORT viewport;
    D3D12_RECT scissor;
    unsigned slots = 0;

    for (unsigned i = 0; i < MAX_RENDER_TARGETS; i++)
        if (g->render_targets[i] >= 0) {
            ID3D12GraphicsCommandList2_ClearRenderTargetView(list, views->rtvs[i], g->clear_colours[i], 0, NULL);
            if (!first)
                first = &t->textures[g->render_targets[i]];
        }
    if (g->depth_stencil >= 0) {
        clear_depth_stencil(list, t, views, g->clear_depth, g->clear_stencil);
        if (!first)
            first = &t->textures[g->depth_stencil];
    }
    ID3D12GraphicsCommandList2_OMSetRenderTargets(list, views->rtv_count, views->rtvs, FALSE, g->depth_stencil >= 0 ? &views->dsv : NULL);
    viewport.TopLeftX = viewport.TopLeftY = 0.0f;
    viewport.Width = first ? (float)first->width : (float)DEFAULT_TARGET_SIZE;
    viewport.Height = first ? (float)first->height : (float)DEFAULT_TARGET_SIZE;
    viewport.MinDepth = 0.0f;
    viewport.MaxDepth = 1.0f;
    ID3D12GraphicsCommandList2_RSSetViewports(list, 1, &viewport);
    scissor.left = scissor.top = 0;
    scissor.right = (LONG)viewport.Width;
    scissor.bottom = (LONG)viewport.Height;
    ID3D12GraphicsCommandList2_RSSetScissorRects(list, 1, &scissor);
    memset(vbvs, 0, sizeof(vbvs));
    for (unsigned i = 0; i < MAX_VERTEX_SLOTS; i++)
        if (g->vertex_buffers[i] >= 0) {
            const struct buffer_def *b = &t->buffers[g->vertex_buffers[i]];
            vbvs[i].BufferLocation = ID3D12Resource_GetGPUVirtualAddress(b->resource);
            vbvs[i].SizeInBytes = (UINT)b->size;
            vbvs[i].StrideInBytes = g->vertex_strides[i];
            slots = i + 1;
        }
    if (slots)
        ID3D12GraphicsCommandList2_IASetVertexBuffers(list, 0, slots, vbvs);
    if (g->index_buffer >= 0) {
        D3D12_INDEX_BUFFER_VIEW ibv;
        const struct buffer_def *b = &t->buffers[g->index_buffer];
        ibv.BufferLocation = ID3D12Resource_GetGPUVirtualAddress(b->resource);
        ibv.SizeInBytes = (UINT)b->size;
        ibv.Format = g->index_format;
        ID3D12GraphicsCommandList2_IASetIndexBuffer(list, &ibv);
    }
    ID3D12GraphicsCommandList2_SetPipelineState(list, g->pipelines[0].state);
}

/* A [run] command of a graphics test's that is not a compute one. */
void record_graphics_step(struct test *t, ID3D12GraphicsCommandList2 *list, const struct target_views *views, const struct step *s)
{
    switch (s->type) {
    case STEP_GRAPHICS_PIPELINE:
        ID3D12GraphicsCommandList2_SetPipelineState(list, t->graphics.pipelines[s->param].state);
        break;
    case STEP_DRAW:
        ID3D12GraphicsCommandList2_IASetPrimitiveTopology(list, s->topology);
        ID3D12GraphicsCommandList2_DrawInstanced(list, s->counts[0], s->counts[1], s->counts[2], s->counts[3]);
        break;
    case STEP_DRAW_INDEXED:
        ID3D12GraphicsCommandList2_IASetPrimitiveTopology(list, s->topology);
        ID3D12GraphicsCommandList2_DrawIndexedInstanced(list, s->counts[0], s->counts[1], s->counts[2], s->base_vertex, s->counts[3]);
        break;
    case STEP_VIEWPORT: {
        D3D12_VIEWPORT viewport = {s->floats[0], s->floats[1], s->floats[2], s->floats[3], s->floats[4], s->floats[5]};
        ID3D12GraphicsCommandList2_RSSetViewports(list, 1, &viewport);
        break;
    }
    case STEP_SCISSOR: {
        D3D12_RECT rect = {(LONG)s->counts[0], (LONG)s->counts[1], (LONG)s->counts[2], (LONG)s->counts[3]};
        ID3D12GraphicsCommandList2_RSSetScissorRects(list, 1, &rect);
        break;
    }
    case STEP_BLEND_FACTOR:
        ID3D12GraphicsCommandList2_OMSetBlendFactor(list, s->floats);
        break;
    case STEP_STENCIL_REF:
        ID3D12GraphicsCommandList2_OMSetStencilRef(list, s->counts[0]);
        break;
    case STEP_CLEAR_RT:
        ID3D12GraphicsCommandList2_ClearRenderTargetView(list, views->rtvs[s->param], s->floats, 0, NULL);
        break;
    case STEP_CLEAR_DS:
        if (t->graphics.depth_stencil < 0)
            FAIL_AT(s->line, "'clear_ds' without a [depth_stencil]");
        else
            clear_depth_stencil(list, t, views, s->floats[0], (UINT8)s->floats[1]);
        break;
    default:
        break;
    }
}
