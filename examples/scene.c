/* A rendered scene, graded on the async compute queue, the console way, written to a PNG:
 *  - the DIRECT queue draws 300 instanced opaque diamonds at different depths into an RGBA16F
 *    render target with a D32 depth buffer, then a translucent, alpha-blended layer of glass
 *    panes (depth-tested, not depth-written, so some diamonds show through them and some in
 *    front); the input layout has two slots (the diamond's corners per vertex, its centre,
 *    axis, depth and colour per instance), root constants move the scene in the vertex shader
 *    and a constant buffer view tints and fogs it in the pixel shader;
 *  - mid-list it publishes the frame number with a bottom-of-pipe write, and the COMPUTE queue,
 *    which waited mid-list for it, grades the frame with DispatchX (exposure, a tone curve, a
 *    vignette and a colour grade) into a UAV texture and publishes the frame number in turn;
 *  - the DIRECT list, mid-list again, waits for that (Wait64BitValueX) and copies the result
 *    to a READBACK buffer.
 * FRAMES frames animate the scene; every pixel of the last is checked against a CPU reference
 * (a small rasterizer following D3D's rules) and it is written as a PNG (argument 1, default
 * build/scene.png). */
#include <math.h>
#include <png.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <d3d12_xs.h>
#include <d3dcompiler.h>

#define WIDTH 512
#define HEIGHT 384
#define FRAMES 4
#define DIAMONDS 300
#define PANES 5
#define INSTANCES (DIAMONDS + PANES)
#define ROW_PITCH (WIDTH * 4) /* the graded RGBA8 image: 2048, a multiple of 256 as copies want */

#define CHECK_HR(expr) do { HRESULT hr_ = (expr); if (FAILED(hr_)) { fprintf(stderr, "scene: %s failed: 0x%08x\n", #expr, (unsigned)hr_); exit(1); } } while (0)

/* Positions are in pixels, all multiples of 1/16 (the corners are centre +- axis, exact in
 * float), so the rasterizer's fixed-point vertices are exactly the CPU reference's. */
static const char scene_shader[] =
    "cbuffer Frame : register(b0) { float2 offset; float2 to_ndc; };\n"  /* root constants */
    "cbuffer Look : register(b1) { float4 tint; float4 fog; };\n"        /* the CBV */
    "struct V { float4 pos : SV_Position; nointerpolation float4 color : COLOR; nointerpolation float depth : FOG; };\n"
    "V vs(float2 corner : CORNER, float2 center : CENTER, float2 axis : AXIS, float depth : DEPTH, float4 color : COLOR)\n"
    "{\n"
    "    float2 p = center + corner.x * axis + corner.y * float2(-axis.y, axis.x) + offset;\n"
    "    V o;\n"
    "    o.pos = float4(p.x * to_ndc.x - 1.0, 1.0 - p.y * to_ndc.y, depth, 1.0);\n"
    "    o.color = color;\n"
    "    o.depth = depth;\n"
    "    return o;\n"
    "}\n"
    "float4 ps(V i) : SV_Target\n"
    "{\n"
    "    return float4(lerp(i.color.rgb * tint.rgb, fog.rgb, saturate(i.depth * fog.a)), i.color.a);\n"
    "}\n";

static const char grade_shader[] =
    "cbuffer Grade : register(b0) { float exposure; float vignette; float2 size; };\n"
    "Texture2D<float4> frame : register(t0);\n"
    "RWTexture2D<float4> graded : register(u0);\n"
    "[numthreads(8, 8, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID)\n"
    "{\n"
    "    float3 c = frame.Load(int3(id.xy, 0)).rgb * exposure;\n"
    "    c = c / (c + 0.6) * 1.6;\n"
    "    float2 d = (float2(id.xy) + 0.5) / size - 0.5;\n"
    "    c *= saturate(1.0 - dot(d, d) * vignette);\n"
    "    c = float3(dot(c, float3(0.9, 0.1, 0.0)), dot(c, float3(0.05, 0.85, 0.1)), dot(c, float3(0.0, 0.15, 0.85)))\n"
    "            + float3(0.02, 0.01, 0.04);\n"
    "    graded[id.xy] = float4(saturate(c), 1.0);\n"
    "}\n";

/* The two vertex buffer slots. */
static const float corners[4][2] = {{1, 0}, {0, 1}, {0, -1}, {-1, 0}}; /* a strip: two triangles */
struct instance {
    float center[2], axis[2], depth;
    uint8_t color[4];
};
struct look { float tint[4], fog[4]; };
static const struct look look = {{1.3f, 1.25f, 1.2f, 1.0f}, {0.05f, 0.06f, 0.12f, 0.9f}}; /* far things fade into the night */
static const float clear_color[4] = {0.05f, 0.06f, 0.10f, 1.0f};

