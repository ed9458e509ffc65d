/* SPIR-V variants of a compute pipeline for DispatchX (docs/dispatch.md):
 *
 *  - thread limit (USE_THREAD_DIMENSIONS): the push-constant block gets one more member, a
 *    uint3 at limit_offset holding the end of the thread range in GlobalInvocationId terms,
 *    and the entry point starts with `if (any(GlobalInvocationId >= limit)) return;`. Threads
 *    past the count therefore run none of the shader: no memory access, no atomics, no wave
 *    operation sees them (as on the console, which does not launch them). A shader with a
 *    workgroup barrier is refused: the returned threads would never reach it.
 *  - coherent (DISABLE_VOLATILE_*_L1): every storage buffer, storage texel buffer and storage
 *    image gets the Coherent decoration, so its accesses bypass caches that are not coherent
 *    across the device. glslang drops HLSL's `globallycoherent`, so which accesses were volatile
 *    is unknown here: all of them become coherent, which is more than the console does.
 *  - dispatch base (a non-zero start group): the module is unchanged but for one
 *    OpModuleProcessed marker; the pipeline is created with DISPATCH_BASE (pipeline_variant.c).
 *
 * Types the thread limit needs (uint, bool, uint3, bool3) are emitted at the start of the type
 * section, the existing ones moved there (a definition moved earlier breaks no reference), so
 * that the push-constant struct, wherever it is defined, may use them. Everything else that is
 * new goes at the end of the global section. */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "shaders/spirv.h"
#include "shaders/spirv_psb.h"

struct variant_builder {
    const uint32_t *w;
    size_t count;
    uint32_t bound;
    struct d3d12xs_spirv_writer writer;
};

static uint32_t op_of(const uint32_t *w, size_t o) { return w[o] & 0xffff; }
static uint32_t length_of(const uint32_t *w, size_t o) { return w[o] >> 16; }

static void emit(struct variant_builder *b, const uint32_t *words, size_t n)
{
    d3d12xs_spirv_emit(&b->writer, words, n);
}

#define EMIT(b, ...) do { const uint32_t words_[] = {__VA_ARGS__}; emit((b), words_, sizeof(words_) / 4); } while (0)
#define INSTRUCTION(op, n) (((uint32_t)(n) << 16) | (uint32_t)(op))

/* What the module already has that the variants use. */
struct module_facts {
    size_t entry_point_at, types_at, functions_at;
    uint32_t entry_function;
    uint32_t uint_type, bool_type, uint3_type, bool3_type;
    size_t uint_at, bool_at, uint3_at, bool3_at;          /* 0: not in the module */
    uint32_t global_id_variable;                           /* BuiltIn GlobalInvocationId */
    uint32_t push_variable, push_struct, push_member_count;
    size_t push_struct_at;
    bool vulkan_memory_model;
    bool workgroup_barrier;
    uint32_t *uint_constant_value; /* id -> value + 1 of 32-bit integer constants (0: not one) */
};

