/* Root arguments in graphics stages under both ABIs: root constants, a root CBV and a root SRV
 * (structured and raw) read by the vertex and the pixel shader, with push constants and push
 * descriptors and with the console's memory-based ABI (FORCE_MEMORY_BASED_ABI: the arguments
 * through a buffer the draw writes, the views through their addresses); and the root SRV at
 * 4-byte offsets off the device's alignment under both. Values are checked on the render
 * target. */
#include <stdio.h>
#include <string.h>

#include "harness.h"

#define WIDTH 8
#define HEIGHT 8

/* One triangle over the whole target from SV_VertexID; the vertex shader reads all three root
 * parameters into the colour, the pixel shader all three again. */
static const char structured_source[] =
    "cbuffer Root : register(b0) { float2 offset; float scale; float pad; };\n"
    "cbuffer Tint : register(b1) { float4 tint; };\n"
    "StructuredBuffer<float4> data : register(t0);\n"
    "struct V { float4 pos : SV_Position; float4 color : COLOR; };\n"
    "V vs(uint id : SV_VertexID) {\n"
    "    V o;\n"
    "    float2 p = float2((id << 1) & 2, id & 2);\n"
    "    o.pos = float4(p * float2(2, -2) + float2(-1, 1) + offset + data[0].xy, 0, 1);\n"
    "    o.color = tint * data[1];\n"
    "    return o;\n"
    "}\n"
    "float4 ps(V i) : SV_Target { return i.color * scale + data[2] * tint.w; }\n";

/* The same through a ByteAddressBuffer (raw view). */
static const char raw_source[] =
    "cbuffer Root : register(b0) { float2 offset; float scale; float pad; };\n"
    "cbuffer Tint : register(b1) { float4 tint; };\n"
    "ByteAddressBuffer data : register(t0);\n"
    "struct V { float4 pos : SV_Position; float4 color : COLOR; };\n"
    "V vs(uint id : SV_VertexID) {\n"
    "    V o;\n"
    "    float2 p = float2((id << 1) & 2, id & 2);\n"
    "    o.pos = float4(p * float2(2, -2) + float2(-1, 1) + offset + asfloat(data.Load2(0)), 0, 1);\n"
    "    o.color = tint * asfloat(data.Load4(16));\n"
    "    return o;\n"
    "}\n"
    "float4 ps(V i) : SV_Target { return i.color * scale + asfloat(data.Load4(32)) * tint.w; }\n";

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12Resource *target, *readback, *cb, *data;
    ID3D12DescriptorHeap *rtv_heap;
    D3D12_CPU_DESCRIPTOR_HANDLE rtv;
};

static void setup(struct env *env)
{
    D3D12_HEAP_PROPERTIES heap = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    D3D12_RESOURCE_DESC desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8G8B8A8_UNORM, WIDTH, HEIGHT, 1, 1);
    const D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    static const float tint[64] = {1.0f, 1.0f, 1.0f, 1.0f};

    env->device = harness_create_device();
    env->queue = harness_create_queue(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    CHECK_HR(ID3D12Device_CreateCommittedResource(env->device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_RENDER_TARGET, NULL,
            &IID_ID3D12Resource, (void **)&env->target), S_OK);
    env->readback = harness_create_buffer(env->device, D3D12_HEAP_TYPE_READBACK, 256 * HEIGHT, D3D12_RESOURCE_STATE_COPY_DEST);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&env->rtv_heap), S_OK);
    env->rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(env->rtv_heap);
    ID3D12Device_CreateRenderTargetView(env->device, env->target, NULL, env->rtv);
    env->cb = harness_upload_buffer(env->device, tint, sizeof(tint));
    env->data = NULL;
}

