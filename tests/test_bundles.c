/* Bundles: CreateCommandAllocator/CreateCommandList(BUNDLE), ExecuteBundle from DIRECT lists,
 * D3D12's inheritance rules (everything but the pipeline state comes from the caller; what the
 * bundle sets stays set in the caller, at the compute and the graphics bind point), the calls a
 * bundle refuses, and every misuse of ExecuteBundle. */
#include <string.h>

#include "harness.h"

#define ELEMENTS 1024

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12RootSignature *signature; /* 0: constants (base, value), 1: root UAV */
    ID3D12RootSignature *graphics_signature; /* 0: 2 constants, 1: root UAV, 2: 3 constants */
    ID3D12PipelineState *pipeline;  /* output[base + id] = value, 64 threads a group */
    ID3D12PipelineState *pipeline_double; /* output[base + id] = 2 * value */
    ID3D12CommandAllocator *bundle_allocator;
};

static const char store_source[] =
    "cbuffer Constants : register(b0) { uint base; uint value; };\n"
    "RWByteAddressBuffer output : register(u0);\n"
    "[numthreads(64, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID) { output.Store((base + id.x) * 4, value); }\n";
static const char double_source[] =
    "cbuffer Constants : register(b0) { uint base; uint value; };\n"
    "RWByteAddressBuffer output : register(u0);\n"
    "[numthreads(64, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID) { output.Store((base + id.x) * 4, 2 * value); }\n";

static ID3D12GraphicsCommandList *create_bundle(struct env *env, ID3D12PipelineState *initial_state)
{
    ID3D12GraphicsCommandList *bundle = NULL;
    CHECK_HR(ID3D12Device_CreateCommandList(env->device, 0, D3D12_COMMAND_LIST_TYPE_BUNDLE, env->bundle_allocator, initial_state,
            &IID_ID3D12GraphicsCommandList, (void **)&bundle), S_OK);
    return bundle;
}

/* Runs out[] through the queue and reads it back. */
static void run_and_read(struct env *env, struct harness_list *list, ID3D12Resource *output, uint32_t *data)
{
    harness_execute_and_wait(env->device, env->queue, list);
    harness_read_back(env->device, env->queue, output, data, ELEMENTS * sizeof(*data));
}

static bool range_is(const uint32_t *data, uint32_t first, uint32_t count, uint32_t value)
{
    for (uint32_t i = first; i < first + count; i++)
        if (data[i] != value)
            return false;
    return true;
}

/* Records list again from its start. */
static void restart_list(struct harness_list *list)
{
    CHECK_HR(ID3D12CommandAllocator_Reset(list->allocator), S_OK);
    CHECK_HR(ID3D12GraphicsCommandList2_Reset(list->list, list->allocator, NULL), S_OK);
}

/* The call on list since log_mark_ was refused: it logged why, and the list's Close fails naming it. */
static void expect_refused(size_t log_mark_, struct harness_list *list, const char *command, const char *why)
{
    CHECK_LOG(command, why);
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list->list), E_INVALIDARG);
    CHECK_LOG("Close", why);
}

