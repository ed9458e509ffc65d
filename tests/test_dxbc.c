/* DXBC compute shaders (shader model 5.0 and 5.1, written by tests/dxbc_writer.c: no FXC runs
 * here) through libvkd3d-shader: each program runs beside the equivalent HLSL through D3DCompile,
 * with the same root signature and inputs, and both must give the expected contents. Then the
 * root signature a DXBC shader carries (RTS0), the memory-based root ABI, and malformed or
 * unsupported DXBC refused with a line that says why. */
#include <stdlib.h>
#include <string.h>

#include <d3dcompiler.h>
#include <d3d12_xs.h>

#include "harness.h"
#include "dxbc_writer.h"
#include "descriptors/root_signature_blob.h" /* d3d12xs_dxbc_checksum, compiled in below */

#define THREADS 256
#define INPUT_WORDS 256
#define OUTPUT_WORDS 512
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
};

/* Where a case's registers are: b<cb> in cb_space; t<srv>.. (raw, structured stride 8, typed
 * R32_FLOAT) in srv_space; u<uav> (the raw root UAV) and u<uav + 1>, u<uav + 2> (structured
 * stride 8 and typed R32_UINT views of the second output) in uav_space. */
struct layout {
    uint32_t cb, cb_space, srv, srv_space, uav, uav_space;
};
static const struct layout default_layout = {0, 0, 0, 0, 0, 0};

/* Root parameters: 0 four constants, 1 a table of the three SRVs, 2 the root UAV, 3 a table of
 * the two UAVs of the second output. */
static ID3D10Blob *serialize_root_signature(const struct layout *l, D3D12_ROOT_SIGNATURE_FLAGS flags)
{
    D3D12_DESCRIPTOR_RANGE1 ranges[2];
    D3D12_ROOT_PARAMETER1 parameters[4];
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc;
    ID3D10Blob *blob = NULL, *errors = NULL;

    memset(ranges, 0, sizeof(ranges));
    memset(parameters, 0, sizeof(parameters));
    ranges[0].RangeType = D3D12_DESCRIPTOR_RANGE_TYPE_SRV;
    ranges[0].NumDescriptors = 3;
    ranges[0].BaseShaderRegister = l->srv;
    ranges[0].RegisterSpace = l->srv_space;
    ranges[1].RangeType = D3D12_DESCRIPTOR_RANGE_TYPE_UAV;
    ranges[1].NumDescriptors = 2;
    ranges[1].BaseShaderRegister = l->uav + 1;
    ranges[1].RegisterSpace = l->uav_space;
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 4;
    parameters[0].Constants.ShaderRegister = l->cb;
    parameters[0].Constants.RegisterSpace = l->cb_space;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    parameters[1].DescriptorTable.NumDescriptorRanges = 1;
    parameters[1].DescriptorTable.pDescriptorRanges = &ranges[0];
    parameters[2].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    parameters[2].Descriptor.ShaderRegister = l->uav;
    parameters[2].Descriptor.RegisterSpace = l->uav_space;
    parameters[3].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    parameters[3].DescriptorTable.NumDescriptorRanges = 1;
    parameters[3].DescriptorTable.pDescriptorRanges = &ranges[1];
    memset(&desc, 0, sizeof(desc));
    desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    desc.Desc_1_1.NumParameters = 4;
    desc.Desc_1_1.pParameters = parameters;
    desc.Desc_1_1.Flags = flags;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&desc, &blob, &errors), S_OK);
    if (errors)
        ID3D10Blob_Release(errors);
    return blob;
}

static ID3D12RootSignature *create_root_signature(ID3D12Device *device, const void *blob, size_t size)
{
    ID3D12RootSignature *signature = NULL;
    CHECK_HR(ID3D12Device_CreateRootSignature(device, 0, blob, size, &IID_ID3D12RootSignature, (void **)&signature), S_OK);
    return signature;
}

static ID3D12PipelineState *create_pipeline(ID3D12Device *device, ID3D12RootSignature *signature, const void *code, size_t size,
        HRESULT expected)
{
    D3D12_COMPUTE_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *state = NULL;
    memset(&desc, 0, sizeof(desc));
    desc.pRootSignature = signature;
    desc.CS.pShaderBytecode = code;
    desc.CS.BytecodeLength = size;
    CHECK_HR(ID3D12Device_CreateComputePipelineState(device, &desc, &IID_ID3D12PipelineState, (void **)&state), expected);
    return state;
}

/* The buffers of a run: two inputs (words, floats), two outputs (zeroed), and their views. */
struct run {
    ID3D12Resource *input, *floats, *output, *output2;
    ID3D12DescriptorHeap *heap;
};

static ID3D12Resource *upload_buffer(struct env *env, const void *data, size_t size)
{
    ID3D12Resource *buffer = harness_uav_buffer(env->device, size), *upload;
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    void *mapped = NULL;

    upload = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, size, D3D12_RESOURCE_STATE_GENERIC_READ);
    CHECK_HR(ID3D12Resource_Map(upload, 0, NULL, &mapped), S_OK);
    if (mapped)
        memcpy(mapped, data, size);
    ID3D12Resource_Unmap(upload, 0, NULL);
    ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, buffer, 0, upload, 0, size);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    ID3D12Resource_Release(upload);
    return buffer;
}

/* shift: the raw SRV starts that many words into its buffer (4 words of zeros follow the input). */
static void create_run(struct env *env, struct run *run, uint32_t shift)
{
    uint32_t words[INPUT_WORDS + 4] = {0}, zeros[OUTPUT_WORDS] = {0};
    float floats[INPUT_WORDS];
    D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 8, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    D3D12_SHADER_RESOURCE_VIEW_DESC srv;
    D3D12_UNORDERED_ACCESS_VIEW_DESC uav;
    D3D12_CPU_DESCRIPTOR_HANDLE handle;
    UINT increment;

    for (uint32_t i = 0; i < INPUT_WORDS; i++) {
        words[i] = i * 2654435761u;
        floats[i] = (float)i * 0.75f;
    }
    run->input = upload_buffer(env, words, sizeof(words));
    run->floats = upload_buffer(env, floats, sizeof(floats));
    run->output = upload_buffer(env, zeros, sizeof(zeros));
    run->output2 = upload_buffer(env, zeros, sizeof(zeros));
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&run->heap), S_OK);
    increment = ID3D12Device_GetDescriptorHandleIncrementSize(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    handle = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(run->heap);

    memset(&srv, 0, sizeof(srv));
    srv.ViewDimension = D3D12_SRV_DIMENSION_BUFFER;
    srv.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
    srv.Format = DXGI_FORMAT_R32_TYPELESS;
    srv.Buffer.FirstElement = shift;
    srv.Buffer.NumElements = INPUT_WORDS;
    srv.Buffer.Flags = D3D12_BUFFER_SRV_FLAG_RAW;
    ID3D12Device_CreateShaderResourceView(env->device, run->input, &srv, handle);
    handle.ptr += increment;
    srv.Format = DXGI_FORMAT_UNKNOWN;
    srv.Buffer.FirstElement = 0;
    srv.Buffer.NumElements = INPUT_WORDS / 2;
    srv.Buffer.StructureByteStride = 8;
    srv.Buffer.Flags = D3D12_BUFFER_SRV_FLAG_NONE;
    ID3D12Device_CreateShaderResourceView(env->device, run->input, &srv, handle);
    handle.ptr += increment;
    srv.Format = DXGI_FORMAT_R32_FLOAT;
    srv.Buffer.NumElements = INPUT_WORDS;
    srv.Buffer.StructureByteStride = 0;
    ID3D12Device_CreateShaderResourceView(env->device, run->floats, &srv, handle);
    handle.ptr += increment;

    memset(&uav, 0, sizeof(uav));
    uav.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
    uav.Format = DXGI_FORMAT_UNKNOWN;
    uav.Buffer.NumElements = OUTPUT_WORDS / 2;
    uav.Buffer.StructureByteStride = 8;
    ID3D12Device_CreateUnorderedAccessView(env->device, run->output2, NULL, &uav, handle);
    handle.ptr += increment;
    uav.Format = DXGI_FORMAT_R32_UINT;
    uav.Buffer.NumElements = OUTPUT_WORDS;
    uav.Buffer.StructureByteStride = 0;
    ID3D12Device_CreateUnorderedAccessView(env->device, run->output2, NULL, &uav, handle);
}

