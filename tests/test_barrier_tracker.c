/* The barrier tracker's decisions (src/sync/barrier_tracker.h), without a device: the
 * tracker is compiled into this test with vkCmdPipelineBarrier2 replaced by a recorder, so
 * each case checks exactly which barriers a sequence of commands gets (how many, which
 * stages and accesses, into which command buffer), not merely that nothing crashed. */
#include <stdio.h>
#include <string.h>

#define vkCmdPipelineBarrier2 recorded_vkCmdPipelineBarrier2
#include "sync/barrier_tracker.c"
#undef vkCmdPipelineBarrier2

#include "harness.h"

#define COMPUTE VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT
#define TRANSFER VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT
#define ALL VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT
#define MEMORY_WRITE VK_ACCESS_2_MEMORY_WRITE_BIT
#define SHADER_ACCESS (VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT)
#define TRANSFER_ACCESS (VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT)
#define MEMORY_ACCESS (VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT)

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
    CHECK(!tracker.recorded && !tracker.src_stages && !tracker.emitted && d3d12_barriers_unordered(&tracker) == 0);
    d3d12_barriers_request_recorded(&tracker, MEMORY_WRITE);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    CHECK_COUNT(0);
    CHECK(tracker.recorded == (COMPUTE | TRANSFER));
    CHECK(d3d12_barriers_unordered(&tracker) == (COMPUTE | TRANSFER));
}

/* Dispatch, ResourceBarrier, then commands of each stage: one barrier per stage, from the
 * recorded stage to the command's own, with that stage's accesses; then the request is done. */
static void test_before_once_per_stage(void)
{
    struct d3d12_barrier_tracker tracker;

    start(&tracker, COMPUTE | TRANSFER);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    d3d12_barriers_request_recorded(&tracker, MEMORY_WRITE);
    CHECK(tracker.recorded == 0 && tracker.src_stages == COMPUTE && tracker.src_access == MEMORY_WRITE);
    CHECK(d3d12_barriers_unordered(&tracker) == COMPUTE);
    CHECK_COUNT(0); /* lazily: nothing until a command needs it */

    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    CHECK_COUNT(1);
    CHECK_BARRIER(0, COMPUTE, MEMORY_WRITE, COMPUTE, SHADER_ACCESS);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    CHECK_COUNT(1); /* the compute stage already waited */
    CHECK(tracker.src_stages == COMPUTE); /* the transfer stage has not */

    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    CHECK_COUNT(2);
    CHECK_BARRIER(1, COMPUTE, MEMORY_WRITE, TRANSFER, TRANSFER_ACCESS);
    CHECK(!tracker.src_stages && !tracker.src_access); /* every work stage waited: done */
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    CHECK_COUNT(2);
    CHECK(tracker.emitted == 2);
    CHECK(tracker.recorded == (COMPUTE | TRANSFER));
}

/* A second request before the first is emitted everywhere merges with it: the stage that
 * already waited waits again, for both. */
static void test_requests_merge(void)
{
    struct d3d12_barrier_tracker tracker;

    start(&tracker, COMPUTE | TRANSFER);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);   /* Dispatch */
    d3d12_barriers_request_recorded(&tracker, MEMORY_WRITE);     /* ResourceBarrier */
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);  /* Copy: waits for the dispatch */
    CHECK_COUNT(1);
    CHECK_BARRIER(0, COMPUTE, MEMORY_WRITE, TRANSFER, TRANSFER_ACCESS);
    CHECK(tracker.src_stages == COMPUTE && tracker.synced == TRANSFER && tracker.recorded == TRANSFER);
    d3d12_barriers_request_recorded(&tracker, MEMORY_WRITE);     /* ResourceBarrier */
    CHECK(tracker.src_stages == (COMPUTE | TRANSFER) && tracker.synced == 0 && tracker.recorded == 0);
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);  /* Copy: waits for both */
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);   /* Dispatch: the same */
    CHECK_COUNT(3);
    CHECK_BARRIER(1, COMPUTE | TRANSFER, MEMORY_WRITE, TRANSFER, TRANSFER_ACCESS);
    CHECK_BARRIER(2, COMPUTE | TRANSFER, MEMORY_WRITE, COMPUTE, SHADER_ACCESS);
    CHECK(!tracker.src_stages);

    /* Two ResourceBarrier calls in a row are one request. */
    start(&tracker, COMPUTE | TRANSFER);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    d3d12_barriers_request_recorded(&tracker, MEMORY_WRITE);
    d3d12_barriers_request_recorded(&tracker, MEMORY_WRITE);
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
    d3d12_barriers_request_recorded(&tracker, MEMORY_WRITE);
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    d3d12_barriers_request(&tracker, ALL, MEMORY_WRITE);
    CHECK(tracker.src_stages == ALL && tracker.recorded == 0 && tracker.synced == 0);
    d3d12_barriers_request_recorded(&tracker, MEMORY_WRITE);
    CHECK(tracker.src_stages == ALL);
    CHECK(d3d12_barriers_unordered(&tracker) == ALL);
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    CHECK_COUNT(2);
    CHECK_BARRIER(1, ALL, MEMORY_WRITE, TRANSFER, TRANSFER_ACCESS);
    /* A request from named stages takes only the recorded work they cover. */
    start(&tracker, COMPUTE | TRANSFER);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    d3d12_barriers_request(&tracker, TRANSFER, MEMORY_WRITE);
    CHECK(tracker.src_stages == TRANSFER && tracker.recorded == COMPUTE);
}

