/* See spirv_module.h; also the SPIR-V helpers of spirv.h (errors, strings, the validator). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv-tools/libspirv.h>

#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.h>

#include "spirv/spirv.h"
#include "spirv/spirv_module.h"

/* The grammar's result / result-type table comes with the SPIR-V headers as a C99 inline
 * function: this is its one external definition. */
extern inline void SpvHasResultAndType(SpvOp opcode, bool *hasResult, bool *hasResultType);

#define MAX_IDS (1u << 22)
#define ID_LIMIT 0x3fffffu

bool d3d12xs_spirv_string(const uint32_t *words, size_t at, size_t end, const char **string, size_t *next)
{
    for (size_t i = at; i < end; i++) {
        uint32_t word = words[i];
        /* little-endian packing: the NUL may be in any byte of the last word */
        if (!(word & 0xff) || !(word & 0xff00) || !(word & 0xff0000) || !(word & 0xff000000)) {
            if (string)
                *string = (const char *)&words[at];
            if (next)
                *next = i + 1;
            return true;
        }
    }
    return false;
}

HRESULT d3d12xs_spirv_validate(const uint32_t *words, size_t word_count, bool scalar_block_layout, char *error,
        size_t error_size)
{
    spv_target_env env = SPV_ENV_VULKAN_1_1;
    spv_diagnostic diagnostic = NULL;
    spv_validator_options options;
    spv_const_binary_t binary = {words, word_count};
    spv_context context;
    spv_result_t result;

    if (error && error_size)
        error[0] = 0;
    if (word_count >= 2) {
        if (words[1] >= 0x10600u)
            env = SPV_ENV_VULKAN_1_3;
        else if (words[1] >= 0x10500u)
            env = SPV_ENV_VULKAN_1_2;
        else if (words[1] >= 0x10400u)
            env = SPV_ENV_VULKAN_1_1_SPIRV_1_4;
    }
    if (!(context = spvContextCreate(env)))
        return E_OUTOFMEMORY;
    if (!(options = spvValidatorOptionsCreate())) {
        spvContextDestroy(context);
        return E_OUTOFMEMORY;
    }
    spvValidatorOptionsSetScalarBlockLayout(options, scalar_block_layout);
    result = spvValidateWithOptions(context, options, &binary, &diagnostic);
    spvValidatorOptionsDestroy(options);
    if (result != SPV_SUCCESS)
        d3d12xs_write_error(E_FAIL, error, error_size, "SPIR-V validation failed: %s",
                diagnostic && diagnostic->error ? diagnostic->error : "(no message)");
    spvDiagnosticDestroy(diagnostic);
    spvContextDestroy(context);
    return result == SPV_SUCCESS ? S_OK : E_FAIL;
}

struct d3d12xs_spirv_arena_block {
    struct d3d12xs_spirv_arena_block *next;
    size_t used, size; /* in bytes after the header */
    max_align_t data[];
};

/* Arena memory: instructions and rewritten words live as long as the module, so nothing is
 * freed one by one (a parse makes a few large allocations, not one per instruction). */
