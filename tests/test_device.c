/* Device creation, feature queries, private data, the debug interface, stubs. */
#define INITGUID
#include <string.h>

#include "harness.h"

DEFINE_GUID(test_private_guid, 0x12345678, 0x1234, 0x5678, 0x9a, 0xbc, 0xde, 0xf0, 0x12, 0x34, 0x56, 0x78);

static void test_create_device_arguments(void)
{
    ID3D12Device *device = (ID3D12Device *)(uintptr_t)1;
    LOG_MARK();

    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, NULL), S_FALSE);
    CHECK_NO_LOG();
    CHECK_HR(D3D12CreateDevice((IUnknown *)(uintptr_t)0x1000, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&device), E_INVALIDARG);
    CHECK_LOG("pAdapter");
    CHECK(device == NULL);
    RELOG_MARK();
    CHECK_HR(D3D12CreateDevice(NULL, (D3D_FEATURE_LEVEL)0x1234, &IID_ID3D12Device, (void **)&device), E_INVALIDARG);
    CHECK_LOG("MinimumFeatureLevel");
    RELOG_MARK();
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_12_2, &IID_ID3D12Device, (void **)&device), DXGI_ERROR_UNSUPPORTED);
    CHECK_LOG("MinimumFeatureLevel");
    RELOG_MARK();
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, NULL, (void **)&device), E_INVALIDARG);
    CHECK_LOG("riid");
    RELOG_MARK();
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Fence, (void **)&device), E_NOINTERFACE);
    CHECK_LOG("riid");
    CHECK(device == NULL);
}

static void test_feature_support(ID3D12Device *device)
{
    D3D12_FEATURE_DATA_D3D12_OPTIONS options;
    D3D12_FEATURE_DATA_ARCHITECTURE architecture;
    D3D12_FEATURE_DATA_FEATURE_LEVELS levels;
    D3D12_FEATURE_DATA_ROOT_SIGNATURE root;
    D3D12_FEATURE_DATA_D3D12_OPTIONS3 options3;
    D3D12_FEATURE_DATA_D3D12_OPTIONS1 options1;
    D3D_FEATURE_LEVEL requested[] = {D3D_FEATURE_LEVEL_11_0, D3D_FEATURE_LEVEL_12_0, D3D_FEATURE_LEVEL_12_2};
    LOG_MARK();

    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_D3D12_OPTIONS, &options, sizeof(options)), S_OK);
    CHECK(options.ResourceBindingTier >= D3D12_RESOURCE_BINDING_TIER_2); /* heaps in GPU memory, no per-shader limit */
    memset(&architecture, 0, sizeof(architecture));
    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_ARCHITECTURE, &architecture, sizeof(architecture)), S_OK);
    levels.NumFeatureLevels = 3;
    levels.pFeatureLevelsRequested = requested;
    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_FEATURE_LEVELS, &levels, sizeof(levels)), S_OK);
    CHECK(levels.MaxSupportedFeatureLevel == D3D_FEATURE_LEVEL_12_0);
    root.HighestVersion = D3D_ROOT_SIGNATURE_VERSION_1_1;
    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_ROOT_SIGNATURE, &root, sizeof(root)), S_OK);
    CHECK(root.HighestVersion == D3D_ROOT_SIGNATURE_VERSION_1_1);
    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_D3D12_OPTIONS3, &options3, sizeof(options3)), S_OK);
    CHECK(options3.WriteBufferImmediateSupportFlags & D3D12_COMMAND_LIST_SUPPORT_FLAG_COPY);
    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_D3D12_OPTIONS1, &options1, sizeof(options1)), S_OK);
    CHECK(options1.WaveLaneCountMin >= 4 && options1.WaveLaneCountMin <= 128);
    CHECK_NO_LOG();

    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_D3D12_OPTIONS, NULL, sizeof(options)), E_INVALIDARG);
    CHECK_LOG("pFeatureSupportData");
    RELOG_MARK();
    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_D3D12_OPTIONS, &options, sizeof(options) - 4), E_INVALIDARG);
    CHECK_LOG("FeatureSupportDataSize");
    RELOG_MARK();
    architecture.NodeIndex = 1;
    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_ARCHITECTURE, &architecture, sizeof(architecture)), E_INVALIDARG);
    CHECK_LOG("NodeIndex");
    RELOG_MARK();
    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, (D3D12_FEATURE)9999, &options, sizeof(options)), E_INVALIDARG);
    CHECK_LOG("Feature");
}

