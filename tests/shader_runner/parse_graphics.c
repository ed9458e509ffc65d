/* shader_runner: parsing of what a test draws with: graphics shader stages, [input_layout],
 * [vertex_buffer], [index_buffer], [render_target], [depth_stencil], [pipeline] and the draw
 * commands of [run]. */
#include "shader_runner.h"

static const char *const stage_names[STAGE_COUNT] = {"compute", "vertex", "hull", "domain", "geometry", "pixel"};
static const char *const stage_options[STAGE_COUNT] = {"cs", "vs", "hs", "ds", "gs", "ps"};

enum shader_stage shader_stage_from_keyword(const char *keyword)
{
    for (int s = STAGE_VERTEX; s < STAGE_COUNT; s++)
        if (!strncmp(keyword, stage_names[s], strlen(stage_names[s])))
            return (enum shader_stage)s;
    return STAGE_COMPUTE;
}

void graphics_init(struct graphics_def *g)
{
    memset(g, 0, sizeof(*g));
    for (unsigned i = 0; i < MAX_VERTEX_SLOTS; i++)
        g->vertex_buffers[i] = -1;
    for (unsigned i = 0; i < MAX_RENDER_TARGETS; i++)
        g->render_targets[i] = -1;
    g->index_buffer = g->depth_stencil = -1;
    g->clear_depth = 1.0f;
}

static bool parse_format_option(const char *text, DXGI_FORMAT *format, int line)
{
    const struct format_info *info = find_format(text);
    if (!info) {
        FAIL_AT(line, "unknown format '%s' (DXGI_FORMAT names without the prefix)", text);
        return false;
    }
    *format = info->format;
    return true;
}

/* [input_layout]: SEMANTIC INDEX FORMAT [slot=N] [offset=N|append] [instance=STEP] */
void parse_input_layout_line(struct test *t, char **tokens, unsigned count, int line)
{
    struct graphics_def *g = &t->graphics;
    D3D12_INPUT_ELEMENT_DESC *e;
    if (g->element_count == MAX_ELEMENTS || count < 3) {
        FAIL_AT(line, "expected 'SEMANTIC INDEX FORMAT [slot=N] [offset=N|append] [instance=STEP]' (at most %d elements)", MAX_ELEMENTS);
        return;
    }
    e = &g->elements[g->element_count];
    memset(e, 0, sizeof(*e));
    copy_name(g->element_names[g->element_count], sizeof(g->element_names[0]), tokens[0]);
    e->SemanticName = g->element_names[g->element_count];
    e->AlignedByteOffset = D3D12_APPEND_ALIGNED_ELEMENT;
    e->InputSlotClass = D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA;
    if (!parse_uint(tokens[1], &e->SemanticIndex))
        FAIL_AT(line, "bad semantic index '%s'", tokens[1]);
    parse_format_option(tokens[2], &e->Format, line);
    for (unsigned i = 3; i < count; i++) {
        const char *o;
        if ((o = option(tokens[i], "slot"))) {
            if (!parse_uint(o, &e->InputSlot) || e->InputSlot >= MAX_VERTEX_SLOTS)
                FAIL_AT(line, "bad slot '%s' (0 to %d)", o, MAX_VERTEX_SLOTS - 1);
        } else if ((o = option(tokens[i], "offset"))) {
            if (strcmp(o, "append") && !parse_uint(o, &e->AlignedByteOffset))
                FAIL_AT(line, "bad offset '%s' (bytes, or append)", o);
        } else if ((o = option(tokens[i], "instance"))) {
            e->InputSlotClass = D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA;
            if (!parse_uint(o, &e->InstanceDataStepRate))
                FAIL_AT(line, "bad instance step rate '%s'", o);
        } else {
            FAIL_AT(line, "unknown input element option '%s' (slot=, offset=, instance=)", tokens[i]);
        }
    }
    g->element_count++;
}

/* A buffer of the test that the input assembler reads: "vertex_buffer N" or "index_buffer". */
static struct buffer_def *new_ia_buffer(struct test *t, const char *name, int line)
{
    struct buffer_def *b;
    if (t->buffer_count == MAX_BUFFERS || find_buffer(t, name) >= 0) {
        FAIL_AT(line, "'%s' is declared twice (or there are more than %d buffers)", name, MAX_BUFFERS);
        return NULL;
    }
    b = &t->buffers[t->buffer_count++];
    copy_name(b->name, sizeof(b->name), name);
    b->line = line;
    return b;
}

/* [vertex_buffer SLOT stride=N] */
struct buffer_def *parse_vertex_buffer_header(struct test *t, char **tokens, unsigned count, int line)
{
    struct graphics_def *g = &t->graphics;
    struct buffer_def *b;
    char name[64];
    UINT slot, stride = 0;
    if (count < 1 || !parse_uint(tokens[0], &slot) || slot >= MAX_VERTEX_SLOTS) {
        FAIL_AT(line, "expected '[vertex_buffer SLOT stride=BYTES]' with a slot below %d", MAX_VERTEX_SLOTS);
        return NULL;
    }
    for (unsigned i = 1; i < count; i++) {
        const char *o = option(tokens[i], "stride");
        if (!o || !parse_uint(o, &stride))
            FAIL_AT(line, "bad vertex_buffer option '%s' (stride=BYTES)", tokens[i]);
    }
    snprintf(name, sizeof(name), "vertex_buffer %u", slot);
    if (!(b = new_ia_buffer(t, name, line)))
        return NULL;
    b->vertex_use = true;
    g->vertex_buffers[slot] = (int)(b - t->buffers);
    g->vertex_strides[slot] = stride;
    return b;
}

