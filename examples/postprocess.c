/* A console-style asynchronous post-process on a texture, written to a PNG a person can open:
 *  - the DIRECT queue uploads a generated 512x512 image into a texture;
 *  - the COMPUTE queue post-processes it with DispatchX (a 5-tap blur sampled through a linear
 *    static sampler, a vignette, a tone curve) into a UAV texture, then publishes the frame
 *    number with a bottom-of-pipe write (FLUSH_BOP_TEXTURE_L2_WRITEBACK) into graphics memory;
 *  - the DIRECT queue, mid-list, waits on that value (Wait64BitValueX) before copying the result
 *    to a READBACK buffer.
 * FRAMES frames animate the vignette; every pixel of the last is checked against the same maths
 * on the CPU (within filtering tolerance), and it is written as postprocess.png (argument 1 names
 * another path). */
#include <math.h>
#include <png.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <d3d12_xs.h>
#include <d3dcompiler.h>

#define SIZE 512
#define FRAMES 4

#define CHECK_HR(expr) do { HRESULT hr_ = (expr); if (FAILED(hr_)) { fprintf(stderr, "postprocess: %s failed: 0x%08x\n", #expr, (unsigned)hr_); exit(1); } } while (0)

static const char shader[] =
    "cbuffer Frame : register(b0) { float strength; float size; };\n"
    "Texture2D<float4> source : register(t0);\n"
    "RWTexture2D<float4> result : register(u0);\n"
    "SamplerState bilinear : register(s0);\n"
    "[numthreads(8, 8, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID)\n"
    "{\n"
    "    float2 uv = (float2(id.xy) + 0.5) / size, texel = 1.0 / size;\n"
    "    float4 c = source.SampleLevel(bilinear, uv, 0) * 0.4;\n"
    "    c += source.SampleLevel(bilinear, uv + float2(texel.x * 1.5, 0), 0) * 0.15;\n"
    "    c += source.SampleLevel(bilinear, uv - float2(texel.x * 1.5, 0), 0) * 0.15;\n"
    "    c += source.SampleLevel(bilinear, uv + float2(0, texel.y * 1.5), 0) * 0.15;\n"
    "    c += source.SampleLevel(bilinear, uv - float2(0, texel.y * 1.5), 0) * 0.15;\n"
    "    float2 d = uv - 0.5;\n"
    "    float vignette = saturate(1.0 - dot(d, d) * strength);\n"
    "    float3 graded = c.rgb * vignette;\n"
    "    graded = graded / (graded + 0.25) * 1.25;\n"
    "    result[id.xy] = float4(graded, 1.0);\n"
    "}\n";

struct gpu {
    ID3D12Device *device;
    ID3D12CommandQueue *direct, *compute;
    ID3D12RootSignature *signature;
    ID3D12PipelineState *pipeline;
    ID3D12DescriptorHeap *heap;
    ID3D12CommandAllocator *allocators[2];
    ID3D12GraphicsCommandList *lists[2]; /* DIRECT, COMPUTE */
    ID3D12Fence *fence;
    UINT64 fence_value;
    ID3D12Resource *source, *result, *upload, *readback;
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT footprint;
};

/* The generated picture: soft stripes and three discs. */
static void generate(uint8_t *rgba, UINT row_pitch)
{
    for (unsigned y = 0; y < SIZE; y++) {
        for (unsigned x = 0; x < SIZE; x++) {
            uint8_t *p = rgba + (size_t)y * row_pitch + x * 4;
            float r = 0.5f + 0.5f * sinf(x * 0.05f), g = 0.3f + 0.3f * cosf(y * 0.03f), b = 0.6f;
            const float discs[3][3] = {{150, 180, 70}, {340, 260, 110}, {220, 390, 60}};
            for (int i = 0; i < 3; i++) {
                float dx = x - discs[i][0], dy = y - discs[i][1];
                if (dx * dx + dy * dy < discs[i][2] * discs[i][2])
                    r = i == 0 ? 1.0f : r * 0.3f, g = i == 1 ? 0.9f : g * 0.4f, b = i == 2 ? 1.0f : b * 0.5f;
            }
            p[0] = (uint8_t)lrintf(r * 255), p[1] = (uint8_t)lrintf(g * 255), p[2] = (uint8_t)lrintf(b * 255), p[3] = 255;
        }
    }
}