/* The features of later SDKs: each answered with its struct's size checked, and the values a
 * program reads to decide what not to use. */
static void test_newer_features(ID3D12Device *device)
{
    D3D12_FEATURE_DATA_D3D12_OPTIONS5 options5;
    D3D12_FEATURE_DATA_D3D12_OPTIONS7 options7;
    D3D12_FEATURE_DATA_D3D12_OPTIONS12 options12;
    D3D12_FEATURE_DATA_D3D12_OPTIONS19 options19;
    D3D12_FEATURE_DATA_D3D12_OPTIONS21 options21;
    D3D12_FEATURE_DATA_D3D12_OPTIONS options;
    D3D12_FEATURE_DATA_FORMAT_INFO format = {DXGI_FORMAT_R32G32B32A32_FLOAT, 0};
    D3D12_FEATURE_DATA_MULTISAMPLE_QUALITY_LEVELS quality = {DXGI_FORMAT_R8G8B8A8_UNORM, 4, D3D12_MULTISAMPLE_QUALITY_LEVELS_FLAG_NONE, 7};
    D3D12_FEATURE_DATA_EXISTING_HEAPS existing = {TRUE};
    D3D12_FEATURE_DATA_SERIALIZATION serialization = {0, D3D12_HEAP_SERIALIZATION_TIER_10};
    struct { D3D12_FEATURE feature; size_t size; } zeroed[] = {
        {D3D12_FEATURE_D3D12_OPTIONS4, sizeof(D3D12_FEATURE_DATA_D3D12_OPTIONS4)},
        {D3D12_FEATURE_D3D12_OPTIONS6, sizeof(D3D12_FEATURE_DATA_D3D12_OPTIONS6)},
        {D3D12_FEATURE_D3D12_OPTIONS8, sizeof(D3D12_FEATURE_DATA_D3D12_OPTIONS8)},
        {D3D12_FEATURE_D3D12_OPTIONS9, sizeof(D3D12_FEATURE_DATA_D3D12_OPTIONS9)},
        {D3D12_FEATURE_D3D12_OPTIONS10, sizeof(D3D12_FEATURE_DATA_D3D12_OPTIONS10)},
        {D3D12_FEATURE_D3D12_OPTIONS11, sizeof(D3D12_FEATURE_DATA_D3D12_OPTIONS11)},
        {D3D12_FEATURE_D3D12_OPTIONS13, sizeof(D3D12_FEATURE_DATA_D3D12_OPTIONS13)},
        {D3D12_FEATURE_D3D12_OPTIONS14, sizeof(D3D12_FEATURE_DATA_D3D12_OPTIONS14)},
        {D3D12_FEATURE_D3D12_OPTIONS17, sizeof(D3D12_FEATURE_DATA_D3D12_OPTIONS17)},
        {D3D12_FEATURE_D3D12_OPTIONS18, sizeof(D3D12_FEATURE_DATA_D3D12_OPTIONS18)},
        {D3D12_FEATURE_D3D12_OPTIONS20, sizeof(D3D12_FEATURE_DATA_D3D12_OPTIONS20)},
    };
    LOG_MARK();

    for (size_t i = 0; i < sizeof(zeroed) / sizeof(zeroed[0]); i++) {
        unsigned char bytes[64];
        bool all_zero = true;
        memset(bytes, 0xcc, sizeof(bytes));
        CHECK_HR(ID3D12Device_CheckFeatureSupport(device, zeroed[i].feature, bytes, (UINT)zeroed[i].size), S_OK);
        for (size_t b = 0; b < zeroed[i].size; b++)
            all_zero &= bytes[b] == 0;
        CHECK_MSG(all_zero, "feature %d: every member should read FALSE / not supported", (int)zeroed[i].feature);
        CHECK_MSG(bytes[zeroed[i].size] == 0xcc, "feature %d: written past its struct", (int)zeroed[i].feature);
    }
    {
        /* IASetIndexBufferStripCutValue and RSSetDepthBias are there (list state is dynamic state) */
        D3D12_FEATURE_DATA_D3D12_OPTIONS15 options15;
        D3D12_FEATURE_DATA_D3D12_OPTIONS16 options16;
        memset(&options15, 0xcc, sizeof(options15));
        memset(&options16, 0xcc, sizeof(options16));
        CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_D3D12_OPTIONS15, &options15, sizeof(options15)), S_OK);
        CHECK(!options15.TriangleFanSupported && options15.DynamicIndexBufferStripCutSupported);
        CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_D3D12_OPTIONS16, &options16, sizeof(options16)), S_OK);
        CHECK(options16.DynamicDepthBiasSupported && !options16.GPUUploadHeapSupported);
    }
    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_D3D12_OPTIONS5, &options5, sizeof(options5)), S_OK);
    CHECK(options5.RaytracingTier == D3D12_RAYTRACING_TIER_NOT_SUPPORTED && options5.RenderPassesTier == D3D12_RENDER_PASS_TIER_0);
    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_D3D12_OPTIONS7, &options7, sizeof(options7)), S_OK);
    CHECK(options7.MeshShaderTier == D3D12_MESH_SHADER_TIER_NOT_SUPPORTED && options7.SamplerFeedbackTier == D3D12_SAMPLER_FEEDBACK_TIER_NOT_SUPPORTED);
    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_D3D12_OPTIONS12, &options12, sizeof(options12)), S_OK);
    CHECK(!options12.EnhancedBarriersSupported);
    /* the largest view heap is D3D12's, what CreateDescriptorHeap takes on every device (tier 3
     * where shaders can address all of it: test_descriptor_heaps); the next one up is refused */
    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_D3D12_OPTIONS19, &options19, sizeof(options19)), S_OK);
    CHECK(options19.MaxSamplerDescriptorHeapSize == 2048 && options19.MaxViewDescriptorHeapSize == 1000000);
    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_D3D12_OPTIONS, &options, sizeof(options)), S_OK);
    CHECK(options.ResourceBindingTier >= D3D12_RESOURCE_BINDING_TIER_2);
    CHECK_NO_LOG();
    {
        D3D12_DESCRIPTOR_HEAP_DESC desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, options19.MaxViewDescriptorHeapSize + 1,
                D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
        ID3D12DescriptorHeap *heap = NULL;
        CHECK_HR(ID3D12Device_CreateDescriptorHeap(device, &desc, &IID_ID3D12DescriptorHeap, (void **)&heap), E_INVALIDARG);
        CHECK_LOG("CreateDescriptorHeap", "NumDescriptors");
        RELOG_MARK();
    }
    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_D3D12_OPTIONS21, &options21, sizeof(options21)), S_OK);
    CHECK(options21.WorkGraphsTier == D3D12_WORK_GRAPHS_TIER_NOT_SUPPORTED && (options21.ExecuteIndirectTier == D3D12_EXECUTE_INDIRECT_TIER_1_0
            || options21.ExecuteIndirectTier == D3D12_EXECUTE_INDIRECT_TIER_1_1)); /* 1.1 with generated commands: test_indirect_root_views */
    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_FORMAT_INFO, &format, sizeof(format)), S_OK);
    CHECK(format.PlaneCount == 1);
    format.Format = DXGI_FORMAT_D24_UNORM_S8_UINT;
    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_FORMAT_INFO, &format, sizeof(format)), S_OK);
    CHECK(format.PlaneCount == 2);
    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_MULTISAMPLE_QUALITY_LEVELS, &quality, sizeof(quality)), S_OK);
    CHECK(quality.NumQualityLevels == 1); /* 4x RGBA8 render targets: lavapipe and the H200 have them */
    quality.SampleCount = 3;
    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_MULTISAMPLE_QUALITY_LEVELS, &quality, sizeof(quality)), S_OK);
    CHECK(quality.NumQualityLevels == 0); /* not a power of two */
    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_EXISTING_HEAPS, &existing, sizeof(existing)), S_OK);
    CHECK(existing.Supported); /* OpenExistingHeapFromAddress: both devices import host memory (test_existing_heap) */
    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_SERIALIZATION, &serialization, sizeof(serialization)), S_OK);
    CHECK(serialization.HeapSerializationTier == D3D12_HEAP_SERIALIZATION_TIER_0);
    CHECK_NO_LOG();

    {
        D3D12_FEATURE_DATA_FORMAT_SUPPORT typed = {DXGI_FORMAT_R32_UINT, 0, 0}, compressed = {DXGI_FORMAT_BC1_UNORM, 0, 0};
        D3D12_FEATURE_DATA_PLACED_RESOURCE_SUPPORT_INFO placed;
        D3D12_FEATURE_DATA_PROTECTED_RESOURCE_SESSION_TYPE_COUNT sessions = {0, 7};
        D3D12_FEATURE_DATA_HARDWARE_COPY copy = {TRUE};
        CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_FORMAT_SUPPORT, &typed, sizeof(typed)), S_OK);
        CHECK((typed.Support1 & D3D12_FORMAT_SUPPORT1_BUFFER) && (typed.Support1 & D3D12_FORMAT_SUPPORT1_TYPED_UNORDERED_ACCESS_VIEW));
        CHECK(typed.Support2 & D3D12_FORMAT_SUPPORT2_UAV_TYPED_STORE);
        CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_FORMAT_SUPPORT, &compressed, sizeof(compressed)), S_OK);
        /* BC1: a 2D, 3D and cube texture with mips that shaders load, sample and gather (both
         * devices decode BC), cast within BC1_TYPELESS; never a buffer, a 1D texture, a UAV or a
         * render target. */
        CHECK(compressed.Support1 == (D3D12_FORMAT_SUPPORT1_TEXTURE2D | D3D12_FORMAT_SUPPORT1_TEXTURE3D | D3D12_FORMAT_SUPPORT1_TEXTURECUBE
                | D3D12_FORMAT_SUPPORT1_MIP | D3D12_FORMAT_SUPPORT1_SHADER_LOAD | D3D12_FORMAT_SUPPORT1_SHADER_SAMPLE
                | D3D12_FORMAT_SUPPORT1_SHADER_GATHER | D3D12_FORMAT_SUPPORT1_CAST_WITHIN_BIT_LAYOUT)
                && compressed.Support2 == D3D12_FORMAT_SUPPORT2_NONE);
        compressed.Format = DXGI_FORMAT_R32G32B32_FLOAT; /* 12-byte texels: buffers only */
        CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_FORMAT_SUPPORT, &compressed, sizeof(compressed)), S_OK);
        CHECK(!(compressed.Support1 & (D3D12_FORMAT_SUPPORT1_TEXTURE1D | D3D12_FORMAT_SUPPORT1_TEXTURE2D | D3D12_FORMAT_SUPPORT1_TEXTURE3D)));
        CHECK(typed.Support1 & D3D12_FORMAT_SUPPORT1_TEXTURE3D);
        /* R32_UINT textures: loads and gathers, typed UAVs with atomics, render targets; no filtered samples */
        CHECK((typed.Support1 & D3D12_FORMAT_SUPPORT1_SHADER_LOAD) && (typed.Support1 & D3D12_FORMAT_SUPPORT1_RENDER_TARGET)
                && !(typed.Support1 & D3D12_FORMAT_SUPPORT1_SHADER_SAMPLE) && (typed.Support2 & D3D12_FORMAT_SUPPORT2_UAV_ATOMIC_ADD)
                && (typed.Support2 & D3D12_FORMAT_SUPPORT2_UAV_TYPED_LOAD));
        {
            D3D12_FEATURE_DATA_FORMAT_SUPPORT rgba8 = {DXGI_FORMAT_R8G8B8A8_UNORM, 0, 0}, srgb = {DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, 0, 0};
            D3D12_FEATURE_DATA_FORMAT_SUPPORT depth = {DXGI_FORMAT_D32_FLOAT, 0, 0}, r32f = {DXGI_FORMAT_R32_FLOAT, 0, 0};
            const UINT rgba8_expected = D3D12_FORMAT_SUPPORT1_SHADER_LOAD | D3D12_FORMAT_SUPPORT1_SHADER_SAMPLE
                    | D3D12_FORMAT_SUPPORT1_SHADER_GATHER | D3D12_FORMAT_SUPPORT1_TYPED_UNORDERED_ACCESS_VIEW
                    | D3D12_FORMAT_SUPPORT1_RENDER_TARGET | D3D12_FORMAT_SUPPORT1_MULTISAMPLE_RENDERTARGET
                    | D3D12_FORMAT_SUPPORT1_MULTISAMPLE_LOAD | D3D12_FORMAT_SUPPORT1_CAST_WITHIN_BIT_LAYOUT;
            CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_FORMAT_SUPPORT, &rgba8, sizeof(rgba8)), S_OK);
            CHECK((rgba8.Support1 & rgba8_expected) == rgba8_expected && !(rgba8.Support1 & D3D12_FORMAT_SUPPORT1_BLENDABLE));
            /* sRGB: sampled and rendered to, never a typed UAV (Vulkan stores no sRGB) */
            CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_FORMAT_SUPPORT, &srgb, sizeof(srgb)), S_OK);
            CHECK((srgb.Support1 & D3D12_FORMAT_SUPPORT1_SHADER_SAMPLE) && (srgb.Support1 & D3D12_FORMAT_SUPPORT1_RENDER_TARGET)
                    && !(srgb.Support1 & D3D12_FORMAT_SUPPORT1_TYPED_UNORDERED_ACCESS_VIEW));
            /* D32_FLOAT is a depth buffer that shaders read as R32_FLOAT, which compares */
            CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_FORMAT_SUPPORT, &depth, sizeof(depth)), S_OK);
            CHECK((depth.Support1 & D3D12_FORMAT_SUPPORT1_DEPTH_STENCIL) && !(depth.Support1 & D3D12_FORMAT_SUPPORT1_SHADER_LOAD)
                    && !(depth.Support1 & D3D12_FORMAT_SUPPORT1_TEXTURE3D));
            CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_FORMAT_SUPPORT, &r32f, sizeof(r32f)), S_OK);
            CHECK((r32f.Support1 & D3D12_FORMAT_SUPPORT1_SHADER_SAMPLE_COMPARISON) && !(r32f.Support1 & D3D12_FORMAT_SUPPORT1_DEPTH_STENCIL));
        }
        memset(&placed, 0, sizeof(placed));
        placed.Format = DXGI_FORMAT_UNKNOWN;
        placed.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
        placed.DestHeapProperties.Type = D3D12_HEAP_TYPE_DEFAULT;
        CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_PLACED_RESOURCE_SUPPORT_INFO, &placed, sizeof(placed)), S_OK);
        CHECK(placed.Supported);
        placed.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
        CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_PLACED_RESOURCE_SUPPORT_INFO, &placed, sizeof(placed)), S_OK);
        CHECK(!placed.Supported);
        CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_PROTECTED_RESOURCE_SESSION_TYPE_COUNT, &sessions, sizeof(sessions)), S_OK);
        CHECK(sessions.Count == 0);
        CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_HARDWARE_COPY, &copy, sizeof(copy)), S_OK);
        CHECK(!copy.Supported);
        CHECK_NO_LOG();
    }
    {
        D3D12_FEATURE_DATA_QUERY_META_COMMAND meta;
        memset(&meta, 0, sizeof(meta));
        CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_QUERY_META_COMMAND, &meta, sizeof(meta)), E_INVALIDARG);
        CHECK_LOG("QUERY_META_COMMAND");
        RELOG_MARK();
    }
    format.Format = (DXGI_FORMAT)9999;
    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_FORMAT_INFO, &format, sizeof(format)), E_INVALIDARG);
    CHECK_LOG("FORMAT_INFO", "Format");
    RELOG_MARK();
    {
        D3D12_FEATURE_DATA_PROTECTED_RESOURCE_SESSION_TYPE_COUNT count = {1, 0};
        D3D12_FEATURE_DATA_PROTECTED_RESOURCE_SESSION_TYPES types = {0, 1, NULL};
        CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_PROTECTED_RESOURCE_SESSION_TYPE_COUNT, &count, sizeof(count)), E_INVALIDARG);
        CHECK_LOG("NodeIndex");
        RELOG_MARK();
        CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_PROTECTED_RESOURCE_SESSION_TYPES, &types, sizeof(types)), E_INVALIDARG);
        CHECK_LOG("PROTECTED_RESOURCE_SESSION_TYPES", "Count");
        RELOG_MARK();
        types.Count = 0;
        CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_PROTECTED_RESOURCE_SESSION_TYPES, &types, sizeof(types)), S_OK);
        CHECK_NO_LOG();
    }
    serialization.NodeIndex = 1;
    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_SERIALIZATION, &serialization, sizeof(serialization)), E_INVALIDARG);
    CHECK_LOG("NodeIndex");
    RELOG_MARK();
    CHECK_HR(ID3D12Device_CheckFeatureSupport(device, D3D12_FEATURE_D3D12_OPTIONS19, &options19, sizeof(options19) - 4), E_INVALIDARG);
    CHECK_LOG("FeatureSupportDataSize", "OPTIONS19");
}

