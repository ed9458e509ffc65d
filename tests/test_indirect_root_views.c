/* ExecuteIndirect with root CBV, SRV and UAV arguments of dispatches
 * (VK_EXT_device_generated_commands; the pipeline's variant that reads the views the signature
 * sets from the push block, pipelines/pipeline_indirect_variant.c). One compute shader reads a
 * root SRV and a root CBV and writes a root UAV; signatures set the UAV alone, the SRV and CBV
 * alone, or all three, each with a root constant, so the views a signature does not set stay the
 * list's push descriptors: per-command destinations (at 4-byte but not 16-byte offsets too, and in
 * a second buffer), an address of 0 and one of a released buffer (their writes dropped, the
 * commands after them run), a count buffer below MaxCommandCount, a plain Dispatch after
 * ExecuteIndirect that uses the list's own views again, a list that never sets the views the
 * signature sets (no debug warning) or sets one to a released buffer (not checked), the same
 * signature twice in a list. Load4 and Store4 off 16-byte boundaries; a bundle; four lists
 * recording the first ExecuteIndirects of a pipeline on four threads; a pipeline made from a
 * cached blob. Refusals (E_NOTIMPL at Close, one line): a root signature with no push-constant
 * room for the views' entries, and, in a child run with D3D12XS_NO_GENERATED_COMMANDS=1, a device
 * without the extension. ExecuteIndirectTier: 1.1 with generated commands, 1.0 without. Draws:
 * test_indirect_root_view_draws.c. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12RootSignature *root;
    ID3D12PipelineState *pipeline;
    ID3D12Resource *sources;  /* SRV words: 100 * i at word i */
    ID3D12Resource *constants; /* CBVs: 256-byte slots, slot i's first word 10 * i */
};

/* parameters: 0 root UAV u0, 1 root SRV t0, 2 root CBV b0, 3 one root constant (b1) */
static const char source[] =
    "RWByteAddressBuffer u : register(u0);\n"
    "ByteAddressBuffer t : register(t0);\n"
    "cbuffer cb : register(b0) { uint cbv_value; };\n"
    "cbuffer c : register(b1) { uint value; };\n"
    "[numthreads(1, 1, 1)] void main(uint3 group : SV_GroupID)\n"
    "{\n"
    "    u.Store(group.x * 4, value * 10000 + cbv_value + t.Load(group.x * 4));\n"
    "}\n";

/* the same with EXTRA added to what it stores */
static const char source_extra[] =
    "RWByteAddressBuffer u : register(u0);\n"
    "ByteAddressBuffer t : register(t0);\n"
    "cbuffer cb : register(b0) { uint cbv_value; };\n"
    "cbuffer c : register(b1) { uint value; };\n"
    "[numthreads(1, 1, 1)] void main(uint3 group : SV_GroupID)\n"
    "{\n"
    "    u.Store(group.x * 4, value * 10000 + cbv_value + t.Load(group.x * 4) + EXTRA);\n"
    "}\n";

#define SOURCE_WORDS 64
#define CBV_SLOTS 4

/* The four parameters the shader reads (above). */
static ID3D12RootSignature *make_root_signature(ID3D12Device *device)
{
    D3D12_ROOT_PARAMETER1 parameters[4];

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV;
    parameters[2].ParameterType = D3D12_ROOT_PARAMETER_TYPE_CBV;
    parameters[3].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[3].Constants.ShaderRegister = 1;
    parameters[3].Constants.Num32BitValues = 1;
    return harness_root_signature(device, parameters, 4, 0);
}

static void setup(struct env *env)
{
    UINT words[SOURCE_WORDS], slots[CBV_SLOTS * 64];
    ID3D10Blob *cs;

    memset(env, 0, sizeof(*env));
    env->device = harness_create_device();
    env->queue = harness_create_queue(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    env->root = make_root_signature(env->device);
    cs = harness_compile(source, 0);
    env->pipeline = harness_compute_pipeline(env->device, env->root, cs);
    ID3D10Blob_Release(cs);
    for (unsigned i = 0; i < SOURCE_WORDS; i++)
        words[i] = 100 * i;
    env->sources = harness_upload_buffer(env->device, words, sizeof(words));
    memset(slots, 0, sizeof(slots));
    for (unsigned i = 0; i < CBV_SLOTS; i++)
        slots[64 * i] = 10 * i;
    env->constants = harness_upload_buffer(env->device, slots, sizeof(slots));
}

static void teardown(struct env *env)
{
    ID3D12Resource_Release(env->constants);
    ID3D12Resource_Release(env->sources);
    ID3D12PipelineState_Release(env->pipeline);
    ID3D12RootSignature_Release(env->root);
    ID3D12CommandQueue_Release(env->queue);
    harness_release_device(env->device);
}

static D3D12_GPU_VIRTUAL_ADDRESS va(ID3D12Resource *resource)
{
    return ID3D12Resource_GetGPUVirtualAddress(resource);
}

/* A list with the pipeline bound and the list's own views: UAV own, SRV word 0 (0), CBV slot 0 (0). */
static struct harness_list begin(struct env *env, ID3D12Resource *own)
{
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, env->root);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, env->pipeline);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 0, va(own));
    ID3D12GraphicsCommandList2_SetComputeRootShaderResourceView(list.list, 1, va(env->sources));
    ID3D12GraphicsCommandList2_SetComputeRootConstantBufferView(list.list, 2, va(env->constants));
    return list;
}

