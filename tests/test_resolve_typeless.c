/* ResolveSubresource and ResolveSubresourceRegion between resources of one typeless family: the
 * Format argument says how the samples are read and the result written, whichever members the
 * resources are (d3d12xs's own resolve pass where the Vulkan formats differ from Format's or from
 * each other). Pixels checked: UNORM and UNORM_SRGB readings of one R8G8B8A8_TYPELESS source (the
 * sRGB mean is of decoded samples), an sRGB source into a TYPELESS destination, a FLOAT source
 * into an R16G16B16A16_TYPELESS destination; moved regions by MIN and MAX. Refused by Windows'
 * rule (E_INVALIDARG at Close, with the line): a Format outside the family, a member other than
 * a typed resource's own format, a typeless Format. */
#include "resolve_cases.h"

/* The resources' formats differ, or Format is not the one their images are made with: the samples
 * are read and the result written in Format's interpretation. R8G8B8A8 samples R 0, 85, 170, 255;
 * G 255, 204, 153, 102; B 10, 30, 50, 70 (of 255) average to 164, 190, 46 as sRGB (decoded, the
 * mean encoded) and to 127.5, 178.5, 40 as UNORM; the sRGB source's linear samples R 0.05 .. 0.35,
 * G 0.6 .. 0.15, B 0 .. 0.06 are stored 63 .. 160, 203 .. 108, 0 .. 69 and average to 124, 165,
 * 48. R16G16B16A16_FLOAT samples R -0.5 .. -1.25, G 2 .. -2.5, B 0.25 .. 0.625 average to -0.875,
 * -0.25, 0.4375. */
static void test_family_resolves(ID3D12Device *device, ID3D12CommandQueue *queue, ID3D12RootSignature *signature)
{
#define UNORM_SAMPLES "float4", "0, 1, 10.0 / 255, 1", "85.0 / 255, -51.0 / 255, 20.0 / 255, 0"
    static const struct resolve_case cases[] = {
        {"TYPELESS as UNORM_SRGB into UNORM_SRGB", DXGI_FORMAT_R8G8B8A8_TYPELESS, DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_R8G8B8A8_UNORM_SRGB,
                DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, 4, UNORM_SAMPLES, D3D12_RESOLVE_MODE_AVERAGE, D3D12_RESOLVE_MODE_MIN,
                {164, 190, 46, 255}, {0, 102, 10, 255}, 1},
        {"UNORM_SRGB into TYPELESS", DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, DXGI_FORMAT_R8G8B8A8_TYPELESS,
                DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, 4, "float4", "0.05, 0.6, 0, 1", "0.1, -0.15, 0.02, 0", D3D12_RESOLVE_MODE_AVERAGE,
                D3D12_RESOLVE_MODE_MAX, {124, 165, 48, 255}, {160, 203, 69, 255}, 1},
        /* both TYPELESS: Format UNORM is the images' own (Vulkan's resolve), UNORM_SRGB is not */
        {"TYPELESS as UNORM into TYPELESS", DXGI_FORMAT_R8G8B8A8_TYPELESS, DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_R8G8B8A8_TYPELESS,
                DXGI_FORMAT_R8G8B8A8_UNORM, 4, UNORM_SAMPLES, D3D12_RESOLVE_MODE_AVERAGE, D3D12_RESOLVE_MODE_MAX,
                {128, 179, 40, 255}, {255, 255, 70, 255}, 1},
        {"TYPELESS as UNORM_SRGB into TYPELESS", DXGI_FORMAT_R8G8B8A8_TYPELESS, DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_R8G8B8A8_TYPELESS,
                DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, 4, UNORM_SAMPLES, D3D12_RESOLVE_MODE_AVERAGE, D3D12_RESOLVE_MODE_MIN,
                {164, 190, 46, 255}, {0, 102, 10, 255}, 1},
        {"FLOAT into TYPELESS", DXGI_FORMAT_R16G16B16A16_FLOAT, DXGI_FORMAT_R16G16B16A16_FLOAT, DXGI_FORMAT_R16G16B16A16_TYPELESS,
                DXGI_FORMAT_R16G16B16A16_FLOAT, 8, "float4", "-0.5, 2, 0.25, 1", "-0.25, -1.5, 0.125, 0", D3D12_RESOLVE_MODE_AVERAGE,
                D3D12_RESOLVE_MODE_MIN, {LE16(0xbb00), LE16(0xb400), LE16(0x3700), LE16(0x3c00)},
                {LE16(0xbd00), LE16(0xc100), LE16(0x3400), LE16(0x3c00)}, 0},
    };
#undef UNORM_SAMPLES

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        check_resolves(device, queue, signature, &cases[i]);
}

/* Windows' rule: a typed resource's Format is its own, a typeless one's a typed member of its
 * family; a Format outside it, a member other than the typed destination's format and the
 * family's typeless format each fail Close. */
static void test_family_refusals(ID3D12Device *device)
{
    ID3D12Resource *typeless = target_texture(device, 4, DXGI_FORMAT_R8G8B8A8_TYPELESS, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET,
            D3D12_RESOURCE_STATE_RESOLVE_SOURCE);
    ID3D12Resource *srgb = target_texture(device, 1, DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_RESOLVE_DEST);

    check_refused(device, srgb, typeless, DXGI_FORMAT_R16G16B16A16_FLOAT, D3D12_RESOLVE_MODE_AVERAGE, false, E_INVALIDARG,
            "Format 10 does not fit both resources");
    check_refused(device, srgb, typeless, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOLVE_MODE_AVERAGE, true, E_INVALIDARG,
            "Format 28 does not fit both resources");
    check_refused(device, srgb, typeless, DXGI_FORMAT_R8G8B8A8_TYPELESS, D3D12_RESOLVE_MODE_MAX, true, E_INVALIDARG,
            "Format 27 does not fit both resources");
    ID3D12Resource_Release(srgb);
    ID3D12Resource_Release(typeless);
}

int main(void)
{
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12RootSignature *signature;

    harness_init();
    device = harness_create_device();
    queue = harness_create_queue(device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    signature = harness_root_signature(device, NULL, 0, D3D12_ROOT_SIGNATURE_FLAG_NONE);
    test_family_resolves(device, queue, signature);
    test_family_refusals(device);
    ID3D12RootSignature_Release(signature);
    ID3D12CommandQueue_Release(queue);
    harness_release_device(device);
    return harness_finish();
}
