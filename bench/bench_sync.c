/* Cross-queue ping-pong latency per hop between a DIRECT and a COMPUTE queue:
 *   (a) bottom-of-pipe value write + Wait64BitValueX (mid-list, in graphics memory),
 *   (b) queue Signal + WaitX on two fences,
 *   (c) raw Vulkan timeline semaphores between the same two Vulkan queue families,
 *   (c+w) the same with a command buffer writing the value at each hop, (a)'s work in raw Vulkan.
 * Every hop's work is handed over before the first starts; the time is from the first
 * submission to the last value, over HOPS hops.
 *   (d) CUDA cuStreamWriteValue64 + cuStreamWaitValue64 between two streams, run as the
 *       program cuda_ping_pong next to this one where it was built (bench/cuda/ping_pong.c).
 * (a) says how many of its memory waits the GPU waited out (docs/sync.md). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <libgen.h>
#include <limits.h>

#include <vulkan/vulkan.h>
#include <d3d12_xs.h>

#define HOPS 1000

#define FAIL(...) do { fprintf(stderr, "bench_sync: " __VA_ARGS__); fputc('\n', stderr); exit(1); } while (0)
#define HR(expr) do { HRESULT hr_ = (expr); if (FAILED(hr_)) FAIL("line %d: %s failed: 0x%08x", __LINE__, #expr, (unsigned)hr_); } while (0)
#define VK(expr) do { VkResult vr_ = (expr); if (vr_ != VK_SUCCESS) FAIL("line %d: %s failed: %d", __LINE__, #expr, vr_); } while (0)

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static ID3D12GraphicsCommandList *new_list(ID3D12Device *device, D3D12_COMMAND_LIST_TYPE type, ID3D12CommandAllocator **allocator)
{
    ID3D12GraphicsCommandList *list;
    HR(ID3D12Device_CreateCommandAllocator(device, type, &IID_ID3D12CommandAllocator, (void **)allocator));
    HR(ID3D12Device_CreateCommandList(device, 0, type, *allocator, NULL, &IID_ID3D12GraphicsCommandList, (void **)&list));
    return list;
}

/* (a): each list waits for its turn and writes the other's, HOPS / 2 times. */
static double hops_value_writes(ID3D12Device *device, ID3D12CommandQueue *direct, ID3D12CommandQueue *compute)
{
    volatile uint64_t *memory = XMemVirtualAlloc(NULL, 64 * 1024, MEM_RESERVE | MEM_COMMIT | MEM_64K_PAGES, XMEM_GRAPHICS,
            PAGE_READWRITE | PAGE_WRITECOMBINE | PAGE_GRAPHICS_READWRITE);
    D3D12_GPU_VIRTUAL_ADDRESS to_direct, to_compute;
    ID3D12CommandAllocator *allocators[2];
    ID3D12GraphicsCommandList *lists[2];
    double start, end;

    if (!memory)
        FAIL("XMemVirtualAlloc failed");
    to_direct = (D3D12_GPU_VIRTUAL_ADDRESS)(uintptr_t)&memory[0];
    to_compute = (D3D12_GPU_VIRTUAL_ADDRESS)(uintptr_t)&memory[8];
    lists[0] = new_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT, &allocators[0]);
    lists[1] = new_list(device, D3D12_COMMAND_LIST_TYPE_COMPUTE, &allocators[1]);
    for (uint64_t i = 0; i < HOPS / 2; i++) {
        ID3D12GraphicsCommandList_Wait64BitValueX(lists[0], to_direct, D3D12_COMPARISON_FUNC_GREATER_EQUAL, 2 * i + 1, D3D12XBOX_WAIT_FLAG_NONE);
        ID3D12GraphicsCommandList_Write64BitValueBottomOfPipeX(lists[0], to_compute, 2 * i + 2, D3D12XBOX_FLUSH_NONE,
                D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
        ID3D12GraphicsCommandList_Wait64BitValueX(lists[1], to_compute, D3D12_COMPARISON_FUNC_GREATER_EQUAL, 2 * i, D3D12XBOX_WAIT_FLAG_NONE);
        ID3D12GraphicsCommandList_Write64BitValueBottomOfPipeX(lists[1], to_direct, 2 * i + 1, D3D12XBOX_FLUSH_NONE,
                D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
    }
    HR(ID3D12GraphicsCommandList_Close(lists[0]));
    HR(ID3D12GraphicsCommandList_Close(lists[1]));
    start = now_ns();
    ID3D12CommandQueue_ExecuteCommandLists(direct, 1, (ID3D12CommandList **)&lists[0]);
    ID3D12CommandQueue_ExecuteCommandLists(compute, 1, (ID3D12CommandList **)&lists[1]);
    while (memory[8] < HOPS && now_ns() - start < 60e9)
        ;
    end = now_ns();
    if (memory[8] < HOPS)
        FAIL("(a) stopped at %llu of %u hops", (unsigned long long)memory[8], HOPS);
    for (int i = 0; i < 2; i++) {
        ID3D12GraphicsCommandList_Release(lists[i]);
        ID3D12CommandAllocator_Release(allocators[i]);
    }
    VirtualFree((void *)memory, 0, MEM_RELEASE);
    return (end - start) / HOPS;
}

/* (d): runs cuda_ping_pong from this program's folder; 0 when it is not there or fails. */
static double hops_cuda(void)
{
    char self[PATH_MAX], command[PATH_MAX + 32], line[512];
    double hop_us = 0;
    ssize_t length = readlink("/proc/self/exe", self, sizeof(self) - 1);
    FILE *pipe;

    if (length <= 0)
        return 0;
    self[length] = 0;
    snprintf(command, sizeof(command), "%s/cuda_ping_pong", dirname(self));
    if (access(command, X_OK))
        return 0;
    if (!(pipe = popen(command, "r")))
        return 0;
    while (fgets(line, sizeof(line), pipe)) {
        const char *field = strstr(line, "hop_us=");
        if (field)
            hop_us = atof(field + 7);
    }
    return pclose(pipe) == 0 ? hop_us * 1e3 : 0;
}

/* (b): queue waits and signals only. */
static double hops_fences(ID3D12Device *device, ID3D12CommandQueue *direct, ID3D12CommandQueue *compute)
{
    ID3D12Fence *to_direct, *to_compute;
    double start, end;

    HR(ID3D12Device_CreateFence(device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&to_direct));
    HR(ID3D12Device_CreateFence(device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&to_compute));
    start = now_ns();
    for (uint64_t i = 0; i < HOPS / 2; i++) {
        HR(ID3D12CommandQueue_WaitX(direct, to_direct, 2 * i + 1, NULL));
        HR(ID3D12CommandQueue_Signal(direct, to_compute, 2 * i + 2));
        HR(ID3D12CommandQueue_WaitX(compute, to_compute, 2 * i, NULL));
        HR(ID3D12CommandQueue_Signal(compute, to_direct, 2 * i + 1));
    }
    HR(ID3D12Fence_SetEventOnCompletion(to_compute, HOPS, NULL));
    end = now_ns();
    ID3D12Fence_Release(to_direct);
    ID3D12Fence_Release(to_compute);
    return (end - start) / HOPS;
}

/* For (c+w): one command buffer per queue that writes an 8-byte value into host-visible memory
 * after a barrier from all earlier work, as a bottom-of-pipe write does. */
static void record_value_writes(VkPhysicalDevice physical, VkDevice device, const uint32_t family[2], VkCommandPool pools[2],
        VkCommandBuffer writes[2], VkBuffer *buffer, VkDeviceMemory *memory)
{
    VkBufferCreateInfo buffer_info = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = 256, .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
            .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
    VkPhysicalDeviceMemoryProperties properties;
    VkMemoryRequirements requirements;
    uint32_t type = UINT32_MAX;

    VK(vkCreateBuffer(device, &buffer_info, NULL, buffer));
    vkGetBufferMemoryRequirements(device, *buffer, &requirements);
    vkGetPhysicalDeviceMemoryProperties(physical, &properties);
    for (uint32_t i = 0; i < properties.memoryTypeCount && type == UINT32_MAX; i++)
        if ((requirements.memoryTypeBits >> i & 1) && (properties.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT))
            type = i;
    if (type == UINT32_MAX)
        FAIL("no host-visible memory type for the value");
    VkMemoryAllocateInfo allocate_info = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = requirements.size,
            .memoryTypeIndex = type};
    VK(vkAllocateMemory(device, &allocate_info, NULL, memory));
    VK(vkBindBufferMemory(device, *buffer, *memory, 0));
    for (int q = 0; q < 2; q++) {
        VkCommandPoolCreateInfo pool_info = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .queueFamilyIndex = family[q]};
        VK(vkCreateCommandPool(device, &pool_info, NULL, &pools[q]));
        VkCommandBufferAllocateInfo allocate = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = pools[q],
                .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1};
        VK(vkAllocateCommandBuffers(device, &allocate, &writes[q]));
        VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, .flags = VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT};
        VK(vkBeginCommandBuffer(writes[q], &begin));
        VkMemoryBarrier2 barrier = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2, .srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                .srcAccessMask = VK_ACCESS_2_MEMORY_WRITE_BIT, .dstStageMask = VK_PIPELINE_STAGE_2_COPY_BIT,
                .dstAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT};
        VkDependencyInfo dependency = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .memoryBarrierCount = 1, .pMemoryBarriers = &barrier};
        uint64_t value = 1;
        vkCmdPipelineBarrier2(writes[q], &dependency);
        vkCmdUpdateBuffer(writes[q], *buffer, 8 * (VkDeviceSize)q, 8, &value);
        VK(vkEndCommandBuffer(writes[q]));
    }
}

