/* One SPIR-V module, parsed once and rewritten by passes (the shape of NIR or spirv-opt: one
 * representation, every pass a function over it, one emit at the end).
 *
 * The module keeps its instructions in the sections of the logical layout (SPIR-V spec 2.4),
 * each a list of instructions in module order; the functions are one list, OpFunction to the
 * last OpFunctionEnd. Every result id maps to its defining instruction, in every section.
 * Instructions stay where they are in memory when others are inserted or removed, so a pass may
 * hold an instruction pointer across edits (not an index into a section).
 *
 * Edits go through the functions below, which keep the id table true. Allocation failures are
 * sticky: a find-or-add that cannot allocate returns 0 (or NULL) and sets out_of_memory, which
 * d3d12xs_spirv_module_emit() and the passes report as E_OUTOFMEMORY.
 *
 * Passes share one signature:
 *     HRESULT d3d12xs_spirv_pass_NAME(struct d3d12xs_spirv_module *m,
 *             const struct d3d12xs_spirv_NAME_args *args, char *error, size_t error_size);
 * error gets the reason of a failure (E_INVALIDARG for a module the pass cannot handle). */
#ifndef D3D12XS_SPIRV_MODULE_H
#define D3D12XS_SPIRV_MODULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "d3d12.h"

enum d3d12xs_spirv_section {
    D3D12XS_SPIRV_CAPABILITIES,
    D3D12XS_SPIRV_EXTENSIONS,
    D3D12XS_SPIRV_EXT_INST_IMPORTS,
    D3D12XS_SPIRV_MEMORY_MODEL,
    D3D12XS_SPIRV_ENTRY_POINTS,
    D3D12XS_SPIRV_EXECUTION_MODES,
    D3D12XS_SPIRV_DEBUG,        /* OpString, OpSource*, OpName, OpMemberName, OpModuleProcessed */
    D3D12XS_SPIRV_ANNOTATIONS,  /* OpDecorate and its kin */
    D3D12XS_SPIRV_GLOBALS,      /* types, constants, global variables (and OpUndef, OpLine, ... among them) */
    D3D12XS_SPIRV_FUNCTIONS,
    D3D12XS_SPIRV_SECTION_COUNT
};

struct d3d12xs_spirv_inst {
    uint32_t *w;            /* w[0] = word count << 16 | opcode; then the operands */
    uint32_t offset;        /* word offset in the parsed code, for messages; 0 for added instructions */
    uint8_t section;
    bool removed;
};

static inline uint32_t d3d12xs_spirv_op(const struct d3d12xs_spirv_inst *inst) { return inst->w[0] & 0xffff; }
static inline uint32_t d3d12xs_spirv_len(const struct d3d12xs_spirv_inst *inst) { return inst->w[0] >> 16; }

struct d3d12xs_spirv_list {
    struct d3d12xs_spirv_inst **at;
    size_t count, capacity;
};

struct d3d12xs_spirv_arena_block;

struct d3d12xs_spirv_module {
    uint32_t version, generator, schema;
    uint32_t bound;                       /* ids are 1 .. bound - 1 */
    struct d3d12xs_spirv_list sections[D3D12XS_SPIRV_SECTION_COUNT];
    struct d3d12xs_spirv_inst **defs;     /* id -> defining instruction, NULL: none */
    size_t defs_capacity;
    uint32_t *words;                      /* the parsed copy, which unchanged instructions point into */
    struct d3d12xs_spirv_arena_block *arena; /* instructions and rewritten words, freed with the module */
    bool out_of_memory;
};

/* Checks size, magic (refusing DXBC/DXIL with D3D12XS_DXBC_UNSUPPORTED_MESSAGE), header, that
 * every instruction stays inside the module and that every result id is inside the bound and
 * defined once; code need not be aligned. E_INVALIDARG with a reason, E_OUTOFMEMORY. */
HRESULT d3d12xs_spirv_module_parse(const void *code, size_t size, struct d3d12xs_spirv_module **module,
        char *error, size_t error_size);
void d3d12xs_spirv_module_destroy(struct d3d12xs_spirv_module *m);
/* The module's words (malloc()ed, free() them), header with the current bound. */
HRESULT d3d12xs_spirv_module_emit(const struct d3d12xs_spirv_module *m, uint32_t **words, size_t *word_count);

/* ---- ids and definitions ---- */
struct d3d12xs_spirv_inst *d3d12xs_spirv_def(const struct d3d12xs_spirv_module *m, uint32_t id);
/* The defining instruction of id when it has opcode op and at least min_len words, else NULL. */
struct d3d12xs_spirv_inst *d3d12xs_spirv_def_op(const struct d3d12xs_spirv_module *m, uint32_t id, uint32_t op, uint32_t min_len);
/* A fresh id (the bound grows); 0 when the bound would pass 0x3fffff (Vulkan's limit) or memory ran out. */
uint32_t d3d12xs_spirv_new_id(struct d3d12xs_spirv_module *m);
/* Word index of the result id (and of the result type) of op; 0 when it has none. */
uint32_t d3d12xs_spirv_result_index(uint32_t op);
uint32_t d3d12xs_spirv_result_type_index(uint32_t op);
/* The string operand starting at word `at` of inst: true when NUL-terminated inside it; *next
 * (may be NULL) gets the index of the word after it. */
bool d3d12xs_spirv_inst_string(const struct d3d12xs_spirv_inst *inst, uint32_t at, const char **string, uint32_t *next);

