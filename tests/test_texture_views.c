/* Views of textures read and written by compute shaders: SRVs of every dimension (1D, 2D and 3D,
 * arrays, cubes, a mip range, a swizzle, a typeless family member, a null view), loads, samples
 * through a heap sampler and a static one, GetDimensions; UAVs written by RWTexture stores in
 * formats other than the shader's element type; UAV clears, whole and of rectangles; render
 * target views and their clears (an sRGB member of a typeless family, integers, rectangles, a
 * multisampled texture read back by Texture2DMS.Load); depth stencil views and their clears (depth
 * and stencil planes read back); A8_UNORM textures (R8 with alpha in R underneath); 3D UAVs of
 * some of a mip's W slices; and the view rules with the line each breach logs. Every value read
 * is checked against what was uploaded or cleared. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define SRV_SLOTS 8
#define UAV_SLOTS 4
#define OUTPUT_BYTES 4096

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12RootSignature *signature;
    ID3D12DescriptorHeap *views, *samplers;
    UINT view_increment;
    ID3D12Resource *output;
};

static D3D12_CPU_DESCRIPTOR_HANDLE cpu_at(struct env *env, UINT slot)
{
    D3D12_CPU_DESCRIPTOR_HANDLE handle = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(env->views);
    handle.ptr += (SIZE_T)slot * env->view_increment;
    return handle;
}

/* t0-t7 and u0-u3 in one table, s0 in a sampler table, s1 static (linear, clamp), u4 the root
 * output buffer. */
static ID3D12RootSignature *create_signature(ID3D12Device *device)
{
    D3D12_DESCRIPTOR_RANGE1 ranges[3] = {
        {D3D12_DESCRIPTOR_RANGE_TYPE_SRV, SRV_SLOTS, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_VOLATILE, 0},
        {D3D12_DESCRIPTOR_RANGE_TYPE_UAV, UAV_SLOTS, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_VOLATILE, SRV_SLOTS},
        {D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER, 1, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 0},
    };
    D3D12_ROOT_PARAMETER1 parameters[3];
    D3D12_STATIC_SAMPLER_DESC linear;
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc;
    ID3D10Blob *blob = NULL, *errors = NULL;
    ID3D12RootSignature *signature = NULL;

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    parameters[0].DescriptorTable.NumDescriptorRanges = 2;
    parameters[0].DescriptorTable.pDescriptorRanges = ranges;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    parameters[1].DescriptorTable.NumDescriptorRanges = 1;
    parameters[1].DescriptorTable.pDescriptorRanges = &ranges[2];
    parameters[2].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    parameters[2].Descriptor.ShaderRegister = 4;
    memset(&linear, 0, sizeof(linear));
    linear.Filter = D3D12_FILTER_MIN_MAG_MIP_LINEAR;
    linear.AddressU = linear.AddressV = linear.AddressW = D3D12_TEXTURE_ADDRESS_MODE_CLAMP;
    linear.MaxLOD = 1000.0f;
    linear.ShaderRegister = 1;
    memset(&desc, 0, sizeof(desc));
    desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    desc.Desc_1_1.NumParameters = 3;
    desc.Desc_1_1.pParameters = parameters;
    desc.Desc_1_1.NumStaticSamplers = 1;
    desc.Desc_1_1.pStaticSamplers = &linear;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&desc, &blob, &errors), S_OK);
    if (blob) {
        CHECK_HR(ID3D12Device_CreateRootSignature(device, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
                &IID_ID3D12RootSignature, (void **)&signature), S_OK);
        ID3D10Blob_Release(blob);
    }
    if (errors)
        ID3D10Blob_Release(errors);
    return signature;
}

static ID3D12DescriptorHeap *create_heap(ID3D12Device *device, D3D12_DESCRIPTOR_HEAP_TYPE type, UINT count)
{
    /* RTV and DSV heaps are never shader-visible */
    bool visible = type == D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV || type == D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER;
    D3D12_DESCRIPTOR_HEAP_DESC desc = {type, count, visible ? D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE : D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    ID3D12DescriptorHeap *heap = NULL;
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(device, &desc, &IID_ID3D12DescriptorHeap, (void **)&heap), S_OK);
    return heap;
}

static D3D12_RESOURCE_DESC texture_desc(D3D12_RESOURCE_DIMENSION dimension, DXGI_FORMAT format, UINT64 width, UINT height,
        UINT16 depth_or_array, UINT16 mips, D3D12_RESOURCE_FLAGS flags)
{
    D3D12_RESOURCE_DESC desc = harness_texture_desc(dimension, format, width, height, depth_or_array, mips);
    desc.Flags = flags;
    return desc;
}

/* A texture whose subresources hold data (each tightly packed, texel_bytes a texel), left in
 * `state`. */
static ID3D12Resource *create_texture(struct env *env, const D3D12_RESOURCE_DESC *desc, const void *data, UINT texel_bytes,
        D3D12_RESOURCE_STATES state)
{
    D3D12_HEAP_PROPERTIES heap = {D3D12_HEAP_TYPE_DEFAULT, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT layouts[16];
    UINT rows[16], count;
    UINT64 row_sizes[16], total;
    ID3D12Resource *texture = NULL, *upload;
    D3D12_RESOURCE_DESC actual;
    struct harness_list list;
    const uint8_t *src = data;
    uint8_t *mapped = NULL;
    D3D12_RESOURCE_BARRIER barrier;

    CHECK_HR(ID3D12Device_CreateCommittedResource(env->device, &heap, D3D12_HEAP_FLAG_NONE, desc, D3D12_RESOURCE_STATE_COPY_DEST, NULL,
            &IID_ID3D12Resource, (void **)&texture), S_OK);
    if (!texture)
        return NULL;
    actual = ID3D12Resource_GetDesc(texture);
    count = actual.MipLevels * (desc->Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE3D ? 1 : desc->DepthOrArraySize);
    ID3D12Device_GetCopyableFootprints(env->device, &actual, 0, count, 0, layouts, rows, row_sizes, &total);
    upload = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, total, D3D12_RESOURCE_STATE_GENERIC_READ);
    CHECK_HR(ID3D12Resource_Map(upload, 0, NULL, (void **)&mapped), S_OK);
    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    for (UINT s = 0; s < count; s++) {
        D3D12_TEXTURE_COPY_LOCATION dst = {texture, D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX, {.SubresourceIndex = s}};
        D3D12_TEXTURE_COPY_LOCATION from = {upload, D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT, {.PlacedFootprint = layouts[s]}};
        UINT row_bytes = layouts[s].Footprint.Width * texel_bytes;
        for (UINT z = 0; z < layouts[s].Footprint.Depth; z++)
            for (UINT r = 0; r < rows[s]; r++, src += row_bytes)
                memcpy(mapped + layouts[s].Offset + ((UINT64)z * rows[s] + r) * layouts[s].Footprint.RowPitch, src, row_bytes);
        ID3D12GraphicsCommandList2_CopyTextureRegion(list.list, &dst, 0, 0, 0, &from, NULL);
    }
    ID3D12Resource_Unmap(upload, 0, NULL);
    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    barrier.Transition.pResource = texture;
    barrier.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    barrier.Transition.StateBefore = D3D12_RESOURCE_STATE_COPY_DEST;
    barrier.Transition.StateAfter = state;
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    ID3D12Resource_Release(upload);
    return texture;
}

/* Runs source over groups x 1 x 1 groups with the heaps bound; out gets the first `bytes` of u4. */
static void run(struct env *env, const char *source, UINT groups, void *out, size_t bytes)
{
    ID3D10Blob *code = harness_compile(source, 0);
    ID3D12PipelineState *state = code ? harness_compute_pipeline(env->device, env->signature, code) : NULL;
    ID3D12DescriptorHeap *heaps[2] = {env->views, env->samplers};
    struct harness_list list;
    uint8_t zeros[OUTPUT_BYTES] = {0};
    ID3D12Resource *reset;
    uint8_t *mapped = NULL;

    if (code)
        ID3D10Blob_Release(code);
    memset(out, 0xcd, bytes);
    if (!state)
        return;
    /* Zero the output first, so a value not written reads 0, not the last case's. */
    reset = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, OUTPUT_BYTES, D3D12_RESOURCE_STATE_GENERIC_READ);
    CHECK_HR(ID3D12Resource_Map(reset, 0, NULL, (void **)&mapped), S_OK);
    memcpy(mapped, zeros, OUTPUT_BYTES);
    ID3D12Resource_Unmap(reset, 0, NULL);
    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, env->output, 0, reset, 0, OUTPUT_BYTES);
    {
        D3D12_RESOURCE_BARRIER barrier = {D3D12_RESOURCE_BARRIER_TYPE_UAV, 0, {.UAV = {env->output}}};
        ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    }
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 2, heaps);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, env->signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 0, ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(env->views));
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 1, ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(env->samplers));
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 2, ID3D12Resource_GetGPUVirtualAddress(env->output));
    ID3D12GraphicsCommandList2_Dispatch(list.list, groups, 1, 1);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    ID3D12Resource_Release(reset);
    ID3D12PipelineState_Release(state);
    harness_read_back(env->device, env->queue, env->output, out, bytes);
}

static void srv(struct env *env, ID3D12Resource *texture, const D3D12_SHADER_RESOURCE_VIEW_DESC *desc, UINT slot)
{
    LOG_MARK();
    ID3D12Device_CreateShaderResourceView(env->device, texture, desc, cpu_at(env, slot));
    CHECK_NO_LOG();
}

static D3D12_SHADER_RESOURCE_VIEW_DESC srv_desc(DXGI_FORMAT format, D3D12_SRV_DIMENSION dimension)
{
    D3D12_SHADER_RESOURCE_VIEW_DESC desc;
    memset(&desc, 0, sizeof(desc));
    desc.Format = format;
    desc.ViewDimension = dimension;
    desc.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
    desc.Texture2DArray.MipLevels = UINT32_MAX; /* the same place in every mip-ranged member */
    return desc;
}

static bool close_to(float a, float b)
{
    return fabsf(a - b) < 1.0f / 256.0f;
}

