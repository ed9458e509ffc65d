/* Failed calls write NULL through their out-pointers, as the Windows runtime does (issue 17):
 *   - every generated E_NOTIMPL stub still in a vtable of the objects made here, from the
 *     generator's table of every stub with out-pointers (tests/generated/stub_out_pointers.h),
 *     called with its out-pointers preset to a sentinel (NULL must come back) and with NULL
 *     out-pointers (nothing written, no crash);
 *   - the failure paths of some hand-written methods and entry points. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <d3dcompiler.h>

#include "harness.h"
#include "generated/stub_out_pointers.h"

#define MAX_OUT_POINTERS 4

/* What a caller's variable held before the call: any value a failed call must not leave. */
#define SENTINEL ((void *)(uintptr_t)0x1)

static stub_out_function slot_of(void *object, const struct stub_out_case *c)
{
    const char *table;
    stub_out_function function;

    memcpy(&table, object, sizeof(table));
    if (c->console_table)
        memcpy(&table, table + c->console_table, sizeof(table));
    memcpy(&function, table + c->offset, sizeof(function));
    return function;
}

static bool holds_stub(void *object, const struct stub_out_case *c)
{
    stub_out_function function = slot_of(object, c);
    for (const stub_out_function *stub = c->stubs; *stub; stub++)
        if (*stub == function)
            return true;
    return false;
}

/* Calls one stub slot both ways; true when the slot held a stub (and was called). */
static bool check_stub(const char *object_name, const struct stub_out_interface *it, const struct stub_out_case *c,
        void *object)
{
    const void *written[MAX_OUT_POINTERS];
    size_t mark, lines;
    HRESULT hr;

    if (!holds_stub(object, c))
        return false;
    CHECK_MSG(c->out_count <= MAX_OUT_POINTERS, "%s has %u out-pointers", c->method, c->out_count);
    if (c->out_count > MAX_OUT_POINTERS)
        return true;
    mark = harness_log_mark();
    for (unsigned i = 0; i < c->out_count; i++)
        written[i] = SENTINEL;
    hr = c->call(object, 0, SENTINEL, written);
    CHECK_MSG(hr == E_NOTIMPL, "%s (%s through %s) returned 0x%08x, expected E_NOTIMPL", c->method, object_name,
            it->name, (unsigned)hr);
    for (unsigned i = 0; i < c->out_count; i++)
        CHECK_MSG(written[i] == NULL, "%s (%s through %s) left %p in out-pointer %u (a failed call writes NULL)",
                c->method, object_name, it->name, written[i], i);
    hr = c->call(object, 1, SENTINEL, written);
    CHECK_MSG(hr == E_NOTIMPL, "%s (%s through %s) with NULL out-pointers returned 0x%08x, expected E_NOTIMPL",
            c->method, object_name, it->name, (unsigned)hr);
    /* The stub's "not implemented" line, once per stub: none when another view reached it first. */
    lines = harness_log_mark() - mark;
    if (lines)
        harness_check_log(mark, __FILE__, __LINE__, strstr(c->method, "::"), "is not implemented", (const char *)NULL);
    return true;
}

/* Every table interface that object answers QueryInterface for (or whose slots its family's
 * vtables all have): each slot that still holds a stub. Returns the number of stubs called. */
static unsigned check_object(const char *name, IUnknown *object)
{
    unsigned called = 0;

    for (size_t i = 0; i < sizeof(stub_out_interfaces) / sizeof(stub_out_interfaces[0]); i++) {
        const struct stub_out_interface *it = &stub_out_interfaces[i];
        void *view = NULL;

        if (FAILED(IUnknown_QueryInterface(object, it->iid, &view))
                && (!it->family_root || FAILED(IUnknown_QueryInterface(object, it->family_root, &view))))
            continue;
        for (size_t k = 0; k < it->count; k++)
            called += check_stub(name, it, &it->cases[k], view);
        IUnknown_Release((IUnknown *)view);
    }
    printf("%s: %u stubs with out-pointers called\n", name, called);
    return called;
}

static ID3DBlob *serialize_empty_root_signature(void)
{
    D3D12_ROOT_SIGNATURE_DESC desc;
    ID3DBlob *blob = NULL, *errors = NULL;

    memset(&desc, 0, sizeof(desc));
    CHECK_HR(D3D12SerializeRootSignature(&desc, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, &errors), S_OK);
    if (errors)
        ID3D10Blob_Release(errors);
    return blob;
}

static ID3DBlob *compile_trivial_shader(void)
{
    static const char source[] = "[numthreads(1, 1, 1)] void main() {}\n";
    ID3DBlob *code = NULL, *errors = NULL;

    CHECK_HR(D3DCompile(source, strlen(source), "trivial.hlsl", NULL, NULL, "main", "cs_6_0", 0, 0, &code, &errors), S_OK);
    if (errors)
        ID3D10Blob_Release(errors);
    return code;
}

