/* What a dispatch reads and writes through its descriptor tables, for the console memory-model
 * validation (console_validation.h): only while that validation is on, since D3D12 tables are
 * resolved by the GPU and recording never looks into them otherwise. The descriptors are read
 * as the heap holds them when the dispatch is recorded (D3D12 lets them change until the list
 * executes; the validation reports what the recorded state implies). */
#include <stdlib.h>
#include <string.h>

#include "command_recording.h"
#include "descriptors/descriptors.h"
#include "descriptors/root_signature.h"

/* Descriptors looked at per dispatch: unbounded ranges over large heaps stop here. */
#define MAX_TABLE_DESCRIPTORS 4096u

/* The range a view's descriptor uses, if it names a resource. Only what the descriptor holds
 * is read: a table may hold descriptors of released resources, which D3D12 allows where the
 * shader does not read them. */
static bool descriptor_range(const struct d3d12xs_descriptor *descriptor, struct d3d12_recorded_range *range)
{
    bool write = descriptor->kind == D3D12XS_DESCRIPTOR_UAV;

    if (descriptor->null_view || !descriptor->resource
            || (descriptor->kind != D3D12XS_DESCRIPTOR_SRV && descriptor->kind != D3D12XS_DESCRIPTOR_UAV && descriptor->kind != D3D12XS_DESCRIPTOR_CBV))
        return false;
    if (d3d12xs_descriptor_is_texture(descriptor))
        *range = (struct d3d12_recorded_range){VK_NULL_HANDLE, descriptor->first_subresource, descriptor->subresource_count, write,
                descriptor->image};
    else if (descriptor->buffer)
        *range = (struct d3d12_recorded_range){descriptor->buffer, descriptor->offset, descriptor->range, write, VK_NULL_HANDLE};
    else
        return false;
    return true;
}

/* Appends the ranges of one table's CBV/SRV/UAV descriptors; returns how many descriptors it looked at. */
static uint32_t table_ranges(const D3D12_ROOT_DESCRIPTOR_TABLE1 *table, const struct d3d12_descriptor_heap *heap, uint64_t start,
        uint32_t budget, struct d3d12_recorded_range *ranges, uint32_t *range_count)
{
    uint64_t next = 0;
    uint32_t looked = 0;

    for (UINT r = 0; r < table->NumDescriptorRanges && looked < budget; r++) {
        const D3D12_DESCRIPTOR_RANGE1 *range = &table->pDescriptorRanges[r];
        uint64_t offset = range->OffsetInDescriptorsFromTableStart == D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND ? next
                : range->OffsetInDescriptorsFromTableStart;
        uint64_t first = start + offset, count = range->NumDescriptors;

        if (first >= heap->desc.NumDescriptors)
            break;
        if (count == UINT_MAX || count > heap->desc.NumDescriptors - first)
            count = heap->desc.NumDescriptors - first;
        next = offset + count;
        if (range->RangeType == D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER)
            continue;
        for (uint64_t i = 0; i < count && looked < budget; i++, looked++)
            if (descriptor_range(&heap->descriptors[first + i], &ranges[*range_count]))
                (*range_count)++;
    }
    return looked;
}

bool d3d12_command_list_note_dispatch_ranges(struct d3d12_command_list *list, enum d3d12_bind_point bind_point, const char *command)
{
    const struct d3d12_bind_point_state *state = &list->bindings.points[bind_point];
    const struct d3d12_root_signature *signature = state->root_signature;
    const struct d3d12_descriptor_heap *heap = list->bindings.heaps[0];
    struct d3d12_command_record *record = &list->record;
    const D3D12_ROOT_SIGNATURE_DESC2 *desc;
    struct d3d12_recorded_range *ranges;
    uint32_t count, budget = MAX_TABLE_DESCRIPTORS;
    UINT increment;

    record->dispatch_first = record->bound_first;
    record->dispatch_count = record->bound_count;
    if (!signature->table_count || !heap || !heap->descriptors)
        return true;
    desc = &signature->desc->Desc_1_2;
    if (!(ranges = malloc((record->bound_count + MAX_TABLE_DESCRIPTORS) * sizeof(*ranges)))) {
        d3d12_command_list_record_error(list, command, "out of memory for the console validation's record");
        return false;
    }
    /* The push's ranges first: the record's array may move when the new ranges go in. */
    if (record->bound_count)
        memcpy(ranges, record->ranges + record->bound_first, record->bound_count * sizeof(*ranges));
    count = record->bound_count;
    increment = d3d12_device_get_descriptor_increment(list->object.device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    for (UINT p = 0; p < desc->NumParameters && budget; p++) {
        uint64_t handle = state->arguments[p].value;
        if (desc->pParameters[p].ParameterType != D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE || !state->arguments[p].set
                || (signature->sampler_table_mask >> p & 1) || handle < heap->gpu_base)
            continue;
        budget -= table_ranges(&desc->pParameters[p].DescriptorTable, heap, (handle - heap->gpu_base) / increment, budget, ranges, &count);
    }
    if (count > record->bound_count) {
        uint32_t first = d3d12_command_list_note_ranges(list, command, ranges, count);
        if (first == UINT32_MAX) {
            free(ranges);
            return false;
        }
        record->dispatch_first = first;
        record->dispatch_count = count;
    }
    free(ranges);
    return true;
}
