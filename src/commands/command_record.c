/* The walkable command record (see command_record.h). */
#include <stdlib.h>
#include <string.h>

#include "commands/command_record.h"
#include "common/util.h"

void d3d12_command_record_reset(struct d3d12_command_record *record)
{
    record->command_count = record->range_count = 0;
    record->bound_first = record->bound_count = 0;
    record->dispatch_first = record->dispatch_count = 0;
}

void d3d12_command_record_cleanup(struct d3d12_command_record *record)
{
    free(record->commands);
    free(record->ranges);
    memset(record, 0, sizeof(*record));
}

uint32_t d3d12_command_record_add_ranges(struct d3d12_command_record *record, const struct d3d12_recorded_range *ranges, uint32_t count)
{
    uint32_t first = (uint32_t)record->range_count;
    if (!count)
        return first; /* e.g. a dispatch that reads only tables or the directly indexed heap */
    if (!d3d12xs_array_reserve((void **)&record->ranges, &record->range_capacity, record->range_count + count, sizeof(*record->ranges)))
        return UINT32_MAX;
    memcpy(record->ranges + record->range_count, ranges, count * sizeof(*ranges));
    record->range_count += count;
    return first;
}

bool d3d12_command_record_add(struct d3d12_command_record *record, enum d3d12_recorded_kind kind, uint32_t call_index,
        uint32_t segment, uint32_t first_range, uint32_t range_count)
{
    if (__builtin_expect(record->command_count == record->command_capacity, 0)
            && !d3d12xs_array_reserve((void **)&record->commands, &record->command_capacity, record->command_count + 1,
                    sizeof(*record->commands)))
        return false;
    record->commands[record->command_count++] = (struct d3d12_recorded_command){kind, call_index, segment, first_range, range_count, 0};
    return true;
}

const char *d3d12_recorded_kind_name(enum d3d12_recorded_kind kind)
{
    static const char *const names[] = {"Dispatch", "copy", "ResourceBarrier", "WriteBufferImmediate", "ClearUnorderedAccessView",
            "EndQuery", "ResolveQueryData",
            "value write", "wait on memory", "BeginQuery", "ClearRenderTargetView", "draw"};
    return (unsigned)kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "?";
}
