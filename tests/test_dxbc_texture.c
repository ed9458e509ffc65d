/* DXBC compute shaders over textures (written with the DXBC writer, no FXC here): a Texture2D
 * load (ld), a bilinear SampleLevel through a static sampler (sample_l), GetDimensions (resinfo)
 * and a RWTexture2D store (store_uav_typed) into an RGBA8_UNORM texture, all through descriptor
 * tables, on both root ABIs; and a Texture2DArray layer copied into a slice of a RWTexture3D.
 * Every texel is checked. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "dxbc_writer.h"

#define SIZE 8

/* t0: the source (R32G32B32A32_FLOAT, texel (x, y) = (x, y, x + y, 1)); u0: the RGBA8 result;
 * u1: a raw buffer for the values that are not texels. */
static const struct dxbc_instruction load_sample_store[] = {
    {DXBC_OP_DCL_RESOURCE | DXBC_RESOURCE_DIMENSION_TEXTURE2D, 1, {DXBC_RESOURCE(DXBC_RESOURCE_SRV, 0)}, 1, {DXBC_RETURN_FLOAT}},
    {DXBC_OP_DCL_SAMPLER | DXBC_SAMPLER_MODE_DEFAULT, 1, {DXBC_RESOURCE(DXBC_SAMPLER, 0)}, 0, {0}},
    {DXBC_OP_DCL_UAV_TYPED | DXBC_RESOURCE_DIMENSION_TEXTURE2D, 1, {DXBC_RESOURCE(DXBC_UAV, 0)}, 1, {DXBC_RETURN_FLOAT}},
    {DXBC_OP_DCL_UAV_RAW, 1, {DXBC_RESOURCE(DXBC_UAV, 1)}, 0, {0}},
    {DXBC_OP_DCL_INPUT, 1, {DXBC_DST(DXBC_THREAD_ID, 0, DXBC_X | DXBC_Y)}, 0, {0}},
    {DXBC_OP_DCL_TEMPS, 0, {{0}}, 1, {4}},
    {DXBC_OP_DCL_THREAD_GROUP, 0, {{0}}, 3, {SIZE, SIZE, 1}},
    /* r0 = (x, y, 0, 0): ld's address, mip 0 */
    {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_TEMP, 0, DXBC_X | DXBC_Y), DXBC_SRC4(DXBC_THREAD_ID, 0)}, 0, {0}},
    {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_TEMP, 0, DXBC_Z | DXBC_W), DXBC_IMM4(0, 0, 0, 0)}, 0, {0}},
    {DXBC_OP_LD, 3, {DXBC_DST(DXBC_TEMP, 1, 0xf), DXBC_SRC4(DXBC_TEMP, 0), DXBC_READ(DXBC_RESOURCE_SRV, 0)}, 0, {0}},
    /* the loaded texel / 16 into the RGBA8 texture at (x, y) */
    {DXBC_OP_MUL, 3, {DXBC_DST(DXBC_TEMP, 1, 0xf), DXBC_SRC4(DXBC_TEMP, 1), DXBC_IMM4(0x3d800000, 0x3d800000, 0x3d800000, 0x3f800000)}, 0, {0}},
    {DXBC_OP_STORE_UAV_TYPED, 3, {DXBC_DST(DXBC_UAV, 0, 0xf), DXBC_SRC4(DXBC_TEMP, 0), DXBC_SRC4(DXBC_TEMP, 1)}, 0, {0}},
    /* r2.xy = ((x, y) + 1) / 8: between texel centres (x + 0.5, y + 0.5) and (x + 1.5, y + 1.5) */
    {DXBC_OP_UTOF, 2, {DXBC_DST(DXBC_TEMP, 2, DXBC_X | DXBC_Y), DXBC_SRC4(DXBC_THREAD_ID, 0)}, 0, {0}},
    {DXBC_OP_ADD, 3, {DXBC_DST(DXBC_TEMP, 2, DXBC_X | DXBC_Y), DXBC_SRC4(DXBC_TEMP, 2), DXBC_IMM4(0x3f800000, 0x3f800000, 0, 0)}, 0, {0}},
    {DXBC_OP_MUL, 3, {DXBC_DST(DXBC_TEMP, 2, DXBC_X | DXBC_Y), DXBC_SRC4(DXBC_TEMP, 2), DXBC_IMM4(0x3e000000, 0x3e000000, 0, 0)}, 0, {0}},
    {DXBC_OP_SAMPLE_L, 5, {DXBC_DST(DXBC_TEMP, 3, 0xf), DXBC_SRC4(DXBC_TEMP, 2), DXBC_READ(DXBC_RESOURCE_SRV, 0),
            DXBC_RESOURCE(DXBC_SAMPLER, 0), DXBC_IMM(0)}, 0, {0}},
    /* u1[(y * 8 + x) * 16] = the sample */
    {DXBC_OP_IMAD, 4, {DXBC_DST(DXBC_TEMP, 0, DXBC_X), DXBC_SRC(DXBC_THREAD_ID, 0, 1), DXBC_IMM(SIZE), DXBC_SRC(DXBC_THREAD_ID, 0, 0)}, 0, {0}},
    {DXBC_OP_ISHL, 3, {DXBC_DST(DXBC_TEMP, 0, DXBC_X), DXBC_SRC(DXBC_TEMP, 0, 0), DXBC_IMM(4)}, 0, {0}},
    {DXBC_OP_STORE_RAW, 3, {DXBC_DST(DXBC_UAV, 1, 0xf), DXBC_SRC(DXBC_TEMP, 0, 0), DXBC_SRC4(DXBC_TEMP, 3)}, 0, {0}},
    /* u1[1024] = GetDimensions(mip 0): (8, 8, 1, mips) as uints */
    {DXBC_OP_RESINFO | (2u << 11), 3, {DXBC_DST(DXBC_TEMP, 1, 0xf), DXBC_IMM(0), DXBC_READ(DXBC_RESOURCE_SRV, 0)}, 0, {0}},
    {DXBC_OP_STORE_RAW, 3, {DXBC_DST(DXBC_UAV, 1, 0xf), DXBC_IMM(1024), DXBC_SRC4(DXBC_TEMP, 1)}, 0, {0}},
    {DXBC_OP_RET, 0, {{0}}, 0, {0}},
};


