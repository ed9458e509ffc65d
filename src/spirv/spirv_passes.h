/* The passes over a d3d12xs_spirv_module (spirv_module.h), one signature for all:
 *     HRESULT d3d12xs_spirv_pass_NAME(struct d3d12xs_spirv_module *m,
 *             const struct d3d12xs_spirv_NAME_args *args, char *error, size_t error_size);
 * On failure error gets the reason (E_INVALIDARG: a module the pass cannot handle) and the module
 * may be half rewritten: the caller drops it. Reflection only reads the module.
 *
 * Who runs what: D3DCompile (frontends/shader_compile.c), pipeline creation (pipelines/pipeline_state.c: reflect,
 * remap, memory ABI, root pointers, float controls, compute derivatives, heap tables) and the DispatchX variants
 * (pipelines/pipeline_variant.c). */
#ifndef D3D12XS_SPIRV_PASSES_H
#define D3D12XS_SPIRV_PASSES_H

#include "spirv/spirv.h"
#include "spirv/spirv_module.h"

/* spirv_reflect.c: see d3d12xs_spirv_reflect() in spirv.h. On failure info is zeroed. */
HRESULT d3d12xs_spirv_reflect_module(const struct d3d12xs_spirv_module *m, struct d3d12xs_shader_info *info,
        char *error, size_t error_size);

/* spirv_remap.c: see d3d12xs_spirv_remap() in spirv.h (info from reflecting this module). */
struct d3d12xs_spirv_remap_args {
    const struct d3d12xs_shader_info *info;
    const struct d3d12xs_binding_target *targets;
};
HRESULT d3d12xs_spirv_pass_remap(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_remap_args *args,
        char *error, size_t error_size);

/* spirv_memory_abi.c: turns the module's push-constant block (from the remap) into a uniform
 * buffer at set/binding, members and offsets unchanged (root signatures with
 * FORCE_MEMORY_BASED_ABI); a module without push constants is left as it is. */
struct d3d12xs_spirv_memory_abi_args {
    uint32_t set, binding;
};
HRESULT d3d12xs_spirv_pass_memory_abi(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_memory_abi_args *args,
        char *error, size_t error_size);

/* spirv_root_pointers.c: root descriptors of the memory-based ABI. variables[k] (k < count, at
 * most 62) is the Uniform or StorageBuffer variable of root descriptor k; each goes, and its
 * accesses go through a PhysicalStorageBuffer pointer made from entry k of the table at byte
 * table_offset (a multiple of 16) of the uniform buffer at set/binding: {D3D12 VA low, high,
 * device address of the GPU virtual address table low, high}, the VA translated through that
 * table (memory/va_map.h; zero_offset and scratch_offset are its D3D12XS_VA_TABLE_* offsets).
 * E_INVALIDARG with a reason for a use of such a variable the rewrite does not handle.
 * With push_offsets (ExecuteIndirect's variant, docs/indirect.md), entry k is instead the four
 * uints at byte push_offsets[k] of the push-constant block (extended, or made, to hold them);
 * set, binding and table_offset are then unused. */
struct d3d12xs_spirv_root_pointers_args {
    const uint32_t *variables;
    uint32_t count;
    uint32_t set, binding, table_offset;
    uint64_t zero_offset, scratch_offset;
    const uint32_t *push_offsets;
};
HRESULT d3d12xs_spirv_pass_root_pointers(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_root_pointers_args *args,
        char *error, size_t error_size);

/* spirv_push_from_memory.c: ExecuteIndirect's own path (docs/indirect.md). The push-constant
 * block's members whose byte offset lies in one of ranges are read through a
 * PhysicalStorageBuffer pointer to the block's struct instead, its address the two uint push
 * members at address_offset (added). *changed: whether any function read such a member.
 * E_INVALIDARG with a reason for a use the rewrite does not handle; E_NOTIMPL for
 * draw_index_stride in a module that is not a vertex shader. */