struct objects {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    struct harness_list list;
    ID3D12Fence *fence;
    ID3D12Heap *heap;
    ID3D12Resource *upload_buffer, *default_buffer;
    ID3DBlob *root_signature_blob;
    ID3D12RootSignature *root_signature;
    ID3D12PipelineState *pipeline;
    ID3D12QueryHeap *query_heap;
    ID3D12DescriptorHeap *descriptor_heap;
    ID3D12RootSignatureDeserializer *deserializer;
    ID3D12VersionedRootSignatureDeserializer *versioned_deserializer;
    ID3D12Debug *debug;
};

static void create_objects(struct objects *o)
{
    D3D12_HEAP_DESC heap_desc;
    D3D12_QUERY_HEAP_DESC query_heap_desc = {D3D12_QUERY_HEAP_TYPE_TIMESTAMP, 4, 0};
    D3D12_DESCRIPTOR_HEAP_DESC descriptor_heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    ID3DBlob *code;

    memset(o, 0, sizeof(*o));
    o->device = harness_create_device();
    o->queue = harness_create_queue(o->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    o->list = harness_create_list(o->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    o->fence = harness_create_fence(o->device, 0);
    memset(&heap_desc, 0, sizeof(heap_desc));
    heap_desc.SizeInBytes = 1 << 16;
    heap_desc.Properties = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
    heap_desc.Flags = D3D12_HEAP_FLAG_ALLOW_ONLY_BUFFERS;
    CHECK_HR(ID3D12Device_CreateHeap(o->device, &heap_desc, &IID_ID3D12Heap, (void **)&o->heap), S_OK);
    o->upload_buffer = harness_create_buffer(o->device, D3D12_HEAP_TYPE_UPLOAD, 256, D3D12_RESOURCE_STATE_GENERIC_READ);
    o->default_buffer = harness_create_buffer(o->device, D3D12_HEAP_TYPE_DEFAULT, 256, D3D12_RESOURCE_STATE_COMMON);
    o->root_signature_blob = serialize_empty_root_signature();
    CHECK_HR(ID3D12Device_CreateRootSignature(o->device, 0, ID3D10Blob_GetBufferPointer(o->root_signature_blob),
            ID3D10Blob_GetBufferSize(o->root_signature_blob), &IID_ID3D12RootSignature, (void **)&o->root_signature), S_OK);
    code = compile_trivial_shader();
    o->pipeline = harness_compute_pipeline(o->device, o->root_signature, code);
    ID3D10Blob_Release(code);
    CHECK_HR(ID3D12Device_CreateQueryHeap(o->device, &query_heap_desc, &IID_ID3D12QueryHeap, (void **)&o->query_heap), S_OK);
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(o->device, &descriptor_heap_desc, &IID_ID3D12DescriptorHeap,
            (void **)&o->descriptor_heap), S_OK);
    CHECK_HR(D3D12CreateRootSignatureDeserializer(ID3D10Blob_GetBufferPointer(o->root_signature_blob),
            ID3D10Blob_GetBufferSize(o->root_signature_blob), &IID_ID3D12RootSignatureDeserializer,
            (void **)&o->deserializer), S_OK);
    CHECK_HR(D3D12CreateVersionedRootSignatureDeserializer(ID3D10Blob_GetBufferPointer(o->root_signature_blob),
            ID3D10Blob_GetBufferSize(o->root_signature_blob), &IID_ID3D12VersionedRootSignatureDeserializer,
            (void **)&o->versioned_deserializer), S_OK);
    CHECK_HR(D3D12GetDebugInterface(&IID_ID3D12Debug, (void **)&o->debug), S_OK);
}

static void release_objects(struct objects *o)
{
    ID3D12Debug_Release(o->debug);
    ID3D12VersionedRootSignatureDeserializer_Release(o->versioned_deserializer);
    ID3D12RootSignatureDeserializer_Release(o->deserializer);
    ID3D12DescriptorHeap_Release(o->descriptor_heap);
    ID3D12QueryHeap_Release(o->query_heap);
    ID3D12PipelineState_Release(o->pipeline);
    ID3D12RootSignature_Release(o->root_signature);
    ID3D10Blob_Release(o->root_signature_blob);
    ID3D12Resource_Release(o->default_buffer);
    ID3D12Resource_Release(o->upload_buffer);
    ID3D12Heap_Release(o->heap);
    ID3D12Fence_Release(o->fence);
    harness_release_list(&o->list);
    ID3D12CommandQueue_Release(o->queue);
    harness_release_device(o->device);
}

static void test_every_stub(const struct objects *o)
{
    struct {
        const char *name;
        void *object;
    } objects[] = {
        {"device", o->device},
        {"queue", o->queue},
        {"command allocator", o->list.allocator},
        {"command list", o->list.list},
        {"fence", o->fence},
        {"heap", o->heap},
        {"resource", o->upload_buffer},
        {"blob", o->root_signature_blob},
        {"root signature", o->root_signature},
        {"pipeline state", o->pipeline},
        {"query heap", o->query_heap},
        {"descriptor heap", o->descriptor_heap},
        {"root signature deserializer", o->deserializer},
        {"versioned root signature deserializer", o->versioned_deserializer},
        {"debug", o->debug},
    };
    unsigned total = 0, called;

    for (size_t i = 0; i < sizeof(objects) / sizeof(objects[0]); i++) {
        called = check_object(objects[i].name, (IUnknown *)objects[i].object);
        total += called;
        /* The one known to hold stubs with out-pointers today (the device's unimplemented
         * Create* methods): the table reaches them, so the test is not vacuous. */
        if (objects[i].object == (void *)o->device)
            CHECK_MSG(called > 0, "no stub with out-pointers reached on the %s", objects[i].name);
    }
    CHECK_MSG(total > 0, "no stub with out-pointers reached at all");
}

/* Never a NULL slot: every slot of the newest versions (ID3D12Device14, ID3D12GraphicsCommandList10),
 * which the device's and the lists' vtables are, and of their console tables, holds a function. */
static void check_no_null_slot(const char *name, void *object, size_t vtable_size, size_t console_offset, size_t console_size)
{
    const char *table, *console;
    void (*slot)(void);

    memcpy(&table, object, sizeof(table));
    for (size_t offset = 0; offset < vtable_size; offset += sizeof(slot)) {
        memcpy(&slot, table + offset, sizeof(slot));
        CHECK_MSG(slot != NULL, "%s: vtable slot %zu is NULL", name, offset / sizeof(slot));
    }
    memcpy(&console, table + console_offset, sizeof(console));
    CHECK_MSG(console != NULL, "%s: no console table", name);
    for (size_t offset = 0; console && offset < console_size; offset += sizeof(slot)) {
        memcpy(&slot, console + offset, sizeof(slot));
        CHECK_MSG(slot != NULL, "%s: console slot %zu is NULL", name, offset / sizeof(slot));
    }
}

static void test_no_null_slot(const struct objects *o)
{
    ID3D12CommandQueue *queue = o->queue;
    check_no_null_slot("device", o->device, offsetof(ID3D12Device14Vtbl, d3d12xs_console), offsetof(ID3D12Device14Vtbl, d3d12xs_console),
            sizeof(D3D12XS_ID3D12DeviceConsoleVtbl));
    check_no_null_slot("command list", o->list.list, offsetof(ID3D12GraphicsCommandList10Vtbl, d3d12xs_console),
            offsetof(ID3D12GraphicsCommandList10Vtbl, d3d12xs_console), sizeof(D3D12XS_ID3D12GraphicsCommandListConsoleVtbl));
    check_no_null_slot("queue", queue, offsetof(ID3D12CommandQueueVtbl, d3d12xs_console), offsetof(ID3D12CommandQueueVtbl, d3d12xs_console),
            sizeof(D3D12XS_ID3D12CommandQueueConsoleVtbl));
}

/* Hand-written methods and entry points: what a failed call leaves in the caller's variable. */
static void test_hand_written_failures(const struct objects *o)
{
    D3D12_HEAP_PROPERTIES upload = harness_heap_properties(D3D12_HEAP_TYPE_UPLOAD);
    const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc;
    ID3DBlob *blob, *errors;
    void *out;
    LOG_MARK();

    out = SENTINEL;
    CHECK_HR(ID3D12Resource_Map(o->upload_buffer, 1, NULL, &out), E_INVALIDARG);
    CHECK_LOG("Map", "Subresource");
    CHECK(out == SENTINEL); /* Map, unlike the creation methods, leaves *ppData as it was (Windows) */

    RELOG_MARK();
    out = SENTINEL;
    CHECK_HR(ID3D12Resource_Map(o->default_buffer, 0, NULL, &out), E_INVALIDARG);
    CHECK_LOG("Map", "CPU cannot access");
    CHECK(out == SENTINEL);

    RELOG_MARK();
    out = SENTINEL;
    CHECK_HR(ID3D12Device_QueryInterface(o->device, &IID_ID3D12Fence, &out), E_NOINTERFACE);
    CHECK_NO_LOG();
    CHECK(out == NULL);

    RELOG_MARK();
    out = SENTINEL;
    CHECK_HR(ID3D12Device_CreateCommandQueue(o->device, NULL, &IID_ID3D12CommandQueue, &out), E_INVALIDARG);
    CHECK_LOG("CreateCommandQueue", "pDesc");
    CHECK(out == NULL);

    RELOG_MARK();
    out = SENTINEL;
    CHECK_HR(ID3D12Device_CreateCommittedResource(o->device, &upload, D3D12_HEAP_FLAG_NONE, NULL,
            D3D12_RESOURCE_STATE_GENERIC_READ, NULL, &IID_ID3D12Resource, &out), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource", "pDesc");
    CHECK(out == NULL);

    /* The later versions' creation methods (ID3D12Device4, 8, 10). */
    RELOG_MARK();
    out = SENTINEL;
    CHECK_HR(ID3D12Device4_CreateCommandList1((ID3D12Device4 *)o->device, 0, (D3D12_COMMAND_LIST_TYPE)99, D3D12_COMMAND_LIST_FLAG_NONE,
            &IID_ID3D12GraphicsCommandList, &out), E_INVALIDARG);
    CHECK_LOG("CreateCommandList1", "type");
    CHECK(out == NULL);

    RELOG_MARK();
    out = SENTINEL;
    CHECK_HR(ID3D12Device8_CreateCommittedResource2((ID3D12Device8 *)o->device, &upload, D3D12_HEAP_FLAG_NONE, NULL,
            D3D12_RESOURCE_STATE_GENERIC_READ, NULL, NULL, &IID_ID3D12Resource, &out), E_INVALIDARG);
    CHECK_LOG("CreateCommittedResource2", "pDesc");
    CHECK(out == NULL);

    RELOG_MARK();
    out = SENTINEL;
    CHECK_HR(ID3D12Device10_CreatePlacedResource2((ID3D12Device10 *)o->device, NULL, 0, NULL, D3D12_BARRIER_LAYOUT_UNDEFINED, NULL,
            0, NULL, &IID_ID3D12Resource, &out), E_INVALIDARG);
    CHECK_LOG("CreatePlacedResource2", "pHeap");
    CHECK(out == NULL);

    RELOG_MARK();
    out = SENTINEL;
    CHECK_HR(ID3D12Device_CreateComputePipelineState(o->device, NULL, &IID_ID3D12PipelineState, &out), E_INVALIDARG);
    CHECK_LOG("CreateComputePipelineState", "pDesc");
    CHECK(out == NULL);

    RELOG_MARK();
    out = SENTINEL;
    CHECK_HR(ID3D12Fence_GetDevice(o->fence, NULL, &out), E_INVALIDARG);
    CHECK_LOG("GetDevice", "riid");
    CHECK(out == NULL);

    RELOG_MARK();
    out = SENTINEL;
    CHECK_HR(D3D12CreateRootSignatureDeserializer(NULL, 16, &IID_ID3D12RootSignatureDeserializer, &out), E_INVALIDARG);
    CHECK_LOG("D3D12CreateRootSignatureDeserializer", "pSrcData");
    CHECK(out == NULL);

    RELOG_MARK();
    desc = SENTINEL;
    CHECK_HR(ID3D12VersionedRootSignatureDeserializer_GetRootSignatureDescAtVersion(o->versioned_deserializer,
            (D3D_ROOT_SIGNATURE_VERSION)7, &desc), E_INVALIDARG);
    CHECK_LOG("GetRootSignatureDescAtVersion", "convertToVersion");
    CHECK(desc == NULL);

    RELOG_MARK();
    out = SENTINEL;
    CHECK_HR(D3D12GetDebugInterface(&IID_ID3D12Device, &out), E_NOINTERFACE);
    CHECK_LOG("D3D12GetDebugInterface", "riid");
    CHECK(out == NULL);

    RELOG_MARK();
    blob = errors = SENTINEL;
    CHECK_HR(D3D12SerializeRootSignature(NULL, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, &errors), E_INVALIDARG);
    CHECK_LOG("D3D12SerializeRootSignature", "pRootSignature");
    CHECK(blob == NULL);
    CHECK(errors != SENTINEL);
    if (errors && errors != SENTINEL)
        ID3D10Blob_Release(errors);

    RELOG_MARK();
    blob = errors = SENTINEL;
    CHECK_HR(D3DCompile("x", 1, "bad.hlsl", NULL, NULL, "main", NULL, 0, 0, &blob, &errors), E_INVALIDARG);
    CHECK_LOG("D3DCompile", "pTarget");
    CHECK(blob == NULL);
    CHECK(errors == NULL);
}

int main(void)
{
    struct objects objects;

    harness_init();
    create_objects(&objects);
    test_every_stub(&objects);
    test_no_null_slot(&objects);
    test_hand_written_failures(&objects);
    release_objects(&objects);
    return harness_finish();
}