/* t0: a Texture2DArray<uint> of 2 layers; u0: a RWTexture3D<uint> of 2 slices. Layer 1 goes to slice 1. */
static const struct dxbc_instruction array_to_volume[] = {
    {DXBC_OP_DCL_RESOURCE | DXBC_RESOURCE_DIMENSION_TEXTURE2DARRAY, 1, {DXBC_RESOURCE(DXBC_RESOURCE_SRV, 0)}, 1, {DXBC_RETURN_UINT}},
    {DXBC_OP_DCL_UAV_TYPED | DXBC_RESOURCE_DIMENSION_TEXTURE3D, 1, {DXBC_RESOURCE(DXBC_UAV, 0)}, 1, {DXBC_RETURN_UINT}},
    {DXBC_OP_DCL_INPUT, 1, {DXBC_DST(DXBC_THREAD_ID, 0, DXBC_X | DXBC_Y)}, 0, {0}},
    {DXBC_OP_DCL_TEMPS, 0, {{0}}, 1, {2}},
    {DXBC_OP_DCL_THREAD_GROUP, 0, {{0}}, 3, {SIZE, SIZE, 1}},
    /* r0 = (x, y, layer 1, mip 0) */
    {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_TEMP, 0, DXBC_X | DXBC_Y), DXBC_SRC4(DXBC_THREAD_ID, 0)}, 0, {0}},
    {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_TEMP, 0, DXBC_Z | DXBC_W), DXBC_IMM4(0, 0, 1, 0)}, 0, {0}},
    {DXBC_OP_LD, 3, {DXBC_DST(DXBC_TEMP, 1, 0xf), DXBC_SRC4(DXBC_TEMP, 0), DXBC_READ(DXBC_RESOURCE_SRV, 0)}, 0, {0}},
    {DXBC_OP_STORE_UAV_TYPED, 3, {DXBC_DST(DXBC_UAV, 0, 0xf), DXBC_SRC4(DXBC_TEMP, 0), DXBC_SRC4(DXBC_TEMP, 1)}, 0, {0}},
    {DXBC_OP_RET, 0, {{0}}, 0, {0}},
};

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12DescriptorHeap *heap;
    UINT increment;
};

static ID3D12Resource *create_texture_shaped(struct env *env, D3D12_RESOURCE_DIMENSION dimension, UINT16 depth_or_layers, DXGI_FORMAT format,
        D3D12_RESOURCE_FLAGS flags, const void *data, UINT texel_bytes);