/* 2D loads of RGBA8 (default view), a swizzled view, GetDimensions, point and linear samples. */
static void test_2d(struct env *env)
{
    static const char source[] =
        "Texture2D<float4> plain : register(t0);\n"
        "Texture2D<float4> swizzled : register(t1);\n"
        "SamplerState point_sampler : register(s0);\n"
        "SamplerState linear_sampler : register(s1);\n"
        "RWByteAddressBuffer output : register(u4);\n"
        "[numthreads(16, 1, 1)] void main(uint3 id : SV_DispatchThreadID)\n"
        "{\n"
        "    uint2 xy = uint2(id.x % 4, id.x / 4);\n"
        "    output.Store4(id.x * 16, asuint(plain.Load(int3(xy, 0))));\n"
        "    output.Store4(256 + id.x * 16, asuint(swizzled.Load(int3(xy, 0))));\n"
        "    float2 uv = (float2(xy) + 0.5) / 4.0;\n"
        "    output.Store4(512 + id.x * 16, asuint(plain.SampleLevel(point_sampler, uv, 0)));\n"
        "    if (id.x == 0) {\n"
        "        uint w, h, levels;\n"
        "        plain.GetDimensions(0, w, h, levels);\n"
        "        output.Store3(768, uint3(w, h, levels));\n"
        "        output.Store4(784, asuint(plain.SampleLevel(linear_sampler, float2(0.5, 0.5), 0)));\n"
        "    }\n"
        "}\n";
    D3D12_RESOURCE_DESC desc = texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8G8B8A8_UNORM, 4, 4, 1, 1, D3D12_RESOURCE_FLAG_NONE);
    uint8_t texels[16][4];
    D3D12_SHADER_RESOURCE_VIEW_DESC swizzle = srv_desc(DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_SRV_DIMENSION_TEXTURE2D);
    ID3D12Resource *texture;
    float out[16 * 4 * 3 + 8];
    unsigned bad = 0;

    for (unsigned i = 0; i < 16; i++)
        texels[i][0] = (uint8_t)(i * 16), texels[i][1] = (uint8_t)(255 - i * 8), texels[i][2] = (uint8_t)(i * 3), texels[i][3] = 200;
    if (!(texture = create_texture(env, &desc, texels, 4, D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE)))
        return;
    srv(env, texture, NULL, 0);
    swizzle.Shader4ComponentMapping = D3D12_ENCODE_SHADER_4_COMPONENT_MAPPING(2, 1, 0, D3D12_SHADER_COMPONENT_MAPPING_FORCE_VALUE_1);
    srv(env, texture, &swizzle, 1);
    run(env, source, 1, out, sizeof(out));
    for (unsigned i = 0; i < 16; i++) {
        float r = texels[i][0] / 255.0f, g = texels[i][1] / 255.0f, b = texels[i][2] / 255.0f, a = texels[i][3] / 255.0f;
        bad += !close_to(out[i * 4], r) || !close_to(out[i * 4 + 1], g) || !close_to(out[i * 4 + 2], b) || !close_to(out[i * 4 + 3], a);
        bad += !close_to(out[64 + i * 4], b) || !close_to(out[64 + i * 4 + 1], g) || !close_to(out[64 + i * 4 + 2], r)
                || out[64 + i * 4 + 3] != 1.0f;
        bad += !close_to(out[128 + i * 4], r) || !close_to(out[128 + i * 4 + 3], a);
    }
    CHECK_MSG(!bad, "2D RGBA8 loads, swizzled loads and point samples: %u texels wrong", bad);
    {
        const uint32_t *dims = (const uint32_t *)&out[192];
        /* The centre of a 4x4 texture lies between texels 5, 6, 9 and 10: linear filtering averages them. */
        float expected = (texels[5][0] + texels[6][0] + texels[9][0] + texels[10][0]) / 4.0f / 255.0f;
        CHECK_MSG(dims[0] == 4 && dims[1] == 4 && dims[2] == 1, "GetDimensions: %u x %u, %u mips", dims[0], dims[1], dims[2]);
        CHECK_MSG(fabsf(out[196] - expected) < 2.0f / 255.0f, "linear sample at the centre: %f, expected %f", out[196], expected);
    }
    ID3D12Resource_Release(texture);
}

/* Arrays, a 3D texture, a mip range, a typeless family member and a null view, each loaded. */
static void test_dimensions(struct env *env)
{
    static const char source[] =
        "Texture2DArray<float> layers : register(t0);\n"
        "Texture3D<float> volume : register(t1);\n"
        "Texture2D<float> second_mip : register(t2);\n"
        "Texture2D<uint4> raw_bytes : register(t3);\n"
        "Texture2D<float4> nothing : register(t4);\n"
        "Texture1DArray<float> lines : register(t5);\n"
        "RWByteAddressBuffer output : register(u4);\n"
        "[numthreads(1, 1, 1)] void main()\n"
        "{\n"
        "    for (uint i = 0; i < 12; i++)\n"
        "        output.Store(i * 4, asuint(layers.Load(int4(i % 2, (i / 2) % 2, i / 4, 0))));\n"
        "    for (uint j = 0; j < 8; j++)\n"
        "        output.Store(64 + j * 4, asuint(volume.Load(int4(j % 2, (j / 2) % 2, j / 4, 0))));\n"
        "    output.Store(128, asuint(second_mip.Load(int3(1, 0, 0))));\n"
        "    output.Store4(144, raw_bytes.Load(int3(0, 0, 0)));\n"
        "    output.Store4(160, asuint(nothing.Load(int3(0, 0, 0))));\n"
        "    output.Store2(176, asuint(float2(lines.Load(int3(2, 1, 0)), lines.Load(int3(0, 2, 0)))));\n"
        "}\n";
    D3D12_RESOURCE_DESC array_desc = texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R32_FLOAT, 2, 2, 3, 1, 0);
    D3D12_RESOURCE_DESC volume_desc = texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE3D, DXGI_FORMAT_R16_FLOAT, 2, 2, 2, 1, 0);
    D3D12_RESOURCE_DESC mips_desc = texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R32_FLOAT, 4, 2, 1, 2, 0);
    D3D12_RESOURCE_DESC typeless_desc = texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8G8B8A8_TYPELESS, 1, 1, 1, 1, 0);
    D3D12_RESOURCE_DESC lines_desc = texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE1D, DXGI_FORMAT_R32_FLOAT, 3, 1, 3, 1, 0);
    float array_data[12], mip_data[8 + 2], line_data[9];
    uint16_t volume_data[8] = {0x3c00, 0x4000, 0x4200, 0x4400, 0x4500, 0x4600, 0x4700, 0x4800}; /* 1..8 as halves */
    uint8_t bytes[4] = {1, 2, 250, 251};
    ID3D12Resource *array, *volume, *mips, *typeless, *lines;
    D3D12_SHADER_RESOURCE_VIEW_DESC view;
    uint32_t out[48];
    float *f = (float *)out;
    unsigned bad = 0;

    for (unsigned i = 0; i < 12; i++)
        array_data[i] = 10.0f + i;
    for (unsigned i = 0; i < 10; i++)
        mip_data[i] = 100.0f + i;
    for (unsigned i = 0; i < 9; i++)
        line_data[i] = 50.0f + i;
    array = create_texture(env, &array_desc, array_data, 4, D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE);
    volume = create_texture(env, &volume_desc, volume_data, 2, D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE);
    mips = create_texture(env, &mips_desc, mip_data, 4, D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE);
    typeless = create_texture(env, &typeless_desc, bytes, 4, D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE);
    lines = create_texture(env, &lines_desc, line_data, 4, D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE);
    if (!array || !volume || !mips || !typeless || !lines)
        goto done;
    srv(env, array, NULL, 0);
    srv(env, volume, NULL, 1);
    view = srv_desc(DXGI_FORMAT_R32_FLOAT, D3D12_SRV_DIMENSION_TEXTURE2D);
    view.Texture2D.MostDetailedMip = 1;
    view.Texture2D.MipLevels = 1;
    srv(env, mips, &view, 2);
    view = srv_desc(DXGI_FORMAT_R8G8B8A8_UINT, D3D12_SRV_DIMENSION_TEXTURE2D);
    srv(env, typeless, &view, 3);
    view = srv_desc(DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_SRV_DIMENSION_TEXTURE2D);
    srv(env, NULL, &view, 4);
    srv(env, lines, NULL, 5);
    run(env, source, 1, out, sizeof(out));
    for (unsigned i = 0; i < 12; i++)
        bad += f[i] != array_data[i];
    for (unsigned j = 0; j < 8; j++)
        bad += f[16 + j] != (float)(j + 1);
    CHECK_MSG(!bad, "2D array and 3D loads: %u values wrong", bad);
    CHECK_MSG(f[32] == 109.0f, "mip 1 through a MostDetailedMip view: %f, expected 109 (mip 1 is 2x1: 108, 109)", f[32]);
    CHECK_MSG(out[36] == 1 && out[37] == 2 && out[38] == 250 && out[39] == 251, "R8G8B8A8_TYPELESS viewed as UINT: %u %u %u %u",
            out[36], out[37], out[38], out[39]);
    CHECK_MSG(!out[40] && !out[41] && !out[42] && !out[43], "a null SRV reads 0: %08x %08x %08x %08x", out[40], out[41], out[42], out[43]);
    CHECK_MSG(f[44] == 55.0f && f[45] == 56.0f, "1D array loads: %f %f, expected 55 56", f[44], f[45]);
done:
    if (array) ID3D12Resource_Release(array);
    if (volume) ID3D12Resource_Release(volume);
    if (mips) ID3D12Resource_Release(mips);
    if (typeless) ID3D12Resource_Release(typeless);
    if (lines) ID3D12Resource_Release(lines);
}

/* A cube's six faces, each one colour: SampleLevel along each axis reads its face. */
static void test_cube(struct env *env)
{
    static const char source[] =
        "TextureCube<float> cube : register(t0);\n"
        "SamplerState point_sampler : register(s0);\n"
        "RWByteAddressBuffer output : register(u4);\n"
        "[numthreads(1, 1, 1)] void main()\n"
        "{\n"
        "    static const float3 axes[6] = {float3(1, 0, 0), float3(-1, 0, 0), float3(0, 1, 0), float3(0, -1, 0),\n"
        "            float3(0, 0, 1), float3(0, 0, -1)};\n"
        "    for (uint i = 0; i < 6; i++)\n"
        "        output.Store(i * 4, asuint(cube.SampleLevel(point_sampler, axes[i], 0)));\n"
        "}\n";
    D3D12_RESOURCE_DESC desc = texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R32_FLOAT, 2, 2, 6, 1, 0);
    D3D12_SHADER_RESOURCE_VIEW_DESC view = srv_desc(DXGI_FORMAT_R32_FLOAT, D3D12_SRV_DIMENSION_TEXTURECUBE);
    float faces[24], out[6];
    ID3D12Resource *texture;
    unsigned bad = 0;

    for (unsigned i = 0; i < 24; i++)
        faces[i] = (float)(i / 4 + 1);
    if (!(texture = create_texture(env, &desc, faces, 4, D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE)))
        return;
    view.TextureCube.MipLevels = 1;
    srv(env, texture, &view, 0);
    run(env, source, 1, out, sizeof(out));
    for (unsigned i = 0; i < 6; i++)
        bad += out[i] != (float)(i + 1);
    CHECK_MSG(!bad, "cube faces +X -X +Y -Y +Z -Z read %g %g %g %g %g %g, expected 1-6", out[0], out[1], out[2], out[3], out[4], out[5]);
    ID3D12Resource_Release(texture);
}

