// In-process wake-up of the background workers once new work is committed (an event in
// the outbox, a redelivery queued), so that they need not wait for their next poll.
// Other processes' work is found by that poll.
import { afterCommit, type AppContext } from '../context.ts';

const listeners = new Set<() => void>();

/** Calls `listener` after each commit that queued work. Returns the unsubscribe function. */
export function onWork(listener: () => void): () => void {
  listeners.add(listener);
  return () => { listeners.delete(listener); };
}

/** Wakes the workers once the transaction in `ctx` commits (never if it rolls back). */
export function wakeWorkers(ctx: AppContext): void {
  afterCommit(ctx, announce);
}

function announce(): void {
  for (const listener of listeners) listener();
}
