/* ExecuteIndirect: the commands of an argument buffer, laid out by a command signature
 * (command_signature.c). Signatures that only draw or dispatch become Vulkan's indirect
 * commands, reading D3D12's argument structures in place (they are Vulkan's, field for field):
 * DRAW vkCmdDrawIndirect(Count), DRAW_INDEXED vkCmdDrawIndexedIndirect(Count), DISPATCH one
 * vkCmdDispatchIndirect per command. INCREMENTING_CONSTANT (the command's index) is a root
 * constant set before each command, each then its own Vulkan draw or dispatch. Where Vulkan has
 * no count form (dispatches, draws one per command), an internal pass first copies the commands
 * below the count into scratch memory and zeroes the rest (shaders/indirect_cap.comp), and the
 * commands read the scratch. Draws take DrawInstanced's path (flush, dynamic state, rendering
 * pass) and dispatches Dispatch's. Signatures that change other state run as generated commands
 * (command_list_generated.c) or, without them, from per-command images in memory
 * (command_list_indirect_image.c, docs/indirect.md). */
#include <stdlib.h>
#include <string.h>

#include "command_recording.h"
#include "command_list_flush.h"
#include "commands/command_list_generated.h"
#include "commands/command_list_graphics.h"
#include "commands/command_signature.h"
#include "commands/indirect_cap.h"
#include "commands/indirect_flush.h"
#include "commands/indirect_image.h"
#include "descriptors/root_signature.h"
#include "device/internal_pipeline.h"
#include "pipelines/graphics_pipeline.h"
#include "indirect_cap_spirv.h"

#define METHOD(name) "ID3D12GraphicsCommandList::" #name

/* A buffer argument (the argument or the count buffer) at a 4-aligned offset inside it; false
 * after the error. */
static bool check_buffer(struct d3d12_command_list *list, const char *command, const char *name, struct d3d12_resource *resource,
        ID3D12Resource *iface, UINT64 offset, uint32_t size)
{
    if (!resource || resource->desc.Dimension != D3D12_RESOURCE_DIMENSION_BUFFER || !resource->vk_buffer) {
        d3d12_command_list_record_error(list, command, "p%s is %s (must be a buffer)", name, !iface ? "NULL" : !resource
                ? "not a d3d12xs resource" : "a texture");
        return false;
    }
    if (offset % 4) {
        d3d12_command_list_record_error(list, command, "%sOffset %llu is not a multiple of 4", name, (unsigned long long)offset);
        return false;
    }
    if (offset >= resource->desc.Width || size > resource->desc.Width - offset) {
        d3d12_command_list_record_error(list, command, "%sOffset %llu (and the %u bytes read there) is past the buffer's %llu bytes", name,
                (unsigned long long)offset, size, (unsigned long long)resource->desc.Width);
        return false;
    }
    return true;
}

/* How many of count commands lie whole in the argument buffer: D3D12 leaves reading past its
 * end undefined (its debug layer reports it); Vulkan forbids it, so the rest are dropped. */
static uint32_t commands_in_buffer(struct d3d12_command_list *list, const char *command, const struct d3d12_command_signature *signature,
        const struct d3d12_resource *buffer, UINT64 offset, uint32_t count)
{
    uint64_t room = buffer->desc.Width - offset, fit;
    uint32_t size = signature->action == D3D12_INDIRECT_ARGUMENT_TYPE_DRAW ? sizeof(D3D12_DRAW_ARGUMENTS)
            : signature->action == D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED ? sizeof(D3D12_DRAW_INDEXED_ARGUMENTS)
            : sizeof(D3D12_DISPATCH_ARGUMENTS);
    uint64_t last = signature->action_offset + size; /* bytes the last command needs */

    fit = room < last ? 0 : 1 + (room - last) / signature->byte_stride; /* the stride is at least the arguments' size */
    if (fit >= count)
        return count;
    d3d12_command_list_debug_warn(list, command, "MaxCommandCount %u commands of %u bytes pass the argument buffer's end (%llu bytes "
            "from ArgumentBufferOffset): only the %llu that fit run", count, signature->byte_stride, (unsigned long long)room,
            (unsigned long long)fit);
    return (uint32_t)fit;
}

