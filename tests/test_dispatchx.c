/* DispatchX (SPEC §2.1) flag by flag, except USE_THREAD_DIMENSIONS (test_dispatchx_threads.c)
 * and ordered append (test_ordered_append.c): W32 and the wave size pipelines run with; the
 * start group (D3D12XSSetDispatchStartGroup) and FORCE_START_AT_000, with SV_GroupID ranges
 * checked both ways; ENABLE_OUT_OF_ORDER on COMPUTE lists only; the volatile L1 flags (a chain
 * of groups handing a sum on through a globallycoherent buffer; a dispatch reading what the
 * previous one wrote without a ResourceBarrier); unknown bits; CreateComputePipelineStateX. */
#include <stdio.h>
#include <stdlib.h>

#include "dispatchx_common.h"

/* Every group marks its SV_GroupID in a 16 x 16 x 16 grid and counts its runs. */
static const char group_id_source[] =
    "RWByteAddressBuffer marks : register(u0);\n"
    "[numthreads(4, 1, 1)]\n"
    "void main(uint3 group : SV_GroupID, uint index : SV_GroupIndex)\n"
    "{\n"
    "    if (index == 0 && all(group < 16))\n"
    "        marks.InterlockedAdd(((group.z * 16 + group.y) * 16 + group.x) * 4, 1u);\n"
    "}\n";

#define GRID 16

static void check_group_range(const uint32_t *marks, const unsigned first[3], const unsigned count[3], const char *what)
{
    unsigned wrong = 0;
    for (unsigned z = 0; z < GRID; z++)
        for (unsigned y = 0; y < GRID; y++)
            for (unsigned x = 0; x < GRID; x++) {
                bool inside = x >= first[0] && x < first[0] + count[0] && y >= first[1] && y < first[1] + count[1]
                        && z >= first[2] && z < first[2] + count[2];
                if (marks[(z * GRID + y) * GRID + x] != (inside ? 1u : 0u) && wrong++ < 4)
                    fprintf(stderr, "%s: group %u,%u,%u ran %u times\n", what, x, y, z, marks[(z * GRID + y) * GRID + x]);
            }
    CHECK_MSG(!wrong, "%s: %u groups ran wrongly", what, wrong);
}

/* One DispatchX (or Dispatch when flags is ~0) of the group-id shader after setting the start group. */
static void run_start_group(ID3D12Device *device, ID3D12CommandQueue *queue, ID3D12RootSignature *signature, ID3D12PipelineState *pipeline,
        const unsigned start[3], const unsigned count[3], D3D12XBOX_DISPATCH_FLAGS flags, bool plain_dispatch, const unsigned expected_first[3],
        const char *what)
{
    static const UINT constants[ROOT_CONSTANTS];
    ID3D12Resource *marks = harness_uav_buffer(device, GRID * GRID * GRID * 4);
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList *l = (ID3D12GraphicsCommandList *)list.list;
    uint32_t *data = malloc(GRID * GRID * GRID * 4);

    dispatchx_bind(l, signature, pipeline, constants, &marks, 1);
    CHECK_HR(D3D12XSSetDispatchStartGroup(l, start[0], start[1], start[2]), S_OK);
    if (plain_dispatch)
        ID3D12GraphicsCommandList_Dispatch(l, count[0], count[1], count[2]);
    else
        ID3D12GraphicsCommandList_DispatchX(l, count[0], count[1], count[2], flags);
    harness_execute_and_wait(device, queue, &list);
    harness_read_back(device, queue, marks, data, GRID * GRID * GRID * 4);
    check_group_range(data, expected_first, count, what);
    free(data);
    harness_release_list(&list);
    ID3D12Resource_Release(marks);
}

