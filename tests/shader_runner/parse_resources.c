/* shader_runner: parsing of resources: [buffer] and [texture] contents, [views] and [samplers] lines, `let`. */
#include "shader_runner.h"

int find_buffer(struct test *t, const char *name)
{
    for (unsigned i = 0; i < t->buffer_count; i++)
        if (!strcmp(t->buffers[i].name, name))
            return (int)i;
    return -1;
}

int find_shader(struct test *t, const char *name)
{
    for (unsigned i = 0; i < t->shader_count; i++)
        if (!strcmp(t->shaders[i].name, name))
            return (int)i;
    return -1;
}

int find_texture(struct test *t, const char *name)
{
    for (unsigned i = 0; i < t->texture_count; i++)
        if (!strcmp(t->textures[i].name, name))
            return (int)i;
    return -1;
}

/* The texels of subresource (mip + layer * mips) of a texture, and the bytes they pack into. */
struct texel_space texture_space(const struct texture_def *tex, unsigned subresource, size_t *bytes)
{
    struct texel_space space;
    UINT block = tex->format ? tex->format->block : 1;
    space.mip = subresource % tex->mips;
    space.layer = subresource / tex->mips;
    space.width = ((tex->width >> space.mip ? tex->width >> space.mip : 1) + block - 1) / block;
    space.height = ((tex->height >> space.mip ? tex->height >> space.mip : 1) + block - 1) / block;
    space.depth = tex->depth >> space.mip ? tex->depth >> space.mip : 1;
    space.texel_bytes = tex->format ? tex->format->bytes : 4;
    if (bytes)
        *bytes = (size_t)space.width * space.height * space.depth * space.texel_bytes;
    return space;
}

/* "N" or "FIRST,COUNT" (COUNT may be "all" or -1: the rest) */
static bool parse_range(const char *text, UINT *first, UINT *count, bool *has_count)
{
    char *end;
    unsigned long long a = strtoull(text, &end, 0);
    if (end == text || *text == '-')
        return false;
    *first = (UINT)a;
    if (!*end) {
        if (has_count)
            *has_count = false;
        return true;
    }
    if (*end != ',' || !count)
        return false;
    text = end + 1;
    if (!strcmp(text, "all") || !strcmp(text, "-1"))
        *count = UINT32_MAX;
    else if (!parse_uint(text, count))
        return false;
    if (has_count)
        *has_count = true;
    return true;
}

