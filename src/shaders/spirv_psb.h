/* Shared machinery of the SPIR-V rewrites that turn resource accesses into accesses through
 * PhysicalStorageBuffer pointers (spirv_heap.c: directly indexed heaps; spirv_root_pointers.c:
 * root descriptors of the memory-based ABI): a growing output buffer (which
 * spirv_dispatch_variant.c's DispatchX variants also write into), the Aligned memory
 * operand such pointers need, and the capabilities, extension and addressing model a module
 * using them must declare. */
#ifndef D3D12XS_SPIRV_PSB_H
#define D3D12XS_SPIRV_PSB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct d3d12xs_spirv_writer {
    uint32_t *out;
    size_t count, capacity;
    bool out_of_memory;
};

void d3d12xs_spirv_emit(struct d3d12xs_spirv_writer *writer, const uint32_t *words, size_t n);
/* Emits an OpLoad (memory operands from word mask_at = 4) or OpStore (mask_at = 3) with the
 * Aligned memory operand set to alignment (kept when the instruction already has one). */
void d3d12xs_spirv_emit_aligned(struct d3d12xs_spirv_writer *writer, const uint32_t *instruction, uint32_t n, uint32_t mask_at,
        uint32_t alignment);

/* What a module already declares of what PhysicalStorageBuffer pointers need. */
struct d3d12xs_psb_preamble {
    bool has_psb, has_int64, has_extension;
    size_t last_capability, last_extension; /* word offsets of the last OpCapability / OpExtension, 0: none */
};

/* Notes what the instruction at words[o] contributes (call for every instruction before the
 * first OpFunction). */
void d3d12xs_psb_preamble_scan(struct d3d12xs_psb_preamble *preamble, const uint32_t *words, size_t o);
/* Call after emitting the instruction at offset o of the input: adds the missing capabilities
 * after the last OpCapability and the extension after the last OpExtension (or capability). */
void d3d12xs_psb_preamble_emit_after(struct d3d12xs_spirv_writer *writer, const struct d3d12xs_psb_preamble *preamble, size_t o);
/* Emits OpMemoryModel (n words at in) with the PhysicalStorageBuffer64 addressing model. */
void d3d12xs_psb_emit_memory_model(struct d3d12xs_spirv_writer *writer, const uint32_t *in, uint32_t n);

#endif
