/* Source rewrites (and refusals) for buffers, matrices and 64-bit integers, where glslang's
 * HLSL front end disagrees with D3D's compiler or produces SPIR-V that does not validate:
 *
 *  - (RW)ByteAddressBuffer.GetDimensions(n) answers bytes (glslang answers 32-bit words: its
 *    SPIR-V is that of StructuredBuffer<uint>, so the fix-up pass cannot tell them apart): the
 *    statement becomes `{ b.GetDimensions(n); n *= 4u; }`.
 *  - StructuredBuffer<T>.GetDimensions(count, stride) answers D3D's stride, sizeof(T) packed
 *    tightly (glslang folds its own padded stride into a constant), when T is a 32-bit scalar,
 *    vector, matrix or a struct of those declared in the same file.
 *  - Interlocked* methods of a RWByteAddressBuffer take an int literal value as a uint (glslang
 *    emits an int operand that does not validate).
 *  - multi-element matrix swizzles read as rvalues (`m._m00_m11`) become
 *    __d3d12xs_vector(m._m00, m._m11) (glslang emits invalid SPIR-V for them).
 *  - component-wise intrinsics on float matrices (abs, min, saturate, lerp...) and all/any of a
 *    float matrix get overloads that apply the intrinsic to each row (glslang emits the
 *    GLSL.std.450 instruction on the matrix, which is invalid).
 *  - asuint(double, out uint lo, out uint hi) is __d3d12xs_asuint.
 *
 * Refused with an `#error` put before the line of the construct (so that code disabled by the
 * preprocessor is not refused, and the message has the user's line number): arrays of
 * RWStructuredBuffer / RWByteAddressBuffer, int64_t and 64-bit integer vectors (glslang knows
 * only the uint64_t scalar), 1xN and Nx1 matrices, integer and bool matrices, multi-element
 * matrix swizzles written to. Rewrites see the tokens of one file: a buffer declared in another
 * file, or a construct spelt through a macro, is left alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaders/hlsl_rewrite_parts.h"

/* component-wise intrinsics given matrix overloads: operands, name */
static const struct {
    unsigned operands; /* 0: all/any (bool of the rows) */
    const char *name;
} matrix_intrinsics[] = {
    {1, "abs"}, {1, "acos"}, {1, "asin"}, {1, "atan"}, {1, "ceil"}, {1, "cos"}, {1, "cosh"}, {1, "degrees"},
    {1, "exp"}, {1, "exp2"}, {1, "floor"}, {1, "frac"}, {1, "log"}, {1, "log10"}, {1, "log2"}, {1, "radians"},
    {1, "round"}, {1, "rsqrt"}, {1, "saturate"}, {1, "sin"}, {1, "sinh"}, {1, "sqrt"}, {1, "tan"}, {1, "tanh"},
    {1, "trunc"}, {2, "min"}, {2, "max"}, {2, "pow"}, {2, "atan2"}, {2, "step"}, {3, "clamp"}, {3, "lerp"},
    {3, "smoothstep"}, {0, "all"}, {0, "any"},
};

enum buffer_kind { BUFFER_RAW, BUFFER_STRUCTURED };

struct buffer {
    size_t name;          /* token */
    enum buffer_kind kind;
    unsigned stride;      /* D3D's element size (structured), 0 when unknown */
};

struct buffers {
    struct buffer *items;
    size_t count, capacity;
};

static bool is_number(const struct rewriter *r, size_t t)
{
    return t < r->token_count && r->tokens[t].kind == TOKEN_NUMBER;
}

/* Refuses the construct at token t with an `#error` line put before its line; format names
 * the token's text with %.*s. */
static void refuse(struct rewriter *r, size_t t, const char *format)
{
    struct text message = {0};
    size_t at = r->tokens[t].at;

    while (at && r->s[at - 1] != '\n')
        at--;
    hlsl_append(&message, "#error D3DCompile: ");
    hlsl_append(&message, format, (int)r->tokens[t].length, r->s + r->tokens[t].at);
    hlsl_append(&message, "\n");
    if (message.failed)
        r->failed = true;
    else
        hlsl_add_edit(r, at, 0, "%s", message.data);
    free(message.data);
}

