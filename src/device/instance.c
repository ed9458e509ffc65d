/* Vulkan instance, validation layer hookup, and the choice of physical device. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "device/device.h"
#include "device/vk_device_generated_commands.h"

/* The first validation layer that knows VK_KHR_compute_shader_derivatives and its SPIR-V
 * extension (Vulkan headers 1.3.295). */
#define LAYER_KNOWS_KHR_COMPUTE_DERIVATIVES VK_MAKE_API_VERSION(0, 1, 3, 295)

/* A message of a layer older than VK_KHR_compute_shader_derivatives about a module that uses it
 * on a device where only the KHR extension is enabled (lavapipe): such a layer says it does not
 * support the device extension, calls the KHR SPIR-V extension unsupported by Vulkan and the
 * capability inconsistent, and checks nothing more of that module. Exactly these three
 * messages, from exactly such a layer, are not counted; the device says so once. */
static bool is_outdated_layer_message(struct d3d12_device *device, const VkDebugUtilsMessengerCallbackDataEXT *data)
{
    const char *id = data->pMessageIdName, *text = data->pMessage;
    bool about_derivatives;

    if (!device->compute_derivatives_khr || device->validation_layer_version >= LAYER_KNOWS_KHR_COMPUTE_DERIVATIVES
            || !id || !text)
        return false;
    about_derivatives = (!strcmp(id, "VUID_Undefined")
            && strstr(text, "Device Extension VK_KHR_compute_shader_derivatives is not supported by this layer"))
            || (!strcmp(id, "VUID-VkShaderModuleCreateInfo-pCode-04146")
            && strstr(text, "(SPV_KHR_compute_shader_derivatives) was declared that is not supported by Vulkan"))
            || (!strcmp(id, "UNASSIGNED-CoreValidation-Shader-InconsistentSpirv")
            && strstr(text, "ComputeDerivativeGroup") && strstr(text, "requires one of these extensions: SPV_NV_compute_shader_derivatives"));
    if (about_derivatives && !atomic_exchange(&device->outdated_layer_reported, true))
        INFO("the validation layer (%u.%u.%u) predates VK_KHR_compute_shader_derivatives: its messages calling that "
                "extension's SPIR-V unsupported are not counted, and it cannot check compute shaders with derivatives",
                VK_API_VERSION_MAJOR(device->validation_layer_version), VK_API_VERSION_MINOR(device->validation_layer_version),
                VK_API_VERSION_PATCH(device->validation_layer_version));
    return about_derivatives;
}

/* A message of a layer older than VK_EXT_device_generated_commands (ExecuteIndirect's signatures
 * that change state) on a device where it is enabled: such a layer says it does not support the
 * device extension, and calls the extension's feature structure in vkCreateDevice's chain and
 * its properties structure in vkGetPhysicalDeviceProperties2's chain unknown. It checks none of
 * the extension's calls (they go to the driver untouched). A layer as old as Debian 12's (1.3.239)
 * also predates VK_KHR_maintenance5, which the extension requires and which is enabled with it:
 * it says it does not support that extension either, and calls its feature structure in
 * vkCreateDevice's chain and its buffer usage structure (the transient memory's, which adds the
 * preprocess usage) in vkCreateBuffer's chain unknown; it still checks the buffer's other usage.
 * Exactly these six messages are not counted; the device says so once. */