/* "[texture NAME dim=1d|2d|3d|cube format=F size=W[,H[,D]] mips=N layers=N uav depth]" */
void parse_texture_header(struct test *t, char **tokens, unsigned count, int line)
{
    struct texture_def *tex;
    bool has_layers = false;
    if (!count || t->texture_count == MAX_TEXTURES || find_texture(t, tokens[0]) >= 0 || find_buffer(t, tokens[0]) >= 0) {
        FAIL_AT(line, "expected '[texture NAME format=DXGI_FORMAT size=W[,H[,D]] [dim=1d|2d|3d|cube] [mips=N] [layers=N] [uav] "
                "[depth]]' with a new name (at most %d textures)", MAX_TEXTURES);
        return;
    }
    tex = &t->textures[t->texture_count++];
    copy_name(tex->name, sizeof(tex->name), tokens[0]);
    tex->line = line;
    tex->dimension = 2;
    tex->width = tex->height = tex->depth = tex->mips = tex->layers = 1;
    for (unsigned i = 1; i < count; i++) {
        const char *o;
        if ((o = option(tokens[i], "dim"))) {
            if (!strcmp(o, "1d"))
                tex->dimension = 1;
            else if (!strcmp(o, "2d"))
                tex->dimension = 2;
            else if (!strcmp(o, "3d"))
                tex->dimension = 3;
            else if (!strcmp(o, "cube"))
                tex->dimension = 2, tex->cube = true;
            else
                FAIL_AT(line, "bad texture dim '%s' (1d, 2d, 3d, cube)", o);
        } else if ((o = option(tokens[i], "format"))) {
            if (!(tex->format = find_format(o)))
                FAIL_AT(line, "unknown format '%s' (DXGI_FORMAT names without the prefix: R8G8B8A8_UNORM, ...)", o);
        } else if ((o = option(tokens[i], "size"))) {
            UINT sizes[3] = {1, 1, 1};
            unsigned n = 0;
            char *end;
            const char *p = o;
            do {
                if (n == 3 || !isdigit((unsigned char)*p))
                    break;
                sizes[n++] = (UINT)strtoul(p, &end, 10);
                p = end;
            } while (*p == ',' && *++p);
            if (!n || *p || !sizes[0] || !sizes[1] || !sizes[2])
                FAIL_AT(line, "bad texture size '%s' (W[,H[,D]], each at least 1)", o);
            tex->width = sizes[0], tex->height = sizes[1], tex->depth = sizes[2];
        } else if ((o = option(tokens[i], "mips"))) {
            if (!parse_uint(o, &tex->mips) || tex->mips > 16)
                FAIL_AT(line, "bad mips '%s' (0 for the full chain, up to 16)", o);
        } else if ((o = option(tokens[i], "layers"))) {
            if (!parse_uint(o, &tex->layers) || !tex->layers || tex->layers > 2048)
                FAIL_AT(line, "bad layers '%s' (1 to 2048)", o);
            has_layers = true;
        } else if (!strcmp(tokens[i], "uav")) {
            tex->uav = true;
        } else if (!strcmp(tokens[i], "depth")) {
            tex->depth_stencil = true;
        } else {
            FAIL_AT(line, "bad texture option '%s' (dim=, format=, size=, mips=, layers=, uav, depth)", tokens[i]);
        }
    }
    if (!tex->format)
        FAIL_AT(line, "texture '%s' needs format=DXGI_FORMAT", tex->name);
    if (tex->dimension == 1 && tex->height > 1)
        FAIL_AT(line, "a 1d texture has size=W");
    if (tex->dimension != 3 && tex->depth > 1)
        FAIL_AT(line, "only 3d textures have a depth (size=W,H,D); 1d and 2d ones take layers=N");
    if (tex->dimension == 3 && tex->layers > 1)
        FAIL_AT(line, "3d textures have no layers");
    if (tex->cube) {
        if (!has_layers)
            tex->layers = 6;
        if (tex->layers % 6 || tex->width != tex->height)
            FAIL_AT(line, "a cube texture is square with 6k layers (%ux%u with %u layers)", tex->width, tex->height, tex->layers);
    }
    if (!tex->mips) {
        UINT largest = tex->width > tex->height ? tex->width : tex->height;
        if (tex->depth > largest)
            largest = tex->depth;
        while (largest >> tex->mips)
            tex->mips++;
    }
    tex->subresource_count = tex->mips * tex->layers;
    tex->subresources = xcalloc(tex->subresource_count, sizeof(*tex->subresources));
    for (unsigned i = 0; i < tex->subresource_count; i++)
        tex->subresources[i].line = line;
}

/* A line of a [texture]: "subresource N" or "mip M [layer L]" picks the subresource the next
 * lines fill (subresource 0 at first); the rest is [buffer] syntax. */
void parse_texture_line(struct texture_def *tex, unsigned *current, char *text, int line)
{
    char copy[256], *tokens[8];
    unsigned count;
    struct texel_space space;

    copy_name(copy, sizeof(copy), text);
    count = tokenize(copy, tokens, 8);
    if (count && (!strcmp(tokens[0], "subresource") || !strcmp(tokens[0], "mip") || !strcmp(tokens[0], "layer"))) {
        UINT mip = 0, layer = 0, index;
        bool ok = true;
        if (!strcmp(tokens[0], "subresource")) {
            ok = count == 2 && parse_uint(tokens[1], &index);
        } else {
            for (unsigned i = 0; ok && i < count; i += 2) {
                ok = i + 1 < count && (!strcmp(tokens[i], "mip") || !strcmp(tokens[i], "layer"));
                if (ok)
                    ok = parse_uint(tokens[i + 1], !strcmp(tokens[i], "mip") ? &mip : &layer);
            }
            index = mip + layer * tex->mips;
            ok = ok && mip < tex->mips;
        }
        if (!ok || index >= tex->subresource_count) {
            FAIL_AT(line, "expected 'subresource N' or 'mip M [layer L]' of texture '%s' (%u mips, %u layers)", tex->name, tex->mips,
                    tex->layers);
            return;
        }
        *current = index;
        tex->subresources[index].line = line;
        return;
    }
    space = texture_space(tex, *current, NULL);
    parse_buffer_line(&tex->subresources[*current], text, line, &space);
}

