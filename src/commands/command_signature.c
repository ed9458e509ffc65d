/* ID3D12CommandSignature: the layout of one ExecuteIndirect command, checked at creation by
 * D3D12's rules (each refusal is Windows' E_INVALIDARG and one line naming the argument).
 * Mesh and ray dispatches are refused (E_NOTIMPL): d3d12xs has neither kind of pipeline. */
#include <stdlib.h>
#include <string.h>

#include "commands/command_signature.h"
#include "commands/generated_layout.h"
#include "descriptors/root_signature.h"
#include "generated/d3d12_stubs.h"

#define METHOD(name) "ID3D12CommandSignature::" #name

static struct d3d12_command_signature *impl_from_ID3D12CommandSignature(ID3D12CommandSignature *iface)
{
    return D3D12XS_CONTAINING(iface, struct d3d12_command_signature, ID3D12CommandSignature_iface);
}

static HRESULT STDMETHODCALLTYPE d3d12_command_signature_QueryInterface(ID3D12CommandSignature *iface, REFIID riid, void **object)
{
    static const IID *const iids[] = {&IID_ID3D12CommandSignature, &IID_ID3D12Pageable, &IID_ID3D12DeviceChild, &IID_ID3D12Object,
            &IID_IUnknown, NULL};
    return d3d12xs_query_interface(iface, METHOD(QueryInterface), iids, riid, object);
}

D3D12XS_DEVICE_CHILD_METHODS(d3d12_command_signature, ID3D12CommandSignature, impl_from_ID3D12CommandSignature, "ID3D12CommandSignature")

static void destroy_command_signature(struct d3d12_command_signature *signature)
{
    d3d12_generated_layout_destroy(signature->object.device, signature->generated);
    if (signature->root_signature)
        d3d12_root_signature_release_private_ref(signature->root_signature);
    d3d12xs_object_cleanup(&signature->object);
    free(signature->arguments);
    free(signature);
}

static ULONG STDMETHODCALLTYPE d3d12_command_signature_Release(ID3D12CommandSignature *iface)
{
    struct d3d12_command_signature *signature = impl_from_ID3D12CommandSignature(iface);
    unsigned refcount = d3d12xs_object_release(&signature->object);
    /* Lists read the signature while they record; the generated-commands layout a submitted list
     * names goes with it here, as D3D12 lets an application release a signature only once the
     * GPU is done with the lists that use it. */
    if (!refcount)
        destroy_command_signature(signature);
    return refcount;
}

#if defined(__clang__)
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Woverride-init"
#endif

static const ID3D12CommandSignatureVtbl d3d12_command_signature_vtbl = {
    D3D12XS_STUB_VTBL_ID3D12CommandSignature,
    .QueryInterface = d3d12_command_signature_QueryInterface,
    D3D12XS_DEVICE_CHILD_VTBL_ENTRIES(d3d12_command_signature),
    .Release = d3d12_command_signature_Release,
};

struct d3d12_command_signature *unsafe_impl_from_ID3D12CommandSignature(ID3D12CommandSignature *iface)
{
    if (!iface || iface->lpVtbl != &d3d12_command_signature_vtbl)
        return NULL;
    return impl_from_ID3D12CommandSignature(iface);
}

const char *d3d12_indirect_argument_name(D3D12_INDIRECT_ARGUMENT_TYPE type)
{
    static const char *const names[] = {"DRAW", "DRAW_INDEXED", "DISPATCH", "VERTEX_BUFFER_VIEW", "INDEX_BUFFER_VIEW", "CONSTANT",
            "CONSTANT_BUFFER_VIEW", "SHADER_RESOURCE_VIEW", "UNORDERED_ACCESS_VIEW", "DISPATCH_RAYS", "DISPATCH_MESH", "INCREMENTING_CONSTANT"};
    return (unsigned)type < sizeof(names) / sizeof(names[0]) ? names[type] : "unknown";
}

uint32_t d3d12_indirect_argument_size(const D3D12_INDIRECT_ARGUMENT_DESC *argument)
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

static bool is_action(D3D12_INDIRECT_ARGUMENT_TYPE type)
{
    return type == D3D12_INDIRECT_ARGUMENT_TYPE_DRAW || type == D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED
            || type == D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH || type == D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH_RAYS
            || type == D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH_MESH;
}

static bool changes_root_arguments(D3D12_INDIRECT_ARGUMENT_TYPE type)
{
    return type == D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT || type == D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW
            || type == D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW || type == D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW
            || type == D3D12_INDIRECT_ARGUMENT_TYPE_INCREMENTING_CONSTANT;
}

/* A root argument's parameter: in the root signature and of the argument's type, constants in
 * its range. E_INVALIDARG after the line otherwise. */
