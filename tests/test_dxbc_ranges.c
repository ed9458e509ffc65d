/* Shader model 5.1 register ranges and UAV counters of DXBC compute shaders (written by
 * tests/dxbc_writer.c: no FXC runs here), bound through root-signature descriptor tables as
 * D3DCompile's arrays and counters are: a bounded SRV range indexed by a value known when the
 * shader runs (beside the same HLSL through D3DCompile), the same index marked
 * NonUniformResourceIndex, an unbounded UAV range, an array of CBVs, typed buffer SRV and UAV
 * ranges, texture and sampler ranges, ranges in non-zero spaces, constant indices into ranges, and counters incremented and decremented (imm_atomic_alloc,
 * imm_atomic_consume) and read back through the counter resource. Then what is refused. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "dxbc_writer.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define WORDS 256               /* words per buffer: one per thread of four groups of 64 */
#define BUFFERS 4               /* descriptors of each range */

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
};

#define END {DXBC_OP_RET, 0, {{0}}, 0, {0}}
#define DCL_THREAD_ID {DXBC_OP_DCL_INPUT, 1, {DXBC_OPERAND(DXBC_THREAD_ID, DXBC_MASK, DXBC_X, 0)}, 0, {0}}
#define DCL_TEMPS(n) {DXBC_OP_DCL_TEMPS, 0, {{0}}, 1, {(n)}}
#define DCL_GROUP {DXBC_OP_DCL_THREAD_GROUP, 0, {{0}}, 3, {64, 1, 1}}
#define TID DXBC_SRC(DXBC_THREAD_ID, 0, 0)
#define R(n, c) DXBC_SRC(DXBC_TEMP, n, c)
#define W(n, mask) DXBC_DST(DXBC_TEMP, n, mask)
#define X DXBC_X
#define Y DXBC_Y
/* U<id>[<reg>].x as the destination of store_raw (shader model 5.1) */
#define U51_DST(id_, reg_) {DXBC_UAV, DXBC_MASK, X, (id_), (reg_), 0, 2, 0, 0, 0, 0}
#define GROUP DXBC_SRC(DXBC_THREAD_GROUP_ID, 0, 0)
#define DCL_GROUP_ID {DXBC_OP_DCL_INPUT, 1, {DXBC_OPERAND(DXBC_THREAD_GROUP_ID, DXBC_MASK, DXBC_X, 0)}, 0, {0}}
/* Which descriptor of a range thread i reads: an index without NonUniformResourceIndex must be
 * the same for the threads of a wave (D3D12 and Vulkan alike: lavapipe takes one thread's), so
 * those pick by group; marked non-uniform, each thread picks its own. */
static uint32_t uniform_pick(uint32_t i)
{
    return i / 64 & 3;
}
static uint32_t nonuniform_pick(uint32_t i)
{
    return i & 3;
}
/* r0.x = the pick (from the group id or the thread id), r0.y = thread * 4 (its byte address) */
#define PICK_AND_ADDRESS(source_) \
    {DXBC_OP_AND, 3, {W(0, X), source_, DXBC_IMM(3)}, 0, {0}}, \
    {DXBC_OP_ISHL, 3, {W(0, Y), TID, DXBC_IMM(2)}, 0, {0}}

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

static ID3D12Resource *zeroed_buffer(struct env *env, size_t size)
{
    void *zeros = calloc(1, size);
    ID3D12Resource *buffer = upload_buffer(env, zeros, size);
    free(zeros);
    return buffer;
}

static ID3D12PipelineState *create_pipeline(struct env *env, ID3D12RootSignature *signature, const struct dxbc_instruction *program,
        size_t count, unsigned minor, HRESULT expected)
{
    D3D12_COMPUTE_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *state = NULL;
    size_t size;
    void *dxbc = dxbc_write_shader(DXBC_COMPUTE_SHADER, 5, minor, program, count, &size);

    CHECK(dxbc != NULL);
    if (!dxbc)
        return NULL;
    memset(&desc, 0, sizeof(desc));
    desc.pRootSignature = signature;
    desc.CS.pShaderBytecode = dxbc;
    desc.CS.BytecodeLength = size;
    CHECK_HR(ID3D12Device_CreateComputePipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&state), expected);
    free(dxbc);
    return state;
}

/* A root signature: parameter 0 a table of one range, parameter 1 (when root_uav) the root UAV u0. */
static ID3D12RootSignature *table_signature(struct env *env, D3D12_DESCRIPTOR_RANGE_TYPE type, UINT count, UINT base, UINT space,
        bool root_uav)
{
    D3D12_DESCRIPTOR_RANGE1 range;
    D3D12_ROOT_PARAMETER1 parameters[2];

    memset(&range, 0, sizeof(range));
    range.RangeType = type;
    range.NumDescriptors = count;
    range.BaseShaderRegister = base;
    range.RegisterSpace = space;
    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    parameters[0].DescriptorTable.NumDescriptorRanges = 1;
    parameters[0].DescriptorTable.pDescriptorRanges = &range;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    return harness_root_signature(env->device, parameters, root_uav ? 2 : 1, D3D12_ROOT_SIGNATURE_FLAG_NONE);
}

