/* The console's synchronisation commands on a list (SPEC §2.3, §2.4, §2.6): bottom- and
 * top-of-pipe value writes, mid-list waits on a value in memory, and FlushPipelineX (the console
 * table's other command, DispatchX, is in command_list_dispatchx.c).
 * docs/sync.md says how each maps to Vulkan. Bad input marks the list invalid (SPEC §4). */
#include <string.h>

#include "commands/command_recording.h"
#include "commands/console_flags.h"
#include "commands/system_timestamp.h"
#include "sync/gpu_wait.h"

#define METHOD(name) "ID3D12GraphicsCommandList::" #name

/* The cache actions that make earlier writes reach memory (and later reads see memory). */
#define WRITEBACK_SYNC_FLAGS (D3D12XBOX_SYNC_FLAG_MCACHE_WRITEBACK | D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK)
#define WRITEBACK_FLUSH_FLAGS (D3D12XBOX_FLUSH_IDLE | D3D12XBOX_FLUSH_BOP_TEXTURE_L2_WRITEBACK)

static inline struct d3d12_command_list *list_from(ID3D12GraphicsCommandList *iface)
{
    return impl_from_ID3D12GraphicsCommandList10((ID3D12GraphicsCommandList10 *)iface);
}

/* The destination of a value write or the address of a wait: aligned, inside a live buffer
 * the GPU may write. */
static bool resolve_address(struct d3d12_command_list *list, const char *command, const char *argument, uint64_t address,
        uint32_t size, bool written, struct d3d12xs_va_range *range, uint64_t *offset)
{
    struct d3d12_device *device = list->object.device;

    if (address % size) {
        d3d12_command_list_record_error(list, command, "%s 0x%llx is not %u-byte aligned", argument, (unsigned long long)address, size);
        return false;
    }
    if (!d3d12xs_va_find(device, address, size, range, offset)) {
        d3d12_command_list_record_error(list, command, "%s 0x%llx is not inside a live buffer or graphics memory of this device", argument,
                (unsigned long long)address);
        return false;
    }
    if (written && range->upload_heap) {
        d3d12_command_list_record_error(list, command, "%s 0x%llx is in an UPLOAD heap (the GPU cannot write those)", argument,
                (unsigned long long)address);
        return false;
    }
    return true;
}

static bool sync_flags_valid(struct d3d12_command_list *list, const char *command, D3D12XBOX_SYNC_FLAGS sync, D3D12XBOX_SYNC_CONTROL_FLAGS control)
{
    if (sync & ~D3D12XS_KNOWN_SYNC_FLAGS) {
        d3d12_command_list_record_error(list, command, "SyncFlags 0x%x has unknown bits 0x%x", (unsigned)sync, (unsigned)(sync & ~D3D12XS_KNOWN_SYNC_FLAGS));
        return false;
    }
    if (control & ~D3D12XS_KNOWN_CONTROL_FLAGS) {
        d3d12_command_list_record_error(list, command, "ControlFlags 0x%x has unknown bits 0x%x", (unsigned)control,
                (unsigned)(control & ~D3D12XS_KNOWN_CONTROL_FLAGS));
        return false;
    }
    if ((control & D3D12XBOX_SYNC_CONTROL_FLAG_GCR_SEQUENCE_FORWARD) && (control & D3D12XBOX_SYNC_CONTROL_FLAG_GCR_SEQUENCE_REVERSE)) {
        d3d12_command_list_record_error(list, command, "ControlFlags has both GCR_SEQUENCE_FORWARD and GCR_SEQUENCE_REVERSE (at most one)");
        return false;
    }
    return true;
}

static bool flush_flags_valid(struct d3d12_command_list *list, const char *command, D3D12XBOX_FLUSH flush)
{
    if (flush & ~D3D12XS_KNOWN_FLUSH_FLAGS) {
        d3d12_command_list_record_error(list, command, "Flush 0x%x has unknown bits 0x%x", (unsigned)flush, (unsigned)(flush & ~D3D12XS_KNOWN_FLUSH_FLAGS));
        return false;
    }
    return true;
}

