/* ID3D12RootSignature: the parsed description (converted to 1.2) plus the push-constant layout of its
 * root constants, and the pipeline layout all its pipelines share (root_signature_layout.c). */
#include <stdlib.h>
#include <string.h>

#include "descriptors/root_signature.h"
#include "descriptors/descriptors.h"
#include "descriptors/root_signature_blob.h"
#include "generated/d3d12_stubs.h"

#define METHOD(name) "ID3D12RootSignature::" #name

static struct d3d12_root_signature *impl_from_ID3D12RootSignature(ID3D12RootSignature *iface)
{
    return D3D12XS_CONTAINING(iface, struct d3d12_root_signature, ID3D12RootSignature_iface);
}

static HRESULT STDMETHODCALLTYPE d3d12_root_signature_QueryInterface(ID3D12RootSignature *iface, REFIID riid, void **object)
{
    static const IID *const iids[] = {&IID_ID3D12RootSignature, &IID_ID3D12DeviceChild, &IID_ID3D12Object, &IID_IUnknown, NULL};
    return d3d12xs_query_interface(iface, METHOD(QueryInterface), iids, riid, object);
}

D3D12XS_DEVICE_CHILD_METHODS(d3d12_root_signature, ID3D12RootSignature, impl_from_ID3D12RootSignature, "ID3D12RootSignature")

void d3d12_root_signature_add_private_ref(struct d3d12_root_signature *signature)
{
    d3d12xs_object_add_private_ref(&signature->object);
}

void d3d12_root_signature_release_private_ref(struct d3d12_root_signature *signature)
{
    if (!d3d12xs_object_release_private_ref(&signature->object))
        return;
    /* Static samplers come from the device's sampler cache, which owns them. */
    free(signature->static_samplers);
    free(signature->indirect_keys);
    pthread_mutex_destroy(&signature->indirect_keys_lock);
    d3d12_root_signature_destroy_layout(signature);
    d3d12xs_root_signature_desc_free(signature->desc);
    free(signature->blob);
    d3d12xs_object_cleanup(&signature->object);
    free(signature);
}

static ULONG STDMETHODCALLTYPE d3d12_root_signature_Release(ID3D12RootSignature *iface)
{
    struct d3d12_root_signature *signature = impl_from_ID3D12RootSignature(iface);
    unsigned refcount = d3d12xs_object_release(&signature->object);
    if (!refcount && !d3d12xs_exit_torn_down())
        d3d12_root_signature_release_private_ref(signature);
    return refcount;
}

#if defined(__clang__)
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Woverride-init"
#endif

static const ID3D12RootSignatureVtbl d3d12_root_signature_vtbl = {
    D3D12XS_STUB_VTBL_ID3D12RootSignature,
    .QueryInterface = d3d12_root_signature_QueryInterface,
    D3D12XS_DEVICE_CHILD_VTBL_ENTRIES(d3d12_root_signature),
    .Release = d3d12_root_signature_Release,
};

struct d3d12_root_signature *unsafe_impl_from_ID3D12RootSignature(ID3D12RootSignature *iface)
{
    if (!iface || iface->lpVtbl != &d3d12_root_signature_vtbl)
        return NULL;
    return impl_from_ID3D12RootSignature(iface);
}

/* Two parameters bind the same registers the same way; the flags of descriptors and ranges
 * (volatility hints, which versions 1.0 and 1.1 spell differently) do not change a binding. */
