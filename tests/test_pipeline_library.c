/* ID3D12PipelineLibrary1 (docs/graphics.md, "Cached pipelines"): an empty library from an empty
 * blob; StorePipeline (E_INVALIDARG for a name already stored); LoadComputePipeline,
 * LoadGraphicsPipeline and LoadPipeline (E_INVALIDARG when the name is absent, names the other
 * kind of pipeline, or the description differs) hand out the stored pipeline, which computes
 * what it did; GetSerializedSize and Serialize; a library created from the serialized bytes
 * makes its pipelines from their blobs when loaded (no live pipeline left), finds a graphics
 * entry stored from a description through an equal stream (LoadPipeline), and serializes to
 * the same bytes; serialized libraries of another adapter or driver, damaged or cut short, get
 * Windows' answers; a NULL ppPipelineLibrary only checks the blob (S_FALSE). Threads storing
 * and loading at once each get their own pipelines. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <d3d12_xs.h>

#include "harness.h"
#include "pipelines/pipeline_blob.h"

#define THREADS 64
#define WORKERS 4
#define NAMES_PER_WORKER 8

static const char compute_source[] =
    "cbuffer Root : register(b0) { uint scale; };\n"
    "RWByteAddressBuffer output : register(u0);\n"
    "[numthreads(64, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, id.x * scale + 1); }\n";
static const char other_compute_source[] =
    "cbuffer Root : register(b0) { uint scale; };\n"
    "RWByteAddressBuffer output : register(u0);\n"
    "[numthreads(64, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, id.x * scale + 2); }\n";
static const char graphics_source[] =
    "cbuffer Root : register(b0) { float4 color; };\n"
    "float4 vs(float2 pos : POSITION) : SV_Position { return float4(pos, 0.5, 1); }\n"
    "float4 ps() : SV_Target { return color; }\n";

static const D3D12_INPUT_ELEMENT_DESC vertex_layout[] = {
    {"POSITION", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
};

struct env {
    ID3D12Device *device;
    ID3D12Device1 *device1;
    ID3D12CommandQueue *queue;
    ID3D12RootSignature *signature;
    ID3D10Blob *code, *other_code, *vs, *ps;
};

static D3D12XS_PIPELINE_STATISTICS statistics_of(ID3D12Device *device)
{
    D3D12XS_PIPELINE_STATISTICS statistics;
    memset(&statistics, 0, sizeof(statistics));
    CHECK_HR(D3D12XSGetPipelineStatistics(device, &statistics), S_OK);
    return statistics;
}

static void compute_desc(const struct env *env, D3D12_COMPUTE_PIPELINE_STATE_DESC *desc, ID3D10Blob *code)
{
    memset(desc, 0, sizeof(*desc));
    desc->pRootSignature = env->signature;
    desc->CS.pShaderBytecode = ID3D10Blob_GetBufferPointer(code);
    desc->CS.BytecodeLength = ID3D10Blob_GetBufferSize(code);
}

static void graphics_desc(const struct env *env, D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc)
{
    harness_graphics_desc(desc, env->signature, env->vs, env->ps);
    desc->InputLayout.pInputElementDescs = vertex_layout;
    desc->InputLayout.NumElements = 1;
    desc->RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    desc->DepthStencilState.DepthEnable = FALSE;
}

static void check_dispatch(const struct env *env, ID3D12PipelineState *pipeline, uint32_t scale, const char *what)
{
    ID3D12Resource *output = harness_uav_buffer(env->device, THREADS * 4);
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    uint32_t data[THREADS];
    unsigned wrong = 0;

    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, env->signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, pipeline);
    ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list.list, 0, scale, 0);
    ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list.list, 1, ID3D12Resource_GetGPUVirtualAddress(output));
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_read_back(env->device, env->queue, output, data, sizeof(data));
    for (uint32_t i = 0; i < THREADS; i++)
        wrong += data[i] != i * scale + 1;
    CHECK_MSG(!wrong, "%s: %u of %u words wrong (word 1 is %u, not %u)", what, wrong, THREADS, data[1], scale + 1);
    harness_release_list(&list);
    ID3D12Resource_Release(output);
}

/* Pipeline state streams: a subobject per part. */
struct stream_builder {
    _Alignas(void *) unsigned char bytes[1024];
    size_t size;
};

