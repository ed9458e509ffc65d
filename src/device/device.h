/* The device every object hangs from: Vulkan handles, queue families, and device-wide state. */
#ifndef D3D12XS_DEVICE_H
#define D3D12XS_DEVICE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <vulkan/vulkan.h>

#include "d3d12.h"
#include "common/config.h"
#include "common/log.h"
#include "common/object.h"
#include "common/util.h"
#include "device/vk_record_commands.h"

struct d3d12_queue_family_map {
    uint32_t family;
    uint32_t vk_queue_count;
    VkQueue vk_queues[16];
    uint32_t next_vk_queue; /* round-robin assignment of D3D12 queues */
    bool shared;
    bool timestamps;
    bool supports_compute; /* false for transfer-only families */
    bool supports_graphics; /* graphics queries (occlusion, graphics statistics) need it */
};

/* What graphics can use on this device (device/vk_graphics_features.c): the enabled core features
 * and extensions that pipeline creation, the draw path and CheckFeatureSupport consult. */
struct d3d12xs_graphics_caps {
    VkShaderStageFlags stages;   /* stages pipelines may have: compute, vertex, fragment, and geometry and
                                  * tessellation where enabled (root signatures' layouts use no others) */
    bool geometry_shader, tessellation_shader;
    bool sample_rate_shading, dual_source_blend, logic_op, independent_blend;
    bool depth_clamp, depth_bias_clamp, depth_bounds, fill_mode_non_solid, multi_viewport;
    bool clip_distance, cull_distance, vertex_stores, fragment_stores, full_draw_index_uint32;
    bool variable_multisample_rate, draw_parameters, output_viewport_index, output_layer;
    /* ExecuteIndirect's draws: several per Vulkan call, a first instance from memory, a count buffer */
    bool multi_draw_indirect, draw_indirect_first_instance, draw_indirect_count;
    bool depth_clip_enable;                  /* VK_EXT_depth_clip_enable */
    bool vertex_divisor, vertex_divisor_zero; /* VK_EXT_vertex_attribute_divisor: step rates, and 0 */
    uint32_t max_vertex_divisor;
    bool line_rectangular, line_bresenham, line_smooth; /* VK_EXT_line_rasterization's modes */
    bool patch_control_points;               /* VK_EXT_extended_dynamic_state2: patch lists set on the list */
    bool stencil_export;                     /* VK_EXT_shader_stencil_export: SV_StencilRef */
    bool conditional_rendering;              /* VK_EXT_conditional_rendering: SetPredication (command_list_predication.c) */
    /* Multiview with D3D12's 4 views at least: view instancing (ViewInstancingTier 1); and with
     * geometry or tessellation shaders */
    bool multiview, multiview_geometry_shader, multiview_tessellation_shader;
    /* VK_EXT_sample_locations: D3D12's ProgrammableSamplePositionsTier (0: none) and the sample
     * counts whose pipelines take SetSamplePositions' positions */
    unsigned sample_positions_tier;
    VkSampleCountFlags sample_location_counts;
    /* VK_EXT_conservative_rasterization: D3D12's tier (0: none) and the overestimation size */
    unsigned conservative_tier;
    float conservative_overestimation;
    /* VK_EXT_transform_feedback: stream output; geometry_streams: GS streams 1 to 3 (and their
     * Stream decoration); rasterization_stream_select: a RasterizedStream other than 0 */
    bool transform_feedback, geometry_streams, rasterization_stream_select, transform_feedback_queries;
    uint32_t max_transform_feedback_buffers, max_transform_feedback_stride;
    PFN_vkCmdSetPatchControlPointsEXT vkCmdSetPatchControlPointsEXT;
    PFN_vkCmdBindTransformFeedbackBuffersEXT vkCmdBindTransformFeedbackBuffersEXT;
    PFN_vkCmdBeginTransformFeedbackEXT vkCmdBeginTransformFeedbackEXT;
    PFN_vkCmdEndTransformFeedbackEXT vkCmdEndTransformFeedbackEXT;
    PFN_vkCmdBeginQueryIndexedEXT vkCmdBeginQueryIndexedEXT;
    PFN_vkCmdEndQueryIndexedEXT vkCmdEndQueryIndexedEXT;
    PFN_vkCmdBeginConditionalRenderingEXT vkCmdBeginConditionalRenderingEXT;
    PFN_vkCmdEndConditionalRenderingEXT vkCmdEndConditionalRenderingEXT;
    PFN_vkCmdSetSampleLocationsEXT vkCmdSetSampleLocationsEXT;
};

/* VK_EXT_device_generated_commands, where the device has it (device/vk_device_create.c):
 * ExecuteIndirect's signatures that change state (commands/command_list_generated.c). */
