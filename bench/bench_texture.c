/* bench_texture: texture copies through CopyTextureRegion against hand-written Vulkan doing the
 * same copies, on the same physical device and queue family, in the same run. See
 * docs/benchmarks.md.
 *
 *   1. upload       a DEFAULT-heap buffer's placed footprint -> mip 0 of a 2D R8G8B8A8_UNORM texture
 *   2. readback     mip 0 of the texture -> a DEFAULT-heap buffer's placed footprint
 *   3. texture      mip 0 of one texture -> mip 0 of another (SUBRESOURCE_INDEX on both sides)
 *   4. upload_mips  every mip of a full chain from a DEFAULT-heap buffer, one CopyTextureRegion
 *                   per mip, back to back, no barriers between them
 *
 * The textures are 4096 x 4096 on a GPU, 1024 x 1024 on a CPU device (lavapipe). The buffers are
 * in DEFAULT heaps (device-local memory on the raw side), so that what is measured is the GPU's
 * copy, not PCIe. Both sides use the same placed footprints (GetCopyableFootprints: same
 * offsets, same row pitch; Vulkan's bufferRowLength = RowPitch / 4), run on the queue family
 * d3d12xs gives DIRECT queues, and write a timestamp before and after the copies inside the one
 * list (command buffer) they submit. GB/s = bytes of the texels copied (each counted once) / GPU
 * time between the two timestamps. Each ratio is raw Vulkan's GB/s over d3d12xs's in one
 * repetition, the two sides back to back, median over repetitions: above 1 means d3d12xs is
 * slower; the target is <= 1.05 (d3d12xs at >= 0.95 x raw Vulkan's bandwidth). Before timing,
 * each figure's first copy on each side is read back and checked word by word.
 *
 * Layouts. d3d12xs keeps images in GENERAL between commands: a copy moves what it touches to
 * TRANSFER_SRC/DST_OPTIMAL (src/commands/barrier_tracker.c, d3d12_barriers_transfer_layout),
 * and the tracker moves it back to GENERAL lazily (d3d12_barriers_restore_layouts), before the
 * next command that is not a transfer or at Close. The raw side keeps its images in GENERAL
 * too and makes the same transitions in the timed command buffer, as a hand-written program
 * that keeps images in GENERAL would: GENERAL -> TRANSFER_* between its first timestamp and the
 * copy, and the transition back to GENERAL after its second timestamp, since d3d12xs's
 * `EndQuery` writes its timestamp without restoring layouts, so d3d12xs's own transition back
 * lies after its second timestamp (at Close) too. The texture-to-texture copy's two
 * transitions are one vkCmdPipelineBarrier2 on the raw side (d3d12xs records one per image), and
 * upload_mips's raw side moves the whole chain with one barrier, then makes N copies.
 *
 * D3D12XS_BENCH_OUT=<path> also writes the table as TSV. Arguments (upload, readback, texture,
 * upload_mips) run only those figures; size=N sets the texture size (64 to 16384). */
#include "bench_util.h"

const char *bench_name = "bench_texture";

#define MAX_MIPS 15 /* 16384 x 16384 */

enum {FIGURE_UPLOAD, FIGURE_READBACK, FIGURE_TEXTURE, FIGURE_UPLOAD_MIPS, FIGURE_COUNT};

/* The word at index i of every source buffer (mip 0's footprint and the chain's). */
static uint32_t pattern(uint64_t i)
{
    return (uint32_t)(i * 2654435761u) ^ 0x5bd1e995u;
}

/* What read-back buffers hold before the copy that is checked. */
#define POISON 0xa5

static void fill_pattern(uint32_t *words, uint64_t count)
{
    for (uint64_t i = 0; i < count; i++)
        words[i] = pattern(i);
}

/* D3D12's placed footprints of a texture's mips (GetCopyableFootprints): the layout of every
 * buffer on both sides. */
struct footprints {
    UINT count;
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT layouts[MAX_MIPS];
    UINT rows[MAX_MIPS];
    UINT64 row_bytes[MAX_MIPS];
    UINT64 total;       /* the buffer's bytes */
    UINT64 texel_bytes; /* the texels' bytes: what a copy of every mip moves */
};

/* Words of a buffer laid out as f (read back from a copy's destination), checked against the
 * pattern the source buffer held at the same offsets; the pitch padding is not looked at. */
static void check_footprints(const uint32_t *words, const struct footprints *f, const char *what)
{
    for (UINT m = 0; m < f->count; m++) {
        for (UINT r = 0; r < f->rows[m]; r++) {
            uint64_t base = (f->layouts[m].Offset + (uint64_t)r * f->layouts[m].Footprint.RowPitch) / 4;
            for (uint64_t x = 0; x < f->row_bytes[m] / 4; x++)
                if (words[base + x] != pattern(base + x))
                    bench_fail(__LINE__, "%s: mip %u, row %u, word %llu is 0x%08x, expected 0x%08x", what, m, r, (unsigned long long)x,
                            words[base + x], pattern(base + x));
        }
    }
}

struct params {
    uint32_t size, mips; /* textures of size x size; the full chain has `mips` mips */
    unsigned reps;
    struct footprints mip0, chain;
};

/* ======================================================================================= */
/* d3d12xs side                                                                            */
/* ======================================================================================= */

