/* ID3D12PipelineState::GetCachedBlob and the CachedPSO of a description (docs/graphics.md,
 * "Cached pipelines"): a compute and a graphics pipeline made from their blobs (with no live
 * pipeline of the description left) compute and draw what the ones made from HLSL do, and the
 * pipeline state stream's CACHED_PSO subobject takes a blob too. Windows' answers for blobs that
 * do not fit: another adapter (D3D12_ERROR_ADAPTER_NOT_FOUND), another driver or d3d12xs
 * version (D3D12_ERROR_DRIVER_VERSION_MISMATCH), another description, a damaged or foreign blob
 * (E_INVALIDARG), each with its one line; the answer is the same while a live pipeline of the
 * description exists. A payload rehashed after a binding was changed to a root parameter the
 * signature lacks is refused too (E_INVALIDARG) when the blob is read, i.e. with no live pipeline. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <d3dcompiler.h>
#include <d3d12_xs.h>

#include "harness.h"
#include "common/hash.h"
#include "pipelines/pipeline_blob.h"

#define THREADS 64
#define SIZE 8

static const char compute_source[] =
    "cbuffer Root : register(b0) { uint scale; };\n"
    "RWByteAddressBuffer output : register(u0);\n"
    "[numthreads(64, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, id.x * scale + 1); }\n";
static const char other_compute_source[] =
    "cbuffer Root : register(b0) { uint scale; };\n"
    "RWByteAddressBuffer output : register(u0);\n"
    "[numthreads(64, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, id.x * scale + 2); }\n";
static const char graphics_source[] =
    "cbuffer Root : register(b0) { float4 color; };\n"
    "float4 vs(float2 pos : POSITION) : SV_Position { return float4(pos, 0.5, 1); }\n"
    "float4 ps() : SV_Target { return color; }\n";

static const D3D12_INPUT_ELEMENT_DESC vertex_layout[] = {
    {"POSITION", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
};

/* Bytes a CachedPSO points at. */
struct bytes {
    void *data;
    size_t size;
};

static struct bytes bytes_of(ID3D10Blob *blob)
{
    return (struct bytes){ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob)};
}

static D3D12XS_PIPELINE_STATISTICS statistics_of(ID3D12Device *device)
{
    D3D12XS_PIPELINE_STATISTICS statistics;
    memset(&statistics, 0, sizeof(statistics));
    CHECK_HR(D3D12XSGetPipelineStatistics(device, &statistics), S_OK);
    return statistics;
}

/* Four root constants at b0 and a root UAV u0, visible to all stages. */
static ID3D12RootSignature *create_root_signature(ID3D12Device *device)
{
    D3D12_ROOT_PARAMETER1 parameters[2];
    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 4;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    return harness_root_signature(device, parameters, 2, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT);
}

static void compute_desc(D3D12_COMPUTE_PIPELINE_STATE_DESC *desc, ID3D12RootSignature *signature, ID3D10Blob *code, struct bytes cached)
{
    memset(desc, 0, sizeof(*desc));
    desc->pRootSignature = signature;
    desc->CS.pShaderBytecode = ID3D10Blob_GetBufferPointer(code);
    desc->CS.BytecodeLength = ID3D10Blob_GetBufferSize(code);
    desc->CachedPSO.pCachedBlob = cached.data;
    desc->CachedPSO.CachedBlobSizeInBytes = cached.size;
}

static void check_dispatch(ID3D12Device *device, ID3D12CommandQueue *queue, ID3D12RootSignature *signature, ID3D12PipelineState *pipeline,
        uint32_t scale, uint32_t bias, const char *what)
{
    ID3D12Resource *output = harness_uav_buffer(device, THREADS * 4);
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    uint32_t data[THREADS];
    unsigned wrong = 0;

    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, pipeline);
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list.list, 0, scale, 0);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 1, ID3D12Resource_GetGPUVirtualAddress(output));
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    harness_execute_and_wait(device, queue, &list);
    harness_read_back(device, queue, output, data, sizeof(data));
    for (uint32_t i = 0; i < THREADS; i++)
        wrong += data[i] != i * scale + bias;
    CHECK_MSG(!wrong, "%s: %u of %u words wrong (word 1 is %u, not %u)", what, wrong, THREADS, data[1], scale + bias);
    harness_release_list(&list);
    ID3D12Resource_Release(output);
}

