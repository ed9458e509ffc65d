/* shader_runner: creation of the buffers, textures, views and samplers a test declares. */
#include "shader_runner.h"

bool create_buffers(struct runner *r, struct test *t)
{
    for (unsigned i = 0; i < t->buffer_count; i++) {
        struct buffer_def *b = &t->buffers[i];
        void *mapped = NULL;
        if (b->upload) {
            b->resource = harness_create_buffer(r->device, D3D12_HEAP_TYPE_UPLOAD, b->size, D3D12_RESOURCE_STATE_GENERIC_READ);
        } else {
            D3D12_HEAP_PROPERTIES heap = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
            D3D12_RESOURCE_DESC desc = harness_buffer_desc(b->size);
            desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
            CHECK_HR(ID3D12Device_CreateCommittedResource(r->device, &heap, D3D12_HEAP_FLAG_NONE, &desc, D3D12_RESOURCE_STATE_COPY_DEST,
                    NULL, &IID_ID3D12Resource, (void **)&b->resource), S_OK);
            b->staging = harness_create_buffer(r->device, D3D12_HEAP_TYPE_UPLOAD, b->size, D3D12_RESOURCE_STATE_GENERIC_READ);
            if (b->expected)
                b->readback = harness_create_buffer(r->device, D3D12_HEAP_TYPE_READBACK, b->size, D3D12_RESOURCE_STATE_COPY_DEST);
        }
        if (!b->resource || (!b->upload && !b->staging) || (b->expected && !b->readback))
            return false;
        ID3D12Resource *target = b->upload ? b->resource : b->staging;
        CHECK_HR(ID3D12Resource_Map(target, 0, NULL, &mapped), S_OK);
        if (mapped)
            memcpy(mapped, b->data, b->size);
        ID3D12Resource_Unmap(target, 0, NULL);
    }
    return true;
}

/* Each texture in a DEFAULT heap (COPY_DEST), its subresources' packed bytes in an UPLOAD buffer laid
 * out by GetCopyableFootprints, and a READBACK buffer of the same layout for checked ones. */
