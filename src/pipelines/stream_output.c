/* A graphics pipeline's StreamOutput (D3D12_STREAM_OUTPUT_DESC): D3D12's rules for the
 * declaration, then its entries matched by semantic against the outputs of the last stage before
 * the rasterizer, as the captures the SPIR-V pass writes (spirv/spirv_stream_output.c). Entries
 * fill their OutputSlot's buffer in declaration order, each ComponentCount 32-bit values after
 * the one before; a gap (SemanticName NULL, or "$SKIP" as D3D11 wrote it) only moves on. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "pipelines/graphics_state.h"
#include "pipelines/graphics_link.h"
#include "spirv/spirv_passes.h"

#include <spirv/unified1/spirv.h>

static bool is_gap(const D3D12_SO_DECLARATION_ENTRY *entry)
{
    return !entry->SemanticName || !strcmp(entry->SemanticName, "$SKIP");
}

HRESULT d3d12_stream_output_check(struct d3d12_device *device, const struct d3d12_graphics_desc *desc, bool has_gs, const char *method)
{
    const D3D12_STREAM_OUTPUT_DESC *so = &desc->stream_output;
    const struct d3d12xs_graphics_caps *caps = &device->graphics;
    uint32_t slot_bytes[D3D12_SO_BUFFER_SLOT_COUNT] = {0}, slot_streams[D3D12_SO_BUFFER_SLOT_COUNT];
    const char *p = desc->prefix;

    if (!so->NumEntries)
        return S_OK; /* no stream output; strides without entries say nothing */
    if (!so->pSODeclaration)
        return d3d12xs_fail(E_INVALIDARG, method, "%sStreamOutput.pSODeclaration is NULL with NumEntries %u", p, so->NumEntries);
    if (so->NumEntries > D3D12_SO_STREAM_COUNT * D3D12_SO_OUTPUT_COMPONENT_COUNT)
        return d3d12xs_fail(E_INVALIDARG, method, "%sStreamOutput.NumEntries is %u (at most %u)", p, so->NumEntries,
                D3D12_SO_STREAM_COUNT * D3D12_SO_OUTPUT_COMPONENT_COUNT);
    if (!so->NumStrides || so->NumStrides > D3D12_SO_BUFFER_SLOT_COUNT)
        return d3d12xs_fail(E_INVALIDARG, method, "%sStreamOutput.NumStrides is %u (1 to %u with entries)", p, so->NumStrides,
                D3D12_SO_BUFFER_SLOT_COUNT);
    if (!so->pBufferStrides)
        return d3d12xs_fail(E_INVALIDARG, method, "%sStreamOutput.pBufferStrides is NULL with NumStrides %u", p, so->NumStrides);
    for (UINT i = 0; i < so->NumStrides; i++)
        if (so->pBufferStrides[i] % 4 || so->pBufferStrides[i] > D3D12_SO_BUFFER_MAX_STRIDE_IN_BYTES)
            return d3d12xs_fail(E_INVALIDARG, method, "%sStreamOutput.pBufferStrides[%u] is %u (a multiple of 4, at most %u)", p, i,
                    so->pBufferStrides[i], D3D12_SO_BUFFER_MAX_STRIDE_IN_BYTES);
    if (so->RasterizedStream != D3D12_SO_NO_RASTERIZED_STREAM && so->RasterizedStream >= D3D12_SO_STREAM_COUNT)
        return d3d12xs_fail(E_INVALIDARG, method, "%sStreamOutput.RasterizedStream is %u (0 to %u, or D3D12_SO_NO_RASTERIZED_STREAM)", p,
                so->RasterizedStream, D3D12_SO_STREAM_COUNT - 1);
    if (so->RasterizedStream && so->RasterizedStream != D3D12_SO_NO_RASTERIZED_STREAM && !has_gs)
        return d3d12xs_fail(E_INVALIDARG, method, "%sStreamOutput.RasterizedStream is %u without a geometry shader (only stream 0 exists)",
                p, so->RasterizedStream);
    for (unsigned s = 0; s < D3D12_SO_BUFFER_SLOT_COUNT; s++)
        slot_streams[s] = UINT32_MAX;
    for (UINT i = 0; i < so->NumEntries; i++) {
        const D3D12_SO_DECLARATION_ENTRY *entry = &so->pSODeclaration[i];
        if (entry->Stream >= D3D12_SO_STREAM_COUNT || (entry->Stream && !has_gs))
            return d3d12xs_fail(E_INVALIDARG, method, "%sStreamOutput.pSODeclaration[%u].Stream is %u (%s)", p, i, entry->Stream,
                    has_gs ? "0 to 3" : "0 without a geometry shader");
        if (entry->OutputSlot >= D3D12_SO_BUFFER_SLOT_COUNT)
            return d3d12xs_fail(E_INVALIDARG, method, "%sStreamOutput.pSODeclaration[%u].OutputSlot is %u (0 to %u)", p, i,
                    entry->OutputSlot, D3D12_SO_BUFFER_SLOT_COUNT - 1);
        if (entry->OutputSlot >= so->NumStrides)
            return d3d12xs_fail(E_INVALIDARG, method, "%sStreamOutput.pSODeclaration[%u].OutputSlot %u has no stride (NumStrides is %u)", p,
                    i, entry->OutputSlot, so->NumStrides);
        if (is_gap(entry) ? !entry->ComponentCount
                : !entry->ComponentCount || entry->StartComponent > 3 || entry->ComponentCount > 4 - entry->StartComponent)
            return d3d12xs_fail(E_INVALIDARG, method, "%sStreamOutput.pSODeclaration[%u] has StartComponent %u and ComponentCount %u (%s)", p,
                    i, entry->StartComponent, entry->ComponentCount, is_gap(entry) ? "a gap of at least one component"
                    : "1 to 4 components within x, y, z, w");
        if (slot_streams[entry->OutputSlot] != UINT32_MAX && slot_streams[entry->OutputSlot] != entry->Stream)
            return d3d12xs_fail(E_INVALIDARG, method, "%sStreamOutput.pSODeclaration[%u] writes OutputSlot %u from stream %u, which stream %u "
                    "writes (a buffer takes one stream)", p, i, entry->OutputSlot, entry->Stream, slot_streams[entry->OutputSlot]);
        slot_streams[entry->OutputSlot] = entry->Stream;
        slot_bytes[entry->OutputSlot] += entry->ComponentCount * 4;
        if (slot_bytes[entry->OutputSlot] > so->pBufferStrides[entry->OutputSlot])
            return d3d12xs_fail(E_INVALIDARG, method, "%sStreamOutput.pSODeclaration[%u] ends at byte %u of OutputSlot %u, past its stride "
                    "pBufferStrides[%u] %u", p, i, slot_bytes[entry->OutputSlot], entry->OutputSlot, entry->OutputSlot,
                    so->pBufferStrides[entry->OutputSlot]);
        if (entry->Stream && !caps->geometry_streams)
            return d3d12xs_fail(E_NOTIMPL, method, "%sStreamOutput.pSODeclaration[%u].Stream is %u: %s lacks transform feedback's "
                    "geometryStreams", p, i, entry->Stream, device->vk_properties.deviceName);
    }
    if (!caps->transform_feedback)
        return d3d12xs_fail(E_NOTIMPL, method, "%sStreamOutput has %u entries: %s lacks VK_EXT_transform_feedback", p, so->NumEntries,
                device->vk_properties.deviceName);
    for (unsigned s = 0; s < D3D12_SO_BUFFER_SLOT_COUNT; s++)
        if (slot_streams[s] != UINT32_MAX && (s >= caps->max_transform_feedback_buffers || so->pBufferStrides[s] > caps->max_transform_feedback_stride))
            return d3d12xs_fail(E_NOTIMPL, method, "%sStreamOutput's OutputSlot %u (stride %u): %s has %u transform feedback buffers of "
                    "strides up to %u", p, s, so->pBufferStrides[s], device->vk_properties.deviceName, caps->max_transform_feedback_buffers,
                    caps->max_transform_feedback_stride);
    if (so->RasterizedStream && so->RasterizedStream != D3D12_SO_NO_RASTERIZED_STREAM && !caps->rasterization_stream_select)
        return d3d12xs_fail(E_NOTIMPL, method, "%sStreamOutput.RasterizedStream is %u: %s cannot rasterize a stream other than 0", p,
                so->RasterizedStream, device->vk_properties.deviceName);
    return S_OK;
}