/* Draws one triangle covering an 8x8 RGBA8 target with the colour (0-255) and reads pixel (3, 3). */
static void check_draw(ID3D12Device *device, ID3D12CommandQueue *queue, ID3D12RootSignature *signature, ID3D12PipelineState *pipeline,
        const float color[4], const char *what)
{
    static const float vertices[] = {-1.0f, -1.0f, -1.0f, 3.0f, 3.0f, -1.0f};
    const D3D12_HEAP_PROPERTIES heap = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    D3D12_RESOURCE_DESC desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8G8B8A8_UNORM, SIZE, SIZE, 1, 1);
    const D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    const D3D12_VIEWPORT viewport = {0.0f, 0.0f, SIZE, SIZE, 0.0f, 1.0f};
    const D3D12_RECT scissor = {0, 0, SIZE, SIZE};
    const float clear[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    ID3D12Resource *target = NULL, *vertex_buffer, *readback;
    ID3D12DescriptorHeap *rtv_heap = NULL;
    D3D12_CPU_DESCRIPTOR_HANDLE rtv;
    D3D12_VERTEX_BUFFER_VIEW view;
    D3D12_TEXTURE_COPY_LOCATION dst, src;
    D3D12_RESOURCE_BARRIER barrier;
    struct harness_list list;
    uint8_t *mapped = NULL;
    void *upload = NULL;

    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_RENDER_TARGET, NULL,
            &IID_ID3D12Resource, (void **)&target), S_OK);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&rtv_heap), S_OK);
    vertex_buffer = harness_create_buffer(device, D3D12_HEAP_TYPE_UPLOAD, sizeof(vertices), D3D12_RESOURCE_STATE_GENERIC_READ);
    readback = harness_create_buffer(device, D3D12_HEAP_TYPE_READBACK, SIZE * 256, D3D12_RESOURCE_STATE_COPY_DEST);
    if (!target || !rtv_heap || !vertex_buffer || !readback)
        return;
    CHECK_HR(ID3D12Resource_Map(vertex_buffer, 0, NULL, &upload), S_OK);
    memcpy(upload, vertices, sizeof(vertices));
    ID3D12Resource_Unmap(vertex_buffer, 0, NULL);
    rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(rtv_heap);
    ID3D12Device_CreateRenderTargetView(device, target, NULL, rtv);
    view = (D3D12_VERTEX_BUFFER_VIEW){ID3D12Resource_GetGPUVirtualAddress(vertex_buffer), sizeof(vertices), 8};

    list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, rtv, clear, 0, NULL);
    ID3D12GraphicsCommandList2_OMSetRenderTargets(list.list, 1, &rtv, TRUE, NULL);
    ID3D12GraphicsCommandList2_RSSetViewports(list.list, 1, &viewport);
    ID3D12GraphicsCommandList2_RSSetScissorRects(list.list, 1, &scissor);
    ID3D12GraphicsCommandList2_IASetPrimitiveTopology(list.list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    ID3D12GraphicsCommandList2_IASetVertexBuffers(list.list, 0, 1, &view);
    ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, pipeline);
    ID3D12GraphicsCommandList2_SetGraphicsRoot32BitConstants(list.list, 0, 4, color, 0);
    ID3D12GraphicsCommandList2_DrawInstanced(list.list, 3, 1, 0, 0);
    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    barrier.Transition.pResource = target;
    barrier.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    barrier.Transition.StateBefore = D3D12_RESOURCE_STATE_RENDER_TARGET;
    barrier.Transition.StateAfter = D3D12_RESOURCE_STATE_COPY_SOURCE;
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    memset(&dst, 0, sizeof(dst));
    dst.pResource = readback;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    dst.PlacedFootprint.Footprint = (D3D12_SUBRESOURCE_FOOTPRINT){DXGI_FORMAT_R8G8B8A8_UNORM, SIZE, SIZE, 1, 256};
    memset(&src, 0, sizeof(src));
    src.pResource = target;
    src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    ID3D12GraphicsCommandList2_CopyTextureRegion(list.list, &dst, 0, 0, 0, &src, NULL);
    harness_execute_and_wait(device, queue, &list);
    harness_release_list(&list);
    CHECK_HR(ID3D12Resource_Map(readback, 0, NULL, (void **)&mapped), S_OK);
    if (mapped) {
        const uint8_t *p = mapped + 3 * 256 + 3 * 4;
        bool right = true;
        for (int c = 0; c < 4; c++)
            right &= abs((int)p[c] - (int)(color[c] * 255.0f + 0.5f)) <= 1;
        CHECK_MSG(right, "%s: pixel (3, 3) is %u %u %u %u, not the colour drawn", what, p[0], p[1], p[2], p[3]);
    }
    ID3D12Resource_Unmap(readback, 0, NULL);
    ID3D12Resource_Release(readback);
    ID3D12Resource_Release(vertex_buffer);
    ID3D12DescriptorHeap_Release(rtv_heap);
    ID3D12Resource_Release(target);
}

