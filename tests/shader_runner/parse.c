/* shader_runner: parsing of a test: its sections ([shader], [root_signature], [run], [expect], [fail], ...). */
#include "shader_runner.h"

/* ---- section parsers ---- */

static void parse_space_option(char **tokens, unsigned count, UINT *space, int line)
{
    for (unsigned i = 0; i < count; i++) {
        const char *v = option(tokens[i], "space");
        if (v && !parse_uint(v, space))
            FAIL_AT(line, "bad space '%s'", v);
    }
}

static void parse_root_signature_line(struct test *t, char **tokens, unsigned count, int line)
{
    D3D12_ROOT_PARAMETER1 *p;
    const char *kind = tokens[0];
    D3D12_SHADER_VISIBILITY visibility = D3D12_SHADER_VISIBILITY_ALL;
    unsigned kept = 0;

    /* visibility= applies to any parameter and static sampler; the other options see the rest. */
    for (unsigned i = 0; i < count; i++) {
        static const char *const names[] = {"all", "vertex", "hull", "domain", "geometry", "pixel"};
        const char *v = option(tokens[i], "visibility");
        bool known = false;
        if (!v) {
            tokens[kept++] = tokens[i];
            continue;
        }
        for (unsigned n = 0; n < sizeof(names) / sizeof(names[0]); n++)
            if (!strcmp(v, names[n]))
                visibility = (D3D12_SHADER_VISIBILITY)n, known = true;
        if (!known)
            FAIL_AT(line, "bad visibility '%s' (all, vertex, hull, domain, geometry, pixel)", v);
    }
    count = kept;

    if (!strcmp(kind, "range")) {
        D3D12_DESCRIPTOR_RANGE1 *r;
        D3D12_ROOT_DESCRIPTOR_TABLE1 *table;
        static const char classes[] = "tubs"; /* SRV, UAV, CBV, SAMPLER: the range type order */
        static const char *const names[] = {"srv", "uav", "cbv", "sampler"};
        int type = -1;
        if (t->current_table < 0) {
            FAIL_AT(line, "'range' outside a table (start one with 'table')");
            return;
        }
        table = &t->params[t->current_table].DescriptorTable;
        if (table->NumDescriptorRanges == MAX_RANGES || count < 3) {
            FAIL_AT(line, "range: expected 'range srv|uav|cbv|sampler REGISTER [count=N|unbounded] [offset=N|append] [space=N]'");
            return;
        }
        for (int i = 0; i < 4; i++)
            if (!strcmp(tokens[1], names[i]))
                type = i;
        if (type < 0) {
            FAIL_AT(line, "unknown range type '%s'", tokens[1]);
            return;
        }
        r = &t->ranges[t->current_table][table->NumDescriptorRanges++];
        memset(r, 0, sizeof(*r));
        r->RangeType = (D3D12_DESCRIPTOR_RANGE_TYPE)type;
        r->NumDescriptors = 1;
        r->OffsetInDescriptorsFromTableStart = D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND;
        parse_register(tokens[2], classes[type], &r->BaseShaderRegister, line);
        for (unsigned i = 3; i < count; i++) {
            const char *v;
            if ((v = option(tokens[i], "count"))) {
                if (!strcmp(v, "unbounded"))
                    r->NumDescriptors = UINT32_MAX;
                else if (!parse_uint(v, &r->NumDescriptors))
                    FAIL_AT(line, "bad count '%s'", v);
            } else if ((v = option(tokens[i], "offset"))) {
                if (!strcmp(v, "append"))
                    r->OffsetInDescriptorsFromTableStart = D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND;
                else if (!parse_uint(v, &r->OffsetInDescriptorsFromTableStart))
                    FAIL_AT(line, "bad offset '%s'", v);
            } else if (!option(tokens[i], "space")) {
                FAIL_AT(line, "unknown range option '%s'", tokens[i]);
            }
        }
        parse_space_option(tokens + 3, count - 3, &r->RegisterSpace, line);
        return;
    }
    if (!strcmp(kind, "sampler")) {
        D3D12_STATIC_SAMPLER_DESC *s;
        D3D12_SAMPLER_DESC desc;
        char *options[MAX_TOKENS];
        unsigned option_count = 0;
        if (t->sampler_count == MAX_SAMPLERS || count < 2) {
            FAIL_AT(line, "sampler: expected 'sampler sN [space=N] [filter=...] [address=...] [border=...] ...'");
            return;
        }
        s = &t->samplers[t->sampler_count++];
        memset(s, 0, sizeof(*s));
        parse_register(tokens[1], 's', &s->ShaderRegister, line);
        parse_space_option(tokens + 2, count - 2, &s->RegisterSpace, line);
        for (unsigned i = 2; i < count; i++)
            if (!option(tokens[i], "space"))
                options[option_count++] = tokens[i];
        sampler_defaults(&desc);
        parse_sampler_options(options, option_count, &desc, line);
        s->Filter = desc.Filter;
        s->AddressU = desc.AddressU;
        s->AddressV = desc.AddressV;
        s->AddressW = desc.AddressW;
        s->MipLODBias = desc.MipLODBias;
        s->MaxAnisotropy = desc.MaxAnisotropy;
        s->ComparisonFunc = desc.ComparisonFunc;
        s->MinLOD = desc.MinLOD;
        s->MaxLOD = desc.MaxLOD;
        s->ShaderVisibility = visibility;
        /* Static samplers have three border colours. */
        if (desc.BorderColor[0] == 0.0f && desc.BorderColor[1] == 0.0f && desc.BorderColor[2] == 0.0f && desc.BorderColor[3] == 0.0f)
            s->BorderColor = D3D12_STATIC_BORDER_COLOR_TRANSPARENT_BLACK;
        else if (desc.BorderColor[0] == 0.0f && desc.BorderColor[1] == 0.0f && desc.BorderColor[2] == 0.0f && desc.BorderColor[3] == 1.0f)
            s->BorderColor = D3D12_STATIC_BORDER_COLOR_OPAQUE_BLACK;
        else if (desc.BorderColor[0] == 1.0f && desc.BorderColor[1] == 1.0f && desc.BorderColor[2] == 1.0f && desc.BorderColor[3] == 1.0f)
            s->BorderColor = D3D12_STATIC_BORDER_COLOR_OPAQUE_WHITE;
        else
            FAIL_AT(line, "a static sampler's border is transparent_black (0,0,0,0), opaque_black (0,0,0,1) or opaque_white (1,1,1,1)");
        return;
    }

    if (t->param_count == MAX_PARAMS) {
        FAIL_AT(line, "at most %d root parameters", MAX_PARAMS);
        return;
    }
    p = &t->params[t->param_count];
    memset(p, 0, sizeof(*p));
    p->ShaderVisibility = visibility;
    t->current_table = -1;
    if (!strcmp(kind, "table")) {
        p->ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
        p->DescriptorTable.pDescriptorRanges = t->ranges[t->param_count];
        t->current_table = (int)t->param_count;
    } else if (!strcmp(kind, "constants")) {
        p->ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
        if (count < 2 || !parse_register(tokens[1], 'b', &p->Constants.ShaderRegister, line))
            return;
        for (unsigned i = 2; i < count; i++) {
            const char *v = option(tokens[i], "count");
            if (v && !parse_uint(v, &p->Constants.Num32BitValues))
                FAIL_AT(line, "bad count '%s'", v);
        }
        parse_space_option(tokens + 2, count - 2, &p->Constants.RegisterSpace, line);
    } else if (!strcmp(kind, "cbv") || !strcmp(kind, "srv") || !strcmp(kind, "uav")) {
        char cls = kind[0] == 'c' ? 'b' : kind[0] == 's' ? 't' : 'u';
        p->ParameterType = cls == 'b' ? D3D12_ROOT_PARAMETER_TYPE_CBV : cls == 't' ? D3D12_ROOT_PARAMETER_TYPE_SRV : D3D12_ROOT_PARAMETER_TYPE_UAV;
        if (count < 2 || !parse_register(tokens[1], cls, &p->Descriptor.ShaderRegister, line))
            return;
        parse_space_option(tokens + 2, count - 2, &p->Descriptor.RegisterSpace, line);
    } else {
        FAIL_AT(line, "unknown root signature entry '%s' (constants, cbv, srv, uav, table, range, sampler)", kind);
        return;
    }
    t->param_count++;
}

