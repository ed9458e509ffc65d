/* The device's entry points of the commands recording issues most (vk_record_commands.h). */
#include "device/vk_record_commands.h"

bool d3d12xs_vk_record_commands_load(VkDevice vk_device, struct d3d12xs_vk_record_commands *commands)
{
    bool all = true;
#define D3D12XS_VK_RECORD_COMMAND_LOAD(name) all &= !!(commands->name = (PFN_##name)vkGetDeviceProcAddr(vk_device, #name));
    D3D12XS_VK_RECORD_COMMANDS(D3D12XS_VK_RECORD_COMMAND_LOAD)
#undef D3D12XS_VK_RECORD_COMMAND_LOAD
    return all;
}
