/* Buffer copies, DiscardResource and WriteBufferImmediate (texture copies: command_list_texture_copy.c; barriers:
 * command_list_barrier.c). */
#include "command_recording.h"
#include "commands/command_list_predicated_write.h"
#include "memory/texture_layout.h"

#define METHOD(name) "ID3D12GraphicsCommandList::" #name

/* Resolves a resource argument of a command; records an error naming it when it is bad. */
static struct d3d12_resource *resource_argument(struct d3d12_command_list *list, const char *command, const char *argument, ID3D12Resource *iface)
{
    struct d3d12_resource *resource = unsafe_impl_from_ID3D12Resource(iface);
    if (!resource)
        d3d12_command_list_record_error(list, command, "%s is %s (must be a resource from this device)", argument,
                iface ? "not a d3d12xs resource" : "NULL");
    else if (resource->object.device != list->object.device)
        d3d12_command_list_record_error(list, command, "%s belongs to another device", argument), resource = NULL;
    return resource;
}

static bool range_fits(uint64_t offset, uint64_t size, uint64_t total)
{
    return offset <= total && size <= total - offset;
}

static void note_copy(struct d3d12_command_list *list, const char *command, struct d3d12_resource *src, uint64_t src_offset,
        struct d3d12_resource *dst, uint64_t dst_offset, uint64_t size)
{
    struct d3d12_recorded_range ranges[2] = {
        {src->vk_buffer, src_offset, size, false, VK_NULL_HANDLE},
        {dst->vk_buffer, dst_offset, size, true, VK_NULL_HANDLE},
    };
    uint32_t first = d3d12_command_list_note_ranges(list, command, ranges, 2);
    if (first != UINT32_MAX)
        d3d12_command_list_note(list, D3D12_RECORDED_COPY, first, 2);
}

static bool copy_endpoints_valid(struct d3d12_command_list *list, const char *command, struct d3d12_resource *dst, struct d3d12_resource *src)
{
    if (dst->heap_properties.Type == D3D12_HEAP_TYPE_UPLOAD) {
        d3d12_command_list_record_error(list, command, "pDstBuffer '%s' is in an UPLOAD heap (the GPU cannot write those)",
                d3d12xs_object_name(&dst->object));
        return false;
    }
    if (src->heap_properties.Type == D3D12_HEAP_TYPE_READBACK) {
        d3d12_command_list_record_error(list, command, "pSrcBuffer '%s' is in a READBACK heap (those are copy destinations only)",
                d3d12xs_object_name(&src->object));
        return false;
    }
    return true;
}

/* A checked buffer copy. Under a predicate, whole words are one predicated dispatch
 * (d3d12_command_list_copy_buffer_predicated); partial words are the copy staged around
 * (d3d12_command_list_begin_predicated_write). */
static void copy_buffer(struct d3d12_command_list *list, const char *command, struct d3d12_resource *dst, uint64_t dst_offset,
        struct d3d12_resource *src, uint64_t src_offset, uint64_t size)
{
    const VkBufferCopy region = {src_offset, dst_offset, size};
    struct d3d12_predicated_write write;

