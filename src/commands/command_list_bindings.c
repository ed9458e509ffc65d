/* What a command list binds: the pipeline state and descriptor heaps (list-wide), and the root
 * signature and root arguments of each bind point. SetComputeRoot* and SetGraphicsRoot* are one
 * implementation here over enum d3d12_bind_point; the flush that turns them into Vulkan state is
 * command_list_flush.c. */
#include <string.h>

#include "command_recording.h"
#include "command_list_flush.h"
#include "commands/command_list_graphics.h"
#include "descriptors/descriptor_buffer.h"
#include "pipelines/graphics_pipeline.h"

#define METHOD(name) "ID3D12GraphicsCommandList::" #name

void d3d12_command_list_reset_bindings(struct d3d12_command_list *list)
{
    struct d3d12_graphics_bindings *graphics = &list->bindings.graphics;
    struct d3d12_device *device = list->object.device;

    memset(&list->bindings, 0, sizeof(list->bindings));
    /* an unbound vertex slot reads 0: a null buffer, or the device's zeroed one */
    graphics->vertex_none = device->descriptor_buffers->null_descriptor ? VK_NULL_HANDLE : device->null_buffer;
    graphics->vertex_none_size = device->descriptor_buffers->null_descriptor ? VK_WHOLE_SIZE : D3D12XS_NULL_BUFFER_SIZE;
    for (uint32_t slot = 0; slot < D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT; slot++)
        d3d12_vertex_slot_clear(&graphics->vertex, slot, graphics->vertex_none, graphics->vertex_none_size);
    graphics->draw_stages = d3d12_draw_stages(device);
    graphics->draw_tracked_stages = d3d12_tracked_stages(graphics->draw_stages);
}

/* The checks of a call that binds at a bind point: a COPY list binds nothing; graphics state on a
 * COMPUTE list is kept (it is never read there), as D3D12 leaves it to the debug layer. */
static inline bool binding_list(struct d3d12_command_list *list, enum d3d12_bind_point point, const char *command)
{
    if (!d3d12_command_list_binding_list(list, command))
        return false;
    if (point == D3D12_BIND_POINT_GRAPHICS && __builtin_expect(list->type == D3D12_COMMAND_LIST_TYPE_COMPUTE, 0))
        d3d12_command_list_debug_warn(list, command, "a COMPUTE list draws nothing: its graphics root arguments are never read");
    return true;
}

/* The pipeline is list-wide, as in D3D12; the bind point it runs at binds it at its next flush.
 * Both bind points check it again: it may no longer be of their kind. */
static inline void change_pipeline(struct d3d12_command_list *list, struct d3d12_pipeline_state *state)
{
    list->bindings.pipeline = state;
    list->bindings.points[d3d12_pipeline_bind_point(state)].dirty |= D3D12_DIRTY_PIPELINE;
    list->bindings.points[D3D12_BIND_POINT_COMPUTE].validated = list->bindings.points[D3D12_BIND_POINT_GRAPHICS].validated = false;
}

static inline void set_pipeline_state(struct d3d12_command_list *list, ID3D12PipelineState *iface, const char *command)
{
    struct d3d12_pipeline_state *state = unsafe_impl_from_ID3D12PipelineState(iface);
    if (!state) {
        d3d12_command_list_record_error(list, command, "pPipelineState is %s (must be a pipeline from this device)", iface ? "not a d3d12xs pipeline" : "NULL");
        return;
    }
    if (list->bindings.pipeline != state)
        change_pipeline(list, state);
}

void d3d12_command_list_set_pipeline_state(struct d3d12_command_list *list, ID3D12PipelineState *iface, const char *command)
{
    set_pipeline_state(list, iface, command);
}

/* SetPipelineState's every way but the short one, which takes every change that keeps a list
 * settled: any change here unsettles it (the call counts past the settled count). */
static void __attribute__((noinline)) set_pipeline_state_full(struct d3d12_command_list *list, ID3D12PipelineState *state)
{
    if (d3d12_command_list_binding_list(list, METHOD(SetPipelineState)))
        set_pipeline_state(list, state, METHOD(SetPipelineState));
}