static bool write_flags_valid(struct d3d12_command_list *list, const char *command, D3D12XBOX_WRITE_VALUE_BOP_FLAGS flags, uint32_t size)
{
    if (size == 4 && flags) {
        d3d12_command_list_record_error(list, command, "WriteFlags is 0x%x (must be NONE for a 32-bit write; timestamps are 64-bit)", (unsigned)flags);
        return false;
    }
    if (flags & ~(D3D12XBOX_WRITE_VALUE_BOP_FLAG_GPU_TIMESTAMP | D3D12XBOX_WRITE_VALUE_BOP_FLAG_SYSTEM_TIMESTAMP)
            || flags == (D3D12XBOX_WRITE_VALUE_BOP_FLAG_GPU_TIMESTAMP | D3D12XBOX_WRITE_VALUE_BOP_FLAG_SYSTEM_TIMESTAMP)) {
        d3d12_command_list_record_error(list, command, "WriteFlags is 0x%x (NONE, GPU_TIMESTAMP or SYSTEM_TIMESTAMP)", (unsigned)flags);
        return false;
    }
    if (flags == D3D12XBOX_WRITE_VALUE_BOP_FLAG_SYSTEM_TIMESTAMP && d3d12_system_timestamps_unavailable(list->object.device)) {
        d3d12_command_list_record_error(list, command, "WriteFlags SYSTEM_TIMESTAMP cannot be written on this device: %s",
                d3d12_system_timestamps_unavailable(list->object.device));
        return false;
    }
    if (flags && (list->transfer_only || !list->object.device->queue_map[list->type].timestamps)) {
        d3d12_command_list_record_error(list, command, "WriteFlags %s needs a queue family with timestamps that can copy query results "
                "and run compute (this list's cannot)", flags == D3D12XBOX_WRITE_VALUE_BOP_FLAG_GPU_TIMESTAMP ? "GPU_TIMESTAMP" : "SYSTEM_TIMESTAMP");
        return false;
    }
    return true;
}

static void note_write(struct d3d12_command_list *list, const char *command, VkBuffer buffer, uint64_t offset, uint32_t size)
{
    struct d3d12_recorded_range range = {buffer, offset, size, true, VK_NULL_HANDLE};
    uint32_t first = d3d12_command_list_note_ranges(list, command, &range, 1);
    if (first != UINT32_MAX)
        d3d12_command_list_note(list, D3D12_RECORDED_WRITE_VALUE, first, 1);
}

/* GPU-read-only graphics memory: the console drops GPU writes to it, so a wait on such a value
 * never ends (its samples teach exactly that hang). The command is recorded and does nothing. */
static bool dropped_write(struct d3d12_command_list *list, const char *command, uint64_t address, const struct d3d12xs_va_range *range,
        uint64_t offset, uint32_t size)
{
    VkBuffer buffer = range->buffer;
    if (!range->gpu_read_only)
        return false;
    WARN("%s: Destination 0x%llx is GPU-read-only graphics memory; the write is dropped, as on the console", command,
            (unsigned long long)address);
    note_write(list, command, buffer, offset, size);
    return true;
}

/* The value lands once every earlier command has finished executing (bottom of pipe); with a
 * write-back, their memory writes land first. */
