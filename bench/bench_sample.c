/* bench_sample: a compute kernel sampling a texture (bilinear filter, clamp) and storing what it
 * read through a UAV, d3d12xs next to hand-written Vulkan doing the same work on the same
 * physical device and queue family, in the same run. See docs/benchmarks.md.
 *
 * The source is a 2D R8G8B8A8_UNORM texture of one mip holding a hash pattern, the output a
 * texture of the same size and format (RWTexture2D<float4>). Each thread of an 8 x 8 group samples
 * the source at its own texel's centre moved by a fraction of a texel (a root constant / push
 * constant), so that the filter blends four texels, and stores the result at its texel: one
 * dispatch covers the texture (512 x 512 groups at 4096 x 4096). A timed list (command buffer)
 * holds 8 such dispatches, a UAV barrier between each two (the equivalent compute-to-compute
 * memory barrier on the raw side), between two timestamps.
 *
 * Two figures from the same runs, each texels stored / time: the GPU time between the two
 * timestamps, and the host's time from ExecuteCommandLists (vkQueueSubmit) to the end of the
 * fence wait. Each ratio is raw Vulkan's rate over d3d12xs's in one repetition, the two sides
 * back to back, median over repetitions: above 1 means d3d12xs is slower; the target is <= 1.05
 * (d3d12xs at >= 0.95 x raw Vulkan). After the timed runs each side's output is read back and
 * a spread of texels (every 97th and the four corners) is compared with a bilinear filter
 * computed on the CPU, within one UNORM step.
 *
 * The textures are 4096 x 4096 on a GPU, 1024 x 1024 on a CPU device (lavapipe).
 * D3D12XS_BENCH_OUT=<path> also writes the table as TSV. Arguments: size=N sets the texture size
 * (64 to 16384, a multiple of 8), reps=N the repetitions (1 to 64). D3D12XS_DEBUG=1 (with
 * VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation for the raw side) is a validation run: the
 * layer stays on, the figures measure it too, and any message it gave d3d12xs fails the run. */
#include <math.h>

#include "bench_util.h"

const char *bench_name = "bench_sample";

#define DISPATCHES 8
#define GROUP_SIZE 8 /* numthreads(8, 8, 1) */

/* Where each thread samples, in texels from its texel's centre: not a multiple of 1/2 in either
 * axis, so that all four texels weigh in and the two weights differ (a swapped axis shows);
 * negative in y, so that the top row reads above the texture and the right column beyond it
 * (both clamp). Multiples of 1/8: exact in the filter's 8-bit fixed-point weights. */
static const float sample_offset[2] = {0.25f, -0.375f};

/* One HLSL source, compiled by D3DCompile for d3d12xs and by shaderc (with RAW_VULKAN defined)
 * for raw Vulkan; only the binding annotations differ (BENCH_HLSL_PROLOGUE). */
static const char sample_hlsl[] = BENCH_HLSL_PROLOGUE
    "PUSH_CONSTANTS(Constants) { float2 offset; float inverse_size; };\n"
    "BINDING(0) Texture2D<float4> source : register(t0);\n"
    "BINDING(1) SamplerState linear_clamp : register(s0);\n"
    "BINDING(2) RWTexture2D<float4> output : register(u0);\n"
    "[numthreads(8, 8, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID)\n"
    "{\n"
    "    float2 uv = (float2(id.xy) + 0.5 + offset) * inverse_size;\n"
    "    output[id.xy] = source.SampleLevel(linear_clamp, uv, 0);\n"
    "}\n";

/* The root constants / push constants: offset, then 1 / size. */
struct constants {
    float offset[2], inverse_size;
};

/* The source texel at (x, y), R in the low byte: a hash, so that neighbours differ and a blend
 * of the wrong texels or weights shows. */
static uint32_t pattern(uint32_t x, uint32_t y)
{
    uint32_t h = (x * 0x9e3779b1u) ^ (y * 0x85ebca77u);
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    return h ^ (h >> 12);
}

/* The source's texels, rows row_pitch bytes apart. */
static void fill_pattern(uint8_t *rows, uint32_t size, uint64_t row_pitch)
{
    for (uint32_t y = 0; y < size; y++) {
        uint32_t *row = (uint32_t *)(rows + y * row_pitch);
        for (uint32_t x = 0; x < size; x++)
            row[x] = pattern(x, y);
    }
}

/* A texel index clamped to the texture (clamp addressing). */
static uint32_t clamp_texel(double i, uint32_t size)
{
    return i < 0 ? 0 : i > size - 1 ? size - 1 : (uint32_t)i;
}

/* What a bilinear, clamp sample of the pattern at (x, y)'s centre + sample_offset is, rounded to
 * UNORM steps: D3D's and Vulkan's rule (the point in texel space less half a texel, x +
 * sample_offset here, split into the texel below and the fraction; the four texels clamped to
 * the edge). */
