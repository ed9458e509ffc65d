/* DispatchX with D3D12XBOX_DISPATCH_FLAG_USE_THREAD_DIMENSIONS (SPEC §2.1): the counts are
 * threads. Every thread counts its runs at its SV_DispatchThreadID in a grid padded to whole
 * groups, so a thread past the count that ran at all shows up as a non-zero outside the
 * requested box (or, had the index wrapped, as a 2 inside it). Sizes 1000 x 3 x 7 with
 * numthreads 64x1x1, 8x8x1 and 4x4x4, from start group 0 and from a start group; an exact
 * multiple of the group size; a shader with a group barrier (runs when the counts divide
 * evenly, refused with a message when they do not). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan.h>

#include "dispatchx_common.h"

static ID3D12PipelineState *counting_pipeline(ID3D12Device *device, ID3D12RootSignature *signature, const unsigned numthreads[3],
        bool barrier)
{
    char source[1024];
    snprintf(source, sizeof(source),
            "cbuffer Grid : register(b0) { uint width; uint height; uint base_x; uint base_y; };\n"
            "RWByteAddressBuffer hits : register(u0);\n"
            "groupshared uint shared_count;\n"
            "[numthreads(%u, %u, %u)]\n"
            "void main(uint3 id : SV_DispatchThreadID, uint index : SV_GroupIndex)\n"
            "{\n"
            "%s"
            "    uint x = id.x - base_x, y = id.y - base_y;\n"
            "    hits.InterlockedAdd(((id.z * height + y) * width + x) * 4, 1u);\n"
            "}\n",
            numthreads[0], numthreads[1], numthreads[2],
            barrier ? "    if (index == 0) shared_count = 0;\n    GroupMemoryBarrierWithGroupSync();\n" : "");
    return dispatchx_pipeline(device, signature, source, false);
}

static unsigned groups_for(unsigned threads, unsigned size)
{
    return (threads + size - 1) / size;
}

/* Runs threads[] threads (from start group start_x, start_y, 0) and checks each ran once. */
static void run_threads(ID3D12Device *device, ID3D12CommandQueue *queue, ID3D12RootSignature *signature, ID3D12PipelineState *pipeline,
        const unsigned numthreads[3], const unsigned threads[3], unsigned start_x, unsigned start_y)
{
    unsigned width = groups_for(threads[0], numthreads[0]) * numthreads[0], height = groups_for(threads[1], numthreads[1]) * numthreads[1];
    unsigned depth = groups_for(threads[2], numthreads[2]) * numthreads[2];
    size_t size = (size_t)width * height * depth * 4;
    ID3D12Resource *hits = harness_uav_buffer(device, size);
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12GraphicsCommandList *l = (ID3D12GraphicsCommandList *)list.list;
    UINT constants[ROOT_CONSTANTS] = {width, height, start_x * numthreads[0], start_y * numthreads[1]};
    uint32_t *data = malloc(size);
    unsigned twice = 0, outside = 0, missing = 0;

    dispatchx_bind(l, signature, pipeline, constants, &hits, 1);
    CHECK_HR(D3D12XSSetDispatchStartGroup(l, start_x, start_y, 0), S_OK);
    ID3D12GraphicsCommandList_DispatchX(l, threads[0], threads[1], threads[2], D3D12XBOX_DISPATCH_FLAG_USE_THREAD_DIMENSIONS);
    harness_execute_and_wait(device, queue, &list);
    harness_read_back(device, queue, hits, data, size);
    for (unsigned z = 0; z < depth; z++)
        for (unsigned y = 0; y < height; y++)
            for (unsigned x = 0; x < width; x++) {
                uint32_t runs = data[((size_t)z * height + y) * width + x];
                bool inside = x < threads[0] && y < threads[1] && z < threads[2];
                if (inside)
                    missing += runs == 0, twice += runs > 1;
                else
                    outside += runs != 0;
            }
    CHECK_MSG(!missing && !twice && !outside, "%u x %u x %u threads, numthreads %u x %u x %u, start group %u,%u: "
            "%u threads missing, %u ran more than once, %u outside ran", threads[0], threads[1], threads[2], numthreads[0], numthreads[1],
            numthreads[2], start_x, start_y, missing, twice, outside);
    free(data);
    harness_release_list(&list);
    ID3D12Resource_Release(hits);
}

static void test_exact_coverage(ID3D12Device *device, ID3D12CommandQueue *queue)
{
    static const unsigned shapes[3][3] = {{64, 1, 1}, {8, 8, 1}, {4, 4, 4}};
    static const unsigned sizes[4][3] = {{1000, 3, 7}, {1, 1, 1}, {65, 9, 5}, {128, 8, 8}};
    ID3D12RootSignature *signature = dispatchx_root_signature(device, 1);
    LOG_MARK();

    for (int s = 0; s < 3; s++) {
        ID3D12PipelineState *pipeline = counting_pipeline(device, signature, shapes[s], false);
        for (int n = 0; n < 4; n++)
            run_threads(device, queue, signature, pipeline, shapes[s], sizes[n], 0, 0);
        run_threads(device, queue, signature, pipeline, shapes[s], sizes[0], 2, 1);
        ID3D12PipelineState_Release(pipeline);
    }
    CHECK_NO_LOG();
    ID3D12RootSignature_Release(signature);
}

