/* GPU-side memory waits (gpu_wait.h): the spin pipeline and its recording. */
#include <stdlib.h>
#include <string.h>

#include "sync/gpu_wait.h"
#include "device/internal_pipeline.h"
#include "gpu_wait_spirv.h"
#include "value_write_spirv.h"

struct d3d12_gpu_waits {
    struct d3d12xs_internal_layout layout; /* one storage buffer; struct gpu_wait_constants */
    VkPipeline pipeline;
    VkPipeline value_write_pipeline;
};

/* The shader's push constants (src/sync/shaders/gpu_wait.comp). */
struct gpu_wait_constants {
    uint32_t index;
    uint32_t size;
    uint32_t comparison;
    uint32_t unused;
    uint64_t value;
    uint64_t bound;
};

/* GPU waits help only where a queue can wait for a queue of another family. */
static bool has_two_compute_families(const struct d3d12_device *device)
{
    const struct d3d12_queue_family_map *direct = &device->queue_map[D3D12_COMMAND_LIST_TYPE_DIRECT];
    const struct d3d12_queue_family_map *compute = &device->queue_map[D3D12_COMMAND_LIST_TYPE_COMPUTE];
    const struct d3d12_queue_family_map *copy = &device->queue_map[D3D12_COMMAND_LIST_TYPE_COPY];
    return direct->family != compute->family || direct->family != copy->family;
}

static bool create_pipeline(struct d3d12_device *device, struct d3d12_gpu_waits *waits)
{
    return d3d12xs_internal_layout_create(device, 1, sizeof(struct gpu_wait_constants), &waits->layout)
            && d3d12xs_internal_pipeline_create(device, &waits->layout, d3d12_gpu_wait_spirv, sizeof(d3d12_gpu_wait_spirv), &waits->pipeline)
            && d3d12xs_internal_pipeline_create(device, &waits->layout, d3d12_value_write_spirv, sizeof(d3d12_value_write_spirv),
                    &waits->value_write_pipeline);
}

void d3d12_gpu_waits_create(struct d3d12_device *device)
{
    enum d3d12_gpu_wait_mode mode = device->config.gpu_waits; /* D3D12XS_GPU_WAITS (common/config.c) */
    struct d3d12_gpu_waits *waits;

    /* Waiting for a writer's submission on a shared VkQueue needs no pipeline. */
    device->gpu_wait_mode = mode;
    if (mode == D3D12_GPU_WAITS_OFF)
        return;
    if (!device->has_shader_clock || !device->has_shader_int64) {
        INFO("GPU-side memory waits by shader are off: %s lacks shaderDeviceClock or shaderInt64", device->vk_properties.deviceName);
        return;
    }
    /* Spins are opt-in: on the H200 a spin missed a value another queue wrote into freshly
     * allocated memory (tests/test_console_sync.c, memory_model_case), cause unknown. */
    if (mode == D3D12_GPU_WAITS_AUTO || mode == D3D12_GPU_WAITS_SEMAPHORE || ((mode == D3D12_GPU_WAITS_SPIN || mode == D3D12_GPU_WAITS_INLINE) && !has_two_compute_families(device)))
        return;
    if (!(waits = calloc(1, sizeof(*waits))))
        return;
    device->gpu_waits = waits;
    if (!create_pipeline(device, waits)) {
        WARN("GPU-side memory waits by shader are off: their pipeline could not be created");
        d3d12_gpu_waits_destroy(device);
        device->gpu_wait_mode = mode;
        return;
    }
    if (mode == D3D12_GPU_WAITS_INLINE)
        WARN("D3D12XS_GPU_WAITS=inline (experimental): memory waits on graphics memory spin inside the list's command buffer; "
                "only values another queue family's value writes publish are safe to wait for (docs/sync.md)");
    else
        INFO("GPU-side memory waits: %s", mode == D3D12_GPU_WAITS_FORCE ? "forced (D3D12XS_GPU_WAITS=force)" : "spins across queue families");
}

void d3d12_gpu_waits_destroy(struct d3d12_device *device)
{
    struct d3d12_gpu_waits *waits = device->gpu_waits;
    if (!waits)
        return;
    vkDestroyPipeline(device->vk_device, waits->pipeline, NULL);
    vkDestroyPipeline(device->vk_device, waits->value_write_pipeline, NULL);
    d3d12xs_internal_layout_destroy(device, &waits->layout);
    free(waits);
    device->gpu_waits = NULL;
}

bool d3d12_gpu_waits_possible(const struct d3d12_device *device, D3D12_COMMAND_LIST_TYPE type, bool transfer_only)
{
    return device->gpu_waits && !transfer_only && device->queue_map[type].supports_compute;
}

/* Binds pipeline and pushes the value's range and the constants, then one thread. */
static void record_one_thread(struct d3d12_device *device, VkCommandBuffer command_buffer, VkPipeline pipeline,
        const VkDescriptorBufferInfo *buffer_info, const struct gpu_wait_constants *constants)
{
    struct d3d12_gpu_waits *waits = device->gpu_waits;
    VkWriteDescriptorSet write = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstBinding = 0,
        .descriptorCount = 1,
        .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
        .pBufferInfo = buffer_info,
    };
    device->vk_record.vkCmdBindPipeline(command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    device->vkCmdPushDescriptorSetKHR(command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, waits->layout.layout, 0, 1, &write);
    device->vk_record.vkCmdPushConstants(command_buffer, waits->layout.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(*constants), constants);
    device->vk_record.vkCmdDispatch(command_buffer, 1, 1, 1);
}

void d3d12_gpu_wait_record(struct d3d12_device *device, VkCommandBuffer command_buffer, VkBuffer buffer, uint64_t offset, uint32_t size,
        D3D12_COMPARISON_FUNC comparison, uint64_t value)
{
    uint64_t timeout_ms = atomic_load(&device->hang_timeout_ms);
    /* Longer than the hang timeout, so the host reports a wait that never ends before the
     * spin gives up; 60 s when the timeout is off. */
    struct gpu_wait_constants constants = {
        .size = size,
        .comparison = (uint32_t)comparison,
        .value = value,
        .bound = (timeout_ms ? timeout_ms + timeout_ms / 4 + 100 : 60000) * 1000000ull,
    };
    VkDescriptorBufferInfo range = d3d12xs_internal_value_range(device, buffer, offset, size, &constants.index);
    record_one_thread(device, command_buffer, device->gpu_waits->pipeline, &range, &constants);
}

void d3d12_gpu_value_write_record(struct d3d12_device *device, VkCommandBuffer command_buffer, VkBuffer buffer, uint64_t offset,
        uint32_t size, uint64_t value)
{
    struct gpu_wait_constants constants = {.size = size, .value = value};
    VkDescriptorBufferInfo range = d3d12xs_internal_value_range(device, buffer, offset, size, &constants.index);
    record_one_thread(device, command_buffer, device->gpu_waits->value_write_pipeline, &range, &constants);
}
