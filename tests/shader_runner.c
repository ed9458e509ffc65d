/* shader_runner: runs data-driven compute shader tests (tests/shaders/NAME.shader_test) through
 * the public D3D12 API: D3DCompile -> serialized root signature -> pipeline -> buffers,
 * views and root arguments -> Dispatch -> readback -> compare. docs/shader-tests.md describes
 * the file format. Usage: shader_runner FILE... (exit 77 when every file is a known bug). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>

#include <d3dcompiler.h>

#include "harness.h"

#define SKIP_EXIT_CODE 77
#define MAX_TOKENS 256
#define MAX_SHADERS 8
#define MAX_DEFINES 8
#define MAX_PARAMS 64
#define MAX_RANGES 32
#define MAX_SAMPLERS 16
#define MAX_BUFFERS 32
#define MAX_VIEWS 256
#define MAX_NEEDLES 4
#define MAX_TEXTURES 32
#define MAX_SAMPLER_VIEWS 64

/* ---- small utilities ---- */

static const char *current_file;
static unsigned file_errors; /* syntax errors and failed checks of the current file */

#define FAIL_AT(line, ...) fail_at(line, __VA_ARGS__)
static void fail_at(int line, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail_at(int line, const char *fmt, ...)
{
    char text[1024];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof(text), fmt, args);
    va_end(args);
    file_errors++;
    harness_check(false, current_file, line, "%s", text);
}

static void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p) {
        fprintf(stderr, "shader_runner: out of memory\n");
        exit(1);
    }
    return p;
}

static void *xrealloc(void *p, size_t size)
{
    if (!(p = realloc(p, size ? size : 1))) {
        fprintf(stderr, "shader_runner: out of memory\n");
        exit(1);
    }
    return p;
}

static char *xstrdup(const char *s)
{
    char *p = xcalloc(strlen(s) + 1, 1);
    memcpy(p, s, strlen(s) + 1);
    return p;
}

static void copy_name(char *dst, size_t size, const char *src)
{
    snprintf(dst, size, "%s", src);
}

/* ---- expressions: integers (int64) and floats (double) with C promotion rules ---- */

struct value {
    bool is_float;
    int64_t i;
    double f;
};

/* How the packed bytes of a texture's subresource map to texels, for the names x y z c layer mip
 * of expressions (NULL for buffers). */
struct texel_space {
    UINT width, height, depth; /* of the subresource, in texels (blocks of block-compressed formats) */
    UINT texel_bytes, mip, layer;
};

struct expr {
    const char *p;
    int64_t index, lanes;
    const char *error;
    const struct texel_space *space; /* a texture's subresource, or NULL */
    size_t offset;                   /* textures: the element's byte offset in the subresource */
    unsigned value_size;             /* textures: the element's size in bytes */
};

/* "let NAME = EXPRESSION" definitions of the current file, usable in later expressions. */
#define MAX_LETS 32
static struct let {
    char name[32];
    char *text;
} lets[MAX_LETS];
static unsigned let_count;
static unsigned let_depth;

static struct value int_value(int64_t i) { struct value v = {false, i, (double)i}; return v; }
/* The integer view of a float is only defined within int64's range (NaN, infinities and huge
 * values read 0 there: nothing uses it for them, and C makes the conversion undefined). */
static struct value float_value(double f)
{
    struct value v = {true, f > -9.2e18 && f < 9.2e18 ? (int64_t)f : 0, f};
    return v;
}
static double as_double(struct value v) { return v.is_float ? v.f : (double)v.i; }

static void skip_space(struct expr *e)
{
    while (isspace((unsigned char)*e->p))
        e->p++;
}

static bool accept(struct expr *e, const char *op)
{
    size_t n = strlen(op);
    skip_space(e);
    if (strncmp(e->p, op, n))
        return false;
    /* Do not take "<" out of "<<" or "<=", "&" out of "&&", and so on. */
    if (n == 1 && e->p[1] && strchr("<>&|=", op[0]) && (e->p[1] == op[0] || (e->p[1] == '=' && op[0] != '=')))
        return false;
    e->p += n;
    return true;
}

static struct value parse_ternary(struct expr *e);

static bool need_int(struct expr *e, struct value a, struct value b)
{
    if (a.is_float || b.is_float) {
        if (!e->error)
            e->error = "bit operations need integers";
        return false;
    }
    return true;
}

static struct value parse_primary(struct expr *e)
{
    char name[32];
    size_t n = 0;

    skip_space(e);
    if (accept(e, "(")) {
        struct value v = parse_ternary(e);
        if (!accept(e, ")") && !e->error)
            e->error = "missing ')'";
        return v;
    }
    if (isdigit((unsigned char)*e->p) || *e->p == '.') {
        const char *start = e->p;
        char *end;
        bool is_float = false;
        if (!(start[0] == '0' && (start[1] == 'x' || start[1] == 'X')))
            for (const char *q = start; isalnum((unsigned char)*q) || *q == '.'
                    || ((*q == '-' || *q == '+') && (q[-1] == 'e' || q[-1] == 'E')); q++)
                if (*q == '.' || *q == 'e' || *q == 'E')
                    is_float = true;
        if (is_float) {
            double f = strtod(start, &end);
            e->p = end;
            if (*e->p == 'f')
                e->p++;
            return float_value(f);
        }
        unsigned long long u = strtoull(start, &end, 0);
        e->p = end;
        if (*e->p == 'u' || *e->p == 'U')
            e->p++;
        return int_value((int64_t)u);
    }
    while ((isalnum((unsigned char)*e->p) || *e->p == '_') && n < sizeof(name) - 1)
        name[n++] = *e->p++;
    name[n] = 0;
    if (!n) {
        if (!e->error)
            e->error = "expected a number, a name or '('";
        return int_value(0);
    }
    if (!strcmp(name, "i"))
        return int_value(e->index);
    if (!strcmp(name, "lanes"))
        return int_value(e->lanes);
    if (e->space) {
        const struct texel_space *s = e->space;
        size_t texel = e->offset / s->texel_bytes;
        if (!strcmp(name, "x"))
            return int_value((int64_t)(texel % s->width));
        if (!strcmp(name, "y"))
            return int_value((int64_t)(texel / s->width % s->height));
        if (!strcmp(name, "z"))
            return int_value((int64_t)(texel / s->width / s->height));
        if (!strcmp(name, "c"))
            return int_value((int64_t)(e->offset % s->texel_bytes / (e->value_size ? e->value_size : 1)));
        if (!strcmp(name, "layer"))
            return int_value(s->layer);
        if (!strcmp(name, "mip"))
            return int_value(s->mip);
        if (!strcmp(name, "width"))
            return int_value(s->width);
        if (!strcmp(name, "height"))
            return int_value(s->height);
    }
    for (unsigned l = let_count; l-- > 0;) {
        if (!strcmp(name, lets[l].name)) {
            struct expr inner = *e;
            struct value v;
            inner.p = lets[l].text;
            inner.error = NULL;
            if (let_depth > 16) {
                e->error = "'let' definitions nest too deep";
                return int_value(0);
            }
            let_depth++;
            v = parse_ternary(&inner);
            let_depth--;
            skip_space(&inner);
            if (!inner.error && *inner.p)
                inner.error = "unexpected text after the expression";
            if (inner.error && !e->error)
                e->error = inner.error;
            return v;
        }
    }
    /* Functions. */
    struct value args[3];
    int count = 0;
    if (!accept(e, "(")) {
        if (!e->error)
            e->error = "unknown name (i, lanes, in textures x y z c layer mip width height, a 'let' name, or a function: min max abs "
                    "floor sqrt exp2 log2 sin cos pow fmod float int countbits)";
        return int_value(0);
    }
    if (!accept(e, ")")) {
        do {
            if (count < 3)
                args[count] = parse_ternary(e);
            count++;
        } while (accept(e, ","));
        if (!accept(e, ")") && !e->error)
            e->error = "missing ')' after function arguments";
    }
    if ((!strcmp(name, "min") || !strcmp(name, "max")) && count == 2) {
        bool is_min = name[1] == 'i';
        if (args[0].is_float || args[1].is_float) {
            double a = as_double(args[0]), b = as_double(args[1]);
            return float_value(is_min ? fmin(a, b) : fmax(a, b));
        }
        return int_value(is_min ? (args[0].i < args[1].i ? args[0].i : args[1].i) : (args[0].i > args[1].i ? args[0].i : args[1].i));
    }
    if (!strcmp(name, "abs") && count == 1)
        return args[0].is_float ? float_value(fabs(args[0].f)) : int_value(args[0].i < 0 ? -args[0].i : args[0].i);
    if (!strcmp(name, "floor") && count == 1)
        return float_value(floor(as_double(args[0])));
    if (!strcmp(name, "sqrt") && count == 1)
        return float_value(sqrt(as_double(args[0])));
    if (!strcmp(name, "exp2") && count == 1)
        return float_value(exp2(as_double(args[0])));
    if (!strcmp(name, "log2") && count == 1)
        return float_value(log2(as_double(args[0])));
    if (!strcmp(name, "sin") && count == 1)
        return float_value(sin(as_double(args[0])));
    if (!strcmp(name, "cos") && count == 1)
        return float_value(cos(as_double(args[0])));
    if (!strcmp(name, "pow") && count == 2)
        return float_value(pow(as_double(args[0]), as_double(args[1])));
    if (!strcmp(name, "fmod") && count == 2)
        return float_value(fmod(as_double(args[0]), as_double(args[1])));
    if (!strcmp(name, "float") && count == 1)
        return float_value(as_double(args[0]));
    if (!strcmp(name, "int") && count == 1)
        return int_value(args[0].i); /* a float's integer view truncates (float_value) */
    if (!strcmp(name, "countbits") && count == 1 && !args[0].is_float)
        return int_value(__builtin_popcountll((unsigned long long)args[0].i));
    if (!e->error)
        e->error = "unknown function or wrong argument count";
    return int_value(0);
}

static struct value parse_unary(struct expr *e)
{
    struct value v;
    if (accept(e, "-")) {
        v = parse_unary(e);
        return v.is_float ? float_value(-v.f) : int_value(-v.i);
    }
    if (accept(e, "+"))
        return parse_unary(e);
    if (accept(e, "!")) {
        v = parse_unary(e);
        return int_value(v.is_float ? v.f == 0.0 : v.i == 0);
    }
    if (accept(e, "~")) {
        v = parse_unary(e);
        if (!need_int(e, v, v))
            return v;
        return int_value(~v.i);
    }
    return parse_primary(e);
}

static struct value parse_mul(struct expr *e)
{
    struct value a = parse_unary(e), b;
    for (;;) {
        char op;
        if (accept(e, "*"))
            op = '*';
        else if (accept(e, "/"))
            op = '/';
        else if (accept(e, "%"))
            op = '%';
        else
            return a;
        b = parse_unary(e);
        if (a.is_float || b.is_float) {
            double x = as_double(a), y = as_double(b);
            a = float_value(op == '*' ? x * y : op == '/' ? x / y : fmod(x, y));
        } else if (op != '*' && !b.i) {
            if (!e->error)
                e->error = "integer division by zero";
            a = int_value(0);
        } else {
            a = int_value(op == '*' ? a.i * b.i : op == '/' ? a.i / b.i : a.i % b.i);
        }
    }
}

static struct value parse_add(struct expr *e)
{
    struct value a = parse_mul(e), b;
    for (;;) {
        bool plus;
        if (accept(e, "+"))
            plus = true;
        else if (accept(e, "-"))
            plus = false;
        else
            return a;
        b = parse_mul(e);
        if (a.is_float || b.is_float)
            a = float_value(plus ? as_double(a) + as_double(b) : as_double(a) - as_double(b));
        else
            a = int_value(plus ? a.i + b.i : a.i - b.i);
    }
}

static struct value parse_shift(struct expr *e)
{
    struct value a = parse_add(e), b;
    for (;;) {
        bool left;
        if (accept(e, "<<"))
            left = true;
        else if (accept(e, ">>"))
            left = false;
        else
            return a;
        b = parse_add(e);
        if (!need_int(e, a, b))
            return a;
        a = int_value(left ? (int64_t)((uint64_t)a.i << (b.i & 63)) : a.i >> (b.i & 63));
    }
}

static int compare(struct value a, struct value b)
{
    if (a.is_float || b.is_float) {
        double x = as_double(a), y = as_double(b);
        return x < y ? -1 : x > y ? 1 : 0;
    }
    return a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
}

static struct value parse_relational(struct expr *e)
{
    struct value a = parse_shift(e), b;
    for (;;) {
        int c;
        if (accept(e, "<=")) {
            b = parse_shift(e), c = compare(a, b), a = int_value(c <= 0);
        } else if (accept(e, ">=")) {
            b = parse_shift(e), c = compare(a, b), a = int_value(c >= 0);
        } else if (accept(e, "<")) {
            b = parse_shift(e), c = compare(a, b), a = int_value(c < 0);
        } else if (accept(e, ">")) {
            b = parse_shift(e), c = compare(a, b), a = int_value(c > 0);
        } else {
            return a;
        }
    }
}

static struct value parse_equality(struct expr *e)
{
    struct value a = parse_relational(e), b;
    for (;;) {
        if (accept(e, "=="))
            b = parse_relational(e), a = int_value(compare(a, b) == 0);
        else if (accept(e, "!="))
            b = parse_relational(e), a = int_value(compare(a, b) != 0);
        else
            return a;
    }
}

static struct value parse_bits(struct expr *e, int level)
{
    static const char *const ops[] = {"|", "^", "&"};
    struct value a = level == 2 ? parse_equality(e) : parse_bits(e, level + 1), b;
    while (accept(e, ops[level])) {
        b = level == 2 ? parse_equality(e) : parse_bits(e, level + 1);
        if (!need_int(e, a, b))
            return a;
        a = int_value(level == 0 ? a.i | b.i : level == 1 ? a.i ^ b.i : a.i & b.i);
    }
    return a;
}

static bool truth(struct value v) { return v.is_float ? v.f != 0.0 : v.i != 0; }

static struct value parse_logical_and(struct expr *e)
{
    struct value a = parse_bits(e, 0);
    while (accept(e, "&&")) {
        struct value b = parse_bits(e, 0);
        a = int_value(truth(a) && truth(b));
    }
    return a;
}

static struct value parse_logical_or(struct expr *e)
{
    struct value a = parse_logical_and(e);
    while (accept(e, "||")) {
        struct value b = parse_logical_and(e);
        a = int_value(truth(a) || truth(b));
    }
    return a;
}

static struct value parse_ternary(struct expr *e)
{
    struct value c = parse_logical_or(e), a, b;
    if (!accept(e, "?"))
        return c;
    a = parse_ternary(e);
    if (!accept(e, ":") && !e->error)
        e->error = "missing ':' in '?:'";
    b = parse_ternary(e);
    return truth(c) ? a : b;
}

/* Evaluates text for element index (of a texture: the texel index, with space and the element's
 * byte offset and size giving x y z c layer mip); false with *error set on a syntax error. */
static bool evaluate(const char *text, int64_t index, int64_t lanes, const struct texel_space *space, size_t offset,
        unsigned value_size, struct value *out, const char **error)
{
    struct expr e = {text, index, lanes, NULL, space, offset, value_size};
    *out = parse_ternary(&e);
    skip_space(&e);
    if (!e.error && *e.p)
        e.error = "unexpected text after the expression";
    *error = e.error;
    return !e.error;
}

/* The DXGI formats buffers' typed views and textures name: bytes of a texel (of a 4x4 block for
 * block-compressed ones). */