struct d3d12xs_generated_commands_caps {
    bool enabled;
    uint32_t max_sequence_count, max_token_count, max_token_offset, max_stride;
    VkShaderStageFlags stages; /* supportedIndirectCommandsShaderStages */
    bool transform_feedback;   /* deviceGeneratedCommandsTransformFeedback */
    void *vkGetGeneratedCommandsMemoryRequirementsEXT; /* PFN_vk...EXT (device/vk_device_generated_commands.h) */
    void *vkCmdExecuteGeneratedCommandsEXT;
    void *vkCreateIndirectCommandsLayoutEXT;
    void *vkDestroyIndirectCommandsLayoutEXT;
};

struct d3d12_scheduler;
struct d3d12_waiter;
struct d3d12_gpu_waits;
struct d3d12_system_timestamps;
struct d3d12_predicate_fold;
struct d3d12_resolve_pass;
struct d3d12xs_internal_pass;
struct d3d12xs_gpu_clock;
struct d3d12_console_validation;
struct d3d12xs_va_map;
struct d3d12xs_descriptor_heap_registry;
struct d3d12_descriptor_heap;
struct d3d12xs_sampler_cache;
struct d3d12xs_pipeline_table;
struct d3d12xs_descriptor_buffers;
struct d3d12xs_allocator;
struct d3d12xs_allocation;

#define D3D12XS_NULL_BUFFER_SIZE 65536

struct d3d12_device {
    union {
        ID3D12Device ID3D12Device_iface;     /* what the parts pass around */
        ID3D12Device14 ID3D12Device14_iface; /* the vtable's type: every version's slots (api/device.c) */
    };
    struct d3d12xs_object object;
    /* This device's configuration: the process's plus what the program asked for at its
     * creation (d3d12xs_device_config_init). Code that runs for the device reads this one. */
    struct d3d12xs_config config;

    VkInstance vk_instance;
    VkDebugUtilsMessengerEXT vk_messenger;
    VkPhysicalDevice vk_physical_device;
    /* Its extensions, listed once when it is chosen (d3d12xs_device_has_extension): the loader
     * and layers made each listing cost about as much as the rest of device creation. */
    VkExtensionProperties *vk_extensions;
    uint32_t vk_extension_count;
    VkDevice vk_device;
    VkPhysicalDeviceProperties vk_properties;
    VkPhysicalDeviceMemoryProperties vk_memory_properties;
    VkPhysicalDeviceDriverProperties vk_driver_properties;
    uint32_t subgroup_size;
    /* VK_EXT_subgroup_size_control (core in 1.3): the sizes a pipeline may require, and
     * whether compute pipelines may (the feature is enabled where offered: vk_features.c). */
    uint32_t min_subgroup_size, max_subgroup_size, max_compute_workgroup_subgroups;
    /* Texel buffer offsets (Vulkan 1.3 texel buffer alignment): [0] uniform, [1] storage; the byte
     * alignment that serves every format, and whether one texel's alignment is enough. */
    VkDeviceSize texel_offset_alignment[2];
    bool texel_offset_single_texel[2];
    bool compute_subgroup_size_control;
    bool preserves_nan32, preserves_nan64; /* SignedZeroInfNanPreserve is honoured (D3D's NaN rules) */
    /* Depth and stencil resolves at a rendering pass's end (Vulkan 1.2): the modes, and whether one
     * plane may resolve while the other does not (commands/command_list_resolve.c) */
    VkResolveModeFlags depth_resolve_modes, stencil_resolve_modes;
    bool independent_resolve_none;
    bool validation_enabled; /* the Khronos validation layer is loaded (config.debug on and the layer installed) */
    uint32_t validation_layer_version; /* its VkLayerProperties::specVersion */
    atomic_bool outdated_layer_reported; /* device/instance.c: said once that the layer predates an extension */
    atomic_bool outdated_generated_commands_reported; /* ... and once that it predates VK_EXT_device_generated_commands */
    bool has_buffer_marker;
    bool has_calibrated_timestamps;
    bool has_shader_clock;  /* VK_KHR_shader_clock with shaderDeviceClock */
    bool has_custom_border_color; /* VK_EXT_custom_border_color, without a format */
    bool has_image_view_min_lod;  /* VK_EXT_image_view_min_lod: SRVs' ResourceMinLODClamp */
    bool has_sliced_view_of_3d;   /* VK_EXT_image_sliced_view_of_3d: UAVs of some of a 3D mip's W slices */
    bool sliced_view_of_3d_hidden_by_layer; /* offered, but left off: the validation layer predates it */
    /* VK_NV_ or VK_KHR_compute_shader_derivatives: shader model 6.6 compute derivatives over
     * 2x2 quads / 4 consecutive threads; khr: only the KHR extension is enabled, so modules
     * name SPV_KHR_compute_shader_derivatives (spirv/spirv_compute_derivatives.c) */
    bool compute_derivative_quads, compute_derivative_linear, compute_derivatives_khr;
    bool has_shader_int64;
    bool has_shader_float64;
    bool has_pipeline_statistics; /* pipelineStatisticsQuery: PIPELINE_STATISTICS heaps count (else read 0) */
    bool has_precise_occlusion;   /* occlusionQueryPrecise: OCCLUSION queries count samples, not just 0 or not */
    atomic_ullong validation_message_count;
    atomic_ullong pipeline_layout_count; /* live root signatures' layouts (D3D12XSGetPipelineLayoutCount) */
    atomic_ullong indirect_variants_created; /* ExecuteIndirect's pipeline variants (pipelines/pipeline_indirect_variant.c) */
    PFN_vkCmdWriteBufferMarker2AMD vkCmdWriteBufferMarker2AMD;
    PFN_vkCmdPushDescriptorSetKHR vkCmdPushDescriptorSetKHR;
    struct d3d12xs_vk_record_commands vk_record; /* recording's most frequent commands, past the loader */
    uint32_t push_descriptor_limit;
    /* bufferDeviceAddress is on: every buffer has a device address (descriptor buffers, the
     * memory-based ABI's root descriptors). */
    bool buffer_device_address;
    /* Stands in for null descriptors where the device has no nullDescriptor: reads of a null
     * view see this zeroed buffer (D3D12XS_NULL_BUFFER_SIZE bytes). */
    VkBuffer null_buffer;
    struct d3d12xs_allocation *null_memory; /* from the allocator (memory/allocator.h) */
    PFN_vkGetCalibratedTimestampsEXT vkGetCalibratedTimestampsEXT;
    PFN_vkGetMemoryHostPointerPropertiesEXT vkGetMemoryHostPointerPropertiesEXT; /* NULL without VK_EXT_external_memory_host */
    PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsEXT vkGetPhysicalDeviceCalibrateableTimeDomainsEXT;