static void release_run(struct run *run)
{
    ID3D12Resource_Release(run->input);
    ID3D12Resource_Release(run->floats);
    ID3D12Resource_Release(run->output);
    ID3D12Resource_Release(run->output2);
    ID3D12DescriptorHeap_Release(run->heap);
}

/* Dispatches THREADS threads of state with the root arguments every case uses; reads both
 * outputs back. shift: the raw SRV and the root UAV start that many words into their buffers. */
static void dispatch_threads(struct env *env, ID3D12RootSignature *signature, ID3D12PipelineState *state, uint32_t *output,
        uint32_t *output2, uint32_t console_threads, uint32_t shift)
{
    static const uint32_t constants[4] = {3, 7, 11, 13};
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    struct run run;
    D3D12_GPU_DESCRIPTOR_HANDLE table;
    UINT increment = ID3D12Device_GetDescriptorHandleIncrementSize(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);

    create_run(env, &run, shift);
    table = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(run.heap);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &run.heap);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(list.list, 0, 4, constants, 0);
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 1, table);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 2, ID3D12Resource_GetGPUVirtualAddress(run.output) + 4 * shift);
    table.ptr += 3 * increment;
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 3, table);
    if (console_threads)
        ID3D12GraphicsCommandList_DispatchX((ID3D12GraphicsCommandList *)list.list, console_threads, 1, 1,
                D3D12XBOX_DISPATCH_FLAG_USE_THREAD_DIMENSIONS);
    else
        ID3D12GraphicsCommandList2_Dispatch(list.list, THREADS / 64, 1, 1);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_read_back(env->device, env->queue, run.output, output, OUTPUT_WORDS * 4);
    harness_read_back(env->device, env->queue, run.output2, output2, OUTPUT_WORDS * 4);
    harness_release_list(&list);
    release_run(&run);
}

static void dispatch(struct env *env, ID3D12RootSignature *signature, ID3D12PipelineState *state, uint32_t *output, uint32_t *output2)
{
    dispatch_threads(env, signature, state, output, output2, 0, 0);
}

typedef void (*expect_fn)(uint32_t *output, uint32_t *output2);

struct program {
    const char *name;
    const struct dxbc_instruction *instructions;
    size_t count;
    unsigned minor;             /* shader model 5.minor */
    const char *hlsl;
    expect_fn expect;
    const struct layout *layout;
};

static uint32_t input_word(uint32_t i)
{
    return i < INPUT_WORDS ? i * 2654435761u : 0;
}

/* ---- the programs ---- */

#define END {DXBC_OP_RET, 0, {{0}}, 0, {0}}
#define DCL_THREAD_ID {DXBC_OP_DCL_INPUT, 1, {DXBC_OPERAND(DXBC_THREAD_ID, DXBC_MASK, DXBC_X, 0)}, 0, {0}}
#define DCL_TEMPS(n) {DXBC_OP_DCL_TEMPS, 0, {{0}}, 1, {(n)}}
#define DCL_GROUP {DXBC_OP_DCL_THREAD_GROUP, 0, {{0}}, 3, {64, 1, 1}}
#define TID DXBC_SRC(DXBC_THREAD_ID, 0, 0)
#define TID4 DXBC_OPERAND(DXBC_THREAD_ID, DXBC_SWIZZLE, DXBC_SWIZZLE_XXXX, 0)
#define R(n, c) DXBC_SRC(DXBC_TEMP, n, c)
#define W(n, mask) DXBC_DST(DXBC_TEMP, n, mask)
#define X DXBC_X
#define Y DXBC_Y
#define Z DXBC_Z

/* raw: out[i] = in[i] * cb.x + cb.y */
static const struct dxbc_instruction raw_program[] = {
    {DXBC_OP_DCL_CONSTANT_BUFFER, 1, {DXBC_CB_DECL(0, 1)}, 0, {0}},
    {DXBC_OP_DCL_RESOURCE_RAW, 1, {DXBC_RESOURCE(DXBC_RESOURCE_SRV, 0)}, 0, {0}},
    {DXBC_OP_DCL_UAV_RAW, 1, {DXBC_RESOURCE(DXBC_UAV, 0)}, 0, {0}},
    DCL_THREAD_ID, DCL_TEMPS(2), DCL_GROUP,
    {DXBC_OP_ISHL, 3, {W(0, X), TID, DXBC_IMM(2)}, 0, {0}},
    {DXBC_OP_LD_RAW, 3, {W(1, X), R(0, 0), DXBC_READ(DXBC_RESOURCE_SRV, 0)}, 0, {0}},
    {DXBC_OP_IMAD, 4, {W(1, X), R(1, 0), DXBC_CB_SRC(0, 0, 0), DXBC_CB_SRC(0, 0, 1)}, 0, {0}},
    {DXBC_OP_STORE_RAW, 3, {DXBC_DST(DXBC_UAV, 0, X), R(0, 0), R(1, 0)}, 0, {0}},
    END,
};
static const char raw_hlsl[] =
    "cbuffer C : register(b0) { uint scale; uint bias; };\n"
    "ByteAddressBuffer input : register(t0);\n"
    "RWByteAddressBuffer output : register(u0);\n"
    "[numthreads(64, 1, 1)] void main(uint3 id : SV_DispatchThreadID)\n"
    "{ output.Store(id.x * 4, input.Load(id.x * 4) * scale + bias); }\n";
static void raw_expect(uint32_t *output, uint32_t *output2)
{
    (void)output2;
    for (uint32_t i = 0; i < THREADS; i++)
        output[i] = input_word(i) * 3 + 7;
}

