/* The barrier tracker's decisions (src/sync/barrier_tracker.h), without a device: the
 * tracker is compiled into this test with vkCmdPipelineBarrier2 replaced by a recorder, so
 * each case checks exactly which barriers a sequence of commands gets (how many, which
 * stages and accesses, into which command buffer), not merely that nothing crashed. With it,
 * what each D3D12 resource state asks of the tracker (src/commands/resource_states.h). The
 * same decisions on a device: tests/test_barriers.c. */
#include <stdio.h>
#include <string.h>

#define vkCmdPipelineBarrier2 recorded_vkCmdPipelineBarrier2
#include "sync/barrier_tracker.c"
#undef vkCmdPipelineBarrier2
#include "commands/resource_states.c"

#include "harness.h"

#define COMPUTE VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT
#define TRANSFER VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT
#define ALL VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT
#define INDIRECT VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT
#define VERTEX VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT
#define TESSELLATION (VK_PIPELINE_STAGE_2_TESSELLATION_CONTROL_SHADER_BIT | VK_PIPELINE_STAGE_2_TESSELLATION_EVALUATION_SHADER_BIT)
#define GEOMETRY VK_PIPELINE_STAGE_2_GEOMETRY_SHADER_BIT
#define FRAGMENT VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT
#define ANY_SHADER (VERTEX | TESSELLATION | GEOMETRY | FRAGMENT | COMPUTE)
#define DEPTH (VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT)
#define COLOR VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT
#define DRAW D3D12_DRAW_STAGES
/* A draw's stages, and a DIRECT list's work stages, on a device without tessellation, geometry,
 * transform feedback or conditional rendering (commands/command_list_state.h). */
#define DRAW_WORK (INDIRECT | VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT | VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT | VERTEX | FRAGMENT \
        | DEPTH | COLOR)
#define DIRECT_WORK (DRAW_WORK | COMPUTE | TRANSFER)
#define MEMORY_WRITE VK_ACCESS_2_MEMORY_WRITE_BIT
#define EVERY D3D12_EVERY_ACCESS
#define SHADER_ACCESS (VK_ACCESS_2_UNIFORM_READ_BIT | VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT)
#define SRV_ACCESS (VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT)
#define STORAGE_ACCESS (VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT)
#define TRANSFER_ACCESS (VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT)
#define COLOR_ACCESS (VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT)
#define DEPTH_ACCESS (VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT)
#define MEMORY_ACCESS (VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT)
#define GENERAL VK_IMAGE_LAYOUT_GENERAL
#define DST VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL
#define SRC VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL

static struct recorded_barrier {
    VkCommandBuffer command_buffer;
    VkMemoryBarrier2 barrier;
    VkImageMemoryBarrier2 images[D3D12_TRANSFER_LAYOUTS];
    uint32_t memory, buffer, image;
} barriers[16];
static unsigned barrier_count;

VKAPI_ATTR void VKAPI_CALL recorded_vkCmdPipelineBarrier2(VkCommandBuffer command_buffer, const VkDependencyInfo *dependency)
{
    if (barrier_count < sizeof(barriers) / sizeof(*barriers)) {
        struct recorded_barrier *b = &barriers[barrier_count];
        memset(b, 0, sizeof(*b));
        b->command_buffer = command_buffer;
        if (dependency->memoryBarrierCount)
            b->barrier = dependency->pMemoryBarriers[0];
        b->memory = dependency->memoryBarrierCount;
        b->buffer = dependency->bufferMemoryBarrierCount;
        b->image = dependency->imageMemoryBarrierCount;
        for (uint32_t i = 0; i < b->image && i < D3D12_TRANSFER_LAYOUTS; i++)
            b->images[i] = dependency->pImageMemoryBarriers[i];
    }
    barrier_count++;
}

/* A command buffer handle the tracker only passes on. */
static VkCommandBuffer const command_buffer = (VkCommandBuffer)(uintptr_t)0x1234;

static void start(struct d3d12_barrier_tracker *tracker, VkPipelineStageFlags2 work_stages)
{
    memset(tracker, 0xcd, sizeof(*tracker)); /* reset must set every field */
    d3d12_barriers_reset(tracker, work_stages);
    barrier_count = 0;
}

/* Barrier i is one global memory dependency, src -> dst, into the command buffer. */
static void check_barrier(unsigned i, VkPipelineStageFlags2 src, VkAccessFlags2 src_access, VkPipelineStageFlags2 dst,
        VkAccessFlags2 dst_access, int line)
{
    const struct recorded_barrier *b = &barriers[i];
    harness_check(i < barrier_count, __FILE__, line, "barrier %u was not emitted (%u were)", i, barrier_count);
    if (i >= barrier_count)
        return;
    harness_check(b->command_buffer == command_buffer && b->memory == 1 && !b->buffer && !b->image, __FILE__, line,
            "barrier %u: one memory barrier into the command buffer (%u memory, %u buffer, %u image)", i, b->memory, b->buffer, b->image);
    harness_check(b->barrier.sType == VK_STRUCTURE_TYPE_MEMORY_BARRIER_2 && b->barrier.srcStageMask == src && b->barrier.srcAccessMask == src_access
            && b->barrier.dstStageMask == dst && b->barrier.dstAccessMask == dst_access, __FILE__, line,
            "barrier %u is 0x%llx/0x%llx -> 0x%llx/0x%llx, expected 0x%llx/0x%llx -> 0x%llx/0x%llx", i,
            (unsigned long long)b->barrier.srcStageMask, (unsigned long long)b->barrier.srcAccessMask,
            (unsigned long long)b->barrier.dstStageMask, (unsigned long long)b->barrier.dstAccessMask,
            (unsigned long long)src, (unsigned long long)src_access, (unsigned long long)dst, (unsigned long long)dst_access);
}
#define CHECK_BARRIER(i, src, src_access, dst, dst_access) check_barrier(i, src, src_access, dst, dst_access, __LINE__)
#define CHECK_COUNT(n) CHECK_MSG(barrier_count == (n), "%u barriers emitted, expected %u", barrier_count, (unsigned)(n))

