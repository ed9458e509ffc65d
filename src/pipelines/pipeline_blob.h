/* Cached pipeline blobs (pipeline_blob.c): what GetCachedBlob hands out and the CachedPSO of a
 * description takes back, and the identity header pipeline libraries share (pipeline_library.c).
 *
 * A blob is a header that says where it can be used, then what lets creation skip d3d12xs's
 * front end: the final SPIR-V of each stage after every pass, the bindings the stages were
 * matched to and their summary, and the links graphics creation needs. All numbers little-endian:
 *
 *   0  magic: "XSPB" (a pipeline) or "XSPL" (a pipeline library)
 *   4  u32 format version (D3D12XS_PIPELINE_BLOB_FORMAT)
 *   8  char[16] d3d12xs's version, NUL-padded
 *   24 u32 vendorID, u32 deviceID, u32 driverVersion (VkPhysicalDeviceProperties)
 *   36 u8[16] pipelineCacheUUID
 *   52 u32 zero
 *   56 u64 the hash of the description it came from (struct d3d12_pipeline_key; 0 in a library)
 *   64 u64 payload size, u64 payload hash
 *   80 the payload
 *
 * Another vendorID or deviceID: D3D12_ERROR_ADAPTER_NOT_FOUND. Another format, d3d12xs version,
 * driverVersion or pipelineCacheUUID: D3D12_ERROR_DRIVER_VERSION_MISMATCH. Another description,
 * a wrong magic or a payload that is not what its size and hash say: E_INVALIDARG. */
#ifndef D3D12XS_PIPELINE_BLOB_H
#define D3D12XS_PIPELINE_BLOB_H

#include "pipelines/pipeline_state.h"

#define D3D12XS_PIPELINE_BLOB_FORMAT 1u
#define D3D12XS_PIPELINE_BLOB_HEADER_SIZE 80u
#define D3D12XS_PIPELINE_BLOB_MAGIC "XSPB"
#define D3D12XS_PIPELINE_LIBRARY_MAGIC "XSPL"
/* Header offsets the tests patch. */
#define D3D12XS_PIPELINE_BLOB_VERSION_OFFSET 8u
#define D3D12XS_PIPELINE_BLOB_DEVICE_ID_OFFSET 28u
#define D3D12XS_PIPELINE_BLOB_UUID_OFFSET 36u
#define D3D12XS_PIPELINE_BLOB_DESC_HASH_OFFSET 56u
#define D3D12XS_PIPELINE_BLOB_PAYLOAD_HASH_OFFSET 72u
#define D3D12XS_PIPELINE_BLOB_PAYLOAD_HASH_SEED 0x452821e638d01377ull /* common/hash.h's seed for the payload */
#define D3D12XS_PIPELINE_BLOB_FIRST_ROOT_INDEX_OFFSET 168u /* the first binding's root_index (pipeline_blob.c's order) */
#define D3D12XS_PIPELINE_BLOB_MAX_STAGES 5u

/* One stage's final SPIR-V. */
struct d3d12_pipeline_blob_stage {
    VkShaderStageFlagBits stage;
    uint32_t *words; /* d3d12_pipeline_blob_load: malloc()ed, the caller's */
    size_t word_count;
    char entry_point[64];
};

/* What a blob gives creation besides what it writes into the pipeline state. */
struct d3d12_pipeline_blob_contents {
    struct d3d12_pipeline_blob_stage stages[D3D12XS_PIPELINE_BLOB_MAX_STAGES];
    uint32_t stage_count;
    /* graphics: the vertex shader Location each input element feeds (graphics_link.h) */
    uint32_t element_locations[D3D12_IA_VERTEX_INPUT_STRUCTURE_ELEMENT_COUNT];
    uint32_t element_count;
};

/* Makes state's cached blob (state->cached_blob) from its stages' final SPIR-V, its bindings and
 * summary (and, compute, its scalar_source), before the VkPipelines are built. key_hash must be set. */
HRESULT d3d12_pipeline_blob_capture(struct d3d12_pipeline_state *state, const struct d3d12_pipeline_blob_stage *stages,
        uint32_t stage_count, const uint32_t *element_locations, uint32_t element_count, const char *method);
/* Checks a CachedPSO against the device and the description's key hash: S_OK, or Windows' answer
 * with one line naming argument. */
HRESULT d3d12_pipeline_blob_check(struct d3d12_device *device, const void *blob, size_t size, uint64_t key_hash, bool graphics,
        const char *argument, const char *method);
/* A checked blob into state (bindings, their summary, scalar_source, cached_blob) and contents. */
HRESULT d3d12_pipeline_blob_load(struct d3d12_pipeline_state *state, const void *blob, size_t size,
        struct d3d12_pipeline_blob_contents *contents, const char *argument, const char *method);
void d3d12_pipeline_blob_contents_cleanup(struct d3d12_pipeline_blob_contents *contents);
/* Whether a blob (its header checked) holds a graphics pipeline. */
bool d3d12_pipeline_blob_is_graphics(const void *blob, size_t size);
/* The description hash in a blob's header (0 when it is too short to have one). */
uint64_t d3d12_pipeline_blob_desc_hash(const void *blob, size_t size);

/* The header with this device's identity, magic, description hash and payload's size and hash. */
void d3d12_pipeline_blob_write_header(struct d3d12_device *device, const char magic[4], uint64_t desc_hash, const void *payload,
        size_t payload_size, unsigned char header[D3D12XS_PIPELINE_BLOB_HEADER_SIZE]);
/* Checks a header of magic against this device and its payload (what follows the header):
 * S_OK or Windows' answer with one line naming argument. */
HRESULT d3d12_pipeline_blob_check_header(struct d3d12_device *device, const char magic[4], const void *data, size_t size,
        const char *argument, const char *method);

#endif