struct d3d {
    ID3D12Device *device;
    D3D12XS_DEVICE_INFO info;
    struct bench_d3d_queue q;         /* DIRECT */
    ID3D12QueryHeap *queries;         /* two per figure */
    ID3D12Resource *query_results;    /* READBACK, FIGURE_COUNT * 2 UINT64 */

    /* DEFAULT-heap buffers: mip 0's footprint and the chain's (the pattern, COPY_SOURCE), and
     * the readback figure's destination (COPY_DEST) */
    ID3D12Resource *src_buffer, *chain_buffer, *readback_buffer;
    /* the pattern from src_buffer (COPY_SOURCE): the source of readback and texture; the
     * destinations of upload, texture and upload_mips (COPY_DEST) */
    ID3D12Resource *texture, *upload_texture, *copy_texture, *chain_texture;

    ID3D12CommandAllocator *allocators[FIGURE_COUNT];
    ID3D12GraphicsCommandList *lists[FIGURE_COUNT];
};

static D3D12_RESOURCE_DESC texture_desc(uint32_t size, uint32_t mips)
{
    D3D12_RESOURCE_DESC desc;
    memset(&desc, 0, sizeof(desc));
    desc.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    desc.Width = size;
    desc.Height = size;
    desc.DepthOrArraySize = 1;
    desc.MipLevels = (UINT16)mips;
    desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    desc.SampleDesc.Count = 1;
    desc.Layout = D3D12_TEXTURE_LAYOUT_UNKNOWN;
    return desc;
}

static ID3D12Resource *d3d_texture(struct d3d *d, uint32_t size, uint32_t mips, D3D12_RESOURCE_STATES state)
{
    D3D12_HEAP_PROPERTIES heap = {D3D12_HEAP_TYPE_DEFAULT, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    D3D12_RESOURCE_DESC desc = texture_desc(size, mips);
    ID3D12Resource *texture = NULL;
    HR(ID3D12Device_CreateCommittedResource(d->device, &heap, D3D12_HEAP_FLAG_NONE, &desc, state, NULL, &IID_ID3D12Resource,
            (void **)&texture));
    return texture;
}

static void get_footprints(ID3D12Device *device, uint32_t size, uint32_t mips, struct footprints *f)
{
    D3D12_RESOURCE_DESC desc = texture_desc(size, mips);

    memset(f, 0, sizeof(*f));
    f->count = mips;
    ID3D12Device_GetCopyableFootprints(device, &desc, 0, mips, 0, f->layouts, f->rows, f->row_bytes, &f->total);
    REQUIRE(f->total != UINT64_MAX, "GetCopyableFootprints failed");
    for (UINT m = 0; m < mips; m++) {
        REQUIRE(f->layouts[m].Footprint.RowPitch % 4 == 0 && f->row_bytes[m] == f->layouts[m].Footprint.Width * 4ull,
                "mip %u: unexpected footprint", m);
        f->texel_bytes += f->row_bytes[m] * f->rows[m];
    }
}

static void copy_location_footprint(D3D12_TEXTURE_COPY_LOCATION *location, ID3D12Resource *buffer,
        const D3D12_PLACED_SUBRESOURCE_FOOTPRINT *footprint)
{
    memset(location, 0, sizeof(*location));
    location->pResource = buffer;
    location->Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    location->PlacedFootprint = *footprint;
}

static void copy_location_subresource(D3D12_TEXTURE_COPY_LOCATION *location, ID3D12Resource *texture, UINT subresource)
{
    memset(location, 0, sizeof(*location));
    location->pResource = texture;
    location->Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    location->SubresourceIndex = subresource;
}

/* Every mip of a footprint buffer into a texture, or the other way round (to_texture false). */
static void d3d_copy_mips(ID3D12GraphicsCommandList *list, ID3D12Resource *texture, ID3D12Resource *buffer, const struct footprints *f,
        bool to_texture)
{
    D3D12_TEXTURE_COPY_LOCATION texture_location, buffer_location;
    for (UINT m = 0; m < f->count; m++) {
        copy_location_subresource(&texture_location, texture, m);
        copy_location_footprint(&buffer_location, buffer, &f->layouts[m]);
        if (to_texture)
            ID3D12GraphicsCommandList_CopyTextureRegion(list, &texture_location, 0, 0, 0, &buffer_location, NULL);
        else
            ID3D12GraphicsCommandList_CopyTextureRegion(list, &buffer_location, 0, 0, 0, &texture_location, NULL);
    }
}

static void d3d_init(struct d3d *d)
{
    D3D12_QUERY_HEAP_DESC query_desc = {D3D12_QUERY_HEAP_TYPE_TIMESTAMP, FIGURE_COUNT * 2, 0};

    memset(d, 0, sizeof(*d));
    HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&d->device));
    HR(D3D12XSGetDeviceInfo(d->device, &d->info));
    REQUIRE(!d->info.ValidationLayerEnabled, "the validation layer is on (D3D12XS_DEBUG): the figures would be meaningless");
    REQUIRE(d->info.Queues[D3D12_COMMAND_LIST_TYPE_DIRECT].TimestampsSupported, "the DIRECT queue has no timestamps");
    bench_d3d_queue_init(d->device, &d->q, D3D12_COMMAND_LIST_TYPE_DIRECT);
    HR(ID3D12Device_CreateQueryHeap(d->device, &query_desc, &IID_ID3D12QueryHeap, (void **)&d->queries));
    d->query_results = bench_d3d_buffer(d->device, D3D12_HEAP_TYPE_READBACK, FIGURE_COUNT * 2 * sizeof(UINT64), D3D12_RESOURCE_FLAG_NONE,
            D3D12_RESOURCE_STATE_COPY_DEST);
}