bool create_textures(struct runner *r, struct test *t)
{
    for (unsigned i = 0; i < t->texture_count; i++) {
        struct texture_def *tex = &t->textures[i];
        D3D12_HEAP_PROPERTIES heap = harness_heap_properties(D3D12_HEAP_TYPE_DEFAULT);
        D3D12_RESOURCE_DESC desc;
        UINT64 total = 0, *row_sizes;
        uint8_t *mapped = NULL;
        HRESULT hr;

        memset(&desc, 0, sizeof(desc));
        desc.Dimension = tex->dimension == 1 ? D3D12_RESOURCE_DIMENSION_TEXTURE1D
                : tex->dimension == 2 ? D3D12_RESOURCE_DIMENSION_TEXTURE2D : D3D12_RESOURCE_DIMENSION_TEXTURE3D;
        desc.Width = tex->width;
        desc.Height = tex->height;
        desc.DepthOrArraySize = (UINT16)(tex->dimension == 3 ? tex->depth : tex->layers);
        desc.MipLevels = (UINT16)tex->mips;
        desc.Format = tex->format->format;
        desc.SampleDesc.Count = tex->samples > 1 ? tex->samples : 1;
        desc.Layout = D3D12_TEXTURE_LAYOUT_UNKNOWN;
        desc.Flags = (tex->uav ? D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS : 0)
                | (tex->depth_stencil || tex->depth_target ? D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL : 0)
                | (tex->render_target ? D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET : 0);
        /* Targets start cleared rather than uploaded. */
        hr = ID3D12Device_CreateCommittedResource(r->device, &heap, D3D12_HEAP_FLAG_NONE, &desc,
                is_target(tex) ? texture_state(tex) : D3D12_RESOURCE_STATE_COPY_DEST, NULL, &IID_ID3D12Resource, (void **)&tex->resource);
        if (FAILED(hr)) {
            FAIL_AT(tex->line, "CreateCommittedResource of texture '%s' returned 0x%08x", tex->name, (unsigned)hr);
            return false;
        }
        tex->layouts = xcalloc(tex->subresource_count, sizeof(*tex->layouts));
        tex->rows = xcalloc(tex->subresource_count, sizeof(*tex->rows));
        row_sizes = xcalloc(tex->subresource_count, sizeof(*row_sizes));
        ID3D12Device_GetCopyableFootprints(r->device, &desc, 0, tex->subresource_count, 0, tex->layouts, tex->rows, row_sizes, &total);
        if (tex->expected)
            tex->readback = harness_create_buffer(r->device, D3D12_HEAP_TYPE_READBACK, total, D3D12_RESOURCE_STATE_COPY_DEST);
        if (is_target(tex)) {
            free(row_sizes);
            if (tex->expected && !tex->readback)
                return false;
            continue;
        }
        tex->upload = harness_create_buffer(r->device, D3D12_HEAP_TYPE_UPLOAD, total, D3D12_RESOURCE_STATE_GENERIC_READ);
        if (!tex->upload || (tex->expected && !tex->readback)) {
            free(row_sizes);
            return false;
        }
        CHECK_HR(ID3D12Resource_Map(tex->upload, 0, NULL, (void **)&mapped), S_OK);
        for (unsigned s = 0; s < tex->subresource_count && mapped; s++) {
            const D3D12_PLACED_SUBRESOURCE_FOOTPRINT *layout = &tex->layouts[s];
            struct texel_space space = texture_space(tex, s, NULL);
            size_t row_bytes = (size_t)space.width * space.texel_bytes;
            if (row_bytes != row_sizes[s] || tex->rows[s] != space.height || layout->Footprint.Depth != space.depth) {
                FAIL_AT(tex->line, "subresource %u of texture '%s': the footprint has %u rows of %llu bytes and %u slices, the runner "
                        "packs %u of %zu and %u", s, tex->name, tex->rows[s], (unsigned long long)row_sizes[s], layout->Footprint.Depth,
                        space.height, row_bytes, space.depth);
                break;
            }
            for (UINT z = 0; z < space.depth; z++)
                for (UINT y = 0; y < space.height; y++)
                    memcpy(mapped + layout->Offset + ((UINT64)z * tex->rows[s] + y) * layout->Footprint.RowPitch,
                            tex->subresources[s].data + ((size_t)z * space.height + y) * row_bytes, row_bytes);
        }
        ID3D12Resource_Unmap(tex->upload, 0, NULL);
        free(row_sizes);
    }
    return true;
}

bool is_target(const struct texture_def *tex)
{
    return tex->render_target || tex->depth_target;
}

D3D12_RESOURCE_STATES texture_state(const struct texture_def *tex)
{
    if (tex->render_target)
        return D3D12_RESOURCE_STATE_RENDER_TARGET;
    if (tex->depth_target)
        return D3D12_RESOURCE_STATE_DEPTH_WRITE;
    if (tex->uav)
        return D3D12_RESOURCE_STATE_UNORDERED_ACCESS;
    return D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE | (tex->pixel_use ? D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE : 0);
}

/* Copies between a texture and its footprints in buffer: to the texture (upload) or from it. */
void copy_texture(ID3D12GraphicsCommandList2 *list, const struct texture_def *tex, ID3D12Resource *buffer, bool upload)
{
    for (unsigned s = 0; s < tex->subresource_count; s++) {
        D3D12_TEXTURE_COPY_LOCATION texture_location, buffer_location;
        memset(&texture_location, 0, sizeof(texture_location));
        memset(&buffer_location, 0, sizeof(buffer_location));
        texture_location.pResource = tex->resource;
        texture_location.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
        texture_location.SubresourceIndex = s;
        buffer_location.pResource = buffer;
        buffer_location.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
        buffer_location.PlacedFootprint = tex->layouts[s];
        if (upload)
            ID3D12GraphicsCommandList2_CopyTextureRegion(list, &texture_location, 0, 0, 0, &buffer_location, NULL);
        else
            ID3D12GraphicsCommandList2_CopyTextureRegion(list, &buffer_location, 0, 0, 0, &texture_location, NULL);
    }
}