static void *arena_alloc(struct d3d12xs_spirv_module *m, size_t size)
{
    struct d3d12xs_spirv_arena_block *block = m->arena;
    size = (size + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
    if (!block || block->size - block->used < size) {
        size_t block_size = size > 32768 ? size : 32768;
        if (!(block = malloc(sizeof(*block) + block_size))) {
            m->out_of_memory = true;
            return NULL;
        }
        block->next = m->arena;
        block->used = 0;
        block->size = block_size;
        m->arena = block;
    }
    block->used += size;
    return (char *)block->data + block->used - size;
}

uint32_t d3d12xs_spirv_result_index(uint32_t op)
{
    bool result, type;
    SpvHasResultAndType((SpvOp)op, &result, &type);
    return result ? (type ? 2 : 1) : 0;
}

uint32_t d3d12xs_spirv_result_type_index(uint32_t op)
{
    bool result, type;
    SpvHasResultAndType((SpvOp)op, &result, &type);
    return type ? 1 : 0;
}

static enum d3d12xs_spirv_section section_of(uint32_t op)
{
    switch (op) {
    case SpvOpCapability: return D3D12XS_SPIRV_CAPABILITIES;
    case SpvOpExtension: return D3D12XS_SPIRV_EXTENSIONS;
    case SpvOpExtInstImport: return D3D12XS_SPIRV_EXT_INST_IMPORTS;
    case SpvOpMemoryModel: return D3D12XS_SPIRV_MEMORY_MODEL;
    case SpvOpEntryPoint: return D3D12XS_SPIRV_ENTRY_POINTS;
    case SpvOpExecutionMode: case SpvOpExecutionModeId: return D3D12XS_SPIRV_EXECUTION_MODES;
    case SpvOpString: case SpvOpSourceExtension: case SpvOpSource: case SpvOpSourceContinued:
    case SpvOpName: case SpvOpMemberName: case SpvOpModuleProcessed:
        return D3D12XS_SPIRV_DEBUG;
    case SpvOpDecorate: case SpvOpMemberDecorate: case SpvOpDecorationGroup: case SpvOpGroupDecorate:
    case SpvOpGroupMemberDecorate: case SpvOpDecorateId: case SpvOpDecorateString: case SpvOpMemberDecorateString:
        return D3D12XS_SPIRV_ANNOTATIONS;
    case SpvOpFunction: return D3D12XS_SPIRV_FUNCTIONS;
    default: return D3D12XS_SPIRV_GLOBALS;
    }
}

static bool list_reserve(struct d3d12xs_spirv_module *m, struct d3d12xs_spirv_list *list, size_t count)
{
    struct d3d12xs_spirv_inst **bigger;
    size_t capacity;
    if (count <= list->capacity)
        return true;
    capacity = list->capacity ? list->capacity * 2 : 16;
    if (capacity < count)
        capacity = count;
    if (!(bigger = realloc(list->at, capacity * sizeof(*bigger)))) {
        m->out_of_memory = true;
        return false;
    }
    list->at = bigger;
    list->capacity = capacity;
    return true;
}

static bool defs_reserve(struct d3d12xs_spirv_module *m, size_t count)
{
    struct d3d12xs_spirv_inst **bigger;
    size_t capacity;
    if (count <= m->defs_capacity)
        return true;
    capacity = count + count / 2 + 16;
    if (!(bigger = realloc(m->defs, capacity * sizeof(*bigger)))) {
        m->out_of_memory = true;
        return false;
    }
    memset(bigger + m->defs_capacity, 0, (capacity - m->defs_capacity) * sizeof(*bigger));
    m->defs = bigger;
    m->defs_capacity = capacity;
    return true;
}

static uint32_t result_of(const struct d3d12xs_spirv_inst *inst)
{
    uint32_t index = d3d12xs_spirv_result_index(d3d12xs_spirv_op(inst));
    return index && index < d3d12xs_spirv_len(inst) ? inst->w[index] : 0;
}

static void define(struct d3d12xs_spirv_module *m, struct d3d12xs_spirv_inst *inst)
{
    uint32_t id = result_of(inst);
    if (id && id < m->bound)
        m->defs[id] = inst;
}

static void undefine(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_inst *inst)
{
    uint32_t id = result_of(inst);
    if (id && id < m->bound && m->defs[id] == inst)
        m->defs[id] = NULL;
}

HRESULT d3d12xs_spirv_module_parse(const void *code, size_t size, struct d3d12xs_spirv_module **module,
        char *error, size_t error_size)
{
    const unsigned char *bytes = code;
    struct d3d12xs_spirv_module *m;
    struct d3d12xs_spirv_inst *insts;
    enum d3d12xs_spirv_section section = D3D12XS_SPIRV_CAPABILITIES;
    size_t count, offset, inst_count = 0;
    uint32_t *words;

    *module = NULL;
    if (error && error_size)
        error[0] = 0;
    if (!code || !size)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "no bytecode (NULL or 0 bytes)");
    if (size >= 4 && (!memcmp(bytes, "DXBC", 4) || !memcmp(bytes, "DXIL", 4) || !memcmp(bytes, "BC\xc0\xde", 4)))
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "%s", D3D12XS_DXBC_UNSUPPORTED_MESSAGE);
    if (size >= 4) {
        uint32_t magic;
        memcpy(&magic, bytes, 4);
        if (magic == 0x03022307u)
            return d3d12xs_write_error(E_INVALIDARG, error, error_size,
                    "big-endian SPIR-V is not supported: pass the module in little-endian words");
        if (magic != SpvMagicNumber)
            return d3d12xs_write_error(E_INVALIDARG, error, error_size,
                    "not SPIR-V (magic 0x%08x, expected 0x%08x); %s", magic, SpvMagicNumber,
                    D3D12XS_DXBC_UNSUPPORTED_MESSAGE);
    }
    if (size % 4)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "SPIR-V size %zu is not a multiple of 4 bytes", size);
    if (size < 5 * 4)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size,
                "SPIR-V module of %zu bytes is shorter than its 20-byte header", size);
    count = size / 4;
    if (!(m = calloc(1, sizeof(*m))))
        return E_OUTOFMEMORY;
    if (!(m->words = words = malloc(size))) {
        free(m);
        return E_OUTOFMEMORY;
    }
    memcpy(words, code, size);
    m->version = words[1];
    m->generator = words[2];
    m->bound = words[3];
    m->schema = words[4];
    if ((words[1] & 0xff0000ffu) || words[1] < 0x10000u || words[1] > 0x10600u) {
        uint32_t version = words[1];
        d3d12xs_spirv_module_destroy(m);
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "unsupported SPIR-V version 0x%08x (1.0 to 1.6 are)",
                version);
    }
    if (!m->bound || m->bound > MAX_IDS) {
        uint32_t bound = m->bound;
        d3d12xs_spirv_module_destroy(m);
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "SPIR-V id bound %u is out of range (1 to %u)", bound,
                MAX_IDS);
    }
    /* First walk: lengths, and how many instructions there are (one allocation for them). */
    for (offset = 5; offset < count;) {
        uint32_t length = words[offset] >> 16, op = words[offset] & 0xffff;
        if (!length || length > count - offset) {
            d3d12xs_spirv_module_destroy(m);
            return d3d12xs_write_error(E_INVALIDARG, error, error_size,
                    "SPIR-V instruction at word %zu (opcode %u) has word count %u, %s", offset, op, length,
                    length ? "which runs past the end of the module (truncated?)" : "which is invalid");
        }
        inst_count++;
        offset += length;
    }
    if (!defs_reserve(m, m->bound) || !(insts = arena_alloc(m, (inst_count ? inst_count : 1) * sizeof(*insts)))
            || !list_reserve(m, &m->sections[D3D12XS_SPIRV_FUNCTIONS], inst_count)) {
        d3d12xs_spirv_module_destroy(m);
        return E_OUTOFMEMORY;
    }
    for (offset = 5; offset < count; offset += words[offset] >> 16) {
        struct d3d12xs_spirv_inst *inst = insts++;
        struct d3d12xs_spirv_list *list;
        uint32_t op = words[offset] & 0xffff, index, id;
        if (section != D3D12XS_SPIRV_FUNCTIONS)
            section = section_of(op);
        inst->w = &words[offset];
        inst->offset = (uint32_t)offset;
        inst->section = (uint8_t)section;
        inst->removed = false;
        list = &m->sections[section];
        if (list->count == list->capacity && !list_reserve(m, list, list->count + 1)) {
            d3d12xs_spirv_module_destroy(m);
            return E_OUTOFMEMORY;
        }
        list->at[list->count++] = inst;
        if ((index = d3d12xs_spirv_result_index(op)) && index < (words[offset] >> 16) && (id = words[offset + index])) {
            if (id >= m->bound) {
                uint32_t bound = m->bound;
                d3d12xs_spirv_module_destroy(m);
                return d3d12xs_write_error(E_INVALIDARG, error, error_size, "id %u at word %zu is outside the bound %u", id,
                        offset, bound);
            }
            if (m->defs[id]) {
                d3d12xs_spirv_module_destroy(m);
                return d3d12xs_write_error(E_INVALIDARG, error, error_size, "id %u is defined twice", id);
            }
            m->defs[id] = inst;
        }
    }
    *module = m;
    return S_OK;
}

