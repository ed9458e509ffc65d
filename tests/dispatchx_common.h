/* What the DispatchX tests (test_dispatchx*.c, test_ordered_append.c) share: a root signature
 * of four root constants (b0) and UAV root descriptors u0.., HLSL pipelines, and a list that
 * binds them. Header-only: each test is one executable. */
#ifndef D3D12XS_TEST_DISPATCHX_COMMON_H
#define D3D12XS_TEST_DISPATCHX_COMMON_H

#include <string.h>

#include <d3dcompiler.h>
#include <d3d12_xs.h>

#include "harness.h"

#define ROOT_CONSTANTS 4

/* Parameter 0: constant_count constants at b0; parameters 1..uav_count: root UAVs u0... */
static inline ID3D12RootSignature *dispatchx_root_signature_with(ID3D12Device *device, unsigned constant_count, unsigned uav_count)
{
    D3D12_ROOT_PARAMETER1 parameters[8];
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc;
    ID3DBlob *blob = NULL, *errors = NULL;
    ID3D12RootSignature *signature = NULL;

    memset(parameters, 0, sizeof(parameters));
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = constant_count;
    for (unsigned i = 0; i < uav_count; i++) {
        parameters[1 + i].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
        parameters[1 + i].Descriptor.ShaderRegister = i;
    }
    memset(&desc, 0, sizeof(desc));
    desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    desc.Desc_1_1.NumParameters = 1 + uav_count;
    desc.Desc_1_1.pParameters = parameters;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&desc, &blob, &errors), S_OK);
    CHECK_HR(ID3D12Device_CreateRootSignature(device, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
            &IID_ID3D12RootSignature, (void **)&signature), S_OK);
    ID3D10Blob_Release(blob);
    return signature;
}

static inline ID3D12RootSignature *dispatchx_root_signature(ID3D12Device *device, unsigned uav_count)
{
    return dispatchx_root_signature_with(device, ROOT_CONSTANTS, uav_count);
}

/* SPIR-V from HLSL; wave32 compiles with -D__XBOX_ENABLE_WAVE32=1, as the console builds wave32 shaders. */
static inline ID3DBlob *dispatchx_compile(const char *source, bool wave32)
{
    D3D_SHADER_MACRO defines[] = {{"__XBOX_ENABLE_WAVE32", "1"}, {NULL, NULL}};
    ID3DBlob *code = NULL, *errors = NULL;
    HRESULT hr = D3DCompile(source, strlen(source), "dispatchx.hlsl", wave32 ? defines : NULL, D3D_COMPILE_STANDARD_FILE_INCLUDE, "main",
            "cs_6_0", 0, 0, &code, &errors);
    CHECK_MSG(hr == S_OK, "D3DCompile: 0x%08x %s", (unsigned)hr, errors ? (const char *)ID3D10Blob_GetBufferPointer(errors) : "");
    if (errors)
        ID3D10Blob_Release(errors);
    return code;
}

static inline ID3D12PipelineState *dispatchx_pipeline(ID3D12Device *device, ID3D12RootSignature *signature, const char *source, bool wave32)
{
    ID3DBlob *code = dispatchx_compile(source, wave32);
    ID3D12PipelineState *pipeline = NULL;
    if (code) {
        pipeline = harness_compute_pipeline(device, signature, code);
        ID3D10Blob_Release(code);
    }
    return pipeline;
}

/* Binds signature, pipeline, the constants and the UAVs on a recording list. */
static inline void dispatchx_bind(ID3D12GraphicsCommandList *list, ID3D12RootSignature *signature, ID3D12PipelineState *pipeline,
        const UINT constants[ROOT_CONSTANTS], ID3D12Resource *const *uavs, unsigned uav_count)
{
    ID3D12GraphicsCommandList_SetComputeRootSignature(list, signature);
    ID3D12GraphicsCommandList_SetPipelineState(list, pipeline);
    ID3D12GraphicsCommandList_SetComputeRoot32BitConstants(list, 0, ROOT_CONSTANTS, constants, 0);
    for (unsigned i = 0; i < uav_count; i++)
        ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(list, 1 + i, ID3D12Resource_GetGPUVirtualAddress(uavs[i]));
}

#endif
