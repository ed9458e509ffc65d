/* The pipeline layouts of a root signature. A layout follows from the root signature and the
 * registers a shader uses (its push-descriptor bindings), so pipelines of one root signature
 * whose shaders bind the same way share one layout, made the first time and kept until the
 * root signature goes. Making a VkPipelineLayout is not cheap: on the H200 it took 11 us per
 * pipeline, a third of CreateComputePipelineState (docs/benchmarks.md). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "descriptors/root_signature.h"
#include "descriptors/descriptor_buffer.h"

_Static_assert(sizeof(struct d3d12xs_root_layout_binding) == 24, "layout keys have no padding: they are compared bytewise");

/* One layout and the shape it was made for; the key is compared byte for byte. The root
 * signature holds one reference, each pipeline made with it another. */
struct d3d12xs_root_layout {
    struct d3d12xs_root_layout *next;
    atomic_uint refcount;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    uint32_t push_constant_size;
    uint32_t binding_count;
    struct d3d12xs_root_layout_binding bindings[];
};

static bool same_shape(const struct d3d12xs_root_layout *layout, const struct d3d12xs_root_layout_binding *bindings,
        uint32_t binding_count, uint32_t push_constant_size)
{
    return layout->binding_count == binding_count && layout->push_constant_size == push_constant_size
            && !memcmp(layout->bindings, bindings, binding_count * sizeof(*bindings));
}

static HRESULT make_layout(struct d3d12_root_signature *signature, const struct d3d12xs_root_layout_binding *bindings,
        uint32_t binding_count, uint32_t push_constant_size, struct d3d12xs_root_layout **out, const char *method)
{
    struct d3d12_device *device = signature->object.device;
    /* The stages that the root signature lets see root arguments (DENY_* flags), of compute. */
    const VkShaderStageFlags stages = VK_SHADER_STAGE_COMPUTE_BIT & signature->vk_stages;
    const VkPushConstantRange push_range = {stages, 0, push_constant_size};
    VkDescriptorSetLayoutBinding *vk_bindings;
    struct d3d12xs_root_layout *layout;
    VkResult vr;

    if (!(layout = calloc(1, sizeof(*layout) + binding_count * sizeof(*bindings))))
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the pipeline layout");
    if (!(vk_bindings = calloc(binding_count + 1, sizeof(*vk_bindings)))) {
        free(layout);
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the set layout");
    }
    atomic_init(&layout->refcount, 1);
    memcpy(layout->bindings, bindings, binding_count * sizeof(*bindings));
    layout->binding_count = binding_count;
    layout->push_constant_size = push_constant_size;
    for (uint32_t i = 0; i < binding_count; i++)
        vk_bindings[i] = (VkDescriptorSetLayoutBinding){
            .binding = bindings[i].binding,
            .descriptorType = bindings[i].type,
            .descriptorCount = bindings[i].count,
            .stageFlags = stages,
            .pImmutableSamplers = bindings[i].immutable_sampler ? &layout->bindings[i].immutable_sampler : NULL,
        };
    /* With tables the layout starts with the heap sets, and every set of it is then of the
     * descriptor-buffer kind (VUID-VkPipelineLayoutCreateInfo-pSetLayouts-08008). */
    const bool heaps = signature->table_count != 0;
    VkDescriptorSetLayoutCreateInfo set_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR | (heaps ? VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT : 0),
        .bindingCount = binding_count,
        .pBindings = vk_bindings,
    };
    vr = vkCreateDescriptorSetLayout(device->vk_device, &set_info, NULL, &layout->set_layout);
    free(vk_bindings);
    if (vr != VK_SUCCESS) {
        free(layout);
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "vkCreateDescriptorSetLayout failed (VkResult %d)", vr);
    }
    VkDescriptorSetLayout set_layouts[D3D12XS_HEAP_SET_COUNT + 1];
    uint32_t set_count = 0;
    if (heaps)
        for (; set_count < D3D12XS_HEAP_SET_COUNT; set_count++)
            set_layouts[set_count] = device->descriptor_buffers->set_layouts[set_count];
    set_layouts[set_count++] = layout->set_layout;
    VkPipelineLayoutCreateInfo layout_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = set_count,
        .pSetLayouts = set_layouts,
        .pushConstantRangeCount = push_constant_size ? 1 : 0,
        .pPushConstantRanges = &push_range,
    };
    if ((vr = vkCreatePipelineLayout(device->vk_device, &layout_info, NULL, &layout->layout)) != VK_SUCCESS) {
        vkDestroyDescriptorSetLayout(device->vk_device, layout->set_layout, NULL);
        free(layout);
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "vkCreatePipelineLayout failed (VkResult %d)", vr);
    }
    *out = layout;
    return S_OK;
}

