/* shader_runner: errors, allocation, tokens, value encodings and the DXGI format table. */
#include "shader_runner.h"

/* ---- small utilities ---- */

const char *current_file;
unsigned file_errors; /* syntax errors and failed checks of the current file */

void fail_at(int line, const char *fmt, ...)
{
    char text[1024];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof(text), fmt, args);
    va_end(args);
    file_errors++;
    harness_check(false, current_file, line, "%s", text);
}

void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p) {
        fprintf(stderr, "shader_runner: out of memory\n");
        exit(1);
    }
    return p;
}

void *xrealloc(void *p, size_t size)
{
    if (!(p = realloc(p, size ? size : 1))) {
        fprintf(stderr, "shader_runner: out of memory\n");
        exit(1);
    }
    return p;
}

char *xstrdup(const char *s)
{
    char *p = xcalloc(strlen(s) + 1, 1);
    memcpy(p, s, strlen(s) + 1);
    return p;
}

void copy_name(char *dst, size_t size, const char *src)
{
    snprintf(dst, size, "%s", src);
}

/* ---- tokens ---- */

/* Splits line into whitespace-separated tokens; "quoted strings" are one token. A '#'
 * outside quotes starts a comment. The line is modified in place. */
unsigned tokenize(char *line, char **tokens, unsigned max)
{
    unsigned count = 0;
    char *p = line;
    for (;;) {
        while (isspace((unsigned char)*p))
            p++;
        if (!*p || *p == '#')
            break;
        if (count == max)
            break;
        if (*p == '"') {
            tokens[count++] = ++p;
            while (*p && *p != '"')
                p++;
        } else {
            tokens[count++] = p;
            while (*p && !isspace((unsigned char)*p))
                p++;
        }
        if (!*p)
            break;
        *p++ = 0;
    }
    return count;
}

bool parse_u64(const char *text, uint64_t *out)
{
    char *end;
    if (!text || !*text || *text == '-')
        return false;
    errno = 0;
    *out = strtoull(text, &end, 0);
    return !*end && !errno;
}

bool parse_uint(const char *text, UINT *out)
{
    uint64_t v;
    if (!parse_u64(text, &v) || v > UINT32_MAX)
        return false;
    *out = (UINT)v;
    return true;
}

/* "key=value": returns value if token starts with key=, else NULL. */
const char *option(const char *token, const char *key)
{
    size_t n = strlen(key);
    return !strncmp(token, key, n) && token[n] == '=' ? token + n + 1 : NULL;
}

bool parse_type(const char *text, enum value_type *type)
{
    for (size_t i = 0; i < sizeof(value_types) / sizeof(value_types[0]); i++) {
        if (!strcmp(text, value_types[i].name)) {
            *type = (enum value_type)i;
            return true;
        }
    }
    return false;
}

/* IEEE binary16 <-> binary32, rounding to nearest even. */
static uint16_t float_to_half(float f)
{
    uint32_t bits, sign, exponent, mantissa;
    memcpy(&bits, &f, 4);
    sign = (bits >> 16) & 0x8000;
    exponent = (bits >> 23) & 0xff;
    mantissa = bits & 0x7fffff;
    if (exponent == 0xff)
        return (uint16_t)(sign | 0x7c00 | (mantissa ? 0x200 | (mantissa >> 13) : 0));
    int e = (int)exponent - 127 + 15;
    if (e >= 31)
        return (uint16_t)(sign | 0x7c00);
    if (e <= 0) {
        /* A subnormal half (or zero): shift the mantissa with its implicit 1 in. */
        if (e < -10)
            return (uint16_t)sign;
        mantissa |= 0x800000;
        unsigned shift = (unsigned)(14 - e);
        uint32_t half = mantissa >> shift, rest = mantissa & ((1u << shift) - 1), midpoint = 1u << (shift - 1);
        if (rest > midpoint || (rest == midpoint && (half & 1)))
            half++;
        return (uint16_t)(sign | half);
    }
    uint32_t half = ((uint32_t)e << 10) | (mantissa >> 13), rest = mantissa & 0x1fff;
    if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
        half++; /* may carry into the exponent, up to infinity: right */
    return (uint16_t)(sign | half);
}