static void graphics_desc(D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc, ID3D12RootSignature *signature, ID3D10Blob *vs, ID3D10Blob *ps,
        struct bytes cached)
{
    harness_graphics_desc(desc, signature, vs, ps);
    desc->InputLayout.pInputElementDescs = vertex_layout;
    desc->InputLayout.NumElements = 1;
    desc->RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    desc->DepthStencilState.DepthEnable = FALSE;
    desc->CachedPSO.pCachedBlob = cached.data;
    desc->CachedPSO.CachedBlobSizeInBytes = cached.size;
}

/* Pipeline state streams: a subobject per part. */
struct stream_builder {
    _Alignas(void *) unsigned char bytes[1024];
    size_t size;
};

static void add_subobject(struct stream_builder *b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE type, const void *inner, size_t size, size_t align)
{
    size_t offset = (b->size + sizeof(void *) - 1) & ~(sizeof(void *) - 1), at;
    memcpy(b->bytes + offset, &type, sizeof(type));
    at = (offset + sizeof(type) + align - 1) & ~(align - 1);
    memcpy(b->bytes + at, inner, size);
    b->size = (at + size + sizeof(void *) - 1) & ~(sizeof(void *) - 1);
}
#define ADD(b, type, value) add_subobject(b, type, &(value), sizeof(value), _Alignof(__typeof__(value)))

/* desc (with its CachedPSO) as a stream, with cull_mode. */
static HRESULT create_stream(ID3D12Device *device, const D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc, D3D12_CULL_MODE cull_mode,
        ID3D12PipelineState **state)
{
    D3D12_RASTERIZER_DESC rasterizer = desc->RasterizerState;
    D3D12_RT_FORMAT_ARRAY formats = {{DXGI_FORMAT_R8G8B8A8_UNORM}, 1};
    D3D12_PIPELINE_STATE_STREAM_DESC stream_desc;
    struct stream_builder b;
    ID3D12Device2 *device2;
    HRESULT hr;

    *state = NULL;
    memset(&b, 0, sizeof(b));
    rasterizer.CullMode = cull_mode;
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_ROOT_SIGNATURE, desc->pRootSignature);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VS, desc->VS);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PS, desc->PS);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_BLEND, desc->BlendState);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_SAMPLE_MASK, desc->SampleMask);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RASTERIZER, rasterizer);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL, desc->DepthStencilState);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_INPUT_LAYOUT, desc->InputLayout);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PRIMITIVE_TOPOLOGY, desc->PrimitiveTopologyType);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RENDER_TARGET_FORMATS, formats);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_SAMPLE_DESC, desc->SampleDesc);
    ADD(&b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CACHED_PSO, desc->CachedPSO);
    stream_desc = (D3D12_PIPELINE_STATE_STREAM_DESC){b.size, b.bytes};
    if (FAILED(ID3D12Device_QueryInterface(device, &IID_ID3D12Device2, (void **)&device2)))
        return E_NOINTERFACE;
    hr = ID3D12Device2_CreatePipelineState(device2, &stream_desc, &IID_ID3D12PipelineState, (void **)state);
    ID3D12Device2_Release(device2);
    return hr;
}

/* A copy of blob with one byte changed at offset (free()d by the caller). */
static struct bytes patched(ID3DBlob *blob, size_t offset, unsigned char value)
{
    struct bytes copy = {malloc(ID3D10Blob_GetBufferSize(blob)), ID3D10Blob_GetBufferSize(blob)};
    CHECK(copy.data != NULL);
    memcpy(copy.data, ID3D10Blob_GetBufferPointer(blob), copy.size);
    ((unsigned char *)copy.data)[offset] = value;
    return copy;
}

