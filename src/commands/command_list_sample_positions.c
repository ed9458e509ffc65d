/* ID3D12GraphicsCommandList1::SetSamplePositions through VK_EXT_sample_locations: pipelines of a
 * sample count the device has locations for make them dynamic (pipelines/graphics_pipeline.c),
 * and a draw with one sets the list's positions, or D3D's standard ones where the list set none
 * (or reset them with 0, 0) or set them for another sample count. D3D12 drops a call that breaks
 * its rules (a void method: its debug layer reports it), and so does d3d12xs, with a debug-layer
 * warning; so too on a device without the extension (ProgrammableSamplePositionsTier
 * NOT_SUPPORTED). Bundles may not call it (command_table.h) and inherit their caller's positions. */
#include "command_recording.h"
#include "commands/command_list_graphics.h"
#include "pipelines/graphics_pipeline.h"

#define COMMAND "ID3D12GraphicsCommandList1::SetSamplePositions"

/* D3D's standard sample positions at 1, 2, 4, 8 and 16 samples, in 1/16 pixel from its centre. */
static const D3D12_SAMPLE_POSITION standard_1[] = {{0, 0}};
static const D3D12_SAMPLE_POSITION standard_2[] = {{4, 4}, {-4, -4}};
static const D3D12_SAMPLE_POSITION standard_4[] = {{-2, -6}, {6, -2}, {-6, 2}, {2, 6}};
static const D3D12_SAMPLE_POSITION standard_8[] = {{1, -3}, {-1, 3}, {5, 1}, {-3, -5}, {-5, 5}, {-7, -1}, {3, 7}, {7, -7}};
static const D3D12_SAMPLE_POSITION standard_16[] = {{1, 1}, {-1, -3}, {-3, 2}, {4, -1}, {-5, -2}, {2, 5}, {5, 3}, {3, -5},
        {-2, 6}, {0, -7}, {-4, -6}, {-6, 4}, {-8, 0}, {7, -4}, {6, 7}, {-7, -8}};

/* D3D12's position (1/16 pixel from the centre, -8 to 7) as Vulkan's (0 to 1 from the corner). */
static VkSampleLocationEXT vk_location(D3D12_SAMPLE_POSITION position)
{
    return (VkSampleLocationEXT){0.5f + position.X / 16.0f, 0.5f + position.Y / 16.0f};
}

void STDMETHODCALLTYPE d3d12_command_list_SetSamplePositions(ID3D12GraphicsCommandList10 *iface, UINT samples, UINT pixels,
        D3D12_SAMPLE_POSITION *positions)
{
    struct d3d12_command_list *list = impl_from_ID3D12GraphicsCommandList10(iface);
    struct d3d12_graphics_bindings *graphics = &list->bindings.graphics;
    const struct d3d12xs_graphics_caps *caps = &list->object.device->graphics;

    if (!d3d12_command_list_check_recording_in_pass(list, COMMAND))
        return;
    if (list->type != D3D12_COMMAND_LIST_TYPE_DIRECT) {
        d3d12_command_list_record_error(list, COMMAND, "only DIRECT lists draw (this is a %s list)",
                list->type == D3D12_COMMAND_LIST_TYPE_COMPUTE ? "COMPUTE" : list->type == D3D12_COMMAND_LIST_TYPE_COPY ? "COPY" : "BUNDLE");
        return;
    }
    if (!caps->sample_positions_tier) {
        d3d12_command_list_debug_warn(list, COMMAND, "ProgrammableSamplePositionsTier is NOT_SUPPORTED (%s lacks VK_EXT_sample_locations "
                "with variable locations at 1, 2, 4 and 8 samples): the call is dropped", list->object.device->vk_properties.deviceName);
        return;
    }
    /* 0, 0: back to the standard positions */
    if (!samples && !pixels) {
        graphics->sample_positions_samples = graphics->sample_positions_pixels = 0;
        graphics->dirty |= D3D12_GRAPHICS_DIRTY_SAMPLE_LOCATIONS;
        return;
    }
    if (samples != 1 && samples != 2 && samples != 4 && samples != 8 && samples != 16) {
        d3d12_command_list_debug_warn(list, COMMAND, "NumSamplesPerPixel is %u (1, 2, 4, 8 or 16; 0 with NumPixels 0 resets): the call is "
                "dropped", samples);
        return;
    }
    if (pixels != 1 && pixels != 4) {
        d3d12_command_list_debug_warn(list, COMMAND, "NumPixels is %u (1, or 4 for a 2 x 2 grid): the call is dropped", pixels);
        return;
    }
    if (samples * pixels > D3D12XS_ARRAY_SIZE(graphics->sample_positions)) {
        d3d12_command_list_debug_warn(list, COMMAND, "NumSamplesPerPixel %u times NumPixels %u is above 16: the call is dropped", samples,
                pixels);
        return;
    }
    if (pixels == 4 && caps->sample_positions_tier < 2) {
        d3d12_command_list_debug_warn(list, COMMAND, "NumPixels is 4, which takes ProgrammableSamplePositionsTier 2 (this device has tier "
                "1): the call is dropped");
        return;
    }
    if (!(caps->sample_location_counts & samples)) {
        d3d12_command_list_debug_warn(list, COMMAND, "NumSamplesPerPixel is %u, at which %s has no sample locations: the call is dropped",
                samples, list->object.device->vk_properties.deviceName);
        return;
    }
    if (!positions) {
        d3d12_command_list_debug_warn(list, COMMAND, "pSamplePositions is NULL with %u positions: the call is dropped", samples * pixels);
        return;
    }
    for (UINT i = 0; i < samples * pixels; i++) {
        if (positions[i].X < -8 || positions[i].X > 7 || positions[i].Y < -8 || positions[i].Y > 7) {
            d3d12_command_list_debug_warn(list, COMMAND, "pSamplePositions[%u] is (%d, %d), outside -8 to 7: the call is dropped", i,
                    positions[i].X, positions[i].Y);
            return;
        }
    }
    for (UINT i = 0; i < samples * pixels; i++)
        graphics->sample_positions[i] = vk_location(positions[i]);
    graphics->sample_positions_samples = samples;
    graphics->sample_positions_pixels = pixels;
    graphics->dirty |= D3D12_GRAPHICS_DIRTY_SAMPLE_LOCATIONS;
}