void d3d12xs_spirv_module_destroy(struct d3d12xs_spirv_module *m)
{
    if (!m)
        return;
    while (m->arena) {
        struct d3d12xs_spirv_arena_block *next = m->arena->next;
        free(m->arena);
        m->arena = next;
    }
    for (unsigned s = 0; s < D3D12XS_SPIRV_SECTION_COUNT; s++)
        free(m->sections[s].at);
    free(m->defs);
    free(m->words);
    free(m);
}

HRESULT d3d12xs_spirv_module_emit(const struct d3d12xs_spirv_module *m, uint32_t **out_words, size_t *out_count)
{
    size_t count = 5;
    uint32_t *words;

    *out_words = NULL;
    *out_count = 0;
    if (m->out_of_memory)
        return E_OUTOFMEMORY;
    for (unsigned s = 0; s < D3D12XS_SPIRV_SECTION_COUNT; s++)
        for (size_t i = 0; i < m->sections[s].count; i++)
            count += d3d12xs_spirv_len(m->sections[s].at[i]);
    if (!(words = malloc(count * sizeof(*words))))
        return E_OUTOFMEMORY;
    words[0] = SpvMagicNumber;
    words[1] = m->version;
    words[2] = m->generator;
    words[3] = m->bound;
    words[4] = m->schema;
    count = 5;
    for (unsigned s = 0; s < D3D12XS_SPIRV_SECTION_COUNT; s++) {
        for (size_t i = 0; i < m->sections[s].count; i++) {
            const struct d3d12xs_spirv_inst *inst = m->sections[s].at[i];
            memcpy(&words[count], inst->w, d3d12xs_spirv_len(inst) * sizeof(*words));
            count += d3d12xs_spirv_len(inst);
        }
    }
    *out_words = words;
    *out_count = count;
    return S_OK;
}

