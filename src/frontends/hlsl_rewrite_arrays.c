/* Arrays of (RW)StructuredBuffer<T> and (RW)ByteAddressBuffer (bounded `a[N]` or unbounded
 * `a[]`), which glslang's HLSL front end declares but cannot index ("'structure' : Expected").
 * Each becomes one buffer whose element is a marker struct, transposed so that both indices
 * stay in every access chain:
 *
 *     struct __d3d12xs_array_a { T e[N]; uint n[D3D12XS_BUFFER_ARRAY_MARKER]; };
 *     StructuredBuffer<__d3d12xs_array_a> a : register(t0, space1);
 *
 * a[i][j] is a[j].e[i] (a macro: it stays an lvalue, each index written once), a raw buffer's
 * methods and GetDimensions are helper functions declared after the buffer (taking the array
 * index first), and a[0].n[i] stands for the length of buffer i. spirv/spirv_buffer_arrays.c turns
 * the buffer back into an array of storage-buffer blocks. The array index is a macro or call
 * argument, so NonUniformResourceIndex(i) reaches the access as written (the helpers are
 * inlined when optimising).
 *
 * Refused with a message naming the construct: an array element used other than indexed in
 * place (passed, copied, assigned), UAV counters of array elements, arrays of arrays, arrays
 * declared as parameters or locals, several arrays in one declaration. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/hlsl_rewrite.h"
#include "frontends/hlsl_rewrite_parts.h"
#include "spirv/spirv_passes.h" /* D3D12XS_BUFFER_ARRAY_MARKER */

struct buffer_array {
    size_t type, name, close; /* tokens: the type name, the array's name, the `]` of its size */
    size_t semicolon;         /* the token ending the declaration */
    bool raw, writable;
    unsigned stride;          /* structured: D3D's element stride, 0 when not known */
};

static const char *const atomic_ops[] = {"Add", "And", "Or", "Xor", "Min", "Max"};

/* The helpers of raw array `name`, which take the array index first and the byte offset next. */
static void append_raw_helpers(struct text *b, const char *name, bool writable)
{
    hlsl_append(b, " uint __d3d12xs_%s_Load(uint i, uint o) { return %s[o >> 2].e[i]; }", name, name);
    for (unsigned n = 2; n <= 4; n++) {
        hlsl_append(b, " uint%u __d3d12xs_%s_Load%u(uint i, uint o) { uint k = o >> 2; return uint%u(", n, name, n, n);
        for (unsigned c = 0; c < n; c++)
            hlsl_append(b, "%s%s[k + %uu].e[i]", c ? ", " : "", name, c);
        hlsl_append(b, "); }");
    }
    hlsl_append(b, " void __d3d12xs_%s_GetDimensions(uint i, out uint bytes) { bytes = %s[0].n[i] * 4u; }", name, name);
    if (!writable)
        return;
    hlsl_append(b, " void __d3d12xs_%s_Store(uint i, uint o, uint v) { %s[o >> 2].e[i] = v; }", name, name);
    for (unsigned n = 2; n <= 4; n++) {
        hlsl_append(b, " void __d3d12xs_%s_Store%u(uint i, uint o, uint%u v) { uint k = o >> 2;", name, n, n);
        for (unsigned c = 0; c < n; c++)
            hlsl_append(b, " %s[k + %uu].e[i] = v.%c;", name, c, "xyzw"[c]);
        hlsl_append(b, " }");
    }
    for (size_t op = 0; op < sizeof(atomic_ops) / sizeof(atomic_ops[0]); op++) {
        hlsl_append(b, " void __d3d12xs_%s_Interlocked%s(uint i, uint o, uint v) { Interlocked%s(%s[o >> 2].e[i], v); }",
                name, atomic_ops[op], atomic_ops[op], name);
        hlsl_append(b, " void __d3d12xs_%s_Interlocked%s(uint i, uint o, uint v, out uint original) "
                "{ Interlocked%s(%s[o >> 2].e[i], v, original); }", name, atomic_ops[op], atomic_ops[op], name);
    }
    hlsl_append(b, " void __d3d12xs_%s_InterlockedExchange(uint i, uint o, uint v, out uint original) "
            "{ InterlockedExchange(%s[o >> 2].e[i], v, original); }", name, name);
    hlsl_append(b, " void __d3d12xs_%s_InterlockedCompareExchange(uint i, uint o, uint c, uint v, out uint original) "
            "{ InterlockedCompareExchange(%s[o >> 2].e[i], c, v, original); }", name, name);
    /* glslang emits nothing for InterlockedCompareStore */
    hlsl_append(b, " void __d3d12xs_%s_InterlockedCompareStore(uint i, uint o, uint c, uint v) "
            "{ uint original; InterlockedCompareExchange(%s[o >> 2].e[i], c, v, original); }", name, name);
}

