/* shader_runner: a test's root signature, shaders and pipelines, its recorded commands and its run. */
#include "shader_runner.h"

/* D3D12XS_TEST_ROOT_SIGNATURE_FLAGS (a number, e.g. 0x01000000): OR-ed into the flags of every
 * root signature, so the same shader tests run with console flags such as
 * FORCE_MEMORY_BASED_ABI (CMake registers those runs as shader/NAME/memory_abi). */
D3D12_ROOT_SIGNATURE_FLAGS extra_root_signature_flags(void)
{
    const char *env = getenv("D3D12XS_TEST_ROOT_SIGNATURE_FLAGS");
    return env ? (D3D12_ROOT_SIGNATURE_FLAGS)strtoul(env, NULL, 0) : D3D12_ROOT_SIGNATURE_FLAG_NONE;
}

static ID3D12RootSignature *create_root_signature(struct runner *r, struct test *t)
{
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc;
    D3D12_ROOT_PARAMETER params10[MAX_PARAMS];
    D3D12_DESCRIPTOR_RANGE ranges10[MAX_PARAMS][MAX_RANGES];
    ID3DBlob *blob = NULL, *errors = NULL;
    ID3D12RootSignature *signature = NULL;
    D3D12_ROOT_SIGNATURE_FLAGS flags;
    HRESULT hr;
    LOG_MARK();

    memset(&desc, 0, sizeof(desc));
    /* Graphics tests read vertex buffers through an input layout. */
    flags = extra_root_signature_flags() | (t->graphics.used ? D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT : 0);
    if (t->rs_version_1_0) {
        for (unsigned i = 0; i < t->param_count; i++) {
            const D3D12_ROOT_PARAMETER1 *p = &t->params[i];
            memset(&params10[i], 0, sizeof(params10[i]));
            params10[i].ParameterType = p->ParameterType;
            params10[i].ShaderVisibility = p->ShaderVisibility;
            if (p->ParameterType == D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE) {
                for (unsigned j = 0; j < p->DescriptorTable.NumDescriptorRanges; j++) {
                    const D3D12_DESCRIPTOR_RANGE1 *range = &t->ranges[i][j];
                    ranges10[i][j].RangeType = range->RangeType;
                    ranges10[i][j].NumDescriptors = range->NumDescriptors;
                    ranges10[i][j].BaseShaderRegister = range->BaseShaderRegister;
                    ranges10[i][j].RegisterSpace = range->RegisterSpace;
                    ranges10[i][j].OffsetInDescriptorsFromTableStart = range->OffsetInDescriptorsFromTableStart;
                }
                params10[i].DescriptorTable.NumDescriptorRanges = p->DescriptorTable.NumDescriptorRanges;
                params10[i].DescriptorTable.pDescriptorRanges = ranges10[i];
            } else if (p->ParameterType == D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS) {
                params10[i].Constants = p->Constants;
            } else {
                params10[i].Descriptor.ShaderRegister = p->Descriptor.ShaderRegister;
                params10[i].Descriptor.RegisterSpace = p->Descriptor.RegisterSpace;
            }
        }
        desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_0;
        desc.Desc_1_0.NumParameters = t->param_count;
        desc.Desc_1_0.pParameters = params10;
        desc.Desc_1_0.NumStaticSamplers = t->sampler_count;
        desc.Desc_1_0.pStaticSamplers = t->samplers;
        desc.Desc_1_0.Flags = flags;
    } else {
        desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
        desc.Desc_1_1.NumParameters = t->param_count;
        desc.Desc_1_1.pParameters = t->params;
        desc.Desc_1_1.NumStaticSamplers = t->sampler_count;
        desc.Desc_1_1.pStaticSamplers = t->samplers;
        desc.Desc_1_1.Flags = flags;
    }
    hr = D3D12SerializeVersionedRootSignature(&desc, &blob, &errors);
    if (SUCCEEDED(hr))
        hr = ID3D12Device_CreateRootSignature(r->device, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
                &IID_ID3D12RootSignature, (void **)&signature);
    if (t->fail == FAIL_ROOT_SIGNATURE) {
        if (t->fail_has_hr && hr != t->fail_hr)
            FAIL_AT(t->fail_line, "root signature: HRESULT 0x%08x, expected 0x%08x", (unsigned)hr, (unsigned)t->fail_hr);
        if (SUCCEEDED(hr))
            FAIL_AT(t->fail_line, "root signature creation succeeded; the test expects it to fail");
        harness_check_log(log_mark_, current_file, t->fail_line, t->fail_needle_count > 0 ? t->fail_needles[0] : "",
                t->fail_needle_count > 1 ? t->fail_needles[1] : "", t->fail_needle_count > 2 ? t->fail_needles[2] : "",
                t->fail_needle_count > 3 ? t->fail_needles[3] : "", (const char *)NULL);
    } else if (FAILED(hr)) {
        FAIL_AT(1, "root signature: HRESULT 0x%08x%s%s", (unsigned)hr, errors ? ": " : "",
                errors ? (const char *)ID3D10Blob_GetBufferPointer(errors) : "");
    }
    if (blob)
        ID3D10Blob_Release(blob);
    if (errors)
        ID3D10Blob_Release(errors);
    return signature;
}

