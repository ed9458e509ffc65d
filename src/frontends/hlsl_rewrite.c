/* Source rewrites D3DCompile applies to HLSL before glslang compiles it, where glslang's HLSL
 * front end disagrees with D3D's compiler and the fix is cheap and safe at the token level.
 * They run once, on the preprocessed translation unit (every include in place, the defines
 * and macros expanded: src/frontends/hlslc_protocol.h), so that a construct spelt through a
 * macro or declared in another file is seen as written out; only the literals glslang's
 * preprocessor would split run on each file before it (d3d12xs_hlsl_rewrite_file). Each
 * rewrite keeps every newline where it was and the preprocessor's `#line N "file"` lines, so
 * the compiler's messages still name the user's files and lines; helpers the rewrites call
 * are declared in a prelude put before the text (ending with `#line 1`).
 *
 *  - `unsigned int` is the type uint (glslang reserves `unsigned`).
 *  - InterlockedCompareStore(dest, compare, value) (and the RWByteAddressBuffer method) is
 *    InterlockedCompareExchange with a discarded original value: glslang emits nothing for it.
 *  - lit(n_dot_l, n_dot_h, m) is computed by a helper with D3D's definition: glslang's
 *    specular term differs.
 *  - ldexp(x, e) is x * exp2(e) (D3D's definition; glslang passes the float exponent to
 *    GLSL.std.450 Ldexp, which wants an integer) and mad(a, b, c) is a * b + c (glslang emits
 *    a float Fma for integers too; D3D lets a float mad be fused or not): both as macros, so
 *    that the operands convert as in any expression.
 *  - WaveActiveAllEqual(v) of a vector is per component (bool2/3/4); glslang compares the
 *    whole vector and answers one bool.
 *  - mul() of two matrices goes through helpers written with vector operations, so that
 *    every matrix product left in the SPIR-V comes from `*`, which HLSL defines per
 *    component: the SPIR-V fix-up pass (spirv/spirv_fixup.c) then turns those into per-column
 *    multiplications.
 *  - function-scope `static` variables keep their value between calls: glslang initialises
 *    them at each call. They become (renamed) globals declared before the function.
 *  - arrays of (RW)StructuredBuffer / (RW)ByteAddressBuffer, which glslang cannot index, are
 *    one buffer of a marker struct (hlsl_rewrite_arrays.c, a pass before the others).
 *  - the semantic SV_Coverage (any case) is D3D12XS_COVERAGE_SEMANTIC, a user semantic:
 *    glslang drops an SV_Coverage input (and the code that reads it), and a user semantic in
 *    or out is an ordinary variable whichever way it goes (a parameter, a member of a struct
 *    in or out), which the SPIR-V pass for system values turns into the SampleMask built-in.
 *  - flattened initialisers of vector arrays (`float4 a[2] = {1, 2, 3, 4, 5, 6, 7, 8}`) get
 *    their inner braces when every element is a scalar (known from the count, or from
 *    literals when the array is unsized): glslang takes one item per vector.
 *
 * A shader that declares a function of one of the rewritten names itself (lit,
 * WaveActiveAllEqual) keeps its calls as written. Rewrites see tokens, not types: what needs
 * a type is rewritten where the tokens show it, refused where a wrong answer would follow,
 * or left to glslang where glslang fails with a message of its own. */
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "frontends/hlsl_rewrite.h"
#include "frontends/hlsl_rewrite_parts.h"
#include "frontends/hlsl_tokens.h"
#include "spirv/spirv_passes.h" /* D3D12XS_NONUNIFORM_SPEC_ID */

/* ---- the rewrites ---- */

/* A call of name at token t: not a member (`.name`), followed by `(`. */
static bool is_call(const struct rewriter *r, size_t t, const char *name)
{
    return hlsl_is(r, t, name) && hlsl_is(r, t + 1, "(") && !(t && hlsl_is(r, t - 1, "."));
}

/* Token t (a name followed by `(`) declares a function: a type name precedes it. */
static bool is_declaration(const struct rewriter *r, size_t t)
{
    return t && (hlsl_is_ident(r, t - 1) || hlsl_is(r, t - 1, ">")) && !hlsl_is(r, t - 1, "return")
            && !hlsl_is(r, t - 1, "else")
            && !hlsl_is(r, t - 1, "case");
}

