/* Descriptor heaps, views, samplers, descriptor copies, UAV clears and the way Dispatch
 * resolves descriptor tables: results are read back through dispatches and clears, and
 * bad input must give the documented HRESULT or exactly one error line naming the rule. */
#include <stdio.h>
#include <pthread.h>
#include <string.h>

#include <d3dcompiler.h>

#include "harness.h"

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    UINT increment; /* CBV_SRV_UAV */
    UINT sampler_increment;
};

/* ---- helpers ---- */

static ID3D12RootSignature *root_signature(ID3D12Device *device, const D3D12_ROOT_PARAMETER1 *parameters, UINT count,
        const D3D12_STATIC_SAMPLER_DESC *samplers, UINT sampler_count)
{
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc;
    ID3DBlob *blob = NULL, *errors = NULL;
    ID3D12RootSignature *signature = NULL;

    memset(&desc, 0, sizeof(desc));
    desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    desc.Desc_1_1.NumParameters = count;
    desc.Desc_1_1.pParameters = parameters;
    desc.Desc_1_1.NumStaticSamplers = sampler_count;
    desc.Desc_1_1.pStaticSamplers = samplers;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&desc, &blob, &errors), S_OK);
    if (errors)
        ID3D10Blob_Release(errors);
    if (!blob)
        return NULL;
    CHECK_HR(ID3D12Device_CreateRootSignature(device, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
            &IID_ID3D12RootSignature, (void **)&signature), S_OK);
    ID3D10Blob_Release(blob);
    return signature;
}

static D3D12_ROOT_PARAMETER1 table_parameter(const D3D12_DESCRIPTOR_RANGE1 *ranges, UINT count)
{
    D3D12_ROOT_PARAMETER1 parameter;
    memset(&parameter, 0, sizeof(parameter));
    parameter.ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    parameter.DescriptorTable.NumDescriptorRanges = count;
    parameter.DescriptorTable.pDescriptorRanges = ranges;
    parameter.ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
    return parameter;
}

static D3D12_DESCRIPTOR_RANGE1 range(D3D12_DESCRIPTOR_RANGE_TYPE type, UINT count, UINT base_register, UINT offset)
{
    D3D12_DESCRIPTOR_RANGE1 r;
    memset(&r, 0, sizeof(r));
    r.RangeType = type;
    r.NumDescriptors = count;
    r.BaseShaderRegister = base_register;
    r.OffsetInDescriptorsFromTableStart = offset;
    return r;
}

static ID3D12Resource *upload_buffer(ID3D12Device *device, const void *data, size_t size)
{
    ID3D12Resource *buffer = harness_create_buffer(device, D3D12_HEAP_TYPE_UPLOAD, size, D3D12_RESOURCE_STATE_GENERIC_READ);
    void *mapped = NULL;
    CHECK_HR(ID3D12Resource_Map(buffer, 0, NULL, &mapped), S_OK);
    if (mapped)
        memcpy(mapped, data, size);
    ID3D12Resource_Unmap(buffer, 0, NULL);
    return buffer;
}

static ID3D12DescriptorHeap *create_heap(ID3D12Device *device, D3D12_DESCRIPTOR_HEAP_TYPE type, UINT count, bool visible)
{
    D3D12_DESCRIPTOR_HEAP_DESC desc = {type, count, visible ? D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE : D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    ID3D12DescriptorHeap *heap = NULL;
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(device, &desc, &IID_ID3D12DescriptorHeap, (void **)&heap), S_OK);
    return heap;
}

static D3D12_CPU_DESCRIPTOR_HANDLE cpu_at(struct env *env, ID3D12DescriptorHeap *heap, UINT index)
{
    D3D12_CPU_DESCRIPTOR_HANDLE handle = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap);
    D3D12_DESCRIPTOR_HEAP_DESC desc = ID3D12DescriptorHeap_GetDesc(heap);
    handle.ptr += (SIZE_T)index * (desc.Type == D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER ? env->sampler_increment : env->increment);
    return handle;
}

static D3D12_GPU_DESCRIPTOR_HANDLE gpu_at(struct env *env, ID3D12DescriptorHeap *heap, UINT index)
{
    D3D12_GPU_DESCRIPTOR_HANDLE handle = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(heap);
    D3D12_DESCRIPTOR_HEAP_DESC desc = ID3D12DescriptorHeap_GetDesc(heap);
    handle.ptr += (UINT64)index * (desc.Type == D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER ? env->sampler_increment : env->increment);
    return handle;
}

enum view_kind { VIEW_RAW, VIEW_STRUCTURED, VIEW_TYPED };

static D3D12_SHADER_RESOURCE_VIEW_DESC srv_desc(enum view_kind kind, DXGI_FORMAT format, UINT64 first, UINT count, UINT stride)
{
    D3D12_SHADER_RESOURCE_VIEW_DESC desc;
    memset(&desc, 0, sizeof(desc));
    desc.ViewDimension = D3D12_SRV_DIMENSION_BUFFER;
    desc.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
    desc.Format = kind == VIEW_RAW ? DXGI_FORMAT_R32_TYPELESS : kind == VIEW_STRUCTURED ? DXGI_FORMAT_UNKNOWN : format;
    desc.Buffer.FirstElement = first;
    desc.Buffer.NumElements = count;
    desc.Buffer.StructureByteStride = kind == VIEW_STRUCTURED ? stride : 0;
    desc.Buffer.Flags = kind == VIEW_RAW ? D3D12_BUFFER_SRV_FLAG_RAW : D3D12_BUFFER_SRV_FLAG_NONE;
    return desc;
}

static D3D12_UNORDERED_ACCESS_VIEW_DESC uav_desc(enum view_kind kind, DXGI_FORMAT format, UINT64 first, UINT count, UINT stride)
{
    D3D12_UNORDERED_ACCESS_VIEW_DESC desc;
    memset(&desc, 0, sizeof(desc));
    desc.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
    desc.Format = kind == VIEW_RAW ? DXGI_FORMAT_R32_TYPELESS : kind == VIEW_STRUCTURED ? DXGI_FORMAT_UNKNOWN : format;
    desc.Buffer.FirstElement = first;
    desc.Buffer.NumElements = count;
    desc.Buffer.StructureByteStride = kind == VIEW_STRUCTURED ? stride : 0;
    desc.Buffer.Flags = kind == VIEW_RAW ? D3D12_BUFFER_UAV_FLAG_RAW : D3D12_BUFFER_UAV_FLAG_NONE;
    return desc;
}

static void make_srv(struct env *env, ID3D12Resource *resource, enum view_kind kind, DXGI_FORMAT format, UINT64 first, UINT count,
        UINT stride, D3D12_CPU_DESCRIPTOR_HANDLE handle)
{
    D3D12_SHADER_RESOURCE_VIEW_DESC desc = srv_desc(kind, format, first, count, stride);
    ID3D12Device_CreateShaderResourceView(env->device, resource, &desc, handle);
}

static void make_uav(struct env *env, ID3D12Resource *resource, enum view_kind kind, DXGI_FORMAT format, UINT64 first, UINT count,
        UINT stride, D3D12_CPU_DESCRIPTOR_HANDLE handle)
{
    D3D12_UNORDERED_ACCESS_VIEW_DESC desc = uav_desc(kind, format, first, count, stride);
    ID3D12Device_CreateUnorderedAccessView(env->device, resource, NULL, &desc, handle);
}

static D3D12_RESOURCE_BARRIER uav_barrier(ID3D12Resource *resource)
{
    D3D12_RESOURCE_BARRIER barrier;
    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
    barrier.UAV.pResource = resource;
    return barrier;
}

/* After a recording error: Close fails naming the command; the list is reset for the next case.
 * Uses (and moves) the caller's log mark. */
#define CLOSE_FAILS(l, command) do { \
        CHECK_HR(ID3D12GraphicsCommandList2_Close((l)->list), E_INVALIDARG); \
        CHECK_LOG("Close", command); \
        RELOG_MARK(); \
        CHECK_HR(ID3D12GraphicsCommandList2_Reset((l)->list, (l)->allocator, NULL), S_OK); \
        CHECK_NO_LOG(); \
    } while (0)

/* ---- CreateDescriptorHeap, GetDesc, handles, increments ---- */

