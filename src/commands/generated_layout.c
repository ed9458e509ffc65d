/* A command signature that changes state as Vulkan's generated commands: one token per D3D12
 * argument, at the argument's offset in the command, the command's stride as the indirect stride.
 * CONSTANT is a push-constant token over the root constants' bytes in the root signature's push
 * block; INCREMENTING_CONSTANT a sequence-index token there; VERTEX_BUFFER_VIEW and
 * INDEX_BUFFER_VIEW vertex and index buffer tokens (D3D12's views are Vulkan's token data field
 * for field once the pass has put device addresses and index types in them); the draw or dispatch
 * its token. Root CBV, SRV and UAV arguments have no token: d3d12xs pushes root views as
 * descriptors, which generated commands cannot set. */
#include <stdlib.h>

#include "commands/generated_layout.h"
#include "descriptors/root_signature.h"

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
        default:
            *why = "it sets a root CBV, SRV or UAV, which d3d12xs pushes as descriptors and generated commands cannot set";
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