static void check_words(const UINT *got, const UINT *expected, unsigned count, const char *what)
{
    for (unsigned i = 0; i < count; i++)
        CHECK_MSG(got[i] == expected[i], "%s: word %u is %u, expected %u", what, i, got[i], expected[i]);
}

/* Root UAV and constant per command: each command writes its own destination. */
static void test_uav_per_command(struct env *env)
{
    struct command {
        D3D12_GPU_VIRTUAL_ADDRESS uav;
        UINT value;
        D3D12_DISPATCH_ARGUMENTS dispatch;
    } __attribute__((packed)) commands[5];
    D3D12_INDIRECT_ARGUMENT_DESC arguments[3] = {
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW, .UnorderedAccessView = {0}},
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT, .Constant = {3, 0, 1}},
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH},
    };
    ID3D12CommandSignature *signature = harness_command_signature(env->device, arguments, 3, sizeof(struct command), env->root);
    ID3D12Resource *out = harness_uav_buffer(env->device, 256), *second = harness_uav_buffer(env->device, 256);
    ID3D12Resource *own = harness_uav_buffer(env->device, 256), *released = harness_uav_buffer(env->device, 256);
    ID3D12Resource *buffer, *count_buffer, *counted = harness_uav_buffer(env->device, 256);
    D3D12_RESOURCE_BARRIER barrier = {.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV};
    UINT got[64], expected[64], two = 2;
    struct harness_list list;
    size_t warnings;

    _Static_assert(sizeof(struct command) == 24, "D3D12's arguments without padding");
    /* group g of a command of value v writes v * 10000 + 0 (CBV slot 0) + 100 * g (SRV word g) */
    commands[0] = (struct command){va(out), 1, {2, 1, 1}};
    commands[1] = (struct command){va(out) + 36, 2, {2, 1, 1}}; /* 4-byte aligned, not 16 */
    commands[2] = (struct command){0, 3, {1, 1, 1}};            /* address 0: dropped */
    commands[3] = (struct command){va(released), 4, {1, 1, 1}}; /* a released buffer: dropped */
    commands[4] = (struct command){va(second) + 8, 5, {3, 1, 1}};
    buffer = harness_upload_buffer(env->device, commands, sizeof(commands));
    count_buffer = harness_upload_buffer(env->device, &two, sizeof(two));
    ID3D12Resource_Release(released);

    list = begin(env, own);
    warnings = harness_warning_count();
    ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, signature, 5, buffer, 0, NULL, 0);
    CHECK_DEBUG_WARNINGS(warnings, 0, "");
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    /* the list's own UAV again, with its own constant */
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list.list, 3, 7, 0);
    ID3D12GraphicsCommandList2_Dispatch(list.list, 2, 1, 1);
    /* the same signature again in the list: the variant bound once more */
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, signature, 2, buffer, 0, count_buffer, 0);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);

    memset(expected, 0, sizeof(expected));
    expected[0] = 10000, expected[1] = 10100, expected[9] = 20000, expected[10] = 20100;
    harness_read_back(env->device, env->queue, out, got, sizeof(got));
    check_words(got, expected, 64, "commands 0 and 1");
    memset(expected, 0, sizeof(expected));
    expected[2] = 50000, expected[3] = 50100, expected[4] = 50200;
    harness_read_back(env->device, env->queue, second, got, sizeof(got));
    check_words(got, expected, 64, "command 4 (after the dropped ones)");
    memset(expected, 0, sizeof(expected));
    expected[0] = 70000, expected[1] = 70100;
    harness_read_back(env->device, env->queue, own, got, sizeof(got));
    check_words(got, expected, 64, "the Dispatch after ExecuteIndirect (the list's own UAV)");

    /* the list's own UAV an address of a released buffer: the commands set it, so the list's is
     * neither pushed nor checked (a Dispatch would refuse it) */
    {
        ID3D12Resource *gone = harness_uav_buffer(env->device, 256), *fresh = harness_uav_buffer(env->device, 256);
        struct command one = {va(fresh) + 12, 6, {1, 1, 1}};
        ID3D12Resource *one_buffer = harness_upload_buffer(env->device, &one, sizeof(one));
        list = begin(env, gone);
        ID3D12Resource_Release(gone);
        ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, signature, 1, one_buffer, 0, NULL, 0);
        harness_execute_and_wait(env->device, env->queue, &list);
        harness_release_list(&list);
        memset(expected, 0, sizeof(expected));
        expected[3] = 60000;
        harness_read_back(env->device, env->queue, fresh, got, sizeof(got));
        check_words(got, expected, 64, "the list's own UAV released");
        ID3D12Resource_Release(one_buffer);
        ID3D12Resource_Release(fresh);
    }

    /* a count of 2 below MaxCommandCount 5, in a list that never sets the root UAV: no warning */
    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, env->root);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, env->pipeline);
    ID3D12GraphicsCommandList2_SetComputeRootShaderResourceView(list.list, 1, va(env->sources));
    ID3D12GraphicsCommandList2_SetComputeRootConstantBufferView(list.list, 2, va(env->constants));
    commands[0].uav = va(counted);
    commands[1].uav = va(counted) + 64;
    commands[2].uav = va(counted) + 128; /* past the count: not run */
    ID3D12Resource_Release(buffer);
    buffer = harness_upload_buffer(env->device, commands, sizeof(commands));
    warnings = harness_warning_count();
    ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, signature, 5, buffer, 0, count_buffer, 0);
    CHECK_DEBUG_WARNINGS(warnings, 0, "");
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    memset(expected, 0, sizeof(expected));
    expected[0] = 10000, expected[1] = 10100, expected[16] = 20000, expected[17] = 20100;
    harness_read_back(env->device, env->queue, counted, got, sizeof(got));
    check_words(got, expected, 64, "count 2");

    ID3D12Resource_Release(count_buffer);
    ID3D12Resource_Release(buffer);
    ID3D12Resource_Release(counted);
    ID3D12Resource_Release(own);
    ID3D12Resource_Release(second);
    ID3D12Resource_Release(out);
    ID3D12CommandSignature_Release(signature);
}