static ID3D12DescriptorHeap *create_heap(struct env *env)
{
    D3D12_DESCRIPTOR_HEAP_DESC desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 8, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    ID3D12DescriptorHeap *heap = NULL;
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &desc, &IID_ID3D12DescriptorHeap, (void **)&heap), S_OK);
    return heap;
}

static D3D12_CPU_DESCRIPTOR_HANDLE slot(struct env *env, ID3D12DescriptorHeap *heap, UINT index)
{
    D3D12_CPU_DESCRIPTOR_HANDLE handle = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap);
    handle.ptr += index * ID3D12Device_GetDescriptorHandleIncrementSize(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    return handle;
}

static void raw_view(struct env *env, ID3D12Resource *buffer, ID3D12DescriptorHeap *heap, UINT index, bool writable)
{
    if (writable) {
        D3D12_UNORDERED_ACCESS_VIEW_DESC uav;
        memset(&uav, 0, sizeof(uav));
        uav.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
        uav.Format = DXGI_FORMAT_R32_TYPELESS;
        uav.Buffer.NumElements = WORDS;
        uav.Buffer.Flags = D3D12_BUFFER_UAV_FLAG_RAW;
        ID3D12Device_CreateUnorderedAccessView(env->device, buffer, NULL, &uav, slot(env, heap, index));
    } else {
        D3D12_SHADER_RESOURCE_VIEW_DESC srv;
        memset(&srv, 0, sizeof(srv));
        srv.ViewDimension = D3D12_SRV_DIMENSION_BUFFER;
        srv.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
        srv.Format = DXGI_FORMAT_R32_TYPELESS;
        srv.Buffer.NumElements = WORDS;
        srv.Buffer.Flags = D3D12_BUFFER_SRV_FLAG_RAW;
        ID3D12Device_CreateShaderResourceView(env->device, buffer, &srv, slot(env, heap, index));
    }
}

/* Four thread groups of 64 with the table at the heap's start and the root UAV (if any). */
static void dispatch(struct env *env, ID3D12RootSignature *signature, ID3D12PipelineState *state, ID3D12DescriptorHeap *heap,
        ID3D12Resource *root_uav)
{
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &heap);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 0, ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(heap));
    if (root_uav)
        ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 1, ID3D12Resource_GetGPUVirtualAddress(root_uav));
    ID3D12GraphicsCommandList2_Dispatch(list.list, WORDS / 64, 1, 1);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
}

/* Word i of source buffer j. */
static uint32_t source_word(uint32_t j, uint32_t i)
{
    return j * 1000 + i;
}

/* ---- a bounded SRV range: t2..t5 of space 2 ---- */

/* out[i] = t[2 + (group & 3)].Load(4 i) + t[4].Load(0): a dynamic index and a constant one
 * (test_srv_range changes the pick to the thread's, marked non-uniform). */
static const struct dxbc_instruction srv_range_program[] = {
    {DXBC_OP_DCL_RESOURCE_RAW, 1, {DXBC51_DECL(DXBC_RESOURCE_SRV, 0, 2, 5)}, 1, {2}},
    {DXBC_OP_DCL_UAV_RAW, 1, {DXBC51_DECL(DXBC_UAV, 0, 0, 0)}, 1, {0}},
    DCL_THREAD_ID, DCL_GROUP_ID, DCL_TEMPS(3), DCL_GROUP,
    PICK_AND_ADDRESS(GROUP),
    {DXBC_OP_LD_RAW, 3, {W(1, X), R(0, 1), DXBC51_READ_DYNAMIC(DXBC_RESOURCE_SRV, 0, 2, 0, 0)}, 0, {0}},
    {DXBC_OP_LD_RAW, 3, {W(2, X), DXBC_IMM(0), DXBC51_READ(DXBC_RESOURCE_SRV, 0, 4)}, 0, {0}},
    {DXBC_OP_IADD, 3, {W(1, X), R(1, 0), R(2, 0)}, 0, {0}},
    {DXBC_OP_STORE_RAW, 3, {U51_DST(0, 0), R(0, 1), R(1, 0)}, 0, {0}},
    END,
};
static const char srv_range_hlsl[] =
    "ByteAddressBuffer t[4] : register(t2, space2);\n"
    "RWByteAddressBuffer output : register(u0);\n"
    "[numthreads(64, 1, 1)] void main(uint3 id : SV_DispatchThreadID, uint3 group : SV_GroupID)\n"
    "{ output.Store(id.x * 4, t[group.x & 3].Load(id.x * 4) + t[2].Load(0)); }\n";

/* Runs the SRV range program (picking by thread, marked NonUniformResourceIndex, when asked)
 * and, once, the HLSL beside it: both must read the picked descriptor of the table. */