static HRESULT check_root_argument(const struct d3d12_root_signature *root, const D3D12_INDIRECT_ARGUMENT_DESC *argument, UINT i,
        const char *method)
{
    static const D3D12_ROOT_PARAMETER_TYPE wanted[] = {
        [D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT] = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS,
        [D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW] = D3D12_ROOT_PARAMETER_TYPE_CBV,
        [D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW] = D3D12_ROOT_PARAMETER_TYPE_SRV,
        [D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW] = D3D12_ROOT_PARAMETER_TYPE_UAV,
        [D3D12_INDIRECT_ARGUMENT_TYPE_INCREMENTING_CONSTANT] = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS,
    };
    static const char *const parameter_names[] = {"DESCRIPTOR_TABLE", "32BIT_CONSTANTS", "CBV", "SRV", "UAV"};
    /* RootParameterIndex is the first field of every root argument's member */
    UINT index = argument->Constant.RootParameterIndex, first, count;

    if (index >= root->parameter_count)
        return d3d12xs_fail(E_INVALIDARG, method, "pArgumentDescs[%u] (%s): RootParameterIndex %u is past the root signature's %u "
                "parameters", i, d3d12_indirect_argument_name(argument->Type), index, root->parameter_count);
    if (root->parameter_types[index] != wanted[argument->Type])
        return d3d12xs_fail(E_INVALIDARG, method, "pArgumentDescs[%u] (%s): root parameter %u is %s (must be %s)", i,
                d3d12_indirect_argument_name(argument->Type), index,
                root->parameter_types[index] < 5 ? parameter_names[root->parameter_types[index]] : "unknown",
                parameter_names[wanted[argument->Type]]);
    if (argument->Type == D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT) {
        first = argument->Constant.DestOffsetIn32BitValues;
        count = argument->Constant.Num32BitValuesToSet;
        if (!count || first >= root->constant_counts[index] || count > root->constant_counts[index] - first)
            return d3d12xs_fail(E_INVALIDARG, method, "pArgumentDescs[%u] (CONSTANT): DestOffsetIn32BitValues %u and "
                    "Num32BitValuesToSet %u (at least 1) pass root parameter %u's %u constants", i, first, count, index,
                    root->constant_counts[index]);
    } else if (argument->Type == D3D12_INDIRECT_ARGUMENT_TYPE_INCREMENTING_CONSTANT
            && argument->IncrementingConstant.DestOffsetIn32BitValues >= root->constant_counts[index]) {
        return d3d12xs_fail(E_INVALIDARG, method, "pArgumentDescs[%u] (INCREMENTING_CONSTANT): DestOffsetIn32BitValues %u is past "
                "root parameter %u's %u constants", i, argument->IncrementingConstant.DestOffsetIn32BitValues, index,
                root->constant_counts[index]);
    }
    return S_OK;
}

/* D3D12's rules for a command's arguments; fills the signature's action, its offset and the
 * first state change. E_INVALIDARG (E_NOTIMPL for mesh and ray dispatches) after the line. */
static HRESULT check_arguments(struct d3d12_command_signature *signature, const D3D12_COMMAND_SIGNATURE_DESC *desc,
        const struct d3d12_root_signature *root, const char *method)
{
    bool root_arguments = false, dispatch = false, vertex_input = false;
    uint32_t vertex_slots = 0, offset = 0, size;
    HRESULT hr;

    signature->first_state_change = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW;
    for (UINT i = 0; i < desc->NumArgumentDescs; i++) {
        const D3D12_INDIRECT_ARGUMENT_DESC *argument = &desc->pArgumentDescs[i];
        const char *name = d3d12_indirect_argument_name(argument->Type);

        if (argument->Type == D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH_MESH || argument->Type == D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH_RAYS)
            return d3d12xs_fail(E_NOTIMPL, method, "pArgumentDescs[%u] is %s: d3d12xs has no %s pipelines yet", i, name,
                    argument->Type == D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH_MESH ? "mesh shader" : "raytracing");
        size = d3d12_indirect_argument_size(argument);
        if ((unsigned)argument->Type > D3D12_INDIRECT_ARGUMENT_TYPE_INCREMENTING_CONSTANT)
            return d3d12xs_fail(E_INVALIDARG, method, "pArgumentDescs[%u].Type is %d (not a D3D12_INDIRECT_ARGUMENT_TYPE)", i,
                    (int)argument->Type);
        if (is_action(argument->Type)) {
            if (i != desc->NumArgumentDescs - 1)
                return d3d12xs_fail(E_INVALIDARG, method, "pArgumentDescs[%u] is %s, but a draw or dispatch must be the last argument "
                        "(there are %u) and come once", i, name, desc->NumArgumentDescs);
            signature->action = argument->Type;
            signature->action_offset = offset;
            dispatch = argument->Type == D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH;
        } else if (i == desc->NumArgumentDescs - 1) {
            return d3d12xs_fail(E_INVALIDARG, method, "the last argument, pArgumentDescs[%u], is %s (must be a draw or dispatch)", i, name);
        } else {
            if (signature->first_state_change == D3D12_INDIRECT_ARGUMENT_TYPE_DRAW)
                signature->first_state_change = argument->Type;
            if (changes_root_arguments(argument->Type)) {
                root_arguments = true;
                if (root && FAILED(hr = check_root_argument(root, argument, i, method)))
                    return hr;
            } else if (argument->Type == D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW) {
                vertex_input = true;
                if (argument->VertexBuffer.Slot >= D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT)
                    return d3d12xs_fail(E_INVALIDARG, method, "pArgumentDescs[%u] (VERTEX_BUFFER_VIEW): Slot %u is past the %u input slots",
                            i, argument->VertexBuffer.Slot, D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT);
                if (vertex_slots & (1u << argument->VertexBuffer.Slot))
                    return d3d12xs_fail(E_INVALIDARG, method, "pArgumentDescs[%u] (VERTEX_BUFFER_VIEW): Slot %u is set twice", i,
                            argument->VertexBuffer.Slot);
                vertex_slots |= 1u << argument->VertexBuffer.Slot;
            } else {
                vertex_input = true;
            }
        }
        offset += size;
    }
    if (signature->first_state_change == D3D12_INDIRECT_ARGUMENT_TYPE_DRAW)
        signature->first_state_change = signature->action;
    if (dispatch && vertex_input)
        return d3d12xs_fail(E_INVALIDARG, method, "a DISPATCH signature sets a vertex or index buffer (only draws read them)");
    if (root_arguments && !root)
        return d3d12xs_fail(E_INVALIDARG, method, "pRootSignature is NULL, but the arguments change root arguments (%s)",
                d3d12_indirect_argument_name(signature->first_state_change));
    if (!root_arguments && root)
        return d3d12xs_fail(E_INVALIDARG, method, "pRootSignature is set, but no argument changes root arguments (must be NULL)");
    if (desc->ByteStride < offset)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->ByteStride %u is less than the %u bytes of the arguments", desc->ByteStride, offset);
    return S_OK;
}

