/* What the resolve tests (test_resolve, test_resolve_typeless) share: a 4x source drawn with
 * known per-sample values and resolved twice, whole and a moved region, with every texel of the
 * destination checked; and a resolve that must fail Close. */
#ifndef D3D12XS_TESTS_RESOLVE_CASES_H
#define D3D12XS_TESTS_RESOLVE_CASES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "small_target.h"

/* Little-endian bytes of 16-bit values. */
#define LE16(v) (uint8_t)((uint16_t)(v) & 0xff), (uint8_t)((uint16_t)(v) >> 8)
#define LE32(v) (uint8_t)((uint32_t)(v) & 0xff), (uint8_t)(((uint32_t)(v) >> 8) & 0xff), (uint8_t)(((uint32_t)(v) >> 16) & 0xff), \
        (uint8_t)((uint32_t)(v) >> 24)

/* A full-screen triangle whose pixel shader returns `base + step * SV_SampleIndex` (of `type`,
 * float4 or int4 or uint4), so each of a 4x target's samples holds a known value. */
static inline ID3D12PipelineState *sample_pipeline(ID3D12Device *device, ID3D12RootSignature *signature, DXGI_FORMAT format, const char *type, const char *base, const char *step)
{
    static const char vs_source[] =
        "float4 vs(uint id : SV_VertexID) : SV_Position\n"
        "{ float2 p = float2((id << 1) & 2, id & 2); return float4(p * float2(2, -2) + float2(-1, 1), 0.5, 1); }\n";
    char ps_source[512];
    ID3D10Blob *vs, *ps;
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *state = NULL;

    snprintf(ps_source, sizeof(ps_source), "%s ps(float4 pos : SV_Position, uint s : SV_SampleIndex) : SV_Target\n"
            "{ return %s(%s) + %s(%s) * (%s)s; }\n", type, type, base, type, step, type);
    vs = harness_compile_stage(vs_source, "vs", "vs_5_0");
    ps = harness_compile_stage(ps_source, "ps", "ps_5_0");
    harness_graphics_desc(&desc, signature, vs, ps);
    desc.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    desc.DepthStencilState.DepthEnable = FALSE;
    desc.NumRenderTargets = 1;
    desc.RTVFormats[0] = format;
    desc.SampleDesc.Count = 4;
    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(device, &desc, &IID_ID3D12PipelineState, (void **)&state), S_OK);
    if (vs)
        ID3D10Blob_Release(vs);
    if (ps)
        ID3D10Blob_Release(ps);
    return state;
}

/* Two resolves of a 4x source drawn with known per-sample values: the whole of it into a
 * single-sampled texture that is no render target, then its (3, 5)-(10, 9) to (21, 2). */
struct resolve_case {
    const char *what;
    DXGI_FORMAT source, view, destination, format; /* the source drawn through a view of `view`; resolved as `format` */
    unsigned texel_bytes;
    const char *type, *base, *step;   /* sample s holds base + step * s */
    D3D12_RESOLVE_MODE whole_mode, region_mode; /* whole AVERAGE: ResolveSubresource */
    uint8_t whole[16], region[16];    /* the expected texels, as bytes */
    int tolerance;                    /* per byte */
};

/* Records the case's resolves, reads the destination back and checks every texel: `region` in
 * the moved region, `whole` elsewhere. */