static void test_create(struct env *env)
{
    ID3D12CommandAllocator *direct_allocator = NULL;
    ID3D12GraphicsCommandList *bundle = NULL, *list = NULL;
    LOG_MARK();

    bundle = create_bundle(env, NULL);
    CHECK(bundle && ID3D12GraphicsCommandList_GetType(bundle) == D3D12_COMMAND_LIST_TYPE_BUNDLE);
    if (bundle) {
        ID3D12GraphicsCommandList4 *list4 = NULL;
        CHECK_HR(ID3D12GraphicsCommandList_QueryInterface(bundle, &IID_ID3D12GraphicsCommandList4, (void **)&list4), S_OK);
        if (list4)
            ID3D12GraphicsCommandList4_Release(list4);
        /* One bundle records into an allocator at a time, and the allocator cannot be reset under it. */
        CHECK_HR(ID3D12Device_CreateCommandList(env->device, 0, D3D12_COMMAND_LIST_TYPE_BUNDLE, env->bundle_allocator, NULL,
                &IID_ID3D12GraphicsCommandList, (void **)&list), E_INVALIDARG);
        CHECK(list == NULL);
        CHECK_LOG("pAllocator", "already has a bundle recording");
        RELOG_MARK();
        CHECK_HR(ID3D12CommandAllocator_Reset(env->bundle_allocator), E_FAIL);
        CHECK_LOG("Reset", "recording into it");
        RELOG_MARK();
        CHECK_HR(ID3D12GraphicsCommandList_Close(bundle), S_OK);
        CHECK_HR(ID3D12GraphicsCommandList_Close(bundle), E_FAIL);
        CHECK_LOG("Close", "not recording");
        RELOG_MARK();
        ID3D12GraphicsCommandList_Release(bundle);
    }

    /* Allocator and list types must match, both ways. */
    CHECK_HR(ID3D12Device_CreateCommandAllocator(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT, &IID_ID3D12CommandAllocator,
            (void **)&direct_allocator), S_OK);
    CHECK_HR(ID3D12Device_CreateCommandList(env->device, 0, D3D12_COMMAND_LIST_TYPE_BUNDLE, direct_allocator, NULL,
            &IID_ID3D12GraphicsCommandList, (void **)&list), E_INVALIDARG);
    CHECK_LOG("pAllocator has type", "BUNDLE");
    RELOG_MARK();
    CHECK_HR(ID3D12Device_CreateCommandList(env->device, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, env->bundle_allocator, NULL,
            &IID_ID3D12GraphicsCommandList, (void **)&list), E_INVALIDARG);
    CHECK_LOG("pAllocator has type");
    RELOG_MARK();
    ID3D12CommandAllocator_Release(direct_allocator);

    /* CreateCommandList1: closed and never recorded, so not executable until Reset. */
    {
        ID3D12Device4 *device4 = NULL;
        CHECK_HR(ID3D12Device_QueryInterface(env->device, &IID_ID3D12Device4, (void **)&device4), S_OK);
        CHECK_HR(ID3D12Device4_CreateCommandList1(device4, 0, D3D12_COMMAND_LIST_TYPE_BUNDLE, D3D12_COMMAND_LIST_FLAG_NONE,
                &IID_ID3D12GraphicsCommandList, (void **)&bundle), S_OK);
        CHECK(ID3D12GraphicsCommandList_GetType(bundle) == D3D12_COMMAND_LIST_TYPE_BUNDLE);
        CHECK_HR(ID3D12GraphicsCommandList_Reset(bundle, env->bundle_allocator, env->pipeline), S_OK);
        CHECK_HR(ID3D12GraphicsCommandList_Close(bundle), S_OK);
        ID3D12GraphicsCommandList_Release(bundle);
        ID3D12Device4_Release(device4);
    }
    CHECK_NO_LOG();
}

