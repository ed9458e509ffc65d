// ExecuteIndirect's own path (commands/command_list_indirect_image.c): after the image pass, the
// vertex and index buffer views in each command's image get device addresses in place of their
// D3D12 addresses (through the GPU copy of the address table, memory/va_map.h, as
// indirect_translate.comp does for generated commands) and sizes clamped to the rest of their
// buffer; a view of address 0 or of no buffer gets address 0 and size 0, so the vertex shader's
// reads of it give 0. Each view is 16 bytes {address low, high, size, stride or format}.
#version 450
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

layout(local_size_x = 64) in;

layout(set = 0, binding = 0) buffer Images { uint words[]; } images;

layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Words64 { uint64_t value; };

layout(push_constant) uniform Batch {
    uint image_index; // word of the batch's first image in the bound range
    uint image_words; // from one image to the next
    uint size;        // images in the batch
    uint view_word;   // word of the first view in an image
    uint view_count;  // consecutive views
    uint padding;
    uint64_t table;   // the address table's level 1
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
    uint first = batch.image_index + i * batch.image_words + batch.view_word;
    for (uint v = 0u; v < batch.view_count; v++) {
        uint w = first + 4u * v;
        uint64_t va = uint64_t(images.words[w]) | (uint64_t(images.words[w + 1u]) << 32);
        uint64_t address = 0ul, remaining = 0ul;
        if (!translate(va, address, remaining)) {
            address = 0ul;
            remaining = 0ul;
        }
        images.words[w] = uint(address);
        images.words[w + 1u] = uint(address >> 32);
        images.words[w + 2u] = uint(min(uint64_t(images.words[w + 2u]), remaining));
    }
}