    /* indexed by D3D12_COMMAND_LIST_TYPE; BUNDLE (1) is unused */
    struct d3d12_queue_family_map queue_map[4];

    struct d3d12_scheduler *scheduler; /* every queue operation and wait (sync/scheduler.c) */
    struct d3d12_waiter *waiter;       /* the thread that applies the hang timeout (sync/waiter.c) */
    struct d3d12_gpu_waits *gpu_waits; /* the spin pipeline of GPU-side memory waits (sync/gpu_wait.c) */
    enum d3d12_gpu_wait_mode gpu_wait_mode;
    struct d3d12_system_timestamps *system_timestamps; /* SYSTEM_TIMESTAMP conversion (commands/system_timestamp.c) */
    struct d3d12_predicate_fold *predicate_fold;       /* SetPredication's fold (commands/command_list_predication.c) */
    struct d3d12_resolve_pass *resolve_pass; /* the resolves Vulkan's cannot do (commands/resolve_pass.c) */
    struct d3d12xs_internal_pass *indirect_cap; /* ExecuteIndirect's capping pass (commands/command_list_indirect.c) */
    struct d3d12xs_internal_pass *indirect_translate; /* its address translation (commands/command_list_generated.c) */
    /* its own path's per-command images: every root-argument signature where the device has no
     * generated commands, draws read by the vertex shader alone where it has them
     * (commands/command_list_indirect_image.c) */
    struct d3d12xs_internal_pass *indirect_image;
    /* the images' vertex and index buffer views translated into device addresses (shaderInt64),
     * and the kinds of vertex pulling (bit per enum d3d12_vertex_pulling) that command signatures
     * without a root signature need: every graphics pipeline makes those variants ahead of need */
    struct d3d12xs_internal_pass *indirect_vertex_views;
    atomic_uint indirect_pulling_kinds;
    struct d3d12xs_internal_pass *query_sum; /* the sum of a query split by view-instanced passes (commands/command_list_query_views.c) */
    struct d3d12xs_gpu_clock *gpu_clock; /* the GPU clock's calibration (device/gpu_clock.c) */
    struct d3d12_console_validation *console_validation; /* SPEC §4's memory model, or NULL (commands/console_validation.c) */

    atomic_int removed_reason; /* S_OK while alive */
    atomic_bool removal_claimed; /* the first d3d12_device_mark_removed logs before it sets removed_reason */
    atomic_uint hang_timeout_ms; /* from config.hang_timeout_ms; D3D12XSSetHangTimeout changes it */

