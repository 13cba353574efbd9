// Fan-out: the oldest events of the outbox, each to the hooks it goes to. One
// transaction per batch: the event's payload (rendered once), a delivery row per hook,
// and the event marked dispatched, together.
import { randomUUID } from 'node:crypto';
import { inTransaction, type AppContext } from '../../context.ts';
import * as hooks from './hooks.dispatch.ts';
import * as repos from '../repos/repos.service.ts';
import * as outbox from '../../events/outbox.ts';
import { loadSources, organizationOf, renderPayload } from './hooks.payloads.ts';

/** Fans out the oldest `limit` undispatched events; returns how many were dispatched. */
export function fanOut(ctx: AppContext, limit: number): Promise<number> {
  return inTransaction(ctx, async (tx) => {
    const events = await outbox.claimUndispatched(tx, limit);
    if (events.length === 0) return 0;
    const repoIds = [...new Set(events.flatMap((e) => (e.repositoryId ? [e.repositoryId] : [])))];
    const repoById = new Map((await repos.reposByIds(tx, repoIds)).map((r) => [r.id, r]));
    const repoOf = (e: outbox.StoredEvent) => (e.repositoryId ? repoById.get(e.repositoryId) : undefined);
    const subscribers = await hooks.subscribersOf(tx, events.map((e) => {
      const org = organizationOf(e, repoOf(e));
      const hookId = e.payload.hook_id;
      const installation = e.payload.installation as { id?: unknown } | undefined;
      return {
        id: e.id, event: e.event, repositoryId: e.repositoryId ?? null, organizationIds: org ? [org] : [],
        hookId: typeof hookId === 'number' ? hookId : null,
        installationId: typeof installation?.id === 'number' ? installation.id : null,
      };
    }));
    const wanted = events.filter((e) => subscribers.has(e.id));
    if (wanted.length) {
      const wantedRepos = [...new Set(wanted.flatMap((e) => { const r = repoOf(e); return r ? [r] : []; }))];
      const sources = await loadSources(tx, wanted, wantedRepos);
      const payloads: hooks.NewPayload[] = [];
      const rows: hooks.NewDelivery[] = [];
      for (const e of wanted) {
        let payload: ReturnType<typeof renderPayload>;
        try {
          payload = renderPayload(e, sources, repoOf(e), tx.urls);
        } catch (err) {
          // One event that cannot be rendered must not hold back every later one.
          tx.log.error({ err, event: e.event, id: e.id }, 'webhook event dropped: its payload could not be rendered');
          continue;
        }
        if (!payload) {
          tx.log.warn({ event: e.event, id: e.id }, 'webhook event dropped: its repository is gone');
          continue;
        }
        payloads.push({ outboxId: e.id, payload: JSON.stringify(payload) });
        const guid = randomUUID();
        for (const h of subscribers.get(e.id)!) rows.push(deliveryRow(e, h, guid));
      }
      await hooks.queueDeliveries(tx, payloads, rows);
    }
    await outbox.markDispatched(tx, events.map((e) => e.id));
    return events.length;
  });
}

function deliveryRow(e: outbox.StoredEvent, s: hooks.Subscriber, guid: string): hooks.NewDelivery {
  return {
    hookId: s.hook.id, guid, event: e.event, action: e.action ?? null, repositoryId: e.repositoryId ?? null,
    installationId: s.installationId, outboxId: e.id, redelivery: false, url: s.hook.config.url,
  };
}
