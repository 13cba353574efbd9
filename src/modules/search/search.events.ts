// What moves the search index: every event that can change what a repository's index
// should hold queues the repository for the index worker, in the recording
// transaction (so the queue entry commits with the change, and the worker is woken
// once it has). A push to any branch queues it (a first push may make a branch the
// default one); so do a new repository, an edit (default branch, visibility) and a
// rename. A deleted repository's index rows go with it by cascade; visibility and
// names are read at query time, so neither waits for the worker.
import type { AppContext } from '../../context.ts';
import type { DomainEvent } from '../../events/outbox.ts';
import { queueRepository } from './search-indexer.ts';

const QUEUED_BY = new Set(['push', 'repository:created', 'repository:edited', 'repository:renamed']);

export async function onEvent(ctx: AppContext, e: DomainEvent & { id: number }): Promise<void> {
  if (!e.repositoryId) return;
  if (QUEUED_BY.has(e.event) || QUEUED_BY.has(`${e.event}:${e.action ?? ''}`)) await queueRepository(ctx, e.repositoryId);
}