/* The program written as DXBC and made a pipeline of (NULL after a failed check). */
static ID3D12PipelineState *dxbc_pipeline(struct env *env, ID3D12RootSignature *signature, const struct dxbc_instruction *program,
        size_t count)
{
    ID3D12PipelineState *state = NULL;
    size_t size;
    void *dxbc = dxbc_write_shader(DXBC_COMPUTE_SHADER, 5, 0, program, count, &size);

    CHECK_MSG(dxbc != NULL, "the writer cannot encode the program");
    if (dxbc && signature) {
        D3D12_COMPUTE_PIPELINE_STATE_DESC desc = {signature, {dxbc, size}, 0, {NULL, 0}, D3D12_PIPELINE_STATE_FLAG_NONE};
        CHECK_HR(ID3D12Device_CreateComputePipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&state), S_OK);
    }
    free(dxbc);
    return state;
}

/* One group, the table at the heap's start; executed and waited for. */
static void dispatch_table(struct env *env, struct harness_list *list, ID3D12RootSignature *signature, ID3D12PipelineState *state)
{
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list->list, 1, &env->heap);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list->list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list->list, state);
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list->list, 0, ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(env->heap));
    ID3D12GraphicsCommandList2_Dispatch(list->list, 1, 1, 1);
    harness_execute_and_wait(env->device, env->queue, list);
}

static D3D12_CPU_DESCRIPTOR_HANDLE cpu_slot(struct env *env, UINT slot)
{
    D3D12_CPU_DESCRIPTOR_HANDLE handle = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(env->heap);
    handle.ptr += (SIZE_T)slot * env->increment;
    return handle;
}

/* A table of t0, u0, u1 and a static bilinear clamp sampler s0. */
static ID3D12RootSignature *create_signature(struct env *env, bool memory_abi)
{
    D3D12_DESCRIPTOR_RANGE1 ranges[2] = {
        {D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 1, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 0},
        {D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 2, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 1},
    };
    D3D12_STATIC_SAMPLER_DESC sampler;
    D3D12_ROOT_PARAMETER1 parameter;
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc;
    ID3DBlob *blob = NULL, *errors = NULL;
    ID3D12RootSignature *signature = NULL;

    memset(&parameter, 0, sizeof(parameter));
    parameter.ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    parameter.DescriptorTable.NumDescriptorRanges = 2;
    parameter.DescriptorTable.pDescriptorRanges = ranges;
    memset(&sampler, 0, sizeof(sampler));
    sampler.Filter = D3D12_FILTER_MIN_MAG_MIP_LINEAR;
    sampler.AddressU = sampler.AddressV = sampler.AddressW = D3D12_TEXTURE_ADDRESS_MODE_CLAMP;
    sampler.MaxLOD = D3D12_FLOAT32_MAX;
    memset(&desc, 0, sizeof(desc));
    desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    desc.Desc_1_1.NumParameters = 1;
    desc.Desc_1_1.pParameters = &parameter;
    desc.Desc_1_1.NumStaticSamplers = 1;
    desc.Desc_1_1.pStaticSamplers = &sampler;
    desc.Desc_1_1.Flags = memory_abi ? D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI : D3D12_ROOT_SIGNATURE_FLAG_NONE;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&desc, &blob, &errors), S_OK);
    if (blob) {
        CHECK_HR(ID3D12Device_CreateRootSignature(env->device, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
                &IID_ID3D12RootSignature, (void **)&signature), S_OK);
        ID3D10Blob_Release(blob);
    }
    return signature;
}

static ID3D12Resource *create_texture(struct env *env, DXGI_FORMAT format, D3D12_RESOURCE_FLAGS flags, const void *data, UINT texel_bytes)
{
    return create_texture_shaped(env, D3D12_RESOURCE_DIMENSION_TEXTURE2D, 1, format, flags, data, texel_bytes);
}