static void parse_run_line(struct test *t, char **tokens, unsigned count, int line)
{
    const char *cmd = tokens[0];
    struct step *s;

    if (!strcmp(cmd, "pipeline")) {
        if (count != 2) {
            FAIL_AT(line, "expected 'pipeline SHADER_NAME|none'");
            return;
        }
        int pipeline = find_pipeline(t, tokens[1]);
        if (pipeline >= 0) {
            s = new_step(t, STEP_GRAPHICS_PIPELINE, line);
            s->param = (unsigned)pipeline;
            return;
        }
        s = new_step(t, STEP_PIPELINE, line);
        s->shader = -1;
        if (strcmp(tokens[1], "none") && (s->shader = find_shader(t, tokens[1])) < 0)
            FAIL_AT(line, "no shader or [pipeline] named '%s'", tokens[1]);
    } else if (!strcmp(cmd, "constants") || !strcmp(cmd, "constant")) {
        bool single = !strcmp(cmd, "constant");
        unsigned first = 2;
        s = new_step(t, single ? STEP_CONSTANT : STEP_CONSTANTS, line);
        if (count < 3 || !parse_uint(tokens[1], &s->param)) {
            FAIL_AT(line, "expected '%s PARAM [offset=N] VALUES...'", cmd);
            return;
        }
        const char *o = option(tokens[2], "offset");
        if (o) {
            if (!parse_uint(o, &s->value_offset))
                FAIL_AT(line, "bad offset '%s'", o);
            first = 3;
        }
        s->values = xcalloc(count, sizeof(*s->values));
        for (unsigned i = first; i < count; i++) {
            if (!parse_bits32(tokens[i], looks_float(tokens[i]) ? TYPE_FLOAT : TYPE_UINT, &s->values[s->value_count++]))
                FAIL_AT(line, "bad constant '%s'", tokens[i]);
        }
        if (single && s->value_count != 1)
            FAIL_AT(line, "'constant' sets one value (use 'constants' for several)");
    } else if (!strcmp(cmd, "cbv") || !strcmp(cmd, "srv") || !strcmp(cmd, "uav")) {
        s = new_step(t, cmd[0] == 'c' ? STEP_CBV : cmd[0] == 's' ? STEP_SRV : STEP_UAV, line);
        if (count != 3 || !parse_uint(tokens[1], &s->param)) {
            FAIL_AT(line, "expected '%s PARAM BUFFER[+OFFSET]'", cmd);
            return;
        }
        if (parse_buffer_ref(t, tokens[2], &s->buffer, &s->offset, line)) {
            if (s->type == STEP_UAV)
                t->buffers[s->buffer].uav_use = true;
            else
                t->buffers[s->buffer].read_use = true;
        }
    } else if (!strcmp(cmd, "table")) {
        s = new_step(t, STEP_TABLE, line);
        UINT index;
        if (count != 3 || !parse_uint(tokens[1], &s->param) || !parse_uint(tokens[2], &index)) {
            FAIL_AT(line, "expected 'table PARAM HEAP_INDEX'");
            return;
        }
        s->offset = index;
    } else if (!strcmp(cmd, "dispatch")) {
        s = new_step(t, STEP_DISPATCH, line);
        s->groups[1] = s->groups[2] = 1;
        if (count < 2 || count > 4) {
            FAIL_AT(line, "expected 'dispatch X [Y [Z]]'");
            return;
        }
        for (unsigned i = 1; i < count; i++)
            if (!parse_uint(tokens[i], &s->groups[i - 1]))
                FAIL_AT(line, "bad group count '%s'", tokens[i]);
    } else if (!strcmp(cmd, "barrier")) {
        new_step(t, STEP_BARRIER, line);
    } else if (!parse_graphics_run_line(t, tokens, count, line)) {
        FAIL_AT(line, "unknown run command '%s' (pipeline, constants, constant, cbv, srv, uav, table, dispatch, barrier, draw, "
                "draw_indexed, viewport, scissor, blend_factor, stencil_ref, clear_rt, clear_ds)", cmd);
    }
}

