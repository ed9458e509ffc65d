/* shader_runner: the types and functions its files share (the .c files beside it). */
#ifndef SHADER_RUNNER_H
#define SHADER_RUNNER_H

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>

#include <d3dcompiler.h>

#include "harness.h"

#define SKIP_EXIT_CODE 77
#define MAX_TOKENS 256
#define MAX_SHADERS 8
#define MAX_DEFINES 8
#define MAX_PARAMS 64
#define MAX_RANGES 32
#define MAX_SAMPLERS 16
#define MAX_BUFFERS 32
#define MAX_VIEWS 256
#define MAX_NEEDLES 4
#define MAX_TEXTURES 32
#define MAX_SAMPLER_VIEWS 64

extern const char *current_file;
extern unsigned file_errors; /* syntax errors and failed checks of the current file */
#define FAIL_AT(line, ...) fail_at(line, __VA_ARGS__)

struct value {
    bool is_float;
    int64_t i;
    double f;
};

/* How the packed bytes of a texture's subresource map to texels, for the names x y z c layer mip
 * of expressions (NULL for buffers). */
struct texel_space {
    UINT width, height, depth; /* of the subresource, in texels (blocks of block-compressed formats) */
    UINT texel_bytes, mip, layer;
};

static inline struct value int_value(int64_t i) { struct value v = {false, i, (double)i}; return v; }
/* The integer view of a float is only defined within int64's range (NaN, infinities and huge
 * values read 0 there: nothing uses it for them, and C makes the conversion undefined). */
static inline struct value float_value(double f)
{
    struct value v = {true, f > -9.2e18 && f < 9.2e18 ? (int64_t)f : 0, f};
    return v;
}
static inline double as_double(struct value v) { return v.is_float ? v.f : (double)v.i; }

/* "let NAME = EXPRESSION" definitions of the current file, usable in later expressions. */
#define MAX_LETS 32
struct let {
    char name[32];
    char *text;
};
extern struct let lets[MAX_LETS];
extern unsigned let_count;

/* The DXGI formats buffers' typed views and textures name: bytes of a texel (of a 4x4 block for
 * block-compressed ones). */
struct format_info {
    const char *name;
    DXGI_FORMAT format;
    UINT bytes, block;
};

/* ---- the parsed test ---- */

/* The element types of [buffer], [texture] and [expect] lines: 32-bit uint int float, and the
 * smaller ones textures hold. "real" types take and compare numbers (unorm and snorm ones their
 * value in [0, 1] or [-1, 1]); the others take integers, compared bit for bit. */
enum value_type {
    TYPE_UINT, TYPE_INT, TYPE_FLOAT, TYPE_HALF, TYPE_UINT16, TYPE_INT16, TYPE_UNORM16, TYPE_SNORM16,
    TYPE_UINT8, TYPE_INT8, TYPE_UNORM8, TYPE_SNORM8,
};

struct value_type_info {
    const char *name;
    unsigned size;
    bool real;
};
extern const struct value_type_info value_types[TYPE_SNORM8 + 1];
#define VALUE_TYPE_NAMES "uint|int|float|half|uint16|int16|unorm16|snorm16|uint8|int8|unorm8|snorm8"

/* The stage of a [shader] section: [shader] is compute, [vertex shader] and so on the others. */
enum shader_stage { STAGE_COMPUTE, STAGE_VERTEX, STAGE_HULL, STAGE_DOMAIN, STAGE_GEOMETRY, STAGE_PIXEL, STAGE_COUNT };

struct shader_def {
    enum shader_stage stage;
    char name[64], entry[64], profile[16];
    char *source;
    size_t source_length, source_capacity;
    D3D_SHADER_MACRO defines[MAX_DEFINES + 1];
    char *define_text[MAX_DEFINES];
    unsigned define_count;
    int line;
    ID3DBlob *code;
    ID3D12PipelineState *pipeline;
};

struct buffer_def {
    char name[64];
    uint8_t *data;
    size_t size, capacity, cursor, declared_size;
    bool upload, uav_use, read_use, expected;
    bool vertex_use, index_use; /* [vertex_buffer], [index_buffer] */
    bool pixel_use; /* a graphics test: pixel shaders may read it too */
    int line;
    ID3D12Resource *resource, *staging, *readback;
};