static ID3D12Resource *texture(struct gpu *g, D3D12_RESOURCE_FLAGS flags, D3D12_RESOURCE_STATES state)
{
    D3D12_HEAP_PROPERTIES heap = {D3D12_HEAP_TYPE_DEFAULT, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    D3D12_RESOURCE_DESC desc = {D3D12_RESOURCE_DIMENSION_TEXTURE2D, 0, SIZE, SIZE, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0},
            D3D12_TEXTURE_LAYOUT_UNKNOWN, flags};
    ID3D12Resource *resource;
    CHECK_HR(ID3D12Device_CreateCommittedResource(g->device, &heap, D3D12_HEAP_FLAG_NONE, &desc, state, NULL, &IID_ID3D12Resource,
            (void **)&resource));
    return resource;
}

static ID3D12Resource *buffer(struct gpu *g, D3D12_HEAP_TYPE type, UINT64 size, D3D12_RESOURCE_STATES state)
{
    D3D12_HEAP_PROPERTIES heap = {type, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    D3D12_RESOURCE_DESC desc = {D3D12_RESOURCE_DIMENSION_BUFFER, 0, size, 1, 1, 1, DXGI_FORMAT_UNKNOWN, {1, 0},
            D3D12_TEXTURE_LAYOUT_ROW_MAJOR, D3D12_RESOURCE_FLAG_NONE};
    ID3D12Resource *resource;
    CHECK_HR(ID3D12Device_CreateCommittedResource(g->device, &heap, D3D12_HEAP_FLAG_NONE, &desc, state, NULL, &IID_ID3D12Resource,
            (void **)&resource));
    return resource;
}

static void init(struct gpu *g)
{
    D3D12XBOX_COMMAND_QUEUE_DESC direct = {D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_QUEUE_FLAG_NONE, 0, 0};
    D3D12XBOX_COMMAND_QUEUE_DESC compute = {D3D12_COMMAND_LIST_TYPE_COMPUTE, D3D12_COMMAND_QUEUE_FLAG_NONE, 0, 0};
    D3D12_DESCRIPTOR_RANGE1 ranges[2] = {
        {D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 1, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 0},
        {D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 1, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 1},
    };
    D3D12_ROOT_PARAMETER1 parameters[2];
    D3D12_STATIC_SAMPLER_DESC bilinear;
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc;
    D3D12_COMPUTE_PIPELINE_STATE_DESC pipeline;
    D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 2, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    D3D12_CPU_DESCRIPTOR_HANDLE cpu;
    D3D12_RESOURCE_DESC texture_desc;
    ID3DBlob *blob = NULL, *code = NULL, *errors = NULL;
    UINT64 total;

    memset(g, 0, sizeof(*g));
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&g->device));
    CHECK_HR(ID3D12Device_CreateCommandQueueX(g->device, &direct, &IID_ID3D12CommandQueue, (void **)&g->direct));
    CHECK_HR(ID3D12Device_CreateCommandQueueX(g->device, &compute, &IID_ID3D12CommandQueue, (void **)&g->compute));
    ID3D12CommandQueue_SetName(g->direct, L"gfx");
    ID3D12CommandQueue_SetName(g->compute, L"async compute");

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 2;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    parameters[1].DescriptorTable.NumDescriptorRanges = 2;
    parameters[1].DescriptorTable.pDescriptorRanges = ranges;
    memset(&bilinear, 0, sizeof(bilinear));
    bilinear.Filter = D3D12_FILTER_MIN_MAG_MIP_LINEAR;
    bilinear.AddressU = bilinear.AddressV = bilinear.AddressW = D3D12_TEXTURE_ADDRESS_MODE_CLAMP;
    bilinear.MaxLOD = 1000.0f;
    memset(&desc, 0, sizeof(desc));
    desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    desc.Desc_1_1.NumParameters = 2;
    desc.Desc_1_1.pParameters = parameters;
    desc.Desc_1_1.NumStaticSamplers = 1;
    desc.Desc_1_1.pStaticSamplers = &bilinear;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&desc, &blob, NULL));
    CHECK_HR(ID3D12Device_CreateRootSignature(g->device, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
            &IID_ID3D12RootSignature, (void **)&g->signature));
    if (FAILED(D3DCompile(shader, sizeof(shader) - 1, "postprocess.hlsl", NULL, NULL, "main", "cs_6_0", 0, 0, &code, &errors))) {
        fprintf(stderr, "postprocess: %s\n", errors ? (const char *)ID3D10Blob_GetBufferPointer(errors) : "D3DCompile failed");
        exit(1);
    }
    memset(&pipeline, 0, sizeof(pipeline));
    pipeline.pRootSignature = g->signature;
    pipeline.CS.pShaderBytecode = ID3D10Blob_GetBufferPointer(code);
    pipeline.CS.BytecodeLength = ID3D10Blob_GetBufferSize(code);
    CHECK_HR(ID3D12Device_CreateComputePipelineState(g->device, &pipeline, &IID_ID3D12PipelineState, (void **)&g->pipeline));
    ID3D10Blob_Release(blob);
    ID3D10Blob_Release(code);

    for (int i = 0; i < 2; i++) {
        D3D12_COMMAND_LIST_TYPE type = i ? D3D12_COMMAND_LIST_TYPE_COMPUTE : D3D12_COMMAND_LIST_TYPE_DIRECT;
        CHECK_HR(ID3D12Device_CreateCommandAllocator(g->device, type, &IID_ID3D12CommandAllocator, (void **)&g->allocators[i]));
        CHECK_HR(ID3D12Device_CreateCommandList(g->device, 0, type, g->allocators[i], NULL, &IID_ID3D12GraphicsCommandList, (void **)&g->lists[i]));
        CHECK_HR(ID3D12GraphicsCommandList_Close(g->lists[i]));
    }
    CHECK_HR(ID3D12Device_CreateFence(g->device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&g->fence));

    g->source = texture(g, D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_COPY_DEST);
    g->result = texture(g, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    texture_desc = ID3D12Resource_GetDesc(g->source);
    ID3D12Device_GetCopyableFootprints(g->device, &texture_desc, 0, 1, 0, &g->footprint, NULL, NULL, &total);
    g->upload = buffer(g, D3D12_HEAP_TYPE_UPLOAD, total, D3D12_RESOURCE_STATE_GENERIC_READ);
    g->readback = buffer(g, D3D12_HEAP_TYPE_READBACK, total, D3D12_RESOURCE_STATE_COPY_DEST);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(g->device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&g->heap));
    cpu = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(g->heap);
    ID3D12Device_CreateShaderResourceView(g->device, g->source, NULL, cpu);
    cpu.ptr += ID3D12Device_GetDescriptorHandleIncrementSize(g->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    ID3D12Device_CreateUnorderedAccessView(g->device, g->result, NULL, NULL, cpu);
}