/* The same in shader model 5.1 with registers in spaces: b3 space2, t5 space1, u2 space3. */
static const struct dxbc_instruction spaces_program[] = {
    {DXBC_OP_DCL_CONSTANT_BUFFER, 1, {DXBC51_CB_DECL(0, 3, 3)}, 2, {1, 2}},
    {DXBC_OP_DCL_RESOURCE_RAW, 1, {DXBC51_DECL(DXBC_RESOURCE_SRV, 0, 5, 5)}, 1, {1}},
    {DXBC_OP_DCL_UAV_RAW, 1, {DXBC51_DECL(DXBC_UAV, 0, 2, 2)}, 1, {3}},
    DCL_THREAD_ID, DCL_TEMPS(2), DCL_GROUP,
    {DXBC_OP_ISHL, 3, {W(0, X), TID, DXBC_IMM(2)}, 0, {0}},
    {DXBC_OP_LD_RAW, 3, {W(1, X), R(0, 0), DXBC51_READ(DXBC_RESOURCE_SRV, 0, 5)}, 0, {0}},
    {DXBC_OP_IMAD, 4, {W(1, X), R(1, 0), DXBC51_CB_SRC(0, 3, 0, 0), DXBC51_CB_SRC(0, 3, 0, 1)}, 0, {0}},
    {DXBC_OP_STORE_RAW, 3, {{DXBC_UAV, DXBC_MASK, X, 0, 2, 0, 2, 0, 0, 0, 0}, R(0, 0), R(1, 0)}, 0, {0}},
    END,
};
static const char spaces_hlsl[] =
    "cbuffer C : register(b3, space2) { uint scale; uint bias; };\n"
    "ByteAddressBuffer input : register(t5, space1);\n"
    "RWByteAddressBuffer output : register(u2, space3);\n"
    "[numthreads(64, 1, 1)] void main(uint3 id : SV_DispatchThreadID)\n"
    "{ output.Store(id.x * 4, input.Load(id.x * 4) * scale + bias); }\n";
static const struct layout spaces_layout = {3, 2, 5, 1, 2, 3};

/* structured: out2[i] = {in[i].a * 3, in[i].b ^ i}; in has 128 elements, reads past them load 0 */
static const struct dxbc_instruction structured_program[] = {
    {DXBC_OP_DCL_RESOURCE_STRUCTURED, 1, {DXBC_RESOURCE(DXBC_RESOURCE_SRV, 1)}, 1, {8}},
    {DXBC_OP_DCL_UAV_STRUCTURED, 1, {DXBC_RESOURCE(DXBC_UAV, 1)}, 1, {8}},
    DCL_THREAD_ID, DCL_TEMPS(2), DCL_GROUP,
    {DXBC_OP_LD_STRUCTURED, 4, {W(0, X | Y), TID, DXBC_IMM(0), DXBC_READ(DXBC_RESOURCE_SRV, 1)}, 0, {0}},
    {DXBC_OP_IMUL, 4, {DXBC_OPERAND(DXBC_NULL, DXBC_WHOLE, 0, 0), W(1, X), R(0, 0), DXBC_IMM(3)}, 0, {0}},
    {DXBC_OP_XOR, 3, {W(1, Y), R(0, 1), TID}, 0, {0}},
    {DXBC_OP_STORE_STRUCTURED, 4, {DXBC_DST(DXBC_UAV, 1, X | Y), TID, DXBC_IMM(0), DXBC_SRC4(DXBC_TEMP, 1)}, 0, {0}},
    END,
};
static const char structured_hlsl[] =
    "struct S { uint a; uint b; };\n"
    "StructuredBuffer<S> input : register(t1);\n"
    "RWStructuredBuffer<S> output : register(u1);\n"
    "[numthreads(64, 1, 1)] void main(uint3 id : SV_DispatchThreadID)\n"
    "{ S s = input[id.x]; S o; o.a = s.a * 3; o.b = s.b ^ id.x; output[id.x] = o; }\n";
static void structured_expect(uint32_t *output, uint32_t *output2)
{
    (void)output;
    for (uint32_t i = 0; i < THREADS; i++) {
        output2[2 * i] = input_word(2 * i) * 3;
        output2[2 * i + 1] = input_word(2 * i + 1) ^ i;
    }
}

/* typed: out2[i] = (uint)(floats[i] * 2) through Buffer<float> and RWBuffer<uint> */
static const struct dxbc_instruction typed_program[] = {
    {DXBC_OP_DCL_RESOURCE | DXBC_RESOURCE_DIMENSION_BUFFER, 1, {DXBC_RESOURCE(DXBC_RESOURCE_SRV, 2)}, 1, {DXBC_RETURN_FLOAT}},
    {DXBC_OP_DCL_UAV_TYPED | DXBC_RESOURCE_DIMENSION_BUFFER, 1, {DXBC_RESOURCE(DXBC_UAV, 2)}, 1, {DXBC_RETURN_UINT}},
    DCL_THREAD_ID, DCL_TEMPS(1), DCL_GROUP,
    {DXBC_OP_LD, 3, {W(0, X), TID4, DXBC_READ(DXBC_RESOURCE_SRV, 2)}, 0, {0}},
    {DXBC_OP_MUL, 3, {W(0, X), R(0, 0), DXBC_IMM(0x40000000u /* 2.0f */)}, 0, {0}},
    {DXBC_OP_FTOU, 2, {W(0, X), R(0, 0)}, 0, {0}},
    {DXBC_OP_STORE_UAV_TYPED, 3, {DXBC_DST(DXBC_UAV, 2, 0xf), TID4, DXBC_OPERAND(DXBC_TEMP, DXBC_SWIZZLE, DXBC_SWIZZLE_XXXX, 0)}, 0, {0}},
    END,
};
static const char typed_hlsl[] =
    "Buffer<float> input : register(t2);\n"
    "RWBuffer<uint> output : register(u2);\n"
    "[numthreads(64, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { output[id.x] = (uint)(input[id.x] * 2.0f); }\n";
static void typed_expect(uint32_t *output, uint32_t *output2)
{
    (void)output;
    for (uint32_t i = 0; i < THREADS; i++)
        output2[i] = (uint32_t)((float)i * 0.75f * 2.0f);
}