static void test_compute(ID3D12Device *device, ID3D12CommandQueue *queue, ID3D12RootSignature *signature, ID3D10Blob *code,
        ID3D10Blob *other_code)
{
    D3D12_COMPUTE_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *pipeline = NULL, *from_blob = NULL, *twin = NULL;
    D3D12XS_PIPELINE_STATISTICS before, after;
    ID3DBlob *blob = NULL;
    struct bytes bad;
    unsigned char *bytes;
    LOG_MARK();

    compute_desc(&desc, signature, code, (struct bytes){NULL, 0});
    CHECK_HR(ID3D12Device_CreateComputePipelineState(device, &desc, &IID_ID3D12PipelineState, (void **)&pipeline), S_OK);
    if (!pipeline)
        return;
    CHECK_HR(ID3D12PipelineState_GetCachedBlob(pipeline, &blob), S_OK);
    if (!blob) {
        ID3D12PipelineState_Release(pipeline);
        return;
    }
    bytes = ID3D10Blob_GetBufferPointer(blob);
    CHECK(ID3D10Blob_GetBufferSize(blob) > D3D12XS_PIPELINE_BLOB_HEADER_SIZE && !memcmp(bytes, D3D12XS_PIPELINE_BLOB_MAGIC, 4));

    /* With the pipeline alive, the blob finds it as the bytecode would. */
    compute_desc(&desc, signature, code, bytes_of(blob));
    before = statistics_of(device);
    CHECK_HR(ID3D12Device_CreateComputePipelineState(device, &desc, &IID_ID3D12PipelineState, (void **)&twin), S_OK);
    after = statistics_of(device);
    CHECK(after.IdenticalPipelinesFound == before.IdenticalPipelinesFound + 1 && after.LivePipelines == before.LivePipelines);
    if (twin)
        ID3D12PipelineState_Release(twin);
    ID3D12PipelineState_Release(pipeline);

    /* With none alive, the blob makes the pipeline, which computes the same words. */
    before = statistics_of(device);
    CHECK_HR(ID3D12Device_CreateComputePipelineState(device, &desc, &IID_ID3D12PipelineState, (void **)&from_blob), S_OK);
    after = statistics_of(device);
    CHECK(after.LivePipelines == before.LivePipelines + 1 && after.VkPipelinesCreated > before.VkPipelinesCreated);
    if (from_blob) {
        ID3DBlob *again = NULL;
        check_dispatch(device, queue, signature, from_blob, 3, 1, "a compute pipeline from its cached blob");
        /* its own blob is the one it came from */
        CHECK_HR(ID3D12PipelineState_GetCachedBlob(from_blob, &again), S_OK);
        CHECK(again && ID3D10Blob_GetBufferSize(again) == ID3D10Blob_GetBufferSize(blob)
                && !memcmp(ID3D10Blob_GetBufferPointer(again), bytes, ID3D10Blob_GetBufferSize(blob)));
        if (again)
            ID3D10Blob_Release(again);
    }
    CHECK_NO_LOG();

    /* Blobs that do not fit, answered alike with the pipeline alive (from_blob) or not. */
    for (int alive = 1; alive >= 0; alive--) {
        ID3D12PipelineState *refused = (ID3D12PipelineState *)(uintptr_t)1;
        RELOG_MARK();
        bad = patched(blob, D3D12XS_PIPELINE_BLOB_DEVICE_ID_OFFSET, bytes[D3D12XS_PIPELINE_BLOB_DEVICE_ID_OFFSET] ^ 0x5a);
        compute_desc(&desc, signature, code, bad);
        CHECK_HR(ID3D12Device_CreateComputePipelineState(device, &desc, &IID_ID3D12PipelineState, (void **)&refused),
                D3D12_ERROR_ADAPTER_NOT_FOUND);
        CHECK(!refused);
        CHECK_LOG("pDesc->CachedPSO was made on another adapter");
        free(bad.data);

        RELOG_MARK();
        bad = patched(blob, D3D12XS_PIPELINE_BLOB_UUID_OFFSET + 3, bytes[D3D12XS_PIPELINE_BLOB_UUID_OFFSET + 3] ^ 0xff);
        compute_desc(&desc, signature, code, bad);
        CHECK_HR(ID3D12Device_CreateComputePipelineState(device, &desc, &IID_ID3D12PipelineState, (void **)&refused),
                D3D12_ERROR_DRIVER_VERSION_MISMATCH);
        CHECK_LOG("pDesc->CachedPSO was made with another driver version");
        free(bad.data);

        RELOG_MARK();
        bad = patched(blob, D3D12XS_PIPELINE_BLOB_VERSION_OFFSET, '9');
        compute_desc(&desc, signature, code, bad);
        CHECK_HR(ID3D12Device_CreateComputePipelineState(device, &desc, &IID_ID3D12PipelineState, (void **)&refused),
                D3D12_ERROR_DRIVER_VERSION_MISMATCH);
        CHECK_LOG("pDesc->CachedPSO was made by d3d12xs 9");
        free(bad.data);

        /* another description: other bytecode with this blob */
        RELOG_MARK();
        compute_desc(&desc, signature, other_code, bytes_of(blob));
        CHECK_HR(ID3D12Device_CreateComputePipelineState(device, &desc, &IID_ID3D12PipelineState, (void **)&refused), E_INVALIDARG);
        CHECK_LOG("pDesc->CachedPSO was made from another description");

        /* a damaged payload, and bytes that are no blob */
        RELOG_MARK();
        bad = patched(blob, ID3D10Blob_GetBufferSize(blob) - 1, bytes[ID3D10Blob_GetBufferSize(blob) - 1] ^ 1);
        compute_desc(&desc, signature, code, bad);
        CHECK_HR(ID3D12Device_CreateComputePipelineState(device, &desc, &IID_ID3D12PipelineState, (void **)&refused), E_INVALIDARG);
        CHECK_LOG("pDesc->CachedPSO is damaged");
        free(bad.data);
        /* a payload whose hash holds but whose binding names a root parameter the signature lacks */
        RELOG_MARK();
        bad = patched(blob, D3D12XS_PIPELINE_BLOB_FIRST_ROOT_INDEX_OFFSET, 60);
        {
            unsigned char *data = bad.data;
            uint64_t hash = d3d12xs_hash_bytes(D3D12XS_PIPELINE_BLOB_PAYLOAD_HASH_SEED, data + D3D12XS_PIPELINE_BLOB_HEADER_SIZE,
                    bad.size - D3D12XS_PIPELINE_BLOB_HEADER_SIZE);
            for (int b = 0; b < 8; b++)
                data[D3D12XS_PIPELINE_BLOB_PAYLOAD_HASH_OFFSET + b] = (unsigned char)(hash >> (8 * b));
        }
        compute_desc(&desc, signature, code, bad);
        CHECK_HR(ID3D12Device_CreateComputePipelineState(device, &desc, &IID_ID3D12PipelineState, (void **)&refused),
                alive ? S_OK : E_INVALIDARG);
        if (alive) {
            /* the live pipeline is found before the blob's contents are read */
            CHECK_NO_LOG();
            if (refused)
                ID3D12PipelineState_Release(refused);
        } else {
            CHECK_LOG("pDesc->CachedPSO does not fit its description: a binding does not fit the root signature");
        }
        free(bad.data);
        RELOG_MARK();
        compute_desc(&desc, signature, code, bytes_of(code));
        CHECK_HR(ID3D12Device_CreateComputePipelineState(device, &desc, &IID_ID3D12PipelineState, (void **)&refused), E_INVALIDARG);
        CHECK_LOG("pDesc->CachedPSO is not a d3d12xs cached pipeline blob");

        if (alive && from_blob) {
            ID3D12PipelineState_Release(from_blob);
            from_blob = NULL;
        }
    }
    if (from_blob)
        ID3D12PipelineState_Release(from_blob);
    ID3D10Blob_Release(blob);
}

