/* Compute state on a command list: pipeline, root signature, descriptor heaps, root
 * arguments, and Dispatch, which turns what changed into Vulkan commands: the pipeline bind,
 * one vkCmdPushConstants for root constants, one push-descriptor write for everything else. */
#include <assert.h>
#include <string.h>

#include "command_recording.h"
#include "descriptors/descriptor_buffer.h"
#include "shaders/spirv.h"

#define METHOD(name) "ID3D12GraphicsCommandList::" #name
#define MAX_PUSH_WRITES 128

void d3d12_command_list_reset_compute_state(struct d3d12_command_list *list)
{
    memset(&list->compute, 0, sizeof(list->compute));
}

bool d3d12_command_list_compute_list(struct d3d12_command_list *list, const char *command)
{
    if (!d3d12_command_list_check_recording(list, command))
        return false;
    if (list->type == D3D12_COMMAND_LIST_TYPE_COPY) {
        d3d12_command_list_record_error(list, command, "COPY lists cannot bind or run compute work");
        return false;
    }
    return true;
}

void d3d12_command_list_set_pipeline_state(struct d3d12_command_list *list, ID3D12PipelineState *iface, const char *command)
{
    struct d3d12_pipeline_state *state = unsafe_impl_from_ID3D12PipelineState(iface);

    if (!state) {
        d3d12_command_list_record_error(list, command, "pPipelineState is %s (must be a pipeline from this device)", iface ? "not a d3d12xs pipeline" : "NULL");
        return;
    }
    if (list->compute.pipeline != state) {
        list->compute.pipeline = state;
        list->compute.pipeline_dirty = true;
        list->compute.validated = false;
    }
}

void STDMETHODCALLTYPE d3d12_command_list_SetPipelineState(ID3D12GraphicsCommandList10 *iface, ID3D12PipelineState *state)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    if (d3d12_command_list_compute_list(list, METHOD(SetPipelineState)))
        d3d12_command_list_set_pipeline_state(list, state, METHOD(SetPipelineState));
}

void STDMETHODCALLTYPE d3d12_command_list_SetComputeRootSignature(ID3D12GraphicsCommandList10 *iface, ID3D12RootSignature *signature_iface)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    struct d3d12_root_signature *signature;

    if (!d3d12_command_list_compute_list(list, METHOD(SetComputeRootSignature)))
        return;
    if (!(signature = unsafe_impl_from_ID3D12RootSignature(signature_iface))) {
        d3d12_command_list_record_error(list, METHOD(SetComputeRootSignature), "pRootSignature is %s",
                signature_iface ? "not a d3d12xs root signature" : "NULL");
        return;
    }
    if (list->compute.root_signature == signature)
        return;
    /* A new root signature starts with no arguments set, as in D3D12. */
    list->compute.root_signature = signature;
    memset(list->compute.arguments, 0, sizeof(list->compute.arguments));
    memset(list->compute.push_constants, 0, sizeof(list->compute.push_constants)); /* constants never set read 0 */
    list->compute.constants_set = 0;
    memset(list->compute.table_starts, 0, sizeof(list->compute.table_starts));
    list->compute.constants_dirty = list->compute.descriptors_dirty = list->compute.tables_dirty = true;
    list->compute.heap_offsets_dirty = true;
    list->compute.validated = false;
}

