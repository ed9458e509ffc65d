/* ExecuteIndirect's own path for signatures that set root constants or root views on a device
 * without generated commands (docs/indirect.md, "Without generated commands"). Push constants
 * cannot be written by the GPU, so the values move to memory: an internal pass
 * (shaders/indirect_image.comp) writes, per command, an image of the push block's layout holding
 * the root constants the command sets (or its index, for INCREMENTING_CONSTANT), the D3D12
 * addresses of the root views it sets and the GPU VA table's address beside each, and the
 * pipeline's variant (pipelines/pipeline_indirect_variant.c) reads those members from the image
 * whose address the list pushes before each command's draw or dispatch. Vertex and index buffer
 * views (the command's or, for the slots it does not set, the list's) follow the push block's copy
 * in the image, their addresses then translated into device addresses by a second pass
 * (shaders/indirect_vertex_views.comp); the variant's vertex shader fetches its inputs from them
 * (spirv/spirv_vertex_pulling.c), and with the signature's index buffer the draws read their
 * arguments from the images, unindexed. */
#include <string.h>

#include "command_recording.h"
#include "commands/command_signature.h"
#include "commands/indirect_image.h"
#include "descriptors/root_signature.h"
#include "device/internal_pipeline.h"
#include "indirect_image_spirv.h"
#include "indirect_vertex_views_spirv.h"
#include "memory/va_map.h"
#include "pipelines/graphics_pipeline.h"
#include "pipelines/pipeline_state.h"

/* indirect_vertex_views.comp's push constants */
struct views_batch {
    uint32_t image_index, image_words, size, view_word, view_count, padding;
    uint64_t table;
};

/* indirect_image.comp's push constants */
struct image_batch {
    uint32_t argument_index, stride_words, source_index, image_index, image_words, words, first, size;
};

#define IMAGE_FROM_LIST 0xffffffffu
#define IMAGE_COMMAND_INDEX 0xfffffffeu
/* Bytes one batch binds, of the arguments and of the images: within every device's storage
 * buffer range (at least 2^27), with room for the offsets' alignment. */
#define IMAGE_BATCH_RANGE ((1u << 27) - 4096u)
#define IMAGE_BATCH_COMMANDS (65535u * 64u)

void d3d12_indirect_image_create(struct d3d12_device *device)
{
    /* with generated commands too: draws whose vertex shader alone reads what the commands set
     * run as one multi-draw there (command_list_indirect.c, flat_draws) */
    if (device->buffer_device_address)
        device->indirect_image = d3d12xs_internal_pass_create(device, 3, sizeof(struct image_batch), d3d12_indirect_image_spirv,
                sizeof(d3d12_indirect_image_spirv));
    if (device->indirect_image && device->has_shader_int64 && d3d12xs_va_table_address(device))
        device->indirect_vertex_views = d3d12xs_internal_pass_create(device, 1, sizeof(struct views_batch),
                d3d12_indirect_vertex_views_spirv, sizeof(d3d12_indirect_vertex_views_spirv));
}

void d3d12_indirect_image_destroy(struct d3d12_device *device)
{
    d3d12xs_internal_pass_destroy(device, device->indirect_image);
    d3d12xs_internal_pass_destroy(device, device->indirect_vertex_views);
    device->indirect_image = NULL;
    device->indirect_vertex_views = NULL;
}

/* The list's vertex buffer views in the image's slot entries (pipeline_state.h's image layout):
 * the slots the signature does not set read them. */
static void list_vertex_views(const struct d3d12_graphics_bindings *graphics, const struct d3d12_indirect_image_layout *layout,
        uint32_t *values)
{
    for (uint32_t slot = 0; slot < layout->slot_count; slot++) {
        const struct d3d12_vertex_buffers *vertex = &graphics->vertex;
        uint32_t *entry = values + layout->slot_entries / 4 + 4 * slot;
        entry[0] = (uint32_t)vertex->addresses[slot];
        entry[1] = (uint32_t)(vertex->addresses[slot] >> 32);
        entry[2] = vertex->view_sizes[slot];
        entry[3] = (uint32_t)vertex->strides[slot];
    }
}

