/* The console's prefetch parser (SPEC §2.2, §4) made observable. A COMPUTE-queue list writes
 * dispatch arguments and a count with a compute shader (a UAV write) and moves the buffer to
 * INDIRECT_ARGUMENT; the queue signals a fence. A DIRECT queue waits for it with WaitX(PFP),
 * WaitX(CE), WaitX(neither), WaitX(NULL) or Wait, then runs ExecuteIndirect on those arguments
 * (and that count): every case's groups are counted and read back (right on Vulkan in every
 * case). Observed: the wait's Vulkan destination stages in the trace file (draw-indirect held
 * exactly with PFP, CE or a plain Wait), and the console memory-model validation's line exactly
 * where the prefetch parser is left free (neither, NULL, CE alone), naming both lists and the
 * buffer; none when the reading list moves the buffer to INDIRECT_ARGUMENT itself (a barrier
 * syncs the parser), whichever queue executes first, and nothing at all with the validation off.
 * And the arguments read after a mid-list wait for a value published without write-back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <d3d12_xs.h>

#include "harness.h"
#include "json_reader.h"

/* VkPipelineStageFlagBits2's values (the trace file's "stages"). */
#define STAGE_DRAW_INDIRECT 0x2ull
#define STAGE_ALL_COMMANDS 0x10000ull

enum wait_kind { WAITX_PFP, WAITX_CE, WAITX_NEITHER, WAITX_NULL, PLAIN_WAIT, WAIT_KIND_COUNT };

static const char *const wait_names[WAIT_KIND_COUNT] = {"waitx_pfp", "waitx_ce", "waitx_neither", "waitx_null", "plain_wait"};

struct env {
    ID3D12Device *device;
    ID3D12RootSignature *signature;
    ID3D12PipelineState *writer, *counter;
    ID3D12CommandSignature *dispatch;
    bool validation;
};

static const char writer_source[] =
    "RWByteAddressBuffer arguments : register(u0);\n"
    "cbuffer c : register(b0) { uint4 values; };\n"
    "[numthreads(1, 1, 1)] void main() { arguments.Store4(0, values); }\n";
static const char counter_source[] =
    "RWByteAddressBuffer groups : register(u0);\n"
    "[numthreads(1, 1, 1)] void main() { uint o; groups.InterlockedAdd(0, 1, o); }\n";

static void setup(struct env *env)
{
    D3D12_INDIRECT_ARGUMENT_DESC argument = {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH};
    D3D12_COMMAND_SIGNATURE_DESC desc = {sizeof(D3D12_DISPATCH_ARGUMENTS), 1, &argument, 0};
    D3D12_ROOT_PARAMETER1 parameters[2];
    ID3D10Blob *code;

    memset(env, 0, sizeof(*env));
    env->device = harness_create_device();
    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[1].Constants.Num32BitValues = 4;
    env->signature = harness_root_signature(env->device, parameters, 2, 0);
    code = harness_compile(writer_source, 0);
    env->writer = harness_compute_pipeline(env->device, env->signature, code);
    ID3D10Blob_Release(code);
    code = harness_compile(counter_source, 0);
    env->counter = harness_compute_pipeline(env->device, env->signature, code);
    ID3D10Blob_Release(code);
    CHECK_HR(ID3D12Device_CreateCommandSignature(env->device, &desc, NULL, &IID_ID3D12CommandSignature, (void **)&env->dispatch), S_OK);
}

static void teardown(struct env *env)
{
    ID3D12CommandSignature_Release(env->dispatch);
    ID3D12PipelineState_Release(env->counter);
    ID3D12PipelineState_Release(env->writer);
    ID3D12RootSignature_Release(env->signature);
    harness_release_device(env->device);
}

static void transition(ID3D12GraphicsCommandList2 *list, ID3D12Resource *resource, D3D12_RESOURCE_STATES before, D3D12_RESOURCE_STATES after)
{
    D3D12_RESOURCE_BARRIER barrier;
    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    barrier.Transition.pResource = resource;
    barrier.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    barrier.Transition.StateBefore = before;
    barrier.Transition.StateAfter = after;
    ID3D12GraphicsCommandList2_ResourceBarrier(list, 1, &barrier);
}