/* "name" or "name+offset" */
bool parse_buffer_ref(struct test *t, const char *text, int *buffer, UINT64 *offset, int line)
{
    char name[64];
    const char *plus = strchr(text, '+');
    size_t n = plus ? (size_t)(plus - text) : strlen(text);
    if (n >= sizeof(name)) {
        FAIL_AT(line, "buffer name '%s' is too long", text);
        return false;
    }
    memcpy(name, text, n);
    name[n] = 0;
    *offset = 0;
    if ((*buffer = find_buffer(t, name)) < 0) {
        FAIL_AT(line, "no buffer named '%s' (declare it with [buffer %s] before use)", name, name);
        return false;
    }
    if (plus && !parse_u64(plus + 1, offset)) {
        FAIL_AT(line, "bad byte offset in '%s'", text);
        return false;
    }
    return true;
}

/* "b3" -> class 'b', register 3 */
bool parse_register(const char *text, char expected_class, UINT *reg, int line)
{
    if (text[0] != expected_class || !parse_uint(text + 1, reg)) {
        FAIL_AT(line, "expected a register %cN, got '%s'", expected_class, text);
        return false;
    }
    return true;
}

/* Sampler options shared by [samplers] lines and static samplers: desc starts with the defaults
 * (point, clamp, MaxLOD 1000, no comparison) and takes each option of tokens. */
void sampler_defaults(D3D12_SAMPLER_DESC *desc)
{
    memset(desc, 0, sizeof(*desc));
    desc->Filter = D3D12_FILTER_MIN_MAG_MIP_POINT;
    desc->AddressU = desc->AddressV = desc->AddressW = D3D12_TEXTURE_ADDRESS_MODE_CLAMP;
    desc->ComparisonFunc = D3D12_COMPARISON_FUNC_NEVER;
    desc->MaxLOD = 1000.0f;
}

static bool parse_address_mode(const char *text, D3D12_TEXTURE_ADDRESS_MODE *mode)
{
    static const struct { const char *name; D3D12_TEXTURE_ADDRESS_MODE mode; } names[] = {
        {"wrap", D3D12_TEXTURE_ADDRESS_MODE_WRAP}, {"mirror", D3D12_TEXTURE_ADDRESS_MODE_MIRROR},
        {"clamp", D3D12_TEXTURE_ADDRESS_MODE_CLAMP}, {"border", D3D12_TEXTURE_ADDRESS_MODE_BORDER},
        {"mirror_once", D3D12_TEXTURE_ADDRESS_MODE_MIRROR_ONCE},
    };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (!strcmp(text, names[i].name)) {
            *mode = names[i].mode;
            return true;
        }
    }
    return false;
}

bool parse_floats(const char *text, float *out, unsigned n)
{
    char *end;
    for (unsigned i = 0; i < n; i++) {
        out[i] = strtof(text, &end);
        if (end == text || (i + 1 < n ? *end != ',' : *end != 0))
            return false;
        text = end + 1;
    }
    return true;
}