struct d3d12xs_spirv_byte_range {
    uint32_t begin, end;
};
struct d3d12xs_spirv_push_from_memory_args {
    const struct d3d12xs_spirv_byte_range *ranges;
    uint32_t range_count;
    uint32_t address_offset;
    /* Not 0 (vertex shaders only): the memory of draw DrawIndex is at the address plus DrawIndex
     * times this many bytes (one multi-draw of all the commands). */
    uint32_t draw_index_stride;
    /* NULL, or per range the bytes (two's complement) added to the address for the members of that
     * range: memory that holds them elsewhere than the block's layout (a command's own
     * arguments, each at its offset in the command). */
    const int64_t *range_displacements;
    /* UINT32_MAX, or the Location of a flat uvec2 the vertex shader hands the pixel shader: a
     * vertex shader (output) writes the address it computed (before the displacements), a pixel
     * shader (input) reads its address there instead of the push constants, so that it may read
     * the commands' values in one multi-draw too. */
    uint32_t address_output_location, address_input_location;
};
HRESULT d3d12xs_spirv_pass_push_from_memory(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_push_from_memory_args *args,
        bool *changed, char *error, size_t error_size);

/* spirv_vertex_pulling.c: ExecuteIndirect's own path for signatures that set vertex or index
 * buffer views (docs/indirect.md, "Without generated commands"). Every Input variable of a
 * vertex shader at an element's Location becomes a Private variable that the entry point fills
 * at its start from memory: the command's image (its address the two uint push members at
 * address_offset, with draw_index_stride advanced by DrawIndex times it) holds per input slot
 * {device address low, high, size, stride} at slot_entries + 16 * slot. With index_entry not
 * UINT32_MAX the draw is not indexed: the vertex is the index read at the image's index buffer
 * {address low, high, size, DXGI format} + VertexIndex * its size, plus the BaseVertexLocation at
 * base_vertex; the shader's VertexIndex and BaseVertex read what an indexed draw gives. Reads past
 * a view's size give 0. E_NOTIMPL with a reason for an input type the pass cannot fill. */
enum d3d12xs_spirv_vertex_format {
    D3D12XS_VERTEX_FLOAT32, D3D12XS_VERTEX_UINT32, D3D12XS_VERTEX_SINT32,
    D3D12XS_VERTEX_FLOAT16, D3D12XS_VERTEX_UNORM16, D3D12XS_VERTEX_SNORM16, D3D12XS_VERTEX_UINT16, D3D12XS_VERTEX_SINT16,
    D3D12XS_VERTEX_UNORM8, D3D12XS_VERTEX_SNORM8, D3D12XS_VERTEX_UINT8, D3D12XS_VERTEX_SINT8,
    D3D12XS_VERTEX_B8G8R8A8_UNORM, D3D12XS_VERTEX_UNORM10_10_10_2, D3D12XS_VERTEX_UINT10_10_10_2,
};
struct d3d12xs_spirv_vertex_element {
    uint32_t location, slot;
    uint32_t offset;     /* bytes into the slot's vertex */
    enum d3d12xs_spirv_vertex_format format;
    uint32_t components; /* 1 to 4 (4 for the packed formats) */
    bool per_instance;
    uint32_t step_rate;  /* per instance: D3D12's InstanceDataStepRate (0: every instance reads the first) */
};
struct d3d12xs_spirv_vertex_pulling_args {
    const struct d3d12xs_spirv_vertex_element *elements;
    uint32_t element_count;
    uint32_t address_offset, draw_index_stride;
    uint32_t slot_entries, index_entry, base_vertex;
};
HRESULT d3d12xs_spirv_pass_vertex_pulling(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_vertex_pulling_args *args,
        char *error, size_t error_size);

/* spirv_heap_tables.c: the variables of descriptor tables become indexes into the heap's
 * runtime arrays at (set, binding 0), from the table start in the push constants at push_offset
 * (D3D12XS_HEAP_BINDING_NO_PUSH: from the heap's first descriptor) plus table_offset (the
 * register's index in the table). A SIZE binding is a cbuffer of one uint (d3d12xs_heap.hlsli's
 * heap size) whose reads become reads of the push constant at push_offset. */
#define D3D12XS_HEAP_BINDING_NO_PUSH UINT32_MAX
/* A COUNTER binding is a UAV's counter: read through the address in the heap's side table at
 * (set, binding 0), entry table start + table_offset (descriptors/descriptor_buffer.h). */