static void add_subobject(struct stream_builder *b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE type, const void *inner, size_t size, size_t align)
{
    size_t offset = (b->size + sizeof(void *) - 1) & ~(sizeof(void *) - 1), at;
    memcpy(b->bytes + offset, &type, sizeof(type));
    at = (offset + sizeof(type) + align - 1) & ~(align - 1);
    memcpy(b->bytes + at, inner, size);
    b->size = (at + size + sizeof(void *) - 1) & ~(sizeof(void *) - 1);
}
#define ADD(b, type, value) add_subobject(b, type, &(value), sizeof(value), _Alignof(__typeof__(value)))

/* The graphics description as a stream (D3D12's defaults for the parts it leaves out). */
static void graphics_stream(const D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc, struct stream_builder *b)
{
    D3D12_RT_FORMAT_ARRAY formats = {{DXGI_FORMAT_R8G8B8A8_UNORM}, 1};
    memset(b, 0, sizeof(*b));
    ADD(b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_ROOT_SIGNATURE, desc->pRootSignature);
    ADD(b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VS, desc->VS);
    ADD(b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PS, desc->PS);
    ADD(b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_BLEND, desc->BlendState);
    ADD(b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RASTERIZER, desc->RasterizerState);
    ADD(b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL, desc->DepthStencilState);
    ADD(b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_INPUT_LAYOUT, desc->InputLayout);
    ADD(b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PRIMITIVE_TOPOLOGY, desc->PrimitiveTopologyType);
    ADD(b, D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RENDER_TARGET_FORMATS, formats);
}

static ID3D12PipelineLibrary1 *create_library(const struct env *env, const void *blob, size_t size, HRESULT expected)
{
    ID3D12PipelineLibrary1 *library = (ID3D12PipelineLibrary1 *)(uintptr_t)1;
    CHECK_HR(ID3D12Device1_CreatePipelineLibrary(env->device1, blob, size, &IID_ID3D12PipelineLibrary1, (void **)&library), expected);
    CHECK(SUCCEEDED(expected) == (library != NULL));
    return library;
}

/* Serialize's bytes (malloc()ed) and their size. */
static void *serialize(ID3D12PipelineLibrary1 *library, size_t *size)
{
    void *data;
    *size = ID3D12PipelineLibrary1_GetSerializedSize(library);
    CHECK(*size >= D3D12XS_PIPELINE_BLOB_HEADER_SIZE + 4);
    if (!(data = malloc(*size)))
        return NULL;
    CHECK_HR(ID3D12PipelineLibrary1_Serialize(library, data, *size), S_OK);
    return data;
}