static void test_graphics(ID3D12Device *device, ID3D12CommandQueue *queue, ID3D12RootSignature *signature)
{
    static const float green[4] = {0.0f, 1.0f, 0.0f, 1.0f}, purple[4] = {0.5f, 0.0f, 1.0f, 1.0f};
    ID3D10Blob *vs = harness_compile_stage(graphics_source, "vs", "vs_5_0"), *ps = harness_compile_stage(graphics_source, "ps", "ps_5_0");
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *pipeline = NULL, *from_blob = NULL, *refused;
    D3D12XS_PIPELINE_STATISTICS before, after;
    ID3DBlob *blob = NULL;
    struct bytes bad;
    LOG_MARK();

    if (!vs || !ps)
        return;
    graphics_desc(&desc, signature, vs, ps, (struct bytes){NULL, 0});
    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(device, &desc, &IID_ID3D12PipelineState, (void **)&pipeline), S_OK);
    if (pipeline) {
        check_draw(device, queue, signature, pipeline, green, "a graphics pipeline from HLSL");
        CHECK_HR(ID3D12PipelineState_GetCachedBlob(pipeline, &blob), S_OK);
        ID3D12PipelineState_Release(pipeline);
    }
    if (!blob)
        goto done;

    graphics_desc(&desc, signature, vs, ps, bytes_of(blob));
    before = statistics_of(device);
    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(device, &desc, &IID_ID3D12PipelineState, (void **)&from_blob), S_OK);
    after = statistics_of(device);
    CHECK(after.LivePipelines == before.LivePipelines + 1 && after.VkPipelinesCreated == before.VkPipelinesCreated + 1);
    if (from_blob) {
        check_draw(device, queue, signature, from_blob, purple, "a graphics pipeline from its cached blob");
        ID3D12PipelineState_Release(from_blob);
    }

    /* The stream's CACHED_PSO subobject; a blob of another description (another cull mode) in a stream. */
    {
        ID3D12PipelineState *streamed = NULL;
        RELOG_MARK();
        CHECK_HR(create_stream(device, &desc, D3D12_CULL_MODE_NONE, &streamed), S_OK);
        if (streamed) {
            check_draw(device, queue, signature, streamed, green, "a streamed graphics pipeline from its cached blob");
            ID3D12PipelineState_Release(streamed);
        }
        CHECK_HR(create_stream(device, &desc, D3D12_CULL_MODE_FRONT, &streamed), E_INVALIDARG);
        CHECK_LOG("the stream's CachedPSO was made from another description");
    }

    /* Another description (a blend field differs), and another adapter. */
    graphics_desc(&desc, signature, vs, ps, bytes_of(blob));
    desc.BlendState.RenderTarget[0].BlendEnable = TRUE;
    RELOG_MARK();
    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(device, &desc, &IID_ID3D12PipelineState, (void **)&refused), E_INVALIDARG);
    CHECK_LOG("pDesc->CachedPSO was made from another description");
    bad = patched(blob, D3D12XS_PIPELINE_BLOB_DEVICE_ID_OFFSET + 1, ((unsigned char *)ID3D10Blob_GetBufferPointer(blob))[29] ^ 0x11);
    graphics_desc(&desc, signature, vs, ps, bad);
    RELOG_MARK();
    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(device, &desc, &IID_ID3D12PipelineState, (void **)&refused), D3D12_ERROR_ADAPTER_NOT_FOUND);
    CHECK_LOG("pDesc->CachedPSO was made on another adapter");
    free(bad.data);
    ID3D10Blob_Release(blob);
    RELOG_MARK();
    CHECK_NO_LOG();
done:
    ID3D10Blob_Release(vs);
    ID3D10Blob_Release(ps);
}

int main(void)
{
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12RootSignature *signature;
    ID3D10Blob *code, *other_code;
    D3D12_FEATURE_DATA_SHADER_CACHE cache;

    harness_init();
    device = harness_create_device();
    queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_SHADER_CACHE, &cache, sizeof(cache)), S_OK);
    CHECK(cache.SupportFlags == (D3D12_SHADER_CACHE_SUPPORT_SINGLE_PSO | D3D12_SHADER_CACHE_SUPPORT_LIBRARY));
    signature = create_root_signature(device);
    code = harness_compile(compute_source, 0);
    other_code = harness_compile(other_compute_source, 0);
    if (signature && code && other_code) {
        test_compute(device, queue, signature, code, other_code);
        test_graphics(device, queue, signature);
    }
    CHECK(statistics_of(device).LivePipelines == 0);
    if (code)
        ID3D10Blob_Release(code);
    if (other_code)
        ID3D10Blob_Release(other_code);
    if (signature)
        ID3D12RootSignature_Release(signature);
    ID3D12CommandQueue_Release(queue);
    harness_release_device(device);
    return harness_finish();
}
