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
 * from a table). Every CBV, raw or structured SRV and UAV of the heap can be read this way
 * (structured element k of stride s is at byte k * s); typed views, samplers, null views and
 * descriptors never written have size 0. The root signature must have
 * D3D12_ROOT_SIGNATURE_FLAG_CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED, else pipeline creation fails.
 *
 * Bounds (never outside application memory): a descriptor index past the heap, or an access
 * not wholly inside the view, loads 0, and stores and atomics go to a 16-byte scratch area of
 * the heap's own (d3d12xs) memory. Byte offsets are rounded down to a multiple of 4.
 *
 * The heap's contents are read when the GPU runs the dispatch (as D3D12 does), not when it is
 * recorded. How it works (docs/descriptors.md): the heap keeps a table of buffer addresses;
 * D3D12XS_HEAP_TABLE below is that table, and each access to D3D12XS_HEAP_MEMORY is turned by
 * D3DCompile's consumer, CreateComputePipelineState, into an access through a
 * PhysicalStorageBuffer pointer whose address is (first index, second index).
 *
 * Register t16381 and u16381 of space62 are reserved for this header.
 */
#ifndef D3D12XS_HEAP_HLSLI
#define D3D12XS_HEAP_HLSLI

/* Entry 0: (descriptor count, 0, scratch address low, high). Entry i + 1: (address low, high,
 * size in bytes, 0) of descriptor i; entry count + 1 is zero. */
StructuredBuffer<uint4> D3D12XS_HEAP_TABLE : register(t16381, space62);

/* Not a buffer: D3D12XS_HEAP_MEMORY[low].w[high] is the 32-bit word at address high:low. */
struct D3D12XS_HEAP_WORDS { uint w[16384]; };
RWStructuredBuffer<D3D12XS_HEAP_WORDS> D3D12XS_HEAP_MEMORY : register(u16381, space62);

/* The number of descriptors in the bound heap. */
uint D3D12XSHeapCount()
{
    return D3D12XS_HEAP_TABLE[0].x;
}

/* The size in bytes of descriptor index's view (0 for views this header cannot read). */
uint D3D12XSHeapViewSize(uint index)
{
    uint4 header = D3D12XS_HEAP_TABLE[0];
    return D3D12XS_HEAP_TABLE[min(index, header.x) + 1].z;
}

/* (address low, high, inside): where the word at byteOffset of descriptor index lives, or the
 * scratch area with inside 0 when that word is not in the view. */
uint3 D3D12XSHeapAddress(uint index, uint byteOffset)
{
    uint4 header = D3D12XS_HEAP_TABLE[0];
    uint4 entry = D3D12XS_HEAP_TABLE[min(index, header.x) + 1];
    uint offset = byteOffset & ~3u;
    bool inside = index < header.x && offset < entry.z && entry.z - offset >= 4u;
    uint low = entry.x + offset;
    uint high = entry.y + (low < offset ? 1u : 0u);
    return inside ? uint3(low, high, 1u) : uint3(header.z, header.w, 0u);
}

uint D3D12XSHeapLoad(uint index, uint byteOffset)
{
    uint3 a = D3D12XSHeapAddress(index, byteOffset);
    uint value = D3D12XS_HEAP_MEMORY[a.x].w[a.y];
    return a.z != 0u ? value : 0u;
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
    uint3 a = D3D12XSHeapAddress(index, byteOffset);
    D3D12XS_HEAP_MEMORY[a.x].w[a.y] = value;
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

/* Returns the value before the addition (0 outside the view). */
uint D3D12XSHeapInterlockedAdd(uint index, uint byteOffset, uint value)
{
    uint3 a = D3D12XSHeapAddress(index, byteOffset);
    uint original;
    InterlockedAdd(D3D12XS_HEAP_MEMORY[a.x].w[a.y], value, original);
    return a.z != 0u ? original : 0u;
}

#endif
