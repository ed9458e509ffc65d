/* The element a UAV clear writes (uav_clear_value.h). D3D12's rules: ClearUnorderedAccessViewUint
 * copies the low bits of each value to its channel with no conversion (any format: the bits of a
 * float or normalized channel too), raw and structured views take the first value for every
 * 32-bit word; ClearUnorderedAccessViewFloat converts each value as the format stores it, after
 * the runtime flushed denormal inputs to 0. Channels are described by their place in the
 * element (little-endian bit offsets), which DXGI names from the least significant bit. */
#include <math.h>
#include <string.h>

#include "commands/uav_clear_value.h"

enum channel_type { TYPE_UNORM, TYPE_SNORM, TYPE_UINT, TYPE_SINT, TYPE_FLOAT };

struct channel {
    uint8_t offset, bits; /* bits 0: the format has no such channel */
};

struct clear_layout {
    DXGI_FORMAT format;
    uint8_t bytes;
    uint8_t type;
    struct channel rgba[4];
};

#define LAYOUT(name, bytes, type, ...) {DXGI_FORMAT_##name, bytes, TYPE_##type, {__VA_ARGS__}}
#define NONE {0, 0}
#define X4(bits) {0, bits}, {bits, bits}, {2 * (bits), bits}, {3 * (bits), bits}
#define X2(bits) {0, bits}, {bits, bits}, NONE, NONE
#define X1(bits) {0, bits}, NONE, NONE, NONE

/* The formats D3D12 lets typed UAVs have (some optional: the device's FORMAT_SUPPORT says). */
static const struct clear_layout layouts[] = {
    LAYOUT(R32G32B32A32_FLOAT, 16, FLOAT, X4(32)),
    LAYOUT(R32G32B32A32_UINT, 16, UINT, X4(32)),
    LAYOUT(R32G32B32A32_SINT, 16, SINT, X4(32)),
    LAYOUT(R16G16B16A16_FLOAT, 8, FLOAT, X4(16)),
    LAYOUT(R16G16B16A16_UNORM, 8, UNORM, X4(16)),
    LAYOUT(R16G16B16A16_UINT, 8, UINT, X4(16)),
    LAYOUT(R16G16B16A16_SNORM, 8, SNORM, X4(16)),
    LAYOUT(R16G16B16A16_SINT, 8, SINT, X4(16)),
    LAYOUT(R32G32_FLOAT, 8, FLOAT, X2(32)),
    LAYOUT(R32G32_UINT, 8, UINT, X2(32)),
    LAYOUT(R32G32_SINT, 8, SINT, X2(32)),
    LAYOUT(R10G10B10A2_UNORM, 4, UNORM, {0, 10}, {10, 10}, {20, 10}, {30, 2}),
    LAYOUT(R10G10B10A2_UINT, 4, UINT, {0, 10}, {10, 10}, {20, 10}, {30, 2}),
    /* 11-bit R and G, 10-bit B: unsigned floats with 5 exponent bits */
    LAYOUT(R11G11B10_FLOAT, 4, FLOAT, {0, 11}, {11, 11}, {22, 10}, NONE),
    LAYOUT(R8G8B8A8_UNORM, 4, UNORM, X4(8)),
    LAYOUT(R8G8B8A8_UINT, 4, UINT, X4(8)),
    LAYOUT(R8G8B8A8_SNORM, 4, SNORM, X4(8)),
    LAYOUT(R8G8B8A8_SINT, 4, SINT, X4(8)),
    LAYOUT(R16G16_FLOAT, 4, FLOAT, X2(16)),
    LAYOUT(R16G16_UNORM, 4, UNORM, X2(16)),
    LAYOUT(R16G16_UINT, 4, UINT, X2(16)),
    LAYOUT(R16G16_SNORM, 4, SNORM, X2(16)),
    LAYOUT(R16G16_SINT, 4, SINT, X2(16)),
    LAYOUT(R32_FLOAT, 4, FLOAT, X1(32)),
    LAYOUT(R32_UINT, 4, UINT, X1(32)),
    LAYOUT(R32_SINT, 4, SINT, X1(32)),
    LAYOUT(R8G8_UNORM, 2, UNORM, X2(8)),
    LAYOUT(R8G8_UINT, 2, UINT, X2(8)),
    LAYOUT(R8G8_SNORM, 2, SNORM, X2(8)),
    LAYOUT(R8G8_SINT, 2, SINT, X2(8)),
    LAYOUT(R16_FLOAT, 2, FLOAT, X1(16)),
    LAYOUT(R16_UNORM, 2, UNORM, X1(16)),
    LAYOUT(R16_UINT, 2, UINT, X1(16)),
    LAYOUT(R16_SNORM, 2, SNORM, X1(16)),
    LAYOUT(R16_SINT, 2, SINT, X1(16)),
    LAYOUT(R8_UNORM, 1, UNORM, X1(8)),
    LAYOUT(R8_UINT, 1, UINT, X1(8)),
    LAYOUT(R8_SNORM, 1, SNORM, X1(8)),
    LAYOUT(R8_SINT, 1, SINT, X1(8)),
    /* A8 keeps the fourth value (alpha), the only channel it has */
    LAYOUT(A8_UNORM, 1, UNORM, NONE, NONE, NONE, {0, 8}),
    LAYOUT(B8G8R8A8_UNORM, 4, UNORM, {16, 8}, {8, 8}, {0, 8}, {24, 8}),
    LAYOUT(B5G6R5_UNORM, 2, UNORM, {11, 5}, {5, 6}, {0, 5}, NONE),
    LAYOUT(B5G5R5A1_UNORM, 2, UNORM, {10, 5}, {5, 5}, {0, 5}, {15, 1}),
    LAYOUT(B4G4R4A4_UNORM, 2, UNORM, {8, 4}, {4, 4}, {0, 4}, {12, 4}),
};

