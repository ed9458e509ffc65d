/* DispatchX (SPEC §2.1) and the list's start group (D3D12XSSetDispatchStartGroup): a Dispatch
 * whose flags pick the pipeline variant, the start group, the ordered-append state and the
 * cache actions. docs/dispatch.md says how each flag maps to Vulkan. */
#include <string.h>

#include "commands/command_recording.h"
#include "commands/command_list_flush.h"
#include "spirv/spirv.h"

#define METHOD(name) "ID3D12GraphicsCommandList::" #name

#define KNOWN_DISPATCH_FLAGS (D3D12XBOX_DISPATCH_FLAG_FORCE_START_AT_000 | D3D12XBOX_DISPATCH_FLAG_ENABLE_ORDERED_APPEND \
        | D3D12XBOX_DISPATCH_FLAG_ORDERED_APPEND_WAVEID_PER_THREADGROUP | D3D12XBOX_DISPATCH_FLAG_USE_THREAD_DIMENSIONS \
        | D3D12XBOX_DISPATCH_FLAG_ENABLE_OUT_OF_ORDER | D3D12XBOX_DISPATCH_FLAG_DISABLE_VOLATILE_VECTOR_L1 \
        | D3D12XBOX_DISPATCH_FLAG_DISABLE_VOLATILE_SCALAR_L1 | D3D12XBOX_DISPATCH_FLAG_INVALIDATE_VOLATILE_SCALAR_L1 \
        | D3D12XBOX_DISPATCH_FLAG_INVALIDATE_VOLATILE_VECTOR_L1 | D3D12XBOX_DISPATCH_FLAG_W32)
#define DISABLE_VOLATILE_FLAGS (D3D12XBOX_DISPATCH_FLAG_DISABLE_VOLATILE_VECTOR_L1 | D3D12XBOX_DISPATCH_FLAG_DISABLE_VOLATILE_SCALAR_L1)
#define INVALIDATE_VOLATILE_FLAGS (D3D12XBOX_DISPATCH_FLAG_INVALIDATE_VOLATILE_SCALAR_L1 | D3D12XBOX_DISPATCH_FLAG_INVALIDATE_VOLATILE_VECTOR_L1)

/* The ordered-append state (ours; include/d3d12xs_ordered_append.hlsli reads the same words). */
#define ORDERED_APPEND_MODE_WORD 2
#define ORDERED_APPEND_MODE_PER_GROUP 1u

static bool flags_valid(struct d3d12_command_list *list, const char *command, const struct d3d12_pipeline_state *pipeline,
        D3D12XBOX_DISPATCH_FLAGS flags)
{
    bool w32 = flags & D3D12XBOX_DISPATCH_FLAG_W32;

    if (flags & ~KNOWN_DISPATCH_FLAGS) {
        d3d12_command_list_record_error(list, command, "Flags 0x%x has unknown bits 0x%x (SPEC §2.1 lists the defined ones)", (unsigned)flags,
                (unsigned)(flags & ~KNOWN_DISPATCH_FLAGS));
        return false;
    }
    if ((flags & D3D12XBOX_DISPATCH_FLAG_ENABLE_OUT_OF_ORDER) && list->type != D3D12_COMMAND_LIST_TYPE_COMPUTE) {
        d3d12_command_list_record_error(list, command, "Flags has ENABLE_OUT_OF_ORDER, which only COMPUTE lists (async compute queues) take");
        return false;
    }
    if ((flags & D3D12XBOX_DISPATCH_FLAG_ORDERED_APPEND_WAVEID_PER_THREADGROUP) && !(flags & D3D12XBOX_DISPATCH_FLAG_ENABLE_ORDERED_APPEND)) {
        d3d12_command_list_record_error(list, command, "Flags has ORDERED_APPEND_WAVEID_PER_THREADGROUP without ENABLE_ORDERED_APPEND");
        return false;
    }
    if (!pipeline) {
        d3d12_command_list_record_error(list, command, "no pipeline state is set (SetPipelineState)");
        return false;
    }
    if (w32 != (pipeline->wave_size == 32)) {
        d3d12_command_list_record_error(list, command, w32
                ? "Flags has W32 but the pipeline is wave64 (W32 is for shaders compiled with -D__XBOX_ENABLE_WAVE32=1)"
                : "the pipeline is wave32 (compiled with -D__XBOX_ENABLE_WAVE32=1): Flags must have W32");
        return false;
    }
    return true;
}

