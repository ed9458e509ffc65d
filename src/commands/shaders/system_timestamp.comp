// SYSTEM_TIMESTAMP value writes (commands/system_timestamp.c): the GPU clock, taken by a
// timestamp query once earlier work has finished, converted to the host clock's domain
// (QueryPerformanceCounter: CLOCK_MONOTONIC nanoseconds) with a calibration pair taken when
// the command was recorded, and stored at the destination in one 64-bit write.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

layout(local_size_x = 1) in;

layout(set = 0, binding = 0) readonly buffer Ticks { uint64_t ticks; };
layout(set = 0, binding = 1) writeonly buffer Destination { uint64_t words[]; };

layout(push_constant) uniform Calibration {
    uint64_t gpu_reference;   // GPU ticks...
    uint64_t host_reference;  // ...and host nanoseconds at the same moment
    double ns_per_tick;
    uint index;               // of the destination in its bound range, in 64-bit words
} calibration;

void main()
{
    int64_t ticks_since = int64_t(ticks - calibration.gpu_reference);
    words[calibration.index] = uint64_t(int64_t(calibration.host_reference) + int64_t(double(ticks_since) * calibration.ns_per_tick));
}