/* arithmetic: float mad/max/min/ftou, udiv with remainder, ult/movc, ushr/and/or, iadd */
static const struct dxbc_instruction arithmetic_program[] = {
    {DXBC_OP_DCL_UAV_RAW, 1, {DXBC_RESOURCE(DXBC_UAV, 0)}, 0, {0}},
    DCL_THREAD_ID, DCL_TEMPS(4), DCL_GROUP,
    {DXBC_OP_UTOF, 2, {W(1, X), TID}, 0, {0}},
    {DXBC_OP_MAD, 4, {W(1, X), R(1, 0), DXBC_IMM(0x3f000000u /* 0.5 */), DXBC_IMM(0x3fa00000u /* 1.25 */)}, 0, {0}},
    {DXBC_OP_MAX, 3, {W(1, X), R(1, 0), DXBC_IMM(0x41200000u /* 10.0 */)}, 0, {0}},
    {DXBC_OP_MIN, 3, {W(1, X), R(1, 0), DXBC_IMM(0x42c80000u /* 100.0 */)}, 0, {0}},
    {DXBC_OP_FTOU, 2, {W(1, X), R(1, 0)}, 0, {0}},
    {DXBC_OP_UDIV, 4, {W(2, X), W(2, Y), TID, DXBC_IMM(7)}, 0, {0}},
    {DXBC_OP_ULT, 3, {W(3, X), R(2, 1), DXBC_IMM(3)}, 0, {0}},
    {DXBC_OP_MOVC, 4, {W(3, X), R(3, 0), R(2, 0), R(2, 1)}, 0, {0}},
    {DXBC_OP_USHR, 3, {W(3, Y), TID, DXBC_IMM(2)}, 0, {0}},
    {DXBC_OP_AND, 3, {W(3, Y), R(3, 1), DXBC_IMM(5)}, 0, {0}},
    {DXBC_OP_OR, 3, {W(3, Y), R(3, 1), R(1, 0)}, 0, {0}},
    {DXBC_OP_IADD, 3, {W(3, X), R(3, 0), R(3, 1)}, 0, {0}},
    {DXBC_OP_ISHL, 3, {W(0, X), TID, DXBC_IMM(2)}, 0, {0}},
    {DXBC_OP_STORE_RAW, 3, {DXBC_DST(DXBC_UAV, 0, X), R(0, 0), R(3, 0)}, 0, {0}},
    END,
};
static const char arithmetic_hlsl[] =
    "RWByteAddressBuffer output : register(u0);\n"
    "[numthreads(64, 1, 1)] void main(uint3 id : SV_DispatchThreadID)\n"
    "{\n"
    "    uint i = id.x;\n"
    "    float f = min(max((float)i * 0.5f + 1.25f, 10.0f), 100.0f);\n"
    "    uint u = (uint)f, q = i / 7, r = i % 7;\n"
    "    uint v = r < 3 ? q : r;\n"
    "    output.Store(i * 4, v + (((i >> 2) & 5) | u));\n"
    "}\n";
static void arithmetic_expect(uint32_t *output, uint32_t *output2)
{
    (void)output2;
    for (uint32_t i = 0; i < THREADS; i++) {
        float f = (float)i * 0.5f + 1.25f;
        f = f < 10.0f ? 10.0f : f > 100.0f ? 100.0f : f;
        uint32_t u = (uint32_t)f, q = i / 7, r = i % 7, v = r < 3 ? q : r;
        output[i] = v + (((i >> 2) & 5) | u);
    }
}

/* atomics: each thread takes a slot with imm_atomic_iadd at word 0 and marks it; word 300 gets
 * the largest thread id through atomic_umax */
static const struct dxbc_instruction atomics_program[] = {
    {DXBC_OP_DCL_UAV_RAW, 1, {DXBC_RESOURCE(DXBC_UAV, 0)}, 0, {0}},
    DCL_THREAD_ID, DCL_TEMPS(1), DCL_GROUP,
    {DXBC_OP_IMM_ATOMIC_IADD, 4, {W(0, X), DXBC_RESOURCE(DXBC_UAV, 0), DXBC_IMM(0), DXBC_IMM(1)}, 0, {0}},
    {DXBC_OP_IADD, 3, {W(0, Y), R(0, 0), DXBC_IMM(1)}, 0, {0}},
    {DXBC_OP_ISHL, 3, {W(0, Y), R(0, 1), DXBC_IMM(2)}, 0, {0}},
    {DXBC_OP_STORE_RAW, 3, {DXBC_DST(DXBC_UAV, 0, X), R(0, 1), DXBC_IMM(1)}, 0, {0}},
    {DXBC_OP_ATOMIC_UMAX, 3, {DXBC_RESOURCE(DXBC_UAV, 0), DXBC_IMM(1200), TID}, 0, {0}},
    END,
};
static const char atomics_hlsl[] =
    "RWByteAddressBuffer output : register(u0);\n"
    "[numthreads(64, 1, 1)] void main(uint3 id : SV_DispatchThreadID)\n"
    "{ uint slot; output.InterlockedAdd(0, 1, slot); output.Store((slot + 1) * 4, 1); output.InterlockedMax(1200, id.x); }\n";
static void atomics_expect(uint32_t *output, uint32_t *output2)
{
    (void)output2;
    output[0] = THREADS;
    for (uint32_t i = 1; i <= THREADS; i++)
        output[i] = 1;
    output[300] = THREADS - 1;
}

/* group shared memory: each thread stores its id, the group syncs, each reads its mirror's */
static const struct dxbc_instruction shared_program[] = {
    {DXBC_OP_DCL_UAV_RAW, 1, {DXBC_RESOURCE(DXBC_UAV, 0)}, 0, {0}},
    {DXBC_OP_DCL_TGSM_RAW, 1, {DXBC_RESOURCE(DXBC_GROUP_SHARED, 0)}, 1, {256}},
    DCL_THREAD_ID,
    {DXBC_OP_DCL_INPUT, 1, {DXBC_OPERAND(DXBC_THREAD_ID_IN_GROUP, DXBC_MASK, DXBC_X, 0)}, 0, {0}},
    DCL_TEMPS(2), DCL_GROUP,
    {DXBC_OP_ISHL, 3, {W(0, X), DXBC_SRC(DXBC_THREAD_ID_IN_GROUP, 0, 0), DXBC_IMM(2)}, 0, {0}},
    {DXBC_OP_STORE_RAW, 3, {DXBC_DST(DXBC_GROUP_SHARED, 0, X), R(0, 0), TID}, 0, {0}},
    {DXBC_OP_SYNC | DXBC_SYNC_THREADS_IN_GROUP | DXBC_SYNC_GROUP_SHARED_MEMORY, 0, {{0}}, 0, {0}},
    {DXBC_OP_XOR, 3, {W(0, Y), DXBC_SRC(DXBC_THREAD_ID_IN_GROUP, 0, 0), DXBC_IMM(63)}, 0, {0}},
    {DXBC_OP_ISHL, 3, {W(0, Y), R(0, 1), DXBC_IMM(2)}, 0, {0}},
    {DXBC_OP_LD_RAW, 3, {W(1, X), R(0, 1), DXBC_READ(DXBC_GROUP_SHARED, 0)}, 0, {0}},
    {DXBC_OP_ISHL, 3, {W(0, Z), TID, DXBC_IMM(2)}, 0, {0}},
    {DXBC_OP_STORE_RAW, 3, {DXBC_DST(DXBC_UAV, 0, X), R(0, 2), R(1, 0)}, 0, {0}},
    END,
};
static const char shared_hlsl[] =
    "RWByteAddressBuffer output : register(u0);\n"
    "groupshared uint values[64];\n"
    "[numthreads(64, 1, 1)] void main(uint3 id : SV_DispatchThreadID, uint3 local : SV_GroupThreadID)\n"
    "{ values[local.x] = id.x; GroupMemoryBarrierWithGroupSync(); output.Store(id.x * 4, values[local.x ^ 63]); }\n";
static void shared_expect(uint32_t *output, uint32_t *output2)
{
    (void)output2;
    for (uint32_t i = 0; i < THREADS; i++)
        output[i] = (i & ~63u) + (63 - (i & 63));
}