bool parse_sampler_options(char **tokens, unsigned count, D3D12_SAMPLER_DESC *desc, int line)
{
    static const struct { const char *name; unsigned filter; } filters[] = {
        {"point", 0x00}, {"min_mag_mip_point", 0x00}, {"min_mag_point_mip_linear", 0x01}, {"min_point_mag_linear_mip_point", 0x04},
        {"min_point_mag_mip_linear", 0x05}, {"min_linear_mag_mip_point", 0x10}, {"min_linear_mag_point_mip_linear", 0x11},
        {"min_mag_linear_mip_point", 0x14}, {"linear", 0x15}, {"min_mag_mip_linear", 0x15}, {"min_mag_anisotropic_mip_point", 0x54},
        {"aniso", 0x55}, {"anisotropic", 0x55},
    };
    static const char *const compares[] = {"never", "less", "equal", "less_equal", "greater", "not_equal", "greater_equal", "always"};
    static const char *const reductions[] = {"standard", "comparison", "min", "max"};
    unsigned filter = 0, reduction = 0;
    bool has_reduction = false, has_anisotropy = false, ok = true;

    for (unsigned i = 0; i < count; i++) {
        const char *o;
        bool found = false;
        if ((o = option(tokens[i], "filter"))) {
            for (size_t f = 0; f < sizeof(filters) / sizeof(filters[0]); f++)
                if (!strcmp(o, filters[f].name))
                    filter = filters[f].filter, found = true;
            if (!found) {
                FAIL_AT(line, "unknown filter '%s' (point, linear, aniso, min_mag_point_mip_linear, min_point_mag_linear_mip_point, "
                        "min_point_mag_mip_linear, min_linear_mag_mip_point, min_linear_mag_point_mip_linear, "
                        "min_mag_linear_mip_point, min_mag_anisotropic_mip_point)", o);
                ok = false;
            }
        } else if ((o = option(tokens[i], "address")) || (o = option(tokens[i], "address_u")) || (o = option(tokens[i], "address_v"))
                || (o = option(tokens[i], "address_w"))) {
            D3D12_TEXTURE_ADDRESS_MODE modes[3];
            char text[64], *parts[3];
            unsigned n = 0, total = 0;
            copy_name(text, sizeof(text), o);
            for (char *p = strtok(text, ","); p; p = strtok(NULL, ","), total++)
                if (n < 3)
                    parts[n++] = p;
            found = total == 1 || (total == 3 && tokens[i][7] == '=');
            for (unsigned k = 0; found && k < n; k++)
                found = parse_address_mode(parts[k], &modes[k]);
            if (!found) {
                FAIL_AT(line, "bad address mode '%s' (wrap, clamp, mirror, border, mirror_once; address= takes one or U,V,W)", o);
                ok = false;
            } else if (tokens[i][7] == '=') {
                desc->AddressU = modes[0];
                desc->AddressV = modes[n == 3 ? 1 : 0];
                desc->AddressW = modes[n == 3 ? 2 : 0];
            } else if (tokens[i][8] == 'u') {
                desc->AddressU = modes[0];
            } else if (tokens[i][8] == 'v') {
                desc->AddressV = modes[0];
            } else {
                desc->AddressW = modes[0];
            }
        } else if ((o = option(tokens[i], "border"))) {
            static const struct { const char *name; float colour[4]; } named[] = {
                {"transparent_black", {0, 0, 0, 0}}, {"opaque_black", {0, 0, 0, 1}}, {"opaque_white", {1, 1, 1, 1}},
            };
            for (size_t k = 0; k < sizeof(named) / sizeof(named[0]); k++)
                if (!strcmp(o, named[k].name))
                    memcpy(desc->BorderColor, named[k].colour, sizeof(desc->BorderColor)), found = true;
            if (!found && !parse_floats(o, desc->BorderColor, 4)) {
                FAIL_AT(line, "bad border '%s' (R,G,B,A, or transparent_black, opaque_black, opaque_white)", o);
                ok = false;
            }
        } else if ((o = option(tokens[i], "lod_bias")) || (o = option(tokens[i], "min_lod")) || (o = option(tokens[i], "max_lod"))) {
            float *target = tokens[i][1] == 'o' ? &desc->MipLODBias : tokens[i][1] == 'i' ? &desc->MinLOD : &desc->MaxLOD;
            if (!parse_floats(o, target, 1)) {
                FAIL_AT(line, "bad number in '%s'", tokens[i]);
                ok = false;
            }
        } else if ((o = option(tokens[i], "anisotropy"))) {
            if (!parse_uint(o, &desc->MaxAnisotropy)) {
                FAIL_AT(line, "bad anisotropy '%s' (1 to 16)", o);
                ok = false;
            }
            has_anisotropy = true;
        } else if ((o = option(tokens[i], "compare"))) {
            for (size_t k = 0; k < sizeof(compares) / sizeof(compares[0]); k++)
                if (!strcmp(o, compares[k]))
                    desc->ComparisonFunc = (D3D12_COMPARISON_FUNC)(D3D12_COMPARISON_FUNC_NEVER + k), found = true;
            if (!found) {
                FAIL_AT(line, "unknown comparison '%s' (never, less, equal, less_equal, greater, not_equal, greater_equal, always)", o);
                ok = false;
            }
            if (has_reduction && reduction != 1) {
                FAIL_AT(line, "compare= makes a comparison sampler; reduction= says otherwise");
                ok = false;
            }
            reduction = 1, has_reduction = true;
        } else if ((o = option(tokens[i], "reduction"))) {
            for (size_t k = 0; k < sizeof(reductions) / sizeof(reductions[0]); k++)
                if (!strcmp(o, reductions[k]))
                    reduction = (unsigned)k, found = true;
            if (!found || (has_reduction && reduction != 1)) {
                FAIL_AT(line, "bad reduction '%s' (standard, comparison, min, max; compare= implies comparison)", o);
                ok = false;
            }
            has_reduction = true;
        } else {
            FAIL_AT(line, "unknown sampler option '%s' (filter=, address=, address_u/v/w=, border=, lod_bias=, min_lod=, max_lod=, "
                    "anisotropy=, compare=, reduction=)", tokens[i]);
            ok = false;
        }
    }
    desc->Filter = (D3D12_FILTER)(filter | reduction << 7);
    if ((filter & 0x40) && !has_anisotropy)
        desc->MaxAnisotropy = 16;
    return ok;
}

