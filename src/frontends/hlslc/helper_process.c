/* What d3d12xs's helper processes (d3d12xs-hlslc, d3d12xs-dxbc) share: how they end on a fatal
 * signal. */
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "frontends/hlslc/helper_process.h"

static void on_fatal_signal(int sig)
{
    _exit(128 + sig);
}

void hlslc_install_crash_handlers(void)
{
    static const int signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS};
    static char alternate_stack[1 << 16];
    stack_t ss = {.ss_sp = alternate_stack, .ss_size = sizeof(alternate_stack)};
    struct sigaction sa;
    struct rlimit no_core = {0, 0};

    setrlimit(RLIMIT_CORE, &no_core);
    sigaltstack(&ss, NULL);
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_fatal_signal;
    sa.sa_flags = SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++)
        sigaction(signals[i], &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}