/* Splits the text of token t into a scalar type name of `scalars` and a suffix: "", "N" or "RxC"
 * (*rows 0 for a vector or scalar, *columns 0 for a scalar). */
static bool split_type(const struct rewriter *r, size_t t, const char *const *scalars, size_t scalar_count,
        const char **scalar, unsigned *rows, unsigned *columns)
{
    const char *text = r->s + r->tokens[t].at;
    size_t length = r->tokens[t].length;

    if (!hlsl_is_ident(r, t))
        return false;
    for (size_t i = 0; i < scalar_count; i++) {
        size_t n = strlen(scalars[i]);
        const char *rest = text + n;
        if (n > length || memcmp(scalars[i], text, n))
            continue;
        *scalar = scalars[i];
        *rows = *columns = 0;
        if (n == length)
            return true;
        if (n + 1 == length && rest[0] >= '1' && rest[0] <= '4') {
            *columns = rest[0] - '0';
            return true;
        }
        if (n + 3 == length && rest[0] >= '1' && rest[0] <= '4' && rest[1] == 'x' && rest[2] >= '1' && rest[2] <= '4') {
            *rows = rest[0] - '0';
            *columns = rest[2] - '0';
            return true;
        }
    }
    return false;
}

static const char *const float_scalars[] = {"float", "half", "double", "min16float", "min10float"};
static const char *const integer_scalars[] = {"int", "uint", "dword", "bool", "min16int", "min12int", "min16uint",
        "int64_t", "uint64_t"};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* D3D's size of a structured buffer element of type token t (a 32-bit scalar, vector, matrix or
 * a struct of those declared in this file, arrays of them included), 0 when not known. */
static unsigned element_size(const struct rewriter *r, size_t t, unsigned depth)
{
    static const char *const sized[] = {"float", "int", "uint", "dword", "bool"};
    const char *scalar;
    unsigned rows, columns, size = 0;

    if (split_type(r, t, sized, COUNT(sized), &scalar, &rows, &columns))
        return 4 * (rows ? rows : 1) * (columns ? columns : 1);
    if (!hlsl_is_ident(r, t) || depth > 8)
        return 0;
    for (size_t s = 0; s + 2 < r->token_count; s++) {
        size_t end, u;
        if (!hlsl_is(r, s, "struct") || !hlsl_same_text(r, s + 1, t) || !hlsl_is(r, s + 2, "{"))
            continue;
        end = hlsl_closing(r, s + 2);
        /* members: [modifiers] TYPE name[N]..., name2...; */
        for (u = s + 3; u < end;) {
            size_t type = u;
            unsigned member;
            while (hlsl_is(r, type, "row_major") || hlsl_is(r, type, "column_major") || hlsl_is(r, type, "precise"))
                type++;
            if (!(member = element_size(r, type, depth + 1)))
                return 0;
            for (u = type + 1; u < end && !hlsl_is(r, u, ";");) {
                unsigned count = 1;
                if (!hlsl_is_ident(r, u))
                    return 0;
                for (u++; hlsl_is(r, u, "["); u += 3) {
                    if (!is_number(r, u + 1) || !hlsl_is(r, u + 2, "]"))
                        return 0;
                    count *= (unsigned)strtoul(r->s + r->tokens[u + 1].at, NULL, 0);
                }
                if (hlsl_is(r, u, ":")) /* a semantic */
                    u += 2;
                if (hlsl_is(r, u, ","))
                    u++;
                else if (!hlsl_is(r, u, ";"))
                    return 0;
                if (count > 65536 || size > 65536)
                    return 0;
                size += member * count;
            }
            u++;
        }
        return end < r->token_count ? size : 0;
    }
    return 0;
}

static void add_buffer(struct rewriter *r, struct buffers *buffers, size_t name, enum buffer_kind kind,
        unsigned stride)
{
    if (buffers->count == buffers->capacity) {
        struct buffer *bigger = realloc(buffers->items, (buffers->capacity = buffers->capacity * 2 + 8)
                * sizeof(*bigger));
        if (!bigger) {
            r->failed = true;
            return;
        }
        buffers->items = bigger;
    }
    buffers->items[buffers->count].name = name;
    buffers->items[buffers->count].kind = kind;
    buffers->items[buffers->count].stride = stride;
    buffers->count++;
}