void STDMETHODCALLTYPE d3d12_command_list_SetPipelineState(ID3D12GraphicsCommandList10 *iface, ID3D12PipelineState *state)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    const struct d3d12_pipeline_state *before = list->bindings.pipeline;
    struct d3d12_pipeline_state *after;

    /* The short way: a settled list (a recording DIRECT list whose pipeline is the graphics one
     * its last draw bound) changing to another that draws alike stays settled: the new one is
     * bound at once where that is all its next draw's flush would record, else that draw binds
     * it in the flush. No call but the change's: no stack frame. */
    if (__builtin_expect(list->draw_settled_at == list->call_count, 1) && (after = unsafe_impl_from_ID3D12PipelineState(state))
            && after != before && after->graphics && d3d12_graphics_pipelines_draw_alike(before->graphics, after->graphics)) {
        list->call_count++;
        change_pipeline(list, after);
        d3d12_command_list_change_settled_pipeline(list);
        return;
    }
    set_pipeline_state_full(list, state);
}

void STDMETHODCALLTYPE d3d12_command_list_SetDescriptorHeaps(ID3D12GraphicsCommandList10 *iface, UINT count, ID3D12DescriptorHeap *const *heaps)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    struct d3d12_descriptor_heap *bound[2] = {NULL, NULL};
    const char *command = METHOD(SetDescriptorHeaps);

    if (!d3d12_command_list_binding_list(list, command) || !d3d12_command_list_outside_render_pass(list, command))
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
    for (int t = 0; t < 2; t++) {
        uint32_t capacity = list->object.device->descriptor_buffers->capacity[t ? D3D12XS_HEAP_SET_SAMPLERS : D3D12XS_HEAP_SET_RESOURCES];
        list->bindings.heaps[t] = bound[t];
        list->bindings.table_limits[t] = !bound[t] ? 0 : bound[t]->desc.NumDescriptors < capacity ? bound[t]->desc.NumDescriptors : capacity;
    }
    for (int p = 0; p < D3D12_BIND_POINT_COUNT; p++) {
        struct d3d12_bind_point_state *point = &list->bindings.points[p];
        point->dirty |= D3D12_DIRTY_DESCRIPTORS | D3D12_DIRTY_TABLES | D3D12_DIRTY_HEAP_OFFSETS;
    }
}

static void set_root_signature(struct d3d12_command_list *list, enum d3d12_bind_point bind_point, ID3D12RootSignature *signature_iface,
        const char *command)
{
    struct d3d12_bind_point_state *point = &list->bindings.points[bind_point];
    struct d3d12_root_signature *signature;

    if (!binding_list(list, bind_point, command))
        return;
    if (!(signature = unsafe_impl_from_ID3D12RootSignature(signature_iface))) {
        d3d12_command_list_record_error(list, command, "pRootSignature is %s", signature_iface ? "not a d3d12xs root signature" : "NULL");
        return;
    }
    if (point->root_signature == signature)
        return;
    /* A new root signature starts with no arguments set, as in D3D12. */
    point->root_signature = signature;
    memset(point->arguments, 0, sizeof(point->arguments));
    memset(point->push_constants, 0, sizeof(point->push_constants)); /* constants never set read 0 */
    point->constants_set = 0;
    memset(point->table_starts, 0, sizeof(point->table_starts));
    point->dirty |= D3D12_DIRTY_CONSTANTS | D3D12_DIRTY_DESCRIPTORS | D3D12_DIRTY_TABLES | D3D12_DIRTY_HEAP_OFFSETS;
    point->constants_dirty_first = 0;
    point->constants_dirty_end = signature->push_constant_size / 4;
    d3d12_bind_point_unvalidate(point);
}

/* Whether a root argument's Vulkan state is recorded at once, as the bind point's next flush
 * would record it: the bind point owns the push constants, its pipeline's layout is bound, and
 * nothing waits for its next flush, so that flush has nothing to apply (its short way does
 * nothing). For graphics, the list is settled (draw_settled_at: the last draw and every call
 * since left nothing but what the next draw applies itself; `before` is call_count before this
 * call counted itself); for compute, the last flush was a plain one of this bind point's (no
 * DispatchX variant, memory-based ABI or console validation record: constants_only) and nothing
 * changed since. */