/* Without a request, commands get no barrier; a ResourceBarrier with nothing recorded since
 * the last barrier requests nothing. */
static void test_nothing_requested(void)
{
    struct d3d12_barrier_tracker tracker;

    start(&tracker, COMPUTE | TRANSFER);
    CHECK(!tracker.recorded && !tracker.waiting && !tracker.emitted && d3d12_barriers_unordered(&tracker, ALL) == 0);
    d3d12_barriers_request_recorded(&tracker, MEMORY_WRITE, ALL, EVERY);
    CHECK(!tracker.waiting);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    CHECK_COUNT(0);
    CHECK(tracker.recorded == (COMPUTE | TRANSFER));
    CHECK(d3d12_barriers_unordered(&tracker, COMPUTE) == (COMPUTE | TRANSFER));
}

/* Dispatch, a ResourceBarrier into every stage, then commands of each stage: one barrier per
 * stage, from the recorded stage to the command's own, with that stage's accesses; then
 * nothing is waiting. */
static void test_before_once_per_stage(void)
{
    struct d3d12_barrier_tracker tracker;

    start(&tracker, COMPUTE | TRANSFER);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    d3d12_barriers_request_recorded(&tracker, MEMORY_WRITE, ALL, EVERY);
    CHECK(tracker.recorded == 0 && tracker.waiting == (COMPUTE | TRANSFER));
    CHECK(tracker.stages[stage_slot(COMPUTE)].src_stages == COMPUTE && tracker.stages[stage_slot(TRANSFER)].src_access == MEMORY_WRITE);
    CHECK(d3d12_barriers_unordered(&tracker, COMPUTE) == COMPUTE);
    CHECK_COUNT(0); /* lazily: nothing until a command needs it */

    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    CHECK_COUNT(1);
    CHECK_BARRIER(0, COMPUTE, MEMORY_WRITE, COMPUTE, SHADER_ACCESS);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    CHECK_COUNT(1); /* the compute stage already waited */
    CHECK(tracker.waiting == TRANSFER); /* the transfer stage has not */

    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    CHECK_COUNT(2);
    CHECK_BARRIER(1, COMPUTE, MEMORY_WRITE, TRANSFER, TRANSFER_ACCESS);
    CHECK(!tracker.waiting && !tracker.stages[stage_slot(TRANSFER)].src_stages && !tracker.stages[stage_slot(TRANSFER)].src_access);
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    CHECK_COUNT(2);
    CHECK(tracker.emitted == 2);
    CHECK(tracker.recorded == (COMPUTE | TRANSFER));
}

/* A second request before the first is emitted everywhere merges with it: the stage that
 * already waited waits for what is new to it; the other waits once, for both. */
static void test_requests_merge(void)
{
    struct d3d12_barrier_tracker tracker;

    start(&tracker, COMPUTE | TRANSFER);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);            /* Dispatch */
    d3d12_barriers_request_recorded(&tracker, MEMORY_WRITE, ALL, EVERY); /* ResourceBarrier */
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);           /* Copy: waits for the dispatch */
    CHECK_COUNT(1);
    CHECK_BARRIER(0, COMPUTE, MEMORY_WRITE, TRANSFER, TRANSFER_ACCESS);
    CHECK(tracker.waiting == COMPUTE && tracker.recorded == TRANSFER);
    d3d12_barriers_request_recorded(&tracker, MEMORY_WRITE, ALL, EVERY); /* ResourceBarrier */
    CHECK(tracker.waiting == (COMPUTE | TRANSFER) && tracker.recorded == 0);
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);           /* Copy: waits for the copy */
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);            /* Dispatch: for both */
    CHECK_COUNT(3);
    CHECK_BARRIER(1, TRANSFER, MEMORY_WRITE, TRANSFER, TRANSFER_ACCESS);
    CHECK_BARRIER(2, COMPUTE | TRANSFER, MEMORY_WRITE, COMPUTE, SHADER_ACCESS);
    CHECK(!tracker.waiting);

    /* Two ResourceBarrier calls in a row are one request. */
    start(&tracker, COMPUTE | TRANSFER);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    d3d12_barriers_request_recorded(&tracker, MEMORY_WRITE, ALL, EVERY);
    d3d12_barriers_request_recorded(&tracker, MEMORY_WRITE, ALL, EVERY);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    CHECK_COUNT(1);
    CHECK_BARRIER(0, COMPUTE, MEMORY_WRITE, COMPUTE, SHADER_ACCESS);
}

/* A memory wait's request names ALL_COMMANDS alone, whatever was requested or recorded
 * before, and orders everything recorded: a ResourceBarrier right after requests no more. */
static void test_request_all_commands(void)
{
    struct d3d12_barrier_tracker tracker;

    start(&tracker, COMPUTE | TRANSFER);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    d3d12_barriers_request_recorded(&tracker, MEMORY_WRITE, ALL, EVERY);
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    d3d12_barriers_request(&tracker, ALL, MEMORY_WRITE, ALL, EVERY);
    CHECK(tracker.stages[stage_slot(COMPUTE)].src_stages == ALL && tracker.stages[stage_slot(TRANSFER)].src_stages == ALL);
    CHECK(tracker.recorded == 0 && tracker.waiting == (COMPUTE | TRANSFER));
    d3d12_barriers_request_recorded(&tracker, MEMORY_WRITE, ALL, EVERY);
    CHECK(tracker.stages[stage_slot(COMPUTE)].src_stages == ALL);
    CHECK(d3d12_barriers_unordered(&tracker, TRANSFER) == ALL);
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    CHECK_COUNT(2);
    CHECK_BARRIER(1, ALL, MEMORY_WRITE, TRANSFER, TRANSFER_ACCESS);
    /* A request from named stages takes only the recorded work they cover. */
    start(&tracker, COMPUTE | TRANSFER);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    d3d12_barriers_request(&tracker, TRANSFER, MEMORY_WRITE, ALL, EVERY);
    CHECK(tracker.stages[stage_slot(COMPUTE)].src_stages == TRANSFER && tracker.stages[stage_slot(COMPUTE)].unrequested == COMPUTE);
    CHECK(d3d12_barriers_unordered(&tracker, COMPUTE) == (COMPUTE | TRANSFER));
}