static void test_heaps(struct env *env)
{
    static const struct { D3D12_DESCRIPTOR_HEAP_TYPE type; UINT count; D3D12_DESCRIPTOR_HEAP_FLAGS flags; } good[] = {
        {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 16, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE},
        {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 3, D3D12_DESCRIPTOR_HEAP_FLAG_NONE},
        {D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, 2048, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE},
        {D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE},
        {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 4, D3D12_DESCRIPTOR_HEAP_FLAG_NONE},
        {D3D12_DESCRIPTOR_HEAP_TYPE_DSV, 2, D3D12_DESCRIPTOR_HEAP_FLAG_NONE},
    };
    ID3D12DescriptorHeap *heaps[6] = {NULL};
    D3D12_DESCRIPTOR_HEAP_DESC desc;
    ID3D12DescriptorHeap *heap;
    ID3D12Pageable *pageable = NULL;
    LOG_MARK();

    for (UINT t = 0; t < D3D12_DESCRIPTOR_HEAP_TYPE_NUM_TYPES; t++) {
        UINT increment = ID3D12Device_GetDescriptorHandleIncrementSize(env->device, (D3D12_DESCRIPTOR_HEAP_TYPE)t);
        CHECK_MSG(increment > 0, "GetDescriptorHandleIncrementSize(%u) is %u", t, increment);
    }
    CHECK_NO_LOG();
    CHECK(ID3D12Device_GetDescriptorHandleIncrementSize(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_NUM_TYPES) == 0);
    CHECK_LOG("GetDescriptorHandleIncrementSize", "DescriptorHeapType is 4");
    RELOG_MARK();
    CHECK(ID3D12Device_GetDescriptorHandleIncrementSize(env->device, (D3D12_DESCRIPTOR_HEAP_TYPE)-1) == 0);
    CHECK_LOG("GetDescriptorHandleIncrementSize", "DescriptorHeapType is -1");
    RELOG_MARK();

    for (size_t i = 0; i < 6; i++) {
        D3D12_DESCRIPTOR_HEAP_DESC in = {good[i].type, good[i].count, good[i].flags, i == 0 ? 1 : 0};
        CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &in, &IID_ID3D12DescriptorHeap, (void **)&heaps[i]), S_OK);
        if (!heaps[i])
            return;
        desc = ID3D12DescriptorHeap_GetDesc(heaps[i]);
        CHECK_MSG(desc.Type == in.Type && desc.NumDescriptors == in.NumDescriptors && desc.Flags == in.Flags && desc.NodeMask == in.NodeMask,
                "heap %zu: GetDesc returned {%d, %u, 0x%x, %u}", i, (int)desc.Type, desc.NumDescriptors, desc.Flags, desc.NodeMask);
        CHECK_MSG(ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heaps[i]).ptr != 0, "heap %zu: CPU start is 0", i);
        CHECK_NO_LOG();
    }
    /* Shader-visible heaps have distinct, non-overlapping GPU handle ranges. */
    {
        D3D12_GPU_DESCRIPTOR_HANDLE a = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(heaps[0]);
        D3D12_GPU_DESCRIPTOR_HANDLE b = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(heaps[2]);
        CHECK(a.ptr != 0 && b.ptr != 0);
        CHECK(a.ptr + 16ull * env->increment <= b.ptr || b.ptr + 2048ull * env->sampler_increment <= a.ptr);
        CHECK(ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(heaps[0]).ptr == a.ptr);
        CHECK(ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heaps[0]).ptr
                != ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heaps[1]).ptr);
        CHECK_NO_LOG();
    }
    for (size_t i = 0; i < 6; i++) {
        if (good[i].flags & D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE)
            continue;
        CHECK(ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(heaps[i]).ptr == 0);
        CHECK_LOG("GetGPUDescriptorHandleForHeapStart", "not shader-visible");
        RELOG_MARK();
    }
    CHECK_HR(ID3D12DescriptorHeap_QueryInterface(heaps[1], &IID_ID3D12Pageable, (void **)&pageable), S_OK);
    if (pageable)
        ID3D12Pageable_Release(pageable);
    for (size_t i = 0; i < 6; i++)
        ID3D12DescriptorHeap_Release(heaps[i]);

    /* Bad descriptions: E_INVALIDARG, the out pointer cleared, one line naming the field. */
    heap = (ID3D12DescriptorHeap *)(uintptr_t)1;
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, NULL, &IID_ID3D12DescriptorHeap, (void **)&heap), E_INVALIDARG);
    CHECK_LOG("CreateDescriptorHeap", "pDescriptorHeapDesc is NULL");
    RELOG_MARK();
    CHECK(heap == NULL);

    desc = (D3D12_DESCRIPTOR_HEAP_DESC){D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 0, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &desc, &IID_ID3D12DescriptorHeap, (void **)&heap), E_INVALIDARG);
    CHECK_LOG("CreateDescriptorHeap", "NumDescriptors is 0");
    RELOG_MARK();

    desc = (D3D12_DESCRIPTOR_HEAP_DESC){D3D12_DESCRIPTOR_HEAP_TYPE_NUM_TYPES, 4, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &desc, &IID_ID3D12DescriptorHeap, (void **)&heap), E_INVALIDARG);
    CHECK_LOG("CreateDescriptorHeap", "Type is 4");
    RELOG_MARK();

    desc = (D3D12_DESCRIPTOR_HEAP_DESC){D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4, (D3D12_DESCRIPTOR_HEAP_FLAGS)0x2, 0};
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &desc, &IID_ID3D12DescriptorHeap, (void **)&heap), E_INVALIDARG);
    CHECK_LOG("CreateDescriptorHeap", "Flags is 0x2");
    RELOG_MARK();

    desc = (D3D12_DESCRIPTOR_HEAP_DESC){D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 4, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &desc, &IID_ID3D12DescriptorHeap, (void **)&heap), E_INVALIDARG);
    CHECK_LOG("CreateDescriptorHeap", "RTV", "SHADER_VISIBLE");
    RELOG_MARK();
    desc.Type = D3D12_DESCRIPTOR_HEAP_TYPE_DSV;
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &desc, &IID_ID3D12DescriptorHeap, (void **)&heap), E_INVALIDARG);
    CHECK_LOG("CreateDescriptorHeap", "DSV", "SHADER_VISIBLE");
    RELOG_MARK();

    desc = (D3D12_DESCRIPTOR_HEAP_DESC){D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 1000001, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &desc, &IID_ID3D12DescriptorHeap, (void **)&heap), E_INVALIDARG);
    CHECK_LOG("CreateDescriptorHeap", "NumDescriptors is 1000001", "1,000,000");
    RELOG_MARK();
    desc = (D3D12_DESCRIPTOR_HEAP_DESC){D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, 2049, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &desc, &IID_ID3D12DescriptorHeap, (void **)&heap), E_INVALIDARG);
    CHECK_LOG("CreateDescriptorHeap", "NumDescriptors is 2049", "2048");
    RELOG_MARK();

    desc = (D3D12_DESCRIPTOR_HEAP_DESC){D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 2};
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &desc, &IID_ID3D12DescriptorHeap, (void **)&heap), E_INVALIDARG);
    CHECK_LOG("CreateDescriptorHeap", "NodeMask is 0x2");
    RELOG_MARK();

    desc.NodeMask = 0;
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &desc, &IID_ID3D12DescriptorHeap, NULL), E_POINTER);
    CHECK_LOG("CreateDescriptorHeap", "ppvHeap is NULL");
    RELOG_MARK();
    CHECK(heap == NULL);
}

/* ---- views read and written by one dispatch ---- */

static void test_views(struct env *env)
{
    static const char source[] =
        "cbuffer C : register(b0) { uint4 c; };\n"
        "cbuffer Z : register(b1) { uint4 z; };\n"
        "ByteAddressBuffer raw_in : register(t0);\n"
        "StructuredBuffer<uint2> s_in : register(t1);\n"
        "Buffer<uint> t_in : register(t2);\n"
        "Buffer<float4> f_in : register(t3);\n"
        "StructuredBuffer<uint> null_s : register(t4);\n"
        "ByteAddressBuffer null_raw : register(t5);\n"
        "RWByteAddressBuffer raw_out : register(u0);\n"
        "RWStructuredBuffer<uint> s_out : register(u1);\n"
        "RWBuffer<uint> t_out : register(u2);\n"
        "RWBuffer<float4> f_out : register(u3);\n"
        "RWByteAddressBuffer null_out : register(u4);\n"
        "[numthreads(64, 1, 1)]\n"
        "void main(uint3 id : SV_DispatchThreadID)\n"
        "{\n"
        "    uint i = id.x;\n"
        "    raw_out.Store(i * 4, raw_in.Load(i * 4) + c.x);\n"
        "    uint2 s = s_in[i];\n"
        "    s_out[i] = s.x * s.y + c.y;\n"
        "    t_out[i] = t_in[i] * 2 + c.z;\n"
        "    f_out[i] = f_in[i] * 2.0 + float(c.w);\n"
        "    null_out.Store(i * 4, z.x + z.y + z.z + z.w + null_s[i] + null_raw.Load(i * 4) + 1);\n"
        "}\n";
    D3D12_DESCRIPTOR_RANGE1 ranges[3];
    D3D12_ROOT_PARAMETER1 parameter;
    D3D12_CONSTANT_BUFFER_VIEW_DESC cbv;
    D3D12_SHADER_RESOURCE_VIEW_DESC srv;
    D3D12_UNORDERED_ACCESS_VIEW_DESC uav;
    uint32_t constants[256], raw[68], structured[128], typed[64], out_u[64];
    float floats[256], out_f[256];
    uint32_t n;
    bool ok;
    LOG_MARK();

    ranges[0] = range(D3D12_DESCRIPTOR_RANGE_TYPE_CBV, 2, 0, 0);
    ranges[1] = range(D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 6, 0, 2);
    ranges[2] = range(D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 5, 0, 8);
    parameter = table_parameter(ranges, 3);
    ID3D12RootSignature *signature = root_signature(env->device, &parameter, 1, NULL, 0);
    ID3DBlob *code = harness_compile(source, 0);
    ID3D12PipelineState *state = harness_compute_pipeline(env->device, signature, code);
    ID3D10Blob_Release(code);

    memset(constants, 0, sizeof(constants));
    constants[64] = 5, constants[65] = 6, constants[66] = 7, constants[67] = 8; /* the CBV starts at byte 256 */
    for (uint32_t i = 0; i < 68; i++)
        raw[i] = i * 3;
    for (uint32_t i = 0; i < 64; i++) {
        structured[2 * i] = i, structured[2 * i + 1] = i + 1;
        typed[i] = 1000 + i;
        floats[4 * i] = (float)i, floats[4 * i + 1] = -(float)i, floats[4 * i + 2] = 0.5f, floats[4 * i + 3] = 2.0f;
    }
    ID3D12Resource *cb = upload_buffer(env->device, constants, sizeof(constants));
    ID3D12Resource *raw_in = upload_buffer(env->device, raw, sizeof(raw));
    ID3D12Resource *s_in = upload_buffer(env->device, structured, sizeof(structured));
    ID3D12Resource *t_in = upload_buffer(env->device, typed, sizeof(typed));
    ID3D12Resource *f_in = upload_buffer(env->device, floats, sizeof(floats));
    ID3D12Resource *raw_out = harness_uav_buffer(env->device, 256), *s_out = harness_uav_buffer(env->device, 256), *t_out = harness_uav_buffer(env->device, 256);
    ID3D12Resource *f_out = harness_uav_buffer(env->device, 1024), *null_out = harness_uav_buffer(env->device, 256);
    ID3D12DescriptorHeap *heap = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 16, true);

    /* The table starts at descriptor 1. */
    cbv.BufferLocation = ID3D12Resource_GetGPUVirtualAddress(cb) + 256;
    cbv.SizeInBytes = 256;
    ID3D12Device_CreateConstantBufferView(env->device, &cbv, cpu_at(env, heap, 1));
    ID3D12Device_CreateConstantBufferView(env->device, NULL, cpu_at(env, heap, 2)); /* a null CBV reads zeros */
    make_srv(env, raw_in, VIEW_RAW, 0, 4, 64, 0, cpu_at(env, heap, 3));             /* starts at byte 16 */
    make_srv(env, s_in, VIEW_STRUCTURED, 0, 0, 64, 8, cpu_at(env, heap, 4));
    make_srv(env, t_in, VIEW_TYPED, DXGI_FORMAT_R32_UINT, 0, 64, 0, cpu_at(env, heap, 5));
    make_srv(env, f_in, VIEW_TYPED, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 64, 0, cpu_at(env, heap, 6));
    make_srv(env, NULL, VIEW_STRUCTURED, 0, 0, 64, 4, cpu_at(env, heap, 7)); /* null views: no resource, a description */
    make_srv(env, NULL, VIEW_RAW, 0, 0, 64, 0, cpu_at(env, heap, 8));
    make_uav(env, raw_out, VIEW_RAW, 0, 0, 64, 0, cpu_at(env, heap, 9));
    make_uav(env, s_out, VIEW_STRUCTURED, 0, 0, 64, 4, cpu_at(env, heap, 10));
    make_uav(env, t_out, VIEW_TYPED, DXGI_FORMAT_R32_UINT, 0, 64, 0, cpu_at(env, heap, 11));
    make_uav(env, f_out, VIEW_TYPED, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 64, 0, cpu_at(env, heap, 12));
    make_uav(env, null_out, VIEW_RAW, 0, 0, 64, 0, cpu_at(env, heap, 13));
    CHECK_NO_LOG();

    /* Failed creations into the same slots log and leave the old descriptors alone. */
    srv = srv_desc(VIEW_RAW, 0, 0, 64, 0);
    srv.Format = DXGI_FORMAT_R32_UINT;
    ID3D12Device_CreateShaderResourceView(env->device, raw_in, &srv, cpu_at(env, heap, 3));
    CHECK_LOG("CreateShaderResourceView", "RAW", "R32_TYPELESS");
    RELOG_MARK();
    uav = uav_desc(VIEW_RAW, 0, 0, 64, 0);
    ID3D12Device_CreateUnorderedAccessView(env->device, raw_in, NULL, &uav, cpu_at(env, heap, 9));
    CHECK_LOG("CreateUnorderedAccessView", "pResource", "ALLOW_UNORDERED_ACCESS");
    RELOG_MARK();
    cbv.SizeInBytes = 100;
    ID3D12Device_CreateConstantBufferView(env->device, &cbv, cpu_at(env, heap, 1));
    CHECK_LOG("CreateConstantBufferView", "SizeInBytes 100");
    RELOG_MARK();

    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &heap);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 0, gpu_at(env, heap, 1));
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    harness_execute_and_wait(env->device, env->queue, &list);
    CHECK_NO_LOG();

    harness_read_back(env->device, env->queue, raw_out, out_u, 256);
    for (ok = true, n = 0; n < 64 && ok; n++)
        ok = out_u[n] == (n + 4) * 3 + 5;
    CHECK_MSG(ok, "raw view at FirstElement 4 + CBV: [%u] = %u, expected %u", n - 1, out_u[n - 1], (n + 3) * 3 + 5);
    harness_read_back(env->device, env->queue, s_out, out_u, 256);
    for (ok = true, n = 0; n < 64 && ok; n++)
        ok = out_u[n] == n * (n + 1) + 6;
    CHECK_MSG(ok, "structured views: [%u] = %u, expected %u", n - 1, out_u[n - 1], (n - 1) * n + 6);
    harness_read_back(env->device, env->queue, t_out, out_u, 256);
    for (ok = true, n = 0; n < 64 && ok; n++)
        ok = out_u[n] == (1000 + n) * 2 + 7;
    CHECK_MSG(ok, "R32_UINT views: [%u] = %u, expected %u", n - 1, out_u[n - 1], (999 + n) * 2 + 7);
    harness_read_back(env->device, env->queue, f_out, out_f, 1024);
    for (ok = true, n = 0; n < 64 && ok; n++)
        ok = out_f[4 * n] == 2.0f * n + 8 && out_f[4 * n + 1] == -2.0f * n + 8 && out_f[4 * n + 2] == 9.0f && out_f[4 * n + 3] == 12.0f;
    n--;
    CHECK_MSG(ok, "R32G32B32A32_FLOAT views: [%u] = {%g %g %g %g}", n, out_f[4 * n], out_f[4 * n + 1], out_f[4 * n + 2], out_f[4 * n + 3]);
    harness_read_back(env->device, env->queue, null_out, out_u, 256);
    for (ok = true, n = 0; n < 64 && ok; n++)
        ok = out_u[n] == 1;
    CHECK_MSG(ok, "null CBV/SRVs must read zeros: [%u] read %u", n - 1, out_u[n - 1] - 1);
    CHECK_NO_LOG();

    harness_release_list(&list);
    ID3D12DescriptorHeap_Release(heap);
    ID3D12Resource *resources[] = {cb, raw_in, s_in, t_in, f_in, raw_out, s_out, t_out, f_out, null_out};
    for (size_t i = 0; i < sizeof(resources) / sizeof(resources[0]); i++)
        ID3D12Resource_Release(resources[i]);
    ID3D12PipelineState_Release(state);
    ID3D12RootSignature_Release(signature);
}