static ID3D12GraphicsCommandList *begin(struct gpu *g, int which)
{
    CHECK_HR(ID3D12CommandAllocator_Reset(g->allocators[which]));
    CHECK_HR(ID3D12GraphicsCommandList_Reset(g->lists[which], g->allocators[which], NULL));
    return g->lists[which];
}

static void submit(struct gpu *g, int which)
{
    ID3D12CommandQueue *queue = which ? g->compute : g->direct;
    CHECK_HR(ID3D12GraphicsCommandList_Close(g->lists[which]));
    ID3D12CommandQueue_ExecuteCommandLists(queue, 1, (ID3D12CommandList **)&g->lists[which]);
}

static void transition(ID3D12GraphicsCommandList *list, ID3D12Resource *resource, D3D12_RESOURCE_STATES before, D3D12_RESOURCE_STATES after)
{
    D3D12_RESOURCE_BARRIER barrier;
    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    barrier.Transition.pResource = resource;
    barrier.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    barrier.Transition.StateBefore = before;
    barrier.Transition.StateAfter = after;
    ID3D12GraphicsCommandList_ResourceBarrier(list, 1, &barrier);
}

/* The shader's maths on the CPU, with the texture's bilinear sampling. */
static float sample_channel(const uint8_t *rgba, UINT pitch, float u, float v, int c)
{
    float x = u * SIZE - 0.5f, y = v * SIZE - 0.5f;
    int x0 = (int)floorf(x), y0 = (int)floorf(y);
    float fx = x - x0, fy = y - y0, sum = 0;
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < 2; i++) {
            int xi = x0 + i < 0 ? 0 : x0 + i >= SIZE ? SIZE - 1 : x0 + i, yj = y0 + j < 0 ? 0 : y0 + j >= SIZE ? SIZE - 1 : y0 + j;
            sum += rgba[(size_t)yj * pitch + xi * 4 + c] / 255.0f * (i ? fx : 1 - fx) * (j ? fy : 1 - fy);
        }
    return sum;
}

