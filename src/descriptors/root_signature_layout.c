/* The pipeline layouts of a root signature: one per kind of pipeline (compute, graphics), each
 * shared by every pipeline of that kind made with it. Their bindings follow from the root
 * signature alone (root_signature.h), so a pipeline's shader is remapped onto them and never
 * needs a layout of its own. Two, not one for every stage: a push-constant range names its
 * stages, every vkCmdPushConstants must name them all, and the NVIDIA driver's push costs more
 * for each stage named (about 9 ns of a 290 ns push + dispatch on the H100 for the five graphics
 * stages next to compute; docs/benchmarks.md), so a dispatch pushes to compute alone. Making a VkPipelineLayout is
 * not cheap: on the H200 a new one cost about 350 us the first time and 11 us after, a third of
 * CreateComputePipelineState (docs/benchmarks.md), and D3D12 programs create root signatures
 * ahead of pipelines. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "descriptors/root_signature.h"
#include "descriptors/descriptor_buffer.h"

static HRESULT make_layout(struct d3d12_root_signature *signature, enum d3d12xs_layout_kind kind, const char *method,
        struct d3d12xs_root_layout **out);

HRESULT d3d12_root_signature_get_layout(struct d3d12_root_signature *signature, enum d3d12xs_layout_kind kind, const char *method,
        struct d3d12xs_root_layout **out, VkPipelineLayout *vk_layout)
{
    struct d3d12xs_root_layout *layout = atomic_load(&signature->layouts[kind]), *expected = NULL;
    HRESULT hr;

    /* The graphics layout comes with the first graphics pipeline: a compute program never pays
     * for it. Two threads may make one at once; the first to publish it wins. */
    if (!layout) {
        if (FAILED(hr = make_layout(signature, kind, method, &layout)))
            return hr;
        if (!atomic_compare_exchange_strong(&signature->layouts[kind], &expected, layout)) {
            d3d12xs_root_layout_release(signature->object.device, layout);
            layout = expected;
        }
    }
    atomic_fetch_add(&layout->refcount, 1);
    *vk_layout = layout->layout;
    *out = layout;
    return S_OK;
}

void d3d12xs_root_layout_release(struct d3d12_device *device, struct d3d12xs_root_layout *layout)
{
    if (atomic_fetch_sub(&layout->refcount, 1) != 1)
        return;
    vkDestroyPipelineLayout(device->vk_device, layout->layout, NULL);
    vkDestroyDescriptorSetLayout(device->vk_device, layout->set_layout, NULL);
    atomic_fetch_sub(&device->pipeline_layout_count, 1);
    free(layout);
}

uint32_t d3d12_root_signature_push_constant_range(const struct d3d12_root_signature *signature, uint32_t *thread_limit_offset)
{
    const uint32_t push_limit = signature->object.device->vk_properties.limits.maxPushConstantsSize;
    const uint32_t limit_offset = (signature->push_bytes + 15) & ~15u;

    *thread_limit_offset = UINT32_MAX;
    /* Root constants through memory: the thread limit then has no push-constant block to
     * follow, and partial groups of USE_THREAD_DIMENSIONS are refused for such pipelines. */
    if (signature->memory_abi)
        return signature->push_bytes;
    if (limit_offset + 16 > push_limit)
        return signature->push_bytes;
    *thread_limit_offset = limit_offset;
    /* ExecuteIndirect's root view entries follow (root_signature.h), inside the range so that
     * every pipeline of the root signature keeps one layout */
    return signature->indirect_views_end > limit_offset + 16 ? signature->indirect_views_end : limit_offset + 16;
}

VkShaderStageFlags d3d12_root_signature_layout_stages(const struct d3d12_root_signature *signature)
{
    return signature->vk_stages & signature->object.device->graphics.stages;
}

uint32_t d3d12_root_signature_push_set(const struct d3d12_root_signature *signature)
{
    return signature->reads_heaps ? D3D12XS_HEAP_SET_PUSH : 0;
}

VkDescriptorType d3d12_root_descriptor_vk_type(const struct d3d12_root_signature *signature, uint32_t index)
{
    return signature->parameter_types[index] == D3D12_ROOT_PARAMETER_TYPE_CBV ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
            : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
}

/* The push-descriptor bindings, each of one descriptor, while they fit the device's limit: what
 * a pipeline cannot do without first (root_signature.h), seen by `stages`. The first call (the
 * compute layout's, at creation) records what went in; both kinds choose alike. */
static uint32_t choose_bindings(struct d3d12_root_signature *signature, VkDescriptorSetLayoutBinding *bindings, uint32_t limit,
        VkShaderStageFlags stages, bool record)
{
    struct d3d12_root_signature scratch;
    uint32_t count = 0;

    if (!record) { /* the same choices into a copy nobody reads, so the shared fields stay as made */
        scratch = *signature;
        signature = &scratch;
    }

#define ADD(number, vk_type, sampler) (count < limit \
        ? (bindings[count++] = (VkDescriptorSetLayoutBinding){(number), (vk_type), 1, stages, (sampler)}, true) : false)
    if (signature->memory_abi)
        signature->has_arguments_binding = ADD(D3D12XS_PUSH_BINDING_ARGUMENTS, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, NULL);
    for (uint32_t i = 0; i < signature->parameter_count; i++) {
        D3D12_ROOT_PARAMETER_TYPE type = signature->parameter_types[i];
        if (type != D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE && type != D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS
                && ADD(i, d3d12_root_descriptor_vk_type(signature, i), NULL))
            signature->pushed_root_mask |= 1ull << i;
    }
    signature->has_ordered_append_binding = ADD(D3D12XS_PUSH_BINDING_ORDERED_APPEND, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, NULL);
    for (uint32_t i = 0; i < signature->desc->Desc_1_2.NumStaticSamplers
            && ADD(D3D12XS_PUSH_BINDING_STATIC_SAMPLERS + i, VK_DESCRIPTOR_TYPE_SAMPLER, &signature->static_samplers[i]); i++)
        signature->static_sampler_bindings++;
