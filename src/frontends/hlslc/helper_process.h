/* What d3d12xs's helper processes (d3d12xs-hlslc, d3d12xs-dxbc) share: helper_process.c. */
#ifndef D3D12XS_HLSLC_HELPER_PROCESS_H
#define D3D12XS_HLSLC_HELPER_PROCESS_H

/* A fatal signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, stack overflow included: the handler
 * runs on its own stack) ends the process with exit status 128 + signal number at once, without
 * core dump or sanitizer report, which the parent turns into a failed compilation with a
 * message. SIGPIPE is ignored: a parent gone is a failed write. */
void hlslc_install_crash_handlers(void);

#endif
