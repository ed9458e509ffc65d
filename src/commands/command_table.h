/* What a command list records, described once. D3D12XS_COMMANDS lists every recording method
 * d3d12xs implements; from it come the lists' vtables (command_list.c), the prototypes of the
 * methods' emitters (command_recording.h) and all of a bundle's recording and replay
 * (command_bundle.c). D3D12XS_RECORDED_KINDS lists the entries of a list's diagnostic record
 * (command_record.h). Adding a command is one line here plus its emitter,
 * d3d12_command_list_<Method>; a bundle then records or refuses it with no code of its own.
 * docs/design.md ("One description per command") says why it is shaped this way. */
#ifndef D3D12XS_COMMAND_TABLE_H
#define D3D12XS_COMMAND_TABLE_H

/* COMMAND(Method, table, bundle, (parameters)), one per recording method:
 *   Method      D3D12's name; d3d12_command_list_<Method> is its emitter, written by hand.
 *   table       LIST: a slot of ID3D12GraphicsCommandList10Vtbl, called on an ID3D12GraphicsCommandList10 *;
 *               CONSOLE: a slot of the console table (D3D12XS_ID3D12GraphicsCommandListConsoleVtbl, d3d12_xs.h),
 *               called on an ID3D12GraphicsCommandList *.
 *   bundle      what a BUNDLE list does with it, by D3D12's rules:
 *               RECORD  kept, and replayed at ExecuteBundle through the caller's emitter;
 *               CHECK   the same once bundle_check_<Method> (command_bundle.c) accepts the call: what a
 *                       bundle must refuse when it is recorded (a dispatch with no pipeline of its own);
 *               MATCH   checked as CHECK; at ExecuteBundle bundle_match_<Method> compares it with the
 *                       caller's state instead of replaying it (SetDescriptorHeaps names the caller's heaps);
 *               REFUSE  not allowed in bundles: it makes the bundle invalid, and the bundle's Close fails.
 *   parameters  those after the interface pointer, in D3D12's order, with D3D12's names (the bundle's
 *               messages name them):
 *               ARG(type, name)                              kept by value (interfaces are not referenced,
 *                                                            as D3D12 does not);
 *               ARRAY(type, name, element, count)            count elements copied into the bundle, NULL
 *                                                            only with a count of 0;
 *               OPTIONAL_ARRAY(type, name, element, count)   the same, where NULL means something and is kept.
 *               A structure passed by pointer is an ARRAY of 1. A refused command keeps nothing: ARG is
 *               enough for its pointers. An array parameter's bound goes with its name, as D3D12
 *               declares it (ARG(const FLOAT, ColorRGBA[4])), where the emitter is declared so (gcc's
 *               -Warray-parameter); an ARRAY's emitter takes a plain pointer.
 * Draws and the IA/OM/RS state come with their emitters. By D3D12's rules DrawInstanced,
 * DrawIndexedInstanced, IASetPrimitiveTopology, IASetVertexBuffers (OPTIONAL_ARRAY of
 * D3D12_VERTEX_BUFFER_VIEW), IASetIndexBuffer (OPTIONAL_ARRAY of 1), OMSetBlendFactor
 * (OPTIONAL_ARRAY of 4), OMSetStencilRef, OMSetFrontAndBackStencilRef, RSSetDepthBias,
 * IASetIndexBufferStripCutValue, ExecuteIndirect and SetViewInstanceMask are kept (a
 * bundle inherits neither the pipeline state nor the primitive topology, so a draw is CHECKed
 * for both), and OMSetRenderTargets, RSSetViewports, RSSetScissorRects, SOSetTargets, SetSamplePositions,
 * ResolveSubresource(Region), SetPredication, the render passes and every copy, clear or
 * query are refused. */