struct d3d12xs_spirv_inst *d3d12xs_spirv_def(const struct d3d12xs_spirv_module *m, uint32_t id)
{
    return id < m->bound ? m->defs[id] : NULL;
}

struct d3d12xs_spirv_inst *d3d12xs_spirv_def_op(const struct d3d12xs_spirv_module *m, uint32_t id, uint32_t op, uint32_t min_len)
{
    struct d3d12xs_spirv_inst *inst = d3d12xs_spirv_def(m, id);
    return inst && d3d12xs_spirv_op(inst) == op && d3d12xs_spirv_len(inst) >= min_len ? inst : NULL;
}

uint32_t d3d12xs_spirv_new_id(struct d3d12xs_spirv_module *m)
{
    if (m->bound >= ID_LIMIT || !defs_reserve(m, m->bound + 1))
        return 0;
    m->defs[m->bound] = NULL;
    return m->bound++;
}

bool d3d12xs_spirv_inst_string(const struct d3d12xs_spirv_inst *inst, uint32_t at, const char **string, uint32_t *next)
{
    size_t after;
    if (!d3d12xs_spirv_string(inst->w, at, d3d12xs_spirv_len(inst), string, &after))
        return false;
    if (next)
        *next = (uint32_t)after;
    return true;
}

struct d3d12xs_spirv_inst *d3d12xs_spirv_insert(struct d3d12xs_spirv_module *m, enum d3d12xs_spirv_section section, size_t index,
        const uint32_t *words, uint32_t n)
{
    struct d3d12xs_spirv_list *list = &m->sections[section];
    struct d3d12xs_spirv_inst *inst;

    if (!n || n > 0xffff || index > list->count || !list_reserve(m, list, list->count + 1)
            || !(inst = arena_alloc(m, sizeof(*inst))) || !(inst->w = arena_alloc(m, n * sizeof(uint32_t)))) {
        m->out_of_memory = true;
        return NULL;
    }
    memcpy(inst->w, words, n * sizeof(uint32_t));
    inst->w[0] = (n << 16) | (words[0] & 0xffff);
    inst->offset = 0;
    inst->section = (uint8_t)section;
    inst->removed = false;
    memmove(&list->at[index + 1], &list->at[index], (list->count - index) * sizeof(*list->at));
    list->at[index] = inst;
    list->count++;
    define(m, inst);
    return inst;
}