static bool declares(const struct rewriter *r, const char *name)
{
    for (size_t t = 0; t < r->token_count; t++)
        if (is_call(r, t, name) && is_declaration(r, t))
            return true;
    return false;
}

static const char *const scalar_types[] = {"float", "int", "uint", "half", "double", "bool", "dword",
        "min16float", "min10float", "min16int", "min12int", "min16uint", "int64_t", "uint64_t"};

/* A scalar, vector or matrix type name (float, uint3, float4x4...). */
static bool is_numeric_type(const struct rewriter *r, size_t t)
{
    const char *text;
    size_t length;

    if (!hlsl_is_ident(r, t))
        return false;
    text = r->s + r->tokens[t].at;
    length = r->tokens[t].length;
    for (size_t i = 0; i < sizeof(scalar_types) / sizeof(scalar_types[0]); i++) {
        size_t n = strlen(scalar_types[i]);
        const char *rest = text + n;
        if (n > length || memcmp(scalar_types[i], text, n))
            continue;
        if (n == length || (n + 1 == length && rest[0] >= '1' && rest[0] <= '4')
                || (n + 3 == length && rest[0] >= '1' && rest[0] <= '4' && rest[1] == 'x' && rest[2] >= '1'
                    && rest[2] <= '4'))
            return true;
    }
    return false;
}

static void rewrite_calls(struct rewriter *r)
{
    bool own_lit = declares(r, "lit"), own_all_equal = declares(r, "WaveActiveAllEqual");
    bool own_ldexp = declares(r, "ldexp"), own_mad = declares(r, "mad"), own_nonuniform = declares(r, "NonUniformResourceIndex");

    for (size_t t = 0; t < r->token_count; t++) {
        if (hlsl_is(r, t, "unsigned") && hlsl_is(r, t + 1, "int")) {
            /* keep the text between (newlines) */
            hlsl_replace_token(r, t, "");
            hlsl_replace_token(r, t + 1, "uint");
            t++;
        } else if (hlsl_is(r, t, "InterlockedCompareStore") && hlsl_is(r, t + 1, "(")) {
            size_t end = hlsl_closing(r, t + 1);
            if (end < r->token_count) {
                hlsl_replace_token(r, t, "InterlockedCompareExchange");
                hlsl_add_edit(r, r->tokens[end].at, 0, ", __d3d12xs_discard");
                r->needs |= NEED_DISCARD;
            }
        } else if (!own_lit && is_call(r, t, "lit")) {
            hlsl_replace_token(r, t, "__d3d12xs_lit");
            r->needs |= NEED_LIT;
        } else if (!own_ldexp && is_call(r, t, "ldexp")) {
            hlsl_replace_token(r, t, "__d3d12xs_ldexp");
            r->needs |= NEED_LDEXP;
        } else if (!own_mad && is_call(r, t, "mad")) {
            hlsl_replace_token(r, t, "__d3d12xs_mad");
            r->needs |= NEED_MAD;
        } else if (!own_nonuniform && is_call(r, t, "NonUniformResourceIndex")) {
            /* glslang's HLSL has no NonUniformResourceIndex: an add of a marker, which the SPIR-V
             * finishing pass turns into a NonUniform-decorated copy of the index */
            hlsl_replace_token(r, t, "__d3d12xs_nonuniform");
            r->needs |= NEED_NONUNIFORM;
        } else if (!own_all_equal && is_call(r, t, "WaveActiveAllEqual")) {
            hlsl_replace_token(r, t, "__d3d12xs_all_equal");
            r->needs |= NEED_ALL_EQUAL;
        } else if (is_call(r, t, "mul") && !is_declaration(r, t)) {
            r->needs |= NEED_MUL;
        } else if (hlsl_is(r, t, "static") && is_numeric_type(r, t + 1) && hlsl_is_ident(r, t + 2)
                && hlsl_is(r, t + 3, ";")) {
            /* glslang leaves statics without initialiser undefined; D3D zeroes them */
            hlsl_add_edit(r, r->tokens[t + 3].at, 0, " = (%.*s)0", (int)r->tokens[t + 1].length,
                    r->s + r->tokens[t + 1].at);
        }
    }
}

/* `: SV_Coverage` becomes the marker semantic (the pass decides input or output by the variable
 * glslang makes, which the tokens of a struct member cannot tell). */