/* (c): the same on raw Vulkan queues of the families d3d12xs uses, submitted in an order
 * that never waits for a later submission (one queue on lavapipe). With with_write, each hop
 * also runs a command buffer that writes an 8-byte value (vkCmdUpdateBuffer after a barrier),
 * the work (a) does at each hop besides the wait: (c+w), what raw Vulkan pays for (a)'s hop. */
static double hops_raw(const D3D12XS_DEVICE_INFO *info, bool with_write)
{
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = "bench_sync (raw Vulkan)", .apiVersion = VK_API_VERSION_1_3};
    VkInstanceCreateInfo instance_info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
    uint32_t family[2] = {info->Queues[D3D12_COMMAND_LIST_TYPE_DIRECT].VulkanQueueFamily, info->Queues[D3D12_COMMAND_LIST_TYPE_COMPUTE].VulkanQueueFamily};
    VkPhysicalDevice physical_devices[16], physical = VK_NULL_HANDLE;
    uint32_t count = 16;
    VkInstance instance;
    VkDevice device;
    VkQueue queues[2];
    VkSemaphore semaphore;
    float priorities[2] = {1.0f, 1.0f};
    double start, end;

    VK(vkCreateInstance(&instance_info, NULL, &instance));
    VK(vkEnumeratePhysicalDevices(instance, &count, physical_devices));
    for (uint32_t i = 0; i < count && !physical; i++) {
        VkPhysicalDeviceProperties properties;
        vkGetPhysicalDeviceProperties(physical_devices[i], &properties);
        if (!strcmp(properties.deviceName, info->DeviceName))
            physical = physical_devices[i];
    }
    if (!physical)
        FAIL("raw Vulkan does not see %s", info->DeviceName);
    VkQueueFamilyProperties families[16];
    uint32_t family_count = 16;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &family_count, families);
    bool same = family[0] == family[1];
    uint32_t same_count = same && families[family[0]].queueCount > 1 ? 2 : 1;
    VkDeviceQueueCreateInfo queue_infos[2] = {
        {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = family[0], .queueCount = same ? same_count : 1, .pQueuePriorities = priorities},
        {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = family[1], .queueCount = 1, .pQueuePriorities = priorities},
    };
    VkPhysicalDeviceVulkan12Features features12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, .timelineSemaphore = VK_TRUE};
    VkPhysicalDeviceVulkan13Features features13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, .pNext = &features12,
            .synchronization2 = VK_TRUE};
    VkDeviceCreateInfo device_info = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &features13,
            .queueCreateInfoCount = same ? 1 : 2, .pQueueCreateInfos = queue_infos};
    VK(vkCreateDevice(physical, &device_info, NULL, &device));
    vkGetDeviceQueue(device, family[0], 0, &queues[0]);
    vkGetDeviceQueue(device, family[1], same ? same_count - 1 : 0, &queues[1]);
    VkSemaphoreTypeCreateInfo type_info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO, .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE};
    VkSemaphoreCreateInfo create_info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type_info};
    VK(vkCreateSemaphore(device, &create_info, NULL, &semaphore));
    VkCommandPool pools[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
    VkCommandBuffer writes[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    if (with_write)
        record_value_writes(physical, device, family, pools, writes, &buffer, &memory);
    start = now_ns();
    for (uint64_t v = 1; v <= HOPS; v++) {
        /* Hop v: the queue whose turn it is waits for v - 1 on the shared count and signals v. */
        int q = (int)(v & 1);
        VkSemaphoreSubmitInfo wait = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = semaphore, .value = v - 1,
                .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT};
        VkSemaphoreSubmitInfo signal = wait;
        signal.value = v;
        VkSubmitInfo2 submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .waitSemaphoreInfoCount = 1, .pWaitSemaphoreInfos = &wait,
                .signalSemaphoreInfoCount = 1, .pSignalSemaphoreInfos = &signal};
        VkCommandBufferSubmitInfo write = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, .commandBuffer = writes[q]};
        if (with_write)
            submit.commandBufferInfoCount = 1, submit.pCommandBufferInfos = &write;
        VK(vkQueueSubmit2(queues[q], 1, &submit, VK_NULL_HANDLE));
    }
    uint64_t last = HOPS;
    VkSemaphoreWaitInfo wait_info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, .semaphoreCount = 1, .pSemaphores = &semaphore,
            .pValues = &last};
    VK(vkWaitSemaphores(device, &wait_info, 60ull * 1000 * 1000 * 1000));
    end = now_ns();
    for (int i = 0; i < 2; i++)
        vkDestroyCommandPool(device, pools[i], NULL);
    vkDestroyBuffer(device, buffer, NULL);
    vkFreeMemory(device, memory, NULL);
    vkDestroySemaphore(device, semaphore, NULL);
    vkDestroyDevice(device, NULL);
    vkDestroyInstance(instance, NULL);
    return (end - start) / HOPS;
}

