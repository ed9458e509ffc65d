/* ID3D12CommandSignature: the layout of one ExecuteIndirect command, checked at creation by
 * D3D12's rules (each refusal is Windows' E_INVALIDARG and one line naming the argument).
 * Mesh and ray dispatches are refused (E_NOTIMPL): d3d12xs has neither kind of pipeline. */
#include <stdlib.h>
#include <string.h>

#include "commands/command_signature.h"
#include "pipelines/pipeline_state.h"
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
    if (!refcount && !d3d12xs_exit_torn_down())
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

/* Whether the signature sets CONSTANT arguments (INCREMENTING_CONSTANT alone runs without images). */
static bool sets_constants(const struct d3d12_command_signature *signature)
{
    for (UINT i = 0; i + 1 < signature->argument_count; i++)
        if (signature->arguments[i].Type == D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT)
            return true;
    return false;
}

/* The pipeline variants ExecuteIndirect would need for the signature (pipelines/pipeline_indirect_variant.c),
 * as ExecuteIndirect chooses (command_list_indirect.c): root views as generated commands; root
 * arguments other than INCREMENTING_CONSTANT alone, and vertex or index buffer views, through
 * the own path, which with generated commands takes only draws of one multi-draw (flat_draws).
 * Their count, at most 3. */
static uint32_t variant_keys(const struct d3d12_device *device, const struct d3d12_command_signature *signature,
        struct d3d12_indirect_key keys[3])
{
    const bool draws = signature->action != D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH;
    uint32_t count = 0;

    if (signature->generated && signature->root_view_mask)
        keys[count++] = (struct d3d12_indirect_key){signature->root_view_mask, 0, false, draws, D3D12_VERTEX_PULLING_NONE, {0, {0}}};
    /* the commands read in place where their layout allows, else (and without generated
     * commands, for pipelines whose later stages read them too) images */
    if (signature->direct_layout.stride)
        keys[count++] = (struct d3d12_indirect_key){signature->root_view_mask, signature->root_constant_mask, true, draws,
                D3D12_VERTEX_PULLING_NONE, signature->direct_layout};
    if (!device->indirect_image)
        return count;
    if (!signature->generated && (sets_constants(signature) || signature->root_view_mask || signature->pulling))
        keys[count++] = (struct d3d12_indirect_key){signature->root_view_mask, signature->root_constant_mask, true, draws,
                signature->pulling, {0, {0}}};
    else if (signature->generated && signature->flat_draws && !signature->direct_layout.stride)
        keys[count++] = (struct d3d12_indirect_key){signature->root_view_mask, signature->root_constant_mask, true, draws,
                D3D12_VERTEX_PULLING_NONE, {0, {0}}};
    return count;
}

/* flat_draws' direct_layout, where the commands hold every root argument they set whole, once. */
static void find_direct_layout(struct d3d12_command_signature *signature)
{
    const struct d3d12_root_signature *root = signature->root_signature;
    struct d3d12_indirect_layout *layout = &signature->direct_layout;
    uint32_t offset = 0;

    memset(layout->offsets, 0xff, sizeof(layout->offsets));
    if (!signature->flat_draws || !root)
        return;
    for (UINT i = 0; i + 1 < signature->argument_count; i++) {
        const D3D12_INDIRECT_ARGUMENT_DESC *argument = &signature->arguments[i];
        UINT parameter = argument->Constant.RootParameterIndex; /* the first member of every root argument's desc */
        if (argument->Type == D3D12_INDIRECT_ARGUMENT_TYPE_INCREMENTING_CONSTANT
                || (argument->Type == D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT && (argument->Constant.DestOffsetIn32BitValues
                        || argument->Constant.Num32BitValuesToSet != root->constant_counts[parameter]))
                || layout->offsets[parameter] != D3D12_INDIRECT_LAYOUT_NONE || offset >= D3D12_INDIRECT_LAYOUT_NONE)
            return;
        layout->offsets[parameter] = (uint16_t)offset;
        offset += d3d12_indirect_argument_size(argument);
    }
    layout->stride = signature->byte_stride;
}

static bool same_key(const struct d3d12_indirect_key *a, const struct d3d12_indirect_key *b)
{
    return a->root_view_mask == b->root_view_mask && a->constant_mask == b->constant_mask && a->from_memory == b->from_memory
            && a->graphics == b->graphics && a->pulling == b->pulling && !memcmp(&a->layout, &b->layout, sizeof(a->layout));
}

/* The variants made ahead of need, so that recording does not compile them: the root signature
 * keeps the keys for pipelines made later, and the live ones of it make theirs now. */
