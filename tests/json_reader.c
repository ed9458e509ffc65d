/* The tests' JSON reader (json_reader.h): recursive descent over the text. */
#include <stdlib.h>
#include <string.h>

#include "json_reader.h"

struct reader {
    const char *text;
    size_t length, at;
    bool failed;
    unsigned depth;
};

static void skip_space(struct reader *r)
{
    while (r->at < r->length && (r->text[r->at] == ' ' || r->text[r->at] == '\n' || r->text[r->at] == '\r' || r->text[r->at] == '\t'))
        r->at++;
}

static bool take(struct reader *r, const char *word)
{
    size_t n = strlen(word);
    if (r->length - r->at < n || memcmp(r->text + r->at, word, n))
        return false;
    r->at += n;
    return true;
}

static bool parse_value(struct reader *r, struct json *out);

static char *parse_string(struct reader *r)
{
    char *out;
    size_t n = 0;

    if (r->at >= r->length || r->text[r->at] != '"' || !(out = malloc(r->length - r->at)))
        return NULL;
    r->at++;
    while (r->at < r->length && r->text[r->at] != '"') {
        unsigned char c = (unsigned char)r->text[r->at++];
        if (c < 0x20)
            goto fail;
        if (c != '\\') {
            out[n++] = (char)c;
            continue;
        }
        if (r->at >= r->length)
            goto fail;
        switch (r->text[r->at++]) {
        case '"': out[n++] = '"'; break;
        case '\\': out[n++] = '\\'; break;
        case '/': out[n++] = '/'; break;
        case 'b': out[n++] = '\b'; break;
        case 'f': out[n++] = '\f'; break;
        case 'n': out[n++] = '\n'; break;
        case 'r': out[n++] = '\r'; break;
        case 't': out[n++] = '\t'; break;
        case 'u': {
            unsigned value = 0;
            for (int i = 0; i < 4; i++, r->at++) {
                char h = r->at < r->length ? r->text[r->at] : 0;
                if (!((h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F')))
                    goto fail;
                value = value * 16 + (unsigned)(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
            }
            out[n++] = value < 0x80 ? (char)value : '?';
            break;
        }
        default:
            goto fail;
        }
    }
    if (r->at >= r->length)
        goto fail;
    r->at++;
    out[n] = 0;
    return out;
fail:
    free(out);
    return NULL;
}

static bool parse_number(struct reader *r, struct json *out)
{
    size_t start = r->at;
    char buffer[64];
    if (r->at < r->length && r->text[r->at] == '-')
        r->at++;
    if (r->at >= r->length || r->text[r->at] < '0' || r->text[r->at] > '9')
        return false;
    if (r->text[r->at] == '0')
        r->at++;
    else
        while (r->at < r->length && r->text[r->at] >= '0' && r->text[r->at] <= '9')
            r->at++;
    if (r->at < r->length && r->text[r->at] == '.') {
        r->at++;
        if (r->at >= r->length || r->text[r->at] < '0' || r->text[r->at] > '9')
            return false;
        while (r->at < r->length && r->text[r->at] >= '0' && r->text[r->at] <= '9')
            r->at++;
    }
    if (r->at < r->length && (r->text[r->at] == 'e' || r->text[r->at] == 'E')) {
        r->at++;
        if (r->at < r->length && (r->text[r->at] == '+' || r->text[r->at] == '-'))
            r->at++;
        if (r->at >= r->length || r->text[r->at] < '0' || r->text[r->at] > '9')
            return false;
        while (r->at < r->length && r->text[r->at] >= '0' && r->text[r->at] <= '9')
            r->at++;
    }
    if (r->at - start >= sizeof(buffer))
        return false;
    memcpy(buffer, r->text + start, r->at - start);
    buffer[r->at - start] = 0;
    out->type = JSON_NUMBER;
    out->number = strtod(buffer, NULL);
    return true;
}

/* Arrays and objects: values (and keys) appended one by one. */
static bool parse_container(struct reader *r, struct json *out, bool object)
{
    size_t capacity = 0;
    out->type = object ? JSON_OBJECT : JSON_ARRAY;
    r->at++;
    skip_space(r);
    if (r->at < r->length && r->text[r->at] == (object ? '}' : ']')) {
        r->at++;
        return true;
    }
    for (;;) {
        char *key = NULL;
        skip_space(r);
        if (object) {
            if (!(key = parse_string(r)))
                return false;
            skip_space(r);
            if (!take(r, ":")) {
                free(key);
                return false;
            }
        }
        if (out->count == capacity) {
            size_t bigger = capacity ? capacity * 2 : 8;
            struct json *items = realloc(out->items, bigger * sizeof(*items));
            char **keys = items && object ? realloc(out->keys, bigger * sizeof(*keys)) : NULL;
            if (items)
                out->items = items;
            if (keys)
                out->keys = keys;
            if (!items || (object && !keys)) {
                free(key);
                return false;
            }
            capacity = bigger;
        }
        memset(&out->items[out->count], 0, sizeof(out->items[0]));
        if (object)
            out->keys[out->count] = key;
        out->count++;
        if (!parse_value(r, &out->items[out->count - 1]))
            return false;
        skip_space(r);
        if (take(r, ","))
            continue;
        return take(r, object ? "}" : "]");
    }
}

static bool parse_value(struct reader *r, struct json *out)
{
    bool ok;
    skip_space(r);
    if (r->at >= r->length || r->depth > 64)
        return false;
    switch (r->text[r->at]) {
    case '{': case '[':
        r->depth++;
        ok = parse_container(r, out, r->text[r->at] == '{');
        r->depth--;
        return ok;
    case '"':
        out->type = JSON_STRING;
        return (out->string = parse_string(r)) != NULL;
    case 't': out->type = JSON_BOOL, out->boolean = true; return take(r, "true");
    case 'f': out->type = JSON_BOOL, out->boolean = false; return take(r, "false");
    case 'n': out->type = JSON_NULL; return take(r, "null");
    default: return parse_number(r, out);
    }
}

static void free_contents(struct json *value)
{
    for (size_t i = 0; i < value->count; i++) {
        free_contents(&value->items[i]);
        if (value->keys)
            free(value->keys[i]);
    }
    free(value->items);
    free(value->keys);
    free(value->string);
}

struct json *json_parse(const char *text, size_t length, size_t *error_offset)
{
    struct reader r = {text, length, 0, false, 0};
    struct json *root = calloc(1, sizeof(*root));
    if (root && parse_value(&r, root)) {
        skip_space(&r);
        if (r.at == length)
            return root;
    }
    if (error_offset)
        *error_offset = r.at;
    json_free(root);
    return NULL;
}

void json_free(struct json *value)
{
    if (!value)
        return;
    free_contents(value);
    free(value);
}

const struct json *json_member(const struct json *object, const char *key)
{
    for (size_t i = 0; object && object->type == JSON_OBJECT && i < object->count; i++)
        if (!strcmp(object->keys[i], key))
            return &object->items[i];
    return NULL;
}

const char *json_string(const struct json *object, const char *key)
{
    const struct json *member = json_member(object, key);
    return member && member->type == JSON_STRING ? member->string : "";
}

double json_number(const struct json *object, const char *key, double missing)
{
    const struct json *member = json_member(object, key);
    return member && member->type == JSON_NUMBER ? member->number : missing;
}
