// ExecuteIndirect with a count buffer where Vulkan has no count form (commands/command_list_indirect.c):
// dispatches, and draws recorded one per command (INCREMENTING_CONSTANT). This pass copies each
// command's draw or dispatch arguments below min(count, MaxCommandCount) into scratch memory and
// writes zeros (a draw or dispatch that runs nothing) for every command past it.
#version 450

layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer Arguments { uint words[]; } arguments;
layout(set = 0, binding = 1) readonly buffer Count { uint words[]; } count;
layout(set = 0, binding = 2) writeonly buffer Commands { uint words[]; } commands;

layout(push_constant) uniform Batch {
    uint argument_index; // word of the batch's first command's arguments in their bound range
    uint stride_words;   // ByteStride / 4
    uint count_index;    // word of the count in its bound range
    uint command_index;  // word of the batch's first copied command in its bound range
    uint first;          // the batch's first command's number in the ExecuteIndirect
    uint size;           // commands in the batch
    uint max_count;      // MaxCommandCount
    uint words;          // of one command's arguments: 3 (dispatch), 4 (draw) or 5 (indexed draw)
} batch;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= batch.size)
        return;
    uint live = min(count.words[batch.count_index], batch.max_count);
    uint destination = batch.command_index + batch.words * i;
    uint source = batch.argument_index + i * batch.stride_words;
    bool runs = batch.first + i < live;
    for (uint w = 0u; w < batch.words; w++)
        commands.words[destination + w] = runs ? arguments.words[source + w] : 0u;
}