bool parse_hresult(const char *text, HRESULT *hr)
{
    static const struct { const char *name; HRESULT hr; } names[] = {
        {"S_OK", S_OK}, {"E_FAIL", E_FAIL}, {"E_INVALIDARG", E_INVALIDARG}, {"E_NOTIMPL", E_NOTIMPL},
        {"E_POINTER", E_POINTER}, {"E_OUTOFMEMORY", E_OUTOFMEMORY},
    };
    uint64_t v;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (!strcmp(text, names[i].name)) {
            *hr = names[i].hr;
            return true;
        }
    }
    if (parse_u64(text, &v) && v <= UINT32_MAX) {
        *hr = (HRESULT)(uint32_t)v;
        return true;
    }
    return false;
}

void buffer_write(struct buffer_def *b, const void *data, size_t size)
{
    if (b->cursor + size > b->capacity) {
        size_t capacity = (b->cursor + size) * 2;
        uint8_t *p = xcalloc(capacity, 1);
        if (b->data)
            memcpy(p, b->data, b->size);
        free(b->data);
        b->data = p;
        b->capacity = capacity;
    }
    memcpy(b->data + b->cursor, data, size);
    b->cursor += size;
    if (b->cursor > b->size)
        b->size = b->cursor;
}

/* "fill TYPE COUNT [stride=S]: EXPR" / "each TYPE COUNT [stride=S] [tol=X]: EXPR": the tokens before ':'. */
bool parse_formula_head(char **tokens, unsigned count, enum value_type *type, size_t *n, size_t *stride, double *tolerance, int line)
{
    uint64_t v;
    *stride = 4;
    *tolerance = 0.0;
    if (count < 3 || !parse_type(tokens[1], type) || !parse_u64(tokens[2], &v)) {
        FAIL_AT(line, "expected '%s " VALUE_TYPE_NAMES " COUNT [stride=BYTES] [tol=X]: EXPRESSION'", tokens[0]);
        return false;
    }
    *n = v;
    *stride = value_types[*type].size;
    for (unsigned i = 3; i < count; i++) {
        const char *o;
        if ((o = option(tokens[i], "stride")) && parse_u64(o, &v) && v >= value_types[*type].size)
            *stride = v;
        else if ((o = option(tokens[i], "tol")))
            *tolerance = strtod(o, NULL);
        else {
            FAIL_AT(line, "bad option '%s'", tokens[i]);
            return false;
        }
    }
    return true;
}