/* A line of [expect BUFFER] or of [expect texture NAME ...] (texture >= 0, its subresource). */
static void parse_expect_line(struct test *t, int buffer, int texture, unsigned subresource, size_t *cursor, char *text, int line)
{
    char *tokens[MAX_TOKENS], *colon = strchr(text, ':');
    struct expect_item *item;
    unsigned count;
    enum value_type type;

    if (strchr(text, '#'))
        *strchr(text, '#') = 0; /* comment */
    if (parse_let(text, line))
        return;
    colon = strchr(text, ':');

    if (colon)
        *colon = 0;
    count = tokenize(text, tokens, MAX_TOKENS);
    if (!count)
        return;
    if (!strcmp(tokens[0], "at")) {
        uint64_t offset;
        if (count != 2 || !parse_u64(tokens[1], &offset))
            FAIL_AT(line, "expected 'at BYTE_OFFSET'");
        else
            *cursor = offset;
        return;
    }
    if (t->expect_count == t->expect_capacity) {
        unsigned capacity = t->expect_capacity ? t->expect_capacity * 2 : 8;
        struct expect_item *items = xcalloc(capacity, sizeof(*items));
        if (t->expects)
            memcpy(items, t->expects, t->expect_count * sizeof(*items));
        free(t->expects);
        t->expects = items;
        t->expect_capacity = capacity;
    }
    item = &t->expects[t->expect_count];
    memset(item, 0, sizeof(*item));
    item->buffer = buffer;
    item->texture = texture;
    item->subresource = subresource;
    item->line = line;
    item->stride = 4;
    bool probe = !strcmp(tokens[0], "probe");
    if (probe) {
        /* "probe X [Y [Z]] TYPE [tol=X] V...": a list from texel (X, Y, Z). */
        UINT xyz[3] = {0, 0, 0};
        unsigned n = 1;
        struct texel_space space;
        if (texture < 0) {
            FAIL_AT(line, "'probe' checks textures; buffers take 'at BYTE_OFFSET'");
            return;
        }
        space = texture_space(&t->textures[texture], subresource, NULL);
        if (count > 1 && !strcmp(tokens[1], "all")) {
            /* "probe all TYPE [tol=X] V...": every texel of the subresource's first slice. */
            item->rect_width = space.width, item->rect_height = space.height;
            n = 2;
        } else if (count > 1 && !strcmp(tokens[1], "rect")) {
            /* "probe rect X Y W H TYPE [tol=X] V...": every texel of the rectangle. */
            if (count < 7 || !parse_uint(tokens[2], &xyz[0]) || !parse_uint(tokens[3], &xyz[1])
                    || !parse_uint(tokens[4], &item->rect_width) || !parse_uint(tokens[5], &item->rect_height)
                    || !item->rect_width || !item->rect_height || xyz[0] + item->rect_width > space.width
                    || xyz[1] + item->rect_height > space.height) {
                FAIL_AT(line, "expected 'probe rect X Y WIDTH HEIGHT TYPE [tol=X] VALUES...' inside the %ux%u subresource", space.width,
                        space.height);
                return;
            }
            n = 6;
        } else {
            while (n < count && n < 4 && parse_uint(tokens[n], &xyz[n - 1]))
                n++;
        }
        if (n == 1 || n == count || !parse_type(tokens[n], &type)) {
            FAIL_AT(line, "expected 'probe X [Y [Z]] " VALUE_TYPE_NAMES " [tol=X] VALUES...'");
            return;
        }
        if (xyz[0] >= space.width || xyz[1] >= space.height || xyz[2] >= space.depth) {
            FAIL_AT(line, "probe (%u, %u, %u) is outside the %ux%ux%u subresource", xyz[0], xyz[1], xyz[2], space.width, space.height,
                    space.depth);
            return;
        }
        *cursor = (((size_t)xyz[2] * space.height + xyz[1]) * space.width + xyz[0]) * space.texel_bytes;
        memmove(tokens, tokens + n, (count - n) * sizeof(*tokens));
        count -= n;
    }
    item->offset = *cursor;
    if (!strcmp(tokens[0], "each")) {
        if (!colon) {
            FAIL_AT(line, "each needs ': EXPRESSION'");
            return;
        }
        if (!parse_formula_head(tokens, count, &item->type, &item->count, &item->stride, &item->tolerance, line))
            return;
        item->kind = EXPECT_EACH;
        item->formula = xstrdup(colon + 1);
    } else if (parse_type(tokens[0], &type)) {
        unsigned first = 1;
        const char *o;
        item->kind = EXPECT_LIST;
        item->type = type;
        item->stride = value_types[type].size;
        if (count > 1 && (o = option(tokens[1], "tol"))) {
            item->tolerance = strtod(o, NULL);
            first = 2;
        }
        item->values = xcalloc(count, sizeof(*item->values));
        for (unsigned i = first; i < count; i++)
            item->values[item->count++] = xstrdup(tokens[i]);
        if (probe && !item->count)
            FAIL_AT(line, "'probe' needs the values of the texel");
    } else {
        FAIL_AT(line, "unknown expect line '%s' (" VALUE_TYPE_NAMES " [tol=X] VALUES, each TYPE COUNT: EXPR, at OFFSET%s)", tokens[0],
                texture >= 0 ? ", probe X [Y [Z]] TYPE VALUES" : "");
        return;
    }
    *cursor += item->count * item->stride;
    if (item->rect_width && item->kind != EXPECT_LIST) {
        FAIL_AT(line, "'probe rect' and 'probe all' take a list of values, not 'each'");
        return;
    }
    t->expect_count++;
}