/* Typed views start at any element, as D3D12 allows, where the device needs only one texel's
 * alignment (Vulkan 1.3 texel buffer alignment; lavapipe and NVIDIA): offsets 4, 8 and 12 here,
 * below the 16-byte minTexelBufferOffsetAlignment. */
static void test_typed_views_at_any_element(struct env *env)
{
    static const char source[] =
        "Buffer<uint> words : register(t0);\n"
        "Buffer<uint2> pairs : register(t1);\n"
        "RWBuffer<uint> output : register(u0);\n"
        "[numthreads(16, 1, 1)]\n"
        "void main(uint3 id : SV_DispatchThreadID)\n"
        "{\n"
        "    output[id.x] = words[id.x] + 100 * pairs[id.x].y;\n"
        "}\n";
    D3D12_DESCRIPTOR_RANGE1 ranges[2] = {range(D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 2, 0, 0), range(D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 1, 0, 2)};
    D3D12_ROOT_PARAMETER1 parameter = table_parameter(ranges, 2);
    uint32_t input[64], out[20];
    bool ok = true;
    LOG_MARK();

    if (ID3D12Device_GetDescriptorHandleIncrementSize(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV) == 0)
        return;
    for (uint32_t i = 0; i < 64; i++)
        input[i] = i;
    ID3D12RootSignature *signature = root_signature(env->device, &parameter, 1, NULL, 0);
    ID3DBlob *code = harness_compile(source, 0);
    ID3D12PipelineState *state = harness_compute_pipeline(env->device, signature, code);
    ID3D10Blob_Release(code);
    ID3D12Resource *in = upload_buffer(env->device, input, sizeof(input));
    ID3D12Resource *output = harness_uav_buffer(env->device, sizeof(out));
    ID3D12DescriptorHeap *heap = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 3, true);
    make_srv(env, in, VIEW_TYPED, DXGI_FORMAT_R32_UINT, 1, 16, 0, cpu_at(env, heap, 0));      /* byte 4 */
    make_srv(env, in, VIEW_TYPED, DXGI_FORMAT_R32G32_UINT, 1, 16, 0, cpu_at(env, heap, 1));   /* byte 8 */
    make_uav(env, output, VIEW_TYPED, DXGI_FORMAT_R32_UINT, 3, 16, 0, cpu_at(env, heap, 2));  /* byte 12 */
    CHECK_NO_LOG();

    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &heap);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 0, gpu_at(env, heap, 0));
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_read_back(env->device, env->queue, output, out, sizeof(out));
    for (uint32_t i = 0; i < 16 && ok; i++)
        ok = out[3 + i] == (i + 1) + 100 * (2 * i + 3);
    CHECK_MSG(ok && !out[0] && !out[1] && !out[2] && !out[19], "typed views at elements 1, 1 and 3: out = {%u %u %u %u ...}",
            out[0], out[1], out[2], out[3]);
    CHECK_NO_LOG();

    harness_release_list(&list);
    ID3D12DescriptorHeap_Release(heap);
    ID3D12Resource_Release(in);
    ID3D12Resource_Release(output);
    ID3D12PipelineState_Release(state);
    ID3D12RootSignature_Release(signature);
}

/* ---- bad views ---- */

