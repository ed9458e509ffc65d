/* ExecuteIndirect's own path for signatures that set root constants or root views on a device
 * without generated commands (command_list_indirect_image.c; docs/indirect.md). */
#ifndef D3D12XS_INDIRECT_IMAGE_H
#define D3D12XS_INDIRECT_IMAGE_H

#include "commands/command_list_state.h"

struct d3d12_command_signature;
struct d3d12_resource;

/* The commands' images: command i's at address + i * image_bytes, read by variant, whose
 * address the list pushes at address_offset. */
struct d3d12_indirect_image {
    VkPipeline variant; /* VK_NULL_HANDLE: no pipeline of the bind point (the flush reports it) */
    /* The variant's vertex shader adds DrawIndex times image_bytes to the address: the commands
     * run as one multi-draw, the address pushed once. */
    bool draw_indexed;
    VkDeviceAddress address;
    uint32_t image_bytes, address_offset;
    /* The variant reads the root arguments in the commands themselves (the address: the first
     * command's; image_bytes: the stride): no images, and the root views' table halves pushed. */
    bool in_commands;
    /* Vertex pulling with an index buffer view (the draw is not indexed): the
     * VkDrawIndirectCommand of command i at buffer, offset + i * image_bytes + draw_arguments
     * (UINT32_MAX: none). */
    VkBuffer buffer;
    VkDeviceSize offset;
    uint32_t draw_arguments;
    VkPipelineLayout layout;
    VkShaderStageFlags push_stages;
};

/* The pass's pipeline (shaders/indirect_image.comp), made with a device that has
 * bufferDeviceAddress and no generated commands; never fails device creation. */
void d3d12_indirect_image_create(struct d3d12_device *device);
/* The translation of the images' vertex and index buffer views (shaders/indirect_vertex_views.comp),
 * made where the image pass is and the device has shaderInt64 and the GPU VA table's address. */
void d3d12_indirect_image_destroy(struct d3d12_device *device);

/* Whether the own path can run signature's root arguments with pipelines of root, and if not why
 * (ExecuteIndirect's one multi-draw checks it too, command_list_indirect.c). */
enum d3d12_indirect_image_misfit {
    D3D12_INDIRECT_IMAGE_FITS,
    D3D12_INDIRECT_IMAGE_NO_DEVICE,          /* no bufferDeviceAddress: no image pass */
    D3D12_INDIRECT_IMAGE_MEMORY_ABI,         /* FORCE_MEMORY_BASED_ABI */
    D3D12_INDIRECT_IMAGE_NO_ROOM,            /* no push room for the address or a view's entry */
    D3D12_INDIRECT_IMAGE_NO_VIEW_ADDRESSES,  /* root views without shaderInt64 or the VA table's address */
};
struct d3d12_root_signature;
enum d3d12_indirect_image_misfit d3d12_indirect_image_misfit(struct d3d12_device *device, const struct d3d12_root_signature *root,
        const struct d3d12_command_signature *signature);

/* Before the flush: the bound pipeline's variant, and the count commands' images written by the
 * pass (outside any rendering pass). draw_indexed: try the variant for one multi-draw first
 * (image->draw_indexed says whether it is taken). False after recording the error (E_NOTIMPL
 * where the device, the root signature or the pipeline cannot take it). */
bool d3d12_command_list_prepare_indirect_image(struct d3d12_command_list *list, const char *command,
        const struct d3d12_command_signature *signature, enum d3d12_bind_point bind_point, uint32_t count,
        const struct d3d12_resource *arguments, UINT64 argument_offset, bool draw_indexed, struct d3d12_indirect_image *image);
/* Instead of the images, for a signature whose direct_layout the bound pipeline's direct-draw
 * variant takes (command_list_indirect.c found it): the commands read in place, one multi-draw. */
void d3d12_command_list_prepare_indirect_in_commands(struct d3d12_command_list *list, const struct d3d12_command_signature *signature,
        VkPipeline variant, const struct d3d12_resource *arguments, UINT64 argument_offset, struct d3d12_indirect_image *image);
/* After the flush: the variant bound, the root views' misalignments pushed as 0. */
void d3d12_command_list_bind_indirect_image(struct d3d12_command_list *list, enum d3d12_bind_point bind_point,
        const struct d3d12_command_signature *signature, const struct d3d12_indirect_image *image);
/* Before command i's draw or dispatch: its image's address. */
void d3d12_command_list_push_indirect_image(struct d3d12_command_list *list, const struct d3d12_indirect_image *image, uint32_t i);
/* After the commands: the next flush binds the list's pipeline and pushes everything again. */
void d3d12_command_list_end_indirect_image(struct d3d12_command_list *list, enum d3d12_bind_point bind_point);

#endif