/* A bundle inherits the root signature and root arguments; it runs with its own pipeline. */
static void test_inherits_root_arguments(struct env *env)
{
    ID3D12Resource *output = harness_uav_buffer(env->device, ELEMENTS * 4);
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList *bundle = create_bundle(env, NULL);
    uint32_t constants[2], data[ELEMENTS];
    D3D12_RESOURCE_BARRIER barrier;
    LOG_MARK();

    ID3D12GraphicsCommandList_SetPipelineState(bundle, env->pipeline);
    ID3D12GraphicsCommandList_Dispatch(bundle, 1, 1, 1);
    CHECK_HR(ID3D12GraphicsCommandList_Close(bundle), S_OK);

    /* The caller's pipeline is the doubling one: the bundle must not inherit it. */
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, env->pipeline_double);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, env->signature);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 1, ID3D12Resource_GetGPUVirtualAddress(output));
    constants[0] = 0, constants[1] = 5;
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(list.list, 0, 2, constants, 0);
    ID3D12GraphicsCommandList2_ExecuteBundle(list.list, bundle);
    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
    barrier.UAV.pResource = output;
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    /* Executed again with other arguments: the same bundle sees them. */
    constants[0] = 64, constants[1] = 9;
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(list.list, 0, 2, constants, 0);
    ID3D12GraphicsCommandList2_ExecuteBundle(list.list, bundle);
    run_and_read(env, &list, output, data);
    CHECK_MSG(range_is(data, 0, 64, 5), "first execution: data[0] = %u, expected 5", data[0]);
    CHECK_MSG(range_is(data, 64, 64, 9), "second execution: data[64] = %u, expected 9", data[64]);
    CHECK_MSG(range_is(data, 128, 64, 0), "nothing else written: data[128] = %u", data[128]);

    /* The bundle can be executed by another list too, and again after that list ran. */
    restart_list(&list);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, env->signature);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 1, ID3D12Resource_GetGPUVirtualAddress(output));
    constants[0] = 128, constants[1] = 13;
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(list.list, 0, 2, constants, 0);
    ID3D12GraphicsCommandList2_ExecuteBundle(list.list, bundle);
    run_and_read(env, &list, output, data);
    CHECK_MSG(range_is(data, 128, 64, 13), "after the caller's Reset: data[128] = %u, expected 13", data[128]);
    CHECK_NO_LOG();

    ID3D12GraphicsCommandList_Release(bundle);
    harness_release_list(&list);
    ID3D12Resource_Release(output);
}

/* What a bundle sets stays set in the caller: pipeline, root signature, root arguments. */
static void test_state_flows_back(struct env *env)
{
    ID3D12Resource *output = harness_uav_buffer(env->device, ELEMENTS * 4);
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList *bundle = create_bundle(env, env->pipeline_double);
    uint32_t constants[2] = {256, 11}, data[ELEMENTS];
    D3D12_RESOURCE_BARRIER barrier;
    LOG_MARK();

    /* Initial state (doubling) then its own pipeline, root signature and every argument. */
    ID3D12GraphicsCommandList_Dispatch(bundle, 1, 1, 1); /* no arguments yet in the bundle: the caller's */
    ID3D12GraphicsCommandList_SetPipelineState(bundle, env->pipeline);
    ID3D12GraphicsCommandList_SetComputeRootSignature(bundle, env->signature);
    ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(bundle, 1, ID3D12Resource_GetGPUVirtualAddress(output));
    ID3D12GraphicsCommandList_SetComputeRoot32BitConstants(bundle, 0, 2, constants, 0);
    ID3D12GraphicsCommandList_Dispatch(bundle, 1, 1, 1);
    CHECK_HR(ID3D12GraphicsCommandList_Close(bundle), S_OK);

    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, env->signature);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 1, ID3D12Resource_GetGPUVirtualAddress(output));
    constants[0] = 0, constants[1] = 3;
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(list.list, 0, 2, constants, 0);
    ID3D12GraphicsCommandList2_ExecuteBundle(list.list, bundle);
    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
    barrier.UAV.pResource = output;
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    /* Only the base changes: the value 11 and the storing pipeline come from the bundle. */
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list.list, 0, 512, 0);
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    run_and_read(env, &list, output, data);
    CHECK_MSG(range_is(data, 0, 64, 6), "initial state with the caller's arguments: data[0] = %u, expected 6", data[0]);
    CHECK_MSG(range_is(data, 256, 64, 11), "the bundle's own arguments: data[256] = %u, expected 11", data[256]);
    CHECK_MSG(range_is(data, 512, 64, 11), "after the bundle: data[512] = %u, expected 11", data[512]);
    CHECK_NO_LOG();

    ID3D12GraphicsCommandList_Release(bundle);
    harness_release_list(&list);
    ID3D12Resource_Release(output);
}