void d3d12xs_spirv_remove(struct d3d12xs_spirv_module *m, enum d3d12xs_spirv_section section, size_t index)
{
    struct d3d12xs_spirv_list *list = &m->sections[section];
    if (index >= list->count)
        return;
    undefine(m, list->at[index]);
    list->at[index]->removed = true;
    memmove(&list->at[index], &list->at[index + 1], (list->count - index - 1) * sizeof(*list->at));
    list->count--;
}

bool d3d12xs_spirv_rewrite(struct d3d12xs_spirv_module *m, struct d3d12xs_spirv_inst *inst, const uint32_t *words, uint32_t n)
{
    uint32_t *copy = inst->w, header = (n << 16) | (words[0] & 0xffff);
    if (!n || n > 0xffff) {
        m->out_of_memory = true;
        return false;
    }
    if (n > d3d12xs_spirv_len(inst) && !(copy = arena_alloc(m, n * sizeof(uint32_t))))
        return false;
    undefine(m, inst);
    memmove(copy, words, n * sizeof(uint32_t));
    copy[0] = header;
    inst->w = copy;
    if (!inst->removed)
        define(m, inst);
    return true;
}

void d3d12xs_spirv_add_marker(struct d3d12xs_spirv_module *m, const char *marker)
{
    uint32_t words[1 + 64 / 4] = {0};
    size_t length = strlen(marker);

    if (length >= 64) {
        m->out_of_memory = true; /* never: the markers are short */
        return;
    }
    memcpy(&words[1], marker, length);
    words[0] = m->version >= 0x10100 ? SpvOpModuleProcessed : SpvOpSourceExtension;
    d3d12xs_spirv_insert(m, D3D12XS_SPIRV_DEBUG, m->version >= 0x10100 ? m->sections[D3D12XS_SPIRV_DEBUG].count : 0, words,
            (uint32_t)(1 + (length + 4) / 4));
}

bool d3d12xs_spirv_append_operand(struct d3d12xs_spirv_module *m, struct d3d12xs_spirv_inst *inst, uint32_t word)
{
    uint32_t n = d3d12xs_spirv_len(inst), *copy;
    if (n >= 0xffff) {
        m->out_of_memory = true; /* cannot be encoded: the caller reports it as out of memory */
        return false;
    }
    if (!(copy = arena_alloc(m, (n + 1) * sizeof(*copy))))
        return false;
    memcpy(copy, inst->w, n * sizeof(*copy));
    copy[n] = word;
    copy[0] = ((n + 1) << 16) | (copy[0] & 0xffff);
    inst->w = copy; /* the result id (if any) is unchanged: the id table stays true */
    return true;
}

size_t d3d12xs_spirv_index_of(const struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_inst *inst)
{
    const struct d3d12xs_spirv_list *list = &m->sections[inst->section];
    for (size_t i = 0; i < list->count; i++)
        if (list->at[i] == inst)
            return i;
    return SIZE_MAX;
}

uint32_t d3d12xs_spirv_filter_entry_point(struct d3d12xs_spirv_inst *inst, bool (*drop)(uint32_t id, void *context), void *context)
{
    uint32_t n = d3d12xs_spirv_len(inst), next, out;
    if (d3d12xs_spirv_op(inst) != SpvOpEntryPoint || !d3d12xs_spirv_inst_string(inst, 3, NULL, &next))
        return 0;
    /* in place: the instruction only shrinks (and its words are the module's own) */
    for (out = next; next < n; next++)
        if (!drop(inst->w[next], context))
            inst->w[out++] = inst->w[next];
    inst->w[0] = (out << 16) | SpvOpEntryPoint;
    return n - out;
}

void d3d12xs_spirv_filter_interface(struct d3d12xs_spirv_module *m, bool (*drop)(uint32_t id, void *context), void *context)
{
    struct d3d12xs_spirv_inst *inst;
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ENTRY_POINTS, i, inst))
        d3d12xs_spirv_filter_entry_point(inst, drop, context);
}