static void teardown(struct env *env)
{
    if (env->data)
        ID3D12Resource_Release(env->data);
    ID3D12Resource_Release(env->cb);
    ID3D12DescriptorHeap_Release(env->rtv_heap);
    ID3D12Resource_Release(env->readback);
    ID3D12Resource_Release(env->target);
    ID3D12CommandQueue_Release(env->queue);
    harness_release_device(env->device);
}

/* The data the shaders read, at byte `offset` of a new upload buffer: data[0] (0, 0, 0, 0),
 * data[1] (1, 0.5, 0.25, 1), data[2] (0, 0, 0.5, 0). */
static void write_data(struct env *env, unsigned offset)
{
    static const float values[12] = {0, 0, 0, 0, 1.0f, 0.5f, 0.25f, 1.0f, 0, 0, 0.5f, 0};
    uint8_t bytes[256];

    memset(bytes, 0xff, sizeof(bytes)); /* NaNs around it: a read off the view shows */
    memcpy(bytes + offset, values, sizeof(values));
    if (env->data)
        ID3D12Resource_Release(env->data);
    env->data = harness_upload_buffer(env->device, bytes, sizeof(bytes));
}

static ID3D12RootSignature *root_signature(struct env *env, D3D12_ROOT_SIGNATURE_FLAGS flags)
{
    D3D12_ROOT_PARAMETER1 parameters[3];

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 4;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_CBV;
    parameters[1].Descriptor.ShaderRegister = 1;
    parameters[2].ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV;
    return harness_root_signature(env->device, parameters, 3, flags);
}

static ID3D12PipelineState *pipeline(struct env *env, ID3D12RootSignature *signature, const char *source)
{
    ID3D10Blob *vs = harness_compile_stage(source, "vs", "vs_5_0"), *ps = harness_compile_stage(source, "ps", "ps_5_0");
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *state = NULL;

    harness_graphics_desc(&desc, signature, vs, ps);
    desc.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    desc.DepthStencilState.DepthEnable = FALSE;
    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&state), S_OK);
    if (vs)
        ID3D10Blob_Release(vs);
    if (ps)
        ID3D10Blob_Release(ps);
    return state;
}

/* Draws with the root SRV at byte `offset` of the data buffer and returns the centre pixel. */
static void draw(struct env *env, ID3D12RootSignature *signature, ID3D12PipelineState *state, unsigned offset, uint8_t pixel[4])
{
    static const float clear[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    static const float constants[4] = {0.0f, 0.0f, 0.5f, 0.0f};
    const D3D12_VIEWPORT viewport = {0.0f, 0.0f, WIDTH, HEIGHT, 0.0f, 1.0f};
    const D3D12_RECT scissor = {0, 0, WIDTH, HEIGHT};
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    D3D12_TEXTURE_COPY_LOCATION dst, src;
    D3D12_RESOURCE_BARRIER barrier;
    void *mapped = NULL;

    write_data(env, offset);
    /* a list that fails leaves no earlier draw's pixel behind */
    CHECK_HR(ID3D12Resource_Map(env->readback, 0, NULL, &mapped), S_OK);
    if (mapped)
        memset(mapped, 0, 256 * HEIGHT);
    ID3D12Resource_Unmap(env->readback, 0, NULL);
    mapped = NULL;
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, env->rtv, clear, 0, NULL);
    ID3D12GraphicsCommandList2_OMSetRenderTargets(list.list, 1, &env->rtv, TRUE, NULL);
    ID3D12GraphicsCommandList2_RSSetViewports(list.list, 1, &viewport);
    ID3D12GraphicsCommandList2_RSSetScissorRects(list.list, 1, &scissor);
    ID3D12GraphicsCommandList2_IASetPrimitiveTopology(list.list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_SetGraphicsRoot32BitConstants(list.list, 0, 4, constants, 0);
    ID3D12GraphicsCommandList2_SetGraphicsRootConstantBufferView(list.list, 1, ID3D12Resource_GetGPUVirtualAddress(env->cb));
    ID3D12GraphicsCommandList2_SetGraphicsRootShaderResourceView(list.list, 2, ID3D12Resource_GetGPUVirtualAddress(env->data) + offset);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 3, 1, 0, 0);

    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    barrier.Transition.pResource = env->target;
    barrier.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    barrier.Transition.StateBefore = D3D12_RESOURCE_STATE_RENDER_TARGET;
    barrier.Transition.StateAfter = D3D12_RESOURCE_STATE_COPY_SOURCE;
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    memset(&dst, 0, sizeof(dst));
    dst.pResource = env->readback;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    dst.PlacedFootprint.Footprint = (D3D12_SUBRESOURCE_FOOTPRINT){DXGI_FORMAT_R8G8B8A8_UNORM, WIDTH, HEIGHT, 1, 256};
    memset(&src, 0, sizeof(src));
    src.pResource = env->target;
    src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    ID3D12GraphicsCommandList2_CopyTextureRegion(list.list, &dst, 0, 0, 0, &src, NULL);
    barrier.Transition.StateBefore = D3D12_RESOURCE_STATE_COPY_SOURCE;
    barrier.Transition.StateAfter = D3D12_RESOURCE_STATE_RENDER_TARGET;
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    CHECK_HR(ID3D12Resource_Map(env->readback, 0, NULL, &mapped), S_OK);
    if (mapped)
        memcpy(pixel, (uint8_t *)mapped + 256 * (HEIGHT / 2) + 4 * (WIDTH / 2), 4);
    ID3D12Resource_Unmap(env->readback, 0, NULL);
}