/* Where each word of an image comes from (the command's bytes / 4, the command's index, the
 * list) and the list's values: sources[0..words), then values[0..words). */
static void image_sources(const struct d3d12_root_signature *root, const struct d3d12_command_signature *signature,
        const struct d3d12_bind_point_state *state, const struct d3d12_graphics_bindings *graphics,
        const struct d3d12_indirect_image_layout *layout, uint64_t table, uint32_t words, uint32_t *sources)
{
    uint32_t *values = sources + words, offset = 0, push_words = root->indirect_views_end / 4;

    for (uint32_t w = 0; w < words; w++) {
        sources[w] = IMAGE_FROM_LIST;
        values[w] = w < push_words && w < D3D12XS_MAX_ROOT_CONSTANT_BYTES / 4 ? state->push_constants[w] : 0;
    }
    list_vertex_views(graphics, layout, values);
    for (uint64_t views = signature->root_view_mask; views; views &= views - 1) {
        uint32_t at = root->indirect_view_offsets[__builtin_ctzll(views)] / 4;
        values[at + 2] = (uint32_t)table;
        values[at + 3] = (uint32_t)(table >> 32);
    }
    for (UINT a = 0; a < signature->argument_count; a++) {
        const D3D12_INDIRECT_ARGUMENT_DESC *argument = &signature->arguments[a];
        uint32_t at;
        switch (argument->Type) {
        case D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT:
            at = root->constant_offsets[argument->Constant.RootParameterIndex] / 4 + argument->Constant.DestOffsetIn32BitValues;
            for (UINT k = 0; k < argument->Constant.Num32BitValuesToSet; k++)
                sources[at + k] = offset / 4 + k;
            break;
        case D3D12_INDIRECT_ARGUMENT_TYPE_INCREMENTING_CONSTANT:
            sources[root->constant_offsets[argument->IncrementingConstant.RootParameterIndex] / 4
                    + argument->IncrementingConstant.DestOffsetIn32BitValues] = IMAGE_COMMAND_INDEX;
            break;
        case D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW:
        case D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW:
        case D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW:
            /* the three descs share their layout: the root parameter index first */
            at = root->indirect_view_offsets[argument->ConstantBufferView.RootParameterIndex] / 4;
            sources[at] = offset / 4;
            sources[at + 1] = offset / 4 + 1;
            break;
        case D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW: /* D3D12_VERTEX_BUFFER_VIEW is the entry's layout */
            for (uint32_t k = 0; argument->VertexBuffer.Slot < layout->slot_count && k < 4; k++)
                sources[layout->slot_entries / 4 + 4 * argument->VertexBuffer.Slot + k] = offset / 4 + k;
            break;
        case D3D12_INDIRECT_ARGUMENT_TYPE_INDEX_BUFFER_VIEW: /* so is D3D12_INDEX_BUFFER_VIEW */
            for (uint32_t k = 0; layout->index_entry != UINT32_MAX && k < 4; k++)
                sources[layout->index_entry / 4 + k] = offset / 4 + k;
            break;
        case D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED:
            /* the draw is not indexed: D3D12_DRAW_INDEXED_ARGUMENTS without BaseVertexLocation is
             * a VkDrawIndirectCommand, which the vertex shader adds to each index */
            if (layout->draw_arguments != UINT32_MAX) {
                static const uint32_t draw_words[4] = {0, 1, 2, 4};
                for (uint32_t k = 0; k < 4; k++)
                    sources[layout->draw_arguments / 4 + k] = offset / 4 + draw_words[k];
                sources[layout->base_vertex / 4] = offset / 4 + 3;
            }
            break;
        default:
            break;
        }
        offset += d3d12_indirect_argument_size(argument);
    }
}

/* The vertex and index buffer views of the images, translated in place (indirect_vertex_views.comp):
 * after the image pass's writes, in the same internal stretch. */