void d3d12xs_spirv_remove_variables(struct d3d12xs_spirv_module *m, bool (*drop)(uint32_t id, void *context), void *context)
{
    static const struct {
        enum d3d12xs_spirv_section section;
        uint32_t at; /* word of the id the instruction is about */
    } places[] = {{D3D12XS_SPIRV_DEBUG, 1}, {D3D12XS_SPIRV_ANNOTATIONS, 1}, {D3D12XS_SPIRV_GLOBALS, 2}};

    for (size_t p = 0; p < sizeof(places) / sizeof(places[0]); p++) {
        struct d3d12xs_spirv_list *list = &m->sections[places[p].section];
        for (size_t i = 0; i < list->count;) {
            uint32_t op = d3d12xs_spirv_op(list->at[i]);
            bool candidate = places[p].section == D3D12XS_SPIRV_DEBUG ? op == SpvOpName
                    : places[p].section == D3D12XS_SPIRV_ANNOTATIONS ? op == SpvOpDecorate || op == SpvOpDecorateId || op == SpvOpDecorateString
                    : op == SpvOpVariable;
            if (candidate && d3d12xs_spirv_len(list->at[i]) > places[p].at && drop(list->at[i]->w[places[p].at], context))
                d3d12xs_spirv_remove(m, places[p].section, i);
            else
                i++;
        }
    }
    d3d12xs_spirv_filter_interface(m, drop, context);
}

uint32_t d3d12xs_spirv_global(struct d3d12xs_spirv_module *m, const uint32_t *words, uint32_t n, uint32_t result_index)
{
    struct d3d12xs_spirv_inst *inst;
    uint32_t op = words[0] & 0xffff, copy[16], id;

    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_GLOBALS, i, inst)) {
        const uint32_t *w = inst->w;
        /* the header and the last operand first: cheap, and they tell most candidates apart */
        if (w[0] != ((n << 16) | op) || (n - 1 != result_index && w[n - 1] != words[n - 1]))
            continue;
        if (!memcmp(&w[1], &words[1], (result_index - 1) * sizeof(*w))
                && !memcmp(&w[result_index + 1], &words[result_index + 1], (n - result_index - 1) * sizeof(*w)))
            return w[result_index];
    }
    if (n > 16 || !(id = d3d12xs_spirv_new_id(m))) {
        m->out_of_memory = true;
        return 0;
    }
    memcpy(copy, words, n * sizeof(*copy));
    copy[result_index] = id;
    return d3d12xs_spirv_append(m, D3D12XS_SPIRV_GLOBALS, copy, n) ? id : 0;
}

uint32_t d3d12xs_spirv_type_int(struct d3d12xs_spirv_module *m, uint32_t width, uint32_t signedness)
{
    uint32_t words[4] = {SpvOpTypeInt, 0, width, signedness};
    return d3d12xs_spirv_global(m, words, 4, 1);
}

uint32_t d3d12xs_spirv_type_pointer(struct d3d12xs_spirv_module *m, uint32_t storage_class, uint32_t pointee)
{
    uint32_t words[4] = {SpvOpTypePointer, 0, storage_class, pointee};
    return pointee ? d3d12xs_spirv_global(m, words, 4, 1) : 0;
}

uint32_t d3d12xs_spirv_constant(struct d3d12xs_spirv_module *m, uint32_t type, uint32_t value)
{
    uint32_t words[4] = {SpvOpConstant, type, 0, value};
    return type ? d3d12xs_spirv_global(m, words, 4, 2) : 0;
}

uint32_t d3d12xs_spirv_constant64(struct d3d12xs_spirv_module *m, uint32_t type, uint64_t value)
{
    uint32_t words[5] = {SpvOpConstant, type, 0, (uint32_t)value, (uint32_t)(value >> 32)};
    return type ? d3d12xs_spirv_global(m, words, 5, 2) : 0;
}

uint32_t d3d12xs_spirv_constant_u32(struct d3d12xs_spirv_module *m, uint32_t value)
{
    return d3d12xs_spirv_constant(m, d3d12xs_spirv_type_int(m, 32, 0), value);
}

bool d3d12xs_spirv_int32_constant(const struct d3d12xs_spirv_module *m, uint32_t id, uint32_t *type, uint32_t *value)
{
    const struct d3d12xs_spirv_inst *def = d3d12xs_spirv_def(m, id), *type_def;
    if (!def || d3d12xs_spirv_op(def) != SpvOpConstant || d3d12xs_spirv_len(def) != 4)
        return false;
    if (!(type_def = d3d12xs_spirv_def_op(m, def->w[1], SpvOpTypeInt, 4)) || type_def->w[2] != 32)
        return false;
    if (type)
        *type = def->w[1];
    if (value)
        *value = def->w[3];
    return true;
}

