// What the hooks module does when other records go away, inside the transaction that
// records their deletion: a deleted repository's or organization's hooks (and their
// deliveries) go with it. Subscribed by hooks.wiring.ts.
import type { AppContext } from '../../context.ts';
import { amendPayload, type DomainEvent } from '../../events/outbox.ts';
import { repositorySnapshot } from './hooks.payloads.ts';
import * as store from './hooks.store.ts';

export async function onEvent(ctx: AppContext, e: DomainEvent & { id: number }): Promise<void> {
  if (e.event === 'repository' && e.action === 'deleted' && e.repositoryId) {
    // The repository is still there when its deletion is recorded (the row goes after):
    // the payload keeps the record, as the organization's hooks are yet to be sent it.
    if (e.payload.repository === undefined) {
      const repository = await repositorySnapshot(ctx, e.repositoryId);
      if (repository) await amendPayload(ctx, e.id, { repository });
    }
    await store.removeAllOf(ctx.db, { scope: 'repository', targetId: e.repositoryId });
  }
  if (e.event === 'organization' && e.action === 'deleted' && e.organizationId) {
    await store.removeAllOf(ctx.db, { scope: 'organization', targetId: e.organizationId });
  }
}