static void rewrite_coverage_semantics(struct rewriter *r)
{
    static const char coverage[] = "SV_Coverage";

    for (size_t t = 1; t < r->token_count; t++)
        if (hlsl_is(r, t - 1, ":") && hlsl_is_ident(r, t) && r->tokens[t].length == sizeof(coverage) - 1
                && !strncasecmp(r->s + r->tokens[t].at, coverage, sizeof(coverage) - 1))
            hlsl_replace_token(r, t, D3D12XS_COVERAGE_SEMANTIC);
}

static bool is_vector_type(const struct rewriter *r, size_t t, unsigned *components)
{
    const char *const *scalars = scalar_types;
    const size_t scalar_count = sizeof(scalar_types) / sizeof(scalar_types[0]);
    const char *text = r->s + r->tokens[t].at;
    size_t length = r->tokens[t].length;

    if (!hlsl_is_ident(r, t) || length < 2 || text[length - 1] < '2' || text[length - 1] > '4')
        return false;
    for (size_t i = 0; i < scalar_count; i++)
        if (strlen(scalars[i]) == length - 1 && !memcmp(scalars[i], text, length - 1)) {
            *components = text[length - 1] - '0';
            return true;
        }
    return false;
}

static bool is_number_literal(const struct rewriter *r, size_t first, size_t end)
{
    if (first < end && (hlsl_is(r, first, "-") || hlsl_is(r, first, "+")))
        first++;
    return first + 1 == end && r->tokens[first].kind == TOKEN_NUMBER;
}

/* `TYPEn name[N] = { s0, s1, ... }` with n * N scalars: braces around each vector's items. */
static void rewrite_flattened_initialisers(struct rewriter *r)
{
    for (size_t t = 0; t + 5 < r->token_count; t++) {
        size_t close, open, end, item_start[1025], items = 0, length = 0;
        unsigned components;
        bool all_literals = true, nested = false;

        if (!is_vector_type(r, t, &components) || !hlsl_is_ident(r, t + 1) || !hlsl_is(r, t + 2, "["))
            continue;
        close = hlsl_closing(r, t + 2);
        if (close >= r->token_count || !hlsl_is(r, close + 1, "=") || !hlsl_is(r, close + 2, "{"))
            continue;
        if (close == t + 4 && r->tokens[t + 3].kind == TOKEN_NUMBER)
            length = strtoul(r->s + r->tokens[t + 3].at, NULL, 0);
        else if (close != t + 3)
            continue; /* a size that is no literal, or a second dimension: left alone */
        open = close + 2;
        end = hlsl_closing(r, open);
        if (end >= r->token_count)
            continue;
        /* the items at depth 1 */
        for (size_t u = open + 1, start = open + 1; u <= end; u++) {
            if (u < end && (hlsl_is(r, u, "(") || hlsl_is(r, u, "[") || hlsl_is(r, u, "{"))) {
                if (hlsl_is(r, u, "{") && u == start)
                    nested = true;
                u = hlsl_closing(r, u);
                continue;
            }
            if (u == end || hlsl_is(r, u, ",")) {
                if (u == start) /* a trailing comma */
                    break;
                if (items == sizeof(item_start) / sizeof(item_start[0]) - 1) {
                    nested = true;
                    break;
                }
                all_literals &= is_number_literal(r, start, u);
                item_start[items++] = start;
                start = u + 1;
            }
        }
        if (nested || items <= 1 || items % components)
            continue;
        if (length ? items != length * components : (!all_literals || items == components))
            continue;
        item_start[items] = 0;
        for (size_t i = 0; i < items; i += components) {
            size_t last_end; /* the token after the vector's last item: `,` or `}` */
            hlsl_add_edit(r, r->tokens[item_start[i]].at, 0, "{");
            last_end = i + components < items ? item_start[i + components] - 1 : end;
            hlsl_add_edit(r, r->tokens[last_end].at, 0, "}");
        }
        t = end;
    }
}