static const struct buffer *find_buffer(const struct rewriter *r, const struct buffers *buffers, size_t t)
{
    for (size_t i = buffers->count; i-- > 0;)
        if (hlsl_same_text(r, buffers->items[i].name, t))
            return &buffers->items[i];
    return NULL;
}

/* Buffer declarations (globals and parameters), arrays of RW buffers refused. */
static void collect_buffers(struct rewriter *r, struct buffers *buffers)
{
    for (size_t t = 0; t + 1 < r->token_count; t++) {
        bool raw = hlsl_is(r, t, "ByteAddressBuffer") || hlsl_is(r, t, "RWByteAddressBuffer");
        bool structured = hlsl_is(r, t, "StructuredBuffer") || hlsl_is(r, t, "RWStructuredBuffer")
                || hlsl_is(r, t, "AppendStructuredBuffer") || hlsl_is(r, t, "ConsumeStructuredBuffer");
        size_t name = t + 1, element = 0;

        if (!raw && !structured)
            continue;
        if (structured) {
            size_t close;
            int depth = 0;
            if (!hlsl_is(r, t + 1, "<"))
                continue;
            for (close = t + 1; close < r->token_count; close++) {
                if (hlsl_is(r, close, "<"))
                    depth++;
                else if (hlsl_is(r, close, ">") && --depth == 0)
                    break;
            }
            if (close >= r->token_count)
                continue;
            if (close == t + 3)
                element = t + 2;
            name = close + 1;
        }
        if (!hlsl_is_ident(r, name))
            continue;
        if (hlsl_is(r, name + 1, "[") && (hlsl_is(r, t, "RWByteAddressBuffer") || hlsl_is(r, t, "RWStructuredBuffer"))
                && !r->tokens[t].directive) {
            refuse(r, t, "arrays of %.*s are not supported (glslang cannot index them): declare one buffer per register");
            continue;
        }
        add_buffer(r, buffers, name, raw ? BUFFER_RAW : BUFFER_STRUCTURED, element ? element_size(r, element, 0) : 0);
    }
}

/* The text of tokens [first, last]. */
static int text_length(const struct rewriter *r, size_t first, size_t last)
{
    return (int)(r->tokens[last].at + r->tokens[last].length - r->tokens[first].at);
}