static bool near(int a, int b)
{
    return a - b <= 2 && b - a <= 2;
}

/* colour = tint * data[1] * scale + data[2] * tint.w = (0.5, 0.25, 0.125 + 0.5, 0.5) */
static void check_abi(struct env *env, const char *name, D3D12_ROOT_SIGNATURE_FLAGS flags, const char *source, const unsigned *offsets,
        unsigned offset_count)
{
    ID3D12RootSignature *signature = root_signature(env, flags);
    ID3D12PipelineState *state = signature ? pipeline(env, signature, source) : NULL;
    uint8_t pixel[4];

    if (!state) {
        CHECK_MSG(false, "%s: no pipeline", name);
        if (signature)
            ID3D12RootSignature_Release(signature);
        return;
    }
    for (unsigned i = 0; i < offset_count; i++) {
        draw(env, signature, state, offsets[i], pixel);
        CHECK_MSG(near(pixel[0], 128) && near(pixel[1], 64) && near(pixel[2], 159) && near(pixel[3], 128),
                "%s, root SRV at byte %u: the centre pixel is %u %u %u %u (128 64 159 128)", name, offsets[i], pixel[0], pixel[1], pixel[2],
                pixel[3]);
    }
    ID3D12PipelineState_Release(state);
    ID3D12RootSignature_Release(signature);
}

int main(void)
{
    static const unsigned aligned[] = {0, 64};
    static const unsigned unaligned[] = {4, 8, 12, 20, 36};
    struct env env;

    harness_init();
    setup(&env);
    check_abi(&env, "structured, push ABI", 0, structured_source, aligned, 2);
    check_abi(&env, "structured, memory ABI", D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI, structured_source, aligned, 2);
    check_abi(&env, "raw, push ABI", 0, raw_source, aligned, 2);
    check_abi(&env, "raw, memory ABI", D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI, raw_source, aligned, 2);
    check_abi(&env, "structured off alignment, memory ABI", D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI, structured_source, unaligned, 5);
    check_abi(&env, "raw off alignment, memory ABI", D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI, raw_source, unaligned, 5);
    /* push descriptors start at the device's alignment and the shaders add the view's offset
     * (a structured buffer of float4s can only be whole elements off: 16 bytes, aligned here) */
    check_abi(&env, "raw off alignment, push ABI", 0, raw_source, unaligned, 5);
    teardown(&env);
    return harness_finish();
}
