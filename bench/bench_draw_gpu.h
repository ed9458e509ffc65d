/* bench_draw's GPU figures (included by bench_draw.c after its D3D12 and raw sides; d3d12xs
 * build only): one draw between two timestamps, d3d12xs against raw Vulkan rendering into an
 * image in GENERAL and into one in COLOR_ATTACHMENT_OPTIMAL.
 *
 *   fill_*     DrawInstanced(3, layers) of a full-screen triangle (positions from SV_VertexID, a
 *              constant colour of alpha 0.5) into a size x size RGBA8_UNORM or RGBA16_FLOAT
 *              target, blending off or on (SRC_ALPHA, INV_SRC_ALPHA)
 *   vertices   DrawInstanced(3 x triangles, 1) of small triangles (two pixels across) scattered over
 *              an RGBA8 target, a float3 position and an RGBA8_UNORM colour per vertex through an
 *              input layout
 *
 * Both sides compile the same HLSL (D3DCompile; shaderc for raw Vulkan). Each list and command
 * buffer is recorded once and executed for every sample; each side's image is read back after a
 * clear and one run, and the three images must be the same bytes. */
#ifndef BENCH_DRAW_GPU_H
#define BENCH_DRAW_GPU_H

enum gpu_figure { GPU_FILL_RGBA8, GPU_FILL_RGBA8_BLEND, GPU_FILL_RGBA16F, GPU_FILL_RGBA16F_BLEND, GPU_VERTICES, GPU_COUNT };
static const char *const gpu_names[GPU_COUNT] = {"fill_rgba8", "fill_rgba8_blend", "fill_rgba16f", "fill_rgba16f_blend", "vertices"};
static const bool gpu_blend[GPU_COUNT] = {false, true, false, true, false};
static const unsigned gpu_format_index[GPU_COUNT] = {0, 0, 1, 1, 0};
static const DXGI_FORMAT gpu_dxgi_formats[2] = {DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_R16G16B16A16_FLOAT};
static const VkFormat gpu_vk_formats[2] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R16G16B16A16_SFLOAT};
static const uint32_t gpu_pixel_bytes[2] = {4, 8};
static const VkImageLayout gpu_layouts[2] = {VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};

static const char gpu_hlsl[] =
    "float4 vs_fill(uint id : SV_VertexID) : SV_Position\n"
    "{\n"
    "    float2 p = float2((id << 1) & 2, id & 2);\n"
    "    return float4(p * 2.0 - 1.0, 0.0, 1.0);\n"
    "}\n"
    "float4 ps_fill() : SV_Target { return float4(0.25, 0.5, 0.75, 0.5); }\n"
    "struct Varyings { float4 pos : SV_Position; float4 color : COLOR; };\n"
    "Varyings vs_vertices(float3 pos : POSITION, float4 color : COLOR)\n"
    "{\n"
    "    Varyings v;\n"
    "    v.pos = float4(pos, 1.0);\n"
    "    v.color = color;\n"
    "    return v;\n"
    "}\n"
    "float4 ps_vertices(Varyings v) : SV_Target { return v.color; }\n";

struct gpu_vertex {
    float position[3];
    uint32_t color;
};

/* Triangle t: two pixels across around a point scattered over the target (a fixed sequence). */
static struct gpu_vertex *gpu_vertex_data(unsigned triangles, unsigned size)
{
    struct gpu_vertex *v = malloc((size_t)triangles * 3 * sizeof(*v));
    uint32_t seed = 12345;
    float pixel = 2.0f / (float)size;

    REQUIRE(v, "out of memory");
    for (unsigned t = 0; t < triangles; t++) {
        float x, y;
        seed = seed * 1664525u + 1013904223u;
        x = (float)(seed >> 8) / (float)(1u << 24) * 2.0f - 1.0f;
        seed = seed * 1664525u + 1013904223u;
        y = (float)(seed >> 8) / (float)(1u << 24) * 2.0f - 1.0f;
        v[3 * t + 0] = (struct gpu_vertex){{x, y, 0.5f}, seed | 0xff000000u};
        v[3 * t + 1] = (struct gpu_vertex){{x + 2.0f * pixel, y, 0.5f}, seed | 0xff000000u};
        v[3 * t + 2] = (struct gpu_vertex){{x, y + 2.0f * pixel, 0.5f}, seed | 0xff000000u};
    }
    return v;
}