/* Function-scope statics (not `static const`, which glslang gets right) become globals. */
static void rewrite_function_statics(struct rewriter *r)
{
    size_t insert_at = 0; /* after the last top-level `;` or `}` */

    for (size_t t = 0; t < r->token_count; t++) {
        size_t body_end, prev;
        bool function;

        if (hlsl_is(r, t, "(") || hlsl_is(r, t, "[")) {
            t = hlsl_closing(r, t);
            if (t >= r->token_count)
                return;
            continue;
        }
        if (r->tokens[t].directive)
            continue;
        if (hlsl_is(r, t, ";") || hlsl_is(r, t, "}")) {
            insert_at = r->tokens[t].at + 1;
            continue;
        }
        if (!hlsl_is(r, t, "{"))
            continue;
        body_end = hlsl_closing(r, t);
        if (body_end >= r->token_count)
            return;
        /* a function body: `) {` or `) : SEMANTIC {`, the `)` not that of register()/packoffset() */
        prev = t - (t >= 3 && hlsl_is(r, t - 2, ":") && hlsl_is_ident(r, t - 1) ? 2 : 0);
        function = prev >= 1 && hlsl_is(r, prev - 1, ")");
        if (function) {
            /* find the matching `(` */
            int parens = 0;
            size_t u = prev - 1;
            for (;; u--) {
                if (hlsl_is(r, u, ")"))
                    parens++;
                else if (hlsl_is(r, u, "(") && --parens == 0)
                    break;
                if (!u)
                    break;
            }
            if (!u || hlsl_is(r, u - 1, "register") || hlsl_is(r, u - 1, "packoffset"))
                function = false;
        }
        for (size_t u = t + 1; function && u < body_end; u++) {
            size_t end, name = 0;
            if (!hlsl_is(r, u, "static") || hlsl_is(r, u + 1, "const")
                    || !(hlsl_is(r, u - 1, ";") || hlsl_is(r, u - 1, "{") || hlsl_is(r, u - 1, "}")))
                continue;
            for (end = u + 1; end < body_end && !hlsl_is(r, end, ";"); end++) {
                if (hlsl_is(r, end, "(") || hlsl_is(r, end, "[") || hlsl_is(r, end, "{")) {
                    end = hlsl_closing(r, end);
                    continue;
                }
                if (!name && hlsl_is_ident(r, end) && (hlsl_is(r, end + 1, "=") || hlsl_is(r, end + 1, ";")
                        || hlsl_is(r, end + 1, "[") || hlsl_is(r, end + 1, ":")))
                    name = end;
            }
            if (end >= body_end || !name)
                continue;
            {
                unsigned serial = (*r->serial)++;
                size_t from = r->tokens[u].at, to = r->tokens[end].at + 1, k;
                char *moved = malloc(to - from + 1);
                if (!moved) {
                    r->failed = true;
                    return;
                }
                /* the declaration, renamed, goes before the function; its place keeps its newlines */
                {
                    size_t m = 0;
                    for (size_t c = from; c < to; c++)
                        moved[m++] = r->s[c] == '\n' ? ' ' : r->s[c];
                    moved[m] = 0;
                }
                if (!insert_at) {
                    /* before the file's first declaration, which may be a directive: in front */
                    size_t name_offset = r->tokens[name].at - from;
                    char *line = NULL;
                    if (asprintf(&line, "%.*s__d3d12xs_static%u_%.*s%s\n", (int)name_offset, moved, serial,
                            (int)r->tokens[name].length, r->s + r->tokens[name].at,
                            moved + name_offset + r->tokens[name].length) < 0) {
                        free(moved);
                        r->failed = true;
                        return;
                    }
                    hlsl_append_bytes(r->front, line, strlen(line));
                    free(line);
                } else {
                    size_t name_offset = r->tokens[name].at - from;
                    hlsl_add_edit(r, insert_at, 0, " %.*s__d3d12xs_static%u_%.*s%s", (int)name_offset, moved, serial,
                            (int)r->tokens[name].length, r->s + r->tokens[name].at,
                            moved + name_offset + r->tokens[name].length);
                }
                free(moved);
                for (size_t c = from; c < to; c++)
                    if (r->s[c] != '\n')
                        hlsl_add_edit(r, c, 1, " ");
                for (k = end + 1; k < body_end; k++)
                    if (hlsl_same_text(r, k, name) && !hlsl_is(r, k - 1, "."))
                        hlsl_add_edit(r, r->tokens[k].at, r->tokens[k].length, "__d3d12xs_static%u_%.*s", serial,
                                (int)r->tokens[name].length, r->s + r->tokens[name].at);
                u = end;
            }
        }
        t = body_end;
        insert_at = r->tokens[t].at + 1;
    }
}

/* ---- the prelude ---- */


