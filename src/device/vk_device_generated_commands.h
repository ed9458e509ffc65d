/* VK_EXT_device_generated_commands (ExecuteIndirect's signatures that change state:
 * commands/command_list_generated.c), declared here where the Vulkan headers d3d12xs builds with
 * (Debian 12's 1.3.239) predate it. The values and layouts are the registry's (extension 573),
 * written from the specification; only what d3d12xs uses: no indirect execution sets, no shader
 * objects. With newer headers their own definitions are used. */
#ifndef D3D12XS_VK_DEVICE_GENERATED_COMMANDS_H
#define D3D12XS_VK_DEVICE_GENERATED_COMMANDS_H

#include <vulkan/vulkan.h>

/* Validation layers know the extension from the 1.3.296 headers on. Older ones pass its calls
 * straight to the driver, so d3d12xs turns their handle wrapping off (device/instance.c). */
#define D3D12XS_LAYER_KNOWS_DEVICE_GENERATED_COMMANDS VK_MAKE_API_VERSION(0, 1, 3, 296)
#define D3D12XS_VK_DEVICE_GENERATED_COMMANDS_EXTENSION_NAME "VK_EXT_device_generated_commands"

#ifndef VK_EXT_device_generated_commands
#define VK_EXT_device_generated_commands 1
VK_DEFINE_NON_DISPATCHABLE_HANDLE(VkIndirectExecutionSetEXT)
VK_DEFINE_NON_DISPATCHABLE_HANDLE(VkIndirectCommandsLayoutEXT)
#define VK_EXT_DEVICE_GENERATED_COMMANDS_EXTENSION_NAME "VK_EXT_device_generated_commands"
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEVICE_GENERATED_COMMANDS_FEATURES_EXT ((VkStructureType)1000572000)
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEVICE_GENERATED_COMMANDS_PROPERTIES_EXT ((VkStructureType)1000572001)
#define VK_STRUCTURE_TYPE_GENERATED_COMMANDS_MEMORY_REQUIREMENTS_INFO_EXT ((VkStructureType)1000572002)
#define VK_STRUCTURE_TYPE_GENERATED_COMMANDS_INFO_EXT ((VkStructureType)1000572004)
#define VK_STRUCTURE_TYPE_INDIRECT_COMMANDS_LAYOUT_CREATE_INFO_EXT ((VkStructureType)1000572006)
#define VK_STRUCTURE_TYPE_INDIRECT_COMMANDS_LAYOUT_TOKEN_EXT ((VkStructureType)1000572007)
#define VK_STRUCTURE_TYPE_GENERATED_COMMANDS_PIPELINE_INFO_EXT ((VkStructureType)1000572013)
#define VK_PIPELINE_STAGE_2_COMMAND_PREPROCESS_BIT_EXT ((VkPipelineStageFlags2)0x00020000ull)
#define VK_ACCESS_2_COMMAND_PREPROCESS_READ_BIT_EXT ((VkAccessFlags2)0x00020000ull)
#define VK_ACCESS_2_COMMAND_PREPROCESS_WRITE_BIT_EXT ((VkAccessFlags2)0x00040000ull)

typedef enum VkIndirectCommandsTokenTypeEXT {
    VK_INDIRECT_COMMANDS_TOKEN_TYPE_EXECUTION_SET_EXT = 0,
    VK_INDIRECT_COMMANDS_TOKEN_TYPE_PUSH_CONSTANT_EXT = 1,
    VK_INDIRECT_COMMANDS_TOKEN_TYPE_SEQUENCE_INDEX_EXT = 2,
    VK_INDIRECT_COMMANDS_TOKEN_TYPE_INDEX_BUFFER_EXT = 3,
    VK_INDIRECT_COMMANDS_TOKEN_TYPE_VERTEX_BUFFER_EXT = 4,
    VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_INDEXED_EXT = 5,
    VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_EXT = 6,
    VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_INDEXED_COUNT_EXT = 7,
    VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_COUNT_EXT = 8,
    VK_INDIRECT_COMMANDS_TOKEN_TYPE_DISPATCH_EXT = 9,
    VK_INDIRECT_COMMANDS_TOKEN_TYPE_MAX_ENUM_EXT = 0x7FFFFFFF
} VkIndirectCommandsTokenTypeEXT;