static HRESULT read_facts(const uint32_t *w, size_t count, uint32_t bound, struct module_facts *f, char *error, size_t error_size)
{
    uint32_t *pointee = calloc(bound, sizeof(*pointee)), *storage = calloc(bound, sizeof(*storage));
    uint32_t *int_width = calloc(bound, sizeof(*int_width));
    HRESULT hr = S_OK;

    memset(f, 0, sizeof(*f));
    f->uint_constant_value = calloc(bound, sizeof(*f->uint_constant_value));
    if (!pointee || !storage || !int_width || !f->uint_constant_value) {
        hr = d3d12xs_spirv_error(E_OUTOFMEMORY, error, error_size, "out of memory");
        goto done;
    }
    for (size_t o = 5; o < count; o += length_of(w, o)) {
        uint32_t op = op_of(w, o), n = length_of(w, o);
        if (!f->types_at && !d3d12xs_spirv_is_preamble_or_debug(op) && !d3d12xs_spirv_is_annotation(op))
            f->types_at = o;
        switch (op) {
        case SpvOpEntryPoint:
            if (!f->entry_point_at && n >= 4 && w[o + 1] == SpvExecutionModelGLCompute) {
                f->entry_point_at = o;
                f->entry_function = w[o + 2];
            }
            break;
        case SpvOpMemoryModel:
            f->vulkan_memory_model = n >= 3 && w[o + 2] == SpvMemoryModelVulkan;
            break;
        case SpvOpDecorate:
            if (n >= 4 && w[o + 2] == SpvDecorationBuiltIn && w[o + 3] == SpvBuiltInGlobalInvocationId)
                f->global_id_variable = w[o + 1];
            break;
        case SpvOpTypeInt:
            if (n >= 4 && w[o + 1] < bound)
                int_width[w[o + 1]] = w[o + 2];
            if (n >= 4 && w[o + 2] == 32 && w[o + 3] == 0)
                f->uint_type = w[o + 1], f->uint_at = o;
            break;
        case SpvOpTypeBool:
            f->bool_type = w[o + 1], f->bool_at = o;
            break;
        case SpvOpTypeVector:
            if (n >= 4 && w[o + 3] == 3 && f->uint_type && w[o + 2] == f->uint_type)
                f->uint3_type = w[o + 1], f->uint3_at = o;
            if (n >= 4 && w[o + 3] == 3 && f->bool_type && w[o + 2] == f->bool_type)
                f->bool3_type = w[o + 1], f->bool3_at = o;
            break;
        case SpvOpTypePointer:
            if (n >= 4 && w[o + 1] < bound)
                pointee[w[o + 1]] = w[o + 3], storage[w[o + 1]] = w[o + 2];
            break;
        case SpvOpConstant:
            if (n == 4 && w[o + 1] < bound && int_width[w[o + 1]] == 32 && w[o + 2] < bound)
                f->uint_constant_value[w[o + 2]] = w[o + 3] + 1;
            break;
        case SpvOpVariable:
            if (n >= 4 && w[o + 3] == SpvStorageClassPushConstant && w[o + 1] < bound) {
                f->push_variable = w[o + 2];
                f->push_struct = pointee[w[o + 1]];
            }
            break;
        case SpvOpFunction:
            if (!f->functions_at)
                f->functions_at = o;
            break;
        case SpvOpControlBarrier:
            /* Execution scope Workgroup (2): every thread of the group must arrive. */
            if (n >= 2 && w[o + 1] < bound && f->uint_constant_value[w[o + 1]] != SpvScopeSubgroup + 1)
                f->workgroup_barrier = true;
            break;
        default:
            break;
        }
    }
    if (!f->entry_point_at || !f->types_at || !f->functions_at)
        hr = d3d12xs_spirv_error(E_INVALIDARG, error, error_size, "the module has no compute entry point or no functions");
    for (size_t o = f->types_at; SUCCEEDED(hr) && f->push_struct && o < f->functions_at; o += length_of(w, o)) {
        if (op_of(w, o) == SpvOpTypeStruct && w[o + 1] == f->push_struct) {
            f->push_struct_at = o;
            f->push_member_count = length_of(w, o) - 2;
        }
    }
done:
    free(pointee);
    free(storage);
    free(int_width);
    return hr;
}

/* Variables whose accesses may go through a device-incoherent cache: storage buffers (and
 * glslang's Uniform BufferBlock ones), storage images and storage texel buffers. */
