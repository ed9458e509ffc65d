/* Source rewrites (and refusals) for buffers, types and 64-bit integers, where glslang's
 * HLSL front end disagrees with D3D's compiler or produces SPIR-V that does not validate:
 *
 *  - (RW)ByteAddressBuffer.GetDimensions(n) answers bytes (glslang answers 32-bit words: its
 *    SPIR-V is that of StructuredBuffer<uint>, so the fix-up pass cannot tell them apart): the
 *    statement becomes `{ b.GetDimensions(n); n *= 4u; }`.
 *  - StructuredBuffer<T>.GetDimensions(count, stride) answers D3D's stride, sizeof(T) packed
 *    tightly (glslang folds its own padded stride into a constant), when T is a scalar,
 *    vector, matrix or a struct of those (not mixing 32- and 64-bit components); not written
 *    as a statement of its own, it is refused (a constant the rewrite cannot reach).
 *  - Interlocked* methods of a RWByteAddressBuffer take their values as uint, as D3D's do
 *    (glslang passes an int value, literal or not, as an operand that does not validate).
 *  - uint64_t casts and constructors, and integer literals with the suffix ull, go through
 *    helpers (glslang converts to uint64_t only implicitly, never from floats).
 *  - sign() answers an int (glslang answers a float for floats).
 *  - asuint(double, out uint lo, out uint hi) is __d3d12xs_asuint (glslang's asuint of a double
 *    converts it to float).
 *
 * Refused with an `#error` put before the line of the construct (the message has the user's
 * file and line number): int64_t and 64-bit integer vectors (glslang knows
 * only the uint64_t scalar; the suffixes l and ll), 1xN and Nx1 matrices, integer and bool
 * matrices (matrix swizzles and intrinsics are in hlsl_rewrite_matrix.c). The rewrites see the
 * preprocessed translation unit (hlsl_rewrite.c), so buffers declared in an include and
 * constructs spelt through macros are rewritten too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/hlsl_rewrite_parts.h"

enum buffer_kind { BUFFER_RAW, BUFFER_STRUCTURED };

/* Buffers by name: the value is buffer_value(kind, stride); a name declared for buffers of
 * different kinds or strides (in different scopes) is a conflict, and left alone. */
static int buffer_value(enum buffer_kind kind, unsigned stride)
{
    return 1 + (int)kind + 2 * (int)stride;
}

/* The bytes of a component of the scalar, vector or matrix type token t, 0 for other types:
 * min-precision types and half are 32-bit in glslang (no 16-bit types) as in D3D's buffers. */
static unsigned component_size(const struct rewriter *r, size_t t, unsigned *rows, unsigned *columns)
{
    const char *scalar;

    if (hlsl_split_type(r, t, HLSL_FLOAT_SCALARS, &scalar, rows, columns))
        return strcmp(scalar, "double") ? 4 : 8;
    if (hlsl_split_type(r, t, HLSL_INTEGER_SCALARS, &scalar, rows, columns))
        return strcmp(scalar, "int64_t") && strcmp(scalar, "uint64_t") ? 4 : 8;
    return 0;
}

/* D3D's size of a structured buffer element of type token t (a scalar, vector, matrix or a
 * struct of those declared in the translation unit, arrays of them included), 0 when not known
 * or when *budget (struct lookups left, bounding the work on nested or recursive structs) runs
 * out. *widths collects the component sizes seen (4 | 8): where 32- and 64-bit components mix,
 * D3D's packing and the scalar layout may place them differently, and the size is not known. */
