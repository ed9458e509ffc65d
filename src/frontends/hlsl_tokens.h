/* src/frontends/hlsl_tokens.c: the tokens and edits the source rewrites of D3DCompile work with
 * (hlsl_rewrite.c, hlsl_rewrite_d3d.c). Internal to those files. */
#ifndef D3D12XS_FRONTENDS_HLSL_TOKENS_H
#define D3D12XS_FRONTENDS_HLSL_TOKENS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum token_kind { TOKEN_IDENT, TOKEN_NUMBER, TOKEN_PUNCT };

struct token {
    size_t at, length;
    enum token_kind kind;
    bool directive; /* on a preprocessor line */
};

struct edit {
    size_t at, remove;  /* bytes of the source replaced */
    char *text;         /* inserted (owned) */
    size_t order;       /* creation order, for stable sorting of edits at one place */
};

struct text {
    char *data;
    size_t length, capacity;
    bool failed;
};

struct rewriter {
    const char *s;
    size_t length;
    struct token *tokens;
    size_t token_count;
    size_t *pair; /* per token: its matching bracket, or token_count (hlsl_tokenize) */
    struct edit *edits;
    size_t edit_count, edit_capacity;
    uint64_t needs; /* NEED_* */
    unsigned *serial;
    struct text *front; /* declarations moved to the start of the file: they go before `#line 1` */
    bool failed;
};

/* helpers a rewrite calls, declared in the prelude (hlsl_rewrite.c) */
enum {
    NEED_DISCARD = 1,
    NEED_LIT = 2,
    NEED_ALL_EQUAL = 4,
    NEED_MUL = 8,
    NEED_LDEXP = 16,
    NEED_MAD = 32,
    NEED_CONVERT = 64,     /* __d3d12xs_to_int / _to_uint (hlsl_rewrite_literals.c) */
    NEED_FMOD = 128,       /* __d3d12xs_fmod (hlsl_rewrite_literals.c) */
    NEED_VECTOR = 256,     /* __d3d12xs_vector (hlsl_rewrite_types.c) */
    NEED_ASUINT = 512,     /* __d3d12xs_asuint (hlsl_rewrite_types.c) */
    NEED_UINT64 = 1024,    /* __d3d12xs_to_uint64, __d3d12xs_uint64 (hlsl_rewrite_types.c) */
    NEED_SIGN = 2048,      /* __d3d12xs_sign (hlsl_rewrite_types.c) */
    NEED_NONUNIFORM = 4096, /* __d3d12xs_nonuniform: NonUniformResourceIndex (spirv/spirv_finish_hlsl.c) */
};
/* bit NEED_MATRIX_SHIFT + i: the matrix overloads of intrinsic i of hlsl_rewrite_types.c */
#define NEED_MATRIX_SHIFT 16

/* Splits r->s into r->tokens (comments dropped, strings one punctuation token) and pairs their
 * brackets; the caller frees r->tokens and r->pair. */
bool hlsl_tokenize(struct rewriter *r);
/* Token t exists and spells text. */
bool hlsl_is(const struct rewriter *r, size_t t, const char *text);
bool hlsl_is_ident(const struct rewriter *r, size_t t);
bool hlsl_same_text(const struct rewriter *r, size_t a, size_t b);
/* The token closing the bracket opened at token `open` ((, [ or {), or token_count (also when
 * `open` is no opening bracket). */
size_t hlsl_closing(const struct rewriter *r, size_t open);
/* The token opening the bracket closed at token `close`, or token_count. */
size_t hlsl_opening(const struct rewriter *r, size_t close);
/* Replaces `remove` bytes at `at` by the formatted text (r->failed when out of memory). */
void hlsl_add_edit(struct rewriter *r, size_t at, size_t remove, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Replaces token t by text. */
void hlsl_replace_token(struct rewriter *r, size_t t, const char *text);
/* qsort() order of edits: by place, then creation. */
int hlsl_compare_edits(const void *a, const void *b);
void hlsl_append_bytes(struct text *b, const char *data, size_t length);
void hlsl_append(struct text *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

enum hlsl_scalars { HLSL_FLOAT_SCALARS, HLSL_INTEGER_SCALARS };

bool hlsl_is_number(const struct rewriter *r, size_t t);
/* The length of the text of tokens [first, last]. */
int hlsl_text_length(const struct rewriter *r, size_t first, size_t last);
/* Splits the text of token t into a scalar type name (float, half, double, min16float,
 * min10float; or int, uint, dword, bool, min16int, min12int, min16uint, int64_t, uint64_t) and a
 * suffix: "", "N" or "RxC" (*rows 0 for a vector or scalar, *columns 0 for a scalar). */
bool hlsl_split_type(const struct rewriter *r, size_t t, enum hlsl_scalars kind, const char **scalar, unsigned *rows,
        unsigned *columns);
/* Refuses the construct at token t with an `#error` line put before its line (the text is
 * preprocessed: the message has the user's file and line number); format names the token's
 * text with %.*s and must not hold a quote (glslang reads the #error line as tokens). */
void hlsl_refuse(struct rewriter *r, size_t t, const char *format);
/* The integer a number token starts with (strtoull's rules, base from the prefix), and in *used
 * how many of the token's characters it took. */
unsigned long long hlsl_parse_integer(const struct rewriter *r, size_t t, size_t *used);
/* A set of names (the text of identifier tokens), each with a value other than 0; a name added
 * again with another value gets HLSL_NAME_CONFLICT. Lookups take constant time. */
struct hlsl_names {
    struct { size_t token; int value; } *entries;
    size_t count, capacity;
};
#define HLSL_NAME_CONFLICT (-1)
/* False when out of memory. */
bool hlsl_names_add(const struct rewriter *r, struct hlsl_names *names, size_t t, int value);
/* The value of the name of token t, 0 when it is none of the names. */
int hlsl_names_get(const struct rewriter *r, const struct hlsl_names *names, size_t t);
void hlsl_names_free(struct hlsl_names *names);
/* Token t calls the function name: followed by `(`, not a member, not its declaration. */
bool hlsl_is_call(const struct rewriter *r, size_t t, const char *name);

#endif