static const struct clear_layout *find_layout(DXGI_FORMAT format)
{
    for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
        if (layouts[i].format == format)
            return &layouts[i];
    return NULL;
}

static uint32_t low_bits(unsigned bits)
{
    return bits >= 32 ? 0xffffffffu : (1u << bits) - 1;
}

static float float_from_bits(uint32_t bits)
{
    float value;
    memcpy(&value, &bits, sizeof(value));
    return value;
}

static uint32_t bits_from_float(float value)
{
    uint32_t bits;
    memcpy(&bits, &value, sizeof(bits));
    return bits;
}

/* A float with 5 exponent bits (bias 15) and mantissa_bits of mantissa, signed (float16) or not
 * (the 11- and 10-bit floats), rounded to nearest even; too large is infinity. */
static uint32_t small_float(float value, unsigned mantissa_bits, bool has_sign)
{
    const uint32_t infinity = 0x1fu << mantissa_bits;
    uint32_t sign = has_sign && signbit(value) ? 1u << (5 + mantissa_bits) : 0;
    double magnitude = fabs((double)value), scaled;
    int exponent;

    if (isnan(value))
        return sign | infinity | (1u << (mantissa_bits - 1)); /* a quiet NaN */
    if (!has_sign && value < 0.0f)
        return 0;
    if (isinf(value))
        return sign | infinity;
    if (magnitude < ldexp(1.0, -14)) /* denormal: units of 2^(-14 - mantissa_bits); rounding up to 2^-14 gives its encoding */
        return sign | (uint32_t)nearbyint(ldexp(magnitude, 14 + (int)mantissa_bits));
    frexp(magnitude, &exponent);
    exponent -= 1; /* magnitude is in [2^exponent, 2^(exponent + 1)) */
    scaled = nearbyint(ldexp(magnitude, (int)mantissa_bits - exponent));
    if (scaled >= ldexp(1.0, (int)mantissa_bits + 1)) {
        scaled = ldexp(1.0, (int)mantissa_bits);
        exponent++;
    }
    if (exponent + 15 >= 31)
        return sign | infinity;
    return sign | ((uint32_t)(exponent + 15) << mantissa_bits) | ((uint32_t)scaled - (1u << mantissa_bits));
}

/* The value of such a float, where it is finite; false for an infinity or a NaN. */
static bool small_float_value(uint32_t bits, unsigned mantissa_bits, bool has_sign, float *value)
{
    uint32_t exponent = (bits >> mantissa_bits) & 0x1f, mantissa = bits & low_bits(mantissa_bits);
    double magnitude;

    if (exponent == 0x1f)
        return false;
    magnitude = exponent ? ldexp((double)(mantissa | (1u << mantissa_bits)), (int)exponent - 15 - (int)mantissa_bits)
            : ldexp((double)mantissa, -14 - (int)mantissa_bits);
    *value = (float)(has_sign && (bits >> (5 + mantissa_bits)) & 1 ? -magnitude : magnitude);
    return true;
}

