/* Bundles (D3D12_COMMAND_LIST_TYPE_BUNDLE): lists of state changes and dispatches recorded once
 * and executed from DIRECT lists with ExecuteBundle (command_bundle.c). A bundle keeps its calls
 * as plain structs and ExecuteBundle replays them into the calling list, which is how D3D12's
 * inheritance rules fall out: the bundle sees the caller's root signature, root arguments and
 * heaps, and whatever it sets stays set in the caller afterwards. */
#ifndef D3D12XS_COMMAND_BUNDLE_H
#define D3D12XS_COMMAND_BUNDLE_H

#include "commands/command_list_state.h"

/* CreateCommandList(BUNDLE): recording, as D3D12 hands out new lists. */
HRESULT d3d12_bundle_create(struct d3d12_device *device, ID3D12CommandAllocator *allocator, ID3D12PipelineState *initial_state,
        REFIID riid, void **out);
/* CreateCommandList1(BUNDLE): closed, no allocator until its first Reset. */
HRESULT d3d12_bundle_create_closed(struct d3d12_device *device, REFIID riid, void **out);
/* Whether iface is a d3d12xs bundle (ExecuteCommandLists says so when one is passed to it). */
bool d3d12_bundle_is_bundle(ID3D12CommandList *iface);

#endif