/* Root SRV and CBV per command, the UAV the list's own; then all three views per command. */
static void test_srv_and_cbv_per_command(struct env *env)
{
    struct read_command {
        D3D12_GPU_VIRTUAL_ADDRESS srv, cbv;
        UINT value;
        D3D12_DISPATCH_ARGUMENTS dispatch;
    } __attribute__((packed)) reads[3];
    struct all_command {
        D3D12_GPU_VIRTUAL_ADDRESS cbv;
        UINT value;
        D3D12_GPU_VIRTUAL_ADDRESS uav, srv;
        D3D12_DISPATCH_ARGUMENTS dispatch;
    } __attribute__((packed)) all[2];
    D3D12_INDIRECT_ARGUMENT_DESC read_arguments[4] = {
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW, .ShaderResourceView = {1}},
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW, .ConstantBufferView = {2}},
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT, .Constant = {3, 0, 1}},
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH},
    };
    D3D12_INDIRECT_ARGUMENT_DESC all_arguments[5] = {
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW, .ConstantBufferView = {2}},
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT, .Constant = {3, 0, 1}},
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW, .UnorderedAccessView = {0}},
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW, .ShaderResourceView = {1}},
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH},
    };
    ID3D12CommandSignature *read_signature = harness_command_signature(env->device, read_arguments, 4, sizeof(struct read_command), env->root);
    ID3D12CommandSignature *all_signature = harness_command_signature(env->device, all_arguments, 5, sizeof(struct all_command), env->root);
    ID3D12Resource *own = harness_uav_buffer(env->device, 256), *out = harness_uav_buffer(env->device, 256);
    ID3D12Resource *read_buffer, *all_buffer;
    D3D12_RESOURCE_BARRIER barrier = {.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV};
    UINT got[64], expected[64];
    struct harness_list list;

    _Static_assert(sizeof(struct read_command) == 32 && sizeof(struct all_command) == 40, "D3D12's arguments without padding");
    /* each command writes into the list's UAV at word group.x: value * 10000 + slot's 10 * k + the SRV's word */
    reads[0] = (struct read_command){va(env->sources) + 4 * 4, va(env->constants) + 256 * 1, 1, {2, 1, 1}}; /* SRV from word 4 */
    reads[1] = (struct read_command){va(env->sources) + 8 * 4, va(env->constants) + 256 * 3, 2, {1, 1, 1}}; /* word 8 */
    reads[2] = (struct read_command){va(env->sources) + 3 * 4, va(env->constants) + 256 * 2, 3, {1, 1, 1}}; /* word 3 */
    read_buffer = harness_upload_buffer(env->device, reads, sizeof(reads));
    all[0] = (struct all_command){va(env->constants) + 256 * 2, 4, va(out) + 4 * 10, va(env->sources) + 4 * 20, {2, 1, 1}};
    all[1] = (struct all_command){va(env->constants) + 256 * 3, 5, va(out) + 4 * 30, va(env->sources) + 4 * 1, {1, 1, 1}};
    all_buffer = harness_upload_buffer(env->device, all, sizeof(all));

    list = begin(env, own);
    /* one command at a time, so that each leaves its own result in the list's word 0 and 1 */
    for (unsigned i = 0; i < 3; i++) {
        ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, read_signature, 1, read_buffer, i * sizeof(struct read_command), NULL, 0);
        ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
        /* copy the result word 0 out of the way: a plain Dispatch with the list's own views writes word 2 + i */
        if (i == 0) {
            ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list.list, 3, 9, 0);
            ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1); /* 90000 + slot 0 + word 0 into word 0 */
            ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
        }
    }
    ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, all_signature, 2, all_buffer, 0, NULL, 0);
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);

    /* the list's UAV: command 0 wrote words 0 and 1 (then the Dispatch word 0), command 1 and 2 word 0 in turn */
    memset(expected, 0, sizeof(expected));
    expected[0] = 30000 + 20 + 300;  /* the last: command 2 */
    expected[1] = 10000 + 10 + 500;  /* command 0, group 1: SRV word 4 + 1 */
    harness_read_back(env->device, env->queue, own, got, sizeof(got));
    check_words(got, expected, 64, "SRV and CBV per command");
    memset(expected, 0, sizeof(expected));
    expected[10] = 40000 + 20 + 2000, expected[11] = 40000 + 20 + 2100, expected[30] = 50000 + 30 + 100;
    harness_read_back(env->device, env->queue, out, got, sizeof(got));
    check_words(got, expected, 64, "all three views per command");

    /* the plain Dispatch between them read the list's own SRV and CBV: one list alone for it */
    {
        ID3D12Resource *check = harness_uav_buffer(env->device, 256);
        list = begin(env, check);
        ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, read_signature, 1, read_buffer, sizeof(struct read_command), NULL, 0);
        ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
        ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list.list, 3, 9, 0);
        ID3D12GraphicsCommandList2_Dispatch(list.list, 2, 1, 1);
        harness_execute_and_wait(env->device, env->queue, &list);
        harness_release_list(&list);
        memset(expected, 0, sizeof(expected));
        expected[0] = 90000, expected[1] = 90100; /* slot 0 (0) and SRV words 0 and 1: the list's own views */
        harness_read_back(env->device, env->queue, check, got, sizeof(got));
        check_words(got, expected, 64, "the Dispatch after ExecuteIndirect (the list's own SRV and CBV)");
        ID3D12Resource_Release(check);
    }

    ID3D12Resource_Release(all_buffer);
    ID3D12Resource_Release(read_buffer);
    ID3D12Resource_Release(out);
    ID3D12Resource_Release(own);
    ID3D12CommandSignature_Release(all_signature);
    ID3D12CommandSignature_Release(read_signature);
}

