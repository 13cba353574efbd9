// In-process wake-up of the background workers once new work is committed (an event in
// the outbox, a redelivery queued), so that they need not wait for their next poll.
// Other processes' work is found by that poll. The workers listen on the bus
// (`ctx.bus.onWork`), so no listener state lives in this module.
import { afterCommit, type AppContext } from '../context.ts';
import type { WorkKind } from './bus.ts';

/**
 * Wakes the workers waiting for `kind` (every worker when none is named) once the
 * transaction in `ctx` commits (never if it rolls back).
 */
export function wakeWorkers(ctx: AppContext, kind?: WorkKind): void {
  const { bus } = ctx;
  afterCommit(ctx, () => bus.announceWork(kind));
}