static void test_view_errors(struct env *env)
{
    D3D12_CONSTANT_BUFFER_VIEW_DESC cbv;
    D3D12_SHADER_RESOURCE_VIEW_DESC srv;
    D3D12_UNORDERED_ACCESS_VIEW_DESC uav;
    D3D12_CPU_DESCRIPTOR_HANDLE handle, bad_handle;
    char not_a_heap[256];
    ID3D12DescriptorHeap *heap = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4, false);
    ID3D12DescriptorHeap *samplers = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, 4, false);
    ID3D12Resource *cb = harness_create_buffer(env->device, D3D12_HEAP_TYPE_UPLOAD, 131072, D3D12_RESOURCE_STATE_GENERIC_READ);
    ID3D12Resource *plain = harness_create_buffer(env->device, D3D12_HEAP_TYPE_DEFAULT, 1024, D3D12_RESOURCE_STATE_COMMON);
    ID3D12Resource *rw = harness_uav_buffer(env->device, 1024);
    ID3D12Resource *counter = harness_uav_buffer(env->device, 8192);
    D3D12_GPU_VIRTUAL_ADDRESS va = ID3D12Resource_GetGPUVirtualAddress(cb);
    LOG_MARK();

    handle = cpu_at(env, heap, 1);

    /* CreateConstantBufferView: good ones first (the largest allowed size, at an offset). */
    cbv.BufferLocation = va + 65536;
    cbv.SizeInBytes = 65536;
    ID3D12Device_CreateConstantBufferView(env->device, &cbv, handle);
    cbv.BufferLocation = 0;
    cbv.SizeInBytes = 0;
    ID3D12Device_CreateConstantBufferView(env->device, &cbv, handle); /* BufferLocation 0: a null view */
    ID3D12Device_CreateConstantBufferView(env->device, NULL, handle);
    CHECK_NO_LOG();
    cbv.BufferLocation = va + 16;
    cbv.SizeInBytes = 256;
    ID3D12Device_CreateConstantBufferView(env->device, &cbv, handle);
    CHECK_LOG("CreateConstantBufferView", "BufferLocation", "256-byte aligned");
    RELOG_MARK();
    cbv.BufferLocation = va;
    cbv.SizeInBytes = 300;
    ID3D12Device_CreateConstantBufferView(env->device, &cbv, handle);
    CHECK_LOG("CreateConstantBufferView", "SizeInBytes 300", "multiple of 256");
    RELOG_MARK();
    cbv.SizeInBytes = 65536 + 256;
    ID3D12Device_CreateConstantBufferView(env->device, &cbv, handle);
    CHECK_LOG("CreateConstantBufferView", "SizeInBytes 65792", "65536");
    RELOG_MARK();
    cbv.BufferLocation = va + 131072 - 256;
    cbv.SizeInBytes = 512; /* runs past the end of the buffer */
    ID3D12Device_CreateConstantBufferView(env->device, &cbv, handle);
    CHECK_LOG("CreateConstantBufferView", "BufferLocation", "not inside one live buffer");
    RELOG_MARK();
    cbv.BufferLocation = 0x7ff00000000ull;
    cbv.SizeInBytes = 256;
    ID3D12Device_CreateConstantBufferView(env->device, &cbv, handle);
    CHECK_LOG("CreateConstantBufferView", "BufferLocation", "not inside one live buffer");
    RELOG_MARK();
    cbv.BufferLocation = va;
    bad_handle.ptr = (SIZE_T)not_a_heap;
    ID3D12Device_CreateConstantBufferView(env->device, &cbv, bad_handle);
    CHECK_LOG("CreateConstantBufferView", "DestDescriptor", "not inside a live descriptor heap");
    RELOG_MARK();
    ID3D12Device_CreateConstantBufferView(env->device, &cbv, cpu_at(env, samplers, 1));
    CHECK_LOG("CreateConstantBufferView", "DestDescriptor", "heap of another type");
    RELOG_MARK();
    bad_handle.ptr = handle.ptr + 1;
    ID3D12Device_CreateConstantBufferView(env->device, &cbv, bad_handle);
    CHECK_LOG("CreateConstantBufferView", "DestDescriptor", "descriptor boundary");
    RELOG_MARK();

    /* CreateShaderResourceView */
    ID3D12Device_CreateShaderResourceView(env->device, NULL, NULL, handle);
    CHECK_LOG("CreateShaderResourceView", "pResource and pDesc are both NULL");
    RELOG_MARK();
    srv = srv_desc(VIEW_TYPED, DXGI_FORMAT_R32_UINT, 0, 16, 0);
    srv.ViewDimension = D3D12_SRV_DIMENSION_TEXTURE2D;
    ID3D12Device_CreateShaderResourceView(env->device, plain, &srv, handle);
    CHECK_LOG("CreateShaderResourceView", "ViewDimension");
    RELOG_MARK();
    srv = srv_desc(VIEW_RAW, 0, 0, 16, 0);
    srv.Format = DXGI_FORMAT_R32_UINT;
    ID3D12Device_CreateShaderResourceView(env->device, plain, &srv, handle);
    CHECK_LOG("CreateShaderResourceView", "RAW", "R32_TYPELESS");
    RELOG_MARK();
    srv = srv_desc(VIEW_STRUCTURED, 0, 0, 16, 4);
    srv.Format = DXGI_FORMAT_R32_UINT;
    ID3D12Device_CreateShaderResourceView(env->device, plain, &srv, handle);
    CHECK_LOG("CreateShaderResourceView", "StructureByteStride 4", "Format UNKNOWN");
    RELOG_MARK();
    srv = srv_desc(VIEW_STRUCTURED, 0, 1, 256, 4); /* 257 elements of 4 bytes in 1024 */
    ID3D12Device_CreateShaderResourceView(env->device, plain, &srv, handle);
    CHECK_LOG("CreateShaderResourceView", "NumElements 256", "end of the 1024-byte buffer");
    RELOG_MARK();
    srv = srv_desc(VIEW_TYPED, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 65, 0);
    ID3D12Device_CreateShaderResourceView(env->device, plain, &srv, handle);
    CHECK_LOG("CreateShaderResourceView", "NumElements 65", "end of the 1024-byte buffer");
    RELOG_MARK();
    srv = srv_desc(VIEW_STRUCTURED, 0, 0, 256, 4);
    ID3D12Device_CreateShaderResourceView(env->device, plain, &srv, handle); /* exactly to the end: fine */
    CHECK_NO_LOG();

    /* CreateUnorderedAccessView */
    ID3D12Device_CreateUnorderedAccessView(env->device, NULL, NULL, NULL, handle);
    CHECK_LOG("CreateUnorderedAccessView", "pResource and pDesc are both NULL");
    RELOG_MARK();
    uav = uav_desc(VIEW_TYPED, DXGI_FORMAT_R32_UINT, 0, 16, 0);
    uav.ViewDimension = D3D12_UAV_DIMENSION_TEXTURE2D;
    ID3D12Device_CreateUnorderedAccessView(env->device, rw, NULL, &uav, handle);
    CHECK_LOG("CreateUnorderedAccessView", "ViewDimension");
    RELOG_MARK();
    uav = uav_desc(VIEW_RAW, 0, 0, 16, 0);
    uav.Format = DXGI_FORMAT_R32_FLOAT;
    ID3D12Device_CreateUnorderedAccessView(env->device, rw, NULL, &uav, handle);
    CHECK_LOG("CreateUnorderedAccessView", "RAW", "R32_TYPELESS");
    RELOG_MARK();
    uav = uav_desc(VIEW_STRUCTURED, 0, 0, 16, 4);
    uav.Format = DXGI_FORMAT_R32_UINT;
    ID3D12Device_CreateUnorderedAccessView(env->device, rw, NULL, &uav, handle);
    CHECK_LOG("CreateUnorderedAccessView", "Format UNKNOWN");
    RELOG_MARK();
    uav = uav_desc(VIEW_RAW, 0, 200, 57, 0);
    ID3D12Device_CreateUnorderedAccessView(env->device, rw, NULL, &uav, handle);
    CHECK_LOG("CreateUnorderedAccessView", "FirstElement 200", "end of the 1024-byte buffer");
    RELOG_MARK();
    uav = uav_desc(VIEW_RAW, 0, 0, 16, 0);
    ID3D12Device_CreateUnorderedAccessView(env->device, plain, NULL, &uav, handle);
    CHECK_LOG("CreateUnorderedAccessView", "pResource", "ALLOW_UNORDERED_ACCESS");
    RELOG_MARK();
    uav = uav_desc(VIEW_STRUCTURED, 0, 0, 16, 4);
    uav.Buffer.CounterOffsetInBytes = 4096;
    ID3D12Device_CreateUnorderedAccessView(env->device, rw, counter, &uav, handle); /* a good counter */
    CHECK_NO_LOG();
    uav.Buffer.CounterOffsetInBytes = 64;
    ID3D12Device_CreateUnorderedAccessView(env->device, rw, counter, &uav, handle);
    CHECK_LOG("CreateUnorderedAccessView", "CounterOffsetInBytes 64", "multiple of 4096");
    RELOG_MARK();
    uav.Buffer.CounterOffsetInBytes = 8192; /* past the 8192-byte counter buffer */
    ID3D12Device_CreateUnorderedAccessView(env->device, rw, counter, &uav, handle);
    CHECK_LOG("CreateUnorderedAccessView", "CounterOffsetInBytes 8192");
    RELOG_MARK();
    uav = uav_desc(VIEW_RAW, 0, 0, 16, 0);
    ID3D12Device_CreateUnorderedAccessView(env->device, rw, counter, &uav, handle);
    CHECK_LOG("CreateUnorderedAccessView", "pCounterResource", "structured");
    RELOG_MARK();
    uav = uav_desc(VIEW_TYPED, DXGI_FORMAT_R32_UINT, 0, 16, 0);
    ID3D12Device_CreateUnorderedAccessView(env->device, rw, counter, &uav, handle);
    CHECK_LOG("CreateUnorderedAccessView", "pCounterResource", "structured");
    RELOG_MARK();
    uav = uav_desc(VIEW_STRUCTURED, 0, 0, 16, 4);
    uav.Buffer.CounterOffsetInBytes = 4096;
    ID3D12Device_CreateUnorderedAccessView(env->device, rw, NULL, &uav, handle);
    CHECK_LOG("CreateUnorderedAccessView", "CounterOffsetInBytes", "without pCounterResource");
    RELOG_MARK();
    uav = uav_desc(VIEW_RAW, 0, 0, 16, 0);
    ID3D12Device_CreateUnorderedAccessView(env->device, rw, NULL, &uav, cpu_at(env, samplers, 0));
    CHECK_LOG("CreateUnorderedAccessView", "DestDescriptor", "heap of another type");
    RELOG_MARK();

    ID3D12Resource_Release(counter);
    ID3D12Resource_Release(rw);
    ID3D12Resource_Release(plain);
    ID3D12Resource_Release(cb);
    ID3D12DescriptorHeap_Release(samplers);
    ID3D12DescriptorHeap_Release(heap);

    /* A released heap's handles are no longer valid destinations. */
    srv = srv_desc(VIEW_RAW, 0, 0, 16, 0);
    ID3D12Device_CreateShaderResourceView(env->device, NULL, &srv, handle);
    CHECK_LOG("CreateShaderResourceView", "DestDescriptor", "not inside a live descriptor heap");
}

/* ---- samplers ---- */

static D3D12_SAMPLER_DESC sampler_desc(D3D12_FILTER filter, D3D12_TEXTURE_ADDRESS_MODE mode)
{
    D3D12_SAMPLER_DESC desc;
    memset(&desc, 0, sizeof(desc));
    desc.Filter = filter;
    desc.AddressU = desc.AddressV = desc.AddressW = mode;
    desc.MaxAnisotropy = 1;
    desc.ComparisonFunc = D3D12_COMPARISON_FUNC_NEVER;
    desc.MinLOD = 0.0f;
    desc.MaxLOD = D3D12_FLOAT32_MAX;
    return desc;
}

