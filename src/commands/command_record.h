/* The walkable record of what a command list recorded (command_record.c): each command with
 * its call index, the segment it landed in and the buffer ranges it resolved to. It is kept
 * always (a few bytes per command); hang reports, diagnostics and the console memory-model
 * validation read it after the fact. */
#ifndef D3D12XS_COMMAND_RECORD_H
#define D3D12XS_COMMAND_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <vulkan/vulkan.h>

#include "commands/command_table.h"

/* D3D12_RECORDED_DISPATCH, ...: one per line of D3D12XS_RECORDED_KINDS (command_table.h). */
enum d3d12_recorded_kind {
#define D3D12XS_RECORDED_KIND_ENUM(name, report_name) D3D12_RECORDED_##name,
    D3D12XS_RECORDED_KINDS(D3D12XS_RECORDED_KIND_ENUM)
#undef D3D12XS_RECORDED_KIND_ENUM
};

/* Bytes of a buffer, or (image set, buffer VK_NULL_HANDLE) subresources of a texture: offset
 * and size then count D3D12 subresource indices, a span that covers the ones used. */
struct d3d12_recorded_range {
    VkBuffer buffer;
    uint64_t offset, size;
    bool write;
    VkImage image;
};

/* What the console memory-model validation needs to know beyond the kind. */
enum d3d12_recorded_flags {
    D3D12_RECORDED_WRITES_BACK = 0x1,  /* earlier writes are complete and written back before it (GL2 write-back, IDLE, barriers) */
    D3D12_RECORDED_KNOWN_VALUE = 0x2,  /* a value write with its entry in the list's value_writes */
    /* A barrier into the indirect-argument stage (INDIRECT_ARGUMENT, COMMON): on the console the
     * prefetch parser then waits for the micro engine, so it reads no argument ahead of it. */
    D3D12_RECORDED_SYNCS_PREFETCH = 0x4,
};

struct d3d12_recorded_command {
    enum d3d12_recorded_kind kind;
    uint32_t call_index;      /* which recording call of the list it came from (0-based) */
    uint32_t segment;
    uint32_t first_range;     /* into the record's ranges */
    uint32_t range_count;
    uint32_t flags;           /* enum d3d12_recorded_flags */
};

struct d3d12_command_record {
    struct d3d12_recorded_command *commands;
    size_t command_count, command_capacity;
    struct d3d12_recorded_range *ranges;
    size_t range_count, range_capacity;
    uint32_t bound_first, bound_count;  /* ranges of the last descriptor push (root descriptors) */
    /* What the next dispatch reads and writes: the push's ranges and, with the console
     * validation on, what its descriptor tables hold (command_list_table_ranges.c). */
    uint32_t dispatch_first, dispatch_count;
};

void d3d12_command_record_reset(struct d3d12_command_record *record);
void d3d12_command_record_cleanup(struct d3d12_command_record *record);
/* Appends ranges; returns the index of the first, or UINT32_MAX when out of memory. */
uint32_t d3d12_command_record_add_ranges(struct d3d12_command_record *record, const struct d3d12_recorded_range *ranges, uint32_t count);
bool d3d12_command_record_add(struct d3d12_command_record *record, enum d3d12_recorded_kind kind, uint32_t call_index,
        uint32_t segment, uint32_t first_range, uint32_t range_count);
/* Its name in reports (D3D12XS_RECORDED_KINDS). */
const char *d3d12_recorded_kind_name(enum d3d12_recorded_kind kind);

#endif
