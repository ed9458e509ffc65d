/* The console memory-model validation (console_validation.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/console_validation.h"
#include "memory/va_map.h"

#define HISTORY 256        /* value writes and waits kept for matching, per kind */
#define MAX_RANGES 64      /* written or read ranges kept per value write or wait */

struct validated_range {
    VkBuffer buffer;
    VkImage image;          /* textures: offset and size count subresources */
    uint64_t offset, size;
    uint32_t call_index;
    enum d3d12_recorded_kind kind;
};

/* A value write that was executed, with the writes of its list not yet complete before it. */
struct published_value {
    const void *queue;
    uint64_t allocation;   /* of the value's memory: an address may be reused by later memory */
    uint64_t gpu_address, value;
    uint32_t size, call_index;
    char where[160];       /* "list 'x' on queue 'y'" */
    struct validated_range unsettled[MAX_RANGES];
    uint32_t unsettled_count;
    bool used;
};

/* A wait that was executed, with what its list reads after it (until its next wait). */
struct waiting_reader {
    const void *queue;
    uint64_t allocation;
    struct d3d12_memory_wait wait;
    uint32_t call_index;
    char where[160];
    struct validated_range reads[MAX_RANGES];
    uint32_t read_count;
    bool checked, used;     /* checked: matched with the value that releases it */
};

struct d3d12_console_validation {
    pthread_mutex_t lock;
    struct published_value values[HISTORY];
    struct waiting_reader readers[HISTORY];
    unsigned next_value, next_reader;
};

void d3d12_console_validation_create(struct d3d12_device *device)
{
    enum d3d12xs_config_switch setting = device->config.console_validation;
    bool enabled = setting == D3D12XS_CONFIG_UNSET ? device->validation_enabled : setting == D3D12XS_CONFIG_ON;
    struct d3d12_console_validation *validation;

    if (!enabled || !(validation = calloc(1, sizeof(*validation))))
        return;
    pthread_mutex_init(&validation->lock, NULL);
    device->console_validation = validation;
}

void d3d12_console_validation_destroy(struct d3d12_device *device)
{
    struct d3d12_console_validation *validation = device->console_validation;
    if (!validation)
        return;
    pthread_mutex_destroy(&validation->lock);
    free(validation);
    device->console_validation = NULL;
}

/* Which allocation holds the address now (0: none). */
static uint64_t allocation_of(struct d3d12_device *device, uint64_t address, uint32_t size)
{
    struct d3d12xs_va_range range;
    uint64_t offset;
    return d3d12xs_va_find(device, address, size, &range, &offset) ? range.allocation : 0;
}

static void keep_range(struct validated_range *ranges, uint32_t *count, const struct d3d12_recorded_range *range,
        const struct d3d12_recorded_command *command)
{
    /* Beyond MAX_RANGES the oldest go: the newest writes are the likeliest to be read. */
    if (*count == MAX_RANGES)
        memmove(ranges, ranges + 1, (MAX_RANGES - 1) * sizeof(*ranges)), (*count)--;
    ranges[(*count)++] = (struct validated_range){range->buffer, range->image, range->offset, range->size, command->call_index, command->kind};
}

static bool overlaps(const struct validated_range *a, const struct validated_range *b)
{
    return a->buffer == b->buffer && a->image == b->image && a->offset < b->offset + b->size && b->offset < a->offset + a->size;
}

/* Of two values that both satisfy the wait, the one that releases it first in a counter's
 * usual direction: the smallest for GREATER(_EQUAL) and NOT_EQUAL, the largest for LESS(_EQUAL). */
static bool releases_earlier(D3D12_COMPARISON_FUNC comparison, uint64_t candidate, uint64_t best)
{
    if (comparison == D3D12_COMPARISON_FUNC_LESS || comparison == D3D12_COMPARISON_FUNC_LESS_EQUAL)
        return candidate > best;
    return candidate < best;
}

static const struct published_value *releasing_value_locked(const struct d3d12_console_validation *validation, const struct waiting_reader *reader)
{
    const struct published_value *best = NULL;
    for (unsigned i = 0; i < HISTORY; i++) {
        const struct published_value *value = &validation->values[i];
        if (!value->used || value->queue == reader->queue || value->allocation != reader->allocation
                || value->gpu_address != reader->wait.gpu_address || value->size != reader->wait.size
                || !d3d12_comparison_holds(reader->wait.comparison, value->value, reader->wait.value))
            continue;
        if (!best || releases_earlier(reader->wait.comparison, value->value, best->value))
            best = value;
    }
    return best;
}