/* DispatchX, WriteBufferImmediate and PIX events replay like Dispatch. */
static void test_console_dispatch_and_immediate_writes(struct env *env)
{
    ID3D12Resource *output = harness_uav_buffer(env->device, ELEMENTS * 4);
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList *bundle = create_bundle(env, env->pipeline);
    D3D12_WRITEBUFFERIMMEDIATE_PARAMETER write;
    uint32_t constants[2] = {0, 21}, data[ELEMENTS];
    LOG_MARK();

    ID3D12GraphicsCommandList_BeginEvent(bundle, 1 /* PIX's ANSI metadata */, "bundle", 7);
    ID3D12GraphicsCommandList_DispatchX(bundle, 2, 1, 1, (D3D12XBOX_DISPATCH_FLAGS)0);
    ID3D12GraphicsCommandList_SetMarker(bundle, 1, "dispatched", 11);
    ID3D12GraphicsCommandList_EndEvent(bundle);
    write.Dest = ID3D12Resource_GetGPUVirtualAddress(output) + 1000 * 4;
    write.Value = 0xabcd;
    {
        ID3D12GraphicsCommandList2 *bundle2 = NULL;
        CHECK_HR(ID3D12GraphicsCommandList_QueryInterface(bundle, &IID_ID3D12GraphicsCommandList2, (void **)&bundle2), S_OK);
        ID3D12GraphicsCommandList2_WriteBufferImmediate(bundle2, 1, &write, NULL);
        ID3D12GraphicsCommandList2_Release(bundle2);
    }
    CHECK_HR(ID3D12GraphicsCommandList_Close(bundle), S_OK);

    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, env->signature);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 1, ID3D12Resource_GetGPUVirtualAddress(output));
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(list.list, 0, 2, constants, 0);
    ID3D12GraphicsCommandList2_ExecuteBundle(list.list, bundle);
    run_and_read(env, &list, output, data);
    CHECK_MSG(range_is(data, 0, 128, 21), "DispatchX in a bundle: data[127] = %u, expected 21", data[127]);
    CHECK_MSG(data[1000] == 0xabcd, "WriteBufferImmediate in a bundle: 0x%x", data[1000]);
    CHECK_NO_LOG();

    ID3D12GraphicsCommandList_Release(bundle);
    harness_release_list(&list);
    ID3D12Resource_Release(output);
}

/* SetGraphicsRoot* in a bundle reach the caller's graphics bind point, as in D3D12, and leave
 * its compute bind point alone. No draws exist yet: what the graphics bind point holds shows in
 * which of the caller's own SetGraphicsRoot* calls it accepts. */