/* [texture NAME ...]: a texture and the packed bytes of each subresource (mip + layer * mips). */
struct texture_def {
    char name[64];
    unsigned dimension; /* 1, 2 or 3 */
    bool cube, uav, depth_stencil, expected;
    bool render_target, depth_target; /* [render_target], [depth_stencil] */
    UINT samples; /* targets: the sample count (0 or 1: one) */
    bool pixel_use; /* a graphics test: pixel shaders may read it too */
    const struct format_info *format;
    UINT width, height, depth, mips, layers;
    struct buffer_def *subresources;
    unsigned subresource_count;
    int line;
    ID3D12Resource *resource, *upload, *readback;
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT *layouts;
    UINT *rows;
};

enum view_kind { VIEW_SRV, VIEW_UAV, VIEW_CBV };
enum view_form { FORM_RAW, FORM_STRUCTURED, FORM_TYPED, FORM_TEXTURE, FORM_NULL };
/* View dimensions of textures ([views] dim=). */
enum view_dimension { VDIM_DEFAULT, VDIM_1D, VDIM_1DARRAY, VDIM_2D, VDIM_2DARRAY, VDIM_3D, VDIM_CUBE, VDIM_CUBEARRAY };
extern const char *const view_dimension_names[];

struct view_def {
    unsigned index;
    enum view_kind kind;
    enum view_form form;
    int buffer;
    UINT stride, count;
    UINT64 first;
    DXGI_FORMAT format;
    UINT64 offset; /* CBV */
    UINT size;     /* CBV */
    bool has_count, has_size;
    /* Textures (FORM_TEXTURE, FORM_NULL) */
    int texture;
    enum view_dimension dimension;
    UINT first_mip, mip_count, first_layer, layer_count, plane, mapping;
    bool has_layers;
    float min_lod_clamp;
    int line;
};

/* [samplers]: one sampler of the SAMPLER heap. */
struct sampler_def {
    unsigned index;
    D3D12_SAMPLER_DESC desc;
    int line;
};

enum step_type {
    STEP_PIPELINE, STEP_CONSTANTS, STEP_CONSTANT, STEP_CBV, STEP_SRV, STEP_UAV, STEP_TABLE, STEP_DISPATCH, STEP_BARRIER,
    STEP_GRAPHICS_PIPELINE, STEP_DRAW, STEP_DRAW_INDEXED, STEP_VIEWPORT, STEP_SCISSOR, STEP_BLEND_FACTOR, STEP_STENCIL_REF,
    STEP_CLEAR_RT, STEP_CLEAR_DS,
};

struct step {
    enum step_type type;
    unsigned param;
    int shader; /* STEP_PIPELINE: -1 = none */
    int buffer;
    UINT64 offset;
    uint32_t *values;
    unsigned value_count, value_offset;
    UINT groups[3];
    /* draws: vertex or index count, instance count, first vertex or index, first instance; scissor rectangles; the
     * stencil reference */
    UINT counts[4];
    INT base_vertex;
    D3D_PRIMITIVE_TOPOLOGY topology;
    float floats[6]; /* viewports, blend factors, clear values */
    int line;
};

enum expect_kind { EXPECT_LIST, EXPECT_EACH };

struct expect_item {
    int buffer, texture;    /* one of them is -1 */
    unsigned subresource;   /* textures */
    enum expect_kind kind;
    enum value_type type;
    size_t offset, stride;
    double tolerance;
    char **values; /* EXPECT_LIST: the literal tokens */
    size_t count;
    char *formula;
    UINT rect_width, rect_height; /* probe rect and probe all: the values repeat over a rectangle of texels */
    int line;
};

enum fail_stage { FAIL_NONE, FAIL_COMPILE, FAIL_ROOT_SIGNATURE, FAIL_PIPELINE, FAIL_CLOSE };

#define MAX_ELEMENTS 32
#define MAX_VERTEX_SLOTS 16
#define MAX_RENDER_TARGETS 8
#define MAX_PIPELINES 8
#define DEFAULT_TARGET_SIZE 64

/* [pipeline NAME]: one graphics pipeline state over the test's graphics shaders. */
struct pipeline_def {
    char name[64];
    int line;
    int shaders[STAGE_COUNT]; /* per graphics stage: a shader index, or -1 */
    bool has_shaders[STAGE_COUNT]; /* a 'shaders' line named the stage ('none' included) */
    bool has_topology, has_depth;
    D3D12_PRIMITIVE_TOPOLOGY_TYPE topology;
    D3D12_BLEND_DESC blend;
    D3D12_RASTERIZER_DESC rasterizer;
    D3D12_DEPTH_STENCIL_DESC depth_stencil;
    UINT sample_mask;
    ID3D12PipelineState *state;
};

