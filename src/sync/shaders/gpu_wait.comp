// The GPU side of a console memory wait (Wait32/64BitValueX): one thread reads the value
// until the comparison holds, then the queue goes on. sync/gpu_wait.c says when the
// scheduler may use it. Loads are volatile, not atomic: on the H200, atomic loads of
// host-imported memory took 29-60 us or never saw the new value (../shared/DEVICE.md).
// The spin is bounded by the device clock, so that a value that never arrives cannot hang
// the GPU: the host's hang timeout fires first and reports the wait.
#version 450
#extension GL_EXT_shader_realtime_clock : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

layout(local_size_x = 1) in;

layout(set = 0, binding = 0) volatile readonly buffer Words32 { uint words32[]; };
layout(set = 0, binding = 0) volatile readonly buffer Words64 { uint64_t words64[]; };

layout(push_constant) uniform Wait {
    uint index;       // element index of the value in the bound range (of its size)
    uint size;        // 4 or 8 bytes
    uint comparison;  // D3D12_COMPARISON_FUNC
    uint unused;
    uint64_t value;
    uint64_t bound;   // device clock ticks (nanoseconds on the devices we know)
} wait;

bool holds(uint64_t current)
{
    switch (wait.comparison) {
    case 2u: return current < wait.value;   // LESS
    case 3u: return current == wait.value;  // EQUAL
    case 4u: return current <= wait.value;  // LESS_EQUAL
    case 5u: return current > wait.value;   // GREATER
    case 6u: return current != wait.value;  // NOT_EQUAL
    case 7u: return current >= wait.value;  // GREATER_EQUAL
    case 8u: return true;                   // ALWAYS
    default: return false;                  // NEVER
    }
}

void main()
{
    uint64_t start = clockRealtimeEXT();
    for (;;) {
        uint64_t current = wait.size == 8u ? words64[wait.index] : uint64_t(words32[wait.index]);
        if (holds(current) || clockRealtimeEXT() - start > wait.bound)
            return;
    }
}
