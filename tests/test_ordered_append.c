/* Ordered append (SPEC §2.1): DispatchX with ENABLE_ORDERED_APPEND and the counters of
 * <d3d12xs_ordered_append.hlsli>. Every thread appends 0-2 items stamped with its wave's (or,
 * with ORDERED_APPEND_WAVEID_PER_THREADGROUP, its group's) launch ticket, and each wave or group
 * records the first place it was granted and its total. The order of grants must follow the
 * launch tickets exactly: ticket 0 first at place 0, each next ticket right behind the previous
 * one's items, every ticket once, the items of a ticket all in its range. Also: the counters
 * start from zero in each dispatch; a plain Dispatch of such a shader is refused. */
#include <stdio.h>
#include <stdlib.h>

#include "dispatchx_common.h"

#define GROUPS 96
#define THREADS_PER_GROUP 64
#define THREADS (GROUPS * THREADS_PER_GROUP)

/* u0: per ticket (first place, total, 1); u1: the items (ticket of the appender). */
static const char append_source[] =
    "#include <d3d12xs_ordered_append.hlsli>\n"
    "cbuffer Mode : register(b0) { uint per_group; uint salt; uint unused0; uint unused1; };\n"
    "RWByteAddressBuffer grants : register(u0);\n"
    "RWByteAddressBuffer items : register(u1);\n"
    "groupshared uint group_total, group_first;\n"
    "[numthreads(64, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID, uint index : SV_GroupIndex)\n"
    "{\n"
    "    D3D12XSOrderedAppendLaunch(index);\n"
    "    uint ticket = D3D12XSOrderedAppendTicket();\n"
    "    uint count = (id.x * 7u + salt) % 3u;\n"
    "    uint first = D3D12XSOrderedAppend(0, count);\n"
    "    for (uint i = 0; i < count; i++)\n"
    "        items.Store((first + i) * 4, ticket);\n"
    "    if (per_group != 0) {\n"
    "        if (index == 0) { group_total = 0; group_first = 0xffffffffu; }\n"
    "        GroupMemoryBarrierWithGroupSync();\n"
    "        InterlockedAdd(group_total, count);\n"
    "        if (count != 0) InterlockedMin(group_first, first);\n"
    "        GroupMemoryBarrierWithGroupSync();\n"
    "        if (index == 0) {\n"
    "            grants.Store(ticket * 12, group_total != 0 ? group_first : 0xfffffffeu);\n"
    "            grants.Store(ticket * 12 + 4, group_total);\n"
    "            grants.Store(ticket * 12 + 8, 1u);\n"
    "        }\n"
    "    } else {\n"
    "        uint total = WaveActiveSum(count);\n"
    "        if (WaveIsFirstLane()) {\n"
    "            grants.Store(ticket * 12, WaveReadLaneFirst(first));\n"
    "            grants.Store(ticket * 12 + 4, total);\n"
    "            grants.Store(ticket * 12 + 8, 1u);\n"
    "        }\n"
    "    }\n"
    "}\n";

static unsigned expected_items(unsigned salt)
{
    unsigned total = 0;
    for (unsigned x = 0; x < THREADS; x++)
        total += (x * 7u + salt) % 3u;
    return total;
}

/* Checks grants (first, total, seen) per ticket and the items; returns the ticket count. */
static unsigned check_order(const uint32_t *grants, const uint32_t *items, unsigned max_tickets, unsigned salt, const char *what)
{
    unsigned tickets = 0, place = 0, bad_order = 0, bad_items = 0;

    while (tickets < max_tickets && grants[tickets * 3 + 2] == 1)
        tickets++;
    for (unsigned t = 0; t < tickets; t++) {
        uint32_t first = grants[t * 3], total = grants[t * 3 + 1];
        if (total && first != place && bad_order++ < 4)
            fprintf(stderr, "%s: ticket %u granted place %u, expected %u (right behind ticket %u)\n", what, t, first, place, t ? t - 1 : 0);
        for (uint32_t i = 0; i < total; i++)
            bad_items += items[place + i] != t;
        place += total;
    }
    for (unsigned t = tickets; t < max_tickets; t++)
        bad_order += grants[t * 3 + 2] != 0;
    CHECK_MSG(!bad_order && !bad_items && place == expected_items(salt), "%s: %u tickets, %u out of order, %u items misplaced, %u items (expected %u)",
            what, tickets, bad_order, bad_items, place, expected_items(salt));
    return tickets;
}