#undef ADD
    return count;
}

VkShaderStageFlags d3d12_root_signature_kind_stages(const struct d3d12_root_signature *signature, enum d3d12xs_layout_kind kind)
{
    VkShaderStageFlags graphics = d3d12_root_signature_layout_stages(signature) & ~VK_SHADER_STAGE_COMPUTE_BIT;
    if (kind == D3D12XS_LAYOUT_COMPUTE)
        return VK_SHADER_STAGE_COMPUTE_BIT;
    /* Every graphics stage denied still makes a valid layout (a range names some stage): the
     * vertex stage's, which then reads no root argument. */
    return graphics ? graphics : VK_SHADER_STAGE_VERTEX_BIT;
}

static HRESULT make_layout(struct d3d12_root_signature *signature, enum d3d12xs_layout_kind kind, const char *method,
        struct d3d12xs_root_layout **out)
{
    struct d3d12_device *device = signature->object.device;
    const uint32_t limit = device->push_descriptor_limit;
    uint32_t thread_limit_offset, push_constant_size = d3d12_root_signature_push_constant_range(signature, &thread_limit_offset);
    /* One range for the stages of the kind: a push names them all (command_list_flush.c). */
    const VkPushConstantRange push_range = {d3d12_root_signature_kind_stages(signature, kind), 0, push_constant_size};
    VkDescriptorSetLayoutBinding *bindings;
    struct d3d12xs_root_layout *layout;
    VkResult vr;

    if (!(layout = calloc(1, sizeof(*layout))) || !(bindings = calloc(limit ? limit : 1, sizeof(*bindings)))) {
        free(layout);
        return d3d12xs_fail(E_OUTOFMEMORY, method, "cannot allocate the pipeline layout");
    }
    atomic_init(&layout->refcount, 1);
    /* With tables or a directly indexed heap the layout starts with the heap sets, and every set
     * of it is then of the descriptor-buffer kind (VUID-VkPipelineLayoutCreateInfo-pSetLayouts-08008). */
    const bool heaps = signature->reads_heaps;
    VkDescriptorSetLayoutCreateInfo set_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR | (heaps ? VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT : 0),
        .bindingCount = choose_bindings(signature, bindings, limit, push_range.stageFlags, kind == D3D12XS_LAYOUT_COMPUTE),
        .pBindings = bindings,
    };
    vr = vkCreateDescriptorSetLayout(device->vk_device, &set_info, NULL, &layout->set_layout);
    free(bindings);
    if (vr != VK_SUCCESS) {
        free(layout);
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "pBlobWithRootSignature: Vulkan cannot make the root "
                "signature's push-descriptor set layout (vkCreateDescriptorSetLayout: VkResult %d)", vr);
    }
    VkDescriptorSetLayout set_layouts[D3D12XS_HEAP_SET_COUNT + 1];
    uint32_t set_count = 0;
    if (heaps) {
        HRESULT hr;
        if (FAILED(hr = d3d12xs_descriptor_buffers_heap_layouts(device, push_range.stageFlags, set_layouts))) {
            vkDestroyDescriptorSetLayout(device->vk_device, layout->set_layout, NULL);
            free(layout);
            return d3d12xs_fail(hr, method, "pBlobWithRootSignature: the heap sets' layouts for its stages cannot be made");
        }
        set_count = D3D12XS_HEAP_SET_COUNT;
    }
    set_layouts[set_count++] = layout->set_layout;
    VkPipelineLayoutCreateInfo layout_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = set_count,
        .pSetLayouts = set_layouts,
        .pushConstantRangeCount = push_constant_size ? 1 : 0,
        .pPushConstantRanges = &push_range,
    };
    if ((vr = vkCreatePipelineLayout(device->vk_device, &layout_info, NULL, &layout->layout)) != VK_SUCCESS) {
        vkDestroyDescriptorSetLayout(device->vk_device, layout->set_layout, NULL);
        free(layout);
        return d3d12xs_fail(d3d12xs_hresult_from_vk(device, vr), method, "pBlobWithRootSignature: Vulkan cannot make the root "
                "signature's pipeline layout (vkCreatePipelineLayout: VkResult %d)", vr);
    }
    atomic_fetch_add(&device->pipeline_layout_count, 1);
    *out = layout;
    return S_OK;
}

HRESULT d3d12_root_signature_make_layout(struct d3d12_root_signature *signature, const char *method)
{
    struct d3d12xs_root_layout *layout;
    HRESULT hr;

    for (int kind = 0; kind < D3D12XS_LAYOUT_KIND_COUNT; kind++) {
        signature->vk_push_stages[kind] = d3d12_root_signature_kind_stages(signature, kind);
        atomic_init(&signature->layouts[kind], NULL);
    }
    /* The compute layout at once: it records the push-descriptor choices both kinds share, and
     * a root signature whose layout Vulkan refuses fails at its creation. */
    if (FAILED(hr = make_layout(signature, D3D12XS_LAYOUT_COMPUTE, method, &layout)))
        return hr;
    atomic_store(&signature->layouts[D3D12XS_LAYOUT_COMPUTE], layout);
    return S_OK;
}

void d3d12_root_signature_destroy_layout(struct d3d12_root_signature *signature)
{
    for (int kind = 0; kind < D3D12XS_LAYOUT_KIND_COUNT; kind++) {
        struct d3d12xs_root_layout *layout = atomic_exchange(&signature->layouts[kind], NULL);
        if (layout)
            d3d12xs_root_layout_release(signature->object.device, layout);
    }
}
