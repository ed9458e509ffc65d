/* The barrier tracker: the one part of a command list that decides and emits its barriers
 * (every vkCmdPipelineBarrier2 of a list's work is in barrier_tracker.c). Commands tell it what
 * they run (note, before), D3D12 and console barriers ask it for visibility (request), and it
 * emits a Vulkan barrier only where a command needs one: lazily, once per destination stage, as
 * a hand-written Vulkan barrier would be.
 *
 * Buffers have no layouts, so every barrier is one global memory dependency. The tracker knows
 * nothing of lists, segments or devices (only Vulkan's types), so tests drive its decisions
 * without a device (tests/test_barrier_tracker.c) and graphics stages can use it unchanged:
 * stages are VkPipelineStageFlags2, whatever they are. Its fields are written here and in
 * barrier_tracker.c only. */
#ifndef D3D12XS_BARRIER_TRACKER_H
#define D3D12XS_BARRIER_TRACKER_H

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

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
};

/* Images will need a layout per subresource, kept per list next to the memory dependencies
 * (a transition is a layout change plus such a dependency). A hook for textures, which come
 * later: declared so that the tracker is where that table goes; nothing uses it yet. */
struct d3d12_subresource_layouts {
    VkImage image;
    uint32_t subresource_count;
    VkImageLayout *layouts; /* per subresource: the layout the list's last command left it in */
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

/* Call before recording a command that runs in stage into command_buffer: emits the requested
 * dependency into stage if stage has not waited for it yet, then notes the command's stage.
 * Inline: every command comes here. */
static inline void d3d12_barriers_before(struct d3d12_barrier_tracker *tracker, VkCommandBuffer command_buffer, VkPipelineStageFlags2 stage)
{
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