static void prelude(struct text *b, uint64_t needs)
{
    static const char *const all_equal_types[] = {"float", "int", "uint", "bool", "double"};
    static const char *const mul_types[] = {"float", "double"};
    static const char xyzw[] = "xyzw";

    if (needs & NEED_DISCARD)
        hlsl_append(b, "#ifndef D3D12XS_DISCARD\n#define D3D12XS_DISCARD\nstatic uint __d3d12xs_discard;\n#endif\n");
    if (needs & NEED_LIT)
        hlsl_append(b, "#ifndef D3D12XS_LIT\n#define D3D12XS_LIT\n"
                "float4 __d3d12xs_lit(float n_dot_l, float n_dot_h, float m) {\n"
                "    float4 r = float4(1, 0, 0, 1);\n"
                "    if (n_dot_l >= 0) { r.y = n_dot_l; if (n_dot_h >= 0) r.z = pow(n_dot_h, m); }\n"
                "    return r;\n}\n#endif\n");
    /* macros: the usual arithmetic conversions of the operands, whatever their types */
    if (needs & NEED_NONUNIFORM)
        hlsl_append(b, "#ifndef D3D12XS_NONUNIFORM\n#define D3D12XS_NONUNIFORM\n"
                "[[vk::constant_id(%d)]] const uint __d3d12xs_nonuniform_marker = 0;\n"
                "#define __d3d12xs_nonuniform(i) ((uint)(i) + __d3d12xs_nonuniform_marker)\n#endif\n", D3D12XS_NONUNIFORM_SPEC_ID);
    if (needs & NEED_LDEXP)
        hlsl_append(b, "#ifndef __d3d12xs_ldexp\n#define __d3d12xs_ldexp(x, e) ((x) * exp2(e))\n#endif\n");
    if (needs & NEED_MAD)
        hlsl_append(b, "#ifndef __d3d12xs_mad\n#define __d3d12xs_mad(a, b, c) ((a) * (b) + (c))\n#endif\n");
    if (needs & NEED_ALL_EQUAL) {
        hlsl_append(b, "#ifndef D3D12XS_ALL_EQUAL\n#define D3D12XS_ALL_EQUAL\n");
        for (size_t i = 0; i < sizeof(all_equal_types) / sizeof(all_equal_types[0]); i++) {
            const char *type = all_equal_types[i];
            hlsl_append(b, "bool __d3d12xs_all_equal(%s v) { return WaveActiveAllEqual(v); }\n", type);
            for (unsigned n = 2; n <= 4; n++) {
                hlsl_append(b, "bool%u __d3d12xs_all_equal(%s%u v) { return bool%u(", n, type, n, n);
                for (unsigned c = 0; c < n; c++)
                    hlsl_append(b, "%sWaveActiveAllEqual(v.%c)", c ? ", " : "", xyzw[c]);
                hlsl_append(b, "); }\n");
            }
        }
        hlsl_append(b, "#endif\n");
    }
    if (needs & NEED_MUL) {
        /* mul(RxK, KxC): row i of the result is sum over k of a[i][k] * b[k] */
        hlsl_append(b, "#ifndef D3D12XS_MUL\n#define D3D12XS_MUL\n");
        for (size_t i = 0; i < sizeof(mul_types) / sizeof(mul_types[0]); i++)
            for (unsigned rows = 2; rows <= 4; rows++)
                for (unsigned inner = 2; inner <= 4; inner++)
                    for (unsigned columns = 2; columns <= 4; columns++) {
                        const char *type = mul_types[i];
                        hlsl_append(b, "%s%ux%u mul(%s%ux%u a, %s%ux%u b) { %s%ux%u r; ", type, rows, columns, type,
                                rows,
                                inner, type, inner, columns, type, rows, columns);
                        for (unsigned row = 0; row < rows; row++) {
                            hlsl_append(b, "r[%u] = ", row);
                            for (unsigned k = 0; k < inner; k++)
                                hlsl_append(b, "%sa[%u][%u] * b[%u]", k ? " + " : "", row, k, k);
                            hlsl_append(b, "; ");
                        }
                        hlsl_append(b, "return r; }\n");
                    }
        hlsl_append(b, "#endif\n");
    }
    hlsl_prelude_literals(b, needs);
    hlsl_prelude_types(b, needs);
    hlsl_prelude_matrices(b, needs);
}