/* Reads back subresource 0 of a texture (tightly packed rows of texel_bytes texels). */
static void read_subresource(struct env *env, ID3D12Resource *texture, D3D12_RESOURCE_STATES state, UINT subresource, void *out,
        UINT texel_bytes);

static void read_texture(struct env *env, ID3D12Resource *texture, D3D12_RESOURCE_STATES state, void *out, UINT texel_bytes)
{
    read_subresource(env, texture, state, 0, out, texel_bytes);
}

/* Subresource `subresource` of texture (in state), tightly packed into out. */
static void read_subresource(struct env *env, ID3D12Resource *texture, D3D12_RESOURCE_STATES state, UINT subresource, void *out,
        UINT texel_bytes)
{
    D3D12_RESOURCE_DESC desc = ID3D12Resource_GetDesc(texture);
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT layout;
    UINT rows;
    UINT64 total;
    ID3D12Resource *readback;
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    D3D12_RESOURCE_BARRIER barrier;
    uint8_t *mapped = NULL;

    ID3D12Device_GetCopyableFootprints(env->device, &desc, subresource, 1, 0, &layout, &rows, NULL, &total);
    readback = harness_create_buffer(env->device, D3D12_HEAP_TYPE_READBACK, total, D3D12_RESOURCE_STATE_COPY_DEST);
    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    barrier.Transition.pResource = texture;
    barrier.Transition.StateBefore = state;
    barrier.Transition.StateAfter = D3D12_RESOURCE_STATE_COPY_SOURCE;
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    {
        D3D12_TEXTURE_COPY_LOCATION dst = {readback, D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT, {.PlacedFootprint = layout}};
        D3D12_TEXTURE_COPY_LOCATION src = {texture, D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX, {.SubresourceIndex = subresource}};
        ID3D12GraphicsCommandList2_CopyTextureRegion(list.list, &dst, 0, 0, 0, &src, NULL);
    }
    barrier.Transition.StateBefore = D3D12_RESOURCE_STATE_COPY_SOURCE;
    barrier.Transition.StateAfter = state;
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    harness_execute_and_wait(env->device, env->queue, &list);
    CHECK_HR(ID3D12Resource_Map(readback, 0, NULL, (void **)&mapped), S_OK);
    for (UINT r = 0; r < rows; r++)
        memcpy((uint8_t *)out + (size_t)r * layout.Footprint.Width * texel_bytes, mapped + (size_t)r * layout.Footprint.RowPitch,
                (size_t)layout.Footprint.Width * texel_bytes);
    ID3D12Resource_Unmap(readback, 0, NULL);
    ID3D12Resource_Release(readback);
    harness_release_list(&list);
}

static ID3D12Resource *create_uav_texture(struct env *env, DXGI_FORMAT format, UINT width, UINT height)
{
    D3D12_RESOURCE_DESC desc = texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, format, width, height, 1, 1,
            D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS);
    D3D12_HEAP_PROPERTIES heap = {D3D12_HEAP_TYPE_DEFAULT, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    ID3D12Resource *texture = NULL;
    CHECK_HR(ID3D12Device_CreateCommittedResource(env->device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_UNORDERED_ACCESS,
            NULL, &IID_ID3D12Resource, (void **)&texture), S_OK);
    return texture;
}

/* RWTexture2D stores through views whose formats differ from the shader's element type (the
 * view decides), then clears of whole views. */
static void test_uavs(struct env *env)
{
    static const char source[] =
        "RWTexture2D<float4> colours : register(u0);\n"
        "RWTexture2D<uint> bytes : register(u1);\n"
        "RWByteAddressBuffer output : register(u4);\n"
        "[numthreads(8, 1, 1)] void main(uint3 id : SV_DispatchThreadID)\n"
        "{\n"
        "    uint2 xy = uint2(id.x % 4, id.x / 4);\n"
        "    colours[xy] = float4(xy.x / 4.0, xy.y / 2.0, 1.0, 0.25);\n"
        "    bytes[xy] = id.x * 30 + 7;\n"
        "    output.Store(0, 1);\n"
        "}\n";
    ID3D12Resource *colours = create_uav_texture(env, DXGI_FORMAT_R8G8B8A8_UNORM, 4, 2), *bytes = create_uav_texture(env, DXGI_FORMAT_R8_UINT, 4, 2);
    uint8_t colour_out[8][4], byte_out[8];
    uint32_t out;
    unsigned bad = 0;
    LOG_MARK();

    if (!colours || !bytes)
        goto done;
    ID3D12Device_CreateUnorderedAccessView(env->device, colours, NULL, NULL, cpu_at(env, SRV_SLOTS));
    ID3D12Device_CreateUnorderedAccessView(env->device, bytes, NULL, NULL, cpu_at(env, SRV_SLOTS + 1));
    CHECK_NO_LOG();
    run(env, source, 1, &out, sizeof(out));
    read_texture(env, colours, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, colour_out, 4);
    read_texture(env, bytes, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, byte_out, 1);
    for (unsigned i = 0; i < 8; i++) {
        unsigned x = i % 4, y = i / 4;
        uint8_t expected[4] = {(uint8_t)lrintf(x / 4.0f * 255), (uint8_t)lrintf(y / 2.0f * 255), 255, (uint8_t)lrintf(0.25f * 255)};
        bad += abs(colour_out[i][0] - expected[0]) > 1 || abs(colour_out[i][1] - expected[1]) > 1 || colour_out[i][2] != 255
                || abs(colour_out[i][3] - expected[3]) > 1;
        bad += byte_out[i] != (uint8_t)(i * 30 + 7);
    }
    CHECK_MSG(!bad, "RWTexture2D<float4> into RGBA8_UNORM and RWTexture2D<uint> into R8_UINT: %u texels wrong", bad);

    /* Whole-view clears: Float for the UNORM view, Uint for the integer one. */
    {
        struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        ID3D12DescriptorHeap *heaps[1] = {env->views};
        D3D12_GPU_DESCRIPTOR_HANDLE gpu = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(env->views);
        const FLOAT grey[4] = {0.5f, 0.0f, 1.0f, 1.0f};
        const UINT nine[4] = {9, 0, 0, 0};
        ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, heaps);
        ID3D12GraphicsCommandList2_ClearUnorderedAccessViewFloat(list.list, gpu, cpu_at(env, SRV_SLOTS), colours, grey, 0, NULL);
        ID3D12GraphicsCommandList2_ClearUnorderedAccessViewUint(list.list, gpu, cpu_at(env, SRV_SLOTS + 1), bytes, nine, 0, NULL);
        harness_execute_and_wait(env->device, env->queue, &list);
        harness_release_list(&list);
        read_texture(env, colours, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, colour_out, 4);
        read_texture(env, bytes, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, byte_out, 1);
        bad = 0;
        for (unsigned i = 0; i < 8; i++)
            bad += abs(colour_out[i][0] - 128) > 1 || colour_out[i][1] || colour_out[i][2] != 255 || colour_out[i][3] != 255 || byte_out[i] != 9;
        CHECK_MSG(!bad, "ClearUnorderedAccessViewFloat/Uint of texture UAVs: %u texels wrong", bad);
        CHECK_NO_LOG();
    }
    /* A Uint clear of a UNORM view writes the low bits of each value, unconverted (D3D12's rule;
     * test_uav_clear_formats has every format). */
    {
        struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        ID3D12DescriptorHeap *heaps[1] = {env->views};
        const UINT bits[4] = {9, 0x1ff, 0x80, 0x12345604};
        D3D12_GPU_DESCRIPTOR_HANDLE gpu = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(env->views);
        ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, heaps);
        ID3D12GraphicsCommandList2_ClearUnorderedAccessViewUint(list.list, gpu, cpu_at(env, SRV_SLOTS), colours, bits, 0, NULL);
        harness_execute_and_wait(env->device, env->queue, &list);
        harness_release_list(&list);
        read_texture(env, colours, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, colour_out, 4);
        bad = 0;
        for (unsigned i = 0; i < 8; i++)
            bad += colour_out[i][0] != 9 || colour_out[i][1] != 0xff || colour_out[i][2] != 0x80 || colour_out[i][3] != 4;
        CHECK_MSG(!bad, "ClearUnorderedAccessViewUint of an RGBA8_UNORM view: %u texels wrong (%02x %02x %02x %02x)", bad,
                colour_out[0][0], colour_out[0][1], colour_out[0][2], colour_out[0][3]);
        CHECK_NO_LOG();
    }
done:
    if (colours) ID3D12Resource_Release(colours);
    if (bytes) ID3D12Resource_Release(bytes);
}

/* UAV clears of rectangles: each rectangle of each slice of the view (clipped to its mip) takes
 * the value, everything else keeps what it held. The textures are CPU-accessible, so every
 * subresource is written and checked from the CPU. */
static void clear_and_check(struct env *env, ID3D12Resource *texture, const D3D12_UNORDERED_ACCESS_VIEW_DESC *view, bool use_float,
        const void *values, const D3D12_RECT *rects, UINT rect_count, UINT texel_bytes, const uint8_t *cleared_texel, const char *what)
{
    D3D12_RESOURCE_DESC desc = ID3D12Resource_GetDesc(texture);
    UINT layers = desc.Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE3D ? 1 : desc.DepthOrArraySize, count = desc.MipLevels * layers;
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    D3D12_GPU_DESCRIPTOR_HANDLE gpu = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(env->views);
    ID3D12DescriptorHeap *heaps[1] = {env->views};
    UINT view_mip = desc.Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE3D ? view->Texture3D.MipSlice : view->Texture2DArray.MipSlice;
    UINT first = view->Texture2DArray.FirstArraySlice, slices = view->Texture2DArray.ArraySize;
    unsigned bad = 0, changed = 0;

    if (desc.Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE3D)
        first = 0, slices = 1;
    for (UINT s = 0; s < count; s++) {
        UINT mip = s % desc.MipLevels, width = (UINT)(desc.Width >> mip), height = desc.Height >> mip, depth = 1;
        if (desc.Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE3D)
            depth = desc.DepthOrArraySize >> mip ? desc.DepthOrArraySize >> mip : 1;
        uint8_t *data = malloc((size_t)width * height * depth * texel_bytes);
        for (size_t i = 0; i < (size_t)width * height * depth * texel_bytes; i++)
            data[i] = (uint8_t)(i * 7 + s * 31 + 1);
        CHECK_HR(ID3D12Resource_WriteToSubresource(texture, s, NULL, data, width * texel_bytes, width * height * texel_bytes), S_OK);
        free(data);
    }
    ID3D12Device_CreateUnorderedAccessView(env->device, texture, NULL, view, cpu_at(env, SRV_SLOTS + 2));
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, heaps);
    if (use_float)
        ID3D12GraphicsCommandList2_ClearUnorderedAccessViewFloat(list.list, gpu, cpu_at(env, SRV_SLOTS + 2), texture, values, rect_count, rects);
    else
        ID3D12GraphicsCommandList2_ClearUnorderedAccessViewUint(list.list, gpu, cpu_at(env, SRV_SLOTS + 2), texture, values, rect_count, rects);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);

    for (UINT s = 0; s < count; s++) {
        UINT mip = s % desc.MipLevels, layer = s / desc.MipLevels, width = (UINT)(desc.Width >> mip), height = desc.Height >> mip, depth = 1;
        if (desc.Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE3D)
            depth = desc.DepthOrArraySize >> mip ? desc.DepthOrArraySize >> mip : 1;
        uint8_t *data = malloc((size_t)width * height * depth * texel_bytes);
        CHECK_HR(ID3D12Resource_ReadFromSubresource(texture, data, width * texel_bytes, width * height * texel_bytes, s, NULL), S_OK);
        for (UINT z = 0; z < depth; z++)
            for (UINT y = 0; y < height; y++)
                for (UINT x = 0; x < width; x++) {
                    size_t at = (((size_t)z * height + y) * width + x) * texel_bytes;
                    bool inside = false;
                    for (UINT r = 0; r < rect_count && mip == view_mip && layer >= first && layer < first + slices; r++)
                        inside |= (LONG)x >= rects[r].left && (LONG)x < rects[r].right && (LONG)y >= rects[r].top && (LONG)y < rects[r].bottom;
                    for (UINT b = 0; b < texel_bytes; b++) {
                        uint8_t original = (uint8_t)(at + b) * 7 + s * 31 + 1;
                        uint8_t expected = inside ? cleared_texel[b] : original;
                        bad += data[at + b] != expected;
                    }
                    changed += inside;
                }
        free(data);
    }
    CHECK_MSG(!bad, "%s: %u bytes wrong", what, bad);
    CHECK_MSG(changed > 0, "%s: no texel lies in the rectangles (the test checks nothing)", what);
}