static void emit_coherent_decorations(struct variant_builder *b, const struct module_facts *f)
{
    const uint32_t *w = b->w;
    uint32_t *image_sampled = calloc(b->bound, sizeof(*image_sampled)), *pointee = calloc(b->bound, sizeof(*pointee));
    uint8_t *buffer_block = calloc(b->bound, 1), *coherent = calloc(b->bound, 1);

    if (!image_sampled || !pointee || !buffer_block || !coherent) {
        b->writer.out_of_memory = true;
        goto done;
    }
    for (size_t o = 5; o < f->functions_at; o += length_of(w, o)) {
        uint32_t op = op_of(w, o), n = length_of(w, o), id = n > 1 ? w[o + 1] : 0;
        if (id >= b->bound)
            continue;
        if (op == SpvOpDecorate && n >= 3 && w[o + 2] == SpvDecorationBufferBlock)
            buffer_block[id] = 1;
        else if (op == SpvOpDecorate && n >= 3 && w[o + 2] == SpvDecorationCoherent)
            coherent[id] = 1;
        else if (op == SpvOpTypeImage && n >= 8)
            image_sampled[id] = w[o + 7] + 1;
        else if (op == SpvOpTypePointer && n >= 4)
            pointee[id] = w[o + 3];
    }
    for (size_t o = f->types_at; o < f->functions_at; o += length_of(w, o)) {
        uint32_t n = length_of(w, o), type, variable;
        if (op_of(w, o) != SpvOpVariable || n < 4 || w[o + 1] >= b->bound || w[o + 2] >= b->bound)
            continue;
        type = pointee[w[o + 1]];
        variable = w[o + 2];
        if (coherent[variable] || type >= b->bound)
            continue;
        if (w[o + 3] == SpvStorageClassStorageBuffer || (w[o + 3] == SpvStorageClassUniform && buffer_block[type])
                || (w[o + 3] == SpvStorageClassUniformConstant && image_sampled[type] == 2 + 1))
            EMIT(b, INSTRUCTION(SpvOpDecorate, 3), variable, SpvDecorationCoherent);
    }
done:
    free(image_sampled);
    free(pointee);
    free(buffer_block);
    free(coherent);
}