#define FORMAT(name, bytes, block) {#name, DXGI_FORMAT_##name, bytes, block}
static const struct format_info {
    const char *name;
    DXGI_FORMAT format;
    UINT bytes, block;
} format_names[] = {
    FORMAT(R32G32B32A32_TYPELESS, 16, 1), FORMAT(R32G32B32A32_FLOAT, 16, 1), FORMAT(R32G32B32A32_UINT, 16, 1),
    FORMAT(R32G32B32A32_SINT, 16, 1),
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

static const struct format_info *find_format(const char *name)
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

static UINT format_size(DXGI_FORMAT format)
{
    const struct format_info *info = format_info(format);
    return info ? info->bytes : 4;
}

/* ---- the parsed test ---- */

/* The element types of [buffer], [texture] and [expect] lines: 32-bit uint int float, and the
 * smaller ones textures hold. "real" types take and compare numbers (unorm and snorm ones their
 * value in [0, 1] or [-1, 1]); the others take integers, compared bit for bit. */
enum value_type {
    TYPE_UINT, TYPE_INT, TYPE_FLOAT, TYPE_HALF, TYPE_UINT16, TYPE_INT16, TYPE_UNORM16, TYPE_SNORM16,
    TYPE_UINT8, TYPE_INT8, TYPE_UNORM8, TYPE_SNORM8,
};

static const struct {
    const char *name;
    unsigned size;
    bool real;
} value_types[] = {
    [TYPE_UINT] = {"uint", 4, false},       [TYPE_INT] = {"int", 4, false},         [TYPE_FLOAT] = {"float", 4, true},
    [TYPE_HALF] = {"half", 2, true},        [TYPE_UINT16] = {"uint16", 2, false},   [TYPE_INT16] = {"int16", 2, false},
    [TYPE_UNORM16] = {"unorm16", 2, true},  [TYPE_SNORM16] = {"snorm16", 2, true},  [TYPE_UINT8] = {"uint8", 1, false},
    [TYPE_INT8] = {"int8", 1, false},       [TYPE_UNORM8] = {"unorm8", 1, true},    [TYPE_SNORM8] = {"snorm8", 1, true},
};
#define VALUE_TYPE_NAMES "uint|int|float|half|uint16|int16|unorm16|snorm16|uint8|int8|unorm8|snorm8"

struct shader_def {
    char name[64], entry[64], profile[16];
    char *source;
    size_t source_length, source_capacity;
    D3D_SHADER_MACRO defines[MAX_DEFINES + 1];
    char *define_text[MAX_DEFINES];
    unsigned define_count;
    int line;
    ID3DBlob *code;
    ID3D12PipelineState *pipeline;
};

struct buffer_def {
    char name[64];
    uint8_t *data;
    size_t size, capacity, cursor, declared_size;
    bool upload, uav_use, read_use, expected;
    int line;
    ID3D12Resource *resource, *staging, *readback;
};

/* [texture NAME ...]: a texture and the packed bytes of each subresource (mip + layer * mips). */
struct texture_def {
    char name[64];
    unsigned dimension; /* 1, 2 or 3 */
    bool cube, uav, depth_stencil, expected;
    const struct format_info *format;
    UINT width, height, depth, mips, layers;
    struct buffer_def *subresources;
    unsigned subresource_count;
    int line;
    ID3D12Resource *resource, *upload, *readback;
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT *layouts;
    UINT *rows;
};

enum view_kind { VIEW_SRV, VIEW_UAV, VIEW_CBV };
enum view_form { FORM_RAW, FORM_STRUCTURED, FORM_TYPED, FORM_TEXTURE, FORM_NULL };
/* View dimensions of textures ([views] dim=). */
enum view_dimension { VDIM_DEFAULT, VDIM_1D, VDIM_1DARRAY, VDIM_2D, VDIM_2DARRAY, VDIM_3D, VDIM_CUBE, VDIM_CUBEARRAY };
static const char *const view_dimension_names[] = {"", "1d", "1darray", "2d", "2darray", "3d", "cube", "cubearray"};

struct view_def {
    unsigned index;
    enum view_kind kind;
    enum view_form form;
    int buffer;
    UINT stride, count;
    UINT64 first;
    DXGI_FORMAT format;
    UINT64 offset; /* CBV */
    UINT size;     /* CBV */
    bool has_count, has_size;
    /* Textures (FORM_TEXTURE, FORM_NULL) */
    int texture;
    enum view_dimension dimension;
    UINT first_mip, mip_count, first_layer, layer_count, plane, mapping;
    bool has_layers;
    float min_lod_clamp;
    int line;
};

/* [samplers]: one sampler of the SAMPLER heap. */
struct sampler_def {
    unsigned index;
    D3D12_SAMPLER_DESC desc;
    int line;
};

enum step_type { STEP_PIPELINE, STEP_CONSTANTS, STEP_CONSTANT, STEP_CBV, STEP_SRV, STEP_UAV, STEP_TABLE, STEP_DISPATCH, STEP_BARRIER };

struct step {
    enum step_type type;
    unsigned param;
    int shader; /* STEP_PIPELINE: -1 = none */
    int buffer;
    UINT64 offset;
    uint32_t *values;
    unsigned value_count, value_offset;
    UINT groups[3];
    int line;
};

enum expect_kind { EXPECT_LIST, EXPECT_EACH };

struct expect_item {
    int buffer, texture;    /* one of them is -1 */
    unsigned subresource;   /* textures */
    enum expect_kind kind;
    enum value_type type;
    size_t offset, stride;
    double tolerance;
    char **values; /* EXPECT_LIST: the literal tokens */
    size_t count;
    char *formula;
    int line;
};

enum fail_stage { FAIL_NONE, FAIL_COMPILE, FAIL_ROOT_SIGNATURE, FAIL_PIPELINE, FAIL_CLOSE };

struct test {
    char known_bug[512];
    bool has_known_bug;
    bool known_bug_on_lavapipe; /* [known_bug lavapipe: ...]: the test runs on other devices */
    char name[128];         /* [test NAME]; empty for a file of one test */
    /* [require]: what the device must offer, else the test is skipped */
    bool need_int64, need_float64, need_min_lod_clamp, need_derivative_quads, need_derivative_linear;
    unsigned min_lanes, max_lanes; /* 0: any */

    struct shader_def shaders[MAX_SHADERS];
    unsigned shader_count;

    bool rs_version_1_0;
    D3D12_ROOT_PARAMETER1 params[MAX_PARAMS];
    D3D12_DESCRIPTOR_RANGE1 ranges[MAX_PARAMS][MAX_RANGES];
    D3D12_STATIC_SAMPLER_DESC samplers[MAX_SAMPLERS];
    unsigned param_count, sampler_count;
    int current_table; /* parameter index of the table being filled, -1 if none */

    struct buffer_def buffers[MAX_BUFFERS];
    unsigned buffer_count;

    struct view_def views[MAX_VIEWS];
    unsigned view_count, heap_size;
    bool has_views;

    struct texture_def textures[MAX_TEXTURES];
    unsigned texture_count;

    struct sampler_def sampler_views[MAX_SAMPLER_VIEWS];
    unsigned sampler_view_count, sampler_heap_size;
    bool has_samplers;

    struct step *steps;
    unsigned step_count, step_capacity;
    bool has_run;
    D3D12_COMMAND_LIST_TYPE queue_type;

    struct expect_item *expects;
    unsigned expect_count, expect_capacity;

    enum fail_stage fail;
    HRESULT fail_hr;
    bool fail_has_hr;
    char fail_needles[MAX_NEEDLES][256];
    unsigned fail_needle_count;
    int fail_line;
};

enum section {
    SECTION_NONE, SECTION_SHADER, SECTION_ROOT_SIGNATURE, SECTION_BUFFER, SECTION_TEXTURE, SECTION_VIEWS, SECTION_SAMPLERS, SECTION_RUN,
    SECTION_EXPECT, SECTION_FAIL
};

/* ---- tokens ---- */

/* Splits line into whitespace-separated tokens; "quoted strings" are one token. A '#'
 * outside quotes starts a comment. The line is modified in place. */
static unsigned tokenize(char *line, char **tokens, unsigned max)
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

static bool parse_u64(const char *text, uint64_t *out)
{
    char *end;
    if (!text || !*text || *text == '-')
        return false;
    errno = 0;
    *out = strtoull(text, &end, 0);
    return !*end && !errno;
}

static bool parse_uint(const char *text, UINT *out)
{
    uint64_t v;
    if (!parse_u64(text, &v) || v > UINT32_MAX)
        return false;
    *out = (UINT)v;
    return true;
}

/* "key=value": returns value if token starts with key=, else NULL. */
static const char *option(const char *token, const char *key)
{
    size_t n = strlen(key);
    return !strncmp(token, key, n) && token[n] == '=' ? token + n + 1 : NULL;
}

static bool parse_type(const char *text, enum value_type *type)
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
static void encode_value(struct value v, enum value_type type, uint8_t *out)
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
static struct value decode_value(const uint8_t *data, enum value_type type)
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
static bool parse_literal(const char *text, enum value_type type, struct value *out)
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
static bool parse_bits32(const char *text, enum value_type type, uint32_t *out)
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

static bool looks_float(const char *text)
{
    if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
        return false;
    return strpbrk(text, ".eEn") != NULL || (strlen(text) > 1 && text[strlen(text) - 1] == 'f');
}

static int find_buffer(struct test *t, const char *name)
{
    for (unsigned i = 0; i < t->buffer_count; i++)
        if (!strcmp(t->buffers[i].name, name))
            return (int)i;
    return -1;
}

static int find_shader(struct test *t, const char *name)
{
    for (unsigned i = 0; i < t->shader_count; i++)
        if (!strcmp(t->shaders[i].name, name))
            return (int)i;
    return -1;
}

static void parse_buffer_line(struct buffer_def *b, char *text, int line, const struct texel_space *space);

static int find_texture(struct test *t, const char *name)
{
    for (unsigned i = 0; i < t->texture_count; i++)
        if (!strcmp(t->textures[i].name, name))
            return (int)i;
    return -1;
}

/* The texels of subresource (mip + layer * mips) of a texture, and the bytes they pack into. */
static struct texel_space texture_space(const struct texture_def *tex, unsigned subresource, size_t *bytes)
{
    struct texel_space space;
    UINT block = tex->format ? tex->format->block : 1;
    space.mip = subresource % tex->mips;
    space.layer = subresource / tex->mips;
    space.width = ((tex->width >> space.mip ? tex->width >> space.mip : 1) + block - 1) / block;
    space.height = ((tex->height >> space.mip ? tex->height >> space.mip : 1) + block - 1) / block;
    space.depth = tex->depth >> space.mip ? tex->depth >> space.mip : 1;
    space.texel_bytes = tex->format ? tex->format->bytes : 4;
    if (bytes)
        *bytes = (size_t)space.width * space.height * space.depth * space.texel_bytes;
    return space;
}

/* "N" or "FIRST,COUNT" (COUNT may be "all" or -1: the rest) */
static bool parse_range(const char *text, UINT *first, UINT *count, bool *has_count)
{
    char *end;
    unsigned long long a = strtoull(text, &end, 0);
    if (end == text || *text == '-')
        return false;
    *first = (UINT)a;
    if (!*end) {
        if (has_count)
            *has_count = false;
        return true;
    }
    if (*end != ',' || !count)
        return false;
    text = end + 1;
    if (!strcmp(text, "all") || !strcmp(text, "-1"))
        *count = UINT32_MAX;
    else if (!parse_uint(text, count))
        return false;
    if (has_count)
        *has_count = true;
    return true;
}

/* "[texture NAME dim=1d|2d|3d|cube format=F size=W[,H[,D]] mips=N layers=N uav depth]" */
static void parse_texture_header(struct test *t, char **tokens, unsigned count, int line)
{
    struct texture_def *tex;
    bool has_layers = false;
    if (!count || t->texture_count == MAX_TEXTURES || find_texture(t, tokens[0]) >= 0 || find_buffer(t, tokens[0]) >= 0) {
        FAIL_AT(line, "expected '[texture NAME format=DXGI_FORMAT size=W[,H[,D]] [dim=1d|2d|3d|cube] [mips=N] [layers=N] [uav] "
                "[depth]]' with a new name (at most %d textures)", MAX_TEXTURES);
        return;
    }
    tex = &t->textures[t->texture_count++];
    copy_name(tex->name, sizeof(tex->name), tokens[0]);
    tex->line = line;
    tex->dimension = 2;
    tex->width = tex->height = tex->depth = tex->mips = tex->layers = 1;
    for (unsigned i = 1; i < count; i++) {
        const char *o;
        if ((o = option(tokens[i], "dim"))) {
            if (!strcmp(o, "1d"))
                tex->dimension = 1;
            else if (!strcmp(o, "2d"))
                tex->dimension = 2;
            else if (!strcmp(o, "3d"))
                tex->dimension = 3;
            else if (!strcmp(o, "cube"))
                tex->dimension = 2, tex->cube = true;
            else
                FAIL_AT(line, "bad texture dim '%s' (1d, 2d, 3d, cube)", o);
        } else if ((o = option(tokens[i], "format"))) {
            if (!(tex->format = find_format(o)))
                FAIL_AT(line, "unknown format '%s' (DXGI_FORMAT names without the prefix: R8G8B8A8_UNORM, ...)", o);
        } else if ((o = option(tokens[i], "size"))) {
            UINT sizes[3] = {1, 1, 1};
            unsigned n = 0;
            char *end;
            const char *p = o;
            do {
                if (n == 3 || !isdigit((unsigned char)*p))
                    break;
                sizes[n++] = (UINT)strtoul(p, &end, 10);
                p = end;
            } while (*p == ',' && *++p);
            if (!n || *p || !sizes[0] || !sizes[1] || !sizes[2])
                FAIL_AT(line, "bad texture size '%s' (W[,H[,D]], each at least 1)", o);
            tex->width = sizes[0], tex->height = sizes[1], tex->depth = sizes[2];
        } else if ((o = option(tokens[i], "mips"))) {
            if (!parse_uint(o, &tex->mips) || tex->mips > 16)
                FAIL_AT(line, "bad mips '%s' (0 for the full chain, up to 16)", o);
        } else if ((o = option(tokens[i], "layers"))) {
            if (!parse_uint(o, &tex->layers) || !tex->layers || tex->layers > 2048)
                FAIL_AT(line, "bad layers '%s' (1 to 2048)", o);
            has_layers = true;
        } else if (!strcmp(tokens[i], "uav")) {
            tex->uav = true;
        } else if (!strcmp(tokens[i], "depth")) {
            tex->depth_stencil = true;
        } else {
            FAIL_AT(line, "bad texture option '%s' (dim=, format=, size=, mips=, layers=, uav, depth)", tokens[i]);
        }
    }
    if (!tex->format)
        FAIL_AT(line, "texture '%s' needs format=DXGI_FORMAT", tex->name);
    if (tex->dimension == 1 && tex->height > 1)
        FAIL_AT(line, "a 1d texture has size=W");
    if (tex->dimension != 3 && tex->depth > 1)
        FAIL_AT(line, "only 3d textures have a depth (size=W,H,D); 1d and 2d ones take layers=N");
    if (tex->dimension == 3 && tex->layers > 1)
        FAIL_AT(line, "3d textures have no layers");
    if (tex->cube) {
        if (!has_layers)
            tex->layers = 6;
        if (tex->layers % 6 || tex->width != tex->height)
            FAIL_AT(line, "a cube texture is square with 6k layers (%ux%u with %u layers)", tex->width, tex->height, tex->layers);
    }
    if (!tex->mips) {
        UINT largest = tex->width > tex->height ? tex->width : tex->height;
        if (tex->depth > largest)
            largest = tex->depth;
        while (largest >> tex->mips)
            tex->mips++;
    }
    tex->subresource_count = tex->mips * tex->layers;
    tex->subresources = xcalloc(tex->subresource_count, sizeof(*tex->subresources));
    for (unsigned i = 0; i < tex->subresource_count; i++)
        tex->subresources[i].line = line;
}

/* A line of a [texture]: "subresource N" or "mip M [layer L]" picks the subresource the next
 * lines fill (subresource 0 at first); the rest is [buffer] syntax. */
static void parse_texture_line(struct texture_def *tex, unsigned *current, char *text, int line)
{
    char copy[256], *tokens[8];
    unsigned count;
    struct texel_space space;

    copy_name(copy, sizeof(copy), text);
    count = tokenize(copy, tokens, 8);
    if (count && (!strcmp(tokens[0], "subresource") || !strcmp(tokens[0], "mip") || !strcmp(tokens[0], "layer"))) {
        UINT mip = 0, layer = 0, index;
        bool ok = true;
        if (!strcmp(tokens[0], "subresource")) {
            ok = count == 2 && parse_uint(tokens[1], &index);
        } else {
            for (unsigned i = 0; ok && i < count; i += 2) {
                ok = i + 1 < count && (!strcmp(tokens[i], "mip") || !strcmp(tokens[i], "layer"));
                if (ok)
                    ok = parse_uint(tokens[i + 1], !strcmp(tokens[i], "mip") ? &mip : &layer);
            }
            index = mip + layer * tex->mips;
            ok = ok && mip < tex->mips;
        }
        if (!ok || index >= tex->subresource_count) {
            FAIL_AT(line, "expected 'subresource N' or 'mip M [layer L]' of texture '%s' (%u mips, %u layers)", tex->name, tex->mips,
                    tex->layers);
            return;
        }
        *current = index;
        tex->subresources[index].line = line;
        return;
    }
    space = texture_space(tex, *current, NULL);
    parse_buffer_line(&tex->subresources[*current], text, line, &space);
}

/* "name" or "name+offset" */
static bool parse_buffer_ref(struct test *t, const char *text, int *buffer, UINT64 *offset, int line)
{
    char name[64];
    const char *plus = strchr(text, '+');
    size_t n = plus ? (size_t)(plus - text) : strlen(text);
    if (n >= sizeof(name)) {
        FAIL_AT(line, "buffer name '%s' is too long", text);
        return false;
    }
    memcpy(name, text, n);
    name[n] = 0;
    *offset = 0;
    if ((*buffer = find_buffer(t, name)) < 0) {
        FAIL_AT(line, "no buffer named '%s' (declare it with [buffer %s] before use)", name, name);
        return false;
    }
    if (plus && !parse_u64(plus + 1, offset)) {
        FAIL_AT(line, "bad byte offset in '%s'", text);
        return false;
    }
    return true;
}

/* "b3" -> class 'b', register 3 */
static bool parse_register(const char *text, char expected_class, UINT *reg, int line)
{
    if (text[0] != expected_class || !parse_uint(text + 1, reg)) {
        FAIL_AT(line, "expected a register %cN, got '%s'", expected_class, text);
        return false;
    }
    return true;
}

/* Sampler options shared by [samplers] lines and static samplers: desc starts with the defaults
 * (point, clamp, MaxLOD 1000, no comparison) and takes each option of tokens. */
static void sampler_defaults(D3D12_SAMPLER_DESC *desc)
{
    memset(desc, 0, sizeof(*desc));
    desc->Filter = D3D12_FILTER_MIN_MAG_MIP_POINT;
    desc->AddressU = desc->AddressV = desc->AddressW = D3D12_TEXTURE_ADDRESS_MODE_CLAMP;
    desc->ComparisonFunc = D3D12_COMPARISON_FUNC_NEVER;
    desc->MaxLOD = 1000.0f;
}

static bool parse_address_mode(const char *text, D3D12_TEXTURE_ADDRESS_MODE *mode)
{
    static const struct { const char *name; D3D12_TEXTURE_ADDRESS_MODE mode; } names[] = {
        {"wrap", D3D12_TEXTURE_ADDRESS_MODE_WRAP}, {"mirror", D3D12_TEXTURE_ADDRESS_MODE_MIRROR},
        {"clamp", D3D12_TEXTURE_ADDRESS_MODE_CLAMP}, {"border", D3D12_TEXTURE_ADDRESS_MODE_BORDER},
        {"mirror_once", D3D12_TEXTURE_ADDRESS_MODE_MIRROR_ONCE},
    };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (!strcmp(text, names[i].name)) {
            *mode = names[i].mode;
            return true;
        }
    }
    return false;
}