/* One Float value as a channel of `type` and `bits` bits stores it. */
static uint32_t convert_float(float value, enum channel_type type, unsigned bits)
{
    double max;

    if (fpclassify(value) == FP_SUBNORMAL)
        value = 0.0f; /* the runtime's flush of denormal inputs */
    switch (type) {
    case TYPE_UNORM:
        if (isnan(value) || value <= 0.0f)
            return 0;
        return (uint32_t)nearbyint((value >= 1.0f ? 1.0 : (double)value) * low_bits(bits));
    case TYPE_SNORM:
        if (isnan(value))
            return 0;
        max = (double)low_bits(bits - 1);
        return (uint32_t)(int32_t)nearbyint((value >= 1.0f ? 1.0 : value <= -1.0f ? -1.0 : (double)value) * max) & low_bits(bits);
    case TYPE_UINT:
        if (isnan(value) || value <= 0.0f)
            return 0;
        return (double)value >= (double)low_bits(bits) ? low_bits(bits) : (uint32_t)value;
    case TYPE_SINT:
        max = (double)low_bits(bits - 1);
        if (isnan(value))
            return 0;
        if ((double)value >= max)
            return (uint32_t)max;
        if ((double)value <= -max - 1.0)
            return (uint32_t)(int32_t)(-max - 1.0) & low_bits(bits);
        return (uint32_t)(int32_t)value & low_bits(bits);
    case TYPE_FLOAT:
        if (bits == 32)
            return bits_from_float(value);
        return small_float(value, bits == 16 ? 10 : bits - 5, bits == 16);
    }
    return 0;
}

static void write_bits(uint8_t *element, unsigned offset, unsigned bits, uint32_t value)
{
    for (unsigned i = 0; i < bits; i++)
        if ((value >> i) & 1)
            element[(offset + i) / 8] |= (uint8_t)(1u << ((offset + i) % 8));
}

static uint32_t read_bits(const uint8_t *element, unsigned offset, unsigned bits)
{
    uint32_t value = 0;
    for (unsigned i = 0; i < bits; i++)
        value |= (uint32_t)((element[(offset + i) / 8] >> ((offset + i) % 8)) & 1) << i;
    return value;
}

bool d3d12xs_uav_clear_element(DXGI_FORMAT format, const uint32_t values[4], bool float_values, uint8_t element[D3D12XS_UAV_CLEAR_MAX_BYTES],
        uint32_t *element_size)
{
    const struct clear_layout *layout;

    memset(element, 0, D3D12XS_UAV_CLEAR_MAX_BYTES);
    if (format == DXGI_FORMAT_R32_TYPELESS) { /* raw and structured views: 32-bit words of the first value, as given */
        memcpy(element, &values[0], 4);
        *element_size = 4;
        return true;
    }
    if (!(layout = find_layout(format)))
        return false;
    for (int i = 0; i < 4; i++) {
        const struct channel *channel = &layout->rgba[i];
        if (!channel->bits)
            continue;
        write_bits(element, channel->offset, channel->bits, float_values
                ? convert_float(float_from_bits(values[i]), (enum channel_type)layout->type, channel->bits)
                : values[i] & low_bits(channel->bits));
    }
    *element_size = layout->bytes;
    return true;
}

bool d3d12xs_uav_clear_color(DXGI_FORMAT format, const uint8_t element[D3D12XS_UAV_CLEAR_MAX_BYTES], VkClearColorValue *color)
{
    const struct clear_layout *layout = find_layout(format);

    memset(color, 0, sizeof(*color));
    if (!layout)
        return false;
    for (int i = 0; i < 4; i++) {
        const struct channel *channel = &layout->rgba[i];
        uint32_t bits = read_bits(element, channel->offset, channel->bits), sign_bit;
        int32_t signed_value;

        if (!channel->bits)
            continue;
        sign_bit = 1u << (channel->bits - 1);
        signed_value = channel->bits == 32 ? (int32_t)bits : (int32_t)((bits ^ sign_bit) - sign_bit);
        switch ((enum channel_type)layout->type) {
        case TYPE_UINT:
            color->uint32[i] = bits;
            break;
        case TYPE_SINT:
            color->int32[i] = signed_value;
            break;
        case TYPE_UNORM: /* exactly bits once the device scales it back and rounds */
            color->float32[i] = (float)((double)bits / low_bits(channel->bits));
            break;
        case TYPE_SNORM: /* the most negative value has no float that gives it */
            if (bits == sign_bit)
                return false;
            color->float32[i] = (float)((double)signed_value / low_bits(channel->bits - 1));
            break;
        case TYPE_FLOAT:
            /* NaNs and denormals: a device may change them on the way */
            if (channel->bits == 32) {
                if (isnan(float_from_bits(bits)) || fpclassify(float_from_bits(bits)) == FP_SUBNORMAL)
                    return false;
                color->float32[i] = float_from_bits(bits);
            } else {
                unsigned mantissa_bits = channel->bits == 16 ? 10 : channel->bits - 5u;
                if (!(bits & (0x1fu << mantissa_bits)) && (bits & low_bits(mantissa_bits)))
                    return false;
                if (!small_float_value(bits, mantissa_bits, channel->bits == 16, &color->float32[i]))
                    return false;
            }
            break;
        }
    }
    return true;
}