static void test_start_group(ID3D12Device *device, ID3D12CommandQueue *queue)
{
    ID3D12RootSignature *signature = dispatchx_root_signature(device, 1);
    ID3D12PipelineState *pipeline = dispatchx_pipeline(device, signature, group_id_source, false);
    static const unsigned zero[3] = {0, 0, 0}, start[3] = {3, 5, 2}, count[3] = {4, 2, 6}, edge[3] = {15, 15, 15}, one[3] = {1, 1, 1};
    LOG_MARK();

    run_start_group(device, queue, signature, pipeline, start, count, D3D12XBOX_DISPATCH_FLAG_NONE, false, start, "start group 3,5,2");
    run_start_group(device, queue, signature, pipeline, start, count, D3D12XBOX_DISPATCH_FLAG_FORCE_START_AT_000, false, zero,
            "FORCE_START_AT_000 ignores the start group");
    run_start_group(device, queue, signature, pipeline, start, count, D3D12XBOX_DISPATCH_FLAG_NONE, true, zero, "plain Dispatch starts at 0");
    run_start_group(device, queue, signature, pipeline, edge, one, D3D12XBOX_DISPATCH_FLAG_NONE, false, edge, "start group 15,15,15");
    CHECK_NO_LOG();

    /* ClearState and Reset bring the start group back to 0, 0, 0. */
    for (int way = 0; way < 2; way++) {
        ID3D12Resource *marks = harness_uav_buffer(device, GRID * GRID * GRID * 4);
        struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        ID3D12GraphicsCommandList *l = (ID3D12GraphicsCommandList *)list.list;
        static const UINT constants[ROOT_CONSTANTS];
        uint32_t *data = malloc(GRID * GRID * GRID * 4);
        CHECK_HR(D3D12XSSetDispatchStartGroup(l, 7, 7, 7), S_OK);
        if (way == 0) {
            ID3D12GraphicsCommandList_ClearState(l, NULL);
        } else {
            CHECK_HR(ID3D12GraphicsCommandList_Close(l), S_OK);
            CHECK_HR(ID3D12GraphicsCommandList_Reset(l, list.allocator, NULL), S_OK);
        }
        dispatchx_bind(l, signature, pipeline, constants, &marks, 1);
        ID3D12GraphicsCommandList_DispatchX(l, count[0], count[1], count[2], D3D12XBOX_DISPATCH_FLAG_NONE);
        harness_execute_and_wait(device, queue, &list);
        harness_read_back(device, queue, marks, data, GRID * GRID * GRID * 4);
        check_group_range(data, zero, count, way == 0 ? "start group after ClearState" : "start group after Reset");
        free(data);
        harness_release_list(&list);
        ID3D12Resource_Release(marks);
    }
    CHECK_NO_LOG();

    /* Bad input to the start-group call, and a dispatch that would pass group 65534. */
    {
        struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
        ID3D12GraphicsCommandList *l = (ID3D12GraphicsCommandList *)list.list;
        static const UINT constants[ROOT_CONSTANTS];
        ID3D12Resource *marks = harness_uav_buffer(device, 4096);
        RELOG_MARK();
        CHECK_HR(D3D12XSSetDispatchStartGroup(NULL, 0, 0, 0), E_INVALIDARG);
        CHECK_LOG("D3D12XSSetDispatchStartGroup", "NULL");
        RELOG_MARK();
        CHECK_HR(D3D12XSSetDispatchStartGroup(l, 0, 65535, 0), E_INVALIDARG);
        CHECK_LOG("D3D12XSSetDispatchStartGroup", "65534");
        dispatchx_bind(l, signature, pipeline, constants, &marks, 1);
        CHECK_HR(D3D12XSSetDispatchStartGroup(l, 65000, 0, 0), S_OK);
        RELOG_MARK();
        ID3D12GraphicsCommandList_DispatchX(l, 1000, 1, 1, D3D12XBOX_DISPATCH_FLAG_NONE);
        CHECK_LOG("DispatchX", "start group 65000");
        RELOG_MARK();
        CHECK_HR(ID3D12GraphicsCommandList_Close(l), E_INVALIDARG);
        CHECK_LOG("Close", "start group 65000");
        RELOG_MARK();
        CHECK_HR(D3D12XSSetDispatchStartGroup(l, 1, 1, 1), E_FAIL);
        CHECK_LOG("D3D12XSSetDispatchStartGroup", "closed");
        harness_release_list(&list);
        ID3D12Resource_Release(marks);
    }
    ID3D12PipelineState_Release(pipeline);
    ID3D12RootSignature_Release(signature);
}

/* Each thread writes WaveGetLaneCount(): the subgroup size the pipeline really runs with. */
static const char lane_count_source[] =
    "RWByteAddressBuffer output : register(u0);\n"
    "[numthreads(64, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, WaveGetLaneCount()); }\n";

