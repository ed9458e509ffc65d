/* Matrices where glslang's HLSL front end emits invalid SPIR-V (rejected by the validator
 * shaderc runs, before the fix-up pass could see it), rewritten at the token level:
 *
 *  - multi-element matrix swizzles read as rvalues (`m._m00_m11`, `a[i]._11_22`) become
 *    __d3d12xs_vector(m._m00, m._m11); written to, or applied to anything but a name with
 *    members and indices, they are refused with a message;
 *  - component-wise intrinsics (abs, min, saturate, lerp...) and all/any of a float matrix
 *    become __d3d12xs_matrix_NAME, applied to each row, when the tokens show the argument is a
 *    matrix: a name declared only with a float matrix type in the shader (variable, parameter,
 *    member, or function returning one), a matrix constructor or cast, or arithmetic on those.
 *    glslang emits the GLSL.std.450 instruction on the matrix. Overloading the intrinsic's own
 *    name instead makes calls with mixed scalar types ambiguous, hence the renaming.
 *
 * A matrix argument the tokens cannot see (an array element, a call of another function) is
 * left to glslang, which fails with its own message. */
#include <stdlib.h>
#include <string.h>

#include "frontends/hlsl_rewrite_parts.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* component-wise intrinsics given float-matrix versions: operands, name */
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
        if ((hlsl_is(r, t + 1, "=") && !hlsl_is(r, t + 2, "="))
                || (hlsl_is(r, t + 2, "=") && r->tokens[t + 1].length == 1
                    && strchr("+-*/%&|^", r->s[r->tokens[t + 1].at]))
                || (hlsl_is(r, t + 1, "+") && hlsl_is(r, t + 2, "+"))
                || (hlsl_is(r, t + 1, "-") && hlsl_is(r, t + 2, "-"))) {
            if (!r->tokens[t].directive)
                hlsl_refuse(r, t, "writing the multi-element matrix swizzle %.*s is not supported (glslang): "
                        "write each element");
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
                size_t close = base - 1, open = hlsl_opening(r, close);
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
            hlsl_refuse(r, t, "the multi-element matrix swizzle %.*s of this expression is not supported (glslang): "
                    "swizzle a local copy");
            continue;
        }
        step = r->s[r->tokens[t].at + 1] == 'm' ? 4 : 3;
        {
            struct text call = {0};
            hlsl_append(&call, "__d3d12xs_vector(");
            for (unsigned i = 0; i < count; i++)
                hlsl_append(&call, "%s%.*s.%.*s", i ? ", " : "", hlsl_text_length(r, base, t - 2),
                        r->s + r->tokens[base].at,
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

/* ---- matrix names and expressions ---- */

/* names declared with a float matrix type (MATRIX_NAME), with another type (OTHER_NAME), or
 * both (HLSL_NAME_CONFLICT) */
enum { MATRIX_NAME = 1, OTHER_NAME = 2 };

static bool is_float_matrix_type(const struct rewriter *r, size_t t)
{
    const char *scalar;
    unsigned rows, columns;

    /* double matrices are left to glslang: the helpers compute in float */
    return hlsl_split_type(r, t, HLSL_FLOAT_SCALARS, &scalar, &rows, &columns) && rows >= 2 && columns >= 2
            && strcmp(scalar, "double");
}

static bool is_matrix_name(const struct rewriter *r, const struct hlsl_names *names, size_t t)
{
    return hlsl_names_get(r, names, t) == MATRIX_NAME;
}

/* Declarations `TYPE name` (followed by = ; , [ : ) or `(` for functions): names declared with a
 * float matrix type (floatRxC, matrix<float, R, C>, matrix), and names declared otherwise. */
static void collect_names(struct rewriter *r, struct hlsl_names *names)
{
    static const char *const not_types[] = {"return", "case", "else", "goto", "typedef", "struct", "cbuffer",
            "tbuffer", "namespace", "class", "interface"};

    for (size_t t = 0; t + 1 < r->token_count; t++) {
        size_t type = t, name;
        bool matrix;

        if (hlsl_is(r, t, "matrix") && hlsl_is(r, t + 1, "<")) {
            while (t < r->token_count && !hlsl_is(r, t, ">"))
                t++;
            matrix = hlsl_is(r, type + 2, "float") || hlsl_is(r, type + 2, "half");
        } else if (hlsl_is_ident(r, t) || hlsl_is(r, t, ">")) {
            bool keyword = false;
            for (size_t i = 0; i < COUNT(not_types); i++)
                keyword |= hlsl_is(r, t, not_types[i]);
            if (keyword)
                continue;
            matrix = is_float_matrix_type(r, t) || hlsl_is(r, t, "matrix");
        } else {
            continue;
        }
        /* the declarators: name [= ...] (, name [= ...])* */
        for (name = t + 1; hlsl_is_ident(r, name);) {
            size_t next = name + 1;
            if (!(hlsl_is(r, next, "=") || hlsl_is(r, next, ";") || hlsl_is(r, next, ",") || hlsl_is(r, next, "[")
                    || hlsl_is(r, next, ":") || hlsl_is(r, next, ")") || hlsl_is(r, next, "(")))
                break;
            if (!hlsl_names_add(r, names, name, matrix ? MATRIX_NAME : OTHER_NAME)) {
                r->failed = true;
                return;
            }
            if (!matrix || hlsl_is(r, next, "(") || hlsl_is(r, next, ")"))
                break;
            /* more declarators of the same type, after the initialiser */
            while (next < r->token_count && !hlsl_is(r, next, ",") && !hlsl_is(r, next, ";")
                    && !hlsl_is(r, next, ")")) {
                if (hlsl_is(r, next, "(") || hlsl_is(r, next, "[") || hlsl_is(r, next, "{"))
                    next = hlsl_closing(r, next);
                next++;
            }
            if (!hlsl_is(r, next, ",") || !hlsl_is_ident(r, next + 1) || is_float_matrix_type(r, next + 1))
                break;
            name = next + 1;
        }
    }
}

static int matrix_intrinsic(const struct rewriter *r, size_t t)
{
    for (size_t i = 0; i < COUNT(matrix_intrinsics); i++)
        if (hlsl_is_call(r, t, matrix_intrinsics[i].name))
            return (int)i;
    return -1;
}

static bool is_matrix_expression(const struct rewriter *r, const struct hlsl_names *names, size_t first, size_t end,
        unsigned depth);

/* A call at token t whose result is a float matrix: a constructor, a function declared to
 * return one, or a component-wise intrinsic of a matrix argument. */
static bool is_matrix_call(const struct rewriter *r, const struct hlsl_names *names, size_t t, size_t close,
        unsigned depth)
{
    int intrinsic = matrix_intrinsic(r, t);

    if (intrinsic < 0)
        return is_float_matrix_type(r, t) || is_matrix_name(r, names, t);
    if (!matrix_intrinsics[intrinsic].operands)
        return false;
    for (size_t u = t + 2, start = t + 2; u <= close; u++) {
        if (u < close && (hlsl_is(r, u, "(") || hlsl_is(r, u, "[") || hlsl_is(r, u, "{"))) {
            u = hlsl_closing(r, u);
            continue;
        }
        if (u == close || hlsl_is(r, u, ",")) {
            if (is_matrix_expression(r, names, start, u, depth + 1))
                return true;
            start = u + 1;
        }
    }
    return false;
}

/* Tokens [first, end) are arithmetic (+ - * /) of operands one of which is a float matrix. */
static bool is_matrix_expression(const struct rewriter *r, const struct hlsl_names *names, size_t first, size_t end,
        unsigned depth)
{
    bool matrix = false;

    if (depth > 32 || first >= end)
        return false;
    for (size_t t = first; t < end;) {
        if (r->tokens[t].length == 1 && strchr("+-*/", r->s[r->tokens[t].at])) {
            t++;
        } else if (hlsl_is(r, t, "(") && is_float_matrix_type(r, t + 1) && hlsl_is(r, t + 2, ")")) {
            matrix = true; /* a cast: its operand follows */
            t += 3;
        } else if (hlsl_is(r, t, "(")) {
            size_t close = hlsl_closing(r, t);
            if (close >= end)
                return false;
            matrix |= is_matrix_expression(r, names, t + 1, close, depth + 1);
            t = close + 1;
        } else if (hlsl_is_ident(r, t) && hlsl_is(r, t + 1, "(")) {
            size_t close = hlsl_closing(r, t + 1);
            if (close >= end)
                return false;
            matrix |= is_matrix_call(r, names, t, close, depth);
            t = close + 1;
        } else if (hlsl_is_ident(r, t)) {
            /* a name, or a chain of members: the last member's declaration gives the type */
            size_t last = t;
            while (hlsl_is(r, last + 1, ".") && hlsl_is_ident(r, last + 2) && last + 2 < end)
                last += 2;
            if (hlsl_is(r, last + 1, "[") && last + 1 < end)
                return false; /* an element or a row: not known */
            matrix |= is_matrix_name(r, names, last);
            t = last + 1;
        } else if (hlsl_is_number(r, t)) {
            t++;
        } else {
            return false;
        }
    }
    return matrix;
}

static void rewrite_matrix_intrinsics(struct rewriter *r)
{
    struct hlsl_names names = {0};

    collect_names(r, &names);
    if (names.count)
        for (size_t t = 0; t < r->token_count; t++) {
            int intrinsic = matrix_intrinsic(r, t);
            size_t close;
            if (intrinsic < 0 || r->tokens[t].directive || (close = hlsl_closing(r, t + 1)) >= r->token_count)
                continue;
            if (matrix_intrinsics[intrinsic].operands ? !is_matrix_call(r, &names, t, close, 0)
                    : !is_matrix_expression(r, &names, t + 2, close, 0))
                continue;
            hlsl_add_edit(r, r->tokens[t].at, r->tokens[t].length, "__d3d12xs_matrix_%s",
                    matrix_intrinsics[intrinsic].name);
            r->needs |= (uint64_t)1 << (NEED_MATRIX_SHIFT + intrinsic);
        }
    hlsl_names_free(&names);
}

void hlsl_rewrite_matrices(struct rewriter *r)
{
    rewrite_matrix_swizzles(r);
    rewrite_matrix_intrinsics(r);
}

void hlsl_prelude_matrices(struct text *b, uint64_t needs)
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
    for (size_t i = 0; i < COUNT(matrix_intrinsics); i++) {
        const char *name = matrix_intrinsics[i].name;
        unsigned operands = matrix_intrinsics[i].operands;
        if (!(needs & ((uint64_t)1 << (NEED_MATRIX_SHIFT + i))))
            continue;
        hlsl_append(b, "#ifndef D3D12XS_MATRIX_%s\n#define D3D12XS_MATRIX_%s\n", name, name);
        for (unsigned rows = 2; rows <= 4; rows++)
            for (unsigned columns = 2; columns <= 4; columns++) {
                if (!operands) {
                    hlsl_append(b, "bool __d3d12xs_matrix_%s(float%ux%u a) { return ", name, rows, columns);
                    for (unsigned row = 0; row < rows; row++)
                        hlsl_append(b, "%s%s(a[%u])", row ? (!strcmp(name, "all") ? " && " : " || ") : "", name, row);
                    hlsl_append(b, "; }\n");
                    continue;
                }
                hlsl_append(b, "float%ux%u __d3d12xs_matrix_%s(", rows, columns, name);
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