static void test_srv_range(struct env *env, bool nonuniform)
{
    struct dxbc_instruction program[ARRAY_SIZE(srv_range_program)];
    ID3D12RootSignature *signature = table_signature(env, D3D12_DESCRIPTOR_RANGE_TYPE_SRV, BUFFERS, 2, 2, true);
    ID3D12DescriptorHeap *heap = create_heap(env);
    ID3D12Resource *sources[BUFFERS], *output = zeroed_buffer(env, 4 * WORDS);
    ID3D12PipelineState *state;
    uint32_t words[WORDS], result[WORDS];

    memcpy(program, srv_range_program, sizeof(program));
    if (nonuniform) {
        program[6].operands[1] = (struct dxbc_operand)TID;
        program[8].operands[2].relative_index |= DXBC_NONUNIFORM;
    }
    for (uint32_t j = 0; j < BUFFERS; j++) {
        for (uint32_t i = 0; i < WORDS; i++)
            words[i] = source_word(j, i);
        sources[j] = upload_buffer(env, words, sizeof(words));
        raw_view(env, sources[j], heap, j, false);
    }
    if ((state = create_pipeline(env, signature, program, ARRAY_SIZE(program), 1, S_OK))) {
        dispatch(env, signature, state, heap, output);
        harness_read_back(env->device, env->queue, output, result, sizeof(result));
        for (uint32_t i = 0; i < WORDS; i++) {
            uint32_t expected = source_word(nonuniform ? nonuniform_pick(i) : uniform_pick(i), i) + source_word(2, 0);
            CHECK_MSG(result[i] == expected, "SRV range%s: word %u is %u, expected %u", nonuniform ? " (non-uniform)" : "", i,
                    result[i], expected);
        }
        ID3D12PipelineState_Release(state);
    }
    if (!nonuniform) {
        ID3D10Blob *blob = harness_compile(srv_range_hlsl, 0);
        uint32_t zeros[WORDS] = {0};
        ID3D12Resource *hlsl_output = upload_buffer(env, zeros, sizeof(zeros));
        if (blob && (state = harness_compute_pipeline(env->device, signature, blob))) {
            dispatch(env, signature, state, heap, hlsl_output);
            harness_read_back(env->device, env->queue, hlsl_output, words, sizeof(words));
            CHECK_MSG(!memcmp(words, result, sizeof(words)), "the HLSL of the SRV range reads other descriptors than the DXBC");
            ID3D12PipelineState_Release(state);
        }
        if (blob)
            ID3D10Blob_Release(blob);
        ID3D12Resource_Release(hlsl_output);
    }
    for (uint32_t j = 0; j < BUFFERS; j++)
        ID3D12Resource_Release(sources[j]);
    ID3D12Resource_Release(output);
    ID3D12DescriptorHeap_Release(heap);
    ID3D12RootSignature_Release(signature);
}

/* ---- an unbounded UAV range: u1.. of space 1 ---- */

/* u[1 + (group & 3)].Store(4 i, 7 i + 1), then InterlockedAdd(4 i, 1000) there: the range
 * declared u1 to u4294967295. */
static const struct dxbc_instruction uav_range_program[] = {
    {DXBC_OP_DCL_UAV_RAW, 1, {DXBC51_DECL(DXBC_UAV, 3, 1, 0xffffffffu)}, 1, {1}},
    DCL_THREAD_ID, DCL_GROUP_ID, DCL_TEMPS(2), DCL_GROUP,
    PICK_AND_ADDRESS(GROUP),
    {DXBC_OP_IMAD, 4, {W(1, X), TID, DXBC_IMM(7), DXBC_IMM(1)}, 0, {0}},
    {DXBC_OP_STORE_RAW, 3, {{DXBC_UAV, DXBC_MASK, X, 3, 1, 0, 2, 0, 2, 0, 0}, R(0, 1), R(1, 0)}, 0, {0}},
    {DXBC_OP_ATOMIC_IADD, 3, {{DXBC_UAV, DXBC_WHOLE, 0, 3, 1, 0, 2, 0, 2, 0, 0}, R(0, 1), DXBC_IMM(1000)}, 0, {0}},
    END,
};

static void test_unbounded_uav_range(struct env *env)
{
    ID3D12RootSignature *signature = table_signature(env, D3D12_DESCRIPTOR_RANGE_TYPE_UAV, UINT32_MAX, 1, 1, false);
    ID3D12DescriptorHeap *heap = create_heap(env);
    ID3D12Resource *outputs[BUFFERS];
    ID3D12PipelineState *state;
    uint32_t result[WORDS];

    for (uint32_t j = 0; j < BUFFERS; j++) {
        outputs[j] = zeroed_buffer(env, 4 * WORDS);
        raw_view(env, outputs[j], heap, j, true);
    }
    if ((state = create_pipeline(env, signature, uav_range_program, ARRAY_SIZE(uav_range_program), 1, S_OK))) {
        dispatch(env, signature, state, heap, NULL);
        for (uint32_t j = 0; j < BUFFERS; j++) {
            harness_read_back(env->device, env->queue, outputs[j], result, sizeof(result));
            for (uint32_t i = 0; i < WORDS; i++) {
                uint32_t expected = uniform_pick(i) == j ? 7 * i + 1 + 1000 : 0;
                CHECK_MSG(result[i] == expected, "unbounded UAV range: u%u word %u is %u, expected %u", j + 1, i, result[i], expected);
            }
        }
        ID3D12PipelineState_Release(state);
    }
    for (uint32_t j = 0; j < BUFFERS; j++)
        ID3D12Resource_Release(outputs[j]);
    ID3D12DescriptorHeap_Release(heap);
    ID3D12RootSignature_Release(signature);
}