    if (__builtin_expect(!list->predication.active, 1)) {
        d3d12_barriers_before(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
        vkCmdCopyBuffer(list->vk_command_buffer, src->vk_buffer, dst->vk_buffer, 1, &region);
        note_copy(list, command, src, src_offset, dst, dst_offset, size);
        return;
    }
    if (!((dst_offset | src_offset | size) % 4)) {
        if (d3d12_command_list_copy_buffer_predicated(list, command, dst->vk_buffer, dst_offset, src->vk_buffer, src_offset, size))
            note_copy(list, command, src, src_offset, dst, dst_offset, size);
        return;
    }
    write = d3d12_predicated_buffer_write(dst->vk_buffer, dst_offset, size);
    if (!d3d12_command_list_begin_predicated_write(list, command, &write))
        return;
    d3d12_barriers_before(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
    vkCmdCopyBuffer(list->vk_command_buffer, src->vk_buffer, dst->vk_buffer, 1, &region);
    d3d12_command_list_end_predicated_write(list, command, &write);
    note_copy(list, command, src, src_offset, dst, dst_offset, size);
}

void STDMETHODCALLTYPE d3d12_command_list_CopyBufferRegion(ID3D12GraphicsCommandList10 *iface, ID3D12Resource *dst_iface, UINT64 dst_offset,
        ID3D12Resource *src_iface, UINT64 src_offset, UINT64 byte_count)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    struct d3d12_resource *dst, *src;

    if (!d3d12_command_list_check_recording(list, METHOD(CopyBufferRegion)) || !d3d12_command_list_outside_render_pass(list, METHOD(CopyBufferRegion)))
        return;
    if (!(dst = resource_argument(list, METHOD(CopyBufferRegion), "pDstBuffer", dst_iface))
            || !(src = resource_argument(list, METHOD(CopyBufferRegion), "pSrcBuffer", src_iface)))
        return;
    if (!range_fits(dst_offset, byte_count, dst->desc.Width)) {
        d3d12_command_list_record_error(list, METHOD(CopyBufferRegion), "DstOffset %llu + NumBytes %llu passes the end of the %llu-byte pDstBuffer",
                (unsigned long long)dst_offset, (unsigned long long)byte_count, (unsigned long long)dst->desc.Width);
        return;
    }
    if (!range_fits(src_offset, byte_count, src->desc.Width)) {
        d3d12_command_list_record_error(list, METHOD(CopyBufferRegion), "SrcOffset %llu + NumBytes %llu passes the end of the %llu-byte pSrcBuffer",
                (unsigned long long)src_offset, (unsigned long long)byte_count, (unsigned long long)src->desc.Width);
        return;
    }
    if (dst == src && dst_offset < src_offset + byte_count && src_offset < dst_offset + byte_count) {
        d3d12_command_list_record_error(list, METHOD(CopyBufferRegion), "source and destination ranges overlap in one buffer");
        return;
    }
    if (!copy_endpoints_valid(list, METHOD(CopyBufferRegion), dst, src) || !byte_count)
        return;
    copy_buffer(list, METHOD(CopyBufferRegion), dst, dst_offset, src, src_offset, byte_count);
}

void STDMETHODCALLTYPE d3d12_command_list_CopyResource(ID3D12GraphicsCommandList10 *iface, ID3D12Resource *dst_iface, ID3D12Resource *src_iface)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    struct d3d12_resource *dst, *src;

    if (!d3d12_command_list_check_recording(list, METHOD(CopyResource)) || !d3d12_command_list_outside_render_pass(list, METHOD(CopyResource)))
        return;
    if (!(dst = resource_argument(list, METHOD(CopyResource), "pDstResource", dst_iface))
            || !(src = resource_argument(list, METHOD(CopyResource), "pSrcResource", src_iface)))
        return;
    if (dst == src) {
        d3d12_command_list_record_error(list, METHOD(CopyResource), "pDstResource and pSrcResource are the same resource");
        return;
    }
    if (dst->vk_image || src->vk_image) {
        d3d12_command_list_copy_texture_resource(list, dst, src);
        return;
    }
    if (dst->desc.Width != src->desc.Width) {
        d3d12_command_list_record_error(list, METHOD(CopyResource), "pDstResource is %llu bytes and pSrcResource %llu (sizes must match)",
                (unsigned long long)dst->desc.Width, (unsigned long long)src->desc.Width);
        return;
    }
    if (!copy_endpoints_valid(list, METHOD(CopyResource), dst, src))
        return;
    copy_buffer(list, METHOD(CopyResource), dst, 0, src, 0, dst->desc.Width);
}

/* D3D12 lets a discard leave the contents as they are: images keep their one layout and their
 * bytes, so after the checks there is nothing to record. */
void STDMETHODCALLTYPE d3d12_command_list_DiscardResource(ID3D12GraphicsCommandList10 *iface, ID3D12Resource *resource_iface,
        const D3D12_DISCARD_REGION *region)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    struct d3d12_resource *resource;
    uint32_t count;

    if (!d3d12_command_list_check_recording(list, METHOD(DiscardResource)) || !d3d12_command_list_outside_render_pass(list, METHOD(DiscardResource)))
        return;
    if (!(resource = resource_argument(list, METHOD(DiscardResource), "pResource", resource_iface)))
        return;
    count = resource->vk_image ? d3d12xs_texture_subresource_count(&resource->desc) : 1;
    if (region && (region->FirstSubresource >= count || region->NumSubresources > count - region->FirstSubresource)) {
        d3d12_command_list_record_error(list, METHOD(DiscardResource), "pRegion's subresources %u (+%u) are not within the %u of '%s'",
                region->FirstSubresource, region->NumSubresources, count, d3d12xs_object_name(&resource->object));
        return;
    }
    if (region && region->NumRects && (!region->pRects || resource->desc.Dimension != D3D12_RESOURCE_DIMENSION_TEXTURE2D)) {
        d3d12_command_list_record_error(list, METHOD(DiscardResource), "pRegion has %u rectangles %s", region->NumRects,
                region->pRects ? "for a resource that is not a 2D texture" : "and pRects is NULL");
        return;
    }
}