static void test_graphics_root_arguments(struct env *env)
{
    ID3D12Resource *output = harness_uav_buffer(env->device, ELEMENTS * 4);
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList *bundle = create_bundle(env, NULL), *inheriting;
    uint32_t graphics_constants[3] = {1, 2, 3}, constants[2] = {0, 17}, data[ELEMENTS];
    LOG_MARK();

    /* Constants at graphics parameter 0, offset 1: at the compute bind point they would be the
     * dispatch's value. */
    ID3D12GraphicsCommandList_SetGraphicsRootSignature(bundle, env->graphics_signature);
    ID3D12GraphicsCommandList_SetGraphicsRoot32BitConstants(bundle, 2, 3, graphics_constants, 0);
    ID3D12GraphicsCommandList_SetGraphicsRoot32BitConstant(bundle, 0, 5, 1);
    ID3D12GraphicsCommandList_SetGraphicsRootUnorderedAccessView(bundle, 1, ID3D12Resource_GetGPUVirtualAddress(output));
    CHECK_HR(ID3D12GraphicsCommandList_Close(bundle), S_OK);

    ID3D12GraphicsCommandList2_SetPipelineState(list.list, env->pipeline);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, env->signature);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 1, ID3D12Resource_GetGPUVirtualAddress(output));
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(list.list, 0, 2, constants, 0);
    ID3D12GraphicsCommandList2_ExecuteBundle(list.list, bundle);
    /* The bundle's graphics signature is the caller's now: its third parameter, 3 constants, is
     * there (the compute signature has 2 parameters). */
    ID3D12GraphicsCommandList2_SetGraphicsRoot32BitConstant(list.list, 2, 4, 2);
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    run_and_read(env, &list, output, data);
    CHECK_MSG(range_is(data, 0, 64, 17), "the dispatch after the bundle: data[0] = %u, expected the compute constant 17", data[0]);
    CHECK_NO_LOG();

    /* A parameter past the bundle's signature is refused against its count. */
    restart_list(&list);
    ID3D12GraphicsCommandList2_ExecuteBundle(list.list, bundle);
    CHECK_NO_LOG();
    ID3D12GraphicsCommandList2_SetGraphicsRoot32BitConstant(list.list, 3, 0, 0);
    expect_refused(log_mark_, &list, "SetGraphicsRoot32BitConstant", "RootParameterIndex 3 is past the root signature's 3 parameters");
    RELOG_MARK();

    /* A bundle's graphics arguments without a signature of its own need the caller's. */
    inheriting = create_bundle(env, NULL);
    ID3D12GraphicsCommandList_SetGraphicsRoot32BitConstants(inheriting, 2, 1, graphics_constants, 2);
    CHECK_HR(ID3D12GraphicsCommandList_Close(inheriting), S_OK);
    restart_list(&list);
    ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list.list, env->graphics_signature);
    ID3D12GraphicsCommandList2_ExecuteBundle(list.list, inheriting);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), S_OK);
    CHECK_NO_LOG();
    restart_list(&list);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, env->graphics_signature);
    ID3D12GraphicsCommandList2_ExecuteBundle(list.list, inheriting);
    expect_refused(log_mark_, &list, "SetGraphicsRoot32BitConstants", "no graphics root signature is set");

    ID3D12GraphicsCommandList_Release(inheriting);
    ID3D12GraphicsCommandList_Release(bundle);
    harness_release_list(&list);
    ID3D12Resource_Release(output);
}

/* Calls D3D12 does not allow in bundles make the bundle invalid; its Close says why. */
static void test_refused_calls(struct env *env)
{
    ID3D12Resource *output = harness_uav_buffer(env->device, 256);
    ID3D12GraphicsCommandList *bundle;
    D3D12_RESOURCE_BARRIER barrier;
    LOG_MARK();

    bundle = create_bundle(env, NULL);
    ID3D12GraphicsCommandList_Dispatch(bundle, 1, 1, 1);
    CHECK_LOG("Dispatch", "no pipeline state is set in the bundle");
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList_Close(bundle), E_INVALIDARG);
    CHECK_LOG("Close", "invalid command", "no pipeline state");
    RELOG_MARK();
    ID3D12GraphicsCommandList_Release(bundle);

    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
    barrier.UAV.pResource = output;
    bundle = create_bundle(env, env->pipeline);
    ID3D12GraphicsCommandList_ResourceBarrier(bundle, 1, &barrier);
    CHECK_LOG("ResourceBarrier", "cannot be recorded in a bundle");
    RELOG_MARK();
    ID3D12GraphicsCommandList_CopyBufferRegion(bundle, output, 0, output, 128, 4);
    CHECK_LOG("CopyBufferRegion", "cannot be recorded in a bundle");
    RELOG_MARK();
    ID3D12GraphicsCommandList_ClearState(bundle, NULL);
    CHECK_LOG("ClearState", "cannot be recorded in a bundle");
    RELOG_MARK();
    ID3D12GraphicsCommandList_ExecuteBundle(bundle, bundle);
    CHECK_LOG("ExecuteBundle", "cannot be recorded in a bundle");
    RELOG_MARK();
    ID3D12GraphicsCommandList_DiscardResource(bundle, output, NULL);
    CHECK_LOG("DiscardResource", "cannot be recorded in a bundle");
    RELOG_MARK();
    /* An array argument is copied when recorded: it must be there. */
    ID3D12GraphicsCommandList_SetComputeRoot32BitConstants(bundle, 0, 2, NULL, 0);
    CHECK_LOG("SetComputeRoot32BitConstants", "pSrcData is NULL with Num32BitValuesToSet 2");
    RELOG_MARK();
    ID3D12GraphicsCommandList_Wait32BitValueX(bundle, ID3D12Resource_GetGPUVirtualAddress(output), D3D12_COMPARISON_FUNC_EQUAL, 1,
            (D3D12XBOX_WAIT_FLAGS)0);
    CHECK_LOG("Wait32BitValueX", "cannot be recorded in a bundle");
    RELOG_MARK();
    CHECK_HR(ID3D12GraphicsCommandList_Close(bundle), E_INVALIDARG);
    CHECK_LOG("Close", "ResourceBarrier");
    RELOG_MARK();
    ID3D12GraphicsCommandList_SetPipelineState(bundle, env->pipeline);
    CHECK_LOG("SetPipelineState", "closed");
    ID3D12GraphicsCommandList_Release(bundle);
    ID3D12Resource_Release(output);
}

