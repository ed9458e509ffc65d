/* The exit teardown of live devices (process_exit.h). */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "api/process_exit.h"
#include "common/object.h"
#include "common/util.h"

struct tracked {
    void *owner;
    void (*take_down)(void *owner);
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct tracked *tracked;
static size_t tracked_count, tracked_capacity;
static pid_t tracking_pid; /* a forked child's exit leaves its parent's devices alone */

/* Registered after the first device's Vulkan instance loaded the driver, so it runs before the
 * driver's own teardown (exit handlers run in reverse order of registration). */
static void take_down_at_exit(void)
{
    pthread_mutex_lock(&lock);
    if (getpid() == tracking_pid) {
        d3d12xs_exit_mark_torn_down();
        for (size_t i = 0; i < tracked_count; i++)
            tracked[i].take_down(tracked[i].owner);
        tracked_count = 0;
    }
    pthread_mutex_unlock(&lock);
}

static pthread_once_t handler_once = PTHREAD_ONCE_INIT;
static void register_handler(void)
{
    tracking_pid = getpid();
    atexit(take_down_at_exit);
}

void d3d12xs_exit_track(void *owner, void (*take_down)(void *owner))
{
    pthread_once(&handler_once, register_handler);
    pthread_mutex_lock(&lock);
    /* out of memory: that device is left to the driver at exit, as before there was a teardown */
    if (d3d12xs_array_reserve((void **)&tracked, &tracked_capacity, tracked_count + 1, sizeof(*tracked)))
        tracked[tracked_count++] = (struct tracked){owner, take_down};
    pthread_mutex_unlock(&lock);
}

bool d3d12xs_exit_untrack(void *owner)
{
    bool found = false;

    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < tracked_count && !found; i++)
        if (tracked[i].owner == owner) {
            tracked[i] = tracked[--tracked_count];
            found = true;
        }
    pthread_mutex_unlock(&lock);
    return found || !d3d12xs_exit_torn_down();
}