static void test_samplers(struct env *env)
{
    static const char source[] =
        "SamplerState table_sampler : register(s0);\n"
        "SamplerState static_sampler : register(s1);\n"
        "RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(1, 1, 1)]\n"
        "void main() { output.Store(0, 42); }\n";
    D3D12_DESCRIPTOR_RANGE1 uav_range = range(D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 1, 0, 0);
    D3D12_DESCRIPTOR_RANGE1 sampler_range = range(D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER, 1, 0, 0);
    D3D12_ROOT_PARAMETER1 parameters[2] = {table_parameter(&uav_range, 1), table_parameter(&sampler_range, 1)};
    D3D12_STATIC_SAMPLER_DESC static_sampler;
    D3D12_SAMPLER_DESC desc;
    uint32_t result = 0;
    ID3D12DescriptorHeap *heaps[2];
    LOG_MARK();

    ID3D12DescriptorHeap *staging = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, 8, false);
    ID3D12DescriptorHeap *visible = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, 4, true);
    ID3D12DescriptorHeap *views = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 2, true);

    desc = sampler_desc(D3D12_FILTER_MIN_MAG_MIP_POINT, D3D12_TEXTURE_ADDRESS_MODE_WRAP);
    ID3D12Device_CreateSampler(env->device, &desc, cpu_at(env, staging, 0));
    desc = sampler_desc(D3D12_FILTER_MIN_MAG_MIP_LINEAR, D3D12_TEXTURE_ADDRESS_MODE_CLAMP);
    desc.MipLODBias = -1.0f;
    desc.MinLOD = 1.0f;
    desc.MaxLOD = 4.0f;
    ID3D12Device_CreateSampler(env->device, &desc, cpu_at(env, staging, 1));
    desc = sampler_desc(D3D12_FILTER_ANISOTROPIC, D3D12_TEXTURE_ADDRESS_MODE_BORDER);
    desc.MaxAnisotropy = 16;
    desc.BorderColor[0] = desc.BorderColor[1] = desc.BorderColor[2] = desc.BorderColor[3] = 1.0f;
    ID3D12Device_CreateSampler(env->device, &desc, cpu_at(env, staging, 2));
    desc = sampler_desc(D3D12_FILTER_COMPARISON_MIN_MAG_LINEAR_MIP_POINT, D3D12_TEXTURE_ADDRESS_MODE_MIRROR);
    desc.ComparisonFunc = D3D12_COMPARISON_FUNC_LESS_EQUAL;
    ID3D12Device_CreateSampler(env->device, &desc, cpu_at(env, staging, 3));
    desc = sampler_desc(D3D12_FILTER_MINIMUM_MIN_MAG_MIP_POINT, D3D12_TEXTURE_ADDRESS_MODE_MIRROR_ONCE);
    ID3D12Device_CreateSampler(env->device, &desc, cpu_at(env, staging, 4));
    desc = sampler_desc(D3D12_FILTER_MIN_MAG_MIP_POINT, D3D12_TEXTURE_ADDRESS_MODE_WRAP);
    ID3D12Device_CreateSampler(env->device, &desc, cpu_at(env, visible, 3)); /* the same desc again, straight into the visible heap */
    CHECK_NO_LOG();

    /* Bad samplers */
    desc = sampler_desc((D3D12_FILTER)0x2, D3D12_TEXTURE_ADDRESS_MODE_WRAP);
    ID3D12Device_CreateSampler(env->device, &desc, cpu_at(env, staging, 5));
    CHECK_LOG("CreateSampler", "Filter 0x2");
    RELOG_MARK();
    desc = sampler_desc((D3D12_FILTER)0x41, D3D12_TEXTURE_ADDRESS_MODE_WRAP); /* anisotropic bit without linear min/mag */
    ID3D12Device_CreateSampler(env->device, &desc, cpu_at(env, staging, 5));
    CHECK_LOG("CreateSampler", "Filter 0x41");
    RELOG_MARK();
    desc = sampler_desc(D3D12_FILTER_MIN_MAG_MIP_POINT, (D3D12_TEXTURE_ADDRESS_MODE)0);
    ID3D12Device_CreateSampler(env->device, &desc, cpu_at(env, staging, 5));
    CHECK_LOG("CreateSampler", "AddressU/V/W");
    RELOG_MARK();
    desc = sampler_desc(D3D12_FILTER_MIN_MAG_MIP_POINT, D3D12_TEXTURE_ADDRESS_MODE_WRAP);
    desc.AddressW = (D3D12_TEXTURE_ADDRESS_MODE)6;
    ID3D12Device_CreateSampler(env->device, &desc, cpu_at(env, staging, 5));
    CHECK_LOG("CreateSampler", "AddressU/V/W");
    RELOG_MARK();
    desc = sampler_desc(D3D12_FILTER_MIN_MAG_MIP_LINEAR, D3D12_TEXTURE_ADDRESS_MODE_WRAP);
    desc.MinLOD = 2.0f;
    desc.MaxLOD = 1.0f;
    ID3D12Device_CreateSampler(env->device, &desc, cpu_at(env, staging, 5));
    CHECK_LOG("CreateSampler", "MinLOD 2", "MaxLOD 1");
    RELOG_MARK();
    desc = sampler_desc(D3D12_FILTER_ANISOTROPIC, D3D12_TEXTURE_ADDRESS_MODE_WRAP);
    desc.MaxAnisotropy = 0;
    ID3D12Device_CreateSampler(env->device, &desc, cpu_at(env, staging, 5));
    CHECK_LOG("CreateSampler", "MaxAnisotropy is 0");
    RELOG_MARK();
    desc.MaxAnisotropy = 17;
    ID3D12Device_CreateSampler(env->device, &desc, cpu_at(env, staging, 5));
    CHECK_LOG("CreateSampler", "MaxAnisotropy is 17");
    RELOG_MARK();
    desc = sampler_desc(D3D12_FILTER_COMPARISON_MIN_MAG_MIP_POINT, D3D12_TEXTURE_ADDRESS_MODE_WRAP);
    desc.ComparisonFunc = (D3D12_COMPARISON_FUNC)0;
    ID3D12Device_CreateSampler(env->device, &desc, cpu_at(env, staging, 5));
    CHECK_LOG("CreateSampler", "ComparisonFunc is 0");
    RELOG_MARK();
    ID3D12Device_CreateSampler(env->device, NULL, cpu_at(env, staging, 5));
    CHECK_LOG("CreateSampler", "pDesc is NULL");
    RELOG_MARK();
    desc = sampler_desc(D3D12_FILTER_MIN_MAG_MIP_POINT, D3D12_TEXTURE_ADDRESS_MODE_WRAP);
    ID3D12Device_CreateSampler(env->device, &desc, cpu_at(env, views, 0));
    CHECK_LOG("CreateSampler", "DestDescriptor", "heap of another type");
    RELOG_MARK();

    /* A shader declaring a table sampler (s0) and a static sampler (s1), with a root signature
     * holding a sampler table and a static sampler. D3DCompile's HLSL legalization drops samplers
     * that no texture sample uses, and texture views are not implemented, so what a sampler does
     * cannot be observed in a compute shader here: the pipeline must build and dispatch with
     * both heaps bound and the sampler table set. */
    memset(&static_sampler, 0, sizeof(static_sampler));
    static_sampler.Filter = D3D12_FILTER_MIN_MAG_MIP_LINEAR;
    static_sampler.AddressU = static_sampler.AddressV = static_sampler.AddressW = D3D12_TEXTURE_ADDRESS_MODE_CLAMP;
    static_sampler.MaxLOD = D3D12_FLOAT32_MAX;
    static_sampler.ShaderRegister = 1;
    static_sampler.ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
    ID3D12RootSignature *signature = root_signature(env->device, parameters, 2, &static_sampler, 1);
    ID3DBlob *code = harness_compile(source, D3DCOMPILE_SKIP_OPTIMIZATION);
    ID3D12PipelineState *state = harness_compute_pipeline(env->device, signature, code);
    ID3D10Blob_Release(code);
    CHECK_NO_LOG();

    ID3D12Resource *output = harness_uav_buffer(env->device, 256);
    make_uav(env, output, VIEW_RAW, 0, 0, 64, 0, cpu_at(env, views, 1));
    ID3D12Device_CopyDescriptorsSimple(env->device, 2, cpu_at(env, visible, 1), cpu_at(env, staging, 1), D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
    CHECK_NO_LOG();

    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    heaps[0] = visible, heaps[1] = views; /* either order */
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 2, heaps);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 0, gpu_at(env, views, 1));
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 1, gpu_at(env, visible, 2));
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_read_back(env->device, env->queue, output, &result, sizeof(result));
    CHECK_MSG(result == 42, "dispatch with a sampler table wrote %u, expected 42", result);
    CHECK_NO_LOG();

    harness_release_list(&list);
    ID3D12Resource_Release(output);
    ID3D12PipelineState_Release(state);
    ID3D12RootSignature_Release(signature);
    ID3D12DescriptorHeap_Release(views);
    ID3D12DescriptorHeap_Release(visible);
    ID3D12DescriptorHeap_Release(staging);
}

/* ---- CopyDescriptors / CopyDescriptorsSimple ---- */

static void test_copies(struct env *env)
{
    static const char source[] =
        "ByteAddressBuffer a : register(t0);\n"
        "ByteAddressBuffer b : register(t1);\n"
        "ByteAddressBuffer c : register(t2);\n"
        "ByteAddressBuffer d : register(t3);\n"
        "RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(16, 1, 1)]\n"
        "void main(uint3 id : SV_DispatchThreadID)\n"
        "{\n"
        "    uint o = id.x * 4;\n"
        "    output.Store(o, a.Load(o) + 10 * b.Load(o) + 100 * c.Load(o) + 1000 * d.Load(o));\n"
        "}\n";
    D3D12_DESCRIPTOR_RANGE1 ranges[2] = {range(D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 4, 0, 0),
            range(D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 1, 0, D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND)};
    D3D12_ROOT_PARAMETER1 parameter = table_parameter(ranges, 2);
    D3D12_CPU_DESCRIPTOR_HANDLE dst[5], src[5];
    UINT dst_sizes[5], src_sizes[5];
    uint32_t data[16], out[16];
    ID3D12Resource *inputs[4], *outputs[4];
    static const uint32_t expected[4] = {4321, 4123, 4321, 1234};
    LOG_MARK();

    ID3D12RootSignature *signature = root_signature(env->device, &parameter, 1, NULL, 0);
    ID3DBlob *code = harness_compile(source, 0);
    ID3D12PipelineState *state = harness_compute_pipeline(env->device, signature, code);
    ID3D10Blob_Release(code);
    for (uint32_t i = 0; i < 4; i++) {
        for (uint32_t j = 0; j < 16; j++)
            data[j] = i + 1;
        inputs[i] = upload_buffer(env->device, data, sizeof(data));
        outputs[i] = harness_uav_buffer(env->device, sizeof(data));
    }
    ID3D12DescriptorHeap *staging = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 20, false);
    ID3D12DescriptorHeap *visible = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 32, true);
    ID3D12DescriptorHeap *samplers = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, 4, false);