static inline bool applies_now(const struct d3d12_command_list *list, enum d3d12_bind_point bind_point, uint32_t before)
{
    const struct d3d12_bind_point_state *point = &list->bindings.points[bind_point];

    if (bind_point == D3D12_BIND_POINT_GRAPHICS)
        return list->draw_settled_at == before && !point->dirty;
    /* a list settled by a dispatch (dispatch_settled_at) holds the rest, and is the common case */
    return !point->dirty && (list->dispatch_settled_at == before
            || (list->bindings.push_owner == D3D12_BIND_POINT_COMPUTE && point->validated && point->constants_only));
}

/* Root constants first..first + count of a bind point that applies them now (applies_now). */
static inline void push_constants_now(struct d3d12_command_list *list, enum d3d12_bind_point bind_point, const struct d3d12_bind_point_state *point,
        uint32_t first, uint32_t count)
{
    list->vk.vkCmdPushConstants(list->vk_command_buffer, list->bindings.pipeline->vk_layout, point->root_signature->vk_push_stages[bind_point], 4 * first,
            4 * count, &point->push_constants[first]);
}

/* Checks that a root-argument call names an existing parameter of the expected type. */
static bool root_parameter_valid(struct d3d12_command_list *list, enum d3d12_bind_point bind_point, const char *command, UINT index,
        D3D12_ROOT_PARAMETER_TYPE type)
{
    static const char *const type_names[] = {"DESCRIPTOR_TABLE", "32BIT_CONSTANTS", "CBV", "SRV", "UAV"};
    const struct d3d12_root_signature *signature = list->bindings.points[bind_point].root_signature;

    if (__builtin_expect(signature && index < signature->parameter_count && signature->parameter_types[index] == type, 1))
        return true;
    if (!signature)
        d3d12_command_list_record_error(list, command, "no %s root signature is set (call %s first)",
                bind_point == D3D12_BIND_POINT_COMPUTE ? "compute" : "graphics",
                bind_point == D3D12_BIND_POINT_COMPUTE ? "SetComputeRootSignature" : "SetGraphicsRootSignature");
    else if (index >= signature->parameter_count)
        d3d12_command_list_record_error(list, command, "RootParameterIndex %u is past the root signature's %u parameters", index,
                signature->parameter_count);
    else
        d3d12_command_list_record_error(list, command, "root parameter %u is a %s, not a %s", index,
                type_names[signature->parameter_types[index]], type_names[type]);
    return false;
}

static void set_constants(struct d3d12_command_list *list, enum d3d12_bind_point bind_point, const char *command, UINT index, UINT count,
        const void *data, UINT offset)
{
    struct d3d12_bind_point_state *point = &list->bindings.points[bind_point];
    uint32_t limit, first;

    if (!binding_list(list, bind_point, command) || !root_parameter_valid(list, bind_point, command, index, D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS))
        return;
    if (count && !data) {
        d3d12_command_list_record_error(list, command, "pSrcData is NULL with Num32BitValuesToSet %u", count);
        return;
    }
    limit = point->root_signature->constant_counts[index];
    if (offset > limit || count > limit - offset) {
        d3d12_command_list_record_error(list, command, "DestOffsetIn32BitValues %u + %u values pass root parameter %u's %u constants",
                offset, count, index, limit);
        return;
    }
    first = point->root_signature->constant_offsets[index] / 4 + offset;
    if (count == 1) /* SetComputeRoot32BitConstant's value, without a call to memcpy */
        memcpy(&point->push_constants[first], data, 4);
    else
        memcpy(&point->push_constants[first], data, count * 4);
    /* binding_list counted this call; the caller keeps the list settled */
    if (count && applies_now(list, bind_point, list->call_count - 1) && (point->constants_set >> index & 1)) {
        push_constants_now(list, bind_point, point, first, count);
        return;
    }
    if (!(point->constants_set >> index & 1)) {
        point->constants_set |= 1ull << index;
        d3d12_bind_point_unvalidate(point);
    }
    if (!(point->dirty & D3D12_DIRTY_CONSTANTS)) {
        point->dirty |= D3D12_DIRTY_CONSTANTS;
        point->constants_dirty_first = first;
        point->constants_dirty_end = first + count;
        return;
    }
    if (first < point->constants_dirty_first)
        point->constants_dirty_first = first;
    if (first + count > point->constants_dirty_end)
        point->constants_dirty_end = first + count;
}

