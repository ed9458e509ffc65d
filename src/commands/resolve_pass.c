/* The internal resolve pass (resolve_pass.h). One compute pipeline per kind of value the source
 * holds (floats, unsigned or signed integers: a sampled view's type must match its format's),
 * made at the first resolve that needs it. The shader writes whole 32-bit words: texels under 4
 * bytes share a word, so the buffer's rows start on a word (bufferRowLength rounds the row up). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "command_recording.h"
#include "commands/resolve_pass.h"
#include "device/internal_pipeline.h"
#include "memory/texture_layout.h"
#include "resolve_samples_float_spirv.h"
#include "resolve_samples_uint_spirv.h"
#include "resolve_samples_sint_spirv.h"

enum resolve_kind {
    RESOLVE_FLOAT,
    RESOLVE_UINT,
    RESOLVE_SINT,
    RESOLVE_KIND_COUNT,
};

struct d3d12_resolve_pass {
    pthread_mutex_t lock;                /* around making the layout and pipelines */
    struct d3d12xs_internal_layout layout; /* the source (sampled image), the texels (storage buffer); struct pass_constants */
    VkPipeline pipelines[RESOLVE_KIND_COUNT];
};

/* How a component is stored (the shader's constants of these names without ENC_). */
enum component_encoding {
    ENC_UNORM,
    ENC_SNORM,
    ENC_UINT,
    ENC_SINT,
    ENC_FLOAT,  /* 16 or 32 bits */
    ENC_UFLOAT, /* 10 or 11 bits: 5 of exponent, no sign */
    ENC_SRGB,
};

/* resolve_samples.comp's push constants. */
struct pass_constants {
    int32_t origin[2];
    uint32_t width, height;
    uint32_t words_per_row;
    uint32_t first_word;
    uint32_t samples;
    uint32_t mode; /* 0 AVERAGE, 1 MIN, 2 MAX, 3 SAMPLE_ZERO */
    uint32_t texel_bytes;
    uint32_t component_count;
    uint32_t bits, offsets, encodings; /* a byte per component, component 0 lowest */
};

/* A texel's layout in a buffer copy of the plane (Vulkan's format definitions). */
struct texel_layout {
    uint32_t bytes, component_count;
    uint8_t bits[4], offsets[4], encodings[4];
};

#define LAYOUT1(b, e0, b0, o0) {b, 1, {b0}, {o0}, {e0}}
#define LAYOUT2(b, e0, b0, o0, e1, b1, o1) {b, 2, {b0, b1}, {o0, o1}, {e0, e1}}
#define LAYOUT3(b, e0, b0, o0, e1, b1, o1, e2, b2, o2) {b, 3, {b0, b1, b2}, {o0, o1, o2}, {e0, e1, e2}}
#define LAYOUT4(b, e0, b0, o0, e1, b1, o1, e2, b2, o2, e3, b3, o3) {b, 4, {b0, b1, b2, b3}, {o0, o1, o2, o3}, {e0, e1, e2, e3}}
/* n components of `bits` bits each, in order from bit 0 */
#define EVEN(n, bits, e) ((n) == 1 ? (struct texel_layout)LAYOUT1((bits) / 8, e, bits, 0) \
        : (n) == 2 ? (struct texel_layout)LAYOUT2(2 * (bits) / 8, e, bits, 0, e, bits, bits) \
        : (n) == 3 ? (struct texel_layout)LAYOUT3(3 * (bits) / 8, e, bits, 0, e, bits, bits, e, bits, 2 * (bits)) \
        : (struct texel_layout)LAYOUT4(4 * (bits) / 8, e, bits, 0, e, bits, bits, e, bits, 2 * (bits), e, bits, 3 * (bits)))

/* The layout of the plane `aspect` of `format` as the shader writes it; false for formats that
 * are not render-target or depth-stencil formats d3d12xs makes. */