enum d3d12xs_heap_binding_kind { D3D12XS_HEAP_BINDING_TABLE, D3D12XS_HEAP_BINDING_SIZE, D3D12XS_HEAP_BINDING_COUNTER };
struct d3d12xs_spirv_heap_table_binding {
    uint32_t variable_id;
    enum d3d12xs_heap_binding_kind kind;
    uint32_t set;
    uint32_t push_offset;
    uint32_t table_offset;
};
struct d3d12xs_spirv_heap_tables_args {
    const struct d3d12xs_spirv_heap_table_binding *bindings;
    uint32_t count;
    /* d3d12xs_heap.hlsli queries view sizes one index at a time (its spec constant
     * D3D12XS_HEAP_SIZE_BY_INDEX_SPEC_ID becomes 1) */
    bool heap_size_by_index;
};
HRESULT d3d12xs_spirv_pass_heap_tables(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_heap_tables_args *args,
        char *error, size_t error_size);

/* spirv_scalarize.c: every access through a uvec4 alias of a raw buffer (spirv_vectorize.c)
 * becomes four 32-bit accesses of the buffer's own variable, and the alias goes (for a view
 * that may start at a 4-byte offset). A pair whose alias is 0 or not in the module is skipped.
 * E_INVALIDARG with a reason for a use of the alias other than a load or store of one vector. */
struct d3d12xs_spirv_scalarize_args {
    const uint32_t *variables;  /* the raw buffer's variable ids ... */
    const uint32_t *aliases;    /* ... and their uvec4 alias variable ids, pairwise */
    uint32_t count;
};
HRESULT d3d12xs_spirv_pass_scalarize(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_scalarize_args *args,
        char *error, size_t error_size);

/* spirv_view_offsets.c: raw and structured views whose Vulkan descriptor starts before the view
 * (at an aligned address): every index into such a buffer's runtime array adds the view's
 * misalignment in its elements, every OpArrayLength subtracts it. With heap, the runtime arrays
 * of storage-buffer blocks at (heap_set, binding 0) read it from the heap's view-offset table at
 * (offsets_set, binding 0) (run after the heap tables pass); roots[k] are root SRV/UAV
 * variables (a raw buffer's uvec4 alias too) that read it from the push constant at
 * push_offset. root_strides (may be NULL) gets each root variable's ArrayStride (0: no runtime
 * array to adjust); unfollowed[k] (root_count + 1 of them, the last for the heap) is set where
 * the variable's pointer is passed to a function, whose accesses are not adjusted. */
struct d3d12xs_spirv_view_offset_root {
    uint32_t variable_id;
    uint32_t push_offset;
};
struct d3d12xs_spirv_view_offsets_args {
    bool heap;
    uint32_t heap_set, offsets_set;
    const struct d3d12xs_spirv_view_offset_root *roots;
    uint32_t root_count;
    uint32_t *root_strides;
    bool *unfollowed;
};
HRESULT d3d12xs_spirv_pass_view_offsets(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_view_offsets_args *args,
        char *error, size_t error_size);

/* spirv_compute_derivatives.c: refuses a compute derivative group the device cannot run. */
struct d3d12xs_spirv_compute_derivatives_args {
    bool quads, linear;
};
HRESULT d3d12xs_spirv_pass_compute_derivatives(struct d3d12xs_spirv_module *m,
        const struct d3d12xs_spirv_compute_derivatives_args *args, char *error, size_t error_size);

/* spirv_float_controls.c: adds SignedZeroInfNanPreserve for the 32- and 64-bit floats the module
 * uses, where the device can preserve them. */
struct d3d12xs_spirv_float_controls_args {
    bool preserve32, preserve64;
};
HRESULT d3d12xs_spirv_pass_float_controls(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_float_controls_args *args,
        char *error, size_t error_size);

/* ---- D3DCompile (frontends/shader_compile.c) ---- */

/* spirv_fixup.c: see d3d12xs_spirv_fixup_hlsl() in spirv.h. counts may be NULL. */
struct d3d12xs_spirv_fixup_args {
    unsigned flags;                       /* D3D12XS_FIXUP_* */
    struct d3d12xs_fixup_counts *counts;
};
HRESULT d3d12xs_spirv_pass_fixup(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_fixup_args *args,
        char *error, size_t error_size);

/* spirv_cbuffer_layout.c, fix 8: gives the cbuffers D3D's register packing. explicit_placement:
 * the source has packoffset or register(cN), which glslang honours; nothing is moved then, and
 * a block whose offsets differ from D3D's is refused. *changed gets the number of decorations
 * changed. E_FAIL with *problem filled when a layout cannot be honoured (error is not used:
 * the caller names the member from problem), E_OUTOFMEMORY. */