/* `b.GetDimensions(...)` and `b.Interlocked*(...)` of the buffers declared. */
static void rewrite_buffer_methods(struct rewriter *r, const struct buffers *buffers)
{
    for (size_t t = 0; t + 3 < r->token_count; t++) {
        const struct buffer *buffer;
        size_t open = t + 3, close, args[5], arg_count = 0;

        if (!hlsl_is_ident(r, t) || !hlsl_is(r, t + 1, ".") || !hlsl_is(r, open, "(") || (t && hlsl_is(r, t - 1, "."))
                || !(buffer = find_buffer(r, buffers, t)))
            continue;
        if ((close = hlsl_closing(r, open)) >= r->token_count)
            continue;
        args[arg_count++] = open + 1;
        for (size_t u = open + 1; u < close && arg_count < 5; u++) {
            if (hlsl_is(r, u, "(") || hlsl_is(r, u, "[") || hlsl_is(r, u, "{"))
                u = hlsl_closing(r, u);
            else if (hlsl_is(r, u, ","))
                args[arg_count++] = u + 1;
        }
        args[arg_count] = close + 1; /* each argument ends before the next one's start - 1 */
        if (hlsl_is(r, t + 2, "GetDimensions") && hlsl_is(r, close + 1, ";") && t
                && (hlsl_is(r, t - 1, ";") || hlsl_is(r, t - 1, "{") || hlsl_is(r, t - 1, "}")
                    || hlsl_is(r, t - 1, ")") || hlsl_is(r, t - 1, "else"))) {
            size_t out = buffer->kind == BUFFER_RAW ? 0 : 1;
            size_t first = args[out], last = args[out + 1] - 2;
            if (arg_count != out + 1 || first > last || (buffer->kind == BUFFER_STRUCTURED && !buffer->stride))
                continue;
            hlsl_add_edit(r, r->tokens[t].at, 0, "{ ");
            if (buffer->kind == BUFFER_RAW)
                hlsl_add_edit(r, r->tokens[close + 1].at + 1, 0, " %.*s *= 4u; }", text_length(r, first, last),
                        r->s + r->tokens[first].at);
            else
                hlsl_add_edit(r, r->tokens[close + 1].at + 1, 0, " %.*s = %uu; }", text_length(r, first, last),
                        r->s + r->tokens[first].at, buffer->stride);
            t = close + 1;
        } else if (buffer->kind == BUFFER_RAW && r->tokens[t + 2].length > 11
                && !memcmp(r->s + r->tokens[t + 2].at, "Interlocked", 11)) {
            /* values that are int literals: as uint */
            for (size_t a = 1; a < arg_count; a++) {
                size_t first = args[a], last = args[a + 1] - 2;
                const char *text = r->s + r->tokens[last].at;
                size_t length = r->tokens[last].length;
                if (hlsl_is(r, first, "-") || hlsl_is(r, first, "+"))
                    first++;
                if (first != last || !is_number(r, last) || memchr(text, '.', length) || memchr(text, 'u', length)
                        || memchr(text, 'U', length))
                    continue;
                hlsl_add_edit(r, r->tokens[args[a]].at, 0, "(uint)(");
                hlsl_add_edit(r, r->tokens[last].at + length, 0, ")");
            }
            t = close;
        }
    }
}

/* A multi-element matrix swizzle: _mRC_mRC... (zero-based) or _RC_RC... (one-based). */
static unsigned swizzle_count(const struct rewriter *r, size_t t)
{
    const char *text = r->s + r->tokens[t].at;
    size_t length = r->tokens[t].length, step;

    if (!hlsl_is_ident(r, t) || length < 2 || text[0] != '_')
        return 0;
    step = text[1] == 'm' ? 4 : 3;
    if (length % step || length / step < 2 || length / step > 4)
        return 0;
    for (size_t i = 0; i < length; i += step) {
        const char *c = text + i + step - 2;
        char low = step == 4 ? '0' : '1';
        if (text[i] != '_' || (step == 4 && text[i + 1] != 'm') || c[0] < low || c[0] > low + 3 || c[1] < low
                || c[1] > low + 3)
            return 0;
    }
    return (unsigned)(length / step);
}

