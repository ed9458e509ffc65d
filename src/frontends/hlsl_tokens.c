/* The tokens and edits of D3DCompile's source rewrites (see hlsl_tokens.h). */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/hlsl_tokens.h"

/* ---- tokens ---- */

static bool is_bracket(const struct rewriter *r, size_t t, const char *kinds)
{
    return r->tokens[t].length == 1 && r->tokens[t].kind == TOKEN_PUNCT && strchr(kinds, r->s[r->tokens[t].at]);
}

/* r->pair: the token matching each bracket (any closing bracket closes the innermost open one,
 * whatever its kind), token_count for the others; computed once, so that the rewrites look
 * brackets up in constant time whatever the nesting. */
static bool pair_brackets(struct rewriter *r)
{
    size_t *stack, depth = 0;

    if (!(r->pair = malloc((r->token_count + 1) * sizeof(*r->pair)))
            || !(stack = malloc((r->token_count + 1) * sizeof(*stack))))
        return false;
    for (size_t t = 0; t < r->token_count; t++) {
        r->pair[t] = r->token_count;
        if (is_bracket(r, t, "([{")) {
            stack[depth++] = t;
        } else if (is_bracket(r, t, ")]}") && depth) {
            size_t open = stack[--depth];
            r->pair[open] = t;
            r->pair[t] = open;
        }
    }
    free(stack);
    return true;
}

bool hlsl_tokenize(struct rewriter *r)
{
    const char *s = r->s;
    size_t n = r->length, i = 0, capacity = 0;
    bool line_start = true, directive = false;

    while (i < n) {
        struct token t;
        char c = s[i];
        if (c == '\n') {
            /* a directive ends at a newline not escaped by a backslash */
            if (!(i && s[i - 1] == '\\') && !(i > 1 && s[i - 1] == '\r' && s[i - 2] == '\\'))
                directive = false;
            line_start = true;
            i++;
            continue;
        }
        if (isspace((unsigned char)c) || c == '\\') {
            i++;
            continue;
        }
        if (line_start && c == '#')
            directive = true;
        line_start = false;
        t.directive = directive;
        if (c == '/' && i + 1 < n && s[i + 1] == '/') {
            while (i < n && s[i] != '\n')
                i++;
            continue;
        }
        if (c == '/' && i + 1 < n && s[i + 1] == '*') {
            i += 2;
            while (i < n && !(s[i] == '*' && i + 1 < n && s[i + 1] == '/'))
                i++;
            i = i < n ? i + 2 : n;
            continue;
        }
        t.at = i;
        if (c == '"' || c == '\'') {
            i++;
            while (i < n && s[i] != c && s[i] != '\n') {
                if (s[i] == '\\' && i + 1 < n)
                    i++;
                i++;
            }
            if (i < n && s[i] == c)
                i++;
            t.kind = TOKEN_PUNCT; /* a string is never one of the names looked for */
        } else if (isalpha((unsigned char)c) || c == '_') {
            while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_'))
                i++;
            t.kind = TOKEN_IDENT;
        } else if (isdigit((unsigned char)c) || (c == '.' && i + 1 < n && isdigit((unsigned char)s[i + 1]))) {
            while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '.'
                    || ((s[i] == '+' || s[i] == '-') && (s[i - 1] == 'e' || s[i - 1] == 'E')
                        && !(i >= 2 && (s[t.at + 1] == 'x' || s[t.at + 1] == 'X')))))
                i++;
            t.kind = TOKEN_NUMBER;
        } else {
            i++;
            t.kind = TOKEN_PUNCT;
        }
        t.length = i - t.at;
        if (r->token_count == capacity) {
            struct token *bigger = realloc(r->tokens, (capacity = capacity * 2 + 256) * sizeof(*bigger));
            if (!bigger)
                return false;
            r->tokens = bigger;
        }
        r->tokens[r->token_count++] = t;
    }
    return pair_brackets(r);
}

bool hlsl_is(const struct rewriter *r, size_t t, const char *text)
{
    return t < r->token_count && r->tokens[t].length == strlen(text) && !memcmp(r->s + r->tokens[t].at, text,
            r->tokens[t].length);
}

