/* The one flush of a bind point (enum d3d12_bind_point): before a dispatch or a draw it turns
 * what changed among the list's bindings into Vulkan commands: the pipeline bind, one
 * vkCmdPushConstants of the root constants that changed, one push-descriptor write for the root
 * descriptors, the table starts and the descriptor heaps' offsets. */
#include <assert.h>
#include <string.h>

#include "command_recording.h"
#include "command_list_flush.h"
#include "commands/command_list_graphics.h"
#include "descriptors/descriptor_buffer.h"
#include "pipelines/graphics_pipeline.h"
#include "spirv/spirv.h"

#define MAX_PUSH_WRITES 128

/* The Vulkan side of each bind point. */
static const VkPipelineBindPoint vk_bind_points[D3D12_BIND_POINT_COUNT] = {VK_PIPELINE_BIND_POINT_COMPUTE, VK_PIPELINE_BIND_POINT_GRAPHICS};

/* The stages a push of constants names: all those of the push-constant range of the bind point's
 * layout, which the root signature owns (Vulkan wants every stage of a range the push overlaps):
 * compute alone for a dispatch. Push constants are command-buffer state, not a bind point's: see
 * claim_push_constants. */
_Static_assert((int)D3D12_BIND_POINT_COMPUTE == (int)D3D12XS_LAYOUT_COMPUTE && (int)D3D12_BIND_POINT_GRAPHICS == (int)D3D12XS_LAYOUT_GRAPHICS,
        "a bind point indexes its root signature's layout kinds");
static inline VkShaderStageFlags push_stages(const struct d3d12_root_signature *signature, enum d3d12_bind_point bind_point)
{
    return signature->vk_push_stages[bind_point];
}

/* Push constants (root constants, table starts, root views' offsets) are one block per command
 * buffer that both bind points push into: after the other bind point pushed, this one pushes
 * all of its own again before its work. */
static void claim_push_constants(struct d3d12_list_bindings *bindings, enum d3d12_bind_point bind_point)
{
    struct d3d12_bind_point_state *state = &bindings->points[bind_point];
    bindings->push_owner = bind_point;
    state->table_starts_in = VK_NULL_HANDLE; /* the other bind point's values are there now */
    if (!state->root_signature)
        return;
    state->dirty |= D3D12_DIRTY_CONSTANTS | D3D12_DIRTY_TABLES | D3D12_DIRTY_ROOT_VIEW_OFFSETS;
    state->constants_dirty_first = 0;
    state->constants_dirty_end = state->root_signature->push_constant_size / 4;
    state->tables_changed = ~0ull;
    /* The heap-size slot after the table starts needs no mark of its own: a switch of bind point
     * comes with another pipeline (D3D12_DIRTY_PIPELINE: the full push of the table starts), and
     * the internal passes and ExecuteIndirect's generated commands mark D3D12_DIRTY_HEAP_OFFSETS. */
}

/* Where a root SRV/UAV push descriptor starts: offset bytes into its buffer, or up to a few
 * elements before where the device's alignment wants it (docs/descriptors.md, "Views at any
 * offset"); *misalignment gets how many bytes before. */
static bool root_view_start(struct d3d12_command_list *list, const char *command, const struct d3d12xs_pipeline_binding *binding,
        uint64_t offset, uint64_t alignment, uint32_t *misalignment)
{
    *misalignment = 0;
    if (!(offset % alignment))
        return true;
    if (binding->vk_type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER && binding->view_offsets
            && (*misalignment = d3d12xs_view_misalignment(offset, binding->view_stride, alignment)) != UINT32_MAX)
        return true;
    d3d12_command_list_record_error(list, command, "root parameter %u (register %s) address is %llu bytes into its buffer, not a multiple of "
            "this device's %llu-byte buffer alignment%s", binding->root_index, binding->register_name, (unsigned long long)offset, (unsigned long long)alignment,
            binding->vk_type != VK_DESCRIPTOR_TYPE_STORAGE_BUFFER ? ""
            : !binding->view_offsets ? " (the root signature's push constants have no room for the view's offset, or the shader passes the "
                    "buffer to a function that is not inlined)"
            : " and not a whole number of the shader's elements from such a multiple");
    return false;
}