static void check_lane_count(ID3D12Device *device, ID3D12CommandQueue *queue, bool wave32, UINT expected)
{
    ID3D12RootSignature *signature = dispatchx_root_signature(device, 1);
    ID3D12PipelineState *pipeline = dispatchx_pipeline(device, signature, lane_count_source, wave32);
    ID3D12Resource *output = harness_uav_buffer(device, 256 * 4);
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList *l = (ID3D12GraphicsCommandList *)list.list;
    static const UINT constants[ROOT_CONSTANTS];
    uint32_t data[256];
    unsigned wrong = 0;

    dispatchx_bind(l, signature, pipeline, constants, &output, 1);
    ID3D12GraphicsCommandList_DispatchX(l, 4, 1, 1, wave32 ? D3D12XBOX_DISPATCH_FLAG_W32 : D3D12XBOX_DISPATCH_FLAG_NONE);
    harness_execute_and_wait(device, queue, &list);
    harness_read_back(device, queue, output, data, sizeof(data));
    for (unsigned i = 0; i < 256; i++)
        wrong += data[i] != expected;
    CHECK_MSG(!wrong && data[0] == expected, "wave%u pipeline: WaveGetLaneCount() %u, device info says %u", wave32 ? 32 : 64, data[0], expected);

    /* The flag must match the pipeline's wave size. */
    {
        LOG_MARK();
        CHECK_HR(ID3D12CommandAllocator_Reset(list.allocator), S_OK);
        CHECK_HR(ID3D12GraphicsCommandList_Reset(l, list.allocator, NULL), S_OK);
        dispatchx_bind(l, signature, pipeline, constants, &output, 1);
        ID3D12GraphicsCommandList_DispatchX(l, 4, 1, 1, wave32 ? D3D12XBOX_DISPATCH_FLAG_NONE : D3D12XBOX_DISPATCH_FLAG_W32);
        CHECK_LOG("DispatchX", "W32", wave32 ? "pipeline is wave32" : "pipeline is wave64");
        RELOG_MARK();
        CHECK_HR(ID3D12GraphicsCommandList_Close(l), E_INVALIDARG);
        CHECK_LOG("Close", "W32");
    }
    harness_release_list(&list);
    ID3D12Resource_Release(output);
    ID3D12PipelineState_Release(pipeline);
    ID3D12RootSignature_Release(signature);
}

static void test_wave_size(ID3D12Device *device, ID3D12CommandQueue *queue)
{
    D3D12XS_DEVICE_INFO info;
    CHECK_HR(D3D12XSGetDeviceInfo(device, &info), S_OK);
    CHECK(info.MinSubgroupSize <= info.MaxSubgroupSize && info.MinSubgroupSize);
    /* Required where the device offers the size, its default otherwise (docs/dispatch.md). */
    CHECK(info.Wave32SubgroupSize == ((info.MinSubgroupSize <= 32 && 32 <= info.MaxSubgroupSize) ? 32 : info.SubgroupSize));
    CHECK(info.Wave64SubgroupSize == ((info.MinSubgroupSize <= 64 && 64 <= info.MaxSubgroupSize) ? 64 : info.SubgroupSize));
    printf("device %s: wave32 pipelines run %u-wide subgroups, wave64 %u-wide (device range %u..%u)\n", info.DeviceName,
            info.Wave32SubgroupSize, info.Wave64SubgroupSize, info.MinSubgroupSize, info.MaxSubgroupSize);
    check_lane_count(device, queue, true, info.Wave32SubgroupSize);
    check_lane_count(device, queue, false, info.Wave64SubgroupSize);
}

/* Doubles 256 values: input u0 -> output u1. */
static const char double_source[] =
    "globallycoherent RWByteAddressBuffer input : register(u0);\n"
    "RWByteAddressBuffer output : register(u1);\n"
    "[numthreads(64, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, input.Load(id.x * 4) * 2); }\n";
static const char fill_source[] =
    "RWByteAddressBuffer output : register(u0);\n"
    "[numthreads(64, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, id.x * 3 + 1); }\n";

/* ENABLE_OUT_OF_ORDER runs on COMPUTE lists and is refused on DIRECT ones; INVALIDATE_VOLATILE_*
 * make the previous dispatch's writes visible without a ResourceBarrier. */
