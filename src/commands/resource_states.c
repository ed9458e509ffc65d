/* What D3D12's resource states mean in Vulkan (resource_states.h). The stages are those of
 * d3d12xs's own commands: UAV clears are transfer commands here, so UNORDERED_ACCESS includes
 * the transfer stage; a command that uses a state elsewhere (an indirect argument read by a
 * compute pass) adds its stage here. */
#include "commands/resource_states.h"

#define SHADERS (VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_TESSELLATION_CONTROL_SHADER_BIT \
        | VK_PIPELINE_STAGE_2_TESSELLATION_EVALUATION_SHADER_BIT | VK_PIPELINE_STAGE_2_GEOMETRY_SHADER_BIT \
        | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT)
#define NON_PIXEL_SHADERS (SHADERS & ~VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT)
#define DEPTH_TESTS (VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT)
#define SRV_READS (VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT)
#define EVERY_STAGE VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT
#define EVERY_ACCESS (VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT)
/* A state only buffers take: no layout of its own. */
#define NO_LAYOUT VK_IMAGE_LAYOUT_MAX_ENUM

static const struct state_row {
    D3D12_RESOURCE_STATES state;
    struct d3d12_state_sync sync;
} rows[] = {
    /* Vertex buffers; constant buffers, read as uniform buffers, or through their address
     * (root CBVs under the memory-based ABI: storage reads). */
    {D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER, {VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT | SHADERS,
            VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT | VK_ACCESS_2_UNIFORM_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT, NO_LAYOUT}},
    /* Index buffers; ExecuteIndirect's own path reads a signature's index buffers in the vertex
     * shader (docs/indirect.md). */
    {D3D12_RESOURCE_STATE_INDEX_BUFFER, {VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT,
            VK_ACCESS_2_INDEX_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT, NO_LAYOUT}},
    /* Draws' blending and ClearRenderTargetView's rendered clear. */
    {D3D12_RESOURCE_STATE_RENDER_TARGET, {VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
            VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL}},
    /* Shaders' UAVs, and ClearUnorderedAccessView*'s fills, clears and copies. */
    {D3D12_RESOURCE_STATE_UNORDERED_ACCESS, {SHADERS | VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
            VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL}},
    /* Depth tests and writes, and ClearDepthStencilView (its load or clear in the early tests,
     * its store in the late ones). */
    {D3D12_RESOURCE_STATE_DEPTH_WRITE, {DEPTH_TESTS, VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT
            | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL}},
    {D3D12_RESOURCE_STATE_DEPTH_READ, {DEPTH_TESTS, VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT, VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL}},
    {D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE, {NON_PIXEL_SHADERS, SRV_READS, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL}},
    {D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE, {VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, SRV_READS, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL}},
    {D3D12_RESOURCE_STATE_STREAM_OUT, {VK_PIPELINE_STAGE_2_TRANSFORM_FEEDBACK_BIT_EXT, VK_ACCESS_2_TRANSFORM_FEEDBACK_WRITE_BIT_EXT
            | VK_ACCESS_2_TRANSFORM_FEEDBACK_COUNTER_READ_BIT_EXT | VK_ACCESS_2_TRANSFORM_FEEDBACK_COUNTER_WRITE_BIT_EXT, NO_LAYOUT}},
    /* INDIRECT_ARGUMENT and PREDICATION are one bit. ExecuteIndirect's vertex shaders may read
     * root arguments in the commands themselves (command_list_indirect.c). */
    {D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT, {VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_CONDITIONAL_RENDERING_BIT_EXT
            | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT, VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_2_CONDITIONAL_RENDERING_READ_BIT_EXT
            | VK_ACCESS_2_SHADER_STORAGE_READ_BIT, NO_LAYOUT}},
    /* Copies, WriteBufferImmediate, ResolveQueryData's destination. */
    {D3D12_RESOURCE_STATE_COPY_DEST, {VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL}},
    {D3D12_RESOURCE_STATE_COPY_SOURCE, {VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL}},
    {D3D12_RESOURCE_STATE_RESOLVE_DEST, {VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL}},
    {D3D12_RESOURCE_STATE_RESOLVE_SOURCE, {VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL}},
};

struct d3d12_state_sync d3d12_resource_state_sync(D3D12_RESOURCE_STATES state)
{
    struct d3d12_state_sync sync = {0, 0, NO_LAYOUT};
    D3D12_RESOURCE_STATES known = 0;

    /* COMMON (PRESENT): a buffer, or a texture with simultaneous access, is promoted from it to
     * whatever state its next use needs, without a barrier. */
    if (state == D3D12_RESOURCE_STATE_COMMON)
        return (struct d3d12_state_sync){EVERY_STAGE, EVERY_ACCESS, VK_IMAGE_LAYOUT_GENERAL};
    for (size_t i = 0; i < sizeof(rows) / sizeof(*rows); i++) {
        const struct d3d12_state_sync *row = &rows[i].sync;
        if (!(state & rows[i].state))
            continue;
        known |= rows[i].state;
        sync.stages |= row->stages;
        sync.access |= row->access;
        if (row->layout == NO_LAYOUT || sync.layout == row->layout)
            continue;
        if (sync.layout == NO_LAYOUT)
            sync.layout = row->layout;
        /* A depth buffer that is also sampled: the read-only depth layout allows both. */
        else if ((sync.layout == VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL && row->layout == VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL)
                || (sync.layout == VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL && row->layout == VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL))
            sync.layout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL;
        else
            sync.layout = VK_IMAGE_LAYOUT_GENERAL;
    }
    /* Acceleration structures, shading-rate images, video: d3d12xs runs no command of their
     * own, so any stage may touch them. */
    if (state & ~known)
        return (struct d3d12_state_sync){EVERY_STAGE, EVERY_ACCESS, VK_IMAGE_LAYOUT_GENERAL};
    if (sync.layout == NO_LAYOUT)
        sync.layout = VK_IMAGE_LAYOUT_GENERAL;
    return sync;
}

struct d3d12_state_sync d3d12_resource_barrier_sync(const D3D12_RESOURCE_BARRIER *barrier)
{
    struct d3d12_state_sync sync;

    switch (barrier->Type) {
    case D3D12_RESOURCE_BARRIER_TYPE_TRANSITION:
        return d3d12_resource_state_sync(barrier->Transition.StateAfter);
    case D3D12_RESOURCE_BARRIER_TYPE_UAV:
        /* Applications use UAV barriers as a general wait (between two copies of one buffer,
         * say) more than D3D12 promises: the stages wait with all their accesses. */
        sync = d3d12_resource_state_sync(D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
        sync.access = EVERY_ACCESS;
        return sync;
    default:
        return d3d12_resource_state_sync(D3D12_RESOURCE_STATE_COMMON);
    }
}
