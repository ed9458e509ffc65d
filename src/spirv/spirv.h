/* SPIR-V handling: what D3DCompile puts in its blobs, reading bindings back out of a
 * module (reflection) and moving them to where a root signature puts them (remapping).
 *
 * Binding encoding (ours). D3DCompile compiles HLSL with glslang's HLSL register mapping,
 * so every resource variable of the module carries
 *     DescriptorSet = the HLSL register space (spaceN, 0 when not given)
 *     Binding       = (register class << 14) | register number
 * with the classes of enum d3d12xs_register_class: b -> 0, t -> 1, u -> 2, s -> 3.
 * Examples: register(b2) -> 2, register(t3) -> 16387, register(u0, space1) -> set 1,
 * binding 32768, register(s1) -> 49153.  glslang refuses bindings above 0xfffe, which is
 * why the class sits at bit 14 and not higher: registers 0..16382 are supported.
 * Resources without a register get the next free one of their class, as in D3D.
 *
 * glslang gives every RWStructuredBuffer / AppendStructuredBuffer / ConsumeStructuredBuffer
 * whose counter is used (IncrementCounter, DecrementCounter, Append, Consume) a hidden
 * storage buffer holding the counter (a struct of one 32-bit int). D3DCompile gives that
 * variable class 4 (D3D12XS_REGISTER_UAV_COUNTER): same set as the UAV and binding
 * (4 << 14) | the UAV's register, i.e. it is the counter resource of the UAV descriptor
 * u<register>, space<set>.
 *
 * SPIR-V handed to the API directly (instead of through D3DCompile) must follow the same
 * encoding; reflection checks that each variable's class agrees with its type.
 *
 * Wave size marker (ours). A shader compiled with __XBOX_ENABLE_WAVE32 defined to a
 * non-zero value in D3DCompile's pDefines (the console's way to build a wave32 shader)
 * carries the instruction
 *     OpModuleProcessed "d3d12xs.wave32"
 * in the debug section (after OpString, OpSource and the other source instructions, OpName and OpMemberName; before the
 * annotations). Reflection reports wave_size 32 for a module with that instruction,
 * 64 (the console default) otherwise. OpModuleProcessed has no semantic effect, survives
 * Vulkan drivers and spirv-opt, and is legal in SPIR-V 1.1 and later.
 *
 * No-volatile marker (ours). A module whose source declared no `globallycoherent` resource
 * (D3DCompile: no such token in the preprocessed source; DXBC: no UAV declared globally
 * coherent) carries "d3d12xs.no_globallycoherent" in an OpModuleProcessed (OpSourceExtension
 * in SPIR-V 1.0, which has no OpModuleProcessed). Reflection reports it as no_volatile: the
 * shader makes no volatile access, so DispatchX's DISABLE_VOLATILE flags change nothing for it,
 * and it needs no coherent DispatchX variant. glslang shares one block type between buffers of
 * one element type and loses `globallycoherent` on them, so the module alone cannot tell.
 *
 * Only native-endian (little-endian) SPIR-V is accepted. None of these functions log:
 * they return the reason in error[] and the caller logs it with the method name.
 */
#ifndef D3D12XS_SPIRV_H
#define D3D12XS_SPIRV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <vulkan/vulkan.h>

#include "d3d12.h"
#include "common/util.h"

#define D3D12XS_BINDING_CLASS_SHIFT 14
#define D3D12XS_BINDING_REGISTER_MASK 0x3fffu
#define D3D12XS_MAX_REGISTER 16382u
#define D3D12XS_ENCODE_BINDING(register_class, register_index) \
    (((uint32_t)(register_class) << D3D12XS_BINDING_CLASS_SHIFT) | (uint32_t)(register_index))
#define D3D12XS_SPIRV_WAVE32_MARKER "d3d12xs.wave32"
#define D3D12XS_SPIRV_NO_VOLATILE_MARKER "d3d12xs.no_globallycoherent"
#define D3D12XS_WAVE32_DEFINE "__XBOX_ENABLE_WAVE32"
/* Directly indexed heaps (include/d3d12xs_heap.hlsli): the header's two resources use these
 * registers, u<REGISTER> (the heap, an unbounded array of raw buffers) and b<REGISTER> (its size). */
