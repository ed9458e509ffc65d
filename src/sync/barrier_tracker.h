/* The barrier tracker: the one part that decides and emits barriers (every vkCmdPipelineBarrier2
 * of d3d12xs is in barrier_tracker.c): a command list's, and the internal engine's texture work.
 * Commands tell it what they run (note, before), D3D12 and console barriers ask it for
 * visibility (request), and it emits a Vulkan barrier only where a command needs one: lazily,
 * into the stages of the command that comes, from the stages whose work that stage has not
 * waited for yet, as a hand-written Vulkan barrier would be.
 *
 * It keeps each stage a list's work can run in apart (a slot per stage: draw indirect, index
 * and vertex input, the graphics shader stages, transform feedback, early and late fragment
 * tests, colour attachment output, conditional rendering, compute, and transfer as one slot),
 * so a request names the stages that wait (a D3D12 state's, commands/barrier_states.h) and
 * each of them waits once, when its first command comes, whatever the others did.
 *
 * Buffers have no layouts, and images stay in GENERAL between commands (memory/texture.h), so
 * every D3D12 barrier is a global memory dependency. Copies put the subresources they touch in
 * a transfer layout, and the tracker puts them back lazily: before the next command that is not
 * a transfer, and at the end of the command buffer (d3d12_barriers_restore_layouts). The tracker
 * knows nothing of lists, segments or devices (only Vulkan's types), so tests drive its
 * decisions without a device (tests/test_barrier_tracker.c). Its fields are written here and in
 * barrier_tracker.c only. */
#ifndef D3D12XS_BARRIER_TRACKER_H
#define D3D12XS_BARRIER_TRACKER_H

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#define D3D12_TRANSFER_STAGES (VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_RESOLVE_BIT \
        | VK_PIPELINE_STAGE_2_BLIT_BIT | VK_PIPELINE_STAGE_2_CLEAR_BIT)
/* The stages of a draw, as the tracker keeps them (its graphics slots). Tessellation, geometry,
 * transform feedback and conditional rendering may be named in a barrier only where the device
 * enabled them: a list's work stages leave them out until then, and requests into them are
 * dropped. */
#define D3D12_DRAW_STAGES (VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT \
        | VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT \
        | VK_PIPELINE_STAGE_2_TESSELLATION_CONTROL_SHADER_BIT | VK_PIPELINE_STAGE_2_TESSELLATION_EVALUATION_SHADER_BIT \
        | VK_PIPELINE_STAGE_2_GEOMETRY_SHADER_BIT | VK_PIPELINE_STAGE_2_TRANSFORM_FEEDBACK_BIT_EXT \
        | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT \
        | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT \
        | VK_PIPELINE_STAGE_2_CONDITIONAL_RENDERING_BIT_EXT)
/* Every stage the tracker keeps apart. */
#define D3D12_TRACKED_STAGES (D3D12_DRAW_STAGES | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT)
#define D3D12_TRACKED_STAGE_COUNT 15
/* A request's destination access meaning "whatever the stage itself reads and writes". */
#define D3D12_EVERY_ACCESS (VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT)

/* The stages the tracker keeps apart that `stages` cover: ALL_COMMANDS is all of them,
 * ALL_GRAPHICS the draw stages, VERTEX_INPUT and PRE_RASTERIZATION_SHADERS their parts, and any
 * transfer stage (copy, clear, blit, resolve) the one transfer slot, ALL_TRANSFER (no D3D12
 * state tells them apart). Stages outside a list's work (host, top and bottom of pipe) are none. */
static inline VkPipelineStageFlags2 d3d12_tracked_stages(VkPipelineStageFlags2 stages)
{
    if (stages & VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT)
        return D3D12_TRACKED_STAGES;
    if (stages & VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT)
        stages |= D3D12_DRAW_STAGES;
    if (stages & D3D12_TRANSFER_STAGES)
        stages |= VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT;
    if (stages & VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT)
        stages |= VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT | VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT;
    if (stages & VK_PIPELINE_STAGE_2_PRE_RASTERIZATION_SHADERS_BIT)
        stages |= VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_TESSELLATION_CONTROL_SHADER_BIT
                | VK_PIPELINE_STAGE_2_TESSELLATION_EVALUATION_SHADER_BIT | VK_PIPELINE_STAGE_2_GEOMETRY_SHADER_BIT;
    return stages & D3D12_TRACKED_STAGES;
}