/* A full barrier is emitted at once and leaves nothing pending. */
static void test_full_clears(void)
{
    struct d3d12_barrier_tracker tracker;

    start(&tracker, COMPUTE | TRANSFER);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    d3d12_barriers_request_recorded(&tracker, MEMORY_WRITE, ALL, EVERY);
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    d3d12_barriers_full(&tracker, command_buffer);
    CHECK_COUNT(2);
    CHECK_BARRIER(1, ALL, MEMORY_WRITE, ALL, MEMORY_ACCESS);
    CHECK(!tracker.recorded && !tracker.waiting && !tracker.stages[stage_slot(COMPUTE)].src_stages);
    CHECK(d3d12_barriers_unordered(&tracker, ALL) == 0);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE); /* the pending compute wait went with it */
    d3d12_barriers_request_recorded(&tracker, MEMORY_WRITE, ALL, EVERY);
    d3d12_barriers_full(&tracker, command_buffer);
    d3d12_barriers_request_recorded(&tracker, MEMORY_WRITE, ALL, EVERY); /* nothing recorded since the full barrier */
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    CHECK_COUNT(3);
    CHECK_BARRIER(2, ALL, MEMORY_WRITE, ALL, MEMORY_ACCESS);
}

/* Barriers emitted now (a command's own steps, a bottom-of-pipe write) change nothing the
 * tracker remembers. */