static void test_uav_clear_rects(struct env *env)
{
    D3D12_HEAP_PROPERTIES cpu_heap = {D3D12_HEAP_TYPE_CUSTOM, D3D12_CPU_PAGE_PROPERTY_WRITE_BACK, D3D12_MEMORY_POOL_L0, 1, 1};
    D3D12_RESOURCE_DESC array = texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R32_UINT, 16, 8, 3, 2,
            D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS);
    D3D12_RESOURCE_DESC volume = texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE3D, DXGI_FORMAT_R16G16B16A16_FLOAT, 8, 8, 4, 1,
            D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS);
    /* Inside, past the right edge, from negative coordinates, and an empty one. */
    const D3D12_RECT array_rects[] = {{1, 1, 3, 3}, {6, 0, 20, 2}, {-2, 3, 1, 10}, {5, 5, 5, 6}};
    const D3D12_RECT volume_rects[] = {{2, 2, 5, 7}};
    const UINT value[4] = {0xabc, 1, 2, 3};
    const uint8_t value_bytes[4] = {0xbc, 0x0a, 0, 0};
    const FLOAT colour[4] = {0.5f, 0.25f, -1.0f, 2.0f};
    const uint8_t half_bytes[8] = {0x00, 0x38, 0x00, 0x34, 0x00, 0xbc, 0x00, 0x40};
    D3D12_UNORDERED_ACCESS_VIEW_DESC view;
    ID3D12Resource *texture = NULL;
    LOG_MARK();

    CHECK_HR(ID3D12Device_CreateCommittedResource(env->device, &cpu_heap, D3D12_HEAP_FLAG_NONE, &array, D3D12_RESOURCE_STATE_UNORDERED_ACCESS,
            NULL, &IID_ID3D12Resource, (void **)&texture), S_OK);
    if (texture) {
        memset(&view, 0, sizeof(view));
        view.Format = DXGI_FORMAT_R32_UINT;
        view.ViewDimension = D3D12_UAV_DIMENSION_TEXTURE2DARRAY;
        view.Texture2DArray.MipSlice = 1;
        view.Texture2DArray.FirstArraySlice = 1;
        view.Texture2DArray.ArraySize = 2;
        clear_and_check(env, texture, &view, false, value, array_rects, 4, 4, value_bytes, "Uint clear of 4 rectangles, mip 1, slices 1-2");
        ID3D12Resource_Release(texture);
        texture = NULL;
    }
    CHECK_HR(ID3D12Device_CreateCommittedResource(env->device, &cpu_heap, D3D12_HEAP_FLAG_NONE, &volume, D3D12_RESOURCE_STATE_UNORDERED_ACCESS,
            NULL, &IID_ID3D12Resource, (void **)&texture), S_OK);
    if (texture) {
        memset(&view, 0, sizeof(view));
        view.Format = DXGI_FORMAT_R16G16B16A16_FLOAT;
        view.ViewDimension = D3D12_UAV_DIMENSION_TEXTURE3D;
        view.Texture3D.WSize = UINT_MAX;
        clear_and_check(env, texture, &view, true, colour, volume_rects, 1, 8, half_bytes, "Float clear of a rectangle through a 3D view");
        ID3D12Resource_Release(texture);
    }
    CHECK_NO_LOG();

    /* NumRects without pRects is the list's error. */
    {
        struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        D3D12_GPU_DESCRIPTOR_HANDLE gpu = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(env->views);
        ID3D12Resource *plain = create_uav_texture(env, DXGI_FORMAT_R32_UINT, 4, 4);
        if (plain) {
            ID3D12Device_CreateUnorderedAccessView(env->device, plain, NULL, NULL, cpu_at(env, SRV_SLOTS + 2));
            ID3D12GraphicsCommandList2_ClearUnorderedAccessViewUint(list.list, gpu, cpu_at(env, SRV_SLOTS + 2), plain, value, 2, NULL);
            CHECK_LOG("ClearUnorderedAccessViewUint", "pRects is NULL");
            RELOG_MARK();
            CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
            CHECK_LOG("Close", "ClearUnorderedAccessViewUint");
            ID3D12Resource_Release(plain);
        }
        harness_release_list(&list);
    }
}

/* Each rule a view breaks: one line naming it; the slot keeps what it held. */
static void test_bad_views(struct env *env)
{
    D3D12_RESOURCE_DESC desc = texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8G8B8A8_UNORM, 8, 4, 2, 2, 0);
    D3D12_HEAP_PROPERTIES heap = {D3D12_HEAP_TYPE_DEFAULT, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    D3D12_SHADER_RESOURCE_VIEW_DESC view;
    D3D12_UNORDERED_ACCESS_VIEW_DESC uav;
    ID3D12Resource *texture = NULL, *volume = NULL;
    LOG_MARK();

    CHECK_HR(ID3D12Device_CreateCommittedResource(env->device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON, NULL,
            &IID_ID3D12Resource, (void **)&texture), S_OK);
    desc = texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE3D, DXGI_FORMAT_R32_FLOAT, 4, 4, 4, 1, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS);
    CHECK_HR(ID3D12Device_CreateCommittedResource(env->device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON, NULL,
            &IID_ID3D12Resource, (void **)&volume), S_OK);
    if (!texture || !volume)
        goto done;
    RELOG_MARK();

    view = srv_desc(DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_SRV_DIMENSION_TEXTURE2DARRAY);
    view.Texture2DArray.MostDetailedMip = 2;
    ID3D12Device_CreateShaderResourceView(env->device, texture, &view, cpu_at(env, 6));
    CHECK_LOG("CreateShaderResourceView", "mips 2");
    RELOG_MARK();
    view = srv_desc(DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_SRV_DIMENSION_TEXTURE2DARRAY);
    view.Texture2DArray.FirstArraySlice = 1;
    view.Texture2DArray.ArraySize = 2;
    ID3D12Device_CreateShaderResourceView(env->device, texture, &view, cpu_at(env, 6));
    CHECK_LOG("CreateShaderResourceView", "array slices 1");
    RELOG_MARK();
    view = srv_desc(DXGI_FORMAT_R8G8B8A8_UINT, D3D12_SRV_DIMENSION_TEXTURE2D);
    ID3D12Device_CreateShaderResourceView(env->device, texture, &view, cpu_at(env, 6));
    CHECK_LOG("CreateShaderResourceView", "Format", "cannot view");
    RELOG_MARK();
    view = srv_desc(DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_SRV_DIMENSION_TEXTURE3D);
    ID3D12Device_CreateShaderResourceView(env->device, texture, &view, cpu_at(env, 6));
    CHECK_LOG("CreateShaderResourceView", "views a TEXTURE3D", "is a TEXTURE2D");
    RELOG_MARK();
    view = srv_desc(DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_SRV_DIMENSION_TEXTURECUBE);
    ID3D12Device_CreateShaderResourceView(env->device, texture, &view, cpu_at(env, 6));
    CHECK_LOG("CreateShaderResourceView", "cube view");
    RELOG_MARK();
    view = srv_desc(DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_SRV_DIMENSION_TEXTURE2D);
    view.Shader4ComponentMapping = 0x688;
    ID3D12Device_CreateShaderResourceView(env->device, texture, &view, cpu_at(env, 6));
    CHECK_LOG("CreateShaderResourceView", "Shader4ComponentMapping");
    RELOG_MARK();
    ID3D12Device_CreateUnorderedAccessView(env->device, texture, NULL, NULL, cpu_at(env, SRV_SLOTS + 2));
    CHECK_LOG("CreateUnorderedAccessView", "ALLOW_UNORDERED_ACCESS");
    RELOG_MARK();
    memset(&uav, 0, sizeof(uav));
    uav.Format = DXGI_FORMAT_R32_FLOAT;
    uav.ViewDimension = D3D12_UAV_DIMENSION_TEXTURE3D;
    /* W slices past the mip's depth, or none (test_sliced_3d_uavs has the ranges that work) */
    uav.Texture3D.FirstWSlice = 3;
    uav.Texture3D.WSize = 2;
    ID3D12Device_CreateUnorderedAccessView(env->device, volume, NULL, &uav, cpu_at(env, SRV_SLOTS + 2));
    CHECK_LOG("CreateUnorderedAccessView", "W slices 3 (+2)", "4 deep");
    RELOG_MARK();
    uav.Texture3D.FirstWSlice = 4;
    uav.Texture3D.WSize = UINT32_MAX;
    ID3D12Device_CreateUnorderedAccessView(env->device, volume, NULL, &uav, cpu_at(env, SRV_SLOTS + 2));
    CHECK_LOG("CreateUnorderedAccessView", "W slices 4 (+-1)", "4 deep");
    RELOG_MARK();
    uav.Texture3D.FirstWSlice = 1;
    uav.Texture3D.WSize = 0;
    ID3D12Device_CreateUnorderedAccessView(env->device, volume, NULL, &uav, cpu_at(env, SRV_SLOTS + 2));
    CHECK_LOG("CreateUnorderedAccessView", "W slices 1 (+0)");
    RELOG_MARK();
    uav.Texture3D.FirstWSlice = 0;
    uav.Texture3D.WSize = UINT32_MAX;
    ID3D12Device_CreateUnorderedAccessView(env->device, volume, NULL, &uav, cpu_at(env, SRV_SLOTS + 2));
    CHECK_NO_LOG();