static bool parse_floats(const char *text, float *out, unsigned n)
{
    char *end;
    for (unsigned i = 0; i < n; i++) {
        out[i] = strtof(text, &end);
        if (end == text || (i + 1 < n ? *end != ',' : *end != 0))
            return false;
        text = end + 1;
    }
    return true;
}

static bool parse_sampler_options(char **tokens, unsigned count, D3D12_SAMPLER_DESC *desc, int line)
{
    static const struct { const char *name; unsigned filter; } filters[] = {
        {"point", 0x00}, {"min_mag_mip_point", 0x00}, {"min_mag_point_mip_linear", 0x01}, {"min_point_mag_linear_mip_point", 0x04},
        {"min_point_mag_mip_linear", 0x05}, {"min_linear_mag_mip_point", 0x10}, {"min_linear_mag_point_mip_linear", 0x11},
        {"min_mag_linear_mip_point", 0x14}, {"linear", 0x15}, {"min_mag_mip_linear", 0x15}, {"min_mag_anisotropic_mip_point", 0x54},
        {"aniso", 0x55}, {"anisotropic", 0x55},
    };
    static const char *const compares[] = {"never", "less", "equal", "less_equal", "greater", "not_equal", "greater_equal", "always"};
    static const char *const reductions[] = {"standard", "comparison", "min", "max"};
    unsigned filter = 0, reduction = 0;
    bool has_reduction = false, has_anisotropy = false, ok = true;

    for (unsigned i = 0; i < count; i++) {
        const char *o;
        bool found = false;
        if ((o = option(tokens[i], "filter"))) {
            for (size_t f = 0; f < sizeof(filters) / sizeof(filters[0]); f++)
                if (!strcmp(o, filters[f].name))
                    filter = filters[f].filter, found = true;
            if (!found) {
                FAIL_AT(line, "unknown filter '%s' (point, linear, aniso, min_mag_point_mip_linear, min_point_mag_linear_mip_point, "
                        "min_point_mag_mip_linear, min_linear_mag_mip_point, min_linear_mag_point_mip_linear, "
                        "min_mag_linear_mip_point, min_mag_anisotropic_mip_point)", o);
                ok = false;
            }
        } else if ((o = option(tokens[i], "address")) || (o = option(tokens[i], "address_u")) || (o = option(tokens[i], "address_v"))
                || (o = option(tokens[i], "address_w"))) {
            D3D12_TEXTURE_ADDRESS_MODE modes[3];
            char text[64], *parts[3];
            unsigned n = 0, total = 0;
            copy_name(text, sizeof(text), o);
            for (char *p = strtok(text, ","); p; p = strtok(NULL, ","), total++)
                if (n < 3)
                    parts[n++] = p;
            found = total == 1 || (total == 3 && tokens[i][7] == '=');
            for (unsigned k = 0; found && k < n; k++)
                found = parse_address_mode(parts[k], &modes[k]);
            if (!found) {
                FAIL_AT(line, "bad address mode '%s' (wrap, clamp, mirror, border, mirror_once; address= takes one or U,V,W)", o);
                ok = false;
            } else if (tokens[i][7] == '=') {
                desc->AddressU = modes[0];
                desc->AddressV = modes[n == 3 ? 1 : 0];
                desc->AddressW = modes[n == 3 ? 2 : 0];
            } else if (tokens[i][8] == 'u') {
                desc->AddressU = modes[0];
            } else if (tokens[i][8] == 'v') {
                desc->AddressV = modes[0];
            } else {
                desc->AddressW = modes[0];
            }
        } else if ((o = option(tokens[i], "border"))) {
            static const struct { const char *name; float colour[4]; } named[] = {
                {"transparent_black", {0, 0, 0, 0}}, {"opaque_black", {0, 0, 0, 1}}, {"opaque_white", {1, 1, 1, 1}},
            };
            for (size_t k = 0; k < sizeof(named) / sizeof(named[0]); k++)
                if (!strcmp(o, named[k].name))
                    memcpy(desc->BorderColor, named[k].colour, sizeof(desc->BorderColor)), found = true;
            if (!found && !parse_floats(o, desc->BorderColor, 4)) {
                FAIL_AT(line, "bad border '%s' (R,G,B,A, or transparent_black, opaque_black, opaque_white)", o);
                ok = false;
            }
        } else if ((o = option(tokens[i], "lod_bias")) || (o = option(tokens[i], "min_lod")) || (o = option(tokens[i], "max_lod"))) {
            float *target = tokens[i][1] == 'o' ? &desc->MipLODBias : tokens[i][1] == 'i' ? &desc->MinLOD : &desc->MaxLOD;
            if (!parse_floats(o, target, 1)) {
                FAIL_AT(line, "bad number in '%s'", tokens[i]);
                ok = false;
            }
        } else if ((o = option(tokens[i], "anisotropy"))) {
            if (!parse_uint(o, &desc->MaxAnisotropy)) {
                FAIL_AT(line, "bad anisotropy '%s' (1 to 16)", o);
                ok = false;
            }
            has_anisotropy = true;
        } else if ((o = option(tokens[i], "compare"))) {
            for (size_t k = 0; k < sizeof(compares) / sizeof(compares[0]); k++)
                if (!strcmp(o, compares[k]))
                    desc->ComparisonFunc = (D3D12_COMPARISON_FUNC)(D3D12_COMPARISON_FUNC_NEVER + k), found = true;
            if (!found) {
                FAIL_AT(line, "unknown comparison '%s' (never, less, equal, less_equal, greater, not_equal, greater_equal, always)", o);
                ok = false;
            }
            if (has_reduction && reduction != 1) {
                FAIL_AT(line, "compare= makes a comparison sampler; reduction= says otherwise");
                ok = false;
            }
            reduction = 1, has_reduction = true;
        } else if ((o = option(tokens[i], "reduction"))) {
            for (size_t k = 0; k < sizeof(reductions) / sizeof(reductions[0]); k++)
                if (!strcmp(o, reductions[k]))
                    reduction = (unsigned)k, found = true;
            if (!found || (has_reduction && reduction != 1)) {
                FAIL_AT(line, "bad reduction '%s' (standard, comparison, min, max; compare= implies comparison)", o);
                ok = false;
            }
            has_reduction = true;
        } else {
            FAIL_AT(line, "unknown sampler option '%s' (filter=, address=, address_u/v/w=, border=, lod_bias=, min_lod=, max_lod=, "
                    "anisotropy=, compare=, reduction=)", tokens[i]);
            ok = false;
        }
    }
    desc->Filter = (D3D12_FILTER)(filter | reduction << 7);
    if ((filter & 0x40) && !has_anisotropy)
        desc->MaxAnisotropy = 16;
    return ok;
}

static bool parse_hresult(const char *text, HRESULT *hr)
{
    static const struct { const char *name; HRESULT hr; } names[] = {
        {"S_OK", S_OK}, {"E_FAIL", E_FAIL}, {"E_INVALIDARG", E_INVALIDARG}, {"E_NOTIMPL", E_NOTIMPL},
        {"E_POINTER", E_POINTER}, {"E_OUTOFMEMORY", E_OUTOFMEMORY},
    };
    uint64_t v;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (!strcmp(text, names[i].name)) {
            *hr = names[i].hr;
            return true;
        }
    }
    if (parse_u64(text, &v) && v <= UINT32_MAX) {
        *hr = (HRESULT)(uint32_t)v;
        return true;
    }
    return false;
}

/* ---- section parsers ---- */

static void shader_append(struct shader_def *s, const char *line)
{
    size_t n = strlen(line);
    if (s->source_length + n + 2 > s->source_capacity) {
        size_t capacity = (s->source_capacity + n + 2) * 2;
        char *source = xcalloc(capacity, 1);
        if (s->source)
            memcpy(source, s->source, s->source_length);
        free(s->source);
        s->source = source;
        s->source_capacity = capacity;
    }
    memcpy(s->source + s->source_length, line, n);
    s->source_length += n;
    s->source[s->source_length++] = '\n';
    s->source[s->source_length] = 0;
}

static void parse_shader_header(struct test *t, char **tokens, unsigned count, int line)
{
    struct shader_def *s;
    if (t->shader_count == MAX_SHADERS) {
        FAIL_AT(line, "at most %d shaders", MAX_SHADERS);
        return;
    }
    s = &t->shaders[t->shader_count++];
    snprintf(s->name, sizeof(s->name), "shader%u", t->shader_count - 1);
    copy_name(s->entry, sizeof(s->entry), "main");
    copy_name(s->profile, sizeof(s->profile), "cs_6_0");
    s->line = line;
    /* Blank lines so the compiler's line numbers are the file's. */
    for (int i = 0; i < line; i++)
        shader_append(s, "");
    for (unsigned i = 0; i < count; i++) {
        const char *v;
        if ((v = option(tokens[i], "entry"))) {
            copy_name(s->entry, sizeof(s->entry), v);
        } else if ((v = option(tokens[i], "profile"))) {
            copy_name(s->profile, sizeof(s->profile), v);
        } else if ((v = option(tokens[i], "define"))) {
            char *text, *eq;
            if (s->define_count == MAX_DEFINES) {
                FAIL_AT(line, "at most %d defines", MAX_DEFINES);
                continue;
            }
            text = s->define_text[s->define_count] = xstrdup(v);
            s->defines[s->define_count].Name = text;
            if ((eq = strchr(text, '='))) {
                *eq = 0;
                s->defines[s->define_count].Definition = eq + 1;
            } else {
                s->defines[s->define_count].Definition = "1";
            }
            s->define_count++;
        } else if (!strchr(tokens[i], '=')) {
            copy_name(s->name, sizeof(s->name), tokens[i]);
        } else {
            FAIL_AT(line, "unknown shader option '%s' (entry=, profile=, define=NAME[=VALUE])", tokens[i]);
        }
    }
}

static void parse_space_option(char **tokens, unsigned count, UINT *space, int line)
{
    for (unsigned i = 0; i < count; i++) {
        const char *v = option(tokens[i], "space");
        if (v && !parse_uint(v, space))
            FAIL_AT(line, "bad space '%s'", v);
    }
}

static void parse_root_signature_line(struct test *t, char **tokens, unsigned count, int line)
{
    D3D12_ROOT_PARAMETER1 *p;
    const char *kind = tokens[0];

    if (!strcmp(kind, "range")) {
        D3D12_DESCRIPTOR_RANGE1 *r;
        D3D12_ROOT_DESCRIPTOR_TABLE1 *table;
        static const char classes[] = "tubs"; /* SRV, UAV, CBV, SAMPLER: the range type order */
        static const char *const names[] = {"srv", "uav", "cbv", "sampler"};
        int type = -1;
        if (t->current_table < 0) {
            FAIL_AT(line, "'range' outside a table (start one with 'table')");
            return;
        }
        table = &t->params[t->current_table].DescriptorTable;
        if (table->NumDescriptorRanges == MAX_RANGES || count < 3) {
            FAIL_AT(line, "range: expected 'range srv|uav|cbv|sampler REGISTER [count=N|unbounded] [offset=N|append] [space=N]'");
            return;
        }
        for (int i = 0; i < 4; i++)
            if (!strcmp(tokens[1], names[i]))
                type = i;
        if (type < 0) {
            FAIL_AT(line, "unknown range type '%s'", tokens[1]);
            return;
        }
        r = &t->ranges[t->current_table][table->NumDescriptorRanges++];
        memset(r, 0, sizeof(*r));
        r->RangeType = (D3D12_DESCRIPTOR_RANGE_TYPE)type;
        r->NumDescriptors = 1;
        r->OffsetInDescriptorsFromTableStart = D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND;
        parse_register(tokens[2], classes[type], &r->BaseShaderRegister, line);
        for (unsigned i = 3; i < count; i++) {
            const char *v;
            if ((v = option(tokens[i], "count"))) {
                if (!strcmp(v, "unbounded"))
                    r->NumDescriptors = UINT32_MAX;
                else if (!parse_uint(v, &r->NumDescriptors))
                    FAIL_AT(line, "bad count '%s'", v);
            } else if ((v = option(tokens[i], "offset"))) {
                if (!strcmp(v, "append"))
                    r->OffsetInDescriptorsFromTableStart = D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND;
                else if (!parse_uint(v, &r->OffsetInDescriptorsFromTableStart))
                    FAIL_AT(line, "bad offset '%s'", v);
            } else if (!option(tokens[i], "space")) {
                FAIL_AT(line, "unknown range option '%s'", tokens[i]);
            }
        }
        parse_space_option(tokens + 3, count - 3, &r->RegisterSpace, line);
        return;
    }
    if (!strcmp(kind, "sampler")) {
        D3D12_STATIC_SAMPLER_DESC *s;
        D3D12_SAMPLER_DESC desc;
        char *options[MAX_TOKENS];
        unsigned option_count = 0;
        if (t->sampler_count == MAX_SAMPLERS || count < 2) {
            FAIL_AT(line, "sampler: expected 'sampler sN [space=N] [filter=...] [address=...] [border=...] ...'");
            return;
        }
        s = &t->samplers[t->sampler_count++];
        memset(s, 0, sizeof(*s));
        parse_register(tokens[1], 's', &s->ShaderRegister, line);
        parse_space_option(tokens + 2, count - 2, &s->RegisterSpace, line);
        for (unsigned i = 2; i < count; i++)
            if (!option(tokens[i], "space"))
                options[option_count++] = tokens[i];
        sampler_defaults(&desc);
        parse_sampler_options(options, option_count, &desc, line);
        s->Filter = desc.Filter;
        s->AddressU = desc.AddressU;
        s->AddressV = desc.AddressV;
        s->AddressW = desc.AddressW;
        s->MipLODBias = desc.MipLODBias;
        s->MaxAnisotropy = desc.MaxAnisotropy;
        s->ComparisonFunc = desc.ComparisonFunc;
        s->MinLOD = desc.MinLOD;
        s->MaxLOD = desc.MaxLOD;
        s->ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
        /* Static samplers have three border colours. */
        if (desc.BorderColor[0] == 0.0f && desc.BorderColor[1] == 0.0f && desc.BorderColor[2] == 0.0f && desc.BorderColor[3] == 0.0f)
            s->BorderColor = D3D12_STATIC_BORDER_COLOR_TRANSPARENT_BLACK;
        else if (desc.BorderColor[0] == 0.0f && desc.BorderColor[1] == 0.0f && desc.BorderColor[2] == 0.0f && desc.BorderColor[3] == 1.0f)
            s->BorderColor = D3D12_STATIC_BORDER_COLOR_OPAQUE_BLACK;
        else if (desc.BorderColor[0] == 1.0f && desc.BorderColor[1] == 1.0f && desc.BorderColor[2] == 1.0f && desc.BorderColor[3] == 1.0f)
            s->BorderColor = D3D12_STATIC_BORDER_COLOR_OPAQUE_WHITE;
        else
            FAIL_AT(line, "a static sampler's border is transparent_black (0,0,0,0), opaque_black (0,0,0,1) or opaque_white (1,1,1,1)");
        return;
    }

    if (t->param_count == MAX_PARAMS) {
        FAIL_AT(line, "at most %d root parameters", MAX_PARAMS);
        return;
    }
    p = &t->params[t->param_count];
    memset(p, 0, sizeof(*p));
    p->ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
    t->current_table = -1;
    if (!strcmp(kind, "table")) {
        p->ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
        p->DescriptorTable.pDescriptorRanges = t->ranges[t->param_count];
        t->current_table = (int)t->param_count;
    } else if (!strcmp(kind, "constants")) {
        p->ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
        if (count < 2 || !parse_register(tokens[1], 'b', &p->Constants.ShaderRegister, line))
            return;
        for (unsigned i = 2; i < count; i++) {
            const char *v = option(tokens[i], "count");
            if (v && !parse_uint(v, &p->Constants.Num32BitValues))
                FAIL_AT(line, "bad count '%s'", v);
        }
        parse_space_option(tokens + 2, count - 2, &p->Constants.RegisterSpace, line);
    } else if (!strcmp(kind, "cbv") || !strcmp(kind, "srv") || !strcmp(kind, "uav")) {
        char cls = kind[0] == 'c' ? 'b' : kind[0] == 's' ? 't' : 'u';
        p->ParameterType = cls == 'b' ? D3D12_ROOT_PARAMETER_TYPE_CBV : cls == 't' ? D3D12_ROOT_PARAMETER_TYPE_SRV : D3D12_ROOT_PARAMETER_TYPE_UAV;
        if (count < 2 || !parse_register(tokens[1], cls, &p->Descriptor.ShaderRegister, line))
            return;
        parse_space_option(tokens + 2, count - 2, &p->Descriptor.RegisterSpace, line);
    } else {
        FAIL_AT(line, "unknown root signature entry '%s' (constants, cbv, srv, uav, table, range, sampler)", kind);
        return;
    }
    t->param_count++;
}

static void buffer_write(struct buffer_def *b, const void *data, size_t size)
{
    if (b->cursor + size > b->capacity) {
        size_t capacity = (b->cursor + size) * 2;
        uint8_t *p = xcalloc(capacity, 1);
        if (b->data)
            memcpy(p, b->data, b->size);
        free(b->data);
        b->data = p;
        b->capacity = capacity;
    }
    memcpy(b->data + b->cursor, data, size);
    b->cursor += size;
    if (b->cursor > b->size)
        b->size = b->cursor;
}