/* ---- an array of CBVs: ConstantBuffer<uint4> cb[4] : register(b1, space3) ---- */

/* out[i] = cb[NonUniformResourceIndex(1 + (i & 3))][0].x + cb[2][0].y */
static const struct dxbc_instruction cbv_array_program[] = {
    {DXBC_OP_DCL_CONSTANT_BUFFER, 1, {DXBC51_CB_DECL(0, 1, 4)}, 2, {1, 3}},
    {DXBC_OP_DCL_UAV_RAW, 1, {DXBC51_DECL(DXBC_UAV, 0, 0, 0)}, 1, {0}},
    DCL_THREAD_ID, DCL_TEMPS(3), DCL_GROUP,
    PICK_AND_ADDRESS(TID),
    {DXBC_OP_MOV, 2, {W(1, X), {DXBC_CONSTANT_BUFFER, DXBC_SELECT, 0, 0, 1, 0, 3, 0, 2 | DXBC_NONUNIFORM, 0, 0}}, 0, {0}},
    {DXBC_OP_MOV, 2, {W(2, X), DXBC51_CB_SRC(0, 2, 0, 1)}, 0, {0}},
    {DXBC_OP_IADD, 3, {W(1, X), R(1, 0), R(2, 0)}, 0, {0}},
    {DXBC_OP_STORE_RAW, 3, {U51_DST(0, 0), R(0, 1), R(1, 0)}, 0, {0}},
    END,
};

static void test_cbv_array(struct env *env)
{
    ID3D12RootSignature *signature = table_signature(env, D3D12_DESCRIPTOR_RANGE_TYPE_CBV, BUFFERS, 1, 3, true);
    ID3D12DescriptorHeap *heap = create_heap(env);
    ID3D12Resource *constants = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, 256 * BUFFERS, D3D12_RESOURCE_STATE_GENERIC_READ);
    ID3D12Resource *output = zeroed_buffer(env, 4 * WORDS);
    ID3D12PipelineState *state;
    uint32_t result[WORDS];
    uint8_t *mapped = NULL;

    CHECK_HR(ID3D12Resource_Map(constants, 0, NULL, (void **)&mapped), S_OK);
    for (uint32_t j = 0; j < BUFFERS && mapped; j++) {
        const uint32_t row[4] = {(j + 1) * 111, (j + 1) * 10000, 0, 0};
        D3D12_CONSTANT_BUFFER_VIEW_DESC cbv = {ID3D12Resource_GetGPUVirtualAddress(constants) + 256 * j, 256};
        memcpy(mapped + 256 * j, row, sizeof(row));
        ID3D12Device_CreateConstantBufferView(env->device, &cbv, slot(env, heap, j));
    }
    ID3D12Resource_Unmap(constants, 0, NULL);
    if ((state = create_pipeline(env, signature, cbv_array_program, ARRAY_SIZE(cbv_array_program), 1, S_OK))) {
        dispatch(env, signature, state, heap, output);
        harness_read_back(env->device, env->queue, output, result, sizeof(result));
        for (uint32_t i = 0; i < WORDS; i++) {
            uint32_t expected = (nonuniform_pick(i) + 1) * 111 + 20000;
            CHECK_MSG(result[i] == expected, "CBV array: word %u is %u, expected %u", i, result[i], expected);
        }
        ID3D12PipelineState_Release(state);
    }
    ID3D12Resource_Release(constants);
    ID3D12Resource_Release(output);
    ID3D12DescriptorHeap_Release(heap);
    ID3D12RootSignature_Release(signature);
}

/* ---- typed ranges: Buffer<uint> t[2] : register(t3, space4), RWBuffer<uint> u[2] : register(u0, space4) ---- */