static void test_barrier_shader(ID3D12Device *device, ID3D12CommandQueue *queue)
{
    static const unsigned shape[3] = {8, 8, 1}, even[3] = {64, 16, 3}, partial[3] = {1000, 3, 7};
    ID3D12RootSignature *signature = dispatchx_root_signature(device, 1);
    ID3D12PipelineState *pipeline = counting_pipeline(device, signature, shape, true);
    ID3D12Resource *hits = harness_uav_buffer(device, 1 << 20);
    static const UINT constants[ROOT_CONSTANTS] = {1000, 8, 0, 0};
    LOG_MARK();

    /* Whole groups only: nothing to cut, the shader runs as it is. */
    run_threads(device, queue, signature, pipeline, shape, even, 0, 0);
    CHECK_NO_LOG();
    {
        struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        ID3D12GraphicsCommandList *l = (ID3D12GraphicsCommandList *)list.list;
        dispatchx_bind(l, signature, pipeline, constants, &hits, 1);
        ID3D12GraphicsCommandList_DispatchX(l, partial[0], partial[1], partial[2], D3D12XBOX_DISPATCH_FLAG_USE_THREAD_DIMENSIONS);
        CHECK_LOG("DispatchX", "group barrier", "cannot be run exactly");
        RELOG_MARK();
        CHECK_HR(ID3D12GraphicsCommandList_Close(l), E_INVALIDARG);
        CHECK_LOG("Close", "group barrier");
        harness_release_list(&list);
    }
    /* Zero threads run nothing, as a zero group count does. */
    {
        struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        ID3D12GraphicsCommandList *l = (ID3D12GraphicsCommandList *)list.list;
        uint32_t first[4];
        dispatchx_bind(l, signature, pipeline, constants, &hits, 1);
        ID3D12GraphicsCommandList_DispatchX(l, 0, 5, 5, D3D12XBOX_DISPATCH_FLAG_USE_THREAD_DIMENSIONS);
        harness_execute_and_wait(device, queue, &list);
        harness_read_back(device, queue, hits, first, sizeof(first));
        CHECK(!first[0] && !first[1] && !first[2] && !first[3]);
        harness_release_list(&list);
    }
    /* More threads than 65535 groups hold. */
    {
        struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        ID3D12GraphicsCommandList *l = (ID3D12GraphicsCommandList *)list.list;
        dispatchx_bind(l, signature, pipeline, constants, &hits, 1);
        RELOG_MARK();
        ID3D12GraphicsCommandList_DispatchX(l, 8 * 65535 + 1, 1, 1, D3D12XBOX_DISPATCH_FLAG_USE_THREAD_DIMENSIONS);
        CHECK_LOG("DispatchX", "thread count 524281");
        harness_release_list(&list);
    }
    ID3D12Resource_Release(hits);
    ID3D12PipelineState_Release(pipeline);
    ID3D12RootSignature_Release(signature);
}

/* A shader with neither root constants nor SV_DispatchThreadID: the variant adds the push-constant
 * block and the GlobalInvocationId input itself. Counting the threads that ran gives the count. */
static void test_bare_shader(ID3D12Device *device, ID3D12CommandQueue *queue)
{
    static const char source[] =
        "RWByteAddressBuffer total : register(u0);\n"
        "[numthreads(32, 2, 1)]\n"
        "void main() { total.InterlockedAdd(0, 1u); }\n";
    static const unsigned counts[3][3] = {{100, 3, 1}, {33, 1, 5}, {1, 1, 1}};
    ID3D12RootSignature *signature = dispatchx_root_signature(device, 1);
    ID3D12PipelineState *pipeline = dispatchx_pipeline(device, signature, source, false);
    static const UINT constants[ROOT_CONSTANTS];
    LOG_MARK();

    for (int i = 0; i < 3; i++) {
        ID3D12Resource *total = harness_uav_buffer(device, 256);
        struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        ID3D12GraphicsCommandList *l = (ID3D12GraphicsCommandList *)list.list;
        uint32_t ran = 0;
        dispatchx_bind(l, signature, pipeline, constants, &total, 1);
        /* The second run also asks for coherent UAVs: the variant with both changes. */
        ID3D12GraphicsCommandList_DispatchX(l, counts[i][0], counts[i][1], counts[i][2], D3D12XBOX_DISPATCH_FLAG_USE_THREAD_DIMENSIONS
                | (i == 1 ? D3D12XBOX_DISPATCH_FLAG_DISABLE_VOLATILE_VECTOR_L1 : D3D12XBOX_DISPATCH_FLAG_NONE));
        harness_execute_and_wait(device, queue, &list);
        harness_read_back(device, queue, total, &ran, sizeof(ran));
        CHECK_MSG(ran == counts[i][0] * counts[i][1] * counts[i][2], "%u x %u x %u threads of a bare shader: %u ran", counts[i][0], counts[i][1],
                counts[i][2], ran);
        harness_release_list(&list);
        ID3D12Resource_Release(total);
    }
    CHECK_NO_LOG();
    ID3D12PipelineState_Release(pipeline);
    ID3D12RootSignature_Release(signature);
}

