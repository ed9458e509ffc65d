/* What graphics needs of the VkDevice beyond the core features vk_features.c turns on: the
 * extensions that carry D3D12 pipeline state Vulkan's core lacks, where the device offers them,
 * and the summary of it all in device->graphics that pipeline creation, the draw path and
 * CheckFeatureSupport read.
 *
 * Not enabled, on purpose: VK_EXT_extended_dynamic_state3. Everything D3D12 sets on a list is
 * core Vulkan 1.3 dynamic state (viewports and scissors with counts, blend constants, stencil
 * reference, depth bounds, topology, vertex strides, primitive restart) or extended dynamic state
 * 2's patch control points; the state extended dynamic state 3 makes dynamic is pipeline state in
 * D3D12 too, so nothing would use it (and drivers keep state for what is enabled). */
#include <string.h>

#include "device/vk_device_create.h"

/* Chains an extension's feature structure into the device's create info (after vulkan13). */
#define CHAIN(plan, structure) do { (structure).pNext = (plan)->enabled.vulkan13.pNext; (plan)->enabled.vulkan13.pNext = &(structure); } while (0)

static void query_features(const struct d3d12_device *device, void *features)
{
    VkPhysicalDeviceFeatures2 query = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = features};
    vkGetPhysicalDeviceFeatures2(device->vk_physical_device, &query);
}

/* D3D12's conservative rasterization tiers from Vulkan's properties: tier 1 overestimates by at
 * most half a pixel, tier 2 by 1/256 and culls post-snap degenerate triangles, tier 3 adds the
 * inner-coverage input. */
static unsigned conservative_tier(const VkPhysicalDeviceConservativeRasterizationPropertiesEXT *properties)
{
    if (properties->primitiveOverestimationSize > 0.5f)
        return 0;
    if (properties->primitiveOverestimationSize > 1.0f / 256.0f || properties->degenerateTrianglesRasterized)
        return 1;
    return properties->fullyCoveredFragmentShaderInputVariable ? 3 : 2;
}

/* D3D12's programmable sample positions tier from VK_EXT_sample_locations: positions that may
 * change between draws of one rendering pass (variableSampleLocations; without it only render
 * pass objects can set them) at 1, 2, 4 and 8 samples make tier 1; a 2 x 2 pixel grid at 1, 2
 * and 4 samples (NumPixels 4 allows at most 4 samples) tier 2. */
static unsigned sample_positions_tier(const struct d3d12_device *device, const VkPhysicalDeviceSampleLocationsPropertiesEXT *properties)
{
    PFN_vkGetPhysicalDeviceMultisamplePropertiesEXT get_grid = (PFN_vkGetPhysicalDeviceMultisamplePropertiesEXT)
            vkGetInstanceProcAddr(device->vk_instance, "vkGetPhysicalDeviceMultisamplePropertiesEXT");
    const VkSampleCountFlags tier1_counts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_2_BIT | VK_SAMPLE_COUNT_4_BIT | VK_SAMPLE_COUNT_8_BIT;

    if (!properties->variableSampleLocations || (properties->sampleLocationSampleCounts & tier1_counts) != tier1_counts)
        return 0;
    for (uint32_t samples = VK_SAMPLE_COUNT_1_BIT; samples <= VK_SAMPLE_COUNT_4_BIT; samples <<= 1) {
        VkMultisamplePropertiesEXT grid = {.sType = VK_STRUCTURE_TYPE_MULTISAMPLE_PROPERTIES_EXT};
        if (!get_grid)
            return 1;
        get_grid(device->vk_physical_device, (VkSampleCountFlagBits)samples, &grid);
        /* the 2 x 2 grid must divide the largest one */
        if (grid.maxSampleLocationGridSize.width < 2 || grid.maxSampleLocationGridSize.height < 2
                || grid.maxSampleLocationGridSize.width % 2 || grid.maxSampleLocationGridSize.height % 2)
            return 1;
    }
    return 2;
}