static unsigned check_frame(const uint8_t *source, const uint8_t *result, UINT pitch, float strength)
{
    const float texel = 1.0f / SIZE, offsets[5][3] = {{0, 0, 0.4f}, {1.5f, 0, 0.15f}, {-1.5f, 0, 0.15f}, {0, 1.5f, 0.15f}, {0, -1.5f, 0.15f}};
    unsigned bad = 0;
    for (unsigned y = 0; y < SIZE; y++) {
        for (unsigned x = 0; x < SIZE; x++) {
            float u = (x + 0.5f) / SIZE, v = (y + 0.5f) / SIZE, du = u - 0.5f, dv = v - 0.5f;
            float vignette = 1.0f - (du * du + dv * dv) * strength;
            vignette = vignette < 0 ? 0 : vignette > 1 ? 1 : vignette;
            for (int c = 0; c < 3; c++) {
                float sum = 0, graded;
                for (int k = 0; k < 5; k++)
                    sum += sample_channel(source, pitch, u + offsets[k][0] * texel, v + offsets[k][1] * texel, c) * offsets[k][2];
                graded = sum * vignette;
                graded = graded / (graded + 0.25f) * 1.25f;
                graded = graded > 1 ? 1 : graded;
                /* Filtering is 8-bit fixed point on some devices: a few units of slack. */
                bad += fabsf(result[(size_t)y * pitch + x * 4 + c] - graded * 255.0f) > 4.0f;
            }
        }
    }
    return bad;
}

static int write_png(const char *path, const uint8_t *rgba, UINT pitch)
{
    FILE *file = fopen(path, "wb");
    png_structp png = file ? png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL) : NULL;
    png_infop info = png ? png_create_info_struct(png) : NULL;

    if (!info || setjmp(png_jmpbuf(png))) {
        if (png)
            png_destroy_write_struct(&png, info ? &info : NULL);
        if (file)
            fclose(file);
        return 0;
    }
    png_init_io(png, file);
    png_set_IHDR(png, info, SIZE, SIZE, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (unsigned y = 0; y < SIZE; y++)
        png_write_row(png, (png_const_bytep)(rgba + (size_t)y * pitch));
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return fclose(file) == 0;
}

