/* d3d12xs_ordered_append.hlsli: ordered-append counters for shaders run with
 * DispatchX(..., D3D12XBOX_DISPATCH_FLAG_ENABLE_ORDERED_APPEND) (SPEC §2.1; ours). Grants are
 * made in launch order across the whole dispatch: per wave, or per thread group with
 * D3D12XBOX_DISPATCH_FLAG_ORDERED_APPEND_WAVEID_PER_THREADGROUP.
 *
 *     #include <d3d12xs_ordered_append.hlsli>
 *     [numthreads(64, 1, 1)]
 *     void main(uint groupIndex : SV_GroupIndex, ...)
 *     {
 *         D3D12XSOrderedAppendLaunch(groupIndex);            // first thing: takes the launch ticket
 *         ...
 *         uint first = D3D12XSOrderedAppend(0, itemCount);   // once per thread, every thread
 *         for (uint i = 0; i < itemCount; i++) output.Store((first + i) * 4, item(i));
 *     }
 *
 * D3DCompile finds the file with D3D_COMPILE_STANDARD_FILE_INCLUDE (next to the source, else in
 * d3d12xs's header folder, where `make install` puts it).
 *
 * How it works. Each wave (or group) takes a ticket at launch: an atomic increment, so the
 * tickets count the waves in the order they started. D3D12XSOrderedAppend waits until the
 * dispatch's "turn" equals the ticket, adds the wave's (group's) total to the counter, and
 * passes the turn on. Tickets are taken by waves already running, so every earlier ticket
 * belongs to a wave that is running or finished, and the wait ends as long as each wave
 * reaches its D3D12XSOrderedAppend: no deadlock on GPUs that run resident waves independently,
 * nor on lavapipe, which runs the waves of a group one after the other between barriers.
 *
 * Rules (breaking them hangs the dispatch, and d3d12xs reports a hung device):
 *  - every thread of every launched group calls D3D12XSOrderedAppendLaunch first and then
 *    D3D12XSOrderedAppend exactly once, in control flow that is uniform across the group
 *    (the group mode synchronises the group inside both calls);
 *  - one grant per wave or group per dispatch: the turn is shared by the counters.
 * Within a wave, lanes get consecutive places in lane order; within a group (group mode),
 * threads get places in an unspecified order. The state lives in a register of its own,
 * u16382 in space 62, which DispatchX binds; it needs no root signature entry.
 */
#ifndef D3D12XS_ORDERED_APPEND_HLSLI
#define D3D12XS_ORDERED_APPEND_HLSLI

#define D3D12XS_ORDERED_APPEND_COUNTERS 8

/* byte offsets in the state (DispatchX clears it and writes the mode before the dispatch) */
#define D3D12XS_ORDERED_APPEND_TICKET 0
#define D3D12XS_ORDERED_APPEND_TURN 4
#define D3D12XS_ORDERED_APPEND_MODE 8
#define D3D12XS_ORDERED_APPEND_COUNTER(index) (16 + 4 * (index))

RWByteAddressBuffer d3d12xs_ordered_append_state : register(u16382, space62);
static uint d3d12xs_ordered_append_ticket = 0xffffffffu;
static uint d3d12xs_ordered_append_group_index = 0;
groupshared uint d3d12xs_ordered_append_shared[2];

bool D3D12XSOrderedAppendPerGroup()
{
    return d3d12xs_ordered_append_state.Load(D3D12XS_ORDERED_APPEND_MODE) != 0u;
}

void D3D12XSOrderedAppendLaunch(uint groupIndex)
{
    uint ticket = 0u;
    d3d12xs_ordered_append_group_index = groupIndex;
    if (D3D12XSOrderedAppendPerGroup()) {
        if (groupIndex == 0u) {
            d3d12xs_ordered_append_state.InterlockedAdd(D3D12XS_ORDERED_APPEND_TICKET, 1u, ticket);
            d3d12xs_ordered_append_shared[0] = ticket;
        }
        GroupMemoryBarrierWithGroupSync();
        d3d12xs_ordered_append_ticket = d3d12xs_ordered_append_shared[0];
        GroupMemoryBarrierWithGroupSync();
    } else {
        if (WaveIsFirstLane())
            d3d12xs_ordered_append_state.InterlockedAdd(D3D12XS_ORDERED_APPEND_TICKET, 1u, ticket);
        d3d12xs_ordered_append_ticket = WaveReadLaneFirst(ticket);
    }
}

/* The launch ticket of the calling wave (group): its place in the grant order. */
uint D3D12XSOrderedAppendTicket()
{
    return d3d12xs_ordered_append_ticket;
}

/* Waits for the turn of ticket, adds total to the counter, passes the turn on; returns the
 * counter's value before the addition. */
uint D3D12XSOrderedAppendGrant(uint counter, uint ticket, uint total)
{
    uint turn = 0u, first = 0u, ignored;
    [loop] do {
        d3d12xs_ordered_append_state.InterlockedOr(D3D12XS_ORDERED_APPEND_TURN, 0u, turn);
    } while (turn != ticket);
    DeviceMemoryBarrier();
    d3d12xs_ordered_append_state.InterlockedAdd(D3D12XS_ORDERED_APPEND_COUNTER(counter), total, first);
    DeviceMemoryBarrier();
    d3d12xs_ordered_append_state.InterlockedAdd(D3D12XS_ORDERED_APPEND_TURN, 1u, ignored);
    return first;
}

/* Reserves count places of counter (0 .. D3D12XS_ORDERED_APPEND_COUNTERS - 1) for the calling
 * thread; returns the first. */
uint D3D12XSOrderedAppend(uint counter, uint count)
{
    uint first = 0u;
    if (D3D12XSOrderedAppendPerGroup()) {
        uint offset = 0u;
        if (d3d12xs_ordered_append_group_index == 0u)
            d3d12xs_ordered_append_shared[1] = 0u;
        GroupMemoryBarrierWithGroupSync();
        InterlockedAdd(d3d12xs_ordered_append_shared[1], count, offset);
        GroupMemoryBarrierWithGroupSync();
        if (d3d12xs_ordered_append_group_index == 0u)
            d3d12xs_ordered_append_shared[0] = D3D12XSOrderedAppendGrant(counter, d3d12xs_ordered_append_ticket,
                    d3d12xs_ordered_append_shared[1]);
        GroupMemoryBarrierWithGroupSync();
        first = d3d12xs_ordered_append_shared[0] + offset;
        GroupMemoryBarrierWithGroupSync();
        return first;
    }
    uint before = WavePrefixSum(count), total = WaveActiveSum(count);
    if (d3d12xs_ordered_append_ticket == 0xffffffffu)
        D3D12XSOrderedAppendLaunch(d3d12xs_ordered_append_group_index);
    if (WaveIsFirstLane())
        first = D3D12XSOrderedAppendGrant(counter, d3d12xs_ordered_append_ticket, total);
    return WaveReadLaneFirst(first) + before;
}

#endif