static void expected_texel(uint32_t size, uint32_t x, uint32_t y, long texel[4])
{
    double tx = x + (double)sample_offset[0], ty = y + (double)sample_offset[1];
    double fx = floor(tx), fy = floor(ty), wx = tx - fx, wy = ty - fy;
    uint32_t x0 = clamp_texel(fx, size), x1 = clamp_texel(fx + 1, size), y0 = clamp_texel(fy, size), y1 = clamp_texel(fy + 1, size);
    uint32_t t00 = pattern(x0, y0), t10 = pattern(x1, y0), t01 = pattern(x0, y1), t11 = pattern(x1, y1);

    for (unsigned c = 0; c < 4; c++) {
        unsigned shift = 8 * c;
        texel[c] = lrint((1 - wx) * (1 - wy) * (double)(t00 >> shift & 0xff) + wx * (1 - wy) * (double)(t10 >> shift & 0xff)
                + (1 - wx) * wy * (double)(t01 >> shift & 0xff) + wx * wy * (double)(t11 >> shift & 0xff));
    }
}

/* Texel (x, y) of the output read back (rows row_pitch bytes apart) against expected_texel,
 * within one UNORM step. */
static void check_texel(const uint8_t *rows, uint32_t size, uint64_t row_pitch, uint32_t x, uint32_t y, const char *side)
{
    const uint8_t *got = rows + y * row_pitch + (uint64_t)x * 4;
    long want[4];

    expected_texel(size, x, y, want);
    for (unsigned c = 0; c < 4; c++)
        if (labs(got[c] - want[c]) > 1)
            bench_fail(__LINE__, "%s: output texel (%u, %u) is %u %u %u %u, expected %ld %ld %ld %ld (channel %u off by more than 1)",
                    side, x, y, got[0], got[1], got[2], got[3], want[0], want[1], want[2], want[3], c);
}

/* Every 97th texel of the output and its four corners. */
static void check_output(const uint8_t *rows, uint32_t size, uint64_t row_pitch, const char *side)
{
    uint64_t count = (uint64_t)size * size, checked = 4;

    for (uint64_t i = 0; i < count; i += 97, checked++)
        check_texel(rows, size, row_pitch, (uint32_t)(i % size), (uint32_t)(i / size), side);
    check_texel(rows, size, row_pitch, 0, 0, side);
    check_texel(rows, size, row_pitch, size - 1, 0, side);
    check_texel(rows, size, row_pitch, 0, size - 1, side);
    check_texel(rows, size, row_pitch, size - 1, size - 1, side);
    printf("%s: %llu texels of the output match the CPU's bilinear filter\n", side, (unsigned long long)checked);
}

struct params {
    uint32_t size; /* textures of size x size */
    unsigned reps;
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT footprint; /* the upload's and the read-back's buffer layout, both sides */
    UINT64 footprint_bytes;
    struct constants constants;
};

/* ======================================================================================= */
/* d3d12xs side                                                                            */
/* ======================================================================================= */

struct d3d {
    ID3D12Device *device;
    D3D12XS_DEVICE_INFO info;
    struct bench_d3d_queue q;         /* COMPUTE */
    ID3D12QueryHeap *queries;         /* two */
    ID3D12Resource *query_results;    /* READBACK, 2 UINT64 */
    ID3D12RootSignature *signature;
    ID3D12PipelineState *pipeline;
    ID3D12DescriptorHeap *views;      /* shader-visible: the source's SRV (slot 0), the output's UAV (slot 1) */
    ID3D12Resource *source, *output;  /* NON_PIXEL_SHADER_RESOURCE; UNORDERED_ACCESS */
    ID3D12CommandAllocator *allocator;
    ID3D12GraphicsCommandList *list;  /* the timed one */
};

static D3D12_RESOURCE_DESC texture_desc(uint32_t size, D3D12_RESOURCE_FLAGS flags)
{
    D3D12_RESOURCE_DESC desc;
    memset(&desc, 0, sizeof(desc));
    desc.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    desc.Width = size;
    desc.Height = size;
    desc.DepthOrArraySize = 1;
    desc.MipLevels = 1;
    desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    desc.SampleDesc.Count = 1;
    desc.Layout = D3D12_TEXTURE_LAYOUT_UNKNOWN;
    desc.Flags = flags;
    return desc;
}

