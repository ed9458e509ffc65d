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
    /* The subgroup (wave) size that pipelines of each console wave size run with on this device
     * (WaveGetLaneCount()): the console's wave size where the device can require it (Vulkan
     * subgroup size control), else the device's default. lavapipe: 8 and 8; H200: 32 and 32
     * (docs/dispatch.md). DispatchX's W32 flag must match the pipeline's wave size all the same. */
    UINT Wave32SubgroupSize;
    UINT Wave64SubgroupSize;
    UINT MinSubgroupSize;       /* the range Vulkan lets a pipeline require */
    UINT MaxSubgroupSize;
    BOOL ResourceMinLODClampSupported; /* SRVs' ResourceMinLODClamp is applied (VK_EXT_image_view_min_lod), else logged as not */
    /* Shader model 6.6 compute shaders may take derivatives (Sample, CalculateLevelOfDetail,
     * ddx...) over 2x2 quads / 4 consecutive threads (VK_NV_ or VK_KHR_compute_shader_derivatives);
     * else creating a pipeline whose shader does fails with E_INVALIDARG. */
    BOOL ComputeDerivativeQuadsSupported;
    BOOL ComputeDerivativeLinearSupported;
    /* UAVs of some of a 3D texture's depth (D3D12_TEX3D_UAV FirstWSlice / WSize short of the
     * mip's depth) work (VK_EXT_image_sliced_view_of_3d, left off under a validation layer that
     * predates it); else CreateUnorderedAccessView refuses them with a line saying which. */
    BOOL SlicedUAVsOf3DSupported;
    /* How many descriptors of a shader-visible CBV_SRV_UAV / SAMPLER heap shaders can address:
     * heaps hold D3D12's 1,000,000 / 2,048 on every device, and a dispatch whose descriptor
     * table reaches past these counts is a recording error (docs/descriptors.md; lavapipe:
     * 997,823 views, so resource binding tier 2; tier 3 where this is 1,000,000). */
    UINT ShaderAddressableViewDescriptors;
    UINT ShaderAddressableSamplerDescriptors;
} D3D12XS_DEVICE_INFO;

HRESULT D3D12XSGetDeviceInfo(ID3D12Device *device, D3D12XS_DEVICE_INFO *info);

/* DispatchX's start group (SPEC §2.1): SV_GroupID of a DispatchX without
 * D3D12XBOX_DISPATCH_FLAG_FORCE_START_AT_000 starts at (X, Y, Z) on this list (the console's
 * COMPUTE_START_X/Y/Z). Every list starts recording (Reset, creation) and ClearState with
 * 0, 0, 0; plain Dispatch always starts at 0, 0, 0, as in D3D12. E_INVALIDARG (one log line)
 * for a foreign list, a COPY list or a value above 65534; E_FAIL when the list is closed. */
HRESULT D3D12XSSetDispatchStartGroup(ID3D12GraphicsCommandList *pCommandList, UINT X, UINT Y, UINT Z);

/* Queue timelines (docs/trace.md): a capture of what the queues and the API do, written to
 * pFileName as Chrome trace-event JSON (Perfetto, chrome://tracing, tools/trace-viewer.html
 * open it). One capture per process at a time; D3D12XS_TRACE=FILE starts one when the first
 * device is created. The file is valid JSON at every moment a batch is not being written.
 * E_INVALIDARG (one log line) for a NULL or unwritable path or while a capture runs. */
HRESULT D3D12XSStartTrace(const char *pFileName);
/* Ends the capture, the file complete (after what the queues finished by then). S_FALSE when
 * no capture ran. */
HRESULT D3D12XSStopTrace(void);
/* PIX events of the calling thread (<pix3.h>'s PIXBeginEvent etc. without a queue or list):
 * spans on its track in a running capture; nothing otherwise. */
void D3D12XSBeginCpuEvent(const char *pName);
void D3D12XSEndCpuEvent(void);
void D3D12XSSetCpuMarker(const char *pName);

/* How long a host wait, or GPU work that makes no progress, may take before the device
 * reports itself hung (DXGI_ERROR_DEVICE_HUNG). Default: D3D12XS_HANG_TIMEOUT_MS or 20000.
 * 0 means never. */
HRESULT D3D12XSSetHangTimeout(ID3D12Device *device, UINT milliseconds);

/* How the device's console memory waits (Wait32/64BitValueX) were met so far: by the host
 * seeing the value and then handing the rest of the list to the GPU, or by the GPU itself
 * (a GPU-side wait: docs/sync.md says when d3d12xs uses one). */