static float half_to_float(uint16_t h)
{
    unsigned exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
    float f = exponent == 0 ? ldexpf((float)mantissa, -24)
            : exponent == 31 ? (mantissa ? NAN : INFINITY) : ldexpf((float)(mantissa | 0x400), (int)exponent - 25);
    return (h & 0x8000) ? -f : f;
}

static int64_t round_normalized(double v, double lo, double scale)
{
    if (isnan(v))
        return 0;
    v = v < lo ? lo : v > 1.0 ? 1.0 : v;
    return (int64_t)floor(v * scale + 0.5);
}

/* Writes v as type into out (value_types[type].size bytes, little-endian). */
void encode_value(struct value v, enum value_type type, uint8_t *out)
{
    int64_t i = v.i; /* of a float, its integer view (float_value) */
    double d = as_double(v);
    uint32_t bits;
    switch (type) {
    case TYPE_FLOAT: {
        float f = (float)d;
        memcpy(&bits, &f, 4);
        break;
    }
    case TYPE_HALF: bits = float_to_half((float)d); break;
    case TYPE_UNORM16: bits = (uint32_t)round_normalized(d, 0.0, 65535.0); break;
    case TYPE_SNORM16: bits = (uint32_t)round_normalized(d, -1.0, 32767.0); break;
    case TYPE_UNORM8: bits = (uint32_t)round_normalized(d, 0.0, 255.0); break;
    case TYPE_SNORM8: bits = (uint32_t)round_normalized(d, -1.0, 127.0); break;
    default: bits = (uint32_t)i; break;
    }
    for (unsigned b = 0; b < value_types[type].size; b++)
        out[b] = (uint8_t)(bits >> (8 * b));
}

/* The value of type held at data: an integer, or a number for the real types. */
struct value decode_value(const uint8_t *data, enum value_type type)
{
    uint32_t bits = 0;
    float f;
    for (unsigned b = 0; b < value_types[type].size; b++)
        bits |= (uint32_t)data[b] << (8 * b);
    switch (type) {
    case TYPE_UINT: return int_value(bits);
    case TYPE_INT: return int_value((int32_t)bits);
    case TYPE_FLOAT: memcpy(&f, &bits, 4); return float_value(f);
    case TYPE_HALF: return float_value(half_to_float((uint16_t)bits));
    case TYPE_UINT16: case TYPE_UINT8: return int_value(bits);
    case TYPE_INT16: return int_value((int16_t)bits);
    case TYPE_INT8: return int_value((int8_t)bits);
    case TYPE_UNORM16: return float_value(bits / 65535.0);
    case TYPE_SNORM16: return float_value(fmax((int16_t)bits / 32767.0, -1.0));
    case TYPE_UNORM8: return float_value(bits / 255.0);
    case TYPE_SNORM8: return float_value(fmax((int8_t)bits / 127.0, -1.0));
    }
    return int_value(0);
}

/* A literal of type: a number ("1.5", "-inf", "nan") for the real types, else an integer that
 * fits the type's bits as unsigned or signed ("0xff", "-1"). */
bool parse_literal(const char *text, enum value_type type, struct value *out)
{
    char *end;
    unsigned bits = value_types[type].size * 8;
    errno = 0;
    if (value_types[type].real) {
        double d = strtod(text, &end);
        if (end != text && *end == 'f')
            end++;
        *out = float_value(d);
        return end != text && !*end;
    }
    if (*text == '-') {
        long long v = strtoll(text, &end, 0);
        if (v < -(1ll << (bits - 1)))
            return false;
        *out = int_value(v);
    } else {
        unsigned long long v = strtoull(text, &end, 0);
        if (v > (bits == 32 ? UINT32_MAX : (1ull << bits) - 1))
            return false;
        *out = int_value((int64_t)v);
    }
    return end != text && !*end && !errno;
}