static ID3D12Resource *d3d_texture(struct d3d *d, uint32_t size, D3D12_RESOURCE_FLAGS flags, D3D12_RESOURCE_STATES state)
{
    D3D12_HEAP_PROPERTIES heap = {D3D12_HEAP_TYPE_DEFAULT, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    D3D12_RESOURCE_DESC desc = texture_desc(size, flags);
    ID3D12Resource *texture = NULL;
    HR(ID3D12Device_CreateCommittedResource(d->device, &heap, D3D12_HEAP_FLAG_NONE, &desc, state, NULL, &IID_ID3D12Resource,
            (void **)&texture));
    return texture;
}

/* Root constants b0 (3 values), one table (t0, u0), and s0 a static sampler (linear, clamp):
 * bench_d3d_root_signature makes none with static samplers. */
static ID3D12RootSignature *d3d_root_signature(ID3D12Device *device)
{
    D3D12_DESCRIPTOR_RANGE1 ranges[2] = {
        {D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 1, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 0},
        {D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 1, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 1},
    };
    D3D12_ROOT_PARAMETER1 parameters[2];
    D3D12_STATIC_SAMPLER_DESC sampler;

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = sizeof(struct constants) / 4;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    parameters[1].DescriptorTable.NumDescriptorRanges = 2;
    parameters[1].DescriptorTable.pDescriptorRanges = ranges;
    memset(&sampler, 0, sizeof(sampler));
    sampler.Filter = D3D12_FILTER_MIN_MAG_MIP_LINEAR;
    sampler.AddressU = sampler.AddressV = sampler.AddressW = D3D12_TEXTURE_ADDRESS_MODE_CLAMP;
    sampler.MaxLOD = D3D12_FLOAT32_MAX;
    return bench_d3d_root_signature_with_samplers(device, parameters, 2, &sampler, 1);
}

static void d3d_init(struct d3d *d, bool validating)
{
    D3D12_QUERY_HEAP_DESC query_desc = {D3D12_QUERY_HEAP_TYPE_TIMESTAMP, 2, 0};
    D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 2, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};

    memset(d, 0, sizeof(*d));
    HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&d->device));
    HR(D3D12XSGetDeviceInfo(d->device, &d->info));
    if (validating)
        REQUIRE(d->info.ValidationLayerEnabled, "D3D12XS_DEBUG asks for the validation layer, but it is not on (not installed?)");
    else
        REQUIRE(!d->info.ValidationLayerEnabled, "the validation layer is on (D3D12XS_DEBUG): the figures would be meaningless");
    REQUIRE(d->info.Queues[D3D12_COMMAND_LIST_TYPE_COMPUTE].TimestampsSupported, "the COMPUTE queue has no timestamps");
    bench_d3d_queue_init(d->device, &d->q, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    HR(ID3D12Device_CreateQueryHeap(d->device, &query_desc, &IID_ID3D12QueryHeap, (void **)&d->queries));
    d->query_results = bench_d3d_buffer(d->device, D3D12_HEAP_TYPE_READBACK, 2 * sizeof(UINT64), D3D12_RESOURCE_FLAG_NONE,
            D3D12_RESOURCE_STATE_COPY_DEST);
    HR(ID3D12Device_CreateDescriptorHeap(d->device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&d->views));
    d->signature = d3d_root_signature(d->device);
    d->pipeline = bench_d3d_pipeline(d->device, d->signature, sample_hlsl, NULL);
}

static void d3d_get_footprint(struct d3d *d, struct params *p)
{
    D3D12_RESOURCE_DESC desc = texture_desc(p->size, D3D12_RESOURCE_FLAG_NONE);
    UINT rows;
    UINT64 row_bytes;

    ID3D12Device_GetCopyableFootprints(d->device, &desc, 0, 1, 0, &p->footprint, &rows, &row_bytes, &p->footprint_bytes);
    REQUIRE(p->footprint_bytes != UINT64_MAX && rows == p->size && row_bytes == p->size * 4ull && p->footprint.Footprint.RowPitch % 4 == 0,
            "GetCopyableFootprints: unexpected footprint");
}

/* A buffer laid out as the footprint into the texture, or the other way round (to_texture false). */
static void d3d_copy(ID3D12GraphicsCommandList *list, ID3D12Resource *texture, ID3D12Resource *buffer, const struct params *p,
        bool to_texture)
{
    D3D12_TEXTURE_COPY_LOCATION texture_location, buffer_location;

    memset(&texture_location, 0, sizeof(texture_location));
    texture_location.pResource = texture;
    texture_location.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    memset(&buffer_location, 0, sizeof(buffer_location));
    buffer_location.pResource = buffer;
    buffer_location.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    buffer_location.PlacedFootprint = p->footprint;
    if (to_texture)
        ID3D12GraphicsCommandList_CopyTextureRegion(list, &texture_location, 0, 0, 0, &buffer_location, NULL);
    else
        ID3D12GraphicsCommandList_CopyTextureRegion(list, &buffer_location, 0, 0, 0, &texture_location, NULL);
}