static bool is_raw_method(const struct rewriter *r, size_t t, bool writable)
{
    static const char *const read[] = {"Load", "Load2", "Load3", "Load4", "GetDimensions"};
    static const char *const write[] = {"Store", "Store2", "Store3", "Store4", "InterlockedExchange",
            "InterlockedCompareExchange", "InterlockedCompareStore"};
    for (size_t i = 0; i < sizeof(read) / sizeof(read[0]); i++)
        if (hlsl_is(r, t, read[i]))
            return true;
    if (!writable)
        return false;
    for (size_t i = 0; i < sizeof(write) / sizeof(write[0]); i++)
        if (hlsl_is(r, t, write[i]))
            return true;
    for (size_t i = 0; i < sizeof(atomic_ops) / sizeof(atomic_ops[0]); i++)
        if (r->tokens[t].length == 11 + strlen(atomic_ops[i]) && !memcmp(r->s + r->tokens[t].at, "Interlocked", 11)
                && !memcmp(r->s + r->tokens[t].at + 11, atomic_ops[i], strlen(atomic_ops[i])))
            return true;
    return false;
}

/* The declaration at token t (a buffer type name) when it declares an array: false otherwise,
 * or after refusing it. */
static bool parse_declaration(struct rewriter *r, size_t t, int paren_depth, int brace_depth, struct buffer_array *a)
{
    bool structured = hlsl_is(r, t, "StructuredBuffer") || hlsl_is(r, t, "RWStructuredBuffer");
    size_t name = t + 1, end;

    memset(a, 0, sizeof(*a));
    if (!structured && !hlsl_is(r, t, "ByteAddressBuffer") && !hlsl_is(r, t, "RWByteAddressBuffer"))
        return false;
    if (r->tokens[t].directive || (t && hlsl_is(r, t - 1, ".")))
        return false;
    if (structured) {
        int depth = 0;
        for (name = t + 1; name < r->token_count && name < t + 32; name++) {
            if (hlsl_is(r, name, "<"))
                depth++;
            else if (hlsl_is(r, name, ">") && --depth == 0)
                break;
        }
        if (!hlsl_is(r, t + 1, "<") || !hlsl_is(r, name, ">"))
            return false;
        if (name == t + 3)
            a->stride = hlsl_structured_stride(r, t + 2);
        name++;
    }
    if (!hlsl_is_ident(r, name) || !hlsl_is(r, name + 1, "["))
        return false;
    a->type = t;
    a->name = name;
    a->raw = !structured;
    a->writable = r->s[r->tokens[t].at] == 'R';
    if ((a->close = hlsl_closing(r, name + 1)) >= r->token_count)
        return false;
    /* to the `;`, past `: register(...)` */
    for (end = a->close + 1; end < r->token_count && !hlsl_is(r, end, ";") && !hlsl_is(r, end, ",")
            && !hlsl_is(r, end, ")") && !hlsl_is(r, end, "["); end++)
        if (hlsl_is(r, end, "(") && (end = hlsl_closing(r, end)) >= r->token_count)
            break;
    if (paren_depth || hlsl_is(r, end, ")")) {
        hlsl_refuse(r, name, "the array of buffers %.*s is a function parameter, which is not supported (glslang "
                "cannot pass its buffers): use the global array in the function");
        return false;
    }
    if (brace_depth) {
        hlsl_refuse(r, name, "the array of buffers %.*s is not declared at global scope, which is not supported");
        return false;
    }
    if (!hlsl_is(r, end, ";")) {
        hlsl_refuse(r, name, "the array of buffers %.*s is an array of arrays or shares its declaration, which is not "
                "supported: declare one one-dimensional array per declaration");
        return false;
    }
    a->semicolon = end;
    return true;
}

