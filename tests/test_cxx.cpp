// The headers from C++: method-call syntax, IID_PPV_ARGS, flag operators, and no min/max
// macros, so they mix with the standard library as Windows code expects.
#include <d3d12.h>
#include <d3d12_xs.h>
#include <pix3.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "harness.h"

int main()
{
    harness_init();
    ID3D12Device *device = nullptr;
    CHECK_HR(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&device)), S_OK);
    if (!device)
        return harness_finish();

    D3D12_COMMAND_QUEUE_DESC queue_desc = {};
    queue_desc.Type = D3D12_COMMAND_LIST_TYPE_DIRECT;
    ID3D12CommandQueue *queue = nullptr;
    CHECK_HR(device->CreateCommandQueue(&queue_desc, IID_PPV_ARGS(&queue)), S_OK);
    CHECK(queue->GetDesc().Type == D3D12_COMMAND_LIST_TYPE_DIRECT);

    ID3D12CommandAllocator *allocator = nullptr;
    ID3D12GraphicsCommandList *list = nullptr;
    CHECK_HR(device->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_DIRECT, IID_PPV_ARGS(&allocator)), S_OK);
    CHECK_HR(device->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_DIRECT, allocator, nullptr, IID_PPV_ARGS(&list)), S_OK);

    D3D12_HEAP_PROPERTIES heap = {};
    heap.Type = D3D12_HEAP_TYPE_READBACK;
    D3D12_RESOURCE_DESC desc = harness_buffer_desc(64);
    ID3D12Resource *buffer = nullptr;
    D3D12_HEAP_FLAGS flags = D3D12_HEAP_FLAG_NONE | D3D12_HEAP_FLAG_ALLOW_ONLY_BUFFERS;
    flags &= ~D3D12_HEAP_FLAG_ALLOW_ONLY_BUFFERS;
    CHECK_HR(device->CreateCommittedResource(&heap, flags, &desc, D3D12_RESOURCE_STATE_COPY_DEST, nullptr, IID_PPV_ARGS(&buffer)), S_OK);

    // A C++ caller of the newest interface reaches WriteBufferImmediate through QueryInterface.
    ID3D12GraphicsCommandList2 *list2 = nullptr;
    CHECK_HR(list->QueryInterface(IID_PPV_ARGS(&list2)), S_OK);
    D3D12_WRITEBUFFERIMMEDIATE_PARAMETER parameter = {buffer->GetGPUVirtualAddress() + 8, 1234};
    list2->WriteBufferImmediate(1, &parameter, nullptr);
    // pix3.h's overloads as console and Windows code calls them (no capture runs: no-ops)
    PIXBeginEvent(list, PIX_COLOR(255, 0, 0), "frame %d", 1);
    PIXBeginEvent(list2, PIX_COLOR_DEFAULT, L"wide %d", 2);
    PIXSetMarker(list, PIX_COLOR_INDEX(3), "marker");
    PIXEndEvent(list2);
    PIXEndEvent(list);
    PIXBeginEvent(queue, PIX_COLOR_DEFAULT, "queue event");
    PIXEndEvent(queue);
    PIXBeginEvent(PIX_COLOR_DEFAULT, "cpu %s", "event");
    PIXSetMarker(PIX_COLOR_DEFAULT, "cpu marker");
    PIXEndEvent();
    CHECK_HR(list->Close(), S_OK);
    ID3D12CommandList *lists[] = {list};
    queue->ExecuteCommandLists(1, lists);

    ID3D12Fence *fence = nullptr;
    CHECK_HR(device->CreateFence(0, D3D12_FENCE_FLAG_NONE, IID_PPV_ARGS(&fence)), S_OK);
    HANDLE event = CreateEvent(nullptr, FALSE, FALSE, nullptr);
    CHECK_HR(queue->Signal(fence, 1), S_OK);
    CHECK_HR(fence->SetEventOnCompletion(1, event), S_OK);
    CHECK(WaitForSingleObject(event, 10000) == WAIT_OBJECT_0);
    CloseHandle(event);

    UINT32 *data = nullptr;
    D3D12_RANGE range = {8, 12};
    CHECK_HR(buffer->Map(0, &range, reinterpret_cast<void **>(&data)), S_OK);
    CHECK(data && data[2] == 1234);
    buffer->Unmap(0, nullptr);

    std::vector<UINT> values = {3, 1, 2};
    CHECK(std::min(values[0], values[1]) == 1 && std::max(values[1], values[2]) == 2);
    CHECK(IsEqualGUID(IID_ID3D12Device, IID_ID3D12Device) && !(IID_ID3D12Device == IID_ID3D12Fence));

    list2->Release();
    list->Release();
    allocator->Release();
    buffer->Release();
    fence->Release();
    queue->Release();
    harness_release_device(device);
    return harness_finish();
}