static unsigned long long element_size(const struct rewriter *r, size_t t, unsigned *budget, unsigned *widths)
{
    unsigned rows, columns, component;
    unsigned long long size = 0;

    if ((component = component_size(r, t, &rows, &columns))) {
        *widths |= component;
        return *widths == (4 | 8) ? 0 : (unsigned long long)component * (rows ? rows : 1) * (columns ? columns : 1);
    }
    if (!hlsl_is_ident(r, t) || !*budget)
        return 0;
    --*budget;
    for (size_t s = 0; s + 2 < r->token_count; s++) {
        size_t end, u;
        if (!hlsl_is(r, s, "struct") || !hlsl_same_text(r, s + 1, t) || !hlsl_is(r, s + 2, "{"))
            continue;
        if ((end = hlsl_closing(r, s + 2)) >= r->token_count)
            return 0;
        /* members: [modifiers] TYPE name[N]..., name2...; */
        for (u = s + 3; u < end; u++) {
            size_t type = u;
            unsigned long long member;
            while (hlsl_is(r, type, "row_major") || hlsl_is(r, type, "column_major") || hlsl_is(r, type, "precise"))
                type++;
            if (type >= end || !(member = element_size(r, type, budget, widths)))
                return 0;
            for (u = type + 1; u < end && !hlsl_is(r, u, ";");) {
                unsigned long long count = 1;
                if (!hlsl_is_ident(r, u))
                    return 0;
                for (u++; hlsl_is(r, u, "["); u += 3) {
                    size_t used;
                    if (!hlsl_is_number(r, u + 1) || !hlsl_is(r, u + 2, "]"))
                        return 0;
                    count *= hlsl_parse_integer(r, u + 1, &used);
                    if (!count || count > 65536)
                        return 0;
                }
                if (hlsl_is(r, u, ":")) /* a semantic */
                    u += 2;
                if (hlsl_is(r, u, ","))
                    u++;
                else if (!hlsl_is(r, u, ";"))
                    return 0;
                size += member * count;
                if (size > 65536)
                    return 0;
            }
        }
        return size;
    }
    return 0;
}

unsigned hlsl_structured_stride(const struct rewriter *r, size_t t)
{
    unsigned budget = 256, widths = 0;
    unsigned long long size = element_size(r, t, &budget, &widths);
    return size <= 2048 ? (unsigned)size : 0;
}

/* The buffer named by token t: false when none is (or the name is a conflict). */
static bool find_buffer(const struct rewriter *r, const struct hlsl_names *buffers, size_t t, enum buffer_kind *kind,
        unsigned *stride)
{
    int value = hlsl_names_get(r, buffers, t);

    if (value <= 0)
        return false;
    *kind = (enum buffer_kind)((value - 1) % 2);
    *stride = (unsigned)((value - 1) / 2);
    return true;
}

/* Buffer declarations (globals and parameters; arrays are gone: hlsl_rewrite_arrays.c). */
static void collect_buffers(struct rewriter *r, struct hlsl_names *buffers)
{
    unsigned budget = 256; /* struct lookups of the file's element sizes */

    for (size_t t = 0; t + 1 < r->token_count; t++) {
        bool raw = hlsl_is(r, t, "ByteAddressBuffer") || hlsl_is(r, t, "RWByteAddressBuffer");
        bool structured = hlsl_is(r, t, "StructuredBuffer") || hlsl_is(r, t, "RWStructuredBuffer")
                || hlsl_is(r, t, "AppendStructuredBuffer") || hlsl_is(r, t, "ConsumeStructuredBuffer");
        size_t name = t + 1, element = 0;
        unsigned stride = 0;

        if (!raw && !structured)
            continue;
        if (structured) {
            size_t close;
            int depth = 0;
            if (!hlsl_is(r, t + 1, "<"))
                continue;
            for (close = t + 1; close < r->token_count && close < t + 32; close++) {
                if (hlsl_is(r, close, "<"))
                    depth++;
                else if (hlsl_is(r, close, ">") && --depth == 0)
                    break;
            }
            if (!hlsl_is(r, close, ">"))
                continue;
            if (close == t + 3)
                element = t + 2;
            name = close + 1;
        }
        if (!hlsl_is_ident(r, name))
            continue;
        if (element) {
            unsigned widths = 0;
            stride = (unsigned)element_size(r, element, &budget, &widths);
        }
        if (!hlsl_names_add(r, buffers, name, buffer_value(raw ? BUFFER_RAW : BUFFER_STRUCTURED, stride)))
            r->failed = true;
    }
}