/* [index_buffer format=R16_UINT|R32_UINT] */
struct buffer_def *parse_index_buffer_header(struct test *t, char **tokens, unsigned count, int line)
{
    struct graphics_def *g = &t->graphics;
    struct buffer_def *b;
    g->index_format = DXGI_FORMAT_R32_UINT;
    for (unsigned i = 0; i < count; i++) {
        const char *o = option(tokens[i], "format");
        if (o && !strcmp(o, "R16_UINT"))
            g->index_format = DXGI_FORMAT_R16_UINT;
        else if (!o || strcmp(o, "R32_UINT"))
            FAIL_AT(line, "bad index_buffer option '%s' (format=R16_UINT|R32_UINT)", tokens[i]);
    }
    if (!(b = new_ia_buffer(t, "index_buffer", line)))
        return NULL;
    b->index_use = true;
    g->index_buffer = (int)(b - t->buffers);
    return b;
}

/* A render target or depth buffer is a texture of the test named "render_target N" or
 * "depth_stencil", so [expect] reads it back like any texture. */
static int new_target(struct test *t, const char *name, const char *format, UINT width, UINT height, int line)
{
    char header[160], *tokens[4];
    unsigned before = t->texture_count, count;
    snprintf(header, sizeof(header), "target format=%s size=%u,%u", format, width, height);
    count = tokenize(header, tokens, 4);
    parse_texture_header(t, tokens, count, line);
    if (t->texture_count == before)
        return -1;
    copy_name(t->textures[before].name, sizeof(t->textures[before].name), name);
    return (int)before;
}

static bool parse_size(const char *text, UINT *width, UINT *height)
{
    char *end;
    *width = (UINT)strtoul(text, &end, 10);
    if (*end != ',')
        return false;
    *height = (UINT)strtoul(end + 1, &end, 10);
    return !*end && *width && *height;
}

