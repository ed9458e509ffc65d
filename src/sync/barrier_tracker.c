/* The barrier tracker (barrier_tracker.h): the only code that records vkCmdPipelineBarrier2
 * for a command list's work. */
#include <string.h>

#include "sync/barrier_tracker.h"

#define SHADER_STAGES (VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT \
        | VK_PIPELINE_STAGE_2_TESSELLATION_CONTROL_SHADER_BIT | VK_PIPELINE_STAGE_2_TESSELLATION_EVALUATION_SHADER_BIT \
        | VK_PIPELINE_STAGE_2_GEOMETRY_SHADER_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT \
        | VK_PIPELINE_STAGE_2_PRE_RASTERIZATION_SHADERS_BIT | VK_PIPELINE_STAGE_2_TASK_SHADER_BIT_EXT \
        | VK_PIPELINE_STAGE_2_MESH_SHADER_BIT_EXT)
#define TRANSFER_STAGES D3D12_TRANSFER_STAGES
#define VERTEX_INPUT_STAGES (VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT | VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT \
        | VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT)
#define DEPTH_STAGES (VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT)

/* The accesses commands of these stages make: what a dependency into them must make visible.
 * Naming them, not MEMORY_READ | MEMORY_WRITE, is what a hand-written barrier does; a stage
 * with no narrower set (ALL_GRAPHICS, ALL_COMMANDS) gets every access. */
static VkAccessFlags2 stage_accesses(VkPipelineStageFlags2 stages)
{
    VkAccessFlags2 access = 0;

    if (stages & SHADER_STAGES)
        access |= VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT;
    if (stages & TRANSFER_STAGES)
        access |= VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT;
    if (stages & VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT)
        access |= VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT;
    if (stages & VERTEX_INPUT_STAGES)
        access |= VK_ACCESS_2_INDEX_READ_BIT | VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT;
    if (stages & DEPTH_STAGES)
        access |= VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
    if (stages & VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT)
        access |= VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT;
    if (stages & ~(SHADER_STAGES | TRANSFER_STAGES | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VERTEX_INPUT_STAGES | DEPTH_STAGES
            | VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT))
        access |= VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
    return access;
}

void d3d12_barriers_emit(struct d3d12_barrier_tracker *tracker, VkCommandBuffer command_buffer, VkPipelineStageFlags2 src_stages,
        VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stages, VkAccessFlags2 dst_access)
{
    VkMemoryBarrier2 barrier = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
        .srcStageMask = src_stages,
        .srcAccessMask = src_access,
        .dstStageMask = dst_stages,
        .dstAccessMask = dst_access,
    };
    VkDependencyInfo dependency = {
        .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
        .memoryBarrierCount = 1,
        .pMemoryBarriers = &barrier,
    };
    vkCmdPipelineBarrier2(command_buffer, &dependency);
    tracker->emitted++;
}

void d3d12_barriers_reset(struct d3d12_barrier_tracker *tracker, VkPipelineStageFlags2 work_stages)
{
    *tracker = (struct d3d12_barrier_tracker){.work_stages = work_stages};
}

/* src_stages already merged in: every work stage waits (again) for the whole request. */
static void requested(struct d3d12_barrier_tracker *tracker, VkPipelineStageFlags2 src_stages, VkAccessFlags2 src_access)
{
    tracker->src_access |= src_access;
    tracker->synced = 0;
    /* The request orders that work: a later one need not name it again. */
    tracker->recorded = src_stages & VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT ? 0 : tracker->recorded & ~src_stages;
}

void d3d12_barriers_request(struct d3d12_barrier_tracker *tracker, VkPipelineStageFlags2 src_stages, VkAccessFlags2 src_access)
{
    /* ALL_COMMANDS covers every other stage: the barrier names it alone. */
    tracker->src_stages = src_stages & VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT ? src_stages : tracker->src_stages | src_stages;
    requested(tracker, src_stages, src_access);
}

void d3d12_barriers_request_recorded(struct d3d12_barrier_tracker *tracker, VkAccessFlags2 src_access)
{
    VkPipelineStageFlags2 recorded = tracker->recorded;
    if (!recorded)
        return;
    tracker->src_stages |= recorded;
    requested(tracker, recorded, src_access);
}

void d3d12_barriers_before_slow(struct d3d12_barrier_tracker *tracker, VkCommandBuffer command_buffer, VkPipelineStageFlags2 stage)
{
    d3d12_barriers_emit(tracker, command_buffer, tracker->src_stages, tracker->src_access, stage, stage_accesses(stage));
    tracker->synced |= stage;
    /* Once every stage the list runs has waited, the request is done. */
    if ((tracker->synced & tracker->work_stages) == tracker->work_stages) {
        tracker->src_stages = tracker->synced = 0;
        tracker->src_access = 0;
    }
}

void d3d12_barriers_after_unordered(struct d3d12_barrier_tracker *tracker, VkCommandBuffer command_buffer, VkAccessFlags2 src_access,
        VkPipelineStageFlags2 dst_stages, VkAccessFlags2 dst_access)
{
    VkPipelineStageFlags2 unordered = d3d12_barriers_unordered(tracker);
    if (unordered)
        d3d12_barriers_emit(tracker, command_buffer, unordered, src_access, dst_stages, dst_access);
}

