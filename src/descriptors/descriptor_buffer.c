/* The descriptor-buffer model (descriptor_buffer.h): what the device needs for it and the set
 * layouts through which pipelines see the bound heaps. */
#include <stdlib.h>
#include <string.h>

#include "descriptors/descriptor_buffer.h"

#define METHOD "D3D12CreateDevice"

/* The view kinds a CBV_SRV_UAV slot holds: buffer views and texture views. */
static const VkDescriptorType resource_types[] = {
    VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
    VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
    VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER,
    VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER,
    VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE,
    VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
};

/* D3D12's largest shader-visible heaps (resource binding tier 1-3 and sampler heaps). */
#define MAX_RESOURCE_SLOTS 1000000u
#define MAX_SAMPLER_SLOTS 2048u
/* What a layout's push-descriptor set may add: root descriptors and d3d12xs's own bindings. */
#define PUSH_DESCRIPTOR_ROOM 128u
/* Set 1: the side table's one storage-buffer descriptor. */
#define SIDE_TABLE_SLOTS 1u

HRESULT d3d12xs_descriptor_buffers_select(struct d3d12_device *device, struct d3d12xs_descriptor_buffer_features *features,
        void **chain, const char **extensions, uint32_t *extension_count)
{
    static const char *const required[] = {
        VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME,
        VK_EXT_MUTABLE_DESCRIPTOR_TYPE_EXTENSION_NAME,
    };
    bool has_robustness2 = d3d12xs_device_has_extension(device, VK_EXT_ROBUSTNESS_2_EXTENSION_NAME);

    /* One binding model: heaps are descriptor buffers, on every device (docs/descriptors.md). */
    for (size_t i = 0; i < D3D12XS_ARRAY_SIZE(required); i++)
        if (!d3d12xs_device_has_extension(device, required[i]))
            return d3d12xs_fail(DXGI_ERROR_UNSUPPORTED, METHOD, "%s lacks %s (required: descriptor heaps are descriptor buffers)",
                    device->vk_properties.deviceName, required[i]);

    memset(features, 0, sizeof(*features));
    features->buffer.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT;
    features->buffer.pNext = &features->mutable_type;
    features->mutable_type.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MUTABLE_DESCRIPTOR_TYPE_FEATURES_EXT;
    features->mutable_type.pNext = has_robustness2 ? &features->robustness2 : NULL;
    features->robustness2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT;
    VkPhysicalDeviceFeatures2 query = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &features->buffer};
    vkGetPhysicalDeviceFeatures2(device->vk_physical_device, &query);
    if (!features->buffer.descriptorBuffer || !features->buffer.descriptorBufferPushDescriptors || !features->mutable_type.mutableDescriptorType)
        return d3d12xs_fail(DXGI_ERROR_UNSUPPORTED, METHOD, "%s lacks the feature descriptorBuffer, descriptorBufferPushDescriptors or "
                "mutableDescriptorType (required: descriptor heaps are descriptor buffers)", device->vk_properties.deviceName);

    /* Only what is used: no capture/replay, no image layouts, and of robustness2 only null
     * descriptors (robust access would cost on every access). */
    features->buffer.descriptorBufferCaptureReplay = VK_FALSE;
    features->buffer.descriptorBufferImageLayoutIgnored = VK_FALSE;
    features->robustness2.robustBufferAccess2 = VK_FALSE;
    features->robustness2.robustImageAccess2 = VK_FALSE;
    extensions[(*extension_count)++] = VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME;
    extensions[(*extension_count)++] = VK_EXT_MUTABLE_DESCRIPTOR_TYPE_EXTENSION_NAME;
    if (has_robustness2 && features->robustness2.nullDescriptor)
        extensions[(*extension_count)++] = VK_EXT_ROBUSTNESS_2_EXTENSION_NAME;
    else
        features->mutable_type.pNext = NULL;
    /* Appended in front of what *chain pointed at. */
    if (features->mutable_type.pNext)
        features->robustness2.pNext = *chain;
    else
        features->mutable_type.pNext = *chain;
    *chain = &features->buffer;
    return S_OK;
}

