/* SPIR-V for directly indexed heaps (include/d3d12xs_heap.hlsli): every access to the header's
 * memory marker, D3D12XS_HEAP_MEMORY[low].w[high], becomes an access through a
 * PhysicalStorageBuffer pointer to the 32-bit word at address high:low.
 *
 *   %p = OpAccessChain %ptr_uint %marker %c0 %low %c0 %high
 * becomes
 *   %a = OpUConvert %u64 %low            %b = OpUConvert %u64 %high
 *   %c = OpShiftLeftLogical %u64 %b %c32  %d = OpBitwiseOr %u64 %c %a
 *   %p = OpConvertUToPtr %ptr_psb_uint %d
 * and OpLoad / OpStore through %p get the Aligned 4 operand Vulkan requires for such pointers
 * (atomics need nothing more). The marker variable, its names and decorations go; the module
 * gets the PhysicalStorageBufferAddresses and Int64 capabilities, the extension and the
 * PhysicalStorageBuffer64 addressing model. Any other use of the marker or of %p (a pointer
 * copied, passed to a function, or selected) is refused: the header never produces one. */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "shaders/spirv.h"
#include "shaders/spirv_passes.h"
#include "shaders/spirv_psb.h"

static bool is_atomic_on_pointer_at_3(uint32_t op)
{
    return (op >= SpvOpAtomicLoad && op <= SpvOpAtomicXor && op != SpvOpAtomicStore) || op == SpvOpAtomicFlagTestAndSet;
}

static bool is_marker(uint32_t id, void *context)
{
    return id == *(const uint32_t *)context;
}

/* Every use of the marker and of the chains made from it is one the rewrite handles. */
static HRESULT check_uses(const struct d3d12xs_spirv_module *m, uint32_t marker, uint8_t *chain, char *error, size_t error_size)
{
    const struct d3d12xs_spirv_inst *inst;
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_FUNCTIONS, i, inst)) {
        const uint32_t *w = inst->w;
        uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst);
        if (op == SpvOpLine || op == SpvOpNoLine)
            continue;
        if ((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain) && n >= 4 && w[3] == marker) {
            if (n != 8)
                return d3d12xs_write_error(E_INVALIDARG, error, error_size, "access chain %u into D3D12XS_HEAP_MEMORY has %u "
                        "indices (use the functions of " D3D12XS_HEAP_INCLUDE ")", w[2], n - 4);
            chain[w[2]] = 1;
            continue;
        }
        for (uint32_t k = 1; k < n; k++) {
            uint32_t id = w[k];
            bool allowed;
            if (id >= m->bound || (id != marker && !chain[id]))
                continue;
            allowed = id != marker && ((op == SpvOpLoad && k == 3) || (op == SpvOpStore && k == 1)
                    || (is_atomic_on_pointer_at_3(op) && k == 3) || (op == SpvOpAtomicStore && k == 1));
            if (!allowed)
                return d3d12xs_write_error(E_INVALIDARG, error, error_size, "%s %u is used by instruction %u, which the heap "
                        "access rewrite does not handle (use the functions of " D3D12XS_HEAP_INCLUDE ")",
                        id == marker ? "D3D12XS_HEAP_MEMORY" : "heap pointer", id, op);
        }
    }
    return S_OK;
}

static bool has_uint32(const struct d3d12xs_spirv_module *m)
{
    const struct d3d12xs_spirv_inst *inst;
    for (D3D12XS_SPIRV_EACH(m, D3D12XS_SPIRV_GLOBALS, i, inst))
        if (d3d12xs_spirv_op(inst) == SpvOpTypeInt && d3d12xs_spirv_len(inst) == 4 && inst->w[2] == 32 && !inst->w[3])
            return true;
    return false;
}

/* Drops the instructions of section whose word `at` is the marker. */
static void remove_marker_uses(struct d3d12xs_spirv_module *m, enum d3d12xs_spirv_section section, uint32_t at, uint32_t marker)
{
    for (size_t i = 0; i < m->sections[section].count;) {
        const struct d3d12xs_spirv_inst *inst = m->sections[section].at[i];
        uint32_t op = d3d12xs_spirv_op(inst);
        bool named = section != D3D12XS_SPIRV_DEBUG || op == SpvOpName || op == SpvOpMemberName;
        bool decorated = section != D3D12XS_SPIRV_ANNOTATIONS || op == SpvOpDecorate || op == SpvOpDecorateId
                || op == SpvOpDecorateString;
        bool variable = section != D3D12XS_SPIRV_GLOBALS || op == SpvOpVariable;
        if (named && decorated && variable && d3d12xs_spirv_len(inst) > at && inst->w[at] == marker)
            d3d12xs_spirv_remove(m, section, i);
        else
            i++;
    }
}

