// A bottom-of-pipe value write done by one shader thread (sync/gpu_wait.c): on the H200 the
// value reaches a GPU-side wait on another queue sooner than after a copy-engine update
// (1.4 us against 2.6 us a hop for the buffer marker, ../shared/DEVICE.md).
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

layout(local_size_x = 1) in;

layout(set = 0, binding = 0) coherent writeonly buffer Words32 { uint words32[]; };
layout(set = 0, binding = 0) coherent writeonly buffer Words64 { uint64_t words64[]; };

layout(push_constant) uniform Write {
    uint index;       // element index of the value in the bound range (of its size)
    uint size;        // 4 or 8 bytes
    uint unused0;
    uint unused1;
    uint64_t value;
} write;

void main()
{
    if (write.size == 8u)
        words64[write.index] = write.value;
    else
        words32[write.index] = uint(write.value);
    memoryBarrierBuffer();
}
