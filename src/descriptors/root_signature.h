/* Root signature objects (root_signature.c). */
#ifndef D3D12XS_ROOT_SIGNATURE_H
#define D3D12XS_ROOT_SIGNATURE_H

#include "device/device.h"

#define D3D12XS_MAX_ROOT_PARAMETERS 64 /* D3D12's root cost limit allows at most 64 */
#define D3D12XS_MAX_ROOT_CONSTANT_BYTES 256 /* 64 DWORDs, the root cost limit, with their packing */

struct d3d12_root_signature {
    ID3D12RootSignature ID3D12RootSignature_iface;
    struct d3d12xs_object object;
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc; /* converted to 1.1 */
    void *blob;                                /* the serialized form: equal blobs mean compatible signatures */
    size_t blob_size;
    uint32_t push_constant_size;               /* root constants, packed in parameter order */
    uint32_t constant_offsets[D3D12XS_MAX_ROOT_PARAMETERS]; /* byte offset of each constants parameter */
    /* Copies of what recording checks per call, so they need no walk through desc. */
    uint32_t parameter_count;
    uint8_t parameter_types[D3D12XS_MAX_ROOT_PARAMETERS];
    uint32_t constant_counts[D3D12XS_MAX_ROOT_PARAMETERS];
    uint64_t constants_mask; /* bit per 32-bit-constants parameter */
    /* D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI (or RAYTRACING): root constants reach
     * shaders through a per-dispatch argument buffer instead of push constants. */
    bool memory_abi;
    /* The Vulkan stages that may see root arguments: every stage but those the DENY_* flags
     * name. Pipeline layouts take their stage masks from it (compute is never denied). */
    VkShaderStageFlags vk_stages;
    VkSampler *static_samplers;
};

struct d3d12_root_signature *unsafe_impl_from_ID3D12RootSignature(ID3D12RootSignature *iface);
HRESULT d3d12_root_signature_create(struct d3d12_device *device, UINT node_mask, const void *blob, SIZE_T size, REFIID riid, void **out);
bool d3d12_root_signatures_compatible(const struct d3d12_root_signature *a, const struct d3d12_root_signature *b);

#endif