/* "fill TYPE COUNT [stride=S]: EXPR" / "each TYPE COUNT [stride=S] [tol=X]: EXPR": the tokens before ':'. */
static bool parse_formula_head(char **tokens, unsigned count, enum value_type *type, size_t *n, size_t *stride, double *tolerance, int line)
{
    uint64_t v;
    *stride = 4;
    *tolerance = 0.0;
    if (count < 3 || !parse_type(tokens[1], type) || !parse_u64(tokens[2], &v)) {
        FAIL_AT(line, "expected '%s " VALUE_TYPE_NAMES " COUNT [stride=BYTES] [tol=X]: EXPRESSION'", tokens[0]);
        return false;
    }
    *n = v;
    *stride = value_types[*type].size;
    for (unsigned i = 3; i < count; i++) {
        const char *o;
        if ((o = option(tokens[i], "stride")) && parse_u64(o, &v) && v >= value_types[*type].size)
            *stride = v;
        else if ((o = option(tokens[i], "tol")))
            *tolerance = strtod(o, NULL);
        else {
            FAIL_AT(line, "bad option '%s'", tokens[i]);
            return false;
        }
    }
    return true;
}

/* "let NAME = EXPRESSION": true if text was one. */
static bool parse_let(char *text, int line)
{
    char *p = text, *name, *eq;
    while (isspace((unsigned char)*p))
        p++;
    if (strncmp(p, "let", 3) || !isspace((unsigned char)p[3]))
        return false;
    name = p + 3;
    while (isspace((unsigned char)*name))
        name++;
    if (!(eq = strchr(name, '='))) {
        FAIL_AT(line, "expected 'let NAME = EXPRESSION'");
        return true;
    }
    *eq = 0;
    for (char *end = eq - 1; end >= name && isspace((unsigned char)*end); end--)
        *end = 0;
    if (!*name || let_count == MAX_LETS || strlen(name) >= sizeof(lets[0].name)) {
        FAIL_AT(line, "bad 'let' name or too many lets (at most %d)", MAX_LETS);
        return true;
    }
    copy_name(lets[let_count].name, sizeof(lets[let_count].name), name);
    lets[let_count++].text = xstrdup(eq + 1);
    return true;
}

/* A line of a [buffer], or of a [texture]'s subresource (space: its texels, for the names x y z c
 * layer mip of expressions, and `i` the texel index). */
static void parse_buffer_line(struct buffer_def *b, char *text, int line, const struct texel_space *space)
{
    char *tokens[MAX_TOKENS], *colon = strchr(text, ':');
    unsigned count;
    enum value_type type;

    if (strchr(text, '#'))
        *strchr(text, '#') = 0; /* comment */
    if (parse_let(text, line))
        return;
    colon = strchr(text, ':');

    if (colon)
        *colon = 0;
    count = tokenize(text, tokens, MAX_TOKENS);
    if (!count)
        return;
    if (!strcmp(tokens[0], "at")) {
        uint64_t offset;
        if (count != 2 || !parse_u64(tokens[1], &offset)) {
            FAIL_AT(line, "expected 'at BYTE_OFFSET'");
            return;
        }
        b->cursor = offset;
        if (b->cursor > b->size) {
            uint8_t zero = 0;
            b->cursor--;
            buffer_write(b, &zero, 1);
        }
        return;
    }
    if (!strcmp(tokens[0], "fill")) {
        size_t n, stride;
        double tolerance;
        if (!colon) {
            FAIL_AT(line, "fill needs ': EXPRESSION'");
            return;
        }
        if (!parse_formula_head(tokens, count, &type, &n, &stride, &tolerance, line))
            return;
        size_t start = b->cursor;
        for (size_t i = 0; i < n; i++) {
            struct value v;
            const char *error;
            uint8_t bytes[4];
            size_t offset = start + i * stride;
            if (!evaluate(colon + 1, space ? (int64_t)(offset / space->texel_bytes) : (int64_t)i, 0, space, offset,
                    value_types[type].size, &v, &error)) {
                FAIL_AT(line, "expression '%s': %s", colon + 1, error);
                return;
            }
            encode_value(v, type, bytes);
            b->cursor = offset;
            buffer_write(b, bytes, value_types[type].size);
        }
        b->cursor = start + n * stride; /* like 'each' in [expect]: the next line starts after the last element */
        return;
    }
    if (parse_type(tokens[0], &type)) {
        for (unsigned i = 1; i < count; i++) {
            struct value v;
            uint8_t bytes[4];
            if (!parse_literal(tokens[i], type, &v)) {
                FAIL_AT(line, "bad %s value '%s'", tokens[0], tokens[i]);
                return;
            }
            encode_value(v, type, bytes);
            buffer_write(b, bytes, value_types[type].size);
        }
        return;
    }
    FAIL_AT(line, "unknown %s line '%s' (" VALUE_TYPE_NAMES " VALUES, fill TYPE COUNT: EXPR, at OFFSET%s)", space ? "texture" : "buffer",
            tokens[0], space ? ", subresource N, mip M layer L" : "");
}

/* The options of a texture or null view: [format=F] [dim=D] [mips=FIRST,COUNT] [layers=FIRST,COUNT]
 * [swizzle=rgba01] [plane=N] [min_lod_clamp=X] for SRVs, [format=F] [dim=D] [mip=N] [layers=FIRST,COUNT] [plane=N] for
 * UAVs. */
static void parse_texture_view_options(struct test *t, struct view_def *v, char **tokens, unsigned count, int line)
{
    bool srv = v->kind == VIEW_SRV;
    for (unsigned i = 0; i < count; i++) {
        const char *o;
        if ((o = option(tokens[i], "format"))) {
            const struct format_info *info = find_format(o);
            if (info)
                v->format = info->format;
            else
                FAIL_AT(line, "unknown format '%s'", o);
        } else if ((o = option(tokens[i], "dim"))) {
            v->dimension = VDIM_DEFAULT;
            for (unsigned d = VDIM_1D; d <= VDIM_CUBEARRAY; d++)
                if (!strcmp(o, view_dimension_names[d]))
                    v->dimension = (enum view_dimension)d;
            if (v->dimension == VDIM_DEFAULT || (!srv && v->dimension >= VDIM_CUBE))
                FAIL_AT(line, "bad view dim '%s' (1d, 1darray, 2d, 2darray, 3d%s)", o, srv ? ", cube, cubearray" : "");
        } else if (srv && (o = option(tokens[i], "mips"))) {
            if (!parse_range(o, &v->first_mip, &v->mip_count, NULL))
                FAIL_AT(line, "bad mips '%s' (FIRST or FIRST,COUNT; COUNT 'all' or -1 for the rest)", o);
        } else if (!srv && (o = option(tokens[i], "mip"))) {
            if (!parse_uint(o, &v->first_mip))
                FAIL_AT(line, "bad mip '%s'", o);
        } else if ((o = option(tokens[i], "layers"))) {
            bool has_count;
            v->has_layers = true;
            if (!parse_range(o, &v->first_layer, &v->layer_count, &has_count))
                FAIL_AT(line, "bad layers '%s' (FIRST or FIRST,COUNT)", o);
            else if (!has_count)
                v->layer_count = UINT32_MAX;
        } else if ((o = option(tokens[i], "plane"))) {
            if (!parse_uint(o, &v->plane))
                FAIL_AT(line, "bad plane '%s'", o);
        } else if (srv && (o = option(tokens[i], "swizzle"))) {
            static const char sources[] = "rgba01";
            UINT c[4];
            bool ok = strlen(o) == 4;
            for (unsigned k = 0; ok && k < 4; k++) {
                const char *at = o[k] ? strchr(sources, o[k]) : NULL;
                ok = at != NULL;
                c[k] = ok ? (UINT)(at - sources) : 0;
            }
            if (ok)
                v->mapping = D3D12_ENCODE_SHADER_4_COMPONENT_MAPPING(c[0], c[1], c[2], c[3]);
            else
                FAIL_AT(line, "bad swizzle '%s' (four of r g b a 0 1, e.g. bgr1)", o);
        } else if (srv && (o = option(tokens[i], "min_lod_clamp"))) {
            if (!parse_floats(o, &v->min_lod_clamp, 1))
                FAIL_AT(line, "bad min_lod_clamp '%s'", o);
        } else {
            FAIL_AT(line, "bad texture view option '%s' (%s)", tokens[i],
                    srv ? "format=, dim=, mips=FIRST,COUNT, layers=FIRST,COUNT, swizzle=, plane=, min_lod_clamp="
                        : "format=, dim=, mip=N, layers=FIRST,COUNT, plane=");
        }
    }
    if (v->form == FORM_NULL) {
        if (v->dimension == VDIM_DEFAULT || v->format == DXGI_FORMAT_UNKNOWN)
            FAIL_AT(line, "null views need dim= and format=");
        return;
    }
    const struct texture_def *tex = &t->textures[v->texture];
    if (v->kind == VIEW_UAV && !tex->uav)
        FAIL_AT(line, "texture '%s' needs the uav flag for a UAV", tex->name);
}

/* A [samplers] line: "INDEX [filter=...] [address=...] ...", a sampler of the SAMPLER heap. */
static void parse_sampler_line(struct test *t, char **tokens, unsigned count, int line)
{
    struct sampler_def *s;
    if (t->sampler_view_count == MAX_SAMPLER_VIEWS) {
        FAIL_AT(line, "at most %d samplers", MAX_SAMPLER_VIEWS);
        return;
    }
    s = &t->sampler_views[t->sampler_view_count];
    s->line = line;
    if (!parse_uint(tokens[0], &s->index)) {
        FAIL_AT(line, "expected 'INDEX [filter=...] [address=...] [border=R,G,B,A] [lod_bias=X] [min_lod=X] [max_lod=X] "
                "[anisotropy=N] [compare=FUNC] [reduction=min|max]'");
        return;
    }
    sampler_defaults(&s->desc);
    parse_sampler_options(tokens + 1, count - 1, &s->desc, line);
    if (s->index >= t->sampler_heap_size)
        t->sampler_heap_size = s->index + 1;
    t->sampler_view_count++;
}

static void parse_view_line(struct test *t, char **tokens, unsigned count, int line)
{
    struct view_def *v;
    unsigned i;

    if (t->view_count == MAX_VIEWS) {
        FAIL_AT(line, "at most %d views", MAX_VIEWS);
        return;
    }
    v = &t->views[t->view_count];
    memset(v, 0, sizeof(*v));
    v->line = line;
    v->texture = -1;
    v->mip_count = UINT32_MAX;
    v->mapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
    if (count < 3 || !parse_uint(tokens[0], &v->index)) {
        FAIL_AT(line, "expected 'INDEX srv|uav raw|structured|typed BUFFER [options]', 'INDEX srv|uav texture NAME [options]', "
                "'INDEX srv|uav null dim=D format=F' or 'INDEX cbv BUFFER [offset=N] [size=N]'");
        return;
    }
    if (!strcmp(tokens[1], "cbv")) {
        v->kind = VIEW_CBV;
        if (!parse_buffer_ref(t, tokens[2], &v->buffer, &v->offset, line))
            return;
        i = 3;
    } else {
        if (!strcmp(tokens[1], "srv"))
            v->kind = VIEW_SRV;
        else if (!strcmp(tokens[1], "uav"))
            v->kind = VIEW_UAV;
        else {
            FAIL_AT(line, "unknown view kind '%s' (srv, uav, cbv)", tokens[1]);
            return;
        }
        if (!strcmp(tokens[2], "null")) {
            v->form = FORM_NULL;
            i = 3;
        } else if (count < 4) {
            FAIL_AT(line, "expected 'INDEX %s raw|structured|typed BUFFER [options]' or 'INDEX %s texture NAME [options]'", tokens[1],
                    tokens[1]);
            return;
        } else if (!strcmp(tokens[2], "texture")) {
            v->form = FORM_TEXTURE;
            if ((v->texture = find_texture(t, tokens[3])) < 0) {
                FAIL_AT(line, "no texture named '%s' (declare it with [texture %s ...] before use)", tokens[3], tokens[3]);
                return;
            }
            i = 4;
        } else {
            if (!strcmp(tokens[2], "raw"))
                v->form = FORM_RAW;
            else if (!strcmp(tokens[2], "structured"))
                v->form = FORM_STRUCTURED;
            else if (!strcmp(tokens[2], "typed"))
                v->form = FORM_TYPED;
            else {
                FAIL_AT(line, "unknown view form '%s' (raw, structured, typed, texture, null)", tokens[2]);
                return;
            }
            UINT64 unused;
            if (!parse_buffer_ref(t, tokens[3], &v->buffer, &unused, line))
                return;
            i = 4;
        }
    }
    if (v->form == FORM_TEXTURE || v->form == FORM_NULL) {
        parse_texture_view_options(t, v, tokens + i, count - i, line);
        if (v->index >= t->heap_size)
            t->heap_size = v->index + 1;
        t->view_count++;
        return;
    }
    for (; i < count; i++) {
        const char *o;
        uint64_t u;
        if ((o = option(tokens[i], "stride")) && parse_uint(o, &v->stride)) {
        } else if ((o = option(tokens[i], "first")) && parse_u64(o, &u)) {
            v->first = u;
        } else if ((o = option(tokens[i], "count")) && parse_uint(o, &v->count)) {
            v->has_count = true;
        } else if ((o = option(tokens[i], "offset")) && parse_u64(o, &u)) {
            v->offset = u;
        } else if ((o = option(tokens[i], "size")) && parse_uint(o, &v->size)) {
            v->has_size = true;
        } else if ((o = option(tokens[i], "format"))) {
            const struct format_info *info = find_format(o);
            if (info)
                v->format = info->format;
            else
                FAIL_AT(line, "unknown format '%s'", o);
        } else {
            FAIL_AT(line, "bad view option '%s'", tokens[i]);
        }
    }
    if (v->form == FORM_STRUCTURED && !v->stride)
        FAIL_AT(line, "structured views need stride=BYTES");
    if (v->form == FORM_TYPED && v->format == DXGI_FORMAT_UNKNOWN)
        FAIL_AT(line, "typed views need format=NAME");
    if (v->index >= t->heap_size)
        t->heap_size = v->index + 1;
    if (v->kind == VIEW_UAV)
        t->buffers[v->buffer].uav_use = true;
    else
        t->buffers[v->buffer].read_use = true;
    t->view_count++;
}

static struct step *new_step(struct test *t, enum step_type type, int line)
{
    struct step *s;
    if (t->step_count == t->step_capacity) {
        unsigned capacity = t->step_capacity ? t->step_capacity * 2 : 16;
        struct step *steps = xcalloc(capacity, sizeof(*steps));
        if (t->steps)
            memcpy(steps, t->steps, t->step_count * sizeof(*steps));
        free(t->steps);
        t->steps = steps;
        t->step_capacity = capacity;
    }
    s = &t->steps[t->step_count++];
    memset(s, 0, sizeof(*s));
    s->type = type;
    s->line = line;
    return s;
}

static void parse_run_line(struct test *t, char **tokens, unsigned count, int line)
{
    const char *cmd = tokens[0];
    struct step *s;

    if (!strcmp(cmd, "pipeline")) {
        if (count != 2) {
            FAIL_AT(line, "expected 'pipeline SHADER_NAME|none'");
            return;
        }
        s = new_step(t, STEP_PIPELINE, line);
        s->shader = -1;
        if (strcmp(tokens[1], "none") && (s->shader = find_shader(t, tokens[1])) < 0)
            FAIL_AT(line, "no shader named '%s'", tokens[1]);
    } else if (!strcmp(cmd, "constants") || !strcmp(cmd, "constant")) {
        bool single = !strcmp(cmd, "constant");
        unsigned first = 2;
        s = new_step(t, single ? STEP_CONSTANT : STEP_CONSTANTS, line);
        if (count < 3 || !parse_uint(tokens[1], &s->param)) {
            FAIL_AT(line, "expected '%s PARAM [offset=N] VALUES...'", cmd);
            return;
        }
        const char *o = option(tokens[2], "offset");
        if (o) {
            if (!parse_uint(o, &s->value_offset))
                FAIL_AT(line, "bad offset '%s'", o);
            first = 3;
        }
        s->values = xcalloc(count, sizeof(*s->values));
        for (unsigned i = first; i < count; i++) {
            if (!parse_bits32(tokens[i], looks_float(tokens[i]) ? TYPE_FLOAT : TYPE_UINT, &s->values[s->value_count++]))
                FAIL_AT(line, "bad constant '%s'", tokens[i]);
        }
        if (single && s->value_count != 1)
            FAIL_AT(line, "'constant' sets one value (use 'constants' for several)");
    } else if (!strcmp(cmd, "cbv") || !strcmp(cmd, "srv") || !strcmp(cmd, "uav")) {
        s = new_step(t, cmd[0] == 'c' ? STEP_CBV : cmd[0] == 's' ? STEP_SRV : STEP_UAV, line);
        if (count != 3 || !parse_uint(tokens[1], &s->param)) {
            FAIL_AT(line, "expected '%s PARAM BUFFER[+OFFSET]'", cmd);
            return;
        }
        if (parse_buffer_ref(t, tokens[2], &s->buffer, &s->offset, line)) {
            if (s->type == STEP_UAV)
                t->buffers[s->buffer].uav_use = true;
            else
                t->buffers[s->buffer].read_use = true;
        }
    } else if (!strcmp(cmd, "table")) {
        s = new_step(t, STEP_TABLE, line);
        UINT index;
        if (count != 3 || !parse_uint(tokens[1], &s->param) || !parse_uint(tokens[2], &index)) {
            FAIL_AT(line, "expected 'table PARAM HEAP_INDEX'");
            return;
        }
        s->offset = index;
    } else if (!strcmp(cmd, "dispatch")) {
        s = new_step(t, STEP_DISPATCH, line);
        s->groups[1] = s->groups[2] = 1;
        if (count < 2 || count > 4) {
            FAIL_AT(line, "expected 'dispatch X [Y [Z]]'");
            return;
        }
        for (unsigned i = 1; i < count; i++)
            if (!parse_uint(tokens[i], &s->groups[i - 1]))
                FAIL_AT(line, "bad group count '%s'", tokens[i]);
    } else if (!strcmp(cmd, "barrier")) {
        new_step(t, STEP_BARRIER, line);
    } else {
        FAIL_AT(line, "unknown run command '%s' (pipeline, constants, constant, cbv, srv, uav, table, dispatch, barrier)", cmd);
    }
}

