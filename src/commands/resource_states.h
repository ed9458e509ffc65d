/* What D3D12's resource states mean in Vulkan: the stages in which d3d12xs's commands use a
 * resource in a state, their accesses, and the image layout that suits the state. ResourceBarrier
 * asks the barrier tracker to make earlier writes visible to the stages and accesses of each
 * barrier's state after (sync/barrier_tracker.h). */
#ifndef D3D12XS_RESOURCE_STATES_H
#define D3D12XS_RESOURCE_STATES_H

#include <vulkan/vulkan.h>

#include "d3d12.h"

struct d3d12_state_sync {
    /* Where commands use the resource: ALL_COMMANDS where any command may (COMMON, whose
     * implicit promotions D3D12 allows, and states d3d12xs runs no command for); the tracker
     * keeps only those the list runs. */
    VkPipelineStageFlags2 stages;
    VkAccessFlags2 access;  /* MEMORY_READ | MEMORY_WRITE with ALL_COMMANDS: every access */
    /* The layout a layout-tracking implementation would give an image in the state (GENERAL
     * where several states share no narrower one). d3d12xs keeps every image in GENERAL between
     * commands (memory/texture.h), which Vulkan allows for all of these uses; this says what an
     * attachment-layout pass would choose (docs/design.md, "Barriers"). */
    VkImageLayout layout;
};

/* The sync of a state (a combination of D3D12_RESOURCE_STATE_* bits): the union of its bits'. */
struct d3d12_state_sync d3d12_resource_state_sync(D3D12_RESOURCE_STATES state);

/* What must see earlier writes after one ResourceBarrier (the end of a split one): a
 * transition's state after; a UAV barrier's UNORDERED_ACCESS stages with every access of
 * theirs; anything after an aliasing barrier. */
struct d3d12_state_sync d3d12_resource_barrier_sync(const D3D12_RESOURCE_BARRIER *barrier);

#endif