/* Subresources left outside GENERAL (a copy's transfer layout), to go back to GENERAL. */
struct d3d12_transfer_layout {
    VkImage image;
    VkImageSubresourceRange range;
    VkImageLayout layout;
};
#define D3D12_TRANSFER_LAYOUTS 8

/* What one stage of the list still owes earlier work. */
struct d3d12_stage_wait {
    /* Requested, not yet emitted: what its next command waits for (ALL_COMMANDS: everything
     * earlier, the queue's earlier submissions too), the writes made available, and its own
     * accesses that see them (D3D12_EVERY_ACCESS: all the stage makes). */
    VkPipelineStageFlags2 src_stages;
    VkAccessFlags2 src_access, dst_access;
    /* Stages of work recorded before the last request that was not for this stage: nothing
     * orders it before this stage's commands yet. */
    VkPipelineStageFlags2 unrequested;
};

struct d3d12_barrier_tracker {
    /* The stages the list's commands can run in (as d3d12_tracked_stages gives them): a
     * request into every stage means these, and requests for others are dropped. */
    VkPipelineStageFlags2 work_stages;
    /* Stages of commands recorded since the last request. */
    VkPipelineStageFlags2 recorded;
    /* The stages with a requested dependency not emitted yet (their src_stages). */
    VkPipelineStageFlags2 waiting;
    /* By stage, in the order of D3D12_TRACKED_STAGES' bits (barrier_tracker.c: tracked_stage). */
    struct d3d12_stage_wait stages[D3D12_TRACKED_STAGE_COUNT];
    uint32_t emitted; /* barriers emitted since the last reset (tests, diagnostics) */
    uint32_t transfer_layout_count;
    struct d3d12_transfer_layout transfer_layouts[D3D12_TRANSFER_LAYOUTS];
};


/* A new list or Reset: nothing recorded, nothing requested. work_stages: the stages the
 * list's commands can run in. */
void d3d12_barriers_reset(struct d3d12_barrier_tracker *tracker, VkPipelineStageFlags2 work_stages);

/* Work of these stages was recorded, ordered by what the command did itself (a marker write
 * at the bottom of the pipe, a step after a barrier the command emitted), or was submitted
 * earlier and waited for (ALL_COMMANDS, the internal engine's texture copies): a later
 * request or layout change waits for it. */
static inline void d3d12_barriers_note(struct d3d12_barrier_tracker *tracker, VkPipelineStageFlags2 stages)
{
    tracker->recorded |= stages;
}

/* The stages whose work no barrier has ordered before the next command of `stages` yet:
 * recorded work, and what a request still waits for (any stage's, for stages outside the work
 * stages, which requests do not reach). A write at that point (bottom of pipe, a layout change)
 * waits for exactly these. */
VkPipelineStageFlags2 d3d12_barriers_unordered(const struct d3d12_barrier_tracker *tracker, VkPipelineStageFlags2 stages);

/* A dependency from src_stages, making src_access writes available, to the next command of
 * each stage of dst_stages that the list runs (ALL_COMMANDS: every work stage), whose
 * dst_access see them (D3D12_EVERY_ACCESS: all the stage's own). ALL_COMMANDS in src_stages
 * also covers work submitted earlier to the queue (a memory wait's writer). Merges with a
 * request not yet emitted into a stage: the stage waits once, for both. */
void d3d12_barriers_request(struct d3d12_barrier_tracker *tracker, VkPipelineStageFlags2 src_stages, VkAccessFlags2 src_access,
        VkPipelineStageFlags2 dst_stages, VkAccessFlags2 dst_access);

/* ResourceBarrier: the same from the work each stage of dst_stages has not waited for yet
 * (recorded since its last request); nothing for a stage that has waited for everything. */
void d3d12_barriers_request_recorded(struct d3d12_barrier_tracker *tracker, VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stages,
        VkAccessFlags2 dst_access);

void d3d12_barriers_before_slow(struct d3d12_barrier_tracker *tracker, VkCommandBuffer command_buffer, VkPipelineStageFlags2 stage);

/* Puts every subresource a copy left in a transfer layout back in GENERAL, in one barrier
 * after which every work stage may use them: before a command that is not a transfer, and
 * before the command buffer ends (a list's segments and lists leave images in GENERAL). */