static bool same_parameter_layout(const D3D12_ROOT_PARAMETER1 *a, const D3D12_ROOT_PARAMETER1 *b)
{
    if (a->ParameterType != b->ParameterType || a->ShaderVisibility != b->ShaderVisibility)
        return false;
    switch (a->ParameterType) {
    case D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE:
        if (a->DescriptorTable.NumDescriptorRanges != b->DescriptorTable.NumDescriptorRanges)
            return false;
        for (UINT i = 0; i < a->DescriptorTable.NumDescriptorRanges; i++) {
            const D3D12_DESCRIPTOR_RANGE1 *ra = &a->DescriptorTable.pDescriptorRanges[i], *rb = &b->DescriptorTable.pDescriptorRanges[i];
            if (ra->RangeType != rb->RangeType || ra->NumDescriptors != rb->NumDescriptors || ra->BaseShaderRegister != rb->BaseShaderRegister
                    || ra->RegisterSpace != rb->RegisterSpace || ra->OffsetInDescriptorsFromTableStart != rb->OffsetInDescriptorsFromTableStart)
                return false;
        }
        return true;
    case D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS:
        return !memcmp(&a->Constants, &b->Constants, sizeof(a->Constants));
    default:
        return a->Descriptor.ShaderRegister == b->Descriptor.ShaderRegister && a->Descriptor.RegisterSpace == b->Descriptor.RegisterSpace;
    }
}

/* D3D12 runs a pipeline with another root signature object of the same layout; equal blobs are
 * the quick answer, equal layouts (flags of descriptors and ranges aside) the full one. */
bool d3d12_root_signatures_compatible(const struct d3d12_root_signature *a, const struct d3d12_root_signature *b)
{
    const D3D12_ROOT_SIGNATURE_DESC2 *da, *db;
    if (a == b || (a->blob_size == b->blob_size && !memcmp(a->blob, b->blob, a->blob_size)))
        return true;
    da = &a->desc->Desc_1_2, db = &b->desc->Desc_1_2;
    if (da->Flags != db->Flags || da->NumParameters != db->NumParameters || da->NumStaticSamplers != db->NumStaticSamplers
            || (da->NumStaticSamplers && memcmp(da->pStaticSamplers, db->pStaticSamplers, da->NumStaticSamplers * sizeof(*da->pStaticSamplers))))
        return false;
    for (UINT i = 0; i < da->NumParameters; i++)
        if (!same_parameter_layout(&da->pParameters[i], &db->pParameters[i]))
            return false;
    return true;
}

/* DENY_*_SHADER_ROOT_ACCESS leave their stages out. */
static VkShaderStageFlags stages_with_root_access(D3D12_ROOT_SIGNATURE_FLAGS flags)
{
    static const struct { D3D12_ROOT_SIGNATURE_FLAGS deny; VkShaderStageFlags stage; } denials[] = {
        {D3D12_ROOT_SIGNATURE_FLAG_DENY_VERTEX_SHADER_ROOT_ACCESS, VK_SHADER_STAGE_VERTEX_BIT},
        {D3D12_ROOT_SIGNATURE_FLAG_DENY_HULL_SHADER_ROOT_ACCESS, VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT},
        {D3D12_ROOT_SIGNATURE_FLAG_DENY_DOMAIN_SHADER_ROOT_ACCESS, VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT},
        {D3D12_ROOT_SIGNATURE_FLAG_DENY_GEOMETRY_SHADER_ROOT_ACCESS, VK_SHADER_STAGE_GEOMETRY_BIT},
        {D3D12_ROOT_SIGNATURE_FLAG_DENY_PIXEL_SHADER_ROOT_ACCESS, VK_SHADER_STAGE_FRAGMENT_BIT},
        {D3D12_ROOT_SIGNATURE_FLAG_DENY_AMPLIFICATION_SHADER_ROOT_ACCESS, VK_SHADER_STAGE_TASK_BIT_EXT},
        {D3D12_ROOT_SIGNATURE_FLAG_DENY_MESH_SHADER_ROOT_ACCESS, VK_SHADER_STAGE_MESH_BIT_EXT},
    };
    VkShaderStageFlags stages = VK_SHADER_STAGE_ALL_GRAPHICS | VK_SHADER_STAGE_TASK_BIT_EXT | VK_SHADER_STAGE_MESH_BIT_EXT
            | VK_SHADER_STAGE_COMPUTE_BIT;
    for (size_t i = 0; i < sizeof(denials) / sizeof(denials[0]); i++)
        if (flags & denials[i].deny)
            stages &= ~denials[i].stage;
    return stages;
}