#define D3D12XS_HEAP_INCLUDE "d3d12xs_heap.hlsli"
#define D3D12XS_HEAP_SPACE 62u /* the highest space D3DCompile maps (glslang: 63 means none) */
#define D3D12XS_HEAP_REGISTER 16381u /* 16382 is the ordered-append state's (below) */
#define D3D12XS_HEAP_REGISTER_FIRST 16370u /* 16370-16381 of the space: d3d12xs_heap.hlsli's views of the heaps */
/* The header's switch to query view sizes one index at a time (devices that mishandle a
 * non-uniform one), a specialization constant set by pipeline creation. */
#define D3D12XS_HEAP_SIZE_BY_INDEX_SPEC_ID 2001u
#define D3D12XS_DXBC_UNSUPPORTED_MESSAGE \
    "DXBC/DXIL bytecode is not SPIR-V (pipeline creation translates DXBC; this takes SPIR-V, e.g. from D3DCompile)"

enum d3d12xs_register_class {
    D3D12XS_REGISTER_CBV,         /* b */
    D3D12XS_REGISTER_SRV,         /* t */
    D3D12XS_REGISTER_UAV,         /* u */
    D3D12XS_REGISTER_SAMPLER,     /* s */
    D3D12XS_REGISTER_UAV_COUNTER, /* the counter of UAV u<register_index> (see above) */
};

struct d3d12xs_shader_binding {
    enum d3d12xs_register_class register_class;
    uint32_t space, register_index;
    uint32_t array_size;              /* 1 for a single resource, 0 for an unbounded (runtime) array */
    /* UNIFORM_BUFFER (cbuffer), STORAGE_BUFFER (raw/structured, SRV or UAV, and counters),
     * UNIFORM_TEXEL_BUFFER (Buffer<T>), STORAGE_TEXEL_BUFFER (RWBuffer<T>), SAMPLER,
     * SAMPLED_IMAGE (Texture*), STORAGE_IMAGE (RWTexture*) */
    VkDescriptorType descriptor_type;
    uint32_t variable_id;
    uint32_t alias_variable_id;       /* a second variable of the same set and binding (storage buffers only:
                                       * D3DCompile's uvec4 view of a raw buffer), remapped with it; else 0 */
    uint32_t block_size;              /* cbuffers: bytes up to the end of the last member; else 0 */
    bool in_rows;                     /* a DXBC cbuffer (rows of four values): its root constants may end
                                       * inside its last row (pipeline creation sets it) */
};

struct d3d12xs_shader_info {
    VkShaderStageFlagBits stage;
    char entry_point[64];
    uint32_t local_size[3];           /* numthreads (compute), 0 0 0 otherwise */
    uint32_t wave_size;               /* 32 if marked wave32, else 64 (the console default) */
    bool no_volatile;                 /* marked: its source declared nothing globallycoherent */
    struct d3d12xs_shader_binding *bindings;
    uint32_t binding_count;
    uint32_t *capabilities;           /* the SpvCapability of every OpCapability, in module order */
    uint32_t capability_count;
};

/* Reads the first compute entry point (or else the first entry point) and every resource
 * variable of a SPIR-V module. code need not be aligned. E_INVALIDARG with a reason in
 * error for anything that is not a well-formed module following the encoding above;
 * E_OUTOFMEMORY. On failure info is zeroed (and needs no cleanup). */
HRESULT d3d12xs_spirv_reflect(const void *code, size_t size, struct d3d12xs_shader_info *info,
        char *error, size_t error_size);
void d3d12xs_shader_info_cleanup(struct d3d12xs_shader_info *info);

struct d3d12xs_binding_target {
    bool push_constant;      /* root constants: the cbuffer becomes (part of) the push-constant block */
    uint32_t push_offset;    /* byte offset of those constants in the push-constant range */
    uint32_t set, binding;   /* otherwise: where the descriptor goes */
};

/* Produces a new SPIR-V module (malloc()ed words, free() them) in which binding i of info
 * (from d3d12xs_spirv_reflect of the same code) lives at targets[i]. Every binding whose
 * target has push_constant set must be a single cbuffer (UNIFORM_BUFFER, array_size 1);
 * all of them are merged into the module's one push-constant block, each cbuffer's members
 * at push_offset + their offset in the cbuffer. E_INVALIDARG with a reason when the
 * request cannot be met. The output is not validated here: pipeline creation runs
 * d3d12xs_spirv_validate on it where the device's configuration asks (D3D12XS_DEBUG or
 * EnableDebugLayer; scalar block layout allowed: the validation layer checks it against
 * the device's features). */
