// SetPredication (commands/command_list_predication.c): D3D12's predicate is a 64-bit value,
// Vulkan's conditional rendering reads 32 bits. One thread folds the two words into 1 (the value
// is not zero) or 0 at the condition's place, which draws, dispatches and clears then read.
// BINARY_OCCLUSION queries fold their count in place into a 64-bit 0 or 1 (clear_high).
#version 450

layout(local_size_x = 1) in;

layout(set = 0, binding = 0) readonly buffer Predicate { uint words[]; } predicate;
layout(set = 0, binding = 1) writeonly buffer Condition { uint values[]; } condition;

layout(push_constant) uniform Indexes {
    uint predicate_index;  // of the value's low word in its bound range, in 32-bit words
    uint condition_index;  // of the condition in its bound range
    uint clear_high;       // not 0: the word after the condition is zeroed (a 64-bit result)
} indexes;

void main()
{
    uint any = predicate.words[indexes.predicate_index] | predicate.words[indexes.predicate_index + 1];
    condition.values[indexes.condition_index] = any != 0u ? 1u : 0u;
    if (indexes.clear_high != 0u)
        condition.values[indexes.condition_index + 1] = 0u;
}