D3D12_RESOURCE_STATES use_state(const struct buffer_def *b)
{
    if (b->uav_use)
        return D3D12_RESOURCE_STATE_UNORDERED_ACCESS;
    if (b->read_use || b->vertex_use || b->index_use)
        return (b->read_use ? D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE | D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER : 0)
                | (b->read_use && b->pixel_use ? D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE : 0)
                | (b->vertex_use ? D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER : 0)
                | (b->index_use ? D3D12_RESOURCE_STATE_INDEX_BUFFER : 0);
    return D3D12_RESOURCE_STATE_COPY_SOURCE;
}

void transition(ID3D12GraphicsCommandList2 *list, ID3D12Resource *resource, D3D12_RESOURCE_STATES before, D3D12_RESOURCE_STATES after)
{
    D3D12_RESOURCE_BARRIER barrier;
    if (before == after)
        return;
    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    barrier.Transition.pResource = resource;
    barrier.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    barrier.Transition.StateBefore = before;
    barrier.Transition.StateAfter = after;
    ID3D12GraphicsCommandList2_ResourceBarrier(list, 1, &barrier);
}

void uav_barrier(ID3D12GraphicsCommandList2 *list)
{
    D3D12_RESOURCE_BARRIER barrier;
    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
    barrier.UAV.pResource = NULL;
    ID3D12GraphicsCommandList2_ResourceBarrier(list, 1, &barrier);
}

/* An SRV or UAV of a texture (or a null one) from the [views] line's options; what it leaves out
 * is the whole resource: all mips from the first, all layers from the first. */