HRESULT d3d12xs_spirv_remap(const void *code, size_t size, const struct d3d12xs_shader_info *info,
        const struct d3d12xs_binding_target *targets, uint32_t **out_words, size_t *out_word_count,
        char *error, size_t error_size);

/* Runs the SPIRV-Tools validator for the Vulkan 1.1 environment (the SPIR-V 1.4 flavour of
 * it for modules of version 1.4, Vulkan 1.2 / 1.3 for 1.5 / 1.6). With scalar_block_layout,
 * block layouts are checked by the scalar block layout rules (Vulkan's scalarBlockLayout, which
 * D3DCompile's structured buffers use: see src/spirv/spirv_structured_layout.c), else by the standard ones.
 * S_OK when valid; E_FAIL and the validator's message otherwise. Exported for the tests, which
 * cannot link SPIRV-Tools themselves (the library links it statically with its symbols hidden). */
HRESULT d3d12xs_spirv_validate(const uint32_t *words, size_t word_count, bool scalar_block_layout, char *error,
        size_t error_size);

/* The words to hand the driver, where they differ from the module's (spirv_compute_derivatives.c):
 * a malloc()ed copy that names SPV_KHR_compute_shader_derivatives where the module names the NV
 * extension and only the KHR one is enabled (khr_compute_derivatives); NULL when the words go
 * as they are (or no memory: the driver then sees the NV name). */
uint32_t *d3d12xs_spirv_words_for_device(const uint32_t *words, size_t word_count, bool khr_compute_derivatives);

/* ---- internal to src/spirv/spirv_*.c and src/frontends/shader_compile.c; the passes over a
 * parsed module are in spirv_module.h and spirv_passes.h ---- */

/* The string operand starting at word index `at` of the instruction at [start, end): true
 * when it is NUL-terminated inside the instruction; *next gets the word after it. */
bool d3d12xs_spirv_string(const uint32_t *words, size_t at, size_t end, const char **string, size_t *next);
/* src/spirv/spirv_fixup.c (d3d12xs_spirv_pass_fixup over a parsed module; this copy-in copy-out
 * form is for the tests): a copy (malloc()ed words) of the SPIR-V that shaderc made from HLSL, with
 * the places where glslang departs from HLSL semantics fixed (see the file for the list and the
 * reasons). Only for D3DCompile's own output; counts (may be NULL) gets how many instructions
 * or decorations each fix changed. With D3D12XS_FIXUP_SCALAR_LAYOUT in flags, structured buffers
 * get D3D12's tight layout, which needs Vulkan's scalarBlockLayout (without it they keep
 * glslang's std430 layout). E_INVALIDARG for fewer than 5 words, E_OUTOFMEMORY, E_FAIL when a
 * structured buffer's types cannot be laid out (a reason in error, which may be NULL). A tail
 * that cannot be walked (an instruction past the end) comes back unchanged, for reflection to refuse. */
#define D3D12XS_FIXUP_SCALAR_LAYOUT 0x1u
struct d3d12xs_fixup_counts {
    unsigned inclusive_scan; /* GroupOperation InclusiveScan -> ExclusiveScan (WavePrefix*) */
    unsigned fmod;           /* OpFMod -> OpFRem (fmod, float %) */
    unsigned smod;           /* OpSMod / OpSRem -> C-style remainder on magnitudes (signed int %) */
    unsigned layout;         /* Offset / ArrayStride / MatrixStride of structured buffers -> scalar layout */
    unsigned matrix;         /* OpMatrixTimesMatrix of one type (HLSL `*`) -> per-column OpFMul */
    unsigned shift;          /* shift counts of 32-bit integers masked to 5 bits */
    unsigned conversion;     /* float -> 32-bit integer conversions saturating, NaN -> 0 */
    unsigned udiv;           /* unsigned / and % by zero -> 0xFFFFFFFF (fix 11) */
    unsigned nan_min_max;    /* GLSL.std.450 FMin / FMax / FClamp -> NMin / NMax / NClamp (fix 10) */
    unsigned statics;        /* Private variables without initialiser given a zero one (fix 9) */
    unsigned cbuffer;        /* Offset / ArrayStride / MatrixStride of cbuffers -> D3D's packing (fix 8) */
};
HRESULT d3d12xs_spirv_fixup_hlsl(const uint32_t *words, size_t word_count, unsigned flags, uint32_t **out_words,
        size_t *out_count, struct d3d12xs_fixup_counts *counts, char *error, size_t error_size);

