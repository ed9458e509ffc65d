/* ID3D12Device::CopyDescriptors and CopyDescriptorsSimple. A descriptor is bytes and nothing
 * else: its record (struct d3d12xs_descriptor, which holds no reference and owns nothing), its
 * Vulkan descriptor and its side-table entry (heap_memory.c). So a copy checks each range's
 * handle once (one registry look-up, then range checks against that heap) and copies those
 * bytes: no per-descriptor look-up, lock, reference count or decoding. The copy is independent
 * of its source, which may be rewritten or released afterwards.
 *
 * D3D12 leaves overlapping source and destination ranges undefined: each run is a memmove, so
 * such a copy reads as if through a temporary, one run after the other. With the debug layer on,
 * overlaps and shader-visible sources (D3D12 wants staging heaps as sources) get a warning line. */
#include <stdlib.h>
#include <string.h>

#include "descriptors/heap_memory.h"
#include "descriptors/heap_registry.h"

#define METHOD(name) "ID3D12Device::" #name
#define SMALL_RANGE_COUNT 16 /* ranges per side whose heaps are kept on the stack */

static bool known_type(D3D12_DESCRIPTOR_HEAP_TYPE type, const char *method)
{
    if ((unsigned)type < D3D12_DESCRIPTOR_HEAP_TYPE_NUM_TYPES)
        return true;
    ERR("%s: DescriptorHeapsType is %d (not a D3D12_DESCRIPTOR_HEAP_TYPE)", method, (int)type);
    return false;
}

/* count descriptors from src (in src_heap) to dst (in dst_heap). */
static inline void copy_run(struct d3d12_descriptor_heap *dst_heap, struct d3d12xs_descriptor *dst,
        const struct d3d12_descriptor_heap *src_heap, const struct d3d12xs_descriptor *src, size_t count)
{
    d3d12_descriptor_heap_copy(dst_heap, (size_t)(dst - dst_heap->descriptors), src_heap, (size_t)(src - src_heap->descriptors), count);
}

/* Whether [a, a + a_count) and [b, b + b_count) share a descriptor. */
static bool ranges_overlap(const struct d3d12xs_descriptor *a, size_t a_count, const struct d3d12xs_descriptor *b, size_t b_count)
{
    return a < b + b_count && b < a + a_count;
}

/* The debug layer's view of one source range against the destination ranges. */
static void debug_check_source(struct d3d12_device *device, const char *method, const char *argument,
        const struct d3d12_descriptor_heap *src_heap, const struct d3d12xs_descriptor *src, size_t src_count,
        const D3D12_CPU_DESCRIPTOR_HANDLE *dst_starts, const UINT *dst_sizes, UINT dst_range_count)
{
    if (src_heap->desc.Flags & D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE)
        d3d12_device_debug_warn(device, method, "%s is in shader-visible heap '%s' (sources must be in heaps that are not "
                "shader-visible)", argument, d3d12xs_object_name(&src_heap->object));
    for (UINT i = 0; i < dst_range_count; i++) {
        if (ranges_overlap((const struct d3d12xs_descriptor *)dst_starts[i].ptr, dst_sizes ? dst_sizes[i] : 1, src, src_count)) {
            d3d12_device_debug_warn(device, method, "%s overlaps destination range %u (the copy reads as if through a temporary)",
                    argument, i);
            return;
        }
    }
}

/* Out of the copies' way (cold, not inlined): the line that says which check a range failed. */
static void __attribute__((cold, noinline)) report_ranges(struct d3d12_device *device, const char *method, const char *dst_argument,
        const char *src_argument, UINT count, D3D12_CPU_DESCRIPTOR_HANDLE dst_start, D3D12_CPU_DESCRIPTOR_HANDLE src_start,
        D3D12_DESCRIPTOR_HEAP_TYPE type)
{
    if (known_type(type, method) && d3d12xs_descriptor_from_cpu_handle(device, dst_start, count, type, method, dst_argument, NULL))
        d3d12xs_descriptor_from_cpu_handle(device, src_start, count, type, method, src_argument, NULL);
}

/* The debug layer's checks of CopyDescriptorsSimple's ranges, out of the way too. */
static void __attribute__((cold, noinline)) debug_check_range(struct d3d12_device *device, const char *method, const char *src_argument,
        const struct d3d12_descriptor_heap *src_heap, UINT count, D3D12_CPU_DESCRIPTOR_HANDLE dst_start, D3D12_CPU_DESCRIPTOR_HANDLE src_start)
{
    debug_check_source(device, method, src_argument, src_heap, (const struct d3d12xs_descriptor *)src_start.ptr, count, &dst_start, &count, 1);
}

/* One destination and one source range of count descriptors: both checked inline
 * (d3d12xs_descriptor_heap_of_range; the look-up that explains a failure runs only on one),
 * then copied. */
