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
 * How it works. At launch, the first thread of each group takes the group's tickets with one
 * atomic increment: one per wave (waves of a group get consecutive tickets in wave order), or
 * one for the group. The tickets thus count waves in the order their groups started.
 * D3D12XSOrderedAppend has the group wait until the dispatch's "turn" reaches the
 * group's first ticket, take the places of all its waves at once (wave w's follow those of waves
 * 0..w-1) and pass the turn on by the group's tickets: grants follow ticket order exactly.
 * Tickets are taken by groups already running, so every earlier ticket belongs to a group that
 * is running or finished, and the wait ends as long as each group reaches its
 * D3D12XSOrderedAppend: no deadlock on GPUs, which run resident groups independently, nor on
 * lavapipe, which runs each group on one of its threads to the end. (Waves wait group by group,
 * not one by one: on lavapipe, Mesa 22.3, a loop run by only some lanes of a wave followed by
 * wave operations lost stores or hung; a one-thread loop followed by a group barrier is sound.)
 *
 * Rules (breaking them hangs the dispatch, and d3d12xs reports a hung device):
 *  - every thread of every launched group calls D3D12XSOrderedAppendLaunch first and then
 *    D3D12XSOrderedAppend exactly once, in control flow uniform across the group (both calls
 *    hold group barriers, so USE_THREAD_DIMENSIONS runs such shaders in whole groups only);
 *  - one grant per wave or group per dispatch: the turn is shared by the counters;
 *  - groups of at most D3D12XS_ORDERED_APPEND_MAX_WAVES waves.
 * Within a wave, lanes get consecutive places in lane order; within a group (group mode),
 * threads get places in an unspecified order. The state lives in a register of its own,
 * u16382 in space 62, which DispatchX binds; it needs no root signature entry.
 */
#ifndef D3D12XS_ORDERED_APPEND_HLSLI
#define D3D12XS_ORDERED_APPEND_HLSLI

#define D3D12XS_ORDERED_APPEND_COUNTERS 8
#define D3D12XS_ORDERED_APPEND_MAX_WAVES 128 /* 1024 threads in waves of 8 */

/* byte offsets in the state (DispatchX clears it and writes the mode before the dispatch) */
#define D3D12XS_ORDERED_APPEND_TICKET 0
#define D3D12XS_ORDERED_APPEND_TURN 4
#define D3D12XS_ORDERED_APPEND_MODE 8
#define D3D12XS_ORDERED_APPEND_COUNTER(index) (16 + 4 * (index))

RWByteAddressBuffer d3d12xs_ordered_append_state : register(u16382, space62);
static uint d3d12xs_ordered_append_ticket = 0xffffffffu;   /* this wave's (group's) ticket */
static uint d3d12xs_ordered_append_group_ticket = 0u;      /* the group's first ticket */
static uint d3d12xs_ordered_append_group_index = 0u;
groupshared uint d3d12xs_ordered_append_waves;              /* waves in the group */
groupshared uint d3d12xs_ordered_append_first;              /* the group's ticket, then its first place */
groupshared uint d3d12xs_ordered_append_total;              /* the group's places */
groupshared uint d3d12xs_ordered_append_my_turn;            /* 1 once the turn reached the group's first ticket */
groupshared uint d3d12xs_ordered_append_wave_totals[D3D12XS_ORDERED_APPEND_MAX_WAVES];

bool D3D12XSOrderedAppendPerGroup()
{
    return d3d12xs_ordered_append_state.Load(D3D12XS_ORDERED_APPEND_MODE) != 0u;
}

uint D3D12XSOrderedAppendWaveIndex()
{
    return d3d12xs_ordered_append_group_index / WaveGetLaneCount();
}

/* Takes the launch tickets: the group's first thread takes one per wave of the group (or one
 * for the group), so the waves of a group hold consecutive tickets in wave order. */
void D3D12XSOrderedAppendLaunch(uint groupIndex)
{
    uint first = 0u;
    d3d12xs_ordered_append_group_index = groupIndex;
    if (groupIndex == 0u)
        d3d12xs_ordered_append_waves = 0u;
    GroupMemoryBarrierWithGroupSync();
    if (WaveIsFirstLane())
        InterlockedMax(d3d12xs_ordered_append_waves, D3D12XSOrderedAppendWaveIndex() + 1u);
    GroupMemoryBarrierWithGroupSync();
    if (groupIndex == 0u) {
        d3d12xs_ordered_append_state.InterlockedAdd(D3D12XS_ORDERED_APPEND_TICKET,
                D3D12XSOrderedAppendPerGroup() ? 1u : d3d12xs_ordered_append_waves, first);
        d3d12xs_ordered_append_first = first;
    }
    GroupMemoryBarrierWithGroupSync();
    d3d12xs_ordered_append_group_ticket = d3d12xs_ordered_append_first;
    d3d12xs_ordered_append_ticket = d3d12xs_ordered_append_group_ticket
            + (D3D12XSOrderedAppendPerGroup() ? 0u : D3D12XSOrderedAppendWaveIndex());
    GroupMemoryBarrierWithGroupSync();
}