/* ---- entry ---- */

enum rewrite_pass_kind {
    PASS_FILE,         /* one file, before the preprocessor */
    PASS_ARRAYS,       /* the translation unit: arrays of raw and structured buffers */
    PASS_CALLS,        /* the translation unit: calls, constants, types, matrices */
    PASS_DECLARATIONS, /* the translation unit: initialisers, function statics */
};

/* One pass of rewrites over source into *out (appended); NULL-safe on failure (out->failed). */
static void rewrite_pass(const char *source, size_t length, enum rewrite_pass_kind kind, unsigned *serial,
        uint64_t *needs, struct text *out, struct text *front)
{
    struct rewriter r;
    size_t at = 0;

    memset(&r, 0, sizeof(r));
    r.s = source;
    r.length = length;
    r.serial = serial;
    r.front = front;
    if (!hlsl_tokenize(&r)) {
        out->failed = true;
        free(r.tokens);
        free(r.pair);
        return;
    }
    if (kind == PASS_FILE) {
        hlsl_rewrite_file_literals(&r);
    } else if (kind == PASS_ARRAYS) {
        hlsl_rewrite_buffer_arrays(&r);
    } else if (kind == PASS_CALLS) {
        rewrite_calls(&r);
        rewrite_coverage_semantics(&r);
        hlsl_rewrite_literals(&r);
        hlsl_rewrite_types(&r);
        hlsl_rewrite_matrices(&r);
    } else {
        rewrite_flattened_initialisers(&r);
        rewrite_function_statics(&r);
    }
    if (r.failed)
        out->failed = true;
    if (r.edit_count)
        qsort(r.edits, r.edit_count, sizeof(*r.edits), hlsl_compare_edits);
    for (size_t e = 0; e < r.edit_count; e++) {
        const struct edit *edit = &r.edits[e];
        if (edit->at < at) /* overlapping (cannot happen: edits replace distinct tokens) */
            continue;
        hlsl_append_bytes(out, source + at, edit->at - at);
        hlsl_append_bytes(out, edit->text, strlen(edit->text));
        at = edit->at + edit->remove;
    }
    hlsl_append_bytes(out, source + at, length - at);
    *needs |= r.needs;
    for (size_t e = 0; e < r.edit_count; e++)
        free(r.edits[e].text);
    free(r.edits);
    free(r.tokens);
    free(r.pair);
}

char *d3d12xs_hlsl_rewrite(const char *source, size_t length, size_t *out_length, unsigned *serial)
{
    struct text arrays = {0}, first = {0}, second = {0}, front = {0}, out = {0};
    uint64_t needs = 0;

    /* buffer arrays first: their uses become calls and macros the other rewrites see */
    rewrite_pass(source, length, PASS_ARRAYS, serial, &needs, &arrays, &front);
    /* calls and types next, so that moved statics carry their rewritten text */
    if (!arrays.failed)
        rewrite_pass(arrays.data ? arrays.data : "", arrays.length, PASS_CALLS, serial, &needs, &first, &front);
    else
        first.failed = true;
    if (!first.failed)
        rewrite_pass(first.data ? first.data : "", first.length, PASS_DECLARATIONS, serial, &needs, &second, &front);
    if (needs || front.length) {
        prelude(&out, needs);
        hlsl_append_bytes(&out, front.data ? front.data : "", front.length);
        hlsl_append(&out, "#line 1\n");
    }
    hlsl_append_bytes(&out, second.data ? second.data : "", second.length);
    free(second.data);
    free(front.data);
    if (second.failed || front.failed)
        out.failed = true;
    if (!out.data)
        hlsl_append_bytes(&out, "", 0);
    free(first.data);
    free(arrays.data);
    if (first.failed || out.failed) {
        free(out.data);
        return NULL;
    }
    *out_length = out.length;
    return out.data;
}

char *d3d12xs_hlsl_rewrite_file(const char *source, size_t length, size_t *out_length)
{
    struct text out = {0}, front = {0};
    uint64_t needs = 0;
    unsigned serial = 0;

    rewrite_pass(source, length, PASS_FILE, &serial, &needs, &out, &front);
    if (!out.data)
        hlsl_append_bytes(&out, "", 0);
    free(front.data);
    if (out.failed) {
        free(out.data);
        return NULL;
    }
    *out_length = out.length;
    return out.data;
}