/* The textures and their views; the source gets the pattern through an UPLOAD buffer; untimed. */
static void d3d_setup(struct d3d *d, const struct params *p)
{
    D3D12_CPU_DESCRIPTOR_HANDLE slot = bench_d3d_heap_cpu_start(d->views);
    ID3D12CommandAllocator *allocator;
    ID3D12GraphicsCommandList *list;
    D3D12_RESOURCE_BARRIER barrier;
    ID3D12Resource *upload;
    void *mapped = NULL;

    d->source = d3d_texture(d, p->size, D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_COPY_DEST);
    d->output = d3d_texture(d, p->size, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    ID3D12Device_CreateShaderResourceView(d->device, d->source, NULL, slot);
    slot.ptr += ID3D12Device_GetDescriptorHandleIncrementSize(d->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    ID3D12Device_CreateUnorderedAccessView(d->device, d->output, NULL, NULL, slot);

    upload = bench_d3d_buffer(d->device, D3D12_HEAP_TYPE_UPLOAD, p->footprint_bytes, D3D12_RESOURCE_FLAG_NONE,
            D3D12_RESOURCE_STATE_GENERIC_READ);
    HR(ID3D12Resource_Map(upload, 0, NULL, &mapped));
    fill_pattern(mapped, p->size, p->footprint.Footprint.RowPitch);
    ID3D12Resource_Unmap(upload, 0, NULL);

    bench_d3d_new_list(d->device, d->q.type, &allocator, &list);
    d3d_copy(list, d->source, upload, p, true);
    barrier = bench_d3d_transition(d->source, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE);
    ID3D12GraphicsCommandList_ResourceBarrier(list, 1, &barrier);
    HR(ID3D12GraphicsCommandList_Close(list));
    bench_d3d_execute_and_wait(&d->q, list);
    ID3D12GraphicsCommandList_Release(list);
    ID3D12CommandAllocator_Release(allocator);
    ID3D12Resource_Release(upload);
}

/* The timed list: the bindings, timestamp, DISPATCHES dispatches with a UAV barrier between
 * each two, timestamp, resolve. d3d12xs records the bindings at the first Dispatch, inside the
 * window, as the raw side does. */
static void d3d_build_list(struct d3d *d, const struct params *p)
{
    ID3D12DescriptorHeap *heaps[] = {d->views};
    D3D12_RESOURCE_BARRIER uav;
    ID3D12GraphicsCommandList *list;
    UINT groups = p->size / GROUP_SIZE;

    bench_d3d_new_list(d->device, d->q.type, &d->allocator, &d->list);
    list = d->list;
    memset(&uav, 0, sizeof(uav));
    uav.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
    uav.UAV.pResource = d->output;
    ID3D12GraphicsCommandList_SetDescriptorHeaps(list, 1, heaps);
    ID3D12GraphicsCommandList_SetComputeRootSignature(list, d->signature);
    ID3D12GraphicsCommandList_SetPipelineState(list, d->pipeline);
    ID3D12GraphicsCommandList_SetComputeRoot32BitConstants(list, 0, sizeof(p->constants) / 4, &p->constants, 0);
    ID3D12GraphicsCommandList_SetComputeRootDescriptorTable(list, 1, bench_d3d_heap_gpu_start(d->views));
    ID3D12GraphicsCommandList_EndQuery(list, d->queries, D3D12_QUERY_TYPE_TIMESTAMP, 0);
    for (unsigned i = 0; i < DISPATCHES; i++) {
        if (i)
            ID3D12GraphicsCommandList_ResourceBarrier(list, 1, &uav);
        ID3D12GraphicsCommandList_Dispatch(list, groups, groups, 1);
    }
    ID3D12GraphicsCommandList_EndQuery(list, d->queries, D3D12_QUERY_TYPE_TIMESTAMP, 1);
    ID3D12GraphicsCommandList_ResolveQueryData(list, d->queries, D3D12_QUERY_TYPE_TIMESTAMP, 0, 2, d->query_results, 0);
    HR(ID3D12GraphicsCommandList_Close(list));
}

/* Runs the timed list once; returns the GPU nanoseconds between its timestamps and puts the
 * host's, from ExecuteCommandLists to the end of the wait, in *wall_ns. */
static double d3d_run_timed(struct d3d *d, double *wall_ns)
{
    D3D12_RANGE range = {0, 2 * sizeof(UINT64)};
    UINT64 *ticks = NULL;
    double start = bench_now_ns(), ns;

    bench_d3d_execute_and_wait(&d->q, d->list);
    *wall_ns = bench_now_ns() - start;
    HR(ID3D12Resource_Map(d->query_results, 0, &range, (void **)&ticks));
    ns = (double)(ticks[1] - ticks[0]) * 1e9 / (double)d->q.frequency;
    ID3D12Resource_Unmap(d->query_results, 0, NULL);
    return ns;
}

/* The output into a READBACK buffer laid out as the footprint, checked. */
static void d3d_check(struct d3d *d, const struct params *p)
{
    ID3D12Resource *readback = bench_d3d_buffer(d->device, D3D12_HEAP_TYPE_READBACK, p->footprint_bytes, D3D12_RESOURCE_FLAG_NONE,
            D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12CommandAllocator *allocator;
    ID3D12GraphicsCommandList *list;
    D3D12_RESOURCE_BARRIER barriers[2];
    void *mapped = NULL;

    barriers[0] = bench_d3d_transition(d->output, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
    barriers[1] = bench_d3d_transition(d->output, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    bench_d3d_new_list(d->device, d->q.type, &allocator, &list);
    ID3D12GraphicsCommandList_ResourceBarrier(list, 1, &barriers[0]);
    d3d_copy(list, d->output, readback, p, false);
    ID3D12GraphicsCommandList_ResourceBarrier(list, 1, &barriers[1]);
    HR(ID3D12GraphicsCommandList_Close(list));
    bench_d3d_execute_and_wait(&d->q, list);
    ID3D12GraphicsCommandList_Release(list);
    ID3D12CommandAllocator_Release(allocator);

    HR(ID3D12Resource_Map(readback, 0, NULL, &mapped));
    check_output(mapped, p->size, p->footprint.Footprint.RowPitch, "d3d12xs");
    ID3D12Resource_Unmap(readback, 0, NULL);
    ID3D12Resource_Release(readback);
}

static void d3d_destroy(struct d3d *d)
{
    ID3D12GraphicsCommandList_Release(d->list);
    ID3D12CommandAllocator_Release(d->allocator);
    ID3D12Resource_Release(d->source);
    ID3D12Resource_Release(d->output);
    ID3D12DescriptorHeap_Release(d->views);
    ID3D12PipelineState_Release(d->pipeline);
    ID3D12RootSignature_Release(d->signature);
    ID3D12Resource_Release(d->query_results);
    ID3D12QueryHeap_Release(d->queries);
    bench_d3d_queue_destroy(&d->q);
    ID3D12Device_Release(d->device);
}

/* ======================================================================================= */
/* raw Vulkan side                                                                         */
/* ======================================================================================= */

struct raw_image {
    VkImage image;
    VkDeviceMemory memory;
    VkImageView view;
};

struct raw {
    struct bench_vk vk;
    struct bench_vk_queue q;          /* the compute family's queue, command pool and fence */
    VkQueryPool queries;              /* two */
    struct raw_image source, output;  /* SHADER_READ_ONLY_OPTIMAL; GENERAL */
    VkSampler sampler;                /* immutable in the set layout, as a static sampler is */
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    VkDescriptorPool pool;
    VkDescriptorSet set;              /* written once: the source's view, the output's */
    VkCommandBuffer cmd;              /* the timed one */
};

/* The kernel's SPIR-V with its storage image declared Rgba8, the output's format, as a
 * hand-written program declares it: glslang's HLSL front end infers Rgba32f from float4 (and
 * ignores [[vk::image_format]]), which does not match an RGBA8 view. d3d12xs declares it
 * Unknown (docs/textures.md): a difference between the two sides, in d3d12xs's cost. */
static VkShaderModule raw_shader(const struct raw *r)
{
    enum {OP_TYPE_IMAGE = 25, FORMAT_RGBA32F = 1, FORMAT_RGBA8 = 4, SAMPLED_STORAGE = 2};
    shaderc_compilation_result_t result = bench_spirv(sample_hlsl, false, NULL);
    size_t count = shaderc_result_get_length(result) / 4;
    uint32_t *words = malloc(count * 4);
    unsigned patched = 0;
    VkShaderModule module;

    REQUIRE(words, "out of memory");
    memcpy(words, shaderc_result_get_bytes(result), count * 4);
    shaderc_result_release(result);
    for (size_t i = 5; i < count && words[i] >> 16; i += words[i] >> 16) {
        /* OpTypeImage: result, sampled type, Dim, Depth, Arrayed, MS, Sampled, Format */
        if ((words[i] & 0xffff) == OP_TYPE_IMAGE && (words[i] >> 16) >= 9 && words[i + 7] == SAMPLED_STORAGE
                && words[i + 8] == FORMAT_RGBA32F) {
            words[i + 8] = FORMAT_RGBA8;
            patched++;
        }
    }
    REQUIRE(patched == 1, "the kernel's SPIR-V has %u Rgba32f storage images, expected 1", patched);
    VkShaderModuleCreateInfo info = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = count * 4, .pCode = words};
    VK(vkCreateShaderModule(r->vk.device, &info, NULL, &module));
    free(words);
    return module;
}

/* The sampler, the set layout (sampled image, the sampler immutable, storage image), 12 bytes
 * of push constants and the pipeline (the device's subgroup size, as d3d12xs's Dispatch). */
static void raw_kernel(struct raw *r)
{
    VkSamplerCreateInfo sampler_info = {
        .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
        .magFilter = VK_FILTER_LINEAR,
        .minFilter = VK_FILTER_LINEAR,
        .mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR,
        .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        .addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        .maxLod = VK_LOD_CLAMP_NONE,
    };
    VK(vkCreateSampler(r->vk.device, &sampler_info, NULL, &r->sampler));
    VkDescriptorSetLayoutBinding bindings[3] = {
        {0, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, &r->sampler},
        {2, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    };
    VkDescriptorSetLayoutCreateInfo set_info = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = 3,
            .pBindings = bindings};
    VK(vkCreateDescriptorSetLayout(r->vk.device, &set_info, NULL, &r->set_layout));
    VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(struct constants)};
    VkPipelineLayoutCreateInfo layout_info = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
            .pSetLayouts = &r->set_layout, .pushConstantRangeCount = 1, .pPushConstantRanges = &range};
    VK(vkCreatePipelineLayout(r->vk.device, &layout_info, NULL, &r->layout));
    VkComputePipelineCreateInfo pipeline_info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                .module = raw_shader(r), .pName = "main"},
        .layout = r->layout,
    };
    VK(vkCreateComputePipelines(r->vk.device, VK_NULL_HANDLE, 1, &pipeline_info, NULL, &r->pipeline));
    vkDestroyShaderModule(r->vk.device, pipeline_info.stage.module, NULL);

    VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1}, {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1}};
    VkDescriptorPoolCreateInfo pool_info = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1, .poolSizeCount = 2,
            .pPoolSizes = sizes};
    VK(vkCreateDescriptorPool(r->vk.device, &pool_info, NULL, &r->pool));
    VkDescriptorSetAllocateInfo allocate = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, .descriptorPool = r->pool,
            .descriptorSetCount = 1, .pSetLayouts = &r->set_layout};
    VK(vkAllocateDescriptorSets(r->vk.device, &allocate, &r->set));
}