int main(void)
{
    ID3D12Device *device;
    ID3D12CommandQueue *direct, *compute;
    D3D12XBOX_COMMAND_QUEUE_DESC direct_desc = {D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_QUEUE_FLAG_NONE, 0, 0};
    D3D12XBOX_COMMAND_QUEUE_DESC compute_desc = {D3D12_COMMAND_LIST_TYPE_COMPUTE, D3D12_COMMAND_QUEUE_FLAG_NONE, 0, 0};
    D3D12XS_DEVICE_INFO info;
    D3D12XS_SYNC_STATISTICS before, after;
    double a[5], b[5], c[5], cw[5], d;

    setenv("D3D12XS_DEBUG", "0", 1);
    HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&device));
    HR(D3D12XSGetDeviceInfo(device, &info));
    HR(ID3D12Device_CreateCommandQueueX(device, &direct_desc, &IID_ID3D12CommandQueue, (void **)&direct));
    HR(ID3D12Device_CreateCommandQueueX(device, &compute_desc, &IID_ID3D12CommandQueue, (void **)&compute));
    printf("device: %s (%s); DIRECT family %u, COMPUTE family %u; %u hops per run, median of 5 runs\n", info.DeviceName, info.DriverInfo,
            info.Queues[D3D12_COMMAND_LIST_TYPE_DIRECT].VulkanQueueFamily, info.Queues[D3D12_COMMAND_LIST_TYPE_COMPUTE].VulkanQueueFamily, HOPS);
    HR(D3D12XSGetSyncStatistics(device, &before));
    for (int r = 0; r < 5; r++) {
        a[r] = hops_value_writes(device, direct, compute);
        b[r] = hops_fences(device, direct, compute);
        c[r] = hops_raw(&info, false);
        cw[r] = hops_raw(&info, true);
    }
    for (int i = 0; i < 5; i++) /* sort each (5 elements) for the median */
        for (int j = i + 1; j < 5; j++) {
            double t;
            if (a[j] < a[i]) t = a[i], a[i] = a[j], a[j] = t;
            if (b[j] < b[i]) t = b[i], b[i] = b[j], b[j] = t;
            if (c[j] < c[i]) t = c[i], c[i] = c[j], c[j] = t;
            if (cw[j] < cw[i]) t = cw[i], cw[i] = cw[j], cw[j] = t;
        }
    HR(D3D12XSGetSyncStatistics(device, &after));
    d = hops_cuda();
    printf("\n%-58s %10s %8s %8s\n", "hop", "us", "vs (c)", "vs (d)");
    printf("%-58s %10.2f %8.2f", "(a) bottom-of-pipe write + Wait64BitValueX (mid-list)", a[2] / 1e3, a[2] / c[2]);
    printf(d > 0 ? " %8.2f\n" : "\n", a[2] / d);
    printf("%-58s %10.2f %8.2f\n", "(b) Signal + WaitX", b[2] / 1e3, b[2] / c[2]);
    printf("%-58s %10.2f %8.2f\n", "(c) raw Vulkan timeline semaphores, same families", c[2] / 1e3, 1.0);
    printf("%-58s %10.2f %8.2f\n", "(c+w) the same, each hop also writing the value", cw[2] / 1e3, cw[2] / c[2]);
    printf("(a) / (c+w), raw Vulkan doing (a)'s work: %.2f\n", a[2] / cw[2]);
    if (d > 0)
        printf("%-58s %10.2f %8.2f %8.2f\n", "(d) CUDA cuStreamWriteValue64 + cuStreamWaitValue64", d / 1e3, d / c[2], 1.0);
    else
        printf("(d) CUDA: not measured (no cuda_ping_pong next to this program: it is built where the CUDA toolkit is)\n");
    printf("(a)'s memory waits: %llu waited out by the GPU, %llu met by the host (GPU-side waits %s)\n",
            (unsigned long long)(after.MemoryWaitsOnGpu - before.MemoryWaitsOnGpu),
            (unsigned long long)(after.MemoryWaitsOnHost - before.MemoryWaitsOnHost), after.GpuMemoryWaitsEnabled ? "on" : "off");
    ID3D12CommandQueue_Release(direct);
    ID3D12CommandQueue_Release(compute);
    ID3D12Device_Release(device);
    return 0;
}