static bool texel_layout(VkFormat format, VkImageAspectFlags aspect, struct texel_layout *layout)
{
    if (aspect == VK_IMAGE_ASPECT_STENCIL_BIT) {
        *layout = (struct texel_layout)LAYOUT1(1, ENC_UINT, 8, 0);
        return true;
    }
    switch (format) {
#define CASE(format, value) case VK_FORMAT_##format: *layout = value; return true;
#define CASES_OF(prefix, n, bits) \
    CASE(prefix##_UNORM, EVEN(n, bits, ENC_UNORM)) CASE(prefix##_SNORM, EVEN(n, bits, ENC_SNORM)) \
    CASE(prefix##_UINT, EVEN(n, bits, ENC_UINT)) CASE(prefix##_SINT, EVEN(n, bits, ENC_SINT))
    CASES_OF(R8, 1, 8)
    CASES_OF(R8G8, 2, 8)
    CASES_OF(R8G8B8A8, 4, 8)
    CASES_OF(R16, 1, 16)
    CASES_OF(R16G16, 2, 16)
    CASES_OF(R16G16B16A16, 4, 16)
    CASE(R16_SFLOAT, EVEN(1, 16, ENC_FLOAT))
    CASE(R16G16_SFLOAT, EVEN(2, 16, ENC_FLOAT))
    CASE(R16G16B16A16_SFLOAT, EVEN(4, 16, ENC_FLOAT))
    CASE(R32_UINT, EVEN(1, 32, ENC_UINT)) CASE(R32_SINT, EVEN(1, 32, ENC_SINT)) CASE(R32_SFLOAT, EVEN(1, 32, ENC_FLOAT))
    CASE(R32G32_UINT, EVEN(2, 32, ENC_UINT)) CASE(R32G32_SINT, EVEN(2, 32, ENC_SINT)) CASE(R32G32_SFLOAT, EVEN(2, 32, ENC_FLOAT))
    CASE(R32G32B32_UINT, EVEN(3, 32, ENC_UINT)) CASE(R32G32B32_SINT, EVEN(3, 32, ENC_SINT)) CASE(R32G32B32_SFLOAT, EVEN(3, 32, ENC_FLOAT))
    CASE(R32G32B32A32_UINT, EVEN(4, 32, ENC_UINT)) CASE(R32G32B32A32_SINT, EVEN(4, 32, ENC_SINT))
    CASE(R32G32B32A32_SFLOAT, EVEN(4, 32, ENC_FLOAT))
    CASE(R8G8B8A8_SRGB, ((struct texel_layout)LAYOUT4(4, ENC_SRGB, 8, 0, ENC_SRGB, 8, 8, ENC_SRGB, 8, 16, ENC_UNORM, 8, 24)))
    CASE(B8G8R8A8_UNORM, ((struct texel_layout)LAYOUT4(4, ENC_UNORM, 8, 16, ENC_UNORM, 8, 8, ENC_UNORM, 8, 0, ENC_UNORM, 8, 24)))
    CASE(B8G8R8A8_SRGB, ((struct texel_layout)LAYOUT4(4, ENC_SRGB, 8, 16, ENC_SRGB, 8, 8, ENC_SRGB, 8, 0, ENC_UNORM, 8, 24)))
    CASE(A2B10G10R10_UNORM_PACK32, ((struct texel_layout)LAYOUT4(4, ENC_UNORM, 10, 0, ENC_UNORM, 10, 10, ENC_UNORM, 10, 20, ENC_UNORM, 2, 30)))
    CASE(A2B10G10R10_UINT_PACK32, ((struct texel_layout)LAYOUT4(4, ENC_UINT, 10, 0, ENC_UINT, 10, 10, ENC_UINT, 10, 20, ENC_UINT, 2, 30)))
    CASE(B10G11R11_UFLOAT_PACK32, ((struct texel_layout)LAYOUT3(4, ENC_UFLOAT, 11, 0, ENC_UFLOAT, 11, 11, ENC_UFLOAT, 10, 22)))
    CASE(R5G6B5_UNORM_PACK16, ((struct texel_layout)LAYOUT3(2, ENC_UNORM, 5, 11, ENC_UNORM, 6, 5, ENC_UNORM, 5, 0)))
    CASE(A1R5G5B5_UNORM_PACK16, ((struct texel_layout)LAYOUT4(2, ENC_UNORM, 5, 10, ENC_UNORM, 5, 5, ENC_UNORM, 5, 0, ENC_UNORM, 1, 15)))
    CASE(A4R4G4B4_UNORM_PACK16, ((struct texel_layout)LAYOUT4(2, ENC_UNORM, 4, 8, ENC_UNORM, 4, 4, ENC_UNORM, 4, 0, ENC_UNORM, 4, 12)))
    CASE(B4G4R4A4_UNORM_PACK16, ((struct texel_layout)LAYOUT4(2, ENC_UNORM, 4, 4, ENC_UNORM, 4, 8, ENC_UNORM, 4, 12, ENC_UNORM, 4, 0)))
    /* depth planes: D24's copies hold the value in a word's low 24 bits */
    CASE(D16_UNORM, EVEN(1, 16, ENC_UNORM))
    CASE(D16_UNORM_S8_UINT, EVEN(1, 16, ENC_UNORM))
    CASE(X8_D24_UNORM_PACK32, ((struct texel_layout)LAYOUT1(4, ENC_UNORM, 24, 0)))
    CASE(D24_UNORM_S8_UINT, ((struct texel_layout)LAYOUT1(4, ENC_UNORM, 24, 0)))
    CASE(D32_SFLOAT, EVEN(1, 32, ENC_FLOAT))
    CASE(D32_SFLOAT_S8_UINT, EVEN(1, 32, ENC_FLOAT))
#undef CASES_OF
#undef CASE
    default:
        return false;
    }
}

void d3d12_resolve_pass_create(struct d3d12_device *device)
{
    struct d3d12_resolve_pass *pass;

    if (!(pass = calloc(1, sizeof(*pass))))
        return;
    pthread_mutex_init(&pass->lock, NULL);
    device->resolve_pass = pass;
}

void d3d12_resolve_pass_destroy(struct d3d12_device *device)
{
    struct d3d12_resolve_pass *pass = device->resolve_pass;

    if (!pass)
        return;
    for (size_t i = 0; i < RESOLVE_KIND_COUNT; i++)
        vkDestroyPipeline(device->vk_device, pass->pipelines[i], NULL);
    d3d12xs_internal_layout_destroy(device, &pass->layout);
    pthread_mutex_destroy(&pass->lock);
    free(pass);
    device->resolve_pass = NULL;
}

static bool create_layout(struct d3d12_device *device, struct d3d12xs_internal_layout *layout)
{
    const VkDescriptorSetLayoutBinding bindings[2] = {
        {0, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    };
    const VkDescriptorSetLayoutCreateInfo set_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR,
        .bindingCount = 2,
        .pBindings = bindings,
    };
    const VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(struct pass_constants)};
    const VkPipelineLayoutCreateInfo layout_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1,
        .pSetLayouts = &layout->set_layout,
        .pushConstantRangeCount = 1,
        .pPushConstantRanges = &range,
    };

    return vkCreateDescriptorSetLayout(device->vk_device, &set_info, NULL, &layout->set_layout) == VK_SUCCESS
            && vkCreatePipelineLayout(device->vk_device, &layout_info, NULL, &layout->layout) == VK_SUCCESS;
}

