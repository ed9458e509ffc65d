/* What the layout fixes of D3DCompile's modules share (spirv_structured_layout.c: fix 4,
 * structured buffers in D3D12's tight packing; spirv_cbuffer_layout.c: fix 8, cbuffers in D3D's
 * register packing): which types each kind of block reaches, and the decorations that say where
 * a member is. Internal to those files and spirv_fixup.c. */
#ifndef D3D12XS_SPIRV_LAYOUT_H
#define D3D12XS_SPIRV_LAYOUT_H

#include "spirv/spirv_module.h"

enum layout_mark {
    LAYOUT_STRUCTURED = 1, /* reachable from a structured buffer's block */
    LAYOUT_OTHER = 2,      /* reachable from another explicitly laid out block (cbuffer, counter...) */
};

#define LAYOUT_MAX_DEPTH 64

struct d3d12xs_layout {
    struct d3d12xs_spirv_module *m;
    uint32_t bound;
    uint8_t *mark;          /* enum layout_mark bits, per id */
    uint32_t *size, *align; /* scalar layout of type ids (align 0: not computed yet) */
    char *error;
    size_t error_size;
};

/* The words of the type or constant that defines id among the globals, or NULL. */
const uint32_t *d3d12xs_layout_def(const struct d3d12xs_layout *l, uint32_t id);
static inline uint32_t d3d12xs_layout_op(const uint32_t *def) { return def ? def[0] & 0xffff : 0; }
static inline uint32_t d3d12xs_round_up(uint32_t value, uint32_t alignment) { return (value + alignment - 1) / alignment * alignment; }
/* Marks id and the structs and arrays it reaches with bit. */
void d3d12xs_layout_mark_reachable(struct d3d12xs_layout *l, uint32_t id, uint8_t bit, unsigned depth);
bool d3d12xs_layout_has_member_decoration(const struct d3d12xs_layout *l, uint32_t id, uint32_t member, uint32_t decoration);
/* The literal word of the (one-literal) member decoration, to read or change; NULL when there is none. */
uint32_t *d3d12xs_layout_member_decoration_word(const struct d3d12xs_layout *l, uint32_t id, uint32_t member, uint32_t decoration);
/* True when the module has a Block or BufferBlock decoration (else the layout fixes have nothing to do). */
bool d3d12xs_layout_has_blocks(const struct d3d12xs_spirv_module *m);

/* Fix 4 (spirv_structured_layout.c): *changed gets the number of decorations changed. */
HRESULT d3d12xs_spirv_structured_scalar_layout(struct d3d12xs_spirv_module *m, unsigned *changed, char *error, size_t error_size);

#endif
