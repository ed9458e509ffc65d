/* Constant expressions glslang's HLSL front end folds with its own rules before any SPIR-V
 * exists, where the SPIR-V fix-up pass (spirv/spirv_fixup.c) cannot correct them, and spirv-opt
 * (which shaderc always runs) folds conversions the same way. Each is either computed at the
 * token level with D3D's rule or hidden from both folders behind a helper function whose body
 * computes D3D's result (the optimizer folds that body correctly once inlined):
 *
 *  - a conversion of a literal float expression to int or uint (`(uint)-3.0f`, `int(3e10)`,
 *    `uint x = -3.0;`) goes through __d3d12xs_to_uint / __d3d12xs_to_int, which saturate and
 *    give 0 for NaN, as D3D's float-to-integer conversions do;
 *  - fmod() of literals and `%` between literals one of which is a float go through
 *    __d3d12xs_fmod, an fmod the fix-up pass gives the dividend's sign;
 *  - a shift of an integer literal by a literal count of 32 or more shifts by the count's low
 *    5 bits (glslang shifts with the host's C++ rule).
 *
 * Only expressions made of literals are touched (a conversion of a variable is fixed in the
 * SPIR-V), and only where the tokens say the operation is the one written: `(int)2.5 % 1.5`,
 * `x * 2.5 % 1.5` and shifts of anything but a 32-bit literal are left alone. */
#include <stdlib.h>
#include <string.h>

#include "frontends/hlsl_rewrite_parts.h"

static bool is_number(const struct rewriter *r, size_t t)
{
    return t < r->token_count && r->tokens[t].kind == TOKEN_NUMBER;
}