static HRESULT make_set_layout(struct d3d12_device *device, VkDescriptorType type, uint32_t count, bool variable_count,
        VkShaderStageFlags stages, VkDescriptorSetLayout *out)
{
    const VkMutableDescriptorTypeListEXT list = {D3D12XS_ARRAY_SIZE(resource_types), resource_types};
    const VkMutableDescriptorTypeCreateInfoEXT mutable_info = {
        .sType = VK_STRUCTURE_TYPE_MUTABLE_DESCRIPTOR_TYPE_CREATE_INFO_EXT,
        .mutableDescriptorTypeListCount = 1,
        .pMutableDescriptorTypeLists = &list,
    };
    const VkDescriptorSetLayoutBinding binding = {
        .binding = 0,
        .descriptorType = type,
        .descriptorCount = count,
        .stageFlags = stages,
    };
    /* Variable-count: a heap's memory holds its own descriptors only, not the layout's largest
     * count (VUID-vkCmdSetDescriptorBufferOffsetsEXT-pOffsets-08062 spares such bindings). */
    const VkDescriptorBindingFlags binding_flags = variable_count ? VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT : 0;
    const VkDescriptorSetLayoutBindingFlagsCreateInfo flags_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO,
        .pNext = type == VK_DESCRIPTOR_TYPE_MUTABLE_EXT ? &mutable_info : NULL,
        .bindingCount = 1,
        .pBindingFlags = &binding_flags,
    };
    const VkDescriptorSetLayoutCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .pNext = &flags_info,
        .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT,
        .bindingCount = 1,
        .pBindings = &binding,
    };
    VkResult vr;

    if ((vr = vkCreateDescriptorSetLayout(device->vk_device, &info, NULL, out)) != VK_SUCCESS)
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), METHOD, "vkCreateDescriptorSetLayout of a heap set failed (VkResult %d)", vr);
    return S_OK;
}

/* The three heap sets' layouts, seen by `stages`. */
static HRESULT make_heap_set_layouts(struct d3d12_device *device, VkShaderStageFlags stages, VkDescriptorSetLayout layouts[D3D12XS_HEAP_SET_COUNT])
{
    const struct d3d12xs_descriptor_buffers *buffers = device->descriptor_buffers;
    HRESULT hr;

    memset(layouts, 0, D3D12XS_HEAP_SET_COUNT * sizeof(*layouts));
    if (FAILED(hr = make_set_layout(device, VK_DESCRIPTOR_TYPE_MUTABLE_EXT, buffers->resource_slots, true, stages,
                    &layouts[D3D12XS_HEAP_SET_RESOURCES]))
            || FAILED(hr = make_set_layout(device, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, SIDE_TABLE_SLOTS, false, stages,
                    &layouts[D3D12XS_HEAP_SET_COUNTERS]))
            || FAILED(hr = make_set_layout(device, VK_DESCRIPTOR_TYPE_SAMPLER, buffers->sampler_slots, true, stages,
                    &layouts[D3D12XS_HEAP_SET_SAMPLERS]))) {
        for (int set = 0; set < D3D12XS_HEAP_SET_COUNT; set++)
            vkDestroyDescriptorSetLayout(device->vk_device, layouts[set], NULL);
        return hr;
    }
    return S_OK;
}

