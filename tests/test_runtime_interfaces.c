/* D3D12GetInterface and D3D12EnableExperimentalFeatures (issue 17): exported, and answering as
 * the Windows runtime does where d3d12xs has no such class or feature. */
#include <string.h>

#include "harness.h"

static void test_get_interface(void)
{
    ID3D12Debug *debug = NULL, *direct = NULL;
    void *out;
    LOG_MARK();

    /* CLSID_D3D12Debug: the same object as D3D12GetDebugInterface's. */
    CHECK_HR(D3D12GetInterface(&CLSID_D3D12Debug, &IID_ID3D12Debug, (void **)&debug), S_OK);
    CHECK_HR(D3D12GetDebugInterface(&IID_ID3D12Debug, (void **)&direct), S_OK);
    CHECK(debug != NULL && debug == direct);
    CHECK_NO_LOG();
    if (debug)
        ID3D12Debug_Release(debug);
    if (direct)
        ID3D12Debug_Release(direct);

    out = (void *)(uintptr_t)1;
    CHECK_HR(D3D12GetInterface(&CLSID_D3D12Debug, &IID_ID3D12Device, &out), E_NOINTERFACE);
    CHECK_LOG("D3D12GetInterface", "riid");
    CHECK(out == NULL);

    RELOG_MARK();
    out = (void *)(uintptr_t)1;
    CHECK_HR(D3D12GetInterface(&CLSID_D3D12SDKConfiguration, &IID_ID3D12SDKConfiguration, &out), CLASS_E_CLASSNOTAVAILABLE);
    CHECK_LOG("D3D12GetInterface", "CLSID_D3D12SDKConfiguration");
    CHECK(out == NULL);

    RELOG_MARK();
    out = (void *)(uintptr_t)1;
    CHECK_HR(D3D12GetInterface(&CLSID_D3D12DeviceFactory, &IID_ID3D12DeviceFactory, &out), CLASS_E_CLASSNOTAVAILABLE);
    CHECK_LOG("D3D12GetInterface", "CLSID_D3D12DeviceFactory");
    CHECK(out == NULL);

    RELOG_MARK();
    out = (void *)(uintptr_t)1;
    CHECK_HR(D3D12GetInterface(&IID_ID3D12Device, &IID_ID3D12Device, &out), CLASS_E_CLASSNOTAVAILABLE);
    CHECK_LOG("D3D12GetInterface", "rclsid", "not a class");
    CHECK(out == NULL);

    RELOG_MARK();
    out = (void *)(uintptr_t)1;
    CHECK_HR(D3D12GetInterface(NULL, &IID_ID3D12Debug, &out), E_INVALIDARG);
    CHECK_LOG("D3D12GetInterface", "rclsid is NULL");
    CHECK(out == NULL);

    RELOG_MARK();
    CHECK_HR(D3D12GetInterface(&CLSID_D3D12Debug, &IID_ID3D12Debug, NULL), E_POINTER);
    CHECK_LOG("D3D12GetInterface", "ppv is NULL");
}

static void test_enable_experimental_features(void)
{
    IID features[1];
    LOG_MARK();

    memcpy(&features[0], &D3D12ExperimentalShaderModels, sizeof(IID));
    CHECK_HR(D3D12EnableExperimentalFeatures(1, features, NULL, NULL), E_NOINTERFACE);
    CHECK_LOG("D3D12EnableExperimentalFeatures", "D3D12ExperimentalShaderModels", "not available");

    RELOG_MARK();
    CHECK_HR(D3D12EnableExperimentalFeatures(1, NULL, NULL, NULL), E_INVALIDARG);
    CHECK_LOG("D3D12EnableExperimentalFeatures", "pIIDs is NULL");

    RELOG_MARK();
    CHECK_HR(D3D12EnableExperimentalFeatures(0, NULL, NULL, NULL), E_NOINTERFACE);
    CHECK_LOG("D3D12EnableExperimentalFeatures", "not available");

    /* Devices are made as before: a refused call changes nothing. */
    harness_release_device(harness_create_device());
}

int main(void)
{
    harness_init();
    test_get_interface();
    test_enable_experimental_features();
    return harness_finish();
}