static unsigned gpu_vertex_count(enum gpu_figure figure, const struct sizes *n)
{
    return figure == GPU_VERTICES ? 3 * n->triangles : 3;
}

static unsigned gpu_instance_count(enum gpu_figure figure, const struct sizes *n)
{
    return figure == GPU_VERTICES ? 1 : n->fill_layers;
}

/* ---- d3d12xs ---- */

struct d3d_gpu {
    ID3D12RootSignature *signature;             /* empty, input layouts allowed */
    ID3D12PipelineState *pipelines[GPU_COUNT];
    ID3D12Resource *targets[2], *vertices, *timestamps;
    D3D12_VERTEX_BUFFER_VIEW vertex_view;
    ID3D12QueryHeap *queries;
    ID3D12CommandAllocator *allocators[GPU_COUNT];
    ID3D12GraphicsCommandList *lists[GPU_COUNT];
};

static const D3D12_INPUT_ELEMENT_DESC gpu_elements[2] = {
    {"POSITION", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    {"COLOR", 0, DXGI_FORMAT_R8G8B8A8_UNORM, 0, 12, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
};

/* The figure's state and its draw (no queries): what both the timed list and the check record. */
static void d3d_gpu_draw(struct d3d *d, struct d3d_gpu *g, ID3D12GraphicsCommandList *list, enum gpu_figure figure, const struct sizes *n)
{
    D3D12_VIEWPORT viewport = {0.0f, 0.0f, (float)n->target_size, (float)n->target_size, 0.0f, 1.0f};
    D3D12_RECT scissor = {0, 0, (LONG)n->target_size, (LONG)n->target_size};
    D3D12_CPU_DESCRIPTOR_HANDLE rtv = d3d_rtv(d, 1 + gpu_format_index[figure]);

    ID3D12GraphicsCommandList_SetGraphicsRootSignature(list, g->signature);
    ID3D12GraphicsCommandList_SetPipelineState(list, g->pipelines[figure]);
    ID3D12GraphicsCommandList_IASetPrimitiveTopology(list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    ID3D12GraphicsCommandList_RSSetViewports(list, 1, &viewport);
    ID3D12GraphicsCommandList_RSSetScissorRects(list, 1, &scissor);
    ID3D12GraphicsCommandList_OMSetRenderTargets(list, 1, &rtv, FALSE, NULL);
    if (figure == GPU_VERTICES)
        ID3D12GraphicsCommandList_IASetVertexBuffers(list, 0, 1, &g->vertex_view);
    ID3D12GraphicsCommandList_DrawInstanced(list, gpu_vertex_count(figure, n), gpu_instance_count(figure, n), 0, 0);
}

static void d3d_gpu_init(struct d3d *d, struct d3d_gpu *g, const struct sizes *n)
{
    D3D12_QUERY_HEAP_DESC query_desc = {D3D12_QUERY_HEAP_TYPE_TIMESTAMP, 2 * GPU_COUNT, 0};
    struct bench_bytes vs_fill = hlsl_stage(gpu_hlsl, "vs_fill", "vs_6_0", NULL), ps_fill = hlsl_stage(gpu_hlsl, "ps_fill", "ps_6_0", NULL);
    struct bench_bytes vs_vertices = hlsl_stage(gpu_hlsl, "vs_vertices", "vs_6_0", NULL);
    struct bench_bytes ps_vertices = hlsl_stage(gpu_hlsl, "ps_vertices", "ps_6_0", NULL);
    struct gpu_vertex *vertices = gpu_vertex_data(n->triangles, n->target_size);

    memset(g, 0, sizeof(*g));
    g->signature = d3d_root_signature(d->device, NULL, 0);
    for (unsigned f = 0; f < GPU_COUNT; f++) {
        bool vertex_figure = f == GPU_VERTICES;
        D3D12_GRAPHICS_PIPELINE_STATE_DESC desc = d3d_graphics_desc(g->signature, vertex_figure ? &vs_vertices : &vs_fill,
                vertex_figure ? &ps_vertices : &ps_fill, gpu_dxgi_formats[gpu_format_index[f]], gpu_blend[f], vertex_figure ? gpu_elements : NULL,
                vertex_figure ? 2 : 0);
        g->pipelines[f] = d3d_create_graphics(d->device, &desc);
    }
    for (unsigned i = 0; i < 2; i++)
        g->targets[i] = d3d_target(d, gpu_dxgi_formats[i], n->target_size, 1 + i);
    g->vertices = d3d_filled_buffer(d, vertices, (UINT64)n->triangles * 3 * sizeof(*vertices), D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER);
    g->vertex_view = (D3D12_VERTEX_BUFFER_VIEW){ID3D12Resource_GetGPUVirtualAddress(g->vertices), n->triangles * 3 * sizeof(*vertices),
            sizeof(*vertices)};
    HR(ID3D12Device_CreateQueryHeap(d->device, &query_desc, &IID_ID3D12QueryHeap, (void **)&g->queries));
    g->timestamps = bench_d3d_buffer(d->device, D3D12_HEAP_TYPE_READBACK, 2 * GPU_COUNT * sizeof(UINT64), D3D12_RESOURCE_FLAG_NONE,
            D3D12_RESOURCE_STATE_COPY_DEST);
    /* each figure's list: its draw between two timestamps, recorded once */
    for (unsigned f = 0; f < GPU_COUNT; f++) {
        bench_d3d_new_list(d->device, D3D12_COMMAND_LIST_TYPE_DIRECT, &g->allocators[f], &g->lists[f]);
        ID3D12GraphicsCommandList_EndQuery(g->lists[f], g->queries, D3D12_QUERY_TYPE_TIMESTAMP, 2 * f);
        d3d_gpu_draw(d, g, g->lists[f], (enum gpu_figure)f, n);
        ID3D12GraphicsCommandList_EndQuery(g->lists[f], g->queries, D3D12_QUERY_TYPE_TIMESTAMP, 2 * f + 1);
        ID3D12GraphicsCommandList_ResolveQueryData(g->lists[f], g->queries, D3D12_QUERY_TYPE_TIMESTAMP, 2 * f, 2, g->timestamps,
                2 * f * sizeof(UINT64));
        HR(ID3D12GraphicsCommandList_Close(g->lists[f]));
    }
    free(vertices);
    free(vs_fill.data);
    free(ps_fill.data);
    free(vs_vertices.data);
    free(ps_vertices.data);
}

static void d3d_gpu_destroy(struct d3d_gpu *g)
{
    for (unsigned f = 0; f < GPU_COUNT; f++) {
        ID3D12GraphicsCommandList_Release(g->lists[f]);
        ID3D12CommandAllocator_Release(g->allocators[f]);
        ID3D12PipelineState_Release(g->pipelines[f]);
    }
    ID3D12Resource_Release(g->timestamps);
    ID3D12QueryHeap_Release(g->queries);
    ID3D12Resource_Release(g->vertices);
    for (unsigned i = 0; i < 2; i++)
        ID3D12Resource_Release(g->targets[i]);
    ID3D12RootSignature_Release(g->signature);
}

/* us of the figure's draw: one execution of its list. */
static double d3d_gpu_sample(struct d3d *d, struct d3d_gpu *g, enum gpu_figure figure)
{
    D3D12_RANGE range = {2 * figure * sizeof(UINT64), (2 * figure + 2) * sizeof(UINT64)};
    const UINT64 *ticks = NULL;
    double us;

    d3d_execute_and_wait(d, g->lists[figure], "a GPU figure's draw");
    HR(ID3D12Resource_Map(g->timestamps, 0, &range, (void **)&ticks));
    us = (double)(ticks[2 * figure + 1] - ticks[2 * figure]) / (double)d->q.frequency * 1e6;
    ID3D12Resource_Unmap(g->timestamps, 0, NULL);
    return us;
}

/* The figure's image after a clear and one draw, as bytes (free() them). */
static uint8_t *d3d_gpu_image(struct d3d *d, struct d3d_gpu *g, enum gpu_figure figure, const struct sizes *n)
{
    static const float zeros[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    unsigned format = gpu_format_index[figure];
    size_t bytes = (size_t)n->target_size * n->target_size * gpu_pixel_bytes[format];
    ID3D12CommandAllocator *allocator;
    ID3D12GraphicsCommandList *list;
    ID3D12Resource *readback;
    uint8_t *copy = malloc(bytes);
    void *mapped = NULL;

    REQUIRE(copy, "out of memory");
    bench_d3d_new_list(d->device, D3D12_COMMAND_LIST_TYPE_DIRECT, &allocator, &list);
    ID3D12GraphicsCommandList_ClearRenderTargetView(list, d3d_rtv(d, 1 + format), zeros, 0, NULL);
    d3d_gpu_draw(d, g, list, figure, n);
    readback = d3d_read_target(d, list, g->targets[format], gpu_dxgi_formats[format], n->target_size, gpu_pixel_bytes[format]);
    HR(ID3D12GraphicsCommandList_Close(list));
    d3d_execute_and_wait(d, list, "a GPU figure's check");
    HR(ID3D12Resource_Map(readback, 0, NULL, &mapped));
    memcpy(copy, mapped, bytes);
    ID3D12Resource_Unmap(readback, 0, NULL);
    ID3D12Resource_Release(readback);
    ID3D12GraphicsCommandList_Release(list);
    ID3D12CommandAllocator_Release(allocator);
    return copy;
}

/* ---- raw Vulkan ---- */

struct raw_gpu {
    VkPipeline pipelines[GPU_COUNT];
    struct raw_target targets[2][2];            /* [format][GENERAL, COLOR_ATTACHMENT_OPTIMAL] */
    struct bench_vk_buffer vertices;
    VkQueryPool queries;                        /* two per figure and layout */
    VkCommandBuffer timed[GPU_COUNT][2];
};

static void raw_gpu_draw(struct raw *r, struct raw_gpu *g, VkCommandBuffer cmd, enum gpu_figure figure, unsigned layout, const struct sizes *n)
{
    raw_begin_pass(cmd, &g->targets[gpu_format_index[figure]][layout], g->pipelines[figure]);
    if (figure == GPU_VERTICES)
        raw_bind_vertices(cmd, g->vertices.buffer, 0, (VkDeviceSize)n->triangles * 3 * sizeof(struct gpu_vertex), sizeof(struct gpu_vertex));
    vkCmdDraw(cmd, gpu_vertex_count(figure, n), gpu_instance_count(figure, n), 0, 0);
    vkCmdEndRendering(cmd);
    (void)r;
}

static void raw_gpu_init(struct raw *r, struct raw_gpu *g, const struct sizes *n)
{
    static const VkVertexInputAttributeDescription attributes[2] = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0}, {1, 0, VK_FORMAT_R8G8B8A8_UNORM, 12}};
    /* each entry point renamed main, the name the pipelines give */
    static const char *const entries[4][3] = {{"vs_fill", "main", NULL}, {"ps_fill", "main", NULL}, {"vs_vertices", "main", NULL},
            {"ps_vertices", "main", NULL}};
    struct bench_bytes code[4] = {
        raw_spirv(gpu_hlsl, false, shaderc_vertex_shader, "main", entries[0]),
        raw_spirv(gpu_hlsl, false, shaderc_fragment_shader, "main", entries[1]),
        raw_spirv(gpu_hlsl, false, shaderc_vertex_shader, "main", entries[2]),
        raw_spirv(gpu_hlsl, false, shaderc_fragment_shader, "main", entries[3]),
    };
    VkShaderModule modules[4];
    struct gpu_vertex *vertices = gpu_vertex_data(n->triangles, n->target_size);
    VkQueryPoolCreateInfo query_info = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, .queryType = VK_QUERY_TYPE_TIMESTAMP,
            .queryCount = 4 * GPU_COUNT};

    memset(g, 0, sizeof(*g));
    for (unsigned i = 0; i < 4; i++) {
        modules[i] = raw_module(r, &code[i]);
        free(code[i].data);
    }
    for (unsigned f = 0; f < GPU_COUNT; f++) {
        bool vertex_figure = f == GPU_VERTICES;
        g->pipelines[f] = raw_graphics_pipeline(r, r->empty_layout, modules[vertex_figure ? 2 : 0], modules[vertex_figure ? 3 : 1],
                gpu_vk_formats[gpu_format_index[f]], gpu_blend[f], sizeof(struct gpu_vertex), vertex_figure ? attributes : NULL,
                vertex_figure ? 2 : 0);
    }
    for (unsigned i = 0; i < 4; i++)
        vkDestroyShaderModule(r->vk.device, modules[i], NULL);
    for (unsigned format = 0; format < 2; format++)
        for (unsigned layout = 0; layout < 2; layout++) {
            g->targets[format][layout] = raw_target(r, gpu_vk_formats[format], gpu_pixel_bytes[format], n->target_size, gpu_layouts[layout]);
            raw_initial_layout(r, &g->targets[format][layout]);
        }
    g->vertices = raw_filled_buffer(r, vertices, (VkDeviceSize)n->triangles * 3 * sizeof(*vertices), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
            VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT, VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT);
    free(vertices);
    VK(vkCreateQueryPool(r->vk.device, &query_info, NULL, &g->queries));
    /* Each command buffer: a barrier from the previous run's colour writes (d3d12xs begins every
     * list with a full barrier), then the draw between two timestamps. */
    for (unsigned f = 0; f < GPU_COUNT; f++)
        for (unsigned layout = 0; layout < 2; layout++) {
            uint32_t first = 4 * f + 2 * layout;
            VkCommandBuffer cmd = g->timed[f][layout] = bench_vk_begin(&r->vk, &r->q);
            bench_vk_barrier(cmd, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                    VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
            vkCmdResetQueryPool(cmd, g->queries, first, 2);
            vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, g->queries, first);
            raw_gpu_draw(r, g, cmd, (enum gpu_figure)f, layout, n);
            vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, g->queries, first + 1);
            VK(vkEndCommandBuffer(cmd));
        }
}

