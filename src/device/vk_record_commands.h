/* The Vulkan commands that recording issues most (every draw, dispatch, root-argument push and
 * pipeline or vertex-buffer change), called through the device's own entry points
 * (vkGetDeviceProcAddr) and not the loader's exported ones: an exported command is a PLT jump
 * into the loader's trampoline, which checks the handle's dispatch table and jumps again, about
 * ten instructions and two indirect jumps per command. With layers on, the device's entry point
 * is the first layer's, so the validation layer still sees every command. Other commands go
 * through the loader: they are not on the per-draw path. */
#ifndef D3D12XS_VK_RECORD_COMMANDS_H
#define D3D12XS_VK_RECORD_COMMANDS_H

#include <stdbool.h>

#include <vulkan/vulkan.h>

#define D3D12XS_VK_RECORD_COMMANDS(X) \
    X(vkCmdDraw) \
    X(vkCmdDrawIndexed) \
    X(vkCmdDispatch) \
    X(vkCmdPushConstants) \
    X(vkCmdBindPipeline) \
    X(vkCmdBindVertexBuffers2) \
    X(vkCmdBindIndexBuffer)

struct d3d12xs_vk_record_commands {
#define D3D12XS_VK_RECORD_COMMAND_FIELD(name) PFN_##name name;
    D3D12XS_VK_RECORD_COMMANDS(D3D12XS_VK_RECORD_COMMAND_FIELD)
#undef D3D12XS_VK_RECORD_COMMAND_FIELD
};

/* Fills commands with vk_device's entry points; false when one is missing (all are core 1.3). */
bool d3d12xs_vk_record_commands_load(VkDevice vk_device, struct d3d12xs_vk_record_commands *commands);

#endif