/* "let NAME = EXPRESSION": true if text was one. */
bool parse_let(char *text, int line)
{
    char *p = text, *name, *eq;
    while (isspace((unsigned char)*p))
        p++;
    if (strncmp(p, "let", 3) || !isspace((unsigned char)p[3]))
        return false;
    name = p + 3;
    while (isspace((unsigned char)*name))
        name++;
    if (!(eq = strchr(name, '='))) {
        FAIL_AT(line, "expected 'let NAME = EXPRESSION'");
        return true;
    }
    *eq = 0;
    for (char *end = eq - 1; end >= name && isspace((unsigned char)*end); end--)
        *end = 0;
    if (!*name || let_count == MAX_LETS || strlen(name) >= sizeof(lets[0].name)) {
        FAIL_AT(line, "bad 'let' name or too many lets (at most %d)", MAX_LETS);
        return true;
    }
    copy_name(lets[let_count].name, sizeof(lets[let_count].name), name);
    lets[let_count++].text = xstrdup(eq + 1);
    return true;
}

/* A line of a [buffer], or of a [texture]'s subresource (space: its texels, for the names x y z c
 * layer mip of expressions, and `i` the texel index). */
void parse_buffer_line(struct buffer_def *b, char *text, int line, const struct texel_space *space)
{
    char *tokens[MAX_TOKENS], *colon = strchr(text, ':');
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
        if (count != 2 || !parse_u64(tokens[1], &offset)) {
            FAIL_AT(line, "expected 'at BYTE_OFFSET'");
            return;
        }
        b->cursor = offset;
        if (b->cursor > b->size) {
            uint8_t zero = 0;
            b->cursor--;
            buffer_write(b, &zero, 1);
        }
        return;
    }
    if (!strcmp(tokens[0], "fill")) {
        size_t n, stride;
        double tolerance;
        if (!colon) {
            FAIL_AT(line, "fill needs ': EXPRESSION'");
            return;
        }
        if (!parse_formula_head(tokens, count, &type, &n, &stride, &tolerance, line))
            return;
        size_t start = b->cursor;
        for (size_t i = 0; i < n; i++) {
            struct value v;
            const char *error;
            uint8_t bytes[4];
            size_t offset = start + i * stride;
            if (!evaluate(colon + 1, space ? (int64_t)(offset / space->texel_bytes) : (int64_t)i, 0, space, offset,
                    value_types[type].size, &v, &error)) {
                FAIL_AT(line, "expression '%s': %s", colon + 1, error);
                return;
            }
            encode_value(v, type, bytes);
            b->cursor = offset;
            buffer_write(b, bytes, value_types[type].size);
        }
        b->cursor = start + n * stride; /* like 'each' in [expect]: the next line starts after the last element */
        return;
    }
    if (parse_type(tokens[0], &type)) {
        for (unsigned i = 1; i < count; i++) {
            struct value v;
            uint8_t bytes[4];
            if (!parse_literal(tokens[i], type, &v)) {
                FAIL_AT(line, "bad %s value '%s'", tokens[0], tokens[i]);
                return;
            }
            encode_value(v, type, bytes);
            buffer_write(b, bytes, value_types[type].size);
        }
        return;
    }
    FAIL_AT(line, "unknown %s line '%s' (" VALUE_TYPE_NAMES " VALUES, fill TYPE COUNT: EXPR, at OFFSET%s)", space ? "texture" : "buffer",
            tokens[0], space ? ", subresource N, mip M layer L" : "");
}

/* The options of a texture or null view: [format=F] [dim=D] [mips=FIRST,COUNT] [layers=FIRST,COUNT]
 * [swizzle=rgba01] [plane=N] [min_lod_clamp=X] for SRVs, [format=F] [dim=D] [mip=N] [layers=FIRST,COUNT] [plane=N] for
 * UAVs. */