HRESULT d3d12xs_descriptor_buffers_heap_layouts(struct d3d12_device *device, VkShaderStageFlags stages,
        VkDescriptorSetLayout layouts[D3D12XS_HEAP_SET_COUNT])
{
    struct d3d12xs_descriptor_buffers *buffers = device->descriptor_buffers;
    struct d3d12xs_heap_stage_layouts *entry = NULL;
    HRESULT hr = S_OK;

    if (stages == device->graphics.stages) {
        memcpy(layouts, buffers->set_layouts, sizeof(buffers->set_layouts));
        return S_OK;
    }
    pthread_mutex_lock(&buffers->stage_layouts_lock);
    for (uint32_t i = 0; i < buffers->stage_layout_count && !entry; i++)
        if (buffers->stage_layouts[i].stages == stages)
            entry = &buffers->stage_layouts[i];
    /* At most one entry per subset of the six stages that keeps compute: 32 */
    if (!entry && buffers->stage_layout_count < D3D12XS_ARRAY_SIZE(buffers->stage_layouts)
            && SUCCEEDED(hr = make_heap_set_layouts(device, stages, buffers->stage_layouts[buffers->stage_layout_count].set_layouts))) {
        entry = &buffers->stage_layouts[buffers->stage_layout_count++];
        entry->stages = stages;
    }
    if (entry)
        memcpy(layouts, entry->set_layouts, sizeof(entry->set_layouts));
    else if (SUCCEEDED(hr))
        hr = d3d12xs_fail(E_OUTOFMEMORY, METHOD, "more than %zu combinations of DENY_* flags", D3D12XS_ARRAY_SIZE(buffers->stage_layouts));
    pthread_mutex_unlock(&buffers->stage_layouts_lock);
    return hr;
}

static size_t largest(size_t a, size_t b) { return a > b ? a : b; }