/* 62 root constants fill the device's push constants: no room for the UAV's entry. */
static void test_no_push_room(struct env *env)
{
    struct {
        D3D12_GPU_VIRTUAL_ADDRESS uav;
        D3D12_DISPATCH_ARGUMENTS dispatch;
    } __attribute__((packed)) command = {0, {1, 1, 1}};
    D3D12_INDIRECT_ARGUMENT_DESC arguments[2] = {
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW, .UnorderedAccessView = {0}},
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH},
    };
    static const char full_source[] =
        "RWByteAddressBuffer u : register(u0);\n"
        "cbuffer c : register(b0) { uint value; };\n"
        "[numthreads(1, 1, 1)] void main() { u.Store(0, value); }\n";
    D3D12_ROOT_PARAMETER1 parameters[2];
    ID3D12RootSignature *root;
    ID3D12PipelineState *pipeline;
    ID3D12CommandSignature *signature;
    ID3D12Resource *buffer = harness_upload_buffer(env->device, &command, sizeof(command));
    struct harness_list list;
    ID3D10Blob *cs;

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[1].Constants.Num32BitValues = 62;
    root = harness_root_signature(env->device, parameters, 2, 0);
    cs = harness_compile(full_source, 0);
    pipeline = harness_compute_pipeline(env->device, root, cs);
    ID3D10Blob_Release(cs);
    signature = harness_command_signature(env->device, arguments, 2, sizeof(command), root);

    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, root);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, pipeline);
    {
        LOG_MARK();
        ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, signature, 1, buffer, 0, NULL, 0);
        CHECK_LOG("ExecuteIndirect", "changes state (UNORDERED_ACCESS_VIEW)", "no room");
    }
    {
        LOG_MARK();
        CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), E_NOTIMPL);
        CHECK_LOG("Close");
    }
    harness_release_list(&list);
    ID3D12CommandSignature_Release(signature);
    ID3D12PipelineState_Release(pipeline);
    ID3D12RootSignature_Release(root);
    ID3D12Resource_Release(buffer);
}