/* ExecuteIndirect's root view arguments read their D3D12 address from the push block: one
 * 16-byte entry per root CBV/SRV/UAV after everything else (root_signature.h), where it fits.
 * The own path's pipelines read what the commands set from memory whose address is pushed per
 * command: 16 bytes more after the entries. Without generated commands every signature takes
 * that path, so every root signature reserves them (its pipelines' vertex shaders may fetch
 * their inputs per command, for a signature with no root signature); with them, draws whose
 * vertex shader alone reads the root arguments (one multi-draw), where the address fits beside
 * the entries. */
static void reserve_indirect_views(struct d3d12_root_signature *signature, const D3D12_ROOT_SIGNATURE_DESC2 *desc)
{
    const struct d3d12_device *device = signature->object.device;
    const uint32_t limit = device->vk_properties.limits.maxPushConstantsSize;
    uint32_t thread_limit_offset, offset = (d3d12_root_signature_push_constant_range(signature, &thread_limit_offset) + 15) & ~15u;
    bool own_path = device->indirect_image && (!device->generated_commands.enabled
            || (device->graphics.multi_draw_indirect && device->graphics.draw_parameters));
    uint32_t count = 0, image_bytes;

    signature->indirect_image_offset = UINT32_MAX;
    for (UINT i = 0; i < D3D12XS_MAX_ROOT_PARAMETERS; i++)
        signature->indirect_view_offsets[i] = UINT32_MAX;
    for (UINT i = 0; i < desc->NumParameters; i++) {
        D3D12_ROOT_PARAMETER_TYPE type = desc->pParameters[i].ParameterType;
        count += type == D3D12_ROOT_PARAMETER_TYPE_CBV || type == D3D12_ROOT_PARAMETER_TYPE_SRV || type == D3D12_ROOT_PARAMETER_TYPE_UAV;
    }
    image_bytes = own_path && (!device->generated_commands.enabled || count || signature->constants_mask) ? 16 : 0;
    /* generated commands need only the entries */
    if (device->generated_commands.enabled && offset + 16 * count + image_bytes > limit)
        image_bytes = 0;
    if (signature->memory_abi || (!device->generated_commands.enabled && !own_path) || !(count + image_bytes)
            || offset + 16 * count + image_bytes > limit)
        return;
    for (UINT i = 0; i < desc->NumParameters; i++) {
        D3D12_ROOT_PARAMETER_TYPE type = desc->pParameters[i].ParameterType;
        if (type == D3D12_ROOT_PARAMETER_TYPE_CBV || type == D3D12_ROOT_PARAMETER_TYPE_SRV || type == D3D12_ROOT_PARAMETER_TYPE_UAV) {
            signature->indirect_view_offsets[i] = offset;
            offset += 16;
        }
    }
    if (image_bytes) {
        signature->indirect_image_offset = offset;
        offset += image_bytes;
    }
    signature->indirect_views_end = offset;
}

