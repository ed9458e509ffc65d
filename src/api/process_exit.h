/* The process's exit with devices alive. NVIDIA's Vulkan driver crashes in its own teardown at
 * exit when a VkDevice is still alive (seen on the H100 with driver 580.159.04: a program that
 * returned from main without releasing its device died of SIGSEGV), and D3D12 programs often end
 * without releasing theirs. So the first device tracked registers an exit handler that, before
 * the drivers' teardown, takes every tracked device's Vulkan objects down (each owner's
 * take_down); after it, a last Release destroys nothing (common/object.h). Devices are tracked
 * on NVIDIA's driver, or everywhere with D3D12XS_EXIT_TEARDOWN=1 (none with 0): elsewhere a
 * program that calls exit while a thread of its own still records would otherwise meet a
 * destroyed device. */
#ifndef D3D12XS_PROCESS_EXIT_H
#define D3D12XS_PROCESS_EXIT_H

#include <stdbool.h>

/* owner's take_down runs at exit if owner is still tracked then. */
void d3d12xs_exit_track(void *owner, void (*take_down)(void *owner));
/* Stops tracking owner: true, or false when the exit teardown took it down already (its
 * Vulkan objects are gone: leave it). */
bool d3d12xs_exit_untrack(void *owner);

#endif
