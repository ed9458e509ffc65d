/* See spirv_psb.h. */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "shaders/spirv.h"
#include "shaders/spirv_psb.h"

static const char extension_name[] = "SPV_KHR_physical_storage_buffer";

void d3d12xs_spirv_emit(struct d3d12xs_spirv_writer *writer, const uint32_t *words, size_t n)
{
    if (writer->out_of_memory)
        return;
    if (writer->count + n > writer->capacity) {
        size_t capacity = (writer->count + n) * 2;
        uint32_t *bigger = realloc(writer->out, capacity * sizeof(*bigger));
        if (!bigger) {
            writer->out_of_memory = true;
            return;
        }
        writer->out = bigger;
        writer->capacity = capacity;
    }
    memcpy(writer->out + writer->count, words, n * sizeof(*words));
    writer->count += n;
}

void d3d12xs_spirv_emit_aligned(struct d3d12xs_spirv_writer *writer, const uint32_t *instruction, uint32_t n, uint32_t mask_at,
        uint32_t alignment)
{
    uint32_t copy[16];
    if (n > 14) {
        d3d12xs_spirv_emit(writer, instruction, n);
        return;
    }
    memcpy(copy, instruction, n * 4);
    if (n == mask_at) {
        copy[n++] = SpvMemoryAccessAlignedMask;
        copy[n++] = alignment;
    } else if (!(copy[mask_at] & SpvMemoryAccessAlignedMask)) {
        /* Aligned's literal comes first: Volatile and Nontemporal, the lower bits, have none */
        copy[mask_at] |= SpvMemoryAccessAlignedMask;
        memmove(&copy[mask_at + 2], &copy[mask_at + 1], (n - mask_at - 1) * 4);
        copy[mask_at + 1] = alignment;
        n++;
    }
    copy[0] = (n << 16) | (copy[0] & 0xffff);
    d3d12xs_spirv_emit(writer, copy, n);
}

void d3d12xs_psb_preamble_scan(struct d3d12xs_psb_preamble *preamble, const uint32_t *words, size_t o)
{
    uint32_t op = words[o] & 0xffff, n = words[o] >> 16;
    const char *name;
    size_t next;

    if (op == SpvOpCapability && n == 2) {
        preamble->last_capability = o;
        preamble->has_psb |= words[o + 1] == SpvCapabilityPhysicalStorageBufferAddresses;
        preamble->has_int64 |= words[o + 1] == SpvCapabilityInt64;
    } else if (op == SpvOpExtension) {
        preamble->last_extension = o;
        if (d3d12xs_spirv_string(words, o + 1, o + n, &name, &next) && !strcmp(name, extension_name))
            preamble->has_extension = true;
    }
}

void d3d12xs_psb_preamble_emit_after(struct d3d12xs_spirv_writer *writer, const struct d3d12xs_psb_preamble *preamble, size_t o)
{
    if (o == preamble->last_capability) {
        uint32_t capabilities[4], t = 0;
        if (!preamble->has_psb)
            capabilities[t++] = (2u << 16) | SpvOpCapability, capabilities[t++] = SpvCapabilityPhysicalStorageBufferAddresses;
        if (!preamble->has_int64)
            capabilities[t++] = (2u << 16) | SpvOpCapability, capabilities[t++] = SpvCapabilityInt64;
        d3d12xs_spirv_emit(writer, capabilities, t);
    }
    if (!preamble->has_extension && o == (preamble->last_extension ? preamble->last_extension : preamble->last_capability)) {
        uint32_t extension[1 + (sizeof(extension_name) + 3) / 4];
        memset(extension, 0, sizeof(extension));
        extension[0] = ((uint32_t)(sizeof(extension) / 4) << 16) | SpvOpExtension;
        memcpy(&extension[1], extension_name, sizeof(extension_name));
        d3d12xs_spirv_emit(writer, extension, sizeof(extension) / 4);
    }
}

void d3d12xs_psb_emit_memory_model(struct d3d12xs_spirv_writer *writer, const uint32_t *in, uint32_t n)
{
    uint32_t model[3] = {in[0], SpvAddressingModelPhysicalStorageBuffer64, n >= 3 ? in[2] : SpvMemoryModelGLSL450};
    d3d12xs_spirv_emit(writer, model, 3);
}
