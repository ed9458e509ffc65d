/* ExecuteIndirect's own path for signatures that set vertex or index buffer views
 * (docs/indirect.md, "Without generated commands"): where a command's image keeps the views, and
 * the input layout of the pipeline as spirv_vertex_pulling.c fetches it. The elements come from
 * the vertex input state the graphics pipeline kept (graphics_build.c), so the variant reads each
 * Location from the slot, offset, format and step rate the pipeline's own vertex input has. */
#include <stdio.h>

#include "pipelines/pipeline_state.h"
#include "pipelines/graphics_build.h"
#include "pipelines/graphics_state.h"
#include "spirv/spirv_passes.h"

void d3d12_pipeline_state_indirect_image_layout(const struct d3d12_pipeline_state *state, enum d3d12_vertex_pulling pulling,
        struct d3d12_indirect_image_layout *layout)
{
    uint32_t slots = pulling && state->graphics ? state->graphics->vertex_slots : 0, end;

    layout->slot_entries = d3d12_root_signature_indirect_image_bytes(state->root_signature);
    layout->slot_count = slots ? 32 - (uint32_t)__builtin_clz(slots) : 0;
    end = layout->slot_entries + 16 * layout->slot_count;
    layout->index_entry = layout->draw_arguments = layout->base_vertex = UINT32_MAX;
    if (pulling == D3D12_VERTEX_PULLING_INDEXED) {
        layout->index_entry = end;            /* right after the slots: one run of views to translate */
        layout->draw_arguments = end + 16;    /* VkDrawIndirectCommand */
        layout->base_vertex = end + 32;       /* BaseVertexLocation */
        end += 48;
    }
    layout->bytes = (end + 15) & ~15u;
}

/* The element's decoding, or false for a format the pass does not decode. */
static bool pulled_format(DXGI_FORMAT format, enum d3d12xs_spirv_vertex_format *pulled, uint32_t *components)
{
    static const struct {
        DXGI_FORMAT format;
        enum d3d12xs_spirv_vertex_format pulled;
        uint32_t components;
    } formats[] = {
        {DXGI_FORMAT_R32G32B32A32_FLOAT, D3D12XS_VERTEX_FLOAT32, 4}, {DXGI_FORMAT_R32G32B32_FLOAT, D3D12XS_VERTEX_FLOAT32, 3},
        {DXGI_FORMAT_R32G32_FLOAT, D3D12XS_VERTEX_FLOAT32, 2}, {DXGI_FORMAT_R32_FLOAT, D3D12XS_VERTEX_FLOAT32, 1},
        {DXGI_FORMAT_R32G32B32A32_UINT, D3D12XS_VERTEX_UINT32, 4}, {DXGI_FORMAT_R32G32B32_UINT, D3D12XS_VERTEX_UINT32, 3},
        {DXGI_FORMAT_R32G32_UINT, D3D12XS_VERTEX_UINT32, 2}, {DXGI_FORMAT_R32_UINT, D3D12XS_VERTEX_UINT32, 1},
        {DXGI_FORMAT_R32G32B32A32_SINT, D3D12XS_VERTEX_SINT32, 4}, {DXGI_FORMAT_R32G32B32_SINT, D3D12XS_VERTEX_SINT32, 3},
        {DXGI_FORMAT_R32G32_SINT, D3D12XS_VERTEX_SINT32, 2}, {DXGI_FORMAT_R32_SINT, D3D12XS_VERTEX_SINT32, 1},
        {DXGI_FORMAT_R16G16B16A16_FLOAT, D3D12XS_VERTEX_FLOAT16, 4}, {DXGI_FORMAT_R16G16_FLOAT, D3D12XS_VERTEX_FLOAT16, 2},
        {DXGI_FORMAT_R16_FLOAT, D3D12XS_VERTEX_FLOAT16, 1},
        {DXGI_FORMAT_R16G16B16A16_UNORM, D3D12XS_VERTEX_UNORM16, 4}, {DXGI_FORMAT_R16G16_UNORM, D3D12XS_VERTEX_UNORM16, 2},
        {DXGI_FORMAT_R16_UNORM, D3D12XS_VERTEX_UNORM16, 1},
        {DXGI_FORMAT_R16G16B16A16_SNORM, D3D12XS_VERTEX_SNORM16, 4}, {DXGI_FORMAT_R16G16_SNORM, D3D12XS_VERTEX_SNORM16, 2},
        {DXGI_FORMAT_R16_SNORM, D3D12XS_VERTEX_SNORM16, 1},
        {DXGI_FORMAT_R16G16B16A16_UINT, D3D12XS_VERTEX_UINT16, 4}, {DXGI_FORMAT_R16G16_UINT, D3D12XS_VERTEX_UINT16, 2},
        {DXGI_FORMAT_R16_UINT, D3D12XS_VERTEX_UINT16, 1},
        {DXGI_FORMAT_R16G16B16A16_SINT, D3D12XS_VERTEX_SINT16, 4}, {DXGI_FORMAT_R16G16_SINT, D3D12XS_VERTEX_SINT16, 2},
        {DXGI_FORMAT_R16_SINT, D3D12XS_VERTEX_SINT16, 1},
        {DXGI_FORMAT_R8G8B8A8_UNORM, D3D12XS_VERTEX_UNORM8, 4}, {DXGI_FORMAT_R8G8_UNORM, D3D12XS_VERTEX_UNORM8, 2},
        {DXGI_FORMAT_R8_UNORM, D3D12XS_VERTEX_UNORM8, 1},
        {DXGI_FORMAT_R8G8B8A8_SNORM, D3D12XS_VERTEX_SNORM8, 4}, {DXGI_FORMAT_R8G8_SNORM, D3D12XS_VERTEX_SNORM8, 2},
        {DXGI_FORMAT_R8_SNORM, D3D12XS_VERTEX_SNORM8, 1},
        {DXGI_FORMAT_R8G8B8A8_UINT, D3D12XS_VERTEX_UINT8, 4}, {DXGI_FORMAT_R8G8_UINT, D3D12XS_VERTEX_UINT8, 2},
        {DXGI_FORMAT_R8_UINT, D3D12XS_VERTEX_UINT8, 1},
        {DXGI_FORMAT_R8G8B8A8_SINT, D3D12XS_VERTEX_SINT8, 4}, {DXGI_FORMAT_R8G8_SINT, D3D12XS_VERTEX_SINT8, 2},
        {DXGI_FORMAT_R8_SINT, D3D12XS_VERTEX_SINT8, 1},
        {DXGI_FORMAT_B8G8R8A8_UNORM, D3D12XS_VERTEX_B8G8R8A8_UNORM, 4},
        {DXGI_FORMAT_R10G10B10A2_UNORM, D3D12XS_VERTEX_UNORM10_10_10_2, 4}, {DXGI_FORMAT_R10G10B10A2_UINT, D3D12XS_VERTEX_UINT10_10_10_2, 4},
    };
    for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
        if (formats[i].format == format) {
            *pulled = formats[i].pulled;
            *components = formats[i].components;
            return true;
        }
    return false;
}