/* Declares a's marker struct and buffer in place of its declaration (newlines kept) and its
 * helpers after it; a macro for element access goes to the front. */
static void rewrite_declaration(struct rewriter *r, const struct buffer_array *a)
{
    size_t from = r->tokens[a->type].at, to = r->tokens[a->close].at + 1, count_length = 0, newlines = 0;
    size_t modifiers = a->type;
    const char *name = r->s + r->tokens[a->name].at;
    int name_length = (int)r->tokens[a->name].length;
    struct text helpers = {0};
    char *name_text;

    while (modifiers && hlsl_is_ident(r, modifiers - 1) && !r->tokens[modifiers - 1].directive
            && (hlsl_is(r, modifiers - 1, "globallycoherent") || hlsl_is(r, modifiers - 1, "uniform")
                || hlsl_is(r, modifiers - 1, "extern")))
        modifiers--;
    for (size_t at = from; at < to; at++)
        newlines += r->s[at] == '\n';
    if (a->close > a->name + 2)
        count_length = (size_t)hlsl_text_length(r, a->name + 2, a->close - 1);
    if (!(name_text = malloc((size_t)name_length + 1))) {
        r->failed = true;
        return;
    }
    memcpy(name_text, name, (size_t)name_length);
    name_text[name_length] = 0;
    if (newlines > 16)
        newlines = 16;
    /* the struct goes before the declaration's modifiers (globallycoherent...), which are the buffer's */
    hlsl_add_edit(r, r->tokens[modifiers].at, 0, "struct __d3d12xs_array_%s { %.*s e[%.*s]; uint n[%uu]; }; ", name_text,
            a->raw ? 4 : hlsl_text_length(r, a->type + 2, a->name - 2), a->raw ? "uint" : r->s + r->tokens[a->type + 2].at,
            count_length ? (int)count_length : 5, count_length ? r->s + r->tokens[a->name + 2].at : "65536",
            count_length ? D3D12XS_BUFFER_ARRAY_MARKER : D3D12XS_BUFFER_ARRAY_MARKER + 1);
    hlsl_add_edit(r, from, to - from, "%sStructuredBuffer<__d3d12xs_array_%s> %s%.*s", a->writable ? "RW" : "", name_text,
            name_text, (int)newlines, "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n");
    if (a->raw)
        append_raw_helpers(&helpers, name_text, a->writable);
    else if (a->stride)
        hlsl_append(&helpers, " void __d3d12xs_%s_GetDimensions(uint i, out uint count, out uint stride) "
                "{ count = %s[0].n[i]; stride = %uu; }", name_text, name_text, a->stride);
    if (helpers.failed)
        r->failed = true;
    else if (helpers.length)
        hlsl_add_edit(r, r->tokens[a->semicolon].at + 1, 0, "%s", helpers.data);
    if (!a->raw)
        hlsl_append(r->front, "#define __d3d12xs_at_%s(i, j) %s[j].e[i]\n", name_text, name_text);
    free(helpers.data);
    free(name_text);
}

