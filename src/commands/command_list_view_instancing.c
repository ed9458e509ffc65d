/* View instancing on a list: ID3D12GraphicsCommandList1::SetViewInstanceMask and the views a
 * draw renders. A pipeline with view instancing renders its views as Vulkan multiview (view i into
 * array slice i of each target); one made with ENABLE_VIEW_INSTANCE_MASKING renders only the views
 * of the list's mask, through the pipeline it made for that subset of its views and a rendering
 * pass of that view mask (Vulkan has no view mask per draw). A pipeline whose views go elsewhere
 * (pViewInstanceLocations) draws them one by one in a layered pass, the view pushed before each
 * draw (views_apart). The mask is 0, no view, until set
 * (D3D12's default, for lists and for bundles alike); a draw with no view left does nothing
 * (docs/graphics.md, "View instancing"). */
#include "command_recording.h"
#include "commands/command_list_graphics.h"
#include "pipelines/graphics_pipeline.h"

void STDMETHODCALLTYPE d3d12_command_list_SetViewInstanceMask(ID3D12GraphicsCommandList10 *iface, UINT mask)
{
    static const char command[] = "ID3D12GraphicsCommandList1::SetViewInstanceMask";
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    struct d3d12_graphics_bindings *graphics = &list->bindings.graphics;

    if (!d3d12_command_list_check_recording_in_pass(list, command))
        return;
    if (list->type != D3D12_COMMAND_LIST_TYPE_DIRECT) {
        d3d12_command_list_record_error(list, command, "only DIRECT lists draw (this is a %s list)",
                list->type == D3D12_COMMAND_LIST_TYPE_COMPUTE ? "COMPUTE" : list->type == D3D12_COMMAND_LIST_TYPE_COPY ? "COPY" : "BUNDLE");
        return;
    }
    graphics->view_instance_mask_set = true;
    if (graphics->view_instance_mask == mask)
        return;
    graphics->view_instance_mask = mask;
    /* the open pass may render other views than a masking pipeline's next draw wants */
    graphics->rendering_checked_for = NULL;
}

uint32_t d3d12_command_list_view_mask(const struct d3d12_command_list *list, const struct d3d12_graphics_pipeline *pipeline)
{
    return pipeline->view_masking ? pipeline->view_mask & list->bindings.graphics.view_instance_mask : pipeline->view_mask;
}

void d3d12_command_list_bind_view_mask_pipeline(struct d3d12_command_list *list, const struct d3d12_graphics_pipeline *pipeline,
        uint32_t view_mask)
{
    struct d3d12_bind_point_state *state = &list->bindings.points[D3D12_BIND_POINT_GRAPHICS];
    VkPipeline vk_pipeline = pipeline->view_mask_pipelines[view_mask];

    if (state->bound_vk_pipeline != vk_pipeline) {
        list->vk.vkCmdBindPipeline(list->vk_command_buffer, VK_PIPELINE_BIND_POINT_GRAPHICS, vk_pipeline);
        state->bound_vk_pipeline = vk_pipeline;
    }
}

void d3d12_command_list_push_view(struct d3d12_command_list *list, uint32_t view)
{
    const struct d3d12_pipeline_state *pipeline = list->bindings.pipeline;
    const struct d3d12_graphics_bindings *graphics = &list->bindings.graphics;
    /* what spirv/spirv_view_locations.c reads: out-of-range slices and viewports become 0 there */
    const uint32_t words[3] = {view, graphics->rendering_key.layers, graphics->viewport_count};

    list->vk.vkCmdPushConstants(list->vk_command_buffer, pipeline->vk_layout, pipeline->root_signature->vk_push_stages[D3D12XS_LAYOUT_GRAPHICS],
            pipeline->graphics->view_push_offset, sizeof(words), words);
}