void d3d12xs_vk_device_plan_graphics(struct d3d12_device *device, struct d3d12xs_vk_device_plan *plan)
{
    const VkPhysicalDeviceFeatures *core = &plan->enabled.core.features;
    struct d3d12xs_graphics_caps *caps = &device->graphics;
    VkPhysicalDevice physical = device->vk_physical_device;

    memset(caps, 0, sizeof(*caps));
    caps->geometry_shader = core->geometryShader;
    caps->tessellation_shader = core->tessellationShader;
    caps->stages = VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT
            | (caps->geometry_shader ? VK_SHADER_STAGE_GEOMETRY_BIT : 0)
            | (caps->tessellation_shader ? VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT | VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT : 0);
    caps->sample_rate_shading = core->sampleRateShading;
    caps->dual_source_blend = core->dualSrcBlend;
    caps->logic_op = core->logicOp;
    caps->independent_blend = core->independentBlend;
    caps->depth_clamp = core->depthClamp;
    caps->depth_bias_clamp = core->depthBiasClamp;
    caps->depth_bounds = core->depthBounds;
    caps->fill_mode_non_solid = core->fillModeNonSolid;
    caps->multi_viewport = core->multiViewport;
    caps->clip_distance = core->shaderClipDistance;
    caps->cull_distance = core->shaderCullDistance;
    caps->vertex_stores = core->vertexPipelineStoresAndAtomics;
    caps->fragment_stores = core->fragmentStoresAndAtomics;
    caps->full_draw_index_uint32 = core->fullDrawIndexUint32;
    caps->variable_multisample_rate = core->variableMultisampleRate;
    caps->draw_parameters = plan->enabled.vulkan11.shaderDrawParameters;
    caps->output_viewport_index = plan->enabled.vulkan12.shaderOutputViewportIndex;
    caps->output_layer = plan->enabled.vulkan12.shaderOutputLayer;
    caps->multi_draw_indirect = core->multiDrawIndirect;
    caps->draw_indirect_first_instance = core->drawIndirectFirstInstance;
    caps->draw_indirect_count = plan->enabled.vulkan12.drawIndirectCount;
    /* View instancing: multiview (core since Vulkan 1.1), with the stages it covers. */
    caps->multiview = plan->enabled.vulkan11.multiview;
    caps->multiview_geometry_shader = caps->multiview && caps->geometry_shader && plan->enabled.vulkan11.multiviewGeometryShader;
    caps->multiview_tessellation_shader = caps->multiview && caps->tessellation_shader
            && plan->enabled.vulkan11.multiviewTessellationShader;
    if (caps->multiview) {
        VkPhysicalDeviceMultiviewProperties properties = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_PROPERTIES};
        VkPhysicalDeviceProperties2 query = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &properties};
        vkGetPhysicalDeviceProperties2(physical, &query);
        caps->multiview = properties.maxMultiviewViewCount >= D3D12_MAX_VIEW_INSTANCE_COUNT;
    }

    /* DepthClipEnable: Vulkan clips unless depth clamp is on; the extension separates the two. */
    plan->depth_clip = (VkPhysicalDeviceDepthClipEnableFeaturesEXT){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_ENABLE_FEATURES_EXT};
    if (d3d12xs_device_has_extension(device, VK_EXT_DEPTH_CLIP_ENABLE_EXTENSION_NAME)) {
        query_features(device, &plan->depth_clip);
        if ((caps->depth_clip_enable = plan->depth_clip.depthClipEnable)) {
            plan->extensions[plan->extension_count++] = VK_EXT_DEPTH_CLIP_ENABLE_EXTENSION_NAME;
            plan->depth_clip = (VkPhysicalDeviceDepthClipEnableFeaturesEXT){
                    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_ENABLE_FEATURES_EXT, .depthClipEnable = VK_TRUE};
            CHAIN(plan, plan->depth_clip);
        }
    }

    /* InstanceDataStepRate above 1 (and 0, which D3D12 also allows: every instance reads element 0). */
    plan->vertex_divisor = (VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT){
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT};
    if (d3d12xs_device_has_extension(device, VK_EXT_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME)) {
        VkPhysicalDeviceVertexAttributeDivisorPropertiesEXT properties = {
                .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_PROPERTIES_EXT};
        VkPhysicalDeviceProperties2 query = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &properties};
        query_features(device, &plan->vertex_divisor);
        vkGetPhysicalDeviceProperties2(physical, &query);
        if ((caps->vertex_divisor = plan->vertex_divisor.vertexAttributeInstanceRateDivisor)) {
            caps->vertex_divisor_zero = plan->vertex_divisor.vertexAttributeInstanceRateZeroDivisor;
            caps->max_vertex_divisor = properties.maxVertexAttribDivisor;
            plan->extensions[plan->extension_count++] = VK_EXT_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME;
            plan->vertex_divisor = (VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT){
                    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT,
                    .vertexAttributeInstanceRateDivisor = VK_TRUE, .vertexAttributeInstanceRateZeroDivisor = caps->vertex_divisor_zero};
            CHAIN(plan, plan->vertex_divisor);
        }
    }

    /* D3D12's line modes: aliased lines follow the diamond-exit rule (Bresenham), MultisampleEnable
     * draws quadrilaterals (rectangular), AntialiasedLineEnable alpha-antialiased lines (smooth). */
    plan->line_rasterization = (VkPhysicalDeviceLineRasterizationFeaturesEXT){
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_EXT};
    if (d3d12xs_device_has_extension(device, VK_EXT_LINE_RASTERIZATION_EXTENSION_NAME)) {
        query_features(device, &plan->line_rasterization);
        caps->line_rectangular = plan->line_rasterization.rectangularLines;
        caps->line_bresenham = plan->line_rasterization.bresenhamLines;
        caps->line_smooth = plan->line_rasterization.smoothLines;
        if (caps->line_rectangular || caps->line_bresenham || caps->line_smooth) {
            plan->extensions[plan->extension_count++] = VK_EXT_LINE_RASTERIZATION_EXTENSION_NAME;
            plan->line_rasterization = (VkPhysicalDeviceLineRasterizationFeaturesEXT){
                    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_EXT, .rectangularLines = caps->line_rectangular,
                    .bresenhamLines = caps->line_bresenham, .smoothLines = caps->line_smooth};
            CHAIN(plan, plan->line_rasterization);
        }
    }

    /* IASetPrimitiveTopology's N-control-point patch lists: the count is list state in D3D12. */
    plan->dynamic_state2 = (VkPhysicalDeviceExtendedDynamicState2FeaturesEXT){
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT};
    if (caps->tessellation_shader && d3d12xs_device_has_extension(device, VK_EXT_EXTENDED_DYNAMIC_STATE_2_EXTENSION_NAME)) {
        query_features(device, &plan->dynamic_state2);
        if ((caps->patch_control_points = plan->dynamic_state2.extendedDynamicState2PatchControlPoints)) {
            plan->extensions[plan->extension_count++] = VK_EXT_EXTENDED_DYNAMIC_STATE_2_EXTENSION_NAME;
            plan->dynamic_state2 = (VkPhysicalDeviceExtendedDynamicState2FeaturesEXT){
                    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT,
                    .extendedDynamicState2PatchControlPoints = VK_TRUE};
            CHAIN(plan, plan->dynamic_state2);
        }
    }

    /* ConservativeRaster, where the device rasterizes conservatively within a D3D12 tier. */
    if (d3d12xs_device_has_extension(device, VK_EXT_CONSERVATIVE_RASTERIZATION_EXTENSION_NAME)) {
        VkPhysicalDeviceConservativeRasterizationPropertiesEXT properties = {
                .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONSERVATIVE_RASTERIZATION_PROPERTIES_EXT};
        VkPhysicalDeviceProperties2 query = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &properties};
        vkGetPhysicalDeviceProperties2(physical, &query);
        if ((caps->conservative_tier = conservative_tier(&properties))) {
            caps->conservative_overestimation = properties.primitiveOverestimationSize;
            plan->extensions[plan->extension_count++] = VK_EXT_CONSERVATIVE_RASTERIZATION_EXTENSION_NAME;
        }
    }

    /* SV_RenderTargetArrayIndex and SV_ViewportArrayIndex from vertex and domain shaders: glslang
     * declares ShaderViewportIndexLayerEXT, which needs the extension (Vulkan 1.2's features
     * alone cover SPIR-V 1.5's ShaderLayer and ShaderViewportIndex). */
    if (caps->output_layer && caps->output_viewport_index
            && d3d12xs_device_has_extension(device, VK_EXT_SHADER_VIEWPORT_INDEX_LAYER_EXTENSION_NAME))
        plan->extensions[plan->extension_count++] = VK_EXT_SHADER_VIEWPORT_INDEX_LAYER_EXTENSION_NAME;
    else
        caps->output_layer = caps->output_viewport_index = false;

    /* Stream output (D3D12_STREAM_OUTPUT_DESC, SOSetTargets): D3D12 requires it of every device,
     * so pipelines with it are refused (E_NOTIMPL) only where the device lacks the extension. */
    plan->transform_feedback = (VkPhysicalDeviceTransformFeedbackFeaturesEXT){
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT};
    if (d3d12xs_device_has_extension(device, VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME)) {
        VkPhysicalDeviceTransformFeedbackPropertiesEXT properties = {
                .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_PROPERTIES_EXT};
        VkPhysicalDeviceProperties2 query = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &properties};
        query_features(device, &plan->transform_feedback);
        vkGetPhysicalDeviceProperties2(physical, &query);
        if ((caps->transform_feedback = plan->transform_feedback.transformFeedback)) {
            caps->geometry_streams = plan->transform_feedback.geometryStreams && caps->geometry_shader
                    && properties.maxTransformFeedbackStreams >= D3D12_SO_STREAM_COUNT;
            caps->rasterization_stream_select = caps->geometry_streams && properties.transformFeedbackRasterizationStreamSelect;
            caps->transform_feedback_queries = properties.transformFeedbackQueries;
            caps->max_transform_feedback_buffers = properties.maxTransformFeedbackBuffers;
            caps->max_transform_feedback_stride = properties.maxTransformFeedbackBufferDataStride;
            plan->extensions[plan->extension_count++] = VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME;
            plan->transform_feedback = (VkPhysicalDeviceTransformFeedbackFeaturesEXT){
                    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT, .transformFeedback = VK_TRUE,
                    .geometryStreams = caps->geometry_streams};
            CHAIN(plan, plan->transform_feedback);
        }
    }

    /* SV_StencilRef (PSSpecifiedStencilRefSupported). */
    if ((caps->stencil_export = d3d12xs_device_has_extension(device, VK_EXT_SHADER_STENCIL_EXPORT_EXTENSION_NAME)))
        plan->extensions[plan->extension_count++] = VK_EXT_SHADER_STENCIL_EXPORT_EXTENSION_NAME;

    /* SetSamplePositions: dynamic sample locations in every pipeline of a sample count the
     * extension covers (commands/command_list_sample_positions.c). */
    if (d3d12xs_device_has_extension(device, VK_EXT_SAMPLE_LOCATIONS_EXTENSION_NAME)) {
        VkPhysicalDeviceSampleLocationsPropertiesEXT properties = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLE_LOCATIONS_PROPERTIES_EXT};
        VkPhysicalDeviceProperties2 query = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &properties};
        vkGetPhysicalDeviceProperties2(physical, &query);
        if ((caps->sample_positions_tier = sample_positions_tier(device, &properties))) {
            caps->sample_location_counts = properties.sampleLocationSampleCounts;
            plan->extensions[plan->extension_count++] = VK_EXT_SAMPLE_LOCATIONS_EXTENSION_NAME;
        }
    }

    /* SetPredication: draws, dispatches and attachment clears under a 32-bit condition. */
    plan->conditional_rendering = (VkPhysicalDeviceConditionalRenderingFeaturesEXT){
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONDITIONAL_RENDERING_FEATURES_EXT};
    if (d3d12xs_device_has_extension(device, VK_EXT_CONDITIONAL_RENDERING_EXTENSION_NAME)) {
        query_features(device, &plan->conditional_rendering);
        if ((caps->conditional_rendering = plan->conditional_rendering.conditionalRendering)) {
            plan->extensions[plan->extension_count++] = VK_EXT_CONDITIONAL_RENDERING_EXTENSION_NAME;
            plan->conditional_rendering = (VkPhysicalDeviceConditionalRenderingFeaturesEXT){
                    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONDITIONAL_RENDERING_FEATURES_EXT, .conditionalRendering = VK_TRUE};
            CHAIN(plan, plan->conditional_rendering);
        }
    }
}