/* Fresh counters for this dispatch in a slice of the allocator's scratch memory, and the
 * ordering unit (wave or group) for the include to read. */
static bool prepare_ordered_append(struct d3d12_command_list *list, const char *command, bool per_group)
{
    uint32_t head[ORDERED_APPEND_MODE_WORD + 1] = {0}; /* the counters before the mode word, and the mode */
    VkBuffer buffer;
    VkDeviceSize offset;
    HRESULT hr;

    if (FAILED(hr = d3d12_command_allocator_get_scratch(list->allocator, &buffer, &offset))) {
        d3d12_command_list_record_error(list, command, "cannot allocate the ordered-append state (HRESULT 0x%08x)", (unsigned)hr);
        return false;
    }
    head[ORDERED_APPEND_MODE_WORD] = per_group ? ORDERED_APPEND_MODE_PER_GROUP : 0;
    d3d12_barriers_before(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
    /* The words up to the mode in one update, the rest zeroed by a fill: two transfer writes
     * to the same bytes would need a barrier between them (Vulkan does not order them). */
    vkCmdUpdateBuffer(list->vk_command_buffer, buffer, offset, sizeof(head), head);
    vkCmdFillBuffer(list->vk_command_buffer, buffer, offset + sizeof(head), D3D12XS_SCRATCH_SLICE_SIZE - sizeof(head), 0);
    /* The dispatch's own step: its counters are cleared before it reads them. */
    d3d12_barriers_emit(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
            VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT);
    list->bindings.ordered_append_buffer = buffer;
    list->bindings.ordered_append_offset = offset;
    list->bindings.points[D3D12_BIND_POINT_COMPUTE].dirty |= D3D12_DIRTY_DESCRIPTORS;
    return true;
}

void STDMETHODCALLTYPE d3d12_command_list_DispatchX(ID3D12GraphicsCommandList *iface, UINT x, UINT y, UINT z, D3D12XBOX_DISPATCH_FLAGS flags)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10((ID3D12GraphicsCommandList10 *)iface);
    const VkPhysicalDeviceLimits *limits = &list->object.device->vk_properties.limits;
    const char *command = METHOD(DispatchX);
    struct d3d12_pipeline_state *pipeline;
    /* the thread limit: none where the counts are groups (the DispatchX variant checks it always) */
    uint32_t counts[3] = {x, y, z}, groups[3], base[3] = {0, 0, 0}, thread_end[4] = {UINT32_MAX, UINT32_MAX, UINT32_MAX, 0};
    unsigned variant = 0;

    if (!d3d12_command_list_compute_list(list, command) || !d3d12_command_list_outside_render_pass(list, command))
        return;
    pipeline = list->bindings.pipeline;
    if (!flags_valid(list, command, pipeline, flags))
        return;
    if (!(flags & D3D12XBOX_DISPATCH_FLAG_FORCE_START_AT_000))
        memcpy(base, list->bindings.start_group, sizeof(base));
    for (int i = 0; i < 3; i++) {
        groups[i] = counts[i];
        if (flags & D3D12XBOX_DISPATCH_FLAG_USE_THREAD_DIMENSIONS) {
            /* Counts are threads; a partial last group needs the thread-limit variant. */
            groups[i] = (uint32_t)(((uint64_t)counts[i] + pipeline->local_size[i] - 1) / pipeline->local_size[i]);
            if (counts[i] % pipeline->local_size[i])
                variant |= D3D12XS_VARIANT_THREAD_LIMIT;
            thread_end[i] = base[i] * pipeline->local_size[i] + counts[i];
        }
        if (groups[i] > D3D12_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION
                || (uint64_t)base[i] + groups[i] > D3D12_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION
                || (uint64_t)base[i] + groups[i] > limits->maxComputeWorkGroupCount[i]) {
            d3d12_command_list_record_error(list, command, "%s %u x %u x %u from start group %u, %u, %u passes group %u in a dimension",
                    flags & D3D12XBOX_DISPATCH_FLAG_USE_THREAD_DIMENSIONS ? "thread count" : "ThreadGroupCount", x, y, z, base[0], base[1], base[2],
                    D3D12_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION);
            return;
        }
    }
    if (!groups[0] || !groups[1] || !groups[2])
        return; /* nothing runs, as for Dispatch with a zero count */
    if (flags & DISABLE_VOLATILE_FLAGS)
        variant |= D3D12XS_VARIANT_COHERENT;
    if (base[0] || base[1] || base[2])
        variant |= D3D12XS_VARIANT_DISPATCH_BASE;
    if ((flags & D3D12XBOX_DISPATCH_FLAG_ENABLE_ORDERED_APPEND) && pipeline->ordered_append
            && !prepare_ordered_append(list, command, flags & D3D12XBOX_DISPATCH_FLAG_ORDERED_APPEND_WAVEID_PER_THREADGROUP))
        return;
    if (flags & INVALIDATE_VOLATILE_FLAGS) {
        /* Device-scope writes of earlier commands become visible to this dispatch's reads, its
         * constant buffers' (uniform reads: the scalar cache) among them. */
        d3d12_barriers_emit(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_UNIFORM_READ_BIT | VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT);
    }
    if (!d3d12_command_list_flush_compute(list, command, variant))
        goto done;
    if (variant && pipeline->dispatchx_thread_limit)
        list->vk.vkCmdPushConstants(list->vk_command_buffer, pipeline->vk_layout, pipeline->root_signature->vk_push_stages[D3D12XS_LAYOUT_COMPUTE], pipeline->thread_limit_offset,
                sizeof(thread_end), thread_end);
    d3d12_barriers_before(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
    d3d12_command_list_begin_predicated(list);
    if (base[0] || base[1] || base[2])
        vkCmdDispatchBase(list->vk_command_buffer, base[0], base[1], base[2], groups[0], groups[1], groups[2]);
    else
        list->vk.vkCmdDispatch(list->vk_command_buffer, groups[0], groups[1], groups[2]);
    d3d12_command_list_end_predicated(list);
    d3d12_command_list_note(list, D3D12_RECORDED_DISPATCH, list->record.dispatch_first, list->record.dispatch_count);
done:
    if (list->bindings.ordered_append_buffer) {
        /* The state belongs to this dispatch only: a later one gets its own, or an error. */
        list->bindings.ordered_append_buffer = VK_NULL_HANDLE;
        list->bindings.points[D3D12_BIND_POINT_COMPUTE].dirty |= D3D12_DIRTY_DESCRIPTORS;
    }
}

HRESULT D3D12XSSetDispatchStartGroup(ID3D12GraphicsCommandList *iface, UINT x, UINT y, UINT z)
{
    static const char method[] = "D3D12XSSetDispatchStartGroup";
    struct d3d12_command_list *list = unsafe_impl_from_ID3D12CommandList((ID3D12CommandList *)iface);

    if (!list)
        return d3d12xs_fail(E_INVALIDARG, method, "pCommandList is %s (must be a d3d12xs command list)", iface ? "not a d3d12xs command list" : "NULL");
    if (list->type == D3D12_COMMAND_LIST_TYPE_COPY)
        return d3d12xs_fail(E_INVALIDARG, method, "the list '%s' is a COPY list (it runs no dispatches)", d3d12xs_object_name(&list->object));
    if (list->state != D3D12_COMMAND_LIST_RECORDING)
        return d3d12xs_fail(E_FAIL, method, "the list '%s' is closed (Reset it before recording)", d3d12xs_object_name(&list->object));
    if (x >= D3D12_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION || y >= D3D12_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION
            || z >= D3D12_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION)
        return d3d12xs_fail(E_INVALIDARG, method, "start group %u, %u, %u is past 65534 in a dimension (a dispatch may reach group 65534)", x, y, z);
    list->bindings.start_group[0] = x;
    list->bindings.start_group[1] = y;
    list->bindings.start_group[2] = z;
    return S_OK;
}