/* The kind's pipeline, made on its first use; VK_NULL_HANDLE where Vulkan failed to make it. */
static VkPipeline get_pipeline(struct d3d12_device *device, enum resolve_kind kind)
{
    static const struct {
        const uint32_t *code;
        size_t size;
    } shaders[RESOLVE_KIND_COUNT] = {
        {d3d12_resolve_samples_float_spirv, sizeof(d3d12_resolve_samples_float_spirv)},
        {d3d12_resolve_samples_uint_spirv, sizeof(d3d12_resolve_samples_uint_spirv)},
        {d3d12_resolve_samples_sint_spirv, sizeof(d3d12_resolve_samples_sint_spirv)},
    };
    struct d3d12_resolve_pass *pass = device->resolve_pass;
    VkPipeline pipeline;

    pthread_mutex_lock(&pass->lock);
    if (!pass->layout.layout && !create_layout(device, &pass->layout))
        d3d12xs_internal_layout_destroy(device, &pass->layout);
    if (pass->layout.layout && !pass->pipelines[kind])
        d3d12xs_internal_pipeline_create(device, &pass->layout, shaders[kind].code, shaders[kind].size, &pass->pipelines[kind]);
    pipeline = pass->pipelines[kind];
    pthread_mutex_unlock(&pass->lock);
    return pipeline;
}

/* The source view's format: the resolve's Format for a colour plane (a member of a typeless
 * family views the image as itself), the image's depth-stencil format otherwise. */
static VkFormat view_format(const struct d3d12_pass_resolve *resolve, VkImageAspectFlags aspect)
{
    const struct d3d12xs_format *format = d3d12xs_format(resolve->format);

    if (aspect != VK_IMAGE_ASPECT_COLOR_BIT || !format || format->vk == VK_FORMAT_UNDEFINED)
        return resolve->src->vk_format;
    return format->vk;
}