static void rewrite_matrix_swizzles(struct rewriter *r)
{
    for (size_t t = 1; t + 1 < r->token_count; t++) {
        unsigned count = swizzle_count(r, t), step;
        size_t base;
        bool simple = true;

        if (!count || !hlsl_is(r, t - 1, "."))
            continue;
        if ((hlsl_is(r, t + 1, "=") && !hlsl_is(r, t + 2, "=")) || (hlsl_is(r, t + 2, "=") && r->tokens[t + 1].length == 1
                    && strchr("+-*/%&|^", r->s[r->tokens[t + 1].at]))
                || (hlsl_is(r, t + 1, "+") && hlsl_is(r, t + 2, "+")) || (hlsl_is(r, t + 1, "-") && hlsl_is(r, t + 2, "-"))) {
            if (!r->tokens[t].directive)
                refuse(r, t, "writing the multi-element matrix swizzle %.*s is not supported (glslang): write each element");
            continue;
        }
        /* the base: name (. name | [index])*, without calls or side effects */
        base = t - 1;
        for (;;) {
            if (!base)
                break;
            if (hlsl_is_ident(r, base - 1)) {
                base--;
                if (base && hlsl_is(r, base - 1, ".")) {
                    base--;
                    continue;
                }
                break;
            }
            if (hlsl_is(r, base - 1, "]")) {
                size_t close = base - 1, open = close;
                int depth = 0;
                for (;; open--) {
                    if (hlsl_is(r, open, "]"))
                        depth++;
                    else if (hlsl_is(r, open, "[") && --depth == 0)
                        break;
                    if (!open)
                        break;
                }
                if (!hlsl_is(r, open, "[")) {
                    simple = false;
                    break;
                }
                for (size_t u = open; u < close; u++)
                    if (hlsl_is(r, u, "(") || hlsl_is(r, u, "=") || (hlsl_is(r, u, "+") && hlsl_is(r, u + 1, "+"))
                            || (hlsl_is(r, u, "-") && hlsl_is(r, u + 1, "-")))
                        simple = false; /* a call or side effect, which the rewrite would repeat */
                base = open;
                continue;
            }
            simple = false;
            break;
        }
        if (r->tokens[t].directive)
            continue;
        if (!simple || base == t - 1) {
            refuse(r, t, "the multi-element matrix swizzle %.*s of this expression is not supported (glslang): "
                    "swizzle a local copy");
            continue;
        }
        step = r->s[r->tokens[t].at + 1] == 'm' ? 4 : 3;
        {
            struct text call = {0};
            hlsl_append(&call, "__d3d12xs_vector(");
            for (unsigned i = 0; i < count; i++)
                hlsl_append(&call, "%s%.*s.%.*s", i ? ", " : "", text_length(r, base, t - 2), r->s + r->tokens[base].at,
                        (int)step, r->s + r->tokens[t].at + i * step);
            hlsl_append(&call, ")");
            if (call.failed)
                r->failed = true;
            else
                hlsl_add_edit(r, r->tokens[base].at, r->tokens[t].at + r->tokens[t].length - r->tokens[base].at, "%s",
                        call.data);
            free(call.data);
        }
        r->needs |= NEED_VECTOR;
    }
}

static bool is_call_of(const struct rewriter *r, size_t t, const char *name)
{
    return hlsl_is(r, t, name) && hlsl_is(r, t + 1, "(") && !(t && hlsl_is(r, t - 1, "."))
            && !(t && (hlsl_is_ident(r, t - 1) || hlsl_is(r, t - 1, ">")) && !hlsl_is(r, t - 1, "return")
                && !hlsl_is(r, t - 1, "else") && !hlsl_is(r, t - 1, "case"));
}

/* ---- uint64_t: casts, constructors and literals glslang cannot translate ---- */

static bool is_numeric_type(const struct rewriter *r, size_t t)
{
    const char *scalar;
    unsigned rows, columns;

    return split_type(r, t, float_scalars, COUNT(float_scalars), &scalar, &rows, &columns)
            || split_type(r, t, integer_scalars, COUNT(integer_scalars), &scalar, &rows, &columns);
}

/* The token after the unary expression starting at token t (prefix operators and casts, a
 * name, number, call or parenthesised group, then member accesses, indices and calls), or
 * token_count when the tokens are not one. */
static size_t unary_end(const struct rewriter *r, size_t t)
{
    while (t < r->token_count && r->tokens[t].length == 1 && strchr("-+!~", r->s[r->tokens[t].at]))
        t++;
    if (hlsl_is(r, t, "(") && is_numeric_type(r, t + 1) && hlsl_is(r, t + 2, ")"))
        return unary_end(r, t + 3);
    if (hlsl_is(r, t, "(")) {
        t = hlsl_closing(r, t);
    } else if (hlsl_is_ident(r, t) || is_number(r, t)) {
        if (hlsl_is(r, t + 1, "("))
            t = hlsl_closing(r, t + 1);
    } else {
        return r->token_count;
    }
    for (t++; t < r->token_count;) {
        if (hlsl_is(r, t, ".") && hlsl_is_ident(r, t + 1)) {
            t = hlsl_is(r, t + 2, "(") ? hlsl_closing(r, t + 2) + 1 : t + 2;
        } else if (hlsl_is(r, t, "[")) {
            t = hlsl_closing(r, t) + 1;
        } else if ((hlsl_is(r, t, "+") && hlsl_is(r, t + 1, "+")) || (hlsl_is(r, t, "-") && hlsl_is(r, t + 1, "-"))) {
            t += 2;
        } else {
            break;
        }
    }
    return t <= r->token_count ? t : r->token_count;
}

