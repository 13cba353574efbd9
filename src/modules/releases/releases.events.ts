// What the releases module does when other records go away: a deleted repository's
// asset files go with it (its rows go by cascade), once the deletion has committed.
import { afterCommit, type AppContext } from '../../context.ts';
import type { DomainEvent } from '../../events/outbox.ts';
import { removeRepository } from './release-asset-files.ts';

export function onEvent(ctx: AppContext, e: DomainEvent & { id: number }): Promise<void> {
  if (e.event === 'repository' && e.action === 'deleted' && e.repositoryId) {
    const repositoryId = e.repositoryId;
    afterCommit(ctx, () => {
      removeRepository(ctx, repositoryId).catch((err: unknown) => ctx.log.warn({ err, repositoryId }, 'release asset files of a deleted repository were not removed'));
    });
  }
  return Promise.resolve();
}