static void raw_init(struct raw *r)
{
    VkQueryPoolCreateInfo query_info = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, .queryType = VK_QUERY_TYPE_TIMESTAMP,
            .queryCount = 2};
    uint32_t family;

    memset(r, 0, sizeof(*r));
    bench_vk_open(&r->vk, "bench_sample (raw Vulkan)");
    family = bench_vk_compute_family(r->vk.physical_device);
    bench_vk_create_device(&r->vk, &family, 1, &r->q);
    VK(vkCreateQueryPool(r->vk.device, &query_info, NULL, &r->queries));
    raw_kernel(r);
}

/* What a hand-written program makes for a texture it samples or stores to: optimal tiling,
 * exclusive to its one queue family, memory of its own where the driver prefers it, a view. */
static struct raw_image raw_image_create(struct raw *r, uint32_t size, VkImageUsageFlags usage)
{
    struct bench_vk_image image = bench_vk_rgba8_image(&r->vk, size, 1, usage);
    struct raw_image t = {image.image, image.memory, VK_NULL_HANDLE};
    VkImageViewCreateInfo view_info = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, .image = t.image,
            .viewType = VK_IMAGE_VIEW_TYPE_2D, .format = VK_FORMAT_R8G8B8A8_UNORM, .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
    VK(vkCreateImageView(r->vk.device, &view_info, NULL, &t.view));
    return t;
}