static HRESULT queue_wait(ID3D12CommandQueue *queue, ID3D12Fence *fence, enum wait_kind kind)
{
    D3D12XBOX_SYNC_PARAMS params = {D3D12XBOX_SYNC_FLAG_NONE, D3D12XBOX_SYNC_CONTROL_FLAG_NONE};
    switch (kind) {
    case WAITX_PFP:
        params.ControlFlags = D3D12XBOX_SYNC_CONTROL_FLAG_TOP_SELECT_ENGINE_PFP;
        params.SyncFlags = D3D12XBOX_SYNC_FLAG_GL2_INVALIDATE;
        return ID3D12CommandQueue_WaitX(queue, fence, 1, &params);
    case WAITX_CE:
        params.ControlFlags = D3D12XBOX_SYNC_CONTROL_FLAG_TOP_SELECT_ENGINE_CE;
        return ID3D12CommandQueue_WaitX(queue, fence, 1, &params);
    case WAITX_NEITHER:
        return ID3D12CommandQueue_WaitX(queue, fence, 1, &params);
    case WAITX_NULL:
        return ID3D12CommandQueue_WaitX(queue, fence, 1, NULL);
    default:
        return ID3D12CommandQueue_Wait(queue, fence, 1);
    }
}

/* One hand-over: the COMPUTE list writes (x, 3, 1) and the count 1 into a fresh buffer; the
 * DIRECT list runs ExecuteIndirect on them after the queue wait, twice (without and with the
 * count buffer), counting groups. reader_barrier: the COMPUTE list leaves the buffer in
 * UNORDERED_ACCESS and the DIRECT list moves it to INDIRECT_ARGUMENT before reading.
 * reader_first: the DIRECT queue waits and executes before the COMPUTE queue does anything. */