static void test_out_of_order_and_invalidate(ID3D12Device *device, ID3D12CommandQueue *direct_queue)
{
    ID3D12CommandQueue *compute_queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12RootSignature *signature = dispatchx_root_signature(device, 2);
    ID3D12PipelineState *fill = dispatchx_pipeline(device, signature, fill_source, false);
    ID3D12PipelineState *twice = dispatchx_pipeline(device, signature, double_source, false);
    ID3D12Resource *buffers[2] = {harness_uav_buffer(device, 1024), harness_uav_buffer(device, 1024)};
    static const D3D12XBOX_DISPATCH_FLAGS invalidate[3] = {D3D12XBOX_DISPATCH_FLAG_INVALIDATE_VOLATILE_VECTOR_L1,
            D3D12XBOX_DISPATCH_FLAG_INVALIDATE_VOLATILE_SCALAR_L1,
            D3D12XBOX_DISPATCH_FLAG_INVALIDATE_VOLATILE_VECTOR_L1 | D3D12XBOX_DISPATCH_FLAG_INVALIDATE_VOLATILE_SCALAR_L1};
    static const UINT constants[ROOT_CONSTANTS];
    uint32_t data[256];
    LOG_MARK();

    for (int round = 0; round < 3; round++) {
        struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
        ID3D12GraphicsCommandList *l = (ID3D12GraphicsCommandList *)list.list;
        unsigned wrong = 0;
        dispatchx_bind(l, signature, fill, constants, buffers, 2);
        ID3D12GraphicsCommandList_DispatchX(l, 4, 1, 1, D3D12XBOX_DISPATCH_FLAG_ENABLE_OUT_OF_ORDER);
        ID3D12GraphicsCommandList_SetPipelineState(l, twice);
        ID3D12GraphicsCommandList_DispatchX(l, 4, 1, 1, invalidate[round] | D3D12XBOX_DISPATCH_FLAG_ENABLE_OUT_OF_ORDER);
        harness_execute_and_wait(device, compute_queue, &list);
        harness_read_back(device, direct_queue, buffers[1], data, sizeof(data));
        for (unsigned i = 0; i < 256; i++)
            wrong += data[i] != (i * 3 + 1) * 2;
        CHECK_MSG(!wrong, "invalidate flags 0x%x: %u of 256 values wrong (data[5] = %u)", (unsigned)invalidate[round], wrong, data[5]);
        harness_release_list(&list);
    }
    CHECK_NO_LOG();
    {
        struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        ID3D12GraphicsCommandList *l = (ID3D12GraphicsCommandList *)list.list;
        dispatchx_bind(l, signature, fill, constants, buffers, 2);
        RELOG_MARK();
        ID3D12GraphicsCommandList_DispatchX(l, 4, 1, 1, D3D12XBOX_DISPATCH_FLAG_ENABLE_OUT_OF_ORDER);
        CHECK_LOG("DispatchX", "ENABLE_OUT_OF_ORDER", "COMPUTE lists");
        RELOG_MARK();
        CHECK_HR(ID3D12GraphicsCommandList_Close(l), E_INVALIDARG);
        CHECK_LOG("Close", "ENABLE_OUT_OF_ORDER");
        harness_release_list(&list);
    }
    ID3D12Resource_Release(buffers[0]);
    ID3D12Resource_Release(buffers[1]);
    ID3D12PipelineState_Release(fill);
    ID3D12PipelineState_Release(twice);
    ID3D12RootSignature_Release(signature);
    ID3D12CommandQueue_Release(compute_queue);
}

/* Groups hand a running sum on in launch order through a globallycoherent buffer: group with
 * ticket t waits for t - 1's flag, reads its sum with a plain load and publishes sum + t + 1.
 * The plain load sees the sum only if the volatile (coherent) accesses bypass incoherent caches,
 * which DISABLE_VOLATILE_*_L1 promise. Tickets come from an atomic at launch, so every group
 * waited for has started: no deadlock.
 * The wait is bounded: Vulkan promises no forward progress between workgroups, and lavapipe
 * ends every shader loop after 65535 iterations (llvmpipe's LP_MAX_TGSI_LOOP_ITERATIONS), so an
 * unbounded spin left early, with no flag seen, whenever the group it waited for was off the
 * CPU that long, and then added to a sum of 0: the one "510 of 512 sums wrong" seen under load.
 * Here a group gives up after 60000 polls (below lavapipe's cut), reads nothing, and marks its
 * flag 2; the check skips only that hand-on. */