static bool compile_shaders(struct test *t)
{
    bool ok = true;
    for (unsigned i = 0; i < t->shader_count; i++) {
        struct shader_def *s = &t->shaders[i];
        ID3DBlob *errors = NULL;
        size_t mark = harness_log_mark();
        HRESULT hr = D3DCompile(s->source, s->source_length, current_file, s->define_count ? s->defines : NULL, NULL, s->entry,
                s->profile, 0, 0, &s->code, &errors);
        if (t->fail == FAIL_COMPILE && i == t->graphics.user_shader_count - 1) {
            /* The last shader is the one that must not compile. */
            if (hr != (t->fail_has_hr ? t->fail_hr : E_FAIL))
                FAIL_AT(t->fail_line, "D3DCompile of shader '%s' returned 0x%08x, expected 0x%08x", s->name,
                        (unsigned)hr, (unsigned)(t->fail_has_hr ? t->fail_hr : E_FAIL));
            if (FAILED(hr) && (!errors || ID3D10Blob_GetBufferSize(errors) < 2))
                FAIL_AT(t->fail_line, "D3DCompile of shader '%s' failed without a message in ppErrorMsgs", s->name);
            if (FAILED(hr))
                harness_check_log(mark, current_file, t->fail_line,
                        t->fail_needle_count > 0 ? t->fail_needles[0] : "",
                        t->fail_needle_count > 1 ? t->fail_needles[1] : "",
                        t->fail_needle_count > 2 ? t->fail_needles[2] : "",
                        t->fail_needle_count > 3 ? t->fail_needles[3] : "", (const char *)NULL);
            if (errors)
                ID3D10Blob_Release(errors);
            return false;
        }
        if (FAILED(hr)) {
            FAIL_AT(s->line, "D3DCompile of shader '%s' returned 0x%08x: %s", s->name, (unsigned)hr,
                    errors ? (const char *)ID3D10Blob_GetBufferPointer(errors) : "(no messages)");
            ok = false;
        }
        if (errors)
            ID3D10Blob_Release(errors);
    }
    return ok;
}