static inline void copy_range(struct d3d12_device *device, const char *method, const char *dst_argument, const char *src_argument,
        UINT count, D3D12_CPU_DESCRIPTOR_HANDLE dst_start, D3D12_CPU_DESCRIPTOR_HANDLE src_start, D3D12_DESCRIPTOR_HEAP_TYPE type)
{
    struct d3d12_descriptor_heap *dst_heap, *src_heap;

    if (__builtin_expect(!(dst_heap = d3d12xs_descriptor_heap_of_range(device, dst_start.ptr, count, type))
            || !(src_heap = d3d12xs_descriptor_heap_of_range(device, src_start.ptr, count, type)), 0)) {
        report_ranges(device, method, dst_argument, src_argument, count, dst_start, src_start, type);
        return;
    }
    if (__builtin_expect(device->config.debug == D3D12XS_CONFIG_ON, 0))
        debug_check_range(device, method, src_argument, src_heap, count, dst_start, src_start);
    if (count)
        copy_run(dst_heap, (struct d3d12xs_descriptor *)dst_start.ptr, src_heap, (const struct d3d12xs_descriptor *)src_start.ptr, count);
}

/* CopyDescriptorsSimple of other than one descriptor, or of one that the short way did not take:
 * out of line, so that the short way needs no stack frame. */
static void __attribute__((noinline)) copy_simple_range(struct d3d12_device *device, UINT count, D3D12_CPU_DESCRIPTOR_HANDLE dst_start,
        D3D12_CPU_DESCRIPTOR_HANDLE src_start, D3D12_DESCRIPTOR_HEAP_TYPE type)
{
    copy_range(device, METHOD(CopyDescriptorsSimple), "DestDescriptorRangeStart", "SrcDescriptorRangeStart", count, dst_start, src_start, type);
}

/* The short way's copy with the debug layer on: its warnings, then the copy. Out of line, so
 * that the short way without it needs no stack frame. */
static void __attribute__((noinline)) copy_one_debug(struct d3d12_device *device, struct d3d12_descriptor_heap *dst_heap,
        D3D12_CPU_DESCRIPTOR_HANDLE dst_start, const struct d3d12_descriptor_heap *src_heap, D3D12_CPU_DESCRIPTOR_HANDLE src_start)
{
    debug_check_range(device, METHOD(CopyDescriptorsSimple), "SrcDescriptorRangeStart", src_heap, 1, dst_start, src_start);
    d3d12_descriptor_heap_copy_one(dst_heap, (struct d3d12xs_descriptor *)dst_start.ptr, d3d12xs_descriptor_heap_index(dst_heap, dst_start.ptr),
            src_heap, (const struct d3d12xs_descriptor *)src_start.ptr, d3d12xs_descriptor_heap_index(src_heap, src_start.ptr));
}

void d3d12_device_copy_descriptors_simple(struct d3d12_device *device, UINT count, D3D12_CPU_DESCRIPTOR_HANDLE dst_start,
        D3D12_CPU_DESCRIPTOR_HANDLE src_start, D3D12_DESCRIPTOR_HEAP_TYPE type)
{
    /* One descriptor, the common call (a table filled descriptor by descriptor): each handle's heap
     * and index, checked, then the bytes. Every other call, and every failed check, takes
     * copy_range, which says which check failed. */
    if (count == 1) {
        /* a copy of the window, so that its fields are read once for both look-ups */
        const struct d3d12xs_descriptor_window window = device->descriptor_window;
        struct d3d12_descriptor_heap *dst_heap = d3d12xs_descriptor_heap_find(&window, dst_start.ptr);
        struct d3d12_descriptor_heap *src_heap = d3d12xs_descriptor_heap_find(&window, src_start.ptr);
        if (__builtin_expect(dst_heap && src_heap, 1)) {
            uint64_t dst_index = d3d12xs_descriptor_heap_index(dst_heap, dst_start.ptr);
            uint64_t src_index = d3d12xs_descriptor_heap_index(src_heap, src_start.ptr);
            if (__builtin_expect(dst_index < dst_heap->desc.NumDescriptors && src_index < src_heap->desc.NumDescriptors
                    && dst_heap->desc.Type == type && src_heap->desc.Type == type, 1)) {
                if (__builtin_expect(device->config.debug == D3D12XS_CONFIG_ON, 0)) {
                    copy_one_debug(device, dst_heap, dst_start, src_heap, src_start);
                    return;
                }
                d3d12_descriptor_heap_copy_one(dst_heap, (struct d3d12xs_descriptor *)dst_start.ptr, dst_index, src_heap,
                        (const struct d3d12xs_descriptor *)src_start.ptr, src_index);
                return;
            }
        }
    }
    copy_simple_range(device, count, dst_start, src_start, type);
}

/* Finds each range's heap, checking its handle once; false after one line. */
static inline bool find_heaps(struct d3d12_device *device, const char *method, const char *argument, UINT range_count,
        const D3D12_CPU_DESCRIPTOR_HANDLE *starts, const UINT *sizes, D3D12_DESCRIPTOR_HEAP_TYPE type,
        struct d3d12_descriptor_heap **heaps, uint64_t *total)
{
    struct d3d12_descriptor_heap *heap = NULL;
    uint64_t sum = 0;