/* The resources (the footprints are known by now): the source buffers get the pattern through
 * an UPLOAD buffer, and `texture` gets it from src_buffer; untimed. */
static void d3d_setup(struct d3d *d, const struct params *p)
{
    UINT64 upload_size = p->chain.total > p->mip0.total ? p->chain.total : p->mip0.total;
    ID3D12CommandAllocator *allocator;
    ID3D12GraphicsCommandList *list;
    D3D12_RESOURCE_BARRIER barriers[3];
    ID3D12Resource *upload;
    void *mapped = NULL;

    d->texture = d3d_texture(d, p->size, 1, D3D12_RESOURCE_STATE_COPY_DEST);
    d->upload_texture = d3d_texture(d, p->size, 1, D3D12_RESOURCE_STATE_COPY_DEST);
    d->copy_texture = d3d_texture(d, p->size, 1, D3D12_RESOURCE_STATE_COPY_DEST);
    d->chain_texture = d3d_texture(d, p->size, p->mips, D3D12_RESOURCE_STATE_COPY_DEST);
    d->src_buffer = bench_d3d_buffer(d->device, D3D12_HEAP_TYPE_DEFAULT, p->mip0.total, D3D12_RESOURCE_FLAG_NONE,
            D3D12_RESOURCE_STATE_COPY_DEST);
    d->chain_buffer = bench_d3d_buffer(d->device, D3D12_HEAP_TYPE_DEFAULT, p->chain.total, D3D12_RESOURCE_FLAG_NONE,
            D3D12_RESOURCE_STATE_COPY_DEST);
    d->readback_buffer = bench_d3d_buffer(d->device, D3D12_HEAP_TYPE_DEFAULT, p->mip0.total, D3D12_RESOURCE_FLAG_NONE,
            D3D12_RESOURCE_STATE_COPY_DEST);

    upload = bench_d3d_buffer(d->device, D3D12_HEAP_TYPE_UPLOAD, upload_size, D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_GENERIC_READ);
    HR(ID3D12Resource_Map(upload, 0, NULL, &mapped));
    fill_pattern(mapped, upload_size / 4);
    ID3D12Resource_Unmap(upload, 0, NULL);

    bench_d3d_new_list(d->device, d->q.type, &allocator, &list);
    ID3D12GraphicsCommandList_CopyBufferRegion(list, d->src_buffer, 0, upload, 0, p->mip0.total);
    ID3D12GraphicsCommandList_CopyBufferRegion(list, d->chain_buffer, 0, upload, 0, p->chain.total);
    barriers[0] = bench_d3d_transition(d->src_buffer, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
    barriers[1] = bench_d3d_transition(d->chain_buffer, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
    ID3D12GraphicsCommandList_ResourceBarrier(list, 2, barriers);
    d3d_copy_mips(list, d->texture, d->src_buffer, &p->mip0, true);
    barriers[2] = bench_d3d_transition(d->texture, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
    ID3D12GraphicsCommandList_ResourceBarrier(list, 1, &barriers[2]);
    HR(ID3D12GraphicsCommandList_Close(list));
    bench_d3d_execute_and_wait(&d->q, list);
    ID3D12GraphicsCommandList_Release(list);
    ID3D12CommandAllocator_Release(allocator);
    ID3D12Resource_Release(upload);
}

/* Figure f's list: timestamp, the copies, timestamp, resolve. */
static void d3d_build_list(struct d3d *d, unsigned f, const struct params *p)
{
    D3D12_TEXTURE_COPY_LOCATION dst, src;
    ID3D12GraphicsCommandList *list;

    bench_d3d_new_list(d->device, d->q.type, &d->allocators[f], &d->lists[f]);
    list = d->lists[f];
    ID3D12GraphicsCommandList_EndQuery(list, d->queries, D3D12_QUERY_TYPE_TIMESTAMP, f * 2);
    switch (f) {
    case FIGURE_UPLOAD:
        d3d_copy_mips(list, d->upload_texture, d->src_buffer, &p->mip0, true);
        break;
    case FIGURE_READBACK:
        d3d_copy_mips(list, d->texture, d->readback_buffer, &p->mip0, false);
        break;
    case FIGURE_TEXTURE:
        copy_location_subresource(&dst, d->copy_texture, 0);
        copy_location_subresource(&src, d->texture, 0);
        ID3D12GraphicsCommandList_CopyTextureRegion(list, &dst, 0, 0, 0, &src, NULL);
        break;
    case FIGURE_UPLOAD_MIPS:
        d3d_copy_mips(list, d->chain_texture, d->chain_buffer, &p->chain, true);
        break;
    }
    ID3D12GraphicsCommandList_EndQuery(list, d->queries, D3D12_QUERY_TYPE_TIMESTAMP, f * 2 + 1);
    ID3D12GraphicsCommandList_ResolveQueryData(list, d->queries, D3D12_QUERY_TYPE_TIMESTAMP, f * 2, 2, d->query_results,
            f * 2 * sizeof(UINT64));
    HR(ID3D12GraphicsCommandList_Close(list));
}

/* Runs figure f's list once; returns the GPU nanoseconds between its two timestamps. */
static double d3d_run_timed(struct d3d *d, unsigned f)
{
    D3D12_RANGE range = {f * 2 * sizeof(UINT64), (f * 2 + 2) * sizeof(UINT64)};
    UINT64 *ticks = NULL;
    double ns;

    bench_d3d_execute_and_wait(&d->q, d->lists[f]);
    HR(ID3D12Resource_Map(d->query_results, 0, &range, (void **)&ticks));
    ns = (double)(ticks[f * 2 + 1] - ticks[f * 2]) * 1e9 / (double)d->q.frequency;
    ID3D12Resource_Unmap(d->query_results, 0, NULL);
    return ns;
}

/* A copy's destination (texture or buffer, in COPY_DEST) into a READBACK buffer laid out as f,
 * checked against the pattern. */
static void d3d_check(struct d3d *d, ID3D12Resource *resource, bool is_texture, const struct footprints *f, const char *what)
{
    ID3D12Resource *readback = bench_d3d_buffer(d->device, D3D12_HEAP_TYPE_READBACK, f->total, D3D12_RESOURCE_FLAG_NONE,
            D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12CommandAllocator *allocator;
    ID3D12GraphicsCommandList *list;
    D3D12_RESOURCE_BARRIER barriers[2];
    void *mapped = NULL;

    /* Not the pattern before the copy: memory an earlier check freed may come back holding it. */
    HR(ID3D12Resource_Map(readback, 0, NULL, &mapped));
    memset(mapped, POISON, f->total);
    ID3D12Resource_Unmap(readback, 0, NULL);
    barriers[0] = bench_d3d_transition(resource, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
    barriers[1] = bench_d3d_transition(resource, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_COPY_DEST);
    bench_d3d_new_list(d->device, d->q.type, &allocator, &list);
    ID3D12GraphicsCommandList_ResourceBarrier(list, 1, &barriers[0]);
    if (is_texture)
        d3d_copy_mips(list, resource, readback, f, false);
    else
        ID3D12GraphicsCommandList_CopyBufferRegion(list, readback, 0, resource, 0, f->total);
    ID3D12GraphicsCommandList_ResourceBarrier(list, 1, &barriers[1]);
    HR(ID3D12GraphicsCommandList_Close(list));
    bench_d3d_execute_and_wait(&d->q, list);
    ID3D12GraphicsCommandList_Release(list);
    ID3D12CommandAllocator_Release(allocator);

    HR(ID3D12Resource_Map(readback, 0, NULL, &mapped));
    check_footprints(mapped, f, what);
    ID3D12Resource_Unmap(readback, 0, NULL);
    ID3D12Resource_Release(readback);
}

static void d3d_check_figure(struct d3d *d, unsigned f, const struct params *p)
{
    switch (f) {
    case FIGURE_UPLOAD: d3d_check(d, d->upload_texture, true, &p->mip0, "d3d12xs upload"); break;
    case FIGURE_READBACK: d3d_check(d, d->readback_buffer, false, &p->mip0, "d3d12xs readback"); break;
    case FIGURE_TEXTURE: d3d_check(d, d->copy_texture, true, &p->mip0, "d3d12xs texture copy"); break;
    case FIGURE_UPLOAD_MIPS: d3d_check(d, d->chain_texture, true, &p->chain, "d3d12xs upload_mips"); break;
    }
}

static void d3d_destroy(struct d3d *d)
{
    ID3D12Resource *resources[] = {d->src_buffer, d->chain_buffer, d->readback_buffer, d->texture, d->upload_texture, d->copy_texture,
            d->chain_texture};

    for (unsigned f = 0; f < FIGURE_COUNT; f++) {
        if (d->lists[f])
            ID3D12GraphicsCommandList_Release(d->lists[f]);
        if (d->allocators[f])
            ID3D12CommandAllocator_Release(d->allocators[f]);
    }
    for (unsigned i = 0; i < BENCH_ARRAY_SIZE(resources); i++)
        if (resources[i])
            ID3D12Resource_Release(resources[i]);
    ID3D12Resource_Release(d->query_results);
    ID3D12QueryHeap_Release(d->queries);
    bench_d3d_queue_destroy(&d->q);
    ID3D12Device_Release(d->device);
}

/* ======================================================================================= */
/* raw Vulkan side                                                                         */
/* ======================================================================================= */

struct raw_image {
    VkImage image;
    VkDeviceMemory memory;
    uint32_t mips;
};

struct raw {
    struct bench_vk vk;
    struct bench_vk_queue q;          /* the graphics family's queue, command pool and fence */
    VkQueryPool queries;              /* two per figure */
    struct bench_vk_buffer src_buffer, chain_buffer, readback_buffer; /* device-local, as d3d12xs's */
    struct raw_image texture, upload_texture, copy_texture, chain_texture;
    VkCommandBuffer cmds[FIGURE_COUNT];
};

/* The raw side picks its family itself, by d3d12xs's rule for DIRECT queues (the first family
 * with graphics and compute), so that the two printed families check each other. */
static uint32_t raw_direct_family(VkPhysicalDevice physical_device)
{
    VkQueueFamilyProperties families[16];
    uint32_t family_count = BENCH_ARRAY_SIZE(families);

    vkGetPhysicalDeviceQueueFamilyProperties(physical_device, &family_count, families);
    for (uint32_t i = 0; i < family_count; i++) {
        if ((families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) && (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)) {
            REQUIRE(families[i].timestampValidBits, "queue family %u has no timestamps", i);
            return i;
        }
    }
    bench_fail(__LINE__, "the device has no graphics and compute queue family");
}

/* What a hand-written program makes for a texture it samples and copies: optimal tiling,
 * exclusive to its one queue family, memory of its own where the driver prefers it. */
static struct raw_image raw_image_create(struct raw *r, uint32_t size, uint32_t mips)
{
    struct bench_vk_image image = bench_vk_rgba8_image(&r->vk, size, mips,
            VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT);
    return (struct raw_image){image.image, image.memory, mips};
}

static void raw_image_destroy(struct raw *r, struct raw_image *t)
{
    struct bench_vk_image image = {t->image, t->memory};
    bench_vk_free_image(&r->vk, &image);
}

/* A layout change of every mip of an image. */
static VkImageMemoryBarrier2 raw_layout(const struct raw_image *t, VkImageLayout from, VkImageLayout to, VkPipelineStageFlags2 src_stages,
        VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stages, VkAccessFlags2 dst_access)
{
    return (VkImageMemoryBarrier2){
        .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
        .srcStageMask = src_stages,
        .srcAccessMask = src_access,
        .dstStageMask = dst_stages,
        .dstAccessMask = dst_access,
        .oldLayout = from,
        .newLayout = to,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .image = t->image,
        .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, t->mips, 0, 1},
    };
}

/* GENERAL -> a transfer layout for a copy: after the image's last copy (the program's other
 * users of its images are copies too). */
static VkImageMemoryBarrier2 raw_to_transfer(const struct raw_image *t, VkImageLayout layout)
{
    return raw_layout(t, VK_IMAGE_LAYOUT_GENERAL, layout, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
            VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT);
}

/* Back to GENERAL after a copy, for whatever comes next. */
static VkImageMemoryBarrier2 raw_to_general(const struct raw_image *t, VkImageLayout layout)
{
    return raw_layout(t, layout, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_COPY_BIT,
            layout == VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL ? VK_ACCESS_2_TRANSFER_WRITE_BIT : 0, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
            VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
}

static void raw_image_barriers(VkCommandBuffer cmd, const VkImageMemoryBarrier2 *barriers, uint32_t count)
{
    VkDependencyInfo dependency = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .imageMemoryBarrierCount = count,
            .pImageMemoryBarriers = barriers};
    vkCmdPipelineBarrier2(cmd, &dependency);
}

/* The buffer <-> image regions of every mip of a footprint layout: the same offsets and row
 * pitch as the d3d12xs side's (bufferRowLength in texels = RowPitch / 4). */
static void raw_regions(const struct footprints *f, VkBufferImageCopy *regions)
{
    for (UINT m = 0; m < f->count; m++) {
        const D3D12_SUBRESOURCE_FOOTPRINT *footprint = &f->layouts[m].Footprint;
        regions[m] = (VkBufferImageCopy){
            .bufferOffset = f->layouts[m].Offset,
            .bufferRowLength = footprint->RowPitch / 4,
            .bufferImageHeight = footprint->Height,
            .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, m, 0, 1},
            .imageOffset = {0, 0, 0},
            .imageExtent = {footprint->Width, footprint->Height, 1},
        };
    }
}

static void raw_init(struct raw *r)
{
    VkQueryPoolCreateInfo query_info = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, .queryType = VK_QUERY_TYPE_TIMESTAMP,
            .queryCount = FIGURE_COUNT * 2};
    uint32_t family;

    memset(r, 0, sizeof(*r));
    bench_vk_open(&r->vk, "bench_texture (raw Vulkan)");
    family = raw_direct_family(r->vk.physical_device);
    bench_vk_create_device(&r->vk, &family, 1, &r->q);
    VK(vkCreateQueryPool(r->vk.device, &query_info, NULL, &r->queries));
}

/* The images (in GENERAL from here on, zeroed, as d3d12xs creates textures) and buffers; the
 * source buffers get the pattern through a host-visible staging buffer, and `texture` gets it
 * from src_buffer; untimed. */
static void raw_setup(struct raw *r, const struct params *p)
{
    const VkBufferUsageFlags usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    VkDeviceSize staging_size = p->chain.total > p->mip0.total ? p->chain.total : p->mip0.total;
    struct raw_image *images[] = {&r->texture, &r->upload_texture, &r->copy_texture, &r->chain_texture};
    VkImageMemoryBarrier2 barriers[4];
    struct bench_vk_buffer staging;
    VkBufferImageCopy region;
    VkCommandBuffer cmd;
    void *mapped;

    r->texture = raw_image_create(r, p->size, 1);
    r->upload_texture = raw_image_create(r, p->size, 1);
    r->copy_texture = raw_image_create(r, p->size, 1);
    r->chain_texture = raw_image_create(r, p->size, p->mips);
    r->src_buffer = bench_vk_buffer(&r->vk, p->mip0.total, usage, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    r->chain_buffer = bench_vk_buffer(&r->vk, p->chain.total, usage, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    r->readback_buffer = bench_vk_buffer(&r->vk, p->mip0.total, usage, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);

    staging = bench_vk_buffer(&r->vk, staging_size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
            VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 0);
    VK(vkMapMemory(r->vk.device, staging.memory, 0, VK_WHOLE_SIZE, 0, &mapped));
    fill_pattern(mapped, staging_size / 4);
    vkUnmapMemory(r->vk.device, staging.memory);

    cmd = bench_vk_begin(&r->vk, &r->q);
    VkBufferCopy src_region = {0, 0, p->mip0.total}, chain_region = {0, 0, p->chain.total};
    vkCmdCopyBuffer(cmd, staging.buffer, r->src_buffer.buffer, 1, &src_region);
    vkCmdCopyBuffer(cmd, staging.buffer, r->chain_buffer.buffer, 1, &chain_region);
    for (unsigned i = 0; i < 4; i++)
        barriers[i] = raw_layout(images[i], VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_NONE, 0,
                VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    raw_image_barriers(cmd, barriers, 4);
    VkClearColorValue zero = {{0}};
    for (unsigned i = 0; i < 4; i++) {
        VkImageSubresourceRange range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, images[i]->mips, 0, 1};
        vkCmdClearColorImage(cmd, images[i]->image, VK_IMAGE_LAYOUT_GENERAL, &zero, 1, &range);
    }
    bench_vk_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
            VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT);
    barriers[0] = raw_to_transfer(&r->texture, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    raw_image_barriers(cmd, barriers, 1);
    raw_regions(&p->mip0, &region);
    vkCmdCopyBufferToImage(cmd, r->src_buffer.buffer, r->texture.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    barriers[0] = raw_to_general(&r->texture, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    raw_image_barriers(cmd, barriers, 1);
    VK(vkEndCommandBuffer(cmd));
    bench_vk_submit_and_wait(&r->vk, &r->q, cmd);
    vkFreeCommandBuffers(r->vk.device, r->q.pool, 1, &cmd);
    bench_vk_free_buffer(&r->vk, &staging);
}

/* Figure f's command buffer: the queries' reset, timestamp, the transitions into the transfer
 * layouts and the copies, timestamp, the transitions back to GENERAL (after the timestamp,
 * where d3d12xs's are: see the top of this file). */
static void raw_build_cmd(struct raw *r, unsigned f, const struct params *p)
{
    VkCommandBuffer cmd = r->cmds[f] = bench_vk_begin(&r->vk, &r->q);
    VkBufferImageCopy regions[MAX_MIPS];
    VkImageMemoryBarrier2 barriers[2];

    vkCmdResetQueryPool(cmd, r->queries, f * 2, 2);
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, r->queries, f * 2);
    switch (f) {
    case FIGURE_UPLOAD:
        barriers[0] = raw_to_transfer(&r->upload_texture, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
        raw_image_barriers(cmd, barriers, 1);
        raw_regions(&p->mip0, regions);
        vkCmdCopyBufferToImage(cmd, r->src_buffer.buffer, r->upload_texture.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, regions);
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, r->queries, f * 2 + 1);
        barriers[0] = raw_to_general(&r->upload_texture, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
        raw_image_barriers(cmd, barriers, 1);
        break;
    case FIGURE_READBACK:
        barriers[0] = raw_to_transfer(&r->texture, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        raw_image_barriers(cmd, barriers, 1);
        raw_regions(&p->mip0, regions);
        vkCmdCopyImageToBuffer(cmd, r->texture.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, r->readback_buffer.buffer, 1, regions);
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, r->queries, f * 2 + 1);
        barriers[0] = raw_to_general(&r->texture, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        raw_image_barriers(cmd, barriers, 1);
        break;
    case FIGURE_TEXTURE: {
        VkImageCopy region = {
            .srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
            .dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
            .extent = {p->size, p->size, 1},
        };
        barriers[0] = raw_to_transfer(&r->texture, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        barriers[1] = raw_to_transfer(&r->copy_texture, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
        raw_image_barriers(cmd, barriers, 2);
        vkCmdCopyImage(cmd, r->texture.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, r->copy_texture.image,
                VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, r->queries, f * 2 + 1);
        barriers[0] = raw_to_general(&r->texture, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        barriers[1] = raw_to_general(&r->copy_texture, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
        raw_image_barriers(cmd, barriers, 2);
        break;
    }
    case FIGURE_UPLOAD_MIPS:
        /* One barrier for the whole chain, then a copy per mip. */
        barriers[0] = raw_to_transfer(&r->chain_texture, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
        raw_image_barriers(cmd, barriers, 1);
        raw_regions(&p->chain, regions);
        for (uint32_t m = 0; m < p->mips; m++)
            vkCmdCopyBufferToImage(cmd, r->chain_buffer.buffer, r->chain_texture.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &regions[m]);
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, r->queries, f * 2 + 1);
        barriers[0] = raw_to_general(&r->chain_texture, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
        raw_image_barriers(cmd, barriers, 1);
        break;
    }
    VK(vkEndCommandBuffer(cmd));
}

static double raw_run_timed(struct raw *r, unsigned f)
{
    uint64_t ticks[2];
    bench_vk_submit_and_wait(&r->vk, &r->q, r->cmds[f]);
    VK(vkGetQueryPoolResults(r->vk.device, r->queries, f * 2, 2, sizeof(ticks), ticks, sizeof(uint64_t),
            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    return (double)(ticks[1] - ticks[0]) * (double)r->vk.properties.limits.timestampPeriod;
}

/* A copy's destination (an image in GENERAL, or a buffer) into a host-visible buffer laid out
 * as f, checked against the pattern. */
static void raw_check(struct raw *r, const struct raw_image *image, const struct bench_vk_buffer *buffer, const struct footprints *f,
        const char *what)
{
    struct bench_vk_buffer staging = bench_vk_buffer(&r->vk, f->total, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
            VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
    VkCommandBuffer cmd = bench_vk_begin(&r->vk, &r->q);
    VkBufferImageCopy regions[MAX_MIPS];
    VkImageMemoryBarrier2 barrier;
    void *mapped;

    /* Not the pattern before the copy (as on the d3d12xs side). */
    VK(vkMapMemory(r->vk.device, staging.memory, 0, VK_WHOLE_SIZE, 0, &mapped));
    memset(mapped, POISON, f->total);
    vkUnmapMemory(r->vk.device, staging.memory);
    bench_vk_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
            VK_ACCESS_2_TRANSFER_READ_BIT);
    if (image) {
        barrier = raw_to_transfer(image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        raw_image_barriers(cmd, &barrier, 1);
        raw_regions(f, regions);
        vkCmdCopyImageToBuffer(cmd, image->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, staging.buffer, f->count, regions);
        barrier = raw_to_general(image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        raw_image_barriers(cmd, &barrier, 1);
    } else {
        VkBufferCopy region = {0, 0, f->total};
        vkCmdCopyBuffer(cmd, buffer->buffer, staging.buffer, 1, &region);
    }
    bench_vk_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
            VK_ACCESS_2_HOST_READ_BIT);
    VK(vkEndCommandBuffer(cmd));
    bench_vk_submit_and_wait(&r->vk, &r->q, cmd);
    vkFreeCommandBuffers(r->vk.device, r->q.pool, 1, &cmd);

    VK(vkMapMemory(r->vk.device, staging.memory, 0, VK_WHOLE_SIZE, 0, &mapped));
    check_footprints(mapped, f, what);
    vkUnmapMemory(r->vk.device, staging.memory);
    bench_vk_free_buffer(&r->vk, &staging);
}

static void raw_check_figure(struct raw *r, unsigned f, const struct params *p)
{
    switch (f) {
    case FIGURE_UPLOAD: raw_check(r, &r->upload_texture, NULL, &p->mip0, "raw Vulkan upload"); break;
    case FIGURE_READBACK: raw_check(r, NULL, &r->readback_buffer, &p->mip0, "raw Vulkan readback"); break;
    case FIGURE_TEXTURE: raw_check(r, &r->copy_texture, NULL, &p->mip0, "raw Vulkan texture copy"); break;
    case FIGURE_UPLOAD_MIPS: raw_check(r, &r->chain_texture, NULL, &p->chain, "raw Vulkan upload_mips"); break;
    }
}

static void raw_destroy(struct raw *r)
{
    vkDeviceWaitIdle(r->vk.device);
    raw_image_destroy(r, &r->texture);
    raw_image_destroy(r, &r->upload_texture);
    raw_image_destroy(r, &r->copy_texture);
    raw_image_destroy(r, &r->chain_texture);
    bench_vk_free_buffer(&r->vk, &r->src_buffer);
    bench_vk_free_buffer(&r->vk, &r->chain_buffer);
    bench_vk_free_buffer(&r->vk, &r->readback_buffer);
    vkDestroyQueryPool(r->vk.device, r->queries, NULL);
    bench_vk_queue_destroy(&r->vk, &r->q);
    bench_vk_destroy(&r->vk);
}

/* ======================================================================================= */
/* the table                                                                               */
/* ======================================================================================= */

static void write_tsv(const char *path, const struct bench_row *figures, unsigned count, const struct d3d *d, const struct raw *r,
        const struct params *p)
{
    FILE *f = fopen(path, "w");
    REQUIRE(f, "cannot write D3D12XS_BENCH_OUT=%s", path);
    fprintf(f, "# bench_texture\tdevice=%s\tdriver=%s %s\traw_device=%s\tsize=%u\tmips=%u\tbytes=%llu\tchain_bytes=%llu\treps=%u\n",
            d->info.DeviceName, d->info.DriverName, d->info.DriverInfo, r->vk.properties.deviceName, p->size, p->mips,
            (unsigned long long)p->mip0.texel_bytes, (unsigned long long)p->chain.texel_bytes, p->reps);
    bench_rows_tsv(f, figures, count);
    REQUIRE(fclose(f) == 0, "cannot write D3D12XS_BENCH_OUT=%s", path);
}

/* Both sides run their timed work untimed this long first, so the GPU is at its working clock. */
#define GPU_WARM_UP_NS 1e9

int main(int argc, char **argv)
{
    struct bench_row figures[FIGURE_COUNT] = {
        {.arg = "upload", .key = "upload_gbps", .label = "upload GB/s (DEFAULT buffer -> texture)", .unit = "GB/s",
                .higher_is_better = true, .target = 1.05},
        {.arg = "readback", .key = "readback_gbps", .label = "readback GB/s (texture -> DEFAULT buffer)", .unit = "GB/s",
                .higher_is_better = true, .target = 1.05},
        {.arg = "texture", .key = "texture_copy_gbps", .label = "texture GB/s (texture -> texture)", .unit = "GB/s",
                .higher_is_better = true, .target = 1.05},
        {.arg = "upload_mips", .key = "upload_mips_gbps", .label = "upload_mips GB/s (every mip, DEFAULT buf)", .unit = "GB/s",
                .higher_is_better = true, .target = 1.05},
    };
    bool run[FIGURE_COUNT], named = false;
    double d3d_samples[BENCH_MAX_REPS], raw_samples[BENCH_MAX_REPS];
    const char *out = getenv("D3D12XS_BENCH_OUT");
    unsigned long size = 0;
    struct params p;
    struct d3d d;
    struct raw r;

    /* Arguments pick figures by name (for profiling one path); none runs them all. */
    for (unsigned i = 0; i < FIGURE_COUNT; i++)
        run[i] = true;
    for (int a = 1; a < argc; a++) {
        unsigned i = 0;
        if (!strncmp(argv[a], "size=", 5) && (size = strtoul(argv[a] + 5, NULL, 0)) >= 64 && size <= 16384)
            continue;
        while (i < FIGURE_COUNT && strcmp(argv[a], figures[i].arg))
            i++;
        if (i == FIGURE_COUNT) {
            fprintf(stderr, "usage: %s [upload] [readback] [texture] [upload_mips] [size=64..16384]   (no figure: all)\n", argv[0]);
            return 2;
        }
        if (!named) /* the first figure named: only those named */
            memset(run, 0, sizeof(run));
        named = true;
        run[i] = true;
    }

    /* No validation layer: it would measure itself. */
    setenv("D3D12XS_DEBUG", "0", 1);
    setvbuf(stdout, NULL, _IOLBF, 0);

    d3d_init(&d);
    raw_init(&r);
    memset(&p, 0, sizeof(p));
    p.size = (uint32_t)(size ? size : d.info.IsSoftwareRasterizer ? 1024 : 4096);
    p.reps = d.info.IsSoftwareRasterizer ? 31 : 15;
    for (uint32_t s = p.size; s; s >>= 1)
        p.mips++;
    get_footprints(d.device, p.size, 1, &p.mip0);
    get_footprints(d.device, p.size, p.mips, &p.chain);
    d3d_setup(&d, &p);
    raw_setup(&r, &p);

    printf("d3d12xs device : %s (%s, %s), DIRECT queue family %u\n", d.info.DeviceName, d.info.DriverName, d.info.DriverInfo,
            d.info.Queues[D3D12_COMMAND_LIST_TYPE_DIRECT].VulkanQueueFamily);
    printf("raw Vulkan     : %s (%s, %s), queue family %u\n", r.vk.properties.deviceName, r.vk.driver.driverName, r.vk.driver.driverInfo,
            r.q.family);
    if (strcmp(d.info.DeviceName, r.vk.properties.deviceName) || d.info.Queues[D3D12_COMMAND_LIST_TYPE_DIRECT].VulkanQueueFamily != r.q.family)
        printf("WARNING: the two sides do not run on the same device and queue family\n");
    printf("textures: %u x %u R8G8B8A8_UNORM, mip 0 %.1f MiB (row pitch %u bytes), full chain %u mips %.1f MiB; DEFAULT-heap buffers; "
           "%u reps, medians, sides alternating\n", p.size, p.size, (double)p.mip0.texel_bytes / (1 << 20),
            p.mip0.layouts[0].Footprint.RowPitch, p.mips, (double)p.chain.texel_bytes / (1 << 20), p.reps);

    for (unsigned f = 0; f < FIGURE_COUNT; f++) {
        double bytes = (double)(f == FIGURE_UPLOAD_MIPS ? p.chain.texel_bytes : p.mip0.texel_bytes);
        if (!run[f])
            continue;
        d3d_build_list(&d, f, &p);
        raw_build_cmd(&r, f, &p);
        /* The first run of each side, read back and checked word by word; then the warm-up. */
        d3d_run_timed(&d, f);
        raw_run_timed(&r, f);
        d3d_check_figure(&d, f, &p);
        raw_check_figure(&r, f, &p);
        for (double start = bench_now_ns(); bench_now_ns() - start < GPU_WARM_UP_NS;) {
            d3d_run_timed(&d, f);
            raw_run_timed(&r, f);
        }
        for (unsigned i = 0; i < p.reps; i++) {
            for (unsigned k = 0; k < 2; k++) {
                if ((i + k) % 2)
                    raw_samples[i] = bytes / raw_run_timed(&r, f);
                else
                    d3d_samples[i] = bytes / d3d_run_timed(&d, f);
            }
        }
        bench_row_set(&figures[f], d3d_samples, raw_samples, p.reps);
    }

    bench_rows_print(figures, FIGURE_COUNT, 42);
    printf("GB/s: bytes of the texels copied / GPU time between the timestamps around the copies, medians. ratio: raw GB/s /\n"
           "d3d12xs GB/s per repetition, the two sides back to back, median over repetitions; above 1 means d3d12xs is slower.\n"
           "med/med: the ratio of the medians. Each figure's first copy was read back and checked word by word on both sides.\n");
    if (out && *out)
        write_tsv(out, figures, FIGURE_COUNT, &d, &r, &p);

    raw_destroy(&r);
    d3d_destroy(&d);
    return 0;
}