typedef struct D3D12XS_SYNC_STATISTICS {
    BOOL GpuMemoryWaitsEnabled;   /* D3D12XS_GPU_WAITS and the device allow GPU-side waits */
    UINT64 MemoryWaitsOnHost;     /* met when the host saw the value (or it was already there) */
    UINT64 MemoryWaitsOnGpu;      /* waited out by the GPU */
} D3D12XS_SYNC_STATISTICS;
HRESULT D3D12XSGetSyncStatistics(ID3D12Device *device, D3D12XS_SYNC_STATISTICS *statistics);

/* The device's memory allocator now (docs/design.md, "Memory"): the VkDeviceMemory objects it
 * holds, blocks that buffers share and dedicated ones, and the allocations made from them
 * (committed resources, heaps, descriptor heaps, d3d12xs's own buffers). Graphics memory's
 * imports are not counted. E_INVALIDARG (one log line) for a foreign device or NULL. */
typedef struct D3D12XS_MEMORY_STATISTICS {
    UINT64 DeviceMemoryCount;       /* live VkDeviceMemory objects */
    UINT64 DedicatedMemoryCount;    /* of which hold one allocation alone (large or driver-required) */
    UINT64 PeakDeviceMemoryCount;   /* the most that were live at once since the device was made */
    UINT64 AllocationCount;         /* live allocations, dedicated ones included */
    UINT64 DeviceMemoryBytes;       /* bytes of the live VkDeviceMemory objects */
    UINT64 AllocatedBytes;          /* bytes of them handed out */
    UINT64 GpuClears;               /* reused device-only memory the GPU zeroed for a new resource or heap */
} D3D12XS_MEMORY_STATISTICS;
HRESULT D3D12XSGetMemoryStatistics(ID3D12Device *device, D3D12XS_MEMORY_STATISTICS *statistics);

/* The VkPipelineLayouts of root signatures live on this device now: each root signature makes one
 * and every pipeline made with it shares it (docs/descriptors.md), so creating pipelines adds
 * none. A layout goes with the last of its root signature and the pipelines made with it (after
 * their recorded work). d3d12xs's own internal pipelines are not counted. E_INVALIDARG (and one
 * log line) when device is not a d3d12xs device or count is NULL. */
HRESULT D3D12XSGetPipelineLayoutCount(ID3D12Device *device, UINT64 *count);

/* The device's compute pipelines (docs/design.md, "Pipelines"): the VkPipelines made for them,
 * variants included, all at Create*PipelineState (recording never makes one), and the creations
 * that found a live pipeline of an identical description and share its VkPipelines.
 * d3d12xs's own internal pipelines are not counted. E_INVALIDARG (and one log line) when device
 * is not a d3d12xs device or statistics is NULL. */
typedef struct D3D12XS_PIPELINE_STATISTICS {
    UINT64 VkPipelinesCreated;       /* since the device was made */
    UINT64 LivePipelines;            /* distinct pipelines alive now: pipeline states that share one count once */
    UINT64 IdenticalPipelinesFound;  /* Create*PipelineState calls that found a live identical pipeline */
} D3D12XS_PIPELINE_STATISTICS;
HRESULT D3D12XSGetPipelineStatistics(ID3D12Device *device, D3D12XS_PIPELINE_STATISTICS *statistics);

/* Messages the Khronos validation layer reported on this device so far (0 when it is off). */
UINT64 D3D12XSGetValidationMessageCount(ID3D12Device *device);

/* Dispatches recorded into a command list since it was created or last Reset, by the way
 * their root arguments travel: push constants and push descriptors (the default), or a
 * per-dispatch argument buffer in memory (root signatures with
 * D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI or RAYTRACING; docs/descriptors.md).
 * E_INVALIDARG (and one log line) when list is not a d3d12xs command list or counters is NULL. */
typedef struct D3D12XS_DISPATCH_COUNTERS {
    UINT64 PushConstantAbiDispatches;
    UINT64 MemoryAbiDispatches;
    /* Buffers those dispatches' shaders read (one per buffer per dispatch). Pushed: root
     * CBV/SRV/UAV arguments pushed as descriptors. Memory: buffers read by address from the
     * argument buffer (the memory-based ABI on devices with bufferDeviceAddress and
     * shaderInt64): root CBV/SRV/UAV arguments, and a table's raw, structured or constant
     * buffers. */
    UINT64 PushedRootDescriptors;
    UINT64 MemoryRootDescriptors;
} D3D12XS_DISPATCH_COUNTERS;
HRESULT D3D12XSGetCommandListDispatchCounters(ID3D12CommandList *list, D3D12XS_DISPATCH_COUNTERS *counters);