struct d3d12xs_spirv_cbuffer_layout_args {
    bool explicit_placement;
    unsigned *changed;
    struct d3d12xs_cbuffer_problem *problem;
};
HRESULT d3d12xs_spirv_pass_cbuffer_layout(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_cbuffer_layout_args *args,
        char *error, size_t error_size);

/* spirv_vectorize.c: see d3d12xs_spirv_vectorize_raw() in spirv.h. */
struct d3d12xs_spirv_vectorize_args {
    unsigned *loads, *stores;             /* how many 16-byte accesses were made */
};
HRESULT d3d12xs_spirv_pass_vectorize(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_vectorize_args *args,
        char *error, size_t error_size);

/* An array of (RW)StructuredBuffer<T> / (RW)ByteAddressBuffer (frontends/hlsl_rewrite_arrays.c)
 * is one buffer of struct { T e[N]; uint n[D3D12XS_BUFFER_ARRAY_MARKER]; } (n[MARKER + 1]:
 * unbounded, declared as e[65536]); spirv_buffer_arrays.c recognises it by that length. */
#define D3D12XS_BUFFER_ARRAY_MARKER 0xD3D12u
/* spirv_buffer_arrays.c: the marker buffers of frontends/hlsl_rewrite_arrays.c become the arrays of
 * storage-buffer blocks they stand for. E_INVALIDARG for an access the pass cannot turn into
 * an array access. */
struct d3d12xs_spirv_buffer_arrays_args {
    int unused;
};
HRESULT d3d12xs_spirv_pass_buffer_arrays(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_buffer_arrays_args *args,
        char *error, size_t error_size);

/* NonUniformResourceIndex(i), which glslang's HLSL lacks, becomes i + a specialization constant
 * of this SpecId (0; it survives the optimiser, a function would be inlined: frontends/hlsl_rewrite.c);
 * spirv_finish_hlsl.c turns each such add into a NonUniform-decorated copy of i. */
#define D3D12XS_NONUNIFORM_SPEC_ID 2000
/* spirv_finish_hlsl.c: UAV counters get their binding encoding (spirv.h), what glslang's HLSL
 * extensions added goes, and with wave32 the module gets D3D12XS_SPIRV_WAVE32_MARKER, with
 * no_volatile (the source declares nothing globallycoherent) D3D12XS_SPIRV_NO_VOLATILE_MARKER.
 * E_FAIL for a counter whose UAV has no u register. */
struct d3d12xs_spirv_finish_hlsl_args {
    bool wave32;
    bool no_volatile;
};
HRESULT d3d12xs_spirv_pass_finish_hlsl(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_finish_hlsl_args *args,
        char *error, size_t error_size);
/* The user semantic frontends/hlsl_rewrite.c gives SV_Coverage, which glslang drops as an input;
 * spirv_hlsl_system_values.c makes its variable the SampleMask built-in. */
#define D3D12XS_COVERAGE_SEMANTIC "D3D12XS_COVERAGE"
/* spirv_hlsl_system_values.c (D3DCompile, after finish): SV_VertexID and SV_InstanceID without
 * the draw's bases, SV_Position.w in pixel shaders as w, not Vulkan's 1/w, SV_ViewID as the
 * ViewIndex built-in, SV_Coverage (D3D12XS_COVERAGE_SEMANTIC) in and out as SampleMask.
 * *fixed (fixed may be NULL) gets how many loads (SV_ViewID, SV_Coverage: variables) changed. E_FAIL for an SV_Coverage outside a
 * pixel shader, not a 32-bit integer scalar, or declared twice in one direction. */
struct d3d12xs_spirv_system_values_args {
    unsigned *fixed;
};
HRESULT d3d12xs_spirv_pass_system_values(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_system_values_args *args,
        char *error, size_t error_size);
/* The UAV counters' binding, for D3DCompile's modules and DXBC's alike: each counter buffer
 * linked to its UAV by a CounterBuffer decoration (OpDecorateId UAV CounterBuffer counter) gets
 * the UAV's set and the binding (D3D12XS_REGISTER_UAV_COUNTER << 14) | register. The links stay.
 * E_FAIL for a counter whose UAV has no u register. */
HRESULT d3d12xs_spirv_bind_counters(struct d3d12xs_spirv_module *m, char *error, size_t error_size);