    for (UINT i = 0; i < range_count; i++) {
        UINT size = sizes ? sizes[i] : 1;
        /* Ranges often follow one another in one heap: the last range's heap is tried first. */
        if (!heap || !d3d12xs_descriptor_heap_holds(heap, starts[i].ptr, size, type))
            heap = d3d12xs_descriptor_heap_of_range(device, starts[i].ptr, size, type);
        if (!(heaps[i] = heap)) {
            d3d12xs_descriptor_from_cpu_handle(device, starts[i], size, type, method, argument, NULL);
            return false;
        }
        sum += size;
    }
    *total = sum;
    return true;
}

void d3d12_device_copy_descriptors(struct d3d12_device *device, UINT dst_range_count, const D3D12_CPU_DESCRIPTOR_HANDLE *dst_starts,
        const UINT *dst_sizes, UINT src_range_count, const D3D12_CPU_DESCRIPTOR_HANDLE *src_starts, const UINT *src_sizes,
        D3D12_DESCRIPTOR_HEAP_TYPE type)
{
    const char *method = METHOD(CopyDescriptors);
    struct d3d12_descriptor_heap *small_heaps[2 * SMALL_RANGE_COUNT], **dst_heaps = small_heaps, **src_heaps = small_heaps + SMALL_RANGE_COUNT;
    UINT dst_index = 0, src_index = 0, dst_offset = 0, src_offset = 0;
    uint64_t dst_total, src_total;

    if ((dst_range_count && !dst_starts) || (src_range_count && !src_starts)) {
        ERR("%s: %s is NULL with a non-zero range count", method, dst_range_count && !dst_starts ? "pDestDescriptorRangeStarts" : "pSrcDescriptorRangeStarts");
        return;
    }
    /* One range on each side, of one size (the common call): CopyDescriptorsSimple's path. */
    if (dst_range_count == 1 && src_range_count == 1 && (dst_sizes ? dst_sizes[0] : 1) == (src_sizes ? src_sizes[0] : 1)) {
        copy_range(device, method, "pDestDescriptorRangeStarts[i]", "pSrcDescriptorRangeStarts[i]", dst_sizes ? dst_sizes[0] : 1,
                dst_starts[0], src_starts[0], type);
        return;
    }
    if (!known_type(type, method))
        return;
    /* Every range is checked before anything is copied: a bad call changes nothing. */
    if (dst_range_count > SMALL_RANGE_COUNT || src_range_count > SMALL_RANGE_COUNT) {
        if (!(dst_heaps = calloc((size_t)dst_range_count + src_range_count, sizeof(*dst_heaps)))) {
            ERR("%s: cannot allocate the ranges' heap list", method);
            return;
        }
        src_heaps = dst_heaps + dst_range_count;
    }
    if (!find_heaps(device, method, "pDestDescriptorRangeStarts[i]", dst_range_count, dst_starts, dst_sizes, type, dst_heaps, &dst_total)
            || !find_heaps(device, method, "pSrcDescriptorRangeStarts[i]", src_range_count, src_starts, src_sizes, type, src_heaps, &src_total))
        goto done;
    if (dst_total != src_total) {
        ERR("%s: the destination ranges hold %llu descriptors and the source ranges %llu (they must match)", method,
                (unsigned long long)dst_total, (unsigned long long)src_total);
        goto done;
    }
    if (device->config.debug == D3D12XS_CONFIG_ON) {
        for (UINT i = 0; i < src_range_count; i++)
            debug_check_source(device, method, "pSrcDescriptorRangeStarts[i]", src_heaps[i], (const struct d3d12xs_descriptor *)src_starts[i].ptr,
                    src_sizes ? src_sizes[i] : 1, dst_starts, dst_sizes, dst_range_count);
    }
    /* Runs: the longest stretches that stay inside one destination and one source range. */
    while (dst_index < dst_range_count && src_index < src_range_count) {
        UINT dst_size = dst_sizes ? dst_sizes[dst_index] : 1, src_size = src_sizes ? src_sizes[src_index] : 1;
        UINT count = dst_size - dst_offset < src_size - src_offset ? dst_size - dst_offset : src_size - src_offset;
        if (count)
            copy_run(dst_heaps[dst_index], (struct d3d12xs_descriptor *)dst_starts[dst_index].ptr + dst_offset, src_heaps[src_index],
                    (const struct d3d12xs_descriptor *)src_starts[src_index].ptr + src_offset, count);
        dst_offset += count;
        src_offset += count;
        if (dst_offset == dst_size)
            dst_index++, dst_offset = 0;
        if (src_offset == src_size)
            src_index++, src_offset = 0;
    }
done:
    if (dst_heaps != small_heaps)
        free(dst_heaps);
}
