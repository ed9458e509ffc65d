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

/* ---- the prefetch parser's check (SPEC §2.2): its state ---- */

#define PREFETCH_QUEUES 16  /* DIRECT queues whose waits are followed */
#define OPEN_WAITS 8        /* waits kept per queue since it last held the prefetch parser */

struct fence_wait {
    const void *fence;
    uint64_t value;
    char how[64];           /* "WaitX with ControlFlags 0x0" */
};

/* A DIRECT queue's fence waits: the parser reads ahead past every wait that leaves it free, up
 * to the latest that held it. */
struct prefetch_queue {
    const void *queue;
    bool has_holding;
    struct fence_wait holding;          /* the latest wait that held the parser */
    struct fence_wait open[OPEN_WAITS]; /* the waits since, which did not (the newest last) */
    uint32_t open_count;
};

/* A range a COMPUTE queue's list wrote. */
struct compute_write {
    const void *queue;
    uint64_t serial;        /* order among the compute writes */
    struct validated_range range;
    char where[160];
    bool used;
};

/* A COMPUTE queue's fence signal: it releases the queue's writes made before it. */
struct fence_release {
    const void *queue, *fence;
    uint64_t value, order;
    uint64_t writes_before; /* the queue's writes with a lower serial */
    char fence_name[64];
    bool used;
};

/* A list's ExecuteIndirects on a DIRECT queue with waits open: their argument buffers' ranges
 * and count buffers'. */
#define PREFETCH_READS 16   /* kept per list: beyond, the list's later ExecuteIndirects are not followed */
#define PREFETCH_READERS 64 /* lists kept for matching with signals that come later */
struct prefetch_reader {
    const void *queue;
    char where[160];
    struct validated_range reads[PREFETCH_READS];
    uint32_t read_count;
    uint32_t count_reads;   /* bit r: reads[r] is a count buffer's */
    struct prefetch_queue waits;        /* the queue's waits when the list was executed */
    bool used, checked;
};