/* What a test draws with: input layout, vertex and index buffers, targets, pipelines. */
struct graphics_def {
    bool used; /* a graphics-stage shader is declared */
    D3D12_INPUT_ELEMENT_DESC elements[MAX_ELEMENTS];
    char element_names[MAX_ELEMENTS][32];
    unsigned element_count;
    int vertex_buffers[MAX_VERTEX_SLOTS]; /* buffer index per input slot, or -1 */
    UINT vertex_strides[MAX_VERTEX_SLOTS];
    int index_buffer;
    DXGI_FORMAT index_format;
    int render_targets[MAX_RENDER_TARGETS]; /* texture index per slot, or -1 */
    float clear_colours[MAX_RENDER_TARGETS][4];
    int depth_stencil; /* texture index, or -1 */
    float clear_depth;
    UINT8 clear_stencil;
    struct pipeline_def pipelines[MAX_PIPELINES];
    unsigned pipeline_count;
    int first_draw_line;
    D3D12_PRIMITIVE_TOPOLOGY first_topology;
    unsigned user_shader_count; /* shaders before the built-in full-screen vertex shader */
};

struct test {
    char known_bug[512];
    bool has_known_bug;
    bool known_bug_on_lavapipe; /* [known_bug lavapipe: ...]: the test runs on other devices */
    char name[128];         /* [test NAME]; empty for a file of one test */
    /* [require]: what the device must offer, else the test is skipped */
    bool need_int64, need_float64, need_min_lod_clamp, need_derivative_quads, need_derivative_linear, need_logic_op;
    unsigned min_lanes, max_lanes; /* 0: any */

    struct shader_def shaders[MAX_SHADERS];
    unsigned shader_count;

    bool rs_version_1_0;
    D3D12_ROOT_PARAMETER1 params[MAX_PARAMS];
    D3D12_DESCRIPTOR_RANGE1 ranges[MAX_PARAMS][MAX_RANGES];
    D3D12_STATIC_SAMPLER_DESC samplers[MAX_SAMPLERS];
    unsigned param_count, sampler_count;
    int current_table; /* parameter index of the table being filled, -1 if none */

    struct buffer_def buffers[MAX_BUFFERS];
    unsigned buffer_count;

    struct view_def views[MAX_VIEWS];
    unsigned view_count, heap_size;
    bool has_views;

    struct texture_def textures[MAX_TEXTURES];
    unsigned texture_count;

    struct sampler_def sampler_views[MAX_SAMPLER_VIEWS];
    unsigned sampler_view_count, sampler_heap_size;
    bool has_samplers;

    struct step *steps;
    unsigned step_count, step_capacity;
    bool has_run;
    D3D12_COMMAND_LIST_TYPE queue_type;

    struct graphics_def graphics;

    struct expect_item *expects;
    unsigned expect_count, expect_capacity;

    enum fail_stage fail;
    HRESULT fail_hr;
    bool fail_has_hr;
    char fail_needles[MAX_NEEDLES][256];
    unsigned fail_needle_count;
    int fail_line;
};

enum section {
    SECTION_NONE, SECTION_SHADER, SECTION_ROOT_SIGNATURE, SECTION_BUFFER, SECTION_TEXTURE, SECTION_VIEWS, SECTION_SAMPLERS, SECTION_RUN,
    SECTION_EXPECT, SECTION_FAIL, SECTION_INPUT_LAYOUT, SECTION_PIPELINE
};

/* The non-shader-visible heaps of a graphics test's render target and depth views. */
struct target_views {
    ID3D12DescriptorHeap *rtv_heap, *dsv_heap;
    D3D12_CPU_DESCRIPTOR_HANDLE rtvs[MAX_RENDER_TARGETS], dsv;
    UINT rtv_count;
};

struct runner {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    UINT lanes;
};

