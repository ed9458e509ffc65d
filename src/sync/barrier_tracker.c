/* The barrier tracker (barrier_tracker.h): the only code that records vkCmdPipelineBarrier2. */
#include <string.h>

#include "sync/barrier_tracker.h"

#define SHADER_STAGES (VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT \
        | VK_PIPELINE_STAGE_2_TESSELLATION_CONTROL_SHADER_BIT | VK_PIPELINE_STAGE_2_TESSELLATION_EVALUATION_SHADER_BIT \
        | VK_PIPELINE_STAGE_2_GEOMETRY_SHADER_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT \
        | VK_PIPELINE_STAGE_2_PRE_RASTERIZATION_SHADERS_BIT | VK_PIPELINE_STAGE_2_TASK_SHADER_BIT_EXT \
        | VK_PIPELINE_STAGE_2_MESH_SHADER_BIT_EXT)
#define TRANSFER_STAGES D3D12_TRANSFER_STAGES
#define INDEX_INPUT_STAGES (VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT | VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT)
#define VERTEX_ATTRIBUTE_STAGES (VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT | VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT)
#define DEPTH_STAGES (VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT)
#define NAMED_STAGES (SHADER_STAGES | TRANSFER_STAGES | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | INDEX_INPUT_STAGES \
        | VERTEX_ATTRIBUTE_STAGES | DEPTH_STAGES | VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT \
        | VK_PIPELINE_STAGE_2_TRANSFORM_FEEDBACK_BIT_EXT | VK_PIPELINE_STAGE_2_CONDITIONAL_RENDERING_BIT_EXT)
/* The narrower shader accesses a request may name (a state's), which SHADER_READ and
 * SHADER_WRITE cover. */
#define SHADER_PARTS (VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT)

/* The accesses commands of these stages make: what a dependency into them must make visible.
 * Naming them, not MEMORY_READ | MEMORY_WRITE, is what a hand-written barrier does; a stage
 * with no narrower set (ALL_GRAPHICS, ALL_COMMANDS) gets every access. Shaders read uniform
 * buffers (CBVs) besides what SHADER_READ covers. */
static VkAccessFlags2 stage_accesses(VkPipelineStageFlags2 stages)
{
    VkAccessFlags2 access = 0;

    if (stages & SHADER_STAGES)
        access |= VK_ACCESS_2_UNIFORM_READ_BIT | VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT;
    if (stages & TRANSFER_STAGES)
        access |= VK_ACCESS_2_TRANSFER_WRITE_BIT;
    if (stages & (TRANSFER_STAGES & ~VK_PIPELINE_STAGE_2_CLEAR_BIT)) /* a clear only writes */
        access |= VK_ACCESS_2_TRANSFER_READ_BIT;
    if (stages & VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT)
        access |= VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT;
    if (stages & INDEX_INPUT_STAGES)
        access |= VK_ACCESS_2_INDEX_READ_BIT;
    if (stages & VERTEX_ATTRIBUTE_STAGES)
        access |= VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT;
    if (stages & DEPTH_STAGES)
        access |= VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
    if (stages & VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT)
        access |= VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT;
    if (stages & VK_PIPELINE_STAGE_2_TRANSFORM_FEEDBACK_BIT_EXT)
        access |= VK_ACCESS_2_TRANSFORM_FEEDBACK_WRITE_BIT_EXT | VK_ACCESS_2_TRANSFORM_FEEDBACK_COUNTER_READ_BIT_EXT
                | VK_ACCESS_2_TRANSFORM_FEEDBACK_COUNTER_WRITE_BIT_EXT;
    if (stages & VK_PIPELINE_STAGE_2_CONDITIONAL_RENDERING_BIT_EXT)
        access |= VK_ACCESS_2_CONDITIONAL_RENDERING_READ_BIT_EXT;
    if (stages & ~NAMED_STAGES)
        access |= D3D12_EVERY_ACCESS;
    return access;
}

/* The accesses of a request that one of its stages sees: all the stage's own for
 * D3D12_EVERY_ACCESS, else those of the request's that the stage makes. */