void STDMETHODCALLTYPE d3d12_command_list_SetDescriptorHeaps(ID3D12GraphicsCommandList10 *iface, UINT count, ID3D12DescriptorHeap *const *heaps)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    struct d3d12_descriptor_heap *bound[2] = {NULL, NULL};
    const char *command = METHOD(SetDescriptorHeaps);

    if (!d3d12_command_list_compute_list(list, command))
        return;
    if (count > 2 || (count && !heaps)) {
        d3d12_command_list_record_error(list, command, "NumDescriptorHeaps is %u with ppDescriptorHeaps %s (at most one CBV_SRV_UAV and one SAMPLER heap)",
                count, heaps ? "set" : "NULL");
        return;
    }
    for (UINT i = 0; i < count; i++) {
        struct d3d12_descriptor_heap *heap = unsafe_impl_from_ID3D12DescriptorHeap(heaps[i]);
        if (!heap || !(heap->desc.Flags & D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE) || heap->desc.Type > D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER) {
            d3d12_command_list_record_error(list, command, "ppDescriptorHeaps[%u] is %s", i,
                    !heap ? "not a d3d12xs descriptor heap" : "not a shader-visible CBV_SRV_UAV or SAMPLER heap");
            return;
        }
        if (bound[heap->desc.Type]) {
            d3d12_command_list_record_error(list, command, "ppDescriptorHeaps holds two heaps of type %d (one of each type)", (int)heap->desc.Type);
            return;
        }
        bound[heap->desc.Type] = heap;
    }
    list->compute.heaps[0] = bound[0];
    list->compute.heaps[1] = bound[1];
    list->compute.descriptors_dirty = list->compute.tables_dirty = list->compute.heap_offsets_dirty = true;
}

/* Checks that a root-argument call names an existing parameter of the expected type. */
static bool root_parameter_valid(struct d3d12_command_list *list, const char *command, UINT index, D3D12_ROOT_PARAMETER_TYPE type)
{
    static const char *const type_names[] = {"DESCRIPTOR_TABLE", "32BIT_CONSTANTS", "CBV", "SRV", "UAV"};
    const struct d3d12_root_signature *signature = list->compute.root_signature;

    if (__builtin_expect(signature && index < signature->parameter_count && signature->parameter_types[index] == type, 1))
        return true;
    if (!signature)
        d3d12_command_list_record_error(list, command, "no compute root signature is set (call SetComputeRootSignature first)");
    else if (index >= signature->parameter_count)
        d3d12_command_list_record_error(list, command, "RootParameterIndex %u is past the root signature's %u parameters", index,
                signature->parameter_count);
    else
        d3d12_command_list_record_error(list, command, "root parameter %u is a %s, not a %s", index,
                type_names[signature->parameter_types[index]], type_names[type]);
    return false;
}

static void set_constants(struct d3d12_command_list *list, const char *command, UINT index, UINT count, const void *data, UINT offset)
{
    struct d3d12_compute_state *state = &list->compute;
    uint32_t limit;

    if (!d3d12_command_list_compute_list(list, command) || !root_parameter_valid(list, command, index, D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS))
        return;
    if (count && !data) {
        d3d12_command_list_record_error(list, command, "pSrcData is NULL with Num32BitValuesToSet %u", count);
        return;
    }
    limit = state->root_signature->constant_counts[index];
    if (offset > limit || count > limit - offset) {
        d3d12_command_list_record_error(list, command, "DestOffsetIn32BitValues %u + %u values pass root parameter %u's %u constants",
                offset, count, index, limit);
        return;
    }
    memcpy(&state->push_constants[state->root_signature->constant_offsets[index] / 4 + offset], data, count * 4);
    if (!(state->constants_set >> index & 1)) {
        state->constants_set |= 1ull << index;
        state->validated = false;
    }
    state->constants_dirty = true;
}

void STDMETHODCALLTYPE d3d12_command_list_SetComputeRoot32BitConstant(ID3D12GraphicsCommandList10 *iface, UINT index, UINT value, UINT offset)
{
    set_constants(impl_from_ID3D12GraphicsCommandList10(iface), METHOD(SetComputeRoot32BitConstant), index, 1, &value, offset);
}

void STDMETHODCALLTYPE d3d12_command_list_SetComputeRoot32BitConstants(ID3D12GraphicsCommandList10 *iface, UINT index, UINT count,
        const void *data, UINT offset)
{
    set_constants(impl_from_ID3D12GraphicsCommandList10(iface), METHOD(SetComputeRoot32BitConstants), index, count, data, offset);
}