static void translate_views(struct d3d12_command_list *list, VkCommandBuffer cb, const struct d3d12_indirect_image_layout *layout,
        uint32_t count, VkBuffer images, VkDeviceSize images_offset, uint32_t batch_size)
{
    struct d3d12_device *device = list->object.device;
    const struct d3d12xs_internal_pass *pass = device->indirect_vertex_views;
    const uint64_t alignment = device->vk_properties.limits.minStorageBufferOffsetAlignment;
    const uint32_t view_count = layout->slot_count + (layout->index_entry != UINT32_MAX);

    d3d12_barriers_emit(&list->barriers, cb, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
            VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    device->vk_record.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pass->pipeline);
    for (uint32_t first = 0; first < count; first += batch_size) {
        uint32_t size = count - first < batch_size ? count - first : batch_size;
        uint64_t out = images_offset + (uint64_t)first * layout->bytes, out_base = alignment > 1 ? out / alignment * alignment : out;
        const struct views_batch batch = {(uint32_t)((out - out_base) / 4), layout->bytes / 4, size, layout->slot_entries / 4, view_count, 0,
                d3d12xs_va_table_address(device)};
        const VkDescriptorBufferInfo info = {images, out_base, out - out_base + (uint64_t)size * layout->bytes};
        const VkWriteDescriptorSet write = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = 0, .descriptorCount = 1,
                .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &info};
        device->vkCmdPushDescriptorSetKHR(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pass->layout.layout, 0, 1, &write);
        device->vk_record.vkCmdPushConstants(cb, pass->layout.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(batch), &batch);
        device->vk_record.vkCmdDispatch(cb, (size + 63) / 64, 1, 1);
    }
}

/* The pass: count images of the layout's bytes from the argument buffer into the allocator's
 * transient memory (image->buffer, offset, address), their vertex and index buffer views
 * translated, made visible to the shader stages and the draw-indirect stage. */