HRESULT d3d12xs_descriptor_buffers_init(struct d3d12_device *device, const struct d3d12xs_descriptor_buffer_features *features)
{
    VkPhysicalDeviceDescriptorBufferPropertiesEXT properties = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_PROPERTIES_EXT};
    VkPhysicalDeviceProperties2 query = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &properties};
    const VkPhysicalDeviceLimits *limits = &device->vk_properties.limits;
    struct d3d12xs_descriptor_buffers *buffers;
    PFN_vkGetDescriptorSetLayoutSizeEXT get_layout_size;
    HRESULT hr;

    if (!(buffers = calloc(1, sizeof(*buffers))))
        return d3d12xs_fail(E_OUTOFMEMORY, METHOD, "cannot allocate the descriptor-buffer state");
    device->descriptor_buffers = buffers;
    vkGetPhysicalDeviceProperties2(device->vk_physical_device, &query);
    buffers->vkGetDescriptorEXT = (PFN_vkGetDescriptorEXT)vkGetDeviceProcAddr(device->vk_device, "vkGetDescriptorEXT");
    buffers->vkCmdBindDescriptorBuffersEXT = (PFN_vkCmdBindDescriptorBuffersEXT)vkGetDeviceProcAddr(device->vk_device,
            "vkCmdBindDescriptorBuffersEXT");
    buffers->vkCmdSetDescriptorBufferOffsetsEXT = (PFN_vkCmdSetDescriptorBufferOffsetsEXT)vkGetDeviceProcAddr(device->vk_device,
            "vkCmdSetDescriptorBufferOffsetsEXT");
    get_layout_size = (PFN_vkGetDescriptorSetLayoutSizeEXT)vkGetDeviceProcAddr(device->vk_device, "vkGetDescriptorSetLayoutSizeEXT");
    if (!buffers->vkGetDescriptorEXT || !buffers->vkCmdBindDescriptorBuffersEXT || !buffers->vkCmdSetDescriptorBufferOffsetsEXT || !get_layout_size)
        return d3d12xs_fail(DXGI_ERROR_UNSUPPORTED, METHOD, "%s offers VK_EXT_descriptor_buffer without its functions", device->vk_properties.deviceName);
    if (!properties.bufferlessPushDescriptors)
        return d3d12xs_fail(DXGI_ERROR_UNSUPPORTED, METHOD, "%s needs a buffer for push descriptors next to descriptor buffers "
                "(bufferlessPushDescriptors is false; not implemented)", device->vk_properties.deviceName);
    buffers->uniform_buffer_size = properties.uniformBufferDescriptorSize;
    buffers->storage_buffer_size = properties.storageBufferDescriptorSize;
    buffers->uniform_texel_size = properties.uniformTexelBufferDescriptorSize;
    buffers->storage_texel_size = properties.storageTexelBufferDescriptorSize;
    buffers->sampler_size = properties.samplerDescriptorSize;
    buffers->sampled_image_size = properties.sampledImageDescriptorSize;
    buffers->storage_image_size = properties.storageImageDescriptorSize;
    buffers->offset_alignment = properties.descriptorBufferOffsetAlignment;
    buffers->null_descriptor = features->mutable_type.pNext == &features->robustness2 && features->robustness2.nullDescriptor;

    /* Sets 0 and 2 hold as many slots as shaders may address, within what the device lets a
     * stage see, next to set 1's one descriptor (the side table) and the push descriptors
     * (lavapipe: 1,000,000 in all). Heaps are created at D3D12's sizes whatever these are; a
     * dispatch whose tables reach past them is refused (command_list_compute.c). */
    uint32_t sampler_slots = MAX_SAMPLER_SLOTS, resource_slots = MAX_RESOURCE_SLOTS, stage_limit = limits->maxPerStageResources;
    if (sampler_slots > limits->maxPerStageDescriptorSamplers)
        sampler_slots = limits->maxPerStageDescriptorSamplers;
    /* A mutable slot counts against the limit of each kind it may hold. */
    if (stage_limit > limits->maxPerStageDescriptorStorageBuffers)
        stage_limit = limits->maxPerStageDescriptorStorageBuffers;
    if (stage_limit > limits->maxPerStageDescriptorSampledImages)
        stage_limit = limits->maxPerStageDescriptorSampledImages;
    if (stage_limit > limits->maxPerStageDescriptorStorageImages)
        stage_limit = limits->maxPerStageDescriptorStorageImages;
    if (stage_limit < 2 * 1024 + sampler_slots + PUSH_DESCRIPTOR_ROOM)
        return d3d12xs_fail(DXGI_ERROR_UNSUPPORTED, METHOD, "%s lets a shader stage see %u descriptors (too few for descriptor heaps)",
                device->vk_properties.deviceName, stage_limit);
    if (resource_slots > stage_limit - sampler_slots - PUSH_DESCRIPTOR_ROOM - SIDE_TABLE_SLOTS)
        resource_slots = stage_limit - sampler_slots - PUSH_DESCRIPTOR_ROOM - SIDE_TABLE_SLOTS;
    buffers->capacity[D3D12XS_HEAP_SET_RESOURCES] = resource_slots;
    buffers->capacity[D3D12XS_HEAP_SET_COUNTERS] = SIDE_TABLE_SLOTS;
    buffers->capacity[D3D12XS_HEAP_SET_SAMPLERS] = sampler_slots;
    device->shader_visible_heap_capacity = resource_slots;
    buffers->resource_slots = resource_slots;
    buffers->sampler_slots = sampler_slots;
    pthread_mutex_init(&buffers->stage_layouts_lock, NULL);
    if (FAILED(hr = make_heap_set_layouts(device, device->graphics.stages, buffers->set_layouts)))
        return hr;
    /* Slots are as large as a set of n of them takes over n, which is what the shader's array
     * indexing steps by (a mutable slot: the largest of its types). */
    for (int set = 0; set < D3D12XS_HEAP_SET_COUNT; set++) {
        VkDeviceSize size = 0;
        get_layout_size(device->vk_device, buffers->set_layouts[set], &size);
        buffers->slot_size[set] = size / buffers->capacity[set];
    }
    TRACE("%s: descriptor slots of %llu bytes (resources), %llu (samplers), %llu (counters)", device->vk_properties.deviceName,
            (unsigned long long)buffers->slot_size[D3D12XS_HEAP_SET_RESOURCES], (unsigned long long)buffers->slot_size[D3D12XS_HEAP_SET_SAMPLERS],
            (unsigned long long)buffers->slot_size[D3D12XS_HEAP_SET_COUNTERS]);
    size_t resource_size = largest(largest(largest(buffers->uniform_buffer_size, buffers->storage_buffer_size),
            largest(buffers->uniform_texel_size, buffers->storage_texel_size)), largest(buffers->sampled_image_size, buffers->storage_image_size));
    if (buffers->slot_size[D3D12XS_HEAP_SET_RESOURCES] < resource_size
            || buffers->slot_size[D3D12XS_HEAP_SET_COUNTERS] < buffers->storage_buffer_size
            || buffers->slot_size[D3D12XS_HEAP_SET_SAMPLERS] < buffers->sampler_size)
        return d3d12xs_fail(E_FAIL, METHOD, "%s reports heap slots smaller than its descriptors", device->vk_properties.deviceName);
    return S_OK;
}

