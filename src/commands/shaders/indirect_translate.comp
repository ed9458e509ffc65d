// ExecuteIndirect through generated commands (commands/command_list_generated.c): a copy of each
// command in which the vertex and index buffer views' D3D12 addresses become device addresses
// (through the GPU copy of the address table, memory/va_map.h) and index formats Vulkan's index
// types, as VK_EXT_device_generated_commands reads them. One thread per command.
#version 450
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer Arguments { uint words[]; } arguments;
layout(set = 0, binding = 1) writeonly buffer Commands { uint words[]; } commands;
layout(set = 0, binding = 2) readonly buffer Entries { uint words[]; } entries;

layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Words64 { uint64_t value; };

layout(push_constant) uniform Batch {
    uint argument_index; // word of the batch's first command in the bound arguments
    uint stride_words;   // ByteStride / 4
    uint size;           // commands in the batch
    uint command_index;  // word of the batch's first copied command in the bound output
    uint entry_index;    // word of the first entry: (word in a command) | (1 vertex, 2 index buffer) << 24
    uint entry_count;
    uint64_t table;      // the address table's level 1
    uint64_t null_address; // the device's zeroed buffer, for views of address 0 or of no resource
    uint null_size;
} batch;

const uint64_t ZERO_OFFSET = 0x10000ul * 8ul; // memory/va_map.h's D3D12XS_VA_TABLE_ZERO_OFFSET

// The device address of va and the bytes from it to its range's end; false for an address in no range.
bool translate(uint64_t va, out uint64_t address, out uint64_t remaining)
{
    uint64_t level2 = Words64(batch.table + ((va >> 32) & 0xfffful) * 8ul).value;
    uint64_t entry = level2 != 0ul ? level2 + ((va >> 16) & 0xfffful) * 32ul : batch.table + ZERO_OFFSET;
    uint64_t start = Words64(entry).value, size = Words64(entry + 8ul).value;
    if (va == 0ul || va - start >= size)
        return false;
    address = Words64(entry + 16ul).value + (va - start);
    remaining = size - (va - start);
    return true;
}

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= batch.size)
        return;
    uint source = batch.argument_index + i * batch.stride_words;
    uint destination = batch.command_index + i * batch.stride_words;
    for (uint w = 0u; w < batch.stride_words; w++)
        commands.words[destination + w] = arguments.words[source + w];
    for (uint e = 0u; e < batch.entry_count; e++) {
        uint entry = entries.words[batch.entry_index + e], word = entry & 0xffffffu, kind = entry >> 24;
        uint64_t va = uint64_t(arguments.words[source + word]) | (uint64_t(arguments.words[source + word + 1u]) << 32);
        uint size = arguments.words[source + word + 2u];
        uint64_t address, remaining;
        if (!translate(va, address, remaining)) {
            address = batch.null_address;
            remaining = uint64_t(batch.null_size);
        }
        commands.words[destination + word] = uint(address);
        commands.words[destination + word + 1u] = uint(address >> 32);
        commands.words[destination + word + 2u] = uint(min(uint64_t(size), remaining));
        if (kind == 2u) // DXGI_FORMAT_R16_UINT (57): VK_INDEX_TYPE_UINT16, else UINT32
            commands.words[destination + word + 3u] = arguments.words[source + word + 3u] == 57u ? 0u : 1u;
    }
}