#define A inputs[0]
#define B inputs[1]
#define C inputs[2]
#define D inputs[3]
    /* staging: 0 out0, 1 d, 2 a, 3 b, 4 c, 5 out1, 8..12 a b c d out2, 13..17 d c b a out3 */
    make_uav(env, outputs[0], VIEW_RAW, 0, 0, 16, 0, cpu_at(env, staging, 0));
    make_srv(env, D, VIEW_RAW, 0, 0, 16, 0, cpu_at(env, staging, 1));
    make_srv(env, A, VIEW_RAW, 0, 0, 16, 0, cpu_at(env, staging, 2));
    make_srv(env, B, VIEW_RAW, 0, 0, 16, 0, cpu_at(env, staging, 3));
    make_srv(env, C, VIEW_RAW, 0, 0, 16, 0, cpu_at(env, staging, 4));
    make_uav(env, outputs[1], VIEW_RAW, 0, 0, 16, 0, cpu_at(env, staging, 5));
    make_srv(env, A, VIEW_RAW, 0, 0, 16, 0, cpu_at(env, staging, 8));
    make_srv(env, B, VIEW_RAW, 0, 0, 16, 0, cpu_at(env, staging, 9));
    make_srv(env, C, VIEW_RAW, 0, 0, 16, 0, cpu_at(env, staging, 10));
    make_srv(env, D, VIEW_RAW, 0, 0, 16, 0, cpu_at(env, staging, 11));
    make_uav(env, outputs[2], VIEW_RAW, 0, 0, 16, 0, cpu_at(env, staging, 12));
    make_srv(env, D, VIEW_RAW, 0, 0, 16, 0, cpu_at(env, staging, 13));
    make_srv(env, C, VIEW_RAW, 0, 0, 16, 0, cpu_at(env, staging, 14));
    make_srv(env, B, VIEW_RAW, 0, 0, 16, 0, cpu_at(env, staging, 15));
    make_srv(env, A, VIEW_RAW, 0, 0, 16, 0, cpu_at(env, staging, 16));
    make_uav(env, outputs[3], VIEW_RAW, 0, 0, 16, 0, cpu_at(env, staging, 17));