static void hand_over(struct env *env, enum wait_kind kind, bool reader_barrier, bool reader_first, bool expect_report)
{
    ID3D12CommandQueue *compute_queue = harness_create_queue(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12CommandQueue *direct_queue = harness_create_queue(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    struct harness_list writer = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    struct harness_list reader = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12Resource *arguments = harness_uav_buffer(env->device, 256), *groups = harness_uav_buffer(env->device, 256);
    ID3D12Fence *fence = harness_create_fence(env->device, 0), *done = harness_create_fence(env->device, 0);
    const UINT x = 2 + (UINT)kind, values[4] = {x, 3, 1, 1};
    D3D12_WRITEBUFFERIMMEDIATE_PARAMETER zero = {ID3D12Resource_GetGPUVirtualAddress(groups), 0};
    D3D12_RESOURCE_BARRIER uav = {.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV, .UAV = {groups}};
    WCHAR name[32];
    uint32_t counted = 0;
    LOG_MARK();

    for (unsigned i = 0; i <= strlen(wait_names[kind]); i++)
        name[i] = (WCHAR)wait_names[kind][i];
    ID3D12Object_SetName((ID3D12Object *)fence, name);
    ID3D12Object_SetName((ID3D12Object *)writer.list, L"culling");
    ID3D12Object_SetName((ID3D12Object *)reader.list, L"drawing");
    ID3D12Object_SetName((ID3D12Object *)compute_queue, L"async");
    ID3D12Object_SetName((ID3D12Object *)direct_queue, L"gfx");

    ID3D12GraphicsCommandList2_SetComputeRootSignature(writer.list, env->signature);
    ID3D12GraphicsCommandList2_SetPipelineState(writer.list, env->writer);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(writer.list, 0, ID3D12Resource_GetGPUVirtualAddress(arguments));
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(writer.list, 1, 4, values, 0);
    ID3D12GraphicsCommandList2_Dispatch(writer.list, 1, 1, 1);
    if (!reader_barrier)
        transition(writer.list, arguments, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(writer.list), S_OK);

    ID3D12GraphicsCommandList2_WriteBufferImmediate(reader.list, 1, &zero, NULL);
    ID3D12GraphicsCommandList2_ResourceBarrier(reader.list, 1, &uav);
    if (reader_barrier)
        transition(reader.list, arguments, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(reader.list, env->signature);
    ID3D12GraphicsCommandList2_SetPipelineState(reader.list, env->counter);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(reader.list, 0, ID3D12Resource_GetGPUVirtualAddress(groups));
    ID3D12GraphicsCommandList2_ExecuteIndirect(reader.list, env->dispatch, 1, arguments, 0, NULL, 0);
    ID3D12GraphicsCommandList2_ExecuteIndirect(reader.list, env->dispatch, 4, arguments, 0, arguments, 12);
    transition(reader.list, arguments, D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(reader.list), S_OK);

    if (reader_first) {
        CHECK_HR(queue_wait(direct_queue, fence, kind), S_OK);
        ID3D12CommandQueue_ExecuteCommandLists(direct_queue, 1, (ID3D12CommandList *const *)&reader.list);
        CHECK_NO_LOG(); /* nothing known of the writer yet */
        RELOG_MARK();
    }
    ID3D12CommandQueue_ExecuteCommandLists(compute_queue, 1, (ID3D12CommandList *const *)&writer.list);
    CHECK_HR(ID3D12CommandQueue_Signal(compute_queue, fence, 1), S_OK);
    if (!reader_first) {
        CHECK_HR(queue_wait(direct_queue, fence, kind), S_OK);
        ID3D12CommandQueue_ExecuteCommandLists(direct_queue, 1, (ID3D12CommandList *const *)&reader.list);
    }
    CHECK_HR(ID3D12CommandQueue_Signal(direct_queue, done, 1), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(done, 1, NULL), S_OK);
    harness_read_back(env->device, direct_queue, groups, &counted, sizeof(counted));
    /* x * 3 groups each, both ExecuteIndirects: the count (1) caps the second's 4 */
    CHECK_MSG(counted == 2 * x * 3, "%s: %u groups ran, expected %u", wait_names[kind], counted, 2 * x * 3);
    if (expect_report && env->validation)
        CHECK_LOG("console memory model", "list 'drawing' on queue 'gfx'", "(ExecuteIndirect) reads bytes [0, +12) of buffer",
                "as indirect arguments", wait_names[kind], "leaves the prefetch parser free", "TOP_SELECT_ENGINE_PFP",
                "list 'culling' on queue 'async' call 4 (Dispatch) wrote them", "stale");
    else
        CHECK_NO_LOG();

    ID3D12Fence_Release(done);
    ID3D12Fence_Release(fence);
    ID3D12Resource_Release(groups);
    ID3D12Resource_Release(arguments);
    harness_release_list(&reader);
    harness_release_list(&writer);
    ID3D12CommandQueue_Release(direct_queue);
    ID3D12CommandQueue_Release(compute_queue);
}

/* The other console hand-over, through memory: the COMPUTE list publishes a value with a
 * bottom-of-pipe write after writing the arguments, the DIRECT list waits for it mid-list
 * (Wait64BitValueX) and runs ExecuteIndirect on them. Without a write-back the console could
 * hand the parser stale arguments: the validation's value-write check counts the arguments
 * as a read. */
static void mid_list_case(struct env *env, bool write_back)
{
    ID3D12CommandQueue *compute_queue = harness_create_queue(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    ID3D12CommandQueue *direct_queue = harness_create_queue(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    struct harness_list writer = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    struct harness_list reader = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12Resource *arguments = harness_uav_buffer(env->device, 256), *groups = harness_uav_buffer(env->device, 256), *values;
    D3D12_HEAP_PROPERTIES heap = {D3D12_HEAP_TYPE_CUSTOM, D3D12_CPU_PAGE_PROPERTY_WRITE_BACK, D3D12_MEMORY_POOL_L0, 0, 0};
    D3D12_RESOURCE_DESC desc = harness_buffer_desc(4096);
    ID3D12Fence *done = harness_create_fence(env->device, 0);
    const UINT counts[4] = {4, 2, 1, 1};
    D3D12_WRITEBUFFERIMMEDIATE_PARAMETER zero = {ID3D12Resource_GetGPUVirtualAddress(groups), 0};
    D3D12_RESOURCE_BARRIER uav = {.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV, .UAV = {groups}};
    uint32_t counted = 0;
    void *mapped = NULL;
    LOG_MARK();

    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
    CHECK_HR(ID3D12Device_CreateCommittedResource(env->device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COMMON, NULL,
            &IID_ID3D12Resource, (void **)&values), S_OK);
    CHECK_HR(ID3D12Resource_Map(values, 0, NULL, &mapped), S_OK);
    if (mapped)
        memset(mapped, 0, 8);
    ID3D12Object_SetName((ID3D12Object *)writer.list, L"culling");
    ID3D12Object_SetName((ID3D12Object *)reader.list, L"drawing");

    ID3D12GraphicsCommandList2_SetComputeRootSignature(writer.list, env->signature);
    ID3D12GraphicsCommandList2_SetPipelineState(writer.list, env->writer);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(writer.list, 0, ID3D12Resource_GetGPUVirtualAddress(arguments));
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(writer.list, 1, 4, counts, 0);
    ID3D12GraphicsCommandList2_Dispatch(writer.list, 1, 1, 1);
    ID3D12GraphicsCommandList_Write64BitValueBottomOfPipe2X((ID3D12GraphicsCommandList *)writer.list, ID3D12Resource_GetGPUVirtualAddress(values),
            1, write_back ? D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK : D3D12XBOX_SYNC_FLAG_NONE, D3D12XBOX_SYNC_CONTROL_FLAG_NONE,
            D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(writer.list), S_OK);

    ID3D12GraphicsCommandList2_WriteBufferImmediate(reader.list, 1, &zero, NULL);
    ID3D12GraphicsCommandList2_ResourceBarrier(reader.list, 1, &uav);
    ID3D12GraphicsCommandList_Wait64BitValueX((ID3D12GraphicsCommandList *)reader.list, ID3D12Resource_GetGPUVirtualAddress(values),
            D3D12_COMPARISON_FUNC_GREATER_EQUAL, 1, D3D12XBOX_WAIT_FLAG_NONE);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(reader.list, env->signature);
    ID3D12GraphicsCommandList2_SetPipelineState(reader.list, env->counter);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(reader.list, 0, ID3D12Resource_GetGPUVirtualAddress(groups));
    ID3D12GraphicsCommandList2_ExecuteIndirect(reader.list, env->dispatch, 1, arguments, 0, NULL, 0);
    CHECK_HR(ID3D12GraphicsCommandList2_Close(reader.list), S_OK);

    ID3D12CommandQueue_ExecuteCommandLists(compute_queue, 1, (ID3D12CommandList *const *)&writer.list);
    ID3D12CommandQueue_ExecuteCommandLists(direct_queue, 1, (ID3D12CommandList *const *)&reader.list);
    CHECK_HR(ID3D12CommandQueue_Signal(direct_queue, done, 1), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(done, 1, NULL), S_OK);
    harness_read_back(env->device, direct_queue, groups, &counted, sizeof(counted));
    CHECK_MSG(counted == 8, "mid-list wait: %u groups ran, expected 8", counted);
    if (!write_back && env->validation)
        CHECK_LOG("console memory model", "list 'drawing'", "(ExecuteIndirect) reads bytes [0, +12) of buffer", "list 'culling'",
                "(Dispatch) wrote them", "no write-back", "stale");
    else
        CHECK_NO_LOG();

    ID3D12Fence_Release(done);
    ID3D12Resource_Unmap(values, 0, NULL);
    ID3D12Resource_Release(values);
    ID3D12Resource_Release(groups);
    ID3D12Resource_Release(arguments);
    harness_release_list(&reader);
    harness_release_list(&writer);
    ID3D12CommandQueue_Release(direct_queue);
    ID3D12CommandQueue_Release(compute_queue);
}

/* The DIRECT queue's wait span for the fence named name, from the trace file. */
static const struct json *wait_event(const struct json *events, const char *name)
{
    char prefix[64];
    snprintf(prefix, sizeof(prefix), "Wait %s >= 1", name);
    for (size_t i = 0; i < events->count; i++) {
        const struct json *e = &events->items[i];
        if (!strcmp(json_string(e, "ph"), "X") && !strcmp(json_string(e, "cat"), "wait") && !strcmp(json_string(e, "name"), prefix))
            return e;
    }
    return NULL;
}

/* The waits' Vulkan stages: every stage for a plain Wait and a WaitX selecting PFP or CE; all
 * but draw-indirect (the indirect-argument fetch) otherwise. */
static void check_wait_stages(const char *path)
{
    struct json *root = NULL;
    const struct json *events;
    FILE *file = fopen(path, "rb");
    size_t offset = 0;
    char *text = NULL;
    long size = 0;

    CHECK_MSG(file != NULL, "cannot open %s", path);
    if (!file)
        return;
    fseek(file, 0, SEEK_END);
    size = ftell(file);
    fseek(file, 0, SEEK_SET);
    if (size > 0 && (text = malloc((size_t)size)) && fread(text, 1, (size_t)size, file) == (size_t)size)
        root = json_parse(text, (size_t)size, &offset);
    fclose(file);
    free(text);
    CHECK_MSG(root != NULL, "%s is not JSON (error at byte %zu)", path, offset);
    if (!root || !(events = json_member(root, "traceEvents")))
        goto done;
    for (unsigned kind = 0; kind < WAIT_KIND_COUNT; kind++) {
        const struct json *wait = wait_event(events, wait_names[kind]), *args = wait ? json_member(wait, "args") : NULL;
        bool held = kind == WAITX_PFP || kind == WAITX_CE || kind == PLAIN_WAIT;
        unsigned long long stages = args ? strtoull(json_string(args, "stages"), NULL, 16) : 0;
        CHECK_MSG(args != NULL, "no wait span for fence '%s' in the trace", wait_names[kind]);
        if (!args)
            continue;
        CHECK_MSG(!strcmp(json_string(args, "met_by"), "semaphore"), "%s: met by %s (a semaphore wait was expected)", wait_names[kind],
                json_string(args, "met_by"));
        CHECK_MSG(!strcmp(json_string(args, "indirect_arguments"), held ? "held" : "not held"), "%s: indirect_arguments '%s'",
                wait_names[kind], json_string(args, "indirect_arguments"));
        if (held)
            CHECK_MSG(stages == STAGE_ALL_COMMANDS, "%s: stages 0x%llx, expected ALL_COMMANDS", wait_names[kind], stages);
        else
            CHECK_MSG(stages && !(stages & (STAGE_DRAW_INDIRECT | STAGE_ALL_COMMANDS)) && (stages & 0x800 /* COMPUTE_SHADER */),
                    "%s: stages 0x%llx, expected every stage but draw-indirect", wait_names[kind], stages);
    }
done:
    json_free(root);
}

static void run_cases(bool validation)
{
    struct env env;
    char path[64];

    setup(&env);
    env.validation = validation;
    snprintf(path, sizeof(path), "/tmp/d3d12xs-indirect-pfp-%d.json", (int)getpid());
    CHECK_HR(D3D12XSStartTrace(path), S_OK);
    hand_over(&env, WAITX_PFP, false, false, false);
    hand_over(&env, WAITX_CE, false, false, true);      /* CE alone leaves the parser free (SPEC §2.2) */
    hand_over(&env, WAITX_NEITHER, false, false, true);
    hand_over(&env, WAITX_NULL, false, false, true);
    hand_over(&env, PLAIN_WAIT, false, false, false);
    CHECK_HR(D3D12XSStopTrace(), S_OK);
    check_wait_stages(path);
    remove(path);

    hand_over(&env, WAITX_NEITHER, false, true, true);  /* the reader executed before the writer */
    hand_over(&env, WAITX_PFP, false, true, false);
    hand_over(&env, WAITX_NULL, true, false, false);    /* the reader's own barrier syncs the parser */
    mid_list_case(&env, false);
    mid_list_case(&env, true);
    teardown(&env);
}

int main(int argc, char **argv)
{
    static const char *const validation_on[] = {"D3D12XS_CONSOLE_VALIDATION=1", NULL};
    static const char *const validation_off[] = {"D3D12XS_CONSOLE_VALIDATION=0", NULL};

    harness_init();
    /* The library reads D3D12XS_CONSOLE_VALIDATION once per process: each setting a child. */
    if (argc > 1) {
        run_cases(!strcmp(argv[1], "validation_on"));
        return harness_finish();
    }
    CHECK_MSG(harness_run_self("validation_on", validation_on), "the cases with the validation on failed (their lines above say why)");
    CHECK_MSG(harness_run_self("validation_off", validation_off), "the cases with the validation off failed (their lines above say why)");
    return harness_finish();
}
