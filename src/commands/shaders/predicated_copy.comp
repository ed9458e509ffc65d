// A buffer copy under SetPredication's condition (commands/command_list_predication.c): Vulkan's
// conditional rendering skips dispatches, not transfers, so a predicated copy of whole 32-bit
// words is this dispatch. One thread per word.
#version 450

layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer Source { uint words[]; } source;
layout(set = 0, binding = 1) writeonly buffer Destination { uint words[]; } destination;

layout(push_constant) uniform Range {
    uint source_index;       // of the first word in the source's bound range
    uint destination_index;  // ... in the destination's
    uint count;              // words
} range;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < range.count)
        destination.words[range.destination_index + i] = source.words[range.source_index + i];
}
