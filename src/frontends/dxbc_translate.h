/* DXBC shaders (FXC, shader model 5.0 and 5.1) to d3d12xs's SPIR-V module, through
 * libvkd3d-shader. The container is checked first (dxbc.h); the module that comes back follows
 * d3d12xs's binding encoding (spirv/spirv.h) with raw and structured views as storage buffers, ready
 * for reflection and pipeline creation's passes. */
#ifndef D3D12XS_DXBC_TRANSLATE_H
#define D3D12XS_DXBC_TRANSLATE_H

#include "frontends/dxbc.h"
#include "spirv/spirv_module.h"

/* E_INVALIDARG (malformed, DXIL, not a shader of model 5.x, or refused by libvkd3d-shader) or
 * E_NOTIMPL (what dxbc.h names) with a reason in error; E_OUTOFMEMORY. */
HRESULT d3d12xs_dxbc_translate(const void *code, size_t size, struct d3d12xs_spirv_module **module, char *error, size_t error_size);

/* A pipeline's shaders to translate together (d3d12xs_dxbc_translate_all). */
#define D3D12XS_DXBC_MAX_SOURCES 5
struct d3d12xs_dxbc_source {
    const void *code;
    size_t size;
    /* a domain shader's: the tessellator state of the pipeline's hull shader, which its module
     * then declares too; NULL for the other stages */
    const struct d3d12xs_dxbc_tessellator *tessellator;
};
/* The same for up to D3D12XS_DXBC_MAX_SOURCES shaders at once: their translations overlap in the
 * translator (one wait for it, not one per shader). modules[i] each; on a failure none, with
 * *failed naming the first shader that failed and the reason in error. */
HRESULT d3d12xs_dxbc_translate_all(const struct d3d12xs_dxbc_source *sources, uint32_t count, struct d3d12xs_spirv_module **modules,
        uint32_t *failed, char *error, size_t error_size);

#endif