static void check_locked(struct waiting_reader *reader, const struct published_value *value)
{
    reader->checked = true; /* matched with the value that releases it: checked once */
    for (uint32_t r = 0, found = 0; r < reader->read_count && !found; r++) {
        for (uint32_t w = 0; w < value->unsettled_count; w++) {
            const struct validated_range *read = &reader->reads[r], *write = &value->unsettled[w];
            if (!overlaps(read, write))
                continue;
            char what[96];
            if (read->image)
                snprintf(what, sizeof(what), "subresources [%llu, +%llu) of texture 0x%llx", (unsigned long long)read->offset,
                        (unsigned long long)read->size, (unsigned long long)(uintptr_t)read->image);
            else
                snprintf(what, sizeof(what), "bytes [%llu, +%llu) of buffer 0x%llx", (unsigned long long)read->offset,
                        (unsigned long long)read->size, (unsigned long long)(uintptr_t)read->buffer);
            ERR("console memory model: %s call %u (%s) reads %s after waiting (call %u) for the value "
                    "that %s call %u writes (%llu at 0x%llx); that value write has no write-back (GL2_WRITEBACK, "
                    "D3D12XBOX_FLUSH_BOP_TEXTURE_L2_WRITEBACK or IDLE) or barrier after call %u (%s) wrote them, so on the console "
                    "the read could see stale data", reader->where, read->call_index, d3d12_recorded_kind_name(read->kind),
                    what, reader->call_index, value->where,
                    value->call_index, (unsigned long long)value->value, (unsigned long long)value->gpu_address, write->call_index,
                    d3d12_recorded_kind_name(write->kind));
            found = 1;
            break;
        }
    }
}

/* Match readers with the value that releases them, whichever was executed first. */
static void match_locked(struct d3d12_console_validation *validation)
{
    for (unsigned i = 0; i < HISTORY; i++) {
        struct waiting_reader *reader = &validation->readers[i];
        const struct published_value *value;
        if (reader->used && !reader->checked && (value = releasing_value_locked(validation, reader)))
            check_locked(reader, value);
    }
}

void d3d12_console_validation_execute(struct d3d12_device *device, const struct d3d12_command_list *list, const void *queue, const char *queue_name)
{
    struct d3d12_console_validation *validation = device->console_validation;
    const struct d3d12_command_record *record = &list->record;
    struct validated_range unsettled[MAX_RANGES];
    uint32_t unsettled_count = 0, known_values = 0;
    struct waiting_reader *reader = NULL;
    char where[160];
    bool added = false;

    if (!validation)
        return;
    snprintf(where, sizeof(where), "list '%s' on queue '%s'", d3d12xs_object_name(&list->object), queue_name);
    pthread_mutex_lock(&validation->lock);
    for (size_t c = 0; c < record->command_count; c++) {
        const struct d3d12_recorded_command *command = &record->commands[c];
        const struct d3d12_recorded_range *ranges = command->range_count ? record->ranges + command->first_range : NULL;

        if (command->flags & D3D12_RECORDED_WRITES_BACK)
            unsettled_count = 0;
        switch (command->kind) {
        case D3D12_RECORDED_WAIT_VALUE:
            if (command->segment < list->segment_count && list->segments[command->segment].has_wait) {
                reader = &validation->readers[validation->next_reader++ % HISTORY];
                *reader = (struct waiting_reader){.queue = queue, .wait = list->segments[command->segment].wait,
                        .call_index = command->call_index, .used = true,
                        .allocation = allocation_of(device, list->segments[command->segment].wait.gpu_address, list->segments[command->segment].wait.size)};
                memcpy(reader->where, where, sizeof(where));
                added = true;
            }
            continue;
        case D3D12_RECORDED_WRITE_VALUE:
            if (command->flags & D3D12_RECORDED_KNOWN_VALUE) {
                if (known_values < list->value_write_count) {
                    const struct d3d12_value_write *write = &list->value_writes[known_values];
                    struct published_value *value = &validation->values[validation->next_value++ % HISTORY];
                    *value = (struct published_value){.queue = queue, .allocation = allocation_of(device, write->gpu_address, write->size),
                            .gpu_address = write->gpu_address, .value = write->value,
                            .size = write->size, .call_index = command->call_index, .unsettled_count = unsettled_count, .used = true};
                    memcpy(value->where, where, sizeof(where));
                    memcpy(value->unsettled, unsettled, unsettled_count * sizeof(*unsettled));
                    added = true;
                }
                known_values++;
            }
            continue;
        case D3D12_RECORDED_BARRIER:
        case D3D12_RECORDED_BEGIN_QUERY:
        case D3D12_RECORDED_END_QUERY:
            continue;
        default:
            break;
        }
        /* Dispatches and draws read what they bind (and may write it), draws load their render
         * targets (and blend with them); copies read their source. */
        for (uint32_t r = 0; r < command->range_count; r++) {
            if (ranges[r].write)
                keep_range(unsettled, &unsettled_count, &ranges[r], command);
            if (reader && (!ranges[r].write || command->kind == D3D12_RECORDED_DISPATCH || command->kind == D3D12_RECORDED_DRAW))
                keep_range(reader->reads, &reader->read_count, &ranges[r], command);
        }
    }
    if (added)
        match_locked(validation);
    pthread_mutex_unlock(&validation->lock);
}