static VkAccessFlags2 seen_accesses(VkPipelineStageFlags2 stage, VkAccessFlags2 requested)
{
    VkAccessFlags2 own = stage_accesses(stage);

    if (requested & D3D12_EVERY_ACCESS)
        return own;
    if (own & VK_ACCESS_2_SHADER_READ_BIT)
        own |= SHADER_PARTS;
    return requested & own;
}

/* The slot of a tracked stage (one bit) in tracker->stages (D3D12_TRACKED_STAGE_COUNT is the
 * number of bits of D3D12_TRACKED_STAGES: tests/test_barrier_tracker.c checks it). */
static unsigned stage_slot(VkPipelineStageFlags2 stage)
{
    return (unsigned)__builtin_popcountll(D3D12_TRACKED_STAGES & (stage - 1));
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
    *tracker = (struct d3d12_barrier_tracker){.work_stages = d3d12_tracked_stages(work_stages)};
}

/* ALL_COMMANDS covers every other stage: a barrier names it alone. */
static VkPipelineStageFlags2 source_stages(VkPipelineStageFlags2 stages)
{
    return stages & VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT ? VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT : stages;
}

/* Stage `stage` (one tracked stage) waits for src_stages too. */
static void add_wait(struct d3d12_barrier_tracker *tracker, VkPipelineStageFlags2 stage, VkPipelineStageFlags2 src_stages,
        VkAccessFlags2 src_access, VkAccessFlags2 dst_access)
{
    struct d3d12_stage_wait *wait = &tracker->stages[stage_slot(stage)];

    wait->src_stages = source_stages(wait->src_stages | src_stages);
    wait->src_access |= src_access;
    wait->dst_access |= dst_access;
    tracker->waiting |= stage;
}

VkPipelineStageFlags2 d3d12_barriers_unordered(const struct d3d12_barrier_tracker *tracker, VkPipelineStageFlags2 stages)
{
    VkPipelineStageFlags2 unordered = tracker->recorded, tracked = d3d12_tracked_stages(stages);

    /* A stage outside the list's work (an internal dispatch of a COPY list, the host), which no
     * request reaches, is ordered after none of what any stage still waits for. */
    if (!tracked || (tracked & ~tracker->work_stages))
        tracked = D3D12_TRACKED_STAGES;
    for (VkPipelineStageFlags2 rest = tracked; rest; rest &= rest - 1) {
        const struct d3d12_stage_wait *wait = &tracker->stages[stage_slot(rest & -rest)];
        unordered |= wait->src_stages | wait->unrequested;
    }
    return source_stages(unordered);
}

void d3d12_barriers_request(struct d3d12_barrier_tracker *tracker, VkPipelineStageFlags2 src_stages, VkAccessFlags2 src_access,
        VkPipelineStageFlags2 dst_stages, VkAccessFlags2 dst_access)
{
    VkPipelineStageFlags2 dst = d3d12_tracked_stages(dst_stages) & tracker->work_stages;

    for (VkPipelineStageFlags2 rest = D3D12_TRACKED_STAGES; rest; rest &= rest - 1) {
        VkPipelineStageFlags2 stage = rest & -rest;
        struct d3d12_stage_wait *wait = &tracker->stages[stage_slot(stage)];
        wait->unrequested |= tracker->recorded;
        if (!(dst & stage))
            continue;
        /* The request orders that work before this stage: a later one need not name it again. */
        wait->unrequested = src_stages & VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT ? 0 : wait->unrequested & ~src_stages;
        add_wait(tracker, stage, src_stages, src_access, dst_access);
    }
    tracker->recorded = 0;
}