static void write_bottom_of_pipe(struct d3d12_command_list *list, const char *command, uint64_t address, uint64_t value, uint32_t size,
        bool write_back)
{
    struct d3d12_device *device = list->object.device;
    struct d3d12xs_va_range range;
    VkBuffer buffer;
    uint64_t offset;

    if (!resolve_address(list, command, "Destination", address, size, true, &range, &offset)
            || dropped_write(list, command, address, &range, offset, size))
        return;
    buffer = range.buffer;
    /* The write waits for the work no barrier ordered yet (d3d12_barriers_unordered: recorded
     * since the list's start, a memory wait or FlushPipelineX, or waiting for a ResourceBarrier's
     * dependency); with none, that barrier already made earlier writes available and orders
     * this write after them. Naming only those stages rather than ALL_COMMANDS spares a full
     * pipeline drain where a GPU distinguishes the two. */
    VkAccessFlags2 src_access = write_back ? VK_ACCESS_2_MEMORY_WRITE_BIT : 0;
    if (size == 4 && !write_back && device->has_buffer_marker) {
        /* The hardware's own bottom-of-pipe write: no pipeline drain. */
        device->vkCmdWriteBufferMarker2AMD(list->vk_command_buffer, VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT, buffer, offset, (uint32_t)value);
        d3d12_barriers_note(&list->barriers, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
    } else if (d3d12_gpu_waits_possible(device, list->type, list->transfer_only) && !list->on_helper) {
        /* Another queue may spin on this value: a shader thread stores it, through the L2
         * the spin reads (a copy-engine write was never seen there on the H200). */
        d3d12_barriers_after_unordered(&list->barriers, list->vk_command_buffer, src_access, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
        d3d12_gpu_value_write_record(device, d3d12_command_list_begin_internal(list), buffer, offset, size, value);
        d3d12_command_list_end_internal(list);
        d3d12_barriers_note(&list->barriers, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
    } else {
        d3d12_barriers_after_unordered(&list->barriers, list->vk_command_buffer, src_access, VK_PIPELINE_STAGE_2_COPY_BIT,
                VK_ACCESS_2_TRANSFER_WRITE_BIT);
        vkCmdUpdateBuffer(list->vk_command_buffer, buffer, offset, size, &value);
        d3d12_barriers_note(&list->barriers, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
    }
    note_write(list, command, buffer, offset, size);
    d3d12_command_list_note_value_write(list, command, address, value, size);
    d3d12_command_list_flag_last(list, list->call_count - 1, D3D12_RECORDED_KNOWN_VALUE | (write_back ? D3D12_RECORDED_WRITES_BACK : 0));
}

/* GPU_TIMESTAMP: the GPU clock (GetTimestampFrequency's ticks) once every earlier command has
 * finished, through a timestamp query copied to the destination. SYSTEM_TIMESTAMP: the same
 * query copied to scratch memory, then converted to the host clock's domain by one shader
 * thread that writes the destination (commands/system_timestamp.h). */
static void write_timestamp(struct d3d12_command_list *list, const char *command, uint64_t address, bool write_back, bool system)
{
    struct d3d12_device *device = list->object.device;
    VkBuffer ticks_buffer;
    VkDeviceSize ticks_offset;
    struct d3d12xs_va_range range;
    VkQueryPool pool;
    uint32_t index;
    VkBuffer buffer;
    uint64_t offset;
    HRESULT hr;

    if (!resolve_address(list, command, "Destination", address, 8, true, &range, &offset)
            || dropped_write(list, command, address, &range, offset, 8))
        return;
    buffer = range.buffer;
    if (FAILED(hr = d3d12_command_allocator_get_timestamp(list->allocator, &pool, &index))) {
        d3d12_command_list_record_error(list, command, "cannot get a timestamp query (HRESULT 0x%08x)", (unsigned)hr);
        return;
    }
    /* Emitted here, not as a request: the write-back must land before the timestamp is taken. */
    if (write_back)
        d3d12_barriers_emit(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
    if (system && FAILED(hr = d3d12_command_allocator_get_scratch(list->allocator, &ticks_buffer, &ticks_offset))) {
        d3d12_command_list_record_error(list, command, "cannot get scratch memory for the GPU clock (HRESULT 0x%08x)", (unsigned)hr);
        return;
    }
    vkCmdResetQueryPool(list->vk_command_buffer, pool, index, 1);
    vkCmdWriteTimestamp2(list->vk_command_buffer, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool, index);
    if (!system) {
        vkCmdCopyQueryPoolResults(list->vk_command_buffer, pool, index, 1, buffer, offset, 8, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
        d3d12_barriers_note(&list->barriers, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
    } else {
        vkCmdCopyQueryPoolResults(list->vk_command_buffer, pool, index, 1, ticks_buffer, ticks_offset, 8,
                VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
        /* The command's own step: the conversion reads the ticks just copied. */
        d3d12_barriers_emit(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
        d3d12_system_timestamp_record(device, d3d12_command_list_begin_internal(list), ticks_buffer, ticks_offset, buffer, offset);
        d3d12_command_list_end_internal(list);
        d3d12_barriers_note(&list->barriers, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
    }
    note_write(list, command, buffer, offset, 8);
    if (write_back)
        d3d12_command_list_flag_last(list, list->call_count - 1, D3D12_RECORDED_WRITES_BACK);
}

void STDMETHODCALLTYPE d3d12_command_list_Write32BitValueBottomOfPipe2X(ID3D12GraphicsCommandList *iface, D3D12_GPU_VIRTUAL_ADDRESS destination,
        UINT value, D3D12XBOX_SYNC_FLAGS sync, D3D12XBOX_SYNC_CONTROL_FLAGS control, D3D12XBOX_WRITE_VALUE_BOP_FLAGS flags)
{
    struct d3d12_command_list *list = list_from(iface);
    const char *command = METHOD(Write32BitValueBottomOfPipe2X);
    if (d3d12_command_list_check_recording(list, command) && sync_flags_valid(list, command, sync, control)
            && write_flags_valid(list, command, flags, 4))
        write_bottom_of_pipe(list, command, destination, value, 4, sync & WRITEBACK_SYNC_FLAGS);
}

void STDMETHODCALLTYPE d3d12_command_list_Write64BitValueBottomOfPipe2X(ID3D12GraphicsCommandList *iface, D3D12_GPU_VIRTUAL_ADDRESS destination,
        UINT64 value, D3D12XBOX_SYNC_FLAGS sync, D3D12XBOX_SYNC_CONTROL_FLAGS control, D3D12XBOX_WRITE_VALUE_BOP_FLAGS flags)
{
    struct d3d12_command_list *list = list_from(iface);
    const char *command = METHOD(Write64BitValueBottomOfPipe2X);
    if (d3d12_command_list_check_recording(list, command) && sync_flags_valid(list, command, sync, control)
            && write_flags_valid(list, command, flags, 8)) {
        if (flags)
            write_timestamp(list, command, destination, sync & WRITEBACK_SYNC_FLAGS, flags == D3D12XBOX_WRITE_VALUE_BOP_FLAG_SYSTEM_TIMESTAMP);
        else
            write_bottom_of_pipe(list, command, destination, value, 8, sync & WRITEBACK_SYNC_FLAGS);
    }
}

void STDMETHODCALLTYPE d3d12_command_list_Write32BitValueBottomOfPipeX(ID3D12GraphicsCommandList *iface, D3D12_GPU_VIRTUAL_ADDRESS destination,
        UINT value, D3D12XBOX_FLUSH flush, D3D12XBOX_WRITE_VALUE_BOP_FLAGS flags)
{
    struct d3d12_command_list *list = list_from(iface);
    const char *command = METHOD(Write32BitValueBottomOfPipeX);
    if (d3d12_command_list_check_recording(list, command) && flush_flags_valid(list, command, flush) && write_flags_valid(list, command, flags, 4))
        write_bottom_of_pipe(list, command, destination, value, 4, flush & WRITEBACK_FLUSH_FLAGS);
}

void STDMETHODCALLTYPE d3d12_command_list_Write64BitValueBottomOfPipeX(ID3D12GraphicsCommandList *iface, D3D12_GPU_VIRTUAL_ADDRESS destination,
        UINT64 value, D3D12XBOX_FLUSH flush, D3D12XBOX_WRITE_VALUE_BOP_FLAGS flags)
{
    struct d3d12_command_list *list = list_from(iface);
    const char *command = METHOD(Write64BitValueBottomOfPipeX);
    if (d3d12_command_list_check_recording(list, command) && flush_flags_valid(list, command, flush) && write_flags_valid(list, command, flags, 8)) {
        if (flags)
            write_timestamp(list, command, destination, flush & WRITEBACK_FLUSH_FLAGS, flags == D3D12XBOX_WRITE_VALUE_BOP_FLAG_SYSTEM_TIMESTAMP);
        else
            write_bottom_of_pipe(list, command, destination, value, 8, flush & WRITEBACK_FLUSH_FLAGS);
    }
}

/* Top of pipe: the value lands when the command is reached, without waiting for earlier work. */
static void write_top_of_pipe(struct d3d12_command_list *list, const char *command, uint64_t address, uint64_t value, uint32_t size)
{
    struct d3d12_device *device = list->object.device;
    struct d3d12xs_va_range range;
    VkBuffer buffer;
    uint64_t offset;

    if (!d3d12_command_list_check_recording(list, command)
            || !resolve_address(list, command, "Destination", address, size, true, &range, &offset)
            || dropped_write(list, command, address, &range, offset, size))
        return;
    buffer = range.buffer;
    d3d12_barriers_before(&list->barriers, list->vk_command_buffer, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
    bool marker = size == 4 && device->has_buffer_marker;
    if (marker)
        device->vkCmdWriteBufferMarker2AMD(list->vk_command_buffer, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, buffer, offset, (uint32_t)value);
    else
        vkCmdUpdateBuffer(list->vk_command_buffer, buffer, offset, size, &value);
    note_write(list, command, buffer, offset, size);
    /* A copy-engine write is not one a GPU-side spin can rely on seeing: only publish it where
     * no spin can happen. */
    if (marker || !d3d12_gpu_waits_possible(device, list->type, list->transfer_only)) {
        d3d12_command_list_note_value_write(list, command, address, value, size);
        d3d12_command_list_flag_last(list, list->call_count - 1, D3D12_RECORDED_KNOWN_VALUE);
    }
}

void STDMETHODCALLTYPE d3d12_command_list_Write32BitValueTopOfPipeX(ID3D12GraphicsCommandList *iface, D3D12_GPU_VIRTUAL_ADDRESS destination, UINT value)
{
    write_top_of_pipe(list_from(iface), METHOD(Write32BitValueTopOfPipeX), destination, value, 4);
}

void STDMETHODCALLTYPE d3d12_command_list_Write64BitValueTopOfPipeX(ID3D12GraphicsCommandList *iface, D3D12_GPU_VIRTUAL_ADDRESS destination, UINT64 value)
{
    write_top_of_pipe(list_from(iface), METHOD(Write64BitValueTopOfPipeX), destination, value, 8);
}

/* The wait done by the GPU, in a command buffer of its own that the scheduler runs before
 * the next segment instead of holding it, when it may (sync/gpu_wait.h). */
static VkCommandBuffer record_gpu_wait(struct d3d12_command_list *list, const char *command, VkBuffer buffer, uint64_t offset,
        const struct d3d12_memory_wait *wait)
{
    VkCommandBuffer command_buffer;
    VkResult vr;
    HRESULT hr;

    if (FAILED(hr = d3d12_command_list_begin_command_buffer(list, false, &command_buffer))) {
        d3d12_command_list_record_error(list, command, "cannot get a command buffer for the GPU-side wait (HRESULT 0x%08x)", (unsigned)hr);
        return VK_NULL_HANDLE;
    }
    d3d12_gpu_wait_record(list->object.device, command_buffer, buffer, offset, wait->size, wait->comparison, wait->value);
    if ((vr = vkEndCommandBuffer(command_buffer)) != VK_SUCCESS) {
        d3d12_command_list_record_error(list, command, "cannot record the GPU-side wait (VkResult %d)", vr);
        return VK_NULL_HANDLE;
    }
    return command_buffer;
}

/* Commands after the wait start when *address compares true with value. The list is cut
 * there; the scheduler holds the next segment until the host sees the value (docs/sync.md). */
static void wait_value(struct d3d12_command_list *list, const char *command, uint64_t address, D3D12_COMPARISON_FUNC comparison,
        uint64_t value, uint32_t size, D3D12XBOX_WAIT_FLAGS flags)
{
    struct d3d12_device *device = list->object.device;
    struct d3d12_memory_wait wait;
    struct d3d12xs_va_range range;
    VkBuffer buffer;
    uint64_t offset;
    void *host;

    if (!d3d12_command_list_check_recording(list, command))
        return;
    if (comparison < D3D12_COMPARISON_FUNC_NEVER || comparison > D3D12_COMPARISON_FUNC_ALWAYS) {
        d3d12_command_list_record_error(list, command, "Function is %d (a D3D12_COMPARISON_FUNC, NEVER..ALWAYS)", (int)comparison);
        return;
    }
    if (flags) {
        d3d12_command_list_record_error(list, command, "Flags is 0x%x (must be D3D12XBOX_WAIT_FLAG_NONE)", (unsigned)flags);
        return;
    }
    if (!resolve_address(list, command, "Address", address, size, false, &range, &offset))
        return;
    buffer = range.buffer;
    if (!(host = range.host ? (char *)range.host + offset : NULL)) {
        d3d12_command_list_record_error(list, command, "Address 0x%llx is in memory the CPU cannot read on this device "
                "(waits need UPLOAD, READBACK or CPU-visible CUSTOM heaps, or graphics memory)", (unsigned long long)address);
        return;
    }
    wait = (struct d3d12_memory_wait){.host_address = host, .size = size, .comparison = comparison, .value = value, .gpu_address = address};
    /* GPU-side spins only on graphics memory (its GPU address is its CPU pointer): on the H200
     * a spin on a CUSTOM heap buffer missed a value already in memory (docs/sync.md). */
    bool spin_possible = d3d12_gpu_waits_possible(device, list->type, list->transfer_only) && !list->on_helper
            && range.va == (uint64_t)(uintptr_t)range.host;
    if (spin_possible && device->gpu_wait_mode == D3D12_GPU_WAITS_INLINE) {
        /* The experiment of docs/sync.md: no cut, the spin runs where the wait is. */
        d3d12_gpu_wait_record(device, d3d12_command_list_begin_internal(list), buffer, offset, size, comparison, value);
        d3d12_command_list_end_internal(list);
    } else {
        if (spin_possible && !(wait.gpu_command_buffer = record_gpu_wait(list, command, buffer, offset, &wait)))
            return;
        if (!d3d12_command_list_cut_segment(list, command, list->on_helper, &wait))
            return;
    }
    /* What the writer made available becomes visible to everything after the wait. The source
     * scope is everything submitted earlier to this VkQueue: the GPU-side wait's spin, and a
     * writer sharing the VkQueue, whose write this barrier then waits for (sync/scheduler.c).
     * Like a ResourceBarrier's, it is emitted before the next command of each stage that
     * comes (d3d12_barriers_before): a bottom-of-pipe write next needs it for the copy stage
     * only. */
    d3d12_barriers_request(&list->barriers, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
            VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, D3D12_EVERY_ACCESS);
    struct d3d12_recorded_range read = {buffer, offset, size, false, VK_NULL_HANDLE};
    uint32_t first = d3d12_command_list_note_ranges(list, command, &read, 1);
    if (first != UINT32_MAX)
        d3d12_command_list_note(list, D3D12_RECORDED_WAIT_VALUE, first, 1);
}

void STDMETHODCALLTYPE d3d12_command_list_Wait32BitValueX(ID3D12GraphicsCommandList *iface, D3D12_GPU_VIRTUAL_ADDRESS address,
        D3D12_COMPARISON_FUNC comparison, UINT value, D3D12XBOX_WAIT_FLAGS flags)
{
    wait_value(list_from(iface), METHOD(Wait32BitValueX), address, comparison, value, 4, flags);
}

void STDMETHODCALLTYPE d3d12_command_list_Wait64BitValueX(ID3D12GraphicsCommandList *iface, D3D12_GPU_VIRTUAL_ADDRESS address,
        D3D12_COMPARISON_FUNC comparison, UINT64 value, D3D12XBOX_WAIT_FLAGS flags)
{
    wait_value(list_from(iface), METHOD(Wait64BitValueX), address, comparison, value, 8, flags);
}

/* A barrier the console way: IDLE or the compute masks wait for earlier work; the cache
 * actions make its writes reach memory and later reads see memory. */
void STDMETHODCALLTYPE d3d12_command_list_FlushPipelineX(ID3D12GraphicsCommandList *iface, D3D12XBOX_FLUSH flush, D3D12_GPU_VIRTUAL_ADDRESS address,
        SIZE_T size)
{
    struct d3d12_command_list *list = list_from(iface);
    const char *command = METHOD(FlushPipelineX);
    VkBuffer buffer;
    uint64_t offset;

    if (!d3d12_command_list_check_recording(list, command) || !flush_flags_valid(list, command, flush))
        return;
    if (size != D3D12XBOX_FLUSH_RANGE_ALL && size && !d3d12xs_va_lookup(list->object.device, address, size, &buffer, &offset)) {
        d3d12_command_list_record_error(list, command, "[0x%llx, +%zu) is not inside a live buffer or graphics memory of this device",
                (unsigned long long)address, (size_t)size);
        return;
    }
    if (!flush)
        return;
    d3d12_barriers_full(&list->barriers, list->vk_command_buffer);
    d3d12_command_list_note(list, D3D12_RECORDED_BARRIER, 0, 0);
    if (flush & WRITEBACK_FLUSH_FLAGS)
        d3d12_command_list_flag_last(list, list->call_count - 1, D3D12_RECORDED_WRITES_BACK);
}