/* A line of [expect BUFFER] or of [expect texture NAME ...] (texture >= 0, its subresource). */
static void parse_expect_line(struct test *t, int buffer, int texture, unsigned subresource, size_t *cursor, char *text, int line)
{
    char *tokens[MAX_TOKENS], *colon = strchr(text, ':');
    struct expect_item *item;
    unsigned count;
    enum value_type type;

    if (strchr(text, '#'))
        *strchr(text, '#') = 0; /* comment */
    if (parse_let(text, line))
        return;
    colon = strchr(text, ':');

    if (colon)
        *colon = 0;
    count = tokenize(text, tokens, MAX_TOKENS);
    if (!count)
        return;
    if (!strcmp(tokens[0], "at")) {
        uint64_t offset;
        if (count != 2 || !parse_u64(tokens[1], &offset))
            FAIL_AT(line, "expected 'at BYTE_OFFSET'");
        else
            *cursor = offset;
        return;
    }
    if (t->expect_count == t->expect_capacity) {
        unsigned capacity = t->expect_capacity ? t->expect_capacity * 2 : 8;
        struct expect_item *items = xcalloc(capacity, sizeof(*items));
        if (t->expects)
            memcpy(items, t->expects, t->expect_count * sizeof(*items));
        free(t->expects);
        t->expects = items;
        t->expect_capacity = capacity;
    }
    item = &t->expects[t->expect_count];
    memset(item, 0, sizeof(*item));
    item->buffer = buffer;
    item->texture = texture;
    item->subresource = subresource;
    item->line = line;
    item->stride = 4;
    bool probe = !strcmp(tokens[0], "probe");
    if (probe) {
        /* "probe X [Y [Z]] TYPE [tol=X] V...": a list from texel (X, Y, Z). */
        UINT xyz[3] = {0, 0, 0};
        unsigned n = 1;
        struct texel_space space;
        if (texture < 0) {
            FAIL_AT(line, "'probe' checks textures; buffers take 'at BYTE_OFFSET'");
            return;
        }
        space = texture_space(&t->textures[texture], subresource, NULL);
        while (n < count && n < 4 && parse_uint(tokens[n], &xyz[n - 1]))
            n++;
        if (n == 1 || n == count || !parse_type(tokens[n], &type)) {
            FAIL_AT(line, "expected 'probe X [Y [Z]] " VALUE_TYPE_NAMES " [tol=X] VALUES...'");
            return;
        }
        if (xyz[0] >= space.width || xyz[1] >= space.height || xyz[2] >= space.depth) {
            FAIL_AT(line, "probe (%u, %u, %u) is outside the %ux%ux%u subresource", xyz[0], xyz[1], xyz[2], space.width, space.height,
                    space.depth);
            return;
        }
        *cursor = (((size_t)xyz[2] * space.height + xyz[1]) * space.width + xyz[0]) * space.texel_bytes;
        memmove(tokens, tokens + n, (count - n) * sizeof(*tokens));
        count -= n;
    }
    item->offset = *cursor;
    if (!strcmp(tokens[0], "each")) {
        if (!colon) {
            FAIL_AT(line, "each needs ': EXPRESSION'");
            return;
        }
        if (!parse_formula_head(tokens, count, &item->type, &item->count, &item->stride, &item->tolerance, line))
            return;
        item->kind = EXPECT_EACH;
        item->formula = xstrdup(colon + 1);
    } else if (parse_type(tokens[0], &type)) {
        unsigned first = 1;
        const char *o;
        item->kind = EXPECT_LIST;
        item->type = type;
        item->stride = value_types[type].size;
        if (count > 1 && (o = option(tokens[1], "tol"))) {
            item->tolerance = strtod(o, NULL);
            first = 2;
        }
        item->values = xcalloc(count, sizeof(*item->values));
        for (unsigned i = first; i < count; i++)
            item->values[item->count++] = xstrdup(tokens[i]);
        if (probe && !item->count)
            FAIL_AT(line, "'probe' needs the values of the texel");
    } else {
        FAIL_AT(line, "unknown expect line '%s' (" VALUE_TYPE_NAMES " [tol=X] VALUES, each TYPE COUNT: EXPR, at OFFSET%s)", tokens[0],
                texture >= 0 ? ", probe X [Y [Z]] TYPE VALUES" : "");
        return;
    }
    *cursor += item->count * item->stride;
    t->expect_count++;
}

static void parse_fail_line(struct test *t, char **tokens, unsigned count, int line)
{
    if (!strcmp(tokens[0], "hr") && count == 2) {
        if (!parse_hresult(tokens[1], &t->fail_hr))
            FAIL_AT(line, "unknown HRESULT '%s'", tokens[1]);
        t->fail_has_hr = true;
    } else if (!strcmp(tokens[0], "log") && count >= 2) {
        for (unsigned i = 1; i < count; i++) {
            if (t->fail_needle_count == MAX_NEEDLES) {
                FAIL_AT(line, "at most %d log substrings", MAX_NEEDLES);
                return;
            }
            copy_name(t->fail_needles[t->fail_needle_count++], sizeof(t->fail_needles[0]), tokens[i]);
        }
    } else {
        FAIL_AT(line, "expected 'hr NAME' or 'log \"substring\"...'");
    }
}

static bool is_section(const char *line, const char **name_end, const char **keyword)
{
    static const char *const keywords[] = {"shader", "root_signature", "buffer", "texture", "views", "samplers", "run", "expect", "fail",
            "known_bug", "test", "require"};
    if (line[0] != '[')
        return false;
    for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++) {
        size_t n = strlen(keywords[i]);
        if (!strncmp(line + 1, keywords[i], n) && (line[1 + n] == ']' || line[1 + n] == ' ')) {
            *keyword = keywords[i];
            *name_end = line + 1 + n;
            return true;
        }
    }
    return false;
}

static bool parse_file(struct test *t, FILE *file, const char *path)
{
    char *line = NULL, *tokens[MAX_TOKENS];
    size_t capacity = 0;
    ssize_t length;
    int number = 0;
    enum section section = SECTION_NONE;
    int expect_buffer = -1, expect_texture = -1;
    unsigned expect_subresource = 0, texture_subresource = 0;
    size_t expect_cursor = 0;
    struct buffer_def *buffer = NULL;
    struct texture_def *texture = NULL;

    if (!file) {
        fprintf(stderr, "shader_runner: cannot open %s: %s\n", path, strerror(errno));
        return false;
    }
    t->current_table = -1;
    t->queue_type = D3D12_COMMAND_LIST_TYPE_DIRECT;
    while ((length = getline(&line, &capacity, file)) >= 0) {
        const char *keyword, *rest;
        number++;
        while (length && (line[length - 1] == '\n' || line[length - 1] == '\r'))
            line[--length] = 0;
        if (is_section(line, &rest, &keyword)) {
            char header[1024];
            unsigned count;
            copy_name(header, sizeof(header), rest);
            if (strchr(header, ']'))
                *strchr(header, ']') = 0;
            count = tokenize(header, tokens, MAX_TOKENS);
            if (!strcmp(keyword, "shader")) {
                section = SECTION_SHADER;
                parse_shader_header(t, tokens, count, number);
            } else if (!strcmp(keyword, "root_signature")) {
                section = SECTION_ROOT_SIGNATURE;
                for (unsigned i = 0; i < count; i++) {
                    if (!strcmp(tokens[i], "version=1.0"))
                        t->rs_version_1_0 = true;
                    else if (strcmp(tokens[i], "version=1.1"))
                        FAIL_AT(number, "unknown root signature option '%s' (version=1.0|1.1)", tokens[i]);
                }
            } else if (!strcmp(keyword, "buffer")) {
                section = SECTION_BUFFER;
                if (!count || t->buffer_count == MAX_BUFFERS || find_buffer(t, tokens[0]) >= 0) {
                    FAIL_AT(number, "expected '[buffer NAME [size=BYTES] [upload]]' with a new name");
                    buffer = NULL;
                    continue;
                }
                buffer = &t->buffers[t->buffer_count++];
                copy_name(buffer->name, sizeof(buffer->name), tokens[0]);
                buffer->line = number;
                for (unsigned i = 1; i < count; i++) {
                    const char *o;
                    uint64_t size;
                    if (!strcmp(tokens[i], "upload"))
                        buffer->upload = true;
                    else if ((o = option(tokens[i], "size")) && parse_u64(o, &size))
                        buffer->declared_size = size;
                    else
                        FAIL_AT(number, "bad buffer option '%s'", tokens[i]);
                }
            } else if (!strcmp(keyword, "texture")) {
                unsigned before = t->texture_count;
                section = SECTION_TEXTURE;
                parse_texture_header(t, tokens, count, number);
                texture = t->texture_count > before ? &t->textures[t->texture_count - 1] : NULL;
                texture_subresource = 0;
            } else if (!strcmp(keyword, "samplers")) {
                section = SECTION_SAMPLERS;
                t->has_samplers = true;
                for (unsigned i = 0; i < count; i++) {
                    const char *o = option(tokens[i], "size");
                    UINT size;
                    if (o && parse_uint(o, &size) && size > t->sampler_heap_size)
                        t->sampler_heap_size = size;
                    else if (!o || !parse_uint(o, &size))
                        FAIL_AT(number, "bad samplers option '%s' (size=N)", tokens[i]);
                }
            } else if (!strcmp(keyword, "views")) {
                section = SECTION_VIEWS;
                t->has_views = true;
                for (unsigned i = 0; i < count; i++) {
                    const char *o = option(tokens[i], "size");
                    UINT size;
                    if (o && parse_uint(o, &size) && size > t->heap_size)
                        t->heap_size = size;
                    else
                        FAIL_AT(number, "bad views option '%s' (size=N)", tokens[i]);
                }
            } else if (!strcmp(keyword, "run")) {
                section = SECTION_RUN;
                t->has_run = true;
                for (unsigned i = 0; i < count; i++) {
                    if (!strcmp(tokens[i], "queue=compute"))
                        t->queue_type = D3D12_COMMAND_LIST_TYPE_COMPUTE;
                    else if (!strcmp(tokens[i], "queue=direct"))
                        t->queue_type = D3D12_COMMAND_LIST_TYPE_DIRECT;
                    else
                        FAIL_AT(number, "bad run option '%s' (queue=direct|compute)", tokens[i]);
                }
            } else if (!strcmp(keyword, "expect")) {
                section = SECTION_EXPECT;
                expect_cursor = 0;
                expect_buffer = expect_texture = -1;
                expect_subresource = 0;
                if (count >= 2 && !strcmp(tokens[0], "texture")) {
                    UINT mip = 0, layer = 0, index = UINT32_MAX;
                    bool ok = (expect_texture = find_texture(t, tokens[1])) >= 0;
                    for (unsigned i = 2; ok && i < count; i++) {
                        const char *o;
                        if ((o = option(tokens[i], "subresource")))
                            ok = parse_uint(o, &index);
                        else if ((o = option(tokens[i], "mip")))
                            ok = parse_uint(o, &mip);
                        else if ((o = option(tokens[i], "layer")))
                            ok = parse_uint(o, &layer);
                        else
                            ok = false;
                    }
                    if (ok) {
                        struct texture_def *tex = &t->textures[expect_texture];
                        if (index == UINT32_MAX)
                            index = mip < tex->mips ? mip + layer * tex->mips : UINT32_MAX;
                        ok = index < tex->subresource_count;
                        tex->expected = true;
                        expect_subresource = index;
                    }
                    if (!ok) {
                        FAIL_AT(number, "expected '[expect texture NAME [subresource=N | mip=M layer=L]]' naming a declared texture "
                                "and one of its subresources");
                        expect_texture = -1;
                    }
                } else if (count != 1 || (expect_buffer = find_buffer(t, tokens[0])) < 0) {
                    FAIL_AT(number, "expected '[expect BUFFER]' naming a declared buffer, or '[expect texture NAME ...]'");
                    expect_buffer = -1;
                } else {
                    t->buffers[expect_buffer].expected = true;
                }
            } else if (!strcmp(keyword, "fail")) {
                section = SECTION_FAIL;
                t->fail_line = number;
                if (count == 1 && !strcmp(tokens[0], "root_signature"))
                    t->fail = FAIL_ROOT_SIGNATURE;
                else if (count == 1 && !strcmp(tokens[0], "pipeline"))
                    t->fail = FAIL_PIPELINE;
                else if (count == 1 && !strcmp(tokens[0], "close"))
                    t->fail = FAIL_CLOSE;
                else if (count == 1 && !strcmp(tokens[0], "compile"))
                    t->fail = FAIL_COMPILE;
                else
                    FAIL_AT(number, "expected '[fail compile|root_signature|pipeline|close]'");
            } else if (!strcmp(keyword, "test")) {
                section = SECTION_NONE;
                if (count != 1)
                    FAIL_AT(number, "expected '[test NAME]'");
                else
                    copy_name(t->name, sizeof(t->name), tokens[0]);
            } else if (!strcmp(keyword, "require")) {
                section = SECTION_NONE;
                for (unsigned i = 0; i < count; i++) {
                    const char *o;
                    if (!strcmp(tokens[i], "int64"))
                        t->need_int64 = true;
                    else if (!strcmp(tokens[i], "float64"))
                        t->need_float64 = true;
                    else if (!strcmp(tokens[i], "min_lod_clamp"))
                        t->need_min_lod_clamp = true;
                    else if (!strcmp(tokens[i], "derivative_quads"))
                        t->need_derivative_quads = true;
                    else if (!strcmp(tokens[i], "derivative_linear"))
                        t->need_derivative_linear = true;
                    else if ((o = option(tokens[i], "lanes")) && parse_uint(o, &t->min_lanes))
                        t->max_lanes = t->min_lanes;
                    else if ((o = option(tokens[i], "min_lanes")) && parse_uint(o, &t->min_lanes))
                        ;
                    else if ((o = option(tokens[i], "max_lanes")) && parse_uint(o, &t->max_lanes))
                        ;
                    else
                        FAIL_AT(number, "unknown requirement '%s' (int64, float64, min_lod_clamp, derivative_quads, derivative_linear, lanes=N, min_lanes=N, "
                                "max_lanes=N)", tokens[i]);
                }
            } else if (!strcmp(keyword, "known_bug")) {
                section = SECTION_NONE;
                t->has_known_bug = true;
                copy_name(t->known_bug, sizeof(t->known_bug), rest + 1);
                if (strrchr(t->known_bug, ']'))
                    *strrchr(t->known_bug, ']') = 0;
                t->known_bug_on_lavapipe = !strncmp(t->known_bug, "lavapipe:", 9);
            }
            continue;
        }
        if (section == SECTION_SHADER) {
            shader_append(&t->shaders[t->shader_count - 1], line);
            continue;
        }
        if (section == SECTION_BUFFER) {
            if (buffer)
                parse_buffer_line(buffer, line, number, NULL);
            continue;
        }
        if (section == SECTION_TEXTURE) {
            if (texture)
                parse_texture_line(texture, &texture_subresource, line, number);
            continue;
        }
        if (section == SECTION_EXPECT) {
            if (expect_buffer >= 0 || expect_texture >= 0)
                parse_expect_line(t, expect_buffer, expect_texture, expect_subresource, &expect_cursor, line, number);
            continue;
        }
        unsigned count = tokenize(line, tokens, MAX_TOKENS);
        if (!count)
            continue;
        switch (section) {
        case SECTION_ROOT_SIGNATURE: parse_root_signature_line(t, tokens, count, number); break;
        case SECTION_VIEWS: parse_view_line(t, tokens, count, number); break;
        case SECTION_SAMPLERS: parse_sampler_line(t, tokens, count, number); break;
        case SECTION_RUN: parse_run_line(t, tokens, count, number); break;
        case SECTION_FAIL: parse_fail_line(t, tokens, count, number); break;
        default: FAIL_AT(number, "text outside a section: '%s'", tokens[0]); break;
        }
    }
    free(line);
    for (unsigned i = 0; i < t->buffer_count; i++) {
        struct buffer_def *b = &t->buffers[i];
        if (b->declared_size > b->size) {
            uint8_t zero = 0;
            b->cursor = b->declared_size - 1;
            buffer_write(b, &zero, 1);
        } else if (b->declared_size && b->declared_size < b->size) {
            FAIL_AT(b->line, "buffer '%s' holds %zu bytes of data but size=%zu", b->name, b->size, b->declared_size);
        }
        if (!b->size)
            FAIL_AT(b->line, "buffer '%s' is empty (give data or size=BYTES)", b->name);
        if (b->upload && (b->uav_use || b->expected))
            FAIL_AT(b->line, "upload buffer '%s' cannot be a UAV or be checked (the GPU cannot write it)", b->name);
    }
    for (unsigned i = 0; i < t->texture_count; i++) {
        struct texture_def *tex = &t->textures[i];
        for (unsigned s = 0; s < tex->subresource_count && tex->format; s++) {
            struct buffer_def *data = &tex->subresources[s];
            size_t size;
            texture_space(tex, s, &size);
            if (data->size > size) {
                FAIL_AT(data->line, "subresource %u of texture '%s' holds %zu bytes of data but is %zu bytes", s, tex->name, data->size, size);
            } else if (data->size < size) {
                uint8_t zero = 0;
                data->cursor = size - 1;
                buffer_write(data, &zero, 1);
            }
        }
    }
    if (!t->shader_count)
        FAIL_AT(number, "no [shader] section");
    if (t->fail == FAIL_NONE && !t->has_run)
        FAIL_AT(number, "no [run] section");
    if (t->fail != FAIL_NONE && !t->fail_needle_count)
        FAIL_AT(t->fail_line, "[fail] needs a 'log \"substring\"' line");
    return true;
}