/* A number token that is a float literal: a `.`, a decimal exponent or a float suffix. */
static bool is_float_literal(const struct rewriter *r, size_t t)
{
    const char *text;
    size_t length;

    if (!is_number(r, t))
        return false;
    text = r->s + r->tokens[t].at;
    length = r->tokens[t].length;
    if (length > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
        return false;
    for (size_t i = 0; i < length; i++)
        if (strchr(".eEfFhH", text[i]))
            return true;
    return false;
}

/* An integer literal of 32 bits (no `l`/`L` suffix), its value in *value. */
static bool is_int32_literal(const struct rewriter *r, size_t t, unsigned long long *value)
{
    const char *text;
    size_t used;

    if (!is_number(r, t) || is_float_literal(r, t))
        return false;
    text = r->s + r->tokens[t].at;
    *value = hlsl_parse_integer(r, t, &used);
    while (used < r->tokens[t].length && (text[used] == 'u' || text[used] == 'U'))
        used++;
    return used == r->tokens[t].length;
}

/* Scalar constants declared in the shader (`[static] const TYPE name = ...`), which glslang folds
 * as it does literals, and per token prefix counts that make literal_expression() constant-time
 * (tokens that cannot be in an expression of literals, float and double ones). */
struct constants {
    struct hlsl_names names; /* kind: 1 integer, 2 float (half, min16float...), 3 double */
    size_t *bad, *floats, *doubles;
};

/* 0 when token t is no constant of the shader (or one declared several times with different
 * types), else its kind (1 integer, 2 float, 3 double). */
static int constant_kind(const struct rewriter *r, const struct constants *c, size_t t)
{
    int kind = hlsl_names_get(r, &c->names, t);
    return kind > 0 ? kind : 0;
}

static bool collect_constants(const struct rewriter *r, struct constants *c)
{
    static const char *const float_types[] = {"float", "half", "double", "min16float", "min10float"};
    static const char *const integer_types[] = {"int", "uint", "dword", "bool", "min16int", "min12int", "min16uint"};
    size_t n = r->token_count;

    memset(c, 0, sizeof(*c));
    for (size_t t = 0; t + 3 < n; t++) {
        int kind = 0;
        if (!hlsl_is(r, t, "const") || !hlsl_is_ident(r, t + 2) || !hlsl_is(r, t + 3, "="))
            continue;
        for (size_t i = 0; i < sizeof(float_types) / sizeof(float_types[0]); i++)
            if (hlsl_is(r, t + 1, float_types[i]))
                kind = hlsl_is(r, t + 1, "double") ? 3 : 2;
        for (size_t i = 0; i < sizeof(integer_types) / sizeof(integer_types[0]); i++)
            if (hlsl_is(r, t + 1, integer_types[i]))
                kind = 1;
        if (kind && !hlsl_names_add(r, &c->names, t + 2, kind))
            return false;
    }
    if (!(c->bad = malloc((n + 1) * sizeof(*c->bad))) || !(c->floats = malloc((n + 1) * sizeof(*c->floats)))
            || !(c->doubles = malloc((n + 1) * sizeof(*c->doubles))))
        return false;
    c->bad[0] = c->floats[0] = c->doubles[0] = 0;
    for (size_t t = 0; t < n; t++) {
        bool bad = false, is_float = false, is_double = false;
        if (is_number(r, t)) {
            is_float = is_float_literal(r, t);
            is_double = is_float && (memchr(r->s + r->tokens[t].at, 'l', r->tokens[t].length)
                    || memchr(r->s + r->tokens[t].at, 'L', r->tokens[t].length));
        } else if (hlsl_is_ident(r, t)) {
            int kind = hlsl_is(r, t + 1, "(") || hlsl_is(r, t + 1, ".") || hlsl_is(r, t + 1, "[")
                    || (t && hlsl_is(r, t - 1, ".")) ? 0 : constant_kind(r, c, t);
            bad = !kind && !hlsl_is(r, t, "true") && !hlsl_is(r, t, "false");
            is_float = kind > 1;
            is_double = kind == 3;
        } else {
            bad = r->tokens[t].kind != TOKEN_PUNCT || r->tokens[t].length != 1
                    || !strchr("+-*/%()~&|^<>!=?:,", r->s[r->tokens[t].at]);
        }
        c->bad[t + 1] = c->bad[t] + bad;
        c->floats[t + 1] = c->floats[t] + is_float;
        c->doubles[t + 1] = c->doubles[t] + is_double;
    }
    return true;
}

/* Tokens [first, end) are an expression of literals only (numbers, true, false, scalar constants
 * of the file, operators and parentheses); *has_float when one of them is a float. */
static bool literal_expression(const struct rewriter *r, const struct constants *c, size_t first, size_t end,
        bool *has_float)
{
    *has_float = false;
    if (first >= end || end > r->token_count || c->bad[end] != c->bad[first])
        return false;
    *has_float = c->floats[end] != c->floats[first];
    return true;
}

/* A token that ends an operand: a name, a number, `)` or `]` (so a following `-` is binary). */
static bool ends_operand(const struct rewriter *r, size_t t)
{
    return r->tokens[t].kind != TOKEN_PUNCT || hlsl_is(r, t, ")") || hlsl_is(r, t, "]");
}

/* The end of the operand of a cast starting at token t: `[-+]NUMBER`, `[-+]name` or a
 * parenthesised group (token_count when it is none). */
static size_t cast_operand_end(const struct rewriter *r, size_t t)
{
    if (hlsl_is(r, t, "-") || hlsl_is(r, t, "+"))
        t++;
    if (is_number(r, t) || (hlsl_is_ident(r, t) && !hlsl_is(r, t + 1, "(")))
        return t + 1;
    if (hlsl_is(r, t, "(")) {
        size_t close = hlsl_closing(r, t);
        return close < r->token_count ? close + 1 : r->token_count;
    }
    return r->token_count;
}

/* Token t, a name followed by `(`, is declared there: a type name precedes it. */
static bool declaration(const struct rewriter *r, size_t t)
{
    return t && (hlsl_is_ident(r, t - 1) || hlsl_is(r, t - 1, ">")) && !hlsl_is(r, t - 1, "return")
            && !hlsl_is(r, t - 1, "else") && !hlsl_is(r, t - 1, "case");
}

static const char *conversion_helper(const struct rewriter *r, size_t t)
{
    if (hlsl_is(r, t, "int"))
        return "__d3d12xs_to_int";
    if (hlsl_is(r, t, "uint") || hlsl_is(r, t, "dword"))
        return "__d3d12xs_to_uint";
    return NULL;
}

/* `(int)LITERALS`, `int(LITERALS)`, `int name = LITERALS;` with a float among the literals. */
static void rewrite_conversions(struct rewriter *r, const struct constants *c)
{
    for (size_t t = 0; t + 2 < r->token_count; t++) {
        const char *helper = conversion_helper(r, t);
        size_t first, end;
        bool has_float;

        if (!helper || (t && hlsl_is(r, t - 1, ".")))
            continue;
        if (t && hlsl_is(r, t - 1, "(") && hlsl_is(r, t + 1, ")")) {
            /* a cast: the operand is a literal or a parenthesised group of literals, and not
             * followed by a member access or index, which would bind tighter */
            first = t + 2;
            end = cast_operand_end(r, first);
            if (end >= r->token_count || hlsl_is(r, end, ".") || hlsl_is(r, end, "[")
                    || !literal_expression(r, c, first, end, &has_float) || !has_float)
                continue;
            hlsl_add_edit(r, r->tokens[t - 1].at, r->tokens[t + 1].at + 1 - r->tokens[t - 1].at, "%s(", helper);
            hlsl_add_edit(r, r->tokens[end - 1].at + r->tokens[end - 1].length, 0, ")");
            t = end - 1;
        } else if (hlsl_is(r, t + 1, "(")) {
            /* a constructor of one argument */
            end = hlsl_closing(r, t + 1);
            if (end >= r->token_count || !literal_expression(r, c, t + 2, end, &has_float) || !has_float)
                continue;
            for (size_t u = t + 2; u < end; u++)
                if (hlsl_is(r, u, ","))
                    has_float = false;
            if (has_float)
                hlsl_replace_token(r, t, helper);
            t = end;
        } else if (hlsl_is_ident(r, t + 1) && hlsl_is(r, t + 2, "=") && !hlsl_is(r, t + 3, "=")) {
            /* the declarators' initialisers, each up to `;` or a `,` at depth 0 */
            size_t name = t + 1;
            bool converted = false;
            while (hlsl_is_ident(r, name) && hlsl_is(r, name + 1, "=") && !hlsl_is(r, name + 2, "=")) {
                first = name + 2;
                for (end = first; end < r->token_count && !hlsl_is(r, end, ";") && !hlsl_is(r, end, ","); end++)
                    if (hlsl_is(r, end, "(") || hlsl_is(r, end, "[") || hlsl_is(r, end, "{"))
                        end = hlsl_closing(r, end);
                if (end >= r->token_count)
                    break;
                if (literal_expression(r, c, first, end, &has_float) && has_float) {
                    hlsl_add_edit(r, r->tokens[first].at, 0, "%s(", helper);
                    hlsl_add_edit(r, r->tokens[end - 1].at + r->tokens[end - 1].length, 0, ")");
                    converted = true;
                }
                t = end - 1;
                if (!hlsl_is(r, end, ","))
                    break;
                name = end + 1;
            }
            if (!converted)
                continue;
        } else {
            continue;
        }
        r->needs |= NEED_CONVERT;
    }
}

/* The first token of the unary operand of literals ending at token last (`[-+]NUMBER` or a
 * parenthesised group of literals), or token_count when it is something else. */
static size_t unary_literal_start(const struct rewriter *r, const struct constants *c, size_t last, bool *has_float)
{
    size_t first = last;

    if (hlsl_is(r, last, ")")) {
        if ((first = hlsl_opening(r, last)) >= r->token_count || !literal_expression(r, c, first, last + 1, has_float)
                || (first && (hlsl_is_ident(r, first - 1) || hlsl_is(r, first - 1, ">"))))
            return r->token_count; /* not literals, or a call */
    } else if (is_number(r, last)) {
        *has_float = is_float_literal(r, last);
    } else if (hlsl_is_ident(r, last) && !(last && hlsl_is(r, last - 1, ".")) && constant_kind(r, c, last)) {
        *has_float = constant_kind(r, c, last) > 1;
    } else {
        return r->token_count;
    }
    if (first && (hlsl_is(r, first - 1, "-") || hlsl_is(r, first - 1, "+"))
            && !(first >= 2 && ends_operand(r, first - 2)))
        first--;
    /* `(int)2.5`, `!2.5`, `s.x`: the operand is larger than the literals */
    if (first && (hlsl_is(r, first - 1, ")") || hlsl_is(r, first - 1, "]") || hlsl_is(r, first - 1, ".")
            || hlsl_is(r, first - 1, "~") || hlsl_is(r, first - 1, "!")))
        return r->token_count;
    return first;
}

/* The first token of the left operand of the binary operator at token op when that operand is
 * literals only: the chain of `*`, `/` and `%` operands before it (same precedence, grouping
 * from the left). token_count when the operand has more than literals. */
static size_t left_operand(const struct rewriter *r, const struct constants *c, size_t op, bool *has_float)
{
    size_t first, last = op - 1;

    *has_float = false;
    for (unsigned operands = 0; operands < 64; operands++) {
        bool operand_float = false;
        if ((first = unary_literal_start(r, c, last, &operand_float)) >= r->token_count)
            return r->token_count;
        *has_float |= operand_float;
        if (first < 2 || !(hlsl_is(r, first - 1, "*") || hlsl_is(r, first - 1, "/") || hlsl_is(r, first - 1, "%")))
            return first;
        last = first - 2;
    }
    return r->token_count; /* a long chain: left to glslang, bounding the work */
}

/* The token after the right operand of the binary operator at token op when that operand is
 * literals only (`[-+]NUMBER` or a parenthesised group), or token_count. */
static size_t right_operand_end(const struct rewriter *r, const struct constants *c, size_t op, bool *has_float)
{
    size_t t = op + 1, end;

    if (hlsl_is(r, t, "-") || hlsl_is(r, t, "+"))
        t++;
    end = cast_operand_end(r, t);
    if (end >= r->token_count || hlsl_is(r, end, ".") || hlsl_is(r, end, "[")
            || !literal_expression(r, c, t, end, has_float))
        return r->token_count;
    return end;
}

/* One of tokens [first, end) is a double: a literal with the suffix l or L, or a constant. */
static bool has_double(const struct constants *c, size_t first, size_t end)
{
    return first < end && c->doubles[end] != c->doubles[first];
}

static void rewrite_fmod(struct rewriter *r, const struct constants *c)
{
    for (size_t t = 0; t + 1 < r->token_count; t++) {
        size_t end;
        bool has_float;

        static const char *const names[] = {"fmod", "min", "max", "clamp", "saturate"};
        const char *name = NULL;

        for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
            if (hlsl_is(r, t, names[i]))
                name = names[i];
        if (!name || !hlsl_is(r, t + 1, "(") || (t && hlsl_is(r, t - 1, ".")) || declaration(r, t))
            continue;
        end = hlsl_closing(r, t + 1);
        if (end >= r->token_count || !literal_expression(r, c, t + 2, end, &has_float)
                || (!has_float && strcmp(name, "fmod")) || has_double(c, t + 2, end))
            continue;
        /* fmod of literals: glslang folds it with the divisor's sign; min, max, clamp, saturate
         * of float literals: glslang and spirv-opt fold them without D3D's NaN rule */
        hlsl_add_edit(r, r->tokens[t].at, r->tokens[t].length, "__d3d12xs_%s", name);
        r->needs |= NEED_FMOD;
    }
    /* right to left, so that `a % b % c` nests as (a % b) % c */
    for (size_t t = r->token_count; t-- > 1;) {
        size_t first, end;
        bool left_float, right_float;

        if (!hlsl_is(r, t, "%") || hlsl_is(r, t + 1, "=")
                || (first = left_operand(r, c, t, &left_float)) >= r->token_count
                || (end = right_operand_end(r, c, t, &right_float)) >= r->token_count)
            continue;
        if ((!left_float && !right_float) || has_double(c, first, end))
            continue; /* an integer %, which glslang folds right (fixed in spirv/spirv_fixup.c) */
        hlsl_add_edit(r, r->tokens[first].at, 0, "__d3d12xs_fmod(");
        hlsl_replace_token(r, t, ",");
        hlsl_add_edit(r, r->tokens[end - 1].at + r->tokens[end - 1].length, 0, ")");
        r->needs |= NEED_FMOD;
    }
}

/* LITERAL << COUNT and LITERAL >> COUNT with a literal count of 32 or more: count & 31. */
static void rewrite_shifts(struct rewriter *r, const struct constants *c)
{
    for (size_t t = 1; t + 2 < r->token_count; t++) {
        unsigned long long value, count;
        bool shift = (hlsl_is(r, t, "<") && hlsl_is(r, t + 1, "<")) || (hlsl_is(r, t, ">") && hlsl_is(r, t + 1, ">"));

        bool has_float;

        if (!shift || r->tokens[t + 1].at != r->tokens[t].at + 1 || !is_int32_literal(r, t - 1, &value)
                || unary_literal_start(r, c, t - 1, &has_float) >= r->token_count || !is_int32_literal(r, t + 2, &count)
                || hlsl_is(r, t + 3, ".") || hlsl_is(r, t + 3, "["))
            continue;
        /* `a + 1 << 40`, `a << 1 << 40`: the shifted operand is larger than the literal, of a
         * type the tokens do not say */
        {
            size_t first = unary_literal_start(r, c, t - 1, &has_float);
            if (first && (hlsl_is(r, first - 1, "+") || hlsl_is(r, first - 1, "-") || hlsl_is(r, first - 1, "<")
                    || hlsl_is(r, first - 1, ">") || hlsl_is(r, first - 1, "*") || hlsl_is(r, first - 1, "/")
                    || hlsl_is(r, first - 1, "%")))
                continue;
        }
        if (count >= 32)
            hlsl_add_edit(r, r->tokens[t + 2].at, r->tokens[t + 2].length, "%llu", count & 31);
        t += 2;
    }
}

void hlsl_rewrite_literals(struct rewriter *r)
{
    struct constants c;

    if (collect_constants(r, &c)) {
        rewrite_conversions(r, &c);
        rewrite_fmod(r, &c);
        rewrite_shifts(r, &c);
    } else {
        r->failed = true;
    }
    hlsl_names_free(&c.names);
    free(c.bad);
    free(c.floats);
    free(c.doubles);
}

void hlsl_prelude_literals(struct text *b, uint64_t needs)
{
    static const char *const float_types[] = {"float", "double"};
    static const char *const exact_types[] = {"int", "uint", "bool"};

    if (needs & NEED_CONVERT) {
        /* D3D: NaN is 0, out-of-range values saturate; the optimizer folds these for literals */
        hlsl_append(b, "#ifndef D3D12XS_CONVERT\n#define D3D12XS_CONVERT\n");
        for (size_t i = 0; i < sizeof(float_types) / sizeof(float_types[0]); i++) {
            const char *type = float_types[i];
            hlsl_append(b, "uint __d3d12xs_to_uint(%s x) { return x != x || x <= 0 ? 0u : x >= 4294967296.0 "
                    "? 4294967295u : (uint)x; }\n", type);
            hlsl_append(b, "int __d3d12xs_to_int(%s x) { return x != x ? 0 : x >= 2147483648.0 ? 2147483647 "
                    ": x <= -2147483648.0 ? -2147483647 - 1 : (int)x; }\n", type);
        }
        for (size_t i = 0; i < sizeof(exact_types) / sizeof(exact_types[0]); i++)
            hlsl_append(b, "uint __d3d12xs_to_uint(%s x) { return (uint)x; }\n"
                    "int __d3d12xs_to_int(%s x) { return (int)x; }\n", exact_types[i], exact_types[i]);
        hlsl_append(b, "#endif\n");
    }
    if (needs & NEED_FMOD) {
        /* the fix-up pass gives fmod the dividend's sign; min and max of a NaN are the other
         * operand, written with comparisons so that the optimizer folds them right. float only:
         * a double overload makes mixed literal types ambiguous (double literals are skipped) */
        hlsl_append(b, "#ifndef D3D12XS_FMOD\n#define D3D12XS_FMOD\n"
                "float __d3d12xs_fmod(float a, float b) { return fmod(a, b); }\n"
                "float __d3d12xs_min(float a, float b) { return a != a ? b : b != b ? a : a < b ? a : b; }\n"
                "float __d3d12xs_max(float a, float b) { return a != a ? b : b != b ? a : a > b ? a : b; }\n"
                "float __d3d12xs_clamp(float x, float low, float high) "
                "{ return __d3d12xs_min(__d3d12xs_max(x, low), high); }\n"
                "float __d3d12xs_saturate(float x) { return __d3d12xs_clamp(x, 0.0f, 1.0f); }\n#endif\n");
    }
}