static bool create_pipelines(struct runner *r, struct test *t, ID3D12RootSignature *signature)
{
    for (unsigned i = 0; i < t->shader_count; i++) {
        struct shader_def *s = &t->shaders[i];
        D3D12_COMPUTE_PIPELINE_STATE_DESC desc;
        HRESULT hr;
        if (s->stage != STAGE_COMPUTE)
            continue;
        LOG_MARK();
        memset(&desc, 0, sizeof(desc));
        desc.pRootSignature = signature;
        desc.CS.pShaderBytecode = ID3D10Blob_GetBufferPointer(s->code);
        desc.CS.BytecodeLength = ID3D10Blob_GetBufferSize(s->code);
        hr = ID3D12Device_CreateComputePipelineState(r->device, &desc, &IID_ID3D12PipelineState, (void **)&s->pipeline);
        if (t->fail == FAIL_PIPELINE && !t->graphics.used && i == t->shader_count - 1) {
            /* The last shader is the one that must fail. */
            if (t->fail_has_hr && hr != t->fail_hr)
                FAIL_AT(t->fail_line, "CreateComputePipelineState(%s) returned 0x%08x, expected 0x%08x", s->name, (unsigned)hr,
                        (unsigned)t->fail_hr);
            if (SUCCEEDED(hr))
                FAIL_AT(t->fail_line, "CreateComputePipelineState(%s) succeeded; the test expects it to fail", s->name);
            harness_check_log(log_mark_, current_file, t->fail_line, t->fail_needle_count > 0 ? t->fail_needles[0] : "",
                    t->fail_needle_count > 1 ? t->fail_needles[1] : "", t->fail_needle_count > 2 ? t->fail_needles[2] : "",
                    t->fail_needle_count > 3 ? t->fail_needles[3] : "", (const char *)NULL);
            return false;
        }
        if (FAILED(hr)) {
            FAIL_AT(s->line, "CreateComputePipelineState(%s) returned 0x%08x", s->name, (unsigned)hr);
            return false;
        }
    }
    return true;
}

/* True when root parameter param is a table of samplers (then 'table' indexes the SAMPLER heap). */
static bool is_sampler_table(const struct test *t, unsigned param)
{
    return param < t->param_count && t->params[param].ParameterType == D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE
            && t->params[param].DescriptorTable.NumDescriptorRanges
            && t->ranges[param][0].RangeType == D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER;
}