/* Load4 and Store4 (D3DCompile's uvec4 view of a raw buffer, which the variant reads from the
 * same entry) at addresses 4 bytes past a 16-byte boundary and 12 past one. */
static void test_vector_accesses(struct env *env)
{
    static const char vector_source[] =
        "RWByteAddressBuffer u : register(u0);\n"
        "ByteAddressBuffer t : register(t0);\n"
        "[numthreads(1, 1, 1)] void main() { u.Store4(0, t.Load4(0) + 1); u.Store(16, t.Load(16)); }\n";
    struct command {
        D3D12_GPU_VIRTUAL_ADDRESS srv, uav;
        D3D12_DISPATCH_ARGUMENTS dispatch;
    } __attribute__((packed)) command;
    D3D12_INDIRECT_ARGUMENT_DESC arguments[3] = {
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW, .ShaderResourceView = {1}},
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW, .UnorderedAccessView = {0}},
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH},
    };
    ID3D12CommandSignature *signature = harness_command_signature(env->device, arguments, 3, sizeof(struct command), env->root);
    ID3D12Resource *out = harness_uav_buffer(env->device, 256), *own = harness_uav_buffer(env->device, 256), *buffer;
    ID3D10Blob *cs = harness_compile(vector_source, 0);
    ID3D12PipelineState *pipeline = harness_compute_pipeline(env->device, env->root, cs);
    struct harness_list list;
    UINT got[64], expected[64];

    command = (struct command){va(env->sources) + 4 * 5, va(out) + 4 * 3, {1, 1, 1}};
    buffer = harness_upload_buffer(env->device, &command, sizeof(command));
    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, env->root);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, pipeline);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 0, va(own));
    ID3D12GraphicsCommandList2_SetComputeRootShaderResourceView(list.list, 1, va(env->sources));
    ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, signature, 1, buffer, 0, NULL, 0);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    memset(expected, 0, sizeof(expected));
    /* SRV words 5 to 8 (+ 1) into UAV words 3 to 6, SRV word 9 into UAV word 7 */
    expected[3] = 501, expected[4] = 601, expected[5] = 701, expected[6] = 801, expected[7] = 900;
    harness_read_back(env->device, env->queue, out, got, sizeof(got));
    check_words(got, expected, 64, "Load4 and Store4 off 16-byte boundaries");

    ID3D12Resource_Release(buffer);
    ID3D12PipelineState_Release(pipeline);
    ID3D10Blob_Release(cs);
    ID3D12Resource_Release(own);
    ID3D12Resource_Release(out);
    ID3D12CommandSignature_Release(signature);
}

/* ExecuteIndirect of root views in a bundle, replayed by the list that executes it; then the
 * list's own Dispatch with its own UAV. */
static void test_bundle(struct env *env)
{
    struct command {
        D3D12_GPU_VIRTUAL_ADDRESS uav;
        UINT value;
        D3D12_DISPATCH_ARGUMENTS dispatch;
    } __attribute__((packed)) commands[2];
    D3D12_INDIRECT_ARGUMENT_DESC arguments[3] = {
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW, .UnorderedAccessView = {0}},
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT, .Constant = {3, 0, 1}},
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH},
    };
    ID3D12CommandSignature *signature = harness_command_signature(env->device, arguments, 3, sizeof(struct command), env->root);
    ID3D12Resource *out = harness_uav_buffer(env->device, 256), *own = harness_uav_buffer(env->device, 256), *buffer;
    D3D12_RESOURCE_BARRIER barrier = {.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV};
    ID3D12CommandAllocator *allocator = NULL;
    ID3D12GraphicsCommandList *bundle = NULL;
    struct harness_list list;
    UINT got[64], expected[64];

    commands[0] = (struct command){va(out), 1, {1, 1, 1}};
    commands[1] = (struct command){va(out) + 20, 2, {2, 1, 1}};
    buffer = harness_upload_buffer(env->device, commands, sizeof(commands));
    CHECK_HR(ID3D12Device_CreateCommandAllocator(env->device, D3D12_COMMAND_LIST_TYPE_BUNDLE, &IID_ID3D12CommandAllocator,
            (void **)&allocator), S_OK);
    CHECK_HR(ID3D12Device_CreateCommandList(env->device, 0, D3D12_COMMAND_LIST_TYPE_BUNDLE, allocator, env->pipeline,
            &IID_ID3D12GraphicsCommandList, (void **)&bundle), S_OK);
    ID3D12GraphicsCommandList_SetComputeRootSignature(bundle, env->root);
    ID3D12GraphicsCommandList_ExecuteIndirect(bundle, signature, 2, buffer, 0, NULL, 0);
    CHECK_HR(ID3D12GraphicsCommandList_Close(bundle), S_OK);

    list = begin(env, own);
    ID3D12GraphicsCommandList2_ExecuteBundle(list.list, bundle);
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, env->root);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 0, va(own));
    ID3D12GraphicsCommandList2_SetComputeRootShaderResourceView(list.list, 1, va(env->sources));
    ID3D12GraphicsCommandList2_SetComputeRootConstantBufferView(list.list, 2, va(env->constants));
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list.list, 3, 3, 0);
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);

    memset(expected, 0, sizeof(expected));
    expected[0] = 10000, expected[5] = 20000, expected[6] = 20100;
    harness_read_back(env->device, env->queue, out, got, sizeof(got));
    check_words(got, expected, 64, "ExecuteIndirect in a bundle");
    memset(expected, 0, sizeof(expected));
    expected[0] = 30000;
    harness_read_back(env->device, env->queue, own, got, sizeof(got));
    check_words(got, expected, 64, "the Dispatch after the bundle");

    ID3D12GraphicsCommandList_Release(bundle);
    ID3D12CommandAllocator_Release(allocator);
    ID3D12Resource_Release(buffer);
    ID3D12Resource_Release(own);
    ID3D12Resource_Release(out);
    ID3D12CommandSignature_Release(signature);
}