static void set_argument(struct d3d12_command_list *list, const char *command, UINT index, D3D12_ROOT_PARAMETER_TYPE type, uint64_t value)
{
    if (!d3d12_command_list_compute_list(list, command) || !root_parameter_valid(list, command, index, type))
        return;
    if (!list->compute.arguments[index].set)
        list->compute.validated = false;
    list->compute.arguments[index].set = true;
    list->compute.arguments[index].value = value;
    list->compute.descriptors_dirty = true;
}

void STDMETHODCALLTYPE d3d12_command_list_SetComputeRootConstantBufferView(ID3D12GraphicsCommandList10 *iface, UINT index, D3D12_GPU_VIRTUAL_ADDRESS address)
{
    set_argument(impl_from_ID3D12GraphicsCommandList10(iface), METHOD(SetComputeRootConstantBufferView), index, D3D12_ROOT_PARAMETER_TYPE_CBV, address);
}

void STDMETHODCALLTYPE d3d12_command_list_SetComputeRootShaderResourceView(ID3D12GraphicsCommandList10 *iface, UINT index, D3D12_GPU_VIRTUAL_ADDRESS address)
{
    set_argument(impl_from_ID3D12GraphicsCommandList10(iface), METHOD(SetComputeRootShaderResourceView), index, D3D12_ROOT_PARAMETER_TYPE_SRV, address);
}

void STDMETHODCALLTYPE d3d12_command_list_SetComputeRootUnorderedAccessView(ID3D12GraphicsCommandList10 *iface, UINT index, D3D12_GPU_VIRTUAL_ADDRESS address)
{
    set_argument(impl_from_ID3D12GraphicsCommandList10(iface), METHOD(SetComputeRootUnorderedAccessView), index, D3D12_ROOT_PARAMETER_TYPE_UAV, address);
}

/* A table is an offset into the bound heap, checked and pushed at the next Dispatch. */
void STDMETHODCALLTYPE d3d12_command_list_SetComputeRootDescriptorTable(ID3D12GraphicsCommandList10 *iface, UINT index, D3D12_GPU_DESCRIPTOR_HANDLE handle)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    const char *command = METHOD(SetComputeRootDescriptorTable);

    if (!d3d12_command_list_compute_list(list, command) || !root_parameter_valid(list, command, index, D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE))
        return;
    if (!list->compute.arguments[index].set)
        list->compute.validated = false;
    list->compute.arguments[index].set = true;
    list->compute.arguments[index].value = handle.ptr;
    list->compute.tables_dirty = true;
}