void d3d12_barriers_restore_layouts(struct d3d12_barrier_tracker *tracker, VkCommandBuffer command_buffer);

/* For a transfer command recorded next (after d3d12_barriers_before(ALL_TRANSFER)): puts each
 * request's range of its image in its layout (TRANSFER_SRC_OPTIMAL or TRANSFER_DST_OPTIMAL), from
 * GENERAL or from the other transfer layout, in one barrier; nothing for a range a copy already
 * left there. A move from GENERAL waits for the stages unordered before the transfer stage (the
 * image's last users may be reading it). At most D3D12_TRANSFER_LAYOUTS requests. */
void d3d12_barriers_transfer_layouts(struct d3d12_barrier_tracker *tracker, VkCommandBuffer command_buffer,
        const struct d3d12_transfer_layout *requests, uint32_t count);
static inline void d3d12_barriers_transfer_layout(struct d3d12_barrier_tracker *tracker, VkCommandBuffer command_buffer, VkImage image,
        const VkImageSubresourceRange *range, VkImageLayout layout)
{
    struct d3d12_transfer_layout request = {image, *range, layout};
    d3d12_barriers_transfer_layouts(tracker, command_buffer, &request, 1);
}

/* A new image's range goes from UNDEFINED to GENERAL, its one layout, now, before the commands
 * of dst_stages (its first users), after the unordered work. */
void d3d12_barriers_first_layout(struct d3d12_barrier_tracker *tracker, VkCommandBuffer command_buffer, VkImage image,
        const VkImageSubresourceRange *range, VkPipelineStageFlags2 dst_stages);

/* Whether d3d12_barriers_before(stage) would emit a barrier now (a rendering pass must end first). */
static inline bool d3d12_barriers_pending(const struct d3d12_barrier_tracker *tracker, VkPipelineStageFlags2 stage)
{
    return (tracker->transfer_layout_count && (stage & ~D3D12_TRANSFER_STAGES)) || (tracker->waiting & d3d12_tracked_stages(stage));
}

/* Call before recording a command that runs in stage into command_buffer: emits what the
 * stage's parts still wait for, if anything, then notes the command's stage. Inline: every
 * command comes here. */
static inline void d3d12_barriers_before(struct d3d12_barrier_tracker *tracker, VkCommandBuffer command_buffer, VkPipelineStageFlags2 stage)
{
    if (__builtin_expect(tracker->transfer_layout_count, 0) && (stage & ~D3D12_TRANSFER_STAGES))
        d3d12_barriers_restore_layouts(tracker, command_buffer);
    if (tracker->waiting & d3d12_tracked_stages(stage))
        d3d12_barriers_before_slow(tracker, command_buffer, stage);
    tracker->recorded |= stage;
}

/* d3d12_barriers_before's common case for a caller that knows its stages' tracked slots
 * (d3d12_tracked_stages(stages)): true, noting the stages, when nothing waits for them; false,
 * with nothing done, otherwise. */
static inline bool d3d12_barriers_before_nothing_waits(struct d3d12_barrier_tracker *tracker, VkPipelineStageFlags2 stages,
        VkPipelineStageFlags2 tracked)
{
    if (tracker->transfer_layout_count || (tracker->waiting & tracked))
        return false;
    tracker->recorded |= stages;
    return true;
}

/* A dependency emitted now, for one command's own steps (a clear before the dispatch that
 * reads it, a write-back before a timestamp) or one that must land at this point (a marker
 * write waiting for everything): it changes nothing the tracker remembers. */
void d3d12_barriers_emit(struct d3d12_barrier_tracker *tracker, VkCommandBuffer command_buffer, VkPipelineStageFlags2 src_stages,
        VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stages, VkAccessFlags2 dst_access);

/* Now, from the stages unordered before dst_stages (above) to dst_stages; nothing when there
 * are none, since the barriers that ordered them already order the next command after them. */
void d3d12_barriers_after_unordered(struct d3d12_barrier_tracker *tracker, VkCommandBuffer command_buffer, VkAccessFlags2 src_access,
        VkPipelineStageFlags2 dst_stages, VkAccessFlags2 dst_access);

/* A full barrier now (every stage, every write made visible to every read and write), after
 * which nothing is recorded or requested: a list's start, FlushPipelineX. */
void d3d12_barriers_full(struct d3d12_barrier_tracker *tracker, VkCommandBuffer command_buffer);

#endif