static bool is_outdated_generated_commands_message(struct d3d12_device *device, const VkDebugUtilsMessengerCallbackDataEXT *data)
{
    const char *id = data->pMessageIdName, *text = data->pMessage;
    bool about_generated_commands;

    if (device->config.no_generated_commands || device->validation_layer_version >= D3D12XS_LAYER_KNOWS_DEVICE_GENERATED_COMMANDS
            || !id || !text)
        return false;
    about_generated_commands = (!strcmp(id, "VUID_Undefined")
            && strstr(text, "Device Extension VK_EXT_device_generated_commands is not supported by this layer"))
            || (!strcmp(id, "VUID-VkDeviceCreateInfo-pNext-pNext") && strstr(text, "unknown VkStructureType (1000572000)"))
            || (!strcmp(id, "VUID-VkPhysicalDeviceProperties2-pNext-pNext") && strstr(text, "unknown VkStructureType (1000572001)"))
            || (!strcmp(id, "VUID_Undefined") && strstr(text, "Device Extension VK_KHR_maintenance5 is not supported by this layer"))
            || (!strcmp(id, "VUID-VkDeviceCreateInfo-pNext-pNext") && strstr(text, "unknown VkStructureType (1000470000)"))
            || (!strcmp(id, "VUID-VkBufferCreateInfo-pNext-pNext") && strstr(text, "unknown VkStructureType (1000470006)"));
    if (about_generated_commands && !atomic_exchange(&device->outdated_generated_commands_reported, true))
        INFO("the validation layer (%u.%u.%u) predates VK_EXT_device_generated_commands: its messages calling that extension, "
                "VK_KHR_maintenance5 and their structures unknown are not counted, and it checks none of the extension's calls",
                VK_API_VERSION_MAJOR(device->validation_layer_version), VK_API_VERSION_MINOR(device->validation_layer_version),
                VK_API_VERSION_PATCH(device->validation_layer_version));
    return about_generated_commands;
}

static VKAPI_ATTR VkBool32 VKAPI_CALL debug_messenger_callback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
        VkDebugUtilsMessageTypeFlagsEXT types, const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    struct d3d12_device *device = user;
    (void)types;
    if (is_outdated_layer_message(device, data) || is_outdated_generated_commands_message(device, data)) {
        TRACE("vulkan validation (not counted, see above): %s", data->pMessage);
        return VK_FALSE;
    }
    /* The exit teardown destroys a device the program never released, with its objects alive:
     * the layer's line per object says what the one warning of that teardown says already. */
    if (d3d12xs_exit_torn_down()) {
        TRACE("vulkan validation at the exit teardown (not counted): %s", data->pMessage);
        return VK_FALSE;
    }
    if (severity & (VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT)) {
        atomic_fetch_add(&device->validation_message_count, 1);
        ERR("vulkan validation: %s", data->pMessage ? data->pMessage : "(no message)");
    }
    return VK_FALSE;
}

/* Whether the layer is installed; *version gets its Vulkan header version. */
static bool has_layer(const char *name, uint32_t *version)
{
    uint32_t count = 0;
    VkLayerProperties *layers;
    bool found = false;

    if (vkEnumerateInstanceLayerProperties(&count, NULL) != VK_SUCCESS || !count)
        return false;
    if (!(layers = calloc(count, sizeof(*layers))))
        return false;
    if (vkEnumerateInstanceLayerProperties(&count, layers) == VK_SUCCESS)
        for (uint32_t i = 0; i < count && !found; i++)
            if ((found = !strcmp(layers[i].layerName, name)))
                *version = layers[i].specVersion;
    free(layers);
    return found;
}

static bool has_instance_extension(const char *layer, const char *name)
{
    uint32_t count = 0;
    VkExtensionProperties *extensions;
    bool found = false;

    if (vkEnumerateInstanceExtensionProperties(layer, &count, NULL) != VK_SUCCESS || !count)
        return false;
    if (!(extensions = calloc(count, sizeof(*extensions))))
        return false;
    if (vkEnumerateInstanceExtensionProperties(layer, &count, extensions) == VK_SUCCESS)
        for (uint32_t i = 0; i < count && !found; i++)
            found = !strcmp(extensions[i].extensionName, name);
    free(extensions);
    return found;
}