struct gpu {
    ID3D12Device *device;
    ID3D12CommandQueue *direct, *compute;
    ID3D12RootSignature *draw_signature, *grade_signature;
    ID3D12PipelineState *opaque, *glass, *grade;
    ID3D12DescriptorHeap *heap, *rtv_heap, *dsv_heap;
    ID3D12CommandAllocator *allocators[2];
    ID3D12GraphicsCommandList *lists[2]; /* DIRECT, COMPUTE */
    ID3D12Fence *fences[2];
    ID3D12Resource *target, *depth, *graded, *vertices, *look, *readback;
};

static unsigned random_state = 12345;
static float random_unit(void) /* deterministic, so every run draws the same scene */
{
    random_state = random_state * 1664525u + 1013904223u;
    return (random_state >> 8) / 16777216.0f;
}
static float sixteenths(float value) { return floorf(value * 16.0f) / 16.0f; }

static void make_instances(struct instance *instances)
{
    for (int i = 0; i < INSTANCES; i++) {
        struct instance *in = &instances[i];
        bool pane = i >= DIAMONDS;
        float size = pane ? 60.0f + 30.0f * random_unit() : 6.0f + 20.0f * random_unit(), angle = 6.2831853f * random_unit();
        float hue = random_unit() * 6.0f, h = hue - floorf(hue);
        int sector = (int)hue;
        float rgb[6][3] = {{1, h, 0}, {1 - h, 1, 0}, {0, 1, h}, {0, 1 - h, 1}, {h, 0, 1}, {1, 0, 1 - h}};
        /* everything stays inside the target in every frame: no clipping to model */
        in->center[0] = sixteenths(pane ? 140.0f + i % PANES * 60.0f : 60.0f + random_unit() * (WIDTH - 150.0f));
        in->center[1] = sixteenths(pane ? 140.0f + (i % 2) * 100.0f : 60.0f + random_unit() * (HEIGHT - 140.0f));
        in->axis[0] = sixteenths(size * cosf(angle));
        in->axis[1] = sixteenths(size * sinf(angle));
        /* the panes stand in the middle of the diamonds' depths */
        in->depth = pane ? 0.45f + 0.02f * (i - DIAMONDS) : 0.05f + 0.9f * random_unit();
        const float glass[3] = {0.55f, 0.8f, 1.0f};
        for (int c = 0; c < 3; c++)
            in->color[c] = (uint8_t)lrintf((pane ? glass[c] : 0.1f + 0.9f * rgb[sector % 6][c]) * 255.0f);
        in->color[3] = pane ? 100 : 255; /* the panes are translucent */
    }
}

static ID3D12Resource *resource(struct gpu *g, D3D12_HEAP_TYPE type, const D3D12_RESOURCE_DESC *desc, D3D12_RESOURCE_STATES state,
        const D3D12_CLEAR_VALUE *clear)
{
    D3D12_HEAP_PROPERTIES heap = {type, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    ID3D12Resource *created;
    CHECK_HR(ID3D12Device_CreateCommittedResource(g->device, &heap, D3D12_HEAP_FLAG_NONE, desc, state, clear, &IID_ID3D12Resource,
            (void **)&created));
    return created;
}

static ID3D12Resource *texture(struct gpu *g, DXGI_FORMAT format, D3D12_RESOURCE_FLAGS flags, D3D12_RESOURCE_STATES state)
{
    D3D12_RESOURCE_DESC desc = {D3D12_RESOURCE_DIMENSION_TEXTURE2D, 0, WIDTH, HEIGHT, 1, 1, format, {1, 0}, D3D12_TEXTURE_LAYOUT_UNKNOWN, flags};
    return resource(g, D3D12_HEAP_TYPE_DEFAULT, &desc, state, NULL);
}

static ID3D12Resource *buffer(struct gpu *g, D3D12_HEAP_TYPE type, UINT64 size, D3D12_RESOURCE_STATES state, const void *data)
{
    D3D12_RESOURCE_DESC desc = {D3D12_RESOURCE_DIMENSION_BUFFER, 0, size, 1, 1, 1, DXGI_FORMAT_UNKNOWN, {1, 0}, D3D12_TEXTURE_LAYOUT_ROW_MAJOR,
            D3D12_RESOURCE_FLAG_NONE};
    ID3D12Resource *created = resource(g, type, &desc, state, NULL);
    void *mapped;
    if (data) {
        CHECK_HR(ID3D12Resource_Map(created, 0, NULL, &mapped));
        memcpy(mapped, data, size);
        ID3D12Resource_Unmap(created, 0, NULL);
    }
    return created;
}

static ID3DBlob *compile(const char *source, const char *entry, const char *target)
{
    ID3DBlob *code = NULL, *errors = NULL;
    if (FAILED(D3DCompile(source, strlen(source), "scene.hlsl", NULL, NULL, entry, target, 0, 0, &code, &errors))) {
        fprintf(stderr, "scene: %s\n", errors ? (const char *)ID3D10Blob_GetBufferPointer(errors) : "D3DCompile failed");
        exit(1);
    }
    return code;
}

static ID3D12RootSignature *root_signature(struct gpu *g, const D3D12_ROOT_PARAMETER1 *parameters, D3D12_ROOT_SIGNATURE_FLAGS flags)
{
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc = {.Version = D3D_ROOT_SIGNATURE_VERSION_1_1,
            .Desc_1_1 = {.NumParameters = 2, .pParameters = parameters, .Flags = flags}};
    ID3D12RootSignature *signature;
    ID3DBlob *blob;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&desc, &blob, NULL));
    CHECK_HR(ID3D12Device_CreateRootSignature(g->device, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
            &IID_ID3D12RootSignature, (void **)&signature));
    ID3D10Blob_Release(blob);
    return signature;
}