    /* The parts' own state, made and freed by their init and cleanup functions (api/device.c). */
    struct d3d12xs_allocator *allocator;                /* every VkDeviceMemory bound to buffers (memory/allocator.c) */
    struct d3d12xs_va_map *va_map;                      /* GPU virtual addresses (memory/va_map.c) */
    struct d3d12xs_descriptor_heap_registry *descriptor_heaps; /* live heaps, for CPU handles (descriptors/heap_registry.c) */
    /* Where every heap's records lie, and which heap covers each 64 KiB of them: what a CPU
     * handle's look-up reads, without a lock (descriptors/heap_registry.h). */
    struct d3d12xs_descriptor_window {
        uintptr_t base;
        uint64_t unit_mask; /* the number of units less one: a power of two less one */
        _Atomic(struct d3d12_descriptor_heap *) *heaps; /* per unit, NULL where no live heap's records are */
    } descriptor_window;
    struct d3d12xs_sampler_cache *samplers;             /* one VkSampler per description (descriptors/descriptor.c) */
    struct d3d12xs_pipeline_table *pipeline_table;      /* live compute pipelines by description (pipelines/pipeline_state.c) */
    struct d3d12xs_descriptor_buffers *descriptor_buffers; /* heaps as descriptor buffers (descriptors/descriptor_buffer.c) */
    uint32_t shader_visible_heap_capacity; /* the largest shader-visible CBV_SRV_UAV heap (descriptor_buffer.c) */
    struct d3d12xs_graphics_caps graphics;
    struct d3d12xs_generated_commands_caps generated_commands;
};

_Static_assert(offsetof(struct d3d12_device, ID3D12Device_iface) == 0, "common/object.h reaches the device interface at offset 0");

struct d3d12_device *impl_from_ID3D12Device(ID3D12Device *iface);
void d3d12_device_mark_removed(struct d3d12_device *device, HRESULT reason, const char *why);
HRESULT d3d12_device_removed_reason(struct d3d12_device *device);
/* What D3D12 leaves undefined and only its debug layer reports: one warning line "method: why",
 * and only while the debug layer is on (EnableDebugLayer or D3D12XS_DEBUG=1). Never a failure. */
void d3d12_device_debug_warn(struct d3d12_device *device, const char *method, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* DXGI_ERROR_DEVICE_REMOVED with one line naming method (and *out NULL) once the device is removed, else S_OK. */
HRESULT d3d12_device_check_creation(struct d3d12_device *device, const char *method, void **out);
/* Maps a VkResult from a call that creates or submits something onto an HRESULT. */
HRESULT d3d12xs_hresult_from_vk(struct d3d12_device *device, VkResult vr);

HRESULT d3d12_device_check_feature_support(struct d3d12_device *device, D3D12_FEATURE feature, void *data, UINT size);
HRESULT d3d12xs_instance_create(struct d3d12_device *device);
HRESULT d3d12xs_instance_select_physical_device(struct d3d12_device *device);
void d3d12xs_instance_destroy(struct d3d12_device *device);
/* Whether the chosen physical device offers an extension (its list, read once). */
bool d3d12xs_device_has_extension(const struct d3d12_device *device, const char *name);
/* format.c: the Vulkan format of a DXGI format d3d12xs can view buffers with (its element size
 * in *element_size, may be NULL); VK_FORMAT_UNDEFINED for the others. */
VkFormat d3d12xs_vk_format_from_dxgi(DXGI_FORMAT format, uint32_t *element_size);

int d3d12xs_find_memory_type(struct d3d12_device *device, uint32_t type_bits, const D3D12_HEAP_PROPERTIES *properties);


/* Vulkan features, supported or to enable (vk_features.c). */
struct d3d12xs_vk_features {
    VkPhysicalDeviceFeatures2 core;
    VkPhysicalDeviceVulkan11Features vulkan11;
    VkPhysicalDeviceVulkan12Features vulkan12;
    VkPhysicalDeviceVulkan13Features vulkan13;
};
void d3d12xs_select_vk_features(const struct d3d12xs_vk_features *supported, struct d3d12xs_vk_features *enabled);

/* debug.c: the configuration of a device made now: the process's (common/config.h) with
 * what the program asked for (EnableDebugLayer turns D3D12XS_DEBUG's "unset" into on). */
void d3d12xs_device_config_init(struct d3d12xs_config *config);
/* The ID3D12Debug object for D3D12GetDebugInterface and D3D12GetInterface(CLSID_D3D12Debug):
 * method names the entry point in the log lines. */
HRESULT d3d12xs_get_debug_interface(const char *method, REFIID riid, void **debug);

#endif
