/* shader_runner: the pieces of a test that several section parsers add: shaders and [run] steps. */
#include "shader_runner.h"

const char *default_profile(enum shader_stage stage)
{
    static const char *const profiles[STAGE_COUNT] = {"cs_6_0", "vs_5_1", "hs_5_1", "ds_5_1", "gs_5_1", "ps_5_1"};
    return profiles[stage];
}

void shader_append(struct shader_def *s, const char *line)
{
    size_t n = strlen(line);
    if (s->source_length + n + 2 > s->source_capacity) {
        size_t capacity = (s->source_capacity + n + 2) * 2;
        char *source = xcalloc(capacity, 1);
        if (s->source)
            memcpy(source, s->source, s->source_length);
        free(s->source);
        s->source = source;
        s->source_capacity = capacity;
    }
    memcpy(s->source + s->source_length, line, n);
    s->source_length += n;
    s->source[s->source_length++] = '\n';
    s->source[s->source_length] = 0;
}

void parse_shader_header(struct test *t, char **tokens, unsigned count, enum shader_stage stage, int line)
{
    struct shader_def *s;
    if (t->shader_count == MAX_SHADERS) {
        FAIL_AT(line, "at most %d shaders", MAX_SHADERS);
        return;
    }
    s = &t->shaders[t->shader_count++];
    snprintf(s->name, sizeof(s->name), "shader%u", t->shader_count - 1);
    copy_name(s->entry, sizeof(s->entry), "main");
    copy_name(s->profile, sizeof(s->profile), default_profile(stage));
    s->stage = stage;
    s->line = line;
    /* Blank lines so the compiler's line numbers are the file's. */
    for (int i = 0; i < line; i++)
        shader_append(s, "");
    for (unsigned i = 0; i < count; i++) {
        const char *v;
        if ((v = option(tokens[i], "entry"))) {
            copy_name(s->entry, sizeof(s->entry), v);
        } else if ((v = option(tokens[i], "profile"))) {
            copy_name(s->profile, sizeof(s->profile), v);
        } else if ((v = option(tokens[i], "define"))) {
            char *text, *eq;
            if (s->define_count == MAX_DEFINES) {
                FAIL_AT(line, "at most %d defines", MAX_DEFINES);
                continue;
            }
            text = s->define_text[s->define_count] = xstrdup(v);
            s->defines[s->define_count].Name = text;
            if ((eq = strchr(text, '='))) {
                *eq = 0;
                s->defines[s->define_count].Definition = eq + 1;
            } else {
                s->defines[s->define_count].Definition = "1";
            }
            s->define_count++;
        } else if (!strchr(tokens[i], '=')) {
            copy_name(s->name, sizeof(s->name), tokens[i]);
        } else {
            FAIL_AT(line, "unknown shader option '%s' (entry=, profile=, define=NAME[=VALUE])", tokens[i]);
        }
    }
}

struct step *new_step(struct test *t, enum step_type type, int line)
{
    struct step *s;
    if (t->step_count == t->step_capacity) {
        unsigned capacity = t->step_capacity ? t->step_capacity * 2 : 16;
        struct step *steps = xcalloc(capacity, sizeof(*steps));
        if (t->steps)
            memcpy(steps, t->steps, t->step_count * sizeof(*steps));
        free(t->steps);
        t->steps = steps;
        t->step_capacity = capacity;
    }
    s = &t->steps[t->step_count++];
    memset(s, 0, sizeof(*s));
    s->type = type;
    s->line = line;
    return s;
}