bool hlsl_is_ident(const struct rewriter *r, size_t t)
{
    return t < r->token_count && r->tokens[t].kind == TOKEN_IDENT;
}

bool hlsl_same_text(const struct rewriter *r, size_t a, size_t b)
{
    return r->tokens[a].length == r->tokens[b].length
            && !memcmp(r->s + r->tokens[a].at, r->s + r->tokens[b].at, r->tokens[a].length);
}

/* The token closing the bracket opened at token `open` ((, [ or {), or token_count. */
size_t hlsl_closing(const struct rewriter *r, size_t open)
{
    return open < r->token_count && is_bracket(r, open, "([{") ? r->pair[open] : r->token_count;
}

size_t hlsl_opening(const struct rewriter *r, size_t close)
{
    return close < r->token_count && is_bracket(r, close, ")]}") ? r->pair[close] : r->token_count;
}

/* ---- edits ---- */

void hlsl_add_edit(struct rewriter *r, size_t at, size_t remove, const char *fmt, ...)
{
    va_list args;
    char *text = NULL;

    if (r->failed)
        return;
    if (r->edit_count == r->edit_capacity) {
        struct edit *bigger = realloc(r->edits, (r->edit_capacity = r->edit_capacity * 2 + 16) * sizeof(*bigger));
        if (!bigger) {
            r->failed = true;
            return;
        }
        r->edits = bigger;
    }
    va_start(args, fmt);
    if (vasprintf(&text, fmt, args) < 0) {
        text = NULL;
        r->failed = true;
    }
    va_end(args);
    if (!text)
        return;
    r->edits[r->edit_count].at = at;
    r->edits[r->edit_count].remove = remove;
    r->edits[r->edit_count].text = text;
    r->edits[r->edit_count].order = r->edit_count;
    r->edit_count++;
}

/* Replaces token t by text. */
void hlsl_replace_token(struct rewriter *r, size_t t, const char *text)
{
    hlsl_add_edit(r, r->tokens[t].at, r->tokens[t].length, "%s", text);
}

