/* The internal resolve pass (resolve_pass.c): the resolves Vulkan's own cannot do. Colour MIN and
 * MAX, and depth or stencil resolves that the device's depth-stencil resolve modes lack, that
 * move the region, or whose destination is no depth-stencil attachment. A compute shader
 * (shaders/resolve_samples.comp) reads the source's samples through a view of the resolve's
 * Format, encodes the result in Format's texel layout into transient memory, and a buffer-to-image
 * copy writes the region: the destination needs no usage beyond what every texture has, and its
 * Vulkan format may be another member of the family (the copy keeps the bits, which read in
 * Format's interpretation are the resolved values). */
#ifndef D3D12XS_RESOLVE_PASS_H
#define D3D12XS_RESOLVE_PASS_H

#include "commands/command_list_state.h"

/* The plane of the destination subresource a resolve writes: COLOR for a colour image (into
 * which a depth plane of the family may resolve), else its DEPTH or STENCIL plane. */
VkImageAspectFlags d3d12_resolve_destination_aspect(const struct d3d12_pass_resolve *resolve);

/* The pass's lock; its pipelines are made at their first resolve (most programs have none). */
void d3d12_resolve_pass_create(struct d3d12_device *device);
void d3d12_resolve_pass_destroy(struct d3d12_device *device);

/* NULL where the pass can do this checked resolve of the plane `aspect` (COLOR, DEPTH or
 * STENCIL); else why it cannot, for the E_NOTIMPL line. */
const char *d3d12_resolve_pass_unable(const struct d3d12_pass_resolve *resolve, VkImageAspectFlags aspect);

/* Records the resolve (checked, and d3d12_resolve_pass_unable said yes). */
void d3d12_command_list_resolve_by_pass(struct d3d12_command_list *list, const char *command, const struct d3d12_pass_resolve *resolve,
        VkImageAspectFlags aspect);

#endif
