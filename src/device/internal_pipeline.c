/* d3d12xs's own compute pipelines (internal_pipeline.h). */
#include <stdlib.h>
#include "device/internal_pipeline.h"

bool d3d12xs_internal_layout_create(struct d3d12_device *device, uint32_t binding_count, uint32_t push_size,
        struct d3d12xs_internal_layout *layout)
{
    VkDescriptorSetLayoutBinding bindings[4];
    VkDescriptorSetLayoutCreateInfo set_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR,
        .bindingCount = binding_count,
        .pBindings = bindings,
    };
    VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, push_size};
    VkPipelineLayoutCreateInfo layout_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1,
        .pSetLayouts = &layout->set_layout,
        .pushConstantRangeCount = 1,
        .pPushConstantRanges = &range,
    };

    if (binding_count > D3D12XS_ARRAY_SIZE(bindings))
        return false;
    for (uint32_t i = 0; i < binding_count; i++)
        bindings[i] = (VkDescriptorSetLayoutBinding){i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    return vkCreateDescriptorSetLayout(device->vk_device, &set_info, NULL, &layout->set_layout) == VK_SUCCESS
            && vkCreatePipelineLayout(device->vk_device, &layout_info, NULL, &layout->layout) == VK_SUCCESS;
}

void d3d12xs_internal_layout_destroy(struct d3d12_device *device, struct d3d12xs_internal_layout *layout)
{
    vkDestroyPipelineLayout(device->vk_device, layout->layout, NULL);
    vkDestroyDescriptorSetLayout(device->vk_device, layout->set_layout, NULL);
    layout->layout = VK_NULL_HANDLE;
    layout->set_layout = VK_NULL_HANDLE;
}

bool d3d12xs_internal_pipeline_create(struct d3d12_device *device, const struct d3d12xs_internal_layout *layout, const uint32_t *code,
        size_t code_size, VkPipeline *pipeline)
{
    VkShaderModuleCreateInfo module_info = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = code_size, .pCode = code};
    VkShaderModule module;
    bool ok;

    if (vkCreateShaderModule(device->vk_device, &module_info, NULL, &module) != VK_SUCCESS)
        return false;
    VkComputePipelineCreateInfo pipeline_info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = VK_SHADER_STAGE_COMPUTE_BIT,
            .module = module,
            .pName = "main",
        },
        .layout = layout->layout,
    };
    ok = vkCreateComputePipelines(device->vk_device, VK_NULL_HANDLE, 1, &pipeline_info, NULL, pipeline) == VK_SUCCESS;
    vkDestroyShaderModule(device->vk_device, module, NULL);
    return ok;
}

struct d3d12xs_internal_pass *d3d12xs_internal_pass_create(struct d3d12_device *device, uint32_t binding_count, uint32_t push_size,
        const uint32_t *code, size_t code_size)
{
    struct d3d12xs_internal_pass *pass;

    if (!(pass = calloc(1, sizeof(*pass))))
        return NULL;
    if (!d3d12xs_internal_layout_create(device, binding_count, push_size, &pass->layout)
            || !d3d12xs_internal_pipeline_create(device, &pass->layout, code, code_size, &pass->pipeline)) {
        d3d12xs_internal_layout_destroy(device, &pass->layout);
        free(pass);
        return NULL;
    }
    return pass;
}

void d3d12xs_internal_pass_destroy(struct d3d12_device *device, struct d3d12xs_internal_pass *pass)
{
    if (!pass)
        return;
    vkDestroyPipeline(device->vk_device, pass->pipeline, NULL);
    d3d12xs_internal_layout_destroy(device, &pass->layout);
    free(pass);
}

VkDescriptorBufferInfo d3d12xs_internal_value_range(const struct d3d12_device *device, VkBuffer buffer, uint64_t offset, uint32_t size,
        uint32_t *index)
{
    uint64_t alignment = device->vk_properties.limits.minStorageBufferOffsetAlignment;
    uint64_t base = alignment > 1 ? offset / alignment * alignment : offset;
    *index = (uint32_t)((offset - base) / size);
    return (VkDescriptorBufferInfo){buffer, base, offset - base + size};
}