static void free_test(struct test *t)
{
    for (unsigned i = 0; i < t->shader_count; i++) {
        struct shader_def *s = &t->shaders[i];
        free(s->source);
        for (unsigned d = 0; d < s->define_count; d++)
            free(s->define_text[d]);
        if (s->code)
            ID3D10Blob_Release(s->code);
        if (s->pipeline)
            ID3D12PipelineState_Release(s->pipeline);
    }
    for (unsigned i = 0; i < t->buffer_count; i++) {
        struct buffer_def *b = &t->buffers[i];
        free(b->data);
        if (b->resource)
            ID3D12Resource_Release(b->resource);
        if (b->staging)
            ID3D12Resource_Release(b->staging);
        if (b->readback)
            ID3D12Resource_Release(b->readback);
    }
    for (unsigned i = 0; i < t->texture_count; i++) {
        struct texture_def *tex = &t->textures[i];
        for (unsigned s = 0; s < tex->subresource_count; s++)
            free(tex->subresources[s].data);
        free(tex->subresources);
        free(tex->layouts);
        free(tex->rows);
        if (tex->resource)
            ID3D12Resource_Release(tex->resource);
        if (tex->upload)
            ID3D12Resource_Release(tex->upload);
        if (tex->readback)
            ID3D12Resource_Release(tex->readback);
    }
    for (unsigned i = 0; i < t->step_count; i++)
        free(t->steps[i].values);
    free(t->steps);
    for (unsigned i = 0; i < t->expect_count; i++) {
        struct expect_item *e = &t->expects[i];
        for (size_t v = 0; v < e->count && e->values; v++)
            free(e->values[v]);
        free(e->values);
        free(e->formula);
    }
    free(t->expects);
    for (unsigned i = 0; i < let_count; i++)
        free(lets[i].text);
    let_count = 0;
}

/* ---- running ---- */

struct runner {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    UINT lanes;
};

/* D3D12XS_TEST_ROOT_SIGNATURE_FLAGS (a number, e.g. 0x01000000): OR-ed into the flags of every
 * root signature, so the same shader tests run with console flags such as
 * FORCE_MEMORY_BASED_ABI (CMake registers those runs as shader/NAME/memory_abi). */
static D3D12_ROOT_SIGNATURE_FLAGS extra_root_signature_flags(void)
{
    const char *env = getenv("D3D12XS_TEST_ROOT_SIGNATURE_FLAGS");
    return env ? (D3D12_ROOT_SIGNATURE_FLAGS)strtoul(env, NULL, 0) : D3D12_ROOT_SIGNATURE_FLAG_NONE;
}

static ID3D12RootSignature *create_root_signature(struct runner *r, struct test *t)
{
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc;
    D3D12_ROOT_PARAMETER params10[MAX_PARAMS];
    D3D12_DESCRIPTOR_RANGE ranges10[MAX_PARAMS][MAX_RANGES];
    ID3DBlob *blob = NULL, *errors = NULL;
    ID3D12RootSignature *signature = NULL;
    HRESULT hr;
    LOG_MARK();

    memset(&desc, 0, sizeof(desc));
    if (t->rs_version_1_0) {
        for (unsigned i = 0; i < t->param_count; i++) {
            const D3D12_ROOT_PARAMETER1 *p = &t->params[i];
            memset(&params10[i], 0, sizeof(params10[i]));
            params10[i].ParameterType = p->ParameterType;
            params10[i].ShaderVisibility = p->ShaderVisibility;
            if (p->ParameterType == D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE) {
                for (unsigned j = 0; j < p->DescriptorTable.NumDescriptorRanges; j++) {
                    const D3D12_DESCRIPTOR_RANGE1 *range = &t->ranges[i][j];
                    ranges10[i][j].RangeType = range->RangeType;
                    ranges10[i][j].NumDescriptors = range->NumDescriptors;
                    ranges10[i][j].BaseShaderRegister = range->BaseShaderRegister;
                    ranges10[i][j].RegisterSpace = range->RegisterSpace;
                    ranges10[i][j].OffsetInDescriptorsFromTableStart = range->OffsetInDescriptorsFromTableStart;
                }
                params10[i].DescriptorTable.NumDescriptorRanges = p->DescriptorTable.NumDescriptorRanges;
                params10[i].DescriptorTable.pDescriptorRanges = ranges10[i];
            } else if (p->ParameterType == D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS) {
                params10[i].Constants = p->Constants;
            } else {
                params10[i].Descriptor.ShaderRegister = p->Descriptor.ShaderRegister;
                params10[i].Descriptor.RegisterSpace = p->Descriptor.RegisterSpace;
            }
        }
        desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_0;
        desc.Desc_1_0.NumParameters = t->param_count;
        desc.Desc_1_0.pParameters = params10;
        desc.Desc_1_0.NumStaticSamplers = t->sampler_count;
        desc.Desc_1_0.pStaticSamplers = t->samplers;
        desc.Desc_1_0.Flags = extra_root_signature_flags();
    } else {
        desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
        desc.Desc_1_1.NumParameters = t->param_count;
        desc.Desc_1_1.pParameters = t->params;
        desc.Desc_1_1.NumStaticSamplers = t->sampler_count;
        desc.Desc_1_1.pStaticSamplers = t->samplers;
        desc.Desc_1_1.Flags = extra_root_signature_flags();
    }
    hr = D3D12SerializeVersionedRootSignature(&desc, &blob, &errors);
    if (SUCCEEDED(hr))
        hr = ID3D12Device_CreateRootSignature(r->device, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
                &IID_ID3D12RootSignature, (void **)&signature);
    if (t->fail == FAIL_ROOT_SIGNATURE) {
        if (t->fail_has_hr && hr != t->fail_hr)
            FAIL_AT(t->fail_line, "root signature: HRESULT 0x%08x, expected 0x%08x", (unsigned)hr, (unsigned)t->fail_hr);
        if (SUCCEEDED(hr))
            FAIL_AT(t->fail_line, "root signature creation succeeded; the test expects it to fail");
        harness_check_log(log_mark_, current_file, t->fail_line, t->fail_needle_count > 0 ? t->fail_needles[0] : "",
                t->fail_needle_count > 1 ? t->fail_needles[1] : "", t->fail_needle_count > 2 ? t->fail_needles[2] : "",
                t->fail_needle_count > 3 ? t->fail_needles[3] : "", (const char *)NULL);
    } else if (FAILED(hr)) {
        FAIL_AT(1, "root signature: HRESULT 0x%08x%s%s", (unsigned)hr, errors ? ": " : "",
                errors ? (const char *)ID3D10Blob_GetBufferPointer(errors) : "");
    }
    if (blob)
        ID3D10Blob_Release(blob);
    if (errors)
        ID3D10Blob_Release(errors);
    return signature;
}

static bool compile_shaders(struct test *t)
{
    bool ok = true;
    for (unsigned i = 0; i < t->shader_count; i++) {
        struct shader_def *s = &t->shaders[i];
        ID3DBlob *errors = NULL;
        size_t mark = harness_log_mark();
        HRESULT hr = D3DCompile(s->source, s->source_length, current_file, s->define_count ? s->defines : NULL, NULL, s->entry,
                s->profile, 0, 0, &s->code, &errors);
        if (t->fail == FAIL_COMPILE && i == t->shader_count - 1) {
            /* The last shader is the one that must not compile. */
            if (hr != (t->fail_has_hr ? t->fail_hr : E_FAIL))
                FAIL_AT(t->fail_line, "D3DCompile of shader '%s' returned 0x%08x, expected 0x%08x", s->name,
                        (unsigned)hr, (unsigned)(t->fail_has_hr ? t->fail_hr : E_FAIL));
            if (FAILED(hr) && (!errors || ID3D10Blob_GetBufferSize(errors) < 2))
                FAIL_AT(t->fail_line, "D3DCompile of shader '%s' failed without a message in ppErrorMsgs", s->name);
            if (FAILED(hr))
                harness_check_log(mark, current_file, t->fail_line,
                        t->fail_needle_count > 0 ? t->fail_needles[0] : "",
                        t->fail_needle_count > 1 ? t->fail_needles[1] : "",
                        t->fail_needle_count > 2 ? t->fail_needles[2] : "",
                        t->fail_needle_count > 3 ? t->fail_needles[3] : "", (const char *)NULL);
            if (errors)
                ID3D10Blob_Release(errors);
            return false;
        }
        if (FAILED(hr)) {
            FAIL_AT(s->line, "D3DCompile of shader '%s' returned 0x%08x: %s", s->name, (unsigned)hr,
                    errors ? (const char *)ID3D10Blob_GetBufferPointer(errors) : "(no messages)");
            ok = false;
        }
        if (errors)
            ID3D10Blob_Release(errors);
    }
    return ok;
}

static bool create_pipelines(struct runner *r, struct test *t, ID3D12RootSignature *signature)
{
    for (unsigned i = 0; i < t->shader_count; i++) {
        struct shader_def *s = &t->shaders[i];
        D3D12_COMPUTE_PIPELINE_STATE_DESC desc;
        HRESULT hr;
        LOG_MARK();
        memset(&desc, 0, sizeof(desc));
        desc.pRootSignature = signature;
        desc.CS.pShaderBytecode = ID3D10Blob_GetBufferPointer(s->code);
        desc.CS.BytecodeLength = ID3D10Blob_GetBufferSize(s->code);
        hr = ID3D12Device_CreateComputePipelineState(r->device, &desc, &IID_ID3D12PipelineState, (void **)&s->pipeline);
        if (t->fail == FAIL_PIPELINE && i == t->shader_count - 1) {
            /* The last shader is the one that must fail. */
            if (t->fail_has_hr && hr != t->fail_hr)
                FAIL_AT(t->fail_line, "CreateComputePipelineState(%s) returned 0x%08x, expected 0x%08x", s->name, (unsigned)hr,
                        (unsigned)t->fail_hr);
            if (SUCCEEDED(hr))
                FAIL_AT(t->fail_line, "CreateComputePipelineState(%s) succeeded; the test expects it to fail", s->name);
            harness_check_log(log_mark_, current_file, t->fail_line, t->fail_needle_count > 0 ? t->fail_needles[0] : "",
                    t->fail_needle_count > 1 ? t->fail_needles[1] : "", t->fail_needle_count > 2 ? t->fail_needles[2] : "",
                    t->fail_needle_count > 3 ? t->fail_needles[3] : "", (const char *)NULL);
            return false;
        }
        if (FAILED(hr)) {
            FAIL_AT(s->line, "CreateComputePipelineState(%s) returned 0x%08x", s->name, (unsigned)hr);
            return false;
        }
    }
    return true;
}

static bool create_buffers(struct runner *r, struct test *t)
{
    for (unsigned i = 0; i < t->buffer_count; i++) {
        struct buffer_def *b = &t->buffers[i];
        void *mapped = NULL;
        if (b->upload) {
            b->resource = harness_create_buffer(r->device, D3D12_HEAP_TYPE_UPLOAD, b->size, D3D12_RESOURCE_STATE_GENERIC_READ);
        } else {
            D3D12_HEAP_PROPERTIES heap = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
            D3D12_RESOURCE_DESC desc = harness_buffer_desc(b->size);
            desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
            CHECK_HR(ID3D12Device_CreateCommittedResource(r->device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COPY_DEST,
                    NULL, &IID_ID3D12Resource, (void **)&b->resource), S_OK);
            b->staging = harness_create_buffer(r->device, D3D12_HEAP_TYPE_UPLOAD, b->size, D3D12_RESOURCE_STATE_GENERIC_READ);
            if (b->expected)
                b->readback = harness_create_buffer(r->device, D3D12_HEAP_TYPE_READBACK, b->size, D3D12_RESOURCE_STATE_COPY_DEST);
        }
        if (!b->resource || (!b->upload && !b->staging) || (b->expected && !b->readback))
            return false;
        ID3D12Resource *target = b->upload ? b->resource : b->staging;
        CHECK_HR(ID3D12Resource_Map(target, 0, NULL, &mapped), S_OK);
        if (mapped)
            memcpy(mapped, b->data, b->size);
        ID3D12Resource_Unmap(target, 0, NULL);
    }
    return true;
}

/* Each texture in a DEFAULT heap (COPY_DEST), its subresources' packed bytes in an UPLOAD buffer laid
 * out by GetCopyableFootprints, and a READBACK buffer of the same layout for checked ones. */
static bool create_textures(struct runner *r, struct test *t)
{
    for (unsigned i = 0; i < t->texture_count; i++) {
        struct texture_def *tex = &t->textures[i];
        D3D12_HEAP_PROPERTIES heap = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
        D3D12_RESOURCE_DESC desc;
        UINT64 total = 0, *row_sizes;
        uint8_t *mapped = NULL;
        HRESULT hr;

        memset(&desc, 0, sizeof(desc));
        desc.Dimension = tex->dimension == 1 ? D3D12_RESOURCE_DIMENSION_TEXTURE1D
                : tex->dimension == 2 ? D3D12_RESOURCE_DIMENSION_TEXTURE2D : D3D12_RESOURCE_DIMENSION_TEXTURE3D;
        desc.Width = tex->width;
        desc.Height = tex->height;
        desc.DepthOrArraySize = (UINT16)(tex->dimension == 3 ? tex->depth : tex->layers);
        desc.MipLevels = (UINT16)tex->mips;
        desc.Format = tex->format->format;
        desc.SampleDesc.Count = 1;
        desc.Layout = D3D12_TEXTURE_LAYOUT_UNKNOWN;
        desc.Flags = (tex->uav ? D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS : 0)
                | (tex->depth_stencil ? D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL : 0);
        hr = ID3D12Device_CreateCommittedResource(r->device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COPY_DEST, NULL,
                &IID_ID3D12Resource, (void **)&tex->resource);
        if (FAILED(hr)) {
            FAIL_AT(tex->line, "CreateCommittedResource of texture '%s' returned 0x%08x", tex->name, (unsigned)hr);
            return false;
        }
        tex->layouts = xcalloc(tex->subresource_count, sizeof(*tex->layouts));
        tex->rows = xcalloc(tex->subresource_count, sizeof(*tex->rows));
        row_sizes = xcalloc(tex->subresource_count, sizeof(*row_sizes));
        ID3D12Device_GetCopyableFootprints(r->device, &desc, 0, tex->subresource_count, 0, tex->layouts, tex->rows, row_sizes, &total);
        tex->upload = harness_create_buffer(r->device, D3D12_HEAP_TYPE_UPLOAD, total, D3D12_RESOURCE_STATE_GENERIC_READ);
        if (tex->expected)
            tex->readback = harness_create_buffer(r->device, D3D12_HEAP_TYPE_READBACK, total, D3D12_RESOURCE_STATE_COPY_DEST);
        if (!tex->upload || (tex->expected && !tex->readback)) {
            free(row_sizes);
            return false;
        }
        CHECK_HR(ID3D12Resource_Map(tex->upload, 0, NULL, (void **)&mapped), S_OK);
        for (unsigned s = 0; s < tex->subresource_count && mapped; s++) {
            const D3D12_PLACED_SUBRESOURCE_FOOTPRINT *layout = &tex->layouts[s];
            struct texel_space space = texture_space(tex, s, NULL);
            size_t row_bytes = (size_t)space.width * space.texel_bytes;
            if (row_bytes != row_sizes[s] || tex->rows[s] != space.height || layout->Footprint.Depth != space.depth) {
                FAIL_AT(tex->line, "subresource %u of texture '%s': the footprint has %u rows of %llu bytes and %u slices, the runner "
                        "packs %u of %zu and %u", s, tex->name, tex->rows[s], (unsigned long long)row_sizes[s], layout->Footprint.Depth,
                        space.height, row_bytes, space.depth);
                break;
            }
            for (UINT z = 0; z < space.depth; z++)
                for (UINT y = 0; y < space.height; y++)
                    memcpy(mapped + layout->Offset + ((UINT64)z * tex->rows[s] + y) * layout->Footprint.RowPitch,
                            tex->subresources[s].data + ((size_t)z * space.height + y) * row_bytes, row_bytes);
        }
        ID3D12Resource_Unmap(tex->upload, 0, NULL);
        free(row_sizes);
    }
    return true;
}

static D3D12_RESOURCE_STATES texture_state(const struct texture_def *tex)
{
    return tex->uav ? D3D12_RESOURCE_STATE_UNORDERED_ACCESS : D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE;
}

/* Copies between a texture and its footprints in buffer: to the texture (upload) or from it. */
static void copy_texture(ID3D12GraphicsCommandList2 *list, const struct texture_def *tex, ID3D12Resource *buffer, bool upload)
{
    for (unsigned s = 0; s < tex->subresource_count; s++) {
        D3D12_TEXTURE_COPY_LOCATION texture_location, buffer_location;
        memset(&texture_location, 0, sizeof(texture_location));
        memset(&buffer_location, 0, sizeof(buffer_location));
        texture_location.pResource = tex->resource;
        texture_location.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
        texture_location.SubresourceIndex = s;
        buffer_location.pResource = buffer;
        buffer_location.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
        buffer_location.PlacedFootprint = tex->layouts[s];
        if (upload)
            ID3D12GraphicsCommandList2_CopyTextureRegion(list, &texture_location, 0, 0, 0, &buffer_location, NULL);
        else
            ID3D12GraphicsCommandList2_CopyTextureRegion(list, &buffer_location, 0, 0, 0, &texture_location, NULL);
    }
}

static D3D12_RESOURCE_STATES use_state(const struct buffer_def *b)
{
    if (b->uav_use)
        return D3D12_RESOURCE_STATE_UNORDERED_ACCESS;
    if (b->read_use)
        return D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE | D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER;
    return D3D12_RESOURCE_STATE_COPY_SOURCE;
}