static void parse_fail_line(struct test *t, char **tokens, unsigned count, int line)
{
    if (!strcmp(tokens[0], "hr") && count == 2) {
        if (!parse_hresult(tokens[1], &t->fail_hr))
            FAIL_AT(line, "unknown HRESULT '%s'", tokens[1]);
        t->fail_has_hr = true;
    } else if (!strcmp(tokens[0], "log") && count >= 2) {
        for (unsigned i = 1; i < count; i++) {
            if (t->fail_needle_count == MAX_NEEDLES) {
                FAIL_AT(line, "at most %d log substrings", MAX_NEEDLES);
                return;
            }
            copy_name(t->fail_needles[t->fail_needle_count++], sizeof(t->fail_needles[0]), tokens[i]);
        }
    } else {
        FAIL_AT(line, "expected 'hr NAME' or 'log \"substring\"...'");
    }
}

static bool is_section(const char *line, const char **name_end, const char **keyword)
{
    static const char *const keywords[] = {"shader", "root_signature", "buffer", "texture", "views", "samplers", "run", "expect", "fail",
            "known_bug", "test", "require", "vertex shader", "pixel shader", "geometry shader", "hull shader", "domain shader",
            "input_layout", "vertex_buffer", "index_buffer", "render_target", "depth_stencil", "pipeline"};
    if (line[0] != '[')
        return false;
    for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++) {
        size_t n = strlen(keywords[i]);
        if (!strncmp(line + 1, keywords[i], n) && (line[1 + n] == ']' || line[1 + n] == ' ')) {
            *keyword = keywords[i];
            *name_end = line + 1 + n;
            return true;
        }
    }
    return false;
}

