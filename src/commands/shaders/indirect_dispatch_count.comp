// ExecuteIndirect of DISPATCH with a count buffer (commands/command_list_indirect.c): Vulkan's
// vkCmdDispatchIndirect has no count form, so before the dispatches this pass copies each
// command's D3D12_DISPATCH_ARGUMENTS below min(count, MaxCommandCount) into scratch memory and
// writes 0 x 0 x 0 (a dispatch that runs nothing) for every command past it.
#version 450

layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer Arguments { uint words[]; } arguments;
layout(set = 0, binding = 1) readonly buffer Count { uint words[]; } count;
layout(set = 0, binding = 2) writeonly buffer Commands { uint words[]; } commands;

layout(push_constant) uniform Batch {
    uint argument_index; // word of the batch's first command's dispatch arguments in their bound range
    uint stride_words;   // ByteStride / 4
    uint count_index;    // word of the count in its bound range
    uint command_index;  // word of the batch's first VkDispatchIndirectCommand in its bound range
    uint first;          // the batch's first command's number in the ExecuteIndirect
    uint size;           // commands in the batch
    uint max_count;      // MaxCommandCount
} batch;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= batch.size)
        return;
    uint live = min(count.words[batch.count_index], batch.max_count);
    uint destination = batch.command_index + 3u * i;
    if (batch.first + i < live) {
        uint source = batch.argument_index + i * batch.stride_words;
        commands.words[destination] = arguments.words[source];
        commands.words[destination + 1u] = arguments.words[source + 1u];
        commands.words[destination + 2u] = arguments.words[source + 2u];
    } else {
        commands.words[destination] = 0u;
        commands.words[destination + 1u] = 0u;
        commands.words[destination + 2u] = 0u;
    }
}
