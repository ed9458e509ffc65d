/* Microsoft's d3dx12.h (directx-headers-dev), reached through <d3dx12_xs.h>, compiles against
 * our headers and works: resource descs, heap properties, ranges, barriers, descriptor handles,
 * root signature builders (serialized by d3d12xs), pipeline state streams. Then the console
 * methods are called through plain standard interface pointers, as console C++ code does:
 * not implemented yet, they must return E_NOTIMPL through the console table. */
#include <d3dx12_xs.h>

#include <cstdio>

#include "../pin_vulkan_modules.h"

static int failures;

#define CHECK(cond) \
    do { \
        if (!(cond)) { \
            std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); \
            ++failures; \
        } \
    } while (0)

int main()
{
    /* resource descs, heap properties, ranges */
    CD3DX12_RESOURCE_DESC buffer = CD3DX12_RESOURCE_DESC::Buffer(4096, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS);
    CHECK(buffer.Dimension == D3D12_RESOURCE_DIMENSION_BUFFER && buffer.Width == 4096);
    CHECK(buffer.Layout == D3D12_TEXTURE_LAYOUT_ROW_MAJOR);
    CD3DX12_RESOURCE_DESC tex = CD3DX12_RESOURCE_DESC::Tex2D(DXGI_FORMAT_R8G8B8A8_UNORM, 64, 32, 1, 0);
    CHECK(tex.Height == 32 && tex.MipLevels == 0 && tex.SampleDesc.Count == 1);
    CD3DX12_HEAP_PROPERTIES upload(D3D12_HEAP_TYPE_UPLOAD);
    CHECK(upload.Type == D3D12_HEAP_TYPE_UPLOAD && upload.IsCPUAccessible());
    CD3DX12_RANGE range(16, 48);
    CHECK(range.End - range.Begin == 32);
    CHECK(D3D12CalcSubresource(1, 2, 0, 4, 3) == 9);

    /* barriers */
    CD3DX12_RESOURCE_BARRIER uav = CD3DX12_RESOURCE_BARRIER::UAV(nullptr);
    CHECK(uav.Type == D3D12_RESOURCE_BARRIER_TYPE_UAV);
    CD3DX12_RESOURCE_BARRIER tr = CD3DX12_RESOURCE_BARRIER::Transition(nullptr,
            D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    const D3D12_RESOURCE_BARRIER &plain = tr;
    CHECK(plain.Transition.StateAfter == D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    CHECK(plain.Transition.Subresource == D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES);

    /* descriptor handles */
    D3D12_CPU_DESCRIPTOR_HANDLE base = {1000};
    CD3DX12_CPU_DESCRIPTOR_HANDLE h(base, 3, 32);
    CHECK(h.ptr == 1096);
    CD3DX12_GPU_DESCRIPTOR_HANDLE g;
    g.InitOffsetted(D3D12_GPU_DESCRIPTOR_HANDLE{4096}, 2, 64);
    CHECK(g.ptr == 4224);

    /* root signature builders, serialized by d3d12xs */
    CD3DX12_DESCRIPTOR_RANGE1 ranges[1];
    ranges[0].Init(D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 2, 0);
    CD3DX12_ROOT_PARAMETER1 params[3];
    params[0].InitAsConstants(4, 0);
    params[1].InitAsUnorderedAccessView(2);
    params[2].InitAsDescriptorTable(1, ranges);
    CD3DX12_STATIC_SAMPLER_DESC sampler(0);
    CD3DX12_VERSIONED_ROOT_SIGNATURE_DESC rs;
    rs.Init_1_1(3, params, 1, &sampler, D3D12_ROOT_SIGNATURE_FLAG_NONE);
    CHECK(rs.Version == D3D_ROOT_SIGNATURE_VERSION_1_1 && rs.Desc_1_1.NumParameters == 3);
    ID3DBlob *blob = nullptr, *errors = nullptr;
    HRESULT hr = D3DX12SerializeVersionedRootSignature(&rs, D3D_ROOT_SIGNATURE_VERSION_1_1, &blob, &errors);
    CHECK(hr == S_OK && blob && blob->GetBufferSize() > 0);

    /* pipeline state streams */
    struct {
        CD3DX12_PIPELINE_STATE_STREAM_ROOT_SIGNATURE root;
        CD3DX12_PIPELINE_STATE_STREAM_CS cs;
    } stream;
    stream.root = static_cast<ID3D12RootSignature *>(nullptr);
    stream.cs = CD3DX12_SHADER_BYTECODE(nullptr, 0);
    D3D12_PIPELINE_STATE_STREAM_DESC sd = {sizeof(stream), &stream};
    CHECK(sd.SizeInBytes == sizeof(stream));
    CD3DX12_PIPELINE_STATE_STREAM2 full;
    (void)full;

    /* console methods through plain standard interface pointers */
    ID3D12Device *device = nullptr;
    hr = D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_GRAPHICS_PPV_ARGS(&device));
    CHECK(hr == S_OK && device);
    d3d12xs_test_pin_vulkan_modules();
    if (device) {
        ID3D12RootSignature *root = nullptr;
        hr = device->CreateRootSignature(0, blob->GetBufferPointer(), blob->GetBufferSize(),
                IID_GRAPHICS_PPV_ARGS(&root));
        CHECK(hr == S_OK);
        if (root)
            root->Release();

        D3D12XBOX_COMMAND_QUEUE_DESC qd = {D3D12_COMMAND_LIST_TYPE_COMPUTE, D3D12_COMMAND_QUEUE_FLAG_NONE, 0, 0};
        ID3D12CommandQueue *xq = nullptr;
        CHECK(device->CreateCommandQueueX(&qd, IID_GRAPHICS_PPV_ARGS(&xq)) == S_OK && xq);
        if (xq)
            CHECK(xq->GetDesc().Type == D3D12_COMMAND_LIST_TYPE_COMPUTE && xq->Release() == 0);

        D3D12_COMMAND_QUEUE_DESC desc = {D3D12_COMMAND_LIST_TYPE_COMPUTE, 0, D3D12_COMMAND_QUEUE_FLAG_NONE, 0};
        ID3D12CommandQueue *queue = nullptr;
        CHECK(device->CreateCommandQueue(&desc, IID_GRAPHICS_PPV_ARGS(&queue)) == S_OK);
        ID3D12Fence *fence = nullptr;
        CHECK(device->CreateFence(0, D3D12_FENCE_FLAG_NONE, IID_GRAPHICS_PPV_ARGS(&fence)) == S_OK);
        if (queue && fence) {
            D3D12XBOX_SYNC_PARAMS sync = {D3D12XBOX_SYNC_FLAG_GL2_INVALIDATE,
                    D3D12XBOX_SYNC_CONTROL_FLAG_TOP_SELECT_ENGINE_PFP};
            CHECK(queue->WaitX(fence, 0, &sync) == S_OK);
            CHECK(queue->SignalX(fence, 1, D3D12XBOX_FLUSH_BOP_TEXTURE_L2_WRITEBACK | D3D12XBOX_FLUSH_IDLE) == S_OK);
            CHECK(queue->KickoffX() == S_OK);
            CHECK(fence->SetEventOnCompletion(1, nullptr) == S_OK);
        }
        ID3D12CommandAllocator *alloc = nullptr;
        ID3D12GraphicsCommandList *list = nullptr;
        CHECK(device->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_COMPUTE, IID_GRAPHICS_PPV_ARGS(&alloc)) == S_OK);
        if (alloc)
            CHECK(device->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_COMPUTE, alloc, nullptr,
                    IID_GRAPHICS_PPV_ARGS(&list)) == S_OK);
        if (list) {
            /* through a plain ID3D12GraphicsCommandList pointer, as console code calls it */
            list->FlushPipelineX(D3D12XBOX_FLUSH_BOP_CS_PARTIAL, 0, D3D12XBOX_FLUSH_RANGE_ALL);
            CHECK(list->Close() == S_OK);
            list->Release();
        }
        D3D12XBOX_COMPUTE_SHADER_LIMITS_DESC limits;
        D3D12XboxInitializeDefaultComputeShaderLimits(&limits);
        D3D12XBOX_EXTENDED_COMPUTE_PIPELINE_STATE_DESC ext = {};
        ext.Type = D3D12XBOX_EXTENDED_COMPUTE_PIPELINE_STATE_TYPE_COMPUTE_SHADER_LIMITS;
        ext.ComputeShaderLimits = limits;
        D3D12_COMPUTE_PIPELINE_STATE_DESC cps = {};
        ID3D12PipelineState *pso = nullptr;
        /* reaches the implementation through the C++ interface: an empty description is refused */
        CHECK(device->CreateComputePipelineStateX(&cps, 1, &ext, IID_GRAPHICS_PPV_ARGS(&pso)) == E_INVALIDARG && !pso);
        if (alloc)
            alloc->Release();
        if (fence)
            fence->Release();
        if (queue)
            queue->Release();
        device->Release();
    }
    if (blob)
        blob->Release();
    if (errors)
        errors->Release();

    std::printf("d3dx12: %s\n", failures ? "FAILED" : "helpers and console calls work");
    return failures ? 1 : 0;
}