static void test_private_data(ID3D12Device *device)
{
    UINT value = 0xdeadbeef, out = 0, size = sizeof(out);
    LOG_MARK();

    CHECK_HR(ID3D12Device_SetPrivateData(device, &test_private_guid, sizeof(value), &value), S_OK);
    CHECK_HR(ID3D12Device_GetPrivateData(device, &test_private_guid, &size, &out), S_OK);
    CHECK(out == value && size == sizeof(value));
    size = 0;
    CHECK_HR(ID3D12Device_GetPrivateData(device, &test_private_guid, &size, NULL), S_OK);
    CHECK(size == sizeof(value));
    size = 2;
    CHECK_HR(ID3D12Device_GetPrivateData(device, &test_private_guid, &size, &out), DXGI_ERROR_MORE_DATA);
    CHECK_LOG("pDataSize");
    RELOG_MARK();
    CHECK_HR(ID3D12Device_SetPrivateData(device, &test_private_guid, 0, NULL), S_OK);
    size = sizeof(out);
    CHECK_HR(ID3D12Device_GetPrivateData(device, &test_private_guid, &size, &out), DXGI_ERROR_NOT_FOUND);
    CHECK_HR(ID3D12Device_GetPrivateData(device, NULL, &size, &out), E_INVALIDARG);
    CHECK_LOG("guid");
    RELOG_MARK();
    CHECK_HR(ID3D12Device_SetPrivateData(device, &test_private_guid, 0, &value), E_INVALIDARG);
    CHECK_LOG("DataSize");
    RELOG_MARK();

    /* An interface stored as private data is held and handed back with a reference. */
    ID3D12Fence *fence = NULL, *got = NULL;
    CHECK_HR(ID3D12Device_CreateFence(device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&fence), S_OK);
    CHECK_HR(ID3D12Device_SetPrivateDataInterface(device, &test_private_guid, (IUnknown *)fence), S_OK);
    size = sizeof(got);
    CHECK_HR(ID3D12Device_GetPrivateData(device, &test_private_guid, &size, &got), S_OK);
    CHECK(got == fence);
    ID3D12Fence_Release(got);
    CHECK_HR(ID3D12Device_SetPrivateDataInterface(device, &test_private_guid, NULL), S_OK);
    CHECK(ID3D12Fence_Release(fence) == 0);

    CHECK_HR(ID3D12Device_SetName(device, L"test device"), S_OK);
    CHECK_HR(ID3D12Device_SetName(device, NULL), E_INVALIDARG);
    CHECK_LOG("Name");
}