bool parse_file(struct test *t, FILE *file, const char *path)
{
    char *line = NULL, *tokens[MAX_TOKENS];
    size_t capacity = 0;
    ssize_t length;
    int number = 0;
    enum section section = SECTION_NONE;
    int expect_buffer = -1, expect_texture = -1;
    unsigned expect_subresource = 0, texture_subresource = 0;
    size_t expect_cursor = 0;
    struct buffer_def *buffer = NULL;
    struct texture_def *texture = NULL;
    struct pipeline_def *pipeline = NULL;

    if (!file) {
        fprintf(stderr, "shader_runner: cannot open %s: %s\n", path, strerror(errno));
        return false;
    }
    t->current_table = -1;
    t->queue_type = D3D12_COMMAND_LIST_TYPE_DIRECT;
    graphics_init(&t->graphics);
    while ((length = getline(&line, &capacity, file)) >= 0) {
        const char *keyword, *rest;
        number++;
        while (length && (line[length - 1] == '\n' || line[length - 1] == '\r'))
            line[--length] = 0;
        if (is_section(line, &rest, &keyword)) {
            char header[1024];
            unsigned count;
            copy_name(header, sizeof(header), rest);
            if (strchr(header, ']'))
                *strchr(header, ']') = 0;
            count = tokenize(header, tokens, MAX_TOKENS);
            if (strstr(keyword, "shader")) {
                section = SECTION_SHADER;
                parse_shader_header(t, tokens, count, shader_stage_from_keyword(keyword), number);
            } else if (!strcmp(keyword, "input_layout")) {
                section = SECTION_INPUT_LAYOUT;
                if (count)
                    FAIL_AT(number, "[input_layout] takes no options");
            } else if (!strcmp(keyword, "vertex_buffer") || !strcmp(keyword, "index_buffer")) {
                section = SECTION_BUFFER;
                buffer = keyword[0] == 'v' ? parse_vertex_buffer_header(t, tokens, count, number)
                        : parse_index_buffer_header(t, tokens, count, number);
            } else if (!strcmp(keyword, "render_target")) {
                section = SECTION_NONE;
                parse_render_target_header(t, tokens, count, number);
            } else if (!strcmp(keyword, "depth_stencil")) {
                section = SECTION_NONE;
                parse_depth_stencil_header(t, tokens, count, number);
            } else if (!strcmp(keyword, "pipeline")) {
                section = SECTION_PIPELINE;
                pipeline = parse_pipeline_header(t, tokens, count, number);
            } else if (!strcmp(keyword, "root_signature")) {
                section = SECTION_ROOT_SIGNATURE;
                for (unsigned i = 0; i < count; i++) {
                    if (!strcmp(tokens[i], "version=1.0"))
                        t->rs_version_1_0 = true;
                    else if (strcmp(tokens[i], "version=1.1"))
                        FAIL_AT(number, "unknown root signature option '%s' (version=1.0|1.1)", tokens[i]);
                }
            } else if (!strcmp(keyword, "buffer")) {
                section = SECTION_BUFFER;
                if (!count || t->buffer_count == MAX_BUFFERS || find_buffer(t, tokens[0]) >= 0) {
                    FAIL_AT(number, "expected '[buffer NAME [size=BYTES] [upload]]' with a new name");
                    buffer = NULL;
                    continue;
                }
                buffer = &t->buffers[t->buffer_count++];
                copy_name(buffer->name, sizeof(buffer->name), tokens[0]);
                buffer->line = number;
                for (unsigned i = 1; i < count; i++) {
                    const char *o;
                    uint64_t size;
                    if (!strcmp(tokens[i], "upload"))
                        buffer->upload = true;
                    else if ((o = option(tokens[i], "size")) && parse_u64(o, &size))
                        buffer->declared_size = size;
                    else
                        FAIL_AT(number, "bad buffer option '%s'", tokens[i]);
                }
            } else if (!strcmp(keyword, "texture")) {
                unsigned before = t->texture_count;
                section = SECTION_TEXTURE;
                parse_texture_header(t, tokens, count, number);
                texture = t->texture_count > before ? &t->textures[t->texture_count - 1] : NULL;
                texture_subresource = 0;
            } else if (!strcmp(keyword, "samplers")) {
                section = SECTION_SAMPLERS;
                t->has_samplers = true;
                for (unsigned i = 0; i < count; i++) {
                    const char *o = option(tokens[i], "size");
                    UINT size;
                    if (o && parse_uint(o, &size) && size > t->sampler_heap_size)
                        t->sampler_heap_size = size;
                    else if (!o || !parse_uint(o, &size))
                        FAIL_AT(number, "bad samplers option '%s' (size=N)", tokens[i]);
                }
            } else if (!strcmp(keyword, "views")) {
                section = SECTION_VIEWS;
                t->has_views = true;
                for (unsigned i = 0; i < count; i++) {
                    const char *o = option(tokens[i], "size");
                    UINT size;
                    if (o && parse_uint(o, &size) && size > t->heap_size)
                        t->heap_size = size;
                    else
                        FAIL_AT(number, "bad views option '%s' (size=N)", tokens[i]);
                }
            } else if (!strcmp(keyword, "run")) {
                section = SECTION_RUN;
                t->has_run = true;
                for (unsigned i = 0; i < count; i++) {
                    if (!strcmp(tokens[i], "queue=compute"))
                        t->queue_type = D3D12_COMMAND_LIST_TYPE_COMPUTE;
                    else if (!strcmp(tokens[i], "queue=direct"))
                        t->queue_type = D3D12_COMMAND_LIST_TYPE_DIRECT;
                    else
                        FAIL_AT(number, "bad run option '%s' (queue=direct|compute)", tokens[i]);
                }
            } else if (!strcmp(keyword, "expect")) {
                section = SECTION_EXPECT;
                expect_cursor = 0;
                expect_buffer = expect_texture = -1;
                expect_subresource = 0;
                if (count >= 1 && (!strcmp(tokens[0], "render_target") || !strcmp(tokens[0], "depth_stencil"))) {
                    if ((expect_texture = expected_target(t, tokens, count, number)) >= 0)
                        t->textures[expect_texture].expected = true;
                } else if (count >= 2 && !strcmp(tokens[0], "texture")) {
                    UINT mip = 0, layer = 0, index = UINT32_MAX;
                    bool ok = (expect_texture = find_texture(t, tokens[1])) >= 0;
                    for (unsigned i = 2; ok && i < count; i++) {
                        const char *o;
                        if ((o = option(tokens[i], "subresource")))
                            ok = parse_uint(o, &index);
                        else if ((o = option(tokens[i], "mip")))
                            ok = parse_uint(o, &mip);
                        else if ((o = option(tokens[i], "layer")))
                            ok = parse_uint(o, &layer);
                        else
                            ok = false;
                    }
                    if (ok) {
                        struct texture_def *tex = &t->textures[expect_texture];
                        if (index == UINT32_MAX)
                            index = mip < tex->mips ? mip + layer * tex->mips : UINT32_MAX;
                        ok = index < tex->subresource_count;
                        tex->expected = true;
                        expect_subresource = index;
                    }
                    if (!ok) {
                        FAIL_AT(number, "expected '[expect texture NAME [subresource=N | mip=M layer=L]]' naming a declared texture "
                                "and one of its subresources");
                        expect_texture = -1;
                    }
                } else if (count != 1 || (expect_buffer = find_buffer(t, tokens[0])) < 0) {
                    FAIL_AT(number, "expected '[expect BUFFER]' naming a declared buffer, or '[expect texture NAME ...]'");
                    expect_buffer = -1;
                } else {
                    t->buffers[expect_buffer].expected = true;
                }
            } else if (!strcmp(keyword, "fail")) {
                section = SECTION_FAIL;
                t->fail_line = number;
                if (count == 1 && !strcmp(tokens[0], "root_signature"))
                    t->fail = FAIL_ROOT_SIGNATURE;
                else if (count == 1 && !strcmp(tokens[0], "pipeline"))
                    t->fail = FAIL_PIPELINE;
                else if (count == 1 && !strcmp(tokens[0], "close"))
                    t->fail = FAIL_CLOSE;
                else if (count == 1 && !strcmp(tokens[0], "compile"))
                    t->fail = FAIL_COMPILE;
                else
                    FAIL_AT(number, "expected '[fail compile|root_signature|pipeline|close]'");
            } else if (!strcmp(keyword, "test")) {
                section = SECTION_NONE;
                if (count != 1)
                    FAIL_AT(number, "expected '[test NAME]'");
                else
                    copy_name(t->name, sizeof(t->name), tokens[0]);
            } else if (!strcmp(keyword, "require")) {
                section = SECTION_NONE;
                for (unsigned i = 0; i < count; i++) {
                    const char *o;
                    if (!strcmp(tokens[i], "int64"))
                        t->need_int64 = true;
                    else if (!strcmp(tokens[i], "float64"))
                        t->need_float64 = true;
                    else if (!strcmp(tokens[i], "min_lod_clamp"))
                        t->need_min_lod_clamp = true;
                    else if (!strcmp(tokens[i], "derivative_quads"))
                        t->need_derivative_quads = true;
                    else if (!strcmp(tokens[i], "derivative_linear"))
                        t->need_derivative_linear = true;
                    else if (!strcmp(tokens[i], "logic_op"))
                        t->need_logic_op = true;
                    else if ((o = option(tokens[i], "lanes")) && parse_uint(o, &t->min_lanes))
                        t->max_lanes = t->min_lanes;
                    else if ((o = option(tokens[i], "min_lanes")) && parse_uint(o, &t->min_lanes))
                        ;
                    else if ((o = option(tokens[i], "max_lanes")) && parse_uint(o, &t->max_lanes))
                        ;
                    else
                        FAIL_AT(number, "unknown requirement '%s' (int64, float64, min_lod_clamp, derivative_quads, derivative_linear, logic_op, lanes=N, min_lanes=N, "
                                "max_lanes=N)", tokens[i]);
                }
            } else if (!strcmp(keyword, "known_bug")) {
                section = SECTION_NONE;
                t->has_known_bug = true;
                copy_name(t->known_bug, sizeof(t->known_bug), rest + 1);
                if (strrchr(t->known_bug, ']'))
                    *strrchr(t->known_bug, ']') = 0;
                t->known_bug_on_lavapipe = !strncmp(t->known_bug, "lavapipe:", 9);
            }
            continue;
        }
        if (section == SECTION_SHADER) {
            shader_append(&t->shaders[t->shader_count - 1], line);
            continue;
        }
        if (section == SECTION_BUFFER) {
            if (buffer)
                parse_buffer_line(buffer, line, number, NULL);
            continue;
        }
        if (section == SECTION_TEXTURE) {
            if (texture)
                parse_texture_line(texture, &texture_subresource, line, number);
            continue;
        }
        if (section == SECTION_EXPECT) {
            if (expect_buffer >= 0 || expect_texture >= 0)
                parse_expect_line(t, expect_buffer, expect_texture, expect_subresource, &expect_cursor, line, number);
            continue;
        }
        unsigned count = tokenize(line, tokens, MAX_TOKENS);
        if (!count)
            continue;
        switch (section) {
        case SECTION_ROOT_SIGNATURE: parse_root_signature_line(t, tokens, count, number); break;
        case SECTION_VIEWS: parse_view_line(t, tokens, count, number); break;
        case SECTION_SAMPLERS: parse_sampler_line(t, tokens, count, number); break;
        case SECTION_RUN: parse_run_line(t, tokens, count, number); break;
        case SECTION_FAIL: parse_fail_line(t, tokens, count, number); break;
        case SECTION_INPUT_LAYOUT: parse_input_layout_line(t, tokens, count, number); break;
        case SECTION_PIPELINE:
            if (pipeline)
                parse_pipeline_line(t, pipeline, tokens, count, number);
            break;
        default: FAIL_AT(number, "text outside a section: '%s'", tokens[0]); break;
        }
    }
    free(line);
    finish_graphics(t, number);
    for (unsigned i = 0; i < t->buffer_count; i++) {
        struct buffer_def *b = &t->buffers[i];
        if (b->declared_size > b->size) {
            uint8_t zero = 0;
            b->cursor = b->declared_size - 1;
            buffer_write(b, &zero, 1);
        } else if (b->declared_size && b->declared_size < b->size) {
            FAIL_AT(b->line, "buffer '%s' holds %zu bytes of data but size=%zu", b->name, b->size, b->declared_size);
        }
        if (!b->size)
            FAIL_AT(b->line, "buffer '%s' is empty (give data or size=BYTES)", b->name);
        if (b->upload && (b->uav_use || b->expected))
            FAIL_AT(b->line, "upload buffer '%s' cannot be a UAV or be checked (the GPU cannot write it)", b->name);
    }
    for (unsigned i = 0; i < t->texture_count; i++) {
        struct texture_def *tex = &t->textures[i];
        for (unsigned s = 0; s < tex->subresource_count && tex->format; s++) {
            struct buffer_def *data = &tex->subresources[s];
            size_t size;
            texture_space(tex, s, &size);
            if (data->size > size) {
                FAIL_AT(data->line, "subresource %u of texture '%s' holds %zu bytes of data but is %zu bytes", s, tex->name, data->size, size);
            } else if (data->size < size) {
                uint8_t zero = 0;
                data->cursor = size - 1;
                buffer_write(data, &zero, 1);
            }
        }
    }
    if (!t->shader_count)
        FAIL_AT(number, "no [shader] section (or [vertex shader], [pixel shader], ...)");
    if (t->fail == FAIL_NONE && !t->has_run)
        FAIL_AT(number, "no [run] section");
    if (t->fail != FAIL_NONE && !t->fail_needle_count)
        FAIL_AT(t->fail_line, "[fail] needs a 'log \"substring\"' line");
    return true;
}

