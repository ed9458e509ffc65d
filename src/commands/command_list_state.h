/* Command lists: the structure every part of command recording shares, and the functions of
 * command_recording.c (errors, segments, the record, internal work). */
#ifndef D3D12XS_COMMAND_LIST_STATE_H
#define D3D12XS_COMMAND_LIST_STATE_H

#include "device/device.h"
#include "commands/command_allocator.h"
#include "descriptors/descriptors.h"
#include "pipelines/pipeline_state.h"
#include "commands/command_record.h"
#include "sync/barrier_tracker.h"
#include "commands/graphics_bindings.h"
#include "sync/scheduler.h"
#include "d3d12_xs.h"

struct d3d12_root_argument {
    bool set;
    uint64_t value; /* GPU virtual address of a root descriptor, or GPU handle of a table */
};

/* The two places a list binds root signatures and root arguments, as in D3D12 (and as Vulkan's
 * VK_PIPELINE_BIND_POINT_COMPUTE / _GRAPHICS). SetComputeRoot* and SetGraphicsRoot* are one
 * implementation over a bind point (command_list_root_arguments.c), and one flush brings a bind
 * point's Vulkan state up to date before a dispatch or a draw (command_list_flush.c). */
enum d3d12_bind_point {
    D3D12_BIND_POINT_COMPUTE,
    D3D12_BIND_POINT_GRAPHICS,
    D3D12_BIND_POINT_COUNT,
};

/* What of a bind point's bindings the Vulkan command buffer does not have yet. */
enum d3d12_bind_point_dirty {
    D3D12_DIRTY_PIPELINE = 0x1,          /* everything goes again: a pipeline bind, or a new command buffer */
    D3D12_DIRTY_CONSTANTS = 0x2,         /* root constants, in constants_dirty_first..end */
    D3D12_DIRTY_DESCRIPTORS = 0x4,       /* root descriptors (a push-descriptor write) */
    D3D12_DIRTY_TABLES = 0x8,            /* a table or the heaps changed: the table starts go again */
    D3D12_DIRTY_HEAP_OFFSETS = 0x10,     /* the heap sets' offsets go again (signature or heaps changed) */
    D3D12_DIRTY_ROOT_VIEW_OFFSETS = 0x20,/* a root view's misalignment changed since pushed */
};

/* What a bind point holds: its root signature, the root arguments set against it, what of them
 * the Vulkan command buffer does not have yet, and what its last flush pushed. The fields every
 * flush reads come first, in one cache line. */
struct d3d12_bind_point_state {
    uint32_t dirty;                              /* enum d3d12_bind_point_dirty */
    /* Root constants changed since the last push, as a range of 32-bit values: a flush pushes
     * only those (D3D12_DIRTY_PIPELINE pushes them all). */
    uint32_t constants_dirty_first, constants_dirty_end;
    bool validated; /* the bound pipeline, signature and set arguments passed the flush's checks */
    /* Counts the changes of what those checks read other than the pipeline (the signature, which
     * arguments are set: d3d12_bind_point_unvalidate); the last two pipelines that passed them
     * with the count they passed at, so that switching between pipelines re-checks neither. */
    uint32_t validation_epoch;
    struct {
        const struct d3d12_pipeline_state *pipeline;
        uint32_t epoch;
    } passed[2];
    uint8_t next_passed;
    /* The last full flush found nothing but root constants can change the next one's work (no
     * variant, memory-based ABI or console validation): a constants-only flush takes the short way. */
    bool constants_only;
    /* One root view that D3DCompile reads as uvec4s starts off a 16-byte boundary: the SCALAR
     * variant runs (root_view_misalignments, below). */
    bool root_views_scalar;
    struct d3d12_root_signature *root_signature; /* not referenced, as in D3D12 */
    VkPipeline bound_vk_pipeline;                /* the pipeline or the DispatchX variant bound last */
    /* The layout all root constants, and the one the heap sets' offsets, were last pushed and set
     * with, and in which command buffer: a pipeline bind of that layout keeps both (flush). */
    VkPipelineLayout constants_layout, heap_sets_layout;
    VkCommandBuffer constants_in, heap_sets_in;
    uint64_t constants_set;                      /* bit per constants parameter that has values */
    uint64_t tables_changed;                     /* bit per table set since the table starts were pushed */
    /* Of the signature and pipeline of the last full push of the table starts: per root parameter,
     * where its start goes among table_starts, and the tables whose starts it found (those the
     * pipeline reads; the others are pushed as 0). */
    uint8_t table_slot[D3D12XS_MAX_ROOT_PARAMETERS];
    uint64_t tables_started;
    uint32_t push_constants[D3D12XS_MAX_ROOT_CONSTANT_BYTES / 4];
    struct d3d12_root_argument arguments[D3D12XS_MAX_ROOT_PARAMETERS];
    /* The table starts as last pushed, in which command buffer and with which layout: a full push
     * that would push the same values again (a pipeline change within the layout whose tables
     * start where they did) pushes nothing. */
    uint32_t pushed_table_starts[D3D12XS_MAX_ROOT_PARAMETERS + 1], pushed_table_count;
    VkCommandBuffer table_starts_in;
    VkPipelineLayout table_starts_layout;
    uint32_t table_starts[D3D12XS_MAX_ROOT_PARAMETERS + 1]; /* heap index of each table's start, in table order; then
                                                                   * the heap size where d3d12xs_heap.hlsli reads it */
    /* Memory-based ABI: the root descriptors' D3D12 addresses checked by the last descriptor
     * flush, by the pipeline's address slot (the shader translates them itself). */
    uint64_t root_addresses[D3D12XS_MAX_ROOT_PARAMETERS];
    /* Root SRVs and UAVs: how many bytes before the argument their descriptor starts, in the
     * root signature's order of them (its root_view_offsets), as last pushed. */
    uint32_t root_view_misalignments[D3D12XS_MAX_ROOT_PARAMETERS];
};

