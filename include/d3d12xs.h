/* <d3d12xs.h>: d3d12xs's own calls, not Microsoft's nor the console's (log callback, device info,
 * hang timeout, validation count). <d3d12_xs.h> includes it; code that includes only
 * <d3d12.h> includes it for these calls. */
#ifndef D3D12XS_EXTRAS_H
#define D3D12XS_EXTRAS_H

#include "d3d12.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum D3D12XS_LOG_LEVEL {
    D3D12XS_LOG_LEVEL_ERROR = 0,
    D3D12XS_LOG_LEVEL_WARN = 1,
    D3D12XS_LOG_LEVEL_INFO = 2,
    D3D12XS_LOG_LEVEL_TRACE = 3,
} D3D12XS_LOG_LEVEL;

/* Receives every log line (whatever D3D12XS_LOG says) besides stderr; NULL removes it.
 * The callback must not call back into d3d12xs. */
typedef void (*PFN_D3D12XS_LOG_CALLBACK)(D3D12XS_LOG_LEVEL level, const char *line, void *user);
void D3D12XSSetLogCallback(PFN_D3D12XS_LOG_CALLBACK callback, void *user);

/* One D3D12 queue type as mapped onto the Vulkan device. */
typedef struct D3D12XS_QUEUE_MAPPING {
    UINT VulkanQueueFamily;
    UINT VulkanQueueCount;     /* VkQueues created in that family for this type */
    BOOL SharedFamily;         /* the family also serves another D3D12 queue type */
    BOOL TimestampsSupported;
    BOOL TransferOnly;         /* no compute in the family: such COPY lists cannot ResolveQueryData */
} D3D12XS_QUEUE_MAPPING;

typedef struct D3D12XS_DEVICE_INFO {
    char DeviceName[256];
    char DriverName[256];
    char DriverInfo[256];
    UINT VendorId;
    UINT DeviceId;
    UINT VulkanApiVersion;      /* VK_MAKE_API_VERSION encoding */
    BOOL IsSoftwareRasterizer;  /* lavapipe and other CPU devices */
    UINT SubgroupSize;          /* default wave size of compute shaders */
    UINT64 TimestampFrequency;  /* ticks per second of the GPU clock */
    BOOL ValidationLayerEnabled;
    D3D12XS_QUEUE_MAPPING Queues[4]; /* indexed by D3D12_COMMAND_LIST_TYPE (DIRECT 0, COMPUTE 2, COPY 3) */
} D3D12XS_DEVICE_INFO;

HRESULT D3D12XSGetDeviceInfo(ID3D12Device *device, D3D12XS_DEVICE_INFO *info);

/* How long a host wait, or GPU work that makes no progress, may take before the device
 * reports itself hung (DXGI_ERROR_DEVICE_HUNG). Default: D3D12XS_HANG_TIMEOUT_MS or 20000.
 * 0 means never. */
HRESULT D3D12XSSetHangTimeout(ID3D12Device *device, UINT milliseconds);

/* Messages the Khronos validation layer reported on this device so far (0 when it is off). */
UINT64 D3D12XSGetValidationMessageCount(ID3D12Device *device);

#ifdef __cplusplus
}
#endif

#endif
