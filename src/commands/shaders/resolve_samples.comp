// Resolves the Vulkan resolve commands cannot do (commands/resolve_pass.c): MIN, MAX or AVERAGE
// (or sample 0) of a multisampled source's samples, for a region that may move. Each thread reads
// the samples of its texels through a view of the resolve's Format (texelFetch), takes the mode,
// encodes the result in Format's texel layout and writes it as whole words into a buffer that a
// buffer-to-image copy then puts at the region's place (the destination's Vulkan format may be
// another member of the family: the copy keeps the bits). Compiled three times: RESOLVE_FLOAT
// (float, unorm, snorm, sRGB and depth formats), RESOLVE_UINT (and stencil), RESOLVE_SINT.
#version 450
#extension GL_EXT_samplerless_texture_functions : require

layout(local_size_x = 8, local_size_y = 8) in;

#if defined(RESOLVE_UINT)
layout(set = 0, binding = 0) uniform utexture2DMS source;
#define VALUE uvec4
#elif defined(RESOLVE_SINT)
layout(set = 0, binding = 0) uniform itexture2DMS source;
#define VALUE ivec4
#else
layout(set = 0, binding = 0) uniform texture2DMS source;
#define VALUE vec4
#endif
layout(set = 0, binding = 1) writeonly buffer Texels { uint words[]; } texels;

// How a component is stored (resolve_pass.c: enum component_encoding).
const uint UNORM = 0u, SNORM = 1u, UINT = 2u, SINT = 3u, FLOAT = 4u, UFLOAT = 5u, SRGB = 6u;
const uint AVERAGE = 0u, MIN = 1u, MAX = 2u, SAMPLE_ZERO = 3u;

layout(push_constant) uniform Pass {
    ivec2 origin;          // the region's first texel in the source
    uint width, height;    // of the region, in texels
    uint words_per_row;    // in the buffer (rows start on a word)
    uint first_word;       // of the region in the bound range
    uint samples;
    uint mode;
    uint texel_bytes;      // 1, 2, 4, 8, 12 or 16
    uint component_count;
    uint bits;             // each component's width, 8 bits each (component 0 lowest)
    uint offsets;          // each component's first bit in the texel, 8 bits each
    uint encodings;        // each component's encoding, 8 bits each
} pass;

uint field(uint packed, uint component)
{
    return (packed >> (8u * component)) & 0xffu;
}

uint mask(uint bits)
{
    return bits >= 32u ? 0xffffffffu : (1u << bits) - 1u;
}

VALUE resolve(ivec2 position)
{
    VALUE value = texelFetch(source, position, 0);
    if (pass.mode == SAMPLE_ZERO)
        return value;
    for (int s = 1; s < int(pass.samples); s++) {
        VALUE sample_value = texelFetch(source, position, s);
        if (pass.mode == MIN)
            value = min(value, sample_value);
        else if (pass.mode == MAX)
            value = max(value, sample_value);
        else
            value += sample_value;
    }
#if !defined(RESOLVE_UINT) && !defined(RESOLVE_SINT)
    if (pass.mode == AVERAGE)
        value /= float(pass.samples);
#endif
    return value;
}

#if !defined(RESOLVE_UINT) && !defined(RESOLVE_SINT)
float srgb_to_linear(float c)
{
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

// Of code and its two neighbours, the one whose value is nearest v: a float cannot hold every
// step of a 24-bit unorm, and the sRGB curve is computed, not looked up.
uint nearest_code(uint code, float v, uint bits, bool srgb)
{
    uint best = code;
    float scale = float(mask(bits)), best_error = 1e30;
    for (int d = -1; d <= 1; d++) {
        int candidate = int(code) + d;
        if (candidate < 0 || uint(candidate) > mask(bits))
            continue;
        float decoded = srgb ? srgb_to_linear(float(candidate) / scale) : float(candidate) / scale;
        if (abs(decoded - v) < best_error) {
            best_error = abs(decoded - v);
            best = uint(candidate);
        }
    }
    return best;
}

// An unsigned float of 5 exponent bits and bits - 5 mantissa bits (R11G11B10's components).
uint encode_ufloat(float v, uint bits)
{
    uint mantissa_bits = bits - 5u;
    if (isnan(v))
        return (31u << mantissa_bits) | 1u;
    if (v <= 0.0)
        return 0u;
    uint f = floatBitsToUint(v);
    int exponent = int((f >> 23) & 0xffu) - 127 + 15;
    if (exponent >= 31)
        return 31u << mantissa_bits;
    if (exponent <= 0)
        return uint(round(v * exp2(14.0 + float(mantissa_bits))));
    return (uint(exponent) << mantissa_bits) | ((f & 0x7fffffu) >> (23u - mantissa_bits));
}

uint encode(float v, uint bits, uint encoding)
{
    if (encoding == FLOAT)
        return bits == 32u ? floatBitsToUint(v) : packHalf2x16(vec2(v, 0.0)) & 0xffffu;
    if (encoding == UFLOAT)
        return encode_ufloat(v, bits);
    if (encoding == SNORM) {
        float scale = float(mask(bits - 1u));
        return uint(int(round(clamp(v, -1.0, 1.0) * scale))) & mask(bits);
    }
    v = clamp(v, 0.0, 1.0);
    if (encoding == SRGB) {
        float c = v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1.0 / 2.4) - 0.055;
        return nearest_code(uint(round(c * float(mask(bits)))), v, bits, true);
    }
    uint code = uint(round(v * float(mask(bits))));
    return bits > 16u ? nearest_code(code, v, bits, false) : code;
}
#else
uint encode(uint v, uint bits, uint encoding)
{
    return v & mask(bits);
}
#endif

// Adds the texel's encoded components into texel_words (up to 4 words), shifted by shift bits.
void store_texel(VALUE value, uint shift, inout uint texel_words[4])
{
    for (uint c = 0u; c < pass.component_count; c++) {
        uint bits = field(pass.bits, c), offset = field(pass.offsets, c) + shift;
#if defined(RESOLVE_UINT) || defined(RESOLVE_SINT)
        uint code = encode(uint(value[c]), bits, field(pass.encodings, c));
#else
        uint code = encode(value[c], bits, field(pass.encodings, c));
#endif
        texel_words[offset / 32u] |= code << (offset % 32u);
    }
}

void main()
{
    uint unit = gl_GlobalInvocationID.x, row = gl_GlobalInvocationID.y;
    uint texel_words[4] = uint[4](0u, 0u, 0u, 0u);

    if (row >= pass.height)
        return;
    if (pass.texel_bytes < 4u) {
        // a word of 4 / texel_bytes texels
        uint per_word = 4u / pass.texel_bytes;
        if (unit >= pass.words_per_row)
            return;
        for (uint i = 0u; i < per_word; i++) {
            uint x = unit * per_word + i;
            if (x < pass.width)
                store_texel(resolve(pass.origin + ivec2(x, row)), 8u * pass.texel_bytes * i, texel_words);
        }
        texels.words[pass.first_word + row * pass.words_per_row + unit] = texel_words[0];
        return;
    }
    if (unit >= pass.width)
        return;
    store_texel(resolve(pass.origin + ivec2(unit, row)), 0u, texel_words);
    uint word_count = pass.texel_bytes / 4u;
    for (uint w = 0u; w < word_count; w++)
        texels.words[pass.first_word + row * pass.words_per_row + unit * word_count + w] = texel_words[w];
}