/* What the flush's checks read changed (not the pipeline): they run again at the next flush,
 * whatever pipeline is bound. */
static inline void d3d12_bind_point_unvalidate(struct d3d12_bind_point_state *point)
{
    point->validated = false;
    point->validation_epoch++;
}

/* What a list binds: list-wide state (the pipeline, the descriptor heaps and the DispatchX
 * state), and each bind point's. */
struct d3d12_list_bindings {
    struct d3d12_pipeline_state *pipeline;       /* D3D12's one pipeline state of the list */
    struct d3d12_descriptor_heap *heaps[2];      /* CBV_SRV_UAV, SAMPLER */
    /* Per heap: how many of its descriptors a table may reach, the fewer of its own and of
     * what shaders can address (descriptor_buffer.h); 0 with none bound. */
    uint32_t table_limits[2];
    /* The heaps as bound in the command buffer (descriptor_buffer.h), so a flush binds them
     * only when they or the command buffer changed (both bind points read the same buffers). */
    VkCommandBuffer heaps_bound_in;
    struct d3d12_descriptor_heap *bound_heaps[2];
    enum d3d12_bind_point push_owner;            /* the bind point whose values the push constants hold */
    uint32_t start_group[3];                     /* D3D12XSSetDispatchStartGroup: DispatchX's first SV_GroupID */
    /* The ordered-append state of the DispatchX being recorded (VK_NULL_HANDLE otherwise). */
    VkBuffer ordered_append_buffer;
    VkDeviceSize ordered_append_offset;
    struct d3d12_bind_point_state points[D3D12_BIND_POINT_COUNT];
    /* Render targets, the rendering pass, the input assembler's buffers and the dynamic state
     * draws apply (graphics_bindings.h). */
    struct d3d12_graphics_bindings graphics;
};

/* The bind point a pipeline state runs at. */
static inline enum d3d12_bind_point d3d12_pipeline_bind_point(const struct d3d12_pipeline_state *pipeline)
{
    return pipeline->graphics ? D3D12_BIND_POINT_GRAPHICS : D3D12_BIND_POINT_COMPUTE;
}

enum d3d12_command_list_state {
    D3D12_COMMAND_LIST_RECORDING,
    D3D12_COMMAND_LIST_CLOSED,
};

struct d3d12_query_reset {
    VkQueryPool pool;
    uint32_t index;
};

