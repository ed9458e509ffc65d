/* The input layout (D3D12_INPUT_LAYOUT_DESC) as Vulkan's vertex input state: one binding per
 * input slot the vertex shader reads, one attribute per element it reads, at the Location the
 * linking gave the element's semantic (graphics_link.c). Strides are dynamic state
 * (IASetVertexBuffers), so a pipeline serves any stride. Per-instance step rates other than 1
 * need VK_EXT_vertex_attribute_divisor. */
#include <string.h>
#include <strings.h>

#include "pipelines/graphics_state.h"
#include "device/dxgi_format.h"

/* D3D12's largest vertex: elements end within 2048 bytes of it. */
#define MAX_VERTEX_BYTES 2048u

char d3d12_vertex_format_kind(DXGI_FORMAT format)
{
    switch (format) {
    case DXGI_FORMAT_R32G32B32A32_UINT: case DXGI_FORMAT_R32G32B32_UINT: case DXGI_FORMAT_R16G16B16A16_UINT: case DXGI_FORMAT_R32G32_UINT:
    case DXGI_FORMAT_R10G10B10A2_UINT: case DXGI_FORMAT_R8G8B8A8_UINT: case DXGI_FORMAT_R16G16_UINT: case DXGI_FORMAT_R32_UINT:
    case DXGI_FORMAT_R8G8_UINT: case DXGI_FORMAT_R16_UINT: case DXGI_FORMAT_R8_UINT:
        return 'u';
    case DXGI_FORMAT_R32G32B32A32_SINT: case DXGI_FORMAT_R32G32B32_SINT: case DXGI_FORMAT_R16G16B16A16_SINT: case DXGI_FORMAT_R32G32_SINT:
    case DXGI_FORMAT_R8G8B8A8_SINT: case DXGI_FORMAT_R16G16_SINT: case DXGI_FORMAT_R32_SINT: case DXGI_FORMAT_R8G8_SINT:
    case DXGI_FORMAT_R16_SINT: case DXGI_FORMAT_R8_SINT:
        return 's';
    default:
        return 'f';
    }
}

bool d3d12_vertex_format_is_snorm(DXGI_FORMAT format)
{
    switch (format) {
    case DXGI_FORMAT_R16G16B16A16_SNORM: case DXGI_FORMAT_R8G8B8A8_SNORM: case DXGI_FORMAT_R16G16_SNORM: case DXGI_FORMAT_R8G8_SNORM:
    case DXGI_FORMAT_R16_SNORM: case DXGI_FORMAT_R8_SNORM:
        return true;
    default:
        return false;
    }
}

/* The formats D3D12 allows in input layouts (the IA vertex buffer column of its format
 * support table): the typed 8- to 32-bit-per-channel colour formats and the packed ones. */
static bool is_vertex_format(DXGI_FORMAT format)
{
    const struct d3d12xs_format *entry = d3d12xs_format(format);
    if (!entry || entry->vk == VK_FORMAT_UNDEFINED || entry->typeless_format || entry->block_compressed || entry->planar || entry->video
            || entry->srgb || entry->aspects != VK_IMAGE_ASPECT_COLOR_BIT || entry->alpha_in_red)
        return false;
    switch (format) {
    case DXGI_FORMAT_R9G9B9E5_SHAREDEXP: case DXGI_FORMAT_R8G8_B8G8_UNORM: case DXGI_FORMAT_G8R8_G8B8_UNORM:
    case DXGI_FORMAT_R1_UNORM: case DXGI_FORMAT_B5G6R5_UNORM: case DXGI_FORMAT_B5G5R5A1_UNORM: case DXGI_FORMAT_B4G4R4A4_UNORM:
    case DXGI_FORMAT_A4B4G4R4_UNORM: case DXGI_FORMAT_R10G10B10_XR_BIAS_A2_UNORM: case DXGI_FORMAT_B8G8R8X8_UNORM:
        return false;
    default:
        return true;
    }
}