/* Fills the Vulkan descriptor of a pushed binding (root descriptors and d3d12xs's own). */
static bool resolve_descriptor(struct d3d12_command_list *list, const struct d3d12_bind_point_state *point, const char *command,
        const struct d3d12xs_pipeline_binding *binding, VkDescriptorBufferInfo *buffer_info, struct d3d12_recorded_range *range,
        uint32_t *misalignment)
{
    struct d3d12_device *device = list->object.device;
    const struct d3d12_root_argument *argument = &point->arguments[binding->root_index];
    const VkPhysicalDeviceLimits *limits = &device->vk_properties.limits;

    *misalignment = 0;
    if (binding->source == D3D12XS_BINDING_ORDERED_APPEND) {
        if (!list->bindings.ordered_append_buffer) {
            d3d12_command_list_record_error(list, command, "the shader uses d3d12xs_ordered_append.hlsli's counters (register %s): "
                    "dispatch it with DispatchX and D3D12XBOX_DISPATCH_FLAG_ENABLE_ORDERED_APPEND", binding->register_name);
            return false;
        }
        buffer_info->buffer = list->bindings.ordered_append_buffer;
        buffer_info->offset = list->bindings.ordered_append_offset;
        buffer_info->range = D3D12XS_SCRATCH_SLICE_SIZE;
        return true;
    }
    if ((binding->source == D3D12XS_BINDING_ROOT_DESCRIPTOR || binding->source == D3D12XS_BINDING_ROOT_ADDRESS) && !argument->value) {
        /* Never set (or 0): a null descriptor, whose reads give 0 (debug-layer warning at validation). */
        bool null_descriptor = device->descriptor_buffers->null_descriptor && binding->source == D3D12XS_BINDING_ROOT_DESCRIPTOR;
        buffer_info->buffer = null_descriptor ? VK_NULL_HANDLE : device->null_buffer;
        buffer_info->offset = 0;
        buffer_info->range = null_descriptor ? VK_WHOLE_SIZE
                : binding->vk_type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER ? 65536 : D3D12XS_NULL_BUFFER_SIZE;
        range->buffer = VK_NULL_HANDLE;
        return true;
    }
    if (binding->source == D3D12XS_BINDING_ROOT_DESCRIPTOR || binding->source == D3D12XS_BINDING_ROOT_ADDRESS) {
        /* A root SRV/UAV reached by address needs only D3D12's 4 bytes (its accesses claim no more). */
        uint64_t offset, remaining, alignment = binding->vk_type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                ? limits->minUniformBufferOffsetAlignment
                : binding->source == D3D12XS_BINDING_ROOT_ADDRESS ? 4 : limits->minStorageBufferOffsetAlignment;
        if (!d3d12xs_va_lookup_range(device, argument->value, &buffer_info->buffer, &offset, &remaining)) {
            d3d12_command_list_record_error(list, command, "root parameter %u (register %s) holds 0x%llx, not an address in a live buffer",
                    binding->root_index, binding->register_name, (unsigned long long)argument->value);
            return false;
        }
        if (!root_view_start(list, command, binding, offset, alignment, misalignment))
            return false;
        buffer_info->range = binding->vk_type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER && remaining > 65536 ? 65536 : remaining;
        *range = (struct d3d12_recorded_range){buffer_info->buffer, offset, buffer_info->range, binding->register_name[0] == 'u', VK_NULL_HANDLE};
        buffer_info->offset = offset - *misalignment;
        buffer_info->range += *misalignment;
        return true;
    }

    d3d12_command_list_record_error(list, command, "register %s: binding kind %d is not pushed", binding->register_name, (int)binding->source);
    return false;
}

/* A root view's misalignment, for the push constant the shader reads it from. */
static void note_root_view(struct d3d12_bind_point_state *state, const struct d3d12_pipeline_state *pipeline,
        const struct d3d12xs_pipeline_binding *binding, uint32_t misalignment)
{
    const struct d3d12_root_signature *signature = pipeline->root_signature;
    uint32_t index = (signature->root_view_offsets[binding->root_index] - signature->root_views_offset) / 4;

    if (state->root_view_misalignments[index] != misalignment) {
        state->root_view_misalignments[index] = misalignment;
        state->dirty |= D3D12_DIRTY_ROOT_VIEW_OFFSETS;
    }
    /* D3DCompile's uvec4 accesses to a raw buffer need its view on a 16-byte boundary */
    state->root_views_scalar |= binding->alias_variable_id && misalignment % 16;
}

static bool push_descriptors(struct d3d12_command_list *list, enum d3d12_bind_point bind_point, const char *command)
{
    struct d3d12_bind_point_state *state = &list->bindings.points[bind_point];
    const struct d3d12_pipeline_state *pipeline = list->bindings.pipeline;
    VkWriteDescriptorSet writes[MAX_PUSH_WRITES];
    VkDescriptorBufferInfo buffer_infos[MAX_PUSH_WRITES];
    VkDescriptorImageInfo sampler_infos[MAX_PUSH_WRITES];
    struct d3d12_recorded_range ranges[MAX_PUSH_WRITES];
    uint32_t write_count = 0, element_count = 0, sampler_count = 0, range_count = 0, first;

    state->root_views_scalar = false;
    if (pipeline->descriptor_count + pipeline->address_count > MAX_PUSH_WRITES) {
        d3d12_command_list_record_error(list, command, "the pipeline uses %u descriptors and %u root addresses (at most %u in all)",
                pipeline->descriptor_count, pipeline->address_count, MAX_PUSH_WRITES);
        return false;
    }
    for (uint32_t i = 0; i < pipeline->binding_count; i++) {
        const struct d3d12xs_pipeline_binding *binding = &pipeline->bindings[i];
        if (binding->source == D3D12XS_BINDING_ROOT_ADDRESS) {
            /* Memory-based ABI: checked and recorded as a push descriptor would be; its D3D12
             * address goes to the argument buffer (command_list_arguments.c). */
            VkDescriptorBufferInfo info;
            uint32_t misalignment;
            if (!resolve_descriptor(list, state, command, binding, &info, &ranges[range_count], &misalignment))
                return false;
            if (!(state->root_addresses[binding->address_slot] = state->arguments[binding->root_index].value)) {
                /* never set: the shader reads the device's zeroed buffer instead of address 0 */
                VkBufferDeviceAddressInfo null_info = {VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, NULL, list->object.device->null_buffer};
                state->root_addresses[binding->address_slot] = vkGetBufferDeviceAddress(list->object.device->vk_device, &null_info);
                continue;
            }
            range_count++;
            continue;
        }
        if (!binding->array_size)
            continue;
        if (binding->source == D3D12XS_BINDING_STATIC_SAMPLER) {
            /* An immutable sampler of a push-descriptor set is taken from the layout, but only
             * once a write names its binding (NVIDIA reads nothing otherwise). */
            sampler_infos[sampler_count] = (VkDescriptorImageInfo){state->root_signature->static_samplers[binding->root_index], VK_NULL_HANDLE,
                    VK_IMAGE_LAYOUT_UNDEFINED};
            writes[write_count++] = (VkWriteDescriptorSet){
                .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                .dstBinding = binding->vk_binding,
                .descriptorCount = 1,
                .descriptorType = VK_DESCRIPTOR_TYPE_SAMPLER,
                .pImageInfo = &sampler_infos[sampler_count++],
            };
            continue;
        }
        writes[write_count] = (VkWriteDescriptorSet){
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstBinding = binding->vk_binding,
            .descriptorCount = binding->array_size,
            .descriptorType = binding->vk_type,
            .pBufferInfo = &buffer_infos[element_count],
        };
        for (uint32_t e = 0; e < binding->array_size; e++, element_count++) {
            uint32_t misalignment;
            ranges[range_count].buffer = VK_NULL_HANDLE;
            if (!resolve_descriptor(list, state, command, binding, &buffer_infos[element_count], &ranges[range_count], &misalignment))
                return false;
            if (ranges[range_count].buffer)
                range_count++;
            if (binding->view_offsets)
                note_root_view(state, pipeline, binding, misalignment);
        }
        write_count++;
    }
    if (write_count)
        list->object.device->vkCmdPushDescriptorSetKHR(list->vk_command_buffer, vk_bind_points[bind_point], pipeline->vk_layout,
                pipeline->push_set, write_count, writes);
    /* Dispatches from here on read and write these ranges (the command record). */
    if ((first = d3d12_command_list_note_ranges(list, command, ranges, range_count)) == UINT32_MAX)
        return false;
    list->record.bound_first = first;
    list->record.bound_count = range_count;
    return true;
}