static const char chain_source[] =
    "globallycoherent RWByteAddressBuffer chain : register(u0);\n"
    "[numthreads(1, 1, 1)]\n"
    "void main()\n"
    "{\n"
    "    uint ticket, previous = 0, ready = 1, polls = 0, ignored;\n"
    "    chain.InterlockedAdd(0, 1u, ticket);\n"
    "    if (ticket > 0) {\n"
    "        [loop] do { chain.InterlockedOr(8 + 8 * (ticket - 1) + 4, 0u, ready); } while (ready == 0 && ++polls < 60000);\n"
    "        DeviceMemoryBarrier();\n"
    "        if (ready != 0)\n"
    "            previous = chain.Load(8 + 8 * (ticket - 1));\n"
    "    }\n"
    "    chain.Store(8 + 8 * ticket, previous + ticket + 1);\n"
    "    DeviceMemoryBarrier();\n"
    "    chain.InterlockedOr(8 + 8 * ticket + 4, ready != 0 ? 1u : 2u, ignored);\n"
    "}\n";

#define CHAIN_GROUPS 512
#define CHAIN_FLAG_DONE 1u      /* the group saw its predecessor's flag (or is ticket 0) */
#define CHAIN_FLAG_GAVE_UP 2u   /* it stopped waiting: its sum is not a hand-on */
#define CHAIN_ATTEMPTS 4

/* One dispatch of the chain; false if too many groups gave up for it to say anything. Every
 * group that saw its predecessor's flag must have read exactly the sum that one published. */
static bool run_chain(ID3D12Device *device, ID3D12CommandQueue *queue, ID3D12RootSignature *signature, ID3D12PipelineState *pipeline,
        D3D12XBOX_DISPATCH_FLAGS flags, uint32_t *data, bool last_attempt)
{
    static const UINT constants[ROOT_CONSTANTS];
    ID3D12Resource *chain = harness_uav_buffer(device, 8 + 8 * CHAIN_GROUPS);
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList *l = (ID3D12GraphicsCommandList *)list.list;
    unsigned wrong = 0, gave_up = 0, first_wrong = CHAIN_GROUPS;
    bool conclusive;

    dispatchx_bind(l, signature, pipeline, constants, &chain, 1);
    ID3D12GraphicsCommandList_DispatchX(l, CHAIN_GROUPS, 1, 1, flags);
    harness_execute_and_wait(device, queue, &list);
    harness_read_back(device, queue, chain, data, 8 + 8 * CHAIN_GROUPS);
    for (uint32_t t = 0; t < CHAIN_GROUPS; t++) {
        uint32_t sum = data[2 + 2 * t], flag = data[3 + 2 * t], before = t ? data[2 * t] : 0;
        bool ok = flag == CHAIN_FLAG_GAVE_UP ? t > 0 : flag == CHAIN_FLAG_DONE && sum == before + t + 1;
        gave_up += flag == CHAIN_FLAG_GAVE_UP;
        if (!ok && wrong++ == 0)
            first_wrong = t;
    }
    /* Three quarters of the hand-ons checked, or the machine was too busy to tell: run again. */
    conclusive = gave_up <= CHAIN_GROUPS / 4;
    if (gave_up)
        printf("chain with flags 0x%x: %u of %u groups gave up waiting (a busy host); their hand-ons are not checked\n", (unsigned)flags,
                gave_up, CHAIN_GROUPS);
    CHECK_MSG(data[0] == CHAIN_GROUPS && !wrong, "chain with flags 0x%x: %u tickets, %u of %u hand-ons wrong (first: ticket %u, sum %u, flag %u)",
            (unsigned)flags, data[0], wrong, CHAIN_GROUPS, first_wrong, first_wrong < CHAIN_GROUPS ? data[2 + 2 * first_wrong] : 0,
            first_wrong < CHAIN_GROUPS ? data[3 + 2 * first_wrong] : 0);
    CHECK_MSG(conclusive || !last_attempt, "chain with flags 0x%x: %u of %u groups gave up waiting in each of %u runs", (unsigned)flags, gave_up,
            CHAIN_GROUPS, CHAIN_ATTEMPTS);
    harness_release_list(&list);
    ID3D12Resource_Release(chain);
    return conclusive || wrong;
}