/* A query between BeginQuery and EndQuery in this list (D3D12 keeps both in one list). */
struct d3d12_open_query {
    struct d3d12_query_heap *heap; /* not referenced: the list may not outlive its heaps' use */
    uint32_t index;
    D3D12_QUERY_TYPE type;
    VkQueryPool vk_pool; /* the heap's Vulkan pool that counts it in this list; VK_NULL_HANDLE where none counts, or once ended */
    /* The Vulkan query counting it now: the heap's query `index` until a view-instanced pass
     * splits it, then its last piece (command_list_query_views.c); VK_NULL_HANDLE while none
     * does (an SO_STATISTICS query inside a view-instanced pass). */
    VkQueryPool active_pool;
    uint32_t active_slot;
    bool split; /* counted in pieces too: EndQuery sums them */
};

/* A piece of a split query: count consecutive Vulkan queries of an allocator's pool, begun
 * together (a view-instanced pass's views, or 1 outside such a pass). */
struct d3d12_query_piece {
    const struct d3d12_query_heap *heap;
    uint32_t index;
    VkQueryPool pool;
    uint32_t first, count;
};

/* One resolve a D3D12 render pass does at its EndRenderPass (ENDING_ACCESS_RESOLVE), copied at
 * BeginRenderPass: D3D12 reads the parameters there. */
struct d3d12_pass_resolve {
    struct d3d12_resource *src, *dst; /* not referenced, as D3D12 does not */
    UINT src_subresource, dst_subresource, dst_x, dst_y;
    D3D12_RECT src_rect;
    DXGI_FORMAT format;
    D3D12_RESOLVE_MODE mode;
    /* The plane d3d12xs's own resolve pass resolves (commands/resolve_pass.h); 0 where Vulkan's
     * resolves do the job (they are faster). */
    VkImageAspectFlags pass_aspect;
};

/* The D3D12 render pass between BeginRenderPass and EndRenderPass (command_list_render_pass.c). */
struct d3d12_render_pass {
    bool active;
    D3D12_RENDER_PASS_FLAGS flags;
    /* The list's first pass resumes one, its last suspends: ExecuteCommandLists checks that
     * neighbouring lists pair them (the debug layer's check) */
    bool begun, begins_resuming, ends_suspended;
    struct d3d12_pass_resolve *resolves; /* done at EndRenderPass, unless the pass suspends */
    uint32_t resolve_count;
    size_t resolve_capacity;
};

/* SetPredication's state (command_list_predication.c): the 32-bit condition its fold wrote, which
 * the predicated commands read through conditional rendering. */
struct d3d12_predication {
    bool active;
    bool inverted;          /* NOT_EQUAL_ZERO: the commands run where the value is zero */
    VkBuffer condition;     /* in the allocator's argument memory */
    VkDeviceSize offset;
};

struct d3d12_generated_layout;

