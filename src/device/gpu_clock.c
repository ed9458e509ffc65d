/* The GPU clock's calibration (gpu_clock.h). */
#include <pthread.h>
#include <stdlib.h>

#include "device/gpu_clock.h"

/* GPU and host clocks drift apart slowly; a pair older than this is taken again. */
#define RECALIBRATE_NS (100ull * 1000 * 1000)

struct d3d12xs_gpu_clock {
    pthread_mutex_t lock;
    bool available;
    uint64_t gpu_reference, host_reference, calibrated_at_ns;
};

static bool has_time_domains(struct d3d12_device *device)
{
    VkTimeDomainEXT domains[8];
    uint32_t count = 8;
    bool device_domain = false, monotonic = false;

    if (!device->has_calibrated_timestamps || !device->vkGetPhysicalDeviceCalibrateableTimeDomainsEXT)
        return false;
    if (device->vkGetPhysicalDeviceCalibrateableTimeDomainsEXT(device->vk_physical_device, &count, domains) < 0)
        return false;
    for (uint32_t i = 0; i < count; i++) {
        device_domain |= domains[i] == VK_TIME_DOMAIN_DEVICE_EXT;
        monotonic |= domains[i] == VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT;
    }
    return device_domain && monotonic;
}

void d3d12xs_gpu_clock_create(struct d3d12_device *device)
{
    struct d3d12xs_gpu_clock *clock = calloc(1, sizeof(*clock));
    if (!(device->gpu_clock = clock))
        return;
    pthread_mutex_init(&clock->lock, NULL);
    clock->available = has_time_domains(device);
}

void d3d12xs_gpu_clock_destroy(struct d3d12_device *device)
{
    if (!device->gpu_clock)
        return;
    pthread_mutex_destroy(&device->gpu_clock->lock);
    free(device->gpu_clock);
    device->gpu_clock = NULL;
}

bool d3d12xs_gpu_clock_available(const struct d3d12_device *device)
{
    return device->gpu_clock && device->gpu_clock->available;
}

void d3d12xs_gpu_clock_calibration(struct d3d12_device *device, uint64_t *gpu_reference, uint64_t *host_reference)
{
    struct d3d12xs_gpu_clock *clock = device->gpu_clock;
    VkCalibratedTimestampInfoEXT infos[2] = {
        {.sType = VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, .timeDomain = VK_TIME_DOMAIN_DEVICE_EXT},
        {.sType = VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, .timeDomain = VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT},
    };
    uint64_t now = d3d12xs_now_ns(), pair[2], deviation;

    *gpu_reference = *host_reference = 0;
    if (!d3d12xs_gpu_clock_available(device))
        return;
    pthread_mutex_lock(&clock->lock);
    if (!clock->calibrated_at_ns || now - clock->calibrated_at_ns > RECALIBRATE_NS) {
        if (device->vkGetCalibratedTimestampsEXT(device->vk_device, 2, infos, pair, &deviation) == VK_SUCCESS) {
            clock->gpu_reference = pair[0];
            clock->host_reference = pair[1];
            clock->calibrated_at_ns = now;
        } else {
            WARN("vkGetCalibratedTimestampsEXT failed: GPU timestamps are converted with the previous calibration");
        }
    }
    *gpu_reference = clock->gpu_reference;
    *host_reference = clock->host_reference;
    pthread_mutex_unlock(&clock->lock);
}

uint64_t d3d12xs_gpu_clock_host_ns(struct d3d12_device *device, uint64_t ticks)
{
    uint64_t gpu_reference, host_reference;
    double period = device->vk_properties.limits.timestampPeriod;
    d3d12xs_gpu_clock_calibration(device, &gpu_reference, &host_reference);
    if (ticks >= gpu_reference)
        return host_reference + (uint64_t)((double)(ticks - gpu_reference) * period);
    uint64_t back = (uint64_t)((double)(gpu_reference - ticks) * period);
    return back < host_reference ? host_reference - back : 0;
}