static void test_interfaces(ID3D12Device *device)
{
    IUnknown *unknown = NULL;
    ID3D12Object *object = NULL;
    ID3D12Fence *fence = (ID3D12Fence *)(uintptr_t)1;
    LOG_MARK();

    CHECK_HR(ID3D12Device_QueryInterface(device, &IID_IUnknown, (void **)&unknown), S_OK);
    CHECK((void *)unknown == (void *)device);
    IUnknown_Release(unknown);
    CHECK_HR(ID3D12Device_QueryInterface(device, &IID_ID3D12Object, (void **)&object), S_OK);
    ID3D12Object_Release(object);
    CHECK_HR(ID3D12Device_QueryInterface(device, &IID_ID3D12Fence, (void **)&fence), E_NOINTERFACE);
    CHECK(fence == NULL);
    CHECK_NO_LOG();
    CHECK_HR(ID3D12Device_QueryInterface(device, &IID_IUnknown, NULL), E_POINTER);
    CHECK_LOG("ppvObject");
    CHECK(ID3D12Device_GetNodeCount(device) == 1);
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(device), S_OK);
}

static void test_misc_methods(ID3D12Device *device)
{
    D3D12_RESOURCE_DESC desc = harness_buffer_desc(1000);
    D3D12_RESOURCE_ALLOCATION_INFO info;
    D3D12_HEAP_PROPERTIES properties;
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT footprint;
    UINT rows = 0;
    UINT64 row_size = 0, total = 0;
    D3D12XS_DEVICE_INFO device_info;
    LOG_MARK();

    info = ID3D12Device_GetResourceAllocationInfo(device, 0, 1, &desc);
    CHECK(info.SizeInBytes == 65536 && info.Alignment == 65536);
    properties = ID3D12Device_GetCustomHeapProperties(device, 0, D3D12_HEAP_TYPE_UPLOAD);
    CHECK(properties.Type == D3D12_HEAP_TYPE_CUSTOM && properties.CPUPageProperty != D3D12_CPU_PAGE_PROPERTY_UNKNOWN
            && properties.MemoryPoolPreference == D3D12_MEMORY_POOL_L0);
    ID3D12Device_GetCopyableFootprints(device, &desc, 0, 1, 256, &footprint, &rows, &row_size, &total);
    CHECK(footprint.Offset == 256 && footprint.Footprint.Width == 1000 && rows == 1 && row_size == 1000 && total == 1000);
    CHECK_HR(ID3D12Device_MakeResident(device, 0, NULL), S_OK);
    CHECK_HR(ID3D12Device_Evict(device, 0, NULL), S_OK);
    CHECK_NO_LOG();
    CHECK_HR(ID3D12Device_MakeResident(device, 2, NULL), E_INVALIDARG);
    CHECK_LOG("ppObjects");
    RELOG_MARK();
    desc.Width = 0;
    info = ID3D12Device_GetResourceAllocationInfo(device, 0, 1, &desc);
    CHECK(info.SizeInBytes == UINT64_MAX);
    CHECK_LOG("Width");
    RELOG_MARK();

    CHECK_HR(D3D12XSGetDeviceInfo(device, &device_info), S_OK);
    CHECK(device_info.DeviceName[0] != 0 && device_info.SubgroupSize >= 4 && device_info.TimestampFrequency > 0);
    CHECK(device_info.Queues[D3D12_COMMAND_LIST_TYPE_DIRECT].VulkanQueueCount >= 1);
    CHECK_HR(D3D12XSGetDeviceInfo(device, NULL), E_INVALIDARG);
    CHECK_LOG("info");
    RELOG_MARK();
    CHECK_HR(D3D12XSGetDeviceInfo(NULL, &device_info), E_INVALIDARG);
    CHECK_LOG("device");
}

