/* d3d12xs_heap.hlsli: shaders index the bound CBV_SRV_UAV descriptor heap directly.
 *
 * Shader Model 6.6 writes `ByteAddressBuffer b = ResourceDescriptorHeap[i];`. D3DCompile's HLSL
 * front end (glslang) has no ResourceDescriptorHeap, so d3d12xs gives the same access through
 * functions of this header:
 *
 *     #include <d3d12xs_heap.hlsli>       // D3DCompile knows this name; no include handler needed
 *     uint v = D3D12XSHeapLoad(i, byteOffset);       // (RW)ByteAddressBuffer.Load of heap[i]
 *     D3D12XSHeapStore(i, byteOffset, v);             // RWByteAddressBuffer.Store
 *     uint old = D3D12XSHeapInterlockedAdd(i, byteOffset, 1);
 *
 * i is the descriptor's index from the start of the heap bound with SetDescriptorHeaps (not
 * from a table); it may differ between threads. The shader reads the heap's own descriptors
 * when the dispatch runs, as tables do (docs/descriptors.md): slot i must hold a raw or
 * structured SRV or UAV (structured element k of stride s is at byte k * s) or a null view, as
 * ResourceDescriptorHeap[i] read as a ByteAddressBuffer must in D3D12; a CBV, typed view or
 * sampler there is undefined behaviour. The root signature must have
 * D3D12_ROOT_SIGNATURE_FLAG_CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED, else pipeline creation fails.
 *
 * Bounds: a descriptor index at or past the heap's size, or a 4-byte access not wholly inside
 * the view, loads 0, and such stores and atomics do nothing (the descriptor is never read for an
 * index past the heap). Byte offsets are rounded down to a multiple of 4.
 *
 * Register u16381 and b16381 of space62 are reserved for this header: the first is the heap
 * itself (each slot seen as a raw buffer), the second its size, which Dispatch pushes.
 */
#ifndef D3D12XS_HEAP_HLSLI
#define D3D12XS_HEAP_HLSLI

RWByteAddressBuffer D3D12XS_HEAP_RAW[] : register(u16381, space62);
cbuffer D3D12XS_HEAP_INFO : register(b16381, space62) { uint D3D12XS_HEAP_SIZE; };
/* Set by pipeline creation where the device answers a view-size query with a non-uniform index
 * for one thread only (Mesa's lavapipe): each thread's index is then queried by every thread in
 * turn, so that each query's index is the same for all. */
[[vk::constant_id(2001)]] const uint D3D12XS_HEAP_SIZE_BY_INDEX = 0u;

/* The number of descriptors in the bound heap. */
uint D3D12XSHeapCount()
{
    return D3D12XS_HEAP_SIZE;
}

/* The size in bytes of descriptor index's view (0 for an index past the heap and for a null view). */
uint D3D12XSHeapViewSize(uint index)
{
    uint bytes = 0u;
    if (index < D3D12XS_HEAP_SIZE) {
        if (D3D12XS_HEAP_SIZE_BY_INDEX != 0u) {
            uint last = D3D12XS_HEAP_SIZE - 1u, self = WaveGetLaneIndex();
            [loop] for (uint lane = 0u; lane < WaveGetLaneCount(); lane++) {
                /* an inactive thread's index is undefined: kept inside the heap */
                uint other = min(WaveReadLaneAt(index, lane), last), size;
                D3D12XS_HEAP_RAW[other].GetDimensions(size);
                if (lane == self)
                    bytes = size;
            }
        } else {
            D3D12XS_HEAP_RAW[NonUniformResourceIndex(index)].GetDimensions(bytes);
        }
    }
    return bytes;
}

/* Whether the 4 bytes at offset (a multiple of 4) lie inside descriptor index's view. */
bool D3D12XSHeapInside(uint index, uint offset)
{
    uint bytes = D3D12XSHeapViewSize(index);
    return bytes >= 4u && offset <= bytes - 4u;
}

uint D3D12XSHeapLoad(uint index, uint byteOffset)
{
    uint offset = byteOffset & ~3u, value = 0u;
    if (D3D12XSHeapInside(index, offset))
        value = D3D12XS_HEAP_RAW[NonUniformResourceIndex(index)].Load(offset);
    return value;
}

uint2 D3D12XSHeapLoad2(uint index, uint byteOffset)
{
    return uint2(D3D12XSHeapLoad(index, byteOffset), D3D12XSHeapLoad(index, byteOffset + 4u));
}

uint4 D3D12XSHeapLoad4(uint index, uint byteOffset)
{
    return uint4(D3D12XSHeapLoad2(index, byteOffset), D3D12XSHeapLoad2(index, byteOffset + 8u));
}

float D3D12XSHeapLoadFloat(uint index, uint byteOffset)
{
    return asfloat(D3D12XSHeapLoad(index, byteOffset));
}

void D3D12XSHeapStore(uint index, uint byteOffset, uint value)
{
    uint offset = byteOffset & ~3u;
    if (D3D12XSHeapInside(index, offset))
        D3D12XS_HEAP_RAW[NonUniformResourceIndex(index)].Store(offset, value);
}

void D3D12XSHeapStore2(uint index, uint byteOffset, uint2 value)
{
    D3D12XSHeapStore(index, byteOffset, value.x);
    D3D12XSHeapStore(index, byteOffset + 4u, value.y);
}

void D3D12XSHeapStore4(uint index, uint byteOffset, uint4 value)
{
    D3D12XSHeapStore2(index, byteOffset, value.xy);
    D3D12XSHeapStore2(index, byteOffset + 8u, value.zw);
}

void D3D12XSHeapStoreFloat(uint index, uint byteOffset, float value)
{
    D3D12XSHeapStore(index, byteOffset, asuint(value));
}

/* Returns the value before the addition (0 outside the view, where nothing is added). */
uint D3D12XSHeapInterlockedAdd(uint index, uint byteOffset, uint value)
{
    uint offset = byteOffset & ~3u, original = 0u;
    if (D3D12XSHeapInside(index, offset))
        D3D12XS_HEAP_RAW[NonUniformResourceIndex(index)].InterlockedAdd(offset, value, original);
    return original;
}

#endif