/* The launch ticket of the calling wave (group): its place in the grant order. */
uint D3D12XSOrderedAppendTicket()
{
    return d3d12xs_ordered_append_ticket;
}

/* Reserves count places of counter (0 .. D3D12XS_ORDERED_APPEND_COUNTERS - 1) for the calling
 * thread; returns the first. The group's first thread waits for the group's turn, takes the
 * group's places at once and passes the turn on by the group's tickets; each wave's places
 * follow those of the waves before it. The wait is a loop the whole group runs: one thread
 * reads the turn, a group barrier, everyone leaves together or loops. A loop that only some
 * lanes of a wave ran, with wave operations after it, lost stores and hung on lavapipe (Mesa
 * 22.3), and one that only the group's first thread ran misplaced grants there now and then
 * under CPU load (4 runs in 100); this form never did in 180. */
uint D3D12XSOrderedAppend(uint counter, uint count)
{
    bool per_group = D3D12XSOrderedAppendPerGroup();
    uint wave = D3D12XSOrderedAppendWaveIndex(), before = WavePrefixSum(count), total = WaveActiveSum(count);
    uint offset = 0u, first, turn = 0u, ignored;

    if (d3d12xs_ordered_append_group_index == 0u)
        d3d12xs_ordered_append_total = 0u;
    if (d3d12xs_ordered_append_group_index < D3D12XS_ORDERED_APPEND_MAX_WAVES)
        d3d12xs_ordered_append_wave_totals[d3d12xs_ordered_append_group_index] = 0u;
    GroupMemoryBarrierWithGroupSync();
    if (per_group)
        InterlockedAdd(d3d12xs_ordered_append_total, count, offset);
    else if (WaveIsFirstLane()) {
        d3d12xs_ordered_append_wave_totals[wave] = total;
        InterlockedAdd(d3d12xs_ordered_append_total, total, ignored);
    }
    GroupMemoryBarrierWithGroupSync();
    /* Two nested loops of at most 60,000 rounds: lavapipe ends any one loop after 65,535
     * iterations (llvmpipe's loop limiter), which under CPU load cut a single-loop wait before
     * the turn came, and the group then appended out of turn. mine is each thread's own copy,
     * read between the two barriers, so every thread leaves both loops at the same round. */
    bool mine = false;
    [loop] for (uint outer = 0u; outer < 60000u && !mine; outer++) {
        [loop] for (uint inner = 0u; inner < 60000u; inner++) {
            if (d3d12xs_ordered_append_group_index == 0u) {
                d3d12xs_ordered_append_state.InterlockedOr(D3D12XS_ORDERED_APPEND_TURN, 0u, turn);
                d3d12xs_ordered_append_my_turn = turn == d3d12xs_ordered_append_group_ticket ? 1u : 0u;
            }
            GroupMemoryBarrierWithGroupSync();
            mine = d3d12xs_ordered_append_my_turn != 0u;
            if (mine)
                break;
            GroupMemoryBarrierWithGroupSync();
        }
    }
    if (d3d12xs_ordered_append_group_index == 0u) {
        DeviceMemoryBarrier();
        d3d12xs_ordered_append_state.InterlockedAdd(D3D12XS_ORDERED_APPEND_COUNTER(counter), d3d12xs_ordered_append_total, first);
        d3d12xs_ordered_append_first = first;
        DeviceMemoryBarrier();
        d3d12xs_ordered_append_state.InterlockedAdd(D3D12XS_ORDERED_APPEND_TURN, per_group ? 1u : d3d12xs_ordered_append_waves, ignored);
    }
    GroupMemoryBarrierWithGroupSync();
    first = d3d12xs_ordered_append_first;
    if (per_group) {
        first += offset;
    } else {
        for (uint w = 0u; w < wave; w++)
            first += d3d12xs_ordered_append_wave_totals[w];
        first += before;
    }
    GroupMemoryBarrierWithGroupSync();
    return first;
}

#endif
