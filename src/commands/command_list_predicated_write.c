/* The predicated commands Vulkan's conditional rendering does not cover (texture copies,
 * resolves, UAV clears, buffer copies of partial words): the command runs as it would unpredicated,
 * between a copy of what its destination held before and a copy of what it holds after, both into
 * the allocator's transient memory; predicated_copy.comp, a dispatch under the condition, copies the
 * "after" bytes over the "before" ones where D3D12 would run the command; and the "before" bytes,
 * now the right ones either way, are copied back into the destination. Three copies and a
 * dispatch, so only predicated calls pay them. The staging copies put the destination in transfer
 * layouts through the barrier tracker, and each step starts from GENERAL (every image's layout
 * between commands): the layouts left by the step before are put back first, so the tracker never
 * sees two overlapping ranges. */
#include <stdlib.h>
#include <string.h>

#include "command_recording.h"
#include "commands/command_list_predicated_write.h"
#include "memory/texture_layout.h"

static uint32_t gcd(uint32_t a, uint32_t b)
{
    while (b) {
        uint32_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Bytes of a texel block of the plane `aspect` in a buffer copy; its block size in *width, *height. */
static uint32_t block_bytes(const struct d3d12_resource *texture, VkImageAspectFlags aspect, uint32_t *width, uint32_t *height)
{
    *width = *height = 1;
    if (aspect == VK_IMAGE_ASPECT_STENCIL_BIT)
        return 1;
    if (aspect == VK_IMAGE_ASPECT_DEPTH_BIT)
        return texture->vk_format == VK_FORMAT_D16_UNORM || texture->vk_format == VK_FORMAT_D16_UNORM_S8_UINT ? 2 : 4;
    *width = texture->format->block_width;
    *height = texture->format->block_height;
    return texture->format->block_bytes;
}

/* One region per plane and mip of the texture target (all its layers), packed one after another
 * from offset 0; the staged size in write->bytes. False when out of memory. */
static bool texture_regions(struct d3d12_predicated_write *write)
{
    const struct d3d12_resource *texture = write->texture;
    const VkImageSubresourceRange *range = &write->range;
    uint32_t aspect_count = 0, count = 0;
    VkDeviceSize offset = 0;

    for (VkImageAspectFlags a = range->aspectMask; a; a &= a - 1)
        aspect_count++;
    if (!(write->regions = calloc((size_t)aspect_count * range->levelCount, sizeof(*write->regions))))
        return false;
    for (VkImageAspectFlags remaining = range->aspectMask; remaining; remaining &= remaining - 1) {
        VkImageAspectFlags aspect = remaining & ~(remaining - 1);
        uint32_t block_width, block_height, bytes = block_bytes(texture, aspect, &block_width, &block_height);
        /* a region starts at a multiple of its block size and of 16 (4 for depth and stencil) */
        uint32_t alignment = 16 / gcd(16, bytes) * bytes;

        for (uint32_t mip = range->baseMipLevel; mip < range->baseMipLevel + range->levelCount; mip++) {
            uint32_t width, height, depth;
            d3d12xs_texture_mip_extent(&texture->desc, mip, &width, &height, &depth);
            offset = (offset + alignment - 1) / alignment * alignment;
            write->regions[count++] = (VkBufferImageCopy){
                .bufferOffset = offset,
                .imageSubresource = {aspect, mip, range->baseArrayLayer, range->layerCount},
                .imageExtent = {width, height, depth},
            };
            offset += (VkDeviceSize)((width + block_width - 1) / block_width) * ((height + block_height - 1) / block_height) * depth
                    * range->layerCount * bytes;
        }
    }
    write->region_count = count;
    write->bytes = offset;
    return true;
}

/* Copies the target into the staged bytes at `base`, or (restore) back out of them. */
static void copy_target(struct d3d12_command_list *list, struct d3d12_predicated_write *write, VkDeviceSize base, bool restore)
{
    VkCommandBuffer command_buffer = list->vk_command_buffer;

    if (!write->texture) {
        const VkBufferCopy region = {restore ? base : write->offset, restore ? write->offset : base, write->size};
        vkCmdCopyBuffer(command_buffer, restore ? write->staging : write->buffer, restore ? write->buffer : write->staging, 1, &region);
        return;
    }
    for (uint32_t i = 0; i < write->region_count; i++)
        write->regions[i].bufferOffset += base;
    {
        /* a depth-stencil image's planes change layout together */
        const VkImageSubresourceRange layout_range = {write->texture->aspects, write->range.baseMipLevel, write->range.levelCount,
                write->range.baseArrayLayer, write->range.layerCount};
        d3d12_barriers_transfer_layout(&list->barriers, command_buffer, write->texture->vk_image, &layout_range,
                restore ? VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL : VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    }
    if (restore)
        vkCmdCopyBufferToImage(command_buffer, write->staging, write->texture->vk_image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                write->region_count, write->regions);
    else
        vkCmdCopyImageToBuffer(command_buffer, write->texture->vk_image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, write->staging,
                write->region_count, write->regions);
    for (uint32_t i = 0; i < write->region_count; i++)
        write->regions[i].bufferOffset -= base;
}

bool d3d12_command_list_stage_predicated_write(struct d3d12_command_list *list, const char *command, struct d3d12_predicated_write *write)
{
    struct d3d12_device *device = list->object.device;

    write->active = false;
    write->regions = NULL;
    if (write->texture) {
        if (!texture_regions(write)) {
            d3d12_command_list_record_error(list, command, "out of memory for a predicated command's regions");
            return false;
        }
    } else {
        write->bytes = write->size;
    }
    /* whole words, which the predicated copy moves */
    write->bytes = (write->bytes + 3) & ~(VkDeviceSize)3;
    if (!write->bytes) {
        free(write->regions);
        write->regions = NULL;
        return true;
    }
    if (FAILED(d3d12_transient_memory_allocate(device, &list->allocator->transient, 2 * write->bytes + 16, 0, &write->staging,
            &write->old_offset, NULL, command))) {
        d3d12_command_list_record_error(list, command, "out of memory to stage a predicated command's destination");
        free(write->regions);
        write->regions = NULL;
        return false;
    }
    write->new_offset = write->old_offset + ((write->bytes + 15) & ~(VkDeviceSize)15);

    /* what the destination holds before */
    d3d12_barriers_restore_layouts(&list->barriers, list->vk_command_buffer);
    d3d12_barriers_before(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
    copy_target(list, write, write->old_offset, false);
    /* the command's writes come after that read, whatever stage they run in; it finds the image
     * in GENERAL, as every command does */
    d3d12_barriers_emit(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
            d3d12_command_list_work_stages(list), VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
    d3d12_barriers_restore_layouts(&list->barriers, list->vk_command_buffer);
    /* the command itself runs unconditionally */
    list->predication.active = false;
    write->active = true;
    return true;
}

void d3d12_command_list_finish_predicated_write(struct d3d12_command_list *list, const char *command, struct d3d12_predicated_write *write)
{
    VkPipelineStageFlags2 work_stages = d3d12_command_list_work_stages(list);

    write->active = false;
    list->predication.active = true;
    /* what the destination holds after */
    d3d12_barriers_restore_layouts(&list->barriers, list->vk_command_buffer);
    d3d12_barriers_emit(&list->barriers, list->vk_command_buffer, work_stages, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
            VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT);
    d3d12_barriers_before(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
    copy_target(list, write, write->new_offset, false);
    /* "after" over "before" where D3D12 runs the command (its barriers wait for the copy) */
    if (d3d12_command_list_copy_buffer_predicated(list, command, write->staging, write->old_offset, write->staging, write->new_offset,
            write->bytes)) {
        /* ...and whichever it is, back into the destination, after the copy above read it */
        d3d12_barriers_emit(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT);
        d3d12_barriers_before(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
        copy_target(list, write, write->old_offset, true);
    }
    free(write->regions);
    write->regions = NULL;
}