static void test_store_and_load(const struct env *env, void **serialized, size_t *serialized_size)
{
    D3D12_COMPUTE_PIPELINE_STATE_DESC compute;
    D3D12_GRAPHICS_PIPELINE_STATE_DESC graphics;
    ID3D12PipelineState *pipeline = NULL, *graphics_pipeline = NULL, *loaded = NULL;
    ID3D12PipelineLibrary *library0 = NULL;
    ID3D12PipelineLibrary1 *library;
    D3D12XS_PIPELINE_STATISTICS before, after;
    size_t empty_size;
    void *empty;
    LOG_MARK();

    /* An empty library, and one from an empty library's bytes; a NULL out-pointer checks only. */
    if (!(library = create_library(env, NULL, 0, S_OK)))
        return;
    CHECK_HR(ID3D12PipelineLibrary1_QueryInterface(library, &IID_ID3D12PipelineLibrary, (void **)&library0), S_OK);
    if (library0)
        ID3D12PipelineLibrary_Release(library0);
    empty = serialize(library, &empty_size);
    CHECK(empty_size == D3D12XS_PIPELINE_BLOB_HEADER_SIZE + 4);
    ID3D12PipelineLibrary1_Release(library);
    CHECK_HR(ID3D12Device1_CreatePipelineLibrary(env->device1, empty, empty_size, &IID_ID3D12PipelineLibrary1, NULL), S_FALSE);
    if (!(library = create_library(env, empty, empty_size, S_OK)))
        return;
    free(empty);

    compute_desc(env, &compute, env->code);
    graphics_desc(env, &graphics);
    CHECK_HR(ID3D12Device_CreateComputePipelineState(env->device, &compute, &IID_ID3D12PipelineState, (void **)&pipeline), S_OK);
    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(env->device, &graphics, &IID_ID3D12PipelineState, (void **)&graphics_pipeline), S_OK);
    if (!pipeline || !graphics_pipeline)
        return;
    CHECK_HR(ID3D12PipelineLibrary1_StorePipeline(library, L"compute", pipeline), S_OK);
    CHECK_HR(ID3D12PipelineLibrary1_StorePipeline(library, L"graphics", graphics_pipeline), S_OK);
    CHECK_NO_LOG();
    CHECK_HR(ID3D12PipelineLibrary1_StorePipeline(library, L"compute", graphics_pipeline), E_INVALIDARG);
    CHECK_LOG("pName \"compute\" is already in the library");
    /* the library keeps what it stored */
    ID3D12PipelineState_Release(pipeline);
    ID3D12PipelineState_Release(graphics_pipeline);

    RELOG_MARK();
    before = statistics_of(env->device);
    CHECK_HR(ID3D12PipelineLibrary1_LoadComputePipeline(library, L"compute", &compute, &IID_ID3D12PipelineState, (void **)&loaded), S_OK);
    after = statistics_of(env->device);
    CHECK(after.LivePipelines == before.LivePipelines && after.VkPipelinesCreated == before.VkPipelinesCreated);
    if (loaded) {
        check_dispatch(env, loaded, 3, "a compute pipeline loaded from the library");
        ID3D12PipelineState_Release(loaded);
    }
    CHECK_HR(ID3D12PipelineLibrary1_LoadGraphicsPipeline(library, L"graphics", &graphics, &IID_ID3D12PipelineState, (void **)&loaded), S_OK);
    if (loaded)
        ID3D12PipelineState_Release(loaded);
    CHECK_NO_LOG();

    /* Absent names, the other kind, other descriptions. */
    CHECK_HR(ID3D12PipelineLibrary1_LoadComputePipeline(library, L"absent", &compute, &IID_ID3D12PipelineState, (void **)&loaded),
            E_INVALIDARG);
    CHECK(!loaded);
    CHECK_LOG("pName \"absent\" is not in the library");
    RELOG_MARK();
    CHECK_HR(ID3D12PipelineLibrary1_LoadGraphicsPipeline(library, L"compute", &graphics, &IID_ID3D12PipelineState, (void **)&loaded),
            E_INVALIDARG);
    CHECK_LOG("pName \"compute\" is a compute pipeline in the library, pDesc a graphics one");
    RELOG_MARK();
    compute_desc(env, &compute, env->other_code);
    CHECK_HR(ID3D12PipelineLibrary1_LoadComputePipeline(library, L"compute", &compute, &IID_ID3D12PipelineState, (void **)&loaded),
            E_INVALIDARG);
    CHECK_LOG("pDesc does not match the description of \"compute\" in the library");
    RELOG_MARK();
    graphics.RTVFormats[0] = DXGI_FORMAT_R16G16B16A16_FLOAT;
    CHECK_HR(ID3D12PipelineLibrary1_LoadGraphicsPipeline(library, L"graphics", &graphics, &IID_ID3D12PipelineState, (void **)&loaded),
            E_INVALIDARG);
    CHECK_LOG("pDesc does not match the description of \"graphics\" in the library");

    /* Serialize refuses a short buffer. */
    RELOG_MARK();
    *serialized = serialize(library, serialized_size);
    if (*serialized) {
        CHECK_HR(ID3D12PipelineLibrary1_Serialize(library, *serialized, *serialized_size - 1), E_INVALIDARG);
        CHECK_LOG("DataSizeInBytes is");
    }
    before = statistics_of(env->device);
    ID3D12PipelineLibrary1_Release(library);
    after = statistics_of(env->device);
    CHECK_MSG(after.LivePipelines == before.LivePipelines - 2, "releasing the library left %llu of its 2 pipelines",
            (unsigned long long)(after.LivePipelines - (before.LivePipelines - 2)));
}