/* the size query of a raw SRV (bufinfo: bytes) and of a structured UAV (elements) */
static const struct dxbc_instruction sizes_program[] = {
    {DXBC_OP_DCL_RESOURCE_RAW, 1, {DXBC_RESOURCE(DXBC_RESOURCE_SRV, 0)}, 0, {0}},
    {DXBC_OP_DCL_UAV_RAW, 1, {DXBC_RESOURCE(DXBC_UAV, 0)}, 0, {0}},
    {DXBC_OP_DCL_UAV_STRUCTURED, 1, {DXBC_RESOURCE(DXBC_UAV, 1)}, 1, {8}},
    DCL_TEMPS(2), DCL_GROUP,
    {DXBC_OP_BUFINFO, 2, {W(0, X), DXBC_READ(DXBC_RESOURCE_SRV, 0)}, 0, {0}},
    {DXBC_OP_BUFINFO, 2, {W(1, X), DXBC_READ(DXBC_UAV, 1)}, 0, {0}},
    {DXBC_OP_MOV, 2, {W(0, Y), R(1, 0)}, 0, {0}},
    {DXBC_OP_STORE_RAW, 3, {DXBC_DST(DXBC_UAV, 0, X | Y), DXBC_IMM(0), DXBC_SRC4(DXBC_TEMP, 0)}, 0, {0}},
    END,
};
static const char sizes_hlsl[] =
    "struct S { uint a; uint b; };\n"
    "ByteAddressBuffer input : register(t0);\n"
    "RWByteAddressBuffer output : register(u0);\n"
    "RWStructuredBuffer<S> other : register(u1);\n"
    "[numthreads(64, 1, 1)] void main()\n"
    "{ uint bytes, count, stride; input.GetDimensions(bytes); other.GetDimensions(count, stride); output.Store2(0, uint2(bytes, count)); }\n";
static void sizes_expect(uint32_t *output, uint32_t *output2)
{
    (void)output2;
    output[0] = INPUT_WORDS * 4;
    output[1] = OUTPUT_WORDS / 2;
}

#define PROGRAM(name, minor, layout) {#name, name##_program, ARRAY_SIZE(name##_program), minor, name##_hlsl, name##_expect, layout}
static const struct program programs[] = {
    PROGRAM(raw, 0, &default_layout),
    {"spaces", spaces_program, ARRAY_SIZE(spaces_program), 1, spaces_hlsl, raw_expect, &spaces_layout},
    PROGRAM(structured, 0, &default_layout),
    PROGRAM(typed, 0, &default_layout),
    PROGRAM(arithmetic, 0, &default_layout),
    PROGRAM(atomics, 0, &default_layout),
    PROGRAM(shared, 0, &default_layout),
    PROGRAM(sizes, 0, &default_layout),
};

/* Each program as DXBC and as HLSL, on both root ABIs: the expected contents from both. */
static void test_programs(struct env *env)
{
    static uint32_t expected[OUTPUT_WORDS], expected2[OUTPUT_WORDS], output[OUTPUT_WORDS], output2[OUTPUT_WORDS];

    for (size_t p = 0; p < ARRAY_SIZE(programs); p++) {
        const struct program *program = &programs[p];
        size_t size;
        void *dxbc = dxbc_write_shader(DXBC_COMPUTE_SHADER, 5, program->minor, program->instructions, program->count, &size);
        ID3D10Blob *hlsl = harness_compile(program->hlsl, 0);
        CHECK_MSG(dxbc != NULL, "%s: the writer cannot encode the program", program->name);
        if (!dxbc || !hlsl) {
            free(dxbc);
            continue;
        }
        memset(expected, 0, sizeof(expected));
        memset(expected2, 0, sizeof(expected2));
        program->expect(expected, expected2);
        for (int memory_abi = 0; memory_abi < 2; memory_abi++) {
            ID3D10Blob *blob = serialize_root_signature(program->layout,
                    memory_abi ? D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI : D3D12_ROOT_SIGNATURE_FLAG_NONE);
            ID3D12RootSignature *signature = blob ? create_root_signature(env->device, ID3D10Blob_GetBufferPointer(blob),
                    ID3D10Blob_GetBufferSize(blob)) : NULL;
            for (int from_hlsl = 0; from_hlsl < 2 && signature; from_hlsl++) {
                LOG_MARK();
                ID3D12PipelineState *state = from_hlsl
                        ? create_pipeline(env->device, signature, ID3D10Blob_GetBufferPointer(hlsl), ID3D10Blob_GetBufferSize(hlsl), S_OK)
                        : create_pipeline(env->device, signature, dxbc, size, S_OK);
                CHECK_NO_LOG();
                if (!state)
                    continue;
                memset(output, 0xcd, sizeof(output));
                dispatch(env, signature, state, output, output2);
                for (uint32_t i = 0, reported = 0; i < OUTPUT_WORDS; i++) {
                    if ((output[i] != expected[i] || output2[i] != expected2[i]) && reported++ < 4)
                        CHECK_MSG(false, "%s (%s, %s ABI): word %u is 0x%x / 0x%x, expected 0x%x / 0x%x", program->name,
                                from_hlsl ? "HLSL" : "DXBC", memory_abi ? "memory" : "push", i, output[i], output2[i], expected[i],
                                expected2[i]);
                }
                ID3D12PipelineState_Release(state);
            }
            if (signature)
                ID3D12RootSignature_Release(signature);
            if (blob)
                ID3D10Blob_Release(blob);
        }
        ID3D10Blob_Release(hlsl);
        free(dxbc);
    }
}

/* The raw program with its SRV (a table view) and its root UAV 4 and 12 bytes into their
 * buffers: D3D12 allows any 4 bytes; the device's storage buffers want 16
 * (docs/descriptors.md, "Views at any offset"). DXBC and HLSL, both root ABIs. */
static void test_views_at_any_element(struct env *env)
{
    static uint32_t output[OUTPUT_WORDS], output2[OUTPUT_WORDS];
    size_t size;
    void *dxbc = dxbc_write_shader(DXBC_COMPUTE_SHADER, 5, 0, raw_program, ARRAY_SIZE(raw_program), &size);
    ID3D10Blob *hlsl = harness_compile(raw_hlsl, 0);

    for (int memory_abi = 0; dxbc && hlsl && memory_abi < 2; memory_abi++) {
        ID3D10Blob *blob = serialize_root_signature(&default_layout,
                memory_abi ? D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI : D3D12_ROOT_SIGNATURE_FLAG_NONE);
        ID3D12RootSignature *signature = blob ? create_root_signature(env->device, ID3D10Blob_GetBufferPointer(blob),
                ID3D10Blob_GetBufferSize(blob)) : NULL;
        for (int from_hlsl = 0; from_hlsl < 2 && signature; from_hlsl++) {
            ID3D12PipelineState *state = from_hlsl
                    ? create_pipeline(env->device, signature, ID3D10Blob_GetBufferPointer(hlsl), ID3D10Blob_GetBufferSize(hlsl), S_OK)
                    : create_pipeline(env->device, signature, dxbc, size, S_OK);
            for (uint32_t shift = 1; state && shift <= 3; shift += 2) {
                LOG_MARK();
                dispatch_threads(env, signature, state, output, output2, 0, shift);
                CHECK_NO_LOG();
                for (uint32_t i = 0, reported = 0; i < OUTPUT_WORDS; i++) {
                    uint32_t expected = i >= shift && i < THREADS + shift ? input_word(i) * 3 + 7 : 0;
                    if (output[i] != expected && reported++ < 4)
                        CHECK_MSG(false, "views %u words in (%s, %s ABI): word %u is 0x%x, expected 0x%x", shift,
                                from_hlsl ? "HLSL" : "DXBC", memory_abi ? "memory" : "push", i, output[i], expected);
                }
            }
            if (state)
                ID3D12PipelineState_Release(state);
        }
        if (signature)
            ID3D12RootSignature_Release(signature);
        if (blob)
            ID3D10Blob_Release(blob);
    }
    if (hlsl)
        ID3D10Blob_Release(hlsl);
    free(dxbc);
}