static void test_disable_volatile(ID3D12Device *device, ID3D12CommandQueue *queue)
{
    static const D3D12XBOX_DISPATCH_FLAGS disable[3] = {D3D12XBOX_DISPATCH_FLAG_DISABLE_VOLATILE_VECTOR_L1,
            D3D12XBOX_DISPATCH_FLAG_DISABLE_VOLATILE_SCALAR_L1,
            D3D12XBOX_DISPATCH_FLAG_DISABLE_VOLATILE_VECTOR_L1 | D3D12XBOX_DISPATCH_FLAG_DISABLE_VOLATILE_SCALAR_L1};
    ID3D12RootSignature *signature = dispatchx_root_signature(device, 1);
    ID3D12PipelineState *pipeline = dispatchx_pipeline(device, signature, chain_source, false);
    uint32_t *data = malloc(8 + 8 * CHAIN_GROUPS);
    LOG_MARK();

    for (int round = 0; round < 3; round++)
        for (int attempt = 0; attempt < CHAIN_ATTEMPTS; attempt++)
            if (run_chain(device, queue, signature, pipeline, disable[round], data, attempt == CHAIN_ATTEMPTS - 1))
                break;
    CHECK_NO_LOG();
    free(data);
    ID3D12PipelineState_Release(pipeline);
    ID3D12RootSignature_Release(signature);
}

static void test_bad_flags(ID3D12Device *device)
{
    static const struct { D3D12XBOX_DISPATCH_FLAGS flags; const char *needle; } cases[] = {
        {(D3D12XBOX_DISPATCH_FLAGS)0x1, "unknown bits 0x1"},
        {(D3D12XBOX_DISPATCH_FLAGS)0x10000, "unknown bits 0x10000"},
        {(D3D12XBOX_DISPATCH_FLAGS)(D3D12XBOX_DISPATCH_FLAG_FORCE_START_AT_000 | 0x100), "unknown bits 0x100"},
        {D3D12XBOX_DISPATCH_FLAG_ORDERED_APPEND_WAVEID_PER_THREADGROUP, "without ENABLE_ORDERED_APPEND"},
    };
    ID3D12RootSignature *signature = dispatchx_root_signature(device, 1);
    ID3D12PipelineState *pipeline = dispatchx_pipeline(device, signature, fill_source, false);
    ID3D12Resource *output = harness_uav_buffer(device, 1024);
    static const UINT constants[ROOT_CONSTANTS];

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
        ID3D12GraphicsCommandList *l = (ID3D12GraphicsCommandList *)list.list;
        dispatchx_bind(l, signature, pipeline, constants, &output, 1);
        LOG_MARK();
        ID3D12GraphicsCommandList_DispatchX(l, 1, 1, 1, cases[i].flags);
        CHECK_LOG("DispatchX", cases[i].needle);
        RELOG_MARK();
        CHECK_HR(ID3D12GraphicsCommandList_Close(l), E_INVALIDARG);
        CHECK_LOG("Close", "DispatchX", cases[i].needle);
        harness_release_list(&list);
    }
    {
        struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
        LOG_MARK();
        ID3D12GraphicsCommandList_DispatchX((ID3D12GraphicsCommandList *)list.list, 1, 1, 1, D3D12XBOX_DISPATCH_FLAG_NONE);
        CHECK_LOG("DispatchX", "no pipeline state");
        harness_release_list(&list);
    }
    ID3D12Resource_Release(output);
    ID3D12PipelineState_Release(pipeline);
    ID3D12RootSignature_Release(signature);
}