/* binding_list's checks, true when they pass with nothing to say (no error, and no debug-layer
 * warning for graphics arguments on a COMPUTE list): the condition of the calls' short ways. */
static inline bool plain_binding_call(const struct d3d12_command_list *list, enum d3d12_bind_point bind_point)
{
    return list->state == D3D12_COMMAND_LIST_RECORDING && list->type != D3D12_COMMAND_LIST_TYPE_COPY
            && (bind_point == D3D12_BIND_POINT_COMPUTE || list->type != D3D12_COMMAND_LIST_TYPE_COMPUTE);
}

/* One checked root constant into the bind point's state (Set*Root32BitConstant's and
 * ExecuteIndirect's INCREMENTING_CONSTANT's way). */
static inline void store_constant(struct d3d12_bind_point_state *point, UINT index, UINT value, UINT offset)
{
    uint32_t slot = point->root_signature->constant_offsets[index] / 4 + offset;

    point->push_constants[slot] = value;
    if (__builtin_expect(!(point->constants_set >> index & 1), 0)) {
        point->constants_set |= 1ull << index;
        d3d12_bind_point_unvalidate(point);
    }
    if (!(point->dirty & D3D12_DIRTY_CONSTANTS)) {
        point->dirty |= D3D12_DIRTY_CONSTANTS;
        point->constants_dirty_first = slot;
        point->constants_dirty_end = slot + 1;
        return;
    }
    if (slot < point->constants_dirty_first)
        point->constants_dirty_first = slot;
    if (slot + 1 > point->constants_dirty_end)
        point->constants_dirty_end = slot + 1;
}

void d3d12_command_list_set_root_constant(struct d3d12_command_list *list, enum d3d12_bind_point bind_point, UINT index, UINT value,
        UINT offset)
{
    store_constant(&list->bindings.points[bind_point], index, value, offset);
}

/* Set*Root32BitConstant: one value, the hottest binding call of all. A call every check passes
 * takes this way; any other goes through set_constants, which finds and reports what is wrong. */
/* set_constant's way for a call a check fails (set_constants finds and reports it) or that
 * needs more than a store: out of line, so that the common ways need no stack frame. */
static void __attribute__((noinline)) set_constant_checked(struct d3d12_command_list *list, enum d3d12_bind_point bind_point,
        const char *command, UINT index, UINT value, UINT offset)
{
    set_constants(list, bind_point, command, index, 1, &value, offset);
    d3d12_command_list_keep_settled_for(list, bind_point);
}