#define D3D12XS_COMMANDS(COMMAND) \
    COMMAND(ClearState, LIST, REFUSE, (ARG(ID3D12PipelineState *, pPipelineState))) \
    COMMAND(Dispatch, LIST, CHECK, (ARG(UINT, ThreadGroupCountX), ARG(UINT, ThreadGroupCountY), ARG(UINT, ThreadGroupCountZ))) \
    COMMAND(CopyBufferRegion, LIST, REFUSE, (ARG(ID3D12Resource *, pDstBuffer), ARG(UINT64, DstOffset), \
            ARG(ID3D12Resource *, pSrcBuffer), ARG(UINT64, SrcOffset), ARG(UINT64, NumBytes))) \
    COMMAND(CopyTextureRegion, LIST, REFUSE, (ARG(const D3D12_TEXTURE_COPY_LOCATION *, pDst), ARG(UINT, DstX), ARG(UINT, DstY), \
            ARG(UINT, DstZ), ARG(const D3D12_TEXTURE_COPY_LOCATION *, pSrc), ARG(const D3D12_BOX *, pSrcBox))) \
    COMMAND(CopyResource, LIST, REFUSE, (ARG(ID3D12Resource *, pDstResource), ARG(ID3D12Resource *, pSrcResource))) \
    COMMAND(SetPipelineState, LIST, CHECK, (ARG(ID3D12PipelineState *, pPipelineState))) \
    COMMAND(ResourceBarrier, LIST, REFUSE, (ARG(UINT, NumBarriers), ARG(const D3D12_RESOURCE_BARRIER *, pBarriers))) \
    COMMAND(ExecuteBundle, LIST, REFUSE, (ARG(ID3D12GraphicsCommandList *, pCommandList))) \
    COMMAND(SetDescriptorHeaps, LIST, MATCH, (ARG(UINT, NumDescriptorHeaps), \
            ARRAY(ID3D12DescriptorHeap *const *, ppDescriptorHeaps, ID3D12DescriptorHeap *, NumDescriptorHeaps))) \
    D3D12XS_ROOT_ARGUMENT_COMMANDS(COMMAND, Compute) \
    D3D12XS_ROOT_ARGUMENT_COMMANDS(COMMAND, Graphics) \
    COMMAND(ClearDepthStencilView, LIST, REFUSE, (ARG(D3D12_CPU_DESCRIPTOR_HANDLE, DepthStencilView), ARG(D3D12_CLEAR_FLAGS, ClearFlags), \
            ARG(FLOAT, Depth), ARG(UINT8, Stencil), ARG(UINT, NumRects), ARG(const D3D12_RECT *, pRects))) \
    COMMAND(ClearRenderTargetView, LIST, REFUSE, (ARG(D3D12_CPU_DESCRIPTOR_HANDLE, RenderTargetView), ARG(const FLOAT, ColorRGBA[4]), \
            ARG(UINT, NumRects), ARG(const D3D12_RECT *, pRects))) \
    COMMAND(ClearUnorderedAccessViewUint, LIST, REFUSE, (ARG(D3D12_GPU_DESCRIPTOR_HANDLE, ViewGPUHandleInCurrentHeap), \
            ARG(D3D12_CPU_DESCRIPTOR_HANDLE, ViewCPUHandle), ARG(ID3D12Resource *, pResource), ARG(const UINT, Values[4]), \
            ARG(UINT, NumRects), ARG(const D3D12_RECT *, pRects))) \
    COMMAND(ClearUnorderedAccessViewFloat, LIST, REFUSE, (ARG(D3D12_GPU_DESCRIPTOR_HANDLE, ViewGPUHandleInCurrentHeap), \
            ARG(D3D12_CPU_DESCRIPTOR_HANDLE, ViewCPUHandle), ARG(ID3D12Resource *, pResource), ARG(const FLOAT, Values[4]), \
            ARG(UINT, NumRects), ARG(const D3D12_RECT *, pRects))) \
    COMMAND(DiscardResource, LIST, REFUSE, (ARG(ID3D12Resource *, pResource), ARG(const D3D12_DISCARD_REGION *, pRegion))) \
    COMMAND(BeginQuery, LIST, REFUSE, (ARG(ID3D12QueryHeap *, pQueryHeap), ARG(D3D12_QUERY_TYPE, Type), ARG(UINT, Index))) \
    COMMAND(EndQuery, LIST, REFUSE, (ARG(ID3D12QueryHeap *, pQueryHeap), ARG(D3D12_QUERY_TYPE, Type), ARG(UINT, Index))) \
    COMMAND(ResolveQueryData, LIST, REFUSE, (ARG(ID3D12QueryHeap *, pQueryHeap), ARG(D3D12_QUERY_TYPE, Type), ARG(UINT, StartIndex), \
            ARG(UINT, NumQueries), ARG(ID3D12Resource *, pDestinationBuffer), ARG(UINT64, AlignedDestinationBufferOffset))) \
    COMMAND(SetMarker, LIST, RECORD, (ARG(UINT, Metadata), OPTIONAL_ARRAY(const void *, pData, uint8_t, Size), ARG(UINT, Size))) \
    COMMAND(BeginEvent, LIST, RECORD, (ARG(UINT, Metadata), OPTIONAL_ARRAY(const void *, pData, uint8_t, Size), ARG(UINT, Size))) \
    COMMAND(EndEvent, LIST, RECORD, ()) \
    COMMAND(WriteBufferImmediate, LIST, RECORD, (ARG(UINT, Count), \
            ARRAY(const D3D12_WRITEBUFFERIMMEDIATE_PARAMETER *, pParams, D3D12_WRITEBUFFERIMMEDIATE_PARAMETER, Count), \
            OPTIONAL_ARRAY(const D3D12_WRITEBUFFERIMMEDIATE_MODE *, pModes, D3D12_WRITEBUFFERIMMEDIATE_MODE, Count))) \
    COMMAND(ExecuteIndirect, LIST, RECORD, (ARG(ID3D12CommandSignature *, pCommandSignature), ARG(UINT, MaxCommandCount), \
            ARG(ID3D12Resource *, pArgumentBuffer), ARG(UINT64, ArgumentBufferOffset), ARG(ID3D12Resource *, pCountBuffer), \
            ARG(UINT64, CountBufferOffset))) \
    COMMAND(DispatchX, CONSOLE, CHECK, (ARG(UINT, ThreadGroupCountX), ARG(UINT, ThreadGroupCountY), ARG(UINT, ThreadGroupCountZ), \
            ARG(D3D12XBOX_DISPATCH_FLAGS, Flags))) \
    COMMAND(Write32BitValueBottomOfPipe2X, CONSOLE, REFUSE, (ARG(D3D12_GPU_VIRTUAL_ADDRESS, Destination), ARG(UINT, Value), \
            ARG(D3D12XBOX_SYNC_FLAGS, SyncFlags), ARG(D3D12XBOX_SYNC_CONTROL_FLAGS, ControlFlags), \
            ARG(D3D12XBOX_WRITE_VALUE_BOP_FLAGS, WriteFlags))) \
    COMMAND(Write64BitValueBottomOfPipe2X, CONSOLE, REFUSE, (ARG(D3D12_GPU_VIRTUAL_ADDRESS, Destination), ARG(UINT64, Value), \
            ARG(D3D12XBOX_SYNC_FLAGS, SyncFlags), ARG(D3D12XBOX_SYNC_CONTROL_FLAGS, ControlFlags), \
            ARG(D3D12XBOX_WRITE_VALUE_BOP_FLAGS, WriteFlags))) \
    COMMAND(Write32BitValueBottomOfPipeX, CONSOLE, REFUSE, (ARG(D3D12_GPU_VIRTUAL_ADDRESS, Destination), ARG(UINT, Value), \
            ARG(D3D12XBOX_FLUSH, Flush), ARG(D3D12XBOX_WRITE_VALUE_BOP_FLAGS, WriteFlags))) \
    COMMAND(Write64BitValueBottomOfPipeX, CONSOLE, REFUSE, (ARG(D3D12_GPU_VIRTUAL_ADDRESS, Destination), ARG(UINT64, Value), \
            ARG(D3D12XBOX_FLUSH, Flush), ARG(D3D12XBOX_WRITE_VALUE_BOP_FLAGS, WriteFlags))) \
    COMMAND(Write32BitValueTopOfPipeX, CONSOLE, REFUSE, (ARG(D3D12_GPU_VIRTUAL_ADDRESS, Destination), ARG(UINT, Value))) \
    COMMAND(Write64BitValueTopOfPipeX, CONSOLE, REFUSE, (ARG(D3D12_GPU_VIRTUAL_ADDRESS, Destination), ARG(UINT64, Value))) \
    COMMAND(Wait32BitValueX, CONSOLE, REFUSE, (ARG(D3D12_GPU_VIRTUAL_ADDRESS, Address), ARG(D3D12_COMPARISON_FUNC, Function), \
            ARG(UINT, Value), ARG(D3D12XBOX_WAIT_FLAGS, Flags))) \
    COMMAND(Wait64BitValueX, CONSOLE, REFUSE, (ARG(D3D12_GPU_VIRTUAL_ADDRESS, Address), ARG(D3D12_COMPARISON_FUNC, Function), \
            ARG(UINT64, Value), ARG(D3D12XBOX_WAIT_FLAGS, Flags))) \
    COMMAND(FlushPipelineX, CONSOLE, REFUSE, (ARG(D3D12XBOX_FLUSH, Flush), ARG(D3D12_GPU_VIRTUAL_ADDRESS, Address), \
            ARG(SIZE_T, SizeInBytes))) \
    D3D12XS_GRAPHICS_COMMANDS(COMMAND)