int main(int argc, char **argv)
{
    bool unwritten;
    const char *path = argc > 1 ? argv[1] : "postprocess.png";
    uint64_t *frame_done = (uint64_t *)XMemVirtualAlloc(NULL, 64 * 1024, MEM_RESERVE | MEM_COMMIT | MEM_64K_PAGES, XMEM_GRAPHICS,
            PAGE_READWRITE | PAGE_WRITECOMBINE | PAGE_GRAPHICS_READWRITE);
    D3D12_GPU_VIRTUAL_ADDRESS frame_address = (D3D12_GPU_VIRTUAL_ADDRESS)(uintptr_t)frame_done;
    uint8_t *mapped, *source_copy, *result_copy;
    float strength = 0;
    unsigned bad;
    struct gpu g;

    if (!frame_done) {
        fprintf(stderr, "postprocess: XMemVirtualAlloc failed\n");
        return 1;
    }
    init(&g);
    source_copy = malloc((size_t)g.footprint.Footprint.RowPitch * SIZE);
    result_copy = malloc((size_t)g.footprint.Footprint.RowPitch * SIZE);
    CHECK_HR(ID3D12Resource_Map(g.upload, 0, NULL, (void **)&mapped));
    generate(mapped + g.footprint.Offset, g.footprint.Footprint.RowPitch);
    memcpy(source_copy, mapped + g.footprint.Offset, (size_t)g.footprint.Footprint.RowPitch * SIZE);
    ID3D12Resource_Unmap(g.upload, 0, NULL);

    {
        ID3D12GraphicsCommandList *list = begin(&g, 0);
        D3D12_TEXTURE_COPY_LOCATION dst = {g.source, D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX, {.SubresourceIndex = 0}};
        D3D12_TEXTURE_COPY_LOCATION src = {g.upload, D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT, {.PlacedFootprint = g.footprint}};
        ID3D12GraphicsCommandList_CopyTextureRegion(list, &dst, 0, 0, 0, &src, NULL);
        transition(list, g.source, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE);
        submit(&g, 0);
        /* the COMPUTE queue reads the source only after the upload */
        CHECK_HR(ID3D12CommandQueue_Signal(g.direct, g.fence, ++g.fence_value));
        CHECK_HR(ID3D12CommandQueue_Wait(g.compute, g.fence, g.fence_value));
    }

    for (uint64_t frame = 1; frame <= FRAMES; frame++) {
        float constants[2];
        ID3D12GraphicsCommandList *compute, *direct;
        /* One allocator per queue: the last frame's lists must have finished before they reset. */
        CHECK_HR(ID3D12Fence_SetEventOnCompletion(g.fence, g.fence_value, NULL));
        compute = begin(&g, 1);
        strength = 1.2f + 0.4f * (float)frame;
        constants[0] = strength, constants[1] = SIZE;
        ID3D12GraphicsCommandList_SetDescriptorHeaps(compute, 1, &g.heap);
        ID3D12GraphicsCommandList_SetComputeRootSignature(compute, g.signature);
        ID3D12GraphicsCommandList_SetPipelineState(compute, g.pipeline);
        ID3D12GraphicsCommandList_SetComputeRoot32BitConstants(compute, 0, 2, constants, 0);
        ID3D12GraphicsCommandList_SetComputeRootDescriptorTable(compute, 1, ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(g.heap));
        ID3D12GraphicsCommandList_DispatchX(compute, SIZE / 8, SIZE / 8, 1, D3D12XBOX_DISPATCH_FLAG_NONE);
        /* The frame's texture writes are done and written back before the value lands. */
        ID3D12GraphicsCommandList_Write64BitValueBottomOfPipeX(compute, frame_address, frame, D3D12XBOX_FLUSH_BOP_TEXTURE_L2_WRITEBACK,
                D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
        submit(&g, 1);

        /* DIRECT: its own work first, then mid-list it waits for the frame before reading it. */
        direct = begin(&g, 0);
        ID3D12GraphicsCommandList_Wait64BitValueX(direct, frame_address, D3D12_COMPARISON_FUNC_GREATER_EQUAL, frame, D3D12XBOX_WAIT_FLAG_NONE);
        transition(direct, g.result, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
        {
            D3D12_TEXTURE_COPY_LOCATION dst = {g.readback, D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT, {.PlacedFootprint = g.footprint}};
            D3D12_TEXTURE_COPY_LOCATION src = {g.result, D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX, {.SubresourceIndex = 0}};
            ID3D12GraphicsCommandList_CopyTextureRegion(direct, &dst, 0, 0, 0, &src, NULL);
        }
        transition(direct, g.result, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
        submit(&g, 0);
        /* The next frame's compute overwrites the result: it waits for this copy. */
        CHECK_HR(ID3D12CommandQueue_Signal(g.direct, g.fence, ++g.fence_value));
        CHECK_HR(ID3D12CommandQueue_Wait(g.compute, g.fence, g.fence_value));
    }
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(g.fence, g.fence_value, NULL));

    CHECK_HR(ID3D12Resource_Map(g.readback, 0, NULL, (void **)&mapped));
    memcpy(result_copy, mapped + g.footprint.Offset, (size_t)g.footprint.Footprint.RowPitch * SIZE);
    ID3D12Resource_Unmap(g.readback, 0, NULL);
    bad = check_frame(source_copy, result_copy, g.footprint.Footprint.RowPitch, strength);
    printf("postprocess: %d frames of a %dx%d image, COMPUTE DispatchX -> bottom-of-pipe write -> DIRECT waits mid-list; "
           "last frame %s (%u of %d channel values off)\n", FRAMES, SIZE, SIZE, bad ? "WRONG" : "verified against the CPU", bad,
           SIZE * SIZE * 3);
    /* a file that cannot be written fails the run, after everything is released as on success */
    unwritten = !write_png(path, result_copy, g.footprint.Footprint.RowPitch);
    if (unwritten)
        fprintf(stderr, "postprocess: cannot write %s\n", path);
    else
        printf("postprocess: wrote %s\n", path);

    free(source_copy);
    free(result_copy);
    ID3D12Resource_Release(g.source);
    ID3D12Resource_Release(g.result);
    ID3D12Resource_Release(g.upload);
    ID3D12Resource_Release(g.readback);
    ID3D12DescriptorHeap_Release(g.heap);
    ID3D12Fence_Release(g.fence);
    for (int i = 0; i < 2; i++) {
        ID3D12GraphicsCommandList_Release(g.lists[i]);
        ID3D12CommandAllocator_Release(g.allocators[i]);
    }
    ID3D12PipelineState_Release(g.pipeline);
    ID3D12RootSignature_Release(g.signature);
    ID3D12CommandQueue_Release(g.direct);
    ID3D12CommandQueue_Release(g.compute);
    ID3D12Device_Release(g.device);
    VirtualFree(frame_done, 0, MEM_RELEASE);
    return bad || unwritten ? 1 : 0;
}