VkImageAspectFlags d3d12_resolve_destination_aspect(const struct d3d12_pass_resolve *resolve)
{
    uint32_t mip, layer, plane;

    if (resolve->dst->aspects == VK_IMAGE_ASPECT_COLOR_BIT)
        return VK_IMAGE_ASPECT_COLOR_BIT;
    d3d12xs_texture_subresource(&resolve->dst->desc, resolve->dst_subresource, &mip, &layer, &plane);
    return plane == 1 || !(resolve->dst->aspects & VK_IMAGE_ASPECT_DEPTH_BIT) ? VK_IMAGE_ASPECT_STENCIL_BIT : VK_IMAGE_ASPECT_DEPTH_BIT;
}

const char *d3d12_resolve_pass_unable(const struct d3d12_pass_resolve *resolve, VkImageAspectFlags aspect)
{
    const struct d3d12xs_format *format = d3d12xs_format(resolve->format);
    struct texel_layout layout, destination;

    if (!resolve->src->object.device->resolve_pass)
        return "the device has no resolve pass (out of memory at its creation)";
    if (resolve->src->desc.Flags & D3D12_RESOURCE_FLAG_DENY_SHADER_RESOURCE)
        return "d3d12xs's own resolve pass reads the source as a shader resource, which it denies (DENY_SHADER_RESOURCE)";
    if (aspect == VK_IMAGE_ASPECT_COLOR_BIT && (!format || format->aspects != VK_IMAGE_ASPECT_COLOR_BIT))
        return "Format is a depth-stencil format and the source a colour image (d3d12xs's own resolve pass reads it through a view of Format)";
    if (!texel_layout(view_format(resolve, aspect), aspect, &layout))
        return "d3d12xs's own resolve pass does not know the format's texels";
    /* the copy writes the texels as they are: the destination's plane must hold texels of that size */
    if (!texel_layout(resolve->dst->vk_format, d3d12_resolve_destination_aspect(resolve), &destination) || destination.bytes != layout.bytes)
        return "d3d12xs's own resolve pass does not know the destination's texels, or they are of another size";
    return NULL;
}