/* A 32-bit literal: "1.5" / "1e3" / "2.0f" are floats, others integers (0x.. and negative allowed). */
bool parse_bits32(const char *text, enum value_type type, uint32_t *out)
{
    char *end;
    errno = 0;
    if (type == TYPE_FLOAT) {
        float f = strtof(text, &end);
        if (*end == 'f')
            end++;
        memcpy(out, &f, 4);
    } else if (*text == '-') {
        long long v = strtoll(text, &end, 0);
        if (v < INT32_MIN)
            return false;
        *out = (uint32_t)(int32_t)v;
    } else {
        unsigned long long v = strtoull(text, &end, 0);
        if (v > UINT32_MAX)
            return false;
        *out = (uint32_t)v;
    }
    return end != text && !*end && !errno;
}

bool looks_float(const char *text)
{
    if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
        return false;
    return strpbrk(text, ".eEn") != NULL || (strlen(text) > 1 && text[strlen(text) - 1] == 'f');
}

/* The DXGI formats buffers' typed views and textures name: bytes of a texel (of a 4x4 block for
 * block-compressed ones). */
#define FORMAT(name, bytes, block) {#name, DXGI_FORMAT_##name, bytes, block}
const struct format_info format_names[] = {
    FORMAT(R32G32B32A32_TYPELESS, 16, 1), FORMAT(R32G32B32A32_FLOAT, 16, 1), FORMAT(R32G32B32A32_UINT, 16, 1),
    FORMAT(R32G32B32A32_SINT, 16, 1), FORMAT(R32G32B32_FLOAT, 12, 1), FORMAT(R32G32B32_UINT, 12, 1), FORMAT(R32G32B32_SINT, 12, 1),
    FORMAT(D32_FLOAT_S8X24_UINT, 8, 1), FORMAT(D24_UNORM_S8_UINT, 4, 1),
    FORMAT(R16G16B16A16_TYPELESS, 8, 1), FORMAT(R16G16B16A16_FLOAT, 8, 1), FORMAT(R16G16B16A16_UNORM, 8, 1),
    FORMAT(R16G16B16A16_UINT, 8, 1), FORMAT(R16G16B16A16_SNORM, 8, 1), FORMAT(R16G16B16A16_SINT, 8, 1),
    FORMAT(R32G32_TYPELESS, 8, 1), FORMAT(R32G32_FLOAT, 8, 1), FORMAT(R32G32_UINT, 8, 1), FORMAT(R32G32_SINT, 8, 1),
    FORMAT(R10G10B10A2_TYPELESS, 4, 1), FORMAT(R10G10B10A2_UNORM, 4, 1), FORMAT(R10G10B10A2_UINT, 4, 1),
    FORMAT(R11G11B10_FLOAT, 4, 1),
    FORMAT(R8G8B8A8_TYPELESS, 4, 1), FORMAT(R8G8B8A8_UNORM, 4, 1), FORMAT(R8G8B8A8_UNORM_SRGB, 4, 1),
    FORMAT(R8G8B8A8_UINT, 4, 1), FORMAT(R8G8B8A8_SNORM, 4, 1), FORMAT(R8G8B8A8_SINT, 4, 1),
    FORMAT(R16G16_TYPELESS, 4, 1), FORMAT(R16G16_FLOAT, 4, 1), FORMAT(R16G16_UNORM, 4, 1), FORMAT(R16G16_UINT, 4, 1),
    FORMAT(R16G16_SNORM, 4, 1), FORMAT(R16G16_SINT, 4, 1),
    FORMAT(R32_TYPELESS, 4, 1), FORMAT(D32_FLOAT, 4, 1), FORMAT(R32_FLOAT, 4, 1), FORMAT(R32_UINT, 4, 1), FORMAT(R32_SINT, 4, 1),
    FORMAT(R8G8_TYPELESS, 2, 1), FORMAT(R8G8_UNORM, 2, 1), FORMAT(R8G8_UINT, 2, 1), FORMAT(R8G8_SNORM, 2, 1),
    FORMAT(R8G8_SINT, 2, 1),
    FORMAT(R16_TYPELESS, 2, 1), FORMAT(R16_FLOAT, 2, 1), FORMAT(D16_UNORM, 2, 1), FORMAT(R16_UNORM, 2, 1),
    FORMAT(R16_UINT, 2, 1), FORMAT(R16_SNORM, 2, 1), FORMAT(R16_SINT, 2, 1),
    FORMAT(R8_TYPELESS, 1, 1), FORMAT(R8_UNORM, 1, 1), FORMAT(R8_UINT, 1, 1), FORMAT(R8_SNORM, 1, 1), FORMAT(R8_SINT, 1, 1),
    FORMAT(A8_UNORM, 1, 1), FORMAT(R9G9B9E5_SHAREDEXP, 4, 1), FORMAT(B5G6R5_UNORM, 2, 1), FORMAT(B5G5R5A1_UNORM, 2, 1),
    FORMAT(B8G8R8A8_TYPELESS, 4, 1), FORMAT(B8G8R8A8_UNORM, 4, 1), FORMAT(B8G8R8A8_UNORM_SRGB, 4, 1),
    FORMAT(B8G8R8X8_UNORM, 4, 1), FORMAT(B4G4R4A4_UNORM, 2, 1),
    FORMAT(BC1_TYPELESS, 8, 4), FORMAT(BC1_UNORM, 8, 4), FORMAT(BC1_UNORM_SRGB, 8, 4),
    FORMAT(BC2_TYPELESS, 16, 4), FORMAT(BC2_UNORM, 16, 4), FORMAT(BC2_UNORM_SRGB, 16, 4),
    FORMAT(BC3_TYPELESS, 16, 4), FORMAT(BC3_UNORM, 16, 4), FORMAT(BC3_UNORM_SRGB, 16, 4),
    FORMAT(BC4_TYPELESS, 8, 4), FORMAT(BC4_UNORM, 8, 4), FORMAT(BC4_SNORM, 8, 4),
    FORMAT(BC5_TYPELESS, 16, 4), FORMAT(BC5_UNORM, 16, 4), FORMAT(BC5_SNORM, 16, 4),
    FORMAT(BC7_TYPELESS, 16, 4), FORMAT(BC7_UNORM, 16, 4), FORMAT(BC7_UNORM_SRGB, 16, 4),
};
#undef FORMAT