int hlsl_compare_edits(const void *a, const void *b)
{
    const struct edit *x = a, *y = b;
    if (x->at != y->at)
        return x->at < y->at ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

void hlsl_append_bytes(struct text *b, const char *data, size_t length)
{
    if (b->failed)
        return;
    if (b->capacity - b->length < length + 1) {
        size_t capacity = (b->length + length + 1) * 2;
        char *bigger = realloc(b->data, capacity);
        if (!bigger) {
            b->failed = true;
            return;
        }
        b->data = bigger;
        b->capacity = capacity;
    }
    memcpy(b->data + b->length, data, length);
    b->length += length;
    b->data[b->length] = 0;
}

void hlsl_append(struct text *b, const char *fmt, ...)
{
    va_list args;
    int n;

    if (b->failed)
        return;
    for (;;) {
        size_t room = b->capacity - b->length;
        va_start(args, fmt);
        n = vsnprintf(b->data ? b->data + b->length : NULL, room, fmt, args);
        va_end(args);
        if (n < 0) {
            b->failed = true;
            return;
        }
        if ((size_t)n < room) {
            b->length += n;
            return;
        }
        {
            size_t capacity = (b->capacity + n + 1) * 2;
            char *bigger = realloc(b->data, capacity);
            if (!bigger) {
                b->failed = true;
                return;
            }
            b->data = bigger;
            b->capacity = capacity;
        }
    }
}

/* ---- shared by the rewrites ---- */

bool hlsl_is_number(const struct rewriter *r, size_t t)
{
    return t < r->token_count && r->tokens[t].kind == TOKEN_NUMBER;
}

int hlsl_text_length(const struct rewriter *r, size_t first, size_t last)
{
    return (int)(r->tokens[last].at + r->tokens[last].length - r->tokens[first].at);
}

bool hlsl_split_type(const struct rewriter *r, size_t t, enum hlsl_scalars kind, const char **scalar, unsigned *rows,
        unsigned *columns)
{
    static const char *const float_scalars[] = {"float", "half", "double", "min16float", "min10float"};
    static const char *const integer_scalars[] = {"int", "uint", "dword", "bool", "min16int", "min12int", "min16uint",
            "int64_t", "uint64_t"};
    const char *const *scalars = kind == HLSL_FLOAT_SCALARS ? float_scalars : integer_scalars;
    size_t scalar_count = kind == HLSL_FLOAT_SCALARS ? sizeof(float_scalars) / sizeof(float_scalars[0])
            : sizeof(integer_scalars) / sizeof(integer_scalars[0]);
    const char *text;
    size_t length;

    if (!hlsl_is_ident(r, t))
        return false;
    text = r->s + r->tokens[t].at;
    length = r->tokens[t].length;
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

void hlsl_refuse(struct rewriter *r, size_t t, const char *format)
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

bool hlsl_is_call(const struct rewriter *r, size_t t, const char *name)
{
    return hlsl_is(r, t, name) && hlsl_is(r, t + 1, "(") && !(t && hlsl_is(r, t - 1, "."))
            && !(t && (hlsl_is_ident(r, t - 1) || hlsl_is(r, t - 1, ">")) && !hlsl_is(r, t - 1, "return")
                && !hlsl_is(r, t - 1, "else") && !hlsl_is(r, t - 1, "case"));
}

unsigned long long hlsl_parse_integer(const struct rewriter *r, size_t t, size_t *used)
{
    char digits[64];
    size_t length = r->tokens[t].length < sizeof(digits) - 1 ? r->tokens[t].length : sizeof(digits) - 1;
    unsigned long long value;
    char *end;

    /* a copy: the source need not end with a NUL */
    memcpy(digits, r->s + r->tokens[t].at, length);
    digits[length] = 0;
    value = strtoull(digits, &end, 0);
    *used = (size_t)(end - digits);
    return value;
}

/* ---- names ---- */

static uint64_t name_hash(const struct rewriter *r, size_t t)
{
    uint64_t hash = 14695981039346656037ull;
    for (size_t i = 0; i < r->tokens[t].length; i++)
        hash = (hash ^ (unsigned char)r->s[r->tokens[t].at + i]) * 1099511628211ull;
    return hash;
}

/* The slot of the name of token t: its entry, or the empty slot where it goes. */
static size_t name_slot(const struct rewriter *r, const struct hlsl_names *names, size_t t)
{
    size_t mask = names->capacity - 1, slot = (size_t)name_hash(r, t) & mask;

    while (names->entries[slot].value && !hlsl_same_text(r, names->entries[slot].token, t))
        slot = (slot + 1) & mask;
    return slot;
}

bool hlsl_names_add(const struct rewriter *r, struct hlsl_names *names, size_t t, int value)
{
    size_t slot;

    if ((names->count + 1) * 2 > names->capacity) {
        struct hlsl_names bigger = {0};
        bigger.capacity = names->capacity ? names->capacity * 2 : 64;
        if (!(bigger.entries = calloc(bigger.capacity, sizeof(*bigger.entries))))
            return false;
        for (size_t i = 0; i < names->capacity; i++)
            if (names->entries[i].value)
                bigger.entries[name_slot(r, &bigger, names->entries[i].token)] = names->entries[i];
        bigger.count = names->count;
        free(names->entries);
        *names = bigger;
    }
    slot = name_slot(r, names, t);
    if (!names->entries[slot].value) {
        names->entries[slot].token = t;
        names->entries[slot].value = value;
        names->count++;
    } else if (names->entries[slot].value != value) {
        names->entries[slot].value = HLSL_NAME_CONFLICT;
    }
    return true;
}

int hlsl_names_get(const struct rewriter *r, const struct hlsl_names *names, size_t t)
{
    return names->capacity && hlsl_is_ident(r, t) ? names->entries[name_slot(r, names, t)].value : 0;
}

void hlsl_names_free(struct hlsl_names *names)
{
    free(names->entries);
    memset(names, 0, sizeof(*names));
}