void STDMETHODCALLTYPE d3d12_command_list_WriteBufferImmediate(ID3D12GraphicsCommandList10 *iface, UINT count,
        const D3D12_WRITEBUFFERIMMEDIATE_PARAMETER *parameters, const D3D12_WRITEBUFFERIMMEDIATE_MODE *modes)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    struct d3d12_device *device = list->object.device;
    const char *command = METHOD(WriteBufferImmediate);
    VkBuffer buffer;
    uint64_t offset;

    if (!d3d12_command_list_check_recording(list, command))
        return;
    if (count && !parameters) {
        d3d12_command_list_record_error(list, command, "pParams is NULL with Count %u", count);
        return;
    }
    for (UINT i = 0; i < count; i++) {
        D3D12_WRITEBUFFERIMMEDIATE_MODE mode = modes ? modes[i] : D3D12_WRITEBUFFERIMMEDIATE_MODE_DEFAULT;
        if (parameters[i].Dest & 3) {
            d3d12_command_list_record_error(list, command, "pParams[%u].Dest 0x%llx is not 4-byte aligned", i, (unsigned long long)parameters[i].Dest);
            return;
        }
        if (mode != D3D12_WRITEBUFFERIMMEDIATE_MODE_DEFAULT && mode != D3D12_WRITEBUFFERIMMEDIATE_MODE_MARKER_IN
                && mode != D3D12_WRITEBUFFERIMMEDIATE_MODE_MARKER_OUT) {
            d3d12_command_list_record_error(list, command, "pModes[%u] is %d (DEFAULT, MARKER_IN or MARKER_OUT)", i, (int)mode);
            return;
        }
        if (!d3d12xs_va_lookup(device, parameters[i].Dest, 4, &buffer, &offset)) {
            d3d12_command_list_record_error(list, command, "pParams[%u].Dest 0x%llx is not inside a live buffer of this device", i,
                    (unsigned long long)parameters[i].Dest);
            return;
        }
        if (d3d12xs_va_in_upload_heap(device, parameters[i].Dest)) {
            d3d12_command_list_record_error(list, command, "pParams[%u].Dest 0x%llx is in an UPLOAD heap (the GPU cannot write those)", i,
                    (unsigned long long)parameters[i].Dest);
            return;
        }
    }
    /* Marker writes land at the stage they name, so later barriers wait for every stage. */
    if (count) {
        d3d12_barriers_before(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
        if (device->has_buffer_marker)
            d3d12_barriers_note(&list->barriers, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
    }
    for (UINT i = 0; i < count; i++) {
        D3D12_WRITEBUFFERIMMEDIATE_MODE mode = modes ? modes[i] : D3D12_WRITEBUFFERIMMEDIATE_MODE_DEFAULT;
        d3d12xs_va_lookup(device, parameters[i].Dest, 4, &buffer, &offset);
        if (mode != D3D12_WRITEBUFFERIMMEDIATE_MODE_DEFAULT && device->has_buffer_marker) {
            /* The hardware's own marker write: top of pipe for IN, bottom of pipe for OUT. */
            device->vkCmdWriteBufferMarker2AMD(list->vk_command_buffer, mode == D3D12_WRITEBUFFERIMMEDIATE_MODE_MARKER_IN
                    ? VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT : VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT, buffer, offset, parameters[i].Value);
            continue;
        }
        /* MARKER_OUT: the write waits for all earlier commands to finish.
         * MARKER_IN: no wait, so it lands as soon as the earlier commands have started.
         * DEFAULT: ordered like any other copy, through the application's barriers. */
        if (mode == D3D12_WRITEBUFFERIMMEDIATE_MODE_MARKER_OUT)
            d3d12_barriers_emit(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                    VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
        vkCmdUpdateBuffer(list->vk_command_buffer, buffer, offset, 4, &parameters[i].Value);
    }
    for (UINT i = 0; i < count; i++) {
        struct d3d12_recorded_range range = {VK_NULL_HANDLE, 0, 4, true, VK_NULL_HANDLE};
        uint32_t first;
        d3d12xs_va_lookup(device, parameters[i].Dest, 4, &range.buffer, &range.offset);
        if ((first = d3d12_command_list_note_ranges(list, command, &range, 1)) == UINT32_MAX)
            return;
        d3d12_command_list_note(list, D3D12_RECORDED_WRITE_IMMEDIATE, first, 1);
    }
}