void d3d12_command_list_apply_sample_positions(struct d3d12_command_list *list, const struct d3d12_graphics_pipeline *pipeline,
        const char *command)
{
    struct d3d12_graphics_bindings *graphics = &list->bindings.graphics;
    VkSampleLocationEXT standard[16];
    VkSampleLocationsInfoEXT info = {
        .sType = VK_STRUCTURE_TYPE_SAMPLE_LOCATIONS_INFO_EXT,
        .sampleLocationsPerPixel = pipeline->samples,
        .sampleLocationGridSize = {1, 1},
        .sampleLocationsCount = pipeline->samples,
        .pSampleLocations = standard,
    };

    if (graphics->sample_positions_samples == (uint32_t)pipeline->samples) {
        info.sampleLocationGridSize = graphics->sample_positions_pixels == 4 ? (VkExtent2D){2, 2} : (VkExtent2D){1, 1};
        info.sampleLocationsCount = graphics->sample_positions_samples * graphics->sample_positions_pixels;
        info.pSampleLocations = graphics->sample_positions;
    } else {
        const D3D12_SAMPLE_POSITION *table = pipeline->samples == VK_SAMPLE_COUNT_2_BIT ? standard_2
                : pipeline->samples == VK_SAMPLE_COUNT_4_BIT ? standard_4 : pipeline->samples == VK_SAMPLE_COUNT_8_BIT ? standard_8
                : pipeline->samples == VK_SAMPLE_COUNT_16_BIT ? standard_16 : standard_1;
        static const D3D12_SAMPLE_POSITION centre = {0, 0};
        /* D3D12 leaves it undefined; the standard positions are what it draws without the call */
        if (graphics->sample_positions_samples)
            d3d12_command_list_debug_warn(list, command, "SetSamplePositions set positions for %u samples, but the pipeline renders %u: it "
                    "draws with the standard positions", graphics->sample_positions_samples, (unsigned)pipeline->samples);
        /* D3D12_CENTER_MULTISAMPLE_PATTERN: every sample at the pixel's centre */
        for (uint32_t i = 0; i < info.sampleLocationsCount; i++)
            standard[i] = vk_location(pipeline->center_samples ? centre : table[i]);
    }
    list->object.device->graphics.vkCmdSetSampleLocationsEXT(list->vk_command_buffer, &info);
    graphics->applied_sample_locations = d3d12_sample_locations_key(pipeline);
}