/* common.c */
void fail_at(int line, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
void copy_name(char *dst, size_t size, const char *src);
unsigned tokenize(char *line, char **tokens, unsigned max);
bool parse_u64(const char *text, uint64_t *out);
bool parse_uint(const char *text, UINT *out);
const char *option(const char *token, const char *key);
bool parse_type(const char *text, enum value_type *type);
void encode_value(struct value v, enum value_type type, uint8_t *out);
struct value decode_value(const uint8_t *data, enum value_type type);
bool parse_literal(const char *text, enum value_type type, struct value *out);
bool parse_bits32(const char *text, enum value_type type, uint32_t *out);
bool looks_float(const char *text);
const struct format_info *find_format(const char *name);
UINT format_size(DXGI_FORMAT format);

/* expressions.c */
bool evaluate(const char *text, int64_t index, int64_t lanes, const struct texel_space *space, size_t offset,
        unsigned value_size, struct value *out, const char **error);

/* parse_resources.c */
int find_buffer(struct test *t, const char *name);
int find_shader(struct test *t, const char *name);
int find_texture(struct test *t, const char *name);
struct texel_space texture_space(const struct texture_def *tex, unsigned subresource, size_t *bytes);
void parse_texture_header(struct test *t, char **tokens, unsigned count, int line);
void parse_texture_line(struct texture_def *tex, unsigned *current, char *text, int line);
bool parse_buffer_ref(struct test *t, const char *text, int *buffer, UINT64 *offset, int line);
bool parse_register(const char *text, char expected_class, UINT *reg, int line);
void sampler_defaults(D3D12_SAMPLER_DESC *desc);
bool parse_floats(const char *text, float *out, unsigned n);
bool parse_sampler_options(char **tokens, unsigned count, D3D12_SAMPLER_DESC *desc, int line);
bool parse_hresult(const char *text, HRESULT *hr);
void buffer_write(struct buffer_def *b, const void *data, size_t size);
bool parse_formula_head(char **tokens, unsigned count, enum value_type *type, size_t *n, size_t *stride, double *tolerance, int line);
bool parse_let(char *text, int line);
void parse_buffer_line(struct buffer_def *b, char *text, int line, const struct texel_space *space);
void parse_sampler_line(struct test *t, char **tokens, unsigned count, int line);
void parse_view_line(struct test *t, char **tokens, unsigned count, int line);

/* parse_blocks.c */
const char *default_profile(enum shader_stage stage);
void shader_append(struct shader_def *s, const char *line);
void parse_shader_header(struct test *t, char **tokens, unsigned count, enum shader_stage stage, int line);
struct step *new_step(struct test *t, enum step_type type, int line);

/* parse.c */
bool parse_file(struct test *t, FILE *file, const char *path);
void free_test(struct test *t);

/* resources.c */
bool create_buffers(struct runner *r, struct test *t);
bool create_textures(struct runner *r, struct test *t);
bool is_target(const struct texture_def *tex);
D3D12_RESOURCE_STATES texture_state(const struct texture_def *tex);
void copy_texture(ID3D12GraphicsCommandList2 *list, const struct texture_def *tex, ID3D12Resource *buffer, bool upload);
D3D12_RESOURCE_STATES use_state(const struct buffer_def *b);
void transition(ID3D12GraphicsCommandList2 *list, ID3D12Resource *resource, D3D12_RESOURCE_STATES before, D3D12_RESOURCE_STATES after);
void uav_barrier(ID3D12GraphicsCommandList2 *list);
ID3D12DescriptorHeap *create_samplers(struct runner *r, struct test *t);
ID3D12DescriptorHeap *create_views(struct runner *r, struct test *t);

/* parse_graphics.c */
enum shader_stage shader_stage_from_keyword(const char *keyword);
void graphics_init(struct graphics_def *g);
void parse_input_layout_line(struct test *t, char **tokens, unsigned count, int line);
struct buffer_def *parse_vertex_buffer_header(struct test *t, char **tokens, unsigned count, int line);
struct buffer_def *parse_index_buffer_header(struct test *t, char **tokens, unsigned count, int line);
void parse_render_target_header(struct test *t, char **tokens, unsigned count, int line);
void parse_depth_stencil_header(struct test *t, char **tokens, unsigned count, int line);
int expected_target(struct test *t, char **tokens, unsigned count, int line);
void add_default_render_target(struct test *t, int line);
struct pipeline_def *parse_pipeline_header(struct test *t, char **tokens, unsigned count, int line);
int find_pipeline(const struct test *t, const char *name);
void parse_pipeline_line(struct test *t, struct pipeline_def *p, char **tokens, unsigned count, int line);
D3D12_PRIMITIVE_TOPOLOGY_TYPE topology_type(D3D_PRIMITIVE_TOPOLOGY topology);
bool parse_graphics_run_line(struct test *t, char **tokens, unsigned count, int line);
void finish_graphics(struct test *t, int line);

/* graphics.c */
bool create_graphics_pipelines(struct runner *r, struct test *t, ID3D12RootSignature *signature);
bool create_target_views(struct runner *r, struct test *t, struct target_views *views);
void release_target_views(struct target_views *views);
void record_graphics_setup(struct test *t, ID3D12GraphicsCommandList2 *list, const struct target_views *views);
void record_graphics_step(struct test *t, ID3D12GraphicsCommandList2 *list, const struct target_views *views, const struct step *s);

/* run.c */
D3D12_ROOT_SIGNATURE_FLAGS extra_root_signature_flags(void);
void run_test(struct runner *r, struct test *t);

/* expect.c */
void check_expectations(struct runner *r, struct test *t);

#endif
