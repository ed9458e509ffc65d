/* The console memory-model validation (SPEC §4): off by default, on with the debug layer
 * (D3D12XS_DEBUG) or D3D12XS_CONSOLE_VALIDATION=1 (=0 turns it off). It reads the command
 * record of each executed list and reports, once per case, a read that on the console could
 * see stale data even where the PC GPU gives the right answer: a queue writes memory (a
 * dispatch, a draw's render targets, a copy, a clear), then publishes a value with a bottom- or top-of-pipe write
 * that has no write-back (GL2_WRITEBACK, D3D12XBOX_FLUSH_BOP_TEXTURE_L2_WRITEBACK or IDLE)
 * and no barrier in between; another queue's list waits for that value (Wait32/64BitValueX)
 * and then reads what was written. On the console such a value can land before the writes
 * are complete in memory (SPEC §2.3). And the prefetch parser's (SPEC §2.2): a COMPUTE queue's
 * list writes a buffer and the queue signals a fence; a DIRECT queue waits for that value with a
 * WaitX that leaves the prefetch parser free (no TOP_SELECT_ENGINE_PFP), and an ExecuteIndirect
 * after it reads the buffer as arguments or count: the parser may read them before the wait
 * ends. docs/sync.md says what is modelled and what is not. */
#ifndef D3D12XS_CONSOLE_VALIDATION_H
#define D3D12XS_CONSOLE_VALIDATION_H

#include "commands/command_list_state.h"

void d3d12_console_validation_create(struct d3d12_device *device);
void d3d12_console_validation_destroy(struct d3d12_device *device);
/* Called for each list ExecuteCommandLists hands over; queue identifies the queue (lists of
 * one queue see each other's writes in order), queue_name names it in reports. */
void d3d12_console_validation_execute(struct d3d12_device *device, const struct d3d12_command_list *list, const void *queue, const char *queue_name);
/* A queue's fence wait (Wait, WaitX) and signal (Signal, SignalX), in the queue's order among its
 * executions; fence identifies the fence. holds_prefetch: the wait holds the console's prefetch
 * parser (Wait, or WaitX with TOP_SELECT_ENGINE_PFP); how names the call in reports. */
void d3d12_console_validation_queue_wait(struct d3d12_device *device, const void *queue, D3D12_COMMAND_LIST_TYPE type, const void *fence,
        uint64_t value, bool holds_prefetch, const char *how);
void d3d12_console_validation_queue_signal(struct d3d12_device *device, const void *queue, D3D12_COMMAND_LIST_TYPE type, const void *fence,
        const char *fence_name, uint64_t value);
/* The queue is released: nothing of it is matched any more (its address may be reused). */
void d3d12_console_validation_forget_queue(struct d3d12_device *device, const void *queue);

#endif