static HRESULT build_layout(struct d3d12_root_signature *signature, const char *method)
{
    struct d3d12_device *device = signature->object.device;
    const D3D12_ROOT_SIGNATURE_DESC2 *desc = &signature->desc->Desc_1_2;
    uint32_t offset = 0;

    if (desc->NumParameters > D3D12XS_MAX_ROOT_PARAMETERS)
        return d3d12xs_fail(E_INVALIDARG, method, "the root signature has %u parameters (at most 64 fit the root cost limit)", desc->NumParameters);
    signature->parameter_count = desc->NumParameters;
    signature->memory_abi = !!(desc->Flags & D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI);
    signature->vk_stages = stages_with_root_access(desc->Flags);
    for (UINT i = 0; i < desc->NumParameters; i++) {
        signature->parameter_types[i] = (uint8_t)desc->pParameters[i].ParameterType;
        if (desc->pParameters[i].ParameterType != D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS)
            continue;
        signature->constant_counts[i] = desc->pParameters[i].Constants.Num32BitValues;
        signature->constants_mask |= 1ull << i;
        /* Several values may form vectors, which HLSL packing keeps inside 16-byte rows. */
        if (desc->pParameters[i].Constants.Num32BitValues > 1)
            offset = (offset + 15) & ~15u;
        signature->constant_offsets[i] = offset;
        offset += desc->pParameters[i].Constants.Num32BitValues * 4;
    }
    if (offset > D3D12XS_MAX_ROOT_CONSTANT_BYTES)
        return d3d12xs_fail(E_INVALIDARG, method, "root constants take %u bytes with their 16-byte packing (at most %u)",
                offset, D3D12XS_MAX_ROOT_CONSTANT_BYTES);
    /* Through memory, root constants are not bound by the push-constant size. */
    if (!signature->memory_abi && offset > device->vk_properties.limits.maxPushConstantsSize)
        return d3d12xs_fail(E_INVALIDARG, method, "root constants take %u bytes; this device's push constants hold %u",
                offset, device->vk_properties.limits.maxPushConstantsSize);
    signature->push_constant_size = offset;
    signature->tables_offset = signature->memory_abi ? 0 : offset;
    for (UINT i = 0; i < desc->NumParameters; i++)
        if (desc->pParameters[i].ParameterType == D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE) {
            const D3D12_ROOT_DESCRIPTOR_TABLE1 *table = &desc->pParameters[i].DescriptorTable;
            /* a table's ranges are all samplers or none (validated with the signature) */
            if (table->NumDescriptorRanges && table->pDescriptorRanges[0].RangeType == D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER)
                signature->sampler_table_mask |= 1ull << i;
            signature->table_push_offsets[i] = signature->tables_offset + 4 * signature->table_count++;
        }
    signature->push_bytes = signature->tables_offset + 4 * signature->table_count;
    /* <d3d12xs_heap.hlsli> reads the bound heap's size from the push constant after the table starts. */
    signature->heap_size_offset = UINT32_MAX;
    if (desc->Flags & D3D12_ROOT_SIGNATURE_FLAG_CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED) {
        signature->heap_size_offset = signature->push_bytes;
        signature->push_bytes += 4;
    }
    signature->reads_heaps = signature->table_count || signature->heap_size_offset != UINT32_MAX
            || (desc->Flags & D3D12_ROOT_SIGNATURE_FLAG_SAMPLER_HEAP_DIRECTLY_INDEXED);
    if (signature->push_bytes > device->vk_properties.limits.maxPushConstantsSize)
        return d3d12xs_fail(E_INVALIDARG, method, "root constants and the %u descriptor tables' starts take %u bytes; this device's push "
                "constants hold %u", signature->table_count, signature->push_bytes, device->vk_properties.limits.maxPushConstantsSize);
    signature->root_views_offset = signature->push_bytes;
    for (UINT i = 0; i < desc->NumParameters; i++) {
        D3D12_ROOT_PARAMETER_TYPE type = desc->pParameters[i].ParameterType;
        signature->root_view_offsets[i] = UINT32_MAX;
        if (type == D3D12_ROOT_PARAMETER_TYPE_SRV || type == D3D12_ROOT_PARAMETER_TYPE_UAV)
            signature->root_view_count++;
    }
    /* Where they fit: without them, root SRVs and UAVs need aligned addresses, nothing more. */
    if (signature->push_bytes + 4 * signature->root_view_count <= device->vk_properties.limits.maxPushConstantsSize) {
        for (UINT i = 0, view = 0; i < desc->NumParameters; i++)
            if (desc->pParameters[i].ParameterType == D3D12_ROOT_PARAMETER_TYPE_SRV || desc->pParameters[i].ParameterType == D3D12_ROOT_PARAMETER_TYPE_UAV)
                signature->root_view_offsets[i] = signature->root_views_offset + 4 * view++;
        signature->push_bytes += 4 * signature->root_view_count;
    } else {
        signature->root_view_count = 0;
    }
    reserve_indirect_views(signature, desc);

    if (desc->NumStaticSamplers && !(signature->static_samplers = calloc(desc->NumStaticSamplers, sizeof(VkSampler))))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate static samplers");
    for (UINT i = 0; i < desc->NumStaticSamplers; i++) {
        D3D12_SAMPLER_DESC2 sampler;
        d3d12xs_sampler_desc2_from_static(&desc->pStaticSamplers[i], &sampler);
        if (!(signature->static_samplers[i] = d3d12xs_device_get_sampler(device, &sampler, method)))
            return E_INVALIDARG;
    }
    return S_OK;
}