/* `b.GetDimensions(...)` and `b.Interlocked*(...)` of the buffers declared. */
static void rewrite_buffer_methods(struct rewriter *r, const struct hlsl_names *buffers)
{
    for (size_t t = 0; t + 3 < r->token_count; t++) {
        enum buffer_kind kind;
        unsigned stride;
        size_t open = t + 3, close, args[6], arg_count = 0;

        if (!hlsl_is_ident(r, t) || !hlsl_is(r, t + 1, ".") || !hlsl_is(r, open, "(") || (t && hlsl_is(r, t - 1, "."))
                || !find_buffer(r, buffers, t, &kind, &stride))
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
        if (hlsl_is(r, t + 2, "GetDimensions")) {
            size_t out = kind == BUFFER_RAW ? 0 : 1;
            size_t first = args[out], last = args[out + 1] - 2;
            /* a statement of its own: after `;`, a block, `if (...)`, `else`, `do` or a label */
            bool statement = hlsl_is(r, close + 1, ";") && t && (hlsl_is(r, t - 1, ";") || hlsl_is(r, t - 1, "{")
                    || hlsl_is(r, t - 1, "}") || hlsl_is(r, t - 1, ")") || hlsl_is(r, t - 1, "else")
                    || hlsl_is(r, t - 1, "do") || hlsl_is(r, t - 1, ":"));
            if (arg_count != out + 1 || first > last || (kind == BUFFER_STRUCTURED && !stride))
                continue;
            if (!statement) {
                /* glslang's answer (words, its padded stride) is a constant here that the
                 * statement rewrite cannot reach */
                hlsl_refuse(r, t + 2, "%.*s of a ByteAddressBuffer or StructuredBuffer is only supported as a statement "
                        "of its own (where D3DCompile corrects the answer of glslang)");
                continue;
            }
            hlsl_add_edit(r, r->tokens[t].at, 0, "{ ");
            if (kind == BUFFER_RAW)
                hlsl_add_edit(r, r->tokens[close + 1].at + 1, 0, " %.*s *= 4u; }", hlsl_text_length(r, first, last),
                        r->s + r->tokens[first].at);
            else
                hlsl_add_edit(r, r->tokens[close + 1].at + 1, 0, " %.*s = %uu; }", hlsl_text_length(r, first, last),
                        r->s + r->tokens[first].at, stride);
            t = close + 1;
        } else if (kind == BUFFER_RAW && r->tokens[t + 2].length > 11
                && !memcmp(r->s + r->tokens[t + 2].at, "Interlocked", 11)) {
            /* the values (not the offset, nor the original value written out) as uint: the
             * methods take uint only, and glslang passes an int operand that does not validate */
            size_t values = hlsl_is(r, t + 2, "InterlockedCompareExchange") || hlsl_is(r, t + 2,
                    "InterlockedCompareStore") ? 2 : 1;
            for (size_t a = 1; a <= values && a < arg_count; a++) {
                size_t first = args[a], last = args[a + 1] - 2;
                if (first > last)
                    continue;
                /* one edit: the `)` of a rewritten InterlockedCompareStore follows it */
                hlsl_add_edit(r, r->tokens[first].at, (size_t)hlsl_text_length(r, first, last), "(uint)(%.*s)",
                        hlsl_text_length(r, first, last), r->s + r->tokens[first].at);
            }
            t = close;
        }
    }
}

/* ---- uint64_t: casts, constructors and literals glslang cannot translate ---- */

static bool is_numeric_type(const struct rewriter *r, size_t t)
{
    const char *scalar;
    unsigned rows, columns;

    return hlsl_split_type(r, t, HLSL_FLOAT_SCALARS, &scalar, &rows, &columns)
            || hlsl_split_type(r, t, HLSL_INTEGER_SCALARS, &scalar, &rows, &columns);
}

/* The token after the unary expression starting at token t (prefix operators and casts, a
 * name, number, call or parenthesised group, then member accesses, indices and calls), or
 * token_count when the tokens are not one. */