/* u[group & 1][i] = t[3 + (group & 1)][i] + 5 (ld and store_uav_typed: texel buffers) */
#define TID4 DXBC_OPERAND(DXBC_THREAD_ID, DXBC_SWIZZLE, DXBC_SWIZZLE_XXXX, 0)
static const struct dxbc_instruction typed_range_program[] = {
    {DXBC_OP_DCL_RESOURCE | DXBC_RESOURCE_DIMENSION_BUFFER, 1, {DXBC51_DECL(DXBC_RESOURCE_SRV, 0, 3, 4)}, 2, {DXBC_RETURN_UINT, 4}},
    {DXBC_OP_DCL_UAV_TYPED | DXBC_RESOURCE_DIMENSION_BUFFER, 1, {DXBC51_DECL(DXBC_UAV, 0, 0, 1)}, 2, {DXBC_RETURN_UINT, 4}},
    DCL_THREAD_ID, DCL_GROUP_ID, DCL_TEMPS(2), DCL_GROUP,
    {DXBC_OP_AND, 3, {W(0, X), GROUP, DXBC_IMM(1)}, 0, {0}},
    {DXBC_OP_LD, 3, {W(1, X), TID4, DXBC51_READ_DYNAMIC(DXBC_RESOURCE_SRV, 0, 3, 0, 0)}, 0, {0}},
    {DXBC_OP_IADD, 3, {W(1, X), R(1, 0), DXBC_IMM(5)}, 0, {0}},
    {DXBC_OP_STORE_UAV_TYPED, 3, {{DXBC_UAV, DXBC_MASK, 0xf, 0, 0, 0, 2, 0, 2, 0, 0}, TID4,
            DXBC_OPERAND(DXBC_TEMP, DXBC_SWIZZLE, DXBC_SWIZZLE_XXXX, 1)}, 0, {0}},
    END,
};

static void test_typed_ranges(struct env *env)
{
    D3D12_DESCRIPTOR_RANGE1 ranges[2] = {
        {D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 2, 3, 4, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 0},
        {D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 2, 0, 4, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 2},
    };
    D3D12_ROOT_PARAMETER1 parameter;
    ID3D12RootSignature *signature;
    ID3D12DescriptorHeap *heap = create_heap(env);
    ID3D12Resource *sources[2], *outputs[2];
    ID3D12PipelineState *state;
    uint32_t words[WORDS];

    memset(&parameter, 0, sizeof(parameter));
    parameter.ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    parameter.DescriptorTable.NumDescriptorRanges = 2;
    parameter.DescriptorTable.pDescriptorRanges = ranges;
    signature = harness_root_signature(env->device, &parameter, 1, D3D12_ROOT_SIGNATURE_FLAG_NONE);
    for (uint32_t j = 0; j < 2; j++) {
        D3D12_SHADER_RESOURCE_VIEW_DESC srv;
        D3D12_UNORDERED_ACCESS_VIEW_DESC uav;
        for (uint32_t i = 0; i < WORDS; i++)
            words[i] = source_word(j, i);
        sources[j] = upload_buffer(env, words, sizeof(words));
        outputs[j] = zeroed_buffer(env, sizeof(words));
        memset(&srv, 0, sizeof(srv));
        srv.ViewDimension = D3D12_SRV_DIMENSION_BUFFER;
        srv.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
        srv.Format = DXGI_FORMAT_R32_UINT;
        srv.Buffer.NumElements = WORDS;
        ID3D12Device_CreateShaderResourceView(env->device, sources[j], &srv, slot(env, heap, j));
        memset(&uav, 0, sizeof(uav));
        uav.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
        uav.Format = DXGI_FORMAT_R32_UINT;
        uav.Buffer.NumElements = WORDS;
        ID3D12Device_CreateUnorderedAccessView(env->device, outputs[j], NULL, &uav, slot(env, heap, 2 + j));
    }
    if (signature && (state = create_pipeline(env, signature, typed_range_program, ARRAY_SIZE(typed_range_program), 1, S_OK))) {
        dispatch(env, signature, state, heap, NULL);
        for (uint32_t j = 0; j < 2; j++) {
            harness_read_back(env->device, env->queue, outputs[j], words, sizeof(words));
            for (uint32_t i = 0; i < WORDS; i++) {
                uint32_t expected = (uniform_pick(i) & 1) == j ? source_word(j, i) + 5 : 0;
                CHECK_MSG(words[i] == expected, "typed ranges: u%u word %u is %u, expected %u", j, i, words[i], expected);
            }
        }
        ID3D12PipelineState_Release(state);
    }
    for (uint32_t j = 0; j < 2; j++) {
        ID3D12Resource_Release(sources[j]);
        ID3D12Resource_Release(outputs[j]);
    }
    ID3D12DescriptorHeap_Release(heap);
    if (signature)
        ID3D12RootSignature_Release(signature);
}

/* ---- texture and sampler ranges: Texture2D t[2] : register(t0), SamplerState s[2] : register(s0) ---- */

/* out[i] = t[group & 1].SampleLevel(s[group >> 1], (1.25, 0.5), 0): texture j holds (10, 20) + 100 j,
 * sampler 0 clamps (texel 1), sampler 1 wraps (texel 0); point filtering. */