HRESULT d3d12_root_signature_create(struct d3d12_device *device, UINT node_mask, const void *blob, SIZE_T size, REFIID riid, void **out)
{
    static const char method[] = "ID3D12Device::CreateRootSignature";
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC *parsed = NULL;
    struct d3d12_root_signature *signature;
    char error[512];
    HRESULT hr;

    if (out)
        *out = NULL;
    if (node_mask > 1)
        return d3d12xs_fail(E_INVALIDARG, method, "nodeMask is 0x%x (must be 0 or 1)", node_mask);
    if (!blob || !size)
        return d3d12xs_fail(E_INVALIDARG, method, "pBlobWithRootSignature is %s (must be a serialized root signature)", blob ? "empty" : "NULL");
    if (!riid)
        return d3d12xs_fail(E_INVALIDARG, method, "riid is NULL (must name the root signature interface)");
    if (!out)
        return d3d12xs_fail(E_POINTER, method, "ppvRootSignature is NULL (must receive the root signature)");
    if (FAILED(hr = d3d12xs_root_signature_parse(blob, size, &parsed, error, sizeof(error))))
        return d3d12xs_fail(hr, method, "pBlobWithRootSignature: %s", error);
    if (FAILED(hr = d3d12xs_root_signature_validate(parsed, error, sizeof(error)))) {
        d3d12xs_root_signature_desc_free(parsed);
        return d3d12xs_fail(hr, method, "%s", error);
    }

    if (!(signature = calloc(1, sizeof(*signature)))) {
        d3d12xs_root_signature_desc_free(parsed);
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the root signature");
    }
    signature->ID3D12RootSignature_iface.lpVtbl = &d3d12_root_signature_vtbl;
    d3d12xs_object_init(&signature->object, device);
    pthread_mutex_init(&signature->indirect_keys_lock, NULL);
    hr = d3d12xs_root_signature_convert(parsed, D3D_ROOT_SIGNATURE_VERSION_1_2, &signature->desc, error, sizeof(error));
    d3d12xs_root_signature_desc_free(parsed);
    if (FAILED(hr)) {
        d3d12xs_fail(hr, method, "%s", error);
        goto fail;
    }
    if (!(signature->blob = malloc(size))) {
        hr = d3d12xs_fail(E_OUTOFMEMORY, method, "cannot copy the blob");
        goto fail;
    }
    memcpy(signature->blob, blob, size);
    signature->blob_size = size;
    if (FAILED(hr = build_layout(signature, method)) || FAILED(hr = d3d12_root_signature_make_layout(signature, method)))
        goto fail;
    hr = d3d12xs_hand_out(ID3D12RootSignature_QueryInterface(&signature->ID3D12RootSignature_iface, riid, out), method);
    ID3D12RootSignature_Release(&signature->ID3D12RootSignature_iface);
    return hr;

fail:
    ID3D12RootSignature_Release(&signature->ID3D12RootSignature_iface);
    return hr;
}