/* Draws and the input assembler, rasterizer and output merger state (command_list_graphics.c,
 * command_list_render_pass.c), and stream output's targets (command_list_stream_output.c). A
 * bundle inherits neither the pipeline state nor the primitive topology: its draws are CHECKed
 * for both. */
#define D3D12XS_GRAPHICS_COMMANDS(COMMAND) \
    COMMAND(DrawInstanced, LIST, CHECK, (ARG(UINT, VertexCountPerInstance), ARG(UINT, InstanceCount), ARG(UINT, StartVertexLocation), \
            ARG(UINT, StartInstanceLocation))) \
    COMMAND(DrawIndexedInstanced, LIST, CHECK, (ARG(UINT, IndexCountPerInstance), ARG(UINT, InstanceCount), ARG(UINT, StartIndexLocation), \
            ARG(INT, BaseVertexLocation), ARG(UINT, StartInstanceLocation))) \
    COMMAND(IASetPrimitiveTopology, LIST, CHECK, (ARG(D3D12_PRIMITIVE_TOPOLOGY, PrimitiveTopology))) \
    COMMAND(IASetVertexBuffers, LIST, RECORD, (ARG(UINT, StartSlot), ARG(UINT, NumViews), \
            OPTIONAL_ARRAY(const D3D12_VERTEX_BUFFER_VIEW *, pViews, D3D12_VERTEX_BUFFER_VIEW, NumViews))) \
    COMMAND(IASetIndexBuffer, LIST, RECORD, (OPTIONAL_ARRAY(const D3D12_INDEX_BUFFER_VIEW *, pView, D3D12_INDEX_BUFFER_VIEW, 1))) \
    COMMAND(OMSetBlendFactor, LIST, RECORD, (OPTIONAL_ARRAY(const FLOAT *, BlendFactor, FLOAT, 4))) \
    COMMAND(OMSetStencilRef, LIST, RECORD, (ARG(UINT, StencilRef))) \
    COMMAND(OMSetDepthBounds, LIST, RECORD, (ARG(FLOAT, Min), ARG(FLOAT, Max))) \
    COMMAND(OMSetFrontAndBackStencilRef, LIST, RECORD, (ARG(UINT, FrontStencilRef), ARG(UINT, BackStencilRef))) \
    COMMAND(RSSetDepthBias, LIST, RECORD, (ARG(FLOAT, DepthBias), ARG(FLOAT, DepthBiasClamp), ARG(FLOAT, SlopeScaledDepthBias))) \
    COMMAND(IASetIndexBufferStripCutValue, LIST, RECORD, (ARG(D3D12_INDEX_BUFFER_STRIP_CUT_VALUE, IBStripCutValue))) \
    COMMAND(SetViewInstanceMask, LIST, RECORD, (ARG(UINT, Mask))) \
    COMMAND(SetSamplePositions, LIST, REFUSE, (ARG(UINT, NumSamplesPerPixel), ARG(UINT, NumPixels), \
            ARG(D3D12_SAMPLE_POSITION *, pSamplePositions))) \
    COMMAND(RSSetViewports, LIST, REFUSE, (ARG(UINT, NumViewports), ARG(const D3D12_VIEWPORT *, pViewports))) \
    COMMAND(RSSetScissorRects, LIST, REFUSE, (ARG(UINT, NumRects), ARG(const D3D12_RECT *, pRects))) \
    COMMAND(OMSetRenderTargets, LIST, REFUSE, (ARG(UINT, NumRenderTargetDescriptors), \
            ARG(const D3D12_CPU_DESCRIPTOR_HANDLE *, pRenderTargetDescriptors), ARG(BOOL, RTsSingleHandleToDescriptorRange), \
            ARG(const D3D12_CPU_DESCRIPTOR_HANDLE *, pDepthStencilDescriptor))) \
    COMMAND(SOSetTargets, LIST, REFUSE, (ARG(UINT, StartSlot), ARG(UINT, NumViews), ARG(const D3D12_STREAM_OUTPUT_BUFFER_VIEW *, pViews))) \
    COMMAND(BeginRenderPass, LIST, REFUSE, (ARG(UINT, NumRenderTargets), ARG(const D3D12_RENDER_PASS_RENDER_TARGET_DESC *, pRenderTargets), \
            ARG(const D3D12_RENDER_PASS_DEPTH_STENCIL_DESC *, pDepthStencil), ARG(D3D12_RENDER_PASS_FLAGS, Flags))) \
    COMMAND(EndRenderPass, LIST, REFUSE, ()) \
    COMMAND(ResolveSubresource, LIST, REFUSE, (ARG(ID3D12Resource *, pDstResource), ARG(UINT, DstSubresource), \
            ARG(ID3D12Resource *, pSrcResource), ARG(UINT, SrcSubresource), ARG(DXGI_FORMAT, Format))) \
    COMMAND(SetPredication, LIST, REFUSE, (ARG(ID3D12Resource *, pBuffer), ARG(UINT64, AlignedBufferOffset), \
            ARG(D3D12_PREDICATION_OP, Operation))) \
    COMMAND(ResolveSubresourceRegion, LIST, REFUSE, (ARG(ID3D12Resource *, pDstResource), ARG(UINT, DstSubresource), ARG(UINT, DstX), \
            ARG(UINT, DstY), ARG(ID3D12Resource *, pSrcResource), ARG(UINT, SrcSubresource), ARG(D3D12_RECT *, pSrcRect), \
            ARG(DXGI_FORMAT, Format), ARG(D3D12_RESOLVE_MODE, ResolveMode)))