void d3d12_command_list_resolve_by_pass(struct d3d12_command_list *list, const char *command, const struct d3d12_pass_resolve *resolve,
        VkImageAspectFlags aspect)
{
    struct d3d12_device *device = list->object.device;
    const VkImageAspectFlags dst_aspect = d3d12_resolve_destination_aspect(resolve);
    uint32_t mip, layer, plane, dst_mip, dst_layer, dst_plane, row_texels;
    uint32_t width = (uint32_t)(resolve->src_rect.right - resolve->src_rect.left);
    uint32_t height = (uint32_t)(resolve->src_rect.bottom - resolve->src_rect.top);
    struct d3d12xs_image_view_key key;
    struct texel_layout layout;
    struct pass_constants constants;
    enum resolve_kind kind;
    VkCommandBuffer command_buffer;
    VkDeviceSize texels_offset;
    VkBuffer texels;
    VkPipeline pipeline;
    VkImageView view;

    texel_layout(view_format(resolve, aspect), aspect, &layout);
    kind = layout.encodings[0] == ENC_UINT ? RESOLVE_UINT : layout.encodings[0] == ENC_SINT ? RESOLVE_SINT : RESOLVE_FLOAT;
    if (!(pipeline = get_pipeline(device, kind))) {
        d3d12_command_list_record_error(list, command, "Vulkan failed to make d3d12xs's resolve pipeline");
        return;
    }
    d3d12xs_texture_subresource(&resolve->src->desc, resolve->src_subresource, &mip, &layer, &plane);
    d3d12xs_texture_subresource(&resolve->dst->desc, resolve->dst_subresource, &dst_mip, &dst_layer, &dst_plane);
    memset(&key, 0, sizeof(key));
    key.type = VK_IMAGE_VIEW_TYPE_2D;
    key.format = view_format(resolve, aspect);
    key.usage = VK_IMAGE_USAGE_SAMPLED_BIT;
    key.range = (VkImageSubresourceRange){aspect, mip, 1, layer, 1};
    if (!(view = d3d12_resource_get_image_view(resolve->src, &key, command))) {
        d3d12_command_list_record_error(list, command, "no sampled view of the source for d3d12xs's resolve pass");
        return;
    }

    memset(&constants, 0, sizeof(constants));
    constants.origin[0] = resolve->src_rect.left;
    constants.origin[1] = resolve->src_rect.top;
    constants.width = width;
    constants.height = height;
    /* texels under 4 bytes: each row rounded up to whole words */
    row_texels = layout.bytes < 4 ? (width + 4 / layout.bytes - 1) / (4 / layout.bytes) * (4 / layout.bytes) : width;
    constants.words_per_row = row_texels * layout.bytes / 4;
    constants.samples = resolve->src->desc.SampleDesc.Count;
    constants.mode = resolve->mode == D3D12_RESOLVE_MODE_MIN ? 1 : resolve->mode == D3D12_RESOLVE_MODE_MAX ? 2 : 0;
    constants.texel_bytes = layout.bytes;
    constants.component_count = layout.component_count;
    for (uint32_t c = 0; c < layout.component_count; c++) {
        constants.bits |= (uint32_t)layout.bits[c] << (8 * c);
        constants.offsets |= (uint32_t)layout.offsets[c] << (8 * c);
        constants.encodings |= (uint32_t)layout.encodings[c] << (8 * c);
    }
    if (FAILED(d3d12_transient_memory_allocate(device, &list->allocator->transient, (VkDeviceSize)constants.words_per_row * 4 * height,
            0, &texels, &texels_offset, NULL, command))) {
        d3d12_command_list_record_error(list, command, "out of memory for the resolve's texels");
        return;
    }

    {
        const VkDescriptorImageInfo image_info = {VK_NULL_HANDLE, view, VK_IMAGE_LAYOUT_GENERAL};
        /* bound from the offset rounded down to the storage alignment; first_word counts from there */
        const VkDeviceSize alignment = device->vk_properties.limits.minStorageBufferOffsetAlignment;
        const VkDeviceSize base = alignment > 1 ? texels_offset / alignment * alignment : texels_offset;
        const VkDescriptorBufferInfo buffer_info = {texels, base, texels_offset - base + (VkDeviceSize)constants.words_per_row * 4 * height};
        const VkWriteDescriptorSet writes[2] = {
            {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = 0, .descriptorCount = 1,
                    .descriptorType = VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, .pImageInfo = &image_info},
            {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = 1, .descriptorCount = 1,
                    .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &buffer_info},
        };
        const VkImageSubresourceRange src_range = {aspect, mip, 1, layer, 1}, dst_range = {dst_aspect, dst_mip, 1, dst_layer, 1};
        /* a depth-stencil image's planes change layout together */
        const VkImageSubresourceRange dst_layout_range = {resolve->dst->aspects, dst_mip, 1, dst_layer, 1};
        const VkBufferImageCopy region = {
            .bufferOffset = texels_offset,
            .bufferRowLength = row_texels,
            .imageSubresource = {dst_aspect, dst_mip, dst_layer, 1},
            .imageOffset = {(int32_t)resolve->dst_x, (int32_t)resolve->dst_y, 0},
            .imageExtent = {width, height, 1},
        };
        struct d3d12_recorded_range ranges[2] = {
            d3d12_recorded_texture_range(resolve->src, &src_range, false),
            d3d12_recorded_texture_range(resolve->dst, &dst_range, true),
        };

        constants.first_word = (uint32_t)((texels_offset - base) / 4);
        command_buffer = d3d12_command_list_begin_internal(list);
        /* The application's barrier into RESOLVE_SOURCE waits in the transfer stage; this read is
         * a shader's: it waits for the writes no barrier has ordered before compute yet. */
        d3d12_barriers_before(&list->barriers, command_buffer, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
        d3d12_barriers_after_unordered(&list->barriers, command_buffer, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
        device->vk_record.vkCmdBindPipeline(command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
        device->vkCmdPushDescriptorSetKHR(command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, device->resolve_pass->layout.layout, 0, 2, writes);
        device->vk_record.vkCmdPushConstants(command_buffer, device->resolve_pass->layout.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(constants), &constants);
        /* a thread per word of small texels, per texel of others */
        device->vk_record.vkCmdDispatch(command_buffer, ((layout.bytes < 4 ? constants.words_per_row : width) + 7) / 8, (height + 7) / 8, 1);
        /* the texels, before the copy that reads them */
        d3d12_barriers_emit(&list->barriers, command_buffer, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
        d3d12_barriers_before(&list->barriers, command_buffer, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
        d3d12_barriers_transfer_layout(&list->barriers, command_buffer, resolve->dst->vk_image, &dst_layout_range,
                VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
        vkCmdCopyBufferToImage(command_buffer, texels, resolve->dst->vk_image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
        d3d12_command_list_end_internal(list);
        d3d12_command_list_note_with_ranges(list, command, D3D12_RECORDED_COPY, ranges, 2);
    }
}