static const struct dxbc_instruction sampler_range_program[] = {
    {DXBC_OP_DCL_SAMPLER | DXBC_SAMPLER_MODE_DEFAULT, 1, {DXBC51_DECL(DXBC_SAMPLER, 0, 0, 1)}, 1, {0}},
    {DXBC_OP_DCL_RESOURCE | DXBC_RESOURCE_DIMENSION_TEXTURE2D, 1, {DXBC51_DECL(DXBC_RESOURCE_SRV, 0, 0, 1)}, 2, {DXBC_RETURN_FLOAT, 0}},
    {DXBC_OP_DCL_UAV_RAW, 1, {DXBC51_DECL(DXBC_UAV, 0, 0, 0)}, 1, {0}},
    DCL_THREAD_ID, DCL_GROUP_ID, DCL_TEMPS(3), DCL_GROUP,
    PICK_AND_ADDRESS(GROUP),
    {DXBC_OP_AND, 3, {W(0, X), R(0, 0), DXBC_IMM(1)}, 0, {0}},
    {DXBC_OP_USHR, 3, {DXBC_DST(DXBC_TEMP, 0, DXBC_Z), GROUP, DXBC_IMM(1)}, 0, {0}},
    {DXBC_OP_MOV, 2, {DXBC_DST(DXBC_TEMP, 1, X | Y), DXBC_IMM4(0x3fa00000u, 0x3f000000u, 0, 0)}, 0, {0}},
    {DXBC_OP_SAMPLE_L, 5, {DXBC_DST(DXBC_TEMP, 2, 0xf), DXBC_SRC4(DXBC_TEMP, 1), DXBC51_READ_DYNAMIC(DXBC_RESOURCE_SRV, 0, 0, 0, 0),
            {DXBC_SAMPLER, DXBC_WHOLE, 0, 0, 0, 0, 2, 0, 2, 0, 2}, DXBC_IMM(0)}, 0, {0}},
    {DXBC_OP_FTOU, 2, {W(2, X), R(2, 0)}, 0, {0}},
    {DXBC_OP_STORE_RAW, 3, {U51_DST(0, 0), R(0, 1), R(2, 0)}, 0, {0}},
    END,
};

static ID3D12Resource *two_texel_texture(struct env *env, float first, float second)
{
    D3D12_HEAP_PROPERTIES properties = {D3D12_HEAP_TYPE_CUSTOM, D3D12_CPU_PAGE_PROPERTY_WRITE_BACK, D3D12_MEMORY_POOL_L0, 1, 1};
    const float texels[2] = {first, second};
    D3D12_RESOURCE_DESC desc;
    ID3D12Resource *texture = NULL;

    memset(&desc, 0, sizeof(desc));
    desc.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    desc.Width = 2;
    desc.Height = 1;
    desc.DepthOrArraySize = 1;
    desc.MipLevels = 1;
    desc.Format = DXGI_FORMAT_R32_FLOAT;
    desc.SampleDesc.Count = 1;
    CHECK_HR(ID3D12Device_CreateCommittedResource(env->device, &properties, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON,
            NULL, &IID_ID3D12Resource, (void **)&texture), S_OK);
    if (texture)
        CHECK_HR(ID3D12Resource_WriteToSubresource(texture, 0, NULL, texels, sizeof(texels), sizeof(texels)), S_OK);
    return texture;
}

static void test_sampler_ranges(struct env *env)
{
    D3D12_DESCRIPTOR_RANGE1 textures = {D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 2, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 0};
    D3D12_DESCRIPTOR_RANGE1 samplers = {D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER, 2, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 0};
    D3D12_DESCRIPTOR_HEAP_DESC sampler_heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, 2, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    D3D12_ROOT_PARAMETER1 parameters[3];
    ID3D12RootSignature *signature;
    ID3D12DescriptorHeap *heap = create_heap(env), *sampler_heap = NULL, *heaps[2];
    ID3D12Resource *texture[2], *output = zeroed_buffer(env, 4 * WORDS);
    ID3D12PipelineState *state;
    uint32_t result[WORDS];

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    parameters[0].DescriptorTable.NumDescriptorRanges = 1;
    parameters[0].DescriptorTable.pDescriptorRanges = &textures;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    parameters[1].DescriptorTable.NumDescriptorRanges = 1;
    parameters[1].DescriptorTable.pDescriptorRanges = &samplers;
    parameters[2].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    signature = harness_root_signature(env->device, parameters, 3, D3D12_ROOT_SIGNATURE_FLAG_NONE);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &sampler_heap_desc, &IID_ID3D12DescriptorHeap, (void **)&sampler_heap), S_OK);
    for (uint32_t j = 0; j < 2; j++) {
        D3D12_SHADER_RESOURCE_VIEW_DESC srv;
        D3D12_SAMPLER_DESC sampler;
        D3D12_CPU_DESCRIPTOR_HANDLE handle;
        texture[j] = two_texel_texture(env, 10.0f + 100.0f * (float)j, 20.0f + 100.0f * (float)j);
        memset(&srv, 0, sizeof(srv));
        srv.ViewDimension = D3D12_SRV_DIMENSION_TEXTURE2D;
        srv.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
        srv.Format = DXGI_FORMAT_R32_FLOAT;
        srv.Texture2D.MipLevels = 1;
        ID3D12Device_CreateShaderResourceView(env->device, texture[j], &srv, slot(env, heap, j));
        memset(&sampler, 0, sizeof(sampler));
        sampler.Filter = D3D12_FILTER_MIN_MAG_MIP_POINT;
        sampler.AddressU = sampler.AddressV = sampler.AddressW = j ? D3D12_TEXTURE_ADDRESS_MODE_WRAP : D3D12_TEXTURE_ADDRESS_MODE_CLAMP;
        sampler.MaxLOD = D3D12_FLOAT32_MAX;
        if (sampler_heap) {
            handle = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(sampler_heap);
            handle.ptr += j * ID3D12Device_GetDescriptorHandleIncrementSize(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
            ID3D12Device_CreateSampler(env->device, &sampler, handle);
        }
    }
    if (signature && sampler_heap
            && (state = create_pipeline(env, signature, sampler_range_program, ARRAY_SIZE(sampler_range_program), 1, S_OK))) {
        struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        heaps[0] = heap;
        heaps[1] = sampler_heap;
        ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 2, heaps);
        ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
        ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 0, ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(heap));
        ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 1,
                ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(sampler_heap));
        ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 2, ID3D12Resource_GetGPUVirtualAddress(output));
        ID3D12GraphicsCommandList2_Dispatch(list.list, WORDS / 64, 1, 1);
        harness_execute_and_wait(env->device, env->queue, &list);
        harness_release_list(&list);
        harness_read_back(env->device, env->queue, output, result, sizeof(result));
        for (uint32_t i = 0; i < WORDS; i++) {
            uint32_t group = i / 64, expected = ((group >> 1) ? 10 : 20) + 100 * (group & 1);
            CHECK_MSG(result[i] == expected, "texture and sampler ranges: word %u is %u, expected %u", i, result[i], expected);
        }
        ID3D12PipelineState_Release(state);
    }
    for (uint32_t j = 0; j < 2; j++)
        if (texture[j])
            ID3D12Resource_Release(texture[j]);
    ID3D12Resource_Release(output);
    if (sampler_heap)
        ID3D12DescriptorHeap_Release(sampler_heap);
    ID3D12DescriptorHeap_Release(heap);
    if (signature)
        ID3D12RootSignature_Release(signature);
}