done:
    if (texture) ID3D12Resource_Release(texture);
    if (volume) ID3D12Resource_Release(volume);
}

/* A render-target texture (committed, in RENDER_TARGET) and an RTV heap slot for it. */
static ID3D12Resource *create_render_target(struct env *env, DXGI_FORMAT format, UINT width, UINT height, UINT samples)
{
    D3D12_RESOURCE_DESC desc = texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, format, width, height, 1, 1,
            D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET);
    D3D12_HEAP_PROPERTIES heap = {D3D12_HEAP_TYPE_DEFAULT, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    ID3D12Resource *texture = NULL;
    desc.SampleDesc.Count = samples;
    CHECK_HR(ID3D12Device_CreateCommittedResource(env->device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_RENDER_TARGET,
            NULL, &IID_ID3D12Resource, (void **)&texture), S_OK);
    return texture;
}

/* Clears the view at rtv of texture (whole with first, then rects with second when given) on a
 * DIRECT list, leaving it in RENDER_TARGET. */
static void clear_render_target(struct env *env, D3D12_CPU_DESCRIPTOR_HANDLE rtv, const float first[4], const float second[4],
        UINT rect_count, const D3D12_RECT *rects)
{
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    LOG_MARK();
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, rtv, first, 0, NULL);
    if (second)
        ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, rtv, second, rect_count, rects);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    CHECK_NO_LOG();
}

/* ClearRenderTargetView: the value in the view's format (UNORM, an sRGB view of a typeless
 * texture, integers), rectangles clipped to the view, and every sample of a multisampled texture
 * as Texture2DMS.Load reads them. */
static void test_render_targets(struct env *env)
{
    static const float grey[4] = {0.25f, 0.5f, 0.75f, 1.0f}, green[4] = {0, 1, 0, 1};
    static const D3D12_RECT rects[2] = {{1, 1, 3, 3}, {6, 6, 20, 20}};
    ID3D12DescriptorHeap *rtvs = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 4);
    D3D12_CPU_DESCRIPTOR_HANDLE rtv;
    D3D12_RENDER_TARGET_VIEW_DESC view;
    ID3D12Resource *texture;
    uint8_t texels[8 * 8 * 4];

    if (!rtvs)
        return;
    rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(rtvs);

    /* UNORM, whole then two rectangles (the second clipped to the 8x8 view) */
    if ((texture = create_render_target(env, DXGI_FORMAT_R8G8B8A8_UNORM, 8, 8, 1))) {
        ID3D12Device_CreateRenderTargetView(env->device, texture, NULL, rtv);
        clear_render_target(env, rtv, grey, green, 2, rects);
        read_texture(env, texture, D3D12_RESOURCE_STATE_RENDER_TARGET, texels, 4);
        for (UINT y = 0; y < 8; y++) {
            for (UINT x = 0; x < 8; x++) {
                const uint8_t *t = &texels[(y * 8 + x) * 4];
                bool in_rect = (x >= 1 && x < 3 && y >= 1 && y < 3) || (x >= 6 && y >= 6);
                uint8_t expect[4] = {64, 128, 191, 255};
                if (in_rect)
                    expect[0] = 0, expect[1] = 255, expect[2] = 0;
                CHECK_MSG(abs(t[0] - expect[0]) <= 1 && abs(t[1] - expect[1]) <= 1 && abs(t[2] - expect[2]) <= 1 && t[3] == expect[3],
                        "texel (%u, %u) is %u %u %u %u", x, y, t[0], t[1], t[2], t[3]);
            }
        }
        ID3D12Resource_Release(texture);
    }

    /* an sRGB view of a typeless texture stores 0.5 encoded (188), a UNORM view as 128 */
    if ((texture = create_render_target(env, DXGI_FORMAT_R8G8B8A8_TYPELESS, 8, 8, 1))) {
        static const float half[4] = {0.5f, 0.5f, 0.5f, 0.5f};
        memset(&view, 0, sizeof(view));
        view.Format = DXGI_FORMAT_R8G8B8A8_UNORM_SRGB;
        view.ViewDimension = D3D12_RTV_DIMENSION_TEXTURE2D;
        ID3D12Device_CreateRenderTargetView(env->device, texture, &view, rtv);
        clear_render_target(env, rtv, half, NULL, 0, NULL);
        read_texture(env, texture, D3D12_RESOURCE_STATE_RENDER_TARGET, texels, 4);
        CHECK_MSG(abs(texels[0] - 188) <= 1 && abs(texels[2] - 188) <= 1 && abs(texels[3] - 128) <= 1,
                "an sRGB clear of 0.5 stored %u %u %u %u (188 188 188 128)", texels[0], texels[1], texels[2], texels[3]);
        view.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
        ID3D12Device_CreateRenderTargetView(env->device, texture, &view, rtv);
        clear_render_target(env, rtv, half, NULL, 0, NULL);
        read_texture(env, texture, D3D12_RESOURCE_STATE_RENDER_TARGET, texels, 4);
        CHECK_MSG(abs(texels[0] - 128) <= 1, "a UNORM clear of 0.5 stored %u (128)", texels[0]);
        ID3D12Resource_Release(texture);
    }

    /* an integer format takes the floats as integers */
    if ((texture = create_render_target(env, DXGI_FORMAT_R32_UINT, 4, 4, 1))) {
        static const float seven[4] = {7.0f, 0, 0, 0};
        uint32_t words[16];
        ID3D12Device_CreateRenderTargetView(env->device, texture, NULL, rtv);
        clear_render_target(env, rtv, seven, NULL, 0, NULL);
        read_texture(env, texture, D3D12_RESOURCE_STATE_RENDER_TARGET, words, 4);
        CHECK_MSG(words[0] == 7 && words[15] == 7, "an R32_UINT clear of 7.0 stored %u and %u", words[0], words[15]);
        ID3D12Resource_Release(texture);
    }

    /* 4 samples: the left half cleared again; Texture2DMS.Load reads each sample of (0, 1) and
     * (3, 2), and GetDimensions the size and sample count */
    {
        D3D12_FEATURE_DATA_MULTISAMPLE_QUALITY_LEVELS quality = {DXGI_FORMAT_R32G32B32A32_FLOAT, 4,
                D3D12_MULTISAMPLE_QUALITY_LEVELS_FLAG_NONE, 0};
        static const float first[4] = {1, 2, 3, 4}, second[4] = {5, 6, 7, 8};
        static const D3D12_RECT left = {0, 0, 2, 4};
        D3D12_SHADER_RESOURCE_VIEW_DESC srv_view = srv_desc(DXGI_FORMAT_R32G32B32A32_FLOAT, D3D12_SRV_DIMENSION_TEXTURE2DMS);
        float out[2 * 4 * 4 + 4];
        CHECK_HR(ID3D12Device_CheckFeatureSupport(env->device, D3D12_FEATURE_MULTISAMPLE_QUALITY_LEVELS, &quality, sizeof(quality)), S_OK);
        if (quality.NumQualityLevels && (texture = create_render_target(env, DXGI_FORMAT_R32G32B32A32_FLOAT, 4, 4, 4))) {
            D3D12_RESOURCE_BARRIER barrier = {D3D12_RESOURCE_BARRIER_TYPE_TRANSITION, 0, {.Transition = {texture,
                    D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES, D3D12_RESOURCE_STATE_RENDER_TARGET,
                    D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE}}};
            struct harness_list list;
            ID3D12Device_CreateRenderTargetView(env->device, texture, NULL, rtv);
            clear_render_target(env, rtv, first, second, 1, &left);
            list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
            ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
            harness_execute_and_wait(env->device, env->queue, &list);
            harness_release_list(&list);
            srv(env, texture, &srv_view, 0);
            run(env,
                "Texture2DMS<float4> t : register(t0);\n"
                "RWByteAddressBuffer o : register(u4);\n"
                "[numthreads(4, 1, 1)] void main(uint3 id : SV_DispatchThreadID)\n"
                "{\n"
                "    uint w, h, n;\n"
                "    o.Store4(id.x * 16, asuint(t.Load(int2(0, 1), id.x)));\n"
                "    o.Store4(64 + id.x * 16, asuint(t.Load(int2(3, 2), id.x)));\n"
                "    t.GetDimensions(w, h, n);\n"
                "    if (!id.x) o.Store3(128, uint3(w, h, n));\n"
                "}\n", 1, out, sizeof(out));
            for (UINT i = 0; i < 4; i++) {
                CHECK_MSG(out[i * 4] == 5 && out[i * 4 + 3] == 8, "sample %u of (0, 1) is %g .. %g (5 .. 8)", i, out[i * 4], out[i * 4 + 3]);
                CHECK_MSG(out[16 + i * 4] == 1 && out[16 + i * 4 + 3] == 4, "sample %u of (3, 2) is %g .. %g (1 .. 4)", i,
                        out[16 + i * 4], out[16 + i * 4 + 3]);
            }
            {
                uint32_t dimensions[3];
                memcpy(dimensions, &out[32], sizeof(dimensions));
                CHECK_MSG(dimensions[0] == 4 && dimensions[1] == 4 && dimensions[2] == 4, "GetDimensions gave %u x %u, %u samples",
                        dimensions[0], dimensions[1], dimensions[2]);
            }
            ID3D12Resource_Release(texture);
        }
    }
    ID3D12DescriptorHeap_Release(rtvs);
}

/* A depth-stencil texture (committed, in DEPTH_WRITE), or NULL where the device cannot make one. */
static ID3D12Resource *create_depth_buffer(struct env *env, DXGI_FORMAT format, UINT width, UINT height)
{
    D3D12_FEATURE_DATA_FORMAT_SUPPORT support = {format, 0, 0};
    D3D12_RESOURCE_DESC desc = texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, format, width, height, 1, 1,
            D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL);
    D3D12_HEAP_PROPERTIES heap = {D3D12_HEAP_TYPE_DEFAULT, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    ID3D12Resource *texture = NULL;
    CHECK_HR(ID3D12Device_CheckFeatureSupport(env->device, D3D12_FEATURE_FORMAT_SUPPORT, &support, sizeof(support)), S_OK);
    if (!(support.Support1 & D3D12_FORMAT_SUPPORT1_DEPTH_STENCIL))
        return NULL;
    CHECK_HR(ID3D12Device_CreateCommittedResource(env->device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_DEPTH_WRITE,
            NULL, &IID_ID3D12Resource, (void **)&texture), S_OK);
    return texture;
}