static const char *kind_name(enum d3d12xs_descriptor_kind kind)
{
    static const char *const names[] = {"never written", "a CBV", "an SRV", "a UAV", "a sampler", "a render target view", "a depth stencil view"};
    return names[kind];
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
static bool resolve_descriptor(struct d3d12_command_list *list, const char *command, const struct d3d12xs_pipeline_binding *binding,
        VkDescriptorBufferInfo *buffer_info, struct d3d12_recorded_range *range, uint32_t *misalignment)
{
    struct d3d12_device *device = list->object.device;
    const struct d3d12_root_argument *argument = &list->compute.arguments[binding->root_index];
    const VkPhysicalDeviceLimits *limits = &device->vk_properties.limits;

    *misalignment = 0;
    if (binding->source == D3D12XS_BINDING_ORDERED_APPEND) {
        if (!list->compute.ordered_append_buffer) {
            d3d12_command_list_record_error(list, command, "the shader uses d3d12xs_ordered_append.hlsli's counters (register %s): "
                    "dispatch it with DispatchX and D3D12XBOX_DISPATCH_FLAG_ENABLE_ORDERED_APPEND", binding->register_name);
            return false;
        }
        buffer_info->buffer = list->compute.ordered_append_buffer;
        buffer_info->offset = list->compute.ordered_append_offset;
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
static void note_root_view(struct d3d12_compute_state *state, const struct d3d12xs_pipeline_binding *binding, uint32_t misalignment)
{
    const struct d3d12_root_signature *signature = state->pipeline->root_signature;
    uint32_t index = (signature->root_view_offsets[binding->root_index] - signature->root_views_offset) / 4;

    if (state->root_view_misalignments[index] != misalignment) {
        state->root_view_misalignments[index] = misalignment;
        state->root_view_misalignments_dirty = true;
    }
    /* D3DCompile's uvec4 accesses to a raw buffer need its view on a 16-byte boundary */
    state->root_views_scalar |= binding->alias_variable_id && misalignment % 16;
}

static bool push_descriptors(struct d3d12_command_list *list, const char *command)
{
    struct d3d12_compute_state *state = &list->compute;
    const struct d3d12_pipeline_state *pipeline = list->compute.pipeline;
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
            if (!resolve_descriptor(list, command, binding, &info, &ranges[range_count], &misalignment))
                return false;
            if (!(list->compute.root_addresses[binding->address_slot] = list->compute.arguments[binding->root_index].value)) {
                /* never set: the shader reads the device's zeroed buffer instead of address 0 */
                VkBufferDeviceAddressInfo null_info = {VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, NULL, list->object.device->null_buffer};
                list->compute.root_addresses[binding->address_slot] = vkGetBufferDeviceAddress(list->object.device->vk_device, &null_info);
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
            if (!resolve_descriptor(list, command, binding, &buffer_infos[element_count], &ranges[range_count], &misalignment))
                return false;
            if (ranges[range_count].buffer)
                range_count++;
            if (binding->view_offsets)
                note_root_view(state, binding, misalignment);
        }
        write_count++;
    }
    if (write_count)
        list->object.device->vkCmdPushDescriptorSetKHR(list->vk_command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline->vk_layout,
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
static void bind_heaps(struct d3d12_command_list *list)
{
    struct d3d12_compute_state *state = &list->compute;
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
        buffers->vkCmdSetDescriptorBufferOffsetsEXT(list->vk_command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, state->pipeline->vk_layout,
                0, set_count, indices, offsets);
    } else {
        buffers->vkCmdSetDescriptorBufferOffsetsEXT(list->vk_command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, state->pipeline->vk_layout,
                D3D12XS_HEAP_SET_SAMPLERS, 1, &indices[D3D12XS_HEAP_SET_SAMPLERS], &offsets[D3D12XS_HEAP_SET_SAMPLERS]);
    }
}

/* Each table's start as a heap index, checked against the bound heap of its type where the
 * shader reads it, then the CBV_SRV_UAV heap's size for d3d12xs_heap.hlsli (root signatures
 * with CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED); pushed after the root constants. */
static bool push_table_starts(struct d3d12_command_list *list, const char *command)
{
    struct d3d12_compute_state *state = &list->compute;
    const struct d3d12_root_signature *signature = state->root_signature;
    const uint64_t increment = sizeof(struct d3d12xs_descriptor);
    const struct d3d12xs_descriptor_buffers *buffers = list->object.device->descriptor_buffers;
    uint32_t table = 0;

    for (uint32_t i = 0; i < signature->parameter_count; i++) {
        if (signature->parameter_types[i] != D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE)
            continue;
        bool sampler = signature->sampler_table_mask >> i & 1, read = state->pipeline->used_root_mask >> i & 1;
        const struct d3d12_descriptor_heap *heap = state->heaps[sampler];
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
        state->table_starts[table++] = start;
    }
    /* Every register the shader reads through a table inside the heap (an unbounded array: its first). */
    for (uint32_t b = 0; b < state->pipeline->binding_count; b++) {
        const struct d3d12xs_pipeline_binding *binding = &state->pipeline->bindings[b];
        const struct d3d12_descriptor_heap *heap;
        uint64_t start;
        if (binding->source != D3D12XS_BINDING_TABLE)
            continue;
        heap = state->heaps[signature->sampler_table_mask >> binding->root_index & 1];
        start = (state->arguments[binding->root_index].value - heap->gpu_base) / increment;
        if (start + binding->table_offset + binding->table_extent > heap->desc.NumDescriptors) {
            d3d12_command_list_record_error(list, command, "root parameter %u's table (register %s) does not lie inside the bound %s heap: "
                    "it reads descriptors %llu to %llu of %u", binding->root_index, binding->register_name,
                    signature->sampler_table_mask >> binding->root_index & 1 ? "SAMPLER" : "CBV_SRV_UAV",
                    (unsigned long long)(start + binding->table_offset), (unsigned long long)(start + binding->table_offset + binding->table_extent - 1),
                    heap->desc.NumDescriptors);
            return false;
        }
        /* Heaps hold D3D12's sizes on every device; shaders reach the first capacity[set] of
         * them (descriptor_buffer.c). Past that a read would be undefined: refused like a table
         * past its heap. */
        uint32_t addressable = buffers->capacity[binding->heap_set == D3D12XS_HEAP_SET_SAMPLERS ? D3D12XS_HEAP_SET_SAMPLERS
                : D3D12XS_HEAP_SET_RESOURCES];
        if (start + binding->table_offset + binding->table_extent > addressable) {
            d3d12_command_list_record_error(list, command, "root parameter %u's table (register %s) reads descriptors %llu to %llu of the "
                    "bound %s heap, past the %u that shaders on %s can address", binding->root_index, binding->register_name,
                    (unsigned long long)(start + binding->table_offset), (unsigned long long)(start + binding->table_offset + binding->table_extent - 1),
                    binding->heap_set == D3D12XS_HEAP_SET_SAMPLERS ? "SAMPLER" : "CBV_SRV_UAV", addressable,
                    list->object.device->vk_properties.deviceName);
            return false;
        }
    }
    if (state->pipeline->indexes_sampler_heap && !state->heaps[1]) {
        d3d12_command_list_record_error(list, command, "the shader indexes the SAMPLER heap directly (d3d12xs_heap.hlsli) but no "
                "SAMPLER heap is set (SetDescriptorHeaps)");
        return false;
    }
    if (signature->heap_size_offset != UINT32_MAX) {
        if (state->pipeline->indexes_heap && !state->heaps[0]) {
            d3d12_command_list_record_error(list, command, "the shader indexes the CBV_SRV_UAV heap directly (d3d12xs_heap.hlsli) but no "
                    "CBV_SRV_UAV heap is set (SetDescriptorHeaps)");
            return false;
        }
        /* The size d3d12xs_heap.hlsli checks indices against: no more than shaders can address,
         * so an index past that loads 0 as one past the heap does. */
        uint32_t size = state->heaps[0] ? state->heaps[0]->desc.NumDescriptors : 0;
        state->table_starts[table++] = size < buffers->capacity[D3D12XS_HEAP_SET_RESOURCES] ? size
                : buffers->capacity[D3D12XS_HEAP_SET_RESOURCES];
    }
    if (table)
        vkCmdPushConstants(list->vk_command_buffer, state->pipeline->vk_layout, VK_SHADER_STAGE_COMPUTE_BIT, signature->tables_offset,
                4 * table, state->table_starts);
    return true;
}

/* Brings the Vulkan state up to date for a dispatch; false (after recording the error) if it cannot run. */
bool d3d12_command_list_flush_compute(struct d3d12_command_list *list, const char *command, unsigned variant)
{
    VkPipeline vk_pipeline;
    struct d3d12_compute_state *state = &list->compute;
    const struct d3d12_pipeline_state *pipeline = state->pipeline;
    const struct d3d12_root_signature *signature = state->root_signature;

    assert(!list->in_internal); /* internal work ends before the application's next command */
    /* The checks depend only on what is bound and which arguments were ever set, so they
     * run again only after one of those changed: a constants-only Dispatch skips them. */
    if (!state->validated) {
        if (!pipeline) {
            d3d12_command_list_record_error(list, command, "no pipeline state is set (SetPipelineState)");
            return false;
        }
        if (!signature) {
            d3d12_command_list_record_error(list, command, "no compute root signature is set (SetComputeRootSignature)");
            return false;
        }
        /* D3D12 leaves both below undefined (its debug layer reports them): a warning, and the
         * dispatch runs where it safely can. */
        if (!d3d12_root_signatures_compatible(signature, pipeline->root_signature)) {
            d3d12_command_list_debug_warn(list, command, "the pipeline was built for a root signature of another layout than the one "
                    "set: the dispatch is skipped");
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
                        "set: the dispatch is skipped", index);
                return false;
            }
            d3d12_command_list_debug_warn(list, command, "root parameter %u is read by the shader but was never set: it reads %s", index,
                    constants ? "zeros" : "a null descriptor");
        }
        state->validated = true;
    }
    /* Root descriptors first: they decide whether the SCALAR variant runs. */
    if (state->pipeline_dirty || state->descriptors_dirty) {
        if (pipeline->descriptor_count || pipeline->address_count) {
            if (!push_descriptors(list, command))
                return false;
        } else {
            list->record.bound_count = 0;
            state->root_views_scalar = false;
        }
    }
    if (state->root_views_scalar)
        variant |= D3D12XS_VARIANT_SCALAR;
    vk_pipeline = pipeline->vk_pipeline;
    if (variant) {
        char error[320];
        if (!(vk_pipeline = d3d12_pipeline_state_variant(state->pipeline, variant, error, sizeof(error)))) {
            d3d12_command_list_record_error(list, command, "the pipeline cannot run as variant 0x%x (DispatchX flags, root views "
                    "off 16-byte boundaries): %s", variant, error);
            return false;
        }
    }
    if (state->pipeline_dirty || state->bound_vk_pipeline != vk_pipeline) {
        vkCmdBindPipeline(list->vk_command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, vk_pipeline);
        state->bound_vk_pipeline = vk_pipeline;
    }
    if ((state->pipeline_dirty || state->constants_dirty) && signature->push_constant_size && !signature->memory_abi)
        vkCmdPushConstants(list->vk_command_buffer, pipeline->vk_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, signature->push_constant_size,
                state->push_constants);
    if (pipeline->reads_heaps) {
        if ((state->pipeline_dirty || state->tables_dirty) && !push_table_starts(list, command))
            return false;
        /* A table change alone moves only the table starts: the heap sets stay where they are. */
        if (state->pipeline_dirty || state->heap_offsets_dirty)
            bind_heaps(list);
        state->tables_dirty = state->heap_offsets_dirty = false;
    }
    if (signature->root_view_count && (state->pipeline_dirty || state->root_view_misalignments_dirty)) {
        vkCmdPushConstants(list->vk_command_buffer, pipeline->vk_layout, VK_SHADER_STAGE_COMPUTE_BIT, signature->root_views_offset,
                4 * signature->root_view_count, state->root_view_misalignments);
        state->root_view_misalignments_dirty = false;
    }
    /* Memory-based ABI: a fresh copy of the root constants whenever any binding input changed. */
    if (pipeline->memory_abi && (state->pipeline_dirty || state->constants_dirty || state->descriptors_dirty)
            && !d3d12_command_list_write_memory_arguments(list, command))
        return false;
    state->pipeline_dirty = state->constants_dirty = state->descriptors_dirty = false;
    list->dispatch_counts[signature->memory_abi]++;
    list->root_descriptor_counts[0] += pipeline->pushed_root_descriptor_count;
    list->root_descriptor_counts[1] += pipeline->address_count;
    /* With the console validation on, a dispatch also records what its tables hold. */
    if (__builtin_expect(list->object.device->console_validation != NULL, 0))
        return d3d12_command_list_note_dispatch_ranges(list, command);
    list->record.dispatch_first = list->record.bound_first;
    list->record.dispatch_count = list->record.bound_count;
    return true;
}

void STDMETHODCALLTYPE d3d12_command_list_Dispatch(ID3D12GraphicsCommandList10 *iface, UINT x, UINT y, UINT z)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    const char *command = METHOD(Dispatch);

    if (!d3d12_command_list_compute_list(list, command))
        return;
    if (x > D3D12_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION || y > D3D12_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION
            || z > D3D12_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION) {
        d3d12_command_list_record_error(list, command, "ThreadGroupCount %u x %u x %u exceeds 65535 in a dimension", x, y, z);
        return;
    }
    if (!d3d12_command_list_flush_compute(list, command, 0))
        return;
    if (x && y && z) {
        d3d12_barriers_before(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
        vkCmdDispatch(list->vk_command_buffer, x, y, z);
        d3d12_command_list_note(list, D3D12_RECORDED_DISPATCH, list->record.dispatch_first, list->record.dispatch_count);
    }
}

/* The UAV clears' checks; the clear itself is command_list_uav_clear.c's. */
static void clear_uav(struct d3d12_command_list *list, const char *command, D3D12_CPU_DESCRIPTOR_HANDLE cpu_handle,
        ID3D12Resource *resource_iface, const uint32_t values[4], bool float_values, UINT rect_count, const D3D12_RECT *rects)
{
    struct d3d12xs_descriptor *descriptor;
    const char *reason;

    if (!d3d12_command_list_compute_list(list, command))
        return;
    if (!(descriptor = d3d12xs_descriptor_lookup(list->object.device, cpu_handle, 1, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, &reason, NULL))) {
        d3d12_command_list_record_error(list, command, "ViewCPUHandle 0x%zx is %s", (size_t)cpu_handle.ptr, reason);
        return;
    }
    if (descriptor->kind != D3D12XS_DESCRIPTOR_UAV || descriptor->null_view) {
        d3d12_command_list_record_error(list, command, "ViewCPUHandle holds %s, not a UAV of a buffer", descriptor->null_view ? "a null view" : kind_name(descriptor->kind));
        return;
    }
    if (!resource_iface || unsafe_impl_from_ID3D12Resource(resource_iface) != descriptor->resource) {
        d3d12_command_list_record_error(list, command, "pResource is not the resource the view describes");
        return;
    }
    if (d3d12xs_descriptor_is_texture(descriptor)) {
        d3d12_command_list_clear_texture_uav(list, command, descriptor, values, float_values, rect_count, rects);
        return;
    }
    if (rect_count) {
        d3d12_command_list_record_error(list, command, "NumRects is %u (buffer views take no rectangles)", rect_count);
        return;
    }
    d3d12_command_list_clear_buffer_uav(list, command, descriptor, values, float_values);
}

void STDMETHODCALLTYPE d3d12_command_list_ClearUnorderedAccessViewUint(ID3D12GraphicsCommandList10 *iface, D3D12_GPU_DESCRIPTOR_HANDLE gpu_handle,
        D3D12_CPU_DESCRIPTOR_HANDLE cpu_handle, ID3D12Resource *resource, const UINT values[4], UINT rect_count, const D3D12_RECT *rects)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    (void)gpu_handle;
    if (!values) {
        if (d3d12_command_list_compute_list(list, METHOD(ClearUnorderedAccessViewUint)))
            d3d12_command_list_record_error(list, METHOD(ClearUnorderedAccessViewUint), "Values is NULL");
        return;
    }
    clear_uav(list, METHOD(ClearUnorderedAccessViewUint), cpu_handle, resource, values, false, rect_count, rects);
}

void STDMETHODCALLTYPE d3d12_command_list_ClearUnorderedAccessViewFloat(ID3D12GraphicsCommandList10 *iface, D3D12_GPU_DESCRIPTOR_HANDLE gpu_handle,
        D3D12_CPU_DESCRIPTOR_HANDLE cpu_handle, ID3D12Resource *resource, const FLOAT values[4], UINT rect_count, const D3D12_RECT *rects)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    uint32_t bits[4];
    (void)gpu_handle;
    if (!values) {
        if (d3d12_command_list_compute_list(list, METHOD(ClearUnorderedAccessViewFloat)))
            d3d12_command_list_record_error(list, METHOD(ClearUnorderedAccessViewFloat), "Values is NULL");
        return;
    }
    memcpy(bits, values, sizeof(bits));
    clear_uav(list, METHOD(ClearUnorderedAccessViewFloat), cpu_handle, resource, bits, true, rect_count, rects);
}