/* spirv_raw_views.c (libvkd3d-shader's output for DXBC): the raw and structured views named by
 * views[k] (set = space, binding = the encoded register: spirv.h), which libvkd3d-shader declares
 * as texel buffers of 32-bit words, become storage buffers of words, as D3DCompile's are and
 * as descriptor heaps hold them: fetches, reads and writes become loads and stores, texel
 * pointers (atomics) access chains, size queries OpArrayLength. E_INVALIDARG with a reason for
 * a use the rewrite does not handle (an array of views among them: libvkd3d-shader 1.2 makes none). */
struct d3d12xs_spirv_raw_view {
    uint32_t set, binding;
    bool writable;          /* a UAV; an SRV gets NonWritable */
};
struct d3d12xs_spirv_raw_views_args {
    const struct d3d12xs_spirv_raw_view *views;
    uint32_t count;
};
HRESULT d3d12xs_spirv_pass_raw_views(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_raw_views_args *args,
        char *error, size_t error_size);

/* spirv_dxbc_ranges.c (libvkd3d-shader's output for DXBC rewritten by frontends/dxbc_ranges.c, after
 * spirv_raw_views.c): each range becomes one array variable at (set, binding), count
 * descriptors (0: unbounded), and each access site an access chain into it. E_FAIL with a
 * reason for a module that is not what the rewrite expects. */
/* Where libvkd3d-shader puts the variables of the rewritten stream's sites and markers
 * (frontends/dxbc_ranges.h says what they are). */
#define D3D12XS_DXBC_SITE_SET 0x7ff0u            /* descriptor set of the sites' SPIR-V variables */
#define D3D12XS_DXBC_MARKER_SET 0x7ff1u          /* and of the markers' */
struct d3d12xs_spirv_dxbc_range {
    uint32_t set, binding, count;
};
struct d3d12xs_spirv_dxbc_site {
    uint32_t range;             /* index into ranges */
    bool dynamic;               /* the index is the site's marker's, else constant_index */
    bool nonuniform;
    uint32_t constant_index;
};
struct d3d12xs_spirv_dxbc_ranges_args {
    const struct d3d12xs_spirv_dxbc_range *ranges;
    uint32_t range_count;
    const struct d3d12xs_spirv_dxbc_site *sites;
    uint32_t site_count;
};
HRESULT d3d12xs_spirv_pass_dxbc_ranges(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_dxbc_ranges_args *args,
        char *error, size_t error_size);

/* spirv_dxbc_counters.c (libvkd3d-shader's output for DXBC, after spirv_raw_views.c): each UAV
 * counter, which libvkd3d-shader declares as a storage texel buffer of one word at
 * (D3D12XS_DXBC_COUNTER_SET, k), becomes the block glslang makes of an HLSL counter (a uint in a
 * storage buffer), linked to its UAV at (uav_set, uav_binding) and bound by
 * d3d12xs_spirv_bind_counters as D3DCompile's counters are. E_FAIL with a reason for a module
 * that is not what libvkd3d-shader writes. */
#define D3D12XS_DXBC_COUNTER_SET 0x7ff2u
struct d3d12xs_spirv_dxbc_counter {
    uint32_t uav_set, uav_binding;
};
struct d3d12xs_spirv_dxbc_counters_args {
    const struct d3d12xs_spirv_dxbc_counter *counters;
    uint32_t count;
};
HRESULT d3d12xs_spirv_pass_dxbc_counters(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_dxbc_counters_args *args,
        char *error, size_t error_size);

/* spirv_dxbc_constants.c (pipeline creation, DXBC modules): each cbuffer variables[k], which
 * libvkd3d-shader declared as rows of four values and the root signature binds to counts[k]
 * root constants, becomes a struct of counts[k] scalars; reads past them give 0. E_INVALIDARG
 * for a row index that is not a constant. */
struct d3d12xs_spirv_dxbc_constants_args {
    const uint32_t *variables;
    const uint32_t *counts;
    uint32_t count;
};
HRESULT d3d12xs_spirv_pass_dxbc_constants(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_dxbc_constants_args *args,
        char *error, size_t error_size);

/* ---- graphics ---- */