/* SetComputeRoot* or SetGraphicsRoot* (Kind): a bind point's signature and root arguments,
 * which bundles record (a signature is checked where it is replayed, as in the caller). */
#define D3D12XS_ROOT_ARGUMENT_COMMANDS(COMMAND, Kind) \
    COMMAND(Set##Kind##RootSignature, LIST, RECORD, (ARG(ID3D12RootSignature *, pRootSignature))) \
    COMMAND(Set##Kind##RootDescriptorTable, LIST, RECORD, (ARG(UINT, RootParameterIndex), \
            ARG(D3D12_GPU_DESCRIPTOR_HANDLE, BaseDescriptor))) \
    COMMAND(Set##Kind##Root32BitConstant, LIST, RECORD, (ARG(UINT, RootParameterIndex), ARG(UINT, SrcData), \
            ARG(UINT, DestOffsetIn32BitValues))) \
    COMMAND(Set##Kind##Root32BitConstants, LIST, CHECK, (ARG(UINT, RootParameterIndex), ARG(UINT, Num32BitValuesToSet), \
            ARRAY(const void *, pSrcData, uint32_t, Num32BitValuesToSet), ARG(UINT, DestOffsetIn32BitValues))) \
    COMMAND(Set##Kind##RootConstantBufferView, LIST, RECORD, (ARG(UINT, RootParameterIndex), \
            ARG(D3D12_GPU_VIRTUAL_ADDRESS, BufferLocation))) \
    COMMAND(Set##Kind##RootShaderResourceView, LIST, RECORD, (ARG(UINT, RootParameterIndex), \
            ARG(D3D12_GPU_VIRTUAL_ADDRESS, BufferLocation))) \
    COMMAND(Set##Kind##RootUnorderedAccessView, LIST, RECORD, (ARG(UINT, RootParameterIndex), \
            ARG(D3D12_GPU_VIRTUAL_ADDRESS, BufferLocation)))