/* pRootSignature NULL: the pipeline takes the shader's RTS0 part; the list binds a root
 * signature created from the same shader bytecode, as D3D12 programs do. */
static void test_embedded_root_signature(struct env *env)
{
    static uint32_t expected[OUTPUT_WORDS], expected2[OUTPUT_WORDS], output[OUTPUT_WORDS], output2[OUTPUT_WORDS];
    ID3D10Blob *blob = serialize_root_signature(&default_layout, D3D12_ROOT_SIGNATURE_FLAG_NONE);
    ID3D12RootSignature *signature;
    ID3D12PipelineState *state;
    size_t size, plain_size;
    void *dxbc, *plain;
    LOG_MARK();

    if (!blob)
        return;
    dxbc = dxbc_write_shader_with_root_signature(DXBC_COMPUTE_SHADER, 5, 0, raw_program, ARRAY_SIZE(raw_program),
            ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob), &size);
    plain = dxbc_write_shader(DXBC_COMPUTE_SHADER, 5, 0, raw_program, ARRAY_SIZE(raw_program), &plain_size);
    CHECK(dxbc && plain);
    if (dxbc && plain) {
        signature = create_root_signature(env->device, dxbc, size);
        state = create_pipeline(env->device, NULL, dxbc, size, S_OK);
        CHECK_NO_LOG();
        if (signature && state) {
            memset(expected, 0, sizeof(expected));
            memset(expected2, 0, sizeof(expected2));
            raw_expect(expected, expected2);
            dispatch(env, signature, state, output, output2);
            CHECK(!memcmp(output, expected, sizeof(output)) && !memcmp(output2, expected2, sizeof(output2)));
        }
        if (state)
            ID3D12PipelineState_Release(state);
        if (signature)
            ID3D12RootSignature_Release(signature);
        /* without one, NULL is refused with a line that says so */
        state = create_pipeline(env->device, NULL, plain, plain_size, E_INVALIDARG);
        CHECK(state == NULL);
        CHECK_LOG("CreateComputePipelineState", "pRootSignature is NULL", "RTS0");
    }
    free(dxbc);
    free(plain);
    ID3D10Blob_Release(blob);
}

/* The console's DispatchX on a DXBC pipeline: USE_THREAD_DIMENSIONS counts threads, and the
 * variant it needs (a thread limit) comes from the translated module as from D3DCompile's. */
static void test_dispatchx(struct env *env)
{
    static uint32_t expected[OUTPUT_WORDS], expected2[OUTPUT_WORDS], output[OUTPUT_WORDS], output2[OUTPUT_WORDS];
    ID3D10Blob *blob = serialize_root_signature(&default_layout, D3D12_ROOT_SIGNATURE_FLAG_NONE);
    ID3D12RootSignature *signature = blob ? create_root_signature(env->device, ID3D10Blob_GetBufferPointer(blob),
            ID3D10Blob_GetBufferSize(blob)) : NULL;
    size_t size;
    void *dxbc = dxbc_write_shader(DXBC_COMPUTE_SHADER, 5, 0, raw_program, ARRAY_SIZE(raw_program), &size);
    ID3D12PipelineState *state = signature && dxbc ? create_pipeline(env->device, signature, dxbc, size, S_OK) : NULL;
    LOG_MARK();

    if (state) {
        memset(expected, 0, sizeof(expected));
        memset(expected2, 0, sizeof(expected2));
        raw_expect(expected, expected2);
        for (uint32_t i = 200; i < OUTPUT_WORDS; i++)
            expected[i] = 0;
        dispatch_threads(env, signature, state, output, output2, 200, 0);
        CHECK_NO_LOG();
        CHECK_MSG(!memcmp(output, expected, sizeof(output)), "DispatchX of 200 threads: words 0x%x 0x%x 0x%x, expected 0x%x 0x%x 0x%x",
                output[0], output[199], output[200], expected[0], expected[199], expected[200]);
        ID3D12PipelineState_Release(state);
    }
    free(dxbc);
    if (signature)
        ID3D12RootSignature_Release(signature);
    if (blob)
        ID3D10Blob_Release(blob);
}

/* Root constants of one and two values read by DXBC cbuffers that FXC declares as whole rows:
 * b0 and b1 hold one value each (push offsets 0 and 4), b2 two (offset 16); the row of b2 is
 * read whole, and its values past the root constants read 0. */