static void parse_texture_view_options(struct test *t, struct view_def *v, char **tokens, unsigned count, int line)
{
    bool srv = v->kind == VIEW_SRV;
    for (unsigned i = 0; i < count; i++) {
        const char *o;
        if ((o = option(tokens[i], "format"))) {
            const struct format_info *info = find_format(o);
            if (info)
                v->format = info->format;
            else
                FAIL_AT(line, "unknown format '%s'", o);
        } else if ((o = option(tokens[i], "dim"))) {
            v->dimension = VDIM_DEFAULT;
            for (unsigned d = VDIM_1D; d <= VDIM_CUBEARRAY; d++)
                if (!strcmp(o, view_dimension_names[d]))
                    v->dimension = (enum view_dimension)d;
            if (v->dimension == VDIM_DEFAULT || (!srv && v->dimension >= VDIM_CUBE))
                FAIL_AT(line, "bad view dim '%s' (1d, 1darray, 2d, 2darray, 3d%s)", o, srv ? ", cube, cubearray" : "");
        } else if (srv && (o = option(tokens[i], "mips"))) {
            if (!parse_range(o, &v->first_mip, &v->mip_count, NULL))
                FAIL_AT(line, "bad mips '%s' (FIRST or FIRST,COUNT; COUNT 'all' or -1 for the rest)", o);
        } else if (!srv && (o = option(tokens[i], "mip"))) {
            if (!parse_uint(o, &v->first_mip))
                FAIL_AT(line, "bad mip '%s'", o);
        } else if ((o = option(tokens[i], "layers"))) {
            bool has_count;
            v->has_layers = true;
            if (!parse_range(o, &v->first_layer, &v->layer_count, &has_count))
                FAIL_AT(line, "bad layers '%s' (FIRST or FIRST,COUNT)", o);
            else if (!has_count)
                v->layer_count = UINT32_MAX;
        } else if ((o = option(tokens[i], "plane"))) {
            if (!parse_uint(o, &v->plane))
                FAIL_AT(line, "bad plane '%s'", o);
        } else if (srv && (o = option(tokens[i], "swizzle"))) {
            static const char sources[] = "rgba01";
            UINT c[4];
            bool ok = strlen(o) == 4;
            for (unsigned k = 0; ok && k < 4; k++) {
                const char *at = o[k] ? strchr(sources, o[k]) : NULL;
                ok = at != NULL;
                c[k] = ok ? (UINT)(at - sources) : 0;
            }
            if (ok)
                v->mapping = D3D12_ENCODE_SHADER_4_COMPONENT_MAPPING(c[0], c[1], c[2], c[3]);
            else
                FAIL_AT(line, "bad swizzle '%s' (four of r g b a 0 1, e.g. bgr1)", o);
        } else if (srv && (o = option(tokens[i], "min_lod_clamp"))) {
            if (!parse_floats(o, &v->min_lod_clamp, 1))
                FAIL_AT(line, "bad min_lod_clamp '%s'", o);
        } else {
            FAIL_AT(line, "bad texture view option '%s' (%s)", tokens[i],
                    srv ? "format=, dim=, mips=FIRST,COUNT, layers=FIRST,COUNT, swizzle=, plane=, min_lod_clamp="
                        : "format=, dim=, mip=N, layers=FIRST,COUNT, plane=");
        }
    }
    if (v->form == FORM_NULL) {
        if (v->dimension == VDIM_DEFAULT || v->format == DXGI_FORMAT_UNKNOWN)
            FAIL_AT(line, "null views need dim= and format=");
        return;
    }
    const struct texture_def *tex = &t->textures[v->texture];
    if (v->kind == VIEW_UAV && !tex->uav)
        FAIL_AT(line, "texture '%s' needs the uav flag for a UAV", tex->name);
}

/* A [samplers] line: "INDEX [filter=...] [address=...] ...", a sampler of the SAMPLER heap. */
void parse_sampler_line(struct test *t, char **tokens, unsigned count, int line)
{
    struct sampler_def *s;
    if (t->sampler_view_count == MAX_SAMPLER_VIEWS) {
        FAIL_AT(line, "at most %d samplers", MAX_SAMPLER_VIEWS);
        return;
    }
    s = &t->sampler_views[t->sampler_view_count];
    s->line = line;
    if (!parse_uint(tokens[0], &s->index)) {
        FAIL_AT(line, "expected 'INDEX [filter=...] [address=...] [border=R,G,B,A] [lod_bias=X] [min_lod=X] [max_lod=X] "
                "[anisotropy=N] [compare=FUNC] [reduction=min|max]'");
        return;
    }
    sampler_defaults(&s->desc);
    parse_sampler_options(tokens + 1, count - 1, &s->desc, line);
    if (s->index >= t->sampler_heap_size)
        t->sampler_heap_size = s->index + 1;
    t->sampler_view_count++;
}