/* The bound heaps as descriptor buffers, and the heap sets' offsets in them, for a pipeline that
 * reads tables: the buffers once per command buffer and heap change, the offsets whenever the
 * pipeline layout may have changed (a pipeline bind disturbs sets of incompatible layouts). */
static void bind_heaps(struct d3d12_command_list *list, enum d3d12_bind_point bind_point)
{
    struct d3d12_list_bindings *state = &list->bindings;
    const struct d3d12xs_descriptor_buffers *buffers = list->object.device->descriptor_buffers;
    VkDescriptorBufferBindingInfoEXT bindings[2];
    uint32_t buffer_count = 0, indices[D3D12XS_HEAP_SET_COUNT];
    VkDeviceSize offsets[D3D12XS_HEAP_SET_COUNT];
    uint32_t set_count;

    for (int type = 0; type < 2; type++) {
        const struct d3d12_descriptor_heap *heap = state->heaps[type];
        if (!heap)
            continue;
        bindings[buffer_count] = (VkDescriptorBufferBindingInfoEXT){
            .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_BUFFER_BINDING_INFO_EXT,
            .address = heap->memory_address,
            .usage = type ? VK_BUFFER_USAGE_SAMPLER_DESCRIPTOR_BUFFER_BIT_EXT : VK_BUFFER_USAGE_RESOURCE_DESCRIPTOR_BUFFER_BIT_EXT,
        };
        if (type) {
            indices[D3D12XS_HEAP_SET_SAMPLERS] = buffer_count;
            offsets[D3D12XS_HEAP_SET_SAMPLERS] = 0;
        } else {
            indices[D3D12XS_HEAP_SET_RESOURCES] = indices[D3D12XS_HEAP_SET_COUNTERS] = buffer_count;
            offsets[D3D12XS_HEAP_SET_RESOURCES] = 0;
            offsets[D3D12XS_HEAP_SET_COUNTERS] = heap->side_set_offset;
        }
        buffer_count++;
    }
    if (state->heaps_bound_in != list->vk_command_buffer || state->bound_heaps[0] != state->heaps[0] || state->bound_heaps[1] != state->heaps[1]) {
        buffers->vkCmdBindDescriptorBuffersEXT(list->vk_command_buffer, buffer_count, bindings);
        state->heaps_bound_in = list->vk_command_buffer;
        state->bound_heaps[0] = state->heaps[0];
        state->bound_heaps[1] = state->heaps[1];
    }
    /* Sets 0-1 need the CBV_SRV_UAV heap, set 2 the SAMPLER heap; without one, its sets stay unbound. */
    if (state->heaps[0]) {
        set_count = state->heaps[1] ? D3D12XS_HEAP_SET_COUNT : D3D12XS_HEAP_SET_SAMPLERS;
        buffers->vkCmdSetDescriptorBufferOffsetsEXT(list->vk_command_buffer, vk_bind_points[bind_point], state->pipeline->vk_layout,
                0, set_count, indices, offsets);
    } else {
        buffers->vkCmdSetDescriptorBufferOffsetsEXT(list->vk_command_buffer, vk_bind_points[bind_point], state->pipeline->vk_layout,
                D3D12XS_HEAP_SET_SAMPLERS, 1, &indices[D3D12XS_HEAP_SET_SAMPLERS], &offsets[D3D12XS_HEAP_SET_SAMPLERS]);
    }
}

/* Each table's start as a heap index, checked against the bound heap of its type where the
 * shader reads it, then the CBV_SRV_UAV heap's size for d3d12xs_heap.hlsli (root signatures
 * with CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED); pushed after the root constants. */
/* A few words equal: a loop, where memcmp of a size known only at run time is a library call
 * (4 % of a pipeline change's samples on lavapipe). */