bool d3d12xs_spirv_has_capability(const struct d3d12xs_spirv_module *m, uint32_t capability)
{
    const struct d3d12xs_spirv_inst *inst;
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_CAPABILITIES, i, inst))
        if (d3d12xs_spirv_len(inst) >= 2 && inst->w[1] == capability)
            return true;
    return false;
}

void d3d12xs_spirv_add_capability(struct d3d12xs_spirv_module *m, uint32_t capability)
{
    uint32_t words[2] = {SpvOpCapability, capability};
    if (!d3d12xs_spirv_has_capability(m, capability))
        d3d12xs_spirv_append(m, D3D12XS_SPIRV_CAPABILITIES, words, 2);
}

bool d3d12xs_spirv_has_extension(const struct d3d12xs_spirv_module *m, const char *name)
{
    const struct d3d12xs_spirv_inst *inst;
    const char *string;
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_EXTENSIONS, i, inst))
        if (d3d12xs_spirv_inst_string(inst, 1, &string, NULL) && !strcmp(string, name))
            return true;
    return false;
}

void d3d12xs_spirv_add_extension(struct d3d12xs_spirv_module *m, const char *name)
{
    uint32_t words[32] = {SpvOpExtension}, n = (uint32_t)(1 + (strlen(name) + 4) / 4);
    if (n > 32 || d3d12xs_spirv_has_extension(m, name))
        return;
    memcpy(&words[1], name, strlen(name));
    d3d12xs_spirv_append(m, D3D12XS_SPIRV_EXTENSIONS, words, n);
}

bool d3d12xs_spirv_decoration(const struct d3d12xs_spirv_module *m, uint32_t id, uint32_t decoration, uint32_t *value)
{
    const struct d3d12xs_spirv_inst *inst;
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ANNOTATIONS, i, inst)) {
        const uint32_t *w = inst->w;
        if (d3d12xs_spirv_op(inst) == SpvOpDecorate && d3d12xs_spirv_len(inst) >= 3 && w[1] == id && w[2] == decoration) {
            if (value)
                *value = d3d12xs_spirv_len(inst) >= 4 ? w[3] : 0;
            return true;
        }
    }
    return false;
}

bool d3d12xs_spirv_member_decoration(const struct d3d12xs_spirv_module *m, uint32_t struct_id, uint32_t member,
        uint32_t decoration, uint32_t *value)
{
    const struct d3d12xs_spirv_inst *inst;
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_ANNOTATIONS, i, inst)) {
        const uint32_t *w = inst->w;
        if (d3d12xs_spirv_op(inst) == SpvOpMemberDecorate && d3d12xs_spirv_len(inst) >= 4 && w[1] == struct_id
                && w[2] == member && w[3] == decoration) {
            if (value)
                *value = d3d12xs_spirv_len(inst) >= 5 ? w[4] : 0;
            return true;
        }
    }
    return false;
}

/* The GLSL.std.450 import of the module, added when it has none. */
uint32_t d3d12xs_spirv_glsl_import(struct d3d12xs_spirv_module *m)
{
    const struct d3d12xs_spirv_inst *inst;
    static const char name[16] = "GLSL.std.450";
    uint32_t words[2 + sizeof(name) / 4] = {SpvOpExtInstImport | (2 + sizeof(name) / 4) << 16, 0};

    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_EXT_INST_IMPORTS, i, inst)) {
        const char *string;
        if (d3d12xs_spirv_len(inst) >= 3 && d3d12xs_spirv_inst_string(inst, 2, &string, NULL) && !strcmp(string, "GLSL.std.450"))
            return inst->w[1];
    }
    if (!(words[1] = d3d12xs_spirv_new_id(m)))
        return 0;
    memcpy(&words[2], name, sizeof(name));
    d3d12xs_spirv_append(m, D3D12XS_SPIRV_EXT_INST_IMPORTS, words, sizeof(words) / 4);
    return words[1];
}
