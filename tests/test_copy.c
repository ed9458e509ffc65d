/* Buffer copies: upload -> default -> readback through each queue type, 4 B to 64 MiB,
 * checked byte for byte; and copies that break the rules. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static void fill_pattern(uint8_t *data, size_t size, uint32_t seed)
{
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < size; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        data[i] = (uint8_t)x;
    }
}

static void round_trip(ID3D12Device *device, ID3D12CommandQueue *queue, D3D12_COMMAND_LIST_TYPE type, UINT64 size, uint32_t seed)
{
    ID3D12Resource *upload = harness_create_buffer(device, D3D12_HEAP_TYPE_UPLOAD, size, D3D12_RESOURCE_STATE_GENERIC_READ);
    ID3D12Resource *middle = harness_create_buffer(device, D3D12_HEAP_TYPE_DEFAULT, size, D3D12_RESOURCE_STATE_COMMON);
    ID3D12Resource *readback = harness_create_buffer(device, D3D12_HEAP_TYPE_READBACK, size, D3D12_RESOURCE_STATE_COPY_DEST);
    struct harness_list list = harness_create_list(device, type);
    uint8_t *expected = malloc(size), *data = NULL;
    D3D12_RESOURCE_BARRIER barrier;

    fill_pattern(expected, size, seed);
    CHECK_HR(ID3D12Resource_Map(upload, 0, NULL, (void **)&data), S_OK);
    memcpy(data, expected, size);
    ID3D12Resource_Unmap(upload, 0, NULL);

    ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, middle, 0, upload, 0, size);
    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    barrier.Transition.pResource = middle;
    barrier.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    barrier.Transition.StateBefore = D3D12_RESOURCE_STATE_COPY_DEST;
    barrier.Transition.StateAfter = D3D12_RESOURCE_STATE_COPY_SOURCE;
    ID3D12GraphicsCommandList2_ResourceBarrier(list.list, 1, &barrier);
    ID3D12GraphicsCommandList2_CopyResource(list.list, readback, middle);
    harness_execute_and_wait(device, queue, &list);

    CHECK_HR(ID3D12Resource_Map(readback, 0, NULL, (void **)&data), S_OK);
    CHECK_MSG(data && !memcmp(data, expected, size), "%llu-byte copy on list type %d differs", (unsigned long long)size, (int)type);
    ID3D12Resource_Unmap(readback, 0, NULL);

    free(expected);
    harness_release_list(&list);
    ID3D12Resource_Release(upload);
    ID3D12Resource_Release(middle);
    ID3D12Resource_Release(readback);
}

int main(void)
{
    static const D3D12_COMMAND_LIST_TYPE types[] = {D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_LIST_TYPE_COMPUTE, D3D12_COMMAND_LIST_TYPE_COPY};
    static const UINT64 sizes[] = {4, 12, 256, 4096, 65536 + 4, 1 << 20, 64 << 20};
    harness_init();
    ID3D12Device *device = harness_create_device();

    for (size_t t = 0; t < 3; t++) {
        ID3D12CommandQueue *queue = harness_create_queue(device, types[t]);
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
            round_trip(device, queue, types[t], sizes[s], (uint32_t)(t * 16 + s));
        ID3D12CommandQueue_Release(queue);
    }
    harness_release_device(device);
    return harness_finish();
}
