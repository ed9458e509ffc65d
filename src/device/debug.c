/* ID3D12Debug: EnableDebugLayer turns on the Khronos validation layer (and SPIR-V validation)
 * for devices created afterwards, unless D3D12XS_DEBUG=0 (d3d12xs_device_config_init). */
#include <string.h>

#include "device/device.h"
#include "generated/d3d12_stubs.h"

static atomic_bool debug_layer_enabled;

void d3d12xs_device_config_init(struct d3d12xs_config *config)
{
    *config = *d3d12xs_config();
    if (config->debug == D3D12XS_CONFIG_UNSET && atomic_load(&debug_layer_enabled))
        config->debug = D3D12XS_CONFIG_ON;
}

/* The debug object is stateless, so one static instance serves every caller. */
static HRESULT STDMETHODCALLTYPE d3d12_debug_QueryInterface(ID3D12Debug *iface, REFIID riid, void **object)
{
    static const IID *const iids[] = {&IID_ID3D12Debug, &IID_IUnknown, NULL};
    return d3d12xs_query_interface(iface, "ID3D12Debug::QueryInterface", iids, riid, object);
}

static ULONG STDMETHODCALLTYPE d3d12_debug_AddRef(ID3D12Debug *iface)
{
    (void)iface;
    return 2;
}

static ULONG STDMETHODCALLTYPE d3d12_debug_Release(ID3D12Debug *iface)
{
    (void)iface;
    return 1;
}

static void STDMETHODCALLTYPE d3d12_debug_EnableDebugLayer(ID3D12Debug *iface)
{
    (void)iface;
    atomic_store(&debug_layer_enabled, true);
}

#if defined(__clang__)
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Woverride-init"
#endif

static const ID3D12DebugVtbl d3d12_debug_vtbl = {
    D3D12XS_STUB_VTBL_ID3D12Debug,
    .QueryInterface = d3d12_debug_QueryInterface,
    .AddRef = d3d12_debug_AddRef,
    .Release = d3d12_debug_Release,
    .EnableDebugLayer = d3d12_debug_EnableDebugLayer,
};

static ID3D12Debug d3d12_debug = {&d3d12_debug_vtbl};

HRESULT d3d12xs_get_debug_interface(const char *method, REFIID riid, void **debug)
{
    if (!debug)
        return d3d12xs_fail(E_POINTER, method, "ppvDebug is NULL (must receive the interface)");
    *debug = NULL;
    if (!riid)
        return d3d12xs_fail(E_INVALIDARG, method, "riid is NULL (must be IID_ID3D12Debug)");
    if (memcmp(riid, &IID_ID3D12Debug, sizeof(IID)))
        return d3d12xs_fail(E_NOINTERFACE, method, "riid is not IID_ID3D12Debug (the only debug interface here)");
    *debug = &d3d12_debug;
    return S_OK;
}

HRESULT WINAPI D3D12GetDebugInterface(REFIID riid, void **debug)
{
    return d3d12xs_get_debug_interface("D3D12GetDebugInterface", riid, debug);
}