/* ClearDepthStencilView: depth whole then in a rectangle (D32_FLOAT), depth and stencil together
 * then stencil alone in a rectangle (D24_UNORM_S8_UINT, read back plane by plane). */
static void test_depth_stencil(struct env *env)
{
    static const D3D12_RECT left = {0, 0, 4, 8}, corner = {0, 0, 2, 2};
    ID3D12DescriptorHeap *dsvs = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_DSV, 1);
    D3D12_CPU_DESCRIPTOR_HANDLE dsv;
    struct harness_list list;
    ID3D12Resource *texture;

    if (!dsvs)
        return;
    dsv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(dsvs);
    if ((texture = create_depth_buffer(env, DXGI_FORMAT_D32_FLOAT, 8, 8))) {
        float depths[64];
        LOG_MARK();
        ID3D12Device_CreateDepthStencilView(env->device, texture, NULL, dsv);
        list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        ID3D12GraphicsCommandList2_ClearDepthStencilView(list.list, dsv, D3D12_CLEAR_FLAG_DEPTH, 0.75f, 0, 0, NULL);
        ID3D12GraphicsCommandList2_ClearDepthStencilView(list.list, dsv, D3D12_CLEAR_FLAG_DEPTH, 0.25f, 0, 1, &left);
        harness_execute_and_wait(env->device, env->queue, &list);
        harness_release_list(&list);
        CHECK_NO_LOG();
        read_texture(env, texture, D3D12_RESOURCE_STATE_DEPTH_WRITE, depths, 4);
        for (UINT i = 0; i < 64; i++)
            CHECK_MSG(depths[i] == (i % 8 < 4 ? 0.25f : 0.75f), "depth %u is %g", i, depths[i]);
        ID3D12Resource_Release(texture);
    }
    if ((texture = create_depth_buffer(env, DXGI_FORMAT_D24_UNORM_S8_UINT, 4, 4))) {
        uint32_t depth_words[16];
        uint8_t stencils[16];
        LOG_MARK();
        ID3D12Device_CreateDepthStencilView(env->device, texture, NULL, dsv);
        list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        ID3D12GraphicsCommandList2_ClearDepthStencilView(list.list, dsv, D3D12_CLEAR_FLAG_DEPTH | D3D12_CLEAR_FLAG_STENCIL, 0.5f, 7, 0, NULL);
        ID3D12GraphicsCommandList2_ClearDepthStencilView(list.list, dsv, D3D12_CLEAR_FLAG_STENCIL, 0.0f, 9, 1, &corner);
        harness_execute_and_wait(env->device, env->queue, &list);
        harness_release_list(&list);
        CHECK_NO_LOG();
        read_subresource(env, texture, D3D12_RESOURCE_STATE_DEPTH_WRITE, 0, depth_words, 4);
        read_subresource(env, texture, D3D12_RESOURCE_STATE_DEPTH_WRITE, 1, stencils, 1);
        for (UINT i = 0; i < 16; i++) {
            uint32_t d24 = depth_words[i] & 0xffffff;
            CHECK_MSG(d24 >= 0x7fffff && d24 <= 0x800000, "depth %u is 0x%06x (0.5 of 0xffffff)", i, d24);
            CHECK_MSG(stencils[i] == (i % 4 < 2 && i / 4 < 2 ? 9 : 7), "stencil %u is %u", i, stencils[i]);
        }
        ID3D12Resource_Release(texture);
    }
    ID3D12DescriptorHeap_Release(dsvs);
}

/* The depth-stencil rules, each with its line: a texture without ALLOW_DEPTH_STENCIL, no clear
 * flags, a depth outside [0, 1], a stencil clear of a format without one, a read-only plane. */
static void test_bad_depth_stencil(struct env *env)
{
    ID3D12DescriptorHeap *dsvs = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_DSV, 2);
    ID3D12Resource *plain = create_uav_texture(env, DXGI_FORMAT_R32_FLOAT, 4, 4), *texture;
    static const struct {
        D3D12_CLEAR_FLAGS flags;
        float depth;
        bool read_only;
        const char *needle;
    } cases[] = {
        {0, 0.5f, false, "ClearFlags is 0x0"},
        {D3D12_CLEAR_FLAG_DEPTH, 1.5f, false, "Depth is 1.5"},
        {D3D12_CLEAR_FLAG_STENCIL, 0.5f, false, "has no stencil"},
        {D3D12_CLEAR_FLAG_DEPTH, 0.5f, true, "read-only"},
    };
    D3D12_DEPTH_STENCIL_VIEW_DESC read_only = {DXGI_FORMAT_D32_FLOAT, D3D12_DSV_DIMENSION_TEXTURE2D, D3D12_DSV_FLAG_READ_ONLY_DEPTH,
            {.Texture2D = {0}}};
    D3D12_CPU_DESCRIPTOR_HANDLE dsv[2];

    if (!dsvs || !plain)
        goto done;
    dsv[0] = dsv[1] = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(dsvs);
    dsv[1].ptr += ID3D12Device_GetDescriptorHandleIncrementSize(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_DSV);
    LOG_MARK();
    ID3D12Device_CreateDepthStencilView(env->device, plain, NULL, dsv[0]);
    CHECK_LOG("CreateDepthStencilView", "ALLOW_DEPTH_STENCIL");
    if ((texture = create_depth_buffer(env, DXGI_FORMAT_D32_FLOAT, 4, 4))) {
        D3D12_DEPTH_STENCIL_VIEW_DESC bad = read_only;
        bad.Flags = 0x4;
        RELOG_MARK();
        ID3D12Device_CreateDepthStencilView(env->device, texture, &bad, dsv[0]);
        CHECK_LOG("CreateDepthStencilView", "pDesc->Flags is 0x4");
        bad.Flags = 0;
        bad.Format = DXGI_FORMAT_R32_FLOAT;
        RELOG_MARK();
        ID3D12Device_CreateDepthStencilView(env->device, texture, &bad, dsv[0]);
        CHECK_LOG("CreateDepthStencilView", "not a depth-stencil format");
        ID3D12Device_CreateDepthStencilView(env->device, texture, NULL, dsv[0]);
        ID3D12Device_CreateDepthStencilView(env->device, texture, &read_only, dsv[1]);
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
            struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
            RELOG_MARK();
            ID3D12GraphicsCommandList2_ClearDepthStencilView(list.list, dsv[cases[i].read_only], cases[i].flags, cases[i].depth, 0, 0, NULL);
            CHECK_LOG("ClearDepthStencilView", cases[i].needle);
            RELOG_MARK();
            CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
            CHECK_LOG("Close", "ClearDepthStencilView");
            harness_release_list(&list);
        }
        ID3D12Resource_Release(texture);
    }
done:
    if (plain)
        ID3D12Resource_Release(plain);
    if (dsvs)
        ID3D12DescriptorHeap_Release(dsvs);
}

/* A ClearRenderTargetView of rtv with color (NULL too) on a list of this type logs needle, and
 * Close refuses the list. */
static void check_refused_clear(struct env *env, D3D12_COMMAND_LIST_TYPE type, D3D12_CPU_DESCRIPTOR_HANDLE rtv, const float *color,
        const char *needle)
{
    struct harness_list list = harness_create_list(env->device, type);
    LOG_MARK();
    ID3D12GraphicsCommandList2_ClearRenderTargetView(list.list, rtv, color, 0, NULL);
    CHECK_LOG("ClearRenderTargetView", needle);
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
    CHECK_LOG("Close", "ClearRenderTargetView");
    harness_release_list(&list);
}

/* The render-target rules, each with its line: a texture without ALLOW_RENDER_TARGET, a handle
 * outside an RTV heap, a clear on a COMPUTE list (refused at Close). */
static void test_bad_render_targets(struct env *env)
{
    static const float zero[4] = {0};
    ID3D12DescriptorHeap *rtvs = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1);
    ID3D12Resource *plain = create_uav_texture(env, DXGI_FORMAT_R8G8B8A8_UNORM, 4, 4), *target;
    D3D12_CPU_DESCRIPTOR_HANDLE rtv;

    if (!rtvs || !plain)
        goto done;
    rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(rtvs);
    LOG_MARK();
    ID3D12Device_CreateRenderTargetView(env->device, plain, NULL, rtv);
    CHECK_LOG("CreateRenderTargetView", "ALLOW_RENDER_TARGET");
    RELOG_MARK();
    ID3D12Device_CreateRenderTargetView(env->device, plain, NULL, cpu_at(env, 0));
    CHECK_LOG("CreateRenderTargetView", "DestDescriptor", "another type");
    RELOG_MARK();
    ID3D12Device_CreateRenderTargetView(env->device, NULL, NULL, rtv);
    CHECK_LOG("CreateRenderTargetView", "pResource is NULL");
    RELOG_MARK();
    ID3D12Device_CreateRenderTargetView(env->device, env->output, NULL, rtv);
    CHECK_LOG("CreateRenderTargetView", "is a buffer");

    check_refused_clear(env, D3D12_COMMAND_LIST_TYPE_DIRECT, rtv, zero, "never written");
    if ((target = create_render_target(env, DXGI_FORMAT_R8G8B8A8_UNORM, 4, 4, 1))) {
        D3D12_RENDER_TARGET_VIEW_DESC buffer_view = {DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RTV_DIMENSION_BUFFER, {.Buffer = {0, 4}}};
        RELOG_MARK();
        ID3D12Device_CreateRenderTargetView(env->device, target, &buffer_view, rtv);
        CHECK_LOG("CreateRenderTargetView", "pDesc->ViewDimension", "not implemented");
        ID3D12Device_CreateRenderTargetView(env->device, target, NULL, rtv);
        check_refused_clear(env, D3D12_COMMAND_LIST_TYPE_COMPUTE, rtv, zero, "only DIRECT lists");
        check_refused_clear(env, D3D12_COMMAND_LIST_TYPE_DIRECT, rtv, NULL, "ColorRGBA is NULL");
        ID3D12Resource_Release(target);
    }
    {
        D3D12_RESOURCE_DESC volume = texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE3D, DXGI_FORMAT_R8G8B8A8_UNORM, 4, 4, 4, 1,
                D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET);
        D3D12_HEAP_PROPERTIES heap = {D3D12_HEAP_TYPE_DEFAULT, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
        CHECK_HR(ID3D12Device_CreateCommittedResource(env->device, &heap, D3D12_HEAP_FLAG_NONE, &volume,
                D3D12_RESOURCE_STATE_RENDER_TARGET, NULL, &IID_ID3D12Resource, (void **)&target), S_OK);
        if (target) {
            RELOG_MARK();
            ID3D12Device_CreateRenderTargetView(env->device, target, NULL, rtv);
            CHECK_LOG("CreateRenderTargetView", "3D render targets are not implemented");
            ID3D12Resource_Release(target);
        }
    }
