/* A command signature that changes state as a VkIndirectCommandsLayoutEXT
 * (VK_EXT_device_generated_commands; made in command_signature.c): made with the signature, read by
 * ExecuteIndirect (command_list_generated.c). docs/indirect.md has the mapping. */
#ifndef D3D12XS_GENERATED_LAYOUT_H
#define D3D12XS_GENERATED_LAYOUT_H

#include "commands/command_signature.h"
#include "device/vk_device_generated_commands.h"

struct d3d12xs_root_layout;

/* What the translation pass (shaders/indirect_translate.comp) rewrites in each command: the
 * 32-bit word where a vertex or index buffer view starts, and which it is. */
#define D3D12_GENERATED_ENTRY_VERTEX_BUFFER 1u
#define D3D12_GENERATED_ENTRY_INDEX_BUFFER 2u
#define D3D12_GENERATED_ENTRY(word, kind) ((word) | (kind) << 24)
#define D3D12_GENERATED_MAX_ENTRIES (D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT + 1)

struct d3d12_generated_layout {
    VkIndirectCommandsLayoutEXT vk_layout;
    VkShaderStageFlags stages;
    /* the root signature's pipeline layout the push-constant tokens name, kept alive */
    struct d3d12xs_root_layout *root_layout;
    /* Vertex and index buffer views hold D3D12 addresses: the pass translates them into device
     * addresses in a copy of the commands, which the generated commands then read. */
    uint32_t entries[D3D12_GENERATED_MAX_ENTRIES];
    uint32_t entry_count;
    bool sets_index_buffer;
    /* The root CBV/SRV/UAV parameters the commands set are the signature's root_view_mask: their
     * addresses go into the push block's entries (root_signature.h), which the pipeline's
     * ExecuteIndirect variant reads (pipelines/pipeline_indirect_variant.c). */
};

/* Where the device has generated commands and the signature changes state: its layout, or NULL
 * with *why (static text) saying what stops it; never fails the signature's creation. */
struct d3d12_generated_layout *d3d12_generated_layout_create(struct d3d12_device *device, struct d3d12_command_signature *signature,
        const char **why);
void d3d12_generated_layout_destroy(struct d3d12_device *device, struct d3d12_generated_layout *layout);

#endif