static void create_pipelines(struct gpu *g)
{
    static const D3D12_INPUT_ELEMENT_DESC layout[] = {
        {"CORNER", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
        {"CENTER", 0, DXGI_FORMAT_R32G32_FLOAT, 1, 0, D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA, 1},
        {"AXIS", 0, DXGI_FORMAT_R32G32_FLOAT, 1, 8, D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA, 1},
        {"DEPTH", 0, DXGI_FORMAT_R32_FLOAT, 1, 16, D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA, 1},
        {"COLOR", 0, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 20, D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA, 1},
    };
    D3D12_DESCRIPTOR_RANGE1 cbv = {D3D12_DESCRIPTOR_RANGE_TYPE_CBV, 1, 1, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 0};
    D3D12_DESCRIPTOR_RANGE1 views[2] = {
        {D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 1, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 0},
        {D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 1, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 1},
    };
    D3D12_ROOT_PARAMETER1 parameters[2] = {
        {D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS, .Constants = {0, 0, 4}, .ShaderVisibility = D3D12_SHADER_VISIBILITY_VERTEX},
        {D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE, .DescriptorTable = {1, &cbv}, .ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL},
    };
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    D3D12_COMPUTE_PIPELINE_STATE_DESC compute;
    ID3DBlob *vs = compile(scene_shader, "vs", "vs_6_0"), *ps = compile(scene_shader, "ps", "ps_6_0"), *cs;

    g->draw_signature = root_signature(g, parameters, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT);
    memset(&desc, 0, sizeof(desc));
    desc.pRootSignature = g->draw_signature;
    desc.VS = (D3D12_SHADER_BYTECODE){ID3D10Blob_GetBufferPointer(vs), ID3D10Blob_GetBufferSize(vs)};
    desc.PS = (D3D12_SHADER_BYTECODE){ID3D10Blob_GetBufferPointer(ps), ID3D10Blob_GetBufferSize(ps)};
    desc.BlendState.RenderTarget[0] = (D3D12_RENDER_TARGET_BLEND_DESC){FALSE, FALSE, D3D12_BLEND_ONE, D3D12_BLEND_ZERO, D3D12_BLEND_OP_ADD,
            D3D12_BLEND_ONE, D3D12_BLEND_ZERO, D3D12_BLEND_OP_ADD, D3D12_LOGIC_OP_NOOP, D3D12_COLOR_WRITE_ENABLE_ALL};
    desc.SampleMask = UINT32_MAX;
    desc.RasterizerState = (D3D12_RASTERIZER_DESC){.FillMode = D3D12_FILL_MODE_SOLID, .CullMode = D3D12_CULL_MODE_NONE, .DepthClipEnable = TRUE};
    desc.DepthStencilState = (D3D12_DEPTH_STENCIL_DESC){.DepthEnable = TRUE, .DepthWriteMask = D3D12_DEPTH_WRITE_MASK_ALL,
            .DepthFunc = D3D12_COMPARISON_FUNC_LESS};
    desc.InputLayout = (D3D12_INPUT_LAYOUT_DESC){layout, 5};
    desc.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
    desc.NumRenderTargets = 1;
    desc.RTVFormats[0] = DXGI_FORMAT_R16G16B16A16_FLOAT;
    desc.DSVFormat = DXGI_FORMAT_D32_FLOAT;
    desc.SampleDesc.Count = 1;
    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(g->device, &desc, &IID_ID3D12PipelineState, (void **)&g->opaque));
    /* The glass: blended over what is behind it, hidden by what is in front, writing no depth. */
    desc.BlendState.RenderTarget[0].BlendEnable = TRUE;
    desc.BlendState.RenderTarget[0].SrcBlend = D3D12_BLEND_SRC_ALPHA;
    desc.BlendState.RenderTarget[0].DestBlend = D3D12_BLEND_INV_SRC_ALPHA;
    desc.DepthStencilState.DepthWriteMask = D3D12_DEPTH_WRITE_MASK_ZERO;
    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(g->device, &desc, &IID_ID3D12PipelineState, (void **)&g->glass));

    parameters[0].ShaderVisibility = parameters[1].ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
    parameters[1].DescriptorTable = (D3D12_ROOT_DESCRIPTOR_TABLE1){2, views};
    g->grade_signature = root_signature(g, parameters, D3D12_ROOT_SIGNATURE_FLAG_NONE);
    cs = compile(grade_shader, "main", "cs_6_0");
    memset(&compute, 0, sizeof(compute));
    compute.pRootSignature = g->grade_signature;
    compute.CS = (D3D12_SHADER_BYTECODE){ID3D10Blob_GetBufferPointer(cs), ID3D10Blob_GetBufferSize(cs)};
    CHECK_HR(ID3D12Device_CreateComputePipelineState(g->device, &compute, &IID_ID3D12PipelineState, (void **)&g->grade));
    ID3D10Blob_Release(vs);
    ID3D10Blob_Release(ps);
    ID3D10Blob_Release(cs);
}

