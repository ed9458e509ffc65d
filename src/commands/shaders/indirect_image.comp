// ExecuteIndirect's own path without generated commands (commands/command_list_indirect_image.c):
// per command, an image of the push-constant block's layout that the pipeline's variant reads
// instead of the push constants the command sets: each word from the command's arguments, the
// command's index (INCREMENTING_CONSTANT) or the list's value.
#version 450

layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer Arguments { uint words[]; } arguments;
// per word of an image: where it comes from (below), then per word the list's value
layout(set = 0, binding = 1) readonly buffer Sources { uint words[]; } sources;
layout(set = 0, binding = 2) writeonly buffer Images { uint words[]; } images;

layout(push_constant) uniform Batch {
    uint argument_index; // word of the batch's first command in its bound range
    uint stride_words;   // ByteStride / 4
    uint source_index;   // word of the sources in their bound range
    uint image_index;    // word of the batch's first image in its bound range
    uint image_words;    // from one image to the next
    uint words;          // words an image holds
    uint first;          // the batch's first command's index in the ExecuteIndirect
    uint size;           // commands in the batch
} batch;

const uint FROM_LIST = 0xffffffffu;     // the list's value
const uint COMMAND_INDEX = 0xfffffffeu; // the command's index; else a word of the command

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= batch.size)
        return;
    uint command = batch.argument_index + i * batch.stride_words;
    uint image = batch.image_index + i * batch.image_words;
    for (uint w = 0u; w < batch.words; w++) {
        uint from = sources.words[batch.source_index + w];
        uint value = sources.words[batch.source_index + batch.words + w];
        if (from == COMMAND_INDEX)
            value = batch.first + i;
        else if (from != FROM_LIST)
            value = arguments.words[command + from];
        images.words[image + w] = value;
    }
}
