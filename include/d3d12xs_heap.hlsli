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
 * Textures and samplers (shader model 6.6's ResourceDescriptorHeap[i] and SamplerDescriptorHeap[i]
 * as textures and samplers): define D3D12XS_HEAP_TEXTURES before the include, then
 *
 *     float4 c = D3D12XSHeapTexture2D(t).SampleLevel(D3D12XSHeapSampler(s), uv, 0);
 *     D3D12XSHeapRWTexture2D(u)[xy] = c;
 *
 * D3D12XSHeapTexture2D, ...Texture2DArray, ...Texture3D, ...TextureCube (float4 texels),
 * ...Texture2DUint (uint4), ...RWTexture2D (float4), ...RWTexture2DUint (uint4) name slot i of
 * the CBV_SRV_UAV heap as that kind of view; D3D12XSHeapSampler and D3D12XSHeapComparisonSampler
 * name slot i of the bound SAMPLER heap, which needs D3D12_ROOT_SIGNATURE_FLAG_SAMPLER_HEAP_DIRECTLY_INDEXED.
 * The slot must hold a view of that kind, as in D3D12 (no bounds check: an index past the heap is
 * undefined, as there).
 *
 * Registers 16370 to 16381 of space62 (t, u, s and b16381) are reserved for this header: u16381
 * is the heap itself (each slot seen as a raw buffer), b16381 its size, which Dispatch pushes, the
 * others the views above.
 */
#ifndef D3D12XS_HEAP_HLSLI
#define D3D12XS_HEAP_HLSLI

RWByteAddressBuffer D3D12XS_HEAP_RAW[] : register(u16381, space62);
cbuffer D3D12XS_HEAP_INFO : register(b16381, space62) { uint D3D12XS_HEAP_SIZE; };
/* Set by pipeline creation where the device answers a view-size query with a non-uniform index
 * for one thread only (Mesa's lavapipe): each thread's index is then queried by every thread in
 * turn, so that each query's index is the same for all. */
[[vk::constant_id(2001)]] const uint D3D12XS_HEAP_SIZE_BY_INDEX = 0u;

#ifdef D3D12XS_HEAP_TEXTURES
Texture2D<float4> D3D12XS_HEAP_TEXTURE2D[] : register(t16381, space62);
Texture2DArray<float4> D3D12XS_HEAP_TEXTURE2DARRAY[] : register(t16380, space62);
Texture3D<float4> D3D12XS_HEAP_TEXTURE3D[] : register(t16379, space62);
TextureCube<float4> D3D12XS_HEAP_TEXTURECUBE[] : register(t16378, space62);
Texture2D<uint4> D3D12XS_HEAP_TEXTURE2D_UINT[] : register(t16377, space62);
RWTexture2D<float4> D3D12XS_HEAP_RWTEXTURE2D[] : register(u16380, space62);
RWTexture2D<uint4> D3D12XS_HEAP_RWTEXTURE2D_UINT[] : register(u16379, space62);
SamplerState D3D12XS_HEAP_SAMPLER[] : register(s16381, space62);
SamplerComparisonState D3D12XS_HEAP_COMPARISON_SAMPLER[] : register(s16380, space62);
#define D3D12XSHeapTexture2D(i) D3D12XS_HEAP_TEXTURE2D[NonUniformResourceIndex(i)]
#define D3D12XSHeapTexture2DArray(i) D3D12XS_HEAP_TEXTURE2DARRAY[NonUniformResourceIndex(i)]
#define D3D12XSHeapTexture3D(i) D3D12XS_HEAP_TEXTURE3D[NonUniformResourceIndex(i)]
#define D3D12XSHeapTextureCube(i) D3D12XS_HEAP_TEXTURECUBE[NonUniformResourceIndex(i)]
#define D3D12XSHeapTexture2DUint(i) D3D12XS_HEAP_TEXTURE2D_UINT[NonUniformResourceIndex(i)]
#define D3D12XSHeapRWTexture2D(i) D3D12XS_HEAP_RWTEXTURE2D[NonUniformResourceIndex(i)]
#define D3D12XSHeapRWTexture2DUint(i) D3D12XS_HEAP_RWTEXTURE2D_UINT[NonUniformResourceIndex(i)]
#define D3D12XSHeapSampler(i) D3D12XS_HEAP_SAMPLER[NonUniformResourceIndex(i)]
#define D3D12XSHeapComparisonSampler(i) D3D12XS_HEAP_COMPARISON_SAMPLER[NonUniformResourceIndex(i)]
#endif

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