HRESULT d3d12_input_layout_check(struct d3d12_device *device, const struct d3d12_graphics_desc *desc, uint32_t *offsets, const char *method)
{
    const D3D12_INPUT_LAYOUT_DESC *layout = &desc->input_layout;
    const VkPhysicalDeviceLimits *limits = &device->vk_properties.limits;
    uint32_t slot_ends[D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT] = {0};
    uint32_t instance_rates[D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT];
    D3D12_INPUT_CLASSIFICATION slot_classes[D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT];
    uint32_t slots_seen = 0;
    const char *p = desc->prefix;

    if (layout->NumElements > D3D12_IA_VERTEX_INPUT_STRUCTURE_ELEMENT_COUNT)
        return d3d12xs_fail(E_INVALIDARG, method, "%sInputLayout.NumElements is %u (at most %u)", p, layout->NumElements,
                D3D12_IA_VERTEX_INPUT_STRUCTURE_ELEMENT_COUNT);
    if (layout->NumElements && !layout->pInputElementDescs)
        return d3d12xs_fail(E_INVALIDARG, method, "%sInputLayout.pInputElementDescs is NULL with NumElements %u", p, layout->NumElements);
    for (UINT i = 0; i < layout->NumElements; i++) {
        const D3D12_INPUT_ELEMENT_DESC *e = &layout->pInputElementDescs[i];
        const struct d3d12xs_format *format = d3d12xs_format(e->Format);
        VkFormatProperties properties;
        uint32_t size, offset;

        if (!e->SemanticName || !*e->SemanticName)
            return d3d12xs_fail(E_INVALIDARG, method, "%sInputLayout.pInputElementDescs[%u].SemanticName is %s", p, i,
                    e->SemanticName ? "empty" : "NULL");
        if (!strncasecmp(e->SemanticName, "SV_", 3))
            return d3d12xs_fail(E_INVALIDARG, method, "%sInputLayout.pInputElementDescs[%u].SemanticName is '%.32s': system values "
                    "come from the input assembler, not from an input layout", p, i, e->SemanticName);
        for (UINT j = 0; j < i; j++)
            if (!strcasecmp(layout->pInputElementDescs[j].SemanticName, e->SemanticName)
                    && layout->pInputElementDescs[j].SemanticIndex == e->SemanticIndex)
                return d3d12xs_fail(E_INVALIDARG, method, "%sInputLayout.pInputElementDescs[%u] and [%u] are both %s%u (each semantic "
                        "once)", p, j, i, e->SemanticName, e->SemanticIndex);
        if (!is_vertex_format(e->Format))
            return d3d12xs_fail(E_INVALIDARG, method, "%sInputLayout.pInputElementDescs[%u].Format %d is not a vertex buffer format",
                    p, i, (int)e->Format);
        vkGetPhysicalDeviceFormatProperties(device->vk_physical_device, format->vk, &properties);
        if (!(properties.bufferFeatures & VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT))
            return d3d12xs_fail(E_NOTIMPL, method, "%sInputLayout.pInputElementDescs[%u].Format %d: %s cannot fetch it as a vertex "
                    "attribute", p, i, (int)e->Format, device->vk_properties.deviceName);
        if (e->InputSlot >= D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT)
            return d3d12xs_fail(E_INVALIDARG, method, "%sInputLayout.pInputElementDescs[%u].InputSlot is %u (at most %u)", p, i,
                    e->InputSlot, D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT - 1);
        if (e->InputSlot >= limits->maxVertexInputBindings)
            return d3d12xs_fail(E_NOTIMPL, method, "%sInputLayout.pInputElementDescs[%u].InputSlot is %u: %s has %u vertex buffer "
                    "bindings", p, i, e->InputSlot, device->vk_properties.deviceName, limits->maxVertexInputBindings);
        if (e->InputSlotClass != D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA && e->InputSlotClass != D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA)
            return d3d12xs_fail(E_INVALIDARG, method, "%sInputLayout.pInputElementDescs[%u].InputSlotClass is %d", p, i, (int)e->InputSlotClass);
        if (e->InputSlotClass == D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA && e->InstanceDataStepRate)
            return d3d12xs_fail(E_INVALIDARG, method, "%sInputLayout.pInputElementDescs[%u].InstanceDataStepRate is %u for per-vertex "
                    "data (must be 0)", p, i, e->InstanceDataStepRate);
        /* one slot, one class and one step rate: Vulkan's binding */
        if (slots_seen & (1u << e->InputSlot)) {
            if (slot_classes[e->InputSlot] != e->InputSlotClass
                    || (e->InputSlotClass == D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA && instance_rates[e->InputSlot] != e->InstanceDataStepRate))
                return d3d12xs_fail(E_INVALIDARG, method, "%sInputLayout.pInputElementDescs[%u] gives slot %u another InputSlotClass or "
                        "InstanceDataStepRate than an element before it (one per slot)", p, i, e->InputSlot);
        }
        slots_seen |= 1u << e->InputSlot;
        slot_classes[e->InputSlot] = e->InputSlotClass;
        instance_rates[e->InputSlot] = e->InstanceDataStepRate;
        if (e->InputSlotClass == D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA && e->InstanceDataStepRate != 1) {
            if (!device->graphics.vertex_divisor)
                return d3d12xs_fail(E_NOTIMPL, method, "%sInputLayout.pInputElementDescs[%u].InstanceDataStepRate is %u: step rates "
                        "other than 1 need VK_EXT_vertex_attribute_divisor, which %s lacks", p, i, e->InstanceDataStepRate,
                        device->vk_properties.deviceName);
            if (!e->InstanceDataStepRate && !device->graphics.vertex_divisor_zero)
                return d3d12xs_fail(E_NOTIMPL, method, "%sInputLayout.pInputElementDescs[%u].InstanceDataStepRate is 0: %s cannot "
                        "repeat one element for every instance (vertexAttributeInstanceRateZeroDivisor)", p, i,
                        device->vk_properties.deviceName);
            if (e->InstanceDataStepRate > device->graphics.max_vertex_divisor)
                return d3d12xs_fail(E_NOTIMPL, method, "%sInputLayout.pInputElementDescs[%u].InstanceDataStepRate is %u (%s takes at "
                        "most %u)", p, i, e->InstanceDataStepRate, device->vk_properties.deviceName, device->graphics.max_vertex_divisor);
        }
        /* D3D12_APPEND_ALIGNED_ELEMENT: right after the slot's previous element, at the element's alignment (at most 4) */
        size = format->block_bytes;
        offset = e->AlignedByteOffset;
        if (offset == D3D12_APPEND_ALIGNED_ELEMENT) {
            uint32_t alignment = size < 4 ? size : 4;
            offset = (slot_ends[e->InputSlot] + alignment - 1) / alignment * alignment;
        }
        if ((uint64_t)offset + size > MAX_VERTEX_BYTES)
            return d3d12xs_fail(E_INVALIDARG, method, "%sInputLayout.pInputElementDescs[%u] ends at byte %llu of its vertex (at most %u)",
                    p, i, (unsigned long long)offset + size, MAX_VERTEX_BYTES);
        if (offset > limits->maxVertexInputAttributeOffset)
            return d3d12xs_fail(E_NOTIMPL, method, "%sInputLayout.pInputElementDescs[%u] starts at byte %u of its vertex: %s takes "
                    "offsets up to %u", p, i, offset, device->vk_properties.deviceName, limits->maxVertexInputAttributeOffset);
        if (offset % (size < 4 ? size : 4))
            return d3d12xs_fail(E_INVALIDARG, method, "%sInputLayout.pInputElementDescs[%u].AlignedByteOffset %u is not a multiple of "
                    "%u (the format's alignment)", p, i, offset, size < 4 ? size : 4);
        offsets[i] = offset;
        if (offset + size > slot_ends[e->InputSlot])
            slot_ends[e->InputSlot] = offset + size;
    }
    return S_OK;
}