/* Graphics memory from the CPU (the console's XMemVirtualAlloc / XMemAlloc with a graphics
 * type). It belongs to the process, as on the console: it can be allocated before any device
 * exists, and *Address is a CPU pointer that is also a D3D12_GPU_VIRTUAL_ADDRESS of every
 * device, those alive now and those created later, valid for value writes and waits, copies
 * and root CBV/SRV/UAV arguments. Releasing a device leaves the memory mapped with its
 * contents. Size is rounded up to 64 KiB; the memory starts zeroed and 64 KiB aligned.
 * GpuReadOnly: the GPU may read it, and GPU writes to it are dropped, as the console drops
 * them. device: NULL, or a live d3d12xs device (checked: E_INVALIDARG otherwise; E_NOTIMPL
 * where it lacks VK_EXT_external_memory_host); either way the memory serves every device.
 * A device without VK_EXT_external_memory_host (lavapipe and NVIDIA have it) cannot reach
 * graphics memory; its creation says so once. */
HRESULT D3D12XSAllocateGraphicsMemory(ID3D12Device *device, SIZE_T Size, BOOL GpuReadOnly, void **Address);
/* Its addresses stop resolving on every device at once; the memory is unmapped once the GPU
 * work enqueued so far on each device has finished (at once when no device exists). Works
 * after the devices are released. FALSE (and one log line) when Address is not graphics
 * memory from D3D12XSAllocateGraphicsMemory or was freed already. */
BOOL D3D12XSFreeGraphicsMemory(void *Address);

#ifdef __cplusplus
}
#endif

#ifndef D3D12XS_NO_WIN32_SHIMS
/* The console's names for graphics memory, as inline shims over the calls above (the way the
 * event shims work). The values of MEM_ and PAGE_ flags are Windows'; XMEM_GRAPHICS,
 * PAGE_GRAPHICS_*, XALLOC_MEMTYPE_GRAPHICS_* are ours (the console's are not public). Only
 * graphics memory is served: XMemVirtualAlloc without XMEM_GRAPHICS returns NULL. */
#ifndef MEM_COMMIT
#define MEM_COMMIT 0x00001000
#define MEM_RESERVE 0x00002000
#define MEM_RELEASE 0x00008000
#define MEM_LARGE_PAGES 0x20000000
#endif
#ifndef MEM_64K_PAGES
#define MEM_64K_PAGES (MEM_LARGE_PAGES | 0x00400000)
#endif
#ifndef PAGE_READWRITE
#define PAGE_READONLY 0x02
#define PAGE_READWRITE 0x04
#define PAGE_WRITECOMBINE 0x400
#endif
#define PAGE_GRAPHICS_READONLY 0x10000000
#define PAGE_GRAPHICS_READWRITE 0x20000000
#define XMEM_GRAPHICS 0x1ull
#define XALLOC_MEMTYPE_GRAPHICS_WRITECOMBINE 0x1ull
#define XALLOC_MEMTYPE_GRAPHICS_WRITECOMBINE_GPU_READONLY 0x3ull

static inline void *XMemVirtualAlloc(void *address, SIZE_T size, DWORD allocation_type, UINT64 memory_type, DWORD protect)
{
    void *memory = NULL;
    (void)allocation_type;
    if (address || !(memory_type & XMEM_GRAPHICS))
        return NULL;
    return SUCCEEDED(D3D12XSAllocateGraphicsMemory(NULL, size, !(protect & PAGE_GRAPHICS_READWRITE) && (protect & PAGE_GRAPHICS_READONLY),
            &memory)) ? memory : NULL;
}

static inline BOOL VirtualFree(void *address, SIZE_T size, DWORD free_type)
{
    (void)size, (void)free_type;
    return D3D12XSFreeGraphicsMemory(address);
}

static inline void *XMemAlloc(SIZE_T size, UINT64 attributes)
{
    void *memory = NULL;
    if (!(attributes & XALLOC_MEMTYPE_GRAPHICS_WRITECOMBINE))
        return NULL;
    return SUCCEEDED(D3D12XSAllocateGraphicsMemory(NULL, size, attributes == XALLOC_MEMTYPE_GRAPHICS_WRITECOMBINE_GPU_READONLY, &memory))
            ? memory : NULL;
}

static inline void XMemFree(void *address, UINT64 attributes)
{
    (void)attributes;
    D3D12XSFreeGraphicsMemory(address);
}
#endif

#endif