/* The output of stage with the entry's semantic, or NULL. */
static const struct d3d12xs_stage_variable *find_output(const struct d3d12_graphics_stage *stage, const D3D12_SO_DECLARATION_ENTRY *entry)
{
    for (uint32_t v = 0; v < stage->iface.count; v++) {
        const struct d3d12xs_stage_variable *variable = &stage->iface.variables[v];
        if (variable->output && !variable->patch && variable->semantic[0] && !strcasecmp(variable->semantic, entry->SemanticName)
                && entry->SemanticIndex >= variable->semantic_index
                && entry->SemanticIndex < variable->semantic_index + (variable->location_count ? variable->location_count : 1))
            return variable;
    }
    /* modules that keep no semantic on built-ins: SV_Position is the Position built-in */
    for (uint32_t v = 0; v < stage->iface.count; v++) {
        const struct d3d12xs_stage_variable *variable = &stage->iface.variables[v];
        if (variable->output && variable->builtin == SpvBuiltInPosition && !strcasecmp(entry->SemanticName, "SV_POSITION")
                && !entry->SemanticIndex)
            return variable;
    }
    return NULL;
}

HRESULT d3d12_stream_output_match(struct d3d12_device *device, const struct d3d12_graphics_desc *desc, const struct d3d12_graphics_stage *stage,
        struct d3d12xs_spirv_xfb_capture *captures, uint32_t *count, uint32_t *first_location, const char *method)
{
    const D3D12_STREAM_OUTPUT_DESC *so = &desc->stream_output;
    uint32_t slot_bytes[D3D12_SO_BUFFER_SLOT_COUNT] = {0}, locations = 0;
    const uint32_t max_locations = device->vk_properties.limits.maxVertexOutputComponents / 4;
    const char *p = desc->prefix;