/* spirv_stream_output.c (pipeline creation, the last stage before the rasterizer): stream
 * output through Vulkan's transform feedback. Each captures[k] copies components
 * [first_component, first_component + component_count) of the output variable variable_id into a
 * new output variable of its own (at Location first_location + k, which no later stage reads),
 * decorated XfbBuffer buffer, XfbStride stride, Offset offset (and Stream stream when not 0):
 * D3D12 captures parts of an output, Vulkan only whole variables. The copies happen before each
 * OpReturn of the entry point and, in geometry shaders, before each vertex emitted. The module
 * gets the TransformFeedback capability (GeometryStreams with a stream above 0) and the Xfb
 * execution mode. E_INVALIDARG for a variable that is not a 32-bit scalar or vector output. */
struct d3d12xs_spirv_xfb_capture {
    uint32_t variable_id, first_component, component_count;
    uint32_t buffer, stride, offset, stream;
};
struct d3d12xs_spirv_stream_output_args {
    const struct d3d12xs_spirv_xfb_capture *captures;
    uint32_t count;
    uint32_t first_location;
};
HRESULT d3d12xs_spirv_pass_stream_output(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_stream_output_args *args,
        char *error, size_t error_size);

/* spirv_point_size.c (pipeline creation, a point-list pipeline's vertex shader when no
 * tessellation or geometry shader follows it): a PointSize output of `size` (D3D12's points are
 * one pixel), which Vulkan requires there; nothing when the module writes PointSize itself. */
struct d3d12xs_spirv_point_size_args {
    float size;
};
HRESULT d3d12xs_spirv_pass_point_size(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_point_size_args *args,
        char *error, size_t error_size);

/* spirv_view_locations.c (pipeline creation, every stage of a view-instanced pipeline whose views
 * go elsewhere than multiview puts them): each read of the ViewIndex built-in reads the pushed
 * view index (a uint at push_offset; the pass's count of array slices at +4, of viewports at +8)
 * and, with write_locations (the last stage before the rasterizer), Layer (and ViewportIndex
 * with write_viewport or where the shader writes it) become layers[view] (viewports[view]) plus
 * the shader's own value, 0 where not below the pushed count: D3D12_VIEW_INSTANCE_LOCATION's
 * rule. E_NOTIMPL where the stage needs the push constants but !push_visible (the root
 * signature denies it root access), or the built-ins are block members. */
struct d3d12xs_spirv_view_locations_args {
    uint32_t push_offset;
    uint32_t view_count;
    uint32_t layers[4], viewports[4];
    bool write_locations, write_viewport, push_visible;
};
HRESULT d3d12xs_spirv_pass_view_locations(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_view_locations_args *args,
        char *error, size_t error_size);

/* spirv_snorm_inputs.c (pipeline creation, the vertex shader, on drivers that read the most
 * negative SNORM value below -1: lavapipe reads -32768 as -1.00003): every 32-bit float load
 * from an input at a Location in `locations` (bit per Location) is clamped to -1 and above, as
 * D3D12 and Vulkan define the conversion. Loads of other types (arrays, matrices) stay. */
struct d3d12xs_spirv_snorm_inputs_args {
    uint32_t locations;
};
HRESULT d3d12xs_spirv_pass_snorm_inputs(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_snorm_inputs_args *args,
        char *error, size_t error_size);

/* ---- DispatchX ---- */

/* spirv_dispatch_variant.c: see d3d12xs_spirv_dispatch_variant() in spirv.h. */
struct d3d12xs_spirv_dispatch_variant_args {
    unsigned variant;       /* D3D12XS_VARIANT_* bits */
    uint32_t limit_offset;  /* THREAD_LIMIT: byte offset of the uint3 limit in the push constants */
};
HRESULT d3d12xs_spirv_pass_dispatch_variant(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_dispatch_variant_args *args,
        char *error, size_t error_size);
/* The storage buffers and images COHERENT would decorate (those not Coherent yet): with none,
 * the coherent variant is the module itself. */
unsigned d3d12xs_spirv_incoherent_storage_count(struct d3d12xs_spirv_module *m);

/* spirv_hull_barrier.c: a workgroup control barrier after the phase_calls-th function call of the
 * entry point's first block (a hull shader translated by libvkd3d-shader: after its control
 * point phase, before the patch-constant phases that read the output control points). A module
 * whose first block makes fewer calls is left as it is. */
struct d3d12xs_spirv_hull_barrier_args {
    uint32_t phase_calls;
};
HRESULT d3d12xs_spirv_pass_hull_barrier(struct d3d12xs_spirv_module *m, const struct d3d12xs_spirv_hull_barrier_args *args,
        char *error, size_t error_size);

#endif
