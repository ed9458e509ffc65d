// Queries open across view-instanced draws (commands/command_list_query_views.c): a D3D12 query
// counted in pieces, each piece one Vulkan query result of `fields` 64-bit counts laid out one
// after the other. One thread adds the pieces field by field into the query heap's D3D12
// result (64-bit sums from 32-bit words: no shaderInt64 needed); BINARY_OCCLUSION's sum becomes
// 1 where it is not 0.
#version 450

layout(local_size_x = 1) in;

layout(set = 0, binding = 0) readonly buffer Pieces { uvec2 counts[]; } pieces;
layout(set = 0, binding = 1) writeonly buffer Result { uvec2 counts[]; } result;

layout(push_constant) uniform Sum {
    uint piece_index;  // of the first piece's first count in its bound range, in 64-bit counts
    uint piece_count;
    uint result_index; // of the result's first count in its bound range
    uint fields;       // counts in a piece and in the result
    uint binary;       // not 0: the result is 1 where the sum is not 0, else 0
} sum;

void main()
{
    for (uint field = 0u; field < sum.fields; field++) {
        uvec2 total = uvec2(0u);
        for (uint piece = 0u; piece < sum.piece_count; piece++) {
            uvec2 count = pieces.counts[sum.piece_index + piece * sum.fields + field];
            uint carry;
            total.x = uaddCarry(total.x, count.x, carry);
            total.y += count.y + carry;
        }
        if (sum.binary != 0u)
            total = uvec2((total.x | total.y) != 0u ? 1u : 0u, 0u);
        result.counts[sum.result_index + field] = total;
    }
}