/* A full barrier is emitted at once and leaves nothing pending. */
static void test_full_clears(void)
{
    struct d3d12_barrier_tracker tracker;

    start(&tracker, COMPUTE | TRANSFER);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    d3d12_barriers_request_recorded(&tracker, MEMORY_WRITE);
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    d3d12_barriers_full(&tracker, command_buffer);
    CHECK_COUNT(2);
    CHECK_BARRIER(1, ALL, MEMORY_WRITE, ALL, MEMORY_ACCESS);
    CHECK(!tracker.recorded && !tracker.src_stages && !tracker.src_access && !tracker.synced);
    CHECK(d3d12_barriers_unordered(&tracker) == 0);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE); /* the pending compute wait went with it */
    d3d12_barriers_request_recorded(&tracker, MEMORY_WRITE);
    d3d12_barriers_full(&tracker, command_buffer);
    d3d12_barriers_request_recorded(&tracker, MEMORY_WRITE); /* nothing recorded since the full barrier */
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
    d3d12_barriers_request_recorded(&tracker, MEMORY_WRITE);
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    before = tracker;
    d3d12_barriers_after_unordered(&tracker, command_buffer, 0, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    d3d12_barriers_emit(&tracker, command_buffer, TRANSFER, VK_ACCESS_2_TRANSFER_WRITE_BIT, COMPUTE, SHADER_ACCESS);
    CHECK_COUNT(3);
    CHECK_BARRIER(1, COMPUTE | TRANSFER, 0, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    CHECK_BARRIER(2, TRANSFER, VK_ACCESS_2_TRANSFER_WRITE_BIT, COMPUTE, SHADER_ACCESS);
    CHECK(tracker.emitted == before.emitted + 2);
    CHECK(tracker.recorded == before.recorded && tracker.src_stages == before.src_stages && tracker.src_access == before.src_access
            && tracker.synced == before.synced && tracker.work_stages == before.work_stages);
    /* The compute stage still gets the ResourceBarrier's dependency. */
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    CHECK_COUNT(4);
    CHECK_BARRIER(3, COMPUTE, MEMORY_WRITE, COMPUTE, SHADER_ACCESS);
    /* Work a command ordered itself (a marker write) is noted, and a later request waits for it. */
    d3d12_barriers_note(&tracker, ALL);
    CHECK(d3d12_barriers_unordered(&tracker) & ALL);
}

/* The work stages decide when a request is done: a transfer-only list's after its transfer
 * stage, a list with graphics stages after each of them, with its own accesses. */
static void test_work_stages(void)
{
    const VkPipelineStageFlags2 graphics = VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT
            | VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT;
    struct d3d12_barrier_tracker tracker;

    start(&tracker, TRANSFER);
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    d3d12_barriers_request_recorded(&tracker, MEMORY_WRITE);
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    CHECK_COUNT(1);
    CHECK(!tracker.src_stages);

    start(&tracker, COMPUTE | TRANSFER | graphics);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    d3d12_barriers_request_recorded(&tracker, MEMORY_WRITE);
    d3d12_barriers_before(&tracker, command_buffer, VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT);
    d3d12_barriers_before(&tracker, command_buffer, VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT);
    d3d12_barriers_before(&tracker, command_buffer, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT);
    d3d12_barriers_before(&tracker, command_buffer, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT); /* already waited */
    CHECK_COUNT(3);
    CHECK_BARRIER(0, COMPUTE, MEMORY_WRITE, VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT, VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT);
    CHECK_BARRIER(1, COMPUTE, MEMORY_WRITE, VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, SHADER_ACCESS);
    CHECK_BARRIER(2, COMPUTE, MEMORY_WRITE, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
            VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    CHECK(tracker.src_stages == COMPUTE); /* compute and transfer have not waited yet */
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    CHECK_COUNT(5);
    CHECK(!tracker.src_stages);
    /* A stage with no narrower accesses waits with every access. */
    d3d12_barriers_request(&tracker, ALL, MEMORY_WRITE);
    d3d12_barriers_before(&tracker, command_buffer, VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT);
    CHECK_BARRIER(5, ALL, MEMORY_WRITE, VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT, MEMORY_ACCESS);
}

/* Reset forgets everything: what was recorded and requested, and the count. */
static void test_reset(void)
{
    struct d3d12_barrier_tracker tracker;

    start(&tracker, COMPUTE | TRANSFER);
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    d3d12_barriers_request_recorded(&tracker, MEMORY_WRITE);
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    d3d12_barriers_request(&tracker, ALL, MEMORY_WRITE);
    d3d12_barriers_reset(&tracker, TRANSFER);
    CHECK(tracker.work_stages == TRANSFER && !tracker.recorded && !tracker.src_stages && !tracker.src_access && !tracker.synced && !tracker.emitted);
    barrier_count = 0;
    d3d12_barriers_before(&tracker, command_buffer, COMPUTE);
    d3d12_barriers_before(&tracker, command_buffer, TRANSFER);
    CHECK_COUNT(0);
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
#define GENERAL VK_IMAGE_LAYOUT_GENERAL
#define DST VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL
#define SRC VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL

static VkImageSubresourceRange mip_range(uint32_t mip)
{
    return (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, mip, 1, 0, 1};
}

/* Copies move what they touch into transfer layouts once; back-to-back copies of the same range
 * need nothing more; the next command that is not a transfer gets everything back in GENERAL
 * in one barrier into every stage; a restore with nothing moved emits nothing. */
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
    CHECK(barriers[4].images[0].dstStageMask == ALL && tracker.transfer_layout_count == 0);
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

int main(void)
{
    harness_init();
    test_nothing_requested();
    test_before_once_per_stage();
    test_requests_merge();
    test_request_all_commands();
    test_full_clears();
    test_emit_now();
    test_work_stages();
    test_reset();
    test_transfer_layouts();
    return harness_finish();
}