#undef A
#undef B
#undef C
#undef D
    CHECK_NO_LOG();

    /* Table 1 at visible 1: destination ranges of 3 and 2, source ranges of 1, 2, 1, 1. */
    dst[0] = cpu_at(env, visible, 1), dst_sizes[0] = 3;
    dst[1] = cpu_at(env, visible, 4), dst_sizes[1] = 2;
    src[0] = cpu_at(env, staging, 2), src_sizes[0] = 1;
    src[1] = cpu_at(env, staging, 3), src_sizes[1] = 2;
    src[2] = cpu_at(env, staging, 1), src_sizes[2] = 1;
    src[3] = cpu_at(env, staging, 0), src_sizes[3] = 1;
    ID3D12Device_CopyDescriptors(env->device, 2, dst, dst_sizes, 4, src, src_sizes, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    /* Table 2 at visible 8: one destination range of 5, five sources of 1 each (NULL sizes). */
    dst[0] = cpu_at(env, visible, 8), dst_sizes[0] = 5;
    src[0] = cpu_at(env, staging, 4);
    src[1] = cpu_at(env, staging, 3);
    src[2] = cpu_at(env, staging, 2);
    src[3] = cpu_at(env, staging, 1);
    src[4] = cpu_at(env, staging, 5);
    ID3D12Device_CopyDescriptors(env->device, 1, dst, dst_sizes, 5, src, NULL, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    /* Table 3 at visible 16: CopyDescriptorsSimple. */
    ID3D12Device_CopyDescriptorsSimple(env->device, 5, cpu_at(env, visible, 16), cpu_at(env, staging, 8), D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    /* Table 4 at visible 24: five destinations of 1 each (NULL sizes), one source range of 5. */
    for (UINT i = 0; i < 5; i++)
        dst[i] = cpu_at(env, visible, 24 + i);
    src[0] = cpu_at(env, staging, 13), src_sizes[0] = 5;
    ID3D12Device_CopyDescriptors(env->device, 5, dst, NULL, 1, src, src_sizes, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    /* Zero ranges copy nothing. */
    ID3D12Device_CopyDescriptors(env->device, 0, NULL, NULL, 0, NULL, NULL, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    CHECK_NO_LOG();
    /* Copies are by value: rewriting a source afterwards changes nothing already copied. */
    make_srv(env, inputs[3], VIEW_RAW, 0, 0, 16, 0, cpu_at(env, staging, 2));
    make_srv(env, inputs[3], VIEW_RAW, 0, 0, 16, 0, cpu_at(env, staging, 8));
    CHECK_NO_LOG();

    /* Bad copies change nothing (each would break one of the tables above). */
    dst[0] = cpu_at(env, visible, 1), dst_sizes[0] = 2;
    src[0] = cpu_at(env, staging, 13), src_sizes[0] = 3;
    ID3D12Device_CopyDescriptors(env->device, 1, dst, dst_sizes, 1, src, src_sizes, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    CHECK_LOG("CopyDescriptors", "2 descriptors", "3", "must match");
    RELOG_MARK();
    ID3D12Device_CopyDescriptors(env->device, 2, dst, NULL, 1, src, NULL, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    CHECK_LOG("CopyDescriptors", "must match");
    RELOG_MARK();
    ID3D12Device_CopyDescriptorsSimple(env->device, 3, cpu_at(env, visible, 30), cpu_at(env, staging, 13), D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    CHECK_LOG("CopyDescriptorsSimple", "DestDescriptorRangeStart", "end of its heap");
    RELOG_MARK();
    ID3D12Device_CopyDescriptorsSimple(env->device, 3, cpu_at(env, visible, 8), cpu_at(env, staging, 18), D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    CHECK_LOG("CopyDescriptorsSimple", "SrcDescriptorRangeStart", "end of its heap");
    RELOG_MARK();
    ID3D12Device_CopyDescriptorsSimple(env->device, 1, cpu_at(env, visible, 1), cpu_at(env, staging, 13), D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
    CHECK_LOG("CopyDescriptorsSimple", "heap of another type");
    RELOG_MARK();
    ID3D12Device_CopyDescriptorsSimple(env->device, 1, cpu_at(env, visible, 1), cpu_at(env, samplers, 0), D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    CHECK_LOG("CopyDescriptorsSimple", "SrcDescriptorRangeStart", "heap of another type");
    RELOG_MARK();
    ID3D12Device_CopyDescriptorsSimple(env->device, 1, cpu_at(env, visible, 1), cpu_at(env, staging, 13), D3D12_DESCRIPTOR_HEAP_TYPE_RTV);
    CHECK_LOG("CopyDescriptorsSimple", "heap of another type"); /* RTV copies exist: test_windows_corners.c */
    RELOG_MARK();
    ID3D12Device_CopyDescriptorsSimple(env->device, 1, cpu_at(env, visible, 1), cpu_at(env, staging, 13), (D3D12_DESCRIPTOR_HEAP_TYPE)7);
    CHECK_LOG("CopyDescriptorsSimple", "DescriptorHeapsType is 7");
    RELOG_MARK();
    ID3D12Device_CopyDescriptors(env->device, 1, NULL, NULL, 1, src, NULL, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    CHECK_LOG("CopyDescriptors", "pDestDescriptorRangeStarts is NULL");
    RELOG_MARK();

    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &visible);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    for (UINT t = 0; t < 4; t++) {
        static const UINT starts[4] = {1, 8, 16, 24};
        ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 0, gpu_at(env, visible, starts[t]));
        ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    }
    harness_execute_and_wait(env->device, env->queue, &list);
    for (UINT t = 0; t < 4; t++) {
        bool ok = true;
        harness_read_back(env->device, env->queue, outputs[t], out, sizeof(out));
        for (UINT i = 0; i < 16 && ok; i++)
            ok = out[i] == expected[t];
        CHECK_MSG(ok, "table %u built by copies: out[0] = %u, expected %u", t, out[0], expected[t]);
    }
    CHECK_NO_LOG();

    harness_release_list(&list);
    for (UINT i = 0; i < 4; i++) {
        ID3D12Resource_Release(inputs[i]);
        ID3D12Resource_Release(outputs[i]);
    }
    ID3D12DescriptorHeap_Release(samplers);
    ID3D12DescriptorHeap_Release(visible);
    ID3D12DescriptorHeap_Release(staging);
    ID3D12PipelineState_Release(state);
    ID3D12RootSignature_Release(signature);
}

/* ---- ClearUnorderedAccessViewUint / Float ---- */

/* Writes the UAV at index in both heaps: CPU handle from the non-visible one, GPU from the visible one. */
static void clear_view(struct env *env, ID3D12DescriptorHeap *cpu_heap, ID3D12DescriptorHeap *gpu_heap, UINT index,
        ID3D12Resource *resource, enum view_kind kind, DXGI_FORMAT format, UINT64 first, UINT count, UINT stride)
{
    make_uav(env, resource, kind, format, first, count, stride, cpu_at(env, cpu_heap, index));
    make_uav(env, resource, kind, format, first, count, stride, cpu_at(env, gpu_heap, index));
}

static void test_clears(struct env *env)
{
    static const char source[] =
        "RWByteAddressBuffer src : register(u0);\n"
        "RWByteAddressBuffer dst : register(u1);\n"
        "[numthreads(64, 1, 1)]\n"
        "void main(uint3 id : SV_DispatchThreadID) { dst.Store(id.x * 4, src.Load(id.x * 4) + id.x); }\n";
    static const UINT zero[4] = {0, 0, 0, 0}, ones[4] = {0x11111111, 2, 3, 4}, dead[4] = {0xdeadbeef, 0, 0, 0};
    static const UINT seven[4] = {7, 8, 9, 10}, pi_bits[4] = {0x40490fdb, 0, 0, 0}, five[4] = {5, 5, 5, 5}, nine[4] = {9, 0, 0, 0};
    static const FLOAT one_half[4] = {1.5f, 2.0f, 3.0f, 4.0f}, minus_two[4] = {-2.0f, 0, 0, 0}, one[4] = {1.0f, 0, 0, 0};
    D3D12_DESCRIPTOR_RANGE1 uav_range = range(D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 2, 0, 0);
    D3D12_ROOT_PARAMETER1 parameter = table_parameter(&uav_range, 1);
    D3D12_RESOURCE_BARRIER barrier;
    D3D12_RECT rect = {0, 0, 1, 1};
    D3D12_CPU_DESCRIPTOR_HANDLE bad_handle;
    uint32_t out[64], bits;
    float f;
    bool ok;
    LOG_MARK();

    ID3D12DescriptorHeap *cpu_heap = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 16, false);
    ID3D12DescriptorHeap *gpu_heap = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 16, true);
    ID3D12Resource *buffers[8];
    for (UINT i = 0; i < 8; i++)
        buffers[i] = harness_uav_buffer(env->device, 256);
    /* 0 raw A, 1 raw B (whole), 2 structured B (elements 2..5 of 8 bytes), 3 R32_UINT C, 4 R32_FLOAT D, 5 R32_FLOAT E,
     * 6 structured F (stride 4), 7 raw G */
    clear_view(env, cpu_heap, gpu_heap, 0, buffers[0], VIEW_RAW, 0, 0, 64, 0);
    clear_view(env, cpu_heap, gpu_heap, 1, buffers[1], VIEW_RAW, 0, 0, 64, 0);
    clear_view(env, cpu_heap, gpu_heap, 2, buffers[1], VIEW_STRUCTURED, 0, 2, 4, 8);
    clear_view(env, cpu_heap, gpu_heap, 3, buffers[2], VIEW_TYPED, DXGI_FORMAT_R32_UINT, 0, 64, 0);
    clear_view(env, cpu_heap, gpu_heap, 4, buffers[3], VIEW_TYPED, DXGI_FORMAT_R32_FLOAT, 0, 64, 0);
    clear_view(env, cpu_heap, gpu_heap, 5, buffers[4], VIEW_TYPED, DXGI_FORMAT_R32_FLOAT, 0, 64, 0);
    clear_view(env, cpu_heap, gpu_heap, 6, buffers[5], VIEW_STRUCTURED, 0, 0, 64, 4);
    clear_view(env, cpu_heap, gpu_heap, 7, buffers[6], VIEW_RAW, 0, 0, 64, 0);
    CHECK_NO_LOG();

    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
#define CLEAR_UINT(index, resource, values) ID3D12GraphicsCommandList2_ClearUnorderedAccessViewUint(list.list, \
        gpu_at(env, gpu_heap, index), cpu_at(env, cpu_heap, index), resource, values, 0, NULL)
#define CLEAR_FLOAT(index, resource, values) ID3D12GraphicsCommandList2_ClearUnorderedAccessViewFloat(list.list, \
        gpu_at(env, gpu_heap, index), cpu_at(env, cpu_heap, index), resource, values, 0, NULL)
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &gpu_heap);
    CLEAR_UINT(0, buffers[0], dead);
    CLEAR_UINT(1, buffers[1], zero);
    barrier = uav_barrier(buffers[1]);
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    CLEAR_UINT(2, buffers[1], ones); /* after the whole-buffer clear: only bytes 16..47 */
    CLEAR_UINT(3, buffers[2], seven);
    CLEAR_FLOAT(4, buffers[3], one_half);
    CLEAR_UINT(5, buffers[4], pi_bits); /* Uint on a float view copies the bits */
    CLEAR_FLOAT(6, buffers[5], minus_two);
    CLEAR_FLOAT(7, buffers[6], one);
    harness_execute_and_wait(env->device, env->queue, &list);
    CHECK_NO_LOG();

    harness_read_back(env->device, env->queue, buffers[0], out, sizeof(out));
    for (ok = true, bits = 0; bits < 64 && ok; bits++)
        ok = out[bits] == 0xdeadbeef;
    CHECK_MSG(ok, "Uint clear of a raw view: [%u] = 0x%x", bits - 1, out[bits - 1]);
    harness_read_back(env->device, env->queue, buffers[1], out, sizeof(out));
    for (ok = true, bits = 0; bits < 64 && ok; bits++)
        ok = out[bits] == (bits >= 4 && bits < 12 ? 0x11111111u : 0u);
    CHECK_MSG(ok, "Uint clear of a structured view (elements 2..5, stride 8): [%u] = 0x%x", bits - 1, out[bits - 1]);
    harness_read_back(env->device, env->queue, buffers[2], out, sizeof(out));
    for (ok = true, bits = 0; bits < 64 && ok; bits++)
        ok = out[bits] == 7;
    CHECK_MSG(ok, "Uint clear of an R32_UINT view: [%u] = %u", bits - 1, out[bits - 1]);
    harness_read_back(env->device, env->queue, buffers[3], out, sizeof(out));
    for (ok = true, bits = 0; bits < 64 && ok; bits++)
        memcpy(&f, &out[bits], 4), ok = f == 1.5f;
    CHECK_MSG(ok, "Float clear of an R32_FLOAT view: [%u] = %g", bits - 1, f);
    harness_read_back(env->device, env->queue, buffers[4], out, sizeof(out));
    for (ok = true, bits = 0; bits < 64 && ok; bits++)
        ok = out[bits] == 0x40490fdb;
    CHECK_MSG(ok, "Uint clear of an R32_FLOAT view: [%u] = 0x%x", bits - 1, out[bits - 1]);
    harness_read_back(env->device, env->queue, buffers[5], out, sizeof(out));
    for (ok = true, bits = 0; bits < 64 && ok; bits++)
        memcpy(&f, &out[bits], 4), ok = f == -2.0f;
    CHECK_MSG(ok, "Float clear of a structured view: [%u] = %g", bits - 1, f);
    harness_read_back(env->device, env->queue, buffers[6], out, sizeof(out));
    for (ok = true, bits = 0; bits < 64 && ok; bits++)
        ok = out[bits] == 0x3f800000;
    CHECK_MSG(ok, "Float clear of a raw view: [%u] = 0x%x", bits - 1, out[bits - 1]);

    /* Order: clear, barrier, dispatch reads the cleared data, barrier, clear again. */
    ID3D12RootSignature *signature = root_signature(env->device, &parameter, 1, NULL, 0);
    ID3DBlob *code = harness_compile(source, 0);
    ID3D12PipelineState *state = harness_compute_pipeline(env->device, signature, code);
    ID3D10Blob_Release(code);
    make_uav(env, buffers[0], VIEW_RAW, 0, 0, 64, 0, cpu_at(env, gpu_heap, 8));
    make_uav(env, buffers[7], VIEW_RAW, 0, 0, 64, 0, cpu_at(env, gpu_heap, 9));
    CHECK_HR(ID3D12GraphicsCommandList2_Reset(list.list, list.allocator, state), S_OK);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &gpu_heap);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 0, gpu_at(env, gpu_heap, 8));
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1); /* dst = 0xdeadbeef + i, overwritten below */
    barrier = uav_barrier(NULL);
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    CLEAR_UINT(0, buffers[0], five);
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1); /* dst = 5 + i */
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    CLEAR_UINT(0, buffers[0], nine);
    harness_execute_and_wait(env->device, env->queue, &list);
    harness_read_back(env->device, env->queue, buffers[7], out, sizeof(out));
    for (ok = true, bits = 0; bits < 64 && ok; bits++)
        ok = out[bits] == 5 + bits;
    CHECK_MSG(ok, "dispatch after clear: [%u] = %u, expected %u", bits - 1, out[bits - 1], bits + 4);
    harness_read_back(env->device, env->queue, buffers[0], out, sizeof(out));
    for (ok = true, bits = 0; bits < 64 && ok; bits++)
        ok = out[bits] == 9;
    CHECK_MSG(ok, "clear after dispatch: [%u] = %u, expected 9", bits - 1, out[bits - 1]);
    CHECK_NO_LOG();

    /* Bad clears: one recording error each, then Close fails. */
    CHECK_HR(ID3D12GraphicsCommandList2_Reset(list.list, list.allocator, NULL), S_OK);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &gpu_heap);
    make_uav(env, NULL, VIEW_RAW, 0, 0, 64, 0, cpu_at(env, cpu_heap, 12));
    make_srv(env, buffers[6], VIEW_RAW, 0, 0, 64, 0, cpu_at(env, cpu_heap, 13));
    CHECK_NO_LOG();
    ID3D12GraphicsCommandList2_ClearUnorderedAccessViewUint(list.list, gpu_at(env, gpu_heap, 0), cpu_at(env, cpu_heap, 0), buffers[0],
            seven, 1, &rect);
    CHECK_LOG("ClearUnorderedAccessViewUint", "NumRects is 1");
    RELOG_MARK();
    CLOSE_FAILS(&list, "ClearUnorderedAccessViewUint");
    CLEAR_UINT(0, buffers[1], seven);
    CHECK_LOG("ClearUnorderedAccessViewUint", "pResource", "not the resource the view describes");
    RELOG_MARK();
    CLOSE_FAILS(&list, "ClearUnorderedAccessViewUint");
    CLEAR_FLOAT(0, NULL, one);
    CHECK_LOG("ClearUnorderedAccessViewFloat", "pResource");
    RELOG_MARK();
    CLOSE_FAILS(&list, "ClearUnorderedAccessViewFloat");
    bad_handle.ptr = (SIZE_T)&barrier;
    ID3D12GraphicsCommandList2_ClearUnorderedAccessViewUint(list.list, gpu_at(env, gpu_heap, 0), bad_handle, buffers[0], seven, 0, NULL);
    CHECK_LOG("ClearUnorderedAccessViewUint", "ViewCPUHandle");
    RELOG_MARK();
    CLOSE_FAILS(&list, "ClearUnorderedAccessViewUint");
    CLEAR_UINT(0, buffers[0], NULL);
    CHECK_LOG("ClearUnorderedAccessViewUint", "Values is NULL");
    RELOG_MARK();
    CLOSE_FAILS(&list, "ClearUnorderedAccessViewUint");
    CLEAR_FLOAT(0, buffers[0], NULL);
    CHECK_LOG("ClearUnorderedAccessViewFloat", "Values is NULL");
    RELOG_MARK();
    CLOSE_FAILS(&list, "ClearUnorderedAccessViewFloat");
    CLEAR_UINT(12, buffers[0], seven);
    CHECK_LOG("ClearUnorderedAccessViewUint", "ViewCPUHandle", "null view");
    RELOG_MARK();
    CLOSE_FAILS(&list, "ClearUnorderedAccessViewUint");
    CLEAR_UINT(13, buffers[6], seven);
    CHECK_LOG("ClearUnorderedAccessViewUint", "ViewCPUHandle", "an SRV");
    RELOG_MARK();
    CLOSE_FAILS(&list, "ClearUnorderedAccessViewUint");
    CHECK_HR(ID3D12GraphicsCommandList2_Close(list.list), S_OK);