static void test_root_constants_in_rows(struct env *env)
{
    static const struct dxbc_instruction program[] = {
        {DXBC_OP_DCL_CONSTANT_BUFFER, 1, {DXBC_CB_DECL(0, 1)}, 0, {0}},
        {DXBC_OP_DCL_CONSTANT_BUFFER, 1, {DXBC_CB_DECL(1, 1)}, 0, {0}},
        {DXBC_OP_DCL_CONSTANT_BUFFER, 1, {DXBC_CB_DECL(2, 1)}, 0, {0}},
        {DXBC_OP_DCL_UAV_RAW, 1, {DXBC_RESOURCE(DXBC_UAV, 0)}, 0, {0}},
        DCL_TEMPS(1), DCL_GROUP,
        {DXBC_OP_MOV, 2, {W(0, 0xf), {DXBC_CONSTANT_BUFFER, DXBC_SWIZZLE, DXBC_SWIZZLE_XYZW, 2, 0, 0, 0, 0, 0, 0, 0}}, 0, {0}},
        {DXBC_OP_IADD, 3, {W(0, X), R(0, 0), DXBC_CB_SRC(0, 0, 0)}, 0, {0}},
        {DXBC_OP_IADD, 3, {W(0, Y), R(0, 1), DXBC_CB_SRC(1, 0, 0)}, 0, {0}},
        {DXBC_OP_STORE_RAW, 3, {DXBC_DST(DXBC_UAV, 0, 0xf), DXBC_IMM(0), DXBC_SRC4(DXBC_TEMP, 0)}, 0, {0}},
        END,
    };
    static const char hlsl[] =
        "cbuffer A : register(b0) { uint a; };\n"
        "cbuffer B : register(b1) { uint b; };\n"
        "cbuffer C : register(b2) { uint2 c; };\n"
        "RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(64, 1, 1)] void main() { output.Store4(0, uint4(c.x + a, c.y + b, 0, 0)); }\n";
    static const uint32_t expected[4] = {105, 207, 0, 0};
    D3D12_ROOT_PARAMETER1 parameters[4];
    size_t size;
    void *dxbc = dxbc_write_shader(DXBC_COMPUTE_SHADER, 5, 0, program, ARRAY_SIZE(program), &size);
    ID3D10Blob *code = harness_compile(hlsl, 0);

    memset(parameters, 0, sizeof(parameters));
    for (unsigned i = 0; i < 3; i++) {
        parameters[i].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
        parameters[i].Constants.Num32BitValues = i == 2 ? 2 : 1;
        parameters[i].Constants.ShaderRegister = i;
    }
    parameters[3].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    for (int memory_abi = 0; memory_abi < 2 && dxbc && code; memory_abi++) {
        ID3D12RootSignature *signature = harness_root_signature(env->device, parameters, 4,
                memory_abi ? D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI : D3D12_ROOT_SIGNATURE_FLAG_NONE);
        for (int from_hlsl = 0; from_hlsl < 2 && signature; from_hlsl++) {
            static const uint32_t c0 = 5, c1 = 7, c2[2] = {100, 200};
            ID3D12PipelineState *state = create_pipeline(env->device, signature, from_hlsl ? ID3D10Blob_GetBufferPointer(code) : dxbc,
                    from_hlsl ? ID3D10Blob_GetBufferSize(code) : size, S_OK);
            ID3D12Resource *output = harness_uav_buffer(env->device, 16);
            struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
            uint32_t data[4] = {0};
            if (state) {
                ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
                ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
                ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list.list, 0, c0, 0);
                ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list.list, 1, c1, 0);
                ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(list.list, 2, 2, c2, 0);
                ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 3, ID3D12Resource_GetGPUVirtualAddress(output));
                ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
                harness_execute_and_wait(env->device, env->queue, &list);
                harness_read_back(env->device, env->queue, output, data, sizeof(data));
                CHECK_MSG(!memcmp(data, expected, sizeof(data)), "root constants in rows (%s, %s ABI): %u %u %u %u", from_hlsl ? "HLSL" : "DXBC",
                        memory_abi ? "memory" : "push", data[0], data[1], data[2], data[3]);
                ID3D12PipelineState_Release(state);
            }
            harness_release_list(&list);
            ID3D12Resource_Release(output);
        }
        if (signature)
            ID3D12RootSignature_Release(signature);
    }
    free(dxbc);
    if (code)
        ID3D10Blob_Release(code);
}

static void expect_refused(struct env *env, ID3D12RootSignature *signature, const void *code, size_t size, HRESULT expected,
        const char *what, const char *words);

/* Root constants read at a row known only when the shader runs (cb0[r0.x]) are refused with a
 * line: they become one scalar per value, which no run-time row index can pick. */
static void test_root_constants_dynamic_row_refused(struct env *env)
{
    static const struct dxbc_instruction program[] = {
        {DXBC_OP_DCL_CONSTANT_BUFFER | (1u << 11) /* dynamicIndexed */, 1, {DXBC_CB_DECL(0, 1)}, 0, {0}},
        {DXBC_OP_DCL_UAV_RAW, 1, {DXBC_RESOURCE(DXBC_UAV, 0)}, 0, {0}},
        DCL_THREAD_ID, DCL_TEMPS(1), DCL_GROUP,
        {DXBC_OP_AND, 3, {W(0, X), TID, DXBC_IMM(0)}, 0, {0}},
        {DXBC_OP_MOV, 2, {W(0, Y), {DXBC_CONSTANT_BUFFER, DXBC_SELECT, 0, 0, 0, 0, 0, 0, 2, 0, 0}}, 0, {0}},
        {DXBC_OP_STORE_RAW, 3, {DXBC_DST(DXBC_UAV, 0, X), DXBC_IMM(0), R(0, 1)}, 0, {0}},
        END,
    };
    D3D12_ROOT_PARAMETER1 parameters[2];
    size_t size;
    void *dxbc = dxbc_write_shader(DXBC_COMPUTE_SHADER, 5, 0, program, ARRAY_SIZE(program), &size);
    ID3D12RootSignature *signature;

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 4;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    signature = harness_root_signature(env->device, parameters, 2, D3D12_ROOT_SIGNATURE_FLAG_NONE);
    CHECK(dxbc != NULL);
    if (dxbc && signature)
        expect_refused(env, signature, dxbc, size, E_INVALIDARG, "dynamic root constant row", "known only when the shader runs");
    if (signature)
        ID3D12RootSignature_Release(signature);
    free(dxbc);
}

/* Writes program with one token changed (index from the start of the shader chunk's tokens) and
 * the checksum made right again: what a malformed FXC output looks like. */
static void *with_token(const struct dxbc_instruction *program, size_t count, size_t token, uint32_t value, size_t *size)
{
    uint8_t *dxbc = dxbc_write_shader(DXBC_COMPUTE_SHADER, 5, 0, program, count, size);
    uint32_t offset;
    if (!dxbc)
        return NULL;
    memcpy(&offset, dxbc + 32 + 4 * 2, 4); /* the third part: SHEX */
    memcpy(dxbc + offset + 8 + 4 * token, &value, 4);
    d3d12xs_dxbc_checksum(dxbc, *size, dxbc + 4);
    return dxbc;
}

static void expect_refused(struct env *env, ID3D12RootSignature *signature, const void *code, size_t size, HRESULT expected,
        const char *what, const char *words)
{
    LOG_MARK();
    ID3D12PipelineState *state = create_pipeline(env->device, signature, code, size, expected);
    CHECK_MSG(state == NULL, "%s: a pipeline was made", what);
    if (state)
        ID3D12PipelineState_Release(state);
    CHECK_LOG("CreateComputePipelineState", "pDesc->CS", words);
}