/* Lists recording on several threads: the first ExecuteIndirects of a new pipeline, at once, make
 * and share its variant under its lock. */
struct recording {
    ID3D12GraphicsCommandList2 *list;
    ID3D12CommandSignature *signature;
    ID3D12Resource *buffer;
    UINT64 offset;
    HRESULT hr;
};

static void *record(void *context)
{
    struct recording *r = context;
    ID3D12GraphicsCommandList2_ExecuteIndirect(r->list, r->signature, 1, r->buffer, r->offset, NULL, 0);
    r->hr = ID3D12GraphicsCommandList2_Close(r->list);
    return NULL;
}

static void test_threads(struct env *env)
{
    enum { THREADS = 4 };
    static const char thread_source[] =
        "RWByteAddressBuffer u : register(u0);\n"
        "cbuffer c : register(b1) { uint value; };\n"
        "[numthreads(1, 1, 1)] void main() { u.Store(0, value * 3); }\n";
    struct command {
        D3D12_GPU_VIRTUAL_ADDRESS uav;
        UINT value;
        D3D12_DISPATCH_ARGUMENTS dispatch;
    } __attribute__((packed)) commands[THREADS];
    D3D12_INDIRECT_ARGUMENT_DESC arguments[3] = {
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW, .UnorderedAccessView = {0}},
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT, .Constant = {3, 0, 1}},
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH},
    };
    ID3D12CommandSignature *signature = harness_command_signature(env->device, arguments, 3, sizeof(struct command), env->root);
    ID3D12Resource *out = harness_uav_buffer(env->device, 256), *own = harness_uav_buffer(env->device, 256), *buffer;
    ID3D10Blob *cs = harness_compile(thread_source, 0);
    ID3D12PipelineState *pipeline = harness_compute_pipeline(env->device, env->root, cs);
    struct harness_list lists[THREADS];
    struct recording recordings[THREADS];
    pthread_t threads[THREADS];
    UINT got[64], expected[64];

    memset(expected, 0, sizeof(expected));
    for (unsigned i = 0; i < THREADS; i++) {
        commands[i] = (struct command){va(out) + 4 * i, i + 1, {1, 1, 1}};
        expected[i] = 3 * (i + 1);
    }
    buffer = harness_upload_buffer(env->device, commands, sizeof(commands));
    for (unsigned i = 0; i < THREADS; i++) {
        lists[i] = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        ID3D12GraphicsCommandList2_SetComputeRootSignature(lists[i].list, env->root);
        ID3D12GraphicsCommandList2_SetPipelineState(lists[i].list, pipeline);
        ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(lists[i].list, 0, va(own));
        recordings[i] = (struct recording){lists[i].list, signature, buffer, i * sizeof(struct command), E_FAIL};
    }
    for (unsigned i = 0; i < THREADS; i++)
        CHECK(!pthread_create(&threads[i], NULL, record, &recordings[i]));
    for (unsigned i = 0; i < THREADS; i++)
        pthread_join(threads[i], NULL);
    for (unsigned i = 0; i < THREADS; i++) {
        ID3D12CommandList *list = (ID3D12CommandList *)lists[i].list;
        CHECK_MSG(recordings[i].hr == S_OK, "thread %u: Close returned 0x%08x", i, (unsigned)recordings[i].hr);
        ID3D12CommandQueue_ExecuteCommandLists(env->queue, 1, &list);
    }
    /* the read-back waits for the queue */
    harness_read_back(env->device, env->queue, out, got, sizeof(got));
    check_words(got, expected, 64, "lists recorded on several threads");
    for (unsigned i = 0; i < THREADS; i++)
        harness_release_list(&lists[i]);

    ID3D12PipelineState_Release(pipeline);
    ID3D10Blob_Release(cs);
    ID3D12Resource_Release(buffer);
    ID3D12Resource_Release(own);
    ID3D12Resource_Release(out);
    ID3D12CommandSignature_Release(signature);
}