static void test_emit_now(void)
{
    struct d3d12_barrier_tracker tracker, before;

    start(&tracker, COMPUTE | TRANSFER);
    d3d12_barriers_after_unordered(&tracker, command_buffer, MEMORY_WRITE, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    CHECK_COUNT(0); /* the list's start ordered everything */

    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    d3d12_barriers_request_recorded(&tracker, MEMORY_WRITE, ALL, EVERY);
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    before = tracker;
    d3d12_barriers_after_unordered(&tracker, command_buffer, 0, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    d3d12_barriers_emit(&tracker, command_buffer, TRANSFER, VK_ACCESS_2_TRANSFER_WRITE_BIT, COMPUTE, SHADER_ACCESS);
    CHECK_COUNT(3);
    /* Into the copy stage: the transfer work since its wait (the compute work it waited for is ordered). */
    CHECK_BARRIER(1, TRANSFER, 0, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    CHECK_BARRIER(2, TRANSFER, VK_ACCESS_2_TRANSFER_WRITE_BIT, COMPUTE, SHADER_ACCESS);
    CHECK(tracker.emitted == before.emitted + 2);
    CHECK(tracker.recorded == before.recorded && tracker.waiting == before.waiting && tracker.work_stages == before.work_stages
            && !memcmp(tracker.stages, before.stages, sizeof(tracker.stages)));
    /* Into the compute stage, which still waits for the dispatch: both. */
    CHECK(d3d12_barriers_unordered(&tracker, COMPUTE) == (COMPUTE | TRANSFER));
    /* The compute stage still gets the ResourceBarrier's dependency. */
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    CHECK_COUNT(4);
    CHECK_BARRIER(3, COMPUTE, MEMORY_WRITE, COMPUTE, SHADER_ACCESS);
    /* Work a command ordered itself (a marker write) is noted, and a later request waits for it. */
    d3d12_barriers_note(&tracker, ALL);
    CHECK(d3d12_barriers_unordered(&tracker, COMPUTE) == ALL);
    /* A stage the tracker does not keep (the host) is ordered after nothing. */
    start(&tracker, COMPUTE | TRANSFER);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    d3d12_barriers_request_recorded(&tracker, MEMORY_WRITE, COMPUTE, EVERY);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    CHECK(d3d12_barriers_unordered(&tracker, VK_PIPELINE_STAGE_2_HOST_BIT) == COMPUTE);
    /* Nor is a stage outside the work stages: a COPY list's internal dispatch (a value write)
     * after a memory wait waits for everything earlier, as the transfer stage will. */
    start(&tracker, TRANSFER);
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    d3d12_barriers_request(&tracker, ALL, MEMORY_WRITE, ALL, EVERY);
    CHECK(tracker.waiting == TRANSFER && !tracker.stages[stage_slot(COMPUTE)].src_stages);
    CHECK(d3d12_barriers_unordered(&tracker, COMPUTE) == ALL);
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    CHECK(d3d12_barriers_unordered(&tracker, COMPUTE) == TRANSFER);
}

/* The console's commands after draws (on a device: tests/test_console_graphics.c). A
 * bottom-of-pipe write waits for every stage the draws ran in, fragment shaders, depth tests and
 * colour writes among them, and with a write-back makes their writes available; after
 * FlushPipelineX it needs no barrier of its own; after a mid-list wait the next draw waits for
 * everything earlier, in every stage it runs. */
static void test_console_after_draws(void)
{
    /* what a draw notes (commands/command_list_state.h, d3d12_draw_stages, this device) */
    const VkPipelineStageFlags2 a_draw = VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT | VERTEX | FRAGMENT | DEPTH | COLOR;
    const VkPipelineStageFlags2 draw_slots = VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT | VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT | VERTEX
            | FRAGMENT | DEPTH | COLOR;
    struct d3d12_barrier_tracker tracker;

    start(&tracker, DIRECT_WORK);
    d3d12_barriers_before(&tracker, command_buffer, a_draw);
    d3d12_barriers_before(&tracker, command_buffer, a_draw);
    CHECK(d3d12_barriers_unordered(&tracker, COMPUTE) == a_draw);
    d3d12_barriers_after_unordered(&tracker, command_buffer, MEMORY_WRITE, COMPUTE, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    CHECK_COUNT(1);
    CHECK_BARRIER(0, a_draw, MEMORY_WRITE, COMPUTE, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);

    /* FlushPipelineX: a full barrier, after which the value write waits for nothing more. */
    d3d12_barriers_before(&tracker, command_buffer, a_draw);
    d3d12_barriers_full(&tracker, command_buffer);
    d3d12_barriers_after_unordered(&tracker, command_buffer, 0, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    CHECK_COUNT(2);
    CHECK_BARRIER(1, ALL, MEMORY_WRITE, ALL, MEMORY_ACCESS);

    /* A mid-list wait between draws: the next draw cannot be in the open pass (a barrier is
     * pending for its stages), and waits for everything, with every access its stages make. */
    d3d12_barriers_before(&tracker, command_buffer, a_draw);
    d3d12_barriers_request(&tracker, ALL, MEMORY_WRITE, ALL, EVERY);
    CHECK(d3d12_barriers_pending(&tracker, a_draw));
    d3d12_barriers_before(&tracker, command_buffer, a_draw);
    CHECK_COUNT(3);
    CHECK_BARRIER(2, ALL, MEMORY_WRITE, draw_slots, VK_ACCESS_2_INDEX_READ_BIT | VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT | SHADER_ACCESS
            | DEPTH_ACCESS | COLOR_ACCESS);
    CHECK(!d3d12_barriers_pending(&tracker, a_draw));
}

/* Reset forgets everything: what was recorded and requested, and the count. */
static void test_reset(void)
{
    struct d3d12_barrier_tracker tracker;

    start(&tracker, COMPUTE | TRANSFER);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    d3d12_barriers_request_recorded(&tracker, MEMORY_WRITE, ALL, EVERY);
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    d3d12_barriers_request(&tracker, ALL, MEMORY_WRITE, ALL, EVERY);
    d3d12_barriers_reset(&tracker, TRANSFER);
    CHECK(tracker.work_stages == TRANSFER && !tracker.recorded && !tracker.waiting && !tracker.emitted);
    for (unsigned i = 0; i < D3D12_TRACKED_STAGE_COUNT; i++)
        CHECK(!tracker.stages[i].src_stages && !tracker.stages[i].unrequested && !tracker.stages[i].src_access && !tracker.stages[i].dst_access);
    barrier_count = 0;
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    CHECK_COUNT(0);
}

/* The stages the tracker keeps apart: one slot each, and what the stages a command or a state
 * names come to. */
static void test_tracked_stages(void)
{
    VkPipelineStageFlags2 seen = 0;

    CHECK(__builtin_popcountll(D3D12_TRACKED_STAGES) == D3D12_TRACKED_STAGE_COUNT);
    for (VkPipelineStageFlags2 rest = D3D12_TRACKED_STAGES; rest; rest &= rest - 1) {
        unsigned slot = stage_slot(rest & -rest);
        CHECK_MSG(slot < D3D12_TRACKED_STAGE_COUNT && !(seen & (1ull << slot)), "stage 0x%llx has slot %u", (unsigned long long)(rest & -rest), slot);
        seen |= 1ull << slot;
    }
    CHECK(d3d12_tracked_stages(ALL) == D3D12_TRACKED_STAGES);
    CHECK(d3d12_tracked_stages(VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT) == DRAW);
    CHECK(d3d12_tracked_stages(VK_PIPELINE_STAGE_2_COPY_BIT) == TRANSFER);
    CHECK(d3d12_tracked_stages(VK_PIPELINE_STAGE_2_CLEAR_BIT | VK_PIPELINE_STAGE_2_RESOLVE_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT) == TRANSFER);
    CHECK(d3d12_tracked_stages(VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT) == (VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT
            | VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT));
    CHECK(d3d12_tracked_stages(VK_PIPELINE_STAGE_2_PRE_RASTERIZATION_SHADERS_BIT) == (VERTEX | TESSELLATION | GEOMETRY));
    CHECK(d3d12_tracked_stages(COMPUTE | COLOR) == (COMPUTE | COLOR));
    CHECK(d3d12_tracked_stages(VK_PIPELINE_STAGE_2_HOST_BIT | VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT | VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT) == 0);
}

/* Every D3D12 resource state: the stages and accesses of the commands that use a resource in
 * it, and the layout that suits an image in it. */
static void test_state_table(void)
{
    static const struct {
        D3D12_RESOURCE_STATES state;
        VkPipelineStageFlags2 stages;
        VkAccessFlags2 access;
        VkImageLayout layout;
    } expected[] = {
        {D3D12_RESOURCE_STATE_COMMON, ALL, MEMORY_ACCESS, GENERAL},
        {D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER, VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT | ANY_SHADER,
                VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT | VK_ACCESS_2_UNIFORM_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT, GENERAL},
        {D3D12_RESOURCE_STATE_INDEX_BUFFER, VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT,
                VK_ACCESS_2_INDEX_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT, GENERAL},
        {D3D12_RESOURCE_STATE_RENDER_TARGET, COLOR, COLOR_ACCESS, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL},
        {D3D12_RESOURCE_STATE_UNORDERED_ACCESS, ANY_SHADER | TRANSFER, STORAGE_ACCESS | VK_ACCESS_2_TRANSFER_WRITE_BIT, GENERAL},
        {D3D12_RESOURCE_STATE_DEPTH_WRITE, DEPTH, DEPTH_ACCESS, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL},
        {D3D12_RESOURCE_STATE_DEPTH_READ, DEPTH, VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT, VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL},
        {D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE, ANY_SHADER & ~FRAGMENT, SRV_ACCESS, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
        {D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE, FRAGMENT, SRV_ACCESS, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
        {D3D12_RESOURCE_STATE_ALL_SHADER_RESOURCE, ANY_SHADER, SRV_ACCESS, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
        {D3D12_RESOURCE_STATE_STREAM_OUT, VK_PIPELINE_STAGE_2_TRANSFORM_FEEDBACK_BIT_EXT, VK_ACCESS_2_TRANSFORM_FEEDBACK_WRITE_BIT_EXT
                | VK_ACCESS_2_TRANSFORM_FEEDBACK_COUNTER_READ_BIT_EXT | VK_ACCESS_2_TRANSFORM_FEEDBACK_COUNTER_WRITE_BIT_EXT, GENERAL},
        /* ExecuteIndirect's vertex shaders may read root arguments in the commands */
        {D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT, INDIRECT | VK_PIPELINE_STAGE_2_CONDITIONAL_RENDERING_BIT_EXT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT,
                VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_2_CONDITIONAL_RENDERING_READ_BIT_EXT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT, GENERAL},
        {D3D12_RESOURCE_STATE_COPY_DEST, TRANSFER, VK_ACCESS_2_TRANSFER_WRITE_BIT, DST},
        {D3D12_RESOURCE_STATE_COPY_SOURCE, TRANSFER, VK_ACCESS_2_TRANSFER_READ_BIT, SRC},
        {D3D12_RESOURCE_STATE_RESOLVE_DEST, TRANSFER, VK_ACCESS_2_TRANSFER_WRITE_BIT, DST},
        {D3D12_RESOURCE_STATE_RESOLVE_SOURCE, TRANSFER, VK_ACCESS_2_TRANSFER_READ_BIT, SRC},
        /* Combinations: the union; one layout where one fits them all. */
        {D3D12_RESOURCE_STATE_DEPTH_READ | D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE, DEPTH | FRAGMENT,
                VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | SRV_ACCESS, VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL},
        {D3D12_RESOURCE_STATE_GENERIC_READ, VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT | VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT | ANY_SHADER
                | INDIRECT | VK_PIPELINE_STAGE_2_CONDITIONAL_RENDERING_BIT_EXT | TRANSFER, VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT
                | VK_ACCESS_2_UNIFORM_READ_BIT | VK_ACCESS_2_INDEX_READ_BIT | SRV_ACCESS | VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT
                | VK_ACCESS_2_CONDITIONAL_RENDERING_READ_BIT_EXT | VK_ACCESS_2_TRANSFER_READ_BIT, GENERAL},
        {D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE | D3D12_RESOURCE_STATE_COPY_SOURCE, (ANY_SHADER & ~FRAGMENT) | TRANSFER,
                SRV_ACCESS | VK_ACCESS_2_TRANSFER_READ_BIT, GENERAL},
        /* States of work d3d12xs does not run: any stage may use them. */
        {D3D12_RESOURCE_STATE_RAYTRACING_ACCELERATION_STRUCTURE, ALL, MEMORY_ACCESS, GENERAL},
        {D3D12_RESOURCE_STATE_SHADING_RATE_SOURCE, ALL, MEMORY_ACCESS, GENERAL},
        {D3D12_RESOURCE_STATE_VIDEO_DECODE_READ, ALL, MEMORY_ACCESS, GENERAL},
        {D3D12_RESOURCE_STATE_VIDEO_PROCESS_WRITE, ALL, MEMORY_ACCESS, GENERAL},
        {D3D12_RESOURCE_STATE_VIDEO_ENCODE_WRITE | D3D12_RESOURCE_STATE_COPY_SOURCE, ALL, MEMORY_ACCESS, GENERAL},
    };

    for (size_t i = 0; i < sizeof(expected) / sizeof(*expected); i++) {
        struct d3d12_state_sync sync = d3d12_resource_state_sync(expected[i].state);
        CHECK_MSG(sync.stages == expected[i].stages && sync.access == expected[i].access && sync.layout == expected[i].layout,
                "state 0x%x: stages 0x%llx, access 0x%llx, layout %d; expected 0x%llx, 0x%llx, %d", expected[i].state,
                (unsigned long long)sync.stages, (unsigned long long)sync.access, sync.layout, (unsigned long long)expected[i].stages,
                (unsigned long long)expected[i].access, expected[i].layout);
    }
    /* Every bit of the table is a state whose stages are tracked, or ALL_COMMANDS. */
    for (unsigned bit = 0; bit < 32; bit++) {
        struct d3d12_state_sync sync = d3d12_resource_state_sync((D3D12_RESOURCE_STATES)(1u << bit));
        CHECK_MSG(sync.stages == ALL || !(sync.stages & ~D3D12_TRACKED_STAGES), "state bit %u names untracked stages 0x%llx", bit,
                (unsigned long long)sync.stages);
    }
}

/* What one ResourceBarrier asks for: a transition its state after's stages and accesses, a UAV
 * barrier the UAV stages with all their accesses (so a copy after a copy, with a UAV barrier
 * between as applications write it, sees the first copy's write), an aliasing barrier every
 * stage. */
static void test_barrier_sync(void)
{
    D3D12_RESOURCE_BARRIER transition = {.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION, .Transition = {NULL,
            D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_COPY_SOURCE}};
    D3D12_RESOURCE_BARRIER uav = {.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV}, aliasing = {.Type = D3D12_RESOURCE_BARRIER_TYPE_ALIASING};
    struct d3d12_state_sync sync = d3d12_resource_barrier_sync(&transition);
    struct d3d12_barrier_tracker tracker;

    CHECK(sync.stages == TRANSFER && sync.access == VK_ACCESS_2_TRANSFER_READ_BIT);
    sync = d3d12_resource_barrier_sync(&aliasing);
    CHECK(sync.stages == ALL && sync.access == MEMORY_ACCESS);
    sync = d3d12_resource_barrier_sync(&uav);
    CHECK(sync.stages == (ANY_SHADER | TRANSFER) && sync.access == MEMORY_ACCESS);
    start(&tracker, COMPUTE | TRANSFER | INDIRECT);
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    d3d12_barriers_request_recorded(&tracker, MEMORY_WRITE, sync.stages, sync.access);
    CHECK(tracker.waiting == (COMPUTE | TRANSFER));
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    CHECK_COUNT(1);
    CHECK_BARRIER(0, TRANSFER, MEMORY_WRITE, TRANSFER, TRANSFER_ACCESS);
}

/* A ResourceBarrier the way command_list_barrier.c asks for it: into the stages of the state after. */
static void barrier_to(struct d3d12_barrier_tracker *tracker, D3D12_RESOURCE_STATES after)
{
    struct d3d12_state_sync sync = d3d12_resource_state_sync(after);
    d3d12_barriers_request_recorded(tracker, MEMORY_WRITE, sync.stages, sync.access);
}

/* ClearRenderTargetView after a compute write to the texture (UNORDERED_ACCESS -> RENDER_TARGET):
 * the clear waits for the dispatch however much unrelated work ran in between, and nothing
 * else waits. ClearDepthStencilView likewise in the depth tests. */
static void test_clear_after_compute_write(void)
{
    struct d3d12_barrier_tracker tracker;

    start(&tracker, DIRECT_WORK);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);      /* Dispatch writes the texture */
    barrier_to(&tracker, D3D12_RESOURCE_STATE_RENDER_TARGET);
    CHECK(tracker.waiting == COLOR);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);      /* other work: no reason to wait */
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    CHECK_COUNT(0);
    d3d12_barriers_before(&tracker, command_buffer, COLOR);        /* the clear */
    CHECK_COUNT(1);
    CHECK_BARRIER(0, COMPUTE, MEMORY_WRITE, COLOR, COLOR_ACCESS);
    CHECK(!tracker.waiting);

    /* A depth buffer written by a copy, then DEPTH_WRITE: the clear's load (early tests) and store
     * (late tests) wait. */
    start(&tracker, DIRECT_WORK);
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    barrier_to(&tracker, D3D12_RESOURCE_STATE_DEPTH_WRITE);
    d3d12_barriers_before(&tracker, command_buffer, COLOR);
    CHECK_COUNT(0);
    d3d12_barriers_before(&tracker, command_buffer, DEPTH);
    CHECK_COUNT(1);
    CHECK_BARRIER(0, TRANSFER, MEMORY_WRITE, DEPTH, DEPTH_ACCESS);

    /* A draw waits only in the stages the state names: a pixel shader's read of what a dispatch
     * wrote; the vertex work runs on. */
    start(&tracker, DIRECT_WORK);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    barrier_to(&tracker, D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE);
    d3d12_barriers_before(&tracker, command_buffer, DRAW_WORK);
    CHECK_COUNT(1);
    CHECK_BARRIER(0, COMPUTE, MEMORY_WRITE, FRAGMENT, SRV_ACCESS);
}

/* A compute read after the clear (RENDER_TARGET -> a shader resource, or the UAV state) waits for
 * the colour output; a copy after RENDER_TARGET -> COPY_SOURCE does, and reads. */
static void test_compute_after_clear(void)
{
    static const D3D12_RESOURCE_STATES afters[] = {D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE, D3D12_RESOURCE_STATE_UNORDERED_ACCESS};
    static const VkAccessFlags2 seen[] = {SRV_ACCESS, STORAGE_ACCESS};
    struct d3d12_barrier_tracker tracker;

    for (unsigned i = 0; i < 2; i++) {
        start(&tracker, DIRECT_WORK);
        d3d12_barriers_before(&tracker, command_buffer, COLOR); /* the clear */
        barrier_to(&tracker, afters[i]);
        d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
        CHECK_COUNT(1);
        CHECK_BARRIER(0, COLOR, MEMORY_WRITE, COMPUTE, seen[i]);
    }
    start(&tracker, DIRECT_WORK);
    d3d12_barriers_before(&tracker, command_buffer, COLOR);
    barrier_to(&tracker, D3D12_RESOURCE_STATE_COPY_SOURCE);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    CHECK_COUNT(0);
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    CHECK_COUNT(1);
    CHECK_BARRIER(0, COLOR, MEMORY_WRITE, TRANSFER, VK_ACCESS_2_TRANSFER_READ_BIT);
}

/* Work a request did not order before a stage stays owed to that stage: a dispatch writes two
 * resources, one goes to RENDER_TARGET (the colour stage waits), then the other to COPY_SOURCE with
 * nothing recorded in between: the copy still waits for the dispatch. */
static void test_unrequested_work(void)
{
    struct d3d12_barrier_tracker tracker;

    start(&tracker, DIRECT_WORK);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    barrier_to(&tracker, D3D12_RESOURCE_STATE_RENDER_TARGET);
    d3d12_barriers_before(&tracker, command_buffer, COLOR);
    CHECK_COUNT(1);
    CHECK(d3d12_barriers_unordered(&tracker, TRANSFER) == (COMPUTE | COLOR));
    barrier_to(&tracker, D3D12_RESOURCE_STATE_COPY_SOURCE);
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    CHECK_COUNT(2);
    CHECK_BARRIER(1, COMPUTE | COLOR, MEMORY_WRITE, TRANSFER, VK_ACCESS_2_TRANSFER_READ_BIT);
    /* Back to RENDER_TARGET: the colour stage waits for its own clear and the copy, not again
     * for the dispatch. */
    barrier_to(&tracker, D3D12_RESOURCE_STATE_RENDER_TARGET);
    d3d12_barriers_before(&tracker, command_buffer, COLOR);
    CHECK_COUNT(3);
    CHECK_BARRIER(2, COLOR | TRANSFER, MEMORY_WRITE, COLOR, COLOR_ACCESS);
}

/* The work stages decide which stages a request reaches: a COPY list's transfer alone, a
 * COMPUTE list's compute, transfer and indirect arguments, a DIRECT list's every stage the
 * device runs (not transform feedback, tessellation or geometry, which it does not enable). */
static void test_work_stages(void)
{
    struct d3d12_barrier_tracker tracker;

    start(&tracker, TRANSFER);
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    barrier_to(&tracker, D3D12_RESOURCE_STATE_COMMON);
    CHECK(tracker.waiting == TRANSFER);
    barrier_to(&tracker, D3D12_RESOURCE_STATE_RENDER_TARGET); /* no stage of this list */
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    CHECK_COUNT(1);
    CHECK(!tracker.waiting);

    start(&tracker, COMPUTE | TRANSFER | INDIRECT);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    barrier_to(&tracker, D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT);
    CHECK(tracker.waiting == INDIRECT); /* not conditional rendering */
    d3d12_barriers_before(&tracker, command_buffer, INDIRECT | COMPUTE); /* an indirect dispatch */
    CHECK_COUNT(1);
    CHECK_BARRIER(0, COMPUTE, MEMORY_WRITE, INDIRECT, VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT);

    start(&tracker, DIRECT_WORK);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    barrier_to(&tracker, D3D12_RESOURCE_STATE_COMMON);
    CHECK(tracker.waiting == DIRECT_WORK);
    barrier_to(&tracker, D3D12_RESOURCE_STATE_STREAM_OUT);
    CHECK(tracker.waiting == DIRECT_WORK);
    d3d12_barriers_before(&tracker, command_buffer, INDIRECT);
    d3d12_barriers_before(&tracker, command_buffer, VERTEX | FRAGMENT);
    d3d12_barriers_before(&tracker, command_buffer, COLOR);
    d3d12_barriers_before(&tracker, command_buffer, FRAGMENT); /* already waited */
    CHECK_COUNT(3);
    CHECK_BARRIER(0, COMPUTE, MEMORY_WRITE, INDIRECT, VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT);
    CHECK_BARRIER(1, COMPUTE, MEMORY_WRITE, VERTEX | FRAGMENT, SHADER_ACCESS);
    CHECK_BARRIER(2, COMPUTE, MEMORY_WRITE, COLOR, COLOR_ACCESS);
    CHECK(tracker.waiting == (DIRECT_WORK & ~(INDIRECT | VERTEX | FRAGMENT | COLOR)));
    /* A whole draw: the stages still waiting, in one barrier, with each one's accesses. */
    d3d12_barriers_before(&tracker, command_buffer, VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT);
    CHECK_COUNT(4);
    CHECK_BARRIER(3, COMPUTE, MEMORY_WRITE, VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT | VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT | DEPTH,
            VK_ACCESS_2_INDEX_READ_BIT | VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT | DEPTH_ACCESS);
    CHECK(tracker.waiting == (COMPUTE | TRANSFER));
}
/* Image barrier i of barrier n: the image's range goes from one layout to another. */
static void check_layout(unsigned n, unsigned i, VkImage image, uint32_t mip, VkImageLayout from, VkImageLayout to, int line)
{
    const VkImageMemoryBarrier2 *b = &barriers[n].images[i];
    harness_check(n < barrier_count && i < barriers[n].image && !barriers[n].memory, __FILE__, line,
            "barrier %u has no image barrier %u (%u barriers, %u image barriers)", n, i, barrier_count, n < barrier_count ? barriers[n].image : 0);
    if (n >= barrier_count || i >= barriers[n].image)
        return;
    harness_check(b->image == image && b->subresourceRange.baseMipLevel == mip && b->oldLayout == from && b->newLayout == to, __FILE__, line,
            "image barrier %u.%u: mip %u, layout %d -> %d; expected mip %u, %d -> %d", n, i, b->subresourceRange.baseMipLevel, b->oldLayout,
            b->newLayout, mip, from, to);
}
#define CHECK_LAYOUT(n, i, image, mip, from, to) check_layout(n, i, image, mip, from, to, __LINE__)

static VkImageSubresourceRange mip_range(uint32_t mip)
{
    return (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, mip, 1, 0, 1};
}

/* Copies move what they touch into transfer layouts once; back-to-back copies of the same range
 * need nothing more; the next command that is not a transfer gets everything back in GENERAL
 * in one barrier into every work stage; a restore with nothing moved emits nothing. */
static void test_transfer_layouts(void)
{
    VkImage a = (VkImage)(uintptr_t)0xa0, b = (VkImage)(uintptr_t)0xb0;
    VkImageSubresourceRange mip0 = mip_range(0), mip1 = mip_range(1), both = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 2, 0, 1};
    struct d3d12_barrier_tracker tracker;

    start(&tracker, COMPUTE | TRANSFER);
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    d3d12_barriers_transfer_layout(&tracker, command_buffer, a, &mip0, DST);
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    d3d12_barriers_transfer_layout(&tracker, command_buffer, a, &mip0, DST);
    d3d12_barriers_transfer_layout(&tracker, command_buffer, a, &mip1, DST);
    CHECK_COUNT(2);
    CHECK_LAYOUT(0, 0, a, 0, GENERAL, DST);
    CHECK(barriers[0].images[0].srcStageMask & TRANSFER && barriers[0].images[0].dstStageMask == TRANSFER);
    CHECK_LAYOUT(1, 0, a, 1, GENERAL, DST);
    /* Written, then read by the next copy: DST -> SRC, transfer to transfer. */
    d3d12_barriers_transfer_layout(&tracker, command_buffer, a, &mip0, SRC);
    d3d12_barriers_transfer_layout(&tracker, command_buffer, b, &mip0, DST);
    CHECK_COUNT(4);
    CHECK_LAYOUT(2, 0, a, 0, DST, SRC);
    CHECK(barriers[2].images[0].srcStageMask == TRANSFER && barriers[2].images[0].srcAccessMask == VK_ACCESS_2_TRANSFER_WRITE_BIT);
    CHECK_LAYOUT(3, 0, b, 0, GENERAL, DST);
    CHECK(tracker.transfer_layout_count == 3);
    /* A transfer command restores nothing; a dispatch gets all three back at once. */
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    CHECK_COUNT(4);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    CHECK_COUNT(5);
    CHECK(barriers[4].image == 3 && !barriers[4].memory);
    CHECK_LAYOUT(4, 0, a, 0, SRC, GENERAL);
    CHECK_LAYOUT(4, 1, a, 1, DST, GENERAL);
    CHECK_LAYOUT(4, 2, b, 0, DST, GENERAL);
    CHECK(barriers[4].images[0].dstStageMask == (COMPUTE | TRANSFER) && barriers[4].images[0].dstAccessMask == (SHADER_ACCESS | TRANSFER_ACCESS));
    CHECK(tracker.transfer_layout_count == 0);
    d3d12_barriers_restore_layouts(&tracker, command_buffer);
    CHECK_COUNT(5);

    /* A range that overlaps one a copy left, without being it: everything goes back first. */
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    d3d12_barriers_transfer_layout(&tracker, command_buffer, a, &mip1, DST);
    d3d12_barriers_transfer_layout(&tracker, command_buffer, a, &both, SRC);
    CHECK_COUNT(8);
    CHECK_LAYOUT(5, 0, a, 1, GENERAL, DST);
    CHECK_LAYOUT(6, 0, a, 1, DST, GENERAL);
    CHECK_LAYOUT(7, 0, a, 0, GENERAL, SRC);
    CHECK(barriers[7].images[0].subresourceRange.levelCount == 2 && tracker.transfer_layout_count == 1);

    /* A full table is emptied before the next entry. */
    start(&tracker, COMPUTE | TRANSFER);
    for (uint32_t mip = 0; mip <= D3D12_TRANSFER_LAYOUTS; mip++) {
        VkImageSubresourceRange range = mip_range(mip);
        d3d12_barriers_transfer_layout(&tracker, command_buffer, a, &range, DST);
    }
    CHECK_COUNT(D3D12_TRANSFER_LAYOUTS + 2);
    CHECK(barriers[D3D12_TRANSFER_LAYOUTS].image == D3D12_TRANSFER_LAYOUTS && tracker.transfer_layout_count == 1);

    /* The two images of one copy move in one barrier; asked again, nothing. */
    start(&tracker, COMPUTE | TRANSFER);
    {
        struct d3d12_transfer_layout pair[2] = {{a, mip0, SRC}, {b, mip0, DST}};
        d3d12_barriers_transfer_layouts(&tracker, command_buffer, pair, 2);
        d3d12_barriers_transfer_layouts(&tracker, command_buffer, pair, 2);
    }
    CHECK_COUNT(1);
    CHECK(barriers[0].image == 2);
    CHECK_LAYOUT(0, 0, a, 0, GENERAL, SRC);
    CHECK_LAYOUT(0, 1, b, 0, GENERAL, DST);
}


/* The internal engine's texture work goes through a tracker of its own (memory/texture.c,
 * texture_cpu_access.c): a new texture's first layout, before its zeroing clear or, with none,
 * before any later work; a CPU copy's transfer layout after the work the application waited
 * for, and back, then the host's read. */
static void test_texture_work(void)
{
    VkImage image = (VkImage)(uintptr_t)0xc0;
    VkImageSubresourceRange whole = {VK_IMAGE_ASPECT_COLOR_BIT, 0, VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS}, mip0 = mip_range(0);
    const VkImageMemoryBarrier2 *b = &barriers[0].images[0];
    struct d3d12_barrier_tracker tracker;

    start(&tracker, TRANSFER);
    d3d12_barriers_first_layout(&tracker, command_buffer, image, &whole, VK_PIPELINE_STAGE_2_CLEAR_BIT);
    d3d12_barriers_before(&tracker, command_buffer, VK_PIPELINE_STAGE_2_CLEAR_BIT);
    CHECK_COUNT(1);
    CHECK_LAYOUT(0, 0, image, 0, VK_IMAGE_LAYOUT_UNDEFINED, GENERAL);
    CHECK(barriers[0].image == 1 && b->srcStageMask == VK_PIPELINE_STAGE_2_NONE && b->srcAccessMask == VK_ACCESS_2_NONE
            && b->dstStageMask == VK_PIPELINE_STAGE_2_CLEAR_BIT && b->dstAccessMask == VK_ACCESS_2_TRANSFER_WRITE_BIT
            && b->subresourceRange.levelCount == VK_REMAINING_MIP_LEVELS);
    start(&tracker, TRANSFER);
    d3d12_barriers_first_layout(&tracker, command_buffer, image, &whole, ALL);
    CHECK(barrier_count == 1 && b->srcStageMask == VK_PIPELINE_STAGE_2_NONE && b->dstStageMask == ALL && b->dstAccessMask == MEMORY_ACCESS);

    start(&tracker, TRANSFER);
    d3d12_barriers_note(&tracker, ALL);
    d3d12_barriers_before(&tracker, command_buffer, VK_PIPELINE_STAGE_2_COPY_BIT);
    d3d12_barriers_transfer_layout(&tracker, command_buffer, image, &mip0, DST);
    d3d12_barriers_restore_layouts(&tracker, command_buffer);
    CHECK_COUNT(2);
    CHECK_LAYOUT(0, 0, image, 0, GENERAL, DST);
    CHECK(b->srcStageMask == ALL && b->srcAccessMask == MEMORY_WRITE && b->dstStageMask == TRANSFER && b->dstAccessMask == TRANSFER_ACCESS);
    CHECK_LAYOUT(1, 0, image, 0, DST, GENERAL);
    CHECK(barriers[1].images[0].srcStageMask == TRANSFER && barriers[1].images[0].dstStageMask == TRANSFER);
}
int main(void)
{
    harness_init();
    test_nothing_requested();
    test_before_once_per_stage();
    test_requests_merge();
    test_request_all_commands();
    test_full_clears();
    test_emit_now();
    test_console_after_draws();
    test_reset();
    test_tracked_stages();
    test_state_table();
    test_barrier_sync();
    test_clear_after_compute_write();
    test_compute_after_clear();
    test_unrequested_work();
    test_work_stages();
    test_transfer_layouts();
    test_texture_work();
    return harness_finish();
}