static void raw_image_destroy(struct raw *r, struct raw_image *t)
{
    struct bench_vk_image image = {t->image, t->memory};
    vkDestroyImageView(r->vk.device, t->view, NULL);
    bench_vk_free_image(&r->vk, &image);
}

/* Records a layout change of an image. */
static void raw_layout(VkCommandBuffer cmd, const struct raw_image *t, VkImageLayout from, VkImageLayout to,
        VkPipelineStageFlags2 src_stages, VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stages, VkAccessFlags2 dst_access)
{
    VkImageMemoryBarrier2 barrier = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2, .srcStageMask = src_stages,
            .srcAccessMask = src_access, .dstStageMask = dst_stages, .dstAccessMask = dst_access, .oldLayout = from, .newLayout = to,
            .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .image = t->image,
            .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
    VkDependencyInfo dependency = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .imageMemoryBarrierCount = 1, .pImageMemoryBarriers = &barrier};
    vkCmdPipelineBarrier2(cmd, &dependency);
}

/* The buffer <-> image region of the footprint: the d3d12xs side's row pitch. */
static VkBufferImageCopy raw_region(const struct params *p)
{
    return (VkBufferImageCopy){.bufferRowLength = p->footprint.Footprint.RowPitch / 4, .bufferImageHeight = p->size,
            .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, .imageExtent = {p->size, p->size, 1}};
}

/* The images (the source in SHADER_READ_ONLY_OPTIMAL, the output in GENERAL from here on) and
 * the descriptor set; the source gets the pattern through a host-visible staging buffer;
 * untimed. */
static void raw_setup(struct raw *r, const struct params *p)
{
    struct bench_vk_buffer staging = bench_vk_buffer(&r->vk, p->footprint_bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
            VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 0);
    VkBufferImageCopy region = raw_region(p);
    VkCommandBuffer cmd;
    void *mapped;

    r->source = raw_image_create(r, p->size, VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT);
    r->output = raw_image_create(r, p->size, VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_STORAGE_BIT);
    VK(vkMapMemory(r->vk.device, staging.memory, 0, VK_WHOLE_SIZE, 0, &mapped));
    fill_pattern(mapped, p->size, p->footprint.Footprint.RowPitch);
    vkUnmapMemory(r->vk.device, staging.memory);

    cmd = bench_vk_begin(&r->vk, &r->q);
    raw_layout(cmd, &r->source, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_NONE, 0,
            VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    raw_layout(cmd, &r->output, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_NONE, 0,
            VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    vkCmdCopyBufferToImage(cmd, staging.buffer, r->source.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    raw_layout(cmd, &r->source, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT,
            VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
    VK(vkEndCommandBuffer(cmd));
    bench_vk_submit_and_wait(&r->vk, &r->q, cmd);
    vkFreeCommandBuffers(r->vk.device, r->q.pool, 1, &cmd);
    bench_vk_free_buffer(&r->vk, &staging);

    VkDescriptorImageInfo source_info = {VK_NULL_HANDLE, r->source.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    VkDescriptorImageInfo output_info = {VK_NULL_HANDLE, r->output.view, VK_IMAGE_LAYOUT_GENERAL};
    VkWriteDescriptorSet writes[2] = {
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = r->set, .dstBinding = 0, .descriptorCount = 1,
                .descriptorType = VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, .pImageInfo = &source_info},
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = r->set, .dstBinding = 2, .descriptorCount = 1,
                .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, .pImageInfo = &output_info},
    };
    vkUpdateDescriptorSets(r->vk.device, 2, writes, 0, NULL);
}

/* The timed command buffer: a barrier from the previous run (d3d12xs starts each list with
 * one, outside its window too), the queries' reset, timestamp, the bindings (after the
 * timestamp, where d3d12xs binds), DISPATCHES dispatches with a compute -> compute barrier
 * between each two, timestamp. */
static void raw_build_cmd(struct raw *r, const struct params *p)
{
    VkCommandBuffer cmd = r->cmd = bench_vk_begin(&r->vk, &r->q);
    uint32_t groups = p->size / GROUP_SIZE;

    bench_vk_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
            VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
    vkCmdResetQueryPool(cmd, r->queries, 0, 2);
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, r->queries, 0);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->pipeline);
    vkCmdPushConstants(cmd, r->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(p->constants), &p->constants);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->layout, 0, 1, &r->set, 0, NULL);
    for (unsigned i = 0; i < DISPATCHES; i++) {
        if (i)
            bench_vk_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                    VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
        vkCmdDispatch(cmd, groups, groups, 1);
    }
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, r->queries, 1);
    VK(vkEndCommandBuffer(cmd));
}