/* A pipeline made from a cached blob (its root views found in the blob's final SPIR-V): the
 * variant works as for the pipeline it came from. */
static void test_cached_blob(struct env *env)
{
    static const char cached_source[] =
        "RWByteAddressBuffer u : register(u0);\n"
        "cbuffer c : register(b1) { uint value; };\n"
        "[numthreads(1, 1, 1)] void main(uint3 group : SV_GroupID) { u.Store(group.x * 4, value + 7); }\n";
    struct command {
        D3D12_GPU_VIRTUAL_ADDRESS uav;
        UINT value;
        D3D12_DISPATCH_ARGUMENTS dispatch;
    } __attribute__((packed)) commands[2];
    D3D12_INDIRECT_ARGUMENT_DESC arguments[3] = {
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW, .UnorderedAccessView = {0}},
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT, .Constant = {3, 0, 1}},
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH},
    };
    ID3D12CommandSignature *signature = harness_command_signature(env->device, arguments, 3, sizeof(struct command), env->root);
    ID3D12Resource *out = harness_uav_buffer(env->device, 256), *own = harness_uav_buffer(env->device, 256), *buffer;
    D3D12_COMPUTE_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *first, *cached = NULL;
    ID3D10Blob *cs = harness_compile(cached_source, 0), *blob = NULL;
    struct harness_list list;
    UINT got[64], expected[64];
    void *bytes;
    size_t size;

    first = harness_compute_pipeline(env->device, env->root, cs);
    CHECK_HR(ID3D12PipelineState_GetCachedBlob(first, &blob), S_OK);
    size = ID3D10Blob_GetBufferSize(blob);
    bytes = malloc(size);
    memcpy(bytes, ID3D10Blob_GetBufferPointer(blob), size);
    ID3D10Blob_Release(blob);
    /* the first one gone, so the description's pipeline is made from the blob, not shared */
    ID3D12PipelineState_Release(first);
    memset(&desc, 0, sizeof(desc));
    desc.pRootSignature = env->root;
    desc.CS = (D3D12_SHADER_BYTECODE){ID3D10Blob_GetBufferPointer(cs), ID3D10Blob_GetBufferSize(cs)};
    desc.CachedPSO = (D3D12_CACHED_PIPELINE_STATE){bytes, size};
    CHECK_HR(ID3D12Device_CreateComputePipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&cached), S_OK);

    commands[0] = (struct command){va(out) + 4, 100, {2, 1, 1}};
    commands[1] = (struct command){va(out) + 40, 200, {1, 1, 1}};
    buffer = harness_upload_buffer(env->device, commands, sizeof(commands));
    list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, env->root);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, cached);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 0, va(own));
    ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, signature, 2, buffer, 0, NULL, 0);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_release_list(&list);
    memset(expected, 0, sizeof(expected));
    expected[1] = 107, expected[2] = 107, expected[10] = 207;
    harness_read_back(env->device, env->queue, out, got, sizeof(got));
    check_words(got, expected, 64, "a pipeline from a cached blob");

    ID3D12Resource_Release(buffer);
    ID3D12PipelineState_Release(cached);
    free(bytes);
    ID3D10Blob_Release(cs);
    ID3D12Resource_Release(own);
    ID3D12Resource_Release(out);
    ID3D12CommandSignature_Release(signature);
}

/* The pipeline variant a signature needs is made ahead of ExecuteIndirect, so recording creates
 * no VkPipeline (D3D12XSGetPipelineStatistics): for a pipeline made before the signature (made
 * with the signature) and one made after it (made with the pipeline). Both then run right. */