HRESULT d3d12xs_instance_create(struct d3d12_device *device)
{
    static const char validation_layer[] = "VK_LAYER_KHRONOS_validation";
    const char *layers[1], *extensions[2];
    uint32_t layer_count = 0, extension_count = 0;
    VkApplicationInfo app_info = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "d3d12xs",
        .pEngineName = "d3d12xs",
        .apiVersion = VK_API_VERSION_1_3,
    };
    VkInstanceCreateInfo create_info = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pApplicationInfo = &app_info,
    };
    bool debug_utils;
    VkResult vr;

    if (device->config.debug == D3D12XS_CONFIG_ON) {
        if (has_layer(validation_layer, &device->validation_layer_version)) {
            layers[layer_count++] = validation_layer;
            device->validation_enabled = true;
        } else {
            WARN("debug layer requested but %s is not installed (apt-get install vulkan-validationlayers)", validation_layer);
        }
    }
    debug_utils = device->validation_enabled && has_instance_extension(NULL, VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    if (device->validation_enabled && !debug_utils)
        debug_utils = has_instance_extension(validation_layer, VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    if (debug_utils)
        extensions[extension_count++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;

    /* A layer older than VK_EXT_device_generated_commands passes that extension's calls to the
     * driver untouched: with its handle wrapping on, the driver would get the layer's handles
     * of pipelines and layouts instead of its own. Such a layer runs without it (its checks stay). */
    VkValidationFeatureDisableEXT disabled[] = {VK_VALIDATION_FEATURE_DISABLE_UNIQUE_HANDLES_EXT};
    VkValidationFeaturesEXT validation_features = {
        .sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
        .disabledValidationFeatureCount = 1,
        .pDisabledValidationFeatures = disabled,
    };
    if (device->validation_enabled && !device->config.no_generated_commands
            && device->validation_layer_version < D3D12XS_LAYER_KNOWS_DEVICE_GENERATED_COMMANDS)
        create_info.pNext = &validation_features;
    create_info.enabledLayerCount = layer_count;
    create_info.ppEnabledLayerNames = layers;
    create_info.enabledExtensionCount = extension_count;
    create_info.ppEnabledExtensionNames = extensions;
    if ((vr = vkCreateInstance(&create_info, NULL, &device->vk_instance)) != VK_SUCCESS)
        return d3d12xs_fail(E_FAIL, "D3D12CreateDevice", "vkCreateInstance failed (VkResult %d): is a Vulkan 1.3 driver installed (mesa-vulkan-drivers)?", vr);

    if (debug_utils) {
        PFN_vkCreateDebugUtilsMessengerEXT create_messenger =
                (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(device->vk_instance, "vkCreateDebugUtilsMessengerEXT");
        VkDebugUtilsMessengerCreateInfoEXT messenger_info = {
            .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
            .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
            .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT
                    | VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
            .pfnUserCallback = debug_messenger_callback,
            .pUserData = device,
        };
        if (create_messenger)
            create_messenger(device->vk_instance, &messenger_info, NULL, &device->vk_messenger);
    }
    return S_OK;
}

void d3d12xs_instance_destroy(struct d3d12_device *device)
{
    if (!device->vk_instance)
        return;
    if (device->vk_messenger) {
        PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger =
                (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(device->vk_instance, "vkDestroyDebugUtilsMessengerEXT");
        if (destroy_messenger)
            destroy_messenger(device->vk_instance, device->vk_messenger, NULL);
    }
    vkDestroyInstance(device->vk_instance, NULL);
    device->vk_instance = VK_NULL_HANDLE;
    free(device->vk_extensions);
    device->vk_extensions = NULL;
    device->vk_extension_count = 0;
}

static int device_type_rank(VkPhysicalDeviceType type)
{
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
    default: return 4;
    }
}

static bool name_contains(const char *name, const char *part)
{
    size_t n = strlen(part);
    for (const char *p = name; *p; p++) {
        size_t i = 0;
        while (i < n && p[i] && tolower((unsigned char)p[i]) == tolower((unsigned char)part[i]))
            i++;
        if (i == n)
            return true;
    }
    return false;
}

/* D3D12XS_DEVICE picks by index or by part of the name; otherwise a GPU beats a CPU driver. */
HRESULT d3d12xs_instance_select_physical_device(struct d3d12_device *device)
{
    const char *choice = device->config.device;
    VkPhysicalDevice *physical_devices;
    VkPhysicalDeviceProperties properties;
    uint32_t count = 0, chosen = UINT32_MAX;
    int best_rank = 100;

    if (vkEnumeratePhysicalDevices(device->vk_instance, &count, NULL) != VK_SUCCESS || !count)
        return d3d12xs_fail(D3D12_ERROR_ADAPTER_NOT_FOUND, "D3D12CreateDevice",
                "no Vulkan device found (install mesa-vulkan-drivers for lavapipe)");
    if (!(physical_devices = calloc(count, sizeof(*physical_devices))))
        return E_OUTOFMEMORY;
    vkEnumeratePhysicalDevices(device->vk_instance, &count, physical_devices);

    if (choice && *choice) {
        char *end;
        unsigned long index = strtoul(choice, &end, 10);
        if (!*end) {
            if (index < count)
                chosen = (uint32_t)index;
        } else {
            for (uint32_t i = 0; i < count && chosen == UINT32_MAX; i++) {
                vkGetPhysicalDeviceProperties(physical_devices[i], &properties);
                if (name_contains(properties.deviceName, choice))
                    chosen = i;
            }
        }
        if (chosen == UINT32_MAX) {
            free(physical_devices);
            return d3d12xs_fail(D3D12_ERROR_ADAPTER_NOT_FOUND, "D3D12CreateDevice",
                    "D3D12XS_DEVICE=%s matches none of the %u Vulkan devices (give an index or part of a name)", choice, count);
        }
    } else {
        for (uint32_t i = 0; i < count; i++) {
            vkGetPhysicalDeviceProperties(physical_devices[i], &properties);
            if (properties.apiVersion < VK_API_VERSION_1_3)
                continue;
            if (device_type_rank(properties.deviceType) < best_rank) {
                best_rank = device_type_rank(properties.deviceType);
                chosen = i;
            }
        }
        if (chosen == UINT32_MAX) {
            free(physical_devices);
            return d3d12xs_fail(D3D12_ERROR_ADAPTER_NOT_FOUND, "D3D12CreateDevice", "no Vulkan 1.3 device found");
        }
    }
    device->vk_physical_device = physical_devices[chosen];
    free(physical_devices);
    if (vkEnumerateDeviceExtensionProperties(device->vk_physical_device, NULL, &device->vk_extension_count, NULL) != VK_SUCCESS)
        device->vk_extension_count = 0;
    if (device->vk_extension_count && (!(device->vk_extensions = calloc(device->vk_extension_count, sizeof(*device->vk_extensions)))
            || vkEnumerateDeviceExtensionProperties(device->vk_physical_device, NULL, &device->vk_extension_count, device->vk_extensions) != VK_SUCCESS))
        device->vk_extension_count = 0;

    vkGetPhysicalDeviceProperties(device->vk_physical_device, &device->vk_properties);
    if (device->vk_properties.apiVersion < VK_API_VERSION_1_3)
        return d3d12xs_fail(D3D12_ERROR_ADAPTER_NOT_FOUND, "D3D12CreateDevice",
                "device %u (%s) supports Vulkan %u.%u; d3d12xs needs 1.3", chosen, device->vk_properties.deviceName,
                VK_API_VERSION_MAJOR(device->vk_properties.apiVersion), VK_API_VERSION_MINOR(device->vk_properties.apiVersion));
    INFO("using Vulkan device %u: %s%s", chosen, device->vk_properties.deviceName, choice && *choice ? " (chosen by D3D12XS_DEVICE)" : "");
    return S_OK;
}

bool d3d12xs_device_has_extension(const struct d3d12_device *device, const char *name)
{
    for (uint32_t i = 0; i < device->vk_extension_count; i++)
        if (!strcmp(device->vk_extensions[i].extensionName, name))
            return true;
    return false;
}