static double raw_run_timed(struct raw *r, double *wall_ns)
{
    uint64_t ticks[2];
    double start = bench_now_ns();

    bench_vk_submit_and_wait(&r->vk, &r->q, r->cmd);
    *wall_ns = bench_now_ns() - start;
    VK(vkGetQueryPoolResults(r->vk.device, r->queries, 0, 2, sizeof(ticks), ticks, sizeof(uint64_t),
            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    return (double)(ticks[1] - ticks[0]) * (double)r->vk.properties.limits.timestampPeriod;
}

/* The output (in GENERAL) into a host-visible buffer laid out as the footprint, checked. */
static void raw_check(struct raw *r, const struct params *p)
{
    struct bench_vk_buffer staging = bench_vk_buffer(&r->vk, p->footprint_bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
            VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
    VkCommandBuffer cmd = bench_vk_begin(&r->vk, &r->q);
    VkBufferImageCopy region = raw_region(p);
    void *mapped;

    bench_vk_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
            VK_ACCESS_2_TRANSFER_READ_BIT);
    vkCmdCopyImageToBuffer(cmd, r->output.image, VK_IMAGE_LAYOUT_GENERAL, staging.buffer, 1, &region);
    bench_vk_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
            VK_ACCESS_2_HOST_READ_BIT);
    VK(vkEndCommandBuffer(cmd));
    bench_vk_submit_and_wait(&r->vk, &r->q, cmd);
    vkFreeCommandBuffers(r->vk.device, r->q.pool, 1, &cmd);

    VK(vkMapMemory(r->vk.device, staging.memory, 0, VK_WHOLE_SIZE, 0, &mapped));
    check_output(mapped, p->size, p->footprint.Footprint.RowPitch, "raw Vulkan");
    vkUnmapMemory(r->vk.device, staging.memory);
    bench_vk_free_buffer(&r->vk, &staging);
}

static void raw_destroy(struct raw *r)
{
    vkDeviceWaitIdle(r->vk.device);
    raw_image_destroy(r, &r->source);
    raw_image_destroy(r, &r->output);
    vkDestroyDescriptorPool(r->vk.device, r->pool, NULL);
    vkDestroyPipeline(r->vk.device, r->pipeline, NULL);
    vkDestroyPipelineLayout(r->vk.device, r->layout, NULL);
    vkDestroyDescriptorSetLayout(r->vk.device, r->set_layout, NULL);
    vkDestroySampler(r->vk.device, r->sampler, NULL);
    vkDestroyQueryPool(r->vk.device, r->queries, NULL);
    bench_vk_queue_destroy(&r->vk, &r->q);
    bench_vk_destroy(&r->vk);
}

/* ======================================================================================= */
/* the table                                                                               */
/* ======================================================================================= */

enum {FIGURE_GPU, FIGURE_WALL, FIGURE_COUNT};

static void write_tsv(const char *path, const struct bench_row *figures, const struct d3d *d, const struct raw *r, const struct params *p,
        bool validating)
{
    FILE *f = fopen(path, "w");
    REQUIRE(f, "cannot write D3D12XS_BENCH_OUT=%s", path);
    fprintf(f, "# bench_sample\tdevice=%s\tdriver=%s %s\traw_device=%s\tsize=%u\tdispatches=%u\toffset=%.3f,%.3f\treps=%u%s\n",
            d->info.DeviceName, d->info.DriverName, d->info.DriverInfo, r->vk.properties.deviceName, p->size, DISPATCHES,
            (double)sample_offset[0], (double)sample_offset[1], p->reps, validating ? "\tvalidation=on" : "");
    bench_rows_tsv(f, figures, FIGURE_COUNT);
    REQUIRE(fclose(f) == 0, "cannot write D3D12XS_BENCH_OUT=%s", path);
}

/* Both sides run their timed work untimed this long first, so the GPU is at its working clock. */
#define GPU_WARM_UP_NS 1e9

int main(int argc, char **argv)
{
    struct bench_row figures[FIGURE_COUNT] = {
        {.key = "sample_gtexels_per_s", .label = "sample Gtexels/s (GPU timestamps)", .unit = "Gtexels/s",
                .higher_is_better = true, .target = 1.05},
        {.key = "sample_wall_gtexels_per_s", .label = "sample Gtexels/s (execute + wait)", .unit = "Gtexels/s",
                .higher_is_better = true, .target = 1.05},
    };
    /* [0] d3d12xs, [1] raw Vulkan */
    double gpu_samples[2][BENCH_MAX_REPS], wall_samples[2][BENCH_MAX_REPS], texels, wall_ns;
    const char *out = getenv("D3D12XS_BENCH_OUT"), *debug = getenv("D3D12XS_DEBUG");
    /* D3D12XS_DEBUG set to anything but 0: a validation run, the layer kept on. */
    bool validating = debug && *debug && strcmp(debug, "0");
    unsigned long size = 0, reps = 0;
    struct params p;
    struct d3d d;
    struct raw r;

    for (int a = 1; a < argc; a++) {
        if (!strncmp(argv[a], "size=", 5) && (size = strtoul(argv[a] + 5, NULL, 0)) >= 64 && size <= 16384 && size % GROUP_SIZE == 0)
            continue;
        if (!strncmp(argv[a], "reps=", 5) && (reps = strtoul(argv[a] + 5, NULL, 0)) >= 1 && reps <= BENCH_MAX_REPS)
            continue;
        fprintf(stderr, "usage: %s [size=64..16384, a multiple of 8] [reps=1..%d]\n", argv[0], BENCH_MAX_REPS);
        return 2;
    }

    /* No validation layer unless asked for: it would measure itself. */
    if (!validating)
        setenv("D3D12XS_DEBUG", "0", 1);
    setvbuf(stdout, NULL, _IOLBF, 0);

    d3d_init(&d, validating);
    raw_init(&r);
    memset(&p, 0, sizeof(p));
    p.size = (uint32_t)(size ? size : d.info.IsSoftwareRasterizer ? 1024 : 4096);
    p.reps = (unsigned)(reps ? reps : d.info.IsSoftwareRasterizer ? 31 : 15);
    p.constants = (struct constants){{sample_offset[0], sample_offset[1]}, 1.0f / (float)p.size};
    d3d_get_footprint(&d, &p);
    d3d_setup(&d, &p);
    raw_setup(&r, &p);
    texels = (double)p.size * p.size * DISPATCHES;

    printf("d3d12xs device : %s (%s, %s), COMPUTE queue family %u\n", d.info.DeviceName, d.info.DriverName, d.info.DriverInfo,
            d.info.Queues[D3D12_COMMAND_LIST_TYPE_COMPUTE].VulkanQueueFamily);
    printf("raw Vulkan     : %s (%s, %s), queue family %u\n", r.vk.properties.deviceName, r.vk.driver.driverName, r.vk.driver.driverInfo,
            r.q.family);
    if (strcmp(d.info.DeviceName, r.vk.properties.deviceName) || d.info.Queues[D3D12_COMMAND_LIST_TYPE_COMPUTE].VulkanQueueFamily != r.q.family)
        printf("WARNING: the two sides do not run on the same device and queue family\n");
    printf("%u x %u R8G8B8A8_UNORM sampled (bilinear, clamp, offset %.3f, %.3f texels) into a UAV texture of the same size; %u dispatches\n"
           "of %u x %u groups of 8 x 8 per list, UAV barriers between them; %u reps, medians, sides alternating\n", p.size, p.size,
            (double)sample_offset[0], (double)sample_offset[1], DISPATCHES, p.size / GROUP_SIZE, p.size / GROUP_SIZE, p.reps);
    if (validating)
        printf("VALIDATION RUN (D3D12XS_DEBUG=%s): the layer is on, so the figures measure it too; only the checks count\n", debug);

    d3d_build_list(&d, &p);
    raw_build_cmd(&r, &p);
    /* One run of each side (first-use costs), then both for a second, so the GPU is at its clock. */
    d3d_run_timed(&d, &wall_ns);
    raw_run_timed(&r, &wall_ns);
    for (double start = bench_now_ns(); bench_now_ns() - start < GPU_WARM_UP_NS;) {
        d3d_run_timed(&d, &wall_ns);
        raw_run_timed(&r, &wall_ns);
    }
    for (unsigned i = 0; i < p.reps; i++) {
        for (unsigned k = 0; k < 2; k++) {
            if ((i + k) % 2) {
                gpu_samples[1][i] = texels / raw_run_timed(&r, &wall_ns);
                wall_samples[1][i] = texels / wall_ns;
            } else {
                gpu_samples[0][i] = texels / d3d_run_timed(&d, &wall_ns);
                wall_samples[0][i] = texels / wall_ns;
            }
        }
    }
    bench_row_set(&figures[FIGURE_GPU], gpu_samples[0], gpu_samples[1], p.reps);
    bench_row_set(&figures[FIGURE_WALL], wall_samples[0], wall_samples[1], p.reps);

    /* The timed runs' output, each side's own, read back and checked. */
    d3d_check(&d, &p);
    raw_check(&r, &p);

    bench_rows_print(figures, FIGURE_COUNT, 36);
    printf("Gtexels/s: texels sampled and stored (%u dispatches x %u x %u) / time: GPU time between the timestamps around the\n"
           "dispatches, or host time from the submission to the end of the wait; medians. ratio: raw Gtexels/s / d3d12xs Gtexels/s\n"
           "per repetition, the two sides back to back, median over repetitions; above 1 means d3d12xs is slower. med/med: the\n"
           "ratio of the medians. Both sides' outputs were read back after the timed runs and checked against the CPU's filter.\n",
            DISPATCHES, p.size, p.size);
    if (out && *out)
        write_tsv(out, figures, &d, &r, &p, validating);
    if (validating) {
        UINT64 messages = D3D12XSGetValidationMessageCount(d.device);
        REQUIRE(!messages, "the validation layer reported %llu messages on d3d12xs's device (in the log above)", (unsigned long long)messages);
        printf("validation: no messages on d3d12xs's device\n");
    }

    raw_destroy(&r);
    d3d_destroy(&d);
    return 0;
}