static inline void set_constant(struct d3d12_command_list *list, enum d3d12_bind_point bind_point, const char *command, UINT index,
        UINT value, UINT offset)
{
    struct d3d12_bind_point_state *point = &list->bindings.points[bind_point];
    const struct d3d12_root_signature *signature = point->root_signature;
    uint32_t *settled_at = bind_point == D3D12_BIND_POINT_GRAPHICS ? &list->draw_settled_at : &list->dispatch_settled_at;
    uint32_t slot;

    /* The short way between settled draws or dispatches: such a list records, is of a type that
     * takes this bind point's calls, has the root signature its last draw or dispatch checked and
     * owns the push constants (command_list_state.h), so a constant set before applies now unless
     * something waits for the next flush (dirty). No call but the push: no stack frame. */
    if (__builtin_expect(*settled_at == list->call_count && !point->dirty && index < D3D12XS_MAX_ROOT_PARAMETERS
            && (signature->constants_mask >> index & 1) && offset < signature->constant_counts[index]
            && (point->constants_set >> index & 1), 1)) {
        slot = signature->constant_offsets[index] / 4 + offset;
        point->push_constants[slot] = value;
        *settled_at = ++list->call_count;
        push_constants_now(list, bind_point, point, slot, 1);
        return;
    }
    if (__builtin_expect(!plain_binding_call(list, bind_point) || !signature || index >= D3D12XS_MAX_ROOT_PARAMETERS
            || !(signature->constants_mask >> index & 1) || offset >= signature->constant_counts[index], 0)) {
        set_constant_checked(list, bind_point, command, index, value, offset);
        return;
    }
    /* applies now on a list that is not settled (the short way took the settled ones): compute
     * after a plain flush of its own */
    if (applies_now(list, bind_point, list->call_count) && (point->constants_set >> index & 1)) {
        slot = signature->constant_offsets[index] / 4 + offset;
        point->push_constants[slot] = value;
        list->call_count++;
        push_constants_now(list, bind_point, point, slot, 1);
        return;
    }
    list->call_count++;
    store_constant(point, index, value, offset);
    d3d12_command_list_keep_settled_for(list, bind_point);
}

static inline void set_argument(struct d3d12_command_list *list, enum d3d12_bind_point bind_point, const char *command, UINT index,
        D3D12_ROOT_PARAMETER_TYPE type, uint64_t value)
{
    struct d3d12_bind_point_state *point = &list->bindings.points[bind_point];
    const struct d3d12_root_signature *signature = point->root_signature;

    if (__builtin_expect(plain_binding_call(list, bind_point) && signature && index < signature->parameter_count
            && signature->parameter_types[index] == type, 1))
        list->call_count++;
    else if (!binding_list(list, bind_point, command) || !root_parameter_valid(list, bind_point, command, index, type))
        return;
    if (!point->arguments[index].set)
        d3d12_bind_point_unvalidate(point);
    point->arguments[index].set = true;
    point->arguments[index].value = value;
    /* A table is an offset into the bound heap, checked and pushed at the next flush. */
    if (type == D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE) {
        point->dirty |= D3D12_DIRTY_TABLES;
        point->tables_changed |= 1ull << index;
    }
    else
        point->dirty |= D3D12_DIRTY_DESCRIPTORS;
    d3d12_command_list_keep_settled_for(list, bind_point);
}

/* set_argument for a table, out of line: a table's way when set_table's short way does not hold. */
static void __attribute__((noinline)) set_table_argument(struct d3d12_command_list *list, enum d3d12_bind_point bind_point,
        const char *command, UINT index, uint64_t value)
{
    set_argument(list, bind_point, command, index, D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE, value);
}

/* Set*RootDescriptorTable. A table set before, on a bind point whose arguments apply now
 * (applies_now), is checked and pushed at once (d3d12_command_list_apply_*_table: the push the
 * next flush would make; a failed check is left to that flush, which reports it). Any other
 * call stores the table for the next flush (set_argument). */
static inline void set_table(struct d3d12_command_list *list, enum d3d12_bind_point bind_point, const char *command, UINT index,
        uint64_t value)
{
    struct d3d12_bind_point_state *point = &list->bindings.points[bind_point];
    const struct d3d12_root_signature *signature = point->root_signature;
    uint32_t *settled_at = bind_point == D3D12_BIND_POINT_GRAPHICS ? &list->draw_settled_at : &list->dispatch_settled_at;

    /* a settled list's short way: what set_constant's says, with no test of the list's state or type */
    if (__builtin_expect(*settled_at == list->call_count && !point->dirty && index < signature->parameter_count
            && signature->parameter_types[index] == D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE && point->arguments[index].set, 1)) {
        *settled_at = ++list->call_count;
        point->arguments[index].value = value;
        if (bind_point == D3D12_BIND_POINT_GRAPHICS)
            d3d12_command_list_apply_graphics_table(list, index);
        else
            d3d12_command_list_apply_compute_table(list, index);
        return;
    }
    if (__builtin_expect(plain_binding_call(list, bind_point) && signature && index < signature->parameter_count
            && signature->parameter_types[index] == D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE
            && applies_now(list, bind_point, list->call_count) && point->arguments[index].set, 1)) {
        /* not settled (the short way took the settled ones): nothing to keep */
        list->call_count++;
        point->arguments[index].value = value;
        if (bind_point == D3D12_BIND_POINT_GRAPHICS)
            d3d12_command_list_apply_graphics_table(list, index);
        else
            d3d12_command_list_apply_compute_table(list, index);
        return;
    }
    set_table_argument(list, bind_point, command, index, value);
}