HRESULT d3d12xs_spirv_dispatch_variant(const uint32_t *words, size_t word_count, unsigned variant, uint32_t limit_offset,
        uint32_t **out_words, size_t *out_count, char *error, size_t error_size)
{
    struct variant_builder b = {.w = words, .count = word_count};
    struct module_facts f;
    bool limit = variant & D3D12XS_VARIANT_THREAD_LIMIT;
    uint32_t next, uint_type, bool_type, uint3_type, bool3_type, global_id, push_struct, push_variable, member;
    uint32_t push_pointer, push_struct_pointer, input_pointer, member_constant, new_entry, return_label;
    bool new_global_id, new_push;
    HRESULT hr;

    *out_words = NULL;
    *out_count = 0;
    if (word_count < 5)
        return d3d12xs_spirv_error(E_INVALIDARG, error, error_size, "the module is too short");
    b.bound = words[3];
    if (FAILED(hr = read_facts(words, word_count, b.bound, &f, error, error_size)))
        goto done;
    if ((variant & D3D12XS_VARIANT_COHERENT) && f.vulkan_memory_model) {
        hr = d3d12xs_spirv_error(E_NOTIMPL, error, error_size, "the module uses the Vulkan memory model, which has no Coherent decoration");
        goto done;
    }
    if (limit && f.workgroup_barrier) {
        hr = d3d12xs_spirv_error(E_INVALIDARG, error, error_size, "the shader has a group barrier (GroupMemoryBarrierWithGroupSync "
                "or similar): threads past the count would never reach it, so a partial group cannot be run exactly");
        goto done;
    }
    if (limit && f.push_struct && !f.push_struct_at) {
        hr = d3d12xs_spirv_error(E_INVALIDARG, error, error_size, "the push-constant block is not a struct");
        goto done;
    }

    next = b.bound;
    uint_type = f.uint_type ? f.uint_type : next++;
    bool_type = f.bool_type ? f.bool_type : next++;
    uint3_type = f.uint3_type ? f.uint3_type : next++;
    bool3_type = f.bool3_type ? f.bool3_type : next++;
    new_global_id = !f.global_id_variable;
    global_id = new_global_id ? next++ : f.global_id_variable;
    new_push = !f.push_variable;
    push_struct = new_push ? next++ : f.push_struct;
    push_variable = new_push ? next++ : f.push_variable;
    member = new_push ? 0 : f.push_member_count;
    push_pointer = next++;
    push_struct_pointer = next++;
    input_pointer = next++;
    member_constant = next++;
    new_entry = next++;
    return_label = next++;
    uint32_t gid_value = next++, limit_pointer = next++, limit_value = next++, below = next++, inside = next++;

    emit(&b, words, 5);
    if (!b.writer.out_of_memory)
        b.writer.out[3] = limit ? next : b.bound;
    bool marker_done = !(variant & D3D12XS_VARIANT_DISPATCH_BASE);
    for (size_t o = 5; o < word_count && !b.writer.out_of_memory; o += length_of(words, o)) {
        uint32_t op = op_of(words, o), n = length_of(words, o);

        if (!marker_done && !d3d12xs_spirv_is_preamble_or_debug(op)) {
            /* The NVIDIA driver (580) handed a DISPATCH_BASE pipeline the code it had compiled
             * for the same module without the flag: SV_GroupID then ignored the start group.
             * A marker of no semantic effect makes the module differ. */
            static const char marker[] = "d3d12xs.dispatch_base";
            uint32_t marker_words[1 + (sizeof(marker) + 3) / 4] = {INSTRUCTION(SpvOpModuleProcessed, 1 + (sizeof(marker) + 3) / 4)};
            memcpy(&marker_words[1], marker, sizeof(marker));
            emit(&b, marker_words, sizeof(marker_words) / 4);
            marker_done = true;
        }
        if (o == f.types_at) {
            if (variant & D3D12XS_VARIANT_COHERENT)
                emit_coherent_decorations(&b, &f);
            if (limit) {
                if (new_global_id)
                    EMIT(&b, INSTRUCTION(SpvOpDecorate, 4), global_id, SpvDecorationBuiltIn, SpvBuiltInGlobalInvocationId);
                if (new_push)
                    EMIT(&b, INSTRUCTION(SpvOpDecorate, 3), push_struct, SpvDecorationBlock);
                EMIT(&b, INSTRUCTION(SpvOpMemberDecorate, 5), push_struct, member, SpvDecorationOffset, limit_offset);
                /* The basic types first, so that every later definition may use them. */
                EMIT(&b, INSTRUCTION(SpvOpTypeInt, 4), uint_type, 32, 0);
                EMIT(&b, INSTRUCTION(SpvOpTypeBool, 2), bool_type);
                EMIT(&b, INSTRUCTION(SpvOpTypeVector, 4), uint3_type, uint_type, 3);
                EMIT(&b, INSTRUCTION(SpvOpTypeVector, 4), bool3_type, bool_type, 3);
            }
        }
        if (limit && (o == f.uint_at || o == f.bool_at || o == f.uint3_at || o == f.bool3_at))
            continue; /* moved to the start of the types */
        if (limit && o == f.functions_at) {
            if (new_push)
                EMIT(&b, INSTRUCTION(SpvOpTypeStruct, 3), push_struct, uint3_type);
            EMIT(&b, INSTRUCTION(SpvOpTypePointer, 4), push_pointer, SpvStorageClassPushConstant, uint3_type);
            if (new_push) {
                EMIT(&b, INSTRUCTION(SpvOpTypePointer, 4), push_struct_pointer, SpvStorageClassPushConstant, push_struct);
                EMIT(&b, INSTRUCTION(SpvOpVariable, 4), push_struct_pointer, push_variable, SpvStorageClassPushConstant);
            }
            EMIT(&b, INSTRUCTION(SpvOpTypePointer, 4), input_pointer, SpvStorageClassInput, uint3_type);
            if (new_global_id)
                EMIT(&b, INSTRUCTION(SpvOpVariable, 4), input_pointer, global_id, SpvStorageClassInput);
            EMIT(&b, INSTRUCTION(SpvOpConstant, 4), uint_type, member_constant, member);
        }
        if (limit && o == f.entry_point_at) {
            /* The new Input variable joins the interface (and, from SPIR-V 1.4, the push constants). */
            uint32_t extra = (uint32_t)new_global_id + (uint32_t)(new_push && words[1] >= 0x10400);
            size_t start = b.writer.count;
            emit(&b, words + o, n);
            if (new_global_id)
                emit(&b, &global_id, 1);
            if (new_push && words[1] >= 0x10400)
                emit(&b, &push_variable, 1);
            if (!b.writer.out_of_memory)
                b.writer.out[start] = INSTRUCTION(op, n + extra);
            continue;
        }
        if (limit && o == f.push_struct_at) {
            size_t start = b.writer.count;
            emit(&b, words + o, n);
            emit(&b, &uint3_type, 1);
            if (!b.writer.out_of_memory)
                b.writer.out[start] = INSTRUCTION(op, n + 1);
            continue;
        }
        if (limit && op == SpvOpFunction && n >= 3 && words[o + 2] == f.entry_function) {
            /* The function header, its parameters (none for an entry point), then the first
             * block under a new label: its variables, the range check, and the original label. */
            size_t p = o, body;
            uint32_t first_label = 0;
            while (p < word_count && op_of(words, p) != SpvOpLabel) {
                emit(&b, words + p, length_of(words, p));
                p += length_of(words, p);
            }
            if (p >= word_count) {
                hr = d3d12xs_spirv_error(E_INVALIDARG, error, error_size, "the entry point has no body");
                goto done;
            }
            first_label = words[p + 1];
            EMIT(&b, INSTRUCTION(SpvOpLabel, 2), new_entry);
            for (body = p + length_of(words, p); body < word_count; body += length_of(words, body)) {
                uint32_t body_op = op_of(words, body);
                if (body_op != SpvOpVariable && body_op != SpvOpLine && body_op != SpvOpNoLine)
                    break;
                emit(&b, words + body, length_of(words, body));
            }
            EMIT(&b, INSTRUCTION(SpvOpLoad, 4), uint3_type, gid_value, global_id);
            EMIT(&b, INSTRUCTION(SpvOpAccessChain, 5), push_pointer, limit_pointer, push_variable, member_constant);
            EMIT(&b, INSTRUCTION(SpvOpLoad, 4), uint3_type, limit_value, limit_pointer);
            EMIT(&b, INSTRUCTION(SpvOpULessThan, 5), bool3_type, below, gid_value, limit_value);
            EMIT(&b, INSTRUCTION(SpvOpAll, 4), bool_type, inside, below);
            EMIT(&b, INSTRUCTION(SpvOpSelectionMerge, 3), first_label, SpvSelectionControlMaskNone);
            EMIT(&b, INSTRUCTION(SpvOpBranchConditional, 4), inside, first_label, return_label);
            EMIT(&b, INSTRUCTION(SpvOpLabel, 2), return_label);
            EMIT(&b, INSTRUCTION(SpvOpReturn, 1));
            EMIT(&b, INSTRUCTION(SpvOpLabel, 2), first_label);
            /* Copying goes on after the variables. */
            if (body >= word_count)
                break;
            o = body;
            n = length_of(words, o);
        }
        emit(&b, words + o, n);
    }
    if (b.writer.out_of_memory) {
        hr = d3d12xs_spirv_error(E_OUTOFMEMORY, error, error_size, "out of memory");
        goto done;
    }
    *out_words = b.writer.out;
    *out_count = b.writer.count;
    b.writer.out = NULL;
    hr = S_OK;
done:
    free(b.writer.out);
    free(f.uint_constant_value);
    return hr;
}
