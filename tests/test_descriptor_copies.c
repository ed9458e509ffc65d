/* CopyDescriptors and CopyDescriptorsSimple copy bytes: a copied descriptor is, byte for byte,
 * what creating the same view at the destination writes (its CPU record, its Vulkan descriptor
 * and its side-table entry), for every kind of view and every heap type, and stays so when its
 * source is rewritten or released; shaders read such copies (a counter UAV and an unaligned raw
 * SRV copied out of a released heap). Overlapping copies act as a memmove per run; the registry
 * of heaps finds the heap of every handle and refuses those outside live heaps. White box: the
 * bytes are compared through the library's own structures. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "descriptors/descriptors.h"
#include "descriptors/descriptor_buffer.h"

/* The views of the CBV_SRV_UAV tests, one per heap index. */
enum view {
    VIEW_CBV, VIEW_CBV_NULL, VIEW_SRV_RAW_UNALIGNED, VIEW_SRV_STRUCTURED, VIEW_SRV_TYPED, VIEW_SRV_NULL_BUFFER, VIEW_SRV_TEXTURE,
    VIEW_SRV_NULL_TEXTURE, VIEW_UAV_RAW, VIEW_UAV_COUNTER, VIEW_UAV_TYPED, VIEW_UAV_TEXTURE, VIEW_UAV_NULL_TEXTURE,
    VIEW_UAV_NULL_STRUCTURED, VIEW_EMPTY, VIEW_COUNT
};
static const char *const view_names[VIEW_COUNT] = {
    "CBV", "null CBV", "raw SRV at element 3", "structured SRV", "typed SRV", "null buffer SRV", "texture SRV", "null texture SRV",
    "raw UAV", "structured UAV with counter", "typed UAV", "texture UAV", "null texture UAV", "null structured UAV", "never written",
};

#define INPUT_WORDS 64

struct env {
    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12Resource *buffer, *uav_buffer, *counter, *texture, *uav_texture, *colours[2], *depth;
};

static ID3D12DescriptorHeap *create_heap(ID3D12Device *device, D3D12_DESCRIPTOR_HEAP_TYPE type, UINT count, bool visible)
{
    D3D12_DESCRIPTOR_HEAP_DESC desc = {type, count, visible ? D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE : D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    ID3D12DescriptorHeap *heap = NULL;
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(device, &desc, &IID_ID3D12DescriptorHeap, (void **)&heap), S_OK);
    return heap;
}

static D3D12_CPU_DESCRIPTOR_HANDLE cpu_at(ID3D12Device *device, ID3D12DescriptorHeap *heap, UINT index)
{
    D3D12_DESCRIPTOR_HEAP_DESC desc = ID3D12DescriptorHeap_GetDesc(heap);
    D3D12_CPU_DESCRIPTOR_HANDLE handle = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap);
    handle.ptr += (SIZE_T)index * ID3D12Device_GetDescriptorHandleIncrementSize(device, desc.Type);
    return handle;
}

static D3D12_GPU_DESCRIPTOR_HANDLE gpu_at(ID3D12Device *device, ID3D12DescriptorHeap *heap, UINT index)
{
    D3D12_GPU_DESCRIPTOR_HANDLE handle = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(heap);
    handle.ptr += (UINT64)index * ID3D12Device_GetDescriptorHandleIncrementSize(device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    return handle;
}

/* The bytes of a slot that its Vulkan descriptor fills (vkGetDescriptorEXT writes the size of the
 * descriptor's type). What a driver leaves alone in them, or past them, keeps what the slot held
 * before, which no shader reads: so the views compared here are created in slots never written
 * before, and copies copy whole slots. */
static size_t descriptor_size(const struct d3d12_descriptor_heap *heap, const struct d3d12xs_descriptor *descriptor)
{
    const struct d3d12xs_descriptor_buffers *buffers = heap->object.device->descriptor_buffers;

    if (descriptor->kind == D3D12XS_DESCRIPTOR_EMPTY)
        return heap->slot_size; /* zeros */
    if (descriptor->kind == D3D12XS_DESCRIPTOR_SAMPLER)
        return buffers->sampler_size;
    switch (descriptor->vk_type) {
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE: return buffers->sampled_image_size;
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE: return buffers->storage_image_size;
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER: return buffers->uniform_buffer_size;
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER: return buffers->storage_buffer_size;
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER: return buffers->uniform_texel_size;
    default: return buffers->storage_texel_size;
    }
}

/* Whether descriptor a_index of a and b_index of b hold the same bytes: record, Vulkan descriptor, side-table entry. */
static bool same_bytes(ID3D12DescriptorHeap *a_iface, UINT a_index, ID3D12DescriptorHeap *b_iface, UINT b_index, const char **part)
{
    struct d3d12_descriptor_heap *a = unsafe_impl_from_ID3D12DescriptorHeap(a_iface), *b = unsafe_impl_from_ID3D12DescriptorHeap(b_iface);
    if (memcmp(&a->descriptors[a_index], &b->descriptors[b_index], sizeof(*a->descriptors))) {
        *part = "CPU record";
        return false;
    }
    if (!a->slots)
        return !b->slots || (*part = "descriptor bytes", false);
    if (a->slot_size != b->slot_size || memcmp(a->slots + a_index * a->slot_size, b->slots + b_index * b->slot_size,
            descriptor_size(a, &a->descriptors[a_index]))) {
        *part = "Vulkan descriptor";
        return false;
    }
    if (a->desc.Type == D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV
            && memcmp(a->slots + a->side_table_offset + a_index * 16, b->slots + b->side_table_offset + b_index * 16, 16)) {
        *part = "side-table entry";
        return false;
    }
    /* the CPU copy that copies compare against says what the GPU memory holds */
    if (a->desc.Type == D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV
            && (memcmp(a->side_entries_cpu + a_index * 16, a->slots + a->side_table_offset + a_index * 16, 16)
                || memcmp(b->side_entries_cpu + b_index * 16, b->slots + b->side_table_offset + b_index * 16, 16))) {
        *part = "CPU copy of the side-table entry";
        return false;
    }
    return true;
}

#define CHECK_SAME(a, a_index, b, b_index, what) do { const char *part_ = ""; bool same_ = same_bytes(a, a_index, b, b_index, &part_); \
        CHECK_MSG(same_, "%s (descriptor %u): %s differs from the view created in place", what, (unsigned)(a_index), part_); } while (0)