static void run_array_to_volume(struct env *env)
{
    static uint32_t layers[2][SIZE][SIZE], slices[2][SIZE][SIZE];
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12RootSignature *signature = create_signature(env, false);
    ID3D12Resource *array, *volume;
    ID3D12PipelineState *state = NULL;
    unsigned bad = 0;
    LOG_MARK();

    for (unsigned l = 0; l < 2; l++)
        for (unsigned y = 0; y < SIZE; y++)
            for (unsigned x = 0; x < SIZE; x++)
                layers[l][y][x] = 1000 * (l + 1) + y * SIZE + x;
    array = create_texture_shaped(env, D3D12_RESOURCE_DIMENSION_TEXTURE2D, 2, DXGI_FORMAT_R32_UINT, D3D12_RESOURCE_FLAG_NONE, NULL, 4);
    volume = create_texture_shaped(env, D3D12_RESOURCE_DIMENSION_TEXTURE3D, 2, DXGI_FORMAT_R32_UINT, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS,
            NULL, 4);
    state = dxbc_pipeline(env, signature, array_to_volume, sizeof(array_to_volume) / sizeof(array_to_volume[0]));
    if (!state || !array || !volume)
        goto done;
    for (UINT l = 0; l < 2; l++)
        CHECK_HR(ID3D12Resource_WriteToSubresource(array, l, NULL, layers[l], SIZE * 4, SIZE * SIZE * 4), S_OK);
    ID3D12Device_CreateShaderResourceView(env->device, array, NULL, cpu_slot(env, 0));
    ID3D12Device_CreateUnorderedAccessView(env->device, volume, NULL, NULL, cpu_slot(env, 1));
    dispatch_table(env, &list, signature, state);
    CHECK_NO_LOG();
    CHECK_HR(ID3D12Resource_ReadFromSubresource(volume, slices, SIZE * 4, SIZE * SIZE * 4, 0, NULL), S_OK);
    for (unsigned y = 0; y < SIZE; y++)
        for (unsigned x = 0; x < SIZE; x++)
            bad += slices[0][y][x] != 0 || slices[1][y][x] != layers[1][y][x];
    CHECK_MSG(!bad, "Texture2DArray layer 1 into RWTexture3D slice 1: %u texels wrong", bad);

done:
    if (state) ID3D12PipelineState_Release(state);
    if (signature) ID3D12RootSignature_Release(signature);
    if (array) ID3D12Resource_Release(array);
    if (volume) ID3D12Resource_Release(volume);
    harness_release_list(&list);
}

static ID3D12Resource *create_texture_shaped(struct env *env, D3D12_RESOURCE_DIMENSION dimension, UINT16 depth_or_layers, DXGI_FORMAT format,
        D3D12_RESOURCE_FLAGS flags, const void *data, UINT texel_bytes)
{
    D3D12_HEAP_PROPERTIES heap = {D3D12_HEAP_TYPE_CUSTOM, D3D12_CPU_PAGE_PROPERTY_WRITE_BACK, D3D12_MEMORY_POOL_L0, 1, 1};
    D3D12_RESOURCE_DESC desc;
    ID3D12Resource *texture = NULL;

    memset(&desc, 0, sizeof(desc));
    desc.Dimension = dimension;
    desc.Width = desc.Height = SIZE;
    desc.DepthOrArraySize = depth_or_layers;
    desc.MipLevels = 1;
    desc.Format = format;
    desc.SampleDesc.Count = 1;
    desc.Flags = flags;
    CHECK_HR(ID3D12Device_CreateCommittedResource(env->device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON, NULL,
            &IID_ID3D12Resource, (void **)&texture), S_OK);
    if (texture && data)
        CHECK_HR(ID3D12Resource_WriteToSubresource(texture, 0, NULL, data, SIZE * texel_bytes, SIZE * SIZE * texel_bytes), S_OK);
    return texture;
}