HRESULT d3d12_command_signature_create(struct d3d12_device *device, const D3D12_COMMAND_SIGNATURE_DESC *desc,
        ID3D12RootSignature *root_signature_iface, REFIID riid, void **out)
{
    static const char method[] = "ID3D12Device::CreateCommandSignature";
    struct d3d12_root_signature *root = NULL;
    struct d3d12_command_signature *signature;
    HRESULT hr;

    if (out)
        *out = NULL;
    if (!desc)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc is NULL (must describe the command signature)");
    if (!desc->NumArgumentDescs || !desc->pArgumentDescs)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc has NumArgumentDescs %u and pArgumentDescs %s (at least one argument, the draw "
                "or dispatch)", desc->NumArgumentDescs, desc->pArgumentDescs ? "set" : "NULL");
    if (desc->ByteStride % 4)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->ByteStride %u is not a multiple of 4", desc->ByteStride);
    if (desc->NodeMask > 1)
        return d3d12xs_fail(E_INVALIDARG, method, "pDesc->NodeMask is 0x%x (this device has one node: 0 or 1)", desc->NodeMask);
    if (root_signature_iface && !(root = unsafe_impl_from_ID3D12RootSignature(root_signature_iface)))
        return d3d12xs_fail(E_INVALIDARG, method, "pRootSignature is not a d3d12xs root signature");
    if (!(signature = calloc(1, sizeof(*signature))) || !(signature->arguments = malloc(desc->NumArgumentDescs * sizeof(*desc->pArgumentDescs)))) {
        free(signature);
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the command signature");
    }
    if (FAILED(hr = check_arguments(signature, desc, root, method))) {
        free(signature->arguments);
        free(signature);
        return hr;
    }
    if (!out) {
        free(signature->arguments);
        free(signature);
        return S_FALSE; /* D3D12's capability check: the arguments are valid, nothing is made */
    }
    if (!riid) {
        free(signature->arguments);
        free(signature);
        return d3d12xs_fail(E_INVALIDARG, method, "riid is NULL (must name the command signature interface)");
    }
    signature->ID3D12CommandSignature_iface.lpVtbl = &d3d12_command_signature_vtbl;
    d3d12xs_object_init(&signature->object, device);
    signature->byte_stride = desc->ByteStride;
    signature->argument_count = desc->NumArgumentDescs;
    memcpy(signature->arguments, desc->pArgumentDescs, desc->NumArgumentDescs * sizeof(*desc->pArgumentDescs));
    if ((signature->root_signature = root))
        d3d12_root_signature_add_private_ref(root);
    if (signature->first_state_change != signature->action)
        signature->generated = d3d12_generated_layout_create(device, signature, &signature->generated_why);
    hr = d3d12xs_hand_out(ID3D12CommandSignature_QueryInterface(&signature->ID3D12CommandSignature_iface, riid, out), method);
    ID3D12CommandSignature_Release(&signature->ID3D12CommandSignature_iface);
    return hr;
}