/* A library of the serialized bytes: its pipelines come from their blobs. */
static void test_serialized(const struct env *env, const void *serialized, size_t size)
{
    D3D12_COMPUTE_PIPELINE_STATE_DESC compute;
    D3D12_GRAPHICS_PIPELINE_STATE_DESC graphics;
    ID3D12PipelineState *loaded = NULL, *again = NULL;
    ID3D12PipelineLibrary1 *library;
    D3D12XS_PIPELINE_STATISTICS before, after;
    size_t reserialized_size;
    void *reserialized;
    LOG_MARK();

    if (!(library = create_library(env, serialized, size, S_OK)))
        return;
    compute_desc(env, &compute, env->code);
    graphics_desc(env, &graphics);
    /* a description that differs from an entry's blob */
    compute_desc(env, &compute, env->other_code);
    CHECK_HR(ID3D12PipelineLibrary1_LoadComputePipeline(library, L"compute", &compute, &IID_ID3D12PipelineState, (void **)&loaded),
            E_INVALIDARG);
    CHECK_LOG("pDesc does not match the description of \"compute\" in the library");
    RELOG_MARK();
    compute_desc(env, &compute, env->code);
    before = statistics_of(env->device);
    CHECK_HR(ID3D12PipelineLibrary1_LoadComputePipeline(library, L"compute", &compute, &IID_ID3D12PipelineState, (void **)&loaded), S_OK);
    CHECK_HR(ID3D12PipelineLibrary1_LoadComputePipeline(library, L"compute", &compute, &IID_ID3D12PipelineState, (void **)&again), S_OK);
    after = statistics_of(env->device);
    CHECK_MSG(after.LivePipelines == before.LivePipelines + 1 && after.VkPipelinesCreated > before.VkPipelinesCreated,
            "two loads of a serialized entry: %llu pipelines made (1 expected)",
            (unsigned long long)(after.LivePipelines - before.LivePipelines));
    if (loaded) {
        check_dispatch(env, loaded, 5, "a compute pipeline loaded from a serialized library");
        ID3D12PipelineState_Release(loaded);
    }
    if (again)
        ID3D12PipelineState_Release(again);
    CHECK_HR(ID3D12PipelineLibrary1_LoadGraphicsPipeline(library, L"graphics", &graphics, &IID_ID3D12PipelineState, (void **)&loaded), S_OK);
    if (loaded)
        ID3D12PipelineState_Release(loaded);

    /* LoadPipeline: the compute entry through a stream. */
    {
        struct {
            struct {
                D3D12_PIPELINE_STATE_SUBOBJECT_TYPE type;
                ID3D12RootSignature *value;
            } root;
            struct {
                D3D12_PIPELINE_STATE_SUBOBJECT_TYPE type;
                D3D12_SHADER_BYTECODE value;
            } cs;
        } stream;
        D3D12_PIPELINE_STATE_STREAM_DESC stream_desc = {sizeof(stream), &stream};
        memset(&stream, 0, sizeof(stream));
        stream.root.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_ROOT_SIGNATURE;
        stream.root.value = env->signature;
        stream.cs.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CS;
        stream.cs.value = compute.CS;
        CHECK_HR(ID3D12PipelineLibrary1_LoadPipeline(library, L"compute", &stream_desc, &IID_ID3D12PipelineState, (void **)&loaded), S_OK);
        if (loaded) {
            check_dispatch(env, loaded, 7, "a compute pipeline loaded through a stream");
            ID3D12PipelineState_Release(loaded);
        }
    }
    /* LoadPipeline: the graphics entry (stored from a description) through a stream of the same
     * state, and a stream of other state refused. */
    {
        struct stream_builder b;
        D3D12_PIPELINE_STATE_STREAM_DESC stream_desc;
        graphics_stream(&graphics, &b);
        stream_desc = (D3D12_PIPELINE_STATE_STREAM_DESC){b.size, b.bytes};
        CHECK_HR(ID3D12PipelineLibrary1_LoadPipeline(library, L"graphics", &stream_desc, &IID_ID3D12PipelineState, (void **)&loaded), S_OK);
        if (loaded)
            ID3D12PipelineState_Release(loaded);
        graphics.RasterizerState.CullMode = D3D12_CULL_MODE_BACK;
        graphics_stream(&graphics, &b);
        stream_desc = (D3D12_PIPELINE_STATE_STREAM_DESC){b.size, b.bytes};
        CHECK_HR(ID3D12PipelineLibrary1_LoadPipeline(library, L"graphics", &stream_desc, &IID_ID3D12PipelineState, (void **)&loaded),
                E_INVALIDARG);
        CHECK_LOG("pDesc does not match the description of \"graphics\" in the library");
        RELOG_MARK();
    }
    /* The same entries serialize to the same bytes. */
    reserialized = serialize(library, &reserialized_size);
    CHECK(reserialized && reserialized_size == size && !memcmp(reserialized, serialized, size));
    free(reserialized);
    ID3D12PipelineLibrary1_Release(library);
    CHECK_NO_LOG();
}