static size_t unary_end(const struct rewriter *r, size_t t, size_t *primary)
{
    /* prefix operators and casts */
    for (;;) {
        if (t < r->token_count && r->tokens[t].length == 1 && strchr("-+!~", r->s[r->tokens[t].at]))
            t++;
        else if (hlsl_is(r, t, "(") && is_numeric_type(r, t + 1) && hlsl_is(r, t + 2, ")"))
            t += 3;
        else
            break;
    }
    *primary = t;
    if (hlsl_is(r, t, "(")) {
        t = hlsl_closing(r, t);
    } else if (hlsl_is_ident(r, t) || hlsl_is_number(r, t)) {
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
    const char *text, *suffix;
    size_t length, used;
    bool hex, l = false, u = false;

    if (!hlsl_is_number(r, t))
        return 0;
    text = r->s + r->tokens[t].at;
    length = r->tokens[t].length;
    hex = length > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    if (memchr(text, '.', length) || (!hex && (memchr(text, 'e', length) || memchr(text, 'E', length))))
        return 0;
    *value = hlsl_parse_integer(r, t, &used);
    for (suffix = text + used; suffix < text + length; suffix++) {
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
    size_t chain_first = SIZE_MAX, chain_primary = 0, chain_end = 0;

    for (size_t t = 0; t < r->token_count; t++) {
        unsigned long long value;
        int literal;

        if (r->tokens[t].directive)
            continue;
        if ((literal = literal64(r, t, &value)) < 0) {
            hlsl_refuse(r, t, "the literal %.*s has the type int64_t, which is not supported (glslang knows only the "
                    "scalar uint64_t): write it with the suffix ull");
        } else if (literal > 0) {
            hlsl_add_edit(r, r->tokens[t].at, r->tokens[t].length, "__d3d12xs_uint64(%lluu, %lluu)", value >> 32,
                    value & 0xffffffffull);
            r->needs |= NEED_UINT64;
        } else if (hlsl_is(r, t, "__d3d12xs_uint64")) {
            r->needs |= NEED_UINT64; /* a literal hlsl_rewrite_file_literals rewrote */
        } else if (hlsl_is(r, t, "uint64_t") && t && hlsl_is(r, t - 1, "(") && hlsl_is(r, t + 1, ")")) {
            size_t end;
            /* a cast inside the prefix casts of the previous one has the same operand end */
            if (chain_first <= t + 2 && t + 2 <= chain_primary) {
                end = chain_end;
            } else {
                chain_first = t + 2;
                chain_end = end = unary_end(r, t + 2, &chain_primary);
            }
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

/* Literals glslang's preprocessor would split into two tokens (`1ull` into `1ul l`, `1.0lf`
 * into `1.0l f`) or refuse (`0x123456789ull`: "hexadecimal literal too big"), rewritten in each
 * file before it: unsigned 64-bit integers become __d3d12xs_uint64(high, low), the double
 * suffix lf is l. On code lines and in #define bodies (not in #if expressions, which take no
 * calls); the preprocessed translation unit then declares the helper (rewrite_uint64). */
void hlsl_rewrite_file_literals(struct rewriter *r)
{
    bool define_line = false;

    for (size_t t = 0; t < r->token_count; t++) {
        unsigned long long value;
        const char *text = r->s + r->tokens[t].at;
        size_t length = r->tokens[t].length;

        if (r->tokens[t].directive) {
            size_t at = r->tokens[t].at;
            while (at && (r->s[at - 1] == ' ' || r->s[at - 1] == '\t'))
                at--;
            if (hlsl_is(r, t, "#") && (!at || r->s[at - 1] == '\n')) /* the `#` starting the line */
                define_line = hlsl_is(r, t + 1, "define");
            if (!define_line)
                continue;
        } else {
            define_line = false;
        }
        if (!hlsl_is_number(r, t))
            continue;
        if (literal64(r, t, &value) > 0)
            hlsl_add_edit(r, r->tokens[t].at, length, "__d3d12xs_uint64(%lluu, %lluu)", value >> 32,
                    value & 0xffffffffull);
        else if (length > 2 && memchr(text, '.', length) && (text[length - 1] == 'f' || text[length - 1] == 'F')
                && (text[length - 2] == 'l' || text[length - 2] == 'L'))
            hlsl_add_edit(r, r->tokens[t].at + length - 1, 1, "%s", "");
    }
}

/* Types refused, matrix intrinsics and asuint(double, out, out). */
static void rewrite_matrices_and_integers(struct rewriter *r)
{
    for (size_t t = 0; t < r->token_count; t++) {
        const char *scalar;
        unsigned rows, columns;
        bool template_type = (hlsl_is(r, t, "vector") || hlsl_is(r, t, "matrix")) && hlsl_is(r, t + 1, "<");

        if (r->tokens[t].directive)
            continue;
        if (template_type && (hlsl_is(r, t + 2, "int64_t") || hlsl_is(r, t + 2, "uint64_t"))) {
            hlsl_refuse(r, t + 2, "vectors and matrices of %.*s are not supported (glslang knows only the scalar "
                    "uint64_t)");
            continue;
        }
        if (hlsl_is(r, t, "matrix") && hlsl_is(r, t + 1, "<")) {
            bool integer = hlsl_split_type(r, t + 2, HLSL_INTEGER_SCALARS, &scalar, &rows, &columns);
            if (integer)
                hlsl_refuse(r, t + 2, "matrices of %.*s are not supported (Vulkan matrices hold floats only)");
            else if (hlsl_is(r, t + 3, ",") && hlsl_is(r, t + 5, ",")
                    && (hlsl_is(r, t + 4, "1") || hlsl_is(r, t + 6, "1")))
                hlsl_refuse(r, t, "%.*s types with one row or one column are not supported (glslang emits invalid "
                        "code for them): use a vector");
            continue;
        }
        if (hlsl_split_type(r, t, HLSL_INTEGER_SCALARS, &scalar, &rows, &columns)) {
            bool is64 = !strcmp(scalar, "int64_t") || !strcmp(scalar, "uint64_t");
            if (is64 && (!strcmp(scalar, "int64_t") || columns))
                hlsl_refuse(r, t, "the integer type %.*s is not supported (glslang knows only the scalar uint64_t)");
            else if (rows)
                hlsl_refuse(r, t, "the integer or bool matrix type %.*s is not supported (Vulkan matrices hold "
                        "floats only)");
            continue;
        }
        if (hlsl_split_type(r, t, HLSL_FLOAT_SCALARS, &scalar, &rows, &columns) && rows
                && (rows == 1 || columns == 1)) {
            hlsl_refuse(r, t, "the matrix type %.*s with one row or one column is not supported (glslang emits "
                    "invalid code for it): use a vector");
            continue;
        }
        if (hlsl_is_call(r, t, "asuint")) {
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
}

/* sign() of a float answers an int in D3D; glslang answers a float (`sign(x) / 2` divides in
 * float, asuint() reads float bits): calls go through __d3d12xs_sign, unless the file declares
 * a function of that name. */
static void rewrite_sign(struct rewriter *r)
{
    for (size_t t = 1; t + 1 < r->token_count; t++)
        if (hlsl_is(r, t, "sign") && hlsl_is(r, t + 1, "(") && (hlsl_is_ident(r, t - 1) || hlsl_is(r, t - 1, ">"))
                && !hlsl_is(r, t - 1, "return") && !hlsl_is(r, t - 1, "else") && !hlsl_is(r, t - 1, "case"))
            return;
    for (size_t t = 0; t < r->token_count; t++)
        if (hlsl_is_call(r, t, "sign") && !r->tokens[t].directive) {
            hlsl_replace_token(r, t, "__d3d12xs_sign");
            r->needs |= NEED_SIGN;
        }
}

void hlsl_rewrite_types(struct rewriter *r)
{
    struct hlsl_names buffers = {0};

    collect_buffers(r, &buffers);
    rewrite_buffer_methods(r, &buffers);
    hlsl_names_free(&buffers);
    rewrite_uint64(r);
    rewrite_sign(r);
    rewrite_matrices_and_integers(r);
}

void hlsl_prelude_types(struct text *b, uint64_t needs)
{
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
    if (needs & NEED_SIGN) {
        static const char *const types[] = {"float", "double", "int", "uint"};
        hlsl_append(b, "#ifndef D3D12XS_SIGN\n#define D3D12XS_SIGN\n");
        for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
            for (unsigned n = 1; n <= 4; n++) {
                char suffix[2] = {n > 1 ? (char)('0' + n) : 0, 0};
                if (!strcmp(types[i], "uint"))
                    hlsl_append(b, "int%s __d3d12xs_sign(uint%s x) { return (int%s)(x != 0); }\n", suffix, suffix,
                            suffix);
                else
                    hlsl_append(b, "int%s __d3d12xs_sign(%s%s x) { return (int%s)sign(x); }\n", suffix, types[i],
                            suffix, suffix);
            }
        hlsl_append(b, "#endif\n");
    }
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
}