HRESULT d3d12xs_spirv_pass_heap_pointers(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_heap_pointers_args *args,
        char *error, size_t error_size)
{
    uint32_t marker = args->marker, bound = m->bound, u32, u64, psb_pointer, c32; /* chain[] covers the ids below bound */
    uint8_t *chain;
    HRESULT hr;

    if (marker >= m->bound)
        return d3d12xs_write_error(E_INVALIDARG, error, error_size, "the module or the heap marker variable is invalid");
    if (FAILED(hr = d3d12xs_spirv_check_addressing(m, error, error_size)))
        return hr;
    if (!(chain = calloc(m->bound, 1)))
        return E_OUTOFMEMORY;
    if (FAILED(hr = check_uses(m, marker, chain, error, error_size)))
        goto done;
    if (!has_uint32(m)) {
        hr = d3d12xs_write_error(E_INVALIDARG, error, error_size, "the module has no 32-bit unsigned integer type");
        goto done;
    }
    if (!m->sections[D3D12XS_SPIRV_FUNCTIONS].count) {
        hr = d3d12xs_write_error(E_INVALIDARG, error, error_size, "the module has no function");
        goto done;
    }
    u32 = d3d12xs_spirv_type_int(m, 32, 0);
    u64 = d3d12xs_spirv_type_int(m, 64, 0);
    psb_pointer = d3d12xs_spirv_type_pointer(m, SpvStorageClassPhysicalStorageBuffer, u32);
    c32 = d3d12xs_spirv_constant64(m, u64, 32);

    d3d12xs_spirv_filter_interface(m, is_marker, &marker);
    remove_marker_uses(m, D3D12XS_SPIRV_DEBUG, 1, marker);
    remove_marker_uses(m, D3D12XS_SPIRV_ANNOTATIONS, 1, marker);
    remove_marker_uses(m, D3D12XS_SPIRV_GLOBALS, 2, marker);
    for (size_t i = 0; i < m->sections[D3D12XS_SPIRV_FUNCTIONS].count && !m->out_of_memory; i++) {
        struct d3d12xs_spirv_inst *inst = m->sections[D3D12XS_SPIRV_FUNCTIONS].at[i];
        const uint32_t *w = inst->w;
        uint32_t op = d3d12xs_spirv_op(inst), n = d3d12xs_spirv_len(inst);

        if ((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain) && n == 8 && w[3] == marker) {
            uint32_t a = d3d12xs_spirv_new_id(m), b = d3d12xs_spirv_new_id(m), c = d3d12xs_spirv_new_id(m);
            uint32_t d = d3d12xs_spirv_new_id(m), result = w[2], low = w[5], high = w[7];
            uint32_t code[18] = {
                (4u << 16) | SpvOpUConvert, u64, a, low,
                (4u << 16) | SpvOpUConvert, u64, b, high,
                (5u << 16) | SpvOpShiftLeftLogical, u64, c, b, c32,
                (5u << 16) | SpvOpBitwiseOr, u64, d, c, a,
            };
            uint32_t pointer[4] = {SpvOpConvertUToPtr, psb_pointer, result, d};
            if (!d) {
                m->out_of_memory = true;
                break;
            }
            for (uint32_t at = 0, k = 0; at < 18; at += code[at] >> 16, k++)
                d3d12xs_spirv_insert(m, D3D12XS_SPIRV_FUNCTIONS, i + k, &code[at], code[at] >> 16);
            i += 4;
            d3d12xs_spirv_rewrite(m, inst, pointer, 4);
        } else if (op == SpvOpLoad && n >= 4 && w[3] < bound && chain[w[3]]) {
            d3d12xs_spirv_set_aligned(m, inst, 4, 4);
        } else if (op == SpvOpStore && n >= 3 && w[1] < bound && chain[w[1]]) {
            d3d12xs_spirv_set_aligned(m, inst, 3, 4);
        }
    }
    d3d12xs_spirv_use_psb(m);
    hr = m->out_of_memory ? E_OUTOFMEMORY : S_OK;

done:
    free(chain);
    return hr;
}