static bool write_images(struct d3d12_command_list *list, const char *command, const struct d3d12_command_signature *signature,
        const struct d3d12_bind_point_state *state, uint32_t count, const struct d3d12_resource *arguments, UINT64 argument_offset,
        const struct d3d12_indirect_image_layout *layout, struct d3d12_indirect_image *image)
{
    struct d3d12_device *device = list->object.device;
    const struct d3d12xs_internal_pass *pass = device->indirect_image;
    const uint64_t alignment = device->vk_properties.limits.minStorageBufferOffsetAlignment;
    const uint32_t stride = signature->byte_stride, image_bytes = layout->bytes, words = image_bytes / 4;
    uint32_t batch_size = IMAGE_BATCH_RANGE / (stride > image_bytes ? stride : image_bytes);
    VkBuffer images, sources;
    VkDeviceSize images_offset, sources_offset;
    void *mapped;
    VkCommandBuffer cb;

    if (batch_size > IMAGE_BATCH_COMMANDS)
        batch_size = IMAGE_BATCH_COMMANDS;
    if (FAILED(d3d12_transient_memory_allocate(device, &list->allocator->transient, (VkDeviceSize)count * image_bytes, 16, &images,
            &images_offset, &image->address, command))
            || FAILED(d3d12_argument_ring_allocate(device, &list->allocator->arguments, words * 8, &sources, &sources_offset, &mapped,
                    command))) {
        d3d12_command_list_record_error(list, command, "out of memory for the commands' root arguments");
        return false;
    }
    image->buffer = images;
    image->offset = images_offset;
    image_sources(list->bindings.pipeline->root_signature, signature, state, &list->bindings.graphics, layout,
            d3d12xs_va_table_address(device), words, mapped);

    cb = d3d12_command_list_begin_internal(list);
    /* The application's barrier into INDIRECT_ARGUMENT waits in the draw-indirect stage; this
     * pass reads in a shader: it waits for the writes no barrier has ordered before compute yet. */
    d3d12_barriers_before(&list->barriers, cb, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
    d3d12_barriers_after_unordered(&list->barriers, cb, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
            VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    device->vk_record.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pass->pipeline);
    for (uint32_t first = 0; first < count; first += batch_size) {
        uint32_t size = count - first < batch_size ? count - first : batch_size;
        uint64_t start = argument_offset + (uint64_t)first * stride, base = alignment > 1 ? start / alignment * alignment : start;
        uint64_t out = images_offset + (uint64_t)first * image_bytes, out_base = alignment > 1 ? out / alignment * alignment : out;
        struct image_batch batch = {(uint32_t)((start - base) / 4), stride / 4, 0, (uint32_t)((out - out_base) / 4), words, words,
                first, size};
        VkDescriptorBufferInfo infos[3] = {
            {arguments->vk_buffer, base, start - base + (uint64_t)size * stride},
            d3d12xs_internal_value_range(device, sources, sources_offset, 4, &batch.source_index),
            {images, out_base, out - out_base + (uint64_t)size * image_bytes},
        };
        VkWriteDescriptorSet writes[3];
        /* the last command may end before the stride does: bind only what the buffer has */
        if (infos[0].offset + infos[0].range > arguments->desc.Width)
            infos[0].range = arguments->desc.Width - infos[0].offset;
        infos[1].range = sources_offset - infos[1].offset + words * 8;
        for (uint32_t i = 0; i < 3; i++)
            writes[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = i, .descriptorCount = 1,
                    .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &infos[i]};
        device->vkCmdPushDescriptorSetKHR(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pass->layout.layout, 0, 3, writes);
        device->vk_record.vkCmdPushConstants(cb, pass->layout.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(batch), &batch);
        device->vk_record.vkCmdDispatch(cb, (size + 63) / 64, 1, 1);
    }
    if (layout->slot_count || layout->index_entry != UINT32_MAX)
        translate_views(list, cb, layout, count, images, images_offset, batch_size);
    /* the images, before the shaders of the draws or dispatches that read them (and, for draws of
     * an index buffer the vertex shaders read, the draw arguments in them) */
    d3d12_barriers_emit(&list->barriers, cb, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
            VK_PIPELINE_STAGE_2_PRE_RASTERIZATION_SHADERS_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT
            | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT);
    d3d12_command_list_end_internal(list);
    return true;
}

/* Whether the bound graphics pipeline's vertex shaders can fetch what the signature's vertex and
 * index buffer views set; false after the E_NOTIMPL line. */
static bool pulling_possible(struct d3d12_command_list *list, const char *command, const struct d3d12_command_signature *signature)
{
    const struct d3d12_device *device = list->object.device;
    const struct d3d12_graphics_bindings *graphics = &list->bindings.graphics;
    const struct d3d12_graphics_pipeline *g = list->bindings.pipeline->graphics;
    VkPrimitiveTopology topology = graphics->vk_topology;
    D3D12_INDEX_BUFFER_STRIP_CUT_VALUE cut;

    if (!device->indirect_vertex_views || !device->graphics.draw_parameters) {
        d3d12_command_list_record_unsupported(list, command, "the command signature sets vertex or index buffer views, which the own path "
                "(without VK_EXT_device_generated_commands) fetches in the vertex shader: %s lacks shaderInt64, shaderDrawParameters "
                "or the GPU virtual address table's device address", device->vk_properties.deviceName);
        return false;
    }
    cut = g->dynamic_strip_cut && graphics->strip_cut_set ? graphics->strip_cut_value : g->strip_cut_value;
    if (signature->pulling == D3D12_VERTEX_PULLING_INDEXED && cut != D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_DISABLED
            && (topology == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP || topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP
                    || topology == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY || topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY)) {
        d3d12_command_list_record_unsupported(list, command, "the command signature sets the index buffer of strips cut at IBStripCutValue "
                "%s: without VK_EXT_device_generated_commands the own path draws them unindexed, the vertex shader reading the "
                "indices, and such a draw cannot restart a strip", cut == D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_0xFFFF ? "0xFFFF" : "0xFFFFFFFF");
        return false;
    }
    return true;
}

enum d3d12_indirect_image_misfit d3d12_indirect_image_misfit(struct d3d12_device *device, const struct d3d12_root_signature *root,
        const struct d3d12_command_signature *signature)
{
    if (!device->indirect_image)
        return D3D12_INDIRECT_IMAGE_NO_DEVICE;
    if (root->memory_abi)
        return D3D12_INDIRECT_IMAGE_MEMORY_ABI;
    if (root->indirect_image_offset == UINT32_MAX)
        return D3D12_INDIRECT_IMAGE_NO_ROOM;
    for (uint64_t views = signature->root_view_mask; views; views &= views - 1)
        if (root->indirect_view_offsets[__builtin_ctzll(views)] == UINT32_MAX)
            return D3D12_INDIRECT_IMAGE_NO_ROOM;
    if (signature->root_view_mask && (!device->has_shader_int64 || !d3d12xs_va_table_address(device)))
        return D3D12_INDIRECT_IMAGE_NO_VIEW_ADDRESSES;
    return D3D12_INDIRECT_IMAGE_FITS;
}

bool d3d12_command_list_prepare_indirect_image(struct d3d12_command_list *list, const char *command,
        const struct d3d12_command_signature *signature, enum d3d12_bind_point bind_point, uint32_t count,
        const struct d3d12_resource *arguments, UINT64 argument_offset, bool draw_indexed, struct d3d12_indirect_image *image)
{
    struct d3d12_device *device = list->object.device;
    const struct d3d12_bind_point_state *state = &list->bindings.points[bind_point];
    const struct d3d12_root_signature *root;
    struct d3d12_indirect_image_layout layout;
    char error[512];
    HRESULT hr;

    memset(image, 0, sizeof(*image));
    /* a pipeline of the bind point: the flush reports any other */
    if (!list->bindings.pipeline || d3d12_pipeline_bind_point(list->bindings.pipeline) != bind_point)
        return true;
    root = list->bindings.pipeline->root_signature;
    switch (d3d12_indirect_image_misfit(device, root, signature)) {
    case D3D12_INDIRECT_IMAGE_FITS:
        break;
    case D3D12_INDIRECT_IMAGE_NO_DEVICE:
        d3d12_command_list_record_unsupported(list, command, "the command signature changes state (%s), and %s has neither "
                "VK_EXT_device_generated_commands nor bufferDeviceAddress (the own path's images)",
                d3d12_indirect_argument_name(signature->first_state_change), device->vk_properties.deviceName);
        return false;
    case D3D12_INDIRECT_IMAGE_MEMORY_ABI:
        d3d12_command_list_record_unsupported(list, command, "the command signature changes state (%s) of a root signature with "
                "FORCE_MEMORY_BASED_ABI, which the own path (without VK_EXT_device_generated_commands) does not build",
                d3d12_indirect_argument_name(signature->first_state_change));
        return false;
    case D3D12_INDIRECT_IMAGE_NO_ROOM:
        d3d12_command_list_record_unsupported(list, command, "the command signature changes state (%s), and the root signature's "
                "push constants (%u bytes) have no room for the per-command address and the root views' entries",
                d3d12_indirect_argument_name(signature->first_state_change), device->vk_properties.limits.maxPushConstantsSize);
        return false;
    case D3D12_INDIRECT_IMAGE_NO_VIEW_ADDRESSES:
        d3d12_command_list_record_unsupported(list, command, "the command signature changes state (%s) and sets root views, which need "
                "shaderInt64 and the GPU virtual address table's device address on %s", d3d12_indirect_argument_name(signature->first_state_change),
                device->vk_properties.deviceName);
        return false;
    }
    if (signature->pulling && bind_point == D3D12_BIND_POINT_GRAPHICS && !pulling_possible(list, command, signature))
        return false;
    /* one multi-draw where only the vertex shader reads what the commands set */
    if (draw_indexed && (image->variant = d3d12_pipeline_state_indirect_variant(list->bindings.pipeline, signature->root_view_mask,
            signature->root_constant_mask, true, signature->pulling, true, &hr, error, sizeof(error))))
        image->draw_indexed = true;
    else if (draw_indexed && hr != E_NOTIMPL)
        image->variant = VK_NULL_HANDLE; /* the failure is reported below, by the per-command variant's or its own */
    if (!image->variant && !(image->variant = d3d12_pipeline_state_indirect_variant(list->bindings.pipeline, signature->root_view_mask,
            signature->root_constant_mask, true, signature->pulling, false, &hr, error, sizeof(error)))) {
        if (hr == E_NOTIMPL)
            d3d12_command_list_record_unsupported(list, command, "the command signature changes state (%s), and %s",
                    d3d12_indirect_argument_name(signature->first_state_change), error);
        else
            d3d12_command_list_record_error(list, command, "the pipeline's variant for the command signature's root arguments cannot "
                    "be made: %s", error);
        return false;
    }
    d3d12_pipeline_state_indirect_image_layout(list->bindings.pipeline, bind_point == D3D12_BIND_POINT_GRAPHICS ? signature->pulling
            : D3D12_VERTEX_PULLING_NONE, &layout);
    image->image_bytes = layout.bytes;
    image->draw_arguments = layout.draw_arguments;
    image->address_offset = root->indirect_image_offset;
    image->push_stages = root->vk_push_stages[bind_point];
    image->layout = list->bindings.pipeline->vk_layout;
    return write_images(list, command, signature, state, count, arguments, argument_offset, &layout, image);
}

void d3d12_command_list_prepare_indirect_in_commands(struct d3d12_command_list *list, const struct d3d12_command_signature *signature,
        VkPipeline variant, const struct d3d12_resource *arguments, UINT64 argument_offset, struct d3d12_indirect_image *image)
{
    struct d3d12_pipeline_state *pipeline = list->bindings.pipeline;
    const struct d3d12_root_signature *root = pipeline->root_signature;

    memset(image, 0, sizeof(*image));
    image->variant = variant;
    image->draw_indexed = true;
    image->in_commands = true;
    image->draw_arguments = UINT32_MAX;
    image->address = arguments->device_address + argument_offset;
    image->image_bytes = signature->byte_stride;
    image->address_offset = root->indirect_image_offset;
    image->push_stages = root->vk_push_stages[D3D12_BIND_POINT_GRAPHICS];
    image->layout = pipeline->vk_layout;
}

void d3d12_command_list_bind_indirect_image(struct d3d12_command_list *list, enum d3d12_bind_point bind_point,
        const struct d3d12_command_signature *signature, const struct d3d12_indirect_image *image)
{
    struct d3d12_bind_point_state *state = &list->bindings.points[bind_point];
    const struct d3d12_root_signature *root = signature->root_signature;
    static const uint32_t aligned = 0;

    if (image->variant != state->bound_vk_pipeline) {
        list->vk.vkCmdBindPipeline(list->vk_command_buffer, bind_point == D3D12_BIND_POINT_COMPUTE ? VK_PIPELINE_BIND_POINT_COMPUTE
                : VK_PIPELINE_BIND_POINT_GRAPHICS, image->variant);
        state->bound_vk_pipeline = image->variant;
    }
    /* a pointer starts at the view's address itself: no misalignment to add */
    for (uint64_t views = signature->root_view_mask; views; views &= views - 1) {
        unsigned parameter = (unsigned)__builtin_ctzll(views);
        if (root->root_view_offsets[parameter] != UINT32_MAX)
            list->vk.vkCmdPushConstants(list->vk_command_buffer, image->layout, image->push_stages, root->root_view_offsets[parameter],
                    sizeof(aligned), &aligned);
        /* read in the commands, an entry's address half only: the table half stays pushed */
        if (image->in_commands) {
            const uint64_t table = d3d12xs_va_table_address(list->object.device);
            const uint32_t words[2] = {(uint32_t)table, (uint32_t)(table >> 32)};
            list->vk.vkCmdPushConstants(list->vk_command_buffer, image->layout, image->push_stages, root->indirect_view_offsets[parameter] + 8,
                    sizeof(words), words);
        }
    }
}

void d3d12_command_list_push_indirect_image(struct d3d12_command_list *list, const struct d3d12_indirect_image *image, uint32_t i)
{
    const VkDeviceAddress address = image->address + (VkDeviceAddress)i * image->image_bytes;
    const uint32_t words[2] = {(uint32_t)address, (uint32_t)(address >> 32)};
    list->vk.vkCmdPushConstants(list->vk_command_buffer, image->layout, image->push_stages, image->address_offset, sizeof(words), words);
}

void d3d12_command_list_end_indirect_image(struct d3d12_command_list *list, enum d3d12_bind_point bind_point)
{
    /* The next flush binds the list's pipeline again and pushes the bind point's values whole,
     * as after the generated commands (command_list_generated.c). */
    list->bindings.push_owner = D3D12_BIND_POINT_COUNT;
    list->bindings.points[bind_point].dirty |= D3D12_DIRTY_HEAP_OFFSETS;
}
