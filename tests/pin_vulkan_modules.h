/* Keeps the Vulkan driver and layer modules a test process has loaded mapped until it exits.
 * The loader unloads them when the last instance goes; what they allocated once per process
 * (under pthread_once) is then unreachable, and LeakSanitizer reports it from an "unknown
 * module" that tests/lsan.supp cannot name (seen with Mesa 22.3.6-1+deb12u2's lavapipe).
 * Pinned, those allocations stay reachable, and real leaks of ours are still reported. */
#ifndef D3D12XS_TEST_PIN_VULKAN_MODULES_H
#define D3D12XS_TEST_PIN_VULKAN_MODULES_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <link.h>
#include <string.h>

static int d3d12xs_test_pin_module(struct dl_phdr_info *info, size_t size, void *context)
{
    const char *name = info->dlpi_name, *base = name ? strrchr(name, '/') : NULL;
    (void)size, (void)context;
    base = base ? base + 1 : name;
    if (base && (!strncmp(base, "libvulkan_", 10) || !strncmp(base, "libVkLayer_", 11)))
        dlopen(name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
    return 0;
}

/* Call once a device exists (its driver is loaded then). */
static inline void d3d12xs_test_pin_vulkan_modules(void)
{
    dl_iterate_phdr(d3d12xs_test_pin_module, NULL);
}

#endif