void d3d12_barriers_full(struct d3d12_barrier_tracker *tracker, VkCommandBuffer command_buffer)
{
    d3d12_barriers_emit(tracker, command_buffer, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
            VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
    /* Everything recorded so far is ordered before what follows. */
    tracker->recorded = tracker->src_stages = tracker->synced = 0;
    tracker->src_access = 0;
}

static VkImageMemoryBarrier2 layout_barrier(VkImage image, const VkImageSubresourceRange *range, VkImageLayout from, VkImageLayout to,
        VkPipelineStageFlags2 src_stages, VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stages, VkAccessFlags2 dst_access)
{
    return (VkImageMemoryBarrier2){
        .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
        .srcStageMask = src_stages,
        .srcAccessMask = src_access,
        .dstStageMask = dst_stages,
        .dstAccessMask = dst_access,
        .oldLayout = from,
        .newLayout = to,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .image = image,
        .subresourceRange = *range,
    };
}

static void emit_image_barriers(struct d3d12_barrier_tracker *tracker, VkCommandBuffer command_buffer, const VkImageMemoryBarrier2 *barriers,
        uint32_t count)
{
    VkDependencyInfo dependency = {
        .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
        .imageMemoryBarrierCount = count,
        .pImageMemoryBarriers = barriers,
    };
    vkCmdPipelineBarrier2(command_buffer, &dependency);
    tracker->emitted++;
}

void d3d12_barriers_restore_layouts(struct d3d12_barrier_tracker *tracker, VkCommandBuffer command_buffer)
{
    VkImageMemoryBarrier2 barriers[D3D12_TRANSFER_LAYOUTS];
    uint32_t count = tracker->transfer_layout_count;

    if (!count)
        return;
    /* Into every stage: a later D3D12 barrier's source stages (the transfer among them) chain
     * through this one whatever command comes next. */
    for (uint32_t i = 0; i < count; i++) {
        const struct d3d12_transfer_layout *entry = &tracker->transfer_layouts[i];
        barriers[i] = layout_barrier(entry->image, &entry->range, entry->layout, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
    }
    emit_image_barriers(tracker, command_buffer, barriers, count);
    tracker->transfer_layout_count = 0;
}

static bool ranges_overlap(const VkImageSubresourceRange *a, const VkImageSubresourceRange *b)
{
    return (a->aspectMask & b->aspectMask) && a->baseMipLevel < b->baseMipLevel + b->levelCount && b->baseMipLevel < a->baseMipLevel + a->levelCount
            && a->baseArrayLayer < b->baseArrayLayer + b->layerCount && b->baseArrayLayer < a->baseArrayLayer + a->layerCount;
}

/* The entry a request matches exactly, UINT32_MAX for none; *partial when one overlaps it without
 * being it. */
static uint32_t find_entry(const struct d3d12_barrier_tracker *tracker, const struct d3d12_transfer_layout *request, bool *partial)
{
    for (uint32_t i = 0; i < tracker->transfer_layout_count; i++) {
        const struct d3d12_transfer_layout *entry = &tracker->transfer_layouts[i];
        if (entry->image != request->image || !ranges_overlap(&entry->range, &request->range))
            continue;
        if (memcmp(&entry->range, &request->range, sizeof(entry->range))) {
            *partial = true;
            return UINT32_MAX;
        }
        return i;
    }
    return UINT32_MAX;
}

void d3d12_barriers_transfer_layouts(struct d3d12_barrier_tracker *tracker, VkCommandBuffer command_buffer,
        const struct d3d12_transfer_layout *requests, uint32_t count)
{
    const VkAccessFlags2 transfer_access = VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT;
    VkImageMemoryBarrier2 barriers[D3D12_TRANSFER_LAYOUTS];
    uint32_t barrier_count = 0;
    bool partial = false;

    /* What a copy left of one of these images in other ranges goes back first, as does a full
     * table: then every request finds its entry or room. */
    for (uint32_t r = 0; r < count; r++)
        find_entry(tracker, &requests[r], &partial);
    if (partial || tracker->transfer_layout_count + count > D3D12_TRANSFER_LAYOUTS)
        d3d12_barriers_restore_layouts(tracker, command_buffer);
    for (uint32_t r = 0; r < count && barrier_count < D3D12_TRANSFER_LAYOUTS; r++) {
        const struct d3d12_transfer_layout *request = &requests[r];
        uint32_t found = find_entry(tracker, request, &partial);
        if (found != UINT32_MAX) {
            struct d3d12_transfer_layout *entry = &tracker->transfer_layouts[found];
            if (entry->layout == request->layout)
                continue;
            /* A copy wrote it and this one reads it, or the other way round. */
            barriers[barrier_count++] = layout_barrier(request->image, &request->range, entry->layout, request->layout,
                    VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, transfer_access);
            entry->layout = request->layout;
            continue;
        }
        barriers[barrier_count++] = layout_barrier(request->image, &request->range, VK_IMAGE_LAYOUT_GENERAL, request->layout,
                d3d12_barriers_unordered(tracker) | VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, transfer_access);
        tracker->transfer_layouts[tracker->transfer_layout_count++] = *request;
    }
    if (barrier_count)
        emit_image_barriers(tracker, command_buffer, barriers, barrier_count);
}
