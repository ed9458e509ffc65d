/* The barrier tracker: the one part of a command list that decides and emits its barriers
 * (every vkCmdPipelineBarrier2 of a list's work is in barrier_tracker.c). Commands tell it what
 * they run (note, before), D3D12 and console barriers ask it for visibility (request), and it
 * emits a Vulkan barrier only where a command needs one: lazily, once per destination stage, as
 * a hand-written Vulkan barrier would be.
 *
 * Buffers have no layouts, and images stay in GENERAL between commands (memory/texture.h), so
 * every D3D12 barrier is one global memory dependency. Copies put the subresources they touch in
 * a transfer layout, and the tracker puts them back lazily: before the next command that is not
 * a transfer, and at the end of the command buffer (d3d12_barriers_restore_layouts). The tracker knows
 * nothing of lists, segments or devices (only Vulkan's types), so tests drive its decisions
 * without a device (tests/test_barrier_tracker.c) and graphics stages can use it unchanged:
 * stages are VkPipelineStageFlags2, whatever they are. Its fields are written here and in
 * barrier_tracker.c only. */
#ifndef D3D12XS_BARRIER_TRACKER_H
#define D3D12XS_BARRIER_TRACKER_H

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#define D3D12_TRANSFER_STAGES (VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_RESOLVE_BIT \
        | VK_PIPELINE_STAGE_2_BLIT_BIT | VK_PIPELINE_STAGE_2_CLEAR_BIT)

/* Subresources a copy left in a transfer layout, to go back to GENERAL. */
struct d3d12_transfer_layout {
    VkImage image;
    VkImageSubresourceRange range;
    VkImageLayout layout;
};
#define D3D12_TRANSFER_LAYOUTS 8

struct d3d12_barrier_tracker {
    /* The stages the list's commands run in (compute and transfer today, the graphics stages
     * once draws exist): a request is done once each of them has waited for it. */
    VkPipelineStageFlags2 work_stages;
    /* Stages of commands recorded since the last barrier that ordered everything before it. */
    VkPipelineStageFlags2 recorded;
    /* The requested dependency not yet emitted for every work stage: what it waits for, the
     * writes it makes available, and the stages that already waited for it. */
    VkPipelineStageFlags2 src_stages;
    VkAccessFlags2 src_access;
    VkPipelineStageFlags2 synced;
    uint32_t emitted; /* barriers emitted since the last reset (tests, diagnostics) */
    uint32_t transfer_layout_count;
    struct d3d12_transfer_layout transfer_layouts[D3D12_TRANSFER_LAYOUTS];
};


/* A new list or Reset: nothing recorded, nothing requested. work_stages: the stages the
 * list's commands can run in. */
void d3d12_barriers_reset(struct d3d12_barrier_tracker *tracker, VkPipelineStageFlags2 work_stages);

/* Work of these stages was recorded, ordered by what the command did itself (a marker write
 * at the bottom of the pipe, a step after a barrier the command emitted): a later request
 * waits for it. */
static inline void d3d12_barriers_note(struct d3d12_barrier_tracker *tracker, VkPipelineStageFlags2 stages)
{
    tracker->recorded |= stages;
}

/* The stages whose work no barrier has ordered yet: recorded work, and what a request still
 * waits for. A bottom-of-pipe write waits for exactly these. */
static inline VkPipelineStageFlags2 d3d12_barriers_unordered(const struct d3d12_barrier_tracker *tracker)
{
    return tracker->recorded | tracker->src_stages;
}

/* A dependency from src_stages, making src_access writes available, to the next command of
 * each work stage (which sees them: its stage's own reads and writes). ALL_COMMANDS also
 * covers work submitted earlier to the queue (a memory wait's writer). Merges with a request
 * not yet emitted everywhere; stages that already waited for that one wait again, for both. */
void d3d12_barriers_request(struct d3d12_barrier_tracker *tracker, VkPipelineStageFlags2 src_stages, VkAccessFlags2 src_access);

/* ResourceBarrier: the same from the stages recorded since the last barrier; nothing when no
 * work was recorded since (the last barrier already ordered it). */
void d3d12_barriers_request_recorded(struct d3d12_barrier_tracker *tracker, VkAccessFlags2 src_access);

void d3d12_barriers_before_slow(struct d3d12_barrier_tracker *tracker, VkCommandBuffer command_buffer, VkPipelineStageFlags2 stage);

/* Puts every subresource a copy left in a transfer layout back in GENERAL, in one barrier
 * after which every stage may use them: before a command that is not a transfer, and before
 * the command buffer ends (a list's segments and lists leave images in GENERAL). */
void d3d12_barriers_restore_layouts(struct d3d12_barrier_tracker *tracker, VkCommandBuffer command_buffer);

/* For a transfer command recorded next (after d3d12_barriers_before(ALL_TRANSFER)): puts each
 * request's range of its image in its layout (TRANSFER_SRC_OPTIMAL or TRANSFER_DST_OPTIMAL), from
 * GENERAL or from the other transfer layout, in one barrier; nothing for a range a copy already
 * left there. A move from GENERAL waits for the unordered stages (the image's last users may be
 * reading it). At most D3D12_TRANSFER_LAYOUTS requests. */
void d3d12_barriers_transfer_layouts(struct d3d12_barrier_tracker *tracker, VkCommandBuffer command_buffer,
        const struct d3d12_transfer_layout *requests, uint32_t count);
static inline void d3d12_barriers_transfer_layout(struct d3d12_barrier_tracker *tracker, VkCommandBuffer command_buffer, VkImage image,
        const VkImageSubresourceRange *range, VkImageLayout layout)
{
    struct d3d12_transfer_layout request = {image, *range, layout};
    d3d12_barriers_transfer_layouts(tracker, command_buffer, &request, 1);
}

/* Call before recording a command that runs in stage into command_buffer: emits the requested
 * dependency into stage if stage has not waited for it yet, then notes the command's stage.
 * Inline: every command comes here. */
static inline void d3d12_barriers_before(struct d3d12_barrier_tracker *tracker, VkCommandBuffer command_buffer, VkPipelineStageFlags2 stage)
{
    if (__builtin_expect(tracker->transfer_layout_count, 0) && (stage & ~D3D12_TRANSFER_STAGES))
        d3d12_barriers_restore_layouts(tracker, command_buffer);
    if (tracker->src_stages && (stage & ~tracker->synced))
        d3d12_barriers_before_slow(tracker, command_buffer, stage);
    tracker->recorded |= stage;
}

/* A dependency emitted now, for one command's own steps (a clear before the dispatch that
 * reads it, a write-back before a timestamp) or one that must land at this point (a marker
 * write waiting for everything): it changes nothing the tracker remembers. */
void d3d12_barriers_emit(struct d3d12_barrier_tracker *tracker, VkCommandBuffer command_buffer, VkPipelineStageFlags2 src_stages,
        VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stages, VkAccessFlags2 dst_access);

/* Now, from the unordered stages (above) to dst_stages; nothing when there are none, since
 * the last barrier that ordered everything already orders the next command after them. */
void d3d12_barriers_after_unordered(struct d3d12_barrier_tracker *tracker, VkCommandBuffer command_buffer, VkAccessFlags2 src_access,
        VkPipelineStageFlags2 dst_stages, VkAccessFlags2 dst_access);

/* A full barrier now (every stage, every write made visible to every read and write), after
 * which nothing is recorded or requested: a list's start, FlushPipelineX. */
void d3d12_barriers_full(struct d3d12_barrier_tracker *tracker, VkCommandBuffer command_buffer);

#endif
