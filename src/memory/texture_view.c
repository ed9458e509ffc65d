/* Views of textures (resource.h): one VkImageView per distinct key, kept on the resource until
 * it retires, so descriptors (bytes in heaps) never outlive what they point at while the
 * resource lives, as D3D12 promises. */
#include <stdlib.h>
#include <string.h>

#include "device/vk_sliced_view_of_3d.h"
#include "memory/resource.h"

VkImageView d3d12_resource_get_image_view(struct d3d12_resource *resource, const struct d3d12xs_image_view_key *key, const char *method)
{
    struct d3d12_device *device = resource->object.device;
    VkImageView view = VK_NULL_HANDLE;
    VkResult vr = VK_SUCCESS;

    pthread_mutex_lock(&resource->object.lock);
    for (size_t i = 0; i < resource->image_view_count; i++) {
        if (!memcmp(&resource->image_views[i].key, key, sizeof(*key))) {
            view = resource->image_views[i].view;
            break;
        }
    }
    if (!view && d3d12xs_array_reserve((void **)&resource->image_views, &resource->image_view_capacity, resource->image_view_count + 1,
            sizeof(*resource->image_views))) {
        /* The view's own usage: a typeless image may have usages its view format lacks. */
        VkImageViewMinLodCreateInfoEXT min_lod = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_MIN_LOD_CREATE_INFO_EXT, .minLod = key->min_lod};
        /* the shader's slice 0 is the view's first W slice */
        VkImageViewSlicedCreateInfoEXT sliced = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_SLICED_CREATE_INFO_EXT,
                .pNext = key->min_lod != 0.0f ? &min_lod : NULL, .sliceOffset = key->first_w_slice, .sliceCount = key->w_slice_count};
        VkImageViewUsageCreateInfo usage = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO,
                .pNext = key->w_slice_count ? (const void *)&sliced : key->min_lod != 0.0f ? (const void *)&min_lod : NULL, .usage = key->usage};
        VkImageViewCreateInfo info = {
            .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
            .pNext = &usage,
            .image = resource->vk_image,
            .viewType = key->type,
            .format = key->format,
            .components = key->components,
            .subresourceRange = key->range,
        };
        if ((vr = vkCreateImageView(device->vk_device, &info, NULL, &view)) == VK_SUCCESS)
            resource->image_views[resource->image_view_count++] = (struct d3d12xs_image_view){*key, view};
        else
            view = VK_NULL_HANDLE;
    }
    pthread_mutex_unlock(&resource->object.lock);
    if (!view)
        d3d12xs_fail(E_INVALIDARG, method, "vkCreateImageView of texture '%s' (VkFormat %d, view type %d) failed (VkResult %d)",
                d3d12xs_object_name(&resource->object), (int)key->format, (int)key->type, vr);
    return view;
}

void d3d12xs_texture_destroy_views(struct d3d12_device *device, struct d3d12_resource *resource)
{
    for (size_t i = 0; i < resource->image_view_count; i++)
        vkDestroyImageView(device->vk_device, resource->image_views[i].view, NULL);
    free(resource->image_views);
    resource->image_views = NULL;
    resource->image_view_count = resource->image_view_capacity = 0;
}