static void raw_gpu_destroy(struct raw *r, struct raw_gpu *g)
{
    for (unsigned f = 0; f < GPU_COUNT; f++) {
        vkFreeCommandBuffers(r->vk.device, r->q.pool, 2, g->timed[f]);
        vkDestroyPipeline(r->vk.device, g->pipelines[f], NULL);
    }
    vkDestroyQueryPool(r->vk.device, g->queries, NULL);
    bench_vk_free_buffer(&r->vk, &g->vertices);
    for (unsigned format = 0; format < 2; format++)
        for (unsigned layout = 0; layout < 2; layout++)
            raw_free_target(r, &g->targets[format][layout]);
}

static double raw_gpu_sample(struct raw *r, struct raw_gpu *g, enum gpu_figure figure, unsigned layout)
{
    uint64_t ticks[2];
    bench_vk_submit_and_wait(&r->vk, &r->q, g->timed[figure][layout]);
    VK(vkGetQueryPoolResults(r->vk.device, g->queries, 4 * figure + 2 * layout, 2, sizeof(ticks), ticks, sizeof(ticks[0]),
            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    return (double)(ticks[1] - ticks[0]) * r->vk.properties.limits.timestampPeriod / 1e3;
}

/* The raw twin of d3d_gpu_image, in one of the two layouts. */
static uint8_t *raw_gpu_image(struct raw *r, struct raw_gpu *g, enum gpu_figure figure, unsigned layout, const struct sizes *n)
{
    const struct raw_target *t = &g->targets[gpu_format_index[figure]][layout];
    VkImageLayout clear_layout = t->layout == VK_IMAGE_LAYOUT_GENERAL ? VK_IMAGE_LAYOUT_GENERAL : VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    VkImageSubresourceRange range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkClearColorValue zeros;
    size_t bytes = (size_t)t->size * t->size * t->pixel_bytes;
    VkCommandBuffer cmd = bench_vk_begin(&r->vk, &r->q);
    struct bench_vk_buffer staging;
    uint8_t *copy = malloc(bytes);
    void *mapped;

    REQUIRE(copy, "out of memory");
    memset(&zeros, 0, sizeof(zeros));
    raw_image_barrier(cmd, t, t->layout, clear_layout, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
            VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    vkCmdClearColorImage(cmd, t->image, clear_layout, &zeros, 1, &range);
    raw_image_barrier(cmd, t, clear_layout, t->layout, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
            VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    raw_gpu_draw(r, g, cmd, figure, layout, n);
    staging = raw_record_read_target(r, cmd, t);
    VK(vkEndCommandBuffer(cmd));
    bench_vk_submit_and_wait(&r->vk, &r->q, cmd);
    vkFreeCommandBuffers(r->vk.device, r->q.pool, 1, &cmd);
    VK(vkMapMemory(r->vk.device, staging.memory, 0, VK_WHOLE_SIZE, 0, &mapped));
    memcpy(copy, mapped, bytes);
    bench_vk_free_buffer(&r->vk, &staging);
    return copy;
}

/* ---- measuring ---- */

/* Samples of one figure: [0] d3d12xs, [1] raw GENERAL, [2] raw COLOR_ATTACHMENT_OPTIMAL. */
struct gpu_samples {
    double us[3][BENCH_MAX_REPS];
    unsigned count;
};

/* Checks the three images of a figure (the same bytes, and not all zero), then one untimed run per
 * side and n->gpu_reps timed ones, the order of the three sides rotating. */
static void measure_gpu_figure(struct d3d *d, struct d3d_gpu *dg, struct raw *r, struct raw_gpu *rg, enum gpu_figure figure,
        const struct sizes *n, struct gpu_samples *s)
{
    size_t bytes = (size_t)n->target_size * n->target_size * gpu_pixel_bytes[gpu_format_index[figure]];
    uint8_t *images[3] = {d3d_gpu_image(d, dg, figure, n), raw_gpu_image(r, rg, figure, 0, n), raw_gpu_image(r, rg, figure, 1, n)};
    size_t nonzero = 0;

    for (size_t i = 0; i < bytes; i++)
        nonzero += images[0][i] != 0;
    REQUIRE(nonzero, "%s: d3d12xs's image is empty", gpu_names[figure]);
    for (unsigned side = 1; side < 3; side++)
        for (size_t i = 0; i < bytes; i++)
            REQUIRE(images[0][i] == images[side][i], "%s: byte %zu of d3d12xs's image is 0x%02x, raw Vulkan's (%s) 0x%02x", gpu_names[figure], i,
                    images[0][i], side == 1 ? "GENERAL" : "COLOR_ATTACHMENT_OPTIMAL", images[side][i]);
    for (unsigned side = 0; side < 3; side++)
        free(images[side]);

    d3d_gpu_sample(d, dg, figure);
    raw_gpu_sample(r, rg, figure, 0);
    raw_gpu_sample(r, rg, figure, 1);
    s->count = n->gpu_reps;
    for (unsigned i = 0; i < n->gpu_reps; i++)
        for (unsigned k = 0; k < 3; k++) {
            unsigned side = (i + k) % 3;
            s->us[side][i] = side ? raw_gpu_sample(r, rg, figure, side - 1) : d3d_gpu_sample(d, dg, figure);
        }
}

#endif