/* The argument buffer's bytes the count commands span, and the count's 4 bytes, in the list's
 * record as reads (kind ExecuteIndirect, after the draws or dispatches): the console
 * memory-model validation follows them (what a COMPUTE queue wrote and the prefetch parser may
 * read early, console_validation.h). */
static void note_argument_reads(struct d3d12_command_list *list, const char *command, const struct d3d12_command_signature *signature,
        uint32_t count, const struct d3d12_resource *arguments, UINT64 argument_offset, const struct d3d12_resource *counts, UINT64 count_offset)
{
    uint64_t span = (uint64_t)count * signature->byte_stride, room = arguments->desc.Width - argument_offset;
    const struct d3d12_recorded_range ranges[2] = {
        {arguments->vk_buffer, argument_offset, span < room ? span : room, false, VK_NULL_HANDLE},
        {counts ? counts->vk_buffer : VK_NULL_HANDLE, count_offset, sizeof(UINT32), false, VK_NULL_HANDLE},
    };
    d3d12_command_list_note_with_ranges(list, command, D3D12_RECORDED_INDIRECT_ARGUMENTS, ranges, counts ? 2 : 1);
}

/* indirect_cap.comp's push constants. */
struct cap_batch {
    uint32_t argument_index, stride_words, count_index, command_index, first, size, max_count, words;
};

/* Commands a batch of the capping pass copies: their scratch (at most 20 bytes each) stays
 * within one argument memory chunk. */
#define CAP_BATCH_SIZE 3072u
/* The bytes of the argument buffer one batch binds stay within every device's storage buffer
 * range (maxStorageBufferRange is at least 2^27), with room for the offset's alignment. */
#define CAP_BATCH_RANGE ((1u << 27) - 4096u)

/* indirect_cap.comp: the arguments, the count and the commands; struct cap_batch. */
void d3d12_indirect_cap_create(struct d3d12_device *device)
{
    device->indirect_cap = d3d12xs_internal_pass_create(device, 3, sizeof(struct cap_batch), d3d12_indirect_cap_spirv,
            sizeof(d3d12_indirect_cap_spirv));
}

void d3d12_indirect_cap_destroy(struct d3d12_device *device)
{
    d3d12xs_internal_pass_destroy(device, device->indirect_cap);
    device->indirect_cap = NULL;
}

/* The capping pass's output: command i's arguments at buffers[i / batch_size] +
 * offsets[i / batch_size] + (i % batch_size) * words * 4. */
struct capped_commands {
    VkBuffer *buffers;
    VkDeviceSize *offsets;
    uint32_t batch_size, words;
};

static void capped_command(const struct capped_commands *capped, uint32_t i, VkBuffer *buffer, VkDeviceSize *offset)
{
    *buffer = capped->buffers[i / capped->batch_size];
    *offset = capped->offsets[i / capped->batch_size] + (VkDeviceSize)(i % capped->batch_size) * capped->words * 4;
}

/* The capping pass (indirect_cap.comp): the count commands' arguments (words each, stride bytes
 * apart from first_command in arguments) copied into
 * scratch, those past min(count, MaxCommandCount) zero, made visible to the draw-indirect stage.
 * False after the error (capped is then freed). */