static inline void check_resolves(ID3D12Device *device, ID3D12CommandQueue *queue, ID3D12RootSignature *signature,
        const struct resolve_case *c)
{
    const UINT pitch = WIDTH * c->texel_bytes < ROW_PITCH ? ROW_PITCH : WIDTH * c->texel_bytes;
    ID3D12Resource *msaa = target_texture(device, 4, c->source, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET, D3D12_RESOURCE_STATE_RENDER_TARGET);
    ID3D12Resource *dst = target_texture(device, 1, c->destination, D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_RESOLVE_DEST);
    ID3D12Resource *readback = harness_create_buffer(device, D3D12_HEAP_TYPE_READBACK, pitch * HEIGHT, D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12PipelineState *state = sample_pipeline(device, signature, c->view, c->type, c->base, c->step);
    D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    const D3D12_VIEWPORT viewport = {0.0f, 0.0f, WIDTH, HEIGHT, 0.0f, 1.0f};
    const D3D12_RECT scissor = {0, 0, WIDTH, HEIGHT}, region = {3, 5, 10, 9};
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    D3D12_RENDER_TARGET_VIEW_DESC rtv_desc;
    D3D12_TEXTURE_COPY_LOCATION copy_dst, copy_src;
    ID3D12DescriptorHeap *heap = NULL;
    D3D12_CPU_DESCRIPTOR_HANDLE rtv;
    unsigned wrong = 0;
    uint8_t *mapped = NULL;
    LOG_MARK();

    CHECK_HR(ID3D12Device_CreateDescriptorHeap(device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&heap), S_OK);
    rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap);
    memset(&rtv_desc, 0, sizeof(rtv_desc));
    rtv_desc.Format = c->view;
    rtv_desc.ViewDimension = D3D12_RTV_DIMENSION_TEXTURE2DMS;
    ID3D12Device_CreateRenderTargetView(device, msaa, &rtv_desc, rtv);
    ID3D12GraphicsCommandList2_OMSetRenderTargets(list.list, 1, &rtv, TRUE, NULL);
    ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_RSSetViewports(list.list, 1, &viewport);
    ID3D12GraphicsCommandList2_RSSetScissorRects(list.list, 1, &scissor);
    ID3D12GraphicsCommandList2_IASetPrimitiveTopology(list.list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 3, 1, 0, 0);
    target_transition(list.list, msaa, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_RESOLVE_SOURCE);
    if (c->whole_mode == D3D12_RESOLVE_MODE_AVERAGE)
        ID3D12GraphicsCommandList2_ResolveSubresource(list.list, dst, 0, msaa, 0, c->format);
    else
        ID3D12GraphicsCommandList2_ResolveSubresourceRegion((ID3D12GraphicsCommandList1 *)list.list, dst, 0, 0, 0, msaa, 0, NULL, c->format,
                c->whole_mode);
    ID3D12GraphicsCommandList2_ResolveSubresourceRegion((ID3D12GraphicsCommandList1 *)list.list, dst, 0, 21, 2, msaa, 0,
            (D3D12_RECT *)&region, c->format, c->region_mode);
    target_transition(list.list, dst, D3D12_RESOURCE_STATE_RESOLVE_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
    memset(&copy_dst, 0, sizeof(copy_dst));
    copy_dst.pResource = readback;
    copy_dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    copy_dst.PlacedFootprint.Footprint = (D3D12_SUBRESOURCE_FOOTPRINT){c->destination, WIDTH, HEIGHT, 1, pitch};
    memset(&copy_src, 0, sizeof(copy_src));
    copy_src.pResource = dst;
    copy_src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    ID3D12GraphicsCommandList2_CopyTextureRegion(list.list, &copy_dst, 0, 0, 0, &copy_src, NULL);
    harness_execute_and_wait(device, queue, &list);
    harness_release_list(&list);

    CHECK_HR(ID3D12Resource_Map(readback, 0, NULL, (void **)&mapped), S_OK);
    for (int y = 0; mapped && y < HEIGHT; y++) {
        for (int x = 0; x < WIDTH; x++) {
            bool in_region = x >= 21 && x < 28 && y >= 2 && y < 6;
            const uint8_t *expected = in_region ? c->region : c->whole, *texel = mapped + y * pitch + x * c->texel_bytes;
            bool same = true;
            for (unsigned b = 0; b < c->texel_bytes; b++)
                same &= abs((int)texel[b] - (int)expected[b]) <= c->tolerance;
            if (!same && wrong++ < 3) {
                char got[64] = "", want[64] = "";
                for (unsigned b = 0; b < c->texel_bytes; b++) {
                    snprintf(got + strlen(got), sizeof(got) - strlen(got), "%02x", texel[b]);
                    snprintf(want + strlen(want), sizeof(want) - strlen(want), "%02x", expected[b]);
                }
                CHECK_MSG(false, "%s: %s at (%d, %d): %s, expected %s", c->what, in_region ? "region" : "whole", x, y, got, want);
            }
        }
    }
    ID3D12Resource_Unmap(readback, 0, NULL);
    CHECK_MSG(!wrong, "%s: %u texels wrong", c->what, wrong);
    CHECK_NO_LOG();
    ID3D12DescriptorHeap_Release(heap);
    ID3D12PipelineState_Release(state);
    ID3D12Resource_Release(readback);
    ID3D12Resource_Release(dst);
    ID3D12Resource_Release(msaa);
}

/* One list with one resolve that fails Close with hr, its line holding needle. */
static inline void check_refused(ID3D12Device *device, ID3D12Resource *dst, ID3D12Resource *src, DXGI_FORMAT format, D3D12_RESOLVE_MODE mode, bool region,
        HRESULT hr, const char *needle)
{
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    LOG_MARK();

    if (region)
        ID3D12GraphicsCommandList2_ResolveSubresourceRegion((ID3D12GraphicsCommandList1 *)list.list, dst, 0, 0, 0, src, 0, NULL, format, mode);
    else
        ID3D12GraphicsCommandList2_ResolveSubresource(list.list, dst, 0, src, 0, format);
    CHECK_LOG("Resolve", needle);
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), hr);
    CHECK_LOG("Close", needle);
    harness_release_list(&list);
}

#endif
