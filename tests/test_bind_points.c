/* The command list's two bind points: SetGraphicsRoot* checks its arguments as SetComputeRoot*
 * does (one implementation), against the graphics root signature; what is set at one bind point
 * never reaches the other; root constants set in pieces reach the shader whole. */
#include <string.h>

#include "harness.h"

#define COMPUTE_SOURCE \
    "cbuffer c : register(b0) { uint4 k; };\n" \
    "RWByteAddressBuffer o : register(u0);\n" \
    "[numthreads(1, 1, 1)] void main() { o.Store4(0, k); }\n"

static ID3D12RootSignature *constants_signature(ID3D12Device *device, UINT count)
{
    static const D3D12_DESCRIPTOR_RANGE1 range = {D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 1, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 0};
    D3D12_ROOT_PARAMETER1 parameters[3] = {0};
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = count;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    parameters[2].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    parameters[2].DescriptorTable.NumDescriptorRanges = 1;
    parameters[2].DescriptorTable.pDescriptorRanges = &range;
    return harness_root_signature(device, parameters, 3, 0);
}

static void test_graphics_root_checks(ID3D12Device *device, ID3D12RootSignature *signature)
{
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    LOG_MARK();

    /* Before any graphics root signature: named as the graphics one, even with a compute one set. */
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetGraphicsRoot32BitConstant(list.list, 0, 1, 0);
    CHECK_LOG("SetGraphicsRoot32BitConstant", "no graphics root signature is set", "SetGraphicsRootSignature");
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
    CHECK_LOG("Close", "no graphics root signature is set");

    struct { const char *method, *needle; } cases[] = {
        {"SetGraphicsRoot32BitConstants", "DestOffsetIn32BitValues 3 + 2 values pass root parameter 0's 4 constants"},
        {"SetGraphicsRootConstantBufferView", "root parameter 1 is a UAV, not a CBV"},
        {"SetGraphicsRootShaderResourceView", "RootParameterIndex 7 is past the root signature's 3 parameters"},
        {"SetGraphicsRootDescriptorTable", "root parameter 0 is a 32BIT_CONSTANTS, not a DESCRIPTOR_TABLE"},
        {"SetGraphicsRootSignature", "pRootSignature is NULL"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        uint32_t values[2] = {1, 2};
        CHECK_HR(ID3D12GraphicsCommandList2_Reset(list.list, list.allocator, NULL), S_OK);
        ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, signature);
        RELOG_MARK();
        switch (i) {
        case 0: ID3D12GraphicsCommandList2_SetGraphicsRoot32BitConstants(list.list, 0, 2, values, 3); break;
        case 1: ID3D12GraphicsCommandList2_SetGraphicsRootConstantBufferView(list.list, 1, 0); break;
        case 2: ID3D12GraphicsCommandList2_SetGraphicsRootShaderResourceView(list.list, 7, 0); break;
        case 3: ID3D12GraphicsCommandList2_SetGraphicsRootDescriptorTable(list.list, 0, (D3D12_GPU_DESCRIPTOR_HANDLE){0}); break;
        case 4: ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, NULL); break;
        }
        CHECK_LOG(cases[i].method, cases[i].needle);
        RELOG_MARK();
        CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
        CHECK_LOG("Close", cases[i].needle);
    }

    /* Every graphics root call with good arguments records nothing wrong. */
    CHECK_HR(ID3D12GraphicsCommandList2_Reset(list.list, list.allocator, NULL), S_OK);
    RELOG_MARK();
    ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetGraphicsRoot32BitConstant(list.list, 0, 5, 3);
    ID3D12GraphicsCommandList2_SetGraphicsRootUnorderedAccessView(list.list, 1, 0);
    ID3D12GraphicsCommandList2_SetGraphicsRootDescriptorTable(list.list, 2, (D3D12_GPU_DESCRIPTOR_HANDLE){0});
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), S_OK);
    CHECK_NO_LOG();
    harness_release_list(&list);

    /* A COPY list binds nothing at either bind point. */
    list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_COPY);
    RELOG_MARK();
    ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, signature);
    CHECK_LOG("SetGraphicsRootSignature", "COPY lists");
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
    CHECK_LOG("Close", "COPY lists");
    harness_release_list(&list);

    /* A COMPUTE list keeps graphics state it never reads: a debug-layer warning, no error. */
    list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    RELOG_MARK();
    size_t warnings = harness_warning_count();
    ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, signature);
    CHECK_DEBUG_WARNINGS(warnings, 1, "COMPUTE list draws nothing");
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), S_OK);
    CHECK_NO_LOG();
    harness_release_list(&list);
}

/* Graphics root arguments set between dispatches (other signature, other constants, other UAV)
 * leave the compute bind point's as they were; constants set in pieces arrive whole. */
static void test_bind_points_apart(ID3D12Device *device, ID3D12CommandQueue *queue, ID3D12RootSignature *signature,
        ID3D12RootSignature *other)
{
    ID3D12Resource *output = harness_uav_buffer(device, 256), *decoy = harness_uav_buffer(device, 256);
    ID3D10Blob *code = harness_compile(COMPUTE_SOURCE, 0);
    ID3D12PipelineState *pipeline = code ? harness_compute_pipeline(device, signature, code) : NULL;
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    uint32_t first[4] = {10, 11, 12, 13}, words[64];
    D3D12_GPU_VIRTUAL_ADDRESS address = ID3D12Resource_GetGPUVirtualAddress(output);
    LOG_MARK();

    CHECK(pipeline != NULL);
    if (!pipeline)
        return;
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, pipeline);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(list.list, 0, 4, first, 0);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 1, address);
    ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, other);
    ID3D12GraphicsCommandList2_SetGraphicsRoot32BitConstant(list.list, 0, 99, 0);
    ID3D12GraphicsCommandList2_SetGraphicsRootUnorderedAccessView(list.list, 1, ID3D12Resource_GetGPUVirtualAddress(decoy));
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    /* Constants changed in two pieces between dispatches; the graphics ones change too. */
    D3D12_RESOURCE_BARRIER barrier = {.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV};
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list.list, 0, 21, 1);
    ID3D12GraphicsCommandList2_SetGraphicsRoot32BitConstant(list.list, 0, 98, 2);
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list.list, 0, 23, 3);
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    harness_execute_and_wait(device, queue, &list);
    CHECK_NO_LOG();
    harness_read_back(device, queue, output, words, sizeof(words));
    CHECK_MSG(words[0] == 10 && words[1] == 21 && words[2] == 12 && words[3] == 23, "output %u %u %u %u, expected 10 21 12 23",
            words[0], words[1], words[2], words[3]);
    harness_read_back(device, queue, decoy, words, sizeof(words));
    CHECK_MSG(!words[0] && !words[1] && !words[2] && !words[3], "the graphics UAV was written: %u %u %u %u", words[0], words[1], words[2],
            words[3]);

    harness_release_list(&list);
    ID3D12PipelineState_Release(pipeline);
    ID3D10Blob_Release(code);
    ID3D12Resource_Release(output);
    ID3D12Resource_Release(decoy);
}

int main(void)
{
    harness_init();
    ID3D12Device *device = harness_create_device();
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12RootSignature *signature = constants_signature(device, 4), *other = constants_signature(device, 8);

    test_graphics_root_checks(device, signature);
    test_bind_points_apart(device, queue, signature, other);

    ID3D12RootSignature_Release(signature);
    ID3D12RootSignature_Release(other);
    ID3D12CommandQueue_Release(queue);
    harness_release_device(device);
    return harness_finish();
}