HRESULT d3d12_pipeline_state_pull_vertices(const struct d3d12_pipeline_state *state, struct d3d12xs_spirv_module *module,
        enum d3d12_vertex_pulling pulling, uint32_t draw_index_stride, char *error, size_t error_size)
{
    const struct d3d12_vertex_input *input = state->graphics ? d3d12_graphics_build_vertex_input(state->graphics->build) : NULL;
    struct d3d12xs_spirv_vertex_element elements[D3D12_IA_VERTEX_INPUT_STRUCTURE_ELEMENT_COUNT];
    struct d3d12_indirect_image_layout layout;
    struct d3d12xs_spirv_vertex_pulling_args args;

    if (!input)
        return d3d12xs_write_error(E_NOTIMPL, error, error_size, "the graphics pipeline kept no vertex input to fetch from memory");
    d3d12_pipeline_state_indirect_image_layout(state, pulling, &layout);
    args = (struct d3d12xs_spirv_vertex_pulling_args){elements, 0, state->root_signature->indirect_image_offset, draw_index_stride,
            layout.slot_entries, layout.index_entry, layout.base_vertex};
    for (uint32_t i = 0; i < input->info.vertexAttributeDescriptionCount; i++) {
        const VkVertexInputAttributeDescription *attribute = &input->attributes[i];
        struct d3d12xs_spirv_vertex_element *e = &elements[args.element_count++];
        if (!pulled_format(input->formats[i], &e->format, &e->components))
            return d3d12xs_write_error(E_NOTIMPL, error, error_size, "the input layout's element at Location %u has Format %d (DXGI_FORMAT), "
                    "which the own path's vertex shaders do not fetch from memory", attribute->location, (int)input->formats[i]);
        e->location = attribute->location;
        e->slot = attribute->binding;
        e->offset = attribute->offset;
        e->per_instance = input->per_instance_slots >> attribute->binding & 1;
        e->step_rate = 1;
        for (uint32_t d = 0; d < input->divisor_info.vertexBindingDivisorCount; d++)
            if (input->divisors[d].binding == attribute->binding)
                e->step_rate = input->divisors[d].divisor;
    }
    return d3d12xs_spirv_pass_vertex_pulling(module, &args, error, error_size);
}
