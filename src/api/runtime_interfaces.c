/* The runtime's global entry points besides device creation: D3D12GetInterface (the debug
 * object; the other classes are not available here) and D3D12EnableExperimentalFeatures
 * (no experimental features: refused as Windows does outside Developer Mode). */
#include <stdio.h>
#include <string.h>

#include "device/device.h"

/* The classes of <d3d12.h> that D3D12GetInterface does not hand out, and why. */
static const struct {
    const CLSID *clsid;
    const char *name;
    const char *reason;
} unavailable_classes[] = {
    {&CLSID_D3D12SDKConfiguration, "CLSID_D3D12SDKConfiguration",
            "d3d12xs is one runtime: there is no Agility SDK version to select"},
    {&CLSID_D3D12DeviceFactory, "CLSID_D3D12DeviceFactory",
            "device factories are not implemented: create devices with D3D12CreateDevice"},
    {&CLSID_D3D12Tools, "CLSID_D3D12Tools", "the tools interface is not implemented"},
    {&CLSID_D3D12DeviceRemovedExtendedData, "CLSID_D3D12DeviceRemovedExtendedData",
            "DRED settings are not implemented"},
};

static void format_guid(const GUID *guid, char *text, size_t size)
{
    snprintf(text, size, "{%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x}", (unsigned)guid->Data1,
            guid->Data2, guid->Data3, guid->Data4[0], guid->Data4[1], guid->Data4[2], guid->Data4[3],
            guid->Data4[4], guid->Data4[5], guid->Data4[6], guid->Data4[7]);
}

HRESULT WINAPI D3D12GetInterface(REFCLSID rclsid, REFIID riid, void **ppv)
{
    static const char method[] = "D3D12GetInterface";
    char text[40];

    d3d12xs_log_config_warnings();
    if (!ppv)
        return d3d12xs_fail(E_POINTER, method, "ppv is NULL (must receive the interface)");
    *ppv = NULL;
    if (!rclsid)
        return d3d12xs_fail(E_INVALIDARG, method, "rclsid is NULL (must name a class, e.g. CLSID_D3D12Debug)");
    if (IsEqualCLSID(rclsid, &CLSID_D3D12Debug))
        return d3d12xs_get_debug_interface(method, riid, ppv);
    /* CLASS_E_CLASSNOTAVAILABLE is COM's answer for a class that this module does not serve,
     * which is what Windows' runtimes answer for the classes they lack. */
    for (size_t i = 0; i < sizeof(unavailable_classes) / sizeof(unavailable_classes[0]); i++) {
        if (IsEqualCLSID(rclsid, unavailable_classes[i].clsid))
            return d3d12xs_fail(CLASS_E_CLASSNOTAVAILABLE, method, "rclsid is %s (not available: %s)",
                    unavailable_classes[i].name, unavailable_classes[i].reason);
    }
    format_guid(rclsid, text, sizeof(text));
    return d3d12xs_fail(CLASS_E_CLASSNOTAVAILABLE, method,
            "rclsid is %s (not a class of <d3d12.h>; CLSID_D3D12Debug is the one available)", text);
}

/* Windows enables experimental features only in Developer Mode and answers E_NOINTERFACE
 * without it (and for features it does not know). d3d12xs has no experimental features and no
 * Developer Mode, so it gives that answer to every well-formed call: the one programs are
 * written to handle, by going on with the released features. */
HRESULT WINAPI D3D12EnableExperimentalFeatures(UINT NumFeatures, const IID *pIIDs, void *pConfigurationStructs,
        UINT *pConfigurationStructSizes)
{
    static const char method[] = "D3D12EnableExperimentalFeatures";
    char text[40];

    (void)pConfigurationStructs;
    (void)pConfigurationStructSizes;
    d3d12xs_log_config_warnings();
    if (NumFeatures && !pIIDs)
        return d3d12xs_fail(E_INVALIDARG, method, "pIIDs is NULL with NumFeatures %u (must list NumFeatures feature IIDs)",
                NumFeatures);
    if (!NumFeatures)
        return d3d12xs_fail(E_NOINTERFACE, method,
                "NumFeatures is 0: experimental mode is not available (d3d12xs has no experimental features; "
                "Windows answers E_NOINTERFACE outside Developer Mode)");
    if (IsEqualIID(&pIIDs[0], &D3D12ExperimentalShaderModels))
        strcpy(text, "D3D12ExperimentalShaderModels");
    else if (IsEqualIID(&pIIDs[0], &D3D12TiledResourceTier4))
        strcpy(text, "D3D12TiledResourceTier4");
    else
        format_guid(&pIIDs[0], text, sizeof(text));
    return d3d12xs_fail(E_NOINTERFACE, method,
            "pIIDs[0] is %s: experimental features are not available (d3d12xs has none; "
            "Windows answers E_NOINTERFACE outside Developer Mode)", text);
}