/* ---- UAV counters ---- */

#define FIRST_COUNT 5u
#define ELEMENTS 512u

/* Shader model 5.0: data[IncrementCounter()] = thread + 1 (AppendStructuredBuffer's Append). */
static const struct dxbc_instruction alloc_program[] = {
    {DXBC_OP_DCL_UAV_STRUCTURED | DXBC_UAV_HAS_COUNTER, 1, {DXBC_RESOURCE(DXBC_UAV, 1)}, 1, {4}},
    DCL_THREAD_ID, DCL_TEMPS(2), DCL_GROUP,
    {DXBC_OP_IMM_ATOMIC_ALLOC, 2, {W(0, X), DXBC_RESOURCE(DXBC_UAV, 1)}, 0, {0}},
    {DXBC_OP_IADD, 3, {W(1, X), TID, DXBC_IMM(1)}, 0, {0}},
    {DXBC_OP_STORE_STRUCTURED, 4, {DXBC_DST(DXBC_UAV, 1, X), R(0, 0), DXBC_IMM(0), R(1, 0)}, 0, {0}},
    END,
};
/* Shader model 5.1: out[thread] = DecrementCounter() (ConsumeStructuredBuffer's Consume index). */
static const struct dxbc_instruction consume_program[] = {
    {DXBC_OP_DCL_UAV_STRUCTURED | DXBC_UAV_HAS_COUNTER, 1, {DXBC51_DECL(DXBC_UAV, 0, 1, 1)}, 2, {4, 0}},
    {DXBC_OP_DCL_UAV_RAW, 1, {DXBC51_DECL(DXBC_UAV, 1, 0, 0)}, 1, {0}},
    DCL_THREAD_ID, DCL_TEMPS(1), DCL_GROUP,
    {DXBC_OP_IMM_ATOMIC_CONSUME, 2, {W(0, X), DXBC51_RESOURCE(DXBC_UAV, 0, 1)}, 0, {0}},
    {DXBC_OP_ISHL, 3, {W(0, Y), TID, DXBC_IMM(2)}, 0, {0}},
    {DXBC_OP_STORE_RAW, 3, {U51_DST(1, 0), R(0, 1), R(0, 0)}, 0, {0}},
    END,
};

