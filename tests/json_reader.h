/* A small JSON reader for tests (the trace file, docs/trace.md): the whole text into a tree,
 * strict RFC 8259 syntax, or NULL with the byte offset of the first error. */
#ifndef D3D12XS_TEST_JSON_READER_H
#define D3D12XS_TEST_JSON_READER_H

#include <stdbool.h>
#include <stddef.h>

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json {
    enum json_type type;
    bool boolean;
    double number;
    char *string;             /* JSON_STRING: decoded (\uXXXX above 0x7f as '?'); an object member's key */
    struct json *items;       /* JSON_ARRAY and JSON_OBJECT: count values (objects: key in ->key) */
    char **keys;
    size_t count;
};

struct json *json_parse(const char *text, size_t length, size_t *error_offset);
void json_free(struct json *value);
/* The member of an object, or NULL. */
const struct json *json_member(const struct json *object, const char *key);
/* The member's string or number, with a default when it is missing or of another type. */
const char *json_string(const struct json *object, const char *key);
double json_number(const struct json *object, const char *key, double missing);

#endif