static void run_program(struct env *env, bool memory_abi)
{
    static float source[SIZE][SIZE][4];
    uint8_t result[SIZE][SIZE][4];
    float samples[SIZE * SIZE * 4];
    uint32_t dimensions[4];
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12RootSignature *signature = create_signature(env, memory_abi);
    ID3D12Resource *texture, *target, *output = harness_uav_buffer(env->device, 4096 + 16);
    D3D12_UNORDERED_ACCESS_VIEW_DESC raw;
    ID3D12PipelineState *state = NULL;
    unsigned bad = 0;
    LOG_MARK();

    for (unsigned y = 0; y < SIZE; y++)
        for (unsigned x = 0; x < SIZE; x++) {
            source[y][x][0] = (float)x;
            source[y][x][1] = (float)y;
            source[y][x][2] = (float)(x + y);
            source[y][x][3] = 1.0f;
        }
    texture = create_texture(env, DXGI_FORMAT_R32G32B32A32_FLOAT, D3D12_RESOURCE_FLAG_NONE, source, 16);
    target = create_texture(env, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS, NULL, 4);
    state = dxbc_pipeline(env, signature, load_sample_store, sizeof(load_sample_store) / sizeof(load_sample_store[0]));
    if (!state || !texture || !target)
        goto done;
    ID3D12Device_CreateShaderResourceView(env->device, texture, NULL, cpu_slot(env, 0));
    ID3D12Device_CreateUnorderedAccessView(env->device, target, NULL, NULL, cpu_slot(env, 1));
    memset(&raw, 0, sizeof(raw));
    raw.Format = DXGI_FORMAT_R32_TYPELESS;
    raw.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
    raw.Buffer.NumElements = (4096 + 16) / 4;
    raw.Buffer.Flags = D3D12_BUFFER_UAV_FLAG_RAW;
    ID3D12Device_CreateUnorderedAccessView(env->device, output, NULL, &raw, cpu_slot(env, 2));
    dispatch_table(env, &list, signature, state);
    CHECK_NO_LOG();

    /* ld + store_uav_typed: texel / 16 as UNORM8 */
    CHECK_HR(ID3D12Resource_ReadFromSubresource(target, result, SIZE * 4, SIZE * SIZE * 4, 0, NULL), S_OK);
    for (unsigned y = 0; y < SIZE; y++)
        for (unsigned x = 0; x < SIZE; x++) {
            const int expected[4] = {(int)lrintf(x / 16.0f * 255), (int)lrintf(y / 16.0f * 255), (int)lrintf((x + y) / 16.0f * 255), 255};
            for (unsigned c = 0; c < 4; c++)
                bad += abs(result[y][x][c] - expected[c]) > 1;
        }
    CHECK_MSG(!bad, "%s ABI: %u UNORM values of the ld / store_uav_typed texels are wrong", memory_abi ? "memory" : "push", bad);

    /* sample_l: halfway between texel centres in x and y, clamped at the last texel */
    harness_read_back(env->device, env->queue, output, samples, sizeof(samples));
    bad = 0;
    for (unsigned y = 0; y < SIZE; y++)
        for (unsigned x = 0; x < SIZE; x++) {
            float u = fminf(x + 0.5f, SIZE - 1.0f), v = fminf(y + 0.5f, SIZE - 1.0f);
            const float *got = &samples[(y * SIZE + x) * 4];
            bad += fabsf(got[0] - u) > 0.01f || fabsf(got[1] - v) > 0.01f || fabsf(got[2] - (u + v)) > 0.02f || fabsf(got[3] - 1.0f) > 0.001f;
        }
    CHECK_MSG(!bad, "%s ABI: %u bilinear samples are wrong (first: %g %g %g %g)", memory_abi ? "memory" : "push", bad, samples[0], samples[1],
            samples[2], samples[3]);
    {
        uint32_t all[1024 / 4 + 4];
        harness_read_back(env->device, env->queue, output, all, sizeof(all));
        memcpy(dimensions, &all[1024 / 4], sizeof(dimensions));
        CHECK_MSG(dimensions[0] == SIZE && dimensions[1] == SIZE && dimensions[3] == 1, "resinfo returned %u %u %u %u (8 8 _ 1 expected)",
                dimensions[0], dimensions[1], dimensions[2], dimensions[3]);
    }

done:
    if (state) ID3D12PipelineState_Release(state);
    if (signature) ID3D12RootSignature_Release(signature);
    if (texture) ID3D12Resource_Release(texture);
    if (target) ID3D12Resource_Release(target);
    ID3D12Resource_Release(output);
    harness_release_list(&list);
}

int main(void)
{
    D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    struct env env;

    harness_init();
    memset(&env, 0, sizeof(env));
    env.device = harness_create_device();
    env.queue = harness_create_queue(env.device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env.device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&env.heap), S_OK);
    env.increment = ID3D12Device_GetDescriptorHandleIncrementSize(env.device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    if (env.heap) {
        run_program(&env, false);
        run_program(&env, true);
        run_array_to_volume(&env);
        ID3D12DescriptorHeap_Release(env.heap);
    }
    ID3D12CommandQueue_Release(env.queue);
    harness_release_device(env.device);
    return harness_finish();
}