done:
    if (plain)
        ID3D12Resource_Release(plain);
    if (rtvs)
        ID3D12DescriptorHeap_Release(rtvs);
}

/* A8_UNORM: one byte a texel (footprints, FORMAT_INFO), uploaded and read back through
 * footprints, copied texture to texture, read by Load and Sample as (0, 0, 0, a) and through a
 * component mapping, its RTV cleared with the colour's alpha (whole and a rectangle); no typed
 * UAVs where the device stores A8 as R8 (FORMAT_SUPPORT says so; the UAV flag is refused). */
static void test_a8(struct env *env)
{
    static const char source[] =
        "Texture2D<float4> alpha : register(t0);\n"
        "Texture2D<float4> mapped : register(t1);\n"
        "SamplerState point_sampler : register(s0);\n"
        "RWByteAddressBuffer output : register(u4);\n"
        "[numthreads(8, 1, 1)] void main(uint3 id : SV_DispatchThreadID)\n"
        "{\n"
        "    uint2 xy = uint2(id.x % 4, id.x / 4);\n"
        "    output.Store4(id.x * 16, asuint(alpha.Load(int3(xy, 0))));\n"
        "    output.Store4(128 + id.x * 16, asuint(alpha.SampleLevel(point_sampler, (float2(xy) + 0.5) / float2(4, 2), 0)));\n"
        "    output.Store4(256 + id.x * 16, asuint(mapped.Load(int3(xy, 0))));\n"
        "}\n";
    static const uint8_t texels[8] = {0, 17, 51, 100, 128, 200, 254, 255};
    static const float first[4] = {1.0f, 1.0f, 1.0f, 0.2f}, second[4] = {0.0f, 0.0f, 0.0f, 0.6f};
    static const D3D12_RECT rect = {1, 0, 3, 1};
    D3D12_RESOURCE_DESC desc = texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_A8_UNORM, 4, 2, 1, 1, D3D12_RESOURCE_FLAG_NONE);
    D3D12_HEAP_PROPERTIES heap = {D3D12_HEAP_TYPE_DEFAULT, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    D3D12_FEATURE_DATA_FORMAT_SUPPORT support = {DXGI_FORMAT_A8_UNORM, 0, 0};
    D3D12_FEATURE_DATA_FORMAT_INFO info = {DXGI_FORMAT_A8_UNORM, 0};
    D3D12_SHADER_RESOURCE_VIEW_DESC mapping = srv_desc(DXGI_FORMAT_A8_UNORM, D3D12_SRV_DIMENSION_TEXTURE2D);
    ID3D12DescriptorHeap *rtvs = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1);
    ID3D12Resource *texture = NULL, *copy = NULL, *target = NULL, *refused = NULL;
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT layout;
    UINT rows;
    UINT64 row_size, total;
    uint8_t bytes[8];
    float out[8 * 4 * 3];
    unsigned bad = 0;
    LOG_MARK();

    CHECK_HR(ID3D12Device_CheckFeatureSupport(env->device, D3D12_FEATURE_FORMAT_SUPPORT, &support, sizeof(support)), S_OK);
    CHECK_MSG((support.Support1 & (D3D12_FORMAT_SUPPORT1_TEXTURE2D | D3D12_FORMAT_SUPPORT1_SHADER_LOAD | D3D12_FORMAT_SUPPORT1_SHADER_SAMPLE
            | D3D12_FORMAT_SUPPORT1_RENDER_TARGET)) == (D3D12_FORMAT_SUPPORT1_TEXTURE2D | D3D12_FORMAT_SUPPORT1_SHADER_LOAD
            | D3D12_FORMAT_SUPPORT1_SHADER_SAMPLE | D3D12_FORMAT_SUPPORT1_RENDER_TARGET)
            && !(support.Support1 & (D3D12_FORMAT_SUPPORT1_TYPED_UNORDERED_ACCESS_VIEW | D3D12_FORMAT_SUPPORT1_BUFFER))
            && !(support.Support2 & (D3D12_FORMAT_SUPPORT2_UAV_TYPED_STORE | D3D12_FORMAT_SUPPORT2_UAV_TYPED_LOAD)),
            "FORMAT_SUPPORT of A8_UNORM: Support1 0x%x, Support2 0x%x", support.Support1, support.Support2);
    CHECK_HR(ID3D12Device_CheckFeatureSupport(env->device, D3D12_FEATURE_FORMAT_INFO, &info, sizeof(info)), S_OK);
    CHECK_MSG(info.PlaneCount == 1, "FORMAT_INFO of A8_UNORM: %u planes", info.PlaneCount);
    ID3D12Device_GetCopyableFootprints(env->device, &desc, 0, 1, 0, &layout, &rows, &row_size, &total);
    CHECK_MSG(row_size == 4 && rows == 2 && layout.Footprint.Format == DXGI_FORMAT_A8_UNORM && layout.Footprint.RowPitch == 256 && total == 260,
            "A8_UNORM 4x2 footprint: %u rows of %llu bytes, pitch %u, format %d, total %llu", rows, (unsigned long long)row_size,
            layout.Footprint.RowPitch, (int)layout.Footprint.Format, (unsigned long long)total);

    /* Uploaded through a footprint, read back through one, and copied to a second texture. */
    if (!(texture = create_texture(env, &desc, texels, 1, D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE)))
        goto done;
    read_texture(env, texture, D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE, bytes, 1);
    CHECK_MSG(!memcmp(bytes, texels, sizeof(texels)), "A8_UNORM round trip: %u %u ... %u", bytes[0], bytes[1], bytes[7]);
    CHECK_HR(ID3D12Device_CreateCommittedResource(env->device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COPY_DEST, NULL,
            &IID_ID3D12Resource, (void **)&copy), S_OK);
    if (copy) {
        struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        D3D12_TEXTURE_COPY_LOCATION dst = {copy, D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX, {.SubresourceIndex = 0}};
        D3D12_TEXTURE_COPY_LOCATION src = {texture, D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX, {.SubresourceIndex = 0}};
        D3D12_RESOURCE_BARRIER barrier = {D3D12_RESOURCE_BARRIER_TYPE_TRANSITION, 0,
                .Transition = {texture, 0, D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE, D3D12_RESOURCE_STATE_COPY_SOURCE}};
        ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
        ID3D12GraphicsCommandList2_CopyTextureRegion(list.list, &dst, 0, 0, 0, &src, NULL);
        barrier.Transition.StateBefore = D3D12_RESOURCE_STATE_COPY_SOURCE;
        barrier.Transition.StateAfter = D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE;
        ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
        harness_execute_and_wait(env->device, env->queue, &list);
        harness_release_list(&list);
        read_texture(env, copy, D3D12_RESOURCE_STATE_COPY_DEST, bytes, 1);
        CHECK_MSG(!memcmp(bytes, texels, sizeof(texels)), "A8_UNORM texture-to-texture copy: %u %u ... %u", bytes[0], bytes[1], bytes[7]);
    }

    /* Loads and samples read (0, 0, 0, a); a mapping of alpha to R and 1 to B reads (a, 0, 1, a). */
    srv(env, texture, NULL, 0);
    mapping.Shader4ComponentMapping = D3D12_ENCODE_SHADER_4_COMPONENT_MAPPING(3, D3D12_SHADER_COMPONENT_MAPPING_FORCE_VALUE_0,
            D3D12_SHADER_COMPONENT_MAPPING_FORCE_VALUE_1, 3);
    srv(env, texture, &mapping, 1);
    run(env, source, 1, out, sizeof(out));
    for (unsigned i = 0; i < 8; i++) {
        float a = texels[i] / 255.0f;
        for (unsigned view = 0; view < 2; view++) /* Load, then Sample */
            bad += out[view * 32 + i * 4] != 0.0f || out[view * 32 + i * 4 + 1] != 0.0f || out[view * 32 + i * 4 + 2] != 0.0f
                    || !close_to(out[view * 32 + i * 4 + 3], a);
        bad += !close_to(out[64 + i * 4], a) || out[64 + i * 4 + 1] != 0.0f || out[64 + i * 4 + 2] != 1.0f || !close_to(out[64 + i * 4 + 3], a);
    }
    CHECK_MSG(!bad, "A8_UNORM loads, samples and a component mapping: %u texels wrong (texel 1 loads %g %g %g %g)", bad, out[4], out[5],
            out[6], out[7]);

    /* The RTV clear writes the colour's alpha: 0.2 everywhere, then 0.6 in the rectangle. */
    if (rtvs && (target = create_render_target(env, DXGI_FORMAT_A8_UNORM, 4, 2, 1))) {
        D3D12_CPU_DESCRIPTOR_HANDLE rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(rtvs);
        ID3D12Device_CreateRenderTargetView(env->device, target, NULL, rtv);
        CHECK_NO_LOG();
        clear_render_target(env, rtv, first, second, 1, &rect);
        read_texture(env, target, D3D12_RESOURCE_STATE_RENDER_TARGET, bytes, 1);
        bad = 0;
        for (unsigned i = 0; i < 8; i++)
            bad += bytes[i] != (i >= 1 && i < 3 ? 153 : 51);
        CHECK_MSG(!bad, "ClearRenderTargetView of A8_UNORM: %u texels wrong (%u %u %u %u / %u %u %u %u)", bad, bytes[0], bytes[1], bytes[2],
                bytes[3], bytes[4], bytes[5], bytes[6], bytes[7]);
    }

    /* No UAVs where A8 is R8 underneath: the flag is refused, as FORMAT_SUPPORT says. */
    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
    CHECK_HR(ID3D12Device_CreateCommittedResource(env->device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON, NULL,
            &IID_ID3D12Resource, (void **)&refused), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource", "A8_UNORM", "ALLOW_UNORDERED_ACCESS");
    CHECK(!refused);
done:
    if (texture) ID3D12Resource_Release(texture);
    if (copy) ID3D12Resource_Release(copy);
    if (target) ID3D12Resource_Release(target);
    if (rtvs) ID3D12DescriptorHeap_Release(rtvs);
}