/* An integer literal with a 64-bit suffix: 1 for unsigned (ull, ul, lu, llu), -1 for signed
 * (l, ll), 0 for others; its value in *value. */
static int literal64(const struct rewriter *r, size_t t, unsigned long long *value)
{
    const char *text = r->s + r->tokens[t].at, *suffix;
    size_t length = r->tokens[t].length;
    bool hex = length > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'), l = false, u = false;
    char *end;

    if (!is_number(r, t) || memchr(text, '.', length) || (!hex && (memchr(text, 'e', length)
            || memchr(text, 'E', length))))
        return 0;
    *value = strtoull(text, &end, 0);
    for (suffix = end; suffix < text + length; suffix++) {
        if (*suffix == 'l' || *suffix == 'L')
            l = true;
        else if (*suffix == 'u' || *suffix == 'U')
            u = true;
        else
            return 0;
    }
    return !l ? 0 : u ? 1 : -1;
}

static void rewrite_uint64(struct rewriter *r)
{
    for (size_t t = 0; t < r->token_count; t++) {
        unsigned long long value;
        int literal;

        if (r->tokens[t].directive)
            continue;
        if ((literal = literal64(r, t, &value)) < 0) {
            refuse(r, t, "the literal %.*s has the type int64_t, which is not supported (glslang knows only the "
                    "scalar uint64_t): write it with the suffix ull");
        } else if (literal > 0) {
            hlsl_add_edit(r, r->tokens[t].at, r->tokens[t].length, "__d3d12xs_uint64(%lluu, %lluu)", value >> 32,
                    value & 0xffffffffull);
            r->needs |= NEED_UINT64;
        } else if (hlsl_is(r, t, "uint64_t") && t && hlsl_is(r, t - 1, "(") && hlsl_is(r, t + 1, ")")) {
            size_t end = unary_end(r, t + 2);
            if (end >= r->token_count)
                continue;
            hlsl_add_edit(r, r->tokens[t - 1].at, r->tokens[t + 1].at + 1 - r->tokens[t - 1].at,
                    "__d3d12xs_to_uint64(");
            hlsl_add_edit(r, r->tokens[end - 1].at + r->tokens[end - 1].length, 0, ")");
            r->needs |= NEED_UINT64;
        } else if (hlsl_is(r, t, "uint64_t") && hlsl_is(r, t + 1, "(") && !(t && hlsl_is(r, t - 1, "."))) {
            hlsl_replace_token(r, t, "__d3d12xs_to_uint64");
            r->needs |= NEED_UINT64;
        }
    }
}

