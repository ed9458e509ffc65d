/* (d) of bench_sync: the cross-stream value hand-off CUDA offers, for comparison with the
 * console's bottom-of-pipe write + mid-list wait. Two streams take turns on one 64-bit count
 * in device memory: hop v waits (cuStreamWaitValue64, >=) for v - 1 and writes v
 * (cuStreamWriteValue64). Every hop is enqueued before the first runs; the time is from the
 * first enqueue to the last value, over HOPS hops, median of 5 runs. Built only where the
 * CUDA toolkit is (CMake's CUDAToolkit), and run by bench_sync when it sits next to it.
 * Prints "hop_us=<median>". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <cuda.h>

#define HOPS 1000
#define RUNS 5

#define CU(expr) do { CUresult r_ = (expr); if (r_ != CUDA_SUCCESS) { \
    const char *name_ = "?"; cuGetErrorName(r_, &name_); \
    fprintf(stderr, "cuda_ping_pong: line %d: %s failed: %s\n", __LINE__, #expr, name_); exit(1); } } while (0)

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(void)
{
    CUdevice device;
    CUcontext context;
    CUstream streams[2];
    CUdeviceptr count;
    double runs[RUNS];
    int supported = 0;
    char name[256];

    CU(cuInit(0));
    CU(cuDeviceGet(&device, 0));
    CU(cuDeviceGetName(name, sizeof(name), device));
    CU(cuDeviceGetAttribute(&supported, CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS, device));
    if (!supported) {
        fprintf(stderr, "cuda_ping_pong: %s lacks 64-bit stream memory operations\n", name);
        return 1;
    }
    CU(cuDevicePrimaryCtxRetain(&context, device));
    CU(cuCtxSetCurrent(context));
    CU(cuStreamCreate(&streams[0], CU_STREAM_NON_BLOCKING));
    CU(cuStreamCreate(&streams[1], CU_STREAM_NON_BLOCKING));
    CU(cuMemAlloc(&count, 8));
    for (int run = 0; run < RUNS; run++) {
        CU(cuMemsetD32(count, 0, 2));
        CU(cuCtxSynchronize());
        double start = now_ns();
        for (uint64_t v = 1; v <= HOPS; v++) {
            CUstream stream = streams[v & 1];
            CU(cuStreamWaitValue64(stream, count, v - 1, CU_STREAM_WAIT_VALUE_GEQ));
            CU(cuStreamWriteValue64(stream, count, v, CU_STREAM_WRITE_VALUE_DEFAULT));
        }
        CU(cuStreamSynchronize(streams[0]));
        CU(cuStreamSynchronize(streams[1]));
        runs[run] = (now_ns() - start) / HOPS / 1e3;
        uint64_t last = 0;
        CU(cuMemcpyDtoH(&last, count, 8));
        if (last != HOPS) {
            fprintf(stderr, "cuda_ping_pong: the count is %llu after %u hops\n", (unsigned long long)last, HOPS);
            return 1;
        }
    }
    for (int i = 0; i < RUNS; i++)
        for (int j = i + 1; j < RUNS; j++)
            if (runs[j] < runs[i]) {
                double t = runs[i];
                runs[i] = runs[j];
                runs[j] = t;
            }
    printf("device=%s hops=%u hop_us=%.3f\n", name, HOPS, runs[RUNS / 2]);
    CU(cuMemFree(count));
    CU(cuStreamDestroy(streams[0]));
    CU(cuStreamDestroy(streams[1]));
    CU(cuDevicePrimaryCtxRelease(device));
    return 0;
}