/* src/spirv/spirv_vectorize.c (d3d12xs_spirv_pass_vectorize; this form is for the tests): a
 * copy (malloc()ed words) of D3DCompile's module in which each group of four 32-bit loads (or stores) of words 4k .. 4k + 3 of a ByteAddressBuffer, k
 * provably whole, in one basic block and with nothing in between that could observe the
 * difference, is one 16-byte access through a uvec4 view of the same binding (a second
 * variable, which reflection reports as the binding's alias_variable_id). *loads and *stores
 * get how many 16-byte accesses were made. E_INVALIDARG for a malformed module, E_OUTOFMEMORY. */
HRESULT d3d12xs_spirv_vectorize_raw(const uint32_t *words, size_t word_count, uint32_t **out_words, size_t *out_count,
        unsigned *loads, unsigned *stores);

/* src/spirv/spirv_cbuffer_layout.c, fix 8 (d3d12xs_spirv_pass_cbuffer_layout): where a cbuffer
 * layout cannot be honoured. */
#define D3D12XS_CBUFFER_PATH_MAX 8
struct d3d12xs_cbuffer_problem {
    uint32_t set, binding;                      /* of the cbuffer's variable */
    uint32_t path[D3D12XS_CBUFFER_PATH_MAX];    /* member indices from the block, depth of them */
    uint32_t depth;
    uint32_t d3d_offset, offset;                /* D3D's and glslang's, in bytes from the block */
    uint32_t other_member;                      /* an overlapped member of the same struct, or UINT32_MAX */
    char reason[320];
};
/* Writes "BLOCK.member.member" for problem's path into name, from a module with names (glslang
 * at -O0): false when that module has no such block. */
bool d3d12xs_spirv_cbuffer_member_name(const uint32_t *words, size_t word_count,
        const struct d3d12xs_cbuffer_problem *problem, char *name, size_t name_size);

/* src/spirv/spirv_dispatch_variant.c: a variant of a remapped module for DispatchX
 * (docs/dispatch.md). THREAD_LIMIT: the entry point returns at once in threads whose
 * GlobalInvocationId is not below the uint3 the push constants hold at byte limit_offset
 * (the module's push-constant block gets that member); E_INVALIDARG for a shader with a
 * workgroup barrier. COHERENT: every storage buffer and storage image is decorated Coherent.
 * The output (malloc()ed words) is validated by the caller where the device asks (pipelines/pipeline_variant.c). */
#define D3D12XS_VARIANT_THREAD_LIMIT 0x1u
#define D3D12XS_VARIANT_COHERENT 0x2u
#define D3D12XS_VARIANT_DISPATCH_BASE 0x4u /* created with DISPATCH_BASE: a non-zero start group (the SPIR-V only gets a marker) */
/* Root raw buffers read as uvec4s only through four 32-bit accesses: for a root SRV/UAV whose
 * view starts off a 16-byte boundary (pipelines/pipeline_view_offsets.c; not a DispatchX bit,
 * dispatch_variant() never sees it) */
#define D3D12XS_VARIANT_SCALAR 0x8u
/* A dispatch asks with these bits; d3d12_pipeline_state_variant (pipeline_variant.c) maps them
 * onto the few VkPipelines its pipeline made. */
HRESULT d3d12xs_spirv_dispatch_variant(const uint32_t *words, size_t word_count, unsigned variant, uint32_t limit_offset,
        uint32_t **out_words, size_t *out_count, char *error, size_t error_size);

/* The register of the ordered-append state that include/d3d12xs_ordered_append.hlsli declares
 * (ours): u16382 in space 62. glslang takes spaces up to 63 only, and 16382 is the highest
 * register the binding encoding carries, so no application register is likely to meet it.
 * A pipeline whose shader uses it gets the state buffer of its DispatchX, not a root argument. */
#define D3D12XS_ORDERED_APPEND_SPACE 62u
#define D3D12XS_ORDERED_APPEND_REGISTER 16382u

#endif