/* Types refused, matrix intrinsics and asuint(double, out, out). */
static void rewrite_matrices_and_integers(struct rewriter *r)
{
    bool matrices = false;

    for (size_t t = 0; t < r->token_count; t++) {
        const char *scalar;
        unsigned rows, columns;
        bool template_type = (hlsl_is(r, t, "vector") || hlsl_is(r, t, "matrix")) && hlsl_is(r, t + 1, "<");

        if (hlsl_is(r, t, "matrix")
                || (split_type(r, t, float_scalars, COUNT(float_scalars), &scalar, &rows, &columns) && rows))
            matrices = true;
        if (r->tokens[t].directive)
            continue;
        if (template_type && (hlsl_is(r, t + 2, "int64_t") || hlsl_is(r, t + 2, "uint64_t"))) {
            refuse(r, t + 2, "vectors and matrices of %.*s are not supported (glslang knows only the scalar uint64_t)");
            continue;
        }
        if (hlsl_is(r, t, "matrix") && hlsl_is(r, t + 1, "<")) {
            bool integer = split_type(r, t + 2, integer_scalars, COUNT(integer_scalars), &scalar, &rows, &columns);
            if (integer)
                refuse(r, t + 2, "matrices of %.*s are not supported (Vulkan matrices hold floats only)");
            else if (hlsl_is(r, t + 3, ",") && hlsl_is(r, t + 5, ",") && (hlsl_is(r, t + 4, "1") || hlsl_is(r, t + 6, "1")))
                refuse(r, t, "%.*s types with one row or one column are not supported (glslang emits invalid code for them): use a vector");
            continue;
        }
        if (split_type(r, t, integer_scalars, COUNT(integer_scalars), &scalar, &rows, &columns)) {
            bool is64 = !strcmp(scalar, "int64_t") || !strcmp(scalar, "uint64_t");
            if (is64 && (!strcmp(scalar, "int64_t") || columns))
                refuse(r, t, "the integer type %.*s is not supported (glslang knows only the scalar uint64_t)");
            else if (rows)
                refuse(r, t, "the integer or bool matrix type %.*s is not supported (Vulkan matrices hold floats only)");
            continue;
        }
        if (split_type(r, t, float_scalars, COUNT(float_scalars), &scalar, &rows, &columns) && rows
                && (rows == 1 || columns == 1)) {
            refuse(r, t, "the matrix type %.*s with one row or one column is not supported (glslang emits invalid code for it): use a vector");
            continue;
        }
        if (is_call_of(r, t, "asuint")) {
            size_t close = hlsl_closing(r, t + 1);
            unsigned commas = 0;
            for (size_t u = t + 2; u < close && u < r->token_count; u++) {
                if (hlsl_is(r, u, "(") || hlsl_is(r, u, "[") || hlsl_is(r, u, "{"))
                    u = hlsl_closing(r, u);
                else if (hlsl_is(r, u, ","))
                    commas++;
            }
            if (close < r->token_count && commas == 2) {
                hlsl_replace_token(r, t, "__d3d12xs_asuint");
                r->needs |= NEED_ASUINT;
            }
        }
    }
    if (!matrices)
        return;
    for (size_t t = 0; t < r->token_count; t++)
        for (size_t i = 0; i < COUNT(matrix_intrinsics); i++)
            if (!r->tokens[t].directive && is_call_of(r, t, matrix_intrinsics[i].name))
                r->needs |= (uint64_t)1 << (NEED_MATRIX_SHIFT + i);
}

void hlsl_rewrite_types(struct rewriter *r)
{
    struct buffers buffers = {0};

    collect_buffers(r, &buffers);
    rewrite_buffer_methods(r, &buffers);
    free(buffers.items);
    rewrite_matrix_swizzles(r);
    rewrite_uint64(r);
    rewrite_matrices_and_integers(r);
}

