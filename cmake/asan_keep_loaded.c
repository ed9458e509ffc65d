/*
 * Linked into the test executables of sanitizer builds (D3D12XS_SANITIZE=ON)
 * only; never part of libd3d12xs.
 *
 * The Vulkan loader dlclose()s the driver (lavapipe) and the layers when the
 * instance is destroyed. LeakSanitizer reports leaks at exit, when those
 * modules are gone: their frames show as "<unknown module>" and the
 * module-name suppressions in tests/lsan.supp cannot match them. Making
 * dlclose() a no-op keeps every module mapped until exit (like RTLD_NODELETE),
 * so leaks made by the driver by design are attributed and suppressed, while
 * leaks in libd3d12xs and the tests are still reported.
 */
int dlclose(void *handle);

int dlclose(void *handle)
{
    (void)handle;
    return 0;
}