/* KIND(NAME, "name"): the entries of a list's diagnostic record (enum d3d12_recorded_kind,
 * D3D12_RECORDED_<NAME>), each named as hang reports, Close and the console memory-model
 * validation print it. An emitter notes the kind of what it recorded: one command may record
 * none (state) and several commands one kind (every copy is a COPY). */
#define D3D12XS_RECORDED_KINDS(KIND) \
    KIND(DISPATCH, "Dispatch") \
    KIND(COPY, "copy") \
    KIND(BARRIER, "ResourceBarrier") \
    KIND(WRITE_IMMEDIATE, "WriteBufferImmediate") \
    KIND(CLEAR_UAV, "ClearUnorderedAccessView") \
    KIND(END_QUERY, "EndQuery") \
    KIND(RESOLVE_QUERY, "ResolveQueryData") \
    KIND(WRITE_VALUE, "value write")                 /* the console's top/bottom-of-pipe value writes */ \
    KIND(WAIT_VALUE, "wait on memory")               /* the console's mid-list waits on memory */ \
    KIND(BEGIN_QUERY, "BeginQuery") \
    KIND(CLEAR_RENDER_TARGET, "render target clear") /* ClearRenderTargetView, ClearDepthStencilView */ \
    KIND(DRAW, "draw") \
    KIND(INDIRECT_ARGUMENTS, "ExecuteIndirect")      /* its argument and count buffers, read (after its draw or dispatch) */