typedef enum VkIndirectCommandsInputModeFlagBitsEXT {
    VK_INDIRECT_COMMANDS_INPUT_MODE_VULKAN_INDEX_BUFFER_EXT = 0x00000001,
    VK_INDIRECT_COMMANDS_INPUT_MODE_DXGI_INDEX_BUFFER_EXT = 0x00000002,
    VK_INDIRECT_COMMANDS_INPUT_MODE_FLAG_BITS_MAX_ENUM_EXT = 0x7FFFFFFF
} VkIndirectCommandsInputModeFlagBitsEXT;
typedef VkFlags VkIndirectCommandsInputModeFlagsEXT;
typedef VkFlags VkIndirectCommandsLayoutUsageFlagsEXT;

typedef struct VkPhysicalDeviceDeviceGeneratedCommandsFeaturesEXT {
    VkStructureType sType;
    void *pNext;
    VkBool32 deviceGeneratedCommands;
    VkBool32 dynamicGeneratedPipelineLayout;
} VkPhysicalDeviceDeviceGeneratedCommandsFeaturesEXT;

typedef struct VkPhysicalDeviceDeviceGeneratedCommandsPropertiesEXT {
    VkStructureType sType;
    void *pNext;
    uint32_t maxIndirectPipelineCount;
    uint32_t maxIndirectShaderObjectCount;
    uint32_t maxIndirectSequenceCount;
    uint32_t maxIndirectCommandsTokenCount;
    uint32_t maxIndirectCommandsTokenOffset;
    uint32_t maxIndirectCommandsIndirectStride;
    VkIndirectCommandsInputModeFlagsEXT supportedIndirectCommandsInputModes;
    VkShaderStageFlags supportedIndirectCommandsShaderStages;
    VkShaderStageFlags supportedIndirectCommandsShaderStagesPipelineBinding;
    VkShaderStageFlags supportedIndirectCommandsShaderStagesShaderBinding;
    VkBool32 deviceGeneratedCommandsTransformFeedback;
    VkBool32 deviceGeneratedCommandsMultiDrawIndirectCount;
} VkPhysicalDeviceDeviceGeneratedCommandsPropertiesEXT;

typedef struct VkGeneratedCommandsMemoryRequirementsInfoEXT {
    VkStructureType sType;
    const void *pNext;
    VkIndirectExecutionSetEXT indirectExecutionSet;
    VkIndirectCommandsLayoutEXT indirectCommandsLayout;
    uint32_t maxSequenceCount;
    uint32_t maxDrawCount;
} VkGeneratedCommandsMemoryRequirementsInfoEXT;

typedef struct VkGeneratedCommandsInfoEXT {
    VkStructureType sType;
    const void *pNext;
    VkShaderStageFlags shaderStages;
    VkIndirectExecutionSetEXT indirectExecutionSet;
    VkIndirectCommandsLayoutEXT indirectCommandsLayout;
    VkDeviceAddress indirectAddress;
    VkDeviceSize indirectAddressSize;
    VkDeviceAddress preprocessAddress;
    VkDeviceSize preprocessSize;
    uint32_t maxSequenceCount;
    VkDeviceAddress sequenceCountAddress;
    uint32_t maxDrawCount;
} VkGeneratedCommandsInfoEXT;

typedef struct VkIndirectCommandsPushConstantTokenEXT {
    VkPushConstantRange updateRange;
} VkIndirectCommandsPushConstantTokenEXT;

typedef struct VkIndirectCommandsVertexBufferTokenEXT {
    uint32_t vertexBindingUnit;
} VkIndirectCommandsVertexBufferTokenEXT;

typedef struct VkIndirectCommandsIndexBufferTokenEXT {
    VkIndirectCommandsInputModeFlagBitsEXT mode;
} VkIndirectCommandsIndexBufferTokenEXT;

/* Only the members d3d12xs sets; the registry's union also holds the execution-set token's
 * pointer, which is a pointer too, so the size is the same. */
typedef union VkIndirectCommandsTokenDataEXT {
    const VkIndirectCommandsPushConstantTokenEXT *pPushConstant;
    const VkIndirectCommandsVertexBufferTokenEXT *pVertexBuffer;
    const VkIndirectCommandsIndexBufferTokenEXT *pIndexBuffer;
    const void *pExecutionSet;
} VkIndirectCommandsTokenDataEXT;