/* The use of array a at token t: a[i][j] and a[i].Load(j) (structured), a[i].Method(...). */
static void rewrite_use(struct rewriter *r, const struct buffer_array *a, size_t t)
{
    size_t close = hlsl_is(r, t + 1, "[") ? hlsl_closing(r, t + 1) : r->token_count, method = close + 2;
    int name_length = (int)r->tokens[t].length;
    const char *name = r->s + r->tokens[t].at;

    if (close >= r->token_count) {
        hlsl_refuse(r, t, "the array of buffers %.*s is used whole (passed, copied or assigned), which is not supported: "
                "index it in place, as a[i][j] or a[i].Method(...)");
        return;
    }
    if (!a->raw && hlsl_is(r, close + 1, "[") && hlsl_closing(r, close + 1) < r->token_count) {
        hlsl_add_edit(r, r->tokens[t].at, r->tokens[t].length, "__d3d12xs_at_%.*s", name_length, name);
        hlsl_replace_token(r, t + 1, "(");
        hlsl_replace_token(r, close, ",");
        hlsl_replace_token(r, close + 1, "");
        hlsl_replace_token(r, hlsl_closing(r, close + 1), ")");
        return;
    }
    if (!hlsl_is(r, close + 1, ".") || !hlsl_is_ident(r, method) || !hlsl_is(r, method + 1, "(")) {
        hlsl_refuse(r, t, "an element of the array of buffers %.*s is used other than in place (passed, copied or "
                "assigned), which is not supported: write a[i][j] or a[i].Method(...)");
        return;
    }
    if (hlsl_is(r, method, "IncrementCounter") || hlsl_is(r, method, "DecrementCounter")) {
        hlsl_refuse(r, method, "%.*s of an element of an array of RWStructuredBuffer is not supported (the counters of "
                "an array of UAVs): declare the buffer on its own");
        return;
    }
    if (a->raw ? !is_raw_method(r, method, a->writable)
            : !(hlsl_is(r, method, "Load") || (hlsl_is(r, method, "GetDimensions") && a->stride))) {
        if (a->raw || !hlsl_is(r, method, "GetDimensions"))
            hlsl_refuse(r, method, "the method %.*s of an element of an array of buffers is not supported");
        else
            hlsl_refuse(r, t, "GetDimensions of an element of the array of StructuredBuffer %.*s needs an element type "
                    "whose D3D size D3DCompile knows (a scalar, vector, matrix or struct of those, 32- and 64-bit not mixed)");
        return;
    }
    if (hlsl_is(r, method, "Load") && !a->raw)
        hlsl_add_edit(r, r->tokens[t].at, r->tokens[t].length, "__d3d12xs_at_%.*s", name_length, name);
    else
        hlsl_add_edit(r, r->tokens[t].at, r->tokens[t].length, "__d3d12xs_%.*s_%.*s", name_length, name,
                (int)r->tokens[method].length, r->s + r->tokens[method].at);
    hlsl_replace_token(r, t + 1, "(");
    hlsl_replace_token(r, close, hlsl_is(r, method + 2, ")") ? "" : ",");
    hlsl_replace_token(r, close + 1, "");
    hlsl_replace_token(r, method, "");
    hlsl_replace_token(r, method + 1, "");
}

void hlsl_rewrite_buffer_arrays(struct rewriter *r)
{
    struct buffer_array *arrays = NULL;
    struct hlsl_names names = {0};
    size_t count = 0, capacity = 0;
    int parens = 0, braces = 0;

    for (size_t t = 0; t < r->token_count; t++) {
        struct buffer_array a;
        if (r->tokens[t].directive)
            continue;
        if (hlsl_is(r, t, "("))
            parens++;
        else if (hlsl_is(r, t, ")"))
            parens--;
        else if (hlsl_is(r, t, "{"))
            braces++;
        else if (hlsl_is(r, t, "}"))
            braces--;
        if (!parse_declaration(r, t, parens, braces, &a))
            continue;
        if (count == capacity) {
            struct buffer_array *grown = realloc(arrays, (capacity = capacity ? 2 * capacity : 8) * sizeof(*arrays));
            if (!grown) {
                r->failed = true;
                break;
            }
            arrays = grown;
        }
        arrays[count] = a;
        if (!hlsl_names_add(r, &names, a.name, (int)++count)) {
            r->failed = true;
            break;
        }
        rewrite_declaration(r, &a);
        t = a.semicolon;
    }
    for (size_t t = 0; count && !r->failed && t < r->token_count; t++) {
        int value = hlsl_names_get(r, &names, t);
        if (value <= 0 || r->tokens[t].directive || (t && hlsl_is(r, t - 1, ".")))
            continue;
        if (t == arrays[value - 1].name)
            continue;
        rewrite_use(r, &arrays[value - 1], t);
    }
    hlsl_names_free(&names);
    free(arrays);
}