struct d3d12_command_list {
    ID3D12GraphicsCommandList10 ID3D12GraphicsCommandList10_iface;
    struct d3d12xs_object object;
    D3D12_COMMAND_LIST_TYPE type;
    enum d3d12_command_list_state state;
    bool invalid;         /* a recording error happened; Close fails */
    HRESULT error_hr;     /* what Close returns for it: E_INVALIDARG, or E_NOTIMPL for what d3d12xs lacks */
    char error[512];      /* the first recording error, repeated by Close */
    struct d3d12_render_pass render_pass;
    struct d3d12_predication predication;
    struct d3d12_command_allocator *allocator; /* holds a reference */
    VkCommandBuffer vk_command_buffer;    /* the current segment's */
    /* The device's entry points of the commands recorded most (device/vk_record_commands.h), kept
     * here so that a draw reaches vkCmdDraw with one load. */
    struct d3d12xs_vk_record_commands vk;
    /* A list is a sequence of segments, each its own command buffer, cut where a
     * synchronisation point needs one (a wait on memory, work for another queue). */
    struct d3d12_list_segment *segments;
    size_t segment_count, segment_capacity;
    bool on_helper;                       /* the current segment runs on the internal engine */
    uint32_t call_count;                  /* recording calls so far: the next call's index */
    /* call_count after the last call that left the list settled for a draw's short way
     * (command_list_graphics.c, draw_settled): a draw that needed nothing more than the bind
     * point's flush, or, right after such a call, one that changes only what that flush and the
     * draw's dynamic state apply (root arguments, vertex and index buffers, blend factor, stencil
     * reference: d3d12_command_list_keep_settled). Every other call counts past it. UINT32_MAX: none,
     * always so while the list is not recording (command_list.c, stop_recording). */
    uint32_t draw_settled_at;
    /* The same for a dispatch's short way (command_list_compute.c, dispatch_settled): a Dispatch
     * whose flush had nothing to do and left nothing for the next, or, right after one, a
     * compute root-argument call that left the bind point clean. UINT32_MAX: none. */
    uint32_t dispatch_settled_at;
    struct d3d12_command_record record;
    uint32_t split_every;                 /* D3D12XS_SPLIT_LISTS: cut after every N commands (tests) */
    uint32_t commands_in_segment;
    uint64_t allocator_generation; /* allocator->reset_generation when recording began */
    bool transfer_only;   /* recorded for a transfer-only queue family */
    /* Every barrier of the list: what is recorded and requested, emitted lazily (barrier_tracker.h). */
    struct d3d12_barrier_tracker barriers;
    /* Between d3d12_command_list_begin_internal and _end_internal: internal work owns the
     * command buffer's bindings (checked in Debug builds). */
    bool in_internal;
    /* Transfer-only lists cannot reset queries: their resets run first, in a command buffer of
     * their own on the internal compute-capable engine (recorded at Close). */
    struct d3d12_query_reset *query_resets;
    uint32_t query_reset_count;
    size_t query_reset_capacity;
    VkCommandBuffer query_reset_command_buffer;
    /* Queries begun and not yet ended: a segment is not cut under an active Vulkan query,
     * which cannot span command buffers (command_list_query.c). */
    struct d3d12_open_query *open_queries;
    uint32_t open_query_count;
    size_t open_query_capacity;
    /* The pieces of the open queries a view-instanced pass split, and whether the open
     * rendering pass is such a pass, with the open queries counted inside it. */
    struct d3d12_query_piece *query_pieces;
    uint32_t query_piece_count;
    size_t query_piece_capacity;
    bool queries_in_views_pass;
    /* lavapipe: a view-instanced pass ended and lavapipe still holds its view mask
     * (d3d12_command_list_begin_vulkan_query). */
    bool view_mask_kept;
    /* Known values the list writes (value writes), by segment: what lets the scheduler wait
     * out another queue's memory wait on the GPU (sync/gpu_wait.h). */
    /* PIX events recorded while a capture runs (command_list_pix.c): their timestamps and the
     * events still open (indexes into trace_marks->marks). */
    struct d3d12_trace_marks *trace_marks;
    uint32_t pix_open[16];
    unsigned pix_depth;
    struct d3d12_value_write *value_writes;
    size_t value_write_count, value_write_capacity;
    struct d3d12_list_bindings bindings;
    /* Dispatches recorded since creation or Reset: [0] push-constant ABI, [1] memory-based ABI
     * (D3D12XSGetCommandListDispatchCounters). */
    uint64_t dispatch_counts[2];
    uint64_t root_descriptor_counts[2]; /* root descriptors those dispatches read: [0] pushed, [1] through memory */
    /* Dispatches of the short way (command_list_compute.c) count themselves here alone: each adds
     * what the dispatch that settled the list added (settled_adds), as nothing that changes that
     * keeps the list settled. d3d12_command_list_fold_settled_dispatches adds them to the counts
     * above before another dispatch settles the list and when the counters are read. */
    uint64_t settled_dispatches;
    struct {
        uint32_t abi;                     /* dispatch_counts' index */
        uint32_t pushed, addresses;       /* root descriptors: root_descriptor_counts' [0] and [1] */
    } settled_adds;
    /* Vulkan rendering passes (vkCmdBeginRendering) recorded since creation or Reset: tests read
     * it to see which commands end the open pass (a clear of its attachment does not). */
    uint64_t rendering_pass_count;
    /* The preprocess memory ExecuteIndirect's last generated-commands call asked for, and what it
     * asked with: a frame's calls repeat one signature, pipeline and count, so the next such
     * call skips vkGetGeneratedCommandsMemoryRequirementsEXT (command_list_generated.c). */
    struct {
        const struct d3d12_generated_layout *layout;
        VkPipeline pipeline;
        uint32_t count;
        VkMemoryRequirements requirements;
    } generated_memory;
};