void hlsl_prelude_types(struct text *b, uint64_t needs)
{
    static const char *const vector_types[] = {"float", "double"};
    static const char xyzw[] = "xyzw";

    if (needs & NEED_VECTOR) {
        hlsl_append(b, "#ifndef D3D12XS_VECTOR\n#define D3D12XS_VECTOR\n");
        for (size_t i = 0; i < COUNT(vector_types); i++)
            for (unsigned n = 2; n <= 4; n++) {
                hlsl_append(b, "%s%u __d3d12xs_vector(", vector_types[i], n);
                for (unsigned c = 0; c < n; c++)
                    hlsl_append(b, "%s%s %c", c ? ", " : "", vector_types[i], xyzw[c]);
                hlsl_append(b, ") { return %s%u(", vector_types[i], n);
                for (unsigned c = 0; c < n; c++)
                    hlsl_append(b, "%s%c", c ? ", " : "", xyzw[c]);
                hlsl_append(b, "); }\n");
            }
        hlsl_append(b, "#endif\n");
    }
    if (needs & NEED_UINT64)
        /* glslang converts to uint64_t only implicitly, and not from floats: D3D saturates */
        hlsl_append(b, "#ifndef D3D12XS_UINT64\n#define D3D12XS_UINT64\n"
                "uint64_t __d3d12xs_uint64(uint high, uint low) { uint64_t r = high; r = r << 32; return r | low; }\n"
                "uint64_t __d3d12xs_to_uint64(uint64_t x) { return x; }\n"
                "uint64_t __d3d12xs_to_uint64(uint x) { uint64_t r = x; return r; }\n"
                "uint64_t __d3d12xs_to_uint64(int x) { uint64_t r = x; return r; }\n"
                "uint64_t __d3d12xs_to_uint64(bool x) { uint64_t r = (uint)x; return r; }\n"
                "uint64_t __d3d12xs_to_uint64(double x) {\n"
                "    if (x != x || x <= 0) return __d3d12xs_uint64(0u, 0u);\n"
                "    if (x >= 18446744073709551616.0) return __d3d12xs_uint64(0xFFFFFFFFu, 0xFFFFFFFFu);\n"
                "    uint high = (uint)(x / 4294967296.0);\n"
                "    return __d3d12xs_uint64(high, (uint)(x - (double)high * 4294967296.0));\n}\n"
                "uint64_t __d3d12xs_to_uint64(float x) { return __d3d12xs_to_uint64((double)x); }\n#endif\n");
    if (needs & NEED_ASUINT)
        /* glslang's asuint(double) converts to float: the bits are computed, asdouble() being
         * right (NaN gives the canonical quiet NaN); conversions truncate, without floor(),
         * which glslang computes in float for doubles */
        hlsl_append(b, "#ifndef D3D12XS_ASUINT\n#define D3D12XS_ASUINT\n"
                "void __d3d12xs_asuint(double d, out uint low, out uint high) {\n"
                "    uint sign = asuint((float)d) & 0x80000000u, biased = 0u;\n"
                "    double a = abs(d), fraction;\n"
                "    if (d != d) { low = 0u; high = 0x7FF80000u; return; }\n"
                "    if (a - a != 0) { low = 0u; high = sign | 0x7FF00000u; return; }\n"
                "    if (a >= asdouble(0u, 1u << 20)) {\n"
                "        uint least = 1u, most = 2046u;\n"
                "        while (least < most) { uint middle = (least + most + 1u) / 2u;\n"
                "            if (a >= asdouble(0u, middle << 20)) least = middle; else most = middle - 1u; }\n"
                "        biased = least;\n"
                "        fraction = (a / asdouble(0u, biased << 20) - 1.0) * asdouble(0u, (1023u + 52u) << 20);\n"
                "    } else {\n"
                "        fraction = a * asdouble(0u, (1023u + 537u) << 20) * asdouble(0u, (1023u + 537u) << 20);\n"
                "    }\n"
                "    high = (uint)(fraction / 4294967296.0);\n"
                "    low = (uint)(fraction - (double)high * 4294967296.0);\n"
                "    high |= sign | (biased << 20);\n}\n#endif\n");
    for (size_t i = 0; i < COUNT(matrix_intrinsics); i++) {
        const char *name = matrix_intrinsics[i].name;
        unsigned operands = matrix_intrinsics[i].operands;
        if (!(needs & ((uint64_t)1 << (NEED_MATRIX_SHIFT + i))))
            continue;
        hlsl_append(b, "#ifndef D3D12XS_MATRIX_%s\n#define D3D12XS_MATRIX_%s\n", name, name);
        for (unsigned rows = 2; rows <= 4; rows++)
            for (unsigned columns = 2; columns <= 4; columns++) {
                if (!operands) {
                    hlsl_append(b, "bool %s(float%ux%u a) { return ", name, rows, columns);
                    for (unsigned row = 0; row < rows; row++)
                        hlsl_append(b, "%s%s(a[%u])", row ? (!strcmp(name, "all") ? " && " : " || ") : "", name, row);
                    hlsl_append(b, "; }\n");
                    continue;
                }
                hlsl_append(b, "float%ux%u %s(", rows, columns, name);
                for (unsigned o = 0; o < operands; o++)
                    hlsl_append(b, "%sfloat%ux%u %c", o ? ", " : "", rows, columns, 'a' + o);
                hlsl_append(b, ") { return float%ux%u(", rows, columns);
                for (unsigned row = 0; row < rows; row++) {
                    hlsl_append(b, "%s%s(", row ? ", " : "", name);
                    for (unsigned o = 0; o < operands; o++)
                        hlsl_append(b, "%s%c[%u]", o ? ", " : "", 'a' + o, row);
                    hlsl_append(b, ")");
                }
                hlsl_append(b, "); }\n");
            }
        hlsl_append(b, "#endif\n");
    }
}