HRESULT d3d12_root_signature_get_layout(struct d3d12_root_signature *signature, const struct d3d12xs_root_layout_binding *bindings,
        uint32_t binding_count, uint32_t push_constant_size, struct d3d12xs_root_layout **out, VkPipelineLayout *vk_layout,
        const char *method)
{
    struct d3d12xs_root_layout *layout;
    HRESULT hr = S_OK;

    pthread_mutex_lock(&signature->object.lock);
    for (layout = signature->layouts; layout; layout = layout->next)
        if (same_shape(layout, bindings, binding_count, push_constant_size))
            break;
    if (!layout && SUCCEEDED(hr = make_layout(signature, bindings, binding_count, push_constant_size, &layout, method))) {
        layout->next = signature->layouts;
        signature->layouts = layout;
    }
    if (SUCCEEDED(hr))
        atomic_fetch_add(&layout->refcount, 1);
    pthread_mutex_unlock(&signature->object.lock);
    *out = SUCCEEDED(hr) ? layout : NULL;
    *vk_layout = SUCCEEDED(hr) ? layout->layout : VK_NULL_HANDLE;
    return hr;
}

void d3d12xs_root_layout_release(struct d3d12_device *device, struct d3d12xs_root_layout *layout)
{
    if (atomic_fetch_sub(&layout->refcount, 1) != 1)
        return;
    vkDestroyPipelineLayout(device->vk_device, layout->layout, NULL);
    vkDestroyDescriptorSetLayout(device->vk_device, layout->set_layout, NULL);
    free(layout);
}

uint32_t d3d12_root_signature_push_constant_range(const struct d3d12_root_signature *signature, uint32_t *thread_limit_offset)
{
    const uint32_t push_limit = signature->object.device->vk_properties.limits.maxPushConstantsSize;
    const uint32_t limit_offset = (signature->push_bytes + 15) & ~15u;

    *thread_limit_offset = UINT32_MAX;
    /* Root constants through memory: the thread limit then has no push-constant block to
     * follow, and partial groups of USE_THREAD_DIMENSIONS are refused for such pipelines. */
    if (signature->memory_abi)
        return signature->push_bytes;
    if (limit_offset + 16 > push_limit)
        return signature->push_bytes;
    *thread_limit_offset = limit_offset;
    return limit_offset + 16;
}

uint32_t d3d12_root_signature_push_set(const struct d3d12_root_signature *signature)
{
    return signature->table_count ? D3D12XS_HEAP_SET_PUSH : 0;
}

VkDescriptorType d3d12_root_descriptor_vk_type(const struct d3d12_root_signature *signature, uint32_t index)
{
    return signature->parameter_types[index] == D3D12_ROOT_PARAMETER_TYPE_CBV ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
            : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
}

/* Made with the root signature, not its first pipeline: a new layout's first creation is what
 * costs (about 350 us on the H200 against 11 us for one made before), and D3D12 programs create
 * root signatures ahead of pipelines. */
HRESULT d3d12_root_signature_make_root_layout(struct d3d12_root_signature *signature, const char *method)
{
    struct d3d12xs_root_layout *layout;
    VkPipelineLayout vk_layout;
    uint32_t thread_limit_offset, count = 0;
    HRESULT hr;

    if (signature->memory_abi)
        return S_OK;
    for (uint32_t i = 0; i < signature->parameter_count; i++) {
        D3D12_ROOT_PARAMETER_TYPE type = signature->parameter_types[i];
        if (type == D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE || type == D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS)
            continue;
        signature->root_layout_bindings[count++] = (struct d3d12xs_root_layout_binding){
            .binding = i,
            .type = d3d12_root_descriptor_vk_type(signature, i),
            .count = 1,
        };
    }
    signature->root_layout_binding_count = count;
    if (FAILED(hr = d3d12_root_signature_get_layout(signature, signature->root_layout_bindings, count,
            d3d12_root_signature_push_constant_range(signature, &thread_limit_offset), &layout, &vk_layout, method)))
        return hr;
    d3d12xs_root_layout_release(signature->object.device, layout); /* the root signature keeps its own reference */
    signature->has_root_layout = true;
    return S_OK;
}

void d3d12_root_signature_destroy_layouts(struct d3d12_root_signature *signature)
{
    while (signature->layouts) {
        struct d3d12xs_root_layout *layout = signature->layouts;
        signature->layouts = layout->next;
        d3d12xs_root_layout_release(signature->object.device, layout);
    }
}