void parse_view_line(struct test *t, char **tokens, unsigned count, int line)
{
    struct view_def *v;
    unsigned i;

    if (t->view_count == MAX_VIEWS) {
        FAIL_AT(line, "at most %d views", MAX_VIEWS);
        return;
    }
    v = &t->views[t->view_count];
    memset(v, 0, sizeof(*v));
    v->line = line;
    v->texture = -1;
    v->mip_count = UINT32_MAX;
    v->mapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
    if (count < 3 || !parse_uint(tokens[0], &v->index)) {
        FAIL_AT(line, "expected 'INDEX srv|uav raw|structured|typed BUFFER [options]', 'INDEX srv|uav texture NAME [options]', "
                "'INDEX srv|uav null dim=D format=F' or 'INDEX cbv BUFFER [offset=N] [size=N]'");
        return;
    }
    if (!strcmp(tokens[1], "cbv")) {
        v->kind = VIEW_CBV;
        if (!parse_buffer_ref(t, tokens[2], &v->buffer, &v->offset, line))
            return;
        i = 3;
    } else {
        if (!strcmp(tokens[1], "srv"))
            v->kind = VIEW_SRV;
        else if (!strcmp(tokens[1], "uav"))
            v->kind = VIEW_UAV;
        else {
            FAIL_AT(line, "unknown view kind '%s' (srv, uav, cbv)", tokens[1]);
            return;
        }
        if (!strcmp(tokens[2], "null")) {
            v->form = FORM_NULL;
            i = 3;
        } else if (count < 4) {
            FAIL_AT(line, "expected 'INDEX %s raw|structured|typed BUFFER [options]' or 'INDEX %s texture NAME [options]'", tokens[1],
                    tokens[1]);
            return;
        } else if (!strcmp(tokens[2], "texture")) {
            v->form = FORM_TEXTURE;
            if ((v->texture = find_texture(t, tokens[3])) < 0) {
                FAIL_AT(line, "no texture named '%s' (declare it with [texture %s ...] before use)", tokens[3], tokens[3]);
                return;
            }
            i = 4;
        } else {
            if (!strcmp(tokens[2], "raw"))
                v->form = FORM_RAW;
            else if (!strcmp(tokens[2], "structured"))
                v->form = FORM_STRUCTURED;
            else if (!strcmp(tokens[2], "typed"))
                v->form = FORM_TYPED;
            else {
                FAIL_AT(line, "unknown view form '%s' (raw, structured, typed, texture, null)", tokens[2]);
                return;
            }
            UINT64 unused;
            if (!parse_buffer_ref(t, tokens[3], &v->buffer, &unused, line))
                return;
            i = 4;
        }
    }
    if (v->form == FORM_TEXTURE || v->form == FORM_NULL) {
        parse_texture_view_options(t, v, tokens + i, count - i, line);
        if (v->index >= t->heap_size)
            t->heap_size = v->index + 1;
        t->view_count++;
        return;
    }
    for (; i < count; i++) {
        const char *o;
        uint64_t u;
        if ((o = option(tokens[i], "stride")) && parse_uint(o, &v->stride)) {
        } else if ((o = option(tokens[i], "first")) && parse_u64(o, &u)) {
            v->first = u;
        } else if ((o = option(tokens[i], "count")) && parse_uint(o, &v->count)) {
            v->has_count = true;
        } else if ((o = option(tokens[i], "offset")) && parse_u64(o, &u)) {
            v->offset = u;
        } else if ((o = option(tokens[i], "size")) && parse_uint(o, &v->size)) {
            v->has_size = true;
        } else if ((o = option(tokens[i], "format"))) {
            const struct format_info *info = find_format(o);
            if (info)
                v->format = info->format;
            else
                FAIL_AT(line, "unknown format '%s'", o);
        } else {
            FAIL_AT(line, "bad view option '%s'", tokens[i]);
        }
    }
    if (v->form == FORM_STRUCTURED && !v->stride)
        FAIL_AT(line, "structured views need stride=BYTES");
    if (v->form == FORM_TYPED && v->format == DXGI_FORMAT_UNKNOWN)
        FAIL_AT(line, "typed views need format=NAME");
    if (v->index >= t->heap_size)
        t->heap_size = v->index + 1;
    if (v->kind == VIEW_UAV)
        t->buffers[v->buffer].uav_use = true;
    else
        t->buffers[v->buffer].read_use = true;
    t->view_count++;
}