#undef CLEAR_UINT
#undef CLEAR_FLOAT

    harness_release_list(&list);
    for (UINT i = 0; i < 8; i++)
        ID3D12Resource_Release(buffers[i]);
    ID3D12PipelineState_Release(state);
    ID3D12RootSignature_Release(signature);
    ID3D12DescriptorHeap_Release(gpu_heap);
    ID3D12DescriptorHeap_Release(cpu_heap);
}

/* ---- descriptor resolution errors at Dispatch, SetDescriptorHeaps errors ---- */

static void test_dispatch_errors(struct env *env)
{
    static const char source[] =
        "ByteAddressBuffer input : register(t0);\n"
        "RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(1, 1, 1)] void main() { output.Store(0, input.Load(0)); }\n";
    D3D12_DESCRIPTOR_RANGE1 ranges[2] = {range(D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 1, 0, 0), range(D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 1, 0, 1)};
    D3D12_ROOT_PARAMETER1 parameter = table_parameter(ranges, 2);
    ID3D12DescriptorHeap *set[3];
    LOG_MARK();

    ID3D12RootSignature *signature = root_signature(env->device, &parameter, 1, NULL, 0);
    ID3DBlob *code = harness_compile(source, 0);
    ID3D12PipelineState *state = harness_compute_pipeline(env->device, signature, code);
    ID3D10Blob_Release(code);
    ID3D12DescriptorHeap *heap = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 8, true);
    ID3D12DescriptorHeap *other = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 8, true);
    ID3D12DescriptorHeap *hidden = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 8, false);
    ID3D12DescriptorHeap *samplers = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, 8, true);
    ID3D12Resource *input = harness_uav_buffer(env->device, 256), *output = harness_uav_buffer(env->device, 256);
    /* 0: t0, 1: u0 (good table at 0); 7: t0 of a table whose u0 would be past the heap end */
    make_srv(env, input, VIEW_RAW, 0, 0, 64, 0, cpu_at(env, heap, 0));
    make_uav(env, output, VIEW_RAW, 0, 0, 64, 0, cpu_at(env, heap, 1));
    make_uav(env, output, VIEW_RAW, 0, 0, 64, 0, cpu_at(env, heap, 4));
    make_uav(env, input, VIEW_RAW, 0, 0, 64, 0, cpu_at(env, heap, 5));
    make_uav(env, output, VIEW_RAW, 0, 0, 64, 0, cpu_at(env, heap, 6));
    make_srv(env, input, VIEW_RAW, 0, 0, 64, 0, cpu_at(env, heap, 7));
    CHECK_NO_LOG();

    /* What a table's descriptors hold is read when the dispatch runs, as D3D12 does: a table
     * over a never-written descriptor or one of the wrong kind is not a recording error
     * (test_descriptor_heaps.c checks descriptors written after Close). */
    struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    /* A table but no heap: SetDescriptorHeaps never called, or called with none. */
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 0, gpu_at(env, heap, 0));
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    CHECK_LOG("Dispatch", "reads a descriptor table", "no CBV_SRV_UAV heap is set");
    RELOG_MARK();
    CLOSE_FAILS(&list, "Dispatch");
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &heap);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 0, NULL);
    CHECK_NO_LOG();
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 0, gpu_at(env, heap, 0));
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    CHECK_LOG("Dispatch", "no CBV_SRV_UAV heap is set");
    RELOG_MARK();
    CLOSE_FAILS(&list, "Dispatch");

    /* A table from another heap than the bound one, and one running past the heap end. */
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &heap);
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 0, gpu_at(env, other, 0));
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    CHECK_LOG("Dispatch", "root parameter 0", "does not lie inside the bound CBV_SRV_UAV heap");
    RELOG_MARK();
    CLOSE_FAILS(&list, "Dispatch");
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &heap);
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 0, gpu_at(env, heap, 7)); /* u0 would be descriptor 8 */
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    CHECK_LOG("Dispatch", "register u0", "does not lie inside");
    RELOG_MARK();
    CLOSE_FAILS(&list, "Dispatch");

    /* SetDescriptorHeaps errors */
    set[0] = heap, set[1] = other;
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 2, set);
    CHECK_LOG("SetDescriptorHeaps", "two heaps of type 0");
    RELOG_MARK();
    CLOSE_FAILS(&list, "SetDescriptorHeaps");
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &hidden);
    CHECK_LOG("SetDescriptorHeaps", "ppDescriptorHeaps[0]", "shader-visible");
    RELOG_MARK();
    CLOSE_FAILS(&list, "SetDescriptorHeaps");
    set[0] = samplers, set[1] = hidden;
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 2, set);
    CHECK_LOG("SetDescriptorHeaps", "ppDescriptorHeaps[1]", "shader-visible");
    RELOG_MARK();
    CLOSE_FAILS(&list, "SetDescriptorHeaps");
    set[0] = heap, set[1] = samplers, set[2] = other;
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 3, set);
    CHECK_LOG("SetDescriptorHeaps", "NumDescriptorHeaps is 3");
    RELOG_MARK();
    CLOSE_FAILS(&list, "SetDescriptorHeaps");
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, NULL);
    CHECK_LOG("SetDescriptorHeaps", "ppDescriptorHeaps NULL");
    RELOG_MARK();
    CLOSE_FAILS(&list, "SetDescriptorHeaps");
    set[0] = (ID3D12DescriptorHeap *)input;
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, set);
    CHECK_LOG("SetDescriptorHeaps", "ppDescriptorHeaps[0]", "not a d3d12xs descriptor heap");
    RELOG_MARK();
    CLOSE_FAILS(&list, "SetDescriptorHeaps");

    /* After all that, the good table still works on the same list: input is zero-cleared and read back. */
    static const UINT values[4] = {77, 0, 0, 0};
    D3D12_RESOURCE_BARRIER barrier = uav_barrier(NULL);
    make_uav(env, input, VIEW_RAW, 0, 0, 64, 0, cpu_at(env, hidden, 0));
    set[0] = samplers, set[1] = heap;
    ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 2, set);
    ID3D12GraphicsCommandList2_ClearUnorderedAccessViewUint(list.list, gpu_at(env, heap, 5), cpu_at(env, hidden, 0), input, values, 0, NULL);
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
    ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 0, gpu_at(env, heap, 0));
    ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
    harness_execute_and_wait(env->device, env->queue, &list);
    {
        uint32_t result = 0;
        harness_read_back(env->device, env->queue, output, &result, sizeof(result));
        CHECK_MSG(result == 77, "good table after errors: read %u, expected 77", result);
    }
    CHECK_NO_LOG();

    harness_release_list(&list);
    ID3D12Resource_Release(input);
    ID3D12Resource_Release(output);
    ID3D12DescriptorHeap_Release(samplers);
    ID3D12DescriptorHeap_Release(hidden);
    ID3D12DescriptorHeap_Release(other);
    ID3D12DescriptorHeap_Release(heap);
    ID3D12PipelineState_Release(state);
    ID3D12RootSignature_Release(signature);
}

/* Handles resolve through the device's registry of heaps, on every thread: a released heap's
 * handles must stop resolving at once, on the thread that used them and on others, and a heap
 * created after must resolve. */
struct lookup_thread {
    struct env *env;
    D3D12_CPU_DESCRIPTOR_HANDLE dst, src;
    size_t log_mark;
};

static void *copy_from_released_heap(void *argument)
{
    struct lookup_thread *thread = argument;
    ID3D12Device_CopyDescriptorsSimple(thread->env->device, 1, thread->dst, thread->src, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    return NULL;
}

static void test_lookup_after_release(struct env *env)
{
    ID3D12DescriptorHeap *dst = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4, true);
    ID3D12DescriptorHeap *src = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4, false);
    ID3D12DescriptorHeap *later;
    D3D12_CPU_DESCRIPTOR_HANDLE gone = cpu_at(env, src, 1);
    struct lookup_thread thread = {env, cpu_at(env, dst, 0), gone, 0};
    pthread_t other;
    LOG_MARK();

    /* Resolve both heaps twice on this thread and once on another: each thread caches them. */
    for (int i = 0; i < 2; i++)
        ID3D12Device_CopyDescriptorsSimple(env->device, 1, cpu_at(env, dst, 0), gone, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    CHECK(!pthread_create(&other, NULL, copy_from_released_heap, &thread) && !pthread_join(other, NULL));
    CHECK_NO_LOG();
    ID3D12DescriptorHeap_Release(src);
    ID3D12Device_CopyDescriptorsSimple(env->device, 1, cpu_at(env, dst, 0), gone, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    CHECK_LOG("CopyDescriptorsSimple", "SrcDescriptorRangeStart", "not inside a live descriptor heap");
    RELOG_MARK();
    CHECK(!pthread_create(&other, NULL, copy_from_released_heap, &thread) && !pthread_join(other, NULL));
    CHECK_LOG("CopyDescriptorsSimple", "SrcDescriptorRangeStart", "not inside a live descriptor heap");
    RELOG_MARK();
    /* A heap made after resolves at once, wherever its memory lies. */
    later = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4, false);
    ID3D12Device_CopyDescriptorsSimple(env->device, 1, cpu_at(env, dst, 0), cpu_at(env, later, 3), D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    CHECK_NO_LOG();
    ID3D12DescriptorHeap_Release(later);
    ID3D12DescriptorHeap_Release(dst);
}

int main(void)
{
    struct env env;
    harness_init();
    env.device = harness_create_device();
    env.queue = harness_create_queue(env.device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    env.increment = ID3D12Device_GetDescriptorHandleIncrementSize(env.device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    env.sampler_increment = ID3D12Device_GetDescriptorHandleIncrementSize(env.device, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
    test_heaps(&env);
    test_views(&env);
    test_view_errors(&env);
    test_samplers(&env);
    test_copies(&env);
    test_typed_views_at_any_element(&env);
    test_clears(&env);
    test_dispatch_errors(&env);
    test_lookup_after_release(&env);
    ID3D12CommandQueue_Release(env.queue);
    harness_release_device(env.device);
    return harness_finish();
}