static void make_variants_ahead(struct d3d12_device *device, const struct d3d12_command_signature *signature)
{
    struct d3d12_root_signature *root = signature->root_signature;
    struct d3d12_indirect_key keys[3];
    uint32_t key_count = variant_keys(device, signature, keys);

    for (uint32_t k = 0; k < key_count; k++) {
        const struct d3d12_indirect_key *key = &keys[k];
        struct d3d12_pipeline_state **pipelines;
        bool known = false;
        size_t count;

        if (!root) {
            /* vertex pulling alone: no root signature keeps the key, the device does for every pipeline */
            if (atomic_fetch_or(&device->indirect_pulling_kinds, 1u << key->pulling) & 1u << key->pulling)
                continue;
        } else {
            pthread_mutex_lock(&root->indirect_keys_lock);
            for (uint32_t i = 0; i < root->indirect_key_count && !known; i++)
                known = same_key(&root->indirect_keys[i], key);
            if (!known) {
                struct d3d12_indirect_key *bigger = realloc(root->indirect_keys, (root->indirect_key_count + 1) * sizeof(*bigger));
                if (bigger) {
                    root->indirect_keys = bigger;
                    root->indirect_keys[root->indirect_key_count++] = *key;
                }
            }
            pthread_mutex_unlock(&root->indirect_keys_lock);
            if (known)
                continue;
        }
        count = d3d12_pipeline_table_collect(device, root, key->graphics, &pipelines);
        for (size_t i = 0; i < count; i++) {
            d3d12_pipeline_state_make_indirect_variant(pipelines[i], key);
            d3d12_pipeline_state_release_share(pipelines[i]);
        }
        free(pipelines);
    }
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
    for (UINT i = 0; i < desc->NumArgumentDescs; i++) {
        const D3D12_INDIRECT_ARGUMENT_DESC *argument = &desc->pArgumentDescs[i];
        switch (argument->Type) {
        case D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT:
            signature->root_constant_mask |= 1ull << argument->Constant.RootParameterIndex;
            break;
        case D3D12_INDIRECT_ARGUMENT_TYPE_INCREMENTING_CONSTANT:
            signature->root_constant_mask |= 1ull << argument->IncrementingConstant.RootParameterIndex;
            break;
        case D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW:
            signature->root_view_mask |= 1ull << argument->ConstantBufferView.RootParameterIndex;
            break;
        case D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW:
            signature->root_view_mask |= 1ull << argument->ShaderResourceView.RootParameterIndex;
            break;
        case D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW:
            signature->root_view_mask |= 1ull << argument->UnorderedAccessView.RootParameterIndex;
            break;
        case D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW:
            signature->sets_vertex_input = true;
            if (!signature->pulling)
                signature->pulling = D3D12_VERTEX_PULLING_VERTICES;
            break;
        case D3D12_INDIRECT_ARGUMENT_TYPE_INDEX_BUFFER_VIEW:
            signature->sets_vertex_input = true;
            /* an index buffer matters to indexed draws alone */
            signature->pulling = signature->action == D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED ? D3D12_VERTEX_PULLING_INDEXED
                    : signature->pulling ? signature->pulling : D3D12_VERTEX_PULLING_VERTICES;
            break;
        default:
            break;
        }
    }
    if (signature->first_state_change != signature->action)
        signature->generated = d3d12_generated_layout_create(device, signature, &signature->generated_why);
    signature->flat_draws = signature->action != D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH && device->indirect_image
            && device->graphics.multi_draw_indirect && device->graphics.draw_parameters && !signature->sets_vertex_input && (sets_constants(signature) || signature->root_view_mask);
    find_direct_layout(signature);
    make_variants_ahead(device, signature);
    hr = d3d12xs_hand_out(ID3D12CommandSignature_QueryInterface(&signature->ID3D12CommandSignature_iface, riid, out), method);
    ID3D12CommandSignature_Release(&signature->ID3D12CommandSignature_iface);
    return hr;
}

/* ---- the signature as Vulkan generated commands ----
 * A command signature that changes state as Vulkan's generated commands: one token per D3D12
 * argument, at the argument's offset in the command, the command's stride as the indirect stride.
 * CONSTANT is a push-constant token over the root constants' bytes in the root signature's push
 * block; INCREMENTING_CONSTANT a sequence-index token there; VERTEX_BUFFER_VIEW and
 * INDEX_BUFFER_VIEW vertex and index buffer tokens (D3D12's views are Vulkan's token data field
 * for field once the pass has put device addresses and index types in them); the draw or dispatch
 * its token. A root CBV, SRV or UAV argument is a push-constant token over the
 * D3D12 address half of its parameter's entry in the push block (root_signature.h): generated
 * commands set no descriptors, so the pipeline's ExecuteIndirect variant reads the address there
 * and translates it itself. */