void d3d12_barriers_request_recorded(struct d3d12_barrier_tracker *tracker, VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stages,
        VkAccessFlags2 dst_access)
{
    VkPipelineStageFlags2 dst = d3d12_tracked_stages(dst_stages) & tracker->work_stages;

    for (VkPipelineStageFlags2 rest = D3D12_TRACKED_STAGES; rest; rest &= rest - 1) {
        VkPipelineStageFlags2 stage = rest & -rest;
        struct d3d12_stage_wait *wait = &tracker->stages[stage_slot(stage)];
        VkPipelineStageFlags2 unordered = wait->unrequested | tracker->recorded;
        wait->unrequested = unordered;
        if (!(dst & stage) || !unordered)
            continue;
        wait->unrequested = 0;
        add_wait(tracker, stage, unordered, src_access, dst_access);
    }
    tracker->recorded = 0;
}

void d3d12_barriers_before_slow(struct d3d12_barrier_tracker *tracker, VkCommandBuffer command_buffer, VkPipelineStageFlags2 stage)
{
    VkPipelineStageFlags2 due = tracker->waiting & d3d12_tracked_stages(stage), src_stages = 0;
    VkAccessFlags2 src_access = 0, dst_access = 0;

    /* One barrier into the command's stages that wait, for what any of them waits for. */
    for (VkPipelineStageFlags2 rest = due; rest; rest &= rest - 1) {
        struct d3d12_stage_wait *wait = &tracker->stages[stage_slot(rest & -rest)];
        src_stages |= wait->src_stages;
        src_access |= wait->src_access;
        dst_access |= seen_accesses(rest & -rest, wait->dst_access);
        wait->src_stages = 0;
        wait->src_access = wait->dst_access = 0;
    }
    tracker->waiting &= ~due;
    d3d12_barriers_emit(tracker, command_buffer, source_stages(src_stages), src_access, due, dst_access);
}

void d3d12_barriers_after_unordered(struct d3d12_barrier_tracker *tracker, VkCommandBuffer command_buffer, VkAccessFlags2 src_access,
        VkPipelineStageFlags2 dst_stages, VkAccessFlags2 dst_access)
{
    VkPipelineStageFlags2 unordered = d3d12_barriers_unordered(tracker, dst_stages);
    if (unordered)
        d3d12_barriers_emit(tracker, command_buffer, unordered, src_access, dst_stages, dst_access);
}

void d3d12_barriers_full(struct d3d12_barrier_tracker *tracker, VkCommandBuffer command_buffer)
{
    d3d12_barriers_emit(tracker, command_buffer, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
            VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
    /* Everything recorded so far is ordered before what follows. */
    tracker->recorded = tracker->waiting = 0;
    memset(tracker->stages, 0, sizeof(tracker->stages));
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
    /* Into every work stage (not ALL_COMMANDS, a full drain on some GPUs): whatever command
     * comes next waits for the move, and a later D3D12 barrier's source stages (the transfer
     * among them) chain through this one. */
    for (uint32_t i = 0; i < count; i++) {
        const struct d3d12_transfer_layout *entry = &tracker->transfer_layouts[i];
        barriers[i] = layout_barrier(entry->image, &entry->range, entry->layout, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                VK_ACCESS_2_TRANSFER_WRITE_BIT, tracker->work_stages, stage_accesses(tracker->work_stages));
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
                source_stages(d3d12_barriers_unordered(tracker, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT) | VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT),
                VK_ACCESS_2_MEMORY_WRITE_BIT,
                VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, transfer_access);
        tracker->transfer_layouts[tracker->transfer_layout_count++] = *request;
    }
    if (barrier_count)
        emit_image_barriers(tracker, command_buffer, barriers, barrier_count);
}

void d3d12_barriers_first_layout(struct d3d12_barrier_tracker *tracker, VkCommandBuffer command_buffer, VkImage image,
        const VkImageSubresourceRange *range, VkPipelineStageFlags2 dst_stages)
{
    VkPipelineStageFlags2 unordered = d3d12_barriers_unordered(tracker, dst_stages);
    VkImageMemoryBarrier2 barrier = layout_barrier(image, range, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, unordered,
            unordered ? VK_ACCESS_2_MEMORY_WRITE_BIT : VK_ACCESS_2_NONE, dst_stages, stage_accesses(dst_stages));

    emit_image_barriers(tracker, command_buffer, &barrier, 1);
}