static void run_append(ID3D12Device *device, ID3D12CommandQueue *queue, ID3D12RootSignature *signature, ID3D12PipelineState *pipeline,
        bool per_group, D3D12_COMMAND_LIST_TYPE type, D3D12XBOX_DISPATCH_FLAGS extra, unsigned expected_tickets, const char *what)
{
    const size_t grant_size = (size_t)THREADS * 12, item_size = (size_t)THREADS * 2 * 4;
    ID3D12Resource *buffers[2] = {harness_uav_buffer(device, grant_size), harness_uav_buffer(device, item_size)};
    ID3D12CommandQueue *run_queue = type == D3D12_COMMAND_LIST_TYPE_DIRECT ? queue : harness_create_queue(device, type);
    struct harness_list list = harness_create_list(device, type);
    ID3D12GraphicsCommandList *l = (ID3D12GraphicsCommandList *)list.list;
    UINT constants[2][ROOT_CONSTANTS] = {{per_group, 3, 0, 0}, {per_group, 1, 0, 0}};
    D3D12XBOX_DISPATCH_FLAGS flags = D3D12XBOX_DISPATCH_FLAG_ENABLE_ORDERED_APPEND | extra
            | (per_group ? D3D12XBOX_DISPATCH_FLAG_ORDERED_APPEND_WAVEID_PER_THREADGROUP : D3D12XBOX_DISPATCH_FLAG_NONE);
    uint32_t *grants = malloc(grant_size), *items = malloc(item_size);
    D3D12_RESOURCE_BARRIER barrier;

    /* Two dispatches into the same buffers: the second starts its counter and tickets at 0 again. */
    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
    for (int round = 0; round < 2; round++) {
        dispatchx_bind(l, signature, pipeline, constants[round], buffers, 2);
        ID3D12GraphicsCommandList_DispatchX(l, GROUPS, 1, 1, flags);
        ID3D12GraphicsCommandList_ResourceBarrier(l, 1, &barrier);
    }
    harness_execute_and_wait(device, run_queue, &list);
    harness_read_back(device, queue, buffers[0], grants, grant_size);
    harness_read_back(device, queue, buffers[1], items, item_size);
    if (per_group) {
        /* Groups without items wrote a marker instead of a first place: give them the running place. */
        unsigned place = 0;
        for (unsigned t = 0; t < GROUPS && grants[t * 3 + 2] == 1; t++) {
            if (grants[t * 3] == 0xfffffffeu)
                grants[t * 3] = place;
            place += grants[t * 3 + 1];
        }
    }
    CHECK_MSG(check_order(grants, items, THREADS, 1, what) == expected_tickets, "%s: expected %u tickets", what, expected_tickets);
    free(grants);
    free(items);
    harness_release_list(&list);
    if (run_queue != queue)
        ID3D12CommandQueue_Release(run_queue);
    ID3D12Resource_Release(buffers[0]);
    ID3D12Resource_Release(buffers[1]);
}

int main(void)
{
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12RootSignature *signature;
    ID3D12PipelineState *pipeline;
    D3D12XS_DEVICE_INFO info;

    harness_init();
    device = harness_create_device();
    queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    CHECK_HR(D3D12XSGetDeviceInfo(device, &info), S_OK);
    signature = dispatchx_root_signature(device, 2);
    pipeline = dispatchx_pipeline(device, signature, append_source, false);
    {
        LOG_MARK();
        unsigned waves = GROUPS * ((THREADS_PER_GROUP + info.Wave64SubgroupSize - 1) / info.Wave64SubgroupSize);
        run_append(device, queue, signature, pipeline, false, D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12XBOX_DISPATCH_FLAG_NONE, waves, "per wave");
        run_append(device, queue, signature, pipeline, true, D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12XBOX_DISPATCH_FLAG_NONE, GROUPS, "per group");
        run_append(device, queue, signature, pipeline, false, D3D12_COMMAND_LIST_TYPE_COMPUTE, D3D12XBOX_DISPATCH_FLAG_ENABLE_OUT_OF_ORDER, waves,
                "per wave, out of order, COMPUTE");
        CHECK_NO_LOG();
    }
    {
        struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        ID3D12GraphicsCommandList *l = (ID3D12GraphicsCommandList *)list.list;
        ID3D12Resource *buffers[2] = {harness_uav_buffer(device, 4096), harness_uav_buffer(device, 4096)};
        static const UINT constants[ROOT_CONSTANTS];
        LOG_MARK();
        dispatchx_bind(l, signature, pipeline, constants, buffers, 2);
        ID3D12GraphicsCommandList_Dispatch(l, 1, 1, 1);
        CHECK_LOG("Dispatch", "d3d12xs_ordered_append.hlsli", "ENABLE_ORDERED_APPEND");
        harness_release_list(&list);
        ID3D12Resource_Release(buffers[0]);
        ID3D12Resource_Release(buffers[1]);
    }
    ID3D12PipelineState_Release(pipeline);
    ID3D12RootSignature_Release(signature);
    ID3D12CommandQueue_Release(queue);
    harness_release_device(device);
    return harness_finish();
}