static void transition(ID3D12GraphicsCommandList2 *list, ID3D12Resource *resource, D3D12_RESOURCE_STATES before, D3D12_RESOURCE_STATES after)
{
    D3D12_RESOURCE_BARRIER barrier;
    if (before == after)
        return;
    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    barrier.Transition.pResource = resource;
    barrier.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    barrier.Transition.StateBefore = before;
    barrier.Transition.StateAfter = after;
    ID3D12GraphicsCommandList2_ResourceBarrier(list, 1, &barrier);
}

static void uav_barrier(ID3D12GraphicsCommandList2 *list)
{
    D3D12_RESOURCE_BARRIER barrier;
    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
    barrier.UAV.pResource = NULL;
    ID3D12GraphicsCommandList2_ResourceBarrier(list, 1, &barrier);
}

/* An SRV or UAV of a texture (or a null one) from the [views] line's options; what it leaves out
 * is the whole resource: all mips from the first, all layers from the first. */
static void create_texture_view(struct runner *r, struct test *t, const struct view_def *v, D3D12_CPU_DESCRIPTOR_HANDLE cpu)
{
    const struct texture_def *tex = v->texture >= 0 ? &t->textures[v->texture] : NULL;
    enum view_dimension dimension = v->dimension;
    UINT layers = tex ? tex->layers : 1;
    UINT layer_count = v->has_layers && v->layer_count != UINT32_MAX ? v->layer_count
            : layers > v->first_layer ? layers - v->first_layer : 1;
    DXGI_FORMAT format = v->format != DXGI_FORMAT_UNKNOWN ? v->format : tex->format->format;

    if (dimension == VDIM_DEFAULT) {
        if (tex->dimension == 1)
            dimension = tex->layers > 1 ? VDIM_1DARRAY : VDIM_1D;
        else if (tex->dimension == 3)
            dimension = VDIM_3D;
        else if (tex->cube && v->kind == VIEW_SRV)
            dimension = tex->layers > 6 ? VDIM_CUBEARRAY : VDIM_CUBE;
        else
            dimension = tex->layers > 1 ? VDIM_2DARRAY : VDIM_2D;
    }
    if (v->kind == VIEW_SRV) {
        D3D12_SHADER_RESOURCE_VIEW_DESC srv;
        memset(&srv, 0, sizeof(srv));
        srv.Format = format;
        srv.Shader4ComponentMapping = v->mapping;
        switch (dimension) {
        case VDIM_1D:
            srv.ViewDimension = D3D12_SRV_DIMENSION_TEXTURE1D;
            srv.Texture1D.MostDetailedMip = v->first_mip;
            srv.Texture1D.MipLevels = v->mip_count;
            srv.Texture1D.ResourceMinLODClamp = v->min_lod_clamp;
            break;
        case VDIM_1DARRAY:
            srv.ViewDimension = D3D12_SRV_DIMENSION_TEXTURE1DARRAY;
            srv.Texture1DArray.MostDetailedMip = v->first_mip;
            srv.Texture1DArray.MipLevels = v->mip_count;
            srv.Texture1DArray.FirstArraySlice = v->first_layer;
            srv.Texture1DArray.ArraySize = layer_count;
            srv.Texture1DArray.ResourceMinLODClamp = v->min_lod_clamp;
            break;
        case VDIM_2D:
            srv.ViewDimension = D3D12_SRV_DIMENSION_TEXTURE2D;
            srv.Texture2D.MostDetailedMip = v->first_mip;
            srv.Texture2D.MipLevels = v->mip_count;
            srv.Texture2D.PlaneSlice = v->plane;
            srv.Texture2D.ResourceMinLODClamp = v->min_lod_clamp;
            break;
        case VDIM_2DARRAY:
            srv.ViewDimension = D3D12_SRV_DIMENSION_TEXTURE2DARRAY;
            srv.Texture2DArray.MostDetailedMip = v->first_mip;
            srv.Texture2DArray.MipLevels = v->mip_count;
            srv.Texture2DArray.FirstArraySlice = v->first_layer;
            srv.Texture2DArray.ArraySize = layer_count;
            srv.Texture2DArray.PlaneSlice = v->plane;
            srv.Texture2DArray.ResourceMinLODClamp = v->min_lod_clamp;
            break;
        case VDIM_3D:
            srv.ViewDimension = D3D12_SRV_DIMENSION_TEXTURE3D;
            srv.Texture3D.MostDetailedMip = v->first_mip;
            srv.Texture3D.MipLevels = v->mip_count;
            srv.Texture3D.ResourceMinLODClamp = v->min_lod_clamp;
            break;
        case VDIM_CUBE:
            srv.ViewDimension = D3D12_SRV_DIMENSION_TEXTURECUBE;
            srv.TextureCube.MostDetailedMip = v->first_mip;
            srv.TextureCube.MipLevels = v->mip_count;
            srv.TextureCube.ResourceMinLODClamp = v->min_lod_clamp;
            break;
        default:
            srv.ViewDimension = D3D12_SRV_DIMENSION_TEXTURECUBEARRAY;
            srv.TextureCubeArray.MostDetailedMip = v->first_mip;
            srv.TextureCubeArray.MipLevels = v->mip_count;
            srv.TextureCubeArray.First2DArrayFace = v->first_layer;
            srv.TextureCubeArray.NumCubes = layer_count / 6;
            srv.TextureCubeArray.ResourceMinLODClamp = v->min_lod_clamp;
            break;
        }
        ID3D12Device_CreateShaderResourceView(r->device, tex ? tex->resource : NULL, &srv, cpu);
    } else {
        D3D12_UNORDERED_ACCESS_VIEW_DESC uav;
        memset(&uav, 0, sizeof(uav));
        uav.Format = format;
        switch (dimension) {
        case VDIM_1D:
            uav.ViewDimension = D3D12_UAV_DIMENSION_TEXTURE1D;
            uav.Texture1D.MipSlice = v->first_mip;
            break;
        case VDIM_1DARRAY:
            uav.ViewDimension = D3D12_UAV_DIMENSION_TEXTURE1DARRAY;
            uav.Texture1DArray.MipSlice = v->first_mip;
            uav.Texture1DArray.FirstArraySlice = v->first_layer;
            uav.Texture1DArray.ArraySize = layer_count;
            break;
        case VDIM_2D:
            uav.ViewDimension = D3D12_UAV_DIMENSION_TEXTURE2D;
            uav.Texture2D.MipSlice = v->first_mip;
            uav.Texture2D.PlaneSlice = v->plane;
            break;
        case VDIM_3D:
            uav.ViewDimension = D3D12_UAV_DIMENSION_TEXTURE3D;
            uav.Texture3D.MipSlice = v->first_mip;
            uav.Texture3D.FirstWSlice = 0;
            uav.Texture3D.WSize = UINT32_MAX;
            break;
        default:
            uav.ViewDimension = D3D12_UAV_DIMENSION_TEXTURE2DARRAY;
            uav.Texture2DArray.MipSlice = v->first_mip;
            uav.Texture2DArray.FirstArraySlice = v->first_layer;
            uav.Texture2DArray.ArraySize = layer_count;
            uav.Texture2DArray.PlaneSlice = v->plane;
            break;
        }
        ID3D12Device_CreateUnorderedAccessView(r->device, tex ? tex->resource : NULL, NULL, &uav, cpu);
    }
}

/* The shader-visible SAMPLER heap of [samplers]. */
static ID3D12DescriptorHeap *create_samplers(struct runner *r, struct test *t)
{
    D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, t->sampler_heap_size ? t->sampler_heap_size : 1,
            D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    ID3D12DescriptorHeap *heap = NULL;
    UINT increment;

    CHECK_HR(ID3D12Device_CreateDescriptorHeap(r->device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&heap), S_OK);
    if (!heap)
        return NULL;
    increment = ID3D12Device_GetDescriptorHandleIncrementSize(r->device, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
    for (unsigned i = 0; i < t->sampler_view_count; i++) {
        D3D12_CPU_DESCRIPTOR_HANDLE cpu = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap);
        cpu.ptr += (SIZE_T)t->sampler_views[i].index * increment;
        ID3D12Device_CreateSampler(r->device, &t->sampler_views[i].desc, cpu);
    }
    return heap;
}

static ID3D12DescriptorHeap *create_views(struct runner *r, struct test *t)
{
    D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, t->heap_size ? t->heap_size : 1,
            D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    ID3D12DescriptorHeap *heap = NULL;
    UINT increment;

    CHECK_HR(ID3D12Device_CreateDescriptorHeap(r->device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&heap), S_OK);
    if (!heap)
        return NULL;
    increment = ID3D12Device_GetDescriptorHandleIncrementSize(r->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    for (unsigned i = 0; i < t->view_count; i++) {
        const struct view_def *v = &t->views[i];
        D3D12_CPU_DESCRIPTOR_HANDLE cpu = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap);
        cpu.ptr += (SIZE_T)v->index * increment;
        if (v->form == FORM_TEXTURE || v->form == FORM_NULL) {
            create_texture_view(r, t, v, cpu);
            continue;
        }
        const struct buffer_def *b = &t->buffers[v->buffer];
        UINT element_size = v->form == FORM_RAW ? 4 : v->form == FORM_STRUCTURED ? v->stride : format_size(v->format);
        UINT count = v->has_count ? v->count : (UINT)(b->size / element_size > v->first ? b->size / element_size - v->first : 0);
        if (v->kind == VIEW_CBV) {
            D3D12_CONSTANT_BUFFER_VIEW_DESC cbv;
            cbv.BufferLocation = ID3D12Resource_GetGPUVirtualAddress(b->resource) + v->offset;
            cbv.SizeInBytes = v->has_size ? v->size : (UINT)((b->size - v->offset + 255) & ~(size_t)255);
            ID3D12Device_CreateConstantBufferView(r->device, &cbv, cpu);
        } else if (v->kind == VIEW_SRV) {
            D3D12_SHADER_RESOURCE_VIEW_DESC srv;
            memset(&srv, 0, sizeof(srv));
            srv.ViewDimension = D3D12_SRV_DIMENSION_BUFFER;
            srv.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
            srv.Format = v->form == FORM_RAW ? DXGI_FORMAT_R32_TYPELESS : v->form == FORM_TYPED ? v->format : DXGI_FORMAT_UNKNOWN;
            srv.Buffer.FirstElement = v->first;
            srv.Buffer.NumElements = count;
            srv.Buffer.StructureByteStride = v->form == FORM_STRUCTURED ? v->stride : 0;
            srv.Buffer.Flags = v->form == FORM_RAW ? D3D12_BUFFER_SRV_FLAG_RAW : D3D12_BUFFER_SRV_FLAG_NONE;
            ID3D12Device_CreateShaderResourceView(r->device, b->resource, &srv, cpu);
        } else {
            D3D12_UNORDERED_ACCESS_VIEW_DESC uav;
            memset(&uav, 0, sizeof(uav));
            uav.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
            uav.Format = v->form == FORM_RAW ? DXGI_FORMAT_R32_TYPELESS : v->form == FORM_TYPED ? v->format : DXGI_FORMAT_UNKNOWN;
            uav.Buffer.FirstElement = v->first;
            uav.Buffer.NumElements = count;
            uav.Buffer.StructureByteStride = v->form == FORM_STRUCTURED ? v->stride : 0;
            uav.Buffer.Flags = v->form == FORM_RAW ? D3D12_BUFFER_UAV_FLAG_RAW : D3D12_BUFFER_UAV_FLAG_NONE;
            ID3D12Device_CreateUnorderedAccessView(r->device, b->resource, NULL, &uav, cpu);
        }
    }
    return heap;
}

/* True when root parameter param is a table of samplers (then 'table' indexes the SAMPLER heap). */
static bool is_sampler_table(const struct test *t, unsigned param)
{
    return param < t->param_count && t->params[param].ParameterType == D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE
            && t->params[param].DescriptorTable.NumDescriptorRanges
            && t->ranges[param][0].RangeType == D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER;
}

static void record_steps(struct runner *r, struct test *t, ID3D12GraphicsCommandList2 *list, ID3D12RootSignature *signature,
        ID3D12DescriptorHeap *heap, ID3D12DescriptorHeap *sampler_heap)
{
    bool explicit_pipeline = false, dispatched = false;
    D3D12_GPU_DESCRIPTOR_HANDLE heap_start = {0}, sampler_start = {0};
    UINT increment = ID3D12Device_GetDescriptorHandleIncrementSize(r->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    UINT sampler_increment = ID3D12Device_GetDescriptorHandleIncrementSize(r->device, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
    ID3D12DescriptorHeap *heaps[2];
    UINT heap_count = 0;

    if (heap) {
        heaps[heap_count++] = heap;
        heap_start = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(heap);
    }
    if (sampler_heap) {
        heaps[heap_count++] = sampler_heap;
        sampler_start = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(sampler_heap);
    }
    if (heap_count)
        ID3D12GraphicsCommandList2_SetDescriptorHeaps(list, heap_count, heaps);
    ID3D12GraphicsCommandList2_SetComputeRootSignature(list, signature);
    for (unsigned i = 0; i < t->step_count; i++)
        if (t->steps[i].type == STEP_PIPELINE)
            explicit_pipeline = true;
    if (!explicit_pipeline)
        ID3D12GraphicsCommandList2_SetPipelineState(list, t->shaders[0].pipeline);
    for (unsigned i = 0; i < t->step_count; i++) {
        const struct step *s = &t->steps[i];
        D3D12_GPU_VIRTUAL_ADDRESS address = 0;
        if (s->type == STEP_CBV || s->type == STEP_SRV || s->type == STEP_UAV)
            address = ID3D12Resource_GetGPUVirtualAddress(t->buffers[s->buffer].resource) + s->offset;
        switch (s->type) {
        case STEP_PIPELINE:
            if (s->shader >= 0)
                ID3D12GraphicsCommandList2_SetPipelineState(list, t->shaders[s->shader].pipeline);
            break;
        case STEP_CONSTANTS:
            ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(list, s->param, s->value_count, s->values, s->value_offset);
            break;
        case STEP_CONSTANT:
            ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list, s->param, s->values[0], s->value_offset);
            break;
        case STEP_CBV:
            ID3D12GraphicsCommandList2_SetComputeRootConstantBufferView(list, s->param, address);
            break;
        case STEP_SRV:
            ID3D12GraphicsCommandList2_SetComputeRootShaderResourceView(list, s->param, address);
            break;
        case STEP_UAV:
            ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list, s->param, address);
            break;
        case STEP_TABLE: {
            bool samplers = is_sampler_table(t, s->param);
            D3D12_GPU_DESCRIPTOR_HANDLE handle = samplers ? sampler_start : heap_start;
            if (samplers ? !sampler_heap : !heap)
                FAIL_AT(s->line, "'table' needs a [%s] section", samplers ? "samplers" : "views");
            handle.ptr += s->offset * (samplers ? sampler_increment : increment);
            ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list, s->param, handle);
            break;
        }
        case STEP_DISPATCH:
            /* Successive dispatches usually depend on each other: order them. */
            if (dispatched)
                uav_barrier(list);
            ID3D12GraphicsCommandList2_Dispatch(list, s->groups[0], s->groups[1], s->groups[2]);
            dispatched = true;
            break;
        case STEP_BARRIER:
            uav_barrier(list);
            break;
        }
    }
}

static bool float_close(float got, double expected, double tolerance)
{
    if (isnan(expected))
        return isnan(got);
    if (isinf(expected))
        return got == (float)expected;
    return fabs((double)got - expected) <= tolerance;
}

/* Checks the items of [expect] sections that name this buffer, or this texture's subresource,
 * against data (size bytes: a buffer, or a subresource's texels packed). */
static void check_items(struct runner *r, struct test *t, int buffer, int texture, unsigned subresource, const uint8_t *data,
        size_t size, const char *name)
{
    struct texel_space space;
    const struct texel_space *texels = NULL;
    char where[96];

    if (texture >= 0) {
        space = texture_space(&t->textures[texture], subresource, NULL);
        texels = &space;
    }
    for (unsigned e = 0; e < t->expect_count; e++) {
        const struct expect_item *item = &t->expects[e];
        unsigned mismatches = 0, type_size = value_types[item->type].size;
        if (item->buffer != buffer || item->texture != texture || (texture >= 0 && item->subresource != subresource))
            continue;
        if (item->count && item->offset + (item->count - 1) * item->stride + type_size > size) {
            FAIL_AT(item->line, "expectation passes the end of the %zu bytes of %s '%s'", size, texture >= 0 ? "the subresource of" : "buffer",
                    name);
            continue;
        }
        for (size_t i = 0; i < item->count; i++) {
            size_t offset = item->offset + i * item->stride;
            uint8_t want_bytes[4];
            struct value got = decode_value(data + offset, item->type), want;
            const char *error;
            bool ok;
            char got_text[64], want_text[64];

            if (item->kind == EXPECT_EACH) {
                if (!evaluate(item->formula, texels ? (int64_t)(offset / texels->texel_bytes) : (int64_t)i, r->lanes, texels, offset,
                        type_size, &want, &error)) {
                    FAIL_AT(item->line, "expression '%s': %s", item->formula, error);
                    break;
                }
            } else if (!parse_literal(item->values[i], item->type, &want)) {
                FAIL_AT(item->line, "bad %s value '%s'", value_types[item->type].name, item->values[i]);
                break;
            }
            encode_value(want, item->type, want_bytes);
            if (item->type == TYPE_FLOAT || item->type == TYPE_HALF || (value_types[item->type].real && item->tolerance > 0.0)) {
                /* Numbers within the tolerance (unorm and snorm ones with tol=; without, their
                 * encoding); without one, a float or half equals the expected value rounded to it. */
                double expected = item->tolerance > 0.0 ? as_double(want) : decode_value(want_bytes, item->type).f;
                ok = float_close((float)got.f, expected, item->tolerance);
                snprintf(got_text, sizeof(got_text), "%.9g", got.f);
                snprintf(want_text, sizeof(want_text), "%.9g (tol %g)", as_double(want), item->tolerance);
            } else {
                ok = !memcmp(data + offset, want_bytes, type_size);
                if (value_types[item->type].real) {
                    struct value encoded = decode_value(want_bytes, item->type);
                    snprintf(got_text, sizeof(got_text), "%.9g", got.f);
                    snprintf(want_text, sizeof(want_text), "%.9g (%.9g encoded)", as_double(want), encoded.f);
                } else if (item->type == TYPE_INT || item->type == TYPE_INT16 || item->type == TYPE_INT8) {
                    snprintf(got_text, sizeof(got_text), "%lld", (long long)got.i);
                    snprintf(want_text, sizeof(want_text), "%lld", (long long)decode_value(want_bytes, item->type).i);
                } else {
                    uint64_t w = (uint64_t)decode_value(want_bytes, item->type).i;
                    snprintf(got_text, sizeof(got_text), "%llu (0x%llx)", (unsigned long long)got.i, (unsigned long long)got.i);
                    snprintf(want_text, sizeof(want_text), "%llu (0x%llx)", (unsigned long long)w, (unsigned long long)w);
                }
            }
            if (texels) {
                size_t texel = offset / texels->texel_bytes;
                snprintf(where, sizeof(where), "texel (%zu, %zu, %zu) component %zu", texel % texels->width,
                        texel / texels->width % texels->height, texel / texels->width / texels->height,
                        offset % texels->texel_bytes / type_size);
            } else {
                snprintf(where, sizeof(where), "[%zu]", i);
            }
            if (!ok && ++mismatches <= 8)
                fprintf(stderr, "%s:%d: %s%s%s (byte %zu): got %s, expected %s\n", current_file, item->line, name, texels ? " " : "",
                        where, offset, got_text, want_text);
        }
        if (mismatches)
            FAIL_AT(item->line, "%u of %zu values of '%s' differ (lanes = %u)", mismatches, item->count, name, r->lanes);
        else
            harness_check(true, current_file, item->line, "ok");
    }
}