void free_test(struct test *t)
{
    for (unsigned i = 0; i < t->shader_count; i++) {
        struct shader_def *s = &t->shaders[i];
        free(s->source);
        for (unsigned d = 0; d < s->define_count; d++)
            free(s->define_text[d]);
        if (s->code)
            ID3D10Blob_Release(s->code);
        if (s->pipeline)
            ID3D12PipelineState_Release(s->pipeline);
    }
    for (unsigned i = 0; i < t->graphics.pipeline_count; i++)
        if (t->graphics.pipelines[i].state)
            ID3D12PipelineState_Release(t->graphics.pipelines[i].state);
    for (unsigned i = 0; i < t->buffer_count; i++) {
        struct buffer_def *b = &t->buffers[i];
        free(b->data);
        if (b->resource)
            ID3D12Resource_Release(b->resource);
        if (b->staging)
            ID3D12Resource_Release(b->staging);
        if (b->readback)
            ID3D12Resource_Release(b->readback);
    }
    for (unsigned i = 0; i < t->texture_count; i++) {
        struct texture_def *tex = &t->textures[i];
        for (unsigned s = 0; s < tex->subresource_count; s++)
            free(tex->subresources[s].data);
        free(tex->subresources);
        free(tex->layouts);
        free(tex->rows);
        if (tex->resource)
            ID3D12Resource_Release(tex->resource);
        if (tex->upload)
            ID3D12Resource_Release(tex->upload);
        if (tex->readback)
            ID3D12Resource_Release(tex->readback);
    }
    for (unsigned i = 0; i < t->step_count; i++)
        free(t->steps[i].values);
    free(t->steps);
    for (unsigned i = 0; i < t->expect_count; i++) {
        struct expect_item *e = &t->expects[i];
        for (size_t v = 0; v < e->count && e->values; v++)
            free(e->values[v]);
        free(e->values);
        free(e->formula);
    }
    free(t->expects);
    for (unsigned i = 0; i < let_count; i++)
        free(lets[i].text);
    let_count = 0;
}

/* ---- running ---- */