static inline bool same_words(const uint32_t *a, const uint32_t *b, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

/* Whether every table the bound pipeline reads, from its start in table_starts, stays inside what
 * the bound heap holds and shaders address (table_limits), by the pipeline's reach per table. */
static bool tables_in_reach(const struct d3d12_command_list *list, enum d3d12_bind_point bind_point)
{
    const struct d3d12_list_bindings *bindings = &list->bindings;
    const struct d3d12_bind_point_state *state = &bindings->points[bind_point];
    const uint64_t sampler_tables = state->root_signature->sampler_table_mask;

    for (uint64_t reads = bindings->pipeline->table_read_mask; reads; reads &= reads - 1) {
        unsigned i = (unsigned)__builtin_ctzll(reads);
        if (state->table_starts[state->table_slot[i]] + bindings->pipeline->table_reach[i] > bindings->table_limits[sampler_tables >> i & 1])
            return false;
    }
    return true;
}

/* The error of a table whose reach goes past the bound heap or past what shaders address: the
 * first register read there. */
static void report_table_reach(struct d3d12_command_list *list, enum d3d12_bind_point bind_point, const char *command)
{
    const struct d3d12_list_bindings *bindings = &list->bindings;
    const struct d3d12_bind_point_state *state = &bindings->points[bind_point];
    const struct d3d12_root_signature *signature = state->root_signature;
    const uint64_t increment = sizeof(struct d3d12xs_descriptor);
    const struct d3d12xs_descriptor_buffers *buffers = list->object.device->descriptor_buffers;

    for (uint32_t b = 0; b < bindings->pipeline->binding_count; b++) {
        const struct d3d12xs_pipeline_binding *binding = &bindings->pipeline->bindings[b];
        const bool sampler = signature->sampler_table_mask >> binding->root_index & 1;
        const struct d3d12_descriptor_heap *heap = bindings->heaps[sampler];
        uint64_t start, end;
        uint32_t addressable;
        if (binding->source != D3D12XS_BINDING_TABLE)
            continue;
        start = (state->arguments[binding->root_index].value - heap->gpu_base) / increment + binding->table_offset;
        end = start + binding->table_extent; /* one past the last it reads */
        if (end > heap->desc.NumDescriptors) {
            d3d12_command_list_record_error(list, command, "root parameter %u's table (register %s) does not lie inside the bound %s heap: "
                    "it reads descriptors %llu to %llu of %u", binding->root_index, binding->register_name, sampler ? "SAMPLER" : "CBV_SRV_UAV",
                    (unsigned long long)start, (unsigned long long)(end - 1), heap->desc.NumDescriptors);
            return;
        }
        /* Heaps hold D3D12's sizes on every device; shaders reach the first capacity[set] of
         * them (descriptor_buffer.c). Past that a read would be undefined: refused like a table
         * past its heap. */
        addressable = buffers->capacity[binding->heap_set == D3D12XS_HEAP_SET_SAMPLERS ? D3D12XS_HEAP_SET_SAMPLERS : D3D12XS_HEAP_SET_RESOURCES];
        if (end > addressable) {
            d3d12_command_list_record_error(list, command, "root parameter %u's table (register %s) reads descriptors %llu to %llu of the "
                    "bound %s heap, past the %u that shaders on %s can address", binding->root_index, binding->register_name,
                    (unsigned long long)start, (unsigned long long)(end - 1), binding->heap_set == D3D12XS_HEAP_SET_SAMPLERS ? "SAMPLER" : "CBV_SRV_UAV",
                    addressable, list->object.device->vk_properties.deviceName);
            return;
        }
    }
    d3d12_command_list_record_error(list, command, "a descriptor table the shader reads does not lie inside the bound heap");
}

static bool push_table_starts(struct d3d12_command_list *list, enum d3d12_bind_point bind_point, const char *command)
{
    const struct d3d12_list_bindings *bindings = &list->bindings;
    struct d3d12_bind_point_state *state = &list->bindings.points[bind_point];
    const struct d3d12_root_signature *signature = state->root_signature;
    const uint64_t increment = sizeof(struct d3d12xs_descriptor);
    const struct d3d12xs_descriptor_buffers *buffers = list->object.device->descriptor_buffers;
    uint32_t table = 0;

    for (uint32_t i = 0; i < signature->parameter_count; i++) {
        if (signature->parameter_types[i] != D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE)
            continue;
        bool sampler = signature->sampler_table_mask >> i & 1, read = bindings->pipeline->used_root_mask >> i & 1;
        const struct d3d12_descriptor_heap *heap = bindings->heaps[sampler];
        const char *heap_type = sampler ? "SAMPLER" : "CBV_SRV_UAV";
        uint64_t handle = state->arguments[i].value;
        uint32_t start = 0;
        if (read) {
            if (!heap) {
                d3d12_command_list_record_error(list, command, "the shader reads a descriptor table (root parameter %u) but no %s heap is set "
                        "(SetDescriptorHeaps)", i, heap_type);
                return false;
            }
            if (handle < heap->gpu_base || (handle - heap->gpu_base) % increment || (handle - heap->gpu_base) / increment >= heap->desc.NumDescriptors) {
                d3d12_command_list_record_error(list, command, "root parameter %u's table (GPU handle 0x%llx) does not lie inside the bound %s heap",
                        i, (unsigned long long)handle, heap_type);
                return false;
            }
            start = (uint32_t)((handle - heap->gpu_base) / increment);
        }
        state->table_slot[i] = (uint8_t)table;
        state->table_starts[table++] = start;
    }
    /* Every register the shader reads through a table inside the heap and inside what shaders
     * address (table_limits; an unbounded array: its first): the pipeline's reach per table,
     * and on a failure the register that goes past. */
    if (!tables_in_reach(list, bind_point)) {
        report_table_reach(list, bind_point, command);
        return false;
    }
    state->tables_started = bindings->pipeline->table_read_mask;
    if (bindings->pipeline->indexes_sampler_heap && !bindings->heaps[1]) {
        d3d12_command_list_record_error(list, command, "the shader indexes the SAMPLER heap directly (d3d12xs_heap.hlsli) but no "
                "SAMPLER heap is set (SetDescriptorHeaps)");
        return false;
    }
    if (signature->heap_size_offset != UINT32_MAX) {
        if (bindings->pipeline->indexes_heap && !bindings->heaps[0]) {
            d3d12_command_list_record_error(list, command, "the shader indexes the CBV_SRV_UAV heap directly (d3d12xs_heap.hlsli) but no "
                    "CBV_SRV_UAV heap is set (SetDescriptorHeaps)");
            return false;
        }
        /* The size d3d12xs_heap.hlsli checks indices against: no more than shaders can address,
         * so an index past that loads 0 as one past the heap does. */
        uint32_t size = bindings->heaps[0] ? bindings->heaps[0]->desc.NumDescriptors : 0;
        state->table_starts[table++] = size < buffers->capacity[D3D12XS_HEAP_SET_RESOURCES] ? size
                : buffers->capacity[D3D12XS_HEAP_SET_RESOURCES];
    }
    if (!table || (state->table_starts_in == list->vk_command_buffer && state->table_starts_layout == bindings->pipeline->vk_layout
            && state->pushed_table_count == table && same_words(state->pushed_table_starts, state->table_starts, table)))
        return true;
    list->vk.vkCmdPushConstants(list->vk_command_buffer, bindings->pipeline->vk_layout, push_stages(signature, bind_point), signature->tables_offset,
            4 * table, state->table_starts);
    memcpy(state->pushed_table_starts, state->table_starts, 4 * table);
    state->pushed_table_count = table;
    state->table_starts_in = list->vk_command_buffer;
    state->table_starts_layout = bindings->pipeline->vk_layout;
    return true;
}

/* A table's start as a heap index from its argument, checked as the last full push checked it:
 * inside the heap, on a descriptor, and the bound pipeline's reach from it (at least one)
 * inside what the heap holds and shaders address (table_limits; a wrapped offset is a huge
 * start). false when a check fails: the full push then finds and reports what is wrong. */
static inline __attribute__((always_inline)) bool checked_table_start(const struct d3d12_command_list *list,
        const struct d3d12_bind_point_state *state, unsigned index, uint32_t *start)
{
    const bool sampler = state->root_signature->sampler_table_mask >> index & 1;
    const struct d3d12_descriptor_heap *heap = list->bindings.heaps[sampler];
    /* off a descriptor or before the heap: a first of 2^32 or more, past every limit */
    const uint64_t first = heap ? d3d12xs_descriptor_index_at(state->arguments[index].value - heap->gpu_base) : UINT64_MAX;

    if (first >= list->bindings.table_limits[sampler] || first + list->bindings.pipeline->table_reach[index] > list->bindings.table_limits[sampler])
        return false;
    *start = (uint32_t)first;
    return true;
}

/* After only tables changed (same pipeline, signature and heaps): each changed table's start,
 * checked against the reach the last full push found, and one push of the starts that moved.
 * false when a check fails: the full push then finds and reports what is wrong. */
static inline __attribute__((always_inline)) bool push_changed_table_starts(struct d3d12_command_list *list, enum d3d12_bind_point bind_point)
{
    struct d3d12_bind_point_state *state = &list->bindings.points[bind_point];
    uint32_t first = UINT32_MAX, end = 0;

    /* the tables the pipeline reads (its signature's layout is the bound one's, validated); a
     * table it does not read keeps start 0 */
    for (uint64_t changed = state->tables_changed & list->bindings.pipeline->table_read_mask; changed; changed &= changed - 1) {
        unsigned i = (unsigned)__builtin_ctzll(changed);
        uint32_t slot = state->table_slot[i];
        if (!checked_table_start(list, state, i, &state->table_starts[slot]))
            return false;
        first = slot < first ? slot : first;
        end = slot + 1 > end ? slot + 1 : end;
    }
    if (end) {
        list->vk.vkCmdPushConstants(list->vk_command_buffer, list->bindings.pipeline->vk_layout, push_stages(state->root_signature, bind_point),
                state->root_signature->tables_offset + 4 * first, 4 * (end - first), &state->table_starts[first]);
        /* the copy of the full push is out of date: the next full push pushes (one store here
         * keeps a stream of table changes as cheap as it was) */
        state->table_starts_in = VK_NULL_HANDLE;
    }
    return true;
}

/* One body per bind point (d3d12_command_list_apply_graphics_table, _compute_table): the bind
 * point a constant, its state at a fixed offset. */
static inline __attribute__((always_inline)) void apply_table(struct d3d12_command_list *list, enum d3d12_bind_point bind_point,
        unsigned index)
{
    struct d3d12_bind_point_state *state = &list->bindings.points[bind_point];
    const uint32_t slot = state->table_slot[index];
    uint32_t start;

    /* a table the pipeline does not read keeps its old start pushed (settle_table_changes) */
    if (!(list->bindings.pipeline->table_read_mask >> index & 1)) {
        state->tables_started &= ~(1ull << index);
        return;
    }
    if (!checked_table_start(list, state, index, &start)) {
        /* the flush checks it again and reports it (no dispatch or draw takes its short way while
         * the bind point is dirty) */
        state->dirty |= D3D12_DIRTY_TABLES;
        state->tables_changed |= 1ull << index;
        return;
    }
    state->table_starts[slot] = start;
    state->pushed_table_starts[slot] = start; /* the copy of the full push stays the pushed values */
    list->vk.vkCmdPushConstants(list->vk_command_buffer, list->bindings.pipeline->vk_layout, push_stages(state->root_signature, bind_point),
            state->root_signature->tables_offset + 4 * slot, 4, &state->table_starts[slot]);
}

void d3d12_command_list_apply_graphics_table(struct d3d12_command_list *list, unsigned index)
{
    apply_table(list, D3D12_BIND_POINT_GRAPHICS, index);
}

void d3d12_command_list_apply_compute_table(struct d3d12_command_list *list, unsigned index)
{
    apply_table(list, D3D12_BIND_POINT_COMPUTE, index);
}

/* A pipeline change alone (no table or heap changed since the last full push, which pushed in
 * this command buffer with this layout): the table starts stand, and only the new pipeline's
 * reach is checked. false sends the flush to the full push, which reports what is wrong. */
static inline __attribute__((always_inline)) bool keep_table_starts(struct d3d12_command_list *list, enum d3d12_bind_point bind_point)
{
    const struct d3d12_list_bindings *bindings = &list->bindings;
    const struct d3d12_bind_point_state *state = &bindings->points[bind_point];
    const struct d3d12_pipeline_state *pipeline = bindings->pipeline;
    const struct d3d12_root_signature *signature = state->root_signature;

    if (state->table_starts_in != list->vk_command_buffer || state->table_starts_layout != pipeline->vk_layout
            || (pipeline->table_read_mask & ~state->tables_started) || (pipeline->indexes_sampler_heap && !bindings->heaps[1])
            || (pipeline->indexes_heap && signature->heap_size_offset != UINT32_MAX && !bindings->heaps[0]))
        return false;
    return tables_in_reach(list, bind_point);
}

/* The tables set since the last push that it left alone (those the bound pipeline does not read,
 * all but `pushed`) keep their old starts in the push constants: they leave tables_started, so
 * that a later pipeline reading them takes the full push instead of keep_table_starts. */
static inline void settle_table_changes(struct d3d12_bind_point_state *state, uint64_t pushed)
{
    state->tables_started &= ~(state->tables_changed & ~pushed);
    state->tables_changed = 0;
}

/* Whether a settled list's new graphics pipeline needs nothing recorded but its bind: only the
 * pipeline changed; it pushes no descriptors, has no memory-based ABI, passed the root-argument
 * checks with these arguments (passed[]), and the constants, heap sets and table starts pushed in
 * this command buffer with its layout stand for it (keep_table_starts). */
static inline __attribute__((always_inline)) bool settled_pipeline_binds_alone(struct d3d12_command_list *list)
{
    const struct d3d12_bind_point_state *state = &list->bindings.points[D3D12_BIND_POINT_GRAPHICS];
    const struct d3d12_pipeline_state *pipeline = list->bindings.pipeline;
    const VkCommandBuffer cb = list->vk_command_buffer;

    if (state->dirty != D3D12_DIRTY_PIPELINE || pipeline->descriptor_count || pipeline->address_count || pipeline->memory_abi
            || state->constants_in != cb || state->constants_layout != pipeline->vk_layout
            || !((state->passed[0].pipeline == pipeline && state->passed[0].epoch == state->validation_epoch)
                || (state->passed[1].pipeline == pipeline && state->passed[1].epoch == state->validation_epoch)))
        return false;
    return !pipeline->reads_heaps || (state->heap_sets_in == cb && state->heap_sets_layout == pipeline->vk_layout
            && keep_table_starts(list, D3D12_BIND_POINT_GRAPHICS));
}

void d3d12_command_list_change_settled_pipeline(struct d3d12_command_list *list)
{
    struct d3d12_bind_point_state *state = &list->bindings.points[D3D12_BIND_POINT_GRAPHICS];
    struct d3d12_graphics_bindings *graphics = &list->bindings.graphics;
    const struct d3d12_pipeline_state *pipeline = list->bindings.pipeline;

    list->draw_settled_at = list->call_count;
    if (!settled_pipeline_binds_alone(list))
        return; /* the next draw's flush binds it */
    /* what that flush would leave: the pipeline bound and checked, nothing dirty, no root views
     * in its draws' record (flush_full's for a pipeline without descriptors), and the draw's
     * applied state */
    state->bound_vk_pipeline = pipeline->vk_pipeline;
    state->validated = true;
    state->root_views_scalar = false;
    state->dirty = 0;
    list->record.bound_count = 0;
    list->record.dispatch_first = list->record.bound_first;
    list->record.dispatch_count = 0;
    graphics->applied_pipeline = pipeline->vk_pipeline;
    graphics->applied_vertex_slots = pipeline->graphics->vertex_slots;
    graphics->rendering_checked_for = pipeline->graphics;
    list->vk.vkCmdBindPipeline(list->vk_command_buffer, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline->vk_pipeline); /* last: a tail call */
}

bool d3d12_command_list_flush_tables(struct d3d12_command_list *list, enum d3d12_bind_point bind_point, const char *command)
{
    const struct d3d12_pipeline_state *pipeline = list->bindings.pipeline;

    /* A failed check: the full push finds and reports what is wrong. */
    if (pipeline->reads_heaps && !push_changed_table_starts(list, bind_point) && !push_table_starts(list, bind_point, command))
        return false;
    settle_table_changes(&list->bindings.points[bind_point], pipeline->reads_heaps ? pipeline->table_read_mask : 0);
    return true;
}

/* Root constants first..end (32-bit values) of the bind point's block, where the layout has them. */
static inline void push_constants(struct d3d12_command_list *list, const struct d3d12_bind_point_state *state, enum d3d12_bind_point bind_point,
        uint32_t first, uint32_t end)
{
    const struct d3d12_root_signature *signature = state->root_signature;
    if (end > first)
        list->vk.vkCmdPushConstants(list->vk_command_buffer, list->bindings.pipeline->vk_layout, push_stages(signature, bind_point), 4 * first,
                4 * (end - first), &state->push_constants[first]);
}

/* Brings a bind point's Vulkan state up to date for a dispatch or a draw of the bound pipeline
 * state's variant (D3D12XS_VARIANT_* bits); false (after recording the error, or the debug
 * layer's warning) if it cannot run. */
bool d3d12_command_list_flush_full(struct d3d12_command_list *list, enum d3d12_bind_point bind_point, const char *command, unsigned variant)
{
    VkPipeline vk_pipeline;
    struct d3d12_bind_point_state *state = &list->bindings.points[bind_point];
    const struct d3d12_pipeline_state *pipeline = list->bindings.pipeline;
    const struct d3d12_root_signature *signature = state->root_signature;
    uint32_t dirty, constants_dirty, heap_sets_dirty;

    assert(!list->in_internal); /* internal work ends before the application's next command */
    if (__builtin_expect(list->bindings.push_owner != bind_point, 0))
        claim_push_constants(&list->bindings, bind_point);
    dirty = state->dirty;
    /* The short way, for a stream of dispatches or draws between which only root constants or
     * tables change (same pipeline, signature and heaps; no variant, no memory-based ABI, no
     * console validation: constants_only). */
    if (__builtin_expect(!(dirty & ~(D3D12_DIRTY_CONSTANTS | D3D12_DIRTY_TABLES)) && state->validated && state->constants_only && !variant, 1)) {
        if ((dirty & D3D12_DIRTY_TABLES) && !d3d12_command_list_flush_tables(list, bind_point, command))
            return false;
        if (dirty & D3D12_DIRTY_CONSTANTS)
            push_constants(list, state, bind_point, state->constants_dirty_first, state->constants_dirty_end);
        state->dirty = 0;
        list->record.dispatch_first = list->record.bound_first;
        list->record.dispatch_count = list->record.bound_count;
        return true;
    }
    /* The checks depend only on what is bound and which arguments were ever set, so they
     * run again only after one of those changed: a constants-only flush skips them, and so does
     * a switch back to a pipeline that passed them since nothing else changed (passed[]). */
    if (!state->validated && pipeline && ((state->passed[0].pipeline == pipeline && state->passed[0].epoch == state->validation_epoch)
            || (state->passed[1].pipeline == pipeline && state->passed[1].epoch == state->validation_epoch)))
        state->validated = true;
    if (__builtin_expect(!state->validated, 0)) {
        if (!pipeline) {
            d3d12_command_list_record_error(list, command, "no pipeline state is set (SetPipelineState)");
            return false;
        }
        if (d3d12_pipeline_bind_point(pipeline) != bind_point) {
            d3d12_command_list_record_error(list, command, "the pipeline state set is a %s pipeline (SetPipelineState)",
                    bind_point == D3D12_BIND_POINT_COMPUTE ? "graphics" : "compute");
            return false;
        }
        if (!signature) {
            d3d12_command_list_record_error(list, command, "no %s root signature is set (%s)", bind_point == D3D12_BIND_POINT_COMPUTE ? "compute" : "graphics",
                    bind_point == D3D12_BIND_POINT_COMPUTE ? "SetComputeRootSignature" : "SetGraphicsRootSignature");
            return false;
        }
        /* D3D12 leaves both below undefined (its debug layer reports them): a warning, and the
         * work runs where it safely can. */
        if (!d3d12_root_signatures_compatible(signature, pipeline->root_signature)) {
            d3d12_command_list_debug_warn(list, command, "the pipeline was built for a root signature of another layout than the one "
                    "set: the %s is skipped", bind_point == D3D12_BIND_POINT_COMPUTE ? "dispatch" : "draw");
            return false;
        }
        for (uint64_t used = pipeline->used_root_mask; used; used &= used - 1) {
            unsigned index = (unsigned)__builtin_ctzll(used);
            bool constants = signature->constants_mask >> index & 1;
            bool table = signature->parameter_types[index] == D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
            if (constants ? state->constants_set >> index & 1 : state->arguments[index].set)
                continue;
            if (table) {
                d3d12_command_list_debug_warn(list, command, "root parameter %u (a descriptor table) is read by the shader but was never "
                        "set: the %s is skipped", index, bind_point == D3D12_BIND_POINT_COMPUTE ? "dispatch" : "draw");
                return false;
            }
            d3d12_command_list_debug_warn(list, command, "root parameter %u is read by the shader but was never set: it reads %s", index,
                    constants ? "zeros" : "a null descriptor");
        }
        state->validated = true;
        state->passed[state->next_passed].pipeline = pipeline;
        state->passed[state->next_passed].epoch = state->validation_epoch;
        state->next_passed ^= 1;
    }
    /* Root descriptors first: they decide whether the SCALAR variant runs. */
    if (dirty & (D3D12_DIRTY_PIPELINE | D3D12_DIRTY_DESCRIPTORS)) {
        if (pipeline->descriptor_count || pipeline->address_count) {
            if (!push_descriptors(list, bind_point, command))
                return false;
            dirty |= state->dirty & D3D12_DIRTY_ROOT_VIEW_OFFSETS;
        } else {
            list->record.bound_count = 0;
            state->root_views_scalar = false;
        }
    }
    if (state->root_views_scalar)
        variant |= D3D12XS_VARIANT_SCALAR;
    vk_pipeline = pipeline->vk_pipeline;
    /* view instancing with masking: the pipeline made for the masked views (a draw with none runs nothing) */
    if (pipeline->graphics && pipeline->graphics->view_masking && !pipeline->graphics->views_apart
            && d3d12_command_list_view_mask(list, pipeline->graphics))
        vk_pipeline = pipeline->graphics->view_mask_pipelines[d3d12_command_list_view_mask(list, pipeline->graphics)];
    if (variant) {
        char error[320];
        if (!(vk_pipeline = d3d12_pipeline_state_variant(list->bindings.pipeline, variant, error, sizeof(error)))) {
            d3d12_command_list_record_error(list, command, "the pipeline cannot run as variant 0x%x (DispatchX flags, root views "
                    "off 16-byte boundaries): %s", variant, error);
            return false;
        }
    }
    if ((dirty & D3D12_DIRTY_PIPELINE) || state->bound_vk_pipeline != vk_pipeline) {
        list->vk.vkCmdBindPipeline(list->vk_command_buffer, vk_bind_points[bind_point], vk_pipeline);
        state->bound_vk_pipeline = vk_pipeline;
    }
    /* Push constants and descriptor set bindings stay across binds of pipelines of one layout
     * (Vulkan disturbs neither for compatible layouts): a pipeline change within the layout the
     * constants were pushed and the heap sets bound with in this command buffer redoes neither. */
    constants_dirty = heap_sets_dirty = dirty;
    /* heaps or signature changed: the sets go again at the next flush that reads the heaps, even
     * if this one does not (it clears the flag) */
    if (dirty & D3D12_DIRTY_HEAP_OFFSETS)
        state->heap_sets_in = VK_NULL_HANDLE;
    if (state->constants_in == list->vk_command_buffer && state->constants_layout == pipeline->vk_layout)
        constants_dirty &= ~D3D12_DIRTY_PIPELINE;
    if (state->heap_sets_in == list->vk_command_buffer && state->heap_sets_layout == pipeline->vk_layout)
        heap_sets_dirty &= ~D3D12_DIRTY_PIPELINE;
    /* Only the constants that changed since the last push (all of them in another layout). */
    if ((constants_dirty & (D3D12_DIRTY_PIPELINE | D3D12_DIRTY_CONSTANTS)) && !signature->memory_abi) {
        push_constants(list, state, bind_point, constants_dirty & D3D12_DIRTY_PIPELINE ? 0 : state->constants_dirty_first,
                constants_dirty & D3D12_DIRTY_PIPELINE ? signature->push_constant_size / 4 : state->constants_dirty_end);
        if (constants_dirty & D3D12_DIRTY_PIPELINE) {
            state->constants_in = list->vk_command_buffer;
            state->constants_layout = pipeline->vk_layout;
        }
    }
    if (pipeline->reads_heaps) {
        if (!(dirty & (D3D12_DIRTY_PIPELINE | D3D12_DIRTY_HEAP_OFFSETS))) {
            if ((dirty & D3D12_DIRTY_TABLES) && !push_changed_table_starts(list, bind_point) && !push_table_starts(list, bind_point, command))
                return false;
        } else if (!((dirty & (D3D12_DIRTY_TABLES | D3D12_DIRTY_HEAP_OFFSETS)) == 0 && keep_table_starts(list, bind_point))
                && !push_table_starts(list, bind_point, command)) {
            return false;
        }
        settle_table_changes(state, pipeline->table_read_mask);
        /* A table change alone moves only the table starts: the heap sets stay where they are. */
        if (heap_sets_dirty & (D3D12_DIRTY_PIPELINE | D3D12_DIRTY_HEAP_OFFSETS)) {
            bind_heaps(list, bind_point);
            state->heap_sets_in = list->vk_command_buffer;
            state->heap_sets_layout = pipeline->vk_layout;
        }
    } else if (state->tables_changed) {
        settle_table_changes(state, 0);
    }
    if (signature->root_view_count && (dirty & (D3D12_DIRTY_PIPELINE | D3D12_DIRTY_ROOT_VIEW_OFFSETS)))
        list->vk.vkCmdPushConstants(list->vk_command_buffer, pipeline->vk_layout, push_stages(signature, bind_point), signature->root_views_offset,
                4 * signature->root_view_count, state->root_view_misalignments);
    /* Memory-based ABI: a fresh copy of the root constants whenever any binding input changed. */
    if (pipeline->memory_abi && (dirty & (D3D12_DIRTY_PIPELINE | D3D12_DIRTY_CONSTANTS | D3D12_DIRTY_DESCRIPTORS))
            && !d3d12_command_list_write_memory_arguments(list, bind_point, command))
        return false;
    state->dirty = 0;
    /* With the console validation on, the work also records what its tables hold (each time). */
    if (__builtin_expect(list->object.device->console_validation != NULL, 0)) {
        state->constants_only = false;
        return d3d12_command_list_note_dispatch_ranges(list, bind_point, command);
    }
    state->constants_only = !variant && !pipeline->memory_abi;
    list->record.dispatch_first = list->record.bound_first;
    list->record.dispatch_count = list->record.bound_count;
    return true;
}

