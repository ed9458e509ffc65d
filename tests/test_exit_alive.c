/* A process that ends with its device alive (api/process_exit.h): many D3D12 programs never
 * release their device, and NVIDIA's driver crashed in its own teardown when a VkDevice was
 * still alive at exit. Each case runs in a child process of its own (harness_run_self) and must
 * end with status 0, promptly: idle, with work and an event registration still pending, and
 * with a Release that comes after the exit teardown (an exit handler registered before the
 * device, as a program's static objects are), which must destroy nothing; all with
 * D3D12XS_EXIT_TEARDOWN=1 (by default the teardown is NVIDIA's only), and once with it off
 * (not on NVIDIA's driver, which then crashes in its own exit handlers). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "common/object.h"

/* The children leak on purpose: LeakSanitizer (in the sanitized build) is told so. */
static bool leaking_on_purpose;
int __lsan_is_turned_off(void);
int __lsan_is_turned_off(void)
{
    return leaking_on_purpose;
}

static ID3D12Device *late_device;
static ID3D12Fence *late_fence;

/* Runs after the teardown (registered before the device, so later in exit's order). */
static void release_late(void)
{
    /* the teardown ran before this handler (a status the parent sees) */
    if (!d3d12xs_exit_torn_down()) {
        fprintf(stderr, "test_exit_alive: the exit teardown had not run before a later exit handler\n");
        _exit(3);
    }
    if (late_fence)
        ID3D12Fence_Release(late_fence);
    if (late_device)
        ID3D12Device_Release(late_device);
}

/* A device with a queue, a list that cleared a buffer, and a fence, all left alive. */
static void make_and_use(ID3D12Device **out_device, ID3D12CommandQueue **out_queue, ID3D12Fence **out_fence)
{
    static const UINT values[4] = {1, 2, 3, 4};
    ID3D12Device *device = harness_create_device();
    ID3D12CommandQueue *queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    struct harness_list list = harness_create_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12Resource *buffer = harness_uav_buffer(device, 4096);
    D3D12_WRITEBUFFERIMMEDIATE_PARAMETER write = {ID3D12Resource_GetGPUVirtualAddress(buffer), values[1]};

    ID3D12GraphicsCommandList2_WriteBufferImmediate(list.list, 1, &write, NULL);
    harness_execute_and_wait(device, queue, &list);
    *out_device = device;
    *out_queue = queue;
    *out_fence = harness_create_fence(device, 0);
}

static void child_idle(void)
{
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12Fence *fence;
    make_and_use(&device, &queue, &fence);
}

/* Work queued and an event waiting for a value that a queue signals after it. */
static void child_pending(void)
{
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12Fence *fence;
    HANDLE event;

    make_and_use(&device, &queue, &fence);
    event = D3D12XSCreateEvent(FALSE, FALSE);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 2, event), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, 1), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, 2), S_OK);
}

/* With the teardown off, the device stays as it is at exit (the default on other drivers than NVIDIA's). */
static void check_not_torn_down(void)
{
    if (d3d12xs_exit_torn_down()) {
        fprintf(stderr, "test_exit_alive: the exit teardown ran with D3D12XS_EXIT_TEARDOWN=0\n");
        _exit(3);
    }
}

static void child_off(void)
{
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12Fence *fence;
    atexit(check_not_torn_down);
    make_and_use(&device, &queue, &fence);
}

static void child_late_release(void)
{
    ID3D12CommandQueue *queue;
    atexit(release_late);
    make_and_use(&late_device, &queue, &late_fence);
}

/* The device d3d12xs picks runs on NVIDIA's driver (made and released here, in the parent). */
static bool on_nvidia(void)
{
    ID3D12Device *device = harness_create_device();
    D3D12XS_DEVICE_INFO info;
    bool nvidia;

    memset(&info, 0, sizeof(info));
    CHECK_HR(D3D12XSGetDeviceInfo(device, &info), S_OK);
    nvidia = info.VendorId == 0x10de;
    harness_release_device(device);
    return nvidia;
}

int main(int argc, char **argv)
{
    /* the teardown runs on every driver with it on (by default only on NVIDIA's) */
    static const char *const teardown_on[] = {"D3D12XS_EXIT_TEARDOWN=1", NULL};
    static const char *const teardown_off[] = {"D3D12XS_EXIT_TEARDOWN=0", NULL};

    harness_init();
    if (argc > 1) {
        leaking_on_purpose = true;
        if (!strcmp(argv[1], "idle"))
            child_idle();
        else if (!strcmp(argv[1], "pending"))
            child_pending();
        else if (!strcmp(argv[1], "late_release"))
            child_late_release();
        else if (!strcmp(argv[1], "off"))
            child_off();
        else
            CHECK_MSG(false, "unknown case %s", argv[1]);
        /* exit with everything alive: the exit handlers run, the teardown among them */
        exit(harness_finish());
    }
    CHECK_MSG(harness_run_self("idle", teardown_on), "exiting with an idle device alive failed (its lines above say why)");
    CHECK_MSG(harness_run_self("pending", teardown_on), "exiting with work and an event pending failed (its lines above say why)");
    CHECK_MSG(harness_run_self("late_release", teardown_on), "a Release after the exit teardown failed (its lines above say why)");
    /* With the teardown off, NVIDIA's driver meets the device alive in its own exit handlers and
     * crashes there (the H100, driver 580.159.04: the child died after its checks passed), which
     * is why the teardown is on by default on it: the case runs on other drivers. */
    if (on_nvidia())
        printf("the teardown-off case skipped: NVIDIA's driver crashes at exit with a device alive, which the teardown exists for\n");
    else
        CHECK_MSG(harness_run_self("off", teardown_off), "exiting with the teardown off failed (its lines above say why)");
    return harness_finish();
}