static void test_refused_blobs(const struct env *env, const void *serialized, size_t size)
{
    unsigned char *copy = malloc(size);
    LOG_MARK();

    if (!copy)
        return;
    memcpy(copy, serialized, size);
    copy[D3D12XS_PIPELINE_BLOB_DEVICE_ID_OFFSET] ^= 0x33;
    create_library(env, copy, size, D3D12_ERROR_ADAPTER_NOT_FOUND);
    CHECK_LOG("pLibraryBlob was made on another adapter");
    RELOG_MARK();
    CHECK_HR(ID3D12Device1_CreatePipelineLibrary(env->device1, copy, size, &IID_ID3D12PipelineLibrary1, NULL),
            D3D12_ERROR_ADAPTER_NOT_FOUND);
    CHECK_LOG("pLibraryBlob was made on another adapter");
    memcpy(copy, serialized, size);
    copy[D3D12XS_PIPELINE_BLOB_UUID_OFFSET] ^= 0x80;
    RELOG_MARK();
    create_library(env, copy, size, D3D12_ERROR_DRIVER_VERSION_MISMATCH);
    CHECK_LOG("pLibraryBlob was made with another driver version");
    memcpy(copy, serialized, size);
    copy[size / 2] ^= 0x01;
    RELOG_MARK();
    create_library(env, copy, size, E_INVALIDARG);
    CHECK_LOG("pLibraryBlob is damaged");
    RELOG_MARK();
    create_library(env, serialized, size - 3, E_INVALIDARG);
    CHECK_LOG("pLibraryBlob is damaged");
    RELOG_MARK();
    create_library(env, env->code ? ID3D10Blob_GetBufferPointer(env->code) : copy, env->code ? ID3D10Blob_GetBufferSize(env->code) : 4,
            E_INVALIDARG);
    CHECK_LOG("pLibraryBlob is not a d3d12xs pipeline library");
    free(copy);
}

struct worker {
    const struct env *env;
    ID3D12PipelineLibrary1 *library;
    ID3D12PipelineState *pipeline;
    int index;
    unsigned failed;
};

/* Stores the pipeline under names of its own, then loads each back. */
static void *worker_main(void *argument)
{
    struct worker *w = argument;
    D3D12_COMPUTE_PIPELINE_STATE_DESC desc;
    wchar_t name[32];

    compute_desc(w->env, &desc, w->env->code);
    for (int i = 0; i < NAMES_PER_WORKER; i++) {
        swprintf(name, 32, L"worker %d pipeline %d", w->index, i);
        w->failed += FAILED(ID3D12PipelineLibrary1_StorePipeline(w->library, name, w->pipeline));
    }
    for (int i = 0; i < NAMES_PER_WORKER; i++) {
        ID3D12PipelineState *loaded = NULL;
        swprintf(name, 32, L"worker %d pipeline %d", w->index, i);
        if (FAILED(ID3D12PipelineLibrary1_LoadComputePipeline(w->library, name, &desc, &IID_ID3D12PipelineState, (void **)&loaded)) || !loaded)
            w->failed++;
        else
            ID3D12PipelineState_Release(loaded);
    }
    return NULL;
}