static void check_expectations(struct runner *r, struct test *t)
{
    for (unsigned b = 0; b < t->buffer_count; b++) {
        struct buffer_def *buffer = &t->buffers[b];
        uint8_t *data = NULL;
        if (!buffer->expected)
            continue;
        CHECK_HR(ID3D12Resource_Map(buffer->readback, 0, NULL, (void **)&data), S_OK);
        if (!data)
            continue;
        check_items(r, t, (int)b, -1, 0, data, buffer->size, buffer->name);
        ID3D12Resource_Unmap(buffer->readback, 0, NULL);
    }
    for (unsigned k = 0; k < t->texture_count; k++) {
        struct texture_def *tex = &t->textures[k];
        uint8_t *mapped = NULL;
        if (!tex->expected)
            continue;
        CHECK_HR(ID3D12Resource_Map(tex->readback, 0, NULL, (void **)&mapped), S_OK);
        if (!mapped)
            continue;
        for (unsigned s = 0; s < tex->subresource_count; s++) {
            size_t size;
            struct texel_space space = texture_space(tex, s, &size);
            size_t row_bytes = (size_t)space.width * space.texel_bytes;
            uint8_t *packed = xcalloc(size, 1);
            char name[96];
            for (UINT z = 0; z < space.depth; z++)
                for (UINT y = 0; y < space.height; y++)
                    memcpy(packed + ((size_t)z * space.height + y) * row_bytes,
                            mapped + tex->layouts[s].Offset + ((UINT64)z * tex->rows[s] + y) * tex->layouts[s].Footprint.RowPitch, row_bytes);
            snprintf(name, sizeof(name), "%s mip %u layer %u", tex->name, space.mip, space.layer);
            check_items(r, t, -1, (int)k, s, packed, size, name);
            free(packed);
        }
        ID3D12Resource_Unmap(tex->readback, 0, NULL);
    }
}

static void run_test(struct runner *r, struct test *t)
{
    ID3D12RootSignature *signature = NULL;
    ID3D12DescriptorHeap *heap = NULL, *sampler_heap = NULL;
    struct harness_list list = {NULL, NULL};

    if (!compile_shaders(t))
        return;
    if (!(signature = create_root_signature(r, t)) || t->fail == FAIL_ROOT_SIGNATURE) {
        if (signature && t->fail == FAIL_ROOT_SIGNATURE)
            ID3D12RootSignature_Release(signature);
        return;
    }
    if (!create_pipelines(r, t, signature) || !create_buffers(r, t) || !create_textures(r, t))
        goto done;
    if (t->has_views && !(heap = create_views(r, t)))
        goto done;
    if (t->has_samplers && !(sampler_heap = create_samplers(r, t)))
        goto done;

    list = harness_create_list(r->device, t->queue_type);
    if (!list.list)
        goto done;
    /* Initial contents, then each buffer into the state its use needs. */
    for (unsigned i = 0; i < t->buffer_count; i++) {
        struct buffer_def *b = &t->buffers[i];
        if (!b->upload)
            ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, b->resource, 0, b->staging, 0, b->size);
    }
    for (unsigned i = 0; i < t->texture_count; i++)
        copy_texture(list.list, &t->textures[i], t->textures[i].upload, true);
    for (unsigned i = 0; i < t->buffer_count; i++)
        if (!t->buffers[i].upload)
            transition(list.list, t->buffers[i].resource, D3D12_RESOURCE_STATE_COPY_DEST, use_state(&t->buffers[i]));
    for (unsigned i = 0; i < t->texture_count; i++)
        transition(list.list, t->textures[i].resource, D3D12_RESOURCE_STATE_COPY_DEST, texture_state(&t->textures[i]));

    {
        LOG_MARK();
        record_steps(r, t, list.list, signature, heap, sampler_heap);
        if (t->fail == FAIL_CLOSE) {
            harness_check_log(log_mark_, current_file, t->fail_line, t->fail_needle_count > 0 ? t->fail_needles[0] : "",
                    t->fail_needle_count > 1 ? t->fail_needles[1] : "", t->fail_needle_count > 2 ? t->fail_needles[2] : "",
                    t->fail_needle_count > 3 ? t->fail_needles[3] : "", (const char *)NULL);
            RELOG_MARK();
            HRESULT hr = ID3D12GraphicsCommandList2_Close(list.list);
            if (hr != (t->fail_has_hr ? t->fail_hr : E_INVALIDARG))
                FAIL_AT(t->fail_line, "Close returned 0x%08x, expected 0x%08x", (unsigned)hr,
                        (unsigned)(t->fail_has_hr ? t->fail_hr : E_INVALIDARG));
            harness_check_log(log_mark_, current_file, t->fail_line, "Close", t->fail_needles[0], (const char *)NULL);
            goto done;
        }
    }

    for (unsigned i = 0; i < t->buffer_count; i++) {
        struct buffer_def *b = &t->buffers[i];
        if (!b->expected)
            continue;
        transition(list.list, b->resource, use_state(b), D3D12_RESOURCE_STATE_COPY_SOURCE);
        ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, b->readback, 0, b->resource, 0, b->size);
    }
    for (unsigned i = 0; i < t->texture_count; i++) {
        struct texture_def *tex = &t->textures[i];
        if (!tex->expected)
            continue;
        transition(list.list, tex->resource, texture_state(tex), D3D12_RESOURCE_STATE_COPY_SOURCE);
        copy_texture(list.list, tex, tex->readback, false);
    }
    {
        /* Every dispatch took the ABI the root signature flags ask for. */
        D3D12XS_DISPATCH_COUNTERS counters;
        bool memory = extra_root_signature_flags() & D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI;
        CHECK_HR(D3D12XSGetCommandListDispatchCounters((ID3D12CommandList *)list.list, &counters), S_OK);
        if (memory ? counters.PushConstantAbiDispatches : counters.MemoryAbiDispatches)
            FAIL_AT(1, "%llu dispatches took the push-constant ABI and %llu the memory-based ABI; all should take the %s one",
                    (unsigned long long)counters.PushConstantAbiDispatches, (unsigned long long)counters.MemoryAbiDispatches,
                    memory ? "memory-based" : "push-constant");
        /* Root CBV/SRV/UAV arguments go by address through memory with the flag (the devices
         * the tests run on have bufferDeviceAddress and shaderInt64), as descriptors without. */
        if (memory ? counters.PushedRootDescriptors : counters.MemoryRootDescriptors)
            FAIL_AT(1, "%llu root descriptors were pushed and %llu read through memory; all should be %s",
                    (unsigned long long)counters.PushedRootDescriptors, (unsigned long long)counters.MemoryRootDescriptors,
                    memory ? "read through memory" : "pushed");
    }
    harness_execute_and_wait(r->device, r->queue, &list);
    check_expectations(r, t);

done:
    harness_release_list(&list);
    if (heap)
        ID3D12DescriptorHeap_Release(heap);
    if (sampler_heap)
        ID3D12DescriptorHeap_Release(sampler_heap);
    if (signature)
        ID3D12RootSignature_Release(signature);
}

enum file_result { RESULT_PASS, RESULT_FAIL, RESULT_SKIP };

/* The lines of a file. A file is one test, or (with [test NAME] lines) a common part (the
 * lines before the first [test]) and tests: test k is parsed from the file with the lines
 * of every other test blanked, so line numbers stay the file's. */
struct file_lines {
    char **lines;
    size_t count;
    size_t *test_starts; /* line index of each [test] header */
    size_t test_count;
};

static bool read_lines(const char *path, struct file_lines *f)
{
    FILE *file = fopen(path, "r");
    char *line = NULL;
    size_t capacity = 0, line_capacity = 0, test_capacity = 0;
    ssize_t length;

    memset(f, 0, sizeof(*f));
    if (!file) {
        fprintf(stderr, "shader_runner: cannot open %s: %s\n", path, strerror(errno));
        return false;
    }
    while ((length = getline(&line, &capacity, file)) >= 0) {
        if (f->count == line_capacity) {
            line_capacity = line_capacity * 2 + 64;
            f->lines = xrealloc(f->lines, line_capacity * sizeof(*f->lines));
        }
        if (!strncmp(line, "[test ", 6) || !strncmp(line, "[test]", 6)) {
            if (f->test_count == test_capacity) {
                test_capacity = test_capacity * 2 + 16;
                f->test_starts = xrealloc(f->test_starts, test_capacity * sizeof(*f->test_starts));
            }
            f->test_starts[f->test_count++] = f->count;
        }
        f->lines[f->count++] = xstrdup(line);
    }
    free(line);
    fclose(file);
    return true;
}

static void free_lines(struct file_lines *f)
{
    for (size_t i = 0; i < f->count; i++)
        free(f->lines[i]);
    free(f->lines);
    free(f->test_starts);
}

/* Test `index` of the file as a stream (the whole file when it has no [test]). */
static FILE *test_stream(const struct file_lines *f, size_t index, char **text, size_t *size)
{
    FILE *out = open_memstream(text, size);
    size_t begin = f->test_count ? f->test_starts[index] : 0;
    size_t end = f->test_count && index + 1 < f->test_count ? f->test_starts[index + 1] : f->count;
    size_t prefix_end = f->test_count ? f->test_starts[0] : 0;

    for (size_t i = 0; i < f->count; i++)
        fputs(i < prefix_end || (i >= begin && i < end) ? f->lines[i] : "\n", out);
    fclose(out);
    return fmemopen(*text, *size, "r");
}

/* NULL when the device offers what the test requires, else what it lacks. */
static const char *unmet_requirement(struct runner *r, const struct test *t, char *text, size_t size)
{
    D3D12_FEATURE_DATA_D3D12_OPTIONS options;
    D3D12_FEATURE_DATA_D3D12_OPTIONS1 options1;

    memset(&options, 0, sizeof(options));
    memset(&options1, 0, sizeof(options1));
    ID3D12Device_CheckFeatureSupport(r->device, D3D12_FEATURE_D3D12_OPTIONS, &options, sizeof(options));
    ID3D12Device_CheckFeatureSupport(r->device, D3D12_FEATURE_D3D12_OPTIONS1, &options1, sizeof(options1));
    if (t->need_int64 && !options1.Int64ShaderOps)
        return "int64 (Int64ShaderOps)";
    if (t->need_float64 && !options.DoublePrecisionFloatShaderOps)
        return "float64 (DoublePrecisionFloatShaderOps)";
    if (t->need_min_lod_clamp || t->need_derivative_quads || t->need_derivative_linear) {
        D3D12XS_DEVICE_INFO info;
        if (FAILED(D3D12XSGetDeviceInfo(r->device, &info)))
            return "D3D12XSGetDeviceInfo";
        if (t->need_min_lod_clamp && !info.ResourceMinLODClampSupported)
            return "min_lod_clamp (D3D12XS_DEVICE_INFO::ResourceMinLODClampSupported: VK_EXT_image_view_min_lod)";
        if (t->need_derivative_quads && !info.ComputeDerivativeQuadsSupported)
            return "derivative_quads (D3D12XS_DEVICE_INFO::ComputeDerivativeQuadsSupported: compute_shader_derivatives)";
        if (t->need_derivative_linear && !info.ComputeDerivativeLinearSupported)
            return "derivative_linear (D3D12XS_DEVICE_INFO::ComputeDerivativeLinearSupported: compute_shader_derivatives)";
    }
    if ((t->min_lanes && r->lanes < t->min_lanes) || (t->max_lanes && r->lanes > t->max_lanes)) {
        snprintf(text, size, "a wave size in [%u, %u] (the device's is %u)", t->min_lanes, t->max_lanes ? t->max_lanes : ~0u,
                r->lanes);
        return text;
    }
    return NULL;
}

static enum file_result run_file(const char *path, bool run_known_bugs)
{
    struct runner r;
    D3D12_FEATURE_DATA_D3D12_OPTIONS1 options1;
    D3D12XS_DEVICE_INFO info;
    struct file_lines f;
    unsigned passed = 0, failed = 0, skipped = 0;
    size_t tests;

    current_file = path;
    if (!read_lines(path, &f)) {
        FAIL_AT(0, "cannot read the file");
        return RESULT_FAIL;
    }
    tests = f.test_count ? f.test_count : 1;

    memset(&r, 0, sizeof(r));
    r.device = harness_create_device();
    memset(&options1, 0, sizeof(options1));
    CHECK_HR(ID3D12Device_CheckFeatureSupport(r.device, D3D12_FEATURE_D3D12_OPTIONS1, &options1, sizeof(options1)), S_OK);
    r.lanes = options1.WaveLaneCountMin;
    CHECK_MSG(r.lanes >= 4, "WaveLaneCountMin is %u", r.lanes);
    memset(&info, 0, sizeof(info));
    CHECK_HR(D3D12XSGetDeviceInfo(r.device, &info), S_OK);

    for (size_t k = 0; k < tests; k++) {
        struct test *t = xcalloc(1, sizeof(*t));
        char *text = NULL, why[128];
        const char *unmet;
        size_t text_size = 0;
        FILE *stream = test_stream(&f, k, &text, &text_size);

        file_errors = 0;
        for (unsigned i = 0; i < let_count; i++)
            free(lets[i].text);
        let_count = 0; /* each test has its own lets */
        parse_file(t, stream, path);
        fclose(stream);
        free(text);
        if (t->has_known_bug && !run_known_bugs && (!t->known_bug_on_lavapipe || info.IsSoftwareRasterizer)) {
            printf("%s%s%s: SKIPPED: known bug %s\n", current_file, *t->name ? " " : "", t->name, t->known_bug);
            skipped++;
        } else if (!file_errors && (unmet = unmet_requirement(&r, t, why, sizeof(why)))) {
            printf("%s%s%s: SKIPPED: the device lacks %s\n", current_file, *t->name ? " " : "", t->name, unmet);
            skipped++;
        } else {
            if (!file_errors) {
                r.queue = harness_create_queue(r.device, t->queue_type);
                if (r.queue)
                    run_test(&r, t);
                if (r.queue)
                    ID3D12CommandQueue_Release(r.queue);
                r.queue = NULL;
            }
            if (file_errors)
                failed++;
            else
                passed++;
            printf("%s%s%s: %s (wave lanes %u)%s\n", current_file, *t->name ? " " : "", t->name,
                    file_errors ? "FAILED" : "done", r.lanes, t->has_known_bug && (!t->known_bug_on_lavapipe || info.IsSoftwareRasterizer)
                    ? " [known bug, run anyway]" : "");
        }
        free_test(t);
        free(t);
    }
    harness_release_device(r.device);
    free_lines(&f);
    if (tests > 1)
        printf("%s: %u tests passed, %u failed, %u skipped\n", current_file, passed, failed, skipped);
    file_errors = failed;
    return failed ? RESULT_FAIL : passed ? RESULT_PASS : RESULT_SKIP;
}

int main(int argc, char **argv)
{
    unsigned passed = 0, failed = 0, skipped = 0, files = 0;
    bool run_known_bugs = getenv("D3D12XS_RUN_KNOWN_BUGS") && !strcmp(getenv("D3D12XS_RUN_KNOWN_BUGS"), "1");
    int status;

    harness_init();
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--run-known-bugs")) {
            run_known_bugs = true;
            continue;
        }
        files++;
        switch (run_file(argv[i], run_known_bugs)) {
        case RESULT_PASS: passed++; break;
        case RESULT_FAIL: failed++; break;
        case RESULT_SKIP: skipped++; break;
        }
    }
    if (!files) {
        fprintf(stderr, "usage: %s [--run-known-bugs] FILE.shader_test...\n", argv[0]);
        return 2;
    }
    printf("shader files: %u run, %u skipped (known bugs), %u with errors\n", passed + failed, skipped, failed);
    status = harness_finish();
    if (!status && skipped && !passed && !failed)
        return SKIP_EXIT_CODE;
    return status;
}