static void create_texture_view(struct runner *r, struct test *t, const struct view_def *v, D3D12_CPU_DESCRIPTOR_HANDLE cpu)
{
    const struct texture_def *tex = v->texture >= 0 ? &t->textures[v->texture] : NULL;
    enum view_dimension dimension = v->dimension;
    UINT layers = tex ? tex->layers : 1;
    UINT layer_count = v->has_layers && v->layer_count != UINT32_MAX ? v->layer_count
            : layers > v->first_layer ? layers - v->first_layer : 1;
    DXGI_FORMAT format = v->format != DXGI_FORMAT_UNKNOWN ? v->format : tex->format->format;

    if (dimension == VDIM_DEFAULT) {
        if (tex->dimension == 1)
            dimension = tex->layers > 1 ? VDIM_1DARRAY : VDIM_1D;
        else if (tex->dimension == 3)
            dimension = VDIM_3D;
        else if (tex->cube && v->kind == VIEW_SRV)
            dimension = tex->layers > 6 ? VDIM_CUBEARRAY : VDIM_CUBE;
        else
            dimension = tex->layers > 1 ? VDIM_2DARRAY : VDIM_2D;
    }
    if (v->kind == VIEW_SRV) {
        D3D12_SHADER_RESOURCE_VIEW_DESC srv;
        memset(&srv, 0, sizeof(srv));
        srv.Format = format;
        srv.Shader4ComponentMapping = v->mapping;
        switch (dimension) {
        case VDIM_1D:
            srv.ViewDimension = D3D12_SRV_DIMENSION_TEXTURE1D;
            srv.Texture1D.MostDetailedMip = v->first_mip;
            srv.Texture1D.MipLevels = v->mip_count;
            srv.Texture1D.ResourceMinLODClamp = v->min_lod_clamp;
            break;
        case VDIM_1DARRAY:
            srv.ViewDimension = D3D12_SRV_DIMENSION_TEXTURE1DARRAY;
            srv.Texture1DArray.MostDetailedMip = v->first_mip;
            srv.Texture1DArray.MipLevels = v->mip_count;
            srv.Texture1DArray.FirstArraySlice = v->first_layer;
            srv.Texture1DArray.ArraySize = layer_count;
            srv.Texture1DArray.ResourceMinLODClamp = v->min_lod_clamp;
            break;
        case VDIM_2D:
            srv.ViewDimension = D3D12_SRV_DIMENSION_TEXTURE2D;
            srv.Texture2D.MostDetailedMip = v->first_mip;
            srv.Texture2D.MipLevels = v->mip_count;
            srv.Texture2D.PlaneSlice = v->plane;
            srv.Texture2D.ResourceMinLODClamp = v->min_lod_clamp;
            break;
        case VDIM_2DARRAY:
            srv.ViewDimension = D3D12_SRV_DIMENSION_TEXTURE2DARRAY;
            srv.Texture2DArray.MostDetailedMip = v->first_mip;
            srv.Texture2DArray.MipLevels = v->mip_count;
            srv.Texture2DArray.FirstArraySlice = v->first_layer;
            srv.Texture2DArray.ArraySize = layer_count;
            srv.Texture2DArray.PlaneSlice = v->plane;
            srv.Texture2DArray.ResourceMinLODClamp = v->min_lod_clamp;
            break;
        case VDIM_3D:
            srv.ViewDimension = D3D12_SRV_DIMENSION_TEXTURE3D;
            srv.Texture3D.MostDetailedMip = v->first_mip;
            srv.Texture3D.MipLevels = v->mip_count;
            srv.Texture3D.ResourceMinLODClamp = v->min_lod_clamp;
            break;
        case VDIM_CUBE:
            srv.ViewDimension = D3D12_SRV_DIMENSION_TEXTURECUBE;
            srv.TextureCube.MostDetailedMip = v->first_mip;
            srv.TextureCube.MipLevels = v->mip_count;
            srv.TextureCube.ResourceMinLODClamp = v->min_lod_clamp;
            break;
        default:
            srv.ViewDimension = D3D12_SRV_DIMENSION_TEXTURECUBEARRAY;
            srv.TextureCubeArray.MostDetailedMip = v->first_mip;
            srv.TextureCubeArray.MipLevels = v->mip_count;
            srv.TextureCubeArray.First2DArrayFace = v->first_layer;
            srv.TextureCubeArray.NumCubes = layer_count / 6;
            srv.TextureCubeArray.ResourceMinLODClamp = v->min_lod_clamp;
            break;
        }
        ID3D12Device_CreateShaderResourceView(r->device, tex ? tex->resource : NULL, &srv, cpu);
    } else {
        D3D12_UNORDERED_ACCESS_VIEW_DESC uav;
        memset(&uav, 0, sizeof(uav));
        uav.Format = format;
        switch (dimension) {
        case VDIM_1D:
            uav.ViewDimension = D3D12_UAV_DIMENSION_TEXTURE1D;
            uav.Texture1D.MipSlice = v->first_mip;
            break;
        case VDIM_1DARRAY:
            uav.ViewDimension = D3D12_UAV_DIMENSION_TEXTURE1DARRAY;
            uav.Texture1DArray.MipSlice = v->first_mip;
            uav.Texture1DArray.FirstArraySlice = v->first_layer;
            uav.Texture1DArray.ArraySize = layer_count;
            break;
        case VDIM_2D:
            uav.ViewDimension = D3D12_UAV_DIMENSION_TEXTURE2D;
            uav.Texture2D.MipSlice = v->first_mip;
            uav.Texture2D.PlaneSlice = v->plane;
            break;
        case VDIM_3D:
            uav.ViewDimension = D3D12_UAV_DIMENSION_TEXTURE3D;
            uav.Texture3D.MipSlice = v->first_mip;
            uav.Texture3D.FirstWSlice = 0;
            uav.Texture3D.WSize = UINT32_MAX;
            break;
        default:
            uav.ViewDimension = D3D12_UAV_DIMENSION_TEXTURE2DARRAY;
            uav.Texture2DArray.MipSlice = v->first_mip;
            uav.Texture2DArray.FirstArraySlice = v->first_layer;
            uav.Texture2DArray.ArraySize = layer_count;
            uav.Texture2DArray.PlaneSlice = v->plane;
            break;
        }
        ID3D12Device_CreateUnorderedAccessView(r->device, tex ? tex->resource : NULL, NULL, &uav, cpu);
    }
}