static ID3D12Resource *committed(ID3D12Device *device, D3D12_HEAP_TYPE heap_type, const D3D12_RESOURCE_DESC *desc, D3D12_RESOURCE_STATES state)
{
    D3D12_HEAP_PROPERTIES properties = harness_heap_properties(heap_type);
    ID3D12Resource *resource = NULL;
    CHECK_HR(ID3D12Device_CreateCommittedResource(device, &properties, D3D12_HEAP_FLAG_NONE, desc, state, NULL, &IID_ID3D12Resource,
            (void **)&resource), S_OK);
    return resource;
}

static void create_resources(struct env *env)
{
    D3D12_RESOURCE_DESC desc = harness_buffer_desc(INPUT_WORDS * 4);
    uint32_t words[INPUT_WORDS];
    void *mapped = NULL;

    env->buffer = committed(env->device, D3D12_HEAP_TYPE_UPLOAD, &desc, D3D12_RESOURCE_STATE_GENERIC_READ);
    for (uint32_t i = 0; i < INPUT_WORDS; i++)
        words[i] = 1000 + i;
    CHECK_HR(ID3D12Resource_Map(env->buffer, 0, NULL, &mapped), S_OK);
    if (mapped)
        memcpy(mapped, words, sizeof(words));
    ID3D12Resource_Unmap(env->buffer, 0, NULL);
    env->uav_buffer = harness_uav_buffer(env->device, INPUT_WORDS * 4);
    env->counter = harness_uav_buffer(env->device, 8192);
    desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8G8B8A8_UNORM, 8, 8, 1, 1);
    env->texture = committed(env->device, D3D12_HEAP_TYPE_DEFAULT, &desc, D3D12_RESOURCE_STATE_COMMON);
    desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R32_UINT, 8, 8, 1, 1);
    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
    env->uav_texture = committed(env->device, D3D12_HEAP_TYPE_DEFAULT, &desc, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8G8B8A8_UNORM, 4, 4, 1, 1);
    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    env->colours[0] = committed(env->device, D3D12_HEAP_TYPE_DEFAULT, &desc, D3D12_RESOURCE_STATE_RENDER_TARGET);
    env->colours[1] = committed(env->device, D3D12_HEAP_TYPE_DEFAULT, &desc, D3D12_RESOURCE_STATE_RENDER_TARGET);
    desc = harness_texture_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_D32_FLOAT, 4, 4, 1, 1);
    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL;
    env->depth = committed(env->device, D3D12_HEAP_TYPE_DEFAULT, &desc, D3D12_RESOURCE_STATE_DEPTH_WRITE);
}

static D3D12_SHADER_RESOURCE_VIEW_DESC buffer_srv(DXGI_FORMAT format, UINT64 first, UINT count, UINT stride, bool raw)
{
    D3D12_SHADER_RESOURCE_VIEW_DESC desc;
    memset(&desc, 0, sizeof(desc));
    desc.Format = format;
    desc.ViewDimension = D3D12_SRV_DIMENSION_BUFFER;
    desc.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
    desc.Buffer.FirstElement = first;
    desc.Buffer.NumElements = count;
    desc.Buffer.StructureByteStride = stride;
    desc.Buffer.Flags = raw ? D3D12_BUFFER_SRV_FLAG_RAW : D3D12_BUFFER_SRV_FLAG_NONE;
    return desc;
}

static D3D12_UNORDERED_ACCESS_VIEW_DESC buffer_uav(DXGI_FORMAT format, UINT count, UINT stride, bool raw)
{
    D3D12_UNORDERED_ACCESS_VIEW_DESC desc;
    memset(&desc, 0, sizeof(desc));
    desc.Format = format;
    desc.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
    desc.Buffer.NumElements = count;
    desc.Buffer.StructureByteStride = stride;
    desc.Buffer.Flags = raw ? D3D12_BUFFER_UAV_FLAG_RAW : D3D12_BUFFER_UAV_FLAG_NONE;
    return desc;
}