/* One segment of a closed or recording list. */
struct d3d12_list_segment {
    VkCommandBuffer command_buffer;
    bool on_helper;
    bool has_wait;
    struct d3d12_memory_wait wait;  /* waited for before the segment starts */
    uint32_t first_call;
    const char *cut_by;             /* the command that started it (NULL for the first) */
    uint32_t first_write, write_count; /* its entries of the list's value_writes */
    size_t first_record;            /* the record's command count when it started: its commands follow */
    /* Its first and last recorded command (set at Close from the record, for hang reports):
     * kind names, and call indexes; NULL when it has none. */
    const char *first_command, *last_command;
    uint32_t first_command_call, last_command_call;
};

struct d3d12_command_list *unsafe_impl_from_ID3D12CommandList(ID3D12CommandList *iface);
HRESULT d3d12_command_list_create(struct d3d12_device *device, D3D12_COMMAND_LIST_TYPE type,
        ID3D12CommandAllocator *allocator, ID3D12PipelineState *initial_state, REFIID riid, void **list);
/* CreateCommandList1: closed, no allocator until its first Reset. */
HRESULT d3d12_command_list_create_closed(struct d3d12_device *device, D3D12_COMMAND_LIST_TYPE type, REFIID riid, void **list);
/* Marks the list invalid: logs "<command>: <why>" and keeps the first error for Close. */
void d3d12_command_list_record_error(struct d3d12_command_list *list, const char *command, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
/* The same for a call Windows accepts and d3d12xs cannot do yet: Close fails with E_NOTIMPL. */
void d3d12_command_list_record_unsupported(struct d3d12_command_list *list, const char *command, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
void d3d12_command_list_report_closed(struct d3d12_command_list *list, const char *command);
/* What D3D12 leaves undefined and only its debug layer reports: one warning line, and only with
 * the debug layer on (EnableDebugLayer or D3D12XS_DEBUG=1); the list stays valid. */
void d3d12_command_list_debug_warn(struct d3d12_command_list *list, const char *command, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
/* The stages a draw runs in on this device: vertex input, every shader stage it has, transform
 * feedback where enabled, the fragment tests and the colour output (no stage whose feature is off: barriers may not name it). */
static inline VkPipelineStageFlags2 d3d12_draw_stages(const struct d3d12_device *device)
{
    return VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT
            | VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT
            | VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT
            | (device->graphics.geometry_shader ? VK_PIPELINE_STAGE_2_GEOMETRY_SHADER_BIT : 0)
            | (device->graphics.transform_feedback ? VK_PIPELINE_STAGE_2_TRANSFORM_FEEDBACK_BIT_EXT : 0)
            | (device->graphics.tessellation_shader ? VK_PIPELINE_STAGE_2_TESSELLATION_CONTROL_SHADER_BIT
                    | VK_PIPELINE_STAGE_2_TESSELLATION_EVALUATION_SHADER_BIT : 0);
}

/* The stages a list's own commands run in, the barrier tracker's work stages: COPY lists
 * transfer; COMPUTE lists compute, transfer and indirect arguments; DIRECT lists those and a
 * draw's stages (tessellation, geometry, transform feedback and conditional rendering join
 * once the device enables them: a barrier may name them only then). Barriers name these
 * instead of ALL_COMMANDS, which costs a full pipeline drain on some GPUs. Internal dispatches
 * of a COPY list order themselves (d3d12_barriers_after_unordered). */
static inline VkPipelineStageFlags2 d3d12_command_list_work_stages(const struct d3d12_command_list *list)
{
    const VkPipelineStageFlags2 compute = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT
            | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT;

    if (list->transfer_only || list->type == D3D12_COMMAND_LIST_TYPE_COPY)
        return VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT;
    if (list->type != D3D12_COMMAND_LIST_TYPE_DIRECT)
        return compute;
    /* the draw stages as the tracker's slots: vertex input is index and attribute input */
    return compute | VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT | VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT
            | (d3d12_draw_stages(list->object.device) & ~VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT);
}

/* command_recording.c */
/* Ends the rendering pass draws left open in the command buffer (graphics_bindings.h), before
 * anything that cannot be recorded inside one: every command but draws and the calls that only
 * set state (d3d12_command_list_check_recording), segment cuts, internal work and Close. */
void d3d12_command_list_end_rendering(struct d3d12_command_list *list);
/* A command buffer from the list's allocator (helper: its pool on the internal engine's family),
 * begun for simultaneous use. */
HRESULT d3d12_command_list_begin_command_buffer(struct d3d12_command_list *list, bool helper, VkCommandBuffer *command_buffer);
HRESULT d3d12_command_list_start_segment(struct d3d12_command_list *list, bool helper, const struct d3d12_memory_wait *wait, uint32_t first_call,
        const char *cut_by);
void d3d12_command_list_note_slow(struct d3d12_command_list *list, enum d3d12_recorded_kind kind, uint32_t first_range, uint32_t range_count);
/* Ends the current segment and starts the next (helper: on the internal compute engine;
 * wait: a memory wait before it). The compute state is bound again in the new segment. */
bool d3d12_command_list_cut_segment(struct d3d12_command_list *list, const char *command, bool helper, const struct d3d12_memory_wait *wait);
/* At Close: records the resets of a transfer-only list's queries (command_list_query.c). */
void d3d12_command_list_record_query_resets(struct d3d12_command_list *list);
/* Ends the Vulkan queries active in the current command buffer, which must not end with one
 * active. close: at Close, where every open query is an error (D3D12 ends each in its list);
 * else before a segment cut, where an active Vulkan query is one (d3d12xs cannot split a
 * query across command buffers). command names the call for the error; NULL records none
 * (Release). */
void d3d12_command_list_end_open_queries(struct d3d12_command_list *list, const char *command, bool close);
/* command_list_query_pieces.c: begins (in slot of pool) and ends (where it counts now) the Vulkan
 * query counting an open query, as its type does. */
void d3d12_command_list_begin_vulkan_query(struct d3d12_command_list *list, const struct d3d12_open_query *open, VkQueryPool pool,
        uint32_t slot);
void d3d12_command_list_end_vulkan_query(struct d3d12_command_list *list, const struct d3d12_open_query *open);
/* command_list_query_views.c: the open queries around a rendering pass of view instancing
 * (Vulkan multiview counts it in per-view queries begun and ended inside the pass). Before
 * vkCmdBeginRendering of view_mask: each open query ends where it counts and gets the views'
 * queries, reset; after it, they begin. Before vkCmdEndRendering they end; after it each query
 * goes on in a fresh piece. */
void d3d12_command_list_queries_before_views_pass(struct d3d12_command_list *list, uint32_t view_mask, const char *command);
/* command_list_query_pieces.c: the three after the first; the last fails (the queries' pieces
 * could not be made) for its caller to record. */
void d3d12_command_list_queries_begin_in_views_pass(struct d3d12_command_list *list);
void d3d12_command_list_queries_end_in_views_pass(struct d3d12_command_list *list);
HRESULT d3d12_command_list_queries_after_views_pass(struct d3d12_command_list *list);
/* command_list_query_pieces.c: a new piece of count queries of the allocator's pools for the open
 * query, reset (outside any pass) and where it counts now, not begun yet. */
HRESULT d3d12_command_list_start_query_piece(struct d3d12_command_list *list, struct d3d12_open_query *open, uint32_t count);
enum d3d12_piece_kind d3d12_query_piece_kind(const struct d3d12_query_heap *heap);
/* EndQuery of a split query, its Vulkan query ended: its counts (the heap's query and every
 * piece) summed into the heap's D3D12 result, BINARY_OCCLUSION's folded to 0 or 1. */
void d3d12_command_list_sum_query_pieces(struct d3d12_command_list *list, const struct d3d12_open_query *open, const char *command);
static inline bool d3d12_command_list_has_active_queries(const struct d3d12_command_list *list)
{
    for (uint32_t i = 0; i < list->open_query_count; i++) {
        if (list->open_queries[i].vk_pool)
            return true;
    }
    return false;
}
/* Notes a known value the current segment writes (after the command that writes it). */
void d3d12_command_list_note_value_write(struct d3d12_command_list *list, const char *command, uint64_t gpu_address, uint64_t value,
        uint32_t size);
/* Calls visit for each recorded command, in order. */
void d3d12_command_list_walk(const struct d3d12_command_list *list,
        void (*visit)(const struct d3d12_recorded_command *command, const struct d3d12_recorded_range *ranges, void *context), void *context);
#endif