static void test_no_compile_while_recording(struct env *env)
{
    struct command {
        D3D12_GPU_VIRTUAL_ADDRESS uav;
        UINT value;
        D3D12_DISPATCH_ARGUMENTS dispatch;
    } __attribute__((packed)) command;
    D3D12_INDIRECT_ARGUMENT_DESC arguments[3] = {
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW, .UnorderedAccessView = {0}},
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT, .Constant = {3, 0, 1}},
        {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH},
    };
    ID3D12RootSignature *root;
    ID3D12PipelineState *pipelines[2];
    ID3D12CommandSignature *signature;
    ID3D10Blob *cs;
    char text[sizeof(source_extra) + 32];

    /* a root signature of its own: no signature made with it yet */
    root = make_root_signature(env->device);
    for (unsigned p = 0; p < 2; p++) {
        if (p == 1)
            signature = harness_command_signature(env->device, arguments, 3, sizeof(command), root);
        /* shaders of their own (+ p), so that no live pipeline is found instead */
        snprintf(text, sizeof(text), "#define EXTRA %u\n%s", p + 1, source_extra);
        cs = harness_compile(text, 0);
        pipelines[p] = harness_compute_pipeline(env->device, root, cs);
        ID3D10Blob_Release(cs);
    }
    for (unsigned p = 0; p < 2; p++) {
        ID3D12Resource *out = harness_uav_buffer(env->device, 256), *own = harness_uav_buffer(env->device, 256), *buffer;
        D3D12XS_PIPELINE_STATISTICS before, after;
        struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        UINT got[64], expected[64];

        command = (struct command){va(out), 3 + p, {1, 1, 1}};
        buffer = harness_upload_buffer(env->device, &command, sizeof(command));
        ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, root);
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, pipelines[p]);
        ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 0, va(own));
        ID3D12GraphicsCommandList2_SetComputeRootShaderResourceView(list.list, 1, va(env->sources));
        ID3D12GraphicsCommandList2_SetComputeRootConstantBufferView(list.list, 2, va(env->constants));
        memset(&before, 0, sizeof(before));
        memset(&after, 0, sizeof(after));
        CHECK_HR(D3D12XSGetPipelineStatistics(env->device, &before), S_OK);
        ID3D12GraphicsCommandList2_ExecuteIndirect(list.list, signature, 1, buffer, 0, NULL, 0);
        CHECK_HR(D3D12XSGetPipelineStatistics(env->device, &after), S_OK);
        CHECK_MSG(after.VkPipelinesCreated == before.VkPipelinesCreated, "the pipeline made %s the signature: recording created %llu "
                "VkPipelines", p ? "after" : "before", (unsigned long long)(after.VkPipelinesCreated - before.VkPipelinesCreated));
        harness_execute_and_wait(env->device, env->queue, &list);
        harness_release_list(&list);
        memset(expected, 0, sizeof(expected));
        expected[0] = (3 + p) * 10000 + p + 1;
        harness_read_back(env->device, env->queue, out, got, sizeof(got));
        check_words(got, expected, 64, p ? "the pipeline made after the signature" : "the pipeline made before the signature");
        ID3D12Resource_Release(buffer);
        ID3D12Resource_Release(own);
        ID3D12Resource_Release(out);
    }
    ID3D12PipelineState_Release(pipelines[1]);
    ID3D12PipelineState_Release(pipelines[0]);
    ID3D12CommandSignature_Release(signature);
    ID3D12RootSignature_Release(root);
}

static D3D12_EXECUTE_INDIRECT_TIER execute_indirect_tier(struct env *env)
{
    D3D12_FEATURE_DATA_D3D12_OPTIONS21 options;
    memset(&options, 0xcd, sizeof(options));
    CHECK_HR(ID3D12Device_CheckFeatureSupport(env->device, D3D12_FEATURE_D3D12_OPTIONS21, &options, sizeof(options)), S_OK);
    return options.ExecuteIndirectTier;
}

int main(int argc, char **argv)
{
    static const char *const without[] = {"D3D12XS_NO_GENERATED_COMMANDS=1", NULL};
    struct env env;

    harness_init();
    setup(&env);
    /* Every case runs on both paths: generated commands here, and in the child run with
     * D3D12XS_NO_GENERATED_COMMANDS=1 (as on a device without the extension) the own path's
     * images; the tier is 1.1 on both (every argument type runs: lavapipe has shaderInt64 and
     * shaderDrawParameters, which the own path's vertex buffer views need). */
    bool without_generated = argc > 1 && !strcmp(argv[1], "without");
    D3D12_EXECUTE_INDIRECT_TIER tier = D3D12_EXECUTE_INDIRECT_TIER_1_1;

    CHECK_MSG(execute_indirect_tier(&env) == tier, "ExecuteIndirectTier is %d, expected %d", (int)execute_indirect_tier(&env), (int)tier);
    test_uav_per_command(&env);
    test_srv_and_cbv_per_command(&env);
    test_vector_accesses(&env);
    test_bundle(&env);
    test_threads(&env);
    test_cached_blob(&env);
    test_no_push_room(&env);
    test_no_compile_while_recording(&env);
    if (!without_generated)
        CHECK_MSG(harness_run_self("without", without), "the D3D12XS_NO_GENERATED_COMMANDS=1 case failed (its lines above say why)");
    teardown(&env);
    return harness_finish();
}