typedef struct VkIndirectCommandsLayoutTokenEXT {
    VkStructureType sType;
    const void *pNext;
    VkIndirectCommandsTokenTypeEXT type;
    VkIndirectCommandsTokenDataEXT data;
    uint32_t offset;
} VkIndirectCommandsLayoutTokenEXT;

typedef struct VkIndirectCommandsLayoutCreateInfoEXT {
    VkStructureType sType;
    const void *pNext;
    VkIndirectCommandsLayoutUsageFlagsEXT flags;
    VkShaderStageFlags shaderStages;
    uint32_t indirectStride;
    VkPipelineLayout pipelineLayout;
    uint32_t tokenCount;
    const VkIndirectCommandsLayoutTokenEXT *pTokens;
} VkIndirectCommandsLayoutCreateInfoEXT;

typedef struct VkBindVertexBufferIndirectCommandEXT {
    VkDeviceAddress bufferAddress;
    uint32_t size;
    uint32_t stride;
} VkBindVertexBufferIndirectCommandEXT;

typedef struct VkBindIndexBufferIndirectCommandEXT {
    VkDeviceAddress bufferAddress;
    uint32_t size;
    VkIndexType indexType;
} VkBindIndexBufferIndirectCommandEXT;

typedef struct VkGeneratedCommandsPipelineInfoEXT {
    VkStructureType sType;
    void *pNext;
    VkPipeline pipeline;
} VkGeneratedCommandsPipelineInfoEXT;

typedef void (VKAPI_PTR *PFN_vkGetGeneratedCommandsMemoryRequirementsEXT)(VkDevice device,
        const VkGeneratedCommandsMemoryRequirementsInfoEXT *pInfo, VkMemoryRequirements2 *pMemoryRequirements);
typedef void (VKAPI_PTR *PFN_vkCmdExecuteGeneratedCommandsEXT)(VkCommandBuffer commandBuffer, VkBool32 isPreprocessed,
        const VkGeneratedCommandsInfoEXT *pGeneratedCommandsInfo);
typedef VkResult (VKAPI_PTR *PFN_vkCreateIndirectCommandsLayoutEXT)(VkDevice device, const VkIndirectCommandsLayoutCreateInfoEXT *pCreateInfo,
        const VkAllocationCallbacks *pAllocator, VkIndirectCommandsLayoutEXT *pIndirectCommandsLayout);
typedef void (VKAPI_PTR *PFN_vkDestroyIndirectCommandsLayoutEXT)(VkDevice device, VkIndirectCommandsLayoutEXT indirectCommandsLayout,
        const VkAllocationCallbacks *pAllocator);
#endif

/* VK_KHR_maintenance5, which VK_EXT_device_generated_commands requires: enabled with it, for
 * the preprocess memory's buffer usage (VK_BUFFER_USAGE_2_PREPROCESS_BUFFER_BIT_EXT, a
 * VkBufferUsageFlags2 bit: commands/transient_memory.c). Registry values (extension 471). */
#define D3D12XS_VK_MAINTENANCE_5_EXTENSION_NAME "VK_KHR_maintenance5"
#ifndef VK_KHR_maintenance5
#define VK_KHR_maintenance5 1
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_5_FEATURES_KHR ((VkStructureType)1000470000)
#define VK_STRUCTURE_TYPE_BUFFER_USAGE_FLAGS_2_CREATE_INFO_KHR ((VkStructureType)1000470006)
typedef VkFlags64 VkBufferUsageFlags2KHR;

typedef struct VkPhysicalDeviceMaintenance5FeaturesKHR {
    VkStructureType sType;
    void *pNext;
    VkBool32 maintenance5;
} VkPhysicalDeviceMaintenance5FeaturesKHR;

typedef struct VkBufferUsageFlags2CreateInfoKHR {
    VkStructureType sType;
    const void *pNext;
    VkBufferUsageFlags2KHR usage;
} VkBufferUsageFlags2CreateInfoKHR;
#endif
#define D3D12XS_BUFFER_USAGE_2_PREPROCESS_BUFFER_BIT_EXT ((VkBufferUsageFlags2KHR)0x80000000ull)

#endif