/* The shader-visible SAMPLER heap of [samplers]. */
ID3D12DescriptorHeap *create_samplers(struct runner *r, struct test *t)
{
    D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, t->sampler_heap_size ? t->sampler_heap_size : 1,
            D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    ID3D12DescriptorHeap *heap = NULL;
    UINT increment;

    CHECK_HR(ID3D12Device_CreateDescriptorHeap(r->device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&heap), S_OK);
    if (!heap)
        return NULL;
    increment = ID3D12Device_GetDescriptorHandleIncrementSize(r->device, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
    for (unsigned i = 0; i < t->sampler_view_count; i++) {
        D3D12_CPU_DESCRIPTOR_HANDLE cpu = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap);
        cpu.ptr += (SIZE_T)t->sampler_views[i].index * increment;
        ID3D12Device_CreateSampler(r->device, &t->sampler_views[i].desc, cpu);
    }
    return heap;
}

ID3D12DescriptorHeap *create_views(struct runner *r, struct test *t)
{
    D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, t->heap_size ? t->heap_size : 1,
            D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    ID3D12DescriptorHeap *heap = NULL;
    UINT increment;

    CHECK_HR(ID3D12Device_CreateDescriptorHeap(r->device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&heap), S_OK);
    if (!heap)
        return NULL;
    increment = ID3D12Device_GetDescriptorHandleIncrementSize(r->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    for (unsigned i = 0; i < t->view_count; i++) {
        const struct view_def *v = &t->views[i];
        D3D12_CPU_DESCRIPTOR_HANDLE cpu = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap);
        cpu.ptr += (SIZE_T)v->index * increment;
        if (v->form == FORM_TEXTURE || v->form == FORM_NULL) {
            create_texture_view(r, t, v, cpu);
            continue;
        }
        const struct buffer_def *b = &t->buffers[v->buffer];
        UINT element_size = v->form == FORM_RAW ? 4 : v->form == FORM_STRUCTURED ? v->stride : format_size(v->format);
        UINT count = v->has_count ? v->count : (UINT)(b->size / element_size > v->first ? b->size / element_size - v->first : 0);
        if (v->kind == VIEW_CBV) {
            D3D12_CONSTANT_BUFFER_VIEW_DESC cbv;
            cbv.BufferLocation = ID3D12Resource_GetGPUVirtualAddress(b->resource) + v->offset;
            cbv.SizeInBytes = v->has_size ? v->size : (UINT)((b->size - v->offset + 255) & ~(size_t)255);
            ID3D12Device_CreateConstantBufferView(r->device, &cbv, cpu);
        } else if (v->kind == VIEW_SRV) {
            D3D12_SHADER_RESOURCE_VIEW_DESC srv;
            memset(&srv, 0, sizeof(srv));
            srv.ViewDimension = D3D12_SRV_DIMENSION_BUFFER;
            srv.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
            srv.Format = v->form == FORM_RAW ? DXGI_FORMAT_R32_TYPELESS : v->form == FORM_TYPED ? v->format : DXGI_FORMAT_UNKNOWN;
            srv.Buffer.FirstElement = v->first;
            srv.Buffer.NumElements = count;
            srv.Buffer.StructureByteStride = v->form == FORM_STRUCTURED ? v->stride : 0;
            srv.Buffer.Flags = v->form == FORM_RAW ? D3D12_BUFFER_SRV_FLAG_RAW : D3D12_BUFFER_SRV_FLAG_NONE;
            ID3D12Device_CreateShaderResourceView(r->device, b->resource, &srv, cpu);
        } else {
            D3D12_UNORDERED_ACCESS_VIEW_DESC uav;
            memset(&uav, 0, sizeof(uav));
            uav.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
            uav.Format = v->form == FORM_RAW ? DXGI_FORMAT_R32_TYPELESS : v->form == FORM_TYPED ? v->format : DXGI_FORMAT_UNKNOWN;
            uav.Buffer.FirstElement = v->first;
            uav.Buffer.NumElements = count;
            uav.Buffer.StructureByteStride = v->form == FORM_STRUCTURED ? v->stride : 0;
            uav.Buffer.Flags = v->form == FORM_RAW ? D3D12_BUFFER_UAV_FLAG_RAW : D3D12_BUFFER_UAV_FLAG_NONE;
            ID3D12Device_CreateUnorderedAccessView(r->device, b->resource, NULL, &uav, cpu);
        }
    }
    return heap;
}
