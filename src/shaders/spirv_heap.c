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
#include "shaders/spirv_psb.h"

struct heap_rewrite {
    const uint32_t *w;
    size_t count;
    uint32_t marker, bound;
    uint8_t *chain;  /* id -> 1 when it is a rewritten access chain's result */
    struct d3d12xs_spirv_writer out;
};

static bool is_atomic_on_pointer_at_3(uint32_t op)
{
    return (op >= SpvOpAtomicLoad && op <= SpvOpAtomicXor && op != SpvOpAtomicStore) || op == SpvOpAtomicFlagTestAndSet;
}

HRESULT d3d12xs_spirv_heap_pointers(uint32_t **words, size_t *word_count, uint32_t marker, char *error, size_t error_size)
{
    struct heap_rewrite r;
    struct d3d12xs_psb_preamble preamble;
    uint32_t u32 = 0, u64 = 0, psb_pointer, c32, next_id;
    bool globals_done = false, in_function = false;
    size_t o;
    HRESULT hr = S_OK;

    memset(&r, 0, sizeof(r));
    memset(&preamble, 0, sizeof(preamble));
    r.w = *words;
    r.count = *word_count;
    r.marker = marker;
    if (r.count < 5 || marker >= r.w[3])
        return d3d12xs_spirv_error(E_INVALIDARG, error, error_size, "the module or the heap marker variable is invalid");
    r.bound = r.w[3];
    if (!(r.chain = calloc(r.bound, 1)))
        return E_OUTOFMEMORY;

    /* First pass: what exists, and every use of the marker and of the chains. */
    for (o = 5; o < r.count; o += r.w[o] >> 16) {
        uint32_t op = r.w[o] & 0xffff, n = r.w[o] >> 16;
        if (!n || o + n > r.count) {
            hr = d3d12xs_spirv_error(E_INVALIDARG, error, error_size, "instruction at word %zu runs past the module", o);
            goto done;
        }
        if (op == SpvOpFunction)
            in_function = true;
        if (!in_function)
            d3d12xs_psb_preamble_scan(&preamble, r.w, o);
        if (op == SpvOpTypeInt && n == 4 && !r.w[o + 3]) {
            if (r.w[o + 2] == 32)
                u32 = r.w[o + 1];
            else if (r.w[o + 2] == 64)
                u64 = r.w[o + 1];
        } else if (op == SpvOpMemoryModel && n == 3 && r.w[o + 1] != SpvAddressingModelLogical
                && r.w[o + 1] != SpvAddressingModelPhysicalStorageBuffer64) {
            hr = d3d12xs_spirv_error(E_INVALIDARG, error, error_size, "the module's addressing model is %u (Logical expected)", r.w[o + 1]);
            goto done;
        }
        if (!in_function || op == SpvOpLine || op == SpvOpNoLine)
            continue;
        if ((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain) && n >= 4 && r.w[o + 3] == marker) {
            if (n != 8) {
                hr = d3d12xs_spirv_error(E_INVALIDARG, error, error_size, "access chain %u into D3D12XS_HEAP_MEMORY has %u indices "
                        "(use the functions of " D3D12XS_HEAP_INCLUDE ")", r.w[o + 2], n - 4);
                goto done;
            }
            r.chain[r.w[o + 2]] = 1;
            continue;
        }
        for (uint32_t k = 1; k < n; k++) {
            uint32_t id = r.w[o + k];
            bool allowed;
            if (id >= r.bound || (id != marker && !r.chain[id]))
                continue;
            allowed = id != marker && ((op == SpvOpLoad && k == 3) || (op == SpvOpStore && k == 1)
                    || (is_atomic_on_pointer_at_3(op) && k == 3) || (op == SpvOpAtomicStore && k == 1));
            if (!allowed) {
                hr = d3d12xs_spirv_error(E_INVALIDARG, error, error_size, "%s %u is used by instruction %u, which the heap "
                        "access rewrite does not handle (use the functions of " D3D12XS_HEAP_INCLUDE ")",
                        id == marker ? "D3D12XS_HEAP_MEMORY" : "heap pointer", id, op);
                goto done;
            }
        }
    }
    if (!u32) {
        hr = d3d12xs_spirv_error(E_INVALIDARG, error, error_size, "the module has no 32-bit unsigned integer type");
        goto done;
    }

    next_id = r.bound;
    if (!u64)
        u64 = next_id++;
    psb_pointer = next_id++;
    c32 = next_id++;

    d3d12xs_spirv_emit(&r.out, r.w, 5);
    in_function = false;
    for (o = 5; o < r.count; o += r.w[o] >> 16) {
        const uint32_t *in = &r.w[o];
        uint32_t op = in[0] & 0xffff, n = in[0] >> 16;

        if (op == SpvOpFunction && !globals_done) {
            uint32_t types[13], t = 0; /* a 64-bit int type (4 words), the pointer type (4), the constant 32 (5) */
            if (u64 >= r.bound) {
                types[t++] = (4u << 16) | SpvOpTypeInt, types[t++] = u64, types[t++] = 64, types[t++] = 0;
            }
            types[t++] = (4u << 16) | SpvOpTypePointer, types[t++] = psb_pointer, types[t++] = SpvStorageClassPhysicalStorageBuffer,
            types[t++] = u32;
            types[t++] = (5u << 16) | SpvOpConstant, types[t++] = u64, types[t++] = c32, types[t++] = 32, types[t++] = 0;
            d3d12xs_spirv_emit(&r.out, types, t);
            globals_done = in_function = true;
        }
        switch (op) {
        case SpvOpMemoryModel:
            d3d12xs_psb_emit_memory_model(&r.out, in, n);
            break;
        case SpvOpEntryPoint: {
            uint32_t copy_small[64], *copy = n <= 64 ? copy_small : malloc(n * 4), m = 0;
            size_t next;
            if (!copy) {
                r.out.out_of_memory = true;
                break;
            }
            memcpy(copy, in, n * 4);
            if (d3d12xs_spirv_string(r.w, o + 3, o + n, NULL, &next)) {
                m = (uint32_t)(next - o);
                for (uint32_t k = m; k < n; k++)
                    if (in[k] != marker)
                        copy[m++] = in[k];
                copy[0] = (m << 16) | op;
            } else {
                m = n;
            }
            d3d12xs_spirv_emit(&r.out, copy, m);
            if (copy != copy_small)
                free(copy);
            break;
        }
        case SpvOpName:
        case SpvOpDecorate:
        case SpvOpDecorateId:
        case SpvOpDecorateString:
        case SpvOpMemberName:
            if (!(n >= 2 && in[1] == marker))
                d3d12xs_spirv_emit(&r.out, in, n);
            break;
        case SpvOpVariable:
            if (!(n >= 3 && in[2] == marker))
                d3d12xs_spirv_emit(&r.out, in, n);
            break;
        case SpvOpAccessChain:
        case SpvOpInBoundsAccessChain:
            if (in_function && n == 8 && in[3] == marker) {
                uint32_t a = next_id++, b = next_id++, c = next_id++, d = next_id++;
                uint32_t code[22] = {
                    (4u << 16) | SpvOpUConvert, u64, a, in[5],
                    (4u << 16) | SpvOpUConvert, u64, b, in[7],
                    (5u << 16) | SpvOpShiftLeftLogical, u64, c, b, c32,
                    (5u << 16) | SpvOpBitwiseOr, u64, d, c, a,
                    (4u << 16) | SpvOpConvertUToPtr, psb_pointer, in[2], d,
                };
                d3d12xs_spirv_emit(&r.out, code, 22);
            } else {
                d3d12xs_spirv_emit(&r.out, in, n);
            }
            break;
        case SpvOpLoad:
            if (in_function && n >= 4 && in[3] < r.bound && r.chain[in[3]])
                d3d12xs_spirv_emit_aligned(&r.out, in, n, 4, 4);
            else
                d3d12xs_spirv_emit(&r.out, in, n);
            break;
        case SpvOpStore:
            if (in_function && n >= 3 && in[1] < r.bound && r.chain[in[1]])
                d3d12xs_spirv_emit_aligned(&r.out, in, n, 3, 4);
            else
                d3d12xs_spirv_emit(&r.out, in, n);
            break;
        default:
            d3d12xs_spirv_emit(&r.out, in, n);
            break;
        }
        d3d12xs_psb_preamble_emit_after(&r.out, &preamble, o);
    }
    if (!globals_done || r.out.out_of_memory) {
        hr = r.out.out_of_memory ? E_OUTOFMEMORY : d3d12xs_spirv_error(E_INVALIDARG, error, error_size, "the module has no function");
        goto done;
    }
    r.out.out[3] = next_id;
    free(*words);
    *words = r.out.out;
    *word_count = r.out.count;
    r.out.out = NULL;

done:
    free(r.out.out);
    free(r.chain);
    return hr;
}
