/* shader_runner: the `fill`/`each` expressions of [buffer], [texture] and [expect] lines. */
#include "shader_runner.h"

/* ---- expressions: integers (int64) and floats (double) with C promotion rules ---- */

struct expr {
    const char *p;
    int64_t index, lanes;
    const char *error;
    const struct texel_space *space; /* a texture's subresource, or NULL */
    size_t offset;                   /* textures: the element's byte offset in the subresource */
    unsigned value_size;             /* textures: the element's size in bytes */
};

struct let lets[MAX_LETS];
unsigned let_count;
static unsigned let_depth;

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
bool evaluate(const char *text, int64_t index, int64_t lanes, const struct texel_space *space, size_t offset,
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