static void init(struct gpu *g, const struct instance *instances)
{
    D3D12XBOX_COMMAND_QUEUE_DESC direct = {D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_QUEUE_FLAG_NONE, 0, 0};
    D3D12XBOX_COMMAND_QUEUE_DESC compute = {D3D12_COMMAND_LIST_TYPE_COMPUTE, D3D12_COMMAND_QUEUE_FLAG_NONE, 0, 0};
    D3D12_DESCRIPTOR_HEAP_DESC heaps[3] = {{D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 3, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0},
            {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, 0, 0}, {D3D12_DESCRIPTOR_HEAP_TYPE_DSV, 1, 0, 0}};
    D3D12_CPU_DESCRIPTOR_HANDLE cpu;
    D3D12_CONSTANT_BUFFER_VIEW_DESC cbv;
    UINT increment;
    char vertex_data[sizeof(corners) + sizeof(struct instance) * INSTANCES];

    memset(g, 0, sizeof(*g));
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&g->device));
    CHECK_HR(ID3D12Device_CreateCommandQueueX(g->device, &direct, &IID_ID3D12CommandQueue, (void **)&g->direct));
    CHECK_HR(ID3D12Device_CreateCommandQueueX(g->device, &compute, &IID_ID3D12CommandQueue, (void **)&g->compute));
    ID3D12CommandQueue_SetName(g->direct, L"gfx");
    ID3D12CommandQueue_SetName(g->compute, L"async compute");
    create_pipelines(g);
    for (int i = 0; i < 2; i++) {
        D3D12_COMMAND_LIST_TYPE type = i ? D3D12_COMMAND_LIST_TYPE_COMPUTE : D3D12_COMMAND_LIST_TYPE_DIRECT;
        CHECK_HR(ID3D12Device_CreateCommandAllocator(g->device, type, &IID_ID3D12CommandAllocator, (void **)&g->allocators[i]));
        CHECK_HR(ID3D12Device_CreateCommandList(g->device, 0, type, g->allocators[i], NULL, &IID_ID3D12GraphicsCommandList, (void **)&g->lists[i]));
        CHECK_HR(ID3D12GraphicsCommandList_Close(g->lists[i]));
        CHECK_HR(ID3D12Device_CreateFence(g->device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&g->fences[i]));
    }

    g->target = texture(g, DXGI_FORMAT_R16G16B16A16_FLOAT, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET, D3D12_RESOURCE_STATE_RENDER_TARGET);
    g->depth = texture(g, DXGI_FORMAT_D32_FLOAT, D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL, D3D12_RESOURCE_STATE_DEPTH_WRITE);
    g->graded = texture(g, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    /* Both slots in one UPLOAD buffer: the corners, then the instances. */
    memcpy(vertex_data, corners, sizeof(corners));
    memcpy(vertex_data + sizeof(corners), instances, sizeof(struct instance) * INSTANCES);
    g->vertices = buffer(g, D3D12_HEAP_TYPE_UPLOAD, sizeof(vertex_data), D3D12_RESOURCE_STATE_GENERIC_READ, vertex_data);
    g->look = buffer(g, D3D12_HEAP_TYPE_UPLOAD, 256, D3D12_RESOURCE_STATE_GENERIC_READ, NULL);
    {
        void *mapped;
        CHECK_HR(ID3D12Resource_Map(g->look, 0, NULL, &mapped));
        memcpy(mapped, &look, sizeof(look));
        ID3D12Resource_Unmap(g->look, 0, NULL);
    }
    g->readback = buffer(g, D3D12_HEAP_TYPE_READBACK, (UINT64)ROW_PITCH * HEIGHT, D3D12_RESOURCE_STATE_COPY_DEST, NULL);

    /* The shader-visible heap: [0] the pixel shader's CBV, [1] the frame's SRV, [2] the grade's UAV. */
    ID3D12DescriptorHeap **made[3] = {&g->heap, &g->rtv_heap, &g->dsv_heap};
    for (int i = 0; i < 3; i++)
        CHECK_HR(ID3D12Device_CreateDescriptorHeap(g->device, &heaps[i], &IID_ID3D12DescriptorHeap, (void **)made[i]));
    increment = ID3D12Device_GetDescriptorHandleIncrementSize(g->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    cpu = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(g->heap);
    cbv = (D3D12_CONSTANT_BUFFER_VIEW_DESC){ID3D12Resource_GetGPUVirtualAddress(g->look), 256};
    ID3D12Device_CreateConstantBufferView(g->device, &cbv, cpu);
    cpu.ptr += increment;
    ID3D12Device_CreateShaderResourceView(g->device, g->target, NULL, cpu);
    cpu.ptr += increment;
    ID3D12Device_CreateUnorderedAccessView(g->device, g->graded, NULL, NULL, cpu);
    ID3D12Device_CreateRenderTargetView(g->device, g->target, NULL, ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(g->rtv_heap));
    ID3D12Device_CreateDepthStencilView(g->device, g->depth, NULL, ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(g->dsv_heap));
}

static void transition(ID3D12GraphicsCommandList *list, ID3D12Resource *resource, D3D12_RESOURCE_STATES before, D3D12_RESOURCE_STATES after)
{
    D3D12_RESOURCE_BARRIER barrier = {D3D12_RESOURCE_BARRIER_TYPE_TRANSITION, D3D12_RESOURCE_BARRIER_FLAG_NONE,
            .Transition = {resource, D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES, before, after}};
    ID3D12GraphicsCommandList_ResourceBarrier(list, 1, &barrier);
}

/* Each frame moves the diamonds and the glass (root constants, whole pixels) and the exposure. */
static void frame_offsets(uint64_t frame, float diamonds[2], float panes[2], float *exposure)
{
    diamonds[0] = 6.0f * frame, diamonds[1] = 2.0f * frame;
    panes[0] = -8.0f * frame, panes[1] = 3.0f * frame;
    *exposure = 0.9f + 0.1f * frame;
}

#define VIGNETTE 1.6f

/* ---- the CPU reference: the same scene by D3D's rasterization rules ---- */

/* RGBA16F keeps 11 significant bits, rounded to nearest even. */
static float to_half(float value)
{
    int exponent;
    float mantissa = frexpf(value, &exponent);
    return ldexpf(rintf(mantissa * 2048.0f) / 2048.0f, exponent);
}

/* Pixel (x, y) is covered when its centre is inside the triangle, or on an edge that is a top
 * edge (horizontal, the triangle below it) or a left edge: D3D's top-left rule, which gives
 * a pixel on the diagonal two triangles share to exactly one of them. Coordinates are in
 * sixteenths of a pixel, so the edge functions are exact integers. */
static void raster_triangle(const float (*v)[2], float depth, const float color[4], bool blend, float (*colors)[4], float *depths)
{
    int64_t x[3], y[3], area;
    for (int i = 0; i < 3; i++)
        x[i] = (int64_t)(v[i][0] * 16.0f), y[i] = (int64_t)(v[i][1] * 16.0f);
    area = (x[1] - x[0]) * (y[2] - y[0]) - (y[1] - y[0]) * (x[2] - x[0]);
    if (!area)
        return;
    if (area < 0) { /* one orientation: inside is where every edge function is positive */
        int64_t t = x[1]; x[1] = x[2]; x[2] = t;
        t = y[1]; y[1] = y[2]; y[2] = t;
    }
    int64_t min_x = x[0] < x[1] ? (x[0] < x[2] ? x[0] : x[2]) : (x[1] < x[2] ? x[1] : x[2]);
    int64_t max_x = x[0] > x[1] ? (x[0] > x[2] ? x[0] : x[2]) : (x[1] > x[2] ? x[1] : x[2]);
    int64_t min_y = y[0] < y[1] ? (y[0] < y[2] ? y[0] : y[2]) : (y[1] < y[2] ? y[1] : y[2]);
    int64_t max_y = y[0] > y[1] ? (y[0] > y[2] ? y[0] : y[2]) : (y[1] > y[2] ? y[1] : y[2]);
    for (int64_t py = min_y / 16 - 1; py <= max_y / 16 + 1; py++) {
        for (int64_t px = min_x / 16 - 1; px <= max_x / 16 + 1; px++) {
            int64_t cx = px * 16 + 8, cy = py * 16 + 8;
            bool inside = px >= 0 && px < WIDTH && py >= 0 && py < HEIGHT;
            for (int e = 0; e < 3 && inside; e++) {
                int64_t dx = x[(e + 1) % 3] - x[e], dy = y[(e + 1) % 3] - y[e];
                int64_t edge = dx * (cy - y[e]) - dy * (cx - x[e]);
                inside = edge > 0 || (edge == 0 && (dy < 0 || (dy == 0 && dx > 0)));
            }
            if (!inside || !(depth < depths[py * WIDTH + px]))
                continue;
            float *out = colors[py * WIDTH + px];
            for (int c = 0; c < 4; c++)
                out[c] = to_half(blend ? color[c] * color[3] + out[c] * (1.0f - color[3]) : color[c]);
            if (!blend)
                depths[py * WIDTH + px] = depth;
        }
    }
}

static void reference_draw(const struct instance *in, const float offset[2], bool blend, float (*colors)[4], float *depths)
{
    float v[4][2], color[4], fog = fminf(fmaxf(in->depth * look.fog[3], 0.0f), 1.0f);
    for (int i = 0; i < 4; i++) {
        v[i][0] = in->center[0] + corners[i][0] * in->axis[0] - corners[i][1] * in->axis[1] + offset[0];
        v[i][1] = in->center[1] + corners[i][0] * in->axis[1] + corners[i][1] * in->axis[0] + offset[1];
    }
    for (int c = 0; c < 3; c++)
        color[c] = in->color[c] / 255.0f * look.tint[c] + (look.fog[c] - in->color[c] / 255.0f * look.tint[c]) * fog;
    color[3] = in->color[3] / 255.0f;
    raster_triangle((const float (*)[2])&v[0], in->depth, color, blend, colors, depths);
    raster_triangle((const float (*)[2])&v[1], in->depth, color, blend, colors, depths);
}

/* The whole frame: both draws, then the grade, to 8 bits; returns the channels off by more
 * than the tolerance and the largest difference. */
static unsigned check_frame(const struct instance *instances, uint64_t frame, const uint8_t *graded, unsigned *largest)
{
    float (*colors)[4] = malloc(sizeof(float[4]) * WIDTH * HEIGHT), *depths = malloc(sizeof(float) * WIDTH * HEIGHT);
    float diamonds[2], panes[2], exposure;
    unsigned bad = 0;

    frame_offsets(frame, diamonds, panes, &exposure);
    for (int i = 0; i < WIDTH * HEIGHT; i++) {
        for (int c = 0; c < 4; c++)
            colors[i][c] = to_half(clear_color[c]);
        depths[i] = 1.0f;
    }
    for (int i = 0; i < INSTANCES; i++)
        reference_draw(&instances[i], i < DIAMONDS ? diamonds : panes, i >= DIAMONDS, colors, depths);
    *largest = 0;
    for (int y = 0; y < HEIGHT; y++) {
        for (int x = 0; x < WIDTH; x++) {
            float c[3], g[3], dx = (x + 0.5f) / WIDTH - 0.5f, dy = (y + 0.5f) / HEIGHT - 0.5f;
            float vignette = fminf(fmaxf(1.0f - (dx * dx + dy * dy) * VIGNETTE, 0.0f), 1.0f);
            for (int k = 0; k < 3; k++)
                c[k] = colors[y * WIDTH + x][k] * exposure, c[k] = c[k] / (c[k] + 0.6f) * 1.6f * vignette;
            g[0] = c[0] * 0.9f + c[1] * 0.1f + 0.02f;
            g[1] = c[0] * 0.05f + c[1] * 0.85f + c[2] * 0.1f + 0.01f;
            g[2] = c[1] * 0.15f + c[2] * 0.85f + 0.04f;
            for (int k = 0; k < 3; k++) {
                /* Tolerance 2 of 255: the GPU's float maths in another order (a few ulps) and
                 * its own half rounding of the blends move a value by far less than one step;
                 * each side's rounding to 8 bits adds at most one. A pixel of the wrong
                 * triangle, depth or blend is off by many steps. */
                int want = (int)(fminf(fmaxf(g[k], 0.0f), 1.0f) * 255.0f + 0.5f), diff = abs(graded[y * ROW_PITCH + x * 4 + k] - want);
                *largest = (unsigned)diff > *largest ? (unsigned)diff : *largest;
                bad += diff > 2;
            }
        }
    }
    free(colors);
    free(depths);
    return bad;
}

static int write_png(const char *path, const uint8_t *rgba)
{
    FILE *file = fopen(path, "wb");
    png_structp png = file ? png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL) : NULL;
    png_infop info = png ? png_create_info_struct(png) : NULL;

    if (!info || setjmp(png_jmpbuf(png))) {
        if (png)
            png_destroy_write_struct(&png, info ? &info : NULL);
        if (file)
            fclose(file);
        return 0;
    }
    png_init_io(png, file);
    png_set_IHDR(png, info, WIDTH, HEIGHT, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (unsigned y = 0; y < HEIGHT; y++)
        png_write_row(png, (png_const_bytep)(rgba + (size_t)y * ROW_PITCH));
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return fclose(file) == 0;
}

/* DIRECT: the scene, its bottom-of-pipe "frame drawn", then (mid-list) the wait for the grade
 * and the copy out. COMPUTE: the wait for the scene, the grade, its bottom-of-pipe "graded". */
static void record_frame(struct gpu *g, uint64_t frame, D3D12_GPU_VIRTUAL_ADDRESS drawn, D3D12_GPU_VIRTUAL_ADDRESS graded)
{
    ID3D12GraphicsCommandList *direct = g->lists[0], *compute = g->lists[1];
    D3D12_CPU_DESCRIPTOR_HANDLE rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(g->rtv_heap);
    D3D12_CPU_DESCRIPTOR_HANDLE dsv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(g->dsv_heap);
    D3D12_GPU_DESCRIPTOR_HANDLE table = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(g->heap);
    D3D12_GPU_VIRTUAL_ADDRESS vertices = ID3D12Resource_GetGPUVirtualAddress(g->vertices);
    D3D12_VERTEX_BUFFER_VIEW slots[2] = {{vertices, sizeof(corners), sizeof(corners[0])},
            {vertices + sizeof(corners), sizeof(struct instance) * INSTANCES, sizeof(struct instance)}};
    const D3D12_VIEWPORT viewport = {0, 0, WIDTH, HEIGHT, 0, 1};
    const D3D12_RECT scissor = {0, 0, WIDTH, HEIGHT};
    float diamonds[4], panes[4], grade[4] = {0, VIGNETTE, WIDTH, HEIGHT};

    frame_offsets(frame, diamonds, panes, &grade[0]);
    diamonds[2] = panes[2] = 2.0f / WIDTH, diamonds[3] = panes[3] = 2.0f / HEIGHT;
    for (int i = 0; i < 2; i++) {
        CHECK_HR(ID3D12CommandAllocator_Reset(g->allocators[i]));
        CHECK_HR(ID3D12GraphicsCommandList_Reset(g->lists[i], g->allocators[i], NULL));
    }

    ID3D12GraphicsCommandList_ClearRenderTargetView(direct, rtv, clear_color, 0, NULL);
    ID3D12GraphicsCommandList_ClearDepthStencilView(direct, dsv, D3D12_CLEAR_FLAG_DEPTH, 1.0f, 0, 0, NULL);
    ID3D12GraphicsCommandList_OMSetRenderTargets(direct, 1, &rtv, TRUE, &dsv);
    ID3D12GraphicsCommandList_RSSetViewports(direct, 1, &viewport);
    ID3D12GraphicsCommandList_RSSetScissorRects(direct, 1, &scissor);
    ID3D12GraphicsCommandList_IASetPrimitiveTopology(direct, D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP);
    ID3D12GraphicsCommandList_IASetVertexBuffers(direct, 0, 2, slots);
    ID3D12GraphicsCommandList_SetDescriptorHeaps(direct, 1, &g->heap);
    ID3D12GraphicsCommandList_SetGraphicsRootSignature(direct, g->draw_signature);
    ID3D12GraphicsCommandList_SetGraphicsRootDescriptorTable(direct, 1, table);
    ID3D12GraphicsCommandList_SetPipelineState(direct, g->opaque);
    ID3D12GraphicsCommandList_SetGraphicsRoot32BitConstants(direct, 0, 4, diamonds, 0);
    ID3D12GraphicsCommandList_DrawInstanced(direct, 4, DIAMONDS, 0, 0);
    /* the glass after everything opaque, as blending wants */
    ID3D12GraphicsCommandList_SetPipelineState(direct, g->glass);
    ID3D12GraphicsCommandList_SetGraphicsRoot32BitConstants(direct, 0, 4, panes, 0);
    ID3D12GraphicsCommandList_DrawInstanced(direct, 4, PANES, 0, DIAMONDS);
    transition(direct, g->target, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE);
    /* Once the pixels are written back, the frame number: the COMPUTE queue is waiting for it. */
    ID3D12GraphicsCommandList_Write64BitValueBottomOfPipeX(direct, drawn, frame, D3D12XBOX_FLUSH_BOP_TEXTURE_L2_WRITEBACK,
            D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
    ID3D12GraphicsCommandList_Wait64BitValueX(direct, graded, D3D12_COMPARISON_FUNC_GREATER_EQUAL, frame, D3D12XBOX_WAIT_FLAG_NONE);
    transition(direct, g->target, D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE, D3D12_RESOURCE_STATE_RENDER_TARGET);
    transition(direct, g->graded, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
    {
        D3D12_TEXTURE_COPY_LOCATION dst = {g->readback, D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT,
                {.PlacedFootprint = {0, {DXGI_FORMAT_R8G8B8A8_UNORM, WIDTH, HEIGHT, 1, ROW_PITCH}}}};
        D3D12_TEXTURE_COPY_LOCATION src = {g->graded, D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX, {.SubresourceIndex = 0}};
        ID3D12GraphicsCommandList_CopyTextureRegion(direct, &dst, 0, 0, 0, &src, NULL);
    }
    transition(direct, g->graded, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);

    ID3D12GraphicsCommandList_Wait64BitValueX(compute, drawn, D3D12_COMPARISON_FUNC_GREATER_EQUAL, frame, D3D12XBOX_WAIT_FLAG_NONE);
    ID3D12GraphicsCommandList_SetDescriptorHeaps(compute, 1, &g->heap);
    ID3D12GraphicsCommandList_SetComputeRootSignature(compute, g->grade_signature);
    ID3D12GraphicsCommandList_SetPipelineState(compute, g->grade);
    ID3D12GraphicsCommandList_SetComputeRoot32BitConstants(compute, 0, 4, grade, 0);
    table.ptr += ID3D12Device_GetDescriptorHandleIncrementSize(g->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    ID3D12GraphicsCommandList_SetComputeRootDescriptorTable(compute, 1, table);
    /* The console's thread-count form: one thread per pixel, the groups worked out for us. */
    ID3D12GraphicsCommandList_DispatchX(compute, WIDTH, HEIGHT, 1, D3D12XBOX_DISPATCH_FLAG_USE_THREAD_DIMENSIONS);
    ID3D12GraphicsCommandList_Write64BitValueBottomOfPipeX(compute, graded, frame, D3D12XBOX_FLUSH_BOP_TEXTURE_L2_WRITEBACK,
            D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
}

int main(int argc, char **argv)
{
    bool unwritten;
    const char *path = argc > 1 ? argv[1] : "build/scene.png";
    /* "Manual fences" in graphics memory, as console samples keep them: [0] drawn, [1] graded. */
    uint64_t *values = XMemVirtualAlloc(NULL, 64 * 1024, MEM_RESERVE | MEM_COMMIT | MEM_64K_PAGES, XMEM_GRAPHICS,
            PAGE_READWRITE | PAGE_WRITECOMBINE | PAGE_GRAPHICS_READWRITE);
    static struct instance instances[INSTANCES];
    uint8_t *mapped, *image = malloc((size_t)ROW_PITCH * HEIGHT);
    unsigned bad, largest;
    struct gpu g;

    if (!values || !image) {
        fprintf(stderr, "scene: out of memory\n");
        return 1;
    }
    make_instances(instances);
    init(&g, instances);
    for (uint64_t frame = 1; frame <= FRAMES; frame++) {
        record_frame(&g, frame, (D3D12_GPU_VIRTUAL_ADDRESS)(uintptr_t)&values[0], (D3D12_GPU_VIRTUAL_ADDRESS)(uintptr_t)&values[1]);
        /* COMPUTE first: its list waits mid-list for the DIRECT list's value. */
        for (int i = 1; i >= 0; i--) {
            CHECK_HR(ID3D12GraphicsCommandList_Close(g.lists[i]));
            ID3D12CommandQueue_ExecuteCommandLists(i ? g.compute : g.direct, 1, (ID3D12CommandList **)&g.lists[i]);
            CHECK_HR(ID3D12CommandQueue_Signal(i ? g.compute : g.direct, g.fences[i], frame));
        }
        /* One allocator per queue: both lists finish before the next frame records. */
        for (int i = 0; i < 2; i++)
            CHECK_HR(ID3D12Fence_SetEventOnCompletion(g.fences[i], frame, NULL));
    }

    CHECK_HR(ID3D12Resource_Map(g.readback, 0, NULL, (void **)&mapped));
    memcpy(image, mapped, (size_t)ROW_PITCH * HEIGHT);
    ID3D12Resource_Unmap(g.readback, 0, NULL);
    bad = check_frame(instances, FRAMES, image, &largest);
    printf("scene: %d frames of %d instanced diamonds and %d blended panes (RGBA16F + D32) graded on the COMPUTE queue, "
           "bottom-of-pipe writes and mid-list waits between the queues\n", FRAMES, DIAMONDS, PANES);
    printf("scene: last frame %s: %d pixels x 3 channels against the CPU rasterizer, %u off by more than 2/255 (largest %u)\n",
            bad ? "WRONG" : "verified", WIDTH * HEIGHT, bad, largest);
    /* a file that cannot be written fails the run, after everything is released as on success */
    unwritten = !write_png(path, image);
    if (unwritten)
        fprintf(stderr, "scene: cannot write %s\n", path);
    else
        printf("scene: wrote %s\n", path);

    free(image);
    ID3D12Resource *resources[] = {g.target, g.depth, g.graded, g.vertices, g.look, g.readback};
    for (size_t i = 0; i < sizeof(resources) / sizeof(resources[0]); i++)
        ID3D12Resource_Release(resources[i]);
    ID3D12DescriptorHeap_Release(g.heap);
    ID3D12DescriptorHeap_Release(g.rtv_heap);
    ID3D12DescriptorHeap_Release(g.dsv_heap);
    for (int i = 0; i < 2; i++) {
        ID3D12Fence_Release(g.fences[i]);
        ID3D12GraphicsCommandList_Release(g.lists[i]);
        ID3D12CommandAllocator_Release(g.allocators[i]);
    }
    ID3D12PipelineState_Release(g.opaque);
    ID3D12PipelineState_Release(g.glass);
    ID3D12PipelineState_Release(g.grade);
    ID3D12RootSignature_Release(g.draw_signature);
    ID3D12RootSignature_Release(g.grade_signature);
    ID3D12CommandQueue_Release(g.direct);
    ID3D12CommandQueue_Release(g.compute);
    ID3D12Device_Release(g.device);
    VirtualFree(values, 0, MEM_RELEASE);
    return bad || unwritten ? 1 : 0;
}
