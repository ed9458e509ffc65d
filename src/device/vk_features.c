/* The Vulkan features a d3d12xs device turns on: those that the SPIR-V D3DCompile produces
 * and the runtime's own commands can use, where the device offers them, and nothing else.
 * Features nobody uses are not free: drivers may keep extra state per dispatch for them
 * (update-after-bind descriptors, buffer device addresses, robustness). */
#include <string.h>

#include "device/device.h"

#define TAKE(field) enabled->field = supported->field

void d3d12xs_select_vk_features(const struct d3d12xs_vk_features *supported, struct d3d12xs_vk_features *enabled)
{
    /* Shader types and the resource access patterns HLSL can express. */
    TAKE(core.features.shaderFloat64);
    TAKE(core.features.shaderInt64);
    TAKE(core.features.shaderInt16);
    TAKE(core.features.shaderUniformBufferArrayDynamicIndexing);
    TAKE(core.features.shaderStorageBufferArrayDynamicIndexing);
    TAKE(core.features.shaderSampledImageArrayDynamicIndexing);
    TAKE(core.features.shaderStorageImageArrayDynamicIndexing);
    TAKE(core.features.shaderStorageImageReadWithoutFormat);
    TAKE(core.features.shaderStorageImageWriteWithoutFormat);
    TAKE(core.features.shaderStorageImageExtendedFormats);
    TAKE(core.features.shaderImageGatherExtended);
    TAKE(core.features.imageCubeArray); /* TextureCubeArray SRVs */
    TAKE(core.features.samplerAnisotropy);
    TAKE(vulkan11.storageBuffer16BitAccess);
    TAKE(vulkan11.uniformAndStorageBuffer16BitAccess);
    TAKE(vulkan11.storagePushConstant16);
    TAKE(vulkan11.variablePointersStorageBuffer);
    TAKE(vulkan11.variablePointers);
    TAKE(vulkan12.storageBuffer8BitAccess);
    TAKE(vulkan12.uniformAndStorageBuffer8BitAccess);
    TAKE(vulkan12.storagePushConstant8);
    TAKE(vulkan12.shaderFloat16);
    TAKE(vulkan12.shaderInt8);
    TAKE(vulkan12.shaderBufferInt64Atomics);
    TAKE(vulkan12.shaderSharedInt64Atomics);
    TAKE(vulkan12.shaderSubgroupExtendedTypes);
    TAKE(vulkan12.shaderUniformTexelBufferArrayDynamicIndexing);
    TAKE(vulkan12.shaderStorageTexelBufferArrayDynamicIndexing);
    TAKE(vulkan12.shaderUniformBufferArrayNonUniformIndexing);
    TAKE(vulkan12.shaderStorageBufferArrayNonUniformIndexing);
    TAKE(vulkan12.shaderUniformTexelBufferArrayNonUniformIndexing);
    TAKE(vulkan12.shaderStorageTexelBufferArrayNonUniformIndexing);
    TAKE(vulkan12.shaderSampledImageArrayNonUniformIndexing);
    TAKE(vulkan12.shaderStorageImageArrayNonUniformIndexing);
    TAKE(vulkan12.runtimeDescriptorArray);
    TAKE(vulkan12.descriptorBindingVariableDescriptorCount); /* heap sets (descriptors/descriptor_buffer.c) */
    TAKE(vulkan12.vulkanMemoryModel);
    TAKE(vulkan12.vulkanMemoryModelDeviceScope);
    TAKE(vulkan12.uniformBufferStandardLayout);
    TAKE(vulkan12.samplerMirrorClampToEdge);
    TAKE(vulkan12.samplerFilterMinmax);
    /* Descriptor buffers take views by address; the memory-based ABI's root descriptors and
     * the GPU virtual address table are read through addresses (docs/descriptors.md). */
    TAKE(vulkan12.bufferDeviceAddress);
    TAKE(vulkan13.subgroupSizeControl);
    TAKE(vulkan13.computeFullSubgroups);
    TAKE(vulkan13.shaderIntegerDotProduct);
    TAKE(vulkan13.maintenance4);
    /* ClearRenderTargetView renders its clear (commands/command_list_texture_clear.c); draws render
     * in dynamic-rendering passes (commands/command_list_render_pass.c) */
    TAKE(vulkan13.dynamicRendering);
    /* What the runtime itself needs (D3D12CreateDevice refuses devices without them). */
    TAKE(vulkan12.scalarBlockLayout);
    TAKE(vulkan12.timelineSemaphore);
    TAKE(vulkan12.hostQueryReset);
    TAKE(vulkan13.synchronization2);
    /* Query heaps of type PIPELINE_STATISTICS(1) and OCCLUSION (commands/query_heap.c). */
    TAKE(core.features.pipelineStatisticsQuery);
    TAKE(core.features.occlusionQueryPrecise);
    /* Graphics pipelines (pipelines/graphics_pipeline.c): the stages D3D12 has, the blend,
     * rasterizer and depth-stencil state it can describe, and what its shaders' system values and
     * UAVs need. What is missing is refused where a pipeline asks for it, naming the feature, and
     * CheckFeatureSupport says so (device/device_features.c). */
    TAKE(core.features.geometryShader);
    TAKE(core.features.tessellationShader);
    TAKE(core.features.sampleRateShading);      /* SV_SampleIndex, sample-frequency inputs */
    TAKE(core.features.dualSrcBlend);           /* SRC1 blend factors */
    TAKE(core.features.logicOp);                /* LogicOpEnable */
    TAKE(core.features.independentBlend);       /* IndependentBlendEnable */
    TAKE(core.features.depthClamp);             /* DepthClipEnable FALSE where VK_EXT_depth_clip_enable is missing */
    TAKE(core.features.depthBiasClamp);         /* DepthBiasClamp */
    TAKE(core.features.depthBounds);            /* DepthBoundsTestEnable, OMSetDepthBounds */
    TAKE(core.features.fillModeNonSolid);       /* D3D12_FILL_MODE_WIREFRAME */
    TAKE(core.features.multiViewport);          /* 16 viewports and scissors, SV_ViewportArrayIndex */
    TAKE(core.features.shaderClipDistance);     /* SV_ClipDistance */
    TAKE(core.features.shaderCullDistance);     /* SV_CullDistance */
    TAKE(core.features.vertexPipelineStoresAndAtomics); /* UAVs in vertex, hull, domain and geometry shaders */
    TAKE(core.features.fragmentStoresAndAtomics); /* UAVs in pixel shaders */
    TAKE(core.features.fullDrawIndexUint32);    /* 32-bit indices up to 0xfffffffe */
    TAKE(core.features.variableMultisampleRate); /* UAV-only rendering with ForcedSampleCount */
    TAKE(vulkan11.shaderDrawParameters);        /* SV_InstanceID counts from 0: InstanceIndex - BaseInstance */
    TAKE(vulkan11.multiview);                   /* view instancing (D3D12_VIEW_INSTANCING_DESC), SV_ViewID */
    TAKE(vulkan11.multiviewGeometryShader);     /* ... with a geometry shader */
    TAKE(vulkan11.multiviewTessellationShader); /* ... with hull and domain shaders */
    /* ExecuteIndirect (commands/command_list_indirect.c): many commands per call, a first
     * instance read from memory, and count buffers. */
    TAKE(core.features.multiDrawIndirect);
    TAKE(core.features.drawIndirectFirstInstance);
    TAKE(vulkan12.drawIndirectCount);
    TAKE(vulkan12.shaderOutputViewportIndex);   /* SV_ViewportArrayIndex from vertex and domain shaders */
    TAKE(vulkan12.shaderOutputLayer);           /* SV_RenderTargetArrayIndex from vertex and domain shaders */
}