    *count = 0;
    for (uint32_t v = 0; v < stage->iface.count; v++) {
        const struct d3d12xs_stage_variable *variable = &stage->iface.variables[v];
        if (variable->output && variable->location != D3D12XS_NO_LOCATION && variable->location + variable->location_count > locations)
            locations = variable->location + variable->location_count;
    }
    *first_location = locations;
    for (UINT i = 0; i < so->NumEntries; i++) {
        const D3D12_SO_DECLARATION_ENTRY *entry = &so->pSODeclaration[i];
        const struct d3d12xs_stage_variable *variable;
        uint32_t offset = slot_bytes[entry->OutputSlot], components;

        slot_bytes[entry->OutputSlot] += entry->ComponentCount * 4;
        if (is_gap(entry))
            continue;
        if (!(variable = find_output(stage, entry)))
            return d3d12xs_fail(E_INVALIDARG, method, "%sStreamOutput.pSODeclaration[%u] names %s%u, which %s does not output", p, i,
                    entry->SemanticName, entry->SemanticIndex, stage->argument);
        /* of built-ins, only SV_Position (a float4) streams out here */
        components = variable->builtin == SpvBuiltInPosition ? 4 : variable->builtin == UINT32_MAX ? variable->components : 0;
        if (components && entry->StartComponent + entry->ComponentCount > components)
            return d3d12xs_fail(E_INVALIDARG, method, "%sStreamOutput.pSODeclaration[%u] takes components %u to %u of %s%u, which has %u", p, i,
                    entry->StartComponent, entry->StartComponent + entry->ComponentCount - 1, entry->SemanticName, entry->SemanticIndex,
                    components);
        if (!components || variable->location_count > 1 || (variable->scalar_width && variable->scalar_width != 32))
            return d3d12xs_fail(E_NOTIMPL, method, "%sStreamOutput.pSODeclaration[%u]: %s%u is an array, a matrix or not 32-bit, which "
                    "d3d12xs does not stream out", p, i, entry->SemanticName, entry->SemanticIndex);
        if (locations + *count >= max_locations)
            return d3d12xs_fail(E_NOTIMPL, method, "%sStreamOutput.pSODeclaration[%u]: each captured range takes an output Location, and "
                    "%s has %u", p, i, device->vk_properties.deviceName, max_locations);
        captures[(*count)++] = (struct d3d12xs_spirv_xfb_capture){
            .variable_id = variable->variable_id,
            .first_component = entry->StartComponent,
            .component_count = entry->ComponentCount,
            .buffer = entry->OutputSlot,
            .stride = so->pBufferStrides[entry->OutputSlot],
            .offset = offset,
            .stream = entry->Stream,
        };
    }
    return S_OK;
}