void d3d12xs_vk_device_load_graphics(struct d3d12_device *device)
{
    struct d3d12xs_graphics_caps *caps = &device->graphics;
    if (caps->patch_control_points
            && !(caps->vkCmdSetPatchControlPointsEXT = (PFN_vkCmdSetPatchControlPointsEXT)vkGetDeviceProcAddr(device->vk_device,
                    "vkCmdSetPatchControlPointsEXT")))
        caps->patch_control_points = false;
    if (caps->transform_feedback) {
        caps->vkCmdBindTransformFeedbackBuffersEXT = (PFN_vkCmdBindTransformFeedbackBuffersEXT)vkGetDeviceProcAddr(device->vk_device,
                "vkCmdBindTransformFeedbackBuffersEXT");
        caps->vkCmdBeginTransformFeedbackEXT = (PFN_vkCmdBeginTransformFeedbackEXT)vkGetDeviceProcAddr(device->vk_device,
                "vkCmdBeginTransformFeedbackEXT");
        caps->vkCmdEndTransformFeedbackEXT = (PFN_vkCmdEndTransformFeedbackEXT)vkGetDeviceProcAddr(device->vk_device,
                "vkCmdEndTransformFeedbackEXT");
        caps->vkCmdBeginQueryIndexedEXT = (PFN_vkCmdBeginQueryIndexedEXT)vkGetDeviceProcAddr(device->vk_device, "vkCmdBeginQueryIndexedEXT");
        caps->vkCmdEndQueryIndexedEXT = (PFN_vkCmdEndQueryIndexedEXT)vkGetDeviceProcAddr(device->vk_device, "vkCmdEndQueryIndexedEXT");
        if (!caps->vkCmdBindTransformFeedbackBuffersEXT || !caps->vkCmdBeginTransformFeedbackEXT || !caps->vkCmdEndTransformFeedbackEXT)
            caps->transform_feedback = false;
        caps->transform_feedback_queries &= caps->vkCmdBeginQueryIndexedEXT && caps->vkCmdEndQueryIndexedEXT;
    }
    if (caps->conditional_rendering
            && (!(caps->vkCmdBeginConditionalRenderingEXT = (PFN_vkCmdBeginConditionalRenderingEXT)vkGetDeviceProcAddr(device->vk_device,
                    "vkCmdBeginConditionalRenderingEXT"))
            || !(caps->vkCmdEndConditionalRenderingEXT = (PFN_vkCmdEndConditionalRenderingEXT)vkGetDeviceProcAddr(device->vk_device,
                    "vkCmdEndConditionalRenderingEXT"))))
        caps->conditional_rendering = false;
    if (caps->sample_positions_tier && !(caps->vkCmdSetSampleLocationsEXT = (PFN_vkCmdSetSampleLocationsEXT)vkGetDeviceProcAddr(
            device->vk_device, "vkCmdSetSampleLocationsEXT")))
        caps->sample_positions_tier = 0;
}