/* The entry points of one bind point: SetComputeRoot* or SetGraphicsRoot*. */
#define ROOT_ARGUMENT_METHODS(Kind, bind_point) \
void STDMETHODCALLTYPE d3d12_command_list_Set##Kind##RootSignature(ID3D12GraphicsCommandList10 *iface, ID3D12RootSignature *signature) \
{ \
    set_root_signature(impl_from_ID3D12GraphicsCommandList10(iface), bind_point, signature, METHOD(Set##Kind##RootSignature)); \
} \
void STDMETHODCALLTYPE d3d12_command_list_Set##Kind##Root32BitConstant(ID3D12GraphicsCommandList10 *iface, UINT index, UINT value, \
        UINT offset) \
{ \
    set_constant(impl_from_ID3D12GraphicsCommandList10(iface), bind_point, METHOD(Set##Kind##Root32BitConstant), index, value, offset); \
} \
void STDMETHODCALLTYPE d3d12_command_list_Set##Kind##Root32BitConstants(ID3D12GraphicsCommandList10 *iface, UINT index, UINT count, \
        const void *data, UINT offset) \
{ \
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface); \
    set_constants(list, bind_point, METHOD(Set##Kind##Root32BitConstants), index, count, data, offset); \
    d3d12_command_list_keep_settled_for(list, bind_point); \
} \
void STDMETHODCALLTYPE d3d12_command_list_Set##Kind##RootConstantBufferView(ID3D12GraphicsCommandList10 *iface, UINT index, \
        D3D12_GPU_VIRTUAL_ADDRESS address) \
{ \
    set_argument(impl_from_ID3D12GraphicsCommandList10(iface), bind_point, METHOD(Set##Kind##RootConstantBufferView), index, \
            D3D12_ROOT_PARAMETER_TYPE_CBV, address); \
} \
void STDMETHODCALLTYPE d3d12_command_list_Set##Kind##RootShaderResourceView(ID3D12GraphicsCommandList10 *iface, UINT index, \
        D3D12_GPU_VIRTUAL_ADDRESS address) \
{ \
    set_argument(impl_from_ID3D12GraphicsCommandList10(iface), bind_point, METHOD(Set##Kind##RootShaderResourceView), index, \
            D3D12_ROOT_PARAMETER_TYPE_SRV, address); \
} \
void STDMETHODCALLTYPE d3d12_command_list_Set##Kind##RootUnorderedAccessView(ID3D12GraphicsCommandList10 *iface, UINT index, \
        D3D12_GPU_VIRTUAL_ADDRESS address) \
{ \
    set_argument(impl_from_ID3D12GraphicsCommandList10(iface), bind_point, METHOD(Set##Kind##RootUnorderedAccessView), index, \
            D3D12_ROOT_PARAMETER_TYPE_UAV, address); \
} \
void STDMETHODCALLTYPE d3d12_command_list_Set##Kind##RootDescriptorTable(ID3D12GraphicsCommandList10 *iface, UINT index, \
        D3D12_GPU_DESCRIPTOR_HANDLE handle) \
{ \
    set_table(impl_from_ID3D12GraphicsCommandList10(iface), bind_point, METHOD(Set##Kind##RootDescriptorTable), index, handle.ptr); \
}

ROOT_ARGUMENT_METHODS(Compute, D3D12_BIND_POINT_COMPUTE)
ROOT_ARGUMENT_METHODS(Graphics, D3D12_BIND_POINT_GRAPHICS)