/* [render_target N format=F size=W,H clear=R,G,B,A] */
void parse_render_target_header(struct test *t, char **tokens, unsigned count, int line)
{
    struct graphics_def *g = &t->graphics;
    const char *format = "R32G32B32A32_FLOAT";
    UINT slot, width = DEFAULT_TARGET_SIZE, height = DEFAULT_TARGET_SIZE, samples = 1;
    float clear[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    char name[64];
    int texture;
    if (count < 1 || !parse_uint(tokens[0], &slot) || slot >= MAX_RENDER_TARGETS || g->render_targets[slot] >= 0) {
        FAIL_AT(line, "expected '[render_target N format=F size=W,H clear=R,G,B,A]' with a new N below %d", MAX_RENDER_TARGETS);
        return;
    }
    for (unsigned i = 1; i < count; i++) {
        const char *o;
        if ((o = option(tokens[i], "format")))
            format = o;
        else if ((o = option(tokens[i], "size"))) {
            if (!parse_size(o, &width, &height))
                FAIL_AT(line, "bad size '%s' (W,H)", o);
        } else if ((o = option(tokens[i], "clear"))) {
            if (!parse_floats(o, clear, 4))
                FAIL_AT(line, "bad clear colour '%s' (R,G,B,A)", o);
        } else if ((o = option(tokens[i], "samples"))) {
            if (!parse_uint(o, &samples) || !samples || (samples & (samples - 1)) || samples > 16)
                FAIL_AT(line, "bad samples '%s' (1, 2, 4, 8 or 16)", o);
        } else {
            FAIL_AT(line, "bad render_target option '%s' (format=, size=, clear=, samples=)", tokens[i]);
        }
    }
    snprintf(name, sizeof(name), "render_target %u", slot);
    if ((texture = new_target(t, name, format, width, height, line)) < 0)
        return;
    t->textures[texture].render_target = true;
    t->textures[texture].samples = samples;
    g->render_targets[slot] = texture;
    memcpy(g->clear_colours[slot], clear, sizeof(clear));
}

/* [depth_stencil format=D32_FLOAT size=W,H clear=D,S] */
void parse_depth_stencil_header(struct test *t, char **tokens, unsigned count, int line)
{
    struct graphics_def *g = &t->graphics;
    const char *format = "D32_FLOAT";
    UINT width = 0, height = 0, samples = 1;
    float clear[2] = {1.0f, 0.0f};
    int texture;
    if (g->depth_stencil >= 0) {
        FAIL_AT(line, "one [depth_stencil] per test");
        return;
    }
    for (unsigned i = 0; i < count; i++) {
        const char *o;
        if ((o = option(tokens[i], "format")))
            format = o;
        else if ((o = option(tokens[i], "size"))) {
            if (!parse_size(o, &width, &height))
                FAIL_AT(line, "bad size '%s' (W,H)", o);
        } else if ((o = option(tokens[i], "clear"))) {
            if (!parse_floats(o, clear, 2))
                FAIL_AT(line, "bad clear values '%s' (DEPTH,STENCIL)", o);
        } else if ((o = option(tokens[i], "samples"))) {
            if (!parse_uint(o, &samples) || !samples || (samples & (samples - 1)) || samples > 16)
                FAIL_AT(line, "bad samples '%s' (1, 2, 4, 8 or 16)", o);
        } else {
            FAIL_AT(line, "bad depth_stencil option '%s' (format=, size=, clear=, samples=)", tokens[i]);
        }
    }
    if (!width) {
        /* The render targets' size by default. */
        width = height = DEFAULT_TARGET_SIZE;
        for (unsigned i = 0; i < MAX_RENDER_TARGETS; i++)
            if (g->render_targets[i] >= 0) {
                width = t->textures[g->render_targets[i]].width;
                height = t->textures[g->render_targets[i]].height;
                break;
            }
    }
    if ((texture = new_target(t, "depth_stencil", format, width, height, line)) < 0)
        return;
    t->textures[texture].depth_target = true;
    t->textures[texture].samples = samples;
    g->depth_stencil = texture;
    g->clear_depth = clear[0];
    g->clear_stencil = (UINT8)clear[1];
}

/* [expect render_target N] and [expect depth_stencil]: the target's texture, or -1. */
int expected_target(struct test *t, char **tokens, unsigned count, int line)
{
    struct graphics_def *g = &t->graphics;
    UINT slot = 0;
    if (!strcmp(tokens[0], "depth_stencil") && count == 1) {
        if (g->depth_stencil < 0)
            FAIL_AT(line, "[expect depth_stencil] without a [depth_stencil]");
        else if (t->textures[g->depth_stencil].samples > 1)
            FAIL_AT(line, "a multisampled depth buffer cannot be read back");
        else if (t->textures[g->depth_stencil].format->format != DXGI_FORMAT_D32_FLOAT
                && t->textures[g->depth_stencil].format->format != DXGI_FORMAT_D16_UNORM)
            FAIL_AT(line, "[expect depth_stencil] reads D32_FLOAT and D16_UNORM targets (one plane) only");
        else
            return g->depth_stencil;
        return -1;
    }
    if (count > 2 || (count == 2 && !parse_uint(tokens[1], &slot)) || slot >= MAX_RENDER_TARGETS) {
        FAIL_AT(line, "expected '[expect render_target N]' or '[expect depth_stencil]'");
        return -1;
    }
    if (g->render_targets[slot] < 0 && slot == 0)
        add_default_render_target(t, line);
    if (g->render_targets[slot] < 0) {
        FAIL_AT(line, "no [render_target %u]", slot);
        return -1;
    }
    if (t->textures[g->render_targets[slot]].samples > 1) {
        FAIL_AT(line, "a multisampled target cannot be read back (check what the shaders see through a UAV)");
        return -1;
    }
    return g->render_targets[slot];
}

/* A test without [render_target] draws into one RGBA32_FLOAT target of 64x64 cleared to 0. */
void add_default_render_target(struct test *t, int line)
{
    char slot[] = "0";
    char *tokens[1] = {slot};
    for (unsigned i = 0; i < MAX_RENDER_TARGETS; i++)
        if (t->graphics.render_targets[i] >= 0)
            return;
    parse_render_target_header(t, tokens, 1, line);
}

static void pipeline_defaults(struct pipeline_def *p, int line)
{
    memset(p, 0, sizeof(*p));
    p->line = line;
    for (unsigned s = 0; s < STAGE_COUNT; s++)
        p->shaders[s] = -1;
    for (unsigned i = 0; i < MAX_RENDER_TARGETS; i++) {
        D3D12_RENDER_TARGET_BLEND_DESC *b = &p->blend.RenderTarget[i];
        b->SrcBlend = b->SrcBlendAlpha = D3D12_BLEND_ONE;
        b->DestBlend = b->DestBlendAlpha = D3D12_BLEND_ZERO;
        b->BlendOp = b->BlendOpAlpha = D3D12_BLEND_OP_ADD;
        b->LogicOp = D3D12_LOGIC_OP_NOOP;
        b->RenderTargetWriteMask = D3D12_COLOR_WRITE_ENABLE_ALL;
    }
    p->rasterizer.FillMode = D3D12_FILL_MODE_SOLID;
    p->rasterizer.CullMode = D3D12_CULL_MODE_NONE;
    p->rasterizer.DepthClipEnable = TRUE;
    p->depth_stencil.DepthEnable = TRUE;
    p->depth_stencil.DepthWriteMask = D3D12_DEPTH_WRITE_MASK_ALL;
    p->depth_stencil.DepthFunc = D3D12_COMPARISON_FUNC_LESS;
    p->depth_stencil.StencilReadMask = p->depth_stencil.StencilWriteMask = 0xff;
    p->depth_stencil.FrontFace.StencilFailOp = p->depth_stencil.FrontFace.StencilDepthFailOp = D3D12_STENCIL_OP_KEEP;
    p->depth_stencil.FrontFace.StencilPassOp = D3D12_STENCIL_OP_KEEP;
    p->depth_stencil.FrontFace.StencilFunc = D3D12_COMPARISON_FUNC_ALWAYS;
    p->depth_stencil.BackFace = p->depth_stencil.FrontFace;
    p->sample_mask = UINT32_MAX;
}

/* [pipeline [NAME]] */
struct pipeline_def *parse_pipeline_header(struct test *t, char **tokens, unsigned count, int line)
{
    struct graphics_def *g = &t->graphics;
    struct pipeline_def *p;
    if (count > 1 || g->pipeline_count == MAX_PIPELINES || (count && find_pipeline(t, tokens[0]) >= 0)) {
        FAIL_AT(line, "expected '[pipeline [NAME]]' with a new name (at most %d)", MAX_PIPELINES);
        return NULL;
    }
    p = &g->pipelines[g->pipeline_count++];
    pipeline_defaults(p, line);
    snprintf(p->name, sizeof(p->name), "%s", count ? tokens[0] : "");
    return p;
}

int find_pipeline(const struct test *t, const char *name)
{
    for (unsigned i = 0; i < t->graphics.pipeline_count; i++)
        if (!strcmp(t->graphics.pipelines[i].name, name))
            return (int)i;
    return -1;
}

static int lookup(const char *text, const char *const *names, unsigned count)
{
    for (unsigned i = 0; i < count; i++)
        if (names[i] && !strcmp(text, names[i]))
            return (int)i;
    return -1;
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
/* D3D12's names in lower case without their prefix, at their enum value. */
static const char *const blend_names[] = {NULL, "zero", "one", "src_color", "inv_src_color", "src_alpha", "inv_src_alpha",
        "dest_alpha", "inv_dest_alpha", "dest_color", "inv_dest_color", "src_alpha_sat", NULL, NULL, "blend_factor",
        "inv_blend_factor", "src1_color", "inv_src1_color", "src1_alpha", "inv_src1_alpha"};
static const char *const blend_op_names[] = {NULL, "add", "subtract", "rev_subtract", "min", "max"};
static const char *const logic_op_names[] = {"clear", "set", "copy", "copy_inverted", "noop", "invert", "and", "nand", "or", "nor",
        "xor", "equiv", "and_reverse", "and_inverted", "or_reverse", "or_inverted"};
static const char *const compare_names[] = {NULL, "never", "less", "equal", "less_equal", "greater", "not_equal", "greater_equal",
        "always"};
static const char *const stencil_op_names[] = {NULL, "keep", "zero", "replace", "incr_sat", "decr_sat", "invert", "incr", "decr"};

static bool parse_enum(const char *text, const char *const *names, unsigned count, int *out, const char *what, int line)
{
    int v = lookup(text, names, count);
    if (v < 0) {
        FAIL_AT(line, "unknown %s '%s'", what, text);
        return false;
    }
    *out = v;
    return true;
}

static bool parse_switch(const char *text, BOOL *out, int line)
{
    if (!strcmp(text, "on") || !strcmp(text, "1") || !strcmp(text, "true"))
        *out = TRUE;
    else if (!strcmp(text, "off") || !strcmp(text, "0") || !strcmp(text, "false"))
        *out = FALSE;
    else {
        FAIL_AT(line, "expected on or off, not '%s'", text);
        return false;
    }
    return true;
}

/* front=FUNC,FAIL_OP,DEPTH_FAIL_OP,PASS_OP */
static void parse_stencil_face(const char *text, D3D12_DEPTH_STENCILOP_DESC *face, int line)
{
    char copy[128], *parts[4], *save = NULL;
    unsigned n = 0;
    int v[4];
    copy_name(copy, sizeof(copy), text);
    for (char *p = strtok_r(copy, ",", &save); p && n < 4; p = strtok_r(NULL, ",", &save))
        parts[n++] = p;
    if (n != 4 || !parse_enum(parts[0], compare_names, COUNT(compare_names), &v[0], "comparison", line)
            || !parse_enum(parts[1], stencil_op_names, COUNT(stencil_op_names), &v[1], "stencil op", line)
            || !parse_enum(parts[2], stencil_op_names, COUNT(stencil_op_names), &v[2], "stencil op", line)
            || !parse_enum(parts[3], stencil_op_names, COUNT(stencil_op_names), &v[3], "stencil op", line)) {
        FAIL_AT(line, "expected FUNC,FAIL_OP,DEPTH_FAIL_OP,PASS_OP, not '%s'", text);
        return;
    }
    face->StencilFunc = (D3D12_COMPARISON_FUNC)v[0];
    face->StencilFailOp = (D3D12_STENCIL_OP)v[1];
    face->StencilDepthFailOp = (D3D12_STENCIL_OP)v[2];
    face->StencilPassOp = (D3D12_STENCIL_OP)v[3];
}

static void parse_blend_line(struct pipeline_def *p, char **tokens, unsigned count, int line)
{
    UINT target;
    D3D12_RENDER_TARGET_BLEND_DESC *b;
    int v;
    if (count < 2 || !parse_uint(tokens[1], &target) || target >= MAX_RENDER_TARGETS) {
        FAIL_AT(line, "expected 'blend TARGET [src=F] [dst=F] [op=OP] [src_alpha=F] [dst_alpha=F] [op_alpha=OP] [write=rgba] [logic=OP]'");
        return;
    }
    if (target)
        p->blend.IndependentBlendEnable = TRUE;
    b = &p->blend.RenderTarget[target];
    for (unsigned i = 2; i < count; i++) {
        const char *o;
        if ((o = option(tokens[i], "src")) && parse_enum(o, blend_names, COUNT(blend_names), &v, "blend factor", line))
            b->SrcBlend = (D3D12_BLEND)v, b->BlendEnable = TRUE;
        else if ((o = option(tokens[i], "dst")) && parse_enum(o, blend_names, COUNT(blend_names), &v, "blend factor", line))
            b->DestBlend = (D3D12_BLEND)v, b->BlendEnable = TRUE;
        else if ((o = option(tokens[i], "op")) && parse_enum(o, blend_op_names, COUNT(blend_op_names), &v, "blend op", line))
            b->BlendOp = (D3D12_BLEND_OP)v, b->BlendEnable = TRUE;
        else if ((o = option(tokens[i], "src_alpha")) && parse_enum(o, blend_names, COUNT(blend_names), &v, "blend factor", line))
            b->SrcBlendAlpha = (D3D12_BLEND)v, b->BlendEnable = TRUE;
        else if ((o = option(tokens[i], "dst_alpha")) && parse_enum(o, blend_names, COUNT(blend_names), &v, "blend factor", line))
            b->DestBlendAlpha = (D3D12_BLEND)v, b->BlendEnable = TRUE;
        else if ((o = option(tokens[i], "op_alpha")) && parse_enum(o, blend_op_names, COUNT(blend_op_names), &v, "blend op", line))
            b->BlendOpAlpha = (D3D12_BLEND_OP)v, b->BlendEnable = TRUE;
        else if ((o = option(tokens[i], "logic")) && parse_enum(o, logic_op_names, COUNT(logic_op_names), &v, "logic op", line))
            b->LogicOp = (D3D12_LOGIC_OP)v, b->LogicOpEnable = TRUE;
        else if ((o = option(tokens[i], "write"))) {
            UINT8 mask = 0;
            for (const char *c = o; *c && strcmp(o, "0"); c++) {
                const char *at = strchr("rgba", *c);
                if (!at)
                    FAIL_AT(line, "bad write mask '%s' (letters of rgba, or 0)", o);
                else
                    mask |= (UINT8)(1u << (at - "rgba"));
            }
            b->RenderTargetWriteMask = mask;
        } else if (!o)
            FAIL_AT(line, "unknown blend option '%s'", tokens[i]);
    }
}

void parse_pipeline_line(struct test *t, struct pipeline_def *p, char **tokens, unsigned count, int line)
{
    const char *cmd = tokens[0];
    int v;
    if (!strcmp(cmd, "shaders")) {
        for (unsigned i = 1; i < count; i++) {
            char key[8];
            const char *eq = strchr(tokens[i], '=');
            int stage, shader = -1;
            if (!eq || eq - tokens[i] >= (ptrdiff_t)sizeof(key)) {
                FAIL_AT(line, "expected 'shaders vs=NAME ps=NAME|none gs= hs= ds='");
                continue;
            }
            memcpy(key, tokens[i], (size_t)(eq - tokens[i]));
            key[eq - tokens[i]] = 0;
            stage = lookup(key, stage_options, STAGE_COUNT);
            if (stage <= STAGE_COMPUTE || (strcmp(eq + 1, "none") && ((shader = find_shader(t, eq + 1)) < 0
                    || t->shaders[shader].stage != (enum shader_stage)stage))) {
                FAIL_AT(line, "'%s' names no %s shader", tokens[i], stage > 0 ? stage_names[stage] : "graphics");
                continue;
            }
            p->shaders[stage] = shader;
            p->has_shaders[stage] = true;
        }
    } else if (!strcmp(cmd, "topology") && count == 2) {
        static const char *const types[] = {NULL, "point", "line", "triangle", "patch"};
        if (parse_enum(tokens[1], types, COUNT(types), &v, "topology type (point, line, triangle, patch)", line))
            p->topology = (D3D12_PRIMITIVE_TOPOLOGY_TYPE)v, p->has_topology = true;
    } else if (!strcmp(cmd, "blend")) {
        parse_blend_line(p, tokens, count, line);
    } else if (!strcmp(cmd, "alpha_to_coverage") && count == 1) {
        p->blend.AlphaToCoverageEnable = TRUE;
    } else if (!strcmp(cmd, "depth")) {
        p->has_depth = true;
        for (unsigned i = 1; i < count; i++) {
            const char *o;
            BOOL on;
            if (!strcmp(tokens[i], "off"))
                p->depth_stencil.DepthEnable = FALSE;
            else if (!strcmp(tokens[i], "on"))
                p->depth_stencil.DepthEnable = TRUE;
            else if ((o = option(tokens[i], "func")) && parse_enum(o, compare_names, COUNT(compare_names), &v, "comparison", line))
                p->depth_stencil.DepthFunc = (D3D12_COMPARISON_FUNC)v;
            else if ((o = option(tokens[i], "write")) && parse_switch(o, &on, line))
                p->depth_stencil.DepthWriteMask = on ? D3D12_DEPTH_WRITE_MASK_ALL : D3D12_DEPTH_WRITE_MASK_ZERO;
            else if (!o)
                FAIL_AT(line, "unknown depth option '%s' (on, off, func=, write=on|off)", tokens[i]);
        }
    } else if (!strcmp(cmd, "stencil")) {
        p->depth_stencil.StencilEnable = TRUE;
        for (unsigned i = 1; i < count; i++) {
            const char *o;
            UINT mask;
            if ((o = option(tokens[i], "read_mask")) && parse_uint(o, &mask) && mask < 256)
                p->depth_stencil.StencilReadMask = (UINT8)mask;
            else if ((o = option(tokens[i], "write_mask")) && parse_uint(o, &mask) && mask < 256)
                p->depth_stencil.StencilWriteMask = (UINT8)mask;
            else if ((o = option(tokens[i], "front")))
                parse_stencil_face(o, &p->depth_stencil.FrontFace, line);
            else if ((o = option(tokens[i], "back")))
                parse_stencil_face(o, &p->depth_stencil.BackFace, line);
            else if ((o = option(tokens[i], "both"))) {
                parse_stencil_face(o, &p->depth_stencil.FrontFace, line);
                p->depth_stencil.BackFace = p->depth_stencil.FrontFace;
            } else
                FAIL_AT(line, "bad stencil option '%s' (read_mask=, write_mask=, front=, back=, both=)", tokens[i]);
        }
    } else if (!strcmp(cmd, "rasterizer")) {
        D3D12_RASTERIZER_DESC *r = &p->rasterizer;
        for (unsigned i = 1; i < count; i++) {
            static const char *const culls[] = {NULL, "none", "front", "back"};
            static const char *const fills[] = {NULL, NULL, "wireframe", "solid"};
            const char *o;
            int bias;
            char *end;
            if ((o = option(tokens[i], "cull")) && parse_enum(o, culls, COUNT(culls), &v, "cull mode", line))
                r->CullMode = (D3D12_CULL_MODE)v;
            else if ((o = option(tokens[i], "fill")) && parse_enum(o, fills, COUNT(fills), &v, "fill mode", line))
                r->FillMode = (D3D12_FILL_MODE)v;
            else if (!strcmp(tokens[i], "front_ccw"))
                r->FrontCounterClockwise = TRUE;
            else if ((o = option(tokens[i], "depth_bias"))) {
                bias = (int)strtol(o, &end, 0);
                if (*end)
                    FAIL_AT(line, "bad depth_bias '%s'", o);
                r->DepthBias = bias;
            } else if ((o = option(tokens[i], "bias_clamp")))
                r->DepthBiasClamp = strtof(o, NULL);
            else if ((o = option(tokens[i], "slope_bias")))
                r->SlopeScaledDepthBias = strtof(o, NULL);
            else if ((o = option(tokens[i], "depth_clip")))
                parse_switch(o, &r->DepthClipEnable, line);
            else if (!o)
                FAIL_AT(line, "bad rasterizer option '%s' (cull=, fill=, front_ccw, depth_bias=, bias_clamp=, slope_bias=, depth_clip=)",
                        tokens[i]);
        }
    } else if (!strcmp(cmd, "sample_mask") && count == 2) {
        if (!parse_uint(tokens[1], &p->sample_mask))
            FAIL_AT(line, "bad sample mask '%s'", tokens[1]);
    } else {
        FAIL_AT(line, "unknown pipeline line '%s' (shaders, topology, blend, alpha_to_coverage, depth, stencil, rasterizer, "
                "sample_mask)", cmd);
    }
}

/* D3D_PRIMITIVE_TOPOLOGY names without their prefix, in lower case; patch lists as patch_list_N. */
static bool parse_topology(const char *text, D3D_PRIMITIVE_TOPOLOGY *topology)
{
    static const struct {
        const char *name;
        D3D_PRIMITIVE_TOPOLOGY topology;
    } names[] = {
        {"point_list", D3D_PRIMITIVE_TOPOLOGY_POINTLIST}, {"line_list", D3D_PRIMITIVE_TOPOLOGY_LINELIST},
        {"line_strip", D3D_PRIMITIVE_TOPOLOGY_LINESTRIP}, {"triangle_list", D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST},
        {"triangle_strip", D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP}, {"line_list_adj", D3D_PRIMITIVE_TOPOLOGY_LINELIST_ADJ},
        {"line_strip_adj", D3D_PRIMITIVE_TOPOLOGY_LINESTRIP_ADJ}, {"triangle_list_adj", D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST_ADJ},
        {"triangle_strip_adj", D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP_ADJ},
    };
    UINT points;
    for (size_t i = 0; i < COUNT(names); i++)
        if (!strcmp(text, names[i].name)) {
            *topology = names[i].topology;
            return true;
        }
    if (!strncmp(text, "patch_list_", 11) && parse_uint(text + 11, &points) && points >= 1 && points <= 32) {
        *topology = (D3D_PRIMITIVE_TOPOLOGY)(D3D_PRIMITIVE_TOPOLOGY_1_CONTROL_POINT_PATCHLIST + points - 1);
        return true;
    }
    return false;
}

D3D12_PRIMITIVE_TOPOLOGY_TYPE topology_type(D3D_PRIMITIVE_TOPOLOGY topology)
{
    switch (topology) {
    case D3D_PRIMITIVE_TOPOLOGY_POINTLIST: return D3D12_PRIMITIVE_TOPOLOGY_TYPE_POINT;
    case D3D_PRIMITIVE_TOPOLOGY_LINELIST:
    case D3D_PRIMITIVE_TOPOLOGY_LINESTRIP:
    case D3D_PRIMITIVE_TOPOLOGY_LINELIST_ADJ:
    case D3D_PRIMITIVE_TOPOLOGY_LINESTRIP_ADJ: return D3D12_PRIMITIVE_TOPOLOGY_TYPE_LINE;
    case D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST:
    case D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP:
    case D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST_ADJ:
    case D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP_ADJ: return D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
    default: return D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH;
    }
}

static bool parse_numbers(char **tokens, unsigned count, UINT *out, unsigned max, int line)
{
    for (unsigned i = 0; i < count && i < max; i++)
        if (!parse_uint(tokens[i], &out[i])) {
            FAIL_AT(line, "bad number '%s'", tokens[i]);
            return false;
        }
    return true;
}

static bool parse_float_tokens(char **tokens, unsigned count, float *out, int line)
{
    for (unsigned i = 0; i < count; i++) {
        char *end;
        out[i] = strtof(tokens[i], &end);
        if (*end || end == tokens[i]) {
            FAIL_AT(line, "bad number '%s'", tokens[i]);
            return false;
        }
    }
    return true;
}

/* The draw commands of [run]; false for a command that is not one of them. */
bool parse_graphics_run_line(struct test *t, char **tokens, unsigned count, int line)
{
    const char *cmd = tokens[0];
    struct step *s;
    if (!strcmp(cmd, "draw") && count == 2 && !strcmp(tokens[1], "quad")) {
        s = new_step(t, STEP_DRAW, line);
        s->topology = D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP;
        s->counts[0] = 4, s->counts[1] = 1;
    } else if (!strcmp(cmd, "draw") || !strcmp(cmd, "draw_indexed")) {
        bool indexed = cmd[4] == '_';
        s = new_step(t, indexed ? STEP_DRAW_INDEXED : STEP_DRAW, line);
        s->counts[1] = 1;
        if (count < 3 || count > (indexed ? 7u : 6u) || !parse_topology(tokens[1], &s->topology)) {
            FAIL_AT(line, indexed ? "expected 'draw_indexed TOPOLOGY INDEX_COUNT [INSTANCE_COUNT [START_INDEX [BASE_VERTEX "
                    "[START_INSTANCE]]]]' (topologies: point_list, line_list, line_strip, triangle_list, triangle_strip, *_adj, "
                    "patch_list_N)" : "expected 'draw TOPOLOGY VERTEX_COUNT [INSTANCE_COUNT [START_VERTEX [START_INSTANCE]]]' or "
                    "'draw quad'");
            return true;
        }
        if (indexed && count > 5) {
            /* BASE_VERTEX is signed. */
            char *end;
            parse_numbers(tokens + 2, 3, s->counts, 3, line);
            s->base_vertex = (INT)strtol(tokens[5], &end, 0);
            if (*end)
                FAIL_AT(line, "bad base vertex '%s'", tokens[5]);
            if (count > 6)
                parse_numbers(tokens + 6, 1, &s->counts[3], 1, line);
        } else {
            parse_numbers(tokens + 2, count - 2, s->counts, 4, line);
        }
        if (indexed && t->graphics.index_buffer < 0)
            FAIL_AT(line, "draw_indexed needs an [index_buffer]");
    } else if (!strcmp(cmd, "viewport")) {
        s = new_step(t, STEP_VIEWPORT, line);
        s->floats[4] = 0.0f, s->floats[5] = 1.0f;
        if ((count != 5 && count != 7) || !parse_float_tokens(tokens + 1, count - 1, s->floats, line))
            FAIL_AT(line, "expected 'viewport X Y WIDTH HEIGHT [MIN_DEPTH MAX_DEPTH]'");
    } else if (!strcmp(cmd, "scissor")) {
        s = new_step(t, STEP_SCISSOR, line);
        if (count != 5 || !parse_numbers(tokens + 1, 4, s->counts, 4, line))
            FAIL_AT(line, "expected 'scissor LEFT TOP RIGHT BOTTOM'");
    } else if (!strcmp(cmd, "blend_factor")) {
        s = new_step(t, STEP_BLEND_FACTOR, line);
        if (count != 5 || !parse_float_tokens(tokens + 1, 4, s->floats, line))
            FAIL_AT(line, "expected 'blend_factor R G B A'");
    } else if (!strcmp(cmd, "stencil_ref")) {
        s = new_step(t, STEP_STENCIL_REF, line);
        if (count != 2 || !parse_numbers(tokens + 1, 1, s->counts, 1, line))
            FAIL_AT(line, "expected 'stencil_ref VALUE'");
    } else if (!strcmp(cmd, "clear_rt")) {
        s = new_step(t, STEP_CLEAR_RT, line);
        if (count != 6 || !parse_uint(tokens[1], &s->param) || s->param >= MAX_RENDER_TARGETS
                || !parse_float_tokens(tokens + 2, 4, s->floats, line))
            FAIL_AT(line, "expected 'clear_rt N R G B A'");
        else {
            if (!s->param)
                add_default_render_target(t, line);
            if (t->graphics.render_targets[s->param] < 0)
                FAIL_AT(line, "no [render_target %u] (declare it before [run])", s->param);
        }
    } else if (!strcmp(cmd, "clear_ds")) {
        s = new_step(t, STEP_CLEAR_DS, line);
        if (count != 3 || !parse_float_tokens(tokens + 1, 2, s->floats, line))
            FAIL_AT(line, "expected 'clear_ds DEPTH STENCIL'");
    } else {
        return false;
    }
    if ((s->type == STEP_DRAW || s->type == STEP_DRAW_INDEXED) && !t->graphics.first_draw_line) {
        t->graphics.first_draw_line = line;
        t->graphics.first_topology = s->topology;
    }
    return true;
}

/* After a graphics test is parsed: the built-in vertex shader, the default target and pipeline,
 * each pipeline's shaders and topology type. */
void finish_graphics(struct test *t, int line)
{
    struct graphics_def *g = &t->graphics;
    bool has_stage[STAGE_COUNT] = {false};
    int last[STAGE_COUNT];

    g->user_shader_count = t->shader_count;
    for (unsigned s = 0; s < STAGE_COUNT; s++)
        last[s] = -1;
    /* The last shader of each stage: a test's own replaces the one of the file's common part. */
    for (unsigned i = 0; i < t->shader_count; i++) {
        has_stage[t->shaders[i].stage] = true;
        last[t->shaders[i].stage] = (int)i;
    }
    if (!(g->used = has_stage[STAGE_VERTEX] || has_stage[STAGE_PIXEL] || has_stage[STAGE_GEOMETRY] || has_stage[STAGE_HULL]
            || has_stage[STAGE_DOMAIN])) {
        if (g->first_draw_line)
            FAIL_AT(g->first_draw_line, "draws need a graphics shader ([vertex shader], [pixel shader], ...)");
        return;
    }
    if (t->queue_type != D3D12_COMMAND_LIST_TYPE_DIRECT)
        FAIL_AT(line, "graphics tests run on a DIRECT queue");
    if (!has_stage[STAGE_VERTEX]) {
        /* A full-screen vertex shader for 'draw quad': a 4-vertex triangle strip over the viewport. */
        static const char source[] = "float4 main(uint id : SV_VertexID) : SV_Position\n"
                "{\n    return float4((id & 1) ? 1.0 : -1.0, (id & 2) ? -1.0 : 1.0, 0.0, 1.0);\n}\n";
        char name[] = "builtin_fullscreen_vs", *tokens[1] = {name};
        if (t->shader_count < MAX_SHADERS) {
            parse_shader_header(t, tokens, 1, STAGE_VERTEX, 0);
            shader_append(&t->shaders[t->shader_count - 1], source);
            last[STAGE_VERTEX] = (int)t->shader_count - 1;
        }
    }
    add_default_render_target(t, line);
    for (unsigned i = 0; i < t->buffer_count; i++)
        t->buffers[i].pixel_use = true;
    for (unsigned i = 0; i < t->texture_count; i++)
        t->textures[i].pixel_use = true;
    if (!g->pipeline_count)
        parse_pipeline_header(t, NULL, 0, line);
    for (unsigned i = 0; i < g->pipeline_count; i++) {
        struct pipeline_def *p = &g->pipelines[i];
        for (unsigned s = STAGE_VERTEX; s < STAGE_COUNT; s++)
            if (!p->has_shaders[s])
                p->shaders[s] = last[s];
        if (!p->has_topology) {
            p->topology = g->first_draw_line ? topology_type(g->first_topology)
                    : p->shaders[STAGE_HULL] >= 0 ? D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH : D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
        }
        if (!p->has_depth && g->depth_stencil < 0)
            p->depth_stencil.DepthEnable = FALSE;
    }
}