/* ---- editing ---- */
/* Inserts a copy of words (n of them, words[0] being the header) at index of section (count:
 * at the end); NULL when out of memory. */
struct d3d12xs_spirv_inst *d3d12xs_spirv_insert(struct d3d12xs_spirv_module *m, enum d3d12xs_spirv_section section, size_t index,
        const uint32_t *words, uint32_t n);
static inline struct d3d12xs_spirv_inst *d3d12xs_spirv_append(struct d3d12xs_spirv_module *m, enum d3d12xs_spirv_section section,
        const uint32_t *words, uint32_t n)
{
    return d3d12xs_spirv_insert(m, section, m->sections[section].count, words, n);
}
/* Removes the instruction at index of section (its result id becomes undefined). */
void d3d12xs_spirv_remove(struct d3d12xs_spirv_module *m, enum d3d12xs_spirv_section section, size_t index);
/* Gives inst new words (n of them, header included; the word count in words[0] is set here). */
bool d3d12xs_spirv_rewrite(struct d3d12xs_spirv_module *m, struct d3d12xs_spirv_inst *inst, const uint32_t *words, uint32_t n);
/* Adds one operand word at the end of inst (an interface id, a struct member, ...). */
bool d3d12xs_spirv_append_operand(struct d3d12xs_spirv_module *m, struct d3d12xs_spirv_inst *inst, uint32_t word);
/* A marker string of no semantic effect (d3d12xs's, spirv.h): OpModuleProcessed at the end of
 * the debug section, or in SPIR-V 1.0, which has no OpModuleProcessed, OpSourceExtension at
 * its start. */
void d3d12xs_spirv_add_marker(struct d3d12xs_spirv_module *m, const char *marker);
/* The index of inst in its section (a linear search); SIZE_MAX when it is not there. */
size_t d3d12xs_spirv_index_of(const struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_inst *inst);
/* Removes from the interface of every OpEntryPoint (of inst) each id for which drop(id, context)
 * is true; the second returns how many it removed. */
uint32_t d3d12xs_spirv_filter_entry_point(struct d3d12xs_spirv_inst *inst, bool (*drop)(uint32_t id, void *context), void *context);
void d3d12xs_spirv_filter_interface(struct d3d12xs_spirv_module *m, bool (*drop)(uint32_t id, void *context), void *context);
/* Removes the OpVariable, OpName and decorations of every id for which drop(id, context) is
 * true, and those ids from the entry points' interfaces (a pass that replaces variables). */
void d3d12xs_spirv_remove_variables(struct d3d12xs_spirv_module *m, bool (*drop)(uint32_t id, void *context), void *context);

/* ---- interned types and constants (find or add, at the end of the globals) ---- */
/* A global instruction equal to words[0..n) but for its result id at word result_index, or a
 * new one: returns its result id. Only for types that may not be declared twice (scalars,
 * vectors, pointers, ...) and constants: never for structs. */
uint32_t d3d12xs_spirv_global(struct d3d12xs_spirv_module *m, const uint32_t *words, uint32_t n, uint32_t result_index);
uint32_t d3d12xs_spirv_type_int(struct d3d12xs_spirv_module *m, uint32_t width, uint32_t signedness);
uint32_t d3d12xs_spirv_type_pointer(struct d3d12xs_spirv_module *m, uint32_t storage_class, uint32_t pointee);
uint32_t d3d12xs_spirv_constant(struct d3d12xs_spirv_module *m, uint32_t type, uint32_t value);
uint32_t d3d12xs_spirv_constant64(struct d3d12xs_spirv_module *m, uint32_t type, uint64_t value);
uint32_t d3d12xs_spirv_constant_u32(struct d3d12xs_spirv_module *m, uint32_t value);
/* The value of a 32-bit integer OpConstant. */
bool d3d12xs_spirv_int32_constant(const struct d3d12xs_spirv_module *m, uint32_t id, uint32_t *type, uint32_t *value);

/* ---- capabilities, extensions ---- */
/* The module's GLSL.std.450 import, added when it has none (0 when out of memory). */
uint32_t d3d12xs_spirv_glsl_import(struct d3d12xs_spirv_module *m);
bool d3d12xs_spirv_has_capability(const struct d3d12xs_spirv_module *m, uint32_t capability);
void d3d12xs_spirv_add_capability(struct d3d12xs_spirv_module *m, uint32_t capability);
bool d3d12xs_spirv_has_extension(const struct d3d12xs_spirv_module *m, const char *name);
void d3d12xs_spirv_add_extension(struct d3d12xs_spirv_module *m, const char *name);

/* ---- decorations ---- */
/* The first OpDecorate of id with decoration; *value (may be NULL) gets its first literal (0 if none). */
bool d3d12xs_spirv_decoration(const struct d3d12xs_spirv_module *m, uint32_t id, uint32_t decoration, uint32_t *value);
bool d3d12xs_spirv_member_decoration(const struct d3d12xs_spirv_module *m, uint32_t struct_id, uint32_t member,
        uint32_t decoration, uint32_t *value);

/* Iteration: for (D3D12XS_SPIRV_EACH(m, SECTION, i, inst)) { ... } */
#define D3D12XS_SPIRV_EACH(m, section, i, inst) \
    size_t i = 0; i < (m)->sections[section].count && ((inst) = (m)->sections[section].at[i], 1); i++

#endif