struct d3d12_console_validation {
    pthread_mutex_t lock;
    struct published_value values[HISTORY];
    struct waiting_reader readers[HISTORY];
    unsigned next_value, next_reader;
    struct prefetch_queue prefetch_queues[PREFETCH_QUEUES];
    struct compute_write compute_writes[HISTORY];
    struct fence_release releases[HISTORY];
    struct prefetch_reader prefetch_readers[PREFETCH_READERS];
    unsigned next_compute_write, next_release, next_prefetch_reader;
    uint64_t compute_write_serial, release_order;
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

/* ---- the prefetch parser's check ---- */

/* The queue's wait state (created when asked to). */
static struct prefetch_queue *prefetch_queue_locked(struct d3d12_console_validation *validation, const void *queue, bool create)
{
    struct prefetch_queue *free_slot = NULL;
    for (unsigned i = 0; i < PREFETCH_QUEUES; i++) {
        if (validation->prefetch_queues[i].queue == queue)
            return &validation->prefetch_queues[i];
        if (!free_slot && !validation->prefetch_queues[i].queue)
            free_slot = &validation->prefetch_queues[i];
    }
    /* Past PREFETCH_QUEUES DIRECT queues waiting at once the rest are not followed. */
    if (!create || !free_slot)
        return NULL;
    *free_slot = (struct prefetch_queue){.queue = queue};
    return free_slot;
}

static void keep_compute_write_locked(struct d3d12_console_validation *validation, const void *queue, const struct d3d12_recorded_range *range,
        const struct d3d12_recorded_command *command, const char *where)
{
    struct compute_write *write = &validation->compute_writes[validation->next_compute_write++ % HISTORY];
    *write = (struct compute_write){.queue = queue, .serial = ++validation->compute_write_serial, .used = true,
            .range = {range->buffer, range->image, range->offset, range->size, command->call_index, command->kind}};
    snprintf(write->where, sizeof(write->where), "%s", where);
}

static struct prefetch_reader *new_prefetch_reader_locked(struct d3d12_console_validation *validation, const void *queue,
        const struct prefetch_queue *waits, const char *where)
{
    struct prefetch_reader *reader = &validation->prefetch_readers[validation->next_prefetch_reader++ % PREFETCH_READERS];
    *reader = (struct prefetch_reader){.queue = queue, .waits = *waits, .used = true};
    snprintf(reader->where, sizeof(reader->where), "%s", where);
    return reader;
}

/* An ExecuteIndirect's ranges: the argument buffer's, then the count buffer's (if any). */
static void keep_prefetch_reads(struct prefetch_reader *reader, const struct d3d12_recorded_range *ranges, const struct d3d12_recorded_command *command)
{
    for (uint32_t r = 0; r < command->range_count && r < 2 && reader->read_count < PREFETCH_READS; r++) {
        reader->count_reads |= (uint32_t)(r == 1) << reader->read_count;
        reader->reads[reader->read_count++] = (struct validated_range){ranges[r].buffer, ranges[r].image, ranges[r].offset, ranges[r].size,
                command->call_index, command->kind};
    }
}

/* The signal that releases the wait: of the fence, on another queue, the one of the lowest value
 * that reaches it (fences usually count up), the earliest of those; NULL when none is known. */
static const struct fence_release *release_of_locked(const struct d3d12_console_validation *validation, const void *queue,
        const struct fence_wait *wait)
{
    const struct fence_release *best = NULL;
    for (unsigned i = 0; i < HISTORY; i++) {
        const struct fence_release *release = &validation->releases[i];
        if (!release->used || release->queue == queue || release->fence != wait->fence || release->value < wait->value)
            continue;
        if (!best || release->value < best->value || (release->value == best->value && release->order < best->order))
            best = release;
    }
    return best;
}

static bool releases_write(const struct fence_release *release, const struct compute_write *write)
{
    return release && release->queue == write->queue && write->serial < release->writes_before;
}

/* One line when a COMPUTE queue wrote what the read covers before the signal one of the
 * reader's open waits waited for, and the wait that last held the parser did not wait for that
 * write: true then. */
static bool report_stale_read_locked(const struct d3d12_console_validation *validation, const struct prefetch_reader *reader, uint32_t r,
        const struct fence_release *const *open_releases, const struct fence_release *holding_release)
{
    const struct validated_range *read = &reader->reads[r];

    for (unsigned i = 0; i < HISTORY; i++) {
        const struct compute_write *write = &validation->compute_writes[i];
        if (!write->used || !overlaps(read, &write->range) || releases_write(holding_release, write))
            continue;
        for (uint32_t w = 0; w < reader->waits.open_count; w++) {
            const struct fence_wait *wait = &reader->waits.open[w];
            if (!releases_write(open_releases[w], write))
                continue;
            ERR("console memory model: %s call %u (%s) reads bytes [%llu, +%llu) of buffer 0x%llx as %s after %s for fence '%s' "
                    "to reach %llu, which leaves the prefetch parser free (no D3D12XBOX_SYNC_CONTROL_FLAG_TOP_SELECT_ENGINE_PFP); %s "
                    "call %u (%s) wrote them before that queue signalled %llu, so on the console the parser could read them before "
                    "the wait ends (stale data)", reader->where, read->call_index, d3d12_recorded_kind_name(read->kind),
                    (unsigned long long)read->offset, (unsigned long long)read->size, (unsigned long long)(uintptr_t)read->buffer,
                    reader->count_reads & (1u << r) ? "the indirect command count" : "indirect arguments", wait->how, open_releases[w]->fence_name,
                    (unsigned long long)wait->value, write->where, write->range.call_index, d3d12_recorded_kind_name(write->range.kind),
                    (unsigned long long)open_releases[w]->value);
            return true;
        }
    }
    return false;
}

/* Checks the reader once the signals that release its open waits are known: one line at most
 * for the list, the first stale read. */
static void check_prefetch_locked(const struct d3d12_console_validation *validation, struct prefetch_reader *reader)
{
    const struct fence_release *open_releases[OPEN_WAITS], *holding_release = NULL;
    uint32_t known = 0;

    for (uint32_t w = 0; w < reader->waits.open_count; w++)
        known += !!(open_releases[w] = release_of_locked(validation, reader->queue, &reader->waits.open[w]));
    if (!known)
        return;
    if (reader->waits.has_holding)
        holding_release = release_of_locked(validation, reader->queue, &reader->waits.holding);
    for (uint32_t r = 0; r < reader->read_count; r++) {
        if (report_stale_read_locked(validation, reader, r, open_releases, holding_release)) {
            reader->checked = true;
            return;
        }
    }
    /* Nothing stale now; a signal that comes later can still release an open wait. */
    reader->checked = known == reader->waits.open_count;
}

static void match_prefetch_locked(struct d3d12_console_validation *validation)
{
    for (unsigned i = 0; i < PREFETCH_READERS; i++) {
        struct prefetch_reader *reader = &validation->prefetch_readers[i];
        if (reader->used && !reader->checked)
            check_prefetch_locked(validation, reader);
    }
}

void d3d12_console_validation_queue_wait(struct d3d12_device *device, const void *queue, D3D12_COMMAND_LIST_TYPE type, const void *fence,
        uint64_t value, bool holds_prefetch, const char *how)
{
    struct d3d12_console_validation *validation = device->console_validation;
    struct prefetch_queue *waits;
    struct fence_wait wait = {fence, value, ""};

    /* Only the graphics command processor (DIRECT queues) has a prefetch parser. */
    if (!validation || type != D3D12_COMMAND_LIST_TYPE_DIRECT)
        return;
    snprintf(wait.how, sizeof(wait.how), "%s", how);
    pthread_mutex_lock(&validation->lock);
    if ((waits = prefetch_queue_locked(validation, queue, !holds_prefetch))) {
        if (holds_prefetch) {
            waits->has_holding = true;
            waits->holding = wait;
            waits->open_count = 0;
        } else {
            /* Beyond OPEN_WAITS the oldest go. */
            if (waits->open_count == OPEN_WAITS)
                memmove(waits->open, waits->open + 1, (OPEN_WAITS - 1) * sizeof(*waits->open)), waits->open_count--;
            waits->open[waits->open_count++] = wait;
        }
    }
    pthread_mutex_unlock(&validation->lock);
}

void d3d12_console_validation_queue_signal(struct d3d12_device *device, const void *queue, D3D12_COMMAND_LIST_TYPE type, const void *fence,
        const char *fence_name, uint64_t value)
{
    struct d3d12_console_validation *validation = device->console_validation;
    struct fence_release *release;

    if (!validation || type != D3D12_COMMAND_LIST_TYPE_COMPUTE)
        return;
    pthread_mutex_lock(&validation->lock);
    release = &validation->releases[validation->next_release++ % HISTORY];
    *release = (struct fence_release){.queue = queue, .fence = fence, .value = value, .order = ++validation->release_order,
            .writes_before = validation->compute_write_serial + 1, .used = true};
    snprintf(release->fence_name, sizeof(release->fence_name), "%s", fence_name);
    match_prefetch_locked(validation);
    pthread_mutex_unlock(&validation->lock);
}

void d3d12_console_validation_forget_queue(struct d3d12_device *device, const void *queue)
{
    struct d3d12_console_validation *validation = device->console_validation;

    if (!validation)
        return;
    pthread_mutex_lock(&validation->lock);
    for (unsigned i = 0; i < PREFETCH_QUEUES; i++)
        if (validation->prefetch_queues[i].queue == queue)
            validation->prefetch_queues[i] = (struct prefetch_queue){0};
    for (unsigned i = 0; i < HISTORY; i++) {
        validation->compute_writes[i].used &= validation->compute_writes[i].queue != queue;
        validation->releases[i].used &= validation->releases[i].queue != queue;
    }
    for (unsigned i = 0; i < PREFETCH_READERS; i++)
        validation->prefetch_readers[i].used &= validation->prefetch_readers[i].queue != queue;
    pthread_mutex_unlock(&validation->lock);
}

void d3d12_console_validation_execute(struct d3d12_device *device, const struct d3d12_command_list *list, const void *queue, const char *queue_name)
{
    struct d3d12_console_validation *validation = device->console_validation;
    const struct d3d12_command_record *record = &list->record;
    struct validated_range unsettled[MAX_RANGES];
    uint32_t unsettled_count = 0, known_values = 0;
    struct waiting_reader *reader = NULL;
    const struct prefetch_queue *prefetch = NULL;
    struct prefetch_reader *prefetch_reader = NULL;
    bool added = false, prefetch_synced = false;
    char where[160];

    if (!validation)
        return;
    snprintf(where, sizeof(where), "list '%s' on queue '%s'", d3d12xs_object_name(&list->object), queue_name);
    pthread_mutex_lock(&validation->lock);
    if (list->type == D3D12_COMMAND_LIST_TYPE_DIRECT && (prefetch = prefetch_queue_locked(validation, queue, false)) && !prefetch->open_count)
        prefetch = NULL; /* every wait held the parser: nothing to follow */
    for (size_t c = 0; c < record->command_count; c++) {
        const struct d3d12_recorded_command *command = &record->commands[c];
        const struct d3d12_recorded_range *ranges = command->range_count ? record->ranges + command->first_range : NULL;

        if (command->flags & D3D12_RECORDED_WRITES_BACK)
            unsettled_count = 0;
        prefetch_synced |= !!(command->flags & D3D12_RECORDED_SYNCS_PREFETCH);
        if (list->type == D3D12_COMMAND_LIST_TYPE_COMPUTE)
            for (uint32_t r = 0; r < command->range_count; r++)
                if (ranges[r].write)
                    keep_compute_write_locked(validation, queue, &ranges[r], command, where);
        if (command->kind == D3D12_RECORDED_INDIRECT_ARGUMENTS && prefetch && !prefetch_synced && command->range_count) {
            if (!prefetch_reader)
                prefetch_reader = new_prefetch_reader_locked(validation, queue, prefetch, where);
            keep_prefetch_reads(prefetch_reader, ranges, command);
        }
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
    if (prefetch_reader)
        match_prefetch_locked(validation);
    pthread_mutex_unlock(&validation->lock);
}
