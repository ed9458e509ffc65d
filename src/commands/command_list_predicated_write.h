/* command_list_predicated_write.c: a predicated call conditional rendering does not cover (a
 * texture copy, a resolve, a UAV clear, a buffer copy of partial words) goes between
 * d3d12_command_list_begin_predicated_write and ..._end_predicated_write, which stage what its
 * destination holds before and after it and keep the one D3D12's predicate asks for. The caller
 * sets the target (a texture's subresources or a buffer's bytes); without a predicate both do
 * nothing. Begin is false after recording the error; end must follow a true begin on every path. */
#ifndef D3D12XS_COMMAND_LIST_PREDICATED_WRITE_H
#define D3D12XS_COMMAND_LIST_PREDICATED_WRITE_H

#include "commands/command_list_state.h"

struct d3d12_predicated_write {
    /* the target: a texture's whole subresources in range, or size bytes of buffer at offset */
    struct d3d12_resource *texture;
    VkImageSubresourceRange range;
    VkBuffer buffer;
    VkDeviceSize offset, size;
    /* set by begin */
    bool active;
    VkBuffer staging;                  /* the allocator's transient memory */
    VkDeviceSize old_offset, new_offset, bytes;
    VkBufferImageCopy *regions;        /* a texture's, from offset 0 of each staged copy */
    uint32_t region_count;
};
static inline struct d3d12_predicated_write d3d12_predicated_texture_write(struct d3d12_resource *texture, const VkImageSubresourceRange *range)
{
    return (struct d3d12_predicated_write){.texture = texture, .range = *range};
}
static inline struct d3d12_predicated_write d3d12_predicated_buffer_write(VkBuffer buffer, VkDeviceSize offset, VkDeviceSize size)
{
    return (struct d3d12_predicated_write){.buffer = buffer, .offset = offset, .size = size};
}
bool d3d12_command_list_stage_predicated_write(struct d3d12_command_list *list, const char *command, struct d3d12_predicated_write *write);
void d3d12_command_list_finish_predicated_write(struct d3d12_command_list *list, const char *command, struct d3d12_predicated_write *write);
/* Inline: without a predicate (the common case) nothing but the test. */
static inline bool d3d12_command_list_begin_predicated_write(struct d3d12_command_list *list, const char *command,
        struct d3d12_predicated_write *write)
{
    write->active = false;
    if (__builtin_expect(!list->predication.active, 1))
        return true;
    return d3d12_command_list_stage_predicated_write(list, command, write);
}
static inline void d3d12_command_list_end_predicated_write(struct d3d12_command_list *list, const char *command,
        struct d3d12_predicated_write *write)
{
    if (__builtin_expect(write->active, 0))
        d3d12_command_list_finish_predicated_write(list, command, write);
}

#endif