/* Methods outside what is implemented answer E_NOTIMPL and say so once. */
static void test_not_implemented(ID3D12Device *device)
{
    HANDLE handle = NULL;
    LOG_MARK();

    /* CreateSharedHandle: no shared handles here (the stub's line, once) */
    CHECK_HR(ID3D12Device_CreateSharedHandle(device, NULL, NULL, 0, NULL, &handle), E_NOTIMPL);
    CHECK_LOG("ID3D12Device::CreateSharedHandle", "not implemented");
    RELOG_MARK();
    CHECK_HR(ID3D12Device_CreateSharedHandle(device, NULL, NULL, 0, NULL, &handle), E_NOTIMPL);
    CHECK_NO_LOG();
}

static void test_debug_interface(void)
{
    ID3D12Debug *debug = NULL;
    LOG_MARK();

    CHECK_HR(D3D12GetDebugInterface(&IID_ID3D12Debug, (void **)&debug), S_OK);
    CHECK(debug != NULL);
    if (debug) {
        ID3D12Debug_EnableDebugLayer(debug);
        ID3D12Debug_Release(debug);
    }
    CHECK_HR(D3D12GetDebugInterface(&IID_ID3D12Device, (void **)&debug), E_NOINTERFACE);
    CHECK_LOG("riid");
    RELOG_MARK();
    CHECK_HR(D3D12GetDebugInterface(&IID_ID3D12Debug, NULL), E_POINTER);
    CHECK_LOG("ppvDebug");
}

int main(void)
{
    harness_init();
    test_create_device_arguments();
    test_debug_interface();
    ID3D12Device *device = harness_create_device();
    test_feature_support(device);
    test_newer_features(device);
    test_private_data(device);
    test_interfaces(device);
    test_misc_methods(device);
    test_not_implemented(device);
    harness_release_device(device);
    return harness_finish();
}