/* Every misuse of ExecuteBundle invalidates the caller, whose Close names it. */
static void expect_caller_invalid(struct env *env, D3D12_COMMAND_LIST_TYPE type, ID3D12GraphicsCommandList *bundle, const char *why)
{
    struct harness_list list = harness_create_list(env->device, type);
    LOG_MARK();
    ID3D12GraphicsCommandList2_ExecuteBundle(list.list, bundle);
    expect_refused(log_mark_, &list, "ExecuteBundle", why);
    harness_release_list(&list);
}

static void test_execute_bundle_misuse(struct env *env)
{
    ID3D12GraphicsCommandList *bundle = create_bundle(env, env->pipeline), *open_bundle;
    struct harness_list other = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12DescriptorHeap *heaps[2] = {NULL, NULL};
    D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    ID3D12CommandList *as_list = NULL;
    LOG_MARK();

    ID3D12GraphicsCommandList_Dispatch(bundle, 1, 1, 1);
    CHECK_HR(ID3D12GraphicsCommandList_Close(bundle), S_OK);

    expect_caller_invalid(env, D3D12_COMMAND_LIST_TYPE_COMPUTE, bundle, "only DIRECT lists execute bundles");
    expect_caller_invalid(env, D3D12_COMMAND_LIST_TYPE_DIRECT, NULL, "NULL");
    CHECK_HR(ID3D12GraphicsCommandList2_Close(other.list), S_OK);
    expect_caller_invalid(env, D3D12_COMMAND_LIST_TYPE_DIRECT, (ID3D12GraphicsCommandList *)other.list, "not a bundle");

    /* A bundle still recording (the allocator is free again once it closes). */
    CHECK_HR(ID3D12CommandAllocator_Reset(env->bundle_allocator), S_OK);
    open_bundle = create_bundle(env, env->pipeline);
    expect_caller_invalid(env, D3D12_COMMAND_LIST_TYPE_DIRECT, open_bundle, "still recording");
    CHECK_HR(ID3D12GraphicsCommandList_Close(open_bundle), S_OK);
    ID3D12GraphicsCommandList_Release(open_bundle);
    /* The allocator's Reset above dropped the first bundle's commands. */
    expect_caller_invalid(env, D3D12_COMMAND_LIST_TYPE_DIRECT, bundle, "was Reset after the bundle was recorded");
    ID3D12GraphicsCommandList_Release(bundle);

    /* Bundles run only through ExecuteBundle. */
    bundle = create_bundle(env, env->pipeline);
    CHECK_HR(ID3D12GraphicsCommandList_Close(bundle), S_OK);
    CHECK_HR(ID3D12GraphicsCommandList_QueryInterface(bundle, &IID_ID3D12CommandList, (void **)&as_list), S_OK);
    RELOG_MARK();
    ID3D12CommandQueue_ExecuteCommandLists(env->queue, 1, &as_list);
    CHECK_LOG("ExecuteCommandLists", "a bundle");
    ID3D12CommandList_Release(as_list);
    ID3D12GraphicsCommandList_Release(bundle);

    /* A bundle's SetDescriptorHeaps must name the caller's heaps. */
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&heaps[0]), S_OK);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&heaps[1]), S_OK);
    bundle = create_bundle(env, env->pipeline);
    ID3D12GraphicsCommandList_SetDescriptorHeaps(bundle, 1, &heaps[0]);
    CHECK_HR(ID3D12GraphicsCommandList_Close(bundle), S_OK);
    {
        struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        RELOG_MARK();
        ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &heaps[0]);
        ID3D12GraphicsCommandList2_ExecuteBundle(list.list, bundle); /* same heap: fine */
        CHECK_NO_LOG();
        CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), S_OK);
        harness_release_list(&list);
    }
    {
        struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        RELOG_MARK();
        ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &heaps[1]);
        ID3D12GraphicsCommandList2_ExecuteBundle(list.list, bundle);
        CHECK_LOG("ExecuteBundle", "must match its caller's");
        RELOG_MARK();
        CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_INVALIDARG);
        CHECK_LOG("Close", "descriptor heaps");
        harness_release_list(&list);
    }
    ID3D12GraphicsCommandList_Release(bundle);
    ID3D12DescriptorHeap_Release(heaps[0]);
    ID3D12DescriptorHeap_Release(heaps[1]);
    harness_release_list(&other);
}