/* Creates view `view` at index of heap. */
static void create_view(struct env *env, ID3D12DescriptorHeap *heap, UINT index, enum view view)
{
    D3D12_CPU_DESCRIPTOR_HANDLE handle = cpu_at(env->device, heap, index);
    D3D12_CONSTANT_BUFFER_VIEW_DESC cbv = {ID3D12Resource_GetGPUVirtualAddress(env->buffer), 256};
    D3D12_SHADER_RESOURCE_VIEW_DESC srv;
    D3D12_UNORDERED_ACCESS_VIEW_DESC uav;

    switch (view) {
    case VIEW_CBV:
        ID3D12Device_CreateConstantBufferView(env->device, &cbv, handle);
        break;
    case VIEW_CBV_NULL:
        ID3D12Device_CreateConstantBufferView(env->device, NULL, handle);
        break;
    case VIEW_SRV_RAW_UNALIGNED: /* 12 bytes in: a misaligned view on most devices (the side table's offset) */
        srv = buffer_srv(DXGI_FORMAT_R32_TYPELESS, 3, 16, 0, true);
        ID3D12Device_CreateShaderResourceView(env->device, env->buffer, &srv, handle);
        break;
    case VIEW_SRV_STRUCTURED:
        srv = buffer_srv(DXGI_FORMAT_UNKNOWN, 2, 8, 8, false);
        ID3D12Device_CreateShaderResourceView(env->device, env->buffer, &srv, handle);
        break;
    case VIEW_SRV_TYPED:
        srv = buffer_srv(DXGI_FORMAT_R32_UINT, 0, INPUT_WORDS, 0, false);
        ID3D12Device_CreateShaderResourceView(env->device, env->buffer, &srv, handle);
        break;
    case VIEW_SRV_NULL_BUFFER:
        srv = buffer_srv(DXGI_FORMAT_R32_UINT, 0, 0, 0, false);
        ID3D12Device_CreateShaderResourceView(env->device, NULL, &srv, handle);
        break;
    case VIEW_SRV_TEXTURE:
        ID3D12Device_CreateShaderResourceView(env->device, env->texture, NULL, handle);
        break;
    case VIEW_SRV_NULL_TEXTURE:
        memset(&srv, 0, sizeof(srv));
        srv.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
        srv.ViewDimension = D3D12_SRV_DIMENSION_TEXTURE2D;
        srv.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
        srv.Texture2D.MipLevels = 1;
        ID3D12Device_CreateShaderResourceView(env->device, NULL, &srv, handle);
        break;
    case VIEW_UAV_RAW:
        uav = buffer_uav(DXGI_FORMAT_R32_TYPELESS, INPUT_WORDS, 0, true);
        ID3D12Device_CreateUnorderedAccessView(env->device, env->uav_buffer, NULL, &uav, handle);
        break;
    case VIEW_UAV_COUNTER:
        uav = buffer_uav(DXGI_FORMAT_UNKNOWN, INPUT_WORDS, 4, false);
        uav.Buffer.CounterOffsetInBytes = 4096;
        ID3D12Device_CreateUnorderedAccessView(env->device, env->uav_buffer, env->counter, &uav, handle);
        break;
    case VIEW_UAV_TYPED:
        uav = buffer_uav(DXGI_FORMAT_R32_UINT, INPUT_WORDS, 0, false);
        ID3D12Device_CreateUnorderedAccessView(env->device, env->uav_buffer, NULL, &uav, handle);
        break;
    case VIEW_UAV_TEXTURE:
        ID3D12Device_CreateUnorderedAccessView(env->device, env->uav_texture, NULL, NULL, handle);
        break;
    case VIEW_UAV_NULL_TEXTURE:
        memset(&uav, 0, sizeof(uav));
        uav.Format = DXGI_FORMAT_R32_UINT;
        uav.ViewDimension = D3D12_UAV_DIMENSION_TEXTURE2D;
        ID3D12Device_CreateUnorderedAccessView(env->device, NULL, NULL, &uav, handle);
        break;
    case VIEW_UAV_NULL_STRUCTURED:
        uav = buffer_uav(DXGI_FORMAT_UNKNOWN, INPUT_WORDS, 4, false);
        ID3D12Device_CreateUnorderedAccessView(env->device, NULL, NULL, &uav, handle);
        break;
    case VIEW_EMPTY:
    case VIEW_COUNT:
        break;
    }
}

/* Every kind of CBV_SRV_UAV view, copied into a shader-visible heap and into another CPU heap
 * with CopyDescriptorsSimple and with CopyDescriptors of scattered and empty ranges, equals the
 * view created in place; still after the source is rewritten and released; and shaders read the
 * copies of the released heap. */