static VkIndirectCommandsTokenTypeEXT action_token(D3D12_INDIRECT_ARGUMENT_TYPE action)
{
    return action == D3D12_INDIRECT_ARGUMENT_TYPE_DRAW ? VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_EXT
            : action == D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED ? VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_INDEXED_EXT
            : VK_INDIRECT_COMMANDS_TOKEN_TYPE_DISPATCH_EXT;
}

struct d3d12_generated_layout *d3d12_generated_layout_create(struct d3d12_device *device, struct d3d12_command_signature *signature,
        const char **why)
{
    const struct d3d12xs_generated_commands_caps *caps = &device->generated_commands;
    PFN_vkCreateIndirectCommandsLayoutEXT create = (PFN_vkCreateIndirectCommandsLayoutEXT)caps->vkCreateIndirectCommandsLayoutEXT;
    bool dispatch = signature->action == D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH;
    enum d3d12xs_layout_kind kind = dispatch ? D3D12XS_LAYOUT_COMPUTE : D3D12XS_LAYOUT_GRAPHICS;
    struct d3d12_root_signature *root = signature->root_signature;
    VkIndirectCommandsLayoutTokenEXT tokens[D3D12XS_MAX_ROOT_PARAMETERS + D3D12_GENERATED_MAX_ENTRIES + 1];
    VkIndirectCommandsPushConstantTokenEXT push[D3D12XS_MAX_ROOT_PARAMETERS + 1];
    VkIndirectCommandsVertexBufferTokenEXT vertex[D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT];
    static const VkIndirectCommandsIndexBufferTokenEXT index = {VK_INDIRECT_COMMANDS_INPUT_MODE_VULKAN_INDEX_BUFFER_EXT};
    uint32_t token_count = 0, push_count = 0, vertex_count = 0, offset = 0;
    VkPipelineLayout vk_pipeline_layout = VK_NULL_HANDLE;
    struct d3d12_generated_layout *layout;
    VkResult vr;

    *why = NULL;
    if (!caps->enabled) {
        *why = "the device has no VK_EXT_device_generated_commands";
        return NULL;
    }
    if (root && root->memory_abi) {
        *why = "its root signature takes root arguments through memory (FORCE_MEMORY_BASED_ABI), which generated commands cannot write";
        return NULL;
    }
    if (signature->byte_stride > caps->max_stride || signature->argument_count > caps->max_token_count) {
        *why = "its stride or argument count passes the device's generated-commands limits";
        return NULL;
    }
    if (!(layout = calloc(1, sizeof(*layout)))) {
        *why = "out of memory";
        return NULL;
    }
    layout->stages = (dispatch ? VK_SHADER_STAGE_COMPUTE_BIT
            : root ? d3d12_root_signature_kind_stages(root, kind) : device->graphics.stages & ~VK_SHADER_STAGE_COMPUTE_BIT) & caps->stages;
    if (root && FAILED(d3d12_root_signature_get_layout(root, kind, "ID3D12Device::CreateCommandSignature", &layout->root_layout,
            &vk_pipeline_layout))) {
        *why = "its root signature's pipeline layout could not be made";
        free(layout);
        return NULL;
    }
    for (UINT a = 0; a < signature->argument_count; a++) {
        const D3D12_INDIRECT_ARGUMENT_DESC *argument = &signature->arguments[a];
        VkIndirectCommandsLayoutTokenEXT *token = &tokens[token_count];

        *token = (VkIndirectCommandsLayoutTokenEXT){.sType = VK_STRUCTURE_TYPE_INDIRECT_COMMANDS_LAYOUT_TOKEN_EXT, .offset = offset};
        switch (argument->Type) {
        case D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT:
        case D3D12_INDIRECT_ARGUMENT_TYPE_INCREMENTING_CONSTANT: {
            /* both start with RootParameterIndex and DestOffsetIn32BitValues */
            UINT parameter = argument->Constant.RootParameterIndex, first = argument->Constant.DestOffsetIn32BitValues;
            bool incrementing = argument->Type == D3D12_INDIRECT_ARGUMENT_TYPE_INCREMENTING_CONSTANT;
            push[push_count] = (VkIndirectCommandsPushConstantTokenEXT){{root->vk_push_stages[kind], root->constant_offsets[parameter] + 4 * first,
                    incrementing ? 4 : 4 * argument->Constant.Num32BitValuesToSet}};
            token->type = incrementing ? VK_INDIRECT_COMMANDS_TOKEN_TYPE_SEQUENCE_INDEX_EXT : VK_INDIRECT_COMMANDS_TOKEN_TYPE_PUSH_CONSTANT_EXT;
            token->data.pPushConstant = &push[push_count++];
            break;
        }
        case D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW:
            vertex[vertex_count].vertexBindingUnit = argument->VertexBuffer.Slot;
            token->type = VK_INDIRECT_COMMANDS_TOKEN_TYPE_VERTEX_BUFFER_EXT;
            token->data.pVertexBuffer = &vertex[vertex_count++];
            layout->entries[layout->entry_count++] = D3D12_GENERATED_ENTRY(offset / 4, D3D12_GENERATED_ENTRY_VERTEX_BUFFER);
            break;
        case D3D12_INDIRECT_ARGUMENT_TYPE_INDEX_BUFFER_VIEW:
            token->type = VK_INDIRECT_COMMANDS_TOKEN_TYPE_INDEX_BUFFER_EXT;
            token->data.pIndexBuffer = &index;
            layout->entries[layout->entry_count++] = D3D12_GENERATED_ENTRY(offset / 4, D3D12_GENERATED_ENTRY_INDEX_BUFFER);
            layout->sets_index_buffer = true;
            break;
        case D3D12_INDIRECT_ARGUMENT_TYPE_DRAW:
        case D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED:
        case D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH:
            token->type = action_token(argument->Type);
            break;
        case D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW:
        case D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW:
        case D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW: {
            UINT parameter = argument->ConstantBufferView.RootParameterIndex; /* the same field for all three */
            if (!device->has_shader_int64) {
                *why = "it sets a root CBV, SRV or UAV, whose address the shader would translate in 64-bit integers, and the device "
                        "lacks shaderInt64";
                d3d12_generated_layout_destroy(device, layout);
                return NULL;
            }
            if (root->indirect_view_offsets[parameter] == UINT32_MAX) {
                *why = "it sets a root CBV, SRV or UAV, whose address would go in the push constants, and its root signature leaves "
                        "no room in this device's push constants for the views' 16-byte entries";
                d3d12_generated_layout_destroy(device, layout);
                return NULL;
            }
            push[push_count] = (VkIndirectCommandsPushConstantTokenEXT){{root->vk_push_stages[kind], root->indirect_view_offsets[parameter],
                    sizeof(D3D12_GPU_VIRTUAL_ADDRESS)}};
            token->type = VK_INDIRECT_COMMANDS_TOKEN_TYPE_PUSH_CONSTANT_EXT;
            token->data.pPushConstant = &push[push_count++];
            break;
        }
        default:
            *why = "it has an argument d3d12xs cannot give generated commands";
            d3d12_generated_layout_destroy(device, layout);
            return NULL;
        }
        token_count++;
        offset += d3d12_indirect_argument_size(argument);
    }
    VkIndirectCommandsLayoutCreateInfoEXT info = {
        .sType = VK_STRUCTURE_TYPE_INDIRECT_COMMANDS_LAYOUT_CREATE_INFO_EXT,
        .shaderStages = layout->stages,
        .indirectStride = signature->byte_stride,
        .pipelineLayout = push_count ? vk_pipeline_layout : VK_NULL_HANDLE,
        .tokenCount = token_count,
        .pTokens = tokens,
    };
    if ((vr = create(device->vk_device, &info, NULL, &layout->vk_layout)) != VK_SUCCESS) {
        *why = "vkCreateIndirectCommandsLayoutEXT failed";
        layout->vk_layout = VK_NULL_HANDLE;
        d3d12_generated_layout_destroy(device, layout);
        return NULL;
    }
    return layout;
}

void d3d12_generated_layout_destroy(struct d3d12_device *device, struct d3d12_generated_layout *layout)
{
    PFN_vkDestroyIndirectCommandsLayoutEXT destroy;

    if (!layout)
        return;
    destroy = (PFN_vkDestroyIndirectCommandsLayoutEXT)device->generated_commands.vkDestroyIndirectCommandsLayoutEXT;
    if (layout->vk_layout)
        destroy(device->vk_device, layout->vk_layout, NULL);
    if (layout->root_layout)
        d3d12xs_root_layout_release(device, layout->root_layout);
    free(layout);
}