static bool cap_commands(struct d3d12_command_list *list, const char *command, uint32_t stride, uint32_t count, VkBuffer arguments,
        VkDeviceSize first_command, const struct d3d12_resource *counts, UINT64 count_offset, uint32_t words, struct capped_commands *capped)
{
    struct d3d12_device *device = list->object.device;
    const struct d3d12xs_internal_pass *pass = device->indirect_cap;
    uint64_t alignment = device->vk_properties.limits.minStorageBufferOffsetAlignment;
    uint32_t batch_count, batch_size = CAP_BATCH_SIZE;
    VkCommandBuffer cb;
    void *mapped;

    memset(capped, 0, sizeof(*capped));
    if (!pass) {
        d3d12_command_list_record_unsupported(list, command, "pCountBuffer is set, and the internal pipeline that caps the commands "
                "could not be made on %s", device->vk_properties.deviceName);
        return false;
    }
    if ((uint64_t)batch_size * stride > CAP_BATCH_RANGE)
        batch_size = CAP_BATCH_RANGE / stride ? CAP_BATCH_RANGE / stride : 1;
    batch_count = (uint32_t)(((uint64_t)count + batch_size - 1) / batch_size);
    capped->batch_size = batch_size;
    capped->words = words;
    if (!(capped->buffers = malloc(batch_count * sizeof(*capped->buffers)))
            || !(capped->offsets = malloc(batch_count * sizeof(*capped->offsets)))) {
        d3d12_command_list_record_error(list, command, "out of memory for the capped commands");
        goto failed;
    }
    for (uint32_t b = 0; b < batch_count; b++) {
        uint32_t size = count - b * batch_size < batch_size ? count - b * batch_size : batch_size;
        if (FAILED(d3d12_argument_ring_allocate(device, &list->allocator->arguments, size * words * 4, &capped->buffers[b],
                &capped->offsets[b], &mapped, command))) {
            d3d12_command_list_record_error(list, command, "out of memory for the capped commands");
            goto failed;
        }
    }
    cb = d3d12_command_list_begin_internal(list);
    /* The application's barrier into INDIRECT_ARGUMENT waits in the draw-indirect stage; this
     * pass reads in a shader: it waits for the writes no barrier has ordered before compute yet. */
    d3d12_barriers_before(&list->barriers, cb, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
    d3d12_barriers_after_unordered(&list->barriers, cb, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
            VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    device->vk_record.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pass->pipeline);
    for (uint32_t b = 0; b < batch_count; b++) {
        uint32_t size = count - b * batch_size < batch_size ? count - b * batch_size : batch_size;
        uint64_t first = first_command + (uint64_t)b * batch_size * stride;
        uint64_t base = alignment > 1 ? first / alignment * alignment : first;
        struct cap_batch batch = {(uint32_t)((first - base) / 4), stride / 4, 0, 0, b * batch_size, size, count, words};
        VkDescriptorBufferInfo infos[3] = {
            {arguments, base, first - base + (uint64_t)(size - 1) * stride + words * 4},
            d3d12xs_internal_value_range(device, counts->vk_buffer, count_offset, 4, &batch.count_index),
            d3d12xs_internal_value_range(device, capped->buffers[b], capped->offsets[b], 4, &batch.command_index),
        };
        VkWriteDescriptorSet writes[3];
        infos[2].range = capped->offsets[b] - infos[2].offset + (uint64_t)size * words * 4;
        for (uint32_t i = 0; i < 3; i++)
            writes[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = i, .descriptorCount = 1,
                    .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &infos[i]};
        device->vkCmdPushDescriptorSetKHR(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pass->layout.layout, 0, 3, writes);
        device->vk_record.vkCmdPushConstants(cb, pass->layout.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(batch), &batch);
        device->vk_record.vkCmdDispatch(cb, (size + 63) / 64, 1, 1);
    }
    /* the capped commands, before the draws or dispatches that read them */
    d3d12_barriers_emit(&list->barriers, cb, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
            VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT, VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT);
    d3d12_command_list_end_internal(list);
    return true;

failed:
    free(capped->buffers);
    free(capped->offsets);
    return false;
}

/* Command i's INCREMENTING_CONSTANT arguments: i, at their root constants of the bind point
 * (its root signature was checked against the command signature's). */
static void set_incrementing_constants(struct d3d12_command_list *list, const struct d3d12_command_signature *signature,
        enum d3d12_bind_point bind_point, uint32_t i)
{
    for (UINT a = 0; a < signature->argument_count; a++) {
        const D3D12_INDIRECT_ARGUMENT_DESC *argument = &signature->arguments[a];
        if (argument->Type == D3D12_INDIRECT_ARGUMENT_TYPE_INCREMENTING_CONSTANT)
            d3d12_command_list_set_root_constant(list, bind_point, argument->IncrementingConstant.RootParameterIndex, i,
                    argument->IncrementingConstant.DestOffsetIn32BitValues);
    }
}

/* The rounds a draw of the bound pipeline records (after prepare_draw, which checked it is a
 * graphics pipeline): one per view where it draws its views one by one (view instancing at
 * other locations: each view pushed first, by begin_round), all the commands in each; else one. */
static inline uint32_t draw_rounds(struct d3d12_command_list *list)
{
    const struct d3d12_graphics_pipeline *pipeline = list->bindings.pipeline->graphics;
    return pipeline->views_apart ? d3d12_command_list_view_mask(list, pipeline) : 1u;
}

static inline void begin_round(struct d3d12_command_list *list, uint32_t rounds)
{
    if (list->bindings.pipeline->graphics->views_apart)
        d3d12_command_list_push_view(list, (uint32_t)__builtin_ctz(rounds));
}

/* per_command: the signature sets INCREMENTING_CONSTANTs, so each command is its own Vulkan
 * draw after its constant (from the capping pass's scratch with a count buffer). */
static void execute_draws(struct d3d12_command_list *list, const char *command, const struct d3d12_command_signature *signature,
        uint32_t count, const struct d3d12_resource *arguments, UINT64 argument_offset, const struct d3d12_resource *counts,
        UINT64 count_offset, bool per_command, bool from_memory, VkPipeline in_commands)
{
    struct d3d12_indirect_image image = {0};
    const struct d3d12xs_graphics_caps *caps = &list->object.device->graphics;
    bool indexed = signature->action == D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED;
    /* the signature's index buffer: the draws are not indexed, the vertex shaders read the indices
     * and the draw arguments come from the images (command_list_indirect_image.c) */
    bool pulled_indices = from_memory && signature->pulling == D3D12_VERTEX_PULLING_INDEXED;
    VkDeviceSize offset = argument_offset + signature->action_offset;
    uint32_t stride = signature->byte_stride;
    struct capped_commands capped = {0};
    VkCommandBuffer cb;

    if (list->type != D3D12_COMMAND_LIST_TYPE_DIRECT) {
        d3d12_command_list_record_error(list, command, "the signature draws (%s), and only DIRECT lists draw",
                d3d12_indirect_argument_name(signature->action));
        return;
    }
    if (counts && !per_command && !caps->draw_indirect_count) {
        d3d12_command_list_record_unsupported(list, command, "pCountBuffer is set, and %s lacks drawIndirectCount",
                list->object.device->vk_properties.deviceName);
        return;
    }
    if (!caps->draw_indirect_first_instance) {
        d3d12_command_list_record_unsupported(list, command, "%s lacks drawIndirectFirstInstance (a StartInstanceLocation read from memory)",
                list->object.device->vk_properties.deviceName);
        return;
    }
    /* the own path runs the commands as one multi-draw where Vulkan has one (and a count form for a
     * count buffer) and only the vertex shader reads what they set, else one at a time */
    if (in_commands)
        d3d12_command_list_prepare_indirect_in_commands(list, signature, in_commands, arguments, argument_offset, &image);
    else if (from_memory && !d3d12_command_list_prepare_indirect_image(list, command, signature, D3D12_BIND_POINT_GRAPHICS, count, arguments,
            argument_offset, caps->multi_draw_indirect && caps->draw_parameters && (!counts || caps->draw_indirect_count), &image))
        return;
    if (counts && (per_command || (from_memory && !image.draw_indexed)) && !(pulled_indices && image.variant
            ? cap_commands(list, command, image.image_bytes, count, image.buffer, image.offset + image.draw_arguments, counts, count_offset,
                    4, &capped)
            : cap_commands(list, command, stride, count, arguments->vk_buffer, offset, counts, count_offset, indexed ? 5 : 4, &capped)))
        return;
    /* The arguments are read at the draw-indirect stage: a barrier into it cannot stand inside
     * a rendering pass. */
    if (list->bindings.graphics.rendering && d3d12_barriers_pending(&list->barriers, VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT))
        d3d12_command_list_end_rendering(list);
    d3d12_barriers_before(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT);
    if (from_memory) {
        if (!d3d12_command_list_flush_for_commands(list, command, signature, false, indexed && !pulled_indices) || !image.variant)
            goto done;
        d3d12_command_list_bind_indirect_image(list, D3D12_BIND_POINT_GRAPHICS, signature, &image);
        for (uint32_t rounds = draw_rounds(list); rounds; rounds &= rounds - 1) {
            begin_round(list, rounds);
            if (image.draw_indexed) {
                VkCommandBuffer cb = list->vk_command_buffer;
                d3d12_command_list_push_indirect_image(list, &image, 0);
                d3d12_command_list_begin_predicated(list);
                if (pulled_indices && counts)
                    vkCmdDrawIndirectCount(cb, image.buffer, image.offset + image.draw_arguments, counts->vk_buffer, count_offset, count,
                            image.image_bytes);
                else if (pulled_indices)
                    vkCmdDrawIndirect(cb, image.buffer, image.offset + image.draw_arguments, count, image.image_bytes);
                else if (counts && indexed)
                    vkCmdDrawIndexedIndirectCount(cb, arguments->vk_buffer, offset, counts->vk_buffer, count_offset, count, stride);
                else if (counts)
                    vkCmdDrawIndirectCount(cb, arguments->vk_buffer, offset, counts->vk_buffer, count_offset, count, stride);
                else if (indexed)
                    vkCmdDrawIndexedIndirect(cb, arguments->vk_buffer, offset, count, stride);
                else
                    vkCmdDrawIndirect(cb, arguments->vk_buffer, offset, count, stride);
                d3d12_command_list_end_predicated(list);
                continue;
            }
            for (uint32_t i = 0; i < count; i++) {
                VkBuffer buffer = pulled_indices ? image.buffer : arguments->vk_buffer;
                VkDeviceSize at = pulled_indices ? image.offset + (VkDeviceSize)i * image.image_bytes + image.draw_arguments
                        : offset + (VkDeviceSize)i * stride;
                if (counts)
                    capped_command(&capped, i, &buffer, &at);
                d3d12_command_list_push_indirect_image(list, &image, i);
                d3d12_command_list_begin_predicated(list);
                if (indexed && !pulled_indices)
                    vkCmdDrawIndexedIndirect(list->vk_command_buffer, buffer, at, 1, 0);
                else
                    vkCmdDrawIndirect(list->vk_command_buffer, buffer, at, 1, 0);
                d3d12_command_list_end_predicated(list);
            }
        }
        d3d12_command_list_end_indirect_image(list, D3D12_BIND_POINT_GRAPHICS);
        /* a variant without vertex input was bound: the next draw binds the list's vertex
         * buffers and their strides again (lavapipe did not keep them across it: the next draw
         * read no vertices) */
        if (signature->pulling)
            list->bindings.graphics.dirty |= D3D12_GRAPHICS_DIRTY_VERTEX_BUFFERS;
        d3d12_command_list_note_draw(list, command);
        goto done;
    }
    if (per_command) {
        for (uint32_t i = 0; i < count; i++, offset += stride) {
            VkBuffer buffer = arguments->vk_buffer;
            VkDeviceSize at = offset;
            set_incrementing_constants(list, signature, D3D12_BIND_POINT_GRAPHICS, i);
            if (!d3d12_command_list_prepare_draw(list, command, indexed))
                goto done;
            if (counts)
                capped_command(&capped, i, &buffer, &at);
            for (uint32_t rounds = draw_rounds(list); rounds; rounds &= rounds - 1) {
                begin_round(list, rounds);
                d3d12_command_list_begin_predicated(list);
                if (indexed)
                    vkCmdDrawIndexedIndirect(list->vk_command_buffer, buffer, at, 1, 0);
                else
                    vkCmdDrawIndirect(list->vk_command_buffer, buffer, at, 1, 0);
                d3d12_command_list_end_predicated(list);
            }
        }
        d3d12_command_list_note_draw(list, command);
        goto done;
    }
    if (!d3d12_command_list_prepare_draw(list, command, indexed))
        return;
    cb = list->vk_command_buffer;
    for (uint32_t rounds = draw_rounds(list); rounds; rounds &= rounds - 1) {
        begin_round(list, rounds);
        d3d12_command_list_begin_predicated(list);
        if (counts && indexed)
            vkCmdDrawIndexedIndirectCount(cb, arguments->vk_buffer, offset, counts->vk_buffer, count_offset, count, stride);
        else if (counts)
            vkCmdDrawIndirectCount(cb, arguments->vk_buffer, offset, counts->vk_buffer, count_offset, count, stride);
        else if (caps->multi_draw_indirect && indexed)
            vkCmdDrawIndexedIndirect(cb, arguments->vk_buffer, offset, count, stride);
        else if (caps->multi_draw_indirect)
            vkCmdDrawIndirect(cb, arguments->vk_buffer, offset, count, stride);
        else /* one command per Vulkan call */
            for (uint32_t i = 0; i < count; i++)
                indexed ? vkCmdDrawIndexedIndirect(cb, arguments->vk_buffer, offset + (VkDeviceSize)i * stride, 1, 0)
                        : vkCmdDrawIndirect(cb, arguments->vk_buffer, offset + (VkDeviceSize)i * stride, 1, 0);
        d3d12_command_list_end_predicated(list);
    }
    d3d12_command_list_note_draw(list, command);
done:
    free(capped.buffers);
    free(capped.offsets);
}

/* How a draw signature's commands run as one multi-draw (own path, generated commands or not):
 * reading their root arguments in the commands themselves, or from images the image pass writes. */
enum flat_form { FLAT_NONE, FLAT_IN_COMMANDS, FLAT_IMAGES };

/* Whether a draw signature that sets root arguments (flat_draws) runs as one multi-draw: the
 * bound pipeline's vertex shader alone reads what the commands set, and its root signature has
 * room for the address. In the commands themselves where the signature's layout allows
 * (direct_layout), else through images; with generated commands too, which draw slower (the
 * H100's generated draws cost 1.35 x raw generated commands and 1.63 x a multi-draw reading its
 * constants at DrawIndex; lavapipe's 7 x: docs/benchmarks.md). */
static enum flat_form flat_draws_ready(struct d3d12_command_list *list, const struct d3d12_command_signature *signature,
        const struct d3d12_resource *arguments, const struct d3d12_resource *counts, VkPipeline *variant)
{
    struct d3d12_pipeline_state *pipeline = list->bindings.pipeline;
    const struct d3d12xs_graphics_caps *caps = &list->object.device->graphics;
    char error[256];
    HRESULT hr;

    if (!signature->flat_draws || !pipeline || !pipeline->graphics || (counts && !caps->draw_indirect_count)
            || !caps->draw_indirect_first_instance)
        return FLAT_NONE;
    if (d3d12_indirect_image_misfit(list->object.device, pipeline->root_signature, signature) != D3D12_INDIRECT_IMAGE_FITS)
        return FLAT_NONE;
    if (signature->direct_layout.stride && arguments->device_address && (*variant = d3d12_pipeline_state_direct_draw_variant(pipeline,
            signature->root_view_mask, signature->root_constant_mask, &signature->direct_layout, &hr, error, sizeof(error))))
        return FLAT_IN_COMMANDS;
    if (!signature->generated)
        return FLAT_NONE; /* the own path's images decide for themselves */
    return d3d12_pipeline_state_indirect_variant(pipeline, signature->root_view_mask, signature->root_constant_mask, true,
            D3D12_VERTEX_PULLING_NONE, true, &hr, error, sizeof(error)) ? FLAT_IMAGES : FLAT_NONE;
}

/* One vkCmdDispatchIndirect per command (from the capping pass's scratch with a count buffer);
 * per_command: each after its INCREMENTING_CONSTANTs. */
static void execute_dispatches(struct d3d12_command_list *list, const char *command, const struct d3d12_command_signature *signature,
        uint32_t count, const struct d3d12_resource *arguments, UINT64 argument_offset, const struct d3d12_resource *counts,
        UINT64 count_offset, bool per_command, bool from_memory)
{
    VkDeviceSize offset = argument_offset + signature->action_offset;
    struct capped_commands capped = {0};
    struct d3d12_indirect_image image;

    if (!d3d12_command_list_outside_render_pass(list, command))
        return;
    if (counts && !cap_commands(list, command, signature->byte_stride, count, arguments->vk_buffer, argument_offset + signature->action_offset,
            counts, count_offset, 3, &capped))
        return;
    if (from_memory && !d3d12_command_list_prepare_indirect_image(list, command, signature, D3D12_BIND_POINT_COMPUTE, count, arguments,
            argument_offset, false, &image))
        goto done;
    for (uint32_t i = 0; i < count; i++, offset += signature->byte_stride) {
        VkBuffer buffer = arguments->vk_buffer;
        VkDeviceSize at = offset;
        if (per_command)
            set_incrementing_constants(list, signature, D3D12_BIND_POINT_COMPUTE, i);
        if (from_memory && !i) {
            if (!d3d12_command_list_flush_for_commands(list, command, signature, true, false) || !image.variant)
                goto done;
            d3d12_command_list_bind_indirect_image(list, D3D12_BIND_POINT_COMPUTE, signature, &image);
        } else if ((per_command || !i) && !d3d12_command_list_flush_compute(list, command, 0)) {
            goto done;
        }
        if (per_command || !i)
            d3d12_barriers_before(&list->barriers, list->vk_command_buffer,
                    VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT);
        if (from_memory)
            d3d12_command_list_push_indirect_image(list, &image, i);
        if (counts)
            capped_command(&capped, i, &buffer, &at);
        d3d12_command_list_begin_predicated(list);
        vkCmdDispatchIndirect(list->vk_command_buffer, buffer, at);
        d3d12_command_list_end_predicated(list);
    }
    if (from_memory)
        d3d12_command_list_end_indirect_image(list, D3D12_BIND_POINT_COMPUTE);
    d3d12_command_list_note(list, D3D12_RECORDED_DISPATCH, list->record.dispatch_first, list->record.dispatch_count);
done:
    free(capped.buffers);
    free(capped.offsets);
}

void STDMETHODCALLTYPE d3d12_command_list_ExecuteIndirect(ID3D12GraphicsCommandList10 *iface, ID3D12CommandSignature *signature_iface,
        UINT max_count, ID3D12Resource *argument_iface, UINT64 argument_offset, ID3D12Resource *count_iface, UINT64 count_offset)
{
    static const char command[] = METHOD(ExecuteIndirect);
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    struct d3d12_command_signature *signature = unsafe_impl_from_ID3D12CommandSignature(signature_iface);
    struct d3d12_resource *arguments = unsafe_impl_from_ID3D12Resource(argument_iface);
    struct d3d12_resource *counts = count_iface ? unsafe_impl_from_ID3D12Resource(count_iface) : NULL;
    bool dispatch, per_command = false, from_memory = false;
    enum d3d12_bind_point bind_point;
    enum flat_form flat;
    VkPipeline variant = VK_NULL_HANDLE;

    /* Draws may stand inside the rendering pass that earlier draws left open. */
    if (!d3d12_command_list_check_recording_in_pass(list, command))
        return;
    if (list->type == D3D12_COMMAND_LIST_TYPE_COPY) {
        d3d12_command_list_report_copy_list(list, command);
        return;
    }
    if (!signature) {
        d3d12_command_list_record_error(list, command, "pCommandSignature is %s (must be a command signature from CreateCommandSignature)",
                signature_iface ? "not a d3d12xs command signature" : "NULL");
        return;
    }
    if (!check_buffer(list, command, "ArgumentBuffer", arguments, argument_iface, argument_offset, 4)
            || (count_iface && !check_buffer(list, command, "CountBuffer", counts, count_iface, count_offset, sizeof(UINT32))))
        return;
    dispatch = signature->action == D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH;
    bind_point = dispatch ? D3D12_BIND_POINT_COMPUTE : D3D12_BIND_POINT_GRAPHICS;
    if (signature->root_signature && list->bindings.points[bind_point].root_signature != signature->root_signature
            && !(list->bindings.points[bind_point].root_signature
                    && d3d12_root_signatures_compatible(list->bindings.points[bind_point].root_signature, signature->root_signature))) {
        d3d12_command_list_record_error(list, command, "the command signature was made with a root signature that is not the %s one set",
                dispatch ? "compute" : "graphics");
        return;
    }
    /* Signatures that change state run as generated commands where the device has them; without,
     * INCREMENTING_CONSTANTs alone run one command at a time with the constant pushed, other root
     * arguments and vertex or index buffer views from per-command images in memory
     * (command_list_indirect_image.c; the views through vertex shaders that fetch their inputs). */
    for (UINT a = 0; !signature->generated && a + 1 < signature->argument_count; a++) {
        D3D12_INDIRECT_ARGUMENT_TYPE type = signature->arguments[a].Type;
        if (type == D3D12_INDIRECT_ARGUMENT_TYPE_INCREMENTING_CONSTANT) {
            per_command = true;
        } else if (list->object.device->generated_commands.enabled) {
            d3d12_command_list_record_unsupported(list, command, "the command signature changes state (%s), and %s",
                    d3d12_indirect_argument_name(type), signature->generated_why ? signature->generated_why : "d3d12xs cannot run it");
            return;
        } else {
            from_memory = true;
        }
    }
    per_command &= !from_memory; /* the images hold the commands' indexes too */
    if (!max_count || !(max_count = commands_in_buffer(list, command, signature, arguments, argument_offset, max_count)))
        return; /* nothing to run */
    if (!dispatch && (flat = flat_draws_ready(list, signature, arguments, counts, &variant)) != FLAT_NONE) {
        execute_draws(list, command, signature, max_count, arguments, argument_offset, counts, count_offset, false, true,
                flat == FLAT_IN_COMMANDS ? variant : VK_NULL_HANDLE);
    } else if (signature->generated) {
        d3d12_command_list_execute_generated(list, command, signature, max_count, arguments, argument_offset, counts, count_offset);
    } else if (dispatch) {
        if (list->bindings.graphics.rendering)
            d3d12_command_list_end_rendering(list);
        execute_dispatches(list, command, signature, max_count, arguments, argument_offset, counts, count_offset, per_command, from_memory);
    } else {
        execute_draws(list, command, signature, max_count, arguments, argument_offset, counts, count_offset, per_command, from_memory,
                VK_NULL_HANDLE);
    }
    note_argument_reads(list, command, signature, max_count, arguments, argument_offset, counts, count_offset);
}