int main(void)
{
    struct env env;
    D3D12_ROOT_PARAMETER1 parameters[3];
    ID3D10Blob *code;

    harness_init();
    memset(&env, 0, sizeof(env));
    if (!(env.device = harness_create_device()))
        return harness_finish();
    env.queue = harness_create_queue(env.device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 2;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    env.signature = harness_root_signature(env.device, parameters, 2, D3D12_ROOT_SIGNATURE_FLAG_NONE);
    parameters[2].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[2].Constants.ShaderRegister = 1;
    parameters[2].Constants.Num32BitValues = 3;
    env.graphics_signature = harness_root_signature(env.device, parameters, 3, D3D12_ROOT_SIGNATURE_FLAG_NONE);
    if ((code = harness_compile(store_source, 0))) {
        env.pipeline = harness_compute_pipeline(env.device, env.signature, code);
        ID3D10Blob_Release(code);
    }
    if ((code = harness_compile(double_source, 0))) {
        env.pipeline_double = harness_compute_pipeline(env.device, env.signature, code);
        ID3D10Blob_Release(code);
    }
    CHECK_HR(ID3D12Device_CreateCommandAllocator(env.device, D3D12_COMMAND_LIST_TYPE_BUNDLE, &IID_ID3D12CommandAllocator,
            (void **)&env.bundle_allocator), S_OK);
    if (env.signature && env.graphics_signature && env.pipeline && env.pipeline_double && env.bundle_allocator) {
        test_create(&env);
        test_inherits_root_arguments(&env);
        test_state_flows_back(&env);
        test_console_dispatch_and_immediate_writes(&env);
        test_graphics_root_arguments(&env);
        test_refused_calls(&env);
        test_execute_bundle_misuse(&env);
    }
    if (env.bundle_allocator)
        ID3D12CommandAllocator_Release(env.bundle_allocator);
    if (env.pipeline)
        ID3D12PipelineState_Release(env.pipeline);
    if (env.pipeline_double)
        ID3D12PipelineState_Release(env.pipeline_double);
    if (env.signature)
        ID3D12RootSignature_Release(env.signature);
    if (env.graphics_signature)
        ID3D12RootSignature_Release(env.graphics_signature);
    ID3D12CommandQueue_Release(env.queue);
    harness_release_device(env.device);
    return harness_finish();
}