void d3d12xs_descriptor_buffers_cleanup(struct d3d12_device *device)
{
    struct d3d12xs_descriptor_buffers *buffers = device->descriptor_buffers;
    if (!buffers)
        return;
    for (int set = 0; set < D3D12XS_HEAP_SET_COUNT; set++)
        vkDestroyDescriptorSetLayout(device->vk_device, buffers->set_layouts[set], NULL);
    for (uint32_t i = 0; i < buffers->stage_layout_count; i++)
        for (int set = 0; set < D3D12XS_HEAP_SET_COUNT; set++)
            vkDestroyDescriptorSetLayout(device->vk_device, buffers->stage_layouts[i].set_layouts[set], NULL);
    if (buffers->resource_slots)
        pthread_mutex_destroy(&buffers->stage_layouts_lock);
    free(buffers);
    device->descriptor_buffers = NULL;
}

void d3d12xs_write_buffer_descriptor(struct d3d12_device *device, VkDescriptorType type, VkDeviceAddress address,
        VkDeviceSize range, VkFormat format, void *out)
{
    const struct d3d12xs_descriptor_buffers *buffers = device->descriptor_buffers;
    VkDescriptorAddressInfoEXT address_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_ADDRESS_INFO_EXT,
        .address = address,
        .range = range,
        .format = format,
    };
    const VkDescriptorAddressInfoEXT *data = address ? &address_info : NULL;
    VkDescriptorGetInfoEXT info = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_GET_INFO_EXT, .type = type};
    size_t size;

    /* Without null descriptors a null view points at the device's zeroed buffer. */
    if (!data && !buffers->null_descriptor) {
        VkBufferDeviceAddressInfo null_info = {VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, NULL, device->null_buffer};
        address_info.address = vkGetBufferDeviceAddress(device->vk_device, &null_info);
        address_info.range = type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER ? 65536 : D3D12XS_NULL_BUFFER_SIZE;
        data = &address_info;
    }
    switch (type) {
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER: info.data.pUniformBuffer = data; size = buffers->uniform_buffer_size; break;
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER: info.data.pStorageBuffer = data; size = buffers->storage_buffer_size; break;
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER: info.data.pUniformTexelBuffer = data; size = buffers->uniform_texel_size; break;
    default: info.data.pStorageTexelBuffer = data; size = buffers->storage_texel_size; break;
    }
    buffers->vkGetDescriptorEXT(device->vk_device, &info, size, out);
}

void d3d12xs_write_sampler_descriptor(struct d3d12_device *device, VkSampler sampler, void *out)
{
    const struct d3d12xs_descriptor_buffers *buffers = device->descriptor_buffers;
    VkDescriptorGetInfoEXT info = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_GET_INFO_EXT, .type = VK_DESCRIPTOR_TYPE_SAMPLER};
    info.data.pSampler = &sampler;
    buffers->vkGetDescriptorEXT(device->vk_device, &info, buffers->sampler_size, out);
}

void d3d12xs_write_image_descriptor(struct d3d12_device *device, VkDescriptorType type, VkImageView view, void *out)
{
    const struct d3d12xs_descriptor_buffers *buffers = device->descriptor_buffers;
    VkDescriptorImageInfo image_info = {VK_NULL_HANDLE, view, VK_IMAGE_LAYOUT_GENERAL};
    VkDescriptorGetInfoEXT info = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_GET_INFO_EXT, .type = type};
    size_t size = type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE ? buffers->storage_image_size : buffers->sampled_image_size;

    /* A null texture view (view VK_NULL_HANDLE) needs nullDescriptor; descriptor.c refuses it
     * on devices without. */
    if (type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE)
        info.data.pStorageImage = view ? &image_info : NULL;
    else
        info.data.pSampledImage = view ? &image_info : NULL;
    buffers->vkGetDescriptorEXT(device->vk_device, &info, size, out);
}