static void test_pipeline_x(ID3D12Device *device, ID3D12CommandQueue *queue)
{
    ID3D12RootSignature *signature = dispatchx_root_signature(device, 1);
    ID3DBlob *code = dispatchx_compile(fill_source, false);
    D3D12_COMPUTE_PIPELINE_STATE_DESC desc;
    D3D12XBOX_EXTENDED_COMPUTE_PIPELINE_STATE_DESC extension, two[2];
    ID3D12PipelineState *pipeline = NULL;
    ID3D12Resource *output = harness_uav_buffer(device, 1024);
    static const UINT constants[ROOT_CONSTANTS];
    uint32_t data[256];
    unsigned wrong = 0;
    LOG_MARK();

    memset(&desc, 0, sizeof(desc));
    desc.pRootSignature = signature;
    desc.CS.pShaderBytecode = ID3D10Blob_GetBufferPointer(code);
    desc.CS.BytecodeLength = ID3D10Blob_GetBufferSize(code);
    memset(&extension, 0, sizeof(extension));
    extension.Type = D3D12XBOX_EXTENDED_COMPUTE_PIPELINE_STATE_TYPE_COMPUTE_SHADER_LIMITS;
    D3D12XboxInitializeDefaultComputeShaderLimits(&extension.ComputeShaderLimits);
    extension.ComputeShaderLimits.NumThreadgroupsWalkedPerCu = 2;
    extension.ComputeShaderLimits.SimdWalkAlgorithm = D3D12XBOX_SIMD_WALK_ALGORITHM_ROUND_ROBIN;
    CHECK_HR(ID3D12Device_CreateComputePipelineStateX(device, &desc, 1, &extension, &IID_ID3D12PipelineState, (void **)&pipeline), S_OK);
    CHECK_NO_LOG();
    if (pipeline) {
        struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        dispatchx_bind((ID3D12GraphicsCommandList *)list.list, signature, pipeline, constants, &output, 1);
        ID3D12GraphicsCommandList_DispatchX((ID3D12GraphicsCommandList *)list.list, 4, 1, 1, D3D12XBOX_DISPATCH_FLAG_NONE);
        harness_execute_and_wait(device, queue, &list);
        harness_read_back(device, queue, output, data, sizeof(data));
        for (unsigned i = 0; i < 256; i++)
            wrong += data[i] != i * 3 + 1;
        CHECK_MSG(!wrong, "CreateComputePipelineStateX pipeline: %u of 256 values wrong", wrong);
        harness_release_list(&list);
        ID3D12PipelineState_Release(pipeline);
        pipeline = NULL;
    }
    /* No extension at all is a plain pipeline. */
    CHECK_HR(ID3D12Device_CreateComputePipelineStateX(device, &desc, 0, NULL, &IID_ID3D12PipelineState, (void **)&pipeline), S_OK);
    if (pipeline)
        ID3D12PipelineState_Release(pipeline);

#define BAD_X(count, extensions, needle) do { \
        void *out_ = (void *)1; RELOG_MARK(); \
        CHECK_HR(ID3D12Device_CreateComputePipelineStateX(device, &desc, count, extensions, &IID_ID3D12PipelineState, &out_), E_INVALIDARG); \
        CHECK_LOG("CreateComputePipelineStateX", needle); CHECK(out_ == NULL); } while (0)
    BAD_X(1, NULL, "pExtendedDescs is NULL");
    BAD_X(0, &extension, "NumExtendedDescs is 0");
    two[0] = two[1] = extension;
    BAD_X(2, two, "second COMPUTE_SHADER_LIMITS");
    two[1].Type = (D3D12XBOX_EXTENDED_COMPUTE_PIPELINE_STATE_TYPE)7;
    BAD_X(2, two, "pExtendedDescs[1].Type is 7");
    two[0].ComputeShaderLimits.SimdWalkAlgorithm = (D3D12XBOX_SIMD_WALK_ALGORITHM)3;
    BAD_X(1, two, "SimdWalkAlgorithm is 3");
    two[0] = extension;
    two[0].ComputeShaderLimits.NumThreadgroupsWalkedPerCu = 65;
    BAD_X(1, two, "NumThreadgroupsWalkedPerCu is 65");
    two[0] = extension;
    two[0].ComputeShaderLimits.MaxWavesPerSimd = 17;
    BAD_X(1, two, "MaxWavesPerSimd is 17");
    two[0] = extension;
    two[0].ComputeShaderLimits.MaxThreadgroupsPerCu = 33;
    BAD_X(1, two, "MaxThreadgroupsPerCu is 33");
    two[0] = extension;
    two[0].ComputeShaderLimits.CuMask = 0;
    BAD_X(1, two, "CuMask is 0");
    BAD_X(1, NULL, "pExtendedDescs is NULL");
    {
        void *out = (void *)1;
        RELOG_MARK();
        CHECK_HR(ID3D12Device_CreateComputePipelineStateX(device, NULL, 1, &extension, &IID_ID3D12PipelineState, &out), E_INVALIDARG);
        CHECK_LOG("CreateComputePipelineStateX", "pDesc is NULL");
    }
#undef BAD_X
    ID3D10Blob_Release(code);
    ID3D12Resource_Release(output);
    ID3D12RootSignature_Release(signature);
}

int main(void)
{
    ID3D12Device *device;
    ID3D12CommandQueue *queue;

    harness_init();
    device = harness_create_device();
    queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    test_wave_size(device, queue);
    test_start_group(device, queue);
    test_out_of_order_and_invalidate(device, queue);
    test_disable_volatile(device, queue);
    test_bad_flags(device);
    test_pipeline_x(device, queue);
    ID3D12CommandQueue_Release(queue);
    harness_release_device(device);
    return harness_finish();
}