static void test_threads(const struct env *env)
{
    struct worker workers[WORKERS];
    pthread_t threads[WORKERS];
    D3D12_COMPUTE_PIPELINE_STATE_DESC desc;
    ID3D12PipelineState *pipeline = NULL;
    ID3D12PipelineLibrary1 *library, *copy;
    size_t size;
    void *data;
    LOG_MARK();

    if (!(library = create_library(env, NULL, 0, S_OK)))
        return;
    compute_desc(env, &desc, env->code);
    CHECK_HR(ID3D12Device_CreateComputePipelineState(env->device, &desc, &IID_ID3D12PipelineState, (void **)&pipeline), S_OK);
    for (int i = 0; i < WORKERS && pipeline; i++) {
        workers[i] = (struct worker){env, library, pipeline, i, 0};
        CHECK(pthread_create(&threads[i], NULL, worker_main, &workers[i]) == 0);
    }
    for (int i = 0; i < WORKERS && pipeline; i++) {
        pthread_join(threads[i], NULL);
        CHECK_MSG(!workers[i].failed, "worker %d: %u calls failed", i, workers[i].failed);
    }
    /* every name made it into the library: a library of its bytes loads each */
    data = serialize(library, &size);
    if (data && (copy = create_library(env, data, size, S_OK))) {
        unsigned missing = 0;
        for (int w = 0; w < WORKERS; w++)
            for (int i = 0; i < NAMES_PER_WORKER; i++) {
                ID3D12PipelineState *loaded = NULL;
                wchar_t name[32];
                swprintf(name, 32, L"worker %d pipeline %d", w, i);
                if (FAILED(ID3D12PipelineLibrary1_LoadComputePipeline(copy, name, &desc, &IID_ID3D12PipelineState, (void **)&loaded)))
                    missing++;
                else
                    ID3D12PipelineState_Release(loaded);
            }
        CHECK_MSG(!missing, "%u of %d names stored by %d threads are missing", missing, WORKERS * NAMES_PER_WORKER, WORKERS);
        ID3D12PipelineLibrary1_Release(copy);
    }
    free(data);
    if (pipeline)
        ID3D12PipelineState_Release(pipeline);
    ID3D12PipelineLibrary1_Release(library);
    CHECK_NO_LOG();
}

int main(void)
{
    struct env env;
    D3D12_ROOT_PARAMETER1 parameters[2];
    void *serialized = NULL;
    size_t serialized_size = 0;

    harness_init();
    memset(&env, 0, sizeof(env));
    env.device = harness_create_device();
    env.queue = harness_create_queue(env.device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    CHECK_HR(ID3D12Device_QueryInterface(env.device, &IID_ID3D12Device1, (void **)&env.device1), S_OK);
    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = 4;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    env.signature = harness_root_signature(env.device, parameters, 2, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT);
    env.code = harness_compile(compute_source, 0);
    env.other_code = harness_compile(other_compute_source, 0);
    env.vs = harness_compile_stage(graphics_source, "vs", "vs_5_0");
    env.ps = harness_compile_stage(graphics_source, "ps", "ps_5_0");
    if (env.device1 && env.signature && env.code && env.other_code && env.vs && env.ps) {
        test_store_and_load(&env, &serialized, &serialized_size);
        CHECK(statistics_of(env.device).LivePipelines == 0);
        if (serialized) {
            test_serialized(&env, serialized, serialized_size);
            test_refused_blobs(&env, serialized, serialized_size);
        }
        test_threads(&env);
    }
    CHECK(statistics_of(env.device).LivePipelines == 0);
    free(serialized);
    if (env.code)
        ID3D10Blob_Release(env.code);
    if (env.other_code)
        ID3D10Blob_Release(env.other_code);
    if (env.vs)
        ID3D10Blob_Release(env.vs);
    if (env.ps)
        ID3D10Blob_Release(env.ps);
    if (env.signature)
        ID3D12RootSignature_Release(env.signature);
    if (env.device1)
        ID3D12Device1_Release(env.device1);
    ID3D12CommandQueue_Release(env.queue);
    harness_release_device(env.device);
    return harness_finish();
}
