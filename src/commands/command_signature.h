/* ID3D12CommandSignature (command_signature.c): what one command of an ExecuteIndirect argument
 * buffer holds, checked by D3D12's rules at creation (docs/indirect.md). */
#ifndef D3D12XS_COMMAND_SIGNATURE_H
#define D3D12XS_COMMAND_SIGNATURE_H

#include "device/device.h"
#include "descriptors/root_signature.h"

struct d3d12_command_signature {
    ID3D12CommandSignature ID3D12CommandSignature_iface;
    struct d3d12xs_object object;
    UINT byte_stride;
    UINT argument_count;
    D3D12_INDIRECT_ARGUMENT_DESC *arguments;
    /* Given exactly when the arguments change root arguments; a private reference, as D3D12
     * keeps it out of the public count. */
    struct d3d12_root_signature *root_signature;
    /* The one draw or dispatch, always the last argument, and its byte offset in a command. */
    D3D12_INDIRECT_ARGUMENT_TYPE action;
    uint32_t action_offset;
    /* The first argument that changes state (vertex or index buffer, root argument), or
     * action when there is none: ExecuteIndirect names it while it cannot run such signatures. */
    D3D12_INDIRECT_ARGUMENT_TYPE first_state_change;
    /* Root parameters the commands set, bit per parameter: 32-bit constants (CONSTANT,
     * INCREMENTING_CONSTANT) and root CBVs, SRVs and UAVs. */
    uint64_t root_constant_mask, root_view_mask;
    bool sets_vertex_input; /* VERTEX_BUFFER_VIEW or INDEX_BUFFER_VIEW */
    /* enum d3d12_vertex_pulling (descriptors/root_signature.h): how the own path's vertex shaders
     * fetch what the views set (INDEXED: an index buffer view of indexed draws) */
    uint8_t pulling;
    /* Signatures that change state, as Vulkan's generated commands (command_signature.c): NULL
     * where the device has no VK_EXT_device_generated_commands or the signature cannot be one
     * (ExecuteIndirect then names why). */
    struct d3d12_generated_layout *generated;
    const char *generated_why; /* static text: why generated is NULL for a signature that changes state */
    /* A draw signature that sets root arguments alone (no vertex or index buffer views), on a
     * device with the own path's images: where the bound pipeline's vertex shader alone reads
     * them, its commands run as one multi-draw, generated commands or not (command_list_indirect.c). */
    bool flat_draws;
    /* Where flat_draws' root arguments lie in the commands, where a vertex shader can read them
     * there (every CONSTANT sets its parameter's constants whole, no INCREMENTING_CONSTANT): then
     * no images are written. stride 0 otherwise. */
    struct d3d12_indirect_layout direct_layout;
};

/* NULL for NULL and for an interface that is not one of d3d12xs's command signatures. */
struct d3d12_command_signature *unsafe_impl_from_ID3D12CommandSignature(ID3D12CommandSignature *iface);
HRESULT d3d12_command_signature_create(struct d3d12_device *device, const D3D12_COMMAND_SIGNATURE_DESC *desc,
        ID3D12RootSignature *root_signature, REFIID riid, void **out);
/* The bytes an argument takes in a command: D3D12's argument structures. Inline, so that the
 * generated-commands layout (command_signature.c) reads it without calling back into the file
 * that makes it. */
static inline uint32_t d3d12_indirect_argument_size(const D3D12_INDIRECT_ARGUMENT_DESC *argument)
{
    switch (argument->Type) {
    case D3D12_INDIRECT_ARGUMENT_TYPE_DRAW: return sizeof(D3D12_DRAW_ARGUMENTS);
    case D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED: return sizeof(D3D12_DRAW_INDEXED_ARGUMENTS);
    case D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH: return sizeof(D3D12_DISPATCH_ARGUMENTS);
    case D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW: return sizeof(D3D12_VERTEX_BUFFER_VIEW);
    case D3D12_INDIRECT_ARGUMENT_TYPE_INDEX_BUFFER_VIEW: return sizeof(D3D12_INDEX_BUFFER_VIEW);
    case D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT: return 4 * argument->Constant.Num32BitValuesToSet;
    case D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW:
    case D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW:
    case D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW: return sizeof(D3D12_GPU_VIRTUAL_ADDRESS);
    /* The command's index, counted by the GPU: nothing in the argument buffer (as far as
     * Microsoft's pages say; docs/indirect.md). */
    case D3D12_INDIRECT_ARGUMENT_TYPE_INCREMENTING_CONSTANT: return 0;
    case D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH_RAYS: return sizeof(D3D12_DISPATCH_RAYS_DESC);
    case D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH_MESH: return sizeof(D3D12_DISPATCH_MESH_ARGUMENTS);
    default: return 0;
    }
}

/* D3D12_INDIRECT_ARGUMENT_TYPE's name without its prefix, for messages. */
const char *d3d12_indirect_argument_name(D3D12_INDIRECT_ARGUMENT_TYPE type);

#endif