static void test_views(struct env *env)
{
    ID3D12DescriptorHeap *staging = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, VIEW_COUNT, false);
    ID3D12DescriptorHeap *visible = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4 * VIEW_COUNT + 2, true);
    ID3D12DescriptorHeap *expected = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4 * VIEW_COUNT + 2, true);
    ID3D12DescriptorHeap *cpu = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, VIEW_COUNT, false);
    ID3D12DescriptorHeap *cpu_expected = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, VIEW_COUNT, false);
    D3D12_CPU_DESCRIPTOR_HANDLE dst[VIEW_COUNT + 2], src[VIEW_COUNT + 2];
    UINT dst_sizes[VIEW_COUNT + 2], src_sizes[VIEW_COUNT + 2];
    const UINT gathered = 2 * VIEW_COUNT, table = 3 * VIEW_COUNT, single = 3 * VIEW_COUNT + 2;
    LOG_MARK();

    for (UINT v = 0; v < VIEW_COUNT; v++) {
        create_view(env, staging, v, v);
        create_view(env, expected, v, v);                          /* CopyDescriptorsSimple's destinations */
        create_view(env, expected, VIEW_COUNT + v, VIEW_COUNT - 1 - v); /* reversed, one source range of 1 each */
        create_view(env, expected, gathered + v, v);               /* CPU heap to CPU heap, then to this heap */
        create_view(env, expected, single + v, v);                 /* one CopyDescriptorsSimple each, last view first */
        create_view(env, cpu_expected, v, v);
    }
    create_view(env, expected, table, VIEW_SRV_RAW_UNALIGNED);
    create_view(env, expected, table + 1, VIEW_UAV_COUNTER);
    CHECK_NO_LOG();

    ID3D12Device_CopyDescriptorsSimple(env->device, VIEW_COUNT, cpu_at(env->device, visible, 0), cpu_at(env->device, staging, 0),
            D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    /* Descriptor by descriptor (the short way of one descriptor), last view first. */
    for (UINT v = VIEW_COUNT; v-- > 0;)
        ID3D12Device_CopyDescriptorsSimple(env->device, 1, cpu_at(env->device, visible, single + v), cpu_at(env->device, staging, v),
                D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    /* One destination range, a source range of one descriptor each, last view first. */
    dst[0] = cpu_at(env->device, visible, VIEW_COUNT), dst_sizes[0] = VIEW_COUNT;
    for (UINT v = 0; v < VIEW_COUNT; v++)
        src[v] = cpu_at(env->device, staging, VIEW_COUNT - 1 - v);
    ID3D12Device_CopyDescriptors(env->device, 1, dst, dst_sizes, VIEW_COUNT, src, NULL, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    /* CPU heap to CPU heap in ranges of 4, 0, 7 and 4 from ranges of 5, 0, 0 and 10. */
    dst[0] = cpu_at(env->device, cpu, 0), dst_sizes[0] = 4;
    dst[1] = cpu_at(env->device, cpu, 4), dst_sizes[1] = 0;
    dst[2] = cpu_at(env->device, cpu, 4), dst_sizes[2] = 7;
    dst[3] = cpu_at(env->device, cpu, 11), dst_sizes[3] = 4;
    src[0] = cpu_at(env->device, staging, 0), src_sizes[0] = 5;
    src[1] = cpu_at(env->device, staging, 5), src_sizes[1] = 0;
    src[2] = cpu_at(env->device, staging, 2), src_sizes[2] = 0;
    src[3] = cpu_at(env->device, staging, 5), src_sizes[3] = 10;
    ID3D12Device_CopyDescriptors(env->device, 4, dst, dst_sizes, 4, src, src_sizes, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    ID3D12Device_CopyDescriptorsSimple(env->device, VIEW_COUNT, cpu_at(env->device, visible, gathered), cpu_at(env->device, cpu, 0),
            D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    /* A table for the shader below: the unaligned raw SRV and the counter UAV, gathered. */
    dst[0] = cpu_at(env->device, visible, table), dst_sizes[0] = 2;
    src[0] = cpu_at(env->device, staging, VIEW_SRV_RAW_UNALIGNED);
    src[1] = cpu_at(env->device, staging, VIEW_UAV_COUNTER);
    ID3D12Device_CopyDescriptors(env->device, 1, dst, dst_sizes, 2, src, NULL, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    CHECK_NO_LOG();

    for (int pass = 0; pass < 2; pass++) {
        for (UINT v = 0; v < VIEW_COUNT; v++) {
            char what[96];
            snprintf(what, sizeof(what), "%s (%s)", view_names[v], pass ? "source rewritten and released" : "copied");
            CHECK_SAME(visible, v, expected, v, what);
            CHECK_SAME(visible, VIEW_COUNT + v, expected, VIEW_COUNT + v, what);
            CHECK_SAME(cpu, v, cpu_expected, v, what);
            CHECK_SAME(visible, gathered + v, expected, gathered + v, what);
            CHECK_SAME(visible, single + v, expected, single + v, what);
        }
        CHECK_SAME(visible, table, expected, table, "the table's raw SRV");
        CHECK_SAME(visible, table + 1, expected, table + 1, "the table's counter UAV");
        if (pass)
            break;
        /* Copies are values: the source is rewritten, then released (its memory may be reused). */
        for (UINT v = 0; v < VIEW_COUNT; v++)
            create_view(env, staging, v, VIEW_CBV_NULL);
        ID3D12DescriptorHeap_Release(staging);
        ID3D12DescriptorHeap_Release(cpu);
        cpu = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, VIEW_COUNT, false);
        ID3D12Device_CopyDescriptorsSimple(env->device, VIEW_COUNT, cpu_at(env->device, cpu, 0), cpu_at(env->device, visible, gathered),
                D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
        CHECK_NO_LOG(); /* (a shader-visible source: a debug-layer warning, test_overlaps counts it) */
    }

    /* Shaders read the copies of the released heap: the raw SRV's offset (side table) and the
     * UAV's counter (its address in the side table) went with them. */
    {
        static const char source[] =
            "ByteAddressBuffer input : register(t0);\n"
            "RWStructuredBuffer<uint> output : register(u0);\n"
            "[numthreads(4, 1, 1)]\n"
            "void main(uint3 id : SV_DispatchThreadID)\n"
            "{\n"
            "    uint slot = output.IncrementCounter();\n"
            "    output[slot] = input.Load(id.x * 4);\n"
            "}\n";
        D3D12_DESCRIPTOR_RANGE1 ranges[2];
        D3D12_ROOT_PARAMETER1 parameter;
        uint32_t out[INPUT_WORDS], counter[1024 + 1];
        bool seen[4] = {false};

        memset(ranges, 0, sizeof(ranges));
        ranges[0].RangeType = D3D12_DESCRIPTOR_RANGE_TYPE_SRV;
        ranges[0].NumDescriptors = 1;
        ranges[1].RangeType = D3D12_DESCRIPTOR_RANGE_TYPE_UAV;
        ranges[1].NumDescriptors = 1;
        ranges[1].OffsetInDescriptorsFromTableStart = 1;
        memset(&parameter, 0, sizeof(parameter));
        parameter.ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
        parameter.DescriptorTable.NumDescriptorRanges = 2;
        parameter.DescriptorTable.pDescriptorRanges = ranges;
        ID3D12RootSignature *signature = harness_root_signature(env->device, &parameter, 1, D3D12_ROOT_SIGNATURE_FLAG_NONE);
        ID3DBlob *code = harness_compile(source, 0);
        ID3D12PipelineState *state = code ? harness_compute_pipeline(env->device, signature, code) : NULL;
        struct harness_list list = harness_create_list(env->device, D3D12_COMMAND_LIST_TYPE_DIRECT);

        if (code)
            ID3D10Blob_Release(code);
        ID3D12GraphicsCommandList2_SetDescriptorHeaps(list.list, 1, &visible);
        ID3D12GraphicsCommandList2_SetComputeRootSignature(list.list, signature);
        ID3D12GraphicsCommandList2_SetPipelineState(list.list, state);
        ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list.list, 0, gpu_at(env->device, visible, table));
        ID3D12GraphicsCommandList2_Dispatch(list.list, 1, 1, 1);
        harness_execute_and_wait(env->device, env->queue, &list);
        harness_read_back(env->device, env->queue, env->uav_buffer, out, sizeof(out));
        harness_read_back(env->device, env->queue, env->counter, counter, sizeof(counter));
        CHECK_MSG(counter[1024] == 4, "the copied UAV's counter reads %u after 4 increments", counter[1024]);
        for (UINT i = 0; i < 4; i++) {
            if (out[i] >= 1003 && out[i] < 1007)
                seen[out[i] - 1003] = true;
        }
        CHECK_MSG(seen[0] && seen[1] && seen[2] && seen[3], "the copied raw SRV at element 3 gave %u %u %u %u (expected 1003-1006 in any order)",
                out[0], out[1], out[2], out[3]);
        CHECK_NO_LOG();
        harness_release_list(&list);
        if (state)
            ID3D12PipelineState_Release(state);
        if (signature)
            ID3D12RootSignature_Release(signature);
    }
    ID3D12DescriptorHeap_Release(cpu);
    ID3D12DescriptorHeap_Release(cpu_expected);
    ID3D12DescriptorHeap_Release(expected);
    ID3D12DescriptorHeap_Release(visible);
}

/* Writes descriptor `which` (0 or 1) of a SAMPLER, RTV or DSV heap at index. */
static void create_other(struct env *env, D3D12_DESCRIPTOR_HEAP_TYPE type, ID3D12DescriptorHeap *heap, UINT index, UINT which)
{
    D3D12_CPU_DESCRIPTOR_HANDLE handle = cpu_at(env->device, heap, index);
    D3D12_DEPTH_STENCIL_VIEW_DESC dsv;
    D3D12_SAMPLER_DESC sampler;

    if (type == D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER) {
        memset(&sampler, 0, sizeof(sampler));
        sampler.Filter = which ? D3D12_FILTER_MIN_MAG_MIP_LINEAR : D3D12_FILTER_MIN_MAG_MIP_POINT;
        sampler.AddressU = sampler.AddressV = sampler.AddressW = which ? D3D12_TEXTURE_ADDRESS_MODE_WRAP : D3D12_TEXTURE_ADDRESS_MODE_CLAMP;
        sampler.MaxLOD = D3D12_FLOAT32_MAX;
        ID3D12Device_CreateSampler(env->device, &sampler, handle);
    } else if (type == D3D12_DESCRIPTOR_HEAP_TYPE_RTV) {
        ID3D12Device_CreateRenderTargetView(env->device, env->colours[which], NULL, handle);
    } else {
        memset(&dsv, 0, sizeof(dsv));
        dsv.Format = DXGI_FORMAT_D32_FLOAT;
        dsv.ViewDimension = D3D12_DSV_DIMENSION_TEXTURE2D;
        dsv.Flags = which ? D3D12_DSV_FLAG_READ_ONLY_DEPTH : D3D12_DSV_FLAG_NONE;
        ID3D12Device_CreateDepthStencilView(env->device, env->depth, &dsv, handle);
    }
}

/* Samplers, RTVs and DSVs copy the same way (RTV and DSV heaps: the record is the whole
 * descriptor), never-written descriptors included. */
static void test_other_heap_types(struct env *env)
{
    static const D3D12_DESCRIPTOR_HEAP_TYPE types[3] = {D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, D3D12_DESCRIPTOR_HEAP_TYPE_RTV,
            D3D12_DESCRIPTOR_HEAP_TYPE_DSV};
    LOG_MARK();

    for (UINT t = 0; t < 3; t++) {
        bool visible = types[t] == D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER;
        ID3D12DescriptorHeap *source = create_heap(env->device, types[t], 3, false);
        ID3D12DescriptorHeap *copies = create_heap(env->device, types[t], 7, visible);
        ID3D12DescriptorHeap *expected = create_heap(env->device, types[t], 7, visible);
        D3D12_CPU_DESCRIPTOR_HANDLE dst[2], src[1];
        UINT dst_sizes[2] = {1, 2}, src_sizes[1] = {3};

        /* source: 0 and 1 written, 2 never; copied to 0..2 and 3..5 */
        for (UINT i = 0; i < 2; i++) {
            create_other(env, types[t], source, i, i);
            create_other(env, types[t], expected, i, i);
            create_other(env, types[t], expected, 3 + i, i);
        }
        create_other(env, types[t], expected, 6, 1);
        ID3D12Device_CopyDescriptorsSimple(env->device, 3, cpu_at(env->device, copies, 0), cpu_at(env->device, source, 0), types[t]);
        dst[0] = cpu_at(env->device, copies, 3), dst[1] = cpu_at(env->device, copies, 4);
        src[0] = cpu_at(env->device, source, 0);
        ID3D12Device_CopyDescriptors(env->device, 2, dst, dst_sizes, 1, src, src_sizes, types[t]);
        ID3D12Device_CopyDescriptorsSimple(env->device, 1, cpu_at(env->device, copies, 6), cpu_at(env->device, source, 1), types[t]);
        CHECK_NO_LOG();
        ID3D12DescriptorHeap_Release(source);
        for (UINT i = 0; i < 7; i++) {
            char what[64];
            snprintf(what, sizeof(what), "heap type %d, descriptor %u", (int)types[t], i);
            CHECK_SAME(copies, i, expected, i, what);
        }
        ID3D12DescriptorHeap_Release(copies);
        ID3D12DescriptorHeap_Release(expected);
    }
}

/* A side-table entry is written into the GPU memory only where it differs from the one there:
 * one shader-visible slot takes views whose entries differ (a counter, a misalignment) and
 * views whose entries are alike, by single copies, range copies and creation in place, and
 * holds what creating each view there writes after every step. */
static void test_side_entry_changes(struct env *env)
{
    /* none is VIEW_EMPTY at a step i with i % 3 == 1, whose range copy takes the view after it */
    static const enum view steps[] = {VIEW_UAV_COUNTER, VIEW_SRV_TEXTURE, VIEW_SRV_TYPED, VIEW_SRV_RAW_UNALIGNED, VIEW_SRV_RAW_UNALIGNED,
            VIEW_UAV_COUNTER, VIEW_UAV_COUNTER, VIEW_CBV, VIEW_SRV_RAW_UNALIGNED, VIEW_EMPTY, VIEW_UAV_COUNTER, VIEW_UAV_COUNTER};
    ID3D12DescriptorHeap *staging = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, VIEW_COUNT, false);
    ID3D12DescriptorHeap *visible = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 2, true);
    LOG_MARK();

    for (UINT v = 0; v < VIEW_COUNT; v++)
        create_view(env, staging, v, v);
    for (UINT i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
        /* a fresh heap each step: its never-written slot is what a copied VIEW_EMPTY is */
        ID3D12DescriptorHeap *expected = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 1, true);
        D3D12_CPU_DESCRIPTOR_HANDLE dst = cpu_at(env->device, visible, 0), src = cpu_at(env->device, staging, steps[i]);
        const char *how = i % 3 == 0 ? "CopyDescriptorsSimple" : i % 3 == 1 ? "CopyDescriptors of two" : "creation in place";
        char what[96];

        if (i % 3 == 0) {
            ID3D12Device_CopyDescriptorsSimple(env->device, 1, dst, src, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
        } else if (i % 3 == 1) {
            UINT two = 2;
            ID3D12Device_CopyDescriptors(env->device, 1, &dst, &two, 1, &src, &two, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
        } else {
            create_view(env, visible, 0, steps[i]);
        }
        create_view(env, expected, 0, steps[i]);
        snprintf(what, sizeof(what), "step %u: %s by %s", i, view_names[steps[i]], how);
        CHECK_SAME(visible, 0, expected, 0, what);
        ID3D12DescriptorHeap_Release(expected);
    }
    CHECK_NO_LOG();
    ID3D12DescriptorHeap_Release(staging);
    ID3D12DescriptorHeap_Release(visible);
}

/* Overlapping ranges, which D3D12 leaves undefined, copy as if through a temporary (per run); the
 * debug layer says so, and so it does for a source in a shader-visible heap. */
static void test_overlaps(struct env *env)
{
    ID3D12DescriptorHeap *heap = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 5, false);
    ID3D12DescriptorHeap *expected = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 10, false);
    ID3D12DescriptorHeap *visible = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 2, true);
    static const enum view views[5] = {VIEW_CBV, VIEW_SRV_TYPED, VIEW_UAV_COUNTER, VIEW_SRV_TEXTURE, VIEW_UAV_RAW};
    D3D12_CPU_DESCRIPTOR_HANDLE dst[1], src[1];
    UINT sizes[1] = {2};
    size_t warnings;
    LOG_MARK();

    for (UINT i = 0; i < 5; i++)
        create_view(env, heap, i, views[i]);
    /* 0..3 onto 1..4: 0 0 1 2 3 (expected 0..4), then 2..3 onto 1..2: 0 1 2 2 3 (expected 5..9) */
    warnings = harness_warning_count();
    ID3D12Device_CopyDescriptorsSimple(env->device, 4, cpu_at(env->device, heap, 1), cpu_at(env->device, heap, 0),
            D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    CHECK_DEBUG_WARNINGS(warnings, 1, "overlaps");
    for (UINT i = 0; i < 5; i++) {
        create_view(env, expected, i, views[i ? i - 1 : 0]);
        create_view(env, expected, 5 + i, views[i == 0 ? 0 : i <= 2 ? i : i - 1]);
    }
    for (UINT i = 0; i < 5; i++)
        CHECK_SAME(heap, i, expected, i, "a copy onto the next descriptors");
    /* CopyDescriptors, 2..3 onto 1..2 */
    dst[0] = cpu_at(env->device, heap, 1);
    src[0] = cpu_at(env->device, heap, 2);
    warnings = harness_warning_count();
    ID3D12Device_CopyDescriptors(env->device, 1, dst, sizes, 1, src, sizes, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    CHECK_DEBUG_WARNINGS(warnings, 1, "overlaps");
    for (UINT i = 0; i < 5; i++)
        CHECK_SAME(heap, i, expected, 5 + i, "a copy onto the previous descriptors");
    /* A descriptor onto itself changes nothing. */
    warnings = harness_warning_count();
    ID3D12Device_CopyDescriptorsSimple(env->device, 1, cpu_at(env->device, heap, 3), cpu_at(env->device, heap, 3),
            D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    CHECK_DEBUG_WARNINGS(warnings, 1, "overlaps");
    CHECK_SAME(heap, 3, expected, 8, "a copy onto itself");
    /* A shader-visible source works, with a debug-layer warning. */
    ID3D12Device_CopyDescriptorsSimple(env->device, 2, cpu_at(env->device, visible, 0), cpu_at(env->device, heap, 3),
            D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    warnings = harness_warning_count();
    ID3D12Device_CopyDescriptorsSimple(env->device, 2, cpu_at(env->device, heap, 0), cpu_at(env->device, visible, 0),
            D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    CHECK_DEBUG_WARNINGS(warnings, 1, "shader-visible");
    CHECK_SAME(heap, 0, expected, 8, "a copy from a shader-visible heap");
    CHECK_SAME(heap, 1, expected, 9, "a copy from a shader-visible heap");
    /* No descriptors: nothing copied, nothing said. */
    ID3D12Device_CopyDescriptorsSimple(env->device, 0, cpu_at(env->device, heap, 4), cpu_at(env->device, heap, 0),
            D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    CHECK_SAME(heap, 4, expected, 9, "a copy of no descriptors");
    CHECK_NO_LOG();
    ID3D12DescriptorHeap_Release(visible);
    ID3D12DescriptorHeap_Release(expected);
    ID3D12DescriptorHeap_Release(heap);
}

/* A CopyDescriptorsSimple of CBV_SRV_UAV descriptors that is refused with one line naming
 * argument and reason (a macro: the check reports its own line). */
#define REFUSED_COPY(count, dst, src, argument, reason) do { \
        ID3D12Device_CopyDescriptorsSimple(env->device, count, dst, src, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV); \
        CHECK_LOG("CopyDescriptorsSimple", argument, reason); \
        RELOG_MARK(); \
    } while (0)

/* The registry: handles past a heap's last descriptor (inside its last unit of records), off a
 * descriptor boundary, of another device or of a released heap are refused with the reason; the
 * last descriptors of a large heap resolve. The window the records are placed in is reused, and a
 * heap larger than it is refused with E_OUTOFMEMORY. */
static void test_registry(struct env *env)
{
    ID3D12DescriptorHeap *small = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 3, false);
    ID3D12DescriptorHeap *large = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 200000, false);
    ID3D12DescriptorHeap *visible = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 2, true);
    ID3D12DescriptorHeap *expected = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 2, true);
    ID3D12Device *other_device = harness_create_device();
    ID3D12DescriptorHeap *other = create_heap(other_device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 2, false);
    D3D12_CPU_DESCRIPTOR_HANDLE handle;
    LOG_MARK();

    create_view(env, large, 199998, VIEW_UAV_COUNTER);
    create_view(env, large, 199999, VIEW_SRV_TEXTURE);
    create_view(env, expected, 0, VIEW_UAV_COUNTER);
    create_view(env, expected, 1, VIEW_SRV_TEXTURE);
    ID3D12Device_CopyDescriptorsSimple(env->device, 2, cpu_at(env->device, visible, 0), cpu_at(env->device, large, 199998),
            D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    CHECK_NO_LOG();
    CHECK_SAME(visible, 0, expected, 0, "the large heap's second last descriptor");
    CHECK_SAME(visible, 1, expected, 1, "the large heap's last descriptor");

    REFUSED_COPY(1, cpu_at(env->device, visible, 0), cpu_at(env->device, small, 3), "SrcDescriptorRangeStart",
            "not inside a live descriptor heap");
    REFUSED_COPY(2, cpu_at(env->device, visible, 0), cpu_at(env->device, small, 2), "SrcDescriptorRangeStart", "too close to the end");
    handle = cpu_at(env->device, small, 1);
    handle.ptr += 8;
    REFUSED_COPY(1, cpu_at(env->device, visible, 0), handle, "SrcDescriptorRangeStart", "descriptor boundary");
    REFUSED_COPY(1, cpu_at(other_device, other, 0), cpu_at(env->device, small, 0), "DestDescriptorRangeStart",
            "not inside a live descriptor heap of this device");
    handle.ptr = 0;
    REFUSED_COPY(1, cpu_at(env->device, visible, 0), handle, "SrcDescriptorRangeStart", "not inside a live descriptor heap");
    handle.ptr = ~(SIZE_T)0 - 64;
    REFUSED_COPY(1, cpu_at(env->device, visible, 0), handle, "SrcDescriptorRangeStart", "not inside a live descriptor heap");
    /* One descriptor (the short way): each handle's checks, the destination's too. */
    handle = cpu_at(env->device, small, 0);
    handle.ptr -= 80; /* one descriptor before the first */
    REFUSED_COPY(1, cpu_at(env->device, visible, 0), handle, "SrcDescriptorRangeStart", "not inside a live descriptor heap");
    handle = cpu_at(env->device, small, 1);
    handle.ptr |= (SIZE_T)1 << 52; /* far past the window the records lie in */
    REFUSED_COPY(1, cpu_at(env->device, visible, 0), handle, "SrcDescriptorRangeStart", "not inside a live descriptor heap");
    /* A whole window (2^36 bytes, a multiple of every window size) away from a live descriptor:
     * the same unit of the window's table, which is indexed through a mask. The heap found
     * there does not hold the handle. */
    for (int sign = -1; sign <= 1; sign += 2) {
        D3D12_CPU_DESCRIPTOR_HANDLE ranges[1], sources[1] = {cpu_at(env->device, small, 0)};
        UINT one[1] = {1};
        handle = cpu_at(env->device, visible, 0);
        handle.ptr += (SIZE_T)sign * ((SIZE_T)1 << 36);
        REFUSED_COPY(1, handle, cpu_at(env->device, small, 0), "DestDescriptorRangeStart", "not inside a live descriptor heap");
        REFUSED_COPY(2, handle, cpu_at(env->device, small, 0), "DestDescriptorRangeStart", "not inside a live descriptor heap");
        ranges[0] = handle;
        ID3D12Device_CopyDescriptors(env->device, 1, ranges, one, 1, sources, one, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
        CHECK_LOG("CopyDescriptors", "pDestDescriptorRangeStarts", "not inside a live descriptor heap");
        RELOG_MARK();
        ID3D12Device_CreateShaderResourceView(env->device, NULL, NULL, handle);
        CHECK_LOG("CreateShaderResourceView", "not inside a live descriptor heap");
        RELOG_MARK();
    }
    handle = cpu_at(env->device, visible, 1);
    handle.ptr -= 16;
    REFUSED_COPY(1, handle, cpu_at(env->device, small, 0), "DestDescriptorRangeStart", "descriptor boundary");
    REFUSED_COPY(1, cpu_at(env->device, visible, 2), cpu_at(env->device, small, 0), "DestDescriptorRangeStart",
            "not inside a live descriptor heap");
    {
        ID3D12DescriptorHeap *released = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 2, false);
        handle = cpu_at(env->device, released, 0);
        ID3D12DescriptorHeap_Release(released);
        REFUSED_COPY(1, cpu_at(env->device, visible, 0), handle, "SrcDescriptorRangeStart", "not inside a live descriptor heap");
    }
    CHECK_SAME(visible, 0, expected, 0, "a descriptor refused copies would have overwritten");
    CHECK_SAME(visible, 1, expected, 1, "a descriptor a refused copy would have overwritten");
    /* One bad range in CopyDescriptors: nothing is copied. */
    {
        D3D12_CPU_DESCRIPTOR_HANDLE dst[1] = {cpu_at(env->device, visible, 0)}, src[2] = {cpu_at(env->device, small, 0), cpu_at(env->device, small, 3)};
        UINT dst_sizes[1] = {2};
        ID3D12Device_CopyDescriptors(env->device, 1, dst, dst_sizes, 2, src, NULL, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
        CHECK_LOG("CopyDescriptors", "pSrcDescriptorRangeStarts", "not inside a live descriptor heap");
        CHECK_SAME(visible, 0, expected, 0, "a descriptor a refused copy would have overwritten");
    }

    /* Heaps created and released one after the other, 80 GB of records in all (more than the
     * window's 64 GiB of address space): each is placed where released ones were, and resolves. */
    {
        ID3D12DescriptorHeap *target = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, false), *big;
        D3D12_DESCRIPTOR_HEAP_DESC huge = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, UINT32_MAX, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
        unsigned placed = 0;
        RELOG_MARK();
        for (unsigned i = 0; i < 1000; i++) {
            big = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1000000, false);
            if (!big)
                break;
            ID3D12Device_CopyDescriptorsSimple(env->device, 1, cpu_at(env->device, target, 0), cpu_at(env->device, big, 999999),
                    D3D12_DESCRIPTOR_HEAP_TYPE_RTV);
            ID3D12DescriptorHeap_Release(big);
            placed++;
        }
        CHECK_MSG(placed == 1000, "%u of 1000 heaps of a million RTVs were created", placed);
        CHECK_NO_LOG();
        /* Three neighbours released middle first, then the first, then the last: their units join
         * one another and the free units after them into one run, where a heap larger than the
         * three then goes. */
        {
            ID3D12DescriptorHeap *first = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1000000, false);
            ID3D12DescriptorHeap *middle = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1000000, false);
            ID3D12DescriptorHeap *last = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1000000, false);
            SIZE_T start = cpu_at(env->device, first, 0).ptr;
            ID3D12DescriptorHeap_Release(middle);
            ID3D12DescriptorHeap_Release(first);
            ID3D12DescriptorHeap_Release(last);
            big = create_heap(env->device, D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 3100000, false);
            CHECK_MSG(cpu_at(env->device, big, 0).ptr == start, "a heap larger than the three released ones starts at 0x%zx, not at the first's 0x%zx",
                    (size_t)cpu_at(env->device, big, 0).ptr, (size_t)start);
            ID3D12Device_CopyDescriptorsSimple(env->device, 1, cpu_at(env->device, target, 0), cpu_at(env->device, big, 3099999),
                    D3D12_DESCRIPTOR_HEAP_TYPE_RTV);
            CHECK_NO_LOG();
            ID3D12DescriptorHeap_Release(big);
        }
        /* 343 GB of records: more than the window holds */
        big = (ID3D12DescriptorHeap *)(uintptr_t)1;
        CHECK_HR(ID3D12Device_CreateDescriptorHeap(env->device, &huge, &IID_ID3D12DescriptorHeap, (void **)&big), E_OUTOFMEMORY);
        CHECK_MSG(!big, "a refused heap's pointer is %p (NULL expected)", (void *)big);
        CHECK_LOG("CreateDescriptorHeap", "cannot allocate", "4294967295 descriptors");
        RELOG_MARK();
        ID3D12DescriptorHeap_Release(target);
    }

    ID3D12DescriptorHeap_Release(other);
    harness_release_device(other_device);
    ID3D12DescriptorHeap_Release(expected);
    ID3D12DescriptorHeap_Release(visible);
    ID3D12DescriptorHeap_Release(large);
    ID3D12DescriptorHeap_Release(small);
}

int main(void)
{
    struct env env;

    harness_init();
    memset(&env, 0, sizeof(env));
    env.device = harness_create_device();
    env.queue = harness_create_queue(env.device, D3D12_COMMAND_LIST_TYPE_DIRECT);
    create_resources(&env);
    test_views(&env);
    test_other_heap_types(&env);
    test_side_entry_changes(&env);
    test_overlaps(&env);
    test_registry(&env);
    ID3D12Resource_Release(env.buffer);
    ID3D12Resource_Release(env.uav_buffer);
    ID3D12Resource_Release(env.counter);
    ID3D12Resource_Release(env.texture);
    ID3D12Resource_Release(env.uav_texture);
    ID3D12Resource_Release(env.colours[0]);
    ID3D12Resource_Release(env.colours[1]);
    ID3D12Resource_Release(env.depth);
    ID3D12CommandQueue_Release(env.queue);
    harness_release_device(env.device);
    return harness_finish();
}