void d3d12_vertex_input_init(const struct d3d12_graphics_desc *desc, const uint32_t *offsets, const uint32_t *locations,
        struct d3d12_vertex_input *input)
{
    const D3D12_INPUT_LAYOUT_DESC *layout = &desc->input_layout;
    uint32_t binding_count = 0, attribute_count = 0, divisor_count = 0;

    memset(input, 0, sizeof(*input));
    for (UINT i = 0; i < layout->NumElements; i++) {
        const D3D12_INPUT_ELEMENT_DESC *e = &layout->pInputElementDescs[i];
        bool per_instance = e->InputSlotClass == D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA;
        if (locations[i] == UINT32_MAX)
            continue;
        input->formats[attribute_count] = e->Format;
        input->attributes[attribute_count++] = (VkVertexInputAttributeDescription){locations[i], e->InputSlot, d3d12xs_format(e->Format)->vk,
                offsets[i]};
        if (input->slots & (1u << e->InputSlot))
            continue;
        input->slots |= 1u << e->InputSlot;
        /* the stride is dynamic (vkCmdBindVertexBuffers2) */
        input->bindings[binding_count++] = (VkVertexInputBindingDescription){e->InputSlot, 0,
                per_instance ? VK_VERTEX_INPUT_RATE_INSTANCE : VK_VERTEX_INPUT_RATE_VERTEX};
        if (per_instance) {
            input->per_instance_slots |= 1u << e->InputSlot;
            if (e->InstanceDataStepRate != 1)
                input->divisors[divisor_count++] = (VkVertexInputBindingDivisorDescriptionEXT){e->InputSlot, e->InstanceDataStepRate};
        }
    }
    input->divisor_info = (VkPipelineVertexInputDivisorStateCreateInfoEXT){
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT,
        .vertexBindingDivisorCount = divisor_count,
        .pVertexBindingDivisors = input->divisors,
    };
    input->info = (VkPipelineVertexInputStateCreateInfo){
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
        .pNext = divisor_count ? &input->divisor_info : NULL,
        .vertexBindingDescriptionCount = binding_count,
        .pVertexBindingDescriptions = input->bindings,
        .vertexAttributeDescriptionCount = attribute_count,
        .pVertexAttributeDescriptions = input->attributes,
    };
}