/* The texels of every slice of a 3D texture's mip 0 (in UNORDERED_ACCESS), 4-byte texels packed. */
static void read_volume(struct env *env, ID3D12Resource *texture, uint32_t *out)
{
    D3D12_RESOURCE_DESC desc = ID3D12Resource_GetDesc(texture);
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT layout;
    UINT rows;
    UINT64 total;
    ID3D12Resource *readback;
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    D3D12_RESOURCE_BARRIER barrier = {D3D12_RESOURCE_BARRIER_TYPE_TRANSITION, 0,
            .Transition = {texture, 0, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE}};
    uint8_t *mapped = NULL;

    ID3D12Device_GetCopyableFootprints(env->device, &desc, 0, 1, 0, &layout, &rows, NULL, &total);
    readback = harness_create_buffer(env->device, D3D12_HEAP_TYPE_READBACK, total, D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    {
        D3D12_TEXTURE_COPY_LOCATION dst = {readback, D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT, {.PlacedFootprint = layout}};
        D3D12_TEXTURE_COPY_LOCATION src = {texture, D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX, {.SubresourceIndex = 0}};
        ID3D12GraphicsCommandList2_CopyTextureRegion(list.list, &dst, 0, 0, 0, &src, NULL);
    }
    barrier.Transition.StateBefore = D3D12_RESOURCE_STATE_COPY_SOURCE;
    barrier.Transition.StateAfter = D3D12_RESOURCE_STATE_UNORDERED_ACCESS;
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    harness_execute_and_wait(env->device, env->queue, &list);
    CHECK_HR(ID3D12Resource_Map(readback, 0, NULL, (void **)&mapped), S_OK);
    for (UINT z = 0; mapped && z < layout.Footprint.Depth; z++)
        for (UINT r = 0; r < rows; r++)
            memcpy(out + ((size_t)z * rows + r) * layout.Footprint.Width, mapped + ((size_t)z * rows + r) * layout.Footprint.RowPitch,
                    (size_t)layout.Footprint.Width * 4);
    ID3D12Resource_Unmap(readback, 0, NULL);
    ID3D12Resource_Release(readback);
    harness_release_list(&list);
}

/* UAVs of some of a 3D texture's depth (D3D12_TEX3D_UAV FirstWSlice / WSize): a shader writes
 * slices 2 and 3 of a 4x4x8 texture through a view of them (its slice 0 is W slice 2, and
 * GetDimensions says 2 deep), whole and rectangle clears of the view reach those slices only, and
 * WSize -1 views the rest from FirstWSlice. Where D3D12XS_DEVICE_INFO says these views do not
 * work (no VK_EXT_image_sliced_view_of_3d, or a validation layer that predates it: Debian 12's)
 * the view is refused with the line naming why; main runs this case again without the layer. */
static void test_sliced_3d_uavs(struct env *env)
{
    static const char source[] =
        "RWTexture3D<uint> part : register(u0);\n"
        "RWByteAddressBuffer output : register(u4);\n"
        "[numthreads(32, 1, 1)] void main(uint3 id : SV_DispatchThreadID)\n"
        "{\n"
        "    uint3 xyz = uint3(id.x % 4, (id.x / 4) % 4, id.x / 16);\n"
        "    part[xyz] = 100 + xyz.z * 16 + xyz.y * 4 + xyz.x;\n"
        "    if (id.x == 0) {\n"
        "        uint w, h, d;\n"
        "        part.GetDimensions(w, h, d);\n"
        "        output.Store3(0, uint3(w, h, d));\n"
        "    }\n"
        "}\n";
    static const UINT eleven[4] = {0x11, 0, 0, 0}, seven[4] = {7, 0, 0, 0}, nine[4] = {9, 0, 0, 0};
    static const FLOAT five[4] = {5.0f, 0, 0, 0};
    static const D3D12_RECT rect = {1, 1, 3, 3};
    D3D12_RESOURCE_DESC desc = texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE3D, DXGI_FORMAT_R32_UINT, 4, 4, 8, 1,
            D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS);
    D3D12_HEAP_PROPERTIES heap = {D3D12_HEAP_TYPE_DEFAULT, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    D3D12_UNORDERED_ACCESS_VIEW_DESC part = {DXGI_FORMAT_R32_UINT, D3D12_UAV_DIMENSION_TEXTURE3D, .Texture3D = {0, 2, 2}};
    D3D12_UNORDERED_ACCESS_VIEW_DESC rest = {DXGI_FORMAT_R32_UINT, D3D12_UAV_DIMENSION_TEXTURE3D, .Texture3D = {0, 6, UINT32_MAX}};
    D3D12_GPU_DESCRIPTOR_HANDLE gpu = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(env->views);
    ID3D12Resource *texture = NULL;
    struct harness_list list;
    uint32_t texels[8][4][4], dims[3];
    D3D12XS_DEVICE_INFO info;
    unsigned bad = 0;
    LOG_MARK();

    CHECK_HR(ID3D12Device_CreateCommittedResource(env->device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, NULL,
            &IID_ID3D12Resource, (void **)&texture), S_OK);
    if (!texture)
        return;
    ID3D12Device_CreateUnorderedAccessView(env->device, texture, NULL, NULL, cpu_at(env, SRV_SLOTS + 1));
    CHECK_NO_LOG();
    CHECK_HR(D3D12XSGetDeviceInfo(env->device, &info), S_OK);
    ID3D12Device_CreateUnorderedAccessView(env->device, texture, NULL, &part, cpu_at(env, SRV_SLOTS));
    if (!info.SlicedUAVsOf3DSupported) {
        CHECK_LOG("CreateUnorderedAccessView", "W slices 2 to 3 of 8", "VK_EXT_image_sliced_view_of_3d",
                info.ValidationLayerEnabled ? "" : "lacks");
        printf("UAVs of part of a 3D texture refused here (%s); %s\n", info.ValidationLayerEnabled ? "validation layer on" : "no layer",
                info.ValidationLayerEnabled ? "the case without the layer runs them" : "the device lacks VK_EXT_image_sliced_view_of_3d");
        ID3D12Resource_Release(texture);
        return;
    }
    ID3D12Device_CreateUnorderedAccessView(env->device, texture, NULL, &rest, cpu_at(env, SRV_SLOTS + 2));
    CHECK_NO_LOG();

    /* 0x11 everywhere, then the shader writes slices 2 and 3 through the view. */
    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &env->views);
    ID3D12GraphicsCommandList2_ClearUnorderedAccessViewUint(list.list, gpu, cpu_at(env, SRV_SLOTS + 1), texture, eleven, 0, NULL);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    run(env, source, 1, dims, sizeof(dims));
    CHECK_MSG(dims[0] == 4 && dims[1] == 4 && dims[2] == 2, "GetDimensions of a 3D UAV of W slices 2..3: %u x %u x %u", dims[0], dims[1],
            dims[2]);
    read_volume(env, texture, &texels[0][0][0]);
    for (unsigned z = 0; z < 8; z++)
        for (unsigned y = 0; y < 4; y++)
            for (unsigned x = 0; x < 4; x++)
                bad += texels[z][y][x] != (z == 2 || z == 3 ? 100 + (z - 2) * 16 + y * 4 + x : 0x11);
    CHECK_MSG(!bad, "a shader writing W slices 2..3 through their view: %u texels wrong (slice 2 starts %u, slice 1 %u)", bad,
            texels[2][0][0], texels[1][0][0]);

    /* Clears of the view: 7 over its slices, 9 in a rectangle of them; 5 (Float) from slice 6 on. */
    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &env->views);
    ID3D12GraphicsCommandList2_ClearUnorderedAccessViewUint(list.list, gpu, cpu_at(env, SRV_SLOTS), texture, seven, 0, NULL);
    {
        D3D12_RESOURCE_BARRIER barrier = {D3D12_RESOURCE_BARRIER_TYPE_UAV, 0, {.UAV = {texture}}};
        ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    }
    ID3D12GraphicsCommandList2_ClearUnorderedAccessViewUint(list.list, gpu, cpu_at(env, SRV_SLOTS), texture, nine, 1, &rect);
    ID3D12GraphicsCommandList2_ClearUnorderedAccessViewFloat(list.list, gpu, cpu_at(env, SRV_SLOTS + 2), texture, five, 0, NULL);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    read_volume(env, texture, &texels[0][0][0]);
    bad = 0;
    for (unsigned z = 0; z < 8; z++)
        for (unsigned y = 0; y < 4; y++)
            for (unsigned x = 0; x < 4; x++) {
                bool in_rect = x >= 1 && x < 3 && y >= 1 && y < 3;
                uint32_t expected = z == 2 || z == 3 ? (in_rect ? 9 : 7) : z >= 6 ? 5 : 0x11;
                bad += texels[z][y][x] != expected;
            }
    CHECK_MSG(!bad, "clears of 3D UAVs of W slices 2..3 and 6..: %u texels wrong (slices 0, 2, 6 start %u %u %u; (1,1) of slice 3: %u)", bad,
            texels[0][0][0], texels[2][0][0], texels[6][0][0], texels[3][1][1]);
    CHECK_NO_LOG();
    ID3D12Resource_Release(texture);
}

/* With an argument ("no_layer"), the process is the child main starts without the validation
 * layer (D3D12XS_DEBUG=0), which runs the sliced 3D UAVs that an outdated layer keeps off. */
int main(int argc, char **argv)
{
    static const char *const no_layer[] = {"D3D12XS_DEBUG=0", NULL};
    bool child = argc > 1 && !strcmp(argv[1], "no_layer");
    struct env env;
    D3D12_SAMPLER_DESC point;

    harness_init();
    memset(&env, 0, sizeof(env));
    env.device = harness_create_device();
    env.queue = harness_create_queue(env.device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    env.signature = create_signature(env.device);
    env.views = create_heap(env.device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, SRV_SLOTS + UAV_SLOTS);
    env.samplers = create_heap(env.device, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, 1);
    env.view_increment = ID3D12Device_GetDescriptorHandleIncrementSize(env.device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    env.output = harness_uav_buffer(env.device, OUTPUT_BYTES);
    memset(&point, 0, sizeof(point));
    point.Filter = D3D12_FILTER_MIN_MAG_MIP_POINT;
    point.AddressU = point.AddressV = point.AddressW = D3D12_TEXTURE_ADDRESS_MODE_CLAMP;
    point.MaxLOD = 1000.0f;
    if (env.samplers)
        ID3D12Device_CreateSampler(env.device, &point, ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(env.samplers));

    if (child) {
        if (env.signature && env.views && env.samplers)
            test_sliced_3d_uavs(&env);
    } else if (env.signature && env.views && env.samplers) {
        test_2d(&env);
        test_dimensions(&env);
        test_cube(&env);
        test_uavs(&env);
        test_uav_clear_rects(&env);
        test_bad_views(&env);
        test_render_targets(&env);
        test_bad_render_targets(&env);
        test_depth_stencil(&env);
        test_bad_depth_stencil(&env);
        test_a8(&env);
        test_sliced_3d_uavs(&env);
        CHECK_MSG(harness_run_self("no_layer", no_layer), "the sliced 3D UAVs without the validation layer failed (their lines above say why)");
    }

    ID3D12Resource_Release(env.output);
    if (env.samplers) ID3D12DescriptorHeap_Release(env.samplers);
    if (env.views) ID3D12DescriptorHeap_Release(env.views);
    if (env.signature) ID3D12RootSignature_Release(env.signature);
    ID3D12CommandQueue_Release(env.queue);
    harness_release_device(env.device);
    return harness_finish();
}