/* The device's push-constant bytes, read from Vulkan for the physical device d3d12xs chose. */
static uint32_t device_push_constant_bytes(ID3D12Device *device)
{
    D3D12XS_DEVICE_INFO info;
    VkInstanceCreateInfo instance_info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    VkPhysicalDevice physical[16];
    uint32_t count = 16, bytes = 0;
    VkInstance instance;

    CHECK_HR(D3D12XSGetDeviceInfo(device, &info), S_OK);
    if (vkCreateInstance(&instance_info, NULL, &instance) != VK_SUCCESS)
        return 0;
    vkEnumeratePhysicalDevices(instance, &count, physical);
    for (uint32_t i = 0; i < count; i++) {
        VkPhysicalDeviceProperties properties;
        vkGetPhysicalDeviceProperties(physical[i], &properties);
        if (!strcmp(properties.deviceName, info.DeviceName))
            bytes = properties.limits.maxPushConstantsSize;
    }
    vkDestroyInstance(instance, NULL);
    return bytes;
}

/* 62 root constants and a root UAV, D3D12's whole root cost (64 DWORDs): the constants end at
 * byte 248, and the thread limit of a cut group goes at the next 16-byte row, 256, which on a
 * device whose push constants hold 256 bytes (lavapipe 25, the H200) has no room left. So a
 * partial USE_THREAD_DIMENSIONS dispatch is refused with the reason, while whole groups run. */
static void test_root_constants_fill_push_constants(ID3D12Device *device, ID3D12CommandQueue *queue)
{
    static const char source[] =
        "cbuffer Root : register(b0) { uint4 c[15]; uint2 d; };\n"
        "RWByteAddressBuffer output : register(u0);\n"
        "[numthreads(64, 1, 1)]\n"
        "void main(uint3 id : SV_DispatchThreadID) { output.Store(id.x * 4, d.y + id.x); }\n";
    uint32_t push_bytes = device_push_constant_bytes(device), constants[62], result[128];
    bool ok = true;

    if (push_bytes != 256) {
        printf("skipped: root constants filling push constants (this device holds %u bytes, not 256)\n", push_bytes);
        return;
    }
    ID3D12RootSignature *signature = dispatchx_root_signature_with(device, 62, 1);
    ID3D12PipelineState *pipeline = dispatchx_pipeline(device, signature, source, false);
    ID3D12Resource *output = harness_uav_buffer(device, sizeof(result));
    for (uint32_t i = 0; i < 62; i++)
        constants[i] = i == 61 ? 1000 : i;
    LOG_MARK();

    for (int partial = 0; partial < 2; partial++) {
        struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
        ID3D12GraphicsCommandList *l = (ID3D12GraphicsCommandList *)list.list;
        ID3D12GraphicsCommandList_SetComputeRootSignature(l, signature);
        ID3D12GraphicsCommandList_SetPipelineState(l, pipeline);
        ID3D12GraphicsCommandList_SetComputeRoot32BitConstants(l, 0, 62, constants, 0);
        ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(l, 1, ID3D12Resource_GetGPUVirtualAddress(output));
        ID3D12GraphicsCommandList_DispatchX(l, partial ? 100 : 128, 1, 1, D3D12XBOX_DISPATCH_FLAG_USE_THREAD_DIMENSIONS);
        if (partial) {
            CHECK_LOG("DispatchX", "fill the device's 256 bytes of push constants", "thread limit needs 16 more");
            RELOG_MARK();
            CHECK_HR(ID3D12GraphicsCommandList_Close(l), E_INVALIDARG);
            CHECK_LOG("Close", "thread limit");
        } else {
            harness_execute_and_wait(device, queue, &list);
            harness_read_back(device, queue, output, result, sizeof(result));
            for (uint32_t i = 0; i < 128 && ok; i++)
                CHECK_MSG(ok = result[i] == 1000 + i, "thread %u wrote %u, expected %u", i, result[i], 1000 + i);
            CHECK_NO_LOG();
        }
        harness_release_list(&list);
    }
    ID3D12Resource_Release(output);
    ID3D12PipelineState_Release(pipeline);
    ID3D12RootSignature_Release(signature);
}

int main(void)
{
    ID3D12Device *device;
    ID3D12CommandQueue *queue;

    harness_init();
    device = harness_create_device();
    queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    test_exact_coverage(device, queue);
    test_barrier_shader(device, queue);
    test_bare_shader(device, queue);
    test_root_constants_fill_push_constants(device, queue);
    ID3D12CommandQueue_Release(queue);
    harness_release_device(device);
    return harness_finish();
}