static void test_counters(struct env *env)
{
    const uint32_t first_count = FIRST_COUNT;
    ID3D12RootSignature *signature = table_signature(env, D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 1, 1, 0, true);
    ID3D12DescriptorHeap *heap = create_heap(env);
    ID3D12Resource *data = zeroed_buffer(env, 4 * ELEMENTS), *counter = upload_buffer(env, &first_count, 4);
    ID3D12Resource *output = zeroed_buffer(env, 4 * WORDS);
    ID3D12PipelineState *alloc = create_pipeline(env, signature, alloc_program, ARRAY_SIZE(alloc_program), 0, S_OK);
    ID3D12PipelineState *consume = create_pipeline(env, signature, consume_program, ARRAY_SIZE(consume_program), 1, S_OK);
    D3D12_UNORDERED_ACCESS_VIEW_DESC uav;
    uint32_t count = 0, elements[ELEMENTS], result[WORDS];
    uint8_t seen[WORDS + 1] = {0};

    memset(&uav, 0, sizeof(uav));
    uav.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
    uav.Format = DXGI_FORMAT_UNKNOWN;
    uav.Buffer.NumElements = ELEMENTS;
    uav.Buffer.StructureByteStride = 4;
    ID3D12Device_CreateUnorderedAccessView(env->device, data, counter, &uav, slot(env, heap, 0));
    if (alloc && consume) {
        /* 256 increments from 5: elements 5..260 hold the threads 1..256, each once */
        dispatch(env, signature, alloc, heap, NULL);
        harness_read_back(env->device, env->queue, counter, &count, 4);
        CHECK_MSG(count == FIRST_COUNT + WORDS, "counter after IncrementCounter: %u, expected %u", count, FIRST_COUNT + WORDS);
        harness_read_back(env->device, env->queue, data, elements, sizeof(elements));
        for (uint32_t e = 0; e < ELEMENTS; e++) {
            bool inside = e >= FIRST_COUNT && e < FIRST_COUNT + WORDS;
            CHECK_MSG(inside ? elements[e] >= 1 && elements[e] <= WORDS && !seen[elements[e]] : elements[e] == 0,
                    "element %u is %u after IncrementCounter", e, elements[e]);
            if (inside && elements[e] <= WORDS)
                seen[elements[e]] = 1;
        }
        /* then 256 decrements: back to 5, each thread given one of 260..5 (the value after) */
        dispatch(env, signature, consume, heap, output);
        harness_read_back(env->device, env->queue, counter, &count, 4);
        CHECK_MSG(count == FIRST_COUNT, "counter after DecrementCounter: %u, expected %u", count, FIRST_COUNT);
        harness_read_back(env->device, env->queue, output, result, sizeof(result));
        memset(seen, 0, sizeof(seen));
        for (uint32_t i = 0; i < WORDS; i++) {
            uint32_t v = result[i] - FIRST_COUNT;
            CHECK_MSG(v < WORDS && !seen[v], "thread %u consumed %u (each of %u to %u once)", i, result[i], FIRST_COUNT,
                    FIRST_COUNT + WORDS - 1);
            if (v < WORDS)
                seen[v] = 1;
        }
    }
    if (alloc)
        ID3D12PipelineState_Release(alloc);
    if (consume)
        ID3D12PipelineState_Release(consume);
    ID3D12Resource_Release(data);
    ID3D12Resource_Release(counter);
    ID3D12Resource_Release(output);
    ID3D12DescriptorHeap_Release(heap);
    ID3D12RootSignature_Release(signature);
}

/* ---- refused ---- */

/* A constant index outside the declared range (t7 of t2..t5) and a range id declared twice are
 * malformed DXBC. (A counter on a range is refused with E_NOTIMPL: test_dxbc's refusals.) */
static void test_refusals(struct env *env)
{
    struct dxbc_instruction program[ARRAY_SIZE(srv_range_program)];
    ID3D12RootSignature *signature = table_signature(env, D3D12_DESCRIPTOR_RANGE_TYPE_SRV, BUFFERS, 2, 2, true);
    ID3D12PipelineState *state;

    memcpy(program, srv_range_program, sizeof(program));
    program[9].operands[2].index2 = 7;
    LOG_MARK();
    state = create_pipeline(env, signature, program, ARRAY_SIZE(program), 1, E_INVALIDARG);
    CHECK(state == NULL);
    if (state)
        ID3D12PipelineState_Release(state);
    CHECK_LOG("CreateComputePipelineState", "pDesc->CS", "register 7 of a range of registers 2 to 5");
    /* two declarations of one range id: which one an instruction names is ambiguous */
    memcpy(program, srv_range_program, sizeof(program));
    program[1] = (struct dxbc_instruction){DXBC_OP_DCL_RESOURCE_RAW, 1, {DXBC51_DECL(DXBC_RESOURCE_SRV, 0, 6, 6)}, 1, {2}};
    RELOG_MARK();
    state = create_pipeline(env, signature, program, ARRAY_SIZE(program), 1, E_INVALIDARG);
    CHECK(state == NULL);
    if (state)
        ID3D12PipelineState_Release(state);
    CHECK_LOG("CreateComputePipelineState", "pDesc->CS", "range id 0 is declared twice");
    ID3D12RootSignature_Release(signature);
}

int main(void)
{
    struct env env;
    harness_init();
    env.device = harness_create_device();
    env.queue = harness_create_queue(env.device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    test_srv_range(&env, false);
    test_srv_range(&env, true);
    test_unbounded_uav_range(&env);
    test_cbv_array(&env);
    test_typed_ranges(&env);
    test_sampler_ranges(&env);
    test_counters(&env);
    test_refusals(&env);
    ID3D12CommandQueue_Release(env.queue);
    harness_release_device(env.device);
    return harness_finish();
}