const struct format_info *find_format(const char *name)
{
    if (!strncasecmp(name, "DXGI_FORMAT_", 12))
        name += 12;
    for (size_t f = 0; f < sizeof(format_names) / sizeof(format_names[0]); f++)
        if (!strcasecmp(name, format_names[f].name))
            return &format_names[f];
    return NULL;
}

static const struct format_info *format_info(DXGI_FORMAT format)
{
    for (size_t f = 0; f < sizeof(format_names) / sizeof(format_names[0]); f++)
        if (format_names[f].format == format)
            return &format_names[f];
    return NULL;
}

UINT format_size(DXGI_FORMAT format)
{
    const struct format_info *info = format_info(format);
    return info ? info->bytes : 4;
}

const struct value_type_info value_types[TYPE_SNORM8 + 1] = {
    [TYPE_UINT] = {"uint", 4, false},       [TYPE_INT] = {"int", 4, false},         [TYPE_FLOAT] = {"float", 4, true},
    [TYPE_HALF] = {"half", 2, true},        [TYPE_UINT16] = {"uint16", 2, false},   [TYPE_INT16] = {"int16", 2, false},
    [TYPE_UNORM16] = {"unorm16", 2, true},  [TYPE_SNORM16] = {"snorm16", 2, true},  [TYPE_UINT8] = {"uint8", 1, false},
    [TYPE_INT8] = {"int8", 1, false},       [TYPE_UNORM8] = {"unorm8", 1, true},    [TYPE_SNORM8] = {"snorm8", 1, true},
};

const char *const view_dimension_names[] = {"", "1d", "1darray", "2d", "2darray", "3d", "cube", "cubearray"};