/* ---- expanding a command's parameters ---- */

/* F applied to each parameter of a (parameters) list, in order (at most 12; an empty list
 * applies F once to nothing, which each F_ variant below turns into nothing). */
#define D3D12XS_COMMAND_PARAMS(F, parameters) D3D12XS_EACH_(F, D3D12XS_UNPAREN parameters)
#define D3D12XS_UNPAREN(...) __VA_ARGS__
#define D3D12XS_EACH_(F, ...) D3D12XS_EACH_PICK(__VA_ARGS__, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)(F, __VA_ARGS__)
#define D3D12XS_EACH_PICK(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, N, ...) D3D12XS_EACH_##N
#define D3D12XS_EACH_1(F, a) F(a)
#define D3D12XS_EACH_2(F, a, ...) F(a) D3D12XS_EACH_1(F, __VA_ARGS__)
#define D3D12XS_EACH_3(F, a, ...) F(a) D3D12XS_EACH_2(F, __VA_ARGS__)
#define D3D12XS_EACH_4(F, a, ...) F(a) D3D12XS_EACH_3(F, __VA_ARGS__)
#define D3D12XS_EACH_5(F, a, ...) F(a) D3D12XS_EACH_4(F, __VA_ARGS__)
#define D3D12XS_EACH_6(F, a, ...) F(a) D3D12XS_EACH_5(F, __VA_ARGS__)
#define D3D12XS_EACH_7(F, a, ...) F(a) D3D12XS_EACH_6(F, __VA_ARGS__)
#define D3D12XS_EACH_8(F, a, ...) F(a) D3D12XS_EACH_7(F, __VA_ARGS__)
#define D3D12XS_EACH_9(F, a, ...) F(a) D3D12XS_EACH_8(F, __VA_ARGS__)
#define D3D12XS_EACH_10(F, a, ...) F(a) D3D12XS_EACH_9(F, __VA_ARGS__)
#define D3D12XS_EACH_11(F, a, ...) F(a) D3D12XS_EACH_10(F, __VA_ARGS__)
#define D3D12XS_EACH_12(F, a, ...) F(a) D3D12XS_EACH_11(F, __VA_ARGS__)

/* A parameter's declaration, after the interface pointer: ", type name". F of a parameter is
 * F_ARG(...), F_ARRAY(...) or F_OPTIONAL_ARRAY(...) by its first word. */
#define D3D12XS_PARAM_DECL(parameter) D3D12XS_PARAM_DECL_##parameter
#define D3D12XS_PARAM_DECL_ARG(type, name) , type name
#define D3D12XS_PARAM_DECL_ARRAY(type, name, element, count) , type name
#define D3D12XS_PARAM_DECL_OPTIONAL_ARRAY(type, name, element, count) , type name
#define D3D12XS_PARAM_DECL_

/* The interface pointer each table's methods take. */
#define D3D12XS_COMMAND_IFACE_LIST ID3D12GraphicsCommandList10 *
#define D3D12XS_COMMAND_IFACE_CONSOLE ID3D12GraphicsCommandList *

/* A vtable initialiser .Method = function, for the commands of one table (LIST or CONSOLE). */
#define D3D12XS_COMMAND_SLOT(Method, table, wanted, function) D3D12XS_COMMAND_SLOT_##table##_##wanted(Method, function)
#define D3D12XS_COMMAND_SLOT_LIST_LIST(Method, function) .Method = function,
#define D3D12XS_COMMAND_SLOT_CONSOLE_CONSOLE(Method, function) .Method = function,
#define D3D12XS_COMMAND_SLOT_LIST_CONSOLE(Method, function)
#define D3D12XS_COMMAND_SLOT_CONSOLE_LIST(Method, function)

#endif