static void test_refusals(struct env *env)
{
    /* resource dimension 11 (RAW_BUFFER) does not belong in a typed declaration (textures are 2-10: test_dxbc_texture) */
    static const struct dxbc_instruction bad_dimension_program[] = {
        {DXBC_OP_DCL_RESOURCE | (11u << 11), 1, {DXBC_RESOURCE(DXBC_RESOURCE_SRV, 2)}, 1, {DXBC_RETURN_FLOAT}},
        DCL_GROUP, END,
    };
    /* a counter on a range (u1 to u2): each descriptor's counter would need the index (tested
     * with counters that work in test_dxbc_ranges) */
    static const struct dxbc_instruction counter_program[] = {
        {DXBC_OP_DCL_UAV_STRUCTURED | DXBC_UAV_HAS_COUNTER, 1, {DXBC51_DECL(DXBC_UAV, 0, 1, 2)}, 2, {8, 0}},
        DCL_GROUP, END,
    };
    static const struct dxbc_instruction no_group_program[] = {END};
    static const uint8_t dxil_part[] = {'D', 'X', 'I', 'L'};
    ID3D10Blob *blob = serialize_root_signature(&default_layout, D3D12_ROOT_SIGNATURE_FLAG_NONE);
    ID3D12RootSignature *signature = blob ? create_root_signature(env->device, ID3D10Blob_GetBufferPointer(blob),
            ID3D10Blob_GetBufferSize(blob)) : NULL;
    size_t size;
    uint8_t *dxbc = dxbc_write_shader(DXBC_COMPUTE_SHADER, 5, 0, raw_program, ARRAY_SIZE(raw_program), &size), *copy;

    if (!signature || !dxbc)
        goto done;
    copy = malloc(size);
    /* the checksum: one byte changed after the writer signed it */
    memcpy(copy, dxbc, size);
    copy[size - 8] ^= 1;
    expect_refused(env, signature, copy, size, E_INVALIDARG, "checksum", "checksum");
    /* truncated: the header says more than there is */
    expect_refused(env, signature, dxbc, size - 4, E_INVALIDARG, "truncated", "bytes");
    /* a part outside the container */
    memcpy(copy, dxbc, size);
    {
        uint32_t outside = (uint32_t)size + 64;
        memcpy(copy + 32, &outside, 4);
        d3d12xs_dxbc_checksum(copy, size, copy + 4);
    }
    expect_refused(env, signature, copy, size, E_INVALIDARG, "part offset", "outside");
    /* DXIL (DXC's output) in place of the shader */
    memcpy(copy, dxbc, size);
    {
        uint32_t offset;
        memcpy(&offset, copy + 32 + 8, 4);
        memcpy(copy + offset, dxil_part, 4);
        d3d12xs_dxbc_checksum(copy, size, copy + 4);
    }
    expect_refused(env, signature, copy, size, E_INVALIDARG, "DXIL", "DXIL");
    free(copy);

    /* a pixel shader; shader model 4.0; an instruction running past the end; a bad dimension; a counter */
    if ((copy = with_token(raw_program, ARRAY_SIZE(raw_program), 0, 0x00000050u, &size)))
        expect_refused(env, signature, copy, size, E_INVALIDARG, "pixel shader", "is a pixel shader, not a compute shader");
    free(copy);
    if ((copy = with_token(raw_program, ARRAY_SIZE(raw_program), 0, 0x00050040u, &size)))
        expect_refused(env, signature, copy, size, E_INVALIDARG, "shader model 4.0", "shader model 4.0");
    free(copy);
    if ((copy = with_token(raw_program, ARRAY_SIZE(raw_program), 2, 0x7f000059u, &size)))
        expect_refused(env, signature, copy, size, E_INVALIDARG, "instruction length", "past the end");
    free(copy);
    if ((copy = dxbc_write_shader(DXBC_COMPUTE_SHADER, 5, 0, bad_dimension_program, ARRAY_SIZE(bad_dimension_program), &size)))
        expect_refused(env, signature, copy, size, E_INVALIDARG, "resource dimension", "resource dimension 11");
    free(copy);
    if ((copy = dxbc_write_shader(DXBC_COMPUTE_SHADER, 5, 1, counter_program, ARRAY_SIZE(counter_program), &size)))
        expect_refused(env, signature, copy, size, E_NOTIMPL, "counter", "UAV counters of a register range");
    free(copy);
    if ((copy = dxbc_write_shader(DXBC_COMPUTE_SHADER, 5, 0, no_group_program, ARRAY_SIZE(no_group_program), &size)))
        expect_refused(env, signature, copy, size, E_INVALIDARG, "no thread group", "dcl_thread_group");
    free(copy);
    /* every truncation and every single-token change is refused or translated, never a crash */
    {
        size_t full;
        uint8_t *original = dxbc_write_shader(DXBC_COMPUTE_SHADER, 5, 0, raw_program, ARRAY_SIZE(raw_program), &full);
        unsigned made = 0;
        for (size_t length = 0; original && length < full; length += 3) {
            LOG_MARK();
            ID3D12PipelineState *state = create_pipeline(env->device, signature, original, length, E_INVALIDARG);
            if (state)
                ID3D12PipelineState_Release(state);
            CHECK_LOG("CreateComputePipelineState", "pDesc->CS");
        }
        for (size_t token = 0; original && token < 40; token++) {
            static const uint32_t values[] = {0, 1, 0xffffffffu, 0x7f000000u, 0x00100000u, 0x80000000u};
            for (size_t v = 0; v < ARRAY_SIZE(values); v++) {
                D3D12_COMPUTE_PIPELINE_STATE_DESC desc;
                ID3D12PipelineState *state = NULL;
                if (!(copy = with_token(raw_program, ARRAY_SIZE(raw_program), token, values[v], &size)))
                    continue;
                memset(&desc, 0, sizeof(desc));
                desc.pRootSignature = signature;
                desc.CS.pShaderBytecode = copy;
                desc.CS.BytecodeLength = size;
                LOG_MARK();
                if (SUCCEEDED(ID3D12Device_CreateComputePipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&state))) {
                    made++;
                    ID3D12PipelineState_Release(state);
                    CHECK_NO_LOG();
                } else {
                    CHECK_LOG("CreateComputePipelineState");
                }
                free(copy);
            }
        }
        free(original);
        CHECK_MSG(made < 40 * 6, "every changed token made a pipeline (%u)", made);
    }

done:
    free(dxbc);
    if (signature)
        ID3D12RootSignature_Release(signature);
    if (blob)
        ID3D10Blob_Release(blob);
}

/* The translator d3d12xs-dxbc is looked for beside d3d12xs-hlslc (D3D12XS_HLSLC): where it is
 * missing, a DXBC pipeline fails with E_FAIL and a line naming the path, and the device is fine. */
static void test_translator_missing(struct env *env)
{
    ID3D10Blob *blob = serialize_root_signature(&default_layout, D3D12_ROOT_SIGNATURE_FLAG_NONE);
    ID3D12RootSignature *signature = blob ? create_root_signature(env->device, ID3D10Blob_GetBufferPointer(blob),
            ID3D10Blob_GetBufferSize(blob)) : NULL;
    size_t size;
    uint8_t *dxbc = dxbc_write_shader(DXBC_COMPUTE_SHADER, 5, 0, raw_program, ARRAY_SIZE(raw_program), &size);

    if (signature && dxbc)
        expect_refused(env, signature, dxbc, size, E_FAIL, "no translator", "/nonexistent-d3d12xs/d3d12xs-dxbc");
    free(dxbc);
    if (signature)
        ID3D12RootSignature_Release(signature);
    if (blob)
        ID3D10Blob_Release(blob);
}

int main(int argc, char **argv)
{
    static const char *const no_translator[] = {"D3D12XS_HLSLC=/nonexistent-d3d12xs/d3d12xs-hlslc", NULL};
    struct env env;
    harness_init();
    env.device = harness_create_device();
    env.queue = harness_create_queue(env.device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    if (argc > 1 && !strcmp(argv[1], "no-translator")) {
        test_translator_missing(&env);
        ID3D12CommandQueue_Release(env.queue);
        harness_release_device(env.device);
        return harness_finish();
    }
    CHECK_MSG(harness_run_self("no-translator", no_translator), "the run without a DXBC translator failed");
    test_programs(&env);
    test_views_at_any_element(&env);
    test_embedded_root_signature(&env);
    test_dispatchx(&env);
    test_root_constants_in_rows(&env);
    test_root_constants_dynamic_row_refused(&env);
    test_refusals(&env);
    ID3D12CommandQueue_Release(env.queue);
    harness_release_device(env.device);
    return harness_finish();
}