static void record_steps(struct runner *r, struct test *t, ID3D12GraphicsCommandList2 *list, ID3D12RootSignature *signature,
        ID3D12DescriptorHeap *heap, ID3D12DescriptorHeap *sampler_heap, const struct target_views *views)
{
    bool graphics = t->graphics.used; /* root arguments go to the graphics bind point */
    bool explicit_pipeline = false, dispatched = false;
    D3D12_GPU_DESCRIPTOR_HANDLE heap_start = {0}, sampler_start = {0};
    UINT increment = ID3D12Device_GetDescriptorHandleIncrementSize(r->device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    UINT sampler_increment = ID3D12Device_GetDescriptorHandleIncrementSize(r->device, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
    ID3D12DescriptorHeap *heaps[2];
    UINT heap_count = 0;

    if (heap) {
        heaps[heap_count++] = heap;
        heap_start = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(heap);
    }
    if (sampler_heap) {
        heaps[heap_count++] = sampler_heap;
        sampler_start = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(sampler_heap);
    }
    if (heap_count)
        ID3D12GraphicsCommandList2_SetDescriptorHeaps(list, heap_count, heaps);
    if (graphics)
        ID3D12GraphicsCommandList2_SetGraphicsRootSignature(list, signature);
    else
        ID3D12GraphicsCommandList2_SetComputeRootSignature(list, signature);
    for (unsigned i = 0; i < t->step_count; i++)
        if (t->steps[i].type == STEP_PIPELINE)
            explicit_pipeline = true;
    if (graphics)
        record_graphics_setup(t, list, views);
    else if (!explicit_pipeline)
        ID3D12GraphicsCommandList2_SetPipelineState(list, t->shaders[0].pipeline);
    for (unsigned i = 0; i < t->step_count; i++) {
        const struct step *s = &t->steps[i];
        D3D12_GPU_VIRTUAL_ADDRESS address = 0;
        if (s->type == STEP_CBV || s->type == STEP_SRV || s->type == STEP_UAV)
            address = ID3D12Resource_GetGPUVirtualAddress(t->buffers[s->buffer].resource) + s->offset;
        switch (s->type) {
        case STEP_PIPELINE:
            if (s->shader >= 0)
                ID3D12GraphicsCommandList2_SetPipelineState(list, t->shaders[s->shader].pipeline);
            break;
        case STEP_CONSTANTS:
            if (graphics)
                ID3D12GraphicsCommandList2_SetGraphicsRoot32BitConstants(list, s->param, s->value_count, s->values, s->value_offset);
            else
                ID3D12GraphicsCommandList2_SetComputeRoot32BitConstants(list, s->param, s->value_count, s->values, s->value_offset);
            break;
        case STEP_CONSTANT:
            if (graphics)
                ID3D12GraphicsCommandList2_SetGraphicsRoot32BitConstant(list, s->param, s->values[0], s->value_offset);
            else
                ID3D12GraphicsCommandList2_SetComputeRoot32BitConstant(list, s->param, s->values[0], s->value_offset);
            break;
        case STEP_CBV:
            if (graphics)
                ID3D12GraphicsCommandList2_SetGraphicsRootConstantBufferView(list, s->param, address);
            else
                ID3D12GraphicsCommandList2_SetComputeRootConstantBufferView(list, s->param, address);
            break;
        case STEP_SRV:
            if (graphics)
                ID3D12GraphicsCommandList2_SetGraphicsRootShaderResourceView(list, s->param, address);
            else
                ID3D12GraphicsCommandList2_SetComputeRootShaderResourceView(list, s->param, address);
            break;
        case STEP_UAV:
            if (graphics)
                ID3D12GraphicsCommandList2_SetGraphicsRootUnorderedAccessView(list, s->param, address);
            else
                ID3D12GraphicsCommandList2_SetComputeRootUnorderedAccessView(list, s->param, address);
            break;
        case STEP_TABLE: {
            bool samplers = is_sampler_table(t, s->param);
            D3D12_GPU_DESCRIPTOR_HANDLE handle = samplers ? sampler_start : heap_start;
            if (samplers ? !sampler_heap : !heap)
                FAIL_AT(s->line, "'table' needs a [%s] section", samplers ? "samplers" : "views");
            handle.ptr += s->offset * (samplers ? sampler_increment : increment);
            if (graphics)
                ID3D12GraphicsCommandList2_SetGraphicsRootDescriptorTable(list, s->param, handle);
            else
                ID3D12GraphicsCommandList2_SetComputeRootDescriptorTable(list, s->param, handle);
            break;
        }
        case STEP_DISPATCH:
            /* Successive dispatches usually depend on each other: order them. */
            if (dispatched)
                uav_barrier(list);
            ID3D12GraphicsCommandList2_Dispatch(list, s->groups[0], s->groups[1], s->groups[2]);
            dispatched = true;
            break;
        case STEP_BARRIER:
            uav_barrier(list);
            break;
        default:
            record_graphics_step(t, list, views, s);
            break;
        }
    }
}

void run_test(struct runner *r, struct test *t)
{
    ID3D12RootSignature *signature = NULL;
    ID3D12DescriptorHeap *heap = NULL, *sampler_heap = NULL;
    struct harness_list list = {NULL, NULL};
    struct target_views views;

    memset(&views, 0, sizeof(views));
    if (!compile_shaders(t))
        return;
    if (!(signature = create_root_signature(r, t)) || t->fail == FAIL_ROOT_SIGNATURE) {
        if (signature && t->fail == FAIL_ROOT_SIGNATURE)
            ID3D12RootSignature_Release(signature);
        return;
    }
    if (!create_pipelines(r, t, signature) || (t->graphics.used && !create_graphics_pipelines(r, t, signature))
            || !create_buffers(r, t) || !create_textures(r, t) || (t->graphics.used && !create_target_views(r, t, &views)))
        goto done;
    if (t->has_views && !(heap = create_views(r, t)))
        goto done;
    if (t->has_samplers && !(sampler_heap = create_samplers(r, t)))
        goto done;

    list = harness_create_list(r->device, t->queue_type);
    if (!list.list)
        goto done;
    /* Initial contents, then each buffer into the state its use needs. */
    for (unsigned i = 0; i < t->buffer_count; i++) {
        struct buffer_def *b = &t->buffers[i];
        if (!b->upload)
            ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, b->resource, 0, b->staging, 0, b->size);
    }
    for (unsigned i = 0; i < t->texture_count; i++)
        if (!is_target(&t->textures[i]))
            copy_texture(list.list, &t->textures[i], t->textures[i].upload, true);
    for (unsigned i = 0; i < t->buffer_count; i++)
        if (!t->buffers[i].upload)
            transition(list.list, t->buffers[i].resource, D3D12_RESOURCE_STATE_COPY_DEST, use_state(&t->buffers[i]));
    for (unsigned i = 0; i < t->texture_count; i++)
        if (!is_target(&t->textures[i]))
            transition(list.list, t->textures[i].resource, D3D12_RESOURCE_STATE_COPY_DEST, texture_state(&t->textures[i]));

    {
        LOG_MARK();
        record_steps(r, t, list.list, signature, heap, sampler_heap, &views);
        if (t->fail == FAIL_CLOSE) {
            harness_check_log(log_mark_, current_file, t->fail_line, t->fail_needle_count > 0 ? t->fail_needles[0] : "",
                    t->fail_needle_count > 1 ? t->fail_needles[1] : "", t->fail_needle_count > 2 ? t->fail_needles[2] : "",
                    t->fail_needle_count > 3 ? t->fail_needles[3] : "", (const char *)NULL);
            RELOG_MARK();
            HRESULT hr = ID3D12GraphicsCommandList2_Close(list.list);
            if (hr != (t->fail_has_hr ? t->fail_hr : E_INVALIDARG))
                FAIL_AT(t->fail_line, "Close returned 0x%08x, expected 0x%08x", (unsigned)hr,
                        (unsigned)(t->fail_has_hr ? t->fail_hr : E_INVALIDARG));
            harness_check_log(log_mark_, current_file, t->fail_line, "Close", t->fail_needles[0], (const char *)NULL);
            goto done;
        }
    }

    for (unsigned i = 0; i < t->buffer_count; i++) {
        struct buffer_def *b = &t->buffers[i];
        if (!b->expected)
            continue;
        transition(list.list, b->resource, use_state(b), D3D12_RESOURCE_STATE_COPY_SOURCE);
        ID3D12GraphicsCommandList2_CopyBufferRegion(list.list, b->readback, 0, b->resource, 0, b->size);
    }
    for (unsigned i = 0; i < t->texture_count; i++) {
        struct texture_def *tex = &t->textures[i];
        if (!tex->expected)
            continue;
        transition(list.list, tex->resource, texture_state(tex), D3D12_RESOURCE_STATE_COPY_SOURCE);
        copy_texture(list.list, tex, tex->readback, false);
    }
    {
        /* Every dispatch took the ABI the root signature flags ask for. */
        D3D12XS_DISPATCH_COUNTERS counters;
        bool memory = extra_root_signature_flags() & D3D12XBOX_ROOT_SIGNATURE_FLAG_FORCE_MEMORY_BASED_ABI;
        CHECK_HR(D3D12XSGetCommandListDispatchCounters((ID3D12CommandList *)list.list, &counters), S_OK);
        if (memory ? counters.PushConstantAbiDispatches : counters.MemoryAbiDispatches)
            FAIL_AT(1, "%llu dispatches took the push-constant ABI and %llu the memory-based ABI; all should take the %s one",
                    (unsigned long long)counters.PushConstantAbiDispatches, (unsigned long long)counters.MemoryAbiDispatches,
                    memory ? "memory-based" : "push-constant");
        /* Root CBV/SRV/UAV arguments go by address through memory with the flag (the devices
         * the tests run on have bufferDeviceAddress and shaderInt64), as descriptors without. */
        if (memory ? counters.PushedRootDescriptors : counters.MemoryRootDescriptors)
            FAIL_AT(1, "%llu root descriptors were pushed and %llu read through memory; all should be %s",
                    (unsigned long long)counters.PushedRootDescriptors, (unsigned long long)counters.MemoryRootDescriptors,
                    memory ? "read through memory" : "pushed");
    }
    harness_execute_and_wait(r->device, r->queue, &list);
    check_expectations(r, t);

done:
    harness_release_list(&list);
    release_target_views(&views);
    if (heap)
        ID3D12DescriptorHeap_Release(heap);
    if (sampler_heap)
        ID3D12DescriptorHeap_Release(sampler_heap);
    if (signature)
        ID3D12RootSignature_Release(signature);
}
